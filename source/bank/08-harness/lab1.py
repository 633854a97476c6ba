"""Lab 8.1's grading bank: scenarios for each rule of its ledger (source/lessons/08-harness/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario reaches its rule through another entry point than the public tests, or observes
another thing (two harnesses made from one list, a snapshot taken inside a tool, a caller that
empties its own list of tools or tries to clear a snapshot, a run stepped with next() and
dropped, a second prompt() made by a tool, the inner run's own state once the outer one is
over), so that the public tests' wanted expressions, evaluated in a bank test's frame, do not
give its values.
"""
import copy
import gc
import inspect
import operator
import types

import harness
import lab
from lab.kit import hours_pass, lab_test, raised, raised_now, tool

YEAR = 365 * 24 * 60  # in minutes, hours_pass's step: every reading of a clock is years on

LAB = "8.1"
SYSTEM = "You look after a small repository."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
BUSY = "already running; use steer() or follow_up()"
NAMES = ["main.py", "util.py", "docs/index.md", "pyproject.toml", "CHANGES", "tests/test_x.py"]
WHY = ["overloaded", "upstream timeout", "", "quota exceeded"]
MARKS = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"  # any mark a frontend's command may start with


def reader(ran=None, during=None):
    """A tool `read` that answers "text of <path>"; `during(arguments)` runs inside it."""
    def fn(arguments):
        if during is not None:
            during(arguments)
        if ran is not None:
            ran.append(arguments["path"])
        return "text of " + arguments["path"]
    return tool("read", fn, PATH)


def reads(paths):
    """One reply asking to read each of `paths`, one call each."""
    return lab.reply(*[lab.call("read", {"path": p}) for p in paths])


def dropped(request):
    """A script entry whose request fails in the model itself: it raises, as a client does."""
    raise TimeoutError("the model took too long")


def one_round(width, first=1):
    """The events of a run whose model asks for `width` reads (ids from c<first>) in one reply
    and then answers, each event as its type with what a message_end announces."""
    ids = [f"c{n}" for n in range(first, first + width)]
    events = ["agent_start", "turn_start", "message_end U", f"message_end A[{','.join(ids)}]"]
    for id in ids:
        events += ["tool_execution_start", f"message_end R({id})", "tool_execution_end"]
    return events + ["turn_end", "turn_start", "message_end A", "turn_end", "agent_end"]


def announced(events):
    """The shape of what the message_end events among `events` announce."""
    return " ".join(e.split(" ", 1)[1] for e in events if e.startswith("message_end"))


def refusals_of(h, words):
    """What prompt(mark + words) raised for every mark of MARKS: one item when each raised the
    same, else [mark, what] for each that did not raise the refusal."""
    got = [refusal(h, mark + words) for mark in MARKS]
    if got == got[:1] * len(got):
        return got[0]
    return [[mark, what] for mark, what in zip(MARKS, got) if what != "RuntimeError: " + BUSY]


def refusal(h, words):
    """What prompt(words) raised, a RuntimeError of any subclass written as one (`except
    RuntimeError` catches it), or None if it handed back a run."""
    return raised_now(lambda: h.prompt(words), kind=RuntimeError)


def refused_again(h, words, times):
    """What prompt(words) raised, tried `times` times in a row, as Send clicked over and over:
    one item when each raised the same, else everything it got."""
    got = {refusal(h, words) for _ in range(times)}
    return got.pop() if len(got) == 1 else sorted(map(str, got))


# Not words at all: while a run is going, prompt() hands back no run for any of them; nor for
# nothing typed, or spaces and newlines alone (BLANK), words all the same.
NOT_TEXT = (None, 0, 2.5, b"Read.", ("Read.",), {"role": "user", "content": "Read."})
BLANK = ("", "   ", "\n\t", " \r\n")


def handed_back(h):
    """Which of NOT_TEXT prompt() took without raising (any exception will do, since what it
    does with what is not a string is the student's), each a second run handed back."""
    handed = []
    for given in NOT_TEXT + BLANK:
        try:
            h.prompt(given)
        except Exception:
            continue
        handed.append(repr(given))
    return handed


def keeping(loop, kept, holders):
    """run_agent as `loop` is, each event it makes put in `kept` before it goes on, and the run
    closed when its stepper is: a way to tell run_agent's own events from copies of them. Each
    stepper is put in `holders` too, so that only a harness that closes it ends it, as when
    something else holds the inner run."""
    def spy(*arguments, **keywords):
        made = loop(*arguments, **keywords)

        def stepper():
            try:
                while True:
                    try:
                        kept.append(next(made))
                    except StopIteration:
                        return
                    yield kept[-1]
            finally:
                made.close()
        holders.append(stepper())
        return holders[-1]
    return spy


def inner_runs(model):
    """The run_agent generators that hold `model` in a frame that is still there: the inner
    runs of a harness over it that have not ended."""
    return [thing for thing in gc.get_referrers(model)
            if inspect.isgenerator(thing) and thing.gi_code is harness.run_agent.__code__]


# --- rule 1: Harness(...) keeps what stays the same, and a transcript of its own -----------------

@lab_test("Two harnesses made from one list of earlier messages, an empty failed reply among them, "
          "each start from every message given, the very dicts, and never see each other's runs, "
          "nor does the caller's list.")
