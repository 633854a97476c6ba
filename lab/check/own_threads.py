"""The checker's own threads: those that live as long as its process and never finish anything a
test waits for (the child's heartbeat and its watch on the runner's pipe, a zygote's keeper and
listener). lab/check/turns.py leaves them out when it asks whether a loop with nothing to do
can still be woken by another thread. A module of its own, free of asyncio, so that the
checker's process can register its threads without importing the world's event loop."""
from __future__ import annotations

import threading

_not_work: list[threading.Thread] = []


def not_work(thread: threading.Thread) -> None:
    """Leave `thread`, one of the checker's own, out of the test for a loop that cannot go on."""
    _not_work.append(thread)


def others_at_work() -> bool:
    """Whether any thread besides the calling one and the checker's own is alive."""
    return threading.active_count() - sum(t.is_alive() for t in _not_work) > 1


def alive() -> list[threading.Thread]:
    """The checker's own threads that are alive now."""
    return [t for t in _not_work if t.is_alive()]
