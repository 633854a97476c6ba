"""Lesson 15, lab 2: insist. The tests of stop_run, and of run_tool letting a cancelled task
through.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 15 tests.py
"""
import asyncio

import harness
import lab
from lab.kit import hours_pass, lab_test, tool

LAB = "15.2"
SYSTEM = "You help with a small project."
NO_ARGUMENTS = {"type": "object", "properties": {}}


TARGET = {"type": "object", "properties": {"target": {"type": "string"}}}
NOUNS = ["docs", "wheel", "assets", "schema", "bundle", "report", "index", "site", "api", "cli"]


def word(t):
    """A drawn name, a noun and a number, so that two seeds rarely share one."""
    return f"{t.random.choice(NOUNS)}{t.random.randint(10, 99999)}"


def endless(t):
    """A drawn bash command line that prints a word, then waits for ever."""
    return f"echo {word(t)} && sleep {t.random.choice(['inf', 'infinity'])}"


def deaf_build(shell, command="sleep inf"):
    """A build tool that awaits `command` and never looks at its signal."""
    async def execute(arguments, signal=None):
        return (await shell.arun(command))[0]
    return {"name": "build", "description": "Build the project; it takes for ever.",
            "parameters": TARGET, "execute": execute}


def started(tools, call, *more):
    """A harness whose model first asks for `call`, then answers whatever comes next by naming
    the newest prompt and counting the prompts so far."""
    def answer(request):
        prompts = [m["content"] for m in request.messages if m["role"] == "user"]
        return lab.say(f"Answer {len(prompts)} to {prompts[-1]}")
    model = lab.ScriptedModel([lab.reply(call), *more, lab.forever(answer)])
    return harness.Harness(model, SYSTEM, tools), model


async def run_in_a_task(h, text, turns=20):
    """The run, consumed in a task of its own as a frontend would, after `turns` turns."""
    return await run_in_a_task_of(lab.drive(h.prompt(text)), turns)


async def run_in_a_task_of(frontend, turns=20):
    """The coroutine `frontend` in a task of its own, after `turns` turns."""
    task = asyncio.ensure_future(frontend)
    await lab.ticks(turns)
    return task


async def stop_and_watch(h, task, grace):
    """stop_run(h, task, grace=grace) in a task of its own, watched turn by turn: its answer,
    and how long it went on after `task` was done. "At once": for a clean stop, by the end of the
    turn after the one in which the task ended, the turn a look at task.done() takes; for a hard
    one, a turn later, since awaiting the task wakes stop_run on the turn after the task ends."""
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=grace))
    after = 0
    while not stopper.done():
        await lab.tick()
        after += task.done()
    allowed = 1 if stopper.result() == "clean" else 2
    return stopper.result(), "at once" if after <= allowed else f"{after} turns later"


def processes(shell):
    """Each command the shell started: [command line, killed, what it printed] (None for what
    it printed while it still runs)."""
    return [[p.command, p.killed, p.output()[0] if p.done() else None] for p in shell.processes]


async def turns_taken_by(awaitable):
    """What `awaitable` gives, awaited in this task, and the turns of the event loop that passed
    meanwhile: 0 when it never gave up the floor."""
    turns = [0]

    async def count():
        while True:
            turns[0] += 1
            await asyncio.sleep(0)
    counter = asyncio.ensure_future(count())
    try:
        return await awaitable, turns[0]
    finally:
        counter.cancel()


def outcome(task):
    """How a task stands: "running", "cancelled", "raised KIND: MESSAGE", or what it returned."""
    if not task.done():
        return "running"
    if task.cancelled():
        return "cancelled"
    if task.exception() is not None:
        return f"raised {type(task.exception()).__name__}: {task.exception()}"
    return task.result()


def counting_asks(token, asked, task):
    """Count each press of the run's token, `token.cancel()`, made from outside the run's `task`
    (through harness.cancel() or not) into `asked`; False when the token takes no such wrapper."""
    def counted():
        if asyncio.current_task() is not task:
            asked.append("asked")
        return press()
    try:
        press = token.cancel
        token.cancel = counted
    except AttributeError:
        return False
    return True


def deaf_and_slow_to_die(release=None, slow=0, told=None):
    """A build tool that never looks at its signal. Cancelled, it notes in `told` whether its
    signal was set by then, and dies after `slow` turns, or once the future `release` is done."""
    async def execute(arguments, signal=None):
        try:
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            if told is not None:
                told.append(signal is not None and signal.is_cancelled())
            await lab.ticks(slow)
            if release is not None:
                await release
            raise
    return {"name": "build", "description": "Build; deaf, and slow to stop.",
            "parameters": TARGET, "execute": execute}


@lab_test("With bash waiting on a command that never ends, stop_run(h, task, grace) with a grace "
          "of at least five turns answers \"clean\": setting the flag sufficed, so the task "
          "finished on its own, uncancelled, its record closing on the cancelled command's "
          "result and then the aborted message.")
async def test_stop_run_is_clean_when_the_tool_looks(t):
    shell = lab.Shell(lab.Workspace({}))
    command, prompt = endless(t), f"Run the tests of {word(t)}."
    grace = t.random.choice([5, t.random.randint(6, 10 ** 4), 10 ** 9])
    h, _ = started([harness.make_bash_tool(shell)], lab.call("bash", {"command": command}))
    task = await run_in_a_task(h, prompt, t.random.randint(20, 60))
    with hours_pass(minutes=10 ** t.random.randint(3, 6)):  # days to years at each reading
        answer = await harness.stop_run(h, task, grace=grace)
    t.expect([grace, answer], [grace, "clean"],
             "stop_run asks first: harness.cancel(), then up to `grace` turns for the run to "
             "finish by itself (stop_run, lesson 15). The grace counts turns of the event loop, "
             "never seconds: here the machine's clock said days went by at each reading "
             "(time.monotonic, time.time, time.perf_counter), and bash still ended the run within "
             "its grace. Items: [grace, stop_run's answer].")
    t.expect([task.done(), task.cancelled()], [True, False],
             "A clean stop leaves the task finished and not cancelled.")
    t.expect([h.messages[0]["content"], lab.shape(h.messages)],
             [prompt, "U A[c1] R(c1) A(aborted)"],
             "The run wound up the polite way: a result, then the aborted message. Items: [the "
             "prompt on the record, the record].")
    t.expect(h.messages[2]["content"].splitlines()[-1], "Command cancelled",
             "bash's result says the command was cancelled.")
    t.expect(processes(shell), [[command, True, command.split()[1] + "\n"]],
             "bash saw the flag and returned, and its finally killed the command, which keeps "
             "what it printed (bash, lesson 15). Each item: [command, killed, printed].")


@lab_test("A tool that awaits a command that never ends and ignores its signal gets \"hard\" "
          "from stop_run, whatever the grace: the task ends cancelled, the CancelledError passes "
          "run_tool without turning into a result, and is_running is False afterwards.")
