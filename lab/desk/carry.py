"""Carrying a student's own file forward: a lab's starter made from their passing previous file.

The course says you write one file that grows; the kit's starter for lab N is the previous
lab's reference with lab N's changes and gaps. `course start N --mine` applies those same
changes to the student's own previous file instead, by a three-way merge (merge3, the merge
of the Bazaar project, maintained on its own), done definition by definition
(lab/desk/definitions.py), whose base is the file the student began from:
the previous lab's starter, gaps and header as they met them. The kit's side is this lab's
starter with those gaps left open again (`reopened`), so the only changes it brings are this
lab's, and a student's own code in a gap, their comments and their names are theirs to keep.
The previous reference is rebuilt from the starter and its changes.diff, which every copy of
the course ships, so this works in a student release that holds no solutions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import merge3

from lab.check import manifest
from lab.desk import definitions

OPEN, CLOSE = manifest.GAP_OPEN, manifest.GAP_CLOSE
HEADER_LINES = 5  # where a starter's first line is looked for in a student's file
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
    line, the header naming the lab and its level, it still has among its first lines (a
    student may put their name above it); the first when it has none of them."""
    top = mine.split("\n", HEADER_LINES)[:HEADER_LINES]
    return next((text for text in candidates if text.split("\n", 1)[0] in top), candidates[0])


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
        else:  # both changed it: this lab's side, the region's last two numbers
            out += merge.b[region[-2]:region[-1]]
    return out


@dataclass
class Carried:
    text: str | None  # the merged starter, or None when the merge conflicted
    conflicts: list[tuple[int, int]]  # line ranges of the student's file (1-based, inclusive)
    names: list[str] = field(default_factory=list)  # the definitions those lines are in


def carry(mine: str, began: str, reference: str, starter: str) -> Carried:
    """This lab's changes (from the previous `reference` to `starter`) applied to `mine`, the
    student's file that `began` as the previous lab's starter, less the notes of gaps it has
    filled. The merge goes definition by definition (lab/desk/definitions.py): a definition
    only one side changed is that side's, what the student added (a header, comments, helpers,
    imports) stays where they put it, and only a definition both changed is merged line by
    line. Where both changed the same lines of one, nothing is guessed: the result names the
    definition and those lines."""
    notes = gap_notes(began)
    base, _ = _without(began, notes)
    own, at = _without(mine, notes)
    kit = reopened(starter.splitlines(keepends=True), base, reference)
    base_parts, own_parts, kit_parts = (definitions.split("".join(x)) for x in (base, own, kit))
    if base_parts is not None and own_parts is not None and kit_parts is not None:
        return _by_definitions(base_parts, own_parts, kit_parts, at, len(mine.splitlines()))
    merge = merge3.Merge3(base, own, kit)  # a file whose tokens cannot be read: line by line
    conflicts = []
    for region in merge.merge_regions():
        if region[0] == "conflict":
            conflicts.append(_span(at, region[3], region[4], len(mine.splitlines())))
    if conflicts:
        return Carried(None, conflicts)
    return Carried("".join(merge.merge_lines()), [])


def _span(at: list[int], first: int, end: int, length: int) -> tuple[int, int]:
    """Lines `first` to `end` (exclusive, from 0) of the student's file less its gap notes, as
    a range of their file's own line numbers (1-based, inclusive)."""
    line = at[first] + 1 if first < len(at) else length
    return line, at[end - 1] + 1 if end > first else line


def _lines(base: list[str], mine: list[str], kit: list[str]) -> list[str] | None:
    """The three-way merge of one definition's lines, or None where both sides changed the
    same lines."""
    if mine == base or mine == kit:
        return kit
    if kit == base:
        return mine
    merge = merge3.Merge3(base, mine, kit)
    if any(region[0] == "conflict" for region in merge.merge_regions()):
        return None
    return list(merge.merge_lines())


def _lead(base: list[str], mine: list[str], kit: list[str]) -> list[str]:
    """The comments above a definition: merged, or where both changed the same lines (a
    header the next lab renames, with the student's name put above it), the kit's lines with
    the student's own around them as they placed them. Comments run nothing, so no guess here
    can change what the file does."""
    merged = _lines(base, mine, kit)
    if merged is not None:
        return merged
    given = set(base)
    before = []
    for line in mine:
        if line in given:
            break
        before.append(line)
    after = [line for line in mine[len(before):] if line not in given]
    return before + kit + after


def _by_definitions(base, mine, kit, at: list[int], length: int) -> Carried:
    b, m, k = ({p.name: p for p in parts} for parts in (base, mine, kit))
    order = [p.name for p in mine]
    for i, part in enumerate(kit):  # what this lab adds, after what comes before it in its file
        if part.name in m or part.name in b:
            continue
        earlier = [p.name for p in kit[:i] if p.name in order]
        order.insert(order.index(earlier[-1]) + 1 if earlier else 0, part.name)
    out: list[str] = []
    conflicts, names = [], []

    def clash(name: str) -> None:
        part = m[name]
        first = part.first + len(part.lead)
        conflicts.append(_span(at, first, first + len(part.body), length))
        names.append(name)

    for name in order:
        if name not in m:  # this lab's own new definition
            out += k[name].lines
        elif name not in b and name not in k:  # the student's own: a helper, an import
            out += m[name].lines
        elif name not in b:  # both added one of this name
            if m[name].body != k[name].body:
                clash(name)
            out += _lead([], m[name].lead, k[name].lead) + m[name].body
        elif name not in k:  # this lab takes it out
            if m[name].body != b[name].body:
                clash(name)
        else:
            body = _lines(b[name].body, m[name].body, k[name].body)
            if body is None:
                clash(name)
                continue
            out += _lead(b[name].lead, m[name].lead, k[name].lead) + body
    for name, part in b.items():  # the student took it out: fine, unless this lab changes it
        if name not in m and name in k and k[name].body != part.body:
            names.append(name)
            conflicts.append((1, 1))
    if conflicts:
        return Carried(None, conflicts, names)
    return Carried("".join(out), [])
