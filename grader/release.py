"""The student release: the folder students get, built from the kit, with no solution source.

It holds the lessons (notebooks and their lesson.toml), the starters (each lab's starter, its
tests and the reference's recorded observations, which the checker compares with), the lab/
package (the fake world, the local checker, the desk), start.py and pyproject.toml to set it up, a README for students and
RELEASE.md. It never holds solutions/ or source/, the grader, the kit's own tests or its
authoring tools; an instructor may add chosen labs' references with `--with-reference`.

A lesson cell that loads a finished reference (`course.reference("15.1")`) cannot run without
it, and neither can a later cell that uses what such a cell made. RELEASE.md lists every one
of them, lesson by lesson, with the reason; cells that run on the student's own file or on
the fakes are not listed, because they run.
"""
from __future__ import annotations

import ast
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from lab.check import manifest

SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", ".lab", "work")
REFERENCE = re.compile(r"""course\.reference\(\s*["'](\d+(?:\.\d+)?)["']\s*\)""")

GITIGNORE = """__pycache__/
*.pyc
.venv/
.ipynb_checkpoints/
*.egg-info/
"""

README = """# {course}

This folder is the course: lessons to read and run, and labs in which you build a coding-agent
harness in Python, one piece at a time, against a fake world (a scripted model, a workspace
held in memory and a pretend shell), so every run is instant and prints the same thing
everywhere.

## Start

    python3 start.py

It needs Python 3.11 or newer. The first time, it makes a virtual environment in `.venv`,
installs the course into it, and opens JupyterLab on the lessons.

## A lab, step by step

    .venv/bin/course start 15.1      # your harness.py for lab 15.1, in work/15-stop/lab1/
    .venv/bin/course check 15.1      # run the lab's tests, and every earlier lab's
    .venv/bin/course hint 15.1       # a hint: questions first, then more
    .venv/bin/course progress        # where you are

Or check from the lab's folder, as the lessons print it:

    cd work/15-stop/lab1
    python lab/lab_check.py --harness harness.py --lesson 15 tests.py

Your work lives in `work/`; the rest of this folder is the course's and is never edited.
The tests you run are the tests your work is graded with{hidden}.

Labs in this release: {labs}.

RELEASE.md says what this copy holds, and which lesson cells need a reference solution that
it does not include.
"""


@dataclass
class Cell:
    lesson: str  # the lesson's folder name
    number: int  # the cell's position in the notebook, counting every cell from 1
    first_line: str
    needs: list[str]  # the labs whose references it loads, or whose results it uses
    direct: bool  # it loads the reference itself (else it uses what such a cell made)


@dataclass
class Release:
    out: Path
    lessons: list[str] = field(default_factory=list)
    labs: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)  # labs shipped with --with-reference
    cells: list[Cell] = field(default_factory=list)  # cells that will not run here
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        lines = [f"Wrote the student release to {self.out}: {len(self.lessons)} lessons, "
                 f"labs {', '.join(self.labs) or 'none'}."]
        lines.append("It holds no solution source" + (
            f" except the references you chose: {', '.join(self.references)}." if
            self.references else "."))
        if self.cells:
            lessons = sorted({c.lesson for c in self.cells})
            lines.append(f"{len(self.cells)} notebook cells need a reference it does not hold "
                         f"(in {', '.join(lessons)}); RELEASE.md lists them.")
        lines += self.notes
        return "\n".join(lines)


