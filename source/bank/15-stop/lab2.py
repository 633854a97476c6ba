"""Lesson 15, lab 2: the grading bank. Private: never released, as solutions/ is not.

Scenarios written per rule of source/lessons/15-stop/rules.toml (lab 15.2's items of the Build
list), two to four a rule, each stopping a run at another moment or watching it through another
door than the public tests.py does: a task cancelled with a reason, a listener of a hard stop,
run_tool cancelled bare, stop_run while the model answers, on tasks that ended by themselves,
inside a task group that shuts down, and against a tool that runs a clean-up command as it dies.
"""
import asyncio
from concurrent import futures

import harness
import lab
from lab.kit import hours_pass, lab_test, tool

LAB = "15.2"
SYSTEM = "You are a careful assistant for a small repository."


class NotesLost(Exception):
    """A frontend's own failure: no class a stop_run could list among the common ones."""


class PowerLost(BaseException):
    """A frontend's own failure that is no Exception either, as lab.PowerCut is none (hunt round
    32, r183 design 06)."""
NOTHING = {"type": "object", "properties": {}}
PLACES = ("attic", "barn", "cellar", "dock", "forge", "garden", "hall", "kiln", "loft", "mill")


def place(t):
    """A drawn name with a number, carried through a scenario."""
    return f"{t.random.choice(PLACES)}{t.random.randint(100, 99999)}"


def never_looks(name="wait", *, dying=None, shell=None, swallows=False):
    """A tool that awaits a future nobody completes and never reads its signal. Cancelled, it
    runs `dying` (a command line, or a function of its signal giving one) in `shell` to the end
    before it lets the cancellation go on, or, when it `swallows` it, answers instead."""
    async def execute(arguments, signal=None):
        try:
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            if dying is not None:
                await shell.arun(dying(signal) if callable(dying) else dying)
            if swallows:
                return "stopped half way"
            raise
    return {"name": name, "description": "Wait; it never looks at its signal.",
            "parameters": NOTHING, "execute": execute}


def failing(name, t):
    """A tool whose failure is an ordinary one, though it comes early or bears a cancelling
    name: "refuses" is a plain def that raises as it is called, before anything is awaited;
    "dropped" raises the CancelledError of concurrent.futures, an Exception, as a worker pool's
    job does when the pool drops it."""
    number = t.random.randint(2, 999)

    def refuses(arguments, signal=None):
        raise ValueError(f"share {number} is read-only")

    async def dropped(arguments, signal=None):
        raise futures.CancelledError(f"the pool dropped job {number}")
    return {"name": name, "description": "Fails.", "parameters": NOTHING,
            "execute": refuses if name == "refuses" else dropped}, number


def asks_then_answers(*calls, latency=1):
    """A model whose first request asks for `calls` and which answers every later one by
    counting the requests it has had."""
    model = lab.ScriptedModel([lab.reply(*calls) if calls else lab.say("Straight away."),
                               lab.forever(lambda request: lab.say(f"Reply {len(model.calls)}."))],
                              latency=latency)
    return model


async def turns_spent(awaitable):
    """What `awaitable` gives, and how many turns of the event loop went by while this task
    awaited it, counted by a task that is already under way."""
    clock = [0]

    async def count():
        while True:
            await lab.tick()
            clock[0] += 1
    counter = asyncio.ensure_future(count())
    await lab.tick()
    start = clock[0]
    try:
        return await awaitable, clock[0] - start
    finally:
        counter.cancel()


def boundary():
    """Each try of run_tool that names a CancelledError or a wide class (Exception,
    BaseException, a bare except), as the classes of its except clauses in order, resolved in the
    harness's names: [["asyncio's CancelledError", "Exception"]] for the one boundary."""
    import ast
    import inspect
    import textwrap

    def named(node):
        if node is None:
            return "everything"
        try:
            kind = eval(compile(ast.Expression(node), "<clause>", "eval"), vars(harness))
        except Exception:
            return ast.unparse(node)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        return "/".join("asyncio's CancelledError" if k is asyncio.CancelledError
                        else getattr(k, "__name__", repr(k)) for k in kinds)
    tries = []
    for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(harness.run_tool)))):
        if isinstance(node, ast.Try):
            clauses = [named(handler.type) for handler in node.handlers]
            if any("CancelledError" in c or c in ("Exception", "BaseException", "everything")
                   for c in clauses):
                tries.append(clauses)
    return tries


def notes_along(exc):
    """Every note (__notes__) on `exc` and on the exceptions chained behind it, its context and
    its cause: what a traceback would print besides the exceptions themselves."""
    notes, seen = [], set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        notes += getattr(exc, "__notes__", [])
        exc = exc.__cause__ or exc.__context__
    return notes


def state(task):
    """How a finished or running task stands, in words."""
    if not task.done():
        return "still running"
    if task.cancelled():
        return "cancelled"
    return f"raised {type(task.exception()).__name__}" if task.exception() else "returned"


# -- rule 1: run_tool lets a cancellation through -----------------------------------------


@lab_test("A frontend cancels the task driving a run, with a reason, while the run's tool "
          "waits and never looks at its signal: awaiting the task raises CancelledError with "
          "that very reason, the call has no result, and the next prompt is answered.")
async def test_a_cancel_with_a_reason_reaches_the_frontend(t):
    reason = f"user closed the {place(t)} tab"
    model = asks_then_answers(lab.call("wait"))
    h = harness.Harness(model, SYSTEM, [never_looks()])
    task = asyncio.ensure_future(lab.drive(h.prompt("Wait for it.")))
    await lab.ticks(t.random.randint(5, 40))
    task.cancel(reason)
    left = "returned"
    try:
        await task
    except asyncio.CancelledError as exc:
        left = ["CancelledError", str(exc), exc.__suppress_context__, notes_along(exc)]
    found = [left, task.cancelled(), lab.shape(h.messages), h.is_running]
    await lab.drive(h.prompt("Are you there?"))
    t.expect(found + [lab.shape(h.messages), len(model.calls)],
             [["CancelledError", reason, False, []], True, "U A[c1]", False, "U A[c1] U A", 2],
             "A cancelled task is not a failed tool: run_tool's CancelledError clause sends on the "
             "exception that came in, reason and all, and never makes it a result, so the "
             "frontend learns why its task ended, its context not cut off by a `raise ... from "
             "None`, nor noted on its way with add_note (run_tool, lesson 15). Items: [what "
             "awaiting the task raised, its reason, whether its context was suppressed, the "
             "notes on it and on the exceptions behind it], the task cancelled, the record, is_running, "
             "then the record after the next prompt and the requests made.")


@lab_test("A batch of a quick call, two calls whose tools fail in ordinary ways (one as it is "
          "called, one with concurrent.futures's CancelledError), a call whose tool never looks "
          "at its signal, and one more quick call; the frontend cancels the run's task during "
          "the fourth: a listener hears the first three calls end, the failures as results, "
          "and nothing after the fourth one's start, and the last tool never runs.")
