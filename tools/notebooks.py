"""Build each lesson's notebook from its Markdown source, check the committed one, and pin what
its cells print.

Building (lesson.md in jupytext's Markdown, the course's directives, the numbered cells) is
grader/lesson_notebooks.py, the one mechanism, which the student release uses too; see its
docstring for the grammar. This is the authors' side around it: write and check the committed
lesson.ipynb, run a notebook, and pin what it printed.

What each code cell prints is pinned once, in source/lessons/NN-slug/outputs.json (cell id ->
text), and nowhere else: the notebook a student opens carries no outputs and no expected
outputs, so no cell's answer sits beside its question. Whatever compares a run with the pins
reads them with pins() and compares with mismatches(); the kit's tests re-run every notebook
that way (tests/authoring/test_notebooks.py).

usage: python -m tools.notebooks build|check|pin [NN ...]
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
import tempfile
from pathlib import Path

import nbformat

from lab.check import manifest

# What the authors' tools and tests use of the builder, by the names they always had here.
from grader.lesson_notebooks import (  # noqa: F401
    CHOICE, LETTERS, LessonError, Prediction, build, pins, predictions, read_prediction)


def canonical(notebook) -> str:
    """A notebook as sorted JSON, so two notebooks compare equal whatever their formatting."""
    return json.dumps(json.loads(nbformat.writes(notebook) if not isinstance(notebook, str)
                                 else notebook), sort_keys=True, ensure_ascii=False, indent=1)


def write(lesson: manifest.Lesson) -> Path:
    """Write build(lesson) to the lesson's lesson.ipynb and return its path."""
    nbformat.write(build(lesson), lesson.notebook)
    return lesson.notebook


def check(lesson: manifest.Lesson) -> list[str]:
    """What is wrong with the committed lesson.ipynb: empty when it equals build(lesson). Also
    names pins in outputs.json that no code cell has, which a renumbering leaves behind."""
    name = f"lesson {lesson.number:02d}"
    if not lesson.notebook.is_file():
        return [f"{name}: lesson.ipynb is missing; run python -m tools.notebooks build "
                f"{lesson.number}"]
    problems = []
    built = build(lesson)
    committed = lesson.notebook.read_text(encoding="utf-8")
    if canonical(committed) != canonical(built):
        problems.append(f"{name}: lesson.ipynb is not what lesson.md builds"
                        f"{_first_difference(json.loads(committed), built)}; run "
                        f"python -m tools.notebooks build {lesson.number}")
    code = {c.id for c in built.cells if c.cell_type == "code"}
    stale = sorted(set(pins(lesson)) - code)
    if stale:
        problems.append(f"{name}: outputs.json pins {', '.join(stale)}, which are not code "
                        f"cells; run python -m tools.notebooks pin {lesson.number}")
    return problems


def _first_difference(committed: dict, built) -> str:
    old = committed.get("cells", [])
    # Compared as written, since a built cell holds its source as one string and a file as
    # a list of lines.
    new = json.loads(nbformat.writes(built))["cells"]
    for number, cell in enumerate(new):
        if number >= len(old) or old[number] != cell:
            return f" (first at {cell['id']})"
    if len(old) != len(new):
        return f" ({len(old)} cells instead of {len(new)})"
    return " (in the notebook's metadata)"


# --- running -----------------------------------------------------------------------------------

def printed(cell) -> str:
    """What a code cell printed, as outputs.json holds it: its stream text, the text/plain of
    each result and display (each followed by a newline), and `Name: message` for an error,
    in output order."""
    text = []
    for output in cell.get("outputs", []):
        kind = output.get("output_type")
        if kind == "stream":
            text.append(output.get("text", ""))
        elif kind in ("execute_result", "display_data"):
            plain = output.get("data", {}).get("text/plain")
            if plain is not None:
                text.append(plain + "\n")
        elif kind == "error":
            text.append(f"{output.get('ename')}: {output.get('evalue')}\n")
    return "".join(text)


