"""What every benchmark shares: a plain Markdown table, the machine it ran on, and where the
figures go.

Each run writes bench/results/NAME-TIMESTAMP.json (git-ignored, one file per run, to compare
runs on one machine) and replaces its own section of bench/latest.json (committed: the figures
the README quotes, with the command that made them).

    python -m bench._table      prints the README's table from bench/latest.json
"""
from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from lab.check import manifest

BENCH = Path(__file__).resolve().parent
KIT = manifest.KIT  # the kit whose `lab` is imported, which the benchmarks measure
RESULTS = BENCH / "results"
LATEST = BENCH / "latest.json"
# The words of pytest's closing line that count tests; "warnings" and "deselected" do not.
OUTCOMES = {"passed", "failed", "skipped", "xfailed", "xpassed", "error", "errors"}


def table(headers: list[str], rows: list[list]) -> str:
    """A Markdown table with its columns padded, so it reads as well in a terminal."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |" for row in cells]
    lines.insert(1, "| " + " | ".join("-" * w for w in widths) + " |")
    return "\n".join(lines)


def seconds(value: float) -> str:
    if value < 1:
        return f"{value * 1000:.0f} ms"
    return f"{value:.2f} s" if value < 100 else f"{value:.0f} s"


def spread(samples: list[float]) -> dict:
    """Median, fastest and slowest of a list of timings, in seconds."""
    return {"median": round(statistics.median(samples), 4), "min": round(min(samples), 4),
            "max": round(max(samples), 4), "runs": len(samples)}


def machine() -> dict:
    """Enough about the machine to tell two sets of figures apart."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu": model or platform.processor(),
            "system": f"{platform.system()} {platform.release()}",
            "python": platform.python_version(), "interpreter": sys.executable}


def command() -> str:
    """How this run was started, as the README should quote it."""
    module = sys.modules["__main__"].__spec__
    name = module.name if module else Path(sys.argv[0]).as_posix()
    return " ".join([".venv/bin/python -m " + name if module else "python " + name,
                     *sys.argv[1:]])