async def test_stop_run_insists_when_the_tool_is_deaf(t):
    shell = lab.Shell(lab.Workspace({}))
    command, target, grace = endless(t), word(t), t.random.randint(0, 40)
    h, _ = started([deaf_build(shell, command)], lab.call("build", {"target": target}))
    task = await run_in_a_task(h, f"Build {target}.", t.random.randint(20, 60))
    t.expect([grace, await harness.stop_run(h, task, grace=grace)], [grace, "hard"],
             "When the run has not finished after `grace` turns, stop_run cancels the task "
             "and says \"hard\" (stop_run, lesson 15). Items: [grace, stop_run's answer].")
    t.expect(lab.shape(h.messages), "U A[c1]",
             "A cancelled task is not a failed tool: run_tool must let CancelledError through, "
             "so c1 has no result at all (run_tool, lesson 15).")
    t.expect([task.done(), task.cancelled(), h.is_running], [True, True, False],
             "The task is over and cancelled when stop_run returns: it must await the task it "
             "cancelled. The run is no longer running.")
    t.expect([[p.command for p in shell.running()], h.messages[1]["content"][0]["arguments"]],
             [[command], {"target": target}],
             "A hard stop ends the waiting, not the work: the deaf tool's command still runs. "
             "Items: [the commands still running, the arguments of the call on the record].")
    again = t.random.choice([0, grace + 5, 10 ** 9])
    t.expect([again, *await turns_taken_by(harness.stop_run(h, task, grace=again))],
             [again, "clean", 0],
             "A task that was over already is \"clean\" at once, even one that stop_run itself "
             "stopped hard a moment before: each call answers for what it had to do, and this one "
             "had nothing to do (stop_run, lesson 15). Items: [grace, a second stop_run's answer on "
             "the task the first one stopped hard, the turns it waited].")

    async def swallows(arguments, signal=None):
        try:
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            return f"{target} interrupted"  # swallowed: the task will not end cancelled
    h, _ = started([{"name": "build", "description": "Build; deaf, and it swallows a cancel.",
                     "parameters": TARGET, "execute": swallows}], lab.call("build", {"target": target}))
    task = await run_in_a_task(h, f"Build {target}.", t.random.randint(20, 60))
    answer = await harness.stop_run(h, task, grace=grace)
    t.expect([grace, answer, task.done(), task.cancelled(), lab.shape(h.messages)],
             [grace, "hard", True, False, "U A[c1] R(c1) A(aborted)"],
             "stop_run had to cancel this task, so the answer is \"hard\", even though the tool "
             "swallowed the cancellation and the task ended uncancelled: the answer comes from "
             "what stop_run had to do, not from task.cancelled() (stop_run, lesson 15). Items: "
             "[grace, answer, task done, task cancelled, the record].")


@lab_test("Zero grace against bash on a command that never ends: stop_run has to say \"hard\", "
          "yet bash's command ends up killed anyway.")
async def test_a_hard_stop_still_kills_the_command(t):
    shell = lab.Shell(lab.Workspace({}))
    command = endless(t)
    h, _ = started([harness.make_bash_tool(shell)], lab.call("bash", {"command": command}))
    task = await run_in_a_task(h, f"Run the tests of {word(t)}.", t.random.randint(20, 60))
    t.expect(await harness.stop_run(h, task, grace=0), "hard",
             "With no grace there is no time to notice the flag: it is a hard stop.")
    t.expect(processes(shell), [[command, True, command.split()[1] + "\n"]],
             "The cancellation arrives inside bash's `await asyncio.sleep(0)`, a way out that "
             "never saw the flag, and the process must be killed on that way out too: kill it "
             "in a finally (bash, lesson 15). Each item: [command, killed, printed].")
    t.expect(lab.shape(h.messages), "U A[c1]", "The killed call has no result on the record.")


@lab_test("Put the deaf tool behind lesson 14's guard, whose check lets the call through, and "
          "stop_run still says \"hard\": the task is cancelled, and the guard never reports the "
          "cancellation as a refusal.")
async def test_the_guard_lets_a_cancellation_through(t):
    shell = lab.Shell(lab.Workspace({}))
    command, target, asked = endless(t), word(t), []

    def watching(name, arguments):
        asked.append([name, arguments])
        return harness.deny_destructive(name, arguments)
    h, _ = started([harness.guard(deaf_build(shell, command), watching)],
                   lab.call("build", {"target": target}))
    task = await run_in_a_task(h, f"Build {target}.", t.random.randint(20, 60))
    t.expect(await harness.stop_run(h, task, grace=t.random.randint(0, 40)), "hard",
             "A guarded deaf tool is still deaf: stop_run must insist.")
    t.expect([task.cancelled(), lab.shape(h.messages)], [True, "U A[c1]"],
             "The guard catches only what its check raises; a CancelledError from the real "
             "tool passes through it and through run_tool (guard, lessons 14 and 15).")
    t.expect([asked, [p.command for p in shell.running()]],
             [[["build", {"target": target}]], [command]],
             "The check was asked once, and let the deaf tool run its command (guard, lesson "
             "14). Items: [[name, arguments] for each question to the check, the commands "
             "still running].")


@lab_test("Following a hard stop, the session log and the record agree and one to four more "
          "prompts get replies; the model sees the killed call as interrupted, with "
          "no code written for that case.")
async def test_life_after_a_hard_stop(t):
    ws = lab.Workspace({})
    shell = lab.Shell(ws)
    h, model = started([deaf_build(shell, endless(t))], lab.call("build", {"target": word(t)}))
    log = harness.SessionLog(ws, "session.jsonl")
    h.subscribe(harness.persist_to(log))
    task = await run_in_a_task(h, f"Build {word(t)}.", t.random.randint(20, 60))
    grace = t.random.choice([None, t.random.randint(0, 40)])
    answer = await (harness.stop_run(h, task) if grace is None
                    else harness.stop_run(h, task, grace=grace))
    t.expect([grace, answer], [grace, "hard"], "The deaf build needs a hard stop, whatever the "
                                               "grace. Items: [grace (None: the default), answer].")
    t.expect(lab.shape(log.replay()), lab.shape(h.messages),
             "The log holds what the record holds: each message was saved as it completed "
             "(persist_to, lesson 11).")
    later = [f"What happened to {word(t)}?" for _ in range(t.random.randint(1, 4))]
    for text in later:
        await lab.drive(h.prompt(text))
    t.expect(lab.shape(h.messages), "U A[c1]" + " U A" * len(later),
             "Every prompt is answered after the hard stop (Harness, lesson 15).")
    t.expect([harness.text_of(m) for m in h.messages if m["role"] == "assistant"][1:],
             [f"Answer {n + 2} to {text}" for n, text in enumerate(later)],
             "The answers are the model's replies, one to each later prompt, in order.")
    sent = model.calls[-1].messages
    t.expect([m["content"] for m in sent if m["role"] == "toolResult"], [harness.INTERRUPTED],
             "The next requests show the killed call as interrupted: context_for_model repairs "
             "the view before each request (lesson 10).")
    t.expect(lab.validate(sent), [], "Every request after a hard stop is one a provider accepts.")
    t.expect(log.replay() == list(h.messages), True, "The log and the record still agree.")


@lab_test("grace counts event-loop turns. A tool that notices the flag and then spends some "
          "turns tidying up finishes \"clean\" under a grace well above them, its result on the "
          "record, and stop_run returns as soon as the task is done, not after all its grace; "
          "under a grace below them it is \"hard\", and at the boundary, of a few turns or "
          "hundreds, a grace of exactly the turns the run needs is \"clean\" and one fewer "
          "\"hard\". A task that is over "
          "already, finished or cancelled by somebody else, is \"clean\" at once, with no "
          "turn spent, whatever the grace.")