async def test_bank_two_harnesses_from_one_list_keep_apart(t):
    earlier = []
    for n in range(t.random.randint(1, 3)):
        earlier += [harness.user_message(f"Note {n}: {t.random.choice(NAMES)}."), lab.say("Kept.")]
    gap = t.random.randrange(len(earlier) // 2)
    earlier[2 * gap + 1] = harness.error_message(t.random.choice(WHY))
    given = list(earlier)
    contents = [dict(message) for message in earlier]
    path = t.random.choice(NAMES)
    one = lab.ScriptedModel([reads([path]), lab.say("First done.")])
    two = lab.ScriptedModel([lab.say("Second done.")])
    first = harness.Harness(one, SYSTEM, [reader()], messages=earlier)
    second = harness.Harness(two, SYSTEM, [], messages=earlier)
    said = []

    def keep(event):
        if event["type"] == "message_end":
            said.append(event["message"])
    await lab.drive(first.prompt("Read it."), on_event=keep)
    await lab.drive(second.prompt("Anything new?"))
    t.expect([lab.shape(first.messages), lab.shape(second.messages), lab.shape(earlier),
              lab.shape(two.calls[0].messages)],
             [lab.shape(given) + " U A[c1] R(c1) A", lab.shape(given) + " U A",
              lab.shape(given), lab.shape(harness.context_for_model(given)) + " U"],
             "Two harnesses made from one list, each run once. Items: the shape of the first's "
             "transcript, of the second's, of the caller's list afterwards, and of the second's "
             "first request, which leaves the empty failed reply out while its transcript keeps "
             "it.")
    t.expect([[m is g for m, g in zip(first.messages, given + said)],
              [m is g for m, g in zip(second.messages, given)]],
             [[True] * (len(given) + 4), [True] * len(given)],
             "Whether each message of each harness's transcript is the very dict given, or the "
             "very dict a message_end of its run announced: the list is copied, its messages "
             "are shared.")
    blank = []
    third = harness.Harness(lab.ScriptedModel([lab.say("Third done.")]), SYSTEM, [], messages=blank)
    fourth = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=blank)
    await lab.drive(third.prompt("Start fresh."))
    crashed = [harness.user_message(f"Open {path}."), reads([path])]
    said = f"Open {path}."  # the same words twice, and the same reply twice, as given
    doubled = [harness.user_message(said), harness.user_message(said), harness.user_message(said),
               lab.say("Kept."), lab.say("Kept."), lab.say("Kept."),
               {"role": "toolResult", "tool_call_id": "c7", "tool_name": "read",
                "content": "text of " + path, "is_error": False}]  # its call was never kept
    saved = [m for n in range(t.random.randint(1100, 1200))
             for m in (harness.user_message(f"Note {n}."), lab.say("Kept."))]
    saved = saved * t.random.randint(140, 180) + [lab.say("Kept.")] * t.random.randint(900, 1500)
    long = harness.Harness(two, SYSTEM, [], messages=saved).messages
    page = "".join(f"{t.random.choice(NAMES)}: line {n}\n" for n in range(t.random.randint(2500, 2600)))
    page *= t.random.randint(25, 40)  # a file of a megabyte or more, read again and again
    heavy = [lab.say("Kept."), {"role": "toolResult", "tool_call_id": "c9", "tool_name": "read",
                                "content": page, "is_error": False},
             harness.user_message(page)] * t.random.randint(50, 70)  # past 100M characters
    weighed = harness.Harness(two, SYSTEM, [], messages=heavy).messages
    kept = harness.Harness(two, SYSTEM, [], messages=doubled).messages
    t.expect([[dict(m) == c for m, c in zip(earlier, contents)], lab.shape(blank),
              lab.shape(fourth.messages), lab.shape(third.messages),
              lab.show(harness.Harness(two, SYSTEM, [], messages=crashed).messages),
              [lab.show(kept), all(m is n for m, n in zip(kept, doubled))],
              [len(long), all(m is n for m, n in zip(long, saved))],
              [len(weighed), all(m is n for m, n in zip(weighed, heavy))]],
             [[True] * len(contents), "", "", "U A", lab.show(crashed), [lab.show(doubled), True],
              [len(saved), True], [len(heavy), True]],
             "After those runs, whether each given dict still holds just what it held; then two "
             "harnesses made from one empty list, the first run once; then a harness made from a "
             "list that ends in a call with no result, one that says the same words three times "
             "in a row, answers three times alike and ends in a result whose call it lacks, and a long saved one of over two thousand given 140 to 180 times over, over 308,000 messages, then one reply nine hundred times or more in a row, and one of big messages, a file of a megabyte or more read and pasted 50 to 70 times over, past a hundred million characters. Items: those dicts, the shape of "
             "the empty list afterwards, of the second harness's transcript, of the first's, the "
             "record of the harness given the unanswered call, [of the one given the doubles, whether "
             "its messages are the very dicts given, the result too], "
             "[the long one's length, whether its messages are the very dicts given], and the "
             "same for the one of big messages.")


@lab_test("A harness keeps its own list of tools and its cap: a caller who empties its list "
          "afterwards takes no tool away, and a cap of 0, handed on to a harness made from "
          "another's snapshot, lets no request out.")
async def test_bank_tools_and_cap_stay_with_the_harness(t):
    ran = []
    extra = t.random.sample(["grep", "write", "bash"], t.random.randint(1, 2))
    tools = [reader(ran)] + [tool(name, lambda a: "", description=f"The {name} tool.")
                             for name in extra]
    t.random.shuffle(tools)
    if [each["name"] for each in tools] == sorted(each["name"] for each in tools):
        tools.reverse()  # never in the order of their names: the order given is the harness's
    names = [each["name"] for each in tools]
    paths = t.random.sample(NAMES, t.random.randint(1, 3))
    model = lab.ScriptedModel([reads(paths), lab.say("Read.")])
    system = t.random.choice(["", "  ", "\n"]) + SYSTEM + t.random.choice(["\n", "\t", " \n"])
    cap = t.random.choice([None, 2, 5])
    h = harness.Harness(model, system, tools, max_turns=cap)
    tools.clear()  # the caller's list, emptied after the harness took its own
    kinds, loop = [], harness.run_agent

    def noting(model, system, messages, *rest, **keywords):  # the kind of transcript handed on
        kinds.append([type(messages).__name__, keywords.get("max_turns")])
        return loop(model, system, messages, *rest, **keywords)
    turns = t.random.randint(101, 104)  # no cap: a job of more than a hundred turns goes on
    rules = SYSTEM + "\n" + "Touch no file outside the repository.\n" * t.random.randint(140_000,
                                                                                  200_000)
    long = lab.ScriptedModel([reads([f"n{n}.py"]) for n in range(turns)] + [lab.say("Done.")])
    harness.run_agent = noting
    try:
        await lab.drive(h.prompt("Read these."))
        await lab.drive(harness.Harness(long, rules, [reader()]).prompt("Read them one by one."))
    finally:
        harness.run_agent = loop
    t.expect([ran, [m["content"] for m in h.messages if m["role"] == "toolResult"],
              [[spec["name"] for spec in request.tools] for request in model.calls], kinds,
              [request.system for request in model.calls]],
             [paths, ["text of " + p for p in paths], [names, names], [["list", cap], ["list", None]],
              [system, system]],
             "With the caller's list of tools emptied once the harness was made: the paths the "
             "tool read, the results recorded, the tool names each request offered, [the kind "
             "of transcript, the max_turns] the run handed run_agent (the harness's own cap, "
             "None for none), and the same for a harness made with no cap, the system prompt each request carried, word for word, the spaces "
             "around it too.")
    t.expect([len(long.calls), all(request.system == rules for request in long.calls)],
             [turns + 1, True],
             "A harness with no cap and a system prompt of over five million characters ending in "
             "a newline, run on a job of a drawn hundred-odd turns: [the requests, whether each "
             "carried the system prompt word for word].")
    never = lab.ScriptedModel([lab.say("Never asked.")])
    capped = harness.Harness(never, SYSTEM, [reader(ran)], messages=h.messages, max_turns=0)
    again = t.random.randint(12, 20)  # a run of no turns makes no request: many cost little
    for n in range(again):
        events = await lab.drive(capped.prompt(f"Once more, {n}."))
    t.expect([len(never.calls), [e["type"] for e in events], lab.shape(capped.messages),
              capped.messages[-1].get("error_message"), len(h.messages)],
             [0, ["agent_start", "turn_start", "message_end", "message_end", "turn_end",
                  "agent_end"], " ".join([lab.shape(h.messages)] + ["U A(error)"] * again),
              "Agent stopped after max_turns=0", len(paths) + 3],
             f"A harness made from the first's snapshot with max_turns=0, run {again} times, "
             "the cap holding for every run. Items: the "
             "requests made, the last run's events, its transcript, its last error_message, the length of "
             "the first harness's transcript, which the second's run did not touch.")


# --- rule 2: h.messages, a snapshot --------------------------------------------------------------

@lab_test("A snapshot read inside a tool, while the run goes on, still holds only what was "
          "recorded by then once the run is over.")
