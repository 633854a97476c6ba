"""Lesson 15, lab 1: ask the run to stop. The tests of CancelToken, ABORTED, Harness.cancel, and
the three places where a run waits (the top of a turn, run_tool, bash).

Check your file with: python lab/lab_check.py --harness harness.py --lesson 15 tests.py
"""
import asyncio
import contextlib

import harness
import lab
from lab.kit import everything_said, hours_pass, lab_test, raised, tool

LAB = "15.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


MODULES = ("app", "cli", "db", "api", "auth", "util", "core", "views", "models", "tasks", "io",
           "log", "cache", "forms", "routes", "jobs")


def draw_words(t, count):
    """`count` distinct words for texts a test carries through (steers, follow-ups, outputs)."""
    return [f"{word}-{t.random.randint(10, 999)}" for word in t.random.sample(MODULES, count)]


def stop_in_a_batch(t, also=None, size=None):
    """A harness whose model asks for `size` reads of drawn paths at once (two to five unless
    given); the read at a drawn index j, never the last, presses Stop (and does `also(h)` first,
    if given). Returns (h, model, files actually read, the paths asked for, j)."""
    size = size or t.random.randint(2, 5)
    if size <= len(MODULES):
        paths = [f"{name}{t.random.randint(1, 99)}.py" for name in t.random.sample(MODULES, size)]
    else:  # more calls than module names: each name again, numbered apart
        paths = [f"{MODULES[n % len(MODULES)]}{n + 1}.py" for n in range(size)]
    j, read, box = t.random.randrange(size - 1), [], {}

    def look(arguments):
        read.append(arguments["path"])
        if arguments["path"] == paths[j]:
            if also:
                also(box["h"])
            box["h"].cancel()
        return "contents of " + arguments["path"]

    calls = [lab.call("look", {"path": p}) for p in paths]
    model = lab.ScriptedModel([lab.reply(*calls), lab.say("An answer nobody should pay for in run 1."),
                               lab.say("The next run's answer."), lab.say("And another.")])
    h = box["h"] = harness.Harness(model, SYSTEM, [tool("look", look, PATH)])
    return h, model, read, paths, j


def said_by(t, fn):
    """What calling fn said beside what it returned: printed on stdout or stderr, logged, or
    warned, each warning every time it is given, not once per place (everything_said): "nothing
    anyone can see" means all of these."""
    with everything_said() as said:
        fn()
    return said.getvalue()


def batch(size):
    """The shape of a reply asking for `size` calls and their results: "A[c1,..] R(c1) .."."""
    return (f"A[{','.join(f'c{n + 1}' for n in range(size))}] "
            + " ".join(f"R(c{n + 1})" for n in range(size)))


def one_call_model(name="build", arguments=None, *, latency=1):
    return lab.ScriptedModel([lab.reply(lab.call(name, arguments or {})), lab.say("Done.")],
                             latency=latency)


@lab_test("Stop is pressed from inside one call, never the last, of a batch of two to five calls "
          "in one reply, then of a batch of seven to ten, then of eighty to a hundred and sixty. The calls up to it keep their tools' "
          "output; the later tools never run, however many calls the batch holds, since every "
          "tool call is handed the signal; each call still gets one result (Operation aborted, "
          "an error), no further request is sent, and an aborted message closes the record.")
async def test_stop_inside_a_batch(t):
    for size in (t.random.randint(2, 5), t.random.randint(7, 10),
                 t.random.randint(80, 160)):  # past sixty-odd, in a draw: a call costs tens of microseconds
        await stopped_inside_a_batch_of(t, size)


async def stopped_inside_a_batch_of(t, size):
    h, model, read, paths, j = stop_in_a_batch(t, size=size)
    await lab.drive(h.prompt("Look at all of these files."))
    t.expect(lab.shape(h.messages), f"U {batch(len(paths))} A(aborted)",
             f"After Stop during c{j + 1} of {len(paths)}, the record should still answer every "
             "call, then end with one aborted message. Every call gets exactly one result "
             "(run_tool, lesson 4), and a stopped run says so at its end (run_agent, lesson 15).")
    t.expect(read, paths[:j + 1],
             f"Only the tools of c1 to c{j + 1} of {len(paths)} may run, in order. After Stop, "
             "run_tool must not run a tool, however late in the batch the call comes: every tool "
             "call is handed the signal (run_tool and run_agent, Build items 4 and 5 of lab "
             "15.1). The items: the paths the tools read.")
    t.expect([[m["content"], m["is_error"]] for m in h.messages[2:-1]],
             [[f"contents of {path}", False] for path in paths[:j + 1]]
             + [["Operation aborted", True]] * (len(paths) - j - 1),
             f"c1 to c{j + 1} keep what their tools returned; every later call is answered "
             "ABORTED, marked is_error (run_tool, lesson 15). Each item: [content, is_error] of "
             "one result, in call order.")
    t.expect(len(model.calls), 1, "After Stop, no request may be paid for: the top of the next "
                                  "turn must see the signal and not call the model (run_agent, "
                                  "lesson 15).")
    t.expect(h.messages[-1].get("error_message"), "Operation aborted",
             "The run's last message carries ABORTED as its error_message (run_agent, "
             "lesson 15).")


@lab_test("Events of a run stopped mid-batch: start, result and end for every call of the "
          "batch, one more turn carrying nothing but the aborted message, then "
          "agent_end, with each recorded message announced exactly once and in record "
          "order.")
async def test_events_of_a_stopped_run(t):
    h, _, _, paths, _ = stop_in_a_batch(t)
    events = await lab.drive(h.prompt("Look at all of these files."))
    call = ["tool_execution_start", "message_end", "tool_execution_end"]
    t.expect([e["type"] for e in events],
             ["agent_start", "turn_start", "message_end", "message_end"] + call * len(paths) +
             ["turn_end", "turn_start", "message_end", "turn_end", "agent_end"],
             f"A stop is an ordinary exit: events stay balanced, each of the {len(paths)} calls "
             "has its three events, and the aborted message arrives in a turn of its own "
             "(run_agent, lessons 7 and 15).")
    announced = [e["message"] for e in events if e["type"] == "message_end"]
    t.expect(lab.shape(announced), lab.shape(h.messages),
             "Every message on the record is announced by its own message_end, in order "
             "(run_agent, lesson 7).")
    t.expect(lab.shape(events[-1]["messages"]), f"U {batch(len(paths))} A(aborted)",
             "agent_end carries every message this run added (run_agent, lesson 7).")
    t.expect([[e["result"]["content"], lab.shape([e["result"]])]
              for e in events if e["type"] == "tool_execution_end"],
             [[m["content"], lab.shape([m])] for m in h.messages[2:-1]],
             "Each tool_execution_end carries the result that was recorded for its call, "
             "the aborted ones included (run_agent, lesson 7). Each item: [content, shape] of "
             "one event's result.")


async def bash_handed(flag):
    """bash handed `flag`, already set, for `sleep inf`: [it answered within five turns, its
    command was killed or never started]. A bash that never asks has its wait ended here."""
    shell = lab.Shell(lab.Workspace({}))
    waiting = asyncio.ensure_future(harness.make_bash_tool(shell)["execute"](
        {"command": "sleep inf"}, flag))
    turns = 0
    while not waiting.done() and turns < 10:
        await lab.tick()
        turns += 1
    if not waiting.done():
        waiting.cancel()
        while not waiting.done():
            await lab.tick()
    return [turns <= 5, shell.running() == [] and all(p.killed for p in shell.processes)]


@lab_test("CancelToken begins clear and, once cancelled, never clears, however often it is "
          "pressed or read and however long ago it was pressed. Handed a set "
          "token, run_tool skips the tool and answers Operation aborted, and "
          "run_agent records the prompt and an aborted message without asking the "
          "model. Handed a clear token, neither behaves any differently. A set signal that "
          "counts as false stops run_tool, run_agent and bash all the same, and one whose "
          "is_cancelled() raises never lets run_tool run the tool.")
