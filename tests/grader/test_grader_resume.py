"""Nothing graded is lost: the journal keeps each result as it is made, a re-run resumes, and a
worker killed by what it ran costs only a row that says so."""
import json
import os

import pytest

from gradeclass import LAB, make_class

from grader import batch, journal, plan as plans


class Counting:
    """A progress bar that only counts."""

    def __init__(self):
        self.total = self.reused = self.graded = 0

    def start(self, total, reused=0):
        self.total, self.reused = total, reused

    def advance(self, res):
        self.graded += 1

    def end(self):
        pass


def _rows(results):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in results]


@pytest.fixture
def small_class(tmp_path):
    folder = make_class(tmp_path / "submissions",
                        kinds=["exits_at_import", "patches_the_checks"])
    subs, _ = batch.find(folder)
    return plans.make(LAB.id), subs


def test_a_crash_mid_batch_loses_nothing_graded_and_the_rerun_grades_only_the_rest(
        tmp_path, small_class, monkeypatch):
    plan, subs = small_class
    out = tmp_path / "out"
    real = journal.Journal.append
    calls = []

    def crash_after_two(self, key, result):
        real(self, key, result)
        calls.append(result["student"])
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
    assert next(r for r in results if r["student"] == "alice")["verdict"] == "does not import"


def test_a_line_cut_short_by_a_crash_is_skipped_and_its_submission_graded_again(tmp_path,
                                                                            small_class):
    plan, subs = small_class
    out = tmp_path / "out"
    batch.grade_all(plan, subs, out)
    path = out / "journal.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:40])  # the last write cut short
    assert len(journal.Journal(path).load()) == len(subs) - 1
    progress = Counting()
    batch.grade_all(plan, subs, out, progress=progress)
    assert progress.graded == 1
    entries = [json.loads(line) for line in path.read_text().splitlines()
               if line.startswith('{"key"') and line.endswith("}")]
    assert len(journal.Journal(path).load()) == len(subs) and len(entries) == len(subs)


def test_a_submission_that_kills_its_worker_gets_a_row_and_the_others_are_graded(tmp_path):
    # At the "limits" level the child runs as the grader's own user, so it can kill its worker.
    folder = make_class(tmp_path / "submissions", kinds=["kills_its_parent"])
    subs, _ = batch.find(folder)
    plan = plans.make(LAB.id)
    results, isolation = batch.grade_all(plan, subs, tmp_path / "out", jobs=2, level="limits")
    rows = {r["student"]: r for r in results}
    assert isolation["level"] == "limits" and isolation["cannot_prevent"]
    assert rows["alice"]["verdict"] == "full marks"
    killer = rows["kills_its_parent"]
    assert killer["verdict"] == "not graded" and killer["score"] == 0
    assert all(t["verdict"] == "crash" for t in killer["tests"])
    assert "worker process was killed" in killer["tests"][0]["message"]


def test_the_time_limit_per_submission_stops_the_rest_of_its_tests(tmp_path):
    folder = make_class(tmp_path / "submissions", kinds=["hangs_in_a_busy_loop"])
    subs = [s for s in batch.find(folder)[0] if s.student == "hangs_in_a_busy_loop"]
    settings = batch.Settings(seconds_per_test=1.0, seconds_per_submission=2.0)
    results, _ = batch.grade_all(plans.make(LAB.id), subs, tmp_path / "out", settings=settings)
    row = results[0]
    assert row["seconds"] < 10
    cut = [t for t in row["tests"] if t["message"].startswith("Not run: this submission used up")]
    assert cut and all(t["verdict"] == "timeout" for t in cut)
    assert any("cut off at the time limit" in note for note in row["notes"])


def test_a_fault_of_the_grader_is_a_row_that_says_so_and_is_graded_again_next_time(
        tmp_path, small_class, monkeypatch):
    plan, subs = small_class
    out = tmp_path / "out"
    # The file vanishes after the batch has listed it: the worker cannot read it.
    monkeypatch.setattr(batch, "key", lambda sub, fingerprint, settings: "k-" + sub.student)
    alice = next(s for s in subs if s.student == "alice")
    os.remove(alice.path)
    results, _ = batch.grade_all(plan, subs, out, jobs=1)
    rows = {r["student"]: r for r in results}
    assert rows["alice"]["verdict"] == "grader error" and rows["alice"]["score"] == 0
    assert "says nothing about the student's work" in rows["alice"]["problem"]
    assert rows["bob"]["verdict"] == "partial"
    assert "alice" not in journal.Journal(out / "journal.jsonl").load()
