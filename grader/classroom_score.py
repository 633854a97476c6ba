"""The scorer a GitHub Classroom workflow runs in a student's repository: grader/classroom.py
writes this file's code into the workflow, followed by a call of `main` with what the
instructor released (RELEASED below).

It checks the course's files against the release before it trusts them, because they sit in
the student's repository: a test deleted or edited, an expected.json or a file of the lab/
package changed, or a file added under lab/ (where it could take a released module's place)
scores nothing, and the run names the file. Then it runs the lab's tests with the course's
local checker, printing its lines, checks the files once more (the student's code ran in
between), and writes each test's points as the `result` output of the workflow's step, in the
form GitHub Classroom's autograding reporter reads from its graders: base64 of JSON with
`max_score` and a `score` per test. Classroom records the sum of those scores.

It runs where the grader is not installed: the standard library alone until the files are
checked, then the released lab/ package, and nothing else of the repository's: a `tomllib.py`
at its root once took the standard library's place in this process and scored a starter full
marks, so the repository is never put on sys.path; a finder of its own (`only_lab`) gives
Python the `lab` package from it and nothing more.

The step's output file is kept from the student's code as far as a process of the same user
can be: the workflow's script hands it to this process as an open file (descriptor 3, never
inherited) with GitHub's step files out of the environment, replacing its own shell, so no
process of the step holds the path in its environment; and this process makes itself
undumpable (Linux), so that the student's process, a child of its own user, cannot read its
/proc files (environ, fd/3, mem). What remains: the file sits in the runner's folder of step
files, which any process of that user may list and write (README, "GitHub Classroom").

Its sentences are the table WORDS at its top, not the kit's words modules (grader/words_*.py,
lab/check/words*.py): it runs alone, and imports nothing of the kit's before the files are
checked, so it could not import them, and a released copy of them would be the student's to
edit. One table keeps them in one place all the same, for a reader and for
tests/check/test_pseudo_localised.py, which swaps it; the checker's own lines it prints are the
kit's.

RELEASED: {"lab", "lesson", "harness", "tests" (the lab's tests.py), "files" ({path: sha256}
for lab/ and each graded lab's tests.py and expected.json), "suite" ([lab id, tests.py,
expected.json] in the order the checker runs them), "points" ([test id, points], in order)}.
"""
import base64
import hashlib
import importlib.machinery
import json
import os
import shutil
import sys
from pathlib import Path

# Every sentence the scorer says, each a str.format template of the values it names
WORDS = {
    "missing": "{name} (missing)",  # a course file, as `changed` names it
    "changed": "{name} (changed)",
    "added": "{name} (added)",
    "no harness": "This repository holds no {harness}, so no test ran. `course start {lab}` puts "
                  "your file there: commit the work/ folder and push it.",
    "other suite": "The course's lessons now name other test files for these labs than the "
                   "release did, so no test was run. Put back the released lessons/.",
    "differ": "These course files differ from the ones your instructor released, so this push "
              "scores nothing: {files}. Put back the copies your repository began with (`git "
              "log --reverse` shows its first commit; `git checkout THAT_COMMIT -- PATH` "
              "restores a file) and push again.",
    "points": "Points for lab {lab}: {earned:g} of {most:g}.",
}
PACKAGE = "lab"
# The files through which a step hands GitHub Actions its outputs and the next steps' settings:
# the student's code runs in this step's processes, so it is not told where they are.
STEP_FILES = ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STATE", "GITHUB_STEP_SUMMARY")
UNCHECKED = {"lab/desk/hints.packed"}  # each week's release packs its own hints; no check reads it
RESULT_FD = 3  # the step's output file, opened for appending by the workflow's script
PR_SET_DUMPABLE = 4  # prctl(2)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def changed(root: Path, files: dict) -> list:
    """Each released file that is missing or differs in `root`, and each file under lab/ that
    the release did not hold, as "PATH (missing|changed|added)". Python's caches are not
    counted: the scorer drops them before it imports anything (drop_caches)."""
    found = []
    for name, wanted in sorted(files.items()):
        path = root / name
        if not path.is_file():
            found.append(WORDS["missing"].format(name=name))
        elif digest(path) != wanted:
            found.append(WORDS["changed"].format(name=name))
    for path in sorted((root / PACKAGE).rglob("*")):
        name = path.relative_to(root).as_posix()
        if path.is_file() and name not in files and name not in UNCHECKED \
                and "__pycache__" not in path.parts:  # dropped before the run, then Python's

            found.append(WORDS["added"].format(name=name))
    return found


