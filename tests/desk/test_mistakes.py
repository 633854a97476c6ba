"""What a student got wrong is one line and exit code 2 from `course`; the kit's own bug keeps
its traceback (lab/desk/errors.py, lab/desk/cli.py)."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from lab.check import manifest
from lab.check.errors import UserError
from lab.desk import answers, course, hints
from lab.desk.chat import ChatError

LAB = "15.1"
PACKAGE = Path(course.PACKAGE)


@pytest.fixture
def fresh(work, monkeypatch):
    monkeypatch.delenv(course.SOLVED_ENV, raising=False)
    yield work
    sys.modules.pop("harness", None)


def one_line_and_no_traceback(err: str) -> str:
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("command", [["start", "7.7"], ["check", "7.7"], ["hint", "7.7"],
                                     ["reset", "7.7", "--yes"]])
def test_an_unknown_lab_is_one_line_on_stderr_and_exit_2(fresh, capsys, command):
    assert course.main(command) == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert "there is no lab 7.7" in one_line_and_no_traceback(said.err)


def test_checking_a_lab_not_started_says_how_to_start_it_in_one_line(fresh, capsys):
    assert course.main(["check", LAB]) == 2
    err = one_line_and_no_traceback(capsys.readouterr().err)
    assert f"course start {LAB}" in err and "not started" in err


def test_a_progress_file_broken_by_hand_is_one_line_that_says_how_to_recover(fresh, capsys):
    fresh.mkdir()
    (fresh / "progress.json").write_text("{not json", encoding="utf-8")
    assert course.main(["progress"]) == 2
    assert "not valid JSON" in one_line_and_no_traceback(capsys.readouterr().err)


@pytest.mark.parametrize("bug", [ValueError("a bug"), KeyError("a bug")])
def test_a_bug_in_the_desk_keeps_its_traceback_instead_of_becoming_a_message(fresh, monkeypatch,
                                                                             bug):
    def broken(*args, **kwargs):
        raise bug
    monkeypatch.setattr(hints, "load", broken)
    with pytest.raises(type(bug), match="a bug"):
        course.main(["hint", LAB])


def test_a_lookup_that_misses_inside_the_kit_is_not_taken_for_an_unknown_lab(fresh, monkeypatch):
    """manifest.lab() says a lab is unknown with UnknownLab; a bare KeyError is a bug."""
    def broken(lab_id):
        raise KeyError(lab_id)
    monkeypatch.setattr(manifest, "lab", broken)
    with pytest.raises(KeyError):
        course.main(["start", LAB])
    monkeypatch.setattr(manifest, "lesson", lambda number: {}["title"])
    with pytest.raises(KeyError):
        answers.respond("04.boundary", "mine")


def test_an_answer_to_a_lesson_this_copy_lacks_is_kept_under_the_lessons_number(fresh, capsys):
    course.respond("99.later", "mine")
    assert "Saved your answer to lesson 99." in capsys.readouterr().out


def test_every_mistake_the_desk_reports_is_a_user_error():
    for kind in (course.CourseError, course.NotStarted, course.NoReference, ChatError):
        assert issubclass(kind, UserError), kind


def imports(path: Path) -> set[str]:
    """Every module `path` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_the_desks_face_is_imported_by_nothing_in_lab_but_its_notebook_alias():
    """lab/desk/course.py is for notebooks and the `course` command; the desk's modules import
    the module that owns a name, so the face can never close an import circle."""
    for path in PACKAGE.rglob("*.py"):
        if path != PACKAGE / "course.py":
            assert "lab.desk.course" not in imports(path), path


def test_the_desk_never_imports_the_students_checker_script_nor_the_engine_the_desk():
    for path in (PACKAGE / "desk").glob("*.py"):
        assert "lab.lab_check" not in imports(path), path
    for path in (PACKAGE / "check").rglob("*.py"):
        assert not {name for name in imports(path) if name.startswith("lab.desk")}, path
