"""The grader's own lines in the instructor's terminal: what a command wrote and why it stopped;
the sibling of lab/check/words_feedback.py (whose summary a `grade` run prints) for
grader/__main__.py, grader/pipeline.py and grader/batch.py.

Those modules decide what to do and in which order; every sentence they print is made here, from
plain values. What they refuse is a record (grader/refusals.py) whose words are
grader/words_refused.py's. The commands' help stays beside its options in grader/__main__.py:
argparse writes its own English around it (usage, "options", its refusals of arguments, from
the standard library's gettext domain), so moving ours here would not make the help screen
swappable, and would take each option's meaning away from the line that declares it.
"""
from __future__ import annotations

from collections.abc import Sequence


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def stopped(kept: int, folder: str) -> str:
    """A `grade` run stopped with Ctrl-C: what the journal keeps, which a re-run reuses."""
    return (f"grader: stopped (Ctrl-C): {kept} graded {_plural(kept, 'submission')} kept in "
            f"{folder}; the same command grades the rest.")


def unkept(journal: str, why: str, rows: int) -> str:
    """The journal could not keep every row a `grade` run graded: the disk holding it is full
    (`why`, the system's words)."""
    return (f"grader: the disk holding {journal} is full ({why}): {rows} {_plural(rows, 'row')} "
            "graded in this run could not be kept in the journal (the reports hold them; a rerun "
            "grades them again). Free some space.")


def not_removed(path: str) -> str:
    """The sandbox's scratch folder outlived the batch."""
    return f"grader: could not remove {path}: remove it by hand"


def exported(path: str, format_name: str, labs: Sequence[str]) -> str:
    return f"Wrote {path} ({format_name}; {_plural(len(labs), 'lab')} {', '.join(labs)})."


def bundled(path: str, tests: int, points: str, bank_line: str) -> str:
    """A Gradescope bundle written: what to do with it, and what it grades."""
    return (f"Wrote {path}: upload it as the autograder of a Gradescope programming "
            f"assignment. Students submit their harness.py. {tests} tests, {points} points. "
            f"{bank_line}")


def moved(lab: str, out: str, target: str, files: Sequence[str]) -> str:
    """A folder of the one-lab layout moved into its lab's folder by a `grade` run."""
    return (f"Moved lab {lab}'s files from the top of {out} into {target} ("
            f"{', '.join(files)}): a class folder now keeps each lab's files apart.")


def wrote(path: str) -> str:
    return f"Wrote {path}."
