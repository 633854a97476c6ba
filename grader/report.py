"""What a batch writes: grades.csv, tests.csv, grades.json, one feedback file per student, and
the summary printed at the end.

    grades.csv    one row per submission: student, score, max, verdict, then one column per
                  test holding its verdict (pass, fail, timeout, crash)
    tests.csv     one row per submission and test: the verdict, the points and the reason
    grades.json   the plan's sets and tests, what the sandbox holds, every row whole (but
                  for what is hidden, below)
    feedback/     STUDENT.md: what passed, what failed and why, in plain words
    instructor/   tests.csv as above with every reason in full, written only when there are
                  hidden tests: not for students

Each file but instructor/ may be given to students: it is written from each row's
for_students() view (grader/row.py), in which a hidden test shows only its sentence and its
verdict. (The journal, journal.jsonl, holds the rows whole too: it is not for students either.)
Everything is sorted by student and written the same way on every run, except the
seconds each submission took, which only grades.json holds.
"""
from __future__ import annotations

import csv
import json
import re
from collections import Counter
from pathlib import Path

from lab.check import manifest, seeds
from lab.check.verdict import Verdict
from lab.check.advice import collateral

from grader.plan import Plan
from grader.row import Entry, Overall, Row


def write(out: Path, plan: Plan, results: list[Row], isolation: dict,
          ignored: list[str] = ()) -> dict[str, Path]:
    """Write every report into `out` and return their paths by name ("instructor": the file
    not for students, when there is one)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    full = sorted(results, key=lambda r: r.student)
    rows = [r.for_students() for r in full]
    paths = {"grades.csv": out / "grades.csv", "tests.csv": out / "tests.csv",
             "grades.json": out / "grades.json", "feedback": out / "feedback"}
    ids = [t.id for t in plan.tests]
    with paths["grades.csv"].open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "score", "max", "verdict", *ids])
        for r in rows:
            verdicts = {t.id: t.verdict for t in r.tests}
            writer.writerow([r.student, _number(r.score), _number(r.max), r.verdict,
                             *(verdicts.get(i, "") for i in ids)])
    _tests_csv(paths["tests.csv"], rows)
    mine = out / "instructor" / "tests.csv"
    if any(t.hidden for t in plan.tests):
        mine.parent.mkdir(mode=0o700, exist_ok=True)
        _tests_csv(mine, full)
        paths["instructor"] = mine
    else:
        mine.unlink(missing_ok=True)  # an earlier run's, with hidden tests this one has not
    lab = manifest.lab(plan.lab)
    data = {"lab": plan.lab, "name": lab.name, "title": lab.title,
            "own_lab_only": plan.own_lab_only, "max": plan.max_score, "sets": plan.sets,
            "tests": [{"id": t.id, "says": t.says, "lab": t.lab, "set": t.set,
                       "points": t.points, "checks": t.checks, "hidden": t.hidden}
                      for t in plan.tests],
            "isolation": isolation, "ignored": list(ignored),
            "submissions": [r.to_dict() for r in rows]}
    paths["grades.json"].write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
    paths["feedback"].mkdir(exist_ok=True)
    for r in rows:
        (paths["feedback"] / f"{safe_name(r.student)}.md").write_text(
            feedback(plan, r), encoding="utf-8")
    return paths


def _tests_csv(path: Path, rows: list[Row]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "test", "says", "set", "verdict", "earned", "points",
                         "reason"])
        for r in rows:
            for t in r.tests:
                writer.writerow([r.student, t.id, t.says, t.set, t.verdict, _number(t.earned),
                                 _number(t.points), t.message])


def safe_name(student: str) -> str:
    """A file name for a student: their name with anything but letters, digits and . _ - @ ~
    replaced, so that no name can lead outside the feedback folder. Every name grader/batch.py
    gives a submission is one already, so it is its feedback file's name unchanged."""
    name = re.sub(r"[^\w.@~-]", "_", student).strip(".")
    return name or "_"


def _number(value: float) -> str:
    return f"{value:g}"


