"""Lesson 15, lab 1: the grading bank. Private: never released, as solutions/ is not.

Scenarios written per rule of source/lessons/15-stop/rules.toml (lab 15.1's items of the Build
list), two to four a rule, each watching a Stop through another door than the public tests.py
does: a listener of the harness instead of the record, the request's own signal, a run driven
by a task, run_tool called bare, a renderer's printed line, a view built from a record by hand.
"""
import asyncio
import json

import harness
import lab
from lab.kit import everything_said, hours_pass, lab_test, raised, tool

LAB = "15.1"
SYSTEM = "You are a careful assistant for a small repository."
FILE = {"type": "object", "properties": {"file": {"type": "string"}}, "required": ["file"]}
WORDS = ("alpha", "beacon", "cobalt", "delta", "ember", "fjord", "garnet", "harbor", "indigo",
         "juniper", "kestrel", "lumen", "marble", "nectar")


def label(t):
    """A drawn word with a number, to carry through a scenario (a file, a reason, an output)."""
    return f"{t.random.choice(WORDS)}{t.random.randint(100, 9999)}"


def listen(h):
    """Every event of every run of `h`, as a subscriber hears it, in one list."""
    heard = []
    h.subscribe(heard.append)
    return heard


def quietly(t, fn):
    """What calling fn said beside what it returned: printed on stdout or stderr, logged, or
    warned, each warning every time it is given (everything_said)."""
    with everything_said() as said:
        fn()
    return said.getvalue()


def ended(heard):
    """The message of the last message_end a listener heard."""
    return [e["message"] for e in heard if e["type"] == "message_end"][-1]


def one_tool_then_answer(name="probe", arguments=None, *, latency=1):
    """A model that, in every run, asks for one call of `name` and then answers "Finished."."""
    def answer(request):
        if request.messages[-1]["role"] == "toolResult":
            return lab.say("Finished.")
        return lab.reply(lab.call(name, arguments or {"file": "notes.txt"}))
    return lab.ScriptedModel([lab.forever(answer)], latency=latency)


async def after_a_deaf_provider(t, with_call):
    """[the calls asked for, the record, the tools run, requests, the results' contents] for a
    run whose one reply, a batch of two hundred and ten to two hundred and sixty calls of probe or a plain answer, came back
    as usual after Stop."""
    ran, said = [], f"{label(t)} is read."
    size = t.random.randint(210, 260) if with_call else 0  # past any cap of two hundred calls
    reply = lab.reply(*[lab.call("probe", {"file": f"{label(t)}.txt"}, id=f"c{n}")
                        for n in range(1, size + 1)]) if with_call else lab.say(said)
    model = lab.ScriptedModel([reply, lab.say("Asked again after Stop.")], latency=2,
                              hears_stop=False)
    h = harness.Harness(model, SYSTEM, [tool("probe", lambda a, ran=ran: ran.append(a) or "seen",
                                             FILE)])
    async with lab.background(h.prompt(f"Read {label(t)}.")) as task:
        while not model.calls:
            await lab.tick()
        h.cancel()  # Stop, while the request is out
        await task
    return [size, lab.shape(h.messages), ran, len(model.calls),
            [m["content"] for m in h.messages if m["role"] == "toolResult"]]


def deaf_wanted(size):
    """What after_a_deaf_provider finds when the harness is right: every call of the batch
    answered Operation aborted without running, then the aborted ending; a plain answer kept."""
    if not size:
        return [0, "U A", [], 1, []]
    return [size, " ".join([f"U A[{','.join(f'c{n}' for n in range(1, size + 1))}]"]
                           + [f"R(c{n})" for n in range(1, size + 1)] + ["A(aborted)"]),
            [], 1, [harness.ABORTED] * size]


CUT_RULE = ("What a stopped result keeps above its Command cancelled line is nothing, or what the "
            "command printed, cut like any output: lesson 6's last max_lines lines, as printed, "
            "indentation and blank lines kept, not stripped first nor cut to a size of bash's "
            "own; blank lines at its end may go, and every other character stays as printed, "
            "the spaces that end its last line too (bash, lesson 15). Items: [for each command: bare or guarded, max_lines, lines "
            "printed, what stands above Command cancelled is nothing or that cut].")


async def stopped_cuts(t, wrapped):
    """[wrapped, max_lines, lines printed, what a stopped result keeps is nothing or lesson 6's
    cut as printed] for two commands run by run_tool on bash (bare or behind a guard) whose
    token is set while they wait: one printing more lines than a budget of three to six, the
    last of them blank, one fewer than a budget of a dozen or more; every line indented, the
    last one printed ending in spaces."""
    cuts = []  # budgets of lines with bytes to spare
    for most in (t.random.randint(3, 6), t.random.randint(12, 20)):
        count = most + t.random.randint(2, 5) if most < 10 else most - 1
        pad, tail = " " * t.random.randint(1, 4), " " * t.random.randint(1, 3)
        text = "".join(f"{pad}{label(t)} ok{tail if n == count - 1 else ''}\n" for n in range(count)) \
            + ("\n" if most < 10 else "")  # the last line printed ends in spaces
        bash = harness.make_bash_tool(lab.Shell(lab.Workspace({"out.txt": text})), max_lines=most,
                                      max_bytes=4096)
        if wrapped == "guarded":
            bash = harness.guard(bash, lambda name, arguments: None)
        flag = harness.CancelToken()
        stopped = asyncio.ensure_future(harness.run_tool(
            [bash], {"type": "toolCall", "id": "c6", "name": "bash",
                     "arguments": {"command": "cat out.txt && sleep inf"}}, flag))
        await lab.ticks(t.random.randint(3, 9))
        flag.cancel()
        for _ in range(40):
            if stopped.done():
                break
            await lab.tick()
        if not stopped.done():  # a bash that never looks: end its wait here
            stopped.cancel()
            while not stopped.done():
                await lab.tick()
        lines = [] if stopped.cancelled() else stopped.result()["content"].splitlines()
        above = [line for line in lines[:-1] if not line.startswith(("[Showing", "Command exited"))]
        want = text.splitlines()[-most:]
        while above and not above[-1]:  # the blank lines that set off a note or an exit line
            above.pop()
        while want and not want[-1]:
            want.pop()
        cuts.append([wrapped, most, count, above in ([], want)])
    return cuts


async def six_late_stops(t, ticks):
    """Six run_tool calls of bash on `sleep inf`, side by side, each with a shell and a token of
    its own; `ticks` turns in, token n is set n turns after the first: for each, [n, over within
    five turns of its Stop, its command killed]."""
    tokens = [harness.CancelToken() for _ in range(6)]
    shells = [lab.Shell(lab.Workspace({})) for _ in range(6)]
    tasks = [asyncio.ensure_future(harness.run_tool(
        [harness.make_bash_tool(shell)], {"type": "toolCall", "id": f"c{n + 20}", "name": "bash",
                                          "arguments": {"command": "sleep inf"}}, token))
             for n, (shell, token) in enumerate(zip(shells, tokens))]
    over = {}
    try:
        await lab.ticks(ticks)
        for turn in range(60):
            over.update({n: turn for n, task in enumerate(tasks) if task.done() and n not in over})
            if turn < 6:
                tokens[turn].cancel()
            elif len(over) == 6:
                break
            await lab.tick()
    finally:
        for task in tasks:
            task.cancel()
        while not all(task.done() for task in tasks):
            await lab.tick()
    return [[n, n in over and over[n] - n <= 5, [p.killed for p in shell.processes]]
            for n, shell in enumerate(shells)]


async def watched_stop(t, late):
    """bash on `sleep inf` handed a frontend's flag that notes the event loop's turn at each
    read; the flag is set `late` turns in: [late, no two reads more than five turns apart, over
    within five turns of the flag's setting, its command killed]. A look less often than every
    fifth turn lets some Stop go unheard for longer than five, wherever it falls."""
    loop = asyncio.get_running_loop()

    class Watched:
        def __init__(self):
            self.reads, self.raised = [], False

        def is_cancelled(self):
            self.reads.append(loop.turns)
            return self.raised
    flag, shell = Watched(), lab.Shell(lab.Workspace({}))
    task = asyncio.ensure_future(harness.make_bash_tool(shell)["execute"]({"command": "sleep inf"},
                                                                           flag))
    try:
        await lab.ticks(late)
        flag.raised, turns = True, 0
        while not task.done() and turns < 40:
            await lab.tick()
            turns += 1
    finally:
        task.cancel()
        while not task.done():
            await lab.tick()
    if not task.cancelled():
        task.exception()  # a bash that raises on Stop is allowed: looked at, not judged here
    gaps = [b - a for a, b in zip(flag.reads, flag.reads[1:])]
    return [late, max(gaps, default=0) <= 5, turns <= 5, [p.killed for p in shell.processes]]


# -- rule 1: ABORTED and error_message's label --------------------------------------------


@lab_test("A listener presses Stop the moment it hears agent_start, and another harness runs "
          "into its max_turns: the last message each listener hears announced is the whole "
          "ending, labelled \"aborted\" with Operation aborted for the Stop, and \"error\" "
          "with the max_turns reason for the other.")
async def test_the_ending_a_listener_hears_carries_its_label(t):
    rows = []
    for ending in t.random.sample(["Stop", "max_turns"], 2):
        cap = t.random.randint(1, 3) if ending == "max_turns" else None
        h = harness.Harness(one_tool_then_answer() if cap is None else lab.ScriptedModel(
            [lab.forever(lambda request: lab.reply(lab.call("probe", {"file": "a.txt"})))]),
            SYSTEM, [tool("probe", lambda arguments: "read", FILE)], max_turns=cap)
        heard = listen(h)
        if ending == "Stop":
            h.subscribe(lambda event: event["type"] == "agent_start" and h.cancel())
        await lab.drive(h.prompt(f"Read {label(t)}."))
        rows.append([ending, cap, ended(heard), lab.shape(h.messages)])
    t.expect(rows, [[ending, cap, harness.error_message(
        harness.ABORTED if cap is None else f"Agent stopped after max_turns={cap}",
        stop_reason="aborted" if cap is None else "error"),
        "U A(aborted)" if cap is None else
        " ".join(["U"] + [f"A[c{n}] R(c{n})" for n in range(1, cap + 1)] + ["A(error)"])]
        for ending, cap in [row[:2] for row in rows]],
             "A stopped run ends on error_message(ABORTED, stop_reason=\"aborted\"): empty content, "
             "the label \"aborted\", the reason Operation aborted; a run past max_turns keeps "
             "lesson 5's \"error\" ending (error_message, lesson 15). Each row: [how the run ended, "
             "max_turns, the last message a listener heard announced, the record].")
    h = harness.Harness(one_tool_then_answer(), SYSTEM, [tool("probe", lambda arguments: "read", FILE)])
    h.subscribe(lambda event: event["type"] == "agent_start" and h.cancel())
    runs = t.random.randint(2, 3)
    for n in range(runs):
        await lab.drive(h.prompt(f"Run {n + 1}: {label(t)}."))
    endings = [m for m in h.messages if m.get("stop_reason") == "aborted"]
    t.expect([runs, lab.shape(h.messages), len({id(m) for m in endings}),
              len({id(m["content"]) for m in endings})],
             [runs, " ".join(["U A(aborted)"] * runs), runs, runs],
             "Each stopped run ends on a message of its own, made by error_message at that "
             "moment, so that no ending shares anything with another (error_message, lessons 5 "
             "and 15). Items: [runs, each stopped before its first step, the record, distinct "
             "ending messages, distinct content lists among them].")


