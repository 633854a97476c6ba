"""Lesson 2, lab 1: run what it asks for. The tests of text_of, tool_calls, tool_specs, run_tool
and the read tool, and of one round trip driven by hand.

Each test draws its cases (how many blocks, calls and tools, their order, names and texts) from
t.random, so it checks its rule over a family of cases; the same seed draws the same ones.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 2 tests.py
"""
import copy
import json

import harness
import lab
from lab.kit import lab_test, raised, sealed, settle, tool

LAB = "2.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
# Words a reply may hold: the empty block, a line break and a non-ASCII letter among them.
WORDS = ["Looking. ", "Done.", "Let me check ", "the file. ", "", "\n", "Voilà: ", "two, ",
         "then three."]
PATHS = ["a.py", "notes.txt", "src/app.py", "README.md", "docs/plan.md", "tests/test_app.py",
         "setup.py", "todo.md"]
# A file's text: the empty file, one with no final line break, and a non-ASCII one among them.
TEXTS = ["", "print('hello')\n", "- ship it\n- test it\n", "no newline at the end",
         "first line\nsecond line\n", "naïve café\n", "x = 1\ny = 2\n"]
TOOL_NAMES = ["read", "write", "bash", "grep", "edit", "ls", "find", "fetch"]
# Names of harness.py's own functions: a tool may share one.
HARNESS_NAMES = ["tool_calls", "text_of", "run_tool", "tool_specs", "user_message"]
# A file of 1000 lines of 50 bytes: 50,000 bytes, as long as a file lesson 6's read still returns
# whole.
LONG = "".join(f"line {n} of 1000".ljust(49, ".") + "\n" for n in range(1, 1001))
# A file of 2500 short lines: longer than lesson 6's read gives at once, which says so when it cuts.
LINES = "".join(f"{n}\n" for n in range(1, 2501))
# A file that starts with a byte-order mark and whose lines end in spaces, a tab and "\r\n": the
# bytes are the file's, not to be tidied.
RAGGED = "\ufefftwo spaces  \r\na tab\t\r\nno end  "
# A text of 4,000,000 characters: past any cap a harness might set itself, yet cheap to hold.
WIDE = LONG * 80
# Words as a model may send them, not in Unicode's composed form (an "e" then a combining accent)
# and with a NUL among them: text, content and files hold them as they came.
RAW = ["cafe\u0301 ", "nai\u0308ve, ", "a NUL \x00 in it. ", "\x00"]
# What execute may return, each an answer run_tool passes on as it is: the empty text, texts that
# only look like failures, a line ending in "\r\n", a text of 4,000,000 characters, and
# (wrongly, but not run_tool's to fix) a number and None.
ANSWERS = ["", "Error: disk full (the first line of a log)\n", "a line of a Windows file\r\n",
           "Traceback (most recent call last):\n  a saved crash report\n", WIDE, 42, None,
           "cafe\u0301 and a NUL \x00\n", ValueError("returned, not raised")]


def block(name, arguments=None, id="c1"):
    """A call block as a delivered reply holds it: with its id already given."""
    return lab.call(name, arguments, id=id)


def ids(t, count):
    """`count` distinct call ids, in no particular order (c7, c2, c31, ...)."""
    return [f"c{n}" for n in t.random.sample(range(1, 100), count)]


def some_calls(t, count):
    """`count` call blocks with distinct ids, each naming a drawn tool and path."""
    return [block(t.random.choice(TOOL_NAMES), {"path": t.random.choice(PATHS)}, id)
            for id in ids(t, count)]


def brief(value):
    """`value`, or for a text over 200 characters its length and last 20, so that a record
    stays small; an exception object (returned, not raised) by its repr."""
    if isinstance(value, BaseException):
        return f"the exception object {value!r}"
    if isinstance(value, str) and len(value) > 200:
        return f"{len(value)} characters, ending {value[-20:]!r}"
    return value


async def outcome(tools, call, objects=None):
    """What run_tool did with `call`: [what it raised, or None; the result it gave, or None].
    The very object it raised, if it raised, goes into `objects` when a list is given."""
    given = []

    async def answer():
        try:
            given.append(await settle(harness.run_tool(tools, call)))
        except KeyError as missing:  # a subclass of KeyError is a KeyError, whatever its name
            if objects is not None:
                objects.append(missing)
            if type(missing) is KeyError:
                raise
            raise KeyError(*missing.args) from None
        except Exception as problem:
            if objects is not None:
                objects.append(problem)
            raise
    problem = await raised(answer)
    return problem, (given[0] if given else None)


FIVE = ["content", "is_error", "role", "tool_call_id", "tool_name"]


def an_error_result(result, call):
    """Whether `result` is lesson 4's error result for `call`: a tool result in the format, with
    exactly its five keys (the role "toolResult", the call's id and name), is_error True."""
    return isinstance(result, dict) and sorted(result) == FIVE and \
        result["role"] == "toolResult" and result["tool_call_id"] == call["id"] and \
        result["tool_name"] == call["name"] and result["is_error"] is True


def refused(problem, result, call):
    """Whether run_tool refused `call` for a tool it does not have, as lesson 2's does (it
    raises KeyError) or as lesson 4's and every later one's does (a result naming the call,
    is_error True, in the format: exactly its five keys)."""
    if problem is not None:
        return problem.startswith("KeyError")
    return an_error_result(result, call)


def fail(problem):
    """Raise `problem`: the body of a tool that fails."""
    raise problem


def own_error(problem, result, failure, call, very=None):
    """Whether what run_tool did with a tool that raised `failure` gives back the tool's own error:
    raised as it was (lesson 2: the very object, so the same kind, the same words) or put in an
    error result that holds its words, in the format, exactly its five keys (lesson 4 and every
    later lesson). `very` is the object run_tool raised, or None."""
    words = str(failure.args[0])
    if problem is not None:
        return problem.partition(":")[0] == type(failure).__name__ and words in problem and \
            very is failure
    return an_error_result(result, call) and words in str(result["content"])


class Asked(lab.Workspace):
    """A workspace that keeps each path its read_text is asked for, as it was spelled, so a test
    can see what a read tool handed it; it reads like any other workspace."""

    def __init__(self, files):
        super().__init__(files)
        self.asked = []

    def read_text(self, path):
        self.asked.append(path)
        return super().read_text(path)


def recording(name, answer):
    """A tool named `name` that answers `answer` and keeps the arguments of each call it gets.
    Returns (tool, the list of arguments seen)."""
    seen = []

    def fn(arguments):
        seen.append(arguments)
        return answer
    return tool(name, fn, PATH), seen


@lab_test("text_of joins the words of a reply in order, skipping the calls between them, and "
          "gives \"\" for a reply that is only calls.")
