"""What an instructor waits for: grading a class with the grader's command.

    .venv/bin/python -m bench.grading [--lab 15.1] [--jobs 1 2] [--full 40 --partial 30
                                      --waits 12 --busy 3 --crashes 15] [--seconds-per-test S]

Generates a class of submissions of mixed quality into a temporary folder, one NAME/harness.py
each, and grades it with `python -m grader grade --lab LAB CLASS --out OUT --jobs N` once per
--jobs value, each into a fresh OUT (so the grader's journal reuses nothing). Measures the wall
time of each command and reports submissions per minute. The class:

- full marks: the lab's reference solution;
- partial: the lab's starter, or the solution with one gap opened
  (tools.labsource.make(lab, "starter", open_only=N), each gap in turn);
- hanging: the solution with tests/check/submissions/waits_for_ever.py appended (a wait nothing
  ends: stopped by the event-loop budget at once, cheap) or with hangs_in_a_busy_loop.py (a
  busy loop: every test it reaches waits out the wall-clock guard, --seconds-per-test, 5 s);
- crashing: the solution with crashes_the_interpreter.py (SIGSEGV in a test) or
  exits_during_a_test.py, exits_at_import.py, or does_not_parse.py.

Each file gets a first comment naming its student, so no two are the same bytes. The default
mix is 40 / 30 / 15 (12 waits, 3 busy loops) / 15, 100 submissions. The busy loops dominate the
time; the table shows the seconds each kind took, from the grader's own grades.json. With
--seconds-per-test the figures go to their own section of bench/latest.json, beside those made
with the grader's defaults.

The issue's aim: 100 mixed submissions in under 2 minutes on 2 cores.

The grader's command also writes report.html, the class page (grader/page/); the bench writes
it once more from each run's grades.json, timed on its own, and reports that time as a share of
the run's wall time (issue 28's aim: under a tenth).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from bench import _table
from grader import page
from lab.check import manifest
from tools import labsource

SUBMISSIONS = _table.KIT / "tests" / "check" / "submissions"
CRASHES = ["crashes_the_interpreter", "exits_during_a_test", "exits_at_import",
           "does_not_parse"]


def snippet(name: str) -> str:
    return (SUBMISSIONS / f"{name}.py").read_text(encoding="utf-8")


# The generated class of 100, by kind: what the bench grades unless told otherwise, and what the
# class page's browser test reads.
CLASS = {"full": 40, "partial": 30, "waits": 12, "busy": 3, "crashes": 15}


def generate(folder: Path, lab: manifest.Lab, counts: dict) -> dict[str, str]:
    """Write the class into `folder`; return {student: kind}."""
    solution = lab.solution.read_text(encoding="utf-8")
    tree = labsource.parse(labsource.SOURCE.read_text(encoding="utf-8"))
    partials = [("starter", lab.starter.read_text(encoding="utf-8"))] + [
        (f"gap{gap.number}", labsource.make(lab, "starter", open_only=gap.number, tree=tree))
        for gap in labsource.gaps(tree, lab.id)]
    texts: list[tuple[str, str, str]] = []  # (kind, variant, text)
    texts += [("full", "solution", solution)] * counts["full"]
    texts += [("partial", *partials[i % len(partials)]) for i in range(counts["partial"])]
    texts += [("hanging", "waits_for_ever", solution + "\n" + snippet("waits_for_ever"))
              ] * counts["waits"]
    texts += [("hanging", "busy_loop", solution + "\n" + snippet("hangs_in_a_busy_loop"))
              ] * counts["busy"]
    for i in range(counts["crashes"]):
        name = CRASHES[i % len(CRASHES)]
        base = "" if name == "does_not_parse" else solution + "\n"
        texts.append(("crashing", name, base + snippet(name)))
    kinds = {}
    for n, (kind, variant, text) in enumerate(texts, 1):
        student = f"s{n:03d}-{kind}-{variant}"
        (folder / student).mkdir()
        (folder / student / "harness.py").write_text(f"# {student}\n{text}", encoding="utf-8")
        kinds[student] = f"{kind}: {variant}"
    return kinds


def _natural(text: str) -> list:
    """A sort key under which gap2 comes before gap10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def grade(lab: str, folder: Path, out: Path, jobs: int, extra: list[str]) -> float:
    """Run the grader's command; its wall time in seconds."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(_table.KIT), os.environ.get("PYTHONPATH")])))
    command = [sys.executable, "-m", "grader", "grade", "--lab", lab, str(folder), "--out",
               str(out), "--jobs", str(jobs), "--quiet", *extra]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=_table.KIT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0 or not (out / f"lab-{lab}" / "grades.json").is_file():
        sys.exit(f"The grader failed (exit {done.returncode}):\n{done.stdout[-3000:]}"
                 f"{done.stderr[-3000:]}")
    return seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.grading",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--lab", default="15.1", help="the lab to grade (default 15.1)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    for name, default in CLASS.items():
        parser.add_argument(f"--{name}", type=int, default=default,
                            help=f"submissions of this kind (default {default})")
    parser.add_argument("--seconds-per-test", type=float,
                        help="passed on to the grader (default: the grader's own, 5 s)")
    args = parser.parse_args(argv)
    lab = manifest.lab(args.lab)
    extra = [] if args.seconds_per_test is None else \
        ["--seconds-per-test", f"{args.seconds_per_test:g}"]
    counts = {k: getattr(args, k) for k in ("full", "partial", "waits", "busy", "crashes")}

    runs, rows_by_kind = [], None
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as scratch:
        folder = Path(scratch) / "class"
        folder.mkdir()
        kinds = generate(folder, lab, counts)
        n = len(kinds)
        for jobs in args.jobs:
            out = Path(scratch) / f"out-jobs{jobs}"
            seconds = grade(lab.id, folder, out, jobs, extra)
            out = out / f"lab-{lab.id}"  # the lab's own folder in the class folder
            data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
            rows = data["submissions"]
            started = time.perf_counter()
            page.write(out)
            page_seconds = time.perf_counter() - started
            runs.append({"jobs": jobs, "seconds": round(seconds, 2),
                         "report_html_seconds": round(page_seconds, 3),
                         "report_html_share": round(page_seconds / seconds, 4),
                         "per_minute": round(n / seconds * 60, 1),
                         "isolation": data["isolation"].get("level"),
                         "verdicts": dict(Counter(r["verdict"] for r in rows))})
            if rows_by_kind is None:  # from the first run: what each kind got, and cost
                rows_by_kind = defaultdict(list)
                for r in rows:
                    rows_by_kind[kinds[r["student"]]].append(r)

    wrong = [kind for kind, rows in rows_by_kind.items()
             if kind.startswith("full") and any(r["verdict"] != "full marks" for r in rows)]
    kinds_table = []
    for kind, rows in sorted(rows_by_kind.items(), key=lambda item: _natural(item[0])):
        verdicts = Counter(r["verdict"] for r in rows)
        kinds_table.append({"kind": kind, "count": len(rows),
                            "verdicts": dict(verdicts),
                            "mean_score": round(sum(r["score"] for r in rows) / len(rows), 2),
                            "max": rows[0]["max"],
                            "seconds_each": round(sum(r["seconds"] for r in rows) / len(rows),
                                                  3)})
    core_seconds = sum(k["seconds_each"] * k["count"] for k in kinds_table)
    busy = sum(k["seconds_each"] * k["count"] for k in kinds_table if "busy_loop" in k["kind"])
    figures = {"lab": lab.id, "submissions": n, "mix": counts, "runs": runs,
               "grader_options": extra, "seconds_graded": round(core_seconds, 1),
               "seconds_graded_busy_loops": round(busy, 1),
               "kinds": kinds_table, "full_marks_not_given": wrong}

    print(f"Batch grading, lab {lab.id}, {n} generated submissions\n")
    print(_table.table(["kind", "count", "verdicts", "mean score", "seconds each"],
                       [[k["kind"], k["count"],
                         ", ".join(f"{c} {v}" for v, c in sorted(k["verdicts"].items())),
                         f"{k['mean_score']:g}/{k['max']:g}", _table.seconds(k["seconds_each"])]
                        for k in kinds_table]))
    print()
    print(_table.table(["--jobs", "wall", "submissions per minute", "isolation",
                        "report.html", "of the wall"],
                       [[r["jobs"], _table.seconds(r["seconds"]), f"{r['per_minute']:.0f}",
                         r["isolation"], _table.seconds(r["report_html_seconds"]),
                         f"{r['report_html_share']:.1%}"] for r in runs]))
    print(f"\nSeconds spent grading, summed over submissions (--jobs {args.jobs[0]}): "
          f"{core_seconds:.0f}, of which the {counts['busy']} busy loops took {busy:.0f}.")
    if wrong:
        print(f"\nWARNING: the reference solution did not get full marks: {wrong}")
    # A run with another guard is kept beside the one with the grader's defaults, not over it.
    name = "grading" if not extra else f"grading_seconds_per_test_{args.seconds_per_test:g}"
    print("\n" + _table.save(name, figures))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
