"""Lesson 12, lab 2: summarise and keep. The tests of summarize, the compaction entry, compact,
maybe_compact and Harness.replace_messages: old turns become a summary, recent ones are kept
word for word, and the log deletes nothing.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 12 tests.py
"""
import json

import harness
import lab
from lab.kit import hours_pass, lab_test, raised, settle

LAB = "12.2"
SYSTEM = "You help with a small project."
FILE = "session.jsonl"
HEAD = "Previous conversation summary:\n"


def chat(*pairs):
    """A transcript of (question, answer) turns."""
    messages = []
    for question, answer in pairs:
        messages += [harness.user_message(question), lab.say(answer)]
    return messages


def logged(messages):
    """A workspace and a log holding `messages`, one entry each."""
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    for message in messages:
        log.append_message(message)
    return ws, log


WORDS = ("parser", "cache", "index", "report", "config", "server", "client", "queue", "token",
         "router", "schema", "ledger", "widget", "sensor", "loader", "budget", "lexer", "mailer")


def word(t):
    """A drawn word with a drawn number, so that a session's words differ from seed to seed."""
    return f"{t.random.choice(WORDS)}{t.random.randint(1, 999)}"


def drawn_pairs(t, turns):
    """`turns` (question, answer) pairs of drawn words."""
    return [(f"Look at {word(t)}.py.", f"It holds {word(t)}.") for _ in range(turns)]


def sketch(text):
    """A long text told by its length, whether it is `text` itself, and its two ends, so that
    a record holds a few hundred characters of it and a failure still shows where it differs."""
    if not isinstance(text, str):
        return repr(text)[:200]
    return [len(text), text[:80], text[-80:]]


def conversation(pairs, *after):
    """render()'s text of chat(*pairs), then the lines `after`, inside the summariser's tags,
    written out by hand."""
    return "<conversation>\n" + "".join(f"user: {q.replace(chr(10), ' ')}\nassistant: {a}\n"
                                       for q, a in pairs) + \
        "".join(line + "\n" for line in after) + "</conversation>"


@lab_test("summarize makes one request of its own: the system prompt SUMMARY_SYSTEM, a single "
          "user message holding the rendered conversation inside <conversation> tags, and no "
          "tools. It returns the reply's text, stripped.")
