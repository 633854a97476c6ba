"""The Gradescope bundle holds the tests and expected values of the lab it grades and of the labs
before it, and no later lab's (issue 29): a submission that reads the bundle's kit from inside
the sandbox, as one did to echo lab 6.1's tests back through results.json, finds the tests its
student was released and nothing more."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from tests.grader.gradeclass import ROOT
from lab.check import manifest

from grader import batch, gradescope, plan as plans

WEEK = manifest.lab("5.1")  # a week's lab, with the course's later labs still to come
LATER = [lab for lab in manifest.labs(built_only=True)
         if manifest.key(lab.id) > manifest.key(WEEK.id)]

# Appended to the reference: it lists every tests.py its own kit (the bundle's) holds, with the
# size it read of each, and stops its import there, so the list reaches results.json's output.
READER = '''
import lab as _lab
from pathlib import Path as _Path
_kit = _Path(_lab.__file__).resolve().parents[1]
_read = [f"{p.relative_to(_kit).as_posix()}:{len(p.read_text())}"
         for p in sorted((_kit / "starters").glob("*/*/tests.py"))]
raise RuntimeError("found: " + " ".join(_read))
'''


def _names(plan) -> list[str]:
    path = gradescope.build(plan, Path(tempfile.mkdtemp(prefix="bundle-")) / "bundle.zip")
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.namelist()
    finally:
        shutil.rmtree(path.parent)


def _starters(labs) -> set[str]:
    return {f"kit/starters/{lab.folder}/{name}" for lab in labs
            for name in ("tests.py", "expected.json")}


def test_the_bundle_holds_the_tests_of_its_lab_and_the_labs_before_it_and_no_later_lab():
    names = _names(plans.make(WEEK.id))
    held = {n for n in names if n.startswith("kit/starters/")}
    assert held == _starters([*manifest.before(WEEK.id), WEEK])
    assert not held & _starters(LATER)
    lessons = {n.split("/")[2] for n in names if n.endswith("/lesson.toml")}
    assert lessons == {lesson.folder.name for lesson in manifest.lessons()
                       if lesson.number <= WEEK.lesson.number}


def test_a_bundle_for_its_own_lab_only_holds_that_labs_tests_alone():
    names = _names(plans.make(WEEK.id, own_lab_only=True))
    assert {n for n in names if n.startswith("kit/starters/")} == _starters([WEEK])


@pytest.fixture(scope="module")
def unpacked():
    """A bundle for lab 5.1, unpacked and set up as Gradescope would, in a folder any user may
    pass through, as /autograder is."""
    root = Path(tempfile.mkdtemp(prefix="bundle-leak-"))
    root.chmod(0o755)
    try:
        path = gradescope.build(plans.make(WEEK.id), root / "bundle.zip",
                                settings=batch.Settings(seconds_per_test=2))
        source = root / "source"
        with zipfile.ZipFile(path) as archive:
            archive.extractall(source)
            for info in archive.infolist():
                (source / info.filename).chmod((info.external_attr >> 16) & 0o777)
        env = {**os.environ,
               "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
        setup = subprocess.run(["bash", str(source / "setup.sh")], env=env,
                               capture_output=True, text=True, timeout=120)
        assert setup.returncode == 0, setup.stdout + setup.stderr
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.skipif(not ROOT or shutil.which("bash") is None,
                    reason="the sandbox's users are made as root; the bundle's scripts are bash")
def test_a_submission_reading_the_bundle_finds_no_later_labs_tests_to_echo(unpacked):
    """Run at "user", the level of a container without namespaces: the submission runs as a
    user of its own and reads whatever any user may read of the bundle. It finds lab 5.1's
    tests (its student has them), which shows the channel works, and no later lab's."""
    submission = unpacked / "submission"
    submission.mkdir()
    (submission / "harness.py").write_text(
        WEEK.solution.read_text(encoding="utf-8") + READER, encoding="utf-8")
    results = unpacked / "results" / "results.json"
    run = ("import sys\nfrom pathlib import Path\nfrom grader import gradescope\n"
           "sys.exit(gradescope.run_inside(*map(Path, sys.argv[1:4]), level='user'))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", run, str(unpacked / "source"),
                           str(submission), str(results)],
                          cwd=unpacked / "source" / "kit", env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    output = json.loads(results.read_text(encoding="utf-8"))["output"]
    assert "found: " in output, output
    found = output.split("found: ", 1)[1].split()
    read = {"/".join(entry.split("/")[1:3]) for entry in found if "/tests.py:" in entry}
    assert WEEK.folder in read, output
    assert not read & {lab.folder for lab in LATER}, output
