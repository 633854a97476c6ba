"""Where the desk's things are: the student's work folder, a lab's folder in it, the two JSON
files kept there (progress.json, responses.json), and the kit's own package for a child process.

Everything a student makes lives in one work folder, `$HARNESS_COURSE_WORK` if set, else
`<kit>/work/` (git-ignored), so the kit itself is never edited and a course can be reset by
deleting one folder.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from lab.check import manifest
from lab.desk.errors import CourseError
from lab.desk.problems import StateNotJSON

WORK_ENV = "HARNESS_COURSE_WORK"
SOLVED_ENV = "HARNESS_COURSE_AS_SOLVED"
PACKAGE = Path(__file__).resolve().parents[1]  # the kit's lab/, which each lab folder stands for


def work() -> Path:
    """The student's work folder: `$HARNESS_COURSE_WORK` if set, else `<kit>/work`. Not created
    here; the functions that write create it."""
    given = os.environ.get(WORK_ENV)
    return Path(given).expanduser() if given else manifest.KIT / "work"


def folder(lab_id: str) -> Path:
    """The lab's own folder in the work folder, `<work>/<Lab.folder>`."""
    return work() / manifest.lab(lab_id).folder


def as_solved() -> bool:
    """Whether the desk runs as a student who solved every lab would see it
    (HARNESS_COURSE_AS_SOLVED=1): how the kit's own notebook tests run the lessons."""
    return os.environ.get(SOLVED_ENV) == "1"


def shown(path: Path) -> str:
    """`path` as printed to a student, so that it works from where they stand: relative to the
    current directory when it lies inside it (`work/15-stop/lab1/harness.py`, from the kit's
    folder), else absolute. In a notebook the current directory is the lesson's folder, so paths
    are absolute there: a `cd` it prints is typed into a terminal, which opens elsewhere.
    (The kit's notebook tests pin the work folder's part of such a path as `<work>`.)"""
    full = Path(path).expanduser().resolve()
    try:
        return full.relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):  # outside it, or the current directory is gone
        return str(full)


def load(name: str, *, base: Path | None = None) -> dict:
    """The JSON file `name` of the work folder (or of `base`), or {} when there is none yet.
    A file the student broke by hand is a CourseError that says how to recover."""
    path = (base or work()) / name
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise CourseError(StateNotJSON(shown(path))) from None


def save(name: str, data: dict, *, base: Path | None = None) -> None:
    """Write `data` as the JSON file `name` of the work folder (or of `base`), creating it;
    sorted and indented, so the same data makes the same file."""
    base = base or work()
    base.mkdir(parents=True, exist_ok=True)
    path = base / name
    # Written beside and then renamed, so a crash mid-write never leaves half a file.
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                         encoding="utf-8")
    temporary.replace(path)


def kit_env() -> dict:
    """The environment for a child process (the checker, JupyterLab), with the kit importable
    even when it is not installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE.parent),
                                                      env.get("PYTHONPATH")]))
    return env
