"""The instructor's class page (grader/page/), the roster (grader/roster.py) and the gradebook
exports (grader/gradebook.py).

One small class is graded once with a roster that names two students who did not submit; the
page's and the exports' own logic is tested on grades.json data made here, which is faster and
says exactly what each test pins down.
"""
import csv
import io
import json
import re

import pytest

from grader import gradebook, page, roster as rosters
from grader.__main__ import main
from grader.page import facts, html, teaching, weeks
from lab.check import manifest
from lab.check.rules import Rule
from tests.grader.gradeclass import LAB, base_text
from tests.grader.grades_made import grades

ROSTER = ("Name,ID,Email\nalice,1001,alice@school.edu\nBob,1002,bob@school.edu\n"
          "dave,1004,dave@school.edu\nerin,1005,erin@school.edu\n")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """alice (the reference) and bob (the starter) graded for 15.1's own tests, with a roster
    that also names dave and erin, who submitted nothing; what the terminal said."""
    root = tmp_path_factory.mktemp("class-page")
    folder, out = root / "class", root / "out"
    folder.mkdir()
    (folder / "alice.py").write_text(base_text("solution"), encoding="utf-8")
    (folder / "bob.py").write_text(base_text("starter"), encoding="utf-8")
    (root / "roster.csv").write_text(ROSTER, encoding="utf-8")
    printed = io.StringIO()
    from contextlib import redirect_stdout
    with redirect_stdout(printed):
        assert main(["grade", "--lab", LAB.id, str(folder), "--out", str(out), "--quiet",
                     "--own-lab-only", "--roster", str(root / "roster.csv")]) == 0
    return out / f"lab-{LAB.id}", printed.getvalue()  # the lab's own folder in the class


def test_a_roster_with_two_students_who_did_not_submit_lists_them_in_the_terminal(graded):
    _, printed = graded
    line = next(line for line in printed.splitlines() if line.startswith("Not submitted:"))
    assert line == "Not submitted: dave (1004), erin (1005)"


def test_a_roster_with_two_students_who_did_not_submit_lists_them_on_the_page(graded):
    out, _ = graded
    page = (out / "report.html").read_text(encoding="utf-8")
    missing = re.search(r'<ul class="missing">(.*?)</ul>', page).group(1)
    assert re.findall(r"<li>(\w+)", missing) == ["dave", "erin"]


def test_the_page_is_written_beside_grades_json_and_needs_no_script_or_network(graded):
    out, printed = graded
    page = (out / "report.html").read_text(encoding="utf-8")
    assert f"{out / 'report.html'}" in printed
    assert "<script" not in page.lower()
    assert not re.search(r'(src|href)="(https?:)?//', page), "the page reaches for the network"


def test_the_page_counts_what_grades_json_holds(graded):
    out, _ = graded
    data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    page = (out / "report.html").read_text(encoding="utf-8")
    for row in data["submissions"]:
        assert f'<th scope="row">{row["student"]}</th><td>{row["score"]:g}/{row["max"]:g}</td>' \
            in page


def test_grade_keeps_the_roster_for_export_which_keys_rows_on_its_ids(graded, tmp_path):
    out, _ = graded
    target = tmp_path / "moodle.csv"
    assert main(["export", "--format", "moodle", "--out", str(target), str(out.parent)]) == 0
    rows = list(csv.DictReader(target.open(encoding="utf-8")))
    assert [r["ID number"] for r in rows] == ["1001", "1002", "1004", "1005"]
    assert [r["Username"] for r in rows][:2] == ["alice", "bob"]


# --- the exports, against the layouts grader/gradebook.py cites --------------------------------

GRADES = {"lab": "15.1", "title": "Ask the run to stop", "max": 20, "submissions": [
    {"student": "alice", "score": 20, "verdict": "full marks"},
    {"student": "bob", "score": 7.5, "verdict": "partial"},
    {"student": "zed", "score": 3, "verdict": "grader error"},
    {"student": "stranger", "score": 4, "verdict": "partial"}]}
STUDENTS = [rosters.Student("alice", "1001", "alice@school.edu"),
            rosters.Student("Bob Jones", "1002", "bob@school.edu"),
            rosters.Student("zed", "1003", "zed@school.edu"),
            rosters.Student("dave", "1004", "dave@school.edu")]


