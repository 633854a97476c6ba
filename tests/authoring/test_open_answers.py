"""Open questions keep their model answers behind a click (issue 10, item 5): in every lesson
notebook, a model answer, and the common answers beside it, sit inside a collapsed <details>,
never in plain sight under the cell where the student types their own."""
from __future__ import annotations

import re

import pytest

from lab.check import manifest
from tools import notebooks

WRITTEN = [lesson.number for lesson in notebooks.written()]
HIDDEN = ("A model answer", "Common answers, and what each one misses")
OPENING = re.compile(r"<details(\s[^>]*)?>", re.I)


def outside_a_closed_details(text: str, phrase: str) -> list[int]:
    """Where `phrase` occurs in `text` outside a <details> that starts collapsed (no `open`)."""
    found = []
    for match in re.finditer(re.escape(phrase), text):
        before = text[:match.start()]
        openings = list(OPENING.finditer(before))
        depth = len(openings) - before.lower().count("</details>")
        if depth <= 0 or "open" in (openings[-1].group(1) or "").lower():
            found.append(match.start())
    return found


@pytest.mark.parametrize("number", WRITTEN)
def test_model_answers_and_common_answers_open_only_on_a_click(number):
    lesson = manifest.lesson(number)
    cells = notebooks.build(lesson).cells
    asks = [n for n, cell in enumerate(cells) if cell.cell_type == "code"
            and "course.respond(" in cell.source]
    assert asks, f"lesson {number} asks no open question; this test would check nothing there"
    for n in asks:
        after = next(cell for cell in cells[n + 1:] if cell.cell_type == "markdown")
        assert "<summary>A model answer</summary>" in after.source, (number, after.source[:200])
    for cell in cells:
        if cell.cell_type != "markdown":
            continue
        for phrase in HIDDEN:
            assert not outside_a_closed_details(cell.source, phrase), (number, cell.id, phrase)
        assert "**A model answer.**" not in cell.source


def test_the_check_sees_an_answer_left_in_plain_sight():
    shown = "**A model answer.** Not the loop.\n\n<details><summary>A model answer</summary>\n"
    assert outside_a_closed_details(shown, "A model answer") == [2]
    assert outside_a_closed_details("<details open><summary>A model answer</summary>",
                                    "A model answer") == [23]
