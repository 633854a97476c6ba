"""Every element a figure draws carries its role as its class (tools/figures/canvas.py names
them), because the layout check in Chromium (tests/browser/figure_layout.py) judges shapes,
lanes, lines and arrows by it: an element drawn past the canvas's methods, with no role, would
escape that check unseen."""
import xml.etree.ElementTree as ET

import pytest

from tools.figures import registry

SVG = "{http://www.w3.org/2000/svg}"
ROLES = {"card", "shape", "lane", "line", "strike", "head", "arrow", "axis"}
DRAWN = {"rect", "circle", "ellipse", "path", "line", "polyline", "polygon", "g"}


def unmarked(svg: str) -> list[str]:
    root = ET.fromstring(svg.split("?>", 1)[1])
    return [f"<{tag} {dict(element.attrib)}>" for element in root.iter()
            if (tag := element.tag.removeprefix(SVG)) in DRAWN
            and not set((element.get("class") or "").split()) & ROLES]


@pytest.mark.parametrize("number", sorted(registry.FIGURES))
def test_every_element_of_a_figure_carries_its_role(number):
    svg = registry.path(number).read_text(encoding="utf-8")
    assert unmarked(svg) == [], f"Figure {number} draws elements with no role"


def test_an_element_drawn_past_the_canvas_is_found():
    svg = ('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg">'
           '<rect class="card"/><path d="M0,0 L1,1"/><g class="arrow"><path class="line"/></g>'
           '</svg>')
    assert unmarked(svg) == ["<path {'d': 'M0,0 L1,1'}>"]
