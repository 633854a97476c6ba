"""Draw every figure of the lessons as SVG, or check the committed ones.

    python -m tools.figures             write lessons/NN-slug/figures/figure-N-M.svg
    python -m tools.figures --check     list the figures that differ from what the code draws
    python -m tools.figures --png DIR   write, and render each to DIR/*.png to look at
                                        (needs rsvg-convert, from Debian's librsvg2-bin)

A lesson's source defines a figure with a caption line, `**Figure N.M** caption`, and shows
it with the image line `![Figure N.M: caption](figures/figure-N-M.svg)` just above. The SVG is
committed in the folder students open, beside lesson.ipynb, so the relative path resolves
wherever the notebook is opened from its own folder. Each figure is one function below, drawn
with the helpers of `Canvas` (boxes, arrows, diamonds, message chips in shape notation), so all
sixteen share one palette, one sans-serif family for words and one monospace family for code
and shapes, on a white card that stays legible on a dark theme.

The library is drawsvg: pure Python, and it writes SVG as plain text with the words kept as
<text>, so the same code gives the same bytes on every machine and CI can compare them byte
for byte (pinned to one minor release in pyproject.toml). matplotlib was the other candidate;
its SVG depends on its version and on the installed fonts, which it measures and by default
turns into outlines, so two machines draw different bytes. Graphviz would need a system package
that .ci/run does not install.

What a figure says about the code is taken from the code. The timelines come from runs of the
lesson's reference through the fake world, watched by a `Log`: 7.1 from a run with one call,
15.2 from a Stop during a batch and from stop_run on a tool that never looks (the reference's
CancelToken is swapped for a subclass that notes who reads it). 3.1's list, 6.1's notes,
10.1's record and views, 11.1's log lines, 12.1's estimates and cuts and 13.1's sections are
likewise the reference's own. So a change to a reference that changes what it does changes its
figure, and `--check` (and the kit's test) says so. The other figures are drawn by hand from
the lesson's text.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import re
import sys
from pathlib import Path
from typing import Callable

import drawsvg as dw

import lab
from lab.check import manifest
from lab.check.importer import import_harness
from tools import generated

# --- the look: one palette, two font families ------------------------------------------------

WIDTH = 860  # every figure is this wide, so all of them show text at the same scale
SANS = "Helvetica, Arial, 'DejaVu Sans', sans-serif"
MONO = "Menlo, Consolas, 'DejaVu Sans Mono', monospace"
INK = "#1f2933"  # words and outlines
MUTED = "#8a94a3"  # the crossed-out, the old, the notes
LINE = "#52606d"  # arrows
ACCENT = "#c2410c"  # what the figure is about: the new, the stopped, the caught
GOOD = "#2f855a"  # the way through (lesson 14's None)
PANEL = "#f4f6f8"  # the inside of a box
PAPER = "#ffffff"  # the background: drawn, so the text stays legible on a dark theme
ROLE_FILL = {"U": "#dbeafe", "A": "#fef3c7", "R": "#dcfce7"}  # user, assistant, toolResult


def _char_width(ch: str) -> float:
    """A character's width in ems for the widest sans-serif of the stack (DejaVu Sans), so that
    text measured here never overflows the box drawn for it in a narrower font."""
    if ch in "iljI'|.,:;! ":
        return 0.32
    if ch in "ft()[]{}-/\\`\"r":
        return 0.42
    if ch in "mwMW=<>%@":
        return 0.92
    if ch.isupper():
        return 0.72
    return 0.62


def text_width(text: str, size: float, *, mono: bool = False) -> float:
    if mono:
        return 0.61 * size * len(text)
    return size * sum(_char_width(ch) for ch in text)


def wrap(text: str, width: float, size: float, *, mono: bool = False) -> list[str]:
    """`text` broken at spaces into lines no wider than `width`."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_width(lines[-1] + " " + word, size, mono=mono) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def token_role(token: str) -> str:
    """The role letter of a shape token: "A[c1](error)" -> "A"."""
    return token[:1] if token[:1] in ROLE_FILL else "A"


