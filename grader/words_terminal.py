"""The grader's own lines in the instructor's terminal: what a command wrote, why it stopped,
and what it refuses before anything is written; the sibling of lab/check/words_feedback.py
(whose summary a `grade` run prints) for grader/__main__.py and grader/pipeline.py.

Those modules decide what to do and in which order; every sentence they print or raise is made
here, from plain values. The commands' help (argparse's) stays beside its options.
"""
from __future__ import annotations

from collections.abc import Sequence


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def stopped(kept: int, folder: str) -> str:
    """A `grade` run stopped with Ctrl-C: what the journal keeps, which a re-run reuses."""
    return (f"grader: stopped (Ctrl-C): {kept} graded {_plural(kept, 'submission')} kept in "
            f"{folder}; the same command grades the rest.")


def exported(path: str, format_name: str, labs: Sequence[str]) -> str:
    return f"Wrote {path} ({format_name}; {_plural(len(labs), 'lab')} {', '.join(labs)})."


def bundled(path: str, tests: int, points: str, bank_line: str) -> str:
    """A Gradescope bundle written: what to do with it, and what it grades."""
    return (f"Wrote {path}: upload it as the autograder of a Gradescope programming "
            f"assignment. Students submit their harness.py. {tests} tests, {points} points. "
            f"{bank_line}")


def wrote(path: str) -> str:
    return f"Wrote {path}."


def more_than_zero(option: str) -> str:
    return f"{option} must be more than 0"


JOBS = "--jobs must be 1 or more"


def no_folder(path: str) -> str:
    return f"there is no folder of submissions at {path}"


OUT_INSIDE = ("choose an output folder that neither holds nor sits inside the kit or the "
              "submissions folder (it is hidden from submissions while they run, and a re-run "
              "would take it for a student)")


def no_submissions(path: str) -> str:
    return (f"{path} holds no submissions (NAME.py files or NAME/ folders with a "
            "harness.py)")
