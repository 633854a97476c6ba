"""The student's desk through its face, lab/desk/course.py, on a work folder of its own
(HARNESS_COURSE_WORK)."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest

from lab.check import manifest
from lab.desk import checking, course, launcher

LAB = "15.1"


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty work folder named `work` with nothing checked yet, and no solved mode."""
    folder = tmp_path / "work"
    monkeypatch.setenv(course.WORK_ENV, str(folder))
    monkeypatch.delenv(course.SOLVED_ENV, raising=False)
    yield folder
    sys.modules.pop("harness", None)


@pytest.fixture
def work(fresh, tmp_path, monkeypatch):
    """A work folder named `work` where lab 14.1 has passed its check (so 15.1 starts quietly), a
    kit whose 15.1 has tests, and no solved mode."""
    folder = fresh
    course.record_check("14.1", 1, 0)
    lab = manifest.lab(LAB)
    if not lab.tests.is_file():  # the kit's tests are written elsewhere; a stand-in will do
        fake = tmp_path / "kit-tests" / lab.tests.name
        fake.parent.mkdir()
        fake.write_text(f'LAB = "{LAB}"\n')
        kit_tests = manifest.Lab.tests
        monkeypatch.setattr(manifest.Lab, "tests", property(
            lambda self: fake if self.id == LAB else kit_tests.fget(self)))
    return folder


def place(work):
    return work / manifest.lab(LAB).folder


def test_start_copies_the_starter_and_tests_and_makes_the_lab_folder(work, capsys):
    course.start(LAB)
    lab = manifest.lab(LAB)
    assert (place(work) / "harness.py").read_text() == lab.starter.read_text()
    assert (place(work) / "tests.py").read_text() == lab.tests.read_text()
    assert sorted(p.name for p in (place(work) / "lab").iterdir()) == ["__init__.py",
                                                                       "lab_check.py"]
    assert (place(work) / ".lab").read_text().strip() == LAB
    said = capsys.readouterr().out
    assert "python lab/lab_check.py --harness harness.py --lesson 15 tests.py" in said


def printed_paths(said):
    """The file and folder paths `course start` printed: your file, its tests, and the cd."""
    lines = said.splitlines()
    mine = next(line for line in lines if "your file:" in line).split()[2]
    tests = next(line for line in lines if "its tests:" in line).split()[2]
    cd = next(line for line in lines if line.strip().startswith("cd "))
    return mine, tests, cd.strip()[3:].strip('"')


def test_start_prints_paths_relative_to_the_current_directory_when_they_are_inside_it(
        work, capsys, monkeypatch):
    monkeypatch.chdir(work.parent)  # as from the kit's folder, where the work folder is
    course.start(LAB)
    mine, tests, cd = printed_paths(capsys.readouterr().out)
    assert (mine, tests, cd) == ("work/15-stop/lab1/harness.py", "work/15-stop/lab1/tests.py",
                                 "work/15-stop/lab1")


@pytest.mark.parametrize("where", ["lesson", "lab"])
def test_start_prints_absolute_paths_from_anywhere_else_and_each_leads_to_its_file(
        work, capsys, monkeypatch, tmp_path, where):
    """Issue 10: from a notebook (whose folder is its lesson's) or from another lab's folder,
    a path relative to the work folder's parent led nowhere; every path printed must work from
    where the student stands."""
    elsewhere = tmp_path / "lessons" / "15-stop" if where == "lesson" else work / "14-door" / "lab1"
    elsewhere.mkdir(parents=True, exist_ok=True)
    monkeypatch.chdir(elsewhere)
    course.start(LAB)
    mine, tests, cd = printed_paths(capsys.readouterr().out)
    assert all(os.path.isabs(p) for p in (mine, tests, cd))
    assert (elsewhere / mine).samefile(place(work) / "harness.py")
    assert (elsewhere / tests).samefile(place(work) / "tests.py")
    assert (elsewhere / cd).samefile(place(work))


