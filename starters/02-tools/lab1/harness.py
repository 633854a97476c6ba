# harness.py for lab 2.1, "Run what it asks for" (lesson 2).
# Fill the gaps marked '# --- your code ---', then check the file from its lab folder:
#     python lab/lab_check.py --harness harness.py --lesson 2 tests.py
"""A coding-agent harness in one file: a model, the tools it may call, and the loop between them."""

# == 1 messages ==
# A conversation is a list of messages, and a message is a dict tagged with the role that spoke.


# given in lesson 2: you wrote this in lesson 1
def user_message(text):
    """What the user said. User content is a plain string."""
    return {"role": "user", "content": text}


def text_of(message):
    """The words of an assistant message, joined. Its content is a list of blocks, because one
    reply can mix words and calls; the words are the blocks of type "text"."""
    # --- your code --- gap 1 of 5: text_of
    # The words of `message`, as one string: the "text" of every block of type "text", in the order
    # they stand, with nothing put between them. Calls carry no words, so a reply made only of
    # calls gives "".
    # Tests: test_text_of.
    # --- end ---


def tool_calls(message):
    """The calls an assistant message makes, in order. Derived from content every time it is
    asked, so there is no second copy to fall out of step."""
    # --- your code --- gap 2 of 5: tool_calls
    # The call blocks of `message` (type "toolCall"), in the order they stand, as the very blocks
    # of its content; [] for a plain answer. Nothing is kept between two asks: after the content is
    # edited, the next answer follows the content as it is now.
    # Tests: test_tool_calls, test_two_calls_two_results.
    # --- end ---


# == 2 tools ==
# A tool is a dict. The model is told its "name", "description" and "parameters" (JSON Schema).
# "execute" is a plain function, execute(arguments) -> str, that only this program calls.


def tool_specs(tools):
    """What the model may know of each tool: name, description and parameters, in order. The
    function itself never leaves this program."""
    # --- your code --- gap 3 of 5: tool_specs
    # What the model is told of the tools: a new list, one new dict per tool in the tools' order,
    # with exactly the keys "name", "description" and "parameters". No function, and no other key a
    # tool carries, is in it, and the tools are left exactly as they were. A tool lacking one of
    # those keys raises KeyError: nothing is made up for it.
    # Tests: test_specs_have_three_keys_in_order, test_specs_do_not_change_the_tools.
    # --- end ---


def run_tool(tools, call):
    """Answer one call with its toolResult: the tool the call names runs on the call's
    arguments, and what it returns goes back under the call's id, so that the model can tell
    which of its calls this answers."""
    # --- your code --- gap 4 of 5: run_tool
    # The result of one call. The tool that runs is the one in `tools` whose "name" is the call's
    # name (a function of this file with that name is not a tool), and its "execute" gets the
    # call's arguments, once. The result is a toolResult with exactly five keys: "role", the call's
    # id as "tool_call_id", its name as "tool_name", what execute returned as "content", and
    # "is_error" False. The id is how the model pairs a result with its call.
    # Tests: test_run_tool_returns_a_result, test_execute_gets_the_arguments,
    #   test_the_tool_is_picked_by_name.
    # --- end ---


# given in lesson 2: the factory and its tool dict; execute is yours
def make_read_tool(ws):
    """The `read` tool over the workspace `ws`: the whole text of one file, named by its path."""
    def execute(arguments):
        # --- your code --- gap 5 of 5: read's execute
        # read's execute: the whole text of the file in `ws` named by the "path" argument, as the
        # workspace holds it. The path goes to ws as the call spells it: read tidies nothing.
        # Tests: test_the_read_tool, test_a_round_trip_by_hand.
        pass
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


# == 3 loop ==
# Empty until lesson 3, whose loop is the code that talks to the model.


# == 4 harness ==
# Empty until lesson 8, which gives the transcript a single owner.


# == 5 frontends ==
# Empty until lesson 7, whose frontends draw a run from its events.


# == 6 environment ==
# Empty until lesson 11, which keeps a session on disk.
