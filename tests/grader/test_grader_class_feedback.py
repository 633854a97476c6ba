"""A class's week in its students' words and its instructor's (issue 29): an empty file and a
file without the lab's names each get one line of feedback; the summary counts broken files
apart from the failed tests, groups the students who failed a test by what their code found,
marks a test that ran out of time, and a rerun into the same folder says whose score changed.

The class is lab 15.1's own tests only (own_lab_only), so that it grades in seconds: the
reference (alice), the starter (bob), two students who wrote "Operation cancelled" for
ABORTED and one who added a full stop, a file that loops for ever, one that does not parse,
an empty one and another file of a student's.
"""
import shutil
from dataclasses import replace

import pytest

from tests.grader.gradeclass import LAB, SECONDS_PER_TEST, base_text, make_class
from grader import batch, plan as plans, report
from grader.journal import LastRun
from grader.row import Overall

CANCELLED = ("writes_cancelled_for_aborted", "writes_cancelled_too")
FULL_STOP = "ends_aborted_with_a_full_stop"
HANGS, UNPARSED, EMPTY, ANOTHER = ("hangs_in_a_busy_loop", "does_not_parse", "is_empty",
                                   "is_not_the_labs_file")
KINDS = [*CANCELLED, FULL_STOP, HANGS, UNPARSED, EMPTY, ANOTHER]
LABEL_TEST = "lesson_15_lab1::test_error_message_takes_a_label"


def grade(folder, out):
    """Grade `folder` into `out` as `python -m grader grade` does, and return (rows by
    student, the summary printed, the paths written)."""
    plan = plans.make(LAB.id, own_lab_only=True)
    subs, ignored = batch.find(folder)
    rows, isolation = batch.grade_all(plan, subs, out, jobs=2,
                                      settings=batch.Settings(seconds_per_test=SECONDS_PER_TEST))
    paths = report.write(out, plan, rows, isolation, ignored)
    return ({r.student: r for r in rows}, report.summary(plan, rows, isolation, paths, ignored),
            paths)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("week")
    rows, said, paths = grade(make_class(root / "submissions", kinds=KINDS), root / "out")
    return {"rows": rows, "summary": said, "feedback": paths["feedback"]}


def feedback(graded, student: str) -> str:
    return (graded["feedback"] / f"{student}.md").read_text(encoding="utf-8")


def test_an_empty_file_is_told_it_is_empty_in_one_line_not_a_failure_per_test(graded):
    row, words = graded["rows"][EMPTY], feedback(graded, EMPTY)
    assert row.verdict is Overall.EMPTY and row.score == 0
    assert "(the file is empty)" in words
    assert (f"harness.py is empty: each of the {len(row.tests)} tests stopped at the first name "
            "it needed. Put your code for lab 15.1 in it, then check again.") in words
    assert "Probably collateral" not in words and "What did not pass" not in words
    assert len(words) < 1000, "one line, not an entry per test"


def test_a_file_without_the_labs_names_is_told_so_in_one_line_naming_them(graded):
    row, words = graded["rows"][ANOTHER], feedback(graded, ANOTHER)
    assert row.verdict is Overall.LACKS_NAMES and row.score == 0
    assert "harness.py lacks the names the tests use (" in words
    assert "Is it your file for lab 15.1, with the starter's names?" in words
    assert "What did not pass" not in words


def test_no_student_is_given_advice_meant_for_whoever_wrote_a_tests_script(graded):
    for student in graded["rows"]:
        words = feedback(graded, student)
        assert "Script a reply" not in words and "lab.forever" not in words, student


def test_the_summary_counts_broken_files_apart_and_leaves_them_out_of_the_failed_counts(graded):
    said, rows = graded["summary"], graded["rows"]
    ran = [r for r in rows.values() if not r.verdict.broken]
    assert {r.student for r in rows.values() if r.verdict.broken} == {UNPARSED, EMPTY, ANOTHER}
    assert (f"Broken files, left out of the counts of failed tests: {UNPARSED} (does not "
            f"import), {EMPTY} (empty file), {ANOTHER} (lacks the lab's names).") in said
    label = said.split(f"[{LABEL_TEST}]")[0].splitlines()[-1]
    assert label.lstrip().startswith(f"{len(ran) - 1}/{len(ran)}  "), label  # all but alice