async def test_a_listener_hears_a_hard_stop_end_nothing(t):
    ran = []
    first, third = place(t), place(t)
    quick = tool("quick", lambda arguments: ran.append(arguments["name"]) or f"done {arguments['name']}",
                 {"type": "object", "properties": {"name": {"type": "string"}}})
    (refuses, one), (dropped, two) = failing("refuses", t), failing("dropped", t)
    model = asks_then_answers(lab.call("quick", {"name": first}), lab.call("refuses"),
                              lab.call("dropped"), lab.call("wait"),
                              lab.call("quick", {"name": third}))
    h = harness.Harness(model, SYSTEM, [quick, refuses, dropped, never_looks()])
    heard = []
    h.subscribe(heard.append)
    async with lab.background(h.prompt("Do the five things.")) as task:
        while not task.done() and not any(e["type"] == "tool_execution_start"
                                           and e["call"]["name"] == "wait" for e in heard):
            await lab.tick()
        await lab.ticks(t.random.randint(1, 30))
        task.cancel()
        while not task.done():
            await lab.tick()
    t.expect([[e["type"], e["call"]["id"]] + ([e["result"]["content"], e["result"]["is_error"]]
                                              if "result" in e else [])
              for e in heard if "call" in e] + [heard[-1]["type"]],
             [["tool_execution_start", "c1"], ["tool_execution_end", "c1", f"done {first}", False],
              ["tool_execution_start", "c2"],
              ["tool_execution_end", "c2", f"share {one} is read-only", True],
              ["tool_execution_start", "c3"],
              ["tool_execution_end", "c3", f"the pool dropped job {two}", True],
              ["tool_execution_start", "c4"], "tool_execution_start"],
             "A hard stop is not a failed tool: run_tool lets asyncio's CancelledError through, "
             "so nothing is announced for the cancelled call, no result is made up for it, and "
             "the batch goes no further; every other failure, one raised as execute is called "
             "and concurrent.futures's CancelledError included, is its call's result (run_tool, "
             "lesson 15). Items: each tool event a listener heard as [type, call id] and, for an "
             "end, [content, is_error], then the type of the last event heard.")
    t.expect([ran, state(task), lab.shape(h.messages), len(model.calls), boundary()],
             [[first], "cancelled", " ".join([f"U A[{','.join(f'c{n}' for n in range(1, 6))}]"]
                                             + [f"R(c{n})" for n in range(1, 4)]), 1,
              [["asyncio's CancelledError", "Exception"]]],
             "The run's task ended cancelled, with c1 to c3's results kept and c4 and c5 "
             "unanswered on the record, and no further request; run_tool's clause for "
             "asyncio.CancelledError sits just above the wide one, on the same try, where whoever "
             "edits the boundary reads it (run_tool, lesson 15). Items: [the quick tools that "
             "ran, the task, the record, requests, each try of run_tool naming a CancelledError "
             "or a wide class, as the classes of its clauses].")


@lab_test("run_tool called by itself in a task on a guarded tool that never looks at its "
          "signal; the task is cancelled with a reason: the task ends cancelled, the reason it "
          "carries is the one given, and the guard's check was asked once. Then run_tool, "
          "guarded or not, on a plain def that raises as it is called and on a tool raising "
          "concurrent.futures's CancelledError: each failure is its call's result.")
async def test_run_tool_cancelled_by_its_caller(t):
    asked = []

    def check(name, arguments):
        asked.append(name)
        return None
    reason = f"closing {place(t)}"
    call = {"type": "toolCall", "id": f"c{t.random.randint(1, 50)}", "name": "wait", "arguments": {}}
    task = asyncio.ensure_future(harness.run_tool([harness.guard(never_looks(), check)], call,
                                                  harness.CancelToken()))
    await lab.ticks(t.random.randint(2, 20))
    task.cancel(reason)
    said = None
    try:
        said = await task
    except asyncio.CancelledError as exc:
        said = [str(exc), notes_along(exc)]
    why = ConnectionAbortedError(f"the {place(t)} link dropped")
    reasoned = asyncio.CancelledError(f"dropped with {place(t)}")

    async def dropping(arguments, signal=None):
        raise reasoned from why
    try:
        await harness.run_tool([{"name": "drop", "description": "Drops.", "parameters": NOTHING,
                                 "execute": dropping}],
                               {"type": "toolCall", "id": "c1", "name": "drop", "arguments": {}})
        came = "returned"
    except asyncio.CancelledError as exc:
        came = [exc is reasoned, str(exc), repr(exc.__cause__), notes_along(exc)]
    t.expect([state(task), said, asked, came, boundary()],
             ["cancelled", [reason, []], ["wait"], [True, str(reasoned), repr(why), []],
              [["asyncio's CancelledError", "Exception"]]],
             "run_tool names asyncio.CancelledError in a clause of its own whose body is a bare "
             "raise, on the boundary's own try just above the wide clause: the cancellation "
             "leaves run_tool as it came in, its reason and its cause kept, no note added, and is "
             "never turned into a result (run_tool, lesson 15). Items: [the task, what awaiting "
             "it gave or raised (and the notes on it and behind it), the tools the guard was "
             "asked about, [the CancelledError a tool raised came out the same, its words, its "
             "cause, its notes], each try of run_tool naming a "
             "CancelledError or a wide class, as the classes of its clauses].")
    rows, cases = [], []
    for name in t.random.sample(["refuses", "dropped"], 2):
        for guarded in (False, True):
            failure, number = failing(name, t)
            tools = [harness.guard(failure, check) if guarded else failure]
            call = {"type": "toolCall", "id": f"c{number}", "name": name, "arguments": {}}
            try:
                result = await harness.run_tool(tools, call, harness.CancelToken())
                rows.append([name, guarded, result["content"], result["is_error"]])
            except Exception as exc:  # a failure let out of run_tool
                rows.append([name, guarded, "raised", type(exc).__module__, type(exc).__name__])
            cases.append([name, guarded, number])
    t.expect(rows, [[name, guarded, f"share {number} is read-only" if name == "refuses" else
                     f"the pool dropped job {number}", True] for name, guarded, number in cases],
             "Only asyncio.CancelledError passes run_tool: a failure raised as execute is called, "
             "before any await, and concurrent.futures's CancelledError, an Exception of another "
             "class, are failures like any other, each its call's result; the boundary's try "
             "holds the call as well as the await, and its clause of its own names asyncio's "
             "class (run_tool, lesson 15). Each row: [the tool, behind a guard, the result's "
             "content, is_error].")


# -- rule 2: stop_run ---------------------------------------------------------------------


def leaping_clock(t):
    """Make the running loop's clock leap centuries or more at every reading (an hour times a
    million to a billion, drawn), so that a deadline in seconds, even of decades, passes at
    once while a wait counted in turns is not moved; return what puts the loop's own clock
    back."""
    loop = asyncio.get_running_loop()
    real, leaps, leap = loop.time, [0], 3600.0 * 10 ** t.random.randint(6, 9)

    def leaping():
        leaps[0] += 1
        return real() + leap * leaps[0]
    loop.time = leaping
    return lambda: vars(loop).pop("time", None)


async def request_in_flight(t, latency, into, front=None, wound_up=None, work=None):
    """A harness whose model takes `latency` turns per request, and a task consuming its run,
    `into` turns into the first request. `front` says what else the task or its model does:
    "swallows", a provider client that answers a cancel with an aborted reply; "fails", a
    frontend that raises as it is cancelled ("fails oddly" a class of its own, "fails unlike an
    Exception" a BaseException); "fails after", one that raises once its run is
    over; "after", a frontend with turns of work once its run is over, "long after" one with
    thousands of them; "slow", a frontend that takes turns to die once cancelled, and then says
    so in `wound_up`; "asks again", a frontend that starts a second run as soon as its first is
    over. `work`, when given, is the turns of "after" or "slow" instead of a drawn number."""
    model = asks_then_answers(latency=latency)
    if front == "swallows":
        wrapped = model.acomplete

        async def acomplete(system, messages, tools=(), signal=None):
            try:
                return await wrapped(system, messages, tools, signal)
            except asyncio.CancelledError:
                return harness.error_message("the client dropped it", stop_reason="aborted")
        model.acomplete = acomplete
    h = harness.Harness(model, SYSTEM, [])
    work = (work if work is not None else t.random.randint(150, 400) if front == "slow" else
            t.random.randint(1200, 3000) if front == "long after" else t.random.randint(12, 60))

    async def consume():
        try:
            await lab.drive(h.prompt(f"Portray {place(t)}."))
        except asyncio.CancelledError:
            if front == "fails":
                raise OSError("the session could not be saved") from None  # a disk failing
            if front == "fails oddly":
                raise NotesLost("the session notes were lost") from None  # its own class
            if front == "fails unlike an Exception":
                raise PowerLost("the session lost power") from None  # not even an Exception
            if front == "slow":
                await lab.ticks(work)
                wound_up.append(work)
            raise
        if front in ("after", "long after"):
            await lab.ticks(work)  # a summary written once the run is over
        if front == "fails after":
            raise RuntimeError("the summary could not be saved")
        if front == "asks again":
            await lab.drive(h.prompt(f"Portray {place(t)} too."))  # nobody asked this one to stop
    task = asyncio.ensure_future(consume())
    while not model.calls:
        await lab.tick()
    await lab.ticks(into)
    return h, model, task