async def test_bank_a_snapshot_taken_inside_a_tool_keeps_its_moment(t):
    box, snaps = {}, []
    rounds = [t.random.sample(NAMES, t.random.randint(1, 3)) for _ in range(t.random.randint(1, 2))]
    model = lab.ScriptedModel([reads(paths) for paths in rounds] + [lab.say("All read.")])
    h = box["h"] = harness.Harness(model, SYSTEM,
                                   [reader(during=lambda a: snaps.append(box["h"].messages))])
    await lab.drive(h.prompt("Read them."))
    wanted, tokens, n = [], ["U"], 0
    for paths in rounds:
        ids = [f"c{n + k}" for k in range(1, len(paths) + 1)]
        tokens.append(f"A[{','.join(ids)}]")
        for id in ids:
            wanted.append(["tuple", " ".join(tokens)])
            tokens.append(f"R({id})")
        n += len(paths)
    t.expect([["tuple" if type(s) is tuple else f"{type(s).__qualname__}, not a tuple itself",
               lab.shape(s)] for s in snaps], wanted,
             "Each item is [type, shape] of h.messages as read inside the tool at one call of a "
             "drawn job, looked at after the run: a snapshot, a tuple itself (not a subclass of "
             "one with methods of its own), not the transcript itself.")
    t.expect(len(h.messages), len(tokens) + 1, "The transcript's length after the run.")


@lab_test("A caller who tries to clear, pop or shorten a snapshot gets an error, and the next "
          "run's request still carries the whole transcript.")
async def test_bank_clearing_a_snapshot_changes_nothing(t):
    runs = t.random.randint(1, 3)
    model = lab.ScriptedModel([lab.say(f"Answer {n}.") for n in range(runs + 1)])
    h = harness.Harness(model, SYSTEM, [])
    for n in range(runs):
        await lab.drive(h.prompt(f"Question {n}."))
    attempts = {"clear": lambda s: s.clear(), "pop": lambda s: s.pop(),
                "del": lambda s: operator.delitem(s, 0), "remove": lambda s: s.remove(s[0]),
                "sort": lambda s: s.sort(key=str)}
    chosen = t.random.sample(sorted(attempts), 3)
    tried = []
    for name in chosen:
        snapshot = h.messages
        tried.append((await raised(lambda: attempts[name](snapshot))) is not None)
    again = [h.messages is h.messages, h.messages == h.messages]
    await lab.drive(h.prompt("Still there?"))
    t.expect([tried, again, lab.shape(model.calls[-1].messages), harness.text_of(h.messages[-3])],
             [[True] * 3, [False, True], " ".join(["U A"] * runs) + " U", f"Answer {runs - 1}."],
             "Three tries at changing a snapshot: whether each raised; two reads in a row, "
             "[the very same tuple, equal] (a snapshot is made on every read); then the shape "
             "of the next request, and the words of the reply before its prompt.")
    saved = [m for n in range(t.random.randint(300, 320))
             for m in (harness.user_message(f"Note {n}."), lab.say("Kept."))]
    whole = saved * t.random.randint(850, 1000)  # a session reopened many times: cheap to make
    t.expect(len(harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=whole).messages),
             len(whole), "A harness made from a saved list of some 510,000 messages or more: the "
             "length of its snapshot, the whole transcript however long.")
    h = harness.Harness(lab.ScriptedModel([lab.say("All kept.")]), SYSTEM, [], messages=saved)
    await lab.drive(h.prompt("Anything else?"))
    snapshot = h.messages
    t.expect([len(snapshot), snapshot[0] is saved[0], harness.text_of(snapshot[-1])],
             [len(saved) + 2, True, "All kept."],
             "A harness made from a long saved list, run once: the snapshot's length, whether "
             "it starts with the first message given, its last words.")


# --- rule 3: h.is_running, read off the run -------------------------------------------------------

def held_long(h):
    """h.is_running, read while every clock says years have passed since its last reading."""
    with hours_pass(3 * YEAR, processor=True, dates=True):
        return h.is_running



@lab_test("A run killed by its model's exception hands the exception to the consumer and is over; "
          "so is a run its caller closes before its first step and keeps; the next prompt is "
          "answered.")
async def test_bank_a_raising_model_and_a_run_closed_unstarted(t):
    rounds = [t.random.sample(NAMES, t.random.randint(1, 2)) for _ in range(t.random.randint(0, 2))]
    model = lab.ScriptedModel([reads(paths) for paths in rounds] +
                              [dropped, lab.say("Back again.")])
    h = harness.Harness(model, SYSTEM, [reader()])
    seen = []
    got = await raised(lambda: lab.drive(h.prompt("Read."),
                                         on_event=lambda e: seen.append(h.is_running)), kind=RuntimeError)
    before = lab.shape(h.messages)
    states = [h.is_running]
    held = h.prompt("")  # the empty prompt is a run like any other
    states.append(held_long(h))  # held unread for years, by every clock: going still
    held.close()
    states.append(h.is_running)
    later = await raised(lambda: lab.drive(h.prompt("Are you there?")), kind=RuntimeError)
    t.expect([got, all(seen) and len(seen), states, later, lab.shape(h.messages)],
             ["TimeoutError: the model took too long",
              3 + sum(3 + 3 * len(paths) for paths in rounds), [False, True, False], None,
              before + " U A"],
             "A model that raises after a drawn number of rounds, then a run closed unread "
             "while its caller holds it (its prompt empty), then a prompt. Items: what the consumer got, the "
             "events is_running was True at, is_running after the death, after prompt() (read as "
             "every clock says years have passed: held unread that long, the run is going) and "
             "after the close, what the last prompt raised, the transcript.")


@lab_test("A run stepped a few events with next() and then dropped is over, and so is a run "
          "handed out and never kept; the next prompt is answered on the same transcript.")
async def test_bank_runs_stepped_and_dropped(t):
    width = t.random.randint(1, 3)
    paths = [t.random.choice(NAMES) for _ in range(width)]
    ran = []
    model = lab.ScriptedModel([reads(paths), lab.say("Resumed.")])
    h = harness.Harness(model, SYSTEM, [reader(ran)])
    steps = t.random.randint(4, 3 + 3 * width)
    run = h.prompt("Read them.")
    types = [next(run)["type"] for _ in range(steps)]
    aside = harness.Harness(lab.ScriptedModel([lab.say("Aside.")]), SYSTEM, [])
    beside = [aside.is_running, await raised(lambda: lab.drive(aside.prompt("Meanwhile?")), kind=RuntimeError),
              lab.shape(aside.messages)]
    states = [held_long(h)]  # the stepped run held for years, by every clock: going still
    del run
    states.append(h.is_running)
    h.prompt("Never read.")
    states.append(h.is_running)
    later = await raised(lambda: lab.drive(h.prompt("Carry on.")), kind=RuntimeError)
    so_far = one_round(width)[:steps]
    t.expect([types, beside, states, later, ran, lab.shape(h.messages)],
             [[e.split(" ")[0] for e in so_far], [False, None, "U A"], [True, False, False], None,
              [p for n, p in enumerate(paths, 1) if f"message_end R(c{n})" in so_far],
              (announced(so_far) + " U A").strip()],
             "A run stepped with next() a drawn number of times and dropped, then a run handed "
             "out and dropped unread, then a prompt. Items: the event types read, another "
             "harness's is_running while the stepped run waited, what its own run raised, its "
             "transcript, is_running after the first step-through (read as every clock says years have "
             "passed), after the drop and after the unread run, what the "
             "last prompt raised, the paths read, the transcript.")