async def test_the_token_and_the_two_checks(t):
    name, output, prompt = draw_words(t, 3)
    name = name.replace("-", "_")
    token, presses = harness.CancelToken(), t.random.randint(300, 1_100)  # past a byte's count
    t.expect(token.is_cancelled(), False, "A new CancelToken is not cancelled (lesson 15).")
    reads = t.random.randint(1_500, 2_500)  # past a thousand, as a stale Stop might wait for
    with hours_pass(minutes=365 * 24 * 60):  # each reading of the clock a year on: millennia
        pressed = [token.cancel() or token.is_cancelled() for _ in range(presses)].count(True)
        read = [token.is_cancelled() for _ in range(reads)].count(True)
    t.expect([presses, pressed, reads, read], [presses, presses, reads, reads],
             "cancel() sets the token, pressing it again and again is harmless, and a cancelled "
             "token stays cancelled however often it is pressed or read and however long ago it "
             "was pressed: the token is read after each of hundreds of presses, then read "
             "thousands of times more while each reading of the clock is a year after the last "
             "(CancelToken, Build item 2 of lab 15.1: \"After `cancel()` it is, and it stays "
             "so\"). The items: [times cancel() was called, presses after which is_cancelled() "
             "answered True, times is_cancelled() was then read, reads that answered True].")
    ran = []
    tools = [tool(name, lambda arguments: ran.append(name) or output)]
    call = {"type": "toolCall", "id": f"c{t.random.randint(1, 99)}", "name": name, "arguments": {}}
    t.expect(await harness.run_tool(tools, call, token),
             {"role": "toolResult", "tool_call_id": call["id"], "tool_name": name,
              "content": "Operation aborted", "is_error": True},
             "With a cancelled signal, run_tool answers the call with ABORTED, is_error True "
             "(run_tool, lesson 15).")
    t.expect(ran, [], "With a cancelled signal, run_tool must not run the tool (lesson 15).")
    gone = {"type": "toolCall", "id": f"c{t.random.randint(100, 199)}", "name": name + "_gone",
            "arguments": {}}
    t.expect((await harness.run_tool(tools, gone, token))["content"], "Operation aborted",
             "With a cancelled signal even a call to a tool nobody has is answered ABORTED: "
             "run_tool looks at the signal before it looks the tool up (run_tool, lesson 15).")
    path = f"{name}.py"
    reader = harness.make_read_tool(lab.Workspace({path: output}))
    look = {"type": "toolCall", "id": f"c{t.random.randint(200, 299)}", "name": "read",
            "arguments": {"path": path}}
    t.expect(await harness.run_tool([reader], look, token),
             why="With a cancelled signal a call to read, a tool that changes nothing, is "
                 "answered like any other: its one result is ABORTED with is_error true, and "
                 "the tool never runs (run_tool, Build item 5 of lab 15.1: \"A call that comes "
                 "up after Stop ... its tool never runs\"). The item: run_tool's result.")
    model, messages = one_call_model(name), []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, prompt, signal=token))
    t.expect([lab.shape(messages), messages[0]["content"]], ["U A(aborted)", prompt],
             "run_agent with a cancelled signal records the prompt, then the aborted message "
             "(run_agent, the top of a turn, lesson 15). The items: [the record, its first "
             "message's content].")
    t.expect(len(model.calls), 0, "run_agent with a cancelled signal must not call the model.")

    class Pressed:  # a frontend's own flag, not a CancelToken
        def is_cancelled(self):
            return True
    model, messages = one_call_model(name), []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, prompt, signal=Pressed()))
    t.expect([(await harness.run_tool(tools, call, Pressed()))["content"], ran, lab.shape(messages),
              len(model.calls)], ["Operation aborted", [], "U A(aborted)", 0],
             "Any object with is_cancelled() can serve as a signal (CancelToken's docstring), not "
             "only a CancelToken: handed a set one, run_tool and run_agent stop just the same "
             "(lesson 15). The items: [run_tool's result, the tools that ran, the record, model "
             "calls].")

    class Emptied(Pressed):  # set, and false as a truth value, as an empty container is
        def __bool__(self):
            return False
    model, messages = one_call_model(name), []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, prompt, signal=Emptied()))
    t.expect([(await harness.run_tool(tools, call, Emptied()))["content"], ran, lab.shape(messages),
              len(model.calls), *await bash_handed(Emptied())],
             ["Operation aborted", [], "U A(aborted)", 0, True, True],
             "A signal is asked, never taken for true or false: only None means there is none, "
             "and a set signal whose class counts it as false (as an empty container is) still "
             "stops run_tool, run_agent and bash (CancelToken, lesson 15). The items: [run_tool's "
             "result, the tools that ran, the record, model calls, bash answered within five "
             "turns, bash's command killed or never started: handed a signal already set, bash "
             "may start none, as Tau's does].")

    class Counted:  # a frontend's flag whose is_cancelled() answers how often Stop was pressed
        def __init__(self, presses):
            self.presses = presses

        def is_cancelled(self):
            return self.presses
    for presses in (1, 2):  # 1 == True holds and 2 == True does not: both flags are set
        model, messages = one_call_model(name), []
        await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, prompt,
                                          signal=Counted(presses)))
        t.expect([presses, (await harness.run_tool(tools, call, Counted(presses)))["content"], ran,
                  lab.shape(messages), len(model.calls), *await bash_handed(Counted(presses))],
                 [presses, "Operation aborted", [], "U A(aborted)", 0, True, True],
                 "is_cancelled()'s answer is read as a condition, as any if reads one: a "
                 "frontend's flag that answers 1 is set, and so is one that answers 2, so "
                 "run_tool, run_agent and bash all stop (CancelToken, Build item 2 of lab 15.1: "
                 "\"its answer is read as a condition, as any `if` reads one\"). The items: [what "
                 "is_cancelled() answers, run_tool's result, the tools that ran, the record, model "
                 "calls, bash answered within five turns, bash's command killed or never started].")
    kind = t.random.choice([RuntimeError, OSError, ValueError])

    class Unplugged:  # a frontend's flag whose is_cancelled() raises: it has not said go on
        def is_cancelled(self):
            raise kind(f"the Stop button of {name} is unplugged")
    before, answered = len(ran), []

    async def ask():
        answered.append(await harness.run_tool(tools, call, Unplugged()))
    trouble = await raised(ask)
    t.expect([kind.__name__, ran[before:], trouble is not None or answered[0]["is_error"] is True],
             [kind.__name__, [], True],
             "A signal whose is_cancelled() raises has not said go on: its exception goes up, or "
             "the signal counts as set, never as clear, so the tool it guards does not run "
             "(run_tool, Build item 2 of lab 15.1: \"A signal whose `is_cancelled()` raises has "
             "not said go on\"). The items: [what is_cancelled() raised, the tools that ran, "
             "run_tool let the exception out or answered the call with is_error true].")
    clear = harness.CancelToken()
    t.expect((await harness.run_tool(tools, call, clear))["content"], output,
             "With a clear signal, run_tool runs the tool as before (lesson 15).")
    model, messages = one_call_model(name), []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, prompt, signal=clear))
    t.expect([lab.shape(messages), messages[2]["content"]], ["U A[c1] R(c1) A", output],
             "With a clear signal, run_agent runs as it did in lesson 14. The items: [the "
             "record, the tool's result].")
    handed = []

    async def execute(arguments, flag=None):  # the second parameter named otherwise
        handed.append(["execute", flag])
        return output

    class Provider:  # a model whose acomplete names its fourth parameter otherwise
        async def acomplete(self, system, messages, tools=(), token=None):
            handed.append(["acomplete", token])
            return await inner.acomplete(system, messages, tools, token)
    class Idle:  # a frontend's own flag, clear: it serves as a signal as a CancelToken does
        def is_cancelled(self):
            return []  # the presses it has seen: none, so clear, read as a condition
    inner, messages, flag = one_call_model(name), [], Idle()
    own = [{"name": name, "description": "Build.", "parameters": {"type": "object", "properties": {}},
            "execute": execute}]
    await lab.drive(harness.run_agent(Provider(), SYSTEM, messages, own, prompt, signal=flag))
    t.expect([lab.shape(messages), [[where, got is flag] for where, got in handed]],
             ["U A[c1] R(c1) A", [["acomplete", True], ["execute", True], ["acomplete", True]]],
             "The signal goes by position, whatever the parameter is called: acomplete's fourth "
             "argument and execute's second (run_agent and run_tool, lesson 15), so a provider or "
             "tool that names it otherwise still gets it; and the signal handed on is the one "
             "run_agent was given, here a frontend's own clear flag, not a CancelToken (\"Any "
             "object with `is_cancelled()` can serve as a signal\", Build item 2 of lab 15.1). "
             "Its is_cancelled() answers [], the presses it has seen, and an answer is read as a "
             "condition, as any if reads one: [] is clear, so the tool runs. "
             "The items: [the record, for each call made: [what was called, whether it got the "
             "signal]].")


@lab_test("Leaving signal out, the way all earlier callers do, changes nothing: "
          "run_agent runs the tool and finishes the usual way, and hands acomplete None as its "
          "fourth argument, so a provider that takes it with no default answers too.")
