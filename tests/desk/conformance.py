"""What the conformance tests (test_conformance_*.py) share: the bound on a wait for real I/O,
and the check that a part provides every member of its contract itself."""

import asyncio
import time

import pytest

DEADLINE = 10.0  # seconds: only a real part that hangs ever reaches it

WORLDS = ["fake", "real"]  # every case runs on lab.world's fake and on lab/desk/real.py's part


async def until(look, what):
    """Give the event loop turns until look() is true; fail naming `what` if DEADLINE seconds
    pass first. A fake gets there in a few turns, a real part when its I/O arrives."""
    deadline = time.monotonic() + DEADLINE
    while not look():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {DEADLINE} s for {what}")
        await asyncio.sleep(0)


def members(protocol):
    """The names a Protocol of lab.world.contracts asks for: its methods, its async-iteration
    methods, and its annotated attributes."""
    own = vars(protocol)
    return ({name for name in own if not name.startswith("_")}
            | {name for name in ("__aiter__", "__anext__") if name in own}
            | set(own.get("__annotations__", {})))


def missing_members(part, protocol):
    """The members of `protocol` that `part` lacks, or has only as the Protocol's own stub (a
    class that subclasses a Protocol inherits its empty methods, which return None)."""
    return sorted(name for name in members(protocol)
                  if not hasattr(part, name)
                  or getattr(type(part), name, None) is getattr(protocol, name, object()))
