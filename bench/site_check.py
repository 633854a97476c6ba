"""What a student waits for in the browser site: the practice check of lab 15.1, in the page.

    .venv/bin/python -m bench.site_check [--runs 3]

Needs the kit's `browser` and `site` extras and Debian's chromium, as tests/browser/ does.
Measures, on this machine:

- the site, built with tools.site into a temporary folder and served on 127.0.0.1 (every other
  host refused, and the run failing if one was asked for; tests/browser/site_server.py, as the
  browser tests do), with lesson 15 opened in headless Chromium: once the kernel is idle, a first
  page starts lab 15.1 (`course.start("15.1", force=True)`) and is closed; then, --runs times,
  a fresh page (a fresh kernel, the same browser storage) is timed from its address to its
  kernel's first cell (`print`) printing, the cold start a student waits through (Playwright's
  routing, which keeps the page on 127.0.0.1, turns the browser's HTTP cache off, so each page
  fetches everything afresh: an empty cache); then it runs `from lab import course;
  course.check("15.1")`, then the same check again, then writes the lab's
  reference with tests/check/submissions/hangs_in_a_busy_loop.py appended (a tool that spins)
  and checks that, then the same reference with `while True: pass` on one line in run_tool
  (tests/check/test_practice_spins.py) and checks that. Each is timed from Shift+Enter to its count line in the page, and by the
  cell itself (perf_counter around the call);
- `python lab/lab_check.py --harness harness.py --lesson 15 tests.py` on the same two files
  (the starter, the spinning references) in a lab folder laid out as `course start` makes one,
  median of --runs after a warm-up, as bench/checker.py runs it. The ratio of the page's first
  check to it is what the page costs; aim: the first check in the page under 5 s;
- a count, not a time: the most rounds of harness.py's loops any reference solution goes
  between two turns of the event loop, over every lab's cumulative suite run in this process
  under the practice check's spin guard (lab/check/spin.py), beside the guard's allowances
  (runner.Limits.rounds_without_a_turn and rounds_after_a_hang), which must stay far above it.

--no-spin leaves out the spinning files and the count: how to measure a kit without the guard,
where that check never ends.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

from bench import _table
from bench.checker import lab_folder, student_command
from lab.check import manifest, runner, suite
from tools.hang_cases import SPINS as SPINS_ON_ONE_LINE
from tools import site

LAB = manifest.lab("15.1")
ONE_LINE = SPINS_ON_ONE_LINE["a one-line while in run_tool"]
SPINS = _table.KIT / "tests" / "check" / "submissions" / "hangs_in_a_busy_loop.py"
AIM = 5.0  # seconds for the first practice check after the kernel is ready
AIM_COLD = 15.0  # seconds from opening a lesson, cold, to its kernel's first cell printing
SECONDS_TO_START = 180  # a kernel, from opening the lesson to idle
SECONDS_TO_CHECK = 300
TIMED = "import time as _t; _s = _t.perf_counter(); {code}; " \
        "print(f'in the kernel: {{_t.perf_counter() - _s:.3f}} s')"
IN_KERNEL = re.compile(r"in the kernel: ([\d.]+) s")
# Whether a cell's output holds `text` yet: polled at each frame, for a close wall time.
SHOWS = """([index, text]) => {
    const cell = document.querySelectorAll('.jp-Notebook .jp-CodeCell')[index];
    return !!cell && cell.querySelector('.jp-OutputArea').innerText.includes(text);
}"""


def most_rounds_between_turns() -> tuple[int, str]:
    """(rounds, lab) of the reference that goes the most rounds of its loops between two turns,
    every lab's solution checked in this process under the spin guard."""
    from lab.check import spin
    most, plain = [0, ""], spin.Guard._round

    def counted(guard):
        plain(guard)
        if guard.rounds > most[0]:
            most[:] = [guard.rounds, guard.path]
    spin.Guard._round = counted
    try:
        for lab in manifest.labs(built_only=True):
            files = suite.of_lab(lab.id)
            report = runner.run(lab.solution, files, runner.expected_for(files), in_process=True)
            if report.failed:
                sys.exit(f"The solution of lab {lab.id} fails its practice check; fix the kit "
                         "before measuring it.")
    finally:
        spin.Guard._round = plain
    lab = next((lab.id for lab in manifest.labs(built_only=True)
                if Path(most[1]) == lab.solution), most[1])
    return most[0], lab


