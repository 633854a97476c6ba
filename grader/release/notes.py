"""What a release holds and did, in words: the Release record that building fills in, the
summary the command prints, and RELEASE.md, which the release carries."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lab.check import manifest

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
    notes: list[str] = field(default_factory=list)
    earlier: str = ""  # the last lab of the release this one updated, if any
    more: bool = False  # the kit has built labs after `through`: a later release brings them
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)  # replaced; unchanged since shipped
    kept: dict[str, str] = field(default_factory=dict)  # replaced; the changed copy's new name
    left: list[str] = field(default_factory=list)  # changed here; the release has no new version
    removed: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)  # keys of source/lab_changes.toml's entries
    seen: list[str] | None = None  # those the earlier release knew; None if it kept none

    def summary(self) -> str:
        lines = [f"Wrote the student release through lab {self.through} to {self.out}: "
                 f"{len(self.lessons)} lessons, labs {', '.join(self.labs) or 'none'}."]
        lines.append("It holds no solution source" + (
            f" except the references you chose: {', '.join(self.references)}." if
            self.references else "."))
        if self.cells:
            lessons = sorted({c.lesson for c in self.cells})
            lines.append(f"{len(self.cells)} notebook cells show what they printed on a reference "
                         f"it does not hold, or wait for a later lab, instead of running "
                         f"(in {', '.join(lessons)}); RELEASE.md lists them.")
        if self.earlier:
            lines.append(f"It updated the release through lab {self.earlier} that was there: "
                         f"{len(self.added)} files added, {len(self.updated)} updated, "
                         f"{len(self.removed)} removed; the work folder and every file no release "
                         "wrote were left alone.")
        if self.kept:
            lines.append("Changed there since the last release, replaced by the new version and "
                         "kept beside it: " + ", ".join(f"{path} (as {self.kept[path]})"
                                                       for path in sorted(self.kept)) + ".")
        if self.left:
            lines.append("Changed there, and left as they were (this release brings the same "
                         f"version): {', '.join(self.left)}.")
        lines += self.notes
        return "\n".join(lines)


def release_notes(release: Release) -> str:
    lines = ["# This release", "",
             f"Built from the course kit with `python -m grader release --through "
             f"{release.through}`: the lessons and labs up to lab {release.through}.", "",
             "## What it holds", "",
             f"- `lessons/`: {len(release.lessons)} lessons "
             f"({', '.join(release.lessons) or 'none'}), each with its notebook and lesson.toml.",
             f"- `starters/`: for labs {', '.join(release.labs) or 'none'}, each lab's starting "
             "harness.py, its tests, what changed since the lab before (`changes.diff`), and the "
             "reference's recorded observations (`expected.json`), which the checker compares "
             "your results with.",
             "- `lab/`: the fake world, the student's desk (`course`) and the local checker "
             "(`lab/lab_check.py`).",
             "- `start.py` and `pyproject.toml`, which set the course up; `README.md`.", "",
             "## What it leaves out", "",
             "- `solutions/` and `source/`: the finished reference harness of every lab and the "
             "single source it is made from"
             + (f", except the references of {', '.join(release.references)}, included on "
                "purpose." if release.references else "."),
             f"- Every lab after {release.through}"
             + (f" (in the lessons here: {', '.join(release.later)})" if release.later else "")
             + ". Each lab's starter is the answer to the lab before it with new gaps, so the "
             "next lab comes with the next release.",
             "- The instructor's grader, the kit's own tests and its authoring tools.", ""]
    lines += ["## Lesson cells shown as recorded", ""]
    if not release.cells:
        lines += ["None: every cell runs on the fakes, on your own file, or on a reference "
                  "this release includes.", ""]
    else:
        lines += ["These cells run against a finished reference solution that this release "
                  "does not include, or use what such a cell made, or work on a lab of a later "
                  "release. In this copy each one's code is kept as comments under a call that, "
                  "run, prints what the cell printed on the reference when the course was made, "
                  "under a line saying so (its output here is that text already); once your own "
                  "files of the labs it needs pass their tests, it runs on them instead and says "
                  "so. A cell for a later lab says in one line that the lab comes later. Every "
                  "other cell runs.", ""]
        for lesson in dict.fromkeys(c.lesson for c in release.cells):
            lines += [f"### {lesson}", "", "| cell | needs the reference of | why | starts with |",
                      "| --- | --- | --- | --- |"]
            for c in release.cells:
                if c.lesson != lesson:
                    continue
                if c.later:
                    why = f"it works on lab {', '.join(c.later)}, which comes later"
                elif c.direct:
                    why = "it loads it"
                else:
                    why = "it uses what a cell above loaded from it"
                start = c.first_line.replace("|", "\\|")
                lines.append(f"| {c.number} | {', '.join(c.needs) or '-'} | {why} | `{start}` |")
            lines.append("")
    changed = changed_labs(release)
    if changed:
        lines += ["## Labs whose tests changed", "",
                  "Since the release you had, these labs' tests check more, or check it "
                  "differently. If you passed one, check it again: your file may now fail a "
                  "test it passed, and the failure names the rule. Your file is never changed.",
                  ""]
        lines += [f"- Lab {lab_id}: `course check {lab_id}`" for lab_id in changed]
        lines.append("")
    told = what_changed(release)
    if told:
        lines += ["## What changed in labs you may have passed", "",
                  "Since the release you had, in the labs it held, each with the day it "
                  "changed. Your file of a lab is never changed; `course check` on it says "
                  "whether it still passes.", ""]
        for lab_id in dict.fromkeys(c.lab for c in told):
            lines += [f"### Lab {lab_id}", ""]
            lines += [f"- {c.landed.isoformat()}: {c.words}" for c in told if c.lab == lab_id]
            lines.append("")
    if release.kept or release.left:
        lines += ["## Files you had changed", ""]
        lines += [f"- `{path}`: the new version is in its place; yours is `{release.kept[path]}`."
                  for path in sorted(release.kept)]
        lines += [f"- `{path}`: left as you changed it; this release brings the same version "
                  "as the last." for path in sorted(release.left)]
        lines.append("")
    lines += release.notes
    return "\n".join(lines).rstrip() + "\n"


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
