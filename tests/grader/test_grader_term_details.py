"""A class week's details that the terminal, the page and the exports must get right
(issue 44): one count of broken files, cut lists that say what they cut, the first difference
kept whole, lesson links that open a page and survive a move, a wrong design named only for
the function that failed, a wrong hidden test named as the instructor's, Canvas's names and
logins from the roster, and a Classroom workflow written only into a copy it can check."""
import csv
import io
import json
import re
import shutil

import pytest

from grader import classroom, gradebook, page, plan as plans, report, roster as rosters
from grader.errors import GraderError
from grader.page import facts, html, teaching
from grader.row import Entry, Overall, build
from grader.sandbox.statement import Statement
from tests.grader.grades_made import grades, whole
from lab.check.facts import Mismatch
from lab.check.rules import Rule
from lab.check.verdict import Outcome, Verdict

LAB = "6.1"


def _entry(test_id, verdict, message=""):
    return {"id": test_id, "verdict": verdict, "message": message}


def _grades(n_tests: int = 12) -> dict:
    """A lab of n_tests tests; ann fails them all, ben the first, cat's file is empty and
    dan's lacks the lab's names (both broken), eve's did not import."""
    ids = [f"t{i:02d}" for i in range(n_tests)]
    tests = [{"id": i, "says": f"Rule {i}.", "lab": LAB, "set": "lab 6.1", "hidden": False}
             for i in ids]
    return {"lab": LAB, "title": "Fit the budget", "max": n_tests, "tests": tests,
            "submissions": [
                {"student": "ann", "score": 0, "max": n_tests, "verdict": "no marks",
                 "seconds": 1.25, "tests": [_entry(i, "fail", "no") for i in ids]},
                {"student": "ben", "score": n_tests - 1, "max": n_tests, "verdict": "partial",
                 "seconds": 0.5, "tests": [_entry(i, "fail" if i == ids[0] else "pass", "no")
                                           for i in ids]},
                *({"student": name, "score": 0, "max": n_tests, "verdict": verdict,
                   "seconds": 0.1, "tests": [_entry(i, "fail", "harness.py is empty")
                                             for i in ids]}
                  for name, verdict in (("cat", "empty file"), ("dan", "lacks the lab's names"),
                                        ("eve", "does not import")))]}


def test_the_page_counts_broken_files_as_the_terminal_does():
    found = facts.read(grades(_grades()))
    assert [s.name for s in found.not_graded()] == ["cat", "dan", "eve"]
    assert {r.ran for r in found.rules} == {2}, "an empty file counted as a file that ran"
    assert all("harness.py is empty" not in m for r in found.rules for m in r.messages)
    broken = {v.value for v in Overall if v.broken}
    assert set(facts.NOT_RUN) == broken


def test_the_pages_list_of_most_failed_rules_says_how_many_it_left_out():
    text = "\n".join(html.rules(facts.read(grades(_grades(12))), teaching.manifest.KIT))
    assert "The 10 most failed of the 12 rules someone failed; the other 2" in text


def test_the_summarys_list_of_most_failed_tests_says_how_many_it_left_out():
    plan = plans.make(LAB, own_lab_only=True)
    fails = [Outcome(t.id, t.says, t.lab, Verdict.FAIL, "no") for t in plan.tests]
    rows = [build(plan, "ann", "ann.py", fails), build(plan, "ben", "ben.py", fails)]
    said = report.summary(plan, rows, Statement("limits", False, (), ()))
    assert (f"Most-failed tests (the {report.MOST_FAILED} most failed of the "
            f"{len(plan.tests)} tests someone failed; every one is in tests.csv):") in said


def test_the_terminal_keeps_the_first_difference_whole():
    differs = ("first difference, at item 3 of 40: expected 'line three of the long file\\n', "
               "found 'line three of the long file'")
    found = "[" + ", ".join(["1"] * 60) + "]"
    mismatch = Mismatch(0, "what", "[1, 2, 3]", found, difference=differs)
    entry = Entry("t", "Rule.", LAB, "lab 6.1", False, Verdict.FAIL, "(any words)", 1, 0,
                  mismatch)
    assert len(differs) > report.GROUP_CHARACTERS
    assert report.what_it_did(entry) == differs, \
        "a long value's group is not named by where it first differs"
    short = Entry("t", "Rule.", LAB, "lab 6.1", False, Verdict.FAIL, "(any words)", 1, 0,
                  Mismatch(0, "what", "[1, 2, 3]", "[1, 2]", difference="expected 3 items"))
    assert report.what_it_did(short) == "found [1, 2]", \
        "a short value's group is not named by the value found"


