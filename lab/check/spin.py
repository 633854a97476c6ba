"""The practice check's spin guard: a test that loops in harness.py without giving the event loop
a turn is stopped inside this process, with the checker's verdict.

lab_check.py runs harness.py in a child process and watches it from outside (lab/check/runner.py):
a test that spins is killed once it has used its processor time without a turn. The practice
check (runner.run's `in_process`, `course.check` in the browser) has no process to kill, and in
the browser's Python (Pyodide) no thread or signal to interrupt one with. So while it runs, this
guard counts the rounds harness.py's own loops go: each backward jump in code compiled from
harness.py. A test that goes Limits.rounds_without_a_turn of them with no turn of the event
loop in between, or takes a round Limits.seconds_per_test after the first round of its current
turn (a loop whose every round blocks, such as one that sleeps), gets Spun raised inside that
loop. Rounds are counted, not
timed, so a slow or busy machine cannot make a correct test spin; the reference solutions go
under Limits.rounds_after_a_hang between two turns (bench/site_check.py counts them, and
tests/check/test_practice.py runs every lab's solution under that shorter allowance). Once a
test has spun, the tests after it get Limits' shorter allowances, as the child's guards shorten.

Spun derives from BaseException, so a harness's `except Exception` does not swallow it, and any
round taken after it was raised raises it again. A stop ends the whole test, as a child's test
is killed whole: the test's loop cancels the test, though the loop that spun may be in a task
the test never awaits (turns.CountingLoop.end_test), and the test's verdict is the first stop's. The rounds are counted with sys.monitoring
where Python has it (3.12 and later, and Pyodide), which costs nothing outside harness.py's
jumps: every backward jump is one, a loop on one line (`while True: pass`) jumping to itself.
Python 3.11 uses sys.settrace, tracing harness.py's frames only: by lines, counting a line
that is not below the one before it (the loop went back) as a round, except in code that holds a
jump to itself, which raises no new line event and is traced opcode by opcode instead.

What it cannot stop, because no round of harness.py's loops is taken while it lasts: a single
call that never returns or blocks for long (time.sleep(600), which in the browser really blocks;
a loop inside a builtin, such as sum(range(10**12)) or sum(itertools.count()), whose rounds are
C's, not Python's; a regular expression that backtracks for ever), a loop in code that
harness.py makes at run time with exec or compile, and a loop that catches BaseException and
goes round again. A call that returns is waited out, and the test goes on as if it had been
slow (a loop of such calls is stopped by the clock after its first rounds). In the browser, one
that never ends holds the page's Python: the cell stays busy with only the check's first two
lines printed, and Interrupt does nothing there; restarting the kernel (Kernel, Restart Kernel)
ends it within seconds, keeping those lines and every file of the student's, and losing the
kernel's variables.
"""
from __future__ import annotations

import asyncio
import dataclasses
import dis
import sys
import time
from typing import Any

from lab.check import hangs, turns
from lab.check.facts import Stalled
from lab.check.words import stalled

MONITORING: Any = getattr(sys, "monitoring", None)  # Python 3.12 and later
TOOL_IDS = (3, 4)  # sys.monitoring's ids that no named tool (debugger, coverage, ...) claims


class Spun(BaseException):
    """A test, or the import, went round harness.py's loops past its allowance without a turn of
    the event loop: `stalled` says how far, as the fact the child reports, and `place` is the
    loop's place in harness.py (lab/check/hangs.py; None at the import). Its message is the
    test's verdict in the checker's words."""

    def __init__(self, fact: Stalled, place: hangs.Place | None = None):
        super().__init__(stalled(fact, place))
        self.stalled, self.place = fact, place


