"""Issue 40, part 1: a grade only a working harness can earn. The red team's oracle, built here
from a release's public tests.py files, turns each public check's found into its wanted at run
time and so passes most public tests with no harness code; an adaptive oracle also runs, under
each blinded bank test's name, the public test whose code is shaped most like it. On each lab
whose grade rests on its private bank (grader/bank.py), 5.1 and 15.2 (where the red team's
oracle got 156 of 206 before the bank), each gets under a fifth of full marks by score alone,
under `grader grade` and in the Gradescope bundle, and the reference gets full marks. Each
lab's class and bundle runs are made once (tests/grader/bank_class.py)."""
import pytest

from tests.grader import bank_class
from tests.grader.bank_class import LABS
from tests.grader.gradeclass import public_entries

from lab.check import words_feedback
from lab.check.verdict import Verdict

from grader import bank
from tools.oracle import TOO_MUCH


@pytest.fixture(scope="module", params=LABS)
def graded(request, tmp_path_factory):
    """The lab's class and bundle runs, and the lab's id ("lab")."""
    return {**bank_class.graded(tmp_path_factory, request.param), "lab": request.param}


def _public_share(row):
    """What the row's public tests earned, of what they are worth."""
    public = public_entries(row)
    return sum(t["earned"] for t in public), sum(t["points"] for t in public)


@pytest.mark.parametrize("name", ["oracle", "adaptive"])
def test_an_oracle_of_the_public_tests_gets_under_a_fifth_under_grader_grade(graded, name):
    row = graded["rows"][name]
    earned, worth = _public_share(row)
    assert row["score"] < TOO_MUCH * row["max"], (
        f"the {name} oracle, which holds no harness code, got {row['score']:g} of "
        f"{row['max']:g} from `grader grade` on lab {graded['lab']}, {TOO_MUCH:.0%} or more: "
        f"{earned:g} of the public tests' {worth:g}, and "
        f"{sum(t['earned'] for t in row['tests'] if t['set'] == bank.SET):g} from the bank "
        f"(passed: {[t['id'] for t in row['tests'] if t['set'] == bank.SET and t['earned']]})")
    assert earned >= TOO_MUCH * worth, (
        f"the {name} oracle earned {earned:g} of the public tests' {worth:g}, under "
        f"{TOO_MUCH:.0%} of them, so this test no longer shows the attack the bank stops: "
        "rebuild the oracle from the release")
    assert row["review"], (f"the {name} oracle reaches into the checker, and is not marked "
                           "\"needs review\" (an aid, which counts toward nothing above)")


@pytest.mark.parametrize("name", ["oracle", "adaptive"])
def test_an_oracle_of_the_public_tests_gets_under_a_fifth_in_the_gradescope_bundle(graded, name):
    results = graded["results"][name]
    full = sum(t["max_score"] for t in results["tests"])
    assert results["score"] < TOO_MUCH * full, (
        f"the {name} oracle got {results['score']:g} of {full:g} in the Gradescope bundle on "
        f"lab {graded['lab']}; passed: {[t['name'][:60] for t in results['tests'] if t['score']]}")


def test_the_reference_gets_full_marks_from_both(graded):
    alice = graded["rows"]["alice"]
    assert alice["verdict"] == "full marks", (
        f"lab {graded['lab']}'s reference got {alice['score']:g} of {alice['max']:g} from `grader "
        f"grade`; failed: {[t['id'] for t in alice['tests'] if not t['earned']]}")
    results = graded["results"]["alice"]
    assert all(t["status"] == "passed" for t in results["tests"]) and \
        results["score"] == pytest.approx(sum(t["max_score"] for t in results["tests"])), (
        f"lab {graded['lab']}'s reference got {results['score']:g} in the Gradescope bundle; "
        f"failed: {[t['name'][:60] for t in results['tests'] if t['status'] != 'passed']}")


def test_the_bank_runs_and_the_summary_says_what_the_public_tests_are_worth(graded):
    alice = graded["rows"]["alice"]
    drawn = [t for t in alice["tests"] if t["set"] == bank.SET]
    assert drawn and all(t["hidden"] for t in drawn), "no bank test ran as a hidden test"
    earned, worth = _public_share(alice)
    assert worth == pytest.approx(bank.public_share(graded['lab']) * alice["max"]), (
        f"the public tests are worth {worth:g} of {alice['max']:g}, not the share lesson.toml "
        f"sets ({bank.public_share(graded['lab']):g})")
    line = bank.line(graded['lab'], bank.public_share(graded['lab']), len(drawn))
    assert line in graded["stdout"], f"the summary does not say:\n{line}\n{graded['stdout']}"
    feedback = (graded["out"] / "feedback" / "alice.md").read_text(encoding="utf-8")
    assert line in feedback, "the feedback does not say what the public tests are worth"
    assert line in graded["results"]["alice"]["output"], (
        "Gradescope's output does not say what the public tests are worth")


def test_a_failed_bank_test_shows_the_sentence_of_its_rule_and_nothing_of_its_own(graded):
    oracle = (graded["out"] / "feedback" / "oracle.md").read_text(encoding="utf-8")
    failed = [t for t in graded["rows"]["oracle"]["tests"]
              if t["set"] == bank.SET and not t["earned"]]
    assert failed, "the oracle failed no bank test"
    for t in failed:
        assert t["says"].startswith(f"Lab {graded['lab']}, rule "), t["says"]
        assert f"- **{t['says']}** (the grading bank;" in oracle, (
            f"the oracle's feedback does not name the rule of {t['id']}:\n{oracle}")
        assert t["message"] == words_feedback.BANK_REASON, t["message"]
    shown = [t for t in graded["results"]["oracle"]["tests"] if t["tags"] == [bank.SET]]
    assert shown and {t["visibility"] for t in shown} == {"visible"}
    # Its verdict's words (failed, ran out of time, the process died) and the bank's own.
    said = {t["output"] for t in shown if t["status"] == "failed"}
    allowed = {f"{v.words.capitalize()}.\n\n{words_feedback.BANK_REASON}" for v in Verdict
               if v is not Verdict.PASS}
    assert said and said <= allowed, (
        f"a failed bank test says more than its verdict and the bank's words: {said - allowed}")
