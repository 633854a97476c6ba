"""Submissions more alike than the lab's starter explains: pairs, with the lines they share.

The comparison is copydetect's (a maintained implementation of MOSS's winnowing: each file is
tokenized, names and strings made alike, so a renamed variable or a reworded message changes
nothing, and fingerprinted). The lab's starters, standard and guided, are its boilerplate:
their fingerprints are taken out of every file first, so what two files share counts only
where both wrote it themselves. A file that wrote fewer than MIN_OWN tokens of its own (the
starter handed in, an empty file) is not compared: there is nothing of its own to share.

A pair is listed when the code they share is at least SHARE of either file's own code. Two
students who each filled the gaps their own way share little (the gaps are a lab's only new
code), while a copy with a name changed shares all of it. Being listed is a reason to look,
not a verdict: the instructor reads the shared lines, which are listed with each pair.
"""
from __future__ import annotations

import io
import json
from bisect import bisect_left
from dataclasses import asdict, dataclass
from pathlib import Path

from lab.check import manifest

from grader import words_class as said

KEPT = "similar.json"  # in the lab's folder: every pair, for the page
SHARE = 0.5  # of a file's own code, shared with another file, that lists the pair
MIN_OWN = 60  # tokens of a file's own code below which it is not compared
NOISE = 25  # copydetect's default: no match shorter than 25 tokens counts
# Every k-gram is kept (a window of one): copydetect hashes with Python's hash(), salted anew in
# each process, so a wider window would choose different fingerprints on every run, and the
# same class would list different shares; with every one kept the result is the same each time.
WINDOW = 1
FIRST_LOOK = SHARE / 2  # of the fingerprints shared, below which a pair is not compared
SHOWN_LINES = 12  # of shared code, per pair, in the terminal and on the page


@dataclass
class Pair:
    """Two submissions and what they share: each one's share of its own code, and the line
    ranges (first, last; from 1) of the shared code in each, with the text of the first's."""
    first: str
    second: str
    shares: tuple[float, float]
    lines: tuple[list[tuple[int, int]], list[tuple[int, int]]]
    text: str  # the shared lines of `first`, in order, each as "NN  code"

    def shown(self, most: int = SHOWN_LINES) -> list[str]:
        """The shared lines, at most `most` of them, and a last line saying how many more."""
        lines = self.text.splitlines()
        if len(lines) <= most:
            return lines
        return lines[:most] + [said.more_shared(len(lines) - most)]

    def ranges(self, which: int) -> str:
        return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in self.lines[which])


def find(texts: dict[str, str], lab_id: str) -> list[Pair]:
    """The pairs of `texts` ({student: their file's text}) whose shared code, with the lab's
    starters left out, is at least SHARE of either's own; the most alike first."""
    from copydetect import CodeFingerprint, compare_files  # numpy and matplotlib: when needed
    lab = manifest.lab(lab_id)
    boilerplate = set()
    for starter in (lab.starter, lab.guided):
        if starter.is_file():
            boilerplate |= set(_print(CodeFingerprint, starter.read_text(encoding="utf-8")).hashes)
    prints = {}
    for student, text in sorted(texts.items()):
        fingerprint = _print(CodeFingerprint, text, list(boilerplate))
        if fingerprint.token_coverage >= MIN_OWN:
            prints[student] = fingerprint
    pairs = []
    newlines: dict[str, list[int]] = {}  # where each text's lines end, found once
    names = sorted(prints)
    hashes = {name: set(prints[name].hashes) for name in names}
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            # A pair sharing few fingerprints cannot share SHARE of its code: skipped before
            # copydetect's comparison, which costs a hundred times more.
            common = len(hashes[first] & hashes[second])
            if common < FIRST_LOOK * min(len(hashes[first]), len(hashes[second])):
                continue
            overlap, shares, slices = compare_files(prints[first], prints[second])
            shares = (float(shares[0]), float(shares[1]))
            if overlap and max(shares) >= SHARE:
                pairs.append(_pair(first, second, shares, slices, texts, newlines))
    return sorted(pairs, key=lambda p: (-max(p.shares), p.first, p.second))


def _print(fingerprint, text: str, boilerplate=None):
    return fingerprint("harness.py", NOISE, WINDOW, boilerplate=boilerplate,
                       fp=io.StringIO(text))


def _pair(first: str, second: str, shares, slices, texts: dict[str, str],
          newlines: dict[str, list[int]]) -> Pair:
    for name in (first, second):
        if name not in newlines:
            newlines[name] = [at for at, c in enumerate(texts[name]) if c == "\n"]
    lines = (_line_ranges(newlines[first], slices[0]), _line_ranges(newlines[second], slices[1]))
    own = texts[first].splitlines()
    text = "\n".join(f"{n:>4}  {own[n - 1]}" for a, b in lines[0] for n in range(a, b + 1))
    return Pair(first, second, (round(shares[0], 3), round(shares[1], 3)), lines, text)


def _line_ranges(newlines: list[int], slices) -> list[tuple[int, int]]:
    """The (first, last) line of each of copydetect's character slices, joined where they
    touch; `newlines` holds where the text's line ends are, in order, so a character's line is
    found by bisection (a class of alike files lists thousands of pairs, each with dozens of
    slices: counting line ends from the start for each cost seconds)."""
    ranges: list[tuple[int, int]] = []
    for start, end in zip(*slices):
        a = bisect_left(newlines, int(start)) + 1
        b = bisect_left(newlines, max(int(start), int(end) - 1)) + 1
        if ranges and a <= ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], max(b, ranges[-1][1]))
        else:
            ranges.append((a, b))
    return ranges


def write(out: Path, pairs: list[Pair]) -> Path:
    """Keep the pairs in the lab's folder `out`, for its page; readable by its owner alone."""
    path = Path(out) / KEPT
    path.write_text(json.dumps([asdict(p) for p in pairs], indent=1, ensure_ascii=False)
                    + "\n", encoding="utf-8", errors="backslashreplace")
    path.chmod(0o600)
    return path


def read(out: Path) -> list[Pair]:
    """The pairs a run kept in the lab's folder `out`; none when it kept none."""
    path = Path(out) / KEPT
    if not path.is_file():
        return []
    def side(ranges: list) -> list[tuple[int, int]]:
        return [(first, last) for first, last in ranges]
    return [Pair(p["first"], p["second"], (p["shares"][0], p["shares"][1]),
                 (side(p["lines"][0]), side(p["lines"][1])), p["text"])
            for p in json.loads(path.read_text(encoding="utf-8"))]


def summary(pairs: list[Pair]) -> list[str]:
    """The terminal's lines: each pair, its shares, where, and the shared lines."""
    if not pairs:
        return []
    lines = ["", said.alike(len(pairs))]
    for p in pairs:
        lines.append(said.pair(p.first, p.second, p.shares, p.ranges(0), p.ranges(1)))
        lines += [f"      {line}" for line in p.shown()]  # the students' own lines
    return lines
