"""Runs a suite against a harness.py in a separate process, and decides every verdict here.

The student's file runs in lab/check/child.py, which reports each value its checks found. This side
compares those values with what the reference found at the same checks (the expected
observations, starters/*/lab*/expected.json) and decides pass or fail. Nothing the child prints is
read for a verdict, and a test passes only if the child reported every check the reference
made, with equal values, and then reported the test's end.

A test that hangs costs a bounded time: the child counts turns of the event loop and stops a
test that overruns; a test that blocks outright (a busy loop, a blocking call) is cut off after
`seconds` of wall time, the process is killed, and a new one carries on with the next test.
A process that dies (sys.exit, os._exit, a crash) loses only the test it was running.

This is the one engine; lab/lab_check.py (students) and grader/ (instructors) are its front
doors.
"""
from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from lab.check import manifest, suite, turns
from lab.check.verdict import Outcome, Verdict, judge

# -I: the student's folder is not on the child's import path, so a file there named lab.py or
# asyncio.py cannot stand in for the kit's; the kit itself is put first, explicitly.
CHILD = [sys.executable, "-I", "-c",
         f"import sys; sys.path.insert(0, {str(manifest.KIT)!r}); "
         "from lab.check.child import main; sys.exit(main())"]


@dataclass
class Limits:
    """How much one run may take. Wall time here is only a guard against a hung file."""
    seconds_per_test: float = 5.0
    # Once one test of a file has held the process without a turn, the file has shown it can
    # hang, so each later test gets this much instead. A test of the fake world needs
    # milliseconds, so this costs a working test nothing and caps a file that hangs in every
    # test at about seconds_per_test + (tests - 1) * seconds_after_a_hang.
    seconds_after_a_hang: float = 1.0
    seconds_to_import: float = 10.0
    seconds_total: float = 300.0
    budget_turns: int = turns.BUDGET
    output_bytes: int = 64_000  # of the student's prints kept for the report; the rest is counted


@dataclass
class Report:
    harness: str
    outcomes: list[Outcome] = field(default_factory=list)
    output: str = ""  # what harness.py printed, capped
    output_dropped: int = 0  # bytes printed beyond the cap
    import_error: str | None = None
    sets: list[tuple[str, int, int]] = field(default_factory=list)  # (set name, tests, checks)
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(o.verdict is Verdict.PASS for o in self.outcomes)

    @property
    def failed(self) -> int:
        return len(self.outcomes) - self.passed


def expected_for(files: list[suite.TestFile]) -> dict:
    """The reference's observations for every test of `files`, from the kit's JSON files."""
    expected = {}
    for test_file in files:
        if test_file.lab_id is None:
            continue
        path = manifest.lab(test_file.lab_id).expected
        if path.exists():
            expected.update(json.loads(path.read_text(encoding="utf-8")))
    return expected


def run(harness: Path, files: list[suite.TestFile], expected: dict, *,
        limits: Limits | None = None, cwd: Path | None = None, env: dict | None = None,
        preexec_fn=None, on_outcome=None) -> Report:
    """Run `files` against `harness` in child processes and judge each test against
    `expected`. on_outcome(outcome) is called as each verdict is decided (progress bars)."""
    limits = limits or Limits()
    harness = Path(harness).resolve()
    report = Report(str(harness))
    plan = [(test_id, says, tf) for tf in files for test_id, says in _describe(tf)]
    report.sets = _sets(files, expected)
    job_files = [{"lab_id": tf.lab_id, "path": str(tf.path), "source": suite.blind(tf.source)}
                 for tf in files]
    started = time.monotonic()
    position = 0  # the index in `plan` of the next test without a verdict
    output = _Output(limits.output_bytes)
    hung = []  # set once a test has timed out by the wall clock

    def decide(outcome):
        report.outcomes.append(outcome)
        if on_outcome:
            on_outcome(outcome)

    while position < len(plan):
        if time.monotonic() - started > limits.seconds_total:
            for test_id, says, tf in plan[position:]:
                decide(Outcome(test_id, says, tf.lab_id, Verdict.TIMEOUT,
                               "Not run: the whole check ran past its time limit of "
                               f"{limits.seconds_total:.0f} seconds."))
            break
        position, fatal = _one_child(harness, plan, position, job_files, expected, limits,
                                     cwd, env, preexec_fn, output, decide, hung)
        if fatal is not None:  # harness.py does not import: every remaining test says so
            report.import_error = fatal
            for test_id, says, tf in plan[position:]:
                decide(Outcome(test_id, says, tf.lab_id, Verdict.FAIL, fatal))
            break
    report.output, report.output_dropped = output.text(), output.dropped
    return report