class Guard:
    """The spin guard of one practice run against the harness.py at `harness` (the path its
    code was compiled from): a context manager around the import and the tests, with
    `next_test()` called as each test starts. `clock` is the wall clock the bound in seconds
    reads (replaceable in the kit's tests)."""

    clock = staticmethod(time.monotonic)

    def __init__(self, harness: str, limits):
        self.path, self.limits = str(harness), limits
        self.hung = False  # a test of this run has spun: later tests get the shorter allowances
        self.importing = True
        self.turn: int | None = None  # the event loop's turn the rounds are counted in
        self.rounds, self.since = 0, 0.0
        self.rounds_allowed, self.seconds_allowed = 0, 0.0
        self.tool: int | None = None
        self._before: Any = None  # the trace function sys.settrace replaced, put back on exit
        self._self_jumps: dict[int, tuple] = {}  # code's id: (code, whether it jumps to itself)

    # --- the allowances ------------------------------------------------------------------------

    def _allow(self) -> None:
        """Set the allowances for what runs next: the import's, a test's, or a test's once the
        run has spun."""
        limits = self.limits
        if self.importing:
            self.rounds_allowed, self.seconds_allowed = (limits.rounds_without_a_turn,
                                                         limits.seconds_to_import)
        elif self.hung:
            self.rounds_allowed = min(limits.rounds_without_a_turn, limits.rounds_after_a_hang)
            self.seconds_allowed = min(limits.seconds_per_test, limits.seconds_after_a_hang)
        else:
            self.rounds_allowed, self.seconds_allowed = (limits.rounds_without_a_turn,
                                                         limits.seconds_per_test)

    def next_test(self) -> None:
        """A test starts: its rounds are counted from here. After a stop under sys.settrace,
        which unsets a trace function that raises, the guard is set again."""
        self.importing, self.turn = False, None
        self._allow()
        if self.tool is None and sys.gettrace() is not self._call:
            sys.settrace(self._call)

    def _round(self, head: tuple | None = None) -> None:
        """One round of a loop in harness.py: count it, and stop the test past its allowance.
        The clock is read at each of a turn's first rounds, then at every 32nd: reading it costs
        more than the rest of a round in the browser, and a loop whose rounds are slow enough
        for the clock to matter is caught in its first rounds. `head` is (code, offset) of the
        jump back, under sys.monitoring, whose frame is already at the jump's target, the loop's
        body: a stop names the jump's line instead, the loop's own (`while`, `for`), as the line
        tracer and lab_check.py's heartbeat find it."""
        turn = turns.turns_taken()
        if turn != self.turn:
            self.turn, self.rounds, self.since = turn, 0, self.clock()
            return
        rounds = self.rounds = self.rounds + 1
        if rounds > self.rounds_allowed:
            self._stop(self.rounds_allowed, head)
        if (rounds < 64 or not rounds & 31) and self.clock() - self.since > self.seconds_allowed:
            self._stop(None, head)

    def _stop(self, rounds: int | None, head: tuple | None) -> None:
        """Stop the test, or the import, past `rounds` of its loops (None: past its seconds)."""
        fact = Stalled("rounds", rounds) if rounds else Stalled("seconds",
                                                                seconds=self.seconds_allowed)
        if self.importing:
            raise Spun(fact)
        self.hung = True
        self._allow()
        place = hangs.place_of(hangs.calls_of(sys._getframe(1)), self.path) or hangs.Place()
        if head is not None and place.function is not None:
            code, offset = head
            line = next((n for start, end, n in code.co_lines() if start <= offset < end), None)
            place = dataclasses.replace(place, line=line or place.line)
        spun = Spun(fact, place)
        loop = asyncio._get_running_loop()
        if isinstance(loop, turns.CountingLoop):  # the loop may be in a task the test never awaits
            loop.end_test(spun)
        raise spun

    # --- arming -------------------------------------------------------------------------------

    def __enter__(self) -> "Guard":
        self.turn = turns.turns_taken()
        self.since = self.clock()
        self._allow()
        if MONITORING is not None:
            for tool in TOOL_IDS:
                try:
                    MONITORING.use_tool_id(tool, "lab.check.spin")
                except ValueError:
                    continue  # taken by another tool
                self.tool = tool
                MONITORING.register_callback(tool, MONITORING.events.JUMP, self._jump)
                MONITORING.set_events(tool, MONITORING.events.JUMP)
                return self
        self._before = sys.gettrace()
        sys.settrace(self._call)
        turns.BEFORE_EACH_STEP.append(self._rearm)
        return self

    def __exit__(self, *exc) -> None:
        if self.tool is not None:
            MONITORING.set_events(self.tool, 0)
            MONITORING.register_callback(self.tool, MONITORING.events.JUMP, None)
            MONITORING.free_tool_id(self.tool)
            self.tool = None
        else:
            turns.BEFORE_EACH_STEP.remove(self._rearm)
            sys.settrace(self._before)

    def _rearm(self) -> None:
        """Before each step of a task, set the guard again if a stop unset it: Python unsets a
        trace function that raises, and after a stop the test's other tasks may spin, in the
        same turn or as they are cancelled."""
        if sys.gettrace() is not self._call:
            sys.settrace(self._call)

    def _jump(self, code, source: int, destination: int):
        if code.co_filename != self.path:
            return MONITORING.DISABLE  # never again at this jump: it is not harness.py's
        if destination <= source:  # a loop on one line jumps to itself
            self._round((code, source))
        return None

    def _call(self, frame, event, arg):
        """sys.settrace's tracer: trace harness.py's frames only, and count a line that is not
        below the one before it in its frame (the loop has gone back) as a round. A loop on one
        line whose jump lands on itself (`while True: pass`) raises no new line event, so a
        frame whose code holds such a jump is traced opcode by opcode instead, a jump to the
        same instruction or an earlier one counting as a round; the rest of harness.py is
        traced by lines, which costs less, and the course's own frames are not traced at all."""
        code = frame.f_code
        if code.co_filename != self.path:
            return None
        known = self._self_jumps.get(id(code))
        if known is None:  # kept with its code, so that the id is not reused
            known = self._self_jumps[id(code)] = (code, _jumps_to_itself(code))
        if known[1]:
            frame.f_trace_lines, frame.f_trace_opcodes = False, True
            at = frame.f_lasti  # where the frame starts or resumes

            def opcode(frame, event, arg):
                nonlocal at
                if event == "opcode":
                    if frame.f_lasti <= at:
                        self._round()
                    at = frame.f_lasti
                return opcode
            return opcode
        last = frame.f_lineno

        def line(frame, event, arg):
            nonlocal last
            if event == "line":
                if frame.f_lineno <= last:
                    self._round()
                last = frame.f_lineno
            return line
        return line


def _jumps_to_itself(code) -> bool:
    """Whether `code` holds a backward jump whose target is the jump itself: the loop of a
    `while True: pass` on one line, which sys.settrace's line events do not see go round."""
    return any(op.opname.startswith("JUMP_BACKWARD") and op.argval == op.offset
               for op in dis.get_instructions(code))
