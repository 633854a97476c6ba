"""A submission sees an allow-list of the machine, not a deny-list, and what it writes to the
shared temporary folders goes with it (issue 25).

At "namespaces" the child's root is built from nothing: the interpreter and its libraries, the
kit's lab/ package and lesson.toml files, its scratch folder, a /dev of four devices, a /proc
and a /tmp, /var/tmp and /dev/shm of its own. The attacks the red team ran are graded in a
class whose folder every user may list, as an instructor's often is; each is paired with the
same attack at "limits", where it succeeds, so that an attack that could find nothing anyway
would be caught."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from gradeclass import KINDS, LAB, ROOT, base_text, make_class, mark
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
    folder every user may list, graded two at a time: ({student: row}, statement, folder)."""
    base = Path(tempfile.mkdtemp(prefix="grader-open-class-"))
    base.chmod(0o755)
    folder = make_class(base / "submissions", kinds=[*READERS, LITTER])
    try:
        subs, _ = batch.find(folder)
        rows, isolation = batch.grade_all(plans.make(LAB.id), subs, base / "out", jobs=2,
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
