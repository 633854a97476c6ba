"""The process that runs a student's harness.py against the tests, and reports what it saw.

It is started by lab/check/runner.py, the same way on every system, and decides no verdict: it
only reports. Before anything of the student's can run, it rearranges its standard streams:

- standard output, the pipe the runner reads, becomes the report channel: one line per
  happening (importing, a test starting, each value a check found, a test ending, a heartbeat),
  each line opened by a secret the runner made for this run, so that a line it did not write
  stands out; what harness.py prints goes to standard error, which the runner caps and never
  reads for a verdict;
- standard input, the runner's pipe, carries the job as JSON lines (lab/check/job.py): who to
  import, the secret and the seed the tests draw their cases under; then where to start, and
  the test files (with every wanted value taken out, see lab/check/suite.py) one line each,
  as the runner makes them ready. A thread reads it for the
  whole life of the process and ends the process when the runner's end closes, so a runner
  stopped by Ctrl-C or killed leaves nothing behind, on any system. harness.py reads an empty
  standard input.

While tests run, a heartbeat thread reports the event loop's turns, the process's CPU time and
the place in harness.py the tests' thread is at (lab/check/hangs.py), from which the runner
tells a test that spins without a turn from one that is merely slow, and says where it hung.

`run_tests` is shared with the trusted, in-process run that checks the reference solutions, and
`import_reported` and `run_tests` with the practice check, which runs in a notebook's kernel
(lab/check/runner.py, `in_process`).
"""
from __future__ import annotations

import gc
import json
import os
import queue
import sys
import threading
import time
import traceback

from lab.check import audit, hangs, manifest, protocol, seeds, spin, suite, turns, words
from lab.check.facts import (Escaped, Exited, Fake, KitRaised, MissingName, RanOut, Raised,
                             Stopped, Unloadable)
from lab.check.importer import import_harness
from lab.check.job import Header, Run, Source
from lab.check.kit import CheckFailed, Checks, lacking
from lab.check.observe import encode, encode_params
from lab.check.protocol import (Beat, Done, Ended, Imported, ImportFailed, Importing, Observed,
                                 Started)
from lab.world.errors import ScriptExhausted


def run_tests(files, sources, emit, *, start=0, budget=turns.BUDGET, harness_path="",
              seed=seeds.PUBLIC, each=None):
    """Run every test of `files` from the start-th on, calling emit(report) for each happening
    (lab/check/protocol.py);
    `sources` gives each file's code in the same order (any iterable: the child's is read from
    the runner's pipe as it arrives). Each test gets a fresh counting event loop, and draws its
    cases from seeds.random_for(seed, its id). each(), the practice check's guards
    (lab/check/process.py's InProcess), is called before each test; a false answer ends the
    run there, before that test starts.

    While the run lasts, what was alive before it is out of the collector's reach (gc.freeze),
    so a test's gc.collect() scans only what the run made. In a long-lived process (a test
    worker, a notebook's kernel) a full collection of its whole heap can take a second, and
    lab 7.1's tests collect hundreds of times to see that a record let go is gone."""
    gc.freeze()
    try:
        index = 0
        for test_file, source in zip(files, sources):
            try:
                tests = suite.load(test_file, source)
                load_error = None
            except BaseException as exc:  # a test file that cannot even load fails each of its tests
                tests, (load_error, load_cause) = [], explained(exc, harness_path,
                                                                loading=test_file.stem)
            if load_error:
                for test_id, _ in suite.describe_source(source, test_file.stem):
                    if index >= start:
                        emit(Started(test_id))
                        emit(Ended(test_id, load_error, "load", cause=load_cause))
                    index += 1
                continue
            for test in tests:
                if index >= start:
                    if each is not None and not each():
                        return
                    test_id = suite.test_id(test_file, test)
                    emit(Started(test_id))
                    checks = Checks(lambda found, why, kind, params: emit(Observed(
                        encode(found), why, kind, lacking(found), encode_params(params))),
                        seeds.random_for(seed, test_id))
                    error, stop, trace, place, cause = None, None, None, None, None
                    try:
                        turns.run(test.fn(checks), budget)
                    except turns.OutOfTurns as exc:
                        cause, stop = exc.stalled, "turns"
                        error = words.stalled(cause)
                    except spin.Spun as exc:
                        error, stop, place, cause = str(exc), "spun", exc.place, exc.stalled
                    except CheckFailed as exc:
                        error, stop = str(exc), "check"
                    except BaseException as exc:  # PowerCut and SystemExit included: a report, not an exit
                        (error, cause), stop = explained(exc, harness_path), "exception"
                        trace = "".join(traceback.format_exception(exc))
                    emit(Ended(test_id, error, stop, trace if stop == "exception" else None,
                               **_fields(place), cause=cause))
                index += 1
    finally:
        gc.unfreeze()