@lab_test("A run handed out and never kept leaves the harness free, and a later run killed by "
          "its model's exception hands it to the consumer and is over.")
async def test_bank_a_dropped_run_then_a_raising_model(t):
    paths = t.random.sample(NAMES, t.random.randint(1, 3))
    inside = []
    box = {}
    model = lab.ScriptedModel([reads(paths), dropped, lab.say("Here again.")])
    other = harness.Harness(lab.ScriptedModel([]), SYSTEM, [])
    h = box["h"] = harness.Harness(model, SYSTEM, [reader(during=lambda a: inside.append(
        [box["h"].is_running, other.is_running]))])
    h.prompt("A prompt nobody reads.")
    free = h.is_running
    got = await raised(lambda: lab.drive(h.prompt("Read these.")), kind=RuntimeError)
    after = h.is_running
    await raised(lambda: lab.drive(h.prompt("Again.")), kind=RuntimeError)
    t.expect([free, inside, got, after, lab.shape(h.messages), len(model.calls)],
             [False, [[True, False]] * len(paths), "TimeoutError: the model took too long", False,
              "U A[" + ",".join(f"c{n}" for n in range(1, len(paths) + 1)) + "] " +
              " ".join(f"R(c{n})" for n in range(1, len(paths) + 1)) + " U A", 3],
             "A run dropped unread, then a run whose model raises at its second request, then a "
             "prompt. Items: is_running after the drop, is_running inside each tool beside that of a "
             "harness with no run, what the "
             "consumer got, is_running after, the transcript, the requests made.")


@lab_test("Runs closed before their first step one after another, each still held by its caller, "
          "each leave the harness free; the next run is answered.")
async def test_bank_runs_closed_unstarted_one_after_another(t):
    model = lab.ScriptedModel([lab.say("At last.")])
    h = harness.Harness(model, SYSTEM, [])
    kept, seen = [], []
    tries = [f"Try {n}." for n in range(t.random.randint(2, 4))]
    tries[t.random.randrange(len(tries))] = ""  # one of them empty
    for words in tries:
        try:
            run = h.prompt(words)
        except RuntimeError as problem:
            seen.append(str(problem))
            continue
        kept.append(run)
        seen.append(h.is_running)
        run.close()
        seen.append(h.is_running)
    events = await lab.drive(h.prompt("This one."))
    t.expect([seen, [e["type"] for e in events][-1], lab.shape(h.messages),
              harness.text_of(h.messages[-1])],
             [[True, False] * len(kept), "agent_end", "U A", "At last."],
             "A drawn number of runs, one of them of the empty prompt, each closed at once and "
             "kept. Items: is_running after "
             "each prompt() and each close, the last event of the run after them, its "
             "transcript, its answer.")


# --- rule 4: h.prompt(text) ----------------------------------------------------------------------

@lab_test("A tool that calls prompt() while the run is going gets the RuntimeError, which the "
          "transcript records as the tool's error result; the run prompt() handed out had "
          "taken no step.")
async def test_bank_a_tool_that_prompts_gets_an_error_result(t):
    box = {}

    def delegate(arguments):  # Send clicked over a thousand times: the last one's error is the result
        for _ in range(clicks):
            try:
                box["h"].prompt(arguments.get("task", "Something else."))
            except RuntimeError:
                continue
            return "another run started"
        box["h"].prompt(arguments.get("task", "Something else."))
        return "another run started"
    clicks = t.random.randint(1001, 1100)
    tasks = t.random.sample(["Fix the bug.", "Write the docs.", "Run the tests."],
                            t.random.randint(1, 2))
    model = lab.ScriptedModel([lab.reply(*[lab.call("delegate", {"task": task}) for task in tasks]),
                               lab.say("Done myself.")])
    h = box["h"] = harness.Harness(model, SYSTEM, [tool("delegate", delegate)])
    with hours_pass(YEAR, processor=True, dates=True):  # years at every reading of a clock
        run = h.prompt("Share the work.")
        state = inspect.getgeneratorstate(run) if inspect.isgenerator(run) else type(run).__name__
        inside = [inspect.getgeneratorstate(each) for each in inner_runs(model)]
        state = state if inside in ([], ["GEN_CREATED"]) else f"{state}, inner {inside}"
        await lab.drive(run)
    results = [[m["content"], m["is_error"]] for m in h.messages if m["role"] == "toolResult"]
    t.expect([state, results, lab.shape(h.messages), len(model.calls)],
             ["GEN_CREATED", [[BUSY, True]] * len(tasks),
              "U A[" + ",".join(f"c{n}" for n in range(1, len(tasks) + 1)) + "] " +
              " ".join(f"R(c{n})" for n in range(1, len(tasks) + 1)) + " A", 2],
             "A run whose tool calls prompt() on the same harness, over a thousand times in a row, "
             "while the clocks say years pass at every reading. Items: the state of the run "
             "prompt() returned (and of the run_agent run inside, if one is made), the results [content, is_error], the transcript, the requests.")


@lab_test("Two prompts before the first run is read: the second raises at once, the first has "
          "taken no step and then runs as given, its spaces kept; after it, an empty prompt is "
          "accepted and recorded as it is.")
async def test_bank_two_prompts_before_any_read(t):
    pasted = "".join(f"{t.random.choice(NAMES)}: line {n}\r\n" for n in range(t.random.randint(2500, 2600)))
    pasted *= t.random.randint(120, 150)  # pasted again and again: over five million characters
    words = [f"\t Question {t.random.randint(1, 99)}.\n\n" + pasted]
    words.append(words[0])  # the second prompt is the first's very words, as a second click
    model = lab.ScriptedModel([lab.say("First answer."), lab.say("Second answer."),
                               lab.say("Third answer."), lab.say("Fourth answer."),
                               lab.say("Fifth answer."), lab.say("Sixth answer.")])
    h = harness.Harness(model, SYSTEM, [])
    for _ in range(t.random.randint(52, 64)):  # runs closed unstarted first: each is tracked
        h.prompt("Never mind.").close()
    with hours_pass(YEAR, processor=True, dates=True):  # years at every reading of a clock
        first = h.prompt(words[0])
        second = refused_again(h, words[1], t.random.randint(1001, 1100))
    question = refusals_of(h, "plan What comes first?")  # a command, led by any mark: refused too
    question = question if not handed_back(h) else [question, handed_back(h)]
    try_every_method(h, harness.user_message(words[1]), words[1])  # nothing keeps it for later
    state = inspect.getgeneratorstate(first) if inspect.isgenerator(first) else "no generator"
    inside = [inspect.getgeneratorstate(each) for each in inner_runs(model)]
    state = state if inside in ([], ["GEN_CREATED"]) else f"{state}, inner {inside}"
    asked = len(model.calls)
    await lab.drive(first)
    again = await raised(lambda: lab.drive(h.prompt(words[0])), kind=RuntimeError)  # the long words sent again
    clear = await raised(lambda: lab.drive(h.prompt("/clear")), kind=RuntimeError)  # a frontend's word: a prompt
    third = await raised(lambda: lab.drive(h.prompt("")), kind=RuntimeError)
    fourth = await raised(lambda: lab.drive(h.prompt("")), kind=RuntimeError)  # the same words again: a run
    blank = t.random.choice(BLANK[1:])  # spaces and newlines alone: a prompt, word for word
    fifth = await raised(lambda: lab.drive(h.prompt(blank)), kind=RuntimeError)
    t.expect([second, question, state, asked, [again, clear], third, fourth, fifth,
              ["(the long words)" if m["content"] == words[0] else m["content"]
               for m in h.messages if m["role"] == "user"]],
             ["RuntimeError: " + BUSY, "RuntimeError: " + BUSY, "GEN_CREATED", 0, [None, None],
              None, None, None, ["(the long words)"] * 2 + ["/clear", "", "", blank]],
             "After 52 to 64 prompts whose runs were closed unstarted, prompt() before reading the first run, then 1,001 to 1,100 times more, the clocks saying years pass at every reading, a long pasted text of over five million characters and 300,000 lines ended with \\r\\n each time, "
             "and then with a question sent as a command led by each mark of punctuation and with things that are not strings (each must raise too, of any class), then the first run read, then "
             "the same long words again, then prompt(\"/clear\"), then prompt(\"\") while the caller still holds the first run, and prompt(\"\") again, then a prompt of spaces and newlines alone; every "
             "public method, prompt() too, was tried with the refused words. Items: "
             "what the second prompt() raised (caught as a RuntimeError), what the third raised, "
             "the first run's state then (and the run_agent run's inside, if one is made), the requests made then, what the long words again and \"/clear\" raised, what the third, the fourth and the blank one raised, the prompts "
             "recorded.")


