"""The local checker, exactly as a student runs it, and what it does with bad submissions.

Each kind of bad submission in tests/check/submissions/ must get a verdict and a reason, the other
tests must still run, and no test may pass that did not pass on the base file alone: not by
printing, exiting, patching the checks or asyncio, or writing to the checker's channel.
"""
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from lab.check import manifest, runner, suite

SUBMISSIONS = Path(__file__).parent / "submissions"
TABLE = tomllib.loads((SUBMISSIONS / "submissions.toml").read_text(encoding="utf-8"))
LAB = manifest.lab("15.1")


def lab_folder(tmp_path, harness_text):
    """A student's lab folder as `course start` makes it: harness.py, tests.py, a lab link."""
    folder = tmp_path / "lab1"
    folder.mkdir()
    (folder / "harness.py").write_text(harness_text, encoding="utf-8")
    (folder / "tests.py").write_text(LAB.tests.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "lab").symlink_to(manifest.KIT / "lab")
    return folder


def check(folder, *extra):
    """python lab/lab_check.py --harness harness.py --lesson 15 tests.py, in `folder`."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    return subprocess.run([sys.executable, "lab/lab_check.py", "--harness", "harness.py",
                           "--lesson", "15", "tests.py", *extra], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_students_command_passes_the_solution_and_ends_on_the_count(tmp_path):
    done = check(lab_folder(tmp_path, LAB.solution.read_text(encoding="utf-8")))
    count = sum(len(suite.describe(lab)) for lab in (*manifest.before(LAB.id), LAB))  # cumulative
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.rstrip().splitlines()[-1] == f"{count} passed, 0 failed"
    assert done.stdout.count("  PASS  ") == count


def test_the_students_command_explains_each_failure_of_the_starter(tmp_path):
    done = check(lab_folder(tmp_path, LAB.starter.read_text(encoding="utf-8")))
    assert done.returncode == 1
    out = done.stdout
    first = suite.describe(LAB)[0][1]
    assert f"FAIL  {first}" in out
    assert "expected: U A[c1,c2,c3] R(c1) R(c2) R(c3) A(aborted)" in out
    assert "found:    U A[c1,c2,c3] R(c1) R(c2) R(c3) A\n" in out
    assert "harness.py has no CancelToken.is_cancelled yet (lesson 15, lab 1)." in out
    assert "AssertionError" not in out and "Traceback" not in out


def test_verbose_shows_the_traceback_behind_an_exception(tmp_path):
    done = check(lab_folder(tmp_path, LAB.starter.read_text(encoding="utf-8")), "--verbose")
    assert "| Traceback" in done.stdout


def test_a_missing_file_is_a_plain_error(tmp_path):
    folder = lab_folder(tmp_path, "")
    (folder / "harness.py").unlink()
    done = check(folder)
    assert done.returncode == 2 and "there is no harness file" in done.stdout


def base_text(base):
    if base == "solution":
        return LAB.solution.read_text(encoding="utf-8")
    if base == "starter":
        return LAB.starter.read_text(encoding="utf-8")
    return ""


def judged(path):
    files = suite.of_lab(LAB.id, cumulative_=False)
    return runner.run(path, files, runner.expected_for(files),
                      limits=runner.Limits(seconds_per_test=1.5, seconds_to_import=5))


@pytest.fixture(scope="module")
def base_verdicts(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bases")
    verdicts = {}
    for base in ("solution", "starter"):
        path = folder / f"{base}.py"
        path.write_text(base_text(base), encoding="utf-8")
        verdicts[base] = {o.id: o.verdict for o in judged(path).outcomes}
    return verdicts


@pytest.mark.parametrize("name", sorted(TABLE))
def test_a_bad_submission_gets_a_verdict_and_a_reason(tmp_path, name, base_verdicts):
    case = TABLE[name]
    path = tmp_path / "harness.py"
    path.write_text(base_text(case["base"]) + "\n" + (SUBMISSIONS / f"{name}.py").read_text(),
                    encoding="utf-8")
    report = judged(path)
    outcomes = {o.id: o for o in report.outcomes}
    assert len(outcomes) == len(suite.describe(LAB)), "every test gets a verdict"
    assert all(o.verdict == "pass" or o.message for o in report.outcomes), "and every failure a reason"
    passed = {i for i, o in outcomes.items() if o.verdict == "pass"}
    if case["base"] != "none":
        before = {i for i, v in base_verdicts[case["base"]].items() if v == "pass"}
        assert passed <= before, f"{name}: tests passed that the base alone fails: {passed - before}"
    expect = case["expect"]
    if expect == "import":
        assert not passed and report.import_error and case["says"] in report.import_error
    elif expect == "none-pass":
        assert not passed
    elif expect == "all-pass":
        assert len(passed) == len(outcomes)
    elif expect == "starter":
        assert passed == {i for i, v in base_verdicts["starter"].items() if v == "pass"}
    elif expect == "some-pass":
        hit = [o for o in report.outcomes if o.verdict == case["verdict"]]
        assert hit and passed, f"{name}: expected some {case['verdict']} verdicts and some passes"
    if "says" in case and expect != "import":
        assert any(case["says"] in o.message for o in report.outcomes), \
            [o.message for o in report.outcomes if o.verdict != "pass"][:3]


def test_output_beyond_the_cap_is_counted_not_kept(tmp_path):
    path = tmp_path / "harness.py"
    path.write_text(base_text("solution") + (SUBMISSIONS / "floods_output.py").read_text(),
                    encoding="utf-8")
    report = judged(path)
    assert len(report.output.encode()) <= runner.Limits().output_bytes
    assert report.output_dropped > 4_000_000


def test_after_one_hang_the_rest_of_a_files_tests_get_a_shorter_guard(tmp_path):
    """A file that hangs in one test has shown it can; its later tests get
    Limits.seconds_after_a_hang, so a file that hangs everywhere cannot hold a class's grading
    for seconds_per_test times its test count."""
    path = tmp_path / "harness.py"
    path.write_text(base_text("solution") + "\n" +
                    (SUBMISSIONS / "hangs_in_a_busy_loop.py").read_text(), encoding="utf-8")
    timeouts = [o.message for o in judged(path).outcomes if o.verdict == "timeout"]
    assert len(timeouts) >= 2
    assert "1.5 seconds" in timeouts[0]
    assert all("for 1 second " in message for message in timeouts[1:])