async def test_text_of(t):
    parts = t.random.sample(WORDS, t.random.randint(2, 5)) + some_calls(t, t.random.randint(1, 3))
    parts.append(" " * t.random.randint(1, 3))  # a block of spaces only: words like any other
    t.random.shuffle(parts)
    t.expect(harness.text_of(lab.reply(*parts)),
             "".join(part for part in parts if isinstance(part, str)),
             "text_of joins the text blocks in order and leaves the calls out, wherever they "
             "stand, a block of spaces only included: it is a block of type \"text\" like any "
             "other, and its spaces are words too (text_of, lesson 2; Build item 1 \"the "
             "`\"text\"` of every block of type `\"text\"`\").")
    t.expect(harness.text_of(lab.reply(*some_calls(t, t.random.randint(1, 3)))), "",
             "A reply with no text blocks has no words: \"\" (text_of, lesson 2).")
    answer = "\r\n".join(t.random.sample([word for word in WORDS if word.endswith(" ")], 2)) + "\t"
    t.expect(harness.text_of(lab.say(answer)), answer,
             "A plain answer is its one text block, as it is: text_of joins the text blocks in "
             "order and trims nothing, a space, a Windows line break (\"\\r\\n\") and a "
             "final tab included (text_of, lesson 2; Build item 1).")
    word = t.random.choice([word for word in WORDS if word.strip()])
    twice = lab.reply(word, word, *some_calls(t, 1), word)
    before = harness.text_of(twice)
    twice["content"][t.random.randrange(2)]["text"] = "Changed. "
    twice["content"].append({"type": "text", "text": "Added."})
    after = harness.text_of(twice)
    twice["content"][-1]["text"] = "Added again."  # an edit in place, no block added this time
    third = harness.text_of(twice)
    twice["content"][t.random.randrange(2)]["text"] = "Edited. "  # in place, not the last block
    t.expect([before, after, third, harness.text_of(twice)],
             why="Every text block gives its words, a word said again right after itself "
                 "included (the model may say it twice), and text_of follows the content as "
                 "it is when asked: after the caller changed one of its words and added a text "
                 "block, the answer is the new words, and after it changed a word again, the "
                 "content as long as before, the newer words, whichever block it changed, the "
                 "last or one before it. Items: text_of of a reply [word, word, call, word], "
                 "then of the same reply after the first edit, then after the second (the last "
                 "block), then after the third (an earlier block) (text_of, lesson 2; Build "
                 "item 1).")
    many = [f"{t.random.choice(WORDS)}{n} " for n in range(t.random.randint(55, 200) * 5)]
    for word in RAW:  # words not in composed form, and NULs: the model's, as it sent them
        many.insert(t.random.randrange(1, len(many)), word)
    t.expect([harness.text_of(lab.reply(*many, *some_calls(t, 1), many[0])),
              brief(harness.text_of(lab.reply(WIDE, *some_calls(t, 1))))],
             ["".join(many + many[:1]), brief(WIDE)],
             "text_of joins the \"text\" of every block of type \"text\", however many the reply "
             "holds and however long each is, every character as it came: none is dropped past a "
             "count of its own (here 279 to 1004 short blocks, then a call, then one more, "
             "among them an \"e\" followed by a combining accent, not made its one-letter "
             "form, and a NUL, not taken out) and none is cut (a block of "
             "4,000,000 characters before a call). Items: text_of of the reply of many blocks, "
             "then of the long one by its length and last 20 (text_of, lesson 2; Build item 1).")


@lab_test("tool_calls gives the call blocks in the order they stand, [] for a plain answer, and "
          "follows the content when it is edited, because it is worked out from it every time.")
async def test_tool_calls(t):
    calls = some_calls(t, t.random.randint(2, 5))
    calls[t.random.randrange(len(calls))]["name"] = ""  # a name of no letters: a call all the same
    calls[t.random.randrange(len(calls))]["id"] = ""  # an id of no letters: a call all the same
    calls[t.random.randrange(len(calls))]["arguments"] = t.random.choice(["path=a.py", None])
    parts = calls + t.random.sample(WORDS, t.random.randint(1, 3))
    t.random.shuffle(parts)
    message = lab.reply(*parts)
    in_order = [part for part in parts if not isinstance(part, str)]
    t.expect([c["id"] for c in harness.tool_calls(message)], [c["id"] for c in in_order],
             "tool_calls gives every call of the reply, not only the first, in content order, "
             "skipping text, a call whose name is \"\", one whose id is \"\" and one whose "
             "arguments are not an object (a text or None) among them: each is a block of type "
             "\"toolCall\", and run_tool or the tool, not tool_calls, judges it. Each item "
             "is a call's id (tool_calls, lesson 2; Build item 2).")
    found = harness.tool_calls(message)
    t.expect(found, in_order,
             "Each call is the block itself: type, id, name, arguments (tool_calls, lesson 2).")
    t.expect([any(call is part for part in in_order) for call in found], [True] * len(found),
             "Each call is the very block of the content, not a copy of it (tool_calls, "
             "lesson 2). Each item says whether one call given back is a block of the content.")
    plain = harness.tool_calls(lab.say(t.random.choice(WORDS)))
    answers = [list(plain), isinstance(plain, list)]
    plain.append(block("ls", {"path": "."}, "c99"))  # a caller adds to the list it was given
    answers.append(harness.tool_calls(lab.say(t.random.choice(WORDS))))
    t.expect(answers, [[], True, []],
             "A plain answer makes no calls: [], a list like any other answer of tool_calls, so "
             "a caller can add to it, and a new list at each ask, so what one caller added is "
             "not in the next plain answer. Items: the answer, whether it is a list, then the "
             "next plain answer after a caller added a call to the first (tool_calls, lesson 2; "
             "Build item 2 \"Nothing is kept between two asks\").")
    message["content"].append(block("write", {"path": "b.py", "content": ""}, "c100"))
    del message["content"][t.random.randrange(len(message["content"]) - 1)]
    t.expect([c["id"] for c in harness.tool_calls(message)],
             [b["id"] for b in message["content"] if b["type"] == "toolCall"],
             "The calls are derived from content each time they are asked for, so an edit to "
             "content (here a call added at the end and a block removed) shows at once; a "
             "second stored list would go stale. Each item is a call's id (tool_calls, "
             "lesson 2).")
    middle = t.random.randrange(len(message["content"]) - 1)  # never the last block
    message["content"][middle] = block("grep", {"path": "c.py"}, "c101")
    t.expect([c["id"] for c in harness.tool_calls(message)],
             why="Nothing is kept between two asks (Build item 2): after a block in the middle "
                 "of the content is replaced by another call, the content as long as before "
                 "and its last block the same, the next ask follows the content as it is then. "
                 "Each item is a call's id (tool_calls, lesson 2).")
    # A caller re-makes one call in place: a new block, the same id, other arguments.
    at = t.random.choice([n for n, b in enumerate(message["content"]) if b["type"] == "toolCall"])
    message["content"][at] = dict(message["content"][at], arguments={"path": "remade.py"})
    t.expect([[c["id"], c["arguments"], any(c is b for b in message["content"])]
              for c in harness.tool_calls(message)],
             why="Nothing is kept between two asks, and each call is the very block of the "
                 "content (Build item 2): after a call is re-made in place as a new block with "
                 "the same id and other arguments, the next ask gives the new block, not the one "
                 "it gave before. Each item is [id, arguments, whether it is a block of the "
                 "content now] of one call (tool_calls, lesson 2).")
    harness.tool_calls(message).clear()  # a caller that has handled the calls empties its list
    t.expect([c["id"] for c in harness.tool_calls(message)],
             [b["id"] for b in message["content"] if b["type"] == "toolCall"],
             "Nothing is kept between two asks: each ask gives a new list, so a caller that "
             "empties the list it was given leaves the next ask's answer as it was. Each item is "
             "a call's id (tool_calls, lesson 2).")
    turned = t.random.choice([b for b in message["content"] if b["type"] == "toolCall"])
    turned.clear()  # a caller turns a call block, in place, into a text block
    turned.update({"type": "text", "text": "Never mind. "})
    many = [block(t.random.choice(TOOL_NAMES), {"path": t.random.choice(PATHS)}, f"c{n}")
            for n in t.random.sample(range(1, 1000), t.random.randint(60, 400))]
    t.expect([[c["id"] for c in harness.tool_calls(message)],
              [c["id"] for c in harness.tool_calls(lab.reply(t.random.choice(WORDS), *many))]],
             [[b["id"] for b in message["content"] if b["type"] == "toolCall"],
              [c["id"] for c in many]],
             "The blocks of type \"toolCall\", however many, in the order they stand, and "
             "nothing kept between two asks (Build item 2): after a call block of the content "
             "is turned, in place, into a text block, the next ask leaves it out; and a reply of "
             "60 to 400 calls gives every one of them, in its order. Items: the call ids after "
             "the edit; then the call ids of the long reply (tool_calls, lesson 2).")


def drawn_tools(t):
    """Two to five tools with drawn names, descriptions and parameters, in a drawn order; some
    carry keys of their own beside the four of a tool. In every draw one tool's parameters are
    {} (a schema that allows anything) and one's are {"type": "object"} (no properties)."""
    tools = []
    names = t.random.sample(TOOL_NAMES, t.random.randint(2, 5))
    schemas = [{}, {"type": "object"}] + [t.random.choice([None, PATH]) for _ in names[2:]]
    t.random.shuffle(schemas)
    for name, schema in zip(names, schemas):
        made = tool(name, lambda a, name=name: f"{name} ran",
                    schema, f"The {name} tool, {t.random.randint(1, 9)}.")
        made["parameters"] = schema if schema is not None else made["parameters"]
        if t.random.random() < 0.5:
            made["snippet"] = f"Use {name}"
        if t.random.random() < 0.5:
            made["guidelines"] = [f"Prefer {name} over guessing."]
        tools.append(made)
    return tools


