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

from lab.check import manifest

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