async def test_no_signal_means_no_stop(t):
    rounds = t.random.randint(1, 3)
    outputs = draw_words(t, rounds)
    ran = []
    tools = [tool("build", lambda arguments: ran.append(1) or outputs[len(ran) - 1])]
    model = lab.ScriptedModel([lab.reply(lab.call("build")) for _ in range(rounds)]
                              + [lab.say("Done.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, "Build it."))
    t.expect(lab.shape(messages),
             " ".join(["U"] + [f"A[c{n + 1}] R(c{n + 1})" for n in range(rounds)] + ["A"]),
             f"Without a signal the run goes on as before through {rounds} tool turns (run_agent, "
             "lesson 15): signal=None must mean 'nobody can stop this'.")
    t.expect([m["content"] for m in messages if m["role"] == "toolResult"], outputs,
             "The tool ran each time and its output is the result. The items: each result's content.")
    inner, handed, messages = one_call_model(), [], []

    class Provider:  # a model whose acomplete takes its fourth parameter with no default
        async def acomplete(self, system, messages, tools, signal):
            handed.append(signal)
            return await inner.acomplete(system, messages, tools, signal)
    ran.clear()
    trouble = await raised(lambda: lab.drive(harness.run_agent(Provider(), SYSTEM, messages, tools,
                                                               "Build it once.")))
    t.expect([trouble, lab.shape(messages), handed], [None, "U A[c1] R(c1) A", [None, None]],
             "Every request that goes out carries the signal as acomplete's fourth argument, "
             "None included: with no signal, acomplete is still handed None, so a provider whose "
             "fourth parameter has no default answers as any other (run_agent, Build item 4 of "
             "lab 15.1: \"`None` included: with no signal, `acomplete` is still handed `None`\"). "
             "The items: [what the run raised, the record, what each acomplete was handed].")


@lab_test("error_message keeps its one-argument meaning, an \"error\" ending; given "
          "stop_reason=\"aborted\" it makes the identical message with that label, a new "
          "one at each call. ABORTED is exactly Operation aborted.")
async def test_error_message_takes_a_label(t):
    reason = f"{t.random.choice(draw_words(t, 3))} failed with code {t.random.randint(1, 255)}"
    for text in (reason, harness.ABORTED):
        t.expect(harness.error_message(text),
                 {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text},
                 f"error_message({text!r}) with one argument makes lesson 5's \"error\" ending, "
                 "whatever its text, ABORTED's too: only stop_reason= makes another label "
                 "(error_message, Build item 1 of lab 15.1).")
    for text in (harness.ABORTED, reason):
        t.expect(harness.error_message(text, stop_reason="aborted"),
                 {"role": "assistant", "content": [], "stop_reason": "aborted",
                  "error_message": text},
                 "stop_reason= labels the same message differently, whatever its text "
                 "(error_message, lesson 15).")
    first = harness.error_message(reason, stop_reason="aborted")
    second = harness.error_message(reason, stop_reason="aborted")
    t.expect([first is second, first["content"] is second["content"]], [False, False],
             "error_message makes a new message at each call, so that no ending shares anything "
             "with another, a provider's worded aborted ending included (error_message, lessons "
             "5 and 15). The items: [two calls with the same text and label gave one object, "
             "they share one content list].")
    t.expect(harness.ABORTED, "Operation aborted", "ABORTED is the exact text (lesson 15).")


@lab_test("Stop pressed in the gap between prompt() returning and the first event "
          "being taken: zero model calls, and a record of just the prompt plus the "
          "aborted message. A second prompt() refused while a run is going leaves Stop "
          "reaching that run.")
async def test_stop_before_the_first_step(t):
    prompt = f"Tidy {' and '.join(draw_words(t, t.random.randint(1, 3)))}."
    model = one_call_model()
    h = harness.Harness(model, SYSTEM, [tool("build", lambda arguments: "built")])
    run = h.prompt(prompt)
    for _ in range(t.random.randint(1, 2)):
        h.cancel()  # the run exists, and has not taken a step
    await lab.drive(run)
    t.expect([lab.shape(h.messages), h.messages[0]["content"]], ["U A(aborted)", prompt],
             "A run begins in prompt(), so its token must exist there: a Stop pressed before "
             "the first step must still stop it (Harness.prompt, lesson 15). The items: [the "
             "record, the prompt it holds].")
    t.expect(len(model.calls), 0, "That run must not call the model.")
    t.expect(h.is_running, False, "Once the stopped run is over, is_running is False.")
    model = one_call_model(latency=t.random.randint(2, 4))
    h = harness.Harness(model, SYSTEM, [tool("build", lambda arguments: "built")])
    async with lab.background(h.prompt(prompt)) as task:
        while not model.calls:
            await lab.tick()
        refused = await raised(lambda: h.prompt("And one more thing."))
        h.cancel()  # meant for the run that is going
        stopping = [h.is_running, await raised(lambda: h.prompt("Start afresh.")) is not None]
        await task
    t.expect([refused is not None, lab.shape(h.messages)],
             why="A second prompt() while a run is going is refused, and changes nothing: "
                 "h.cancel() after it still stops the run that is going, since that run's token "
                 "is the one Stop sets; a token made before the refusal is nobody's (Harness."
                 "prompt, lesson 15). The items: [the second prompt was refused, the record].")
    t.expect(stopping, [True, True],
             "h.cancel() asks the run to stop; it does not end it: the stopped run is still "
             "going until it has unwound (its request answered, its aborted ending recorded), "
             "so is_running stays True, as the Harness docstring says, from prompt() until that "
             "run is exhausted, closed or dies, and another prompt() is refused until then, or "
             "two runs write one record (Harness.cancel, lesson 15). The items: [is_running "
             "just after h.cancel(), a prompt() just after it was refused].")


@lab_test("A run closed before its first step is over: is_running turns False and the "
          "next prompt is accepted; and one stopped, then closed before its first step, does "
          "not stop the next.")
async def test_a_run_closed_unstarted_ends(t):
    closed, prompt, answer = draw_words(t, 3)
    model = lab.ScriptedModel([lab.say(f"Only run 2 asks: {answer}."), lab.say("Answered.")])
    h = harness.Harness(model, SYSTEM, [])
    run = h.prompt(f"Never mind {closed}.")
    await run.aclose()
    t.expect(h.is_running, False, "Closing a run that never started ends it: is_running "
                                  "is derived from the run, not from a flag that only a "
                                  "finally resets (Harness, lessons 8 and 15).")
    await lab.drive(h.prompt(f"Hello again, {prompt}."))
    t.expect([lab.shape(h.messages), h.messages[0]["content"], h.messages[-1]["content"][0]["text"]],
             ["U A", f"Hello again, {prompt}.", f"Only run 2 asks: {answer}."],
             "The next prompt is accepted and answered. The items: [the record, its prompt, "
             "the answer].")
    dropped = h.prompt(f"Stop {closed} at once.")
    h.cancel()  # Stop pressed, then the run is dropped before it ever took a step
    await dropped.aclose()
    await lab.drive(h.prompt(f"And {answer}?"))
    t.expect([lab.shape(h.messages), h.messages[-2]["content"], h.is_running],
             ["U A U A", f"And {answer}?", False],
             "A run stopped before its first step and then closed unstarted takes its Stop with "
             "it: each run has a token of its own, made when the run is, so the next run is "
             "answered as usual, not stopped by the Stop of a run that never began (Harness, "
             "Build item 3 of lab 15.1: \"Each run has a token of its own\"; a token renewed "
             "only when a run ends is never renewed for a run closed unstarted, whose finally "
             "never runs). The items: [the record, the last prompt, is_running].")


@lab_test("cancel() with nothing running is a harmless no-op, before any run or "
          "between two, and what was queued stays queued; a stop in one run never carries "
          "into the next, whose tools run as usual; and each stopped run ends on a message "
          "of its own.")
async def test_cancel_when_idle_is_harmless(t):
    ran, outputs = [], draw_words(t, 4)
    runs = t.random.randint(2, 4)
    tools = [tool("build", lambda arguments: ran.append(1) or outputs[len(ran) - 1])]
    replies = []
    for n in range(runs):
        replies += [lab.reply(lab.call("build")), lab.say(f"Built {n + 1}.")]
    h = harness.Harness(lab.ScriptedModel(replies), SYSTEM, tools)
    heard, idle_heard = [], []  # every event a listener heard; those heard while idle
    h.subscribe(heard.append)
    for n in range(runs):
        before = len(heard)
        for _ in range(t.random.randint(3, 5) if n == 0 else t.random.randint(1, 3)):
            h.cancel()  # nothing is running: a user a moment too late, before or between runs
        idle_heard += [event.get("type") for event in heard[before:]]
        await lab.drive(h.prompt(f"Build it, take {n + 1}."))
    t.expect([runs, idle_heard], [runs, []],
             "cancel() with no run going does nothing anyone can see, and a frontend's listener "
             "is someone: it hears no event from a Stop pressed while idle, before the first run "
             "or between two (Harness.cancel, Build item 3 of lab 15.1: \"h.cancel() with no run "
             "going does nothing anyone can see\"). The items: [runs, the types of the events a "
             "subscriber heard while cancel() was pressed with nothing running].")
    t.expect([lab.shape(h.messages), [m["content"] for m in h.messages if m["role"] == "toolResult"]],
             [" ".join(f"U A[c{n + 1}] R(c{n + 1}) A" for n in range(runs)), outputs[:runs]],
             f"A Stop pressed while idle, once or several times in a row, before each of {runs} "
             "runs, must not reach the next run: each run gets a fresh token (Harness.prompt, "
             "lesson 15), and cancel() when idle must not raise, however often it is pressed. The "
             "items: [the record, each run's tool output].")
    said, idle = [], harness.Harness(lab.ScriptedModel([lab.say("Idle.")]), SYSTEM, [])

    def build_and_press_elsewhere(arguments):
        said.append(said_by(t, idle.cancel))  # a second harness, with no run going, is stopped
        return outputs[0]
    busy = harness.Harness(lab.ScriptedModel([lab.reply(lab.call("build")), lab.say("Built.")]),
                           SYSTEM, [tool("build", build_and_press_elsewhere)])
    await lab.drive(busy.prompt("Build it."))
    t.expect([lab.shape(busy.messages), said],
             why="Two harnesses: while one runs, its tool calls cancel() on the other, which has "
                 "no run going. That cancel() does nothing: the running harness's run goes on "
                 "to its answer, since each harness keeps its own runs' tokens, and nothing is "
                 "printed, on stdout or stderr, nor logged or warned, even by a warning Python "
                 "shows once per place (Harness.cancel, Build item 3 of lab 15.1: \"h.cancel() with no run "
                 "going does nothing anyone can see\"). The items: [the running harness's record, "
                 "what the idle cancel() printed].")
    steer, later, last = draw_words(t, 3)
    queued = harness.Harness(lab.ScriptedModel([lab.say("First."), lab.say("Second."),
                                                lab.say("Third.")]), SYSTEM, [])
    queued.steer(f"Mind the {steer} folder.")
    queued.follow_up(f"Then look at {later}.")
    queued.follow_up(f"And at {last}.")
    queued.cancel()  # idle: a late Stop, with a steer and two follow-ups queued for the next run
    await lab.drive(queued.prompt("Start."))
    t.expect([lab.shape(queued.messages), [m["content"] for m in queued.messages if m["role"] == "user"]],
             why="cancel() with no run going does nothing: what was queued stays queued, so the "
                 "next run takes the steer in its first turn and answers both follow-ups, in "
                 "order (Harness.cancel, lesson 15). The items: [the record, its user messages].")
    h2, model, _, paths, _ = stop_in_a_batch(t)
    await lab.drive(h2.prompt("Look at all of these files."))
    await lab.drive(h2.prompt("Carry on."))
    t.expect(lab.shape(h2.messages[len(paths) + 3:]), "U A",
             "After a stopped run, the next run is not stopped (Harness.prompt, lesson 15).")
    third = h2.prompt("And once more.")
    h2.cancel()  # the third run is stopped before its first step
    await lab.drive(third)
    signals = [call.signal for call in model.calls]  # run 1's request, then run 2's
    t.expect([len(signals), [type(s).__name__ for s in signals], [s.is_cancelled() for s in signals]],
             [2, ["CancelToken"] * 2, [True, False]],
             "Each run has a token of its own, and run_agent receives it as its signal, the "
             "CancelToken itself, not an object standing for it: run 1's "
             "token, set by its Stop, stays set; run 2's, never pressed, stays clear when run 3 "
             "is stopped. A token shared by runs, cleared or reused, or the harness itself as the "
             "signal, lets one run's Stop reach another's (Harness, lesson 15). The items: "
             "[requests made, each request's signal's type, each is_cancelled() after run 3's "
             "Stop].")
    endings = [m for m in h2.messages if m.get("stop_reason") == "aborted"]  # runs 1 and 3
    t.expect([len(endings), endings[0] is endings[1], endings[0]["content"] is endings[1]["content"]],
             [2, False, False],
             "Each stopped run ends on a message of its own: error_message makes a new message at "
             "each call, so that no ending shares anything with another (error_message, lessons 5 "
             "and 15). The items: [aborted endings on the record, the two are one object, they "
             "share one content list].")


@lab_test("Once a run was stopped, a new prompt is accepted; its request shows the "
          "model the whole history minus the empty aborted message, which the record "
          "still keeps.")
async def test_the_next_request_after_a_stop(t):
    h, model, _, paths, _ = stop_in_a_batch(t)
    question = f"What did you find in {paths[-1]}?"
    await lab.drive(h.prompt("Look at all of these files."))
    t.expect(lab.validate(h.messages, record=True), [],
             "A stopped run leaves a record that a finished run may leave (lab.validate, "
             "record=True).")
    await lab.drive(h.prompt(question))
    sent = model.calls[-1].messages
    t.expect([lab.shape(sent), sent[-1]["content"]], [f"U {batch(len(paths))} U", question],
             "The view leaves out the empty aborted message: providers refuse an empty "
             "assistant message (context_for_model, lesson 15). The items: [the request, its "
             "last message's content].")
    t.expect(lab.validate(sent), [], "The request must be one a provider accepts.")
    worded = {**lab.reply(f"I read {paths[0]} and"), "stop_reason": "aborted",
              "error_message": harness.ABORTED}  # Stop landed after the model got words out
    view = harness.context_for_model([{"role": "user", "content": question}, worded,
                                      {"role": "user", "content": "Go on."}])
    t.expect([worded in view, lab.shape(view)], [True, "U A(aborted) U"],
             "Only an empty aborted message is left out of the view, as only an empty failed one "
             "is: one that got words out before Stop stays, so the model sees what it already "
             "said (context_for_model, lesson 15). The items: [the worded aborted message is "
             "sent, the view].")
    for ending in ("aborted", "error"):  # each label on every draw, the stopped one as the failed
        called = {**lab.reply(lab.call("read", {"path": paths[0]}, id="c9")), "stop_reason": ending,
                  "error_message": harness.ABORTED if ending == "aborted" else "overloaded"}
        view = harness.context_for_model([{"role": "user", "content": question}, called,
                                          {"role": "user", "content": "Go on."}])
        t.expect([ending, called in view, lab.shape(view)], [ending, True, f"U A[c9]({ending}) R(c9) U"],
                 "Empty means no content at all (Build item 4): a failed or stopped reply that "
                 "got a call out, with no words, stays in the view, its call answered there as "
                 "lesson 10 answers any call with no result. The reply, labelled "
                 f"{ending!r}, holds read(c9) and no text. The items: [its label, it is sent, the "
                 "view] (context_for_model, lesson 15).")
    t.expect(lab.shape(h.messages), f"U {batch(len(paths))} A(aborted) U A",
             "The record keeps the aborted message: the record says what happened, only the "
             "view is cleaned (context_for_model, lessons 10 and 15).")


@lab_test("A follow-up queued inside a run that then gets stopped stays queued; the "
          "stopped run never sees it, and the following run answers it in a turn of "
          "its own. A follow-up queued as a run's answer ends opens a turn whose request "
          "carries the run's token, or, with Stop pressed then, no request at all; and so does "
          "a steer sent as the answer ends, with Stop pressed then: once the signal is set the "
          "run sends no more requests, whatever opened the turn.")
async def test_a_follow_up_outlives_a_stop(t):
    later, prompt = draw_words(t, 2)
    h, model, _, paths, _ = stop_in_a_batch(t, also=lambda h: h.follow_up(f"Then run {later}."))
    await lab.drive(h.prompt("Look at all of these files."))
    t.expect(lab.shape(h.messages), f"U {batch(len(paths))} A(aborted)",
             "Follow-ups are asked for only when a run would end on its own, never after a "
             "stopped reply (run_agent, lessons 9 and 15).")
    await lab.drive(h.prompt(f"Go on with {prompt}."))
    t.expect([m["content"] for m in h.messages[len(paths) + 3:] if m["role"] == "user"],
             [f"Go on with {prompt}.", f"Then run {later}."],
             "The held follow-up opens a turn of the next run, after that run's answer "
             "(Harness.follow_up, lesson 9). The items: the next run's user messages.")
    t.expect(lab.shape(h.messages[len(paths) + 3:]), "U A U A",
             "Run 2 answers the prompt, then the follow-up.")
    for queue, stop in (("follow-up", True), ("follow-up", False), ("steer", True)):
        # a follow-up queued as the answer ends, with Stop or without; a steer, with Stop
        model = lab.ScriptedModel([lab.say("First answer."), lab.say("The follow-up's answer.")])
        h = harness.Harness(model, SYSTEM, [])
        later = draw_words(t, 1)[0]

        def hear(event, h=h, stop=stop, later=later, queue=queue):
            if event["type"] == "turn_end" and not h.messages[-1].get("error_message"):
                if len([m for m in h.messages if m["role"] == "user"]) == 1:
                    (h.follow_up if queue == "follow-up" else h.steer)(f"Now {later}.")
                    if stop:
                        h.cancel()  # pressed after the answer, before the queued message's turn

        h.subscribe(hear)
        await lab.drive(h.prompt("Answer this."))
        signals = [call.signal for call in model.calls]
        t.expect([queue, stop, lab.shape(h.messages), len(signals),
                  [type(s).__name__ for s in signals], [s is signals[0] for s in signals]],
                 why=f"A {queue} ({later!r}) queued as the run's answer ended, "
                     f"{'and Stop pressed then' if stop else 'no Stop'}: once the signal is set the "
                     "run sends no more requests, whatever opened the turn, and every request that "
                     "does go out carries the run's token as acomplete's fourth argument, a turn "
                     "opened by a follow-up's too; a steer sent after an answer with no calls "
                     "opens a turn as a follow-up does, and its top looks at the flag all the same "
                     "(run_agent, Build item 4 of lab 15.1: \"Once the signal is set, the run "
                     "sends no more requests\"). The items: [what was queued, Stop pressed, "
                     "the record, requests made, each request's signal's type, each is the first "
                     "request's].")


@lab_test("Two steers sent during a batch that is then stopped: the first is recorded at the "
          "next turn's top, before the aborted message, and the next request holds both: the "
          "steer is not lost.")
async def test_a_steer_in_a_stopped_batch_is_kept(t):
    steer, prompt, second = draw_words(t, 3)
    h, model, _, paths, _ = stop_in_a_batch(t, also=lambda h: (h.steer(f"Use {steer} instead."),
                                                               h.steer(f"And skip {second}.")))
    await lab.drive(h.prompt("Look at all of these files."))
    t.expect(lab.shape(h.messages), f"U {batch(len(paths))} U A(aborted)",
             "The loop asks for steering once the batch is answered, as always; the steer "
             "opens the next turn, whose top then sees Stop (run_agent, lessons 9 and 15).")
    t.expect(h.messages[-2]["content"], f"Use {steer} instead.", "The steer is on the record.")
    await lab.drive(h.prompt(f"Go on with {prompt}."))
    sent = model.calls[-1].messages
    t.expect([lab.shape(sent), [m["content"] for m in sent if m["role"] == "user"][1:]],
             why="The next request holds both steers and the prompt: a steer leaves its queue only "
                 "once it is on the record, so stopping a run never loses one, the second steer "
                 "sent before Stop included (Harness, lessons 9 and 15). The items: [the request, "
                 "its user messages after the first prompt].")


@lab_test("Two steers sent while a request is on its way, then Stop: the steers are not "
          "lost; they join the next run.")
async def test_a_steer_during_a_stopped_request_waits(t):
    steer, prompt = draw_words(t, 2)
    latency = t.random.randint(2, 4)
    model = lab.ScriptedModel([lab.say("unused"), lab.say("Both read."), lab.say("Skipped.")],
                              latency=latency)
    h = harness.Harness(model, SYSTEM, [])
    async with lab.background(h.prompt("Summarise the repo.")) as task:
        while not model.calls:
            await lab.tick()
        await lab.ticks(t.random.randrange(latency - 1))
        h.steer(f"Only the {steer} folder.")
        h.steer(f"Not the {prompt} tests.")
        h.cancel()
        await task
    t.expect(lab.shape(h.messages), "U A(aborted)",
             "The model holds the signal and answers aborted; a stopped reply asks for no "
             "steering (run_agent, lesson 15).")
    await lab.drive(h.prompt(f"Try again with {prompt}."))
    t.expect([m["content"] for m in h.messages[2:] if m["role"] == "user"],
             why="A queued steer leaves its queue only once it is on the record, so stopping a "
                 "run never loses one: both steers join the next run, the second one too "
                 "(Harness, lessons 9 and 15). The items: the next run's user messages.")
    t.expect(lab.shape(model.calls[-1].messages),
             why="The next request holds the old prompt, the new one and the steers.")


@lab_test("Stop lands while the model is still answering. The model was given the "
          "signal, so its reply comes back \"aborted\", and no call in it is carried "
          "out; a reply its provider worded its own way is recorded as it came.")
async def test_stop_during_the_request(t):
    ran, name = [], draw_words(t, 1)[0].replace("-", "_")
    tools = [tool(name, lambda arguments: ran.append(1) or "built")]
    latency = t.random.randint(1, 4)
    model = one_call_model(name, {"target": draw_words(t, 1)[0]}, latency=latency)
    h = harness.Harness(model, SYSTEM, tools)
    async with lab.background(h.prompt("Build it.")) as task:
        while not model.calls:
            await lab.tick()
        await lab.ticks(t.random.randrange(latency))
        h.cancel()
        await task
    t.expect(lab.shape(h.messages), "U A(aborted)",
             "The model call must be handed the signal, so the model can answer aborted "
             "(run_agent, lesson 15).")
    t.expect(model.calls[0].signal is not None and model.calls[0].signal.is_cancelled(), True,
             "The request carried the run's token, and it was set by h.cancel().")
    t.expect(ran, [], f"A stopped reply is not acted on: its {name} call never runs (run_agent, "
                      "lesson 15).")
    t.expect(len(model.calls), 1, "And nobody is asked for more.")
    found = []
    for reply in (lab.reply(lab.call(name, {"target": draw_words(t, 1)[0]}, id="c1")),
                  lab.say(f"{draw_words(t, 1)[0]} is built.")):
        # a provider that never reads the signal: Stop lands while it answers, and its reply
        # comes back as usual all the same
        model = lab.ScriptedModel([reply, lab.say("Asked again after Stop.")], latency=2,
                                  hears_stop=False)
        h = harness.Harness(model, SYSTEM, tools)
        async with lab.background(h.prompt("Build it.")) as task:
            while not model.calls:
                await lab.tick()
            h.cancel()
            await task
        found.append([lab.shape(h.messages), ran, len(model.calls),
                      [m["content"] for m in h.messages if m["role"] == "toolResult"]])
    t.expect(found, [["U A[c1] R(c1) A(aborted)", [], 1, [harness.ABORTED]], ["U A", [], 1, []]],
             "Stop was pressed while a provider that never reads the signal was answering, and "
             "its reply came back as usual: first one asking for a call, then a plain answer. A "
             "reply that comes back as usual after Stop is recorded as it came: each call it "
             "asks for is answered Operation aborted without running and the run ends on its "
             "aborted message, and one that asks for nothing ends the run as any answer does "
             "(run_agent, the lab's Build, item 4). Items: [the record, the tools that ran, "
             "requests, the results' contents].")
    worded = {**lab.fail("Request aborted by user", "I will build it", lab.call(name)),
              "stop_reason": "aborted"}  # a provider that words its stopped reply its own way
    model = lab.ScriptedModel([worded, lab.say("More, paid for after a Stop.")])
    h = harness.Harness(model, SYSTEM, tools)
    await lab.drive(h.prompt("Build it again."))
    t.expect([lab.shape(h.messages), ran, len(model.calls), h.messages[-1]["error_message"]],
             ["U A[c1](aborted)", [], 1, "Request aborted by user"],
             "A reply is told by its stop_reason label, not by its error_message's words: one "
             "labelled aborted, whatever its provider wrote in error_message, is not acted on and "
             "asks for nothing more, and is recorded as its provider wrote it (run_agent, lesson "
             "15). The items: [the record, the tools that ran, model calls, its error_message].")
    wording = t.random.choice(["Request aborted by user", "The user cancelled the request",
                               "Stream closed: aborted"])
    empty = {**lab.fail(wording), "stop_reason": "aborted"}  # stopped before a word got out
    model = lab.ScriptedModel([empty, lab.say("The next run's answer.")])
    h = harness.Harness(model, SYSTEM, tools)
    await lab.drive(h.prompt("Build it once more."))
    await lab.drive(h.prompt("Carry on."))
    t.expect([lab.shape(h.messages), h.messages[1], lab.shape(model.calls[-1].messages),
              lab.validate(model.calls[-1].messages)],
             why=f"A provider answered a stopped request with an empty reply labelled aborted, "
                 f"worded {wording!r}; then a new prompt. The reply is recorded as it came, its "
                 "words included (lab 15.1's tests in plain words, Build item 4: \"The aborted "
                 "message stays on the record\"), and the next request leaves it out as it "
                 "leaves out every empty aborted message, whoever worded it: providers refuse "
                 "an empty assistant message (context_for_model, Build item 4 and gap 8). The "
                 "items: [the record, its aborted message, the next request, what lab.validate "
                 "says of it].")


@lab_test("Every execute receives the run's own token as its second argument, "
          "directly or through a guard: is_cancelled() is False until h.cancel(), "
          "True after. With no signal, a tool is handed None as its second argument.")
async def test_tools_are_handed_the_token(t):
    for label, wrap in (("bare", lambda x: x),
                        ("guarded", lambda x: harness.guard(x, lambda name, args: None))):
        seen, box = [], {}
        size = t.random.randint(1, 3)
        presser = t.random.randrange(size)  # the call whose tool presses Stop

        async def execute(arguments, signal=None, seen=seen, box=box, presser=presser):
            before = None if signal is None else signal.is_cancelled()
            if len(seen) == presser:
                box["h"].cancel()
            seen.append([before, None if signal is None else signal.is_cancelled()])
            return "built"

        build = wrap({"name": "build", "description": "Build the project.",
                      "parameters": {"type": "object", "properties": {}}, "execute": execute})
        model = lab.ScriptedModel([lab.reply(*[lab.call("build") for _ in range(size)]),
                                   lab.say("Done.")])
        h = box["h"] = harness.Harness(model, SYSTEM, [build])
        await lab.drive(h.prompt("Build it."))
        t.expect([label, size, presser, seen],
                 [label, size, presser, [[False, False]] * presser + [[False, True]]],
                 "run_tool must hand execute the run's signal: execute(arguments, signal), "
                 "and the guard must pass it on to the tool it wraps (run_tool and guard, "
                 "lesson 15). The items: [how the tool is wrapped, calls in the batch, the call "
                 "whose tool pressed Stop (from 0), for each tool that ran: [is_cancelled() "
                 "on entry, is_cancelled() after that call's Stop, if any]].")
    noted, sizes = [], [t.random.randint(70, 100) for _ in range(3)]  # hundreds of calls a run

    async def note(arguments, signal=None):
        noted.append(signal)
        return "noted"
    model = lab.ScriptedModel([lab.reply(*[lab.call("note") for _ in range(size)]) for size in sizes]
                              + [lab.say("Done.")])
    h = harness.Harness(model, SYSTEM, [{"name": "note", "description": "Note one thing.",
                                         "parameters": {"type": "object", "properties": {}},
                                         "execute": note}])
    await lab.drive(h.prompt("Note it all."))
    token = model.calls[0].signal
    t.expect([sizes, len(noted), [n + 1 for n, signal in enumerate(noted) if signal is not token][:1],
              token is not None and token.is_cancelled()],
             [sizes, sum(sizes), [], False],
             f"A run of three batches, of {' then '.join(map(str, sizes))} calls: every call's "
             "tool is handed the run's own token, the same the requests carry, however many calls "
             "the run has made (run_agent, Build item 4 of lab 15.1: \"Every tool call is handed "
             "the signal too\"). The items: [the batches' sizes, tools run, the first call (from "
             "1) handed anything but the run's token, the token is set].")
    handed = []

    async def execute(arguments, signal):  # no default: run_tool hands the signal on, None too
        handed.append(signal)
        return "built"
    build = {"name": "build", "description": "Build the project.",
             "parameters": {"type": "object", "properties": {}}, "execute": execute}
    call = {"type": "toolCall", "id": f"c{t.random.randint(1, 99)}", "name": "build", "arguments": {}}
    result, messages = await harness.run_tool([build], call), []
    await lab.drive(harness.run_agent(one_call_model(), SYSTEM, messages, [build], "Build it."))
    t.expect([[result["content"], result["is_error"]], lab.shape(messages), messages[2]["content"],
              handed], [["built", False], "U A[c1] R(c1) A", "built", [None, None]],
             "A tool that runs is handed the signal as execute's second argument, None included: "
             "with no signal, run_tool still calls execute(arguments, None), so a tool whose "
             "second parameter has no default runs (run_tool, lesson 15). The items: [run_tool's "
             "result as [content, is_error], the record of run_agent with no signal, its tool's "
             "result, what each execute was handed].")


@lab_test("Stop while bash waits on `sleep inf`, pressed at each of six turns in a row, and "
          "behind a guard at six turns in a row dozens of turns later, and at bash's very first "
          "lap: at most five event-loop turns later the process is dead, the call's result "
          "finishes on a Command cancelled line, and the run is over, aborted. Handed a signal "
          "already set, bash kills its command at its first look, if it started one. Whatever of "
          "a long output comes back above that line keeps to bash's budget. bash kills its own "
          "command and nothing else, even another call's of the same text, started before it "
          "or after it.")
async def test_bash_hears_stop(t):
    progress = f"compiling {t.random.randint(1, 9)}/10"  # a partial line: no newline yet
    first = t.random.randint(8, 30)  # Stop at six turns in a row: every turn a look may fall on
    late = t.random.randint(41, 160)  # and, behind the guard, long after the command began
    for label in ("bare", "guarded"):
        for wait in range(first, first + 6) if label == "bare" else range(late, late + 6):
            shell = lab.Shell(lab.Workspace({}), commands={"progress": lambda args, ws: (progress, 0)})
            bash = harness.make_bash_tool(shell)
            if label == "guarded":
                bash = harness.guard(bash, harness.deny_destructive)
            model = one_call_model("bash", {"command": "progress && sleep inf"})
            h = harness.Harness(model, SYSTEM, [bash])
            async with lab.background(h.prompt("Run it for ever.")) as task:
                await lab.ticks(wait)
                t.expect([label, wait, task.done(), len(shell.running())], [label, wait, False, 1],
                         "While `sleep inf` runs, the run waits for it (bash, lesson 15). The "
                         "items: [how bash is wrapped, turns before Stop, the run is over, "
                         "commands running].")
                h.cancel()
                turns = 0
                while not task.done() and turns < 50:
                    await lab.tick()
                    turns += 1
            t.expect([label, wait, turns <= 5], [label, wait, True],
                     f"Stop pressed {wait} turns into `sleep inf`: bash must look at the signal "
                     "often enough that, wherever Stop "
                     "falls, the run is over within five turns of h.cancel() (bash's poll loop, "
                     "lesson 15). The items: [how bash is wrapped, turns before Stop, over "
                     "within five].")
            t.expect([label, lab.shape(h.messages)], [label, "U A[c1] R(c1) A(aborted)"],
                     "The cancelled command still gets its result, then the run ends aborted.")
            t.expect([label, h.messages[2]["content"].splitlines()[-1:]], [label, ["Command cancelled"]],
                     f"The result ends with the line Command cancelled, a line of its own even "
                     f"when the command had printed a partial line ({progress!r}, no newline) "
                     f"(bash, lesson 15). The items: [how bash is wrapped, the result's last line].")
            t.expect([label, [p.killed for p in shell.processes], shell.running()], [label, [True], []],
                     "However bash's execute is left, the command must not keep running: kill it "
                     "(bash's finally, lesson 15).")
    shell = lab.Shell(lab.Workspace({}))
    h = harness.Harness(one_call_model("bash", {"command": "sleep inf"}), SYSTEM,
                        [harness.make_bash_tool(shell)])
    async with lab.background(h.prompt("Run it for ever.")) as task:
        while not shell.running():
            await lab.tick()
        h.cancel()  # at bash's first lap: the command has just started
        turns = 0
        while not task.done() and turns < 50:
            await lab.tick()
            turns += 1
    t.expect([turns <= 5, lab.shape(h.messages), [p.killed for p in shell.processes]],
             [True, "U A[c1] R(c1) A(aborted)", [True]],
             "Stop pressed as soon as `sleep inf` has started, at bash's first lap: bash looks at "
             "the signal from its first lap on, so no more than five event-loop turns after "
             "h.cancel() the command is dead (bash's poll loop, Build item 5 of lab 15.1: \"no "
             "more than five event-loop turns after `h.cancel()`\"). The items: [over within "
             "five, the record, for each command: killed].")
    shell = lab.Shell(lab.Workspace({}))

    class Preset:  # a frontend's flag, set before bash was called: it notes what runs at each look
        def __init__(self):
            self.looks = []

        def is_cancelled(self):
            self.looks.append(len(shell.running()))
            return True
    flag = Preset()
    waiting = asyncio.ensure_future(harness.make_bash_tool(shell)["execute"](
        {"command": "sleep inf"}, flag))
    for _ in range(10):
        if waiting.done():
            break
        await lab.tick()
    if not waiting.done():
        waiting.cancel()
        while not waiting.done():
            await lab.tick()
    answer = None if waiting.cancelled() else str(waiting.exception() or waiting.result())
    t.expect([answer is not None and answer.splitlines()[-1:] == ["Command cancelled"],
              [running for running in flag.looks[1:] if running], shell.running()],
             [True, [], []],
             "Handed a signal already set, bash may start no command at all or start it and kill "
             "it at its first look: after that first look, no later look finds its command still "
             "running (bash, Build item 5 of lab 15.1: \"start it and kill it at its first look\"). "
             "The items: [the result (or what it raised, as a bash that raises on Stop does) ends "
             "with the line Command cancelled, for each look after the first that found a command "
             "running: how many ran, commands left running].")
    budget, room = t.random.randint(3, 8), t.random.randint(20, 40)  # lines, and bytes
    printed = [f"{word} built" for word in draw_words(t, budget + t.random.randint(3, 6))]
    word, wait = draw_words(t, 1)[0], t.random.randint(2, 6)
    shell = lab.Shell(lab.Workspace({}), commands={"build": lambda args, ws: ("\n".join(printed), 0)})
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "build && sleep inf"})),
                               lab.reply(lab.call("bash", {"command": f"sleep {wait} && echo {word} && false"})),
                               lab.say("Done.")])
    h = harness.Harness(model, SYSTEM, [harness.make_bash_tool(shell, max_lines=budget, max_bytes=room)])
    async with lab.background(h.prompt("Build it, then wait.")) as task:
        await lab.ticks(first)
        h.cancel()
        await task
    above = h.messages[2]["content"].splitlines()[:-1]  # the result, less its Command cancelled
    kept = [line for line in above if line and not line.startswith(("[Showing", "Command exited"))]
    t.expect([len(printed), budget, room, lab.shape(h.messages), len(above) <= budget + 2,
              kept == printed[len(printed) - len(kept):],
              len("\n".join(kept).encode()) <= room],  # as printed: its last line has no newline
             [len(printed), budget, room, "U A[c1] R(c1) A(aborted)", True, True, True],
             f"A command printed {len(printed)} lines, then Stop. Whatever of the output a "
             f"stopped result keeps above its Command cancelled line is cut like any other, to "
             f"the last max_lines={budget} lines or max_bytes={room} bytes, as bash's "
             "description says since lesson 6: the end of the output, within both budgets (bash, "
             "Build item 5 of lab 15.1: \"cut to bash's budget like any output\"). The items: "
             "[lines printed, max_lines, max_bytes, the record, the result keeps to max_lines, "
             "the printed lines it keeps are the last ones, they keep to max_bytes].")
    await lab.drive(h.prompt("Now the other command."))
    t.expect([lab.shape(h.messages), h.messages[-2]["content"], [p.killed for p in shell.processes]],
             why=f"The same bash tool, in the next run: `sleep {wait} && echo {word} && false` is "
                 "waited for and its output comes back as before, its exit line included, since a "
                 "stop in one run never carries into the next, whose tools run as usual: bash "
                 "looks at the signal each call is handed, the run's own, and a call handed a "
                 "clear signal answers as one handed none (bash, Build items 3 and 5 of lab 15.1: "
                 "\"its output comes back as before\"). The items: [the record, the second "
                 "command's result, for each command: killed].")
    cuts = []  # then budgets of lines with bytes to spare: a few lines, then dozens
    for budget, count, ending in ((t.random.randint(3, 8), None, "\n\n"), (t.random.randint(14, 30), -1, "\n")):
        count = budget + t.random.randint(3, 6) if count is None else budget - t.random.randint(1, 3)
        indent = " " * t.random.randint(2, 4) if ending == "\n" else ""  # a tree: indented lines
        steps = [f"{indent}step {n + 1}: {t.random.choice(MODULES)} built" for n in range(count)]
        steps[-1] += " " * t.random.randint(1, 3)  # the last printed line ends in spaces
        text = "\n".join(steps) + ending  # the first: a blank line at its end
        shell = lab.Shell(lab.Workspace({}), commands={"build": lambda args, ws, text=text: (text, 0)})
        h = harness.Harness(one_call_model("bash", {"command": "build && sleep inf"}), SYSTEM,
                            [harness.make_bash_tool(shell, max_lines=budget, max_bytes=4096)])
        async with lab.background(h.prompt("Build it.")) as task:
            await lab.ticks(first)
            h.cancel()
            await task
        above = [line for line in h.messages[2]["content"].splitlines()[:-1]
                 if not line.startswith(("[Showing", "Command exited"))]
        want = text.splitlines()[-budget:]  # what lesson 6's cut keeps of it, as printed
        while above and not above[-1]:  # the blank lines that set off a note or an exit line
            above.pop()
        while want and not want[-1]:
            want.pop()
        cuts.append([count, budget, lab.shape(h.messages), above in ([], want)])
    t.expect(cuts, [[cut[0], cut[1], "U A[c1] R(c1) A(aborted)", True] for cut in cuts],
             "Two commands print lines and then wait, and Stop is pressed: the first prints more "
             "lines than max_lines and ends on a blank line, the second prints fewer, each "
             "indented; the last line each prints ends in spaces. What a stopped result keeps "
             "above its Command cancelled line is nothing, "
             "or what the command printed, cut to bash's budget like any output: lesson 6's cut, "
             "the last max_lines lines, as printed, with their indentation and blank lines, not "
             "a cut of a size of its own nor text stripped first; blank lines at its end may go, "
             "and every other character stays as printed, the spaces ending its last line too "
             "(bash, Build item 5 of lab 15.1: \"blank lines at its end may go, and every other "
             "character stays as printed\"). The items, for each command: [lines printed, "
             "max_lines, the record, what stands above Command cancelled is nothing or that cut].")
    shell, word = lab.Shell(lab.Workspace({})), draw_words(t, 1)[0]
    long = first + t.random.randint(20, 40)  # turns: still running when the first run stops
    bash = harness.make_bash_tool(shell)  # one tool, two harnesses: two calls of it at once
    other = harness.Harness(one_call_model("bash", {"command": f"sleep {long} && echo {word}"}),
                            SYSTEM, [bash])
    h = harness.Harness(one_call_model("bash", {"command": "sleep inf"}), SYSTEM, [bash])
    async with lab.background(other.prompt("Wait, then say it.")) as theirs:
        async with lab.background(h.prompt("Run it for ever.")) as mine:
            await lab.ticks(first)
            h.cancel()
            for _ in range(50):  # over within five turns; fifty before this check gives up
                if mine.done():
                    break
                await lab.tick()
        alive = len(shell.running())
        await theirs
    same = f"sleep {long} && echo {word}"  # then the stopped call starts first, the other the same
    mine_first = harness.Harness(one_call_model("bash", {"command": same}), SYSTEM, [bash])
    second = harness.Harness(one_call_model("bash", {"command": same}), SYSTEM, [bash])
    async with lab.background(mine_first.prompt("Wait, then say it.")) as mine:
        while not shell.running():
            await lab.tick()
        async with lab.background(second.prompt("Wait too, then say it.")) as theirs:
            while len(shell.running()) < 2:
                await lab.tick()
            mine_first.cancel()
            for _ in range(50):
                if mine.done():
                    break
                await lab.tick()
            twin = len(shell.running())
            await theirs
    first_on = harness.Harness(one_call_model("bash", {"command": same}), SYSTEM, [bash])
    mine_later = harness.Harness(one_call_model("bash", {"command": same}), SYSTEM, [bash])
    async with lab.background(first_on.prompt("Wait, then say it.")) as theirs:
        while not shell.running():
            await lab.tick()
        async with lab.background(mine_later.prompt("Wait too, then say it.")) as mine:
            while len(shell.running()) < 2:
                await lab.tick()
            mine_later.cancel()  # the later of two commands of one text: its own, not the older
            for _ in range(50):
                if mine.done():
                    break
                await lab.tick()
            older = len(shell.running())
        await theirs
    t.expect([lab.shape(h.messages), alive, lab.shape(other.messages),
              other.messages[2]["content"].split(), lab.shape(mine_first.messages), twin,
              lab.shape(second.messages), second.messages[2]["content"].split(),
              lab.shape(mine_later.messages), older, lab.shape(first_on.messages),
              first_on.messages[2]["content"].split()],
             ["U A[c1] R(c1) A(aborted)", 1, "U A[c1] R(c1) A", [word],
              "U A[c1] R(c1) A(aborted)", 1, "U A[c1] R(c1) A", [word],
              "U A[c1] R(c1) A(aborted)", 1, "U A[c1] R(c1) A", [word]],
             f"Two harnesses share one shell and one bash tool: one runs `sleep {long} && echo "
             f"{word}`, the other, started after it, `sleep inf`, stopped {first} turns in; then "
             "two more both run that first command, and the one that started first is stopped; "
             "then two more again, and the one that started second is stopped. "
             "bash kills its own command and nothing else: a command another call started, of "
             "the same tool or not, before it or after it, with the same text or not, is not its "
             "to end, neither when a call begins nor on Stop (Build item 5: \"bash kills its "
             "own command and nothing else\"). Items: [the stopped run's record, commands still "
             "running once it ended, the other run's record, the words of its result], then the "
             "same four for the second pair and for the third (bash, lesson 15).")


