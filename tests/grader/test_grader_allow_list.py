"""A submission sees an allow-list of the machine, not a deny-list, and what it writes to the
shared temporary folders goes with it (issue 25).

At "namespaces" the child's root is built from nothing: the interpreter and its libraries, the
kit's lab/ package and lesson.toml files, its scratch folder, a /dev of four devices, a /proc
and a /tmp, /var/tmp and /dev/shm of its own. The attacks the red team ran are graded in a
class whose folder every user may list, as an instructor's often is; each is paired with the
same attack at "limits", where it succeeds, so that an attack that could find nothing anyway
would be caught."""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.grader.gradeclass import LAB, ROOT, base_text, in_box, make_class, mark
from lab.check import manifest

from grader import batch, plan as plans, sandbox

READERS = ["reads_the_history", "runs_the_next_starter", "copies_a_classmate"]
LITTER = "litters_the_temporary_folders"
TEMPORARY = ("/tmp", "/var/tmp", "/dev/shm")

needs_root = pytest.mark.skipif(not ROOT, reason="the allow-list is built at \"namespaces\", "
                                                 "which needs the grader to run as root")


def litter(folder: Path) -> list[str]:
    """What the litterer of the class in `folder` left in the shared temporary folders."""
    left = mark(folder, LITTER)
    return [os.path.join(place, name) for place in TEMPORARY for name in (left, left + ".d")
            if os.path.lexists(os.path.join(place, name))]


def grade_open_class(level=None):
    """alice (the reference), bob (the starter), the three readers and the litterer, in a
    folder every user may list, graded two at a time on lab 15.1's own tests (what an attacker
    reads past the wall would show there as well as in the whole suite, in a tenth of the
    time): ({student: row}, statement, folder)."""
    base = Path(tempfile.mkdtemp(prefix="grader-open-class-"))
    base.chmod(0o755)
    folder = make_class(base / "submissions", kinds=[*READERS, LITTER])
    try:
        subs, _ = batch.find(folder)
        plan = plans.make(LAB.id, own_lab_only=True)
        rows, isolation = batch.grade_all(plan, subs, base / "out", jobs=2,
                                          settings=batch.Settings(seconds_per_test=1.0),
                                          level=level)
        return {r.student: r for r in rows}, isolation, folder, litter(folder)
    finally:
        for path in litter(folder):  # whatever a weaker level left, not left on this machine
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
        shutil.rmtree(base)


@pytest.fixture(scope="module")
def walled():
    return grade_open_class()


def passed(row) -> set[str]:
    return {t.id for t in row.tests if t.verdict == "pass"}


@needs_root
@pytest.mark.parametrize("name", READERS)
def test_an_attacker_that_reads_past_the_wall_gets_only_what_its_own_starter_gets(walled, name):
    rows, isolation, _, _ = walled
    assert isolation["level"] == "namespaces"
    assert passed(rows[name]) == passed(rows["bob"]), name
    assert rows[name].score < rows[name].max


@needs_root
def test_honest_files_keep_full_marks_beside_the_attackers(walled):
    rows, _, _, _ = walled
    for name in ("alice", LITTER):
        assert rows[name].verdict == "full marks", (name, rows[name].tests)


@needs_root
def test_what_a_submission_writes_to_tmp_var_tmp_and_dev_shm_is_gone_after_grading(walled):
    rows, isolation, _, left = walled
    assert rows[LITTER].verdict == "full marks"
    assert left == []
    assert any("/tmp, /var/tmp and /dev/shm of its own" in line for line in isolation["holds"])


@needs_root
def test_without_the_wall_the_same_attackers_get_full_marks_and_leave_their_files():
    rows, isolation, folder, left = grade_open_class(level="limits")
    for name in READERS:
        assert rows[name].verdict == "full marks", (name, rows[name].tests)
    assert sorted(left) == sorted(os.path.join(place, mark(folder, LITTER) + end)
                                  for place in TEMPORARY for end in ("", ".d"))
    assert any("removes none" in line for line in isolation["cannot_prevent"])


# --- the sandbox alone ----------------------------------------------------------------------

