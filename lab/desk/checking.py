"""`course check`: a lab checked from the desk, as the lessons print it.

Outside the browser the checker runs in a process of its own, `python lab/lab_check.py ...` in
the lab's folder, exactly the command a student types, and records the result itself. In the
browser, where no process can be started, the engine's practice check runs in this process
(lab/check/lines.py) and the desk records it.
"""
from __future__ import annotations

import shlex
import subprocess
import sys

from lab.check import manifest, spoken
from lab.check.lines import check_aloud
from lab.desk import guard
from lab.desk.errors import NotStarted
from lab.desk.problems import NotStartedYet
from lab.desk.labfolder import check_command, lay_out
from lab.desk.labs import built
from lab.desk.progress import record_check
from lab.desk.workfolder import kit_env, work


def check(lab_id: str, *, practice: bool | None = None) -> None:
    """Check the lab as run() does, and return nothing: a notebook shows a cell's value under
    what it printed, and an exit code there would be a stray 0 or 1 under the report. In a
    notebook, a lab not started is the cell's one line saying how to start it, not an error
    (lab/desk/guard.py's excuse), so Run All goes on."""
    try:
        run(lab_id, practice=practice)
    except NotStarted as problem:
        raise guard.excuse(problem)


def run(lab_id: str, *, practice: bool | None = None) -> int:
    """Run the lab's checker in its folder, as the lessons print it, and return its exit code
    (the `course check` command's). The checker itself records the result for progress(). With
    `practice` (the default in the browser, where no process can be started), the practice
    check instead: the checker's tests and verdicts, run in this process (lab/check/lines.py's
    `practice`), labelled as such."""
    practice = manifest.IN_BROWSER if practice is None else practice
    lab = built(lab_id)
    place = work() / lab.folder
    if not (place / "harness.py").is_file():
        raise NotStarted(NotStartedYet(lab.name, spoken.command("start", lab.id)))
    lay_out(lab)  # a missing `lab` or tests.py would make the command fail for the wrong reason
    if practice:
        checked = check_aloud(place / "harness.py", place / "tests.py", lab.lesson.number,
                              practice=True)
        if not checked.interrupted:
            record_check(lab.id, checked.report.passed, checked.report.failed)
        return checked.exit_code
    command = shlex.split(check_command(lab.id))
    command[0] = sys.executable
    return subprocess.run(command, cwd=place, env=kit_env()).returncode
