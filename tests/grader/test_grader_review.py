"""Issue 40, part 2: a file that reaches into the checker is marked "needs review" with its
lines, as an aid: in grades.json, the terminal's summary and report.html, never in what a
student reads, and never in the score. No file the course itself holds is marked: every
solution, starter, catalogue design and file of the bench's class is scanned, and the reference
and the starter are graded with the audit hook in their child."""
import json
import subprocess
import sys

import pytest

from tests.grader.gradeclass import LAB, base_text
from lab.check import audit, manifest

from grader import batch, plan as plans, report, review

# The red team's oracle began this way: at import it takes the checker's loader of tests and
# the collector's view of every object, then builds code as it runs.
REACHES = '''
import gc as _gc
from lab.check import suite as _suite

_loader = _suite.load
_objects = len(_gc.get_objects())
exec("_built = 1")
'''

# The red team's forged channel: the channel's secret is in the child's memory, so a file can
# write reports as the checker. This one rewrites every test's end as a timeout whose reason is
# a spreadsheet formula, on the reference's own passing code.
FORGES = '''
import dataclasses as _dc
from lab.check import child as _child, protocol as _protocol

_write = _child._Channel.__call__


def _forged(self, report):
    if isinstance(report, _protocol.Observed):
        return  # no check made: the reason is the forged one alone
    if isinstance(report, _protocol.Ended):
        report = _dc.replace(report, error='=HYPERLINK("http://example.com","a timeout")',
                             stop="turns")
    _write(self, report)


_child._Channel.__call__ = _forged
'''


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("review")
    root.chmod(0o755)
    folder = root / "submissions"
    folder.mkdir()
    (folder / "alice.py").write_text(base_text("solution"), encoding="utf-8")
    (folder / "bob.py").write_text(base_text("starter"), encoding="utf-8")
    (folder / "eve.py").write_text(base_text("solution") + REACHES, encoding="utf-8")
    (folder / "mallory.py").write_text(base_text("solution") + FORGES, encoding="utf-8")
    plan = plans.make(LAB.id, own_lab_only=True)
    subs, ignored = batch.find(folder)
    rows, isolation = batch.grade_all(plan, subs, root / "out", jobs=2,
                                      settings=batch.Settings(seconds_per_test=1.0))
    paths = report.write(root / "out", plan, rows, isolation, ignored)
    from grader import page
    page.write(root / "out")
    return {"rows": {r.student: r for r in rows}, "out": root / "out", "plan": plan,
            "summary": report.summary(plan, rows, isolation, paths, ignored),
            "eve_line": len(base_text("solution").splitlines()) + 1}


def test_a_file_that_reaches_into_the_checker_is_marked_with_its_lines(graded):
    eve, first = graded["rows"]["eve"], graded["eve_line"]
    wanted = [f"line {first + 1}: imports gc", f"line {first + 2}: imports from lab.check",
              f"line {first + 6}: calls exec()", f"line {first + 5}: did gc.get_objects as it ran",
              f"line {first + 6}: did exec as it ran"]
    missing = [line for line in wanted if line not in eve.review]
    assert not missing, (f"eve's row needs review for {eve.review}; it lacks {missing}: the scan "
                         "reads the imports and exec, the audit hook sees gc and exec run")


def test_the_mark_counts_toward_nothing(graded):
    eve, alice = graded["rows"]["eve"], graded["rows"]["alice"]
    assert eve.score == alice.score == graded["plan"].max_score, (
        f"eve scored {eve.score} and alice {alice.score} of {graded['plan'].max_score}: the "
        "same working code with the mark must score what it scores without it")


def test_reports_forged_in_the_checkers_name_pass_nothing_are_marked_and_open_as_text(graded):
    """The design cannot keep the channel's secret from code in the child's own process; what
    a forged report can do is bounded: it never turns a test the file's code fails into a pass
    (the parent judges the observations against values the child never holds), its reason opens
    as text, and the file needs review for reaching into the checker."""
    mallory, alice = graded["rows"]["mallory"], graded["rows"]["alice"]
    assert mallory.score <= alice.score, "a forged report made a test pass"
    assert mallory.score == 0, (f"mallory's forged timeouts scored {mallory.score}: every test "
                                "it ended as a timeout must count as failed")
    assert any("imports from lab.check" in line for line in mallory.review), mallory.review
    import csv
    with (graded["out"] / "tests.csv").open(encoding="utf-8", newline="") as handle:
        reasons = [row[-1] for row in csv.reader(handle) if row[0] == "mallory"]
    assert reasons and all(r.startswith("'=HYPERLINK") for r in reasons), (
        f"mallory's forged reasons in tests.csv begin {sorted(set(r[:20] for r in reasons))}: "
        "each must open as text, with a ' before the =")


