"""The figures' one look: a palette, two font families, a fixed width, and `Canvas`, a drawsvg
Drawing on a white card with the course's shapes as methods (boxes, arrows, diamonds, message
chips in shape notation). Every figure draws only through these, so all of them share one
palette, one sans-serif family for words and one monospace family for code and shapes, on a
card that stays legible on a dark theme.

Each element carries its role as its class, for a reader that checks the layout in a real
renderer (tests/browser/test_figures_laid_out.py) and must not take positions from here: "card"
(the background), "shape" (what a text may sit in and an arrow may end at), "lane" (a line an
arrow may end at: a lifeline, a cut), "line", "arrow" (a group of a line and its head; "arrow
axis" when it points along a scale, at nothing), "strike" (a line drawn through something on
purpose)."""
from __future__ import annotations

import math

import drawsvg as dw

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
        self.d.append(dw.Rectangle(0, 0, WIDTH, height, fill=PAPER, rx=8, class_="card"))

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
        args = {"stroke": stroke, "fill": fill, "stroke_width": width, "rx": rx,
                "class_": "shape"}
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
                          close=True, stroke=stroke, fill=fill, stroke_width=width,
                          class_="shape"))
        lines = wrap(label, w * 0.62, size)
        leading = round(size * 1.25)
        top = cy - (len(lines) - 1) * leading / 2 + size * 0.35
        self.lines(cx, top, lines, size=size, leading=leading, colour=colour, anchor="middle")

    def line(self, *points, colour=LINE, width=1.5, dash=None, role="line", into=None):
        """A polyline; `role` "lane" for a lifeline that arrows end at, "strike" for a line
        drawn through something on purpose."""
        args = {"stroke": colour, "stroke_width": width, "fill": "none", "class_": role}
        if dash:
            args["stroke_dasharray"] = dash
        element = dw.Lines(*[c for p in points for c in p], **args)
        (into or self.d).append(element)
        return element

    def shape(self, *points, stroke=INK, fill=PANEL, width=1.2):
        """A closed polygon through `points`, a shape like any box."""
        return self.add(dw.Lines(*[c for p in points for c in p], close=True, stroke=stroke,
                                 fill=fill, stroke_width=width, class_="shape"))

    def head(self, tip, towards, *, colour=LINE, size=8, into=None):
        """An arrowhead at `tip`, pointing away from `towards`."""
        (x, y), (fx, fy) = tip, towards
        angle = math.atan2(y - fy, x - fx)
        left = (x - size * math.cos(angle - 0.45), y - size * math.sin(angle - 0.45))
        right = (x - size * math.cos(angle + 0.45), y - size * math.sin(angle + 0.45))
        (into or self.d).append(dw.Lines(x, y, *_r(left), *_r(right), close=True, fill=colour,
                                         stroke="none", class_="head"))

    def arrow(self, *points, colour=LINE, width=1.5, dash=None, head=True, axis=False):
        """A polyline from the first point to the last, with an arrowhead at the last; `axis`
        when it points along a scale rather than at something."""
        group = self.add(dw.Group(class_=("arrow axis" if axis else "arrow") if head else "line"))
        self.line(*points, colour=colour, width=width, dash=dash, into=group)
        if head:
            self.head(points[-1], points[-2], colour=colour, size=6 + 1.5 * width, into=group)

    def curve(self, start, control, end, *, colour=LINE, width=1.5, dash=None, head=True):
        """A quadratic curve from start to end, bent towards control, arrowhead at the end."""
        args = {"stroke": colour, "stroke_width": width, "fill": "none", "class_": "line"}
        if dash:
            args["stroke_dasharray"] = dash
        group = self.add(dw.Group(class_="arrow" if head else "line"))
        group.append(dw.Path(**args).M(*start).Q(*control, *end))
        if head:
            self.head(end, control, colour=colour, size=6 + 1.5 * width, into=group)

    def clearing(self, x, y, w, h):
        """A patch of paper with no outline, drawn over the lines behind a label so that none
        runs through its words; it holds the label as a box would."""
        return self.box(x, y, w, h, stroke="none", fill=PAPER, rx=2, width=0)

    def strike(self, x1, y1, x2, y2, *, colour=MUTED, width=2):
        """The line through something that must not be built."""
        self.line((x1, y1), (x2, y2), colour=colour, width=width, role="strike")

    def cross(self, cx, cy, r=6, *, colour=MUTED, width=2):
        self.strike(cx - r, cy - r, cx + r, cy + r, colour=colour, width=width)
        self.strike(cx - r, cy + r, cx + r, cy - r, colour=colour, width=width)

    def circle(self, cx, cy, r, *, stroke=INK, fill=PAPER, width=1.5):
        return self.add(dw.Circle(cx, cy, r, stroke=stroke, fill=fill, stroke_width=width,
                                  class_="shape"))

    def bolt(self, x, y, *, scale=1.0, colour=ACCENT):
        """A lightning bolt whose top is at (x, y): a power cut, a hard cancel."""
        pts = [(6, 0), (0, 14), (5, 14), (1, 26), (12, 9), (7, 9), (11, 0)]
        self.add(dw.Lines(*[c for px, py in pts for c in _r((x + px * scale, y + py * scale))],
                          close=True, fill=colour, stroke="none", class_="shape"))

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

    def result_card(self, x, y, w, lines, *, is_error, token="R(c1)", colour=INK):
        """A result as the model will read it: its chip, is_error, and its content. Returns
        its height."""
        h = 30 + 15 * len(lines)
        self.box(x, y, w, h, fill=PAPER, rx=4, stroke=colour, width=1.4)
        self.chip(x + 8, y + 6, token, h=20)
        self.text(x + 68, y + 20, f"is_error {is_error}", size=10.5, mono=True,
                  colour=ACCENT if is_error else INK, bold=is_error)
        self.lines(x + 10, y + 42, lines, size=11, mono=True, leading=15)
        return h


def _r(point):
    return (round(point[0], 1), round(point[1], 1))
