"""Nothing graded is lost: the journal keeps each result as it is made, a re-run resumes, and a
worker killed by what it ran costs only a row that says so."""
import dataclasses
import json
import os

import pytest

from tests.grader.gradeclass import LAB, make_class
from lab.check.verdict import Verdict

from grader import batch, journal, plan as plans
from grader.row import Overall


class Counting:
    """A progress bar that only counts."""

    def __init__(self):
        self.total = self.reused = self.graded = 0

    def start(self, total, reused=0):
        self.total, self.reused = total, reused

    def advance(self, row):
        self.graded += 1

    def end(self):
        pass


def _rows(results):
    """The rows without the seconds each took, which differ from run to run."""
    return [dataclasses.replace(r, seconds=0.0) for r in results]


@pytest.fixture
def small_class(tmp_path):
    """Three students and two bad kinds, graded on lab 15.1's own tests: what is kept and
    resumed is the same whatever the suite, and the own tests grade in a tenth of the time."""
    folder = make_class(tmp_path / "submissions",
                        kinds=["exits_at_import", "patches_the_checks"])
    subs, _ = batch.find(folder)
    return plans.make(LAB.id, own_lab_only=True), subs


def test_a_crash_mid_batch_loses_nothing_graded_and_the_rerun_grades_only_the_rest(
        tmp_path, small_class, monkeypatch):
    plan, subs = small_class
    out = tmp_path / "out"
    real = journal.Journal.append
    calls = []

    def crash_after_two(self, key, row):
        real(self, key, row)
        calls.append(row.student)
        if len(calls) == 2:
            raise RuntimeError("the grader crashed")

    monkeypatch.setattr(journal.Journal, "append", crash_after_two)
    with pytest.raises(RuntimeError, match="the grader crashed"):
        batch.grade_all(plan, subs, out, jobs=1)
    monkeypatch.setattr(journal.Journal, "append", real)
    kept = journal.Journal(out / "journal.jsonl").load()
    assert sorted(kept) == sorted(calls)

    progress = Counting()
    results, _ = batch.grade_all(plan, subs, out, jobs=1, progress=progress)
    assert (progress.reused, progress.graded) == (2, len(subs) - 2)
    assert len((out / "journal.jsonl").read_text().splitlines()) == len(subs)

    fresh, _ = batch.grade_all(plan, subs, tmp_path / "fresh", jobs=1)
    assert _rows(results) == _rows(fresh)


def test_a_rerun_regrades_a_submission_whose_file_changed(tmp_path, small_class):
    plan, subs = small_class
    out = tmp_path / "out"
    batch.grade_all(plan, subs, out)
    alice = next(s for s in subs if s.student == "alice")
    with open(alice.path, "a", encoding="utf-8") as handle:
        handle.write("\nraise SystemExit('changed')\n")
    progress = Counting()
    results, _ = batch.grade_all(plan, subs, out, progress=progress)
    assert (progress.reused, progress.graded) == (len(subs) - 1, 1)
    assert next(r for r in results if r.student == "alice").verdict is Overall.DOES_NOT_IMPORT


def test_the_journal_reads_back_each_row_as_graded_and_skips_a_line_it_cannot(tmp_path,
                                                                          small_class):
    plan, subs = small_class
    out = tmp_path / "out"
    results, _ = batch.grade_all(plan, subs, out)
    path = out / "journal.jsonl"
    kept = journal.Journal(path).load()
    assert {student: row for student, (_, row) in kept.items()} == \
        {r.student: r for r in results}
    assert all(type(row.verdict) is Overall and {type(t.verdict) for t in row.tests} == {Verdict}
               for _, row in kept.values())  # equal as strs is not enough: the enums come back
    lines = path.read_text().splitlines()
    older = json.loads(lines[0])
    del older["result"]["printed_bytes"]  # a row as another version of the grader wrote it
    lines[0] = json.dumps(older)
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:40])  # the last write cut short
    assert len(journal.Journal(path).load()) == len(subs) - 2
    progress = Counting()
    batch.grade_all(plan, subs, out, progress=progress)
    assert progress.graded == 2
    whole = [json.loads(line) for line in path.read_text().splitlines()
             if line.startswith('{"key"') and line.endswith("}")]
    # Every row once, and the older line still there (appending never rewrites a line).
    assert len(journal.Journal(path).load()) == len(subs) and len(whole) == len(subs) + 1


def test_a_submission_that_kills_its_worker_gets_a_row_and_the_others_are_graded(tmp_path):
    # At the "limits" level the child runs as the grader's own user, so it can kill its worker.
    folder = make_class(tmp_path / "submissions", kinds=["kills_its_parent"])
    subs, _ = batch.find(folder)
    plan = plans.make(LAB.id, own_lab_only=True)
    results, isolation = batch.grade_all(plan, subs, tmp_path / "out", jobs=2, level="limits")
    rows = {r.student: r for r in results}
    assert isolation["level"] == "limits" and isolation["cannot_prevent"]
    assert rows["alice"].verdict is Overall.FULL_MARKS
    killer = rows["kills_its_parent"]
    assert killer.verdict is Overall.NOT_GRADED and killer.score == 0
    assert all(t.verdict is Verdict.CRASH for t in killer.tests)
    assert "worker process was killed" in killer.tests[0].message


def test_the_time_limit_per_submission_stops_the_rest_of_its_tests(tmp_path):
    folder = make_class(tmp_path / "submissions", kinds=["hangs_in_a_busy_loop"])
    subs = [s for s in batch.find(folder)[0] if s.student == "hangs_in_a_busy_loop"]
    settings = batch.Settings(seconds_per_test=1.0, seconds_per_submission=2.0)
    results, _ = batch.grade_all(plans.make(LAB.id, own_lab_only=True), subs, tmp_path / "out",
                                 settings=settings)
    row = results[0]
    assert row.seconds < 10
    cut = [t for t in row.tests if t.message.startswith("Not run: this submission used up")]
    assert cut and all(t.verdict is Verdict.TIMEOUT for t in cut)
    assert any("cut off at the time limit" in note for note in row.notes)


def test_a_fault_of_the_grader_is_a_row_that_says_so_and_is_graded_again_next_time(
        tmp_path, small_class, monkeypatch):
    plan, subs = small_class
    out = tmp_path / "out"
    # The file vanishes after the batch has listed it: the worker cannot read it.
    monkeypatch.setattr(batch, "key", lambda sub, fingerprint, settings: "k-" + sub.student)
    alice = next(s for s in subs if s.student == "alice")
    os.remove(alice.path)
    results, _ = batch.grade_all(plan, subs, out, jobs=1)
    rows = {r.student: r for r in results}
    assert rows["alice"].verdict is Overall.GRADER_ERROR and rows["alice"].score == 0
    assert "says nothing about the student's work" in rows["alice"].problem
    assert rows["bob"].verdict is Overall.PARTIAL
    assert "alice" not in journal.Journal(out / "journal.jsonl").load()
