"""How a checked value travels out of the student's process: one canonical line of JSON.

Two runs agree on a check exactly when their encodings are equal, so the encoding must not
depend on dict order or on object identity. Tuples travel as lists. A value JSON cannot hold
(a coroutine that was never awaited, say) is sent as {"$repr": ...} with the memory address
removed: it cannot equal anything the reference produced, and its text tells the student what
they handed back.
"""
import json
import re

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


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


def difference(wanted: str, found: str) -> str | None:
    """Where two encoded lists first part ways, as a line for a message, or None when they
    are not both lists: long values are cut in messages, and the difference may be past the cut."""
    try:
        a, b = json.loads(wanted), json.loads(found)
    except ValueError:
        return None
    if not (isinstance(a, list) and isinstance(b, list)):
        return None
    for i, (x, y) in enumerate(zip(a, b)):
        if encode(x) != encode(y):  # not ==, for which True, 1 and 1.0 are the same
            return f"first difference, at item {i}: expected {encode(x)}, found {encode(y)}"
    if len(a) != len(b):
        return f"expected {len(a)} items, found {len(b)}"
    return None
