"""A GitHub Classroom workflow for a lab: .github/workflows/classroom.yml for a student repository
made from the student release (python -m grader release).

It runs the students' own local checker, lab/lab_check.py, on the harness.py that
`course start LAB` lays out in the repository's work folder, with GitHub Classroom's command
grader. That grader scores a command by its exit code, so the lab's points are all or nothing
there; per-test points come from `python -m grader grade` or the Gradescope bundle.
"""
from __future__ import annotations

from pathlib import Path

from lab.check import manifest

from grader.plan import make

TEMPLATE = """\
# GitHub Classroom autograding for {name}: "{title}".
# Written by `python -m grader classroom --lab {lab}`. It runs the course's local checker, the
# same tests students run, on {harness}
# (where `course start {lab}` puts the student's file; commit the work/ folder).
# Classroom's command grader scores by exit code: {points:g} points when every test passes,
# 0 otherwise. For points per test, grade with `python -m grader grade` or Gradescope.
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
      - name: {name}
        id: {step}
        uses: classroom-resources/autograding-command-grader@v1
        with:
          test-name: "{name}: {title} ({tests} tests)"
          setup-command: ""
          command: python lab/lab_check.py --harness {harness} --lesson {lesson} {tests_file}
          timeout: 10
          max-score: {max_score}
      - name: Autograding Reporter
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
          {env}_RESULTS: "${{{{steps.{step}.outputs.result}}}}"
        with:
          runners: {step}
"""


def workflow(lab_id: str) -> str:
    """The workflow's text for `lab_id`."""
    plan = make(lab_id)
    lab = manifest.lab(lab_id)
    step = "lab-" + lab.id.replace(".", "-")
    points = plan.max_score
    return TEMPLATE.format(
        name=lab.name, title=lab.title.replace('"', "'"), lab=lab.id,
        harness=f"work/{lab.folder}/harness.py", lesson=lab.lesson.number,
        tests_file=lab.tests.relative_to(manifest.KIT).as_posix(), step=step,
        env=step.upper(), tests=len(plan.tests), points=points,
        max_score=int(points) if points == int(points) else points)


def write(lab_id: str, out: Path) -> Path:
    """Write .github/workflows/classroom.yml under `out` and return its path."""
    text = workflow(lab_id)
    path = Path(out) / ".github" / "workflows" / "classroom.yml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
