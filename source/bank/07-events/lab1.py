"""Lab 7.1's grading bank: scenarios for each rule of its ledger (source/lessons/07-events/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario watches the events through another door than the public tests: a consumer that
steps the generator by hand with next(), runs made in one order and driven in the other, runs
sharing one record and stepped in turn, a tool that reads the events seen so far, a second run
started from what agent_end carried, the record measured at every event, so that the public
tests' wanted expressions, evaluated in a bank test's frame, do not give its values.
"""
import contextlib
import gc
import inspect
import io
import json
import os
import sys
import tempfile
import weakref
from types import FunctionType

import harness
import lab
from lab.kit import Terminal, every_name_set, everything_said, hours_pass, lab_test, tool

LAB = "7.1"
SYSTEM = "You keep a small service running."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
JSON = {"dict", "list", "str", "int", "float", "bool", "NoneType"}  # the types of plain data
ASKS = ["Check the service.", "What broke?", "Look around.", "Tidy the logs.", "Status?"]


def reader(log=None, prefix="seen "):
    """A tool `look` that returns `prefix` and its path, noting each run in `log`."""
    def look(arguments):
        if log is not None:
            log.append(f"ran {arguments['path']}")
        return prefix + arguments["path"]
    return tool("look", look, PATH)


def job(t, first=1):
    """Drawn rounds of look calls at numbered paths, starting at `first`: the model's replies,
    then an answer; and the calls of each round."""
    rounds, n = [], first
    for _ in range(t.random.randint(1, 3)):
        width = t.random.randint(1, 3)
        rounds.append([f"f{k}.log" for k in range(n, n + width)])
        n += width
    replies = [lab.reply(*[lab.call("look", {"path": p}) for p in paths]) for paths in rounds]
    return replies + [lab.say(f"Looked at {n - first} files.")], rounds


async def stepped(run, *ending):
    """The next event of `run`, as next(run, *ending) gives it, whichever colour run_agent is:
    lesson 7's generator steps with next(), lesson 15's async generator (allowed early, as
    lab.drive drives either) with anext(). A run that is over gives `ending`, or, with none,
    raises StopAsyncIteration (an async generator's StopIteration)."""
    if hasattr(run, "__anext__"):
        try:
            return await anext(run)
        except StopAsyncIteration:
            if ending:
                return ending[0]
            raise
    return next(run, *ending)


async def shut(run):
    """Close `run` as a consumer that walks away does, close() or aclose() by its colour; False
    for a run that has neither."""
    closing = getattr(run, "close", None) or getattr(run, "aclose", None)
    if closing is None:
        return False
    if inspect.isawaitable(done := closing()):
        await done
    return True


def shape_of(rounds, ending="A", prompt=True):
    """The record's shape for a run whose model asks for `rounds` and ends with `ending`."""
    parts, n = (["U"] if prompt else []), 0
    for paths in rounds:
        ids = [f"c{n + k}" for k in range(1, len(paths) + 1)]
        n += len(paths)
        parts += [f"A[{','.join(ids)}]"] + [f"R({i})" for i in ids]
    return " ".join(parts + [ending])


def earlier(t):
    return [harness.user_message("Hello."), lab.say("Hi.")] * t.random.randint(1, 2)


def kinds(value):
    """The names of the types of every value inside `value`, itself included."""
    found = {type(value).__name__}
    inner = value.values() if isinstance(value, dict) else \
        value if isinstance(value, (list, tuple)) else []
    for item in inner:
        found |= kinds(item)
    return found


def weight_of(module):
    """What `module` keeps alive, as [objects, bytes]: everything reachable from its names
    through the garbage collector's references, stopping at other modules and at what they
    define, counted and measured by sys.getsizeof. A log kept in harness.py between runs adds
    to both."""
    modules = [m for m in list(sys.modules.values()) if m is not None]
    stops = {id(m) for m in modules} | {id(vars(m)) for m in modules if hasattr(m, "__dict__")}
    seen, todo, size = set(), [v for k, v in vars(module).items() if not k.startswith("__")], 0
    while todo:
        item = todo.pop()
        if id(item) in seen or id(item) in stops:
            continue
        seen.add(id(item))
        size += sys.getsizeof(item, 0)
        if isinstance(item, (type, FunctionType)) and item.__module__ != module.__name__:
            continue  # another module's class or function: counted, not entered
        todo += gc.get_referents(item)
    return [len(seen), size]


def raiser(path):
    """A tool `look` that raises when it is asked for `path`, and reads any other."""
    def look(arguments):
        if arguments["path"] == path:
            raise PermissionError("no access to " + path)
        return "seen " + arguments["path"]
    return tool("look", look, PATH)


def hangs_up(t, replies):
    """A model that answers `replies` up to a drawn request, and raises there: the model's
    exception (a drawn one), and the model."""
    asked = t.random.randint(1, len(replies))
    cause = t.random.choice([ConnectionResetError, TimeoutError, OSError])(
        f"the provider dropped request {asked}")

    def drop(request):
        raise cause
    return cause, lab.ScriptedModel(replies[:asked - 1] + [drop])


# --- rule 1: a generator of plain data --------------------------------------------------------

@lab_test("A consumer steps a run by hand with next(), after replacing the run's tool in its own "
          "list between the call and the first event: the record's length at each event, the "
          "requests made, what the run printed, and the types inside its events.")
