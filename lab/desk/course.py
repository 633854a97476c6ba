"""The student's desk: start a lab, check it, get hints, see progress, keep open answers.

Everything a student makes lives in one work folder, `$HARNESS_COURSE_WORK` if set, else
`<kit>/work/` (git-ignored), so the kit itself is never edited and a course can be reset by
deleting one folder. A lab's folder there, `<work>/<Lab.folder>/`, holds `harness.py`,
`tests.py`, a `lab` folder that stands for the kit's package (so the checker runs from that
folder exactly as the lessons print it, on every system) and `.lab`, the lab id. Progress and
open answers are two JSON files beside the lab folders.

Functions that print return None, so that a notebook cell calling one shows only what it
printed: a returned path or dict would show a machine-dependent value under the printed text.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from lab.check import manifest
from lab.check.errors import UserError
from lab.check.importer import import_harness

WORK_ENV = "HARNESS_COURSE_WORK"
SOLVED_ENV = "HARNESS_COURSE_AS_SOLVED"
PACKAGE = Path(__file__).resolve().parents[1]  # the kit's lab/, which each lab folder stands for
PLACEHOLDER = "Write your answer here."  # what a lesson's answer cell holds before the student types

# The two files of a lab folder's `lab` folder. It is a doorway to the kit's package rather than
# a link to it: Windows allows links only in developer mode, so one mechanism on every system is
# the one CI can test everywhere; and through a doorway, no edit in a lab folder reaches the kit.
FORWARD = {
    "__init__.py": '''"""Stands for the course kit's `lab` package, the folder named below:
`import lab` in this lab folder is that package. Made by `course start`, which remakes it; do not
edit."""
import os as _os

__path__ = [{package!r}]
__file__ = _os.path.join(__path__[0], "__init__.py")
with open(__file__, encoding="utf-8") as _source:
    exec(compile(_source.read(), __file__, "exec"))
del _os, _source
''',
    "lab_check.py": '''"""`python lab/lab_check.py ...`: the course's checker, run from the kit
folder named below. Made by `course start`, which remakes it; do not edit."""
import sys

sys.path[0] = {kit!r}  # in place of this folder: the checker and its package are the kit's
from lab.lab_check import main

sys.exit(main())
''',
}


class CourseError(UserError):
    """A problem the student can fix; its message says how. The CLI prints it without a
    traceback."""


class NotStarted(CourseError, FileNotFoundError):
    """The lab has no harness.py in the work folder yet."""


class NoReference(CourseError, FileNotFoundError):
    """This copy of the course does not include the reference solution a cell asks for."""


# --- where things are -------------------------------------------------------------------------

def work() -> Path:
    """The student's work folder: `$HARNESS_COURSE_WORK` if set, else `<kit>/work`. Not created
    here; the functions that write create it."""
    given = os.environ.get(WORK_ENV)
    return Path(given).expanduser() if given else manifest.KIT / "work"


def folder(lab_id: str) -> Path:
    """The lab's own folder in the work folder, `<work>/<Lab.folder>`."""
    return work() / manifest.lab(lab_id).folder


def shown(path: Path) -> str:
    """`path` as printed to a student, so that it works from where they stand: relative to the
    current directory when it lies inside it (`work/15-stop/lab1/harness.py`, from the kit's
    folder), else absolute. In a notebook the current directory is the lesson's folder, so paths
    are absolute there: a `cd` it prints is typed into a terminal, which opens elsewhere.
    (The kit's notebook tests pin the work folder's part of such a path as `<work>`.)"""
    full = Path(path).expanduser().resolve()
    try:
        return full.relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):  # outside it, or the current directory is gone
        return str(full)


def _quoted(text: str) -> str:
    """A path for a command line: in double quotes when it holds a space, which bash, cmd and
    PowerShell read alike."""
    return f'"{text}"' if " " in text else text


def check_command(lab_id: str) -> str:
    """The command that checks a lab, run from the lab's folder."""
    lesson = manifest.lab(lab_id).lesson.number
    return f"python lab/lab_check.py --harness harness.py --lesson {lesson} tests.py"


