"""The process that runs harness.py, seen from the checker: how it is started, fed and read,
and what its end means. The session logic that judges its reports is lab/check/runner.py's.

A child is started, fed and read the same way on every system. Its standard output is the
report channel, each line opened by a secret made for the run and holding one report
(lab/check/protocol.py), so that a line the child's own code did not write is caught; what
harness.py prints arrives on its standard error, capped; its standard input carries the job and
ties it to this process, since it ends when this end closes. The job holds each test file's
code, with the wanted values taken out: the child never opens a test file, so a sandbox may
show it none (the grader's does not). A thread reads the channel into a queue, each report
stamped with the time it was read and its size, and the runner's guards wait on that queue.
The queue holds at most QUEUE_BYTES of reports: a child that writes faster than the runner
judges waits in its own write, so no flood can fill this process's memory, and the stamps
show the judge how late a report came.

Where the system is POSIX, the child also gets a CPU limit, Linux's parent-death signal and a
session of its own (so the whole group is killed), and it enters its folder only once it holds
none of the checker's descriptors (_entered). Windows has none of these and takes the
portable path, with the same verdicts; HARNESS_CHECK_PORTABLE=1 makes any system take it, so
that the kit's tests run it on Linux too.

`InProcess` stands in for a child where no process can be started (the browser's practice
check): the same reports, made in the checker's own process.
"""
from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from lab.check import hangs, job, manifest, protocol, seeds, suite

PORTABLE_ENV = "HARNESS_CHECK_PORTABLE"

# -P -s: the student's folder is not on the child's import path, so a file there named lab.py or
# asyncio.py cannot stand in for the kit's; the kit itself is put first, explicitly. This is -I
# without its -E, which would also ignore the PYTHONHASHSEED the child must run under: the
# other PYTHON* variables are taken out of its environment instead (child_env).
# -X utf8: what harness.py prints arrives as UTF-8 on every system.
CHILD = [sys.executable, "-P", "-s", "-X", "utf8", "-c",
         f"import sys; sys.path.insert(0, {str(manifest.KIT)!r}); "
         "from lab.check.child import main; sys.exit(main())"]

# The same interpreter, made ready to fork children from (lab/check/zygote.py); its socket's
# descriptor is its last argument.
# Its __main__ holds the names a started child's does (main, sys), and no others.
ZYGOTE = [*CHILD[:-1], f"import sys; sys.path.insert(0, {str(manifest.KIT)!r}); "
          "from lab.check.child import main; "
          "sys.exit(__import__('lab.check.zygote').check.zygote.serve(int(sys.argv[1])))"]
FORK_ENV = "HARNESS_CHECK_FORK"

LONGEST_REPORT = 1 << 24  # bytes; a longer line on the channel was not written by the child
QUEUE_BYTES = 1 << 20  # of reports read and not yet judged (and one report more)


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
    # The practice check's spin guard (lab/check/spin.py), which has no process to watch from
    # outside: rounds of harness.py's loops a test may go without one turn of the event loop.
    # The reference solutions go at most about 5 000 (bench/site_check.py counts them): a
    # hundred times that, then ten times once the file has spun. A count, so no machine's speed
    # changes it.
    rounds_without_a_turn: int = 500_000
    rounds_after_a_hang: int = 50_000
    heartbeat: float = 0.02  # seconds between the child's reports of its turns and CPU time
    # A file that hangs at the same place (one function of harness.py) in this many tests in a
    # row will hang there in the rest (lab/check/hangs.py). The student's check then stops and
    # says where; the grader, which owes every test a verdict, goes on under these allowances.
    hangs_in_a_row: int = 3
    stop_at_hangs_in_a_row: bool = True
    cpu_after_hangs_in_a_row: float = 0.1
    seconds_after_hangs_in_a_row: float = 0.5
    seconds_to_import: float = 10.0
    seconds_total: float = 300.0
    budget_turns: int | None = None  # None: the child's own default, turns.BUDGET
    output_bytes: int = 64_000  # of the student's prints kept for the report; the rest is counted
    # Reports a child may send between two of a test's boundaries (importing, a test's start
    # and end). A test of the course sends at most a few kilobytes (its found values); this is
    # twice the longest line the channel takes, so it is only ever met by a flood.
    report_bytes_per_test: int = 2 * LONGEST_REPORT


@dataclass(frozen=True)
class Received:
    """One report off the channel: a protocol report, Forged() or Closed(); when it was read
    (time.monotonic(); None where no clock applies: the practice check's reports are all made
    before the first is read); and its size in bytes."""
    report: object
    at: float | None
    size: int


@dataclass(frozen=True)
class Forged:
    """The channel carried a line the child's code does not write: no secret, or no report."""


@dataclass(frozen=True)
class Closed:
    """The channel closed: the child ended, or closed it."""


