"""One submission never costs another its grade (issue 25): a class holding an honest file
beside files a student could hand in to break the batch (a tree its cleanup cannot walk, a
name that is not UTF-8, a file of 40 GB, names that would share a report) is graded by the
README's command with --jobs 2: every file gets a row and reports of its own, and a re-run
resumes from the journal."""
import json
import os
import subprocess
import sys

import pytest

from tests.grader.gradeclass import LAB, base_text, snippet
from lab.check import manifest

from grader import batch, journal, plan as plans, submissions
from grader.row import Overall
from grader.sandbox import Sandbox

# Names that would share a feedback file or a row (each pair), and a name that is not UTF-8.
CLASHING = ["bob.py", "bob..py", "sp ace.py", "sp_ace.py", "Carol.py", "carol.py",
            "ｄａｎ.py", "dan.py", "new\nline.py", "new_line.py", "x" * 250 + ".py"]
NOT_UTF8 = b"\xff\xfe.py"


def _grade(folder, out):
    return subprocess.run(
        [sys.executable, "-m", "grader", "grade", "--lab", LAB.id, "--own-lab-only",
         str(folder), "--out", str(out), "--jobs", "2", "--seconds-per-test", "1"],
        cwd=manifest.KIT, capture_output=True, text=True, timeout=600,
        # A terminal that shows only ASCII, where no name may end the batch.
        env={**os.environ, "PYTHONPATH": str(manifest.KIT), "PYTHONIOENCODING": "ascii"})


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("class")
    folder, out = root / "submissions", root / "out"
    folder.mkdir()
    solution = base_text("solution")
    (folder / "alice.py").write_text(solution, encoding="utf-8")
    (folder / "deep.py").write_text(solution + "\n" + snippet("leaves_a_deep_tree"),
                                    encoding="utf-8")
    with open(os.path.join(os.fsencode(folder), NOT_UTF8), "w", encoding="utf-8") as handle:
        handle.write(solution)
    with open(folder / "huge.py", "wb") as handle:
        handle.truncate(40 << 30)  # sparse: 40 GB that take no room on the disk
    (folder / "big").mkdir()
    (folder / "big" / "harness.py").write_text(solution + "#" * (2 << 20), encoding="utf-8")
    for name in CLASHING:  # what they hold is not the point: each only fails to import
        (folder / name).write_text(f"raise SystemExit({name!r})\n", encoding="utf-8")
    # A folder whose only harness.py lies 1500 levels down: found, not a crash.
    below = folder / "far"
    try:
        _deep(below, "harness.py", "raise SystemExit('far down')\n")
        first = _grade(folder, out)
        out = out / f"lab-{LAB.id}"  # the lab's own folder in the class folder
        data = json.loads((out / "grades.json").read_text(encoding="utf-8")) \
            if first.returncode == 0 else None
        again = _grade(folder, out.parent)
        yield {"folder": folder, "out": out, "first": first, "again": again, "data": data}
    finally:
        # pytest removes its old folders with shutil.rmtree, which this tree would crash.
        assert Sandbox.remove(below)


def _deep(folder, name, text):
    """`folder`, holding a file `name` 1500 folders down."""
    folder.mkdir()
    back = os.open(".", os.O_RDONLY)
    try:
        os.chdir(folder)
        for _ in range(1500):
            os.mkdir("d")
            os.chdir("d")
        with open(name, "w", encoding="utf-8") as handle:
            handle.write(text)
    finally:
        os.fchdir(back)
        os.close(back)


def _rows(graded):
    assert graded["first"].returncode == 0, graded["first"].stdout + graded["first"].stderr
    return {r["student"]: r for r in graded["data"]["submissions"]}