def _table(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_canvas_export_has_canvas_columns_a_points_possible_row_and_sis_ids():
    table = _table(gradebook.render(grades(GRADES), "canvas", STUDENTS))
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                        "Lab 15.1: Ask the run to stop"]
    assert table[1] == ["Points Possible", "", "", "", "", "20"]
    assert table[2:] == [["alice", "", "1001", "alice", "", "20"],
                         ["Bob Jones", "", "1002", "bob", "", "7.5"],
                         ["zed", "", "1003", "zed", "", ""],  # the grader's fault: no score
                         ["dave", "", "1004", "", "", ""],  # not submitted: left empty, not 0
                         ["stranger", "", "", "stranger", "", "4"]]


def test_moodle_export_gives_an_identifier_column_per_mapping_and_one_grade_column():
    table = _table(gradebook.render(grades(GRADES), "moodle", STUDENTS))
    assert table[0] == ["ID number", "Email address", "Username",
                        "Lab 15.1: Ask the run to stop"]
    assert table[1] == ["1001", "alice@school.edu", "alice", "20"]
    assert table[4] == ["1004", "dave@school.edu", "dave", ""]


def test_the_plain_export_without_a_roster_has_a_row_per_submission_by_name():
    table = _table(gradebook.render(grades(GRADES), "csv"))
    assert table[0] == ["student", "id", "email", "score", "max", "verdict", "lab"]
    assert [r[0] for r in table[1:]] == ["alice", "bob", "stranger", "zed"]
    assert table[2] == ["bob", "", "", "7.5", "20", "partial", "15.1"]


def test_an_unknown_format_or_a_folder_without_grades_is_the_users_error(tmp_path):
    with pytest.raises(rosters.GraderError, match="no gradebook format"):
        gradebook.render(grades(GRADES), "blackboard")
    assert main(["export", "--format", "csv", "--out", str(tmp_path / "x.csv"),
                 str(tmp_path)]) == 2


# --- the roster --------------------------------------------------------------------------------

