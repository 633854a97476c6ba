"""Lesson 9's figure: the two queues, and the one place in a turn where their messages enter."""
from __future__ import annotations

from tools.figures.canvas import ACCENT, GOOD, INK, LINE, MUTED, PANEL, PAPER, ROLE_FILL, Canvas


def two_queues(title):
    c = Canvas(580, title)
    # the harness and its two queues, oldest at the right-hand end
    c.box(20, 40, 380, 260, fill=PANEL, width=2)
    c.text(34, 62, "Harness", bold=True, mono=True)

    def envelope(x, y):
        c.box(x, y, 30, 20, fill=ROLE_FILL["U"], rx=2, stroke=INK, width=1.2)
        c.line((x, y), (x + 15, y + 9), (x + 30, y), colour=INK, width=1)

    for k, (name, call) in enumerate((("steering", "steer(text)"),
                                      ("follow-ups", "follow_up(text)"))):
        y = 96 + k * 80
        c.text(34, y - 12, name, size=12, bold=True)
        c.text(34, y + 28, call, size=11, mono=True)
        c.box(146, y - 4, 184, 28, fill=PAPER, rx=4, width=1)
        for n in range(3):
            envelope(160 + n * 44, y)
        c.note(290, y - 10, "oldest", size=10.5, anchor="middle")
        c.line((318, y - 6), (318, y + 26), colour=GOOD, width=2.5)
        c.arrow((136, y + 10), (144, y + 10))
    c.line((136, 320), (136, 106), colour=LINE, width=1.5)
    c.note(140, 232, "_delivered: the oldest leaves its queue", size=11, colour=GOOD)
    c.note(140, 245, "only when its message_end passes", size=11, colour=GOOD)
    c.text(140, 270, "_drain", size=11, mono=True, colour=ACCENT, bold=True)
    c.note(190, 270, "(dashed): the oldest, or nothing;", colour=ACCENT, size=11)
    c.note(140, 284, "it stays queued until then", colour=ACCENT, size=11)
    c.box(90, 320, 92, 34, fill=PAPER, rx=5)
    for row, keys in enumerate((8, 7)):
        for n in range(keys):
            c.box(96 + row * 5 + n * 10, 326 + row * 12, 8, 9, fill=PANEL, rx=1, width=0.8)
    c.note(190, 334, "the user types:", colour=INK, size=11)
    c.note(190, 348, "any time, running or not", colour=INK, size=11)
    # words appended at once would land between a call and its result
    y = 410
    c.text(24, y, "never: words appended at once", bold=True, size=12, colour=MUTED)
    x = c.chips(24, y + 14, ["U", "A[c1,c2]"], states=["old", "old"])
    c.chip(x + 5, y + 14, "U", state="old")
    c.strike(x + 3, y + 40, x + 31, y + 10)
    c.chips(x + 34, y + 14, ["R(c1)", "R(c2)"], states=["old", "old"])
    c.note(24, y + 60, "a user message between a call and its result: a provider refuses "
           "the list", width=370)
    c.note(24, y + 100, "so the loop asks for queued words only where the lane at the right "
           "marks it, and _drain hands it the oldest, or nothing", width=370, colour=INK)
    # the loop, one turn a lap
    lx, bw = 610, 200
    c.note(lx, 26, "steering typed while idle joins the prompt here", colour=ACCENT,
           anchor="middle", size=11)
    c.line((lx, 32), (lx, 42), colour=ACCENT, width=3)
    steps = [("turn_start", 44, INK), ("user messages enter here", 84, ACCENT),
             ("model call", 124, INK), ("reply recorded", 164, INK),
             ("calls, one by one", 204, INK), ("turn_end", 244, INK)]
    for k, (label, y, colour) in enumerate(steps):
        c.label_box(lx - bw / 2, y, bw, 28, label, colour=colour, size=12,
                    stroke=colour, dash="5 3" if colour == ACCENT else None,
                    fill=PAPER if colour == ACCENT else PANEL, mono=" " not in label)
        if k:
            c.arrow((lx, y - 12), (lx, y - 1))
    c.arrow((lx, 272), (lx, 290))
    c.diamond(lx, 320, 170, 58, "the reply failed?")
    c.diamond(lx, 412, 170, 70, "steering?", stroke=ACCENT, colour=ACCENT, width=2)
    c.diamond(lx, 526, 170, 70, "follow-ups?", stroke=ACCENT, colour=ACCENT, width=2)
    c.label_box(760, 505, 80, 42, "agent_end", mono=True, rx=14, fill=PAPER)
    c.arrow((lx + 85, 320), (800, 320), (800, 503))
    c.note(lx + 92, 313, "yes", colour=INK, italic=False, size=11.5)
    c.arrow((lx, 349), (lx, 376))
    c.note(lx + 8, 366, "no", colour=INK, italic=False, size=11.5)
    c.arrow((lx, 447), (lx, 490))
    c.note(lx + 8, 466, "nothing, and the reply", colour=INK, size=11)
    c.note(lx + 8, 479, "had no calls", colour=INK, size=11)
    c.arrow((lx + 85, 526), (758, 526))
    c.note(lx + 92, 519, "nothing", colour=INK, size=11)
    # back to the top of the next turn
    bus = 470
    c.arrow((lx - 85, 412), (bus, 412), (bus, 58), (lx - bw / 2 - 2, 58))
    c.note(bus - 8, 398, "one message, or nothing", colour=INK, size=11, anchor="end")
    c.note(bus - 8, 411, "after a reply with calls", colour=INK, size=11, anchor="end")
    c.line((lx - 85, 526), (bus, 526), (bus, 412), colour=LINE, width=1.5)
    c.note(lx - 90, 546, "one message", colour=INK, size=11, anchor="end")
    # _drain: the queues' oldest, handed to the loop where it asks
    c.arrow((332, 106), (lx - 50, 398), colour=ACCENT, dash="5 4", width=1.5)
    c.arrow((332, 186), (lx - 52, 512), colour=ACCENT, dash="5 4", width=1.5)
    return c.svg()


FIGURES = {"9.1": two_queues}