@lab_test("JsonRenderer prints the events of a run a tool stopped in its k-th turn: the line of "
          "the run's last message_end carries stop_reason \"aborted\" and error_message "
          "Operation aborted, and error_message called with its label as a second positional "
          "argument makes the same message.")
async def test_a_stop_in_a_json_line(t):
    turns = t.random.randint(1, 3)
    ran = []

    def probe(arguments):
        ran.append(arguments["file"])
        if len(ran) == turns:
            box.cancel()
        return f"{len(ran)} read"
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Enough parts.")
                                           if len(request.messages) > 40 else lab.reply(
        lab.call("probe", {"file": f"part{len(request.messages)}.txt"})))])  # bounded: a lost Stop ends
    box = harness.Harness(model, SYSTEM, [tool("probe", probe, FILE)])
    renderer = harness.JsonRenderer()
    lines = []
    for event in await lab.drive(box.prompt("Read every part.")):
        lines += t.printed(renderer.render, event)[1].splitlines()
    last = [json.loads(line) for line in lines if json.loads(line)["type"] == "message_end"][-1]
    t.expect([turns, len(ran), lab.shape(box.messages), last["message"].get("stop_reason"),
              last["message"].get("error_message"), t.printed(renderer.finish)[0]],
             [turns, turns, " ".join(["U"] + [f"A[c{n}] R(c{n})" for n in range(1, turns + 1)]
                                     + ["A(aborted)"]), "aborted", "Operation aborted", False],
             "The run's last printed message_end is its aborted ending, label and reason as "
             "error_message(ABORTED, stop_reason=\"aborted\") makes them (error_message and "
             "run_agent, lesson 15). Items: [the turn whose tool pressed Stop, tools run, the "
             "record, the printed stop_reason, the printed error_message, finish()].")
    reason = f"{label(t)} gave up"
    made = [harness.error_message(reason, "aborted"), harness.error_message(reason, "error"),
            harness.error_message(harness.ABORTED), harness.error_message(reason, "aborted")]
    t.expect(made[:3] + [len({id(m["content"]) for m in made})],
             [{"role": "assistant", "content": [], "stop_reason": kind, "error_message": text}
              for kind, text in (("aborted", reason), ("error", reason), ("error", "Operation aborted"))]
             + [4],
             "error_message(text, label) is the one message with that label, whichever way the "
             "label is passed, and with no label it is lesson 5's \"error\" ending whatever its "
             "text, ABORTED's too; each call makes a new message, so that no ending shares "
             "anything with another, two worded aborted endings included (error_message, lessons "
             "5 and 15). Items: the message for \"aborted\", then for \"error\", then "
             "error_message(ABORTED) alone, then how many distinct content lists those and a second "
             "worded aborted ending hold.")


# -- rule 2: CancelToken ------------------------------------------------------------------


@lab_test("A tool reads the signal it was handed a few times, presses Stop, and reads it a few "
          "times more: every read before the press says False and every read after it True, "
          "however often it is read. A frontend's own flag serves as well: answering 0 it is "
          "clear and handed to the tool as it is; answering 2 or 3 it is set, for run_tool and "
          "for bash.")
async def test_a_tool_reads_its_signal_again_and_again(t):
    before, after = t.random.randint(1, 3), t.random.randint(2, 5)
    reads, box = [], {}

    async def execute(arguments, signal=None):
        reads.extend(signal.is_cancelled() for _ in range(before))
        box["h"].cancel()
        reads.extend(signal.is_cancelled() for _ in range(after))
        return f"read {arguments['file']}"
    name = label(t)
    box["h"] = harness.Harness(one_tool_then_answer(arguments={"file": name}), SYSTEM,
                               [{"name": "probe", "description": "Read a file.", "parameters": FILE,
                                 "execute": execute}])
    await lab.drive(box["h"].prompt(f"Read {name}."))
    t.expect([before, after, reads, lab.shape(box["h"].messages)],
             [before, after, [False] * before + [True] * after, "U A[c1] R(c1) A(aborted)"],
             "A CancelToken starts clear; once cancel() was called it is cancelled, and reading "
             "it does not clear it: it stays so (CancelToken, lesson 15). Items: [reads before "
             "Stop, reads after, each read of is_cancelled() in order, the record].")

    class Pressed:  # a frontend's own flag, answering how often Stop was pressed
        def __init__(self, presses):
            self.presses = presses

        def is_cancelled(self):
            return self.presses
    handed = []

    async def execute(arguments, signal=None):
        handed.append(signal)
        return f"read {arguments['file']}"
    probe = {"name": "probe", "description": "Read a file.", "parameters": FILE, "execute": execute}
    call = {"type": "toolCall", "id": "c3", "name": "probe", "arguments": {"file": name}}
    rows = []
    for presses in (0, (), 2, 3):  # 0 and (): clear; 2 and 3: set, though neither == True
        flag, shell = Pressed(presses), lab.Shell(lab.Workspace({}))
        answer = await harness.run_tool([probe], call, flag)
        waiting = asyncio.ensure_future(harness.make_bash_tool(shell)["execute"](
            {"command": "sleep inf"}, flag))
        turns = 0
        while not waiting.done() and turns < 12:
            await lab.tick()
            turns += 1
        if not waiting.done():  # bash did not hear it: end the wait here
            waiting.cancel()
            while not waiting.done():
                await lab.tick()
        rows.append([presses, answer["content"], [got is flag for got in handed],
                     waiting.done() and not waiting.cancelled() and turns <= 5,
                     shell.running() == []])
        handed.clear()
    t.expect(rows, [[0, f"read {name}", [True], False, True], [(), f"read {name}", [True], False, True],
                    [2, harness.ABORTED, [], True, True], [3, harness.ABORTED, [], True, True]],
             "Any object with is_cancelled() serves as a signal, and its answer is read as a "
             "condition, as any if reads one: a frontend's flag answering 0 or () is clear, and run_tool "
             "hands that very flag to the tool it runs; one answering 2 or 3 is set, so run_tool "
             "answers ABORTED without running the tool and bash ends its command within five "
             "turns (CancelToken, run_tool and bash, lesson 15). Each row: [what is_cancelled() "
             "answers, run_tool's answer, for each execute: it was handed the flag itself, bash "
             "answered within five turns on its own, no command left running].")

    class Unplugged:  # a frontend's flag whose is_cancelled() raises
        def is_cancelled(self):
            raise ConnectionError(f"the Stop button of {name} lost its link")
    answered = []

    async def ask():
        answered.append(await harness.run_tool([probe], call, Unplugged()))
    trouble = await raised(ask)
    t.expect([len(handed), trouble is not None or answered[0]["is_error"] is True], [0, True],
             "A signal whose is_cancelled() raises has not said go on: its exception goes up, or "
             "the signal counts as set, never as clear, so run_tool runs no tool on it "
             "(CancelToken and run_tool, lesson 15). Items: [tools run, run_tool let the "
             "exception out or answered the call with is_error true].")


@lab_test("Two to five CancelTokens side by side, some cancelled once or several times: each "
          "says only what was done to it, read after read, and a fresh one is clear. Then "
          "run_agent is handed a frontend's own flag, no CancelToken and empty as a container, "
          "that the first tool of a batch raises: the run hears it as it hears a token.")
async def test_tokens_keep_to_themselves(t):
    count = t.random.randint(2, 5)
    tokens = [harness.CancelToken() for _ in range(count)]
    presses = [t.random.choice([0, 0, 1, 2, 3]) for _ in range(count)]
    presses[t.random.randrange(count)] = t.random.randint(300, 1_100)  # pressed again and again
    reads = t.random.randint(1_500, 2_500)  # past a thousand: a Stop never goes stale
    with hours_pass(minutes=365 * 24 * 60):  # each reading of the clock a year on
        unset = 0  # presses after which the token pressed read clear
        for n, times in enumerate(presses):
            for _ in range(times):
                tokens[n].cancel()
                unset += not tokens[n].is_cancelled()
        rounds = [[token.is_cancelled() for token in tokens] for _ in range(reads)]
    t.expect([presses, unset, reads, [rounds.count([times > 0 for times in presses])],
              harness.CancelToken().is_cancelled()],
             [presses, 0, reads, [reads], False],
             "Each token keeps its own flag: cancel() sets it and nothing clears it, pressing it "
             "again, hundreds of times, or reading it included, however long ago it was pressed "
             "(CancelToken, lesson 15). Items: [cancel() calls per token, presses after which "
             "that token read clear, rounds of is_cancelled() over every token, read while each "
             "reading of the clock is a year after the last, [rounds in which each token said "
             "what was done to it], a fresh token].")

    class Flag:  # a frontend's own flag, no CancelToken, and empty: false as a truth value
        raised = False

        def is_cancelled(self):
            return self.raised

        def __len__(self):
            return 0
    flag = Flag()
    ran = []

    def probe(arguments):
        ran.append(arguments["file"])
        flag.raised = 1  # a frontend's count of presses: read as a condition, it is set
        return "read"
    size = t.random.randint(2, 4)
    files = [f"{label(t)}.md" for _ in range(size)]
    model = lab.ScriptedModel([lab.reply(*[lab.call("probe", {"file": f}) for f in files]),
                               lab.forever(lambda request: lab.say("Read."))])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [tool("probe", probe, FILE)],
                                      "Read them.", signal=flag))
    t.expect([size, ran, len(model.calls), lab.shape(messages)],
             [size, files[:1], 1,
              " ".join([f"U A[{','.join(f'c{n}' for n in range(1, size + 1))}]"]
                       + [f"R(c{n})" for n in range(1, size + 1)] + ["A(aborted)"])],
             "Any object with is_cancelled() serves as a signal, not only this file's CancelToken: "
             "run_tool and the top of each turn ask it, whatever its class, and never take it for "
             "true or false: this one is empty, so false, and set (CancelToken, lesson 15). Items: "
             "[the batch's size, the files read, requests, the record].")

    class Breaking(Flag):  # clear, until the first tool breaks its link: then it raises
        def is_cancelled(self):
            if self.raised:
                raise ConnectionError("the frontend's Stop button lost its link")
            return False
    flag, ran = Breaking(), []
    files = [f"{label(t)}.md" for _ in range(size)]
    model = lab.ScriptedModel([lab.reply(*[lab.call("probe", {"file": f}) for f in files]),
                               lab.forever(lambda request: lab.say("Read."))])
    await raised(lambda: lab.drive(harness.run_agent(
        model, SYSTEM, [], [tool("probe", probe, FILE)], "Read them.", signal=flag)))
    t.expect([size, ran, len(model.calls)], [size, files[:1], 1],
             "A flag whose is_cancelled() raises, as this one does once the batch's first tool "
             "has run, has not said go on: its exception goes up, or it counts as set, never as "
             "clear, so no later tool of the batch runs and no request follows (CancelToken, "
             "lesson 15). Items: [the batch's size, the files read, requests].")