def drop_caches(root: Path) -> None:
    """Python would load a committed cache of a module in place of its checked source."""
    for cache in sorted((root / PACKAGE).rglob("__pycache__"), reverse=True):
        shutil.rmtree(cache, ignore_errors=True)


class only_lab:
    """A finder, first on sys.meta_path, that imports the `lab` package from one folder and
    nothing else from it: the released lab/ rather than any installed copy, and for every
    other name the standard library and what is installed, never a module the student put
    beside lab/."""

    def __init__(self, root: Path):
        self.root = str(root)

    def find_spec(self, name, path=None, target=None):
        if name != PACKAGE:
            return None
        return importlib.machinery.PathFinder.find_spec(name, [self.root])


def hide() -> None:
    """Make this process undumpable, so that a process of the same user (the student's, which
    this one starts) cannot read its /proc files: its environment, its open files, its memory.
    Linux only; elsewhere nothing is hidden, as the README says."""
    if sys.platform != "linux":
        return
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def result_file():
    """The step's output file, as the workflow's script opened it (descriptor 3), never
    inherited by a child; else the path in GITHUB_OUTPUT (a run of main by hand); else None."""
    try:
        os.fstat(RESULT_FD)
    except OSError:
        path = os.environ.get("GITHUB_OUTPUT")
        return open(path, "a", encoding="utf-8") if path else None
    os.set_inheritable(RESULT_FD, False)
    return open(RESULT_FD, "a", encoding="utf-8", closefd=True)


def run_suite(root: Path, released: dict) -> tuple:
    """({test id: outcome}, problem): the local checker's outcomes on the student's file, or
    why none could be had. Its lines are printed as `lab_check.py` prints them."""
    sys.meta_path.insert(0, only_lab(root))
    from lab.check import local
    from lab.check.errors import UserError
    from lab.check.lines import check_aloud
    harness, tests = root / released["harness"], root / released["tests"]
    if not harness.is_file():
        return {}, WORDS["no harness"].format(harness=released["harness"], lab=released["lab"])
    try:
        chosen = local.choose(harness, tests, released["lesson"])
    except UserError as problem:
        return {}, str(problem)
    suite = [[f.lab_id, Path(f.path).resolve().relative_to(root).as_posix(),
              f.lab.expected.resolve().relative_to(root).as_posix()]
             for f in chosen.files]
    if suite != released["suite"]:
        return {}, WORDS["other suite"]
    checked = check_aloud(harness, tests, released["lesson"])
    report = checked.report
    return {o.id: o for o in report.outcomes}, report.import_error


def result(released: dict, outcomes: dict, problem) -> dict:
    """The reporter's result: every released test with its points if it passed, else 0."""
    tests = []
    for test_id, points in released["points"]:
        outcome = outcomes.get(test_id)
        passed = outcome is not None and outcome.verdict == "pass"
        tests.append({"name": outcome.says if outcome else test_id,
                      "status": "pass" if passed else "fail",
                      "score": points if passed else 0,
                      "message": (outcome.message if outcome else problem) or "",
                      "test_code": test_id, "filename": released["tests"]})
    every = all(test["status"] == "pass" for test in tests)
    return {"version": 1, "status": "pass" if every else ("error" if problem else "fail"),
            "max_score": sum(points for _, points in released["points"]), "tests": tests}


def main(released: dict, root=None) -> int:
    """Check, run and score the student's file; write the result; always exit 0, so that the
    reporter's step runs and Classroom hears the score."""
    root = Path(root or os.getcwd()).resolve()
    hide()
    output = result_file()
    for name in STEP_FILES:
        os.environ.pop(name, None)
    drop_caches(root)
    differ = changed(root, released["files"])
    outcomes, problem = {}, None
    if not differ:
        outcomes, problem = run_suite(root, released)
        differ = changed(root, released["files"])
        if differ:
            outcomes = {}
    if differ:
        problem = WORDS["differ"].format(files=", ".join(differ))
    if problem and not outcomes:
        print(problem)
    data = result(released, outcomes, problem)
    earned = sum(test["score"] for test in data["tests"])
    print(WORDS["points"].format(lab=released["lab"], earned=earned, most=data["max_score"]))
    encoded = base64.b64encode(json.dumps(data).encode("utf-8")).decode("ascii")
    if output:
        with output:
            output.write(f"result={encoded}\n")
    else:
        print(f"result={encoded}")
    return 0