async def answered(stopper):
    """stop_run's answer, or the name and words of what it raised, once `stopper` is over."""
    while not stopper.done():
        await lab.tick()
    return outcome(stopper)


def outcome(stopper):
    """A finished stop_run's answer, "cancelled", or [the name, the words] of what it raised."""
    if stopper.cancelled():
        return "cancelled"
    failure = stopper.exception()
    return [type(failure).__name__, str(failure)] if failure else stopper.result()


async def stopped_on_a_task_that_swallows(t, *, in_a_group):
    """stop_run insists on a bare task that swallows every cancellation, and is itself cancelled
    while it waits (by hand, or by a task group a part of which fails): awaiting the task hands
    stop_run's own cancellation on to it, the task swallows that too and returns. [how stop_run
    ended, the task then]; stop_run's own cancellation must still go on up, once the task is
    over, not before, though it winds up for hundreds of turns."""
    slow, grace = t.random.randint(150, 1200), t.random.randint(0, 5)  # hundreds of turns

    h = harness.Harness(asks_then_answers(lab.call("wait")), SYSTEM, [never_looks()])  # idle

    async def swallows():
        try:
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            for _ in range(slow):
                try:
                    await asyncio.sleep(0)
                except asyncio.CancelledError:
                    pass
        return place(t)
    task = asyncio.ensure_future(swallows())
    await lab.tick()
    wait = grace + t.random.randint(3, 10)  # stop_run has insisted by then
    if in_a_group:
        async def part():
            await lab.ticks(wait)
            raise RuntimeError("the status bar broke")
        stopper = None
        try:
            async with asyncio.TaskGroup() as group:
                stopper = group.create_task(harness.stop_run(h, task, grace=grace))
                group.create_task(part())
        except BaseExceptionGroup:
            pass
    else:
        stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=grace))
        await lab.ticks(wait)
        stopper.cancel()
        while not stopper.done():
            await lab.tick()
    return ["swallowed", outcome(stopper), state(task)]


def looks(name="look"):
    """A tool that waits, looking at its signal each turn, and returns once it is set."""
    async def execute(arguments, signal=None):
        while not signal.is_cancelled():
            await asyncio.sleep(0)
        return "looked up and stopped"
    return {"name": name, "description": "Wait; it looks at its signal.",
            "parameters": NOTHING, "execute": execute}


IN_TURN = (  # what stop_runs_in_turn's rows say, for the two scenarios that run it
    "Each stop_run asks the harness once, before its grace, and only the run it was handed: "
    "the answer says what it had to do, so a grace of 1 against a deaf tool is \"hard\" "
    "however fast the task then dies; a grace below 0 counts as 0, however far below, so "
    "even a tool that "
    "looks at once is stopped \"hard\"; a harness stopped hard before is asked again, and "
    "its run that looks ends \"clean\" within the grace; a finished task is \"clean\" at "
    "once with no grace, and the harness's next run goes on unasked; and a second run the "
    "frontend begins in the grace is not asked, so its deaf tool, cancelled, runs its "
    "clean-up with the signal clear (stop_run, lesson 15). Each row: [which, stop_run's "
    "answer, the task (for the finished task: the newer run's task, its request's token "
    "set, then the answer of a stop_run on it), the record, and for the second run the "
    "line its clean-up printed].")


async def stop_runs_in_turn(t, shell):
    """Six stops that each ask the harness afresh and keep nothing from an earlier one (round
    15, r81): a grace of 1 against a tool that dies the moment it is cancelled; a grace below 0,
    near 0 and far below (round 26, r144), against a tool that looks; one harness stopped hard,
    then stopped again on a run that looks; a grace of 0 on a finished task while the harness's
    next run is under way; a frontend whose second run, begun in the grace, meets the hard
    stop. Gives the rows to hold."""
    rows = []
    h = harness.Harness(asks_then_answers(lab.call("wait")), SYSTEM, [never_looks()])
    task = asyncio.ensure_future(lab.drive(h.prompt(f"Wait at the {place(t)}.")))
    await lab.ticks(t.random.randint(10, 40))
    rows.append(["a grace of 1, a tool that dies at once", await answered(asyncio.ensure_future(
        harness.stop_run(h, task, grace=1))), state(task), lab.shape(h.messages)])
    for name, below in (["a grace below 0", -t.random.randint(6, 300)],
                        ["a grace far below 0", -10 ** t.random.randint(7, 300)]):
        h = harness.Harness(asks_then_answers(lab.call("look")), SYSTEM, [looks()])
        task = asyncio.ensure_future(lab.drive(h.prompt(f"Look at the {place(t)}.")))
        await lab.ticks(t.random.randint(10, 40))
        rows.append([f"{name}, a tool that looks", await answered(asyncio.ensure_future(
            harness.stop_run(h, task, grace=below))), state(task), lab.shape(h.messages)])
    model = lab.ScriptedModel([lab.reply(lab.call("wait")), lab.reply(lab.call("look")),
                               lab.forever(lambda request: lab.say("Noted."))])
    h = harness.Harness(model, SYSTEM, [never_looks(), looks()])
    for text in (f"Wait at the {place(t)}.", f"Then look at the {place(t)}."):
        task = asyncio.ensure_future(lab.drive(h.prompt(text)))
        await lab.ticks(t.random.randint(10, 40))
        rows.append(["one harness, stopped again", await answered(asyncio.ensure_future(
            harness.stop_run(h, task, grace=t.random.randint(10, 300)))), state(task)])
    rows[-1].append(lab.shape(h.messages))
    model = lab.ScriptedModel([lab.say("Done."), lab.reply(lab.call("look")),
                               lab.forever(lambda request: lab.say("Noted."))])
    h = harness.Harness(model, SYSTEM, [looks()])
    finished = asyncio.ensure_future(lab.drive(h.prompt("Say it.")))
    while not finished.done():
        await lab.tick()
    newer = asyncio.ensure_future(lab.drive(h.prompt(f"Look at the {place(t)}.")))
    await lab.ticks(t.random.randint(10, 40))
    answer = await answered(asyncio.ensure_future(harness.stop_run(h, finished, grace=0)))
    await lab.ticks(t.random.randint(20, 60))  # time enough for the newer run, had it been asked
    rows.append(["a grace of 0 on a finished task", answer, state(newer),
                 model.calls[1].signal.is_cancelled()])
    rows[-1].append(await answered(asyncio.ensure_future(harness.stop_run(h, newer, grace=40))))
    model = lab.ScriptedModel([lab.reply(lab.call("look")), lab.reply(lab.call("wait")),
                               lab.forever(lambda request: lab.say("Noted."))])
    told = place(t)
    h = harness.Harness(model, SYSTEM, [looks(), never_looks(dying=lambda signal: (
        f"echo {told} {'asked' if signal.is_cancelled() else 'unasked'}"), shell=shell)])

    async def two_runs():  # its stopped run over, the frontend starts another at once
        await lab.drive(h.prompt(f"Look at the {place(t)}."))
        await lab.drive(h.prompt(f"Then wait at the {place(t)}."))
    task = asyncio.ensure_future(two_runs())
    await lab.ticks(t.random.randint(10, 40))
    rows.append(["a second run begun in the grace", await answered(asyncio.ensure_future(
        harness.stop_run(h, task, grace=t.random.randint(40, 300)))), state(task),
        lab.shape(h.messages), [p.output()[0] for p in shell.processes if p.done()][-1:]])
    return rows


