"""Lesson 11, lab 1: write it down. The tests of SessionLog, persist_to and Harness.subscribe: an
append-only log of JSON lines that the transcript is replayed from, written by a listener that
hears every event before the consumer does, and a session that survives a power cut.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 11 tests.py
"""
import json

import harness
import lab
from lab.kit import hours_pass, lab_test, raised, tool

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


FILES = ["a.py", "b.py", "setup.py", "README.md", "src/app.py", "tests/test_app.py",
         "docs/guide.md", "pyproject.toml"]
NAMES = ["session.jsonl", "logs/session.jsonl", "runs/today.jsonl", "s.jsonl"]


def draw_run(t, first=1, most=3):
    """A drawn run: 0 to `most` rounds of 1 to 3 `look` calls, then an answer. Its model
    replies, and the shape tokens of the messages it records (its prompt first), with call
    ids counted from c`first`."""
    replies, tokens = [], ["U"]
    for _ in range(t.random.randint(0, most)):
        width = t.random.randint(1, 3)
        ids = [f"c{n}" for n in range(first, first + width)]
        first += width
        replies.append(lab.reply(*[lab.call("look", {"path": t.random.choice(FILES)})
                                   for _ in ids]))
        tokens += [f"A[{','.join(ids)}]"] + [f"R({i})" for i in ids]
    return replies + [lab.say("All read.")], tokens + ["A"]


def events_of(tokens):
    """The event types of a run whose messages have the shape `tokens` (as draw_run gives):
    per turn turn_start, its messages' message_ends, each call's tool_execution_start, result
    and tool_execution_end, and turn_end, between agent_start and agent_end."""
    types = ["agent_start"]
    for token in tokens[1:]:
        if token.startswith("A"):
            if types[-1] != "agent_start":
                types.append("turn_end")
            types += ["turn_start"] + ["message_end"] * (2 if len(types) == 1 else 1)
        else:
            types += ["tool_execution_start", "message_end", "tool_execution_end"]
    return types + ["turn_end", "agent_end"]


@lab_test("The first append writes one JSON line holding the id e1, the type message and the "
          "message, and returns e1; the next appends return e2, e3, ... in turn.")
