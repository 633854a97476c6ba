"""The site's drive as the browser's page shows it (tools/site.py): the kit's files, or a
release's, made for a computer, rewritten in the site's own copy for a page that has no
terminal and reads notebooks as they are stored. The files on a computer stay as they are.

- Each lesson notebook's Markdown cells become those of the notebook built for the page
  (grader/lesson_notebooks.build with page=True), whose how-to-check text names a cell's
  `course.check("15.1")`; its code cells, and the recorded outputs a release gave them, stay.
- Each starter's header says to check in a cell (tools/labsource.header with page=True), and
  the changes.diff beside it is the diff to that starter, so the two still agree; the line of
  a lab's tests.py that gives the command says the cell's call (the checker compares a lab
  folder's tests.py with the drive's copy, which is this one).
- Every notebook is written with each text one string. nbformat stores a text of several lines
  as a list of lines, which JupyterLab's server joins as it reads; JupyterLite reads the file
  as it is, and shows an output stored so with its lines joined by commas.
"""
from __future__ import annotations

from pathlib import Path

import nbformat

from grader import lesson_notebooks
from lab.check import manifest, spoken
from lab.desk.labfolder import check_command
from tools import labsource, make

STARTERS = (("starter", "harness.py"), ("guided", "harness.guided.py"))


def reword(files: Path) -> None:
    """Rewrite, in the drive `files` (the site's files/ folder), every lesson notebook and every
    starter it holds for the page."""
    lessons = {lesson.folder.name: lesson for lesson in manifest.lessons()}
    for folder in sorted((files / "lessons").iterdir()):
        if (folder / "lesson.ipynb").is_file():
            notebook(folder / "lesson.ipynb", lessons.get(folder.name))
    order = list(manifest.labs())
    for lab in manifest.labs(built_only=True):
        if (files / "starters" / lab.folder).is_dir():
            previous = order[order.index(lab) - 1] if order.index(lab) else None
            starters(files / "starters" / lab.folder, lab, previous)


def notebook(path: Path, lesson: manifest.Lesson | None) -> None:
    """Rewrite the notebook at `path`: the Markdown of `lesson`'s notebook built for the page
    (when the kit holds its source), and every text one string."""
    drive = nbformat.read(path, as_version=4)
    if lesson is not None and lesson.source.is_file():
        page = lesson_notebooks.build(lesson, page=True)
        if [(c.id, c.cell_type) for c in drive.cells] != \
                [(c.id, c.cell_type) for c in page.cells]:
            raise RuntimeError(f"{path} does not hold the cells lesson_notebooks.build makes of "
                               f"{lesson.source}: build the kit's notebooks (tools/make.py)")
        for mine, built in zip(drive.cells, page.cells):
            if mine.cell_type == "markdown":
                mine.source = built.source
    nbformat.validate(drive)
    path.write_text(nbformat.writes(drive, split_lines=False) + "\n", encoding="utf-8")


def starters(folder: Path, lab: manifest.Lab, previous: manifest.Lab | None) -> None:
    """Rewrite the starters of `lab` in its drive `folder` with the page's header, its
    changes.diff as the diff from `previous`'s reference to the page's standard starter, and
    the line of its tests.py that says how to check."""
    for mode, name in STARTERS:
        path = folder / name
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        computer = labsource.header(lab, mode)
        if not text.startswith(computer):
            raise RuntimeError(f"{path} does not start with the header tools/labsource.py "
                               "writes: make the kit's starters (tools/make.py)")
        path.write_text(labsource.header(lab, mode, page=True) + text[len(computer):],
                        encoding="utf-8")
    diff = folder / "changes.diff"
    if diff.is_file() and previous is not None:
        diff.write_text(make.changes(previous, previous.solution.read_text(encoding="utf-8"), lab,
                                     (folder / "harness.py").read_text(encoding="utf-8")),
                        encoding="utf-8")
    tests = folder / "tests.py"
    if tests.is_file():
        tests.write_text(tests.read_text(encoding="utf-8").replace(
            f"Check your file with: {check_command(lab.id)}\n",
            f"Check your file in a cell: {spoken.in_cell('check', lab.id)}\n"), encoding="utf-8")
