"""A batch goes on whatever jams its pool of workers. Where submissions run as the grader's own
user, one can write into the grader's own pipes (grader/batch.py's pool): the pool then sends no
result, and after Settings.stall_seconds it is ended and what it held is graded again alone; the
one that jams its worker alone too gets a row that says so. And a sandboxed child never sits in
its scratch folder while it holds its worker's descriptors (lab/check/process.py), which is
how a spy beside it once reached them."""
import json
import os
import signal
import time

import pytest

from tests.grader.gradeclass import LAB, ROOT, base_text, mark, running, snippet

from grader import batch, plan as plans
from lab.check import manifest, process, runner, suite

JAMMER = "jams_the_graders_pipes"
NEIGHBOURS = ["alice", "bob", "yann", "zoe"]
# A lab of ten tests, whose reference takes well under a second, so that these limits can be
# small, and with them the stall limit that follows from them: 2 × (2 + 2) + STARTING, where
# the jam test takes STARTING down from 10 s to QUICK_START (a worker of this small lab starts
# in well under that): 10 seconds.
SMALL = manifest.lab("2.1")
SETTINGS = batch.Settings(seconds_per_test=1.0, seconds_per_submission=2.0)
QUICK_START = 2.0


def grade_beside_the_jammer(tmp_path, **options):
    """The jammer and four copies of the reference of a small lab, graded two at a time:
    {student: row}, the sandbox's statement, the seconds the batch took and the processes the
    jammer left holding the grader's pipes that are still running."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    reference = SMALL.solution.read_text(encoding="utf-8")
    for name in NEIGHBOURS:
        (folder / f"{name}.py").write_text(reference, encoding="utf-8")
    (folder / f"{JAMMER}.py").write_text(reference + "\n" + snippet(JAMMER, folder=folder),
                                         encoding="utf-8")
    subs, _ = batch.find(folder)
    started = time.monotonic()
    rows, said = batch.grade_all(plans.make(SMALL.id), subs, tmp_path / "out", jobs=2,
                                 settings=SETTINGS, **options)
    seconds = time.monotonic() - started
    left = running(mark(folder, JAMMER))
    for pid in left:  # a failed test leaves nothing on the machine either
        os.kill(int(pid), signal.SIGKILL)
    return {r.student: r for r in rows}, said, seconds, left


def test_a_submission_that_jams_its_pool_costs_time_and_no_neighbour_its_grade(tmp_path,
                                                                              monkeypatch):
    # This test waits: nothing but time tells a jammed pool from a slow one, so the batch waits
    # SETTINGS.stall_seconds() twice, once for the pool of two and once for the jammer alone.
    # A pool judged jammed too soon costs nothing but time: what it held is graded again alone.
    monkeypatch.setattr(batch, "STARTING", QUICK_START)
    rows, said, seconds, left = grade_beside_the_jammer(tmp_path, level="limits",
                                                        allow_shared_user=True)
    for name in NEIGHBOURS:
        assert rows[name].verdict == "full marks", (
            f"{name}, the reference graded beside a submission that jams the grader's pipes, "
            f"got {rows[name].verdict}: {rows[name].problem or rows[name].tests}. Every "
            "submission the jammed pool held must be graded again alone (grader/batch.py).")
    jammed = rows[JAMMER]
    assert jammed.verdict != "full marks" and "stopped answering" in (jammed.problem or ""), (
        f"the jammer, which writes garbage into its worker's pipes, got {jammed.verdict} "
        f"({jammed.problem!r}, {jammed.import_error!r}); its row must say the grader's worker "
        "stopped answering")
    assert f"{SETTINGS.stall_seconds():g} seconds" in jammed.problem
    assert seconds >= 2 * SETTINGS.stall_seconds(), (
        f"the batch took {seconds:.1f} s, less than two stall limits: did the jam happen?")
    assert any("grader's own pipes" in line and "costs time, not other grades" in line
               for line in said["cannot_prevent"]), said["cannot_prevent"]
    # The jammer left a process in a session of its own holding those pipes, so that they
    # never end: the batch killed it, or its pool could not have been shut down.
    assert left == [], f"the process the jammer left holding the grader's pipes runs: {left}"


@pytest.mark.skipif(not ROOT, reason="users of their own need the grader to run as root")
def test_with_users_of_their_own_the_jammer_reaches_no_pipe_of_the_grader(tmp_path):
    rows, said, _, left = grade_beside_the_jammer(tmp_path)
    assert said["own_users"], said["holds"]
    for name in [*NEIGHBOURS, JAMMER]:
        assert rows[name].verdict == "full marks", (name, rows[name].problem, rows[name].tests)
    assert "its worker's pipes written: 0" in rows[JAMMER].output, rows[JAMMER].output
    assert left == []
    assert not any("grader's own pipes" in line for line in said["cannot_prevent"])


def test_the_stall_limit_follows_from_the_settings_and_the_readme_says_it():
    # The kit's run (seconds_per_submission), then the hidden run's first verdict (an import
    # and one test, or a whole run if that is less), twice; and ten seconds to start.
    assert batch.Settings(seconds_per_test=5, seconds_per_submission=120).stall_seconds() == \
        2 * (120 + 10 + 5) + 10
    assert SETTINGS.stall_seconds() == 2 * (2 + 2) + 10
    readme = " ".join((manifest.KIT / "README.md").read_text(encoding="utf-8").split())
    said = (f"(`Settings.stall_seconds` in `grader/batch.py`: "
            f"{batch.Settings().stall_seconds():g} seconds at the defaults)")
    assert said in readme, f"the README's Grading section must say {said}"


def held() -> set[int]:
    """This process's open descriptors (not the one that listed them, closed by now)."""
    found = set()
    for n in os.listdir("/proc/self/fd"):
        try:
            os.fstat(int(n))
            found.add(int(n))
        except OSError:
            pass
    return found


@pytest.mark.parametrize("portable", ["0", "1"])
def test_a_sandboxed_child_is_in_its_folder_only_once_it_holds_none_of_its_parents_files(
        tmp_path, monkeypatch, portable):
    """Where a child is and what it holds when the caller's preexec_fn runs (the grader's
    sandbox, which needs the child in its folder), on either path: none of this process's
    descriptors (a pipe of this test's stands for the worker's queues), only what subprocess
    made for it."""
    monkeypatch.setenv(process.PORTABLE_ENV, portable)
    seen, folder = tmp_path / "seen.json", tmp_path / "scratch"
    folder.mkdir()
    (folder / "harness.py").write_text(base_text("solution"), encoding="utf-8")
    reading, writing = os.pipe()
    before = held()

    def sandbox():  # between fork and exec
        found = json.dumps([os.getcwd(), sorted(held())]).encode()
        fd = os.open(seen, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
        os.write(fd, found)
        os.close(fd)

    try:
        report = runner.run(folder / "harness.py", suite.of_lab(LAB.id)[:1], {},
                            limits=runner.Limits(seconds_total=30), cwd=folder,
                            preexec_fn=sandbox)
        # Open in this process all along, so the child's numbers cannot be reused ones.
        ours = (before & held()) - {0, 1, 2}
    finally:
        os.close(reading)
        os.close(writing)
    assert report.outcomes
    where, child_held = json.loads(seen.read_text())
    assert where == str(folder), f"the sandbox ran in {where}, not the child's folder {folder}"
    assert {reading, writing} <= ours and not ours & set(child_held), (
        f"in its folder, the child still held this process's descriptors "
        f"{sorted(ours & set(child_held))}: a process beside it, as the same user, could write "
        "into them through /proc (lab/check/process.py's _entered closes them first)")
