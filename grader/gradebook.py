"""`python -m grader export`: a graded lab's scores as a file a school's gradebook imports.

Read from a grading run's output folder: grades.json (the scores, written by grader/report.py)
and, when `grade --roster` was given, roster.json (the school's ids, grader/roster.py). Without
a roster a student is known only by their submission's name, which a gradebook matches only if
the school named the submissions by login.

The layouts, as each system documents its import:

- canvas: Canvas's Gradebook CSV import ("How do I import grades in the Gradebook?", Canvas
  Instructor Guide, community.canvaslms.com; the columns are those of the Gradebook's own
  export). Columns Student, ID, SIS User ID, SIS Login ID, Section, then one column per
  assignment; a second row "Points Possible" gives the assignment's maximum. Canvas matches a
  row by ID (its own, which the grader cannot know, so left empty), SIS User ID or SIS Login ID,
  and makes a new assignment of a column it does not know.
- moodle: Moodle's "Import grades from CSV" (docs.moodle.org/en/Grade_import; the gradeimport_csv
  plugin, grade/import/csv/). Any header row; on import the teacher maps one column to
  "Identify user by" (ID number, email address or username) and each grade column to a grade
  item. The file gives ID number, Email address and Username columns for that mapping and one
  grade column named for the lab.
- csv: a plain table for anything else: student, id, email, score, max, verdict.

A student on the roster with no submission gets an empty cell, not 0: the gradebook keeps what
it had, and the instructor decides. So does a submission the grader itself failed on.
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from grader import roster as rosters
from grader.errors import GraderError

FORMATS = ("canvas", "moodle", "csv")


def _rows(grades: dict, students: list[rosters.Student] | None) -> list[tuple]:
    """(roster student or None, submission name or None, score or None, verdict) per line, in
    the roster's order with the submissions no one matches after; without a roster, by name."""
    subs = {r["student"]: r for r in grades["submissions"]}
    score = lambda r: None if r["verdict"] == "grader error" else r["score"]  # noqa: E731
    if students is None:
        return [(None, name, score(r), r["verdict"]) for name, r in sorted(subs.items())]
    matched = rosters.match(students, sorted(subs))
    by_student = {student: name for name, student in matched.found.items()}
    lines = []
    for student in students:
        name = by_student.get(student)
        r = subs.get(name)
        lines.append((student, name, score(r) if r else None,
                      r["verdict"] if r else "not submitted"))
    lines += [(None, name, score(subs[name]), subs[name]["verdict"]) for name in matched.unknown]
    return lines


def _number(value) -> str:
    return "" if value is None else f"{value:g}"


def column(grades: dict) -> str:
    """The gradebook column (assignment, grade item) a lab's scores go in."""
    return f"Lab {grades['lab']}: {grades['title']}"


def render(grades: dict, fmt: str, students: list[rosters.Student] | None = None) -> str:
    """The gradebook file's text for `grades` (grades.json's data) in the format `fmt`."""
    if fmt not in FORMATS:
        raise GraderError(f"no gradebook format {fmt!r}; the formats are {', '.join(FORMATS)}")
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    lines = _rows(grades, students)
    who = lambda student, name: student.who if student else name  # noqa: E731
    if fmt == "canvas":
        writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                         column(grades)])
        writer.writerow(["Points Possible", "", "", "", "", _number(grades["max"])])
        for student, name, score, _ in lines:
            writer.writerow([who(student, name), "", student.id if student else "",
                             name or "", "", _number(score)])
    elif fmt == "moodle":
        writer.writerow(["ID number", "Email address", "Username", column(grades)])
        for student, name, score, _ in lines:
            writer.writerow([student.id if student else "", student.email if student else "",
                             name or who(student, name), _number(score)])
    else:
        writer.writerow(["student", "id", "email", "score", "max", "verdict"])
        for student, name, score, verdict in lines:
            writer.writerow([who(student, name), student.id if student else "",
                             student.email if student else "", _number(score),
                             _number(grades["max"]), verdict])
    return text.getvalue()


def export(grades_dir: Path, fmt: str, out: Path, roster: Path | None = None) -> Path:
    """Write the gradebook file for the grading run in `grades_dir` to `out`; the roster is
    `roster` when given, else the one `grade --roster` kept there, if any."""
    source = Path(grades_dir) / "grades.json"
    if not source.is_file():
        raise GraderError(f"{grades_dir} holds no grades.json: give the --out folder of a "
                          "`python -m grader grade` run")
    grades = json.loads(source.read_text(encoding="utf-8"))
    students = rosters.read(roster) if roster else rosters.kept(grades_dir)
    out = Path(out)
    out.write_text(render(grades, fmt, students), encoding="utf-8")
    return out
