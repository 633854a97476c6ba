"""The desk says what is true (issue 42, part 3): where a replayed cell's output comes from, which
starter a passing check leads to next, which hints were seen, and that starting a lab again or
running a notebook again leaves the work folder's files as they are. (Starting a lab whose lab
before has not passed is tests/desk/test_course.py's; a cell that needs a lab not started,
tests/desk/test_guard.py's; Run All of every lesson, tests/authoring/test_run_all.py's.)"""
from __future__ import annotations

import os
import sys

import pytest

from lab.check import advice, manifest
from lab.desk import course, recorded

KIT_FILES = ("tests.py", "changes.diff", ".lab", "lab/__init__.py", "lab/lab_check.py")


# --- a replayed cell names the student's file only when there is one ----------------------------

ENTRY = {"needs": ["4.1"], "code": 'harness = course.reference("4.1")\nprint(harness.X)\n',
         "printed": "what the reference printed\n"}


@pytest.fixture
def replaying(work, monkeypatch):
    """A release's recorded cell "c1" of lesson 05 that needs lab 4.1's reference."""
    monkeypatch.setattr(recorded, "entries", lambda lesson: {"c1": ENTRY})
    return work


def replayed(capsys) -> str:
    recorded.replay("05-exits", "c1", {"course": course})
    return capsys.readouterr().out


def test_a_replayed_cell_says_the_student_has_no_file_of_the_lab_a_later_check_covers(
        replaying, capsys):
    """Begun at 5.1 and passed there: 4.1's tests pass in the 5.1 file, but there is no 4.1
    file for the cell to run on, and the line says so rather than that it printed something
    else."""
    course.start("5.1")
    course.record_check("5.1", 30, 0)
    capsys.readouterr()
    assert replayed(capsys) == (
        "Recorded from the course's reference solution of lab 4.1, which this release does not "
        "include (you have no lab 4.1 file):\nwhat the reference printed\n")


def test_a_replayed_cell_says_the_students_file_has_not_passed_when_a_later_check_covers_it(
        replaying, capsys):
    course.start("4.1")
    course.start("5.1")
    course.record_check("4.1", 3, 4)
    course.record_check("5.1", 30, 0)
    capsys.readouterr()
    said = replayed(capsys)
    assert said.splitlines()[0].endswith("(your lab 4.1 file has not passed its check):"), said
    assert "printed something else" not in said


def test_a_replayed_cell_of_a_lab_nothing_passed_shows_the_record_as_the_release_does(
        replaying, capsys):
    assert replayed(capsys) == recorded.text(ENTRY)


# --- the closing line of a pass names --mine, and a start names both other starters -------------

def passing(lab_id: str) -> list:
    from tests.check.bad_submissions import outcome
    return [outcome(lab_id, "pass")]


def test_a_pass_of_the_students_own_lab_file_names_the_start_that_carries_it(monkeypatch):
    monkeypatch.setattr(manifest, "IN_BROWSER", False)
    assert advice.next_step("6.1", passing("6.1"), carried=True) == (
        "Next: lab 6.1 passes; start lab 7.1 from this file with `course start 7.1 --mine` (its "
        "changes merged into your code), or from the kit's starter with `course start 7.1`.")
    assert "--mine" not in advice.next_step("6.1", passing("6.1"))  # a file elsewhere
    monkeypatch.setattr(manifest, "IN_BROWSER", True)  # the page's Python has no merge
    assert "mine" not in advice.next_step("6.1", passing("6.1"), carried=True)