class Canvas:
    """One figure: a drawsvg Drawing on a white card, with the course's shapes as methods.
    Coordinates are pixels from the top left; everything is drawn in the order called."""

    def __init__(self, height: float, title: str):
        self.height = height
        self.d = dw.Drawing(WIDTH, height, font_family=SANS)
        self.d.append(dw.Title(title))
        self.d.append(dw.Rectangle(0, 0, WIDTH, height, fill=PAPER, rx=8))

    def svg(self) -> str:
        return self.d.as_svg() + "\n"

    def add(self, element):
        self.d.append(element)
        return element

    # text --------------------------------------------------------------------------------

    def text(self, x, y, text, *, size=13, mono=False, colour=INK, anchor="start", bold=False,
             italic=False):
        """One line of text with its baseline at y."""
        args = {"fill": colour}
        if mono:
            args["font_family"] = MONO
        if anchor != "start":
            args["text_anchor"] = anchor
        if bold:
            args["font_weight"] = "bold"
        if italic:
            args["font_style"] = "italic"
        return self.add(dw.Text(text, size, x, y, **args))

    def lines(self, x, y, lines, *, size=13, leading=None, **kw):
        """Lines of text, the first baseline at y; returns the y below the last line."""
        leading = leading or round(size * 1.35)
        for i, line in enumerate(lines):
            self.text(x, y + i * leading, line, size=size, **kw)
        return y + len(lines) * leading

    def note(self, x, y, text, *, width=None, size=12, colour=MUTED, anchor="start",
             italic=True, mono=False):
        """A remark in small italics, wrapped to `width` when given; returns the y below it."""
        lines = wrap(text, width, size, mono=mono) if width else [text]
        return self.lines(x, y, lines, size=size, colour=colour, anchor=anchor, italic=italic,
                          mono=mono)

    # shapes -------------------------------------------------------------------------------

    def box(self, x, y, w, h, *, stroke=INK, fill=PANEL, dash=None, rx=6, width=1.5):
        args = {"stroke": stroke, "fill": fill, "stroke_width": width, "rx": rx}
        if dash:
            args["stroke_dasharray"] = dash
        return self.add(dw.Rectangle(x, y, w, h, **args))

    def label_box(self, x, y, w, h, label, *, size=13, mono=False, colour=INK, italic=False,
                  bold=False, **box):
        """A box with `label` centred in it, wrapped to its width."""
        self.box(x, y, w, h, **box)
        lines = wrap(label, w - 12, size, mono=mono)
        leading = round(size * 1.3)
        top = y + h / 2 - (len(lines) - 1) * leading / 2 + size * 0.35
        self.lines(x + w / 2, top, lines, size=size, leading=leading, mono=mono, colour=colour,
                   anchor="middle", italic=italic, bold=bold)

    def diamond(self, cx, cy, w, h, label, *, stroke=INK, fill=PANEL, size=12, colour=INK,
                width=1.5):
        self.add(dw.Lines(cx, cy - h / 2, cx + w / 2, cy, cx, cy + h / 2, cx - w / 2, cy,
                          close=True, stroke=stroke, fill=fill, stroke_width=width))
        lines = wrap(label, w * 0.62, size)
        leading = round(size * 1.25)
        top = cy - (len(lines) - 1) * leading / 2 + size * 0.35
        self.lines(cx, top, lines, size=size, leading=leading, colour=colour, anchor="middle")

    def line(self, *points, colour=LINE, width=1.5, dash=None):
        args = {"stroke": colour, "stroke_width": width, "fill": "none"}
        if dash:
            args["stroke_dasharray"] = dash
        return self.add(dw.Lines(*[c for p in points for c in p], **args))

    def head(self, tip, towards, *, colour=LINE, size=8):
        """An arrowhead at `tip`, pointing away from `towards`."""
        (x, y), (fx, fy) = tip, towards
        angle = math.atan2(y - fy, x - fx)
        left = (x - size * math.cos(angle - 0.45), y - size * math.sin(angle - 0.45))
        right = (x - size * math.cos(angle + 0.45), y - size * math.sin(angle + 0.45))
        self.add(dw.Lines(x, y, *_r(left), *_r(right), close=True, fill=colour, stroke="none"))

    def arrow(self, *points, colour=LINE, width=1.5, dash=None, head=True):
        """A polyline from the first point to the last, with an arrowhead at the last."""
        self.line(*points, colour=colour, width=width, dash=dash)
        if head:
            self.head(points[-1], points[-2], colour=colour, size=6 + 1.5 * width)

    def curve(self, start, control, end, *, colour=LINE, width=1.5, dash=None, head=True):
        """A quadratic curve from start to end, bent towards control, arrowhead at the end."""
        args = {"stroke": colour, "stroke_width": width, "fill": "none"}
        if dash:
            args["stroke_dasharray"] = dash
        self.add(dw.Path(**args).M(*start).Q(*control, *end))
        if head:
            self.head(end, control, colour=colour, size=6 + 1.5 * width)

    def strike(self, x1, y1, x2, y2, *, colour=MUTED, width=2):
        """The line through something that must not be built."""
        self.line((x1, y1), (x2, y2), colour=colour, width=width)

    def cross(self, cx, cy, r=6, *, colour=MUTED, width=2):
        self.strike(cx - r, cy - r, cx + r, cy + r, colour=colour, width=width)
        self.strike(cx - r, cy + r, cx + r, cy - r, colour=colour, width=width)

    def circle(self, cx, cy, r, *, stroke=INK, fill=PAPER, width=1.5):
        return self.add(dw.Circle(cx, cy, r, stroke=stroke, fill=fill, stroke_width=width))

    def bolt(self, x, y, *, scale=1.0, colour=ACCENT):
        """A lightning bolt whose top is at (x, y): a power cut, a hard cancel."""
        pts = [(6, 0), (0, 14), (5, 14), (1, 26), (12, 9), (7, 9), (11, 0)]
        self.add(dw.Lines(*[c for px, py in pts for c in _r((x + px * scale, y + py * scale))],
                          close=True, fill=colour, stroke="none"))

    def tick_mark(self, x, y, *, colour=GOOD):
        """A check mark with its bottom point at (x, y)."""
        self.line((x - 6, y - 6), (x, y), (x + 10, y - 12), colour=colour, width=2.5)

    def bracket(self, x1, y1, x2, y2, *, colour=LINE, depth=6, width=1.5):
        """A square bracket along the segment, its ends turned `depth` towards the thing it
        marks (left of the direction of travel)."""
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1
        nx, ny = dy / length * depth, -dx / length * depth
        self.line(_r((x1 + nx, y1 + ny)), (x1, y1), (x2, y2), _r((x2 + nx, y2 + ny)),
                  colour=colour, width=width)

    def step(self, x, y, number, *, colour=INK):
        """A numbered disc that ties a part of the picture to a numbered line of the text."""
        self.circle(x, y, 9, stroke=colour, fill=colour)
        self.text(x, y + 4, str(number), size=11, colour=PAPER, anchor="middle", bold=True)

    # the course's notation -----------------------------------------------------------------

    def chip_width(self, token, size=12):
        return max(24, round(text_width(token, size, mono=True) + 12))

    def chip(self, x, y, token, *, state="normal", size=12, h=22):
        """A message as its shape token (`U`, `A[c1]`, `R(c1)`) in a card tinted by role.
        state: "normal"; "new" (accent outline: just added); "old" (grey: carried again);
        "gone" (dashed, no fill: a message that is not there). Returns its width."""
        w = self.chip_width(token, size)
        fill, stroke, colour, dash, width = ROLE_FILL[token_role(token)], INK, INK, None, 1.2
        if state == "new":
            stroke, colour, width = ACCENT, ACCENT, 2.2
        elif state == "old":
            fill, stroke, colour = PAPER, MUTED, MUTED
        elif state == "gone":
            fill, stroke, colour, dash = PAPER, MUTED, MUTED, "4 3"
        self.box(x, y, w, h, stroke=stroke, fill=fill, rx=4, width=width, dash=dash)
        self.text(x + w / 2, y + h / 2 + size * 0.36, token, size=size, mono=True,
                  colour=colour, anchor="middle", bold=state == "new")
        return w

    def chips(self, x, y, tokens, *, states=None, gap=5, size=12, h=22):
        """A row of chips from x; returns the x after the last one."""
        for i, token in enumerate(tokens):
            state = states[i] if states else "normal"
            x += self.chip(x, y, token, state=state, size=size, h=h) + gap
        return x - gap

    def chips_width(self, tokens, *, gap=5, size=12):
        return sum(self.chip_width(t, size) for t in tokens) + gap * (len(tokens) - 1)

    def band(self, x0, x1, top, bottom, title):
        """A lane drawn as a tinted column with its name at the top."""
        self.box(x0, top, x1 - x0, bottom - top, stroke="#e4e7eb", fill="#fafbfc", rx=6, width=1)
        self.text((x0 + x1) / 2, top + 24, title, bold=True, anchor="middle")


def _r(point):
    return (round(point[0], 1), round(point[1], 1))


# --- running the references -----------------------------------------------------------------

def reference(lab_id: str):
    """The lab's reference solution, imported the one way a harness.py is imported."""
    return import_harness(manifest.lab(lab_id).solution)


class Log(list):
    """What happened in a run, in order, as (kind, detail) pairs, written by observers placed
    around the reference: the record's appends, the model, the tools, the consumer, the flag."""

    def record(self):
        """A list that logs ("append", token) for each message appended to it."""
        log = self

        class Record(list):
            def append(self, message):
                super().append(message)
                log.append(("append", lab.shape([message])))
        return Record()

    def model(self, model):
        """`model`, with each request logged: ("model", "complete") before a plain request
        is answered, ("model", "start") and ("model", "end") around an async one."""
        log = self

        class Observed:
            def complete(self, *args):
                log.append(("model", "complete"))
                return model.complete(*args)

            async def acomplete(self, *args):
                log.append(("model", "start"))
                reply = await model.acomplete(*args)
                log.append(("model", "end"))
                return reply
        return Observed()

    def tool(self, tool):
        """`tool`, with each run of its execute logged as ("tool", name); an async one also
        logs ("returned", what it returned)."""
        def execute(arguments, *rest):
            self.append(("tool", tool["name"]))
            return tool["execute"](arguments, *rest)

        async def aexecute(arguments, *rest):
            self.append(("tool", tool["name"]))
            text = await tool["execute"](arguments, *rest)
            self.append(("returned", text))
            return text
        return {**tool, "execute": aexecute if asyncio.iscoroutinefunction(tool["execute"])
                else execute}

    def flag(self, harness):
        """Swap the reference's CancelToken for one that logs ("stop", None) when it is set
        and ("look", (who, set?, call id)) each time code reads it: `who` is the function that
        looked (run_agent, run_tool, a tool's execute, or the model)."""
        log = self

        class Token(harness.CancelToken):
            def cancel(self):
                log.append(("stop", None))
                super().cancel()

            def is_cancelled(self):
                frame = sys._getframe(1)
                who = frame.f_code.co_name
                call = frame.f_locals.get("call") if who == "run_tool" else None
                value = super().is_cancelled()
                log.append(("look", ("model" if who == "_is_cancelled" else who, value,
                                     call["id"] if call else None)))
                return value
        harness.CancelToken = Token

    def listen(self, h, *types):
        """Log ("event", event) for each event of `h`'s runs whose type is in `types`."""
        h.subscribe(lambda event: self.append(("event", event)) if event["type"] in types
                    else None)


class ObservedTask:
    """A task as stop_run sees it, with each done() and cancel() logged: how long stop_run
    waited, and when it insisted."""

    def __init__(self, task, log):
        self._task, self._log = task, log

    def done(self):
        self._log.append(("done?", self._task.done()))
        return self._task.done()

    def cancel(self):
        self._log.append(("task.cancel", None))
        return self._task.cancel()

    def __await__(self):
        return self._task.__await__()


# --- the figures ------------------------------------------------------------------------------

FIGURES: dict[str, Callable[[str], str]] = {}


def figure(number: str):
    """Register the function that draws Figure `number`; it takes the title (the caption
    line of the lesson, "Figure 1.1: ...") and returns the SVG text."""
    def register(draw):
        FIGURES[number] = draw
        return draw
    return register


def result_card(c, x, y, w, lines, *, is_error, token="R(c1)", colour=INK):
    """A result as the model will read it: its chip, is_error, and its content."""
    h = 30 + 15 * len(lines)
    c.box(x, y, w, h, fill=PAPER, rx=4, stroke=colour, width=1.4)
    c.chip(x + 8, y + 6, token, h=20)
    c.text(x + 68, y + 20, f"is_error {is_error}", size=10.5, mono=True,
           colour=ACCENT if is_error else INK, bold=is_error)
    c.lines(x + 10, y + 42, lines, size=11, mono=True, leading=15)
    return h


