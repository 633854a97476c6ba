"""Ctrl-C during `python -m grader grade`: one line saying how many graded submissions are kept
and that the same command grades the rest, exit code 130, no traceback, and the journal's rows
kept for that re-run. The interrupt is a real SIGINT sent to the grader's process group, as a
terminal's Ctrl-C is, once a submission is reported graded."""
import os
import signal
import subprocess
import sys

from lab.check import manifest

from grader.journal import JOURNAL, Journal

LAB = manifest.lab("3.1")  # a short lab: each submission grades in about a second


def test_ctrl_c_during_grade_ends_with_one_line_and_exit_130_keeping_the_finished_rows(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("ada", "bea", "cal", "dot", "eli", "fin"):
        (folder / f"{name}.py").write_text(LAB.solution.read_text(encoding="utf-8"),
                                           encoding="utf-8")
    out = tmp_path / "out"
    grading = subprocess.Popen(
        [sys.executable, "-m", "grader", "grade", "--lab", LAB.id, str(folder), "--out",
         str(out)], cwd=manifest.KIT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True)
    try:
        first = grading.stderr.readline()  # the progress line of the first graded submission
        while first and "ada:" not in first:
            first = grading.stderr.readline()
        assert "ada:" in first, "the grader ended before it reported a submission graded"
        os.killpg(grading.pid, signal.SIGINT)
        rest, said = grading.communicate(timeout=120)  # standard output, the rest of stderr
    finally:
        if grading.poll() is None:
            os.killpg(grading.pid, signal.SIGKILL)
            grading.wait()
    out = out / f"lab-{LAB.id}"  # the lab's own folder in the class folder
    kept = Journal(out / JOURNAL).load()
    assert grading.returncode == 130
    assert "Traceback" not in said and "KeyboardInterrupt" not in said
    graded = f"{len(kept)} graded submission{'s' if len(kept) != 1 else ''}"
    assert said.splitlines()[-1] == (f"grader: stopped (Ctrl-C): {graded} kept in {out}; the "
                                     "same command grades the rest.")
    assert "ada" in kept and len(kept) < 6
    assert rest == ""  # no summary: the class was not graded
