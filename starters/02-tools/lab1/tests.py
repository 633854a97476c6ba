"""Lesson 2, lab 1: run what it asks for. The tests of text_of, tool_calls, tool_specs, run_tool
and the read tool, and of one round trip driven by hand.

Each test draws its cases (how many blocks, calls and tools, their order, names and texts) from
t.random, so it checks its rule over a family of cases; the same seed draws the same ones.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 2 tests.py
"""
import harness
import lab
from lab.kit import lab_test, raised, settle, tool

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
    t.random.shuffle(parts)
    t.expect(harness.text_of(lab.reply(*parts)),
             "".join(part for part in parts if isinstance(part, str)),
             "text_of joins the text blocks in order and leaves the calls out, wherever they "
             "stand (text_of, lesson 2).")
    t.expect(harness.text_of(lab.reply(*some_calls(t, t.random.randint(1, 3)))), "",
             "A reply with no text blocks has no words: \"\" (text_of, lesson 2).")
    answer = t.random.choice(WORDS[:4])
    t.expect(harness.text_of(lab.say(answer)), answer,
             "A plain answer is its one text block (text_of, lesson 2).")


@lab_test("tool_calls gives the call blocks in the order they stand, [] for a plain answer, and "
          "follows the content when it is edited, because it is worked out from it every time.")
async def test_tool_calls(t):
    calls = some_calls(t, t.random.randint(2, 5))
    parts = calls + t.random.sample(WORDS, t.random.randint(1, 3))
    t.random.shuffle(parts)
    message = lab.reply(*parts)
    in_order = [part for part in parts if not isinstance(part, str)]
    t.expect([c["id"] for c in harness.tool_calls(message)], [c["id"] for c in in_order],
             "tool_calls gives every call of the reply, not only the first, in content order, "
             "skipping text. Each item is a call's id (tool_calls, lesson 2).")
    found = harness.tool_calls(message)
    t.expect(found, in_order,
             "Each call is the block itself: type, id, name, arguments (tool_calls, lesson 2).")
    t.expect([any(call is part for part in in_order) for call in found], [True] * len(found),
             "Each call is the very block of the content, not a copy of it (tool_calls, "
             "lesson 2). Each item says whether one call given back is a block of the content.")
    t.expect(harness.tool_calls(lab.say(t.random.choice(WORDS))), [],
             "A plain answer makes no calls: [] (tool_calls, lesson 2).")
    message["content"].append(block("write", {"path": "b.py", "content": ""}, "c100"))
    del message["content"][t.random.randrange(len(message["content"]) - 1)]
    t.expect([c["id"] for c in harness.tool_calls(message)],
             [b["id"] for b in message["content"] if b["type"] == "toolCall"],
             "The calls are derived from content each time they are asked for, so an edit to "
             "content (here a call added at the end and a block removed) shows at once; a "
             "second stored list would go stale. Each item is a call's id (tool_calls, "
             "lesson 2).")


def drawn_tools(t):
    """Two to five tools with drawn names, descriptions and parameters, in a drawn order; some
    carry keys of their own beside the four of a tool."""
    tools = []
    for name in t.random.sample(TOOL_NAMES, t.random.randint(2, 5)):
        made = tool(name, lambda a, name=name: f"{name} ran",
                    t.random.choice([None, PATH]), f"The {name} tool, {t.random.randint(1, 9)}.")
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
    specs = harness.tool_specs(tools)
    t.expect([spec["name"] for spec in specs], [tool["name"] for tool in tools],
             "The specs keep the tools' order. Each item is a spec's name (tool_specs, lesson 2).")
    t.expect([sorted(spec) for spec in specs], [["description", "name", "parameters"]] * len(tools),
             "Each spec has exactly three keys: the model is told a tool's name, description and "
             "parameters, and nothing else; execute never leaves the program (tool_specs, "
             "lesson 2).")
    t.expect(specs, [{"name": tool["name"], "description": tool["description"],
                      "parameters": tool["parameters"]} for tool in tools],
             "Each value is the tool's own (tool_specs, lesson 2).")
    t.expect(harness.tool_specs([]), [], "No tools, no specs (tool_specs, lesson 2).")


