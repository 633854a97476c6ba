"""The school's class list (`--roster roster.csv`), and which submission is whose.

A roster is a CSV export with a header row naming, in any order and any case, a column for
who the student is (name, login, username, user or student), one for their id in the school's
system (id, student id, sis user id, id number or idnumber) and one for their email; only the
first is needed. A submission's name (its file or folder) matches a student when it equals,
ignoring case, their login or name, their id, their email, or the part of their email before
the @: schools name submission folders by any of these, and the grader knows only the folder.
A match that is not the only one possible is refused and said (`match`), never guessed.

`grade --roster` keeps the roster it matched as roster.json in the output folder, beside
grades.json, so that `export` finds the ids the gradebooks key on without being given it again.
"""
from __future__ import annotations

import csv
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from grader import words_class as said
from grader.errors import GraderError
from grader.refusals import EmptyRoster, NoRoster, RosterUnnamed

KEPT = "roster.json"  # in a grading run's output folder
HEADINGS = {"who": ("login", "username", "user", "name", "student", "full name"),
            "login": ("login", "username", "user", "sis login id", "login id"),
            "name": ("name", "student", "full name"),
            "id": ("id", "student id", "sis user id", "id number", "idnumber"),
            "email": ("email", "email address", "e-mail")}


@dataclass(frozen=True)
class Student:
    """One line of the roster."""
    who: str
    id: str = ""
    email: str = ""
    name: str = ""  # the roster's name column, when it has one beside a login
    login: str = ""  # the roster's login column, when it has one

    @property
    def shown(self) -> str:
        """The student as a gradebook names them: their name, else who they are."""
        return self.name or self.who

    def names(self) -> set[str]:
        """Every name a submission of theirs may carry, lower-cased."""
        found = {self.who, self.id, self.email, self.email.split("@")[0], self.login}
        return {name.strip().lower() for name in found if name.strip()}


def read(path: Path) -> list[Student]:
    """The students of a roster CSV, in its order. Raises GraderError for a file that is not
    one (no such file, or no column that names the student)."""
    path = Path(path)
    if not path.is_file():
        raise GraderError(NoRoster(path))
    with path.open(newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.reader(handle))
    if not rows:
        raise GraderError(EmptyRoster(path))
    header = [cell.strip().lower() for cell in rows[0]]
    columns = {}
    for heading, words in HEADINGS.items():
        at = next((header.index(word) for word in words if word in header), None)
        if at is not None:
            columns[heading] = at
    if "who" not in columns:
        raise GraderError(RosterUnnamed(path, tuple(HEADINGS["who"])))
    cell = lambda row, field: (row[columns[field]].strip()  # noqa: E731
                               if field in columns and columns[field] < len(row) else "")
    return [Student(cell(row, "who"), cell(row, "id"), cell(row, "email"), cell(row, "name"),
                    cell(row, "login"))
            for row in rows[1:] if any(c.strip() for c in row)]


@dataclass(frozen=True)
class Contested:
    """Why a submission was matched to no one: the students its name fits, when several do;
    else the one it claims and `others`, the other submissions that claim them too."""
    fits: tuple[Student, ...]
    others: tuple[str, ...] = ()


@dataclass
class Match:
    """Who submitted what: {submission name: student}, the students with no submission, the
    submissions no student of the roster matches, and {submission name: why} for those a
    match was refused (each of these is in `unknown` too)."""
    found: dict[str, Student]
    missing: list[Student]
    unknown: list[str]
    refused: dict[str, Contested] = field(default_factory=dict)


def match(students: list[Student], submitted: list[str]) -> Match:
    """Each submission's student, by the names Student.names lists. A match that is not the
    only one possible is refused: a submission that several students' names fit, and every
    submission claiming a student another submission claims too (a file named for a
    classmate's e-mail beside their own folder), is matched to no one, and the student it
    claims is neither matched nor missing, so an export leaves their grade empty and the
    summary says why, rather than letting one file's score stand for another's."""
    fits = {name: [s for s in students if name.strip().lower() in s.names()]
            for name in submitted}
    claims: dict[Student, list[str]] = {}
    for name, who in fits.items():
        for student in who:
            claims.setdefault(student, []).append(name)
    refused = {}
    for name, who in fits.items():
        if len(who) > 1:
            refused[name] = Contested(tuple(who))
        elif who and len(claims[who[0]]) > 1:
            refused[name] = Contested((who[0],), tuple(n for n in claims[who[0]] if n != name))
    found = {name: who[0] for name, who in fits.items() if name not in refused and who}
    disputed = {s for name in refused for s in fits[name]}
    taken = set(found.values()) | disputed
    return Match(found, [s for s in students if s not in taken],
                 [name for name in submitted if name not in found], refused)


def keep(out: Path, students: list[Student]) -> Path:
    """Write the roster into a grading run's output folder, readable by its owner alone."""
    path = Path(out) / KEPT
    path.write_text(json.dumps([asdict(s) for s in students], indent=1, ensure_ascii=False)
                    + "\n", encoding="utf-8")
    path.chmod(0o600)
    return path


def kept(out: Path) -> list[Student] | None:
    """The roster a grading run kept in `out`, or None when it was graded without one."""
    path = Path(out) / KEPT
    if not path.is_file():
        return None
    return [Student(**entry) for entry in json.loads(path.read_text(encoding="utf-8"))]


def summary(result: Match) -> str:
    """The terminal's lines on the roster: who has not submitted, and what is not on it."""
    return said.roster(len(result.found), [_label(s) for s in result.missing],
                       {name: ([_label(s) for s in why.fits], why.others)
                        for name, why in result.refused.items()},
                       [name for name in result.unknown if name not in result.refused])


def _label(student: Student) -> str:
    return said.student(student.who, student.id)