async def test_grace_is_counted_in_turns(t):
    tidy = t.random.randint(5, 40)

    def slow_to_finish(what, turns=tidy):
        async def execute(arguments, signal=None):
            while not signal.is_cancelled():
                await asyncio.sleep(0)
            await lab.ticks(turns)  # tidying up
            return f"stopped after tidying up {what}"
        return {"name": "build", "description": "Build, and tidy up when stopped.",
                "parameters": NO_ARGUMENTS, "execute": execute}

    roomy = t.random.choice([tidy + 40, t.random.randint(tidy + 40, 10 ** 4), 10 ** 9])
    for grace in t.random.sample([roomy, t.random.randint(0, tidy)], 2):
        what = word(t)
        h, _ = started([slow_to_finish(what)], lab.call("build"))
        task = await run_in_a_task(h, f"Build {word(t)}.", t.random.randint(20, 60))
        answer, returned = await stop_and_watch(h, task, grace)
        t.expect([grace, answer, lab.shape(h.messages),
                  h.messages[2]["content"] if len(h.messages) > 2 else None],
                 [grace, "clean", "U A[c1] R(c1) A(aborted)", f"stopped after tidying up {what}"]
                 if grace > tidy else [grace, "hard", "U A[c1]", None],
                 f"stop_run gives the run `grace` turns of the event loop, and no more, to "
                 f"finish by itself; this tool needs {tidy} turns after Stop (stop_run, lesson "
                 f"15). Items: [grace, answer, the record, c1's result or None].")
        t.expect([grace, returned], [grace, "at once"],
                 "stop_run leaves its grace loop the moment the task is done: it looks at "
                 "task.done() before each turn it waits, and spends no turn waiting once it is "
                 "done, not even one. A grace is at most that many turns, not a wait of that many "
                 "(stop_run, lesson 15). Items: [grace, when stop_run returned after the task was "
                 "done: \"at once\" is by the end of the next turn, for a clean stop].")
    long, what = t.random.randint(1500, 5000), word(t)  # a long tidy-up, a billion turns' grace
    huge = 10 ** 9 + t.random.randint(1, 10 ** t.random.randint(1, 30))  # or more: no turn costs
    h, _ = started([slow_to_finish(what, long)], lab.call("build"))
    task = await run_in_a_task(h, f"Build {word(t)}.", t.random.randint(20, 60))
    answer, returned = await stop_and_watch(h, task, huge)
    t.expect([long, answer, returned, lab.shape(h.messages),
              h.messages[2]["content"] if len(h.messages) > 2 else None],
             [long, "clean", "at once", "U A[c1] R(c1) A(aborted)", f"stopped after tidying up {what}"],
             "A grace of a billion turns is a billion turns, with no cap of stop_run's own, and a "
             "grace of more than a billion is looked through turn by turn like any: this "
             "tool needs some thousands of turns after Stop to tidy up, well within it, so the run "
             "ends by itself and the answer is \"clean\", and stop_run returns at once, with no "
             "turn spent waiting once the task is done (stop_run, lesson 15). Items: [the "
             "turns the tool tidies, answer, when stop_run returned, the record, c1's result].")
    turns = t.random.randint(20, 60)  # the run's turns before Stop, the same for every run
    h, _ = started([slow_to_finish(word(t))], lab.call("build"))
    task = await run_in_a_task(h, "Build it.", turns)
    h.cancel()  # Stop alone, to count the turns this harness and tool need to finish
    needed = 0
    while not task.done() and needed < 2000:
        await asyncio.sleep(0)
        needed += 1
    edge = t.random.randint(201, 400)  # hundreds of turns of tidying: the run needs that many more
    rows = [[tidy, task.done()], [edge, task.done()]]
    for row, graces in zip(rows, ((needed, needed - 1), (needed + edge - tidy,))):
        for grace in graces:  # N and N - 1; at hundreds, N alone (cost: a run of that length)
            h, _ = started([slow_to_finish(word(t), row[0])], lab.call("build"))
            task = await run_in_a_task(h, "Build it.", turns)
            row.append(list(await stop_and_watch(h, task, grace)))
    t.expect(rows, [[tidy, True, ["clean", "at once"], ["hard", "at once"]],
                    [edge, True, ["clean", "at once"]]],
             "At the boundary: a run that finishes N turns after harness.cancel() (N counted on "
             "your harness, with this tool) is \"clean\" under a grace of exactly N, and "
             "\"hard\" under N - 1; and a run that needs hundreds of turns is \"clean\" under a "
             "grace of exactly those. `grace` turns means that many, at every size: after the "
             "grace-th turn stop_run looks once more before it insists, and when that look finds the task "
             "done it answers at once: it spends no turn waiting once the task is done "
             "(stop_run, lesson 15). Each row: [the turns the tool tidies, the run finished "
             "after Stop alone (a tool that tidies hundreds of turns needs that many more), [the "
             "answer, when stop_run returned after the task was done] with grace N, with grace "
             "N - 1 (for the tool of a few turns)].")
    hello = f"Hello from {word(t)}."
    h = harness.Harness(lab.ScriptedModel([lab.say(hello)]), SYSTEM, [])
    done = asyncio.ensure_future(lab.drive(h.prompt("Say hello.")))
    await done
    shell = lab.Shell(lab.Workspace({}))
    other, _ = started([deaf_build(shell, endless(t))], lab.call("build", {"target": word(t)}))
    cancelled = await run_in_a_task(other, "Build it.", t.random.randint(20, 60))
    cancelled.cancel()  # stopped by somebody else, a frontend's own cancel, before stop_run
    while not cancelled.done():
        await lab.tick()
    saving = t.random.randint(4, 20)  # the frontend's own work once its run is over

    async def frontend(h):
        await lab.drive(h.prompt("Say hello again."))
        await lab.ticks(saving)  # saving the session, say: the run is over, the task is not
    h2 = harness.Harness(lab.ScriptedModel([lab.say(hello)]), SYSTEM, [])
    task = asyncio.ensure_future(frontend(h2))
    while h2.is_running or not h2.messages:
        await lab.tick()
    answer = await harness.stop_run(h2, task, grace=saving + 40)
    t.expect([saving, h2.is_running, answer, task.done()], [saving, False, "clean", True],
             "When stop_run returns, the task is over: not only the run it consumes. A frontend "
             "task with turns of its own work left after its run ended is given the grace like "
             "any other; harness.is_running is not the task (stop_run, lesson 15). Items: [the "
             "task's turns after its run, is_running, answer, the task over on return].")
    short = t.random.randint(1, saving - 3)  # a look or more; the frontend still saves
    rows = []
    for run_ended in ("by itself", "on Stop"):
        h3 = harness.Harness(lab.ScriptedModel([lab.say(hello)]), SYSTEM, [])
        task = asyncio.ensure_future(frontend(h3))
        await lab.tick()  # the frontend has handed its prompt to the harness
        if run_ended == "on Stop":
            h3.cancel()  # the run ends on an aborted message; the frontend then saves
        while h3.is_running or not h3.messages:
            await lab.tick()
        answer = await harness.stop_run(h3, task, grace=short)
        rows.append([run_ended, lab.shape(h3.messages), h3.is_running, answer, outcome(task)])
    t.expect([saving, short, rows],
             [saving, short, [["by itself", "U A", False, "hard", "cancelled"],
                              ["on Stop", "U A(aborted)", False, "hard", "cancelled"]]],
             "A frontend still at its own work when the grace runs out is cancelled and waited "
             "for like any task: its run is over, but the task is not, so the answer is \"hard\" "
             "and the task ended cancelled by the time stop_run returns, even when the record "
             "already ends on the aborted message: the run over is not the task over (stop_run, "
             "lesson 15). Items: [the task's turns after its run, grace, and for a run that "
             "ended by itself and one that ended on Stop: [how, the record, is_running, answer, "
             "the task on return]].")
    rows, wanted = [], []
    for name, owner, over in (("finished", h, done), ("cancelled by another", other, cancelled)):
        for grace in (0, t.random.choice([50, 10 ** 9, t.random.randint(1, 10 ** 4)])):
            answer, waited = await turns_taken_by(harness.stop_run(owner, over, grace=grace))
            rows.append([name, grace, answer, waited])
            wanted.append([name, grace, "clean", 0])
    t.expect(rows + [harness.text_of(h.messages[-1])], wanted + [hello],
             "A task that is over already needs no stopping: \"clean\" at once, with no turn "
             "spent waiting, whatever the grace and however it ended, even cancelled by "
             "somebody else. stop_run looks at task.done() before it waits a turn, and the "
             "answer comes from what stop_run had to do, not from task.cancelled() (stop_run, "
             "lesson 15). Items: [how the task ended, grace, answer, turns stop_run waited], "
             "then the last message's text, which stays.")
    h4 = harness.Harness(lab.ScriptedModel([lab.say(hello), lab.say(hello),
                                            lab.reply(lab.call("build")),
                                            lab.say(f"Built {word(t)}.")]),
                         SYSTEM, [slow_to_finish(word(t))])
    first = asyncio.ensure_future(lab.drive(h4.prompt("Say hello.")))
    await first
    second = asyncio.ensure_future(frontend(h4))
    while h4.is_running or len(h4.messages) < 4:
        await lab.tick()
    second.cancel()  # the frontend cancels its own task while it saves: over, and cancelled
    while not second.done():
        await lab.tick()
    newer = await run_in_a_task(h4, "Build it.", t.random.randint(20, 60))
    row = []
    for over, grace in ((first, 0), (second, t.random.randint(0, 300))):  # 0: no grace to look in
        answer, waited = await turns_taken_by(harness.stop_run(h4, over, grace=grace))
        row.append([answer, waited])
    await lab.ticks(tidy + 40)  # time enough for the newer run to end, had it been asked to
    row += [h4.is_running, newer.done()]
    answer = await harness.stop_run(h4, newer, grace=tidy + 40)
    t.expect(row + [answer, lab.shape(h4.messages)],
             [["clean", 0], ["clean", 0], True, False, "clean",
              "U A U A U A[c1] R(c1) A(aborted)"],
             "Handed a task that is over already, finished or cancelled by somebody else, "
             "stop_run asks nothing of the harness: its run may by now be another one, which "
             "nobody asked to stop. The newer run goes on, and a stop_run handed its own task "
             "stops it as ever (stop_run, lesson 15). Items: [answer, turns waited] for the "
             "finished task and for the cancelled one, the newer run still going (is_running, "
             "its task done) a while later, then the answer for the newer run's task, the record.")
    kept = []  # a tool of a finished run that keeps its signal, as a background job might

    async def keeps(arguments, signal=None):
        kept.append(signal)
        return "started in the background"
    h9, _ = started([{"name": "build", "description": "Build in the background.",
                      "parameters": NO_ARGUMENTS, "execute": keeps}], lab.call("build"))
    over = asyncio.ensure_future(lab.drive(h9.prompt("Build it.")))
    await over
    grace = t.random.choice([0, t.random.randint(1, 300)])
    answer, waited = await turns_taken_by(harness.stop_run(h9, over, grace=grace))
    t.expect([grace, answer, waited, h9.is_running, [s.is_cancelled() for s in kept]],
             [grace, "clean", 0, False, [False]],
             "Handed a task that is over already, stop_run asks nothing of the harness, idle or "
             "not: asking an idle harness sets the flag of the run that is over, and a tool of "
             "that run that kept its signal, a job it left in the background, would read it as "
             "Stop (stop_run, the lab's Build, item 2). Items: [grace, answer, turns waited, "
             "is_running, whether the signal the finished run's tool kept is set].")
    async def two_runs(h):  # a frontend that, its run stopped, starts another at once
        await lab.drive(h.prompt("Build it."))
        await lab.drive(h.prompt("Now say hello."))
    h7, _ = started([slow_to_finish(word(t), t.random.randint(1, 5))], lab.call("build"))
    task = asyncio.ensure_future(two_runs(h7))
    await lab.ticks(t.random.randint(20, 60))
    answer = await harness.stop_run(h7, task, grace=t.random.randint(400, 600))
    t.expect([answer, lab.shape(h7.messages), harness.text_of(h7.messages[-1])],
             ["clean", "U A[c1] R(c1) A(aborted) U A", "Answer 2 to Now say hello."],
             "stop_run asks the harness once: a run the frontend starts during the grace is "
             "not the one it was asked to stop. Here the stopped run ended within the grace and "
             "the frontend at once started a second, which must run to its answer, not end "
             "aborted because stop_run asked again (stop_run, the lab's Build, item 2). Items: "
             "[answer, the record, its last message's text].")
    tidy8, before = t.random.randint(1, 5), t.random.randint(20, 60)

    def two_runs_second_deaf(told):  # the second run, started during the grace, waits on a deaf tool
        h, _ = started([slow_to_finish(word(t), tidy8), {**deaf_and_slow_to_die(told=told),
                                                         "name": "wait"}],
                       lab.call("build"), lab.reply(lab.call("wait", {"target": word(t)})))
        return h, asyncio.ensure_future(two_runs(h))
    probe, task = two_runs_second_deaf([])
    await lab.ticks(before)
    probe.cancel()  # Stop alone, to count the turns this harness takes to begin the second run
    begun = 0
    while len(probe.messages) < 5 and begun < 500:
        await lab.tick()
        begun += 1
    task.cancel()
    while not task.done():
        await lab.tick()
    rows = []
    for grace in (begun + t.random.randint(3, 10), begun + t.random.randint(11, 80)):
        told = []
        h8, task = two_runs_second_deaf(told)
        await lab.ticks(before)
        rows.append([await harness.stop_run(h8, task, grace=grace), lab.shape(h8.messages), told])
    t.expect(rows, why=(
        "stop_run asks the harness once, before its grace, however short or long the grace: the "
        "first run ended within it, and "
        "the second, which the frontend started at once, was never asked to stop; when the "
        "grace ran out with the task still going, stop_run insisted, and the second run's tool "
        "met the cancellation with its signal clear, since nobody had asked that run to stop "
        "(stop_run, the lab's Build, item 2: \"Nor does it ask twice\"). Each row, for a grace "
        "a few turns past the turns your harness takes to begin the second run after Stop, then "
        "for a longer one: [answer, lab.shape of the record, whether the deaf tool's signal was "
        "set when the cancellation reached it]."))
    told = []
    h9, task = two_runs_second_deaf(told)
    await lab.ticks(before)
    stopper = asyncio.ensure_future(harness.stop_run(h9, task, grace=10 ** 9))
    while len(h9.messages) < 6 and not task.done():  # the second run waits on its deaf tool
        await lab.tick()
    stopper.cancel()  # stop_run cancelled during its grace, the second run under way
    ended = "returned"
    try:
        await stopper
    except asyncio.CancelledError:
        ended = "cancelled"
    task.cancel()  # the frontend's own cancel, once stop_run is gone
    while not task.done():
        await lab.tick()
    t.expect([ended, lab.shape(h9.messages), told], why=(
        "Nor does stop_run ask twice on its way out: cancelled during its grace, after the run it "
        "asked to stop had ended and the frontend had begun a second, stop_run goes on up and "
        "leaves the harness alone, so the second run's tool, cancelled later by the frontend "
        "itself, finds its signal clear (stop_run, the lab's Build, item 2: \"Nor does it ask "
        "twice\"). Items: [how stop_run ended, lab.shape of the record, whether the deaf tool's "
        "signal was set when the frontend's cancellation reached it]."))
    h5, _ = started([slow_to_finish(word(t), long)], lab.call("build"))
    task = await run_in_a_task(h5, "Build it.", t.random.randint(20, 60))
    stopper = asyncio.ensure_future(harness.stop_run(h5, task, grace=10 ** 9))
    await lab.ticks(t.random.randint(2, 40))  # the tool tidying up, within the grace
    task.cancel()  # a frontend's own cancel, while stop_run waits out its grace
    answer = await stopper
    failure = f"could not save {word(t)}"

    async def failing_frontend(h):  # its run ends on Stop, then saving the session fails
        await lab.drive(h.prompt("Build it."))
        raise RuntimeError(failure)
    h6, _ = started([slow_to_finish(word(t))], lab.call("build"))
    failing = asyncio.ensure_future(failing_frontend(h6))
    await lab.ticks(t.random.randint(20, 60))
    stopper = asyncio.ensure_future(harness.stop_run(h6, failing, grace=tidy + 40))
    while not stopper.done():
        await lab.tick()
    t.expect([answer, task.cancelled(), outcome(stopper), outcome(failing)],
             ["clean", True, "clean", f"raised RuntimeError: {failure}"],
             "A task that ends within the grace is \"clean\" however it ended: even cancelled "
             "by somebody else while stop_run waited, the answer says what stop_run had to do. "
             "On a clean stop the task's own ending, an exception included, stays the task's: "
             "stop_run answers \"clean\" and raises nothing (stop_run, lesson 15). Items: [the "
             "answer for a task cancelled by another during the grace, that task cancelled, "
             "how stop_run ended for a frontend that failed after its run, how that task ended].")


