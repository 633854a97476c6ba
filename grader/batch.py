"""Grading a folder of submissions: find them (grader/submissions.py), grade each in a sandbox,
in parallel, resumably.

Each submission is graded by lab/check/runner.py, the engine the local
checker uses, inside the limits of grader/sandbox/, by a pool of worker processes: each worker
takes a slot, whose user (one of its own, where the grader runs as root) runs its submissions,
and kills what a submission left running before the next. A worker that dies (killed by what
it ran, or by the machine) costs only the submissions it held, which are graded again one at
a time; one that kills its worker twice gets a row saying so. So does a pool that stops
answering: where submissions run as the grader's own user, one can write into the grader's own
pipes, and a pool with no result for longer than any submission may take
(Settings.stall_seconds) is ended and its unfinished submissions are graded again alone.

Each result is appended to the journal (grader/journal.py) the moment it is known, so a crash
of the grader loses nothing graded, and a re-run skips every submission whose file, plan and
limits are unchanged.
"""
from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import overload

from lab.check import facts, runner, suite, words_feedback
from lab.check.verdict import Outcome, Verdict

from grader import cells, review, row as rows
from grader import sandbox as sandboxes
from grader import words_terminal as said
from grader.errors import GraderError
from grader.journal import JOURNAL, Journal
from grader.plan import Plan
from grader.refusals import TooManyJobs
from grader.row import Overall, Row
from grader.submissions import (  # noqa: F401 (find and the rest, by their old names too)
    LARGEST_MB, Submission, Unfound, find, head, in_folder, printable, too_large)

@dataclass
class Settings:
    """The limits a batch runs under; part of each result's key, so a change re-grades."""
    seconds_per_test: float = 5.0
    seconds_per_submission: float = 120.0
    memory_mb: int = 1024
    output_bytes: int = 64_000

    def limits(self) -> runner.Limits:
        return runner.Limits(seconds_per_test=self.seconds_per_test,
                             seconds_to_import=max(10.0, self.seconds_per_test),
                             # Checked on every report the child sends (see _grade).
                             seconds_total=self.seconds_per_submission,
                             output_bytes=self.output_bytes,
                             stop_at_hangs_in_a_row=False)  # every test gets its verdict

    def resources(self) -> sandboxes.Resources:
        return sandboxes.Resources(memory_mb=self.memory_mb,
                                   cpu_seconds=int(self.seconds_per_submission) + 5)

    def stall_seconds(self) -> float:
        """How long a pool may go without one result before it is judged jammed (_pool):
        twice the longest one submission may take (a run passes its deadline by a child's
        stop and start), and STARTING. The longest is the kit's run, stopped at seconds_total,
        then the hidden tests' run, which _grade cuts at its first verdict past that time: an
        import and one test at most, never more than a whole run. Every worker of a pool
        finishes a submission within that long of the pool's last result, so only a pool
        whose results no longer arrive goes past it."""
        limits = self.limits()
        hidden = min(limits.seconds_total, limits.seconds_to_import + limits.seconds_per_test)
        return 2 * (limits.seconds_total + hidden) + STARTING


# Seconds a pool's clock runs that no limit counts: a worker's start (a new interpreter that
# imports the grader), its children's, and the sweeps after them, on a loaded machine.
STARTING = 10.0


# --- grading one -------------------------------------------------------------------------------

_worker: dict = {}


def _start_worker(plan: dict, box: dict, settings: dict, tests_folder: str, slots) -> None:
    """Runs once in each worker process: everything every submission shares, and the slot
    this worker takes (the next number from the pool's shared counter), whose user runs the
    worker's submissions."""
    # Ctrl-C reaches every process of the terminal's group: a worker, or a child it is forking,
    # ends at once and says nothing; the grader's own process says what was kept, and sweeps.
    signal.signal(signal.SIGINT, _quietly_stopped)
    plan_ = Plan.from_dict(plan)
    files = plan_.files(Path(tests_folder))
    with slots.get_lock():
        slot, slots.value = slots.value, slots.value + 1
    _worker.update(plan=plan_, files=files, expected=plan_.expected(),
                   box=sandboxes.Sandbox.from_dict(box).slot(slot), settings=Settings(**settings))


def _quietly_stopped(signum, frame):
    os._exit(128 + signum)


# A submission with more wall-clock timeouts than this hangs of itself, whatever the load: it
# is not judged again.
RETRIED_TIMEOUTS = 3
# Where the machine's load is read: the kernel's file; a test names a file of its own.
LOADAVG = os.environ.get("GRADER_LOADAVG", "/proc/loadavg")