@lab_test("A second prompt() tried before a run's first event and at each message_end raises at "
          "once, every time, and its words reach neither the transcript nor any request, the "
          "next accepted prompt's included, an empty one.")
async def test_bank_a_refused_prompt_never_reaches_the_model(t):
    paths = t.random.sample(NAMES, t.random.randint(1, 3))
    model = lab.ScriptedModel([reads(paths), lab.say("Read."), lab.say("Yes."), lab.say("Yes."),
                               lab.say("Yes."), lab.say("Yes."), lab.say("Yes.")])
    box, refusals = {}, []
    h = box["h"] = harness.Harness(model, SYSTEM, [reader(
        during=lambda a: refusals.append(refusal(box["h"], "From inside the tool.")))])

    async def interrupt(event):
        if event["type"] == "message_end":  # the run's own words, as a second click of Send
            refusals.append((refused_again(h, asked, clicks) if len(refusals) == 1 else
                             refusal(h, asked)) if not handed_back(h) else handed_back(h))
            # a caller with more to say tries every other way in: nothing keeps it for later
            try_every_method(h, harness.user_message("Do this after."), "Do this after.")
    asked = "\tRead them.\n" + "".join(f"{name}\r\n" for name in t.random.choices(NAMES, k=3000)) * (
        t.random.randint(180, 240))  # a long list pasted again and again, over five million characters
    clicks = t.random.randint(1001, 1100)  # Send clicked again and again at the first message_end
    for _ in range(t.random.randint(52, 64)):  # runs closed unstarted first: each is tracked
        h.prompt("Never mind.").close()
    with hours_pass(YEAR, processor=True, dates=True):  # years at every reading of a clock
        run = h.prompt(asked)
        refusals.append(refusals_of(h, "plan Before you start?"))  # a command, led by any mark
        await lab.drive(run, on_event=interrupt)
    repeat = await raised(lambda: lab.drive(h.prompt(asked)), kind=RuntimeError)  # the long words sent again: a run
    clear = await raised(lambda: lab.drive(h.prompt("/clear")), kind=RuntimeError)  # a frontend's word: a prompt
    after = await raised(lambda: lab.drive(h.prompt("")), kind=RuntimeError)  # the finished run still held
    again = await raised(lambda: lab.drive(h.prompt("")), kind=RuntimeError)  # the same words again: a run too
    blank = t.random.choice(BLANK[1:])  # spaces and newlines alone: a prompt, word for word
    last = await raised(lambda: lab.drive(h.prompt(blank)), kind=RuntimeError)
    words = ["(the long words)" if m["content"] == asked else m["content"]
             for request in model.calls for m in request.messages if m["role"] == "user"]
    t.expect([refusals, [repeat, clear, after, again, last], words, len(h.messages)],
             [["RuntimeError: " + BUSY] * (2 * len(paths) + 4), [None, None, None, None, None],
              ["(the long words)"] * 6 + ["/clear"] + ["(the long words)"] * 2 + ["/clear", ""]
              + ["(the long words)"] * 2 + ["/clear", "", ""]
              + ["(the long words)"] * 2 + ["/clear", "", "", blank],
              len(paths) + 13],
             "After 52 to 64 prompts whose runs were closed unstarted, a second prompt() before the run's first event, a question sent as a command led by each mark of punctuation, then one of over five million characters, its lines ended with \\r\\n, at every message_end of a drawn "
             "run, 1,001 to 1,100 times in a row at the first, the clocks saying years pass at every reading, "
             "there of the run's own long words and of things that are not strings and blank ones, which must raise too, of any class (every public method tried there too) "
             "and inside each read, then the run's long words again, then \"/clear\", then an "
             "empty prompt after it while its caller still holds it, and another, and one of spaces and newlines alone. Items: what each refused "
             "one raised (caught as a RuntimeError), what the last four raised, the user words each request "
             "carried, the transcript's length.")


# --- rule 5: _run, over the harness's own list, and the inner run ends with it --------------------

@lab_test("A reply asking for a hundred reads or more runs every one and reaches the answer; a "
          "later run closed mid-way closes the run_agent run inside it, though the test holds it.")
async def test_bank_a_wide_reply_then_a_closed_run(t):
    width = t.random.randint(340, 350)
    paths = [f"f{n}.py" for n in range(width)]
    model = lab.ScriptedModel([reads(paths), lab.say("All read."), reads(["x.py", "y.py"]),
                               lab.say("Never asked.")])
    h = harness.Harness(model, SYSTEM, [reader()], [harness.user_message("Hello."),
                                                    lab.say("Hello.")])
    with hours_pass(YEAR, processor=True, dates=True):  # years at every reading: no clock ends it
        events = await lab.drive(h.prompt("Read every file."))
    t.expect([len(h.messages), harness.text_of(h.messages[-1]), len(model.calls), len(events),
              len(events[-1].get("messages", ()))],
             [width + 5, "All read.", 2, 3 * width + 9, width + 3],
             "A run after an earlier exchange whose model asks for a drawn three hundred and "
             "forty-odd reads in one reply, over a thousand events, the clocks saying years pass at "
             "every reading. Items: the transcript's "
             "length, its answer, the requests, the events handed on, the messages the last "
             "one says the run added.")
    held = []

    def hold(event):
        if not held:
            held.extend(inner_runs(model))
    stop = t.random.randint(1, 7)
    await lab.drive(h.prompt("Two more."), close_after=stop, on_event=hold)
    t.expect([len(held), [inspect.getgeneratorstate(g) for g in held]], [1, ["GEN_CLOSED"]],
             "A second run closed after a drawn number of events, while the test held the "
             "run_agent run inside it. Items: how many were held, each one's state after the "
             "close.")


