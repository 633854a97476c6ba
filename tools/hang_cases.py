"""Files that hang, for the tests of the guards that stop them: a lab's reference with a hang
put in (Hanging), the place a stop names, the one-line spins the practice check must stop
(SPINS: tests/check/test_practice_spins.py, the browser's test and bench/site_check.py run
them), and a guard that fails a loop that would run for good (no_hang)."""
import re
import signal
from contextlib import contextmanager
from dataclasses import dataclass

from lab.check.manifest import lab as lab_named

STOPPED = re.compile(r" in (?P<function>\S+) \(harness\.py, line (?P<line>\d+)\)")


@dataclass(frozen=True)
class Hanging:
    """A lab's reference with a hang put in after the line `after`: `loop`'s lines, indented as
    that line is; or, when `after` is empty, `loop` appended at the end of the file."""
    lab: str
    after: str
    loop: str
    function: str  # where the stops must say the file hung
    async_code: bool  # whether harness.py has async code, so the event loop is the student's to think of
    limits: dict  # beside the defaults: a call that blocks is held to a shorter clock here
    every_test: bool = False  # whether every test that calls the function hangs in it

    def text(self) -> tuple[str, set[int]]:
        """The file, and the numbers of the lines put in."""
        source = lab_named(self.lab).solution.read_text(encoding="utf-8")
        if not self.after:
            start = source.count("\n") + 2
            return source + "\n" + self.loop, set(range(start, start + self.loop.count("\n") + 1))
        assert source.count(self.after) == 1, f"{self.after!r} must stand once in {self.lab}"
        head, tail = source.split(self.after)
        indent = re.match(r" *", head.rpartition("\n")[2]).group()
        added = "".join(f"\n{indent}{line}" for line in self.loop.splitlines())
        first = (head + self.after).count("\n") + 2
        return head + self.after + added + tail, set(range(first, first + added.count("\n")))


def place_of_stop(message: str) -> tuple[str, int] | None:
    match = STOPPED.search(message)
    return (match["function"], int(match["line"])) if match else None


class Hung(SystemExit):
    """Raised by no_hang(). A SystemExit, because asyncio passes that on where it would log and
    drop any other error raised inside a callback."""


@contextmanager
def no_hang(seconds=10):
    """Turn a loop that would run for good into a failure: a broken "nothing is left to run"
    leaves the loop waiting in select() forever, a broken bound on a swallowed cancellation
    leaves it turning forever. The guard is a signal, not a thread, because a thread would
    itself be something else at work."""
    def alarm(signum, frame):
        raise Hung(f"the loop was still running after {seconds} seconds")
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1)  # again each second, until it gets out
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


LAB = "15.1"  # the lab whose reference SPINS put a spin in
RUN_TOOL = 'tool = {t["name"]: t for t in tools}.get(call["name"])'
TOOL_CALLS = 'asked, so there is no second copy to fall out of step."""'

SPINS = {
    "a one-line while in run_tool": Hanging(LAB, RUN_TOOL, "while True: pass", "run_tool", True,
                                            {}, every_test=True),
    "a one-line while in tool_calls": Hanging(LAB, TOOL_CALLS, "while True: pass", "tool_calls",
                                              True, {}, every_test=True),
    "a spinning comprehension in run_tool": Hanging(
        LAB, RUN_TOOL, "[n for n in __import__('itertools').count() if n < 0]", "run_tool",
        True, {}, every_test=True),
    "a one-line for over itertools.count() in run_tool": Hanging(
        LAB, RUN_TOOL, "for _ in __import__('itertools').count(): pass", "run_tool", True, {},
        every_test=True),
}