# -- rule 3: the Harness: a token per run, Stop before the first step, cancel when idle ---


@lab_test("Runs driven by a task of their own, with Stop pressed while idle after each: the "
          "second is stopped between prompt() and the task's first turn, after a run stopped and "
          "dropped before its first step. A listener hears it end "
          "at once, aborted, with no request; the runs before and after it are answered as "
          "usual, run 3's requests carrying another token than run 1's.")
async def test_a_stop_before_the_task_takes_a_turn(t):
    model = one_tool_then_answer()
    h = harness.Harness(model, SYSTEM, [tool("probe", lambda arguments: "read", FILE)])
    heard = listen(h)
    dropped = h.prompt(f"Never {label(t)}.")
    h.cancel()  # stopped, then dropped before its first step: its Stop goes with it
    await dropped.aclose()
    rows = []
    for number in (1, 2, 3):
        start, requests = len(heard), len(model.calls)
        task = asyncio.ensure_future(lab.drive(h.prompt(f"Run {number}: {label(t)}.")))
        if number == 2:
            h.cancel()  # the task exists and has not had a turn yet
            stopping = [h.is_running, await raised(lambda: h.prompt("Never mind.")) is not None]
        await task
        rows.append([number, [e["type"] for e in heard[start:]], len(model.calls) - requests])
        for _ in range(t.random.randint(3, 6)):
            h.cancel()  # a user a moment too late, pressing again and again: nothing is running
    opening = ["agent_start", "turn_start", "message_end", "message_end"]
    answered = opening + ["tool_execution_start", "message_end", "tool_execution_end",
                          "turn_end", "turn_start", "message_end", "turn_end", "agent_end"]
    first, last = model.calls[0].signal, model.calls[-1].signal
    t.expect(rows + [lab.shape(h.messages), first is last, stopping],
             [[1, answered, 2], [2, opening + ["turn_end", "agent_end"], 0], [3, answered, 2],
              "U A[c1] R(c1) A U A(aborted) U A[c2] R(c2) A", False, [True, True]],
             "The run's token must exist once prompt() has returned: a Stop pressed before the "
             "task driving the run takes its first turn still stops that run; a Stop pressed "
             "while idle is a harmless no-op, and the next run has a token of its own "
             "(Harness.prompt and Harness.cancel, lesson 15); a run stopped and dropped before "
             "its first step takes its Stop with it. Each row: [run, the events a "
             "listener heard, requests made]; then the record, then whether run 1's first "
             "request and run 3's last carry one token, then [is_running just after run 2's Stop, a prompt() then refused]: a stopped run is still going until it has unwound.")


@lab_test("Three to five runs of one harness, a drawn few of them after the first stopped by "
          "their tool, just after it tried a second prompt: each "
          "request carries the token of its own run, one token per run and never one shared, "
          "and after the runs only the stopped runs' tokens are cancelled.")
async def test_each_run_hands_the_model_a_token_of_its_own(t):
    runs = t.random.randint(3, 5)
    stopped = sorted(t.random.sample(range(2, runs + 1), t.random.randint(1, runs - 1)))
    model, box = one_tool_then_answer(), {}

    def probe(arguments):
        if box["run"] in stopped:
            try:
                box["h"].prompt("One more thing.")  # refused: the run is going
            except RuntimeError:
                pass
            box["h"].cancel()
        return "read"
    box["h"] = harness.Harness(model, SYSTEM, [tool("probe", probe, FILE)])
    asked = []
    for run in range(1, runs + 1):
        box["run"] = run
        before = len(model.calls)
        await lab.drive(box["h"].prompt(f"Run {run}."))
        asked += [run] * (len(model.calls) - before)
    order = []  # each distinct token, in the order the model first saw it
    for request in model.calls:
        if not any(request.signal is seen for seen in order):
            order.append(request.signal)
    found = [[run, next(n for n, seen in enumerate(order) if seen is request.signal) + 1,
              request.signal.is_cancelled(), type(request.signal).__name__]
             for run, request in zip(asked, model.calls)]
    wanted = []
    for run in range(1, runs + 1):
        wanted += [[run, run, run in stopped, "CancelToken"]] * (1 if run in stopped else 2)
    t.expect([stopped, found], [stopped, wanted],
             "Each run gets a fresh token, the CancelToken itself, handed to every request it "
             "makes; a Stop in one run never carries into the next, and a prompt() refused while "
             "a run goes changes no token, so the Stop pressed after it still reaches that run "
             "(Harness.prompt, lesson 15). Items: [the runs whose tool tried a second prompt and "
             "then pressed Stop, for each request: [its run, which token it carried (1 for the "
             "first the model saw, ...), that token cancelled now, its type]].")


@lab_test("cancel() pressed while nothing runs, on a new harness, after a run its consumer "
          "walked away from, and after a stopped run, returns None every time, and a listener "
          "hears the next run answered as usual, a follow-up queued before those Stops included; the answered run before them all made its "
          "requests with a token no later run shares, and no later Stop reached it.")
async def test_a_late_stop_is_quiet(t):
    model, other, said = one_tool_then_answer(), harness.Harness(one_tool_then_answer(), SYSTEM, []), []

    def probe(arguments):
        said.append(quietly(t, other.cancel))  # another harness, idle, is stopped
        return "read"
    h = harness.Harness(model, SYSTEM, [tool("probe", probe, FILE)])
    heard = listen(h)
    found = [await raised(h.cancel)]
    dropped = h.prompt(f"Never {label(t)}.")
    h.cancel()  # stopped, then dropped before its first step: its Stop goes with it
    await dropped.aclose()
    await lab.drive(h.prompt(f"First {label(t)}."))
    await lab.drive(h.prompt("Start, then go."), close_after=t.random.randint(4, 6))
    found += [h.is_running, await raised(h.cancel)]
    run = h.prompt("Stop this one.")
    h.cancel()
    await lab.drive(run)
    h.follow_up(f"Then {label(t)}.")  # queued while idle, before three late Stops
    h.follow_up(f"Last, {label(t)}.")
    found += [await raised(h.cancel), await raised(h.cancel), await raised(h.cancel)]
    idle = len(heard)
    found += [await raised(h.cancel), [e.get("type") for e in heard[idle:]]]
    start = len(heard)
    await lab.drive(h.prompt(f"And {label(t)}?"))
    found += [lab.shape([e["message"] for e in heard[start:] if e["type"] == "message_end"])]
    first = model.calls[0].signal
    found += [[first.is_cancelled()] + [request.signal is first for request in model.calls[2:]]]
    found += [sorted(set(said))]
    t.expect(found, [None, False, None, None, None, None, None, [],
                     " ".join(["U", "A[c3]", "R(c3)", "A", "U", "A[c4]", "R(c4)", "A",
                               "U", "A[c5]", "R(c5)", "A"]),
                     [False] * (len(model.calls) - 1), [""]],
             "cancel() when idle is a harmless no-op: a user cannot see the instant a run ends, "
             "so it raises nothing and the next run is not stopped; and each run has a token of "
             "its own, so a Stop of a later run never reaches a signal an earlier run handed out "
             "(Harness.prompt and Harness.cancel, lesson 15). Items: [what cancel() raised on a "
             "new harness, is_running after a closed run that followed an answered one, what "
             "cancel() raised then, what three cancel() in a row after a stopped run raised, what "
             "one more raised and the events a listener heard from it: none, since it does "
             "nothing anyone can see, the "
             "messages a listener heard in the next run, which answers two follow-ups queued "
             "before those three Stops, since an idle cancel() leaves the queues alone, [the answered run's token cancelled, then for each "
             "later request: it carried that token], what another harness's idle cancel(), "
             "pressed from this one's tools, printed, logged or warned: nothing, and it stopped "
             "nothing here].")


@lab_test("A steer and a follow-up queued and Stop pressed while idle, then a run whose request "
          "takes a few turns, during which a second prompt() is refused and Stop pressed, and a "
          "third prompt() just after that Stop is refused too, the run still unwinding: the "
          "idle Stop reached nothing, the steer joins the first turn, the run's own token, "
          "handed to the model, is the one the later Stop sets, and the follow-up waits.")
