"""What a copy of the course that grades one plan holds of it: the lab/ package, the lessons up
to the graded lab's, and the tests and expected values of the labs whose tests the plan runs.

The Gradescope bundle and the GitHub Classroom workflow both grade with such a copy, and a
submission can read what the copy holds (in Gradescope's container, where the sandbox may run
without a private view, and in a student's own repository). Taking both from here keeps a later
lab's tests out of each: a submission graded for lab 5.1 finds nothing of lab 6.1 to echo back.
"""
from __future__ import annotations

from pathlib import Path

from lab.check import manifest

from grader.plan import Plan


def package(kit: Path, folder: str = "lab") -> list[Path]:
    """Every file of the kit's `folder` package, without Python's caches, in a fixed order."""
    return sorted(path for path in (kit / folder).rglob("*")
                  if path.is_file() and "__pycache__" not in path.parts
                  and path.suffix != ".pyc")


def lessons(plan: Plan) -> list[Path]:
    """The lesson.toml of each lesson up to the graded lab's: the checker reads its labs' ids,
    titles and names there. A later lesson's is left out, as a week's release leaves it out."""
    last = manifest.lab(plan.lab).lesson.number
    return [lesson.folder / "lesson.toml" for lesson in manifest.lessons()
            if lesson.number <= last]


def tests(plan: Plan) -> list[Path]:
    """The tests.py and expected.json of each lab whose tests the plan runs, in course order:
    the graded lab's and, unless it grades its own lab only, every earlier lab's."""
    found = []
    for test_file in plan.kit_files():
        lab = test_file.lab
        found += [path for path in (lab.tests, lab.expected) if path.is_file()]
    return found
