"""How a checked value travels out of the student's process, and when two agree.

A value travels as one canonical line of JSON. Two runs agree on an "equal" check exactly when
their encodings are equal, so the encoding must not depend on dict order or on object identity.
Tuples travel as lists. A value JSON cannot hold (a coroutine that was never awaited, say) is
sent as {"$repr": ...} with the memory address removed: it cannot equal anything the reference
produced, and its text tells the student what they handed back.

Each kind of check is one entry of KINDS, a Kind: how a found value is held against the wanted
one, and the parameters it takes. The trusted run (lab/check/kit.py) and the judge
(lab/check/verdict.py) both ask here, so a new kind of check is one `register(Kind(...))`, in
any module, and the rest of the engine carries its name and its parameters: a test makes one
with t.expect_kind(name, found, wanted, why, **parameters), the reference's record keeps both
(lab/check/seeds.py's Expectation), and the judge holds a student's found value against the
reference's under the reference's parameters. A kind registered outside this module is named
"module:name", so that a process that has not imported its module (a grader's worker) finds it
by importing that module, named by the trusted record, never by the student's process.
"""
import importlib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from lab.check.facts import OtherItems, OtherLength, Parted, PartedAt

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

# A kind of check's name: "equal", "same_items", or "module:name" for one registered elsewhere.
CheckKind = str
Params = dict[str, Any]  # a check's parameters: JSON values, by name


def _plain(value):
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {k: _plain(v) for k, v in value.items()}
    return {"$repr": _ADDRESS.sub("", repr(value))[:500]}


def encode(value) -> str:
    """The canonical text of `value`."""
    return json.dumps(_plain(value), sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def _items(encoded: str) -> list[str] | None:
    """An encoded list's items, each encoded, in a fixed order; None when it is not a list."""
    try:
        value = json.loads(encoded)
    except ValueError:
        return None
    return sorted(encode(item) for item in value) if isinstance(value, list) else None


def _same_items(wanted: str, found: str) -> bool:
    items = _items(wanted)
    return items is not None and items == _items(found)


RAISED = re.compile(r"^[A-Za-z_][\w.]*: ")  # kit.raised()'s "ValueError: path must be a string"


def _item(wanted, found) -> str | None:
    """A found item beside its wanted one, encoded; None for nothing, where the reference's
    raised."""
    if found is None and isinstance(wanted, str) and RAISED.match(wanted):
        return None
    return encode(found)


def _first_difference(wanted: str, found: str, labels=None) -> Parted | None:
    """Where two encoded lists first part ways, or None when they are not both lists. Items are
    counted from 1, and named by `labels` when there is one for each wanted item."""
    try:
        a, b = json.loads(wanted), json.loads(found)
    except ValueError:
        return None
    if not (isinstance(a, list) and isinstance(b, list)):
        return None
    named = labels is not None and len(labels) == len(a)
    for i, (x, y) in enumerate(zip(a, b)):
        if encode(x) != encode(y):  # not ==, for which True, 1 and 1.0 are the same
            return PartedAt(i + 1, len(a), encode(x), _item(x, y), labels[i] if named else None)
    if len(a) != len(b):
        return OtherLength(len(a), len(b))
    return None


def _items_difference(wanted: str, found: str, labels=None) -> Parted | None:
    """Which items are missing and which are extra, order aside; None when not both lists."""
    a, b = _items(wanted), _items(found)
    if a is None or b is None:
        return None
    missing, extra = list(a), []
    for item in b:
        if item in missing:
            missing.remove(item)
        else:
            extra.append(item)
    return OtherItems(tuple(missing), tuple(extra)) if missing or extra else None


@dataclass(frozen=True)
class Kind:
    """A kind of check. `agrees(wanted, found, params)` says whether a found value passes,
    both encoded, under the check's parameters; `difference(wanted, found, labels, params)`
    says where it parts from the wanted one (or None): a fact (lab/check/facts.py's Parted),
    or a line of a course's own words for a kind it adds; `params`
    names the parameters t.expect_kind takes for it, each required."""
    name: str
    agrees: Callable[[str, str, Params], bool]
    difference: Callable[[str, str, "list[str] | None", Params], "Parted | str | None"] = \
        lambda wanted, found, labels, params: None
    params: tuple[str, ...] = field(default=())


KINDS: dict[str, Kind] = {}


def register(kind: Kind, module: str | None = None) -> str:
    """Add a kind of check and return the name tests use for it: its own name when this module
    registers it, else "module:name", `module` being the registering module's __name__ (by
    default the one that defines kind.agrees)."""
    home = module or getattr(kind.agrees, "__module__", __name__)
    key = kind.name if home == __name__ else f"{home}:{kind.name}"
    KINDS[key] = kind
    return key


def kind_of(key: str) -> Kind:
    """The kind of check named `key`, importing the module a "module:name" names if it is not
    registered yet. KeyError for a name no module registers."""
    if key not in KINDS and ":" in key:
        importlib.import_module(key.partition(":")[0])
    return KINDS[key]


def encode_params(params: Params | None) -> str:
    """A check's parameters as the report and the record carry them: canonical JSON, or "" for
    none, so that a record of checks without parameters reads as it always has."""
    return encode(params) if params else ""


def decode_params(text: str) -> Params:
    value = json.loads(text) if text else {}
    return value if isinstance(value, dict) else {}


def agrees(wanted: str, found: str, kind: str = "equal", params: Params | None = None) -> bool:
    """Whether the encoded `found` passes a check of `kind` whose reference found `wanted`."""
    return kind_of(kind).agrees(wanted, found, params or {})


def difference(wanted: str, found: str, kind: str = "equal",
               labels: list[str] | None = None,
               params: Params | None = None) -> Parted | str | None:
    """Where `found` parts from `wanted`, for a failure's message (words_values.parted), or None: long
    values are cut in messages, and the difference may be past the cut. `labels` name a list's
    items, where the check's rule names them (lab/check/rules.py's Rule.items)."""
    return kind_of(kind).difference(wanted, found, labels, params or {})


register(Kind("equal", lambda wanted, found, params: wanted == found,
              lambda wanted, found, labels, params: _first_difference(wanted, found, labels)))
register(Kind("same_items", lambda wanted, found, params: _same_items(wanted, found),
              lambda wanted, found, labels, params: _items_difference(wanted, found, labels)))