@lab_test("tool_specs gives, for each tool in order, a dict of exactly name, description and "
          "parameters: never execute, nor any other key a tool carries.")
async def test_specs_have_three_keys_in_order(t):
    tools = drawn_tools(t)
    twin = dict(t.random.choice(tools), description="A second tool of the same name.",
                parameters={"type": "object", "properties": {"pattern": {"type": "string"}}})
    tools.insert(t.random.randrange(len(tools) + 1), twin)  # two tools sharing a name, every draw
    specs = harness.tool_specs(tools)
    t.expect([spec["name"] for spec in specs], [tool["name"] for tool in tools],
             "The specs keep the tools' order, a new dict for each tool: two tools that share a "
             "name give two specs, since tool_specs describes the list and does not judge it. "
             "Each item is a spec's name (tool_specs, lesson 2).")
    t.expect([sorted(spec) for spec in specs], [["description", "name", "parameters"]] * len(tools),
             "Each spec has exactly three keys: the model is told a tool's name, description and "
             "parameters, and nothing else; execute never leaves the program (tool_specs, "
             "lesson 2).")
    t.expect(specs, [{"name": tool["name"], "description": tool["description"],
                      "parameters": tool["parameters"]} for tool in tools],
             "Each value is the tool's own, as it is: parameters of {} or {\"type\": "
             "\"object\"} are told to the model as they are, not filled in with a default "
             "schema, and of two tools that share a name each is told with its own schema "
             "(tool_specs, lesson 2).")
    t.expect([json.dumps(spec["parameters"]) for spec in specs],
             [json.dumps(tool["parameters"]) for tool in tools],
             "Each spec's parameters are the tool's own, as it is, down to the order of their "
             "keys (\"type\" before \"properties\" where the tool has it so): the schema goes to "
             "the model as JSON, whose text that order makes; a schema re-made with its keys "
             "sorted is another text. Each item is a spec's parameters as JSON (tool_specs, "
             "lesson 2; Build item 3 \"the tools come out exactly as they went in\").")
    edged = dict(t.random.choice(tools), description=" Reads a file.\n")
    edged["name"] = f"{edged['name']} "
    private = dict(t.random.choice(tools), description="")  # named as if kept to the program
    private["name"] = f"_{private['name']}"
    dunder = dict(t.random.choice(tools))  # "__" before its name, and after
    dunder["name"] = f"__{dunder['name']}__"
    nameless = dict(t.random.choice(tools), name="")  # a name of no letters: a tool's, as it is
    unset = dict(t.random.choice(tools), description=None, parameters=None)  # keys it has, None
    lines = [f"Line {n}: what the tool does, and when to use it." for n in
             range(t.random.randint(100, 600))]  # 5,000 to 30,000 characters, over many lines
    wordy = dict(t.random.choice(tools), description=" " + "\n".join(lines) + "\n")
    again = dict(t.random.choice(tools))  # one tool listed twice, each a tool of the list
    told = [edged, private, dunder, nameless, unset]
    t.random.shuffle(told)
    given = []
    problem = await raised(lambda: given.append(harness.tool_specs(told)))
    t.expect([problem, [[spec["name"], spec["description"], spec["parameters"]]
                        for spec in (given[0] if given else [])]],
             [None, [[each["name"], each["description"], each["parameters"]] for each in told]],
             "A name and a description go to the model exactly as the tool has them, spaces and "
             "line breaks at their ends included: nothing is stripped, an empty description is "
             "told as \"\" (not one made up), and a tool whose name starts with \"_\" or \"__\" is "
             "a tool like any other, with a spec of its own, and so is a tool whose name is \"\" "
             "(Build item 3 \"a new dict for each tool\"); a tool whose description and "
             "parameters are there but None has those keys, so it is told with None, as it has "
             "them, not refused with KeyError (only a tool that lacks a key is) nor told "
             "\"None\". Items: what tool_specs raised, or None; then [name, description, "
             "parameters] of each spec (tool_specs, lesson 2).")
    shelf = [wordy, again, dict(again)]
    t.random.shuffle(shelf)
    t.expect([[spec["name"], brief(spec["description"]), spec["parameters"]]
              for spec in harness.tool_specs(shelf)],
             [[each["name"], brief(each["description"]), each["parameters"]] for each in shelf],
             "A description goes to the model as the tool has it, however long: one of 100 to "
             "600 lines (5,000 to 30,000 characters) is told whole, not cut at a length or to "
             "its first line, its space and line break at the ends kept; and each of two copies "
             "of one tool in the list is a tool with a spec of its own (Build item 3 \"a new "
             "dict for each tool in the tools' order\"). Items: [name, description (a long one "
             "by its length and last 20), parameters] of each spec (tool_specs, lesson 2).")
    none = harness.tool_specs([])
    answers = [list(none)]
    none.append({"name": "ls", "description": "Added by a caller.", "parameters": {}})
    answers.append(harness.tool_specs([]))
    t.expect(answers, [[], []],
             "No tools, no specs, and a new list at each ask (Build item 3 \"A new list\"): "
             "a spec a caller added to one answer is not in the next. Items: tool_specs([]), "
             "then tool_specs([]) again after a caller added a spec to the first answer "
             "(tool_specs, lesson 2).")
    crowd = [tool(f"{TOOL_NAMES[n % len(TOOL_NAMES)]}{n}", lambda a: "ran", PATH)
             for n in range(t.random.randint(60, 300))]  # names in no sorted order
    t.expect([spec["name"] for spec in harness.tool_specs(crowd)], [x["name"] for x in crowd],
             "A new dict for each tool in the tools' order, however many tools there are (Build "
             "item 3): a list of 60 to 300 tools gives as many specs, in its own order, not "
             "sorted and none left out. Each item is a spec's name (tool_specs, lesson 2).")


@lab_test("tool_specs leaves the tools as they were: same keys, same values, same execute.")
async def test_specs_do_not_change_the_tools(t):
    tools = drawn_tools(t)
    executes = [tool["execute"] for tool in tools]
    before = [list(tool) for tool in tools]  # the keys in their order
    values = copy.deepcopy([{key: value for key, value in tool.items() if key != "execute"}
                            for tool in tools])  # a copy, so a change inside parameters shows
    specs = harness.tool_specs(tools)
    t.expect([list(tool) for tool in tools], before,
             "tool_specs must not remove keys from the tools (tool_specs, lesson 2): the "
             "program still needs execute after the model has been told about the tool, and "
             "the tools come out exactly as they went in (Build item 3), so not even for a "
             "while, put back afterwards at the end of the tool's keys. Each item is a tool's "
             "keys, in their order.")
    t.expect([tool["execute"] is execute for tool, execute in zip(tools, executes)],
             [True] * len(tools), "Each tool keeps its own execute (tool_specs, lesson 2).")
    t.expect([{key: value for key, value in tool.items() if key != "execute"} for tool in tools],
             values, "Each tool keeps its own values, its parameters as they were: tool_specs "
             "adds no \"type\" or \"properties\" to a schema that has none (tool_specs, "
             "lesson 2).")
    renamed = t.random.randrange(len(specs))
    specs[renamed]["name"] = "renamed"
    t.expect([tool["name"] for tool in tools], [value["name"] for value in values],
             "A spec is a new dict, not the tool itself: renaming a spec leaves the tools' names "
             "as they were (tool_specs, lesson 2).")
    tools[t.random.randrange(len(tools))]["description"] = "Changed since the last ask."
    tools[t.random.randrange(len(tools))]["parameters"] = {  # a schema replaced, its name kept
        "type": "object", "properties": {t.random.choice(["depth", "limit"]): {"type": "integer"}}}
    t.expect([[spec["description"], spec["parameters"]] for spec in harness.tool_specs(tools)],
             why="Each ask makes a new list from the tools as they are now (Build item 3): a "
                 "tool whose description was changed in place since the last ask, the list "
                 "holding the same tools, is told as it is now, and so is a tool whose "
                 "parameters were replaced, its name and description as before. Each item is a "
                 "spec's [description, parameters] (tool_specs, lesson 2).")
    tools.append(tool("ls", lambda a: "ls ran", PATH, "The ls tool."))
    t.expect([spec["name"] for spec in harness.tool_specs(tools)],
             [tool["name"] for tool in tools],
             "Each ask makes a new list from the tools as they are now: a spec renamed after an "
             "earlier ask is not sent again, and a tool added since is offered. Each item is a "
             "spec's name (tool_specs, lesson 2).")
    bare = {"name": "ls", "execute": lambda a: "ls ran"}  # no description, no parameters
    await raised(lambda: harness.tool_specs([bare]))
    t.expect(sorted(bare), ["execute", "name"],
             "The tools come out exactly as they went in (Build item 3), even a tool that lacks "
             "a description and parameters: whatever tool_specs makes of it, it writes nothing "
             "into the tool. The item is the tool's keys afterwards (tool_specs, lesson 2).")
    lacking = [{key: value for key, value in tools[0].items() if key != missing}
               for missing in ("description", "parameters")]
    t.random.shuffle(lacking)
    kinds = []
    for each in [bare, *lacking]:
        problem = await raised(lambda: harness.tool_specs([*tools, each]))
        kinds.append(problem.partition(":")[0] if problem else None)
    t.expect(kinds, why="A tool that lacks a description or parameters is not a tool: tool_specs "
                        "raises KeyError for it, rather than tell the model a description or a "
                        "schema the tool does not have (Build item 3). Each item is the kind of "
                        "exception tool_specs raised for a list ending in such a tool, or None "
                        "(tool_specs, lesson 2).")


