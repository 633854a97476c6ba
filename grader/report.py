"""What a batch writes: grades.csv, tests.csv, grades.json, one feedback file per student, and
the summary printed at the end.

    grades.csv    one row per submission: student, score, max, verdict, then one column per
                  test holding its verdict (pass, fail, timeout, crash), then the seconds
                  its grading took
    tests.csv     one row per submission and test: the verdict, the points and the reason
    grades.json   the plan's sets and tests, what the sandbox holds, every row whole (but
                  for what is hidden, below)
    feedback/     STUDENT.md: what passed, what failed and why, in plain words
    instructor/   tests.csv as above with every reason in full, written only when there are
                  hidden tests: not for students

A student may be given their own feedback file, and nothing else: grades.csv, tests.csv and
grades.json hold every student's rows. Every file but instructor/ is written from each row's
for_students() view (grader/row.py), in which a hidden test shows only its sentence and its
verdict. (The journal, journal.jsonl, holds the rows whole too: it is not for students either.)
Everything is sorted by student and written the same way on every run, except the
seconds each submission took (grades.csv's last column, and grades.json).
"""
from __future__ import annotations

import platform
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from lab.check import manifest, seeds, words, words_feedback as said, words_lines, words_values
from lab.check.advice import collateral, missing, unfit
from lab.check.facts import Mismatch, MissingName, RanOut
from lab.check.verdict import Verdict

from grader import bank, cells, review
from grader.grades import Grades
from grader.journal import LastRun
from grader.plan import Plan
from grader.row import Entry, Overall, Row
from grader.sandbox.statement import Statement

MOST_FAILED = 5  # tests listed in the summary
NAMES_IN_GROUP = 6  # students named in one group of a most-failed test
GROUP_CHARACTERS = 70  # of what a group's students' code did, as the summary names it


def write(out: Path, plan: Plan, results: list[Row], isolation: Statement,
          ignored: Sequence[str] = ()) -> dict[str, Path]:
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
        writer = cells.writer(handle)
        writer.writerow(["student", "score", "max", "verdict", *ids, "seconds"])
        for r in rows:
            verdicts = {t.id: t.verdict for t in r.tests}
            writer.writerow([r.student, cells.number(r.score), cells.number(r.max), r.verdict,
                             *(verdicts.get(i, "") for i in ids), f"{r.seconds:.1f}"])
    _tests_csv(paths["tests.csv"], rows)
    mine = out / "instructor" / "tests.csv"
    if any(t.hidden for t in plan.tests):
        mine.parent.mkdir(mode=0o700, exist_ok=True)
        _tests_csv(mine, full)
        paths["instructor"] = mine
    else:
        mine.unlink(missing_ok=True)  # an earlier run's, with hidden tests this one has not
    lab = manifest.lab(plan.lab)
    grades = Grades(plan.lab, lab.name, lab.title, plan.own_lab_only, plan.max_score, plan.sets,
                    list(plan.tests), isolation, list(ignored), rows)
    paths["grades.json"].write_text(grades.dumps(), encoding="utf-8")
    paths["feedback"].mkdir(exist_ok=True)
    for r in rows:
        (paths["feedback"] / f"{safe_name(r.student)}.md").write_text(
            feedback(plan, r), encoding="utf-8")
    LastRun(out).keep(full)
    return paths


