"""What is graded and for how many points: the kit's metadata, the instructor's hidden tests, a
lab's grading bank, and how submissions are found in a folder."""
import dataclasses
import os
import tomllib

import pytest

from tests.grader.gradeclass import EXTRA, LAB, base_text
from lab.check import manifest, runner, suite
from lab.check.verdict import Verdict

from grader import bank, batch, ledger, plan as plans
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


# --- the grading bank (grader/bank.py) ----------------------------------------------------------

BANKED = manifest.lab("5.1")


def _bank_tests(plan):
    return [t for t in plan.tests if t.set == bank.SET]


def test_a_lab_with_a_bank_is_graded_mostly_on_a_subset_drawn_from_the_seed():
    plan = plans.make(BANKED.id, draw=7)
    drawn = _bank_tests(plan)
    rules = ledger.of_lab(BANKED.id)
    names = {t.id.partition("::")[2] for t in drawn}
    for rule in rules:
        kept = names & set(rule.bank)
        assert len(kept) == max(2, len(rule.bank) - 1), (
            f"{rule.id}: {sorted(kept)} of its bank {list(rule.bank)} drawn")
        assert {t.says for t in drawn if t.id.partition("::")[2] in kept} == \
            {ledger.sentence(rule)}, f"{rule.id}'s bank tests do not say its rule"
    source = next(e for e in plan.extras if e.rules).source
    assert {t.name for t in suite.declared(source, bank.NAME)} == names, \
        "the bank's code the plan holds is not the drawn tests alone"
    public = [t for t in plan.tests if t.set != bank.SET]
    share = bank.public_share(BANKED.id)
    assert plan.share == share and 0 < share <= 0.1
    assert sum(t.points for t in public) == pytest.approx(share * plan.max_score)
    assert len({round(t.points, 9) for t in drawn}) == 1, "the bank's tests are not worth alike"
    assert plan.max_score == pytest.approx(len(public)), \
        "the lab is worth what its public tests were worth alone"
    again = plans.make(BANKED.id, draw=7)
    assert [t.id for t in _bank_tests(again)] == [t.id for t in drawn], \
        "the same seed drew another subset, so a re-run into the folder would grade otherwise"
    subsets = {tuple(sorted(bank.drawn(BANKED.id, seed).rules)) for seed in range(12)}
    assert len(subsets) > 1, "every seed draws the same subset of the bank"


def test_without_a_draw_or_a_bank_a_lab_is_graded_on_its_public_tests_and_says_so(
        tmp_path, monkeypatch):
    with_bank = plans.make(BANKED.id)  # no draw: its bank is not graded
    # Lab 6.1 as a lab with no file under source/bank/ (every lab may have one by now).
    monkeypatch.setattr(bank, "path_of", lambda lab_id: tmp_path / "no-bank.py")
    for plan in (with_bank, plans.make("6.1", draw=7)):
        assert plan.share is None and not _bank_tests(plan)
        assert all(t.points == manifest.lab(t.lab).points for t in plan.tests
                   if not plans.points_in(manifest.lab(t.lab).tests.read_text()))
    assert plans.make("6.1", draw=7).bank_line() == (
        "Lab 6.1 has no grading bank yet, so its grade rests on its public tests alone, as "
        "before.")


def test_a_bank_its_ledger_does_not_match_is_refused_naming_both(tmp_path, monkeypatch):
    source = bank.path_of(BANKED.id).read_text(encoding="utf-8")
    lost = ledger.of_lab(BANKED.id)[0].bank[0]
    mine = tmp_path / "lab1.py"
    mine.write_text(source.replace(f"def {lost}(", "def test_renamed("), encoding="utf-8")
    monkeypatch.setattr(bank, "path_of", lambda lab_id: mine)
    with pytest.raises(plans.PlanError, match=f"rule 1 names \\['{lost}'\\]"):
        plans.make(BANKED.id, draw=7)


@pytest.mark.parametrize("share", ["1.5", "-0.1", "\"a tenth\"", None])
def test_a_public_share_that_is_not_a_fraction_is_refused(monkeypatch, share):
    # As lesson.toml's line `public_share = SHARE` reads (None: the line left out).
    value = None if share is None else tomllib.loads(f"{bank.SHARE} = {share}")[bank.SHARE]
    moved = dataclasses.replace(BANKED, lesson=dataclasses.replace(BANKED.lesson,
                                                                   public_share=value))
    real = manifest.lab
    monkeypatch.setattr(manifest, "lab", lambda lab_id: moved if lab_id == BANKED.id
                        else real(lab_id))
    with pytest.raises(plans.PlanError, match=f"needs {bank.SHARE} = a number from 0 to under 1"):
        bank.public_share(BANKED.id)


def test_an_instructors_extra_tests_run_before_the_bank_with_their_own_points(tmp_path):
    extra = tmp_path / "mine.py"
    extra.write_text('import harness\nfrom lab.check.kit import lab_test\n\nLAB = "5.1"\n\n\n'
                     '@lab_test("An ending says why.", points=4)\nasync def test_why(t):\n'
                     '    t.expect(harness.error_message("x")["error_message"], "x", "Why.")\n',
                     encoding="utf-8")
    plan = plans.make(BANKED.id, draw=3, extra_tests=[extra])
    sets = [s["set"] for s in plan.sets]
    assert sets[-2:] == ["mine.py (hidden)", bank.SET], (
        f"the instructor's hidden file should run before the bank, in the place it had before "
        f"a lab had one; the sets run in this order: {sets} (grader/plan.py, make)")
    mine = [t for t in plan.tests if t.set == "mine.py (hidden)"]
    assert [(t.says, t.points) for t in mine] == [("An ending says why.", 4.0)]
    assert plan.max_score == pytest.approx(len([t for t in plan.tests if not t.hidden]) + 4)
