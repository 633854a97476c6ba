"""An event loop that counts its turns, so that a test which never finishes fails in turns.

Time in the fake world is turns of the event loop. A test gets a budget of turns; past it,
the test is cancelled and reported as having run out of turns. A loop with nothing ready, no
timer due and no thread at work can never make progress again (the fake world does no real
I/O), so that is reported at once as a wait for something that cannot happen, instead of
sleeping until a wall-clock guard notices.

The checker's child process keeps two threads of its own for its whole life (its heartbeat and
its watch on the runner's pipe, lab/check/child.py); they are registered with `not_work`
(lab/check/own_threads.py), so they never count as something at work. Every turn of every loop
is also tallied for the process (`turns_taken`): the heartbeat reports the tally, so the runner
can tell a test that turns from one that spins.

This reads two private attributes of asyncio's BaseEventLoop (_ready, _scheduled), may replace
_ready with a deque of its own, and overrides _run_once; they have kept their meaning from
Python 3.8 to 3.14.

The same loop runs the practice check inside a notebook's kernel (lab/check/runner.py,
`in_process`), where a loop is already running the cell: `run` steps aside from it for the test
and hands it back afterwards. In the browser's Python (Pyodide, sys.platform "emscripten") there
are no sockets or threads, so the loop there has no self-pipe and its selector never waits on a
file descriptor.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import selectors
import time
from typing import cast

from lab.check import manifest
from lab.check.facts import Stalled
from lab.check.own_threads import not_work, others_at_work  # noqa: F401  (not_work: child.py's)

BUDGET = 10_000

_taken = 0  # turns taken by every CountingLoop of this process
BEFORE_EACH_STEP: list = []  # called before each callback a loop made now runs (spin.py's)


def turns_taken() -> int:
    """Every turn every CountingLoop of this process has taken so far."""
    return _taken


class OutOfTurns(Exception):
    """The test used more turns than its budget, or waits on something that cannot happen:
    `stalled` says which, as the fact the child reports (lab/check/facts.py)."""

    def __init__(self, stalled: Stalled):
        super().__init__(stalled)
        self.stalled = stalled


def _nothing():
    pass


IN_BROWSER = manifest.IN_BROWSER


class _NoFiles:
    """The selector of a loop in the browser: no file descriptor is ever watched there, so a wait
    is only a timer's, and it is slept out (the fake world sets no timers; only a harness does)."""

    def select(self, timeout=None):
        if timeout:
            time.sleep(timeout)
        return []

    def close(self):
        pass


class _Stepped(collections.deque):
    """A loop's queue of ready callbacks that calls BEFORE_EACH_STEP's hooks as each one is
    taken to run: the practice check's spin guard (lab/check/spin.py) sets itself again there
    under Python 3.11, where a stop in one task unsets it before the next task's step."""

    def popleft(self):
        for hook in BEFORE_EACH_STEP:
            hook()
        return super().popleft()


class CountingLoop(asyncio.SelectorEventLoop):
    """A selector loop that counts turns and stops a test that overruns or cannot go on."""

    def __init__(self, budget: int = BUDGET):
        super().__init__(cast(selectors.BaseSelector, _NoFiles()) if IN_BROWSER else None)
        self.turns = 0
        self.budget = budget
        self.verdict: Stalled | None = None  # why the test was stopped, if it was
        self._target: asyncio.Task | None = None
        self._last_turn: int | None = None  # past this turn the loop is stopped outright
        self.ended_by: BaseException | None = None  # what stopped the test from outside it
        if BEFORE_EACH_STEP:
            self._ready: collections.deque = _Stepped(self._ready)

    def end_test(self, reason: BaseException) -> None:
        """Stop the test being run, wherever it waits, and have run_test raise `reason`: the
        practice check's spin guard stopped a loop of harness.py in one of the test's tasks,
        maybe not the test's own, and a child's test would have been killed whole. The first
        reason stands; after the test, this does nothing."""
        if self._target is None or self.ended_by is not None:
            return
        self.ended_by = reason
        self._last_turn = self.turns + 200  # room for the cancellation to travel
        self._target.cancel()

    def _run_once(self):
        global _taken
        _taken += 1
        self.turns += 1
        stuck = not self._ready and not self._scheduled and not others_at_work()
        if self._target is not None and self.verdict is None and (stuck or self.turns > self.budget):
            self.verdict = Stalled("waiting") if stuck else Stalled("turns", self.budget)
            self._last_turn = self.turns + 200  # room for the cancellation to travel
            self._target.cancel()
        if self._last_turn is not None and self.turns > self._last_turn:
            self.stop()  # the cancellation was swallowed; end the loop regardless
        if stuck:
            self.call_soon(_nothing)  # never block in select(): a blocked loop never returns
        super()._run_once()

    if IN_BROWSER:  # a self-pipe is a socket pair, which Pyodide cannot make; no thread writes
        def _make_self_pipe(self):
            self._ssock = self._csock = None

        def _close_self_pipe(self):
            pass

        def _write_to_self(self):
            pass

    def run_test(self, coroutine):
        """Run one test's coroutine to the end; raises OutOfTurns when the budget stops it."""
        self._target = self.create_task(coroutine)
        try:
            self.run_until_complete(self._target)
        except (asyncio.CancelledError, RuntimeError):
            if self.verdict is None and self.ended_by is None:
                raise
        if self.ended_by is not None:
            raise self.ended_by
        if self.verdict is not None:
            raise OutOfTurns(self.verdict)
        return self._target.result()

    def tidy(self):
        """Cancel what the test left running, as asyncio.run does, within a bounded number of
        turns, so that nothing outlives its test."""
        self._target = None
        self._last_turn = self.turns + 1000
        tasks = [t for t in asyncio.all_tasks(self) if not t.done()]
        for task in tasks:
            task.cancel()
        try:
            if tasks:
                self.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            self.run_until_complete(self.shutdown_asyncgens())
        except RuntimeError:
            pass  # stopped at _last_turn: whatever is left is dropped with the loop


@contextlib.contextmanager
def _aside():
    """Step out of the loop running this code, if one is (a notebook cell's), and back in
    afterwards. asyncio refuses to start a loop inside a running one, and Python 3.12 and later
    also track the task being run; both are put back as they were, and the outer loop is made
    the current one again. Nothing of the outer loop runs meanwhile: this thread is busy with
    the test."""
    outer = asyncio.events._get_running_loop()
    if outer is None:
        yield
        return
    swap = getattr(asyncio.tasks, "_swap_current_task", None)  # Python 3.12 and later
    task = swap(outer, None) if swap else None
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.set_event_loop(outer)  # run() unset the current loop; it was the outer one
        asyncio.events._set_running_loop(outer)
        if swap:
            swap(outer, task)


def run(coroutine, budget: int = BUDGET):
    """asyncio.run for one test: a fresh counting loop, tidied and closed afterwards."""
    with _aside():
        loop = CountingLoop(budget)
        asyncio.set_event_loop(loop)
        try:
            return loop.run_test(coroutine)
        finally:
            try:
                loop.tidy()
            finally:
                asyncio.set_event_loop(None)
                loop.close()
