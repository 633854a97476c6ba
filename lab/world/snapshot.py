"""A copy of what a harness sent or was handed, sharing nothing with the original.

The fake world keeps what it was sent as it was then, so that a test reads the request, not
what the record became later. Records are plain data (dicts, lists, strings, numbers), and a
run may send the model hundreds of requests, each carrying the whole record: copy.deepcopy,
which runs Python code for every object, made a 250-round run cost seconds, several times more
under the practice check's tracer. marshal copies plain data in C; it refuses anything else
(a class instance, a dict subclass), which copy.deepcopy then copies as before.

A request's copy is mostly never read: a 250-round job records 250 requests whose views grow
to hundreds of messages, and its test looks at a few. `Kept` takes the copy's bytes when the
request is sent (marshal.dumps, the cheap half) and builds the copy the first time it is read,
so that job no longer pays for the square of its length in copies nobody reads.
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


class Kept:
    """`value` as it was when kept: `get()` returns the same deep copy each time it is asked,
    built on first use from bytes taken now. Nothing done to `value` later reaches it."""

    __slots__ = ("_bytes", "_value")

    def __init__(self, value):
        try:
            self._bytes, self._value = marshal.dumps(value), None
        except ValueError:  # not plain data: copied now, as snapshot does
            self._bytes, self._value = None, copy.deepcopy(value)

    def get(self):
        if self._bytes is not None:
            self._value, self._bytes = marshal.loads(self._bytes), None
        return self._value