@lab_test("stop_run while the model is still answering the first request: Stop alone ends the "
          "run in some N turns; stop_run is \"clean\" with a grace of N, as it is at a boundary "
          "of hundreds of turns, returns as soon as the "
          "run is over under a far larger grace, is \"hard\" under N - 1, answers under the "
          "default as under a grace of five, sets the request's token under a grace of 0, and is "
          "\"clean\" when somebody else cancels the task, before stop_run's first step or in "
          "its grace; once the task is over, it spends no turn on it and leaves alone the "
          "harness's next run. Then, under N - 1 and less, against a provider that swallows the "
          "cancel, a frontend that fails or takes turns as it dies, one with work after its run, "
          "and two stop_runs at once: each returns only once the task is over, \"hard\", "
          "a frontend's failure going on to stop_run's caller; under far more than N, a frontend "
          "that fails once its run has ended on Stop: \"clean\", raising nothing. All the while "
          "the machine's clocks say days go by at each reading: grace and wait count turns.")
async def test_stop_run_while_the_model_answers(t):
    with hours_pass(minutes=10 ** t.random.randint(3, 6)):  # the machine's clocks: days a reading
        await while_the_model_answers(t)  # a grace and a wait count turns, never seconds (r183, 02 and 39)


async def while_the_model_answers(t):
    latency = t.random.randint(4, 9)
    into = t.random.randint(0, latency - 3)
    h, model, task = await request_in_flight(t, latency, into)
    h.cancel()
    needed = 0
    while not task.done() and needed < 500:
        await lab.tick()
        needed += 1
    rows = []
    graces = [["N", needed], ["N - 1", needed - 1], ["the default", None],
              ["far more than N", needed + t.random.randint(200, 3000)], ["0", 0],
              ["cancelled by another", needed + t.random.randint(20, 300)],
              ["cancelled by another during the grace", needed + t.random.randint(100, 300)],
              ["below 0", -t.random.randint(1, 300)],
              ["a second run begun in the grace", needed + t.random.randint(300, 900)],
              ["thousands of turns of work after the run, a billion and more",
               10 ** 9 + t.random.randint(1, 10 ** t.random.randint(1, 30))]]
    for name, grace in graces:
        front = ("long after" if name.startswith("thousands") else  # 1,200 turns or more, or
                 "after" if name.endswith("during the grace") else  # 12 to 60 after the run
                 "asks again" if name.startswith("a second run") else None)
        h, model, task = await request_in_flight(t, latency, into, front)
        stopper = asyncio.ensure_future(harness.stop_run(h, task) if grace is None
                                        else harness.stop_run(h, task, grace=grace))
        asks = []
        if name == "0":  # count the presses of the run's flag: once, not again after insisting
            press = model.calls[0].signal.cancel
            model.calls[0].signal.cancel = lambda press=press, task=task: (
                asks.append(1) if asyncio.current_task() is not task else None, press())[1]
        if name == "cancelled by another":
            task.cancel()  # a frontend's own cancel, as stop_run starts its grace
        if name == "cancelled by another during the grace":
            await lab.ticks(needed + t.random.randint(1, 10))  # the run is over, the frontend's
            task.cancel()  # work after it is not: its own cancel lands in stop_run's grace
        late = 0
        while not stopper.done():
            await lab.tick()
            late += task.done()
        answer = outcome(stopper)
        if grace is None:  # the default is five turns: whatever five give, the default gives
            answer = answer == ("clean" if needed <= 5 else "hard")
        rows.append([name, answer, [lab.shape(h.messages), len(asks)] if name == "0" else
                     lab.shape(h.messages) if name == "N" or front == "asks again" else None,
                     late <= (1 if stopper.result() == "clean" else 2),
                     model.calls[0].signal.is_cancelled()])
    # The last row's harness takes the next prompt; stop_run on the finished task meanwhile.
    newer = asyncio.ensure_future(lab.drive(h.prompt(f"Now portray {place(t)}.")))
    while len(model.calls) < 2:
        await lab.tick()
    over = list(await turns_spent(harness.stop_run(h, task, grace=t.random.randint(1, 300))))
    while not newer.done():
        await lab.tick()
    over += [model.calls[1].signal.is_cancelled(), state(newer), lab.shape(h.messages)]
    insisted = []
    for front, grace in (["swallows", needed - 1], ["fails", needed - 1],
                         ["fails oddly", needed - 1], ["fails unlike an Exception", needed - 1],
                         ["fails after", needed + t.random.randint(20, 300)], ["after", needed],
                         ["slow", 0], ["twice", 0]):
        wound_up = []
        h, model, task = await request_in_flight(t, latency, into,
                                                 "slow" if front == "twice" else front, wound_up)
        restore = leaping_clock(t) if front == "slow" else (lambda: None)
        try:
            stoppers = [asyncio.ensure_future(harness.stop_run(h, task, grace=grace))]
            if front == "twice":  # a second click on Stop, a turn after the first
                await lab.tick()
                stoppers.append(asyncio.ensure_future(harness.stop_run(h, task, grace=grace)))
                stoppers.append(asyncio.ensure_future(harness.stop_run(  # and one that waits
                    h, task, grace=t.random.randint(450, 900))))  # past the frontend's wind-up
            at_return = []
            for stopper in stoppers:
                stopper.add_done_callback(lambda _, task=task, at_return=at_return:
                                          at_return.append(state(task)))
            answers = [await answered(stopper) for stopper in stoppers]
            await lab.tick()  # the done callbacks run on the turn after the last return
        finally:
            restore()
        while not task.done():
            await lab.tick()
        insisted.append([front, answers, at_return] + ([bool(wound_up)] if front == "slow" else []))
    again = await turns_spent(harness.stop_run(h, task, grace=t.random.randint(1, 300)))
    work = t.random.randint(201, 1000)  # a frontend's work after its run: hundreds of turns
    h, model, task = await request_in_flight(t, latency, into, "after", work=work)
    h.cancel()  # Stop alone, to count the M turns until this task is over
    slow = 0
    while not task.done() and slow < 3000:
        await lab.tick()
        slow += 1
    edge = [work, task.done()]
    for grace in (slow, slow - 1):
        h, model, task = await request_in_flight(t, latency, into, "after", work=work)
        edge.append([await answered(asyncio.ensure_future(harness.stop_run(h, task, grace=grace))),
                     state(task)])
    t.expect([needed > 0] + rows + [over] + insisted + [again, edge],
             [True,
              ["N", "clean", "U A(aborted)", True, True],
              ["N - 1", "hard", None, True, True],
              ["the default", True, None, True, True],
              ["far more than N", "clean", None, True, True],
              ["0", "hard", ["U", 1], True, True],
              ["cancelled by another", "clean", None, True, False],
              ["cancelled by another during the grace", "clean", None, True, True],
              ["below 0", "hard", None, True, True],
              ["a second run begun in the grace", "clean", "U A(aborted) U A", True, True],
              ["thousands of turns of work after the run, a billion and more", "clean", None, True,
               True],
              ["clean", 0, False, "returned", "U A(aborted) U A"]] + [
                 ["swallows", ["hard"], ["returned"]],
                 ["fails", [["OSError", "the session could not be saved"]],
                  ["raised OSError"]],
                 ["fails oddly", [["NotesLost", "the session notes were lost"]],
                  ["raised NotesLost"]],
                 ["fails unlike an Exception", [["PowerLost", "the session lost power"]],
                  ["raised PowerLost"]],
                 ["fails after", ["clean"], ["raised RuntimeError"]],
                 ["after", ["hard"], ["cancelled"]], ["slow", ["hard"], ["cancelled"], True],
                 ["twice", ["hard", "hard", "clean"], ["cancelled", "cancelled", "cancelled"]],
                 ["clean", 0], [work, True, ["clean", "returned"], ["hard", "cancelled"]]],
             "stop_run asks first, harness.cancel(), whatever the grace (0 included), then gives "
             "the run up to `grace` turns, looking at task.done() before each: a run that needs N "
             "turns after Stop is clean under a grace of N and under the default, five, and hard "
             "under N - 1, and stop_run returns the moment the task is done, spending no turn "
             "waiting once it is done; a grace of a billion turns has no cap of stop_run's own "
             "(stop_run, lesson 15). "
             "A task that ended while stop_run waited, even cancelled by somebody else, is "
             "\"clean\": the answer says what stop_run had to do, not task.cancelled(); and a task "
             "that is over already costs no turn and is asked nothing: the task cancelled by "
             "another is over before stop_run's first step, so its request's token stays clear, "
             "and a finished task's stop_run leaves alone the harness's next run, already under "
             "way. Items: [Stop alone ended the run], then for "
             "graces N, N - 1, the default (its answer: the one a grace of five gives), far more "
             "than N, 0, far more with the task cancelled by another before stop_run's first step, "
             "far more with it cancelled by another in the grace (while the frontend works after "
             "its run), below 0 (which counts as 0), far more for a frontend that starts a second "
             "run once its first is over (stop_run asks the harness once, so that run answers), "
             "and a billion for a frontend "
             "with thousands of turns of work after its run: [the grace, the answer, the record "
             "(under N and 0), returned by the end of the next turn after the task was done (a "
             "turn later for a hard stop, which awaits the task), the request's token set], then "
             "[stop_run's answer on that finished task, turns spent, the token of the harness's "
             "next request set, that run's task, the record]. On a clean stop the task's own "
             "ending, an exception included, stays the task's: stop_run answers \"clean\" and "
             "raises nothing. Once stop_run had to cancel, the answer is \"hard\" however the task ended, "
             "stop_run returns only when the task is over, with no limit in turns or seconds, "
             "however many stop_runs wait on it, and only the task's CancelledError ends at "
             "stop_run: anything else it raised goes on up. Then for a provider that swallows "
             "the cancel, a frontend that fails as it is cancelled (a common class, one of its "
             "own, one that is not even an Exception), one that fails once its run "
             "has ended on Stop (under far more than N), one with work after its run, "
             "one that takes turns to die while the clock leaps, and two clicks on Stop with no "
             "grace and a third with a grace past the frontend's wind-up, \"clean\" as the task "
             "ended within it, cancelled by the first (round 26, r144): [which, "
             "each stop_run's answer or what it raised, the task as each stop_run returned, and "
             "for the slow one: it wound up undisturbed], then [the answer of one more stop_run on "
             "the task two stop_runs stopped hard, turns spent]: a task that was over already is "
             "\"clean\" at once, even one stop_run itself stopped hard. Last, for a frontend with "
             "hundreds of turns of work after its run, over M turns after Stop alone: [the turns "
             "of work, Stop alone ended it, [answer, the task] under a grace of M and of M - 1]: "
             "`grace` turns means that many at every size.")


