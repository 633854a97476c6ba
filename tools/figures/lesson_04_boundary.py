"""Lesson 4's figure: run_tool's wall, what it turns into a result and what goes through."""
from __future__ import annotations

from tools.figures.canvas import ACCENT, INK, LINE, MUTED, PANEL, PAPER, Canvas


def the_boundary(title):
    c = Canvas(560, title)
    wall = 470
    c.box(40, 40, 430, 44, fill=PANEL)
    c.text(56, 67, "run_agent", mono=True, bold=True)
    c.box(40, 112, wall - 40, 330, fill=PANEL, width=5)
    c.text(56, 136, "run_tool", mono=True, bold=True)
    c.note(164, 136, "its wall is the boundary: try ... except Exception", colour=INK)
    c.label_box(70, 176, 110, 240, "execute", mono=True, bold=True, fill=PAPER)
    # the wall has a gate for what returns and a gap for what is not an Exception
    rows = [(196, "returns a value, e.g. a file's text", LINE, ["the file's text"], False),
            (262, "returns output of a command that exited 1", LINE,
             ["...", "Command exited with code 1"], False),
            (332, "raises an Exception", ACCENT,
             ["File not found: README.md.", "Files here: readme.md, setup.cfg"], True)]
    card_x, card_w = wall + 72, 848 - wall - 72

    def card(y, content, error):
        """The result, level with the arrow that brings it."""
        c.result_card(card_x, y - (30 + 15 * len(content)) / 2, card_w, content, is_error=error)

    for (y, words, colour, content, error) in rows:
        c.arrow((180, y), (card_x - 2, y), colour=colour, width=1.8)
        c.note(190, y - 8, words, colour=colour, italic=False, size=11.5)
        card(y, content, error)
    c.text(190, 352, "FileNotFoundError, ValueError, KeyError", size=10.5, mono=True,
           colour=ACCENT)
    c.circle(wall, 332, 5, stroke=ACCENT, fill=ACCENT)
    c.note(wall - 8, 315, "caught", colour=ACCENT, anchor="end", italic=False, size=11.5)
    # an unknown name never reaches execute
    c.arrow((wall - 4, 400), (card_x - 2, 400), colour=ACCENT, width=1.8)
    c.note(wall - 10, 396, "no tool named grep:", colour=ACCENT, italic=False, size=11.5,
           anchor="end")
    c.note(wall - 10, 410, "answered at the wall", colour=ACCENT, italic=False, size=11.5,
           anchor="end")
    card(400, ["Tool grep not found"], True)
    # PowerCut: not an Exception, so it goes through the gap and ends the program
    c.line((138, 112), (162, 112), colour=PAPER, width=7)  # the gap in the wall
    c.arrow((150, 176), (150, 22), colour=ACCENT, width=2.4)
    c.text(158, 168, "lab.PowerCut", size=11.5, mono=True, colour=ACCENT, bold=True)
    c.label_box(100, 4, 180, 18, "the program is ending", size=12, colour=ACCENT, bold=True,
                fill=PAPER, stroke=ACCENT, rx=9)
    c.note(200, 66, "the record as it stands:", colour=INK)
    c.chips(345, 52, ["U", "A[c1]"], h=20)
    # the boundary not to build
    y = 470
    c.box(40, y, 430, 64, fill=PAPER, stroke=MUTED, dash="5 4")
    c.text(52, y + 38, "lab.PowerCut", size=11.5, mono=True, colour=MUTED)
    c.arrow((145, y + 34), (186, y + 34), colour=MUTED)
    c.line((190, y + 22), (190, y + 56), colour=MUTED, width=5)
    c.arrow((194, y + 34), (214, y + 34), colour=MUTED)
    c.chip(216, y + 24, "R(c1)", state="old", h=20)
    c.text(274, y + 38, "power lost mid-deploy", size=11, mono=True, colour=MUTED)
    c.note(52, y + 16, "wider: except BaseException", colour=MUTED, italic=False, mono=True,
           size=11)
    c.strike(40, y + 64, 470, y)
    c.note(490, y + 14, "The boundary you do not build: it turns the end of the program "
           "into a result, and the next turn asks the model what to do on a machine that is "
           "being switched off.", width=350, colour=INK)
    return c.svg()


FIGURES = {"4.1": the_boundary}
