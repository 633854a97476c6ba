"""The local checker: python lab/lab_check.py --harness harness.py --lesson 15 tests.py

Runs the cumulative suite for a lab against a student's harness.py: the kit's tests of every
lab before it, then the lab's own tests (the given tests.py names its lab on its LAB line).
One line per test, PASS or FAIL with a message in the course's terms, then the count line
"N passed, M failed", then one line saying what to do next (lab/check/lines.py writes them).
Exit codes: 0 every test passed, 1 a test failed, 2 nothing could run (no such file, a tests
file of no lab, or a harness.py that does not import), 130 stopped with Ctrl-C.

The tests run in a separate process (lab/check/runner.py), so a harness.py that hangs, floods the
screen or ends the process costs one test, and the verdicts are decided here, not there. It runs
the same way on Windows, macOS and Linux, from a lab folder that `course start` made. This
process loads only the checking engine and the desk's progress file, never the fake world, so
that it starts at once. A check of a file in a student's lab folder is recorded there for
`course progress`.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script, from a lab folder: python lab/lab_check.py
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    sys.path.insert(0, str(here.parent))

from lab.check import local, runner  # noqa: E402
from lab.check.errors import UserError  # noqa: E402
from lab.check.lines import check_aloud  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="lab_check", description="Check your harness.py against a lab's tests, and every "
                                      "earlier lab's.")
    parser.add_argument("--harness", required=True, type=Path, help="your harness.py")
    parser.add_argument("--lesson", required=True, type=int, help="the lesson number, e.g. 15")
    parser.add_argument("tests", type=Path, help="the lab's tests.py")
    parser.add_argument("--verbose", action="store_true",
                        help="show tracebacks and what harness.py printed")
    parser.add_argument("--seconds", type=float, default=runner.Limits.seconds_per_test,
                        help="wall-clock guard per test, against a file that hangs")
    parser.add_argument("--seed", type=int, default=None,
                        help="draw the tests' cases under seed N, as your grader's feedback "
                             "names it. Without it the tests draw under the seed your kit's "
                             "expected.json records, and are judged. Your kit has no reference "
                             "for any other seed, so under one it judges nothing: it lists each "
                             "check with what your file found, to compare with the feedback's "
                             "expected lines.")
    args = parser.parse_args(argv)
    if hasattr(sys.stdout, "reconfigure"):  # a Windows pipe's code page lacks some characters
        sys.stdout.reconfigure(errors="replace")
    try:
        checked = check_aloud(args.harness, args.tests, args.lesson, verbose=args.verbose,
                              seconds=args.seconds, seed=args.seed,
                              carried=_in_lab_folder(args.harness))
    except UserError as problem:
        print(f"lab_check: {problem}")
        return local.NOTHING_RAN
    if not checked.interrupted and checked.judged:
        _remember(args.harness, checked)
    return checked.exit_code


def _in_lab_folder(harness: Path) -> bool:
    """Whether `harness` is a student's harness.py in a lab folder `course start` made, whose
    file `course start NEXT --mine` carries forward once it passes."""
    from lab.desk.labfolder import lab_in
    try:
        return harness.name == "harness.py" and lab_in(harness.resolve().parent) is not None
    except OSError:
        return False


def _remember(harness: Path, checked: local.Checked) -> None:
    """Record the result for the progress view when the file sits in a student's lab folder."""
    from lab.desk.progress import record_check_in
    try:
        record_check_in(harness.resolve().parent, checked.lab.id,
                        checked.report.passed, checked.report.failed)
    except (OSError, UserError) as exc:  # the progress view is a convenience; the check stands
        print(f"(progress not recorded: {exc})")


if __name__ == "__main__":
    sys.exit(main())