@lab_test("If the task running stop_run is cancelled while stop_run waits on a task "
          "that takes its time to die, stop_run lets that cancellation through "
          "instead of swallowing it; cancelled while it waits out its grace, it ends at once.")
async def test_stop_run_can_itself_be_stopped(t):
    slow, grace, seen = t.random.randint(30, 80), t.random.randint(0, 10), []

    async def execute(arguments, signal=None):
        seen.append(arguments["target"])
        try:
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            for _ in range(slow):  # slow to die, whatever else is asked of it meanwhile
                try:
                    await asyncio.sleep(0)
                except asyncio.CancelledError:
                    pass
            raise
    build = {"name": "build", "description": "Build; slow to stop.", "parameters": TARGET,
             "execute": execute}
    target = word(t)
    h, _ = started([build], lab.call("build", {"target": target}))
    task = await run_in_a_task(h, f"Build {target}.", t.random.randint(20, 60))
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=grace))
    await lab.ticks(grace + t.random.randint(5, slow - 10))  # stop_run cancelled, and waits
    t.expect(stopper.done(), False,
             "Has stop_run returned while the slow task is still dying? It must wait for it.")

    async def second_stop(grace=0):  # a second Stop: its answer, and whether the task was over
        return [await harness.stop_run(h, task, grace=grace), task.done()]
    again = asyncio.ensure_future(second_stop())
    patient = asyncio.ensure_future(second_stop(slow + t.random.randint(10, 100)))  # outlasts it
    await lab.ticks(3)
    t.expect([again.done(), task.done()], [False, False],
             "A second stop_run on a task that is still dying waits for it as the first does: "
             "when stop_run returns, the task is over, whichever call it is (stop_run, lesson "
             "15). Items: [the second stop_run returned, the task over].")
    stopper.cancel()
    outcome = "returned"
    try:
        outcome = await stopper
    except asyncio.CancelledError:
        outcome = "cancelled"
    t.expect([outcome, stopper.cancelled(), task.done()], ["cancelled", True, True],
             "A CancelledError aimed at stop_run itself must go on up: it tells its own from "
             "the task's with asyncio.current_task().cancelling(). Once stop_run has insisted, "
             "its own cancellation goes on up when the task it waits for is over, not before, "
             "so that whoever stopped it knows the task is over too; this task takes turns to "
             "die (stop_run, the lab's Build, item 2). Items: [how stop_run ended, it ended "
             "cancelled, the task over when it did].")
    while not task.done():
        await lab.tick()
    while not again.done():
        await lab.tick()
    t.expect([task.cancelled(), seen, again.result()], [True, [target], ["hard", True]],
             "The slow task ends cancelled too, its tool having run once with the call's "
             "arguments, and the second stop_run, left alone, says \"hard\" once it is over, "
             "not before: a second stop_run on a task that is still dying waits for it as the "
             "first does, however many turns it takes (stop_run, the lab's Build, item 2). "
             "Items: [cancelled, the targets the tool was given, [the second stop_run's answer, "
             "the task over when it returned]].")
    while not patient.done():
        await lab.tick()
    t.expect(patient.result(), ["clean", True],
             "A third stop_run, started beside the second with a grace longer than the dying "
             "task still needs, gives it that grace as the first did, and says \"clean\": a "
             "task that ends within the grace is \"clean\" however it ended, even cancelled by "
             "somebody else, here the first stop_run (stop_run, the lab's Build, item 2). The "
             "item: [its answer, the task over when it returned].")
    grace, told = t.random.randint(50, 500), []
    h, _ = started([deaf_and_slow_to_die(slow=slow, told=told)],
                   lab.call("build", {"target": word(t)}))
    task = await run_in_a_task(h, "Build it.", t.random.randint(20, 60))
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=grace))
    await lab.ticks(t.random.randint(1, grace - 10))  # stop_run is waiting out its grace
    stopper.cancel()
    after = 0
    while not stopper.done() and after < 5 * slow:
        await lab.tick()
        after += 1
    t.expect([stopper.cancelled(), "at once" if after <= 2 else f"{after} turns later"],
             [True, "at once"],
             "Cancelled while it waits out its grace, stop_run lets the cancellation go on up "
             "at once: a try that swallows it there, and goes on to insist, keeps whoever "
             "cancelled stop_run waiting until the task has died, and stop_run can never be "
             "stopped (stop_run, lesson 15). Items: [stop_run ended cancelled, when].")
    await lab.ticks(3)
    t.expect([task.done(), told, h.is_running], [False, [], True],
             "Cancelled during its grace, stop_run leaves the run's task as it is, its flag "
             "set, and does not cancel it too: stop_run was stopped before it had to insist "
             "(stop_run, lesson 15). Items: [the task over, what a cancellation told the tool "
             "(nothing reached it), the run still going].")
    task.cancel()  # the frontend's own cancel, once stop_run is gone
    while not task.done():
        await lab.tick()
    t.expect([told, lab.shape(h.messages)], [[True], "U A[c1]"],
             "stop_run, cancelled in its grace, leaves the run's flag set: it asked, and a "
             "request to stop is not taken back. The tool, cancelled later by the frontend, "
             "finds its signal still set (stop_run, lesson 15). Items: [what the tool found "
             "when the frontend's cancellation reached it: its signal set], the record.")
    shell = lab.Shell(lab.Workspace({}))  # a frontend that runs twice in one task
    h, _ = started([harness.make_bash_tool(shell)], lab.call("bash", {"command": endless(t)}),
                   lab.reply(lab.call("bash", {"command": endless(t)})))

    async def twice():
        await lab.drive(h.prompt("Run the tests."))
        await lab.drive(h.prompt("Run them again."))  # nobody has asked this run to stop yet
    task = await run_in_a_task_of(twice(), t.random.randint(20, 60))
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=t.random.randint(600, 900)))
    waited = 0
    while len(h.messages) < 6 and waited < 500:  # the first run stopped, the second's call made
        await lab.tick()
        waited += 1
    await lab.ticks(t.random.randint(1, 20))
    stopper.cancel()  # cancelled in its grace, while the frontend's second run goes on
    while not stopper.done():
        await lab.tick()
    answer = await harness.stop_run(h, task, grace=t.random.randint(10, 40))
    t.expect([stopper.cancelled(), answer, task.done() and not task.cancelled(),
              lab.shape(h.messages)],
             [True, "clean", True, "U A[c1] R(c1) A(aborted) U A[c2] R(c2) A(aborted)"],
             "stop_run keeps nothing from one call to the next: a second stop_run on a task an "
             "earlier one asked (then was cancelled in its grace) asks the harness again, "
             "harness.cancel(), since the task is now in another run, whose flag is its own; "
             "bash hears it and the run ends within the grace, \"clean\" (stop_run, the lab's "
             "Build, item 2). Items: [the first stop_run ended cancelled, the second's answer, "
             "the frontend's task over, uncancelled, the record].")
    lingering = t.random.randint(150, 1200)  # turns it takes to wind up, once cancelled

    async def swallows_every_cancellation():
        try:
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            for _ in range(lingering):  # stop_run's own cancellation, handed on, swallowed too
                try:
                    await asyncio.sleep(0)
                except asyncio.CancelledError:
                    pass
        return "wound up"
    grace = t.random.randint(0, 5)
    task = asyncio.ensure_future(swallows_every_cancellation())
    await lab.tick()
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=grace))  # h idle now
    await lab.ticks(grace + t.random.randint(3, 10))  # stop_run has insisted, and waits
    stopper.cancel()
    try:
        outcome = f"returned {await stopper!r}"
    except asyncio.CancelledError:
        outcome = "cancelled"
    t.expect([outcome, task.done()], ["cancelled", True],
             "A task that swallows every cancellation, stop_run's own too (awaiting the task "
             "hands stop_run's on to it), and winds up for hundreds of turns before it returns: "
             "stop_run's own cancellation must still go on up once the task is over, not before, "
             "however long that takes. Answering \"hard\" there loses it, and "
             "whoever cancelled stop_run is never told; asyncio.current_task().cancelling() "
             "still counts it (stop_run, the lab's Build, item 2). Items: [how stop_run ended, "
             "the task over].")