def import_reported(harness: str, emit) -> bool:
    """Import harness.py, reporting that it starts and how it ends; whether it imported."""
    emit(Importing())
    try:
        import_harness(harness)
    except spin.Spun as exc:
        emit(ImportFailed(words.stalled_importing(exc.stalled), exc.stalled))
        return False
    except BaseException as exc:
        said, cause = explained(exc, harness)
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        emit(ImportFailed(said + "\n" + detail, cause, detail))
        return False
    emit(Imported())
    return True


def explained(exc: BaseException, harness_path: str,
              loading: str | None = None) -> tuple[str, Stopped]:
    """An exception that escaped a test, as the fact behind it and in the course's terms
    (lab/check/words.py's): a missing name says which lab adds it (MissingName); anything
    raised inside harness.py says which function raised what (Raised); a fake that ran out of
    script says which, and what it was asked (RanOut: the words here are the fake's own, for a
    test's author and the reference's recorder; the runner tells a student from the fact)."""
    lacked = exc.name if isinstance(exc, AttributeError) else None
    if lacked:
        owner = getattr(exc, "obj", None)
        name = lacked if getattr(owner, "__name__", None) == "harness" else \
            f"{type(owner).__name__}.{lacked}" if owner is not None else lacked
        if owner is not None and (getattr(owner, "__name__", None) == "harness" or
                                  type(owner).__module__ == "harness"):
            lab = (manifest.introduced_by(name) or manifest.introduced_by(lacked) or
                   manifest.introduced_by(name.split(".")[0]))
            missing = MissingName(name, lab.id if lab else None)
            return words.missing_name(missing), missing
    if isinstance(exc, SystemExit):
        exited = Exited(repr(exc.code))
        return words.exited(exited), exited
    frames = traceback.extract_tb(exc.__traceback__)
    target = os.path.realpath(harness_path) if harness_path else None
    mine = [f for f in frames if target and os.path.realpath(f.filename) == target]
    what = f"{type(exc).__name__}({str(exc)!r})" if str(exc) else type(exc).__name__
    if mine:
        frame = mine[-1]
        raised = Raised(frame.name, frame.lineno, what)
        return words.raised(raised), _ran_out(exc, frame.name, frame.lineno) or raised
    if loading:
        unloadable = Unloadable(loading, what)
        return words.unloadable(unloadable), unloadable
    if type(exc).__module__.startswith("lab"):
        kit = KitRaised(type(exc).__name__, str(exc))
        return words.kit_raised(kit), _ran_out(exc) or kit
    escaped = Escaped(what)
    return words.escaped(escaped), escaped


def _ran_out(exc: BaseException, function: str | None = None,
             line: int | None = None) -> RanOut | None:
    """The fact a fake's ScriptExhausted carries, raised at `function` and `line` of
    harness.py; None for any other exception, or one made without its facts."""
    if not isinstance(exc, ScriptExhausted) or exc.number is None or exc.scripted is None:
        return None
    fake = _FAKES.get(exc.fake or "")
    return None if fake is None else RanOut(fake, exc.number, exc.scripted, exc.asked,
                                            function, line)


