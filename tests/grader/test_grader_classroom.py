"""GitHub Classroom scores a lab's partial work test by test, in the form its autograding reporter
reads, and a student cannot edit the tests away unseen: the workflow checks the course files
against the digests it carries from the instructor's copy (issue 29).

Each cheat is tried as a student would try it, in a repository made from the week's release:
first with the course's plain checker (what the workflow ran before), which it fools, then
through the workflow's own step, which scores it nothing and names the file. The last tests pin
down what the workflow cannot stop: a student who edits the digest along with the test, and a
file that replays the release's expected values.
"""
import ast
import base64
import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from lab.check import manifest, runner, seeds, suite
from tests.grader.replay import replay_file

from grader import classroom, plan as plans, release
from grader.errors import GraderError

WEEK = manifest.lab("5.1")
STEP = "lab-5-1"
HARNESS = f"work/{WEEK.folder}/harness.py"
TESTS = WEEK.tests.relative_to(manifest.KIT).as_posix()
EXPECTED = WEEK.expected.relative_to(manifest.KIT).as_posix()
WORKFLOW = ".github/workflows/classroom.yml"


@pytest.fixture(scope="module")
def week(tmp_path_factory):
    out = tmp_path_factory.mktemp("classroom") / "course"
    release.build(out, through=WEEK.id)
    return out


def student_repo(week: Path, where: Path, harness: str) -> Path:
    """A student's repository: the week's release, the workflow, and their harness.py."""
    repo = where / "repo"
    shutil.copytree(week, repo)
    classroom.write(WEEK.id, repo)
    (repo / HARNESS).parent.mkdir(parents=True, exist_ok=True)
    (repo / HARNESS).write_text(harness, encoding="utf-8")
    return repo


def _env(**more) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"  # `python`
    return {**env, **more}


def workflow_run(repo: Path) -> tuple[dict, str]:
    """The repository's own workflow's scoring step, run as GitHub Actions runs it: its script
    under bash in the repository, with `python` on the PATH and GITHUB_OUTPUT set. Returns the
    result it hands the reporter, decoded, and what it printed."""
    steps = yaml.safe_load((repo / WORKFLOW).read_text(encoding="utf-8"))[
        "jobs"]["run-autograding-tests"]["steps"]
    script = next(step for step in steps if step.get("id") == STEP)["run"]
    output = repo.parent / "github-output"
    done = subprocess.run(["bash", "-e", "-c", script], cwd=repo, capture_output=True,
                          text=True, timeout=600, env=_env(GITHUB_OUTPUT=str(output)))
    assert done.returncode == 0, done.stdout + done.stderr
    results = [line for line in output.read_text(encoding="utf-8").splitlines()
               if line.startswith("result=")]
    assert len(results) == 1, results
    return json.loads(base64.b64decode(results[0][len("result="):])), done.stdout


def plain_check(repo: Path) -> tuple[int, int]:
    """(passed, failed) from the course's own checker, as the workflow ran it before."""
    done = subprocess.run([sys.executable, "lab/lab_check.py", "--harness", HARNESS, "--lesson",
                           str(WEEK.lesson.number), TESTS], cwd=repo, capture_output=True,
                          text=True, timeout=600, env=_env())
    counts = re.search(r"^(\d+) passed, (\d+) failed$", done.stdout, re.M)
    assert counts, done.stdout + done.stderr
    return int(counts[1]), int(counts[2])


def score(result: dict) -> float:
    return sum(test["score"] for test in result["tests"])


@pytest.fixture(scope="module")
def starter(week, tmp_path_factory):
    """The starter's honest run: its result, and the plain checker's counts."""
    repo = student_repo(week, tmp_path_factory.mktemp("starter"),
                        WEEK.starter.read_text(encoding="utf-8"))
    result, printed = workflow_run(repo)
    return {"result": result, "printed": printed, "counts": plain_check(repo)}


def failing(starter) -> list[str]:
    """The ids of the tests the starter fails, every one of them lab 5.1's own."""
    ids = [test["test_code"] for test in starter["result"]["tests"] if test["status"] != "pass"]
    assert ids and all(i.startswith(WEEK.test_stem + "::") for i in ids), ids
    return ids