def ways_out(title, *, stop):
    """Lesson 5's lane, a turn and every way out of it; with `stop`, lesson 15's as well."""
    c = Canvas(500 if stop else 440, title)
    cx = 160
    c.label_box(cx - 100, 24, 200, 34, "a turn begins (turn_start)")
    c.arrow((cx, 58), (cx, 70))
    c.diamond(cx, 120, 270, 96, "top-of-turn check" if not stop else "top-of-turn checks")
    c.note(cx, 140, "max_turns used up?" + (" Stop?" if stop else ""), anchor="middle",
           colour=INK, size=11)
    c.arrow((cx, 168), (cx, 178))
    c.label_box(cx - 100, 180, 200, 32, "model call")
    c.arrow((cx, 212), (cx, 232))
    c.label_box(cx - 100, 234, 200, 32, "reply recorded")
    c.arrow((cx, 266), (cx, 318))
    c.label_box(cx - 100, 320, 200, 34, "calls, one by one")
    c.arrow((cx, 354), (cx, 372), (14, 372), (14, 41), (58, 41))
    exit_x, exit_w = 470, 372

    def exit_card(y, heading, token, words, *, colour=INK, note=None):
        c.box(exit_x, y, exit_w, 40, fill=PAPER, rx=14, stroke=colour,
              width=2 if colour == ACCENT else 1.4)
        c.text(exit_x + 14, y + 16, heading, size=11.5, bold=True, colour=colour)
        w = c.chip(exit_x + 14, y + 20, token, h=17, size=11,
                   state="new" if colour == ACCENT else "normal")
        c.text(exit_x + 22 + w, y + 33, words, size=11, mono=True, colour=colour)
        if note:
            c.note(exit_x + exit_w - 12, y + 16, note, anchor="end", colour=colour)

    # exit 2 (and Stop) from the check: no model call is made for them
    c.arrow((cx + 135, 120), (exit_x - 2, 96))
    exit_card(74, "Exit 2: max_turns", "A(error)", "Agent stopped after max_turns=1",
              note="no model call")
    if stop:
        c.arrow((cx + 101, 132), (exit_x - 2, 146), colour=ACCENT, width=2)
        exit_card(124, "Exit 4, new: Stop", "A(aborted)", "Operation aborted",
                  colour=ACCENT, note="no model call")
    c.arrow((cx + 100, 244), (exit_x - 2, 208))
    c.note(cx + 112, 234, "no calls", colour=LINE, size=11)
    exit_card(186, "Exit 1: the ordinary end", "A", "a plain answer")
    c.arrow((cx + 100, 258), (exit_x - 2, 258))
    c.note(cx + 112, 252, "stop_reason error", colour=LINE, size=11)
    exit_card(238, "Exit 3: a failed reply", "A(error)", "overloaded",
              note="its calls are not run")
    # the exit never to build: a check between a reply and its calls
    c.arrow((cx, 292), (exit_x - 2, 310), colour=MUTED, dash="5 4")
    c.note(cx + 12, 312, "max_turns?", colour=MUTED, size=11)
    c.box(exit_x, 290, exit_w, 40, fill=PAPER, rx=14, stroke=MUTED, dash="5 4")
    c.text(exit_x + 14, 306, "never: a check between reply and calls", size=11.5, colour=MUTED,
           bold=True)
    c.chip(exit_x + 14, 310, "A[c1]", h=17, size=11, state="old")
    c.note(exit_x + 70, 323, "and nothing after it: a call with no result", size=11)
    c.strike(exit_x, 330, exit_x + exit_w, 290)
    # not an exit: a failed tool is news for the model, and the lane goes on
    c.arrow((cx + 100, 337), (cx + 150, 337), (cx + 150, 380))
    c.chip(cx + 124, 382, "R(c1)", h=20)
    c.text(cx + 184, 396, "is_error: Tool grep not found", size=11, mono=True)
    c.note(cx + 124, 420, "not an exit: a result is news for the model, and the turn goes on")
    if stop:
        c.chip(cx + 124, 440, "R(c2)", h=20, state="new")
        c.text(cx + 184, 454, "is_error: Operation aborted", size=11, mono=True, colour=ACCENT)
        c.note(cx + 124, 478, "Stop during a batch: every call still gets its result, then the "
               "next check leaves by exit 4", colour=ACCENT)
        c.arrow((cx + 100, 348), (cx + 108, 348), (cx + 108, 450), (cx + 122, 450),
                colour=ACCENT)
    return c.svg()


@figure("1.1")
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


@figure("2.1")
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
    c.note(157, 92, "sent", colour=LINE, anchor="middle")
    # 2 the reply: one message, two blocks; appended as A[c1]
    c.step(165, 190, 2)
    c.arrow((132, 200), (183, 200))
    c.note(157, 216, "reply", colour=LINE, anchor="middle")
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
    c.note(320, 288, "lifts the call block out", colour=INK, italic=False)
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
    c.note(610, 554, "the next request: lesson 3 sends it", anchor="middle")
    return c.svg()


def greeting_job():
    """Lesson 3's whole job, fix the greeting, run on the lesson 3 reference: the list after
    each append, and the list each request carried."""
    harness = reference("3.1")
    ws = lab.Workspace({"app.py": 'print("Helo, world")\n'})
    tools = [harness.make_read_tool(ws), harness.make_write_tool(ws),
             harness.make_bash_tool(lab.Shell(ws))]

    def careful(request):
        last = request.messages[-1]
        if last["role"] == "user":
            return lab.reply("I'll read it first.", lab.call("read", {"path": "app.py"}))
        if last["tool_name"] == "read":
            fixed = last["content"].replace("Helo", "Hello")
            return lab.reply(lab.call("write", {"path": "app.py", "content": fixed}))
        if last["tool_name"] == "write":
            return lab.reply("Checking it.", lab.call("bash", {"command": "cat app.py"}))
        return lab.say(f"Fixed. app.py now reads: {last['content'].strip()}")

    model = lab.ScriptedModel([lab.forever(careful)])
    log = Log()
    harness.run_agent(model, "You look after a small project.", log.record(), tools,
                      "Fix the greeting in app.py.")
    tokens = [token for kind, token in log if kind == "append"]
    shapes = [" ".join(tokens[:k + 1]) for k in range(len(tokens))]
    return shapes, [lab.shape(request.messages) for request in model.calls]


@figure("3.1")
def the_loop_and_its_list(title):
    shapes, requests = greeting_job()
    rows_top, row_h = 70, 44
    c = Canvas(max(440, rows_top + row_h * len(shapes) + 20), title)
    # the loop
    c.label_box(110, 24, 200, 30, "append the prompt", rx=15, fill=PAPER)
    c.arrow((210, 54), (210, 88))
    c.box(22, 90, 350, 52, fill=PANEL)
    c.text(32, 110, "ask", bold=True)
    c.note(362, 110, "with the whole list", anchor="end", colour=INK)
    c.text(32, 131, "model.complete(system, messages, tool_specs(tools))", size=10.5, mono=True)
    c.box(232, 58, 112, 24, fill=PAPER, rx=3, stroke=ACCENT)
    c.text(288, 74, "system prompt", size=11, colour=ACCENT, anchor="middle")
    c.line((232, 70), (212, 72), colour=ACCENT, width=1.2)
    c.arrow((195, 142), (195, 168))
    c.label_box(95, 170, 200, 32, "append the reply")
    c.arrow((195, 202), (195, 222))
    c.diamond(195, 262, 220, 80, "does its content hold calls?")
    c.arrow((195, 302), (195, 330))
    c.text(203, 320, "yes", size=12, bold=True)
    c.label_box(75, 332, 240, 46, "run each call in order, append each result")
    c.arrow((75, 355), (18, 355), (18, 116), (28, 116))
    c.arrow((305, 262), (352, 262))
    c.text(318, 254, "no", size=12, bold=True)
    c.label_box(300, 362, 62, 30, "return", rx=15, fill=PAPER)
    c.arrow((352, 262), (352, 360))
    for k, words in enumerate(("has words", "says stop")):
        y = 178 + k * 17
        c.arrow((296, y), (312, y), colour=MUTED, width=1.2)
        c.note(316, y + 4, words, size=11)
        c.strike(316, y, 370, y, width=1.2)
    c.note(20, 412, "struck: ending the run because a reply has words, or because its label "
           "says stop; the first rung removed both", width=350)
    # the list, after each append, and what each request carried
    c.text(400, 30, "the list, after each append", bold=True)
    c.note(400, 48, "new in colour; nothing removed, nothing reordered")
    sent = iter(requests)
    carried = next(sent, None)
    number = 1
    for i, shape in enumerate(shapes):
        y = rows_top + i * row_h
        tokens = shape.split()
        c.chips(470, y, tokens, states=["normal"] * (len(tokens) - 1) + ["new"], size=11)
        if shape == carried:
            c.bracket(462, y + 28, 470 + c.chips_width(tokens, size=11), y + 28, colour=ACCENT,
                      depth=-4)
            c.text(400, y + 16, f"request {number}", size=12, colour=ACCENT, bold=True)
            carried, number = next(sent, None), number + 1
        elif i == len(shapes) - 1:
            c.text(400, y + 16, "return", size=12, bold=True)
    return c.svg()