_FAKES: dict[str, Fake] = {"model": "model", "person": "person", "provider": "provider"}


class _Channel:
    """The report channel: one line per message, opened by the run's secret. Written from two
    threads (the tests and the heartbeat), so each line goes out whole."""

    def __init__(self, fd: int, secret: str):
        self.fd, self.prefix, self.lock = fd, secret.encode() + b" ", threading.Lock()

    def __call__(self, report) -> None:
        if isinstance(report, (Imported, ImportFailed, Ended, Done)):
            _flush()  # what harness.py printed so far reaches the runner, even if it hangs next
        line = self.prefix + protocol.encode(report).encode() + b"\n"
        with self.lock:
            while line:
                line = line[os.write(self.fd, line):]


class _Job:
    """The job's lines from the runner's pipe. A thread reads them for the life of the process
    and ends the process when the pipe closes: that is what ties this process to the runner.
    If no thread can be started, the lines are read when asked for, and the tie is lost."""

    def __init__(self, fd: int):
        self.fd, self.buffer = fd, b""
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.watched = _start(self._watch)

    def next(self) -> dict:
        """The next line's data, for a lab/check/job.py type's from_dict."""
        return json.loads(self.lines.get() if self.watched else self._line())

    def _line(self) -> bytes:
        while b"\n" not in self.buffer:
            data = os.read(self.fd, 1 << 16)
            if not data:
                os._exit(0)  # the runner is gone
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def _watch(self):
        try:
            while True:
                self.lines.put(self._line())
        finally:  # the pipe closed, or was closed under it: the runner is gone either way
            os._exit(0)


def _start(target, *args) -> bool:
    """Start a daemon thread of the checker's own; False if none can be started."""
    thread = threading.Thread(target=target, args=args, daemon=True, name="lab.check.child")
    try:
        thread.start()
    except RuntimeError:
        return False
    turns.not_work(thread)
    return True


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # harness.py may have put anything there
            pass


def _fields(place: hangs.Place | None) -> dict:
    """A place as the fields of a report (protocol.Beat's and Ended's)."""
    return {} if place is None else {"function": place.function, "line": place.line,
                                     "async_code": place.async_code}


# The processor clock, bound here so that a test which moves the clocks of `time` while a run
# goes on (lab 5.1's years_pass) does not move the heartbeat's.
_processor_time = time.process_time


def _heartbeat(emit, every: float, harness: str) -> None:
    main = threading.main_thread().ident
    while True:
        time.sleep(every)
        calls = hangs.calls_of(sys._current_frames().get(main) if main is not None else None)
        place = hangs.place_of(calls, harness)  # no frame is held here: see calls_of
        emit(Beat(turns.turns_taken(), _processor_time(), **_fields(place)))


def _take_standard_streams() -> tuple[int, int]:
    """(report channel, job pipe): this process's standard output and input, moved to
    descriptors of their own before harness.py runs. What it prints then goes to standard
    error, and what it reads from standard input is empty."""
    sys.stdout.flush()
    channel, job = os.dup(1), os.dup(0)  # new descriptors are not inherited by subprocesses
    os.dup2(2, 1)
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    return channel, job


def main(argv=None):
    channel, pipe = _take_standard_streams()
    job = _Job(pipe)
    header = Header.from_dict(job.next())
    emit = _Channel(channel, header.secret)
    harness = header.harness
    audit.install(harness)  # before harness.py runs: it notes what the file does (an aid)
    if not import_reported(harness, emit):
        return 0
    run = Run.from_dict(job.next())  # then one Source per file
    files = [suite.TestFile(f.lab_id, manifest.Path(f.path), "") for f in run.files]
    sources = (Source.from_dict(job.next()).source for _ in files)
    if header.beat:
        _start(_heartbeat, emit, header.beat, harness)
    run_tests(files, sources, emit, start=run.start, budget=header.budget or turns.BUDGET,
              harness_path=harness, seed=header.seed)
    emit(Done())
    return 0


if __name__ == "__main__":
    sys.exit(main())