@lab_test("stop_run waits for a cancelled task until it is over, however long it takes to die: "
          "thousands of turns, and the machine's clock jumping millennia ahead meanwhile, do not "
          "make it give up; once the task is over, it says \"hard\".")
async def test_stop_run_waits_however_long_the_task_takes_to_die(t):
    loop = asyncio.get_running_loop()
    release = loop.create_future()
    h, _ = started([deaf_and_slow_to_die(release)], lab.call("build", {"target": word(t)}))
    task = await run_in_a_task(h, "Build it.", t.random.randint(20, 60))
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=t.random.randint(0, 40)))
    dying = t.random.randint(1500, 4000)  # turns the task takes to die, once cancelled
    jump = t.random.randint(100, dying - 100)  # the turn at which the clock jumps
    leap = 1.7e9 * 10 ** t.random.randint(2, 6)  # some 54 years, times 100 to a million
    clock = loop.time
    days = 10 ** t.random.randint(3, 6)  # minutes the machine's clocks move at each reading
    try:
        with hours_pass(minutes=days):
            for turn in range(dying):
                if turn == jump:  # a clock set wrong is put right: it jumps millennia, not a turn
                    loop.time = lambda: clock() + leap
                await lab.tick()
    finally:
        vars(loop).pop("time", None)  # the loop's own clock again
    waiting = [stopper.done(), task.done()]
    release.set_result(None)
    after = 0
    while not stopper.done() and after < 50:
        await lab.tick()
        after += 1
    t.expect([waiting, outcome(stopper), task.cancelled()],
             [[False, False], "hard", True],
             "When stop_run returns, the task is over, whichever the answer: the hard wait "
             "awaits the task, with no limit in turns or in seconds (time in this course is "
             "turns of the event loop, and a clock can jump: the loop's, and the machine's, "
             "time.monotonic, time.time and time.perf_counter, days at each reading). Items: [[stop_run done, the task "
             "done] while the task was still dying, stop_run's answer once it died, the task "
             "ended cancelled] (stop_run, lesson 15).")


