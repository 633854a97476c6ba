"""The kit's bad submissions (tests/check/submissions/, with the verdicts submissions.toml
gives them) and how the checker's tests build a student's files from them: a lab folder as
`course start` makes it, a harness.py that is a base file with snippets appended, and an
outcome as the runner decides one. tests/check/test_checker.py, test_practice.py and
test_spoken.py share them."""
import tomllib
from pathlib import Path

from lab.check import manifest
from lab.check.verdict import Outcome
from lab.desk import course

SUBMISSIONS = Path(__file__).parent / "submissions"
TABLE = tomllib.loads((SUBMISSIONS / "submissions.toml").read_text(encoding="utf-8"))
LAB = manifest.lab("15.1")


def lab_folder(tmp_path, harness_text):
    """A student's lab folder as `course start` makes it: harness.py, tests.py, and the `lab`
    folder that stands for the kit's package."""
    folder = tmp_path / "lab1"
    folder.mkdir()
    (folder / "harness.py").write_text(harness_text, encoding="utf-8")
    (folder / "tests.py").write_text(LAB.tests.read_text(encoding="utf-8"), encoding="utf-8")
    course.forward_package(folder)
    return folder


def base_text(base):
    if base == "solution":
        return LAB.solution.read_text(encoding="utf-8")
    if base == "starter":
        return LAB.starter.read_text(encoding="utf-8")
    return ""


def submission(base, *names):
    """A harness.py: the base file, then each named snippet of tests/check/submissions/."""
    return "\n".join([base_text(base)] + [(SUBMISSIONS / f"{name}.py").read_text(encoding="utf-8")
                                          for name in names])


def outcome(lab_id, verdict="fail", message="The rule it states (a name, lesson 15).\n  found: x",
            test_id=None):
    return Outcome(test_id or f"t{lab_id}", "says", lab_id, verdict,
                   message if verdict != "pass" else "")