async def test_a_refused_prompt_and_an_idle_stop_change_nothing(t):
    steer, later = label(t), label(t)
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Noted."))],
                              latency=t.random.randint(2, 4))
    h = harness.Harness(model, SYSTEM, [])
    heard = listen(h)
    h.steer(f"Mind {steer}.")
    h.follow_up(f"Then {later}.")
    h.follow_up(f"And {steer} again.")
    h.cancel()  # idle
    idle = [e.get("type") for e in heard]  # what a listener heard from it: nothing
    task = asyncio.ensure_future(lab.drive(h.prompt("Begin.")))
    while not model.calls:
        await lab.tick()
    refused = await raised(lambda: h.prompt("Something else."))
    h.cancel()
    stopping = [h.is_running, await raised(lambda: h.prompt("Start over.")) is not None]
    await task
    signal = model.calls[0].signal
    other, said = harness.Harness(model, SYSTEM, []), []  # a second harness, idle throughout
    h.subscribe(lambda event: event["type"] == "turn_start" and said.append(quietly(t, other.cancel)))
    await lab.drive(h.prompt("Again."))
    t.expect([idle, refused is not None, stopping,
              lab.shape([e["message"] for e in heard if e["type"] == "message_end"]),
              type(signal).__name__, signal.is_cancelled(), len(model.calls),
              [m["content"] for m in h.messages if m["role"] == "user"], sorted(set(said))],
             [[], True, [True, True], "U U A(aborted) U A U A U A", "CancelToken", True, 4,
              ["Begin.", f"Mind {steer}.", "Again.", f"Then {later}.", f"And {steer} again."], [""]],
             "h.cancel() with no run going does nothing, and leaves what was queued queued; a "
             "prompt() refused while a run goes changes nothing, its token included, so the Stop "
             "pressed after it stops that run, which goes on until it has unwound: is_running "
             "stays True just after that Stop, and a prompt() then is refused too; and run_agent "
             "receives the run's CancelToken itself as its signal (Harness.prompt and "
             "Harness.cancel, lesson 15). Items: [the events a listener heard from the idle "
             "Stop: none, the second prompt refused, [is_running just "
             "after Stop, a prompt() then refused], the messages a listener heard, the first request's signal's "
             "type, it is cancelled, requests, the record's user messages, what an idle second "
             "harness's cancel(), pressed at each turn of the last run, printed, logged or "
             "warned: nothing, and it stopped nothing].")


# -- rule 4: run_agent and context_for_model ----------------------------------------------


@lab_test("A listener presses Stop, and queues a follow-up, when it hears tool_execution_start "
          "for call j of a batch of two to five, in harnesses with no max_turns and with "
          "max_turns 1: call j's tool and the later ones never run, the listener hears each "
          "call end with Operation aborted from j on, no request follows, and the run ends "
          "aborted, or the max_turns way under max_turns 1, leaving the follow-up queued. A "
          "follow-up queued as a run's answer ends: with Stop, no request for it; without, its "
          "request carries the run's token. A steer sent as the answer ends, with Stop: no "
          "request for it either.")
async def test_stop_heard_as_a_call_is_announced(t):
    rows, cases = [], []
    for cap in t.random.sample([None, None, 1], 3):
        size = t.random.randint(2, 5)
        j = t.random.randrange(size if rows else size - 1)  # the first batch goes on past j
        files = [f"{label(t)}.txt" for _ in range(size)]
        read = []
        model = lab.ScriptedModel([lab.reply(*[lab.call("probe", {"file": f}) for f in files]),
                                   lab.forever(lambda request: lab.say("Read."))])
        h = harness.Harness(model, SYSTEM,
                            [tool("probe", lambda a, read=read: read.append(a["file"]) or "seen",
                                  FILE)], max_turns=cap)
        heard = listen(h)
        starts = []

        def press(event, h=h, starts=starts, j=j):
            if event["type"] == "tool_execution_start":
                starts.append(1)
                if len(starts) == j + 1:
                    h.cancel()
                    h.follow_up("Then read the rest.")
        h.subscribe(press)
        await lab.drive(h.prompt("Read them all."))
        rows.append([size, j, read, [[e["call"]["id"], e["result"]["content"], e["result"]["is_error"]]
                                     for e in heard if e["type"] == "tool_execution_end"],
                     len(model.calls), lab.shape(h.messages), h.messages[-1]["error_message"]])
        cases.append([cap, size, j, files])
    t.expect(rows, [[size, j, files[:j],
                     [[f"c{k + 1}", "seen" if k < j else "Operation aborted", k >= j]
                      for k in range(size)], 1,
                     " ".join([f"U A[{','.join(f'c{k + 1}' for k in range(size))}]"]
                              + [f"R(c{k + 1})" for k in range(size)]
                              + ["A(aborted)" if cap is None else "A(error)"]),
                     "Operation aborted" if cap is None else f"Agent stopped after max_turns={cap}"]
                    for cap, size, j, files in cases],
             "run_tool reads the flag right before it runs a tool, after the call was announced: "
             "a Stop heard at call j's announcement keeps its tool and every later one from "
             "running, each call still gets one result, and the top of the next turn sends no "
             "request; a stopped run asks nobody for follow-ups, and past max_turns it ends the "
             "max_turns way, which keeps precedence (run_tool and run_agent, lesson 15). Each "
             "row: [batch size, j (from 0), the files the tools read, each tool_execution_end as "
             "[call id, content, is_error], requests, the record, its last error_message].")
    rows = []
    for queue, stop in t.random.sample([("follow-up", True), ("follow-up", False), ("steer", True)], 3):
        model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Read."))])
        h = harness.Harness(model, SYSTEM, [])
        heard = listen(h)

        def press(event, h=h, stop=stop, queue=queue):
            if event["type"] == "turn_end" and len(h.messages) == 2:  # the first answer's turn
                (h.follow_up if queue == "follow-up" else h.steer)(f"And {label(t)}.")
                if stop:
                    h.cancel()
        h.subscribe(press)
        await lab.drive(h.prompt("Read one."))
        rows.append([queue, stop, lab.shape([e["message"] for e in heard if e["type"] == "message_end"]),
                     [type(request.signal).__name__ for request in model.calls],
                     [request.signal is model.calls[0].signal for request in model.calls]])
    t.expect(rows, [[queue, stop, "U A U A(aborted)" if stop else "U A U A",
                     ["CancelToken"] * (1 if stop else 2), [True] * (1 if stop else 2)]
                    for queue, stop in [row[:2] for row in rows]],
             "A follow-up queued, or a steer sent, as the answer's turn ends opens a turn of the "
             "same run: with Stop pressed then, that turn's top ends the run aborted and sends no "
             "request, whatever opened the turn; without, its request carries the run's token as "
             "every request does (run_agent, lesson 15). Each row: [what was queued, Stop pressed "
             "with it, the messages a listener heard, each request's signal's type, each carried "
             "the first request's].")
    found = [await after_a_deaf_provider(t, with_call) for with_call in (True, False)]
    t.expect(found, [deaf_wanted(row[0]) for row in found],
             "A reply that comes back as usual after Stop, from a provider that did not read the "
             "signal, is recorded as it came: each of its calls, however many, is answered "
             "Operation aborted without running, since every tool call is handed the signal, and "
             "the run ends on its aborted message; a plain answer ends the run as any answer "
             "does (run_agent, lesson 15). Items: [calls asked for, the record, tools run, "
             "requests, the results' contents] for a reply with two hundred and ten to two hundred and sixty calls, then for "
             "a plain answer.")
    rows, cases, long = [], [], t.random.randint(60, 80)
    for cap, turn in [(t.random.randint(5, 9),) * 2, (long, long - 1), (long, long)]:
        ran = []
        model = lab.ScriptedModel([lab.forever(lambda request: lab.reply(lab.call("probe",
                                                                                  {"file": "x"})))])
        h = harness.Harness(model, SYSTEM, [tool("probe", lambda arguments, ran=ran: ran.append(1)
                                                 or "read", FILE)], max_turns=cap)
        h.subscribe(lambda event, h=h, ran=ran, turn=turn: event["type"] == "tool_execution_start"
                    and len(ran) == turn - 1 and h.cancel())  # heard as turn's call is announced
        await lab.drive(h.prompt("Keep reading."))
        rows.append([cap, turn, len(ran), len(model.calls), h.messages[-1]["stop_reason"],
                     h.messages[-1]["error_message"]])
        cases.append([cap, turn])
    t.expect(rows, [[cap, turn, turn - 1, turn]
                    + (["error", f"Agent stopped after max_turns={cap}"] if turn == cap
                       else ["aborted", "Operation aborted"]) for cap, turn in cases],
             "Stop heard as the call of turn s is announced, under a max_turns m of five to nine "
             "(s is m), then of sixty to eighty (s is m - 1, then m): the call is answered without "
             "running; when s is m the next turn's top, past max_turns, ends the run the max_turns "
             "way, which keeps precedence whatever max_turns is, and otherwise that top sees Stop "
             "and ends the run aborted, however many turns the run has taken, with no request "
             "after Stop (run_agent, Build item 4 of lab 15.1). Each row: [max_turns, s, tools "
             "run, requests, the last message's stop_reason, its error_message].")
    steers = [label(t), label(t)]
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Read."))], latency=2)
    h = harness.Harness(model, SYSTEM, [])
    async with lab.background(h.prompt("Read one.")) as task:
        while not model.calls:
            await lab.tick()
        h.steer(f"Mind {steers[0]}.")
        h.steer(f"And {steers[1]}.")
        h.cancel()  # while the request is out, two steers queued
        await task
    await lab.drive(h.prompt("Read another."))
    t.expect([m["content"] for m in h.messages if m["role"] == "user"],
             why="Two steers sent while a request is out, then Stop: the stopped reply asks for no "
                 "steering, and both steers wait for the next run, since a message leaves its "
                 "queue only once it is on the record, so stopping a run never loses one "
                 "(Harness, lessons 9 and 15). Items: the record's user messages after the next "
                 "run.")


@lab_test("A harness made with max_turns m, a listener pressing Stop as it hears the call of "
          "turn s announced, under an m of one to four, one of five to ten and one of sixty to "
          "eighty (s is m - 1 and m): that call's tool never runs, and when s is m the run's last "
          "announced message is the max_turns ending, otherwise the aborted one; either way s "
          "requests were made, no more.")
