"""The student release: the folder students get, built from the kit, with no solution source.

It holds the lessons (notebooks and their lesson.toml), the starters (each lab's starter, its
tests and the reference's recorded observations, which the checker compares with), the lab/
package (the fake world, the local checker, the desk), start.py and pyproject.toml to set it up,
a README for students and RELEASE.md. It never holds solutions/ or source/, the grader, the
kit's own tests or its authoring tools; an instructor may add chosen labs' references with
`--with-reference`.

A release goes up to one lab (`--through 5.1`): the lessons up to that lab's lesson and the labs
up to that lab, nothing after. It has to stop there, because each lab's starter is the previous
lab's reference with new gaps: the 6.1 starter holds 5.1's answer, so a release that held it
would give 5.1 away. Within that rule no file of a release gives away its last lab's answer: that
lab's starter and changes.diff lead back only to the lab before it, its expected.json holds
observed values, and the notebooks show what the references printed, never their code. Later
releases go into the same folder (see install): they add what is new and leave the student's work
folder, and everything else the release did not write, alone.

A lesson cell that loads a reference the release lacks (`course.reference("5.1")`), uses what
such a cell made, or works on a lab of a later release cannot run there. The release's copy of
the notebook replaces its code with a call to lab.desk.recorded.replay(), which prints what the
cell printed on the reference when the course was made (the lesson's pins, outputs.json), under
a line saying so; the code stays under the call as comments, and the same text is the cell's
output in the notebook as shipped. The kit's own notebooks keep no outputs. RELEASE.md lists those
cells, lesson by lesson.
"""
from __future__ import annotations

import ast
import hashlib
import json
import re
import shutil
import tempfile
import textwrap
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from lab.check import manifest
from lab.desk import recorded

SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", ".lab", "work")
# A cell's calls that name a lab: loading its reference, or working on the student's lab.
LAB_CALL = re.compile(r"""course\.(reference|yours|start|check|hint|reset)\(\s*["']"""
                      r"""(\d+(?:\.\d+)?)["']""")
STATE = ".course-release.json"  # what the last release wrote here: its lab, and each file's hash
BESIDE = ".yours"  # a changed copy the next release found is kept as NAME.yours.EXT

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

    .venv/bin/course {start} # your harness.py for lab {lab}, in work/{folder}/
    .venv/bin/course {check} # run the lab's tests, and every earlier lab's
    .venv/bin/course {hint} # a hint: questions first, then more
    .venv/bin/course {progress} # where you are

Or check from the lab's folder, as the lessons print it:

    cd work/{folder}
    python lab/lab_check.py --harness harness.py --lesson {lesson} tests.py

Your work lives in `work/`; the rest of this folder is the course's.
The tests you run are the tests your work is graded with{hidden}.

## One lab at a time

Labs in this release: {labs}. You write one file that grows: each lab's starter is the
finished answer to the lab before it, with new gaps. So the course comes a lab at a time: the
next lab arrives with the next release.

The next release goes into this same folder. It adds the new lessons and labs and never touches
`work/`. A course file you changed (a lesson notebook you saved, say) stays as you left it
when the new release brings the same version of it; when the new release brings a new version,
that takes its place and yours is kept beside it as `NAME.yours.EXT`. RELEASE.md lists any.

