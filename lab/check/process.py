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

The channel's reading and bounds are lab/check/channel.py's, the limits policy is
lab/check/limits.py's, and the practice check's stand-in for a child, where no process can be
started, is lab/check/in_page.py's.
"""
from __future__ import annotations

import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from lab.check import job, manifest, seeds
from lab.check.channel import (LONGEST_REPORT, QUEUE_BYTES, Closed, Forged, Output, Received,
                               _read, _report, _Reports, _thread)
from lab.check.limits import Limits

PORTABLE_ENV = "HARNESS_CHECK_PORTABLE"
DRAINED = 1 << 22  # bytes of output read after the child's death, at most: what it left in the
# pipe (a pipe it enlarged holds 1 MiB), and whatever a process it left behind adds meanwhile

# -P -s: the student's folder is not on the child's import path, so a file there named lab.py or
# asyncio.py cannot stand in for the kit's; the kit itself is put first, explicitly. This is -I
# without its -E, which would also ignore the PYTHONHASHSEED the child must run under: the
# other PYTHON* variables are taken out of its environment instead (child_env).
# -X utf8: what harness.py prints arrives as UTF-8 on every system.
# -u: what it prints goes into the pipe at once, so a line printed before a crash or a kill is
# kept; buffered, it died with the process unless a report happened to flush it first.
CHILD = [sys.executable, "-P", "-s", "-u", "-X", "utf8", "-c",
         f"import sys; sys.path.insert(0, {str(manifest.KIT)!r}); "
         "from lab.check.child import main; sys.exit(main())"]

# The same interpreter, made ready to fork children from (lab/check/zygote.py); its socket's
# descriptor is its last argument.
# Its __main__ holds the names a started child's does (main, sys), and no others.
ZYGOTE = [*CHILD[:-1], f"import sys; sys.path.insert(0, {str(manifest.KIT)!r}); "
          "from lab.check.child import main; "
          "sys.exit(__import__('lab.check.zygote').check.zygote.serve(int(sys.argv[1])))"]
FORK_ENV = "HARNESS_CHECK_FORK"

def portable() -> bool:
    """Whether children are started and stopped with only what every system has: always on
    Windows, and anywhere HARNESS_CHECK_PORTABLE=1 (how the kit's tests run that path on Linux)."""
    return os.name == "nt" or os.environ.get(PORTABLE_ENV) == "1"


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
        # Written once the child is dead, so that the output's reader takes what is left in the
        # pipe and ends (_read_output); the portable path has no poll on a pipe, so none.
        self._dead = None if portable() else os.pipe()
        self._writes: queue.Queue = queue.Queue()
        self._threads = [_thread(self._write), _thread(self._read_reports, secret),
                         _thread(self._read_output, self._dead)]
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
        if self._dead is None:
            self._threads[2].join(1.0)  # the last of what it printed, if it comes that soon
            return
        dead, self._dead = self._dead, None
        os.write(dead[1], b".")
        self._threads[2].join()  # the last of what it printed, however late this thread runs
        for fd in dead:
            os.close(fd)

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

    def _read_output(self, dead: tuple[int, int] | None):
        """What harness.py prints, into self.output until its pipe ends. Where stop() can say
        that the child is dead, also until the pipe is empty after that: a process the child
        left behind may hold the pipe open for ever, and everything the child wrote is in it
        by then. So the count of what it printed never hangs on how soon this thread ran, and
        after the child's death at most DRAINED bytes more are taken."""
        stderr = self.process.stderr
        if stderr is None:  # started with stderr=PIPE: never
            return
        with stderr as pipe:
            if dead is None:
                while data := _read(pipe):
                    self.output.add(data)
                return
            poller = select.poll()
            poller.register(pipe.fileno(), select.POLLIN)
            poller.register(dead[0], select.POLLIN)
            left = None  # bytes still taken, once the child is dead
            while left is None or left > 0:
                ready = {fd for fd, _ in poller.poll(None if left is None else 0)}
                if pipe.fileno() not in ready:
                    if left is not None:
                        return  # dead, and the pipe is empty
                    left = DRAINED
                    poller.unregister(dead[0])
                    continue
                data = _read(pipe)
                if not data:
                    return
                self.output.add(data)
                if left is not None:
                    left -= len(data)


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
    child as a new one: on Linux, on the POSIX path, with no sandbox of the caller's to enter or
    one that says how a forked child enters it (its `forkable`: module, function, data)
    (HARNESS_CHECK_FORK=0 turns it off). None elsewhere, or when no zygote can be had."""
    entry = getattr(preexec_fn, "forkable", None)
    if (portable() or (preexec_fn is not None and entry is None)
            or not sys.platform.startswith("linux") or os.environ.get(FORK_ENV) == "0"):
        return None
    from lab.check import zygote
    try:
        return zygote.fork(ZYGOTE, env, _posix_tie(None), os.fspath(cwd or os.getcwd()),
                           int(limits.seconds_total) + 5, entry)
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
