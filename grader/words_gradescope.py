"""Gradescope's sentences: what results.json tells a student, what the bundle's run prints into
Gradescope's log, why an upload held nothing to grade, and what refuses a bundle; the sibling of
lab/check/words_feedback.py for grader/gradescope.py.

grader/gradescope.py decides which harness.py an upload holds, each test's points, status and
visibility, and lays results.json out; every sentence it writes is made here, from plain values,
so that rewording one (or translating it) changes no score, status or visibility.
"""
from __future__ import annotations

from collections.abc import Sequence

# --- results.json: what the student reads -----------------------------------------------------


def title(lab_name: str, lab_title: str) -> str:
    return f"{lab_name.capitalize()}: {lab_title}."


def score(earned: str, most: str) -> str:
    return f"Score: {earned} of {most} points."


def graded(source: str, took: str) -> str:
    """Which file was graded, and why that one where its place does not say it (`took`)."""
    return f"Graded {source}" + (f": {took}." if took else ".")


def did_not_import(error: str, python: str) -> str:
    """A file that did not import: the error, and which Python graded it (`python`,
    words_feedback.python_words)."""
    return f"Your harness.py did not import, so no test could run:\n{error}\n{python}"


def test_output(verdict: str, message: str) -> str:
    """A test's output: its verdict's words (words_lines.verdict_said), then its reason."""
    return f"{verdict.capitalize()}." + (f"\n\n{message}" if message else "")


def seed_command(lesson: int) -> str:
    """Where the student adds `--seed N` to draw the grading's cases."""
    return (f"`python lab/lab_check.py --harness harness.py --lesson {lesson} tests.py`, run "
            "in your lab folder")


# --- which harness.py an upload holds ---------------------------------------------------------

NO_FOLDER = "The submission folder is missing, so there was nothing to grade."


def at_its_place(lab_id: str, candidates: int) -> str:
    """Why the file at the lab's standard place was taken among several."""
    return (f"lab {lab_id}'s own place in a course repository, among the {candidates} "
            "harness.py files it holds")


ONLY_PYTHON_FILE = "the only .py file in your submission"


def no_harness(files: Sequence[str]) -> str:
    return ("Your submission holds no harness.py"
            + (f" and several .py files ({', '.join(files)})" if files else "")
            + ", so there was nothing to grade. Submit your lab's harness.py file.")


def several(candidates: Sequence[str], standard: str | None) -> str:
    """Several harness.py files, none at the lab's own place (`standard`, when known)."""
    return (f"Your submission holds several harness.py files ({', '.join(candidates)}), and "
            "the grader cannot tell which one is meant: none is at the lab's own place"
            + (f", {standard}" if standard else "") + ". Leave exactly one.")


# --- the bundle's log, and the instructor's errors --------------------------------------------

def ran(shown: str, took: str, earned: str, most: str, results: str, problem: str) -> str:
    """What a run prints into Gradescope's log: what was graded, the score, where it wrote."""
    return (f"Graded {shown or 'nothing'}{f' ({took})' if took else ''}: {earned} of {most} "
            f"points; wrote {results}." + (f" {problem}" if problem else ""))


def isolation(level: str) -> str:
    return f"Isolation: {level}. It cannot prevent:"


