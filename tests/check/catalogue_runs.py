"""Each wrong design of the catalogue (tools/wrong_designs.py), checked once a test run on its
own lab's tests in a child, as lab_check.py checks it; then, on the tests whose verdicts the
design changes (the ones lab_check.py did not pass), by both of the checker's paths: in a
child again and in this process, as the practice check does. On every other test the design
runs as the reference does, and the practice check is held to lab_check.py's verdicts there by
test_practice.py's run of each lab's solution; the in-process path, whose spin guard traces every line of harness.py,
costs about twice the child's, so running it on the whole lab for each of some 1,600 designs
was a fifth of the README command's time.

Two tests read these runs: tests/authoring/test_wrong_designs.py (the design fails its lab and
names the rule) and tests/check/test_practice.py (the two paths give the same verdicts). One
set of runs serves both, whichever worker asks first (tests/made_once.py). The two run one
after the other: Python 3.11's parser keeps one recursion count for every thread, so a child's
run judged in a thread while the practice check compiles here can fail with "AST constructor
recursion depth mismatch"; the other workers keep the cores busy meanwhile.
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
    # The tests `checked` did not pass, in the file's order, by both paths again: in a child,
    # and in this process as the practice check runs them. Both run the same tests from a fresh
    # import, since a design that keeps state in its module (queues shared by every harness)
    # gives verdicts that follow the tests run before them.
    changed_checked: runner.Report
    practised: runner.Report


def runs(factory: pytest.TempPathFactory, design: wrong_designs.Wrong) -> Runs:
    """Both paths' reports on `design`, applied to its lab's reference, checked by that lab's
    own tests: the ones that teach the rule it breaks."""
    text = wrong_designs.harness(design)

    def make(folder: Path) -> Runs:
        path = folder / "harness.py"
        path.write_text(text, encoding="utf-8")
        files = suite.of_lab(design.lab, cumulative_=False)
        expected = runner.expected_for(files)
        checked = runner.run(path, files, expected)
        changed = {o.id.partition("::")[2] for o in checked.outcomes if o.verdict != "pass"}
        cut = []
        for file in files:  # the same file name and lab, so the same test ids
            kept, source = folder / "changed" / file.path.name, bank._keeping(file.source, changed)
            kept.parent.mkdir(exist_ok=True)
            kept.write_text(source, encoding="utf-8")
            cut.append(suite.TestFile(file.lab_id, kept, source))
        return Runs(checked, runner.run(path, cut, expected),
                    runner.run(path, cut, expected, in_process=True))

    return made_once.value(factory, f"design-{made_once.key_of(design.id, text)}", make)
