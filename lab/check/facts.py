"""What the engine decided about a test, as types: why it stopped and what its judge found.

A fact crosses boundaries (the child's report channel, the runner, a grade row, grades.json and
the journal) as this dataclass, or as the dict `to_dict` makes of it and `from_dict` reads
back; the words a student reads are made from it at the edge, by lab/check/words.py, and
nothing reads a fact back out of those words. So a sentence can be reworded, or translated,
without changing a verdict, a piece of advice, a grader's grouping or the class page.

Each fact names itself on the wire by its `fact` tag, as a report names itself by its event.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, fields
from typing import Any, Callable, ClassVar, Literal, Union

# The fakes of lab/world that stop a test when their script runs out (lab/world/errors.py's
# ScriptExhausted carries which).
Fake = Literal["model", "person", "provider"]


@dataclass(frozen=True)
class MissingName:
    """A test used a name harness.py does not define: `name` as the test reached it
    ("run_agent", or "Harness.steer" for a class's), and `lab`, the id of the lab that adds
    it, when a lab of this kit does."""
    name: str
    lab: str | None = None
    fact: ClassVar[str] = "missing_name"


@dataclass(frozen=True)
class RanOut:
    """A fake the test scripted was asked once more than its script holds: request (or
    question) `number` of the `fake`, whose script holds `scripted`; `asked` is what it was
    asked, as the fake shows it. `function` and `line` are where in harness.py the exception
    escaped from, when it did."""
    fake: Fake
    number: int
    scripted: int
    asked: str
    function: str | None = None
    line: int | None = None
    fact: ClassVar[str] = "ran_out"


@dataclass(frozen=True)
class Raised:
    """An exception escaped a test from inside harness.py: `what` it was ("KeyError('x')"),
    raised in `function` at `line` of harness.py."""
    function: str
    line: int | None
    what: str
    fact: ClassVar[str] = "raised"


@dataclass(frozen=True)
class Exited:
    """harness.py called sys.exit; `code` is the code it gave, as Python writes it (repr)."""
    code: str
    fact: ClassVar[str] = "exited"


@dataclass(frozen=True)
class Unloadable:
    """The tests file `stem` could not be loaded: `what` it raised."""
    stem: str
    what: str
    fact: ClassVar[str] = "unloadable"


@dataclass(frozen=True)
class KitRaised:
    """One of the kit's own exceptions (a fake's, the world's) escaped a test from outside
    harness.py: its type's name and its message."""
    kind: str
    message: str
    fact: ClassVar[str] = "kit_raised"


@dataclass(frozen=True)
class Escaped:
    """Any other exception escaped a test from outside harness.py: `what` it was."""
    what: str
    fact: ClassVar[str] = "escaped"


@dataclass(frozen=True)
class PartedAt:
    """Two lists first part at item `at` (from 1) of the `of` wanted, which the rule names
    `label` where it names its items: the wanted item and the found one, encoded (None where the
    wanted item is an exception raised and nothing was)."""
    at: int
    of: int
    wanted: str
    found: str | None
    label: str | None = None
    fact: ClassVar[str] = "parted_at"


@dataclass(frozen=True)
class OtherLength:
    """Two lists alike as far as the shorter goes: `wanted` items were wanted, `found` found."""
    wanted: int
    found: int
    fact: ClassVar[str] = "other_length"


@dataclass(frozen=True)
class OtherItems:
    """Two lists compared order aside: the wanted items `missing` and the found ones not
    wanted (`extra`), each encoded."""
    missing: tuple[str, ...]
    extra: tuple[str, ...]
    fact: ClassVar[str] = "other_items"


# Where a found value parts from the wanted one, as the kit's kinds of check find it
# (lab/check/observe.py); a kind a course adds may say it in its own words, a str.
Parted = Union[PartedAt, OtherLength, OtherItems]


@dataclass(frozen=True)
class Mismatch:
    """The `check`-th check (from 0) found another value than the reference's: both encoded
    (lab/check/observe.py, each cut at VALUE_CHARACTERS), the kind of check, its rule as the
    student is shown it, where the two part (observe.difference, or None), and `lacks`, the
    name of harness.py the found value says was missing (kit.raised's), if any."""
    check: int
    why: str
    wanted: str
    found: str
    kind: str = "equal"
    difference: Parted | str | None = None
    lacks: str | None = None
    fact: ClassVar[str] = "mismatch"


VALUE_CHARACTERS = 4000  # of a value a Mismatch keeps: grades.json holds one per failed test


@dataclass(frozen=True)
class Hung:
    """A guard stopped the test: `how` ("turns": out of the event loop's turns; "spun": processor
    time without a turn; "held": the wall clock; "overran": the whole check's time), at the
    place in harness.py the child was seen at (lab/check/hangs.py's Place, flattened)."""
    how: Literal["turns", "spun", "held", "overran"]
    function: str | None = None
    line: int | None = None
    async_code: bool = False
    fact: ClassVar[str] = "hung"


@dataclass(frozen=True)
class Stalled:
    """The child's own guard stopped the test, or the import (protocol.Ended's stop "turns" or
    "spun"; ImportFailed): `how` it went on without ending. "waiting": it waited for what can
    never happen, with nothing else left to run; "turns": it used its budget of `count` turns of
    the event loop; "rounds" (the practice check's guard): harness.py's loops went `count` rounds
    within one turn; "seconds": it held the process `seconds` within one turn. The place is the
    report's, as for Hung, which the runner makes of it: the child cannot send a Hung."""
    how: Literal["waiting", "turns", "rounds", "seconds"]
    count: int = 0
    seconds: float = 0.0
    fact: ClassVar[str] = "stalled"


@dataclass(frozen=True)
class Forged:
    """The report channel carried what the child did not write (`closed`: it was closed)."""
    closed: bool = False
    fact: ClassVar[str] = "forged"


@dataclass(frozen=True)
class NotRun:
    """The test was not run: the whole check's `seconds` ran out (`hangs` is 0), or harness.py
    hung `hangs` tests in a row at one place (flattened as in Hung)."""
    seconds: float = 0.0
    hangs: int = 0
    function: str | None = None
    line: int | None = None
    async_code: bool = False
    fact: ClassVar[str] = "not_run"


Cause = Union[MissingName, RanOut, Raised, Exited, Unloadable, KitRaised, Escaped, Stalled,
              Mismatch, Hung, Forged, NotRun]
# What the child reports of a test that stopped, or an import that failed (protocol.Ended's
# cause, ImportFailed's)
Stopped = Union[MissingName, RanOut, Raised, Exited, Unloadable, KitRaised, Escaped, Stalled]
KINDS: dict[str, type[Any]] = {kind.fact: kind for kind in typing.get_args(Cause)}
PARTS: dict[str, type[Any]] = {kind.fact: kind for kind in typing.get_args(Parted)}
KNOWN = typing.get_args(Cause)  # for isinstance: every kind of fact


class Unreadable(ValueError):
    """Data that is not a fact: an unknown tag, or a field missing or of the wrong type."""


def to_dict(cause: Cause | Parted) -> dict[str, Any]:
    """The fact as JSON-ready data, its tag first (a fact within it, and a tuple, as well)."""
    return {"fact": cause.fact, **{f.name: _ready(getattr(cause, f.name)) for f in fields(cause)}}


def _ready(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_ready(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_dict(value)  # type: ignore[arg-type]
    return value


def from_dict(data: object) -> Cause:
    """The fact `to_dict` made; Unreadable for anything else."""
    made: Cause = _made(data, KINDS)
    return made


def _made(data: object, kinds: dict[str, type[Any]]) -> Any:
    """The fact of one of `kinds` that to_dict made of `data`; Unreadable for anything else."""
    if not isinstance(data, dict) or data.get("fact") not in kinds:
        raise Unreadable(f"not a fact: {data!r}"[:200])
    kind = kinds[data["fact"]]
    values = {k: v for k, v in data.items() if k != "fact"}
    hints = typing.get_type_hints(kind)
    for name, value in values.items():
        if name not in hints or not fits(value, hints[name]):
            raise Unreadable(f"{kind.fact}: {name} is {value!r}"[:200])
        if isinstance(value, dict):
            values[name] = _made(value, PARTS)
        elif isinstance(value, list):
            values[name] = tuple(value)
    try:
        return kind(**values)
    except TypeError as missing:
        raise Unreadable(str(missing)) from None


def fits(value: object, hint: object) -> bool:
    """Whether a JSON value fits a field's type: str, int, float, bool, None, a Literal, a
    fact, or a union of them. lab/check/protocol.py reads its reports' fields with it too."""
    origin = typing.get_origin(hint)
    if origin is tuple:  # a tuple of one type, as JSON's list
        return isinstance(value, (list, tuple)) and all(fits(item, typing.get_args(hint)[0])
                                                         for item in value)
    if origin is Literal:
        return isinstance(value, str) and value in typing.get_args(hint)
    if origin is Union or origin is types.UnionType:
        return any(fits(value, arm) for arm in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return isinstance(value, dict) and value.get("fact") == getattr(hint, "fact", None)
    return isinstance(hint, type) and isinstance(value, hint)


def missing_name(cause: Cause | None) -> str | None:
    """The name of harness.py whose absence stopped the test or showed in its failed check."""
    if isinstance(cause, MissingName):
        return cause.name
    if isinstance(cause, Mismatch):
        return cause.lacks
    return None


def mapped(cause: Cause | None, change: Callable[[str], str]) -> Cause | None:
    """The fact with `change` applied to each of its texts, those of a fact within it too: the
    grader takes the scratch folder's name out of a fact as it does out of a message
    (grader/batch.py)."""
    if cause is None:
        return None
    changed: Cause = _changed(cause, change)
    return changed


def _changed(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, tuple):
        return tuple(_changed(item, change) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: _changed(getattr(value, f.name), change)
                                             for f in fields(value)})
    return value
