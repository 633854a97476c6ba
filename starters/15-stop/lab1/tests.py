"""Lesson 15, lab 1: ask the run to stop. The tests of CancelToken, ABORTED, Harness.cancel, and
the three places where a run waits (the top of a turn, run_tool, bash).

Check your file with: python lab/lab_check.py --harness harness.py --lesson 15 tests.py
"""
import asyncio

import harness
import lab
from lab.kit import lab_test, tool

LAB = "15.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def stop_in_first_of_three(also=None):
    """A harness whose model asks for three reads at once; the first read presses Stop (and
    does `also(h)` first, if given). Returns (h, model, files actually read)."""
    read, box = [], {}

    def look(arguments):
        read.append(arguments["path"])
        if arguments["path"] == "a.py":
            if also:
                also(box["h"])
            box["h"].cancel()
        return "contents of " + arguments["path"]

    calls = [lab.call("look", {"path": p}) for p in ("a.py", "b.py", "c.py")]
    model = lab.ScriptedModel([lab.reply(*calls), lab.say("An answer nobody should pay for in run 1."),
                               lab.say("The next run's answer."), lab.say("And another.")])
    h = box["h"] = harness.Harness(model, SYSTEM, [tool("look", look, PATH)])
    return h, model, read


def one_call_model(name="build", arguments=None, *, latency=1):
    return lab.ScriptedModel([lab.reply(lab.call(name, arguments or {})), lab.say("Done.")],
                             latency=latency)


@lab_test("Stop is pressed from inside the first of three calls in one reply. That "
          "call's own output is kept; the second and third tools never run, each call "
          "still gets one result (Operation aborted, an error), no further request is "
          "sent, and an aborted message closes the record.")
async def test_stop_inside_a_batch(t):
    h, model, read = stop_in_first_of_three()
    await lab.drive(h.prompt("Look at all three files."))
    t.expect(lab.shape(h.messages), "U A[c1,c2,c3] R(c1) R(c2) R(c3) A(aborted)",
             "After Stop during c1, the record should still answer every call, then end "
             "with one aborted message. Every call gets exactly one result (run_tool, lesson "
             "4), and a stopped run says so at its end (run_agent, lesson 15).")
    t.expect(read, ["a.py"], "Only c1's tool may run. After Stop, run_tool must not run a "
                             "tool; it answers the call instead (run_tool, lesson 15).")
    t.expect([[m["content"], m["is_error"]] for m in h.messages[2:5]],
             [["contents of a.py", False], ["Operation aborted", True],
              ["Operation aborted", True]],
             "c1 keeps what its tool returned; c2 and c3 are answered ABORTED, marked "
             "is_error (run_tool, lesson 15).")
    t.expect(len(model.calls), 1, "After Stop, no request may be paid for: the top of the next "
                                  "turn must see the signal and not call the model (run_agent, "
                                  "lesson 15).")
    t.expect(h.messages[-1].get("error_message"), "Operation aborted",
             "The run's last message carries ABORTED as its error_message (run_agent, "
             "lesson 15).")


@lab_test("Events of a run stopped mid-batch: start, result and end for all three "
          "calls, one more turn carrying nothing but the aborted message, then "
          "agent_end, with each recorded message announced exactly once and in record "
          "order.")
async def test_events_of_a_stopped_run(t):
    h, _, _ = stop_in_first_of_three()
    events = await lab.drive(h.prompt("Look at all three files."))
    call = ["tool_execution_start", "message_end", "tool_execution_end"]
    t.expect([e["type"] for e in events],
             ["agent_start", "turn_start", "message_end", "message_end"] + call * 3 +
             ["turn_end", "turn_start", "message_end", "turn_end", "agent_end"],
             "A stop is an ordinary exit: events stay balanced, and the aborted message "
             "arrives in a turn of its own (run_agent, lessons 7 and 15).")
    announced = [e["message"] for e in events if e["type"] == "message_end"]
    t.expect(lab.shape(announced), lab.shape(h.messages),
             "Every message on the record is announced by its own message_end, in order "
             "(run_agent, lesson 7).")
    t.expect(lab.shape(events[-1]["messages"]), "U A[c1,c2,c3] R(c1) R(c2) R(c3) A(aborted)",
             "agent_end carries every message this run added (run_agent, lesson 7).")
    t.expect([lab.shape([e["result"]]) for e in events if e["type"] == "tool_execution_end"],
             ["R(c1)", "R(c2)", "R(c3)"],
             "Each tool_execution_end carries the result that was recorded for its call, "
             "the aborted ones included (run_agent, lesson 7).")


