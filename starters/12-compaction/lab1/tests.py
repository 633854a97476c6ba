"""Lesson 12, lab 1: where to cut. The tests of render, estimate_tokens and find_cut: the
transcript as plain text, a cost estimate that needs no tokenizer, and a cut that keeps the
recent turns and never opens the kept part with a tool result.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 12 tests.py
"""
import json

import harness
import lab
from lab.kit import lab_test

LAB = "12.1"


def result(call_id, text, name="look"):
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": name, "content": text,
            "is_error": False}


def four():
    """A four-message transcript with a newline, a mixed reply, and a reply of calls only."""
    return [harness.user_message("Fix the failing test\nin tests/test_app.py."),
            lab.reply("Running it first.", lab.call("bash", {"command": "pytest tests"}, id="c1")),
            result("c1", "1 failed\n", "bash"),
            lab.reply(lab.call("read", {"path": "app.py"}, id="c2"))]


def three_turns():
    """Rows of three turns, each U A[c] R(c) A, whose results are large (200 characters)."""
    messages = []
    for n, name in enumerate(("a", "b", "c"), 1):
        messages += [harness.user_message(f"Read {name}.py."),
                     lab.reply(lab.call("look", {"path": f"{name}.py"}, id=f"c{n}")),
                     result(f"c{n}", name * 200), lab.say(f"{name}.py read.")]
    return [(f"e{i}", message) for i, message in enumerate(messages, 1)]


@lab_test("render writes a four-message transcript exactly: role, colon, words; calls as "
          "name(JSON arguments); newlines turned into spaces; one line per message.")
async def test_render_is_exact(t):
    t.expect(harness.render(four()),
             "user: Fix the failing test in tests/test_app.py.\n"
             "assistant: Running it first. bash({\"command\": \"pytest tests\"})\n"
             "toolResult: 1 failed \n"
             "assistant:  read({\"path\": \"app.py\"})",
             "render's format is exact: a reply of calls only has two spaces after the colon, "
             "and a newline inside a message becomes a space (render, lesson 12).")
    t.expect(harness.render([]), "", "No messages, no text (render, lesson 12).")


@lab_test("estimate_tokens is the length of render's text divided by four, rounded down, and "
          "gives the same number every time it is asked.")
async def test_estimate_tokens(t):
    messages = four()
    found = [harness.estimate_tokens(messages) for _ in range(3)]
    t.expect(found, [42, 42, 42], "170 characters of render(), four to a token, rounded down "
                                  "(estimate_tokens, lesson 12).")
    t.expect([harness.estimate_tokens(messages[:1]), harness.estimate_tokens([]),
              harness.estimate_tokens([harness.user_message("x" * 400)])], [12, 0, 101],
             "len(render(messages)) // 4, for any list (estimate_tokens, lesson 12).")


@lab_test("find_cut returns 0, cut nothing, when the whole transcript fits the budget of recent "
          "tokens.")
async def test_find_cut_when_everything_fits(t):
    rows = three_turns()
    t.expect([harness.find_cut(rows, 250), harness.find_cut(rows, 10_000), harness.find_cut([], 50)],
             [0, 0, 0],
             "The twelve rows cost about 210 tokens: a budget of 250 keeps them all "
             "(find_cut, lesson 12).")


@lab_test("find_cut moves forward from where the budget runs out to the first user message, "
          "the beginning of a turn.")
async def test_find_cut_lands_on_a_user_message(t):
    rows = three_turns()
    cuts = [harness.find_cut(rows, budget) for budget in (100, 160)]
    t.expect([rows[cut][1]["role"] for cut in cuts], ["user", "user"],
             "A kept part begins where a turn begins, with a user message, not wherever the "
             "budget ran out (find_cut, lesson 12).")
    t.expect(cuts, [8, 4], "The walk back adds up each row's estimate_tokens, not a count of "
                           "rows: with 100 tokens it stops in turn 3, at its user message (row "
                           "8); with 160 it stops at turn 1's result and moves on to turn 2's "
                           "user message (row 4) (find_cut, lesson 12).")


