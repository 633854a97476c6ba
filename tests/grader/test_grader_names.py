"""Issue 40's seventh scenario, names: a file named for a classmate's e-mail once took that
classmate's row in the Canvas export (its 0 over their 206), and a .hidden.py was skipped
without a word. A roster match two files could claim is refused and said; every entry of the
submissions folder is graded or named with why it was not."""
import csv
import io

from grader import batch, gradebook, roster as rosters
from tests.grader.grades_made import grades

STUDENTS = [rosters.Student("alice", "1001", "alice@school.edu"),
            rosters.Student("bob", "1002", "bob@school.edu")]
# Alice's own folder beside a file named for her e-mail, which scored nothing.
GRADES = {"lab": "15.1", "title": "Ask the run to stop", "max": 206, "submissions": [
    {"student": "alice", "score": 206, "verdict": "full marks"},
    {"student": "alice@school.edu", "score": 0, "verdict": "no marks"},
    {"student": "bob", "score": 100, "verdict": "partial"}]}


def test_a_student_two_submissions_could_claim_is_matched_to_neither_and_the_summary_says_so():
    found = rosters.match(STUDENTS, ["alice", "alice@school.edu", "bob"])
    assert set(found.found) == {"bob"}, (
        f"the roster matched {sorted(found.found)}: alice and alice@school.edu both fit alice, "
        "so neither may be taken as hers")
    assert [s.who for s in found.missing] == [], (
        "alice is claimed twice, not missing: the summary must not call her not submitted")
    said = rosters.summary(found)
    for name in ("alice", "alice@school.edu"):
        assert f"Not matched, and no grade given for it in an export: {name} claims alice " \
               f"(1001)" in said, f"the roster's summary does not say why {name} was refused:\n" \
                                  f"{said}"


def test_a_submission_several_students_fit_is_refused():
    students = [rosters.Student("al", "1", "al@x.edu"), rosters.Student("alan", "2", "al@y.edu")]
    found = rosters.match(students, ["al"])
    assert not found.found and [s.who for s in found.refused["al"].fits] == ["al", "alan"], (
        f"'al' fits both al's login and alan's e-mail; the match gave {found.found} and "
        f"{found.refused}")


def test_the_canvas_export_gives_a_disputed_student_no_grade_rather_than_the_wrong_one():
    table = list(csv.reader(io.StringIO(gradebook.render(grades(GRADES), "canvas", STUDENTS))))
    alice = next(row for row in table if row[2] == "1001")
    assert alice[-1] == "", (f"the export gave alice (1001) {alice[-1]!r}: two files claim "
                             "her, so her cell stays empty for the instructor to fill")
    assert ["bob", "", "1002", "bob", "", "100"] in table, f"bob's line is wrong: {table}"


def test_every_entry_the_grader_does_not_grade_is_named_with_why(tmp_path):
    (tmp_path / "ann.py").write_text("", encoding="utf-8")
    (tmp_path / ".hidden.py").write_text("", encoding="utf-8")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    found, ignored = batch.find(tmp_path)
    assert [s.student for s in found] == ["ann"]
    assert {entry.split(" ")[0] for entry in ignored} == {".hidden.py", "__pycache__",
                                                           "notes.txt"}, (
        f"find() named {ignored} as not graded; every entry but ann.py must be there")
    assert all("(" in entry and entry.endswith(")") for entry in ignored), (
        f"each entry not graded must say why, in brackets: {ignored}")
