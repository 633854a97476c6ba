"""The grader's sentences: a student's feedback file and the summary an instructor reads at the
end of a batch, the sibling of lab/check/words.py and words_lines.py for grader/report.py.

grader/report.py decides what each file holds (which tests failed, which are collateral, how
students are grouped, by the facts of their rows) and lays it out; every sentence it writes is
made here, from plain values, so that rewording one changes nothing that is decided.
"""
from __future__ import annotations

from collections.abc import Sequence


def _plural(n: int, word: str, many: str | None = None) -> str:
    return word if n == 1 else (many or word + "s")


# --- a student's feedback file ---------------------------------------------------------------

def title(lab_name: str, lab_title: str) -> str:
    return f"# {lab_name.capitalize()}: {lab_title}"


def feedback_for(student: str, source: str) -> str:
    return f"Feedback for **{student}** on `{source}`."


def score_line(earned: str, most: str, verdict: str) -> str:
    """The score line; `verdict` is the overall verdict's words."""
    return f"**Score: {earned} of {most} points** ({verdict})."


def earlier_labs_run_too() -> str:
    """Said after the sets line when earlier labs' tests are graded too."""
    return (" Every earlier lab's tests run too, because a later lab must not break "
            "what an earlier one built.")


def nothing_graded() -> str:
    return "## Why nothing could be graded"


def did_not_import() -> str:
    return "## Your harness.py did not import"


def stopped_loading() -> str:
    """The opening of a file that did not import; its error follows."""
    return "No test could run, because Python stopped while loading the file:"


def fix_the_import() -> str:
    return ("Fix this first: run `python harness.py` in your lab folder to see the same "
            "error, then check again with the local checker. ")


def every_test_failed() -> str:
    return "## Why every test failed"


def not_passed(count: int) -> str:
    return f"## What did not pass ({count})"


def failed_test(says: str, where: str, points: str, plural: bool, verdict: str) -> str:
    """A failed test's line: its sentence, where it is from, its points and its verdict."""
    return f"- **{says}** ({where}; {points} point{'s' if plural else ''}): {verdict}."


def probably_collateral(label: str) -> str:
    """The local checker's collateral label, so both send the student to their gaps."""
    return f"  Probably collateral: {label}."


def same_reason_as_above() -> str:
    return "  The same reason as the test above."


def passed_heading(count: int) -> str:
    return f"## What passed ({count})"


def passed_test(says: str, where: str) -> str:
    return f"- {says} ({where})"


def overrides_heading() -> str:
    return "## Your instructor's changes"


def overrides_count(count: int) -> str:
    return f"Your score above includes them. {count} change{_plural(count, '')}:"


def notes_heading() -> str:
    return "## Notes"


def check_yourself(lesson: int, hidden: bool, bank: bool) -> str:
    """How to see the same verdicts with the local checker: what is not in the student's copy
    (`hidden`: an instructor's tests; `bank`: the grading bank's)."""
    return ("To see the same verdicts yourself, run the local checker from your lab "
            f"folder: `python lab/lab_check.py --harness harness.py --lesson "
            f"{lesson} tests.py`"
            + (" (tests marked hidden are your instructor's and not in your copy)." if hidden
               else " (the grading bank's tests are not in your copy)." if bank else "."))


def python_words(version: str, major_minor: str) -> str:
    """Which Python graded, told with a file that did not import: one that imports on the
    student's newer Python can fail on the grader's older one, and the other way round."""
    return (f"The grader ran Python {version}; if your file imports on your "
            "own Python, it may use something this version lacks (or has dropped): run it "
            f"with Python {major_minor} to see the same error.")


def seed_words(seed: int, command: str) -> str:
    """What a student is told of a grading seed: which it was, and how to draw the same cases
    with the local checker (`command` names where to add `--seed N`)."""
    return (f"These tests drew their cases under seed {seed}; your copy's tests draw under "
            "another. To draw the same cases and see what your file found at each check, add "
            f"`--seed {seed}` to {command}.")


def where(bank: bool, hidden: bool, lab_name: str | None, set_name: str) -> str:
    """Where a test in feedback comes from."""
    if bank:
        return "the grading bank"
    if hidden:
        return "a hidden test"
    return lab_name if lab_name else set_name


def bank_line(lab_id: str, share: float | None, drawn_tests: int) -> str:
    """What the public tests are worth and what the rest rests on (grader/bank.py's share),
    or, for a lab without a bank, that its grade rests on its public tests."""
    if share is None:
        return (f"Lab {lab_id} has no grading bank yet, so its grade rests on its public tests "
                "alone, as before.")
    return (f"The public tests are worth {share:.0%} of this grade; the other {1 - share:.0%} "
            f"rests on {drawn_tests} tests of lab {lab_id}'s grading bank, which check the same "
            "rules through cases no student holds.")


# --- a grade row's own sentences (grader/row.py, grader/bank.py, grader/batch.py) -------------

def overall(verdict: str) -> str:
    """A submission's overall verdict (grader/row.py's Overall, by its value) as a student
    reads it beside the score."""
    return {"partial": "some tests passed", "no marks": "no test passed",
            "does not import": "the file did not import",
            "empty file": "the file is empty",
            "lacks the lab's names": "the file lacks the names the tests use",
            }.get(verdict, verdict)


HIDDEN_REASON = ("One of your instructor's hidden tests: you are told what it checks and its "
                 "verdict, not its code, its values or what your file did in it.")
