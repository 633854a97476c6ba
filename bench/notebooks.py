"""What the kit's own tests wait for most: every lesson notebook run under nbclient.

    .venv/bin/python -m bench.notebooks [NN ...]

Runs each written lesson (each lessons/NN-slug/ with a lesson.md), or the lessons named, with
tools.notebooks.execute: the notebook built from lesson.md, executed top to bottom in a fresh
python3 kernel, in the lesson's folder, with HARNESS_COURSE_AS_SOLVED=1 and a fresh work
folder, exactly as tests/authoring/test_notebooks.py runs it. Measures the wall time of each
run, kernel start and shutdown included (the cost every notebook pays once), and the total; and
says whether what each cell printed is what outputs.json pins (tools.notebooks.mismatches), since
a run that fails early would be fast for the wrong reason.
"""
from __future__ import annotations

import argparse
import sys
import time

from bench import _table
from lab.check import manifest
from tools import notebooks


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.notebooks",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", type=int, help="lesson numbers (default: all)")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per cell (default 60)")
    args = parser.parse_args(argv)
    chosen = [manifest.lesson(n) for n in args.lessons] if args.lessons else notebooks.written()
    books = []
    for lesson in chosen:
        code = [c for c in notebooks.build(lesson).cells if c.cell_type == "code"]
        started = time.perf_counter()
        error = None
        try:
            printed = notebooks.execute(lesson, timeout=args.timeout)
        except Exception as exc:  # a cell that raised: still a figure, marked as such
            printed, error = {}, f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
        seconds = time.perf_counter() - started
        differ = list(notebooks.mismatches(lesson, printed))
        books.append({"lesson": lesson.number, "folder": lesson.folder.name,
                      "code_cells": len(code), "seconds": round(seconds, 2),
                      "matches_pins": not differ and error is None,
                      "cells_differing": differ if not error else [], "error": error})
        print(f"  lesson {lesson.number:02d}: {seconds:.2f} s", file=sys.stderr, flush=True)
    total = round(sum(b["seconds"] for b in books), 2)
    rows = [[f"{b['folder']}", b["code_cells"], _table.seconds(b["seconds"]),
             "yes" if b["matches_pins"] else
             (b["error"] or f"no: {len(b['cells_differing'])} cells differ")] for b in books]
    rows.append([f"total, {len(books)} notebooks", sum(b["code_cells"] for b in books),
                 _table.seconds(total), ""])
    print("Every lesson notebook under nbclient (kernel start included)\n")
    print(_table.table(["lesson", "code cells", "seconds", "prints its pins"], rows))
    print("\n" + _table.save("notebooks", {"notebooks": books, "total": total}))
    return 0 if all(b["matches_pins"] for b in books) else 1


if __name__ == "__main__":
    sys.exit(main())
