"""The words of a student release (grader/release/notes.py's record): the summary
`python -m grader release` prints, and RELEASE.md, which the release carries. Made here and
only here; nothing reads them back."""
from __future__ import annotations

from grader import words_refused
from grader.refusals import Refusal
from grader.release import notes
from grader.release.notes import Release


def summary(release: Release) -> str:
    """What `python -m grader release` prints once the release is written."""
    lines = [f"Wrote the student release through lab {release.through} to {release.out}: "
             f"{len(release.lessons)} lessons, labs {', '.join(release.labs) or 'none'}."]
    lines.append("It holds no solution source" + (
        f" except the references you chose: {', '.join(release.references)}." if
        release.references else "."))
    if release.cells:
        lessons = sorted({c.lesson for c in release.cells})
        lines.append(f"{len(release.cells)} notebook cells show what they printed on a reference "
                     f"it does not hold, or wait for a later lab, instead of running "
                     f"(in {', '.join(lessons)}); RELEASE.md lists them.")
    if release.earlier:
        lines.append(f"It updated the release through lab {release.earlier} that was there: "
                     f"{len(release.added)} files added, {len(release.updated)} updated, "
                     f"{len(release.removed)} removed; the work folder and every file no release "
                     "wrote were left alone.")
    if release.kept:
        lines.append("Changed there since the last release, replaced by the new version and "
                     "kept beside it: " + ", ".join(f"{path} (as {release.kept[path]})"
                                                   for path in sorted(release.kept)) + ".")
    if release.left:
        lines.append("Changed there, and left as they were (this release brings the same "
                     f"version): {', '.join(release.left)}.")
    lines += [unbuilt(lesson, why) for lesson, why in release.unbuilt]
    return "\n".join(lines)


def release_notes(release: Release) -> str:
    """RELEASE.md: what the release holds, leaves out, shows as recorded, and changed."""
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
    changed = notes.changed_labs(release)
    if changed:
        lines += ["## Labs whose tests changed", "",
                  "Since the release you had, these labs' tests check more, or check it "
                  "differently. If you passed one, check it again: your file may now fail a "
                  "test it passed, and the failure names the rule. Your file is never changed.",
                  ""]
        lines += [f"- Lab {lab_id}: `course check {lab_id}`" for lab_id in changed]
        lines.append("")
    told = notes.what_changed(release)
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
    lines += [unbuilt(lesson, why) for lesson, why in release.unbuilt]
    return "\n".join(lines).rstrip() + "\n"


def unbuilt(lesson: str, why: Refusal | str) -> str:
    said = words_refused.refused(why) if isinstance(why, Refusal) else why
    return f"{lesson}: its notebook could not be built ({said}), so the release holds no notebook for it."
