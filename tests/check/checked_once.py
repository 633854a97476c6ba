"""A checker's report on a file, made once per test run: several tests check the same starter,
solution or catalogue design on the same tests (the cumulative promise, the practice check's
agreement, the catalogue), and under xdist each worker would run it again.

The key is what decides the report: the file's text and path (a report names its harness),
the tests' texts, the expected observations and which path ran it.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab.check import runner, suite
from tests import made_once


def report(factory: pytest.TempPathFactory, harness: Path, files: list[suite.TestFile],
           expected: dict | None = None, *, in_process: bool = False) -> runner.Report:
    """runner.run's report on `harness` checked by `files` against `expected` (the kit's
    expected.json values when None), in a child or, with `in_process`, in this process."""
    harness = Path(harness).resolve()
    if expected is None:
        expected = runner.expected_for(files)
    key = made_once.key_of(
        "report", str(harness), harness.read_text(encoding="utf-8"),
        [(f.lab_id, str(f.path), f.source) for f in files],
        json.dumps(expected, sort_keys=True, default=str), getattr(expected, "seed", None),
        in_process)
    return made_once.value(factory, f"report-{key}",
                           lambda _: runner.run(harness, files, expected, in_process=in_process))