async def test_max_turns_wins_through_the_harness(t):
    rows, cases = [], []
    for cap in [t.random.randint(1, 4), t.random.randint(5, 10), t.random.randint(60, 80)]:
        for stop in [cap - 1, cap] if cap > 10 else sorted({cap, t.random.randint(1, cap)}):
            ran = []
            model = lab.ScriptedModel([lab.forever(lambda request: lab.reply(lab.call("probe",
                                                                                      {"file": "x"})))])
            h = harness.Harness(model, SYSTEM,
                                [tool("probe", lambda arguments, ran=ran: ran.append(1) or "read",
                                      FILE)], max_turns=cap)
            heard = listen(h)

            def press(event, h=h, heard=heard, stop=stop):
                if event["type"] == "tool_execution_start" and \
                        sum(e["type"] == "tool_execution_start" for e in heard) == stop:
                    h.cancel()
            h.subscribe(press)
            await lab.drive(h.prompt("Keep reading."))
            last = ended(heard)
            rows.append([cap, stop, last["stop_reason"], last["error_message"], len(model.calls),
                         len(ran), sum(request.signal is not model.calls[0].signal
                                       or request.signal is None for request in model.calls)])
            cases.append([cap, stop])
    t.expect(rows, [[cap, stop] + (["error", f"Agent stopped after max_turns={cap}"] if stop == cap
                                   else ["aborted", "Operation aborted"]) + [stop, stop - 1, 0]
                    for cap, stop in cases],
             "The top of a turn looks at max_turns first and at the signal second: a run past "
             "max_turns ends the max_turns way even after Stop, a Stop seen earlier ends it "
             "aborted, and neither pays for a request; a call announced after Stop is answered "
             "without running its tool, since run_tool looks right before it runs one (run_agent "
             "and run_tool, lessons 5 and 15); every request of the run carries its signal, the "
             "sixtieth and later too. Each row: [max_turns, the turn whose call's "
             "announcement was heard with Stop, the last announced message's stop_reason, its "
             "error_message, requests, tools run, requests whose signal was not the first "
             "request's token].")

    cap = t.random.randint(1, 4)
    stop, reason = t.random.randint(1, cap), f"{label(t)} was cut off"
    steers = [label(t), label(t)]
    ran = []
    model = lab.ScriptedModel(
        [lab.forever(lambda request: lab.reply(lab.call("probe", {"file": "x"})))], latency=2)
    h = harness.Harness(model, SYSTEM, [tool("probe", lambda arguments: ran.append(1) or "read",
                                             FILE)], max_turns=cap)
    wrapped = model.acomplete

    async def acomplete(system, sent, tools=(), signal=None):
        if len(model.calls) + 1 == stop:
            asyncio.get_running_loop().call_soon(h.cancel)
            h.follow_up("And then the rest.")
            h.steer(f"Mind {steers[0]}.")
            h.steer(f"And {steers[1]}.")
        reply = await wrapped(system, sent, tools, signal)
        return {**reply, "error_message": reason} if reply["stop_reason"] == "aborted" else reply
    model.acomplete = acomplete
    heard = listen(h)
    await lab.drive(h.prompt("Keep reading."))
    last = ended(heard)
    t.expect([cap, stop, last["stop_reason"], last["error_message"], len(model.calls), len(ran),
              lab.shape(h.messages)],
             [cap, stop, "aborted", reason, stop, stop - 1,
              " ".join(["U"] + [f"A[c{n}] R(c{n})" for n in range(1, stop)] + ["A(aborted)"])],
             "A reply the provider labels \"aborted\", stopped while request s was answered, "
             "is the run's last message, in the provider's own words, as a failed reply is, at "
             "max_turns too: the label tells a stopped reply, not its error_message, and a "
             "follow-up queued with the Stop waits (run_agent, lesson 15). Items: [max_turns, s, "
             "the last announced message's stop_reason, its error_message, requests, tools run, "
             "the record].")
    await lab.drive(h.prompt("Now the rest."))
    t.expect([m["content"] for m in h.messages if m["role"] == "user"][1:],
             why="Two steers sent with the Stop wait, as the follow-up does: a message leaves its "
                 "queue only once it is on the record, so stopping a run never loses one, and the "
                 "next run takes both steers and then the follow-up (Harness, lessons 9 and 15). "
                 "Items: the user messages from the next run's prompt on.")


@lab_test("context_for_model over a record written by hand, in which drawn runs end in an "
          "answer, an empty aborted message, an empty failure, or a failure or a stop that got "
          "words out: the view drops exactly the empty endings, is one a provider accepts, and "
          "leaves the record as it was.")
async def test_the_view_of_a_record_with_stops(t):
    kinds = ["answer", "aborted", "error", "words", "stopped words", "worded stop",
             "stopped call", "failed call"]
    endings = kinds + [t.random.choice(kinds) for _ in range(t.random.randint(0, 3))]
    t.random.shuffle(endings)
    record = []
    for n, ending in enumerate(endings, 1):
        record.append(harness.user_message(f"Question {n} about {label(t)}."))
        if ending == "answer":
            record.append({"role": "assistant", "content": [{"type": "text", "text": f"Reply {n}."}],
                           "stop_reason": "stop"})
        elif ending == "words":
            record.append({"role": "assistant", "content": [{"type": "text", "text": f"Half {n}"}],
                           "stop_reason": "error", "error_message": "connection reset"})
        elif ending == "worded stop":  # empty, and worded its own way by a provider
            record.append({"role": "assistant", "content": [], "stop_reason": "aborted",
                           "error_message": f"Request {n} cancelled by the user"})
        elif ending in ("stopped call", "failed call"):  # a call got out, no words: not empty
            record.append({"role": "assistant", "content": [lab.call("read", {"path": "a.py"},
                                                                     id=f"c{n}")],
                           "stop_reason": "aborted" if ending == "stopped call" else "error",
                           "error_message": harness.ABORTED if ending == "stopped call" else
                           "connection reset"})
        elif ending == "stopped words":
            record.append({"role": "assistant",
                           "content": [{"type": "text", "text": f"Partly {n}"}],
                           "stop_reason": "aborted", "error_message": harness.ABORTED})
        else:
            record.append(harness.error_message(harness.ABORTED if ending == "aborted" else
                                                "overloaded", stop_reason=ending))
    before = [dict(m) for m in record]
    view = harness.context_for_model(record)
    shown = {"answer": ["U", "A"], "words": ["U", "A(error)"], "aborted": ["U"], "error": ["U"],
             "stopped words": ["U", "A(aborted)"], "worded stop": ["U"],
             "stopped call": ["U", "A[c{n}](aborted)", "R(c{n})"],
             "failed call": ["U", "A[c{n}](error)", "R(c{n})"]}
    t.expect([endings, lab.shape(view), lab.validate(view), record == before, len(record)],
             [endings, " ".join(part.format(n=n) for n, ending in enumerate(endings, 1)
                                for part in shown[ending]), [], True, 2 * len(endings)],
             "The view leaves out an empty aborted message, whoever worded it, as it leaves out "
             "an empty failed one, "
             "keeps a failure or a stop that got words or a call out (empty means no content "
             "at all; the call is answered as any call with no result), and never changes the "
             "record "
             "(context_for_model, lessons 10 and 15). Items: [how each run ended, the view, what "
             "lab.validate says of it, the record unchanged, the record's length].")
    inner, handed = lab.ScriptedModel([lab.say("Noted.")]), []

    class Provider:  # a model whose acomplete takes its fourth parameter with no default
        async def acomplete(self, system, messages, tools, signal):
            handed.append(signal)
            return await inner.acomplete(system, messages, tools, signal)
    trouble = await raised(lambda: lab.drive(harness.run_agent(Provider(), SYSTEM, record, [],
                                                               "One more question.")))
    t.expect([trouble, handed, [lab.shape(request.messages) for request in inner.calls]],
             [None, [None], [lab.shape(view) + " U"]],
             "A run with no signal over that record sends the view and its new question, and "
             "hands acomplete None as its fourth argument, None included, so a provider whose "
             "fourth parameter has no default answers (run_agent and context_for_model, lesson "
             "15). Items: [what the run raised, what acomplete was handed, each request's "
             "messages].")


@lab_test("run_agent called with its own steering and follow-up sources and a signal set before "
          "it starts, by the first of turn s's two tools, or while request s is answered: once "
          "the aborted reply is recorded nobody is asked for steering or follow-ups again, no "
          "tool runs after Stop, and the next run's request leaves the empty aborted message "
          "out, and keeps a stopped reply that got words out, worded in the provider's way; "
          "the next run's follow-up turn carries its signal, or, with Stop pressed as it is "
          "handed over, makes no request, as a turn opened by a steer after the answer makes none; "
          "every request of a run stopped by a tool in its sixth to eighth turn carries its signal.")
