# harness.py for lab 6.1, "Fit the budget" (lesson 6).
# Fill the gaps marked '# --- your code ---', then check the file from its lab folder:
#     python lab/lab_check.py --harness harness.py --lesson 6 tests.py
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
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}


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


def int_arg(arguments, name, default):
    """The optional whole-number argument `name`, or `default` when it is absent or None. A
    bool is not a whole number here. Raises ValueError("<name> must be an integer")."""
    # --- your code --- gap 1 of 5: int_arg
    # A whole-number argument: arguments[name] when it is an int, `default` when it is absent or
    # None. Anything else raises ValueError with the text "NAME must be an integer" (the
    # argument's name for NAME), and so does a bool: Python counts True as 1, but no model that
    # sent true meant line 1.
    # Tests: test_int_arg, test_bad_arguments.
    # --- end ---


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


# given in lesson 6: the budget of one result, in the course's numbers
MAX_LINES = 2000  # the budget of one tool result: every result is sent again on every later
MAX_BYTES = 50_000  # turn. Counted in UTF-8 bytes, so "é" costs two.


def truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The beginning of `text` that fits the budget, as (kept, lines_shown): whole lines with
    their newlines, for files, which are read from the top. A first line that alone is over
    budget gives ("", 0), because half a line misleads."""
    # --- your code --- gap 2 of 5: truncate_head
    # (kept, lines_shown): the longest run of whole lines from the top of `text`, each with its
    # newline, that holds at most max_lines lines and at most max_bytes bytes of UTF-8 (exactly
    # max_bytes still fits; "é" costs two), and how many lines that is. A first line over budget on
    # its own gives ("", 0); empty text gives ("", 0).
    # Tests: test_the_line_cap, test_bytes_not_characters, test_a_first_line_too_big.
    # --- end ---


def truncate_tail(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The end of `text` that fits the budget, as (kept, lines_shown), in the original order:
    for command output, whose verdict is printed last."""
    # --- your code --- gap 3 of 5: truncate_tail
    # The same budget kept from the other end: the longest run of whole lines that ends the text
    # and fits both limits, in their original order, and how many lines that is.
    # Tests: test_truncate_tail, test_short_text_is_whole.
    # --- end ---


# given in lesson 6: the budget parameters, and a description that states them
def make_read_tool(ws, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `read` tool over the workspace `ws`. A read returns at most one budget of lines, and
    when it stops early its last line says where to carry on."""
    def execute(arguments):
        path = str_arg(arguments, "path")
        # --- your code --- gap 4 of 5: read's paging
        # read takes two more whole-number arguments, checked before the file is looked for:
        # "offset", the first line wanted, counted from 1 (1 when left out), and "limit", the most
        # lines wanted (no limit when left out). A bad one is refused as int_arg refuses it; one
        # below 1 raises ValueError with the text "offset and limit must be 1 or more".
        # Tests: test_bad_arguments, test_offset_and_limit.
        # --- end ---
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
        # --- your code --- gap 4, continued
        # A read returns at most one budget (max_lines, max_bytes) of the lines from offset on, and
        # no more than limit of them. What it says, exactly, with N the file's number of lines:
        #   - an offset past the last line (an empty file still takes offset 1) raises ValueError
        #     with the text "offset A is past the end of PATH: N lines" (A the offset)
        #   - lines were wanted and the first of them, S bytes long, is over budget on its own: the
        #     result is "[Line A of PATH is S bytes, over the M-byte budget of one read, so none of
        #     it is shown. Use offset=C to skip it.]" (M is max_bytes, C the next line), without
        #     " Use offset=C to skip it." when no line follows; a tool made with max_lines=0
        #     shows no line and says so: "[No line of PATH is shown: this read's budget is 0
        #     lines.]"
        #   - a read that stops before line N: the kept text, then straight after it
        #     "[Showing lines A-B of N. Use offset=C to continue.]" (A to B the lines shown,
        #     C the one after B)
        # Tests: test_a_long_file, test_offset_and_limit, test_a_line_over_budget,
        #   test_bad_arguments, test_the_factories_take_a_budget.
        return ws.read_text(path)
        # --- end ---

    return {
        "name": "read",
        "description": f"Return the text of a file. A single read stops after {max_lines} lines "
                       f"or {max_bytes} bytes; ask again with offset for the rest.",
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file, relative to the project."},
                "offset": {"type": "integer", "description": "Line to start at; the first is 1."},
                "limit": {"type": "integer", "description": "Most lines to return."},
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


def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `bash` tool: run one command line in `shell` and return what it printed. A command
    that exits non-zero still ran, so its code is information for the model, not a tool
    failure: the result is ordinary and ends with a status line."""
    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        # --- your code --- gap 5 of 5: bash's truncation
        # bash's result holds the end of the output (a command's verdict is printed last) that fits
        # max_lines and max_bytes. When lines were dropped, a blank line and then the note
        # "[Showing the last K of T lines. Narrow the command for more.]" follow the kept lines
        # (K lines kept, T printed): unless the kept text ends in "\n", or nothing is kept, a "\n"
        # is added to it first (after a "\r" or a rarer break too), then "\n" and the note. The
        # status line of lesson 4 comes after this note.
        # Tests: test_bash_keeps_the_tail, test_the_factories_take_a_budget.
        # --- end ---
        if code != 0:
            output += f"\nCommand exited with code {code}"
        return output

    return {
        "name": "bash",
        "description": "Run one shell command line; stdout and stderr come back together, cut "
                       f"to the last {max_lines} lines or {max_bytes} bytes.",
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


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """Give `prompt` to the model and carry on until a reply asks for no tools, a reply comes
    back failed, or `max_turns` model calls have been made. Each of those ways out is recorded
    as the run's last message, never raised. `messages` is the caller's list and the record:
    the prompt, each reply, and one result per call, in call order, are appended to it as
    they happen. Each request carries the view of it that context_for_model makes."""
    messages.append(user_message(prompt))
    turn = 0
    while True:
        turn += 1
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        calls = [] if failed else tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return


def context_for_model(messages):
    """The view: what the model is sent, built fresh for every request from the record, which
    it never changes. An empty assistant message that failed is left out, because a provider
    refuses an empty assistant message; a failed one that got words out stays."""
    endings = ("error",)  # the empty ending a provider would refuse
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
    return kept


# == 4 harness ==
# Empty until lesson 8, which gives the transcript a single owner.


# == 5 frontends ==
# Empty until lesson 7, whose frontends draw a run from its events.


# == 6 environment ==
# Empty until lesson 11, which keeps a session on disk.
