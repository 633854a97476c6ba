"""The job the runner sends the process that runs harness.py, as types: one line of JSON each.

The runner (lab/check/runner.py, through lab/check/process.py's Child) writes a Header, then
for each session a Run and one Source per test file; the child (lab/check/child.py) reads them
in that order. `encode` and each type's `from_dict` are the only places a job's line is made
or read, so a field is added here once and both sides see it typed. The practice check's
stand-in for a child (process.InProcess) is handed the same messages without the JSON.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Union


@dataclass(frozen=True)
class Header:
    """Who to import and how to run: the run's `secret` (which opens every report line), the
    harness.py to import, the turn `budget` of a test (None: turns.BUDGET), seconds between
    heartbeats (`beat`; None or 0: none), and the `seed` the tests draw their cases under."""
    secret: str
    harness: str
    seed: int
    budget: int | None = None
    beat: float | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Header":
        return cls(str(data["secret"]), str(data["harness"]), int(data["seed"]),
                   data.get("budget"), data.get("beat"))


@dataclass(frozen=True)
class TestFile:
    """A test file of the run: its lab (None: an instructor's) and where it was read from."""
    lab_id: str | None
    path: str

    __test__ = False  # not a pytest class, whatever its name


@dataclass(frozen=True)
class Run:
    """Where to start: the `start`-th test of the first file, and every file from there on."""
    start: int
    files: tuple[TestFile, ...]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Run":
        return cls(int(data["start"]), tuple(TestFile(f["lab_id"], str(f["path"]))
                                             for f in data["files"]))


@dataclass(frozen=True)
class Source:
    """One test file's code, its wanted values taken out (lab/check/suite.py's blind)."""
    source: str

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Source":
        return cls(str(data["source"]))


Message = Union[Header, Run, Source]


def encode(message: Message) -> bytes:
    """The message as one line of JSON, with its line end."""
    return json.dumps(asdict(message)).encode() + b"\n"
