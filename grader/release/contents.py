"""Choosing what goes into a release, and writing it into an empty staging folder: the lab/
package with the released labs' hints packed, each released lab's starter folder, the chosen
references, the lessons up to the last lab's (their notebooks built where need be, later labs
marked as coming, cells that cannot run shown as recorded), start.py and pyproject.toml made a
student's (setup_files.py), a .gitignore and the students' README."""
from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

from lab.check import manifest
from lab.check.errors import UnknownLab

from grader.errors import ReleaseError
from grader.refusals import NoReference, ReferenceLater, ReleaseNotBuilt, UnknownLabAsked
from grader.release import replayed, setup_files
from grader.release.leaks import needing_reference
from grader.release.notes import Release

SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", ".lab", "work")

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


def last_lab(through: str | None) -> manifest.Lab:
    """The release's last lab: `through`, or else the kit's last built lab. It must be built,
    since its starter is what the release is for."""
    built = manifest.labs(built_only=True)
    try:
        last = manifest.lab(through) if through else built[-1]
    except UnknownLab as missing:
        raise ReleaseError(UnknownLabAsked(missing.fact)) from None
    if last.reference_only:
        raise ReleaseError(ReleaseNotBuilt(last.name))
    return last


def references(ids, last: manifest.Lab) -> list[manifest.Lab]:
    """The labs of `ids`, whose references the instructor chose to ship: each must have one,
    and come no later than `last`, whose starter holds the answer to every lab before it."""
    chosen = []
    for lab_id in ids:
        try:
            lab = manifest.lab(lab_id)
        except UnknownLab as missing:
            raise ReleaseError(UnknownLabAsked(missing.fact)) from None
        if not lab.solution.is_file():
            raise ReleaseError(NoReference(lab.name))
        if manifest.key(lab.id) > manifest.key(last.id):
            raise ReleaseError(ReferenceLater(lab.id, last.id))
        chosen.append(lab)
    return chosen


def released(last: manifest.Lab) -> tuple[list[manifest.Lesson], list[manifest.Lab], list[str]]:
    """What a release through `last` holds: the lessons up to its lesson, and the built labs up
    to it; and the ids of the built labs of those lessons that come after it."""
    upto = manifest.key(last.id)
    lessons = [lesson for lesson in manifest.lessons() if lesson.number <= last.lesson.number]
    labs = [lab for lab in manifest.labs(built_only=True) if manifest.key(lab.id) <= upto]
    later = [lab.id for lesson in lessons for lab in lesson.labs
             if manifest.key(lab.id) > upto and not lab.reference_only]
    return lessons, labs, later


def stage(stage: Path, release: Release, lessons, labs, chosen) -> None:
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
            replayed.record(lesson, target, cells, present)
        release.cells += cells
    newest = manifest.lab(release.labs[-1])
    (stage / "start.py").write_text(setup_files.start_script(newest), encoding="utf-8")
    (stage / "start.py").chmod((kit / "start.py").stat().st_mode)
    (stage / "pyproject.toml").write_text(setup_files.pyproject(), encoding="utf-8")
    (stage / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
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
    import nbformat

    from grader import lesson_notebooks
    try:
        (target / "lesson.ipynb").write_text(
            nbformat.writes(lesson_notebooks.build(lesson)) + "\n", encoding="utf-8")
    except lesson_notebooks.LessonError as exc:  # the lesson's, or the disk's: said in the
        # release's notes; anything else is the kit's own fault and keeps its traceback
        release.unbuilt.append((lesson.folder.name, exc.fact))
    except OSError as exc:
        release.unbuilt.append((lesson.folder.name, str(exc)))


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