@lab_test("run_tool on a known tool returns exactly the five keys of a toolResult: the call's id "
          "and name, what execute returned, and is_error False.")
async def test_run_tool_returns_a_result(t):
    names = t.random.sample(TOOL_NAMES, t.random.randint(1, 4))
    answers = t.random.sample(TEXTS, len(names))
    tools = [recording(name, answer)[0] for name, answer in zip(names, answers)]
    spares = [tool(f"spare{n}", lambda a: "a spare ran", PATH)  # however many tools there are
              for n in range(t.random.randint(60, 300))]
    crowd = spares + tools
    t.random.shuffle(crowd)
    chosen = t.random.randrange(len(names))
    id = ids(t, 1)[0]
    asked = block(names[chosen], {"path": "a.py"}, id)
    result = await settle(harness.run_tool(crowd, asked))
    t.expect(result, {"role": "toolResult", "tool_call_id": id, "tool_name": names[chosen],
                      "content": answers[chosen], "is_error": False},
             "A result names the call it answers by id, carries execute's return value as its "
             "content, and has exactly these five keys, however many tools there are (here "
             "60 to 300 others beside it in the list) (run_tool, lesson 2).")
    again = await settle(harness.run_tool(crowd, asked))
    t.expect([again == result, again is result], [True, False],
             "Each call gets a result of its own, a new dict, never one handed out before: the "
             "same call run twice in a row gives two equal results, not one result handed out "
             "twice, so a caller that edits one result is never editing another. Items: whether "
             "the second result equals the first, whether it is the very dict the first call "
             "gave (run_tool, lesson 2; Build item 4 \"Each call gets a result of its own\").")
    edged, _ = recording(f"{t.random.choice(TOOL_NAMES)} ", "ok")
    result = await settle(harness.run_tool([edged], block(edged["name"], {}, "\tc7 ")))
    t.expect([result["tool_call_id"], result["tool_name"]], ["\tc7 ", edged["name"]],
             "The result names its call exactly as the call block does: an id or a name with "
             "spaces at its ends keeps them, or the result answers no call. The items are "
             "[tool_call_id, tool_name] (run_tool, lesson 2).")
    found, wanted = [], []
    for answer, id in zip(ANSWERS, ids(t, len(ANSWERS))):
        kept, seen = recording(t.random.choice(TOOL_NAMES), answer)
        result = await settle(harness.run_tool([kept], block(kept["name"], {"path": "a.py"}, id)))
        found.append([brief(result["content"]), result["is_error"], len(seen)])
        wanted.append([brief(answer), False, 1])
    t.expect(found, wanted,
             "What execute returned is the content, as it is, and is_error stays False all "
             "through lesson 2: an empty text, a text that starts \"Error\" or \"Traceback\" "
             "(a file may), a line ending in \"\\r\\n\" (kept as it is), a text of 4,000,000 "
             "characters (no cap of run_tool's own), a text of an \"e\" with a combining accent and a "
             "NUL (not normalised, not cleaned), an exception object execute returned rather "
             "than raised (a value like any other: is_error False, the object the content), even "
             "a number or None (passed on, not turned into \"None\" or \"42\": \"Your run_tool "
             "passes it on as it is\"). execute ran once for each. Each item is [content, "
             "is_error, times execute ran] of one result (run_tool, lesson 2; Build item 4).")


@lab_test("execute receives the call's arguments, once per call, whatever they hold (an "
          "empty string and None among them), even when it returns \"\".")
async def test_execute_gets_the_arguments(t):
    read, seen = recording("read", "")  # an empty file's text: an answer like any other
    read["parameters"] = {"type": "object", "required": ["path"], "properties": {
        "path": {"type": "string"}, "offset": {"type": "integer"},
        "limit": {"type": "integer", "default": 100}}}
    given, contents, calls = [], [], []
    numbered = ids(t, t.random.randint(2, 4))
    # The last call's id is the first's again: ids are told apart within one reply, and the next
    # run's model numbers its calls from c1 again.
    for n, id in enumerate(numbered + numbered[:1]):
        arguments = {"path": t.random.choice(PATHS)}
        if n == 0:  # values a tidy-minded run_tool might drop, in every draw
            arguments |= {"content": "", "offset": None}
        elif n == len(numbered):  # the first call again, word for word: a later run's c1
            arguments = dict(given[0])
        elif t.random.random() < 0.5:
            arguments["limit"] = t.random.randint(1, 500)
        given.append(arguments)
        calls.append(block("read", dict(arguments), id))
        problem, result = await outcome([read], calls[-1])
        contents.append([result["content"], result["is_error"]] if problem is None else problem)
    given.append({})  # a call with no arguments at all: {} is what execute gets
    calls.append(block("read", {}, "c0"))
    problem, result = await outcome([read], calls[-1])
    contents.append([result["content"], result["is_error"]] if problem is None else problem)
    given.append("path=a.py")  # arguments that are not an object: the tool's to judge
    calls.append({"type": "toolCall", "id": "c98", "name": "read", "arguments": "path=a.py"})
    problem, result = await outcome([read], calls[-1])
    contents.append([result["content"], result["is_error"]] if problem is None else problem)
    given.append(None)  # arguments of None: handed on as they are, not made {}
    calls.append({"type": "toolCall", "id": "c97", "name": "read", "arguments": None})
    problem, result = await outcome([read], calls[-1])
    contents.append([result["content"], result["is_error"]] if problem is None else problem)
    # A call block that came with no "arguments" key at all, to a tool of its own: whatever
    # run_tool makes of it, the block stays as it came.
    bare = {"type": "toolCall", "id": "c0", "name": "read"}
    await outcome([recording("read", "")[0]], bare)
    t.expect(seen, given,
             "run_tool calls the tool's execute once per call, with call[\"arguments\"], "
             "whatever they hold: an empty string and None are values too, and a call with no "
             "arguments, {}, gets {} and nothing made up (an offset of None "
             "where the schema says integer, or arguments that are a text or None where an "
             "object was due, are the tool's to judge: run_tool checks nothing yet), a \"default\" of the schema is not added, a tool that returned "
             "\"\" is not run again, and a call whose id and arguments an earlier call had (a "
             "later run's c1) runs anew, never answered from memory. Each item is what one "
             "call's execute received (run_tool, lesson 2; Build item 4 \"gets the call's "
             "arguments, once\").")
    t.expect(contents, [["", False]] * len(given),
             "What execute returned is the result's content, \"\" included, and is_error is "
             "False: an empty file's text is an answer, not a failure. Each item is [content, "
             "is_error] of one result (run_tool, lesson 2).")
    t.expect([[sorted(call), call["arguments"]] for call in calls] + [sorted(bare)],
             [[["arguments", "id", "name", "type"], arguments] for arguments in given] +
             [["id", "name", "type"]],
             "The call blocks are left as the model sent them: run_tool writes nothing into a "
             "call, a key of its own included, nor into its arguments, nor an \"arguments\" into "
             "a call that came without one. Each item is [one call's keys, its arguments] "
             "afterwards, then the keys of the call that came with no arguments (run_tool, lesson 2; Build item 4 \"and the call "
             "too: it writes nothing into either\").")


