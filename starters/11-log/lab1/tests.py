"""Lesson 11, lab 1: write it down. The tests of SessionLog, persist_to and Harness.subscribe: an
append-only log of JSON lines that the transcript is replayed from, written by a listener that
hears every event before the consumer does, and a session that survives a power cut.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 11 tests.py
"""
import json

import harness
import lab
from lab.kit import lab_test, raised, tool

LAB = "11.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
FILE = "session.jsonl"


def looker(cut_on=None):
    def fn(arguments):
        if arguments["path"] == cut_on:
            raise lab.PowerCut("the power went off")
        return "contents of " + arguments["path"]
    return tool("look", fn, PATH)


def lines(ws):
    return ws.read_text(FILE).splitlines(keepends=True)


@lab_test("The first append writes one JSON line holding the id e1, the type message and the "
          "message, and returns e1; the next append returns e2.")
async def test_the_first_append_writes_one_line(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    first = harness.user_message("Fix the login page.")
    t.expect(log.append_message(first), "e1", "The first entry's id is e1 (SessionLog, lesson 11).")
    t.expect([len(lines(ws)), lines(ws)[0].endswith("\n"), json.loads(lines(ws)[0])],
             [1, True, {"id": "e1", "type": "message", "message": first}],
             "One append, one whole line of JSON: {\"id\", \"type\": \"message\", \"message\"} "
             "(SessionLog.append_message, lesson 11).")
    t.expect(log.append_message(lab.say("On it.")), "e2", "The next id counts on (lesson 11).")
    t.expect([json.loads(line)["id"] for line in lines(ws)], ["e1", "e2"],
             "Each entry is its own line (SessionLog, lesson 11).")


@lab_test("A log whose file does not exist yet has no entries, no rows and replays to nothing.")
async def test_a_missing_file_is_an_empty_log(t):
    ws = lab.Workspace({"notes.txt": "unrelated\n"})
    log = harness.SessionLog(ws, "logs/session.jsonl")
    t.expect([log.entries(), log.rows(), log.replay(), sorted(ws.files)],
             [[], [], [], ["notes.txt"]],
             "No file means nothing has happened yet, and reading creates no file "
             "(SessionLog.entries, lesson 11).")


@lab_test("Two SessionLog objects over the same file, appending in turn, give the ids e1, e2, e3: "
          "the number is counted from the file, not kept in memory.")
async def test_two_logs_on_one_file_agree(t):
    ws = lab.Workspace()
    one, two = harness.SessionLog(ws, FILE), harness.SessionLog(ws, FILE)
    ids = [one.append_message(harness.user_message("a")), two.append_message(lab.say("b")),
           one.append_message(harness.user_message("c"))]
    t.expect(ids, ["e1", "e2", "e3"], "An id is the entry's line number, read from the file each "
                                      "time (SessionLog.append_message, lesson 11).")
    t.expect([lab.shape(one.replay()), [k for k, _ in two.rows()]], ["U A U", ["e1", "e2", "e3"]],
             "Both logs read the same three entries (SessionLog.rows, lesson 11).")


@lab_test("Appending never changes a byte already written: after each append, the old text is "
          "the start of the new.")
async def test_earlier_bytes_never_change(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})), lab.say("Read it.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    h.subscribe(harness.persist_to(log))
    texts = []
    await lab.drive(h.prompt("Read a.py."),
                    on_event=lambda e: texts.append(ws.read_text(FILE) if ws.exists(FILE) else ""))
    grew = [new.startswith(old) for old, new in zip(texts, texts[1:])]
    t.expect([all(grew), len(lines(ws)), sorted({len(text.splitlines()) for text in texts})],
             [True, 4, [0, 1, 2, 3, 4]],
             "The log only grows, one line per message (SessionLog, lesson 11).")


@lab_test("A power cut that tears the third line leaves a log whose reading raises ValueError "
          "\"session.jsonl, line 3: not a complete log entry\"; an append then raises too, and "
          "writes nothing.")
async def test_a_torn_line_is_never_skipped(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    log.append_message(harness.user_message("Read a.py."))
    log.append_message(lab.say("It defines one class."))
    before = ws.read_text(FILE)
    ws.cut_power_after(0, torn=True)
    t.expect(await raised(lambda: log.append_message(harness.user_message("And b.py?"))),
             "PowerCut: the power went off while writing session.jsonl",
             "The workspace cut the power in the middle of the third write (lesson 11).")
    t.expect(ws.read_text(FILE)[:len(before)], before,
             "The log only grows: the third write is an append, so the two lines written before "
             "it are still whole after the cut; a write that rewrites the file tears them too "
             "(SessionLog.append_message, lesson 11).")
    t.expect(await raised(log.entries), "ValueError: session.jsonl, line 3: not a complete log entry",
             "A line that is not JSON is named, never skipped (SessionLog.entries, lesson 11).")
    torn = ws.read_text(FILE)
    t.expect(await raised(lambda: log.append_message(lab.say("more"))),
             "ValueError: session.jsonl, line 3: not a complete log entry",
             "Appending reads the log first, so it refuses to write after a torn line "
             "(SessionLog.append_message, lesson 11).")
    t.expect([ws.read_text(FILE) == torn, len(torn.splitlines())], [True, 3],
             "Nothing was written on the end of the half-line (lesson 11).")


@lab_test("After a run with persist_to subscribed, log.replay() equals the harness's messages.")
async def test_replay_equals_the_record(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"}),
                                         lab.call("look", {"path": "b.py"})),
                               lab.say("Both read."), lab.say("Bye.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    h.subscribe(harness.persist_to(log))
    await lab.drive(h.prompt("Read a.py and b.py."))
    await lab.drive(h.prompt("Thanks."))
    t.expect([lab.shape(log.replay()), log.replay() == list(h.messages)],
             ["U A[c1,c2] R(c1) R(c2) A U A", True],
             "The log holds every message of both runs, in order (persist_to, lesson 11).")
    t.expect([k for k, _ in log.rows()], ["e1", "e2", "e3", "e4", "e5", "e6", "e7"],
             "rows() pairs each message with its entry id (SessionLog.rows, lesson 11).")


@lab_test("Logs of several lengths, drawn under the seed from under ten entries to well past "
          "ten, replay in the order they were written, with the ids e1, e2, ... in that order: "
          "e10 comes after e9, not after e1.")
async def test_long_logs_replay_in_the_order_written(t):
    sizes = [t.random.randint(3, 9), t.random.randint(10, 19), t.random.randint(20, 45)]
    found = []
    for size in sizes:
        log = harness.SessionLog(lab.Workspace(), FILE)
        written = [harness.user_message(f"Question {n}.") if n % 2 else lab.say(f"Answer {n}.")
                   for n in range(1, size + 1)]
        for message in written:
            log.append_message(message)
        found.append([[k for k, _ in log.rows()], log.replay() == written])
    t.expect(found, [[[f"e{n}" for n in range(1, size + 1)], True] for size in sizes],
             "The transcript is the log's lines in the order they were written, however long "
             "the log; an id is a name, and sorted as text e10 comes before e2. Each item is "
             "[the ids rows() gives, replay() equals the messages appended] for one log "
             "(SessionLog.rows, lesson 11).")
    prompts = t.random.randint(6, 12)
    log = harness.SessionLog(lab.Workspace(), FILE)
    h = harness.Harness(lab.ScriptedModel([lab.say(f"Answer {n}.") for n in range(prompts)]),
                        SYSTEM, [])
    h.subscribe(harness.persist_to(log))
    for n in range(prompts):
        await lab.drive(h.prompt(f"Question {n}."))
    fresh = lab.ScriptedModel([lab.say("Where we left off.")])
    resumed = harness.Harness(fresh, SYSTEM, [], messages=log.replay())
    await lab.drive(resumed.prompt("Go on."))
    t.expect([len(log.rows()), log.replay() == list(h.messages),
              fresh.calls[0].messages[:-1] == list(h.messages)],
             [2 * prompts, True, True],
             "A session of many runs resumes in the order it happened: [entries, replay() "
             "equals the record, the resumed harness's first request carries the record in "
             "order] (persist_to and replay, lesson 11).")


@lab_test("When the consumer sees a message_end, the log already holds that message.")
async def test_the_log_is_written_before_the_consumer_hears(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})), lab.say("Read it.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    h.subscribe(harness.persist_to(log))
    seen = []

    def consumer(event):
        if event["type"] == "message_end":
            saved = log.replay()
            seen.append([len(saved), bool(saved) and saved[-1] == event["message"]])
    await lab.drive(h.prompt("Read a.py."), on_event=consumer)
    t.expect(seen, [[1, True], [2, True], [3, True], [4, True]],
             "Each row: [messages in the log, the last is the one announced]. Listeners hear "
             "each event before the consumer (Harness.subscribe, lesson 11).")


@lab_test("After unsubscribe() the listener hears nothing more, and calling unsubscribe() a "
          "second time raises nothing.")
async def test_unsubscribe(t):
    heard = []
    model = lab.ScriptedModel([lab.say("One."), lab.say("Two.")])
    h = harness.Harness(model, SYSTEM, [])
    unsubscribe = h.subscribe(lambda event: heard.append(event["type"]))
    await lab.drive(h.prompt("First."))
    unsubscribe()
    t.expect(await raised(unsubscribe), None, "Undoing twice is harmless (Harness.subscribe, "
                                              "lesson 11).")
    await lab.drive(h.prompt("Second."))
    t.expect(heard, ["agent_start", "turn_start", "message_end", "message_end", "turn_end",
                     "agent_end"],
             "The listener heard run 1 and nothing of run 2 (Harness.subscribe, lesson 11).")
    t.expect(lab.shape(h.messages), "U A U A", "Both runs happened (lesson 11).")


def scripts(kinds):
    """One model script per run: "plain" is a run of six events, "call" one of twelve."""
    return [[lab.say("Hello.")] if kind == "plain" else
            [lab.reply(lab.call("look", {"path": "a.py"})), lab.say("Read it.")] for kind in kinds]


def listener_plan(t, events):
    """Roles for 3 to 6 listeners, in the order they subscribe, drawn under the seed: each
    listens, or at a drawn event unsubscribes itself ("self") or one subscribed before it that
    only listens ("other"). One before the last unsubscribes itself, and the last only listens,
    so some listener always comes after one that leaves."""
    count = t.random.randint(3, 6)
    leaver = t.random.randrange(count - 1)
    plan = []
    for i in range(count):
        role = "self" if i == leaver else "listen" if i == count - 1 else \
            t.random.choice(["listen", "self", "other"])
        quiet = [j for j, (kind, _, _) in enumerate(plan) if kind == "listen"]
        if role == "other" and not quiet:
            role = "self"
        target = t.random.choice(quiet) if role == "other" else i
        plan.append((role, target, t.random.randrange(events) if role != "listen" else None))
    return plan


def heard_by_plan(plan, events):
    """What each listener of `plan` hears, by the rule: all of the event it leaves at (or is
    taken off at, by one after it), and nothing after."""
    leaves = {}
    for role, target, at in plan:
        if role != "listen":
            leaves[target] = min(at, leaves.get(target, events))
    return [list(range(min(leaves.get(i, events) + 1, events))) for i in range(len(plan))]


@lab_test("A listener hears every event of two runs, in order, and each one before the consumer "
          "gets it; with 3 to 6 listeners, drawn under the seed, some of which unsubscribe "
          "themselves or one another while they hear an event, every other listener still hears "
          "that event.")
async def test_a_listener_hears_every_event_first(t):
    order = []
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})), lab.say("Read it."),
                               lab.say("Bye.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    h.subscribe(lambda event: order.append("listener " + event["type"]))
    events = []
    for text in ("Read a.py.", "Thanks."):
        events += await lab.drive(h.prompt(text),
                                  on_event=lambda event: order.append("consumer " + event["type"]))
    t.expect(len(events), 18, "Twelve events for the run with a call, six for the other "
                              "(run_agent, lesson 7).")
    t.expect(order, [who + e["type"] for e in events for who in ("listener ", "consumer ")],
             "Every event of every run goes to the listener first, then the consumer "
             "(Harness._run and subscribe, lesson 11).")
    found, wanted = [], []
    for _ in range(3):
        kinds = [t.random.choice(["plain", "call"]) for _ in range(2)]
        events = sum(6 if kind == "plain" else 12 for kind in kinds)
        plan = listener_plan(t, events)
        h = harness.Harness(lab.ScriptedModel(sum(scripts(kinds), [])), SYSTEM, [looker()])
        consumed, heard, undos = [], [[] for _ in plan], []

        def listener(i, role, target, at):
            def hear(event):
                heard[i].append(len(consumed))  # the consumer has not had this event yet
                if len(consumed) == at:
                    undos[target]()
            return hear
        for i, (role, target, at) in enumerate(plan):
            undos.append(h.subscribe(listener(i, role, target, at)))
        for text in ("First.", "Second."):
            await lab.drive(h.prompt(text), on_event=consumed.append)
        found.append(heard)
        wanted.append(heard_by_plan(plan, events))
    t.expect(found, wanted,
             "_notify calls every listener subscribed when the event began, even when one "
             "leaves during it: a listener that unsubscribes itself, or one subscribed before "
             "it, must not make the next one miss the event. Each item is one harness; in it, "
             "one list per listener, in the order they subscribed, of the events it heard, "
             "numbered from 0 over two runs (Harness._notify, lesson 11).")


@lab_test("The same listener subscribed two to four times hears each event once per subscription "
          "still in place: each undo takes off its own subscription, and calling it again does "
          "nothing, whatever else is subscribed.")
async def test_each_undo_takes_off_one_subscription(t):
    found, wanted = [], []
    for _ in range(3):
        times = t.random.randint(2, 4)
        undone = t.random.randint(1, times)
        twice = [True] + [t.random.random() < 0.5 for _ in range(undone - 1)]  # one, at least
        heard, other = [], []
        h = harness.Harness(lab.ScriptedModel([lab.say("One."), lab.say("Two.")]), SYSTEM, [])

        def hear(event):
            heard.append(event["type"])
        undos = [h.subscribe(hear) for _ in range(times)]
        h.subscribe(lambda event: other.append(event["type"]))
        undos.append(h.subscribe(hear))
        await lab.drive(h.prompt("First."))
        first = [len(heard), len(other)]
        for undo, again in zip(t.random.sample(undos, undone), twice):
            undo()
            if again:
                undo()
        await lab.drive(h.prompt("Second."))
        found.append(first + [len(heard) - first[0], len(other) - first[1]])
        wanted.append([6 * (times + 1), 6, 6 * (times + 1 - undone), 6])
    t.expect(found, wanted,
             "Each subscribe is one subscription and its undo takes off that one, once: undoing "
             "one of several equal subscriptions leaves the others hearing, and a second call "
             "takes off nothing. Each item is [events the listener heard in run 1, the other "
             "listener's, the listener's in run 2 after some undos, the other's] "
             "(Harness.subscribe, lesson 11).")


@lab_test("A listener that raises ends the run with its own exception, and is_running turns "
          "False.")
async def test_a_raising_listener_ends_the_run(t):
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})), lab.say("Read it."),
                               lab.say("Hello again.")])
    h = harness.Harness(model, SYSTEM, [looker()])

    def saver(event):
        if event["type"] == "tool_execution_end":
            raise OSError("disk full")
    unsubscribe = h.subscribe(saver)
    seen = []
    t.expect(await raised(lambda: lab.drive(h.prompt("Read a.py."),
                                            on_event=lambda e: seen.append(e["type"]))),
             "OSError: disk full",
             "A saver that cannot save must not fail quietly: its exception ends the run "
             "(Harness._notify, lesson 11).")
    t.expect([h.is_running, lab.shape(h.messages), seen[-1]],
             [False, "U A[c1] R(c1)", "message_end"],
             "The run is over; the consumer never got the event the listener choked on "
             "(Harness, lesson 11).")
    unsubscribe()
    await lab.drive(h.prompt("Are you back?"))
    t.expect(lab.shape(h.messages), "U A[c1] R(c1) U A", "A new prompt is accepted (lesson 11).")