async def test_bank_a_run_stepped_by_hand(t):
    weight = weight_of(harness)  # what harness.py's module keeps alive before these runs
    messages = earlier(t)
    before = len(messages)
    path = t.random.choice(["app.log", "db.log", "cron.log"])
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": path})), lab.say("Seen.")])
    tools = [{"name": "look"}]  # a tool the caller is still making when it calls run_agent
    run = harness.run_agent(model, SYSTEM, messages, tools, t.random.choice(ASKS))
    tools[0] = reader(prefix="new ")  # the caller's own list, changed before the run began
    steps = [[len(messages), len(model.calls)]]
    taken = t.random.randint(5, 12)
    with everything_said() as printed:
        events = []
        for _ in range(taken):
            events.append(await stepped(run))
            steps.append([events[-1]["type"], len(messages) - before, len(model.calls)])
        with hours_pass():  # each reading of the clock a minute on: the rest takes hours
            await lab.drive(run, on_event=lambda event: (events.append(event), steps.append(
                [event["type"], len(messages) - before, len(model.calls)])))
        failing = lab.ScriptedModel([lab.reply(lab.call("look", {"path": path})), lab.say("No.")])
        with contextlib.redirect_stdout(Terminal(printed)), contextlib.redirect_stderr(Terminal(printed)):
            raised = await lab.drive(harness.run_agent(failing, SYSTEM, [], [raiser(path)],
                                                       "Once more.",
                                                       max_turns=10 ** t.random.randint(4, 8) + 1))
            heavy = t.random.randint(10_000_001, 16_000_000)  # a result of tens of millions
            await lab.drive(harness.run_agent(lab.ScriptedModel(
                [lab.reply(lab.call("look", {"path": path})), lab.say("Heavy.")]), SYSTEM, [],
                [tool("look", lambda arguments: "=" * heavy, PATH)], "Read it whole."))
            short = lab.ScriptedModel([lab.reply(lab.call("look", {"path": path}))])
            try:  # its model raises at the second request: the run raises, saying nothing
                await lab.drive(harness.run_agent(short, SYSTEM, [], [reader()], "Until it breaks."))
                broke = "nothing"
            except Exception as problem:  # noqa: BLE001 - what the run raised is the item
                broke = type(problem).__name__
            here = os.getcwd()
            with tempfile.TemporaryDirectory() as folder:
                try:  # every environment variable set, in an empty folder: still no file
                    os.chdir(folder)
                    with every_name_set(f"user{t.random.randint(100, 999)}"):
                        await lab.drive(harness.run_agent(lab.ScriptedModel(
                            [lab.say("At once.")]), SYSTEM, [], [reader()], "Anything to do?"))
                    for switch in ("1", "true", "yes", "on", "True", "debug", "info", "verbose"):
                        with every_name_set(switch, exactly=True):
                            await lab.drive(harness.run_agent(lab.ScriptedModel(
                                [lab.say("At once.")]), SYSTEM, [], [reader()], "And now?"))
                finally:
                    os.chdir(here)
                printed.write("".join(f"left {name}\n" for name in os.listdir(folder)))
        chat = t.random.randint(2_600, 5_000)  # a conversation of thousands of turns, carried on
        await lab.drive(harness.run_agent(lab.ScriptedModel([lab.say("Still here.")]), SYSTEM,
                                          [harness.user_message("Hello."), lab.say("Hi.")] * chat,
                                          [reader()], "Still there?"))
        closed = lab.ScriptedModel([lab.reply(lab.call("look", {"path": path})), lab.say("No.")])
        await lab.drive(harness.run_agent(closed, SYSTEM, [], [reader()], "Stop there."),
                        close_after=5)  # closed at its tool_execution_start
        wide = t.random.randint(120, 301)  # one reply of more calls than the others
        toolbox = [reader()] + [tool(f"probe{n}", lambda arguments: "", PATH)
                                for n in range(t.random.randint(6, 20))]  # a run of many tools
        await lab.drive(harness.run_agent(lab.ScriptedModel(
            [lab.reply(*[lab.call("look" if n % 50 else "tail", {"path": f"{n}.log"})
                         for n in range(wide)]),
             lab.say("All seen.")]), SYSTEM, [], toolbox, "See them all."))
        spare_model = lab.ScriptedModel([lab.say("Unheard.")])
        spare = harness.run_agent(spare_model, SYSTEM, [], [reader()], "Never mind.")
        opened = (await stepped(spare))["type"]
        closed_it = await shut(spare)

    class Log(list):
        """A record that can be watched going away."""
    dropped, odd = Log(earlier(t)), type("Clock", (), {"tick": lambda self: 0})()
    gone = weakref.ref(dropped)
    try:
        harness.run_agent(odd, SYSTEM, dropped, [reader(), None], "Never started.",
                          max_turns="1")
        unstarted = "returned"
    except Exception as problem:  # noqa: BLE001 - what the call did is the item
        unstarted = f"raised {type(problem).__name__}"
    del dropped
    gc.collect()
    capped = earlier(t)
    capped_before = len(capped)
    zero = harness.run_agent(lab.ScriptedModel([lab.say("Unsent.")]), SYSTEM, capped, [reader()],
                             "Nothing to send.", max_turns=0)
    unstarted = [unstarted, len(capped), hasattr(zero, "close") or hasattr(zero, "aclose")]
    t.expect([sorted(event) for event in events + raised],
             why="The keys of each event of a run stepped by hand, then of a run whose tool "
             "raises: its type and the keys its kind names, no others (run_agent, lesson 7).")
    table = [["agent_start", 0, 0], ["turn_start", 0, 0], ["message_end", 1, 0],
             ["message_end", 2, 1], ["tool_execution_start", 2, 1], ["message_end", 3, 1],
             ["tool_execution_end", 3, 1], ["turn_end", 3, 1], ["turn_start", 3, 1],
             ["message_end", 4, 2], ["turn_end", 4, 2], ["agent_end", 4, 2]]
    t.expect([steps, len(events), len(model.calls), messages[before + 2]["content"],
              printed.getvalue(),
              sorted(set().union(*(kinds(e) for e in events)) - JSON),
              [opened, closed_it, await stepped(spare, "over") if closed_it else None,
               len(spare_model.calls)], [unstarted, gone() is None], broke],
             [[[before, 0]] + table, 12, 2, f"new {path}", "", [],
              ["agent_start", True, "over", 0], [["returned", capped_before, True], True],
              "ScriptExhausted"],
             f"run_agent(...) on a record of {before} messages, its tool (not yet a whole tool "
             f"at the call) replaced in the caller's list before the first event, then {taken} events taken by next(), the "
             "rest by a for loop: [the record's length and the requests before any event, then "
             "at each event its type, the messages added and the requests made by then], the "
             "events in all, the requests made, the tool's result, what was printed or logged "
             "by it, a run whose tool raises (given a max_turns over 10,000), one that answers at "
             "once (again with every environment variable set to each of 1, true, yes, on, "
             f"True, debug, info and verbose), one whose tool returns {heavy} characters and one "
             f"whose model raises at "
             "its second request, all printing to "
             "streams that say they are a terminal, one answering at once on a record of "
             f"{2 * chat} earlier messages, one closed at its tool_execution_start, "
             f"one of a reply of {wide} calls given {len(toolbox)} tools (every 50th call to a "
             "tool named tail it was not given) and "
             "the run below, and the types found anywhere inside the events that are not JSON's own "
             "(dict, list, str, int, float, bool, None); then a second run given one next() and "
             "closed: [its first event, it has close(), what a next() finds after, its requests]; "
             "then a run made with a model that has no complete() and max_turns=\"1\", on a "
             "record of its own, its tool list holding None where a tool is still to come, "
             "never driven and dropped: [[what the call did, then the length of a record of "
             f"{capped_before} messages and whether the run has close() once a run under "
             "max_turns=0 was made on it], nothing holds that record after], and what the run "
             "whose model raised raised.")
    gc.collect()
    t.expect([now - then for now, then in zip(weight_of(harness), weight)], [0, 0],
             "What harness.py's module keeps alive, [objects, bytes], after all these runs less "
             "before the first: nothing a run saw stays in the module for the next run.")