def test_a_printed_cd_into_a_folder_with_a_space_is_quoted(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(course.WORK_ENV, str(tmp_path / "my course" / "work"))
    monkeypatch.delenv(course.SOLVED_ENV, raising=False)
    course.start("2.1")
    cd = next(line for line in capsys.readouterr().out.splitlines() if "  cd " in line)
    assert cd == f'  cd "{tmp_path / "my course" / "work" / manifest.lab("2.1").folder}"'


def test_start_never_overwrites_a_harness_the_student_has(work, capsys):
    course.start(LAB)
    (place(work) / "harness.py").write_text("# mine\n")
    course.start(LAB)
    assert (place(work) / "harness.py").read_text() == "# mine\n"
    assert "kept" in capsys.readouterr().out


WHO_IS_LAB = """
import lab
print(lab.__spec__.origin)
print(lab.__path__[0])
print(lab.Workspace.__module__)
"""


def test_the_lab_folder_holds_no_link_and_import_lab_there_is_the_kits_package(work):
    """Windows allows links only in developer mode, so a lab folder holds none: its `lab` folder
    stands for the kit's package, for `import lab` (a student running harness.py there) as for
    `python lab/lab_check.py` (tests/check/test_checker.py runs that)."""
    course.start(LAB)
    assert not any(p.is_symlink() for p in place(work).rglob("*"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", WHO_IS_LAB], cwd=place(work), env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    origin, path, world = done.stdout.splitlines()
    assert os.path.samefile(origin, place(work) / "lab" / "__init__.py")  # not the install's
    assert os.path.samefile(path, course.PACKAGE) and world == "lab.world.workspace"


def test_a_link_from_an_earlier_course_is_replaced_and_what_it_pointed_to_is_untouched(
        work, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.py").write_text("# kept\n")
    place(work).mkdir(parents=True)
    try:
        (place(work) / "lab").symlink_to(elsewhere, target_is_directory=True)
    except OSError:
        pytest.skip("this system makes no links")
    course.start(LAB)
    assert not (place(work) / "lab").is_symlink()
    assert (place(work) / "lab" / "lab_check.py").is_file()
    assert [p.name for p in elsewhere.iterdir()] == ["keep.py"]


def test_a_lab_folder_of_the_students_own_is_not_written_into(work):
    (place(work) / "lab").mkdir(parents=True)
    (place(work) / "lab" / "notes.txt").write_text("mine\n")
    with pytest.raises(course.CourseError, match="not the folder the course makes"):
        course.start(LAB)
    assert [p.name for p in (place(work) / "lab").iterdir()] == ["notes.txt"]


def not_built(monkeypatch, lab_id="14.1"):
    """Have the kit treat `lab_id` as reference-only, a lab that comes later: every lab of the
    kit is built now, so the tests of that state make one."""
    real, lessons = manifest.lab, manifest.lessons()

    def hide(lab):
        return dataclasses.replace(lab, reference_only=True) if lab.id == lab_id else lab
    monkeypatch.setattr(manifest, "lab", lambda wanted: hide(real(wanted)))
    monkeypatch.setattr(manifest, "lessons", lambda: tuple(
        dataclasses.replace(lesson, labs=tuple(hide(lab) for lab in lesson.labs))
        for lesson in lessons))


def test_start_refuses_a_lab_that_comes_later(work, monkeypatch):
    not_built(monkeypatch)
    with pytest.raises(course.CourseError, match="later"):
        course.start("14.1")


def test_a_lab_whose_lab_before_has_not_passed_starts_and_says_its_starter_holds_that_code(
        fresh, capsys):
    """Each notebook opens on "each lab stands on its own": a student who begins at 12.2 gets
    its starter, which holds the course's code for 12.1, and one line saying so."""
    course.start("12.2")
    said = capsys.readouterr().out
    harness = fresh / manifest.lab("12.2").folder / "harness.py"
    assert harness.read_bytes() == manifest.lab("12.2").starter.read_bytes(), said
    assert said.splitlines()[1] == ("Lab 12.1 has not passed a check of yours, so this starter "
                                    "holds the course's code for it: lab 12.2 stands on its "
                                    "own."), said
    assert "--force" not in said and "is not started" not in said


def test_start_goes_ahead_once_the_lab_before_passes_or_when_forced(fresh, capsys):
    course.record_check("12.1", 6, 0)
    course.start("12.2")
    assert (fresh / manifest.lab("12.2").folder / "harness.py").is_file()
    course.start("15.2", force=True)
    assert (fresh / manifest.lab("15.2").folder / "harness.py").is_file()
    assert "not started" not in capsys.readouterr().out


def test_start_puts_changes_diff_in_the_lab_folder_headed_by_names_a_student_has(work):
    """Each lab's page asks the student to read changes.diff first; a student's copy of the
    course has no solutions/ for its header to name."""
    course.start(LAB)
    copied = place(work) / "changes.diff"
    kit = manifest.lab(LAB).starter.parent / "changes.diff"
    assert copied.read_bytes() == kit.read_bytes()
    header = copied.read_text(encoding="utf-8").splitlines()[:2]
    assert header == ["--- the reference of lab 14.1",
                      "+++ the starter of lab 15.1 (your harness.py)"]


def test_a_lab_starts_without_the_lab_before_it_even_across_lessons_and_says_so_once(
        fresh, capsys):
    """11.1's starter holds 10.1's code, as 7.2's holds 7.1's: the line says so while 10.1 has
    not passed, and not once it has."""
    course.start("11.1")
    said = capsys.readouterr().out
    assert (fresh / manifest.lab("11.1").folder / "harness.py").is_file()
    assert said.count("Lab 10.1 has not passed a check of yours") == 1, said
    course.record_check("10.1", 3, 0)
    (fresh / manifest.lab("11.1").folder / "harness.py").unlink()
    course.start("11.1")
    said = capsys.readouterr().out
    assert said.startswith("Started ") and "has not passed a check of yours" not in said


def test_progress_says_a_later_labs_file_passes_the_tests_of_a_lab_with_no_file_of_its_own(
        fresh, capsys):
    """A student who began at 7.2 and passed it has no 7.1 file: progress says 7.1 is not
    started and that its tests pass in their 7.2 file, never that 7.1 is "passing"."""
    course.start("7.2")
    course.record_check("7.2", 40, 0)
    capsys.readouterr()
    course.progress()
    rows = {r.split()[0]: r for r in capsys.readouterr().out.splitlines()}
    assert rows["7.1"].endswith("  not started; its tests pass in your lab 7.2 file"), rows["7.1"]
    assert rows["7.2"].endswith("  passing (40/40)") and rows["07"].endswith("  passing")
    assert "passing (in" not in "".join(rows.values())
    assert course.waits_for("8.1") is None and not course.has_passed("7.1")
    course.start("7.1", force=True)
    course.record_check("7.1", 3, 2)
    capsys.readouterr()
    course.progress()
    rows = {r.split()[0]: r for r in capsys.readouterr().out.splitlines()}
    assert rows["7.1"].endswith("  failing (3/5); its tests pass in your lab 7.2 file")
    course.record_check("7.2", 39, 1)
    assert course.waits_for("8.1").id == "7.2"


@pytest.mark.parametrize("earlier, later", [("7.1", "7.2"), ("10.1", "11.1"), ("2.1", "16.2"),
                                            ("15.1", "15.2")])
def test_a_start_cell_run_again_after_a_later_lab_started_starts_nothing(fresh, capsys, earlier,
                                                                         later):
    """Run All of a lesson the student is past passes its start cell: it must not add a folder
    beside their real work. Asked for with force, the earlier lab starts."""
    course.record_check(manifest.before(earlier)[-1].id if manifest.before(earlier) else earlier,
                        1, 0)
    course.start(later, force=True)
    capsys.readouterr()
    course.start(earlier)
    said = capsys.readouterr().out
    assert not (fresh / manifest.lab(earlier).folder / "harness.py").exists(), said
    assert said.startswith(f"Lab {earlier} is not started: you have started lab {later} "
                           "already") and f"course start {earlier} --force" in said
    course.start(earlier, force=True)
    assert (fresh / manifest.lab(earlier).folder / "harness.py").is_file()


def test_a_lab_already_started_is_never_refused(fresh, capsys):
    course.start("15.2", force=True)
    capsys.readouterr()
    course.start("15.2")  # its harness.py is there already: nothing would be handed over
    assert "kept as it is" in capsys.readouterr().out


def test_in_solved_mode_every_lab_counts_as_passed(fresh, monkeypatch):
    monkeypatch.setenv(course.SOLVED_ENV, "1")
    course.start("12.2")
    assert (fresh / manifest.lab("12.2").folder / "harness.py").is_file()


def test_cli_start_refuses_once_a_later_lab_started_with_a_nonzero_code_and_takes_force(
        fresh, capsys):
    assert course.main(["start", "12.2"]) == 0
    assert course.main(["start", "12.1"]) == 1
    assert "course start 12.1 --force" in capsys.readouterr().out
    assert course.main(["start", "12.1", "--force"]) == 0
    assert (fresh / manifest.lab("12.1").folder / "harness.py").is_file()


def test_reset_asks_first_and_keeps_the_file_as_bak(work, monkeypatch, capsys):
    course.start(LAB)
    harness = place(work) / "harness.py"
    harness.write_text("# mine\n")
    questions = []
    monkeypatch.setattr("builtins.input", lambda q: questions.append(q) or "n")
    course.reset(LAB)
    assert harness.read_text() == "# mine\n"
    assert "[y/N]" in questions[0] and "harness.py.bak" in questions[0]
    monkeypatch.setattr("builtins.input", lambda q: "y")
    course.reset(LAB)
    assert harness.read_text() == manifest.lab(LAB).starter.read_text()
    assert (place(work) / "harness.py.bak").read_text() == "# mine\n"
    assert "work/15-stop/lab1/harness.py.bak" in capsys.readouterr().out


def test_reset_without_confirm_does_not_ask(work, monkeypatch):
    course.start(LAB)
    (place(work) / "harness.py").write_text("# mine\n")
    monkeypatch.setattr("builtins.input", lambda q: pytest.fail("asked"))
    course.reset(LAB, confirm=False)
    assert (place(work) / "harness.py.bak").read_text() == "# mine\n"


def test_hint_walks_the_three_levels_then_repeats_the_last(work, capsys):
    hints = manifest.lab(LAB).hints
    shown = []
    for _ in range(4):
        course.hint(LAB)
        shown.append(capsys.readouterr().out)
    for level, (text, said) in enumerate(zip(hints, shown), 1):
        assert f"Hint {level} of 3" in said and text.strip() in said
    assert "no more hints" in shown[3] and hints[2].strip() in shown[3]
    saved = json.loads((work / "progress.json").read_text())
    assert saved["hints"][LAB] == 3


def test_a_hint_asked_by_level_shows_that_one_every_time_and_the_next_command_goes_on(
        work, capsys):
    """The notebook's hint cell names its level, so running every cell again never walks on;
    level 0 shows none and saves nothing; the terminal's `course hint` goes on after the
    furthest level shown."""
    hints = manifest.lab(LAB).hints
    course.hint(LAB, 0)
    said = capsys.readouterr().out
    assert "No hint shown yet" in said and "Change the 0 to 1" in said
    assert not any(text.strip() in said for text in hints)
    saved = work / "progress.json"
    assert not saved.exists() or "hints" not in json.loads(saved.read_text())
    for _ in range(2):
        course.hint(LAB, 2)
        said = capsys.readouterr().out
        assert said.startswith("Hint 2 of 3") and hints[1].strip() in said
    course.hint(LAB, 1)  # a level below the furthest shown is shown, and forgets nothing
    assert hints[0].strip() in capsys.readouterr().out
    course.hint(LAB)
    assert hints[2].strip() in capsys.readouterr().out
    assert json.loads((work / "progress.json").read_text())["hints"][LAB] == 3
    with pytest.raises(ValueError, match="hints 1 to 3, not 4"):
        course.hint(LAB, 4)


def test_hints_live_in_the_authors_wing_and_no_lesson_toml_a_student_opens_holds_one():
    import tomllib
    for lesson in manifest.lessons():
        data = tomllib.loads((lesson.folder / "lesson.toml").read_text(encoding="utf-8"))
        assert not [lab["id"] for lab in data.get("lab", []) if "hints" in lab], lesson.folder
        for lab in lesson.labs:
            if not lab.reference_only:
                assert len(lab.hints) == 3 and lesson.hints.is_file(), lab.id


def test_a_copy_without_source_gives_hints_from_the_packed_file_which_shows_none(
        fresh, tmp_path, capsys):
    """A student release has no source/: `course hint` reads lab/desk/hints.packed, in which
    no hint can be read by opening the file."""
    lesson = manifest.lab(LAB).lesson
    hints = manifest.lab(LAB).hints
    copy = tmp_path / "release"
    (copy / "lessons" / lesson.folder.name).mkdir(parents=True)
    (copy / "lessons" / lesson.folder.name / "lesson.toml").write_bytes(
        (lesson.folder / "lesson.toml").read_bytes())
    packed = copy.joinpath(*manifest.PACKED)
    packed.parent.mkdir(parents=True)
    packed.write_text(manifest.pack_hints(lesson.labs), encoding="utf-8")
    before = manifest.relocate(copy)
    try:
        assert manifest.lab(LAB).hints == hints
        for _ in range(3):
            course.hint(LAB)
        said = capsys.readouterr().out
    finally:
        manifest.relocate(before)
    assert all(text.strip() in said for text in hints)
    stored = packed.read_text(encoding="utf-8")
    for text in hints:
        assert not [line for line in text.splitlines() if len(line) > 20 and line in stored]
    assert "not secret" in stored  # it says what the packing is for


def test_start_guided_copies_the_guided_starter_and_says_so(fresh, capsys):
    lab = manifest.lab("2.1")
    assert course.main(["start", "2.1", "--guided"]) == 0
    mine = (fresh / lab.folder / "harness.py").read_text(encoding="utf-8")
    assert mine == lab.guided.read_text(encoding="utf-8") != lab.starter.read_text(encoding="utf-8")
    assert "guided" in capsys.readouterr().out
    course.start("3.1", force=True)
    assert (fresh / manifest.lab("3.1").folder / "harness.py").read_text(encoding="utf-8") == \
        manifest.lab("3.1").starter.read_text(encoding="utf-8")  # standard unless asked


def test_progress_shows_each_state_from_the_last_recorded_check(work, capsys, monkeypatch):
    not_built(monkeypatch)
    def state():
        course.progress()
        rows = capsys.readouterr().out.splitlines()
        return {row.split()[0]: row for row in rows}

    assert state()[LAB].endswith("not started")
    assert state()["14.1"].endswith("coming later")
    course.start(LAB)
    capsys.readouterr()
    assert state()[LAB].endswith("started")
    course.record_check(LAB, 3, 2)
    assert state()[LAB].endswith("failing (3/5)")
    course.record_check(LAB, 5, 0)
    assert state()[LAB].endswith("passing (5/5)")
    saved = json.loads((work / "progress.json").read_text())
    assert saved["checks"][LAB] == {"passed": 5, "failed": 0, "runs": 2}


def test_progress_lists_every_lesson_and_lab_in_course_order(work, capsys):
    course.progress()
    rows = capsys.readouterr().out.splitlines()
    expected = []
    for lesson in manifest.lessons():
        expected += [f"{lesson.number:02d}"] + [lab.id for lab in lesson.labs]
    assert [row.split()[0] for row in rows] == expected


def test_respond_and_recall_round_trip(work, capsys):
    course.respond("04.boundary", "Catch Exception, not BaseException.\nA second line.")
    course.recall("04.boundary")
    said = capsys.readouterr().out
    assert "Catch Exception, not BaseException." in said and "A second line." in said
    saved = json.loads((work / "responses.json").read_text())
    assert saved == {"04.boundary": "Catch Exception, not BaseException.\nA second line."}


def test_recall_before_an_answer_names_the_lesson(work, capsys):
    course.recall("04.boundary")
    said = capsys.readouterr().out
    assert "not answered" in said and "lesson 4" in said


def test_an_empty_response_is_not_saved(work):
    course.respond("04.boundary", "   ")
    assert not (work / "responses.json").exists()


def test_yours_before_start_says_to_start_the_lab(work):
    with pytest.raises(course.NotStarted, match=r'course\.start\("15\.1"\)'):
        course.yours(LAB)


def test_yours_imports_the_students_file_fresh_as_harness(work):
    course.start(LAB)
    (place(work) / "harness.py").write_text("VALUE = 1\n")
    assert course.yours(LAB).VALUE == 1
    (place(work) / "harness.py").write_text("VALUE = 2\n")
    mine = course.yours(LAB)
    assert mine.VALUE == 2 and sys.modules["harness"] is mine


def test_yours_in_solved_mode_loads_the_reference(work, monkeypatch):
    monkeypatch.setenv(course.SOLVED_ENV, "1")
    assert course.yours(LAB).__file__ == str(manifest.lab(LAB).solution)


def test_reference_loads_the_solution_as_harness(work):
    module = course.reference(LAB)
    assert module.__file__ == str(manifest.lab(LAB).solution)
    assert sys.modules["harness"] is module


def test_reference_without_solutions_says_this_copy_lacks_them(work, monkeypatch, tmp_path):
    monkeypatch.setattr(manifest, "SOLUTIONS", tmp_path / "no-solutions")
    with pytest.raises(course.NoReference, match="does not include"):
        course.reference(LAB)


def test_cli_start_and_reset_yes(work, capsys):
    assert course.main(["start", LAB]) == 0
    (place(work) / "harness.py").write_text("# mine\n")
    assert course.main(["reset", LAB, "--yes"]) == 0
    assert (place(work) / "harness.py.bak").read_text() == "# mine\n"


def test_cli_check_runs_the_printed_command_in_the_lab_folder(work, monkeypatch):
    seen = {}

    def run(command, cwd, env):
        seen.update(command=command, cwd=cwd)
        return type("Done", (), {"returncode": 3})()

    monkeypatch.setattr(checking.subprocess, "run", run)
    assert course.main(["check", LAB]) == 2  # not started yet
    course.start(LAB)
    assert course.main(["check", LAB]) == 3
    assert seen["cwd"] == place(work)
    assert seen["command"][1:] == ["lab/lab_check.py", "--harness", "harness.py",
                                   "--lesson", "15", "tests.py"]


def test_cli_lab_starts_jupyterlab_on_the_kit_with_flags_passed_through(work, monkeypatch,
                                                                        capsys):
    seen = {}
    monkeypatch.setenv("CI", "1")
    monkeypatch.setattr(launcher.subprocess, "run", lambda command, env: seen.update(
        command=command) or type("Done", (), {"returncode": 0})())
    assert course.main(["lab", "--", "--port", "9999"]) == 0
    command = seen["command"][1:]
    assert command[:5] == ["-m", "jupyter", "lab", "--notebook-dir", str(course.PACKAGE.parent)]
    assert command[5] == "--LabApp.default_url=/lab/tree/lessons/01-remembers/lesson.ipynb"
    assert "--no-browser" in command and command[-2:] == ["--port", "9999"]
    hidden = next(f for f in command if f.startswith("--ContentsManager.hide_globs="))
    assert "'source'" in hidden and "'solutions'" in hidden  # answers are not in the browser
    assert capsys.readouterr().out.startswith("Starting: jupyter lab --notebook-dir ")


def test_cli_says_what_is_wrong_without_a_traceback(work, capsys):
    assert course.main(["start", "7.7"]) == 2
    assert "no lab 7.7" in capsys.readouterr().err


def test_yours_sees_an_edit_that_keeps_the_size_and_the_second(work):
    course.start(LAB)
    harness = place(work) / "harness.py"
    harness.write_text("VALUE = 1\n")
    assert course.yours(LAB).VALUE == 1
    stat = harness.stat()
    harness.write_text("VALUE = 2\n")
    os.utime(harness, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert course.yours(LAB).VALUE == 2
    assert not (place(work) / "__pycache__").exists()


@pytest.mark.parametrize("command", [["hint", "14.1"], ["progress"]])
def test_a_command_whose_reader_has_gone_ends_quietly(work, command):
    """`course hint 14.1 | head`: the pipe is closed before the command writes."""
    import os
    import subprocess
    import sys
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "lab.desk.course", *command], stdout=write,
                              stderr=subprocess.PIPE, text=True, cwd=manifest.KIT,
                              env={**os.environ, course.WORK_ENV: str(work)})
    finally:
        os.close(write)
    assert done.stderr == "", f"course {' '.join(command)} on a closed pipe said:\n{done.stderr}"
    assert done.returncode in (0, 1)
