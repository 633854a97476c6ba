"""Each wrong design of the catalogue (tools/wrong_designs.py), checked once a session on its own
lab's tests by both of the checker's paths: in a child, as lab_check.py checks it, and in this
process, as the practice check does.

Two tests read these runs: tests/authoring/test_wrong_designs.py (the design fails its lab and
names the rule) and tests/check/test_practice.py (the two paths give the same verdicts). One
pair of runs serves both, and its halves share the machine's cores: the child's run waits on
its process in a thread while the practice check runs here. The turn budgets count turns, not
seconds, so running the two at once changes no verdict.
"""
from __future__ import annotations

import concurrent.futures
import tempfile
from dataclasses import dataclass
from pathlib import Path

from lab.check import runner, suite
from tools import wrong_designs


@dataclass(frozen=True)
class Runs:
    checked: runner.Report  # lab_check.py's path: the tests in a child process
    practised: runner.Report  # the practice check's path: the tests in this process


_runs: dict[str, Runs] = {}


def runs(design: wrong_designs.Wrong) -> Runs:
    """Both paths' reports on `design`, applied to its lab's reference, checked by that lab's
    own tests: the ones that teach the rule it breaks."""
    if design.id not in _runs:
        with tempfile.TemporaryDirectory() as folder, \
                concurrent.futures.ThreadPoolExecutor(1) as pool:
            path = Path(folder) / "harness.py"
            path.write_text(wrong_designs.harness(design), encoding="utf-8")
            files = suite.of_lab(design.lab, cumulative_=False)
            expected = runner.expected_for(files)
            checked = pool.submit(runner.run, path, files, expected)
            practised = runner.run(path, files, expected, in_process=True)
            _runs[design.id] = Runs(checked.result(), practised)
    return _runs[design.id]