LOOK = r"""
import json, os, shutil, subprocess, sys
kit, folder = sys.argv[1], sys.argv[2]


def attempt(action):
    try:
        return action()
    except OSError as exc:
        return type(exc).__name__


def read(path):
    with open(path, encoding="utf-8") as handle:
        return len(handle.read())


def write(path):
    with open(path, "w", encoding="utf-8") as handle:
        return handle.write("x")


print(json.dumps({
    "root": sorted(os.listdir("/")), "kit": sorted(os.listdir(kit)),
    "lesson": sorted(os.listdir(os.path.join(kit, "lessons", "15-stop"))),
    "dev": sorted(os.listdir("/dev")),
    "own": [os.listdir(p) for p in ("/var/tmp", "/dev/shm")],
    "git": shutil.which("git"),
    "history": attempt(lambda: os.listdir(os.path.join(kit, ".git"))),
    "next starter": attempt(lambda: read(os.path.join(kit, "starters/15-stop/lab2/harness.py"))),
    "class": attempt(lambda: os.listdir(folder)),
    "classmate": attempt(lambda: read(os.path.join(folder, "alice.py"))),
    "into the kit": attempt(lambda: write(os.path.join(kit, "lab", "planted.py"))),
    "shell": attempt(lambda: subprocess.run(["/bin/sh", "-c", "true"]).returncode),
    "scratch": attempt(lambda: write("mine.txt")),
}))
"""


@pytest.fixture
def open_class():
    """A class folder every user may list, holding alice.py, in a folder every user may pass
    through (a box for the sandbox goes beside it)."""
    base = Path(tempfile.mkdtemp(prefix="grader-open-"))
    base.chmod(0o755)
    folder = base / "submissions"
    folder.mkdir(mode=0o755)
    (folder / "alice.py").write_text(base_text("solution"), encoding="utf-8")
    (folder / "alice.py").chmod(0o644)
    yield folder
    shutil.rmtree(base)


def look(box, folder) -> dict:
    return in_box(box, LOOK, str(manifest.KIT), str(folder))


@needs_root
def test_a_child_sees_the_interpreter_the_kits_runtime_and_its_scratch_and_nothing_else(
        open_class):
    box = sandbox.prepare(open_class.parent / "box", level="namespaces")
    seen = look(box, open_class)
    tops = {step[1].split("/")[1] for step in box.view}
    assert seen["root"] == sorted(tops | {"proc"})
    assert set(seen["kit"]) <= {"lab", "lessons", ".venv"} and "lab" in seen["kit"]
    assert seen["lesson"] == ["lesson.toml"]
    assert seen["dev"] == ["fd", "null", "random", "shm", "stderr", "stdin", "stdout", "urandom",
                           "zero"]
    assert seen["own"] == [[], []]
    assert seen["git"] is None and seen["shell"] == "FileNotFoundError"
    for what in ("history", "next starter", "class", "classmate"):
        assert seen[what] == "FileNotFoundError", what
    assert seen["into the kit"] == "OSError"  # read-only
    assert seen["scratch"] == 1


@needs_root
def test_as_root_without_the_wall_the_same_look_reaches_all_of_it(open_class):
    (open_class.parent / "box").mkdir()
    try:
        seen = look(sandbox.Sandbox(open_class.parent / "box", level="limits"), open_class)
    finally:
        sandbox.leftovers.remove(manifest.KIT / "lab" / "planted.py")
    assert seen["git"] and seen["shell"] == 0 and seen["into the kit"] == 1
    assert isinstance(seen["history"], list) or os.path.isfile(manifest.KIT / ".git")
    assert isinstance(seen["next starter"], int) and seen["class"] == ["alice.py"]
    assert isinstance(seen["classmate"], int)


@needs_root
def test_the_probe_names_the_history_starters_and_class_it_could_read_without_namespaces(
        open_class):
    named = dict(private=[open_class])
    user = sandbox.prepare(open_class.parent / "box", level="user", **named)
    for path in (manifest.KIT / ".git", manifest.STARTERS, open_class):
        assert os.path.realpath(path) in user.readable, path
    said = user.statement()
    assert any("could still read" in line and str(open_class) in line
               for line in said["cannot_prevent"])
    assert any(".git history" in line and "chmod 700" in line for line in said["cannot_prevent"])
    walled = sandbox.prepare(open_class.parent / "box", level="namespaces", **named)
    assert walled.readable == []


@needs_root
def test_without_namespaces_a_scratch_folder_its_user_cannot_reach_is_refused_with_the_reason(
        tmp_path, open_class):
    closed = tmp_path / "closed"  # pytest's own folders are open to their owner alone
    with pytest.raises(sandbox.SandboxError, match="could not open its own harness.py"):
        sandbox.prepare(closed / "box", level="user")
    assert sandbox.prepare(open_class.parent / "box", level="user").level == "user"


