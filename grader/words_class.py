"""A class's folder, roster and likenesses in an instructor's words: why an entry of the
submissions folder was not graded (grader/submissions.py), the roster's matches
(grader/roster.py) and the pairs more alike than the starter explains (grader/similarity.py),
as the summary and a student's row show them.

Those modules decide what is graded, who is who and which pairs are alike; every sentence they
hand on is made here from plain values, and none is read back: a submission's reason is its
`unfound`, a roster's match is its Match, a pair is its Pair.
"""
from __future__ import annotations

from collections.abc import Sequence


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


# --- entries of the submissions folder that are not graded (the summary's "ignored") ----------

def made_folder(shown: str) -> str:
    """__pycache__ or __MACOSX."""
    return f"{shown} (a folder Python or macOS makes)"


def hidden(shown: str) -> str:
    return f"{shown} (a hidden name, starting with a dot: never graded; without the dot it would be)"


def neither(shown: str) -> str:
    return f"{shown} (neither a .py file nor a folder)"


# --- submissions found with nothing to grade (the row's problem) -------------------------------

def link(shown: str) -> str:
    return (f"{shown} is a link, not a file; the grader does not follow links. Put the "
            "harness.py itself there.")


def no_harness(name: str) -> str:
    return f"The folder {name}/ holds no harness.py, so there was nothing to grade."


def several(name: str, candidates: Sequence[str]) -> str:
    return (f"The folder {name}/ holds several harness.py files ({', '.join(candidates)}), and "
            "the grader cannot tell which one is meant. Leave exactly one.")


def too_large(largest_mb: int, shown: str, size_mb: float) -> str:
    return (f"Larger than {largest_mb} MB: {shown} holds {size_mb:,.0f} MB, far more than any "
            "harness.py, so the grader did not read it.")


# --- the roster ---------------------------------------------------------------------------------

def student(who: str, student_id: str) -> str:
    """A student of the roster as the summary names them."""
    return who + (f" ({student_id})" if student_id else "")


def roster(found: int, missing: Sequence[str],
           refused: dict[str, tuple[Sequence[str], Sequence[str]]], unknown: Sequence[str]) -> str:
    """The terminal's lines on the roster: who has not submitted, and what is not on it.
    `refused` is {submission: (the students it fits, the other submissions that claim the one
    it fits)}, each student as `student` names them."""
    lines = [f"Roster: {found} {_plural(found, 'submission')} matched, {len(missing)} "
             f"{_plural(len(missing), 'student')} with none."]
    if missing:
        lines.append("Not submitted: " + ", ".join(missing))
    for name, (fits, others) in refused.items():
        why = (f"fits several students on the roster ({', '.join(fits)}): rename it to one's "
               "login" if len(fits) > 1 else
               f"claims {fits[0]}, as {', '.join(others)} could too: rename the one that is not "
               "theirs")
        lines.append(f"Not matched, and no grade given for it in an export: {name} {why}.")
    if unknown:
        lines.append("Submissions no one on the roster matches: " + ", ".join(unknown))
    return "\n".join(lines)


# --- the instructor's overrides -------------------------------------------------------------

def override(says: str | None, change: str, comment: str, by: str, when: str) -> str:
    """An instructor's change to a score and their comment, for the feedback file, the page and
    the terminal: `says` is the test's sentence, None for the whole score; `change` is "+2",
    "-1", "=3" or ""."""
    what = f"“{says}”" if says is not None else "your score"
    points = change.lstrip("+-")
    unit = "point" if points == "1" else "points"
    changed = ("" if not change else
               f"set {what} to {change[1:]} points" if change.startswith("=") else
               f"took {points} {unit} from {what}" if change.startswith("-") else
               f"added {points} {unit} to {what}")
    who = (by or "your instructor") + (f", {when}" if when else "")
    said = f"“{comment}”" if comment else ""
    return f"{who}: " + "; ".join(part for part in (changed, said) if part) + "."


# --- pairs more alike than the starter explains -------------------------------------------------

def alike(pairs: int) -> str:
    """The heading of the similarity summary."""
    return (f"More alike than the starter explains ({pairs} {_plural(pairs, 'pair')}; read the "
            "shared lines before concluding anything):")


def pair(first: str, second: str, shares: tuple[float, float], first_lines: str,
         second_lines: str) -> str:
    """One pair: how much of each one's own code is shared, and where."""
    return (f"  {first} and {second}: {shares[0]:.0%} of {first}'s own code and "
            f"{shares[1]:.0%} of {second}'s is shared; {first}'s lines {first_lines}, "
            f"{second}'s lines {second_lines}")


def more_shared(lines: int) -> str:
    """The last line of a pair's shared lines, where more are left out."""
    return f"... and {lines} more shared {_plural(lines, 'line')}"
