"""What a user got wrong, as types: the only exceptions the kit's commands turn into one line.

A student, an instructor or an author who asks for something that cannot be done (a lab that
does not exist, a folder that is not a lab's, a file that is missing) gets one line that says
how to fix it and an exit code of 2. Anything else that escapes a command is the kit's own
fault, and keeps its traceback, so that it is reported rather than mistaken for a typo. So each
front door (`lab_check.py`, `course`, `python -m grader`, the authoring tools) catches
`UserError` and nothing broader.

These live in the engine because every layer above it raises them, and it imports nothing.
"""
from __future__ import annotations


class UserError(Exception):
    """Something a user asked for cannot be done as asked; the message says what to do."""

    def __str__(self) -> str:
        # KeyError's own str() quotes its message; a user reads the sentence itself.
        return str(self.args[0]) if self.args else ""


class UnknownLab(UserError, KeyError):
    """There is no such lab or lesson in this kit. Also a KeyError: a lookup that missed."""


class NothingToCheck(UserError):
    """A check was asked for, but there is no harness or tests file to run, or the tests file
    names no lab of this kit: no test could run (the checker's exit code 2)."""
