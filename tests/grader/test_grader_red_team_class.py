"""The red team's class, graded as issue 25 asks: honest files beside one file of every kind of
attack (reading past the sandbox, leaking the hidden tests, breaking the batch, outrunning its
limits, sharing a report), graded together by the README's command with --jobs 2, and again with
--extra-tests. Every honest file gets full marks and every file a row, no hidden value reaches a
file a student may be given, nothing is left in the shared temporary folders, and no submission
holds its worker past the limit it was given.

Each attack has its own test file, which shows it working where nothing stops it; this one shows
that the defences hold all at once, in one batch."""
import json
import os
import subprocess
import sys

import pytest

from tests.grader.gradeclass import LAB, ROOT, base_text, make_class, mark
from lab.check import manifest
from tests.grader.hidden_cases import HIDDEN, leaks, student_files

from grader.sandbox import leftovers

ATTACKS = ["reads_the_history", "runs_the_next_starter", "copies_a_classmate",
           "litters_the_temporary_folders", "leaks_the_hidden_tests",
           "fails_to_import_with_the_hidden_tests", "leaves_a_deep_tree",
           "floods_the_report_channel", "raises_what_utf8_cannot_hold"]
# (blocks_while_imported, which holds its worker until the import's time limit, has its own
# test in test_grader_time_limits.py, where that limit is two seconds rather than ten.)
# The reference, under its own name, under two names that would share a report, and under a
# name that is not UTF-8 (shown by its bytes).
HONEST = {"alice.py", "bob.py", "bob..py", "\\xff\\xfe.py"}
SECONDS_PER_SUBMISSION = 30
TEMPORARY = ("/tmp", "/var/tmp", "/dev/shm")

pytestmark = pytest.mark.skipif(not ROOT, reason="the walls are built as root")


def grade(folder, out, *extra):
    return subprocess.run(
        [sys.executable, "-m", "grader", "grade", "--lab", LAB.id, "--own-lab-only",
         str(folder), "--out", str(out), "--jobs", "2", "--quiet", "--seconds-per-test", "1",
         "--seconds-per-submission", str(SECONDS_PER_SUBMISSION), *extra],
        cwd=manifest.KIT, capture_output=True, text=True, timeout=900,
        env={**os.environ, "PYTHONPATH": str(manifest.KIT)})


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("red-team")
    root.chmod(0o755)  # an instructor's folder that others may list, as the readers hope
    folder = make_class(root / "submissions", kinds=ATTACKS)
    solution = base_text("solution")
    (folder / "bob.py").write_text(solution, encoding="utf-8")  # beside bob/ and bob..py
    (folder / "bob..py").write_text(solution, encoding="utf-8")
    with open(os.path.join(os.fsencode(folder), b"\xff\xfe.py"), "w", encoding="utf-8") as f:
        f.write(solution)
    with open(folder / "huge.py", "wb") as handle:
        handle.truncate(40 << 30)  # sparse: 40 GB that take no room on the disk
    secret = root / "secret.py"
    secret.write_text(HIDDEN, encoding="utf-8")
    secret.chmod(0o600)
    runs = {}
    try:
        for name, extra in (("plain", ()), ("hidden", ("--extra-tests", str(secret)))):
            out = root / name
            done = grade(folder, out, *extra)
            assert done.returncode == 0, done.stdout + done.stderr
            out = out / f"lab-{LAB.id}"  # the lab's own folder in the class folder
            data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
            runs[name] = {"out": out, "rows": {r["student"]: r for r in data["submissions"]}}
        left = [os.path.join(place, name) for place in TEMPORARY
                for name in (mark(folder, "litters_the_temporary_folders"),
                             mark(folder, "litters_the_temporary_folders") + ".d")
                if os.path.lexists(os.path.join(place, name))]
        yield {"folder": folder, "runs": runs, "left": left}
    finally:
        leftovers.remove(root)  # a tree too deep for pytest's own clean-up may be in it


@pytest.mark.parametrize("run", ["plain", "hidden"])
def test_every_file_gets_a_row_and_every_honest_file_full_marks(graded, run):
    rows = graded["runs"][run]["rows"]
    assert len(rows) == len(os.listdir(os.fsencode(graded["folder"]))), "a file without a row"
    honest = {r["source"]: r["verdict"] for r in rows.values() if r["source"] in HONEST}
    assert set(honest) == HONEST, f"{run}: honest files found as {sorted(honest)}"
    assert set(honest.values()) == {"full marks"}, f"{run}: {honest}"


@pytest.mark.parametrize("run", ["plain", "hidden"])
def test_a_reader_of_the_history_the_next_starter_or_a_classmate_scores_as_a_starter(graded, run):
    """Each is the starter with its attack appended: whatever it reads past the wall, it may
    score no more than the starter graded beside it."""
    rows = graded["runs"][run]["rows"]
    starter = next(r for r in rows.values() if r["source"] == "bob/harness.py")
    for name in ("reads_the_history", "runs_the_next_starter", "copies_a_classmate"):
        row = next(r for r in rows.values() if r["source"] == f"{name}.py")
        assert row["score"] <= starter["score"], f"{run}: {name} scored {row['score']}"


def test_no_file_a_student_may_be_given_holds_a_hidden_line_or_value(graded):
    found = {name: leaks(text)
             for name, text in student_files(graded["runs"]["hidden"]["out"]).items()}
    assert not {name: found for name, found in found.items() if found}


def test_nothing_is_left_in_the_shared_temporary_folders(graded):
    assert graded["left"] == []


@pytest.mark.parametrize("run", ["plain", "hidden"])
def test_no_submission_holds_its_worker_past_its_limit(graded, run):
    """The limit holds while a submission runs: a small margin for starting and ending its
    processes, none for what it floods or blocks. (The hidden tests run in processes of their
    own, under the same limit each.)"""
    runs = 2 if run == "hidden" else 1
    slow = {r["source"]: r["seconds"] for r in graded["runs"][run]["rows"].values()
            if r["seconds"] > runs * SECONDS_PER_SUBMISSION + 5}
    assert not slow, f"{run}: held past {SECONDS_PER_SUBMISSION} s: {slow}"