@lab_test("tool_specs leaves the tools as they were: same keys, same values, same execute.")
async def test_specs_do_not_change_the_tools(t):
    tools = drawn_tools(t)
    executes = [tool["execute"] for tool in tools]
    before = [sorted(tool) for tool in tools]
    values = [{key: value for key, value in tool.items() if key != "execute"} for tool in tools]
    specs = harness.tool_specs(tools)
    t.expect([sorted(tool) for tool in tools], before,
             "tool_specs must not remove keys from the tools (tool_specs, lesson 2): the "
             "program still needs execute after the model has been told about the tool. Each "
             "item is a tool's keys.")
    t.expect([tool["execute"] is execute for tool, execute in zip(tools, executes)],
             [True] * len(tools), "Each tool keeps its own execute (tool_specs, lesson 2).")
    t.expect([{key: value for key, value in tool.items() if key != "execute"} for tool in tools],
             values, "Each tool keeps its own values (tool_specs, lesson 2).")
    renamed = t.random.randrange(len(specs))
    specs[renamed]["name"] = "renamed"
    t.expect([tool["name"] for tool in tools], [value["name"] for value in values],
             "A spec is a new dict, not the tool itself: renaming a spec leaves the tools' names "
             "as they were (tool_specs, lesson 2).")


@lab_test("run_tool on a known tool returns exactly the five keys of a toolResult: the call's id "
          "and name, what execute returned, and is_error False.")
async def test_run_tool_returns_a_result(t):
    names = t.random.sample(TOOL_NAMES, t.random.randint(1, 4))
    answers = t.random.sample(TEXTS, len(names))
    tools = [recording(name, answer)[0] for name, answer in zip(names, answers)]
    chosen = t.random.randrange(len(names))
    id = ids(t, 1)[0]
    result = await settle(harness.run_tool(tools, block(names[chosen], {"path": "a.py"}, id)))
    t.expect(result, {"role": "toolResult", "tool_call_id": id, "tool_name": names[chosen],
                      "content": answers[chosen], "is_error": False},
             "A result names the call it answers by id, carries execute's return value as its "
             "content, and has exactly these five keys (run_tool, lesson 2).")


@lab_test("execute receives the call's arguments, once per call, whatever they hold (an "
          "empty string and None among them), even when it returns \"\".")
async def test_execute_gets_the_arguments(t):
    read, seen = recording("read", "")  # an empty file's text: an answer like any other
    given, contents = [], []
    for n, id in enumerate(ids(t, t.random.randint(2, 4))):
        arguments = {"path": t.random.choice(PATHS)}
        if n == 0:  # values a tidy-minded run_tool might drop, in every draw
            arguments |= {"content": "", "offset": None}
        elif t.random.random() < 0.5:
            arguments["limit"] = t.random.randint(1, 500)
        given.append(arguments)
        result = await settle(harness.run_tool([read], block("read", dict(arguments), id)))
        contents.append(result["content"])
    t.expect(contents, [""] * len(given),
             "What execute returned is the result's content, \"\" included: an empty file's "
             "text is an answer, not a failure. Each item is one result's content (run_tool, "
             "lesson 2).")
    t.expect(seen, given,
             "run_tool calls the tool's execute once per call, with call[\"arguments\"], "
             "whatever they hold: an empty string and None are values too, and a tool that "
             "returned \"\" is not run again. Each item is what one call's execute received "
             "(run_tool, lesson 2).")


@lab_test("Among several tools, run_tool runs the one the call names, even when a function of "
          "harness.py has the same name.")