@figure("4.1")
def the_boundary(title):
    c = Canvas(560, title)
    wall = 470
    c.box(40, 40, 430, 44, fill=PANEL)
    c.text(56, 67, "run_agent", mono=True, bold=True)
    c.box(40, 112, wall - 40, 330, fill=PANEL, width=5)
    c.text(56, 136, "run_tool", mono=True, bold=True)
    c.note(190, 136, "its wall is the boundary: try ... except Exception", colour=INK)
    c.label_box(70, 176, 110, 240, "execute", mono=True, bold=True, fill=PAPER)
    # the wall has a gate for what returns and a gap for what is not an Exception
    rows = [(196, "returns a value, e.g. a file's text", LINE, ["the file's text"], False),
            (262, "returns output of a command that exited 1", LINE,
             ["...", "Command exited with code 1"], False),
            (332, "raises an Exception", ACCENT,
             ["File not found: README.md.", "Files here: readme.md, setup.cfg"], True)]
    card_y = 118
    for (y, words, colour, content, error) in rows:
        c.arrow((180, y), (wall + 60, y), colour=colour, width=1.8)
        c.note(190, y - 8, words, colour=colour, italic=False, size=11.5)
        c.line((wall + 60, y), (wall + 70, card_y + 16), colour=colour)
        card_y += result_card(c, wall + 72, card_y, 848 - wall - 72, content,
                              is_error=error) + 12
    c.text(190, 352, "FileNotFoundError, ValueError, KeyError", size=10.5, mono=True,
           colour=ACCENT)
    c.circle(wall, 332, 5, stroke=ACCENT, fill=ACCENT)
    c.note(wall - 8, 315, "caught", colour=ACCENT, anchor="end", italic=False, size=11.5)
    # an unknown name never reaches execute
    c.arrow((wall - 4, 400), (wall + 60, 400), colour=ACCENT, width=1.8)
    c.note(wall - 10, 396, "no tool named grep:", colour=ACCENT, italic=False, size=11.5,
           anchor="end")
    c.note(wall - 10, 410, "answered at the wall", colour=ACCENT, italic=False, size=11.5,
           anchor="end")
    c.line((wall + 60, 400), (wall + 70, card_y + 16), colour=ACCENT)
    card_y += result_card(c, wall + 72, card_y, 848 - wall - 72, ["Tool grep not found"],
                          is_error=True) + 12
    # PowerCut: not an Exception, so it goes through the gap and ends the program
    c.line((138, 112), (162, 112), colour=PAPER, width=7)  # the gap in the wall
    c.line((150, 176), (150, 14), colour=ACCENT, width=2.4)
    c.head((150, 8), (150, 30), colour=ACCENT, size=10)
    c.text(158, 168, "lab.PowerCut", size=11.5, mono=True, colour=ACCENT, bold=True)
    c.text(160, 22, "the program is ending", size=12, colour=ACCENT, bold=True)
    c.note(200, 66, "the record as it stands:", colour=INK)
    c.chips(345, 52, ["U", "A[c1]"], h=20)
    # the boundary not to build
    y = 470
    c.box(40, y, 430, 64, fill=PAPER, stroke=MUTED, dash="5 4")
    c.text(52, y + 38, "lab.PowerCut", size=11.5, mono=True, colour=MUTED)
    c.arrow((145, y + 34), (186, y + 34), colour=MUTED)
    c.line((190, y + 10), (190, y + 56), colour=MUTED, width=5)
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


@figure("5.1")
def every_way_out(title):
    return ways_out(title, stop=False)


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


@figure("6.1")
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
    c.box(36, top + kept_h - 4, 58, 8, fill=PAPER, stroke=ACCENT, rx=1)
    for k in range(6):
        c.line((40 + k * 9, top + kept_h + 4), (46 + k * 9, top + kept_h - 4), colour=ACCENT,
               width=1)
    c.strike(30, top + kept_h + 8, 104, top + kept_h - 8, colour=ACCENT)
    c.note(110, top + kept_h + 4, "never half a line", colour=ACCENT)
    bottom = note_box(150, top + 130, 270, head)
    c.curve((150, top + 150), (110, top + 125), (93, top + kept_h + 8), colour=ACCENT)
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
    c.line((x, top + bar_h - 4), (x - 24, top + bar_h - 4), (x - 24, top + bar_h - 24),
           colour=ACCENT, width=1.5)
    c.add(dw.Lines(x - 24, top + bar_h - 24, x - 40, top + bar_h - 19, x - 24, top + bar_h - 14,
                   close=True, fill=ACCENT))
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


def one_call_run():
    """Lesson 7's run with one call, on the lesson 7 reference, logged."""
    harness = reference("7.1")
    log = Log()
    ws = lab.Workspace({"app.py": "print('ok')\n"})
    model = log.model(lab.ScriptedModel([lab.reply(lab.call("read", {"path": "app.py"})),
                                         lab.say("It prints ok.")]))
    messages = log.record()
    for event in harness.run_agent(model, "You look after a small project.", messages,
                                   [log.tool(harness.make_read_tool(ws))],
                                   "What does app.py print?"):
        log.append(("event", event))
    return log


@figure("7.1")
def twelve_events(title):
    log = one_call_run()
    events = [detail for kind, detail in log if kind == "event"]
    assert len(events) == 12, f"a run with one call gave {len(events)} events"
    top, row = 96, 27
    c = Canvas(top + row * len(log) + 40, title)
    rec_x, run_x, con_x = 70, 330, 610
    c.text(rec_x, 28, "record", bold=True, anchor="middle")
    c.note(rec_x, 44, "the caller's list", anchor="middle")
    c.text(run_x, 28, "run_agent", bold=True, mono=True, anchor="middle")
    c.text(con_x, 28, "consumer", bold=True, anchor="middle")
    c.note(con_x, 44, "your frontend's code runs", anchor="middle")
    c.box(run_x - 90, 54, 10, 14, fill=INK, rx=1, stroke=INK)
    c.note(run_x - 76, 65, "running", colour=INK)
    c.box(run_x + 10, 54, 10, 14, fill=PAPER, rx=1, stroke=INK)
    c.note(run_x + 24, 65, "waiting at its yield", colour=INK)
    c.line((rec_x, 74), (rec_x, top + row * len(log)), colour="#d5dae1", width=1.2)
    c.line((con_x, 74), (con_x, top + row * len(log)), colour="#d5dae1", width=1.2)
    turns = 0
    last_turn_end = max(i for i, (kind, detail) in enumerate(log)
                        if kind == "event" and detail["type"] == "turn_end")
    for i, (kind, detail) in enumerate(log):
        y = top + i * row
        mid = y + row / 2
        waiting = kind == "event"
        c.box(run_x - 5, y, 10, row, fill=PAPER if waiting else INK, rx=0, stroke=INK, width=1)
        if kind == "event":
            heavy = detail["type"] == "agent_end"
            colour = ACCENT if heavy else LINE
            c.arrow((run_x + 8, mid), (con_x - 54, mid), colour=colour, width=3 if heavy else 1.5)
            c.text(run_x + 16, mid - 4, detail["type"], size=11.5, mono=True, colour=colour,
                   bold=heavy)
            c.box(con_x - 50, y + 3, 100, row - 6, fill=PANEL, rx=3, stroke="#c3cad3", width=1)
            if detail["type"] == "message_end":
                c.chip(run_x + 112, y + 3, lab.shape([detail["message"]]), h=18, size=10.5)
            if heavy:
                c.chips(con_x + 60, y + 3, lab.shape(detail["messages"]).split(), h=18,
                        size=10.5)
                c.note(con_x - 50, y + row + 12, "agent_end carries what the run added, its "
                       "answer last", colour=ACCENT)
            if detail["type"] == "turn_start":
                turns += 1
                c.note(run_x - 14, mid + 4, f"turn {turns}", anchor="end", colour=INK)
        elif kind == "append":
            c.chip(rec_x - c.chip_width(detail, 11) / 2, y + 3, detail, h=row - 6, size=11,
                   state="new")
            c.line((run_x - 8, mid), (rec_x + 34, mid), colour=INK, dash="2 3", width=1)
            c.note(run_x - 14, mid + 4, "append", anchor="end", colour=INK)
        else:
            label = "model.complete" if kind == "model" else "run_tool"
            c.box(run_x + 12, y + 3, 120, row - 6, fill=PANEL, rx=3)
            c.text(run_x + 72, mid + 4, label, size=11, mono=True, anchor="middle")
            if kind == "tool" and log[i + 1][0] == "append":
                c.bracket(run_x + 150, y + 2, run_x + 150, y + 2 * row - 2, depth=-6,
                          colour=ACCENT, width=2)
                c.note(run_x + 162, y + row + 4, "no yield here: the result is on the",
                       colour=ACCENT, italic=False, size=11.5)
                c.note(run_x + 162, y + row + 18, "record before anyone can walk away",
                       colour=ACCENT, italic=False, size=11.5)
        if i == last_turn_end:
            for k, name in enumerate(("max_turns", "failed reply")):  # lesson 5's other ends
                by = y - 62 + k * 28
                c.box(110, by - 14, 88, 22, fill=PAPER, dash="4 3", stroke=MUTED, rx=3)
                c.text(154, by + 1, name, size=11, anchor="middle", colour=MUTED)
                c.line((198, by - 3), (run_x - 8, y - 4), colour=MUTED, dash="4 3")
            c.note(110, y + 20, "lesson 5's other exits", colour=MUTED)
            c.note(110, y + 34, "leave through this turn_end", colour=MUTED)
    return c.svg()