def execute(lesson: manifest.Lesson, *, timeout: int = 60, work: Path | None = None
            ) -> dict[str, str]:
    """Run the built notebook top to bottom (kernel python3, in the lesson's folder, with
    HARNESS_COURSE_AS_SOLVED=1 and HARNESS_COURSE_WORK a fresh folder named `work` unless given)
    and return each code cell's printed text by cell id. A cell that raises stops the run,
    unless it is tagged raises-exception. The desk prints the work folder's paths absolute in
    a notebook, so the work folder is written `<work>` in what this returns: pins do not
    depend on the machine."""
    from nbclient import NotebookClient

    notebook = build(lesson)
    with tempfile.TemporaryDirectory(prefix="course-") as scratch:
        # Named "work" like a student's; its place is written <work> in what is returned.
        folder = Path(work) if work is not None else Path(scratch) / "work"
        folder.mkdir(parents=True, exist_ok=True)
        kit = str(Path(__file__).resolve().parent.parent)  # where `lab` imports from
        env = dict(os.environ, HARNESS_COURSE_WORK=str(folder), HARNESS_COURSE_AS_SOLVED="1",
                   PYTHONPATH=os.pathsep.join(filter(None, [kit, os.environ.get("PYTHONPATH")])))
        client = NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                                resources={"metadata": {"path": str(lesson.folder)}})
        client.execute(env=env)
        places = sorted({str(folder.resolve()), str(folder)}, key=len, reverse=True)

    def machine_free(text: str) -> str:
        for place in places:
            text = text.replace(place, "<work>")
        return text
    return {cell.id: machine_free(printed(cell)) for cell in notebook.cells
            if cell.cell_type == "code"}


def mismatches(lesson: manifest.Lesson, printed: dict[str, str]) -> dict[str, str]:
    """Each code cell whose text in `printed` (what execute() returns) is not its pin in
    outputs.json, as cell id -> the cell's id and first line, then a unified diff from the pin
    to what it printed. A code cell with no pin is a mismatch too. Empty when the run matches."""
    pinned = pins(lesson)
    out = {}
    for cell in build(lesson).cells:
        if cell.cell_type != "code":
            continue
        expected, actual = pinned.get(cell.id), printed.get(cell.id, "")
        if expected == actual:
            continue
        head = f"{cell.id} ({(cell.source.splitlines() or [''])[0]})"
        if expected is None:
            out[cell.id] = (f"{head}: outputs.json has no pin for it; run python -m "
                            f"tools.notebooks pin {lesson.number}")
            continue
        diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                         "pinned", "actual", lineterm=""))
        # Texts that differ only in line endings or a last newline make no line diff: show both.
        out[cell.id] = "\n".join([head, *diff] if diff else
                                 [head, f"pinned {expected!r}", f"actual {actual!r}"])
    return out


def pin(lesson: manifest.Lesson) -> dict[str, str]:
    """Run the lesson and make what it printed the pinned outputs: write outputs.json, and
    nothing else, since the notebook does not hold them. Returns the pins."""
    found = execute(lesson)
    lesson.outputs.write_text(
        json.dumps(found, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return found


# --- the command line ----------------------------------------------------------------------------

def written() -> list[manifest.Lesson]:
    """Every lesson that has a lesson.md, in course order."""
    return [lesson for lesson in manifest.lessons() if lesson.source.is_file()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.notebooks",
                                     description="Build, check or pin lesson notebooks.")
    parser.add_argument("action", choices=("build", "check", "pin"))
    parser.add_argument("lessons", nargs="*", type=int,
                        help="lesson numbers (default: every lesson with a lesson.md)")
    args = parser.parse_args(argv)
    chosen = [manifest.lesson(n) for n in args.lessons] if args.lessons else written()
    status = 0
    for lesson in chosen:
        if not lesson.source.is_file():
            print(f"lesson {lesson.number:02d}: no lesson.md yet", file=sys.stderr)
            status = 1
            continue
        try:
            if args.action == "build":
                print(f"wrote {write(lesson).relative_to(manifest.KIT)}")
            elif args.action == "pin":
                found = pin(lesson)
                print(f"lesson {lesson.number:02d}: pinned {len(found)} code cells")
            else:
                problems = check(lesson)
                for problem in problems:
                    print(problem, file=sys.stderr)
                status = status or int(bool(problems))
                if not problems:
                    print(f"lesson {lesson.number:02d}: lesson.ipynb is up to date")
        except LessonError as problem:
            print(problem, file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