def lab_in(path: Path) -> str | None:
    """The lab id a lab folder was started for (its `.lab` file), or None if it is not one.
    The checker uses it to know which lab a run belongs to."""
    marker = Path(path) / ".lab"
    return marker.read_text(encoding="utf-8").strip() if marker.is_file() else None


def _built(lab_id: str) -> manifest.Lab:
    lab = manifest.lab(lab_id)
    if lab.reference_only:
        raise CourseError(f"{lab.name.capitalize()} is not built yet: it comes in a later "
                          "version of the course.")
    for what, path in (("starter", lab.starter), ("tests", lab.tests)):
        if not path.is_file():
            raise CourseError(f"This copy of the course is missing the {what} of {lab.name} "
                              f"({path.name}); get a fresh copy of the kit.")
    return lab


# --- the two JSON files ---------------------------------------------------------------------

def _load(name: str, *, base: Path | None = None) -> dict:
    path = (base or work()) / name
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        raise CourseError(f"{shown(path)} is not valid JSON any more; fix it or delete it "
                          "(deleting it forgets what it held).") from None


def _save(name: str, data: dict, *, base: Path | None = None) -> None:
    base = base or work()
    base.mkdir(parents=True, exist_ok=True)
    path = base / name
    # Written beside and then renamed, so a crash mid-write never leaves half a file.
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                         encoding="utf-8")
    temporary.replace(path)


# --- starting and resetting -----------------------------------------------------------------

def forward_package(place: Path, *, package=PACKAGE) -> None:
    """Make `place/lab` stand for the kit's lab package: a folder of two files (FORWARD) that
    send `import lab` and `python lab/lab_check.py` to the kit. A link left by an earlier
    version of the course is replaced (the link only; what it points to is untouched).
    `package` is where the kit's lab/ is when the doorway is used: elsewhere than here only for
    the browser site, whose drive holds it at /drive/lab (tools/site.py)."""
    door = place / "lab"
    if door.is_symlink():
        door.unlink()
    elif door.exists() and not (door.is_dir() and
                                {p.name for p in door.iterdir()} <= {*FORWARD, "__pycache__"}):
        raise CourseError(f"{shown(door)} is not the folder the course makes there; move it "
                          "elsewhere, then start the lab again.")
    door.mkdir(exist_ok=True)
    for name, text in FORWARD.items():
        (door / name).write_text(text.format(package=str(package), kit=str(package.parent)),
                                 encoding="utf-8")


def _lay_out(lab: manifest.Lab) -> Path:
    """Everything in a lab folder except harness.py: tests.py, the `lab` folder and .lab."""
    place = work() / lab.folder
    place.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(lab.tests, place / "tests.py")
    forward_package(place)
    (place / ".lab").write_text(lab.id + "\n", encoding="utf-8")
    return place


def waits_for(lab_id: str) -> manifest.Lab | None:
    """The lab that must pass before `lab_id` may start: the lab before it in the same lesson,
    when its last check has not passed; else None. A lab's starter holds the previous lab's
    finished code, so starting 12.2 before 12.1 passes would hand the student 12.1's answer
    while the lesson is still asking for it. A lesson's first lab is never held back: a
    student may begin at any lesson."""
    lab = manifest.lab(lab_id)
    earlier = [x for x in lab.lesson.labs if manifest.key(x.id) < manifest.key(lab.id)]
    if earlier and not has_passed(earlier[-1].id):
        return earlier[-1]
    return None


def start(lab_id: str, *, force: bool = False, guided: bool = False, mine: bool = False) -> None:
    """Set up a lab in the work folder: the starter as harness.py, the lab's tests as tests.py, a
    `lab` folder standing for the kit's package, and `.lab`. An existing harness.py is never
    replaced (use reset for that); tests.py and `lab` are refreshed, since they are the kit's.
    Prints where the files are and the command that checks them. Labs start in order: while
    the lab before has not passed its check, prints why nothing was started, unless `force`.
    With `guided`, the starter is the guided one, whose gaps spell out their steps rather than
    state only what must hold. With `mine`, the starter is made from the student's own passing
    file of the lab before, with this lab's changes merged in (lab/desk/carry.py)."""
    _start(lab_id, force=force, guided=guided, mine=mine)


