"""Carrying a student's own file forward: a lab's starter made from their passing previous file.

The course says you write one file that grows; the kit's starter for lab N is the previous
lab's reference with lab N's changes and gaps. `course start N --mine` applies those same
changes to the student's own previous file instead, by a three-way merge (merge3, the merge
of the Bazaar project, maintained on its own): the base is the previous reference, one side
is the student's file, the other is the kit's starter. The base is rebuilt from the starter
and its changes.diff, which every copy of the course ships, so this works in a student
release that holds no solutions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import merge3

HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def previous_reference(starter: str, diff: str) -> str:
    """The file `diff` (a unified diff, as tools/make.py writes changes.diff) was made from,
    given the file it was made to: the lines the diff removed put back, the ones it added
    taken out, everything between hunks as it stands."""
    new = starter.splitlines(keepends=True)
    out: list[str] = []
    at = 0  # the next line of `new` not yet accounted for
    lines = diff.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        match = HUNK.match(lines[i])
        i += 1
        if not match:
            continue
        first, count = int(match.group(1)), int(match.group(2) or 1)
        start = first - 1 if count else first  # an empty side names the line before it
        out += new[at:start]
        at = start
        while i < len(lines) and not lines[i].startswith("@@"):
            kind, text = lines[i][:1], lines[i][1:]
            if kind == " ":
                out.append(text)
                at += 1
            elif kind == "-":
                out.append(text)
            elif kind == "+":
                at += 1
            i += 1
    return "".join(out + new[at:])


@dataclass
class Carried:
    text: str | None  # the merged starter, or None when the merge conflicted
    conflicts: list[tuple[int, int]]  # line ranges of the student's file (1-based, inclusive)


def carry(mine: str, base: str, starter: str) -> Carried:
    """The kit's changes from `base` to `starter`, applied to `mine`. Where the student changed
    a line that the kit changes too, nothing is guessed: the result names those lines."""
    merge = merge3.Merge3(base.splitlines(keepends=True), mine.splitlines(keepends=True),
                          starter.splitlines(keepends=True))
    conflicts = [(region[3] + 1, max(region[4], region[3] + 1))
                 for region in merge.merge_regions() if region[0] == "conflict"]
    if conflicts:
        return Carried(None, conflicts)
    return Carried("".join(merge.merge_lines()), [])
