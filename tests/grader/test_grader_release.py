"""The student release holds the course without a line of solution source, says which lesson
cells need a reference it lacks, and runs the same local checker; the Classroom workflow runs
that checker too."""
import json
import os
import subprocess
import sys

import pytest

from gradeclass import LAB, base_text
from lab.check import manifest

from grader import classroom, plan as plans, release


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("release") / "course"
    return out, release.build(out)


def test_the_release_holds_lessons_starters_the_lab_package_and_the_checker(built):
    out, found = built
    for path in ("lab/lab_check.py", "lab/course.py", "lab/check/runner.py",
                 "start.py", "pyproject.toml", "README.md", "RELEASE.md", ".gitignore",
                 f"starters/{LAB.folder}/harness.py", f"starters/{LAB.folder}/tests.py",
                 f"starters/{LAB.folder}/expected.json"):
        assert (out / path).exists(), path
    assert {p.name for p in (out / "lessons").iterdir() if p.is_dir()} == \
        {lesson.folder.name for lesson in manifest.lessons()}
    assert LAB.id in found.labs


def test_the_release_holds_no_solution_source(built):
    out, _ = built
    for name in ("solutions", "source", "grader", "tests", "tools", "bench"):
        assert not (out / name).exists(), name
    assert release.solution_leaks(out) == []
    secrets = {p.read_bytes().strip() for p in (manifest.KIT / "solutions").rglob("*.py")}
    assert not [p for p in out.rglob("*") if p.is_file() and p.read_bytes().strip() in secrets]


def test_a_reference_cell_in_the_release_stops_with_a_plain_reason(built):
    out, _ = built
    code = ("from lab import course\ntry:\n    course.reference('15.1')\n"
            "except course.NoReference as exc:\n    print(exc)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", code], cwd=out, env=env, capture_output=True,
                          text=True, timeout=60)
    assert "does not include" in done.stdout, done.stdout + done.stderr


def test_release_notes_list_each_cell_that_needs_a_missing_reference(built):
    out, found = built
    notes = (out / "RELEASE.md").read_text(encoding="utf-8")
    assert "## Lesson cells that will not run here" in notes
    for cell in found.cells:
        assert f"| {cell.number} | {', '.join(cell.needs)} |" in notes


def test_cells_that_load_a_reference_and_cells_that_use_what_they_made_are_found(tmp_path):
    cells = [
        ("markdown", "# A lesson"),
        ("code", "from lab import course\nimport lab"),
        ("code", '# Runs on: the lesson 14 reference.\nharness = course.reference("14.1")\n'
                 "h = harness.Harness(None, 'sys', [])"),
        ("code", "print(h)"),  # uses what the reference cell made
        ("code", "ws = lab.Workspace({})\nprint(ws)"),  # fakes only
        ("code", 'harness = course.yours("15.1")\nh = harness.Harness(None, "s", [])'),
        ("code", "print(h)"),  # now the student's
        ("code", "%time x = 1\nprint(harness.ABORTED)"),
    ]
    notebook = {"cells": [{"cell_type": kind, "source": text, "metadata": {}}
                          for kind, text in cells], "metadata": {}, "nbformat": 4,
                "nbformat_minor": 5}
    (tmp_path / "lesson.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    found = release.needing_reference(tmp_path, "15-stop")
    assert [(c.number, c.needs, c.direct) for c in found] == [(3, ["14.1"], True),
                                                             (4, ["14.1"], False)]
    assert found[0].first_line == 'harness = course.reference("14.1")'


def test_with_reference_ships_only_the_chosen_labs_reference(tmp_path):
    out = tmp_path / "course"
    found = release.build(out, with_reference=[LAB.id])
    assert (out / "solutions" / LAB.folder / "harness.py").read_text() == \
        LAB.solution.read_text()
    assert [p.relative_to(out).as_posix() for p in (out / "solutions").rglob("*.py")] == \
        [f"solutions/{LAB.folder}/harness.py"]
    assert all(LAB.id not in c.needs for c in found.cells)
    assert "except the references of 15.1" in (out / "RELEASE.md").read_text()


def test_a_release_is_never_built_over_a_folder_with_files(tmp_path):
    (tmp_path / "old.txt").write_text("keep me")
    with pytest.raises(FileExistsError):
        release.build(tmp_path)
    assert (tmp_path / "old.txt").read_text() == "keep me"


def test_the_classroom_workflow_runs_the_local_checker_for_the_labs_points(tmp_path):
    path = classroom.write(LAB.id, tmp_path)
    text = path.read_text(encoding="utf-8")
    assert path == tmp_path / ".github" / "workflows" / "classroom.yml"
    command = ("python lab/lab_check.py --harness work/15-stop/lab1/harness.py --lesson 15 "
               "starters/15-stop/lab1/tests.py")
    assert f"command: {command}" in text
    assert f"max-score: {plans.make(LAB.id).max_score:g}" in text
    assert "classroom-resources/autograding-command-grader@v1" in text
    assert "LAB-15-1_RESULTS: \"${{steps.lab-15-1.outputs.result}}\"" in text
    try:
        import yaml
    except ImportError:
        return
    steps = yaml.safe_load(text)["jobs"]["run-autograding-tests"]["steps"]
    assert steps[2]["with"]["command"] == command


@pytest.mark.parametrize("base, code", [("solution", 0), ("starter", 1)])
def test_the_workflows_command_works_in_a_student_repository_made_from_the_release(
        built, tmp_path, base, code):
    out, _ = built
    repo = tmp_path / "repo"
    subprocess.run(["cp", "-r", str(out), str(repo)], check=True)
    harness = repo / "work" / LAB.folder / "harness.py"
    harness.parent.mkdir(parents=True)
    harness.write_text(base_text(base), encoding="utf-8")
    line = next(x for x in classroom.workflow(LAB.id).splitlines() if "command: python" in x)
    command = line.split("command: ", 1)[1].split()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, *command[1:]], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == code, done.stdout + done.stderr
