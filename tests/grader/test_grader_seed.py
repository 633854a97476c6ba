"""The grader's secret seed (issue 23): `python -m grader grade` draws its cases under a seed no
released expected.json holds, keeps it in the output folder for its owner alone so that a
re-run resumes under it, judges against the reference recorded under it, and names it in each
student's feedback with the local checker's `--seed N`."""
import json
import stat

import pytest

from grader import bank
from lab.check import manifest, seeds
from tools import wrong_designs

from grader.__main__ import SEED_FILE, main

LAB = manifest.lab("3.1")
FIXED_ROUNDS = next(d for d in wrong_designs.catalogue()
                    if d.lab == LAB.id and d.name == "a fixed number of rounds")


def make_class(folder):
    """alice.py, the reference of lab 3.1, and rounds.py, its loop written as range(3)."""
    folder.mkdir(parents=True)
    (folder / "alice.py").write_text(LAB.solution.read_text(encoding="utf-8"),
                                     encoding="utf-8")
    (folder / "rounds.py").write_text(wrong_designs.harness(FIXED_ROUNDS), encoding="utf-8")
    return folder


def grade(folder, out) -> int:
    assert main(["grade", "--lab", LAB.id, str(folder), "--out", str(out), "--quiet"]) == 0
    return int((out / SEED_FILE).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """One grading run of the class, shared by the tests that only read what it wrote."""
    where = tmp_path_factory.mktemp("seeded")
    out = where / "out"
    seed = grade(make_class(where / "submissions"), out)
    out = out / f"lab-{LAB.id}"  # the lab's own folder in the class folder
    rows = json.loads((out / "grades.json").read_text(encoding="utf-8"))["submissions"]
    return out, seed, {row["student"]: row for row in rows}


def test_a_grading_run_draws_a_seed_not_the_public_one_and_keeps_it_for_its_owner(graded):
    out, seed, _ = graded
    assert seed != seeds.PUBLIC
    assert stat.S_IMODE((out.parent / SEED_FILE).stat().st_mode) == 0o600


def test_a_rerun_of_the_same_output_folder_resumes_under_the_same_seed(tmp_path, monkeypatch):
    folder = make_class(tmp_path / "submissions")
    out = tmp_path / "out"
    drawn = iter([1111, 2222])
    monkeypatch.setattr(seeds, "secret", lambda: next(drawn))
    lab_out = out / f"lab-{LAB.id}"
    assert grade(folder, out) == 1111
    first = (lab_out / "grades.csv").read_text(encoding="utf-8")
    assert grade(folder, out) == 1111
    assert (lab_out / "grades.csv").read_text(encoding="utf-8") == first
    assert "seed 1111" in (lab_out / "feedback" / "alice.md").read_text(encoding="utf-8")


def test_the_reference_gets_full_marks_under_a_secret_seed(graded):
    _, _, rows = graded
    alice = rows["alice"]
    assert alice["score"] == alice["max"] > 0, alice


def test_a_loop_with_its_rounds_written_in_loses_points_under_a_secret_seed(graded):
    _, _, rows = graded
    assert rows["rounds"]["score"] < rows["rounds"]["max"]
    failed = [t for t in rows["rounds"]["tests"] if t["verdict"] != "pass"]
    # Lab 3.1's own tests, and its grading bank's (which checks 3.1's rules): no earlier lab's.
    assert failed and all(t["lab"] == LAB.id or t["set"] == bank.SET for t in failed), (
        "a loop with its rounds written in lost points to tests of another lab, or to none: "
        + repr([(t["id"], t["lab"], t["set"]) for t in failed]))


def test_each_students_feedback_names_the_seed_and_the_command_that_draws_under_it(graded):
    out, seed, rows = graded
    for student in rows:
        text = (out / "feedback" / f"{student}.md").read_text(encoding="utf-8")
        assert f"under seed {seed}" in text and f"`--seed {seed}`" in text, text
        assert "python lab/lab_check.py --harness harness.py --lesson 3 tests.py" in text
