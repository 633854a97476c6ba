"""Lesson 12, lab 2: summarise and keep. The tests of summarize, the compaction entry, compact,
maybe_compact and Harness.replace_messages: old turns become a summary, recent ones are kept
word for word, and the log deletes nothing.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 12 tests.py
"""
import json

import harness
import lab
from lab.kit import lab_test, raised, settle

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


def long_chat():
    """Four turns whose answers are 200 characters each: about 220 tokens in all."""
    return chat(*[(f"Step {n}.", f"Step {n} done. " + "." * 185) for n in range(1, 5)])


@lab_test("summarize makes one request of its own: the system prompt SUMMARY_SYSTEM, a single "
          "user message holding the rendered conversation inside <conversation> tags, and no "
          "tools. It returns the reply's text, stripped.")
async def test_summarize_sends_one_request(t):
    messages = chat(("Rename app.py to main.py.", "Renamed."), ("Now run the tests.", "2 passed."))
    model = lab.ScriptedModel([lab.say("  Renamed app.py to main.py; the tests pass.\n")])
    summary = await settle(harness.summarize(model, messages))
    t.expect(summary, "Renamed app.py to main.py; the tests pass.",
             "The summary is the reply's text, stripped (summarize, lesson 12).")
    request = model.calls[0]
    t.expect([len(model.calls), request.system == harness.SUMMARY_SYSTEM, request.tools],
             [1, True, []],
             "One request, with the summariser's own system prompt and no tools, so summarising "
             "is all it can do (summarize, lesson 12).")
    t.expect(request.messages,
             [{"role": "user", "content": "<conversation>\nuser: Rename app.py to main.py.\n"
                                          "assistant: Renamed.\nuser: Now run the tests.\n"
                                          "assistant: 2 passed.\n</conversation>"}],
             "The conversation goes in as text, wrapped in tags, inside one user message: not "
             "as a transcript for the model to continue (summarize, lesson 12).")
    t.expect([type(harness.SUMMARY_SYSTEM).__name__, len(harness.SUMMARY_SYSTEM.split()) >= 10,
              harness.SUMMARY_SYSTEM in json.dumps(request.messages)], ["str", True, False],
             "SUMMARY_SYSTEM is a real instruction, sent as the system prompt and not as a "
             "message (summarize, lesson 12).")


@lab_test("When the summariser's reply failed, was stopped, or has no text, summarize raises a "
          "RuntimeError that starts with no summary: and ends with the reason.")
async def test_summarize_refuses_a_bad_reply(t):
    messages = chat(("Hello.", "Hi."))

    async def answer_to(reply):
        """What summarize made of `reply`: the error it raised, or what it returned."""
        model, box = lab.ScriptedModel([reply]), {}

        async def call():
            box["summary"] = await settle(harness.summarize(model, messages))
        error = await raised(call)
        return error if error is not None else f"returned {box['summary']!r}"
    t.expect(await answer_to(lab.fail("overloaded")), "RuntimeError: no summary: overloaded",
             "No summary is better than a wrong one: a failed reply, lab.fail(\"overloaded\"), "
             "raises with its error_message (summarize, lesson 12).")
    t.expect(await answer_to(lab.say("   \n")), "RuntimeError: no summary: the reply was empty",
             "A reply of whitespace only, lab.say(\"   \\n\"), is no summary: strip the text "
             "first, then check that any is left (summarize, lesson 12).")
    t.expect(await answer_to(lab.fail("rate limited", "Partial summ")),
             "RuntimeError: no summary: rate limited",
             "A failed reply that got some words out, lab.fail(\"rate limited\", \"Partial "
             "summ\"), is still a failure (summarize, lesson 12).")
    stopped = {**lab.fail("Operation aborted", "Partial summ"), "stop_reason": "aborted"}
    t.expect(await answer_to(stopped), "RuntimeError: no summary: Operation aborted",
             "A reply that was stopped, stop_reason \"aborted\", is cut short like a failed one, "
             "even with some words in it: no summary (summarize, lesson 12).")