async def a_second_run_left_alone(t):
    """stop_run over a frontend that, its first run stopped, begins a second whose tool never
    looks at its signal: once under a short grace that runs out while the second run waits, once
    cancelled in a long grace while it does (the frontend then cancels its task itself). Each row:
    [which, how stop_run ended, the record, what the second run's tool found when a
    cancellation reached it: its signal set]. The harness is asked once, so that signal is
    clear (hunt round 22, 15.2-45 and 46)."""
    tidy, before, where = t.random.randint(1, 5), t.random.randint(10, 40), place(t)

    def begun(told):
        async def build(arguments, signal=None):
            while not signal.is_cancelled():
                await asyncio.sleep(0)
            await lab.ticks(tidy)  # tidying up
            return "tidied up"

        async def wait(arguments, signal=None):
            try:
                await asyncio.get_running_loop().create_future()
            except asyncio.CancelledError:
                told.append(signal is not None and signal.is_cancelled())
                raise
        model = lab.ScriptedModel([lab.reply(lab.call("build")), lab.reply(lab.call("wait")),
                                   lab.forever(lambda request: lab.say("Done."))])
        h = harness.Harness(model, SYSTEM, [
            {"name": "build", "description": "Build; tidies up when stopped.",
             "parameters": NOTHING, "execute": build},
            {"name": "wait", "description": "Wait; never looks.", "parameters": NOTHING,
             "execute": wait}])

        async def frontend():
            await lab.drive(h.prompt(f"Build the {where}."))
            await lab.drive(h.prompt("Now wait."))  # nobody asked this one to stop
        return h, asyncio.ensure_future(frontend())
    h, task = begun([])
    await lab.ticks(before)
    h.cancel()  # Stop alone, to count the turns this harness takes to begin the second run
    needed = 0
    while len(h.messages) < 5 and needed < 500:
        await lab.tick()
        needed += 1
    task.cancel()
    while not task.done():
        await lab.tick()
    rows, told = [], []
    h, task = begun(told)
    await lab.ticks(before)
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=needed + t.random.randint(3, 12)))
    rows.append(["a short grace", await answered(stopper), lab.shape(h.messages), told])
    told = []
    h, task = begun(told)
    await lab.ticks(before)
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=10 ** 9))
    while len(h.messages) < 6 and not task.done():  # the second run waits on its tool
        await lab.tick()
    stopper.cancel()
    ended = await answered(stopper)
    task.cancel()  # the frontend's own cancel, once stop_run is gone
    while not task.done():
        await lab.tick()
    rows.append(["cancelled in a long grace", ended, lab.shape(h.messages), told])
    told = []  # once more, and then a stop_run of its own: it keeps nothing from the first
    h, task = begun(told)
    await lab.ticks(before)
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=10 ** 9))
    while len(h.messages) < 6 and not task.done():  # the second run waits on its tool
        await lab.tick()
    stopper.cancel()
    ended = [await answered(stopper)]
    ended.append(await answered(asyncio.ensure_future(
        harness.stop_run(h, task, grace=t.random.randint(0, 20)))))
    rows.append(["stopped again after one cancelled in its grace", ended, lab.shape(h.messages),
                 told])
    return rows


SECOND_RUN = ("Nor does stop_run ask twice: a run the frontend begins during the grace is not the "
              "one it was asked to stop, so when a short grace runs out stop_run insists without "
              "asking again, and cancelled in its grace it goes on up without asking again; "
              "either way the second run's tool finds its signal clear when a cancellation "
              "reaches it; yet stop_run keeps nothing from one call to the next, so a stop_run "
              "called on that task after one cancelled in its grace asks the harness afresh, and "
              "the second run's tool, deaf, finds its signal set when the cancellation reaches it "
              "(stop_run, lesson 15). Each row: [which, how stop_run ended (each, for the last), "
              "the record, what the second run's tool found: its signal set].")


