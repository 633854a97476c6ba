"""lab.check.turns: run() gives a test a budget of event-loop turns, stops a test that overruns
it or waits for something that can never happen, and tidies and closes its loop afterwards."""
import asyncio
import gc
import selectors
import threading

import pytest

from lab.check import own_threads, turns
from lab.check.facts import Stalled
from lab.check.turns import OutOfTurns

from tools.hang_cases import no_hang

STUCK = Stalled("waiting")  # nothing else left to run: it can never go on


def only_the_main_thread():
    """Besides the checker's own threads (a zygote's, lab/check/own_threads.py), which never
    count as work, only the main thread runs."""
    others = [t for t in threading.enumerate() if t not in own_threads.alive()]
    assert others == [threading.main_thread()], f"another test left threads running: {others}"


async def spin(n, counted=None):
    """n turns of the loop, counted in `counted[0]` as they pass."""
    for _ in range(n):
        await asyncio.sleep(0)
        if counted is not None:
            counted[0] += 1


def test_a_test_that_finishes_returns_its_value():
    async def three_turns():
        await spin(3)
        return "done"

    assert turns.run(three_turns()) == "done"


def test_an_error_the_test_raises_comes_out_as_it_is():
    async def fails():
        await spin(2)
        raise ValueError("a check's own error")

    with pytest.raises(ValueError, match="a check's own error"):
        turns.run(fails())


def test_a_test_within_its_budget_is_not_stopped():
    async def fifty():
        await spin(50)
        return "in time"

    assert turns.run(fifty(), budget=100) == "in time"


def test_a_test_past_its_budget_is_stopped_and_told_its_budget():
    counted = [0]
    with pytest.raises(OutOfTurns) as stopped:
        turns.run(spin(10**9, counted), budget=1_000)
    assert stopped.value.stalled == Stalled("turns", 1_000), \
        f"a test that spins through its budget of 1,000 turns was stopped as {stopped.value.stalled}"
    assert 500 < counted[0] <= 1_000


def test_a_test_waiting_on_a_future_nothing_will_set_is_stopped_at_once():
    only_the_main_thread()
    loops = []

    async def waits_forever():
        loops.append(asyncio.get_running_loop())
        await loops[0].create_future()

    with no_hang(), pytest.raises(OutOfTurns) as stopped:
        turns.run(waits_forever())
    assert stopped.value.stalled == STUCK, \
        f"a test waiting on a future nothing will set was stopped as {stopped.value.stalled}"
    assert loops[0].turns < 100  # a few turns, not the budget of 10,000


def test_a_test_waiting_on_a_worker_thread_that_will_finish_is_not_stuck(monkeypatch):
    only_the_main_thread()
    waiting = threading.Event()  # the loop has looked for events while the test waits
    box = {}

    class Watched(selectors.DefaultSelector):
        def select(self, timeout=None):
            if "future" in box:
                waiting.set()
            return super().select(timeout)

    def work():
        waiting.wait()
        try:
            box["loop"].call_soon_threadsafe(
                lambda: box["future"].done() or box["future"].set_result("worked"))
        except RuntimeError:
            pass  # the loop is closed already: the test has failed and says why

    worker = threading.Thread(target=work)

    async def waits_on_the_worker():
        box["loop"] = asyncio.get_running_loop()
        worker.start()
        box["future"] = box["loop"].create_future()
        return await box["future"]

    monkeypatch.setattr(selectors, "DefaultSelector", Watched)
    try:
        with no_hang():
            assert turns.run(waits_on_the_worker()) == "worked"
    finally:
        waiting.set()
        worker.join()


def stubborn(awaiting):
    async def swallows_its_cancellation():
        while True:
            try:
                await awaiting()
            except asyncio.CancelledError:
                pass
    return swallows_its_cancellation()


@pytest.fixture
def dropped():
    """A stubborn task is dropped with its closed loop; collect it within the test, so that
    asyncio's "Task was destroyed but it is pending!" goes to the test's captured log."""
    yield
    gc.collect()


def test_a_test_that_swallows_its_cancellation_still_ends_when_out_of_turns(dropped):
    with no_hang(), pytest.raises(OutOfTurns) as stopped:
        turns.run(stubborn(lambda: asyncio.sleep(0)), budget=100)
    assert stopped.value.stalled == Stalled("turns", 100), \
        f"a test that swallows its cancellation was stopped as {stopped.value.stalled}"


def test_a_stuck_test_that_swallows_its_cancellation_still_ends(dropped):
    only_the_main_thread()
    with no_hang(), pytest.raises(OutOfTurns) as stopped:
        turns.run(stubborn(lambda: asyncio.get_running_loop().create_future()))
    assert stopped.value.stalled == STUCK, \
        f"a stuck test that swallows its cancellation was stopped as {stopped.value.stalled}"


def test_tidy_cancels_what_a_test_left_running():
    log = []

    async def background():
        try:
            await spin(10**9)
        except asyncio.CancelledError:
            log.append("cancelled")
            raise

    async def leaves_a_task_running():
        log.append(asyncio.get_running_loop().create_task(background()))
        await spin(2)
        return "returned"

    assert turns.run(leaves_a_task_running()) == "returned"
    assert log[1:] == ["cancelled"]


def test_tidy_closes_an_async_generator_the_test_left_open():
    log, kept = [], []

    async def events():
        try:
            while True:
                yield "event"
        finally:
            log.append("closed")

    async def reads_one_event():
        kept.append(events())
        return await kept[0].__anext__()

    assert turns.run(reads_one_event()) == "event"
    assert log == ["closed"]


def test_tidy_ends_even_when_a_task_left_running_swallows_its_cancellation(dropped):
    async def leaves_a_stubborn_task():
        kept = asyncio.get_running_loop().create_task(stubborn(lambda: asyncio.sleep(0)))
        await spin(2)
        return kept.done()

    with no_hang():
        assert turns.run(leaves_a_stubborn_task()) is False


async def returns():
    return 1


async def raises():
    raise KeyError("x")


@pytest.mark.parametrize("ending", [returns, raises, lambda: spin(10**9)])
def test_the_loop_is_closed_afterwards_however_the_test_ended(ending):
    loops = []

    async def test():
        loops.append(asyncio.get_running_loop())
        return await ending()

    try:
        turns.run(test(), budget=100)
    except (KeyError, OutOfTurns):
        pass
    assert loops[0].is_closed()