@lab_test("A log whose disk fills up after a number of messages drawn under the seed makes the "
          "run end with the disk's own error at the message it could not save: persist_to lets "
          "a failed save be heard.")
async def test_a_save_that_fails_is_heard(t):
    found, wanted = [], []
    for kind, text in [(OSError, "No space left on device"),
                       (PermissionError, "session.jsonl is read-only"),
                       (t.random.choice([OSError, PermissionError]), "the disk went away")]:
        widths = [t.random.randint(1, 2) for _ in range(t.random.randint(0, 3))]
        room = t.random.randrange(2 + sum(1 + width for width in widths))

        class FullDisk(harness.SessionLog):
            """A log whose disk has room for `room` messages, and stays full."""

            def append_message(self, message):
                if len(self.entries()) >= room:
                    raise kind(text)
                return super().append_message(message)
        log = FullDisk(lab.Workspace(), FILE)
        model = lab.ScriptedModel(
            [lab.reply(*[lab.call("look", {"path": f"r{r}_{c}.py"}) for c in range(width)])
             for r, width in enumerate(widths)] + [lab.say("All read.")])
        h = harness.Harness(model, SYSTEM, [looker()])
        h.subscribe(harness.persist_to(log))
        ends = []
        error = await raised(lambda: lab.drive(
            h.prompt("Read the files."),
            on_event=lambda e: ends.append(e) if e["type"] == "message_end" else None))
        saved = log.replay()
        found.append([error, len(saved), saved == list(h.messages[:len(saved)]),
                      len(h.messages), len(ends), h.is_running])
        wanted.append([f"{kind.__name__}: {text}", room, True, room + 1, room, False])
    t.expect(found, wanted,
             "A saver that cannot save must not fail quietly: the error persist_to meets ends "
             "the run at the message it could not save, and the person hears of it at once. "
             "Each item is [what the run raised, messages in the log, the log is the start of "
             "the record, messages on the record, message_ends the consumer got, is_running] "
             "(persist_to and Harness._notify, lesson 11).")