class Child:
    """One process running lab/check/child.py: started with the POSIX hardening where there is
    POSIX, then fed and read by threads, the same way everywhere. Its reports come out of
    next() as Received."""

    def __init__(self, harness: Path, secret: str, limits: Limits, *, cwd, env, preexec_fn,
                 seed: int = seeds.PUBLIC):
        options, self.group = start_options(limits, preexec_fn, cwd)
        self.process = _forked(cwd, child_env(env, seed), limits, preexec_fn) or \
            subprocess.Popen(CHILD, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=child_env(env, seed), **options)
        self.output = Output(limits.output_bytes)
        self.events: queue.Queue = _Reports(QUEUE_BYTES)
        self._stopping = threading.Event()
        self._writes: queue.Queue = queue.Queue()
        self._threads = [_thread(self._write), _thread(self._read_reports, secret),
                         _thread(self._read_output)]
        self.send(job.Header(secret, str(harness), seed, limits.budget_turns, limits.heartbeat))

    def send(self, message: job.Message) -> None:
        """Queue one line of the job; a thread writes it, so a child that stops reading cannot
        hold up the guards."""
        self._writes.put(job.encode(message))

    def next(self, timeout: float) -> Received | None:
        """The next report, or None when `timeout` seconds pass first."""
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
        self._stopping.set()  # a reader waiting for room in the queue gives up
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
        stdout = self.process.stdout
        if stdout is None:  # started with stdout=PIPE: never
            return
        with stdout as pipe:
            while data := _read(pipe):
                *lines, buffer = (buffer + data).split(b"\n")
                for line in lines:
                    if not self._put(_report(line.rstrip(b"\r"), prefix), len(line) + 1):
                        return
                if len(buffer) > LONGEST_REPORT:
                    if not self._put(Forged(), len(buffer)):
                        return
                    buffer = b""
        self._put(Closed(), 1)

    def _put(self, report, size: int) -> bool:
        """Queue a report stamped now, waiting while the queue is full; False once the child
        is being stopped, when nobody will read it."""
        received = Received(report, time.monotonic(), size)
        while not self._stopping.is_set():
            try:
                self.events.put(received, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _read_output(self):
        with self.process.stderr as pipe:
            while data := _read(pipe):
                self.output.add(data)


class InProcess:
    """A child's stand-in for the practice check: the same reports, made in this process.
    The tests run when the first report is asked for, once the plan has sent the whole job;
    what harness.py prints meanwhile is kept as a child's would be. A test that spins is
    stopped by lab/check/spin.py's guard and ends as a child's would after its spin guard."""

    def __init__(self, harness: Path, limits: Limits, seed: int = seeds.PUBLIC):
        self.harness, self.limits, self.seed = str(harness), limits, seed
        self.job: list[job.Message] = []
        self.reports: list | None = None
        self.output = Output(limits.output_bytes)

    def send(self, message: job.Message) -> None:
        self.job.append(message)

    def next(self, timeout: float) -> Received:
        if self.reports is None:
            self.reports = self._run()
        return self.reports.pop(0) if self.reports else Received(Closed(), None, 1)

    def exit_code(self, wait: float) -> int | None:
        return 0

    def stop(self) -> None:
        pass

    def _run(self) -> list:
        from lab.check import child, spin, turns  # the world's asyncio, only for this path
        reports: list = []

        limits = self.limits
        streak = hangs.Streak(limits.hangs_in_a_row)  # as the runner counts them

        def emit(report):  # through the codec, as a child's report travels
            line = protocol.encode(report)
            reports.append(Received(protocol.decode(line), None, len(line.encode()) + 1))
            if isinstance(report, protocol.Ended):
                streak.add(report.place)

        def each() -> bool:  # the runner stops reading at a repeated hang: so do the tests
            guard.next_test()
            return not (limits.stop_at_hangs_in_a_row and streak.repeated)
        run, sources = self.job[0], [m.source for m in self.job[1:] if isinstance(m, job.Source)]
        if not isinstance(run, job.Run):
            raise TypeError(f"a job starts with a Run, not {run!r}")
        files = [suite.TestFile(f.lab_id, Path(f.path), "") for f in run.files]
        printed = _Printed(self.output)
        guard = spin.Guard(self.harness, limits)  # in place of the child's, watched from out
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed), guard:
            if child.import_reported(self.harness, emit):
                child.run_tests(files, sources, emit, start=run.start,
                                budget=self.limits.budget_turns or turns.BUDGET,
                                harness_path=self.harness, seed=self.seed, each=each)
                emit(protocol.Done())
        return reports


class _Reports(queue.Queue):
    """A queue of Received that holds at most `maxsize` bytes of reports, and one report more
    (so a single long one still passes): queue.Queue measures its fill by _qsize, which here
    counts bytes rather than items. Every Received is at least a byte."""

    def _init(self, maxsize):
        super()._init(maxsize)
        self.bytes = 0

    def _qsize(self):
        return self.bytes

    def _put(self, item):
        super()._put(item)
        self.bytes += item.size

    def _get(self):
        item = super()._get()
        self.bytes -= item.size
        return item


class _Printed:
    """A text stream that keeps what it is given in an Output, as a child's pipe would."""

    def __init__(self, output: "Output"):
        self.output = output

    def write(self, text: str) -> int:
        self.output.add(text.encode("utf-8", "replace"))
        return len(text)

    def flush(self) -> None:
        pass


