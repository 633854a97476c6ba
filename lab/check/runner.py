"""Runs a suite against a harness.py in a separate process, and decides every verdict here.

The student's file runs in lab/check/child.py, which reports each value its checks found. This side
compares those values with what the reference found at the same checks (the expected
observations, starters/*/lab*/expected.json) and decides pass or fail. Nothing the child prints is
read for a verdict, and a test passes only if the child reported every check the reference
made, with equal values, and then reported the test's end.

The child is started, fed and read the same way on every system. Its standard output is the
report channel, each line opened by a secret made for the run, so that a line the child's own
code did not write is caught; what harness.py prints arrives on its standard error, capped;
its standard input carries the job and ties it to this process, since it ends when this end
closes. Threads read both pipes into one queue, and the guards wait on that queue.

A test that hangs costs a bounded time:
- turns: the child counts turns of the event loop and stops a test past its budget, or one
  waiting for something that can never happen;
- spin: a test that uses `cpu_without_a_turn` seconds of processor time without a single turn
  (a busy loop) is stopped, as the child's heartbeat shows. Processor time is what a slow or
  busy machine cannot inflate: a correct test uses microseconds of it per turn;
- wall clock: a test that holds the process for `seconds_per_test` without either (a call that
  blocks, such as time.sleep) is stopped.
A child that is stopped or dies (sys.exit, os._exit, a crash) loses only the test it was running;
a new one carries on with the next test. Once a file has hung, its later tests get shorter
guards, and a spare child waits ready, so each further hang costs little more than its guard.

Where the system is POSIX, the child also gets a CPU limit, Linux's parent-death signal and a
session of its own (so the whole group is killed). Windows has none of these and takes the
portable path, with the same verdicts; HARNESS_CHECK_PORTABLE=1 makes any system take it, so
that the kit's tests run it on Linux too.

This is the one engine; lab/lab_check.py (students) and grader/ (instructors) are its front
doors. It never imports asyncio: the child does.
"""
from __future__ import annotations

import contextlib
import functools
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from lab.check import manifest, suite
from lab.check.verdict import Outcome, Verdict, judge

PORTABLE_ENV = "HARNESS_CHECK_PORTABLE"

# -I: the student's folder is not on the child's import path, so a file there named lab.py or
# asyncio.py cannot stand in for the kit's; the kit itself is put first, explicitly.
# -X utf8: what harness.py prints arrives as UTF-8 on every system.
CHILD = [sys.executable, "-I", "-X", "utf8", "-c",
         f"import sys; sys.path.insert(0, {str(manifest.KIT)!r}); "
         "from lab.check.child import main; sys.exit(main())"]

LONGEST_REPORT = 1 << 24  # bytes; a longer line on the channel was not written by the child


def portable() -> bool:
    """Whether children are started and stopped with only what every system has: always on
    Windows, and anywhere HARNESS_CHECK_PORTABLE=1 (how the kit's tests run that path on Linux)."""
    return os.name == "nt" or os.environ.get(PORTABLE_ENV) == "1"