async def test_a_stopped_run_asks_nobody_for_more(t):
    rows, cases = [], []
    for moment in ["before", "tool", "request", "silent"]:
        s = 0 if moment == "before" else t.random.randint(6, 8) if moment == "tool" else \
            t.random.randint(1, 3)
        token, asks = harness.CancelToken(), {"steering": 0, "follow_ups": 0}

        def source(kind, asks=asks):
            def get():
                asks[kind] += 1
                return []
            return get
        turn = []

        def probe(arguments, turn=turn, token=token, s=s, moment=moment):
            turn.append(1)
            if moment == "tool" and len(turn) == 2 * s - 1:
                token.cancel()  # by the first of turn s's two calls
            return "read"

        if moment == "before":
            token.cancel()
        messages = []
        model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Going on.")
                                               if request.messages[-1]["content"] in ("Go on.", "Then stop.")
                                               or len(request.messages) > 40  # a lost Stop ends
                                               else lab.reply(lab.call("probe", {"file": "y"}),
                                                              lab.call("probe", {"file": "z"})))],
                                  latency=2)
        wrapped = model.acomplete

        async def acomplete(system, sent, tools=(), signal=None, s=s, moment=moment,
                            model=model, wrapped=wrapped, token=token):
            if moment in ("request", "silent") and len(model.calls) + 1 == s:
                asyncio.get_running_loop().call_soon(token.cancel)  # a turn into request s
            reply = await wrapped(system, sent, tools, signal)
            if reply["stop_reason"] == "aborted" and moment == "silent":  # its own reason only
                reply = {**reply, "error_message": "Stopped at the client's request"}
            elif reply["stop_reason"] == "aborted":  # a provider with words out, and its own reason
                reply = {**reply, "content": [{"type": "text", "text": "I will first rea"}],
                         "error_message": "Stopped at the client's request"}
            return reply
        model.acomplete = acomplete
        at_abort = []

        def on_event(event, asks=asks, at_abort=at_abort):
            if event["type"] == "message_end" and event["message"].get("stop_reason") == "aborted":
                at_abort.append(dict(asks))
        await lab.drive(harness.run_agent(model, SYSTEM, messages, [tool("probe", probe, FILE)],
                                          "Read it.", get_steering=source("steering"),
                                          get_follow_ups=source("follow_ups"), signal=token),
                        on_event=on_event)
        stopped = [moment, s, [asks[kind] - at_abort[0][kind] for kind in asks] if at_abort
                   else "no aborted reply", lab.shape(messages), len(turn), len(model.calls),
                   [m["error_message"] for m in messages if m.get("stop_reason") == "aborted"],
                   sum(request.signal is not token for request in model.calls)]
        nxt, given, asked, steered = harness.CancelToken(), [], len(model.calls), []

        def follow_ups(nxt=nxt, given=given, moment=moment):
            if given:
                return []
            given.append(1)
            if moment == "request":
                nxt.cancel()  # Stop pressed as the run would end, its follow-up just handed over
            return [harness.user_message("Then stop.")]

        def steering(nxt=nxt, steered=steered, moment=moment):
            steered.append(1)  # asked as the run begins, then after the answer's turn
            if moment == "silent" and len(steered) == 2:
                nxt.cancel()  # Stop pressed as a steer is handed over after an answer
                return [harness.user_message("Then stop.")]
            return []
        await lab.drive(harness.run_agent(model, SYSTEM, messages, [tool("probe", probe, FILE)],
                                          "Go on.", get_follow_ups=follow_ups,
                                          get_steering=steering, signal=nxt))
        rows.append(stopped + [lab.shape(model.calls[asked].messages),
                               [request.signal is nxt for request in model.calls[asked:]]])
        cases.append([moment, s])
    done = {"before": 0, "tool": 0, "request": -1, "silent": -1}  # turns whose calls all got results: s + this
    pairs = lambda turns: [f"A[c{2 * n - 1},c{2 * n}] R(c{2 * n - 1}) R(c{2 * n})"
                           for n in range(1, turns + 1)]
    t.expect(rows, [[moment, s, [0, 0],
                     " ".join(["U"] + pairs(s + done[moment]) + ["A(aborted)"]),
                     {"before": 0, "tool": 2 * s - 1, "request": 2 * s - 2, "silent": 2 * s - 2}[moment], s,
                     ["Stopped at the client's request" if moment in ("request", "silent")
                      else harness.ABORTED], 0,
                     " ".join(["U"] + pairs(s + done[moment])
                              + (["A(aborted)"] if moment == "request" else []) + ["U"]),
                     [True] if moment in ("request", "silent") else [True, True]]
                    for moment, s in cases],
             "A reply labelled \"aborted\", whatever its error_message, ends the run as a failed "
             "one does: nothing in it is acted on, and nobody is asked for steering or "
             "follow-ups once it is recorded, so a stopped run never sees them; after Stop no tool runs and no request is paid for, each "
             "call left in the batch is still answered, and the next request leaves the empty "
             "aborted message out, a stopped reply, empty or with words, kept on the record as "
             "its provider wrote it; in "
             "the next run, a turn opened by a follow-up sends its request with the run's signal, "
             "or, Stop pressed as the follow-up was handed over, sends none (run_agent, run_tool "
             "and context_for_model, lessons 9 and 15). "
             "Each row: [when Stop was pressed, the turn s, times [steering, follow-ups] were asked "
             "for after the aborted reply was announced, the record, tools run, requests, the "
             "aborted messages' error_message, requests that did not carry the run's token, the "
             "next run's first request, for each of the next run's requests: it carried that "
             "run's signal (a steer handed over with Stop after the answer, in the row of the "
             "silent stop, opens a turn that makes no request)].")
    for ending in ("aborted", "error"):  # each label on every draw
        ran, messages = [], []
        got_out = {**lab.reply(lab.call("probe", {"file": "y"}, id="c1")), "stop_reason": ending,
                   "error_message": "Stopped at the client's request"}  # a call out, no words
        model = lab.ScriptedModel([got_out, lab.say("Going on.")])
        probe_tool = tool("probe", lambda arguments, signal=None, ran=ran: ran.append(arguments)
                          or "ok", FILE)
        class Provider:  # a model whose acomplete takes its fourth parameter with no default
            async def acomplete(self, system, sent, tools, signal, model=model):
                return await model.acomplete(system, sent, tools, signal)
        troubles = [await raised(lambda prompt=prompt: lab.drive(harness.run_agent(
            Provider(), SYSTEM, messages, [probe_tool], prompt))) for prompt in ("Read it.", "Go on.")]
        t.expect([ending, troubles, ran, lab.shape(messages),
                  lab.shape(model.calls[1].messages) if len(model.calls) > 1 else None,
                  [request.signal for request in model.calls]],
                 [ending, [None, None], [], f"U A[c1]({ending}) U A", f"U A[c1]({ending}) R(c1) U",
                  [None, None]],
                 f"A reply labelled {ending!r} that got a call out and no words: nothing in it "
                 "is acted on, and it is not empty (empty means no content at all), so the next "
                 "request keeps it, its call answered as any call with no result "
                 "(context_for_model, lesson 15); with no signal, each request hands acomplete "
                 "None as its fourth argument, so a provider whose fourth parameter has no "
                 "default answers. Items: [the label, what each run raised, tools run, the "
                 "record, the next run's request, the signal each request carried].")
    late = [await after_a_deaf_provider(t, with_call) for with_call in (False, True)]
    t.expect(late, [deaf_wanted(row[0]) for row in late],
             "Stop pressed while a provider that never reads the signal answers: its reply, "
             "which comes back as usual, is recorded as it came, and the run asks nobody for "
             "more; each call in it, the eleventh and later of a batch too, is answered Operation "
             "aborted without running, then the run ends aborted (run_agent, lesson 15). Items: "
             "[calls asked for, the record, tools run, requests, the results' contents] for a "
             "plain answer, then for a reply with two hundred and ten to two hundred and sixty calls.")


# -- rule 5: run_tool and bash ------------------------------------------------------------


@lab_test("A batch of bash on a command that prints half a line and then waits for ever, "
          "followed by calls naming tools nobody has, from a provider whose acomplete names its "
          "fourth parameter its own way; the frontend presses Stop two thousand turns and more "
          "into the command: within five turns the run is over, bash's result ends on the line "
          "Command cancelled, the command is killed, and each later call is answered Operation "
          "aborted, not as a missing tool.")
async def test_bash_in_a_batch_hears_the_frontend(t):
    printed = label(t)
    shell = lab.Shell(lab.Workspace({"build.log": f"{printed}: step 3 of"}))
    missing = [label(t).replace("-", "_") for _ in range(t.random.randint(1, 3))]
    command = "cat build.log && sleep inf"
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": command}),
                                         *[lab.call(name, {}) for name in missing]),
                               lab.forever(lambda request: lab.say("Over."))])

    class Provider:  # its own name for the fourth parameter: the signal goes by position
        async def acomplete(self, system, messages, tools=(), stop_flag=None):
            return await model.acomplete(system, messages, tools, stop_flag)
    bash = harness.make_bash_tool(shell)
    h = harness.Harness(Provider(), SYSTEM, [bash])
    heard = listen(h)
    elder = asyncio.ensure_future(  # the same line, started by another call before this one's
        bash["execute"]({"command": command}, harness.CancelToken()))
    while not shell.processes:
        await lab.tick()
    async with lab.background(h.prompt("Run it.")) as task:
        while len(shell.processes) < 2:
            await lab.tick()
        bystander = asyncio.ensure_future(  # another call of the same bash, the same line: not this call's
            bash["execute"]({"command": command}, harness.CancelToken()))
        late = await six_late_stops(t, t.random.randint(400, 700))  # six calls stopped late
        await lab.ticks(t.random.randint(1300, 1400))  # a command that takes a while, then Stop
        h.cancel()
        turns = 0
        while not task.done() and turns < 40:
            await lab.tick()
            turns += 1
    lasting = [[p.command, p.killed] for p in shell.processes]
    for other in (elder, bystander):
        other.cancel()
        while not other.done():
            await lab.tick()
    # bash's own result is read by its last line alone: the lesson leaves is_error of a stopped
    # command open (a bash that raises on Stop is allowed, source/wrong_designs/lesson_15_*.py)
    results = [[e["result"]["content"].splitlines()[-1:]] + ([e["result"]["is_error"]]
                                                           if e["call"]["name"] != "bash" else [])
               for e in heard if e["type"] == "tool_execution_end"]
    t.expect([turns <= 5, late, results, lasting, lab.shape(h.messages)],
             [True, [[n, True, [True]] for n in range(6)], [[["Command cancelled"]]] + [[["Operation aborted"], True]] * len(missing),
              [[command, False], [command, True], [command, False]],
              " ".join([f"U A[{','.join(f'c{n}' for n in range(1, len(missing) + 2))}]"]
                       + [f"R(c{n})" for n in range(1, len(missing) + 2)] + ["A(aborted)"])],
             "bash looks at the signal on every turn its command runs, and only Stop ends it: it "
             "kills it, and its result's last line is Command cancelled, whatever the command "
             "printed last; the signal goes to acomplete and execute by position; a call that "
             "comes up after Stop is answered ABORTED even when it names a tool nobody has, "
             "because run_tool looks at the signal before it looks the tool up (bash and "
             "run_tool, lesson 15); bash kills its own command and nothing else, not another "
             "call's command on the same shell, made by the same bash tool, started before it or "
             "after it with the very same text (round 26, r144). Items: [over within five turns of Stop, for "
             "each of six calls of bash stopped hundreds of turns in beside it, one turn after "
             "another: [n, over within five turns of its Stop, its command killed], each "
             "result as [its last line] and, after bash's, is_error, each command as [line, "
             "killed], the record].")


@lab_test("run_tool called by itself in a task on bash (bare or behind a guard) running a "
          "command that never ends. Cancelled from outside, with its token clear, the task ends "
          "cancelled and the command is dead, while another call of the same bash lives on and "
          "answers as before; closed while it waits, the command is dead too; "
          "with its token set instead, at each of six turns in a row, run_tool, over a relay "
          "whose execute names its second parameter its own way, answers within five turns on a "
          "Command cancelled line after more lines than bash's budget and half a line, and, "
          "handed that token again for a call naming a tool nobody has, answers Operation "
          "aborted. Handed no signal, over a relay whose second parameter has no default, it "
          "runs the command.")
