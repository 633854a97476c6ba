"""Time and driving. In the fake world time is counted in event-loop turns, never in seconds:
one turn is what `await asyncio.sleep(0)` costs, so a test can say "three turns later" and
mean the same thing on every machine. The world takes its turns with a primitive of its own
(`turn`), the one asyncio.sleep(0) itself awaits, so a harness.py that replaces asyncio.sleep
changes its own time, never the world's."""

import asyncio
import contextlib
import heapq
import inspect
import itertools
import types
import weakref


@types.coroutine
def turn():
    """One loop turn, as `await asyncio.sleep(0)` gives it: a bare yield, which the task running
    it answers by stepping it again on the loop's next turn."""
    yield


async def tick():
    """One loop turn: everyone else who is ready gets to run once."""
    await turn()


async def ticks(n):
    """`n` loop turns, one after another."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"ticks(n) counts loop turns, a whole number 0 or more; got {n!r}")
    for _ in range(n):
        await turn()


async def _maybe_await(value):
    if inspect.isawaitable(value):
        await value


async def drive(run, *, on_event=None, close_after=None):
    """Consume a run of any colour and return the list of events it took.

    An async generator is read with `async for`, a sync generator or iterator with `for`; an
    awaitable is awaited and gives []; anything else (a plain function's return value) gives [].
    One helper for every lesson, so a test reads the same whether the harness is sync or async.
    on_event(event) is called for each event, and awaited if it returns an awaitable.
    close_after=k closes the run (close() or aclose()) right after its k-th event, as a consumer
    that walks away would.
    """
    if close_after is not None and (isinstance(close_after, bool)
                                    or not isinstance(close_after, int) or close_after < 0):
        raise ValueError(f"drive(close_after=k): k counts events, a whole number 0 or more; "
                         f"got {close_after!r}")
    events = []
    if hasattr(run, "__aiter__"):
        if close_after != 0:
            async for event in run:
                events.append(event)
                if on_event is not None:
                    await _maybe_await(on_event(event))
                if close_after is not None and len(events) >= close_after:
                    break
        if close_after is not None and hasattr(run, "aclose"):
            await run.aclose()
        return events
    if inspect.isawaitable(run):
        await run
        return []
    if hasattr(run, "__next__"):
        if close_after != 0:
            for event in run:
                events.append(event)
                if on_event is not None:
                    await _maybe_await(on_event(event))
                if close_after is not None and len(events) >= close_after:
                    break
        if close_after is not None and hasattr(run, "close"):
            run.close()
        return events
    return []


@contextlib.asynccontextmanager
async def background(run):
    """Drive `run` in a task of its own for the length of an `async with`, and yield the task.

    On the way out an unfinished task is cancelled and awaited, so no run outlives its test.
    Only that task's CancelledError is swallowed: if the code inside the `async with` is itself
    being cancelled (asyncio.current_task().cancelling() is non-zero), the cancellation goes on.
    An error the run raised is raised here.
    """
    task = asyncio.ensure_future(drive(run))
    try:
        yield task
    finally:
        if not task.done():
            task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            if asyncio.current_task().cancelling():
                raise


class Alarm:
    """One callback waiting for a turn; cancel() takes it back."""

    def __init__(self, clock, callback):
        self._clock, self.callback, self.pending = clock, callback, True

    def cancel(self):
        if self.pending:
            self.pending = False
            self._clock._live -= 1


class TurnClock:
    """Counts the turns of one event loop, but only while something is waiting for a turn.

    A started command or an open response asks for an alarm at a turn; the clock schedules one
    cheap callback per turn (loop.call_soon) until the last alarm has fired, then goes quiet. A
    wait that never ends asks for no alarm at all, so it costs nothing.
    """

    def __init__(self, loop):
        self._loop = loop
        self.now = 0
        self._heap = []
        self._order = itertools.count()  # alarms for one turn fire in the order they were set
        self._live = 0
        self._ticking = False

    def at(self, turn, callback):
        """Call `callback()` when the clock reaches `turn`; returns the Alarm."""
        alarm = Alarm(self, callback)
        heapq.heappush(self._heap, (turn, next(self._order), alarm))
        self._live += 1
        if not self._ticking:
            self._ticking = True
            self._loop.call_soon(self._tick)
        return alarm

    def _tick(self):
        self.now += 1
        while self._heap and self._heap[0][0] <= self.now:
            _, _, alarm = heapq.heappop(self._heap)
            if alarm.pending:
                alarm.cancel()
                try:
                    alarm.callback()
                except (SystemExit, KeyboardInterrupt):
                    raise
                except BaseException as exc:  # one broken alarm must not stop the clock
                    self._loop.call_exception_handler(
                        {"message": "a lab alarm raised", "exception": exc})
        if self._live > 0:
            self._loop.call_soon(self._tick)
        else:
            self._heap.clear()
            self._ticking = False


_clocks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, "TurnClock"] = weakref.WeakKeyDictionary()


def turn_clock(who):
    """The TurnClock of the running loop. `who` names the caller for the error a student sees
    when there is no running loop."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        raise RuntimeError(f"{who} needs a running event loop, because its time is counted in "
                           "loop turns: call it from async code (an async def, or a notebook "
                           "cell that awaits)") from None
    clock = _clocks.get(loop)
    if clock is None:
        clock = _clocks[loop] = TurnClock(loop)
    return clock