@lab_test("append_compaction writes the entry {id, type compaction, summary, first_kept_id} as one "
          "more line, returns its id, and deletes or changes nothing.")
async def test_append_compaction_writes_one_entry(t):
    ws, log = logged(chat(("Read a.py.", "Read."), ("Read b.py.", "Read.")))
    before = ws.read_text(FILE)
    t.expect(log.append_compaction("Both files read.", "e3"), "e5",
             "A compaction entry is numbered like any other (SessionLog.append_compaction, "
             "lesson 12).")
    text = ws.read_text(FILE)
    t.expect([text.startswith(before), len(text.splitlines()), json.loads(text.splitlines()[-1])],
             [True, 5, {"id": "e5", "type": "compaction", "summary": "Both files read.",
                        "first_kept_id": "e3"}],
             "The old lines are untouched and one line is added (SessionLog.append_compaction, "
             "lesson 12).")
    t.expect([len(log.entries()), [entry["type"] for entry in log.entries()]],
             [5, ["message", "message", "message", "message", "compaction"]],
             "Every message entry is still there (SessionLog, lesson 12).")


@lab_test("After a compaction, replay() is the summary, then the kept messages, then anything "
          "newer; a second compaction treats the first summary as an ordinary row; an unknown "
          "first_kept_id keeps nothing.")
async def test_rows_read_a_compaction_as_a_rule(t):
    ws, log = logged(chat(("Read a.py.", "It has a bug."), ("Fix it.", "Fixed.")))
    first = log.append_compaction("Found and fixed a bug in a.py.", "e3")
    log.append_message(harness.user_message("Run the tests."))
    t.expect([[k for k, _ in log.rows()], lab.shape(log.replay()), log.replay()[0]["content"]],
             [["e5", "e3", "e4", "e6"], "U U A U", HEAD + "Found and fixed a bug in a.py."],
             "The rows before first_kept_id read as one summary row with the compaction's id; "
             "the kept rows and the newer ones follow (SessionLog.rows, lesson 12).")
    log.append_message(lab.say("3 passed."))
    second = log.append_compaction("Fixed a.py; asked for the tests.", "e6")
    said = [harness.text_of(m) if m["role"] == "assistant" else m["content"] for m in log.replay()]
    t.expect([first, second, [k for k, _ in log.rows()], said],
             ["e5", "e8", ["e8", "e6", "e7"],
              [HEAD + "Fixed a.py; asked for the tests.", "Run the tests.", "3 passed."]],
             "A second compaction summarises the first summary away like any other row "
             "(SessionLog.rows, lesson 12).")
    log.append_compaction("Everything so far.", "e99")
    t.expect([[k for k, _ in log.rows()], len(log.entries())], [["e9"], 9],
             "An id that is not among the rows keeps no rows; still nothing is deleted "
             "(SessionLog.rows, lesson 12).")


@lab_test("compact returns False and appends nothing when there is nothing before the cut, "
          "nothing after it, or the summary fails; otherwise it appends one compaction entry and "
          "returns True.")
