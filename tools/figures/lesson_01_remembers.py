"""Lesson 1's figure: every request carries the whole list, because the model keeps nothing."""
from __future__ import annotations

from tools.figures.canvas import ACCENT, INK, LINE, MUTED, PANEL, PAPER, Canvas


def every_request_is_a_full_envelope(title):
    c = Canvas(500, title)
    # the harness: the system prompt and the list, the only thing that lasts
    c.box(20, 30, 190, 450, fill=PANEL)
    c.text(115, 54, "your harness", bold=True, anchor="middle")
    c.note(32, 82, "system prompt", italic=False, colour=INK)
    c.box(32, 90, 166, 40, fill=PAPER, rx=4)
    c.lines(40, 106, ["You are a friendly", "assistant."], size=11, mono=True, leading=15)
    c.note(32, 158, "its list: kept, and the", italic=False, colour=INK)
    c.note(32, 174, "only thing that lasts", italic=False, colour=INK)
    for i, token in enumerate("U A U A U A".split()):
        c.chip(95, 186 + i * 28, token)
    c.note(115, 366, "grows by one exchange", anchor="middle")
    c.note(115, 382, "per request", anchor="middle")
    # the model: it keeps nothing
    c.box(700, 30, 140, 450, fill=PANEL)
    c.text(770, 54, "model", bold=True, anchor="middle")
    c.box(715, 380, 110, 80, fill=PAPER, dash="5 4", rx=4)
    c.note(770, 404, "kept between", anchor="middle", colour=INK)
    c.note(770, 420, "requests:", anchor="middle", colour=INK)
    c.text(770, 446, "nothing", anchor="middle", bold=True, colour=ACCENT)
    lists = [["U"], ["U", "A", "U"], ["U", "A", "U", "A", "U"]]
    for n, tokens in enumerate(lists):
        top = 40 + n * 150
        x, w = 290, 360
        c.text(x, top - 8, f"request {n + 1}", size=12, bold=True)
        c.box(x, top, w, 108, fill=PAPER, rx=3)
        c.line((x, top), (x + w / 2, top + 14), (x + w, top), colour="#c3cad3", width=1.2)
        for k, name in enumerate(("system", "messages", "tools")):
            row = top + 20 + k * 29
            if k:
                c.line((x + 8, row - 4), (x + w - 8, row - 4), colour="#e1e5ea", width=1)
            c.note(x + 10, row + 15, name, colour=INK)
        c.box(x + 78, top + 20, 207, 20, fill=PAPER, rx=3, stroke=MUTED)
        c.text(x + 84, top + 34, "You are a friendly assistant.", size=11, mono=True)
        c.chips(x + 78, top + 48, tokens, states=["old"] * (len(tokens) - 1) + ["new"], h=20)
        c.box(x + 78, top + 78, 50, 20, fill=PAPER, dash="4 3", rx=3, stroke=MUTED)
        c.note(x + 136, top + 93, "empty until lesson 2")
        # copied from the harness into each request; sent; one reply back into the list
        c.arrow((210, top + 30), (288, top + 30))
        c.arrow((210, top + 58), (288, top + 58))
        c.arrow((652, top + 54), (698, top + 54))
        c.text(675, top + 46, "sent", size=11, anchor="middle", colour=LINE)
        reply_y = top + 126
        c.arrow((698, reply_y), (212, reply_y))
        c.chip(455, reply_y - 10, "A", state="new", h=20)
        c.note(488, reply_y - 5, "the reply, appended to the list", colour=LINE)
        c.note(249, top + 48, "a copy", anchor="middle", colour=LINE)
    return c.svg()


FIGURES = {"1.1": every_request_is_a_full_envelope}
