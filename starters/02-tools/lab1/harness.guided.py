# harness.py for lab 2.1, "Run what it asks for" (lesson 2, guided level: each gap spells out its steps).
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
    # Join the "text" of each block whose "type" is "text", in order, and skip the calls.
    # A reply with no words gives "". One of the lab's tests:
    #     message = lab.reply("Looking. ", lab.call("read", {"path": "a.py"}), "Done.")
    #     text_of(message) == "Looking. Done."
    # --- end ---


def tool_calls(message):
    """The calls an assistant message makes, in order. Derived from content every time it is
    asked, so there is no second copy to fall out of step."""
    # --- your code --- gap 2 of 5: tool_calls
    # The blocks whose "type" is "toolCall", in the order they stand in the content; [] for a
    # plain answer. Return the blocks themselves, and work them out from "content" on every
    # call: a second list kept beside the content could disagree with it.
    # --- end ---


# == 2 tools ==
# A tool is a dict. The model is told its "name", "description" and "parameters" (JSON Schema).
# "execute" is a plain function, execute(arguments) -> str, that only this program calls.


def tool_specs(tools):
    """What the model may know of each tool: name, description and parameters, in order. The
    function itself never leaves this program."""
    # --- your code --- gap 3 of 5: tool_specs
    # A new list of new dicts, one per tool, in the tools' order, each with exactly three
    # keys: "name", "description" and "parameters". The tools themselves must come out as
    # they went in, and "execute" must not be among what the model is sent. A tool lacking one
    # of the three keys raises KeyError, as tool["description"] does: make nothing up for it.
    # --- end ---


def run_tool(tools, call):
    """Answer one call with its toolResult: the tool the call names runs on the call's
    arguments, and what it returns goes back under the call's id, so that the model can tell
    which of its calls this answers."""
    # --- your code --- gap 4 of 5: run_tool
    # Pick the tool whose "name" is call["name"] (the model may ask for any of them, in any
    # order), run its "execute" on call["arguments"], and return the call's answer:
    #     {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
    #      "content": <what execute returned>, "is_error": False}
    # The id is how the model pairs this result with the call that asked for it.
    # --- end ---


# given in lesson 2: the factory and its tool dict; execute is yours
def make_read_tool(ws):
    """The `read` tool over the workspace `ws`: the whole text of one file, named by its path."""
    def execute(arguments):
        # --- your code --- gap 5 of 5: read's execute
        # Return the whole text of the file whose path is arguments["path"]: ws.read_text(path).
        # One of the lab's tests, in a workspace holding the file notes.txt:
        #     make_read_tool(ws)["execute"]({"path": "notes.txt"}) == ws.read_text("notes.txt")
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