def _start(lab_id: str, *, force: bool = False, guided: bool = False,
           mine: bool = False) -> bool:
    """start(), returning whether the lab is now started (False: refused, out of order)."""
    lab = _built(lab_id)
    earlier = None if force or (work() / lab.folder / "harness.py").exists() \
        else waits_for(lab.id)
    if earlier is not None:
        last = last_check(earlier.id)
        state = (f"its last check: {last['passed']} passed, {last['failed']} failed" if last
                 else "it has no check recorded yet")
        print(f"Lab {lab.id} is not started: it starts once lab {earlier.id} has passed its "
              f"check ({state}). Its starter holds lab {earlier.id}'s finished code, so it "
              f"would hand you that answer. Check lab {earlier.id} first: course check "
              f"{earlier.id}. To start lab {lab.id} anyway: course.start(\"{lab.id}\", "
              f"force=True) in a cell, or course start {lab.id} --force in a terminal.")
        return False
    place = _lay_out(lab)
    harness = place / "harness.py"
    if harness.exists():
        print(f"You already started {lab.name}; your {shown(harness)} is kept as it is.")
    else:
        if guided and not lab.guided.is_file():
            raise CourseError(f"This copy of the course has no guided starter for {lab.name} "
                              f"({lab.guided.name}); start it without --guided.")
        if mine:
            _start_from_mine(lab, harness)
        else:
            shutil.copyfile(lab.guided if guided else lab.starter, harness)
            level = " (guided: each gap spells out its steps)" if guided else ""
            print(f"Started {lab.name}: {lab.title}{level}.")
    print(f"  your file:  {shown(harness)}  (fill the gaps marked '# --- your code ---')")
    print(f"  its tests:  {shown(place / 'tests.py')}")
    if manifest.IN_BROWSER:
        print(f'Check it in a cell: course.check("{lab.id}") (a practice check, in this page)')
        return True
    print("Check it from that folder:")
    print(f"  cd {_quoted(shown(place))}")
    print(f"  {check_command(lab.id)}")
    print(f"or from anywhere: course check {lab.id}")
    return True


def _start_from_mine(lab: manifest.Lab, harness: Path) -> None:
    """Write `harness` as this lab's starter made from the student's own file of the lab
    before (it must have passed its check), or, where the merge conflicts, the kit's starter
    with the student's file kept beside it as harness.mine.py."""
    from lab.desk import carry
    order = list(manifest.labs(built_only=True))
    if order.index(lab) == 0:
        raise CourseError(f"{lab.name.capitalize()} is the first lab: there is no file of yours "
                          "to carry forward.")
    before = order[order.index(lab) - 1]
    yours_before = work() / before.folder / "harness.py"
    if not yours_before.is_file() or not has_passed(before.id):
        raise CourseError(f"--mine carries your own lab {before.id} file forward once it passes "
                          f"its check; check it first: course check {before.id}.")
    starter = lab.starter.read_text(encoding="utf-8")
    base = carry.previous_reference(starter, (lab.content / "changes.diff").read_text(
        encoding="utf-8"))
    carried = carry.carry(yours_before.read_text(encoding="utf-8"), base, starter)
    if carried.text is not None:
        harness.write_text(carried.text, encoding="utf-8")
        print(f"Started {lab.name}: {lab.title}, from your own lab {before.id} file with this "
              f"lab's changes merged in.")
        return
    shutil.copyfile(lab.starter, harness)
    kept = harness.with_name("harness.mine.py")
    shutil.copyfile(yours_before, kept)
    where = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in carried.conflicts)
    print(f"Started {lab.name}: {lab.title}, from the kit's starter: this lab changes lines you "
          f"had changed too (lines {where} of your lab {before.id} file), so nothing was merged. "
          f"Your file is beside it as {shown(kept)}; copy what you want across.")