@needs_root
def test_the_probe_refuses_a_view_that_holds_more_than_its_allow_list(open_class, monkeypatch):
    real = sandbox.view.allowed

    def without_etc(steps):
        return {path: kind for path, kind in real(steps).items() if not path.startswith("/etc")}
    monkeypatch.setattr(sandbox.view, "allowed", without_etc)
    with pytest.raises(sandbox.SandboxError, match="could still read") as caught:
        sandbox.prepare(open_class.parent / "box", level="namespaces")
    assert "'/etc'" in str(caught.value)


LITTERING = r"""
import os, sys
left = sys.argv[1]
for place in ("/tmp", "/var/tmp", "/dev/shm"):
    with open(os.path.join(place, left), "w") as handle:
        handle.write("left behind")
    deep = os.path.join(place, left + ".d")
    os.makedirs(deep)
    os.chdir(deep)
    for _ in range(3):
        os.mkdir("d")
        os.chdir("d")
    open("file", "w").close()
    os.symlink("/etc", "link")  # never followed
    with open(os.path.join("/tmp", left + ".shared", "mine"), "w") as handle:
        handle.write("in a folder every user may write to")
"""


@needs_root
def test_without_namespaces_what_a_slot_user_left_in_the_temporary_folders_goes_with_the_sweep(
        open_class):
    box = sandbox.prepare(open_class.parent / "box", level="user", slots=1).slot(0)
    left = mark(open_class, "litter")
    shared = Path("/tmp") / f"{left}.shared"  # a folder of root's that every user may write to
    shared.mkdir(mode=0o1777)
    shared.chmod(0o1777)
    (shared / "roots").write_text("not the submission's")
    scratch = box.scratch(b"")
    try:
        done = subprocess.run([sys.executable, "-I", "-c", LITTERING, left], cwd=scratch,
                              env=box.env(scratch), preexec_fn=box.preexec(),
                              capture_output=True, text=True, timeout=60,
                              start_new_session=True)
        assert done.returncode == 0, done.stderr
        places = [os.path.join(p, left + end) for p in TEMPORARY for end in ("", ".d")]
        assert all(os.path.lexists(p) for p in places), "it left them"
        box.sweep()
        assert [p for p in places if os.path.lexists(p)] == []
        assert sorted(os.listdir(shared)) == ["roots"]
        assert os.path.isdir("/etc")
    finally:
        box.remove(scratch)
        shutil.rmtree(shared)
        for place in TEMPORARY:  # whatever a failed sweep left
            for name in (left, left + ".d"):
                sandbox.leftovers.remove(os.path.join(place, name))


def test_a_tree_thousands_of_levels_deep_is_removed_without_recursion_and_links_are_not_followed(
        tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "kept").write_text("not in the tree")
    top = Path(tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else tmp_path))
    here = os.open(top, os.O_RDONLY)
    for _ in range(3000):
        os.mkdir("d", dir_fd=here)
        below = os.open("d", os.O_RDONLY, dir_fd=here)
        os.close(here)
        here = below
    os.symlink(outside, "link", dir_fd=here)
    os.close(here)
    (top / b"\xff\xfe".decode("utf-8", "surrogateescape")).write_text("a name in no encoding")
    sandbox.leftovers.remove(top)
    assert not top.exists()
    assert (outside / "kept").exists()
    sandbox.leftovers.remove(top / "not there")  # nothing to remove: nothing raised


@pytest.mark.parametrize("level, own, says", [
    ("namespaces", True, ("holds", "a /tmp, /var/tmp and /dev/shm of its own")),
    ("user", True, ("holds", "removes what that user left in /tmp, /var/tmp and /dev/shm")),
    ("user", False, ("cannot_prevent", "so it removes none")),
    ("limits", False, ("cannot_prevent", "so it removes none")),
])
def test_each_level_says_what_becomes_of_what_a_submission_writes_to_tmp(tmp_path, level, own,
                                                                         says):
    box = sandbox.Sandbox(tmp_path, level=level, user=(10_000_000,) * 2 if own else None,
                          first_uid=10_000_000 if own else None)
    if level == "user" and not own:
        box.user = (65534, 65534)
    part, words = says
    assert any(words in line for line in box.statement()[part]), box.statement()[part]
