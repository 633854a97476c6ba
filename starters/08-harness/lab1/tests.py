"""Lesson 8, lab 1: one writer. The tests of the Harness: its own copy of the transcript, the
tuple snapshot, is_running read off the run, and prompt() refusing a second run at once.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 8 tests.py
"""
import harness
import lab
from lab.kit import lab_test, raised, tool

LAB = "8.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
BUSY = "RuntimeError: already running; use steer() or follow_up()"


def looker(ran=None, during=None):
    """A tool `look`; `during(arguments)` is called while it runs, if given."""
    def fn(arguments):
        if during is not None:
            during(arguments)
        if ran is not None:
            ran.append(arguments["path"])
        return "contents of " + arguments["path"]
    return tool("look", fn, PATH)


def answers(*texts):
    return lab.ScriptedModel([lab.say(text) for text in texts])


def one_call_then(*texts):
    return lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})), lab.say("Read it."),
                              *[lab.say(text) for text in texts]])


async def break_after(run, count):
    """Read `run` as `for event in run: ... break` does, leaving after `count` events without
    calling close(): the consumer just lets go of the run (lesson 7's clean stop)."""
    seen = 0
    if hasattr(run, "__aiter__"):  # from lesson 15 on, a run is async
        async for event in run:
            seen += 1
            if seen == count:
                break
    else:
        for event in run:
            seen += 1
            if seen == count:
                break


@lab_test("h.messages is () before any run, and a tuple holding the run afterwards.")
async def test_messages_is_a_tuple(t):
    h = harness.Harness(one_call_then(), SYSTEM, [looker()])
    t.expect([type(h.messages).__name__, lab.shape(h.messages)], ["tuple", ""],
             "h.messages is a snapshot, a tuple: a new harness with no messages shows an empty "
             "one (Harness.messages, lesson 8).")
    await lab.drive(h.prompt("Read a.py."))
    t.expect([type(h.messages).__name__, lab.shape(h.messages)], ["tuple", "U A[c1] R(c1) A"],
             "After a run, .messages is a tuple of the harness's transcript (Harness.messages, "
             "lesson 8).")


@lab_test("A snapshot stays as it was across a later run, and cannot be appended to.")
async def test_a_snapshot_is_frozen(t):
    h = harness.Harness(answers("One.", "Two."), SYSTEM, [])
    await lab.drive(h.prompt("First."))
    snapshot = h.messages
    await lab.drive(h.prompt("Second."))
    t.expect([lab.shape(snapshot), lab.shape(h.messages)], ["U A", "U A U A"],
             "Each read of .messages is a new snapshot; an old one does not change when the "
             "harness goes on (Harness.messages, lesson 8).")
    t.expect(await raised(lambda: snapshot.append(harness.user_message("sneaked in"))),
             "AttributeError: 'tuple' object has no attribute 'append'",
             "A tuple has no append: nobody outside the harness writes to its transcript "
             "(Harness.messages, lesson 8).")
    t.expect(lab.shape(h.messages), "U A U A", "The transcript is unchanged (Harness.messages, "
                                               "lesson 8).")


@lab_test("The list passed to Harness is copied: changing it later does nothing, and runs never "
          "write to it. The messages themselves are shared, not copied.")
async def test_the_list_passed_in_is_copied(t):
    earlier = [harness.user_message("My name is Ada."), lab.say("Hello, Ada.")]
    h = harness.Harness(answers("You are Ada."), SYSTEM, [], messages=earlier)
    earlier.append(harness.user_message("This was never said."))
    t.expect(lab.shape(h.messages), "U A",
             "Harness copies `messages` into a list of its own (Harness, lesson 8).")
    await lab.drive(h.prompt("Who am I?"))
    t.expect([lab.shape(earlier), lab.shape(h.messages)], ["U A U", "U A U A"],
             "The harness's runs write to its own list, never to the caller's (Harness, lesson 8).")
    t.expect([h.messages[0] is earlier[0], h.messages[1] is earlier[1]], [True, True],
             "The list is copied, the messages are not: no deep copies (Harness, lesson 8).")


@lab_test("A second prompt() while a run is in progress raises RuntimeError(\"already running; "
          "use steer() or follow_up()\") at once, on the caller's line, and the first run "
          "carries on to its end.")