async def test_compact_gives_up_quietly(t):
    ws, log = logged(long_chat())
    model = lab.ScriptedModel([lab.fail("overloaded"), lab.say("Steps 1 to 3 are done.")])
    before = ws.read_text(FILE)
    fits = await settle(harness.compact(log, model, keep_recent_tokens=10_000))
    t.expect([fits, len(model.calls), ws.read_text(FILE) == before], [False, 0, True],
             "Everything fits: nothing to summarise, no request (compact, lesson 12).")
    failed = await settle(harness.compact(log, model, keep_recent_tokens=60))
    t.expect([failed, len(model.calls), ws.read_text(FILE) == before], [False, 1, True],
             "A failed summary costs the user nothing: False, and the log unchanged (compact, "
             "lesson 12).")
    done = await settle(harness.compact(log, model, keep_recent_tokens=60))
    t.expect([done, len(model.calls), lab.shape(log.replay()), len(log.entries()),
              log.entries()[-1].get("first_kept_id")],
             [True, 2, "U U A", 9, "e7"],
             "compact appends one compaction entry and deletes nothing: the eight message lines "
             "stay, and replay() is a summary of steps 1 to 3, then step 4 kept word for word "
             "(compact, lesson 12).")
    ws, log = logged([harness.user_message("Read big.txt."),
                      lab.reply(lab.call("read", {"path": "big.txt"}, id="c1")),
                      {"role": "toolResult", "tool_call_id": "c1", "tool_name": "read",
                       "content": "x" * 2000, "is_error": False}])
    model = lab.ScriptedModel([lab.say("Never asked.")])
    t.expect([await settle(harness.compact(log, model, keep_recent_tokens=100)), len(model.calls),
              len(log.entries())], [False, 0, 3],
             "A cut after the last row would keep nothing: no compaction (compact, lesson 12).")


@lab_test("Below the threshold maybe_compact returns False and asks no model. Above it, it "
          "returns True, the harness holds what the log replays, and the next request opens "
          "with the summary and is valid.")
async def test_maybe_compact(t):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, FILE)
    answers = [m for m in long_chat() if m["role"] == "assistant"]
    model = lab.ScriptedModel(answers + [lab.say("Step 5 done.")])
    h = harness.Harness(model, SYSTEM, [])
    h.subscribe(harness.persist_to(log))
    for n in range(1, 5):
        await lab.drive(h.prompt(f"Step {n}."))
    summariser = lab.ScriptedModel([lab.say("Steps 1 to 3 are done.")])
    room = await settle(harness.maybe_compact(h, log, summariser, window=1000, reserve=200,
                                              keep_recent_tokens=60))
    t.expect([room, len(summariser.calls), lab.shape(h.messages)], [False, 0, "U A U A U A U A"],
             "About 220 tokens against a threshold of 800: there is room, so nothing happens "
             "(maybe_compact, lesson 12).")
    done = await settle(harness.maybe_compact(h, log, summariser, window=300, reserve=100,
                                              keep_recent_tokens=60))
    t.expect([done, len(summariser.calls), lab.shape(h.messages), list(h.messages) == log.replay()],
             [True, 1, "U U A", True],
             "Over the threshold: compacted, and the harness now holds what the log replays "
             "(maybe_compact and Harness.replace_messages, lesson 12).")
    await lab.drive(h.prompt("Step 5."))
    sent = model.calls[-1].messages
    t.expect([lab.shape(sent), sent[0]["content"], lab.validate(sent)],
             ["U U A U", HEAD + "Steps 1 to 3 are done.", []],
             "The next request opens with the summary, as a user message, and is valid "
             "(lesson 12).")
    t.expect([len(log.entries()), lab.shape(log.replay())], [11, "U U A U A"],
             "Compaction deletes nothing: the log kept every line and goes on growing "
             "(lesson 12).")


@lab_test("During a run, maybe_compact raises RuntimeError(\"cannot compact during a run\") and "
          "replace_messages raises RuntimeError(\"cannot replace messages during a run\"), and the "
          "run carries on untouched.")
async def test_nothing_replaces_the_transcript_mid_run(t):
    ws, log = logged(long_chat())
    model = lab.ScriptedModel([lab.say("Step 5 done.")])
    h = harness.Harness(model, SYSTEM, [], messages=log.replay())
    summariser = lab.ScriptedModel([lab.say("Never asked.")])
    tried = []

    async def during(event):
        if event["type"] == "turn_start":
            tried.append(await raised(lambda: harness.maybe_compact(
                h, log, summariser, window=100, reserve=10, keep_recent_tokens=60)))
            tried.append(await raised(lambda: h.replace_messages([])))
    await lab.drive(h.prompt("Step 5."), on_event=during)
    t.expect(tried, ["RuntimeError: cannot compact during a run",
                     "RuntimeError: cannot replace messages during a run"],
             "The transcript belongs to the run while it runs (maybe_compact and "
             "Harness.replace_messages, lesson 12).")
    t.expect([lab.shape(h.messages), len(summariser.calls), len(log.entries())],
             ["U A U A U A U A U A", 0, 8],
             "Nothing was summarised or replaced, and the run finished (lesson 12).")
    h.replace_messages(log.replay()[:2])
    t.expect(lab.shape(h.messages), "U A", "Between runs, replace_messages is allowed "
                                           "(Harness.replace_messages, lesson 12).")


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


