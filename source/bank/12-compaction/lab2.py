"""Lab 12.2's grading bank: scenarios for each rule of its ledger (source/lessons/12-compaction/
rules.toml, lab 12.2's items), in the form of the lab's tests.py, which the grader draws a
secret subset of and runs as hidden tests (grader/bank.py). Never released, never shown to a
student: a failed one shows only the sentence of the rule it checks.

Each scenario reaches its rule through another door than the public tests: replace_messages
tried by a listener mid-run and the caller's own list and messages afterwards, seen in the next
request; compaction entries read by another log after the session went on, and a power cut in
compact's write; a harness resumed from a log compacted twice, and a long log compacted near its
end; what the summariser is sent through compact, and bad summaries met through compact;
maybe_compact over a saved session, on a torn log, inside a tool, and between runs of a session
saved only in part; so that the public tests' wanted expressions, evaluated in a bank test's
frame, do not give its values.
"""
import inspect
import json

import harness
import lab
from lab.kit import hours_pass, lab_test, raised, tool

LAB = "12.2"
SYSTEM = "You look after a small repository."
HEAD = "Previous conversation summary:\n"
ANY = {"type": "object"}
WORDS = ("harbor", "lantern", "meadow", "quartz", "saddle", "timber", "violet", "walnut",
         "zephyr", "anchor", "bramble", "cinder")
FOLDED = ["logs/main.jsonl", "runs/2026/s.jsonl", "work/session.jsonl"]


def word(t):
    """A drawn word with a drawn number."""
    return f"{t.random.choice(WORDS)}{t.random.randint(10, 9999)}"


def turns(t, count, longest=120):
    """`count` (question, answer) pairs of drawn words and lengths."""
    return [(f"Q{n} {word(t)} " + "q" * t.random.randint(0, 40),
             f"A{n} {word(t)} " + "a" * t.random.randint(0, longest)) for n in range(count)]


def chat(pairs):
    messages = []
    for question, answer in pairs:
        messages += [harness.user_message(question), lab.say(answer)]
    return messages


def lines_of(pairs):
    """render()'s lines of chat(pairs), written out by hand."""
    return [line for q, a in pairs for line in (f"user: {q}".replace("\n", " "), f"assistant: {a}")]


def cost(lines):
    return len("\n".join(lines)) // 4


def logged(messages, path):
    ws = lab.Workspace()
    log = harness.SessionLog(ws, path)
    for message in messages:
        log.append_message(message)
    return ws, log


def reader():
    return tool("read", lambda arguments: f"text of {arguments.get('path')}", ANY)


# --- rule 1: Harness.replace_messages -----------------------------------------------------------

@lab_test("A listener that tries replace_messages while a tool runs is refused and the run goes "
          "on; a steer the listener queues at the run's end survives a replace_messages between "
          "runs and joins the next prompt.")
async def test_bank_replace_refused_mid_run_and_queues_kept(t):
    pairs = turns(t, t.random.randint(1, 3))
    ws, log = logged(chat(pairs), t.random.choice(FOLDED))
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "main.py"})),
                               lab.say("Read."), lab.say("Both noted.")])
    h = harness.Harness(model, SYSTEM, [reader()], messages=log.replay())
    refused, late = [], f"Also check {word(t)}."

    def listener(event):
        if event["type"] == "tool_execution_start":
            refused.append(raised_now(lambda: h.replace_messages(log.replay()[:1])))
        if event["type"] == "agent_end" and not refused[1:]:
            refused.append("steered")
            h.steer(late)
    h.subscribe(listener)
    run = h.prompt("Read main.py.")  # still held once it is over
    await lab.drive(run)
    first = lab.shape(h.messages)
    h.replace_messages(log.replay())
    asked = f"What next for {word(t)}?"
    await lab.drive(h.prompt(asked))
    base = " ".join(["U A"] * len(pairs))
    t.expect([refused, first, lab.shape(h.messages),
              [m["content"] for m in h.messages if m["role"] == "user"][-2:]],
             [["RuntimeError: cannot replace messages during a run", "steered"],
              base + " U A[c1] R(c1) A", base + " U U A", [asked, late]],
             "Items: [what a listener's replace_messages raised at tool_execution_start, then "
             "its steer at agent_end; lab.shape of the record after that run; lab.shape after "
             "replace_messages(log.replay()) between runs, the first run still held by the "
             "caller, and another prompt; that run's user messages]: during a run "
             "replace_messages changes nothing and raises; between runs, a finished run held or "
             "not, it replaces the record and nothing else, so the queued steer joins the next "
             "prompt (Harness.replace_messages, lessons 9 and 12).")


def raised_now(thunk):
    """What calling thunk() raised, as "Error: words", or None: for a listener, which is plain."""
    try:
        thunk()
    except Exception as error:  # the test reports whatever it was
        return f"{type(error).__name__}: {error}"
    return None


@lab_test("After replace_messages, a change the caller makes to a message it handed in shows in "
          "the next request, and a message it adds to its own list does not.")
async def test_bank_the_caller_edits_after_replacing(t):
    pairs = turns(t, t.random.randint(1, 3))
    ws, log = logged(chat(pairs), t.random.choice(FOLDED))
    model = lab.ScriptedModel([lab.say("Seen.")])
    h = harness.Harness(model, SYSTEM, [])
    given = log.replay()
    h.replace_messages(given)
    edit = f" (edited: {word(t)})"
    given[0]["content"] += edit
    given.append(harness.user_message("Added by the caller afterwards."))
    asked = f"And {word(t)}?"
    await lab.drive(h.prompt(asked))
    sent = model.calls[0].messages
    t.expect([lab.shape(sent), sent[0]["content"], sent[-1]["content"], len(h.messages)],
             [" ".join(["U A"] * len(pairs) + ["U"]), pairs[0][0] + edit, asked,
              2 * len(pairs) + 2],
             "replace_messages was handed a log's replay(); then the caller edited the first "
             "message in its list and appended a message to that list. Items: [lab.shape of the "
             "next request, its first message's content, its last's, the messages on the "
             "record afterwards]: the list becomes the harness's own, the messages shared, as "
             "in __init__ (Harness.replace_messages, lesson 12).")
    tail = log.replay()[1:]  # opens with the assistant's reply
    asking = [harness.user_message(f"Look at {word(t)}."),
              lab.reply(lab.call("read", {"path": f"{word(t)}.py"}, id="k1"))]
    found = []
    for record in (tail, asking, tuple(log.replay()), []):
        other = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=log.replay())
        found.append([raised_now(lambda other=other, record=record: other.replace_messages(
            record)), lab.shape(other.messages)])
    t.expect(found, [[None, lab.shape(tail)], [None, "U A[k1]"],
                     [None, " ".join(["U A"] * len(pairs))], [None, ""]],
             "Between runs, replace_messages handed a log's replay without its first question "
             "(a record that opens with a reply), a question and a call with no result yet, "
             "a log's whole replay as a tuple, and an empty list, each on a harness that held "
             "the replay. Items: [what it raised, lab.shape of the "
             "record afterwards] for each: the record becomes the messages given, whatever "
             "they are and whatever holds them, none included, with nothing repaired; refusing "
             "during a run is its only refusal (Harness.replace_messages, lesson 12).")
    long = [harness.user_message(f"Step {word(t)}."), lab.say("Done.")] * \
        t.random.randint(2501, 4000)
    other = harness.Harness(lab.ScriptedModel([lab.say("Seen.")]), SYSTEM, [])
    other.replace_messages(long)
    held = len(long)
    long.append(harness.user_message("Added by the caller afterwards."))
    await lab.drive(other.prompt(asked))
    t.expect([len(other.messages), other.messages[held]["content"]], [held + 2, asked],
             f"replace_messages handed a caller's list of {held} messages, then the caller "
             "appended one more to its list, then a prompt. Items: [the messages on the record "
             "afterwards, the message after the given ones]: the list becomes the harness's "
             "own however long the list given, so the caller's addition is not on the record "
             "(Harness.replace_messages, lesson 12).")