def build(out: Path, *, with_reference=()) -> Release:
    """Build the release in `out`, which must not exist or be empty."""
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty; give a new folder for the release.")
    kit = manifest.KIT
    chosen = []
    for lab_id in with_reference:
        lab = manifest.lab(lab_id)  # KeyError names the known labs
        if not lab.solution.is_file():
            raise ValueError(f"This kit has no reference for {lab.name} to include.")
        chosen.append(lab)
    out.mkdir(parents=True, exist_ok=True)
    release = Release(out, references=[lab.id for lab in chosen])
    shutil.copytree(kit / "lab", out / "lab", ignore=SKIP)
    shutil.copytree(kit / "starters", out / "starters", ignore=SKIP)
    (out / "lessons").mkdir()
    for lesson in manifest.lessons():  # what a student opens; the authors' wing stays behind
        shutil.copytree(lesson.folder, out / "lessons" / lesson.folder.name, ignore=SKIP)
        release.lessons.append(lesson.folder.name)
        _ensure_notebook(lesson, out / "lessons" / lesson.folder.name, release)
    for name in ("start.py", "pyproject.toml"):
        if (kit / name).is_file():
            shutil.copy2(kit / name, out / name)
    for lab in chosen:
        target = out / "solutions" / lab.folder / "harness.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(lab.solution, target)
    release.labs = [lab.id for lab in manifest.labs(built_only=True)
                    if (out / "starters" / lab.folder / "harness.py").is_file()]
    present = set(release.references)
    for lesson in release.lessons:
        release.cells += [c for c in needing_reference(out / "lessons" / lesson, lesson)
                          if not set(c.needs) <= present]
    (out / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
    (out / "README.md").write_text(README.format(
        course=_course_title(), labs=", ".join(release.labs) or "none yet",
        hidden=" (your instructor may add hidden tests of their own)"), encoding="utf-8")
    (out / "RELEASE.md").write_text(release_notes(release), encoding="utf-8")
    leaks = solution_leaks(out, allowed=[lab.solution for lab in chosen])
    if leaks:  # a guard, not a filter: the copy above must never pick one up
        shutil.rmtree(out)
        raise RuntimeError("The release would hold solution source, so it was removed: "
                           + ", ".join(leaks))
    return release


def _course_title() -> str:
    data = manifest.KIT / "pyproject.toml"
    if data.is_file():
        import tomllib
        description = tomllib.loads(data.read_text(encoding="utf-8")).get(
            "project", {}).get("description")
        if description:
            return description.rstrip(".")
    return "The harness course"


def _ensure_notebook(lesson: manifest.Lesson, target: Path, release: Release) -> None:
    """A lesson written as lesson.md but not yet built gets its notebook built here."""
    if (target / "lesson.ipynb").exists() or not lesson.source.exists():
        return
    try:
        import nbformat
        from tools import notebooks
        (target / "lesson.ipynb").write_text(nbformat.writes(notebooks.build(lesson)) + "\n",
                                             encoding="utf-8")
    except Exception as exc:
        release.notes.append(f"{lesson.folder.name}: its notebook could not be built ({exc}), "
                             "so the release holds no notebook for it.")


def solution_leaks(folder: Path, allowed=()) -> list[str]:
    """Files in `folder` whose text is that of a reference solution or of the single source,
    except the `allowed` references."""
    kit = manifest.KIT
    secret = {}
    for path in list((kit / "solutions").rglob("*.py")) + list((kit / "source").rglob("*.py")):
        if path not in {Path(a) for a in allowed}:
            secret[path.read_bytes().strip()] = path.relative_to(kit).as_posix()
    found = []
    for path in Path(folder).rglob("*"):
        if path.is_file() and path.read_bytes().strip() in secret:
            found.append(f"{path.relative_to(folder).as_posix()} "
                         f"(= {secret[path.read_bytes().strip()]})")
    return sorted(found)


# --- which cells need a reference ----------------------------------------------------------

def _code_cells(lesson_folder: Path) -> list[tuple[int, str]]:
    """(cell number, code) of each code cell of the lesson's notebook."""
    notebook = lesson_folder / "lesson.ipynb"
    if not notebook.is_file():
        return []
    cells = json.loads(notebook.read_text(encoding="utf-8")).get("cells", [])
    return [(i, "".join(c.get("source", ""))) for i, c in enumerate(cells, 1)
            if c.get("cell_type") == "code"]


def needing_reference(lesson_folder: Path, lesson: str) -> list[Cell]:
    """The cells that load a reference, and the later cells that use something made from one,
    statement by statement: a name is tainted by a statement that loads a reference or reads a
    tainted name, and clean again once a statement binds it from something else."""
    tainted: dict[str, set[str]] = {}  # name -> the labs it came from
    found = []
    for number, code in _code_cells(lesson_folder):
        loads = REFERENCE.findall(code)
        needs: set[str] = set()
        for statement in _statements(code):
            bound, used = _names(statement)
            here = set(REFERENCE.findall(ast.unparse(statement))) if statement else set()
            # A name the statement binds itself is taken as its own (a function's locals).
            here |= set().union(*(tainted[n] for n in used - bound if n in tainted))
            for name in bound:
                if here:
                    tainted[name] = set(here)
                else:
                    tainted.pop(name, None)
            needs |= here
        needs |= set(loads)
        if needs:
            first = next((line for line in code.splitlines()
                          if line.strip() and not line.startswith("# Runs on")),
                         code.strip()[:80])
            found.append(Cell(lesson, number, first.strip()[:100], sorted(needs), bool(loads)))
    return found


def _statements(code: str) -> list[ast.stmt]:
    """A cell's top-level statements; lines of IPython magic are left out. A cell that does
    not parse is judged by its text alone (no statements)."""
    text = "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                     for line in code.splitlines())
    try:
        return ast.parse(text).body
    except SyntaxError:
        return []


def _names(node: ast.AST) -> tuple[set[str], set[str]]:
    """(names a statement binds, names it reads), at any depth inside it."""
    bound, used = set(), set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name):
            (bound if isinstance(inner.ctx, ast.Store) else used).add(inner.id)
        elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(inner.name)
        elif isinstance(inner, ast.arg):
            bound.add(inner.arg)
        elif isinstance(inner, ast.ExceptHandler) and inner.name:
            bound.add(inner.name)
        elif isinstance(inner, (ast.Import, ast.ImportFrom)):
            for alias in inner.names:
                name = (alias.asname or alias.name).split(".")[0]
                # `import harness` finds whichever harness a cell loaded last
                (used if name == "harness" else bound).add(name)
    return bound, used