@lab_test("CancelToken begins clear and, once cancelled, never clears. Handed a set "
          "token, run_tool skips the tool and answers Operation aborted, and "
          "run_agent records the prompt and an aborted message without asking the "
          "model. Handed a clear token, neither behaves any differently.")
async def test_the_token_and_the_two_checks(t):
    token = harness.CancelToken()
    t.expect(token.is_cancelled(), False, "A new CancelToken is not cancelled (lesson 15).")
    token.cancel()
    token.cancel()
    t.expect(token.is_cancelled(), True, "cancel() sets the token, and twice is harmless.")
    t.expect(token.is_cancelled(), True, "A cancelled token stays cancelled.")
    ran = []
    tools = [tool("build", lambda arguments: ran.append("build") or "built")]
    call = {"type": "toolCall", "id": "c7", "name": "build", "arguments": {}}
    t.expect(await harness.run_tool(tools, call, token),
             {"role": "toolResult", "tool_call_id": "c7", "tool_name": "build",
              "content": "Operation aborted", "is_error": True},
             "With a cancelled signal, run_tool answers the call with ABORTED, is_error True "
             "(run_tool, lesson 15).")
    t.expect(ran, [], "With a cancelled signal, run_tool must not run the tool (lesson 15).")
    model, messages = one_call_model(), []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, "Build it.", signal=token))
    t.expect(lab.shape(messages), "U A(aborted)",
             "run_agent with a cancelled signal records the prompt, then the aborted message "
             "(run_agent, the top of a turn, lesson 15).")
    t.expect(len(model.calls), 0, "run_agent with a cancelled signal must not call the model.")
    clear = harness.CancelToken()
    t.expect((await harness.run_tool(tools, call, clear))["content"], "built",
             "With a clear signal, run_tool runs the tool as before (lesson 15).")
    model, messages = one_call_model(), []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, "Build it.", signal=clear))
    t.expect(lab.shape(messages), "U A[c1] R(c1) A",
             "With a clear signal, run_agent runs as it did in lesson 14.")


@lab_test("Leaving signal out, the way all earlier callers do, changes nothing: "
          "run_agent runs the tool and finishes the usual way.")
async def test_no_signal_means_no_stop(t):
    ran = []
    tools = [tool("build", lambda arguments: ran.append(1) or "built")]
    model, messages = one_call_model(), []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, "Build it."))
    t.expect(lab.shape(messages), "U A[c1] R(c1) A",
             "Without a signal the run goes on as before (run_agent, lesson 15): signal=None "
             "must mean 'nobody can stop this'.")
    t.expect(messages[2]["content"], "built", "The tool ran and its output is the result.")


@lab_test("error_message keeps its one-argument meaning, an \"error\" ending; given "
          "stop_reason=\"aborted\" it makes the identical message with that label. "
          "ABORTED is exactly Operation aborted.")
async def test_error_message_takes_a_label(t):
    t.expect(harness.error_message("boom"),
             {"role": "assistant", "content": [], "stop_reason": "error", "error_message": "boom"},
             "One argument keeps lesson 5's meaning (error_message, lesson 15).")
    t.expect(harness.error_message("Operation aborted", stop_reason="aborted"),
             {"role": "assistant", "content": [], "stop_reason": "aborted",
              "error_message": "Operation aborted"},
             "stop_reason= labels the same message differently (error_message, lesson 15).")
    t.expect(harness.ABORTED, "Operation aborted", "ABORTED is the exact text (lesson 15).")


@lab_test("Stop pressed in the gap between prompt() returning and the first event "
          "being taken: zero model calls, and a record of just the prompt plus the "
          "aborted message.")
async def test_stop_before_the_first_step(t):
    model = one_call_model()
    h = harness.Harness(model, SYSTEM, [])
    run = h.prompt("Tidy the repo.")
    h.cancel()  # the run exists, and has not taken a step
    await lab.drive(run)
    t.expect(lab.shape(h.messages), "U A(aborted)",
             "A run begins in prompt(), so its token must exist there: a Stop pressed before "
             "the first step must still stop it (Harness.prompt, lesson 15).")
    t.expect(len(model.calls), 0, "That run must not call the model.")
    t.expect(h.is_running, False, "Once the stopped run is over, is_running is False.")


@lab_test("A run closed before its first step is over: is_running turns False and the "
          "next prompt is accepted.")