@figure("8.1")
def one_owner(title):
    c = Canvas(560, title)
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
    c.arrow((248, 130), (40, 130))
    c.note(40, 146, "the run it hands out", colour=LINE)
    c.line((40, 188), (246, 188), colour=ACCENT, width=2)
    c.arrow((246, 188), (170, 212), colour=ACCENT, width=2)
    c.text(40, 180, "prompt(text), while running", size=12, mono=True, colour=ACCENT)
    c.text(40, 230, "RuntimeError(", size=11, mono=True, colour=ACCENT)
    c.text(52, 246, '"already running; use steer() or follow_up()")', size=11, mono=True,
           colour=ACCENT)
    c.arrow((582, 124), (610, 124))
    c.text(590, 112, "h.messages", size=12, mono=True)
    c.text(612, 129, "(", size=16, mono=True)
    end = c.chips(624, 114, ["U", "A[c1]", "R(c1)", "A"], size=10, h=18)
    c.text(end + 3, 129, ")", size=16, mono=True)
    c.note(615, 154, "a tuple: the same dicts, in a", colour=LINE)
    c.note(615, 168, "list nobody outside can change", colour=LINE)
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
    c.arrow((100, cy + 26), (100, cy + 112), (820, cy + 112), (820, cy + 26), colour=ACCENT,
            width=2)
    c.text(110, cy + 106, "close() before the first step", size=11.5, mono=False, colour=ACCENT)
    c.note(400, cy + 106, "no finally runs: no line of the run ever started", colour=ACCENT)
    # is_running, read off the state
    by = cy + 136
    c.box(30, by, 610, 14, fill=INK, rx=3, stroke=INK)
    c.box(740, by, 100, 14, fill=PAPER, rx=3, stroke=INK)
    c.text(36, by + 32, "is_running", size=12, mono=True, bold=True)
    c.note(120, by + 32, "True under every state but over: read off the run (its frame), "
           "not set by any arrow", colour=INK)
    return c.svg()


@figure("9.1")
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
    c.note(140, 232, "_delivered: the oldest leaves its queue only", size=11, colour=GOOD)
    c.note(140, 245, "when its message_end passes", size=11, colour=GOOD)
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
    c.note(24, y + 100, "so the loop asks for queued words only where the lane below marks "
           "it, and _drain hands it the oldest, or nothing", width=370, colour=INK)
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
    c.note(lx - 90, 440, "one message, or nothing", colour=INK, size=11, anchor="end")
    c.note(lx - 90, 453, "after a reply with calls", colour=INK, size=11, anchor="end")
    c.line((lx - 85, 526), (bus, 526), (bus, 412), colour=LINE, width=1.5)
    c.note(lx - 90, 546, "one message", colour=INK, size=11, anchor="end")
    # _drain: the queues' oldest, handed to the loop where it asks
    c.curve((330, 106), (430, 200), (lx - 60, 402), colour=ACCENT, dash="5 4", width=1.5)
    c.curve((330, 186), (400, 420), (lx - 62, 520), colour=ACCENT, dash="5 4", width=1.5)
    return c.svg()


def power_cut_views():
    """Lesson 10's power cut in the middle of a batch, on the lesson 10 reference: the record
    afterwards, and the view each request carried."""
    harness = reference("10.1")
    ws = lab.Workspace({"a.py": "A = 1\n", "b.py": "B = 2\n", "c.py": "C = 3\n"})
    read = harness.make_read_tool(ws)

    def read_or_lose_power(arguments):
        if arguments["path"] == "b.py":
            raise lab.PowerCut("power lost")
        return read["execute"](arguments)

    def answer(request):
        if request.messages[-1]["content"] == "Read all three.":
            return lab.reply(*[lab.call("read", {"path": p}) for p in ("a.py", "b.py", "c.py")])
        return lab.say("The power went during the reads.")

    model = lab.ScriptedModel([lab.forever(answer)])
    h = harness.Harness(model, "You look after a small project.",
                        [{**read, "execute": read_or_lose_power}])
    with contextlib.suppress(lab.PowerCut):
        for _ in h.prompt("Read all three."):
            pass
    record = list(h.messages)
    for _ in h.prompt("What happened?"):
        pass
    return harness, record, [request.messages for request in model.calls]


@figure("10.1")
def one_record_many_views(title):
    harness, record, views = power_cut_views()
    answered = {m["tool_call_id"] for m in record if m["role"] == "toolResult"}
    unanswered = [b["id"] for m in record if m["role"] == "assistant"
                  for b in harness.tool_calls(m) if b["id"] not in answered]
    rows = [(lab.shape([m]), "normal") for m in record]  # then a dashed square for each hole,
    rows += [(f"{i}: no result", "gone") for i in unanswered]  # and the user's next words
    rows.append(("U", "normal"))
    top, gap = 116, 40
    c = Canvas(top + gap * len(rows) + 40, title)
    c.text(30, 30, "record", bold=True)
    c.note(30, 46, "what happened: it only grows at the bottom; nothing in it is ever")
    c.note(30, 60, "crossed out, moved or filled in")
    for k, (token, state) in enumerate(rows):
        c.chip(30, top + k * gap, token, state=state, h=24)
    gone = [k for k, (_, state) in enumerate(rows) if state == "gone"]
    c.bolt(150, top + gone[0] * gap, scale=1.3)
    c.note(170, top + gone[0] * gap + 22, "power cut", colour=ACCENT, italic=False)
    c.text(470, 30, "views", bold=True)
    c.note(470, 46, "what each request carries, made fresh by context_for_model")
    c.box(470, 56, 30, 18, fill=PANEL, rx=3, width=1)
    c.text(485, 69, "5", size=11, anchor="middle")
    c.note(506, 69, "lesson 5: leave out empty failed replies", colour=INK, size=11)
    c.box(470, 78, 30, 18, fill=PAPER, rx=3, stroke=ACCENT, width=1.6)
    c.text(485, 91, "10", size=11, anchor="middle", colour=ACCENT, bold=True)
    c.note(506, 91, "lesson 10: pair every call with one result", colour=ACCENT, size=11)
    # each request's view, level with the record as it stood when the request was made
    user_rows = [k for k, (token, _) in enumerate(rows) if token == "U"]
    for number, (k, view) in enumerate(zip(user_rows, views), 1):
        y = top + k * gap
        mid = y + 12
        if k:  # the request is made from the whole record
            c.bracket(22, top, 22, y + 24, depth=5, colour=LINE)
        c.arrow((64 if k else 60, mid), (246, mid))
        c.note(120, mid - 6, "context_for_model", italic=False, mono=True, size=10.5, colour=LINE)
        c.box(250, mid - 9, 30, 18, fill=PANEL, rx=3, width=1)
        c.text(265, mid + 4, "5", size=11, anchor="middle")
        c.arrow((280, mid), (292, mid))
        c.box(294, mid - 9, 30, 18, fill=PAPER, rx=3, stroke=ACCENT, width=1.6)
        c.text(309, mid + 4, "10", size=11, anchor="middle", colour=ACCENT, bold=True)
        c.arrow((324, mid), (338, mid))
        tokens = lab.shape(view).split()
        made = [m.get("content") == harness.INTERRUPTED for m in view]
        end = c.chips(340, y, tokens, states=["new" if x else "normal" for x in made], size=10.5,
                      h=24)
        c.note(340, y - 6, f"request {number}", colour=INK, italic=False, size=11)
        if any(made):
            first = 340 + c.chips_width(tokens[:made.index(True)], size=10.5) + 5
            c.note(first, y + 40, "INTERRUPTED, is_error: in the view only", colour=ACCENT,
                   size=11)
        if lab.validate(view) == []:
            c.tick_mark(end + 12, mid + 5)
            c.note(end + 26, mid + 4, "valid", colour=GOOD, italic=False)
        c.arrow((end + 62, mid), (770, mid))
    c.box(772, top - 10, 70, gap * len(rows) - 4, fill=PANEL, rx=30)
    c.text(807, top + gap * len(rows) / 2, "provider", size=12, anchor="middle", bold=True)
    c.note(340, top + gap * len(rows) + 16, "no arrow goes from a view back to the record: only "
           "the view is repaired", colour=INK)
    return c.svg()


