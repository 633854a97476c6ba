"""Finding a class's submissions in a folder, each under a name of its own: `NAME.py`, or a
folder `NAME/` holding a harness.py (at its top, or the only one below it); NAME, made a safe
file name that no other submission shares (ignoring case and Unicode's spellings of a letter),
is the student. A file is never read past LARGEST_MB, a link never followed, and no walk
recurses, so no name, size or depth a student chooses can end the batch (grader/batch.py).
"""
from __future__ import annotations

import hashlib
import os
import unicodedata
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from grader import words_class as said
from grader.report import safe_name

SKIPPED_NAMES = {"__pycache__", "__MACOSX"}


class Unfound(StrEnum):
    """Why a place holds no harness.py to grade: data, so each front door words it its own way."""
    LINK = "link"  # a symbolic link, which the grader does not follow
    NONE = "none"  # a folder with no harness.py in it
    SEVERAL = "several"  # a folder with more than one, and nothing to say which is meant
    TOO_LARGE = "too large"  # larger than LARGEST_MB: never read


@dataclass
class Submission:
    student: str
    path: str | None  # the harness.py to grade; None when there is none to grade
    shown: str  # where it was found, relative to the submissions folder
    problem: str | None = None  # why it cannot be graded, in words_class's words (for its row)
    unfound: Unfound | None = None  # the same reason as data
    candidates: list[str] = field(default_factory=list)  # for SEVERAL: each, inside the folder
    took: str = ""  # why this file was graded, where the place alone does not say it

    def digest(self) -> str:
        """The hash of what is graded, read as the batch reads it: never more than LARGEST_MB and
        a byte, whatever the file has become since it was found."""
        data = head(self.path) if self.path else (self.problem or "").encode()
        return hashlib.sha256(data).hexdigest()


LARGEST_MB = 1  # a harness.py is tens of kilobytes; anything past this is not read at all
LONGEST_NAME = 200  # bytes of a student's name in UTF-8: with "~N.md" it stays a legal file name


def find(folder: Path) -> tuple[list[Submission], list[str]]:
    """(submissions sorted by student, each entry that is not a submission as its name and
    why: "notes.txt (neither a .py file nor a folder)"). Every entry is one or the other, so
    no file is left ungraded without a word (a .hidden.py included).

    Each student's name is the entry's name made a safe, unique file name (see `name_for`),
    so that no two submissions share a row or a report, whatever their names."""
    folder = Path(folder)
    found, ignored = [], []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        shown = printable(entry.name)
        if entry.name in SKIPPED_NAMES:
            ignored.append(said.made_folder(shown))
            continue
        if entry.name.startswith("."):
            ignored.append(said.hidden(shown))
            continue
        if entry.is_symlink():
            sub = Submission(_stem(shown), None, shown, said.link(shown), Unfound.LINK)
        elif entry.is_file() and entry.suffix == ".py":
            sub = sized(Submission(_stem(shown), str(entry), shown))
        elif entry.is_dir():
            sub = in_folder(entry)
        else:
            ignored.append(said.neither(shown))
            continue
        found.append(sub)
    _name_all(found)
    return sorted(found, key=lambda s: s.student), ignored


def _stem(name: str) -> str:
    return name[:-3] if name.endswith(".py") else name


def printable(name: str) -> str:
    """A file name as a report can show it: bytes that are not UTF-8 as \\xNN, and characters
    that cannot be printed (a line end in a name) escaped, so every report can be written."""
    text = os.fsencode(name).decode("utf-8", "backslashreplace")
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def name_for(shown: str) -> str:
    """The name a student's row and reports go under, before it is made unique: the file name
    report.safe_name makes of it, cut to at most LONGEST_NAME bytes."""
    name = safe_name(shown)
    while len(name.encode()) > LONGEST_NAME:
        name = name[:-1].rstrip(".")
    return name


def _name_all(subs: list[Submission]) -> None:
    """Give each submission a name no other shares, even where names are compared ignoring
    case and Unicode's spellings of one letter (as a Mac or Windows disk compares them): a
    name already safe keeps it first; the rest, in order, get NAME, else NAME~2, NAME~3..."""
    taken: set[str] = set()
    wanted = [(name_for(s.student), s) for s in subs]
    for name, sub in [w for w in wanted if w[0] == w[1].student] + \
            [w for w in wanted if w[0] != w[1].student]:
        unique, n = name, 2
        while folded(unique) in taken:  # alice.py beside alice/: both graded, told apart
            unique, n = f"{name}~{n}", n + 1
        taken.add(folded(unique))
        sub.student = unique


def folded(name: str) -> str:
    """A name as a disk that ignores case and Unicode's spellings of a letter compares it."""
    return unicodedata.normalize("NFKC", name).casefold()


def in_folder(folder: Path) -> Submission:
    """The submission a folder holds, named for the folder: its harness.py at the top, else the
    only one below it (links and hidden folders are never followed). When there is none to
    grade, `unfound` says why and `problem` says it to an instructor's class."""
    name = printable(folder.name)
    top = folder / "harness.py"
    if top.is_file() and not top.is_symlink():
        return sized(Submission(name, str(top), f"{name}/harness.py"))
    below = _harnesses(folder)
    if len(below) == 1:
        return sized(Submission(name, str(below[0]),
                                 f"{name}/{printable(below[0].relative_to(folder).as_posix())}"))
    if not below:
        return Submission(name, None, f"{name}/", said.no_harness(name), Unfound.NONE)
    candidates = [printable(p.relative_to(folder).as_posix()) for p in below]
    return Submission(name, None, f"{name}/", said.several(name, candidates), Unfound.SEVERAL,
                      candidates)


def python_files(folder: Path) -> list[Path]:
    """Every .py file below `folder`, walked as harness.py files are."""
    return _harnesses(folder, lambda name: name.endswith(".py"))


def _harnesses(folder: Path, wanted=lambda name: name == "harness.py") -> list[Path]:
    """Every harness.py file below `folder` (every file whose name `wanted` accepts), but
    none in or under a hidden or skipped folder, and no link. Walked with a list of its own
    rather than os.walk or Path.rglob, which recurse on Python 3.11: a folder a thousand
    levels deep would end the batch."""
    found, waiting = [], [folder]
    while waiting:
        try:
            entries = list(os.scandir(waiting.pop()))
        except OSError:  # unreadable, or a path longer than the system allows: nothing there
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.name in SKIPPED_NAMES:
                continue
            if entry.is_dir(follow_symlinks=False):
                waiting.append(Path(entry.path))
            elif wanted(entry.name) and entry.is_file(follow_symlinks=False):
                found.append(Path(entry.path))
    return sorted(found)


def head(path: str) -> bytes:
    """The start of a file: all of it up to LARGEST_MB, one byte more if it is larger."""
    with open(path, "rb") as handle:
        return handle.read((LARGEST_MB << 20) + 1)


def sized(sub: Submission) -> Submission:
    """`sub` as found, or, if its file is larger than LARGEST_MB, one that is not graded."""
    if sub.path is None:  # nothing to grade: its row says why
        return sub
    size = os.stat(sub.path).st_size
    return sub if size <= LARGEST_MB << 20 else too_large(sub, size)


def too_large(sub: Submission, size: int) -> Submission:
    """`sub` not graded for its size, which its problem says: nothing of it is read."""
    return Submission(sub.student, None, sub.shown,
                      said.too_large(LARGEST_MB, sub.shown, size / (1 << 20)), Unfound.TOO_LARGE)
