"""Each student's path across the labs graded into one output folder.

Each lab's grades.json and journal are in its own folder (grader/classfolder.py); each run
also keeps its scores, and only those, in the class folder's weeks.json:
{lab: {"title", "max", "scores": {student: [score, verdict]}}}, a lab graded again replacing
its own entry. The page reads it to show every lab graded so far, in course order.
"""
from __future__ import annotations

import json
from pathlib import Path

from grader import classfolder
from grader.grades import Grades

KEPT = "weeks.json"


def record(out: Path, grades: Grades) -> dict:
    """Add this run's scores (its grades.json) to the folder's weeks.json and return every
    lab's, in course order. A file that does not read back starts afresh."""
    path = Path(out) / KEPT
    try:
        weeks = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        if not isinstance(weeks, dict):
            weeks = {}
    except ValueError:
        weeks = {}
    weeks[grades.lab] = {"title": grades.title, "max": grades.max,
                         "scores": {r.student: [r.score, str(r.verdict)]
                                    for r in grades.submissions}}
    weeks = dict(sorted(weeks.items(), key=lambda item: classfolder.order(item[0])))
    path.write_text(json.dumps(weeks, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    path.chmod(0o600)
    return weeks

