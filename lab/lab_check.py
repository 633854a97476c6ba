"""The local checker: python lab/lab_check.py --harness harness.py --lesson 15 tests.py

Runs the cumulative suite for a lab against a student's harness.py: the kit's tests of every
lab before it, then the lab's own tests (the given tests.py names its lab on its LAB line).
One line per test, PASS or FAIL with a message in the course's terms, then the count line
"N passed, M failed", then one line saying what to do next (`next_step`). Exits 0 only when every
test passed.

An earlier lab's test that fails in a check of lab N is labelled as probably collateral: the
earlier labs' code came finished in lab N's starter, so it usually fails because of what the
student changed for lab N, and the student is sent to lab N's own failures first.

The tests run in a separate process (lab/check/runner.py), so a harness.py that hangs, floods the
screen or ends the process costs one test, and the verdicts are decided here, not there. It runs
the same way on Windows, macOS and Linux, from a lab folder that `course start` made. This
process loads only the checking engine, never the fake world, so that it starts at once.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script, from a lab folder: python lab/lab_check.py
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    sys.path.insert(0, str(here.parent))

from lab.check import manifest, runner, suite  # noqa: E402
from lab.check.errors import UserError  # noqa: E402
from lab.check.verdict import Verdict, sets_line  # noqa: E402

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
    args = parser.parse_args(argv)
    if hasattr(sys.stdout, "reconfigure"):  # a Windows pipe's code page lacks some characters
        sys.stdout.reconfigure(errors="replace")

    return check(args.harness, args.tests, args.lesson, verbose=args.verbose,
                 seconds=args.seconds)


PRACTICE = ("Practice check: the same tests and verdicts as lab_check.py, run inside this "
            "page's Python, not isolated: a harness.py that blocks holds that Python until you "
            "restart its kernel, and nothing stops one from faking a result. What counts is "
            "lab_check.py on a computer, or your instructor's grader.")


def check(harness: Path, tests: Path, lesson: int, *, verbose: bool = False,
          seconds: float = runner.Limits.seconds_per_test, practice: bool = False) -> int:
    """Check `harness` against the cumulative suite of `tests`'s lab and print the report;
    the exit code: 0 when every test passed, 1 when one failed, 2 when nothing could run.
    With `practice`, the tests run in this process (runner.run's `in_process`), under a line
    that says what that does not guard against: the browser's check."""
    for path, what in ((harness, "harness file"), (tests, "tests file")):
        if not path.is_file():
            print(f"lab_check: there is no {what} at {path}. Run this from your lab's folder, "
                  "where harness.py and tests.py are (course start LAB makes one).")
            return 2
    try:
        files = suite.cumulative(tests, lesson)
    except UserError as exc:
        print(f"lab_check: {exc}")
        return 2
    own = files[-1]
    lab = manifest.lab(own.lab_id)
    kit_copy = lab.tests
    if kit_copy.exists() and own.source != kit_copy.read_text(encoding="utf-8"):
        print(f"Note: {tests} differs from the kit's tests for lab {lab.id}; the kit's are "
              "the ones that count, so those are run.")
        files[-1] = suite.TestFile(own.lab_id, kit_copy, kit_copy.read_text(encoding="utf-8"))

    if practice:
        print(PRACTICE)
    print(f"Checking {harness} for {lab.name}, \"{lab.title}\".")
    limits = runner.Limits(seconds_per_test=seconds)
    _said.update(message=None, labelled=set())
    try:
        report = runner.run(harness, files, runner.expected_for(files), limits=limits,
                            on_outcome=lambda outcome: _print(outcome, verbose, lab.id),
                            in_process=practice)
    except KeyboardInterrupt:  # Ctrl-C: the runner has stopped its child on the way out
        print("\nStopped before the end: the tests after the last line above have no verdict.")
        return 130
    print("\n" + sets_line(report.sets))
    if report.output_dropped or (report.output and verbose):
        print(f"harness.py printed {len(report.output.encode()) + report.output_dropped} bytes "
              "during the tests" + (":" if verbose else " (--verbose shows them)."))
        if verbose:
            print(report.output + (f"\n... and {report.output_dropped} bytes more, not kept"
                                   if report.output_dropped else ""))
    _remember(harness, lab.id, report)
    print(f"{report.passed} passed, {report.failed} failed")
    print(next_step(lab.id, report.outcomes, import_error=report.import_error is not None))
    return 0 if report.failed == 0 else 1


def collateral(test_lab: str | None, checked: str) -> str | None:
    """The label of a failing test of an earlier lab in a check of lab `checked`, or None when
    the test is the checked lab's own (or belongs to no lab). Lab `checked`'s starter held the
    earlier labs' code finished, so such a failure is most likely caused by the student's new
    code: the label says so and sends them to their gaps. The grader's feedback uses it too."""
    if test_lab is None or test_lab == checked or manifest.key(test_lab) > manifest.key(checked):
        return None
    return (f"a test of lab {test_lab}, whose code your starter gave you: it fails because of "
            f"code you changed for {checked}; look at your gaps first")


RULE_CHARACTERS = 240  # of the rule quoted in the closing line, so that it stays one line


def _rule(outcome) -> str:
    """The first line of a failure's message: the rule its check states, or why it stopped."""
    first = (outcome.message.strip().splitlines() or [outcome.verdict.words])[0].strip()
    return first if len(first) <= RULE_CHARACTERS else first[:RULE_CHARACTERS - 3] + "..."


def next_step(lab_id: str, outcomes, *, import_error: bool = False) -> str:
    """The checker's closing line: what to do next. The next lab's `course start` when every
    test passed; otherwise the rule of the first failing test of the lab's own set, or, when
    all of those pass, of the first failing earlier test, labelled as probably collateral; and
    `course hint LAB` either way."""
    hint = f"`course hint {lab_id}` gives a hint"
    failing = [o for o in outcomes if o.verdict is not Verdict.PASS]
    if import_error:
        return ("Next: harness.py does not import, so no test could run; fix the error above "
                "(`python harness.py` shows it too), then check again.")
    if not failing:
        later = [x for x in manifest.labs(built_only=True)
                 if manifest.key(x.id) > manifest.key(lab_id)]
        if later:
            return (f"Next: lab {lab_id} passes; start lab {later[0].id} with "
                    f"`course start {later[0].id}`.")
        return f"Next: lab {lab_id} passes, and it is the course's last lab: nothing is left to do."
    own = [o for o in failing if collateral(o.lab_id, lab_id) is None]
    if own:
        first = own[0]
        where = f"of lab {first.lab_id}" if first.lab_id else "of this check"
        return (f"Next: fix the first failing test {where}, which says: {_rule(first)} "
                f"Then check again; {hint}.")
    first = failing[0]
    return (f"Next: every test of lab {lab_id} passes, but {collateral(first.lab_id, lab_id)}. "
            f"It says: {_rule(first)} Then check again; {hint}.")


_said = {"message": None, "labelled": set()}


def _print(outcome, verbose, checked):
    print(f"  {outcome.verdict.mark}  {outcome.says}", flush=True)
    if outcome.verdict is Verdict.PASS:
        return
    label = collateral(outcome.lab_id, checked)
    if label and outcome.lab_id not in _said["labelled"]:
        _said["labelled"].add(outcome.lab_id)
        print(f"        ({label}.)")
    elif label:
        print(f"        (lab {outcome.lab_id}'s test: probably collateral too.)")
    if outcome.message == _said["message"]:
        print("        (the same reason as above)")
        return
    _said["message"] = outcome.message
    for line in outcome.message.splitlines():
        print(f"        {line}")
    if verbose and outcome.trace:
        for line in outcome.trace.rstrip().splitlines():
            print(f"        | {line}")


def _remember(harness: Path, lab_id: str, report):
    """Record the result for the progress view when the file sits in a student's lab folder."""
    try:
        from lab.desk import course
        course.record_check_in(harness.resolve().parent, lab_id, report.passed, report.failed)
    except Exception as exc:  # the progress view is a convenience; the check stands
        print(f"(progress not recorded: {exc})")


if __name__ == "__main__":
    sys.exit(main())