def checker_seconds(text: str, runs: int, scratch: Path, name: str) -> dict:
    """lab_check.py on a lab folder holding `text`: seconds to its count line, and the line."""
    folder = lab_folder(scratch / name, LAB, text)
    done = [student_command(folder, LAB) for _ in range(runs + 1)][1:]
    return {**_table.spread([d["to_count"] for d in done]),
            "count": f"{done[-1]['passed']} passed, {done[-1]['failed']} failed"}


class Page:
    """Lesson 15 opened in `page`, a fresh page of the browser (a fresh kernel), its kernel
    idle; cells are added below the last and timed."""

    def __init__(self, page, base: str):
        from tests.browser.site_server import lesson_opened
        self.page = page
        self.page.set_default_timeout(60_000)
        started = time.perf_counter()
        self.notebook = lesson_opened(page, base, LAB.lesson.folder.name, SECONDS_TO_START)
        self.run("print('ready', 6 * 7)", "ready 42")
        self.cold = round(time.perf_counter() - started, 3)

    def run(self, code: str, until: str) -> tuple[float, str]:
        """Run `code` in a new last cell: (seconds from Shift+Enter until its output holds
        `until`, what it printed)."""
        cells = self.notebook.locator(".jp-CodeCell")
        last = cells.count() - 1
        cells.nth(last).click()
        self.page.keyboard.press("Escape")
        self.page.keyboard.press("b")
        self.page.keyboard.press("Enter")
        self.page.keyboard.insert_text(code)
        started = time.perf_counter()
        self.page.keyboard.press("Shift+Enter")
        self.page.wait_for_function(SHOWS, arg=[last + 1, until], polling="raf",
                                    timeout=SECONDS_TO_CHECK * 1000)
        seconds = time.perf_counter() - started
        return seconds, cells.nth(last + 1).locator(".jp-OutputArea").inner_text()

    def check(self, code: str, count: str) -> dict:
        """Time a cell that runs a practice check and prints `count`, from the page and from
        inside the kernel."""
        wall, printed = self.run(TIMED.format(code=code), "in the kernel:")
        if count not in printed:
            sys.exit(f"The practice check in the page did not print {count!r}:\n{printed[-800:]}")
        return {"wall": round(wall, 3),
                "in_kernel": float(IN_KERNEL.search(printed).group(1))}