async def test_summarize_sends_one_request(t):
    # a long session, hundreds of turns: every message rendered, however many
    pairs = drawn_pairs(t, t.random.randint(150, 600))
    # one question pastes a long text, over five million characters, a file as Windows writes
    # it (lines ending in "\r\n") with tabs inside: rendered whole, its "\r" and tabs as they are
    pasted = "".join(word(t) + t.random.choice([" ", " ", "\t", "\r\n", "\t\t"])
                     for _ in range(t.random.randint(3000, 6000)))
    piece = f"\t{word(t)}\r\n"
    pasted += piece * (t.random.randint(5_200_000, 6_000_000) // len(piece))
    pairs.insert(t.random.randrange(len(pairs) + 1), (f"Read this: {pasted}", "Read it."))
    # and a question that says nothing, blank or empty: a message like any other
    pairs.insert(t.random.randrange(len(pairs) + 1),
                 (t.random.choice(["", " ", "\t", "  \n"]), f"Go on, {word(t)}?"))
    said = f"Read {word(t)} and {word(t)}."
    # a summary of many lines, some indented and some with two spaces inside, and a long last
    # one, over two million characters: kept as it came
    said += "".join(f"\n{t.random.choice(['', '  '])}- {word(t)}.py:{t.random.choice([' ', '  '])}"
                    f"{word(t)}" for _ in range(t.random.randint(400, 1200)))
    piece = f" {word(t)}"
    said += f"\n- {word(t)}:" + piece * (t.random.randint(2_100_000, 2_600_000) // len(piece))
    # whitespace of every kind around it, each kind that str.isspace() knows on each side in
    # a drawn order, each side ending in one that is not a space, a tab or a newline
    spaces = [c for c in map(chr, range(0x3001)) if c.isspace()]
    padding = []
    for _ in range(2):
        side = t.random.sample(spaces, len(spaces))
        padding.append("".join(side) + t.random.choice("\r\v\f\u00a0\u2003\u3000"))
    split = t.random.randint(1, len(said) - 2)  # the reply's text comes in two blocks
    # the second summary opens with the heading rows() puts over a summary: a summary as well
    again = f"{HEAD}Read {word(t)} again."
    model = lab.ScriptedModel([lab.reply(padding[0] + said[:split], said[split:] + padding[1]),
                               lab.say(again)])
    # the session's last request failed (the provider refused it), as the one before a
    # compaction may well have: the summariser is sent the record, not the request's view
    refused = lab.fail(f"{word(t)}: context too long")
    summary = await settle(harness.summarize(model, chat(*pairs) + [refused]))
    t.expect([summary == said, sketch(summary)], [True, sketch(said)],
             f"The summary is the reply's text, all its text blocks joined, here "
             f"{len(said)} characters in {said.count(chr(10)) + 1} lines cut in "
             f"two blocks at character {split}, then stripped of {padding!r} "
             "around it and of nothing else: every character inside it, its "
             "newlines, indents and double spaces, is kept as the reply gave it, "
             "whatever its length. Items: [whether it is that text, its length and its two "
             "ends] (summarize, lesson 12, Build item 4).")
    request = model.calls[0]
    t.expect([len(model.calls), request.system == harness.SUMMARY_SYSTEM, request.tools],
             [1, True, []],
             "One request, with the summariser's own system prompt and no tools, so summarising "
             "is all it can do (summarize, lesson 12).")
    wanted = conversation(pairs, "assistant: ")
    t.expect([request.messages == [{"role": "user", "content": wanted}],
              [m.get("role") for m in request.messages],
              sketch(request.messages[0].get("content") if request.messages else None)],
             [True, ["user"], sketch(wanted)],
             f"The {len(pairs)} turns and the failed reply after them go in as text, "
             f"render(messages) of every message given, however many and however long (here "
             f"{2 * len(pairs) + 1} messages, {len(wanted)} "
             "characters with the tags), a blank question included, and the paste's \"\\r\" "
             "and tabs as they are: render changes only \"\\n\", and summarize nothing, "
             "wrapped in tags, inside one user message: "
             "not as a transcript for the model to continue, and not the request's view, which "
             "would leave the empty failed reply out. Items: [whether the messages are exactly "
             "that one, their roles, the message's length and its two ends] (summarize, lesson "
             "12, Build item 4).")
    t.expect([type(harness.SUMMARY_SYSTEM).__name__, len(harness.SUMMARY_SYSTEM.split()) >= 10,
              harness.SUMMARY_SYSTEM in json.dumps(request.messages)], ["str", True, False],
             "SUMMARY_SYSTEM is a real instruction, sent as the system prompt and not as a "
             "message (summarize, lesson 12).")
    # the same model asked again about the same messages: a second request, a second answer
    # (after a turn of the loop: the texts above are long, and the spin guard's clock runs
    # from a turn's first round of harness.py's loops)
    await lab.tick()
    second = await settle(harness.summarize(model, chat(*pairs) + [refused]))
    t.expect([second, len(model.calls)], [again, 2],
             "summarize called a second time with the same model and the same messages makes "
             "exactly one request of its own again, and returns what that reply says, "
             f"{again!r}, stripped and nothing else, a reply that opens with the heading "
             "\"Previous conversation summary:\" included: each call is one request, "
             "remembering no earlier summary. Items: [the second summary, requests made in all] "
             "(summarize, lesson 12, Build item 4).")
    # no messages at all: still one request; whether there is anything worth summarising is
    # compact's to decide
    quiet = lab.ScriptedModel([lab.say(f"Nothing yet about {word(t)}.")])
    try:
        nothing = await settle(harness.summarize(quiet, []))
    except Exception as error:
        nothing = f"raised {type(error).__name__}: {error}"
    t.expect([nothing, [call.messages for call in quiet.calls]],
             why="summarize(model, []), with a model that answers. Items: [what it returned, or "
                 "what it raised, the messages of each request it made]. It makes exactly one "
                 "request even when messages is empty, the rendered nothing between the tags: "
                 "what is worth summarising is compact's to decide, not summarize's "
                 "(summarize, lesson 12, Build item 4).")


@lab_test("When the summariser's reply failed, was stopped, or has no text, summarize raises a "
          "RuntimeError that starts with no summary: and ends with the reason.")
async def test_summarize_refuses_a_bad_reply(t):
    messages = chat(*drawn_pairs(t, t.random.randint(1, 3)))

    async def answer_to(reply):
        """What summarize made of `reply`: the error it raised, or what it returned."""
        model, box = lab.ScriptedModel([reply]), {}

        async def call():
            box["summary"] = await settle(harness.summarize(model, messages))
        error = await raised(call)
        return error if error is not None else f"returned {box['summary']!r}"
    failed, cut, stopped_by = (f"{word(t)} overloaded", f"{word(t)} rate limited",
                               f"Operation aborted at {word(t)}")
    blank = "".join(t.random.choice(" \n\t") for _ in range(t.random.randint(1, 6)))
    partial = f"Partial {word(t)}"
    t.expect(await answer_to(lab.fail(failed)), f"RuntimeError: no summary: {failed}",
             f"No summary is better than a wrong one: a failed reply, lab.fail({failed!r}), "
             "raises with its error_message (summarize, lesson 12).")
    t.expect(await answer_to(lab.say(blank)), "RuntimeError: no summary: the reply was empty",
             f"A reply of whitespace only, lab.say({blank!r}), is no summary: strip the text "
             "first, then check that any is left (summarize, lesson 12).")
    t.expect(await answer_to(lab.fail(cut, partial)), f"RuntimeError: no summary: {cut}",
             f"A failed reply that got some words out, lab.fail({cut!r}, {partial!r}), is still "
             "a failure (summarize, lesson 12).")
    stopped = {**lab.fail(stopped_by, partial), "stop_reason": "aborted"}
    t.expect(await answer_to(stopped), f"RuntimeError: no summary: {stopped_by}",
             "A reply that was stopped, stop_reason \"aborted\", is cut short like a failed one, "
             "even with some words in it: no summary (summarize, lesson 12).")
    unexplained = {key: value for key, value in lab.fail(cut, partial).items()
                   if key != "error_message"}
    t.expect(await answer_to(unexplained), "RuntimeError: no summary: the reply was empty",
             f"A reply whose stop_reason is \"error\" failed, whatever else it holds: here "
             f"{unexplained!r}, with words and no error_message. The label says it failed, so no "
             "summary, and with no error_message the reason is \"the reply was empty\" "
             "(summarize, lesson 12; the label, lesson 5).")
    padded = "".join(t.random.choice(" \n\t") for _ in range(t.random.randint(1, 3)))
    reasons = ("", None, padded, f"{padded}{word(t)} overloaded{padded}")
    empty = [{**lab.fail(cut, partial), "error_message": reason} for reason in reasons]
    t.expect([await answer_to(reply) for reply in empty],
             why=f"Four failed replies with words, whose error_message is \"\", None, "
                 f"whitespace alone and a reason with whitespace around it: {empty!r}. "
                 "Items: what summarize raised for each. An empty error_message is none: the "
                 "reason is then \"the reply was empty\", never an empty reason or \"None\"; "
                 "any other error_message, whitespace included, is the reason as the reply "
                 "gave it (summarize, lesson 12, Build item 4).")
    asking = lab.reply(f"  {partial}. ", lab.call("read", {"path": f"{word(t)}.py"}))
    t.expect(await answer_to(asking),
             why=f"A reply with words and a call, stop_reason \"toolUse\": {asking!r}. The item "
                 "is what summarize returned, or raised. Any reply with text that did not fail "
                 "and was not stopped is a summary, a \"toolUse\" one included: the summariser "
                 "was offered no tools, so its call is ignored (summarize, lesson 12, Build "
                 "item 4).")
    # the label decides, not the other fields: a stop with a leftover error_message is a
    # summary; a stopped reply (aborted) with no error_message has "the reply was empty"
    noted = {**lab.say(f"Fixed {word(t)}."), "error_message": t.random.choice(
        [f"{word(t)} retried once", "", f"warning: {word(t)} slow"])}
    hushed = {key: value for key, value in
              {**lab.fail(stopped_by, partial), "stop_reason": "aborted"}.items()
              if key != "error_message"}
    t.expect([await answer_to(noted), await answer_to(hushed)],
             why=f"Two replies: {noted!r}, labelled \"stop\" with words and an error_message "
                 f"beside them, and {hushed!r}, stopped (\"aborted\") with no error_message. "
                 "Items: what summarize returned, or raised, for each. The label says whether "
                 "the reply failed or was stopped, not the other fields: any other reply with "
                 "text is a summary, an error_message beside a stop included; and with no "
                 "error_message the reason is \"the reply was empty\", whatever the label "
                 "(summarize, lesson 12, Build item 4; the label, lesson 5).")
    # a summariser as slow as it likes: a day passes at each reading of the clock
    with hours_pass(1440):
        slow = await answer_to(lab.say(f"Slowly {word(t)}."))
    t.expect(slow, why="summarize while a day passes at each reading of the clock, with a model "
                       "that answers. The item is what it returned, or raised. It makes one "
                       "request and takes any reply with text that did not fail and was not "
                       "stopped, however long the request took by any clock: no time limit "
                       "is summarize's (summarize, lesson 12, Build item 4).")


@lab_test("append_compaction writes the entry {id, type compaction, summary, first_kept_id} as one "
          "more line, returns its id, and deletes or changes nothing.")
async def test_append_compaction_writes_one_entry(t):
    turns = t.random.randint(1, 4)
    pairs = drawn_pairs(t, turns)
    ws, log = logged(chat(*pairs))
    before = ws.read_text(FILE)
    summary, kept = f"  Read {word(t)}.\n", f"e{2 * t.random.randrange(turns) + 1}"
    t.expect(log.append_compaction(summary, kept), f"e{2 * turns + 1}",
             f"A compaction entry is numbered like any other: after {2 * turns} messages it is "
             f"e{2 * turns + 1} (SessionLog.append_compaction, lesson 12).")
    text = ws.read_text(FILE)
    t.expect([text.startswith(before), len(text.splitlines()), json.loads(text.splitlines()[-1])],
             [True, 2 * turns + 1, {"id": f"e{2 * turns + 1}", "type": "compaction",
                                    "summary": summary, "first_kept_id": kept}],
             f"The old lines are untouched and one line is added, holding the summary {summary!r} "
             "exactly as given, its spaces and newline included (SessionLog.append_compaction, "
             "lesson 12).")
    t.expect([len(log.entries()), [entry["type"] for entry in log.entries()]],
             [2 * turns + 1, ["message"] * (2 * turns) + ["compaction"]],
             "Every message entry is still there (SessionLog, lesson 12).")
    t.expect(log.replay()[0]["content"], HEAD + summary,
             f"Read back, the compaction's summary row is the heading, a newline, and the "
             f"summary exactly as it was logged, {summary!r}, its spaces and newline included: "
             "rows() puts the summary under its heading and changes nothing in it "
             "(SessionLog.rows, lesson 12).")
    # an empty summary, and one that already opens with the heading: each is a summary as given
    found = []
    for given in ("", HEAD + f"Read {word(t)}."):
        _, other = logged(chat(*pairs))
        found.append([await raised(lambda other=other, given=given: other.append_compaction(
            given, kept)), [k for k, _ in other.rows()], other.replay()[0]["content"]])
    t.expect(found,
             why=f"Two fresh logs of the same {2 * turns} messages, each given one compaction "
                 f"keeping from {kept}: its summary empty, then one that already opens with "
                 "the heading. Items: [what append_compaction raised, the rows' ids, the first "
                 "message's content] for each. append_compaction adds the entry that holds the "
                 "summary it is given, whatever it holds, and rows() reads every compaction "
                 "entry as a rule, the heading, a newline and the summary as logged "
                 "(SessionLog.append_compaction and SessionLog.rows, lesson 12, Build items 2 "
                 "and 3).")
    # a summary hundreds of thousands of characters long, kept and read back whole; and a
    # power cut armed for the write after the next one, which one entry's write never reaches
    long_ws, other = logged(chat(*pairs))
    # ... with a space before it and a newline after it, its lines ending "\r\n" as Windows
    # writes them, read back as they are
    given = f" Read {word(t)}:\r\n" + f" {word(t)}\r\n" * t.random.randint(60_000, 90_000)
    long_ws.cut_power_after(1)
    added = await raised(lambda: other.append_compaction(given, kept))
    try:
        read = [len(other.entries()), other.replay()[0]["content"]]
    except Exception as error:  # a torn line: what reading it raised
        read = [f"raised {type(error).__name__}", None]
    t.expect([added, long_ws.read_text(FILE).endswith("\n"), read[0],
              read[1] == HEAD + given, sketch(read[1])],
             why=f"A fresh log of the same {2 * turns} messages given one compaction whose summary "
                 f"is {len(given)} characters long, on a workspace whose power goes off at the "
                 "second write from now, a space before it and its lines ending \"\\r\\n\". Items: [what "
                 "append_compaction raised, whether the file ends with a newline, the log's entries, whether the first row is the "
                 "heading and the whole summary, that row's length and two ends]. An entry is "
                 "one line written by one append (lesson 11's _append, which writes every kind "
                 "of entry), so the power cut is never reached; and the summary is held and "
                 "read back whatever its length, exactly as logged, the space and newline "
                 "around it included, and every \"\\r\\n\" in it: rows() changes nothing in it (SessionLog.append_compaction and "
                 "SessionLog.rows, lessons 11 and 12, Build items 2 and 3).")
    ws.cut_power_after(0, torn=True)  # the next write stops halfway
    cut = await raised(lambda: log.append_compaction(f"Read {word(t)}.", kept))
    t.expect([cut, ws.read_text(FILE).startswith(text)],
             [f"PowerCut: the power went off while writing {FILE}", True],
             "The power went off in the middle of a second compaction's write: every line that "
             "was there before is still there, whole, because append_compaction adds a line and "
             "changes no line already there (a write that replaced the whole file would have "
             "torn the old lines with it). Items: [what append_compaction raised, whether the "
             "file still begins with its old lines] (SessionLog.append_compaction, lessons 11 "
             "and 12).")


@lab_test("After a compaction, replay() is the summary, then the kept messages, then anything "
          "newer; a second compaction treats the first summary as an ordinary row; an unknown "
          "first_kept_id keeps nothing.")
async def test_rows_read_a_compaction_as_a_rule(t):
    turns = t.random.randint(2, 4)
    pairs = drawn_pairs(t, turns)
    ws, log = logged(chat(*pairs))
    kept = 2 * t.random.randrange(1, turns) + 1  # the id number of a later turn's question
    summaries, asked = [f"Found {word(t)}.", f"Fixed {word(t)}.", f"All {word(t)}.",
                        f"Then {word(t)}.", f"Last {word(t)}."], f"Run {word(t)}."
    first = log.append_compaction(summaries[0], f"e{kept}")
    log.append_message(harness.user_message(asked))
    n = 2 * turns  # the number of message entries before the compaction
    t.expect([[k for k, _ in log.rows()], log.replay()[0]["content"]],
             [[f"e{n + 1}"] + [f"e{i}" for i in range(kept, n + 1)] + [f"e{n + 2}"],
              HEAD + summaries[0]],
             f"After compacting {n} messages with first_kept_id e{kept}: the rows before it read "
             "as one summary row with the compaction's id; the kept rows and the newer ones "
             "follow (SessionLog.rows, lesson 12).")
    log.append_message(lab.say(f"{word(t)} passed."))
    answered = harness.text_of(log.replay()[-1])
    second = log.append_compaction(summaries[1], f"e{n + 2}")
    said = [harness.text_of(m) if m["role"] == "assistant" else m["content"] for m in log.replay()]
    t.expect([first, second, [k for k, _ in log.rows()], said],
             [f"e{n + 1}", f"e{n + 4}", [f"e{n + 4}", f"e{n + 2}", f"e{n + 3}"],
              [HEAD + summaries[1], asked, answered]],
             "A second compaction summarises the first summary away like any other row "
             "(SessionLog.rows, lesson 12).")
    # e1 to e{kept - 1} are still lines of the file, but no longer rows: the first compaction
    # summarised them away
    gone, unknown = f"e{t.random.randint(1, kept - 1)}", f"e{t.random.randint(n + 7, 999)}"
    # the id of the row there is then, written in capitals and with spaces around it
    loose = f" E{n + 6}{t.random.choice([' ', chr(10), chr(9)])}"
    found = []
    for summary, first_kept in ((summaries[2], gone), (summaries[3], unknown),
                                (summaries[4], loose)):
        log.append_compaction(summary, first_kept)
        found.append([[k for k, _ in log.rows()], log.replay()[0]["content"]])
    t.expect([found, len(log.entries())],
             [[[[f"e{n + 5}"], HEAD + summaries[2]], [[f"e{n + 6}"], HEAD + summaries[3]],
               [[f"e{n + 7}"], HEAD + summaries[4]]], n + 7],
             f"A first_kept_id that is not among the rows keeps no rows: {gone}, whose message "
             f"an earlier compaction summarised away (its line is still in the file, but it is "
             f"no row any more), {unknown}, which no entry has, and {loose!r}, which is not "
             f"e{n + 6}: an id is the row's id exactly, not one like it in other letters or "
             "with spaces around it. Still nothing is deleted. Items: [the rows' ids, the first "
             "message's content] after each of the three compactions, then how many entries "
             "the log holds (SessionLog.rows, lesson 12, Build item 3).")
    # a message after the summary row, then a compaction whose first kept id is the earlier
    # summary's own row: that pair is kept, and the message after it
    between = f"Also {word(t)}."
    log.append_message(harness.user_message(between))
    log.append_compaction(f"Over {word(t)}.", f"e{n + 7}")
    later = f"Now {word(t)}."
    log.append_message(harness.user_message(later))
    t.expect([[k for k, _ in log.rows()], [m["content"] for m in log.replay()]],
             why=f"A message, {between!r}, logged after the summary row e{n + 7} the last "
                 f"compaction left, then a compaction whose first_kept_id is e{n + 7}, then a "
                 f"message, {later!r}, logged after it. A "
                 "later compaction sees an earlier summary as an ordinary pair, so that pair and "
                 "the message after it are kept after the new summary; and a compaction is a rule over the pairs read "
                 "before it, so it does not reach the messages that come after it in the file, "
                 "and the newer message follows. Items: [the rows' ids, the messages' contents] "
                 "(SessionLog.rows, lesson 12, Build item 3).")
    # a long log of drawn length, compacted at its end keeping all but its first few pairs
    # (over two thousand pairs follow the first kept one; one kept question is blank)
    size, start = t.random.randint(2100, 2600), t.random.randint(12, 99)
    blank, said = t.random.randint(start, size), t.random.choice(["", " ", "\t", "  "])
    long = [{"id": f"e{n}", "type": "message",
             "message": harness.user_message(said if n == blank else f"Step {n}.")}
            for n in range(1, size + 1)]
    long.append({"id": f"e{size + 1}", "type": "compaction",
                 "summary": f"Steps 1 to {start - 1} done.", "first_kept_id": f"e{start}"})
    long_ws = lab.Workspace({FILE: "".join(json.dumps(entry) + "\n" for entry in long)})
    log = harness.SessionLog(long_ws, FILE)
    ids, wanted = [k for k, _ in log.rows()], [f"e{size + 1}"] + [f"e{n}" for n in
                                                                 range(start, size + 1)]
    t.expect([ids == wanted, len(ids), ids[:3], ids[-2:]],
             [True, len(wanted), wanted[:3], wanted[-2:]],
             f"A long log: {size} message entries, then a compaction whose first_kept_id is "
             f"e{start}, with {size - start + 1} pairs from there on, e{blank}'s question "
             f"{said!r}. Items: [whether the rows' "
             f"ids are the summary's and then e{start} to e{size} in order, how many, the first "
             "three, the last two]: every entry is read, however long the log, a message that says "
             "nothing included (lesson 11: one row per message entry), so the "
             "compaction at its end rules over the rows before it, and the pair with its "
             "first_kept_id is found wherever it stands, however many pairs follow it "
             "(SessionLog.rows, lesson 12, Build item 3).")
    # two readings of the unchanged log, one after the other, before a caller changes either
    given, held = log.rows(), log.rows()
    given[0][1]["content"] += " (edited by a caller)"  # the summary message it was handed
    given.clear()  # the caller's own list, changed
    again = log.rows()
    # another program rewrites the file between two readings, to a text of the same length
    # and the same number of entries: the summary's number becomes the one before it
    long_ws.write_text(FILE, long_ws.read_text(FILE).replace(f"Steps 1 to {start - 1}",
                                                             f"Steps 1 to {start - 2}"))
    t.expect([len(held), held is given, held[0][1]["content"] if held else None, len(again),
              again is given, again[0][1]["content"], log.replay()[0]["content"]],
             why="The same log read twice in a row, nothing written in between, then the summary "
                 "message the first rows() gave edited and its list cleared by its caller, then "
                 "read again, and again after "
                 "another program rewrote the file to a text of the same length and the same "
                 f"entries but one word, the summary's {start - 1} now {start - 2}: each call "
                 "of rows() reads the log as it is now and returns a new list, even when the log "
                 "has not changed, so a caller that changes the "
                 "list it was given, or the summary message in it, changes no later reading, "
                 "the one another caller already holds included, "
                 "and a reading sees the file as it is. Items: [rows the second reading, taken "
                 "before the change, still holds, whether it is the very list the first gave, "
                 "its first row's content, rows the reading after the change gives, whether "
                 "it is the very list the first gave, its first row's content, the "
                 "first row's content in the last] (SessionLog.rows, lesson 12, Build item 3).")


def drawn_steps(t, steps):
    """`steps` (question, answer) pairs whose answers are of drawn lengths, 100 to 300
    characters, and the tokens each message costs (its render() line, four to a token)."""
    pairs = [(f"Step {n}: {word(t)}.", f"Done {word(t)}. " + "." * t.random.randint(100, 300))
             for n in range(1, steps + 1)]
    costs = [len(line) // 4 for q, a in pairs for line in (f"user: {q}", f"assistant: {a}")]
    return pairs, costs


@lab_test("compact returns False and appends nothing when there is nothing before the cut, "
          "nothing after it, or the summary fails; otherwise it appends one compaction entry and "
          "returns True.")
async def test_compact_gives_up_quietly(t):
    steps = t.random.randint(3, 5)
    pairs, costs = drawn_steps(t, steps)
    ws, log = logged(chat(*pairs))
    error, summary = f"{word(t)} overloaded", f"Steps 1 to {steps - 1}: {word(t)}."
    # and a failure in the words a provider uses when the conversation is too long for it,
    # the very trouble compaction is for: a failed summary like any other
    limit = t.random.randint(100, 999) * 1000
    too_long = t.random.choice([
        f"prompt is too long: {limit + t.random.randint(1, 99_999)} tokens > {limit} maximum",
        "context too long",
        f"This model's maximum context length is {limit} tokens",
        f"input is too long for the model's context window of {limit} tokens",
        "request exceeds the context length"])
    model = lab.ScriptedModel([lab.fail(error), lab.fail(too_long), lab.say(summary)])
    before = ws.read_text(FILE)
    roomy = sum(costs) + t.random.randint(0, 5000)
    fits = await settle(harness.compact(log, model, keep_recent_tokens=roomy))
    t.expect([fits, len(model.calls), ws.read_text(FILE) == before], [False, 0, True],
             f"Everything fits {roomy} tokens: nothing to summarise, no request (compact, "
             "lesson 12).")
    # a newest question that pastes a long file, hundreds of thousands of characters, and a
    # budget large enough for the whole log: everything fits, however large the budget
    paste = f"Read this, {word(t)}: " + "".join(f"{word(t)} " for _ in range(
        t.random.randint(28_000, 90_000)))
    big = chat(*pairs[:-1]) + [harness.user_message(paste), lab.say(pairs[-1][1])]
    big_ws, big_log = logged(big)
    large = harness.estimate_tokens(big) + t.random.randint(0, 5000)
    quiet = lab.ScriptedModel([lab.say(summary)])
    t.expect([await settle(harness.compact(big_log, quiet, keep_recent_tokens=large)),
              len(quiet.calls), len(big_log.entries())], [False, 0, 2 * steps],
             f"A log of {lab.shape(big)} whose newest question pastes {len(paste)} "
             f"characters, and a budget of {large} tokens, the whole log's and more: everything "
             "fits, so compact cuts at 0, where find_cut says for that budget, however large, "
             "and summarises nothing. Items: [compact's answer, summary requests, the log's "
             "entries] (compact, lesson 12, Build item 5).")
    # budgets of 0 and below: compact cuts where find_cut says for them, as for any other
    nothing, wanted = [], []
    for budget in (0, -t.random.randint(1, 500)):
        _, small = logged(chat(*pairs))
        cut = harness.find_cut(small.rows(), budget)
        quiet = lab.ScriptedModel([lab.say(summary)])
        nothing.append([await settle(harness.compact(small, quiet, keep_recent_tokens=budget)),
                        len(quiet.calls), len(small.entries())])
        cuts = 0 < cut < 2 * steps  # something before the cut and something from it on
        wanted.append([cuts, int(cuts), 2 * steps + int(cuts)])
    t.expect(nothing, wanted,
             "A budget of 0, and one below 0, are budgets too, and compact cuts where "
             "find_cut says for them: the course's find_cut keeps no row for them, so there "
             "is nothing from the cut on to keep, and compact returns False, asks no model and "
             "appends nothing. Items: [compact's answer, requests, the log's entries] for "
             "each (compact, lesson 12, Build item 5; find_cut, lab 12.1).")
    last_turn = sum(costs[-2:])  # the walk stops exactly at the last question
    failed = []
    for _ in (error, too_long):
        failed.append(await settle(harness.compact(log, model, keep_recent_tokens=last_turn)))
    t.expect([failed, len(model.calls), ws.read_text(FILE) == before], [[False, False], 2, True],
             f"A failed summary costs the user nothing: False, and the log unchanged, when "
             f"the summariser fails with {error!r}, and again when it fails with "
             f"{too_long!r}: summarize raised RuntimeError, whatever the failure's words. "
             "Items: [compact's answers, summary requests, the file unchanged] "
             "(compact, lesson 12, Build item 5).")
    done = await settle(harness.compact(log, model, keep_recent_tokens=last_turn))
    t.expect([done, len(model.calls), lab.shape(log.replay()), log.replay()[0]["content"],
              len(log.entries()), log.entries()[-1].get("first_kept_id")],
             [True, 3, "U U A", HEAD + summary, 2 * steps + 1, f"e{2 * steps - 1}"],
             f"compact appends one compaction entry and deletes nothing: the {2 * steps} message "
             f"lines stay, and replay() is a summary of steps 1 to {steps - 1}, then step "
             f"{steps} kept word for word (compact, lesson 12).")
    torn = ws.read_text(FILE) + f'{{"id": "e{2 * steps + 2}", "type": "mess'
    torn_ws, torn_log = log_of(torn)
    model = lab.ScriptedModel([lab.say("Never asked.")])
    t.expect([await raised(lambda: harness.compact(torn_log, model,
                                                  keep_recent_tokens=last_turn)),
              len(model.calls), torn_ws.read_text(FILE) == torn],
             [f"ValueError: {FILE}, line {2 * steps + 2}: not a complete log entry", 0, True],
             "A log whose last line is torn, as a power cut leaves it: compact raises the "
             "ValueError that reading it raises (lesson 11), asks no model and writes nothing. "
             "Only a summary that failed with RuntimeError, or nothing to cut, makes it return "
             "False; a torn log hidden behind a False would be compacted over, unseen. Items: "
             "[what compact raised, summary requests, whether the file is unchanged] (compact, "
             "lesson 12).")
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=log.replay())
    t.expect([await raised(lambda: harness.maybe_compact(h, torn_log, model, window=1, reserve=0,
                                                         keep_recent_tokens=last_turn)),
              len(model.calls), torn_ws.read_text(FILE) == torn, lab.shape(h.messages)],
             why="The same torn log handed to maybe_compact, with a window of 1 that the "
                 "harness's record is over: what compact raises, maybe_compact raises too, and "
                 "the harness keeps its record. Returning False would tell the caller there was "
                 "nothing to do, and the torn log would be compacted over, unseen. Items: [what "
                 "maybe_compact raised, summary requests, whether the file is unchanged, the "
                 "record] (maybe_compact and compact, lesson 12).")
    problems = [ConnectionError(f"{word(t)}: connection reset"), TimeoutError("timed out"),
                KeyError("content")]
    found = []
    for problem in problems:
        def raising(request, problem=problem):
            raise problem
        other_ws, other_log = log_of(before)
        found.append([await raised(lambda other_log=other_log, raising=raising: harness.compact(
            other_log, lab.ScriptedModel([raising]), keep_recent_tokens=last_turn)),
            other_ws.read_text(FILE) == before])
    other_ws, other_log = log_of(before)

    def full(path, text):
        raise OSError(28, "No space left on device")
    other_ws.append_text = other_ws.write_text = full  # the disk is full: every write fails
    found.append([await raised(lambda: harness.compact(
        other_log, lab.ScriptedModel([lab.say(summary)]), keep_recent_tokens=last_turn)),
        other_ws.read_text(FILE) == before])
    other_ws, other_log = log_of(before)

    def locked(path, text):
        raise RuntimeError(f"{path} is locked by another writer")
    other_ws.append_text = other_ws.write_text = locked  # the workspace's own RuntimeError
    found.append([await raised(lambda: harness.compact(
        other_log, lab.ScriptedModel([lab.say(summary)]), keep_recent_tokens=last_turn)),
        other_ws.read_text(FILE) == before])
    other_ws, other_log = log_of(before)
    other_ws.cut_power_after(0, torn=t.random.choice([False, True]))
    found.append([await raised(lambda: harness.compact(
        other_log, lab.ScriptedModel([lab.say(summary)]), keep_recent_tokens=last_turn)),
        other_ws.read_text(FILE).startswith(before)])
    t.expect(found,
             why="compact returns False for three things only: nothing before the cut, nothing "
                 "after it, or summarize raising RuntimeError. Anything else goes through to the "
                 "caller: here a summariser whose request raised ConnectionError, TimeoutError "
                 "and KeyError instead of replying, then a full disk (OSError), a workspace "
                 "whose write raised RuntimeError (a RuntimeError that is not summarize's), "
                 "and a power cut in the middle of writing the compaction entry. A False would say there was "
                 "nothing to do when the "
                 "network or the disk failed. Items: [what compact raised, whether the file "
                 "still holds its old lines] for each (compact, lesson 12).")
    # a RuntimeError the summariser's own request raises, in words of its own, is summarize
    # raising RuntimeError too: a failed summary, a quiet False
    closed = f"{word(t)}: the model's client is closed"

    def shut(request):
        raise RuntimeError(closed)
    other_ws, other_log = log_of(before)
    answers = []

    async def compacting():
        answers.append(await settle(harness.compact(other_log, lab.ScriptedModel([shut]),
                                                    keep_recent_tokens=last_turn)))
    t.expect([await raised(compacting), answers, other_ws.read_text(FILE) == before],
             [None, [False], True],
             f"A summariser whose request raised RuntimeError({closed!r}) instead of replying: "
             "a RuntimeError raised inside summarize, whatever its words, is summarize raising "
             "RuntimeError, so compact returns False and appends nothing, as for a reply that "
             "failed. Only a RuntimeError from the log or the workspace goes through. Items: "
             "[what compact raised, what it returned, whether the file still holds its old "
             "lines] (compact, lesson 12, Build item 5).")
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=log.replay())
    calls = [("compact(log, model)", lambda: harness.compact(log, model)),
             ("compact(log, model, 100)", lambda: harness.compact(log, model, 100)),
             ("maybe_compact(h, log, model, window=1, reserve=0)",
              lambda: harness.maybe_compact(h, log, model, window=1, reserve=0)),
             ("maybe_compact(h, log, model, 1, 0, 100)",
              lambda: harness.maybe_compact(h, log, model, 1, 0, 100))]
    before = ws.read_text(FILE)
    refused = [(written, (await raised(call) or "returned").split(":")[0])
               for written, call in calls]
    t.expect([refused, len(model.calls), ws.read_text(FILE) == before],
             [[(written, "TypeError") for written, _ in calls], 0, True],
             "The budgets are keyword arguments with no default, as the lesson writes "
             "compact(log, model, *, keep_recent_tokens) and maybe_compact(harness, log, model, *, "
             "window, reserve, keep_recent_tokens): a budget left out, or given by position, is "
             "a TypeError, never a guess. Items: [the call, what it raised] for each, then "
             "summary requests, whether the log is unchanged (compact and maybe_compact, "
             "lesson 12).")
    size = t.random.randint(400, 3000)
    ws, log = logged([harness.user_message(f"Read {word(t)}.txt."),
                      lab.reply(lab.call("read", {"path": "big.txt"}, id="c1")),
                      {"role": "toolResult", "tool_call_id": "c1", "tool_name": "read",
                       "content": "x" * size, "is_error": False}])
    model = lab.ScriptedModel([lab.say("Never asked.")])
    budget = t.random.randint(1, size // 4)
    t.expect([await settle(harness.compact(log, model, keep_recent_tokens=budget)),
              len(model.calls), len(log.entries())], [False, 0, 3],
             f"A result of {size} characters spends a budget of {budget} by itself, and the cut "
             "steps past it, after the last row: it would keep nothing, so no compaction "
             "(compact, lesson 12).")


@lab_test("Below the threshold maybe_compact returns False and asks no model. Above it, it "
          "returns True, the harness holds what the log replays, and the next request opens "
          "with the summary and is valid.")
async def test_maybe_compact(t):
    steps = t.random.randint(3, 5)
    pairs, costs = drawn_steps(t, steps)
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    model = lab.ScriptedModel([lab.say(a) for _, a in pairs] +
                              [lab.say(said) for said in ("Next step done.", "Steered.",
                                                          "Followed up.", "More.")])
    h = harness.Harness(model, SYSTEM, [])
    h.subscribe(harness.persist_to(log))
    for question, _ in pairs:
        await lab.drive(h.prompt(question))
    estimate = len("\n".join(f"user: {q}\nassistant: {a}" for q, a in pairs)) // 4
    reserve, summary = t.random.randint(1, 300), f"Steps 1 to {steps - 1}: {word(t)}."
    error = f"{word(t)} overloaded"
    summariser = lab.ScriptedModel([lab.fail(error), lab.say(summary)])
    roomy = estimate + reserve + t.random.randint(0, 500)
    room = await settle(harness.maybe_compact(h, log, summariser, window=roomy, reserve=reserve,
                                              keep_recent_tokens=sum(costs[-2:])))
    t.expect([room, len(summariser.calls), lab.shape(h.messages)],
             [False, 0, " ".join(["U A"] * steps)],
             f"About {estimate} tokens and a reserve of {reserve} against a window of {roomy}: "
             "there is room, so nothing happens (maybe_compact, lesson 12).")
    tight = estimate + reserve - t.random.randint(1, 100)
    failed = await settle(harness.maybe_compact(h, log, summariser, window=tight,
                                                reserve=reserve,
                                                keep_recent_tokens=sum(costs[-2:])))
    t.expect([failed, len(summariser.calls), lab.shape(h.messages), len(log.entries())],
             [False, 1, " ".join(["U A"] * steps), 2 * steps],
             f"Over the threshold, a window of {tight}, but the summariser failed with "
             f"{error!r}: compact returned False, so maybe_compact returns whether it compacted, "
             "False, and the harness keeps its record. Items: [maybe_compact's answer, summary "
             "requests, the record, the log's entries] (maybe_compact, lesson 12).")
    done = await settle(harness.maybe_compact(h, log, summariser, window=tight, reserve=reserve,
                                              keep_recent_tokens=sum(costs[-2:])))
    t.expect([done, len(summariser.calls), lab.shape(h.messages), list(h.messages) == log.replay()],
             [True, 2, "U U A", True],
             f"Over the threshold, a window of {tight}: compacted, and the harness now holds "
             "what the log replays (maybe_compact and Harness.replace_messages, lesson 12).")
    asked = f"Step {steps + 1}: {word(t)}."
    await lab.drive(h.prompt(asked))
    sent = model.calls[-1].messages
    t.expect([lab.shape(sent), sent[0]["content"], sent[1]["content"], sent[-1]["content"],
              lab.validate(sent)],
             ["U U A U", HEAD + summary, pairs[-1][0], asked, []],
             "The next request opens with the summary, as a user message, then the last step "
             "kept word for word and the new question, and is valid (lesson 12).")
    t.expect([len(log.entries()), lab.shape(log.replay())], [2 * steps + 3, "U U A U A"],
             "Compaction deletes nothing: the log kept every line and goes on growing "
             "(lesson 12).")
    # the same harness over the threshold again, with a steer and a follow-up queued: it
    # compacts again, and the queued words wait for the next run
    steer, follow = f"Also {word(t)}.", f"Then {word(t)}."
    h.steer(steer)
    h.follow_up(follow)
    again = lab.ScriptedModel([lab.say(f"Steps 1 to {steps}: {word(t)}.")])
    last = harness.estimate_tokens(h.messages[-2:])
    done = await settle(harness.maybe_compact(h, log, again, window=0, reserve=reserve,
                                              keep_recent_tokens=last))
    await lab.drive(h.prompt(f"Step {steps + 2}."))
    t.expect([done, len(again.calls), list(h.messages[:3]) == log.replay()[:3],
              lab.shape(h.messages), [m["content"] for m in h.messages if m["role"] == "user"]],
             why="The same harness, after that compaction and one more step, over the threshold "
                 f"again (a window of 0), with a steer, {steer!r}, and a follow-up, {follow!r}, "
                 "queued, then one more run. Items: [maybe_compact's answer, summary requests, "
                 "the record opens with what the log replayed, the record's shape after the "
                 "run, its user messages]. Each call over the threshold compacts, however "
                 "often the harness was compacted before, and maybe_compact replaces the record "
                 "and nothing else: queues outlive it, and a message leaves its queue only once "
                 "it is on the record (maybe_compact, lesson 12; the queues, lesson 9).")
    # a record whose last reply failed, empty, as a refused request leaves it: the harness is
    # handed what the log replays, that reply included, not the request's view of it
    record = chat(*pairs[:2]) + [harness.user_message(asked), lab.fail(f"{word(t)} overloaded")]
    _, log = log_of(log_text([{"type": "message", "message": m} for m in record]))
    held = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=record)
    done = await settle(harness.maybe_compact(held, log, lab.ScriptedModel([lab.say(summary)]),
                                              window=0, reserve=0, keep_recent_tokens=1))
    t.expect([done, lab.shape(held.messages), list(held.messages) == log.replay()],
             [True, lab.shape(log.replay()), True],
             f"A record of {lab.shape(record)}, its last reply failed and empty, also the log's, "
             "compacted to keep the least (a window of 0, keep_recent_tokens 1). Items: "
             "[maybe_compact's answer, lab.shape of the record, the record is what the log "
             "replays]: the harness holds what the log now replays, the failed reply included; "
             "leaving it out is the request's business, done afresh for every request "
             "(maybe_compact, lesson 12, Build item 6).")
    # a long day of sessions: a fresh harness over a fresh log, each over a window of 0, well
    # over a hundred of them in the one process; every one compacts
    sessions = t.random.randint(120, 160)
    many = lab.ScriptedModel([lab.say(f"Summary {n}.") for n in range(sessions)])
    answers = []
    for n in range(sessions):
        two = chat((f"Look at {n}.py.", "Looked."), (f"Fix {n}.py.", "Fixed."))
        _, log = log_of(log_text([{"type": "message", "message": m} for m in two]))
        fresh = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=two)
        last_turn = sum(harness.estimate_tokens([m]) for m in two[2:])
        answers.append(await settle(harness.maybe_compact(fresh, log, many, window=0, reserve=0,
                                                          keep_recent_tokens=last_turn)))
        if n % 40 == 39:
            await lab.tick()
    t.expect([answers.count(True), len(answers), len(many.calls), lab.shape(fresh.messages)],
             [sessions, sessions, sessions, "U U A"],
             f"{sessions} sessions one after the other, each a fresh harness whose record is "
             f"{lab.shape(two)} over a fresh log of it, and maybe_compact with a window of 0, "
             "which every record is over. Items: [how many compacted, how many calls, summary "
             "requests, the last record's lab.shape]: it compacts whenever the estimate plus "
             "reserve is over the window, however many compactions came before it, in this "
             "harness or any other (maybe_compact, lesson 12, Build item 6).")


