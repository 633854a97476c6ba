"""Lesson 10, lab 1: repair the view. The tests of INTERRUPTED, repair_tool_history and the
repairing context_for_model: every request pairs each call with one result, and the record
stays as it happened.

Each test draws its records from t.random (how many calls, their ids and tools, which results
are missing, doubled, out of order or orphaned, where a run is cut), so every rule is checked
over a family of records, not one.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 10 tests.py
"""
import copy
import sys

import harness
import lab
from lab.kit import (everything_said, grew_in, held, hours_pass, lab_test, raised, sealed,
                     tool)

LAB = "10.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
WORDS = ("Tool call interrupted: no result was recorded. It may not have run, or may have run "
         "partly; check before repeating it.")
TOOLS = ["look", "bash", "write", "grep", "edit"]
FILES = ["a.py", "b.py", "c.py", "setup.py", "README.md", "src/app.py", "tests/test_app.py",
         "docs/guide.md"]
ENDINGS = ("stop", "toolUse", "error", "aborted")  # every stop_reason a reply can have
ODD_IDS = ["", " ", "0", "None", "null", "false", "[]"]  # ids that look like nothing, but are ids
BLANKS = [None, [], {}, "", " ", "\n", 0]  # contents that look like nothing, but are contents


def draw_ids(t, count):
    """`count` distinct call ids, not in their sorted order when there are two or more, nor
    in the order of their numbers when there are three or more: ids are names, not numbers."""
    ids = [f"c{n}" for n in t.random.sample(range(1, 40), count)]
    while count > 1 and (ids == sorted(ids) or
                         count > 2 and ids == sorted(ids, key=lambda i: int(i[1:]))):
        t.random.shuffle(ids)
    return ids


def asks(*ids, text=None, names=None):
    """An assistant message that makes one call per id, in order: `look` unless `names` says
    which tool each call asks for."""
    names = names or ["look"] * len(ids)
    parts = ([text] if text else []) + [lab.call(name, {"path": f"{i}.py"}, id=i)
                                        for i, name in zip(ids, names)]
    return lab.reply(*parts)


def result(call_id, content=None, name="look"):
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": name,
            "content": content if content is not None else f"contents of {call_id}.py",
            "is_error": False}


def results(ids):
    """The shape of results for `ids`, in that order: "R(c4) R(c2)"."""
    return " ".join(f"R({i})" for i in ids)


def looker(cut_on=None):
    def fn(arguments):
        if arguments["path"] == cut_on:
            raise lab.PowerCut("the power went off")
        return "contents of " + arguments["path"]
    return tool("look", fn, PATH)


def contents(messages):
    return [m["content"] for m in messages if m["role"] == "toolResult"]


def valid_record(t):
    """A drawn record that is already valid: exchanges of plain replies and of batches of
    calls each answered in call order. The record, and its shape."""
    record, shapes, used = [], [], set()
    for n in range(t.random.randint(1, 4)):
        record.append(harness.user_message(f"Question {n}."))
        shapes.append("U")
        width = t.random.randint(0, 3)
        if width:
            # as many more than `width` as are used already, so that `width` are always left
            ids = [i for i in draw_ids(t, width + len(used)) if i not in used][:width]
            used.update(ids)
            record += [asks(*ids)] + [result(i) for i in ids]
            shapes.append(f"A[{','.join(ids)}] {results(ids)}")
        record.append(lab.say(f"Answer {n}."))
        shapes.append("A")
    return record, " ".join(shapes)


@lab_test("INTERRUPTED is exactly the sentence the model reads for a call whose result was never "
          "recorded.")
async def test_interrupted_is_exact(t):
    ids = draw_ids(t, t.random.randint(1, 4))
    view = harness.repair_tool_history([harness.user_message("Go."), asks(*ids)])
    t.expect([harness.INTERRUPTED] + contents(view), [WORDS] * (1 + len(ids)),
             "INTERRUPTED's text is a contract: the model reads it and the tests compare it. "
             "The items are INTERRUPTED, then the content of each result invented for a "
             "drawn call with none (lesson 10).")
    record = [harness.user_message("Go."), asks(*ids)]
    made = [harness.repair_tool_history(record)[2:] for _ in range(2)]
    t.expect([a is b for a, b in zip(*made)], [False] * len(ids),
             "The same record repaired twice: each repair makes a new result for each call with "
             "none, never one it made before and kept. One item per call: whether the two "
             "repairs handed back the very same invented result (repair_tool_history, lesson 10).")


@lab_test("A list that is already valid comes back equal, as a new list holding the very same "
          "message objects.")
async def test_a_valid_list_comes_back_equal(t):
    record, shape = valid_record(t)
    view = harness.repair_tool_history(record)
    t.expect(lab.shape(view), shape,
             "Nothing to repair means nothing changes (repair_tool_history, lesson 10).")
    t.expect([view == record, view is record, [a is b for a, b in zip(view, record)]],
             [True, False, [True] * len(record)],
             "[equal, the same list, each message the same object]: a new list, no copies of "
             "the messages (repair_tool_history, lesson 10).")
    empty = []
    view = harness.repair_tool_history(empty)
    t.expect([view, view is empty], [[], False],
             "An empty record. The items are [the view, the view the very list handed in]: "
             "repair_tool_history returns a new list, an empty one too (lesson 10).")
    view = harness.repair_tool_history(tuple(record))
    t.expect([type(view).__name__, lab.shape(view)], ["list", shape],
             "The same record handed in as a tuple, as a harness's `messages` snapshot is. The "
             "items are [the type of what comes back, its shape]: repair_tool_history returns "
             "a new list whatever sequence it is handed (lab 10.1, Build item 1, "
             "\"returns a new list\").")
    long = []
    for n in range(1, 102):
        long += [harness.user_message(f"Question {n}."), asks(f"c{n}"), result(f"c{n}"),
                 lab.say(f"Answer {n}.")]
    again = t.random.randint(1_000, 3_000)  # then a question and answer, again and again
    long += [harness.user_message("And then?"), lab.say("Then this.")] * again
    view = harness.repair_tool_history(long)
    t.expect([len(view), view == long, view is long], [404 + 2 * again, True, False],
             f"A long valid record: 101 exchanges of a question, one call, its result and an "
             f"answer, then a question and answer {again} times, {404 + 2 * again} messages. "
             "The items are [the view's length, the view equal to the record, the view the "
             "very list handed in]: the whole record is read, however long it is, nothing in "
             "it needs repair, and what comes back is a new list, however long the record "
             "(Build item 1, \"returns a new list\") (repair_tool_history, lesson 10).")


@lab_test("A call with no result gets one right after it: INTERRUPTED, an error, with the call's "
          "id and tool name, and those five keys alone.")
