"""The desk names each command as a student types it where they are (lab/check/spoken.py): on a
computer as before, in the browser's page as a cell's call and never a terminal's; and
course.check shows nothing under its report in a notebook, while the `course check` command
still exits with the checker's code."""
from __future__ import annotations

import re

import pytest

from lab.check import manifest
from lab.desk import checking, course

LAB = manifest.lab("15.1")
TERMINAL = re.compile(r"course (start|check|hint|reset|progress)\b|lab_check\.py")


@pytest.fixture
def page(monkeypatch):
    monkeypatch.setattr(manifest, "IN_BROWSER", True)


def test_checking_a_lab_not_started_says_to_start_it_as_typed_on_a_computer(work, monkeypatch):
    monkeypatch.setattr(manifest, "IN_BROWSER", False)
    with pytest.raises(course.NotStarted) as said:
        checking.run(LAB.id, practice=False)
    assert str(said.value) == f"You have not started {LAB.name} yet: run `course start 15.1` first."


def test_checking_a_lab_not_started_says_to_start_it_in_a_cell_in_the_page(work, page):
    with pytest.raises(course.NotStarted) as said:
        course.check(LAB.id)
    assert str(said.value) == \
        f'You have not started {LAB.name} yet: run `course.start("15.1")` first.'


def test_a_refused_start_in_the_page_names_only_cells_calls(work, page, capsys):
    course.start("12.2")
    capsys.readouterr()
    course.start("12.1")
    said = capsys.readouterr().out
    assert said.startswith("Lab 12.1 is not started: you have started lab 12.2 already")
    assert said.rstrip().endswith('To start lab 12.1 anyway, to work through it: '
                                  'course.start("12.1", force=True).')
    assert not TERMINAL.search(said), said


def test_a_start_in_the_page_offers_the_guided_starter_as_a_cell_and_never_mine(work, page,
                                                                                 capsys):
    """The page's Python has no merge, so --mine is not offered there."""
    course.record_check("15.1", 1, 0)
    course.start("15.1")
    capsys.readouterr()
    course.start("15.2")
    said = capsys.readouterr().out
    assert said.rstrip().splitlines()[-1] == (
        'Other starters, while your file is untouched: course.start("15.2", guided=True) (its '
        'gaps spell out their steps).'), said
    assert not TERMINAL.search(said), said


def test_a_start_in_the_page_names_no_terminal_command(work, page, capsys):
    course.start(LAB.id, force=True)
    said = capsys.readouterr().out
    assert 'course.check("15.1")' in said and not TERMINAL.search(said), said


@pytest.mark.parametrize("code", [0, 1, 2])
def test_course_check_returns_nothing_and_the_command_returns_the_checkers_code(
        work, monkeypatch, code):
    monkeypatch.setattr(manifest, "IN_BROWSER", False)
    monkeypatch.setattr(checking.subprocess, "run",
                        lambda command, cwd, env: type("Done", (), {"returncode": code})())
    course.start(LAB.id, force=True)
    assert course.check(LAB.id) is None, "a notebook would show the code under the report"
    assert checking.run(LAB.id) == code
    assert course.main(["check", LAB.id]) == code