def machine_load() -> float:
    """The machine's load over the last minute (0 where it cannot be read)."""
    try:
        with open(LOADAVG, encoding="ascii") as handle:
            return float(handle.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0


def _grade(sub: Submission) -> Row:
    """Grade one submission in this worker. Always returns its row."""
    plan, box, settings = _worker["plan"], _worker["box"], _worker["settings"]
    started = time.monotonic()
    if not sub.problem:
        assert sub.path is not None, "a submission found without a file says why (its problem)"
        data = head(sub.path)
        if len(data) > LARGEST_MB << 20:  # it grew after it was found
            sub = too_large(sub, os.stat(sub.path).st_size)
    if sub.problem:
        return rows.build(plan, sub.student, sub.shown,
                          [Outcome(t.id, t.says, t.lab, Verdict.FAIL, sub.problem)
                           for t in plan.tests], problem=sub.problem)
    outcomes: list[Outcome] = []
    total = len(plan.tests)

    loads = []

    def seen(outcome):
        outcome.message = cells.cut(outcome.message)  # at once: a worker holds no megabytes
        outcomes.append(outcome)
        if isinstance(outcome.cause, facts.Hung) and outcome.cause.how == "held":  # the wall clock
            load = machine_load()
            if load > (os.cpu_count() or 1):
                loads.append(load)
        # The runner stops a test at the submission's time limit (Settings.limits); the tests
        # left then get this batch's own words.
        if time.monotonic() - started > settings.seconds_per_submission and len(outcomes) < total:
            raise runner.Stop

    scratch = box.scratch(data)
    try:
        report = _apart(scratch / "harness.py", _worker["files"], _worker["expected"],
                        limits=settings.limits(), cwd=scratch, env=box.env(scratch),
                        preexec_fn=box.preexec(), on_outcome=seen)
    finally:
        box.sweep()  # what the submission left running, before its folder goes
        box.remove(scratch)  # never raises; what it cannot remove goes with the batch's folder
    text = data.decode("utf-8", "replace")
    cut, outcomes = report.stopped, report.outcomes
    report.import_error = cells.cut(_shown(report.import_error, scratch))
    flagged, report.output = review.of(text, _shown(report.output, scratch))
    for o in outcomes:
        o.message = cells.cut(_shown(o.message, scratch))
        o.cause = facts.mapped(o.cause, lambda text: cells.cut(_shown(text, scratch)))
    if cut:
        done = {o.id for o in outcomes}
        for t in plan.tests:
            if t.id not in done:
                outcomes.append(Outcome(t.id, t.says, t.lab, Verdict.TIMEOUT,
                                        words_feedback.not_reached(
                                            settings.seconds_per_submission)))
    row = rows.build(plan, sub.student, sub.shown, outcomes, report=report, cut=cut,
                     seconds=time.monotonic() - started, text=text)
    row.digest, row.review = hashlib.sha256(data).hexdigest(), flagged
    # Not a field: what grade_all reads to judge the submission again alone (never kept).
    setattr(row, "loaded", max(loads) if loads and len(loads) <= RETRIED_TIMEOUTS else None)
    return row


def _apart(harness: Path, files: list, expected, *, on_outcome, **how) -> runner.Report:
    """Run the kit's tests, then the instructor's hidden ones in processes of their own, and
    return the kit run's report with the hidden tests' outcomes added. The processes that run
    the kit's tests never hold hidden code, so none of it can reach the kit tests' reasons, the
    import error or what harness.py printed: the submission's own words that a student reads
    back. What the hidden run printed is not kept; its reasons are the instructor's alone
    (Row.for_students)."""
    kit = [f for f in files if f.lab_id is not None]
    hidden = [f for f in files if f.lab_id is None]
    report = runner.run(harness, kit, expected, on_outcome=on_outcome, **how)
    if not hidden or report.stopped:
        return report
    if report.import_error:  # the same file, the same failure: no process for the hidden code
        try:
            for f in hidden:
                for test_id, says in suite.describe_source(f.source, f.stem):
                    outcome = Outcome(test_id, says, None, Verdict.FAIL, report.import_error)
                    report.outcomes.append(outcome)
                    on_outcome(outcome)
        except runner.Stop:
            report.stopped = True
        return report
    apart = runner.run(harness, hidden, expected, on_outcome=on_outcome, **how)
    report.outcomes += apart.outcomes
    report.stopped = apart.stopped
    return report


@overload
def _shown(text: str, scratch: Path) -> str: ...
@overload
def _shown(text: str | None, scratch: Path) -> str | None: ...


def _shown(text: str | None, scratch: Path) -> str | None:
    """Text from the submission's run as every report can hold it: without the scratch
    folder's random name, which means nothing to a student, and with any lone surrogate (a
    message can carry one, written as \\udcff in JSON) spelled out, since UTF-8 has none."""
    if not text:
        return text
    text = text.replace(f"{scratch}/", "")
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _judged_alone(again: list, sub: Submission) -> str:
    load = next((load for s, load in again if s is sub), None)
    return words_feedback.judged_alone(load, os.cpu_count())


def grader_failed(plan: Plan, sub: Submission, exc: BaseException) -> Row:
    """The row for a submission the grader itself failed on. It is not journaled, so a re-run
    grades the submission again."""
    reason = cells.cut(words_feedback.grader_failed(f"{type(exc).__name__}: {exc}"))
    return rows.build(plan, sub.student, sub.shown,
                      [Outcome(t.id, t.says, t.lab, Verdict.FAIL, reason) for t in plan.tests],
                      problem=reason, overall=Overall.GRADER_ERROR)


def lost(plan: Plan, sub: Submission) -> Row:
    """The row for a submission whose worker process died each time it was graded."""
    reason = words_feedback.WORKER_KILLED
    return rows.build(plan, sub.student, sub.shown,
                      [Outcome(t.id, t.says, t.lab, Verdict.CRASH, reason) for t in plan.tests],
                      problem=reason)


def stalled(plan: Plan, sub: Submission, settings: Settings) -> Row:
    """The row for a submission whose worker stopped answering each time it was graded."""
    reason = words_feedback.worker_stalled(settings.stall_seconds())
    return rows.build(plan, sub.student, sub.shown,
                      [Outcome(t.id, t.says, t.lab, Verdict.TIMEOUT, reason) for t in plan.tests],
                      problem=reason)


# --- grading many ------------------------------------------------------------------------------

def key(sub: Submission, fingerprint: str, settings: Settings) -> str:
    """Same key, same grade: the submission's bytes, the plan and the limits."""
    data = json.dumps([sub.digest(), fingerprint, asdict(settings)], sort_keys=True)
    return hashlib.sha256(data.encode()).hexdigest()


def grade_all(plan: Plan, submissions: list[Submission], out: Path, *, jobs: int = 1,
              settings: Settings | None = None, extra_files=(), progress=None,
              level: str | None = None, unsandboxed_root: bool = False,
              allow_shared_user: bool = False, hide: Path | None = None,
              ) -> tuple[list[Row], sandboxes.statement.Statement]:
    """Grade every submission (reusing the journal's rows where the key is unchanged) and
    return (rows in the order of `submissions`, the sandbox's statement). Up to `jobs` at
    once, each worker as a user of its own; where submissions would share a user, one at a
    time unless `allow_shared_user` (sandbox.Sandbox.workers). The journal is kept in `out`;
    the sandbox hides `hide` (the class folder that holds `out`), or `out` itself."""
    if jobs > sandboxes.SLOTS:
        raise GraderError(TooManyJobs(sandboxes.SLOTS))
    settings = settings or Settings()
    out = Path(out)
    journal = Journal(out / JOURNAL)
    before = journal.load()
    fingerprint = plan.fingerprint()
    keys = {s.student: key(s, fingerprint, settings) for s in submissions}
    results = {s.student: before[s.student][1] for s in submissions
               if s.student in before and before[s.student][0] == keys[s.student]}
    todo = [s for s in submissions if s.student not in results]
    if progress:
        progress.start(len(submissions), reused=len(results))
    base = Path(tempfile.mkdtemp(prefix="grader-"))
    base.chmod(0o711)  # a slot user passes through to its scratch folder, and lists nothing
    # The folder the submissions were found in: the probe checks a child cannot read it.
    found = [os.path.dirname(os.path.realpath(s.path)) for s in submissions if s.path]
    private = [os.path.commonpath(found)] if found else []
    box = None
    try:
        box = sandboxes.prepare(base / "box", out=Path(hide or out), extra_files=extra_files, private=private,
                                resources=settings.resources(), level=level,
                                unsandboxed_root=unsandboxed_root, slots=jobs)
        jobs = box.workers(jobs, allow_shared_user)
        tests_folder = base / "box" / "tests"
        tests_folder.mkdir(mode=0o755)
        tests_folder.chmod(0o755)
        plan.files(tests_folder)
        init = (plan.to_dict(), box.to_dict(), asdict(settings), str(tests_folder))

        again: list[tuple[Submission, float]] = []

        def finished(sub, row, alone=False):
            loaded = getattr(row, "loaded", None)
            if loaded and not alone:
                again.append((sub, loaded))
                return
            if loaded or alone:
                row.notes.append(_judged_alone(again, sub))
            if row.verdict is not Overall.GRADER_ERROR:
                journal.append(keys[sub.student], row)
            results[sub.student] = row
            if progress:
                progress.advance(row)

        def failed(sub, exc):
            finished(sub, grader_failed(plan, sub, exc))

        def alone(sub, done):
            """Grade `sub` in a pool of its own, so that what ends that pool is its doing."""
            left, jammed = _pool([sub], 1, init, done, failed, settings.stall_seconds())
            if left:
                done(sub, stalled(plan, sub, settings) if jammed else lost(plan, sub))

        unfinished, _ = _pool(todo, jobs, init, finished, failed, settings.stall_seconds())
        for sub in unfinished:  # each alone, so that what kills or jams a worker is known
            alone(sub, finished)
        # A test the wall clock stopped while the machine was loaded may have been slowed by
        # what ran beside it: the submission is judged again alone, and that verdict counts.
        for sub, _ in list(again):
            alone(sub, lambda s, r: finished(s, r, alone=True))
    finally:
        if journal.full:
            print(said.unkept(str(journal.path), journal.full, journal.unkept), file=sys.stderr)
        if box is not None:  # whatever a worker that died could not sweep itself
            for slot in range(box.jobs):
                box.slot(slot).sweep()
            box.release()
        if not sandboxes.Sandbox.remove(base):
            print(said.not_removed(str(base)), file=sys.stderr)
        if progress:
            progress.end()
    return [results[s.student] for s in submissions], box.statement()


def _pool(subs: list[Submission], jobs: int, init, finished, failed,
          stall: float) -> tuple[list[Submission], bool]:
    """Grade `subs` in a pool of `jobs` workers, calling finished(sub, row) for each graded one
    and failed(sub, exception) for each the grader itself failed on. Return those left without
    a result, because a worker died or because the pool sent no result for `stall` seconds
    (then it is ended: jammed, True)."""
    if not subs:
        return [], False
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=max(1, min(jobs, len(subs))), mp_context=context,
                               initializer=_start_worker,
                               initargs=(*init, context.Value("i", 0)))
    waiting = {pool.submit(_grade, s): s for s in subs}
    left: list[Submission] = []
    jammed = False
    try:
        while waiting:
            done, _ = wait(waiting, timeout=stall, return_when=FIRST_COMPLETED)
            if not done:
                jammed = True
                left += waiting.values()
                _end(pool)
                break
            for future in done:
                sub = waiting.pop(future)
                try:
                    row = future.result()
                except BrokenProcessPool:
                    left.append(sub)
                    continue
                except Exception as exc:  # a fault of the grader's, not of the submission
                    failed(sub, exc)
                    continue
                finished(sub, row)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return sorted(left, key=lambda s: s.student), jammed


