"""Makes every generated file of the kit from its one source, or checks the committed ones.

    python -m tools.make              write everything
    python -m tools.make --check      list what differs from what would be written; exit 1 if any
    python -m tools.make labs         only starters/ (both levels) and solutions/ (from source/harness.src.py)
    python -m tools.make expected     only starters/*/lab*/expected.json (the reference's observations)
    python -m tools.make notebooks    only lessons/*/lesson.ipynb (from source/lessons/*/lesson.md)
    python -m tools.make figures      only lessons/*/figures/*.svg (drawn by tools/figures/)
    python -m tools.make designs      only starters/wrong_designs.json (from source/wrong_designs/)

The kit's tests run the --check form, so a committed file that differs from its source fails.
"""
from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from lab.check import manifest, suite
from tools import labsource
from tools.generated import differences, write


def lab_files() -> dict[Path, str]:
    """starters/ and solutions/: each lab's files, from the single source. A lab's two starters
    sit side by side, harness.py (standard) and harness.guided.py, so that the lab's content
    stays one folder and everything that looks for a lab's harness.py finds exactly one."""
    tree = labsource.parse(labsource.SOURCE.read_text(encoding="utf-8"))
    files = {}
    previous = None
    for lab in manifest.labs():
        files[lab.solution] = labsource.make(lab, "solution", tree=tree)
        if not lab.reference_only:
            files[lab.starter] = labsource.make(lab, "starter", tree=tree)
            files[lab.guided] = labsource.make(lab, "guided", tree=tree)
            if previous is not None:
                files[lab.starter.parent / "changes.diff"] = changes(previous, files[previous.solution],
                                                                     lab, files[lab.starter])
        previous = lab
    return files


def changes(previous, before: str, lab, after: str) -> str:
    """The line diff from the previous lab's reference to this lab's starter: what was done
    for the student, and where the gaps open. Its header names the two files as a student
    knows them, since `course start` copies it into the lab folder and a student's copy of
    the course has no solutions/."""
    return "".join(difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True),
        f"the reference of lab {previous.id}", f"the starter of lab {lab.id} (your harness.py)"))


def expected_files(solutions: dict[Path, str] | None = None) -> dict[Path, str]:
    """starters/*/lab*/expected.json: what each built lab's own tests observe on its own solution."""
    from lab.check import record, seeds
    files = {}
    for lab in manifest.labs(built_only=True):
        if not lab.tests.exists():
            continue
        path = lab.solution
        if solutions is not None and path in solutions and \
                (not path.exists() or path.read_text(encoding="utf-8") != solutions[path]):
            raise SystemExit(f"{path} is out of date: run `python -m tools.make labs` first")
        observed = record.record(path, suite.of_lab(lab.id, cumulative_=False))
        files[lab.expected] = seeds.dumps(observed)  # recorded under the public seed
    return files


def notebook_files() -> dict[Path, str]:
    from tools import notebooks
    import nbformat
    return {lesson.notebook: nbformat.writes(notebooks.build(lesson)) + "\n"
            for lesson in manifest.lessons() if lesson.source.exists()}


def figure_files() -> dict[Path, str]:
    """lessons/*/figures/*.svg: each lesson's figures, drawn by their code (some from a run of
    the reference, so they come after labs)."""
    from tools.figures import registry
    return registry.files()


def design_files() -> dict[Path, str]:
    """starters/wrong_designs.json: the catalogue's designs without their code (lab, name,
    rule, where, names), for the grader's class page, which may not import tools/ and reads
    no source/ (a release holds neither)."""
    import json
    from tools import wrong_designs
    entries = [{"lab": d.lab, "name": d.name, "rule": d.rule, "where": d.where,
                "names": d.names} for d in wrong_designs.catalogue()]
    return {manifest.STARTERS / "wrong_designs.json":
            json.dumps(entries, indent=1, ensure_ascii=False) + "\n"}


# In this order: figures are drawn from the references, and notebooks carry the figures.
PARTS = {"labs": lab_files, "expected": expected_files, "figures": figure_files,
         "notebooks": notebook_files, "designs": design_files}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.make", description=__doc__.split("\n")[0])
    parser.add_argument("parts", nargs="*", choices=[*PARTS, []], default=[])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    chosen = args.parts or list(PARTS)
    problems = []
    for part in chosen:
        files = PARTS[part]()
        if args.check:
            problems += differences(files)
            continue
        write(files)
    for problem in problems:
        print(problem)
    if problems:
        print("The committed files above differ from their sources: run `python -m tools.make`.")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
