"""Lesson 2, lab 1: run what it asks for. The tests of text_of, tool_calls, tool_specs, run_tool
and the read tool, and of one round trip driven by hand.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 2 tests.py
"""
import harness
import lab
from lab.kit import lab_test, settle, tool

LAB = "2.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def block(name, arguments=None, id="c1"):
    """A call block as a delivered reply holds it: with its id already given."""
    return lab.call(name, arguments, id=id)


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
    mixed = lab.reply("Looking. ", block("read", {"path": "a.py"}), "Done.")
    t.expect(harness.text_of(mixed), "Looking. Done.",
             "text_of joins the text blocks in order and leaves the calls out (text_of, "
             "lesson 2).")
    t.expect(harness.text_of(lab.reply(block("read", {"path": "a.py"}))), "",
             "A reply with no text blocks has no words: \"\" (text_of, lesson 2).")
    t.expect(harness.text_of(lab.say("Hello.")), "Hello.", "A plain answer is its one text block "
                                                           "(text_of, lesson 2).")


@lab_test("tool_calls gives the call blocks in the order they stand, [] for a plain answer, and "
          "follows the content when it is edited, because it is worked out from it every time.")
async def test_tool_calls(t):
    message = lab.reply(block("read", {"path": "a.py"}, "c1"), "and then",
                        block("bash", {"command": "ls"}, "c2"))
    t.expect([c["id"] for c in harness.tool_calls(message)], ["c1", "c2"],
             "tool_calls gives every call of the reply, not only the first, in content order, "
             "skipping text (tool_calls, lesson 2).")
    t.expect(harness.tool_calls(message)[1], block("bash", {"command": "ls"}, "c2"),
             "Each call is the block itself: type, id, name, arguments (tool_calls, lesson 2).")
    t.expect(harness.tool_calls(lab.say("Nothing to do.")), [],
             "A plain answer makes no calls: [] (tool_calls, lesson 2).")
    message["content"].append(block("write", {"path": "b.py", "content": ""}, "c3"))
    del message["content"][0]
    t.expect([c["id"] for c in harness.tool_calls(message)], ["c2", "c3"],
             "The calls are derived from content each time they are asked for, so an edit to "
             "content shows at once; a second stored list would go stale (tool_calls, lesson 2).")


@lab_test("tool_specs gives, for each tool in order, a dict of exactly name, description and "
          "parameters: never execute, nor any other key a tool carries.")
async def test_specs_have_three_keys_in_order(t):
    tools = [tool("write", lambda a: ""), tool("read", lambda a: ""), tool("bash", lambda a: "")]
    tools[1]["snippet"] = "Read a file"
    tools[1]["guidelines"] = ["Read before you write."]
    specs = harness.tool_specs(tools)
    t.expect([spec["name"] for spec in specs], ["write", "read", "bash"],
             "The specs keep the tools' order (tool_specs, lesson 2).")
    t.expect([sorted(spec) for spec in specs], [["description", "name", "parameters"]] * 3,
             "Each spec has exactly three keys: the model is told a tool's name, description and "
             "parameters, and nothing else; execute never leaves the program (tool_specs, "
             "lesson 2).")
    t.expect(specs[1], {"name": "read", "description": "A tool for this test.",
                        "parameters": {"type": "object", "properties": {}}},
             "Each value is the tool's own (tool_specs, lesson 2).")
    t.expect(harness.tool_specs([]), [], "No tools, no specs (tool_specs, lesson 2).")


@lab_test("tool_specs leaves the tools as they were: same keys, same values, same execute.")
async def test_specs_do_not_change_the_tools(t):
    read = tool("read", lambda a: "text", PATH)
    read["snippet"] = "Read a file"
    execute = read["execute"]
    before = sorted(read)
    specs = harness.tool_specs([read])
    t.expect(sorted(read), before,
             "tool_specs must not remove keys from the tools (tool_specs, lesson 2): the "
             "program still needs execute after the model has been told about the tool.")
    t.expect([read["execute"] is execute, read["name"], read["snippet"]],
             [True, "read", "Read a file"],
             "The tool keeps its own execute and values (tool_specs, lesson 2).")
    specs[0]["name"] = "renamed"
    t.expect(read["name"], "read",
             "A spec is a new dict, not the tool itself (tool_specs, lesson 2).")


@lab_test("run_tool on a known tool returns exactly the five keys of a toolResult: the call's id "
          "and name, what execute returned, and is_error False.")
async def test_run_tool_returns_a_result(t):
    read, _ = recording("read", "print('hello')\n")
    result = await settle(harness.run_tool([read], block("read", {"path": "a.py"}, "c7")))
    t.expect(result, {"role": "toolResult", "tool_call_id": "c7", "tool_name": "read",
                      "content": "print('hello')\n", "is_error": False},
             "A result names the call it answers by id, carries execute's return value as its "
             "content, and has exactly these five keys (run_tool, lesson 2).")
    t.expect(lab.show([result]), "toolResult c7 -> \"print('hello')\\n\"",
             "As lab.show prints it (run_tool, lesson 2).")