async def test_a_missing_result_is_filled_in(t):
    ids = draw_ids(t, t.random.randint(1, 4))
    names = [t.random.choice(TOOLS) for _ in ids]
    missing = t.random.sample(ids, t.random.randint(1, len(ids)))
    record = [harness.user_message("Do it."), asks(*ids, names=names)]
    record += [result(i, name=name) for i, name in zip(ids, names) if i not in missing]
    record.append(harness.user_message("Are you there?"))
    view = harness.repair_tool_history(record)
    t.expect(lab.shape(view), f"U A[{','.join(ids)}] {results(ids)} U",
             "The invented result goes straight after its call, in call order "
             "(repair_tool_history, lesson 10).")
    taken = [m for m in view if m["role"] != "toolResult"]
    t.expect([a is b for a, b in zip(taken, [m for m in record if m["role"] != "toolResult"])],
             [True] * 3,
             "The user messages and the reply of a list that needed a repair. One item each: "
             "whether the view holds the very object of the record. Every message taken from "
             "the list is the same object, not a copy, whether or not something was repaired "
             "(repair_tool_history, lesson 10).")
    t.expect([m for m in view if m["role"] == "toolResult" and m["tool_call_id"] in missing],
             [{"role": "toolResult", "tool_call_id": i, "tool_name": name, "content": WORDS,
               "is_error": True} for i, name in zip(ids, names) if i in missing],
             "The invented result says the call may or may not have run, and is an error, with "
             "the call's id and tool name, and has those five keys alone; one item per call "
             "that had no result (repair_tool_history, lesson 10).")
    # long ids, a drawn length of tens or hundreds of thousands of characters: three pairs, one
    # alike but for its last character, one but for its first, one but for one in the middle
    size = t.random.randint(20_000, 400_000)
    stem = "call_" + format(t.random.getrandbits(4 * size), "x").zfill(size)
    pair = [stem + t.random.choice("xyz"), stem + "w"]
    turned = [t.random.choice("xyz") + stem, "w" + stem]
    mid = t.random.randrange(size // 3, 2 * size // 3)  # a character well inside: drawn
    middle = [stem[:mid] + t.random.choice("xyz") + stem[mid + 1:], stem[:mid] + "w" + stem[mid + 1:]]
    got = [result(pair[1], "the result of the second call"),
           result(turned[1], "the result of the fourth call"),
           result(middle[1], "the result of the sixth call")]
    view = harness.repair_tool_history([harness.user_message("Six more."),
                                        asks(*pair, *turned, *middle), *got])
    t.expect([len(view), view[2]["content"] == WORDS, view[3] is got[0],
              view[4]["content"] == WORDS, view[5] is got[1],
              view[6]["content"] == WORDS, view[7] is got[2]],
             why=f"A reply of six calls whose ids are {len(pair[0])} characters long, the first "
             "two alike but for their last character, the next two alike but for their "
             "first, the last two alike but for one character in the middle, then the second "
             "call's result, the fourth's and the sixth's. The items are [the view's "
             "length, whether the first call's result is INTERRUPTED, whether the second's is "
             "the very one recorded, the same two for the third and fourth, and for the fifth "
             "and sixth]: a result answers the "
             "call whose id is exactly its own, all of it, its middle as well as its ends, "
             "however long (Build item 1, \"A "
             "result answers the call whose id it carries.\") (repair_tool_history, lesson 10).")
    width = t.random.randint(302, 380)  # how many calls come before the last: drawn
    last = f"\tc{width} "
    wide = asks(*[f"c{n}" for n in range(width)], last, names=["look"] * width + ["grep "])
    upper = f"C{t.random.randrange(width)}"  # a drawn call's id, in capitals
    # results for ids that are the last call's with some of its spaces gone: they answer no call
    strays = [f"c{width}", upper, f"\tc{width}", f"c{width} "]
    early = [f"e{n}" for n in range(t.random.randint(100, 130))]  # a reply before it, and
    first = result(early[0], "the first call's result")  # its first call's result alone
    view = harness.repair_tool_history([harness.user_message("Look at these."), asks(*early),
                                        first, harness.user_message("Look at all of them."), wide]
                                       + [result(i, f"the result of another call ({n})")
                                          for n, i in enumerate(strays)])
    t.expect([len(view), view[2] is first, view[-1], contents(view).count(WORDS)],
             [len(early) + width + 5, True, {"role": "toolResult", "tool_call_id": last,
                                             "tool_name": "grep ", "content": WORDS,
                                             "is_error": True}, len(early) + width],
             f"A reply of {len(early)} calls, of which only the first has its result, then a "
             f"reply of {width + 1} calls with no result recorded, the last with the id "
             f"'\\tc{width} ' and the tool name 'grep ', as the model wrote them, then results "
             f"for the ids 'c{width}', '{upper}', '\\tc{width}' and 'c{width} ', which no call "
             "has. The items are [the view's length, whether the first call's result is the "
             "very one recorded, its last message, how many of its results are INTERRUPTED]: "
             "every call of a reply gets its result, however many there are, and a recorded "
             "result is the one used however many calls came after its own; a result answers the call whose id is exactly its own (Build item 1, \"A "
             "result answers the call whose id it carries.\"), so none of those four answers a "
             f"call, not even '{upper.lower()}' or the last, whose id has both a tab and a space "
             "around it, and none is in the view; and an invented result carries the call's id "
             "and tool name exactly as recorded, spaces and all (repair_tool_history, lesson 10).")
    t.expect(lab.shape(record), f"U A[{','.join(ids)}] "
             f"{results([i for i in ids if i not in missing])} U".replace("  ", " "),
             "The record is not changed (lesson 10).")
    # a reply of each ending, each making two calls: the first answered, the second not
    endings = t.random.sample(ENDINGS, len(ENDINGS))
    pairs = draw_ids(t, 2 * len(endings))
    record, kept = [harness.user_message("Each of them.")], []
    for n, ending in enumerate(endings):
        got, lost = pairs[2 * n:2 * n + 2]
        reply = dict(asks(got, lost, text=f"Trying ({ending})."), stop_reason=ending)
        if ending in ("error", "aborted"):
            reply["error_message"] = "cut off"
        kept.append(result(got, f"recorded for a reply that ended {ending}"))
        record += [reply, kept[-1], harness.user_message("Next.")]
    view = harness.repair_tool_history(record)
    t.expect([lab.shape(view), [any(m is r for m in view) for r in kept],
              contents(view).count(WORDS), lab.validate(view)],
             why=f"The record {lab.shape(record)}: a reply of each ending a reply can have "
             f"({', '.join(endings)}), each making two calls, the first with a result recorded "
             "after it (a record handed in, from a log say, may hold one even for a failed "
             "reply), the second with none. The items are [the view's shape, for each reply "
             "whether its first call's result is the very one recorded, how many results are "
             "INTERRUPTED, what lab.validate finds wrong with the view]: every call is followed "
             "at once by exactly one result, whatever its reply's stop_reason says, since the "
             "calls in its content decide, not the label; and a recorded result is the one "
             "used, a failed reply's too (Build item 1, \"every call is followed at once by "
             "exactly one result for it\" and \"A recorded result is the one used\") "
             "(repair_tool_history, lesson 10).")
    # ids that look like nothing, the empty one among them: answered in one record, not in another
    odd = t.random.sample(ODD_IDS, len(ODD_IDS))
    found = []
    for empty_answered in (True, False):
        answered = [i for i in odd if (empty_answered if i == "" else t.random.random() < 0.5)]
        record = ([harness.user_message("These ones."), asks(*odd)]
                  + [result(i, f"the result of {i!r}") for i in t.random.sample(answered, len(answered))]
                  + [lab.say("Done.")])
        view = harness.repair_tool_history(record)
        found.append([lab.shape(record), lab.shape(view),
                      ["INTERRUPTED" if c == WORDS else c for c in contents(view)],
                      lab.validate(view)])
    t.expect(found,
             why=f"A reply of {len(odd)} calls whose ids look like nothing "
             f"({', '.join(repr(i) for i in odd)}), some answered, in an order of their own: "
             "first with a result for the call whose id is the empty string, then with none for "
             "it. For each record, the items are [the record, the view's shape, its results' "
             "contents (INTERRUPTED's by that name), what lab.validate finds wrong with the "
             "view]: an id is a string, whatever it holds, so a result answers the call whose "
             "id it carries, the empty id too, and every call gets its result, whatever its id "
             "(Build item 1, \"A result answers the call whose id it carries.\" and \"every "
             "call is followed at once by exactly one result for it\") (repair_tool_history, "
             "lesson 10).")


@lab_test("A recorded result is the one used whatever it holds: one with empty content (a command "
          "that printed nothing) is a result, not a hole.")
async def test_an_empty_result_is_still_a_result(t):
    ids = draw_ids(t, t.random.randint(1, 4))
    empty = t.random.choice(ids)  # always one empty result; the others empty or not, as drawn
    texts = {i: "" if i == empty or t.random.random() < 0.3 else f"contents of {i}.py"
             for i in ids}
    # the empty one is an error (a command that failed and printed nothing); the others as drawn
    recorded = [dict(result(i, texts[i], name="bash"),
                     is_error=i == empty or t.random.random() < 0.3) for i in ids]
    record = [harness.user_message("Run them."), asks(*ids, names=["bash"] * len(ids))]
    record += recorded + [lab.say("Done.")]
    view = harness.repair_tool_history(record)
    t.expect([lab.shape(view), contents(view), [a is b for a, b in zip(view[2:], recorded)]],
             [f"U A[{','.join(ids)}] {results(ids)} A", [texts[i] for i in ids],
              [True] * len(ids)],
             f"{empty}'s result was recorded with empty content, and as an error, so it is the "
             "one used: a call has a result when one is recorded for its id, whatever its content "
             "says, an error with no words included (Build item 1, \"A recorded result is the "
             "one used\"). The items "
             "are [the view's shape, the results' contents, each result the very object "
             "recorded] (repair_tool_history, lesson 10).")
    sent = harness.context_for_model(record)
    t.expect([lab.shape(sent), contents(sent), [a is b for a, b in zip(sent[2:], recorded)]],
             [f"U A[{','.join(ids)}] {results(ids)} A", [texts[i] for i in ids],
              [True] * len(ids)],
             f"The view context_for_model builds of that record, {lab.shape(record)}. The items "
             "are [its shape, its results' contents, each result the very object recorded]: the "
             "view is what lesson 5's filter keeps, repaired, and the filter keeps every result, "
             "so a result with empty content reaches the model as it was recorded, never as "
             "INTERRUPTED (Build item 2, \"The view a request carries is what lesson 5's filter "
             "keeps, repaired\") (context_for_model, lesson 10).")
    blanks = t.random.sample(BLANKS, len(BLANKS))  # each a content that looks like nothing
    named = draw_ids(t, len(blanks))
    bare = [dict(result(i, name="bash"), content=c) for i, c in zip(named, blanks)]
    view = harness.repair_tool_history([harness.user_message("Run them all."),
                                        asks(*named, names=["bash"] * len(named)), *bare,
                                        lab.say("Done.")])
    t.expect([lab.shape(view), [m is b for m, b in zip(view[2:], bare)]],
             [f"U A[{','.join(named)}] {results(named)} A", [True] * len(bare)],
             f"Results recorded for {', '.join(named)} holding, in that order, "
             f"{', '.join(repr(c) for c in blanks)} for their content. The items are [the "
             "view's shape, for each call whether its result is the very object recorded]: a "
             "recorded result is the one used whatever it holds, None, an empty list or a "
             "space as well as \"\" (Build item 1, \"A recorded result is the one used\") "
             "(repair_tool_history, lesson 10).")


@lab_test("Results recorded out of order are put back in the order of the calls in their "
          "message.")
async def test_results_are_put_in_call_order(t):
    ids = draw_ids(t, t.random.randint(3, 6))
    recorded = t.random.sample(ids, len(ids))
    if recorded == ids:
        recorded = recorded[1:] + recorded[:1]
    record = [harness.user_message("Read them."), asks(*ids)] + [result(i) for i in recorded]
    view = harness.repair_tool_history(record + [lab.say("Done.")])
    t.expect(lab.shape(view), f"U A[{','.join(ids)}] {results(ids)} A",
             "Call order, not id order and not recorded order (repair_tool_history, lesson 10).")
    t.expect([contents(view), [m is record[2 + recorded.index(i)] for i, m in zip(ids, view[2:])]],
             [[f"contents of {i}.py" for i in ids], [True] * len(ids)],
             "Each call gets the result recorded for it, in call order; the items are [the "
             "results' contents, for each call whether its result is the very object recorded]: "
             "a result put back in order is moved, not copied (Build item 1, \"Every message it "
             "takes from `messages` is the very same object, not a copy.\") "
             "(repair_tool_history, lesson 10).")
    # A wide reply: its results recorded out of order, a user message among them, and holes,
    # one always before the last call.
    ids = draw_ids(t, t.random.randint(5, 8))
    holes = [t.random.choice(ids[:-1])] + [i for i in ids if t.random.random() < 0.2]
    recorded = [i for i in t.random.sample(ids, len(ids)) if i not in holes]
    if not recorded:  # every call drawn a hole (one draw in hundreds): the last keeps its result
        holes.remove(ids[-1])
        recorded = [ids[-1]]
    split = t.random.randint(1, len(recorded))
    record = ([harness.user_message("Read them all."), asks(*ids)]
              + [result(i) for i in recorded[:split]] + [harness.user_message("Faster.")]
              + [result(i) for i in recorded[split:]] + [lab.say("Done.")])
    view = harness.repair_tool_history(record)
    found = {m["tool_call_id"]: m for m in record if m["role"] == "toolResult"}
    t.expect([lab.shape(view), ["INTERRUPTED" if c == WORDS else c for c in contents(view)],
              [view[2 + n] is found[i] for n, i in enumerate(ids) if i in found],
              [a is b for a, b in zip([m for m in view if m["role"] != "toolResult"],
                                      [m for m in record if m["role"] != "toolResult"])]],
             why=f"The record {lab.shape(record)}: a reply of {len(ids)} calls whose results were "
             "recorded out of call order, a user message among them, some missing. The items are "
             "[the view's shape, its results' contents (INTERRUPTED's by that name), for each "
             "recorded result whether the view "
             "holds the very object recorded, for each other message whether the view holds the "
             "very object]: however many calls a reply makes, its results stand in the order of "
             "its calls, holes included, and every message taken from the record is the very same "
             "object, the user message moved past the batch too (Build item 1, \"the results of "
             "one reply stand in the order of its calls\" and \"Every message it takes from "
             "`messages` is the very same object, not a copy.\") (repair_tool_history, lesson 10).")


    # Wider still: tens or hundreds of calls, most of them answered, in an order of their own.
    width = t.random.randint(20, 300)
    ids = [f"w{n}" for n in t.random.sample(range(1000), width)]
    answered = t.random.sample(ids, t.random.randint(width // 2, width - 1))
    if answered == [i for i in ids if i in answered]:
        answered.reverse()
    recorded = [result(i) for i in answered]
    found = {m["tool_call_id"]: m for m in recorded}
    view = harness.repair_tool_history([harness.user_message("Read every one."), asks(*ids)]
                                       + recorded + [lab.say("Done.")])
    t.expect([len(view), [m["tool_call_id"] for m in view[2:-1]] == ids,
              all(view[2 + n] is found[i] for n, i in enumerate(ids) if i in found),
              contents(view).count(WORDS)],
             [width + 3, True, True, width - len(answered)],
             f"A reply of {width} calls, {len(answered)} of them answered in an order that is not "
             "theirs, the rest not at all. The items are [the view's length, whether its results "
             "follow the calls, whether each recorded result is the very one recorded, how many "
             "are INTERRUPTED]: the results of one reply stand in the order of its calls, however "
             "many calls it makes (Build item 1, \"the results of one reply stand in the order "
             "of its calls\") (repair_tool_history, lesson 10).")


@lab_test("A result separated from its call by a user message, or by a user message and a "
          "reply, is moved back next to its call.")
async def test_a_separated_result_is_moved_back(t):
    ids = draw_ids(t, t.random.randint(1, 4))
    early = t.random.randrange(len(ids))  # results recorded before the user spoke
    users = t.random.randint(1, 3)
    record = ([harness.user_message("Read them."), asks(*ids)] + [result(i) for i in ids[:early]]
              + [harness.user_message(f"Hurry up ({n}).") for n in range(users)]
              + [result(i) for i in ids[early:]] + [lab.say("Read them.")])
    view = harness.repair_tool_history(record)
    t.expect(lab.shape(view), f"U A[{','.join(ids)}] {results(ids)}" + " U" * users + " A",
             "A result belongs right after its call (repair_tool_history, lesson 10).")
    recorded = [m for m in record if m["role"] == "toolResult"]
    t.expect([[a is b for a, b in zip(view[2:2 + len(ids)], recorded)], contents(view)],
             [[True] * len(ids), [f"contents of {i}.py" for i in ids]],
             "It is the recorded result that moves, not a new one; the items are [each result "
             "the very object recorded, the results' contents] (repair_tool_history, lesson 10).")
    # A reply between as well: whatever stood between a result and its call stays, after the
    # batch, and the recorded result is still the one used.
    other = [i for i in draw_ids(t, 6) if i not in ids][0]
    between = [harness.user_message("Hurry up."), lab.say("Still reading."),
               harness.error_message("overloaded"), asks(other), result(other)]
    record = ([harness.user_message("Read them."), asks(*ids)] + [result(i) for i in ids[:early]]
              + between + [result(i) for i in ids[early:]] + [lab.say("Read them.")])
    view = harness.repair_tool_history(record)
    t.expect([lab.shape(view), contents(view)],
             [f"U A[{','.join(ids)}] {results(ids)} U A A(error) A[{other}] R({other}) A",
              [f"contents of {i}.py" for i in ids + [other]]],
             f"Between the batch and some of its results stand a user message, a reply, a "
             f"failed empty reply and a reply that calls {other}, with its result. A recorded "
             "result is used wherever it stands, replies between it and its call included, "
             "one that makes calls too; what stood between stays, after the batch, the failed "
             "empty reply included (leaving it out is context_for_model's job). The items are "
             "[the view, the results' contents] (repair_tool_history, lesson 10).")
    # Far away: a long record whose first call's result was recorded last of all.
    far, exchanges = ids[0], t.random.randint(500, 560)
    late = result(far, "a result recorded long after its call")
    record = [harness.user_message("Read it."), asks(far)]
    for n in range(exchanges):  # a call in every exchange: hundreds of calls after the first
        record += ([harness.user_message(f"And x{n}?")]
                   + ([asks(f"x{n}"), result(f"x{n}")] if n % 6 == 0 else [])
                   + [lab.say(f"Answer {n}.")])
    # then thousands more exchanges, cheap to make: the same question and answer again and again
    again = t.random.randint(4000, 8000)
    hole = t.random.randrange(0, exchanges, 6)  # the one of those calls whose result is not there
    del record[next(n for n, m in enumerate(record) if m["role"] == "toolResult"
                    and m["tool_call_id"] == f"x{hole}")]
    filler = [harness.user_message("And then?"), lab.say("Then this.")]
    record += filler * again
    record.append(late)
    # each reading of any clock the kit moves (the wall clock, the processor's, the date) an
    # hour after the last, around the whole call: a budget of its own runs out at once
    with hours_pass(60, processor=True, dates=True):
        view = harness.repair_tool_history(record)
    shown = [m for m in view if m is not filler[0] and m is not filler[1]]  # the rest: cheaper
    t.expect([len(view), view[2] is late, lab.validate(shown),
              [m["content"] for m in view if m["role"] == "toolResult"
               and m["tool_call_id"] == f"x{hole}"]], [len(record) + 1, True, [], [WORDS]],
             f"A record of {len(record)} messages, U A[{far}], then {exchanges} exchanges "
             f"U A[x..] R(x..) A, but U A[x{hole}] A with no result, then {again} "
             "more exchanges U A, then "
             f"R({far}), the result of the first call, "
             f"recorded "
             f"{len(record) - 2} messages after it. The items are [the view's length, whether "
             f"{far}'s result in the view is the very one recorded, what lab.validate finds "
             "wrong with the view, those repeated exchanges aside, the contents of the results "
             f"the view gives x{hole}], the repair made while each reading of any clock (the wall "
             "clock, the processor's, the date) was an hour after the last: the whole record is "
             "read and repaired, however long it is, and however long that takes by the wall "
             "clock or by any clock, with no budget of its own, a call with no result answered INTERRUPTED however far back it stands, "
             "never left out; and a recorded "
             "result is the one used, however far from its call it stands and however many "
             "calls stand between (Build item 1, \"A "
             "recorded result is the one used, moved if it has to be.\"; item 2, \"every "
             "request is valid, whatever holes the record has\") (repair_tool_history, "
             "lesson 10).")


@lab_test("With two results recorded for one call, the first is kept and the second dropped, even "
          "when the first is an error and a later one is not.")
async def test_the_first_of_two_results_wins(t):
    ids = draw_ids(t, t.random.randint(1, 3))
    # one drawn call's first recorded result is an error and its later ones are not, and it has
    # eleven to sixteen hundred results, as drawn (results cost next to nothing); the
    # others two or three each, errors or not as drawn
    failed = t.random.choice(ids)
    entries = [(i, n) for i in ids
               for n in range(1, t.random.randint(1100, 1600) if i == failed else t.random.randint(3, 4))]
    t.random.shuffle(entries)
    firsts = {i: next(n for j, n in entries if j == i) for i in ids}
    errors = {(i, n): (n == firsts[i]) if i == failed else t.random.random() < 0.5
              for i, n in entries}
    record = [harness.user_message("Read them."), asks(*ids)]
    for i, n in entries:
        record.append(dict(result(i, f"{'error' if errors[i, n] else 'answer'} {n} for {i}"),
                           is_error=errors[i, n]))
    view = harness.repair_tool_history(record + [lab.say("Read them.")])
    firsts_recorded = [next(m for m in record[2:] if m["tool_call_id"] == i) for i in ids]
    t.expect([lab.shape(view), contents(view)],
             [f"U A[{','.join(ids)}] {results(ids)} A", [m["content"] for m in firsts_recorded]],
             f"The record {lab.shape(record)}. One result per call, the first recorded, whatever "
             f"it says and however many come after it: an error recorded first (here {failed}'s, "
             f"one of {sum(j == failed for j, _ in entries)}) is kept over later results that "
             "are not; the items are [the view's shape, each call's result in call order] (Build "
             "item 1, \"Of two results recorded for one call, the one recorded first is kept.\") "
             "(repair_tool_history, lesson 10).")
    early = result(failed, WORDS)  # recorded before its call, and with INTERRUPTED's words
    early["is_error"] = True
    later = {i: result(i, f"answer for {i}") for i in ids}
    between = t.random.randint(5_100, 6_000)  # exchanges between that early result and its call
    record = ([early] + [harness.user_message("Anything?"), lab.say("Not yet.")] * between
              + [harness.user_message("Read them."), asks(*ids)] + list(later.values())
              + [lab.say("Read them.")])
    view = harness.repair_tool_history(record)
    t.expect([lab.shape(view), [m is (early if m["tool_call_id"] == failed
                                      else later[m["tool_call_id"]])
                                for m in view if m["role"] == "toolResult"]],
             ["U A " * between + f"U A[{','.join(ids)}] {results(ids)} A", [True] * len(ids)],
             f"{failed}'s first result was recorded before its call, {2 * between + 2} messages "
             "before it, and says what INTERRUPTED "
             "says; a second one stands right after the call. The first recorded is kept, "
             "wherever it stands and whatever it says, moved to its call; the one beside the call "
             "is dropped. The items are [the view's shape, for each call in order whether its "
             "result is the very object recorded first] (repair_tool_history, lesson 10).")
    firsts = [result(i, f"answer for {i}") for i in ids]
    seconds = [result(i, f"answer for {i}") for i in t.random.sample(ids, len(ids))]
    record = [harness.user_message("Read them."), asks(*ids)] + firsts + seconds
    view = harness.repair_tool_history(record + [lab.say("Read them.")])
    t.expect([lab.shape(view), [m is f for m, f in zip(view[2:], firsts)]],
             [f"U A[{','.join(ids)}] {results(ids)} A", [True] * len(ids)],
             f"The record {lab.shape(record)}: each call's result recorded twice, word for "
             "word the same, as two objects. The items are [the view's shape, for each call in "
             "order whether its result is the very object recorded first]: of two results "
             "recorded for one call the first is kept, whatever the second says, the same words "
             "included (Build item 1, \"Of two results recorded for one call, the one recorded "
             "first is kept.\") (repair_tool_history, lesson 10).")
    blank = dict(result(failed), content=t.random.choice(["", None]), is_error=True)  # empty
    record = ([harness.user_message("Run them."), asks(*ids), blank]
              + [later[i] for i in ids if i != failed] + [harness.user_message("Again?"),
                                                          result(failed, "it worked this time")])
    view = harness.repair_tool_history(record + [lab.say("Done.")])
    t.expect([lab.shape(view), [m is (blank if m["tool_call_id"] == failed
                                      else later[m["tool_call_id"]])
                                for m in view if m["role"] == "toolResult"]],
             [f"U A[{','.join(ids)}] {results(ids)} U A", [True] * len(ids)],
             f"The record {lab.shape(record)} A, whose first result for {failed} is an error with "
             f"empty content ({blank['content']!r}) and whose later one is not an error and has "
             "words. The items are [the view's shape, for each call in order whether its result "
             "is the very object recorded first]: the first recorded is kept, an error with no "
             "words included (Build item 1, \"Of two results recorded for one call, the one "
             "recorded first is kept.\") (repair_tool_history, lesson 10).")
    beside = dict(result(failed, WORDS), is_error=True)  # INTERRUPTED's words, after its call
    record = ([harness.user_message("Read them."), asks(*ids), beside]
              + [later[i] for i in ids if i != failed] + [lab.say("Read them.")])
    view = harness.repair_tool_history(record)
    t.expect([lab.shape(view), [m is (beside if m["tool_call_id"] == failed
                                      else later[m["tool_call_id"]])
                                for m in view if m["role"] == "toolResult"]],
             why=f"The record {lab.shape(record)}, whose result for {failed}, right after its call, "
             "says what INTERRUPTED says and is an error, as a repair's own would. The items are "
             "[the view's shape, for each call in order whether its result is the very object "
             "recorded]: a recorded result is the one used, whatever it says, never made afresh "
             "(Build item 1, \"A recorded result is the one used, moved if it has to be.\") "
             "(repair_tool_history, lesson 10).")


@lab_test("A result that no call asked for is dropped, and no call is made up for it.")
async def test_an_orphan_result_is_dropped(t):
    record, shape = valid_record(t)
    asked = {c["id"] for m in record if m["role"] == "assistant" for c in harness.tool_calls(m)}
    orphans = [i for i in draw_ids(t, 25) if i not in asked][:t.random.randint(5, 9)]
    erring = t.random.choice(orphans)  # always one orphan that is an error; the others as drawn
    messy = list(record)
    for i in orphans:  # the erring one before the first reply; the others anywhere after the first U
        messy.insert(t.random.randint(0, 1) if i == erring else t.random.randint(1, len(messy)),
                     dict(result(i, "from nowhere"),
                          is_error=i == erring or t.random.random() < 0.5))
    view = harness.repair_tool_history(messy)
    t.expect([lab.shape(view), contents(view)], [shape, contents(record)],
             f"The record {lab.shape(messy)}, whose results for {', '.join(orphans)} answer no "
             f"call; {erring}'s is an error. Its call's arguments are unknown, so the result "
             "goes, an error as well as any other, however many strays there are (Build item 1, \"A result that answers no "
             "call in the list is not in the new list.\"); the items are [the view's shape, "
             "its results' contents] (repair_tool_history, lesson 10).")
    t.expect(len(messy), len(record) + len(orphans),
             "The record keeps all its messages, orphans too (lesson 10).")
    strays = [result(f"s{n}", "from nowhere") for n in range(t.random.randint(600, 1000))]
    view = harness.repair_tool_history(record + strays)
    t.expect([lab.shape(view), contents(view)], [shape, contents(record)],
             f"The record {shape} with {len(strays)} results after it that answer no call. The "
             "items are [the view's shape, its results' contents]: a result that answers no "
             "call goes, however many strays there are (Build item 1, \"A result that answers "
             "no call in the list is not in the new list.\") (repair_tool_history, lesson 10).")


@lab_test("Repairing twice gives what repairing once gave, and the list handed in is left exactly "
          "as it was.")
async def test_repair_is_idempotent_and_pure(t):
    ids = draw_ids(t, t.random.randint(2, 5))
    answered = t.random.sample(ids, t.random.randint(1, len(ids) - 1))
    orphan = [i for i in draw_ids(t, 8) if i not in ids][0]
    entries = [result(i) for i in answered] + [result(answered[0], "again"), result(orphan)]
    t.random.shuffle(entries)
    split = t.random.randrange(len(entries) + 1)
    record = ([harness.user_message("Read."), asks(*ids)] + entries[:split]
              + [harness.user_message("Well?")] + entries[split:])
    before = copy.deepcopy(record)
    once = harness.repair_tool_history(record)
    twice = harness.repair_tool_history(once)
    t.expect([lab.shape(once), lab.shape(twice)],
             [f"U A[{','.join(ids)}] {results(ids)} U"] * 2,
             "A repaired list is valid, so repairing it again changes nothing "
             "(repair_tool_history, lesson 10).")
    t.expect(contents(twice),
             [[m["content"] for m in entries if m["tool_call_id"] == i][0] if i in answered
              else WORDS for i in ids],
             "Answered calls keep their first recorded result; the others are interrupted. "
             "One item per call, in call order (lesson 10).")
    t.expect([twice == once, record == before, lab.shape(record)],
             [True, True, " ".join(["U", f"A[{','.join(ids)}]"]
                                   + [f"R({m['tool_call_id']})" for m in entries[:split]]
                                   + ["U"] + [f"R({m['tool_call_id']})" for m in entries[split:]])],
             "repair_tool_history is pure: the input list and its messages are unchanged "
             "(lesson 10).")
    t.expect(lab.validate(once), [], "The repaired list passes lab.validate (lesson 10).")
    # An odd record: results naming another tool than their call's, or none, each before a
    # second result naming the call's own.
    wrong = t.random.sample([t.random.choice(["grep", "bash", "edit"]), None, "", "LOOK"], 4)
    named = draw_ids(t, len(wrong) + 1)
    odd = [dict(result(i), tool_name=name) for i, name in zip(named, wrong)] + [result(named[-1])]
    again = [result(i, "a second result, naming 'look'") for i in named[:-1]]
    record = [harness.user_message("Read."), asks(*named)] + odd + again + [lab.say("Done.")]
    before = copy.deepcopy(record)
    view = harness.repair_tool_history(record)
    t.expect([record == before,
              [view[2 + n] is odd[n] or view[2 + n]["content"] == WORDS for n in range(len(wrong))],
              view[2 + len(wrong)] is odd[-1]], [True, [True] * len(wrong), True],
             f"The record {lab.shape(record)}, whose results for {', '.join(named[:-1])} name "
             f"the tools {', '.join(repr(name) for name in wrong)} where their calls asked for "
             "'look', and a second result for each, naming 'look', recorded after them all. "
             "The items are [the record and its messages exactly as they were, for each of "
             "those calls whether its result is the very one recorded first or an INTERRUPTED "
             f"one, whether {named[-1]}'s is the very one recorded]: whether to use a result "
             "naming another tool, or none, is yours, but "
             "not to mend it, in the record or in a copy, nor to pass it over for a later one "
             "(Build item 1, \"Of two results recorded for one call, the one recorded first is "
             "kept.\" and \"whether you use it or give that call a new result is yours\"; "
             "\"The list handed in, and "
             "every message in it, are exactly as they were.\" and \"Every message it takes "
             "from `messages` is the very same object, not a copy.\") (repair_tool_history, "
             "lesson 10).")


@lab_test("context_for_model filters out empty failed replies and then repairs what is left, a hole "
          "in an earlier batch as well as in the last; the record it was given does not change.")
async def test_context_for_model_filters_then_repairs(t):
    first = draw_ids(t, 6)[:t.random.randint(1, 2)]
    second = [i for i in draw_ids(t, 8) if i not in first][:t.random.randint(1, 3)]
    done = t.random.randint(0, len(first) - 1)  # the first batch always has a hole, before
    kept = t.random.randint(0, len(second) - 1)  # the second batch's, which fails later on
    failures = t.random.randint(1, 3)
    record = ([harness.user_message("Read them."), asks(*first)] + [result(i) for i in first[:done]]
              + [harness.error_message("overloaded")] * failures
              + [harness.user_message("Again, with more."), asks(*second, text="Reading.")]
              + [result(i) for i in second[:kept]] + [harness.error_message("overloaded")])
    before = copy.deepcopy(record)
    view = harness.context_for_model(record)
    t.expect(lab.shape(view),
             f"U A[{','.join(first)}] {results(first)} U A[{','.join(second)}] {results(second)}",
             "The empty error messages go (lesson 5), then every call with no result gets an "
             "interrupted one: the first batch's hole too, though a later batch follows it. "
             "Every request is valid, whatever holes the record has, not only a hole at its end "
             "(context_for_model, lesson 10).")
    t.expect([contents(view), lab.validate(view)],
             [[f"contents of {i}.py" for i in first[:done]] + [WORDS] * (len(first) - done)
              + [f"contents of {i}.py" for i in second[:kept]] + [WORDS] * (len(second) - kept),
              []],
             "The view is a valid request; the items are [its results' contents, what "
             "lab.validate finds wrong with it] (context_for_model, lesson 10).")
    t.expect([record == before, lab.shape(record)],
             [True, " ".join([f"U A[{','.join(first)}]", results(first[:done])]
                             + ["A(error)"] * failures
                             + [f"U A[{','.join(second)}]", results(second[:kept]),
                                "A(error)"]).replace("  ", " ")],
             "Only the view is repaired; the record says what happened (context_for_model, "
             "lesson 10).")
    own = [m for m in view if any(m is r for r in record)]
    t.expect([len(own), len(view) - len(own)],
             [len(view) - (len(first) - done) - (len(second) - kept),
              (len(first) - done) + (len(second) - kept)],
             "The view holds the record's own message objects, not copies, and only the results "
             "it invents are new. The items are [the view's messages that are objects of the "
             "record, those that are not] (context_for_model, lesson 10).")
    # every call answered, but not in place: each id has its result, some behind a user message
    placed = draw_ids(t, t.random.randint(2, 4))
    behind = t.random.randint(1, len(placed) - 1)  # how many stand behind the user message
    whole = ([harness.user_message("Read these."), asks(*placed)]
             + [result(i) for i in reversed(placed[behind:])]
             + [harness.user_message("And?")] + [result(i) for i in placed[:behind]]
             + [lab.say("Read.")])
    sent = harness.context_for_model(whole)
    t.expect([lab.shape(sent), lab.validate(sent)],
             [f"U A[{','.join(placed)}] {results(placed)} U A", []],
             f"The record {lab.shape(whole)}: every call has its result, as many results as "
             "calls, but some stand behind a user message and out of call order. The items are "
             "[the view's shape, what lab.validate finds wrong with it]: the view is repaired "
             "whatever the record holds, results out of place as well as missing ones, so "
             "every request is valid (Build item 2, \"every request is valid, whatever holes "
             "the record has\"; item 1, \"the results of one reply stand in the order of its "
             "calls\") (context_for_model, lesson 10).")
    record.append(result(first[done], "a late result"))
    view = harness.context_for_model(record)
    t.expect([lab.shape(view), contents(view)[done]],
             [f"U A[{','.join(first)}] {results(first)} U A[{','.join(second)}] {results(second)}",
              "a late result"],
             f"The same record, once its view was built, then a result for {first[done]} "
             "appended to it, and its view built again. The items are [the view, the result "
             f"{first[done]} gets]: the view is built fresh for every request from the whole "
             "record, so the late result is the one used, moved back to its call, and nothing "
             "is kept from an earlier view (context_for_model, lesson 10).")
    middle = 2 + done + failures  # "Again, with more.": a message in the middle of the record
    other = list(record)
    other[middle] = harness.user_message("Again, with even more.")
    mended = harness.context_for_model(other)
    swapped = [any(m is other[middle] for m in mended), any(m is record[middle] for m in mended)]
    replaced, record[middle] = record[middle], harness.user_message("Again, with still more.")
    try:  # the record itself, its view built already, edited in place: same list, length, end
        mended = harness.context_for_model(record)
        swapped += [any(m is record[middle] for m in mended), any(m is replaced for m in mended)]
    finally:
        record[middle] = replaced
    t.expect(swapped, [True, False, True, False],
             "A new list, as long as the record and ending in the same message, with another "
             "user message in place of its \"Again, with more.\", and its view; then the record "
             "itself, whose view was built already, edited in place the same way, and its view. "
             "The items are, for each, [whether the view holds that new message, whether it "
             "holds the one it replaced]: the view is built fresh for every request from the "
             "list it is handed, the same list edited in place too, and nothing is kept from an "
             "earlier view (context_for_model, lesson 10).")
    views = []
    for handed in (tuple(record), sealed(record)):
        try:
            views.append(lab.shape(harness.context_for_model(handed)))
        except Exception as exc:  # a view that writes to the record, even for a moment
            views.append(f"{type(exc).__name__}: {exc}")
    t.expect(views, [lab.shape(view)] * 2,
             "The same record handed as a tuple, as a harness's messages are, then as a list "
             "that refuses any change, of messages that each refuse any change, down to each "
             "block of their content: context_for_model "
             "only reads the record, it never writes to it, not even for a moment, not to the "
             "list nor to a message in it nor to a call in one, so either does as well as a "
             "plain list "
             "(context_for_model, the lab's Build, item 2). The items: for each, the view's "
             "shape, or what building it raised.")
    plain = [dict(m) for m in record][:]  # fresh plain dicts, in a list, each as big as it must be
    sizes = [sys.getsizeof(plain)] + [sys.getsizeof(m) for m in plain]
    seen = harness.context_for_model(plain)
    t.expect([lab.shape(seen), [sys.getsizeof(plain)] + [sys.getsizeof(m) for m in plain] == sizes],
             [lab.shape(view), True],
             "The same record as a plain list of plain dicts. The items are [the view's shape, "
             "whether the list and each message in it take the same memory after the view was "
             "built as before]: a list or a dict written to, even for a moment and put back, "
             "has grown, so context_for_model only reads the record, never writes to it, not "
             "even for a moment, whatever type the list or its messages have (context_for_model, "
             "the lab's Build, item 2).")
    long = (plain + [harness.user_message("And then?"), lab.say("Then this.")]
            * t.random.randint(2600, 5000))[:]  # thousands of messages, the list as big as it must be
    size = sys.getsizeof(long)
    harness.context_for_model(long)
    t.expect([len(long), sys.getsizeof(long) == size], [len(long), True],
             f"The same record with a question and answer repeated after it, {len(long)} "
             "messages in a plain list. The items are [its length, whether the list takes the "
             "same memory after the view was built as before]: context_for_model only reads the "
             "record, it never writes to it, not even for a moment, however long it is "
             "(context_for_model, the lab's Build, item 2).")
    strays = draw_ids(t, t.random.randint(1, 3))
    bare = ([harness.user_message("What is in them?")] + [result(i) for i in strays]
            + [harness.error_message("overloaded")] * t.random.randint(0, 2)
            + [lab.say("Nothing yet.")])
    t.expect(lab.shape(harness.context_for_model(bare)), "U A",
             f"A record with no call in it at all: a question, results for {', '.join(strays)}, "
             "which no call asked for, and a reply of words. Its view's shape: a result that "
             "answers no call in the list is not in the new list, and the view is what lesson "
             "5's filter keeps, repaired, whether or not any call is in it (context_for_model, "
             "the lab's Build, items 1 and 2).")


@lab_test("A consumer that closes the run right after tool_execution_start leaves the call "
          "without a result on the record; the next request shows it as interrupted and is "
          "valid.")
async def test_closing_mid_call_leaves_a_hole_the_view_repairs(t):
    ran = []
    width = t.random.randint(1, 4)
    closed_at = t.random.randint(1, width)  # the call whose tool_execution_start ends it
    paths = t.random.sample(FILES, width)
    again = t.random.choice(paths)
    model = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": p}) for p in paths]),
                               lab.reply(lab.call("look", {"path": again})),
                               lab.say("Read it again.")])
    h = harness.Harness(model, SYSTEM, [tool("look", lambda a: ran.append(a["path"]) or "text",
                                             PATH)])
    # agent_start, turn_start, U, A, then per call tool_execution_start, R, tool_execution_end
    events = await lab.drive(h.prompt("Read them."), close_after=5 + 3 * (closed_at - 1))
    calls = [f"c{n}" for n in range(1, width + 1)]
    t.expect([events[-1]["type"], lab.shape(h.messages), ran],
             ["tool_execution_start", f"U A[{','.join(calls)}] {results(calls[:closed_at - 1])}"
              .rstrip(), paths[:closed_at - 1]],
             "Closed between events, the run stops where it is, and nothing is written into "
             f"the record on its way out: c{closed_at} has no result there, and its tool never "
             "ran (lessons 7 and 10).")
    with everything_said() as printed:
        events = await lab.drive(h.prompt("Go on."))
    t.expect([e["type"] for e in events],
             why="The types of the next run's events, in order: a repair adds no event; the "
             "interrupted results live only in the requests, never announced (lesson 7's events, "
             "and lesson 10: \"none of which exists anywhere but in that request\").")
    sent = model.calls[1].messages
    t.expect([lab.shape(sent), contents(sent)[closed_at - 1:],
              [m.get("is_error") for m in sent[2 + closed_at - 1:2 + width]], lab.validate(sent)],
             [f"U A[{','.join(calls)}] {results(calls)} U", [WORDS] * (width - closed_at + 1),
              [True] * (width - closed_at + 1), []],
             "The next request answers each call the run never finished as interrupted, an "
             "error, so the provider accepts it (context_for_model, lesson 10).")
    last = f"c{width + 1}"
    t.expect([lab.shape(model.calls[2].messages), lab.validate(model.calls[2].messages)],
             [f"U A[{','.join(calls)}] {results(calls)} U A[{last}] R({last})", []],
             f"In that next run the model called {last}, so the run sent a second request, with "
             "the old hole still on the record. The items are [its view, what lab.validate finds "
             "wrong with it]: every request is valid, whatever holes the record has, every "
             "request of a run and not only its first (context_for_model, lesson 10).")
    t.expect(lab.shape(h.messages),
             f"U A[{','.join(calls)}] {results(calls[:closed_at - 1])} U A[{last}] R({last}) A"
             .replace("  ", " "),
             "The record still has no result for those calls: nothing was written into it "
             "(lesson 10).")
    t.expect(lab.shape([e["message"] for e in events if e["type"] == "message_end"
                        and not any(e["message"] is m for m in h.messages)]), "",
             "The shape of the messages the next run announced in a message_end that are not "
             "on the record: none, since a message is put on the record before it is announced "
             "(lesson 7), and the interrupted results live only in the requests, never "
             "announced (lesson 10).")
    held = list(h.messages)
    # the same record with its last result moved past the answer, a second result for that
    # call and a result no call asked for
    handed = held[:-2] + [held[-1], held[-2], result(last, "again"), result("c99", "stray")]
    # then holes in calls to deploy, read and another tool, and over a thousand results for no call
    # and holes in calls to deploy, to read and to one more tool drawn from the seed
    other = t.random.choice(["write", "edit", "bash", "grep", "ls", "find", "fetch"])
    handed += [harness.user_message("Ship it."),
               asks("d1", "r1", "o1", names=["deploy", "read", other])]
    handed += [result(f"s{n}", "stray") for n in range(t.random.randint(2100, 3000))]
    given = harness.Harness(lab.ScriptedModel([lab.say("Yes.")]), SYSTEM, [], messages=handed)
    kept = [lab.shape(given.messages), [a is b for a, b in zip(given.messages, handed)]]
    with everything_said() as also:
        await lab.drive(given.prompt("Still there?"))
    t.expect([printed.getvalue(), also.getvalue()], ["", ""],
             "What the run after the close said beside its events, and the run of a harness "
             f"handed a record with holes, in calls to deploy, to read and to {other}, and "
             "more than two thousand results no call asked for (printed on any stream "
             "or descriptor, logged or warned), while their views filled the holes and dropped "
             "the strays: a repair is part of the loop, which draws nothing, a hole or a dropped "
             "result included, whatever tool a hole's call names and however many results it "
             "drops; what happened travels in its events alone (lesson 7's Build item "
             "1, \"It prints nothing\"), and the invented results live only in the requests "
             "(context_for_model, lesson 10).")
    t.expect([kept, lab.shape(given.messages),
              [a is b for a, b in zip(given.messages, handed)]],
             [[lab.shape(handed), [True] * len(handed)], lab.shape(handed) + " U A",
              [True] * len(handed)],
             f"A new Harness handed the record {lab.shape(handed)}: holes, a result moved past "
             f"the answer, a second result for {last}, calls to deploy, read and {other} with "
             "none, and results for "
             "c99 and the s ids, which no call asked for; "
             "then a run on it. The items are [[its record, each message the very object handed "
             "in] before the run, its record after it, each message handed in the very object "
             "there]: a harness keeps the record it is given exactly as it was, holes and strays "
             "included, at load and at every run's start; the record is never changed, only the "
             "view is repaired (Build item 2, \"every request is valid, whatever holes the "
             "record has, and the record is never changed.\") (lesson 10).")


@lab_test("A PowerCut in c2 of the batch [c1, c2, c3] leaves U A[c1,c2,c3] R(c1); the next "
          "request holds c1's real result and interrupted ones for c2 and c3.")
async def test_a_power_cut_mid_batch(t):
    width = t.random.randint(2, 5)
    cut = t.random.randrange(width)  # the call whose tool the power cut hits
    paths = t.random.sample(FILES, width)
    calls = [f"c{n}" for n in range(1, width + 1)]
    model = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": p}) for p in paths]),
                               lab.say("Back. Which files are still to read?")])
    h = harness.Harness(model, SYSTEM, [looker(cut_on=paths[cut])])
    t.expect(await raised(lambda: lab.drive(h.prompt("Read them all."))),
             "PowerCut: the power went off", "The power cut ends the run (run_tool, lesson 4).")
    t.expect(lab.shape(h.messages), f"U A[{','.join(calls)}] {results(calls[:cut])}".rstrip(),
             f"Only the calls before c{cut + 1} finished before the cut, and nothing is written "
             "into the record after it: the rest have no results there (lesson 10).")
    await lab.drive(h.prompt("Are you back?"))
    sent = model.calls[1].messages
    t.expect([lab.shape(sent), contents(sent), lab.validate(sent)],
             [f"U A[{','.join(calls)}] {results(calls)} U",
              [f"contents of {p}" for p in paths[:cut]] + [WORDS] * (width - cut), []],
             "The calls that finished keep their real results; the rest are interrupted "
             "(context_for_model, lesson 10).")