@lab_test("Among several tools, run_tool runs the one the call names, even when a function of "
          "harness.py has the same name.")
async def test_the_tool_is_picked_by_name(t):
    names = (t.random.sample(TOOL_NAMES, t.random.randint(1, 3)) +
             t.random.sample(HARNESS_NAMES, t.random.randint(1, 2)) +
             [f"_{t.random.choice(TOOL_NAMES)}"])  # named as if kept to the program: a tool too
    t.random.shuffle(names)
    ran, during = [], []

    def running(name):
        """A tool that notes, while it runs, the call block's keys and the tools list's names."""
        def fn(arguments):
            during.append([sorted(sent[-1]), sorted(sent[-1]["arguments"]),
                           [x["name"] for x in tools]])
            return ran.append(name) or f"{name} ran"
        return fn
    tools = [tool(name, running(name)) for name in names]
    tools[t.random.randrange(len(tools))]["parameters"] = {}  # a schema that allows anything
    made = [[x["name"], list(x), repr(x["parameters"]), x["execute"]] for x in tools]  # before
    asked = names + [t.random.choice(names) for _ in range(t.random.randint(0, 3))]
    t.random.shuffle(asked)
    results, sent = [], []
    for id, name in zip(ids(t, len(asked)), asked):
        sent.append(block(name, {}, id))
        result = await settle(harness.run_tool(tools, sent[-1]))
        results.append([result["tool_name"], result["content"]])
    t.expect(results, [[name, f"{name} ran"] for name in asked],
             "Among several tools, run_tool looks the call's name up among the tools it is "
             "given, and nowhere else, a tool whose name starts with \"_\" a tool like any "
             "other. Each item is [tool_name, content] of one result "
             "(run_tool, lesson 2).")
    t.expect(ran, asked, "Each call ran its own tool, once (run_tool, lesson 2).")
    t.expect(during, [[["arguments", "id", "name", "type"], [], names] for _ in asked],
             "run_tool leaves the list it is given as it found it, and the call too: it writes "
             "nothing into either (Build item 4), not even for as long as the tool runs, taken "
             "back afterwards: a tool that looks at its call and at the tools list while it runs "
             "sees them as they came, the call's arguments ({} here) too. Each item is [the "
             "call's keys, its arguments' keys, the tools list's names] as one running tool saw "
             "them (run_tool, lesson 2).")
    t.expect([[sorted(call), call["arguments"]] for call in sent],
             [[["arguments", "id", "name", "type"], {}] for _ in sent],
             "run_tool writes nothing into the call, whichever tool it names (Build item 4 \"and "
             "the call too: it writes nothing into either\"): each call block keeps its four "
             "keys and its arguments after its tool ran. Each item is [keys, arguments] of one "
             "call afterwards (run_tool, lesson 2).")
    t.expect([[x["name"], list(x), repr(x["parameters"]) == old, x["execute"] is fn]
              for x, (_, _, old, fn) in zip(tools, made)],
             [[name, keys, True, True] for name, keys, _, _ in made],
             "run_tool leaves the list of tools it is given as it found it (Build item 4): the "
             "same tools in the same order, which is the order tool_specs offers them in next, "
             "with the same keys they had before any call, in their order, and the same values: "
             "their parameters as they were (a schema of {} included, no \"type\" filled in) "
             "and their own execute, not another function put in its place. Each item is "
             "[name, keys, whether its parameters are as they were, whether its execute is its "
             "own] of one tool after the calls (run_tool, lesson 2).")
    # The calls again, each tool handed in sealed: a write into a tool, at any depth, raises,
    # even one taken back before the end. (The calls are not sealed: a copy of the arguments
    # made for execute is allowed, and a sealed dict cannot be deep-copied.)
    locked, writes = sealed(tools), []
    for n, name in enumerate(names):
        problem, _ = await outcome(locked, block(name, {"path": t.random.choice(PATHS)},
                                                 f"c{60 + n}"))
        writes.append([name, problem])
    t.expect(writes, [[name, None] for name in names],
             "run_tool leaves the list it is given as it found it, and the call too: it writes "
             "nothing into either (Build item 4), not into a tool of the list, not even for as "
             "long as the tool runs, taken back afterwards. Here the tools are handed in "
             "sealed, so that any write into one raises TypeError (\"this message is only to "
             "be read\"). Each item is [the call's name, what "
             "run_tool raised, or None] (run_tool, lesson 2).")
    # The lesson's wipe: a function of harness.py under a name no tool has, and a name close to
    # the tools' names.
    wiped, own = [], vars(harness).get("wipe")  # a wipe of the file's own is put back after
    harness.wipe = lambda arguments: wiped.append(arguments) or "wiped"
    wipe = block("wipe", {"path": "."}, "c100")
    try:
        ran.clear()
        problem, result = await outcome(tools, wipe)
    finally:
        if own is None:
            del harness.wipe
        else:
            harness.wipe = own
    t.expect([ran, wiped, refused(problem, result, wipe)], [[], [], True],
             "A call for a name that no tool among those given has runs nothing: not a function "
             "of harness.py of that name (here wipe), not the tool with the closest name. "
             "run_tool looks the call's name up among the tools it is given, and nowhere else; "
             "lesson 2's run_tool raises KeyError, lesson 4's answers with an error result "
             "naming the call: never None, another exception, or a result that claims success. "
             "Items: the tools that ran, what harness.wipe was called with, then whether the "
             "call was refused in one of those two ways (run_tool, lesson 2).")
    # Names that are nearly a tool's, the list changed since the last call, and a read tool this
    # file made but did not give.
    ran.clear()
    removed = tools.pop(t.random.randrange(len(tools)))["name"]
    kept_name = t.random.choice([kept["name"] for kept in tools  # a tool still in the list, whose
                                 if kept["name"][0] != "_"])  # capitalize() makes another name
    nears = [kept_name.upper(), kept_name.capitalize(), f"{kept_name} ", f" {kept_name}",
             f"{kept_name}\n"]
    near = t.random.choice(nears)
    nears = [other for other in nears if other not in (near, kept_name)]  # the other spellings
    extra = t.random.choice([name for name in TOOL_NAMES if name not in names])
    tools.append(tool(extra, lambda a: ran.append(extra) or f"{extra} ran"))
    harness.make_read_tool(lab.Workspace({"notes.txt": "Buy milk.\n"}))
    refusals = []
    for id, name, given in [("c101", near, tools), ("c102", removed, tools),
                            ("c103", "read", [kept for kept in tools if kept["name"] != "read"]),
                            ("c105", f"{kept_name}()", tools),
                            ("c106", f"functions.{kept_name}", tools),
                            *[(f"c11{n}", other, tools) for n, other in enumerate(nears)]]:
        call = block(name, {"path": "notes.txt"}, id)
        refusals.append(refused(*await outcome(given, call), call))
    await outcome(tools, block(extra, {}, "c104"))
    at = t.random.randrange(len(tools))  # a tool replaced in place by a new one of its name
    tools[at] = tool(tools[at]["name"], lambda a: ran.append("remade") or "remade ran")
    remade = await settle(harness.run_tool(tools, block(tools[at]["name"], {}, "c107")))
    t.expect([refusals, ran, remade["content"]], [[True] * len(refusals), [extra, "remade"],
                                                 "remade ran"],
             "run_tool looks the call's name up, exactly as the call spells it, among the tools "
             "it is given at that call, and nowhere else (Build item 4 \"the one among `tools` "
             "whose `\"name\"` is the call's name\"): a name in another case or with a space is "
             "not the tool's, a tool taken out of the list since no longer runs, one added since "
             "does, a read tool the file made but did not give is not among them, and a tool's "
             "name followed by \"()\" or after \"functions.\" is not its name; then the "
             "name's other spellings (upper case, a capital, a space at one end) each tried; and a "
             "tool replaced in its place by a new one of the same name, the list as long as "
             "before, is the one that runs (and the spellings include the name with a line break "
             "after it). Items: whether each of those calls was refused "
             "(KeyError in lesson 2, an error result from lesson 4), then the tools that ran, "
             "then the content of the call to the replaced tool (run_tool, lesson 2).")
    # A tool renamed in place, after a call to the same list: the name it has now is its name.
    shelf = [tool(name, lambda a, name=name: f"{name} ran") for name in
             t.random.sample(TOOL_NAMES, 3)]
    await outcome(shelf, block(shelf[0]["name"], {}, "c150"))
    moved = t.random.choice(shelf)
    old_name = moved["name"]
    moved["name"] = f"{t.random.choice(['my', 'new', 'old'])}_{old_name}"
    now = await outcome(shelf, block(moved["name"], {}, "c151"))
    before_call = block(old_name, {}, "c152")
    t.expect([(now[1] or {}).get("content", now[0]), refused(*await outcome(shelf, before_call),
                                                            before_call)],
             [f"{old_name} ran", True],
             "run_tool looks the call's name up among the tools it is given at that call (Build "
             "item 4): after a tool of the list was renamed in place (the same dict, the same "
             "list), a call of its new name runs it and a call of its old name is refused, "
             "never looked up in a table made at an earlier call. Items: the content of the "
             "call of the new name; whether the call of the old name was refused (run_tool, "
             "lesson 2).")
    twins_ran = []
    twins = [tool("grep", lambda a, n=n: twins_ran.append(n) or f"grep {n}") for n in (1, 2)]
    twin = await settle(harness.run_tool(twins, block("grep", {}, "c120")))
    t.expect([len(twins_ran), twin["content"] in [f"grep {n}" for n in twins_ran]], [1, True],
             "The tool that runs is the one among `tools` whose \"name\" is the call's name, "
             "once (Build item 4): of two tools that share a name, one runs (which one the "
             "lab's tests do not choose), not both, and its answer is the content. Items: how "
             "many tools ran; whether the content is the answer of the one that ran (run_tool, "
             "lesson 2).")
    # Every function of harness.py by its name: among tools of those names, each call runs its
    # tool; with its tool taken out of the list, the call is refused and nothing runs.
    ran.clear()
    own = [tool(name, lambda a, name=name: ran.append(name) or f"{name} ran")
           for name in [*HARNESS_NAMES, "make_read_tool"]]
    answered, turned_down = [], []
    for n, named in enumerate(own):
        problem, result = await outcome(own, block(named["name"], {}, f"c13{n}"))
        answered.append((result or {}).get("content", problem))
        call = block(named["name"], {"path": "notes.txt"}, f"c14{n}")
        turned_down.append(refused(*await outcome([x for x in own if x is not named], call), call))
    t.expect([answered, ran, turned_down],
             [[f"{x['name']} ran" for x in own], [x["name"] for x in own], [True] * len(own)],
             "The tool that runs is the one among `tools` whose \"name\" is the call's name, "
             "whatever other functions your file defines (Build item 4): for each function of "
             "harness.py by name (text_of, tool_calls, run_tool, tool_specs, user_message, "
             "make_read_tool), a tool of that name runs, and once that tool is taken out of the "
             "list a call of the name is refused, never answered by the function of harness.py. "
             "Items: the content of each call among the tools, the tools that ran, then whether "
             "each call of a name no tool given has was refused (run_tool, lesson 2).")
    # Spellings of a tool's name that are not its name: "-" for "_", a prefix an API puts before
    # names, a line break after it, and a start of it that only that tool's name has.
    ran.clear()
    named = t.random.choice(own)["name"]
    starts = [named[:n] for n in range(1, len(named))
              if [x["name"] for x in own if x["name"].startswith(named[:n])] == [named]]
    ending = t.random.choice(["\n", "\r\n"])
    quote = t.random.choice(["'", '"', "`"])
    first, *rest = named.split("_")  # every name of harness.py's functions holds a "_"
    alias = t.random.choice(["cat", "sh", "view"])
    t.random.choice(own)["aliases"] = [alias]  # a key of the tool's own, beside its name
    spelled = [named.replace("_", "-"), f"{t.random.choice(['default_api', 'api'])}.{named}",
               f"{named}{ending}", t.random.choice(starts), f"{quote}{named}{quote}",
               f"{named}\t", f"{named}\r", first + "".join(word.title() for word in rest), alias]
    verdicts = []
    for n, name in enumerate(spelled):
        call = block(name, {"path": "notes.txt"}, f"c17{n}")
        verdicts.append([name, refused(*await outcome(own, call), call)])
    t.expect([verdicts, ran], [[[name, True] for name in spelled], []],
             "The tool that runs is the one among `tools` whose \"name\" is the call's name "
             "(Build item 4), exactly as the call spells it: a spelling close to a tool's name "
             "is not its name, and run_tool runs nothing for it (\"Run the closest tool name "
             "instead\" is a guess made for the model): \"-\" for \"_\", a prefix such as "
             "\"default_api.\" before it, a line break after it, the start of a name only "
             "one tool has, the name in quotes, with a tab or a lone \"\\r\" after it, in "
             "camelCase (toolCalls for tool_calls), or a name a tool lists under a key of its "
             "own (\"aliases\"): the list of tools is the one place that says which tools "
             "exist, by their \"name\". Items: for each spelling [the name, whether the call was refused]; "
             "then the tools that ran (run_tool, lesson 2).")
    # Tools that are there and fail, in the list among the others: a KeyError of their own, for
    # an argument the call left out; a missing file; a folder read as a file; a connection lost;
    # and one drawn failure of another kind.
    spare = t.random.sample([name for name in [*TOOL_NAMES, "patch", "search", "glob"]
                             if name not in [kept["name"] for kept in tools]], 5)
    failures = [KeyError("offset"), FileNotFoundError("gone.txt"), IsADirectoryError("src"),
                ConnectionError("the server went away"),
                t.random.choice([ValueError("offset -3 is before the start"),
                                 PermissionError("secret.txt may not be read"),
                                 TimeoutError("took too long"), UnicodeError("not text")])]
    t.random.shuffle(failures)
    for name, failure in zip(spare, failures):
        tools.insert(t.random.randrange(len(tools) + 1), tool(
            name, lambda a, name=name, failure=failure: ran.append(name) or fail(failure), PATH))
    before = [[kept["name"], sorted(kept)] for kept in tools]
    ran.clear()
    came_back, ways = [], []
    for id, name, failure in zip(ids(t, len(spare)), spare, failures):
        call = block(name, {"path": "a.py"}, id)
        very = []
        problem, result = await outcome(tools, call, very)
        came_back.append([name, own_error(problem, result, failure, call,
                                          very[0] if very else None)])
        ways.append("raised" if problem is not None else "a result")
    t.expect([ran, came_back, [[kept["name"], sorted(kept)] for kept in tools] == before],
             [spare, [[name, True] for name in spare], True],
             "A tool that is there and fails is not a tool that is missing: it ran, once, and its "
             "own error is what comes back: lesson 2's run_tool lets it go up as it was raised "
             "(Build item 4 \"What `execute` raises goes up to the caller as it was raised\"), "
             "the very object the tool raised (so the same kind with the same words), not a new "
             "one made of its kind and words, nor one with words added, not another exception "
             "wrapped round it, not "
             "swallowed into a result that claims success, not tried again, whatever its kind "
             "(its own KeyError, a missing file, a folder read as a file, a lost connection and "
             "one drawn kind); lesson 4's puts its words in an error result. And run_tool leaves the list it is given as it found it, "
             "even when the tool raised. Items: the tools that ran, in order; for each failing "
             "tool [its name, whether its own error came back]; whether the list holds the same "
             "tools, in the same order, with the same keys, afterwards (run_tool, lesson 2).")
    cut = tool("deploy", lambda a: fail(lab.PowerCut("the power went")), PATH)
    problem, _ = await outcome([*tools, cut], block("deploy", {"path": "a.py"}, "c160"))
    t.expect([len(set(ways)), problem],
             [1, "PowerCut: the power went"],
             "What `execute` raises goes up to the caller as it was raised (Build item 4), "
             "every kind alike; lesson 4's run_tool puts a tool's failure in an error result, "
             "every Exception alike, and lets what is wider than Exception, the program ending "
             "(lab.PowerCut, or Ctrl-C), go up. A run_tool that answers some failures with a "
             "result and raises others is neither. Items: how many ways the five failing tools' "
             "errors came back (raised, or in a result: one way for all); what run_tool raised "
             "for a tool that raised lab.PowerCut, or None (run_tool, lesson 2).")


