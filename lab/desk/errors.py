"""What a student got wrong at the desk, as types: each is a UserError (lab/check/errors.py), so
the `course` command prints its message in one line and exits 2, and a notebook cell shows it
as the sentence it is."""
from __future__ import annotations

from lab.check.errors import UserError


class CourseError(UserError):
    """A problem the student can fix; its message says how. The CLI prints it without a
    traceback."""


class NotStarted(CourseError, FileNotFoundError):
    """The lab has no harness.py in the work folder yet."""


class NoReference(CourseError, FileNotFoundError):
    """This copy of the course does not include the reference solution a cell asks for."""
