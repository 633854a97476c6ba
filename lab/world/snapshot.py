"""A copy of what a harness sent or was handed, sharing nothing with the original.

The fake world keeps what it was sent as it was then, so that a test reads the request, not
what the record became later. Records are plain data (dicts, lists, strings, numbers), and a
run may send the model hundreds of requests, each carrying the whole record: copy.deepcopy,
which runs Python code for every object, made a 250-round run cost seconds, several times more
under the practice check's tracer. marshal copies plain data in C; it refuses anything else
(a class instance, a dict subclass), which copy.deepcopy then copies as before.
"""
from __future__ import annotations

import copy
import marshal


def snapshot(value):
    """A deep copy of `value`: the same types, the same sharing within it, none with `value`."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:  # not plain data, or nested too deep for marshal
        return copy.deepcopy(value)
