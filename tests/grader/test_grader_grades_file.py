"""grades.json is read back through one class, grader/grades.py's Grades: a file written now
comes back as it was written, facts and all, and a file an instructor already holds, written
before a field was added, still reads, exports and makes its class page."""
import json

import pytest

from grader import gradebook
from grader.errors import GraderError
from grader.grades import Grades
from grader.page import facts
from grader.row import Overall
from grader.sandbox.found import Sandbox
from grader.sandbox.statement import Statement
from lab.check.facts import Mismatch
from lab.check.rules import Credit, Rule
from lab.check.verdict import Verdict

# A grades.json as the grader wrote it before rows kept the instructor's overrides and tests
# kept their facts: every key of that version, and none after it.
OLD = {"lab": "5.1", "name": "lab 5.1", "title": "Know when to stop", "own_lab_only": False,
       "max": 2.0, "sets": [{"set": "lab 5.1", "tests": 2, "checks": 3}],
       "tests": [{"id": "a", "says": "Stops.", "lab": "5.1", "set": "lab 5.1", "points": 1.0,
                  "checks": 2, "hidden": False},
                 {"id": "b", "says": "Counts.", "lab": "5.1", "set": "lab 5.1", "points": 1.0,
                  "checks": 1, "hidden": False}],
       "isolation": {"level": "limits", "cannot_prevent": ["reading the kit"]},
       "ignored": [],
       "submissions": [
           {"student": "ann", "source": "ann.py", "score": 1.0, "max": 2.0,
            "verdict": "partial", "problem": None, "import_error": None,
            "tests": [{"id": "a", "says": "Stops.", "lab": "5.1", "set": "lab 5.1",
                       "hidden": False, "verdict": "pass", "message": "", "points": 1.0,
                       "earned": 1.0},
                      {"id": "b", "says": "Counts.", "lab": "5.1", "set": "lab 5.1",
                       "hidden": False, "verdict": "fail", "message": "A rule.\n    expected: 1"
                       "\n    found:    2", "points": 1.0, "earned": 0.0}],
            "notes": [], "printed_bytes": 0, "output": "", "seconds": 0.4},
           {"student": "zed", "source": "zed.py", "score": 0.0, "max": 2.0,
            "verdict": "grader error", "problem": "The grader failed.", "import_error": None,
            "tests": [], "notes": [], "printed_bytes": 0, "output": "", "seconds": 0.0}]}


def test_a_grades_json_written_before_facts_and_overrides_still_reads(tmp_path):
    path = tmp_path / "grades.json"
    path.write_text(json.dumps(OLD), encoding="utf-8")
    read = Grades.read(path)
    ann, zed = read.submissions
    assert ann.verdict is Overall.PARTIAL and ann.tests[1].verdict is Verdict.FAIL, \
        "an old file's verdicts did not come back as the grader's enums"
    assert ann.overrides == [] and ann.tests[1].cause is None and ann.tests[1].rule is None, \
        "a field the old file lacks did not read as its default"
    assert [line.split(",")[-2:] for line in gradebook.render(read, "csv").splitlines()] == \
        [["verdict", "lab"], ["partial", "5.1"], ["grader error", "5.1"]], \
        "the old file did not export as it did"
    assert ",," in gradebook.render(read, "csv").splitlines()[2], \
        "the grader's own failure was exported as a score rather than left empty"
    page = facts.read(read)
    assert [(r.id, r.failed, r.ran) for r in page.rules] == [("b", 1, 1), ("a", 0, 1)], \
        "the old file's class page counted other than its rows say"
    assert read.isolation == Statement("limits", False, (), ("reading the kit",)), \
        "the old file's isolation statement did not read back as the grader's Statement"
    assert Grades.from_dict({**OLD, "isolation": {}}).isolation.level == "", \
        "a grades.json without a statement did not read"


def test_a_grades_json_written_now_reads_back_as_it_was_written_facts_and_all(tmp_path):
    data = json.loads(json.dumps(OLD))
    data["submissions"][0]["overrides"] = ["+1 point for b: a fair reading"]
    data["submissions"][0]["tests"][1]["cause"] = {
        "fact": "mismatch", "check": 0, "why": "A rule.", "wanted": "1", "found": "2",
        "kind": "equal", "difference": None, "lacks": None}
    data["submissions"][0]["tests"][0]["cause"] = None
    data["submissions"][0]["tests"][1]["rule"] = {
        "parts": ["A rule ", {"names": ["run_agent"], "lesson": 5, "said": None}, "."],
        "items": None}
    data["submissions"][0]["tests"][0]["rule"] = None
    read = Grades.from_dict(data)
    assert read.submissions[0].tests[1].cause == Mismatch(0, "A rule.", "1", "2")
    assert read.submissions[0].tests[1].rule == Rule(("A rule ", Credit(("run_agent",), 5), ".")), \
        "the rule a failure broke did not read back as lab/check/rules.py's Rule"
    added = {"digest": "", "review": []}  # fields a row has gained since OLD was written
    # what the isolation statement has said since OLD was written, which OLD lacks
    statement = {"own_users": False, "holds": [], **data["isolation"], "sandbox": None}
    assert json.loads(read.dumps()) == {**data, "isolation": statement, "submissions": [
        {**data["submissions"][0], **added},
        {**data["submissions"][1], "overrides": [], **added}]}, \
        "grades.json did not come back as it was written"
    again = Grades.from_dict(json.loads(read.dumps()))
    assert again == read


def test_a_statement_written_now_keeps_its_facts_and_makes_its_words_from_them():
    """The isolation statement travels as facts (grader/sandbox/found.py's Sandbox); its
    sentences are made from them when read, so a grades.json's are the words of its facts."""
    found = Sandbox("user", False, None, None, None, 2, 4, 512, 60, 8, 32, 16, None,
                    ("/kit/.git",), False)
    statement = Statement(found.level, False, sandbox=found)
    data = json.loads(json.dumps(statement.to_dict()))
    assert data["sandbox"]["jobs_asked"] == 4 and data["cannot_prevent"], data
    read = Statement.from_dict({**data, "cannot_prevent": ["(other words)"]})
    assert read == statement and read.cannot_prevent == statement.cannot_prevent, \
        "the statement's words were read back from the file rather than made from its facts"
    assert any("/kit/.git" in line for line in read.cannot_prevent)
    assert any("(2 here) all run as your own user" in line for line in read.cannot_prevent)


@pytest.mark.parametrize("key, value", [
    ("cause", {"fact": "missing_name", "name": 3}),
    ("rule", {"parts": ["A rule ", {"names": "run_agent", "lesson": 5}], "items": None}),
    ("rule", {"parts": [3], "items": None})])
def test_a_fact_a_grades_json_cannot_hold_is_refused_in_one_line(tmp_path, key, value):
    data = json.loads(json.dumps(OLD))
    data["submissions"][0]["tests"][1][key] = value
    path = tmp_path / "grades.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(GraderError, match="is not a grades.json this grader wrote") as caught:
        Grades.read(path)
    assert "\n" not in str(caught.value), "the error is more than one line"