def test_a_lesson_link_opens_a_rendered_page_that_survives_moving_the_folder(tmp_path):
    out = tmp_path / "lab-6.1"
    out.mkdir()
    (out / "grades.json").write_text(json.dumps(whole(_grades(3))), encoding="utf-8")
    page.write(out)
    moved = tmp_path / "elsewhere"
    shutil.move(out, moved)
    text = (moved / "report.html").read_text(encoding="utf-8")
    link = re.search(r'Taught in [^<]*, section <a href="([^"]+)"', text).group(1)
    target, anchor = link.split("#")
    assert not target.startswith(("/", "file:", "..")), link
    lesson = (moved / target).read_text(encoding="utf-8")
    assert f'id="{anchor}"' in lesson and "<script" not in lesson
    assert "<img" in lesson and 'src="figures/' not in lesson, "a figure left outside the page"


def test_a_wrong_design_is_named_only_for_the_function_that_failed():
    """The function is the one the broken rule credits, or the one the failure stopped in (its
    fact's): both are facts, so no sentence is read for it."""
    broke = [Rule.declared('"ééé\\n" is 4 characters but 7 bytes: over a 6-byte budget. '
                           "Count len(line.encode()), not len(line) (truncate_head, lesson 6).")]
    says = "Bytes are counted, not characters."
    named = [d["name"] for d in teaching.designs_like(LAB, says, broke)]
    assert "characters instead of bytes, in truncate_head" in named
    assert "characters instead of bytes, in truncate_tail" not in named
    uncredited = [Rule.declared("4 characters but 7 bytes: count bytes, not characters.")]
    stopped = [d["name"] for d in teaching.designs_like(LAB, says, uncredited, {"truncate_tail"})]
    assert "characters instead of bytes, in truncate_tail" in stopped
    assert "characters instead of bytes, in truncate_head" not in stopped


def test_a_hidden_test_the_reference_fails_is_named_as_the_instructors(tmp_path):
    wrong = tmp_path / "mine.py"
    wrong.write_text("import harness\nfrom lab.check.kit import lab_test\n\nLAB = '6.1'\n\n\n"
                     "@lab_test('MAX_LINES is 7.')\nasync def test_seven(t):\n"
                     "    t.expect(harness.MAX_LINES, 7, 'seven')\n", encoding="utf-8")
    with pytest.raises(GraderError) as raised:
        plans.make(LAB, own_lab_only=True, extra_tests=[wrong])
    said = str(raised.value)
    assert said.startswith("your hidden test file hidden_mine (--extra-tests) fails on lab "
                           "6.1's reference solution, so the test is what is wrong"), said
    assert "kit's own tests" not in said


def test_canvas_takes_names_and_logins_from_the_roster(tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text("Name,Login,ID,Email\nAda Lovelace,alovelace,1001,ada@school.edu\n"
                    "Grace Hopper,ghopper,1002,grace@school.edu\n", encoding="utf-8")
    brief = {"lab": LAB, "title": "Fit the budget", "max": 3,
             "submissions": [{"student": "alovelace", "score": 3, "verdict": "full marks"}]}
    table = list(csv.reader(io.StringIO(gradebook.render(grades(brief), "canvas",
                                                         rosters.read(path)))))
    assert table[2:] == [["Ada Lovelace", "", "1001", "alovelace", "", "3"],
                         ["Grace Hopper", "", "1002", "ghopper", "", ""]]


def test_classroom_refuses_a_folder_that_holds_no_copy_to_check(tmp_path):
    with pytest.raises(GraderError, match="holds no copy of the course"):
        classroom.write("5.1", tmp_path)
    assert not (tmp_path / ".github").exists()
