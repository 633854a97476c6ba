"""What a student waits for: the local checker on one solution, and on one that hangs.

    .venv/bin/python -m bench.checker [--lab 15.2] [--runs 11] [--no-hang]

Measures, on this machine:

- the student's command, `python lab/lab_check.py --harness harness.py --lesson 15 tests.py`,
  run from a lab folder laid out as `course start` makes one (harness.py, tests.py, the `lab`
  folder that stands for the kit's package), on the lab's reference solution: wall time from
  starting the command to the moment its count line ("181 passed, 0 failed") is printed,
  median of --runs runs after one warm-up;
- the same cumulative suite run in this process by lab.check.record.record (what the kit uses
  to record the reference's values): no child process, no blinding, no judging across a pipe.
  The ratio of the two is what the separate process and its isolation cost; aim: at most 3;
- a bare `python -I -c pass`, the part of that cost no checker can avoid;
- the most processor time the reference spends between two turns of the event loop, in any
  test of the suite: what the spin guard's allowance (runner.Limits.cpu_without_a_turn) must
  stay far above, so that no correct solution is ever stopped as spinning;
- once, the same command on the solution with tests/check/submissions/hangs_in_a_busy_loop.py
  appended: a busy loop no budget of turns can stop, so each test it reaches is stopped by the
  spin guard. Aim: the whole run within 5 seconds;
- once, the same command on the solution with a busy loop at the top of run_tool, so that every
  test that runs a tool spins at one place: the check stops after Limits.hangs_in_a_row of them
  and marks the rest not run (lab/check/hangs.py). Aim: its answer within 5 seconds.
"""
from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import _table
from lab.check import manifest, record, runner, suite, turns
from lab.desk import course

COUNT = re.compile(r"^(\d+) passed, (\d+) failed(?:, (\d+) not run)?$")
HANG = _table.KIT / "tests" / "check" / "submissions" / "hangs_in_a_busy_loop.py"
RATIO_AIM = 3.0  # the command, at most this many times the in-process run
HANG_AIM = 5.0  # seconds for the whole check of the busy-looping file


def lab_folder(parent: Path, lab: manifest.Lab, harness_text: str) -> Path:
    """A lab folder as tests/check/test_checker.py and `course start` make one."""
    folder = parent / lab.folder
    folder.mkdir(parents=True)
    (folder / "harness.py").write_text(harness_text, encoding="utf-8")
    (folder / "tests.py").write_text(lab.tests.read_text(encoding="utf-8"), encoding="utf-8")
    course.forward_package(folder)
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
            counted = (time.perf_counter() - started, int(match[1]), int(match[2]),
                       int(match[3] or 0))
    process.wait()
    ended = time.perf_counter() - started
    if counted is None:
        sys.exit("The checker printed no count line:\n" + "".join(lines[-20:]))
    to_count, passed, failed, not_run = counted
    return {"to_count": to_count, "to_exit": ended, "passed": passed, "failed": failed,
            "not_run": not_run, "stopped": sum(line.startswith("  TIME") for line in lines)}


def spinning_in_every_call(solution: str) -> str:
    """The solution with a busy loop as run_tool's first statement, after its docstring."""
    tree = ast.parse(solution)
    run_tool = next(node for node in tree.body if getattr(node, "name", None) == "run_tool")
    first = run_tool.body[1] if ast.get_docstring(run_tool) else run_tool.body[0]
    lines = solution.splitlines(keepends=True)
    indent = " " * first.col_offset
    lines.insert(first.lineno - 1, f"{indent}while True:\n{indent}    pass\n")
    return "".join(lines)