@lab_test("execute receives the call's arguments, once per call.")
async def test_execute_gets_the_arguments(t):
    read, seen = recording("read", "x")
    await settle(harness.run_tool([read], block("read", {"path": "src/app.py"}, "c1")))
    t.expect(seen, [{"path": "src/app.py"}],
             "run_tool calls the tool's execute once, with call[\"arguments\"] (run_tool, "
             "lesson 2).")


@lab_test("Among several tools, run_tool runs the one the call names, even when a function of "
          "harness.py has the same name.")
async def test_the_tool_is_picked_by_name(t):
    ran = []
    tools = [tool(name, lambda a, name=name: ran.append(name) or f"{name} ran")
             for name in ("read", "tool_calls", "write")]
    results = []
    for number, name in enumerate(("write", "tool_calls", "read"), 1):
        result = await settle(harness.run_tool(tools, block(name, {}, f"c{number}")))
        results.append([result["tool_name"], result["content"]])
    t.expect(results,
             [["write", "write ran"], ["tool_calls", "tool_calls ran"], ["read", "read ran"]],
             "run_tool looks the call's name up among the tools it is given, and nowhere else "
             "(run_tool, lesson 2).")
    t.expect(ran, ["write", "tool_calls", "read"], "Each call ran its own tool, once (run_tool, "
                                                   "lesson 2).")


@lab_test("A reply with two calls gets two results, in call order, each naming its own call.")
async def test_two_calls_two_results(t):
    read, _ = recording("read", "text of a.py")
    bash, _ = recording("bash", "a.py\n")
    reply = lab.reply(block("bash", {"command": "ls"}, "c1"), block("read", {"path": "a.py"}, "c2"))
    results = [await settle(harness.run_tool([read, bash], call))
               for call in harness.tool_calls(reply)]
    t.expect([[r["tool_call_id"], r["tool_name"], r["content"]] for r in results],
             [["c1", "bash", "a.py\n"], ["c2", "read", "text of a.py"]],
             "Every call is answered, not only the first, and the ids pair each result with "
             "its call (run_tool and tool_calls, lesson 2).")


@lab_test("make_read_tool(ws) makes a tool named read whose one required argument is a string "
          "path, and whose execute returns the file's text.")
async def test_the_read_tool(t):
    ws = lab.Workspace({"notes.txt": "first line\nsecond line\n", "src/app.py": "print(1)\n"})
    read = harness.make_read_tool(ws)
    t.expect([read["name"], read["parameters"]["required"],
              read["parameters"]["properties"]["path"]["type"]],
             ["read", ["path"], "string"],
             "The read tool is called read and asks for a path, a string (make_read_tool, "
             "lesson 2).")
    t.expect(isinstance(read["description"], str) and read["description"] != "", True,
             "A tool has a description: the model chooses tools by it (make_read_tool, lesson 2).")
    t.expect(await settle(read["execute"]({"path": "notes.txt"})), "first line\nsecond line\n",
             "read returns the whole text of the file (make_read_tool, lesson 2).")
    t.expect(await settle(read["execute"]({"path": "src/app.py"})), "print(1)\n",
             "A path may name a file in a folder (make_read_tool, lesson 2).")


@lab_test("One round trip driven by hand: the user asks, the model calls read, run_tool answers. "
          "The list is U A[c1] R(c1), a transcript a provider accepts.")
async def test_a_round_trip_by_hand(t):
    ws = lab.Workspace({"todo.md": "- ship it\n"})
    tools = [harness.make_read_tool(ws)]
    model = lab.ScriptedModel([lab.reply("Let me look.", lab.call("read", {"path": "todo.md"}))])
    messages = [harness.user_message("What is on my list?")]
    reply = model.complete(SYSTEM, messages, harness.tool_specs(tools))
    messages.append(reply)
    for call in harness.tool_calls(reply):
        messages.append(await settle(harness.run_tool(tools, call)))
    t.expect(lab.shape(messages), "U A[c1] R(c1)",
             "Each call's result goes into the list right after the reply that asked for it "
             "(run_tool, lesson 2): a result not in the list is one the model never sees.")
    t.expect(lab.show(messages),
             'user -> "What is on my list?"\n'
             'assistant -> "Let me look." + toolCall c1 read({"path": "todo.md"})\n'
             'toolResult c1 -> "- ship it\\n"',
             "The round trip, as lab.show prints it (run_tool, lesson 2).")
    t.expect(lab.validate(messages), [],
             "The list is one a provider accepts: every call answered by a toolResult naming it "
             "(run_tool, lesson 2).")
    request = model.calls[0].tools
    t.expect([[spec["name"] for spec in request], request == harness.tool_specs(tools)],
             [["read"], True],
             "The request told the model about the tools by their specs alone (tool_specs, "
             "lesson 2).")