# --- rule 2: SessionLog.append_compaction ------------------------------------------------------

@lab_test("A compaction appended between two saved sessions is one entry, numbered like any "
          "other, holding the summary exactly as given and the first kept id, as another log "
          "over the file reads it once the session has gone on.")
async def test_bank_a_compaction_between_sessions(t):
    ws, path = lab.Workspace(), t.random.choice(FOLDED)
    log = harness.SessionLog(ws, path)
    first, second = turns(t, t.random.randint(2, 3)), turns(t, t.random.randint(1, 2))
    h = harness.Harness(lab.ScriptedModel([lab.say(a) for _, a in first + second]), SYSTEM, [])
    h.subscribe(harness.persist_to(log))
    for question, _ in first:
        await lab.drive(h.prompt(question))
    summary = t.random.choice(["\n", "  ", "\t"]) + f"Read {word(t)}.\r\n\r\nThen {word(t)}.\r\n"
    kept = f"e{2 * t.random.randrange(1, len(first)) + 1}"
    made = log.append_compaction(summary, kept)
    for question, _ in second:
        await lab.drive(h.prompt(question))
    other = harness.SessionLog(ws, path).entries()
    n = 2 * len(first)
    t.expect([made, [[e["id"], e["type"]] for e in other], other[n]],
             [f"e{n + 1}", [[f"e{i}", "compaction" if i == n + 1 else "message"]
                            for i in range(1, n + 2 + 2 * len(second))],
              {"id": f"e{n + 1}", "type": "compaction", "summary": summary,
               "first_kept_id": kept}],
             f"persist_to saved {n} messages, append_compaction({summary!r}, {kept!r}) was "
             f"called, then {2 * len(second)} more messages were saved. Items: [what it "
             "returned, [id, type] of every entry another SessionLog reads, the compaction "
             "entry]: one entry, numbered like any other, its summary exactly as given "
             "(SessionLog.append_compaction, lesson 12).")
    empty = t.random.choice(["", " ", "\n"])
    last = raised_now(lambda: harness.SessionLog(ws, path).append_compaction(empty, kept))
    t.expect([last, harness.SessionLog(ws, path).entries()[-1]],
             [None, {"id": f"e{len(other) + 1}", "type": "compaction", "summary": empty,
                     "first_kept_id": kept}],
             f"Another SessionLog over the file appends a compaction whose summary is {empty!r}. "
             "Items: [what it raised, the last entry read back]: append_compaction adds the "
             "entry holding the summary it is given, whatever it holds "
             "(SessionLog.append_compaction, lesson 12).")


@lab_test("A power cut in the middle of compact's write leaves every line before it whole: the "
          "log's reader names the torn line, one past the messages.")
async def test_bank_a_power_cut_in_compacts_write(t):
    pairs, path = turns(t, t.random.randint(3, 5)), t.random.choice(FOLDED)
    ws, log = logged(chat(pairs), path)
    before = ws.read_text(path)
    model = lab.ScriptedModel([lab.say(f"Summary: {word(t)}.")])
    ws.cut_power_after(0, torn=True)
    keep = cost(lines_of(pairs[-1:]))
    problem = await raised(lambda: harness.compact(log, model, keep_recent_tokens=keep))
    n = 2 * len(pairs)
    t.expect([problem, len(model.calls), ws.read_text(path).startswith(before),
              await raised(log.entries)],
             [f"PowerCut: the power went off while writing {path}", 1, True,
              f"ValueError: {path}, line {n + 1}: not a complete log entry"],
             f"A log of {n} messages, compacted with keep_recent_tokens {keep} while the power "
             "went off in the next write. Items: [what compact raised, summary requests, the "
             "file still starts with its old text, what reading it raises]: the compaction "
             "entry is one line added, and no line already there changes "
             "(SessionLog.append_compaction, lesson 12).")
    ws, log = logged(chat(pairs), path)
    ws.cut_power_after(1)  # the second write from now would fail
    model = lab.ScriptedModel([lab.say(f"Summary: {word(t)}.")])
    problem = await raised(lambda: harness.compact(log, model, keep_recent_tokens=keep))
    t.expect([problem, ws.read_text(path).endswith("\n"), await raised(log.entries),
              len(ws.read_text(path).splitlines())], [None, True, None, n + 1],
             f"The same {n} messages compacted on a workspace whose power goes off at the "
             "second write from now. Items: [what compact raised, the file ends with a newline, "
             "what reading it raises, its lines]: the compaction entry is one line written by "
             "one append, as every entry is (lesson 11's _append), so the cut is never reached "
             "(SessionLog.append_compaction, lesson 12).")


# --- rule 3: a compaction read as a rule in rows() ----------------------------------------------

def entry_line(n, kind="message", **fields):
    return json.dumps({"id": f"e{n}", "type": kind, **fields}) + "\n"


@lab_test("A harness resumed from a log compacted twice, the second time with a first_kept_id "
          "the first compaction had summarised away, sends the model the second summary and "
          "what came after it, and nothing else.")
