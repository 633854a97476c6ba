"""How pytest-xdist hands the suite to its workers: a file at a time (`--dist loadfile`, set in
pyproject.toml, so a module's fixtures are made once), except the files whose work is a lab's
at a time, which go a lab at a time.

Those files hold most of the suite's processor time (every catalogue design run through both of
the checker's paths and the grading bank, every bank recorded under twenty seeds a lab). Handed
out whole, each kept one worker busy long after the others ran dry. Their work is keyed by lab
and shared through tests/made_once.py, or made lazily per lab by a module fixture, so a worker
that takes one lab's tests of such a file makes only that lab's.
"""
from __future__ import annotations

import re

from xdist.scheduler import LoadFileScheduling

# The files split by lab: each parametrizes its heavy tests with the lab's id.
BY_LAB = frozenset({
    "tests/authoring/test_ledger.py",
    "tests/authoring/test_ledger_bank.py",
    "tests/authoring/test_wrong_designs.py",
    "tests/authoring/test_allowed_designs.py",
    "tests/check/test_practice.py",
    "tests/check/test_cumulative.py",
    "tests/grader/test_grader_bank_seeds.py",
})
# The files that read the same runs of each catalogue design (tests/check/catalogue_runs.py): a
# lab's tests of all three are one unit, so one worker makes each run and the others never
# wait on its lock for it.
CATALOGUE = frozenset({
    "tests/authoring/test_ledger.py",
    "tests/authoring/test_wrong_designs.py",
    "tests/check/test_practice.py",
})
# The files whose tests each go alone: each of their few tests is long and makes what it needs
# itself, so two workers can share a file's minutes.
BY_TEST = frozenset({
    "tests/browser/test_figures_drawn.py",
})
# A lab id in a test's parameters, first or after a seed: "[7.2 rule 1: ...]", "[13.1: ...]",
# "[23-5.1]".
_LAB = re.compile(r"[\[-](\d{1,2}\.\d)(?=[\]\s:-])")


def scope(nodeid: str) -> str:
    """The unit of work a test belongs to: its file, or its file and lab for a file of BY_LAB
    ("catalogue" and the lab for the files of CATALOGUE), a test of such a file with no lab in
    its parameters staying with its file's unit; or the test alone, for a file of BY_TEST."""
    path = nodeid.split("::", 1)[0]
    if path in BY_TEST:
        return nodeid
    found = _LAB.search(nodeid) if path in BY_LAB else None
    if found is None:
        return path
    return f"{'catalogue' if path in CATALOGUE else path}::{found.group(1)}"


def first(unit: str, tests: int) -> tuple[bool, int]:
    """The order units are handed out in, as a sort key: the grader's files first, whose few
    tests each grade a class or bundle (the slowest tests of the suite, a tail if left last),
    then the rest, most tests first, so that the run ends on small units."""
    return (not unit.startswith("tests/grader/"), -tests)


class ByFileOrLab(LoadFileScheduling):
    """LoadFileScheduling with the units of `scope`, handed out in the order of `first`."""

    _ordered = False

    def _split_scope(self, nodeid: str) -> str:
        return scope(nodeid)

    def _assign_work_unit(self, node) -> None:
        if not self._ordered:  # the first call: the queue is whole, and nothing is handed out
            self._ordered = True
            units = sorted(self.workqueue.items(), key=lambda unit: first(unit[0], len(unit[1])))
            self.workqueue.clear()
            self.workqueue.update(units)
        super()._assign_work_unit(node)
