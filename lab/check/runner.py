"""Runs a suite against a harness.py in a separate process, and decides every verdict here.

The student's file runs in lab/check/child.py, which reports each value its checks found
(lab/check/protocol.py). This side compares those values with what the reference found at the
same checks (the expected observations, starters/*/lab*/expected.json) and decides pass or
fail. Nothing the child prints is read for a verdict, and a test passes only if the child
reported every check the reference made, with agreeing values, and then reported the test's
end. How the child is started, fed and read, on every system, is lab/check/process.py's.

A test that hangs costs a bounded time:
- turns: the child counts turns of the event loop and stops a test past its budget, or one
  waiting for something that can never happen;
- spin: a test that uses `cpu_without_a_turn` seconds of processor time without a single turn
  (a busy loop) is stopped, as the child's heartbeat shows. Processor time is what a slow or
  busy machine cannot inflate: a correct test uses microseconds of it per turn;
- wall clock: a test that holds the process for `seconds_per_test` without either (a call that
  blocks, such as time.sleep) is stopped.
Every deadline, the test's and the whole run's (`seconds_total`), is checked on every report the
child sends as well as while none comes, against the time the report was read: a child that
keeps the channel full cannot outrun it. Nor can it fill this process: the queue of reports
waiting to be judged is bounded (lab/check/process.py), and a test (or the import) that sends
more than `report_bytes_per_test` is stopped and fails, saying so.
A child that is stopped or dies (sys.exit, os._exit, a crash) loses only the test it was running;
a new one carries on with the next test. Once a file has hung, its later tests get shorter
guards, and a spare child waits ready, so each further hang costs little more than its guard.
Each stop names the place in harness.py the child's heartbeat last saw (lab/check/hangs.py).
Once tests have hung at one place `Limits.hangs_in_a_row` times in a row, the student's check
marks the rest as not run, naming that place, and ends within seconds; the grader judges every
test still, under shorter guards again.

This is the one engine; lab/lab_check.py (students) and grader/ (instructors) are its front
doors. It never imports asyncio: the child does.
"""
from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from lab.check import facts, job, manifest, seeds, suite, words
from lab.check.facts import Cause, Hung, NotRun, Stalled
from lab.check.hangs import Place, Streak
from lab.check.channel import Closed, Forged, Output
from lab.check.in_page import InProcess
from lab.check.limits import Limits
from lab.check.process import PORTABLE_ENV, Child, portable
from lab.check.protocol import (Beat, Done, Ended, Imported, ImportFailed, Importing, Observed,
                                 Started)
from lab.check.verdict import Outcome, Verdict, judge

__all__ = ["Limits", "PORTABLE_ENV", "Report", "Stop", "expected_for", "portable", "run"]


class Stop(Exception):
    """Raised by a caller's on_outcome to end the run at once (the grader's time limit for a
    whole submission): run() returns the report so far, what harness.py printed included, with
    `stopped` set and the tests left without a verdict."""


@dataclass
class Report:
    harness: str
    outcomes: list[Outcome] = field(default_factory=list)
    output: str = ""  # what harness.py printed, capped
    output_dropped: int = 0  # bytes printed beyond the cap
    import_error: str | None = None
    sets: list[tuple[str, int, int]] = field(default_factory=list)  # (set name, tests, checks)
    notes: list[str] = field(default_factory=list)
    stopped: bool = False  # on_outcome raised Stop: the tests after the last outcome have none

    @property
    def passed(self) -> int:
        return sum(o.verdict is Verdict.PASS for o in self.outcomes)

    @property
    def failed(self) -> int:
        return len(self.outcomes) - self.passed


def expected_for(files: list[suite.TestFile]) -> seeds.Expected:
    """The reference's observations for every test of `files`, from the kit's expected.json
    files, under the seed they record. Files recorded under different seeds cannot be judged
    in one run, which draws every test's cases under one seed, so that is the kit's fault."""
    expected = seeds.Expected()
    found = set()
    for test_file in files:
        if test_file.lab_id is None:
            continue
        path = manifest.lab(test_file.lab_id).expected
        if path.exists():
            recorded = seeds.loads(path.read_text(encoding="utf-8"))
            expected.update(recorded)
            found.add(recorded.seed)
    if len(found) > 1:
        raise ValueError(f"the expected.json files of one run hold seeds {sorted(found)}: "
                         "run `python -m tools.make expected`")
    expected.seed = found.pop() if found else seeds.PUBLIC
    return expected