@lab_test("A PowerCut in c2 of a batch leaves a log that replays U A[c1,c2] R(c1); a harness "
          "resumed from that log sends a valid request and carries on.")
async def test_resuming_after_a_power_cut_in_a_tool(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"}),
                                         lab.call("look", {"path": "b.py"})),
                               lab.say("Not reached.")])
    h = harness.Harness(model, SYSTEM, [looker(cut_on="b.py")])
    h.subscribe(harness.persist_to(log))
    t.expect(await raised(lambda: lab.drive(h.prompt("Read a.py and b.py."))),
             "PowerCut: the power went off", "The power cut ends the run (lesson 4).")
    t.expect(lab.shape(log.replay()), "U A[c1,c2] R(c1)", "The log holds what happened before "
                                                          "the cut (persist_to, lesson 11).")
    fresh = lab.ScriptedModel([lab.say("b.py was interrupted; reading it again is safe.")])
    resumed = harness.Harness(fresh, SYSTEM, [looker()], messages=log.replay())
    resumed.subscribe(harness.persist_to(log))
    await lab.drive(resumed.prompt("Where were we?"))
    sent = fresh.calls[0].messages
    t.expect([lab.shape(sent), lab.validate(sent), sent[3]["content"]],
             ["U A[c1,c2] R(c1) R(c2) U", [], harness.INTERRUPTED],
             "The resumed harness's view answers c2 as interrupted (lessons 10 and 11).")
    t.expect(lab.shape(log.replay()), "U A[c1,c2] R(c1) U A",
             "The log goes on from where it stopped, and still holds no invented result "
             "(lesson 11).")


