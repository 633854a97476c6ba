"""What a lesson's cells say about the student's own file: the guard's lines over a cell that
runs it (lab/desk/guard.py) and the lines over a cell replayed from its record
(lab/desk/recorded.py). Made here and only here from facts (lab ids, budgets, line numbers,
function names); nothing reads them back but the guard, which knows a line it printed by
comparing it whole (tests/check/test_pseudo_localised.py swaps them all)."""
from __future__ import annotations

from typing import Literal

Over = Literal["calls", "turns", "seconds"]  # which of a cell's budgets a run used up


def labs(ids: list[str]) -> str:
    """"lab 5.1", "labs 4.1 and 5.1": lab ids as a student reads them."""
    if len(ids) == 1:
        return f"lab {ids[0]}"
    return "labs " + ", ".join(ids[:-1]) + f" and {ids[-1]}"


def _many(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _past(over: Over, calls: int, turns: int, seconds: float) -> str:
    if over == "calls":
        return f"made more than {_many(calls, 'model call')}"
    if over == "turns":
        return f"took more than {_many(turns, 'turn')} of the event loop without finishing"
    return f"ran for more than {seconds:g} seconds"


def stopped(over: Over, calls: int, turns: int, seconds: float) -> str:
    """The line a stopped run's cell prints: which budget the run used up, and the budget."""
    return (f"Stopped: the run {_past(over, calls, turns, seconds)}, past the budget of a cell "
            f"that runs your harness.py ({_many(calls, 'model call')}, {_many(turns, 'turn')} "
            f"of the event loop, {seconds:g} seconds); a run that does not end by itself has no "
            "way out of its loop yet.")


def stopped_briefly(over: Over, calls: int, seconds: float) -> str:
    """RunStopped's own text, raised inside the run."""
    return f"more than {_many(calls, 'model call')}" if over == "calls" else \
        f"more than {seconds:g} seconds"


def not_passed_yet(lab_id: str) -> str:
    """The line a "your code" cell prints first when the lab has not passed its check."""
    return (f"lab {lab_id} has not passed its check yet: this cell runs your file as it is, "
            "and may not match the lesson.")


def does_not_import(labs_: list[str], line: int | None) -> str:
    return (f"Your harness.py for lab {' and '.join(labs_)} does not import: Python cannot read line {line}. "
            "The traceback below shows it.")


def crashed(labs_: list[str], function: str, line: int) -> str:
    return (f"The run crashed inside your harness.py (lab {' and '.join(labs_)}), in {function} at line "
            f"{line}: the traceback below ends there.")


def cell_failed(labs_: list[str]) -> str:
    return (f"This cell's own code failed on what your harness.py gave it back; lab "
            f"{' and '.join(labs_)} has "
            "not passed its check yet, so that may be why.")


def where_stopped() -> str:
    return "Where it was stopped, in your harness.py:\n"


def traceback_from_yours() -> str:
    return "Traceback, from your harness.py on:"


def traceback_in_cell() -> str:
    return "Traceback, in this cell:"


def _from(needs: list[str]) -> str:
    """Whose output a record is: the opening of the line over it."""
    word = "solution" if len(needs) == 1 else "solutions"
    return f"Recorded from the course's reference {word} of {labs(needs)}, which this release"


def recorded_shown(needs: list[str]) -> str:
    return _from(needs) + " does not include:"


def recorded_unprinted(needs: list[str]) -> str:
    return _from(needs) + " does not include, and what it printed was not recorded.\n"


def recorded_instead(needs: list[str], none: list[str], unpassed: list[str]) -> str:
    """The line over a record shown because the student has no file of the labs `none`, or
    their files of `unpassed` have not passed their own checks."""
    said = []
    if none:
        said.append(f"you have no {labs(none)} file" if len(none) == 1
                    else f"you have no files of {labs(none)}")
    if unpassed:
        said.append(f"your {labs(unpassed)} file has not passed its check" if len(unpassed) == 1
                    else f"your files of {labs(unpassed)} have not passed their checks")
    return f"{_from(needs)} does not include ({'; '.join(said)}):\n"


def _yours(needs: list[str]) -> str:
    return f"lab {needs[0]} file" if len(needs) == 1 else f"files of {labs(needs)}"


def recorded_differs(needs: list[str]) -> str:
    return (f"{_from(needs)} does not include (on your own {_yours(needs)}, this cell "
            "printed something else):")


def ran_on_yours(needs: list[str]) -> str:
    passes = "passes its" if len(needs) == 1 else "pass their"
    return f"Ran on your own {_yours(needs)}, which {passes} tests; the reference printed the same:"


def comes_later(later: list[str]) -> str:
    verb = "comes" if len(later) == 1 else "come"
    return (f"{labs(later)[:1].upper()}{labs(later)[1:]} {verb} in a later release of this "
            "course; this cell runs once it is here.\n")


def record_missing(lesson: str, file: str, cell: str) -> str:
    return (f"The record of this cell is missing (lessons/{lesson}/{file}, {cell}); get a fresh "
            "copy of the course.")
