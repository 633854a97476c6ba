"""The reference's observations: what every check found when the tests ran on a solution.

The verdict on a student's run compares its checks with these (lab/check/verdict.py). They are made
by running the tests in this process against a reference solution with their wanted values
in place, so a check that does not hold on the reference stops the recording: the kit never
records a reference that fails its own tests. tools/make.py writes them to
starters/*/lab*/expected.json, and the kit's tests check that every later lab's solution makes
exactly the same observations.
"""
from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterable

from lab.check import child, seeds, suite, turns
from lab.check.importer import import_harness
from lab.check.protocol import Ended, Observed, Started
from lab.check.verdict import expectation


class ReferenceFailed(AssertionError):
    """A reference solution failed a test it was recorded on: the test or the reference is
    wrong. `failures` holds each failed test's id, error and trace, so that a caller whose
    tests are not the kit's (an instructor's hidden ones) can say whose test it was."""

    def __init__(self, message: str, failures: Iterable[str] = ()):
        super().__init__(message)
        self.failures = list(failures)


def record(harness_path, files: list[suite.TestFile], *, budget=turns.BUDGET,
           seed: int = seeds.PUBLIC) -> seeds.Expected:
    """{test id: expectation} for every test of `files` (verdict.expectation: the encoded
    values, the rules, and the kinds of check other than "equal"), run in this process against
    the harness at `harness_path`, each test drawing its cases under `seed`, which the
    result carries."""
    previous = sys.modules.get("harness")
    observed = seeds.Expected(seed=seed)
    current: dict = {}
    failures: list[str] = []

    def emit(report):
        if isinstance(report, Started):
            current.clear()
            current.update(id=report.id, checks=[], why=[], kinds=[], params=[])
        elif isinstance(report, Observed):
            current["checks"].append(report.value)
            current["why"].append(report.why)
            current["kinds"].append(report.check)
            current["params"].append(report.params)
        elif isinstance(report, Ended):
            if report.error:
                failures.append(f"{report.id}: {report.error}\n{report.trace or ''}")
            observed[current["id"]] = expectation(current["checks"], current["why"],
                                                  current["kinds"], current["params"])

    try:
        import_harness(harness_path)
        with contextlib.redirect_stdout(io.StringIO()):
            child.run_tests(files, [f.source for f in files], emit, budget=budget,
                            harness_path=str(harness_path), seed=seed)
    finally:
        if previous is not None:
            sys.modules["harness"] = previous
        else:
            sys.modules.pop("harness", None)
    if failures:
        raise ReferenceFailed(f"{harness_path} fails the kit's own tests:\n" + "\n".join(failures),
                              failures)
    return observed
