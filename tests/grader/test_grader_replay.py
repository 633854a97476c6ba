"""A replay cannot earn a grade (issue 23): a file with no harness code that reports the values a
release's expected.json files recorded (tests/grader/replay.py) gets full marks under the public
seed, which proves it replays what a student holds, and under the grader's secret seed only the
tests whose observations do not follow from the seed."""
import json

import pytest

from lab.check import manifest, seeds

from grader import release
from grader.__main__ import main
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


def test_the_replay_gets_full_marks_under_the_public_seed_so_it_replays_what_students_hold(
        graded):
    replay = graded["public"]["replay"]
    assert replay["score"] == replay["max"] > 0, replay


def test_the_reference_gets_full_marks_under_the_secret_seed(graded):
    reference = graded["secret"]["reference"]
    assert reference["score"] == reference["max"] > 0, reference


def test_the_replay_gets_under_a_fifth_of_full_marks_under_the_secret_seed(graded):
    replay = graded["secret"]["replay"]
    assert replay["score"] < replay["max"] / 5, (
        f"the replay got {replay['score']} of {replay['max']}: "
        f"{sum(t['verdict'] == 'pass' for t in replay['tests'])} tests still pass on values "
        "a release ships")
