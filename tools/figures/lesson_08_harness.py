"""Lesson 8's figure: the Harness, the one writer of its list, and the life of one run."""
from __future__ import annotations

from tools.figures.canvas import ACCENT, INK, LINE, PANEL, PAPER, ROLE_FILL, WIDTH, Canvas


def one_owner(title):
    c = Canvas(600, title)
    c.line((30, 60), (30, 196), colour="#c3cad3", width=1.2, role="lane")
    c.text(20, 52, "the caller", size=11.5, bold=True)
    # the owner and its doors
    c.box(250, 44, 330, 180, fill=PANEL, width=2)
    c.text(266, 68, "Harness", bold=True, mono=True)
    c.note(266, 100, "its own list, private", colour=INK)
    c.chips(266, 108, ["U", "A[c1]", "R(c1)", "A"])
    c.circle(300, 182, 16, fill=PAPER)
    c.text(300, 186, "run", size=11, anchor="middle", bold=True)
    c.arrow((310, 170), (340, 134), colour=ACCENT, width=2)
    c.note(322, 186, "the run: the only writer to the list", colour=ACCENT, italic=False)
    c.arrow((415, 10), (415, 42))
    c.text(423, 22, "messages=", size=12, mono=True)
    c.note(423, 36, "copied into a new list", colour=LINE)
    c.arrow((40, 80), (248, 80))
    c.text(40, 72, "prompt(text)", size=12, mono=True, bold=True)
    c.note(40, 96, "a plain def: it refuses now,", colour=LINE)
    c.note(40, 110, "or hands out a run", colour=LINE)
    c.arrow((248, 130), (32, 130))
    c.note(40, 146, "the run it hands out", colour=LINE)
    c.line((32, 188), (246, 188), colour=ACCENT, width=2)
    c.arrow((246, 188), (170, 226), colour=ACCENT, width=2)
    c.text(40, 180, "prompt(text), while running", size=12, mono=True, colour=ACCENT)
    c.box(34, 228, 330, 38, fill=PAPER, stroke=ACCENT, rx=4, width=1.2)
    c.text(40, 243, "RuntimeError(", size=11, mono=True, colour=ACCENT)
    c.text(52, 259, '"already running; use steer() or follow_up()")', size=11, mono=True,
           colour=ACCENT)
    tuple_w = c.chips_width(["U", "A[c1]", "R(c1)", "A"], size=10) + 30
    c.box(606, 110, tuple_w, 28, fill=PAPER, rx=4, width=1.2)
    c.arrow((582, 124), (604, 124))
    c.text(590, 102, "h.messages", size=12, mono=True)
    c.text(610, 129, "(", size=16, mono=True)
    end = c.chips(621, 115, ["U", "A[c1]", "R(c1)", "A"], size=10, h=18)
    c.text(end + 2, 129, ")", size=16, mono=True)
    c.note(615, 154, "a tuple of the same dicts:", colour=LINE)
    c.note(615, 168, "nobody outside can append or pop", colour=LINE)
    # the life of one run
    c.line((20, 270), (WIDTH - 20, 270), colour="#d5dae1", width=1)
    c.text(20, 300, "The life of one run", bold=True, size=14)
    cy = 372
    states = [(30, 170, "handed out,", "not started"), (270, 130, "running", None),
              (480, 150, "waiting at", "a yield"), (740, 100, "over", None)]
    for x, w, a, b in states:
        c.box(x, cy - 24, w, 48, fill=PAPER, rx=18, width=1.6)
        if b:
            c.text(x + w / 2, cy - 3, a, anchor="middle")
            c.text(x + w / 2, cy + 13, b, anchor="middle")
        else:
            c.text(x + w / 2, cy + 5, a, anchor="middle")
    c.arrow((20, cy - 60), (60, cy - 60), (60, cy - 26))
    c.text(68, cy - 50, "prompt()", size=11.5, mono=True)

    def finally_box(x, y):
        c.box(x - 26, y - 9, 52, 18, fill=ROLE_FILL["R"], rx=3, width=1)
        c.text(x, y + 4, "finally", size=10.5, mono=True, anchor="middle")

    c.arrow((200, cy), (268, cy))
    c.note(234, cy - 8, "first event", anchor="middle", colour=LINE, size=11)
    c.arrow((400, cy - 10), (478, cy - 10))
    c.note(439, cy - 16, "yield", anchor="middle", colour=LINE, size=11)
    c.arrow((478, cy + 10), (402, cy + 10))
    c.note(439, cy + 24, "next event", anchor="middle", colour=LINE, size=11)
    c.arrow((630, cy), (738, cy))
    c.note(684, cy - 16, "closed", anchor="middle", colour=LINE, size=11)
    finally_box(684, cy)
    c.curve((335, cy - 26), (560, cy - 120), (780, cy - 26))
    c.note(560, cy - 82, "exhausted", anchor="middle", colour=LINE, size=11)
    finally_box(558, cy - 73 + 10)
    c.curve((335, cy + 26), (560, cy + 120), (780, cy + 26))
    c.note(560, cy + 92, "raised", anchor="middle", colour=LINE, size=11)
    finally_box(558, cy + 73 - 10)
    # let go at a yield: nobody holds it now (the harness only weakly), so Python closes it
    c.arrow((600, cy + 26), (600, cy + 92), (790, cy + 92), (790, cy + 26))
    finally_box(700, cy + 92)
    c.note(604, cy + 114, "let go by its consumer: nobody", colour=LINE, size=11)
    c.note(604, cy + 127, "holds it, so Python closes it", colour=LINE, size=11)
    c.arrow((100, cy + 26), (100, cy + 152), (820, cy + 152), (820, cy + 26), colour=ACCENT,
            width=2)
    c.text(110, cy + 146, "close() before the first step", size=11.5, mono=False, colour=ACCENT)
    c.note(320, cy + 146, "no finally runs: no line of the run ever started", colour=ACCENT)
    # is_running, read off the state
    by = cy + 170
    c.box(30, by, 610, 14, fill=INK, rx=3, stroke=INK)
    c.box(740, by, 100, 14, fill=PAPER, rx=3, stroke=INK)
    c.text(36, by + 32, "is_running", size=12, mono=True, bold=True)
    c.note(120, by + 32, "True under every state but over: read off the run (its frame) "
           "through a weak reference, so a run", colour=INK)
    c.note(120, by + 46, "let go by its consumer is over; set by no arrow", colour=INK)
    return c.svg()


FIGURES = {"8.1": one_owner}