def test_a_submission_matches_by_login_id_email_or_the_emails_name_ignoring_case(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("\ufeffStudent ID,Full name,E-mail\n7,Ann Lee,ann.lee@x.edu\n8,Bo,bo@x.edu\n"
                    "9,Cy,cy@x.edu\n", encoding="utf-8")
    students = rosters.read(path)
    assert students[0] == rosters.Student("Ann Lee", "7", "ann.lee@x.edu", name="Ann Lee")
    found = rosters.match(students, ["ANN.LEE", "8", "nobody"])
    assert {name: s.id for name, s in found.found.items()} == {"ANN.LEE": "7", "8": "8"}
    assert [s.who for s in found.missing] == ["Cy"] and found.unknown == ["nobody"]


def test_a_roster_without_a_column_naming_the_student_is_refused(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("ID,Email\n1,a@x.edu\n", encoding="utf-8")
    with pytest.raises(rosters.GraderError, match="no column naming the student"):
        rosters.read(path)


# --- what the page computes --------------------------------------------------------------------

def _entry(test_id, verdict, message=""):
    return {"id": test_id, "verdict": verdict, "message": message}


CLASS = {"lab": "15.2", "title": "Insist", "max": 3, "tests": [
    {"id": "a", "says": "Easy.", "lab": "15.1", "set": "lab 15.1", "hidden": False},
    {"id": "b", "says": "Hard.", "lab": "15.1", "set": "lab 15.1", "hidden": False},
    {"id": "c", "says": "Stop insists.", "lab": "15.2", "set": "lab 15.2", "hidden": False}],
    "submissions": [
        {"student": "ann", "score": 3, "max": 3, "verdict": "full marks", "seconds": 0.5,
         "tests": [_entry("a", "pass"), _entry("b", "pass"), _entry("c", "pass")]},
        {"student": "ben", "score": 1, "max": 3, "verdict": "partial", "seconds": 2,
         "tests": [_entry("a", "pass"), _entry("b", "fail", "no"), _entry("c", "timeout")]},
        {"student": "cat", "score": 2, "max": 3, "verdict": "partial", "seconds": 3,
         "tests": [_entry("a", "pass"), _entry("b", "crash", "died"), _entry("c", "pass")]},
        {"student": "dan", "score": 0, "max": 3, "verdict": "does not import", "seconds": 0.1,
         "import_error": "Traceback (most recent call last):\n  ...\nSyntaxError: bad",
         "tests": [_entry(t, "fail", "x") for t in "abc"]}]}


def test_hardest_rules_come_first_in_each_lab_and_the_weakest_students_on_top():
    found = facts.read(grades(CLASS))
    assert [r.id for r in found.rules] == ["b", "a", "c"]
    assert [s.name for s in found.students] == ["dan", "ben", "cat", "ann"]
    assert [(r.id, r.failed, r.ran) for r in found.most_failed()] == [("b", 2, 3), ("c", 1, 3)]


def test_a_file_that_did_not_import_is_not_run_not_failed_and_says_why():
    found = facts.read(grades(CLASS))
    dan = found.students[0]
    assert set(dan.cells.values()) == {"not run"}
    assert [(s.name, s.why) for s in found.not_graded()] == [("dan", "SyntaxError: bad")]


def test_the_score_distribution_counts_every_student_once_and_the_page_times_each():
    found = facts.read(grades(CLASS))
    assert sum(n for _, n in found.distribution()) == 4
    assert found.distribution()[-1] == ("90–100%", 1)
    times = "\n".join(html.times(found))
    assert re.findall(r'<th scope="row">(\w+)</th><td>([\d.]+) s</td>', times) == [
        ("cat", "3.0"), ("ben", "2.0"), ("ann", "0.5"), ("dan", "0.1")]


def test_each_cell_of_the_picture_says_its_verdict_in_text_as_well_as_colour():
    page = html.page(facts.read(grades(CLASS)), manifest.KIT)
    ben = re.search(r'<th scope="row">ben</th><td>1/3</td>(.*?)</tr>', page).group(1)
    assert re.findall(r'<td class="(\w)[^"]*">(.)</td>', ben) == [
        ("f", "✗"), ("p", "✓"), ("f", "✗")]


def test_every_lab_links_to_a_build_heading_its_lessons_notebook_has():
    for lab in manifest.labs(built_only=True):
        where = teaching.section(lab.id)
        assert where is not None, lab.id
        assert where.heading.startswith("Build: ")
        assert f"## {where.heading}" in lab.lesson.source.read_text(encoding="utf-8")
    assert teaching.section("15.2").anchor() == "Build:-insist"


def test_a_failed_rule_is_matched_to_the_wrong_designs_whose_words_its_rule_holds():
    """By the facts of the failures (the rules they broke, as their tests declared them),
    never by the words the kit made of them: a message holding a design's words is not read."""
    design = next(d for d in teaching.designs() if d["lab"] == "15.1")
    broke = [Rule.declared(f"... {design['names']} ...")]
    assert design in teaching.designs_like("15.1", "A test.", broke)
    assert design in teaching.designs_like("15.1", f"A test of {design['names']}.", [])
    assert design not in teaching.designs_like("14.1", "A test.", broke)
    assert teaching.designs_like("15.1", "A test.", [Rule.declared("nothing alike")]) == []


def test_the_catalogue_the_page_reads_is_the_generated_one():
    from tools import make
    assert make.design_files() == {
        manifest.STARTERS / teaching.DESIGNS:
            (manifest.STARTERS / teaching.DESIGNS).read_text(encoding="utf-8")}


def test_labs_graded_into_one_folder_give_each_students_path_in_course_order(tmp_path):
    later = {**CLASS, "submissions": CLASS["submissions"][:2]}
    earlier = {**CLASS, "lab": "14.1", "max": 4, "submissions": [
        {"student": "ann", "score": 4, "verdict": "full marks"}]}
    weeks.record(tmp_path, grades(later))
    every = weeks.record(tmp_path, grades(earlier))
    assert list(every) == ["14.1", "15.2"]
    table = "\n".join(html.path(every))
    assert "<td>4/4 (100%)</td><td>3/3 (100%)</td>" in table
    assert '<th scope="row">ben</th><td class="n">not graded</td><td>1/3 (33%)</td>' in table


MARKUP = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def test_what_a_submission_wrote_reaches_the_page_as_text_never_as_markup(graded, tmp_path):
    """A student's name and the words their code raised are theirs to choose: the instructor's
    browser must show them, not run them."""
    out, _ = graded
    data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    bob = next(r for r in data["submissions"] if r["student"] == "bob")
    bob["student"] = "bob" + MARKUP
    failed = next(t for t in bob["tests"] if t["verdict"] != "pass")
    failed["message"] = MARKUP + "\n" + failed["message"]
    copy = tmp_path / "out"
    copy.mkdir()
    (copy / "grades.json").write_text(json.dumps(data), encoding="utf-8")
    text = page.write(copy).read_text(encoding="utf-8")
    assert "<script" not in text and "<img" not in text
    assert "bob&lt;script&gt;" in text