@lab_test("With no user message after the point where the budget runs out, find_cut still never "
          "cuts at a tool result: it steps past the results.")
async def test_find_cut_never_lands_on_a_result(t):
    rows = three_turns()
    cuts = [harness.find_cut(rows, budget) for budget in (10, 60)]
    t.expect([rows[cut][1]["role"] for cut in cuts], ["assistant", "assistant"],
             "A kept part never begins with a tool result: one whose call was summarised away "
             "is refused by a provider (find_cut, lesson 12).")
    t.expect(cuts, [11, 9], "With 10 tokens the walk stops at c3's result (row 10) and steps "
                            "past it to row 11; with 60 it stops at row 9, an assistant message "
                            "(find_cut, lesson 12).")


def costing(role, tokens, words):
    """A user message or a plain reply whose render() line is exactly 4 * tokens characters."""
    if role == "user":
        return harness.user_message(words.ljust(4 * tokens - len("user: "), "."))
    return lab.say(words.ljust(4 * tokens - len("assistant: "), "."))


@lab_test("find_cut's walk back stops at the row where the kept total reaches keep_recent_tokens, "
          "equal included, not only once the total goes past it.")
async def test_find_cut_stops_where_the_total_reaches_the_budget(t):
    rows = [(f"e{i}", message) for i, message in enumerate(
        [costing("user", 10, "Question 1"), costing("assistant", 10, "Answer 1"),
         costing("user", 10, "Question 2"), costing("assistant", 10, "Answer 2")], 1)]
    t.expect([harness.estimate_tokens([message]) for _, message in rows], [10, 10, 10, 10],
             "The four rows U A U A cost 10 tokens each (estimate_tokens, lesson 12).")
    t.expect([harness.find_cut(rows, budget) for budget in (29, 30, 31)], [2, 2, 0],
             "Rows U A U A of 10 tokens each, with keep_recent_tokens 29, 30 and 31. Walking "
             "back from the newest, the total reaches 30 at row 1; reaching the budget counts "
             "(the total >= keep_recent_tokens), so with 30, as with 29, the walk stops at row 1 "
             "and the cut moves on to row 2, the next user message. Only with 31 does the walk "
             "go on to row 0, and nothing is cut (find_cut, lesson 12).")


def line(role, words):
    """A message of `role` ("user", "say", "result") saying `words`, with its render() line."""
    if role == "user":
        return harness.user_message(words), "user: " + words
    if role == "say":
        return lab.say(words), "assistant: " + words
    return result("c0", words), "toolResult: " + words


def calls_line(ids, paths):
    """A reply of calls only, one look(path) per id, with its render() line."""
    blocks = [lab.call("look", {"path": path}, id=i) for i, path in zip(ids, paths)]
    return lab.reply(*blocks), "assistant:  " + " ".join(
        f"look({json.dumps({'path': path})})" for path in paths)


def drawn_session(t, turns, *, last_turn_ends_in_results=False):
    """`turns` turns drawn under the seed, as (message, render() line) pairs: each a question,
    0 to 2 rounds of 1 or 2 look calls with one result each, and an answer; the last turn may
    stop after its results, as a log written during a run does. The words' lengths are drawn,
    so the rows cost from 2 to over 100 tokens each."""
    made, calls = [], 0
    for n in range(1, turns + 1):
        made.append(line("user", f"Question {n}: " + "q" * t.random.randint(0, 120)))
        for _ in range(t.random.randint(0 if n < turns else 1, 2)):
            ids = [f"c{calls + k}" for k in range(1, t.random.randint(1, 2) + 1)]
            calls += len(ids)
            made.append(calls_line(ids, ["p" * t.random.randint(1, 40) + ".py" for _ in ids]))
            for call_id in ids:
                message, text = line("result", "r" * t.random.randint(1, 400))
                made.append(({**message, "tool_call_id": call_id}, text))
        if not (n == turns and last_turn_ends_in_results):
            made.append(line("say", f"Answer {n}: " + "a" * t.random.randint(0, 160)))
    return made


