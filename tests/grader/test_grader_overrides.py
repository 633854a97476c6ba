"""An instructor's overrides (grader/overrides.py): a score change and a comment, keyed by a
student's name or roster id, for a test or a whole submission, applied on every run and shown
in the student's feedback, on the page, in grades.csv and in every export."""
import csv
import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest

from grader.__main__ import main
from tests.grader.gradeclass import LAB, bank_entries, base_text

ROSTER = "Name,ID,Email\nalice,1001,alice@school.edu\nbob,1002,bob@school.edu\n"
OVERRIDES = (
    "student,lab,test,change,comment,by,when\n"
    "1002,15.1,,+3,Agreed extension: the stop works when run by hand.,Ms Hopper,2026-03-02\n"
    "alice,15.1,{test},-1,Copied the docstring from the lesson.,Ms Hopper,2026-03-03\n"
    "alice,14.1,,+50,Another lab's line: not applied here.,Ms Hopper,2026-03-03\n")
# Both runs draw the same grading bank tests, so a bank test's id names a test of each.
SEED = "2026"


def _grade(folder, out, *extra) -> tuple[int, str]:
    said = io.StringIO()
    with redirect_stdout(said), redirect_stderr(said):
        code = main(["grade", "--lab", LAB.id, str(folder), "--out", str(out), "--quiet",
                     "--own-lab-only", "--jobs", "1", *extra])
    return code, said.getvalue()


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """alice (the reference) and bob (the starter), graded with the overrides, then again
    without --overrides (the kept file applies). The test alice loses a point of is one of
    lab 15.1's grading bank, since each public test is worth a tenth of a point there
    (public_share), and an override never takes a test below 0."""
    root = tmp_path_factory.mktemp("overrides")
    folder, out = root / "class", root / "out"
    folder.mkdir()
    (folder / "alice.py").write_text(base_text("solution"), encoding="utf-8")
    (folder / "bob.py").write_text(base_text("starter"), encoding="utf-8")
    (root / "roster.csv").write_text(ROSTER, encoding="utf-8")
    plain = root / "plain"
    assert _grade(folder, plain, "--seed", SEED)[0] == 0
    before = {r["student"]: r for r in json.loads(
        (plain / f"lab-{LAB.id}" / "grades.json").read_text(encoding="utf-8"))["submissions"]}
    test = bank_entries(before["alice"])[0]["id"]
    (root / "overrides.csv").write_text(OVERRIDES.format(test=test), encoding="utf-8")
    code, said = _grade(folder, out, "--roster", str(root / "roster.csv"),
                        "--overrides", str(root / "overrides.csv"), "--seed", SEED)
    assert code == 0, said
    code, again = _grade(folder, out)
    assert code == 0, again
    return {"root": root, "out": out, "lab": out / f"lab-{LAB.id}", "before": before,
            "test": test, "said": said, "again": again}


def _scores(graded) -> dict:
    data = json.loads((graded["lab"] / "grades.json").read_text(encoding="utf-8"))
    return {r["student"]: r["score"] for r in data["submissions"]}


def test_an_override_changes_the_score_by_roster_id_and_by_name_for_one_test(graded):
    before = graded["before"]
    assert _scores(graded) == {"alice": before["alice"]["score"] - 1,
                               "bob": before["bob"]["score"] + 3}
    alice = json.loads((graded["lab"] / "grades.json").read_text(encoding="utf-8"))[
        "submissions"][0]
    earned = {t["id"]: t["earned"] for t in alice["tests"]}
    points = {t["id"]: t["points"] for t in before["alice"]["tests"]}
    assert points[graded["test"]] > 1, "the test must be worth more than the point taken"
    assert earned[graded["test"]] == pytest.approx(points[graded["test"]] - 1)


def test_overrides_apply_again_on_a_rerun_without_compounding(graded):
    assert "  Since the last run: no score changed." in graded["again"].splitlines()
    assert "Overrides (2), in the scores above" in graded["again"]


def test_the_students_feedback_shows_the_change_the_comment_who_and_when(graded):
    bob = (graded["lab"] / "feedback" / "bob.md").read_text(encoding="utf-8")
    assert "## Your instructor's changes" in bob
    assert ("- Ms Hopper, 2026-03-02: added 3 points to your score; “Agreed extension: the "
            "stop works when run by hand.”.") in bob
    alice = (graded["lab"] / "feedback" / "alice.md").read_text(encoding="utf-8")
    assert "took 1 point from “" in alice and "Copied the docstring" in alice
    assert "Another lab's line" not in alice


def test_the_page_lists_each_override(graded):
    page = (graded["lab"] / "report.html").read_text(encoding="utf-8")
    assert '<section id="overrides"' in page
    assert "Agreed extension" in page and "Copied the docstring" in page


def test_grades_csv_and_every_export_hold_the_overridden_scores(graded, tmp_path):
    scores = _scores(graded)
    with (graded["lab"] / "grades.csv").open(encoding="utf-8") as handle:
        assert {r["student"]: float(r["score"]) for r in csv.DictReader(handle)} == scores
    for fmt, name_at, score_at, first in (("canvas", 0, 5, 2), ("moodle", 2, 3, 1),
                                          ("csv", 0, 3, 1)):
        target = tmp_path / f"{fmt}.csv"
        assert main(["export", "--format", fmt, "--out", str(target), str(graded["out"])]) == 0
        table = list(csv.reader(target.open(encoding="utf-8")))[first:]
        assert {row[name_at]: float(row[score_at]) for row in table} == scores, fmt


@pytest.mark.parametrize("line, words", [
    ("carol,15.1,,+1,,,", "line 2: no submission of lab 15.1 is 'carol'"),
    ("bob,15.1,no_such_test,+1,,,", "line 2: lab 15.1's grading has no test 'no_such_test'"),
    ("bob,15.1,,lots,,,", "line 2: the change 'lots' is not +N, -N or =N points"),
])
def test_a_line_that_names_no_one_or_no_test_is_refused_naming_it(graded, line, words):
    bad = graded["root"] / "bad.csv"
    bad.write_text("student,lab,test,change,comment,by,when\n" + line + "\n", encoding="utf-8")
    code, said = _grade(graded["root"] / "class", graded["root"] / "bad-out",
                        "--overrides", str(bad))
    assert code == 2 and words in said, said
    assert not (graded["root"] / "bad-out").exists(), "a refused run wrote a folder"