def _describe(test_file):
    """The tests of a file, in order, read from its decorators without running it."""
    return suite.describe_source(test_file.source, test_file.stem)


def _sets(files, expected):
    """(name, tests, checks) for each set of tests in the run, for the report."""
    sets = []
    for tf in files:
        ids = [test_id for test_id, _ in _describe(tf)]
        checks = sum(len(expected.get(i, {}).get("checks", ())) for i in ids)
        sets.append((f"lab {tf.lab_id}" if tf.lab_id else tf.path.name, len(ids), checks))
    return sets


class _Output:
    """The student's prints: the first `cap` bytes kept, the rest only counted."""

    def __init__(self, cap):
        self.cap, self.kept, self.dropped = cap, bytearray(), 0

    def add(self, data: bytes):
        room = self.cap - len(self.kept)
        self.kept += data[:max(room, 0)]
        self.dropped += max(len(data) - max(room, 0), 0)

    def text(self):
        return self.kept.decode("utf-8", errors="replace")


def _one_child(harness, plan, position, job_files, expected, limits, cwd, env, preexec_fn,
               output, decide, hung):
    """Start a child at plan[position] and judge tests until it finishes or dies. Returns the
    next position without a verdict, and an import error if harness.py would not import."""
    def per_test():
        return min(limits.seconds_per_test, limits.seconds_after_a_hang) if hung else \
            limits.seconds_per_test

    read_end, write_end = os.pipe()
    cpu = int(limits.seconds_total) + 5

    def guard():
        if preexec_fn is not None:
            preexec_fn()
        _tie_to_parent(cpu)  # after: a change of user clears the parent-death signal

    child = subprocess.Popen(
        CHILD + [str(write_end)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, pass_fds=(write_end,), cwd=cwd or harness.parent,
        env=env, preexec_fn=guard, start_new_session=True)
    os.close(write_end)
    job = {"harness": str(harness), "files": job_files, "start": position,
           "budget": limits.budget_turns}
    try:
        child.stdin.write(json.dumps(job).encode())
        child.stdin.close()
    except BrokenPipeError:
        pass
    events = _Events(read_end)
    selector = selectors.DefaultSelector()
    selector.register(read_end, selectors.EVENT_READ, "events")
    selector.register(child.stdout, selectors.EVENT_READ, "output")
    current = None  # (test_id, says, lab_id, observations, started_at) of the test running
    deadline = time.monotonic() + limits.seconds_to_import
    fatal, finished, open_streams = None, False, 2
    imported, timed_out, first = False, False, position
    try:
        while open_streams and not finished:
            timeout = max(deadline - time.monotonic(), 0)
            ready = selector.select(timeout)
            if not ready:  # the deadline passed: a hung import or a hung test
                timed_out = True
                if current is None:
                    fatal = ("harness.py did not finish importing within "
                             f"{limits.seconds_to_import:.0f} seconds: is there code at the top "
                             "level that never ends?")
                else:
                    test_id, says, lab_id, _, _ = current
                    decide(Outcome(test_id, says, lab_id, Verdict.TIMEOUT,
                                   f"Timed out: this test held the process for "
                                   f"{per_test():g} second{'' if per_test() == 1 else 's'} "
                                   "without giving the event loop a "
                                   "turn (a busy loop, or a call that blocks). It was stopped; "
                                   "the other tests still ran."))
                    hung.append(test_id)
                    position += 1
                break
            for key, _ in ready:
                if key.data == "output":
                    data = os.read(child.stdout.fileno(), 65536)
                    if not data:
                        selector.unregister(child.stdout)
                        open_streams -= 1
                    output.add(data)
                    continue
                messages, closed = events.read()
                if closed:
                    selector.unregister(read_end)
                    open_streams -= 1
                for message in messages:
                    kind = message.get("event") if isinstance(message, dict) else None
                    if kind == "imported":
                        imported = True
                        deadline = time.monotonic() + per_test()
                    elif kind == "import_failed":
                        fatal = "harness.py does not import: " + str(message.get("message"))
                        finished = True
                    elif kind == "start" and current is None and position < len(plan) and \
                            message.get("id") == plan[position][0]:
                        test_id, says, tf = plan[position]
                        current = (test_id, says, tf.lab_id, [], time.monotonic())
                        deadline = time.monotonic() + per_test()
                    elif kind == "check" and current is not None:
                        current[3].append((str(message.get("value")), str(message.get("why"))))
                    elif kind == "end" and current is not None and message.get("id") == current[0]:
                        test_id, says, lab_id, seen, _ = current
                        outcome = judge(test_id, says, lab_id, expected.get(test_id), seen,
                                        message.get("error"), message.get("kind"))
                        if outcome.verdict is not Verdict.PASS:
                            outcome.trace = message.get("trace")
                        decide(outcome)
                        current, position = None, position + 1
                        deadline = time.monotonic() + per_test()
                    elif kind == "done" and current is None:
                        finished = True
                    elif kind == "import":
                        pass
                    else:  # anything else on this channel was not written by lab.check.child
                        test_id, says, tf = plan[position]
                        decide(Outcome(test_id, says, tf.lab_id, Verdict.FAIL,
                                       "The checker's report channel carried something it did "
                                       "not write, so this test cannot pass. Leave file "
                                       "descriptors that harness.py did not open alone."))
                        position += 1
                        finished = True
                        break
                if finished:
                    break
        if not finished and not timed_out and fatal is None:  # the child died
            code = child.wait(timeout=5)
            if not imported:
                fatal = "harness.py does not import: " + _death(code, importing=True)
            elif current is not None or position == first:
                test_id, says, tf = plan[position]
                message = _death(code)
                decide(Outcome(test_id, says, tf.lab_id, Verdict.CRASH, message[:1].upper() + message[1:]))
                position += 1
    finally:
        _stop(child)
        selector.close()
        os.close(read_end)
        if child.stdout:
            child.stdout.close()
    return position, fatal


def _tie_to_parent(cpu_seconds: int):
    """In the child, before it runs anything: die with the checker (Linux's parent-death
    signal), and never use more than `cpu_seconds` of processor time. A checker stopped with
    Ctrl-C must not leave a spinning harness.py behind in a session of its own."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard == resource.RLIM_INFINITY or cpu_seconds < hard:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, hard))
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: the CPU limit still bounds a forgotten child


def _death(code, importing=False) -> str:
    when = "while it was being imported" if importing else "during this test"
    rest = "" if importing else " The other tests still ran."
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return (f"the process running harness.py was killed by signal {name} {when} (a crash, "
                f"or a resource limit).{rest}")
    return (f"the process running harness.py ended {when}, with exit code {code}: does "
            f"harness.py call sys.exit() or os._exit()?{rest}")


def _stop(child):
    if child.poll() is None:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            child.kill()
    child.wait()


class _Events:
    """JSON lines from the child's report channel."""

    def __init__(self, fd):
        self.fd, self.buffer = fd, b""

    def read(self):
        data = os.read(self.fd, 65536)
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        messages = []
        for line in lines:
            try:
                messages.append(json.loads(line))
            except ValueError:
                messages.append(None)
        return messages, not data