async def test_run_tool_cancelled_while_bash_waits(t):
    rows, cases, closed, again = [], [], {}, label(t)
    others, outputs = {}, {}  # for each wrapping: another call's command, and its result
    first = t.random.randint(1, 4)  # Stop at six turns in a row from bash's first laps
    late = t.random.randint(41, 100)  # and six in a row long after the command began
    for wrapped in t.random.sample(["bare", "guarded"], 2):
        for wait in list(range(first, first + 6)) + list(range(late, late + 6)):
            budget, room = t.random.randint(3, 6), t.random.randint(20, 31)  # room: one line
            log = "".join(f"{label(t)} passed\n" for _ in range(budget + t.random.randint(2, 5)))
            shell = lab.Shell(lab.Workspace({"run.log": log + f"{label(t)} tests, 4 passed"}))
            ends = shell.ws.read_text("run.log").splitlines()
            inner = harness.make_bash_tool(shell, max_lines=budget, max_bytes=room)

            async def relay(arguments, token, inner=inner):  # the signal arrives by position
                return await inner["execute"](arguments, token)
            bash = {**inner, "execute": relay}
            if wrapped == "guarded":
                bash = harness.guard(bash, lambda name, arguments: None)
            command = "cat run.log && sleep inf"
            token = harness.CancelToken()
            call = {"type": "toolCall", "id": "c7", "name": "bash", "arguments": {"command": command}}
            task = asyncio.ensure_future(harness.run_tool([bash], call, token))
            await lab.ticks(wait)
            token.cancel()
            turns = 0
            while not task.done() and turns < 40:
                await lab.tick()
                turns += 1
            if not task.done():  # a bash that never looks: end its wait here
                task.cancel()
                while not task.done():
                    await lab.tick()
            answer = None if task.cancelled() else task.result()
            missing = {"type": "toolCall", "id": "c8", "name": f"{wrapped}_gone", "arguments": {}}
            gone = await harness.run_tool([bash], missing, token)
            kept = [] if answer is None else [
                line for line in answer["content"].splitlines()[:-1]
                if line and not line.startswith(("[Showing", "Command exited"))]
            read = await harness.run_tool([harness.make_read_tool(shell.ws)], {
                "type": "toolCall", "id": "c9", "name": "read", "arguments": {"path": "run.log"}}, token)
            echo = {"type": "toolCall", "id": "c10", "name": "bash",
                    "arguments": {"command": f"sleep {t.random.randint(1, 5)} && echo {again}"}}
            echoed = await harness.run_tool([bash], echo, harness.CancelToken())  # the next run's
            rows.append([wrapped, "flag", turns <= 5, answer and answer["content"].splitlines()[-1:],
                         answer is not None and len(answer["content"].splitlines()) <= budget + 3,
                         kept == ends[len(ends) - len(kept):]
                         and len("\n".join(kept).encode()) <= room,
                         [p.killed for p in shell.processes][:1], [gone["content"], gone["is_error"]],
                         [read["content"], read["is_error"]], echoed["content"]])
            cases.append([wrapped, "flag"])
        shell = lab.Shell(lab.Workspace({}))
        bash = harness.make_bash_tool(shell)
        if wrapped == "guarded":
            bash = harness.guard(bash, lambda name, arguments: None)
        command = f"echo {label(t)} && sleep infinity"
        word = label(t)
        others[wrapped] = f"sleep 60 && echo {word} && false"  # another call of the same bash
        earlier = asyncio.ensure_future(harness.run_tool([bash], {
            "type": "toolCall", "id": "c0", "name": "bash",
            "arguments": {"command": others[wrapped]}}, harness.CancelToken()))
        await lab.tick()
        call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": command}}
        call["arguments"]["command"] = others[wrapped]  # the very same text (round 26, r144)
        task = asyncio.ensure_future(harness.run_tool([bash], call, harness.CancelToken()))
        await lab.ticks(t.random.randint(2, 25))
        running = [p.command for p in shell.running()]
        task.cancel()
        while not task.done():
            await lab.tick()
        rows.append([wrapped, running, task.cancelled(), [[p.command, p.killed] for p in shell.processes],
                     [p.command for p in shell.running()], (await earlier)["content"]])
        cases.append([wrapped, others[wrapped]])
        outputs[wrapped] = f"{word}\n\nCommand exited with code 1"
        shell = lab.Shell(lab.Workspace({}))
        bash = harness.make_bash_tool(shell)
        if wrapped == "guarded":
            bash = harness.guard(bash, lambda name, arguments: None)
        call = {"type": "toolCall", "id": "c3", "name": "bash", "arguments": {"command": command}}
        step = harness.run_tool([bash], call, harness.CancelToken())
        for _ in range(t.random.randint(1, 6)):
            step.send(None)  # one turn of run_tool's wait, driven by hand
        step.close()  # the coroutine closed at its await: GeneratorExit, no CancelledError
        closed[wrapped] = command
        struck = harness.run_tool([bash], call, harness.CancelToken())
        for _ in range(t.random.randint(1, 6)):
            struck.send(None)
        try:  # a BaseException that is neither: the power going, a Ctrl-C
            struck.throw(t.random.choice([lab.PowerCut, KeyboardInterrupt])())
        except BaseException:  # what comes out is not judged: only what is left running
            pass
        rows.append([wrapped, "closed", [[p.command, p.killed] for p in shell.processes]])
        cases.append([wrapped, "closed"])
    t.expect(rows, [[wrapped, "flag", True, ["Command cancelled"], True, True, [True],
                     ["Operation aborted", True], ["Operation aborted", True], f"{again}\n"]
                    if command == "flag" else
                    [wrapped, "closed", [[closed[wrapped], True]] * 2] if command == "closed" else
                    [wrapped, [others[wrapped], command], True,
                     [[others[wrapped], False], [command, True]], [others[wrapped]],
                     outputs[wrapped]] for wrapped, command in cases],
             "However bash's execute is left, its command must not keep running: a cancel from "
             "outside comes out of the wait, a way out that never saw the flag, so the kill goes "
             "in a finally; with the token set, bash hears it on its next turns, and run_tool "
             "looks at the token before it looks the tool up (bash and run_tool, lesson 15). Each "
             "row, token set: [bare or guarded, \"flag\", answered within five turns, the answer's "
             "last line (is_error is left open), the answer within bash's budget of lines (what "
             "it keeps of the output is cut as any output is), what it keeps is the output's end "
             "within max_bytes, the stopped command killed, the missing tool's answer as "
             "[content, is_error], a read's answer with the same set token, the same bash's "
             "answer to a short `sleep && echo` with a clear token, another run's: a stop never carries into the "
             "next run]; cancelled from outside: [bare or guarded, the commands running "
             "before the cancel (another call's of the same bash, of the very same text, first), "
             "the task cancelled, each command as [line, killed], the commands "
             "still running, among them the other call's `sleep 60`, which bash does not end, "
             "and that call's result, its exit line kept]; closed, then left by a PowerCut or a "
             "KeyboardInterrupt raised at its await: [bare or guarded, \"closed\", each command as [line, "
             "killed]].")
    shell = lab.Shell(lab.Workspace({}))
    inner, word = harness.make_bash_tool(shell), label(t)

    async def relay(arguments, token):  # no default: run_tool hands the signal on, None too
        return await inner["execute"](arguments, token)
    call = {"type": "toolCall", "id": "c9", "name": "bash", "arguments": {"command": f"echo {word}"}}
    answer = await harness.run_tool([{**inner, "execute": relay}], call)

    class Preset:  # set before bash is called; it notes how many commands run at each look
        looks = []

        def is_cancelled(self):
            self.looks.append(len(shell.running()))
            return 1
    waiting = asyncio.ensure_future(inner["execute"]({"command": f"sleep {t.random.randint(50, 90)}"},
                                                     Preset()))
    for _ in range(8):
        if waiting.done():
            break
        await lab.tick()
    if not waiting.done():
        waiting.cancel()
        while not waiting.done():
            await lab.tick()
    if not waiting.cancelled():
        waiting.exception()  # a bash that raises on Stop is allowed: looked at, not judged here
    t.expect([[n for n in Preset.looks[1:] if n], shell.running()], [[], []],
             "Handed a signal already set, bash starts no command, or starts it and kills it at "
             "its first look, so no later look finds it running (bash, lesson 15). Items: [the "
             "looks after the first that found a command running, as how many ran, commands "
             "left running].")
    cuts = await stopped_cuts(t, "guarded")
    t.expect(cuts, [["guarded", cut[1], cut[2], True] for cut in cuts], CUT_RULE)
    late = t.random.randint(350, 600)
    t.expect([late, await six_late_stops(t, late)], [late, [[n, True, [True]] for n in range(6)]],
             "bash hears Stop within five turns however long its command has run: six calls "
             "side by side on `sleep inf`, each token set hundreds of turns in, one turn after "
             "another, so that some Stop falls on each turn between two looks (bash, lesson 15). "
             "Items: [turns before the first Stop, for each call: [n, over within five turns of "
             "its Stop, its command killed]].")
    t.expect([answer["content"], answer["is_error"]], [f"{word}\n", False],
             "run_tool with no signal still hands execute its second argument, None, so a tool "
             "whose second parameter has no default runs (run_tool, lesson 15). Items: the "
             "answer's [content, is_error].")


@lab_test("One reply asks bash for two or three commands that each need a hundred and more "
          "turns before printing a drawn count of lines, one of them over nine thousand, while "
          "each reading of the clock is a century after the last, millennia in all: a "
          "listener hears every result come back whole, none killed, and the run answers. Then "
          "bash's execute, handed no signal and awaited in a task of its own on a command that "
          "never ends, is cancelled, and another is closed at its await: each command is dead, "
          "and another harness's command on the shell lives on.")