@lab_test("Stop pressed over three thousand turns into `sleep inf`, at six turns in a row, to six runs "
          "side by side, each with a shell of its own: each run is over within five event-loop "
          "turns of its h.cancel(), its command dead: bash looks at the signal however long its "
          "command has run.")
async def test_bash_hears_a_late_stop(t):
    late = t.random.randint(3100, 3300)  # past any slower look that sets in after thousands of laps
    shells = [lab.Shell(lab.Workspace({})) for _ in range(6)]
    runs = [harness.Harness(one_call_model("bash", {"command": "sleep inf"}), SYSTEM,
                            [harness.make_bash_tool(shell)]) for shell in shells]
    tasks = [asyncio.ensure_future(lab.drive(h.prompt("Run it for ever."))) for h in runs]
    try:
        await lab.ticks(late)
        waiting = [task.done() for task in tasks]
        over = {}  # run: the turn, counted from the first Stop, at which it was seen over
        for turn in range(60):
            over.update({n: turn for n, task in enumerate(tasks) if task.done() and n not in over})
            if turn < 6:
                runs[turn].cancel()  # run n is stopped n turns after the first: every lap's turn
            elif len(over) == 6:
                break
            await lab.tick()
    finally:
        for task in tasks:
            task.cancel()
        while not all(task.done() for task in tasks):
            await lab.tick()
    t.expect([late, waiting, [[n, n in over and over[n] - n <= 5] for n in range(6)],
              [lab.shape(h.messages) for h in runs],
              [[p.killed for p in shell.processes] + shell.running() for shell in shells]],
             [late, [False] * 6, [[n, True] for n in range(6)], ["U A[c1] R(c1) A(aborted)"] * 6,
              [[True]] * 6],
             f"Six runs wait on `sleep inf` for {late} turns, then Stop is pressed to run n at "
             f"turn {late} + n, so that some Stop falls on each turn between two of bash's looks: "
             "bash must hear Stop while its command runs, within five event-loop turns of "
             "h.cancel(), however long the command has already run, not only in its first "
             "thousands of laps (bash's poll loop, Build item 5 of lab 15.1: \"no more than five "
             "event-loop turns after `h.cancel()`, the command is dead\"). The items: [turns "
             "before the first Stop, each run over before Stop, for each run: [run, over within "
             "five turns of its Stop], each run's record, for each shell: its command killed, "
             "then the commands still running].")