def _tests_csv(path: Path, rows: list[Row]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = cells.writer(handle)
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
    lines = [said.title(lab.name, lab.title), "",
             said.feedback_for(r.student, r.source), "",
             said.score_line(_number(r.score), _number(r.max), r.verdict.words), ""]
    if plan.share is not None:
        lines += [plan.bank_line(), ""]
    if not r.problem:
        lines += [plan.sets_line()
                  + (said.earlier_labs_run_too() if any(t.lab not in (None, plan.lab)
                                                        for t in plan.tests) else ""), ""]
    if r.problem:
        lines += [said.nothing_graded(), "", r.problem, ""]
    elif r.import_error:
        lines += [said.did_not_import(), "", said.stopped_loading(), "",
                  _block(r.import_error), "", said.fix_the_import() + python_words(), ""]
    failed = [t for t in r.tests if t.verdict is not Verdict.PASS]
    passed = [t for t in r.tests if t.verdict is Verdict.PASS]
    said_once = unfit_line(plan, r)
    if said_once:
        lines += [said.every_test_failed(), "", said_once, ""]
    elif failed and not r.problem and not r.import_error:
        lines += [said.not_passed(len(failed)), ""]
        last = None
        for t in failed:
            lines.append(said.failed_test(t.says, _where(t), _number(t.points), t.points != 1,
                                          t.verdict.words))
            label = None if t.hidden else collateral(t.lab, plan.lab)
            if label:  # the local checker's words, so both send the student to their gaps
                lines.append(said.probably_collateral(label))
            if t.hidden:
                lines.append(f"  {t.message}")
            elif t.message == last:
                lines.append(said.same_reason_as_above())
            else:
                lines += ["", _block(t.message, indent="  ")]
                last = t.message
            lines.append("")
    if passed:
        lines += [said.passed_heading(len(passed)), ""]
        lines += [said.passed_test(t.says, _where(t)) for t in passed]
        lines.append("")
    if r.overrides:
        lines += [said.overrides_heading(), "", said.overrides_count(len(r.overrides)), ""]
        lines += [f"- {change}" for change in r.overrides] + [""]
    if r.notes:
        lines += [said.notes_heading(), ""] + [f"- {note}" for note in r.notes] + [""]
    if not r.problem:
        lines += [said.check_yourself(lab.lesson.number,
                                      any(t.hidden and t.set != bank.SET for t in plan.tests),
                                      plan.share is not None), ""]
        if plan.seed != seeds.PUBLIC:
            lines += [seed_words(plan.seed, "that command"), ""]
    return "\n".join(lines)


def unfit_line(plan: Plan, r: Row) -> str | None:
    """The one line said in place of every test's failure when the file held none of the
    lab's code (an EMPTY or LACKS_NAMES row), in the local checker's words; None otherwise."""
    if r.verdict not in (Overall.EMPTY, Overall.LACKS_NAMES):
        return None
    names = missing([t for t in r.tests if not t.hidden]) or []
    return unfit(plan.lab, names, len(r.tests), empty=r.verdict is Overall.EMPTY)


def python_words() -> str:
    """Which Python graded, told with a file that did not import: one that imports on the
    student's newer Python can fail on the grader's older one, and the other way round."""
    return said.python_words(platform.python_version(),
                             ".".join(platform.python_version_tuple()[:2]))


def seed_words(seed: int, command: str) -> str:
    """What a student is told of a grading seed: which it was, and how to draw the same cases
    with the local checker (`command` names where to add `--seed N`)."""
    return said.seed_words(seed, command)


def what_it_did(t: Entry) -> str:
    """A failed test's entry as what the student's code did, short enough to group by: the
    value found at the check that failed (lab/check/words.py's found_briefly, from the entry's
    fact), how the test ran out, or the first line of its reason. Students whose code did the
    same share one line under the test in the summary."""
    if t.verdict in (Verdict.TIMEOUT, Verdict.CRASH):
        return words_lines.verdict_said(t.verdict)
    mismatch = t.cause if isinstance(t.cause, Mismatch) else None
    did = (words.found_briefly(mismatch) if mismatch else
           (t.message.strip().splitlines() or [""])[0])
    if len(did) > GROUP_CHARACTERS and mismatch and mismatch.difference:
        # where a long value differs tells the groups apart
        return words_values.parted(mismatch.difference)
    return did if len(did) <= GROUP_CHARACTERS else did[:GROUP_CHARACTERS - 3] + "..."


def _grouped(rows: list[Row], test_id: str) -> list[tuple[str, list[str]]]:
    """The students who failed `test_id`, grouped by what their code did (_did), each group
    named by what_it_did, the largest group first."""
    groups: dict[object, tuple[str, list[str]]] = {}
    for r in rows:
        for t in r.tests:
            if t.id == test_id and t.verdict is not Verdict.PASS:
                groups.setdefault(_did(t), (what_it_did(t), []))[1].append(r.student)
    return sorted(groups.values(), key=lambda item: (-len(item[1]), item[0]))


def _did(t: Entry) -> object:
    """What a failed test's student code did, as data to group by: the verdict, or the fact
    behind it (the value a check found, the name it lacked, the fake it ran out), or, for a
    reason with no fact, the reason whole; never a sentence cut or read back, so students
    are grouped alike whatever words say it."""
    if t.verdict in (Verdict.TIMEOUT, Verdict.CRASH):
        return t.verdict
    cause = t.cause
    if isinstance(cause, Mismatch):
        return ("found", cause.check, cause.found)
    if isinstance(cause, MissingName):
        return ("lacks", cause.name)
    if isinstance(cause, RanOut):
        return ("ran out", cause.fake, cause.number, cause.function)
    return ("said", t.message)


def _where(t: Entry) -> str:
    return said.where(t.set == bank.SET, t.hidden,
                      manifest.lab(t.lab).name if t.lab else None, t.set)


def _block(text: str, indent: str = "") -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return "\n".join(indent + line for line in [fence, *text.splitlines(), fence])


def summary(plan: Plan, results: list[Row], isolation: Statement, paths: dict | None = None,
            ignored: Sequence[str] = ()) -> str:
    """The table printed at the end: each student's score and verdict (a test that ran out of
    time marked), the count of each verdict, the broken files (Overall.broken) named apart,
    the tests failed most often among the other files, each with its students grouped by what
    their code did, and, on a rerun into the same folder, what changed since the run before."""
    lab = manifest.lab(plan.lab)
    rows = sorted(results, key=lambda r: r.student)
    width = max([len(r.student) for r in rows] + [7])
    out = [said.graded(len(rows), lab.name, lab.title, len(plan.tests),
                       _number(plan.max_score)),
           plan.sets_line(), plan.bank_line(), ""]
    out.append(said.table_head(width))
    for r in rows:
        score = f"{_number(r.score)}/{_number(r.max)}"
        timed = sum(t.verdict is Verdict.TIMEOUT for t in r.tests)
        out.append(said.table_row(r.student, width, score, r.verdict,
                                  0 if r.verdict.broken else timed))
    counts = Counter(r.verdict for r in rows)
    out += ["", said.counts([(counts[v], v) for v in Overall if counts[v]])]
    broken = [r for r in rows if r.verdict.broken]
    ran = [r for r in rows if not r.verdict.broken]
    if broken:
        out.append(said.broken([(r.student, r.verdict) for r in broken]))
    timed_out = [r.student for r in ran if any(t.verdict is Verdict.TIMEOUT for t in r.tests)]
    if timed_out:
        out.append(said.timed_out(timed_out))
    overridden = [r for r in rows if r.overrides]
    if overridden:
        out.append(said.overridden(sum(len(r.overrides) for r in overridden),
                                   [(r.student, change) for r in overridden
                                    for change in r.overrides]))
    out += review.summary_lines(rows)
    changed = LastRun(paths["grades.csv"].parent).changes(rows) if paths else None
    if changed is not None:
        out.append(said.since_last_run(changed))
    failing = Counter(t.id for r in ran for t in r.tests if t.verdict is not Verdict.PASS)
    says = {t.id: t.says for t in plan.tests}
    if failing:
        shown = min(MOST_FAILED, len(failing))
        out += ["", said.most_failed(shown, len(failing))]
        for test_id, n in sorted(failing.items(),
                                 key=lambda item: (-item[1], item[0]))[:MOST_FAILED]:
            out.append(said.failed_by(n, len(ran), says.get(test_id, test_id), test_id))
            for did, students in _grouped(ran, test_id):
                out.append(said.group(students, NAMES_IN_GROUP, did))
    if ignored:
        out += ["", said.ignored(ignored)]
    out += ["", said.isolation(isolation.level)]
    out += [f"  - {line}" for line in isolation.cannot_prevent]
    if paths:
        out += ["", said.written([str(p) for name, p in paths.items() if name != "instructor"])]
        if "instructor" in paths:
            out.append(said.not_for_students(str(paths["instructor"])))
    return "\n".join(out)
