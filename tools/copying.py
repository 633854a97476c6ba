"""`python -m tools.copying`: how much of each lab the page hands over (issue 39), printed,
listed line by line (`--lines LAB`), set beside the readers' own classes (`--readers`) and
written into source/copying.md (`--write`). The measure is tools/copying_measure.py, the
readers' lines tools/copying_readers.py, the table tools/copying_table.py."""
from __future__ import annotations

import argparse
import json
import sys

from lab.check import manifest
from tools import copying_readers, copying_table
from tools.copying_measure import NOTES, READERS, measure, parsed_source, spearman


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.copying", description=__doc__.split(
        "\n")[0])
    parser.add_argument("--lines", nargs="*", metavar="LAB", default=[],
                        help="list these labs' answer lines and where each was shown")
    parser.add_argument("--readers", action="store_true",
                        help="set each answer line's shown beside its reader's class "
                             "(source/copying-lines.md), on the kit each reader read")
    parser.add_argument("--agreement-at", metavar="KIT", help=argparse.SUPPRESS)
    parser.add_argument("--write", action="store_true", help="write the table to " + str(NOTES))
    args = parser.parse_args(argv)
    if args.agreement_at:  # the child of agreements_at, in the unpacked kit
        print(json.dumps(copying_readers.agreements_here(args.agreement_at)))
        return 0
    tree = parsed_source()
    figures = [measure(lab.id, tree) for lab in manifest.labs(built_only=True)]
    print(copying_table.table(figures))
    known = [f for f in figures if f.lab in READERS]
    rho = spearman([float(f.share) for f in known], [READERS[f.lab] for f in known])
    print(f"\nSpearman's rank correlation with the readers over {len(known)} labs: {rho:.2f}")
    if args.readers:
        print(f"\n{copying_readers.readers_agreement()}")
    for f in figures:
        if f.lab in args.lines:
            print(f"\n{f.words()}\n{f.details()}")
    if args.write:
        copying_table.write(figures)
        print(f"\nwrote the table to {NOTES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
