"""Every figure tools/figures/ draws (lesson 16's too, once registered), laid out as headless
Chromium renders it: no text on another, none over a shape's edge or off the card, no line
through a text, and no arrow that ends away from every shape (tests/browser/figure_layout.py
says how each is read from the page). The checker itself is held to fail for figures drawn
wrong on purpose, one fault each, and to pass their mended twins. One browser and one page,
every figure set into it in turn; nothing is fetched (the page reaches for no address, and any
it did would be refused and fail the test).

    .venv/bin/python -m pytest -m browser tests/browser/test_figures_laid_out.py
"""
from __future__ import annotations

import pytest

from lab.check import manifest
from tests.browser.figure_layout import described, faults
from tests.browser.page import fresh_page, launched, reached_only_here
from tools.figures import registry
from tools.figures.canvas import Canvas

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    outside: list[str] = []
    with launched() as browser, fresh_page(browser, outside, tmp_path_factory.mktemp("shots"),
                                           "figures-laid-out.png") as opened:
        yield opened
    reached_only_here(outside, "the figures' page")


@pytest.fixture(scope="module")
def drawn():
    """Every figure as committed, which tests/authoring/test_figures.py holds to be exactly
    what its code draws now (drawing them here would run references inside Playwright's loop)."""
    return {number: registry.path(number).read_text(encoding="utf-8")
            for number in registry.FIGURES}


def test_every_figure_is_laid_out_clear_in_a_real_renderer(page, drawn):
    assert len(drawn) >= 16, sorted(drawn, key=manifest.key)
    wrong = [described(number, found) for number, svg in
             sorted(drawn.items(), key=lambda kv: manifest.key(kv[0]))
             if (found := faults(page, svg))]
    assert wrong == [], "\n".join(wrong)


def figure(fault: str | None) -> str:
    """A small figure with one labelled box, an arrow into it and a note beside it, an arrow
    that ends on a lane, one that passes behind a chip and a scale's arrow, drawn with `fault`
    ("overlap", "edge", "boxes", "through", "nowhere", "off") or clean."""
    c = Canvas(160, "Figure 0.0: a test of the layout check.")
    c.box(300, 40, 180 if fault != "edge" else 90, 40, fill="#ffffff")
    c.text(310, 64, "a label that needs room")
    c.arrow((120, 60), (298, 60) if fault != "nowhere" else (240, 60))
    c.text(40, 64, "a note")
    c.line((700, 20), (700, 140), role="lane")
    c.arrow((500, 120), (698, 120))
    c.chip(560, 109, "A[c1]")  # painted over the arrow: its line is hidden behind the chip
    c.arrow((780, 20), (780, 140), axis=True)
    if fault == "overlap":
        c.text(60, 66, "another note")
    if fault == "through":
        c.arrow((60, 20), (60, 100), (298, 100), (340, 82))
    if fault == "boxes":
        c.box(440, 70, 60, 30)
    if fault == "off":
        c.text(800, 140, "words past the right edge")
    return c.svg()


def test_a_clean_small_figure_has_no_faults(page):
    assert faults(page, figure(None)) == []


@pytest.mark.parametrize("fault, said", [
    ("overlap", '"a note" overlaps "another note"'),
    ("edge", '"a label that needs room" runs over the edge of the box at (300, 40)'),
    ("boxes", 'the box at (300, 40) holding "a label that needs room" overlaps the box at '
              '(440, 70)'),
    ("through", 'an arrow from (60, 20) runs through "a note"'),
    ("nowhere", "the arrow from (120, 60) ends at (240, 60), away from every shape"),
    ("off", '"words past the right edge" runs off the card'),
])
def test_a_figure_drawn_wrong_on_purpose_is_caught(page, fault, said):
    found = faults(page, figure(fault))
    assert any(line.startswith(said) for line in found), found
