"""The student release: the folder students get, built from the kit, with no solution source.

It holds the lessons (notebooks and their lesson.toml), the starters (each lab's starter, its
tests and the reference's recorded observations, which the checker compares with), the lab/
package (the fake world, the local checker, the desk), start.py and pyproject.toml to set it up
(a student's: they name its own last lab and install only lab/), a README for students and
RELEASE.md. It never holds solutions/ or source/, the grader, the kit's own tests or its
authoring tools; an instructor may add chosen labs' references with `--with-reference`.

A release goes up to one lab (`--through 5.1`): the lessons up to that lab's lesson and the labs
up to that lab, nothing after. It has to stop there, because each lab's starter is the previous
lab's reference with new gaps: the 6.1 starter holds 5.1's answer, so a release that held it
would give 5.1 away. Within that rule no file of a release gives away its last lab's answer: that
lab's starter and changes.diff lead back only to the lab before it, its expected.json holds
observed values, and the notebooks show what the references printed, never their code. Later
releases go into the same folder (see install): they add what is new and leave the student's work
folder, and everything else the release did not write, alone.

A lesson cell that loads a reference the release lacks (`course.reference("5.1")`), uses what
such a cell made, or works on a lab of a later release cannot run there. The release's copy of
the notebook replaces its code with a call to lab.desk.recorded.replay(), which prints what the
cell printed on the reference when the course was made (the lesson's pins, outputs.json), under
a line saying so; the code stays under the call as comments, and the same text is the cell's
output in the notebook as shipped. The kit's own notebooks keep no outputs. RELEASE.md lists those
cells, lesson by lesson.

This module is the face (build, and the names other code uses); the parts, each one job:

    contents.py  choosing what goes in, and writing it into a staging folder
    setup_files.py  start.py and pyproject.toml, made a student's: its own last lab, its packages
    leaks.py     what would lead to an answer: solution text, cells that need a reference
    replayed.py  lesson cells shown as recorded: their code as comments, their output recorded
    carry.py     writing into the folder, carrying forward files the student changed
    notes.py     what the release holds and did, in words: the summary and RELEASE.md
    changes.py   what changed in a lab since an earlier release, in words (source/lab_changes.toml)
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from lab.check import manifest

from grader import words_release
from grader.errors import ReleaseError
from grader.release import carry, changes, contents
from grader.release.carry import STATE, install
from grader.release.leaks import Cell, needing_reference, solution_leaks
from grader.release.notes import Release

__all__ = ["STATE", "Cell", "Release", "ReleaseError", "build", "install", "needing_reference",
           "solution_leaks"]


def build(out: Path, *, through: str | None = None, with_reference=()) -> Release:
    """Build the release of the labs up to `through` (default: every lab) in `out`, which must
    not exist, be empty, or hold an earlier release of a lab no later than `through`."""
    out = Path(out)
    last = contents.last_lab(through)
    chosen = contents.references(with_reference, last)
    earlier = carry.earlier(out, last.id)
    release = Release(out, through=last.id, references=[lab.id for lab in chosen],
                      earlier=earlier.get("through", ""),
                      more=last != manifest.labs(built_only=True)[-1],
                      known=[c.key for c in changes.recorded()], seen=earlier.get("changes"))
    lessons, labs, release.later = contents.released(last)
    before = earlier.get("files", {})
    with tempfile.TemporaryDirectory(prefix="course-release-") as scratch:
        stage = Path(scratch)
        contents.stage(stage, release, lessons, labs, chosen)
        leaks = solution_leaks(stage, allowed=[lab.solution for lab in chosen])
        if leaks:  # a guard, not a filter: the copy above must never pick one up
            raise RuntimeError("The release would hold solution source, so nothing was "
                               "written: " + ", ".join(leaks))
        files = install(out, stage, sorted(p for p in stage.rglob("*") if p.is_file()), before,
                        release)
        # Written last, since it lists what installing found.
        (stage / "RELEASE.md").write_text(words_release.release_notes(release),
                                          encoding="utf-8")
        files.update(install(out, stage, [stage / "RELEASE.md"], before, release))
    carry.remove_unshipped(out, before, files, release)  # shipped before and not now
    carry.write_state(out, release, files)
    return release
