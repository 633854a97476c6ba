"""A desk command as a student types it where they are (lab/check/spoken.py): the terminal's form
on a computer, a cell's call in the browser's page, which has no terminal; and the checker's
closing line, which names the next command, in each."""
import pytest

from lab.check import advice, manifest, spoken

from tests.check.bad_submissions import outcome


@pytest.fixture
def computer(monkeypatch):
    monkeypatch.setattr(manifest, "IN_BROWSER", False)


@pytest.fixture
def page(monkeypatch):
    monkeypatch.setattr(manifest, "IN_BROWSER", True)


def test_on_a_computer_a_command_is_the_terminals(computer):
    assert spoken.command("hint", "15.1") == "`course hint 15.1`"
    assert spoken.command("start", "15.2", quoted=False, force=True) == \
        "course start 15.2 --force"
    assert spoken.command("progress") == "`course progress`"


def test_in_the_page_a_command_is_a_cells_call(page):
    assert spoken.command("hint", "15.1") == '`course.hint("15.1")`'
    assert spoken.command("start", "15.2", quoted=False, force=True) == \
        'course.start("15.2", force=True)'
    assert spoken.command("progress") == "`course.progress()`"


def test_a_flag_that_is_off_is_not_said(computer):
    assert spoken.in_terminal("start", "5.1", force=False, guided=True) == \
        "course start 5.1 --guided"
    assert spoken.in_cell("start", "5.1", force=False, guided=True) == \
        'course.start("5.1", guided=True)'


def test_anywhere_names_both_forms_on_a_computer_and_the_cells_alone_in_the_page(monkeypatch):
    monkeypatch.setattr(manifest, "IN_BROWSER", False)
    assert spoken.anywhere("start", "12.2", force=True) == (
        'course.start("12.2", force=True) in a cell, or course start 12.2 --force in a terminal')
    monkeypatch.setattr(manifest, "IN_BROWSER", True)
    assert spoken.anywhere("start", "12.2", force=True) == 'course.start("12.2", force=True)'


def test_the_closing_line_names_the_hint_as_typed_where_the_check_ran(monkeypatch):
    failing = [outcome("15.1")]
    monkeypatch.setattr(manifest, "IN_BROWSER", False)
    on_a_computer = advice.next_step("15.1", failing)
    assert on_a_computer.endswith("Then check again; `course hint 15.1` gives a hint.")
    monkeypatch.setattr(manifest, "IN_BROWSER", True)
    in_the_page = advice.next_step("15.1", failing)
    assert in_the_page.endswith('Then check again; `course.hint("15.1")` gives a hint.')
    assert in_the_page.replace('`course.hint("15.1")`', "`course hint 15.1`") == on_a_computer


def test_the_closing_line_of_a_pass_names_the_next_start_as_typed_where_the_check_ran(
        monkeypatch):
    order = manifest.labs(built_only=True)
    lab, after = order[-2].id, order[-1].id
    monkeypatch.setattr(manifest, "IN_BROWSER", False)
    assert advice.next_step(lab, [outcome(lab, "pass")]) == \
        f"Next: lab {lab} passes; start lab {after} with `course start {after}`."
    monkeypatch.setattr(manifest, "IN_BROWSER", True)
    assert advice.next_step(lab, [outcome(lab, "pass")]) == \
        f'Next: lab {lab} passes; start lab {after} with `course.start("{after}")`.'
