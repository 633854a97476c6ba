"""Why the engine cannot do what a user asked, as records of values: a lab or lesson this kit
does not have, nothing to check, a test the checker cannot blind. Each is carried by a
UserError of lab/check/errors.py and worded only by lab/check/words_errors.py. Nothing here is
a sentence, and this module imports nothing of the kit, so every layer can make one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Problem:
    """One reason the engine cannot do what was asked, as values."""


@dataclass(frozen=True)
class NoSuchLab(Problem):
    lab_id: str
    known: tuple[str, ...]  # the built labs' ids, in the course's order


@dataclass(frozen=True)
class NoSuchLesson(Problem):
    number: int


@dataclass(frozen=True)
class NoLabLine(Problem):
    """A tests file with no `LAB = "NN.K"` line, checked with no lesson to say its lab."""
    path: str


@dataclass(frozen=True)
class OtherLesson(Problem):
    file: str  # the tests file's name
    lab_id: str  # the lab its LAB line names
    lesson: int  # the lesson asked for


@dataclass(frozen=True)
class KitLacksTests(Problem):
    lab: str  # the lab's name, "lab 5.1"
    file: str  # its tests file's name


@dataclass(frozen=True)
class NoFile(Problem):
    """No harness file, or no tests file, where the check was pointed."""
    what: Literal["harness", "tests"]
    path: str
    start: str  # the command that makes a lab's folder, as this place spells it


@dataclass(frozen=True)
class NamesNoLab(Problem):
    path: str


# How a test reaches a check in a way blind() cannot take the wanted value out of.
Reach = Literal["starred", "receiver", "uncalled", "class", "imports class", "by name"]


@dataclass(frozen=True)
class CannotBlind(Problem):
    file: str  # the tests file's name
    function: str | None  # the enclosing function, None at the file's top level
    line: int | None
    reach: Reach
    method: str  # the method of the test's checks it names ("expect"), or "Checks"