@lab_test("During a run, maybe_compact raises RuntimeError(\"cannot compact during a run\") and "
          "replace_messages raises RuntimeError(\"cannot replace messages during a run\"), and the "
          "run carries on untouched.")
async def test_nothing_replaces_the_transcript_mid_run(t):
    steps = t.random.randint(2, 5)
    pairs, costs = drawn_steps(t, steps)
    ws, log = logged(chat(*pairs))
    answer = f"Done {word(t)}."
    model = lab.ScriptedModel([lab.say(answer), lab.say("Steered."), lab.say("Followed up.")])
    h = harness.Harness(model, SYSTEM, [], messages=log.replay())
    summariser = lab.ScriptedModel([lab.say("Never asked.")])
    tried = []

    async def during(event):
        if event["type"] == "turn_start":
            # a window with no room left, and one with room to spare: a run refuses both, so
            # the running check comes before the threshold
            for window in (t.random.randint(1, 10), t.random.randint(10**6, 10**7)):
                tried.append(await raised(lambda window=window: harness.maybe_compact(
                    h, log, summariser, window=window, reserve=10,
                    keep_recent_tokens=sum(costs[-2:]))))
            tried.append(await raised(lambda: h.replace_messages([])))
    run = h.prompt(f"Step {steps + 1}.")  # held on to after it finishes, as a caller may
    await lab.drive(run, on_event=during)
    t.expect(tried, ["RuntimeError: cannot compact during a run"] * 2 +
             ["RuntimeError: cannot replace messages during a run"],
             "The transcript belongs to the run while it runs, whether or not the window has "
             "room: maybe_compact looks at the run before the threshold. Items: maybe_compact "
             "with no room, with room to spare, then replace_messages (maybe_compact and "
             "Harness.replace_messages, lesson 12).")
    t.expect([lab.shape(h.messages), harness.text_of(h.messages[-1]), len(summariser.calls),
              len(log.entries())],
             [" ".join(["U A"] * (steps + 1)), answer, 0, 2 * steps],
             f"Nothing was summarised or replaced, and the run finished with its answer, "
             f"{answer!r}, after the {steps} steps before it (lesson 12).")
    keep = t.random.randint(1, 2 * steps)
    given = log.replay()[:keep]
    steer, follow = f"Also {word(t)}.", f"Then {word(t)}."
    h.steer(steer)  # queued between runs, for the next run
    h.follow_up(follow)
    roomy = t.random.randint(10**6, 10**7)
    t.expect([h.is_running,
              await raised(lambda: harness.maybe_compact(h, log, summariser, window=roomy,
                                                         reserve=10, keep_recent_tokens=1)),
              await raised(lambda: h.replace_messages(given))], [False, None, None],
             "The run is over, though the caller still holds it: between runs, and "
             "maybe_compact (with a window of room to spare) and replace_messages are allowed. "
             "What counts is whether a run is going, is_running, not whether someone still "
             "holds a finished one. Items: [is_running, what maybe_compact raised, what "
             "replace_messages raised] (maybe_compact and Harness.replace_messages, lesson 12).")
    given.append(harness.user_message("Added to the caller's list afterwards."))
    odd = log.replay()[1:keep + 1]  # opens with an assistant reply: still a record to hold
    # a call with no result yet, and a result whose call is not there: records as they are
    called = [harness.user_message(f"Read {word(t)}.py."),
              lab.reply(lab.call("read", {"path": f"{word(t)}.py"}, id="c1"))]
    stray = [harness.user_message(f"Read {word(t)}.py."),
             {"role": "toolResult", "tool_call_id": "c9", "tool_name": "read",
              "content": f"{word(t)}", "is_error": False}, lab.say(f"Read {word(t)}.")]
    records = [("a list opening with a reply", odd), ("an unanswered call", called),
               ("a stray result", stray), ("a tuple, another harness's messages",
                harness.Harness(lab.ScriptedModel([]), SYSTEM, [],
                                messages=log.replay()[:keep]).messages), ("an empty list", [])]
    found = []
    for _, record in records:
        h2 = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=chat(*pairs[:1]))
        found.append([await raised(lambda h2=h2, record=record: h2.replace_messages(record)),
                      lab.shape(h2.messages), list(h2.messages) == list(record)])
    t.expect(found,
             why="Between runs, replace_messages given, on a fresh harness each that holds "
                 "one turn, "
                 + ", ".join(f"{name} ({lab.shape(record)})" for name, record in records) +
                 ". Items: [what it raised, the record's shape afterwards, whether the record "
                 "is the messages given] for each. Between runs the record becomes the "
                 "messages given, whatever they are and whatever holds them, none included, as "
                 "in __init__: "
                 "refusing during a run is its only refusal, and it repairs nothing (the view "
                 "does that for each request, lesson 10) (Harness.replace_messages, lesson 12, "
                 "Build item 1).")
    t.expect([[m["role"] for m in h.messages], [a is b for a, b in zip(h.messages, given)]],
             [[m["role"] for m in chat(*pairs)][:keep], [True] * keep],
             f"Between runs, replace_messages is allowed: the record is now the log's first "
             f"{keep} messages, in a list of the harness's own, so a message the caller adds "
             "to its list afterwards is not in it, and the messages in it are the very dicts "
             "it was given, shared as in __init__, not copies. Items: [the record's roles, "
             "whether each message is the one given] (Harness.replace_messages, lesson 12).")
    # a caller's list of thousands of messages: the harness's list is still its own
    many = [harness.user_message("Go on."), lab.say("Done.")] * t.random.randint(2600, 3500)
    h3 = harness.Harness(lab.ScriptedModel([]), SYSTEM, [])
    h3.replace_messages(many)
    held = len(many)
    many.append(harness.user_message("Added to the caller's long list afterwards."))
    t.expect([len(h3.messages), h3.messages is many, h3.messages[0] is many[0]], [held, False, True],
             f"replace_messages given a caller's list of {held} messages, which the caller "
             "then adds one more to: the record is a list of the harness's own however long "
             "the list given, so it still holds the messages given and not the one added "
             "after, the messages shared. Items: [the record's length, whether it is the "
             "caller's list, whether its first message is the one given] "
             "(Harness.replace_messages, lesson 12, Build item 1).")
    asked = f"Step {steps + 2}."
    await lab.drive(h.prompt(asked))
    t.expect([lab.shape(h.messages[keep:]), [m["content"] for m in h.messages[keep:]
                                             if m["role"] == "user"]],
             ["U U A U A", [asked, steer, follow]],
             f"A steer, {steer!r}, and a follow-up, {follow!r}, queued before replace_messages "
             "are still queued after it: it replaces the record and nothing else, since queues "
             "outlive runs and a message leaves its queue only once it is on the record "
             "(lesson 9). The next run takes both. Items: [what the run added, its user "
             "messages] (Harness.replace_messages, lesson 12).")