def test_the_checker_run_in_a_lab_folder_names_mine_and_on_another_file_does_not(work, tmp_path):
    import subprocess
    lab = manifest.lab("2.1")
    course.start(lab.id)
    place = work / lab.folder
    (place / "harness.py").write_bytes(lab.solution.read_bytes())
    env = dict(os.environ, PYTHONPATH=str(manifest.KIT))
    command = [sys.executable, "lab/lab_check.py", "--harness", "harness.py", "--lesson", "2",
               "tests.py"]
    done = subprocess.run(command, cwd=place, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith(
        "Next: lab 2.1 passes; start lab 3.1 from this file with `course start 3.1 --mine`")
    elsewhere = tmp_path / "elsewhere.py"
    elsewhere.write_bytes(lab.solution.read_bytes())
    command[3] = str(elsewhere)
    done = subprocess.run(command, cwd=place, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.splitlines()[-1] == \
        "Next: lab 2.1 passes; start lab 3.1 with `course start 3.1`.", done.stdout


def test_a_start_names_the_guided_starter_and_mine_once_the_lab_before_passed(work, capsys,
                                                                              monkeypatch):
    monkeypatch.setattr(manifest, "IN_BROWSER", False)
    course.start("6.1")
    said = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert said == ("Other starters, while your file is untouched: course start 6.1 --guided "
                    "(its gaps spell out their steps)."), said
    course.record_check("6.1", 20, 0)
    course.start("7.1")
    said = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert said == ("Other starters, while your file is untouched: course start 7.1 --guided "
                    "(its gaps spell out their steps); course start 7.1 --mine (your own lab "
                    "6.1 file, with this lab's changes merged in)."), said


def test_guided_or_mine_replaces_an_untouched_starter_and_never_a_file_the_student_changed(
        work, capsys):
    lab = manifest.lab("7.1")
    harness = work / lab.folder / "harness.py"
    course.start(lab.id)
    course.start(lab.id, guided=True)
    assert harness.read_bytes() == lab.guided.read_bytes()
    assert "(guided: each gap spells out its steps)" in capsys.readouterr().out
    harness.write_text(harness.read_text() + "# mine\n")
    course.start(lab.id)
    course.start(lab.id, guided=False, mine=False)
    assert harness.read_text().endswith("# mine\n")
    assert "is kept as it is" in capsys.readouterr().out


# --- hints remember across the cell and the terminal --------------------------------------------

def test_the_hint_cell_at_level_0_says_which_hints_the_terminal_showed(work, capsys):
    for _ in range(3):
        assert course.main(["hint", "15.1"]) == 0
    capsys.readouterr()
    course.hint("15.1", 0)
    said = capsys.readouterr().out
    assert "No hint shown yet" not in said
    assert said.startswith("You have seen hints 1 to 3 of 3 for lesson 15, lab 1 (in a cell or "
                           "with `course hint 15.1`)"), said
    assert not any(text.strip() in said for text in manifest.lab("15.1").hints)


# --- starting a started lab again rewrites nothing ----------------------------------------------

def stamps(place) -> dict:
    return {name: ((place / name).read_bytes(), (place / name).stat().st_mtime_ns)
            for name in KIT_FILES if (place / name).exists()}


def test_starting_or_checking_a_started_lab_again_rewrites_none_of_its_files(work, capsys,
                                                                             monkeypatch):
    """A notebook run again passes its start cell again; what is in the lab folder stays as
    it is, even a tests.py the student changed (the checker runs the kit's and says so)."""
    from lab.desk import checking
    course.start("15.1")
    place = work / manifest.lab("15.1").folder
    (place / "tests.py").write_text("# changed by hand\n")
    for name in KIT_FILES:
        os.utime(place / name, ns=(10**18, 10**18))
    before = stamps(place)
    assert len(before) == len(KIT_FILES)
    course.start("15.1")
    monkeypatch.setattr(checking.subprocess, "run",
                        lambda command, cwd, env: type("Done", (), {"returncode": 1})())
    course.check("15.1")
    assert stamps(place) == before
    (place / "tests.py").unlink()
    course.start("15.1")  # a missing one is made again
    assert (place / "tests.py").read_bytes() == manifest.lab("15.1").tests.read_bytes()


def test_reset_puts_the_kits_files_back(work, capsys):
    course.start("15.1")
    place = work / manifest.lab("15.1").folder
    (place / "tests.py").write_text("# changed by hand\n")
    course.reset("15.1", confirm=False)
    assert (place / "tests.py").read_bytes() == manifest.lab("15.1").tests.read_bytes()


def test_a_cell_for_a_lab_a_later_start_passed_over_says_to_start_it_with_force(work, capsys):
    """A student further on (16.2 started) runs lesson 3: its start cell starts nothing, and
    the cell that runs their 3.1 file says how to start it all the same."""
    course.start("16.2")
    course.start("3.1")
    with pytest.raises(course.NotStarted) as said:  # outside a notebook, raised as it is
        course.yours("3.1")
    assert str(said.value) == (
        'This cell runs your lab 3.1 file, and you have not started lesson 3, lab 1: run '
        'course.start("3.1", force=True) first (you have started lab 16.2, whose starter held '
        'its code), then run this cell again.')
