"""Run All, as a student who has started every lab and filled none: time and peak memory per lesson.

    .venv/bin/python -m bench.run_all [NN ...]

Each written lesson (or those named) is built from its lesson.md and executed top to bottom
under nbclient in a fresh python3 kernel, in the lesson's folder, the way JupyterLab's Run All
would run it for a student, except that a cell's error does not stop the run (allow_errors), so
that every cell after it is run and measured too. The student's work folder is fresh, with every
lab started (`course.start(lab, force=True)`) and left as shipped: the starters' gaps are open,
nothing has passed its check, and HARNESS_COURSE_AS_SOLVED is not set, so each "your code" cell
runs an unfinished file under the guard of lab/desk/guard.py.

Measured per lesson: the wall time of the whole run, kernel start and shutdown included, and the
kernel's peak resident memory. psutil is not installed, so the peak is VmHWM from the kernel's
own /proc/self/status, read by one extra cell appended at the end (Linux only; elsewhere it is
not measured). Aim: every lesson within 60 s and under 1 GB. tests/authoring/test_run_all.py runs
the same function and checks what the cells printed; this script only measures.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from lab.check import manifest

PEAK_CELL = "peak-memory"  # the id of the cell appended to read the kernel's VmHWM
PEAK = """\
import pathlib
_status = pathlib.Path("/proc/self/status")
print(next((line.split()[1] for line in _status.read_text().splitlines()
            if line.startswith("VmHWM:")), "") if _status.exists() else "")
"""
AIM_SECONDS, AIM_MB = 60, 1024


@dataclass
class Ran:
    """One lesson run as Run All with every lab started and unfilled."""
    lesson: manifest.Lesson
    notebook: object  # the executed nbformat notebook, the PEAK_CELL last
    work: Path  # the work folder it ran with (removed afterwards)
    seconds: float
    peak_mb: float | None  # None where /proc/self/status does not exist
    error: str | None  # why the run did not finish (a cell past its timeout, a dead kernel)
    code: list = field(default_factory=list)  # the lesson's own code cells, executed
    rewritten: list = field(default_factory=list)  # lab folders' kit files the run wrote over


def start_every_lab(work: Path) -> None:
    """Lay out every built lab in `work` as `course start LAB --force` does, quietly."""
    from lab.desk import course
    before = os.environ.get(course.WORK_ENV)
    os.environ[course.WORK_ENV] = str(work)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            for lab in manifest.labs(built_only=True):
                course.start(lab.id, force=True)
    finally:
        if before is None:
            os.environ.pop(course.WORK_ENV)
        else:
            os.environ[course.WORK_ENV] = before


def kit_files(work: Path) -> dict[str, tuple[bytes, int]]:
    """Each lab folder's files that are the kit's (tests.py, changes.diff, .lab), with their
    bytes and time: what a run of a notebook must never write over."""
    return {path.relative_to(work).as_posix(): (path.read_bytes(), path.stat().st_mtime_ns)
            for name in ("tests.py", "changes.diff", ".lab") for path in work.glob(f"*/*/{name}")}


def run(lesson: manifest.Lesson, *, timeout: int = AIM_SECONDS, started: bool = True) -> Ran:
    """Run `lesson` as described above; `timeout` bounds each cell, in seconds. Without
    `started`, the work folder starts empty: a student who has started nothing."""
    import nbformat
    from nbclient import NotebookClient

    from lab.desk import course
    from tools import notebooks

    notebook = notebooks.build(lesson)
    notebook.cells.append(nbformat.v4.new_code_cell(PEAK, id=PEAK_CELL))
    with tempfile.TemporaryDirectory(prefix="run-all-") as scratch:
        work = Path(scratch) / "work"
        if started:
            start_every_lab(work)
        laid = kit_files(work)
        env = {k: v for k, v in os.environ.items() if k != course.SOLVED_ENV}
        env[course.WORK_ENV] = str(work)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(manifest.KIT),
                                                          os.environ.get("PYTHONPATH")]))
        client = NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                                allow_errors=True,
                                resources={"metadata": {"path": str(lesson.folder)}})
        began, error = time.perf_counter(), None
        try:
            client.execute(env=env)
        except Exception as exc:  # a cell past its timeout, or a kernel that died
            error = f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:200]}"
        seconds = time.perf_counter() - began
        now = kit_files(work)
        rewritten = sorted(name for name in laid if now.get(name) != laid[name])
    last = notebooks.printed(notebook.cells[-1]).strip()
    peak = round(int(last) / 1024, 1) if last.isdigit() else None
    code = [c for c in notebook.cells[:-1] if c.cell_type == "code"]
    return Ran(lesson, notebook, work, seconds, peak, error, code, rewritten)


def main(argv=None) -> int:
    from bench import _table
    from tools import notebooks

    parser = argparse.ArgumentParser(prog="python -m bench.run_all",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", type=int, help="lesson numbers (default: all)")
    args = parser.parse_args(argv)
    chosen = [manifest.lesson(n) for n in args.lessons] if args.lessons else notebooks.written()
    rows, figures = [], []
    for lesson in chosen:
        ran = run(lesson)
        errors = sum(any(o.output_type == "error" for o in c.get("outputs", [])) for c in ran.code)
        within = (ran.error is None and ran.seconds <= AIM_SECONDS
                  and (ran.peak_mb is None or ran.peak_mb < AIM_MB))
        figures.append({"lesson": lesson.number, "folder": lesson.folder.name,
                        "code_cells": len(ran.code), "cells_with_errors": errors,
                        "seconds": round(ran.seconds, 2), "peak_mb": ran.peak_mb,
                        "error": ran.error, "within_aim": within})
        rows.append([lesson.folder.name, len(ran.code), errors, _table.seconds(ran.seconds),
                     "not measured" if ran.peak_mb is None else f"{ran.peak_mb:.0f} MB",
                     ran.error or ("yes" if within else "NO")])
        print(f"  lesson {lesson.number:02d}: {ran.seconds:.2f} s", file=sys.stderr, flush=True)
    print(f"Run All with every lab started and unfilled (aim: each within {AIM_SECONDS} s, "
          f"kernel under {AIM_MB} MB; memory is VmHWM from /proc, Linux only)\n")
    print(_table.table(["lesson", "code cells", "cells ending in an error", "seconds",
                        "kernel peak", "within aim"], rows))
    print("\n" + _table.save("run_all", {"lessons": figures,
                                         "aim": {"seconds": AIM_SECONDS, "mb": AIM_MB}}))
    return 0 if all(f["within_aim"] for f in figures) else 1


if __name__ == "__main__":
    sys.exit(main())
