"""A figure's layout as a real renderer draws it: the SVG is put inline in a page of headless
Chromium, and every box is read back from the page (getBoundingClientRect, isPointInFill,
isPointInStroke, getPointAtLength), never taken from the drawing code's arithmetic, so what is
judged is what a reader sees in the fonts this machine has.

What counts as a fault, each named with the words involved:
- a text overlaps another text;
- a text runs over the edge of a shape (partly inside it, partly out) or off the card;
- a box overlaps another box without holding it;
- a line or arrow runs through a text where no shape painted over the line hides it (a
  "strike" line is drawn through on purpose);
- an arrow's tip ends away from every shape and lane (an "axis" arrow points along a scale,
  at nothing).
The roles come from each element's class (tools/figures/canvas.py names them); positions only
from the page. Each figure is judged twice: in the fonts its own family names resolve to here,
and with its sans-serif words in DejaVu Sans, the widest family of its stack and the one a
reader without Helvetica, Arial or their metric twins gets."""
from __future__ import annotations

SLACK = 1.0  # px a text's box may overlap a neighbour or an edge: the renderer's rounding
REACH = 4.5  # px an arrow's tip may stop short of the shape it points at

# Runs in the page; returns a list of problems, each a sentence.
CHECK = """([slack, reach]) => {
    const svg = document.querySelector('svg');
    const origin = svg.getBoundingClientRect();
    const boxOf = el => {
        const r = el.getBoundingClientRect();
        return {x1: r.left - origin.left, y1: r.top - origin.top,
                x2: r.right - origin.left, y2: r.bottom - origin.top};
    };
    const local = (el, x, y) => new DOMPoint(x, y).matrixTransform(el.getCTM().inverse());
    const global = (el, p) => new DOMPoint(p.x, p.y).matrixTransform(el.getCTM());
    const near = (x, y) => `(${Math.round(x)}, ${Math.round(y)})`;
    const texts = [...svg.querySelectorAll('text')].map(el => ({el, words: el.textContent.trim(),
                                                                box: boxOf(el)}))
        .filter(t => t.words);
    const shapes = [...svg.querySelectorAll('.shape')];
    const lanes = [...svg.querySelectorAll('.lane')];
    const extent = new Map([...shapes, ...lanes].map(el => [el, boxOf(el)]));
    // only what comes within `by` of a box can touch it: the rest is not asked point by point
    const within = (el, b, by) => {
        const s = extent.get(el);
        return s.x1 - by <= b.x2 && b.x1 <= s.x2 + by && s.y1 - by <= b.y2 && b.y1 <= s.y2 + by;
    };
    const named = el => {
        const b = boxOf(el);
        const inside = texts.find(t => t.box.x1 >= b.x1 - slack && t.box.x2 <= b.x2 + slack &&
                                       t.box.y1 >= b.y1 - slack && t.box.y2 <= b.y2 + slack);
        return `the ${el.tagName === 'rect' ? 'box' : el.tagName === 'circle' ? 'circle' :
                'shape'} at ${near(b.x1, b.y1)}` + (inside ? ` holding "${inside.words}"` : '');
    };
    const problems = [];
    // texts on texts
    for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
            const a = texts[i].box, b = texts[j].box;
            if (Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1) > slack &&
                Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) > slack) {
                problems.push(`"${texts[i].words}" overlaps "${texts[j].words}"`);
            }
        }
    }
    // texts over an edge: some of the points round the text's box inside a shape, some out
    const card = svg.querySelector('.card');
    const cardBox = boxOf(card);
    for (const t of texts) {
        const b = {x1: t.box.x1 + slack, y1: t.box.y1 + slack, x2: t.box.x2 - slack,
                   y2: t.box.y2 - slack};
        if (b.x1 < cardBox.x1 || b.y1 < cardBox.y1 || b.x2 > cardBox.x2 || b.y2 > cardBox.y2) {
            problems.push(`"${t.words}" runs off the card`);
        }
        const round = [];
        const steps = Math.max(2, Math.ceil((b.x2 - b.x1) / 3));
        for (let k = 0; k <= steps; k++) {
            const x = b.x1 + (b.x2 - b.x1) * k / steps;
            round.push([x, b.y1], [x, b.y2], [x, (b.y1 + b.y2) / 2]);
        }
        for (let k = 1; k < 4; k++) {
            const y = b.y1 + (b.y2 - b.y1) * k / 4;
            round.push([b.x1, y], [b.x2, y]);
        }
        for (const s of shapes.filter(s => within(s, b, 0))) {
            const inside = round.map(([x, y]) => s.isPointInFill(local(s, x, y)));
            if (inside.some(v => v) && !inside.every(v => v)) {
                problems.push(`"${t.words}" runs over the edge of ${named(s)}`);
            }
        }
    }
    // boxes on boxes: overlapping, and neither holding the other
    const boxes = shapes.filter(el => el.tagName === 'rect').map(el => ({el, box: boxOf(el)}));
    const holds = (a, b) => a.x1 <= b.x1 + slack && a.y1 <= b.y1 + slack &&
                            a.x2 >= b.x2 - slack && a.y2 >= b.y2 - slack;
    for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i].box, b = boxes[j].box;
            if (Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1) > slack + 1 &&
                Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) > slack + 1 &&
                !holds(a, b) && !holds(b, a)) {
                problems.push(`${named(boxes[i].el)} overlaps ${named(boxes[j].el)}`);
            }
        }
    }
    // lines through texts, unless a filled shape painted after the line covers it there
    const covers = (line, p) => shapes.some(s =>
        (line.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING) &&
        s.getAttribute('fill') !== 'none' && s.isPointInFill(local(s, p.x, p.y)));
    const lines = [...svg.querySelectorAll('.line, .lane')]
        .filter(el => el.tagName !== 'g');
    for (const line of lines) {
        const length = line.getTotalLength();
        const crossed = new Set();
        for (let at = 0; at <= length; at += 1.5) {
            const p = global(line, line.getPointAtLength(at));
            for (const t of texts) {
                const b = t.box, inset = (b.y2 - b.y1) * 0.18;
                if (p.x > b.x1 + slack && p.x < b.x2 - slack && p.y > b.y1 + inset &&
                    p.y < b.y2 - inset && !crossed.has(t) && !covers(line, p)) {
                    crossed.add(t);
                }
            }
        }
        const start = global(line, line.getPointAtLength(0));
        for (const t of crossed) {
            const kind = line.parentElement.classList.contains('arrow') ? 'an arrow' : 'a line';
            problems.push(`${kind} from ${near(start.x, start.y)} runs through "${t.words}"`);
        }
    }
    // arrows that end nowhere
    for (const arrow of svg.querySelectorAll('g.arrow')) {
        const line = arrow.querySelector('.line');
        if (arrow.classList.contains('axis')) continue;
        const tip = global(line, line.getPointAtLength(line.getTotalLength()));
        const start = global(line, line.getPointAtLength(0));
        const around = [[tip.x, tip.y]];
        for (let r = 1.5; r <= reach; r += 1.5) {
            for (let k = 0; k < 16; k++) {
                around.push([tip.x + r * Math.cos(k * Math.PI / 8),
                             tip.y + r * Math.sin(k * Math.PI / 8)]);
            }
        }
        const touches = el => around.some(([x, y]) => {
            const p = local(el, x, y);
            return el.isPointInFill(p) || el.isPointInStroke(p);
        });
        const spot = {x1: tip.x, y1: tip.y, x2: tip.x, y2: tip.y};
        const nearby = [...shapes, ...lanes].filter(el => within(el, spot, reach + 3));
        if (!nearby.some(touches)) {
            problems.push(`the arrow from ${near(start.x, start.y)} ends at ` +
                          `${near(tip.x, tip.y)}, away from every shape`);
        }
    }
    return problems;
}"""


def page_of(svg: str, style: str = "") -> str:
    """A page holding the figure inline at its own size, from its top left corner."""
    body = svg.split("?>", 1)[1] if svg.startswith("<?xml") else svg
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>figure</title>"
            f"<style>{style}</style></head>"
            f"<body style='margin:0;background:#fff'>{body}</body></html>")


# The sans-serif words in the widest family of the stack; monospace words keep theirs.
WIDEST = "svg, svg text:not([font-family]) { font-family: 'DejaVu Sans' !important; }"


def faults(page, svg: str) -> list[str]:
    """What is wrong with the layout of `svg` as `page` renders it, in the fonts as named and
    in the widest; empty when nothing is."""
    found: list[str] = []
    for style, said in (("", ""), (WIDEST, " (in DejaVu Sans)")):
        page.set_content(page_of(svg, style))
        page.evaluate("document.fonts.ready.then(() => true)")
        found += [problem + said for problem in page.evaluate(CHECK, [SLACK, REACH])
                  if problem not in found]
    return found


def described(number: str, found: list[str]) -> str:
    """A failure's lines for one figure."""
    return f"Figure {number}:\n  " + "\n  ".join(found)