async def test_bash_outlasts_slow_commands(t):
    shell = lab.Shell(lab.Workspace({}))
    commands = [f"sleep {t.random.randint(101, 200)} && seq {t.random.randint(1, 20)} "
                f"{t.random.randint(21, 40)}" for _ in range(t.random.randint(1, 2))]
    commands.insert(t.random.randint(0, len(commands)),  # one that takes thousands of turns
                    f"sleep {t.random.randint(9001, 9200)} && seq 1 {t.random.randint(2, 9)}")
    model = lab.ScriptedModel([lab.reply(*[lab.call("bash", {"command": c}) for c in commands]),
                               lab.say("All counted.")])
    h = harness.Harness(model, SYSTEM, [harness.make_bash_tool(shell)])
    heard = listen(h)
    with hours_pass(minutes=100 * 365 * 24 * 60):  # each reading a century on: bash times nothing
        watch = asyncio.ensure_future(watched_stop(t, t.random.randint(3100, 3300)))  # beside it
        await lab.drive(h.prompt("Count slowly."))
        watched = await watch
    lines = lambda c: "".join(f"{n}\n" for n in range(int(c.split()[-2]), int(c.split()[-1]) + 1))
    found = [[e["result"]["content"], e["result"]["is_error"]] for e in heard
             if e["type"] == "tool_execution_end"] + [[p.killed for p in shell.processes],
                                                      lab.shape(h.messages), watched]
    endless = f"sleep {t.random.choice(['inf', 'infinity'])}"
    given = t.random.choice([(), (None,)])  # no signal: left out, or None as earlier callers pass
    theirs = "sleep 1000"  # another harness's command on the same shell: not bash's to end
    shell.start(theirs)
    waiting = asyncio.ensure_future(harness.make_bash_tool(shell)["execute"](
        {"command": endless}, *given))
    await lab.ticks(t.random.randint(2, 30))
    waiting.cancel()
    while not waiting.done():
        await lab.tick()
    found.append([waiting.cancelled(), [[p.command, p.killed] for p in shell.processes[len(commands):]]])
    step = harness.make_bash_tool(shell)["execute"]({"command": endless}, *given)
    for _ in range(t.random.randint(1, 6)):
        step.send(None)  # one turn of bash's wait, driven by hand
    step.close()  # left by GeneratorExit: no CancelledError, no flag
    struck = harness.make_bash_tool(shell)["execute"]({"command": endless}, *given)
    for _ in range(t.random.randint(1, 6)):
        struck.send(None)
    try:
        struck.throw(t.random.choice([lab.PowerCut, KeyboardInterrupt])())  # no Exception either
    except BaseException:  # what bash lets out is not judged: only what it leaves running
        pass
    found.append([[p.command, p.killed] for p in shell.processes[len(commands) + 2:]])
    t.expect(found,
             [[lines(c), False] for c in commands] + [[False] * len(commands),
                                                      " ".join([f"U A[{','.join(f'c{n}' for n in range(1, len(commands) + 1))}]"]
                                                               + [f"R(c{n})" for n in range(1, len(commands) + 1)] + ["A"]),
                                                      [watched[0], True, True, [True]],
                                                      [True, [[theirs, False], [endless, True]]],
                                                      [[endless, True], [endless, True]]],
             "A command that merely takes a while, hundreds of turns, is waited for and its "
             "output comes back as before: bash has no timeout of its own, only Stop ends a "
             "command early; and however its execute is left, a cancel from outside included, "
             "with a signal or without, the command does not keep running, and another "
             "harness's command on the shell is not bash's to end; and bash looks at its signal "
             "at least every fifth turn however long its command has run (bash, lesson 15). Items: each result as [content, "
             "is_error], then [each command killed], the record, then, for a bash call beside "
             "the run handed a frontend's flag that notes the turn of each read and is set "
             "thousands of turns in: [turns before the flag was set, no two reads more than five "
             "turns apart, over within five turns of it, its command killed], then [the cancelled execute's "
             "task cancelled, the other harness's command and its own as [line, killed]], then the closed execute's command "
             "and that of one left by a PowerCut or KeyboardInterrupt raised at its await, each "
             "as [line, killed].")


@lab_test("run_tool on bash, over a command that prints more lines than bash's budget and then "
          "waits for ever, with Stop pressed at each of six turns in a row from its first laps, "
          "and six more dozens of turns in, while another call of the same bash, started after it, "
          "waits on the same command line: each time the answer comes within five turns, on a "
          "Command cancelled line, within the budget of lines and bytes, keeping the output's "
          "end, and the other call's command lives on; the last of those bash tools, called again with a "
          "clear token, waits out its command, and a read after Stop is answered Operation "
          "aborted. Then bash with no signal: a command of over nine thousand turns is waited "
          "out (run_tool handing "
          "execute None), and one that never ends dies with the task that awaited it.")
async def test_bash_hears_stop_wherever_it_falls(t):
    budget, first, room = t.random.randint(3, 6), t.random.randint(1, 2), t.random.randint(15, 30)
    late = t.random.randint(41, 70)  # and six in a row long after the command began
    printed = "".join(f"{label(t)}\n" for _ in range(budget + t.random.randint(3, 6)))
    ends = printed.splitlines()
    rows = []
    waits = list(range(first, first + 6)) + list(range(late, late + 6))
    for wait in waits:
        shell = lab.Shell(lab.Workspace({"out.txt": printed}))
        token = harness.CancelToken()
        call = {"type": "toolCall", "id": "c2", "name": "bash",
                "arguments": {"command": "cat out.txt && sleep inf"}}
        bash = harness.make_bash_tool(shell, max_lines=budget, max_bytes=room)
        task = asyncio.ensure_future(harness.run_tool([bash], call, token))
        await lab.tick()
        bystander = asyncio.ensure_future(harness.run_tool([bash], {  # another call, same tool
            "type": "toolCall", "id": "c1", "name": "bash",  # and the same line, started after
            "arguments": {"command": "cat out.txt && sleep inf"}}, harness.CancelToken()))
        await lab.ticks(wait - 1)
        token.cancel()
        turns = 0
        while not task.done() and turns < 40:
            await lab.tick()
            turns += 1
        if not task.done():
            task.cancel()
            while not task.done():
                await lab.tick()
        lines = [] if task.cancelled() else task.result()["content"].splitlines()
        kept = [line for line in lines[:-1]
                if line and not line.startswith(("[Showing", "Command exited"))]
        killed = [p.killed for p in shell.processes]
        other = bystander.done()
        bystander.cancel()
        while not bystander.done():
            await lab.tick()
        rows.append([wait, turns <= 5, lines[-1:], len(lines) <= budget + 3,
                     kept == ends[len(ends) - len(kept):]
                     and len("".join(f"{line}\n" for line in kept).encode()) <= room,
                     killed, other])
    word, pause = label(t), t.random.randint(2, 9)  # the last stopped bash, called again
    again = await harness.run_tool([bash], {"type": "toolCall", "id": "c4", "name": "bash", "arguments": {
        "command": f"sleep {pause} && echo {word} && false"}}, harness.CancelToken())
    read = await harness.run_tool([harness.make_read_tool(lab.Workspace({"out.txt": printed}))],
                                  {"type": "toolCall", "id": "c5", "name": "read",
                                   "arguments": {"path": "out.txt"}}, token)
    shell = lab.Shell(lab.Workspace({}))
    slow = t.random.randint(9001, 9200)  # with the Stops above, inside a test's 10,000 turns
    inner = harness.make_bash_tool(shell)

    async def relay(arguments, token):  # no default: run_tool hands the signal on, None too
        return await inner["execute"](arguments, token)
    call = {"type": "toolCall", "id": "c3", "name": "bash",
            "arguments": {"command": f"sleep {slow} && echo done"}}
    with hours_pass(minutes=100 * 365 * 24 * 60):  # each reading a century on: millennia
        watch = asyncio.ensure_future(watched_stop(t, t.random.randint(3100, 3300)))  # beside it
        output = (await harness.run_tool([{**inner, "execute": relay}], call))["content"]
        watched = await watch
    endless = asyncio.ensure_future(harness.make_bash_tool(shell)["execute"]({"command": "sleep inf"}))
    await lab.ticks(t.random.randint(2, 20))
    endless.cancel()
    while not endless.done():
        await lab.tick()
    ahead = lab.Shell(lab.Workspace({}))
    seen = []

    class Preset:  # set before bash is called; it notes how many commands run at each look
        def is_cancelled(self):
            seen.append(len(ahead.running()))
            return True
    preset = asyncio.ensure_future(harness.make_bash_tool(ahead)["execute"](
        {"command": "sleep inf"}, Preset()))
    for _ in range(8):
        if preset.done():
            break
        await lab.tick()
    if not preset.done():
        preset.cancel()
        while not preset.done():
            await lab.tick()
    if not preset.cancelled():
        preset.exception()  # a bash that raises on Stop is allowed: looked at, not judged here
    cuts = await stopped_cuts(t, "bare")
    t.expect(cuts, [["bare", cut[1], cut[2], True] for cut in cuts], CUT_RULE)
    t.expect([[n for n in seen[1:] if n], ahead.running()], [[], []],
             "Handed a signal already set, bash starts no command, or starts it and kills it at "
             "its first look: no look after the first finds it running (bash, lesson 15). Items: "
             "[the looks after the first that found a command running, as how many ran, commands "
             "left running].")
    t.expect([rows, [again["content"], again["is_error"]], [read["content"], read["is_error"]], output,
              [[p.command, p.killed] for p in shell.processes], watched],
             [[[wait, True, ["Command cancelled"], True, True, [True, False], False]
               for wait in waits],
              [f"{word}\n\nCommand exited with code 1", False], [harness.ABORTED, True],
              "done\n", [[f"sleep {slow} && echo done", False], ["sleep inf", True]],
              [watched[0], True, True, [True]]],
             "bash hears Stop wherever it falls, within five turns, ends its result on the line "
             "Command cancelled and keeps whatever output it returns within its budget, the end "
             "of the output within both max_lines and max_bytes; it has no "
             "timeout of its own, and however its execute is left, with a signal or without, its "
             "command does not keep running; run_tool with no signal hands execute None as its "
             "second argument (bash and run_tool, lesson 15). Items: [for each Stop: [turns into "
             "the command, answered within five, the last line, the answer within the budget of "
             "lines, what it keeps of the output is its end within max_bytes, each command "
             "killed, bash's, then the same line another call of the same bash tool started "
             "after it: bash kills its own and nothing else, the other call ended]], the last stopped bash called again with a clear token of another run, "
             "which waits out its command and keeps its exit line (a stop never carries into the next run), a read "
             "called with the set token, answered ABORTED like any call after Stop, the slow command's output (through run_tool with no "
             "signal, over a relay whose second parameter has no default), each command of the "
             "unsignalled calls as [line, killed], then, for a bash call beside the slow one "
             "handed a frontend's flag that notes the turn of each read and is set thousands of "
             "turns in: [turns before it was set, no two reads more than five turns apart, over "
             "within five turns of it, its command killed]: bash hears Stop however long its "
             "command has run.")
