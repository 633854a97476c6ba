"""The checker's plumbing (lab/check/runner.py and child.py): how the child is started on each
path, what harness.py's prints and reads become, and that stopping the checker leaves no child.

The portable path is the one Windows takes; HARNESS_CHECK_PORTABLE=1 makes Linux take it, which
is how these tests reach it here.
"""
import os
import select
import signal
import subprocess
import sys
import threading
import tomllib
from pathlib import Path

import pytest

from lab.check import manifest, own_threads, process, runner, suite, turns, words
from lab.desk import course

LAB = manifest.lab("2.1")
POSIX = os.name == "posix"
PATHS = [pytest.param("posix", marks=pytest.mark.skipif(not POSIX, reason="POSIX only")),
         "portable"]


@pytest.fixture
def path(request, monkeypatch):
    """Which way the runner starts its children in this test: "posix" or "portable"."""
    if request.param == "portable":
        monkeypatch.setenv(runner.PORTABLE_ENV, "1")
    else:
        monkeypatch.delenv(runner.PORTABLE_ENV, raising=False)
    return request.param


class Started:
    """Popen, recording the options each child was started with."""

    def __init__(self, monkeypatch):
        self.options = []
        real = subprocess.Popen

        def popen(args, **options):
            self.options.append(options)
            return real(args, **options)
        monkeypatch.setattr(process.subprocess, "Popen", popen)


def judged(folder, text, **options):
    path = folder / "harness.py"
    path.write_text(text, encoding="utf-8")
    files = suite.of_lab(LAB.id, cumulative_=False)
    return runner.run(path, files, runner.expected_for(files), **options)


def solution():
    return LAB.solution.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", ["portable"], indirect=True)
def test_the_portable_path_starts_the_child_with_only_what_every_system_has(
        tmp_path, path, monkeypatch):
    started = Started(monkeypatch)
    monkeypatch.setattr(process, "_posix_tie", lambda *a: pytest.fail("POSIX hardening used"))
    if POSIX:
        monkeypatch.delattr(os, "killpg")
    report = judged(tmp_path, solution())
    assert report.outcomes and report.failed == 0
    assert not {"preexec_fn", "pass_fds", "start_new_session"} & set(started.options[0])


@pytest.mark.skipif(not POSIX, reason="POSIX only")
@pytest.mark.parametrize("path", ["posix"], indirect=True)
def test_the_posix_path_starts_the_child_in_a_session_of_its_own_under_a_guard(
        tmp_path, path, monkeypatch):
    monkeypatch.setenv(process.FORK_ENV, "0")  # a new interpreter: forked children are test_zygote's
    started = Started(monkeypatch)
    report = judged(tmp_path, solution())
    assert report.outcomes and report.failed == 0
    assert started.options[0]["start_new_session"] and callable(started.options[0]["preexec_fn"])


@pytest.mark.skipif(not POSIX, reason="the grader's sandbox is POSIX only")
@pytest.mark.parametrize("path", PATHS, indirect=True)
def test_a_callers_preexec_fn_runs_in_every_child_on_either_path(tmp_path, path):
    marker = str(tmp_path / "sandboxed")

    def sandbox():  # between fork and exec: system calls only
        os.close(os.open(marker, os.O_CREAT | os.O_WRONLY, 0o600))

    report = judged(tmp_path, solution(), preexec_fn=sandbox)
    assert report.failed == 0 and os.path.exists(marker)


def test_on_windows_a_callers_preexec_fn_is_refused_with_a_reason(monkeypatch):
    monkeypatch.setattr(runner, "portable", lambda: True)
    monkeypatch.setattr(process.os, "name", "nt")
    with pytest.raises(RuntimeError, match="only on Linux"):
        process.start_options(runner.Limits(), preexec_fn=lambda: None)


PRINTS_AND_READS = """
import sys

print("printed at import")
READ = sys.stdin.read()  # the job's pipe is not harness.py's: this reads nothing, at once
print(f"read {len(READ)} characters")
"""


@pytest.mark.parametrize("path", PATHS, indirect=True)
def test_what_harness_py_prints_is_its_output_and_its_standard_input_is_empty(tmp_path, path):
    report = judged(tmp_path, solution() + PRINTS_AND_READS)
    assert report.outcomes and report.failed == 0
    assert report.output == "printed at import\nread 0 characters\n"


TAMPERS_AT_IMPORT = (Path(__file__).parent / "submissions" / "tampers_with_the_channel.py") \
    .read_text(encoding="utf-8")


@pytest.mark.parametrize("path", PATHS, indirect=True)
def test_a_file_that_writes_into_the_channel_while_imported_fails_every_test_in_one_child(
        tmp_path, path, monkeypatch):
    """Every child would import it and write again, so, as with an import that fails, the
    verdict is the file's: each test fails with the reason, and no child is started again."""
    started = Started(monkeypatch)
    monkeypatch.setenv("HARNESS_CHECK_FORK", "0")  # every child through Popen, to be counted
    report = judged(tmp_path, solution() + TAMPERS_AT_IMPORT)
    count = len(suite.describe(LAB))
    assert report.import_error and "report channel" in report.import_error, (
        f"A file that writes a forged report at import should be told, as the import's fault, "
        f"that it wrote into the report channel; the report's import_error: "
        f"{report.import_error!r} (lab/check/runner.py, _Session._forged)")
    assert [o.verdict.value for o in report.outcomes] == ["fail"] * count, (
        f"Each of the lab's {count} tests should fail; verdicts: "
        f"{[o.verdict.value for o in report.outcomes]}")
    assert len(started.options) <= 2, (
        f"{len(started.options)} children were started for a file whose import forges a report: "
        "one, and the spare started for a file that lost one, should be all "
        "(lab/check/runner.py, run)")


