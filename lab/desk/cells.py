"""What a lesson's notebook cells load: a lab's reference solution (`course.reference`) or the
student's own harness.py (`course.yours`), each imported afresh as module `harness`."""
from __future__ import annotations

from types import ModuleType

from lab.check import manifest, spoken
from lab.check.importer import import_harness
from lab.desk import guard
from lab.desk.errors import NoReference, NotStarted
from lab.desk.problems import CellNotStarted, NoReferenceHere
from lab.desk.labs import started_after
from lab.desk.progress import has_passed
from lab.desk.workfolder import as_solved, work


def reference(lab_id: str) -> ModuleType:
    """The lab's reference solution, imported afresh as module `harness`. Raises NoReference if
    this copy of the course ships without solutions."""
    lab = manifest.lab(lab_id)
    if not lab.solution.is_file():
        raise NoReference(NoReferenceHere(lab.name))
    return import_harness(lab.solution)


def yours(lab_id: str) -> ModuleType:
    """The student's harness.py for the lab, imported afresh as module `harness`. Raises
    NotStarted if the lab has not been started; in a notebook, its one line saying how to start
    it is then all the cell prints, and the cell ends without an error (guard.excuse). While the lab has not passed its check, first
    prints one line saying so. In a notebook, the rest of the cell is bounded (lab/desk/guard.py):
    a run that never ends is stopped, and an error is explained in one line before its
    traceback. With HARNESS_COURSE_AS_SOLVED=1 it loads the reference instead, silently: the
    kit's own tests run "your code" cells that way, under the same bound."""
    lab = manifest.lab(lab_id)
    if as_solved():
        module = reference(lab_id)
        guard.arm(lab.id, lab.solution, passed=True)
        return module
    harness = work() / lab.folder / "harness.py"
    if not harness.is_file():
        later = started_after(lab.id)
        start = spoken.in_cell('start', lab.id, force=later is not None)
        raise guard.excuse(NotStarted(CellNotStarted(lab.id, lab.name, start,
                                                     later.id if later else None)))
    passed = has_passed(lab.id)
    if not passed:
        print(guard.notice(lab.id), flush=True)
    guard.arm(lab.id, harness, passed=passed)
    return import_harness(harness)
