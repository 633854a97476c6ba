"""What a student waits for: the local checker on one solution, and on one that hangs.

    .venv/bin/python -m bench.checker [--lab 15.2] [--runs 11] [--no-hang]

Measures, on this machine:

- the student's command, `python lab/lab_check.py --harness harness.py --lesson 15 tests.py`,
  run from a lab folder laid out as `course start` makes one (harness.py, tests.py, a `lab`
  link), on the lab's reference solution: wall time from starting the command to the moment
  its count line ("26 passed, 0 failed") is printed, median of --runs runs after one warm-up;
- the same cumulative suite run in this process by lab.record.record (what the kit uses to
  record the reference's values): no child process, no blinding, no judging across a pipe. The
  ratio of the two is what the separate process and its isolation cost;
- a bare `python -I -c pass`, the part of that cost no checker can avoid;
- once, the same command on the solution with tests/submissions/hangs_in_a_busy_loop.py
  appended: a busy loop no event-loop budget can stop, so each test it reaches waits out the
  wall-clock guard. The run must cost about that guard per stopped test and no more.

The issue's aim: the whole cumulative suite under 1.5 s wall for a solution, and a hanging
submission bounded by its limits.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import _table
from lab.check import manifest, record, runner, suite

COUNT = re.compile(r"^(\d+) passed, (\d+) failed$")
HANG = _table.KIT / "tests" / "submissions" / "hangs_in_a_busy_loop.py"


def lab_folder(parent: Path, lab: manifest.Lab, harness_text: str) -> Path:
    """A lab folder as tests/test_checker.py and `course start` make one."""
    folder = parent / lab.folder
    folder.mkdir(parents=True)
    (folder / "harness.py").write_text(harness_text, encoding="utf-8")
    (folder / "tests.py").write_text(lab.tests.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "lab").symlink_to(manifest.KIT / "lab")
    return folder


def student_command(folder: Path, lab: manifest.Lab) -> dict:
    """Run the student's command in `folder`; the seconds to its count line and to its exit."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [sys.executable, "lab/lab_check.py", "--harness", "harness.py",
               "--lesson", str(lab.lesson.number), "tests.py"]
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    counted, lines = None, []
    for line in process.stdout:
        lines.append(line)
        match = COUNT.match(line.strip())
        if match:
            counted = time.perf_counter() - started, int(match[1]), int(match[2])
    process.wait()
    ended = time.perf_counter() - started
    if counted is None:
        sys.exit("The checker printed no count line:\n" + "".join(lines[-20:]))
    to_count, passed, failed = counted
    return {"to_count": to_count, "to_exit": ended, "passed": passed, "failed": failed,
            "stopped": sum(line.startswith("  TIME") for line in lines)}


def timed(function, runs: int) -> list[float]:
    """Seconds for each of `runs` calls of function(), after one call not counted."""
    function()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        samples.append(time.perf_counter() - started)
    return samples


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.checker", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--lab", default="15.2", help="whose solution to check (default 15.2)")
    parser.add_argument("--runs", type=int, default=11, help="timed runs of each (default 11)")
    parser.add_argument("--no-hang", action="store_true",
                        help="skip the hanging submission (it takes a minute or more)")
    args = parser.parse_args(argv)
    lab = manifest.lab(args.lab)
    solution = lab.solution.read_text(encoding="utf-8")
    limits = runner.Limits()

    with tempfile.TemporaryDirectory(prefix="bench-checker-") as scratch:
        folder = lab_folder(Path(scratch) / "solution", lab, solution)
        results = [student_command(folder, lab) for _ in range(args.runs + 1)][1:]  # 1 warm-up
        last = results[-1]
        if last["failed"]:
            sys.exit(f"The solution of lab {lab.id} fails {last['failed']} tests; fix the kit "
                     "before measuring it.")
        out = [r["to_count"] for r in results]
        to_exit = [r["to_exit"] for r in results]
        files = suite.cumulative(folder / "tests.py", lab.lesson.number)
        inside = timed(lambda: record.record(folder / "harness.py", files), args.runs)
        bare = timed(lambda: subprocess.run([sys.executable, "-I", "-c", "pass"], check=True),
                     args.runs)
        figures = {"lab": lab.id, "tests": last["passed"],
                   "sets": [f"lab {f.lab_id}" for f in files], "warm_up_runs": 1,
                   "subprocess": _table.spread(out), "subprocess_to_exit": _table.spread(to_exit),
                   "in_process": _table.spread(inside), "interpreter_start": _table.spread(bare)}
        figures["ratio"] = round(figures["subprocess"]["median"] /
                                 figures["in_process"]["median"], 2)
        if not args.no_hang:
            hanging = lab_folder(Path(scratch) / "hanging", lab,
                                 solution + "\n" + HANG.read_text(encoding="utf-8"))
            run = student_command(hanging, lab)
            k = run["stopped"]
            normal = figures["subprocess"]["median"]
            # The first stopped test may cost its full guard, each later one the shorter guard
            # (Limits.seconds_after_a_hang); each of the k + 1 processes at most one ordinary
            # run of the suite besides. Beyond that, the limits did not hold.
            guards = (limits.seconds_per_test +
                      max(k - 1, 0) * min(limits.seconds_per_test, limits.seconds_after_a_hang))
            bound = guards + (k + 1) * normal
            figures["hanging"] = {
                "wall": round(run["to_count"], 3), "passed": run["passed"],
                "failed": run["failed"], "timed_out": k,
                "seconds_per_test": limits.seconds_per_test,
                "seconds_after_a_hang": limits.seconds_after_a_hang,
                "seconds_total": limits.seconds_total, "bound": round(bound, 3),
                "overhead_per_stopped_test": round(
                    (run["to_count"] - guards - normal) / max(k, 1), 3),
                "within": run["to_count"] <= min(bound, limits.seconds_total)}

    rows = [[f"`lab_check` command, to the count line (median of {args.runs})",
             _table.seconds(figures["subprocess"]["median"]),
             f"{_table.seconds(figures['subprocess']['min'])} .. "
             f"{_table.seconds(figures['subprocess']['max'])}"],
            ["same command, to its exit", _table.seconds(figures["subprocess_to_exit"]["median"]),
             ""],
            ["same suite in-process (lab.record.record)",
             _table.seconds(figures["in_process"]["median"]),
             f"{_table.seconds(figures['in_process']['min'])} .. "
             f"{_table.seconds(figures['in_process']['max'])}"],
            ["bare interpreter start (python -I -c pass)",
             _table.seconds(figures["interpreter_start"]["median"]), ""],
            ["process and isolation, command / in-process", f"x{figures['ratio']:.1f}", ""]]
    hang = figures.get("hanging")
    if hang:
        rows.append([f"busy-loop submission: {hang['timed_out']} tests stopped (the first "
                     f"at {hang['seconds_per_test']:g} s, the rest at "
                     f"{hang['seconds_after_a_hang']:g} s), {hang['passed']} passed",
                     _table.seconds(hang["wall"]),
                     f"bound {_table.seconds(hang['bound'])}: "
                     f"{'within' if hang['within'] else 'OVER'}"])
    print(f"Local checker, lab {lab.id}'s solution, cumulative suite ({', '.join(figures['sets'])}"
          f", {figures['tests']} tests)\n")
    print(_table.table(["what", "median", "range / bound"], rows))
    print("\n" + _table.save("checker", figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