@lab_test("A reply with several calls gets one result per call, in call order, each naming its "
          "own call.")
async def test_two_calls_two_results(t):
    names = t.random.sample(TOOL_NAMES, t.random.randint(2, 4))
    answers = dict(zip(names, t.random.sample(TEXTS, len(names))))
    tools = [recording(name, answer)[0] for name, answer in answers.items()]
    calls = [block(t.random.choice(names), {"path": t.random.choice(PATHS)}, id)
             for id in ids(t, t.random.randint(2, 5))]
    results = [await settle(harness.run_tool(tools, call))
               for call in harness.tool_calls(lab.reply(*calls))]
    t.expect([[r["tool_call_id"], r["tool_name"], r["content"]] for r in results],
             [[call["id"], call["name"], answers[call["name"]]] for call in calls],
             "Every call is answered, not only the first, and the ids pair each result with "
             "its call. Each item is [tool_call_id, tool_name, content] of one result "
             "(run_tool and tool_calls, lesson 2).")
    # A later run: the same calls, ids and arguments, to tools of the same names that now answer
    # otherwise (the files changed since).
    later = {name: f"changed since\n{answer}" for name, answer in answers.items()}
    tools = [tool(name, lambda a, name=name: later[name], PATH) for name in later]
    found, wanted = [], []
    for again in ["", "changed again\n"]:  # the same tools, handed the very same blocks twice
        later.update({name: again + answer for name, answer in later.items()})
        found.append([(await settle(harness.run_tool(tools, call)))["content"]
                      for call in calls])
        wanted.append([later[call["name"]] for call in calls])
    t.expect(found, wanted,
             "Each call runs its tool anew (Build item 4 \"its `execute` gets the call's "
             "arguments, once\"): a call whose name, id and arguments an earlier run's call had "
             "is answered by what the tool returns now, never from memory, and so is the very "
             "same call block handed again to the very same tool after the files changed. Items: "
             "for each of two later runs, the contents of its results (run_tool, lesson 2).")


