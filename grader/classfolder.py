"""A class folder (`grade --out`): every lab graded into it, each lab's files apart.

    OUT/.seed, roster.json, weeks.json   the class's: one seed, one roster, each lab's scores
    OUT/report.html                      every lab graded here, each linked to its own page
    OUT/lab-5.1/                         lab 5.1's grades.csv, tests.csv, grades.json,
                                         feedback/, instructor/, journal.jsonl, last_run.json,
                                         report.html
    OUT/lab-6.1/                         the same for 6.1, never mixed with 5.1's

A lab's folder is what a whole output folder held before a folder could hold several labs, so
each lab's reports, journal and re-run summary are written and read as they always were, only
one level down. A folder written before that (grades.json at its top) is moved into its lab's
folder the next time a lab is graded into it, and `export` still reads it where it is.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from lab.check import manifest

from grader import words_terminal as said
from grader.errors import GraderError
from grader.refusals import (LabNotGraded, LabTwice, NoGradedLab, NotALab, StrayGrades,
                              WhichLab)

PREFIX = "lab-"
ALL = "all"  # `export --lab all`
# What one lab's grading run writes, at the top of a folder of the layout before this one.
ONE_LABS_FILES = ("grades.csv", "tests.csv", "grades.json", "feedback", "instructor",
                  "journal.jsonl", "last_run.json", "report.html")


def lab_folder(out: Path, lab_id: str) -> Path:
    """Where lab `lab_id`'s files are in the class folder `out`."""
    return Path(out) / f"{PREFIX}{lab_id}"


def graded_labs(out: Path) -> list[str]:
    """The labs graded into `out` (a lab folder holding grades.json), in course order."""
    found = [p.name[len(PREFIX):] for p in Path(out).glob(f"{PREFIX}*")
             if (p / "grades.json").is_file()]
    return sorted(found, key=order)


def order(lab_id: str) -> tuple:
    """A lab's place in course order; a lab the kit does not know goes last."""
    try:
        return manifest.key(lab_id)
    except (KeyError, ValueError):
        return (10 ** 6, 0)


def migrate(out: Path) -> str | None:
    """Move a folder of the one-lab layout (grades.json at its top) into its lab's folder and
    say so in a line; None when there was nothing to move."""
    out = Path(out)
    old = out / "grades.json"
    if not old.is_file():
        return None
    try:
        lab_id = json.loads(old.read_text(encoding="utf-8"))["lab"]
        manifest.lab(lab_id)
    except (ValueError, KeyError, TypeError) as problem:
        raise GraderError(StrayGrades(old, str(problem))) from None
    target = lab_folder(out, lab_id)
    if (target / "grades.json").exists():
        raise GraderError(LabTwice(out, lab_id, target))
    target.mkdir(mode=0o700, exist_ok=True)
    moved = []
    for name in ONE_LABS_FILES:
        if (out / name).exists():
            (out / name).rename(target / name)
            moved.append(name)
    return said.moved(lab_id, str(out), str(target), moved)


def chosen(out: Path, lab: str | None) -> list[tuple[str, Path]]:
    """[(lab id, the folder holding its grades.json)] for `export --lab LAB`: the lab named,
    every lab for "all", or the only one when `lab` is None. A folder of the one-lab layout
    is read where it is. Raises GraderError for a lab not graded there, or for no --lab in a
    folder of several."""
    out = Path(out)
    labs = [(lab_id, lab_folder(out, lab_id)) for lab_id in graded_labs(out)]
    if (out / "grades.json").is_file():
        data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
        labs.append((str(data.get("lab")), out))
    if not labs:
        raise GraderError(NoGradedLab(out))
    names = tuple(lab_id for lab_id, _ in labs)
    if lab == ALL:
        return labs
    if lab is None:
        if len(labs) > 1:
            raise GraderError(WhichLab(out, names, ALL))
        return labs
    if not re.fullmatch(r"\d+\.\d+", lab):
        raise GraderError(NotALab(lab, ALL))
    picked = [(lab_id, where) for lab_id, where in labs if lab_id == lab]
    if not picked:
        raise GraderError(LabNotGraded(lab, out, names))
    return picked
