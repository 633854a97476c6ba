"""Lesson 14's figure: the door inside run_tool's wall, and every way a call comes out of it."""
from __future__ import annotations

import drawsvg as dw

from tools.figures.canvas import ACCENT, GOOD, INK, LINE, MUTED, PANEL, PAPER, Canvas


def the_door(title):
    c = Canvas(420, title)
    # the walls, from the outside in
    c.box(110, 56, 560, 330, fill=PAPER, dash="7 5", width=2)
    c.text(120, 76, "run_tool's try", size=12, mono=True, bold=True)
    c.note(238, 76, "lesson 4: catches Exception", colour=INK)
    c.box(150, 90, 470, 222, fill=PANEL, width=2.5)
    c.text(160, 110, "the guard", size=12, bold=True)
    c.note(236, 110, "lesson 14", colour=INK)
    c.box(166, 122, 190, 150, fill=PAPER, dash="2 3", width=1.5)
    c.note(174, 138, "the door's try: catches Exception", colour=INK, size=11)
    c.diamond(258, 196, 150, 70, "check(name, arguments)", size=10.5)
    c.box(448, 166, 150, 56, fill=PAPER, rx=14)
    c.text(523, 191, "the real tool's", anchor="middle", size=12)
    c.text(523, 207, "execute", anchor="middle", size=12, mono=True)
    c.box(440, 128, 170, 102, fill="none", rx=6, stroke=MUTED, dash="2 3")
    c.note(446, 142, "never: the door's try", size=10.5)
    c.note(446, 155, "around the tool", size=10.5)
    c.arrow((20, 196), (181, 196))
    c.text(24, 188, "a call", size=12, bold=True)
    card_x, card_w = 690, 160
    # 1: None, the way through
    c.arrow((333, 196), (446, 194), colour=GOOD, width=2)
    c.text(372, 187, "None", size=11.5, mono=True, colour=GOOD, bold=True)
    c.arrow((598, 194), (card_x - 2, 194), colour=GOOD, width=2)
    c.result_card(card_x, 168, card_w, ["its output"], is_error=False)
    # 5: the tool's own failure passes the guard untouched; run_tool catches it
    c.arrow((523, 222), (523, 262), (668, 262), (card_x - 2, 262), colour=LINE, width=1.8)
    c.lines(531, 246, ["its own", "ValueError"], size=11, leading=12, colour=LINE)
    c.circle(670, 262, 4.5, stroke=LINE, fill=LINE)
    c.result_card(card_x, 236, card_w, ["in the tool's words"], is_error=True)
    # 2: a reason; the guard raises it, run_tool catches it
    c.arrow((258, 231), (258, 308), colour=ACCENT, width=2)
    c.text(266, 254, "a reason", size=11.5, colour=ACCENT, bold=True)
    c.box(176, 322, 270, 40, fill=PAPER, rx=3, stroke=ACCENT)
    c.text(184, 338, 'PermissionError("Tool call', size=10.5, mono=True, colour=ACCENT)
    c.text(184, 354, '  blocked: <reason>")', size=10.5, mono=True, colour=ACCENT)
    c.line((258, 312), (258, 322), colour=ACCENT, width=2)
    c.arrow((446, 342), (668, 342), (card_x - 2, 334), colour=ACCENT, width=2)
    c.circle(670, 342, 4.5, stroke=ACCENT, fill=ACCENT)
    c.note(664, 336, "caught", colour=ACCENT, anchor="end", size=11)
    c.result_card(card_x, 304, card_w, ["Tool call blocked:", "<reason>"], is_error=True)
    # 3: a check that raises has not said yes: the door fails closed
    c.arrow((300, 218), (350, 250), colour=ACCENT, width=1.8)
    c.circle(354, 252, 4.5, stroke=ACCENT, fill=ACCENT)
    c.line((354, 252), (262, 286), colour=ACCENT, width=1.8, dash="4 3")
    c.text(364, 262, "an Exception in the check", size=11, colour=ACCENT)
    c.text(364, 282, "the check failed: <exc>", size=10.5, mono=True, colour=ACCENT)
    c.box(366, 290, 11, 9, fill=ACCENT, rx=1, stroke=ACCENT)
    c.add(dw.Path(stroke=ACCENT, fill="none", stroke_width=1.6, class_="line")  # its shackle
          .M(368, 290).Q(371.5, 281, 375, 290))
    c.note(384, 299, "fails closed: a refusal", colour=ACCENT, size=11)
    # 4: anything wider, such as a PowerCut from the real tool, passes every wall
    c.arrow((590, 166), (590, 40), (770, 40), (770, 62), colour=INK, width=2)
    c.text(598, 34, "anything wider, such as lab.PowerCut", size=11, colour=INK)
    c.label_box(690, 64, 160, 24, "the program is ending", size=11, italic=True, fill=PAPER,
                rx=12)
    return c.svg()


FIGURES = {"14.1": the_door}
