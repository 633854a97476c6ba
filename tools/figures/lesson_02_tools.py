"""Lesson 2's figure: one round trip, from the request's tools to the call's result."""
from __future__ import annotations

from tools.figures.canvas import ACCENT, INK, LINE, MUTED, PANEL, PAPER, ROLE_FILL, Canvas


def one_round_trip(title):
    c = Canvas(590, title)
    c.band(145, 710, 20, 575, "your harness")
    c.box(20, 20, 110, 555, fill=PANEL)
    c.text(75, 44, "model", bold=True, anchor="middle")
    c.box(725, 20, 115, 555, fill=PANEL)
    c.text(782, 44, "workspace", bold=True, anchor="middle")
    # 1 the request: the tools compartment is full now, and execute stays behind
    c.step(165, 62, 1)
    x, top = 185, 52
    c.box(x, top, 390, 98, fill=PAPER, rx=3)
    c.line((x, top), (x + 195, top + 12), (x + 390, top), colour="#c3cad3", width=1.2)
    for k, name in enumerate(("system", "messages", "tools")):
        c.note(x + 10, top + 33 + k * 25, name, colour=INK)
    c.text(x + 80, top + 33, "You are ...", size=11, mono=True, colour=MUTED)
    c.chip(x + 80, top + 42, "U", h=20)
    c.box(x + 80, top + 70, 290, 20, fill=PAPER, rx=3)
    c.text(x + 86, top + 84, "read: name, description, parameters", size=11, mono=True)
    c.box(600, top + 66, 70, 24, fill=PAPER, rx=3, stroke=MUTED)
    c.text(635, top + 82, "execute", size=11, mono=True, colour=MUTED, anchor="middle")
    c.strike(600, top + 90, 670, top + 66)
    c.note(635, top + 108, "stays here", anchor="middle")
    c.arrow((183, 100), (132, 100))
    c.note(149, 92, "sent", colour=LINE)
    # 2 the reply: one message, two blocks; appended as A[c1]
    c.step(165, 190, 2)
    c.arrow((132, 200), (183, 200))
    c.note(149, 216, "reply", colour=LINE)
    c.box(185, 182, 500, 36, fill=ROLE_FILL["A"], rx=4)
    c.box(193, 188, 92, 24, fill=PAPER, rx=3)
    c.text(239, 204, '"I\'ll look."', size=11, mono=True, anchor="middle")
    c.box(293, 188, 384, 24, fill=PAPER, rx=3, stroke=ACCENT)
    c.text(301, 204, 'toolCall c1 read({"path": "notes.txt"})', size=11, mono=True)
    c.note(185, 244, "appended to the list:", colour=INK, italic=False)
    c.chips(320, 229, ["U", "A[c1]"], states=["normal", "new"], h=20)
    # 3 the lookup: by name, among the tools passed in, never globals()
    c.step(165, 284, 3)
    c.text(185, 288, "tool_calls(reply)", size=12, mono=True)
    c.note(320, 288, "lifts the call block out; run_tool(tools, call) does steps 3 to 5",
           colour=INK, italic=False)
    c.arrow((245, 296), (245, 354), colour=ACCENT)
    c.text(253, 322, '"read"', size=11, mono=True, colour=ACCENT)
    c.arrow((305, 318), (490, 318), colour=MUTED, dash="5 4")
    c.cross(400, 318, 8)
    c.box(495, 305, 92, 26, fill=PAPER, rx=3, stroke=MUTED)
    c.text(541, 323, "globals()", size=12, mono=True, colour=MUTED, anchor="middle")
    c.note(597, 322, "never searched")
    c.box(185, 356, 285, 52, fill=PAPER, rx=3)
    c.note(191, 372, "the tools passed in", colour=INK)
    c.line((185, 380), (470, 380), colour="#c3cad3", width=1)
    c.text(195, 399, "read", size=12, mono=True, bold=True, colour=ACCENT)
    c.text(245, 399, "name, description, ..., execute", size=11, mono=True)
    # 4 the work, in the workspace
    c.step(492, 376, 4)
    c.arrow((470, 394), (735, 394))
    c.text(508, 386, 'execute({"path": "notes.txt"})', size=11, mono=True)
    c.box(737, 380, 90, 50, fill=PAPER, rx=3)
    c.text(782, 410, "notes.txt", size=11, mono=True, anchor="middle")
    c.arrow((735, 422), (212, 422), (212, 442))
    c.note(500, 438, "the file's text", colour=LINE)
    # 5 the answer: one result, with the call's id; the next request is lesson 3's
    c.step(165, 456, 5)
    c.chip(185, 444, "R(c1)", state="new", h=24)
    c.lines(246, 453, ["tool_call_id c1", "tool_name read"], size=11, mono=True, leading=14)
    c.note(185, 512, "the list now:", colour=INK, italic=False)
    c.chips(275, 498, ["U", "A[c1]", "R(c1)"], states=["normal", "normal", "new"], h=20)
    c.arrow((465, 508), (525, 508), dash="5 4")
    c.box(530, 482, 160, 52, fill=PAPER, dash="5 4", rx=3, stroke=MUTED)
    c.line((530, 482), (610, 492), (690, 482), colour="#c3cad3", width=1)
    c.chips(544, 502, ["U", "A[c1]", "R(c1)"], states=["old"] * 3, h=20, size=11)
    c.note(690, 554, "the next request: lesson 3 sends it", anchor="end")
    return c.svg()


FIGURES = {"2.1": one_round_trip}