@lab_test("A run cancelled as a task while bash waits on `sleep inf`, with no Stop pressed "
          "first: the task ends cancelled and the command is dead all the same. Behind a guard, "
          "just the same; and bash called with no signal, closed unfinished, kills it too, as "
          "it does when a PowerCut or a KeyboardInterrupt is raised at its await.")
async def test_bash_kills_its_command_on_a_hard_cancel(t):
    for label in ("bare", "guarded"):
        shell = lab.Shell(lab.Workspace({}))
        theirs = f"sleep {t.random.randint(300, 900)}"  # another harness's, on the same shell
        shell.start(theirs)
        bash = harness.make_bash_tool(shell)
        if label == "guarded":
            bash = harness.guard(bash, harness.deny_destructive)
        h = harness.Harness(one_call_model("bash", {"command": "sleep inf"}), SYSTEM, [bash])
        async with lab.background(h.prompt("Run it for ever.")) as task:
            await lab.ticks(20)
            t.expect([label, task.done(), [p.command for p in shell.running()]],
                     [label, False, [theirs, "sleep inf"]],
                     f"While `sleep inf` runs, the run waits for it, and `{theirs}`, which "
                     "another harness started on the same shell, runs too (bash, lesson 15). "
                     "The items: [how bash is wrapped, the run is over, commands running].")
            task.cancel()  # a hard cancel: no flag was set, so no branch of the poll loop sees it
            turns = 0
            while not task.done() and turns < 50:
                await lab.tick()
                turns += 1
        t.expect([label, task.cancelled(), [[p.command, p.killed] for p in shell.processes],
                  [p.command for p in shell.running()]],
                 [label, True, [[theirs, False], ["sleep inf", True]], [theirs]],
                 "However bash's execute is left, the command must not keep running. A hard "
                 "cancel comes out of the poll loop's `await asyncio.sleep(0)`, a way out that "
                 "never sees the flag, so a kill only on the branch that saw the flag leaves "
                 "`sleep inf` running: kill it in a finally around the loop (bash, lesson 15). "
                 f"And only it: `{theirs}`, another harness's command on the same shell, is not "
                 "bash's to end, on this way out as on Stop (Build item 5: \"bash kills its own "
                 "command and nothing else\"). The items: [how bash is wrapped, the task ended "
                 "cancelled, for each command: [command, killed], commands still running].")
    for given in ("a token", "no signal"):  # no signal: how every earlier caller calls bash
        shell = lab.Shell(lab.Workspace({}))
        execute = harness.make_bash_tool(shell)["execute"]
        running = (execute({"command": "sleep inf"}, harness.CancelToken()) if given == "a token"
                   else execute({"command": "sleep inf"}))
        for _ in range(t.random.randint(1, 20)):
            running.send(None)  # one lap of bash's wait at a time
        running.close()  # dropped unfinished: Python ends it with GeneratorExit, not CancelledError
        t.expect([given, [[p.command, p.killed] for p in shell.processes]],
                 [given, [["sleep inf", True]]],
                 "However bash's execute is left, the command must not keep running, with a "
                 "signal or without one: closed unfinished, as Python closes a coroutine nobody "
                 "will finish, it leaves by GeneratorExit, which an `except "
                 "asyncio.CancelledError` never sees; a finally does (bash, lesson 15). The "
                 "items: [what execute was handed, for each command: [command, killed]].")
    for given in ("a token", "no signal"):
        shell = lab.Shell(lab.Workspace({}))
        execute = harness.make_bash_tool(shell)["execute"]
        running = (execute({"command": "sleep inf"}, harness.CancelToken()) if given == "a token"
                   else execute({"command": "sleep inf"}))
        for _ in range(t.random.randint(1, 20)):
            running.send(None)
        death = t.random.choice([lab.PowerCut, KeyboardInterrupt])  # neither is an Exception
        try:
            running.throw(death("the machine is going away"))  # raised at bash's await
        except BaseException:  # what bash lets out is not judged here: only what it leaves running
            pass
        t.expect([given, death.__name__, [[p.command, p.killed] for p in shell.processes]],
                 [given, death.__name__, [["sleep inf", True]]],
                 "However bash's execute is left, the command must not keep running: here a "
                 "BaseException that is no CancelledError and no GeneratorExit (lab.PowerCut, "
                 "which lesson 4 gave you, or KeyboardInterrupt) is raised at bash's await while "
                 "its command runs, a way out an `except` naming only those two never sees; a "
                 "finally does (bash, Build item 5 of lab 15.1: \"However bash's `execute` is left "
                 "... the command is not left running\"). The items: [what execute was handed, "
                 "what was raised at its await, for each command: [command, killed]].")