def drawn_turns(t, turns, *, calls_each_turn=False):
    """`turns` turns drawn under the seed, as (message, render() line) pairs: a question, 0 to 2
    (1 to 3 with calls_each_turn) rounds of a look call and its result, and an answer, each of
    words of a drawn length."""
    made = []
    for n in range(1, turns + 1):
        question, answer = f"Question {n}: " + "q" * t.random.randint(0, 100), \
            f"Answer {n}: " + "a" * t.random.randint(0, 120)
        made.append((harness.user_message(question), "user: " + question))
        for k in range(t.random.randint(1, 3) if calls_each_turn else t.random.randint(0, 2)):
            call_id, path, text = f"c{n}{k}", "p" * t.random.randint(1, 30) + ".py", \
                "r" * t.random.randint(1, 300)
            made += [(lab.reply(lab.call("look", {"path": path}, id=call_id)),
                      f"assistant:  look({json.dumps({'path': path})})"),
                     ({"role": "toolResult", "tool_call_id": call_id, "tool_name": "look",
                       "content": text, "is_error": False}, "toolResult: " + text)]
        made.append((lab.say(answer), "assistant: " + answer))
    return made


def drawn_logs(t):
    """Three logs as (entries, rows): entries in lesson 11's and 12's format without their ids,
    which count e1, e2, ... in order; rows the (id, message, render() line) the log replays.
    One of drawn turns; one long turn of calls; and one compacted once already, at a drawn
    turn, with more turns after it, so its rows open with the earlier summary."""
    logs = []
    for made in (drawn_turns(t, t.random.randint(2, 4)), drawn_turns(t, 1, calls_each_turn=True)):
        logs.append(([{"type": "message", "message": m} for m, _ in made],
                     [(f"e{i}", m, text) for i, (m, text) in enumerate(made, 1)]))
    before, after = drawn_turns(t, t.random.randint(2, 3)), drawn_turns(t, 1)
    kept = t.random.choice([i for i, (m, _) in enumerate(before) if m["role"] == "user"][1:])
    summary = "Earlier: " + "s" * t.random.randint(0, 200)
    entries = [{"type": "message", "message": m} for m, _ in before] + \
        [{"type": "compaction", "summary": summary, "first_kept_id": f"e{kept + 1}"}] + \
        [{"type": "message", "message": m} for m, _ in after]
    rows = [(f"e{len(before) + 1}", harness.user_message(HEAD + summary),
             "user: " + HEAD[:-1] + " " + summary)] + \
        [(f"e{i}", m, text) for i, (m, text) in enumerate(before, 1)][kept:] + \
        [(f"e{i}", m, text) for i, (m, text) in enumerate(after, len(before) + 2)]
    return logs + [(entries, rows)]