def feedback(plan: Plan, r: Row) -> str:
    """One student's feedback in Markdown: the score, then what failed and why, then what
    passed, in the course's words; of `r`, only what a student may read (Row.for_students)."""
    r = r.for_students()
    lab = manifest.lab(plan.lab)
    lines = [f"# {lab.name.capitalize()}: {lab.title}", "",
             f"Feedback for **{r.student}** on `{r.source}`.", "",
             f"**Score: {_number(r.score)} of {_number(r.max)} points** "
             f"({r.verdict.words}).", ""]
    if not r.problem:
        lines += [plan.sets_line()
                  + (" Every earlier lab's tests run too, because a later lab must not break "
                     "what an earlier one built." if any(t.lab not in (None, plan.lab)
                                                         for t in plan.tests) else ""), ""]
    if r.problem:
        lines += ["## Why nothing could be graded", "", r.problem, ""]
    elif r.import_error:
        lines += ["## Your harness.py did not import", "",
                  "No test could run, because Python stopped while loading the file:", "",
                  _block(r.import_error), "",
                  "Fix this first: run `python harness.py` in your lab folder to see the same "
                  "error, then check again with the local checker.", ""]
    failed = [t for t in r.tests if t.verdict is not Verdict.PASS]
    passed = [t for t in r.tests if t.verdict is Verdict.PASS]
    if failed and not r.problem and not r.import_error:
        lines += [f"## What did not pass ({len(failed)})", ""]
        said = None
        for t in failed:
            lines.append(f"- **{t.says}** ({_where(t)}; {_number(t.points)} "
                         f"point{'s' if t.points != 1 else ''}): {t.verdict.words}.")
            label = None if t.hidden else collateral(t.lab, plan.lab)
            if label:  # the local checker's words, so both send the student to their gaps
                lines.append(f"  Probably collateral: {label}.")
            if t.hidden:
                lines.append(f"  {t.message}")
            elif t.message == said:
                lines.append("  The same reason as the test above.")
            else:
                lines += ["", _block(t.message, indent="  ")]
                said = t.message
            lines.append("")
    if passed:
        lines += [f"## What passed ({len(passed)})", ""]
        lines += [f"- {t.says} ({_where(t)})" for t in passed]
        lines.append("")
    if r.notes:
        lines += ["## Notes", ""] + [f"- {note}" for note in r.notes] + [""]
    if not r.problem:
        lines += ["To see the same verdicts yourself, run the local checker from your lab "
                  f"folder: `python lab/lab_check.py --harness harness.py --lesson "
                  f"{lab.lesson.number} tests.py`"
                  + (" (tests marked hidden are your instructor's and not in your copy)."
                     if any(t.hidden for t in plan.tests) else "."), ""]
        if plan.seed != seeds.PUBLIC:
            lines += [seed_words(plan.seed, "that command"), ""]
    return "\n".join(lines)


def seed_words(seed: int, command: str) -> str:
    """What a student is told of a grading seed: which it was, and how to draw the same cases
    with the local checker (`command` names where to add `--seed N`)."""
    return (f"These tests drew their cases under seed {seed}; your copy's tests draw under "
            "another. To draw the same cases and see what your file found at each check, add "
            f"`--seed {seed}` to {command}.")


def _where(t: Entry) -> str:
    if t.hidden:
        return "a hidden test"
    return manifest.lab(t.lab).name if t.lab else t.set


def _block(text: str, indent: str = "") -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return "\n".join(indent + line for line in [fence, *text.splitlines(), fence])


def summary(plan: Plan, results: list[Row], isolation: dict, paths: dict | None = None,
            ignored: list[str] = ()) -> str:
    """The table printed at the end: each student's score, how many got full marks, and the
    tests failed most often."""
    lab = manifest.lab(plan.lab)
    rows = sorted(results, key=lambda r: r.student)
    width = max([len(r.student) for r in rows] + [7])
    out = [f"Graded {len(rows)} submission{'s' if len(rows) != 1 else ''} for {lab.name}, "
           f"\"{lab.title}\": {len(plan.tests)} tests, {_number(plan.max_score)} points.",
           plan.sets_line(), ""]
    out.append(f"  {'student':<{width}}  {'score':>9}  verdict")
    for r in rows:
        score = f"{_number(r.score)}/{_number(r.max)}"
        out.append(f"  {r.student:<{width}}  {score:>9}  {r.verdict}")
    counts = Counter(r.verdict for r in rows)
    out += ["", "  " + ", ".join(f"{counts[v]} {v}" for v in Overall if counts[v])]
    failing = Counter(t.id for r in rows for t in r.tests if t.verdict is not Verdict.PASS)
    says = {t.id: t.says for t in plan.tests}
    if failing:
        out += ["", "Most-failed tests:"]
        for test_id, n in sorted(failing.items(), key=lambda item: (-item[1], item[0]))[:5]:
            out.append(f"  {n:>3}/{len(rows)}  {says.get(test_id, test_id)}  [{test_id}]")
    if ignored:
        out += ["", "Not submissions, left alone: " + ", ".join(ignored)]
    out += ["", f"Isolation ({isolation['level']}): what it cannot prevent:"]
    out += [f"  - {line}" for line in isolation["cannot_prevent"]]
    if paths:
        out += ["", "Written: " + ", ".join(str(p) for name, p in paths.items()
                                            if name != "instructor")]
        if "instructor" in paths:
            out.append(f"Not for students: {paths['instructor']} (every reason in full, the "
                       "hidden tests' included).")
    return "\n".join(out)
