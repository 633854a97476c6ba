"""The Gradescope bundle: built with the same suites, its run_autograder run here on sample
submissions writes a valid results.json."""
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.grader.gradeclass import EXTRA, LAB, OWN_SUBMISSIONS, base_text, base_verdicts
from lab.check import manifest, seeds
from lab.check.verdict import Outcome, Verdict

from grader import batch, gradescope, plan as plans, row as rows
from grader.sandbox.statement import Statement

LIMITS = Statement("limits", False, (), ())  # a statement whose words these tests do not read

pytestmark = pytest.mark.skipif(shutil.which("bash") is None,
                                reason="the bundle's scripts are bash")


@pytest.fixture(scope="module")
def kit_verdicts(tmp_path_factory):
    return base_verdicts(tmp_path_factory)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    """A bundle with one hidden extra test file, unpacked and set up as Gradescope would."""
    root = tmp_path_factory.mktemp("gradescope")
    extra = root / "extra15.py"
    extra.write_text(EXTRA, encoding="utf-8")
    plan = plans.make(LAB.id, extra_tests=[extra])
    path = gradescope.build(plan, root / "bundle.zip",
                            settings=batch.Settings(seconds_per_test=1.5))
    source = root / "source"
    with zipfile.ZipFile(path) as archive:
        archive.extractall(source)
        for info in archive.infolist():  # extractall drops the mode bits Gradescope keeps
            (source / info.filename).chmod((info.external_attr >> 16) & 0o777)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    setup = subprocess.run(["bash", str(source / "setup.sh")], env=env, capture_output=True,
                           text=True, timeout=120)
    assert setup.returncode == 0, setup.stdout + setup.stderr
    return {"zip": path, "source": source, "plan": plan, "root": root}