@lab_test("A workspace that loses power on the log's fourth append leaves a log that replays "
          "three messages, and a session resumed from it works.")
async def test_resuming_after_a_power_cut_in_the_log(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})),
                               lab.say("Lost with the power.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    h.subscribe(harness.persist_to(log))
    ws.cut_power_after(3)
    t.expect(await raised(lambda: lab.drive(h.prompt("Read a.py."))),
             "PowerCut: the power went off while writing session.jsonl",
             "The fourth write to the log lost the power (lesson 11).")
    t.expect([lab.shape(log.replay()), len(lines(ws))], ["U A[c1] R(c1)", 3],
             "Three whole lines were written before the cut (SessionLog, lesson 11).")
    fresh = lab.ScriptedModel([lab.say("a.py is read; what next?")])
    resumed = harness.Harness(fresh, SYSTEM, [looker()], messages=log.replay())
    resumed.subscribe(harness.persist_to(log))
    await lab.drive(resumed.prompt("Go on."))
    t.expect([lab.shape(fresh.calls[0].messages), lab.shape(log.replay()),
              log.replay() == list(resumed.messages)],
             ["U A[c1] R(c1) U", "U A[c1] R(c1) U A", True],
             "Resuming is Harness(..., messages=log.replay()), and the log carries on "
             "(lesson 11).")