def session_lines():
    """The lines of session.jsonl after a run with one call, from the lesson 11 reference
    with persist_to listening."""
    harness = reference("11.1")
    ws = lab.Workspace({"app.py": "print('ok')\n"})
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "app.py"})),
                               lab.say("It prints ok.")])
    h = harness.Harness(model, "You look after a small project.", [harness.make_read_tool(ws)])
    h.subscribe(harness.persist_to(harness.SessionLog(ws, "session.jsonl")))
    for _ in h.prompt("What does app.py print?"):
        pass
    return ws.read_text("session.jsonl").splitlines()


@figure("11.1")
def from_the_loop_to_the_disk(title):
    lines = session_lines()
    second = json.loads(lines[1])
    token = lab.shape([second["message"]])
    c = Canvas(470, title)
    lanes = {"loop": 60, "record": 130, "listeners": 200, "consumer": 270}
    names = {"loop": "run_agent", "record": "the harness's list", "listeners": "persist_to",
             "consumer": "your frontend"}
    for name, y in lanes.items():
        c.text(20, y + 4, name, bold=True)
        code = name in ("loop", "listeners")
        c.note(20, y + 19, names[name], mono=code, italic=not code, size=11)
        end = 600 if name in ("consumer", "record") else 840
        c.line((170, y), (end, y), colour="#d5dae1", width=1.2)
    c.line((600, lanes["record"]), (840, lanes["record"]), colour="#d5dae1", width=1.2,
           dash="2 6")
    c.note(610, lanes["record"] - 8, "gone with the process", colour=MUTED)
    c.chip(190, lanes["loop"] - 11, token)
    c.arrow((230, lanes["loop"] + 11), (268, lanes["record"] - 12))
    c.text(254, 100, "1 append", size=11.5, bold=True, colour=LINE)
    c.chip(270, lanes["record"] - 11, token, state="new")
    c.arrow((310, lanes["record"] + 11), (348, lanes["listeners"] - 10))
    c.text(334, 170, "2 notify", size=11.5, bold=True, colour=LINE)
    c.label_box(350, lanes["listeners"] - 12, 90, 24, "append_message", size=10.5, mono=True,
                fill=PAPER)
    c.arrow((395, lanes["listeners"] + 12), (395, 318))
    c.note(403, 300, "one new line", colour=LINE)
    c.arrow((440, lanes["listeners"]), (470, lanes["listeners"]), (500, lanes["consumer"] - 12))
    c.text(504, 240, "3 yield", size=11.5, bold=True, colour=LINE)
    c.box(500, lanes["consumer"] - 11, 70, 22, fill=PANEL, rx=3, width=1)
    c.text(535, lanes["consumer"] + 4, "renders", size=11, anchor="middle")
    c.bolt(584, lanes["listeners"] + 12, scale=1.6)
    c.note(612, lanes["consumer"] + 4, "the power goes", colour=ACCENT)
    # the log on disk: lines are only ever added at the end
    y = 320
    c.text(20, y + 22, "session.jsonl", bold=True, mono=True, size=12)
    c.note(20, y + 38, "on disk", size=11)
    c.box(170, y, 670, 64, fill=PAPER, rx=2)
    c.box(172, y + 6, 666, 22, fill="#e4e7eb", rx=0, width=0, stroke="none")
    for k, line in enumerate(lines[:2]):
        shown = line if len(line) <= 96 else line[:93] + "..."
        c.text(180, y + 21 + k * 26, shown, size=10, mono=True,
               colour=MUTED if k == 0 else ACCENT, bold=k == 1)
    c.box(172, y + 33, 666, 24, fill="none", rx=2, stroke=ACCENT, width=1.4)
    c.note(838, y + 80, "earlier lines: never touched again; the log does not fade",
           anchor="end")
    # the next morning
    y = 412
    c.arrow((300, 386), (300, y + 18), (418, y + 18))
    c.text(308, y + 12, "replay()", size=11.5, mono=True, bold=True)
    c.box(420, y, 420, 40, fill=PANEL, rx=6, stroke=MUTED, dash="5 4")
    c.text(430, y + 25, "Harness(..., messages=log.replay())", size=11, mono=True)
    c.chips(700, y + 9, lab.shape([json.loads(x)["message"] for x in lines[:2]]).split(),
            h=22, size=10.5)
    return c.svg()


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


@figure("12.1")
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
        c.line((cut_x, y - 10), (cut_x, y + 50), colour=INK, width=2.5)
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


def prompt_sections():
    """The sections of a system prompt built by the lesson 13 reference from a workspace with
    three AGENTS.md files, two skills and its three tools."""
    harness = reference("13.1")
    ws = lab.Workspace({"AGENTS.md": "Run the tests with pytest -q.",
                        "services/AGENTS.md": "Every service has a README.",
                        "services/api/AGENTS.md": "This service talks to the billing database."})
    tools = [harness.make_read_tool(ws), harness.make_write_tool(ws),
             harness.make_bash_tool(lab.Shell(ws))]
    skills = [{"name": "migration", "description": "Write a database migration.",
               "path": "skills/migration.md"}]
    context = harness.discover_context(ws, "services/api")
    prompt = harness.build_system_prompt(tools, context, skills, "services/api", "2025-06-02")
    return prompt.split("\n\n"), [where for where, _ in context]