def test_the_summary_groups_the_students_who_failed_a_test_by_what_their_code_found(graded):
    said = graded["summary"]
    after = said.split(f"[{LABEL_TEST}]")[1].splitlines()[1:]
    lines = []
    for line in after:  # the test's groups, indented under it, up to the next test
        if not line.startswith(" " * 10):
            break
        lines.append(line.strip())
    assert lines[0].startswith(f"2  {', '.join(CANCELLED)}: found ")
    assert '"Operation cancelled"' in lines[0]
    assert any(line.startswith(f"1  {FULL_STOP}: found ") and '"Operation aborted."' in line
               for line in lines)
    assert f"1  {HANGS}: ran out of time" in lines


def test_the_summary_marks_a_file_that_ran_out_of_time(graded):
    said, row = graded["summary"], graded["rows"][HANGS]
    timed = sum(t.verdict == "timeout" for t in row.tests)
    assert timed and f"{HANGS}" in said
    assert any(line.split() and line.split()[0] == HANGS and
               line.endswith(f"partial, out of time in {timed} tests")
               for line in said.splitlines())
    assert f"Ran out of time in a test (a loop that never ends, or a call that never returns): " \
           f"{HANGS}." in said


def test_a_rerun_into_the_same_folder_says_whose_score_changed_since_the_last_run(tmp_path):
    folder = make_class(tmp_path / "submissions", kinds=[CANCELLED[0]])
    out = tmp_path / "out"
    rows, said, _ = grade(folder, out)
    assert "Since the last run" not in said  # no run before the first
    before = rows[CANCELLED[0]].score
    (folder / f"{CANCELLED[0]}.py").write_text(base_text("solution"), encoding="utf-8")
    shutil.rmtree(folder / "bob")  # gone from the class since the first run
    rows, said, _ = grade(folder, out)
    after = rows[CANCELLED[0]].score
    assert after > before
    assert (f"  Since the last run: {CANCELLED[0]} {before:g} -> {after:g} (partial -> full "
            "marks) (file changed); no longer submitted: bob.") in said.splitlines()
    _, said, _ = grade(folder, out)
    assert "  Since the last run: no score changed." in said.splitlines()


def test_the_last_run_kept_beside_the_journal_names_new_students(tmp_path):
    plan = plans.make(LAB.id, own_lab_only=True)
    first = batch.grader_failed(plan, batch.Submission("ann", None, "ann.py"), RuntimeError("x"))
    second = batch.grader_failed(plan, batch.Submission("ben", None, "ben.py"), RuntimeError("x"))
    kept = LastRun(tmp_path)
    assert kept.changes([first]) is None
    kept.keep([first])
    kept.keep([first, second])
    assert kept.changes([first, second]) == ["new: ben"]


def test_a_file_resubmitted_into_the_folder_is_said_to_have_changed_even_at_the_same_score(
        tmp_path):
    """Issue 40: a file graded again into one folder is graded under the seed its feedback
    told; the instructor is told which files are new since the last run, whatever they
    scored."""
    plan = plans.make(LAB.id, own_lab_only=True)
    row = lambda digest: replace(batch.grader_failed(  # noqa: E731
        plan, batch.Submission("ann", None, "ann.py"), RuntimeError("x")), digest=digest)
    kept = LastRun(tmp_path)
    kept.keep([row("a" * 64)])
    kept.keep([row("b" * 64)])
    said = kept.changes([row("b" * 64)])
    assert said == ["ann 0 (file changed)"], (
        f"the rerun said {said} of a file whose bytes changed at the same score; it must say "
        "'ann 0 (file changed)'")
    kept.keep([row("b" * 64)])
    assert kept.changes([row("b" * 64)]) == [], "the same file graded again changed nothing"
