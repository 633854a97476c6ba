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

from lab.check import child, suite, turns
from lab.check.importer import import_harness


class ReferenceFailed(AssertionError):
    """A reference solution failed a test of the kit: the kit itself is wrong."""


def record(harness_path, files: list[suite.TestFile], *, budget=turns.BUDGET) -> dict:
    """{test id: {"checks": [encoded values], "why": [...]}} for every test of `files`, run in
    this process against the harness at `harness_path`."""
    previous = sys.modules.get("harness")
    observed: dict = {}
    current: dict = {}
    failures: list[str] = []

    def emit(message):
        kind = message["event"]
        if kind == "start":
            current.clear()
            current.update(id=message["id"], checks=[], why=[])
        elif kind == "check":
            current["checks"].append(message["value"])
            current["why"].append(message["why"])
        elif kind == "end":
            if message["error"]:
                failures.append(f"{message['id']}: {message['error']}\n{message.get('trace') or ''}")
            observed[current["id"]] = {"checks": current["checks"], "why": current["why"]}

    try:
        import_harness(harness_path)
        with contextlib.redirect_stdout(io.StringIO()):
            child.run_tests(files, [f.source for f in files], emit, budget=budget,
                            harness_path=str(harness_path))
    finally:
        if previous is not None:
            sys.modules["harness"] = previous
        else:
            sys.modules.pop("harness", None)
    if failures:
        raise ReferenceFailed(f"{harness_path} fails the kit's own tests:\n" + "\n".join(failures))
    return observed
