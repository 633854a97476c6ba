"""What a release holds and did, as a record: the Release that building fills in, and the labs
an update tells its students about. Its words (the summary the command prints and RELEASE.md,
which the release carries) are grader/words_release.py's, made from this record."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lab.check import manifest

from grader.refusals import Refusal
from grader.release import changes
from grader.release.leaks import Cell


@dataclass
class Release:
    out: Path
    through: str = ""  # the release's last lab
    lessons: list[str] = field(default_factory=list)
    labs: list[str] = field(default_factory=list)
    later: list[str] = field(default_factory=list)  # labs of its lessons that come later
    references: list[str] = field(default_factory=list)  # labs shipped with --with-reference
    cells: list[Cell] = field(default_factory=list)  # cells shown as recorded, not run
    # lessons whose notebook could not be built: (its folder, the refusal, or the system's
    # own error text)
    unbuilt: list[tuple[str, Refusal | str]] = field(default_factory=list)
    earlier: str = ""  # the last lab of the release this one updated, if any
    more: bool = False  # the kit has built labs after `through`: a later release brings them
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)  # replaced; unchanged since shipped
    kept: dict[str, str] = field(default_factory=dict)  # replaced; the changed copy's new name
    left: list[str] = field(default_factory=list)  # changed here; the release has no new version
    removed: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)  # keys of source/lab_changes.toml's entries
    seen: list[str] | None = None  # those the earlier release knew; None if it kept none


def what_changed(release: Release) -> list[changes.Change]:
    """The entries of source/lab_changes.toml an update tells its students: those the earlier
    release did not know, of the labs it held, whose files this update replaced."""
    if not release.earlier:
        return []
    passed = [lab_id for lab_id in release.labs
              if manifest.key(lab_id) <= manifest.key(release.earlier)]
    return changes.to_tell(release.seen, passed, set(release.updated) | set(release.kept))


def changed_labs(release: Release) -> list[str]:
    """The labs of an updated release whose tests or recorded observations this release
    replaced: a student who passed one under the release before is told to check it again."""
    replaced = set(release.updated) | set(release.kept)
    return [lab_id for lab_id in release.labs
            if any(f"starters/{manifest.lab(lab_id).folder}/{name}" in replaced
                   for name in ("tests.py", "expected.json"))]