def cut_by_rule(roles, sizes, budget):
    """find_cut's rule as lesson 12 states it: counting back from the newest row, the walk stops
    at the row where the kept total reaches `budget`; if no row does, everything fits (0).
    From the stop, the first user message at or after it, or failing one, past any results."""
    total, stop = 0, len(roles)
    while total < budget:
        if stop == 0:
            return 0
        stop -= 1
        total += sizes[stop]
    if "user" in roles[stop:]:
        return roles.index("user", stop)
    while stop < len(roles) and roles[stop] == "toolResult":
        stop += 1
    return stop


def boundary_budgets(t, sizes):
    """Budgets at every boundary of find_cut's walk, for rows that cost `sizes`: for two
    drawn rows, the kept total from that row to the newest exactly, one token under it and one
    over it; every row exactly, everything with a token to spare and with plenty; and a budget
    the newest row alone uses up, so nothing else fits."""
    suffix = [sum(sizes[i:]) for i in range(len(sizes))]
    budgets = []
    for i in t.random.sample(range(len(sizes)), 2):
        budgets += [suffix[i], suffix[i] - 1, suffix[i] + 1]
    return budgets + [suffix[0], suffix[0] + 1, suffix[0] + t.random.randint(2, 500),
                      t.random.randint(1, sizes[-1])]


def split_pairs(rows, cut):
    """Whether a call and its result lie on opposite sides of `cut`."""
    side = {}
    for index, (_, message) in enumerate(rows):
        ids = [message["tool_call_id"]] if message["role"] == "toolResult" else \
            [block["id"] for block in message["content"] if block["type"] == "toolCall"] \
            if message["role"] == "assistant" else []
        for call_id in ids:
            side.setdefault(call_id, set()).add(index < cut)
    return any(len(sides) > 1 for sides in side.values())


@lab_test("Over sessions of drawn turns and sizes, find_cut cuts where its rule says for budgets "
          "at every boundary (a kept part that exactly fits, one token under or over it, "
          "everything fits, nothing but the newest row fits), including sessions whose rows "
          "open in the middle of a turn or end with tool results: it never opens the kept part "
          "with a result and never parts a call from its result.")
async def test_find_cut_over_drawn_sessions_and_budgets(t):
    sessions = [drawn_session(t, t.random.randint(2, 4)),
                drawn_session(t, t.random.randint(2, 4), last_turn_ends_in_results=True),
                drawn_session(t, 1, last_turn_ends_in_results=True)]
    opening = drawn_session(t, t.random.randint(2, 3))
    second_question = [m["role"] for m, _ in opening].index("user", 1)
    sessions.append(opening[t.random.randint(1, second_question - 1):])  # opens mid-turn
    for made in sessions:
        rows = [(f"e{i}", message) for i, (message, _) in enumerate(made, 1)]
        roles, sizes = [m["role"] for m, _ in made], [len(text) // 4 for _, text in made]
        budgets = boundary_budgets(t, sizes)
        found = []
        for budget in budgets:
            cut = harness.find_cut(rows, budget)
            found.append([cut, cut < len(rows) and cut > 0 and roles[cut] == "toolResult",
                          split_pairs(rows, cut)])
        t.expect(found, [[cut_by_rule(roles, sizes, budget), False, False] for budget in budgets],
                 f"Rows {lab.shape([m for m, _ in made])}, costing {sizes} tokens, cut for the "
                 f"budgets {budgets}. Each item is [the cut, the kept part opens with a tool "
                 "result, a call and its result are on opposite sides] for one budget. Counting "
                 "back from the newest row, the walk stops at the row where the kept total "
                 "reaches keep_recent_tokens, and returns 0 if no row does; from there the cut "
                 "moves forward to the next user message, or with none, past any tool results, "
                 "so a row is summarised or kept and a call stays with its result (find_cut, "
                 "lesson 12).")
