"""Hidden tests keep their secrets (issue 25): in every file a student may be given (feedback,
grades.json, tests.csv, grades.csv, Gradescope's results.json) a hidden test shows its sentence
and its verdict, never its code, its values, nor what the submission's process said in it, and
the same holds of a lab's grading bank (grader/bank.py), which no release holds either; the
kit's tests keep their whole feedback. The instructor's own file holds the reasons, and the
grader says it is not for students.

The attackers are in tests/grader/submissions/: mallory (leaks_the_hidden_tests.py) hands back
whatever hidden code it can reach as a test's error and in what it prints, and reports a wrong
value where the judge's message would name the wanted one; trudy
(fails_to_import_with_the_hidden_tests.py) fails to import with the hidden code as the error."""
import csv
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from types import SimpleNamespace

import pytest

from tests.grader.gradeclass import LAB, SECONDS_PER_TEST, base_text, snippet
from lab.check import manifest, suite, words_feedback
from lab.check.verdict import Outcome, Verdict

from grader import bank, batch, gradescope, plan as plans, release, report, row as rows
from grader.sandbox.statement import Statement

from tests.grader.hidden_cases import HIDDEN, SENTENCES, leaks, strings, student_files
from tests.grader import bank_class


@pytest.fixture(scope="module")
def hidden_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("instructor") / "secret.py"
    path.write_text(HIDDEN, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def graded(tmp_path_factory, hidden_file):
    """The reference, the starter and the attackers graded two at a time with the hidden file,
    by the README's command, on lab 15.1's own tests (what reaches a student's files is the
    same whatever the suite; the Gradescope bundle below is made the same way)."""
    root = tmp_path_factory.mktemp("class")
    folder, out = root / "submissions", root / "out"
    folder.mkdir()
    (folder / "alice.py").write_text(base_text("solution"), encoding="utf-8")
    (folder / "bob.py").write_text(base_text("starter"), encoding="utf-8")
    (folder / "mallory.py").write_text(
        base_text("solution") + "\n" + snippet("leaks_the_hidden_tests"), encoding="utf-8")
    (folder / "trudy.py").write_text(
        base_text("solution") + "\n" + snippet("fails_to_import_with_the_hidden_tests"),
        encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "grader", "grade", "--lab", LAB.id, str(folder), "--out",
         str(out), "--jobs", "2", "--quiet", "--seconds-per-test", str(SECONDS_PER_TEST),
         "--own-lab-only", "--extra-tests", str(hidden_file)],
        cwd=manifest.KIT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": str(manifest.KIT)})
    assert done.returncode == 0, done.stdout + done.stderr
    out = out / f"lab-{LAB.id}"  # the lab's own folder in the class folder
    data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    return {"out": out, "stdout": done.stdout,
            "rows": {r["student"]: r for r in data["submissions"]}}


@pytest.fixture(scope="module")
def results(tmp_path_factory, hidden_file):
    """Gradescope's results.json for the attacker, written by the run inside the bundle."""
    root = tmp_path_factory.mktemp("gradescope")
    plan = plans.make(LAB.id, own_lab_only=True, extra_tests=[hidden_file])
    bundle = gradescope.build(plan, root / "bundle.zip",
                              settings=batch.Settings(seconds_per_test=SECONDS_PER_TEST))
    source = root / "source"
    with zipfile.ZipFile(bundle) as archive:
        archive.extract(gradescope.PLAN, source)
    submission = root / "submission"
    submission.mkdir()
    (submission / "harness.py").write_text(
        base_text("solution") + "\n" + snippet("leaks_the_hidden_tests"), encoding="utf-8")
    gradescope.run_inside(source, submission, root / "results.json")
    return json.loads((root / "results.json").read_text(encoding="utf-8"))


def hidden_entries(row: dict) -> list[dict]:
    """The row's entries of the instructor's hidden file (lab 15.1's grading bank is hidden
    too, and has tests of its own below)."""
    return [t for t in row["tests"] if t["hidden"] and t["set"] != bank.SET]


def test_no_file_a_student_may_be_given_holds_a_line_or_a_value_of_the_hidden_tests(graded):
    found = {name: leaks(text) for name, text in student_files(graded["out"]).items()}
    assert {name: found for name, found in found.items() if found} == {}


@pytest.fixture(scope="module")
def banked(tmp_path_factory):
    """Lab 5.1 graded on its grading bank, with a leaker that hands back every hidden test's
    code it is given, by `grader grade` and in the Gradescope bundle (tests/grader/bank_class.py)."""
    return bank_class.graded(tmp_path_factory)


def test_no_file_a_student_may_be_given_holds_a_line_or_a_value_of_the_bank(banked):
    assert bank_class.bank_secrets(), "the bank's secrets were not read"
    found = {name: bank_class.bank_leaks(text)
             for name, text in student_files(banked["out"]).items()}
    assert {name: found for name, found in found.items() if found} == {}
    found = {name: bank_class.bank_leaks(strings(results))
             for name, results in banked["results"].items()}
    assert {name: found for name, found in found.items() if found} == {}
    mallory = banked["rows"]["mallory"]
    assert any(t["hidden"] and t["earned"] == 0 for t in mallory["tests"]), (
        "the leaker failed no bank test, so nothing here shows a leak was stopped")


@pytest.fixture(scope="module")
def whole_release(tmp_path_factory):
    """A student release of the whole course, as the last week's would be."""
    folder = tmp_path_factory.mktemp("whole-release") / "release"
    release.build(folder, through=manifest.labs(built_only=True)[-1].id)
    return folder


def test_no_release_holds_a_line_or_a_value_of_a_grading_bank(whole_release):
    """A release of every lab: no file of it holds a line or a string of any lab's bank that
    the files it is made from do not hold (those the next test keeps free of every scenario)."""
    banks = [lab.id for lab in manifest.labs(built_only=True) if bank.has_bank(lab.id)]
    found = {}
    for path in whole_release.rglob("*"):
        if path.is_file() and hashlib.sha256(path.read_bytes()).digest() not in \
                bank_class.kit_digests():  # a kit file as it stands holds no leak
            text = path.read_bytes().decode("utf-8", "replace")
            leaked = [s for lab_id in banks for s in bank_class.bank_leaks(text, lab_id)
                      if not bank_class.in_kit(s)]
            if leaked:
                found[path.relative_to(whole_release).as_posix()] = leaked
    assert banks, "no lab has a grading bank, so this test checks nothing"
    assert found == {}, (
        "a student release of the whole course holds lines or strings of a grading bank that "
        "none of the files it is made from holds (tests/grader/bank_class.py's bank_secrets, "
        "kit_text): the release leaks source/bank/. File by file: " + repr(found)[:2000])


def test_no_lesson_source_holds_a_scenario_of_a_grading_bank():
    """What a release is made from holds no bank scenario's name or sentence: a scenario pasted
    into a lesson, a starter or lab/ would reach every student."""
    found = []
    for lab in manifest.labs(built_only=True):
        if not bank.has_bank(lab.id):
            continue
        source = bank.path_of(lab.id).read_text(encoding="utf-8")
        for test in suite.declared(source, bank.NAME):
            found += [f"lab {lab.id}'s {test.name}: {what!r}" for what in (test.name, test.says)
                      if bank_class.in_kit(what)]
    assert not found, ("a file a release is made from (lab/, lessons/, starters/, "
                       "source/lessons/, source/harness.src.py) holds a grading bank's scenario, "
                       "which every student would then hold:\n" + "\n".join(found))


def test_gradescopes_results_hold_no_line_or_value_of_the_hidden_tests(results):
    assert leaks(strings(results)) == []
    hidden = [t for t in results["tests"] if t["visibility"] != "visible"]
    assert [t["name"] for t in hidden] == SENTENCES
    assert [t["status"] for t in hidden] == ["failed", "failed"]
    assert {t["output"] for t in hidden} == {f"Failed.\n\n{words_feedback.HIDDEN_REASON}"}


def test_a_hidden_test_shows_its_sentence_and_its_verdict_to_the_student(graded):
    mallory = (graded["out"] / "feedback" / "mallory.md").read_text(encoding="utf-8")
    for says in SENTENCES:
        assert f"- **{says}** (a hidden test; " in mallory
    assert [t["verdict"] for t in hidden_entries(graded["rows"]["mallory"])] == ["fail", "fail"]
    assert [t["verdict"] for t in hidden_entries(graded["rows"]["alice"])] == ["pass", "pass"]
    assert all(t["message"] == words_feedback.HIDDEN_REASON
               for t in hidden_entries(graded["rows"]["mallory"]))


def test_the_kit_tests_run_apart_from_the_hidden_code_and_keep_their_whole_feedback(graded):
    """The attackers reach nothing hidden while the kit's tests run, so they import and pass
    them all; the starter is told why each of its kit tests failed, as without hidden tests."""
    for name in ("mallory", "trudy"):
        row = graded["rows"][name]
        assert row["import_error"] is None and row["output"] == ""
        assert all(t["verdict"] == "pass" for t in row["tests"] if not t["hidden"])
    bob = (graded["out"] / "feedback" / "bob.md").read_text(encoding="utf-8")
    assert "harness.py has no CancelToken.is_cancelled yet (lesson 15, lab 1)." in bob


def test_the_instructor_alone_reads_the_hidden_tests_reasons_and_is_told_so(graded):
    out = graded["out"]
    mine = out / "instructor" / "tests.csv"
    with mine.open(encoding="utf-8", newline="") as handle:
        table = [r for r in csv.DictReader(handle) if r["student"] == "mallory"]
    reasons = {r["says"]: r["reason"] for r in table}
    assert "expected: OPERATION-heron-ABORTED" in reasons[SENTENCES[1]]
    assert "lark-5090" in reasons[SENTENCES[0]]  # the hidden code, as the attacker's error
    assert f"Not for students: {mine}" in graded["stdout"]


def test_a_hidden_tests_reason_is_shown_only_when_the_whole_submission_shares_it(hidden_file):
    plan = plans.make(LAB.id, own_lab_only=True, extra_tests=[hidden_file])

    def view(reason, **how):
        said = [Outcome(t.id, t.says, t.lab, Verdict.FAIL, reason(t)) for t in plan.tests]
        return rows.build(plan, "x", "x.py", said, **how).for_students().tests

    judged = view(lambda t: f"expected: secret {t.id}")
    assert [t.message for t in judged if t.hidden] == [words_feedback.HIDDEN_REASON] * 2
    assert [t.message for t in judged if not t.hidden] == \
        [f"expected: secret {t.id}" for t in plan.tests if not t.hidden]
    nothing = view(lambda t: "No harness.py.", problem="No harness.py.")
    assert {t.message for t in nothing} == {"No harness.py."}
    broken = "harness.py does not import: SyntaxError"
    did_not_import = view(lambda t: broken, report=SimpleNamespace(
        import_error=broken, output="", output_dropped=0))
    assert {t.message for t in did_not_import} == {broken}


def test_without_hidden_tests_there_is_no_instructors_file(tmp_path):
    plan = plans.make(LAB.id, own_lab_only=True)
    row = rows.build(plan, "x", "x.py", [])
    paths = report.write(tmp_path, plan, [row], Statement("limits", False, (), ()))
    assert not (tmp_path / "instructor").exists() and "instructor" not in paths
    assert row.for_students() == row