@lab_test("A run stepped with next() and let go of ends the run_agent run inside it, though the "
          "test still holds that one; no tool runs after, and the next run goes on from there.")
async def test_bank_a_run_let_go_of_ends_its_inner_run(t):
    ran = []
    paths = t.random.sample(NAMES, 3)
    model = lab.ScriptedModel([reads(paths), lab.say("Next.")])
    h = harness.Harness(model, SYSTEM, [reader(ran)])
    run = h.prompt("Read three.")
    steps = t.random.randint(4, 10)  # past the first request, short of the answer
    for _ in range(steps):
        next(run)
    # The inner run, held as another holder might: one that prompt() did not hand out (a run
    # that is run_agent's own, allowed, is the run let go of, and is held by no one).
    held = [inner for inner in inner_runs(model) if inner is not run]
    del run
    state = len(inner_runs(model))  # run_agent runs over the model still going
    await lab.drive(h.prompt("And?"))
    so_far = one_round(3)[:steps]
    t.expect([state, ran, lab.shape(h.messages)],
             [0, paths[:sum(e.startswith("message_end R") for e in so_far)],
              (announced(so_far) + " U A").strip()],
             "A run stepped a drawn number of times and let go of, the test holding its inner "
             "run, then a prompt. Items: the run_agent runs over its model still going after the "
             "drop, the paths read, "
             "the transcript.")
    model = lab.ScriptedModel([reads(paths), lab.say("Unreached.")])
    h = harness.Harness(model, SYSTEM, [reader()])
    run = h.prompt("Read three again.")
    for _ in range(steps):
        next(run)
    held = inner_runs(model)
    got = await raised(lambda: run.throw(KeyError("the window was shut")))
    model = lab.ScriptedModel([reads(paths), lab.say("Unreached.")])  # and a SystemExit thrown in
    other = harness.Harness(model, SYSTEM, [reader()])
    run = other.prompt("Read three once more.")
    for _ in range(steps):
        next(run)
    held += inner_runs(model)
    exited = await raised(lambda: run.throw(SystemExit("the program is going away")))
    t.expect([got, [inspect.getgeneratorstate(g) for g in held], h.is_running, exited,
              other.is_running],
             ["KeyError: 'the window was shut'", ["GEN_CLOSED", "GEN_CLOSED"], False,
              "SystemExit: the program is going away", False],
             "The same run on a new harness, stepped as far, an exception then thrown into it "
             "at its yield while the test holds its inner run and the run itself; then the same "
             "on a third harness with a SystemExit thrown in, which is no Exception. Items: what "
             "came out of the first throw, the two inner runs' states, is_running, what came out "
             "of the SystemExit's throw, the third harness's is_running.")


@lab_test("Events handed on are run_agent's own, whose messages are the very dicts recorded; a run "
          "thrown into mid-tool ends its inner run; a model that cannot be reached ends the run "
          "with its exception, and no agent_end is made up.")
async def test_bank_a_run_thrown_into_and_a_model_that_cannot_be_reached(t):
    def unreachable(request):
        raise ConnectionRefusedError("no route to the model")
    paths = t.random.sample(NAMES, t.random.randint(2, 3))
    ran = []
    model = lab.ScriptedModel([reads(paths), lab.say("Unreached.")])
    stop_at = t.random.randint(1, len(paths))  # the call at whose tool_execution_start it stops
    h = harness.Harness(model, SYSTEM, [reader(ran)])
    same, kept, holders, loop = [], [], [], harness.run_agent
    harness.run_agent = keeping(loop, kept, holders)
    try:  # run_agent called by prompt() (allowed) or at the run's first step: kept either way
        run = h.prompt("Read them.")
        for event in run:
            same.append(event is kept[-1])  # run_agent's own event, not a copy
            if event["type"] == "message_end":
                same.append(event["message"] is h.messages[-1])
            if event["type"] == "tool_execution_start" and len(ran) == stop_at - 1:
                break
    finally:
        harness.run_agent = loop
    inner = inner_runs(model)
    got = await raised(lambda: run.throw(LookupError("the user pressed Stop")))
    held = [inspect.getgeneratorstate(g) for g in inner + holders]
    other = harness.Harness(lab.ScriptedModel([unreachable]), SYSTEM, [], messages=h.messages)
    types = []
    failed = await raised(lambda: lab.drive(other.prompt("Still there?"),
                                            on_event=lambda e: types.append(e["type"])), kind=RuntimeError)
    model = lab.ScriptedModel([reads(paths), lab.say("Unreached.")])  # Ctrl-C at the same place
    third = harness.Harness(model, SYSTEM, [reader()])
    run = third.prompt("Read them again.")
    for event in run:
        if event["type"] == "tool_execution_start":
            break
    inner = inner_runs(model)
    stopped = await raised(lambda: run.throw(KeyboardInterrupt("Ctrl-C")))
    held += [inspect.getgeneratorstate(g) for g in inner]
    t.expect([same, [got, stopped], held, failed, types, lab.shape(other.messages)],
             [[True] * (len(kept) + 1 + stop_at),
              ["LookupError: the user pressed Stop", "KeyboardInterrupt: Ctrl-C"],
              ["GEN_CLOSED", "GEN_CLOSED", "GEN_CLOSED"],
              "ConnectionRefusedError: no route to the model",
              ["agent_start", "turn_start", "message_end"],
              lab.shape(h.messages) + " U"],
             "A run read up to a drawn call's tool_execution_start, then an exception thrown "
             "into it; then a harness made from its snapshot, whose model cannot be reached. "
             "Items: whether each event was run_agent's own and each message_end's message the "
             "very last dict of the snapshot, "
             "[what came out of the throw, what came out of a KeyboardInterrupt thrown into a third "
             "harness's run at its first tool_execution_start], the inner run's state and its "
             "stepper's, and the third's inner run's, what the "
             "second run gave its "
             "consumer, the event types before, the second transcript's shape.")


@lab_test("After a run of several hundred events, the next run's first request holds all of it, "
          "answer included, and each run ended with its agent_end.")