async def test_the_tool_is_picked_by_name(t):
    names = (t.random.sample(TOOL_NAMES, t.random.randint(1, 3)) +
             t.random.sample(HARNESS_NAMES, t.random.randint(1, 2)))
    t.random.shuffle(names)
    ran = []
    tools = [tool(name, lambda a, name=name: ran.append(name) or f"{name} ran")
             for name in names]
    asked = names + [t.random.choice(names) for _ in range(t.random.randint(0, 3))]
    t.random.shuffle(asked)
    results = []
    for id, name in zip(ids(t, len(asked)), asked):
        result = await settle(harness.run_tool(tools, block(name, {}, id)))
        results.append([result["tool_name"], result["content"]])
    t.expect(results, [[name, f"{name} ran"] for name in asked],
             "Among several tools, run_tool looks the call's name up among the tools it is "
             "given, and nowhere else. Each item is [tool_name, content] of one result "
             "(run_tool, lesson 2).")
    t.expect(ran, asked, "Each call ran its own tool, once (run_tool, lesson 2).")
    # The lesson's wipe: a function of harness.py under a name no tool has, and a name close to
    # the tools' names.
    wiped, own = [], vars(harness).get("wipe")  # a wipe of the file's own is put back after
    harness.wipe = lambda arguments: wiped.append(arguments) or "wiped"
    try:
        ran.clear()
        await raised(lambda: harness.run_tool(tools, block("wipe", {"path": "."}, "c100")))
    finally:
        if own is None:
            del harness.wipe
        else:
            harness.wipe = own
    t.expect([ran, wiped], [[], []],
             "A call for a name that no tool among those given has runs nothing: not a function "
             "of harness.py of that name (here wipe), not the tool with the closest name. "
             "run_tool looks the call's name up among the tools it is given, and nowhere else; "
             "lesson 2's run_tool raises KeyError, lesson 4's answers with an error. Items: the "
             "tools that ran, then what harness.wipe was called with (run_tool, lesson 2).")


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


# A file of 1000 lines of 50 bytes: 50,000 bytes, as long as a file lesson 6's read still returns
# whole.
LONG = "".join(f"line {n} of 1000".ljust(49, ".") + "\n" for n in range(1, 1001))


@lab_test("make_read_tool(ws) makes a tool named read whose one required argument is a string "
          "path, and whose execute returns the file's text: all of it, however long, as the "
          "workspace holds it at the time of the call.")
async def test_the_read_tool(t):
    files = dict(zip(t.random.sample(PATHS, 4), t.random.sample(TEXTS, 4)))
    ws = lab.Workspace(files | {"long.log": LONG})
    read = harness.make_read_tool(ws)
    t.expect([read["name"], read["parameters"]["required"],
              read["parameters"]["properties"]["path"]["type"]],
             ["read", ["path"], "string"],
             "The read tool is called read and asks for a path, a string (make_read_tool, "
             "lesson 2).")
    t.expect(isinstance(read["description"], str) and read["description"] != "", True,
             "A tool has a description: the model chooses tools by it (make_read_tool, lesson 2).")
    asked = t.random.sample(list(files), 3)
    t.expect([await settle(read["execute"]({"path": path})) for path in asked],
             [files[path] for path in asked],
             "read returns the whole text of the file, as it is, whether its path names a "
             "folder or not. Each item is what one read returned (make_read_tool, lesson 2).")
    long = await settle(read["execute"]({"path": "long.log"}))
    t.expect([len(long), long[-50:]], [len(LONG), LONG[-50:]],
             "read returns the whole text of the file, however long: no cap of its own (lesson 6 "
             "gives read a budget, and a note when it cuts). Items: the characters read returned "
             "for a file of 50,000, then its last 50 (make_read_tool, lesson 2).")
    edited = t.random.choice(asked)
    ws.write_text(edited, "changed since\n" + files[edited])
    t.expect(await settle(read["execute"]({"path": edited})), "changed since\n" + files[edited],
             "read gives the text as the workspace holds it at each call: a file changed since "
             "the last read is read anew, not remembered (make_read_tool, lesson 2).")


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
