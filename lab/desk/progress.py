"""What the student has done: the result of each lab's last check, and the view of the whole
course built from them (`course progress`). Kept in the work folder's progress.json, which also
holds the hints shown (lab/desk/hints.py)."""
from __future__ import annotations

from pathlib import Path

from lab.check import manifest
from lab.desk import words_course as words
from lab.desk.labfolder import lab_in
from lab.desk.workfolder import as_solved, load, save, work

FILE = "progress.json"


def last_check(lab_id: str) -> dict | None:
    """The lab's last recorded check, {"passed", "failed", "runs"}, or None if it has none."""
    return load(FILE).get("checks", {}).get(lab_id)


def has_passed(lab_id: str) -> bool:
    """Whether the lab's last recorded check passed every one of its tests. In solved mode
    (HARNESS_COURSE_AS_SOLVED=1) every lab has: the kit's notebook tests run as a student who
    solved each lab would."""
    if as_solved():
        return True
    last = last_check(lab_id)
    return bool(last and last["passed"] and not last["failed"])


def passed_in(lab_id: str) -> str | None:
    """The lab whose last check shows `lab_id`'s tests passing: the lab itself, else the first
    later lab whose last check passed, since a lab's tests.py holds every earlier lab's tests
    too (a student who forced 7.2 and passed it has passed 7.1's rules). None if none has.
    Says nothing of the lab's own folder: `has_passed` is about that file."""
    if has_passed(lab_id):
        return lab_id
    order = [lab.id for lab in manifest.labs(built_only=True)]
    later = order[order.index(lab_id) + 1:] if lab_id in order else []
    return next((other for other in later if has_passed(other)), None)


def record_check_in(place: Path, lab_id: str, passed: int, failed: int) -> bool:
    """Store a check's result when `place`, the folder the checked harness.py sits in, is the
    lab folder started for `lab_id`; its work folder is found from the lab folder's own place
    in it, whatever the environment says. Called by the checker after a run; False when the
    file checked is not in a lab folder of that lab."""
    if lab_in(place) != lab_id:
        return False
    depth = len(Path(manifest.lab(lab_id).folder).parts)  # <work>/NN-slug/labK
    record_check(lab_id, passed, failed, work=Path(place).parents[depth - 1])
    return True


def record_check(lab_id: str, passed: int, failed: int, *, work: Path | None = None) -> None:
    """Store the result of a check of a lab, for progress(). Keeps a count of checks rather
    than a time, so the file is the same whenever it is made. `work` names the work folder
    when it is not the environment's."""
    data = load(FILE, base=work)
    checks = data.setdefault("checks", {})
    runs = checks.get(lab_id, {}).get("runs", 0) + 1
    checks[lab_id] = {"passed": int(passed), "failed": int(failed), "runs": runs}
    save(FILE, data, base=work)


def lab_state(lab: manifest.Lab, checks: dict) -> tuple[str, str]:
    """(kind, words) of a lab, given progress.json's checks: kind is one of later, new,
    started, passing, failing, covered; words are what progress() prints for it
    (lab/desk/words_course.py). Passing is the lab's own check (its own folder's file). A lab
    whose own check has not passed, while a later lab's passing check holds its tests, says
    so: its tests pass in the student's file of that later lab, which is not its own file
    (covered, when it has none)."""
    kind, passed, total, shown_in = _lab_kind(lab, checks)
    return kind, words.lab_state(kind, passed, total, shown_in)


def _lab_kind(lab: manifest.Lab, checks: dict) -> tuple[str, int, int, str | None]:
    if lab.reference_only:
        return "later", 0, 0, None
    last = checks.get(lab.id)
    passed, failed = (last["passed"], last["failed"]) if last else (0, 0)
    total = passed + failed
    shown_in = passed_in(lab.id)
    if (total and not failed) or shown_in == lab.id:  # (solved mode: every lab)
        return "passing", passed, total, None
    if total:
        return "failing", passed, total, shown_in
    if (work() / lab.folder / "harness.py").exists() or last:
        return "started", passed, total, shown_in
    if shown_in:
        return "covered", passed, total, shown_in
    return "new", passed, total, None


def _lesson_kind(kinds: list[str]) -> str:
    built = [k for k in kinds if k != "later"]
    if not kinds:
        return "none"
    if not built:
        return "later"
    if all(k in ("passing", "covered") for k in built) and "passing" in built:
        return "passing"
    if all(k in ("new", "covered") for k in built):
        return "new"
    return "started"


def progress() -> None:
    """Print every lesson and lab in course order with its state: not started, started, passing
    (N/N) or failing (p/N) from the last recorded check, or coming later for a lab the kit does
    not build yet; and, for a lab whose own check has not passed, the later lab whose file
    passes its tests."""
    checks = load(FILE).get("checks", {})
    rows = []
    for lesson in manifest.lessons():
        labs = [(lab, *lab_state(lab, checks)) for lab in lesson.labs]
        rows.append((f"{lesson.number:02d}", lesson.title,
                     words.lesson_state(_lesson_kind([k for _, k, _ in labs]))))
        rows += [(f"  {lab.id}", lab.title, words) for lab, _, words in labs]
    widths = [max(len(row[i]) for row in rows + [("", "", "")]) for i in range(2)]
    for number, title, state in rows:
        print(f"{number:<{widths[0]}}  {title:<{widths[1]}}  {state}".rstrip())
