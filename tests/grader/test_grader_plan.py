"""What is graded and for how many points: the kit's metadata, the instructor's hidden tests, and
how submissions are found in a folder."""
import dataclasses
import os

import pytest

from tests.grader.gradeclass import EXTRA, LAB, base_text
from lab.check import manifest, runner, suite
from lab.check.verdict import Verdict

from grader import batch, plan as plans
from grader.batch import Unfound


def test_a_test_is_worth_its_labs_points_unless_it_sets_its_own(monkeypatch):
    plan = plans.make(LAB.id)
    for t in plan.tests:
        own = plans.points_in(manifest.lab(t.lab).tests.read_text(encoding="utf-8"))
        assert t.points == own.get(t.id.split("::")[1], manifest.lab(t.lab).points)
    assert plan.max_score == sum(t.points for t in plan.tests)
    real = manifest.lab
    monkeypatch.setattr(manifest, "lab", lambda lab_id: dataclasses.replace(real(lab_id), points=2)
                        if lab_id == LAB.id else real(lab_id))
    own = plans.points_in(LAB.tests.read_text(encoding="utf-8"))
    for t in plans.make(LAB.id, own_lab_only=True).tests:
        assert t.points == own.get(t.id.split("::")[1], 2.0)


def test_points_set_on_a_test_are_read_from_its_decorator():
    assert plans.points_in(EXTRA) == {"test_aborted_is_the_words": 3.0}


def test_the_cumulative_suite_runs_every_earlier_lab_and_own_lab_only_just_this_one():
    everything = plans.make("15.2")
    own = plans.make("15.2", own_lab_only=True)
    assert [s["set"] for s in everything.sets] == \
        [f"lab {x.id}" for x in manifest.before("15.2")] + ["lab 15.2"]
    assert [s["set"] for s in own.sets] == ["lab 15.2"]
    assert len(own.tests) == len(suite.describe(manifest.lab("15.2")))
    assert len(everything.tests) == sum(len(suite.describe(x))
                                        for x in [*manifest.before("15.2"), manifest.lab("15.2")])


def test_hidden_tests_are_recorded_on_the_reference_and_graded_with_their_points(tmp_path):
    extra = tmp_path / "extra15.py"
    extra.write_text(EXTRA, encoding="utf-8")
    plan = plans.make(LAB.id, extra_tests=[extra])
    hidden = [t for t in plan.tests if t.hidden]
    assert [(t.id, t.points, t.checks) for t in hidden] == [
        ("hidden_extra15::test_aborted_is_the_words", 3.0, 1),
        ("hidden_extra15::test_a_new_token_is_clear", 1.0, 1)]
    assert plan.sets[-1] == {"set": "extra15.py (hidden)", "tests": 2, "checks": 2,
                             "hidden": True}
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "alice.py").write_text(base_text("solution"), encoding="utf-8")
    (folder / "bob.py").write_text(base_text("starter").replace(
        "ABORTED = ", "ABORTED_NOT_YET = "), encoding="utf-8")
    subs, _ = batch.find(folder)
    results, _ = batch.grade_all(plan, subs, tmp_path / "out", extra_files=[extra])
    alice, bob = results
    assert alice.score == alice.max == plans.make(LAB.id).max_score + 4
    assert [t.verdict for t in bob.tests if t.hidden][0] is Verdict.FAIL
    # The reports name the hidden set, and the plan they ran under is not the plain one.
    assert plan.fingerprint() != plans.make(LAB.id).fingerprint()


def test_a_hidden_test_the_reference_fails_is_refused(tmp_path):
    extra = tmp_path / "wrong.py"
    extra.write_text(EXTRA.replace('"Operation aborted"', '"Stopped"'), encoding="utf-8")
    with pytest.raises(plans.PlanError, match="fails on lab 15.1.s reference solution"):
        plans.make(LAB.id, extra_tests=[extra])


def test_a_lab_that_is_not_built_has_nothing_to_grade(monkeypatch):
    real = manifest.lab  # every lab of the kit is built now: make 14.1 a reference-only one
    monkeypatch.setattr(manifest, "lab", lambda lab_id: dataclasses.replace(
        real(lab_id), reference_only=True) if lab_id == "14.1" else real(lab_id))
    with pytest.raises(plans.PlanError, match="not built"):
        plans.make("14.1")
    with pytest.raises(plans.PlanError, match="there is no lab 99.9"):
        plans.make("99.9")