async def test_a_run_closed_unstarted_ends(t):
    model = lab.ScriptedModel([lab.say("Only run 2 asks.")])
    h = harness.Harness(model, SYSTEM, [])
    run = h.prompt("Never mind.")
    await run.aclose()
    t.expect(h.is_running, False, "Closing a run that never started ends it: is_running "
                                  "is derived from the run, not from a flag that only a "
                                  "finally resets (Harness, lessons 8 and 15).")
    await lab.drive(h.prompt("Hello again."))
    t.expect(lab.shape(h.messages), "U A", "The next prompt is accepted and answered.")


@lab_test("cancel() with nothing running is a harmless no-op, before any run or "
          "between two; and a stop in one run never carries into the next, whose "
          "tools run as usual.")
async def test_cancel_when_idle_is_harmless(t):
    ran = []
    tools = [tool("build", lambda arguments: ran.append(1) or "built")]
    model = lab.ScriptedModel([lab.reply(lab.call("build")), lab.say("Built."),
                               lab.reply(lab.call("build")), lab.say("Built again.")])
    h = harness.Harness(model, SYSTEM, tools)
    h.cancel()  # nothing is running: a user a moment too late
    await lab.drive(h.prompt("Build it."))
    t.expect(lab.shape(h.messages), "U A[c1] R(c1) A",
             "A Stop pressed while idle must not reach the next run: each run gets a fresh "
             "token (Harness.prompt, lesson 15), and cancel() when idle must not raise.")
    h.cancel()  # between runs
    await lab.drive(h.prompt("Once more."))
    t.expect(lab.shape(h.messages[4:]), "U A[c2] R(c2) A",
             "A Stop pressed between runs must not reach run 2 either.")
    t.expect(len(ran), 2, "Both runs ran their tool.")
    h2, _, _ = stop_in_first_of_three()
    await lab.drive(h2.prompt("Look at all three files."))
    await lab.drive(h2.prompt("Carry on."))
    t.expect(lab.shape(h2.messages[6:]), "U A",
             "After a stopped run, the next run is not stopped (Harness.prompt, lesson 15).")


@lab_test("Once a run was stopped, a new prompt is accepted; its request shows the "
          "model the whole history minus the empty aborted message, which the record "
          "still keeps.")
async def test_the_next_request_after_a_stop(t):
    h, model, _ = stop_in_first_of_three()
    await lab.drive(h.prompt("Look at all three files."))
    t.expect(lab.validate(h.messages, record=True), [],
             "A stopped run leaves a record that a finished run may leave (lab.validate, "
             "record=True).")
    await lab.drive(h.prompt("What did you find?"))
    sent = model.calls[-1].messages
    t.expect(lab.shape(sent), "U A[c1,c2,c3] R(c1) R(c2) R(c3) U",
             "The view leaves out the empty aborted message: providers refuse an empty "
             "assistant message (context_for_model, lesson 15).")
    t.expect(lab.validate(sent), [], "The request must be one a provider accepts.")
    t.expect(lab.shape(h.messages), "U A[c1,c2,c3] R(c1) R(c2) R(c3) A(aborted) U A",
             "The record keeps the aborted message: the record says what happened, only the "
             "view is cleaned (context_for_model, lessons 10 and 15).")


@lab_test("A follow-up queued inside a run that then gets stopped stays queued; the "
          "stopped run never sees it, and the following run answers it in a turn of "
          "its own.")
async def test_a_follow_up_outlives_a_stop(t):
    h, model, _ = stop_in_first_of_three(also=lambda h: h.follow_up("Then run the tests."))
    await lab.drive(h.prompt("Look at all three files."))
    t.expect(lab.shape(h.messages), "U A[c1,c2,c3] R(c1) R(c2) R(c3) A(aborted)",
             "Follow-ups are asked for only when a run would end on its own, never after a "
             "stopped reply (run_agent, lessons 9 and 15).")
    await lab.drive(h.prompt("Go on."))
    t.expect([m["content"] for m in h.messages[6:] if m["role"] == "user"],
             ["Go on.", "Then run the tests."],
             "The held follow-up opens a turn of the next run, after that run's answer "
             "(Harness.follow_up, lesson 9).")
    t.expect(lab.shape(h.messages[6:]), "U A U A", "Run 2 answers the prompt, then the follow-up.")


@lab_test("A steer sent during a batch that is then stopped is recorded at the next "
          "turn's top, before the aborted message, and the next request holds it.")
