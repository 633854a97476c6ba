"""What a user got wrong, as types: the only exceptions the kit's commands turn into one line.

A student, an instructor or an author who asks for something that cannot be done (a lab that
does not exist, a folder that is not a lab's, a file that is missing) gets one line that says
how to fix it and an exit code of 2. Anything else that escapes a command is the kit's own
fault, and keeps its traceback, so that it is reported rather than mistaken for a typo. So each
front door (`lab_check.py`, `course`, `python -m grader`, the authoring tools) catches
`UserError` and nothing broader.

These live in the engine because every layer above it raises them; they import only the
engine's records of why (lab/check/problems.py) and those records' words
(lab/check/words_errors.py), which import nothing else of the kit. The engine's own (`Stated`)
carry a `Problem` and are worded only when shown: whoever needs to know why (the grader, naming
an unknown lab in its own refusal) reads the record, never the sentence.
"""
from __future__ import annotations

from typing import Generic, TypeVar

from lab.check import words_errors
from lab.check.problems import CannotBlind, Problem


class UserError(Exception):
    """Something a user asked for cannot be done as asked; the message says what to do."""

    def __str__(self) -> str:
        # KeyError's own str() quotes its message; a user reads the sentence itself.
        return str(self.args[0]) if self.args else ""


F = TypeVar("F")


class Worded(Exception, Generic[F]):
    """An exception that carries a record, `fact`, the values that say why, and is worded only
    when shown, by the words module of the layer that raised it (`worded`): the one way the
    kit's exceptions say why, so that a caller that needs to know reads `fact`, never the
    message. The engine's are `Stated`; the desk's CourseError and the grader's Refused are
    the others."""

    def __init__(self, fact: F) -> None:
        super().__init__(fact)
        self.fact = fact

    def __str__(self) -> str:
        return self.worded()

    def worded(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} has no words")


class Stated(Worded[Problem], UserError):
    """A UserError of the engine's: its Problem is worded by lab/check/words_errors.py."""

    def worded(self) -> str:
        return words_errors.said(self.fact)


class UnknownLab(Stated, KeyError):
    """There is no such lab or lesson in this kit (NoSuchLab, NoSuchLesson). Also a KeyError: a
    lookup that missed."""


class NothingToCheck(Stated):
    """A check was asked for, but there is no harness or tests file to run, or the tests file
    names no lab of this kit: no test could run (the checker's exit code 2)."""


class Unblindable(Stated):
    """A test reaches a check in a way blind() cannot take the wanted value out of
    (CannotBlind), so its file would carry what the checks compare against into the student's
    process."""

    def __init__(self, fact: CannotBlind) -> None:
        super().__init__(fact)
        self.fact: CannotBlind = fact
