"""Submissions graded side by side cannot see or touch each other, and nothing one starts outlives
its grading (issues 17 and 12): a user of its own per worker slot, a PID namespace with its own
/proc per process that runs a submission, and a sweep of the slot's user afterwards.

Each test that shows an attack failing is paired with one where the same attack succeeds (a
shared user, or no namespace), so that a spy that could find nothing anyway would be caught."""
import json
import os
import pwd
import select
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.grader.gradeclass import LAB, ROOT, base_text, in_box, make_class, mark, running

from grader import batch, plan as plans, sandbox
from grader.errors import GraderError
from grader.refusals import NoJobs

SPY = "spies_on_the_class"
NEIGHBOURS = ["zara", "zed", "zoe"]  # after the spy in name order: graded while it looks


def grade_beside_the_spy(tmp_path, **options):
    """alice, bob (the starter), the spy and three more copies of the reference, graded two at
    a time on lab 15.1's own tests (the spy looks while its neighbours are graded, whatever the
    suite); {student: row} and the isolation statement."""
    folder = make_class(tmp_path / "submissions", kinds=[SPY])
    for name in NEIGHBOURS:
        (folder / f"{name}.py").write_text(base_text("solution"), encoding="utf-8")
    subs, _ = batch.find(folder)
    plan = plans.make(LAB.id, own_lab_only=True)
    rows, isolation = batch.grade_all(plan, subs, tmp_path / "out", jobs=2,
                                      settings=batch.Settings(seconds_per_test=1.0), **options)
    return {r.student: r for r in rows}, isolation


def spy_found(row) -> dict:
    """What the spy printed it reached: {"seen": n, "read": n, "changed": n, "written": n}."""
    line = next(x for x in row.output.splitlines() if x.startswith("spy: "))
    numbers = [int(part.rsplit(" ", 1)[1]) for part in line[5:].replace(";", ",").split(",")]
    return dict(zip(["seen", "read", "changed", "written"], numbers))


def test_a_spy_graded_two_at_a_time_finds_nothing_and_its_neighbours_keep_full_marks(tmp_path):
    rows, isolation = grade_beside_the_spy(tmp_path)
    assert spy_found(rows[SPY]) == {"seen": 0, "read": 0, "changed": 0, "written": 0}
    for name in ["alice", *NEIGHBOURS, SPY]:
        assert rows[name].verdict == "full marks", (name, rows[name].tests)
    if isolation.own_users:
        assert any("each run as a user of their own" in line for line in isolation.holds)
    else:  # nowhere to give each its own user: graded one at a time, and the report says why
        assert any("one submission at a time, although --jobs 2" in line
                   for line in isolation.holds)


def test_the_same_spy_finds_its_neighbours_where_they_share_a_user(tmp_path):
    rows, isolation = grade_beside_the_spy(tmp_path, level="limits", allow_shared_user=True)
    found = spy_found(rows[SPY])
    assert found["seen"] >= 1 and found["read"] >= 1, found
    assert any("all run as" in line and "--allow-shared-user" in line
               for line in isolation.cannot_prevent)


# --- the sandbox alone ----------------------------------------------------------------------

REACH = r"""
import json, os, sys
pids, folder = json.loads(sys.argv[1]), sys.argv[2]
reached = []
for pid in pids:
    for what, attempt in [
            ("signal", lambda: os.kill(pid, 0)),
            ("cwd", lambda: os.readlink(f"/proc/{pid}/cwd")),
            ("open files", lambda: os.listdir(f"/proc/{pid}/fd")),
            ("report channel", lambda: os.close(os.open(f"/proc/{pid}/fd/1", os.O_WRONLY)))]:
        try:
            attempt()
            reached.append(what)
        except OSError:
            pass
for what, mode in [("harness.py read", "rb"), ("harness.py changed", "ab")]:
    try:
        open(os.path.join(folder, "harness.py"), mode).close()
        reached.append(what)
    except OSError:
        pass
print(json.dumps(sorted(set(reached))))
"""


def start(box, code, *args, **options):
    scratch = box.scratch(b"# a classmate's work\n")
    process = subprocess.Popen([sys.executable, "-I", "-c", code, *args], cwd=scratch,
                               env=box.env(scratch), preexec_fn=box.preexec(),
                               start_new_session=True, **options)
    return process, scratch