async def test_a_steer_in_a_stopped_batch_is_kept(t):
    h, model, _ = stop_in_first_of_three(also=lambda h: h.steer("Use tabs, not spaces."))
    await lab.drive(h.prompt("Look at all three files."))
    t.expect(lab.shape(h.messages), "U A[c1,c2,c3] R(c1) R(c2) R(c3) U A(aborted)",
             "The loop asks for steering once the batch is answered, as always; the steer "
             "opens the next turn, whose top then sees Stop (run_agent, lessons 9 and 15).")
    t.expect(h.messages[5]["content"], "Use tabs, not spaces.", "The steer is on the record.")
    await lab.drive(h.prompt("Go on."))
    t.expect(lab.shape(model.calls[-1].messages), "U A[c1,c2,c3] R(c1) R(c2) R(c3) U U",
             "The next request holds the steer, and the prompt after it.")


@lab_test("A steer sent while a request is on its way, then Stop: the steer is not "
          "lost; it joins the first turn of the next run.")
async def test_a_steer_during_a_stopped_request_waits(t):
    model = lab.ScriptedModel([lab.say("unused"), lab.say("Both read.")], latency=3)
    h = harness.Harness(model, SYSTEM, [])
    async with lab.background(h.prompt("Summarise the repo.")) as task:
        while not model.calls:
            await lab.tick()
        h.steer("Only the src folder.")
        h.cancel()
        await task
    t.expect(lab.shape(h.messages), "U A(aborted)",
             "The model holds the signal and answers aborted; a stopped reply asks for no "
             "steering (run_agent, lesson 15).")
    await lab.drive(h.prompt("Try again."))
    t.expect([m["content"] for m in h.messages[2:] if m["role"] == "user"],
             ["Try again.", "Only the src folder."],
             "A queued steer leaves its queue only once it is on the record, so it joins the "
             "next run's first turn (Harness, lessons 9 and 15).")
    t.expect(lab.shape(model.calls[-1].messages), "U U U",
             "The next request holds the old prompt, the new one and the steer.")


@lab_test("Stop lands while the model is still answering. The model was given the "
          "signal, so its reply comes back \"aborted\", and no call in it is carried "
          "out.")
async def test_stop_during_the_request(t):
    ran = []
    tools = [tool("build", lambda arguments: ran.append(1) or "built")]
    model = one_call_model(latency=3)
    h = harness.Harness(model, SYSTEM, tools)
    async with lab.background(h.prompt("Build it.")) as task:
        while not model.calls:
            await lab.tick()
        h.cancel()
        await task
    t.expect(lab.shape(h.messages), "U A(aborted)",
             "The model call must be handed the signal, so the model can answer aborted "
             "(run_agent, lesson 15).")
    t.expect(model.calls[0].signal is not None and model.calls[0].signal.is_cancelled(), True,
             "The request carried the run's token, and it was set by h.cancel().")
    t.expect(ran, [], "A stopped reply is not acted on (run_agent, lesson 15).")
    t.expect(len(model.calls), 1, "And nobody is asked for more.")


@lab_test("Every execute receives the run's own token as its second argument, "
          "directly or through a guard: is_cancelled() is False until h.cancel(), "
          "True after.")
async def test_tools_are_handed_the_token(t):
    for label, wrap in (("bare", lambda x: x),
                        ("guarded", lambda x: harness.guard(x, lambda name, args: None))):
        seen, box = [], {}

        async def execute(arguments, signal=None):
            seen.append(None if signal is None else signal.is_cancelled())
            box["h"].cancel()
            seen.append(None if signal is None else signal.is_cancelled())
            return "built"

        build = wrap({"name": "build", "description": "Build the project.",
                      "parameters": {"type": "object", "properties": {}}, "execute": execute})
        h = box["h"] = harness.Harness(one_call_model(), SYSTEM, [build])
        await lab.drive(h.prompt("Build it."))
        t.expect([label, seen], [label, [False, True]],
                 "run_tool must hand execute the run's signal: execute(arguments, signal), "
                 "and the guard must pass it on to the tool it wraps (run_tool and guard, "
                 "lesson 15).")


@lab_test("Stop while bash waits on `sleep inf`: at most five event-loop turns later "
          "the process is dead, the call's result finishes on a Command cancelled "
          "line, and the run is over, aborted. Behind a guard, just the same.")
