"""How a checked value travels out of the student's process, and when two agree.

A value travels as one canonical line of JSON. Two runs agree on an "equal" check exactly when
their encodings are equal, so the encoding must not depend on dict order or on object identity.
Tuples travel as lists. A value JSON cannot hold (a coroutine that was never awaited, say) is
sent as {"$repr": ...} with the memory address removed: it cannot equal anything the reference
produced, and its text tells the student what they handed back.

Each kind of check is one entry of KINDS: how a found value is held against the wanted one.
The trusted run (lab/check/kit.py) and the judge (lab/check/verdict.py) both ask here, so a new
kind of check is a new entry, and the rest of the engine carries its name.
"""
import json
import re
from dataclasses import dataclass
from typing import Callable, Literal

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

CheckKind = Literal[
    "equal",       # the same value
    "same_items",  # the same items, in any order (a list read as a multiset)
]


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


def _item(wanted, found) -> str:
    """A found item beside its wanted one: "nothing raised" where the reference's raised."""
    if found is None and isinstance(wanted, str) and RAISED.match(wanted):
        return "nothing raised"
    return encode(found)


def _first_difference(wanted: str, found: str, labels=None) -> str | None:
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
            label = f" ({labels[i]})" if named else ""
            return (f"first difference, at item {i + 1} of {len(a)}{label}: expected "
                    f"{encode(x)}, found {_item(x, y)}")
    if len(a) != len(b):
        return f"expected {len(a)} items, found {len(b)}"
    return None


def _items_difference(wanted: str, found: str, labels=None) -> str | None:
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
    said = [f"missing {', '.join(missing)}" if missing else "",
            f"not wanted {', '.join(extra)}" if extra else ""]
    return "in any order: " + "; ".join(x for x in said if x) if any(said) else None


@dataclass(frozen=True)
class _Kind:
    agrees: Callable[[str, str], bool]  # (wanted, found), both encoded
    # (wanted, found, the items' labels or None): a line for the message, when it helps
    difference: Callable[[str, str, list[str] | None], str | None]


KINDS: dict[str, _Kind] = {
    "equal": _Kind(lambda wanted, found: wanted == found, _first_difference),
    "same_items": _Kind(_same_items, _items_difference),
}


def agrees(wanted: str, found: str, kind: str = "equal") -> bool:
    """Whether the encoded `found` passes a check of `kind` whose reference found `wanted`."""
    return KINDS[kind].agrees(wanted, found)


def difference(wanted: str, found: str, kind: str = "equal",
               labels: list[str] | None = None) -> str | None:
    """Where `found` parts from `wanted`, as a line for a failure's message, or None: long
    values are cut in messages, and the difference may be past the cut. `labels` name a list's
    items, where the check's rule names them (verdict.item_labels)."""
    return KINDS[kind].difference(wanted, found, labels)