@lab_test("stop_run on tasks that end by themselves: one whose listener raised before, while "
          "the same harness runs the next prompt, and one whose tool, on seeing the flag, cancels "
          "its own task N turns after Stop, N a few turns or hundreds. The first is \"clean\" with no turn spent whatever "
          "the grace, the error staying the task's, and the next run goes on unasked; the "
          "second is \"clean\" under a grace of N, \"hard\" under N - 1 when N is hundreds, and \"clean\" under far more, returning as soon as the "
          "task is over, and answers under the default as under a grace of five. A frontend's "
          "task with work after its run is \"clean\" once that work is done too, and so is a "
          "task whose listener raises as the stopped run ends, the error staying the task's. "
          "Last, six stops that each ask the harness afresh and keep "
          "nothing from an earlier one.")
async def test_stop_run_on_tasks_that_ended_by_themselves(t):
    full = f"the {place(t)} log is full"  # drawn here: a draw must not hang on the harness's pace

    def failing_listener(event):
        if event["type"] == "turn_end":
            raise RuntimeError(full)
    model = asks_then_answers(latency=t.random.randint(3, 8))
    h = harness.Harness(model, SYSTEM, [])
    unsubscribe = h.subscribe(failing_listener)
    broken = asyncio.ensure_future(lab.drive(h.prompt("Say something.")))
    while not broken.done():
        await lab.tick()
    unsubscribe()

    async def never_sent():
        await lab.drive(h.prompt("Never mind."))
    dropped = asyncio.ensure_future(never_sent())
    dropped.cancel()  # its frontend dropped it before it ran: over, and cancelled
    while not dropped.done():
        await lab.tick()
    newer = asyncio.ensure_future(lab.drive(h.prompt("Say more.")))  # the harness's next run
    while len(model.calls) < 2:
        await lab.tick()
    grace = t.random.randint(1, 400)
    answer, spent = await turns_spent(harness.stop_run(h, broken, grace=grace))
    dropped_answer, dropped_spent = await turns_spent(harness.stop_run(h, dropped, grace=grace))
    while not newer.done():
        await lab.tick()
    await turns_spent(harness.stop_run(h, dropped, grace=grace))  # again, the harness idle now
    first = [grace, answer, spent, state(broken), dropped_answer, dropped_spent, state(dropped),
             model.calls[1].signal.is_cancelled(), state(newer), lab.shape(h.messages)]

    async def gives_up(arguments, signal=None, tidy=0):
        while not signal.is_cancelled():
            await asyncio.sleep(0)
        if tidy:
            await lab.ticks(tidy)  # tidying up before it gives up
        raise asyncio.CancelledError("the tool gave up on its own task")
    before = t.random.randint(10, 40)

    async def giving_up(tidy=0):
        async def execute(arguments, signal=None):
            return await gives_up(arguments, signal, tidy)
        h = harness.Harness(asks_then_answers(lab.call("give_up")), SYSTEM,
                            [{"name": "give_up", "description": "Gives up when stopped.",
                              "parameters": NOTHING, "execute": execute}])
        task = asyncio.ensure_future(lab.drive(h.prompt("Try it.")))
        await lab.ticks(before)
        return h, task
    h, task = await giving_up()
    h.cancel()  # Stop alone, to count the turns this harness and tool need
    needed = 0
    while not task.done() and needed < 500:
        await lab.tick()
        needed += 1
    rows = []
    for name, grace in (["N", needed], ["the default", None],
                        ["far more than N", needed + t.random.randint(100, 2000)],
                        ["more than a billion",  # looked through turn by turn like any grace
                         10 ** 9 + t.random.randint(1, 10 ** t.random.randint(1, 30))]):
        h, task = await giving_up()
        stopper = asyncio.ensure_future(harness.stop_run(h, task) if grace is None
                                        else harness.stop_run(h, task, grace=grace))
        late = 0
        while not stopper.done():
            await lab.tick()
            late += task.done()
        answer = stopper.result()
        if grace is None:
            answer = answer == ("clean" if needed <= 5 else "hard")
        rows.append([name, answer, late <= (1 if stopper.result() == "clean" else 2), state(task),
                     lab.shape(h.messages)])
    tidy = t.random.randint(201, 1000)  # a tool that tidies for hundreds of turns, then gives up
    h, task = await giving_up(tidy)
    h.cancel()  # Stop alone again, to count this run's M turns
    slow = 0
    while not task.done() and slow < 3000:
        await lab.tick()
        slow += 1
    edge = [tidy, task.done()]
    for grace in (slow, slow - 1):
        h, task = await giving_up(tidy)
        edge.append([await answered(asyncio.ensure_future(harness.stop_run(h, task, grace=grace))),
                     state(task)])
    rows.append(["M, hundreds of turns, and M - 1", edge])
    # The reply takes longer than the wait before Stop, with turns to spare, so Stop always
    # lands during the run (a latency of 3 with a wait of 3 let the reply come first).
    after = t.random.randint(1200, 3000)  # thousands of turns: no cap of stop_run's own
    for name, grace in (["work after the run", after + t.random.randint(30, 300)],
                        ["work after the run, outlasting the grace", t.random.randint(60, 200)]):
        h = harness.Harness(asks_then_answers(latency=t.random.randint(6, 10)), SYSTEM, [])

        async def summing_up(h=h):
            await lab.drive(h.prompt("Sum it up."))
            await lab.ticks(after)  # a summary written once the run is over
        task = asyncio.ensure_future(summing_up())
        await lab.ticks(t.random.randint(1, 3))
        stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=grace))
        seen = []
        stopper.add_done_callback(lambda _, task=task, seen=seen: seen.append(state(task)))
        while not stopper.done():
            await lab.tick()
        await lab.tick()
        rows.append([name, stopper.result(), seen, lab.shape(h.messages)])
    h = harness.Harness(asks_then_answers(latency=t.random.randint(6, 10)), SYSTEM, [])
    h.subscribe(failing_listener)  # it raises at the end of the turn that Stop cut short
    task = asyncio.ensure_future(lab.drive(h.prompt("Log it.")))
    await lab.ticks(t.random.randint(1, 3))
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=t.random.randint(20, 400)))
    rows.append(["a listener raising as the stopped run ends", await answered(stopper),
                 state(task), lab.shape(h.messages)])
    h = harness.Harness(asks_then_answers(latency=t.random.randint(6, 10)), SYSTEM, [])
    then = place(t)

    async def asks_again(h=h):  # its stopped run over, the frontend starts another at once
        await lab.drive(h.prompt("Plan it."))
        await lab.drive(h.prompt(f"Then plan the {then}."))
    task = asyncio.ensure_future(asks_again())
    await lab.ticks(t.random.randint(1, 3))
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=t.random.randint(300, 900)))
    rows.append(["a second run begun within the grace", await answered(stopper), state(task),
                 lab.shape(h.messages)])
    t.expect([first, needed > 0] + rows,
             [[first[0], "clean", 0, "raised RuntimeError", "clean", 0, "cancelled", False,
               "returned", "U A U A"], True,
              ["N", "clean", True, "cancelled", "U A[c1]"],
              ["the default", True, True, "cancelled", "U A[c1]"],
              ["far more than N", "clean", True, "cancelled", "U A[c1]"],
              ["more than a billion", "clean", True, "cancelled", "U A[c1]"],
              ["M, hundreds of turns, and M - 1", [edge[0], True, ["clean", "cancelled"],
                                                   ["hard", "cancelled"]]],
              ["work after the run", "clean", ["returned"], "U A(aborted)"],
              ["work after the run, outlasting the grace", "hard", ["cancelled"], "U A(aborted)"],
              ["a listener raising as the stopped run ends", "clean", "raised RuntimeError",
               "U A(aborted)"],
              ["a second run begun within the grace", "clean", "returned", "U A(aborted) U A"]],
             "A task that is already over needs no stopping: stop_run looks at task.done() before "
             "it waits a turn, and its answer says what it had to do, not how the task ended: a "
             "task that ended cancelled by itself within the grace is \"clean\" too (stop_run, "
             "lesson 15). A grace of N turns means that many: after the N-th, stop_run looks once "
             "more, and it leaves its wait the moment the task is done. A task over already is "
             "asked nothing either: the harness's run may by now be another one, which "
             "harness.cancel() would stop; and the harness is asked once, so a run the "
             "frontend begins within the grace goes on to its answer. On a clean stop the task's own ending, an exception "
             "included, stays the task's: stop_run answers \"clean\" and raises nothing. Items: "
             "[grace, answer, turns stop_run spent, the task, then the answer, turns spent and "
             "the task for one its frontend cancelled before it ran, the token of the request "
             "the harness's next run had under way set (after that run was over and stop_run was "
             "handed the dropped task once more, the harness idle by then: an idle harness is "
             "asked nothing either), that run's task, the record] for the "
             "task whose listener raised; "
             "[Stop alone ended the other]; then for graces N, the default (its answer: the one a "
             "grace of five gives), far more and more than a billion: [the grace, the answer, returned by the end of the "
             "next turn after the task was done, the task, the record]; then for a tool that "
             "tidies for hundreds of turns before it gives up, its run ending M turns after Stop "
             "alone: [the turns it tidies, Stop alone ended it, [answer, task] under a grace of M "
             "and of M - 1]: `grace` turns means that many at every size; then for a frontend whose "
             "task sums up for thousands of turns after its run is over, under a grace long enough "
             "and under one its work outlasts: [which, the answer, the task as stop_run returned, "
             "the record]: the task is over when stop_run returns, not merely the run, and a grace "
             "has no cap of stop_run's own; then for a run whose listener raises at the end of the "
             "turn Stop cut short, under a long grace: [which, stop_run's answer or what it "
             "raised, the task, the record].")
    t.expect(await a_second_run_left_alone(t), why=SECOND_RUN)
    t.expect(await stop_runs_in_turn(t, lab.Shell(lab.Workspace({}))), why=IN_TURN)


