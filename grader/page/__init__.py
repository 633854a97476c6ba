"""report.html: the instructor's view of a graded lab, written beside its grades.json; and the
class folder's own report.html, which links every lab's.

    facts.py     what the page shows, counted from grades.json's data alone
    teaching.py  the lesson section that teaches a lab, and the wrong designs a failure matches
    weeks.py     each lab's scores kept in the output folder, for every student's path
    html.py      the page itself: plain HTML and CSS, no script, no network

It is written from the very data grades.json holds (read back from the file), so it shows what
the reports say and cannot grade a second way.
"""
from __future__ import annotations

from pathlib import Path

from grader import similarity
from grader.grades import Grades
from grader.page import facts, html, teaching, weeks

NAME = "report.html"


def write(out: Path, match=None, class_folder: Path | None = None) -> Path:
    """Write report.html into the lab's folder `out` from its grades.json, with who on the
    roster has not submitted (`match`, grader/roster.py's Match) when there is one. In a class
    folder (grader/classfolder.py) the lab's scores join its weeks.json and its own
    report.html is rewritten: every lab graded there, each linked to its page, and each
    student's path across them."""
    out = Path(out)
    grades = Grades.read(out / "grades.json")
    path = out / NAME
    top = None if class_folder is None else Path(class_folder)
    if top is not None:
        every_lab = weeks.record(top, grades)
        (top / NAME).write_text(html.index(every_lab), encoding="utf-8")
    found = facts.read(grades)
    teaching.render([s for s in (teaching.section(r.lab) for r in found.most_failed()) if s],
                    out)
    path.write_text(html.page(found, out, match,
                              back=None if top is None else top / NAME,
                              pairs=similarity.read(out)), encoding="utf-8")
    return path