def log_text(entries):
    """A log file's text holding `entries`, numbered e1, e2, ..."""
    return "".join(json.dumps({"id": f"e{i}", **entry}) + "\n"
                   for i, entry in enumerate(entries, 1))


def log_of(text):
    """A workspace whose log file is `text`, and the log."""
    ws = lab.Workspace({FILE: text})
    return ws, harness.SessionLog(ws, FILE)


def compacted(rows, cut, new_id):
    """What compact leaves when it cuts `rows` at `cut`: [returned, the conversation the
    summariser was sent, the ids of the rows afterwards, their messages are the summary and then
    the kept messages]."""
    if not 0 < cut < len(rows):
        return [False, None, [key for key, _, _ in rows], True]
    return [True, "<conversation>\n" + "\n".join(text for _, _, text in rows[:cut]) +
            "\n</conversation>", [new_id] + [key for key, _, _ in rows[cut:]], True]


@lab_test("Over logs of drawn turns and sizes, one compacted already, compact cuts where find_cut "
          "says for budgets at every boundary, and each row is summarised or kept, never both "
          "and never lost: the summariser is sent exactly the rows before the cut, and replay() "
          "is the summary, then exactly the rows from the cut on.")
async def test_compact_summarises_or_keeps_each_row(t):
    for entries, rows in drawn_logs(t):
        sizes = [len(text) // 4 for _, _, text in rows]
        suffix = [sum(sizes[i:]) for i in range(len(sizes))]
        i = t.random.randrange(2, len(rows))
        budgets = [suffix[1], suffix[i], suffix[i] + 1,
                   t.random.choice([suffix[0], t.random.randint(1, sizes[-1])])]
        found, cuts, new_id, text = [], [], f"e{len(entries) + 1}", log_text(entries)
        for budget in budgets:
            _, log = log_of(text)
            # a summary longer than the whole log: still a summary
            summary = f"Summary for {budget}. " + "s" * t.random.randint(len(text), 2 * len(text))
            model = lab.ScriptedModel([lab.say(summary)])
            cuts.append(harness.find_cut([(key, m) for key, m, _ in rows], budget))
            done = await settle(harness.compact(log, model, keep_recent_tokens=budget))
            head = [harness.user_message(HEAD + summary)] if done else []
            after, kept = log.rows(), [m for _, m, _ in rows[cuts[-1] if done else 0:]]
            found.append([done, model.calls[0].messages[0]["content"] if model.calls else None,
                          [key for key, _ in after], [m for _, m in after] == head + kept])
        t.expect(found, [compacted(rows, cut, new_id) for cut in cuts],
                 f"A log whose rows are {[key for key, _, _ in rows]} "
                 f"({lab.shape([m for _, m, _ in rows])}), costing {sizes} tokens, compacted "
                 f"with keep_recent_tokens {budgets}, each on a fresh copy. Each item is "
                 "[compact's answer, the conversation sent to the summariser, the ids of the "
                 "rows afterwards, their messages are the summary and then the kept messages]. "
                 "Each summary is longer than the whole log, and is kept all the same. "
                 "The rows before find_cut's cut are summarised and the rows from it on are kept "
                 "word for word; a cut at 0 or at the end summarises nothing (compact and "
                 "SessionLog.rows, lesson 12).")
    # another writer compacts the same file while the summary is being asked for: the first
    # kept id is the one of the row at the cut in the reading that was summarised
    made = drawn_turns(t, 4)
    users = [i for i, (m, _) in enumerate(made) if m["role"] == "user"]
    ws, log = log_of(log_text([{"type": "message", "message": m} for m, _ in made]))
    other = harness.SessionLog(ws, FILE)

    def meanwhile(request):
        other.append_compaction("Another writer's summary.", f"e{users[1] + 1}")
        return lab.say("Our summary.")
    done = await settle(harness.compact(log, lab.ScriptedModel([lab.forever(meanwhile)]),
                                        keep_recent_tokens=sum(len(x) // 4 for _, x
                                                               in made[users[-1]:])))
    t.expect([done, log.entries()[-1].get("first_kept_id"), [key for key, _ in log.rows()],
              lab.shape(log.replay())],
             why=f"A log of four turns, {lab.shape([m for m, _ in made])}, compacted to keep the "
                 "last turn by a summariser that, while it answers, has another writer append "
                 f"a compaction keeping from e{users[1] + 1}. Items: [compact's answer, the "
                 "first_kept_id of the entry it appended, the ids of rows() afterwards, the "
                 "replay's shape]. The first kept id is the id of the row at the cut in the "
                 "reading that was summarised, not of the row at that index in a later reading "
                 "(compact, lesson 12, Build item 5).")
    # another writer compacts the same file just after compact's first reading of it: what is
    # summarised is that reading's rows, whatever a later reading would give
    ws, log = log_of(log_text([{"type": "message", "message": m} for m, _ in made]))
    other, reading = harness.SessionLog(ws, FILE), ws.read_text

    def read_then_write(path):
        as_read = reading(path)
        ws.read_text = reading  # once
        other.append_compaction("Another writer's summary.", f"e{users[1] + 1}")
        return as_read
    ws.read_text = read_then_write
    model = lab.ScriptedModel([lab.say("Our summary.")])
    done = await settle(harness.compact(log, model, keep_recent_tokens=sum(
        len(x) // 4 for _, x in made[users[-1]:])))
    t.expect([done, [call.messages for call in model.calls], [key for key, _ in log.rows()]],
             why=f"The same four-turn log, {lab.shape([m for m, _ in made])}, compacted to keep "
                 "the last turn, while another writer appends a compaction keeping from "
                 f"e{users[1] + 1} just after compact's first reading of the file. Items: "
                 "[compact's answer, the messages of each summary request, the ids of rows() "
                 "afterwards]. compact summarises exactly the rows before the cut in the "
                 "reading it cut, and the first kept id is the id of the row at the cut in that "
                 "same reading: a second reading, which the other writer has changed, would "
                 "summarise other rows (compact, lesson 12, Build item 5).")
    # the same log compacted twice, on two fresh copies, by the same model: two summaries
    model = lab.ScriptedModel([lab.say(f"First {word(t)}."), lab.say(f"Second {word(t)}.")])
    asked = []
    for _ in range(2):
        _, log = log_of(log_text([{"type": "message", "message": m} for m, _ in made]))
        asked.append([await settle(harness.compact(log, model, keep_recent_tokens=sum(
            len(x) // 4 for _, x in made[users[-1]:]))), len(model.calls),
            log.replay()[0]["content"]])
    t.expect(asked,
             why="Two fresh copies of the same four-turn log compacted one after the other with "
                 "the same model and budget. Items: [compact's answer, summary requests so far, "
                 "the summary row] for each. Each compaction asks summarize, which makes one "
                 "request of its own and remembers no earlier summary (compact and summarize, "
                 "lesson 12).")
    # a log of two rows, and a long one of drawn length: however few or many rows there are,
    # compact cuts where find_cut says
    short = [harness.user_message(f"Read {word(t)}.py."), lab.say(f"It holds {word(t)}.")]
    many = chat(*drawn_pairs(t, t.random.randint(40, 150)))
    found = []
    for messages, cut in ((short, 1), (many, 2)):
        _, log = log_of(log_text([{"type": "message", "message": m} for m in messages]))
        budget = sum(harness.estimate_tokens([m]) for m in messages[cut:])
        found.append([await settle(harness.compact(log, lab.ScriptedModel(
            [lab.say(f"Summary {word(t)}.")]), keep_recent_tokens=budget)),
            [key for key, _ in log.rows()]])
    n = len(many)
    t.expect(found, [[True, ["e3", "e2"]], [True, [f"e{n + 1}"] + [f"e{i}" for i in
                                                                      range(3, n + 1)]]],
             f"A log of two rows, {lab.shape(short)}, compacted to keep its reply, then one of "
             f"{n} rows, {n // 2} turns, compacted to keep all but its first turn. Items: "
             "[compact's answer, the ids of rows() afterwards] for each: compact cuts where "
             "find_cut says, however few or many rows the log holds, and with a row before the "
             "cut and one from it on, it compacts (compact, lesson 12, Build item 5).")


@lab_test("maybe_compact compacts only when estimate_tokens of the record plus reserve is over "
          "the window: with the window drawn one token over, exactly at and one token under "
          "that sum, and reserve 0 or drawn, only a sum over the window compacts.")
async def test_maybe_compact_at_the_threshold(t):
    # the record opens with a turn whose reply failed, empty, as a refused request leaves it:
    # the record holds it (the request's view would leave it out), so it is measured and
    # summarised with the rest
    asked = f"Question 0: {word(t)}?"
    made = [(harness.user_message(asked), "user: " + asked),
            (lab.fail(f"{word(t)} overloaded"), "assistant: ")] + \
        drawn_turns(t, t.random.randint(3, 5))
    estimate = len("\n".join(text for _, text in made)) // 4
    last_question = max(i for i, (m, _) in enumerate(made) if m["role"] == "user")
    keep = sum(len(text) // 4 for _, text in made[last_question:])
    # the log also holds an earlier turn that the harness was not given: what is measured is
    # the harness's record, not the log
    earlier = [m for m, _ in drawn_turns(t, 1)]
    mine = [m for m, _ in made]
    text = log_text([{"type": "message", "message": m} for m in earlier + mine])
    # a reserve of 0, a drawn one, and a negative one, counted as it is: the sum decides
    found, cases = [], [(reserve, over) for reserve in (0, t.random.randint(1, 400),
                                                        -t.random.randint(1, estimate // 2))
                        for over in (-1, 0, 1)] + [(0, -estimate)]  # the last: a window of 0
    sent = []
    for reserve, over in cases:
        _, log = log_of(text)
        h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=mine)
        summariser = lab.ScriptedModel([lab.say("The earlier questions.")])
        done = await settle(harness.maybe_compact(h, log, summariser,
                                                  window=estimate + reserve + over,
                                                  reserve=reserve, keep_recent_tokens=keep))
        found.append([done, len(summariser.calls), lab.shape(h.messages),
                      list(h.messages) == (log.replay() if done else mine)])
        sent += [call.messages for call in summariser.calls]
    whole = lab.shape(mine)
    tail = "U " + lab.shape(mine[last_question:])
    t.expect(found, [[over < 0, int(over < 0), tail if over < 0 else whole, True]
                     for reserve, over in cases],
             f"A harness whose record is {whole}, estimated at {estimate} tokens, and a log "
             f"that also holds an earlier turn, {lab.shape(earlier)}, which the harness was not "
             "given: it is the harness's messages that are measured, not the log's. With "
             f"(reserve, window - (estimate + reserve)) {cases}, the last a window of 0, which "
             "every record is over; a negative reserve is added as it is, like any other. Each item is [maybe_compact's answer, summary requests, "
             "the record's shape afterwards, the record is what the log replays after a "
             "compaction, or untouched without one]. There is room while the estimate is at "
             "most window - reserve, equal included; one token more and it compacts "
             "(maybe_compact, lesson 12).")
    t.expect(sent[0],
             why="What the summariser was sent when maybe_compact compacted: the rows before the "
                 f"cut as the log holds them, {lab.shape(earlier + mine[:last_question])}, the "
                 "earlier turn and then the record's opening turn with its failed empty reply "
                 "(the A with no words), rendered as they are. compact summarises "
                 "exactly the rows before the cut, not the request's view of them, which would "
                 "leave the failed reply out (compact and summarize, lesson 12).")
    # over the threshold, but the summary fails: the harness keeps the record it had, which
    # is not what the log replays (the log also holds the earlier turn)
    _, log = log_of(text)
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=mine)
    summariser = lab.ScriptedModel([lab.fail(f"{word(t)} overloaded")])
    failed = await settle(harness.maybe_compact(h, log, summariser, window=estimate - 1,
                                                reserve=0, keep_recent_tokens=keep))
    t.expect([failed, len(summariser.calls), lab.shape(h.messages), list(h.messages) == mine,
              len(log.entries())],
             why="Over the threshold, a window of estimate - 1, but the summariser failed: "
                 "compact returned False, so maybe_compact did not compact, and the harness "
                 "keeps the very record it had. The log's replay, which also holds the earlier "
                 "turn, is handed over only when it has compacted. Items: [maybe_compact's "
                 "answer, summary requests, the record's shape, the record is the one it had, "
                 "the log's entries] (maybe_compact, lesson 12).")
    # a long record of short messages, with room in the window: the estimate decides, not
    # how many messages there are (a turn of the loop first: the long cases below each get
    # their own, so no stretch of this test runs long without one)
    await lab.tick()
    many = chat(*[(f"{word(t)}?", f"{word(t)}.") for _ in range(t.random.randint(1050, 1300))])
    _, log = log_of(log_text([{"type": "message", "message": m} for m in many]))
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=many)
    summariser = lab.ScriptedModel([lab.say("Many short turns.")])
    at = harness.estimate_tokens(many)
    done = await settle(harness.maybe_compact(h, log, summariser, window=at + 10, reserve=10,
                                              keep_recent_tokens=keep))
    t.expect([done, len(summariser.calls), len(h.messages)], [False, 0, len(many)],
             f"A record of {len(many)} short messages, estimated at {at} tokens, and a window "
             f"of {at + 10} with a reserve of 10: the estimate plus the reserve is exactly the "
             "window, not over it, so nothing happens, however many messages there are. "
             "maybe_compact compacts only on the estimate of tokens, never on a count of "
             "messages (maybe_compact, lesson 12).")
    # a budget that keeps all but the first turn: the cut is at the second question
    all_but_one = sum(harness.estimate_tokens([m]) for m in many[2:])
    over = await settle(harness.maybe_compact(h, log, summariser, window=at + 9, reserve=10,
                                              keep_recent_tokens=all_but_one))
    t.expect([over, len(summariser.calls), lab.shape(h.messages[:1]), len(h.messages) < len(many),
              len(h.messages)],
             why=f"The same record of {len(many)} short messages, estimated at {at} tokens, with "
                 f"a window of {at + 9} and a reserve of 10: one token over, and a "
                 f"keep_recent_tokens of {all_but_one}, what every row but the first turn's two "
                 "costs. Items: [maybe_compact's answer, summary requests, the record's first "
                 "message, the record is shorter, its length]. estimate_tokens of the harness's "
                 "messages is of all of them, however many there are, so one token over the "
                 "window compacts, however many messages the record holds; and compact cuts the log's "
                 "rows where find_cut says, however "
                 "many there are: the first turn is summarised, every other row kept "
                 "(maybe_compact and compact, lesson 12, Build items 5 and 6).")
    compacted_h, compacted_log = h, log  # for a second call, after the next case
    # a record the log is behind on: its last turn was never saved
    _, log = log_of(log_text([{"type": "message", "message": m} for m in mine[:last_question]]))
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=mine)
    summariser = lab.ScriptedModel([lab.say("The saved questions.")])
    try:
        done = await settle(harness.maybe_compact(h, log, summariser, window=estimate - 1,
                                                  reserve=0, keep_recent_tokens=1))
    except Exception as error:
        done = f"raised {type(error).__name__}"
    t.expect([done, len(summariser.calls), lab.shape(h.messages), list(h.messages) == log.replay()],
             why=f"A harness whose record is {whole} and a log that lacks its last turn, "
                 f"{lab.shape(mine[:last_question])}, over the threshold. Items: "
                 "[maybe_compact's answer, summary requests, the record's shape afterwards, the "
                 "record is what the log now replays, message for message]. When it has "
                 "compacted, the harness holds what the log replays, not a tail of its own "
                 "record. "
                 "maybe_compact does not compare the record with the log: it measures the one "
                 "and compacts the other, and keeping them in step (persist_to) is the caller's "
                 "business (maybe_compact, lesson 12, Build item 6).")
    # a record of a single message, over a window of 0, and a log of many more rows: it
    # compacts, and the harness is handed the replay, longer than the record it held
    _, log = log_of(text)
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=[mine[last_question]])
    summariser = lab.ScriptedModel([lab.say("All but the last question.")])
    done = await settle(harness.maybe_compact(h, log, summariser, window=0, reserve=0,
                                              keep_recent_tokens=keep))
    t.expect([done, len(summariser.calls), lab.shape(h.messages), list(h.messages) == log.replay()],
             why="A harness whose record is a single message, the last question, a window of 0, "
                 f"which every record is over, and the log of {lab.shape(earlier + mine)}. "
                 "Items: [maybe_compact's answer, summary requests, the record's shape "
                 "afterwards, the record is what the log now replays]. It compacts whenever the "
                 "estimate plus reserve is over the window, however few messages the record "
                 "holds, and then the harness holds what the log replays, here more messages "
                 "than the record it had: it does not compare the record with the log "
                 "(maybe_compact, lesson 12, Build item 6).")
    # an empty record, a reserve over the window: 0 tokens plus the reserve is over it
    _, log = log_of(text)
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [])
    summariser = lab.ScriptedModel([lab.say("Everything before the last question.")])
    spare = t.random.randint(1, 50)
    done = await settle(harness.maybe_compact(h, log, summariser, window=spare - 1,
                                              reserve=spare, keep_recent_tokens=keep))
    t.expect([done, len(summariser.calls), lab.shape(h.messages), list(h.messages) == log.replay()],
             why=f"A harness whose record is empty, a reserve of {spare} and a window of "
                 f"{spare - 1}, and the log of {lab.shape(earlier + mine)}. Items: "
                 "[maybe_compact's answer, summary requests, the record's shape afterwards, the "
                 "record is what the log now replays]. estimate_tokens of no messages is 0, and "
                 "0 plus the reserve is over the window, so it compacts, however few messages "
                 "the record holds, none included (maybe_compact, lesson 12, Build item 6).")
    await lab.tick()
    # the many short messages' harness again, its record as the compaction left it, window 0
    h, log = compacted_h, compacted_log
    summariser = lab.ScriptedModel([lab.say("The short turns again.")])
    size = len(h.messages)
    again = await settle(harness.maybe_compact(h, log, summariser, window=0, reserve=0,
                                               keep_recent_tokens=1))
    lines = summariser.calls[0].messages[0]["content"].split("\n") if summariser.calls else []
    t.expect([again, len(summariser.calls), size, lab.shape(h.messages[:1]),
              list(h.messages) == log.replay(), len(lines) - 2, lines[1:2]],
             why=f"The harness of many short messages, its record as the compaction one token "
                 f"over left it ({size} messages) and unchanged since, maybe_compact called "
                 "again with a window of 0, which every record is over, and a "
                 "keep_recent_tokens of 1. Items: [maybe_compact's answer, summary requests, "
                 "the record's length before, the record's first message, the record is what the log "
                 "replays, the lines the summariser was sent between the tags, the first of "
                 "them]. It compacts whenever the estimate of the harness's messages plus "
                 "reserve is over the window, whatever it did before and however long the "
                 "record was then; and compact sends the summariser every row before the cut, "
                 "the earlier summary first, however many there are (maybe_compact and "
                 "compact, lesson 12, Build items 5 and 6).")
    # a record measured, then replaced between runs by one of as many messages that costs more
    _, log = log_of(text)
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=mine)
    summariser = lab.ScriptedModel([lab.say("The longer questions.")])
    heavier = [harness.user_message(mine[0]["content"] + " " + "w" * t.random.randint(400, 800)),
               *mine[1:]]
    answers = []
    for record in (mine, heavier):
        h.replace_messages(record)
        answers.append(await settle(harness.maybe_compact(h, log, summariser, window=estimate,
                                                          reserve=0, keep_recent_tokens=keep)))
    t.expect([answers, len(summariser.calls), len(mine) == len(heavier)],
             why=f"One harness measured twice with a window of {estimate} and no reserve: its "
                 f"record {whole}, estimated at exactly {estimate} tokens, then, replaced "
                 "between runs, a record of as many messages whose first question is hundreds "
                 "of characters longer. Items: [maybe_compact's answer each time, summary "
                 "requests, whether the two records are as long]. Each call measures "
                 "estimate_tokens of the messages the harness holds then, not an estimate kept "
                 "from an earlier record (maybe_compact, lesson 12, Build item 6).")
    await lab.tick()
    # thousands of short messages after one long question, and the small log: the estimate
    # is of every message of the record, the oldest among thousands included
    question = harness.user_message(f"Read this, {word(t)}: " + "p" * t.random.randint(400, 800))
    record = [question] + [harness.user_message("Go on."), lab.say("Done.")] * \
        t.random.randint(5001, 6000)
    at = harness.estimate_tokens(record)
    _, log = log_of(text)
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=record)
    summariser = lab.ScriptedModel([lab.say("The long question.")])
    done = await settle(harness.maybe_compact(h, log, summariser, window=at - 1, reserve=0,
                                              keep_recent_tokens=keep))
    t.expect([done, len(summariser.calls), list(h.messages) == log.replay()], [True, 1, True],
             f"A record of {len(record)} messages, a question of hundreds of characters and "
             f"then short turns, estimated at {at} tokens, a window of {at - 1} and no reserve: "
             "one token over. Items: [maybe_compact's answer, summary requests, the record is "
             "what the log replays]. estimate_tokens of the harness's messages is of all of "
             "them, however many there are, the oldest included, so it compacts, however many "
             "messages the record holds (maybe_compact, lesson 12, Build item 6).")
