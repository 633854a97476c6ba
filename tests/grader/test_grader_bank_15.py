"""Lesson 15's grading banks hold under the grader itself (issue 40, part 1): graded by
`python -m grader grade ... --extra-tests source/bank/15-stop/labK.py`, the way hidden tests run,
the lab's reference passes every scenario of its bank, and each catalogue design of a rule
(source/wrong_designs/lesson_15_stop.py) fails at least one of the scenarios that
source/lessons/15-stop/rules.toml names under that rule's `bank`.

One grade run per lab: the reference and every design of the lab, each rendered from the
single source as tests/authoring/test_wrong_designs.py renders them, graded two at a time with
the lab's own tests only, under a fixed seed other than the public one (a grading run draws its
cases under a secret seed, so a bank that holds only under the public seed would not do).
"""
import csv
import os
import subprocess
import sys
import tomllib

import pytest

from lab.check import manifest
from tools import labsource, wrong_designs

LESSON = manifest.lab("15.1").lesson
BANK = manifest.SOURCE / "bank" / LESSON.folder.name
SEED = 1515  # not the public seed: the cases a student's copy of expected.json never holds


def banks_of(lab_id):
    """{rule item: [bank scenario names]} for lab_id's rules in the lesson's rules.toml."""
    rules = tomllib.loads((LESSON.authors / "rules.toml").read_text(encoding="utf-8"))["rule"]
    return {rule["item"]: (rule["designs"], rule.get("bank", []))
            for rule in rules if rule["lab"] == lab_id}


@pytest.fixture(scope="module", params=["15.1", "15.2"])
def graded(request, tmp_path_factory):
    """(lab id, {submission: {bank scenario: verdict}}, {submission: design}) for one grade run
    of the lab's reference and designs with its bank as the extra tests."""
    lab_id = request.param
    lab = manifest.lab(lab_id)
    root = tmp_path_factory.mktemp(f"bank-{lab_id}")
    folder, out = root / "submissions", root / "out"
    folder.mkdir()
    (folder / "reference.py").write_text(labsource.make(lab, "solution"), encoding="utf-8")
    designs = {}
    for n, design in enumerate(d for d in wrong_designs.catalogue() if d.lab == lab_id):
        designs[f"design{n:02d}"] = design
        (folder / f"design{n:02d}.py").write_text(wrong_designs.harness(design), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "grader", "grade", "--lab", lab_id, "--own-lab-only", str(folder),
         "--out", str(out), "--jobs", "2", "--quiet", "--seed", str(SEED),
         "--extra-tests", str(BANK / f"lab{lab.number}.py")],
        cwd=manifest.KIT, capture_output=True, text=True, timeout=900,
        env={**os.environ, "PYTHONPATH": str(manifest.KIT)})
    assert done.returncode == 0, done.stdout + done.stderr
    verdicts = {}
    with open(out / f"lab-{lab_id}" / "tests.csv", encoding="utf-8", newline="") as rows:
        for row in csv.DictReader(rows):
            if row["set"].endswith("(hidden)"):
                verdicts.setdefault(row["student"], {})[row["test"].partition("::")[2]] = \
                    row["verdict"]
    return lab_id, verdicts, designs


def test_the_reference_passes_its_whole_bank(graded):
    lab_id, verdicts, _ = graded
    named = {name for _, bank in banks_of(lab_id).values() for name in bank}
    found = verdicts.get("reference", {})
    assert set(found) == named, (
        f"lab {lab_id}'s bank ({BANK.name}/lab{lab_id[-1]}.py) and the `bank` keys of its rules "
        f"disagree: graded {sorted(found)}, named {sorted(named)}")
    failed = {name: verdict for name, verdict in found.items() if verdict != "pass"}
    assert not failed, (f"lab {lab_id}'s reference fails scenarios of its own grading bank under "
                        f"seed {SEED}, so the bank, not the reference, is wrong: {failed}")


def test_each_design_fails_a_bank_scenario_of_the_rule_it_breaks(graded):
    lab_id, verdicts, designs = graded
    rules = banks_of(lab_id)
    passed = []
    for student, design in designs.items():
        item = next(item for item, (names, _) in rules.items() if design.name in names)
        bank = rules[item][1]
        if all(verdicts[student].get(name) == "pass" for name in bank):
            failed = sorted(name for name, verdict in verdicts[student].items() if verdict != "pass")
            passed.append(f"{design.id} breaks rule {item} ({design.rule}) but passes every bank "
                          f"scenario of it, {bank}; it fails {failed or 'none at all'}")
    assert not passed, (f"under seed {SEED}, catalogue designs of lab {lab_id} pass their rule's "
                        "grading bank, so a file making that very mistake would keep its marks "
                        "there:\n" + "\n".join(passed))