async def test_bash_hears_stop(t):
    for label in ("bare", "guarded"):
        shell = lab.Shell(lab.Workspace({}))
        bash = harness.make_bash_tool(shell)
        if label == "guarded":
            bash = harness.guard(bash, harness.deny_destructive)
        model = one_call_model("bash", {"command": "sleep inf"})
        h = harness.Harness(model, SYSTEM, [bash])
        async with lab.background(h.prompt("Run it for ever.")) as task:
            await lab.ticks(20)
            t.expect([label, task.done(), len(shell.running())], [label, False, 1],
                     "While `sleep inf` runs, the run waits for it (bash, lesson 15).")
            h.cancel()
            turns = 0
            while not task.done() and turns < 50:
                await lab.tick()
                turns += 1
        t.expect([label, turns <= 5], [label, True],
                 "bash must look at the signal on every turn while the command runs, and stop "
                 "within five turns of h.cancel() (bash's poll loop, lesson 15).")
        t.expect([label, lab.shape(h.messages)], [label, "U A[c1] R(c1) A(aborted)"],
                 "The cancelled command still gets its result, then the run ends aborted.")
        t.expect([label, h.messages[2]["content"].splitlines()[-1:]], [label, ["Command cancelled"]],
                 "The result's last line says why there is no output: Command cancelled.")
        t.expect([label, [p.killed for p in shell.processes], shell.running()], [label, [True], []],
                 "However bash's execute is left, the command must not keep running: kill it "
                 "(bash's finally, lesson 15).")


@lab_test("A run cancelled as a task while bash waits on `sleep inf`, with no Stop pressed "
          "first: the task ends cancelled and the command is dead all the same. Behind a guard, "
          "just the same.")
async def test_bash_kills_its_command_on_a_hard_cancel(t):
    for label in ("bare", "guarded"):
        shell = lab.Shell(lab.Workspace({}))
        bash = harness.make_bash_tool(shell)
        if label == "guarded":
            bash = harness.guard(bash, harness.deny_destructive)
        h = harness.Harness(one_call_model("bash", {"command": "sleep inf"}), SYSTEM, [bash])
        async with lab.background(h.prompt("Run it for ever.")) as task:
            await lab.ticks(20)
            t.expect([label, task.done(), [p.command for p in shell.running()]],
                     [label, False, ["sleep inf"]],
                     "While `sleep inf` runs, the run waits for it (bash, lesson 15).")
            task.cancel()  # a hard cancel: no flag was set, so no branch of the poll loop sees it
            turns = 0
            while not task.done() and turns < 50:
                await lab.tick()
                turns += 1
        t.expect([label, task.cancelled(), [[p.command, p.killed] for p in shell.processes],
                  [p.command for p in shell.running()]],
                 [label, True, [["sleep inf", True]], []],
                 "However bash's execute is left, the command must not keep running. A hard "
                 "cancel comes out of the poll loop's `await asyncio.sleep(0)`, a way out that "
                 "never sees the flag, so a kill only on the branch that saw the flag leaves "
                 "`sleep inf` running: kill it in a finally around the loop (bash, lesson 15).")


@lab_test("bash waits out a command that needs three turns before it prints, and "
          "hands back its output as a normal result.")
async def test_bash_waits_for_a_slow_command(t):
    shell = lab.Shell(lab.Workspace({}))
    h = harness.Harness(one_call_model("bash", {"command": "sleep 3 && echo done"}), SYSTEM,
                        [harness.make_bash_tool(shell)])
    await lab.drive(h.prompt("Wait for it."))
    t.expect(lab.shape(h.messages), "U A[c1] R(c1) A", "The run goes on after the command.")
    t.expect([h.messages[2]["content"], h.messages[2]["is_error"]], ["done\n", False],
             "bash must wait until the process is done, then return its output (bash, "
             "lesson 15).")
    t.expect([p.killed for p in shell.processes], [False],
             "A command that finished on its own was not killed first.")


@lab_test("For a run whose last message is \"aborted\", both renderers' finish() return "
          "False, and FinalTextRenderer prints the reason rather than an empty "
          "answer.")
async def test_renderers_report_a_stop(t):
    h = harness.Harness(one_call_model(), SYSTEM, [])
    run = h.prompt("Anything.")
    h.cancel()
    events = await lab.drive(run)
    as_json, as_text = harness.JsonRenderer(), harness.FinalTextRenderer()
    for event in events:
        t.printed(as_json.render, event)
        as_text.render(event)
    t.expect(t.printed(as_json.finish)[0], False, "JsonRenderer: a stopped run did not end well.")
    t.expect(list(t.printed(as_text.finish)), [False, "Error: Operation aborted\n"],
             "FinalTextRenderer prints Error: and the reason, and reports failure.")
