"""Lesson 12's figure: counting back from the end to find the cut, with the lesson 12 reference's
estimates and cuts."""
from __future__ import annotations

import lab
from tools.figures.canvas import ACCENT, INK, MUTED, PAPER, ROLE_FILL, Canvas, token_role
from tools.figures.observers import reference


def cut_cases():
    """Lesson 12's sessions on the lesson 12 reference: for each, its rows' shape tokens and
    estimates, the budget, and where find_cut cuts."""
    harness = reference("12.1")

    def turn(n, reads):
        messages = [harness.user_message(f"Question {n}?")]
        for k in range(reads):
            call_id = f"c{n}{k}"
            messages += [lab.reply(lab.call("read", {"path": f"f{n}{k}.py"}, id=call_id)),
                         {"role": "toolResult", "tool_call_id": call_id, "tool_name": "read",
                          "content": "x = 1\n" * 30, "is_error": False}]
        return messages + [lab.say(f"Answer {n}.")]

    cases = []
    for messages, budget in ((turn(1, 1) + turn(2, 1) + turn(3, 1), 100), (turn(4, 4), 80)):
        rows = [(f"e{i + 1}", message) for i, message in enumerate(messages)]
        cases.append(([lab.shape([m]) for m in messages],
                      [harness.estimate_tokens([m]) for m in messages],
                      budget, harness.find_cut(rows, budget)))
    return cases


def counting_back(title):
    c = Canvas(420, title)

    def session(y, tokens, sizes, budget, cut, scale, heading):
        c.text(28, y - 62, heading, bold=True, size=12.5)
        widths = [max(c.chip_width(tok, 10), size * scale) for tok, size in zip(tokens, sizes)]
        xs, x = [], 28
        for w in widths:
            xs.append(x)
            x += w + 4
        right = xs[-1] + widths[-1]
        left, stop = budget, len(tokens)  # the walk back, as find_cut does it
        while left > 0:
            stop -= 1
            left -= sizes[stop]
        budget_x = xs[stop] + widths[stop] * (-left / sizes[stop])  # where the budget ran out
        for i, (tok, x0, w) in enumerate(zip(tokens, xs, widths)):
            shaded = i < cut
            c.box(x0, y, w, 26, fill=ROLE_FILL[token_role(tok)], rx=3, width=1.2,
                  stroke=MUTED if shaded else INK)
            if shaded:
                c.box(x0, y, w, 26, fill="#9aa5b1", rx=3, width=0, stroke="none")
            wide = w > 80  # on a wide row the name stands at the left, clear of the budget line
            c.text(x0 + 8 if wide else x0 + w / 2, y + 17, tok, size=10, mono=True,
                   anchor="start" if wide else "middle", colour=PAPER if shaded else INK,
                   bold=not shaded)
            c.note(x0 + w / 2, y + 40, str(sizes[i]), size=10, anchor="middle", italic=False)
        c.bracket(budget_x, y - 8, right, y - 8, depth=-5, colour=INK)
        c.text(right, y - 16, f"keep_recent_tokens={budget}", size=11, mono=True, anchor="end")
        c.line((budget_x, y - 22), (budget_x, y + 46), colour=ACCENT, dash="4 3", width=1.8)
        c.note(budget_x - 6, y - 28, "the budget runs out", colour=ACCENT, anchor="end")
        cut_x = xs[cut] - 2
        c.line((cut_x, y - 10), (cut_x, y + 50), colour=INK, width=2.5, role="lane")
        c.text(cut_x + 4, y + 62, "cut", size=12, bold=True)
        c.curve((budget_x + 2, y + 48), ((budget_x + cut_x) / 2, y + 72), (cut_x - 3, y + 50),
                colour=ACCENT, width=1.8)
        return xs, widths, cut_x

    (t1, s1, b1, cut1), (t2, s2, b2, cut2) = cut_cases()
    y = 96
    xs, widths, cut_x = session(y, t1, s1, b1, cut1, 3.35, "Three turns: width is "
                                "estimate_tokens, printed under each row")
    c.note(28, y + 84, "summarised", colour=INK, italic=False, size=12)
    c.note(cut_x + 8, y + 84, "kept word for word:", colour=INK, italic=False, size=12)
    c.note(cut_x + 8, y + 100, "the cut moves forward to the next U", colour=INK, size=12)
    y = 310
    xs, widths, cut_x = session(y, t2, s2, b2, cut2, 2.15, "One long turn: no U after the "
                                "stop, so step past the results")
    c.note(cut_x + 8, y + 84, "not on a result: the tail opens with A", colour=ACCENT,
           italic=False, size=12)
    return c.svg()


FIGURES = {"12.1": counting_back}