def cpu_between_turns(harness: Path, files) -> float:
    """The most processor time, in seconds, the harness's tests spend between the starts of two
    turns of the event loop (or between a test's start and its first turn), over one in-process
    run of `files`."""
    most, last = [0.0], [None]
    plain_run_once, plain_run_test = turns.CountingLoop._run_once, turns.CountingLoop.run_test

    def run_once(loop):
        now = time.process_time()
        most[0] = max(most[0], now - last[0])
        last[0] = now
        plain_run_once(loop)

    def run_test(loop, coroutine):
        last[0] = time.process_time()
        return plain_run_test(loop, coroutine)

    turns.CountingLoop._run_once, turns.CountingLoop.run_test = run_once, run_test
    try:
        record.record(harness, files)
    finally:
        turns.CountingLoop._run_once, turns.CountingLoop.run_test = plain_run_once, plain_run_test
    return most[0]


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
                        help="skip the hanging submission")
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
                   "in_process": _table.spread(inside), "interpreter_start": _table.spread(bare),
                   "ratio_aim": RATIO_AIM}
        figures["ratio"] = round(figures["subprocess"]["median"] /
                                 figures["in_process"]["median"], 2)
        most = cpu_between_turns(folder / "harness.py", files)
        figures["cpu_between_turns"] = {
            "most": round(most, 5), "cpu_without_a_turn": limits.cpu_without_a_turn,
            "cpu_after_a_hang": limits.cpu_after_a_hang,
            "margin": round(limits.cpu_after_a_hang / most, 1)}
        if not args.no_hang:
            hanging = lab_folder(Path(scratch) / "hanging", lab,
                                 solution + "\n" + HANG.read_text(encoding="utf-8"))
            run = student_command(hanging, lab)
            k = run["stopped"]
            # The spin guard's allowances, in processor time; the rest of the wall time is
            # the ordinary run of the suite, starting the children and noticing the spin.
            allowances = limits.cpu_without_a_turn + max(k - 1, 0) * limits.cpu_after_a_hang
            figures["hanging"] = {
                "wall": round(run["to_count"], 3), "passed": run["passed"],
                "failed": run["failed"], "timed_out": k,
                "cpu_without_a_turn": limits.cpu_without_a_turn,
                "cpu_after_a_hang": limits.cpu_after_a_hang,
                "seconds_per_test": limits.seconds_per_test,
                "seconds_after_a_hang": limits.seconds_after_a_hang,
                "seconds_total": limits.seconds_total, "bound": HANG_AIM,
                "overhead_per_stopped_test": round(
                    (run["to_count"] - allowances - figures["subprocess"]["median"]) / max(k, 1),
                    3),
                "within": run["to_count"] <= HANG_AIM}
            everywhere = student_command(
                lab_folder(Path(scratch) / "everywhere", lab, spinning_in_every_call(solution)),
                lab)
            figures["hanging_everywhere"] = {
                "wall": round(everywhere["to_count"], 3), "stopped": everywhere["stopped"],
                "passed": everywhere["passed"], "not_run": everywhere["not_run"],
                "hangs_in_a_row": limits.hangs_in_a_row, "bound": HANG_AIM,
                "within": everywhere["to_count"] <= HANG_AIM}

    rows = [[f"`lab_check` command, to the count line (median of {args.runs})",
             _table.seconds(figures["subprocess"]["median"]),
             f"{_table.seconds(figures['subprocess']['min'])} .. "
             f"{_table.seconds(figures['subprocess']['max'])}"],
            ["same command, to its exit", _table.seconds(figures["subprocess_to_exit"]["median"]),
             ""],
            ["same suite in-process (lab.check.record.record)",
             _table.seconds(figures["in_process"]["median"]),
             f"{_table.seconds(figures['in_process']['min'])} .. "
             f"{_table.seconds(figures['in_process']['max'])}"],
            ["bare interpreter start (python -I -c pass)",
             _table.seconds(figures["interpreter_start"]["median"]), ""],
            ["process and isolation, command / in-process", f"x{figures['ratio']:.1f}",
             f"aim at most x{RATIO_AIM:g}: "
             f"{'met' if figures['ratio'] <= RATIO_AIM else 'NOT met'}"],
            ["most processor time between two turns (reference, in-process)",
             _table.seconds(figures["cpu_between_turns"]["most"]),
             f"spin allowance {limits.cpu_without_a_turn:g} s, after a hang "
             f"{limits.cpu_after_a_hang:g} s (x{figures['cpu_between_turns']['margin']:g})"]]
    hang = figures.get("hanging")
    if hang:
        rows.append([f"busy-loop submission: {hang['timed_out']} tests stopped (the first after "
                     f"{hang['cpu_without_a_turn']:g} s of processor time without a turn, the "
                     f"rest after {hang['cpu_after_a_hang']:g} s), {hang['passed']} passed",
                     _table.seconds(hang["wall"]),
                     f"aim {_table.seconds(hang['bound'])}: "
                     f"{'within' if hang['within'] else 'OVER'}"])
    everywhere = figures.get("hanging_everywhere")
    if everywhere:
        rows.append([f"run_tool spins in every call: {everywhere['stopped']} tests stopped, "
                     f"{everywhere['passed']} passed, {everywhere['not_run']} not run",
                     _table.seconds(everywhere["wall"]),
                     f"aim {_table.seconds(everywhere['bound'])}: "
                     f"{'within' if everywhere['within'] else 'OVER'}"])
    print(f"Local checker, lab {lab.id}'s solution, cumulative suite ({', '.join(figures['sets'])}"
          f", {figures['tests']} tests)\n")
    print(_table.table(["what", "median", "range / bound"], rows))
    print("\n" + _table.save("checker", figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
