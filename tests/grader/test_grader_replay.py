"""A replay cannot earn a grade (issue 23): a file with no harness code that reports the values a
release's expected.json files recorded (tests/grader/replay.py) passes every public test under
the public seed, which proves it replays what a student holds, and under the grader's secret
seed only the tests whose observations do not follow from the seed. Lab 15.2 has a grading bank
(issue 40), whose values no release records: the replay fails each of its tests under either
seed, so its public tests alone, a tenth of the grade, are what the public seed gives it."""
import json

import pytest

from lab.check import manifest, seeds

from grader import bank, release
from grader.__main__ import main
from tests.grader.gradeclass import bank_entries, public_entries
from tests.grader.replay import replay_file

LAB = manifest.lab("15.2")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The replay and the reference, graded once under the public seed and once under a
    secret one; {seed name: {student: row}}."""
    where = tmp_path_factory.mktemp("replay")
    release.build(where / "course", through=LAB.id)
    folder = where / "submissions"
    folder.mkdir()
    (folder / "replay.py").write_text(replay_file(where / "course"), encoding="utf-8")
    (folder / "reference.py").write_text(LAB.solution.read_text(encoding="utf-8"),
                                         encoding="utf-8")
    rows = {}
    for name, extra in (("public", ["--seed", str(seeds.PUBLIC)]), ("secret", [])):
        out = where / name
        assert main(["grade", "--lab", LAB.id, str(folder), "--out", str(out), "--quiet",
                     *extra]) == 0
        graded_rows = json.loads((out / f"lab-{LAB.id}" / "grades.json").read_text(encoding="utf-8"))
        rows[name] = {row["student"]: row for row in graded_rows["submissions"]}
    return rows


def test_the_replay_passes_every_public_test_under_the_public_seed_as_students_hold_them(graded):
    replay = graded["public"]["replay"]
    failed = [t["id"] for t in public_entries(replay) if t["verdict"] != "pass"]
    assert public_entries(replay) and not failed, (
        f"the replay failed public tests under the public seed, whose values its release "
        f"records: {failed}; tests/grader/replay.py no longer replays what students hold")
    public = sum(t["points"] for t in public_entries(replay))
    assert replay["score"] == pytest.approx(public) == \
        pytest.approx(bank.public_share(LAB.id) * replay["max"]), (
        f"the replay got {replay['score']} of {replay['max']} under the public seed: its public "
        f"tests, worth {public}, and nothing of the grading bank, whose values no release holds")


@pytest.mark.parametrize("seed", ["public", "secret"])
def test_the_replay_fails_every_grading_bank_test_and_the_reference_passes_them(graded, seed):
    replay, reference = graded[seed]["replay"], graded[seed]["reference"]
    assert bank_entries(replay), f"lab {LAB.id} drew no grading bank test under the {seed} seed"
    passed = [t["id"] for t in bank_entries(replay) if t["verdict"] == "pass"]
    assert not passed, (f"the replay passed grading bank tests under the {seed} seed, whose "
                        f"values no release holds: {passed}")
    assert {t["verdict"] for t in bank_entries(reference)} == {"pass"}, bank_entries(reference)


def test_the_reference_gets_full_marks_under_the_secret_seed(graded):
    reference = graded["secret"]["reference"]
    assert reference["score"] == reference["max"] > 0, reference


def test_the_replay_gets_under_a_fifth_of_full_marks_under_the_secret_seed(graded):
    replay = graded["secret"]["replay"]
    assert replay["score"] < replay["max"] / 5, (
        f"the replay got {replay['score']} of {replay['max']}: "
        f"{sum(t['verdict'] == 'pass' for t in replay['tests'])} tests still pass on values "
        "a release ships")
