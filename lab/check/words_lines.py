"""The checker's own lines and its advice in a student's words: the sibling of lab/check/words.py
for what `lab_check.py`, the practice check and the grader's feedback say around the tests'
messages (the sets that ran, the count, collateral labels, the closing "Next: ..." line, the
one line for a file without the lab's code).

lab/check/advice.py decides (which test to send a student to, whether a failure is collateral,
which names a file lacks) and lab/check/lines.py lays the lines out; both take every sentence
from here, so rewording one changes what is said and nothing that is decided from it.
"""
from __future__ import annotations

from collections.abc import Sequence

RULE_CHARACTERS = 240  # of the rule quoted in the closing line, so that it stays one line
NAMES_SHOWN = 4  # of the names a file lacks, in the line that says it lacks them all

PRACTICE = ("Practice check: the same tests and verdicts as lab_check.py, run inside this "
            "page's Python, not isolated: a loop that spins is stopped, but a single call that "
            "never returns holds that Python until you restart its kernel, and nothing stops a "
            "harness.py from faking a result. What counts is "
            "lab_check.py on a computer, or your instructor's grader.")


# --- a verdict, and a check's sets and count -------------------------------------------------

def mark(verdict: str) -> str:
    """The four letters the checker prints before a test's sentence."""
    return {"pass": "PASS", "fail": "FAIL", "timeout": "TIME", "crash": "DIED"}[verdict]


def verdict_said(verdict: str) -> str:
    """A verdict as a sentence's end, for feedback files and Gradescope."""
    return {"pass": "passed", "fail": "failed", "timeout": "ran out of time",
            "crash": "the process died"}[verdict]


def sets_line(sets: Sequence[tuple[str, int, int]]) -> str:
    """The line that says which sets of tests ran: "Sets run: lab 2.1, 5 tests holding 12
    checks; ...". `sets` holds (name, tests, checks) for each set, in order."""
    def count(n: int, word: str) -> str:
        return f"{n} {word}" + ("" if n == 1 else "s")
    return "Sets run: " + "; ".join(f"{name}, {count(tests, 'test')} holding "
                                    f"{count(checks, 'check')}"
                                    for name, tests, checks in sets) + "."


def counted(passed: int, failed: int, not_run: int) -> str:
    """The count line: "N passed, M failed" (and ", K not run")."""
    return f"{passed} passed, {failed} failed" + (f", {not_run} not run" if not_run else "")


def reaches_past(findings: list[str], more: int) -> str:
    """The note after the count for a file whose code names what a harness never needs (the
    checker's modules, the import machinery, frames: lab/check/audit.py's scan), with the first
    few lines found. Such a file may be answering the checks from inside its own process."""
    return ("Note: harness.py reaches past what a harness needs (" + "; ".join(findings)
            + (f"; {more} more" if more else "") + "). This check judges under the public "
            "seed, whose answers your copy of the course holds, so code in harness.py can fool "
            "it; a grader judges under a seed of its own, and shows these lines to your "
            "instructor.")


# --- the lines around the tests' messages ----------------------------------------------------

def checking(harness: object, lab_name: str, title: str, seed: int | None) -> str:
    """The line that opens a check: which file, for which lab."""
    return (f"Checking {harness} for {lab_name}, \"{title}\"" +
            (f", under seed {seed}." if seed is not None else "."))


def tests_differ(tests: object, lab_id: str) -> str:
    """The student's copy of a lab's tests is not the kit's: the kit's are run."""
    return (f"Note: {tests} differs from the kit's tests for lab {lab_id}; the kit's are the "
            "ones that count, so those are run.")


def seed_not_held(public: int, seed: int) -> str:
    """A check under a seed the kit holds no reference's observations for."""
    return (f"This kit holds the reference's observations under seed {public} only, so under "
            f"seed {seed} nothing is judged: each test's checks are listed with what your "
            "file found at each. Compare them with the expected lines of the feedback that "
            "named this seed.")


def unjudged(tests: int, seed: int | None) -> str:
    return f"{tests} tests ran under seed {seed}; none judged."


def interrupted() -> str:
    return "\nStopped before the end: the tests after the last line above have no verdict."


def printed(size: int, verbose: bool) -> str:
    """What harness.py printed during the tests, and where it is shown."""
    return (f"harness.py printed {size} bytes during the tests" +
            (":" if verbose else " (--verbose shows them)."))


def printed_dropped(dropped: int) -> str:
    return f"\n... and {dropped} bytes more, not kept"