def run_autograder(bundle, name, files):
    """run_autograder on a submission folder holding `files`; returns results.json's data."""
    submission = bundle["root"] / name
    submission.mkdir()
    for relative, text in files.items():
        (submission / relative).parent.mkdir(parents=True, exist_ok=True)
        (submission / relative).write_text(text, encoding="utf-8")
    results = bundle["root"] / f"{name}-results" / "results.json"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(GRADER_SOURCE=str(bundle["source"]), GRADER_SUBMISSION=str(submission),
               GRADER_RESULTS=str(results))
    done = subprocess.run([str(bundle["source"] / "run_autograder")], env=env, cwd=bundle["root"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(results.read_text(encoding="utf-8"))
    assert_valid(data)
    return data


def assert_valid(data):
    """Gradescope's results.json: a score, and tests with name, score, max_score, status,
    output and visibility of the allowed kinds."""
    visibilities = {"hidden", "after_due_date", "after_published", "visible"}
    assert isinstance(data["score"], (int, float))
    assert isinstance(data["execution_time"], int) and isinstance(data["output"], str)
    assert data["visibility"] in visibilities and data["stdout_visibility"] in visibilities
    for test in data["tests"]:
        assert set(test) >= {"name", "score", "max_score", "status", "output", "visibility"}
        assert isinstance(test["name"], str) and test["name"]
        assert 0 <= test["score"] <= test["max_score"]
        assert test["status"] in ("passed", "failed")
        assert test["visibility"] in visibilities
    assert data["score"] == sum(t["score"] for t in data["tests"])


def test_the_bundle_has_the_scripts_at_its_root_and_only_the_graded_labs_reference(bundle):
    with zipfile.ZipFile(bundle["zip"]) as archive:
        names = archive.namelist()
        modes = {i.filename: (i.external_attr >> 16) & 0o777 for i in archive.infolist()}
    assert {"setup.sh", "run_autograder", "grader_plan.json"} <= set(names)
    assert modes["run_autograder"] & 0o111 and modes["setup.sh"] & 0o111
    assert "kit/lab/check/runner.py" in names and "kit/grader/batch.py" in names
    assert "kit/starters/15-stop/lab1/expected.json" in names
    assert "kit/starters/15-stop/lab1/tests.py" in names
    assert "kit/starters/15-stop/lab1/harness.py" not in names  # a starter is not graded with
    # The reference each submission's seed is recorded from, readable by root alone.
    reference = "kit/" + LAB.solution.relative_to(manifest.KIT).as_posix()
    assert [n for n in names if n.startswith("kit/solutions")] == [reference]
    assert modes[reference] == 0o600 and modes["grader_plan.json"] == 0o600
    assert not [n for n in names if n.startswith(("kit/source", "kit/tests/"))]
    solution = LAB.solution.read_bytes()
    with zipfile.ZipFile(bundle["zip"]) as archive:
        assert [n for n in names if archive.read(n) == solution] == [reference]


def test_the_bundle_is_the_same_bytes_every_build(bundle, tmp_path):
    again = gradescope.build(bundle["plan"], tmp_path / "again.zip",
                             settings=batch.Settings(seconds_per_test=1.5))
    assert again.read_bytes() == bundle["zip"].read_bytes()


def test_run_autograder_on_the_starter_writes_its_verdicts(bundle, kit_verdicts):
    data = run_autograder(bundle, "starter", {"harness.py": base_text("starter")})
    kit = [t for t in data["tests"] if t["tags"] != ["extra15.py (hidden)"]]
    wanted = sum(v == "pass" for v in kit_verdicts["starter"].values())
    assert sum(t["status"] == "passed" for t in kit) == wanted
    failed = [t for t in kit if t["status"] == "failed"]
    assert any("has no CancelToken.is_cancelled yet" in t["output"] for t in failed)
    assert {t["visibility"] for t in kit} == {"visible"}


def test_run_autograder_gives_the_reference_every_point_and_hides_the_hidden_tests(bundle):
    data = run_autograder(bundle, "solution", {"lab1/harness.py": base_text("solution")})
    assert data["score"] == bundle["plan"].max_score
    hidden = [t for t in data["tests"] if t["visibility"] != "visible"]
    assert [t["visibility"] for t in hidden] == ["after_published", "after_published"]
    assert [t["max_score"] for t in hidden] == [3.0, 1.0]
    assert "\nSets run: lab 2.1, " in data["output"]
    assert "; extra15.py (hidden), 2 tests holding 2 checks.\n" in data["output"] + "\n"


def test_run_autograder_on_a_submission_without_a_harness_says_so(bundle):
    data = run_autograder(bundle, "empty", {"README.txt": "I forgot my file"})
    assert data["score"] == 0 and "holds no harness.py" in data["output"]


def test_the_student_is_told_in_their_own_terms_why_their_upload_holds_nothing_to_grade(
        tmp_path):
    (tmp_path / "up" / "a").mkdir(parents=True)
    (tmp_path / "up" / "b").mkdir()
    (tmp_path / "up" / "a" / "harness.py").write_text("")
    (tmp_path / "up" / "b" / "harness.py").write_text("")
    several = gradescope.submission_in(tmp_path / "up")
    assert several.path is None and several.problem == (
        "Your submission holds several harness.py files (a/harness.py, b/harness.py), and the "
        "grader cannot tell which one is meant: none is at the lab's own place. Leave exactly "
        "one.")
    (tmp_path / "up" / "b" / "harness.py").unlink()
    one = gradescope.submission_in(tmp_path / "up")
    assert (one.student, one.shown, one.problem) == ("submission", "a/harness.py", None)
    (tmp_path / "empty").mkdir()
    none = gradescope.submission_in(tmp_path / "empty")
    assert none.path is None and none.problem.startswith("Your submission holds no harness.py")
    missing = gradescope.submission_in(tmp_path / "gone")
    assert missing.path is None and "folder is missing" in missing.problem


def test_a_course_repository_is_graded_on_the_labs_file_at_its_standard_path(bundle):
    """A student uploads their whole course repository (GitHub, or a zip of it): every lab's
    work folder, the kit's own .py files; the lab's file is at work/NN-slug/labK/harness.py."""
    other = manifest.lab("14.1")
    data = run_autograder(bundle, "repository", {
        f"work/{other.folder}/harness.py": other.solution.read_text(encoding="utf-8"),
        f"work/{LAB.folder}/harness.py": base_text("solution"),
        "lab/lab_check.py": "print('the kit')\n", "start.py": "print('start')\n"})
    assert data["score"] == bundle["plan"].max_score > 0, data["output"]
    assert (f"Graded work/{LAB.folder}/harness.py: lab {LAB.id}'s own place in a course "
            "repository, among the 2 harness.py files it holds.") in data["output"]


def test_a_single_python_file_of_any_name_is_graded_and_named(bundle):
    data = run_autograder(bundle, "renamed", {"my_lab15.py": base_text("solution")})
    assert data["score"] == bundle["plan"].max_score > 0, data["output"]
    assert "Graded my_lab15.py: the only .py file in your submission." in data["output"]


def test_a_file_that_does_not_import_is_told_which_python_graded_it():
    import platform
    plan = plans.make(LAB.id, own_lab_only=True)
    outcomes = [Outcome(t.id, t.says, t.lab, Verdict.FAIL, "SyntaxError") for t in plan.tests]
    row = rows.build(plan, "s", "harness.py", outcomes,
                     report=type("R", (), {"import_error": "SyntaxError: bad", "output": "",
                                           "output_dropped": 0})())
    said = gradescope.results_json(plan, row, LIMITS, "hidden", 1.0)["output"]
    assert f"The grader ran Python {platform.python_version()}" in said, said
    from grader import report
    assert f"The grader ran Python {platform.python_version()}" in report.feedback(plan, row)


def test_each_test_says_its_verdict_in_the_courses_words_then_the_reason():
    plan = plans.make(LAB.id, own_lab_only=True)
    verdicts = list(Verdict)
    outcomes = [Outcome(t.id, t.says, t.lab, verdicts[i % 4], f"reason {i}")
                for i, t in enumerate(plan.tests)]
    row = rows.build(plan, "submission", "harness.py", outcomes)
    data = gradescope.results_json(plan, row, LIMITS, "hidden", 1.0)
    assert_valid(data)
    assert [t["output"] for t in data["tests"][:4]] == [
        "Passed.\n\nreason 0", "Failed.\n\nreason 1", "Ran out of time.\n\nreason 2",
        "The process died.\n\nreason 3"]
    assert [t["status"] for t in data["tests"][:4]] == ["passed", "failed", "failed", "failed"]
    assert data["extra_data"]["verdict"] == "partial"


def test_run_autograder_on_a_broken_file_gives_every_test_the_reason(bundle):
    data = run_autograder(bundle, "broken", {"harness.py": "def run_tool(:\n"})
    assert data["score"] == 0 and "did not import" in data["output"]
    assert all("does not import" in t["output"] for t in data["tests"])


def test_each_submission_is_graded_under_a_secret_seed_drawn_when_it_is_graded(bundle):
    """The reference recorded under each drawn seed first, so it keeps every point; the
    student is told the seed and the local checker's --seed N."""
    drawn = []
    for name in ("seeded_a", "seeded_b"):
        data = run_autograder(bundle, name, {"harness.py": base_text("solution")})
        seed = data["extra_data"]["seed"]
        assert data["score"] == bundle["plan"].max_score
        assert f"under seed {seed}" in data["output"]
        assert f"`--seed {seed}` to `python lab/lab_check.py --harness harness.py --lesson " \
               f"{LAB.lesson.number} tests.py`" in data["output"]
        drawn.append(seed)
    assert seeds.PUBLIC not in drawn and drawn[0] != drawn[1]


def test_a_submission_cannot_read_the_reference_the_bundle_carries(bundle):
    kit = bundle["source"] / "kit"
    attack = (OWN_SUBMISSIONS / "copies_the_reference.py").read_text(encoding="utf-8")
    data = run_autograder(bundle, "copier", {
        "harness.py": base_text("starter") + "\n" + attack.replace("@KIT@", str(kit))})
    if data["extra_data"]["isolation"] == "limits":
        pytest.skip("at the \"limits\" level the grader's own user runs the submission")
    starter = run_autograder(bundle, "plain_starter", {"harness.py": base_text("starter")})
    assert data["score"] == starter["score"] < bundle["plan"].max_score
