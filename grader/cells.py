"""What the grader keeps of a submission's words, and how it writes them into a CSV file.

A submission chooses its own error messages, so a reason, an import error or what it printed
can be as long as it likes: a file of a few hundred bytes raising a megabyte in every test once
made 774 MB of reports. Every such text is cut here to a stated size, with the cut marked,
before any report, the journal or Gradescope's results.json holds it.

A submission also chooses what its words begin with, and a spreadsheet reads a cell that
begins with = + - @ (or a tab or carriage return before one) as a formula: every cell the
grader writes into a CSV file goes through `safe`, which puts a ' before such a start, the
mark spreadsheets take for "this is text" (OWASP's advice on CSV injection).
"""
from __future__ import annotations

import csv
from typing import overload

REASON_CHARACTERS = 4000  # a test's reason, an import error, why nothing was graded
OUTPUT_CHARACTERS = 2000  # the start of what harness.py printed (grader/row.py keeps it)
NAME_CHARACTERS = 200  # a submission's name and where it was found

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@overload
def cut(text: str, limit: int = REASON_CHARACTERS) -> str: ...
@overload
def cut(text: None, limit: int = REASON_CHARACTERS) -> None: ...
@overload
def cut(text: str | None, limit: int = REASON_CHARACTERS) -> str | None: ...


def cut(text: str | None, limit: int = REASON_CHARACTERS) -> str | None:
    """`text` if it holds at most `limit` characters, else its start and a line saying how
    much was cut, the whole no longer than `limit`. None stays None."""
    if text is None or len(text) <= limit:
        return text
    mark = f"\n[... cut: {len(text):,} characters in all; the grader keeps the first "
    mark += "{kept:,}]"
    kept = limit - len(mark.format(kept=limit))
    return text[:kept] + mark.format(kept=kept)


def number(value: float | None) -> str:
    """A score or a maximum as a CSV cell: to the six places every report keeps a sum of points
    (grader/plan.py's points), never fewer, so that grades.csv and each export read back what
    grades.json holds (a bank's shares make scores like 54.354545, which "%g" cut to 54.3545).
    "" for None."""
    if value is None:
        return ""
    return f"{round(value, 6) + 0.0:.15g}"  # + 0.0: a rounded -0.0 is written 0


def safe(value):
    """A CSV cell a spreadsheet shows as the text it is: a string that a spreadsheet would
    read as a formula gets a leading '. Numbers, written as numbers or as strings ("-2", a
    score an override took away), and other values pass unchanged."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS) and not _number(value):
        return "'" + value
    return value


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return text.strip() == text


class _SafeWriter:
    def __init__(self, writer):
        self._writer = writer

    def writerow(self, row):
        return self._writer.writerow([safe(cell) for cell in row])

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)


def writer(handle, **how) -> _SafeWriter:
    """csv.writer(handle, **how) whose every string cell goes through `safe`."""
    return _SafeWriter(csv.writer(handle, **how))