@lab_test("stop_run asks before it insists, whatever the grace, 0 included: a deaf tool finds its "
          "signal set when the cancellation reaches it. Its signature is the one given, "
          "stop_run(harness, task, grace=5).")
async def test_stop_run_asks_before_it_insists(t):
    rows = []
    for grace in (0, t.random.randint(1, 40)):
        told, asked = [], []
        h, model = started([deaf_and_slow_to_die(told=told)], lab.call("build", {"target": word(t)}))
        task = await run_in_a_task(h, "Build it.", t.random.randint(20, 60))
        counted = counting_asks(model.calls[0].signal, asked, task)
        rows.append([grace, await harness.stop_run(h, task, grace=grace),
                     told + (asked if counted else ["asked"])])
    below, told = -t.random.choice([t.random.randint(1, 9), t.random.randint(10, 10 ** 6)]), []
    h, _ = started([deaf_and_slow_to_die(told=told)], lab.call("build", {"target": word(t)}))
    task = await run_in_a_task(h, "Build it.", t.random.randint(20, 60))
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=below))
    for _ in range(100):  # a grace of 0 needs two or three turns; 100 are plenty
        if stopper.done():
            break
        await lab.tick()
    rows.append([below, outcome(stopper), told])
    for left in (stopper, task):  # a stop_run that waits for ever is not left running
        left.cancel()
    t.expect(rows, [[grace, "hard", [True, "asked"] if n < 2 else [True]]
                    for n, (grace, _, _) in enumerate(rows)],
             "First the run is asked to stop through the harness (harness.cancel()), and only "
             "then is the task cancelled, even with a grace of 0: a tool or loop that looks at "
             "the flag on its way out must find it set (stop_run, lesson 15). The harness is "
             "asked once, not again once the task is cancelled, with a grace of 0 as with any "
             "(the lab's Build, item 2: \"Nor does it ask twice\"). The last row's "
             "grace is below 0, which counts as 0 (the lab's Build, item 2): \"hard\" within a "
             "hundred turns, not a wait for ever. Each row: [grace, answer (\"running\" while "
             "stop_run still waits), what the tool found when the cancellation reached it: its "
             "signal set, then \"asked\" for each press of the run's flag, the token's cancel() "
             "(the first two rows count them)].")
    rows = []
    told = []  # a grace of 1 against a deaf tool that dies the moment it is cancelled
    h, _ = started([deaf_and_slow_to_die(told=told)], lab.call("build", {"target": word(t)}))
    task = await run_in_a_task(h, "Build it.", t.random.randint(20, 60))
    rows.append([1, await harness.stop_run(h, task, grace=1), lab.shape(h.messages), told])
    shell = lab.Shell(lab.Workspace({}))  # a grace below 0 against bash, which looks at once
    for below in (-t.random.randint(6, 9), -10 ** t.random.randint(7, 300)):  # near 0, and far
        h, _ = started([harness.make_bash_tool(shell)], lab.call("bash", {"command": endless(t)}))
        task = await run_in_a_task(h, "Run the tests.", t.random.randint(20, 60))
        rows.append([below, await harness.stop_run(h, task, grace=below), lab.shape(h.messages)])
    t.expect(rows, why=(
        "The answer says what stop_run had to do: with a grace of 1 it asks, waits one turn, and "
        "the deaf tool is still at work, so it insists: \"hard\", however fast the task then "
        "dies. A grace below 0 counts as 0 (the lab's Build, item 2), however far below: no turn "
        "for the run to wind up, not the same grace made positive nor the default, so even "
        "bash, which would end its run within five turns of Stop, is stopped \"hard\" "
        "(stop_run, lesson 15). "
        "Each row: [grace, answer, lab.shape of the record] and, for the deaf tool, whether its "
        "signal was set when the cancellation reached it."))
    shell = lab.Shell(lab.Workspace({}))  # one harness, stopped twice: hard, then a run that looks
    h, _ = started([deaf_and_slow_to_die(), harness.make_bash_tool(shell)],
                   lab.call("build", {"target": word(t)}),
                   lab.reply(lab.call("bash", {"command": endless(t)})))
    rows = []
    for text in ("Build it.", "Run the tests."):
        task = await run_in_a_task(h, text, t.random.randint(20, 60))
        grace = t.random.randint(6, 40)
        rows.append([text, grace, await harness.stop_run(h, task, grace=grace)])
    t.expect(rows + [lab.shape(h.messages)], why=(
        "Each stop_run asks the harness first and gives the run its whole grace, whatever an "
        "earlier stop_run on the same harness had to do: the first run's deaf tool needs a hard "
        "stop, and the second run, whose bash looks at the flag, then ends by itself within the "
        "grace, \"clean\". stop_run keeps nothing from one call to the next (stop_run, the lab's "
        "Build, item 2). The first two items are each run's [prompt, grace, answer], the last "
        "is lab.shape of the record."))
    import inspect
    found, wanted = [], []
    for kind in (t.random.choice((ValueError, KeyError, OSError, ConnectionError)),
                 type("SaveFailed", (Exception,), {}),  # a common class, then one of its own,
                 type("PowerLost", (BaseException,), {})):  # and one that is no Exception
        h, _ = started([deaf_and_slow_to_die()], lab.call("build", {"target": word(t)}))
        failure = f"could not save {word(t)}"

        async def frontend(h=h, kind=kind, failure=failure):  # cancelled, it fails on its way out
            try:
                await lab.drive(h.prompt("Build it."))
            except asyncio.CancelledError:
                raise kind(failure)
        task = asyncio.ensure_future(frontend())
        await lab.ticks(t.random.randint(20, 60))
        stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=t.random.randint(0, 40)))
        while not stopper.done():
            await lab.tick()
        found.append(outcome(stopper))
        wanted.append(f"raised {kind.__name__}: {kind(failure)}")
    t.expect(found, wanted,
             "Only the task's own cancellation may end at stop_run: a task that, cancelled, "
             "raises something else hands it on to stop_run's caller, as awaiting it does, "
             "whatever its class, a common one, a class of the frontend's own, or one that is "
             "not even an Exception, as lab.PowerCut is not (stop_run, lesson 15). Each item: "
             "how stop_run ended.")
    t.expect(str(inspect.signature(harness.stop_run)), "(harness, task, grace=5)",
             "The signature is given and stays: called without a grace, stop_run gives the run "
             "five turns to wind up (stop_run, lesson 15).")