@lab_test("make_read_tool(ws) makes a tool named read whose one required argument is a string "
          "path, and whose execute returns the file's text: all of it, however long, as the "
          "workspace holds it at the time of the call.")
async def test_the_read_tool(t):
    files = dict(zip(t.random.sample(PATHS, 4), t.random.sample(TEXTS, 4)))
    ws = Asked(files | {"long.log": LONG, "lines.log": LINES, "ragged.txt": RAGGED, "bom.md": "\ufeff# A plain heading\n",
                        "wide.log": WIDE, "3": "a file named 3\n", "src/Main.py": "main()\n",
                        "caf\u00e9.md": "a name spelled with one letter \u00e9\n",
                        "nai\u0308ve.md": "a name spelled with a combining accent\n",
                        "raw.txt": "".join(RAW) + "\n"})
    read = harness.make_read_tool(ws)
    # A second read tool over another workspace, made after the first: each reads its own.
    other = harness.make_read_tool(lab.Workspace({path: "another workspace's\n"
                                                  for path in [*files, "ragged.txt", "bom.md",
                                                               "raw.txt"]}))
    t.expect([read["name"], read["parameters"]["required"],
              read["parameters"]["properties"]["path"]["type"]],
             ["read", ["path"], "string"],
             "The read tool is called read and asks for a path, a string (make_read_tool, "
             "lesson 2).")
    t.expect(isinstance(read["description"], str) and read["description"] != "", True,
             "A tool has a description: the model chooses tools by it (make_read_tool, lesson 2).")
    texts = files | {"ragged.txt": RAGGED, "bom.md": "\ufeff# A plain heading\n",
                     "raw.txt": "".join(RAW) + "\n"}
    asked = t.random.sample(list(files), 3) + ["ragged.txt", "bom.md", "raw.txt"]
    t.random.shuffle(asked)
    t.expect([await settle(read["execute"]({"path": path})) for path in asked],
             [texts[path] for path in asked],
             "read returns the whole text of the file in its own workspace ws, as it is: "
             "whether its path names a folder or not, a byte-order mark at the start (in a file "
             "with \"\\r\\n\" or without), spaces and "
             "tabs at the ends of lines and \"\\r\\n\" kept, an \"e\" with a combining accent "
             "not made its one-letter form and a NUL not taken out, and read from ws even after another read tool was made over "
             "another workspace. Each item is what one read returned (make_read_tool, lesson 2).")
    t.expect(await settle(other["execute"]({"path": asked[0]})), "another workspace's\n",
             "The second read tool reads its own workspace (make_read_tool, lesson 2).")
    kinds = []
    for missing in ["missing.txt", "scratch.tmp", "build.log", "old.bak", "notes"]:
        problem = await raised(lambda: read["execute"]({"path": missing}))
        kinds.append(problem.partition(":")[0] if problem else None)
    t.expect(kinds, ["FileNotFoundError"] * len(kinds),
             "A path with no file is not an empty file: read raises FileNotFoundError, as "
             "ws.read_text does, and \"\" stays the text of a file that is there and empty, "
             "whatever the name ends in. Each item is the kind of exception read raised for one "
             "missing name (missing.txt, scratch.tmp, build.log, old.bak, notes), or None "
             "(make_read_tool, lesson 2).")
    long = await settle(read["execute"]({"path": "long.log"}))
    t.expect([len(long), long[-50:]], [len(LONG), LONG[-50:]],
             "read returns the whole text of the file, however long: no cap of its own (lesson 6 "
             "gives read a budget, and a note when it cuts). Items: the characters read returned "
             "for a file of 50,000, then its last 50 (make_read_tool, lesson 2).")
    offset, limit = t.random.randint(2, 1000), t.random.randint(1, 100)
    ws.write_text("many.log", "-\n" * t.random.randint(150_000, 500_000))  # many short lines
    whole = []
    for path, arguments in [("lines.log", {}), ("wide.log", {}), ("many.log", {}),
                            ("lines.log", {"offset": offset, "limit": limit})]:
        text = await settle(read["execute"]({"path": path} | arguments))
        whole.append(isinstance(text, str) and (text == ws.read_text(path) or
                                                text not in ws.read_text(path)))
    t.expect(whole, [True, True, True, True],
             "read never cuts a file silently: for a file of 2500 short lines, one of 4,000,000 "
             "characters, one of 150,000 to 500,000 lines (no count of lines of its own), and "
             "the first file asked for with an offset and a limit (arguments "
             "lesson 2's read does not take), it returns the whole text of the file (lesson 2, "
             "Build item 5), or, from lesson 6 on, a part followed by a note that says where it "
             "stopped; never a bare piece of the file. Items: whether what each read returned is "
             "the whole file or more than a bare piece of it (make_read_tool, lesson 2).")
    edited = t.random.choice(asked)
    ws.write_text(edited, "changed since\n" + texts[edited])
    first = await settle(read["execute"]({"path": edited}))
    ws.write_text(edited, "CHANGED SINCE\n" + texts[edited])  # as long as before
    second = await settle(read["execute"]({"path": edited}))
    ws.write_text(edited, "CHANGED SINCE\n" + texts[edited] + ".")
    third = await settle(read["execute"]({"path": edited}))
    ws.write_text(edited, "CHANGED SINCE\n" + texts[edited] + "!")  # only its last letter new
    fourth = await settle(read["execute"]({"path": edited}))
    ws.write_text("wide.log", "W" + WIDE[1:])  # the long file, read before, as long as it was
    wide = await settle(read["execute"]({"path": "wide.log"}))
    t.expect([first, second, third, fourth, wide[:20]],
             ["changed since\n" + texts[edited], "CHANGED SINCE\n" + texts[edited],
              "CHANGED SINCE\n" + texts[edited] + ".", "CHANGED SINCE\n" + texts[edited] + "!",
              "W" + WIDE[1:20]],
             "read gives the text as the workspace holds it at each call: a file changed since "
             "the last read is read anew, not remembered, even when the change leaves it as "
             "long as it was, its start unchanged too. Items: what read gave after an edit, then "
             "after another that kept the length, then after two that kept the length and "
             "changed only the last letter; then the first 20 characters of what read gave for "
             "the file of 4,000,000 characters, read before, after its first letter was "
             "rewritten, however long a file is (make_read_tool, lesson 2; Build item 5 \"as "
             "the workspace `ws` holds it\").")
    spaced = t.random.choice(list(files))
    ws.write_text(spaced + " ", "the file whose name ends in a space\n")
    ws.write_text(spaced + "  ", "the file whose name ends in two spaces\n")
    problem = await raised(lambda: read["execute"]({"path": " " + spaced}))
    t.expect([await settle(read["execute"]({"path": spaced + " "})),
              await settle(read["execute"]({"path": spaced + "  "})),
              problem.partition(":")[0] if problem else None],
             why="The path goes to the workspace as the call spells it: read tidies nothing "
                 "(Build item 5). Items: what read returned for a path with a space at its end, "
                 "a file of its own beside the one without; then for one with two spaces, "
                 "another file of its own; the kind of exception read raised "
                 "for a path with a space at its start, where no file is, or None "
                 "(make_read_tool, lesson 2).")
    tidied = t.random.choice(list(files))
    spellings = [f"x/../{tidied}", "\\" + tidied.replace("/", "\\"), 3]
    t.random.shuffle(spellings)
    gave = []
    ws.asked.clear()
    for spelling in spellings:
        text = []

        async def answer():
            text.append(await settle(read["execute"]({"path": spelling})))
        await raised(answer)
        gave.append([spelling, bool(text) and text[0] in (ws.read_text(tidied), "a file named 3\n")])
    problem = await raised(lambda: read["execute"]({}))
    handed = list(ws.asked)  # a call with no path hands the workspace nothing
    t.expect([gave, problem is not None and "path" in problem and
              not problem.startswith("FileNotFoundError"),
              [path for path in handed if not any(path == spelling and type(path) is type(spelling)
                                                  for spelling in spellings)]],
             [[[spelling, False] for spelling in spellings], True, []],
             "The path goes to the workspace as the call spells it: read tidies nothing (Build "
             "item 5), so a path that climbs out and back (x/../), one spelled with backslashes "
             "and a path that is not a string (3, beside a file named \"3\") are the "
             "workspace's to refuse, not a file read anew under a tidier name; and a call with no "
             "\"path\" names no file, so what read raises names the missing path, not a folder "
             "read instead. Items: for each spelling [the path, whether read gave the text of "
             "the file a tidied path names]; then whether read, given no path, raised an error "
             "that names path and is not FileNotFoundError (no file was named); then the paths "
             "the workspace was handed that the call did not spell so, 3 a number still, "
             "and, for the call with no path, none at all (not None, nor a path made up): none "
             "(make_read_tool, lesson 2).")
    # Spellings the workspace reads as a file of its own, and names of no file at all.
    spelled = t.random.choice(list(files))
    stem, _, ext = spelled.rpartition(".")
    quote, ending = t.random.choice(["'", '"', "`"]), t.random.choice(["\n", "\r\n"])
    spellings = [f"./{spelled}", f"{spelled}/", f"/{spelled}", f".//{spelled}",
                 "src//Main.py", "nai\u0308ve.md", f"{stem}.{ext.upper()}"]
    # Spellings a later lesson's read may refuse before the workspace sees them: never tidied.
    odd = [f"{quote}{spelled}{quote}", f"{spelled}{ending}", f"~/{spelled}", f"file://{spelled}",
           f"{spelled}\t"]
    ws.write_text(spellings[-1], "a file whose extension is in capitals\n")  # one of its own
    ws.asked.clear()
    for path in spellings:
        await raised(lambda: read["execute"]({"path": path}))
    handed = list(ws.asked)
    ws.asked.clear()
    for path in odd:
        await raised(lambda: read["execute"]({"path": path}))
    tidied = [path for path in ws.asked if path not in odd]
    refused = []
    for path in ["src/main.py", "cafe\u0301.md", "src"]:  # src/Main.py, caf\u00e9.md, a folder
        refused.append([path, await raised(lambda: read["execute"]({"path": path})) is not None])
    t.expect([handed[:len(spellings)], tidied, refused],
             [spellings, [], [[path, True] for path, _ in refused]],
             "The path goes to the workspace as the call spells it: read tidies nothing (Build "
             "item 5), not even where the workspace would read the tidied path as the same file "
             "(\"./\" before it, \"/\" after it, a \"/\" or \".//\" before it, \"//\" inside "
             "it, its extension in upper case, a file of its own: what a path means is the "
             "workspace's to say), nor a name with a combining accent (\"nai\u0308ve.md\", a "
             "file of its own) made into its one-letter form, nor a path in quotes, with a line "
             "break or a tab after it, starting \"~/\" or \"file://\" (the model spelled it so: the "
             "workspace answers for it, or a later lesson's read refuses it, but none is handed "
             "on tidied); "
             "and the whole text of the file named is that file's or none: a name in another "
             "case than the file's (src/main.py beside src/Main.py), \"caf\u00e9\" spelled with "
             "\"e\" and a combining accent beside a file whose name has the one letter, and a "
             "folder (src) name no file, so read raises as the workspace does, never a text "
             "found under another name or \"\" made up. Items: the paths the workspace was "
             "asked for by the first seven reads; then the paths it was handed by the reads of the "
             "five in quotes, with a line break, with a tab, after ~/ or file:// that are not those paths as "
             "spelled, none; then for each name of no file [the path, "
             "whether read raised] (make_read_tool, lesson 2).")