@dataclass
class Limits:
    """How much one run may take. Every guard is there against a file that hangs; no correct
    test comes near one."""
    seconds_per_test: float = 5.0
    # Once one test of a file has hung, the file has shown it can, so each later test gets
    # this much instead. A test of the fake world needs milliseconds, so this costs a working
    # test nothing.
    seconds_after_a_hang: float = 1.0
    # Processor seconds a test may use without one turn of the event loop. The reference
    # solutions use at most a few milliseconds between two turns (bench/checker.py measures
    # it), so this is about a hundred times that, in a measure a loaded machine cannot inflate.
    cpu_without_a_turn: float = 0.5
    cpu_after_a_hang: float = 0.15  # as seconds_after_a_hang, for the spin guard
    heartbeat: float = 0.02  # seconds between the child's reports of its turns and CPU time
    seconds_to_import: float = 10.0
    seconds_total: float = 300.0
    budget_turns: int | None = None  # None: the child's own default, turns.BUDGET
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
        preexec_fn=None, on_outcome=None, in_process: bool = False) -> Report:
    """Run `files` against `harness` in child processes and judge each test against
    `expected`. on_outcome(outcome) is called as each verdict is decided (progress bars).
    preexec_fn, the grader's sandbox, is run in each child before it starts (POSIX only).

    With `in_process`, the practice check: the tests run here, in this process, and are judged
    by the same code; for the browser, where no process can be started. Nothing then guards
    this process from harness.py: a file that blocks without a turn hangs it, and what the file
    does to this process stays done. Its verdicts are the same as a child's on every file
    that neither blocks nor tampers."""
    limits = limits or Limits()
    harness = Path(harness).resolve()
    report = Report(str(harness))
    secret = os.urandom(16).hex()

    def launch():
        if in_process:
            return _InProcess(harness, limits)
        return _Child(harness, secret, limits, cwd=cwd or harness.parent, env=env,
                      preexec_fn=preexec_fn)

    child, spare = launch(), None  # started first: it starts up while the tests are read
    output = _Output(limits.output_bytes)
    try:
        plan = _Plan(files)
        report.sets = plan.sets(expected)
        state = _Run(plan, expected, limits, report, on_outcome)
        position, started, lost = 0, time.monotonic(), 0
        while position < len(plan.tests):
            if time.monotonic() - started > limits.seconds_total:
                state.decide_rest(position, Verdict.TIMEOUT, "Not run: the whole check ran past "
                                  f"its time limit of {limits.seconds_total:.0f} seconds.")
                break
            if child is None:
                child, spare = spare or launch(), None
            if lost and spare is None:
                spare = launch()  # this file has lost a child; the next one waits ready
            plan.send(child, position)
            session = _Session(state, child, position)
            session.judge()
            child.stop()
            output.absorb(child.output)
            child, position = None, session.position
            if session.fatal is not None:  # harness.py does not import: every test says so
                report.import_error = session.fatal
                state.decide_rest(position, Verdict.FAIL, session.fatal)
                break
            lost += 1
    finally:
        for left in (child, spare):
            if left is not None:
                left.stop()
    report.output, report.output_dropped = output.text(), output.dropped
    return report


# --- what a run holds -----------------------------------------------------------------------

@dataclass(frozen=True)
class _Planned:
    """One test of the run, as its file declares it."""
    id: str
    says: str
    lab_id: str | None
    file: int  # its file's index in the run


@dataclass
class _Running:
    """The test a child is running: the checks it has reported so far, and where the spin
    guard last saw the event loop turn."""
    planned: _Planned
    seen: list[tuple[str, str]] = field(default_factory=list)  # (encoded value, why)
    turned: tuple[int, float] | None = None  # (turns taken, CPU seconds) at that heartbeat


class _Plan:
    """The run's tests in order, read from the decorators without running anything, and the
    code a child gets for each file."""

    def __init__(self, files: list[suite.TestFile]):
        self.files = files
        self.tests = [_Planned(test_id, says, tf.lab_id, n) for n, tf in enumerate(files)
                      for test_id, says in _described(tf.source, tf.stem)]
        self.first_of = {}  # file index -> position of its first test
        for position, planned in reversed(list(enumerate(self.tests))):
            self.first_of[planned.file] = position

    def sets(self, expected: dict) -> list[tuple[str, int, int]]:
        """(name, tests, checks) for each set of tests in the run, for the report."""
        sets = []
        for n, tf in enumerate(self.files):
            ids = [t.id for t in self.tests if t.file == n]
            checks = sum(len(expected.get(i, {}).get("checks", ())) for i in ids)
            sets.append((f"lab {tf.lab_id}" if tf.lab_id else tf.path.name, len(ids), checks))
        return sets

    def send(self, child: "_Child", position: int) -> None:
        """Give `child` the tests from `position` on: the files from the one holding it, each
        file's code as soon as it is blinded, so the child runs the first file's tests while
        this process blinds the next."""
        first = self.tests[position].file
        child.send({"start": position - self.first_of[first],
                    "files": [{"lab_id": tf.lab_id, "path": str(tf.path)}
                              for tf in self.files[first:]]})
        for test_file in self.files[first:]:
            child.send({"source": _blinded(test_file.source)})


