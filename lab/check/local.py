"""The local check: a lab's cumulative suite run against one harness.py, as a report.

`check()` decides and returns; it prints nothing and records nothing. Its callers say what it
found in the course's words (lab/check/lines.py) and keep the result where they keep results
(the desk's progress view), so the engine runs without the desk and the desk never reaches
back into a script.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lab.check import manifest, runner, seeds, spoken, suite
from lab.check.errors import NothingToCheck
from lab.check.problems import NamesNoLab, NoFile

# The checker's exit codes, as lab_check.py and `course check` return them.
ALL_PASSED, A_TEST_FAILED, NOTHING_RAN, INTERRUPTED = 0, 1, 2, 130


@dataclass(frozen=True)
class Chosen:
    """What a check will run: the lab, its cumulative test files, the student's copy of the
    lab's tests when it differs from the kit's (`differs`: the kit's are run, and the student
    is told), and the reference's observations of those tests (the expected.json files, read
    here once)."""
    lab: manifest.Lab
    files: list[suite.TestFile]
    differs: Path | None = None
    expected: seeds.Expected = field(default_factory=seeds.Expected)


@dataclass
class Checked:
    """A finished (or interrupted) check: its lab and the runner's report."""
    lab: manifest.Lab
    report: runner.Report = field(repr=False)
    interrupted: bool = False
    judged: bool = True  # False under a seed the kit has no reference record for

    @property
    def exit_code(self) -> int:
        """0 when every test passed (or, unjudged, when harness.py imported), 1 when one
        failed, 2 when no test could run (harness.py does not import), 130 when the student
        stopped it."""
        if self.interrupted:
            return INTERRUPTED
        if self.report.import_error is not None:
            return NOTHING_RAN
        return ALL_PASSED if self.report.failed == 0 or not self.judged else A_TEST_FAILED


def choose(harness: Path, tests: Path, lesson: int) -> Chosen:
    """The suite `lab_check --harness HARNESS --lesson LESSON TESTS` runs. Raises NothingToCheck
    when a file is missing or the tests file names no lab of this kit's lesson."""
    start = spoken.command("start", "LAB", quoted=False)
    if not Path(harness).is_file():
        raise NothingToCheck(NoFile("harness", str(harness), start))
    if not Path(tests).is_file():
        raise NothingToCheck(NoFile("tests", str(tests), start))
    files = suite.cumulative(Path(tests), lesson)
    own = files[-1]
    if own.lab_id is None:  # cumulative() names the lab of the file it is given
        raise NothingToCheck(NamesNoLab(str(tests)))
    lab = manifest.lab(own.lab_id)
    kit_copy, differs = lab.tests, None
    if kit_copy.exists() and own.source != kit_copy.read_text(encoding="utf-8"):
        differs = Path(tests)
        files[-1] = suite.TestFile(own.lab_id, kit_copy, kit_copy.read_text(encoding="utf-8"))
    return Chosen(lab, files, differs, runner.expected_for(files))


def check(harness: Path, chosen: Chosen, *, seconds: float = runner.Limits.seconds_per_test,
          practice: bool = False, on_outcome=None, seed: int | None = None) -> Checked:
    """Run `chosen` against `harness` and judge it; on_outcome(outcome) hears each verdict as it
    is decided. With `practice`, the tests run in this process (runner.run's `in_process`): the
    browser's check. Ctrl-C ends it early, with the verdicts decided so far.

    The tests draw their cases under the seed the kit's expected.json files record, or under
    `seed`: a student's kit holds no reference for any other, so a run under another seed is
    not judged (`judged` is False) and each outcome keeps what the file found at each check."""
    limits = runner.Limits(seconds_per_test=seconds)
    expected = chosen.expected
    judged = seed is None or seed == expected.seed
    if seed is not None and not judged:
        expected = seeds.Expected({}, seed)
    heard = runner.Report(str(harness))

    def hear(outcome):
        heard.outcomes.append(outcome)
        if on_outcome:
            on_outcome(outcome)
    try:
        report = runner.run(harness, chosen.files, expected, limits=limits, on_outcome=hear,
                            in_process=practice)
    except KeyboardInterrupt:  # the runner has stopped its child on the way out
        return Checked(chosen.lab, heard, interrupted=True, judged=judged)
    return Checked(chosen.lab, report, judged=judged)