@lab_test("A consumer walks away from a run with a slow bash command, closing it (aclose) after "
          "its k-th event, for each k from 1 to 12. Whatever k, the run has ended, the log and the "
          "record agree, the next two prompts get answers, and a call whose tool really ran is "
          "never shown to the model as interrupted.")
async def test_closing_the_run_at_every_event(t):
    built, said = word(t), word(t)
    command = f"sleep {t.random.randint(2, 9)} && echo {built}"

    def job(request):
        newest = [m for m in request.messages if m["role"] == "user"][-1]["content"]
        if request.messages[-1]["role"] == "toolResult":
            return lab.say(f"Built {built}.")
        if newest.startswith("Build"):
            return lab.reply(lab.call("bash", {"command": command}))
        return lab.say(f"Noted: {said}.")

    rows = []
    for k in range(1, 13):
        ws = lab.Workspace({})
        shell = lab.Shell(ws)
        h = harness.Harness(lab.ScriptedModel([lab.forever(job)]), SYSTEM,
                            [harness.make_bash_tool(shell)])
        log = harness.SessionLog(ws, "session.jsonl")
        h.subscribe(harness.persist_to(log))
        await lab.drive(h.prompt("Build it."), close_after=k)
        closed = [k, h.is_running, log.replay() == list(h.messages), lab.shape(h.messages)]
        results = [m["content"].strip() for m in h.messages if m["role"] == "toolResult"]
        await lab.drive(h.prompt("What happened?"))
        await lab.drive(h.prompt("Thanks."))
        rows.append(closed + [lab.shape(h.messages)[len(closed[3]):].strip()])
        view = harness.context_for_model(list(h.messages))
        interrupted = [m["tool_call_id"] for m in view
                       if m["role"] == "toolResult" and m["content"] == harness.INTERRUPTED]
        ran = [p.command for p in shell.processes]
        rows[-1].append([ran, interrupted, results, harness.text_of(h.messages[-1])])
    closed_as = {1: "", 2: "", 3: "U", 4: "U A[c1]", 5: "U A[c1]", 6: "U A[c1] R(c1)",
                 10: "U A[c1] R(c1) A"}
    t.expect(rows, [[k, False, True, closed_as[max(n for n in closed_as if n <= k)], "U A U A",
                     [[command] if k >= 6 else [], ["c1"] if k in (4, 5) else [],
                      [built] if k >= 6 else [], f"Noted: {said}."]] for k in range(1, 13)],
             "Closed after k events, a run is over (is_running False), the log matches the "
             "record, later prompts are answered, and only a call whose tool never ran is shown "
             "as interrupted: nothing is yielded between a tool returning and its result being "
             "recorded (run_agent, lessons 7 and 15). Each row: [k, is_running, log agrees, "
             "record when closed, what the next two prompts added, [commands run, calls shown "
             "interrupted, tool results on the record when closed, the last answer's text]].")


def spelled(node):
    """The exception class a clause names, as the harness module resolves it:
    "asyncio.CancelledError" for asyncio's own, a bare name for a built-in, module.name for
    anything else (concurrent.futures's CancelledError is another class)."""
    import ast
    try:
        kind = eval(compile(ast.Expression(node), "<except clause>", "eval"), vars(harness))
    except Exception:
        return getattr(node, "attr", getattr(node, "id", "?"))
    if kind is asyncio.CancelledError:
        return "asyncio.CancelledError"
    name = getattr(kind, "__qualname__", repr(kind))
    return name if getattr(kind, "__module__", "") == "builtins" else f"{kind.__module__}.{name}"


BOUNDARY = ("asyncio.CancelledError", "Exception", "BaseException", "everything")


def handler_names(function):
    """Each `try` in `function` that names asyncio.CancelledError or a wide class (Exception,
    BaseException, or a bare except), with what each of its `except` clauses names, in order,
    and whether the clause's body raises again: [[["asyncio.CancelledError", True],
    ["Exception", False]]] for one try holding both clauses. A try of other business, one that
    names only KeyError say, is left out."""
    import ast
    import inspect
    import textwrap
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            clauses = []
            for handler in node.handlers:
                kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
                names = [spelled(k) for k in kinds if k is not None]
                raises = any(isinstance(n, ast.Raise) for n in ast.walk(handler))
                clauses.append(["/".join(names) or "everything", raises])
            if any(name in BOUNDARY for clause in clauses for name in clause[0].split("/")):
                found.append(clauses)
    return found


@lab_test("run_tool's boundary names asyncio.CancelledError in an except clause of its own, above "
          "the wide one, that sends it on as it came in: Python lets it by today, and the clause "
          "tells the next person who edits the boundary not to widen it. Below it, any failure a "
          "tool raises still becomes that call's result.")
