"""Lesson 4, lab 1: draw the boundary. The tests of run_tool's boundary, str_arg, read's and
write's bad arguments, read's missing-file message and bash's status line.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 4 tests.py
"""
import harness
import lab
from lab.kit import lab_test, raised, settle, tool

LAB = "4.1"
SYSTEM = "You help with a small project."


def call(name, arguments=None, id="c1"):
    return lab.call(name, arguments, id=id)


def failing(name, exc):
    """A tool that raises `exc` every time it runs."""
    def fn(arguments):
        raise exc
    return tool(name, fn)


def fine(name, answer="ok", ran=None):
    def fn(arguments):
        if ran is not None:
            ran.append(name)
        return answer
    return tool(name, fn)


async def result_of(tools, name, arguments=None):
    """What run_tool answers for one call to `name`, as [content, is_error]."""
    result = await settle(harness.run_tool(tools, call(name, arguments)))
    return [result["content"], result["is_error"]]


@lab_test("A tool that raises ValueError(\"bad path\") gives the result \"bad path\" with "
          "is_error True, and the model is asked again.")
async def test_a_raise_becomes_a_result(t):
    model = lab.ScriptedModel([lab.reply(lab.call("open")), lab.say("That path was wrong.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages,
                                      [failing("open", ValueError("bad path"))], "Open it."))
    t.expect(lab.shape(messages), "U A[c1] R(c1) A",
             "A tool that raises still gets a result, and the run goes on (run_tool, lesson 4).")
    t.expect([messages[2]["content"], messages[2]["is_error"], messages[2]["tool_name"]],
             ["bad path", True, "open"],
             "The result's content is str(exc), marked is_error (run_tool, lesson 4).")
    t.expect(len(model.calls), 2, "The model is asked again, and can act on the error (run_tool, "
                                  "lesson 4).")


@lab_test("A call to a tool nobody has gives \"Tool nosuch not found\", named nosuch and marked "
          "is_error, and the run goes on.")
async def test_an_unknown_tool(t):
    result = await settle(harness.run_tool([fine("read")], call("nosuch", {"x": 1}, "c4")))
    t.expect(result, {"role": "toolResult", "tool_call_id": "c4", "tool_name": "nosuch",
                      "content": "Tool nosuch not found", "is_error": True},
             "An unknown name is answered, not raised (run_tool, lesson 4).")
    model = lab.ScriptedModel([lab.reply(lab.call("nosuch")), lab.say("I will use read.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [fine("read")], "Go."))
    t.expect([lab.shape(messages), messages[2]["content"]],
             ["U A[c1] R(c1) A", "Tool nosuch not found"],
             "The run continues after an unknown tool (run_tool, lesson 4).")


@lab_test("RuntimeError, KeyError and ZeroDivisionError all become error results carrying "
          "str(exc); a KeyError reads 'key', quotes and all.")
async def test_every_exception_becomes_a_result(t):
    def divide(arguments):
        return str(1 / 0)
    tools = [failing("boom", RuntimeError("it broke")), failing("lookup", KeyError("key")),
             tool("divide", divide), fine("good", "fine")]
    found = [await result_of(tools, name) for name in ("boom", "lookup", "divide", "good")]
    t.expect(found, [["it broke", True], ["'key'", True], ["division by zero", True],
                     ["fine", False]],
             "run_tool catches Exception, every kind of it, and gives str(exc) as the content "
             "(run_tool, lesson 4). str(KeyError('key')) is \"'key'\".")


@lab_test("lab.PowerCut is not a tool failing but the program ending: it goes through run_tool "
          "and out of the run, and the record stays U A[c1].")
async def test_a_power_cut_passes_through(t):
    def cut(arguments):
        raise lab.PowerCut("the power went off")
    t.expect(await raised(lambda: harness.run_tool([tool("save", cut)], call("save"))),
             "PowerCut: the power went off",
             "run_tool catches Exception and nothing wider: PowerCut is a BaseException "
             "(run_tool, lesson 4).")
    model = lab.ScriptedModel([lab.reply(lab.call("save")), lab.say("never")])
    messages = []
    t.expect(await raised(lambda: lab.drive(harness.run_agent(model, SYSTEM, messages,
                                                              [tool("save", cut)], "Save."))),
             "PowerCut: the power went off", "The power cut leaves the run (run_tool, lesson 4).")
    t.expect(lab.shape(messages), "U A[c1]",
             "Where the program stopped, the call has no result: nothing was recorded after "
             "the cut (run_tool, lesson 4).")


@lab_test("In a batch [c1, c2, c3] where c2 raises, c3 still runs, and the three results are in "
          "call order.")
async def test_a_failure_mid_batch(t):
    ran = []
    tools = [fine("first", "one", ran), failing("second", OSError("disk full")),
             fine("third", "three", ran)]
    model = lab.ScriptedModel([lab.reply(lab.call("first"), lab.call("second"), lab.call("third")),
                               lab.say("Two of three worked.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, "Do all three."))
    t.expect(lab.shape(messages), "U A[c1,c2,c3] R(c1) R(c2) R(c3) A",
             "A failure is one call's result; it does not end the batch or the run (run_tool, "
             "lesson 4).")
    t.expect([[m["content"], m["is_error"]] for m in messages[2:5]],
             [["one", False], ["disk full", True], ["three", False]],
             "c3 ran after c2 failed (run_tool, lesson 4).")
    t.expect(ran, ["first", "third"], "Both working tools ran (run_tool, lesson 4).")


@lab_test("str_arg hands back a string argument as it is; an absent one, or one of another "
          "type, raises ValueError(\"path must be a string\").")
async def test_str_arg(t):
    t.expect(harness.str_arg({"path": "a.py", "n": 1}, "path"), "a.py",
             "str_arg returns the value when it is a string (str_arg, lesson 4).")
    t.expect(harness.str_arg({"path": ""}, "path"), "", "An empty string is still a string "
                                                        "(str_arg, lesson 4).")
    found = [await raised(lambda a=a: harness.str_arg(a, "path"))
             for a in ({}, {"path": 7}, {"path": None}, {"path": ["a.py"]})]
    t.expect(found, ["ValueError: path must be a string"] * 4,
             "Missing, a number, None or a list: ValueError(f\"{name} must be a string\") "
             "(str_arg, lesson 4).")
    t.expect(await raised(lambda: harness.str_arg({}, "command")),
             "ValueError: command must be a string", "The message names the argument (str_arg, "
                                                     "lesson 4).")


@lab_test("read called with {} gives the error result \"path must be a string\"; write and bash "
          "check their arguments the same way.")
async def test_bad_arguments_are_results(t):
    ws = lab.Workspace({"a.py": "x\n"})
    tools = [harness.make_read_tool(ws), harness.make_write_tool(ws),
             harness.make_bash_tool(lab.Shell(ws))]
    found = [await result_of(tools, "read", {}),
             await result_of(tools, "read", {"path": 3}),
             await result_of(tools, "write", {"path": "b.py"}),
             await result_of(tools, "bash", {"command": ["ls"]})]
    t.expect(found, [["path must be a string", True], ["path must be a string", True],
                     ["content must be a string", True], ["command must be a string", True]],
             "Each tool takes its arguments with str_arg, and run_tool turns the ValueError "
             "into the call's result (str_arg and run_tool, lesson 4).")
    t.expect(ws.files, {"a.py": "x\n"}, "A refused write writes nothing (make_write_tool, lesson "
                                        "4).")


@lab_test("read of a missing file says exactly \"File not found: nope.txt. Files here: a.py, "
          "src\".")
async def test_read_a_missing_file(t):
    ws = lab.Workspace({"a.py": "print(1)\n", "src/main.py": "main()\n"})
    read = harness.make_read_tool(ws)
    t.expect(await raised(lambda: read["execute"]({"path": "nope.txt"})),
             "FileNotFoundError: File not found: nope.txt. Files here: a.py, src",
             "read raises FileNotFoundError naming the path and what is there, so the model "
             "can ask again (make_read_tool, lesson 4).")
    t.expect(await result_of([read], "read", {"path": "nope.txt"}),
             ["File not found: nope.txt. Files here: a.py, src", True],
             "Through run_tool it becomes the call's error result (run_tool, lesson 4).")
    t.expect(await result_of([read], "read", {"path": "src/main.py"}), ["main()\n", False],
             "A file that is there is read as before (make_read_tool, lesson 4).")


@lab_test("bash running `exit 2` gives an ordinary result (is_error False) that ends with "
          "\"Command exited with code 2\".")
async def test_a_failing_command_is_information(t):
    bash = harness.make_bash_tool(lab.Shell(lab.Workspace({})))
    t.expect(await result_of([bash], "bash", {"command": "echo failing; exit 2"}),
             ["failing\n\nCommand exited with code 2", False],
             "A command that ran and failed is news for the model, not a broken tool: its "
             "output, then the line \"Command exited with code 2\", is_error False (bash, "
             "lesson 4).")
    t.expect(await settle(bash["execute"]({"command": "exit 2"})), "\nCommand exited with code 2",
             "With no output, only the status line (make_bash_tool, lesson 4).")
    t.expect(await settle(bash["execute"]({"command": "cat nope.txt"})),
             "cat: nope.txt: No such file or directory\n\nCommand exited with code 1",
             "Error output and the code both reach the model (make_bash_tool, lesson 4).")


@lab_test("A command that exits with code 0 gets no status line.")
async def test_success_adds_nothing(t):
    bash = harness.make_bash_tool(lab.Shell(lab.Workspace({})))
    t.expect(await result_of([bash], "bash", {"command": "echo ok"}), ["ok\n", False],
             "Exit code 0 adds nothing to the output (bash, lesson 4).")
    t.expect(await settle(bash["execute"]({"command": "true"})), "", "No output, no line "
                                                                     "(make_bash_tool, lesson 4).")


@lab_test("The error result is in the next request, right after its call, and that request is "
          "one a provider accepts.")
async def test_the_next_request_carries_the_error(t):
    model = lab.ScriptedModel([lab.reply(lab.call("deploy", {"env": "prod"})),
                               lab.say("The deploy failed: no credentials.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages,
                                      [failing("deploy", PermissionError("no credentials"))],
                                      "Deploy it."))
    sent = model.calls[1].messages
    t.expect(lab.show(sent), 'user -> "Deploy it."\n'
                             'assistant -> toolCall c1 deploy({"env": "prod"})\n'
                             'toolResult c1 -> "no credentials"  [is_error]',
             "The model is told what went wrong, as the call's result (run_tool, lesson 4).")
    t.expect(lab.validate(sent), [], "Every call answered: a request a provider accepts (run_tool, "
                                     "lesson 4).")
