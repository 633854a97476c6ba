"""An instructor's overrides (`grade --overrides FILE`): score changes and comments, per student
and per test, with who made them and when, applied to the grades every time a lab is graded.

The file is a CSV with a header row naming, in any order and any case:

    student   the submission's name, or the student's roster id, login or e-mail (grader/roster.py)
    lab       the lab it is for, e.g. 5.1 (a class folder holds several)
    test      a test's id (as in grades.csv's columns), or empty for the whole submission
    change    "+2" or "-1.5" adds to the points, "=3" sets them; empty for a comment alone
    comment   what the student is told
    by        who made it
    when      when (any text: a date is best)

A test's points stay between 0 and what it is worth; a submission's score between 0 and the
lab's maximum. The journal keeps every row as graded, so an override is applied afresh on each
run and never compounds; removing its line undoes it. The file is kept in the class folder as
overrides.csv, so a re-run without `--overrides` applies the same lines.
"""
from __future__ import annotations

import csv
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

from grader import plan as plans, roster as rosters, words_class as said
from grader.errors import GraderError
from grader.plan import Plan
from grader.refusals import (EmptyOverride, NoOverrides, NoSuchStudent, NoSuchTest, NotAChange,
                              OverridesUnheaded)
from grader.row import Overall, Row

KEPT = "overrides.csv"  # in the class folder
COLUMNS = ("student", "lab", "test", "change", "comment", "by", "when")


@dataclass(frozen=True)
class Override:
    """One line of the file, as it applies to one graded submission."""
    student: str  # the submission's name
    test: str  # "" for the whole submission
    says: str  # the test's sentence, or "" for the whole submission
    change: str  # "+2", "-1", "=3", or ""
    comment: str
    by: str
    when: str
    line: int

    def words(self) -> str:
        """The override in a sentence, for the feedback file, the page and the terminal
        (grader/words_class.py's)."""
        return said.override(self.says if self.test else None, self.change, self.comment,
                             self.by, self.when)


def source(out: Path, path: Path | None) -> Path | None:
    """The overrides file to apply: `path`, else the one an earlier run kept in the class
    folder `out`, else None."""
    if path is not None:
        if not Path(path).is_file():
            raise GraderError(NoOverrides(path))
        return Path(path)
    kept = Path(out) / KEPT
    return kept if kept.is_file() else None


def keep(out: Path, path: Path) -> None:
    """Keep the file at `path`, read without a fault, in the class folder `out`, readable by
    its owner alone, for the runs after this one."""
    kept = Path(out) / KEPT
    if Path(path).resolve() != kept.resolve():
        shutil.copyfile(path, kept)
        kept.chmod(0o600)


def read(path: Path, plan: Plan, students: list[str],
         roster: list[rosters.Student] | None) -> list[Override]:
    """The lines of the overrides file at `path` for the plan's lab, each matched to one of
    the submissions named `students` and to a test of the plan. Raises GraderError, naming
    the line, for a line that names no one, another test, or a change that is not a number."""
    with Path(path).open(newline="", encoding="utf-8-sig") as handle:
        table = list(csv.reader(handle))
    if not table:
        return []
    header = [cell.strip().lower() for cell in table[0]]
    if "student" not in header or "lab" not in header:
        raise GraderError(OverridesUnheaded(path, tuple(COLUMNS)))
    tests = {t.id: t.says for t in plan.tests}
    names = {name.lower(): name for name in students}
    if roster:
        matched = rosters.match(roster, students)
        for name, person in matched.found.items():
            for alias in person.names():
                names.setdefault(alias, name)
    found = []
    for number, cells in enumerate(table[1:], 2):
        cell = lambda column: (cells[header.index(column)].strip()  # noqa: E731
                               if column in header and header.index(column) < len(cells)
                               else "")
        if not any(c.strip() for c in cells) or cell("lab") != plan.lab:
            continue
        student = names.get(cell("student").lower())
        if student is None:
            raise GraderError(NoSuchStudent(path, number, plan.lab, cell("student")))
        test = cell("test")
        if test and test not in tests:
            raise GraderError(NoSuchTest(path, number, plan.lab, test))
        change = cell("change").replace(" ", "")
        if change and not change.startswith(("+", "-", "=")):
            change = "+" + change
        try:
            change and float(change.lstrip("+-="))
        except ValueError:
            raise GraderError(NotAChange(path, number, cell("change"))) from None
        if not change and not cell("comment"):
            raise GraderError(EmptyOverride(path, number))
        found.append(Override(student, test, tests.get(test, ""), change, cell("comment"),
                              cell("by"), cell("when"), number))
    return found


def apply(plan: Plan, rows: list[Row], lines: list[Override]) -> list[Row]:
    """The rows with the overrides made: each test's earned points and each score changed,
    the verdict following the score, and each row's overrides listed in it (Row.overrides)."""
    done = []
    for r in rows:
        mine = [o for o in lines if o.student == r.student]
        if not mine:
            done.append(r)
            continue
        tests = list(r.tests)
        for o in mine:
            if o.test and o.change:
                at = next(i for i, t in enumerate(tests) if t.id == o.test)
                tests[at] = replace(tests[at], earned=_changed(tests[at].earned, o.change,
                                                               tests[at].points))
        score = plans.points(sum(t.earned for t in tests))
        for o in mine:
            if not o.test and o.change:
                score = _changed(score, o.change, r.max)
        verdict = r.verdict
        if not verdict.broken or score > 0:
            verdict = (Overall.FULL_MARKS if score >= r.max else Overall.NO_MARKS
                       if score == 0 else Overall.PARTIAL)
        done.append(replace(r, tests=tests, score=score, verdict=verdict,
                            overrides=[o.words() for o in mine]))
    return done


def _changed(value: float, change: str, top: float) -> float:
    amount = float(change[1:])
    new = amount if change[0] == "=" else value + (amount if change[0] == "+" else -amount)
    return min(max(new, 0.0), top)