def _report(line: bytes, prefix: bytes):
    """A line from the channel as a report: only if it opens with the run's secret and holds
    one of the protocol's reports; otherwise Forged()."""
    if line.startswith(prefix):
        try:
            return protocol.decode(line[len(prefix):])
        except protocol.Malformed:
            pass
    return Forged()


def _read(pipe) -> bytes:
    try:
        return os.read(pipe.fileno(), 1 << 16)
    except (OSError, ValueError):
        return b""


def _thread(target, *args) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread


class Output:
    """The student's prints: the first `cap` bytes kept, the rest only counted."""

    def __init__(self, cap):
        self.cap, self.kept, self.dropped = cap, bytearray(), 0
        self.lock = threading.Lock()

    def add(self, data: bytes):
        with self.lock:
            room = max(self.cap - len(self.kept), 0)
            self.kept += data[:room]
            self.dropped += max(len(data) - room, 0)

    def absorb(self, other: "Output"):
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

def child_env(env: dict | None, seed: int) -> dict:
    """The child's environment: `env` (this process's when None) without the PYTHON* variables
    that -I would have ignored, and with PYTHONHASHSEED pinned by the seed, so that a set's
    order, and every verdict that hangs on it, is the same on every run under that seed."""
    base = os.environ if env is None else env
    return {**{key: value for key, value in base.items()
               if not key.upper().startswith("PYTHON")},
            "PYTHONHASHSEED": seeds.hash_seed(seed)}


def start_options(limits: Limits, preexec_fn, cwd=None) -> tuple[dict, bool]:
    """Popen's options for a child started in the folder `cwd`, and whether it leads a process
    group of its own. Call it just before Popen: a child that runs anything between fork and
    exec enters `cwd` there, after closing what this process held at this call (_entered).

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
        return {"preexec_fn": _entered(cwd, guard), "start_new_session": True}, True
    if preexec_fn is not None:
        if os.name == "nt":
            raise RuntimeError("runner.run(preexec_fn=...) needs a POSIX system; the grader's "
                               "sandbox runs only on Linux.")
        return {"preexec_fn": _entered(cwd, preexec_fn), "start_new_session": True}, True
    if sys.platform == "win32":  # os.name == "nt", as mypy reads a platform
        return {"cwd": cwd, "creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}, False
    return {"cwd": cwd}, False


def _entered(cwd, then):
    """What a child runs between fork and exec: close every descriptor this process holds now
    (taken before Popen makes the child's own pipes, so the child keeps those and the one on
    which subprocess learns of its exec), then enter `cwd`, then run `then`.

    subprocess would enter `cwd` first and close the rest only after preexec_fn: all that time
    the child sits in its folder holding this process's descriptors, and whoever may look at
    the processes in that folder through /proc (a submission graded beside it, as the same
    user) can write into them: the grader's worker's own pipes among them. A number closed and
    reused meanwhile names another file, and is left for subprocess to close at exec."""
    held = _held()

    def enter():
        for fd, identity in held:
            try:
                found = os.fstat(fd)
            except OSError:
                continue
            if (found.st_dev, found.st_ino) == identity:
                os.close(fd)
        if cwd is not None:
            os.chdir(cwd)
        then()
    return enter


def _held() -> list[tuple[int, tuple[int, int]]]:
    """This process's descriptors past the standard three, each with the file it names; none
    where the system does not list them."""
    for listing in ("/proc/self/fd", "/dev/fd"):
        try:
            numbers = [int(name) for name in os.listdir(listing)]
        except (OSError, ValueError):
            continue
        held = []
        for fd in numbers:
            if fd > 2:
                try:
                    found = os.fstat(fd)
                except OSError:  # the listing's own, closed by now
                    continue
                held.append((fd, (found.st_dev, found.st_ino)))
        return held
    return []


def _forked(cwd, env: dict, limits: Limits, preexec_fn):
    """A child forked from a ready interpreter (lab/check/zygote.py), where that gives the same
    child as a new one: on Linux, on the POSIX path, with no sandbox of the caller's to enter
    (HARNESS_CHECK_FORK=0 turns it off). None elsewhere, or when no zygote can be had."""
    if (portable() or preexec_fn is not None or not sys.platform.startswith("linux")
            or os.environ.get(FORK_ENV) == "0"):
        return None
    from lab.check import zygote
    try:
        return zygote.fork(ZYGOTE, env, _posix_tie(None), os.fspath(cwd or os.getcwd()),
                           int(limits.seconds_total) + 5)
    except RuntimeError:
        return None  # a new interpreter, as everywhere else


def _posix_tie(cpu_seconds: int | None):
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
        if cpu_seconds is None:
            pass  # a zygote: it only waits, and each child it forks takes its own limit
        elif hard == resource.RLIM_INFINITY or cpu_seconds < hard:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, hard))
        if prctl is not None:
            prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    return tie


def death(code, importing=False) -> str:
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