@lab_test("Two runs on one record, made in one order and driven in the other, by a consumer "
          "that writes each event as a JSON line and reads it back: the record, what the first "
          "run's first request held, and what was printed beside the lines.")
async def test_bank_two_runs_made_first_driven_last(t):
    record = earlier(t)
    shown = len(record)
    first_model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.log"})),
                                     lab.say("First done.")])
    second_model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "b.log"})),
                                      lab.say("Second done.")])
    first = harness.run_agent(first_model, SYSTEM, record, [reader()], "First of two asks.")
    later = [{"name": "look"}]  # the second run's tool, made only after the run is
    second = harness.run_agent(second_model, SYSTEM, record, later, "Second of two asks.")
    later[0] = reader()
    weight = weight_of(harness)  # what the module keeps alive with both runs made, none driven
    out = io.StringIO()
    unreadable = []
    with everything_said() as aside:
        with hours_pass():  # turns of minutes by the clock: still plain data
            for run in (second, first):
                for event in await lab.drive(run):
                    out.write(json.dumps(event) + "\n")
        quota = [lab.reply(lab.call("grep", {"path": "q.log"})), lab.fail("quota")]
        for script, cap in ((quota, None), ([lab.say("Unsent.")], 0)):
            for event in await lab.drive(harness.run_agent(
                    lab.ScriptedModel(script), SYSTEM, [], [reader()], "Try the quota again.",
                    max_turns=cap)):
                try:
                    json.dumps(event)
                except (TypeError, ValueError):
                    unreadable.append(event["type"])
        for walked in (1, 5):  # closed at the first event, and at the tool's start
            await lab.drive(harness.run_agent(lab.ScriptedModel(quota), SYSTEM, [], [reader()],
                                              "Never mind."), close_after=walked)
        turns, asked = t.random.randint(255, 300), []  # a long run: its late turns as its first
        longest = lab.ScriptedModel([lab.reply(lab.call("look", {"path": f"{n}.log"}))
                                     for n in range(turns)] + [lab.say("All of them.")])
        late = await lab.drive(harness.run_agent(longest, SYSTEM, [], [reader()], "Read on."),
                               on_event=lambda e: asked.append(len(longest.calls))
                               if e["type"] == "turn_end" else None)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    t.expect([sorted(line) for line in lines],
             why="The keys of each event the two runs wrote as a JSON line: its type and the "
             "keys its kind names, no others (run_agent, lesson 7).")
    t.expect([lab.shape(record[shown:]), lab.shape(first_model.calls[0].messages[shown:]),
              len(lines), [e["type"] for e in lines if "messages" in e],
              [lab.shape(e["messages"]) for e in lines if "messages" in e], aside.getvalue(),
              unreadable],
             ["U A[c1] R(c1) A U A[c1] R(c1) A", "U A[c1] R(c1) A U", 24,
              ["agent_end", "agent_end"], ["U A[c1] R(c1) A"] * 2, "", []],
             "A first run is made, then a second on the same record, and the second is driven "
             "first: the record after both (past its earlier messages), the first run's first "
             "request (past them), the JSON lines written, the types of the lines that carry "
             "\"messages\" and those messages, what was printed or logged besides, then and "
             "over two more runs, one whose reply fails after a call to a tool it was not "
             "given and one under max_turns=0, and the first again closed at its first event "
             "and at its tool_execution_start, then a long run; the events of the first two "
             "that json.dumps cannot write.")
    t.expect([asked == list(range(1, turns + 2)), sorted({" ".join(sorted(e)) for e in late})],
             [True, ["call result type", "call type", "message type", "messages type", "type"]],
             f"A run of {turns} turns of one call each, then an answer: whether at each turn_end "
             "the requests made were that turn's and no more, and the sets of keys its events "
             "carried.")
    gc.collect()
    t.expect([now - then for now, then in zip(weight_of(harness), weight)], [0, 0],
             "What harness.py's module keeps alive, [objects, bytes], once both runs and the "
             "five after them were driven, less when the two were only made: nothing a run saw "
             "stays in the module for the next run.")


# --- rule 2: the twelve events, in order --------------------------------------------------------

@lab_test("A run of drawn rounds of calls on a record holding earlier messages: each event's "
          "type beside the number of messages the record had gained when it came.")
async def test_bank_each_event_beside_the_record(t):
    messages = earlier(t)
    before = len(messages)
    replies, rounds = job(t)
    seen = []
    await lab.drive(harness.run_agent(lab.ScriptedModel(replies), SYSTEM, messages, [reader()],
                                      t.random.choice(ASKS)),
                    on_event=lambda e: seen.append(f"{e['type']}@{len(messages) - before}"))
    wanted, gained = ["agent_start@0", "turn_start@0", "message_end@1"], 1
    for paths in rounds + [[]]:
        gained += 1
        wanted.append(f"message_end@{gained}")
        for _ in paths:
            wanted += [f"tool_execution_start@{gained}", f"message_end@{gained + 1}",
                       f"tool_execution_end@{gained + 1}"]
            gained += 1
        wanted += [f"turn_end@{gained}", f"turn_start@{gained}"]
    t.expect(seen, wanted[:-1] + ["agent_end@" + str(gained)],
             f"Rounds of calls {rounds}, then an answer: each event as type@messages the "
             "record had gained by then.")
    turns = t.random.randint(200, 240)
    script = [lab.reply(lab.call("look", {"path": f"{n}.log"})) for n in range(turns)]
    usual = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 140)  # room for a flat loop, not a frame a turn
    try:
        counted = [e["type"] for e in await lab.drive(harness.run_agent(
            lab.ScriptedModel(script + [lab.say("Read them all.")]), SYSTEM, [], [reader()],
            "Read every log."))].count("turn_start")
    except RecursionError:
        counted = "RecursionError"
    finally:
        sys.setrecursionlimit(usual)
    t.expect(counted, turns + 1,
             f"{turns} turns of one call each, then an answer, with little room for frames: "
             "the turn_start events counted.")