@lab_test("stop_run runs inside a task group beside a part that fails after some turns, so the "
          "group cancels stop_run: while it waits out its grace, and while it waits for a "
          "cancelled task that is slow to die. Either way stop_run ends cancelled, within a few "
          "turns of the failure, or of the task's end when that comes later; cancelled in its grace, it leaves the run's task as it is, so "
          "three turns later the tool has still been told nothing.")
async def test_stop_run_inside_a_task_group(t):
    rows = []
    for phase in ("grace", "hard wait"):
        slow = t.random.randint(30, 80)
        shell = lab.Shell(lab.Workspace({}))
        model = asks_then_answers(lab.call("wait"))
        h = harness.Harness(model, SYSTEM, [never_looks(dying=f"sleep {slow}", shell=shell)])
        task = asyncio.ensure_future(lab.drive(h.prompt(f"Wait in the {place(t)}.")))
        await lab.ticks(t.random.randint(10, 40))
        grace = t.random.randint(100, 400) if phase == "grace" else t.random.randint(0, 5)
        fails_after = t.random.randint(5, 60) if phase == "grace" else grace + t.random.randint(5, 20)
        failed_at, ended_at, clock, over_at = [], [], [0], []

        async def part():
            await lab.ticks(fails_after)
            failed_at.append(clock[0])
            raise RuntimeError("the status bar broke")

        async def tick_counter():
            while True:
                await lab.tick()
                clock[0] += 1
                if task.done() and not over_at:
                    over_at.append(clock[0])
        counter = asyncio.ensure_future(tick_counter())
        stopper = None
        try:
            async with asyncio.TaskGroup() as group:
                stopper = group.create_task(harness.stop_run(h, task, grace=grace))
                group.create_task(part())
        except BaseExceptionGroup as group_error:
            ended_at.append([type(e).__name__ for e in group_error.exceptions])
        # counted from the failure, or from the task's end when it ended later: stop_run's own
        # cancellation goes up once the task is over, and whether it cuts the task's clean-up
        # short (awaiting the task itself passes the cancellation on) is the student's
        waited, at_exit = clock[0] - max(failed_at[:1] + over_at[:1]), state(task)
        counter.cancel()
        await lab.ticks(3)  # time for a cancel of the task, had there been one, to reach the tool
        later = [state(task), len(shell.processes), model.calls[0].signal.is_cancelled()]
        if not task.done():
            task.cancel()
        while not task.done():
            await lab.tick()
        rows.append([phase, ended_at, state(stopper),
                     "within ten turns" if waited <= 10 else "later",
                     at_exit, later])
    rows.append(await stopped_on_a_task_that_swallows(t, in_a_group=True))
    t.expect(rows,
             [["grace", [["RuntimeError"]], "cancelled", "within ten turns", "still running",
               ["still running", 0, True]],
              ["hard wait", [["RuntimeError"]], "cancelled", "within ten turns", "cancelled",
               ["cancelled", 1, True]],
              ["swallowed", "cancelled", "returned"]],
             "A CancelledError aimed at stop_run itself goes on up, in the grace as in the hard "
             "wait, even when the task, handed it as stop_run awaits it, swallows it and "
             "returns: stop_run tells its own from the task's with asyncio.current_task()"
             ".cancelling()"
             ", and a grace loop swallows nothing; stopped in its grace, before it had to insist, "
             "stop_run leaves the run's task as it is, its flag set, not cancelled too (stop_run, "
             "lesson 15). Each row: [where stop_run "
             "was when the group cancelled it, what the group raised, how stop_run ended, when "
             "the group was done after the failure or the task's end, whichever came later, the "
             "run's task then, [the task three turns "
             "later, the clean-up commands its tool had started, which it starts only once "
             "cancelled, the run's flag still set]]; last, a bare task that swallows every "
             "cancellation: [which, how stop_run ended, the task].")
    t.expect(await a_second_run_left_alone(t), why=SECOND_RUN)


@lab_test("stop_run with no grace against a tool that never looks at its signal and, once "
          "cancelled, runs a clean-up command of hundreds of turns that says whether Stop was "
          "asked for, while the machine's clock leaps centuries at every reading: stop_run says "
          "\"hard\" only once the task is over, by which time the clean-up has printed that Stop "
          "was asked for. Then a frontend's scope around stop_run closes, during its grace and "
          "during its wait for the task: stop_run ends cancelled each time, and in the grace it "
          "leaves the run's task uncancelled. Then stop_run "
          "insists on a tool that answers after its clean-up, on a frontend that fails as it "
          "is cancelled, and twice on one task. "
          "Last, six stops that each ask the harness afresh and keep "
          "nothing from an earlier one. All the while the machine's clocks (time.monotonic and "
          "the rest) say days go by at each reading.")
async def test_stop_run_waits_out_a_clean_up_command(t):
    with hours_pass(minutes=10 ** t.random.randint(3, 6)):  # the machine's clocks: days a reading
        await waits_out_a_clean_up_command(t)  # a grace and a wait count turns, never seconds (r183, 02 and 39)


