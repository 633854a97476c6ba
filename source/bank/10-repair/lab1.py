"""Lab 10.1's grading bank: scenarios for each rule of its ledger (source/lessons/10-repair/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario reaches its rule through another entry point than the public tests, or observes
another thing (a harness made from a record with holes and what its model is handed, the view
of every prefix of a record, a long session whose results stand behind a reply, holes left by a
consumer whose handler raises and by a power cut in two runs), so that the public tests'
wanted expressions, evaluated in a bank test's frame, do not give its values.
"""
import copy
import sys

import harness
import lab
from lab.kit import (everything_said, grew_in, held, hours_pass, lab_test, raised, sealed,
                     tool)

LAB = "10.1"
SYSTEM = "You maintain a small library."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
GONE = ("Tool call interrupted: no result was recorded. It may not have run, or may have run "
        "partly; check before repeating it.")
NAMES = ["core.py", "io.py", "cli.py", "LICENSE", "pkg/__init__.py", "tests/test_io.py",
         "docs/api.md", "tox.ini"]
BLANKS = [None, [], {}, "", " ", "\t", 0]  # contents that look like nothing, but are contents


def unsorted_ids(t, count, prefix="k"):
    """`count` distinct ids (two or more), never in their sorted order, nor, from three on, in
    the order of their numbers: a repair must follow the calls, not the ids. (Two ids whose
    sorted order is not their numbers' are always in one of the two.)"""
    ids = [f"{prefix}{n}" for n in t.random.sample(range(2, 60), count)]
    by_number = sorted(ids, key=lambda i: int(i[len(prefix):]))
    while ids == sorted(ids) or count > 2 and ids == by_number:
        t.random.shuffle(ids)
    return ids


def calling(ids, names=None, text=None):
    """A reply that makes one call per id, with the tool names given (`read` otherwise)."""
    names = names or ["read"] * len(ids)
    return lab.reply(*([text] if text else []),
                     *[lab.call(name, {"path": f"{i.strip()}.txt"}, id=i)
                       for i, name in zip(ids, names)])


def answer(call_id, content=None, name="read", error=False):
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": name,
            "content": f"text of {call_id}" if content is None else content, "is_error": error}


def gone(call_id, name):
    """The result a repair invents for a call with no result recorded."""
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": name, "content": GONE,
            "is_error": True}


def read_only_views(t, record):
    """The shapes of the views of `record` handed as a tuple and as a locked list of locked
    messages (locked down to their calls), or what building each raised; then the shape of its
    view as a plain list of plain dicts, or "grown" when that list or a message in it takes more
    memory after the view than before (a write, even one put back, leaves a full list or dict
    bigger), or when the same list with thousands of messages more, as drawn, does."""
    found = []
    for handed in (tuple(record), sealed(record)):
        try:
            found.append(lab.shape(harness.context_for_model(handed)))
        except Exception as exc:
            found.append(f"{type(exc).__name__}: {exc}")
    plain = [dict(m) for m in record][:]  # fresh, each as big as it must be: one item more grows it
    sizes = [sys.getsizeof(plain)] + [sys.getsizeof(m) for m in plain]
    view = harness.context_for_model(plain)
    grown = [sys.getsizeof(plain)] + [sys.getsizeof(m) for m in plain] != sizes
    long = (plain + [harness.user_message("More?"), lab.say("More.")]
            * t.random.randint(2700, 5200))[:]  # as big as it must be
    size = sys.getsizeof(long)
    harness.context_for_model(long)
    grown = grown or sys.getsizeof(long) != size
    found.append("grown" if grown else lab.shape(view))
    return found


def swapped_view(record, where):
    """Whether the view of a copy of `record` with a new user message at `where` holds that new
    message and not the one it replaced (same length, same last message); then the same of
    `record` itself, edited so in place, and put back after its view."""
    other = list(record)
    other[where] = harness.user_message("Something else entirely.")
    view = harness.context_for_model(other)
    found = [any(m is other[where] for m in view), any(m is record[where] for m in view)]
    was, record[where] = record[where], harness.user_message("Something else again.")
    try:
        view = harness.context_for_model(record)
        found += [any(m is record[where] for m in view), any(m is was for m in view)]
    finally:
        record[where] = was
    return found


def results_of(view):
    return [m for m in view if m["role"] == "toolResult"]


def odd_batch(t, prefix):
    """A batch of five calls (in call order: twin, bare, renamed, silent, hole) and its results
    as recorded: twin's eleven to sixteen hundred times, word for word, as so many
    objects; bare's with None for its content; renamed's naming another tool than its call's; silent's empty and an error; none for
    hole, but an orphan for hole's id in capitals, an orphan that is an error, and six hundred to
    a thousand orphans more. silent's id is the empty string. Returns (ids, call, odd); a
    repair keeps five results of odd's len(odd)."""
    ids = unsorted_ids(t, 5, prefix)
    ids[3] = ""  # an id that looks like nothing, but is one
    twin, bare, renamed, silent, hole = ids
    odd = [answer(twin, "same words"), dict(answer(bare), content=None),
           answer(renamed, name="stat"),
           answer(silent, "", error=True),
           *[answer(twin, "same words") for _ in range(t.random.randint(1100, 1600))],
           answer(hole.upper(), "for a call in capitals"),
           answer(f"{prefix}99", "an error nobody asked for", error=True),
           *[answer(f"{prefix}{n}", "for nobody")
             for n in range(100, 100 + t.random.randint(600, 1000))]]
    t.random.shuffle(odd)
    odd.sort(key=lambda m: m["tool_call_id"] != twin)  # twin's first recorded stays first
    return ids, calling(ids), odd