# --- partial work, as Classroom reads it -------------------------------------------------------

def test_partial_work_scores_the_points_of_each_test_it_passes(starter):
    plan = plans.make(WEEK.id)
    result, (passed, failed) = starter["result"], starter["counts"]
    points = {t.id: t.points for t in plan.tests}
    assert result["version"] == 1 and result["status"] == "fail"
    assert result["max_score"] == plan.max_score
    assert [test["test_code"] for test in result["tests"]] == list(points)
    assert sum(test["status"] == "pass" for test in result["tests"]) == passed
    assert failed and 0 < score(result) < plan.max_score
    for test in result["tests"]:
        assert test["score"] == (points[test["test_code"]] if test["status"] == "pass" else 0)
        assert test["name"] and (test["status"] == "pass" or test["message"])
    assert f"Points for lab {WEEK.id}: {score(result):g} of {plan.max_score:g}." in \
        starter["printed"]
    assert f"{passed} passed, {failed} failed" in starter["printed"]  # the checker's own lines


def test_the_reference_scores_every_point(week, tmp_path):
    repo = student_repo(week, tmp_path, WEEK.solution.read_text(encoding="utf-8"))
    result, _ = workflow_run(repo)
    assert result["status"] == "pass" and score(result) == result["max_score"] > 0


def test_the_reporter_step_reads_the_scoring_steps_result(week, tmp_path):
    steps = yaml.safe_load(classroom.workflow(WEEK.id))["jobs"]["run-autograding-tests"]["steps"]
    reporter = steps[-1]
    assert reporter["uses"] == "classroom-resources/autograding-grading-reporter@v1"
    assert reporter["with"]["runners"] == STEP
    assert reporter["env"] == {f"{STEP.upper()}_RESULTS": f"${{{{steps.{STEP}.outputs.result}}}}"}


def test_the_workflow_holds_only_the_tests_of_its_lab_and_the_labs_before_it():
    held = {name for name in classroom.released(WEEK.id)["files"] if name.startswith("starters/")}
    graded = [*manifest.before(WEEK.id), WEEK]
    assert held == {f"starters/{lab.folder}/{name}" for lab in graded
                    for name in ("tests.py", "expected.json")}
    assert all(f"/{lab.folder}/" not in classroom.workflow(WEEK.id)
               for lab in manifest.labs(built_only=True) if lab not in graded)


def test_a_repository_without_the_students_file_says_where_it_goes(week, tmp_path):
    repo = student_repo(week, tmp_path, "")
    (repo / HARNESS).unlink()
    result, printed = workflow_run(repo)
    assert score(result) == 0 and result["status"] == "error"
    assert f"This repository holds no {HARNESS}, so no test ran." in printed
    assert f"`course start {WEEK.id}` puts your file there" in result["tests"][0]["message"]