@figure("13.1")
def where_the_prompt_comes_from(title):
    sections, context = prompt_sections()
    top, h, gap = 40, 30, 10
    c = Canvas(top + (h + gap) * len(sections) + 80, title)
    px, pw = 440, 335
    c.text(px, 26, "the prompt, top to bottom", bold=True)
    ys = []
    for k, section in enumerate(sections):
        y = top + k * (h + gap)
        ys.append(y + h / 2)
        first = section.split("\n")[0]
        words = first if len(first) <= 52 else first[:49] + "..."
        c.box(px, y, pw, h, fill=PAPER if k < len(sections) - 1 else ROLE_FILL["A"], rx=3)
        c.text(px + 8, y + 19, words, size=10, mono=True)
    bottom = top + (h + gap) * len(sections) - gap
    c.arrow((790, top), (790, bottom))
    c.add(dw.Text("changes least to changes most", 11, 802, top + 4, fill=LINE,
                  font_style="italic", transform=f"rotate(90 802 {top + 4})"))
    c.bracket(824, top, 824, bottom - h - gap, depth=-5, colour=INK)
    c.add(dw.Text("shared from one day to the next", 11, 836, top + 4, fill=INK,
                  font_style="italic", transform=f"rotate(90 836 {top + 4})"))

    def at(word):
        return ys[next(k for k, s in enumerate(sections) if s.startswith(word))]

    def source(y, label, sub=None):
        c.box(20, y - 16, 150, 32 if not sub else 40, fill=PANEL, rx=4)  # wide enough for sub
        c.text(30, y + 2 if not sub else y - 1, label, size=12, bold=True)
        if sub:
            c.note(30, y + 15, sub, size=11)
        return y

    # the tools feed two sections; guidelines pass through a list that keeps each once
    y = source(at("Available tools"), "the tool list", "the harness was made with")
    c.arrow((170, y - 4), (px - 2, at("Available tools")))
    c.note(300, at("Available tools") - 6, "each snippet", colour=LINE, size=11)
    c.add(dw.Lines(300, at("Guidelines") - 12, 340, at("Guidelines") - 12, 330,
                   at("Guidelines") + 8, 310, at("Guidelines") + 8, close=True, fill=PANEL,
                   stroke=INK, stroke_width=1.2))
    c.arrow((170, y + 10), (298, at("Guidelines") - 4))
    c.arrow((336, at("Guidelines") - 2), (px - 2, at("Guidelines")))
    c.note(180, at("Guidelines") + 20, "each guideline once, first seen first", colour=LINE,
           size=11)
    # the workspace: each AGENTS.md from the root down to cwd, broadest first
    blocks = [k for k, s in enumerate(sections) if s.startswith("<project_instructions")]
    y = source((ys[blocks[0]] + ys[blocks[-1]]) / 2, "the workspace")
    c.label_box(180, y - 14, 108, 28, "discover_context", size=10, mono=True, fill=PAPER)
    c.arrow((170, y), (178, y))
    for k, where in zip(blocks, context):
        c.box(296, ys[k] - 11, 134, 22, fill=PAPER, rx=2, width=1)
        c.text(302, ys[k] + 4, where, size=9.5, mono=True)
        c.arrow((288, y), (294, ys[k]))
        c.arrow((430, ys[k]), (px - 2, ys[k]))
    # the skills: an index, and only when a tool named read can load them
    y = source(at("Skills"), "the skills list")
    c.arrow((170, y), (300, y))
    c.box(302, y - 12, 20, 24, fill=PAPER, rx=2)
    c.line((306, y - 12), (306, y + 12), colour=INK, width=1)
    c.line((318, y - 12), (318, y + 12), colour=INK, width=1)
    c.arrow((322, y), (px - 2, y))
    c.note(332, y + 17, "only if a tool is named read", colour=LINE, size=11)
    # the caller: the folder and the date, last
    y = source(at("Current date"), "the caller", "passes cwd and today")
    c.arrow((170, y - 2), (px - 2, at("Current date")))
    # what the builder never reads
    y = bottom + 40
    for k, thing in enumerate(("the clock", "the disk", "a prompt typed once")):
        x = 20 + k * 150
        c.box(x, y - 14, 130, 26, fill=PAPER, rx=4, stroke=MUTED, dash="4 3")
        c.text(x + 65, y + 3, thing, size=11.5, colour=MUTED, anchor="middle")
        c.strike(x, y + 12, x + 130, y - 14)
    c.note(470, y + 3, "never read by the builder: equal arguments give equal bytes",
           colour=INK, size=11.5)
    return c.svg()


@figure("14.1")
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
    c.box(440, 140, 166, 90, fill="none", rx=6, stroke=MUTED, dash="2 3")
    c.note(444, 134, "never: the door's try around the tool", size=10.5)
    c.arrow((20, 196), (181, 196))
    c.text(24, 188, "a call", size=12, bold=True)
    card_x, card_w = 690, 160
    # 1: None, the way through
    c.arrow((333, 196), (446, 194), colour=GOOD, width=2)
    c.text(372, 187, "None", size=11.5, mono=True, colour=GOOD, bold=True)
    c.arrow((598, 194), (card_x - 2, 194), colour=GOOD, width=2)
    result_card(c, card_x, 168, card_w, ["its output"], is_error=False)
    # 5: the tool's own failure passes the guard untouched; run_tool catches it
    c.arrow((523, 222), (523, 262), (668, 262), (card_x - 2, 262), colour=LINE, width=1.8)
    c.text(531, 252, "its own ValueError", size=11, colour=LINE)
    c.circle(670, 262, 4.5, stroke=LINE, fill=LINE)
    result_card(c, card_x, 236, card_w, ["in the tool's words"], is_error=True)
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
    result_card(c, card_x, 304, card_w, ["Tool call blocked:", "<reason>"], is_error=True)
    # 3: a check that raises has not said yes: the door fails closed
    c.arrow((300, 218), (350, 250), colour=ACCENT, width=1.8)
    c.circle(354, 252, 4.5, stroke=ACCENT, fill=ACCENT)
    c.line((354, 252), (262, 286), colour=ACCENT, width=1.8, dash="4 3")
    c.text(364, 262, "an Exception in the check", size=11, colour=ACCENT)
    c.text(364, 282, "the check failed: <exc>", size=10.5, mono=True, colour=ACCENT)
    c.box(366, 290, 11, 9, fill=ACCENT, rx=1, stroke=ACCENT)
    c.add(dw.Path(stroke=ACCENT, fill="none", stroke_width=1.6).M(368, 290).Q(371.5, 281, 375, 290))
    c.note(384, 299, "fails closed: a refusal", colour=ACCENT, size=11)
    # 4: anything wider ends the program, through every wall
    c.line((258, 161), (258, 28), (846, 28), colour=INK, width=2)
    c.head((850, 28), (830, 28), colour=INK, size=10)
    c.text(266, 46, "anything wider, such as lab.PowerCut", size=11, colour=INK)
    c.note(846, 46, "the program is ending", anchor="end", colour=INK, size=11)
    return c.svg()


@figure("15.1")
def every_way_out_and_stop(title):
    return ways_out(title, stop=True)


def stop_runs():
    """Lesson 15's two Stops on the lesson 15 reference, logged: a Stop clicked during the
    first of three bash calls (bash polls the flag), and stop_run on a tool that never looks
    (grace 5)."""

    async def polite():
        harness, log = reference("15.2"), Log()
        log.flag(harness)
        bash = log.tool(harness.make_bash_tool(lab.Shell(lab.Workspace({}))))
        calls = [lab.call("bash", {"command": c}) for c in ("sleep 10", "sleep 1", "sleep 1")]
        model = log.model(lab.ScriptedModel([lab.reply(*calls), lab.say("never sent")]))
        h = harness.Harness(model, "You look after a small project.", [bash])
        log.listen(h, "message_end", "agent_end")
        async with lab.background(h.prompt("Run the three checks.")) as task:
            while sum(1 for kind, d in log if kind == "look" and d[0] == "execute") < 3:
                await lab.tick()  # Stop is clicked during c1's third lap
            h.cancel()
            await task
        return log

    async def insist():
        harness, log = reference("15.2"), Log()
        log.flag(harness)
        shell = lab.Shell(lab.Workspace({}))

        async def execute(arguments, signal=None):
            try:
                output, _ = await shell.arun("sleep inf")  # looks at nothing
            except asyncio.CancelledError:
                log.append(("cancelled", None))
                raise
            return output

        build = log.tool({"name": "build", "description": "Build everything (slow).",
                          "parameters": {"type": "object", "properties": {}},
                          "execute": execute})
        model = log.model(lab.ScriptedModel([lab.reply(lab.call("build")), lab.say("unused")]))
        h = harness.Harness(model, "You look after a small project.", [build])
        log.listen(h, "message_end", "agent_end")
        task = asyncio.ensure_future(lab.drive(h.prompt("Start the build.")))
        await lab.ticks(10)
        log.append(("stop_run", await harness.stop_run(h, ObservedTask(task, log), grace=5)))
        log.append(("record", lab.shape(h.messages)))
        return log

    return asyncio.run(polite()), asyncio.run(insist())


