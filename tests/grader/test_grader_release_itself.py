"""A release speaks of itself, not of the whole course: its start.py names its own last lab,
its pyproject.toml installs what a student runs and nothing of the authors', and a check of its
last lab says the next release brings the labs after it (the kit's says the course is done)."""
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib

import pytest

from lab.check import advice, manifest

from grader import release
from grader.release import setup_files

WEEK = manifest.lab("5.1")
# A third-party module the release imports -> the package that brings it.
BRINGS = {"IPython": "ipykernel", "httpx": "httpx", "merge3": "merge3"}


@pytest.fixture(scope="module")
def week(tmp_path_factory):
    out = tmp_path_factory.mktemp("release") / "course"
    release.build(out, through=WEEK.id)
    return out


def test_the_start_script_of_a_release_names_its_own_last_lab(week):
    shipped = (week / "start.py").read_text(encoding="utf-8").splitlines()
    kit = (manifest.KIT / "start.py").read_text(encoding="utf-8").splitlines()
    changed = [(a, b) for a, b in zip(kit, shipped) if a != b]
    assert len(shipped) == len(kit) and len(changed) == 1
    line = changed[0][1]
    assert f"--lesson {WEEK.lesson.number} tests.py" in line
    assert f"check {WEEK.id})" in line
    assert os.access(week / "start.py", os.X_OK) == os.access(manifest.KIT / "start.py", os.X_OK)


def test_a_releases_pyproject_installs_the_lab_package_and_the_students_packages_only(week):
    data = tomllib.loads((week / "pyproject.toml").read_text(encoding="utf-8"))
    kit = tomllib.loads((manifest.KIT / "pyproject.toml").read_text(encoding="utf-8"))
    assert set(data) == {"build-system", "project", "tool"}
    assert data["tool"] == {"setuptools": {"packages": {"find": {"include": ["lab*"]}}}}
    project = data["project"]
    assert "optional-dependencies" not in project
    assert project["scripts"] == kit["project"]["scripts"]
    assert project["readme"] == "README.md" and (week / "README.md").is_file()
    for field in ("name", "version", "description", "requires-python"):
        assert project[field] == kit["project"][field]
    assert project["dependencies"] == [r for r in kit["project"]["dependencies"]
                                       if re.split(r"[<>=~]", r)[0] in setup_files.STUDENT_PACKAGES]


def imported(source: str) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:  # a notebook cell with top-level await or a magic
        return set()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_every_package_the_release_imports_is_one_its_pyproject_installs(week):
    modules = set()
    for path in [*week.joinpath("lab").rglob("*.py"), *week.joinpath("starters").rglob("*.py")]:
        modules |= imported(path.read_text(encoding="utf-8"))
    for path in week.joinpath("lessons").glob("*/lesson.ipynb"):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                modules |= imported("".join(cell["source"]))
    local = {"lab", "harness", "tests", "app"}  # the course's own, and a lesson's example file
    outside = modules - set(sys.stdlib_module_names) - local
    assert "merge3" in outside and "httpx" in outside  # the scan sees what the desk imports
    assert outside <= set(BRINGS), outside - set(BRINGS)
    assert {BRINGS[m] for m in outside} <= set(setup_files.STUDENT_PACKAGES)


def test_checking_a_releases_last_lab_says_the_next_release_brings_more(week, tmp_path):
    work = tmp_path / "work"
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "HARNESS_COURSE_AS_SOLVED")}
    env.update(HARNESS_COURSE_WORK=str(work), PYTHONPATH=str(week))

    def course(*args):
        return subprocess.run([sys.executable, "-m", "lab.desk.course", *args], cwd=week,
                              env=env, capture_output=True, text=True, timeout=300)

    assert course("start", WEEK.id, "--force").returncode == 0
    shutil.copyfile(WEEK.solution, work / WEEK.folder / "harness.py")
    done = course("check", WEEK.id)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == (f"Next: lab {WEEK.id} passes, and it is the last lab "
                                            "of this release: the next release brings the labs "
                                            "after it.")


@pytest.mark.parametrize("state, says", [
    (None, "it is the course's last lab: nothing is left to do."),
    ({"through": "16.2", "more": False}, "it is the course's last lab: nothing is left to do."),
    ({"through": "5.1", "more": True}, "the next release brings the labs after it.")])
def test_only_a_release_that_stops_before_the_course_ends_sends_a_student_to_the_next(
        tmp_path, monkeypatch, state, says):
    if state is not None:
        (tmp_path / manifest.RELEASE_STATE).write_text(json.dumps(state), encoding="utf-8")
    monkeypatch.setattr(manifest, "KIT", tmp_path)
    last = manifest.labs(built_only=True)[-1]
    assert advice.next_step(last.id, []).endswith(says)


def test_a_release_records_whether_labs_come_after_its_last(week, tmp_path):
    state = json.loads((week / manifest.RELEASE_STATE).read_text(encoding="utf-8"))
    assert state["through"] == WEEK.id and state["more"] is True
    whole = release.build(tmp_path / "course")  # every lab
    state = json.loads((tmp_path / "course" / manifest.RELEASE_STATE).read_text(encoding="utf-8"))
    assert whole.through == manifest.labs(built_only=True)[-1].id and state["more"] is False
