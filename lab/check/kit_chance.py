"""What a harness reads that the fake world does not hold, made to come out as a test needs:
the clocks, moved on by minutes or years at each reading (hours_pass), and Python's shared
random numbers, falling lowest at every draw (worst_luck). A test that runs a job inside them
meets at once the stop by time or by chance that a harness might take only after hours or one
run in a million. Part of lab.kit, which every tests.py and bank imports them from."""
from __future__ import annotations

import contextlib
import datetime
import random
import time
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def hours_pass(minutes: int = 1, *, processor: bool = False,
               dates: bool = False) -> Iterator[None]:
    """While open, each reading of the wall clock (time.monotonic, time.time, time.perf_counter,
    and their _ns forms) is a minute after the one before, or `minutes` minutes (a day's 1,440:
    thousands of readings are years): a harness that times itself (a run, a command) sees hours
    go by, while the test takes no time at all. `processor` moves the processor-time clocks
    (process_time, and thread_time where the Python has one: the browser's has not) as well, and
    `dates` datetime's, as `datetime.datetime` is looked up in the module (now, utcnow, today:
    at most ten years a reading, stopping short of the year 9999), so that a budget kept by
    either runs out too. The clocks are put back on the way out. The checker's own guards keep
    theirs: the spin guard bound its clock at import, the runner reads the clock between tests,
    and the child bound its processor clock at import. A `datetime` class imported by name
    before the block is the system's clock in C: it cannot be moved from here."""
    names = ["monotonic", "time", "perf_counter"] + \
        [name for name in ("process_time", "thread_time") if processor and hasattr(time, name)]
    saved = {name: getattr(time, name) for name in names + [f"{n}_ns" for n in names]}
    start, readings = saved["time"](), [0]  # the readings so far: one clock for every name

    def a_minute_later():
        readings[0] += 1
        return start + 60.0 * minutes * readings[0]

    def a_minute_later_ns():  # whole numbers, so that each step is exactly `minutes` minutes
        readings[0] += 1
        return int(start * 1_000_000_000) + 60_000_000_000 * minutes * readings[0]
    for name in names:
        setattr(time, name, a_minute_later)
        setattr(time, f"{name}_ns", a_minute_later_ns)
    real = datetime.datetime
    if dates:
        step = datetime.timedelta(minutes=min(minutes, 10 * 365 * 24 * 60))  # ten years at most
        datetime.datetime = _later_dates(real, step)  # type: ignore[misc]
    try:
        yield
    finally:
        datetime.datetime = real  # type: ignore[misc]
        for name, clock in saved.items():
            setattr(time, name, clock)


def _later_dates(real: type[datetime.datetime], step: datetime.timedelta) -> Any:
    """A datetime class whose now, utcnow and today are each `step` after the one before,
    starting from the real now and stopping short of the year 9999, where datetime ends."""
    dated = [real.now()]

    def later(tz: Any = None) -> datetime.datetime:
        if dated[0].year < 9990:
            dated[0] = min(dated[0] + step, real(9990, 1, 1))
        return dated[0] if tz is None else dated[0].replace(tzinfo=tz)

    class Later(real):  # type: ignore[valid-type, misc]
        @classmethod
        def now(cls, tz: Any = None) -> datetime.datetime:
            return later(tz)

        @classmethod
        def utcnow(cls) -> datetime.datetime:
            return later()

        @classmethod
        def today(cls) -> datetime.datetime:
            return later()
    return Later


@contextlib.contextmanager
def worst_luck() -> Iterator[None]:
    """While open, the random module's shared generator gives its lowest value at every draw
    (random.random() is 0.0, randint(a, b) is a, choice(xs) is xs[0]): its state all zeros,
    which the Mersenne Twister keeps for ever. A run that may stop by chance, however rarely,
    stops here. The generator is put back as it was on the way out. A harness's own
    random.Random(), or the secrets module, is beyond it."""
    kept = random.getstate()
    random.setstate((3, (0,) * 624 + (624,), None))
    try:
        yield
    finally:
        random.setstate(kept)