# A grader's worker runs the same files for submission after submission: each file is read and
# blinded once per process.
@functools.lru_cache(maxsize=256)
def _described(source: str, stem: str) -> tuple[tuple[str, str], ...]:
    return tuple(suite.describe_source(source, stem))


@functools.lru_cache(maxsize=256)
def _blinded(source: str) -> str:
    return suite.blind(source)


@dataclass
class _Run:
    """What every child's session of one run shares."""
    plan: _Plan
    expected: dict
    limits: Limits
    report: Report
    on_outcome: object = None
    hung: bool = False  # a test of this file has hung: later tests get the shorter guards

    def decide(self, outcome: Outcome) -> None:
        self.report.outcomes.append(outcome)
        if self.on_outcome:
            self.on_outcome(outcome)

    def decide_rest(self, position: int, verdict: Verdict, message: str) -> None:
        for planned in self.plan.tests[position:]:
            self.decide(Outcome(planned.id, planned.says, planned.lab_id, verdict, message))

    @property
    def seconds_per_test(self) -> float:
        limits = self.limits
        return min(limits.seconds_per_test, limits.seconds_after_a_hang) if self.hung \
            else limits.seconds_per_test

    @property
    def cpu_without_a_turn(self) -> float:
        limits = self.limits
        return min(limits.cpu_without_a_turn, limits.cpu_after_a_hang) if self.hung \
            else limits.cpu_without_a_turn


# --- one child's session --------------------------------------------------------------------