@lab_test("A tool that, when it runs, reports the last three events its run has yielded, over "
          "turns of two or three calls: its results as the model is sent them.")
async def test_bank_a_tool_reads_the_events_so_far(t):
    seen = []

    def peek(arguments):
        return " ".join(seen[-3:])
    rounds = [[f"p{r}_{k}" for k in range(t.random.randint(2, 3))]
              for r in range(t.random.randint(1, 3))]
    replies = [lab.reply(*[lab.call("peek", {"path": p}) for p in paths]) for paths in rounds]
    model = lab.ScriptedModel(replies + [lab.say("Peeked.")])
    await lab.drive(harness.run_agent(model, SYSTEM, [], [tool("peek", peek, PATH)],
                                      t.random.choice(ASKS)),
                    on_event=lambda e: seen.append(e["type"]))
    opening = {0: "message_end message_end tool_execution_start"}
    wanted = [opening.get(r, "turn_start message_end tool_execution_start") if k == 0 else
              "message_end tool_execution_end tool_execution_start"
              for r, paths in enumerate(rounds) for k in range(len(paths))]
    t.expect([m["content"] for m in model.calls[-1].messages if m["role"] == "toolResult"],
             wanted,
             f"A tool `peek` that returns the types of the last three events yielded, called in "
             f"rounds of {[len(p) for p in rounds]} calls: the results in the model's last "
             "request, one per call.")


# --- rule 3: agent_start first, agent_end last, with this run's messages -------------------

@lab_test("Three runs on one record stepped in turn, one event each: one that answers, one "
          "under max_turns=0 and one whose reply fails; the first and last event of each, its "
          "agent_start and agent_end counted, and what its agent_end carries; and a run on the "
          "same record whose model raises, which reaches the consumer with no agent_end.")
async def test_bank_three_runs_stepped_in_turn(t):
    record = earlier(t)
    replies, rounds = job(t)
    failing, fail_rounds = job(t)
    cut = t.random.randint(0, len(fail_rounds))
    resumed, resumed_rounds = job(t)
    shared = lab.ScriptedModel(resumed)  # the second run never asks it; the fourth does
    runs = [harness.run_agent(lab.ScriptedModel(replies), SYSTEM, record, [reader()], "One.",
                              max_turns=len(rounds) + 1),
            harness.run_agent(shared, SYSTEM, record, [reader()], "Two.", max_turns=0),
            harness.run_agent(lab.ScriptedModel(failing[:cut] + [lab.fail("overloaded")]),
                              SYSTEM, record, [reader()], "Three."),
            harness.run_agent(shared, SYSTEM, earlier(t) + [lab.fail("overloaded")],
                              [reader()], "Four.")]
    cause, dropping = hangs_up(t, job(t)[0])  # a fifth, on the same record, whose model raises
    runs.append(harness.run_agent(dropping, SYSTEM, record, [reader()], "Five."))
    events, live, raised = [[], [], [], [], []], [0, 1, 2, 3, 4], []
    while live:
        for n in list(live):
            try:
                event = await stepped(runs[n], None)
            except Exception as problem:  # noqa: BLE001 - what reached the consumer is the item
                raised.append([n + 1, problem is cause])
                event = None
            if event is None:
                live.remove(n)
                continue
            events[n].append(event)
            if n == 0 and events[0][-1]["type"] == "message_end" and len(events[0]) == 3:
                record.append(events[0][-1]["message"])  # the consumer echoes the first prompt
    found = [[e[0]["type"], e[-1]["type"], [x["type"] for x in e].count("agent_start"),
              [x["type"] for x in e].count("agent_end"),
              lab.shape(e[-1].get("messages", []))] for e in events[:4]]
    found.append([[x["type"] for x in events[4][:1]], [x["type"] for x in events[4]].count(
        "agent_end"), raised])
    t.expect(found, [["agent_start", "agent_end", 1, 1, shape]
                     for shape in (shape_of(rounds), "U A(error)",
                                   shape_of(fail_rounds[:cut], "A(error)"),
                                   shape_of(resumed_rounds))]
             + [[["agent_start"], 0, [[5, True]]]],
             "Runs that answer after rounds " + str(rounds) + " (under max_turns just enough "
             f"for them), stop under max_turns=0, and fail after {cut} rounds, all on one "
             "record, the first run's prompt put on the record once more by the consumer when "
             "it is announced, and a fourth run on a record of its own that ends in an earlier "
             "run's failed reply, made with the second run's model, and a fifth on the shared "
             "record whose model raises at a drawn request, each given one next() in "
             "turn: for "
             "each of the first four, [its first event, its last, agent_starts, agent_ends, the "
             "shape of what its last event carries as messages]; for the fifth, [its first "
             "event, its agent_ends before the exception, [the run the exception came out of, it "
             "is the model's] for each exception the consumer met].")


@lab_test("A consumer keeps only the last event of a run, and starts a new conversation from "
          "what it carries: for an answer, a failed reply with words, and max_turns=0, what "
          "the new run's first request holds, and whether anything still holds the old record; "
          "and a run whose model raises, which ends in no agent_end to carry on from.")