def test_submissions_are_files_or_folders_named_for_the_student(tmp_path):
    (tmp_path / "ann.py").write_text("")
    (tmp_path / "ben").mkdir()
    (tmp_path / "ben" / "harness.py").write_text("")
    (tmp_path / "cy" / "15-stop" / "lab1").mkdir(parents=True)
    (tmp_path / "cy" / "15-stop" / "lab1" / "harness.py").write_text("")
    (tmp_path / "dee" / "a").mkdir(parents=True)
    (tmp_path / "dee" / "b").mkdir()
    (tmp_path / "dee" / "a" / "harness.py").write_text("")
    (tmp_path / "dee" / "b" / "harness.py").write_text("")
    (tmp_path / "eve").mkdir()
    (tmp_path / "ann").mkdir()
    (tmp_path / "ann" / "harness.py").write_text("")
    (tmp_path / "notes.txt").write_text("")
    (tmp_path / ".hidden.py").write_text("")
    os.symlink(LAB.solution, tmp_path / "fay.py")
    found, ignored = batch.find(tmp_path)
    by = {s.student: s for s in found}
    assert sorted(by) == ["ann", "ann~2", "ben", "cy", "dee", "eve", "fay"]
    assert by["ben"].shown == "ben/harness.py"
    assert by["cy"].shown == "cy/15-stop/lab1/harness.py"
    assert by["dee"].unfound is Unfound.SEVERAL and by["dee"].path is None
    assert by["dee"].candidates == ["a/harness.py", "b/harness.py"]
    assert "several harness.py files (a/harness.py, b/harness.py)" in by["dee"].problem
    assert by["eve"].unfound is Unfound.NONE and "holds no harness.py" in by["eve"].problem
    assert by["fay"].unfound is Unfound.LINK and by["fay"].path is None
    assert "is a link" in by["fay"].problem
    assert {by[n].unfound for n in ("ann", "ann~2", "ben", "cy")} == {None}
    assert ignored == [".hidden.py (a hidden name, starting with a dot: never graded; without "
                       "the dot it would be)", "notes.txt (neither a .py file nor a folder)"], (
        f"find() left {ignored} ungraded: each entry that is not a submission must be named "
        "with why, the hidden one too")


# An instructor's hidden test, written with a parameter not called `t`.
OTHERWISE_SPELLED = '''
import harness
from lab.check.kit import lab_test

LAB = "15.1"


@lab_test("The words of a stop, checked through a parameter named check.")
async def test_words(check):
    check.expect(harness.ABORTED, "Operation aborted", "ABORTED holds the words of a stop.")
'''

# A submission that answers with the constants of the code that asks for ABORTED: the test's
# own, where a wanted value left in the code would be.
PEEKS = '''
import sys


def __getattr__(name):
    if name == "ABORTED":
        return repr(sys._getframe(1).f_code.co_consts)
    raise AttributeError(name)
'''


def test_a_hidden_tests_wanted_value_never_reaches_the_submission_however_its_parameter_is_named(
        tmp_path):
    extra = tmp_path / "spelled.py"
    extra.write_text(OTHERWISE_SPELLED, encoding="utf-8")
    plan = plans.make(LAB.id, extra_tests=[extra])
    submission = tmp_path / "peeks.py"
    submission.write_text(base_text("solution").replace("ABORTED = ", "_ABORTED = ") + PEEKS,
                          encoding="utf-8")
    [hidden] = plan.extras
    files = [suite.TestFile(None, tmp_path / f"{hidden.name}.py", hidden.source)]
    report = runner.run(submission, files, hidden.expected)
    [outcome] = report.outcomes
    found = next(line for line in outcome.message.splitlines() if line.strip().startswith("found:"))
    assert "Ellipsis" in found, outcome.message  # it did read the test's constants
    assert "Operation aborted" not in found, "the wanted value reached the submission"


def test_a_hidden_test_the_checker_cannot_blind_is_refused_before_any_grading(tmp_path):
    extra = tmp_path / "aliased.py"
    extra.write_text(OTHERWISE_SPELLED.replace(
        "    check.expect(", "    same = check.expect\n    same("), encoding="utf-8")
    with pytest.raises(plans.PlanError, match=r"aliased.py, test test_words, line 10: .*takes "
                                              "expect without calling it"):
        plans.make(LAB.id, extra_tests=[extra])
