"""What a file with no harness code earns on each banked lab (issue 40).

    .venv/bin/python -m bench.oracle [--lab 5.1 ...]

For every lab with a grading bank (or those named), grades the class tests/grader/bank_class.py
builds (the lab's reference, the red team's oracle, the adaptive oracle and the leaker) with
`python -m grader grade --jobs 2` under a fresh secret seed, runs each file in the Gradescope
bundle too, and reports each oracle's score as a share of full marks on both paths, beside the
reference's. The aim is the issue's: under a fifth for both oracles, full marks for the
reference. The suite holds it on labs 5.1 and 15.2 (tests/grader/test_grader_oracle.py); this
measures it on every banked lab, which would cost the suite a class and a bundle per lab.
The class and both oracles are tools/oracle.py's, as the suite's.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
from pathlib import Path

from bench import _table
from grader import bank
from lab.check import manifest
from tools.oracle import TOO_MUCH, grade_class

ORACLES = ("oracle", "adaptive")


def measure(lab: manifest.Lab) -> dict:
    """One lab's class graded on both paths: each file's share of full marks."""
    with tempfile.TemporaryDirectory(prefix="bench-oracle-") as scratch, \
            contextlib.redirect_stdout(io.StringIO()):  # the bundle's runs say what they graded
        graded = grade_class(Path(scratch), lab)
    rows, results = graded["rows"], graded["results"]
    found = {"lab": lab.id, "max": rows["alice"]["max"], "public_share": bank.public_share(lab.id)}
    for name in ("alice", *ORACLES):
        bundle = sum(t["max_score"] for t in results[name]["tests"])
        found[name] = {"grader": round(rows[name]["score"] / rows[name]["max"], 4),
                       "gradescope": round(results[name]["score"] / bundle, 4)}
    found["met"] = all(found[o][path] < TOO_MUCH for o in ORACLES
                       for path in ("grader", "gradescope")) and \
        found["alice"]["grader"] == found["alice"]["gradescope"] == 1
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.oracle",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--lab", nargs="+", help="these labs (default: every banked lab)")
    args = parser.parse_args(argv)
    labs = [manifest.lab(i) for i in args.lab] if args.lab else \
        [lab for lab in manifest.labs(built_only=True) if bank.has_bank(lab.id)]
    measured = [measure(lab) for lab in labs]
    print(_table.table(
        ["lab", "full marks", "reference", "oracle (grade / bundle)",
         "adaptive (grade / bundle)", "under a fifth"],
        [[m["lab"], f"{m['max']:g}", f"{m['alice']['grader']:.0%}",
          f"{m['oracle']['grader']:.1%} / {m['oracle']['gradescope']:.1%}",
          f"{m['adaptive']['grader']:.1%} / {m['adaptive']['gradescope']:.1%}",
          "yes" if m["met"] else "NO"] for m in measured]))
    worst = max(max(m[o][p] for o in ORACLES for p in ("grader", "gradescope"))
                for m in measured)
    print(_table.save("oracle", {"labs": measured, "aim": TOO_MUCH, "worst": worst,
                                 "met": all(m["met"] for m in measured)}))
    return 0 if all(m["met"] for m in measured) else 1


if __name__ == "__main__":
    raise SystemExit(main())
