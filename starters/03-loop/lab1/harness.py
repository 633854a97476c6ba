# harness.py for lab 3.1, "Keep going" (lesson 3).
# Fill the gaps marked '# --- your code ---', then check the file from its lab folder:
#     python lab/lab_check.py --harness harness.py --lesson 3 tests.py
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


def tool_specs(tools):
    """What the model may know of each tool: name, description and parameters, in order. The
    function itself never leaves this program."""
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]


def run_tool(tools, call):
    """Answer one call with its toolResult: the tool the call names runs on the call's
    arguments, and what it returns goes back under the call's id, so that the model can tell
    which of its calls this answers."""
    tool = {t["name"]: t for t in tools}[call["name"]]
    text, failed = tool["execute"](call["arguments"]), False
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}


def make_read_tool(ws):
    """The `read` tool over the workspace `ws`: the whole text of one file, named by its path."""
    def execute(arguments):
        return ws.read_text(arguments["path"])

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


# given in lesson 3: the two factories and their tool dicts; each execute is yours
def make_write_tool(ws):
    """The `write` tool: makes a file in `ws`, or overwrites one that is there, whole."""
    def execute(arguments):
        # --- your code --- gap 1 of 3: write's execute
        # write's execute: afterwards the file named by the "path" argument holds exactly the
        # "content" argument, made if it was not there and replaced whole if it was, and nothing
        # else in the workspace has changed. The result is the sentence "Successfully wrote to
        # PATH." with the path in place of PATH, character for character: the model cannot see the
        # disk, and this sentence is all it learns of the write. The workspace `ws` has write_text,
        # which takes a path and the file's whole text.
        # Tests: test_the_write_tool, test_a_write_then_a_read.
        pass
        # --- end ---

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
    """The `bash` tool: run one command line in `shell` and return what it printed, stdout and
    stderr together."""
    def execute(arguments):
        # --- your code --- gap 2 of 3: bash's execute
        # bash's execute: the result is what the "command" argument printed when run in `shell`,
        # stdout and stderr together, as one string. shell.run takes a command line and gives back
        # a pair: that output, and the command's exit code, which the model does not get until
        # lesson 4.
        # Tests: test_the_bash_tool, test_a_write_then_a_read.
        pass
        # --- end ---

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


# given in lesson 3: the function's first line and its docstring; the loop is yours
def run_agent(model, system, messages, tools, prompt):
    """Give `prompt` to the model and carry on until a reply asks for no tools. `messages` is
    the caller's list and the record: the prompt, each reply, and one result per call, in call
    order, are appended to it as they happen, so a second run on the same list carries the
    conversation on. The system prompt travels beside the list, never inside it."""
    # --- your code --- gap 3 of 3: the loop
    # The run. When it returns, `messages` (the caller's own list, and the record) holds what it
    # held before, then the prompt, word for word, as a user message, then every reply and every
    # result, in the order they happened. Each request to the model carries the whole record so
    # far, `system` unchanged beside it (never inside it), and tool_specs(tools) as the list is
    # when it is sent (a tool added during a run is told from the next request on). Every call of
    # a reply has its result from run_tool on the record, in call order, before the next request.
    # What a reply asks for is read off its content (tool_calls), never off its stop_reason, and
    # the run ends at the first reply that asks for nothing. How many rounds a job takes is not
    # known in advance. What run_agent returns is not part of the contract.
    # Tests: test_a_plain_reply, test_one_call_then_an_answer, test_a_batch_is_answered_in_order,
    #   test_two_rounds, test_any_number_of_rounds, test_the_callers_list_is_the_record,
    #   test_a_long_conversation_is_sent_whole, test_every_request_carries_the_specs,
    #   test_words_and_a_call, test_the_content_decides.
    # --- end ---


# == 4 harness ==
# Empty until lesson 8, which gives the transcript a single owner.


# == 5 frontends ==
# Empty until lesson 7, whose frontends draw a run from its events.


# == 6 environment ==
# Empty until lesson 11, which keeps a session on disk.
