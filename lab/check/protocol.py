"""The report channel, as types: what the process running harness.py says, and how it travels.

The child (lab/check/child.py) writes these reports, the runner (lab/check/runner.py) reads
them and decides, the recorder (lab/check/record.py) keeps a reference's, and the judge
(lab/check/verdict.py) interprets the observations. Each is a frozen dataclass whose `event`
names it on the wire; `encode` and `decode` are the only places a report becomes JSON or comes
back. A line that does not decode to one of these is not something the child's own code
writes, so the runner treats it as forged.

Time never travels here: a report says what happened, in order; the runner keeps the clock.
"""
from __future__ import annotations

import json
import typing
from dataclasses import dataclass, fields
from typing import ClassVar, Literal, Union

from lab.check import facts
from lab.check.facts import Stopped
from lab.check.hangs import Place
from lab.check.observe import CheckKind

# Why a test ended without its verdict being up to its checks alone.
Stop = Literal[
    "turns",      # out of turns, or waiting for what can never happen: a timeout
    "spun",       # stopped by the practice check's spin guard (lab/check/spin.py): a timeout
    "check",      # a check failed in a trusted run, where the wanted value is known
    "exception",  # something escaped the test: its message is the student's
    "load",       # the test file itself could not be loaded
]


@dataclass(frozen=True)
class Importing:
    """harness.py is about to be imported."""
    event: ClassVar[Literal["import"]] = "import"


@dataclass(frozen=True)
class Imported:
    """harness.py imported; the tests come next."""
    event: ClassVar[Literal["imported"]] = "imported"


@dataclass(frozen=True)
class ImportFailed:
    """harness.py raised while importing, or a guard stopped it: `message` says what, in the
    course's terms, for a test's author; `cause` is why, as a fact, from which the runner says
    it to the student, and `detail` Python's own line for the exception, when one escaped."""
    message: str
    cause: Stopped | None = None
    detail: str = ""
    event: ClassVar[Literal["import_failed"]] = "import_failed"


@dataclass(frozen=True)
class Started:
    """The test `id` begins."""
    id: str
    event: ClassVar[Literal["start"]] = "start"


@dataclass(frozen=True)
class Observed:
    """One check of the running test: the value it found (encoded by lab/check/observe.py),
    the rule it states, and the kind of check that will compare it with the reference's."""
    value: str
    why: str
    check: CheckKind = "equal"
    lacks: str | None = None  # a name of harness.py the value says was missing (kit.raised)
    params: str = ""  # its parameters (observe.encode_params), for a kind that takes some
    event: ClassVar[Literal["check"]] = "check"


@dataclass(frozen=True)
class Ended:
    """The test `id` ended: cleanly, or with an error and why it stopped."""
    id: str
    error: str | None = None
    stop: Stop | None = None
    trace: str | None = None  # the traceback, when an exception escaped
    # Where harness.py was when a guard stopped the test ("spun"): lab/check/hangs.py's Place.
    function: str | None = None
    line: int | None = None
    async_code: bool = False
    # Why it stopped, as a fact (lab/check/facts.py), where the child knows one: `error` is
    # then its words for a test's author, and the runner says it to the student from this.
    cause: Stopped | None = None
    event: ClassVar[Literal["end"]] = "end"

    @property
    def place(self) -> Place | None:
        return Place(self.function, self.line, self.async_code) if self.stop == "spun" else None


@dataclass(frozen=True)
class Beat:
    """The child's heartbeat: turns its event loops have taken, its processor seconds, and
    where in harness.py its main thread is (lab/check/hangs.py's Place; no function when it is
    outside harness.py), so that a test stopped for hanging can be told where."""
    turns: int
    cpu: float
    function: str | None = None
    line: int | None = None
    async_code: bool = False
    event: ClassVar[Literal["beat"]] = "beat"

    @property
    def place(self) -> Place:
        return Place(self.function, self.line, self.async_code)


@dataclass(frozen=True)
class Done:
    """Every test sent to the child has ended."""
    event: ClassVar[Literal["done"]] = "done"


Report = Union[Importing, Imported, ImportFailed, Started, Observed, Ended, Beat, Done]
KINDS: dict[str, type[Report]] = {kind.event: kind for kind in typing.get_args(Report)}


# Each report's fields and their types, read once: a run decodes thousands of reports.
_FIELDS = {kind: {f.name: typing.get_type_hints(kind)[f.name] for f in fields(kind)}
           for kind in KINDS.values()}


class Malformed(ValueError):
    """A message that is not a report: an unknown event, or a field of the wrong type."""


def encode(report: Report) -> str:
    """The report as one line of JSON (without its line end)."""
    return json.dumps({"event": report.event,
                       **{f.name: _plain(getattr(report, f.name)) for f in fields(report)}})


def _plain(value: object) -> object:
    """A field's value as JSON holds it: a fact as its dict."""
    return facts.to_dict(value) if isinstance(value, facts.KNOWN) else value


def decode(text: str | bytes) -> Report:
    """The report a line of JSON holds; Malformed if it holds none, or anything more."""
    try:
        data = json.loads(text)
    except ValueError:
        raise Malformed("not JSON") from None
    if not isinstance(data, dict) or data.get("event") not in KINDS:
        raise Malformed("no known event")
    kind = KINDS[data.pop("event")]
    hints = _FIELDS[kind]
    if not set(data) <= set(hints):
        raise Malformed(f"{kind.event}: unknown fields {sorted(set(data) - set(hints))}")
    for name, value in data.items():
        if not facts.fits(value, hints[name]):
            raise Malformed(f"{kind.event}: {name} is {value!r}")
        if isinstance(value, dict):  # a fact: fits() has matched its tag to the field's
            try:
                data[name] = facts.from_dict(value)
            except facts.Unreadable as unreadable:
                raise Malformed(f"{kind.event}: {name}: {unreadable}") from None
    try:
        report: Report = kind(**data)
    except TypeError as missing:
        raise Malformed(str(missing)) from None
    return report