def processes_in(folder) -> list[int]:
    """The processes whose working folder is `folder` (seen from the grader, as root)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and os.readlink(f"/proc/{entry}/cwd") == str(folder):
                found.append(int(entry))
        except OSError:
            pass
    return found


def reach(box, pids, folder) -> list[str]:
    return in_box(box, REACH, json.dumps(pids), str(folder))


@pytest.fixture
def open_base():
    """A folder for the sandbox that every user may pass through on the way down (tmp_path
    may not be: pytest makes it under a folder only its owner can enter)."""
    base = Path(tempfile.mkdtemp(prefix="grader-test-"))
    base.chmod(0o711)
    yield base
    shutil.rmtree(base, ignore_errors=True)


@pytest.mark.skipif(not ROOT, reason="users of their own need the grader to run as root")
@pytest.mark.parametrize("level", ["namespaces", "user"])
def test_a_child_of_one_slot_cannot_reach_the_files_processes_or_channel_of_another(
        open_base, level):
    box = sandbox.prepare(open_base / "box", level=level, slots=2)
    mine, theirs = box.slot(0), box.slot(1)
    assert box.first_uid is not None and mine.user != theirs.user
    for uid in (mine.user[0], theirs.user[0]):
        with pytest.raises(KeyError):
            pwd.getpwuid(uid)
    # A child of slot 0 waits with its report channel (its standard output) open.
    waiting, folder = start(mine, "import sys; sys.stdin.read()", stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    try:
        assert os.stat(folder).st_uid == mine.user[0] and os.stat(folder).st_mode & 0o777 == 0o700
        pids = processes_in(folder)
        assert pids, "the waiting child runs in its folder"
        assert reach(theirs, pids, folder) == []
        # The look itself works: as root it reaches everything, report channel included.
        as_root = sandbox.Sandbox(open_base / "box", level="limits")
        assert reach(as_root, pids, folder) == ["cwd", "harness.py changed", "harness.py read",
                                                "open files", "report channel", "signal"]
        if level == "user":
            # As the waiting child's own user, without a PID namespace, it reaches all but
            # the channel, a pipe the grader (root) made and only root may open again.
            assert reach(mine, pids, folder) == ["cwd", "harness.py changed", "harness.py read",
                                                 "open files", "signal"]
        else:
            # In namespaces of its own, even its own user's other processes are not there, nor
            # its other scratch folders: its view holds its own alone (issue 25).
            assert reach(mine, pids, folder) == []
    finally:
        waiting.kill()
        waiting.wait()
        box.remove(folder)


DAEMON = r"""
import ctypes, os, sys, time
ready, said = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)  # PR_SET_NAME: its mark
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # the test's pipe ends with its parent
        os.write(said, b"x")
        time.sleep(300)
    os._exit(0)
os.read(ready, 1)
print("the daemon runs", flush=True)
if sys.argv[2] == "wait":
    os.setsid()  # out of the runner's process group too
    sys.stdin.read()
"""


def start_a_daemon(box, left, then):
    """A child that leaves a daemon marked `left` and then ends ("exit") or waits ("wait");
    returned once the daemon runs."""
    process, folder = start(box, DAEMON, left, then, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    assert process.stdout.readline() == b"the daemon runs\n"
    return process, folder


def wait_for_end(pids: list[str]) -> None:
    """Block until each process has ended; fail if one is still there after 10 seconds."""
    for pid in pids:
        try:
            handle = os.pidfd_open(int(pid))
        except ProcessLookupError:
            continue
        try:
            assert select.select([handle], [], [], 10)[0], f"process {pid} is still running"
        finally:
            os.close(handle)


@pytest.mark.skipif(not ROOT, reason="PID namespaces need the grader to run as root")
def test_when_a_submissions_process_ends_the_kernel_ends_everything_it_started(tmp_path):
    box = sandbox.prepare(tmp_path / "box", level="namespaces")
    left = mark(tmp_path, "daemon")
    process, folder = start_a_daemon(box, left, "exit")
    process.wait()
    box.remove(folder)
    assert running(left) == []  # no sweep here: the namespace alone


@pytest.mark.skipif(not ROOT, reason="PID namespaces need the grader to run as root")
def test_when_the_runner_kills_only_its_own_child_the_whole_namespace_goes(tmp_path):
    box = sandbox.prepare(tmp_path / "box", level="namespaces")
    left = mark(tmp_path, "daemon")
    process, folder = start_a_daemon(box, left, "wait")
    pids = running(left)
    assert pids
    os.kill(process.pid, signal.SIGKILL)  # the relay alone, not its group
    process.wait()
    box.remove(folder)
    wait_for_end(pids)


@pytest.mark.skipif(not ROOT, reason="users of their own need the grader to run as root")
def test_without_namespaces_the_sweep_of_the_slots_user_ends_what_it_left(tmp_path, open_base):
    box = sandbox.prepare(open_base / "box", level="user", slots=1).slot(0)
    left = mark(tmp_path, "daemon")
    process, folder = start_a_daemon(box, left, "exit")
    process.wait()
    box.remove(folder)
    assert running(left), "without a PID namespace the daemon outlives its parent"
    box.sweep()
    assert running(left) == []


def test_where_submissions_would_share_a_user_they_are_graded_one_at_a_time_unless_allowed(
        tmp_path):
    shared = sandbox.Sandbox(tmp_path, level="limits")
    assert shared.workers(3) == 1
    said = shared.statement()
    assert any("one submission at a time, although --jobs 3 was asked" in line
               and "--allow-shared-user" in line for line in said.holds)
    assert shared.workers(3, allow_shared_user=True) == 3
    assert any("(3 here) all run as" in line for line in shared.statement().cannot_prevent)
    own = sandbox.Sandbox(tmp_path, level="namespaces", user=(10_000_000,) * 2,
                          first_uid=10_000_000)
    assert own.workers(3) == 3
    assert [own.slot(n).user[0] for n in range(3)] == [10_000_000, 10_000_001, 10_000_002]


def test_the_command_line_passes_allow_shared_user_to_the_batch(tmp_path, monkeypatch):
    from grader.__main__ import main
    asked = {}

    def grade_all(plan, subs, out, **options):
        asked.update(options)
        raise GraderError(NoJobs())  # any refusal: the command line says it, exit code 2
    monkeypatch.setattr(batch, "grade_all", grade_all)
    folder = make_class(tmp_path / "submissions", kinds=[])
    assert main(["grade", "--lab", LAB.id, str(folder), "--out", str(tmp_path / "out"),
                 "--jobs", "2", "--allow-shared-user"]) == 2
    assert asked["jobs"] == 2 and asked["allow_shared_user"] is True