def odd_found(view, ids, odd, record, before):
    """What a check holds of the repair of an odd batch (see odd_batch): the type of the view,
    whether the record is as it was, and, in call order, whether each call's result is the very
    one recorded first for it (for renamed's, that or a made one) or, for hole, the one made."""
    tail = {m["tool_call_id"]: m for m in view if m["role"] == "toolResult" and m["tool_call_id"]
            in ids}
    first = {}
    for m in odd:
        first.setdefault(m["tool_call_id"], m)
    twin, bare, renamed, silent, hole = ids
    return [type(view).__name__, record == before,
            [tail.get(i) is first[i] for i in (twin, bare, silent)],
            tail.get(renamed) is first[renamed] or tail.get(renamed) == gone(renamed, "read"),
            tail.get(hole) == gone(hole, "read")]


def corners(t, prefix):
    """A record holding, before a long run of exchanges, each corner a repair can cut: a wide
    reply's results recorded out of call order around a user message, with a hole before its
    last call; a result with the interrupted words and is_error, right after its call; three
    pairs of calls whose ids, tens of thousands of characters long, differ in their last
    character alone, in their first, or in one in the middle, with a result for the second of
    each pair only; a reply of three hundred-odd calls with no result; a result naming another tool, then one naming the call's own, for one call; an error with
    no words, then a result with words, for another; then a thousand-odd messages and a question
    and answer repeated thousands of times, then the first call's result; and, first of all, the
    result of a call made only after more than ten thousand messages. Among them, a reply of each stop_reason making two calls, the first answered
    (a failed one's too); results holding contents that look like nothing (None, [], "", ...);
    and a call whose id is the empty string, with no result. Returns (record, the two results
    naming another tool or none, each before one naming the call's own)."""
    far, ahead = f"{prefix}0", f"{prefix}92"
    record = [answer(ahead, "recorded thousands of messages before its call"),
              harness.user_message("Begin."), calling([far])]
    wide = unsorted_ids(t, t.random.randint(5, 7), prefix)
    holes = {t.random.choice(wide[:-1])}
    done = [i for i in t.random.sample(wide, len(wide)) if i not in holes]
    split = t.random.randint(1, len(done))
    record += ([harness.user_message("All of these."), calling(wide)]
               + [answer(i) for i in done[:split]] + [harness.user_message("Quicker.")]
               + [answer(i) for i in done[split:]] + [lab.say("Read.")])
    said = f"{prefix}90"
    record += [harness.user_message("One more."), calling([said]), answer(said, GONE, error=True)]
    size = t.random.randint(20_000, 300_000)
    stem = prefix + format(t.random.getrandbits(4 * size), "x").zfill(size)
    mid = t.random.randrange(size // 3, 2 * size // 3)
    inner = [stem[:mid] + c + stem[mid + 1:] for c in "ab"]
    record += [harness.user_message("Six more."),
               calling([stem + "a", stem + "b", "a" + stem, "b" + stem, *inner]),
               answer(stem + "b"), answer("b" + stem), answer(inner[1])]
    record += [harness.user_message("All the rest."),  # hundreds of calls after the first one
               calling([f"{prefix}r{n}" for n in range(t.random.randint(310, 340))]),
               lab.say("Too many.")]
    renamed = [answer(f"{prefix}91", name="stat"), answer(f"{prefix}93", name=None)]
    blank = t.random.choice(["", None])  # an error with no words, recorded first
    record += [harness.user_message("And that."),
               calling([f"{prefix}91", f"{prefix}93", f"{prefix}94"]),
               *renamed, answer(f"{prefix}94", error=True) | {"content": blank},
               answer(f"{prefix}91", "named right, recorded second"),
               answer(f"{prefix}93", "named right, recorded second"),
               answer(f"{prefix}94", "worked, recorded second"), lab.say("Done.")]
    for n, ending in enumerate(t.random.sample(["stop", "toolUse", "error", "aborted"], 4)):
        reply = dict(calling([f"{prefix}e{n}", f"{prefix}f{n}"]), stop_reason=ending)
        if ending in ("error", "aborted"):
            reply["error_message"] = "cut off"
        record += [harness.user_message(f"Ending {n}."), reply, answer(f"{prefix}e{n}")]
    blanks = t.random.sample(BLANKS, len(BLANKS))
    record += [harness.user_message("Blanks."),
               calling([f"{prefix}n{n}" for n in range(len(blanks))] + [""])]
    record += [answer(f"{prefix}n{n}", content) for n, content in enumerate(blanks)]
    for n in range(t.random.randint(500, 560)):  # a call in one step of seven: few to answer
        record += ([harness.user_message(f"Step {n}.")]
                   + ([calling([f"s{n}"]), answer(f"s{n}")] if n % 7 == 0 else [])
                   + [lab.say(f"Step {n} done.")])
    filler = [harness.user_message("Next?"), lab.say("Next.")]
    record += filler * t.random.randint(6000, 7000)  # the call of the first result: far behind it
    record += [harness.user_message("That one?"), calling([ahead]), lab.say("Seen.")]
    # Thousands after its call, and no more: a scan of the record for each call, which the page
    # allows, must repair it well inside the spin guard's allowance.
    record += filler * t.random.randint(1000, 1500)
    record.append(answer(far, "recorded thousands of messages after its call"))
    return record, renamed


def corners_found(view, record, renamed):
    """What a check holds of the view of a corners record: its length and, for each message of
    the view, where it stands in the record (its index), or, for a result the view made, the id
    it answers; the renamed call's result is "used or made" when it is either."""
    where = {id(m): n for n, m in enumerate(record)}
    made = {m["tool_call_id"]: m for m in view if id(m) not in where}
    filler = record[-3:-1]  # the question and answer repeated thousands of times: counted
    found, repeated = [], 0
    for m in view:
        if m is filler[0] or m is filler[1]:
            repeated += 1
        elif any(m is r or made.get(r["tool_call_id"]) is m
                 and m == gone(r["tool_call_id"], "read") for r in renamed):
            found.append("used or made")
        else:
            found.append(where.get(id(m), f"made for {m.get('tool_call_id')}"[:40]))
    return [len(view), found, repeated]


class Handed(lab.ScriptedModel):
    """A scripted model that notes, for each request, which of the messages it was handed are
    the very dicts of `record` (a request's .messages are copies, so this is asked as it comes)."""

    def __init__(self, replies, record):
        super().__init__(replies)
        self.known, self.handed = {id(m) for m in record}, []

    def complete(self, system, messages, tools=()):
        self.handed.append([id(m) in self.known for m in messages])
        return super().complete(system, messages, tools)


# --- rule 1: repair_tool_history -----------------------------------------------------------------

@lab_test("A long session of three hundred-odd messages whose last batch has every kind of hole "
          "(a missing result with a spaced id and tool name, an empty one, one recorded twice, "
          "error first, results behind a reply, an orphan) comes back whole and repaired, the "
          "same objects where it kept one.")
async def test_bank_a_long_session_with_a_messy_last_batch(t):
    record = []
    for n in range(t.random.randint(101, 106)):
        record += [harness.user_message(f"Step {n}."), calling([f"h{n}"]), answer(f"h{n}")]
    head = len(record)
    ids = unsorted_ids(t, 4)
    missing, empty, twice, plain = ids[:]
    t.random.shuffle(ids)
    spaced = f" {missing}\t"
    ids[ids.index(missing)] = spaced
    names = ["grep " if i == spaced else "read" for i in ids]
    late = [answer(twice, "busy", error=True), answer(twice, "done at last")]
    ahead = answer(plain, GONE, error=True)  # recorded before its call, in the words of a hole
    record += [ahead, harness.user_message("Now the last ones."), calling(ids, names, "Reading."),
               answer(plain, "read again"), answer(empty, ""),
               harness.user_message("Any news?"), harness.error_message("overloaded"),
               lab.say("Still reading."), *late, answer(missing, "for another call"),
               answer("orphan9", "from nowhere"), lab.say("Done.")]
    view = harness.repair_tool_history(record)
    tail = view[head + 2:head + 2 + len(ids)]
    wanted = {empty: "", twice: "busy", plain: GONE, spaced: GONE}
    t.expect([len(view), lab.shape(view[head:]), [m["content"] for m in tail],
              [m["content"] for m in results_of(view)].count(GONE)],
             [head + len(ids) + 6, f"U A[{','.join(ids)}] " +
              " ".join(f"R({i})" for i in ids) + " U A(error) A A", [wanted[i] for i in ids], 2],
             "The view of a long session whose last batch is messy. Items: its length, the shape "
             "from the last prompt on, the last batch's results in call order, and how many "
             "results in the whole view say what the interrupted one says.")
    again = harness.repair_tool_history(record)[head + 2 + ids.index(spaced)]
    nothing = record[:0]
    steady = record[:head] + [harness.user_message("Next?"), lab.say("Next.")] * t.random.randint(
        400, 600)  # a valid record of more than a thousand messages
    t.expect([tail[ids.index(spaced)], sum(a is b for a, b in zip(view[:head], record)),
              tail[ids.index(twice)] is late[0], tail[ids.index(plain)] is ahead,
              again is tail[ids.index(spaced)], harness.repair_tool_history(nothing) is nothing,
              harness.repair_tool_history(steady) is steady],
             [gone(spaced, "grep "), head, True, True, False, False, False],
             "The result made for the call with none; how many of the session's earlier "
             "messages the view holds as the very objects recorded; whether the kept result of "
             "the call answered twice is the first one recorded; whether the result recorded "
             "before its call is the one kept; whether a second repair hands back the same made "
             "result; whether the repair of an empty list is that very list, and of a valid record of "
             "more than a thousand messages that very record.")
    far = f"z{t.random.randint(1, 9)}"
    record = [harness.user_message("Begin."), calling([far])]
    for n in range(t.random.randint(128, 134)):
        record += [harness.user_message(f"Step {n}."), calling([f"g{n}"]), answer(f"g{n}"),
                   lab.say("Next.")]
    ids, call, odd = odd_batch(t, "y")
    late = answer(far, "at last")
    record += [harness.user_message("The last ones."), call, *odd, late, lab.say("Done.")]
    before = copy.deepcopy(record)
    view = harness.repair_tool_history(tuple(record))
    t.expect([len(view), view[2] is late, odd_found(view, ids, odd, record, before)],
             [len(record) - len(odd) + 5, True, ["list", True, [True] * 3, True, True]],
             "The repair, handed as a tuple, of a record of five hundred-odd messages whose first "
             "call's result is recorded last of all, and whose last batch's results are odd: "
             "recorded a hundred and fifty to eight hundred times in the same words, naming another tool, empty and an "
             "error, missing with an orphan for the id in capitals, an orphan that is an "
             "error, and fifty-seven or more orphans in all. Items: the view's length, whether the "
             "first call's result is the one "
             "recorded, and what the repair of the odd batch holds (its type, the record as it "
             "was, each result the one recorded first, the one naming another tool that or a "
             "made one, the missing one made).")


@lab_test("A harness made from a record whose reply of three hundred-odd calls is half answered, "
          "out of order, hands its model a valid view: every call answered in call order, the "
          "record's own dicts where it had a result, a new one where it had none.")
async def test_bank_a_harness_loaded_with_a_wide_broken_reply(t):
    width = t.random.randint(303, 380)
    ids = [f"w{n}" for n in range(width)]
    names = ["read"] * width
    lost = t.random.sample(range(width), 3)
    ids[lost[0]] = f" {ids[lost[0]]} "
    names[lost[1]] = "look "
    empty, twice = [n for n in t.random.sample(range(width), 6) if n not in lost][:2]
    recorded = [answer(ids[n], "" if n == empty else None, names[n],
                       error=n == twice) for n in reversed(range(width)) if n not in lost]
    after = [m["tool_call_id"] for m in recorded].index(ids[twice]) + 1  # the error stays first
    recorded.insert(t.random.randint(after, len(recorded)), answer(ids[twice], "fine now"))
    recorded.insert(t.random.randrange(len(recorded)), answer("nobody", "from nowhere"))
    # an orphan whose id is a lost call's without its spaces: it answers no call
    for stray in {ids[lost[0]].strip(), ids[lost[0]].rstrip(), ids[lost[0]].lstrip()}:
        recorded.insert(t.random.randrange(len(recorded)), answer(stray, "not mine"))
    record = [harness.user_message("Read everything."), calling(ids, names)] + recorded
    model = Handed([lab.say("Where was I?")], record)
    h = harness.Harness(model, SYSTEM, [], messages=record)
    await lab.drive(h.prompt("Go on."))
    sent = model.calls[0].messages
    made = [m for m in sent if m["role"] == "toolResult" and m["content"] == GONE]
    t.expect([len(sent), [m["tool_call_id"] for m in results_of(sent)] == ids,
              [sent[2 + n]["content"] for n in (empty, twice)], made,
              model.handed[0].count(False), lab.validate(sent)],
             [width + 3, True, ["", f"text of {ids[twice]}"],
              [gone(ids[n], names[n]) for n in sorted(lost)], 4, []],
             "The first request of a harness made from a record whose wide reply has results "
             "missing, reversed, empty, doubled or orphaned. Items: its length, whether its "
             "results follow the calls, the empty result and the one recorded first for the "
             "doubled call, the results made for calls with none, how many messages handed "
             "to the model were not the record's own (the new prompt among them), what "
             "lab.validate finds wrong.")


@lab_test("context_for_model on a session of three hundred-odd messages, each result recorded "
          "behind a user message and a reply, with failed empty replies between, puts every "
          "result back by its call, keeps what stood between, and fills the last batch's hole.")
async def test_bank_results_behind_a_reply_in_a_long_session(t):
    record, turns = [], t.random.randint(61, 64)
    for n in range(turns):
        record += [harness.user_message(f"Task {n}."), calling([f"t{n}"]),
                   harness.user_message("Any news?"), lab.say("Working on it.")]
        if n < turns - 1:  # the last task's result comes in after the next batch of calls
            record.append(answer(f"t{n}"))
        if n % 20 == 7:
            record.append(harness.error_message("overloaded"))
    ids = unsorted_ids(t, 3, "f")
    hole = t.random.randrange(3)
    ids[hole] = f"{ids[hole]} "
    names = ["read" if n != hole else " stat" for n in range(3)]
    record += [harness.user_message("Last ones."), calling(ids, names)]
    record += [answer(i) for n, i in reversed(list(enumerate(ids))) if n != hole]
    record += [answer(f"t{turns - 1}"), answer(ids[hole].strip(), "for no call")]
    before = copy.deepcopy(record)
    view = harness.context_for_model(record)
    again = harness.context_for_model(record)
    known = {id(m) for m in record}
    t.expect([len(view), lab.shape(view[:5]), lab.shape(view[-4:]),
              [m["content"] for m in results_of(view)].count(GONE)],
             [5 * turns + 5, "U A[t0] R(t0) U A",
              f"A[{','.join(ids)}] " + " ".join(f"R({i})" for i in ids), 1],
             "The view of a long session whose results each stand behind a user message and a "
             "reply. Items: its length, its first exchange, its last batch, and how many of its "
             "results are the interrupted one.")
    t.expect([view[-4 + 1 + hole], sum(id(m) in known for m in view), record == before,
              again[-4 + 1 + hole] is view[-4 + 1 + hole]],
             [gone(ids[hole], " stat"), len(view) - 1, True, False],
             "The result made for the last batch's call with none; how many messages of the "
             "view are the record's own objects; whether the record is as it was; whether a "
             "second view of the record holds the very result the first one made.")
    await lab.tick()  # each repair is its own stretch: a slower scan the page allows fits in one
    record, renamed = corners(t, "y")
    with hours_pass(60, processor=True, dates=True):  # every clock the kit moves: an hour a reading
        view = harness.context_for_model(record)
    t.expect(corners_found(view, record, renamed),
             why="The view of a record with a wide reply's results out of order around a user "
             "message and a hole, a recorded result in the interrupted words beside its call, "
             "three pairs of long ids alike but for their last, first or a middle character, a reply of three hundred-odd calls with no result, a result "
             "naming another tool "
             "before one naming the call's, and its first call's result recorded thousands of "
             "messages later. Items: the view's length, where each of its messages stands in the "
             "record, and how many are the question and answer repeated thousands of times.")


@lab_test("A record of two batches, the first of three hundred-odd calls answered in reverse, "
          "with results doubled (an error first, or an answer first), empty, or for no call, "
          "repairs to one result per call, the first recorded, in call order.")
async def test_bank_doubles_orphans_and_a_wide_batch(t):
    width = t.random.randint(303, 380)
    wide = [f"v{n}" for n in range(width)]
    small = unsorted_ids(t, 3, "s")
    first_error, first_ok, empty = small
    moved = t.random.choice(wide)  # its result comes in after the next batch of calls
    record = [harness.user_message("Scan."), calling(wide)]
    record += [answer(i) for i in reversed(wide) if i != moved]
    record += [answer("ghost1", "lost"), answer(first_ok, "ok first"),
               harness.error_message("overloaded"), harness.user_message("Now these."),
               calling(small), answer(moved), answer(first_error, GONE, error=True),
               answer("ghost2", "lost too"), answer(empty, ""),
               answer(first_error, "ok later"), answer(first_ok, "failed later", error=True),
               lab.say("Scanned.")]
    view = harness.repair_tool_history(record)
    found = results_of(view)
    blank = []
    harness.repair_tool_history(blank).append(harness.user_message("Hello."))
    await lab.tick()  # as between each repair below: a slower scan the page allows fits in one
    steady = []
    for n in range(t.random.randint(260, 300)):  # a valid record of more than a thousand messages
        steady += [harness.user_message(f"Item {n}."), calling([f"i{n}"]), answer(f"i{n}"),
                   lab.say("Fine.")]
    harness.repair_tool_history(steady).append(harness.user_message("Hello."))
    await lab.tick()
    t.expect([len(view), [m["tool_call_id"] for m in found] == wide + small,
              [[m["content"], m["is_error"]] for m in found[width:]],
              [m["content"] for m in found].count(GONE),
              lab.validate([m for m in view if m["content"] or m["role"] != "assistant"]), blank,
              len(steady) % 4],
             [width + 9, True,
              [{first_error: [GONE, True], first_ok: ["ok first", False],
                empty: ["", False]}[i] for i in small], 1, [], [], 0],
             "The repair of two batches, the first wide and answered in reverse, one result "
             "behind the second batch, the second with doubled (one recorded before its call), "
             "empty and orphan results. Items: the view's length, whether its results follow "
             "the calls, the second batch's [content, is_error] in call order, how many results "
             "say what the interrupted one says, what lab.validate finds wrong with the view "
             "(the failed empty reply aside: leaving it out is context_for_model's job), an "
             "empty list after a message was appended to its repair, and the length of a valid "
             "record of more than a thousand messages after one was appended to its repair, "
             "modulo four.")
    await lab.tick()
    far = f"u{t.random.randint(1, 9)}"
    early = answer(far, "recorded long before its call")
    ids, call, odd = odd_batch(t, "o")
    record = [early, harness.user_message("Check these."), call, *odd, lab.say("Checked.")]
    for n in range(t.random.randint(125, 130)):
        record += [harness.user_message(f"Item {n}."), calling([f"i{n}"]), answer(f"i{n}"),
                   lab.say("Fine.")]
    record += [harness.user_message("And that one?"), calling([far]), lab.say("Seen.")]
    before = copy.deepcopy(record)
    view = harness.repair_tool_history(tuple(record))
    t.expect([len(view), view[-2] is early, odd_found(view, ids, odd, record, before)],
             [len(record) - len(odd) + 5, True, ["list", True, [True] * 3, True, True]],
             "The repair, handed as a tuple, of a record of five hundred-odd messages whose last "
             "call's result was recorded first of all, and whose first batch's results are odd "
             "(recorded a hundred and fifty to eight hundred times in the same words, naming another tool, empty and an "
             "error, missing with an orphan for the id in capitals, an orphan that is an error, "
             "fifty-seven or more orphans in all). "
             "Items: the view's length, whether the last call's result is the one recorded, and "
             "what the repair of the odd batch holds.")
    await lab.tick()
    record, renamed = corners(t, "w")
    before = copy.deepcopy(record)
    with hours_pass(60, processor=True, dates=True):  # every clock the kit moves: an hour a reading
        view = harness.repair_tool_history(record)
    t.expect([corners_found(view, record, renamed), record == before],
             why="The repair of a record with a wide reply's results out of order around a user "
             "message and a hole, a recorded result in the interrupted words beside its call, "
             "three pairs of long ids alike but for their last, first or a middle character, a reply of three hundred-odd calls with no result, a result "
             "naming another tool "
             "before one naming the call's, and its first call's result recorded thousands of "
             "messages later. Items: [the view's length, where each of its messages stands in "
             "the record, how many are the repeated question and answer], and whether the record "
             "is as it was.")


# --- rule 2: context_for_model, the filter repaired; the record never changed ------------------

def out_of_place(t):
    """What lab.validate finds wrong with the view of a record whose every call has its result,
    as many results as calls, some behind a user message and in reverse order."""
    ids = unsorted_ids(t, t.random.randint(2, 4), "q")
    cut = t.random.randint(1, len(ids) - 1)
    record = ([harness.user_message("These."), calling(ids)]
              + [answer(i) for i in reversed(ids[cut:])] + [harness.user_message("Well?")]
              + [answer(i) for i in reversed(ids[:cut])] + [lab.say("Read.")])
    return lab.validate(harness.context_for_model(record))


def huge_hole(t):
    """The view of a record of over a hundred thousand messages whose newest call has no result:
    [its length over the record's, its last message]."""
    cut = f"k{t.random.randint(1, 99)}"
    record = ([harness.user_message("More?"), lab.say("More.")] * t.random.randint(50_001, 51_000)
              + [harness.user_message("Last one."), calling([cut])])
    view = harness.context_for_model(record)
    return [len(view) - len(record), view[-1] == gone(cut, "read")]


def unrecorded(events, record):
    """The shape of the messages `events` announced in a message_end that are not on `record`."""
    return lab.shape([e["message"] for e in events if e["type"] == "message_end"
                      and not any(e["message"] is m for m in record)])


async def strays_kept(t):
    """A harness handed a record whose results stray (one moved past the answer, one recorded
    twice, over two thousand that no call asked for) and whose last calls, to deploy, to read and to one
    more tool, have none, then run once. What a check holds: for the record
    before the run and after it, [its shape, whether each message handed in is the very one
    there], then what the run printed, logged or warned (a repair that drops the stray says
    nothing)."""
    ids = unsorted_ids(t, 2, "z")
    handed = [harness.user_message("Look."), calling(ids), answer(ids[1]), lab.say("Half."),
              answer(ids[0]), answer(ids[1], "twice"), answer("z99", "stray"),
              harness.user_message("Ship it."),
              calling(["d1", "r1", "o1"], ["deploy", "read", t.random.choice(
                  ["write", "edit", "bash", "grep", "ls", "find", "fetch"])])]
    handed += [answer(f"y{n}", "stray") for n in range(t.random.randint(2100, 3000))]
    h = harness.Harness(lab.ScriptedModel([lab.say("Still here.")]), SYSTEM, [], messages=handed)
    found = [[lab.shape(h.messages), [a is b for a, b in zip(h.messages, handed)]]]
    with everything_said() as printed:
        await lab.drive(h.prompt("Still there?"))
    found.append([lab.shape(h.messages), [a is b for a, b in zip(h.messages, handed)]])
    return found + [printed.getvalue()]


class Walkaway(Exception):
    """What a consumer's own handler raises, as a screen that crashes mid-run."""


@lab_test("Holes left in two runs, by a consumer whose handler raises at a tool_execution_start "
          "and, in a new harness handed that record, by a power cut in a later batch, stay on the "
          "record, while every request, each one of a later run that calls a tool included, is "
          "valid, answers each lost call as interrupted, and is never announced.")
async def test_bank_holes_from_two_runs(t):
    first, second = t.random.randint(2, 3), t.random.randint(2, 3)
    paths = t.random.sample(NAMES, first + second)
    before = held(harness)
    crash_at, cut_at = t.random.randrange(first), t.random.randrange(second)

    def read(arguments):
        if arguments["path"] == paths[first + cut_at]:
            raise lab.PowerCut("the power went off")
        return "text of " + arguments["path"]
    model = lab.ScriptedModel([lab.reply(*[lab.call("read", {"path": p}) for p in paths[:first]]),
                               lab.reply(*[lab.call("read", {"path": p}) for p in paths[first:]]),
                               lab.reply(lab.call("read", {"path": paths[0]})),
                               lab.say("Where was I?")])
    h = harness.Harness(model, SYSTEM, [tool("read", read, PATH)])
    starts = []

    def crash(event):
        if event["type"] == "tool_execution_start":
            starts.append(event)
            if len(starts) == crash_at + 1:
                raise Walkaway("the screen crashed")
    with everything_said() as printed:
        got = [await raised(lambda: lab.drive(h.prompt("Read some."), on_event=crash))]
        h = harness.Harness(model, SYSTEM, [tool("read", read, PATH)], messages=h.messages)
        got.append(await raised(lambda: lab.drive(h.prompt("Read more."))))
        events = await lab.drive(h.prompt("Well?"))
    t.expect([printed.getvalue(), [e["type"] for e in events]],
             why="What the three runs printed on either stream, and the types of the last run's "
             "events, in order: a repair prints nothing and adds no event.")
    ids = [f"c{n}" for n in range(1, first + second + 2)]
    one, two, last = ids[:first], ids[first:-1], ids[-1]
    t.expect([got, lab.shape(h.messages), unrecorded(events, h.messages)],
             [["Walkaway: the screen crashed", "PowerCut: the power went off"],
              " ".join([f"U A[{','.join(one)}]"] + [f"R({i})" for i in one[:crash_at]] +
                       [f"U A[{','.join(two)}]"] + [f"R({i})" for i in two[:cut_at]] +
                       [f"U A[{last}] R({last}) A"]), ""],
             "A run whose consumer crashed at a call's tool_execution_start, then, in a new "
             "harness handed its record, a run cut by a power cut and a run whose model calls a "
             "tool. Items: what the first two runs raised, the record, and the messages the last "
             "run announced that are not on the record.")
    t.expect(await strays_kept(t),
             why="A harness handed a record whose results stray (one moved past the answer, one "
             "recorded twice, over two thousand that no call asked for) and whose calls to deploy, read and "
             "one more tool have none, "
             "then run once. Items: [its record, "
             "whether each message handed in is the very one there], before the run and after, "
             "then what the run printed, logged or warned.")
    lost = first - crash_at + second - cut_at
    t.expect([[lab.validate(request.messages) for request in model.calls],
              [[m["content"] for m in results_of(request.messages)].count(GONE)
               for request in model.calls]],
             [[[], [], [], []], [0, first - crash_at, lost, lost]],
             "For each of the four requests: what lab.validate finds wrong, and how many of its "
             "results are the interrupted one.")
    t.expect(read_only_views(t, h.messages), [lab.shape(harness.context_for_model(list(h.messages)))] * 3,
             "The view of the last harness's messages, a tuple, of the same record as a list "
             "that refuses changes, of messages that refuse changes, and as a plain list of "
             "plain dicts, each as of the record in a plain list: context_for_model only reads "
             "the record, never writes to it, not even for a moment (context_for_model, lesson "
             "10). The items: each shape, or what it raised, or \"grown\" for a plain list or "
             "dict that takes more memory after the view than before.")
    t.expect([out_of_place(t), grew_in(before, harness), huge_hole(t)], [[], {}, [1, True]],
             "What lab.validate finds wrong with the view of a record whose every call has its "
             "result, some out of place, and the lists, dicts, sets and deques at the top of "
             "harness.py that grew over these runs and views, then the view of a record of over a "
             "hundred thousand messages whose newest call has no result ([its length over the "
             "record's, whether its last message is that call's interrupted result]): every "
             "request is valid, whatever the record holds, however long, and the results a "
             "repair invents live only in the requests.")


@lab_test("The view of every prefix of a record with holes in two batches, failed empty "
          "replies and a late result for a hole, built from one list as it grows, is valid and "
          "made fresh, and the record is as it was after each, and after its own view.")
async def test_bank_the_view_of_every_prefix(t):
    one, two = unsorted_ids(t, 3, "p"), unsorted_ids(t, 2, "q")
    kept_one, kept_two = t.random.randrange(3), t.random.randrange(2)
    strays = [answer(f"s{n}", "stray") for n in range(t.random.randint(1, 2))]
    record = [harness.user_message("Begin.")] + strays + [calling(one)]  # strays before any call
    record += [answer(i) for i in one[:kept_one]]
    record += [harness.error_message(t.random.choice(["overloaded", "bad gateway", ""])),
               harness.user_message("Again."), calling(two, text="Trying again.")]
    record += [answer(i) for i in two[:kept_two]]
    said, mute = f"r{t.random.randint(1, 9)}", f"m{t.random.randint(1, 9)}"
    record += [harness.error_message("stream broke"),
               lab.fail("cut off", "Let me see.", lab.call("read", {"path": "a.txt"}, id=said)),
               lab.fail("cut off", lab.call("read", {"path": "b.txt"}, id=mute)),
               harness.user_message("Still there?"),
               answer(one[kept_one], "late, but recorded")]  # a hole of the first batch filled
    before = copy.deepcopy(record)
    problems, made, same, grown, new = [], [], [], [], []
    for end in range(1, len(record) + 1):
        grown.append(record[end - 1])  # one list, growing as a record does
        view = harness.context_for_model(grown)
        problems.append(lab.validate(view))
        made.append([m["content"] for m in results_of(view)].count(GONE))
        new.append(sum(not any(m is r for r in grown) for m in view))
        same.append(record == before)
    whole = harness.context_for_model(record)
    again = harness.context_for_model(record)
    swapped = swapped_view(record, 3 + len(strays) + kept_one)  # "Again.", in the middle
    t.expect([read_only_views(t, record), swapped], [[lab.shape(whole)] * 3, [True, False, True, False]],
             "The view of the whole record handed as a tuple, as a list that refuses changes, "
             "of messages that refuse changes, and as a plain list of plain dicts (\"grown\" "
             "when that list or a message in it takes more memory after the view than before), "
             "as of the same record in a plain list: "
             "context_for_model only reads the record, never writes to it, not even for a "
             "moment; then whether the view of a copy of the record with another user message in "
             "its middle holds that message, and the one it replaced: a view is built fresh from "
             "the list it is handed (context_for_model, lesson 10).")
    made_whole = [m for m in whole if not any(m is r for r in record)]
    made_again = [m for m in again if not any(m is r for r in record)]
    t.expect([[m for m in made_whole if m["tool_call_id"] in (said, mute)],
              [a is b for a, b in zip(made_whole, made_again)]],
             [[gone(said, "read"), gone(mute, "read")], [False] * len(made_whole)],
             "The view of the whole record, whose last replies failed with a call each, one "
             "with words and one without. Items: the results made for those two calls, and, "
             "for each result the view made, whether a second view of the same record hands "
             "out that very one again.")
    wanted = []
    for end in range(1, len(record) + 1):
        part = record[:end]
        asked = [c["id"] for m in part if m["role"] == "assistant" for c in harness.tool_calls(m)]
        wanted.append(len(asked) - sum(m["role"] == "toolResult" and m["tool_call_id"] in asked
                                       for m in part))
    t.expect([problems, made, same, record == before, lab.shape(whole), new],
             [[[]] * len(record), wanted, [True] * len(record), True,
              f"U A[{','.join(one)}] " + " ".join(f"R({i})" for i in one) +
              f" U A[{','.join(two)}] " + " ".join(f"R({i})" for i in two) +
              f" A[{said}](error) R({said}) A[{mute}](error) R({mute}) U", wanted],
             "context_for_model on each prefix of a record with two holes, and results no "
             "call asked for before its first call. Items: what "
             "lab.validate finds wrong with each view, how many interrupted results each holds, "
             "whether the record was as it was after each, and after the whole record's view, "
             "whose shape is next; last, how many messages of each view are not objects of the "
             "list it was built from.")


@lab_test("A harness made from a record with a hole in an early batch and a failed reply that "
          "said something and made a call keeps that record as given through runs of its own, "
          "while each request is valid.")
async def test_bank_a_harness_keeps_the_holes_it_was_given(t):
    early = unsorted_ids(t, 2, "e")
    before = held(harness)
    record = [harness.user_message("Start."), calling(early), answer(early[0]),
              harness.error_message("overloaded"), harness.user_message("Retry."),
              lab.fail("connection reset", "Let me check.", lab.call("read", {"path": "x.txt"},
                                                                     id="x1")),
              harness.user_message("Hello?"), lab.say("Here."),
              lab.fail("timeout", lab.call("read", {"path": "y.txt"}, id="x2")),
              harness.user_message("Again?"), lab.say("Yes.")]
    given = lab.shape(record)
    paths = t.random.sample(NAMES, t.random.randint(1, 3))
    model = lab.ScriptedModel([lab.say("Back."),
                               lab.reply(*[lab.call("read", {"path": p}) for p in paths]),
                               lab.say("Read."), lab.say("Bye.")])
    h = harness.Harness(model, SYSTEM, [tool("read", lambda a: "text of " + a["path"], PATH)],
                        messages=record)
    shapes, announced, types = [], [], []
    with everything_said() as printed:
        for ask in ("Status?", "Read these.", "Thanks."):
            events = await lab.drive(h.prompt(ask))
            shapes.append(lab.shape(h.messages))
            announced.append(unrecorded(events, h.messages))
            types.append([e["type"] for e in events])
    t.expect([printed.getvalue(), types,
              [m for m in results_of(model.calls[0].messages) if m["tool_call_id"] in
               ("x1", "x2")]],
             why="What the three runs printed on either stream, the types of each run's events, and "
             "the results the first request gives the two failed replies' calls.")
    grown = list(h.messages)
    harness.context_for_model(grown)
    grown.append(answer(early[1], "late, but recorded"))
    late_view = harness.context_for_model(grown)
    late = [m["content"] for m in results_of(late_view) if m["tool_call_id"] == early[1]]
    late.append(sum(not any(m is r for r in grown) for m in late_view))
    late_again = harness.context_for_model(grown)
    late.append([a is b for a, b in zip(late_view, late_again)
                 if not any(a is r for r in grown)])
    late.append(swapped_view(grown, 6))  # "Hello?", in the middle
    ids = ",".join(f"c{n}" for n in range(1, len(paths) + 1))
    results = " ".join(f"R(c{n})" for n in range(1, len(paths) + 1))
    t.expect([shapes, [lab.validate(request.messages) for request in model.calls],
              [[m["content"] for m in results_of(request.messages)].count(GONE)
               for request in model.calls], announced, late],
             [[given + " U A", given + f" U A U A[{ids}] {results} A",
               given + f" U A U A[{ids}] {results} A U A"], [[]] * 4, [3] * 4, [""] * 3,
              ["late, but recorded", 2, [False, False], [True, False, True, False]]],
             "Three runs of a harness made from a record with two holes. Items: the record "
             "after each run, what lab.validate finds wrong with each request, how many "
             "interrupted results each request holds, the messages each run announced that are "
             "not on the record, and, once a late result for a hole is appended to a copy of "
             "the record whose view was built already, the result its next view gives that "
             "call, how many messages of that view are not objects of the copy, and, for each "
             "result it made, whether a second view hands out that very one again, and whether the view "
             "of that copy with another user message in its middle holds that message and the "
             "one it replaced.")
    t.expect(await strays_kept(t),
             why="Another harness handed a record whose results stray (one moved past the "
             "answer, one recorded twice, over two thousand that no call asked for) and whose calls to deploy, "
             "read and one more tool have none, then run once. Items: "
             "[its record, whether each message handed in is the very one there], before the "
             "run and after, then what the run printed, logged or warned.")
    bare = ([harness.user_message("Hi.")]
            + [answer(f"w{n}", "stray") for n in range(t.random.randint(1, 3))]
            + [harness.error_message("overloaded")] * t.random.randint(0, 2) + [lab.say("Hello.")])
    model = lab.ScriptedModel([lab.say("Still here.")])
    h = harness.Harness(model, SYSTEM, [], messages=bare)
    await lab.drive(h.prompt("Anyone?"))
    t.expect([lab.shape(model.calls[0].messages), lab.validate(model.calls[0].messages),
              lab.shape(h.messages) == lab.shape(bare) + " U A"],
             ["U A U", [], True],
             "A harness handed a record with no call in it at all, only results no call asked "
             "for, then run once. Items: the shape of the request its model is handed, what "
             "lab.validate finds wrong with it, and whether the record kept those results: "
             "a result that answers no call is not in the view, whether or not any call is in "
             "it (context_for_model, lesson 10).")
    t.expect([grew_in(before, harness), out_of_place(t), huge_hole(t)], [{}, [], [1, True]],
             "The lists, dicts, sets and deques at the top of harness.py that grew over these "
             "runs and views, and what lab.validate finds wrong with the view of a record whose "
             "every call has its result, some behind a user message, then the view of a record of "
             "over a hundred thousand messages whose newest call has no result: the results a "
             "repair invents live only in the requests, and every request is valid, whatever "
             "the record holds, however long.")