def test_the_workflow_is_not_written_into_a_copy_it_would_score_nothing_in(week, tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(week, repo)
    missing = r"\(starters/06-budgets/lab1/expected\.json \(missing\), "
    with pytest.raises(GraderError, match=missing):
        classroom.write("6.1", repo)
    with (repo / "lab" / "check" / "verdict.py").open("a", encoding="utf-8") as handle:
        handle.write("# the instructor's later edit\n")
    with pytest.raises(GraderError, match=r"\(lab/check/verdict\.py \(changed\)\)"):
        classroom.write(WEEK.id, repo)
    assert not (repo / WORKFLOW).exists()


def test_every_labs_workflow_feeds_python_the_scorer_whole():
    """The scorer rides in a YAML block and a shell heredoc: neither may cut it short."""
    for lab in manifest.labs(built_only=True):
        text = classroom.workflow(lab.id)
        steps = yaml.safe_load(text)["jobs"]["run-autograding-tests"]["steps"]
        script = steps[2]["run"].splitlines()
        assert script[0] == ('exec env -u GITHUB_OUTPUT -u GITHUB_ENV -u GITHUB_PATH '
                             '-u GITHUB_STATE -u GITHUB_STEP_SUMMARY python -I - '
                             '3>>"$GITHUB_OUTPUT" <<\'SCORE\''), script[0]
        assert script.index("SCORE") == len(script) - 1
        compile("\n".join(script[1:-1]), f"the {lab.id} workflow's scorer", "exec")


# --- a student's cheats --------------------------------------------------------------------

def _scores_nothing_naming(result: dict, printed: str, what: str) -> None:
    assert score(result) == 0 and result["status"] == "error"
    assert what in printed
    assert all(what in test["message"] for test in result["tests"])


def test_deleting_the_failing_tests_scores_nothing(week, tmp_path, starter):
    repo = student_repo(week, tmp_path, WEEK.starter.read_text(encoding="utf-8"))
    source = (repo / TESTS).read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    names = {test_id.split("::")[1] for test_id in failing(starter)}
    for node in reversed(ast.parse(source).body):
        if isinstance(node, ast.AsyncFunctionDef) and node.name in names:
            del lines[node.decorator_list[0].lineno - 1:node.end_lineno]
    (repo / TESTS).write_text("".join(lines), encoding="utf-8")
    assert plain_check(repo) == (starter["counts"][0], 0)  # all or nothing gave every point
    result, printed = workflow_run(repo)
    _scores_nothing_naming(result, printed, f"{TESTS} (changed)")


def _edit_a_test_to_pass(repo: Path) -> None:
    """test_error_message checks its own wanted values instead of the student's function's:
    within it, every call of harness.error_message becomes a call of a function of the test's
    own that makes the wanted message, whatever cases the test holds."""
    source = (repo / TESTS).read_text(encoding="utf-8")
    node = next(n for n in ast.parse(source).body
                if isinstance(n, ast.AsyncFunctionDef) and n.name == "test_error_message")
    lines = source.splitlines(keepends=True)
    head, body = lines[:node.lineno], "".join(lines[node.lineno:node.end_lineno])
    made = ('    def made(reason):\n        return {"role": "assistant", "content": [], '
            '"stop_reason": "error", "error_message": reason}\n')
    edited = "".join(head) + made + body.replace("harness.error_message(", "made(") + \
        "".join(lines[node.end_lineno:])
    assert "harness.error_message(" in body and edited != source
    (repo / TESTS).write_text(edited, encoding="utf-8")


def test_editing_a_test_to_pass_scores_nothing(week, tmp_path, starter):
    repo = student_repo(week, tmp_path, WEEK.starter.read_text(encoding="utf-8"))
    _edit_a_test_to_pass(repo)
    assert plain_check(repo)[0] == starter["counts"][0] + 1
    result, printed = workflow_run(repo)
    _scores_nothing_naming(result, printed, f"{TESTS} (changed)")


def test_editing_expected_json_to_what_the_file_found_scores_nothing(week, tmp_path, starter):
    repo = student_repo(week, tmp_path, WEEK.starter.read_text(encoding="utf-8"))
    recorded = json.loads((repo / EXPECTED).read_text(encoding="utf-8"))
    # What the starter finds at each check, from a run with nothing to judge it by.
    found = runner.run(repo / HARNESS, suite.of_lab(WEEK.id),
                       seeds.Expected({}, recorded["seed"])).outcomes
    for outcome in found:
        entry = recorded["tests"].get(outcome.id)
        if entry and outcome.id in failing(starter) and \
                len(outcome.found or ()) == len(entry["checks"]):
            entry["checks"] = [_encoded(value) for _, value in outcome.found]
    (repo / EXPECTED).write_text(json.dumps(recorded, ensure_ascii=False), encoding="utf-8")
    assert plain_check(repo)[0] > starter["counts"][0]
    result, printed = workflow_run(repo)
    _scores_nothing_naming(result, printed, f"{EXPECTED} (changed)")


def _encoded(shown: str) -> str:
    """A found value as expected.json holds it: the checker shows a string without quotes."""
    try:
        json.loads(shown)
        return shown
    except ValueError:
        return json.dumps(shown, ensure_ascii=False)


def test_a_module_added_to_the_lab_package_scores_nothing(week, tmp_path):
    """A package folder named like a released module is imported in its place."""
    repo = student_repo(week, tmp_path, WEEK.solution.read_text(encoding="utf-8"))
    added = repo / "lab" / "check" / "verdict" / "__init__.py"
    added.parent.mkdir()
    added.write_text("raise SystemExit('not the released verdicts')\n", encoding="utf-8")
    result, printed = workflow_run(repo)
    _scores_nothing_naming(result, printed, "lab/check/verdict/__init__.py (added)")


def test_a_file_that_edits_the_tests_while_it_runs_scores_nothing(week, tmp_path):
    attack = ("\nfrom pathlib import Path as _Path\n"
              f"_tests = _Path(__file__).resolve().parents[3] / {TESTS!r}\n"
              "_tests.write_text(_tests.read_text() + '\\n# changed while running\\n')\n")
    repo = student_repo(week, tmp_path, WEEK.solution.read_text(encoding="utf-8") + attack)
    result, printed = workflow_run(repo)
    _scores_nothing_naming(result, printed, f"{TESTS} (changed)")


def test_a_file_is_not_told_where_the_step_writes_its_result(week, tmp_path):
    """A file that writes a full score as the step's result would be heard by the reporter;
    the scorer takes GitHub's step files out of the environment the file runs in."""
    forged = base64.b64encode(json.dumps(
        {"version": 1, "status": "pass", "max_score": 1,
         "tests": [{"name": "forged", "status": "pass", "score": 1000}]}).encode()).decode()
    attack = ("\nimport os as _os\n"
              "for _name in ('GITHUB_OUTPUT', 'GITHUB_ENV'):\n"
              "    if _os.environ.get(_name):\n"
              "        with open(_os.environ[_name], 'a') as _file:\n"
              f"            _file.write('result={forged}\\n')\n")
    repo = student_repo(week, tmp_path, WEEK.starter.read_text(encoding="utf-8") + attack)
    result, _ = workflow_run(repo)  # which finds one result in the step's output, its own
    assert 0 < score(result) < result["max_score"]


def test_a_module_beside_the_lab_package_never_takes_the_standard_librarys_place(
        week, tmp_path, starter):
    """Issue 40: a tomllib.py at the repository's root was imported by the scorer in place of
    Python's own, and could change any verdict; the scorer imports the lab package from the
    repository and nothing else. (The student's own process may import it: that is theirs.)"""
    repo = student_repo(week, tmp_path, WEEK.starter.read_text(encoding="utf-8"))
    (repo / "tomllib.py").write_text(
        "import sys\n"
        "if sys.argv[:1] == ['-']:  # the scorer, fed on standard input\n"
        "    open(__file__ + '.ran', 'w').close()\n"
        "sys.path = [p for p in sys.path if p not in ('', __file__.rsplit('/', 1)[0])]\n"
        "del sys.modules['tomllib']\n"
        "import tomllib as _real\n"
        "sys.modules['tomllib'] = _real\n", encoding="utf-8")
    result, _ = workflow_run(repo)
    assert not (repo / "tomllib.py.ran").exists(), (
        "the scorer imported the repository's tomllib.py: the standard library's must come first")
    assert score(result) == score(starter["result"]), (
        f"the starter beside a tomllib.py scored {score(result)}, alone "
        f"{score(starter['result'])}")


def test_a_file_that_searches_every_process_for_the_output_file_finds_none(week, tmp_path):
    """Issue 40: the scorer took GITHUB_OUTPUT out of its own environment, but a process's
    first environment stays in /proc/PID/environ, where the student's file read it. The step's
    shell gives way to the scorer with the step files out of the environment, so no process
    of the step holds the path there."""
    forged = base64.b64encode(json.dumps(
        {"version": 1, "status": "pass", "max_score": 1,
         "tests": [{"name": "forged", "status": "pass", "score": 1000}]}).encode()).decode()
    attack = ("\nimport os as _os\n"
              "for _pid in [p for p in _os.listdir('/proc') if p.isdigit()]:\n"
              "    try:\n"
              "        _env = open(f'/proc/{_pid}/environ', 'rb').read().split(b'\\0')\n"
              "    except OSError:\n"
              "        continue\n"
              "    for _line in _env:\n"
              "        if _line.startswith(b'GITHUB_OUTPUT='):\n"
              "            with open(_line[len(b'GITHUB_OUTPUT='):], 'a') as _file:\n"
              f"                _file.write('result={forged}\\n')\n")
    repo = student_repo(week, tmp_path, WEEK.starter.read_text(encoding="utf-8") + attack)
    result, _ = workflow_run(repo)  # which finds one result in the step's output, its own
    assert 0 < score(result) < result["max_score"]


@pytest.mark.skipif(sys.platform != "linux" or os.geteuid() != 0,
                    reason="needs Linux, and root to run the scorer as a user of its own")
def test_the_scorers_child_of_its_own_user_cannot_read_the_scorers_proc_files():
    """What a hosted runner has: the scorer and the student's process under one user. The
    scorer makes itself undumpable, so its environment and its descriptor 3 (the output file)
    are out of the child's reach; run as nobody, as a runner's user is not root."""
    from grader import classroom_score
    code = Path(classroom_score.__file__).read_text(encoding="utf-8") + (
        "\nimport subprocess\nhide()\n"
        "child = ('import os\\n'\n"
        "         'for what in (\"environ\", \"fd/3\"):\\n'\n"
        "         '    try:\\n'\n"
        "         '        open(f\"/proc/{os.getppid()}/{what}\").close()\\n'\n"
        "         '        print(what, \"read\")\\n'\n"
        "         '    except OSError as e:\\n'\n"
        "         '        print(what, type(e).__name__)\\n')\n"
        "print(subprocess.run([sys.executable, '-I', '-c', child], capture_output=True,"
        " text=True).stdout, end='')\n")
    done = subprocess.run(
        "exec python3 -I - 3>>/dev/null", shell=True, input=code, cwd="/",
        capture_output=True, text=True, timeout=60, user=65534, group=65534,
        env={"PATH": os.environ["PATH"], "GITHUB_OUTPUT": "/dev/null"})
    assert done.stdout == "environ PermissionError\nfd/3 PermissionError\n", (
        f"the student's process, of the scorer's user, could reach the scorer's /proc files:\n"
        f"{done.stdout}{done.stderr}")


# --- what the workflow cannot stop --------------------------------------------------------

def test_a_student_who_edits_the_digest_too_gets_the_score_they_wrote(week, tmp_path, starter):
    """The digests are in the student's repository: edited with the test, they let the edited
    test count. Classroom's protected paths cover the workflow and the tests, so the assignment's
    view flags the change; the instructor's own grading is the score to trust."""
    repo = student_repo(week, tmp_path, WEEK.starter.read_text(encoding="utf-8"))
    before = hashlib.sha256((repo / TESTS).read_bytes()).hexdigest()
    _edit_a_test_to_pass(repo)
    after = hashlib.sha256((repo / TESTS).read_bytes()).hexdigest()
    text = (repo / WORKFLOW).read_text(encoding="utf-8")
    assert text.count(before) == 1
    (repo / WORKFLOW).write_text(text.replace(before, after), encoding="utf-8")
    result, _ = workflow_run(repo)
    assert score(result) == score(starter["result"]) + 1
    for path in (WORKFLOW, TESTS, EXPECTED, "lab/check/runner.py"):
        assert any(fnmatch.fnmatch(path, pattern) for pattern in classroom.PROTECTED), path
    assert all(pattern in classroom.workflow(WEEK.id) for pattern in classroom.PROTECTED)


def test_a_file_that_replays_the_releases_expected_values_gets_every_point(week, tmp_path):
    """Under the public seed the release's expected.json holds every value a test wants; only
    the grader's secret seed (python -m grader grade, Gradescope) draws cases it does not."""
    repo = student_repo(week, tmp_path, replay_file(week))
    result, _ = workflow_run(repo)
    assert score(result) == result["max_score"]
