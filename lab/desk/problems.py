"""Why the desk cannot do what a student asked, as records of values: a lab not built yet, a
file missing from this copy of the course, a folder in the way, a harness `course chat` cannot
run. Each is carried by a CourseError (lab/desk/errors.py) and worded only by
lab/desk/words_errors.py; nothing here is a sentence.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class DeskProblem:
    """One reason the desk stops before doing what was asked."""


# --- starting and checking a lab (lab/desk/labs.py, checking.py, labfolder.py, cells.py) ----

@dataclass(frozen=True)
class NotBuiltYet(DeskProblem):
    lab: str  # the lab's name, "lab 5.1"


@dataclass(frozen=True)
class CopyLacks(DeskProblem):
    """This copy of the course lacks a file of a lab's (a release stripped of it, a bad copy)."""
    what: Literal["starter", "tests", "guided starter"]
    lab: str
    file: str


@dataclass(frozen=True)
class FirstLab(DeskProblem):
    """--mine asked of the first lab, which has no lab before it."""
    lab: str


@dataclass(frozen=True)
class EarlierNotPassed(DeskProblem):
    """--mine asked while the student's file of the lab before has not passed its check."""
    earlier: str  # that lab's id
    check: str  # the command that checks it, as this place spells it


@dataclass(frozen=True)
class NotStartedYet(DeskProblem):
    lab: str
    start: str  # the command that starts it, as this place spells it


@dataclass(frozen=True)
class CellNotStarted(DeskProblem):
    """A cell runs the student's file of a lab they have not started."""
    lab_id: str
    lab: str
    start: str  # the call that starts it, as a cell spells it
    later: str | None  # a later lab the student did start, whose starter held this lab's code


@dataclass(frozen=True)
class NoReferenceHere(DeskProblem):
    """A cell runs on a lab's reference, which this copy of the course does not hold."""
    lab: str


@dataclass(frozen=True)
class FolderInTheWay(DeskProblem):
    """Something other than the course's own folder stands where it makes a lab's folder."""
    path: str


@dataclass(frozen=True)
class StateNotJSON(DeskProblem):
    """A file the desk keeps its state in is no longer valid JSON."""
    path: str


@dataclass(frozen=True)
class NotAQuestionKey(DeskProblem):
    key: str


# --- course chat (lab/desk/chat.py) -------------------------------------------------------------

@dataclass(frozen=True)
class NoHarnessFile(DeskProblem):
    path: str


@dataclass(frozen=True)
class DoesNotImport(DeskProblem):
    path: str
    error: str  # the exception's type, as Python names it
    said: str  # its message: the student's file's own words


@dataclass(frozen=True)
class Unfinished(DeskProblem):
    path: str
    lacks: tuple[tuple[str, str | None], ...]  # each name missing, and the lab (its name) that adds it
    last: str  # the lab a harness must pass to chat


@dataclass(frozen=True)
class FailsLastLab(DeskProblem):
    path: str
    failed: int
    tests: int
    last: str
    check: str  # the command that shows which fail, as a terminal spells it


@dataclass(frozen=True)
class LogNotResumable(DeskProblem):
    said: str  # the reading's own error text


@dataclass(frozen=True)
class NotAFolder(DeskProblem):
    option: str  # "--workdir"
    path: str
