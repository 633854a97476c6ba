"""What a student got wrong at the desk, as types: each is a UserError (lab/check/errors.py), so
the `course` command prints its message in one line and exits 2, and a notebook cell shows it
as the sentence it is. Each carries a record of lab/desk/problems.py, worded only when shown by
lab/desk/words_errors.py."""
from __future__ import annotations

from lab.check.errors import UserError, Worded
from lab.desk import words_errors
from lab.desk.problems import DeskProblem


class CourseError(Worded[DeskProblem], UserError):
    """A problem the student can fix; its words say how. The CLI prints it without a
    traceback."""

    def worded(self) -> str:
        return words_errors.said(self.fact)


class NotStarted(CourseError, FileNotFoundError):
    """The lab has no harness.py in the work folder yet."""


class NoReference(CourseError, FileNotFoundError):
    """This copy of the course does not include the reference solution a cell asks for."""
