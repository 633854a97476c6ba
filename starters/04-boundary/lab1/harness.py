# harness.py for lab 4.1, "Draw the boundary" (lesson 4).
# Fill the gaps marked '# --- your code ---', then check the file from its lab folder:
#     python lab/lab_check.py --harness harness.py --lesson 4 tests.py
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


# == 2 tools ==
# A tool is a dict. The model is told its "name", "description" and "parameters" (JSON Schema).
# "execute" is a plain function, execute(arguments) -> str, that only this program calls.


def str_arg(arguments, name):
    """The string argument `name`. A schema asks the model for a string; nothing makes it send
    one. Raises ValueError("<name> must be a string") when it is missing or another type."""
    # --- your code --- gap 1 of 4: str_arg
    # The argument `name` as it was sent, when it is a str, "" included. When it is missing, or
    # holds anything but a str, str_arg raises ValueError with the text "NAME must be a string",
    # the argument's name in place of NAME, and never a KeyError. read, write and bash take their
    # string arguments through it (their gaps below).
    # Tests: test_str_arg, test_bad_arguments_are_results.
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
    # --- your code --- gap 2 of 4: the boundary
    # run_tool raises no Exception: every call ends in exactly one result, whatever its tool does,
    # under the names `text` and `failed` that the return below reads. A name no tool has gets the
    # text "Tool NAME not found", the call's name in place of NAME, is_error True (of two tools
    # with one name, either may answer). A tool whose execute raises an Exception of any kind gets
    # str(exc), is_error True, and the later calls of its batch still run (an exception whose str()
    # itself raises is beyond this lesson). What the program raises as it ends, such as
    # lab.PowerCut, is not a tool failing: it leaves run_tool as it came. A tool that returns gets
    # what it returned, is_error False, as before.
    # Tests: test_a_raise_becomes_a_result, test_an_unknown_tool,
    #   test_every_exception_becomes_a_result, test_a_power_cut_passes_through,
    #   test_a_failure_mid_batch, test_the_next_request_carries_the_error.
    tool = {t["name"]: t for t in tools}[call["name"]]
    text, failed = tool["execute"](call["arguments"]), False
    # --- end ---
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}


def make_read_tool(ws):
    """The `read` tool over the workspace `ws`: the whole text of one file, named by its path."""
    def execute(arguments):
        # --- your code --- gap 3 of 4: read's missing file
        # A bad call raises, and run_tool makes the raise the call's result. The path comes through
        # str_arg. A path with nothing at it raises FileNotFoundError with the text
        # "File not found: PATH. Files here: NAMES", where NAMES are what ws.listdir(".") gives,
        # joined by ", ", so that the model learns what it could have asked for. ws.exists(path)
        # says whether anything is at a path.
        # Tests: test_read_a_missing_file, test_bad_arguments_are_results.
        return ws.read_text(arguments["path"])
        # --- end ---

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
        # --- your code --- gap 1, continued
        # write's "path" and "content" come through str_arg.
        # Tests: test_bad_arguments_are_results.
        path, content = arguments["path"], arguments["content"]
        # --- end ---
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
        # --- your code --- gap 1, continued
        # bash's "command" comes through str_arg.
        # Tests: test_bad_arguments_are_results.
        output, code = shell.run(arguments["command"])
        # --- end ---
        # --- your code --- gap 4 of 4: bash's status line
        # A command that exits non-zero still ran: it raises nothing, and its result is an ordinary
        # one. When the exit code is not 0, the result is what the command printed, then a newline,
        # then "Command exited with code N", the code in place of N. Code 0 adds nothing.
        # Tests: test_a_failing_command_is_information, test_success_adds_nothing.
        # --- end ---
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


def run_agent(model, system, messages, tools, prompt):
    """Give `prompt` to the model and carry on until a reply asks for no tools. `messages` is
    the caller's list and the record: the prompt, each reply, and one result per call, in call
    order, are appended to it as they happen, so a second run on the same list carries the
    conversation on. The system prompt travels beside the list, never inside it."""
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return


# == 4 harness ==
# Empty until lesson 8, which gives the transcript a single owner.


# == 5 frontends ==
# Empty until lesson 7, whose frontends draw a run from its events.


# == 6 environment ==
# Empty until lesson 11, which keeps a session on disk.
