"""A new kind of check is one registry entry: tests/check/kind_matches.py adds "the found text
matches a pattern", whose pattern is the check's parameter, and nothing else of the kit changes.
The reference's record keeps the pattern, and the checker and the grader both judge a student's
value by it: a value the reference never produced passes when it matches, and one that does not
match fails, saying so."""
import json
import os
import subprocess
import sys

from lab.check import manifest, record, runner, seeds, suite
from lab.check.verdict import Verdict

from tests.check.kind_matches import MATCHES

LAB = manifest.lab("15.1")
TESTS = f'''
import harness
from lab.kit import lab_test

LAB = "15.1"


@lab_test("ABORTED reads as words.")
async def test_aborted_reads_as_words(t):
    t.expect_kind({MATCHES!r}, harness.ABORTED, "Operation aborted",
                  "ABORTED is a capital, then words", pattern=r"[A-Z][a-z]+( [a-z]+)*")
'''
# ABORTED reworded (the reference's is "Operation aborted"): still words, or not words at all.
REWORDED = 'ABORTED = "Stopped at your request"\n'
SHOUTED = 'ABORTED = "STOPPED!"\n'


def _files(tmp_path):
    path = tmp_path / "hidden_words.py"
    path.write_text(TESTS, encoding="utf-8")
    return [suite.TestFile(None, path, TESTS)]


def test_the_reference_record_keeps_the_kind_and_its_pattern(tmp_path):
    recorded = record.record(LAB.solution, _files(tmp_path))
    kept = seeds.Expectation.from_dict(recorded["hidden_words::test_aborted_reads_as_words"])
    assert kept.kinds == (MATCHES,), f"the record lost the kind of check: {kept}"
    assert json.loads(kept.params[0]) == {"pattern": "[A-Z][a-z]+( [a-z]+)*"}, \
        f"the record lost the check's parameter: {kept}"


def test_the_checker_judges_a_new_kind_by_the_references_pattern(tmp_path):
    files = _files(tmp_path)
    expected = record.record(LAB.solution, files)
    verdicts = {}
    for name, change in (("reworded", REWORDED), ("shouted", SHOUTED)):
        harness = tmp_path / name / "harness.py"
        harness.parent.mkdir()
        harness.write_text(LAB.solution.read_text(encoding="utf-8") + "\n" + change,
                           encoding="utf-8")
        (outcome,) = runner.run(harness, files, expected).outcomes
        verdicts[name] = outcome
    assert verdicts["reworded"].verdict is Verdict.PASS, \
        ("a value the reference never produced, which matches the pattern, failed: "
         f"{verdicts['reworded'].message}")
    shouted = verdicts["shouted"]
    assert shouted.verdict is Verdict.FAIL and \
        "it does not match the pattern [A-Z][a-z]+( [a-z]+)*" in shouted.message, \
        f"a value that does not match was not failed by the kind's own words: {shouted.message}"


def test_the_grader_judges_a_new_kind_in_its_workers(tmp_path):
    """The grader's workers are fresh processes: they find the kind by the name the record
    keeps, as every instructor's hidden tests file would have them."""
    files = tmp_path / "instructor"
    files.mkdir()
    hidden = files / "words.py"
    hidden.write_text(TESTS, encoding="utf-8")
    folder, out = tmp_path / "submissions", tmp_path / "out"
    folder.mkdir()
    solution = LAB.solution.read_text(encoding="utf-8")
    (folder / "ann.py").write_text(solution + "\n" + REWORDED, encoding="utf-8")
    (folder / "ben.py").write_text(solution + "\n" + SHOUTED, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "grader", "grade", "--lab", LAB.id, str(folder), "--out",
         str(out), "--jobs", "2", "--quiet", "--own-lab-only", "--extra-tests", str(hidden)],
        cwd=manifest.KIT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": str(manifest.KIT)})
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads((out / f"lab-{LAB.id}" / "grades.json").read_text(encoding="utf-8"))
    # The instructor's file's tests alone: lab 15.1's grading bank runs as hidden tests too.
    hidden_verdicts = {row["student"]: [t["verdict"] for t in row["tests"]
                                        if t["set"] == f"{hidden.name} (hidden)"]
                       for row in data["submissions"]}
    assert hidden_verdicts == {"ann": ["pass"], "ben": ["fail"]}, \
        f"the grader judged the new kind otherwise than the checker: {hidden_verdicts}"