async def test_bank_a_second_run_sees_the_whole_long_first_run(t):
    width = t.random.randint(340, 345)
    model = lab.ScriptedModel([reads([f"m{n}.md" for n in range(width)]), lab.say("Long done."),
                               lab.say("Short done."), dropped])
    h = harness.Harness(model, SYSTEM, [reader()])
    ends, said, kept, own, loop, added = [], [], [], [], harness.run_agent, []

    def count(event):
        own.append(event is kept[-1])  # run_agent's own event, not a copy
        if event["type"] in ("agent_end", "turn_end"):
            ends.append(event["type"])
        if event["type"] == "agent_end":
            added.append(len(event["messages"]))
        if event["type"] == "message_end":
            said.append(event["message"])
    harness.run_agent = keeping(loop, kept, [])
    try:
        with hours_pass(YEAR, processor=True, dates=True):  # years at every reading of a clock
            await lab.drive(h.prompt("Read the docs."), on_event=count)
            await lab.drive(h.prompt("Short one."), on_event=count)
    finally:
        harness.run_agent = loop
    sent = model.calls[-1].messages
    t.expect([len(sent), harness.text_of(sent[-2]), ends, [len(own), all(own)], added],
             [width + 4, "Long done.", ["turn_end", "turn_end", "agent_end", "turn_end",
                                        "agent_end"], [len(kept), True], [width + 3, 2]],
             "Two runs, the first of a drawn three hundred and forty-odd reads, the clocks saying "
             "years pass at every reading. Items: the "
             "messages the second run's request carried, the words of the one before its "
             "prompt, the turn_end and agent_end events of both runs, [events handed on, each "
             "run_agent's own], the messages each agent_end says its run added.")
    types = []

    async def until_agent_end(run):  # a consumer that is done once it sees agent_end
        for event in run:
            types.append(event["type"])
            if event["type"] == "agent_end":
                break
    got = await raised(lambda: until_agent_end(h.prompt("A third.")), kind=RuntimeError)
    t.expect([sum(m is r for m, r in zip(h.messages, said)), got, types, len(h.messages)],
             [width + 5, "TimeoutError: the model took too long",
              ["agent_start", "turn_start", "message_end"], width + 6],
             "Then a third run whose model raises, read by a consumer that stops at agent_end. "
             "Items: how many of the transcript's messages are the very dicts the first two "
             "runs' message_end events carried, what the consumer got, the event types it read, "
             "the transcript's length.")


# --- rule 6: one writer ---------------------------------------------------------------------------