async def test_bank_a_conversation_carried_on_from_agent_end(t):
    class Record(list):
        """A record that can be watched going away: a plain list cannot be weakly referred to."""
    found, wanted, records = [], [], []
    for ending in ("answer", "failed", "capped"):
        replies, rounds = job(t)
        script = {"answer": replies, "failed": replies[:-1] + [lab.fail("reset", "Half.")],
                  "capped": [lab.say("Never sent.")]}[ending]
        record = Record(earlier(t))
        weak = weakref.ref(record)
        events = await lab.drive(harness.run_agent(
            lab.ScriptedModel(script), SYSTEM, record, [reader()], t.random.choice(ASKS),
            **({"max_turns": 0} if ending == "capped" else {})))
        del record  # the consumer keeps only the last event, not the record
        gc.collect()
        records.append(weak() is None)
        last = events[-1]
        model = lab.ScriptedModel([lab.say("Carrying on.")])
        carried = await lab.drive(harness.run_agent(model, SYSTEM, list(last["messages"]),
                                                    [reader()], "And now?"))
        found.append([last["type"], lab.shape(model.calls[0].messages),
                      lab.shape(carried[-1]["messages"])])
        wanted.append(["agent_end", {"answer": shape_of(rounds) + " U",
                                     "failed": shape_of(rounds, "A(error)") + " U",
                                     "capped": "U U"}[ending], "U A"])
    t.expect(found, wanted,
             "Runs on records holding earlier messages, ending in an answer, a failed reply "
             "that got words out, and the max_turns=0 stop (whose empty ending no view "
             "carries); a new run on a list of the messages the last event carried: [the last "
             "event's type, the new run's first request, what the new run's agent_end "
             "carries].")
    plain = earlier(t)  # a plain list, which cannot be weakly referred to: its references
    held = sys.getrefcount(plain)
    run = harness.run_agent(lab.ScriptedModel([lab.say("Plain.")]), SYSTEM, plain, [reader()],
                            "And a plain list?")
    while (await stepped(run))["type"] != "agent_end":  # stepped by hand up to agent_end,
        pass
    await shut(run)  # and closed there, never asked past it
    del run
    gc.collect()
    records.append(sys.getrefcount(plain) - held)

    def beyond_the_list(record):  # each message's references, less the list's own holds of it
        return [sys.getrefcount(m) - sum(other is m for other in record) for m in record]
    records.append(sum(beyond_the_list(plain)) - sum(beyond_the_list([dict(m) for m in plain])))
    t.expect(records, [True] * 3 + [0, 0],
             "Once agent_end is yielded the run keeps nothing of the caller's: whether each of "
             "the three runs' records was gone once the consumer had let it go, keeping only "
             "the last event, before the new run began; then the references a plain list "
             "record gained over a run of its own, stepped by hand up to agent_end and closed there, "
             "never asked past it, and the references its messages have "
             "beyond the list's, less those of copies of them that only a list holds.")
    replies, rounds = job(t)
    cause, dropping = hangs_up(t, replies)
    last = {}  # the consumer keeps only the last event it took, as above

    def keep(event):
        last.clear()
        last.update(event)
    try:
        await lab.drive(harness.run_agent(dropping, SYSTEM, earlier(t), [reader()],
                                          t.random.choice(ASKS)), on_event=keep)
        caught = "nothing"
    except Exception as problem:  # noqa: BLE001 - what reached the consumer is the item
        caught = "the model's exception" if problem is cause else type(problem).__name__
    t.expect([last.get("type") == "agent_end", "messages" in last, caught],
             [False, False, "the model's exception"],
             "A run whose model raises at a drawn request, read by the same consumer, which keeps "
             "only the last event it took and would carry on from what an agent_end carries: "
             "[the last event it took before the exception reached it is an agent_end, it "
             "carries messages, what reached the consumer]. An exception the model raises is no "
             "way out: no agent_end comes before it.")


# --- rule 4: turn_start and turn_end --------------------------------------------------------------

@lab_test("A consumer follows how deep it is in turns, and at each turn_end notes the role, "
          "stop_reason and calls of the message it carries: a run of drawn rounds of calls.")
async def test_bank_turns_open_and_close_around_their_replies(t):
    replies, rounds = job(t)
    replies[-1] = lab.reply()  # the run ends in a reply with no words and no calls
    model, depth, marks, record = lab.ScriptedModel(replies), [0], [], earlier(t)

    def follow(event):
        if event["type"] == "tool_execution_start":
            record.append(lab.say("(another assistant chimes in)"))
        if event["type"] in ("turn_start", "turn_end"):
            depth[0] += 1 if event["type"] == "turn_start" else -1
            marks.append(str(depth[0]))
        if event["type"] == "turn_start":
            marks.append(f"asked {len(model.calls)}")
        if event["type"] == "turn_end":
            m = event["message"]
            marks.append(f"{m['role']}/{m.get('stop_reason')}/{len(harness.tool_calls(m))}")
    await lab.drive(harness.run_agent(model, SYSTEM, record, [reader()],
                                      t.random.choice(ASKS)), on_event=follow)
    t.expect(marks, [mark for n, paths in enumerate(rounds + [[]]) for mark in
                     ("1", f"asked {n}", "0",
                      f"assistant/{'toolUse' if paths else 'stop'}/{len(paths)}")],
             f"Rounds of calls {rounds}, then a reply with no words and no calls, the consumer "
             "putting an assistant message of its own on the record at each "
             "tool_execution_start: the depth in turns after each turn_start and turn_end, the "
             "requests made by each turn_start, and at each turn_end its message as "
             "role/stop_reason/calls.")
    model, depth[0], marks, record = lab.ScriptedModel(replies), 0, [], []
    await lab.drive(harness.run_agent(model, SYSTEM, record, [], t.random.choice(ASKS)),
                    on_event=follow)
    t.expect(marks, [mark for n, paths in enumerate(rounds + [[]]) for mark in
                     ("1", f"asked {n}", "0",
                      f"assistant/{'toolUse' if paths else 'stop'}/{len(paths)}")],
             f"The same rounds of calls {rounds} and ending, in a run given no tools at all, "
             "so that each call finds no tool: the depth in turns after each turn_start and "
             "turn_end, the requests made by each turn_start, and at each turn_end its message "
             "as role/stop_reason/calls.")


@lab_test("Runs that end in a failed reply with words and calls, and in a max_turns stop, "
          "after rounds of calls: the message each turn_end carries, beside the reply of "
          "its turn as the record holds it.")