async def test_the_boundary_says_so_in_writing(t):
    t.expect(handler_names(harness.run_tool),
             [[["asyncio.CancelledError", True], ["Exception", False]]],
             "run_tool's try should have two except clauses, in this order: one for "
             "asyncio.CancelledError whose body is a bare raise, then the wide `except "
             "Exception` that turns a failure into a result (run_tool, lesson 15). Both clauses "
             "sit on the one try, the boundary around the tool, so that whoever edits the wide "
             "one reads the other just above it; a clause on another try, around the whole "
             "function or around a line that awaits nothing, tells that editor nothing. The clause "
             "names asyncio's CancelledError itself: concurrent.futures has another class of that "
             "name, an Exception a tool may raise. One row for each try of run_tool that names "
             "CancelledError or a wide class, holding its clauses as [what the clause catches, as "
             "the harness's names resolve it, whether it raises again].")
    failures = [(kind, f"{word(t)} is missing") for kind in t.random.sample(BROKEN, 3)]

    def failing(arguments):
        kind, text = failures[int(arguments["n"])]
        raise kind(text)
    broken = tool("build", failing, {"type": "object", "properties": {"n": {"type": "string"}}})
    found = []
    for n in range(len(failures)):
        result = await harness.run_tool([broken], {"id": f"c{n + 1}", "name": "build",
                                                   "arguments": {"n": str(n)}})
        found.append([result["tool_call_id"], result["content"], result["is_error"]])
    eager_failure = f"{word(t)} is not a target"

    def eager(arguments, signal=None):  # checks its arguments before it hands back an awaitable
        raise ValueError(eager_failure)
    result = await harness.run_tool([{"name": "check", "description": "Check, then build.",
                                      "parameters": TARGET, "execute": eager}],
                                    {"id": f"c{len(failures) + 1}", "name": "check", "arguments": {}})
    found.append([result["tool_call_id"], result["content"], result["is_error"]])
    failures.append((ValueError, eager_failure))
    t.expect(found, [[f"c{n + 1}", str(kind(text)), True] for n, (kind, text) in enumerate(failures)],
             "The wide clause still turns whatever a tool raises into its call's result: str(exc), "
             "is_error True, a failure raised by calling execute as much as one raised while it is "
             "awaited, so the call and the await both sit inside the try (run_tool, lessons 4 and "
             "15). Each item: [call id, content, is_error]; the last tool raises as it is called.")
    came_in = asyncio.CancelledError(f"{word(t)} stopped by its owner")
    cause = ConnectionResetError(f"{word(t)} hung up")
    noted = [f"while building {word(t)}"]  # a note of the tool's own, as Python 3.11 lets it add
    came_in.add_note(noted[0])

    async def stopped(arguments, signal=None):
        raise came_in from cause
    left = "returned"
    try:
        await harness.run_tool([{"name": "build", "description": "Build.", "parameters": TARGET,
                                 "execute": stopped}],
                               {"id": "c1", "name": "build", "arguments": {"target": word(t)}})
    except asyncio.CancelledError as exc:
        left = ["the same exception" if exc is came_in else "another CancelledError", str(exc),
                repr(exc.__cause__), getattr(exc, "__notes__", None)]
    t.expect(left, ["the same exception", str(came_in), repr(cause), noted],
             "A CancelledError raised inside a tool leaves run_tool as it came in: the same "
             "exception, its message kept, its cause kept and its notes as the tool left them, "
             "nothing added, so its owner reads what it said and why; a bare `raise` sends it on, "
             "a new CancelledError(...) does not, nor does `raise exc from None`, which cuts the "
             "cause, nor an add_note on the way through (run_tool, lesson 15). Items: [what "
             "left run_tool, its message, its __cause__, its __notes__].")


BROKEN = (ValueError, KeyError, RuntimeError, OSError, ZeroDivisionError)


def kind_of_tool(kind, shell, failure):
    """One tool of a batch, named for its kind: "quick" returns at once; "broken" raises
    failure(...) at once; "bash" is make_bash_tool's; "deaf" awaits a future nobody completes and
    never reads its signal; "objects" reads its signal every turn and, once it is set, raises
    RuntimeError("stopped before the build finished")."""
    if kind == "bash":
        return harness.make_bash_tool(shell)

    async def execute(arguments, signal=None):
        if kind == "quick":
            return "built the quick part"
        if kind == "broken":
            raise failure("the broken part is missing")
        if kind == "deaf":
            await asyncio.get_running_loop().create_future()
        while not signal.is_cancelled():
            await asyncio.sleep(0)
        raise RuntimeError("stopped before the build finished")
    return {"name": kind, "description": f"A {kind} tool.", "parameters": NO_ARGUMENTS,
            "execute": execute}


def kind_call(kind):
    return lab.call("bash", {"command": "sleep inf"}) if kind == "bash" else lab.call(kind)


def after_stop_run(kind, failure, n, j, answer):
    """What call n of a batch whose long call is j gets on the record after stop_run said
    `answer`: [content (its last line), is_error], or None for no result."""
    if n > j:
        return None if answer == "hard" else [harness.ABORTED, True]
    if n == j:
        return None if answer == "hard" else {
            "bash": ["Command cancelled", False],
            "objects": ["stopped before the build finished", True]}[kind]
    return {"quick": ["built the quick part", False],
            "broken": [str(failure("the broken part is missing")), True]}[kind]


@lab_test("stop_run against the j-th call of a batch of one to four, whose tool is bash (it "
          "listens), one that raises once it sees the flag, or one that never looks, after quick and "
          "failing calls, with a second stop_run sometimes started while the first still waits, and "
          "a grace from nought to a billion turns: \"clean\" when the tool listens, \"hard\" "
          "otherwise; each call that ran keeps its result (a failure is_error, an answer not), the "
          "rest are answered Operation aborted on a clean stop and left unanswered on a hard one, "
          "and the next prompt is answered.")
async def test_stop_run_over_every_kind_of_tool(t):
    rows, cases = [], []
    graces = t.random.sample([5, 10 ** 9], 2) + [None, t.random.choice((5, 50, 10 ** 9))]
    for long, grace in zip(("bash", "objects", "deaf", t.random.choice(("bash", "objects", "deaf"))),
                           graces):
        before = ["broken", "quick"][:t.random.randint(1, 2)]
        t.random.shuffle(before)
        kinds = before + [long] + [t.random.choice(("quick", "broken", "bash"))
                                   for _ in range(t.random.randint(0, 1))]
        failure = t.random.choice(BROKEN)
        if long == "deaf":  # a grace it cannot use; a listening tool has one of up to a billion
            grace = t.random.choice((0, 2, 4))
        twice = t.random.random() < 0.5
        shell = lab.Shell(lab.Workspace({}))
        tools = [kind_of_tool(kind, shell, failure) for kind in dict.fromkeys(kinds)]
        model = lab.ScriptedModel([lab.reply(*[kind_call(kind) for kind in kinds]), lab.forever(
            lambda request: lab.say("Answer."))])
        h = harness.Harness(model, SYSTEM, tools)
        task = await run_in_a_task(h, "Build everything.")
        first = asyncio.ensure_future(harness.stop_run(h, task, grace=grace))
        second = None
        if twice:  # a second Stop while the first one still waits
            await lab.tick()
            second = asyncio.ensure_future(harness.stop_run(h, task, grace=max(grace, 5)))
        answer = await first
        also = (await second) in ("clean", "hard") if twice else True
        results = {m["tool_call_id"]: m for m in h.messages if m["role"] == "toolResult"}
        found = [None if f"c{n}" not in results else
                 [results[f"c{n}"]["content"].splitlines()[-1], results[f"c{n}"]["is_error"]]
                 for n in range(1, len(kinds) + 1)]
        record = lab.shape(h.messages)
        await lab.drive(h.prompt("What happened?"))
        rows.append([kinds, grace, answer, also, task.done(), h.is_running, found, record,
                     lab.validate(model.calls[-1].messages)])
        cases.append([kinds, grace, len(before), failure])
    calls = lambda size: ",".join(f"c{n}" for n in range(1, size + 1))
    t.expect(rows, [[kinds, grace, "hard" if kinds[j] == "deaf" else "clean", True, True, False,
                     [after_stop_run(kind, failure, n, j, "hard" if kinds[j] == "deaf" else "clean")
                      for n, kind in enumerate(kinds)],
                     " ".join([f"U A[{calls(len(kinds))}]"]
                              + [f"R(c{n})" for n in range(1, j + 1)] if kinds[j] == "deaf" else
                              [f"U A[{calls(len(kinds))}]"]
                              + [f"R(c{n})" for n in range(1, len(kinds) + 1)] + ["A(aborted)"]),
                     []] for kinds, grace, j, failure in cases],
             "stop_run asks first: a tool that reads the flag (bash, or one that raises when it "
             "sees it) lets the run end by itself within the grace, \"clean\", with that call's "
             "result kept (a raise is a failed tool: str(exc), is_error True; an answer is not an "
             "error) and the calls after it answered Operation aborted; a tool that never looks "
             "needs the hard stop, and the calls from it on have no result. A grace is at most that "
             "many turns and costs nothing once the task is done, a second stop_run is harmless, "
             "the task is over when stop_run returns, and the next request is valid (stop_run and "
             "run_tool, lessons 4 and 15). Each row: [the batch's tools, grace, stop_run's answer, "
             "whether a second stop_run answered too, task.done(), is_running, each call's result "
             "as [its last line, is_error] or None, the record, what lab.validate says of the next "
             "request].")
