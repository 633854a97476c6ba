"""Run All is safe: a lesson run top to bottom, with every lab started and none filled, or by a
student who has started nothing, finishes, no cell ends in an error (JupyterLab's Run All would
stop there), every cell prints its lesson output or a clear notice, and no lab folder's kit file
is written over (issue 10, item 2; issue 26, item 1; issue 42, items 5 and 6).

Each lesson runs through bench/run_all.py's `run` (a fresh work folder, every lab started as
shipped or none, nbclient with allow_errors, so a cell's error is recorded and the run goes
on); about a second and a half a run. The time and memory it takes are bench/run_all.py's
figures; here only the kernel's peak memory is held under 1 GB where Linux shows it, since
lesson 5's runaway cell once grew to 24 GB.
"""
from __future__ import annotations

import re

import pytest

from bench import run_all
from lab.check import manifest
from lab.desk import guard
from tools import notebooks

pytest.importorskip("nbclient")

WRITTEN = [lesson.number for lesson in notebooks.written()]

# The lines the guard says just before an error's traceback (lab/desk/guard.py, explain).
EXPLAINED = ("Stopped: the run ", "The run crashed inside your harness.py ",
             "This cell's own code failed on what your harness.py gave it back",
             "Your harness.py for lab ")
NOTICE = re.compile(r"^lab (\d+\.\d+) has not passed its check yet: ")
# What a cell that needs a lab not started prints, alone (lab/desk/cells.py, yours).
NOT_STARTED = re.compile(r"^This cell runs your lab (\d+\.\d+) file, and you have not started "
                         r"lesson \d+, lab \d+: run course\.start\(\"\1\"(, force=True)?\) "
                         r"first(, \(you have started lab [\d.]+, whose starter held its code\))?"
                         r", then run this cell again\.\n$")


def streams_before_error(cell) -> tuple[str, str | None]:
    """What the cell printed before its error, and the error's name (None if it had none)."""
    text = []
    for output in cell.get("outputs", []):
        if output.output_type == "error":
            return "".join(text), output.ename
        if output.output_type == "stream":
            text.append(output.text)
    return "".join(text), None


@pytest.fixture(scope="module", params=[(n, started) for n in WRITTEN
                                        for started in (True, False)],
                ids=lambda p: f"{p[0]:02d}-{'started' if p[1] else 'nothing-started'}")
def ran(request):
    number, started = request.param
    return run_all.run(manifest.lesson(number), started=started)


def test_the_lesson_runs_to_its_end_within_a_gigabyte(ran):
    assert ran.error is None, f"lesson {ran.lesson.number}: {ran.error}"
    assert ran.notebook.cells[-1].get("outputs"), "the last cell ran"
    if ran.peak_mb is not None:
        assert ran.peak_mb < run_all.AIM_MB, f"lesson {ran.lesson.number}: {ran.peak_mb} MB"


def test_running_the_notebook_writes_over_no_lab_folders_kit_file(ran):
    """tests.py, changes.diff and .lab of a lab started before the run keep their bytes and
    their time: a start cell passed again makes only what is missing."""
    assert not ran.rewritten, f"lesson {ran.lesson.number} wrote over " + ", ".join(ran.rewritten)


def test_no_cell_ends_in_an_error_so_run_all_reaches_the_end(ran):
    """Only a cell the lesson tags raises-exception (an error it shows on purpose) may."""
    stopped = [f"{cell.id}: {error}" for cell in ran.code
               for _, error in [streams_before_error(cell)]
               if error is not None and "raises-exception" not in cell.metadata.get("tags", [])]
    assert not stopped, f"lesson {ran.lesson.number}: Run All would stop at " + ", ".join(stopped)


def test_a_cell_that_met_an_error_says_why_in_the_courses_terms_then_where(ran):
    """The notice, the guard's line, then the traceback cut to the student's file (or to the
    cell, when the cell's own code failed on what the file gave back), as printed output."""
    for cell in ran.code:
        printed = notebooks.printed(cell)
        if "\nTraceback, " not in printed:
            continue
        before, _, after = printed.partition("\nTraceback, ")
        lines = before.splitlines()
        where = f"lesson {ran.lesson.number}, {cell.id}: {printed[-400:]!r}"
        assert lines and NOTICE.match(lines[0]) and lines[-1].startswith(EXPLAINED), where
        assert after.startswith(("from your harness.py on:\n", "in this cell:\n")), where
        assert "site-packages" not in after and "/IPython/" not in after, where


def test_every_other_cell_prints_its_lesson_output_or_a_notice(ran):
    """A cell that ran without an error printed what the lesson pins, or opens on the notice
    that the student's file is unfinished, or is a cell that starts a lab (already started
    here) or runs the checker on an unfinished lab."""
    pins = notebooks.pins(ran.lesson)
    for cell in ran.code:
        printed, error = streams_before_error(cell)
        if error is not None:
            continue
        text = notebooks.printed(cell).replace(str(ran.work), "<work>")
        if text == pins.get(cell.id) or NOTICE.match(text) or NOT_STARTED.match(text):
            continue
        if "course.start(" in cell.source:
            assert text.startswith(("You already started", "Lab ", "Started ")), \
                (cell.id, text[:200])
            continue
        pytest.fail(f"lesson {ran.lesson.number}, {cell.id} printed neither its pin nor a "
                    f"notice:\n{text[:600]}")


def test_the_notice_names_the_lab_the_cell_runs(ran):
    for cell in ran.code:
        first = notebooks.printed(cell).split("\n", 1)[0]
        found = NOTICE.match(first)
        if found:
            assert f'course.yours("{found.group(1)}")' in cell.source, cell.id
            assert first == guard.notice(found.group(1))
