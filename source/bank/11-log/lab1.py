"""Lab 11.1's grading bank: scenarios for each rule of its ledger (source/lessons/11-log/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario reaches its rule through another door than the public tests: a damaged log met by
a run's saver rather than by a read, a long log a session is resumed from, a power cut in the
middle of a later session, logs of two sessions with entries of another kind written between
them, persist_to handed a run's events by hand, a disk that fills and empties, listeners that
change the list from inside an event, a consumer that crashes, a steering message a listener
chokes on; so that the public tests' wanted expressions, evaluated in a bank test's frame, do
not give its values.
"""
import json

import harness
import lab
from lab.kit import hours_pass, lab_test, raised, tool

LAB = "11.1"
SYSTEM = "You keep notes on a small repository."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
FILES = ["main.py", "util.py", "notes.md", "lib/core.py", "docs/index.md", "ledger.cfg"]
FOLDED = ["logs/today.jsonl", "runs/2026/main.jsonl", "a/b/session.jsonl", "sessions/w1.jsonl"]
DONE = ["Read them all.", "That is everything.", "Finished reading.", "Done."]


def reader(extra=""):
    """A tool `read` whose result names the file it read, with `extra` after it."""
    return tool("read", lambda arguments: f"text of {arguments['path']}{extra}", PATH)


def rounds(t, first=1, least=0, most=2):
    """A drawn run: `least` to `most` rounds of 1 or 2 `read` calls, then an answer. Its model
    replies, the shape tokens of what it records (its prompt first), and the next call id."""
    replies, tokens = [], ["U"]
    for _ in range(t.random.randint(least, most)):
        ids = [f"c{n}" for n in range(first, first + t.random.randint(1, 2))]
        first += len(ids)
        replies.append(lab.reply(*[lab.call("read", {"path": t.random.choice(FILES)}, id=i)
                                   for i in ids]))
        tokens += [f"A[{','.join(ids)}]"] + [f"R({i})" for i in ids]
    return replies + [lab.say(t.random.choice(DONE))], tokens + ["A"], first


def entry_line(n, kind="message", **fields):
    """Line n of a log as another program would write it."""
    return json.dumps({"id": f"e{n}", "type": kind, **fields}) + "\n"


def saved(ws, path, size):
    """A Harness whose saver writes to the log `path` of `ws`, with a model of `size` answers."""
    h = harness.Harness(lab.ScriptedModel([lab.say(f"Answer {n}.") for n in range(size)]),
                        SYSTEM, [reader()])
    h.subscribe(harness.persist_to(harness.SessionLog(ws, path)))
    return h


# --- rule 1: entries() ---------------------------------------------------------------------

class Locked(lab.Workspace):
    """A disk on which the log is there, but cannot be read just now."""

    def read_text(self, path):
        raise PermissionError(f"{path}: permission denied")


@lab_test("A run whose saver meets a damaged log (a torn last line, a blank, broken, note, "
          "NUL or long cut-short line in the middle, an empty line at the very end, a blank line that is the file's only one, "
          "a whole last entry with no newline, blanks or NULs after the last newline or as the "
          "file's only text, a raw tab in a line, a file that "
          "cannot be read, a folder at its path) ends with the reader's error, naming the log's path and "
          "the line counted from 1, and writes nothing to it; rows() raises it too.")
async def test_bank_a_run_meets_a_damaged_log(t):
    whole = t.random.randint(2, 5)
    lines = [entry_line(n, message=harness.user_message(f"Step {n}.")) for n in
             range(1, 1 + whole)]
    at = t.random.randint(1, whole - 1)  # a damage in the middle lands after line `at`
    damages = {"torn": ("".join(lines) + '{"id": "e' + str(whole + 1), whole + 1),
               "blank": ("".join(lines[:at]) + "\n" + "".join(lines[at:]), at + 1),
               "broken": ("".join(lines[:at]) + "not an entry\n" + "".join(lines[at:]), at + 1),
               "note": ("".join(lines[:at]) + "// resumed by hand\n" + "".join(lines[at:]), at + 1),
               "zeros": ("".join(lines[:at]) + "\0\0\0\0\n" + "".join(lines[at:]), at + 1),
               "long paste cut": ("".join(lines[:at]) + entry_line(at + 1, message=harness.user_message(
                   "Paste: " + "fedcba9876543210" * t.random.randint(2048, 4096)))[:-40] + "\n"
                   + "".join(lines[at:]), at + 1),
               "empty end": ("".join(lines) + "\n", whole + 1),
               "blank only": (t.random.choice(["\n", " \n", "\t\n"]), 1),
               "no newline at the end": ("".join(lines) + entry_line(
                   whole + 1, message=lab.say("Half done.")).rstrip("\n"), whole + 1),
               "one line, no newline": (entry_line(1, message=lab.say("Only.")).rstrip("\n"), 1),
               "blanks after the last newline": ("".join(lines) + t.random.choice(
                   ["  ", "\0\0", " \t"]), whole + 1),
               "blanks only, no newline": (t.random.choice(["  ", "\0\0", " \t"]), 1),
               # NULs where a write was to go, and a tab typed by hand into a message's text
               "NULs after the last newline": ("".join(lines) + "\0" * t.random.randint(1, 6),
                                               whole + 1),
               "raw tab": ("".join(lines[:at]) + entry_line(at + 1, message=harness.user_message(
                   "x")).replace('"x"', '"col1\tcol2"') + "".join(lines[at:]), at + 1)}
    found, wanted = [], []
    for kind in t.random.sample(sorted(damages), len(damages)):
        text, line = damages[kind]
        path = t.random.choice(FOLDED)
        if kind == "broken":  # a path as a person writes it: the same file, named as given
            path = "./" + path
        ws = lab.Workspace({path: text})
        h = saved(ws, path, 1)
        problem = await raised(lambda: lab.drive(h.prompt(t.random.choice(DONE))))
        resumed = await raised(harness.SessionLog(ws, path).rows)
        found.append([kind, problem, resumed, ws.read_text(path) == text, lab.shape(h.messages)])
        error = f"ValueError: {path}, line {line}: not a complete log entry"
        wanted.append([kind, error, error, True, "U"])
    path = t.random.choice(FOLDED)
    ws = Locked({path: "".join(lines)})
    h = saved(ws, path, 1)
    problem = await raised(lambda: lab.drive(h.prompt("Go on.")))
    found.append(["unreadable", problem, await raised(harness.SessionLog(ws, path).rows),
                  ws.files[path] == "".join(lines), lab.shape(h.messages)])
    wanted.append(["unreadable", f"PermissionError: {path}: permission denied",
                   f"PermissionError: {path}: permission denied", True, "U"])
    folder = t.random.choice(FOLDED)  # a folder where the log's file would be
    ws = lab.Workspace({f"{folder}/{name}": "kept\n" for name in t.random.sample(FILES, 2)})
    files = dict(ws.files)
    h = harness.Harness(lab.ScriptedModel([lab.say("Answer.")]), SYSTEM, [reader()])

    async def on_folder():  # making the saver may touch the file already: the page allows it
        h.subscribe(harness.persist_to(harness.SessionLog(ws, folder)))
        await lab.drive(h.prompt("Go on."))
    on_folder_found = [await raised(on_folder), await raised(harness.SessionLog(ws, folder).rows),
                       dict(ws.files) == files, "A" in lab.shape(h.messages)]
    t.expect(found, wanted,
             "A Harness with persist_to subscribed, on a log that holds damage, ran one prompt. "
             "Each item is [the damage, what the run raised, what rows() of a log made afresh "
             "on the file raised, the file is unchanged, lab.shape of the record]: the saver's "
             "first append reads the log, which names the damaged line of PATH (with its "
             "folders, and the \"./\" the broken line's log is given with), counted from 1, wherever it stands, and so does every reader of it; a "
             "file whose only line is blank, or that is there but cannot be read, or a folder "
             "at the log's path, is no empty log (SessionLog.entries, lesson 11).")
    t.expect(on_folder_found, [f"IsADirectoryError: {folder}"] * 2 + [True, False],
             "A folder stands where the log's file would be. Items: [what subscribing a saver on "
             "it and running a prompt raised, what rows() raised, the workspace's files are "
             "unchanged, an answer was recorded]: a folder at the log's path is no empty log; "
             "the disk's error goes on, and nothing is written (SessionLog.entries, lesson 11).")