@lab_test("bash waits out a command that needs some turns before it prints, a few, hundreds or "
          "over nine thousand, while the clock says hours, days or millennia go by, and hands back "
          "its output as a normal result: bash has no timeout of its own.")
async def test_bash_waits_for_a_slow_command(t):
    # a command of a few turns, one of hundreds and one of over nine thousand: bash has no
    # timeout of its own. Together they stay inside the checker's budget of 10,000 turns a test.
    for turns in (t.random.randint(1, 6), t.random.randint(120, 300), t.random.randint(9200, 9500)):
        shell, word = lab.Shell(lab.Workspace({})), draw_words(t, 1)[0]
        command = f"sleep {turns} && echo {word}"
        h = harness.Harness(one_call_model("bash", {"command": command}), SYSTEM,
                            [harness.make_bash_tool(shell)])
        # the commands of hundreds and of thousands of turns run while every reading of the
        # clock is a minute on, then a century on: days, then hundreds of thousands of years,
        # for a bash that reads it at every lap
        clocked = (contextlib.nullcontext() if turns < 120 else hours_pass() if turns < 9000
                   else hours_pass(minutes=100 * 365 * 24 * 60))  # a century a reading
        with clocked:
            await lab.drive(h.prompt("Wait for it."))
        t.expect(lab.shape(h.messages), "U A[c1] R(c1) A", "The run goes on after the command.")
        t.expect([h.messages[2]["content"], h.messages[2]["is_error"]], [f"{word}\n", False],
                 f"bash must wait until `{command}` is done, {turns} turns later, however many "
                 "that is and however long the clock says it took (the command of hundreds of "
                 "turns runs while each reading of the clock is a minute after the last, the one "
                 "of thousands while each is a century after it, so a bash that reads it at every "
                 "lap sees days, then hundreds of thousands of years go by), then "
                 "return its output: bash has no timeout of its own, and only Stop ends a "
                 "command early (bash, lesson 15).")
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