def test_the_reference_and_the_starter_are_never_marked_when_graded(graded):
    for student in ("alice", "bob"):
        assert graded["rows"][student].review == [], (
            f"{student}'s row needs review for {graded['rows'][student].review}: the course's "
            "own file reaches for nothing a harness never needs")


def test_the_mark_is_in_the_summary_grades_json_and_the_page_but_not_the_feedback(graded):
    out = graded["out"]
    assert f"line {graded['eve_line'] + 2}: imports from lab.check" in graded["summary"] and \
        "Needs review (2)" in graded["summary"], graded["summary"]
    data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    eve = next(r for r in data["submissions"] if r["student"] == "eve")
    assert eve["review"], "grades.json holds eve's row without the lines that need review"
    page = (out / "report.html").read_text(encoding="utf-8")
    assert 'id="review"' in page and "imports from lab.check" in page, (
        "report.html has no section naming the lines that need review")
    words = (out / "feedback" / "eve.md").read_text(encoding="utf-8")
    assert "review" not in words.lower(), "a student's feedback must not say how a file is read"
    row = graded["rows"]["eve"]
    assert audit.MARK not in row.output, "the audit hook's notes stayed in what eve printed"


def test_no_file_the_course_holds_is_marked_by_the_scan(tmp_path):
    from bench import grading
    from tools import wrong_designs
    files = {str(p.relative_to(manifest.KIT)): p.read_text(encoding="utf-8")
             for p in [*(manifest.KIT / "solutions").rglob("harness.py"),
                       *(manifest.KIT / "starters").rglob("harness*.py")]}
    files.update({f"catalogue: {d.name}": wrong_designs.harness(d)
                  for d in wrong_designs.catalogue()})
    for lab in (LAB, manifest.lab("5.1")):
        (tmp_path / lab.id).mkdir()
        grading.generate(tmp_path / lab.id, lab, grading.CLASS)
    files.update({f"bench {p.parent.parent.name}: {p.parent.name}": p.read_text(encoding="utf-8")
                  for p in tmp_path.rglob("harness.py")})
    assert len(files) > 400, f"only {len(files)} files were scanned"
    marked = {name: found for name, text in files.items() if (found := audit.scan(text))}
    assert not marked, (f"{len(marked)} of the course's own files would need review, the first "
                        f"{next(iter(marked))}: {next(iter(marked.values()))[:3]}")


def test_no_reference_does_anything_the_hook_notes_while_it_imports(tmp_path):
    """Every lab's reference imported in a child of its own with the hook, as the grader's
    child imports a submission: the hook notes nothing of the course's own code."""
    for lab in manifest.labs(built_only=True):
        code = ("from lab.check import audit, importer\n"
                f"audit.install({str(lab.solution)!r})\n"
                f"importer.import_harness({str(lab.solution)!r})\n")
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=60, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        noted, _ = audit.found_in(done.stderr)
        assert noted == [], f"importing lab {lab.id}'s reference, the hook noted {noted}"


def test_a_note_in_the_middle_of_a_printed_line_is_found_and_taken_out():
    printed = f"half a li{audit.MARK}12\x00exec\nne\n"
    noted, kept = audit.found_in(printed)
    assert noted == [audit.Finding(12, "did exec as it ran")] and kept == "half a line\n", (
        f"from {printed!r} the notes read {noted} and left {kept!r}")
    lines, _ = review.of("import ctypes\n", printed)
    assert lines == ["line 1: imports ctypes", "line 12: did exec as it ran"], lines


def test_the_scan_finds_a_namespace_read_by_a_name_built_as_it_runs_and_sys_under_os():
    """getattr with a built name is marked, so its twin by subscript is too: vars(m)[...] and
    m.__dict__[...]; and sys reached as os.sys, where no `import sys` names it (reader r184's
    cheat passed the local check with no note this way)."""
    text = ('import os\n'
            'modules = vars(os.sys)["mod" + "ules"]\n'
            'checker = modules["lab" + ".check" + ".suite"]\n'
            'checker.__dict__["lo" + "ad"] = print\n')
    found = [str(f) for f in audit.scan(text)]
    wanted = ["line 2: reads a namespace with a name built as it runs",
              "line 2: uses os.sys",
              "line 4: reads a namespace with a name built as it runs"]
    assert found == wanted, f"the scan found {found}; wanted {wanted}"
