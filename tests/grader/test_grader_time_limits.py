"""Time limits cannot be outrun (issue 25): the judge checks a test's deadline, and the whole
run's, on every report it reads, not only while none comes; the reports waiting to be judged
and the bytes a test may send are bounded; and a submission's time limit stops it while it runs.
A child that keeps the channel full is stopped and judged, with its reason."""
import queue
import time

import pytest

from tests.grader.gradeclass import LAB, base_text, snippet
from lab.check import job, process, runner, suite
from lab.check.protocol import Beat, Imported, Importing, Started
from lab.check.verdict import Verdict, held

from grader import batch, plan as plans
from grader.row import Overall

FILES = suite.of_lab("2.1", cumulative_=False)
IDS = [test_id for f in FILES for test_id, _ in suite.describe_source(f.source, f.stem)]
MOST_READS = 100_000  # far more than any deadline below needs: past it, the judge never stopped


class Clock:
    """The runner's clock in these tests: it moves only when a report is read."""
    now = 0.0

    @classmethod
    def monotonic(cls):
        return cls.now


class Flooding:
    """A child that never lets the channel go quiet: it imports, starts the test it is sent,
    then sends heartbeats for ever, each with a new turn count (so the spin guard never fires),
    each read STEP seconds after the one before. Time passes on the Clock, so the test waits
    for nothing."""
    STEP = 0.01
    reads = 0

    def __init__(self, *args, **kwargs):
        self.output = process.Output(100)
        self.reports = []

    def send(self, message):
        if isinstance(message, job.Run):
            self.reports = [Importing(), Imported(), Started(IDS[message.start])]

    def next(self, timeout):
        Flooding.reads += 1
        assert Flooding.reads < MOST_READS, "the judge read on past every deadline"
        Clock.now += self.STEP
        report = self.reports.pop(0) if self.reports else Beat(Flooding.reads, 0.0)
        return process.Received(report, Clock.now, 50)

    def exit_code(self, wait):
        return None

    def stop(self):
        pass


def _flooded_run(monkeypatch, **limits):
    monkeypatch.setattr(runner, "Child", Flooding)
    monkeypatch.setattr(runner, "time", Clock)
    monkeypatch.setattr(Flooding, "reads", 0)
    return runner.run(LAB.solution, FILES, {}, limits=runner.Limits(**limits))


def test_the_judge_checks_a_tests_deadline_on_every_report_it_reads(monkeypatch):
    report = _flooded_run(monkeypatch, seconds_per_test=1.0, seconds_total=1e6)
    assert [o.verdict for o in report.outcomes] == [Verdict.TIMEOUT] * len(IDS)
    assert report.outcomes[0].message == held(1.0)


def test_the_whole_runs_time_limit_stops_the_test_that_is_running(monkeypatch):
    report = _flooded_run(monkeypatch, seconds_per_test=1e6, seconds_total=2.0)
    first, *rest = report.outcomes
    assert first.verdict is Verdict.TIMEOUT
    assert "ran past its time limit of 2 seconds during this test" in first.message
    assert rest and all(o.verdict is Verdict.TIMEOUT and o.message.startswith("Not run")
                        for o in rest)


def _flood(tmp_path):
    harness = tmp_path / "harness.py"
    harness.write_text(base_text("solution") + "\n" + snippet("floods_the_report_channel"),
                       encoding="utf-8")
    return harness


def test_a_test_that_floods_the_channel_is_stopped_at_the_bytes_a_test_may_send(tmp_path):
    files = suite.of_lab("14.1", cumulative_=False)
    expected = runner.expected_for(files)
    # A minute per test: only the bound on bytes can stop the flood within the guard below.
    limits = runner.Limits(seconds_per_test=60, report_bytes_per_test=4 << 20)
    started = time.monotonic()
    report = runner.run(_flood(tmp_path), files, expected, limits=limits)
    assert time.monotonic() - started < 30
    failed = [o for o in report.outcomes if o.verdict is not Verdict.PASS]
    assert [o.id for o in failed] == ["lesson_14_lab1::test_deny_destructive"]
    assert failed[0].verdict is Verdict.FAIL
    assert "sent the checker more than 4 MB of reports" in failed[0].message


def test_the_reports_waiting_to_be_judged_hold_at_most_their_bytes_and_one_report_more():
    waiting = process._Reports(1000)
    for size in (600, 600):  # the second fits, as a long report must, but nothing after it
        waiting.put(process.Received(Beat(0, 0.0), 0.0, size), block=False)
    with pytest.raises(queue.Full):
        waiting.put(process.Received(Beat(0, 0.0), 0.0, 1), block=False)
    waiting.get()
    waiting.put(process.Received(Beat(0, 0.0), 0.0, 1), block=False)
    assert waiting.qsize() == 601


def test_a_submission_is_stopped_at_its_time_limit_while_it_runs(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "slow.py").write_text(base_text("solution") + "\n" +
                                    snippet("blocks_while_imported"), encoding="utf-8")
    # Thirty seconds per test lets an import take thirty; the submission may take two in all.
    settings = batch.Settings(seconds_per_test=30, seconds_per_submission=2)
    results, _ = batch.grade_all(plans.make(LAB.id, own_lab_only=True), batch.find(folder)[0],
                                 tmp_path / "out", settings=settings)
    row = results[0]
    assert row.seconds < 15, f"held {row.seconds:.1f} seconds under a limit of 2"
    assert row.verdict is Overall.NO_MARKS
    assert all(t.verdict is Verdict.TIMEOUT for t in row.tests)
    assert any("cut off at the time limit" in note for note in row.notes)


def test_what_a_submission_printed_is_kept_when_its_time_limit_cuts_the_run(tmp_path):
    """The limit ends the run from the grader's side (runner.Stop); the report so far, what
    harness.py printed included, is the row's."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "spins.py").write_text(
        base_text("solution") + "\nprint('said at import, before the tests')\n" +
        snippet("hangs_in_a_busy_loop"), encoding="utf-8")
    settings = batch.Settings(seconds_per_test=1.0, seconds_per_submission=2.0)
    results, _ = batch.grade_all(plans.make(LAB.id, own_lab_only=True), batch.find(folder)[0],
                                 tmp_path / "out", settings=settings)
    row = results[0]
    assert any("cut off at the time limit" in note for note in row.notes), (
        f"the run was meant to be cut at 2 s; its notes: {row.notes}")
    assert "said at import, before the tests" in row.output, (
        f"the line harness.py printed at import is not in the row's output: {row.output!r}")