def planned(rounds):
    """A model for one run whose turn i asks for rounds[i] reads (of "f1.py", "f2.py", ...) and
    whose next turn answers; every later prompt gets "Noted.". Numbering follows the record, so
    a request the run never makes uses up nothing."""
    def answer(request):
        users = [i for i, m in enumerate(request.messages) if m["role"] == "user"]
        if len(users) > 1 or request.messages[0]["content"] != "Read the files.":
            return lab.say("Noted.")
        turn = sum(m["role"] == "assistant" for m in request.messages)
        if turn == len(rounds):
            return lab.say("All read.")
        return lab.reply(*[lab.call("look", {"path": f"f{n + 1}.py"}) for n in range(rounds[turn])])
    return lab.ScriptedModel([lab.forever(answer)])


def where_stop_lands(rounds):
    """The places a run of `planned(rounds)` looks at its signal, in the order of its events:
    for each k (Stop pressed after the k-th event; 0 is before the first step), the first look
    that follows, as ("top", turn), ("tool", turn, index in its batch) or None (no look is left)."""
    looks, seen = [], 0
    timeline = [("event",)]  # agent_start
    for turn, calls in enumerate(list(rounds) + [0], 1):
        timeline += [("event",)] * (2 if turn == 1 else 1) + [("top", turn), ("event",)]
        for index in range(calls):
            timeline += [("event",), ("tool", turn, index), ("event",), ("event",)]
        timeline += [("event",)]
    timeline += [("event",)]  # agent_end
    pending = []
    for step in [("event",)] + timeline:  # the leading entry stands for "before the first step"
        if step[0] == "event":
            pending.append(seen)
            seen += 1
        else:
            looks += [(k, step) for k in pending]
            pending = []
    looks += [(k, None) for k in pending]
    return looks


def stopped_record(rounds, look):
    """What a run of `planned(rounds)` leaves when Stop is first seen at `look` (see
    where_stop_lands): [record shape, requests made, tools run, each result "r" (ran) or "a"
    (answered Operation aborted)]."""
    parts, numbered, requests, ran, marks = ["U"], 0, 0, 0, ""
    for turn, calls in enumerate(list(rounds) + [0], 1):
        if look == ("top", turn):
            return [" ".join(parts + ["A(aborted)"]), requests, ran, marks]
        requests += 1
        if not calls:
            return [" ".join(parts + ["A"]), requests, ran, marks]
        ids = [f"c{numbered + n + 1}" for n in range(calls)]
        numbered += calls
        parts.append(f"A[{','.join(ids)}]")
        cut = look[2] if look and look[:2] == ("tool", turn) else calls
        ran += cut
        marks += "r" * cut + "a" * (calls - cut)
        parts += [f"R({i})" for i in ids]
        if cut < calls:
            return [" ".join(parts + ["A(aborted)"]), requests, ran, marks]


def press_stop_after(h, k):
    """An on_event for lab.drive: the frontend presses Stop (h.cancel()) right after the k-th
    event, and never again."""
    seen = []

    def on_event(event):
        seen.append(event)
        if len(seen) == k:
            h.cancel()
    return on_event


@lab_test("Stop pressed by the frontend after each event of a run, in turn, from before its first "
          "step to after agent_end, over runs of one or two turns of one to three calls and an answer: the next "
          "look at the flag (the top of a turn, or run_tool before a call) ends the run there, every "
          "call still gets one result, no request is made after Stop, and the next prompt is "
          "answered as usual.")
async def test_stop_after_every_event(t):
    rounds = [t.random.randint(1, 3) for _ in range(t.random.randint(1, 2))]
    rows, looks = [], where_stop_lands(rounds)
    for k, _ in looks:
        read = []
        model = planned(rounds)
        h = harness.Harness(model, SYSTEM, [tool("look", lambda a: read.append(1) or "text", PATH)])
        run = h.prompt("Read the files.")
        if k == 0:
            h.cancel()
        await lab.drive(run, on_event=press_stop_after(h, k))
        marks = "".join("a" if [m["content"], m["is_error"]] == [harness.ABORTED, True] else "r"
                        for m in h.messages if m["role"] == "toolResult")
        stopped = [lab.shape(h.messages), len(model.calls), len(read), marks]
        before = len(h.messages)
        await lab.drive(h.prompt("And now?"))
        rows.append([k] + stopped + [lab.shape(h.messages[before:]),
                                     lab.validate(model.calls[-1].messages)])
    t.expect(rows, [[k] + stopped_record(rounds, look) + ["U A", []] for k, look in looks],
             f"A run whose turns ask for {rounds} calls and then answer, with Stop pressed after "
             "its k-th event: the flag is read at the top of each turn (no request after Stop) and "
             "by run_tool before each call (that call and the rest of its batch are answered "
             "Operation aborted, is_error True), and a stopped run ends on one aborted message; "
             "a Stop after the answer changes nothing, and each run gets a fresh token, so the next "
             "prompt is answered (run_agent, run_tool and Harness, lesson 15). Each row: [k, the "
             "record, requests made, tools run, each result r (ran) or a (aborted), what the next "
             "prompt added, what lab.validate says of its request].")


FAILURES = (ValueError, KeyError, RuntimeError, FileNotFoundError, PermissionError)
KINDS = ("listens", "deaf", "fails", "unknown")


def slow_tool(name, kind, turns, started, failure=ValueError):
    """A tool that takes `turns` turns of the event loop. "listens" reads its signal on each of
    them and returns "stopped early" once it is set; "deaf" never reads it and returns its
    output; "fails" never reads it and raises failure("cannot read <path>")."""
    async def execute(arguments, signal=None):
        started.append(arguments["path"])
        for _ in range(turns):
            await asyncio.sleep(0)
            if kind == "listens" and signal is not None and signal.is_cancelled():
                return "stopped early"
        if kind == "fails":
            raise failure(f"cannot read {arguments['path']}")
        return f"text of {arguments['path']}"
    return {"name": name, "description": f"A {kind} tool.", "parameters": PATH, "execute": execute}


def answered(kind, path, failure, when):
    """What run_tool answers for a call of this kind, `when` it comes: "before" Stop, "during"
    (its tool was running when Stop was pressed) or "after" (the rest of the batch)."""
    if when == "after":
        return ["refused" if kind == "unknown" else harness.ABORTED, True]
    if kind == "unknown":
        return [f"Tool {kind}_{path} not found", True]
    if kind == "fails":
        return [str(failure(f"cannot read {path}")), True]
    if kind == "listens" and when == "during":
        return ["stopped early", False]
    return [f"text of {path}", False]


@lab_test("Stop pressed while the j-th tool of a batch of one to six is running, one to three "
          "times, with the batch's tools drawn from ones that listen, ones that ignore the flag, "
          "ones that fail and names no tool has: each call is answered once, those before by "
          "their tool (or as not found, or failed), the running one by its tool, the rest "
          "Operation aborted; then the run ends aborted and the next prompt is answered.")
