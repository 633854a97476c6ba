"""report.html: the instructor's view of a graded class, written beside grades.json.

    facts.py     what the page shows, counted from grades.json's data alone
    teaching.py  the lesson section that teaches a lab, and the wrong designs a failure matches
    weeks.py     each lab's scores kept in the output folder, for every student's path
    html.py      the page itself: plain HTML and CSS, no script, no network

It is written from the very data grades.json holds (read back from the file), so it shows what
the reports say and cannot grade a second way.
"""
from __future__ import annotations

import json
from pathlib import Path

from grader.page import facts, html, weeks

NAME = "report.html"


def write(out: Path, match=None) -> Path:
    """Write report.html into the grading run's folder `out` from its grades.json, with who on
    the roster has not submitted (`match`, grader/roster.py's Match) when there is one."""
    out = Path(out)
    grades = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    every_lab = weeks.record(out, grades)
    path = out / NAME
    path.write_text(html.page(facts.read(grades), out, match, every_lab), encoding="utf-8")
    return path