RELEASE.md says what this copy holds, and which lesson cells show a recorded output because
they need a reference solution it does not include.
"""


@dataclass
class Cell:
    lesson: str  # the lesson's folder name
    number: int  # the cell's position in the notebook, counting every cell from 1
    first_line: str
    needs: list[str]  # the labs whose references it loads, or whose results it uses
    direct: bool  # it names the lab itself (else it uses what such a cell made)
    later: list[str] = field(default_factory=list)  # labs of a later release it works on


@dataclass
class Release:
    out: Path
    through: str = ""  # the release's last lab
    lessons: list[str] = field(default_factory=list)
    labs: list[str] = field(default_factory=list)
    later: list[str] = field(default_factory=list)  # labs of its lessons that come later
    references: list[str] = field(default_factory=list)  # labs shipped with --with-reference
    cells: list[Cell] = field(default_factory=list)  # cells shown as recorded, not run
    notes: list[str] = field(default_factory=list)
    earlier: str = ""  # the last lab of the release this one updated, if any
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)  # replaced; unchanged since shipped
    kept: dict[str, str] = field(default_factory=dict)  # replaced; the changed copy's new name
    left: list[str] = field(default_factory=list)  # changed here; the release has no new version
    removed: list[str] = field(default_factory=list)

    def summary(self) -> str:
        lines = [f"Wrote the student release through lab {self.through} to {self.out}: "
                 f"{len(self.lessons)} lessons, labs {', '.join(self.labs) or 'none'}."]
        lines.append("It holds no solution source" + (
            f" except the references you chose: {', '.join(self.references)}." if
            self.references else "."))
        if self.cells:
            lessons = sorted({c.lesson for c in self.cells})
            lines.append(f"{len(self.cells)} notebook cells show what they printed on a reference "
                         f"it does not hold, or wait for a later lab, instead of running "
                         f"(in {', '.join(lessons)}); RELEASE.md lists them.")
        if self.earlier:
            lines.append(f"It updated the release through lab {self.earlier} that was there: "
                         f"{len(self.added)} files added, {len(self.updated)} updated, "
                         f"{len(self.removed)} removed; the work folder and every file no release "
                         "wrote were left alone.")
        if self.kept:
            lines.append("Changed there since the last release, replaced by the new version and "
                         "kept beside it: " + ", ".join(f"{path} (as {self.kept[path]})"
                                                       for path in sorted(self.kept)) + ".")
        if self.left:
            lines.append("Changed there, and left as they were (this release brings the same "
                         f"version): {', '.join(self.left)}.")
        lines += self.notes
        return "\n".join(lines)


def build(out: Path, *, through: str | None = None, with_reference=()) -> Release:
    """Build the release of the labs up to `through` (default: every lab) in `out`, which must
    not exist, be empty, or hold an earlier release of a lab no later than `through`."""
    out = Path(out)
    built = manifest.labs(built_only=True)
    try:
        last = manifest.lab(through) if through else built[-1]
    except KeyError as missing:
        raise ValueError(missing.args[0]) from None
    if last.reference_only:
        raise ValueError(f"{last.name.capitalize()} is not built yet, so no release can go up "
                         "to it.")
    upto = manifest.key(last.id)
    chosen = []
    for lab_id in with_reference:
        try:
            lab = manifest.lab(lab_id)
        except KeyError as missing:
            raise ValueError(missing.args[0]) from None
        if not lab.solution.is_file():
            raise ValueError(f"This kit has no reference for {lab.name} to include.")
        if manifest.key(lab.id) > upto:
            raise ValueError(f"Lab {lab.id} comes after lab {last.id}, the last lab of this "
                             "release, so its reference cannot be in it.")
        chosen.append(lab)
    earlier = _earlier(out)
    if earlier and manifest.key(earlier["through"]) > upto:
        raise ValueError(f"{out} holds the release through lab {earlier['through']}; a release "
                         f"goes forward, so it cannot be replaced by one through lab {last.id}.")
    release = Release(out, through=last.id, references=[lab.id for lab in chosen],
                      earlier=earlier.get("through", ""))
    lessons = [lesson for lesson in manifest.lessons() if lesson.number <= last.lesson.number]
    labs = [lab for lab in built if manifest.key(lab.id) <= upto]
    release.later = [lab.id for lesson in lessons for lab in lesson.labs
                     if manifest.key(lab.id) > upto and not lab.reference_only]
    before = earlier.get("files", {})
    with tempfile.TemporaryDirectory(prefix="course-release-") as scratch:
        stage = Path(scratch)
        _stage(stage, release, lessons, labs, chosen)
        leaks = solution_leaks(stage, allowed=[lab.solution for lab in chosen])
        if leaks:  # a guard, not a filter: the copy above must never pick one up
            raise RuntimeError("The release would hold solution source, so nothing was "
                               "written: " + ", ".join(leaks))
        files = install(out, stage, sorted(p for p in stage.rglob("*") if p.is_file()), before,
                        release)
        # Written last, since it lists what installing found.
        (stage / "RELEASE.md").write_text(release_notes(release), encoding="utf-8")
        files.update(install(out, stage, [stage / "RELEASE.md"], before, release))
    for path, digest in before.items():  # shipped before and not now: gone unless changed
        target = out / path
        if path not in files and target.is_file() and _digest(target.read_bytes()) == digest:
            target.unlink()
            release.removed.append(path)
            for parent in target.parents:
                if parent == out or any(parent.iterdir()):
                    break
                parent.rmdir()
    (out / STATE).write_text(json.dumps({"through": last.id, "references": release.references,
                                         "files": files}, indent=1, sort_keys=True) + "\n",
                             encoding="utf-8")
    return release


def _stage(stage: Path, release: Release, lessons, labs, chosen) -> None:
    """Write every file of the release but RELEASE.md into `stage`, an empty folder."""
    kit = manifest.KIT
    shutil.copytree(kit / "lab", stage / "lab", ignore=SKIP)
    _carry_hints(stage, labs)
    for lab in labs:
        if lab.content.is_dir():
            shutil.copytree(lab.content, stage / "starters" / lab.folder, ignore=SKIP)
        if lab.starter.is_file():
            release.labs.append(lab.id)
    for lab in chosen:
        target = stage / "solutions" / lab.folder / "harness.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(lab.solution, target)
    present = set(release.references)
    coming = {lab.id for lab in manifest.labs(built_only=True) if lab not in labs}
    for lesson in lessons:  # what a student opens; the authors' wing stays behind
        target = stage / "lessons" / lesson.folder.name
        shutil.copytree(lesson.folder, target, ignore=SKIP)
        release.lessons.append(lesson.folder.name)
        _ensure_notebook(lesson, target, release)
        later = [lab.id for lab in lesson.labs if lab.id in release.later]
        if later:
            _mark_later(target / "lesson.toml", later)
        cells = [c for c in needing_reference(target, lesson.folder.name, later=coming)
                 if set(c.needs) - present or c.later]
        if cells:
            _record(lesson, target, cells, present)
        release.cells += cells
    for name in ("start.py", "pyproject.toml"):
        if (kit / name).is_file():
            shutil.copy2(kit / name, stage / name)
    (stage / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
    newest = manifest.lab(release.labs[-1])
    commands = {word: f"{word} {newest.id}" for word in ("start", "check", "hint")}
    commands["progress"] = "progress"
    width = max(len(text) for text in commands.values()) + 1
    (stage / "README.md").write_text(README.format(
        course=_course_title(), labs=", ".join(release.labs), lab=newest.id,
        folder=newest.folder, lesson=newest.lesson.number,
        hidden=" (your instructor may add hidden tests of their own)",
        **{word: text.ljust(width) for word, text in commands.items()}), encoding="utf-8")


def _carry_hints(stage: Path, labs) -> None:
    """The hints of the released labs, packed into lab/desk/hints.packed, which `course hint`
    reads where there is no source/: out of plain sight, as in the kit, though not secret."""
    target = stage.joinpath(*manifest.PACKED)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(manifest.pack_hints(labs), encoding="utf-8")


def _course_title() -> str:
    data = manifest.KIT / "pyproject.toml"
    if data.is_file():
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


def _mark_later(path: Path, later: list[str]) -> None:
    """Mark the labs in `later` as coming later in the release's copy of lesson.toml, so the
    desk says so (`course start 7.2`: "not built yet: it comes in a later version") instead of
    calling the copy broken for lacking their starters."""
    text = path.read_text(encoding="utf-8")
    for lab_id in later:
        text, found = re.subn(rf'^(id\s*=\s*"{re.escape(lab_id)}"[ \t]*)$',
                              r"\1\nreference_only = true  # comes in a later release", text,
                              flags=re.MULTILINE)
        if found != 1:
            raise RuntimeError(f"{path}: found {found} [[lab]] tables with id {lab_id!r}")
    marked = {entry["id"] for entry in tomllib.loads(text).get("lab", [])
              if entry.get("reference_only")}
    if not set(later) <= marked:
        raise RuntimeError(f"{path}: could not mark {', '.join(later)} as coming later")
    path.write_text(text, encoding="utf-8")


# --- cells shown as recorded ---------------------------------------------------------------

def _record(lesson: manifest.Lesson, folder: Path, cells: list[Cell], present: set) -> None:
    """Rewrite `cells` in the release's copy of the lesson's notebook, in `folder`: each calls
    recorded.replay() and keeps its code as comments, with the pinned output as its output; and
    write recorded.json, which replay() reads."""
    import nbformat
    from tools import notebooks

    path = folder / "lesson.ipynb"
    notebook = nbformat.read(path, as_version=4)
    pins = notebooks.pins(lesson)
    entries = {}
    for found in cells:
        cell = notebook.cells[found.number - 1]
        entry = {"needs": sorted(set(found.needs) - present, key=manifest.key),
                 "later": found.later, "code": cell.source,
                 "printed": None if found.later else pins.get(cell.id)}
        entries[cell.id] = entry
        cell.source = _recorded_source(folder.name, cell.id, cell.source, entry)
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout",
                                               text=recorded.text(entry))]
        cell.execution_count = None
    nbformat.validate(notebook)
    nbformat.write(notebook, path)
    (folder / recorded.FILE).write_text(
        json.dumps(entries, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
        encoding="utf-8")


def _recorded_source(lesson: str, cell: str, code: str, entry: dict) -> str:
    """A recorded cell's code in the release: a header that says what it runs on, the call that
    replays it, and the lesson's code as comments. The header replaces the kit's "# Runs on:"
    line, which promises a run this copy cannot give."""
    lines = code.splitlines()
    if lines and lines[0].startswith("# Runs on:"):
        lines = lines[1:]
    while lines and not lines[0].strip():
        lines.pop(0)
    if entry["later"]:
        words = (f"Runs on: {recorded.labs(entry['later'])}, which comes in a later release of "
                 "this course. Until then this cell says so; its code is under the call.")
    else:
        needs = entry["needs"]
        one = len(needs) == 1
        words = (f"Runs on: the {' and '.join(f'lab {n}' for n in needs)} "
                 f"reference{'' if one else 's'}, which this release does not include. Run, this "
                 f"cell shows what its code (under the call) printed on {'it' if one else 'them'} "
                 f"when the course was made; once your own {recorded.labs(needs)} "
                 f"pass{'es its' if one else ' their'} tests, it runs on your "
                 f"file{'' if one else 's'} instead, and says which it did.")
    head = textwrap.wrap(words, 96, initial_indent="# ", subsequent_indent="# ")
    call = ["from lab.desk import recorded", "",
            f"recorded.replay({lesson!r}, {cell!r}, globals())", ""]
    return "\n".join(head + call + [f"# {line}".rstrip() for line in lines])


# --- keeping what the student changed --------------------------------------------------------

def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _earlier(out: Path) -> dict:
    """What the release already in `out` wrote (its STATE file); {} for a new or empty folder."""
    if not out.exists() or not any(out.iterdir()):
        return {}
    state = out / STATE
    if not state.is_file():
        raise FileExistsError(f"{out} holds files, and no release of this course ({STATE} is "
                              "missing); give a new folder, or the folder of an earlier "
                              "release.")
    return json.loads(state.read_text(encoding="utf-8"))


def install(out: Path, stage: Path, shipped: list[Path], before: dict[str, str],
            release: Release) -> dict[str, str]:
    """Copy the files `shipped` from `stage` to the same places in `out`, and return path ->
    hash of each.
    `before` holds the hashes the last release wrote. A file that is missing, or unchanged since
    the last release, gets the new version; a file changed here since (the student's saved
    notebook, say) stays as it is when the new version is the one shipped before, and otherwise
    is moved aside as NAME.yours.EXT and replaced. Nothing else in `out` is read or written: the
    student's work folder, and any file a release did not write, are left alone."""
    written = {}
    for source in shipped:
        path = source.relative_to(stage).as_posix()
        if path.split("/")[0] == "work":
            raise RuntimeError(f"the release would write into the work folder ({path})")
        target = out / path
        digest = _digest(source.read_bytes())
        written[path] = digest
        if not target.exists():
            release.added.append(path)
        else:
            here = _digest(target.read_bytes())
            if here == digest:
                continue
            if before.get(path) == digest:  # the student changed it; the kit did not
                release.left.append(path)
                continue
            if before.get(path) != here:  # changed here since the last release wrote it
                aside = _beside(target)
                target.rename(aside)
                release.kept[path] = aside.relative_to(out).as_posix()
            else:
                release.updated.append(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    return written


def _beside(target: Path) -> Path:
    """A free name beside `target` for the student's copy: lesson.yours.ipynb, then
    lesson.yours-2.ipynb, ..."""
    suffix = target.suffix if target.stem else ""
    stem = target.name[:len(target.name) - len(suffix)]
    for n in range(1, 1000):
        candidate = target.with_name(f"{stem}{BESIDE}{'' if n == 1 else f'-{n}'}{suffix}")
        if not candidate.exists():
            return candidate
    raise RuntimeError(f"no free name beside {target}")


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
             f"Built from the course kit with `python -m grader release --through "
             f"{release.through}`: the lessons and labs up to lab {release.through}.", "",
             "## What it holds", "",
             f"- `lessons/`: {len(release.lessons)} lessons "
             f"({', '.join(release.lessons) or 'none'}), each with its notebook and lesson.toml.",
             f"- `starters/`: for labs {', '.join(release.labs) or 'none'}, each lab's starting "
             "harness.py, its tests, what changed since the lab before (`changes.diff`), and the "
             "reference's recorded observations (`expected.json`), which the checker compares "
             "your results with.",
             "- `lab/`: the fake world, the student's desk (`course`) and the local checker "
             "(`lab/lab_check.py`).",
             "- `start.py` and `pyproject.toml`, which set the course up; `README.md`.", "",
             "## What it leaves out", "",
             "- `solutions/` and `source/`: the finished reference harness of every lab and the "
             "single source it is made from"
             + (f", except the references of {', '.join(release.references)}, included on "
                "purpose." if release.references else "."),
             f"- Every lab after {release.through}"
             + (f" (in the lessons here: {', '.join(release.later)})" if release.later else "")
             + ". Each lab's starter is the answer to the lab before it with new gaps, so the "
             "next lab comes with the next release.",
             "- The instructor's grader, the kit's own tests and its authoring tools.", ""]
    lines += ["## Lesson cells shown as recorded", ""]
    if not release.cells:
        lines += ["None: every cell runs on the fakes, on your own file, or on a reference "
                  "this release includes.", ""]
    else:
        lines += ["These cells run against a finished reference solution that this release "
                  "does not include, or use what such a cell made, or work on a lab of a later "
                  "release. In this copy each one's code is kept as comments under a call that, "
                  "run, prints what the cell printed on the reference when the course was made, "
                  "under a line saying so (its output here is that text already); once your own "
                  "files of the labs it needs pass their tests, it runs on them instead and says "
                  "so. A cell for a later lab says in one line that the lab comes later. Every "
                  "other cell runs.", ""]
        for lesson in dict.fromkeys(c.lesson for c in release.cells):
            lines += [f"### {lesson}", "", "| cell | needs the reference of | why | starts with |",
                      "| --- | --- | --- | --- |"]
            for c in release.cells:
                if c.lesson != lesson:
                    continue
                if c.later:
                    why = f"it works on lab {', '.join(c.later)}, which comes later"
                elif c.direct:
                    why = "it loads it"
                else:
                    why = "it uses what a cell above loaded from it"
                start = c.first_line.replace("|", "\\|")
                lines.append(f"| {c.number} | {', '.join(c.needs) or '-'} | {why} | `{start}` |")
            lines.append("")
    if release.kept or release.left:
        lines += ["## Files you had changed", ""]
        lines += [f"- `{path}`: the new version is in its place; yours is `{release.kept[path]}`."
                  for path in sorted(release.kept)]
        lines += [f"- `{path}`: left as you changed it; this release brings the same version "
                  "as the last." for path in sorted(release.left)]
        lines.append("")
    lines += release.notes
    return "\n".join(lines).rstrip() + "\n"
