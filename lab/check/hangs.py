"""Where harness.py was when a test hung, and the count of hangs in a row at one place.

A test that hangs is stopped by a guard: the child's, seen from outside (lab/check/runner.py),
or the practice check's, inside the process (lab/check/spin.py). Either way the student needs
the place, not only the fact: the innermost function of harness.py that was running, its line,
and whether the event loop is theirs to think of (harness.py has async code): a file of the
early, synchronous lessons has no turn to give. The child reports the place; it decides nothing.

A file that hangs at the same place in several tests in a row will hang there in the rest: the
student's check stops there (`Streak.repeated`; lab/check/words.py says "fix that hang
first") and answers in seconds; the grader, which owes every test a verdict, judges the rest
under shorter guards.
"""
from __future__ import annotations

import ast
import functools
import os
from dataclasses import dataclass
from types import CodeType


@dataclass(frozen=True)
class Place:
    """A place in harness.py: the function (None where no frame of harness.py was running, such
    as a call that held the interpreter), its line, and whether harness.py has async code."""
    function: str | None = None
    line: int | None = None
    async_code: bool = False


def calls_of(frame) -> list[tuple[CodeType, int]]:
    """The code and current line of `frame` and of each of its callers, innermost first.

    A frame held by another thread keeps its function's locals alive after the function returns,
    so a test that watches a record go away would see it held (lab 7.1's counts of a record's
    references, under load). The heartbeat takes this list, which holds no frame, and lets the
    frames go before anything that can wait (a stat call, a read) runs."""
    calls = []
    while frame is not None:
        calls.append((frame.f_code, frame.f_lineno))
        frame = frame.f_back
    return calls


def place_of(calls: list[tuple[CodeType, int]], harness_path: str) -> Place | None:
    """The place in harness.py of the innermost of `calls` (calls_of's list) that runs code
    from `harness_path`; None when none does."""
    if not harness_path:
        return None
    target = _real(harness_path)
    for code, line in calls:
        if _same_file(code.co_filename, target):
            return Place(_written_in(code), line, has_async_code(target))
    return None


COMPREHENSIONS = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>")


def _written_in(code) -> str:
    """The name of the function `code` was written in. A comprehension or generator expression
    is code of its own (on Python 3.11, and a generator expression on every version), named
    `run_tool.<locals>.<listcomp>`: the student wrote it in run_tool, so run_tool it is, on every
    Python alike."""
    name = code.co_qualname
    if code.co_name in COMPREHENSIONS:
        name = name.rpartition(".<locals>.")[0] or "<module>"  # as top-level code is named
    return name


@functools.lru_cache(maxsize=8)
def has_async_code(path: str) -> bool:
    """Whether the file at `path` defines or awaits anything async; True when it cannot be read,
    so that the event loop is named rather than left out."""
    try:
        with open(path, "rb") as file:  # closed here, not when a collection finds it mid-test
            tree = ast.parse(file.read())
    except (OSError, SyntaxError, ValueError):
        return True
    return any(isinstance(node, (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith))
               for node in ast.walk(tree))


_seen: dict[str, str] = {}


def _same_file(filename: str, target: str) -> bool:
    """Whether code compiled from `filename` is harness.py's."""
    return _real(filename) == target


def _real(filename: str) -> str:
    """os.path.realpath, cached: the heartbeat asks fifty times a second, mostly of the same few
    files."""
    real = _seen.get(filename)
    if real is None:
        real = _seen[filename] = os.path.realpath(filename)
    return real


class Streak:
    """Tests stopped in a row at one place (the same function of harness.py). `add` takes each
    decided test in order: the place it hung at, or None when it did not hang."""

    def __init__(self, repeats: int):
        self.repeats = repeats
        self.place: Place | None = None
        self.count = 0

    def add(self, place: Place | None) -> None:
        if place is None:
            self.count = 0
        elif self.count and self.place is not None and place.function == self.place.function:
            self.count += 1
        else:
            self.count = 1
        self.place = place if place is not None else self.place

    @property
    def repeated(self) -> bool:
        """Whether the last `repeats` tests all hung at one place."""
        return self.count >= self.repeats
