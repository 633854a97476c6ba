"""A GitHub Classroom workflow for a lab: .github/workflows/classroom.yml for a student repository
made from the student release through that lab (python -m grader release --through LAB).

The workflow scores partial work: each test of the lab's cumulative suite is worth its points
(the same as `python -m grader grade` and the Gradescope bundle give), reported to Classroom in
the form its autograding reporter reads. The tests live in the student's repository, so the
workflow carries what the instructor released (grader/graded.py: the lab/ package, and the
tests and expected values of the graded lab and the labs before it, no later lab's) as digests,
and its scorer (grader/classroom_score.py, written into the workflow whole) scores nothing when
a file differs. The header names the protected paths to give Classroom's assignment settings.

What this cannot stop, said in the header too: the workflow is itself a file of the student's
repository, so a student who edits the tests and the digests, or the workflow's steps, gets the
score they wrote. Classroom flags a change to a protected path in the assignment's view; the
instructor's own `python -m grader grade` runs the kit's tests in its sandbox, under a seed no
released expected.json holds, and is the grade to trust.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from lab.check import manifest

from grader import classroom_score, graded
from grader.errors import GraderError
from grader.plan import make
from grader.refusals import NoCourse, OtherCourse

PROTECTED = (".github/**", "lab/**", "starters/**", "lessons/**")

HEADER = """\
# GitHub Classroom autograding for {name}: "{title}".
# Written by `python -m grader classroom --lab {lab}` for a repository made from the course's
# release through lab {lab}. It runs the course's tests on {harness}
# (where `course start {lab}` puts the student's file; commit the work/ folder) and gives
# Classroom each passed test's points: {points:g} in all, so partial work scores.
# Before and after the tests, it checks the files they use (lab/, and the tests and
# expected.json of lab {lab} and the labs before it) against the digests below, taken from
# the instructor's copy: a deleted or edited test, an edited expected.json or a changed lab/
# file scores nothing, and the run says which file.
# The digests are in this file, which the student can edit too: a student who edits a test and
# its digest gets the score they wrote. In the assignment's settings, list as protected paths
# {protected}
# so that Classroom flags a submission that changes them, and grade with `python -m grader grade`
# for the score to trust.
"""

BODY = """\
name: Autograding Tests
on:
  - push
  - repository_dispatch
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    steps:
      - name: Checkout code
        uses: actions/checkout@v4
      - name: Set up Python
        uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - name: "{name}: {title} ({tests} tests)"
        id: {step}
        timeout-minutes: 10
        run: |
{script}
      - name: Autograding Reporter
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
          {env}_RESULTS: "${{{{steps.{step}.outputs.result}}}}"
        with:
          runners: {step}
"""


def released(lab_id: str) -> dict:
    """What the workflow's scorer holds the repository to (classroom_score's RELEASED)."""
    plan = make(lab_id)
    lab = manifest.lab(lab_id)
    graded_labs = [f.lab for f in plan.kit_files()]
    return {
        "lab": lab.id, "lesson": lab.lesson.number, "harness": f"work/{lab.folder}/harness.py",
        "tests": _relative(lab.tests),
        "files": {_relative(path): hashlib.sha256(path.read_bytes()).hexdigest()
                  for path in [*graded.package(manifest.KIT, "lab"), *graded.tests(plan)]},
        "suite": [[x.id, _relative(x.tests), _relative(x.expected)] for x in graded_labs],
        "points": [[t.id, t.points] for t in plan.tests]}


def _literal(data: dict) -> str:
    """`released` as Python (and JSON) that a reader scans: one file, lab or test a line."""
    lines = ["{"]
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append(f" {json.dumps(key)}: {{")
            lines += [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in value.items()]
            lines.append(" },")
        elif isinstance(value, list):
            lines.append(f" {json.dumps(key)}: [")
            lines += [f"  {json.dumps(item)}," for item in value]
            lines.append(" ],")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)},")
    return "\n".join(lines) + "\n}"


def _relative(path: Path) -> str:
    return path.relative_to(manifest.KIT).as_posix()


def script(lab_id: str) -> str:
    """The step's shell script: the scorer's code and the release, fed to Python as a file
    of the workflow alone (isolated from the repository's path and environment). The shell
    gives way to Python (exec), with GitHub's step files out of the environment and the
    output file open as descriptor 3, so that no process of the step holds its path in its
    environment, where a process of the same user could read it in /proc."""
    code = Path(classroom_score.__file__).read_text(encoding="utf-8") + "\n\n" + \
        "raise SystemExit(main(" + _literal(released(lab_id)) + "))\n"
    unset = " ".join(f"-u {name}" for name in classroom_score.STEP_FILES)
    return (f'exec env {unset} python -I - {classroom_score.RESULT_FD}>>"$GITHUB_OUTPUT" '
            "<<'SCORE'\n" + code + "SCORE\n")


def workflow(lab_id: str) -> str:
    """The workflow's text for `lab_id`."""
    plan = make(lab_id)
    lab = manifest.lab(lab_id)
    step = "lab-" + lab.id.replace(".", "-")
    title = lab.title.replace('"', "'")
    body = "\n".join(" " * 10 + line if line else "" for line in script(lab_id).splitlines())
    return HEADER.format(
        name=lab.name, title=title, lab=lab.id, harness=f"work/{lab.folder}/harness.py",
        points=plan.max_score, protected=", ".join(PROTECTED),
    ) + BODY.format(name=lab.name, title=title, tests=len(plan.tests), step=step,
                    env=step.upper(), script=body)


def write(lab_id: str, out: Path) -> Path:
    """Write .github/workflows/classroom.yml under `out` and return its path. Where `out`
    holds a copy of the course, its files must be the ones the workflow checks for: a release
    built from another copy of the kit, or through an earlier lab, would score every push 0.
    A folder without a copy is refused: the workflow could be checked against nothing, and
    the README promises that it is."""
    if not (Path(out) / "lab").is_dir():
        raise GraderError(NoCourse(out, lab_id))
    differ = classroom_score.changed(Path(out), released(lab_id)["files"])
    if differ:
        raise GraderError(OtherCourse(out, lab_id, tuple(differ)))
    text = workflow(lab_id)
    path = Path(out) / ".github" / "workflows" / "classroom.yml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
