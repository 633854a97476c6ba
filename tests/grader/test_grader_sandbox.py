"""The sandbox a submission runs in: the strongest level the machine allows, and a statement of
what that level cannot prevent."""
import json
import os
import resource
import subprocess
import sys

import pytest

from tests.grader.gradeclass import ROOT
from lab.check import manifest, process, runner, suite, zygote

from grader import sandbox
from grader.refusals import ProbeFailed

LOOK = r"""
import json, os, resource
def listing(path):
    try:
        return sorted(os.listdir(path))
    except OSError:
        return None
print(json.dumps({"uid": os.getuid(), "cwd": os.getcwd(), "home": os.environ.get("HOME"),
                  "env": sorted(os.environ), "solutions": listing(os.environ["KIT_SOLUTIONS"]),
                  "memory": resource.getrlimit(resource.RLIMIT_AS)[0],
                  "core": resource.getrlimit(resource.RLIMIT_CORE)[0],
                  "files": sorted(os.listdir("."))}))
"""


def look_from_inside(box):
    scratch = box.scratch(b"print('hello')\n")
    try:
        env = {**box.env(scratch), "KIT_SOLUTIONS": str(manifest.KIT / "solutions")}
        done = subprocess.run([sys.executable, "-I", "-c", LOOK], cwd=scratch, env=env,
                              preexec_fn=box.preexec(), capture_output=True, text=True,
                              timeout=60, start_new_session=True)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout), scratch
    finally:
        box.remove(scratch)


def test_the_strongest_level_is_chosen_and_says_what_it_cannot_prevent(tmp_path):
    box = sandbox.prepare(tmp_path / "box", out=tmp_path / "out")
    said = box.statement()
    assert said.level == box.level and said.holds and said.cannot_prevent
    if ROOT:
        assert box.level in ("namespaces", "user")
    else:
        assert box.level == "limits"
        assert any("your own user" in line for line in said.cannot_prevent)


def test_at_the_weakest_level_the_statement_names_what_the_child_could_read(tmp_path):
    box = sandbox.prepare(tmp_path / "box", out=tmp_path / "out", level="limits")
    said = box.statement()
    assert str(manifest.KIT / "solutions") in box.readable
    assert any("could still read" in line and "solutions" in line
               for line in said.cannot_prevent)
    assert any("can read and change" in line for line in said.cannot_prevent)