BLOCKS_AND_SAYS_WHO = """
import os
import time

_plain_text_of = text_of


def text_of(message):
    pipe = os.open("pid.fifo", os.O_WRONLY)
    os.write(pipe, f"{os.getpid()}\\n".encode())
    os.close(pipe)
    time.sleep(600)  # the guards are set beyond this test's life: only the checker can end it
    return _plain_text_of(message)
"""


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="watches a process with a Linux pidfd")
@pytest.mark.parametrize("path", PATHS, indirect=True)
@pytest.mark.parametrize("how", ["ctrl-c", "killed"])
def test_stopping_the_checker_leaves_no_child(tmp_path, path, how):
    """Ctrl-C reaches the checker's whole process group, as in a terminal; a checker killed
    outright has no chance to clean up, so its child must notice by itself: by Linux's
    parent-death signal on the POSIX path, by its standard input closing on the portable one."""
    folder = tmp_path / "lab1"
    folder.mkdir()
    course.forward_package(folder)
    (folder / "tests.py").write_text(LAB.tests.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "harness.py").write_text(solution() + BLOCKS_AND_SAYS_WHO, encoding="utf-8")
    os.mkfifo(folder / "pid.fifo")
    said = os.open(folder / "pid.fifo", os.O_RDONLY | os.O_NONBLOCK)
    checker = subprocess.Popen(
        [sys.executable, "lab/lab_check.py", "--harness", "harness.py", "--lesson", "2",
         "tests.py", "--seconds", "600"], cwd=folder, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        assert select.select([said], [], [], 60)[0], "the child never reached the test"
        child = int(os.read(said, 100).decode().split()[0])
        watch = os.pidfd_open(child)
        if how == "ctrl-c":
            os.killpg(checker.pid, signal.SIGINT)
        else:
            os.kill(checker.pid, signal.SIGKILL)
        checker.wait(timeout=60)
        assert select.select([watch], [], [], 60)[0], "the child outlived the checker"
        os.close(watch)
    finally:
        os.close(said)
        if checker.poll() is None:
            checker.kill()
            checker.wait()
    if how == "ctrl-c":
        assert checker.returncode == 130


SUBMISSIONS = Path(__file__).parent / "submissions"
KINDS = sorted(tomllib.loads((SUBMISSIONS / "submissions.toml").read_text(encoding="utf-8")))


@pytest.mark.skipif(not POSIX or os.environ.get(runner.PORTABLE_ENV) == "1",
                    reason="compares the POSIX path with the portable one, each set here")
@pytest.mark.parametrize("kind", KINDS)
def test_both_paths_give_a_bad_submission_the_same_verdicts(tmp_path, monkeypatch, kind):
    case = tomllib.loads((SUBMISSIONS / "submissions.toml").read_text(encoding="utf-8"))[kind]
    lab = manifest.lab("15.1")
    base = {"solution": lab.solution, "starter": lab.starter}.get(case["base"])
    path = tmp_path / "harness.py"
    path.write_text((base.read_text(encoding="utf-8") if base else "") + "\n" +
                    (SUBMISSIONS / f"{kind}.py").read_text(encoding="utf-8"), encoding="utf-8")
    files = suite.of_lab(lab.id, cumulative_=False)
    verdicts = []
    for portable in ("", "1"):
        monkeypatch.setenv(runner.PORTABLE_ENV, portable)
        report = runner.run(path, files, runner.expected_for(files),
                            limits=runner.Limits(seconds_per_test=2, seconds_to_import=5))
        verdicts.append({o.id: o.verdict for o in report.outcomes})
    assert verdicts[0] == verdicts[1]


def test_the_childs_own_threads_do_not_hide_a_test_that_can_never_go_on(monkeypatch):
    """The child's heartbeat and its watch on the runner's pipe run for the whole process; a
    test waiting for something that can never happen must still be seen as stuck beside them.
    (Threads this test process already has, such as an idle pool's worker left by an earlier
    test, stand for the checker's own too: counted as work, they would hang this test.)"""
    here = threading.current_thread()
    monkeypatch.setattr(own_threads, "_not_work",
                        [t for t in threading.enumerate() if t is not here])
    release = threading.Event()
    own = threading.Thread(target=release.wait, daemon=True)
    own.start()
    turns.not_work(own)

    async def waits_for_ever():
        import asyncio
        await asyncio.get_running_loop().create_future()

    try:
        with pytest.raises(turns.OutOfTurns) as stopped:
            turns.run(waits_for_ever())
        assert stopped.value.stalled.how == "waiting", \
            f"a coroutine that waits on a future no one sets stopped as {stopped.value.stalled}"
    finally:
        release.set()
        own.join()


def test_a_crash_windows_reports_is_named_as_a_crash():
    said = words.died(0xC0000005)
    assert "crashed during this test" in said and "0xC0000005" in said


def test_the_grader_says_plainly_that_it_grades_only_on_linux(tmp_path, monkeypatch):
    """The grader's sandbox is made of Linux namespaces and users; started elsewhere, it says
    so instead of failing on a missing module (its CLI prints this message and exits 2)."""
    from grader import sandbox
    monkeypatch.setattr(sandbox.sys, "platform", "win32")
    with pytest.raises(sandbox.SandboxError, match="only on Linux"):
        sandbox.prepare(tmp_path / "box")