@figure("15.2")
def a_single_stop(title):
    polite, insist = stop_runs()
    insist = insist[next(i for i, (kind, _) in enumerate(insist) if kind == "tool"):]
    row = 21
    first_h = 90 + row * len(polite)
    c = Canvas(first_h + 90 + row * len(insist) + 20, title)

    def draw(log, top, lanes, tool):
        for name, x in lanes.items():
            c.text(x, top - 30, name, bold=True, mono=name != "model", anchor="middle")
            c.line((x, top - 22), (x, top + row * len(log)), colour="#d5dae1", width=1.2)
        run_x, tool_x = lanes["run_agent"], lanes[tool]
        calls = iter(["c1", "c2", "c3"])
        starts = [i for i, (kind, _) in enumerate(log) if kind == "tool"]
        for start in starts:  # the tool's bar, from its start to its return or its end
            end = next((i for i in range(start + 1, len(log))
                        if log[i][0] in ("returned", "cancelled")), start + 1)
            c.box(tool_x - 4, top + start * row + row - 2, 8, (end - start) * row - row / 2 + 6,
                  fill=PANEL, rx=2, stroke=INK, width=1)
        for i, (kind, detail) in enumerate(log):
            y = top + i * row
            mid = y + row / 2
            if kind == "look":
                who, value, call = detail
                x = {"run_agent": run_x, "run_tool": run_x, "model": lanes["model"]}.get(
                    who, tool_x)
                c.circle(x, mid, 5.5, stroke=ACCENT if value else INK,
                         fill=ACCENT if value else PAPER, width=1.6)
                words = {"run_agent": "top of the turn", "run_tool": f"run_tool, before {call}",
                         "model": "the model, waiting"}.get(who, "a lap of the poll")
                c.note(x + 11, mid + 4, words + (": set" if value else ""), size=11,
                       colour=ACCENT if value else MUTED)
            elif kind == "model":
                a, b = (run_x - 8, lanes["model"] + 8) if detail == "start" else \
                    (lanes["model"] + 8, run_x - 8)
                c.arrow((a, mid), (b, mid))
                c.note((a + b) / 2, mid - 4, "request" if detail == "start" else "reply",
                       anchor="middle", colour=LINE, italic=False, size=11)
            elif kind == "tool":
                call = next(calls)
                c.arrow((run_x + 8, mid), (tool_x - 10, mid))
                c.note(run_x + 16, mid - 4, f"{call} starts", colour=LINE, italic=False, size=11)
            elif kind == "returned":
                c.cross(tool_x, y + 2, 6, colour=ACCENT, width=2)
                c.note(tool_x + 14, y + 6, "the command is killed", colour=ACCENT, size=11)
                c.arrow((tool_x - 10, mid + 2), (run_x + 8, mid + 2), colour=ACCENT)
                c.text(run_x + 16, mid - 2, json.dumps(detail), size=11, mono=True,
                       colour=ACCENT)
            elif kind == "event" and detail["type"] == "message_end":
                token = lab.shape([detail["message"]])
                w = c.chip_width(token, 10.5)
                stopped = "aborted" in token or detail["message"]["content"] == "Operation aborted"
                c.chip(run_x - 14 - w, y + 2, token, h=row - 4, size=10.5,
                       state="new" if stopped else "normal")
                if token.startswith("R(") and stopped:
                    c.note(run_x - 20 - w, mid + 4, "Operation aborted", anchor="end",
                           colour=ACCENT, size=11)
            elif kind == "event":
                c.text(run_x + 12, mid + 4, "agent_end", size=11.5, mono=True, bold=True)
            elif kind == "stop":
                c.line((20, mid), (WIDTH - 20, mid), colour=ACCENT, dash="6 4", width=1.5)
                c.text(24, mid - 5, "Stop: h.cancel() sets the flag", size=11.5, colour=ACCENT,
                       bold=True)

    # the first panel: a tool that polls, and a loop that looks before each wait
    top = 80
    c.text(20, 24, "A tool that looks", bold=True, size=14)
    c.note(160, 24, "each circle is a look at the flag, on the lane that looks: hollow, it was "
           "clear; filled, it was set", colour=INK)
    draw(polite, top, {"model": 90, "run_agent": 420, "bash": 690}, "bash")
    # the second panel: the backstop, for a tool that never looks
    top2 = first_h + 90
    c.line((20, first_h + 10), (WIDTH - 20, first_h + 10), colour="#d5dae1", width=1)
    c.text(20, first_h + 34, "The backstop: stop_run(h, task, grace=5), for a tool that never "
           "looks", bold=True, size=14)
    lanes = {"model": 90, "run_agent": 380, "build": 560, "stop_run": 770}
    draw(insist, top2, lanes, "build")
    c.note(lanes["build"] + 12, top2 + 4.5 * row, "the tool never looks", colour=INK)
    c.note(lanes["build"] + 12, top2 + 5.2 * row, "at the flag", colour=INK)
    checks = [i for i, (kind, _) in enumerate(insist) if kind == "done?"]
    for i, (kind, detail) in enumerate(insist):
        y = top2 + i * row
        mid = y + row / 2
        if kind == "done?":
            c.line((lanes["stop_run"] - 6, mid), (lanes["stop_run"] + 6, mid), colour=INK, width=2)
            if i == checks[0]:
                c.note(lanes["stop_run"] - 12, mid + 4, "task.done()? no, once a turn",
                       anchor="end", size=11, colour=INK)
        elif kind == "task.cancel":
            c.bolt(lanes["build"] + 70, y - 6, scale=0.9)
            c.arrow((lanes["stop_run"] - 8, mid), (lanes["build"] + 10, mid), colour=ACCENT,
                    width=2.2)
            c.text(lanes["build"] + 90, mid - 4, "task.cancel()", size=11, mono=True,
                   colour=ACCENT, bold=True)
        elif kind == "cancelled":
            c.text(lanes["build"] - 10, mid + 4, "CancelledError, in its await", size=11,
                   mono=True, colour=ACCENT, anchor="end")
            c.arrow((lanes["build"] - 10, mid + 12), (lanes["run_agent"] + 8, mid + 12),
                    (lanes["run_agent"] + 8, mid + 30), colour=ACCENT, width=2)
        elif kind == "stop_run":
            c.text(lanes["stop_run"], mid + 22, f"returns {json.dumps(detail)}", size=11.5,
                   mono=True, anchor="middle", bold=True)
        elif kind == "record":
            c.note(lanes["run_agent"] - 14, mid + 4, f"record: {detail}, c1 has no result",
                   anchor="end", colour=INK)
            c.note(lanes["run_agent"] + 14, mid + 4, "run_tool lets it through", colour=ACCENT)
            for side in (-1, 1):  # run_tool, an open gate
                c.box(lanes["run_agent"] + 8 + side * 9 - 2, y - row + 4, 4, 14, fill=INK,
                      stroke=INK, rx=1, width=1)
    return c.svg()


# --- writing and checking -----------------------------------------------------------------------

CAPTION = re.compile(r"^\*\*Figure (\d+)\.(\d+)\*\* (.+)$", re.M)
IMAGE = re.compile(r"^!\[Figure (\d+)\.(\d+): [^\]]*\]\(figures/figure-(\d+)-(\d+)\.svg\)$", re.M)


def captions() -> dict[str, tuple[manifest.Lesson, str]]:
    """Every figure a lesson's source defines, "1.1" -> (its lesson, its caption)."""
    found = {}
    for lesson in manifest.lessons():
        if lesson.source.exists():
            for major, minor, words in CAPTION.findall(lesson.source.read_text(encoding="utf-8")):
                found[f"{major}.{minor}"] = (lesson, words.strip())
    return found


def path(number: str) -> Path:
    """Where Figure `number` is committed: in the lesson's own folder, beside its notebook."""
    major, minor = number.split(".")
    return manifest.lesson(int(major)).folder / "figures" / f"figure-{major}-{minor}.svg"


def files() -> dict[Path, str]:
    """Each figure's SVG, drawn now, by the path it is committed at."""
    named = captions()
    missing = sorted(set(FIGURES) - set(named), key=manifest.key)
    if missing:
        raise SystemExit(f"tools/figures.py draws Figure {', '.join(missing)}, which no lesson "
                         "defines with a **Figure N.M** caption line")
    return {path(number): draw(f"Figure {number}: {named[number][1]}")
            for number, draw in sorted(FIGURES.items(), key=lambda kv: manifest.key(kv[0]))}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.figures",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--png", metavar="DIR", help="also render each figure to DIR/*.png with "
                        "rsvg-convert, to look at (authors only; needs librsvg2-bin)")
    args = parser.parse_args(argv)
    drawn = files()
    if args.check:
        problems = generated.differences(drawn)
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    generated.write(drawn)
    if args.png:
        import subprocess
        for where in drawn:
            out = Path(args.png) / (where.stem + ".png")
            subprocess.run(["rsvg-convert", "-o", str(out), str(where)], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
