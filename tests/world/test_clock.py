"""lab.world.clock: tick, ticks, drive and background."""
import asyncio

import pytest

import lab


class Counter:
    """A task that counts the turns it is given, to measure how many turns something costs."""

    def __init__(self):
        self.turns = 0
        self.task = asyncio.ensure_future(self._count())

    async def _count(self):
        while True:
            await asyncio.sleep(0)
            self.turns += 1


async def test_tick_is_one_turn_and_ticks_n_is_n_turns():
    counter = Counter()
    await lab.tick()  # the counter starts
    start = counter.turns
    await lab.tick()
    assert counter.turns - start == 1
    await lab.ticks(7)
    assert counter.turns - start == 8
    await lab.ticks(0)
    assert counter.turns - start == 8
    counter.task.cancel()


@pytest.mark.parametrize("n", [-1, 2.0, "3", None])
async def test_ticks_wants_a_whole_number(n):
    with pytest.raises(ValueError, match="ticks"):
        await lab.ticks(n)


def events(n, log):
    for i in range(n):
        yield {"type": f"e{i}"}
    log.append("exhausted")


def closing_run(n, log):
    try:
        yield from events(n, log)
    finally:
        log.append("closed")


async def async_run(n, log):
    try:
        for i in range(n):
            await asyncio.sleep(0)
            yield {"type": f"e{i}"}
    finally:
        log.append("closed")


async def test_drive_consumes_a_sync_generator_and_returns_its_events():
    log = []
    assert await lab.drive(events(3, log)) == [{"type": "e0"}, {"type": "e1"}, {"type": "e2"}]
    assert log == ["exhausted"]


async def test_drive_consumes_an_async_generator_and_returns_its_events():
    log = []
    assert [e["type"] for e in await lab.drive(async_run(3, log))] == ["e0", "e1", "e2"]
    assert log == ["closed"]


async def test_drive_consumes_any_iterator():
    assert await lab.drive(iter([{"type": "a"}])) == [{"type": "a"}]


async def test_drive_awaits_an_awaitable_and_returns_no_events():
    done = []

    async def run():
        await asyncio.sleep(0)
        done.append(True)
        return "ignored"

    assert await lab.drive(run()) == []
    assert done == [True]


@pytest.mark.parametrize("value", [None, [{"type": "not an iterator"}], "text", 42])
async def test_drive_returns_no_events_for_any_other_value(value):
    assert await lab.drive(value) == []


async def test_on_event_is_called_for_each_event_and_awaited_when_it_returns_an_awaitable():
    seen = []

    async def slow(event):
        await asyncio.sleep(0)
        seen.append(("async", event["type"]))

    await lab.drive(events(2, []), on_event=lambda e: seen.append(("sync", e["type"])))
    await lab.drive(async_run(2, []), on_event=slow)
    assert seen == [("sync", "e0"), ("sync", "e1"), ("async", "e0"), ("async", "e1")]


async def test_close_after_k_closes_the_run_after_its_kth_event():
    for make in (closing_run, async_run):
        log = []
        taken = await lab.drive(make(5, log), close_after=2)
        assert [e["type"] for e in taken] == ["e0", "e1"]
        assert log == ["closed"], make.__name__


async def test_close_after_zero_closes_the_run_before_it_starts():
    ran = []

    async def run():
        ran.append("started")
        yield {"type": "e0"}

    assert await lab.drive(run(), close_after=0) == []
    assert await lab.drive(closing_run(3, ran), close_after=0) == []
    assert ran == []  # never started, so not even its finally ran


async def test_close_after_larger_than_the_run_takes_everything():
    log = []
    assert len(await lab.drive(async_run(2, log), close_after=10)) == 2


@pytest.mark.parametrize("k", [-1, 1.5, True])
async def test_close_after_wants_a_whole_number(k):
    with pytest.raises(ValueError, match="close_after"):
        await lab.drive(events(1, []), close_after=k)


async def test_drive_lets_the_runs_error_through():
    def run():
        yield {"type": "e0"}
        raise lab.PowerCut("down")

    with pytest.raises(lab.PowerCut):
        await lab.drive(run())


async def test_background_drives_the_run_in_a_task_while_the_body_runs():
    log = []
    async with lab.background(async_run(3, log)) as task:
        assert isinstance(task, asyncio.Task)
        await lab.ticks(10)
        assert task.done() and len(task.result()) == 3


async def test_background_cancels_an_unfinished_run_on_exit_and_swallows_that():
    log = []

    async def endless():
        try:
            while True:
                await asyncio.sleep(0)
                yield {"type": "tick"}
        finally:
            log.append("closed")

    async with lab.background(endless()) as task:
        await lab.ticks(3)
    assert task.cancelled() and log == ["closed"]


async def test_background_swallows_a_cancellation_of_its_task_from_inside_the_body():
    async def endless():
        while True:
            await asyncio.sleep(0)
            yield {}

    async with lab.background(endless()) as task:
        await lab.tick()
        task.cancel()
        await lab.tick()
    assert task.cancelled()


async def test_background_lets_a_cancellation_of_the_outer_task_through():
    inside = asyncio.Event()

    async def endless():
        while True:
            await asyncio.sleep(0)
            yield {}

    async def body():
        async with lab.background(endless()) as task:
            inside.set()
            await asyncio.get_running_loop().create_future()  # waits until cancelled
        return task

    outer = asyncio.ensure_future(body())
    await inside.wait()
    outer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await outer
    assert outer.cancelled()


async def test_background_raises_the_error_its_run_raised():
    async def broken():
        await asyncio.sleep(0)
        raise ValueError("run failed")
        yield {}

    with pytest.raises(ValueError, match="run failed"):
        async with lab.background(broken()):
            await lab.ticks(3)


async def test_the_same_scenario_twice_takes_the_same_events_and_turns():
    async def scenario():
        counter = Counter()
        log = []
        taken = await lab.drive(async_run(4, log), close_after=3)
        turns = counter.turns
        counter.task.cancel()
        return taken, log, turns

    assert await scenario() == await scenario()