async def waits_out_a_clean_up_command(t):
    slow, word = t.random.randint(150, 900), place(t)
    shell = lab.Shell(lab.Workspace({}))

    def clean_up(signal):
        asked = "after a Stop" if signal is not None and signal.is_cancelled() else "unasked"
        return f"sleep {slow} && echo {word} stowed {asked}"
    h = harness.Harness(asks_then_answers(lab.call("wait")), SYSTEM,
                        [never_looks(dying=clean_up, shell=shell)])
    task = asyncio.ensure_future(lab.drive(h.prompt("Wait for ever.")))
    await lab.ticks(t.random.randint(10, 40))
    loop = asyncio.get_running_loop()
    real, leaps, leap = loop.time, [0], 3600.0 * 10 ** t.random.randint(6, 9)

    def leaping():
        leaps[0] += 1
        return real() + leap * leaps[0]
    loop.time = leaping  # a clock that jumps centuries: a deadline in seconds passes at once
    try:
        answer = await harness.stop_run(h, task, grace=0)
        at_return = [task.done(), [[p.done(), p.output()[0] if p.done() else None]
                                   for p in shell.processes]]
    finally:
        vars(loop).pop("time", None)
    while not task.done():
        await lab.tick()
    again = await turns_spent(harness.stop_run(h, task, grace=t.random.randint(0, 300)))
    found = [answer] + at_return + [state(task), lab.shape(h.messages), again]
    for phase in ("grace", "wait for the task"):
        model = asks_then_answers(lab.call("wait"))
        h = harness.Harness(model, SYSTEM,
                            [never_looks(dying=f"sleep {t.random.randint(40, 90)}", shell=shell)])
        task = asyncio.ensure_future(lab.drive(h.prompt(f"Wait in the {place(t)}.")))
        await lab.ticks(t.random.randint(10, 40))
        grace = t.random.randint(300, 600) if phase == "grace" else t.random.randint(0, 3)
        started = len(shell.processes)
        async with lab.background(harness.stop_run(h, task, grace=grace)) as stopper:
            await lab.ticks(t.random.randint(5, 50) if phase == "grace"
                            else grace + t.random.randint(3, 10))
        at_exit = state(task)
        await lab.ticks(3)  # time for a cancel of the task, had there been one, to reach the tool
        found.append([phase, state(stopper), at_exit, len(shell.processes) - started,
                      model.calls[0].signal.is_cancelled()])
        if not task.done():
            task.cancel()
        while not task.done():
            await lab.tick()
    for case in ("swallows", "fails", "fails oddly", "fails unlike an Exception", "twice"):
        h_model = [asks_then_answers(lab.call("wait"))]
        h = harness.Harness(h_model[0], SYSTEM,
                            [never_looks(dying=f"sleep {t.random.randint(40, 120)}", shell=shell,
                                         swallows=case == "swallows")])
        asks = []

        async def saving(h=h, case=case):
            try:
                await lab.drive(h.prompt(f"Wait by the {place(t)}."))
            except asyncio.CancelledError:
                if case == "fails":
                    raise LookupError("the notes could not be kept") from None
                if case == "fails oddly":
                    raise NotesLost("the notes were lost") from None
                if case == "fails unlike an Exception":
                    raise PowerLost("the notes lost power") from None  # not even an Exception
                raise
        task = asyncio.ensure_future(saving())
        await lab.ticks(t.random.randint(10, 40))
        token = h_model[0].calls[0].signal  # the run's flag: each press counted
        press = token.cancel
        token.cancel = lambda asks=asks, press=press, task=task: (  # from outside the run's task
            asks.append(1) if asyncio.current_task() is not task else None, press())[1]
        seen, stoppers = [], [asyncio.ensure_future(harness.stop_run(h, task, grace=0))]
        if case == "twice":  # a second click on Stop while the first waits for the task
            await lab.ticks(t.random.randint(1, 20))
            stoppers.append(asyncio.ensure_future(harness.stop_run(h, task, grace=0)))
            stoppers.append(asyncio.ensure_future(harness.stop_run(  # and one that waits
                h, task, grace=t.random.randint(150, 400))))  # past the clean-up command
        for stopper in stoppers:
            stopper.add_done_callback(lambda _, task=task, seen=seen: seen.append(state(task)))
        while not all(stopper.done() for stopper in stoppers):
            await lab.tick()
        await lab.tick()
        found.append([case, [[type(s.exception()).__name__, str(s.exception())] if s.exception()
                             else s.result() for s in stoppers], seen, lab.shape(h.messages)]
                     + ([len(asks)] if case != "twice" else []))
        while not task.done():
            await lab.tick()
    h = harness.Harness(asks_then_answers(lab.call("wait")), SYSTEM, [never_looks()])
    task = asyncio.ensure_future(lab.drive(h.prompt(f"Wait at the {place(t)}.")))
    await lab.ticks(t.random.randint(10, 40))
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=-t.random.randint(1, 500)))
    for _ in range(100):  # a grace of 0 needs a few turns; a wait for ever is cut off here
        if stopper.done():
            break
        await lab.tick()
    found.append(["a grace below 0", outcome(stopper) if stopper.done() else "still waiting",
                  state(task)])
    for left in (stopper, task):
        left.cancel()
    found.append(await stopped_on_a_task_that_swallows(t, in_a_group=False))
    t.expect(found,
             ["hard", True, [[True, f"{word} stowed after a Stop\n"]], "cancelled", "U A[c1]",
              ["clean", 0],
              ["grace", "cancelled", "still running", 0, True],
              ["wait for the task", "cancelled", "cancelled", 1, True],
              ["swallows", ["hard"], ["returned"], "U A[c1] R(c1) A(aborted)", 1],
              ["fails", [["LookupError", "the notes could not be kept"]], ["raised LookupError"],
               "U A[c1]", 1],
              ["fails oddly", [["NotesLost", "the notes were lost"]], ["raised NotesLost"],
               "U A[c1]", 1],
              ["fails unlike an Exception", [["PowerLost", "the notes lost power"]],
               ["raised PowerLost"], "U A[c1]", 1],
              ["twice", ["hard", "hard", "clean"], ["cancelled", "cancelled", "cancelled"],
               "U A[c1]"],
              ["a grace below 0", "hard", "cancelled"],
              ["swallowed", "cancelled", "returned"]],
             "stop_run first asks, harness.cancel(), even with no grace, then cancels the task and "
             "awaits it, with no limit in turns or in seconds: when it returns the task is over, "
             "however long it took to die; and a cancellation aimed at stop_run itself goes on up "
             "at once in the grace, leaving the run's task as it is, its flag set, not cancelled "
             "too, and after the task in the wait (stop_run, lesson 15). Items: "
             "[the answer, the task done when stop_run returned, the clean-up command as [done, "
             "printed] then], the task, the record, [a second stop_run's answer on that task, now over, "
             "turns spent] (a task that was over already is \"clean\" at once, even one stop_run "
             "itself stopped hard), then for a frontend's scope closed during "
             "the grace and during the wait: [where, how stop_run ended, the run's task, the "
             "clean-up commands its tool started by three turns later, which it starts only once "
             "cancelled, the run's flag still set]. Then, "
             "with no grace: a tool that answers once it has cleaned up (\"hard\" all the same: "
             "stop_run had to cancel), a frontend that raises as its task is cancelled, a "
             "common class, one of its own or one that is not even an Exception (that goes on "
             "up out of stop_run, whatever its "
             "class), and two clicks on Stop (each returns only once the "
             "task is over), with a third whose grace outlasts the clean-up: \"clean\", the task "
             "having ended within it, cancelled by the first (round 26, r144): [which, each "
             "stop_run's answer or what it raised, the task as each returned, the record, and "
             "for one stop_run the presses of the run's flag, its token's cancel(): one, not again after insisting, "
             "the lab's Build, item 2: \"Nor does it ask twice\"]. Then a "
             "grace below 0, which counts as 0: [which, the answer "
             "within a hundred turns, the task]. Last, stop_run cancelled while it waits for a "
             "task that swallows that cancellation too (awaiting the task hands it on) and "
             "returns: stop_run's own still goes on up: [which, how stop_run ended, the task].")
    t.expect(await stop_runs_in_turn(t, lab.Shell(lab.Workspace({}))), why=IN_TURN)
