"""A class of submissions for the grader's tests: good, broken and hostile, each with its
expected verdict.

The hostile kinds are the kit's own (tests/check/submissions/, with the verdicts submissions.toml
gives them), appended to a base file exactly as tests/test_checker.py does; the grader adds a
few kinds of its own in tests/grader/submissions/ (submissions.toml beside them), which attack
what only a batch has: the reference solutions (and the kit's history and the next lab's
starter, which hold them), the output folder, memory, the submissions graded beside them or
lying in the class's folder, and the machine after their grading (processes left running,
files left in the shared temporary folders).
"""
import hashlib
import os
import tomllib
from pathlib import Path

from lab.check import manifest, words_feedback

from grader import bank, ledger, pipeline, plan as plans
from tests.grader.bank_class import bank_leaks

HERE = Path(__file__).parent
KIT_SUBMISSIONS = HERE.parent / "check" / "submissions"
OWN_SUBMISSIONS = HERE / "submissions"
LAB = manifest.lab("15.1")
EVERY_KIND = {
    **tomllib.loads((KIT_SUBMISSIONS / "submissions.toml").read_text(encoding="utf-8")),
    **tomllib.loads((OWN_SUBMISSIONS / "submissions.toml").read_text(encoding="utf-8"))}
# A whole class's kinds: not those graded only by a test of their own (`alone`).
KINDS = {name: case for name, case in EVERY_KIND.items() if not case.get("alone")}
SECONDS_PER_TEST = 1.0
ROOT = os.geteuid() == 0


# An instructor's hidden tests for lab 15.1: two tests, one worth 3 points.
EXTRA = '''
import harness
from lab.check.kit import lab_test

LAB = "15.1"


@lab_test("ABORTED is the text a stopped call answers with.", points=3)
async def test_aborted_is_the_words(t):
    t.expect(harness.ABORTED, "Operation aborted", "ABORTED holds the words of a stop.")


@lab_test("A new CancelToken is clear.")
async def test_a_new_token_is_clear(t):
    t.expect(harness.CancelToken().is_cancelled(), False, "A token starts clear.")
'''


def base_text(base: str) -> str:
    if base == "solution":
        return LAB.solution.read_text(encoding="utf-8")
    if base == "starter":
        return LAB.starter.read_text(encoding="utf-8")
    return ""


def snippet(name: str, out: Path | None = None, folder: Path | None = None) -> str:
    where = KIT_SUBMISSIONS if (KIT_SUBMISSIONS / f"{name}.py").exists() else OWN_SUBMISSIONS
    text = (where / f"{name}.py").read_text(encoding="utf-8")
    # The grader's own kinds name the places they attack, and mark what they leave running;
    # these are only known at test time.
    return (text.replace("@KIT@", str(manifest.KIT))
                .replace("@OUT@", str(out) if out else "/nonexistent")
                .replace("@CLASS@", str(folder) if folder else "/nonexistent")
                .replace("@LEFT@", mark(folder, name)))


def mark(folder: Path | None, name: str) -> str:
    """What kind `name` in the class at `folder` names the process or thread it leaves
    running: unique to the class, and short enough for a thread's name (15 bytes)."""
    return "left-" + hashlib.sha256(f"{folder}/{name}".encode()).hexdigest()[:8]


def running(mark_: str) -> list[str]:
    """The processes alive on this machine whose command line, or one of whose threads' names,
    holds `mark_`. A zombie (ended, not yet reaped by its parent) does not count."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        where = Path("/proc") / entry
        try:
            if where.joinpath("stat").read_bytes().rsplit(b")", 1)[1].split()[0] in b"ZX":
                continue
            names = [where.joinpath("cmdline").read_bytes()]
            names += [task.joinpath("comm").read_bytes() for task in (where / "task").iterdir()]
        except (OSError, IndexError):
            continue
        if any(mark_.encode() in name for name in names):
            found.append(entry)
    return found


def make_class(folder: Path, kinds=None, out: Path | None = None) -> Path:
    """A submissions folder: alice.py (the reference), bob/harness.py (the starter), one
    NAME.py per bad kind, and two folders that hold nothing gradable."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "alice.py").write_text(base_text("solution"), encoding="utf-8")
    (folder / "bob").mkdir()
    (folder / "bob" / "harness.py").write_text(base_text("starter"), encoding="utf-8")
    for name in sorted(KINDS if kinds is None else kinds):
        case = EVERY_KIND[name]
        (folder / f"{name}.py").write_text(
            base_text(case["base"]) + "\n" + snippet(name, out, folder), encoding="utf-8")
    return folder


def base_reports(factory) -> dict:
    """The engine's own reports on the reference and the starter alone (what the local checker
    prints from): what the grader's verdicts and reports are compared with. The same reports
    as tests/check/test_cumulative.py's, made once per run (tests/check/checked_once.py)."""
    from lab.check import suite
    from tests.check import checked_once
    files = suite.of_lab(LAB.id)
    return {"solution": checked_once.report(factory, LAB.solution, files),
            "starter": checked_once.report(factory, LAB.starter, files)}