async def test_bank_turn_end_of_failing_and_capped_runs(t):
    found, wanted = [], []
    for ending in ("failed", "capped", "empty"):
        replies, rounds = job(t)
        record, asked = [], []
        last = {"failed": lab.fail("dropped", " Partly.\n\n", lab.call("look", {"path": "x"})),
                "capped": lab.reply(lab.call("look", {"path": "y"})), "empty": lab.reply()}
        model = lab.ScriptedModel(replies[:-1] + [last[ending]])
        events = await lab.drive(harness.run_agent(
            model, SYSTEM, record, [reader()], t.random.choice(ASKS),
            **({"max_turns": len(rounds)} if ending == "capped" else {})),
            on_event=lambda e: asked.append(len(model.calls)) if e["type"] == "turn_start"
            else None)
        ends = [e["message"] for e in events if e["type"] == "turn_end"]
        replies_on_record = [m for m in record if m["role"] == "assistant"]
        found.append([[m["role"] for m in ends], ends == replies_on_record,
                      ends[-1].get("stop_reason"), harness.text_of(ends[-1]), asked])
        wanted.append([["assistant"] * (len(rounds) + 1), True,
                       "stop" if ending == "empty" else "error",
                       " Partly.\n\n" if ending == "failed" else "", list(range(len(rounds) + 1))])
    t.expect(found, wanted,
             "For a run whose reply fails with words (spaces around them) and a call after "
             "rounds of calls, then "
             "one stopped by max_turns after as many rounds, then one ending in a reply with no "
             "words and no calls: the roles of the turn_end messages, whether they are the "
             "record's replies in order, the last one's stop_reason and words, and the requests "
             "made by each turn_start.")


# --- rule 5: every recorded message announced once, after it is on the record ---------------

@lab_test("At every event of a run on a record holding earlier messages, what the record has "
          "gained beyond the messages announced so far.")
async def test_bank_the_record_never_runs_ahead_or_behind(t):
    messages = earlier(t)
    before = len(messages)
    replies, rounds = job(t)
    told, rows = [0], []

    def measure(event):
        told[0] += event["type"] == "message_end"
        rows.append(f"{event['type']}:{len(messages) - before - told[0]}")
    await lab.drive(harness.run_agent(lab.ScriptedModel(replies), SYSTEM, messages, [reader()],
                                      t.random.choice(ASKS)), on_event=measure)
    types = ["agent_start", "turn_start", "message_end"]
    for paths in rounds + [[]]:
        types += ["message_end"] + ["tool_execution_start", "message_end",
                                    "tool_execution_end"] * len(paths) + ["turn_end", "turn_start"]
    t.expect([rows, told[0]], [[f"{kind}:0" for kind in types[:-1] + ["agent_end"]],
                               2 + len(rounds) + sum(map(len, rounds))],
             f"Rounds of calls {rounds}, then an answer: at each event, type:(messages the "
             "record gained - message_end events so far, this one included), and the "
             "message_end events in all.")
    ahead = []
    for cap, last in ((None, lab.fail("dropped")), (len(rounds), lab.say("Unsent."))):
        messages, told[0], rows = earlier(t), 0, []
        before = len(messages)
        broken = rounds[-1][-1]
        await lab.drive(harness.run_agent(lab.ScriptedModel(replies[:-1] + [last]), SYSTEM,
                                          messages, [raiser(broken)], t.random.choice(ASKS),
                                          max_turns=cap), on_event=measure)
        ahead.append([row for row in rows if not row.endswith(":0")])
    t.expect(ahead, [[], []],
             f"Rounds of calls {rounds}, the tool raising at {rounds[-1][-1]}, ending once in a "
             "failed reply and once in the max_turns stop: the events at which the record had "
             "gained other than the messages announced so far, as type:(gained - announced).")
    wide, messages, told[0], rows = t.random.randint(4, 20), earlier(t), 0, []
    before, chosen = len(messages), t.random.randint(1, wide)
    await lab.drive(harness.run_agent(lab.ScriptedModel(
        [lab.reply(*[lab.call("look", {"path": f"{n}.log"}) for n in range(wide)]),
         lab.say("Unsent.")]), SYSTEM, messages, [reader()], "Look at them all."),
        on_event=measure, close_after=3 * chosen + 2)  # closed at call chosen's start
    t.expect([rows[-1], len(messages) - before - told[0]],
             ["tool_execution_start:0", 0],
             f"One reply of {wide} calls, the run closed at call {chosen}'s "
             "tool_execution_start: that event as type:(gained - announced), and what the "
             "record had gained beyond the messages announced once the run was closed.")
    mine, model = [], lab.ScriptedModel([lab.reply(lab.call("look", {"path": "web.log"})),
                                         lab.say("Cache checked.")])
    await lab.drive(harness.run_agent(model, SYSTEM, mine, [reader()], "Check the web log."),
                    on_event=lambda e: mine.append(harness.user_message("Check the cache too."))
                    if e["type"] == "tool_execution_end" else None)
    t.expect([lab.shape(request.messages) for request in model.calls],
             ["U", "U A[c1] R(c1) U"],
             "A consumer that adds a line of its own to the record at tool_execution_end: "
             "what each request held.")


@lab_test("A consumer checks, at each message_end, that the message is the record's last, and "
          "afterwards that every message the run recorded was announced: a run that asks, "
          "answers, and a second run on the same record.")
async def test_bank_every_recorded_message_was_announced(t):
    messages = earlier(t)
    before = len(messages)
    announced, checks = [], []
    lines = t.random.randint(300, 3_000)  # every result this many lines of 100 characters
    long = ("-" * 99 + "\n") * lines

    def check(event):
        if event["type"] == "message_end":
            announced.append(event["message"])
            checks.append(event["message"] == messages[-1])
    endings = ("answer", "empty", "failed", "capped")
    for ending in endings:
        replies, rounds = job(t)
        last = {"empty": lab.reply(), "failed": lab.fail("reset")}.get(ending, replies[-1])
        tools = [raiser(rounds[0][0])] if ending in ("failed", "capped") else \
            [reader(prefix=long)]
        await lab.drive(harness.run_agent(lab.ScriptedModel(replies[:-1] + [last]), SYSTEM,
                                          messages, tools, t.random.choice(ASKS),
                                          max_turns=len(rounds) if ending == "capped" else None),
                        on_event=check)
    quiet = [tool(name, lambda arguments: "", PATH) for name in ("bash", "write")]
    await lab.drive(harness.run_agent(lab.ScriptedModel(
        [lab.reply(lab.call("bash", {"path": "."}), lab.call("write", {"path": "b.log"})),
         lab.say("Changed.")]), SYSTEM, messages, quiet, ""), on_event=check)
    t.expect([checks.count(False), len(checks) == len(messages) - before,
              [m in announced for m in messages[before:]].count(False),
              [m["role"] for m in announced] == [m["role"] for m in messages[before:]]],
             [0, True, 0, True],
             f"Four runs in a row on one record, each output of the first two {lines} lines "
             "long, the second ending in a reply with no words "
             "and no calls, the third in a failed reply and the fourth in the max_turns stop, "
             "the last two with a tool that raises, then a fifth, given an empty prompt, whose "
             "reply calls bash and "
             "write, each returning \"\": how many message_end events came before their "
             "message was the record's last, whether there was one per message recorded, how "
             "many recorded messages were never announced, and whether the announcements "
             "follow the record's order.")
    t.expect(lab.shape(announced).count("U"), len(endings) + 1,
             "The user messages announced over the runs: each run's prompt.")


