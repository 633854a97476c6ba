"""What changed in a lab, in words for a student who passed it under an earlier release.

The words live in one place, source/lab_changes.toml: one `[[change]]` per lab and day it
landed, each saying what a student must know (a rule stated anew, a test added, a starter
changed). A release records the keys of the entries it knew in its STATE; the release that
updates it tells, in RELEASE.md, each entry it did not know, for each lab the student could
have passed (one of the earlier release's labs) whose files this update replaced. So a lab the
update did not touch gets no words, and an entry is told once, by the first update after it.
"""
from __future__ import annotations

import datetime
import tomllib
from dataclasses import dataclass

from lab.check import manifest

from grader.errors import ReleaseError
from grader.refusals import BadChange, ChangeTwice

FILE = "lab_changes.toml"  # under source/


@dataclass(frozen=True)
class Change:
    lab: str
    landed: datetime.date
    words: str

    @property
    def key(self) -> str:
        return f"{self.lab} {self.landed.isoformat()}"


def recorded() -> list[Change]:
    """Every entry of source/lab_changes.toml, in course order and then by the day each landed;
    [] where the kit has no such file (a student release has no source/)."""
    path = manifest.SOURCE / FILE
    if not path.is_file():
        return []
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    found = []
    for entry in data.get("change", []):
        lab, landed, words = entry.get("lab"), entry.get("landed"), entry.get("words")
        if not (isinstance(lab, str) and isinstance(landed, datetime.date)
                and isinstance(words, str) and words.strip()):
            raise ReleaseError(BadChange(path, entry))
        manifest.lab(lab)  # an unknown lab is the author's slip: say so here
        found.append(Change(lab, landed, " ".join(words.split())))
    keys = [c.key for c in found]
    doubled = sorted({k for k in keys if keys.count(k) > 1})
    if doubled:
        raise ReleaseError(ChangeTwice(path, tuple(doubled)))
    return sorted(found, key=lambda c: (manifest.key(c.lab), c.landed))


def lab_files(lab_id: str) -> tuple[str, str]:
    """The prefixes, in a release, of the files that belong to a lab: its starter folder and
    its lesson's folder (the lesson's notebook is where its Build section states the rules)."""
    lab = manifest.lab(lab_id)
    return f"starters/{lab.folder}/", f"lessons/{lab.lesson.folder.name}/"


def to_tell(seen: list[str] | None, passed: list[str], replaced: set[str]) -> list[Change]:
    """The entries an update tells: not among the keys the earlier release knew (`seen`; None
    for a release made before releases kept them, which is told every entry), of a lab among
    `passed` (the earlier release's labs), whose files the update `replaced`."""
    known = set(seen or ())
    return [c for c in recorded()
            if c.key not in known and c.lab in passed
            and any(path.startswith(lab_files(c.lab)) for path in replaced)]