@lab_test("A session resumed from a long log another program wrote (over three hundred entries) "
          "holds all of it and numbers its next entries after it, as does a longer log, an "
          "entry of hundreds of thousands of characters read as any other; reading a log with no file "
          "made no file, a caller that changes a message replay() gave it changes nothing "
          "the log reads next, and a rewrite of the file at the same length is read.")
async def test_bank_a_long_log_resumed(t):
    others = {name: "kept\n" for name in t.random.sample(FILES, 2)}
    ws, path = lab.Workspace(others), t.random.choice(FOLDED)
    log = harness.SessionLog(ws, path)
    before = [log.replay(), log.rows(), sorted(ws.files)]
    ws.write_text(path, "")  # a writer opened the file and wrote nothing: no entries yet
    before.append([log.entries(), log.replay()])
    size = 300 + t.random.randint(1, 12)
    ws.write_text(path, "".join(entry_line(n, message=harness.user_message(f"Question {n}.")
                                           if n % 2 else lab.say(f"Answer {n}."))
                                for n in range(1, size + 1)))
    h = harness.Harness(lab.ScriptedModel([lab.say("Picked up.")]), SYSTEM, [reader()],
                        messages=log.replay())
    h.subscribe(harness.persist_to(log))
    await lab.drive(h.prompt("Where were we?"))
    handed = log.replay()
    handed[0]["content"] = "changed by a caller"
    handed.pop()
    first = log.replay()[0]["content"]
    edited = t.random.randrange(1, size, 2)  # a question, rewritten letter for letter
    swap = "7" if str(edited)[-1] != "7" else "3"
    words = f"Question {str(edited)[:-1]}{swap}."
    ws.write_text(path, ws.read_text(path).replace(f'"Question {edited}."', f'"{words}"'))
    spoilt = t.random.randint(2, 150)  # a line far above the end, cut short by another program
    copy = ws.read_text(path).splitlines(keepends=True)
    # it held a long paste, as a tool's output of a few thousand characters is
    pasted = entry_line(spoilt, message=lab.say("Here it is: " + "<p>line</p>" * t.random.randint(
        100, 300)))
    copy[spoilt - 1] = pasted[:t.random.randint(len(pasted) // 2, len(pasted) - 3)] + "\n"
    far = await raised(harness.SessionLog(lab.Workspace({path: "".join(copy)}), path).rows)
    big = t.random.randint(600, 900)  # a longer log still, its length drawn, one append on it
    longer = harness.SessionLog(lab.Workspace({path: ws.read_text(path) + "".join(
        entry_line(n, message=lab.say("More.")) for n in range(size + 3, big + 1))}), path)
    grown = longer.ws.read_text(path)
    mid = t.random.randint(big // 3 + 1, 2 * big // 3)  # a line in its middle third, cut short
    cut = grown.splitlines(keepends=True)
    cut[mid - 1] = t.random.choice(["\n", "  \n", " \t \n"])  # blank, in a long log
    # and line `spoilt` of it whole, an answer holding a page of 300,000 to 900,000 characters
    cut[spoilt - 1] = entry_line(spoilt, message=lab.say(
        "The page: " + "<p>line</p>" * t.random.randint(27_500, 82_000)))
    middle = await raised(harness.SessionLog(lab.Workspace({path: "".join(cut)}), path).rows)
    # and the longer log whose last entry is whole, but its newline never came
    unended = await raised(harness.SessionLog(lab.Workspace({path: grown[:-1]}), path).replay)
    t.expect([before, len(h.messages), [k for k, _ in log.rows()[-3:]],
              first, len(log.replay()), log.replay()[edited - 1]["content"], far,
              longer.append_message(lab.say("After them.")), middle, unended],
             [[[], [], sorted(others), [[], []]], size + 2,
              [f"e{size}", f"e{size + 1}", f"e{size + 2}"],
              "Question 1.", size + 2, words,
              f"ValueError: {path}, line {spoilt}: not a complete log entry", f"e{big + 1}",
              f"ValueError: {path}, line {mid}: not a complete log entry",
              f"ValueError: {path}, line {big}: not a complete log entry"],
             f"Items: [replay(), rows() and the workspace's files while the log had no file, "
             "then entries() and replay() once the file was there with nothing in it, "
             f"the messages of a harness resumed from a log of {size} entries once it ran one "
             "prompt, the ids of the log's last three rows, the words of the first message "
             "the log replays after a caller changed that message in a list replay() gave it "
             "and popped the list's last, the messages it replays, the words of message "
             f"{edited} once another program rewrote them at the same length, what rows() "
             f"raised on a copy of the file whose line {spoilt}, far above its end, a long "
             "answer of over a thousand characters, was cut short halfway or further, the id "
             f"an append returned on a log of {big} entries, what rows() "
             f"raised on a copy of that log whose line {mid}, in its middle, is blank, and "
             f"whose line {spoilt} is a whole answer of hundreds of thousands of characters, "
             "what replay() raised on a copy whose last newline never came]: every line is "
             "read, parsed again at each read, the file as it now is, and a damaged line or "
             "a last line with no newline is named wherever it stands (SessionLog.entries, "
             "lesson 11).")


# --- rule 2: append_message through _append ---------------------------------------------------

@lab_test("A power cut tearing one of the log's appends in a later session of runs whose tool "
          "results hold line separators and accents leaves every line written before it whole: "
          "the reader names the torn line, one past the messages saved; a second window's line "
          "landing mid-append is kept too.")
async def test_bank_a_power_cut_in_a_later_session(t):
    path = t.random.choice(FOLDED + ["session.jsonl"])
    ws = lab.Workspace()
    odd = t.random.choice(["\u2028", "\u2029", "\x85"]) + " café – naïve"
    first, tokens, next_id = rounds(t, least=1)
    second, later, _ = rounds(t, first=next_id, least=1)
    h = harness.Harness(lab.ScriptedModel(first + second), SYSTEM, [reader(odd)])
    h.subscribe(harness.persist_to(harness.SessionLog(ws, path)))
    problems = [await raised(lambda: lab.drive(h.prompt("Read the first batch.")))]
    text = ws.read_text(path)
    cut = t.random.randrange(len(later))  # whole writes of the second run before the cut
    ws.cut_power_after(cut, torn=True)
    problems.append(await raised(lambda: lab.drive(h.prompt("Now the second."))))
    log = harness.SessionLog(ws, path)
    t.expect([problems, ws.read_text(path).startswith(text), await raised(log.entries)],
             [[None, f"PowerCut: the power went off while writing {path}"], True,
              f"ValueError: {path}, line {len(tokens) + cut + 1}: not a complete log entry"],
             f"A first run saved {len(tokens)} messages ({' '.join(tokens)}); a second "
             f"({' '.join(later)}) lost the power in write {cut + 1}. Items: [what each run "
             "raised, the file still starts with the first run's text, what entries() then "
             "raised]: each append adds one line at the end, whatever its message holds, and "
             "changes no byte written before (SessionLog.append_message, lesson 11).")
    ws = lab.Workspace()
    log = harness.SessionLog(ws, path)
    log.append_message(harness.user_message("Read every file under lib/, please."))
    first_line = ws.read_text(path)
    ws.cut_power_after(0, torn=True)  # in the second append, whose line is the shorter
    torn = await raised(lambda: log.append_message(harness.user_message("Ok?")))
    kept = ws.read_text(path).startswith(first_line)
    ws.write_text(path, first_line)  # a person cuts the torn line away
    ids = [log.append_message(lab.say(f"Again {n}.")) for n in range(3)]
    text = ws.read_text(path).splitlines(keepends=True)
    text[2] = "!" + text[2][1:]  # line 3 spoilt by another program, at the file's length
    ws.write_text(path, "".join(text))
    refused = await raised(lambda: log.append_message(lab.say("More.")))
    unchanged = ws.read_text(path) == "".join(text)
    ws.write_text(path, first_line)  # and cut back to line 1
    last = log.append_message(lab.say("Line 2."))
    many = t.random.randint(150, 250)  # a log another program wrote, spoilt far above its end
    spoilt = t.random.randint(1, many - 101)
    lines = [entry_line(n, message=lab.say(f"Note {n}.")) for n in range(1, many + 1)]
    lines[spoilt - 1] = lines[spoilt - 1][:t.random.randint(3, 15)] + "\n"
    other = lab.Workspace({path: "".join(lines)})
    far = [await raised(lambda: harness.SessionLog(other, path).append_message(lab.say("More."))),
           other.read_text(path) == "".join(lines)]
    t.expect([torn, kept, ids, refused, unchanged, last, far],
             why="A new log: one append, then a power cut in the second, whose line is shorter "
                 "than the first; a person cut the torn line away and the same log appended "
                 "three times; another program spoilt line 3's first byte, keeping the file's "
                 "length, and an append was tried; then the file was cut back to line 1 and the "
                 "log appended once. Items: [what the torn append raised, line 1 stayed whole, "
                 "the three ids, what the append on the spoilt file raised, the file unchanged "
                 f"by it, the last id, then [what an append raised on a log of {many} entries "
                 f"another program wrote, whose line {spoilt}, far above its end, was cut "
                 "short, that file unchanged]]: each append adds one line at the end and "
                 "changes no byte written, however short the log, and reads the whole file at "
                 "each call for its id and its damage, however far from the end the damage is "
                 "(SessionLog.append_message, lesson 11).")

    class TwoWindows(lab.Workspace):
        """A log a second window appends to as well: its line lands while one of the saver's
        appends is between its reading and its writing."""

        def append_text(self, path, text):
            self.count = getattr(self, "count", 0) + 1
            if self.count == clash:
                super().append_text(path, entry_line(
                    self.read_text(path).count("\n") + 1, message=lab.say("From window two.")))
            super().append_text(path, text)
    replies, tokens, _ = rounds(t, least=1)
    clash = t.random.randint(2, len(tokens))  # the saver's append the other line lands in
    ws = TwoWindows()
    h = harness.Harness(lab.ScriptedModel(replies), SYSTEM, [reader()])
    h.subscribe(harness.persist_to(harness.SessionLog(ws, path)))
    grew = []
    problem = await raised(lambda: lab.drive(h.prompt("Read, while window two writes."),
                                             on_event=lambda e: grew.append(
                                                 ws.read_text(path) if ws.exists(path) else "")))
    t.expect([problem, all(new.startswith(old) for old, new in zip(grew, grew[1:])),
              ws.read_text(path).count("\n"), "From window two." in ws.read_text(path)],
             [None, True, len(tokens) + 1, True],
             f"A saver wrote a run of {len(tokens)} messages ({' '.join(tokens)}) to a log a "
             f"second window appended a line to while the saver's append {clash} was between "
             "its reading and its writing. Items: [what the run raised, the file's text at each "
             "event the consumer saw starts with the one before, the lines in the file, window "
             "two's line is there]: an append adds its line at the end and takes nothing "
             "back, another writer's line included (SessionLog._append, lesson 11).")


def stamped(session):
    """A SessionLog whose _append marks each entry with `session`, as a later lesson's own
    _append adds a field to every kind of entry."""
    class Stamped(harness.SessionLog):
        def _append(self, entry):
            return super()._append({**entry, "session": session})
    return Stamped


@lab_test("Two sessions on one file, each with its own log object, with notes written between "
          "them through _append and by another program: every entry's id is its line number, "
          "and every message entry went through _append.")
async def test_bank_ids_across_two_sessions(t):
    ws, path = lab.Workspace(), t.random.choice(FOLDED)
    first, tokens, next_id = rounds(t, most=1)
    h = harness.Harness(lab.ScriptedModel(first), SYSTEM, [reader()])
    one = stamped(1)(ws, path)
    h.subscribe(harness.persist_to(one))
    await lab.drive(h.prompt("Read what you need."))
    kinds = [("message", 1)] * len(tokens)
    between = ["hand", "log"] + [t.random.choice(["hand", "log"])
                                 for _ in range(t.random.randint(0, 2))]
    t.random.shuffle(between)
    for n, who in enumerate(between):
        if who == "hand":  # another program copies a note from an older log, with its id
            old = t.random.randint(40, 90)
            ws.append_text(path, entry_line(old, "note", text=f"backup {n}"))
            kinds.append(("note", None, f"e{old}"))
        else:
            one._append({"type": "note", "text": f"checkpoint {n}"})
            kinds.append(("note", 1))
    second, later, _ = rounds(t, first=next_id, most=1)  # a new model: ids go on by hand
    two = stamped(2)(ws, path)
    h = harness.Harness(lab.ScriptedModel(second), SYSTEM, [reader()], messages=two.replay())
    h.subscribe(harness.persist_to(two))
    await lab.drive(h.prompt("Carry on."))
    kinds += [("message", 2)] * len(later)
    entries = harness.SessionLog(ws, path).entries()
    t.expect([[e["id"], e["type"], e.get("session")] for e in entries],
             [[(rest or [f"e{n}"])[0], kind, session]
              for n, (kind, session, *rest) in enumerate(kinds, 1)],
             "Each item is one entry of the file: [its id, its type, the session whose log's "
             "_append wrote it (None for a line another program copied from an older log, "
             "with that log's id)]. A first session saved "
             f"{' '.join(tokens)}, notes were written ({', '.join(between)}: by hand or through "
             f"the first log's _append), then a second log object saved {' '.join(later)}: an "
             "id is e and the number of the line it lands on, read from the file at each "
             "append, whatever kind the lines before hold (SessionLog.append_message, "
             "lesson 11).")


# --- rule 3: rows() and replay() -------------------------------------------------------------

@lab_test("A harness resumed from the log of two sessions, with notes between them, sends the "
          "model the transcript in the order it happened, and rows() holds only the messages.")
async def test_bank_a_resumed_request_in_order(t):
    ws, path = lab.Workspace(), t.random.choice(FOLDED)
    log = harness.SessionLog(ws, path)
    other = t.random.choice(["bookmark", "label", "checkpoint", "model_change"])  # lesson 12 owns "compaction"
    replies, shapes, ids, next_id = [], [], [], 1
    for _ in range(2):
        more, tokens, next_id = rounds(t, first=next_id, least=2)
        replies += more
        shapes += tokens
    h = harness.Harness(lab.ScriptedModel(replies), SYSTEM, [reader()])
    h.subscribe(harness.persist_to(log))
    line = 0  # the lines the file holds
    for n in range(2):
        await lab.drive(h.prompt(f"Batch {n}."))
        new = len(h.messages) - len(ids)
        ids += [f"e{k}" for k in range(line + 1, line + new + 1)]
        line += new
        for k in range(t.random.randint(1, 2)):
            log._append({"type": other, "message": f"checkpoint {n}.{k}"})
            line += 1
        if n == 0:  # a kind whose name holds "message", carrying a whole message
            log._append({"type": "message_edit", "message": lab.say("An edit of the answer.")})
            line += 1
        else:  # a type that is "message" only once tidied, carrying a whole message
            log._append({"type": t.random.choice(["Message", " message", "message\t"]),
                         "message": lab.say("Written by hand.")})
            line += 1
    fresh = lab.ScriptedModel([lab.say("Resumed.")])
    resumed = harness.Harness(fresh, SYSTEM, [reader()], messages=log.replay())
    await lab.drive(resumed.prompt("Go on."))
    t.expect([lab.shape(fresh.calls[0].messages), [k for k, _ in log.rows()]],
             [" ".join(shapes + ["U"]), ids],
             "Items: [lab.shape of the resumed harness's first request, the ids rows() "
             f"gives]. Two runs saved {len(shapes)} messages, with entries of another kind "
             f"(of type {other!r}, carrying a field named \"message\") written through _append "
             "after each, a message_edit entry carrying a whole message after the first, and "
             "after the second an entry of a type that reads \"message\" only once tidied: "
             "rows() holds one pair per message entry, in the order written, and e10 comes "
             "after e9 (SessionLog.rows, lesson 11).")


@lab_test("A long log another program wrote, of over three hundred message entries with notes "
          "among them and its ids counted twice from e1 (two logs joined), gives rows of its "
          "message entries alone, in the order written.")
async def test_bank_a_long_mixed_log(t):
    path, every = t.random.choice(FOLDED), t.random.randint(6, 9)
    joined = t.random.randint(40, 120)  # the lines of an older log, put first by another program
    lines, messages, ids = [], [], []
    for n in range(1, 380 + t.random.randint(0, 20)):  # over 300 message entries
        number = n if n <= joined else n - joined  # the second log's ids count from e1 again
        if n % every == 0:
            lines.append(entry_line(number, "note", message=f"checkpoint {n}"))
        else:
            messages.append(harness.user_message(f"Question {n}.") if n % 2 else
                            lab.say(f"Answer {n}."))
            lines.append(entry_line(number, message=messages[-1]))
            ids.append(f"e{number}")
    log = harness.SessionLog(lab.Workspace({path: "".join(lines)}), path)
    rows = log.rows()
    t.expect([len(rows), [k for k, _ in rows[::50]], [k for k, _ in rows[-2:]],
              log.replay() == messages],
             [len(ids), ids[::50], ids[-2:], True],
             f"A log of {len(lines)} lines, every {every}th a note, the first {joined} of them "
             "an older log that another program joined to it, so its ids count from e1 again "
             "after them. Items: [how many rows, the "
             "ids of every 50th row, the ids of the last two, replay() equals the message "
             "entries' messages]: rows() is one pair per message entry (its type), in the "
             "order written, the file's, and not one per id, however long the log "
             "(SessionLog.rows, lesson 11).")

    class FromACut(harness.SessionLog):
        """A log whose rows() keeps those from a cut on, as lesson 12's does after a summary."""

        def rows(self):
            return super().rows()[cut:]
    cut = t.random.randint(10, 200)
    t.expect(FromACut(lab.Workspace({path: "".join(lines)}), path).replay() == messages[cut:],
             True,
             f"The same log read by a subclass whose rows() keeps the rows from number {cut} on. "
             "The item is: replay() of the subclass is the messages of its rows(), as replay() "
             "is the messages rows() gives, whatever rows() a later lesson writes "
             "(SessionLog.replay, lesson 11).")


# --- rule 4: persist_to --------------------------------------------------------------------------

@lab_test("persist_to handed by hand every event of two runs (a prompt sent with an equal "
          "steering message, calls, an empty answer, a failed reply) saves exactly the messages "
          "of their message_ends.")
async def test_bank_persist_to_handed_events(t):
    words = t.random.choice(["Read main.py.", "Look again.", "Go on."])
    replies, tokens, _ = rounds(t, least=1)
    replies[-1] = lab.reply()  # the answer has no content
    h = harness.Harness(lab.ScriptedModel(replies + [lab.fail("overloaded")]), SYSTEM, [reader()])
    h.steer(words)
    events = await lab.drive(h.prompt(words))
    events += await lab.drive(h.prompt(t.random.choice(DONE)))
    ws, path = lab.Workspace(), t.random.choice(FOLDED)
    log = harness.SessionLog(ws, path)
    listener = harness.persist_to(log)
    for event in events:
        listener(event)
    t.expect([lab.shape(log.replay()), log.replay() == list(h.messages),
              len(ws.read_text(path).splitlines())],
             [" ".join(["U"] + tokens + ["U", "A(error)"]), True, len(tokens) + 3],
             "Items: [lab.shape of what the log replays, it equals the record, the file's "
             "lines] after persist_to's listener was handed each event of two runs: a prompt "
             "with an equal steering message, calls, an answer with no content, and a run whose "
             "reply failed. It saves the message of every message_end, whatever it holds, and "
             "nothing of any other event (persist_to, lesson 11).")
    quiet = tool("quiet", lambda arguments: "", PATH)  # a command that printed nothing
    h = harness.Harness(lab.ScriptedModel([lab.reply(lab.call("quiet", {"path": "x"}, id="c1")),
                                           lab.say("Nothing printed.")]), SYSTEM, [quiet])
    events = await lab.drive(h.prompt(words))
    log = harness.SessionLog(lab.Workspace(), path)
    listener = harness.persist_to(log)
    for event in events:
        if event["type"] == "message_end":  # an event a later lesson may add, with a message
            listener({"type": "message_update", "message": event["message"]})
            listener({"type": t.random.choice(["steer_message_end", "final_message_end"]),
                      "message": event["message"]})  # ends like message_end, and is not it
        listener(event)
    again = [event for event in events if event["type"] == "message_end"][0]
    listener(again)  # the prompt's very event, handed a second time
    t.expect([lab.shape(log.replay()), log.replay() == [*h.messages, h.messages[0]]],
             why="persist_to's listener was handed each event of a run whose one call went to a "
                 "tool that printed nothing (a result whose content is \"\"), and before each "
                 "message_end a message_update and an event whose type ends in message_end "
                 "without being it, carrying the same message; then the prompt's "
                 "message_end, that very event, once more. Items: [lab.shape of what the log "
                 "replays, it equals the record and the prompt again]: it saves the message of "
                 "every message_end, whatever it holds and whatever it saved, and nothing of "
                 "any other event, whatever its "
                 "type is called (persist_to, lesson 11).")




class Filling(lab.Workspace):
    """A disk that has no room while `full` is set: it raises its own `error`, one object, of
    the class `kind` (a signal cutting the write short raises InterruptedError)."""
    full = False
    error = None
    kind, words = OSError, "No space left on device"

    def append_text(self, path, words):
        if self.full:
            self.error = self.kind(self.words)
            raise self.error
        return super().append_text(path, words)


@lab_test("A saver on a disk that fills ends that run with the disk's error, and saves the next "
          "once there is room again; a power cut in its write ends a run, and the torn log it "
          "leaves ends the next.")
async def test_bank_a_disk_that_fills_and_empties(t):
    ws, path = Filling(), t.random.choice(FOLDED)
    h = saved(ws, path, 5)
    log = harness.SessionLog(ws, path)
    found = [await raised(lambda: lab.drive(h.prompt("First.")))]
    ws.full = True
    try:
        await lab.drive(h.prompt("Second."))
        found.append(None)
    except Exception as error:  # noqa: BLE001 - what the run raised, to look at
        found.append([f"{type(error).__name__}: {error}", error is ws.error])
    ws.full = False
    found.append(await raised(lambda: lab.drive(h.prompt("Third."))))
    found.append(lab.shape(log.replay()))
    ws.full, ws.kind, ws.words = True, InterruptedError, "a signal cut the write short"
    found.append(await raised(lambda: lab.drive(h.prompt("Interrupted."))))
    ws.full = False
    whole = t.random.randrange(2)  # the fourth run's writes that land whole before the cut
    ws.cut_power_after(whole, torn=True)
    found.append(await raised(lambda: lab.drive(h.prompt("Fourth."))))
    found.append(await raised(lambda: lab.drive(h.prompt("Fifth."))))
    found.append([lab.shape(h.messages), h.is_running])
    t.expect(found,
             [None, ["OSError: No space left on device", True], None, "U A U A",
              "InterruptedError: a signal cut the write short",
              f"PowerCut: the power went off while writing {path}",
              f"ValueError: {path}, line {5 + whole}: not a complete log entry",
              ["U A U U A U U" + " A" * whole + " U", False]],
             "Six prompts to a Harness with persist_to subscribed: the second while the disk "
             "had no room, the fourth while a signal cut each write short (InterruptedError), "
             "the fifth while the power went off in its write number "
             f"{whole + 1}, leaving a torn line. Items: [what each of the first three runs "
             "raised (the second's, and whether it is the disk's own object), lab.shape of "
             "what the log replays after them, what the fourth, fifth and sixth "
             "raised, lab.shape of the record and is_running at the end]: the saver saves the "
             "message of every message_end, after a failed save too, and never fails quietly, "
             "whatever the class of the error it meets (persist_to, lesson 11).")


# --- rule 5: subscribe and _notify -------------------------------------------------------------

@lab_test("Listeners hear the start and the end of every run in the order they subscribed, "
          "after an undo of the later of two equal subscriptions, called twice, as before it, "
          "and each undo takes off its own; the last of over three hundred subscriptions hears "
          "every event, after them all; and a listener's StopIteration ends the run, as a "
          "RuntimeError, and its KeyboardInterrupt, SystemExit or a network disk's error as "
          "itself.")
async def test_bank_the_order_at_both_ends_of_a_run(t):
    x, y, z = t.random.sample("LMN", 3)
    names = [x, y, x, z] + [t.random.choice([y, z]) for _ in range(t.random.randint(0, 2))]
    trace = []

    def named(name):
        def hear(event):
            if event["type"] in ("agent_start", "agent_end"):
                trace.append([event["type"], name])
        return hear
    listeners = {name: named(name) for name in "LMN"}
    h = harness.Harness(lab.ScriptedModel([lab.say("One."), lab.say("Two."), lab.say("Three.")]),
                        SYSTEM, [])
    undos = [h.subscribe(listeners[name]) for name in names]
    await lab.drive(h.prompt("First."))
    runs = [list(trace)]
    trace.clear()
    undos[2]()
    undos.append(h.subscribe(listeners[y]))  # subscribed after the undo
    undos[len(names) - 1]()  # the last of the first subscriptions
    undos[2]()
    await lab.drive(h.prompt("Second."))
    runs.append(list(trace))
    trace.clear()
    undos[-1]()  # the undo of the one subscribed after an undo, which shares no other's
    await lab.drive(h.prompt("Third."))
    runs.append(list(trace))
    kept = names[:2] + names[3:-1] + [y]
    many, tally, last = 300 + t.random.randint(1, 9), [], []
    h = harness.Harness(lab.ScriptedModel([lab.say("Three.")]), SYSTEM, [])
    for _ in range(many):
        h.subscribe(tally.append)
    h.subscribe(lambda event: last.append([event["type"], len(tally) // many]))
    await lab.drive(h.prompt("Third."))
    t.expect([runs, len(tally), last],
             [[[[kind, name] for kind in ("agent_start", "agent_end") for name in order]
               for order in (names, kept, kept[:-1])], 6 * many,
              [[kind, n] for n, kind in enumerate(["agent_start", "turn_start", "message_end",
                                                   "message_end", "turn_end", "agent_end"], 1)]],
             f"Listeners subscribed in the order {names}; between two runs, the undo of the "
             f"third subscription was called, {y} subscribed once more, the undo of the last of "
             "the first subscriptions called, and the third's undo called again; before a "
             f"third run, the undo of the {y} subscribed after the undo. Items: [for "
             "each run, [event, listener] "
             "for each agent_start and agent_end heard, in the order heard; events one "
             f"listener subscribed {many} times heard in a plain run of another harness; the "
             "events a listener subscribed after them heard, each with how many times each "
             f"of the {many} had heard an event by then]: each undo takes off its own "
             "subscription, once, and every listener hears every event in the order they "
             "subscribed (Harness.subscribe and _notify, lesson 11).")
    h = harness.Harness(lab.ScriptedModel([lab.say("Counted.")]), SYSTEM, [])
    counted, kept = [], []

    class Keeper:
        """A listener that is an object's method, the object held by the harness alone."""

        def hear(self, event):
            kept.append(event["type"])
    h.subscribe(Keeper().hear)
    for _ in range(1500):  # more than Python's 1000 frames
        h.subscribe(counted.append)
    own = RuntimeError("the notebook is full")

    def full(event):
        if event["type"] == "agent_end":
            raise own
    h.subscribe(full)
    caught = []
    try:
        await lab.drive(h.prompt("Count."))
    except Exception as error:  # noqa: BLE001 - what the run raised, to look at
        caught.append(error)
    t.expect([kept, len(counted), [error is own for error in caught]],
             why="A bound method of an object nothing else holds, then one listener 1500 times, "
                 "then one that raises its own RuntimeError at agent_end, all on one harness; a "
                 "plain run. Items: [the events the bound method heard, the events the 1500 "
                 "subscriptions heard in all, for each exception the run raised: it is the "
                 "listener's own object]: subscribe keeps the listener it is handed, every "
                 "subscription hears every event however many there are, and the run ends with "
                 "the listener's own exception (Harness.subscribe and _notify, lesson 11).")
    at = t.random.choice(["agent_start", "turn_start", "turn_end", "agent_end"])
    found = []
    network = t.random.choice([TimeoutError, ConnectionError, ConnectionRefusedError,
                               BrokenPipeError])  # a network disk's, which looks passing
    for stop in (StopIteration(f"no more pages at {at}"), KeyboardInterrupt("shut at " + at),
                 SystemExit("gone at " + at), network(f"the share went away at {at}")):
        h = harness.Harness(lab.ScriptedModel([lab.say("Stopped.")]), SYSTEM, [])

        def ends(event, stop=stop):
            if event["type"] == at:
                raise stop
        h.subscribe(ends)
        caught = []
        try:
            await lab.drive(h.prompt("Stop?"))
        except BaseException as error:  # noqa: BLE001 - what the run raised, to look at
            caught.append(error)
        found.append([[type(error).__name__ for error in caught],
                      [error is stop or error.__cause__ is stop for error in caught],
                      h.is_running])
    t.expect(found,
             [[["RuntimeError"], [True], False], [["KeyboardInterrupt"], [True], False],
              [["SystemExit"], [True], False], [[network.__name__], [True], False]],
             f"A listener raised StopIteration at {at}, in a plain run; in three more, "
             f"KeyboardInterrupt, SystemExit and {network.__name__}, a network disk's error. "
             "Each item: [the classes of what the run "
             "raised, each is the listener's own exception or was caused by it, is_running "
             "after]: a listener that raises ends the run with its own exception, whatever "
             "its class; a StopIteration is the one exception a generator cannot pass on, so "
             "the run ends with the RuntimeError Python makes of it, not quietly "
             "(Harness._notify, lesson 11).")


@lab_test("Listeners that undo themselves or a later one, or subscribe another, in the middle "
          "of an event leave every listener subscribed when it began hearing it; a listener "
          "whose own bug raises, at an event that carries no message, ends that run, and hears "
          "the next run whole, however many runs it raised in and however long it takes.")
async def test_bank_listeners_that_change_the_list(t):
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "main.py"})),
                               lab.say("Read it."), lab.say("Plain."), lab.say("Again."),
                               lab.say("Spare.")])
    h = harness.Harness(model, SYSTEM, [reader()])
    heard = {name: [] for name in "ABCDE"}
    leave, join = t.random.randrange(12), t.random.randrange(11)  # event numbers, from 0
    undos = {}

    def listener(name):
        def hear(event):  # E notes how many events D, subscribed before it, has heard
            heard[name].append(len(heard["D"]) if name == "E" else event["type"])
            if name == "A" and len(heard["A"]) == leave + 1:
                undos["A"]()
                undos["C"]()
            if name == "D" and len(heard["D"]) == join + 1:
                h.subscribe(listener("E"))
        return hear
    for name in "ABCD":
        undos[name] = h.subscribe(listener(name))
    await lab.drive(h.prompt("Read main.py."))
    # E, subscribed during event `join`, hears the events after it, not that one (Build item 5)
    counts = [len(heard[name]) for name in "ABCD"] + [len(heard["E"])]
    buggy, at = [], t.random.choice([0, 1, 4, 5])  # agent_start, turn_start, turn_end, agent_end
    changed = []

    def changer(event):  # at the bug's event, before it: subscribes F and undoes B
        changed.append(event["type"])
        if len(changed) == at + 1:
            h.subscribe(listener("F"))
            undos["B"]()
    heard["F"] = []
    h.subscribe(changer)

    def bug(event):
        buggy.append(event["type"])
        if len(buggy) == at + 1:
            return 1 / 0
    h.subscribe(bug)
    problem = await raised(lambda: lab.drive(h.prompt("Once more.")))
    running = h.is_running
    b_before, d_before = len(heard["B"]), len(heard["D"])

    def consumer(event):  # takes D off at the run's first message_end, and reads on
        if event["type"] == "message_end" and len(heard["D"]) == d_before + 3:
            undos["D"]()
    await lab.drive(h.prompt("And again."), on_event=consumer)
    t.expect([counts, problem, running, buggy[at + 1:], heard["F"],
              len(heard["B"]) - b_before, heard["D"][d_before:]],
             [[leave + 1, 12, leave + 1, 12, 11 - join], "ZeroDivisionError: division by zero",
              False, ["agent_start", "turn_start", "message_end", "message_end", "turn_end",
                      "agent_end"], ["agent_start", "turn_start", "message_end", "message_end",
                                     "turn_end", "agent_end"], 0,
              ["agent_start", "turn_start", "message_end"]],
             f"Listeners A, B, C, D subscribed in that order; in a run of 12 events, A undid "
             f"itself and C at event {leave} (from 0), and D subscribed E at event {join}. "
             f"Items: [events each of A to D heard, and E, what the next "
             "run raised when a listener's own bug divided by zero at its event "
             f"{at} ({['agent_start', 'turn_start', '', '', 'turn_end', 'agent_end'][at]}, "
             "which carries no message), is_running then, the events that "
             "listener heard in the run after, the events F heard in that run after a listener "
             "subscribed it and undid B at the bug's event, before the bug raised, the "
             "events B heard after its undo, and those D heard in that run, whose consumer "
             "undid D at the first message_end and read on]: every listener subscribed when an "
             "event began "
             "hears it, one subscribed during an event hears every later one and not that "
             "one, and a listener "
             "that raises ends the run with its own exception and stays subscribed; a "
             "subscribe or an undo counts from the moment it is made, whatever happens to the "
             "event after it (Harness._notify, lesson 11).")
    h = harness.Harness(lab.ScriptedModel([lab.forever(lambda request: lab.say("Noted."))]),
                        SYSTEM, [reader()])
    strikes, fails, told = t.random.randint(2, 3), [True], []

    def flaky(event):  # its notebook is missing at the start of a run, strikes runs running
        told.append(event["type"])
        if event["type"] == "agent_start" and fails[0]:
            fails[0] = False
            raise LookupError("no notebook")
    h.subscribe(flaky)
    ended, seen = [], []
    with hours_pass():  # and each reading of a clock a minute after the one before
        for _ in range(strikes):
            fails[0] = True
            ended.append(await raised(lambda: lab.drive(h.prompt("Note this."))))
        fails[0] = False
        told.clear()
        await lab.drive(h.prompt("And this."), on_event=lambda e: seen.append(e["type"]))
    t.expect([ended, told], [["LookupError: no notebook"] * strikes, seen],
             f"A listener raised LookupError at agent_start in each of {strikes} runs in a row, "
             "every reading of a clock a minute after the one before, then raised nothing. "
             "Items: [what each of those runs raised, the events the listener heard in the run "
             "after, which are all those the consumer got]: a listener hears every event of "
             "every run until its undo is called, however often it raises and however long "
             "it takes (Harness.subscribe and _notify, lesson 11).")


# --- rule 6: _run tells the listeners first -------------------------------------------------

@lab_test("A consumer that crashes at a message_end leaves a log that already holds that "
          "message.")
async def test_bank_a_consumer_that_crashes(t):
    ws, path = lab.Workspace(), t.random.choice(FOLDED)
    replies, tokens, _ = rounds(t, least=1)
    h = harness.Harness(lab.ScriptedModel(replies), SYSTEM, [reader()])
    h.subscribe(harness.persist_to(harness.SessionLog(ws, path)))
    stop, ends = t.random.randint(2, len(tokens)), []
    counted = []
    undo = h.subscribe(counted.append)

    def consumer(event):
        if event["type"] == "message_end":
            ends.append(event["message"])
            if len(ends) == 1:
                undo()  # the consumer takes a listener off mid-run, and goes on
            if len(ends) == stop:
                raise ConnectionResetError("the pane was shut")
    problem = await raised(lambda: lab.drive(h.prompt("Read the files."), on_event=consumer))
    t.expect([problem, lab.shape(harness.SessionLog(ws, path).replay()),
              [event["type"] for event in counted]],
             ["ConnectionResetError: the pane was shut", " ".join(tokens[:stop]),
              ["agent_start", "turn_start", "message_end"]],
             f"A run of {' '.join(tokens)}, whose consumer undid a listener at the first "
             f"message_end and crashed at message_end number {stop}. Items: [what the run "
             "raised, lab.shape of what the log replays, the events the undone listener "
             "heard]: the listeners hear each event before the consumer gets it, whatever the "
             "consumer does, and one it undoes hears nothing after "
             "(Harness._run and subscribe, lesson 11).")


@lab_test("A steering message a listener chokes on ends that run, and is not delivered again: "
          "it left its queue when it reached the record.")
async def test_bank_a_steer_a_listener_chokes_on(t):
    words = t.random.choice(["Stop reading, answer now.", "Skip the docs.", "Only main.py."])
    width = t.random.randint(1, 3)
    model = lab.ScriptedModel([lab.reply(*[lab.call("read", {"path": f}, id=f"c{n}")
                                           for n, f in enumerate(FILES[:width], 1)]),
                               lab.say("Replied."), lab.say("Back."), lab.say("Spare.")])
    h = harness.Harness(model, SYSTEM, [reader()])
    ws, path = lab.Workspace(), t.random.choice(FOLDED)
    log = harness.SessionLog(ws, path)
    h.subscribe(harness.persist_to(log))
    kind = t.random.choice([RuntimeError, LookupError])

    def choke(event):
        if event["type"] == "message_end" and event["message"].get("content") == words:
            raise kind("cannot render it")
    undo = h.subscribe(choke)
    at = t.random.randint(1, width)
    ends = []

    def consumer(event):
        if event["type"] == "tool_execution_end":
            ends.append(event)
            if len(ends) == at:
                h.steer(words)
    problem = await raised(lambda: lab.drive(h.prompt("Read the files."), on_event=consumer))
    undo()
    await lab.drive(h.prompt("Are you there?"))
    ids = [f"c{n}" for n in range(1, width + 1)]
    shape = " ".join([f"U A[{','.join(ids)}]"] + [f"R({i})" for i in ids] + ["U U A"])
    t.expect([problem, lab.shape(h.messages), lab.shape(log.replay())],
             [f"{kind.__name__}: cannot render it", shape, shape],
             f"The consumer steered at tool_execution_end {at} of {width}; a listener raised at "
             "the steering message's message_end; after its undo, another prompt. Items: [what "
             "the first run raised, lab.shape of the record, lab.shape of what the log "
             "replays]: a message leaves its queue once it is on the record, before the "
             "listeners hear of it (Harness._run, lessons 9 and 11).")