# --- rule 6: the tool events around a call ----------------------------------------------------

@lab_test("A consumer and the tool write to one log: each tool_execution_start and whether its "
          "call is the recorded one, each run of the tool, the event that came right after it, "
          "and at each tool_execution_end whether its result is the one recorded for its call; "
          "the consumer adds a line of its own at each result's message_end, one call's tool "
          "raises, and one call names a tool the run was not given; then a run whose consumer "
          "puts a call of its own under every tool_execution_start's \"call\".")
async def test_bank_one_log_of_the_tool_and_its_events(t):
    log, messages = [], []
    replies, rounds = job(t)
    broken = t.random.choice([p for paths in rounds for p in paths])

    size = t.random.randint(5_000, 40_000)  # every output this long

    def look(arguments):
        log.append(f"ran {arguments['path']}")
        if arguments["path"] == broken:
            raise PermissionError("no access to " + broken + " " + "!" * size)
        return "seen " + arguments["path"] + " " + "." * size
    far = "logs/" * t.random.randint(200_001, 800_000) + "z.log"  # a million characters or more
    replies[-2] = lab.reply(*replies[-2]["content"], lab.call("tail", {"path": far}))

    def named(path):
        return path if path is None or len(path) < 100 else f"a path of {len(path)} characters"

    def note(event):
        if log and log[-1].startswith("ran "):
            log.append(f"then {event['type']}")
        if event["type"] == "tool_execution_start":
            asked = [block for m in messages if m["role"] == "assistant"
                     for block in harness.tool_calls(m)]
            log.append(f"start {named(event['call']['arguments'].get('path'))} "
                       f"{event['call'] in asked}")
        if event["type"] == "message_end" and event["message"]["role"] == "toolResult":
            messages.append(harness.user_message("(noted)"))
        if event["type"] == "tool_execution_end":
            mine = [m for m in messages if m.get("tool_call_id") == event["call"]["id"]]
            log.append(f"end {named(event['call']['arguments'].get('path'))} "
                       f"{mine == [event['result']]} "
                       f"{event['result']['is_error']}")
    await lab.drive(harness.run_agent(lab.ScriptedModel(replies), SYSTEM, messages,
                                      [tool("look", look, PATH)], t.random.choice(ASKS)),
                    on_event=note)
    wanted = [line for paths in rounds for p in paths
              for line in (f"start {p} True", f"ran {p}", "then message_end",
                           f"end {p} True {p == broken}")]
    t.expect(log, wanted + [f"start {named(far)} True", f"end {named(far)} True True"],
             f"Rounds of calls {rounds}, the tool raising at {broken}, each output over "
             f"{size} characters, and a call to `tail` last, its path {len(far)} characters "
             "long: the log the consumer and the tool wrote, in order.")
    swapped_rounds = job(t)[1]  # a second run: each start's call swapped by the consumer
    ran, erased = [], []
    erase = tool("erase", lambda arguments: erased.append(arguments["path"]) or "erased", PATH)

    def swap(event):
        if event["type"] == "tool_execution_start":
            event["call"] = {"type": "toolCall", "id": "x-" + str(event["call"]["id"]),
                             "name": "erase", "arguments": {"path": "/"}}
    shell = tool("bash", lambda arguments: ran.append(f"bash {arguments['path']}") or "built",
                 PATH)
    model = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": p}) for p in paths])
                               for paths in swapped_rounds]
                              + [lab.reply(lab.call("bash", {"path": "make"})), lab.say("Looked.")])
    await lab.drive(harness.run_agent(model, SYSTEM, earlier(t), [reader(ran), erase, shell],
                                      t.random.choice(ASKS)), on_event=swap)
    looked = [p for paths in swapped_rounds for p in paths]
    t.expect([ran, erased, [[m["tool_call_id"], m["content"]]
                            for m in model.calls[-1].messages if m["role"] == "toolResult"]],
             [[f"ran {p}" for p in looked] + ["bash make"], [],
              [[f"c{n}", f"seen {p}"] for n, p in enumerate(looked, 1)]
              + [[f"c{len(looked) + 1}", "built"]]],
             f"Then rounds of calls {swapped_rounds} and a round of one call to bash, each "
             "tool_execution_start's call replaced by the consumer with erase on / under "
             "another id: [what look and bash ran, what erase ran, each result's id and text "
             "in the last request].")
    turns, huge, after = t.random.randint(6, 9), t.random.randint(1_000_001, 3_000_000), []

    def edit(arguments):
        after.append(f"ran edit {arguments['path']}")
        return ""

    def dump(arguments):
        after.append(f"ran dump {arguments['path']}")
        return "#" * huge
    def bash(arguments):
        after.append(f"ran bash {arguments['path']}")
        return "ok"
    names = [("bash", "edit", "dump")[n % 3] for n in range(1, turns + 1)]
    model = lab.ScriptedModel([lab.reply(lab.call(name, {"path": f"{n}.log"}))
                               for n, name in enumerate(names, 1)] + [lab.say("Edited.")])
    await lab.drive(harness.run_agent(model, SYSTEM, [], [tool("edit", edit, PATH),
                                                          tool("dump", dump, PATH),
                                                          tool("bash", bash, PATH)],
                                      t.random.choice(ASKS)),
                    on_event=lambda e: after.append(e["type"]))
    t.expect([line for n, line in enumerate(after) if line.startswith("ran ")
              or n and after[n - 1].startswith("ran ") or n + 1 < len(after)
              and after[n + 1].startswith("ran ")],
             [line for n, name in enumerate(names, 1)
              for line in ("tool_execution_start", f"ran {name} {n}.log", "message_end")],
             f"A run of {turns} turns of one call each, to a tool edit that returns \"\", "
             f"one dump that returns {huge} characters and one bash in turn: the events just before and just "
             "after each tool ran.")