async def test_stop_during_a_tool_of_a_batch(t):
    rows, wanted = [], []
    for running in ("listens", "deaf", "fails", t.random.choice(("listens", "deaf", "fails"))):
        before = ["unknown", "fails"][:t.random.randint(0, 2)]
        before += [t.random.choice(KINDS) for _ in range(t.random.randint(0, 1))]
        t.random.shuffle(before)
        kinds = before + [running] + [t.random.choice(KINDS) for _ in range(t.random.randint(0, 2))]
        size, j = len(kinds), len(before)
        failures = [t.random.choice(FAILURES) for _ in range(size)]
        paths = [f"m{n + 1}.py" for n in range(size)]
        presses = t.random.randint(1, 3)
        started, tools = [], []
        for n, (kind, path, failure) in enumerate(zip(kinds, paths, failures)):
            turns = t.random.randint(presses + 3, presses + 5) if n == j else t.random.randint(1, 4)
            if kind != "unknown":  # the j-th runs on through every press
                tools.append(slow_tool(f"{kind}_{path}", kind, turns, started, failure))
        calls = [lab.call(f"{kind}_{path}", {"path": path}) for kind, path in zip(kinds, paths)]
        model = lab.ScriptedModel([lab.reply(*calls), lab.say("Noted.")])
        h = harness.Harness(model, SYSTEM, tools)
        async with lab.background(h.prompt("Read every module.")) as task:
            while paths[j] not in started:
                await lab.tick()
            for press in range(presses):
                h.cancel()  # pressed again while the first press is still being waited on
                await lab.tick()
            await task
        results = [m for m in h.messages if m["role"] == "toolResult"]
        found = []
        for n, result in enumerate(results):
            content = result["content"]
            if n > j and kinds[n] == "unknown" and content in (harness.ABORTED,
                                                               f"Tool {calls[n]['name']} not found"):
                content = "refused"  # the lesson allows either answer for a name no tool has
            found.append([content, result["is_error"]])
        await lab.drive(h.prompt("What did you find?"))
        rows.append([kinds, j, presses, lab.shape(h.messages), len(model.calls), found,
                     lab.validate(model.calls[-1].messages)])
        wanted.append([kinds, j, presses, failures])
    ids = lambda size: ",".join(f"c{n + 1}" for n in range(size))
    t.expect(rows, [[kinds, j, presses,
                     f"U A[{ids(len(kinds))}] "
                     + " ".join(f"R(c{n + 1})" for n in range(len(kinds))) + " A(aborted) U A",
                     2,
                     [answered(kind, f"m{n + 1}.py", failure, "before" if n < j else
                               "during" if n == j else "after")
                      for n, (kind, failure) in enumerate(zip(kinds, failures))],
                     []] for kinds, j, presses, failures in wanted],
             "Stop pressed while call j's tool runs: the calls before j were answered by their "
             "tools (a name no tool has gets \"Tool ... not found\", a tool that raises gets "
             "str(exc), both is_error True), call j's tool finishes and its answer is kept (a tool "
             "that ignores the flag runs on; one that listens stops early), every later call is "
             "answered Operation aborted with is_error True (or, for a name no tool has, not found), "
             "and the next turn's top ends the run without a request. Pressing Stop twice is the "
             "same as once, and the next prompt is answered (run_tool, run_agent and Harness, "
             "lessons 4 and 15). Each row: [the kinds of the batch's tools, j (from 0), presses, "
             "the record after the next prompt, requests, each result as [content, is_error], "
             "what lab.validate says of the last request].")


class Builds:
    """A provider that answers every request with a call of build, as a lab.ScriptedModel of
    lab.forever would, and counts the requests without keeping them, so that a run of eighty
    turns stays cheap; it keeps only the signal each request carried."""

    def __init__(self):
        self.requests, self.signals = 0, []

    async def acomplete(self, system, messages, tools=(), signal=None):
        self.requests += 1
        self.signals.append(signal)
        await lab.tick()
        return lab.reply(lab.call("build", {}, id=f"c{self.requests}"))


@lab_test("Under max_turns = m, from 0 to 4, a Stop pressed from inside the tool of turn s, for "
          "every s from 1 to m, and a Stop pressed before the first step; then under one m from 5 "
          "to 12 and one from 60 to 80, a Stop in turn m - 1 and in turn m: when the next turn's "
          "top is past max_turns, the max_turns ending wins; otherwise the run ends aborted, and no "
          "request is made after either; every request made, the sixtieth and later too, carries "
          "the run's signal.")
async def test_max_turns_keeps_precedence(t):
    rows, cases = [], []
    caps = sorted(t.random.sample(range(5), 3)) + [t.random.randint(5, 12),
                                                   t.random.randint(60, 80)]
    for cap in caps:
        for stop in [None, 0] + list(range(1, cap + 1)) if cap < 5 else [cap - 1, cap]:
            token, ran = harness.CancelToken(), []

            def build(arguments, ran=ran, token=token, stop=stop):
                ran.append(1)
                if len(ran) == stop:
                    token.cancel()
                return "built"
            model = Builds()
            messages = []
            if stop == 0:
                token.cancel()
            await lab.drive(harness.run_agent(model, SYSTEM, messages, [tool("build", build)],
                                              "Build it again and again.", max_turns=cap,
                                              signal=token))
            last = messages[-1]
            rows.append([cap, stop, last["stop_reason"], last.get("error_message"),
                         model.requests, len(ran), sum(s is not token for s in model.signals)])
            cases.append([cap, stop])
    t.expect(rows, [[cap, stop] + (["error", f"Agent stopped after max_turns={cap}"]
                                   if stop is None or stop == cap else ["aborted", "Operation aborted"])
                    + [cap if stop is None else stop] * 2 + [0] for cap, stop in cases],
             "The top of a turn looks at max_turns first and at the signal second: a turn past "
             "max_turns ends the run with \"Agent stopped after max_turns=m\" even when Stop was "
             "pressed too, however large m is, and a Stop seen at any earlier top ends it aborted, "
             "however many turns the run has taken; neither asks the model, so no request is made "
             "after Stop (run_agent, Build item 4 of lab 15.1: \"a run already past `max_turns` "
             "still ends the `max_turns` way\"; lessons 5 and 15); and every request that does go "
             "out carries the signal, however late in the run (Build item 4: \"Every request that "
             "does go out carries the signal, as `acomplete`'s fourth argument\"). Each row: "
             "[max_turns, the turn whose tool pressed Stop (0: before the first step, None: never), "
             "the last message's stop_reason, its error_message, requests made, tools run, "
             "requests that carried anything but the run's token].")


ENDINGS = ("an answer", "a provider failure", "a failure after words and a call", "a Stop")


def ending_reply(ending, number):
    """Run `number`'s one reply for each way it may end (a Stop is the model's aborted reply)."""
    if ending == "an answer":
        return lab.say(f"Answer {number}.")
    if ending == "a provider failure":
        return lab.fail("overloaded")
    return lab.fail("connection reset", "I will build", lab.call("build"))


@lab_test("Four to six runs in one session, each ending in an answer, a provider failure, a failure "
          "that got words and a call out, or a Stop during the request, some with a steer sent "
          "while it waited: a failed or stopped reply is not acted on and asks for no steering, so "
          "the steer opens the next run; and each request leaves out every empty failed or "
          "aborted reply while the record keeps them all.")
async def test_failed_and_stopped_replies_end_alike(t):
    endings = list(ENDINGS) + [t.random.choice(ENDINGS) for _ in range(t.random.randint(0, 2))]
    t.random.shuffle(endings)  # every ending at least once, in a drawn order
    plan = [(ending, t.random.random() < 0.5) for ending in endings]
    plan = [(ending, steer and ending != "an answer") for ending, steer in plan]
    box, built = {}, []

    def answer(request):
        number = len(box["model"].calls)
        if number > len(plan):
            return lab.say("Last answer.")
        ending, steer = plan[number - 1]
        if steer:
            box["h"].steer(f"Steer {number}.")
        return ending_reply(ending, number)
    model = box["model"] = lab.ScriptedModel([lab.forever(answer)], latency=2)
    h = box["h"] = harness.Harness(model, SYSTEM, [tool("build", lambda a: built.append(1) or "built")])
    for number, (ending, steer) in enumerate(plan, 1):
        async with lab.background(h.prompt(f"Prompt {number}.")) as task:
            while len(model.calls) < number:
                await lab.tick()
            if ending == "a Stop":
                if steer:
                    h.steer(f"Steer {number}.")
                h.cancel()
            await task
    await lab.drive(h.prompt("Last prompt."))
    found = [lab.shape(h.messages), lab.shape(model.calls[-1].messages),
             lab.validate(model.calls[-1].messages), len(built), len(model.calls)]
    record, view, calls, steered = [], [], 0, False
    for number, (ending, steer) in enumerate(plan + [("an answer", False)], 1):
        opening = ["U", "U"] if steered else ["U"]
        record += opening
        view += opening
        if ending == "an answer":
            record.append("A")
            view.append("A")
        elif ending == "a failure after words and a call":
            calls += 1
            record.append(f"A[c{calls}](error)")
            view += [f"A[c{calls}](error)", f"R(c{calls})"]
        else:
            record.append("A(aborted)" if ending == "a Stop" else "A(error)")
        steered = steer
    t.expect(found, [" ".join(record), " ".join(view[:-1]), [], 0, len(plan) + 1],
             f"Runs ending {[ending for ending, _ in plan]}, with a steer sent during runs "
             f"{[n for n, (_, steer) in enumerate(plan, 1) if steer]}: a reply labelled \"error\" "
             "or \"aborted\" ends its run as it stands, its calls never run and nobody is asked for "
             "steering, so a steer waits for the next run's first turn; each request leaves out "
             "the empty error and aborted replies (a failed reply that got words out stays, its "
             "call shown interrupted), and the record keeps every one (run_agent and "
             "context_for_model, lessons 5, 9, 10 and 15). The items: [the record, the last "
             "request, what lab.validate says of it, tools run, requests made].")


@lab_test("Stop pressed while the model is still answering request r, after zero to two of its turns "
          "of latency, for r from 1 to 4 (each earlier request asking for one call): the model "
          "holds the run's token, its reply comes back aborted, nothing in it is carried out, no "
          "request follows, and the next prompt is answered.")
async def test_stop_during_any_request(t):
    rows, cases = [], []
    for asked in range(1, 5):
        latency = t.random.randint(1, 3)
        waited = t.random.randint(0, latency - 1)
        built = []
        replies = [lab.reply(lab.call("build")) for _ in range(asked)] + [lab.say("Noted.")]
        model = lab.ScriptedModel(replies, latency=latency)
        h = harness.Harness(model, SYSTEM, [tool("build", lambda a, built=built: built.append(1) or "built")])
        async with lab.background(h.prompt("Build it.")) as task:
            while len(model.calls) < asked:
                await lab.tick()
            await lab.ticks(waited)
            h.cancel()
            await task
        shape = lab.shape(h.messages)
        await lab.drive(h.prompt("And now?"))
        rows.append([asked, shape, len(built), len(model.calls), lab.shape(h.messages[-2:])])
        cases.append(asked)
    t.expect(rows, [[asked, " ".join(["U"] + [f"A[c{n}] R(c{n})" for n in range(1, asked)]
                                      + ["A(aborted)"]), asked - 1, asked + 1, "U A"]
                    for asked in cases],
             "A Stop that lands during request r reaches the model through the signal handed to "
             "acomplete, so request r comes back aborted; an aborted reply is not acted on, and the "
             "run ends without another request, while the calls of the earlier turns keep their "
             "results; the next prompt is answered (run_agent, lesson 15). Each row: [r, the "
             "stopped run's record, tools run, requests made including the next prompt's, what the "
             "next prompt added].")