def run(harness: Path, files: list[suite.TestFile], expected: dict, *,
        limits: Limits | None = None, cwd: Path | None = None, env: dict | None = None,
        preexec_fn=None, on_outcome=None, in_process: bool = False) -> Report:
    """Run `files` against `harness` in child processes and judge each test against
    `expected`, under the seed its observations were made under (seeds.Expected's; a plain
    dict's is the public seed): the child draws the same cases the reference drew.
    on_outcome(outcome) is called as each verdict is decided (progress bars); it may raise Stop.
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
    seed = getattr(expected, "seed", seeds.PUBLIC)

    def launch():
        if in_process:
            return InProcess(harness, limits, seed)
        return Child(harness, secret, limits, cwd=cwd or harness.parent, env=env,
                      preexec_fn=preexec_fn, seed=seed)

    child, spare = launch(), None  # started first: it starts up while the tests are read
    output = Output(limits.output_bytes)
    try:
        plan = _Plan(files)
        report.sets = plan.sets(expected)
        state = _Run(plan, expected, limits, report, on_outcome,
                     ends=time.monotonic() + limits.seconds_total)
        position, lost = 0, 0
        while position < len(plan.tests):
            if time.monotonic() >= state.ends:
                state.decide_rest(position, Verdict.TIMEOUT,
                                  NotRun(seconds=limits.seconds_total), ran=False)
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
            if state.gives_up:  # the same hang, test after test: the rest would hang there too
                streak = state.streak
                fact = NotRun(hangs=streak.count, **_flat(streak.place))
                report.notes.append(words.not_run(fact))
                state.decide_rest(position, Verdict.TIMEOUT, fact, ran=False)
                break
            lost += 1
    except Stop:
        report.stopped = True
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
    """The test a child is running: the checks it has reported so far, where the spin guard
    last saw the event loop turn, and where in harness.py the last heartbeat found it."""
    planned: _Planned
    seen: list[Observed] = field(default_factory=list)
    turned: tuple[int, float] | None = None  # (turns taken, CPU seconds) at that heartbeat
    place: Place | None = None


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
            checks = sum(len(seeds.Expectation.from_dict(expected[i]).checks)
                         for i in ids if i in expected)
            sets.append((f"lab {tf.lab_id}" if tf.lab_id else tf.path.name, len(ids), checks))
        return sets

    def send(self, child: Child | InProcess, position: int) -> None:
        """Give `child` the tests from `position` on: the files from the one holding it, each
        file's code as soon as it is blinded, so the child runs the first file's tests while
        this process blinds the next."""
        first = self.tests[position].file
        child.send(job.Run(position - self.first_of[first],
                           tuple(job.TestFile(tf.lab_id, str(tf.path))
                                 for tf in self.files[first:])))
        for test_file in self.files[first:]:
            child.send(job.Source(_blinded(test_file.source)))


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
    on_outcome: Callable[[Outcome], None] | None = None
    ends: float = float("inf")  # time.monotonic() when the whole run's time is up
    hung: bool = False  # a test of this file has hung: later tests get the shorter guards
    repeated: bool = False  # it has hung at one place test after test: shorter still
    streak: Streak = field(init=False)  # the hangs in a row at one place, so far

    def __post_init__(self):
        self.streak = Streak(self.limits.hangs_in_a_row)

    def decide(self, outcome: Outcome, hung_at: Place | None = None) -> None:
        """Keep a test's verdict; `hung_at` is the place a guard stopped it at, if one did."""
        self.report.outcomes.append(outcome)
        self.streak.add(hung_at)
        self.hung = self.hung or hung_at is not None
        self.repeated = self.repeated or self.streak.repeated
        if self.on_outcome:
            self.on_outcome(outcome)

    @property
    def gives_up(self) -> bool:
        """Whether the tests left are not run: the student's check, after a repeated hang."""
        return self.limits.stop_at_hangs_in_a_row and self.streak.repeated

    def decide_rest(self, position: int, verdict: Verdict, why: str | NotRun, *,
                    ran: bool = True) -> None:
        """Decide every test from `position` on alike: for `why`, in words, or a NotRun."""
        message = words.not_run(why) if isinstance(why, NotRun) else why
        cause = why if isinstance(why, NotRun) else None
        for planned in self.plan.tests[position:]:
            self.decide(Outcome(planned.id, planned.says, planned.lab_id, verdict, message,
                                ran=ran, cause=cause))

    @property
    def seconds_per_test(self) -> float:
        limits = self.limits
        return min(limits.seconds_per_test,
                   limits.seconds_after_hangs_in_a_row if self.repeated else
                   limits.seconds_after_a_hang if self.hung else limits.seconds_per_test)

    @property
    def cpu_without_a_turn(self) -> float:
        limits = self.limits
        return min(limits.cpu_without_a_turn,
                   limits.cpu_after_hangs_in_a_row if self.repeated else
                   limits.cpu_after_a_hang if self.hung else limits.cpu_without_a_turn)


