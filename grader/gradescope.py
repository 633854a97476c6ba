"""The Gradescope autograder: a bundle that grades one submission with the same suites, and the
run inside it that writes Gradescope's results.json.

The bundle is a zip with, at its root:

    setup.sh            run once by Gradescope as root: finds (or installs) Python 3.11+ and
                        checks that the kit's copy loads; the kit needs nothing beyond the
                        standard library, so nothing else is installed
    run_autograder      run for each submission: grades /autograder/submission's harness.py
                        and writes /autograder/results/results.json
    grader_plan.json    the plan: the lab, the tests and their points, the limits, and the
                        instructor's extra tests with the reference's observations of them
    kit/                the kit's lab/ and grader/ packages, the tests.py and expected.json
                        (under starters/) of the labs the plan runs and the lesson.toml of the
                        lessons up to the graded lab's (grader/graded.py), and the graded lab's
                        reference alone (under solutions/); nothing of a later lab, no other
                        solution, no source/

Seeds: each submission is graded under a secret seed drawn when it is graded, so the cases it
meets are in no released expected.json and differ from one submission to the next. The
reference's observations under that seed are recorded first, from the reference the bundle
carries for this alone; it is kept from the submission as the plan is: readable by root
alone (setup.sh and run_autograder make it so), and outside the allow-listed view a submission
runs in (grader/sandbox/view.py). results.json names the seed and the local checker's `--seed N`.

Hidden tests: students read results.json (a hidden test's entry once `hidden_visibility`
allows), so a hidden test's entry holds its sentence and verdict, never its reason.

The grading bank (grader/bank.py): the bundle's plan holds the subset of the lab's bank drawn
under a secret seed when the bundle is built, recorded again on the reference under each
submission's seed like the extra tests; its tests are visible at once, since each shows only the
sentence of the rule it checks.

run_autograder reads GRADER_SOURCE, GRADER_SUBMISSION, GRADER_RESULTS and GRADER_PYTHON when
they are set, so that it can be run on any machine to try a bundle before uploading it.
"""
from __future__ import annotations

import json
import tempfile
import time
import zipfile
from dataclasses import asdict
from pathlib import Path

from lab.check import manifest, seeds
from lab.check.verdict import Verdict

from grader import bank, batch, graded, plan as plans, report, submissions
from grader import words_gradescope as said
from grader.batch import Unfound
from grader.errors import GraderError
from grader.plan import Plan
from grader.refusals import NoSolutions, NoVisibility
from grader.row import Row
from grader.sandbox.statement import Statement

PLAN = "grader_plan.json"
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")

SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image.
set -euo pipefail
SOURCE="$(cd "$(dirname "$0")" && pwd)"

