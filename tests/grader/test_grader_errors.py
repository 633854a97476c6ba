"""What `python -m grader` does with an exception: a user's mistake (a UserError) is one line on
stderr and exit code 2; anything else is the grader's own bug and keeps its traceback."""
import os
import subprocess
import sys

import pytest

from tests.grader.gradeclass import LAB, make_class
from lab.check import manifest

from grader import batch
from grader.__main__ import main


def grader(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=manifest.KIT,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(manifest.KIT)})


@pytest.mark.parametrize("asked, says", [
    ({"--jobs": "0"}, "--jobs must be 1 or more"),
    ({"--lab": "99.1"}, "there is no lab 99.1"),
    ({"submissions": "{tmp}/missing"}, "there is no folder of submissions"),
    ({"--seconds-per-test": "0"}, "--seconds-per-test must be more than 0"),
], ids=["jobs 0", "unknown lab", "missing submissions folder", "no time per test"])
def test_a_user_mistake_exits_2_with_one_line_and_no_traceback(tmp_path, asked, says):
    folder = make_class(tmp_path / "submissions", kinds=[])
    given = {"submissions": str(folder), "--lab": LAB.id, "--out": str(tmp_path / "out"),
             **asked}
    where = given.pop("submissions").format(tmp=tmp_path)
    done = grader("grade", where, *(part for pair in given.items() for part in pair))
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("grader: ") and says in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists(), "nothing was graded, so nothing was written"


def test_a_value_error_of_the_graders_own_is_not_taken_for_a_user_mistake(tmp_path, monkeypatch,
                                                                          capsys):
    def broken(folder):
        raise ValueError("a bug in finding submissions")
    monkeypatch.setattr(batch, "find", broken)
    folder = make_class(tmp_path / "submissions", kinds=[])
    with pytest.raises(ValueError, match="a bug in finding submissions"):
        main(["grade", "--lab", LAB.id, str(folder), "--out", str(tmp_path / "out")])
    assert "grader:" not in capsys.readouterr().err


def test_a_value_error_of_the_graders_own_ends_with_its_traceback_and_exit_code_1(tmp_path):
    folder = make_class(tmp_path / "submissions", kinds=[])
    done = subprocess.run(
        [sys.executable, "-c",
         "import sys\n"
         "from grader import batch\n"
         "from grader.__main__ import main\n"
         "def broken(folder):\n"
         "    raise ValueError('a bug in finding submissions')\n"
         "batch.find = broken\n"
         "sys.exit(main(sys.argv[1:]))\n",
         "grade", "--lab", LAB.id, str(folder), "--out", str(tmp_path / "out")],
        cwd=manifest.KIT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(manifest.KIT)})
    assert done.returncode == 1
    assert "Traceback (most recent call last)" in done.stderr
    assert done.stderr.splitlines()[-1] == "ValueError: a bug in finding submissions"
