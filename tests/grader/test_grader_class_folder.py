"""One class folder through a term (grader/classfolder.py): labs 5.1 and 6.1 graded into the
same `--out`, each lab's files apart, each exported on its own or together, and the re-run
summary and the pages never setting one lab's scores against another's.

Each lab is graded on its own tests only (--own-lab-only), two students, one at a time: what is
tested is where the files go, not the grading.
"""
import csv
import io
import json
import shutil
from contextlib import redirect_stderr, redirect_stdout

import pytest

from grader import classfolder
from grader.__main__ import main
from lab.check import manifest


def _grade(lab: str, folder, out) -> str:
    said = io.StringIO()
    with redirect_stdout(said), redirect_stderr(said):
        code = main(["grade", "--lab", lab, str(folder), "--out", str(out), "--quiet",
                     "--own-lab-only", "--jobs", "1"])
    assert code == 0, f"grading lab {lab} into {out} failed:\n{said.getvalue()}"
    return said.getvalue()


def _class(root, lab: str, *, edsger: str, grace: str):
    """A submissions folder for `lab`: edsger's and grace's files, the lab's reference or its
    starter as named."""
    folder = root / f"week-{lab}"
    folder.mkdir()
    for student, which in (("edsger", edsger), ("grace", grace)):
        source = getattr(manifest.lab(lab), which)
        (folder / f"{student}.py").write_text(source.read_text(encoding="utf-8"),
                                             encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def term(tmp_path_factory):
    """5.1 (edsger full marks, grace the starter), then 6.1 (the other way round), into one
    folder; then 6.1 again, unchanged."""
    root = tmp_path_factory.mktemp("term")
    out = root / "class"
    said = {"5.1": _grade("5.1", _class(root, "5.1", edsger="solution", grace="starter"), out)}
    week6 = _class(root, "6.1", edsger="starter", grace="solution")
    said["6.1"] = _grade("6.1", week6, out)
    said["6.1 again"] = _grade("6.1", week6, out)
    return out, said


def _export(out, tmp_path, fmt: str, *lab: str) -> list[list[str]]:
    target = tmp_path / f"{fmt}-{'-'.join(lab) or 'none'}.csv"
    assert main(["export", "--format", fmt, "--out", str(target), str(out),
                 *(["--lab", *lab] if lab else [])]) == 0, \
        f"`export --format {fmt} {' '.join(lab)}` failed on a class folder holding 5.1 and 6.1"
    return list(csv.reader(target.open(encoding="utf-8")))


def test_each_lab_graded_into_one_folder_keeps_its_own_files(term):
    out, _ = term
    assert classfolder.graded_labs(out) == ["5.1", "6.1"]
    for lab in ("5.1", "6.1"):
        grades = json.loads((out / f"lab-{lab}" / "grades.json").read_text(encoding="utf-8"))
        assert grades["lab"] == lab, f"lab-{lab}/grades.json holds lab {grades['lab']}'s grades"
        for name in ("grades.csv", "tests.csv", "report.html", "journal.jsonl",
                     "feedback/edsger.md", "feedback/grace.md"):
            assert (out / f"lab-{lab}" / name).is_file(), f"lab {lab} has no {name} of its own"
        feedback = (out / f"lab-{lab}" / "feedback" / "edsger.md").read_text(encoding="utf-8")
        assert f"lesson {lab.split('.')[0]}, lab 1" in feedback.lower(), feedback[:200]
    assert not (out / "grades.json").exists(), "a lab's grades.json was left at the top"


def test_each_lab_is_exported_on_its_own_with_its_own_scores(term, tmp_path):
    out, _ = term
    scores = {lab: {r["student"]: r["score"] for r in json.loads(
        (out / f"lab-{lab}" / "grades.json").read_text(encoding="utf-8"))["submissions"]}
        for lab in ("5.1", "6.1")}
    assert scores["5.1"]["edsger"] > scores["5.1"]["grace"]
    assert scores["6.1"]["edsger"] < scores["6.1"]["grace"]
    for lab in ("5.1", "6.1"):
        table = _export(out, tmp_path, "canvas", lab)
        title = manifest.lab(lab).title
        assert table[0][5:] == [f"Lab {lab}: {title}"], table[0]
        got = {row[0]: float(row[5]) for row in table[2:]}
        assert got == scores[lab], f"the export of lab {lab} holds {got}, not {scores[lab]}"
        plain = _export(out, tmp_path, "csv", lab)
        assert {row[6] for row in plain[1:]} == {lab}


def test_every_lab_exports_together_a_column_each(term, tmp_path):
    out, _ = term
    table = _export(out, tmp_path, "moodle", "all")
    assert table[0][3:] == [f"Lab {lab}: {manifest.lab(lab).title}" for lab in ("5.1", "6.1")]
    plain = _export(out, tmp_path, "csv", "all")
    assert sorted((row[0], row[6]) for row in plain[1:]) == [
        ("edsger", "5.1"), ("edsger", "6.1"), ("grace", "5.1"), ("grace", "6.1")]


def test_export_of_a_folder_of_several_labs_asks_which(term, tmp_path, capsys):
    out, _ = term
    assert main(["export", "--format", "csv", "--out", str(tmp_path / "x.csv"), str(out)]) == 2
    assert "holds labs 5.1, 6.1: say which with --lab" in capsys.readouterr().err
    assert main(["export", "--format", "csv", "--out", str(tmp_path / "x.csv"), str(out),
                 "--lab", "7.1"]) == 2
    assert "lab 7.1 was not graded into" in capsys.readouterr().err
    assert not (tmp_path / "x.csv").exists()


def test_the_rerun_summary_compares_a_lab_only_with_itself(term):
    _, said = term
    assert "Since the last run" not in said["6.1"], \
        "grading 6.1 after 5.1 compared 6.1's scores with 5.1's:\n" + said["6.1"]
    assert "  Since the last run: no score changed." in said["6.1 again"].splitlines()


def test_the_class_page_links_each_labs_page_and_each_lab_page_links_back(term):
    out, _ = term
    top = (out / "report.html").read_text(encoding="utf-8")
    for lab in ("5.1", "6.1"):
        assert f'href="lab-{lab}/report.html"' in top
        page = (out / f"lab-{lab}" / "report.html").read_text(encoding="utf-8")
        assert f"<title>Lab {lab}:" in page and 'href="../report.html"' in page
        other = "6.1" if lab == "5.1" else "5.1"
        assert f"lab {other}" not in page.lower(), f"lab {lab}'s page speaks of lab {other}"
    assert "<th scope=\"col\">lab 5.1</th><th scope=\"col\">lab 6.1</th>" in top


def test_a_folder_of_the_one_lab_layout_is_moved_into_its_labs_folder_and_says_so(term,
                                                                                  tmp_path):
    out, _ = term
    old = tmp_path / "old"
    shutil.copytree(out / "lab-5.1", old)  # what grading 5.1 wrote before labs were apart
    assert (_export(old, tmp_path, "csv")[1:]), "a one-lab folder of the old layout exports"
    week6 = _class(tmp_path, "6.1", edsger="solution", grace="solution")
    said = _grade("6.1", week6, old)
    assert f"Moved lab 5.1's files from the top of {old} into {old / 'lab-5.1'}" in said
    assert classfolder.graded_labs(old) == ["5.1", "6.1"]
    assert not (old / "grades.json").exists()