def reach(h, value, message, seen=None):
    """Append `message` to `value` if it is a list, and to each list held in it, however deep:
    in a list, a tuple, a dict that is not a message, or an object's attributes (a namespace,
    another harness), private ones and slots too, the list a bound append belongs to, the lists a
    generator's frame holds; taken out again where the transcript of `h`
    did not change, so that only a way into the transcript is left written (a harness's own
    public list of tools is its own business, lesson 3)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, (types.FunctionType, types.MethodType)) and not (
            getattr(value, "__self__", None) is h and not value.__name__.startswith("_")):
        try:  # a callback handed out: a caller calls it with what it has to add
            value(message)
        except Exception:
            pass
        return
    if (inspect.isgenerator(value) and value.gi_code is not getattr(harness.run_agent, "__code__", None)
            and inspect.getgeneratorstate(value) in (inspect.GEN_CREATED, inspect.GEN_SUSPENDED)
            and not (value.gi_frame is not None and value.gi_frame.f_locals.get("self") is h
                     and value.gi_code.co_name == "_run")):
        try:  # an inbox handed out: a caller sends it what it has to add
            if inspect.getgeneratorstate(value) == inspect.GEN_CREATED:
                next(value)
            value.send(message)
        except Exception:
            pass
    if isinstance(value, list):
        before = [id(m) for m in h.messages]
        value.append(message)
        if [id(m) for m in h.messages] != before:
            return
        value.pop()
        inside = list(value)
    elif isinstance(value, tuple):
        inside = list(value)
    elif isinstance(value, dict):  # a message's own lists are the record's, not a way in
        inside = [] if "role" in value else list(value.values())
    else:
        inside = getattr(value, "__dict__", None)
        inside = list(inside.values()) if isinstance(inside, dict) else []
        for kind in type(value).__mro__:  # and what its slots hold
            slots = kind.__dict__.get("__slots__", ())
            for slot in [slots] if isinstance(slots, str) else slots:
                if slot not in ("__dict__", "__weakref__") and hasattr(value, slot):
                    inside.append(getattr(value, slot))
        owner = getattr(value, "__self__", None)  # a list's own append, handed out
        if isinstance(value, types.BuiltinMethodType) and isinstance(owner, (list, dict)):
            inside.append(owner)
        if inspect.isgenerator(value) and value.gi_frame is not None:  # an inbox to send() to
            inside += list(value.gi_frame.f_locals.values())
    for each in inside:
        if isinstance(each, (list, tuple, dict)):
            reach(h, each, message, seen)


# The methods the lesson defines, tried on every harness with whatever a caller might hand them.
DEFINED = {"prompt"}
_SELF_BROKEN: dict = {}  # (harness class, method, arguments' place): whether it breaks a run


def breaks_its_own_run(h, name, place, arguments, keywords):
    """Whether a method the lesson does not define, called with these arguments on a fresh
    harness of `h`'s class between runs, leaves that harness's transcript as it was and makes
    its next run raise: a method that changes what the harness runs with (a tool added, say,
    which lesson 3 allows a list's owner), handed junk. The public tests leave aside a run a
    method broke (only the transcript counts there); here the scenario goes on with its run,
    so such a call is not made on `h`. Worked out once per class, method and place."""
    key = (type(h), name, place)
    if name in DEFINED:
        return False
    if key not in _SELF_BROKEN:
        broke = False
        try:
            fresh = type(h)(lab.ScriptedModel([lab.forever(lambda request: lab.say("Probed."))]),
                            SYSTEM, [])  # a model that answers however often it is asked
        except Exception:  # a harness made otherwise: every call is made on `h`
            fresh = None
        if fresh is not None:
            before = fresh.messages
            try:
                getattr(fresh, name)(*copy.deepcopy(arguments), **copy.deepcopy(keywords))
            except Exception:
                pass
            after = fresh.messages  # compared in C: a call may have added a million items
            if len(after) == len(before) and all(map(operator.is_, after, before)):
                try:
                    run = fresh.prompt("Probe.")
                    if hasattr(run, "__next__"):  # lesson 8's colour; an async run is not probed
                        for _ in run:
                            pass
                except Exception:
                    broke = True
        _SELF_BROKEN[key] = broke
    return _SELF_BROKEN[key]


LIST_NAMES = tuple(name for name in dir(list) if not name.startswith("_"))
MACHINERY = frozenset(dir(object)) | {"__getattr__", "__del__", "__class_getitem__",
                                      "__getstate__", "__setstate__", "__copy__", "__deepcopy__",
                                      "__weakref__", "__dict__", "__slots__", "__annotations__"}


def names_of(h):
    """What a caller may call on `h`: its public names, a list's names where `h` answers to them
    (a __getattr__ that hands them on), and the special methods its class defines, which Python
    calls for a caller's own syntax (h << ..., h -= ..., h[0] = ...), by name."""
    names = [name for name in dir(h) if not name.startswith("_")]
    names += [name for name in LIST_NAMES if name not in names]
    names += [name for kind in type(h).__mro__ if kind is not object for name in vars(kind)
              if name.startswith("__") and name.endswith("__") and name not in MACHINERY]
    return list(dict.fromkeys(names))


def spelled(method):
    """The names the code of `method` spells as strings: a key it may look for in **keywords."""
    code = getattr(getattr(method, "__func__", method), "__code__", None)
    codes, names = [code] if code is not None else [], []
    while codes:
        for const in codes.pop().co_consts:
            if isinstance(const, str) and const.isidentifier():
                names.append(const)
            elif hasattr(const, "co_consts"):
                codes.append(const)
    return names


def try_every_method(h, message, text, earlier=()):
    """Call each public method of `h`, prompt() too, with `message`, with `text`, with a role and
    `text` (user, assistant, toolResult, system), with an assistant message, a tool result, 0, 0 and a role and `text`, a list holding
    `message`, with nothing, and with `message` for each parameter by name (and for **keywords
    each name a message's part goes by), then `text`, then True for each, with a system message and a (role, `text`) pair, with 0, a role and `text` and
    three more texts, as a caller with something to add might, and append `message` to any list a method
    hands back or a public attribute holds, or one held inside either, however deep; then assign h.messages
    a tuple and a list and try del, item assignment, += (one message, two) and a slice's
    assignment on `h`, and del h.messages, in that order, so that
    no two undo each other.
    What a call raises is left aside, and a call a method other than prompt() would break its
    own harness's next run with is not made (breaks_its_own_run)."""
    result = {"role": "toolResult", "tool_call_id": "c98", "tool_name": "read",
              "content": text, "is_error": False}
    for name in names_of(h):
        try:
            value = getattr(h, name)
        except Exception:  # a name `h` does not answer to
            continue
        if not name.startswith("_"):
            reach(h, value, message)  # a public list, or one inside: a caller appends
        if not callable(value):
            if not name.startswith("_") and name != "messages":
                for assigned in ((message,), [message], tuple(earlier)):  # a setter: a way in
                    before = [id(m) for m in h.messages]
                    try:
                        setattr(h, name, assigned)
                    except Exception:
                        continue
                    if [id(m) for m in h.messages] != before:
                        break  # a write, left as it is, so that the transcript shows it
                    try:  # put back what the harness runs with: a public model, tools, cap
                        setattr(h, name, value)
                    except Exception:
                        pass
            continue
        try:
            parameters = inspect.signature(getattr(h, name)).parameters.values()
        except (TypeError, ValueError):
            parameters = []
        named = {p.name: message for p in parameters
                 if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
        if any(p.kind == p.VAR_KEYWORD for p in parameters):  # **keywords: the names a part goes by
            named.update({key: message for key in ("role", "content", "text", "message", "msg", "note",
                                                   "words", "prompt") + tuple(spelled(value))
                          if key not in named})
        for place, (arguments, keywords) in enumerate([(each, {}) for each in (
                [message], [text], ["user", text], ["assistant", text], ["toolResult", text],
                ["system", text],
                [lab.say(text)], [dict(result)], [0],
                [0, "user", text], [0, "user", text, text, text, text], [[message]],
                [{"role": "system", "content": text}], [("user", text)], [1, message],
                [message, 1], ["assistant", text, 1], [tuple(earlier)],
                [h.messages[-1] if h.messages else message], [])] + [
                ([], named), ([], {key: text for key in named}),
                ([], {key: True for key in named})]):
            if breaks_its_own_run(h, name, place, arguments, keywords):
                continue
            try:
                back = getattr(h, name)(*arguments, **keywords)
            except Exception:  # refusing what it is handed writes nothing
                continue
            reach(h, back, message)  # a list handed back, or one inside: a caller appends
    for write in (lambda: setattr(h, "messages", (message,)),
                  lambda: setattr(h, "messages", [message]), lambda: operator.delitem(h, -1),
                  lambda: operator.setitem(h, -1, message), lambda: operator.iadd(h, [message]),
                  lambda: operator.iadd(h, [message, message]),
                  lambda: operator.setitem(h, slice(-1, None), [message]),
                  lambda: delattr(h, "messages"), lambda: h(message), lambda: h([message])):
        try:
            write()
        except Exception:  # a property with no setter, a class with no such operator
            pass


@lab_test("A tool whose run tries every method of its harness, in the middle of a batch of "
          "reads, with a result of its own, a text and nothing: the transcript once the run is "
          "over, and the request after the batch.")
async def test_bank_a_tool_tries_every_method_on_its_harness(t):
    width = t.random.randint(2, 4)
    paths = t.random.sample(NAMES, width)
    holder = []

    def meddle(arguments):
        if arguments["path"] == paths[1]:
            for kept in holder[1:]:  # handed out before the run: a list kept is tried now
                reach(holder[0], kept, harness.user_message("Kept from before the run."))
            try_every_method(holder[0], {"role": "toolResult", "tool_call_id": "c99", "tool_name": "read",
                              "content": "text of an extra file", "is_error": False},
                             "Also read " + t.random.choice(NAMES) + ".")
    model = lab.ScriptedModel([reads(paths), lab.say("All read.")])
    holder.append(harness.Harness(model, SYSTEM, [reader(during=meddle)]))
    for name in dir(holder[0]):  # what each public method, called with nothing, hands out idle
        if not name.startswith("_") and callable(getattr(holder[0], name)):
            try:
                holder.append(getattr(holder[0], name)())
            except Exception:
                pass
    events = await lab.drive(holder[0].prompt("Read the files."))
    t.expect([lab.shape(holder[0].messages), lab.shape(model.calls[1].messages), len(events)],
             [announced(one_round(width)), announced(one_round(width))[:-2], len(one_round(width))],
             f"A reply asking for {width} reads, the tool trying every public method of the "
             "harness, prompt() too, while it reads the second file, and appending to what "
             "each method handed out before the run: [the transcript after the "
             "run, the second request, the events handed on].")


@lab_test("Two runs of one harness over earlier messages, a caller trying every method of the "
          "harness at every event with a user message, a text and nothing: the transcript is "
          "the earlier messages and what the events announced, the very objects, and no more.")
async def test_bank_the_transcript_is_what_the_events_announced(t):
    earlier = [harness.user_message("Start from here."), lab.say("Ready.")]
    widths = [t.random.randint(1, 3), t.random.randint(1, 3)]
    script = [reads(t.random.sample(NAMES, widths[0])), lab.say("First done."),
              reads(t.random.sample(NAMES, widths[1])), lab.fail("quota exceeded")]  # ends failed
    h = harness.Harness(lab.ScriptedModel(script), SYSTEM, [reader()], earlier)
    told = []

    def at_event(event):
        if event["type"] == "message_end":
            told.append(event["message"])
        try_every_method(h, harness.user_message("Note this too."), "Note this too.", earlier)
    for ask in ("Read some files.", "Read some more."):
        await lab.drive(h.prompt(ask), on_event=at_event)
    mine = list(h.messages)
    problems = lab.validate(mine, record=True)  # a key written into a message is one
    as_told = [dict(m) for m in earlier + told]  # keys and values as given or announced
    await lab.drive(h.prompt("One more."), close_after=t.random.randint(1, 2))
    t.expect([lab.shape(mine), len(mine) == len(earlier) + len(told)
              and all(a is b for a, b in zip(mine, earlier + told)),
              [m == before for m, before in zip(h.messages, as_told)], problems],
             [" ".join([lab.shape(earlier), announced(one_round(widths[0])),
                        announced(one_round(widths[1], widths[0] + 1)) + "(error)"]), True,
              [True] * len(as_told), []],
             f"Two runs of {widths[0]} and then {widths[1]} reads after two earlier messages, the "
             "second ending in a failed reply, "
             "every public method, prompt() too, tried at every event, then a third run closed "
             "before its prompt is recorded: [the transcript's shape after two runs, it is the earlier "
             "messages and the announced ones, the very objects, and no more; after the close, "
             "whether each of those messages has the keys and values it had; what lab.validate "
             "finds in the transcript after two runs, a key no message of the course has among it].")