async def test_the_first_append_writes_one_line(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    first = harness.user_message(t.random.choice(["Fix the login page.", "Read a.py.", "Hi."]))
    t.expect(log.append_message(first), "e1", "The first entry's id is e1 (SessionLog, lesson 11).")
    t.expect([len(lines(ws)), lines(ws)[0].endswith("\n"), json.loads(lines(ws)[0])],
             [1, True, {"id": "e1", "type": "message", "message": first}],
             "One append, one whole line of JSON: {\"id\", \"type\": \"message\", \"message\"} "
             "(SessionLog.append_message, lesson 11).")
    more = t.random.randint(1, 12)
    t.expect([log.append_message(lab.say(f"Step {n}.")) for n in range(more)],
             [f"e{n}" for n in range(2, more + 2)],
             "The next ids count on, one per append (SessionLog.append_message, lesson 11).")
    t.expect([json.loads(line)["id"] for line in lines(ws)], [f"e{n}" for n in range(1, more + 2)],
             "Each entry is its own line (SessionLog, lesson 11).")


@lab_test("A log whose file does not exist yet has no entries, no rows and replays to nothing; "
          "a file that cannot be read, or a folder at the log's path, is no empty log.")
async def test_a_missing_file_is_an_empty_log(t):
    others = t.random.sample(["notes.txt", "a.py", "logs/old.jsonl", "README.md"],
                             t.random.randint(0, 3))
    ws = lab.Workspace({name: "unrelated\n" for name in others})
    name = t.random.choice([n for n in NAMES if n not in others])
    log = harness.SessionLog(ws, name)
    t.expect([log.entries(), log.rows(), log.replay(), sorted(ws.files)],
             [[], [], [], sorted(others)],
             "No file means nothing has happened yet, and reading creates no file; the items "
             "are [entries, rows, replay, the workspace's files] (SessionLog.entries, lesson 11).")
    ws.write_text(name, "")  # a writer opened the file and wrote nothing
    t.expect([log.entries(), log.append_message(harness.user_message("Hi.")),
              ws.files[name].count("\n")], [[], "e1", 1],
             "A file with nothing in it, as a writer that opened it and wrote nothing leaves "
             "it, is a log with no entries yet: entries() gives [] and the first append is e1. "
             "Items: [entries() of the 0-byte file, the id of the first append, the lines in "
             "the file then] (SessionLog.entries, lesson 11, Build item 1).")

    class Unreadable(lab.Workspace):
        """A disk on which the log is there but cannot be read just now."""

        def read_text(self, path):
            raise PermissionError(f"{path}: permission denied")
    ws = Unreadable({name: json.dumps({"id": "e1", "type": "message",
                                       "message": harness.user_message("Hi.")}) + "\n"})
    log = harness.SessionLog(ws, name)
    t.expect([await raised(log.entries), await raised(lambda: log.append_message(lab.say("Hi."))),
              ws.files[name].count("\n")],
             [f"PermissionError: {name}: permission denied"] * 2 + [1],
             "[] is for a log whose file does not exist, and only for that: a file that is "
             "there but cannot be read (a stand-in disk that refuses read_text here) is not an "
             "empty log, so its error goes on, and an append, which reads first, writes "
             "nothing; read as [], a resumed session would start from nothing and number its "
             "next entry e1. Items: [what entries() raised, what an append raised, the lines "
             "in the file] (SessionLog.entries, lesson 11).")
    ws = lab.Workspace({f"{name}/{other}": "unrelated\n" for other in ("a.jsonl", "b.jsonl")})
    folder = harness.SessionLog(ws, name)  # a folder stands where the log's file would
    t.expect([await raised(folder.entries), await raised(lambda: folder.append_message(
        lab.say("Hi."))), sorted(ws.files)],
             [f"IsADirectoryError: {name}"] * 2 + [[f"{name}/a.jsonl", f"{name}/b.jsonl"]],
             "[] is for a log whose file does not exist, and only for that: a folder that "
             "stands at the log's path is there, and it is no file of entries; reading it "
             "raises the disk's own IsADirectoryError, which goes on, and an append, which "
             "reads first, writes nothing. Read as [], the next append would fail too, and a "
             "resumed session would start from nothing. Items: [what entries() raised, what an "
             "append raised, the workspace's files] (SessionLog.entries, lesson 11, Build "
             "item 1).")


@lab_test("Two SessionLog objects over the same file, appending in turn, give the ids e1, e2, e3: "
          "the number is counted from the file, not kept in memory.")
async def test_two_logs_on_one_file_agree(t):
    ws = lab.Workspace()
    one, two = harness.SessionLog(ws, FILE), harness.SessionLog(ws, FILE)
    writers = [one, two] + [t.random.choice([one, two]) for _ in range(t.random.randint(1, 10))]
    t.random.shuffle(writers)
    roles = [t.random.choice("UA") for _ in writers]
    ids = [log.append_message(harness.user_message("a") if role == "U" else lab.say("b"))
           for log, role in zip(writers, roles)]
    t.expect(ids, [f"e{n}" for n in range(1, len(writers) + 1)],
             "An id is the entry's line number, read from the file each time, whichever log "
             "appends (SessionLog.append_message, lesson 11).")
    t.expect([lab.shape(one.replay()), [k for k, _ in two.rows()]],
             [" ".join(roles), [f"e{n}" for n in range(1, len(writers) + 1)]],
             "Both logs read the same entries (SessionLog.rows, lesson 11).")
    count = len(writers)
    for n in range(t.random.randint(1, 3)):  # another program appends, not through a SessionLog
        count += 1
        ws.append_text(FILE, json.dumps({"id": f"e{count}", "type": "message",
                                         "message": harness.user_message(f"By hand {n}.")}) + "\n")
    t.expect(t.random.choice([one, two]).append_message(lab.say("c")), f"e{count + 1}",
             "An id is e and the number of the line the entry lands on, read from the file at "
             f"each append: {count - len(writers)} lines were appended to the file by another "
             "program, not through a SessionLog, so the next append lands on line "
             f"{count + 1} (SessionLog.append_message, lesson 11).")
    got = one.entries()
    got.pop()
    got[0]["message"]["content"] = "changed by a caller"
    t.expect([len(one.entries()), one.entries()[0] == json.loads(lines(ws)[0])], [count + 1, True],
             "entries() is the file's entries, parsed again at each read: a caller that changes "
             "the list it was handed, or a message in it, changes nothing the log reads next, "
             "for SessionLog keeps no state but ws and path. Items: [entries after one was "
             "popped from what entries() returned, the first entry still equals the file's "
             "first line after a caller changed its message] (SessionLog.entries, lesson 11).")
    one.entries(), one.replay()  # read once more; another program rewrites it at the same length
    hand = t.random.randrange(count - len(writers))  # one of the lines written by hand
    ws.write_text(FILE, ws.read_text(FILE).replace(f"By hand {hand}.", f"By hand {hand + 5}."))
    t.expect([len(ws.read_text(FILE)), lab.shape(one.replay()),
              one.replay()[len(writers) + hand]["content"]],
             why=f"Another program rewrote the file, changing the words of line "
                 f"{len(writers) + hand + 1} (\"By hand {hand}.\" to \"By hand {hand + 5}.\"), so "
                 "the file kept its length. entries() is the file's entries as it now is, "
                 "parsed at each read, whatever its length: SessionLog keeps no state but ws "
                 "and path, so no parse kept from an earlier read may stand in for the file. "
                 "Items: [the file's length, lab.shape of what the log replays, the words of "
                 "that line's message as replay() gives them] (SessionLog.entries, lesson 11, "
                 "Build item 1).")
    text = lines(ws)
    spoilt = len(writers) + t.random.randrange(count - len(writers))  # a line written by hand
    text[spoilt] = "#" + text[spoilt][1:]  # its first byte overwritten: the length is the same
    ws.write_text(FILE, "".join(text))
    refused = await raised(lambda: one.append_message(lab.say("d")))
    unchanged = ws.read_text(FILE) == "".join(text)
    kept = t.random.randint(1, 2)  # a person cuts the file back to its first lines
    ws.write_text(FILE, "".join(text[:kept]))
    t.expect([refused, unchanged, two.append_message(lab.say("e")),
              one.append_message(lab.say("f"))],
             why=f"Then another program overwrote the first byte of line {spoilt + 1} with \"#\", "
                 "keeping the file's length, and an append was tried; then a person cut the file "
                 f"back to its first {kept} lines, and each log appended once. An append reads "
                 "the file as it is at each call, whatever its length: it refuses a damaged "
                 "line and writes nothing, and after the cut its id is the number of the line it "
                 "lands on, not one past an id handed out before. Items: [what the append "
                 "raised, the file is unchanged, the ids of the two appends after the cut] "
                 "(SessionLog._append, lesson 11, Build item 2).")


@lab_test("A log whose ids are not its line numbers, two session files joined into one by "
          "another program (e1, e2, e1, e2, e3), gives every message entry as a row of its own, "
          "in the order of the file, and its next append takes the id of the line it lands on.")
async def test_a_log_whose_ids_are_not_its_line_numbers(t):
    sizes = [t.random.randint(2, 4), t.random.randint(2, 5)]
    text, written = "", []
    for part, size in enumerate(sizes):  # each file's ids count from e1
        for n in range(1, size + 1):
            written.append(harness.user_message(f"Question {part}.{n}.") if n % 2 else
                           lab.say(f"Answer {part}.{n}."))
            text += json.dumps({"id": f"e{n}", "type": "message", "message": written[-1]}) + "\n"
    ws = lab.Workspace({FILE: text})
    log = harness.SessionLog(ws, FILE)
    rows = log.rows()
    added = log.append_message(lab.say("Joined."))
    t.expect([[k for k, _ in rows], lab.shape(log.replay()),
              [m for _, m in rows] == written, added, json.loads(lines(ws)[-1])["id"]],
             why=f"Two session files of {sizes[0]} and {sizes[1]} message entries, each "
                 "numbered from e1, joined into one by another program (cat), as a log can "
                 "also come to hold one id twice when two writers race (section \"Two writers, "
                 "one file\"); then one append. rows() is one pair per message entry, in the "
                 "order they were written, which is the order of the file: not sorted by the "
                 "number in the id, and not one per id. The id an append returns is e and the "
                 "number of the line the entry lands on, not the last id plus one. Items: [the "
                 "ids rows() gives, lab.shape of what the log replays after the append, rows() "
                 "held the messages in the file's order, the id the append returned, the id on "
                 "the file's last line] (SessionLog.rows and append_message, lesson 11, Build "
                 "items 2 and 3).")


@lab_test("Appending never changes a byte already written: after each append, the old text is "
          "the start of the new, even when another window appends a line to the log while an "
          "append is on its way.")
async def test_earlier_bytes_never_change(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    replies, tokens = draw_run(t)
    h = harness.Harness(lab.ScriptedModel(replies), SYSTEM, [looker()])
    h.subscribe(harness.persist_to(log))
    texts = []
    await lab.drive(h.prompt("Read the files."),
                    on_event=lambda e: texts.append(ws.read_text(FILE) if ws.exists(FILE) else ""))
    grew = [new.startswith(old) for old, new in zip(texts, texts[1:])]
    t.expect([all(grew), len(lines(ws)), sorted({len(text.splitlines()) for text in texts})],
             [True, len(tokens), list(range(len(tokens) + 1))],
             "The log only grows, one line per message; the items are [each text starts with "
             "the one before, lines, the line counts seen] (SessionLog, lesson 11).")

    class Shared(lab.Workspace):
        """A log another window writes to as well: its line lands between the reading an
        append of ours does and that append's own write."""

        def append_text(self, path, text):
            self.appends = getattr(self, "appends", 0) + 1
            if self.appends == race:
                lines_now = self.read_text(path).count("\n") if self.exists(path) else 0
                super().append_text(path, json.dumps({
                    "id": f"e{lines_now + 1}", "type": "message",
                    "message": harness.user_message("From the other window.")}) + "\n")
            super().append_text(path, text)
    count = t.random.randint(3, 6)
    race = t.random.randint(2, count)  # the append the other window's line lands in
    ws = Shared()
    log = harness.SessionLog(ws, FILE)
    texts, errors = [], []
    for n in range(count):
        errors.append(await raised(lambda n=n: log.append_message(lab.say(f"Note {n}."))))
        texts.append(ws.read_text(FILE))
    t.expect([[new.startswith(old) for old, new in zip(texts, texts[1:])],
              len(lines(ws)), "From the other window." in texts[-1]],
             [[True] * (count - 1), count + 1, True],
             f"Another window appended a line to the same log while append {race} of {count} "
             "was on its way, between its reading and its writing. Whatever an append then "
             "makes of it, it changes no byte already written, the other window's line "
             "included: it adds its own line after it, and takes nothing back (write_text "
             "over the file is a rewrite). Items: [after each append, the text before it is "
             "the start of the text after, the lines in the file, the other window's line is "
             "there] (SessionLog._append, lesson 11, Build item 2).")


@lab_test("A power cut that tears a line leaves a log whose reading raises ValueError naming the "
          "file and the line, such as \"session.jsonl, line 3: not a complete log entry\"; an "
          "append then raises too, and writes nothing. So does a last line that is whole JSON "
          "but has no newline.")
async def test_a_torn_line_is_never_skipped(t):
    ws = lab.Workspace()
    name, whole = t.random.choice(NAMES), t.random.randint(2, 6)
    log = harness.SessionLog(ws, name)
    for n in range(whole):
        log.append_message(harness.user_message(f"Step {n}: read the next file, please.")
                           if n % 2 == 0 else lab.say(f"Read file {n} of the project."))
    before = ws.read_text(name)
    ws.cut_power_after(0, torn=True)
    # the torn write is shorter than the lines before it: half of a rewrite would tear them
    t.expect(await raised(lambda: log.append_message(harness.user_message("b?"))),
             f"PowerCut: the power went off while writing {name}",
             "The workspace cut the power in the middle of the next write (lesson 11).")
    t.expect(ws.read_text(name)[:len(before)], before,
             "The log only grows: the write is an append, so the lines written before it are "
             "still whole after the cut; a write that rewrites the file tears them too "
             "(SessionLog.append_message, lesson 11).")
    t.expect(await raised(log.entries),
             f"ValueError: {name}, line {whole + 1}: not a complete log entry",
             "A line that is not JSON is named, never skipped (SessionLog.entries, lesson 11).")
    torn = ws.read_text(name)
    t.expect(await raised(lambda: log.append_message(lab.say("more"))),
             f"ValueError: {name}, line {whole + 1}: not a complete log entry",
             "Appending reads the log first, so it refuses to write after a torn line "
             "(SessionLog.append_message, lesson 11).")
    t.expect([ws.read_text(name) == torn, len(torn.splitlines())], [True, whole + 1],
             "Nothing was written on the end of the half-line (lesson 11).")
    found, wanted = [], []
    for lead, kept in ((before, whole), ("", 0)):  # after whole lines, and as the file's only one
        last = json.dumps({"id": f"e{kept + 1}", "type": "message", "message": lab.say("Done.")})
        ws = lab.Workspace({name: lead + last})  # the write reached its last byte, not its newline
        log = harness.SessionLog(ws, name)
        found.append([kept + 1, await raised(log.entries),
                      await raised(lambda: log.append_message(lab.say("more"))),
                      ws.read_text(name) == lead + last])
        wanted.append([kept + 1] + [f"ValueError: {name}, line {kept + 1}: not a complete log "
                                    "entry"] * 2 + [True])
    t.expect(found, wanted,
             "A last line with no newline is a write that did not finish, even when it parses, "
             "and even when it is the file's only line: reading raises the same ValueError for "
             "it, and an append writes nothing, since its line would be glued to that one. Each "
             "item: [the lines in the file, what entries() raised, what an append raised, the "
             "file is unchanged] (SessionLog.entries, lesson 11, Build item 1).")
    ws = lab.Workspace()
    log = harness.SessionLog(ws, name)
    log.append_message(harness.user_message("Step 0: read the next file, please."))
    first = ws.read_text(name)
    ws.cut_power_after(0, torn=True)  # the second append, shorter than the first, is torn
    t.expect([await raised(lambda: log.append_message(harness.user_message("b?"))),
              ws.read_text(name)[:len(first)] == first, await raised(log.entries)],
             why="The power went off in the middle of the log's second append, whose line is "
                 "shorter than the first. Each append adds one line at the end and changes no "
                 "byte already written, however short the log: a second append that rewrites "
                 "the file tears line 1 too. Items: [what the append raised, line 1 is still "
                 "whole, what reading raised] (SessionLog.append_message, lesson 11, Build "
                 "item 2).")


SEPARATORS = {"U+2028": "\u2028", "U+2029": "\u2029", "U+0085": "\u0085"}


@lab_test("A message whose text holds a character that str.splitlines() takes for a line break "
          "(U+2028, U+2029 and U+0085, every one of them) is still exactly one line of the log, "
          "and is read back whole.")
async def test_a_line_break_inside_a_message_stays_in_its_line(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    written, named = [], []
    for name, mark in t.random.sample(sorted(SEPARATORS.items()), len(SEPARATORS)):
        words = [t.random.choice(FILES), "then", t.random.choice(FILES)]
        words.insert(t.random.randint(0, len(words)), mark)
        text = " ".join(words)
        written.append(harness.user_message(text) if len(named) % 2 == 0 else lab.say(text))
        named.append(name)
        written.append(lab.say(f"Read {t.random.choice(FILES)}."))
    ids = [log.append_message(message) for message in written]
    read_back = []
    error = await raised(lambda: read_back.append(log.replay()))
    t.expect([ids, ws.read_text(FILE).count("\n"), error, read_back == [written]],
             [[f"e{n}" for n in range(1, len(written) + 1)], len(written), None, True],
             f"Each append adds exactly one line, whatever its message holds: these messages "
             f"hold {', '.join(named)}, which str.splitlines() reads as line breaks. Leave "
             f"json.dumps to escape them (its default, ensure_ascii), or split the file on \"\\n\" "
             f"alone. Items: [the ids returned, the newlines in the file, what reading raised, "
             f"replay() gives back the messages] (SessionLog.append_message and entries, "
             f"lesson 11).")


FOLDERS = ["logs/session.jsonl", "runs/today.jsonl", "sessions/2026/a.jsonl", "var/log/s.jsonl"]
DAMAGE = {"an empty line": "", "a line of spaces": "   ", "half a line": '{"id": "e2", "type": "mes',
          "a note a person wrote": "// a note", "a line of NULs": "\0\0\0",
          # a tab typed into a message by hand: JSON has strings hold it only as \t
          "a raw tab in a message's text": '{"id": "e2", "type": "message", "message": '
                                           '{"role": "user", "content": "a\tb"}}'}


@lab_test("A line that is not JSON is never skipped, wherever it stands and whatever it holds: an "
          "empty line, a line of spaces, a note a person wrote, a line of NULs, a line whose "
          "text holds a raw tab or half a line "
          "before the last line, an empty line at the "
          "end of the file, a blank line that is the file's only one, blanks or NULs with no "
          "newline after the last one, blanks with no newline "
          "that are the file's only text, in a log kept in a "
          "folder, makes reading (entries(), rows(), replay()) raise the ValueError naming the "
          "log's path and that line, and an append write nothing; a whole entry of hundreds of "
          "thousands of characters is read as any other.")
async def test_a_damaged_line_anywhere_is_named(t):
    found, wanted = [], []
    padding = ("blanks after the last newline", t.random.choice(["   ", "\t", "\0\0\0\0"]))
    for kind, damage in [*DAMAGE.items(), ("an empty line at the end", ""),
                         ("a blank line, the file's only one", t.random.choice(["", "   "])),
                         padding, ("blanks and no newline, the file's only one", padding[1]),
                         # NULs a power cut left where a write was to go: padding too
                         ("blanks of NULs after the last newline", "\0" * t.random.randint(1, 8))]:
        path = t.random.choice(FOLDERS)
        if kind == "half a line":  # a path as a person may write it: the sentence names it so
            path = "./" + path
        entries = [{"id": f"e{n}", "type": "message", "message": harness.user_message(f"Step {n}.")}
                   for n in range(1, 1 if kind.endswith("only one") else t.random.randint(3, 7))]
        # the damaged line comes before entry `at`, or after the last one
        at = len(entries) if kind.endswith(("at the end", "only one", "newline")) else \
            t.random.randrange(len(entries))
        text = [json.dumps(entry) + "\n" for entry in entries]
        # blanks a power cut left after the last newline: a last line with no newline
        text.insert(at, damage + ("" if kind.startswith("blanks") else "\n"))
        ws = lab.Workspace({path: "".join(text)})
        log = harness.SessionLog(ws, path)
        error = f"ValueError: {path}, line {at + 1}: not a complete log entry"
        found.append([kind, await raised(log.entries), await raised(log.rows),
                      await raised(log.replay),
                      await raised(lambda: log.append_message(lab.say("More."))),
                      ws.read_text(path) == "".join(text)])
        wanted.append([kind, error, error, error, error, True])
    t.expect(found, wanted,
             "A line that is not JSON is never skipped, not even an empty one, and not only "
             "when it is the last: wherever it stands, the file's very end included. Skipped, "
             "it would make the ids stop being line numbers, for the next append lands after "
             "it; and a file whose only line is blank is no empty log ([] is for a log whose "
             "file does not exist), for the next append would land on line 2 as e1. Every "
             "reader of the log refuses it, rows() too, not entries() alone. A note a person "
             "wrote (\"// a note\") or a line of NULs is no entry either, skipped nowhere, "
             "and a line whose text holds a raw tab, typed in by hand, is not JSON (JSON "
             "strings hold control characters only escaped, as json.dumps writes them): "
             "json.loads refuses it, as it does unless told strict=False. "
             "In one log "
             "the file's last line is blanks with no newline after them ("
             f"{padding[1]!r}), and in another NULs, the torn end of a write that never "
             "finished: not JSON, and "
             "not nothing, for the next append would be glued onto it; and in another those "
             "blanks with no newline are the file's only text: a file with something in it, "
             "so not the empty file that is a log with no entries yet. The "
             "sentence names the log's path as given (self.path, with its folders, and \"./\" "
             "before the one of half a line, which names the same file as it would without) "
             "and the line's number. Each item: [the damage, what entries() raised, what rows() "
             "raised, what replay() raised, what an append raised, the file is unchanged] "
             "(SessionLog.entries and rows, lesson 11, Build items 1 and 3).")
    size = t.random.randint(600, 900)  # drawn: no cut at a count the tests are known to try
    whole = [json.dumps({"id": f"e{n}", "type": "message",
                         "message": harness.user_message(f"Step {n}.")}) + "\n"
             for n in range(1, size + 1)]
    # the last entry is whole JSON, but the power went off before its newline
    last = json.dumps({"id": f"e{size + 1}", "type": "message", "message": lab.say("Done.")})
    log = harness.SessionLog(lab.Workspace({FILE: "".join(whole) + last}), FILE)
    far = t.random.randint(1, 160)  # a line far from the end: a person's slip, not a crash
    mid = t.random.randint(size // 3 + 1, 2 * size // 3)  # and one in the middle third
    hand, middle = list(whole), list(whole)
    # line `far` held a long paste, as a tool's output of tens of thousands of characters is: cut short
    pasted = json.dumps({"id": f"e{far}", "type": "message", "message": harness.user_message(
        "Read this: " + "0123456789abcdef" * t.random.randint(2048, 4096))})
    hand[far - 1] = pasted[:t.random.randint(len(pasted) // 2, len(pasted) - 1)] + "\n"
    middle[mid - 1] = t.random.choice(["", "   ", "\t"]) + "\n"  # blank, in a long log
    # and line `far` of it a whole entry holding a paste of 256,000 to 1,000,000 characters, a
    # big file a tool read: an entry however long, read as any other
    big = harness.user_message("Read this: " +
                               "0123456789abcdef" * t.random.randint(16_000, 62_500))
    middle[far - 1] = json.dumps({"id": f"e{far}", "type": "message", "message": big}) + "\n"
    ws = lab.Workspace({FILE: "".join(hand)})
    edited = harness.SessionLog(ws, FILE)
    t.expect([await raised(log.entries), await raised(edited.entries),
              await raised(lambda: edited.append_message(lab.say("More."))),
              ws.read_text(FILE) == "".join(hand),
              await raised(harness.SessionLog(lab.Workspace({FILE: "".join(middle)}),
                                              FILE).entries)],
             [f"ValueError: {FILE}, line {size + 1}: not a complete log entry",
              f"ValueError: {FILE}, line {far}: not a complete log entry",
              f"ValueError: {FILE}, line {far}: not a complete log entry", True,
              f"ValueError: {FILE}, line {mid}: not a complete log entry"],
             f"Three long logs: {size} whole entries, then entry {size + 1}, whole JSON with "
             "no newline, as a power cut just before the newline of that append leaves it; "
             f"{size} entries whose line {far}, far from the end, a message holding a "
             "paste of 32,000 to 65,000 characters, was cut short by hand, halfway or "
             "further, a damaged line however long; and "
             f"{size} entries whose line {mid}, in the middle, is blank, a blank line in a "
             f"long log as much as in a short one, and whose line {far} is a whole entry "
             "holding a paste of 256,000 to 1,000,000 characters, read as any entry is, "
             "however long. The items are "
             "what entries() raised on the first two, what an append on the second raised, "
             "that its file is unchanged, and what entries() raised on the third: every line "
             "is read, however long the log and however far from its end, so the damaged "
             "one is named wherever it stands, and a last line with no newline is named "
             "wherever it stands too; an append reads the whole log first, so however far "
             "from the end the damage is, it writes nothing (SessionLog.entries and "
             "append_message, lesson 11, Build items 1 and 2).")


@lab_test("Entries of another kind, written through _append between message entries, take a line "
          "and an id each, e1, e2, ... by line, and rows() and replay() leave them out: one row "
          "per message entry.")
async def test_entries_of_another_kind_are_numbered_but_not_replayed(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    # never "compaction": lesson 12 gives that kind a meaning of its own, and later
    # labs' rows() read it
    other = t.random.choice(["label", "model_change", "custom", "bookmark"])
    # a type that "message" is not, though it reads like it once tidied
    near = t.random.choice(["Message", "MESSAGE", " message", "message "])
    kinds = ["note", other, "message", "message_edit", near] + [
        t.random.choice(["note", other, "message"]) for _ in range(t.random.randint(2, 8))]
    ids, messages, message_ids = [], [], []
    for n, kind in enumerate(kinds):
        if kind in ("message_edit", near):  # a kind whose name holds "message", carrying a message
            ids.append(log._append({"type": kind, "message": lab.say(f"Did {n}, edited.")}))
        elif kind != "message":  # as a later lesson writes a kind of its own, a field named
            # "message" included: the type tells a message entry, not its fields
            ids.append(log._append({"type": kind, "message": f"checkpoint {n}"}))
        else:
            messages.append(harness.user_message(f"Step {n}.") if n % 2 else lab.say(f"Did {n}."))
            ids.append(log.append_message(messages[-1]))
            message_ids.append(ids[-1])
    t.expect([ids, [k for k, _ in log.rows()], log.replay() == messages],
             [[f"e{n}" for n in range(1, len(kinds) + 1)], message_ids, True],
             "Every kind of entry is written by _append, and its id is e and the number of the "
             "line it lands on, whatever kind came before; rows() holds one pair per message "
             "entry, so the other kinds are left out, whatever they are called (a note and a "
             f"{other!r} here, as lesson 12 adds a kind of its own). The kinds, in order: " +
             ", ".join(map(repr, kinds)) + ". Each entry of another kind carries a field named "
             f"\"message\" (a checkpoint's words; a whole message in the message_edit and the "
             f"{near!r}): an entry is a message entry by its type, exactly \"message\", not by "
             "a type that holds the word, by its fields or by not being a note, nor by a type "
             "that reads as it once tidied or lower-cased. Items: [the ids "
             "returned, the ids rows() gives, replay() equals the messages] "
             "(SessionLog._append and rows, lesson 11).")

    class Watched(harness.SessionLog):
        """A log that notes each entry handed to _append, as a later lesson's own _append would
        see it (lesson 12 adds a second kind through it)."""

        def _append(self, entry):
            through.append(entry.get("type"))
            return super()._append(entry)
    through = []
    watched = Watched(lab.Workspace(), FILE)
    written = [watched.append_message(lab.say(f"Did {n}.")) for n in range(t.random.randint(1, 3))]
    t.expect([through, len(written)], [["message"] * len(written), len(written)],
             "Every kind of entry is written by _append, messages too: append_message hands "
             "_append its entry, {\"type\": \"message\", \"message\": ...}, and writes no line "
             "itself, so a change to _append (a lock, a parent id) reaches every kind. Items: "
             "[the types a subclass's _append was handed, the appends made] "
             "(SessionLog.append_message, lesson 11).")

    class Trimmed(harness.SessionLog):
        """A log whose rows() leaves out its first rows, as a later lesson's rows() rewrites
        what comes before a cut (lesson 12's compaction): replay() must follow it."""

        def rows(self):
            return super().rows()[cut:]
    trimmed = Trimmed(ws, FILE)
    cut = t.random.randint(1, len(messages))
    t.expect([len(trimmed.replay()), trimmed.replay() == [m for _, m in trimmed.rows()]],
             [len(messages) - cut, True],
             f"replay() is the messages of rows(): a subclass's rows() left out the first {cut} "
             f"of the {len(messages)} message rows, as lesson 12's rows() rewrites what comes "
             "before a cut, and replay() must give the messages of those rows, in order, "
             "not read the entries again. Items: [the messages replay() gave, they are those "
             "of rows()] (SessionLog.replay, lesson 11, Build item 3).")


@lab_test("After runs with persist_to subscribed, one of them ended by a failed reply, "
          "log.replay() equals the harness's messages.")
async def test_replay_equals_the_record(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    replies, tokens = [], []
    for _ in range(t.random.randint(1, 3)):
        more, shape = draw_run(t, first=1 + sum(token.startswith("R(") for token in tokens))
        replies, tokens = replies + more, tokens + shape
    starts = [i for i, token in enumerate(tokens) if token == "U"] + [len(tokens)]
    at = t.random.choice(starts)  # a run whose one reply fails goes in here
    replies.insert(sum(token.startswith("A") for token in tokens[:at]),
                   lab.fail(t.random.choice(["overloaded", "rate limited", "server error"])))
    tokens[at:at] = ["U", "A(error)"]
    h = harness.Harness(lab.ScriptedModel(replies), SYSTEM, [looker()])
    h.subscribe(harness.persist_to(log))
    for n in range(tokens.count("U")):
        await lab.drive(h.prompt(f"Prompt {n}."))
    t.expect([lab.shape(log.replay()), log.replay() == list(h.messages)],
             [" ".join(tokens), True],
             "The log holds every message of every run, in order, a failed reply (A(error)) as "
             "much as any: persist_to saves the message of every message_end. Items: [the "
             "shape of what the log replays, it equals the record] (persist_to, lesson 11).")
    t.expect([k for k, _ in log.rows()], [f"e{n}" for n in range(1, len(tokens) + 1)],
             "rows() pairs each message with its entry id (SessionLog.rows, lesson 11).")
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    again = t.random.choice(["Fix the login page.", "Read a.py.", "Go on."])
    log.append_message(harness.user_message(again))  # a session that died waiting for the model
    h = harness.Harness(lab.ScriptedModel([lab.reply(), lab.say("Done.")]), SYSTEM, [looker()],
                        messages=log.replay())
    h.subscribe(harness.persist_to(log))
    await lab.drive(h.prompt(again))  # the same words sent again, and an empty answer
    await lab.drive(h.prompt("Anything else?"))
    t.expect([lab.shape(log.replay()), log.replay() == list(h.messages)], ["U U A U A", True],
             "persist_to saves the message of every message_end, whatever it holds: a prompt "
             f"sent again ({again!r}, equal to the log's last message, after a session died "
             "waiting for the model) and an answer with no content (lab.reply(), labelled "
             "\"stop\") are messages of the record like any other. Items: [the shape of what "
             "the log replays, it equals the record] (persist_to, lesson 11).")
    words = t.random.choice(["Read a.py.", "Look again.", "Go on."])
    quiet = tool("quiet", lambda arguments: "", PATH)  # a command that printed nothing
    h = harness.Harness(lab.ScriptedModel([lab.reply(lab.call("quiet", {"path": "a.py"})),
                                           lab.say("Done.")]), SYSTEM, [quiet])
    h.steer(words)  # the same words again, steering: two equal messages in a row
    events = await lab.drive(h.prompt(words))
    log = harness.SessionLog(lab.Workspace(), FILE)
    save = harness.persist_to(log)
    for event in events:
        if event["type"] == "message_end":  # events a later lesson may add, each with a message
            save({"type": "message_start", "message": event["message"]})
            save({"type": "message_update", "message": event["message"]})
            save({"type": t.random.choice(["tool_message_end", "queued_message_end"]),
                  "message": event["message"]})  # a name that ends like message_end, not it
        save(event)
    last = h.messages[-1]
    save({"type": "message_end", "message": last})  # that very dict, ended a second time
    t.expect([lab.shape(log.replay()), log.replay() == [*h.messages, last]],
             why=f"persist_to's listener was handed each event of a run whose prompt {words!r} "
                 "was steered in again (two equal messages in a row) and whose one call, to a "
                 "tool that printed nothing, has a result whose content is \"\"; before each "
                 "message_end it was also handed a message_start and a message_update carrying "
                 "the same message, as a later lesson's events may, and an event whose type "
                 "ends in message_end without being it; and, after the run, one more "
                 "message_end carrying the run's last message, the very object it had saved. It "
                 "saves the message of every message_end, whatever it holds and whatever it "
                 "saved before, the same object included, and does nothing with any other "
                 "event, whatever its type's name holds. Items: [the shape of what the log "
                 "replays, it equals the record and that last message once more] (persist_to, "
                 "lesson 11, Build item 4).")


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
    long = [harness.user_message(f"Step {n}.") for n in range(1, 321)]
    text = "".join(json.dumps({"id": f"e{n}", "type": "message", "message": message}) + "\n"
                   for n, message in enumerate(long, 1))
    log = harness.SessionLog(lab.Workspace({FILE: text}), FILE)
    t.expect([len(log.rows()), log.rows()[-1][0], log.replay() == long], [320, "e320", True],
             "A long log of 320 message entries, written as append_message writes them. The "
             "items are [how many rows, the last row's id, replay() equals the messages]: "
             "rows() holds every message entry, however long the log (SessionLog.rows, "
             "lesson 11).")
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
    replies, tokens = draw_run(t)
    h = harness.Harness(lab.ScriptedModel(replies), SYSTEM, [looker()])
    h.subscribe(harness.persist_to(log))
    seen = []

    def consumer(event):
        if event["type"] == "message_end":
            saved = log.replay()
            seen.append([len(saved), bool(saved) and saved[-1] == event["message"]])
    await lab.drive(h.prompt("Read the files."), on_event=consumer)
    t.expect(seen, [[n, True] for n in range(1, len(tokens) + 1)],
             "Each row: [messages in the log, the last is the one announced]. Listeners hear "
             "each event before the consumer (Harness.subscribe, lesson 11).")


@lab_test("After unsubscribe() the listener hears nothing more, and calling unsubscribe() a "
          "second time raises nothing.")
async def test_unsubscribe(t):
    heard, replies, runs = [], [], []
    for n in range(t.random.randint(2, 4)):
        more, tokens = draw_run(t, most=1)
        replies, runs = replies + more, runs + [tokens]
    stop = t.random.randint(1, len(runs) - 1)  # runs heard before the undo
    h = harness.Harness(lab.ScriptedModel(replies), SYSTEM, [looker()])
    unsubscribe = h.subscribe(lambda event: heard.append(event["type"]))
    for n in range(len(runs)):
        if n == stop:
            unsubscribe()
            again = t.random.randint(1, 3)
            t.expect([await raised(unsubscribe) for _ in range(again)], [None] * again,
                     "Undoing again is harmless; each item is what one more undo raised "
                     "(Harness.subscribe, lesson 11).")
        await lab.drive(h.prompt(f"Prompt {n}."))
    t.expect(heard, sum([events_of(tokens) for tokens in runs[:stop]], []),
             f"The listener heard the first {stop} runs and nothing after (Harness.subscribe, "
             "lesson 11).")
    t.expect(len(h.messages), sum(len(tokens) for tokens in runs), "Every run happened "
                                                                   "(lesson 11).")
    replies, tokens = draw_run(t, most=2)
    types = events_of(tokens)
    at = t.random.randrange(len(types) - 1)  # the consumer undoes at this event, mid-run
    h = harness.Harness(lab.ScriptedModel(replies), SYSTEM, [looker()])
    heard, seen = [], []
    undo = h.subscribe(lambda event: heard.append(event["type"]))

    def consume(event):
        seen.append(event["type"])
        if len(seen) == at + 1:
            undo()
    await lab.drive(h.prompt("Read the files."), on_event=consume)
    t.expect([heard, len(seen)], [types[:at + 1], len(types)],
             f"The consumer called the undo while it handled event {at + 1} of the run "
             f"({types[at]}), and the run went on: the listener hears nothing after its undo, "
             "from the next event of that very run, not from the run's end. Items: [the events "
             "the listener heard, the events the consumer got] (Harness.subscribe, lesson 11, "
             "Build item 5).")


def scripts(kinds):
    """One model script per run: "plain" is a run of six events, "call" one of twelve."""
    return [[lab.say("Hello.")] if kind == "plain" else
            [lab.reply(lab.call("look", {"path": "a.py"})), lab.say("Read it.")] for kind in kinds]


def listener_plan(t, events):
    """Roles for 3 to 6 listeners, in the order they subscribe, drawn under the seed: each
    listens, or at a drawn event unsubscribes itself ("self") or another that only listens
    ("other"), subscribed before it or after it. One before the last unsubscribes itself, and
    the last only listens, so some listener always comes after one that leaves; and one takes
    off a listener subscribed after it, which has not yet heard that event."""
    count = t.random.randint(3, 6)
    roles = [None] * count
    leaver = t.random.randrange(count - 1)
    roles[leaver], roles[-1] = "self", "listen"
    taker, later = sorted(t.random.sample([i for i in range(count) if i != leaver], 2))
    roles[taker], roles[later] = "other", "listen"
    roles = [role or t.random.choice(["listen", "self", "other"]) for role in roles]
    quiet = [i for i, role in enumerate(roles) if role == "listen"]
    plan = []
    for i, role in enumerate(roles):
        target = later if i == taker else t.random.choice(quiet) if role == "other" else i
        plan.append((role, target, t.random.randrange(events) if role != "listen" else None))
    return plan


def heard_by_plan(plan, events):
    """What each listener of `plan` hears, by the rule: all of the event it leaves at (or is
    taken off at, by another before or after it), and nothing after."""
    leaves = {}
    for role, target, at in plan:
        if role != "listen":
            leaves[target] = min(at, leaves.get(target, events))
    return [list(range(min(leaves.get(i, events) + 1, events))) for i in range(len(plan))]


@lab_test("A listener hears every event of two runs, in order, and each one before the consumer "
          "gets it, however long a listener takes by the clock; with 3 to 6 listeners, drawn under the seed, some of which unsubscribe "
          "themselves or one another (one subscribed before or after them) while they hear an "
          "event, every listener subscribed when that event began still hears it.")
async def test_a_listener_hears_every_event_first(t):
    order = []
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})), lab.say("Read it."),
                               lab.say("Bye.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    h.subscribe(lambda event: order.append("listener " + event["type"]))
    bound = []

    class Keeper:
        """A listener that is an object's method, the object held by nothing but the harness."""

        def hear(self, event):
            bound.append(event["type"])
    h.subscribe(Keeper().hear)
    events, late, joins = [], [], t.random.randint(1, 10)  # a listener that joins mid-run

    def consumer(event):
        order.append("consumer " + event["type"])
        if len(order) == 2 * joins:
            h.subscribe(lambda heard: late.append(heard["type"]))
    with hours_pass(processor=True):  # each reading of a clock a minute on: slow listeners
        for text in ("Read a.py.", "Thanks."):
            events += await lab.drive(h.prompt(text), on_event=consumer)
    t.expect(len(events), 18, "Twelve events for the run with a call, six for the other "
                              "(run_agent, lesson 7).")
    t.expect(late, [e["type"] for e in events[joins:]],
             f"A listener subscribed in the middle of a run (by the consumer, at event {joins} "
             "of the first run) hears every event from the next one on, that run's rest and "
             "every later run: subscribe, not the start of a run, is when it begins to hear. "
             "Items: the types of the events it heard (Harness.subscribe and _notify, "
             "lesson 11).")
    t.expect(order, [who + e["type"] for e in events for who in ("listener ", "consumer ")],
             "Every event of every run goes to the listener first, then the consumer, however "
             "long a listener takes: in these two runs each reading of a clock is a minute "
             "after the one before (lab.kit's hours_pass), as it is for a listener that writes "
             "to a slow disk, and a listener is taken off by its undo alone, never by a clock "
             "(Harness._run, subscribe and _notify, lesson 11, Build item 5).")
    t.expect(bound, [e["type"] for e in events],
             "A listener that is a bound method (Keeper().hear), of an object nothing but the "
             "harness holds, hears every event of every run too, until its undo is called: "
             "subscribe keeps the listener it is handed. Items: the types of the events it "
             "heard (Harness.subscribe, lesson 11, Build item 5).")
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
             "leaves during it: a listener that unsubscribes itself, or another subscribed "
             "before or after it, must not make any of them miss the event; the one taken off "
             "hears it too, and nothing after. Each item is one harness; in it, "
             "one list per listener, in the order they subscribed, of the events it heard, "
             "numbered from 0 over two runs (Harness._notify, lesson 11).")
    h = harness.Harness(lab.ScriptedModel(sum(scripts(["call", "plain"]), [])), SYSTEM, [looker()])
    heard, joined, at = [], [], t.random.randint(1, 17)

    def host(event):  # a listener that, at one event, subscribes another
        heard.append(event["type"])
        if len(heard) == at:
            h.subscribe(lambda later: joined.append(later["type"]))
    h.subscribe(host)
    for text in ("First.", "Second."):
        await lab.drive(h.prompt(text))
    t.expect(joined, heard[at:],
             f"A listener subscribed while an event is being heard (by another listener, at "
             f"event {at} of 18, counted from 1 over two runs) hears the events after it, not "
             "that one (Build item 5). Items: the types of the events it heard "
             "(Harness._notify, lesson 11).")


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
    h = harness.Harness(lab.ScriptedModel([lab.say("One.")]), SYSTEM, [])
    heard, last = [], []
    for _ in range(1500):
        h.subscribe(heard.append)
    h.subscribe(lambda event: last.append(len(heard)))  # how many the others had heard by then
    error = await raised(lambda: lab.drive(h.prompt("First.")))
    t.expect([error, len(heard), last], [None, 6 * 1500, [1500 * n for n in range(1, 7)]],
             "One listener subscribed 1500 times, more than Python's 1000 frames of recursion, "
             "then one more listener, then a run of one plain reply, which has six events. "
             "Items: [what the run raised, how many events the 1500 subscriptions heard, how "
             "many they had heard when the last listener heard each event]: each subscription "
             "hears every event, however many subscriptions there are, and in the order they "
             "subscribed, however many there are: the last one subscribed hears each event "
             "after all 1500 (Harness._notify, lesson 11, Build item 5).")
    count = t.random.randint(2, 4)
    heard = [[] for _ in range(count + 1)]
    h = harness.Harness(lab.ScriptedModel([lab.say("One."), lab.say("Two."),
                                           lab.say("Three.")]), SYSTEM, [])

    def hearer(i):
        return lambda event: heard[i].append(event["type"])
    undos = [h.subscribe(hearer(i)) for i in range(count)]
    await lab.drive(h.prompt("First."))
    gone = t.random.randrange(count - 1)  # not the last
    undos[gone]()
    undos.append(h.subscribe(hearer(count)))  # a listener subscribed after an undo
    undos[count - 1]()
    undos[gone]()
    await lab.drive(h.prompt("Second."))
    t.expect([len(events) for events in heard],
             why=f"{count} listeners subscribed, then a run; then the undo of listener "
                 f"{gone + 1} was called, listener {count + 1} subscribed after it, the undo of "
                 f"listener {count} called, and listener {gone + 1}'s undo called again; then a "
                 "second run. Each undo takes off its own subscription, once: called again, or "
                 "after later subscriptions, it takes off no other, so the listener subscribed "
                 "after an undo hears the second run whole. Items: how many events each "
                 "listener heard over both runs, in the order they subscribed "
                 "(Harness.subscribe, lesson 11, Build item 5).")
    before = [len(events) for events in heard]
    undos[count]()  # the undo of the listener subscribed after an undo
    await lab.drive(h.prompt("Third."))
    t.expect([len(events) - n for events, n in zip(heard, before)],
             [0 if n in (gone, count - 1, count) else 6 for n in range(count + 1)],
             f"Then the undo of listener {count + 1}, the one subscribed after an undo, was "
             "called, and a third run of six events followed. Its undo takes off its own "
             "subscription, whatever undos were called before it: each undo knows its own "
             "subscription, not the place it held. Items: how many events each listener heard "
             "in the third run, in the order they subscribed (Harness.subscribe, lesson 11, "
             "Build item 5).")


@lab_test("Listeners hear each event in the order they subscribed, and an undo keeps that order: "
          "with L, M and L again subscribed, undoing the second L leaves L then M, and undoing "
          "the first leaves M then L; so too for 3 to 6 subscriptions of three listeners drawn "
          "under the seed, some of them undone.")
async def test_listeners_hear_in_the_order_they_subscribed(t):
    found, wanted = [], []
    plans = [(["L", "M", "L"], [2]), (["L", "M", "L"], [0])]
    for _ in range(2):
        names = [t.random.choice("LMN") for _ in range(t.random.randint(3, 6))]
        plans.append((names, sorted(t.random.sample(range(len(names)),
                                                    t.random.randint(1, len(names) - 1)))))
    for names, undone in plans:
        heard = []  # the names of the listeners that heard, in the order they heard

        def listener(name):
            return lambda event: heard.append(name)
        listeners = {name: listener(name) for name in "LMN"}
        h = harness.Harness(lab.ScriptedModel([lab.say("One."), lab.say("Two.")]), SYSTEM, [])
        undos = [h.subscribe(listeners[name]) for name in names]
        await lab.drive(h.prompt("First."))
        runs = [(heard[:], len(names))]
        heard.clear()
        for n in undone:
            undos[n]()
        await lab.drive(h.prompt("Second."))
        runs.append((heard[:], len(names) - len(undone)))
        # Each event is heard once by each subscription, so a run's names fall into rounds of as
        # many as are subscribed, one round an event: the orders heard in each run, each once
        # (one, when all is right). Told by count, not by the event object, whose identity the
        # page leaves to the harness.
        orders = [[], []]
        for at, (names_heard, size) in enumerate(runs):
            for start in range(0, len(names_heard), size):
                if names_heard[start:start + size] not in orders[at]:
                    orders[at].append(names_heard[start:start + size])
        found.append([names, undone, *orders])
        wanted.append([names, undone, [names], [[name for n, name in enumerate(names)
                                                 if n not in undone]]])
    t.expect(found, wanted,
             "Listeners hear an event in the order they subscribed, and each undo takes off "
             "its own subscription, not the first equal one: an undo that removes the listener "
             "by equality (list.remove) takes off an earlier subscription of the same listener "
             "and changes the order. The order holds for every event, turn_end and agent_end "
             "as much as agent_start. Each item is [the listeners subscribed, in order, the "
             "positions undone (from 0), the orders they heard the events of run 1 in (one "
             "order, when all is right), and of run 2 after the undos] (Harness.subscribe and "
             "_notify, lesson 11).")


@lab_test("A listener that raises ends the run with its own exception, and is_running turns "
          "False; it stays subscribed however often it raises, and hears every event of every "
          "run after.")
async def test_a_raising_listener_ends_the_run(t):
    width = t.random.randint(1, 4)
    choked = t.random.randint(1, width)  # the call whose tool_execution_end the saver chokes on
    # not a disk's error (test_a_save_that_fails_is_heard has those): a listener's own bug
    kind, text = t.random.choice([(RuntimeError, "saver broke"), (TypeError, "bad event"),
                                  (AttributeError, "no such field")])
    paths = t.random.sample(FILES, width)
    model = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": p}) for p in paths]),
                               lab.say("Read them."), lab.say("Hello again.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    ends, heard = [], []

    def saver(event):
        heard.append(event["type"])
        if event["type"] == "tool_execution_end":
            ends.append(event)
            if len(ends) == choked:
                raise kind(text)
    unsubscribe = h.subscribe(saver)
    seen = []
    calls = [f"c{n}" for n in range(1, width + 1)]
    t.expect(await raised(lambda: lab.drive(h.prompt("Read them."),
                                            on_event=lambda e: seen.append(e["type"]))),
             f"{kind.__name__}: {text}",
             "A listener that raises must not fail quietly: it ends the run with its own "
             "exception, whatever it raises: "
             f"a bug in it ({kind.__name__} here) as much as a disk that cannot save "
             "(Harness._notify, lesson 11).")
    shape = f"U A[{','.join(calls)}] " + " ".join(f"R({i})" for i in calls[:choked])
    t.expect([h.is_running, lab.shape(h.messages), seen[-1], seen.count("tool_execution_end")],
             [False, shape, "message_end", choked - 1],
             "The run is over; the consumer never got the event the listener choked on. The "
             "items are [is_running, the record, the consumer's last event, tool_execution_ends "
             "it got] (Harness, lesson 11).")
    before = len(heard)
    await lab.drive(h.prompt("Are you back?"))
    t.expect([lab.shape(h.messages), heard[before:]],
             [shape + " U A", ["agent_start", "turn_start", "message_end", "message_end",
                               "turn_end", "agent_end"]],
             "A new prompt is accepted, and the listener that raised is still subscribed: it "
             "hears every event of every run until its undo is called, so it hears the next "
             "run whole. Items: [the record, the events it heard in the next run] "
             "(Harness.subscribe and _notify, lesson 11).")
    unsubscribe()
    model = lab.ScriptedModel([lab.say("a.py prints 1."), lab.say("b.py prints 2."),
                               lab.say("Hello."), lab.say("b.py prints 2.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    h.follow_up("And b.py?")

    def choke(event):
        if event["type"] == "message_end" and event["message"]["content"] == "And b.py?":
            raise kind(text)
    undo = h.subscribe(choke)
    caught = []
    try:
        await lab.drive(h.prompt("What does a.py print?"))
    except Exception as error:  # noqa: BLE001 - what the run raised, to look at
        caught.append(error)
    t.expect([f"{type(error).__name__}: {error}" for error in caught], [f"{kind.__name__}: {text}"],
             "The listener's exception ends the run (lesson 11).")
    own = kind(text)

    def chokes_once(event):
        if event["type"] == "message_end":
            raise own
    h2 = harness.Harness(lab.ScriptedModel([lab.say("Hi.")]), SYSTEM, [])
    h2.subscribe(chokes_once)
    caught = []
    try:
        await lab.drive(h2.prompt("Hello?"))
    except Exception as error:  # noqa: BLE001 - what the run raised, to look at
        caught.append(error)
    t.expect([len(caught), caught[0] is own if caught else None], [1, True],
             f"A listener raised a {kind.__name__} at the prompt's message_end. The run ends "
             "with the listener's own exception: that object, with its traceback and anything "
             "it carries, not a new one of the same type and words. Items: [exceptions the run "
             "raised, it is the listener's own object] (Harness._notify, lesson 11, Build "
             "item 5).")
    undo()
    await lab.drive(h.prompt("Hello?"))
    t.expect(lab.shape(h.messages), "U A U U A",
             "A follow-up leaves its queue once it is on the record (lesson 9), even when a "
             "listener raises at its message_end: _run marks it delivered before the listeners "
             "hear the event, so the next run does not deliver it a second time. A listener "
             "raised at the follow-up \"And b.py?\"; after the undo a new prompt ran. Items: "
             "the record (Harness._run, lessons 9 and 11).")
    found, again, wanted = [], [], []
    strikes = t.random.randint(2, 4)  # runs in a row the listener raises in, then one it does not

    def answer(request):  # every run: a call of look, then words
        if request.messages[-1]["role"] == "toolResult":
            return lab.say("Read it.")
        return lab.reply(lab.call("look", {"path": "a.py"}))
    for at in ["agent_start", "turn_start", "message_end", "tool_execution_start",
               "tool_execution_end", "turn_end", "agent_end"]:
        h = harness.Harness(lab.ScriptedModel([lab.forever(answer)]), SYSTEM, [looker()])
        raising, heard = [True], []

        def chokes(event, at=at, raising=raising, heard=heard):
            heard.append(event["type"])
            if event["type"] == at and raising[0]:
                raising[0] = False  # once a run: at the first event of that type
                raise kind(text)
        h.subscribe(chokes)
        seen = []
        error = await raised(lambda: lab.drive(h.prompt("Read a.py."),
                                               on_event=lambda e: seen.append(e["type"])))
        found.append([at, error, h.is_running, lab.shape(h.messages), len(seen)])
        later = []
        for _ in range(strikes - 1):
            raising[0] = True
            later.append(await raised(lambda: lab.drive(h.prompt("Read a.py again."))))
        raising[0] = False  # the last run: it raises nothing, and hears it all
        heard.clear()
        seen.clear()
        await lab.drive(h.prompt("Once more."), on_event=lambda e: seen.append(e["type"]))
        again.append([at, later, heard])
        wanted.append([at, [f"{kind.__name__}: {text}"] * (strikes - 1), list(seen)])
    t.expect(found,
             why="A listener that raises ends the run with its own exception at whatever event "
                 "it raises, not only at the events that carry a message: each item is a run "
                 f"(U A[c1] R(c1) A, when whole) whose listener raised {kind.__name__} at the "
                 "first event of one type: [that type, what the run raised, is_running after, "
                 "lab.shape of the record, the events the consumer got] (Harness._notify, "
                 "lesson 11, Build item 5).")
    t.expect(again, wanted,
             f"The listener that raised is still subscribed, however often it raises: it hears "
             "every event of every run until its undo is called, and nothing else takes it off. "
             f"After the first run, it raised {kind.__name__} again in {strikes - 1} more "
             f"run{'s' if strikes > 2 else ''}, at the first event of the same type in each, "
             "and then heard a run whole. Each "
             "item: [that type, what each of those runs raised, the events it heard in the "
             "last run, which are all the events the consumer got] (Harness.subscribe and "
             "_notify, lesson 11, Build item 5).")
    types = events_of(["U", "A"])
    at = t.random.choice(types)  # one listener changes the list at it, and a later one raises
    h = harness.Harness(lab.ScriptedModel([lab.say("Hello."), lab.say("Hello again.")]), SYSTEM, [])
    heard = {"kept": [], "joined": [], "dropped": []}
    done = []

    def changer(event):
        if event["type"] == at and not done:
            done.append(event)
            h.subscribe(lambda e: heard["joined"].append(e["type"]))
            undo_dropped()

    def raiser(event):
        if event["type"] == at and len(done) == 1:
            done.append(event)
            raise kind(text)
    dropped_first = t.random.choice([True, False])  # the one undone: before the changer or after
    if dropped_first:
        undo_dropped = h.subscribe(lambda e: heard["dropped"].append(e["type"]))
    h.subscribe(changer)
    if not dropped_first:
        undo_dropped = h.subscribe(lambda e: heard["dropped"].append(e["type"]))
    h.subscribe(lambda e: heard["kept"].append(e["type"]))
    h.subscribe(raiser)
    error = await raised(lambda: lab.drive(h.prompt("Hello?")))
    for listened in heard.values():
        listened.clear()
    await lab.drive(h.prompt("Are you back?"))
    t.expect([error, heard["joined"], heard["dropped"], heard["kept"]],
             [f"{kind.__name__}: {text}", types, [], types],
             f"At the first {at} of a run, a listener subscribed a new one and undid another "
             f"(subscribed {'before' if dropped_first else 'after'} it), and a listener after "
             f"it raised {kind.__name__} at that event, ending the run. A subscribe and an undo "
             "made while an event is being heard count from that moment, whatever happens to "
             "the event after them: in the next run the new listener hears every event, and the "
             "one undone hears none. Items: [what the first run raised, the next run's events "
             "the new listener heard, those the undone one heard, those a listener that only "
             "listens heard] (Harness.subscribe and _notify, lesson 11, Build item 5).")

    class NotebookFull(Exception):
        """A listener's exception of a kind of its own, which no harness knows of."""
    found = []
    # and a network disk's error, a kind a saver on one meets: drawn, and never to be swallowed
    network = t.random.choice([ConnectionResetError, BrokenPipeError, TimeoutError, ConnectionError])
    for own in (NotebookFull("the notebook is full"), StopIteration("no more pages"),
                KeyboardInterrupt("the notebook was shut"), SystemExit("the notebook left"),
                network("the network disk did not answer")):
        h = harness.Harness(lab.ScriptedModel([lab.say("Hi.")]), SYSTEM, [])

        def raises(event, own=own):
            if event["type"] == "message_end":
                raise own
        h.subscribe(raises)
        caught = []
        try:
            await lab.drive(h.prompt("Hello?"))
        except BaseException as error:  # noqa: BLE001 - what the run raised, to look at
            caught.append(error)
        found.append([[type(error).__name__ for error in caught],
                      [error is own or error.__cause__ is own for error in caught], h.is_running])
    t.expect(found, [[["NotebookFull"], [True], False], [["RuntimeError"], [True], False],
                     [["KeyboardInterrupt"], [True], False], [["SystemExit"], [True], False],
                     [[network.__name__], [True], False]],
             "A listener raised an exception of a class of its own, NotebookFull, at the "
             "prompt's message_end, and in other runs a listener raised StopIteration, "
             "KeyboardInterrupt and SystemExit there (BaseExceptions, not Exceptions), and "
             f"{network.__name__}, a network disk's error that a saver writing to one meets and "
             "that looks passing, which it is not for the log. "
             "A listener that raises ends the run with its own exception, whatever its class, "
             "not only the kinds a harness expects; a StopIteration is the one a generator "
             "cannot pass on, so the run ends with the RuntimeError Python makes of it, whose "
             "cause is the listener's. Each item is [the classes of what the run raised, each "
             "is the listener's own object or caused by it, is_running after] "
             "(Harness._notify, lesson 11, Build item 5).")


@lab_test("A log whose disk fills up after a number of messages drawn under the seed makes the "
          "run end with the disk's own error at the message it could not save, and a log with a "
          "torn line ends it with the reader's ValueError: persist_to lets a failed save be "
          "heard.")
async def test_a_save_that_fails_is_heard(t):
    found, wanted = [], []
    for kind, text in [(OSError, "No space left on device"),
                       (PermissionError, "session.jsonl is read-only"),
                       (InterruptedError, "a signal cut the write short")]:
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
    path = t.random.choice(NAMES)
    whole = t.random.randint(0, 4)
    torn = "".join(json.dumps({"id": f"e{n}", "type": "message", "message": lab.say(f"Step {n}.")})
                   + "\n" for n in range(1, whole + 1)) + '{"id": "e'
    ws = lab.Workspace({path: torn})
    h = harness.Harness(lab.ScriptedModel([lab.say("Hello.")]), SYSTEM, [looker()])
    h.subscribe(harness.persist_to(harness.SessionLog(ws, path)))
    ends = []
    error = await raised(lambda: lab.drive(
        h.prompt("Hello?"), on_event=lambda e: ends.append(e) if e["type"] == "message_end" else None))
    found.append([error, ws.read_text(path) == torn, lab.shape(h.messages), len(ends),
                  h.is_running])
    wanted.append([f"ValueError: {path}, line {whole + 1}: not a complete log entry", True, "U", 0,
                   False])
    t.expect(found, wanted,
             "A saver that cannot save must not fail quietly: the error persist_to meets ends "
             "the run at the message it could not save, and the person hears of it at once, "
             "whatever its class (an InterruptedError, a signal cutting the write short, as "
             "much as a full disk's OSError or a PermissionError). "
             "Each item is [what the run raised, messages in the log, the log is the start of "
             "the record, messages on the record, message_ends the consumer got, is_running]; "
             "the last item is a log whose last line is torn, where the append raises the "
             "reader's ValueError and writes nothing: [what the run raised, the file is "
             "unchanged, the record, message_ends the consumer got, is_running] "
             "(persist_to and Harness._notify, lesson 11).")
    failed = []

    full = [True]

    class FlakyDisk(harness.SessionLog):
        """A log whose disk fills at a message drawn under the seed and stays full until that
        run has ended: every write till then fails, a retry's too (retrying inside the listener
        is allowed; after the retries the disk is still full)."""

        def append_message(self, message):
            if len(self.entries()) == room and full:
                failed.append(message)
                raise OSError("No space left on device")
            return super().append_message(message)
    room = t.random.randrange(2)  # the prompt's message, or the answer's
    log = FlakyDisk(lab.Workspace(), FILE)
    h = harness.Harness(lab.ScriptedModel([lab.say("Read."), lab.say("Again.")]), SYSTEM,
                        [looker()])
    h.subscribe(harness.persist_to(log))
    error = await raised(lambda: lab.drive(h.prompt("Read a.py.")))
    full.clear()  # room again
    await lab.drive(h.prompt("Go on."))
    # the one it could not save is message room + 1 of the record: a saver may hand the log
    # a copy of each message, so it is told by its place, not by the object
    t.expect([error, lab.shape(log.replay()),
              log.replay() == [*h.messages[:room], *h.messages[room + 1:]]],
             ["OSError: No space left on device", "U U A" if room else "U A", True],
             "persist_to saves the message of every message_end, after a failed save too: the "
             "disk had no room from message "
             f"{room + 1} of the record to the end of that run (a retry inside the listener "
             "is allowed, and fails too), that run ended with its error, and once there was "
             "room again the next run was saved whole. Items: [what the first run raised, the "
             "shape of what the log replays, it is the record without the one message it could "
             "not save] (persist_to, lesson 11).")
    own = t.random.choice([OSError, PermissionError])(t.random.choice(
        ["No space left on device", "the disk is read-only", "the disk went away"]))
    room = t.random.randrange(2)  # the prompt's message, or the answer's

    class FullWorkspace(lab.Workspace):
        """A disk that refuses any write once the log has `room` lines: the workspace's own
        append_text raises, below every method of SessionLog."""

        def append_text(self, path, text):
            written = self.read_text(path).count("\n") if self.exists(path) else 0
            if text and written >= room:  # writing nothing needs no room
                raise own
            return super().append_text(path, text)
    ws = FullWorkspace()
    log = harness.SessionLog(ws, FILE)
    h = harness.Harness(lab.ScriptedModel([lab.say("Read.")]), SYSTEM, [looker()])
    h.subscribe(harness.persist_to(log))
    caught = []
    try:
        await lab.drive(h.prompt("Read a.py."))
    except Exception as error:  # noqa: BLE001 - what the run raised, to look at
        caught.append(error)
    t.expect([[f"{type(error).__name__}: {error}" for error in caught],
              bool(caught) and caught[0] is own, lab.shape(log.replay()), h.is_running],
             [[f"{type(own).__name__}: {own}"], True, "U" if room else "", False],
             f"The workspace's own append_text raised {type(own).__name__} at message "
             f"{room + 1} of the run, a disk that refuses the write itself (the other cases "
             "fail in append_message, above _append). Nothing between the disk and the run may "
             "keep it quiet or put another in its place: the run ends with the disk's own "
             "error, that object, at the message it could not save. Items: [what the run "
             "raised, it is the disk's own object, the shape of what the log replays, "
             "is_running] (SessionLog._append, persist_to and Harness._notify, lesson 11, Build "
             "items 2, 4 and 5).")


@lab_test("A PowerCut in a call of a batch leaves a log that replays what was recorded before it, "
          "such as U A[c1,c2] R(c1); a harness resumed from that log sends a valid request and "
          "carries on.")
async def test_resuming_after_a_power_cut_in_a_tool(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    width = t.random.randint(2, 5)
    cut = t.random.randrange(width)  # the call whose tool the power cut hits
    paths = t.random.sample(FILES, width)
    calls = [f"c{n}" for n in range(1, width + 1)]
    model = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": p}) for p in paths]),
                               lab.say("Not reached.")])
    h = harness.Harness(model, SYSTEM, [looker(cut_on=paths[cut])])
    h.subscribe(harness.persist_to(log))
    t.expect(await raised(lambda: lab.drive(h.prompt("Read them."))),
             "PowerCut: the power went off", "The power cut ends the run (lesson 4).")
    before = " ".join([f"U A[{','.join(calls)}]"] + [f"R({i})" for i in calls[:cut]])
    t.expect(lab.shape(log.replay()), before, "The log holds what happened before the cut "
                                              "(persist_to, lesson 11).")
    fresh = lab.ScriptedModel([lab.say("Some were interrupted; reading them again is safe.")])
    resumed = harness.Harness(fresh, SYSTEM, [looker()], messages=log.replay())
    resumed.subscribe(harness.persist_to(log))
    await lab.drive(resumed.prompt("Where were we?"))
    sent = fresh.calls[0].messages
    t.expect([lab.shape(sent), lab.validate(sent), [m["content"] for m in sent[2 + cut:-1]]],
             [" ".join([f"U A[{','.join(calls)}]"] + [f"R({i})" for i in calls] + ["U"]), [],
              [harness.INTERRUPTED] * (width - cut)],
             "The resumed harness's view answers each call the cut left without a result as "
             "interrupted; the items are [the request's shape, what validate found, those "
             "calls' results] (lessons 10 and 11).")
    t.expect(lab.shape(log.replay()), before + " U A",
             "The log goes on from where it stopped, and still holds no invented result "
             "(lesson 11).")


@lab_test("A workspace that loses power on one of the log's appends leaves a log that replays "
          "the messages written before it, and a session resumed from it works.")
async def test_resuming_after_a_power_cut_in_the_log(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    replies, tokens = draw_run(t)
    written = t.random.randrange(len(tokens))  # whole lines before the cut
    h = harness.Harness(lab.ScriptedModel(replies), SYSTEM, [looker()])
    h.subscribe(harness.persist_to(log))
    ws.cut_power_after(written)
    t.expect(await raised(lambda: lab.drive(h.prompt("Read the files."))),
             "PowerCut: the power went off while writing session.jsonl",
             f"Write {written + 1} to the log lost the power (lesson 11).")
    t.expect([lab.shape(log.replay()), len(lines(ws)) if ws.exists(FILE) else 0],
             [" ".join(tokens[:written]), written],
             "The lines written before the cut are whole; the items are [what the log replays, "
             "its lines] (SessionLog, lesson 11).")
    fresh = lab.ScriptedModel([lab.say("Where we left off; what next?")])
    resumed = harness.Harness(fresh, SYSTEM, [looker()], messages=log.replay())
    resumed.subscribe(harness.persist_to(log))
    await lab.drive(resumed.prompt("Go on."))
    t.expect([lab.validate(fresh.calls[0].messages), lab.shape(log.replay()),
              log.replay() == list(resumed.messages)],
             [[], " ".join(tokens[:written] + ["U", "A"]), True],
             "Resuming is Harness(..., messages=log.replay()): its request is valid, and the "
             "log carries on (lesson 11).")