def base_verdicts(factory) -> dict:
    """{base: {test id: verdict}} from base_reports."""
    return {base: {o.id: o.verdict for o in report.outcomes}
            for base, report in base_reports(factory).items()}


def in_box(box, script: str, *args: str):
    """Run `script` (python -I -c) as a submission's child of `box` is run, in a scratch folder
    of its own, and return what it printed as JSON: what a submission could see from there."""
    import json
    import subprocess
    import sys
    scratch = box.scratch(b"")
    try:
        done = subprocess.run([sys.executable, "-I", "-c", script, *args], cwd=scratch,
                              env=box.env(scratch), preexec_fn=box.preexec(),
                              capture_output=True, text=True, timeout=60,
                              start_new_session=True)
    finally:
        box.remove(scratch)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# --- a banked lab's rows (issue 40) -------------------------------------------------------------
# A lab with a grading bank (grader/bank.py) holds in each row, after the public tests the
# checker judges, one entry for each bank scenario its run drew under the class folder's seed.
# The public entries are compared with the engine's own reports, as ever; the bank entries with
# their own contract (bank_faults), since no student, and no checker run, has their code.


def public_entries(row: dict) -> list[dict]:
    """A grades.json row's entries of the public tests (every earlier lab's too)."""
    return [t for t in row["tests"] if t["set"] != bank.SET]


def bank_entries(row: dict) -> list[dict]:
    """A grades.json row's entries of the grading bank's drawn scenarios."""
    return [t for t in row["tests"] if t["set"] == bank.SET]


def drawn(lab_out: Path) -> bank.Drawn:
    """The bank subset the run that wrote `lab_out` (OUT/lab-NN.K) drew: from the seed the run
    kept in its class folder, by the bank's own draw, not read back from the reports."""
    seed = int((lab_out.parent / pipeline.SEED_FILE).read_text(encoding="utf-8"))
    subset = bank.drawn(LAB.id, seed)
    assert subset is not None, f"lab {LAB.id} has no grading bank ({bank.path_of(LAB.id)})"
    return subset


def bank_faults(row: dict, subset: bank.Drawn) -> list[str]:
    """What `row`'s bank entries get wrong of their contract, one line each (none: they keep
    it). One entry for each drawn scenario and for no other, after every public entry, hidden
    and of no lab, named by the sentence of the rule it checks; what a student reads of it (its
    sentence and its reason) holds no line or string of the bank's code, and its reason is the
    bank's own words when it failed, unless the whole submission shares it (why nothing was
    graded, or why the file did not import)."""
    entries, student = bank_entries(row), row["student"]
    faults = []
    ids = {f"{bank.NAME}::{name}": name for name in subset.rules}
    if sorted(t["id"] for t in entries) != sorted(ids):
        faults.append(f"{student}: bank entries {sorted(t['id'] for t in entries)}, where the "
                      f"draw under the folder's seed gives {sorted(ids)}")
    if row["tests"][len(row["tests"]) - len(entries):] != entries:
        faults.append(f"{student}: a public entry comes after a bank entry")
    shared = {row["problem"], row["import_error"]} - {None}
    for t in entries:
        name = ids.get(t["id"])
        if name is not None and t["says"] != subset.rules[name]:
            faults.append(f"{student}: {t['id']} says {t['says'][:60]!r}, not the sentence of "
                          f"its rule, {subset.rules[name][:60]!r}")
        if not t["hidden"] or t["lab"] is not None:
            faults.append(f"{student}: {t['id']} is shown as a public test of lab {t['lab']}")
        if t["verdict"] != "pass" and t["message"] != words_feedback.BANK_REASON and t["message"] not in shared:
            faults.append(f"{student}: {t['id']} failed with a reason of its own, "
                          f"{t['message'][:80]!r}, where a student reads words_feedback.BANK_REASON")
        leaked = bank_leaks(t["says"] + "\n" + t["message"], LAB.id)
        if leaked:
            faults.append(f"{student}: {t['id']} shows the bank's code: {leaked[:3]}")
    return faults


def of_rule(subset: bank.Drawn, rule_id: str) -> set[str]:
    """The ids of the drawn scenarios that check rule `rule_id` ("15.1 rule 1")."""
    (rule,) = [r for r in ledger.of_lab(LAB.id) if r.id == rule_id]
    return {f"{bank.NAME}::{name}" for name in rule.bank if name in subset.rules}


def banked_points(lab_out: Path, own_lab_only: bool = False) -> dict[str, float]:
    """What each test of the run that wrote `lab_out` must be worth, found apart from it: each
    public test its points without a bank (plans.make with no draw) times the lesson's
    public_share, and each drawn scenario an equal part of the rest of what the public tests
    were worth alone."""
    plain = plans.make(LAB.id, own_lab_only=own_lab_only)
    share, subset = bank.public_share(LAB.id), drawn(lab_out)
    worth = sum(t.points for t in plain.tests)
    return {**{t.id: t.points * share for t in plain.tests},
            **{f"{bank.NAME}::{name}": worth * (1 - share) / len(subset.rules)
               for name in subset.rules}}