def compacted(rows, cut, summary, new_id):
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
            summary = f"Summary for {budget}."
            model = lab.ScriptedModel([lab.say(summary)])
            cuts.append(harness.find_cut([(key, m) for key, m, _ in rows], budget))
            done = await settle(harness.compact(log, model, keep_recent_tokens=budget))
            head = [harness.user_message(HEAD + summary)] if done else []
            after, kept = log.rows(), [m for _, m, _ in rows[cuts[-1] if done else 0:]]
            found.append([done, model.calls[0].messages[0]["content"] if model.calls else None,
                          [key for key, _ in after], [m for _, m in after] == head + kept])
        t.expect(found, [compacted(rows, cut, f"Summary for {budget}.", new_id)
                         for cut, budget in zip(cuts, budgets)],
                 f"A log whose rows are {[key for key, _, _ in rows]} "
                 f"({lab.shape([m for _, m, _ in rows])}), costing {sizes} tokens, compacted "
                 f"with keep_recent_tokens {budgets}, each on a fresh copy. Each item is "
                 "[compact's answer, the conversation sent to the summariser, the ids of the "
                 "rows afterwards, their messages are the summary and then the kept messages]. "
                 "The rows before find_cut's cut are summarised and the rows from it on are kept "
                 "word for word; a cut at 0 or at the end summarises nothing (compact and "
                 "SessionLog.rows, lesson 12).")


@lab_test("maybe_compact compacts only when estimate_tokens of the record plus reserve is over "
          "the window: with the window drawn one token over, exactly at and one token under "
          "that sum, and reserve 0 or drawn, only a sum over the window compacts.")
async def test_maybe_compact_at_the_threshold(t):
    made = drawn_turns(t, t.random.randint(3, 5))
    estimate = len("\n".join(text for _, text in made)) // 4
    last_question = max(i for i, (m, _) in enumerate(made) if m["role"] == "user")
    keep = sum(len(text) // 4 for _, text in made[last_question:])
    text = log_text([{"type": "message", "message": m} for m, _ in made])
    found, cases = [], [(reserve, over) for reserve in (0, t.random.randint(1, 400))
                        for over in (-1, 0, 1)]
    for reserve, over in cases:
        _, log = log_of(text)
        h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=log.replay())
        summariser = lab.ScriptedModel([lab.say("The earlier questions.")])
        done = await settle(harness.maybe_compact(h, log, summariser,
                                                  window=estimate + reserve + over,
                                                  reserve=reserve, keep_recent_tokens=keep))
        found.append([done, len(summariser.calls), lab.shape(h.messages),
                      list(h.messages) == log.replay()])
    whole = lab.shape([m for m, _ in made])
    tail = "U " + lab.shape([m for m, _ in made[last_question:]])
    t.expect(found, [[over < 0, int(over < 0), tail if over < 0 else whole, True]
                     for reserve, over in cases],
             f"A record of {lab.shape([m for m, _ in made])}, estimated at {estimate} tokens, "
             f"with (reserve, window - (estimate + reserve)) {cases}. Each item is "
             "[maybe_compact's answer, summary requests, the record's shape afterwards, the "
             "record is what the log replays]. There is room while the estimate is at most "
             "window - reserve, equal included; one token more and it compacts (maybe_compact, "
             "lesson 12).")
