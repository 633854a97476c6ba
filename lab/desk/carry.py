"""Carrying a student's own file forward: a lab's starter made from their passing previous file.

The course says you write one file that grows; the kit's starter for lab N is the previous
lab's reference with lab N's changes and gaps. `course start N --mine` applies those same
changes to the student's own previous file instead, by a three-way merge (merge3, the merge
of the Bazaar project, maintained on its own) whose base is the file the student began from:
the previous lab's starter, gaps and header as they met them. The kit's side is this lab's
starter with those gaps left open again (`reopened`), so the only changes it brings are this
lab's, and a student's own code in a gap, their comments and their names are theirs to keep.
The previous reference is rebuilt from the starter and its changes.diff, which every copy of
the course ships, so this works in a student release that holds no solutions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import merge3

OPEN, CLOSE = "# --- your code ---", "# --- end ---"  # as tools/labsource.py writes gaps
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


def started_from(mine: str, candidates: list[str]) -> str:
    """Which of the files a student may have begun the previous lab from (its standard
    starter first, then the guided one, then its reference) `mine` began as: the one whose
    first line, the header naming the lab and its level, it still has; the first when it has
    none of them."""
    first = mine.split("\n", 1)[0]
    return next((text for text in candidates if text.split("\n", 1)[0] == first), candidates[0])


def gap_notes(began: str) -> set[str]:
    """The lines of a starter that tell a student how to fill its gaps: each gap's opening
    comments and its closing line. Once the lab passes they have been followed, and the
    next starter holds only its own, so the student is not asked twice."""
    lines = began.splitlines(keepends=True)
    notes = {line for line in lines if line.strip() == CLOSE}
    for i, line in enumerate(lines):
        if line.lstrip().startswith(OPEN):  # the comments below it, up to its first code line
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("#"):
                notes.add(lines[j])
                j += 1
    return notes


def _without(text: str, notes: set[str]) -> tuple[list[str], list[int]]:
    """The lines of `text` less `notes`, and for each line kept, its index in `text`."""
    kept = [(i, line) for i, line in enumerate(text.splitlines(keepends=True))
            if line not in notes]
    return [line for _, line in kept], [i for i, _ in kept]


def reopened(starter: list[str], began: list[str], reference: str) -> list[str]:
    """`starter` (this lab's, made from the previous `reference`) with the previous lab's gaps
    open again as `began` (the previous starter) had them. Where this lab changes a line the
    previous lab's gap filled, its own version stands: that is a change the student must see."""
    merge = merge3.Merge3(reference.splitlines(keepends=True), began, starter)
    out: list[str] = []
    for region in merge.merge_regions():
        kind = region[0]
        if kind == "unchanged":
            out += merge.base[region[1]:region[2]]
        elif kind in ("same", "a"):
            out += merge.a[region[1]:region[2]]
        elif kind == "b":
            out += merge.b[region[1]:region[2]]
        else:  # both changed it: this lab's side
            out += merge.b[region[5]:region[6]]
    return out


@dataclass
class Carried:
    text: str | None  # the merged starter, or None when the merge conflicted
    conflicts: list[tuple[int, int]]  # line ranges of the student's file (1-based, inclusive)


def carry(mine: str, began: str, reference: str, starter: str) -> Carried:
    """This lab's changes (from the previous `reference` to `starter`) applied to `mine`, the
    student's file that `began` as the previous lab's starter, less the notes of gaps it has
    filled. Where the student changed a line that this lab changes too, nothing is guessed:
    the result names those lines."""
    notes = gap_notes(began)
    base, _ = _without(began, notes)
    own, at = _without(mine, notes)
    merge = merge3.Merge3(base, own, reopened(starter.splitlines(keepends=True), base,
                                              reference))
    conflicts = []
    for region in merge.merge_regions():
        if region[0] == "conflict":
            first, end = region[3], region[4]
            line = at[first] + 1 if first < len(at) else len(mine.splitlines())
            conflicts.append((line, at[end - 1] + 1 if end > first else line))
    if conflicts:
        return Carried(None, conflicts)
    return Carried("".join(merge.merge_lines()), [])