async def test_bank_a_log_compacted_twice(t):
    old, middle, last = (chat(turns(t, t.random.randint(2, 3))), chat(turns(t, 1)),
                         chat(turns(t, 1)))
    k = 2 * t.random.randrange(1, len(old) // 2) + 1  # a later question of the old part
    j = t.random.randrange(1, k)  # an id the first compaction summarised away
    summaries = [f"First: {word(t)}.", t.random.choice(["\n", "  ", "\t"]) +
                 f"Later: {word(t)}.\n  Then {word(t)}." + t.random.choice([" ", "\n"])]
    text = "".join(entry_line(i, message=m) for i, m in enumerate(old, 1))
    n = len(old) + 1
    text += entry_line(n, "compaction", summary=summaries[0], first_kept_id=f"e{k}")
    text += "".join(entry_line(i, message=m) for i, m in enumerate(middle, n + 1))
    n += len(middle) + 1
    text += entry_line(n, "compaction", summary=summaries[1], first_kept_id=f"e{j}")
    text += "".join(entry_line(i, message=m) for i, m in enumerate(last, n + 1))
    path = t.random.choice(FOLDED)
    log = harness.SessionLog(lab.Workspace({path: text}), path)
    model = lab.ScriptedModel([lab.say("Resumed.")])
    h = harness.Harness(model, SYSTEM, [], messages=log.replay())
    await lab.drive(h.prompt("Where were we?"))
    sent = model.calls[0].messages
    t.expect([lab.shape(sent), sent[0]["content"], [k for k, _ in log.rows()]],
             ["U U A U", HEAD + summaries[1], [f"e{n}", f"e{n + 1}", f"e{n + 2}"]],
             f"A log of {len(old)} messages, a compaction keeping from e{k}, {len(middle)} "
             f"more, a compaction with first_kept_id e{j} (summarised away by the first: its "
             "line is still in the file, but it is no pair), then two more. Items: [lab.shape "
             "of a resumed harness's first request, its first message's content, the rows' "
             "ids]: no pair has that id, so none are kept, the messages after it follow, and "
             "the summary is under its heading as it was logged (SessionLog.rows, lesson 12).")
    # an empty summary, then one that opens with the heading and keeps the empty one's row
    m = len(old)
    later = HEAD + f"Again: {word(t)}."
    text = "".join(entry_line(i, message=msg) for i, msg in enumerate(old, 1))
    text += entry_line(m + 1, "compaction", summary="", first_kept_id=f"e{k}")
    text += entry_line(m + 2, "compaction", summary=later, first_kept_id=f"e{m + 1}")
    twice = lab.Workspace({path: text})
    log = harness.SessionLog(twice, path)
    t.expect([[k for k, _ in log.rows()], [msg["content"] for msg in log.replay()[:2]]],
             [[f"e{m + 2}", f"e{m + 1}"] + [f"e{i}" for i in range(k, m + 1)],
              [HEAD + later, HEAD]],
             f"A log of {m} messages, a compaction with an empty summary keeping from e{k}, then "
             f"one whose summary already opens with the heading, keeping from e{m + 1}, the "
             "first compaction's own pair. Items: [the rows' ids, the first two contents]: "
             "every compaction entry is a rule, an empty summary's too; a later compaction "
             "sees an earlier summary as an ordinary pair; the heading goes before every "
             "summary as logged (SessionLog.rows, lesson 12).")
    loose = t.random.choice([f"E{k}", f" e{k}", f"e{k}\n", f"e{k} "])
    folded = harness.SessionLog(lab.Workspace({path: "".join(
        entry_line(i, message=msg) for i, msg in enumerate(old, 1)) + entry_line(
            m + 1, "compaction", summary=summaries[0], first_kept_id=loose)}), path)
    t.expect([k for k, _ in folded.rows()], [f"e{m + 1}"],
             f"A log of {m} messages, then a compaction whose first_kept_id is {loose!r}, which "
             f"is not e{k}. The item is the rows' ids: a compaction keeps from the pair whose id "
             "is its first_kept_id exactly; if no pair has that id, none are kept "
             "(SessionLog.rows, lesson 12).")
    given, other = log.rows(), log.rows()  # two readings, nothing written in between
    given.reverse()  # the caller's own list, changed
    twice.write_text(path, twice.read_text(path).replace("Again: ", "Agair: "))
    t.expect(log.replay()[0]["content"], HEAD + later.replace("Again: ", "Agair: "),
             "The file rewritten by another program to a text of the same length, one letter "
             "of the later summary changed, then rows() read again. The item is the first "
             "row's content: each call of rows() reads the log as it is now "
             "(SessionLog.rows, lesson 12, Build item 3).")
    t.expect([log.rows()[0][0], other[0][0], other is given],
             [f"e{m + 2}", f"e{m + 2}", False],
             "Two readings of the log taken one after the other, nothing written in between, "
             "then the first one's list reversed by its caller, then rows() read again: each "
             "call reads the log as it is now and returns a new list, even when the log has not "
             "changed, so a caller that changes the list it was given changes no later "
             "reading, the one another caller holds included. Items: [the first row's id of "
             "the reading after, the first row's id of the second reading, whether the second "
             "is the very list the first gave] (SessionLog.rows, lesson 12, Build item 3).")


@lab_test("A long log (over three hundred entries) compacted near its end with a first_kept_id "
          "no pair has replays as the summary and the messages after it.")
async def test_bank_a_long_log_compacted_near_its_end(t):
    size = t.random.randint(2150, 2500)
    blank = 2 * t.random.randint(50, size // 2 - 2) + 1  # a question that says nothing
    text = "".join(entry_line(i, message=harness.user_message(
        t.random.choice(["", "  ", "\t"]) if i == blank else f"Step {i}.") if i % 2 else
        lab.say(f"Done {i}.")) for i in range(1, size + 1))
    messages_only = text
    # a long summary with whitespace around it, read back as it was logged
    summary, missing = t.random.choice(["\n", " ", "\t "]) + f"Steps up to {size}: {word(t)}." + \
        f" {word(t)}" * t.random.randint(30_000, 50_000) + t.random.choice(["\n", "  "]), \
        t.random.choice(["e0", "x1", "e99999"])
    text += entry_line(size + 1, "compaction", summary=summary, first_kept_id=missing)
    after = [harness.user_message(f"Next: {word(t)}."), lab.say(f"Did {word(t)}.")]
    text += "".join(entry_line(i, message=m) for i, m in enumerate(after, size + 2))
    path = t.random.choice(FOLDED)
    log = harness.SessionLog(lab.Workspace({path: text}), path)
    rows = log.rows()
    t.expect([len(rows), lab.shape([m for _, m in rows]), rows[0][1]["content"],
              [k for k, _ in rows]],
             [3, "U U A", HEAD + summary, [f"e{size + 1}", f"e{size + 2}", f"e{size + 3}"]],
             f"A log of {size} messages, then a compaction with first_kept_id {missing!r}, which "
             f"no pair has, and a summary of {len(summary)} characters, then two messages. "
             "Items: [how many rows, their lab.shape, the first's content, their ids]: every "
             "entry is read, however long the log, the summary is read back whole, however "
             "long, and no pair kept (SessionLog.rows, lesson 12).")
    held = log.rows()  # a second reading of the unchanged log, held by another caller
    rows[0][1]["content"] = f"Edited: {word(t)}."  # the summary message, changed by its caller
    rows.pop()  # the caller's own list, changed
    again = log.rows()
    t.expect([len(again), again[0][1]["content"] == HEAD + summary, len(held),
              held[0][1]["content"] == HEAD + summary],
             [3, True, 3, True],
             "The rows' list a caller popped a row from and whose summary message it rewrote, "
             "while another caller holds a second reading taken just after it, nothing written "
             "in between; then rows() read again: each call reads the log as it is now and "
             "returns a new list, even when the log has not changed, so a caller that changes "
             "the list it was given, or the summary message in it, changes no later reading, "
             "the one another caller holds included. Items: [how many rows the reading after "
             "gives, its summary is the logged one under its heading, the same two of the "
             "reading held] (SessionLog.rows, lesson 12, Build item 3).")
    k = 2 * t.random.randint(2, 40) + 1  # an early question: hundreds of pairs from it on
    path = t.random.choice(FOLDED)
    early = harness.SessionLog(lab.Workspace({path: messages_only + entry_line(
        size + 1, "compaction", summary=f"Up to {k - 1}.", first_kept_id=f"e{k}")}), path)
    rows = early.rows()
    t.expect([len(rows), [key for key, _ in rows[:3]], rows[-1][0], f"e{blank}" in
              [key for key, _ in rows]],
             [size - k + 2, [f"e{size + 1}", f"e{k}", f"e{k + 1}"], f"e{size}", True],
             f"The same {size} messages, then a compaction keeping from e{k}, with "
             f"{size - k + 1} pairs from there on, e{blank} a question that says nothing. "
             "Items: [how many rows, the first three ids, the last id, that question is a row]"
             ": the pair whose id is the first_kept_id is found wherever it stands, however "
             "many pairs follow it, and the pairs from it on follow the summary, one per "
             "message entry, a message that says nothing included (SessionLog.rows, lesson "
             "12, Build item 3).")


# --- rule 4: summarize ---------------------------------------------------------------------------

@lab_test("compact sends its summariser one request of its own, with the rows before the cut "
          "rendered inside <conversation> tags, a failed reply among them included, and stores "
          "the reply's whole text, stripped.")
async def test_bank_what_compact_sends_the_summariser(t):
    early, late = turns(t, t.random.randint(101, 130)), turns(t, 1)  # over two hundred messages
    pasted = "".join(word(t) + t.random.choice([" ", "\t", "\r\n"])
                     for _ in range(t.random.randint(2500, 5000)))  # 25,000 or more
    pasted += f" {word(t)}" * t.random.randint(150_000, 250_000)  # and a million or more
    early[-1] = (f"{early[-1][0]} {pasted}", early[-1][1])  # last, so few writes read it back
    early.insert(t.random.randrange(len(early)), (t.random.choice(["", "\t", " \n"]), "Yes?"))
    why = t.random.choice(["overloaded", "rate limited"])
    asked = f"Retry {word(t)}."
    messages = chat(early) + [harness.user_message(asked), lab.fail(why)] + chat(late)
    path = t.random.choice(FOLDED)
    ws, log = logged(messages, path)
    said = f"They read {word(t)} and {word(t)}." + "".join(
        f"\n{t.random.choice(['', '  ', chr(9)])}{word(t)}:{t.random.choice([' ', '  '])}{word(t)}"
        for _ in range(t.random.randint(500, 1200)))
    said += f"\n{word(t)}:" + f" {word(t)}" * t.random.randint(30_000, 50_000)  # 300,000 or more
    split = t.random.randint(1, len(said) - 1)
    pads = [t.random.choice([" ", "\n", "\t "]) + t.random.choice(["\r", "\u00a0", "\u2003", "\f"])
            + t.random.choice(["\u2009", "\u202f", "\u1680", "\u205f", "\x85", "\x1c", "\u2028"])
            for _ in range(2)]
    pads[1] = pads[1][::-1]  # the odd space outermost on both sides
    again = f"Again {word(t)}."
    model = lab.ScriptedModel([lab.reply(pads[0] + said[:split], said[split:] + pads[1]),
                               lab.say(again)])
    text = ws.read_text(path)
    done = harness.compact(log, model, keep_recent_tokens=cost(lines_of(late)))
    rendered = "\n".join(lines_of(early) + [f"user: {asked}", "assistant: "])
    request = model.calls[0]
    t.expect([done, request.messages, request.tools, request.system == harness.SUMMARY_SYSTEM,
              log.replay()[0]["content"]],
             [True, [{"role": "user", "content": f"<conversation>\n{rendered}\n</conversation>"}],
              [], True, HEAD + said],
             f"A log of {len(messages)} messages, {len(early)} turns and then "
             f"{lab.shape(messages[-4:])} (a failed reply with no words in it), compacted "
             "to keep its last turn; the summariser answered in two text blocks with spaces "
             "around them. Items: [compact's answer, the request's messages, its tools, its "
             "system prompt is SUMMARY_SYSTEM, the summary the log replays first]: one user "
             "message holding render() of every row before the cut, however many and however "
             "long, a blank question, tabs and \"\\r\" included as render gives them, and the "
             "reply's text, all of it, stripped (summarize, lesson 12).")
    copy = harness.SessionLog(lab.Workspace({path: text}), path)
    again_done = harness.compact(copy, model, keep_recent_tokens=cost(lines_of(late)))
    t.expect([again_done, len(model.calls), copy.replay()[0]["content"]],
             [True, 2, HEAD + again],
             "The same log as it was before, compacted again with the same summariser, which "
             "answers differently this time. Items: [compact's answer, summary requests in all, "
             "the summary the copy replays first]: each summary is one request of its own, "
             "and what that reply says is the summary (summarize, lesson 12).")
    idle = f"Nothing about {word(t)} yet."
    quiet = lab.ScriptedModel([lab.say(idle)])
    try:
        nothing = harness.summarize(quiet, [])
    except Exception as error:
        nothing = f"raised {type(error).__name__}"
    t.expect([nothing, [call.messages for call in quiet.calls]],
             [idle, [[{"role": "user", "content": "<conversation>\n\n</conversation>"}]]],
             "summarize asked about no messages at all. Items: [what it returned, the messages "
             "of each request it made]: one request even when messages is empty, the rendered "
             "nothing between the tags; what is worth summarising is compact's to decide "
             "(summarize, lesson 12).")


@lab_test("Bad summaries met through compact (only whitespace, a reply stopped with words, one "
          "labelled error with words and no error_message, a failed one) leave the log as it "
          "was; a good one is kept.")
async def test_bank_bad_summaries_met_through_compact(t):
    pairs = turns(t, t.random.randint(2, 4))
    ws, log = logged(chat(pairs), t.random.choice(FOLDED))
    words = f"Partly {word(t)}"
    bad = [lab.say("".join(t.random.choice(" \n\t") for _ in range(t.random.randint(1, 5)))),
           {**lab.fail("Operation aborted", words), "stop_reason": "aborted"},
           {key: value for key, value in lab.fail("x", words).items() if key != "error_message"},
           lab.fail(f"{word(t)} overloaded")]
    t.random.shuffle(bad)
    good = f"Summary of {word(t)}."
    keep = cost(lines_of(pairs[-1:]))
    found = []
    for reply in bad + [lab.say(good)]:
        model = lab.ScriptedModel([reply])
        found.append([harness.compact(log, model, keep_recent_tokens=keep), len(model.calls),
                      len(log.entries())])
    n = 2 * len(pairs)
    # a summary that came with a call: the summariser was offered no tools, the call is ignored
    called = f"Summary with a call, {word(t)}."
    asking = lab.reply(called, lab.call("read", {"path": "a.py"}))
    model, (_, fresh) = lab.ScriptedModel([asking]), logged(chat(pairs), "fresh.jsonl")
    found.append([harness.compact(fresh, model, keep_recent_tokens=keep), len(model.calls),
                  len(fresh.entries()), fresh.replay()[0]["content"]])
    # a summary that opens with the heading: a summary like any other, kept as it came
    echoed = HEAD + f"Echoed {word(t)}."
    model, (_, fresh) = lab.ScriptedModel([lab.say(echoed)]), logged(chat(pairs), "echo.jsonl")
    found.append([harness.compact(fresh, model, keep_recent_tokens=keep),
                  fresh.replay()[0]["content"]])
    # an error_message that says nothing is none; one with spaces around it is the reason
    padded = t.random.choice([" ", "\n", "\t"]) + f"{word(t)} overloaded" + \
        t.random.choice([" ", "\n", "\t"])
    for reason in ("", None, padded):
        model = lab.ScriptedModel([{**lab.fail("x", words), "error_message": reason}])
        found.append(raised_now(lambda model=model: harness.summarize(model, chat(pairs))))
    # the label decides: a stop with an error_message beside it is a summary; a stopped reply
    # with no error_message has "the reply was empty"; and a day a reading of the clock is no limit
    noted = {**lab.say(f"Noted {word(t)}."), "error_message": f"{word(t)} retried"}
    hushed = {key: value for key, value in
              {**lab.fail("x", words), "stop_reason": "aborted"}.items() if key != "error_message"}
    for reply in (noted, hushed):
        model = lab.ScriptedModel([reply])
        found.append(raised_now(lambda model=model: harness.summarize(model, chat(pairs))))
    part = f" {word(t)}"
    paste = f"Paste {word(t)}:" + part * (t.random.randint(5_050_000, 5_500_000) // len(part))
    long = f"Long {word(t)}:" + part * (t.random.randint(2_020_000, 2_200_000) // len(part))
    model = lab.ScriptedModel([lab.say(long)])
    back = harness.summarize(model, [harness.user_message(paste)])
    sent = model.calls[0].messages[0]["content"]
    found.append([back == long, len(sent) == len(paste) + len("<conversation>\nuser: \n</conversation>")])
    slowly = f"Slow {word(t)}."
    slow, (_, fresh) = lab.ScriptedModel([lab.say(slowly)]), logged(chat(pairs), "slow.jsonl")
    with hours_pass(1440):
        found.append(raised_now(lambda: harness.compact(fresh, slow, keep_recent_tokens=keep)))
    found.append(fresh.replay()[0]["content"])
    t.expect([found, log.replay()[0]["content"]],
             [[[False, 1, n]] * 4 + [[True, 1, n + 1], [True, 1, n + 1, HEAD + called],
                                     [True, HEAD + echoed]] +
              ["RuntimeError: no summary: the reply was empty"] * 2 +
              [f"RuntimeError: no summary: {padded}", None,
               "RuntimeError: no summary: the reply was empty", [True, True], None,
               HEAD + slowly], HEAD + good],
             "compact on one log with a summariser that answers in turn "
             f"{[lab.shape([r]) for r in bad]}, then a good summary. Items: [for each, compact's "
             "answer, summary requests, the log's entries], then the first message the log "
             "replays: a reply that failed, was stopped, or has no text once stripped is no "
             "summary (summarize raises, so compact returns False and appends nothing); a "
             "reply with words and a call is one, its call ignored (compacting a fresh copy of "
             "the log: [its answer, requests, entries, the summary it replays first]); then "
             "a reply that opens with the heading is a summary as it came ([compact's answer, "
             "the summary replayed first]); then what summarize raised "
             "for a failed reply whose error_message is \"\", None, and one with whitespace "
             "around it: an empty one is none, any other is the reason as given; then what it "
             "raised for a reply labelled stop with an error_message beside its words (an "
             "error_message beside a stop included, it is a summary) and for a stopped one with "
             "no error_message (whatever the label, the reply was empty); then what compact "
             "raised, and the summary it keeps, while a day passes at each reading of the "
             "clock: no time limit is summarize's (before that, summarize called on a paste of "
             "over five million characters answered by a summary of over two million: [it "
             "returned the summary whole, it sent the paste whole]) (summarize, lesson 12).")


# --- rule 5: compact ------------------------------------------------------------------------

@lab_test("maybe_compact over a saved session: a failed summary costs nothing, then the "
          "summariser is sent exactly the rows before the cut and the log keeps every line; the "
          "budgets are keyword arguments with no default.")
async def test_bank_compact_through_maybe_compact(t):
    pairs, path = turns(t, t.random.randint(3, 4)), t.random.choice(FOLDED)
    ws = lab.Workspace()
    log = harness.SessionLog(ws, path)
    h = harness.Harness(lab.ScriptedModel([lab.say(a) for _, a in pairs]), SYSTEM, [])
    h.subscribe(harness.persist_to(log))
    for question, _ in pairs:
        await lab.drive(h.prompt(question))
    summary = f"Earlier: {word(t)}. " + "e" * t.random.randint(600, 1200)  # longer than its rows
    closed = f"{word(t)}: the client was closed"

    def shut(request):
        raise RuntimeError(closed)  # a RuntimeError of the request's own, in its own words
    size = t.random.randint(8, 900) * 1000
    crowded = t.random.choice([f"context window of {size} tokens exceeded",
                               f"conversation too long ({size + 1} tokens)",
                               f"prompt is too long for the context: {size} tokens",
                               "input too long", "context length exceeded"])
    summariser = lab.ScriptedModel([lab.fail(f"{word(t)} overloaded"), lab.fail(crowded), shut,
                                    lab.say(summary)])
    keep = cost(lines_of(pairs[-1:]))
    answers = [harness.maybe_compact(h, log, summariser, window=1, reserve=0,
                                     keep_recent_tokens=keep) for _ in range(4)]
    sent = summariser.calls[-1].messages[0]["content"]
    budgets = [(harness.compact, "keep_recent_tokens")] + [
        (harness.maybe_compact, name) for name in ("window", "reserve", "keep_recent_tokens")]
    kinds = []
    for fn, name in budgets:
        parameter = inspect.signature(fn).parameters[name]
        kinds.append([name, parameter.kind.name, parameter.default is parameter.empty])
    n = 2 * len(pairs)
    t.expect([answers, sent, len(ws.read_text(path).splitlines()), lab.shape(h.messages), kinds],
             [[False, False, False, True], "<conversation>\n" + "\n".join(lines_of(pairs[:-1])) +
              "\n</conversation>", n + 1, "U U A",
              [[name, "KEYWORD_ONLY", True] for _, name in budgets]],
             f"A session of {n} messages saved by persist_to; maybe_compact with window 1 and "
             f"keep_recent_tokens {keep} (the last turn), four times: the summariser failed, "
             f"then failed with {crowded!r}, the conversation too long for it, a failed "
             "summary like any other, "
             f"then its request raised RuntimeError({closed!r}), a RuntimeError raised inside "
             "summarize and so a failed summary too, then it answered. Items: [maybe_compact's answers, what the summariser was sent the "
             "second time, the log's lines, lab.shape of the record, [budget, its kind, it has "
             "no default] for compact's and maybe_compact's budgets]: the rows before the cut "
             "are summarised, the rest kept, nothing deleted (compact, lesson 12).")
    # a session whose newest question pastes hundreds of thousands of characters, over the
    # window, with a budget its whole log fits in: nothing to summarise, however large the budget
    pasted = turns(t, 2)
    pasted[-1] = (pasted[-1][0] + " " + " ".join(word(t) for _ in range(
        t.random.randint(25_000, 80_000))), pasted[-1][1])
    _, big_log = logged(chat(pasted), path)
    big = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=big_log.replay())
    budget = cost(lines_of(pasted)) + t.random.randint(1, 9000)
    never = lab.ScriptedModel([lab.say("Never asked.")])
    t.expect([harness.maybe_compact(big, big_log, never, window=1, reserve=0,
                                    keep_recent_tokens=budget), len(never.calls),
              len(big_log.entries()), lab.shape(big.messages)],
             [False, 0, 4, "U A U A"],
             f"A session of two turns whose newest question pastes about {budget} tokens' "
             f"worth, over a window of 1, with keep_recent_tokens {budget}, more than the whole "
             "log costs. Items: [maybe_compact's answer, summary requests, the log's entries, "
             "lab.shape of the record]: compact cuts where find_cut says for the budget it is "
             "given, however large, and here everything fits: nothing to summarise (compact, "
             "lesson 12).")
    # another writer compacts the same file while the summary is being asked for
    more = turns(t, 4)
    ws, log = logged(chat(more), path)
    other = harness.SessionLog(ws, path)

    def meanwhile(request):
        other.append_compaction(f"Theirs: {word(t)}.", "e3")
        return lab.say("Ours.")
    done = harness.compact(log, lab.ScriptedModel([meanwhile]),
                           keep_recent_tokens=cost(lines_of(more[-1:])))
    t.expect([done, log.entries()[-1]["first_kept_id"], [key for key, _ in log.rows()]],
             [True, "e7", ["e10", "e7", "e8"]],
             "A log of four turns, e1 to e8, compacted to keep its last turn by a summariser "
             "that, while it answers, has another writer append a compaction keeping from e3. "
             "Items: [compact's answer, the first_kept_id it appended, the ids of rows() "
             "afterwards]: the first kept id is the one of the row at the cut in the reading "
             "that was summarised (compact, lesson 12).")
    ws, log = logged(chat(more), path)
    other, reading = harness.SessionLog(ws, path), ws.read_text

    def read_then_write(name):
        text = reading(name)
        ws.read_text = reading  # once
        other.append_compaction(f"Theirs: {word(t)}.", "e3")
        return text
    ws.read_text = read_then_write
    model = lab.ScriptedModel([lab.say("Ours.")])
    done = harness.compact(log, model, keep_recent_tokens=cost(lines_of(more[-1:])))
    t.expect([done, model.calls[0].messages[0]["content"], [key for key, _ in log.rows()]],
             [True, "<conversation>\n" + "\n".join(lines_of(more[:-1])) + "\n</conversation>",
              ["e10", "e7", "e8"]],
             "The same four turns, compacted to keep the last one, while another writer appends "
             "a compaction keeping from e3 just after compact's first reading of the file. "
             "Items: [compact's answer, what the summariser was sent, the ids of rows() "
             "afterwards]: compact summarises the rows before the cut in the reading it cut, "
             "and keeps from the row at the cut in that same reading (compact, lesson 12).")
    answers = [f"First {word(t)}.", f"Second {word(t)}."]
    model, found = lab.ScriptedModel([lab.say(a) for a in answers]), []
    for _ in range(2):
        _, copy = logged(chat(more), path)
        found.append([harness.compact(copy, model, keep_recent_tokens=cost(lines_of(more[-1:]))),
                      len(model.calls), copy.replay()[0]["content"]])
    t.expect(found, [[True, 1, HEAD + answers[0]], [True, 2, HEAD + answers[1]]],
             "Two fresh copies of that four-turn log compacted one after the other by the same "
             "summariser. Items, for each: [compact's answer, summary requests so far, the "
             "summary the copy replays first]: each compaction asks for a summary of its own "
             "(compact, lesson 12).")
    # one turn, and a long log of drawn length, each compacted to keep all but its first row
    # (a question, its answer) or its first turn: compact cuts where find_cut says
    short, long = turns(t, 1), turns(t, t.random.randint(1020, 1300), longest=20)
    found = []
    for pairs, cut in ((short, 1), (long, 2)):
        messages = chat(pairs)
        text = "".join(entry_line(i, message=m) for i, m in enumerate(messages, 1))
        copy = harness.SessionLog(lab.Workspace({path: text}), path)
        budget = sum(len(line) // 4 for line in lines_of(pairs)[cut:])
        done = harness.compact(copy, lab.ScriptedModel([lab.say(f"S {word(t)}.")]),
                               keep_recent_tokens=budget)
        after = [key for key, _ in copy.rows()]
        found.append([done, after[:2], len(after)])
    m = 2 * len(long)
    t.expect(found, [[True, ["e3", "e2"], 2], [True, [f"e{m + 1}", "e3"], m - 1]],
             f"A log of one turn, then one of {m} messages, each compacted with a budget of "
             "what all but its first row, then all but its first turn, cost. Items, for each: "
             "[compact's answer, the first two ids of rows() afterwards, how many rows]: compact "
             "cuts where find_cut says, in a log of two rows or of over two thousand, and compacts "
             "when there is a row before the cut and one from it on (compact, lesson 12).")
    # the long log compacted again to keep its last turn: every row before the cut is sent
    # (over two thousand); then budgets of 0 and below, which find_cut keeps no row for
    model = lab.ScriptedModel([lab.say(f"T {word(t)}.")])
    done = harness.compact(copy, model, keep_recent_tokens=cost(lines_of(long[-1:])))
    sent = model.calls[0].messages[0]["content"].split("\n") if model.calls else []
    zero = []
    for budget in (0, -t.random.randint(1, 99)):
        _, other = logged(chat(long[:3]), "zero.jsonl")
        cut = harness.find_cut(other.rows(), budget)
        asked = lab.ScriptedModel([lab.say("Never needed.")])
        zero.append([harness.compact(other, asked, keep_recent_tokens=budget) == (0 < cut < 6),
                     len(other.entries()) == 6 + int(0 < cut < 6)])
    t.expect([done, len(sent) - 2, sent[1].startswith("user: Previous conversation summary: S ")
              if len(sent) > 1 else None, zero],
             [True, m - 3, True, [[True, True]] * 2],
             f"The log of {m} messages, compacted to keep all but its first turn, compacted "
             "again to keep its last turn; then fresh logs of three turns with a budget of 0 "
             "and one below 0. Items: [compact's answer, the lines the summariser was sent "
             "between the tags, the first of them is the earlier summary, then for each budget "
             "[compact answered as find_cut's cut for that budget says, the log's entries as "
             "that answer says]]: compact sends every row before the cut, the earlier summary "
             "first, however many there are, and cuts where find_cut says for any budget, "
             "0 and below included (compact, lesson 12).")


@lab_test("maybe_compact over the threshold on a log whose last line is torn raises the reader's "
          "ValueError, asks no model, and leaves the harness's record and the file alone; on the "
          "whole log, a summariser that raises, or a disk too full to write, goes through "
          "compact and maybe_compact to the caller too.")
async def test_bank_a_torn_log_is_not_compacted_over(t):
    pairs, path = turns(t, t.random.randint(2, 4)), t.random.choice(FOLDED)
    messages = chat(pairs)
    text = "".join(entry_line(i, message=m) for i, m in enumerate(messages, 1))
    text += entry_line(len(messages) + 1, message=lab.say("Half."))[:t.random.randint(5, 20)]
    ws = lab.Workspace({path: text})
    log = harness.SessionLog(ws, path)
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=messages)
    summariser = lab.ScriptedModel([lab.say("Never asked.")])
    problem = await raised(lambda: harness.maybe_compact(
        h, log, summariser, window=t.random.randint(0, 5), reserve=t.random.randint(0, 50),
        keep_recent_tokens=cost(lines_of(pairs[-1:]))))
    t.expect([problem, len(summariser.calls), lab.shape(h.messages), ws.read_text(path) == text],
             [f"ValueError: {path}, line {len(messages) + 1}: not a complete log entry", 0,
              " ".join(["U A"] * len(pairs)), True],
             "A harness over the window, and a log whose last line a power cut tore. Items: "
             "[what maybe_compact raised, summary requests, lab.shape of the record, the file "
             "is unchanged]: compact returns False only for nothing to cut or a summary that "
             "failed with RuntimeError; a torn log raises what reading it raises (compact, "
             "lesson 12).")
    whole = "".join(entry_line(i, message=m) for i, m in enumerate(messages, 1))
    problem = t.random.choice([TimeoutError("timed out"), ConnectionError("reset by peer")])

    def raising(request):
        raise problem

    def full(path, text):
        raise OSError(28, "No space left on device")

    def locked(path, text):
        raise RuntimeError(f"{path} is locked")
    found = []
    for summariser, disk in ((lab.ScriptedModel([raising]), None),
                             (lab.ScriptedModel([lab.say("Fine.")]), full),
                             (lab.ScriptedModel([lab.say("Fine.")]), locked)):
        ws = lab.Workspace({path: whole})
        if disk:
            ws.append_text = ws.write_text = disk
        log = harness.SessionLog(ws, path)
        h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=messages)
        found.append([await raised(lambda h=h, log=log, summariser=summariser:
                                   harness.maybe_compact(h, log, summariser, window=1, reserve=0,
                                                         keep_recent_tokens=cost(
                                                             lines_of(pairs[-1:])))),
                      lab.shape(h.messages), ws.read_text(path) == whole])
    t.expect(found,
             [[f"{type(problem).__name__}: {problem}", " ".join(["U A"] * len(pairs)), True],
              ["OSError: [Errno 28] No space left on device", " ".join(["U A"] * len(pairs)),
               True],
              [f"RuntimeError: {path} is locked", " ".join(["U A"] * len(pairs)), True]],
             "The same log whole, and maybe_compact over the threshold: first the summariser's "
             "request raised instead of replying, then the disk was full when the compaction "
             "entry was written, then the workspace raised RuntimeError when it was written. Items, for each: [what maybe_compact raised, lab.shape of the "
             "record, the file is unchanged]: only a summary that failed with RuntimeError, or "
             "nothing to cut, is a quiet False (compact, lesson 12).")


# --- rule 6: maybe_compact ---------------------------------------------------------------------

@lab_test("A tool that calls maybe_compact while the run is going is refused, window tight or "
          "roomy, and no summary is asked for.")
async def test_bank_maybe_compact_inside_a_tool(t):
    pairs, path = turns(t, t.random.randint(2, 3)), t.random.choice(FOLDED)
    ws, log = logged(chat(pairs), path)
    summariser = lab.ScriptedModel([lab.say("Never asked."), lab.say("Nor this.")])
    h = None
    tried = []

    def tidy(arguments):
        for window in (t.random.randint(1, 9), t.random.randint(10**6, 10**7)):
            tried.append(raised_now(lambda: harness.maybe_compact(
                h, log, summariser, window=window, reserve=0,
                keep_recent_tokens=cost(lines_of(pairs[-1:])))))
        return "tidied"
    model = lab.ScriptedModel([lab.reply(lab.call("tidy", {})), lab.say("Tidy done.")])
    h = harness.Harness(model, SYSTEM, [tool("tidy", tidy, ANY)], messages=log.replay())
    await lab.drive(h.prompt("Tidy up."))
    t.expect([tried, len(summariser.calls), lab.shape(h.messages), len(log.entries())],
             [["RuntimeError: cannot compact during a run"] * 2, 0,
              " ".join(["U A"] * len(pairs)) + " U A[c1] R(c1) A", 2 * len(pairs)],
             "A tool called maybe_compact during its run, with a window every record is over "
             "and with one of millions of tokens. Items: [what each raised, summary requests, "
             "lab.shape of the record, the log's entries]: during a run it refuses before it "
             "looks at the window (maybe_compact, lesson 12).")


@lab_test("Between runs of a session saved only in part, maybe_compact measures the harness's "
          "record: at the threshold exactly it waits, over it with nothing to cut it keeps the "
          "record, over it it compacts and the next request opens with the summary under the "
          "same system prompt, and a window of 0 compacts again.")
async def test_bank_maybe_compact_between_runs(t):
    saved, unsaved = turns(t, t.random.randint(3, 4)), turns(t, 1, longest=40)
    unsaved = [(q, a + " " + "u" * 240) for q, a in unsaved]  # over 60 tokens the log lacks
    path = t.random.choice(FOLDED)
    log = harness.SessionLog(lab.Workspace(), path)
    model = lab.ScriptedModel([lab.say(a) for _, a in saved + unsaved] +
                              [lab.say("Onward."), lab.say("Steered on.")])
    h = harness.Harness(model, SYSTEM, [])
    undo = h.subscribe(harness.persist_to(log))
    for question, _ in saved:
        await lab.drive(h.prompt(question))
    undo()
    await lab.drive(h.prompt(unsaved[0][0]))
    estimate, reserve = cost(lines_of(saved + unsaved)), t.random.randint(1, 200)
    summaries = [f"One: {word(t)}.", f"Two: {word(t)}."]
    summariser = lab.ScriptedModel([lab.say(s) for s in summaries])
    keep = cost(lines_of(saved[-1:]))
    steps = [(estimate + reserve, reserve, keep), (estimate + reserve - 1, reserve, 10**6),
             (estimate + reserve - 1, reserve, keep)]
    found = []
    for window, spare, budget in steps:
        found.append([harness.maybe_compact(h, log, summariser, window=window, reserve=spare,
                                            keep_recent_tokens=budget),
                      len(summariser.calls), lab.shape(h.messages)])
    run = h.prompt("Go on.")  # held by its caller after it is over
    await lab.drive(run)
    request = model.calls[-1]
    found.append([request.system == SYSTEM, lab.shape(request.messages),
                  request.messages[0]["content"]])
    steer = f"Also {word(t)}."
    h.steer(steer)  # queued before the compaction, for the next run
    found.append([harness.maybe_compact(h, log, summariser, window=0, reserve=0,
                                        keep_recent_tokens=1), len(summariser.calls),
                  lab.shape(h.messages), list(h.messages) == log.replay()])
    await lab.drive(h.prompt("And then?"))
    found.append([m["content"] for m in h.messages if m["role"] == "user"][-2:])
    whole = " ".join(["U A"] * (len(saved) + 1))
    t.expect(found,
             [[False, 0, whole], [False, 0, whole], [True, 1, "U U A"],
              [True, "U U A U", HEAD + summaries[0]], [True, 2, "U A", True],
              ["And then?", steer]],
             f"A session of {len(saved)} saved turns and one more the log never got (its "
             f"record estimated at {estimate} tokens), reserve {reserve}. Items, for "
             "maybe_compact with the window exactly at the estimate plus reserve, one under it "
             "with a budget that keeps everything, one under it with the last saved turn's "
             "budget: [its answer, summary requests, lab.shape of the record]; then of the "
             "next request: [its system prompt is the harness's, its lab.shape, its first "
             "content]; then for a window of 0, that run still held by its caller and a steer "
             "queued: [its answer, summary requests, the record's lab.shape, the record is "
             "what the log replays]; then the next run's last two user messages: a finished "
             "run held is no run going, and the queue outlives the compaction (maybe_compact, "
             "lessons 9 and 12).")
    short = [(f"{word(t)}?", f"{word(t)}.") for _ in range(t.random.randint(520, 700))]
    asked = f"Q {word(t)}?"
    record = chat(short) + [harness.user_message(asked), lab.fail(f"{word(t)} overloaded")]
    estimate = cost(lines_of(short) + [f"user: {asked}", "assistant: "])
    found, lines = [], "".join(entry_line(i, message=m) for i, m in enumerate(record, 1))
    for spare, over in ((5, 0), (5, 1), (-t.random.randint(1, 50), 0)):
        log = harness.SessionLog(lab.Workspace({path: lines}), path)
        h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=record)
        summariser = lab.ScriptedModel([lab.say(f"Short: {word(t)}.")])
        found.append([harness.maybe_compact(h, log, summariser, window=estimate + spare - over,
                                            reserve=spare, keep_recent_tokens=1),
                      len(summariser.calls)])
    # one harness measured, its record then swapped between runs for one of as many messages
    # that costs more, then compacted again at once, its record as the compaction left it
    log = harness.SessionLog(lab.Workspace({path: lines}), path)
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=record)
    summariser = lab.ScriptedModel([lab.say(f"Short: {word(t)}."), lab.say(f"Again: {word(t)}.")])
    heavier = [harness.user_message(record[0]["content"] + " " + "h" * t.random.randint(80, 200)),
               *record[1:]]
    measured = [harness.maybe_compact(h, log, summariser, window=estimate + 5, reserve=5,
                                      keep_recent_tokens=1)]
    h.replace_messages(heavier)
    measured.append(harness.maybe_compact(h, log, summariser, window=estimate + 5, reserve=5,
                                          keep_recent_tokens=1))
    measured.append(harness.maybe_compact(h, log, summariser, window=0, reserve=0,
                                          keep_recent_tokens=1))
    found.append([measured, len(summariser.calls), list(h.messages) == log.replay()])
    # a harness holding one message, the last question, over a window of 0
    log = harness.SessionLog(lab.Workspace({path: lines}), path)
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=[record[-2]])
    summariser = lab.ScriptedModel([lab.say(f"Short: {word(t)}.")])
    found.append([harness.maybe_compact(h, log, summariser, window=0, reserve=0,
                                        keep_recent_tokens=1), len(summariser.calls),
                  lab.shape(h.messages), list(h.messages) == log.replay()])
    # one long question, then thousands of short messages: every one of them is measured
    question = harness.user_message(f"Read {word(t)}: " + "r" * t.random.randint(300, 900))
    many = [question] + chat([("More?", "Yes.")]) * t.random.randint(5010, 5300)
    log = harness.SessionLog(lab.Workspace({path: lines}), path)
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=many)
    summariser = lab.ScriptedModel([lab.say(f"Long: {word(t)}.")])
    at = harness.estimate_tokens(many)
    found.append([harness.maybe_compact(h, log, summariser, window=at - 1, reserve=0,
                                        keep_recent_tokens=1), len(summariser.calls),
                  list(h.messages) == log.replay()])
    # a harness holding nothing, a reserve one over the window
    log = harness.SessionLog(lab.Workspace({path: lines}), path)
    h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [])
    summariser = lab.ScriptedModel([lab.say(f"Empty: {word(t)}.")])
    spare = t.random.randint(1, 90)
    found.append([harness.maybe_compact(h, log, summariser, window=spare - 1, reserve=spare,
                                        keep_recent_tokens=1), len(summariser.calls),
                  list(h.messages) == log.replay()])
    # a long day: a fresh session after another, each a harness over a fresh log of its own
    # and a window of 0, far more than any count a cap would allow
    day = t.random.randint(150, 200)
    summariser, compacted = lab.ScriptedModel([lab.say(f"Day {n}.") for n in range(day)]), 0
    for n in range(day):
        two = chat([(f"Q{n} one?", "One."), (f"Q{n} two?", "Two.")])
        fresh = harness.SessionLog(lab.Workspace({path: "".join(
            entry_line(i, message=m) for i, m in enumerate(two, 1))}), path)
        h = harness.Harness(lab.ScriptedModel([]), SYSTEM, [], messages=two)
        compacted += harness.maybe_compact(h, fresh, summariser, window=0, reserve=0,
                                           keep_recent_tokens=cost(lines_of(
                                               [(f"Q{n} two?", "Two.")])) + 1) is True
    found.append([compacted, len(summariser.calls), lab.shape(h.messages)])
    t.expect(found, [[False, 0], [True, 1], [False, 0], [[False, True, True], 2, True],
                     [True, 1, "U A(error)", True], [True, 1, True], [True, 1, True],
                     [day, day, "U U A"]],
             f"A record of {len(record)} short messages ending in a failed empty reply, "
             f"estimated at {estimate} tokens. Items, for reserve 5 and a window exactly at the "
             "estimate plus reserve, then one under, then a negative reserve and a window "
             "exactly at the estimate plus it: [maybe_compact's answer, summary requests]: the "
             "estimate of the whole record, the failed reply included, plus the reserve as it "
             "is, decides, not the request's view of it, nor how many messages there are. "
             "Last, one harness with a window exactly at the estimate plus reserve 5, then the "
             "same window once its record is swapped for one of as many messages whose first "
             "question is longer, then a window of 0 at once: [[the three answers], summary "
             "requests, the record is what the log replays, its failed empty reply kept "
             "included]: each call measures the record the harness holds then, whatever it "
             "did before, and hands the harness the log's replay itself, not the request's "
             "view of it. Last, a harness holding one message, the question, a window of 0 and "
             "the same log: [its answer, summary requests, the record's lab.shape, the record "
             "is what the log replays]: one message over the window compacts too, and the "
             "harness is handed the replay, longer than its record. Last, a record of one long "
             "question and then thousands of short messages, a window one token under its "
             "estimate: [its answer, summary requests, the record is what the log replays]: "
             "the estimate is of every message the harness holds, the oldest included, however "
             "many there are. Last, a harness holding no messages, a reserve one over the "
             "window: [its answer, summary requests, the record is what the log replays]: 0 "
             "plus the reserve is over the window, so it compacts, however few messages the "
             "record holds, none included. Last, a day of fresh sessions one after another, "
             "each a harness over a log of two turns of its own and a window of 0: [how many "
             "compacted, summary requests, the last record's lab.shape]: each compacts, however "
             "many compactions came before it, of this harness or any other (maybe_compact, "
             "lesson 12).")
