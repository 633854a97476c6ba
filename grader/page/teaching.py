"""Where the course teaches a rule: the lesson section a lab is built in, and the catalogue's
wrong designs a class's failures look like.

Sections: a lesson has one "## Build: ..." heading per lab, in the order of its labs (the
lessons' source keeps them so), and the link points at the lab's in the committed
lessons/NN-slug/lesson.ipynb. The anchor is the heading's text with each space made a hyphen,
which is how JupyterLab (its rendered Markdown's header ids) and nbviewer (nbconvert's header
ids) both name a heading, so the link lands in either.

Wrong designs: starters/wrong_designs.json, which `python -m tools.make` writes from the
catalogue (source/wrong_designs/, which neither the grader may import nor a release holds).
Each design's `names` is the words a failing test's sentence or message holds when a lab's
tests catch it (the kit's own test of the catalogue holds every design to that); a failed test
of the same lab whose sentence or class's messages hold them fails the way that design does.
Where the file is missing (a student release) the page shows no designs.
"""
from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path

from lab.check import manifest

DESIGNS = "wrong_designs.json"  # in starters/


@dataclass(frozen=True)
class Section:
    lesson: str  # "Lesson 15: Meeting the real world"
    heading: str  # "Build: ask the run to stop"
    notebook: Path

    def anchor(self) -> str:
        return self.heading.replace(" ", "-")

    def href(self, here: Path) -> str:
        """A link to the section from a page written in the folder `here`: relative, so the
        kit and the grades may move together; absolute where no relative path leads there
        (another drive)."""
        try:
            where = os.path.relpath(self.notebook, here).replace(os.sep, "/")
        except ValueError:
            where = self.notebook.as_uri()
        return f"{where}#{self.anchor()}"


@functools.cache
def _build_headings(notebook: Path) -> tuple[str, ...]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return tuple(line[3:].strip() for cell in cells if cell["cell_type"] == "markdown"
                 for line in "".join(cell["source"]).splitlines()
                 if line.startswith("## Build"))


def section(lab_id: str | None) -> Section | None:
    """The section that builds lab `lab_id`, or None (an instructor's hidden test, or a
    lesson whose notebook is not there)."""
    if lab_id is None:
        return None
    try:
        lab = manifest.lab(lab_id)
    except KeyError:
        return None
    lesson = lab.lesson
    if not lesson.notebook.is_file():
        return None
    headings = _build_headings(lesson.notebook)
    at = list(lesson.labs).index(lab)
    if at >= len(headings):
        return None
    return Section(f"Lesson {lesson.number}: {lesson.title}", headings[at], lesson.notebook)


@functools.cache
def designs() -> tuple[dict, ...]:
    """The catalogue's designs as tools/make.py wrote them, or none where it is not there."""
    path = manifest.STARTERS / DESIGNS
    if not path.is_file():
        return ()
    return tuple(json.loads(path.read_text(encoding="utf-8")))


def designs_like(lab_id: str | None, says: str, messages: list[str]) -> list[dict]:
    """The wrong designs of lab `lab_id` whose telltale words the test's sentence or one of
    the class's failure messages holds."""
    if lab_id is None:
        return []
    text = "\n".join([says, *messages]).lower()
    return [d for d in designs() if d["lab"] == lab_id and d["names"].lower() in text]
