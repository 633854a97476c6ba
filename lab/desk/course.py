"""The student's desk, in one face: what the notebooks reach as `from lab import course`, and the
`course` command (`course start 15.1`, `python -m lab.desk.course lab --`).

This module only gathers the desk's names, each from the one module that does its job; it holds
no code of its own, and nothing in lab/ imports it. Functions that print return None, so that a
notebook cell calling one shows only what it printed: a returned path or dict would show a
machine-dependent value under the printed text.
"""
from __future__ import annotations

import sys

from lab.desk.answers import PLACEHOLDER, recall, respond
from lab.desk.cells import reference, yours
from lab.desk.checking import check
from lab.desk.cli import main
from lab.desk.errors import CourseError, NoReference, NotStarted
from lab.desk.hints import hint
from lab.desk.labfolder import FORWARD, check_command, forward_package, lab_in
from lab.desk.labs import reset, start, waits_for
from lab.desk.launcher import HIDDEN_FROM_BROWSER, jupyter
from lab.desk.progress import has_passed, last_check, progress, record_check, record_check_in
from lab.desk.workfolder import PACKAGE, SOLVED_ENV, WORK_ENV, folder, shown, work

__all__ = [
    "CourseError", "NotStarted", "NoReference",
    "WORK_ENV", "SOLVED_ENV", "PACKAGE", "work", "folder", "shown",
    "FORWARD", "forward_package", "lab_in", "check_command", "waits_for", "start", "reset",
    "hint", "last_check", "has_passed", "record_check", "record_check_in", "progress",
    "PLACEHOLDER", "respond", "recall", "reference", "yours",
    "check", "HIDDEN_FROM_BROWSER", "jupyter", "main",
]

if __name__ == "__main__":
    sys.exit(main())