class Step(Enum):
    """What a report does to a child's session."""
    MORE = "more"  # go on reading
    OVER = "over"  # the session is over
    FORGED = "forged"  # no report the child writes at this point


# --- one child's session --------------------------------------------------------------------

class _Session:
    """One child's share of a run: from `position` on, take its reports and judge each test it
    ends, until it is done, dies, hangs or spins, or its channel carries a line it did not
    write. Afterwards `position` is the first test without a verdict, and `fatal` says why
    harness.py would not import, if it would not."""

    def __init__(self, run: _Run, child: Child | InProcess, position: int):
        self.run, self.child = run, child
        self.first = self.position = position
        self.test: _Running | None = None
        self.imported = False
        self.fatal: str | None = None
        self.deadline = time.monotonic() + run.limits.seconds_to_import
        self.sent = 0  # bytes of reports since the last boundary (see _wait)

    def judge(self) -> None:
        while True:
            due = min(self.deadline, self.run.ends)
            received = self.child.next(due - time.monotonic())
            if received is None or (received.at is not None and received.at > due):
                return self._timed_out() if self.deadline <= self.run.ends else self._overran()
            event = received.report
            if isinstance(event, Closed):
                return self._ended()
            self.sent += received.size
            if self.sent > self.run.limits.report_bytes_per_test:
                return self._flooded()
            step = Step.FORGED if isinstance(event, Forged) else self._take(event)
            if step is Step.FORGED:
                return self._forged()
            if step is Step.OVER:
                return

    def _take(self, report) -> Step:
        """Act on one report. A report the child never writes at this point is FORGED."""
        plan = self.run.plan
        match report:
            case Beat():
                return self._beat(report)
            case Importing() if not self.imported:
                return Step.MORE
            case Imported() if not self.imported:
                self.imported = True
                self._wait(self.run.seconds_per_test)
                return Step.MORE
            case ImportFailed() if not self.imported:
                self.fatal = words.not_imported(words.import_failed(report.cause, report.detail,
                                                                    report.message))
                return Step.OVER
            case Started() if self.imported and self.test is None and \
                    self.position < len(plan.tests) and report.id == plan.tests[self.position].id:
                self.test = _Running(plan.tests[self.position])
                self._wait(self.run.seconds_per_test)
                return Step.MORE
            case Observed() if self.test is not None:
                self.test.seen.append(report)
                return Step.MORE
            case Ended() if self.test is not None and report.id == self.test.planned.id:
                planned = self.test.planned
                cause: Cause | None = report.cause
                error = report.error
                if report.stop in ("turns", "spun") and (cause is None or
                                                        isinstance(cause, Stalled)):
                    # the child's guard stopped it: said here from its fact, and kept as a
                    # hang's, which only this side may decide
                    error = words.ended(cause, error, report.place)
                    cause = Hung(report.stop, **_flat(report.place))
                outcome = judge(planned.id, planned.says, planned.lab_id,
                                self.run.expected.get(planned.id), self.test.seen,
                                error, report.stop, cause,
                                plan.files[planned.file].source)
                if outcome.verdict is not Verdict.PASS:
                    outcome.trace = report.trace
                self._decided(outcome, report.place)
                if self.run.gives_up:
                    return Step.OVER
                self._wait(self.run.seconds_per_test)
                return Step.MORE
            case Done() if self.imported and self.test is None:
                self.run.decide_rest(self.position, Verdict.FAIL, words.NEVER_RAN)
                self.position = len(plan.tests)
                return Step.OVER
        return Step.FORGED

    def _beat(self, beat: Beat) -> Step:
        """The spin guard: stop the test once it has used its CPU allowance without a turn."""
        test = self.test
        if test is None:
            return Step.MORE  # between tests, or importing: the wall clock guards those
        test.place = beat.place
        if test.turned is None or beat.turns != test.turned[0]:
            test.turned = (beat.turns, beat.cpu)
            return Step.MORE
        allowed = self.run.cpu_without_a_turn
        if beat.cpu - test.turned[1] < allowed:
            return Step.MORE
        self._stopped(test.planned, "spun",
                      words.spun_processor(allowed, test.place),
                      test.place)
        return Step.OVER

    def _timed_out(self) -> None:
        if not self.imported:
            self.fatal = words.import_hung(self.run.limits.seconds_to_import)
            return
        planned = self._current()
        if planned is None:
            return  # every test has its verdict; only the child's goodbye is missing
        place = self.test.place if self.test is not None else None
        self._stopped(planned, "held", words.held(self.run.seconds_per_test, place), place)

    def _ended(self) -> None:
        """The channel closed before the child said it was done: it died, or closed it."""
        code = self.child.exit_code(wait=2.0)
        if code is None:
            self._forged(closed=True)
        elif not self.imported:
            self.fatal = words.not_imported(words.died(code, importing=True))
        elif self.test is not None or self.position == self.first:
            planned = self._current()
            if planned is not None:  # a child that dies before any test loses the first
                self._decided(Outcome(planned.id, planned.says, planned.lab_id, Verdict.CRASH,
                                      words.crashed(code)))

    def _overran(self) -> None:
        """The whole run's time ran out during this session: the test running stops, and
        run() marks every test after it as not run."""
        if self.test is not None:
            self._stopped(self.test.planned, "overran",
                          words.overran(self.run.limits.seconds_total), self.test.place)

    def _flooded(self) -> None:
        """The child sent more reports than a test may: it is stopped, and the test it was
        running (or the import) fails, saying so."""
        megabytes = self.run.limits.report_bytes_per_test >> 20
        if not self.imported:
            self.fatal = words.not_imported(words.flooded_importing(megabytes))
            return
        planned = self._current()
        if planned is not None:
            self._decided(Outcome(planned.id, planned.says, planned.lab_id, Verdict.FAIL,
                                  words.flooded(megabytes)))
            self.run.hung = True  # shorter guards, but no place to count as a hang at

    def _forged(self, *, closed: bool = False) -> None:
        if not self.imported:
            # Importing harness.py did it, so every child would: as with an import that fails,
            # no test can run, and none is tried again.
            self.fatal = words.not_imported(words.forged_importing(closed))
            return
        planned = self._current()
        if planned is not None:
            self._decided(Outcome(planned.id, planned.says, planned.lab_id, Verdict.FAIL,
                                  words.forged(closed), cause=facts.Forged(closed)))

    def _stopped(self, planned: _Planned, how, message: str, place: Place | None) -> None:
        """A guard stopped the test at `place` (unknown: an empty Place); `how` is Hung's."""
        self._decided(Outcome(planned.id, planned.says, planned.lab_id, Verdict.TIMEOUT, message,
                              cause=Hung(how, **_flat(place))),
                      place or Place())

    def _current(self) -> _Planned | None:
        """The test running, or the next one; None once every test has its verdict."""
        if self.test is not None:
            return self.test.planned
        tests = self.run.plan.tests
        return tests[self.position] if self.position < len(tests) else None

    def _decided(self, outcome: Outcome, hung_at: Place | None = None) -> None:
        self.run.decide(outcome, hung_at)
        self.test, self.position = None, self.position + 1

    def _wait(self, seconds: float) -> None:
        """A boundary (imported, a test started or ended): the next comes within `seconds`,
        and the count of bytes sent starts again."""
        self.deadline = time.monotonic() + seconds
        self.sent = 0


def _flat(place: Place | None) -> dict:
    """A place as the fields of a Hung or NotRun fact."""
    return {} if place is None else {"function": place.function, "line": place.line,
                                     "async_code": place.async_code}