def reset(lab_id: str, *, confirm: bool = True) -> None:
    """Put the starter back as harness.py, keeping the student's file as harness.py.bak (which
    replaces any older .bak). Asks first unless confirm is False (the CLI's --yes); anything but
    y or yes keeps the file. A lab not started yet is simply started."""
    lab = _built(lab_id)
    harness = work() / lab.folder / "harness.py"
    if not harness.exists():
        start(lab_id)
        return
    if confirm:
        answer = input("Replace your harness.py with the starter? "
                       "Your file is kept as harness.py.bak [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print(f"Nothing changed: {shown(harness)} is as you left it.")
            return
    backup = harness.with_name("harness.py.bak")
    shutil.copyfile(harness, backup)
    _lay_out(lab)
    shutil.copyfile(lab.starter, harness)
    print(f"{shown(harness)} is the starter of {lab.name} again; "
          f"your previous file is {shown(backup)}.")


# --- hints and progress ---------------------------------------------------------------------

def hint(lab_id: str) -> None:
    """Print the lab's next hint: questions first, then the approach, then the outline. The last
    level shown is remembered in progress.json; after the third, says there are no more and
    shows the third again."""
    lab = manifest.lab(lab_id)
    if not lab.hints:
        print(f"{lab.name.capitalize()} has no hints.")
        return
    data = _load("progress.json")
    shown_before = data.get("hints", {}).get(lab.id, 0)
    if shown_before >= len(lab.hints):
        print(f"There are no more hints for {lab.name}; here is the last one again.\n")
    level = min(shown_before + 1, len(lab.hints))
    name = manifest.HINT_LEVELS[level - 1][1] if level <= len(manifest.HINT_LEVELS) \
        else f"level {level}"
    print(f"Hint {level} of {len(lab.hints)} for {lab.name}: {name}\n")
    print(lab.hints[level - 1].strip())
    data.setdefault("hints", {})[lab.id] = level
    _save("progress.json", data)


def last_check(lab_id: str) -> dict | None:
    """The lab's last recorded check, {"passed", "failed", "runs"}, or None if it has none."""
    return _load("progress.json").get("checks", {}).get(lab_id)


def has_passed(lab_id: str) -> bool:
    """Whether the lab's last recorded check passed every one of its tests. In solved mode
    (HARNESS_COURSE_AS_SOLVED=1) every lab has: the kit's notebook tests run as a student who
    solved each lab would."""
    if os.environ.get(SOLVED_ENV) == "1":
        return True
    last = last_check(lab_id)
    return bool(last and last["passed"] and not last["failed"])


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
    base = work
    data = _load("progress.json", base=base)
    checks = data.setdefault("checks", {})
    runs = checks.get(lab_id, {}).get("runs", 0) + 1
    checks[lab_id] = {"passed": int(passed), "failed": int(failed), "runs": runs}
    _save("progress.json", data, base=base)


def _lab_state(lab: manifest.Lab, checks: dict) -> tuple[str, str]:
    """(kind, words): kind is one of later, new, started, passing, failing."""
    if lab.reference_only:
        return "later", "coming later"
    last = checks.get(lab.id)
    if last and last["passed"] + last["failed"]:
        total = last["passed"] + last["failed"]
        if last["failed"]:
            return "failing", f"failing ({last['passed']}/{total})"
        return "passing", f"passing ({total}/{total})"
    if (work() / lab.folder / "harness.py").exists() or last:
        return "started", "started"
    return "new", "not started"


def _lesson_state(kinds: list[str]) -> str:
    built = [k for k in kinds if k != "later"]
    if not kinds:
        return "no lab"
    if not built:
        return "coming later"
    if all(k == "passing" for k in built):
        return "passing"
    if all(k == "new" for k in built):
        return "not started"
    return "started"


def progress() -> None:
    """Print every lesson and lab in course order with its state: not started, started, passing
    (N/N) or failing (p/N) from the last recorded check, or coming later for a lab the kit does
    not build yet."""
    checks = _load("progress.json").get("checks", {})
    rows = []
    for lesson in manifest.lessons():
        labs = [(lab, *_lab_state(lab, checks)) for lab in lesson.labs]
        rows.append((f"{lesson.number:02d}", lesson.title, _lesson_state([k for _, k, _ in labs])))
        rows += [(f"  {lab.id}", lab.title, words) for lab, _, words in labs]
    widths = [max(len(row[i]) for row in rows + [("", "", "")]) for i in range(2)]
    for number, title, state in rows:
        print(f"{number:<{widths[0]}}  {title:<{widths[1]}}  {state}".rstrip())


# --- open responses -------------------------------------------------------------------------

KEY = re.compile(r"^(\d{1,2})\.[A-Za-z0-9_-]+$")


def _lesson_words(key: str) -> str:
    match = KEY.match(key)
    if not match:
        raise CourseError(f'{key!r} is not a question key; keys look like "04.boundary".')
    number = int(match.group(1))
    try:
        return f"lesson {number} ({manifest.lesson(number).title})"
    except KeyError:
        return f"lesson {number}"


def respond(key: str, text: str) -> None:
    """Store an open response under `key` ("04.boundary") in responses.json, replacing an earlier
    answer to the same question. Responses are never graded; a later lesson may show one back."""
    where = _lesson_words(key)
    if not text.strip() or text.strip() == PLACEHOLDER:
        print("Nothing saved: write your answer between the quotes, then run the cell again.")
        return
    data = _load("responses.json")
    data[key] = text.strip()
    _save("responses.json", data)
    print(f"Saved your answer to {where}. It is not graded; a later lesson may show it to you.")


def recall(key: str) -> None:
    """Print the stored answer to `key`, or say that the question (from the lesson the key
    names) has not been answered yet."""
    where = _lesson_words(key)
    answer = _load("responses.json").get(key)
    if answer is None:
        print(f"You have not answered this question from {where} yet.")
        return
    print(f"What you wrote in {where}:")
    for line in answer.splitlines():
        print(f"    {line}" if line else "")


# --- loading a harness ----------------------------------------------------------------------

def reference(lab_id: str) -> ModuleType:
    """The lab's reference solution, imported afresh as module `harness`. Raises NoReference if
    this copy of the course ships without solutions."""
    lab = manifest.lab(lab_id)
    if not lab.solution.is_file():
        raise NoReference(f"This cell runs against the reference solution of {lab.name}, which "
                          "this copy of the course does not include.")
    return import_harness(lab.solution)


def yours(lab_id: str) -> ModuleType:
    """The student's harness.py for the lab, imported afresh as module `harness`. Raises
    NotStarted if the lab has not been started. While the lab has not passed its check, first
    prints one line saying so. In a notebook, the rest of the cell is bounded (lab/desk/guard.py):
    a run that never ends is stopped, and an error is explained in one line before its
    traceback. With HARNESS_COURSE_AS_SOLVED=1 it loads the reference instead, silently: the
    kit's own tests run "your code" cells that way, under the same bound."""
    from lab.desk import guard
    lab = manifest.lab(lab_id)
    if os.environ.get(SOLVED_ENV) == "1":
        module = reference(lab_id)
        guard.arm(lab.id, lab.solution, passed=True)
        return module
    harness = work() / lab.folder / "harness.py"
    if not harness.is_file():
        raise NotStarted(f'You have not started {lab.name} yet: run course.start("{lab.id}") '
                         "first, then fill its gaps and run this cell again.")
    passed = has_passed(lab.id)
    if not passed:
        print(guard.notice(lab.id), flush=True)
    guard.arm(lab.id, harness, passed=passed)
    return import_harness(harness)


# --- the command line -----------------------------------------------------------------------

def _kit_env() -> dict:
    """The environment for a child process, with the kit importable even when not installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE.parent),
                                                      env.get("PYTHONPATH")]))
    return env


def check(lab_id: str, *, practice: bool | None = None) -> int:
    """Run the lab's checker in its folder, as the lessons print it, and return its exit code.
    The checker itself records the result for progress(). With `practice` (the default in the
    browser, where no process can be started), the practice check instead: the checker's tests
    and verdicts, run in this process (lab/check/lines.py's `practice`), labelled as such."""
    practice = manifest.IN_BROWSER if practice is None else practice
    lab = _built(lab_id)
    place = work() / lab.folder
    if not (place / "harness.py").is_file():
        how = f'course.start("{lab.id}")' if manifest.IN_BROWSER else f"`course start {lab.id}`"
        raise NotStarted(f"You have not started {lab.name} yet: run {how} first.")
    _lay_out(lab)  # a missing `lab` or tests.py would make the command fail for the wrong reason
    if practice:
        from lab.check.lines import check_aloud
        checked = check_aloud(place / "harness.py", place / "tests.py", lab.lesson.number,
                              practice=True)
        if not checked.interrupted:
            record_check(lab.id, checked.report.passed, checked.report.failed)
        return checked.exit_code
    command = shlex.split(check_command(lab.id))
    command[0] = sys.executable
    return subprocess.run(command, cwd=place, env=_kit_env()).returncode


# What JupyterLab's file browser does not list: Jupyter's own defaults, and the folders that
# hold answers (the authors' wing with its prediction keys, pins and hints; the references).
# Hidden from view, not locked: the lessons' reference cells still import solutions/.
HIDDEN_FROM_BROWSER = ("__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~", "source", "solutions")


def jupyter(extra: list[str]) -> int:
    """Start JupyterLab on the kit folder (lessons and work side by side), opened at the first
    lesson, without a browser when $CI is set; `extra` is passed through. The one launcher:
    start.py opens the course through it too. Its terminals find this Python first on PATH,
    so `python lab/lab_check.py ...` there is the kit's."""
    kit = PACKAGE.parent
    first = [lesson.notebook for lesson in manifest.lessons() if lesson.notebook.is_file()][:1]
    where = first[0].relative_to(kit).as_posix() if first else "lessons"
    flags = ["--notebook-dir", str(kit), f"--LabApp.default_url=/lab/tree/{where}",
             f"--ContentsManager.hide_globs={list(HIDDEN_FROM_BROWSER)!r}"]
    if os.environ.get("CI"):
        flags.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags.append("--allow-root")  # a container's only user; JupyterLab refuses otherwise
    flags += extra
    print("Starting: " + shlex.join(["jupyter", "lab", *flags]), flush=True)
    env = _kit_env()
    here = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(filter(None, [here, env.get("PATH")]))
    if sys.prefix != sys.base_prefix:
        env["VIRTUAL_ENV"] = sys.prefix
    try:
        return subprocess.run([sys.executable, "-m", "jupyter", "lab", *flags],
                              env=env).returncode
    except KeyboardInterrupt:
        return 0


def main(argv: list[str] | None = None) -> int:
    """The `course` command: start, check, progress, hint, reset, lab."""
    parser = argparse.ArgumentParser(prog="course", description="Your desk for the harness "
                                     "course: start labs, check them, get hints.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, what in (("start", "set up a lab in your work folder"),
                       ("check", "run a lab's tests on your harness.py"),
                       ("hint", "show the lab's next hint")):
        commands.add_parser(name, help=what).add_argument("lab", help='a lab id, like "15.1"')
    commands.choices["start"].add_argument(
        "--force", action="store_true", help="start it even though the lab before has not "
                                             "passed its check")
    commands.choices["start"].add_argument(
        "--guided", action="store_true", help="a starter whose gaps spell out their steps")
    commands.choices["start"].add_argument(
        "--mine", action="store_true", help="make the starter from your own passing file of the "
                                            "lab before, with this lab's changes merged in")
    again = commands.add_parser("reset", help="put the starter back (keeps harness.py.bak)")
    again.add_argument("lab")
    again.add_argument("--yes", action="store_true", help="do not ask first")
    commands.add_parser("progress", help="where you are in the course")
    jl = commands.add_parser("lab", help="start JupyterLab on the course")
    jl.add_argument("extra", nargs=argparse.REMAINDER, help="flags for jupyter lab, after --")
    from lab.desk import chat  # here, not at the top: only this command needs httpx
    chat.add_parser(commands)
    args = parser.parse_args(argv)
    if args.command == "chat":
        return chat.run_chat(args)
    try:
        if args.command == "start":
            if not _start(args.lab, force=args.force, guided=args.guided, mine=args.mine):
                return 1
        elif args.command == "check":
            return check(args.lab)
        elif args.command == "hint":
            hint(args.lab)
        elif args.command == "reset":
            reset(args.lab, confirm=not args.yes)
        elif args.command == "progress":
            progress()
        elif args.command == "lab":
            extra = args.extra[1:] if args.extra[:1] == ["--"] else args.extra
            return jupyter(extra)
    except UserError as problem:
        message = problem.args[0] if problem.args else str(problem)
        print(message, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
