"""A lab's folder in the work folder, `<work>/<Lab.folder>/`: what it holds and how it is checked.

It holds `harness.py` (the student's), `tests.py` (the kit's), `changes.diff` (what changed since
the previous lab's reference, which each lab's page asks the student to read first), a `lab` folder
that stands for the kit's package (so the checker runs from that folder exactly as the lessons
print it, on every system) and `.lab`, the lab id. Everything but harness.py is the kit's: made
where it is missing, left alone once there (a notebook run again rewrites nothing), and put back
by `course reset`.
"""
from __future__ import annotations

from pathlib import Path

from lab.check import manifest
from lab.desk.errors import CourseError
from lab.desk.problems import FolderInTheWay
from lab.desk.workfolder import PACKAGE, shown, work

# The two files of a lab folder's `lab` folder. It is a doorway to the kit's package rather than
# a link to it: Windows allows links only in developer mode, so one mechanism on every system is
# the one CI can test everywhere; and through a doorway, no edit in a lab folder reaches the kit.
FORWARD = {
    "__init__.py": '''"""Stands for the course kit's `lab` package, the folder named below:
`import lab` in this lab folder is that package. Made by `course start`, which remakes it; do not
edit."""
import os as _os

__path__ = [{package!r}]
__file__ = _os.path.join(__path__[0], "__init__.py")
with open(__file__, encoding="utf-8") as _source:
    exec(compile(_source.read(), __file__, "exec"))
del _os, _source
''',
    "lab_check.py": '''"""`python lab/lab_check.py ...`: the course's checker, run from the kit
folder named below. Made by `course start`, which remakes it; do not edit."""
import sys

sys.path[0] = {kit!r}  # in place of this folder: the checker and its package are the kit's
from lab.lab_check import main

sys.exit(main())
''',
}


def forward_package(place: Path) -> None:
    """Make `place/lab` stand for the kit's lab package: a folder of two files (FORWARD) that
    send `import lab` and `python lab/lab_check.py` to the kit. A link left by an earlier
    version of the course is replaced (the link only; what it points to is untouched). A file
    that already says what it must is not written again."""
    door = place / "lab"
    if door.is_symlink():
        door.unlink()
    elif door.exists() and not (door.is_dir() and
                                {p.name for p in door.iterdir()} <= {*FORWARD, "__pycache__"}):
        raise CourseError(FolderInTheWay(shown(door)))
    door.mkdir(exist_ok=True)
    for name, text in FORWARD.items():
        _write(door / name, text.format(package=str(PACKAGE), kit=str(PACKAGE.parent)),
               again=True)  # it must name this kit, wherever the kit now is


def _write(path: Path, data: bytes | str, *, again: bool) -> None:
    """Write `data` to `path` when it is missing, or when it differs and `again` says to put it
    back; never otherwise, so that a file the same run would write unchanged keeps its time."""
    data = data.encode("utf-8") if isinstance(data, str) else data
    if path.is_file() and (not again or path.read_bytes() == data):
        return
    path.write_bytes(data)


def lay_out(lab: manifest.Lab, *, again: bool = False) -> Path:
    """Everything in the lab's folder except harness.py: tests.py, changes.diff (the first lab
    has none), the `lab` folder and .lab, made from the kit where missing. A file already there
    is left as it is, so that starting a started lab, or running a notebook again, rewrites
    nothing in the work folder; with `again` (reset), each is put back as the kit has it.
    Returns the folder."""
    place = work() / lab.folder
    place.mkdir(parents=True, exist_ok=True)
    _write(place / "tests.py", lab.tests.read_bytes(), again=again)
    diff = lab.starter.parent / "changes.diff"
    if diff.is_file():
        _write(place / "changes.diff", diff.read_bytes(), again=again)
    forward_package(place)
    _write(place / ".lab", lab.id + "\n", again=again)
    return place


def lab_in(path: Path) -> str | None:
    """The lab id a lab folder was started for (its `.lab` file), or None if it is not one.
    The checker uses it to know which lab a run belongs to."""
    marker = Path(path) / ".lab"
    return marker.read_text(encoding="utf-8").strip() if marker.is_file() else None


def check_command(lab_id: str) -> str:
    """The command that checks a lab, run from the lab's folder."""
    lesson = manifest.lab(lab_id).lesson.number
    return f"python lab/lab_check.py --harness harness.py --lesson {lesson} tests.py"


def quoted(text: str) -> str:
    """A path for a command line: in double quotes when it holds a space, which bash, cmd and
    PowerShell read alike."""
    return f'"{text}"' if " " in text else text
