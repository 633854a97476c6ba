"""Lesson 5's figure: a turn and every way out of it. Lesson 15 draws it again with Stop."""
from __future__ import annotations

from tools.figures.canvas import ACCENT, INK, LINE, MUTED, PAPER, Canvas


def ways_out(title, *, stop):
    """Lesson 5's lane, a turn and every way out of it, the exits numbered in the order a turn
    meets them; with `stop`, lesson 15's as well. Only names a lesson has taught by then: the
    events (turn_start) are lesson 7's."""
    c = Canvas(510 if stop else 450, title)
    cx = 160
    c.label_box(cx - 100, 24, 200, 34, "a turn begins")
    c.arrow((cx, 58), (cx, 70))
    c.diamond(cx, 120, 270, 96, "top-of-turn check" if not stop else "top-of-turn checks")
    c.note(cx, 140, "max_turns used up?" + (" Stop?" if stop else ""), anchor="middle",
           colour=INK, size=11)
    c.arrow((cx, 168), (cx, 188))
    c.text(cx + 8, 183, "no", size=11.5, bold=True)
    c.label_box(cx - 100, 190, 200, 32, "model call")
    c.arrow((cx, 222), (cx, 242))
    c.label_box(cx - 100, 244, 200, 32, "reply recorded")
    c.arrow((cx, 276), (cx, 328))
    c.label_box(cx - 100, 330, 200, 34, "calls, one by one")
    c.arrow((cx, 364), (cx, 382), (14, 382), (14, 41), (58, 41))
    exit_x, exit_w = 470, 372
    number = iter(range(1, 5))

    def exit_card(y, heading, token, words, *, colour=INK, note=None):
        c.box(exit_x, y, exit_w, 40, fill=PAPER, rx=14, stroke=colour,
              width=2 if colour == ACCENT else 1.4)
        c.text(exit_x + 14, y + 16, f"Exit {next(number)}{heading}", size=11.5, bold=True,
               colour=colour)
        w = c.chip(exit_x + 14, y + 20, token, h=17, size=11,
                   state="new" if colour == ACCENT else "normal")
        c.text(exit_x + 22 + w, y + 33, words, size=11, mono=True, colour=colour)
        if note:
            c.note(exit_x + exit_w - 12, y + 16, note, anchor="end", colour=colour)

    # the check's exits, met before any model call
    c.arrow((cx + 135, 120), (exit_x - 2, 96))
    c.text(exit_x - 28, 90, "yes", size=11.5, bold=True)
    exit_card(74, ": max_turns", "A(error)", "Agent stopped after max_turns=1",
              note="no model call")
    if stop:
        c.arrow((cx + 101, 132), (exit_x - 2, 146), colour=ACCENT, width=2)
        c.text(exit_x - 28, 140, "yes", size=11.5, bold=True, colour=ACCENT)
        exit_card(124, ", new: Stop", "A(aborted)", "Operation aborted",
                  colour=ACCENT, note="no model call")
    # the reply's label first: an empty failed reply has no calls either, and is still a failure
    c.arrow((cx + 100, 254), (exit_x - 2, 218))
    c.note(exit_x - 8, 208, "stop_reason error" + (" or aborted" if stop else ""), anchor="end",
           colour=LINE, size=11)  # above its arrow, where the arrow meets the card
    exit_card(196, ": a failed reply", "A(error)", "overloaded", note="its calls are not run")
    c.arrow((cx + 100, 268), (exit_x - 2, 268))
    c.note(cx + 112, 262, "no calls", colour=LINE, size=11)
    exit_card(248, ": the ordinary end", "A", "a plain answer")
    # the exit never to build: a check between a reply and its calls
    c.arrow((cx, 302), (exit_x - 2, 320), colour=MUTED, dash="5 4")
    c.note(cx + 12, 322, "max_turns?", colour=MUTED, size=11)
    c.box(exit_x, 300, exit_w, 40, fill=PAPER, rx=14, stroke=MUTED, dash="5 4")
    c.text(exit_x + 14, 316, "never: a check between reply and calls", size=11.5, colour=MUTED,
           bold=True)
    c.chip(exit_x + 14, 320, "A[c1]", h=17, size=11, state="old")
    c.note(exit_x + 70, 333, "and nothing after it: a call with no result", size=11)
    c.strike(exit_x, 340, exit_x + exit_w, 300)
    # not an exit: a failed tool is news for the model, and the lane goes on
    c.arrow((cx + 100, 347), (cx + 150, 347), (cx + 150, 390))
    c.chip(cx + 124, 392, "R(c1)", h=20)
    c.text(cx + 184, 406, "is_error: Tool grep not found", size=11, mono=True)
    c.note(cx + 124, 430, "not an exit: a result is news for the model, and the turn goes on")
    if stop:
        c.chip(cx + 124, 450, "R(c2)", h=20, state="new")
        c.text(cx + 184, 464, "is_error: Operation aborted", size=11, mono=True, colour=ACCENT)
        c.note(cx + 124, 488, "Stop during a batch: every call still gets its result, then the "
               "next check leaves by exit 2", colour=ACCENT)
        c.arrow((cx + 100, 358), (cx + 108, 358), (cx + 108, 460), (cx + 122, 460),
                colour=ACCENT)
    return c.svg()


def every_way_out(title):
    return ways_out(title, stop=False)


FIGURES = {"5.1": every_way_out}