def save(name: str, figures: dict) -> str:
    """Write this run to bench/results/ and make it bench/latest.json's `name` section; say
    where."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    data = {"command": command(), "measured": stamp, "machine": machine(), **figures}
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}-{stamp.replace(':', '')}.json"
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    latest = json.loads(LATEST.read_text(encoding="utf-8")) if LATEST.is_file() else {}
    latest[name] = data
    LATEST.write_text(json.dumps(latest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return f"wrote bench/results/{path.name} and bench/latest.json"


def readme_table(latest: dict) -> str:
    """The one table the README quotes: each benchmark's headline against the issue's aim."""
    rows = []
    checker = latest.get("checker")
    if checker:
        out, inside = checker["subprocess"]["median"], checker["in_process"]["median"]
        rows.append([f"local checker, lab {checker['lab']} solution, whole cumulative suite "
                     f"({checker['tests']} tests), command to count line",
                     f"{seconds(out)} (in-process {seconds(inside)}, x{out / inside:.1f})",
                     f"within x{checker.get('ratio_aim', 3):g} the in-process run",
                     "yes" if out / inside <= checker.get("ratio_aim", 3) else "NO"])
        hang = checker.get("hanging")
        if hang:
            spin = (f"after {hang['cpu_without_a_turn']:g} s of processor time without a turn, "
                    f"then {hang['cpu_after_a_hang']:g} s" if "cpu_without_a_turn" in hang else
                    f"the first at {hang['seconds_per_test']:g} s, the rest at "
                    f"{hang.get('seconds_after_a_hang', hang['seconds_per_test']):g} s")
            rows.append([f"local checker, a submission that busy-loops ({hang['timed_out']} "
                         f"tests stopped, {spin})", seconds(hang["wall"]),
                         f"at most {seconds(hang['bound'])} in all",
                         "yes" if hang["within"] else "NO"])
        everywhere = checker.get("hanging_everywhere")
        if everywhere:
            rows.append([f"local checker, run_tool spinning in every call ({everywhere['stopped']} "
                         f"tests stopped, then {everywhere['not_run']} not run)",
                         seconds(everywhere["wall"]), f"at most {seconds(everywhere['bound'])}",
                         "yes" if everywhere["within"] else "NO"])
    grading = latest.get("grading")
    if grading:
        mix = grading["mix"]
        rows.append([f"batch grading, lab {grading['lab']}: {grading['submissions']} generated "
                     f"submissions, {mix['full']} full marks, {mix['partial']} partial, "
                     f"{mix['waits'] + mix['busy']} hanging ({mix['busy']} in a busy loop), "
                     f"{mix['crashes']} crashing", f"{grading['seconds_graded']:.0f} s graded, "
                     f"{grading['seconds_graded_busy_loops']:.0f} s of it in the busy loops",
                     "", ""])
        for run in grading["runs"]:
            aim = (f"{grading['submissions']} in under 30 s on 2 cores"
                   if run["jobs"] == 2 else "")
            met = ("yes" if run["seconds"] < 30 else "NO") if run["jobs"] == 2 else ""
            rows.append([f"batch grading, the same class, --jobs {run['jobs']}",
                         f"{seconds(run['seconds'])}, {run['per_minute']:.0f} per minute",
                         aim, met])
    for name in sorted(k for k in latest if k.startswith("grading_seconds_per_test_")):
        variant = latest[name]
        guard = " ".join(variant["grader_options"])
        for run in variant["runs"]:
            rows.append([f"batch grading, the same class, --jobs {run['jobs']} {guard}",
                         f"{seconds(run['seconds'])}, {run['per_minute']:.0f} per minute",
                         "", ""])
    notebooks = latest.get("notebooks")
    if notebooks:
        books = notebooks["notebooks"]
        each = [b["seconds"] for b in books]
        rows.append([f"every lesson notebook under nbclient ({len(books)} notebooks, "
                     f"{sum(b['code_cells'] for b in books)} code cells), kernel start included",
                     f"{seconds(notebooks['total'])} in all, {seconds(min(each))} to "
                     f"{seconds(max(each))} each", "", "" if all(b["matches_pins"] for b in books)
                     else "NOT all print their pins"])
    run_all = latest.get("run_all")
    if run_all:
        books = run_all["lessons"]
        rows.append([f"Run All on every lesson with its labs started and unfilled ({len(books)} "
                     "lessons), kernel start included",
                     f"{max(b['seconds'] for b in books):.1f} s and "
                     f"{max(b['peak_mb'] for b in books):.0f} MB at most",
                     f"each under {run_all['aim']['seconds']} s and {run_all['aim']['mb']} MB",
                     "yes" if all(b["within_aim"] for b in books) else "NO"])
    page = latest.get("site_check")
    if page:
        first = page["page"]["first"]["wall"]["median"]
        spins = page["page"].get("spinning")
        checker = page["lab_check"]["starter"]["median"]
        one_line = page["page"].get("one_line")
        load = page.get("load_average")
        rows.append([f"practice check of lab {page['lab']} in the browser site, the first after "
                     "the kernel is ready (import of lab included)",
                     f"{seconds(first)} (lab_check.py {seconds(checker)}, "
                     f"x{page['ratio_first']:g})" +
                     (f"; a file that spins {seconds(spins['wall']['median'])}" if spins else "") +
                     (f", `while True: pass` on one line {seconds(one_line['wall']['median'])}"
                      if one_line else ""),
                     f"under {seconds(page['aim'])}", "yes" if page["within"] else "NO"])
        if "cold" in page["page"]:
            rows.append(["the browser site's kernel, from opening lesson 15 with an empty cache "
                         "to its first cell's output",
                         seconds(page["page"]["cold"]["wall"]["median"]) +
                         (f" (load average {load[0]:g} at the end)" if load else ""),
                         f"under {seconds(page['aim_cold'])}",
                         "yes" if page["within_cold"] else "NO"])
    for name, busy in (("suite", ""), ("suite_busy", ", every core kept busy by a spinning process")):
        suite = latest.get(name)
        if suite:
            runs = suite["runs"]
            tests = max(sum(n for word, n in r["counts"].items() if word in OUTCOMES)
                        for r in runs)
            worst = max(r["seconds"] for r in runs)
            where = "a fresh clone" if suite["fresh_clone"] else "the kit's folder"
            rows.append([f"the README's test command on {where} ({tests} tests{busy})",
                         ", ".join(seconds(r["seconds"]) for r in runs) + " (load before: " +
                         ", ".join(f"{r['load_before']:g}" for r in runs) + ")",
                         f"at most {seconds(suite['aim_seconds'])} on 2 cores" if not busy
                         else "", ("yes" if worst <= suite["aim_seconds"] and
                                   all(r["exit"] == 0 for r in runs) else "NO") if not busy
                         else ("" if all(r["exit"] == 0 for r in runs) else "NO: it failed")])
    mutation = latest.get("mutation")
    if mutation:
        weakest = min(mutation["labs"], key=lambda lab: lab["score"])
        free = mutation.get("free", 0)
        counted = mutation["mutants"] - mutation["equivalent"] - free
        aim = f"at least {mutation['aim']:.0%}" + (
            f", no lab under {mutation['lab_aim']:.0%}" if "lab_aim" in mutation else "")
        rows.append([f"mutants of the code in each lab's gaps ({len(mutation['labs'])} labs, "
                     f"{mutation['mutants']} mutants, {mutation['equivalent']} judged "
                     f"equivalent, {free} left free by the lesson), killed by the lab's own "
                     "tests",
                     f"{mutation['score']:.1%} ({mutation['killed']} of {counted}); lowest "
                     f"lab {weakest['lab']}, {weakest['score']:.1%}",
                     aim, "yes" if mutation["met"] else "NO"])
    kinds = latest.get("mutation_kinds")
    if kinds:
        judged = kinds["equivalent"] + kinds.get("free", 0)
        earlier = sum(lab.get("killed_by_earlier_labs", 0) for lab in kinds["labs"])
        rows.append([f"wrong designs of each kind made in each lab's gaps (bench/kinds.py: "
                     f"{len(kinds['labs'])} labs, {kinds['mutants']} designs, {judged} judged "
                     "equivalent or left free), killed by the lab's check",
                     f"{kinds['killed']} of {kinds['mutants']} killed ({earlier} by an "
                     f"earlier lab's tests, which the check runs); {kinds['survived']} "
                     "survive unjudged", "no survivor unjudged (issue 38)",
                     "yes" if kinds["survived"] == 0 else "NO"])
    oracle = latest.get("oracle")
    if oracle:
        rows.append([f"a file with no harness code (both oracles), graded on each of "
                     f"{len(oracle['labs'])} banked labs, both paths",
                     f"at most {oracle['worst']:.1%} of full marks (labs "
                     f"{', '.join(m['lab'] for m in oracle['labs'])})",
                     f"under {oracle['aim']:.0%} (issue 40)", "yes" if oracle["met"] else "NO"])
    commands = sorted({latest[k]["command"] for k in latest})
    machines = {json.dumps({k: v for k, v in latest[k]["machine"].items() if k != "interpreter"},
                           sort_keys=True) for k in latest}
    where = "; ".join(f"{m['cpus']} x {m['cpu']}, {m['system']}, Python {m['python']}"
                      for m in map(json.loads, sorted(machines)))
    return (table(["what", "measured", "aim", "met"], rows) + "\n\nMeasured on " + where +
            ", with:\n\n```\n" + "\n".join(commands) + "\n```")


if __name__ == "__main__":
    if not LATEST.is_file():
        sys.exit("bench/latest.json does not exist yet: run the benchmarks first.")
    print(readme_table(json.loads(LATEST.read_text(encoding="utf-8"))))
