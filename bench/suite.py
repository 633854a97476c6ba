"""What every change waits for: the README's test command, on a fresh clone.

    .venv/bin/python -m bench.suite [--runs 3] [--busy] [--here]

Clones this kit's committed HEAD into a temporary folder, sets it up as the README's quick start
does (`python3 start.py --setup-only`, not timed), and times `.venv/bin/python -m pytest` there:
the wall time from start to exit, with the count pytest closes on. `--busy` keeps every core
busy with a process that only spins while the suite runs, as on a shared machine or a laptop
doing something else. `--here` times this folder instead of a clone (uncommitted changes
included). The load average before each run is kept beside it, since the figure means little
on a machine that was busy already. Aim: at most 120 s on two cores.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import _table

AIM_SECONDS = 120
SPIN = "while True: pass"


def clone(into: Path) -> Path:
    """A clone of HEAD, set up by the README's first command (without opening JupyterLab)."""
    into.chmod(0o755)  # as a checkout sits: the grader's slot users must reach the kit
    kit = into / "kit"
    subprocess.run(["git", "clone", "--quiet", "--no-local", str(_table.KIT), str(kit)],
                   check=True)
    # As the README has a newcomer type it: the system's python3, not this virtual environment's.
    python3 = shutil.which("python3") or shutil.which("python") or sys.executable
    subprocess.run([python3, "start.py", "--setup-only"], cwd=kit, check=True,
                   stdout=subprocess.DEVNULL)
    return kit


def closing_counts(output: str) -> dict:
    """pytest's closing line as numbers: {"passed": 2114, "skipped": 1, ...}."""
    last = [line for line in output.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    if not last:
        return {}
    return {word: int(n) for n, word in re.findall(r"(\d+) (\w+)", last[-1])}


def time_suite(kit: Path, busy: bool) -> dict:
    python = kit / ".venv" / ("Scripts" if os.name == "nt" else "bin") / "python"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN])
                for _ in range(os.cpu_count() or 1)] if busy else []
    try:
        started = time.perf_counter()
        done = subprocess.run([str(python), "-m", "pytest", "-p", "no:cacheprovider"], cwd=kit,
                              capture_output=True, text=True)
        wall = time.perf_counter() - started
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    seed = re.search(r"--randomly-seed=(\d+)", done.stdout)
    failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    return {"seconds": round(wall, 1), "exit": done.returncode, "busy": busy,
            "load_before": round(load, 2) if load is not None else None,
            "counts": closing_counts(done.stdout), "seed": int(seed.group(1)) if seed else None,
            "failed": failed}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.suite",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs (default 3)")
    parser.add_argument("--busy", action="store_true", help="every core kept busy meanwhile")
    parser.add_argument("--here", action="store_true", help="this folder, not a fresh clone")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        kit = _table.KIT if args.here else clone(Path(folder))
        runs = []
        for number in range(args.runs):
            run = time_suite(kit, args.busy)
            runs.append(run)
            print(f"  run {number + 1}: {run['seconds']} s, exit {run['exit']}, {run['counts']}",
                  *run["failed"], sep="\n    ", file=sys.stderr, flush=True)
    rows = [[i + 1, _table.seconds(r["seconds"]), r["exit"],
             ", ".join(f"{n} {w}" for w, n in r["counts"].items()), r["load_before"], r["seed"]]
            for i, r in enumerate(runs)]
    print("The README's test command" + (" with every core busy" if args.busy else "") +
          (" in this folder" if args.here else " on a fresh clone") + "\n")
    print(_table.table(["run", "wall", "exit", "counts", "load before", "seed"], rows))
    name = "suite_busy" if args.busy else "suite"
    print("\n" + _table.save(name, {"runs": runs, "fresh_clone": not args.here,
                                    "aim_seconds": AIM_SECONDS}))
    return 0 if all(r["exit"] == 0 for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