@lab_test("A failed reply that said something and asked for a tool stays in every later request, "
          "its call answered as interrupted, and every request is valid.")
async def test_a_failed_reply_with_a_call(t):
    ran = []
    width, later = t.random.randint(1, 3), t.random.randint(1, 3)
    model = lab.ScriptedModel([lab.fail("connection reset", "Let me look.",
                                        *[lab.call("look", {"path": p})
                                          for p in t.random.sample(FILES, width)])]
                              + [lab.say(f"Still here ({n}).") for n in range(later)])
    h = harness.Harness(model, SYSTEM, [tool("look", lambda a: ran.append(1) or "text", PATH)])
    kept_before = held(harness)
    with everything_said() as printed:
        await lab.drive(h.prompt("Read them."))
        for n in range(later):
            await lab.drive(h.prompt(f"Again ({n})?"))
    t.expect(printed.getvalue(), "",
             "What the runs said beside their events (printed on any stream or descriptor, "
             "logged or warned), while every later "
             "request's view answered the failed reply's calls: a repair is part of the loop, "
             "which draws nothing; what happened travels in its events alone (lesson 7's Build "
             "item 1, \"It prints nothing\"), and the invented results live only in the "
             "requests (context_for_model, lesson 10).")
    calls = [f"c{n}" for n in range(1, width + 1)]
    failed = f"A[{','.join(calls)}](error)"
    t.expect([lab.shape(h.messages), ran], [f"U {failed}" + " U A" * later, []],
             "A failed reply is recorded and its calls never run, and no result is written "
             "into the record for them (run_agent, lessons 5 and 10).")
    t.expect([lab.shape(request.messages) for request in model.calls],
             ["U"] + [f"U {failed} {results(calls)} U" + " A U" * n for n in range(later)],
             "The failed reply has words, so it stays in the view, and its calls are answered "
             "as interrupted in every later request; one item per request (context_for_model, "
             "lesson 10).")
    t.expect([lab.validate(request.messages) for request in model.calls], [[]] * (1 + later),
             "Every request passes lab.validate (lesson 10).")
    record = list(h.messages)
    views = [harness.context_for_model(record) for _ in range(2)]
    made = [[m for m in view if not any(m is r for r in record)] for view in views]
    t.expect([[[m["tool_call_id"], m["tool_name"], m["content"] == WORDS, m["is_error"]]
               for m in made[0]], [a is b for a, b in zip(*made)],
              [len(view) - len(new) for view, new in zip(views, made)]],
             [[[i, "look", True, True] for i in calls], [False] * width, [len(record)] * 2],
             f"The view of the record {lab.shape(record)} built twice. The items are [the "
             "results the first view invents, each as [its call id, its tool name, whether its "
             "content is INTERRUPTED, its is_error], for each whether the second view hands out the "
             "very same object again, how many of each view's messages are the record's own "
             "objects]: a call of a failed reply has no result like any other, so it gets "
             "INTERRUPTED and is_error true (Build item 1, \"A call with no recorded result gets "
             "a new result\"), new in every view, which is built for each request and never "
             "kept; every message of the record is in the view as the record's own object, the "
             "failed reply too (Build item 2, \"The view holds the record's own message "
             "objects, not copies of them; only the results it invents are new.\") "
             "(context_for_model, lesson 10).")
    wordless = lab.fail("connection reset", lab.call("look", {"path": "a.py"}, id="c1"))
    record = [harness.user_message("Read a.py."), wordless, harness.user_message("Well?")]
    view = harness.context_for_model(record)
    t.expect([lab.shape(view), view[1] is wordless], ["U A[c1](error) R(c1) U", True],
             f"The record {lab.shape(record)}: a failed reply that got no words out but a call. "
             "The items are [the view's shape, whether its second message is that reply]: it is "
             "not empty, so lesson 5's filter keeps it, and its call is answered as interrupted "
             "(Build item 2, \"The view a request carries is what lesson 5's filter keeps, "
             "repaired\") (context_for_model, lesson 10).")
    t.expect(grew_in(kept_before, harness), {},
             "The lists, dicts, sets and deques at the top of harness.py that grew over this "
             "test's runs and views, each as its name: [its length before them, after]. The "
             "results a view invents live only in the requests: a list of them kept in the "
             "module is a log, and the repair keeps none (Build item 2, \"the results it "
             "invents live only in the requests\") (context_for_model, lesson 10).")
