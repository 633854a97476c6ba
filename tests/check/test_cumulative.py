"""The course's cumulative promise, checked through the same engine a student's check uses:
every solution passes every lab's tests up to its own; every starter passes the labs before it
and fails its own, under any seed the same tests; and each gap, left empty on its own, makes its
lab's tests fail."""
import pytest

from lab.check import manifest, record, runner, seeds, suite
from tests.check import checked_once
from tools import labsource

from conftest import BUILT


def run(path, files):
    return runner.run(path, files, runner.expected_for(files))


def failures(report):
    return [f"{o.id}: {o.message}" for o in report.outcomes if o.verdict != "pass"]


@pytest.mark.parametrize("lab_id", BUILT)
def test_the_solution_passes_every_test_up_to_its_lab(tmp_path_factory, lab_id):
    report = checked_once.report(tmp_path_factory, manifest.lab(lab_id).solution,
                                 suite.of_lab(lab_id))
    assert report.outcomes and failures(report) == []


def test_the_last_solution_passes_every_test_of_the_kit():
    last = manifest.labs(built_only=True)[-1]
    files = [suite.TestFile(lab.id, lab.tests, lab.tests.read_text(encoding="utf-8"))
             for lab in manifest.labs(built_only=True)]
    report = run(last.solution, files)
    assert len(report.outcomes) == sum(len(suite.describe(lab)) for lab in manifest.labs(built_only=True))
    assert failures(report) == []


@pytest.mark.parametrize("lab_id", BUILT)
def test_the_starter_passes_earlier_labs_and_fails_its_own(tmp_path_factory, lab_id):
    lab = manifest.lab(lab_id)
    report = checked_once.report(tmp_path_factory, lab.starter, suite.of_lab(lab_id))
    earlier = [o for o in report.outcomes if o.lab_id != lab_id]
    own = [o for o in report.outcomes if o.lab_id == lab_id]
    assert [o.id for o in earlier if o.verdict != "pass"] == []
    assert any(o.verdict != "pass" for o in own), f"lab {lab_id}'s starter passes all its tests"


# Two seeds besides the public one. A family that draws the case its rule is about only now and
# then would let a starter pass a test under one seed and fail it under another, and a grader's
# secret seed would then change a grade by luck.
OTHER_SEEDS = (7, 20230923)


@pytest.mark.parametrize("lab_id", BUILT)
def test_under_other_seeds_the_same_checks_are_made_and_the_starter_fails_the_same_tests(lab_id):
    lab = manifest.lab(lab_id)
    files = suite.of_lab(lab_id, cumulative_=False)  # earlier labs: their own starters, here
    checks = {test: len(e["checks"]) for test, e in runner.expected_for(files).items()}
    failing = {seeds.PUBLIC: [o.id for o in run(lab.starter, files).outcomes
                              if o.verdict != "pass"]}
    for seed in OTHER_SEEDS:
        expected = record.record(lab.solution, files, seed=seed)  # raises on a wanted it misses
        assert {test: len(e["checks"]) for test, e in expected.items()} == checks, \
            f"under seed {seed}, a test of lab {lab_id} makes another number of checks"
        report = runner.run(lab.starter, files, expected)
        failing[seed] = [o.id for o in report.outcomes if o.verdict != "pass"]
    assert all(ids == failing[seeds.PUBLIC] for ids in failing.values()), (
        f"lab {lab_id}'s starter fails different tests under different seeds: a family that "
        f"does not always draw the case its rule is about. Failing, by seed: {failing}")


@pytest.mark.parametrize("seed", OTHER_SEEDS)
def test_under_other_seeds_the_last_solution_meets_every_wanted_value_of_the_kit(seed):
    """The grader records the reference under its secret seed before it grades anyone: a family
    whose wanted value misses a later lab's reference under some seed would stop it there."""
    last = manifest.labs(built_only=True)[-1]
    files = [suite.TestFile(lab.id, lab.tests, lab.tests.read_text(encoding="utf-8"))
             for lab in manifest.labs(built_only=True)]
    expected = record.record(last.solution, files, seed=seed)  # raises on a wanted it misses
    assert len(expected) == sum(len(suite.describe(lab)) for lab in manifest.labs(built_only=True))


def gap_cases():
    tree = labsource.parse(labsource.SOURCE.read_text(encoding="utf-8"))
    return [(lab_id, gap.number, gap.name) for lab_id in BUILT for gap in labsource.gaps(tree, lab_id)]


@pytest.mark.parametrize("lab_id, number, name", gap_cases())
def test_each_gap_left_empty_fails_its_labs_tests(tmp_path, lab_id, number, name):
    lab = manifest.lab(lab_id)
    path = tmp_path / "harness.py"
    path.write_text(labsource.make(lab, "starter", open_only=number), encoding="utf-8")
    report = run(path, suite.of_lab(lab_id, cumulative_=False))
    assert any(o.verdict != "pass" for o in report.outcomes), \
        f"lab {lab_id} with only gap {number} ({name}) left empty still passes every test"
