"""What would lead a student to an answer the release must not give: the text of a solution
anywhere in it (solution_leaks, the guard every build runs before writing), and the lesson
cells that cannot run without a reference it leaves out, or that work on a lab still to come
(needing_reference), which the release shows as recorded instead (grader/release/replayed.py).
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from lab.check import manifest

# A cell's calls that name a lab: loading its reference, or working on the student's lab.
LAB_CALL = re.compile(r"""course\.(reference|yours|start|check|hint|reset)\(\s*["']"""
                      r"""(\d+(?:\.\d+)?)["']""")


@dataclass
class Cell:
    """A lesson cell that cannot run in the release as shipped, and why."""
    lesson: str  # the lesson's folder name
    number: int  # the cell's position in the notebook, counting every cell from 1
    first_line: str
    needs: list[str]  # the labs whose references it loads, or whose results it uses
    direct: bool  # it names the lab itself (else it uses what such a cell made)
    later: list[str] = field(default_factory=list)  # labs of a later release it works on


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


def _wants(code: str, later) -> set[tuple[str, str]]:
    """What `code` names itself: ("reference", lab) for each reference it loads, ("later", lab)
    for each lab in `later` it starts, loads, checks or asks a hint for."""
    found = set()
    for function, lab_id in LAB_CALL.findall(code):
        if function == "reference":
            found.add(("reference", lab_id))
        elif lab_id in later:
            found.add(("later", lab_id))
    return found


def needing_reference(lesson_folder: Path, lesson: str, *, later=()) -> list[Cell]:
    """The cells that load a reference (or, with `later`, work on one of those labs), and the
    later cells that use something made from one. Statement by statement, a name is tainted by a
    statement that loads a reference or reads a tainted name, and clean again once a statement
    binds it from something else; after a cell that needs one, every name it binds is tainted,
    since where the cell cannot run it binds nothing."""
    tainted: dict[str, set[tuple[str, str]]] = {}  # name -> what it came from
    found = []
    for number, code in _code_cells(lesson_folder):
        named = _wants(code, later)
        needs: set[tuple[str, str]] = set()
        binds: set[str] = set()
        for statement in _statements(code):
            bound, used = _names(statement)
            here = _wants(ast.unparse(statement), later)
            # A name the statement binds itself is taken as its own (a function's locals).
            here |= set().union(*(tainted[n] for n in used - bound if n in tainted))
            for name in bound:
                if here:
                    tainted[name] = set(here)
                else:
                    tainted.pop(name, None)
            binds |= bound
            needs |= here
        needs |= named
        if needs:
            for name in binds:
                tainted[name] = set(needs)
            first = next((line for line in code.splitlines()
                          if line.strip() and not line.startswith("# Runs on")),
                         code.strip()[:80])
            found.append(Cell(lesson, number, first.strip()[:100],
                              sorted({lab for kind, lab in needs if kind == "reference"},
                                     key=manifest.key),
                              bool(named),
                              sorted({lab for kind, lab in needs if kind == "later"},
                                     key=manifest.key)))
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
    bound: set[str] = set()
    used: set[str] = set()
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