class _Session:
    """One child's share of a run: from `position` on, take its reports and judge each test it
    ends, until it is done, dies, hangs or spins, or its channel carries a line it did not
    write. Afterwards `position` is the first test without a verdict, and `fatal` says why
    harness.py would not import, if it would not."""

    def __init__(self, run: _Run, child: "_Child", position: int):
        self.run, self.child = run, child
        self.first = self.position = position
        self.test: _Running | None = None
        self.imported = False
        self.fatal: str | None = None
        self.deadline = time.monotonic() + run.limits.seconds_to_import

    def judge(self) -> None:
        while True:
            event = self.child.next(self.deadline - time.monotonic())
            if event is None:
                return self._timed_out()
            kind, message = event
            if kind == "closed":
                return self._ended()
            step = self._take(message) if kind == "report" else "forged"
            if step == "forged":
                return self._forged()
            if step == "over":
                return

    def _take(self, message: dict) -> str:
        """Act on one report; "more", "over" (the session is over) or "forged" (no report the
        child writes at this point)."""
        kind, plan = message.get("event"), self.run.plan
        if kind == "beat":
            return self._beat(message)
        if kind == "import" and not self.imported:
            return "more"
        if kind == "imported" and not self.imported:
            self.imported = True
            self._wait(self.run.seconds_per_test)
            return "more"
        if kind == "import_failed" and not self.imported:
            self.fatal = "harness.py does not import: " + str(message.get("message"))
            return "over"
        if kind == "start" and self.imported and self.test is None and \
                self.position < len(plan.tests) and \
                message.get("id") == plan.tests[self.position].id:
            self.test = _Running(plan.tests[self.position])
            self._wait(self.run.seconds_per_test)
            return "more"
        if kind == "check" and self.test is not None:
            self.test.seen.append((str(message.get("value")), str(message.get("why"))))
            return "more"
        if kind == "end" and self.test is not None and message.get("id") == self.test.planned.id:
            planned = self.test.planned
            outcome = judge(planned.id, planned.says, planned.lab_id,
                            self.run.expected.get(planned.id), self.test.seen,
                            message.get("error"), message.get("kind"))
            if outcome.verdict is not Verdict.PASS:
                outcome.trace = message.get("trace")
            self._decided(outcome)
            self._wait(self.run.seconds_per_test)
            return "more"
        if kind == "done" and self.imported and self.test is None:
            self.run.decide_rest(self.position, Verdict.FAIL, "This test never ran: the process "
                                 "running harness.py said the tests were over before it.")
            self.position = len(plan.tests)
            return "over"
        return "forged"

    def _beat(self, beat: dict) -> str:
        """The spin guard: stop the test once it has used its CPU allowance without a turn."""
        turns, cpu = beat.get("turns"), beat.get("cpu")
        if not (isinstance(turns, int) and isinstance(cpu, (int, float))):
            return "forged"
        test = self.test
        if test is None:
            return "more"  # between tests, or importing: the wall clock guards those
        if test.turned is None or turns != test.turned[0]:
            test.turned = (turns, cpu)
            return "more"
        allowed = self.run.cpu_without_a_turn
        if cpu - test.turned[1] < allowed:
            return "more"
        self._stopped(test.planned, f"Timed out: this test spun through {allowed:g} seconds of "
                      "processor time without giving the event loop a turn (a loop that never "
                      "awaits). It was stopped; the other tests still ran.")
        return "over"

    def _timed_out(self) -> None:
        if not self.imported:
            self.fatal = ("harness.py did not finish importing within "
                          f"{self.run.limits.seconds_to_import:.0f} seconds: is there code at the "
                          "top level that never ends?")
            return
        planned = self._current()
        if planned is None:
            return  # every test has its verdict; only the child's goodbye is missing
        seconds = self.run.seconds_per_test
        self._stopped(planned, f"Timed out: this test held the process for {seconds:g} "
                      f"second{'' if seconds == 1 else 's'} without giving the event loop a "
                      "turn (a call that blocks, such as time.sleep, or a busy loop). It was "
                      "stopped; the other tests still ran.")

    def _ended(self) -> None:
        """The channel closed before the child said it was done: it died, or closed it."""
        code = self.child.exit_code(wait=2.0)
        if code is None:
            self._forged("The process running harness.py closed the checker's report channel, "
                         "so this test cannot pass. Leave file descriptors that harness.py did "
                         "not open alone.")
        elif not self.imported:
            self.fatal = "harness.py does not import: " + _death(code, importing=True)
        elif self.test is not None or self.position == self.first:
            planned = self._current()
            if planned is not None:  # a child that dies before any test loses the first
                message = _death(code)
                self._decided(Outcome(planned.id, planned.says, planned.lab_id, Verdict.CRASH,
                                      message[:1].upper() + message[1:]))

    def _forged(self, message: str | None = None) -> None:
        planned = self._current()
        if planned is not None:
            self._decided(Outcome(
                planned.id, planned.says, planned.lab_id, Verdict.FAIL, message or
                "The checker's report channel carried something it did not write, so this test "
                "cannot pass. Leave file descriptors that harness.py did not open alone."))

    def _stopped(self, planned: _Planned, message: str) -> None:
        self._decided(Outcome(planned.id, planned.says, planned.lab_id, Verdict.TIMEOUT, message))
        self.run.hung = True

    def _current(self) -> _Planned | None:
        """The test running, or the next one; None once every test has its verdict."""
        if self.test is not None:
            return self.test.planned
        tests = self.run.plan.tests
        return tests[self.position] if self.position < len(tests) else None

    def _decided(self, outcome: Outcome) -> None:
        self.run.decide(outcome)
        self.test, self.position = None, self.position + 1

    def _wait(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds


# --- one child process ----------------------------------------------------------------------

class _Child:
    """One process running lab/check/child.py: started with the POSIX hardening where there is
    POSIX, then fed and read by threads, the same way everywhere. Its reports come out of
    next() as ("report", message), ("forged", None) or ("closed", None)."""

    def __init__(self, harness: Path, secret: str, limits: Limits, *, cwd, env, preexec_fn):
        options, self.group = _start_options(limits, preexec_fn)
        self.process = subprocess.Popen(CHILD, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, cwd=cwd, env=env, **options)
        self.output = _Output(limits.output_bytes)
        self.events: queue.Queue = queue.Queue()
        self._writes: queue.Queue = queue.Queue()
        self._threads = [_thread(self._write), _thread(self._read_reports, secret),
                         _thread(self._read_output)]
        self.send({"secret": secret, "harness": str(harness), "budget": limits.budget_turns,
                   "beat": limits.heartbeat})

    def send(self, message: dict) -> None:
        """Queue one line of the job; a thread writes it, so a child that stops reading cannot
        hold up the guards."""
        self._writes.put(json.dumps(message).encode() + b"\n")

    def next(self, timeout: float):
        """The next event, or None when `timeout` seconds pass without one."""
        try:
            return self.events.get(timeout=max(timeout, 0))
        except queue.Empty:
            return None

    def exit_code(self, wait: float) -> int | None:
        """The child's exit code, waiting at most `wait` seconds; None if it is still running."""
        try:
            return self.process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def stop(self) -> None:
        """Kill the child (and, with a session of its own, everything it started), and close its
        standard input: on Windows a venv's python.exe is a launcher, and the interpreter it
        started ends when it sees that pipe close."""
        if self.process.poll() is None:
            try:
                if self.group:
                    os.killpg(self.process.pid, signal.SIGKILL)
                else:
                    self.process.kill()
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        self._writes.put(None)
        self.process.wait()
        self._threads[2].join(1.0)  # the last of what it printed

    def _write(self):
        pipe = self.process.stdin
        while (data := self._writes.get()) is not None:
            try:
                while data:
                    data = data[os.write(pipe.fileno(), data):]
            except OSError:
                break  # the child is gone
        pipe.close()

    def _read_reports(self, secret: str):
        prefix, buffer = secret.encode() + b" ", b""
        with self.process.stdout as pipe:
            while data := _read(pipe):
                *lines, buffer = (buffer + data).split(b"\n")
                for line in lines:
                    self.events.put(_report(line.rstrip(b"\r"), prefix))
                if len(buffer) > LONGEST_REPORT:
                    self.events.put(("forged", None))
                    buffer = b""
        self.events.put(("closed", None))

    def _read_output(self):
        with self.process.stderr as pipe:
            while data := _read(pipe):
                self.output.add(data)


class _InProcess:
    """A child's stand-in for the practice check: the same reports, made in this process.
    The tests run when the first report is asked for, once the plan has sent the whole job;
    what harness.py prints meanwhile is kept as a child's would be."""

    def __init__(self, harness: Path, limits: Limits):
        self.harness, self.limits = str(harness), limits
        self.job: list[dict] = []
        self.reports: list[dict] | None = None
        self.output = _Output(limits.output_bytes)

    def send(self, message: dict) -> None:
        self.job.append(message)

    def next(self, timeout: float):
        if self.reports is None:
            self.reports = self._run()
        return ("report", self.reports.pop(0)) if self.reports else ("closed", None)

    def exit_code(self, wait: float) -> int | None:
        return 0

    def stop(self) -> None:
        pass

    def _run(self) -> list[dict]:
        from lab.check import child, turns  # the world's asyncio, loaded only for this path
        reports: list[dict] = []
        run, sources = self.job[0], [m["source"] for m in self.job[1:]]
        files = [suite.TestFile(f["lab_id"], Path(f["path"]), "") for f in run["files"]]
        printed = _Printed(self.output)
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            if child.import_reported(self.harness, reports.append):
                child.run_tests(files, sources, reports.append, start=run["start"],
                                budget=self.limits.budget_turns or turns.BUDGET,
                                harness_path=self.harness)
                reports.append({"event": "done"})
        return reports


class _Printed:
    """A text stream that keeps what it is given in an _Output, as a child's pipe would."""

    def __init__(self, output: "_Output"):
        self.output = output

    def write(self, text: str) -> int:
        self.output.add(text.encode("utf-8", "replace"))
        return len(text)

    def flush(self) -> None:
        pass


def _report(line: bytes, prefix: bytes):
    """A line from the channel as an event: a report only if it opens with the run's secret and
    holds a JSON object."""
    if line.startswith(prefix):
        try:
            message = json.loads(line[len(prefix):])
        except ValueError:
            message = None
        if isinstance(message, dict):
            return "report", message
    return "forged", None


def _read(pipe) -> bytes:
    try:
        return os.read(pipe.fileno(), 1 << 16)
    except (OSError, ValueError):
        return b""


def _thread(target, *args) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread


class _Output:
    """The student's prints: the first `cap` bytes kept, the rest only counted."""

    def __init__(self, cap):
        self.cap, self.kept, self.dropped = cap, bytearray(), 0
        self.lock = threading.Lock()

    def add(self, data: bytes):
        with self.lock:
            room = max(self.cap - len(self.kept), 0)
            self.kept += data[:room]
            self.dropped += max(len(data) - room, 0)

    def absorb(self, other: "_Output"):
        """Add what another child printed, after what is here."""
        with other.lock:
            kept, dropped = bytes(other.kept), other.dropped
        self.add(kept)
        with self.lock:
            self.dropped += dropped

    def text(self):
        """What was kept, with Windows's line ends read as everyone else's."""
        return self.kept.decode("utf-8", errors="replace").replace("\r\n", "\n")


# --- how a child is started and what its end means ------------------------------------------

def _start_options(limits: Limits, preexec_fn) -> tuple[dict, bool]:
    """Popen's options for a child here, and whether it leads a process group of its own.

    On the POSIX path: a new session, a CPU limit and, on Linux, the parent-death signal. On the
    portable path none of these; on Windows a process group of its own, so that Ctrl-C reaches
    only the checker, which then stops the child. A caller's preexec_fn (the grader's sandbox)
    is its own POSIX hardening: it is always run, in a new session, and Windows refuses it."""
    if not portable():
        tie = _posix_tie(int(limits.seconds_total) + 5)

        def guard():
            if preexec_fn is not None:
                preexec_fn()
            tie()  # after: a change of user clears the parent-death signal
        return {"preexec_fn": guard, "start_new_session": True}, True
    if preexec_fn is not None:
        if os.name == "nt":
            raise RuntimeError("runner.run(preexec_fn=...) needs a POSIX system; the grader's "
                               "sandbox runs only on Linux.")
        return {"preexec_fn": preexec_fn, "start_new_session": True}, True
    if os.name == "nt":
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}, False
    return {}, False