@lab_test("One round trip driven by hand: the user asks, the model calls read, run_tool answers "
          "each call. The list is U A[c1] R(c1) (or more calls, each answered), a transcript a "
          "provider accepts.")
async def test_a_round_trip_by_hand(t):
    files = dict(zip(t.random.sample(PATHS, 3), t.random.sample(TEXTS, 3)))
    tools = [harness.make_read_tool(lab.Workspace(files))]
    wanted = t.random.sample(list(files), t.random.randint(1, 3))
    reply = lab.reply(t.random.choice(WORDS), *[lab.call("read", {"path": p}) for p in wanted])
    model = lab.ScriptedModel([reply])
    messages = [harness.user_message(f"What is in {', '.join(wanted)}?")]
    reply = model.complete(SYSTEM, messages, harness.tool_specs(tools))
    messages.append(reply)
    for call in harness.tool_calls(reply):
        messages.append(await settle(harness.run_tool(tools, call)))
    numbers = range(1, len(wanted) + 1)
    t.expect(lab.shape(messages),
             "U A[" + ",".join(f"c{n}" for n in numbers) + "] " +
             " ".join(f"R(c{n})" for n in numbers),
             "Each call's result goes into the list right after the reply that asked for it "
             "(run_tool, lesson 2): a result not in the list is one the model never sees.")
    t.expect([m["content"] for m in messages[2:]], [files[path] for path in wanted],
             "Each result carries the text of the file its call asked for, in call order "
             "(run_tool, lesson 2).")
    t.expect(lab.validate(messages), [],
             "The list is one a provider accepts: every call answered by a toolResult naming it "
             "(run_tool, lesson 2).")
    request = model.calls[0].tools
    t.expect([[spec["name"] for spec in request], request == harness.tool_specs(tools)],
             [["read"], True],
             "The request told the model about the tools by their specs alone (tool_specs, "
             "lesson 2).")