def in_the_page(built: Path, runs: int, counts: dict, spinning: dict | None) -> list[dict]:
    """`runs` fresh kernels, each timing its first cell from opening the lesson, the first
    check, a second one, and the spinning files' (`spinning`, by name, unless None), in the site
    at `built`; pages of one browser profile,
    so one browser storage."""
    from tests.browser.site_server import site_tab
    check = f'from lab import course; course.check("{LAB.id}")'

    def write(text: str) -> str:
        return (f'(course.folder("{LAB.id}") / "harness.py").write_text({text!r}, '
                'encoding="utf-8"); print("written")')
    measured = []
    with site_tab(built, built.parent, "bench-site-check-failure.png") as (tab, base):
        first = Page(tab, base)
        first.run(f'from lab import course; course.start("{LAB.id}", force=True)', "Check it")
        first.page.close()
        for n in range(runs):
            page = Page(tab.context.new_page(), base)
            ran = {"cold": {"wall": page.cold, "in_kernel": 0.0},
                   "first": page.check(check, counts["starter"]),
                   "again": page.check(check, counts["starter"])}
            if spinning is not None:
                for key, text in spinning.items():
                    page.run(write(text), "written")
                    ran[key] = page.check(check, counts[key])
                page.run(write(LAB.starter.read_text(encoding="utf-8")), "written")
            measured.append(ran)
            page.page.close()
            print(f"  run {n + 1}: first cell {page.cold:.2f} s from opening, first check "
                  f"{ran['first']['wall']:.2f} s", file=sys.stderr, flush=True)
    return measured


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.site_check",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh kernels (default 3)")
    parser.add_argument("--no-spin", action="store_true",
                        help="leave out the file that spins and the count of rounds")
    args = parser.parse_args(argv)
    limits = runner.Limits()
    starter = LAB.starter.read_text(encoding="utf-8")
    spinning = None if args.no_spin else {
        "spinning": LAB.solution.read_text(encoding="utf-8") + "\n" +
        SPINS.read_text(encoding="utf-8"),
        "one_line": ONE_LINE.text()[0]}
    with tempfile.TemporaryDirectory(prefix="bench-site-check-") as scratch:
        scratch = Path(scratch)
        checker = {"starter": checker_seconds(starter, args.runs, scratch, "starter")}
        for key, text in (spinning or {}).items():
            checker[key] = checker_seconds(text, args.runs, scratch, key)
        started = time.perf_counter()
        built = site.build(scratch / "site")
        build_seconds = time.perf_counter() - started
        measured = in_the_page(built, args.runs, {k: v["count"] for k, v in checker.items()},
                               spinning)

    def spread(key: str, field: str) -> dict:
        return _table.spread([run[key][field] for run in measured])
    page = {key: {"wall": spread(key, "wall"), "in_kernel": spread(key, "in_kernel")}
            for key in measured[0]}
    first, cold = page["first"]["wall"]["median"], page["cold"]["wall"]["median"]
    figures = {"lab": LAB.id, "runs": args.runs, "build": round(build_seconds, 2),
               "page": page, "lab_check": checker, "aim": AIM, "within": first < AIM,
               "aim_cold": AIM_COLD, "within_cold": cold < AIM_COLD,
               "load_average": [round(n, 2) for n in os.getloadavg()],
               "ratio_first": round(first / checker["starter"]["median"], 1)}
    if spinning is not None:
        rounds, lab = most_rounds_between_turns()
        figures["ratio_spinning"] = round(page["spinning"]["wall"]["median"] /
                                          checker["spinning"]["median"], 1)
        figures["rounds_between_turns"] = {
            "most": rounds, "lab": lab, "rounds_without_a_turn": limits.rounds_without_a_turn,
            "rounds_after_a_hang": limits.rounds_after_a_hang,
            "margin": round(limits.rounds_after_a_hang / max(rounds, 1), 1)}

    def row(what: str, key: str, checked: str) -> list:
        wall, kernel = page[key]["wall"], page[key]["in_kernel"]
        return [what, f"{_table.seconds(wall['median'])} ({_table.seconds(wall['min'])} .. "
                      f"{_table.seconds(wall['max'])})", _table.seconds(kernel["median"]),
                _table.seconds(checker[checked]["median"]),
                f"x{wall['median'] / checker[checked]['median']:.1f}"]
    wall = page["cold"]["wall"]
    rows = [["the kernel's first cell, from opening the lesson with an empty cache",
             f"{_table.seconds(wall['median'])} ({_table.seconds(wall['min'])} .. "
             f"{_table.seconds(wall['max'])})", "", "", ""],
            row("first check after the kernel is ready (import of lab included)", "first",
                "starter"),
            row("the same check again", "again", "starter")]
    if spinning is not None:
        most = figures["rounds_between_turns"]
        rows += [row(f"a file that spins ({checker['spinning']['count']})", "spinning",
                     "spinning"),
                 row(f"while True: pass on one line in run_tool ({checker['one_line']['count']})",
                     "one_line", "one_line"),
                 [f"most rounds of a reference's loops between two turns (lab {most['lab']})",
                  f"{most['most']:,}", "", "",
                  f"allowance {limits.rounds_without_a_turn:,}, after a spin "
                  f"{limits.rounds_after_a_hang:,} (x{most['margin']:g})"]]
    print(f"Practice check of lab {LAB.id} in the browser site, median of {args.runs} fresh "
          f"kernels (site built in {build_seconds:.1f} s)\n")
    print(_table.table(["what", "in the page, to the count line", "inside the kernel",
                        "lab_check.py", "page / lab_check"], rows))
    print(f"\nAim: the first check under {AIM:g} s: "
          f"{'met' if figures['within'] else 'NOT met'}; the first cell under {AIM_COLD:g} s "
          f"cold: {'met' if figures['within_cold'] else 'NOT met'} (load average "
          f"{', '.join(map(str, figures['load_average']))} at the end: the machine may be "
          "shared)")
    print("\n" + _table.save("site_check", figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
