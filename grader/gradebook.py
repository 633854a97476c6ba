"""`python -m grader export`: a graded lab's scores as a file a school's gradebook imports.

Read from a class folder: each lab's grades.json (the scores, written by grader/report.py)
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
- csv: a plain table for anything else: student, id, email, score, max, verdict, lab.

A class folder holds several labs (grader/classfolder.py): `export --lab 5.1` writes that lab's
column alone, `--lab all` one column per lab (csv: a row per student and lab), and no lab is
ever put in another's column.

A student on the roster with no submission gets an empty cell, not 0: the gradebook keeps what
it had, and the instructor decides. So does a submission the grader itself failed on.
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Callable

from grader import cells, classfolder, roster as rosters
from grader.errors import GraderError
from grader.grades import Grades
from grader.refusals import NoFormat
from grader.row import Overall, Row

def _score(r: Row) -> float | None:
    return None if r.verdict is Overall.GRADER_ERROR else r.score


# A gradebook's line: (roster student or None, submission name or None,
# [(score or None, verdict) per lab]).
Line = tuple["rosters.Student | None", "str | None", "list[tuple[float | None, str]]"]


def _rows(labs: list[Grades], students: list[rosters.Student] | None) -> list[Line]:
    """(roster student or None, submission name or None, [(score or None, verdict) per lab])
    per line, in the roster's order with the submissions no one matches after; without a
    roster, by name. A name is one student across labs: the class folder names each
    submission the same way every week."""
    subs = [{r.student: r for r in grades.submissions} for grades in labs]
    names = sorted({name for lab in subs for name in lab})

    def each(name: str | None) -> list[tuple[float | None, str]]:
        return [(_score(lab[name]), str(lab[name].verdict)) if name in lab
                else (None, "not submitted") for lab in subs]
    if students is None:
        return [(None, name, each(name)) for name in names]
    matched = rosters.match(students, names)
    by_student = {student: name for name, student in matched.found.items()}
    lines: list[Line] = [(student, by_student.get(student), each(by_student.get(student)))
                         for student in students]
    lines += [(None, name, each(name)) for name in matched.unknown]
    return lines


def column(grades: Grades) -> str:
    """The gradebook column (assignment, grade item) a lab's scores go in."""
    return f"Lab {grades.lab}: {grades.title}"


def render(grades: Grades | list[Grades], fmt: str,
           students: list[rosters.Student] | None = None) -> str:
    """The gradebook file's text for `grades` (a grades.json, or a list of them, one per
    lab: a column per lab in Canvas and Moodle, a row per student and lab in csv) in the
    format `fmt`, one of FORMATS."""
    if fmt not in FORMATS:
        raise GraderError(NoFormat(fmt, tuple(FORMATS)))
    labs = [grades] if isinstance(grades, Grades) else list(grades)
    text = io.StringIO()
    FORMATS[fmt](cells.writer(text, lineterminator="\n"), labs, _rows(labs, students))
    return text.getvalue()


def _who(student: rosters.Student | None, name: str | None) -> str:
    return student.shown if student else name or ""


def _login(student: rosters.Student | None, name: str | None) -> str:
    """The login the school knows: the roster's, else the submission's name, which schools set
    to the login when they name submissions by it."""
    return (student.login if student else "") or name or ""


def _scores(each: list[tuple[float | None, str]]) -> list[str]:
    return [cells.number(score) for score, _ in each]


def _canvas(writer, labs: list[Grades], lines: list[tuple]) -> None:
    writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                     *map(column, labs)])
    writer.writerow(["Points Possible", "", "", "", "", *(cells.number(g.max) for g in labs)])
    for student, name, each in lines:
        writer.writerow([_who(student, name), "", student.id if student else "",
                         _login(student, name), "", *_scores(each)])


def _moodle(writer, labs: list[Grades], lines: list[tuple]) -> None:
    writer.writerow(["ID number", "Email address", "Username", *map(column, labs)])
    for student, name, each in lines:
        writer.writerow([student.id if student else "", student.email if student else "",
                         _login(student, name) or _who(student, name), *_scores(each)])


def _plain_csv(writer, labs: list[Grades], lines: list[tuple]) -> None:
    writer.writerow(["student", "id", "email", "score", "max", "verdict", "lab"])
    for at, grades in enumerate(labs):
        for student, name, each in lines:
            score, verdict = each[at]
            writer.writerow([_who(student, name), student.id if student else "",
                             student.email if student else "", cells.number(score),
                             cells.number(grades.max), verdict, grades.lab])


# The gradebook formats, by the name `export --format` takes: each writes the file's rows with
# a csv writer, from the labs and the lines _rows makes. A new format is one entry here.
FORMATS: dict[str, Callable[[Any, list[Grades], list[tuple]], None]] = {
    "canvas": _canvas,
    "moodle": _moodle,
    "csv": _plain_csv,
}


def export(grades_dir: Path, fmt: str, out: Path, roster: Path | None = None,
           lab: str | None = None) -> tuple[Path, list[str]]:
    """Write the gradebook file for lab `lab` (or "all", or the only one) graded into the
    class folder `grades_dir` to `out`, and return it with the labs it holds; the roster is
    `roster` when given, else the one `grade --roster` kept there, if any."""
    labs = classfolder.chosen(grades_dir, lab)
    data = [Grades.read(where / "grades.json") for _, where in labs]
    students = rosters.read(roster) if roster else (rosters.kept(grades_dir)
                                                     or rosters.kept(labs[0][1]))
    out = Path(out)
    out.write_text(render(data, fmt, students), encoding="utf-8")
    return out, [lab_id for lab_id, _ in labs]