def release_notes(release: Release) -> str:
    lines = ["# This release", "",
             "Built from the course kit with `python -m grader release`.", "",
             "## What it holds", "",
             f"- `lessons/`: {len(release.lessons)} lessons "
             f"({', '.join(release.lessons) or 'none'}), each with its notebook and lesson.toml.",
             f"- `starters/`: for labs {', '.join(release.labs) or 'none'}, each lab's starting "
             "harness.py, its tests, and the reference's recorded observations "
             "(`expected.json`), which the checker compares your results with.",
             "- `lab/`: the fake world, the student's desk (`course`) and the local checker "
             "(`lab/lab_check.py`).",
             "- `start.py` and `pyproject.toml`, which set the course up; `README.md`.", "",
             "## What it leaves out", "",
             "- `solutions/` and `source/`: the finished reference harness of every lab and the "
             "single source it is made from"
             + (f", except the references of {', '.join(release.references)}, included on "
                "purpose." if release.references else "."),
             "- The instructor's grader, the kit's own tests and its authoring tools.", ""]
    lines += ["## Lesson cells that will not run here", ""]
    if not release.cells:
        lines += ["None: every cell runs on the fakes, on your own file, or on a reference "
                  "this release includes.", ""]
    else:
        lines += ["These cells run against a finished reference solution that this release "
                  "does not include. Run, they stop with the message \"This cell runs against "
                  "the reference solution of lesson N, lab K, which this copy of the course does "
                  "not include.\" (or, for a cell that uses what such a cell made, with a "
                  "NameError). Read them, and the lesson's text around them, for what they "
                  "show. Every other cell runs.", ""]
        for lesson in dict.fromkeys(c.lesson for c in release.cells):
            lines += [f"### {lesson}", "", "| cell | needs the reference of | why | starts with |",
                      "| --- | --- | --- | --- |"]
            for c in release.cells:
                if c.lesson != lesson:
                    continue
                why = "it loads it" if c.direct else "it uses what a cell above loaded from it"
                start = c.first_line.replace("|", "\\|")
                lines.append(f"| {c.number} | {', '.join(c.needs)} | {why} | `{start}` |")
            lines.append("")
    lines += release.notes
    return "\n".join(lines).rstrip() + "\n"