def ended_as(error: str) -> str:
    """How a test that was not judged ended."""
    return f"The test ended: {error}"


def found(value: str) -> str:
    """What an unjudged test's check found."""
    return f"found: {value}"


def collateral_label(test_lab: str, checked: str) -> str:
    """Why a failing test of an earlier lab is probably collateral (advice.collateral decides
    that it is): lab `checked`'s starter held the earlier labs' code finished."""
    return (f"a test of lab {test_lab}, whose code your starter gave you: it fails because of "
            f"code you changed for {checked}; look at your gaps first")


def collateral_too(test_lab: str | None) -> str:
    """A later collateral failure of a lab whose first one was labelled."""
    return f"(lab {test_lab}'s test: probably collateral too.)"


def same_reason() -> str:
    """A failure whose reason repeats the one above it."""
    return "(the same reason as above)"


# --- the closing line ------------------------------------------------------------------------

def quoted(says: str) -> str:
    """A test's own sentence, in quotes, cut as a rule is: what the test checks, beside what
    it reported, so that an exception it reported is not read as the test's words."""
    said = " ".join(says.split())
    if len(said) > RULE_CHARACTERS // 2:
        said = said[:RULE_CHARACTERS // 2 - 3] + "..."
    return f'"{said}"'


def first_line(message: str, verdict: str) -> str:
    """The first line of a failure's message, cut to stay one line: its rule, or why it
    stopped (the verdict's words where it said nothing)."""
    first = (message.strip().splitlines() or [verdict_said(verdict)])[0].strip()
    return first if len(first) <= RULE_CHARACTERS else first[:RULE_CHARACTERS - 3] + "..."


def hint(command: str) -> str:
    return f"{command} gives a hint"


def next_import_error() -> str:
    return ("Next: harness.py does not import, so no test could run; fix the error above "
            "(`python harness.py` shows it too), then check again.")


def next_missing(lab_id: str, hinted: str) -> str:
    return f"Next: put your code for lab {lab_id} in harness.py, then check again; {hinted}."


def next_not_run(reason: str, stopped_says: str | None, hinted: str) -> str:
    """Tests left unrun: why, and the first test the hang stopped (its quoted sentence)."""
    stopped = f" The first test it stopped: {stopped_says}." if stopped_says else ""
    return f"Next: {reason}{stopped} Then {hinted}."


def next_start_mine(lab_id: str, later: str, mine: str, fresh: str) -> str:
    return (f"Next: lab {lab_id} passes; start lab {later} from this file with "
            f"{mine} (its changes merged into your code), or from the kit's starter with "
            f"{fresh}.")


def next_start(lab_id: str, later: str, fresh: str) -> str:
    return f"Next: lab {lab_id} passes; start lab {later} with {fresh}."


def next_release_end(lab_id: str) -> str:
    return (f"Next: lab {lab_id} passes, and it is the last lab of this release: the "
            "next release brings the labs after it.")


def next_course_end(lab_id: str) -> str:
    return f"Next: lab {lab_id} passes, and it is the course's last lab: nothing is left to do."


def next_fix(test_lab: str | None, says: str, reported: str, hinted: str) -> str:
    where = f"of lab {test_lab}" if test_lab else "of this check"
    return (f"Next: fix the first failing test {where} ({says}), which "
            f"reported: {reported} Then check again; {hinted}.")


def next_fix_collateral(lab_id: str, label: str, says: str, reported: str, hinted: str) -> str:
    return (f"Next: every test of lab {lab_id} passes, but {label}. "
            f"It ({says}) reported: {reported} Then check again; {hinted}.")


# --- a file without the lab's code -----------------------------------------------------------

def unfit(lab_id: str, names: list[str], tests: int, *, empty: bool) -> str:
    """The one line said in place of `tests` failures that each lacked a name: the file is
    empty, or lacks the names, so there is one thing to fix, not one a test."""
    each = "the one test" if tests == 1 else f"each of the {tests} tests"
    if empty:
        return (f"harness.py is empty: {each} stopped at the first name it needed. Put your "
                f"code for lab {lab_id} in it, then check again.")
    shown = ", ".join(names[:NAMES_SHOWN]) + (f" and {len(names) - NAMES_SHOWN} more"
                                               if len(names) > NAMES_SHOWN else "")
    return (f"harness.py lacks the names the tests use ({shown}): {each} stopped at the "
            f"first it needed. Is it your file for lab {lab_id}, with the starter's names?")