def test_a_child_gets_only_its_scratch_folder_a_clean_environment_and_the_limits(
        tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_TEST_SECRET", "do not leak")
    box = sandbox.prepare(tmp_path / "box", resources=sandbox.Resources(memory_mb=700))
    seen, scratch = look_from_inside(box)
    assert seen["cwd"] == seen["home"] == str(scratch)
    assert seen["files"] == ["harness.py"]
    assert "GRADER_TEST_SECRET" not in seen["env"]
    assert seen["memory"] == 700 * 1024 * 1024 and seen["core"] == 0
    assert resource.getrlimit(resource.RLIMIT_AS)[0] != seen["memory"], "the grader is not limited"


@pytest.mark.skipif(not ROOT, reason="only root can run a submission as another user")
def test_as_root_the_child_is_another_user_and_finds_no_solution(tmp_path):
    box = sandbox.prepare(tmp_path / "box")
    seen, _ = look_from_inside(box)
    assert seen["uid"] != 0 and seen["uid"] == box.user[0]
    assert os.listdir(manifest.KIT / "solutions"), "outside the sandbox it holds solutions"
    if box.level == "namespaces":
        assert seen["solutions"] in (None, [])  # an empty folder stands in for it
        assert not box.network and not box.readable
    else:
        assert any("namespaces" in line for line in box.statement().cannot_prevent)


def test_the_scratch_folders_parent_cannot_be_listed_by_others(tmp_path):
    box = sandbox.prepare(tmp_path / "box")
    assert os.stat(box.base).st_mode & 0o777 == 0o711


@pytest.mark.skipif(not ROOT, reason="the refusal is about running submissions as root")
def test_as_root_without_a_working_sandbox_grading_is_refused_with_the_reason(tmp_path,
                                                                            monkeypatch):
    monkeypatch.setattr(sandbox.probe, "run",
                        lambda box, hide: ProbeFailed(box.level, "start", "test"))
    with pytest.raises(sandbox.SandboxError, match="cannot be run safely here") as caught:
        sandbox.prepare(tmp_path / "box")
    assert "--unsandboxed" in str(caught.value) and "could not start (test)" in str(caught.value)
    assert all(isinstance(problem, ProbeFailed) for problem in caught.value.fact.problems), (
        "the refusal does not carry the probe's failure of each level as a record")


def test_at_the_graders_own_user_no_child_is_forked_from_the_ready_interpreter(tmp_path):
    """A child running as the grader could reach the ready interpreter and the children forked
    after it: only a child that becomes a user of its own may come from one."""
    box = sandbox.prepare(tmp_path / "box", out=tmp_path / "out", level="limits")
    assert box.preexec().forkable is None, (
        "at level limits a sandboxed child would be forked from the ready interpreter "
        "(grader/sandbox/box.py, Entering.forkable): it must start a new one")


# What a child sees, printed as harness.py is imported (runner.Report.output keeps it).
LOOK_AT_IMPORT = "\n" + LOOK.replace(
    "print(json.dumps({", "print('LOOK ' + json.dumps({\"processes\": len([p for p in "
    "os.listdir('/proc') if p.isdigit()]), ")


@pytest.mark.skipif(not ROOT, reason="children are forked into a sandbox only as root")
def test_a_forked_child_enters_the_same_sandbox_a_started_one_does(tmp_path, monkeypatch):
    """As root the runner forks each sandboxed child from its ready interpreter
    (lab/check/zygote.py), and the child enters the sandbox after the fork. What it sees (its
    user, folder, environment, limits, the kit's solutions, the processes in /proc) must be what
    a child started anew sees, and the lab's reference must pass in both."""
    box = sandbox.prepare(tmp_path / "box")
    files = suite.of_lab("2.1", cumulative_=False)
    expected = runner.expected_for(files)
    text = manifest.lab("2.1").solution.read_text(encoding="utf-8") + LOOK_AT_IMPORT
    asked = []
    real = zygote.fork
    monkeypatch.setattr(zygote, "fork", lambda *a, **k: asked.append(a) or real(*a, **k))
    seen = {}
    for how, fork in (("forked", "1"), ("started", "0")):
        monkeypatch.setenv(process.FORK_ENV, fork)
        scratch = box.scratch(text.encode())
        try:
            env = {**box.env(scratch), "KIT_SOLUTIONS": str(manifest.KIT / "solutions")}
            report = runner.run(scratch / "harness.py", files, expected, cwd=scratch, env=env,
                                preexec_fn=box.preexec())
        finally:
            box.remove(scratch)
        assert report.passed == len(report.outcomes) > 0 and not report.import_error, (
            f"the reference of lab 2.1, {how} into the sandbox, failed: "
            f"{[(o.id, o.message) for o in report.outcomes if o.verdict != 'pass'][:2]} "
            f"{report.import_error or ''}")
        look = json.loads(report.output.partition("LOOK ")[2].splitlines()[0])
        assert look["cwd"] == look["home"] == str(scratch), (how, look)
        seen[how] = {k: v for k, v in look.items() if k not in ("cwd", "home")}
        if how == "forked":
            assert asked and all(a[-1] == box.preexec().forkable for a in asked), (
                "no child was forked from the ready interpreter with the sandbox's entry")
            asked.clear()
    assert not asked, "HARNESS_CHECK_FORK=0 still forked a child"
    assert seen["forked"] == seen["started"], (
        "a forked child sees another sandbox than a started one:\n"
        f"forked:  {seen['forked']}\nstarted: {seen['started']}")
    assert seen["forked"]["uid"] == box.user[0] != 0
    if box.level == "namespaces":
        assert seen["forked"]["solutions"] in (None, [])
