"""Lesson 6's figure: one budget, kept from the top of a file and the bottom of a command's output,
with the notes the lesson 6 reference writes where it cuts."""
from __future__ import annotations

import lab
from tools.figures.canvas import ACCENT, INK, PANEL, PAPER, ROLE_FILL, Canvas, wrap
from tools.figures.observers import reference


def budget_notes():
    """What the lesson 6 reference says where it cuts: a read of a 5,000-line file, a command
    that printed 5,000 lines and failed, and a read whose first line is over its budget."""
    harness = reference("6.1")
    rows = "".join(f"row {n}\n" for n in range(1, 5001))
    read = harness.make_read_tool(lab.Workspace({"data.txt": rows}))
    head = read["execute"]({"path": "data.txt"}).splitlines()[-1]

    def build(args, ws):
        lines = [f"compiling module {n}" for n in range(1, 5000)]
        return "\n".join(lines + ["BUILD FAILED: app.py, line 3"]) + "\n", 1

    bash = harness.make_bash_tool(lab.Shell(lab.Workspace({}), commands={"build": build}))
    tail = bash["execute"]({"command": "build"}).splitlines()[-2:]
    ws = lab.Workspace({"bundle.min.js": "x" * 80 + "\n" + "console.log('ready')\n"})
    over = harness.make_read_tool(ws, max_bytes=50)["execute"]({"path": "bundle.min.js"})
    return head, tail, over


def one_budget_two_ends(title):
    head, (tail_note, status), over = budget_notes()
    c = Canvas(560, title)
    top, bar_h, kept_h = 60, 250, 100  # 5,000 lines; 2,000 of them kept

    def bar(x):
        c.box(x, top, 50, bar_h, fill=PANEL, rx=2)
        for k in range(1, 25):
            c.line((x + 4, top + k * 10), (x + 46, top + k * 10), colour="#dde2e8", width=1)
        c.note(x + 25, top + bar_h + 16, "5,000 lines", anchor="middle", colour=INK)

    def note_box(x, y, w, text, *, colour=INK):
        lines = wrap(text, w - 16, 11, mono=True)
        c.box(x, y, w, 12 + 15 * len(lines), fill=PAPER, rx=4, stroke=colour)
        c.lines(x + 8, y + 18, lines, size=11, mono=True, leading=15, colour=colour)
        return y + 12 + 15 * len(lines)

    # read: the head of a file, and where to carry on
    c.text(30, 34, "read", mono=True, bold=True, size=14)
    c.note(75, 34, "a file, read from the top", colour=INK)
    bar(40)
    c.box(40, top, 50, kept_h, fill=ROLE_FILL["R"], rx=2, stroke=INK)
    c.text(65, top + 56, "kept", size=11, anchor="middle")
    c.bracket(100, top, 100, top + kept_h, depth=-6, colour=ACCENT, width=2)
    c.note(110, top + 14, "whole lines from the top, until the 2,001st line or the 50,001st "
           "byte would not fit", width=270, colour=INK)
    c.box(40, top + kept_h + 1, 50, 8, fill=PAPER, stroke=ACCENT, rx=1)  # the line not kept
    for k in range(5):
        c.line((42 + k * 9, top + kept_h + 9), (48 + k * 9, top + kept_h + 1), colour=ACCENT,
               width=1)
    c.strike(30, top + kept_h + 8, 104, top + kept_h - 8, colour=ACCENT)
    c.note(110, top + kept_h + 4, "never half a line", colour=ACCENT)
    bottom = note_box(150, top + 130, 270, head)
    c.curve((150, top + 150), (110, top + 125), (92, top + kept_h + 7), colour=ACCENT)
    c.note(150, bottom + 16, "the next read starts at line 2,001", colour=ACCENT)
    # bash: the tail of the output, where the verdict is
    x = 460
    c.text(x - 10, 34, "bash", mono=True, bold=True, size=14)
    c.note(x + 35, 34, "a command's output, kept from the bottom", colour=INK)
    bar(x)
    c.box(x, top + bar_h - kept_h, 50, kept_h, fill=ROLE_FILL["R"], rx=2, stroke=INK)
    c.text(x + 25, top + bar_h - 44, "kept", size=11, anchor="middle")
    c.bracket(x + 60, top + bar_h - kept_h, x + 60, top + bar_h, depth=-6, colour=ACCENT,
              width=2)
    c.note(x + 70, top + bar_h - kept_h + 14, "the last 2,000 lines, or 50,000 bytes", colour=INK)
    c.box(x - 160, top + bar_h - 46, 124, 38, fill=PAPER, stroke=ACCENT, rx=4)
    c.arrow((x, top + bar_h - 27), (x - 34, top + bar_h - 27), colour=ACCENT)
    c.note(x - 44, top + bar_h - 30, "the verdict:", colour=ACCENT, anchor="end")
    c.note(x - 44, top + bar_h - 15, "BUILD FAILED ...", colour=ACCENT, anchor="end")
    y = note_box(x + 70, top + bar_h - kept_h + 26, 310, tail_note)
    y = note_box(x + 70, y + 6, 310, status)
    c.note(x + 70, top + 20, "no arrow back: output that has scrolled past cannot be read "
           "again by offset", width=310)
    # a line longer than the budget: nothing of it is shown
    y0 = 400
    c.text(30, y0, "read, a first line over the budget", bold=True, size=12)
    c.box(30, y0 + 12, 380, 14, fill=PANEL, rx=2)
    c.note(36, y0 + 23, "x" * 54, italic=False, mono=True, size=9)
    c.note(405, y0 + 23, "81 bytes", anchor="end", size=11, colour=INK)
    c.bracket(30, y0 + 34, 265, y0 + 34, depth=-6, colour=ACCENT, width=2)
    c.note(270, y0 + 40, "50 bytes, and empty", colour=ACCENT)
    note_box(30, y0 + 50, 380, over)
    # every kept text is sent again with every later request
    y0 = 540
    c.text(460, y0 - 120, "and on every later turn", bold=True, size=12)
    for k in range(4):
        ex = 460 + k * 95
        c.box(ex, y0 - 100, 80, 54, fill=PAPER, rx=3)
        c.line((ex, y0 - 100), (ex + 40, y0 - 90), (ex + 80, y0 - 100), colour="#c3cad3", width=1)
        c.box(ex + 30, y0 - 86, 20, 32, fill=ROLE_FILL["R"], rx=2, stroke=INK, width=1)
        c.note(ex + 40, y0 - 30, f"request {k + 2}", anchor="middle", colour=INK, size=11)
    c.note(460, y0 - 6, "each request carries the kept text again: the budget is paid on "
           "every turn, so it is kept small", width=380, colour=INK)
    return c.svg()


FIGURES = {"6.1": one_budget_two_ends}