BANK_REASON = ("A test of the course's grading bank, which students never see: it checks the "
               "rule named above through a case of its own. Make that rule hold in every case, "
               "not only in your copy's tests.")
NO_VERDICT = "This test got no verdict from the run, so it cannot count as passed."
CUT_OFF = "The run was cut off at the time limit for a whole submission."


def output_dropped(printed: int, kept: int) -> str:
    """A note: harness.py printed more than a row keeps."""
    return f"harness.py printed {printed} bytes during the tests; only the first {kept} were kept."


def not_reached(seconds: float) -> str:
    """The reason of a test the submission's time ran out before."""
    return (f"Not run: this submission used up its {seconds:g} seconds before this test's "
            "turn.")


def judged_alone(load: float | None, processors: int | None) -> str:
    """A note on a submission graded again alone after the batch, and why."""
    if load is None:
        return "Judged alone, after the batch."
    return ("Judged again alone: in the first run a test ran out of the wall clock while the "
            f"machine was loaded (load {load:.1f} on {processors} processors), so this "
            "submission was graded once more with nothing of the batch beside it, and these "
            "are that run's verdicts.")


def grader_failed(error: str) -> str:
    """Why nothing was graded when the grader itself failed (`error`: its type and message)."""
    return (f"The grader failed while grading this submission ({error}); this says nothing "
            "about the student's work. Run the batch again to grade it.")


WORKER_KILLED = ("The grader's worker process was killed while grading this submission, twice, "
                 "so no test could be judged. Something in harness.py ends processes it does "
                 "not own, or the machine ran out of memory.")


def worker_stalled(seconds: float) -> str:
    return ("The grader's worker stopped answering while grading this submission, twice, so "
            f"no test could be judged: it sent no result for {seconds:g} seconds, longer than "
            "any submission may take. Where submissions run as the grader's own user, "
            "something in harness.py can write into the grader's own pipes, which jams them.")


# --- the summary printed at the end of a batch -----------------------------------------------

def graded(count: int, lab_name: str, lab_title: str, tests: int, points: str) -> str:
    return (f"Graded {count} submission{_plural(count, '')} for {lab_name}, "
            f"\"{lab_title}\": {tests} tests, {points} points.")


def table_head(width: int) -> str:
    return f"  {'student':<{width}}  {'score':>9}  verdict"


def table_row(student: str, width: int, score: str, verdict: str, timed: int) -> str:
    """A student's row; `timed` counts the tests that ran out of time (0: not said)."""
    return (f"  {student:<{width}}  {score:>9}  {verdict}" +
            (f", out of time in {timed} test{_plural(timed, '')}" if timed else ""))


def counts(counted: Sequence[tuple[int, str]]) -> str:
    """How many rows have each overall verdict."""
    return "  " + ", ".join(f"{n} {verdict}" for n, verdict in counted)


def broken(files: Sequence[tuple[str, str]]) -> str:
    return ("  Broken files, left out of the counts of failed tests: "
            + ", ".join(f"{student} ({verdict})" for student, verdict in files) + ".")


def timed_out(students: Sequence[str]) -> str:
    return ("  Ran out of time in a test (a loop that never ends, or a call that "
            "never returns): " + ", ".join(students) + ".")


def overridden(count: int, said: Sequence[tuple[str, str]]) -> str:
    return (f"  Overrides ({count}), in the scores above: "
            + "; ".join(f"{student}: {words}" for student, words in said))


def since_last_run(changed: Sequence[str]) -> str:
    return "  Since the last run: " + ("; ".join(changed) if changed else "no score changed") + "."


def most_failed(shown: int, failing: int) -> str:
    return "Most-failed tests" + (f" (the {shown} most failed of the {failing} "
                                  "tests someone failed; every one is in tests.csv):"
                                  if failing > shown else ":")


def failed_by(n: int, ran: int, says: str, test_id: str) -> str:
    return f"  {n:>3}/{ran}  {says}  [{test_id}]"


def group(students: Sequence[str], shown: int, did: str) -> str:
    """One group of a most-failed test's students, named up to `shown`, and what they did."""
    named = ", ".join(students[:shown]) + (f" and {len(students) - shown} more"
                                           if len(students) > shown else "")
    return f"          {len(students):>3}  {named}: {did}"


def needs_review(flagged: Sequence[tuple[str, Sequence[str]]], shown: int) -> str:
    """The summary's line on the submissions that need review: each student, and up to `shown`
    of what their code reaches for."""
    said = "; ".join(f"{student} ({', '.join(found[:shown])}"
                     + (f", {len(found) - shown} more" if len(found) > shown else "")
                     + ")" for student, found in flagged)
    return (f"  Needs review ({len(flagged)}): code that reaches past a harness's needs (the "
            "checker's modules, the import machinery, gc, ctypes, tracing, frames, code built "
            f"as it runs); it counts toward nothing, read the lines: {said}.")


def ignored(names: Sequence[str]) -> str:
    return "Not submissions, left alone: " + ", ".join(names)


def isolation(level: str) -> str:
    return f"Isolation ({level}): what it cannot prevent:"


def written(paths: Sequence[str]) -> str:
    return "Written: " + ", ".join(paths)


def not_for_students(path: str) -> str:
    return (f"Not for students: {path} (every reason in full, the "
            "hidden tests' included).")