def _end(pool: ProcessPoolExecutor) -> None:
    """End a pool that stopped answering: kill its workers, then every other process that
    holds the pipe its results come through, and close this process's end of it. Its manager
    thread, if it is reading a length that garbage in that pipe gave, then reads the pipe's
    end and breaks the pool, as when a worker dies, and shutdown() returns. Python has no
    public way to do this before 3.14 (kill_workers), and none to end that read at all."""
    for process in list(pool._processes.values()):
        process.kill()
    writer = pool._result_queue._writer  # type: ignore[attr-defined]
    for pid in _holders(writer.fileno()):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    writer.close()


def _holders(fd: int) -> list[int]:
    """The other processes holding the pipe that descriptor `fd` of this one names: a
    submission's process that opened it through /proc can keep it open after its grading."""
    try:
        pipe = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return []
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            if any(os.readlink(f"/proc/{entry}/fd/{n}") == pipe
                   for n in os.listdir(f"/proc/{entry}/fd")):
                found.append(int(entry))
        except OSError:
            pass
    return found


class Progress:
    """A progress bar on standard error: redrawn in place on a terminal, one line per
    submission elsewhere (a log keeps every line)."""

    def __init__(self, stream=None, width: int = 30):
        self.stream = stream or sys.stderr
        self.width, self.total, self.count = width, 0, 0
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def start(self, total: int, reused: int = 0) -> None:
        self.total, self.count = total, reused
        if reused:
            self.stream.write(f"Resuming: {reused} of {total} already graded with these files "
                              "and settings (from the journal).\n")
        self._draw("")

    def advance(self, row: Row) -> None:
        self.count += 1
        self._draw(f"{row.student}: {row.score:g}/{row.max:g} ({row.verdict})")

    def _draw(self, last: str) -> None:
        filled = int(self.width * self.count / self.total) if self.total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        line = f"[{bar}] {self.count}/{self.total}" + (f"  {last}" if last else "")
        if self.tty:
            columns = shutil.get_terminal_size().columns
            self.stream.write("\r" + line[:columns - 1] + "\x1b[K")
        elif last:
            self.stream.write(line + "\n")
        self.stream.flush()

    def end(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