def _posix_tie(cpu_seconds: int):
    """What the child runs between fork and exec: never more than `cpu_seconds` of processor
    time, and on Linux die with the checker even if it is killed outright. Everything it needs
    is looked up here first: only system calls are safe between fork and exec."""
    import resource
    prctl = None
    if sys.platform.startswith("linux"):
        import ctypes
        try:
            prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            pass

    def tie():
        soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        if hard == resource.RLIM_INFINITY or cpu_seconds < hard:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, hard))
        if prctl is not None:
            prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    return tie


def _death(code, importing=False) -> str:
    """How the child ended, for a student: a signal (POSIX), a crash status (Windows) or an
    exit code."""
    when = "while it was being imported" if importing else "during this test"
    rest = "" if importing else " The other tests still ran."
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return (f"the process running harness.py was killed by signal {name} {when} (a crash, "
                f"or a resource limit).{rest}")
    if code is not None and code >= 0xC0000000:  # an NTSTATUS: Windows ended it for a fault
        return (f"the process running harness.py crashed {when}: Windows ended it with status "
                f"0x{code:08X} (0xC0000005 is a bad memory access).{rest}")
    return (f"the process running harness.py ended {when}, with exit code {code}: does "
            f"harness.py call sys.exit() or os._exit()?{rest}")