find_python() {
    for candidate in python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 &&
           "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

if ! PYTHON="$(find_python)"; then
    echo "Installing Python 3.11 (the course kit needs 3.11 or newer) ..."
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3.11
    PYTHON="$(find_python)"
fi
echo "$PYTHON" > "$SOURCE/python-path"

# The plan holds the extra tests' expected values, and solutions/ the reference each
# submission's seed is recorded from: only root may read them.
chmod 600 "$SOURCE/grader_plan.json"
chmod -R go-rwx "$SOURCE/kit/solutions"
# The kit uses only Python's standard library; check that its copy loads.
cd "$SOURCE/kit"
"$PYTHON" -c "import sys, lab.check.child, grader.gradescope
print('The course kit loads with Python', sys.version.split()[0])"
# The libraries a submission's view binds, listed now into the image's cache folder rather than
# by every submission's run (grader/sandbox/view.py, libraries).
"$PYTHON" -c "from grader.sandbox import view; view.libraries()"
"""

RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission. To try the bundle elsewhere, set GRADER_SOURCE
# (this folder), GRADER_SUBMISSION (a folder holding harness.py) and GRADER_RESULTS (the
# results.json to write); GRADER_PYTHON picks the interpreter.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
if [ -n "${GRADER_SOURCE:-}" ]; then
    SOURCE="$GRADER_SOURCE"
elif [ -f "$HERE/grader_plan.json" ]; then
    SOURCE="$HERE"
else
    SOURCE=/autograder/source
fi
SUBMISSION="${GRADER_SUBMISSION:-/autograder/submission}"
RESULTS="${GRADER_RESULTS:-/autograder/results/results.json}"
PYTHON="${GRADER_PYTHON:-$(cat "$SOURCE/python-path" 2>/dev/null || command -v python3)}"
chmod 600 "$SOURCE/grader_plan.json" 2>/dev/null
chmod -R go-rwx "$SOURCE/kit/solutions" 2>/dev/null
mkdir -p "$(dirname "$RESULTS")"
cd "$SOURCE/kit"
exec "$PYTHON" -m grader gradescope-run --source "$SOURCE" --submission "$SUBMISSION" \\
    --results "$RESULTS"
"""


def build(plan: Plan, out: Path, *, settings: batch.Settings | None = None,
          hidden_visibility: str = "after_published") -> Path:
    """Write the bundle zip to `out` and return its path."""
    if hidden_visibility not in VISIBILITIES:
        raise GraderError(NoVisibility(hidden_visibility, tuple(VISIBILITIES)))
    settings = settings or batch.Settings()
    reference = manifest.lab(plan.lab).solution
    if not reference.is_file():
        raise GraderError(NoSolutions(plan.lab, "bundle"))
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    config = {"plan": plan.to_dict(), "settings": asdict(settings),
              "hidden_visibility": hidden_visibility}
    kit = manifest.KIT
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bundle:
        _add(bundle, "setup.sh", SETUP, 0o755)
        _add(bundle, "run_autograder", RUN, 0o755)
        _add(bundle, PLAN, json.dumps(config, indent=1, ensure_ascii=False) + "\n", 0o600)
        for path in sorted(_kit_files(kit, plan)):
            _add(bundle, "kit/" + path.relative_to(kit).as_posix(), path.read_bytes(), 0o644)
        _add(bundle, "kit/" + reference.relative_to(kit).as_posix(), reference.read_bytes(),
             0o600)
    return out


def _kit_files(kit: Path, plan: Plan) -> list[Path]:
    """The files the bundle's kit needs: lab/ and grader/ (code), and what grader/graded.py
    says a copy grading `plan` holds of the course. A submission may read them where the
    sandbox has no private view, so no later lab's tests are among them; never solutions/
    (build adds the graded lab's reference alone) or source/."""
    return [*graded.package(kit, "lab"), *graded.package(kit, "grader"),
            *graded.lessons(plan), *graded.tests(plan)]


def _add(bundle: zipfile.ZipFile, name: str, data, mode: int) -> None:
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # the same bytes every build
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    bundle.writestr(info, data if isinstance(data, bytes) else data.encode("utf-8"))


# --- inside Gradescope -------------------------------------------------------------------------

def run_inside(source: Path, submission: Path, results: Path, *, level: str | None = None) -> int:
    """Grade the submission folder's harness.py with the bundle's plan, under a secret seed
    drawn now and the reference recorded under it first, and write results.json. `level`
    forces the sandbox's level (grader/sandbox): a bundle tried at "user" meets its submission
    as a container that refuses namespaces does, with no private view of the files."""
    started = time.monotonic()
    config = json.loads((Path(source) / PLAN).read_text(encoding="utf-8"))
    plan = plans.reseeded(Plan.from_dict(config["plan"]), seeds.secret())
    settings = batch.Settings(**config["settings"])
    sub = submission_in(Path(submission), plan.lab)
    with tempfile.TemporaryDirectory(prefix="grader-run-") as work:
        # Gradescope runs each submission in a container of its own, thrown away afterwards:
        # there, running as root is the last resort rather than a refusal.
        rows, isolation = batch.grade_all(plan, [sub], Path(work), jobs=1, settings=settings,
                                          extra_files=[Path(source) / PLAN], level=level,
                                          unsandboxed_root=True)
    data = results_json(plan, rows[0], isolation,
                        config.get("hidden_visibility", "after_published"),
                        time.monotonic() - started, took=sub.took)
    results = Path(results)
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(said.ran(sub.shown, sub.took, f"{data['score']:g}", f"{plan.max_score:g}",
                   str(results), sub.problem or ""))
    print(said.isolation(isolation.level))
    for line in isolation.cannot_prevent:
        print(f"  - {line}")
    return 0


def submission_in(folder: Path, lab_id: str | None = None) -> batch.Submission:
    """The student's harness.py in what Gradescope unpacked: at the top, or the only one; in a
    course repository holding several, the one at lab `lab_id`'s standard path
    (work/NN-slug/labK/harness.py); with no harness.py, the only .py file whatever its name.
    What was taken, and why where its place does not say it, is in `took`. Why there is none
    is worded here, to a student who uploaded files rather than a folder."""
    if not folder.is_dir():
        return batch.Submission("submission", None, str(folder), said.NO_FOLDER)
    sub = batch.in_folder(folder)
    sub.student = "submission"
    sub.shown = Path(sub.path).relative_to(folder).as_posix() if sub.path else ""
    if sub.unfound is Unfound.SEVERAL and lab_id:
        standard = f"work/{manifest.lab(lab_id).folder}/harness.py"
        at = [c for c in sub.candidates if c == standard or c.endswith("/" + standard)]
        if len(at) == 1:
            return _taken(folder, at[0], said.at_its_place(lab_id, len(sub.candidates)))
    if sub.unfound is Unfound.NONE:
        files = [p.relative_to(folder).as_posix() for p in submissions.python_files(folder)]
        if len(files) == 1:
            return _taken(folder, files[0], said.ONLY_PYTHON_FILE)
        sub.problem = said.no_harness(files)
    elif sub.unfound is Unfound.SEVERAL:
        sub.problem = said.several(
            sub.candidates, f"work/{manifest.lab(lab_id).folder}/harness.py" if lab_id else None)
    return sub


def _taken(folder: Path, relative: str, why: str) -> batch.Submission:
    sub = submissions.sized(batch.Submission("submission", str(folder / relative), relative))
    sub.took = why
    return sub


def results_json(plan: Plan, row: Row, isolation: Statement, hidden_visibility: str,
                 seconds: float, took: str = "") -> dict:
    """Gradescope's results.json for one graded submission: a test entry per lab test with
    its points, status, reason and visibility (hidden tests use `hidden_visibility`). Students
    read it, so it is written from what they may read of the row (Row.for_students): a hidden
    test shows its sentence and verdict alone."""
    row = row.for_students()
    lab = manifest.lab(plan.lab)
    tests = []
    for number, t in enumerate(row.tests, 1):
        tests.append({
            "name": t.says,
            "number": str(number),
            "score": plans.points(t.earned),
            "max_score": plans.points(t.points),
            "status": "passed" if t.verdict is Verdict.PASS else "failed",
            "output": said.test_output(t.verdict.words, t.message),
            "tags": [t.set],
            # A bank test shows its rule's sentence alone, which the student may read at once.
            "visibility": hidden_visibility if t.hidden and t.set != bank.SET else "visible",
        })
    lines = [said.title(lab.name, lab.title), said.score(f"{row.score:g}", f"{row.max:g}"),
             plan.sets_line()] + ([plan.bank_line()] if plan.share is not None else [])
    if row.source and not row.problem:
        lines.append(said.graded(row.source, took))
    if row.problem:
        lines.append(row.problem)
    elif row.import_error:
        lines.append(said.did_not_import(row.import_error, report.python_words()))
    lines += row.notes
    if plan.seed != seeds.PUBLIC and not row.problem:
        lines.append(report.seed_words(plan.seed, said.seed_command(lab.lesson.number)))
    return {
        "score": plans.points(row.score),
        "execution_time": int(round(seconds)),
        "output": "\n".join(lines),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {"lab": plan.lab, "verdict": row.verdict, "seed": plan.seed,
                       "isolation": isolation.level},
    }
