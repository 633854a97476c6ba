"""Each wrong design of the catalogue (tools/wrong_designs.py), checked once a test run on its
own lab's tests in a child, as lab_check.py checks it; then, for the practice check's test, on
the tests whose verdicts the design changes (the ones lab_check.py did not pass), in this
process, as the practice check runs them. Where the practice check's verdicts there are not the
child's, the child runs those tests again from a fresh import too, since a design that keeps
state in its module (queues shared by every harness) gives verdicts that follow the tests run
before them, and only the same tests run the same way can tell the two paths apart. On every
other test the design runs as the reference does, and the practice check is held to
lab_check.py's verdicts there by test_practice.py's run of each lab's solution.

The child's run is what tests/authoring/test_wrong_designs.py (the design fails its lab and
names the rule) and test_ledger.py (it fails a test of that rule) read. The practice path,
whose spin guard traces every line of harness.py, costs about as much again as the child's for
each of some 2,400 designs, so tests/check/test_practice.py compares the two paths on a third
of the designs a run (tests/run_share.py: runs in a row take each third in turn, and a run
with randomly off takes every design); each design's child run is made for every run.

One set of runs serves every test that reads it, whichever worker asks first
(tests/made_once.py). The practice path runs after the child's: Python 3.11's parser keeps one
recursion count for every thread, so a child's run judged in a thread while the practice check
compiles here can fail with "AST constructor recursion depth mismatch"; the other workers keep
the cores busy meanwhile.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from grader import bank
from lab.check import runner, suite
from tests import made_once
from tools import wrong_designs


@dataclass(frozen=True)
class Runs:
    checked: runner.Report  # lab_check.py's path: the lab's tests in a child process
    # The tests `checked` did not pass, in the file's order, in this process as the practice
    # check runs them, from a fresh import.
    practised: runner.Report
    # The same tests in a child from a fresh import, where `practised` disagrees with `checked`
    # on them (a design with state in its module, or the two paths parting); None where it
    # agrees, since then the practice check gave lab_check.py's own verdicts.
    changed_checked: runner.Report | None

    def checker_verdicts(self) -> list[tuple[str, str]]:
        """lab_check.py's verdicts on the tests `practised` ran, as `practised` orders them: the
        child's run of those tests alone where there is one, else the whole lab's run's."""
        if self.changed_checked is not None:
            return verdicts(self.changed_checked)
        return _in_order_of(self.checked, self.practised)


def verdicts(report: runner.Report) -> list[tuple[str, str]]:
    """Each test's verdict in a report, in its order: what the two paths are compared by."""
    return [(o.id, o.verdict) for o in report.outcomes]


def _in_order_of(whole: runner.Report, part: runner.Report) -> list[tuple[str, str]]:
    """`whole`'s verdicts on the tests `part` ran, in `part`'s order."""
    found = dict(verdicts(whole))
    return [(o.id, found.get(o.id, "not run")) for o in part.outcomes]


def _cut(folder: Path, files: list[suite.TestFile], names: set[str]) -> list[suite.TestFile]:
    """`files` holding only the tests `names`, written under `folder`: the same file names and
    lab, so the same test ids and the same expected observations."""
    folder.mkdir(exist_ok=True)
    cut = []
    for file in files:
        kept, source = folder / file.path.name, bank._keeping(file.source, names)
        kept.write_text(source, encoding="utf-8")
        cut.append(suite.TestFile(file.lab_id, kept, source))
    return cut


def checked(factory: pytest.TempPathFactory, design: wrong_designs.Wrong) -> runner.Report:
    """lab_check.py's report on `design`, applied to its lab's reference, checked by that
    lab's own tests: the ones that teach the rule it breaks."""
    text = wrong_designs.harness(design)

    def make(folder: Path) -> runner.Report:
        path = folder / "harness.py"
        path.write_text(text, encoding="utf-8")
        files = suite.of_lab(design.lab, cumulative_=False)
        return runner.run(path, files, runner.expected_for(files))

    return made_once.value(factory, f"checked-{made_once.key_of(design.id, text)}", make)


def runs(factory: pytest.TempPathFactory, design: wrong_designs.Wrong) -> Runs:
    """Both paths' reports on `design`: `checked`'s, and the practice check's on the tests
    that report did not pass."""
    text = wrong_designs.harness(design)
    report = checked(factory, design)

    def make(folder: Path) -> Runs:
        path = folder / "harness.py"
        path.write_text(text, encoding="utf-8")
        files = suite.of_lab(design.lab, cumulative_=False)
        expected = runner.expected_for(files)
        changed = {o.id.partition("::")[2] for o in report.outcomes if o.verdict != "pass"}
        cut = _cut(folder / "changed", files, changed)
        practised = runner.run(path, cut, expected, in_process=True)
        agree = verdicts(practised) == _in_order_of(report, practised)
        return Runs(report, practised, None if agree else runner.run(path, cut, expected))

    return made_once.value(factory, f"practised-{made_once.key_of(design.id, text)}", make)