@lab_test("One reply of just over 300 calls: the results on the record, in the next request, "
          "and the last tool_execution_end's result.")
async def test_bank_a_reply_of_over_three_hundred_calls(t):
    many, lines = 300 + t.random.randint(1, 6), t.random.randint(60, 400)
    size = 100 * lines
    model = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": f"{n}.log"})
                                           for n in range(1, many + 1)]), lab.say("All seen.")])
    messages = []
    big = tool("look", lambda arguments: "seen " + arguments["path"] + (
        ("\n" + "." * 99) * lines if arguments["path"] == "1.log" else ""), PATH)
    events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [big],
                                               "Read every log."))
    ends = [e for e in events if e["type"] == "tool_execution_end"]
    results = [m for m in messages if m["role"] == "toolResult"]
    astray = [n for n, e in enumerate(events) if e["type"] == "tool_execution_end"
              and events[n - 1] != {"type": "message_end", "message": e["result"]}]
    t.expect([sum(m["role"] == "toolResult" for m in messages),
              sum(m["role"] == "toolResult" for m in model.calls[1].messages),
              ends[-1]["result"]["content"], messages[-2]["tool_call_id"], len(events),
              len(astray), sum(e["result"] != m for e, m in zip(ends, results))],
             [many, many, f"seen {many}.log", f"c{many}", 3 * many + 9, 0, 0],
             f"A reply of {many} calls, the first one's output {size} characters long in "
             f"{lines} lines: the results on the record, in the request after, the last "
             "tool_execution_end's result, the call id of the record's last result, the events "
             "in all, the tool_execution_end events not right after their own result's "
             "message_end, and those whose result is not the one recorded, whole.")


# --- rule 7: each event a new dict ----------------------------------------------------------------

def long_job(t):
    """A job of many rounds of one call each, drawn: the model's replies, then an answer; and the
    calls of each round."""
    rounds = [[f"g{k}.log"] for k in range(t.random.randint(20, 40))]
    return [lab.reply(lab.call("look", {"path": p})) for [p] in rounds] + [lab.say("Long.")], rounds


def sequence(rounds):
    """The types of the events of a run whose model asks for `rounds`, then answers."""
    types = ["agent_start", "turn_start", "message_end"]
    for paths in rounds:
        types += ["message_end"] + ["tool_execution_start", "message_end",
                                    "tool_execution_end"] * len(paths) + ["turn_end", "turn_start"]
    return types + ["message_end", "turn_end", "agent_end"]


@lab_test("Three runs on records of their own, stepped in turn with next(), by a consumer that "
          "stamps each event with where it came and keeps them all: the stamps and types the "
          "kept events hold once every run is over.")
async def test_bank_three_runs_stamped_in_turn(t):
    jobs = [job(t) for _ in range(2)] + [long_job(t)]
    runs = [harness.run_agent(lab.ScriptedModel(replies), SYSTEM, earlier(t), [reader()], ask)
            for (replies, _), ask in zip(jobs, t.random.sample(ASKS, 3))]
    kept, live, step = [], [0, 1, 2], 0
    while live:
        for n in list(live):
            event = await stepped(runs[n], None)
            if event is None:
                live.remove(n)
                continue
            step += 1
            event["stamp"] = [n, step]  # the consumer's own key
            kept.append([n, step, event])
    found = sorted(([n, event.get("type"), event["stamp"] == [n, step]]
                    for n, step, event in kept), key=lambda item: item[0])
    wanted = [[n, kind, True] for n, (_, rounds) in enumerate(jobs) for kind in sequence(rounds)]
    t.expect(found, wanted,
             "Runs answering after rounds " + str([rounds for _, rounds in jobs[:2]]) + " and "
             f"{len(jobs[2][1])} rounds of one call, given "
             "one next() each in turn, each event stamped [its run, its step] as it came: for "
             "every kept event, once all three are over, [its run, its type, it still holds its "
             "own stamp].")


@lab_test("A consumer that takes each event apart as it reads it, popping its type and emptying "
          "it: the types it read over a run of drawn rounds, then a run stopped by max_turns=0.")
async def test_bank_a_consumer_that_empties_each_event(t):
    replies, rounds = job(t)
    read = []

    def take_apart(event):
        read.append(event.pop("type", None))
        event.clear()  # the consumer's to change: nothing of it is needed again
        return lab.tick() if read[-1] == "turn_end" else None  # a turn for the rest of the world
    await lab.drive(harness.run_agent(lab.ScriptedModel(replies), SYSTEM, earlier(t), [reader()],
                                      t.random.choice(ASKS)), on_event=take_apart)
    for _ in range(2):  # twice: a dict kept for the stop's turn comes back empty
        await lab.drive(harness.run_agent(lab.ScriptedModel([lab.say("Unsent.")]), SYSTEM, [],
                                          [reader()], "Once more.", max_turns=0),
                        on_event=take_apart)
    long_replies, long_rounds = long_job(t)
    await lab.drive(harness.run_agent(lab.ScriptedModel(long_replies), SYSTEM, [], [reader()],
                                      "Keep going."), on_event=take_apart)
    longest = [[f"h{k}.log"] for k in range(t.random.randint(260, 300))]
    for _ in range(2):  # two runs past 250 turns: a dict kept for a late turn comes back empty
        await lab.drive(harness.run_agent(
            lab.ScriptedModel([lab.reply(lab.call("look", {"path": p})) for [p] in longest] +
                              [lab.say("Longest.")]), SYSTEM, [], [reader()], "Keep on going."),
            on_event=take_apart)
    t.expect(read, sequence(rounds) + ["agent_start", "turn_start", "message_end", "message_end",
                                       "turn_end", "agent_end"] * 2 + sequence(long_rounds) +
             sequence(longest) * 2,
             f"A run answering after rounds {rounds}, then two under max_turns=0, then one of "
             f"{len(long_rounds)} rounds of one call, then two of {len(longest)}, each event's "
             "type popped and the event emptied as it is read: the types read, in order.")

