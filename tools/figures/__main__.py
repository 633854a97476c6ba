"""python -m tools.figures: write the lessons' figures, check them, or render them to look at."""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import tools.figures
from tools import generated
from tools.figures import registry


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.figures",
                                     description=tools.figures.__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--png", metavar="DIR", help="also render each figure to DIR/*.png with "
                        "rsvg-convert, to look at (authors only; needs librsvg2-bin)")
    args = parser.parse_args(argv)
    drawn = registry.files()
    if args.check:
        problems = generated.differences(drawn)
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    generated.write(drawn)
    if args.png:
        for where in drawn:
            out = Path(args.png) / (where.stem + ".png")
            subprocess.run(["rsvg-convert", "-o", str(out), str(where)], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
