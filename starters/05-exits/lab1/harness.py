# harness.py for lab 5.1, "Every way out" (lesson 5).
# Fill the gaps marked '# --- your code ---', then check the file from its lab folder:
#     python lab/lab_check.py --harness harness.py --lesson 5 tests.py
"""A coding-agent harness in one file: a model, the tools it may call, and the loop between them."""

# == 1 messages ==
# A conversation is a list of messages, and a message is a dict tagged with the role that spoke.


def user_message(text):
    """What the user said. User content is a plain string."""
    return {"role": "user", "content": text}


def text_of(message):
    """The words of an assistant message, joined. Its content is a list of blocks, because one
    reply can mix words and calls; the words are the blocks of type "text"."""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")


def tool_calls(message):
    """The calls an assistant message makes, in order. Derived from content every time it is
    asked, so there is no second copy to fall out of step."""
    return [block for block in message["content"] if block["type"] == "toolCall"]


def error_message(text):
    """An assistant message that ends a run and says why: empty content, the reason in
    error_message, stop_reason "error". Runs record their endings; they do not raise them."""
    # --- your code --- gap 1 of 4: error_message
    # An ending the record can hold: an assistant message with exactly four keys, "role", "content"
    # (empty: nothing was said), "stop_reason" "error", and "error_message" holding `text`.
    # Tests: test_error_message.
    # --- end ---


# == 2 tools ==
# A tool is a dict. The model is told its "name", "description" and "parameters" (JSON Schema).
# "execute" is a plain function, execute(arguments) -> str, that only this program calls.


def str_arg(arguments, name):
    """The string argument `name`. A schema asks the model for a string; nothing makes it send
    one. Raises ValueError("<name> must be a string") when it is missing or another type."""
    got = arguments.get(name)  # None when the model left it out
    if isinstance(got, str):
        return got
    raise ValueError(f"{name} must be a string")


def tool_specs(tools):
    """What the model may know of each tool: name, description and parameters, in order. The
    function itself never leaves this program."""
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]


def run_tool(tools, call):
    """Answer one call with exactly one toolResult, whatever happens. Tools report failure by
    raising; this is the one place a raise becomes a result (is_error True), so it never raises
    Exception. Anything wider, such as lab.PowerCut, is the program ending and passes through."""
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}


def make_read_tool(ws):
    """The `read` tool over the workspace `ws`: the whole text of one file, named by its path."""
    def execute(arguments):
        path = str_arg(arguments, "path")
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
        return ws.read_text(path)

    return {
        "name": "read",
        "description": "Return the text of a file.",
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file, relative to the project."},
            },
            "required": ["path"],
        },
        "execute": execute,
    }


def make_write_tool(ws):
    """The `write` tool: makes a file in `ws`, or overwrites one that is there, whole."""
    def execute(arguments):
        path, content = str_arg(arguments, "path"), str_arg(arguments, "content")
        ws.write_text(path, content)
        return f"Successfully wrote to {path}."

    return {
        "name": "write",
        "description": "Create a text file, or replace everything in one that exists.",
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file, relative to the project."},
                "content": {"type": "string", "description": "Everything the file will hold."},
            },
            "required": ["path", "content"],
        },
        "execute": execute,
    }


def make_bash_tool(shell):
    """The `bash` tool: run one command line in `shell` and return what it printed. A command
    that exits non-zero still ran, so its code is information for the model, not a tool
    failure: the result is ordinary and ends with a status line."""
    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        if code != 0:
            output += f"\nCommand exited with code {code}"
        return output

    return {
        "name": "bash",
        "description": "Run one shell command line; stdout and stderr come back together.",
        "parameters": {
            "type": "object",
            "properties": {"command": {"type": "string", "description": "What to run."}},
            "required": ["command"],
        },
        "execute": execute,
    }


# == 3 loop ==
# The code that talks to the model. The model remembers nothing, so every request carries
# everything.


# given in lesson 5: a new parameter, max_turns
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """Give `prompt` to the model and carry on until a reply asks for no tools, a reply comes
    back failed, or `max_turns` model calls have been made. Each of those ways out is recorded
    as the run's last message, never raised. `messages` is the caller's list and the record:
    the prompt, each reply, and one result per call, in call order, are appended to it as
    they happen. Each request carries the view of it that context_for_model makes."""
    messages.append(user_message(prompt))
    turn = 0
    while True:
        # given in lesson 5: a count of model calls, for the check at the top of each turn
        turn += 1
        # --- your code --- gap 2 of 4: the top of a turn
        # The cap, and what a request carries. Given max_turns=N, the run makes at most N requests,
        # none when N is 0. When the cap ends a run, every call of every reply it got has its
        # result, and its last message is an ending made by error_message, whose text is the
        # sentence "Agent stopped after max_turns=N" (the number in place of N). max_turns=None:
        # no cap.
        # Each request carries the view of the record that gap 4 makes, never the record itself.
        # Tests: test_max_turns_stops_an_endless_run, test_the_last_batch_is_answered,
        #   test_turns_are_model_calls.
        reply = model.complete(system, messages, tool_specs(tools))
        # --- end ---
        messages.append(reply)
        # --- your code --- gap 3 of 4: the failed branch
        # A reply whose stop_reason is "error" failed, whatever its error_message holds (it can be
        # empty, or None on a reply that did not fail). It stays on the record (above) and ends the
        # run: none of its calls runs, and the model is not asked again.
        # Tests: test_a_failed_reply_is_not_acted_on,
        # test_a_reply_cut_off_at_the_output_limit_runs_none_of_its_calls.
        calls = tool_calls(reply)
        # --- end ---
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return


def context_for_model(messages):
    """The view: what the model is sent, built fresh for every request from the record, which
    it never changes. An empty assistant message that failed is left out, because a provider
    refuses an empty assistant message; a failed one that got words out stays."""
    # --- your code --- gap 4 of 4: context_for_model
    # The view of the record that a request carries: a new list (even when nothing is left out)
    # of the record's messages in order, less each assistant message that has no content and
    # stop_reason "error" (a provider refuses an empty assistant message; one that got words out
    # stays). The record is not changed.
    # Tests: test_context_for_model, test_the_request_after_a_failure.
    # --- end ---


# == 4 harness ==
# Empty until lesson 8, which gives the transcript a single owner.


# == 5 frontends ==
# Empty until lesson 7, whose frontends draw a run from its events.


# == 6 environment ==
# Empty until lesson 11, which keeps a session on disk.