async def test_a_second_prompt_is_refused(t):
    box, tried = {}, []

    def during(arguments):
        tried.append(box["h"].is_running)
    h = box["h"] = harness.Harness(one_call_then("Second answer."), SYSTEM, [looker(during=during)])

    async def second(event):
        if event["type"] in ("turn_start", "tool_execution_end"):
            tried.append(await raised(lambda: h.prompt("Do something else.")))
    await lab.drive(h.prompt("Read a.py."), on_event=second)
    t.expect(tried, [BUSY, True, BUSY, BUSY],
             "prompt() refuses while a run is in progress, when it is called, not at the "
             "second run's first step (Harness.prompt, lesson 8).")
    t.expect(lab.shape(h.messages), "U A[c1] R(c1) A",
             "The first run carried on, and the refused prompt left no trace (Harness.prompt, "
             "lesson 8).")
    await lab.drive(h.prompt("Now?"))
    t.expect(lab.shape(h.messages), "U A[c1] R(c1) A U A", "After the run, a prompt is accepted "
                                                           "(Harness.prompt, lesson 8).")


@lab_test("is_running is False before any prompt, True straight after prompt() returns, before "
          "any event, and False once the run is exhausted.")
async def test_is_running(t):
    model = one_call_then()
    h = harness.Harness(model, SYSTEM, [looker()])
    t.expect(h.is_running, False, "No run yet (Harness.is_running, lesson 8).")
    run = h.prompt("Read a.py.")
    t.expect([h.is_running, len(model.calls), lab.shape(h.messages)], [True, 0, ""],
             "The run exists from prompt() on, though none of it has happened yet: prompt() "
             "returns the run without starting it (Harness.prompt, lessons 7 and 8).")
    seen = []
    await lab.drive(run, on_event=lambda event: seen.append(h.is_running))
    t.expect([seen, h.is_running], [[True] * 12, False],
             "True at every event of the run, False once it is exhausted (Harness.is_running, "
             "lesson 8).")


@lab_test("A consumer that walks away early, closing the run after a few events, ends it: "
          "is_running is False and a new prompt is accepted.")
async def test_walking_away_ends_the_run(t):
    ran = []
    h = harness.Harness(one_call_then("Second answer."), SYSTEM, [looker(ran)])
    events = await lab.drive(h.prompt("Read a.py."), close_after=4)
    t.expect([len(events), h.is_running, lab.shape(h.messages), ran],
             [4, False, "U A[c1]", []],
             "A run closed by its consumer is over: is_running is read off the run itself, and "
             "_run's finally closes the inner run, so the tool never ran (Harness, lesson 8).")
    await lab.drive(h.prompt("Go on."))
    t.expect(lab.shape(h.messages), "U A[c1] U A", "The next prompt is accepted and answered "
                                                   "(Harness, lesson 8).")


@lab_test("A consumer that breaks out of its loop and lets go of the run, without calling "
          "close(), has ended it: is_running is False and a new prompt is accepted.")
async def test_breaking_out_ends_the_run(t):
    h = harness.Harness(one_call_then("Second answer."), SYSTEM, [looker()])
    await break_after(h.prompt("Read a.py."), 4)
    t.expect([h.is_running, lab.shape(h.messages)], [False, "U A[c1]"],
             "A run its consumer broke away from, and holds no more, is over: the harness keeps "
             "only a weak reference to its run, so that is_running cannot keep alive a run "
             "nobody will ever read again (Harness.is_running, lesson 8).")
    await lab.drive(h.prompt("Go on."))
    t.expect(lab.shape(h.messages), "U A[c1] U A", "The next prompt is accepted and answered "
                                                   "(Harness.prompt, lesson 8).")


@lab_test("A run closed before its first step is over too: is_running turns False and the next "
          "prompt is accepted.")
async def test_a_run_closed_before_it_starts(t):
    model = answers("Only the second run asks.")
    h = harness.Harness(model, SYSTEM, [])
    await lab.drive(h.prompt("Never mind."), close_after=0)
    t.expect([h.is_running, len(model.calls), lab.shape(h.messages)], [False, 0, ""],
             "A generator closed before its first step never runs its finally, so a flag "
             "cleared there would stay stuck; read running off the run instead (Harness, "
             "lesson 8).")
    await lab.drive(h.prompt("Hello again."))
    t.expect(lab.shape(h.messages), "U A", "The next prompt is accepted and answered (Harness, "
                                           "lesson 8).")


