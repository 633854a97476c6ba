"""Grading a class with one command: every submission gets a row, every bad one the verdict its
kind must get, scores come from the kit's points, and the reports say what happened.

Lab 15.1 has a grading bank, so each row holds the public tests, judged as the local checker
judges them, and then the scenarios of the bank the run drew: those are held to their own
contract (tests/grader/gradeclass.py's bank_faults), passing for the reference and failing
where a kind of submission breaks what they observe."""
import csv
import json
import os
import subprocess
import sys

import pytest

from tests.grader.gradeclass import (KINDS, LAB, ROOT, SECONDS_PER_TEST, bank_entries, bank_faults,
                                     banked_points, base_reports, drawn, make_class, mark,
                                     of_rule, public_entries, running)
from lab.check import manifest
from lab.check.verdict import Verdict, sets_line

from grader import bank, batch, plan as plans, report


@pytest.fixture(scope="module")
def kit_reports(tmp_path_factory):
    return base_reports(tmp_path_factory)


@pytest.fixture(scope="module")
def kit_verdicts(kit_reports):
    return {base: {o.id: o.verdict for o in r.outcomes} for base, r in kit_reports.items()}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The whole class graded by the README's command, in a separate process, three at once."""
    root = tmp_path_factory.mktemp("class")
    out = root / "out"
    folder = make_class(root / "submissions", out=out)
    (folder / "nothing").mkdir()  # a student folder without a harness.py
    (folder / "notes.txt").write_text("not a submission\n")
    done = subprocess.run(
        [sys.executable, "-m", "grader", "grade", "--lab", LAB.id, str(folder), "--out",
         str(out), "--jobs", "3", "--seconds-per-test", str(SECONDS_PER_TEST)],
        cwd=manifest.KIT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": str(manifest.KIT)})
    assert done.returncode == 0, done.stdout + done.stderr
    out = out / f"lab-{LAB.id}"  # the lab's own folder in the class folder
    data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    rows = {r["student"]: r for r in data["submissions"]}
    return {"out": out, "folder": folder, "stdout": done.stdout, "stderr": done.stderr,
            "data": data, "rows": rows, "drawn": drawn(out)}


def passed(row):
    return {t["id"] for t in row["tests"] if t["verdict"] == "pass"}


def test_every_submission_gets_a_row_with_a_verdict_and_a_reason_for_every_test(graded):
    rows = graded["rows"]
    assert set(rows) == {"alice", "bob", "nothing", *KINDS}
    public = [t.id for t in plans.make(LAB.id).tests]
    for row in rows.values():
        assert [t["id"] for t in public_entries(row)] == public, (
            f"{row['student']}'s row does not hold lab {LAB.id}'s public tests in the plan's order")
        faults = bank_faults(row, graded["drawn"])
        assert not faults, "a row's grading bank entries break their contract:\n" + \
            "\n".join(faults)
        assert all(t["verdict"] in {v.value for v in Verdict} for t in row["tests"])
        assert all(t["verdict"] == "pass" or t["message"].strip() for t in row["tests"]), \
            row["student"]


def _holds(case, isolation):
    needs, level = case.get("needs"), isolation["level"]
    if needs == "namespaces":
        return level == "namespaces"
    if needs == "other-user":
        return level in ("namespaces", "user")
    if needs == "own-user":
        return isolation["own_users"]
    return True


@pytest.mark.parametrize("name", sorted(KINDS))
def test_a_bad_submission_gets_the_verdict_its_kind_must_get(graded, kit_verdicts, name):
    case, row = KINDS[name], graded["rows"][name]
    level = graded["data"]["isolation"]["level"]
    if not _holds(case, graded["data"]["isolation"]):
        # Below the level it needs, the attack is not prevented: the report must say so.
        assert graded["data"]["isolation"]["cannot_prevent"]
        pytest.skip(f"{name} is stopped only at sandbox level {case['needs']}; this run "
                    f"has {level}, and its report says what that cannot prevent")
    # The public tests, as the local checker judges the kind's base; the bank's, by their rule.
    got, banked = passed({"tests": public_entries(row)}), bank_entries(row)
    bank_passed = passed({"tests": banked})
    if case["base"] != "none":
        before = {i for i, v in kit_verdicts[case["base"]].items() if v == "pass"}
        assert got <= before, f"{name}: passed tests the base alone fails: {got - before}"
    expect = case["expect"]
    if expect == "import":
        assert not passed(row) and row["verdict"] == "does not import"
        assert case["says"] in row["import_error"]
    elif expect == "none-pass":
        assert not passed(row) and row["score"] == 0
    elif expect == "all-pass" and case.get("hidden") == "none-pass":
        assert got == {t["id"] for t in public_entries(row)} and not bank_passed, (
            f"{name} must pass every public test and fail every grading bank test (its hidden "
            f"tests), and passed {len(got)} public tests and {sorted(bank_passed)}")
    elif expect == "all-pass":
        assert row["verdict"] == "full marks" and row["score"] == row["max"]
    elif expect == "starter":
        assert got == {i for i, v in kit_verdicts["starter"].items() if v == "pass"}
        assert not bank_passed, (f"{name}, built on the starter, which has none of lab "
                                 f"{LAB.id}'s code, passed grading bank tests: {bank_passed}")
    elif expect == "some-pass":
        assert got and any(t["verdict"] == case["verdict"] for t in public_entries(row))
    if "breaks" in case:
        broken = of_rule(graded["drawn"], case["breaks"])
        assert broken and not broken & bank_passed, (
            f"{name} breaks {case['breaks']}, and passed its grading bank scenarios "
            f"{sorted(broken & bank_passed)} (drawn: {sorted(broken)})")
    if "says" in case and expect != "import":
        assert any(case["says"] in t["message"] for t in row["tests"])
    if "prints" in case:
        assert case["prints"] in row["output"]


@pytest.mark.parametrize("name", sorted(n for n in KINDS if "starts" in KINDS[n]))
def test_nothing_a_submission_starts_is_left_running_once_the_grading_is_over(graded, name):
    isolation = graded["data"]["isolation"]
    left = running(mark(graded["folder"], name))
    if not _holds(KINDS[name], isolation):
        assert any("can outlive the grading" in line for line in isolation["cannot_prevent"])
        for pid in left:  # the report said so; do not leave it on the machine either
            os.kill(int(pid), 9)
        pytest.skip(f"{name} is reaped only with users of its own; this run's report says so")
    assert graded["rows"][name]["verdict"] == "full marks"
    assert left == [], f"{name} left {KINDS[name]['starts']} running: processes {left}"


def test_the_reference_gets_full_marks_and_the_starter_what_the_checker_gives_it(graded,
                                                                               kit_verdicts):
    alice, bob = graded["rows"]["alice"], graded["rows"]["bob"]
    assert alice["verdict"] == "full marks" and bank_entries(alice), (
        f"the reference got {alice['verdict']}; failed: "
        f"{[t['id'] for t in alice['tests'] if t['verdict'] != 'pass']}")
    # A bank shares out what the public tests were worth alone: the maximum does not change.
    assert alice["score"] == alice["max"] == plans.make(LAB.id).max_score
    assert {t["id"]: t["verdict"] for t in public_entries(bob)} == kit_verdicts["starter"]
    assert {t["verdict"] for t in bank_entries(bob)} == {"fail"}, (
        "the starter, which has none of lab 15.1's code, must fail every grading bank test")
    assert bob["source"] == "bob/harness.py"


def test_a_folder_without_a_harness_is_a_row_that_says_so(graded):
    row = graded["rows"]["nothing"]
    assert row["verdict"] == "not graded" and row["score"] == 0
    assert "holds no harness.py" in row["problem"]
    assert "notes.txt (neither a .py file nor a folder)" in graded["data"]["ignored"], (
        f"grades.json's ignored entries are {graded['data']['ignored']}: notes.txt must be "
        "there with why it was not graded")


def test_the_score_is_the_sum_of_the_points_of_the_passed_tests(graded):
    points = {t["id"]: t["points"] for t in graded["data"]["tests"]}
    worth = banked_points(graded["out"])
    assert sorted(points) == sorted(worth), (
        f"grades.json's tests are not the public tests and the drawn bank: "
        f"{sorted(set(points) ^ set(worth))}")
    wrong = {i: (points[i], worth[i]) for i in points if points[i] != pytest.approx(worth[i])}
    assert not wrong, (f"tests worth other than the public tests' points times public_share "
                       f"({bank.public_share(LAB.id):g}), and the rest shared by the bank: {wrong}")
    for row in graded["rows"].values():
        assert row["score"] == plans.points(
            sum(points[t["id"]] for t in row["tests"] if t["verdict"] == "pass"))
        assert row["max"] == plans.points(sum(points.values()))


def test_grades_csv_has_a_row_per_student_and_a_column_per_test(graded):
    with (graded["out"] / "grades.csv").open(encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    ids = [t["id"] for t in graded["data"]["tests"]]
    assert [r["student"] for r in table] == sorted(graded["rows"])
    for r in table:
        row = graded["rows"][r["student"]]
        assert float(r["score"]) == row["score"] and r["verdict"] == row["verdict"]
        assert [r[i] for i in ids] == [t["verdict"] for t in row["tests"]]
        assert r["seconds"] == f"{row['seconds']:.1f}", "grades.csv's time is grades.json's"


def test_tests_csv_holds_every_reason(graded):
    with (graded["out"] / "tests.csv").open(encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    assert len(table) == len(graded["rows"]) * len(graded["data"]["tests"])
    bob = [r for r in table if r["student"] == "bob" and r["verdict"] == "fail"]
    assert any("has no CancelToken.is_cancelled yet (lesson 15, lab 1)" in r["reason"] for r in bob)


def test_the_json_says_which_sets_ran_how_many_checks_each_held_and_what_isolation_holds(graded):
    data = graded["data"]
    plan = plans.make(LAB.id)
    public, banked = data["sets"][:-1], data["sets"][-1]
    assert public == plan.sets
    assert [s["set"] for s in public] == [f"lab {x.id}" for x in manifest.before(LAB.id)] \
        + ["lab 15.1"]
    # The grading bank comes last, as one hidden set of the scenarios the run drew.
    assert (banked["set"], banked["tests"], banked["hidden"]) == \
        (bank.SET, len(graded["drawn"].rules), True), f"the bank's set is {banked}"
    assert all(s["checks"] >= s["tests"] > 0 for s in data["sets"])
    assert data["isolation"]["holds"] and data["isolation"]["cannot_prevent"]
    if ROOT:
        assert data["isolation"]["level"] in ("namespaces", "user")


def test_feedback_tells_each_student_what_passed_what_failed_and_why(graded, kit_verdicts):
    folder = graded["out"] / "feedback"
    assert sorted(p.stem for p in folder.glob("*.md")) == sorted(graded["rows"])
    bob = (folder / "bob.md").read_text(encoding="utf-8")
    failed = {Verdict(t["verdict"]) for t in graded["rows"]["bob"]["tests"]} - {Verdict.PASS}
    assert failed and all(f"): {v.words}." in bob for v in failed)
    # The starter passes what the checker passes of the public tests, and no bank test.
    worth = banked_points(graded["out"])
    good = [i for i, v in kit_verdicts["starter"].items() if v == "pass"]
    score, total = plans.points(sum(worth[i] for i in good)), plans.points(sum(worth.values()))
    assert f"Score: {score:g} of {total:g} points" in bob, bob[:400]
    assert f"## What did not pass ({len(worth) - len(good)})" in bob and \
        f"## What passed ({len(good)})" in bob
    line = bank.line(LAB.id, bank.public_share(LAB.id), len(graded["drawn"].rules))
    assert line in bob, f"bob's feedback does not say what the grade rests on:\n{line}"
    assert "harness.py has no CancelToken.is_cancelled yet (lesson 15, lab 1)." in bob
    assert "Traceback" not in bob and "AssertionError" not in bob
    broken = (folder / "does_not_parse.md").read_text(encoding="utf-8")
    assert "did not import" in broken and "SyntaxError" in broken
    assert "/s-" not in broken, "the scratch folder's random name is not shown to students"
    assert f"Score: {total:g} of {total:g} points" in (folder / "alice.md").read_text()
    for t in bank_entries(graded["rows"]["bob"]):  # named by its rule, nothing of its own
        assert f"- **{t['says']}** (the grading bank;" in bob, t["id"]


def test_feedback_and_summary_name_the_sets_in_the_line_the_local_checker_prints(graded,
                                                                                 kit_reports):
    # The checker's sets, then the grading bank's, which no checker of a student's runs.
    banked = graded["data"]["sets"][-1]
    line = sets_line([*kit_reports["starter"].sets,
                      (bank.SET, len(graded["drawn"].rules), banked["checks"])])
    assert line.startswith("Sets run: lab 2.1, ")
    assert line in (graded["out"] / "feedback" / "bob.md").read_text(encoding="utf-8")
    assert line in graded["stdout"].splitlines()


def test_the_summary_counts_full_marks_and_names_the_most_failed_tests(graded):
    out = graded["stdout"]
    n = len(graded["rows"])
    assert f"Graded {n} submissions for lesson 15, lab 1" in out
    assert "full marks" in out and "Most-failed tests (the 5 most failed of the " in out
    assert "Isolation (" in out and "what it cannot prevent" in out
    assert f"{n}/{n}" in graded["stderr"], "the progress bar reached the end"


@pytest.mark.skipif(not ROOT, reason="only a grader running as root can keep reports out of reach")
def test_a_submission_cannot_write_into_the_output_folder(graded):
    out = graded["out"]
    assert not (out / "forged.txt").exists() and not (out.parent / "forged.txt").exists()
    for line in (out / "journal.jsonl").read_text(encoding="utf-8").splitlines():
        assert json.loads(line)["key"] != "forged"


def test_parallel_grading_gives_the_same_reports_as_one_at_a_time(tmp_path):
    kinds = ["does_not_parse", "exits_at_import", "patches_the_checks", "floods_output",
             "crashes_the_interpreter"]
    folder = make_class(tmp_path / "submissions", kinds=kinds)
    # The lab's own tests: the reports must agree line for line whatever the suite, and its own
    # 23 tests hold every kind's verdicts (a crash among them) in a tenth of the whole suite.
    plan = plans.make(LAB.id, own_lab_only=True)
    subs, _ = batch.find(folder)
    written, levels = {}, set()
    for jobs in (1, 2):
        out = tmp_path / f"out{jobs}"
        out.mkdir()
        # None of these kinds reaches for its neighbour, so two at once even where they
        # would share a user.
        results, isolation = batch.grade_all(plan, subs, out, jobs=jobs, allow_shared_user=True)
        report.write(out, plan, results, isolation)
        data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
        for row in data["submissions"]:
            row.pop("seconds")
        levels.add(data.pop("isolation")["level"])  # which says how many ran at once
        timeless = [line.rsplit(",", 1)[0] for line in  # less each row's seconds
                    (out / "grades.csv").read_text().splitlines()]
        written[jobs] = (timeless, (out / "tests.csv").read_text(),
                         data, {p.name: p.read_text() for p in (out / "feedback").iterdir()})
    assert len(levels) == 1, f"the isolation levels differ between one job and two: {levels}"
    assert written[1] == written[2], differences(written[1], written[2])


def differences(one: tuple, two: tuple) -> str:
    """Where one job's reports and two jobs' differ, row by row and field by field."""
    said = ["graded one at a time and two at a time, the reports differ:"]
    names = ("grades.csv (less seconds)", "tests.csv", "grades.json", "feedback")
    for name, a, b in zip(names, one, two):
        if a == b:
            continue
        if name == "grades.json":
            rows_a = {r["student"]: r for r in a["submissions"]}
            rows_b = {r["student"]: r for r in b["submissions"]}
            for student in sorted(rows_a.keys() | rows_b.keys()):
                ra, rb = rows_a.get(student, {}), rows_b.get(student, {})
                for key in sorted(ra.keys() | rb.keys()):
                    if ra.get(key) != rb.get(key):
                        said.append(f"  {student}'s {key}: {str(ra.get(key))[:300]!r} against "
                                    f"{str(rb.get(key))[:300]!r}")
        elif name == "feedback":
            for file in sorted(a.keys() | b.keys()):
                if a.get(file) != b.get(file):
                    said.append(f"  feedback/{file} differs")
        else:
            said.append(f"  {name} differs")
    return "\n".join(said)


def test_an_unknown_lab_or_missing_folder_is_a_plain_error(tmp_path, capsys):
    from grader.__main__ import main
    folder = tmp_path / "submissions"
    folder.mkdir()
    assert main(["grade", "--lab", "99.1", str(folder), "--out", str(tmp_path / "o")]) == 2
    assert "there is no lab 99.1" in capsys.readouterr().err
    assert main(["grade", "--lab", "15.1", str(tmp_path / "none"), "--out",
                 str(tmp_path / "o")]) == 2
    assert "there is no folder of submissions" in capsys.readouterr().err


def test_an_output_folder_inside_the_submissions_or_around_the_kit_is_refused(tmp_path, capsys):
    from grader.__main__ import main
    folder = make_class(tmp_path / "submissions", kinds=[])
    for out in (folder / "grades", manifest.KIT.parent):
        assert main(["grade", "--lab", LAB.id, str(folder), "--out", str(out)]) == 2
        assert "choose an output folder" in capsys.readouterr().err
    assert not (folder / "grades").exists()