def test_every_file_gets_a_row_however_it_attacks_the_batch(graded):
    rows = _rows(graded)
    entries = [n for n in os.listdir(os.fsencode(graded["folder"]))]
    assert len(rows) == len(entries) == 6 + len(CLASHING)
    assert rows["alice"]["verdict"] == "full marks"
    assert rows["deep"]["verdict"] == "full marks"
    assert rows["_xff_xfe"]["verdict"] == "full marks"
    assert rows["far"]["verdict"] == "does not import"
    assert "far down" in rows["far"]["import_error"]
    assert rows["far"]["source"] == "far/" + "d/" * 1500 + "harness.py"


def test_a_name_that_is_not_utf8_is_shown_by_its_bytes(graded):
    row = _rows(graded)["_xff_xfe"]
    assert row["source"] == "\\xff\\xfe.py"
    feedback = (graded["out"] / "feedback" / "_xff_xfe.md").read_text(encoding="utf-8")
    assert "`\\xff\\xfe.py`" in feedback


def test_a_file_over_the_size_limit_is_a_row_that_says_so_and_is_not_read(graded):
    rows = _rows(graded)
    for student, shown in (("huge", "huge.py"), ("big", "big/harness.py")):
        row = rows[student]
        assert row["verdict"] == "not graded" and row["score"] == 0
        assert row["problem"].startswith(f"Larger than {batch.LARGEST_MB} MB: {shown} holds")
    assert "40,960 MB" in rows["huge"]["problem"]


def test_no_two_submissions_share_a_row_key_or_a_feedback_file(graded):
    rows = _rows(graded)
    files = sorted(p.name for p in (graded["out"] / "feedback").iterdir())
    assert files == sorted(f"{student}.md" for student in rows)
    # Unique however a disk compares names: ignoring case, and Unicode's spellings of a letter.
    assert len({submissions.folded(name) for name in files}) == len(files)
    assert all(len(name.encode()) <= 255 for name in files)
    sources = {row["source"] for row in rows.values()}
    assert {"bob..py", "sp ace.py", "ｄａｎ.py", "new\\nline.py", "Carol.py"} <= sources
    assert {rows[s]["source"] for s in ("bob", "bob~2", "sp_ace", "sp_ace~2", "dan", "ｄａｎ~2",
                                        "new_line", "new_nline")} == \
        {"bob.py", "bob..py", "sp_ace.py", "sp ace.py", "dan.py", "ｄａｎ.py", "new_line.py",
         "new\\nline.py"}
    # A name already safe keeps it; the one made safe gives way.
    assert rows["bob"]["source"] == "bob.py" and rows["sp_ace"]["source"] == "sp_ace.py"
    for student, row in rows.items():
        feedback = (graded["out"] / "feedback" / f"{student}.md").read_text(encoding="utf-8")
        assert f"on `{row['source']}`" in feedback


def test_the_journal_holds_every_row_and_a_rerun_resumes_after_all_of_them(graded):
    rows = _rows(graded)
    kept = journal.Journal(graded["out"] / "journal.jsonl").load()
    assert set(kept) == set(rows)
    again = graded["again"]
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"Resuming: {len(rows)} of {len(rows)} already graded" in again.stderr
    rerun = json.loads((graded["out"] / "grades.json").read_text(encoding="utf-8"))
    assert rerun["submissions"] == graded["data"]["submissions"]


def test_a_tree_too_deep_to_walk_is_removed_with_the_scratch_folder(tmp_path, monkeypatch):
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "deep.py").write_text(base_text("solution") + "\n" +
                                    snippet("leaves_a_deep_tree"), encoding="utf-8")
    made = []
    real = batch.sandboxes.prepare

    def prepare(base, **kwargs):
        made.append(base)
        return real(base, **kwargs)

    monkeypatch.setattr(batch.sandboxes, "prepare", prepare)
    results, _ = batch.grade_all(plans.make(LAB.id, own_lab_only=True), batch.find(folder)[0],
                                 tmp_path / "out")
    assert [r.verdict for r in results] == [Overall.FULL_MARKS]
    assert made and not made[0].parent.exists()