@lab_test("A PowerCut that kills a run leaves is_running False, and a new prompt is accepted.")
async def test_a_power_cut_ends_the_run(t):
    def cut(arguments):
        raise lab.PowerCut("the power went off")
    model = lab.ScriptedModel([lab.reply(lab.call("save")), lab.say("Saved."), lab.say("Hello.")])
    h = harness.Harness(model, SYSTEM, [tool("save", cut)])
    t.expect(await raised(lambda: lab.drive(h.prompt("Save it."))), "PowerCut: the power went off",
             "The power cut goes through the run to the consumer (run_tool, lesson 4).")
    t.expect([h.is_running, lab.shape(h.messages)], [False, "U A[c1]"],
             "A run that died is over (Harness.is_running, lesson 8).")
    await lab.drive(h.prompt("Are you back?"))
    t.expect(lab.shape(h.messages), "U A[c1] U A",
             "The harness whose run died accepts the next prompt, on the same transcript (Harness, "
             "lesson 8).")


@lab_test("The harness's max_turns applies to every run.")
async def test_max_turns_applies_to_every_run(t):
    def again(request):
        done = sum(m["role"] == "toolResult" for m in request.messages)
        return lab.reply(lab.call("look", {"path": "a.py"})) if done < 20 else lab.say("Enough.")
    model = lab.ScriptedModel([lab.forever(again)])
    h = harness.Harness(model, SYSTEM, [looker()], max_turns=1)
    await lab.drive(h.prompt("Look."))
    await lab.drive(h.prompt("Look again."))
    t.expect(lab.shape(h.messages), "U A[c1] R(c1) A(error) U A[c2] R(c2) A(error)",
             "Harness(max_turns=1) hands max_turns to run_agent on each run (Harness, "
             "lesson 8).")
    t.expect([len(model.calls), h.messages[-1]["error_message"]],
             [2, "Agent stopped after max_turns=1"], "One request per run (Harness, lesson 8).")


@lab_test("Run 2's first request holds all of run 1: the harness keeps one transcript across "
          "its runs.")
async def test_run_two_continues_run_one(t):
    model = one_call_then("Second answer.")
    h = harness.Harness(model, SYSTEM, [looker()])
    await lab.drive(h.prompt("Read a.py."))
    await lab.drive(h.prompt("And now?"))
    t.expect(lab.shape(model.calls[2].messages), "U A[c1] R(c1) A U",
             "The harness keeps the transcript between runs: run 2 starts from run 1 (Harness, "
             "lesson 8).")
    t.expect(lab.shape(h.messages), "U A[c1] R(c1) A U A", "Both runs are on the transcript "
                                                           "(Harness, lesson 8).")


@lab_test("Every request of every run carries the harness's system prompt and the specs of its "
          "tools.")
async def test_every_request_carries_system_and_specs(t):
    tools = [looker(), tool("bash", lambda a: "", description="Run a command.")]
    model = one_call_then("Second answer.")
    h = harness.Harness(model, SYSTEM, tools)
    await lab.drive(h.prompt("Read a.py."))
    await lab.drive(h.prompt("And now?"))
    t.expect([[request.system, [spec["name"] for spec in request.tools]]
              for request in model.calls],
             [[SYSTEM, ["look", "bash"]]] * 3,
             "What stays the same between runs is kept by the harness and handed to run_agent "
             "on each run: the system prompt and the tools (Harness, lesson 8).")
    t.expect([request.tools == harness.tool_specs(tools) for request in model.calls], [True] * 3,
             "The specs are tool_specs(tools), as in every request since lesson 3.")


@lab_test("At every event, h.messages already ends with the message that event announces.")
async def test_the_snapshot_at_every_event(t):
    h = harness.Harness(one_call_then(), SYSTEM, [looker()])
    seen = []

    def look(event):
        if event["type"] == "message_end":
            seen.append([lab.shape([event["message"]]), lab.shape(h.messages),
                         h.messages[-1] == event["message"]])
    await lab.drive(h.prompt("Read a.py."), on_event=look)
    t.expect(seen, [["U", "U", True], ["A[c1]", "U A[c1]", True], ["R(c1)", "U A[c1] R(c1)", True],
                    ["A", "U A[c1] R(c1) A", True]],
             "The harness's run writes to its own list before each event reaches the consumer "
             "(Harness and run_agent, lessons 7 and 8). Each row: [announced, h.messages, "
             "the same message].")
