"""Starting and resetting a lab: its starter becomes the student's harness.py in the lab's
folder (lab/desk/labfolder.py), in course order, from the kit's starter, the guided one, or the
student's own file of the lab before (`--mine`, lab/desk/carry.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

from lab.check import manifest, spoken
from lab.desk.errors import CourseError
from lab.desk.problems import CopyLacks, EarlierNotPassed, FirstLab, NotBuiltYet
from lab.desk.labfolder import check_command, lay_out, quoted
from lab.desk.progress import has_passed, passed_in
from lab.desk import words_start as words
from lab.desk.workfolder import shown, work


def built(lab_id: str) -> manifest.Lab:
    """The lab, when this copy of the course can start it: a lab that comes in a later version,
    or whose starter or tests are missing, is a CourseError that says so."""
    lab = manifest.lab(lab_id)
    if lab.reference_only:
        raise CourseError(NotBuiltYet(lab.name))
    if not lab.starter.is_file():
        raise CourseError(CopyLacks("starter", lab.name, lab.starter.name))
    if not lab.tests.is_file():
        raise CourseError(CopyLacks("tests", lab.name, lab.tests.name))
    return lab


def waits_for(lab_id: str) -> manifest.Lab | None:
    """The lab before `lab_id` in course order when no check has shown its tests passing
    (progress.passed_in); else None. Starting `lab_id` does not wait for it: the starter holds
    the course's code for that lab, so each lab stands on its own, and start() says so."""
    order = list(manifest.labs(built_only=True))
    lab = manifest.lab(lab_id)
    at = order.index(lab) if lab in order else 0
    if at and passed_in(order[at - 1].id) is None:
        return order[at - 1]
    return None


def started_after(lab_id: str) -> manifest.Lab | None:
    """The first lab after `lab_id`, in course order, that the student has started; else None.
    Its starter held `lab_id`'s finished code, so starting `lab_id` now would only add a folder
    beside the student's real work, as a notebook's Run All would, passing its start cell."""
    order = list(manifest.labs(built_only=True))
    lab = manifest.lab(lab_id)
    later = order[order.index(lab) + 1:] if lab in order else []
    return next((x for x in later if (work() / x.folder / "harness.py").exists()), None)


def start(lab_id: str, *, force: bool = False, guided: bool = False, mine: bool = False) -> None:
    """Set up a lab in the work folder: the starter as harness.py, the lab's tests as tests.py,
    changes.diff, a `lab` folder standing for the kit's package, and `.lab`. A started lab's
    files are left as they are (lab/desk/labfolder.py's lay_out makes only missing ones), so a
    notebook run again changes nothing; reset puts them back. Prints where the files are, the
    command that checks them, and the other starters. A lab whose lab before has not passed
    starts all the same, saying in one line that its starter holds the course's code for that
    lab; once a later lab is started, prints why nothing was started, unless `force`.
    With `guided`, the starter is the guided one, whose gaps spell out their steps rather than
    state only what must hold. With `mine`, the starter is made from the student's own passing
    file of the lab before, with this lab's changes merged in (lab/desk/carry.py). Either
    replaces a harness.py that is still one of the lab's starters, untouched: nothing is lost,
    and a student who ran the notebook's start cell may still choose."""
    try_start(lab_id, force=force, guided=guided, mine=mine)


def try_start(lab_id: str, *, force: bool = False, guided: bool = False,
              mine: bool = False) -> bool:
    """start(), returning whether the lab is now started (False: refused, since a later lab is
    started), for the `course start` command's exit code."""
    lab = built(lab_id)
    harness = work() / lab.folder / "harness.py"
    later = None if force or harness.exists() else started_after(lab.id)
    if later is not None:
        print(words.refused_for_a_later_lab(lab.id, later.id,
                                            spoken.anywhere("start", lab.id, force=True)))
        return False
    if guided and not lab.guided.is_file():
        raise CourseError(CopyLacks("guided starter", lab.name, lab.guided.name))
    untouched = (guided or mine) and harness.is_file() and harness.read_bytes() in [
        path.read_bytes() for path in (lab.starter, lab.guided) if path.is_file()]
    fresh = not harness.exists() or untouched
    earlier = waits_for(lab.id) if fresh and not mine else None
    place = lay_out(lab)
    if not fresh:
        print(words.kept(lab.name, shown(harness)))
    elif mine:
        _start_from_mine(lab, harness)
    else:
        shutil.copyfile(lab.guided if guided else lab.starter, harness)
        print(words.started(lab.name, lab.title, guided=guided))
    if earlier is not None:
        print(words.stands_alone(earlier.id, lab.id))
    print(words.your_files(shown(harness), shown(place / "tests.py")))
    if manifest.IN_BROWSER:
        print(words.check_in_a_cell(spoken.in_cell("check", lab.id)))
    else:
        print(words.check_from_the_folder(quoted(shown(place)), check_command(lab.id),
                                          spoken.in_terminal("check", lab.id)))
    others = other_starters(lab) if fresh and not (guided or mine) else ""
    if others:
        print(others)
    return True


def other_starters(lab: manifest.Lab) -> str:
    """The line that names the other starters of a lab just started from the standard one:
    the guided one, and, where the student's own file of the lab before has passed and the
    merge can run here (not in the browser's page), their own file carried forward. Either
    replaces the untouched standard starter."""
    order = list(manifest.labs(built_only=True))
    at = order.index(lab)
    before = order[at - 1] if at else None
    guided = spoken.command("start", lab.id, quoted=False, guided=True) \
        if lab.guided.is_file() else None
    mine = spoken.command("start", lab.id, quoted=False, mine=True) \
        if before is not None and not manifest.IN_BROWSER and has_passed(before.id) and \
        (work() / before.folder / "harness.py").is_file() else None
    return words.other_starters(guided, mine, before.id if before else None)


def _start_from_mine(lab: manifest.Lab, harness: Path) -> None:
    """Write `harness` as this lab's starter made from the student's own file of the lab
    before (it must have passed its check), or, where the merge conflicts, the kit's starter
    with the student's file kept beside it as harness.mine.py."""
    from lab.desk import carry  # here, not at the top: merge3 is not in the browser's Python
    order = list(manifest.labs(built_only=True))
    if order.index(lab) == 0:
        raise CourseError(FirstLab(lab.name))
    before = order[order.index(lab) - 1]
    yours_before = work() / before.folder / "harness.py"
    if not yours_before.is_file() or not has_passed(before.id):
        raise CourseError(EarlierNotPassed(before.id,
                                           spoken.command("check", before.id, quoted=False)))
    starter = lab.starter.read_text(encoding="utf-8")
    reference = carry.previous_reference(starter, (lab.content / "changes.diff").read_text(
        encoding="utf-8"))
    mine = yours_before.read_text(encoding="utf-8")
    began = carry.started_from(mine, [path.read_text(encoding="utf-8")
                                      for path in (before.starter, before.guided)
                                      if path.is_file()] + [reference])
    carried = carry.carry(mine, began, reference, starter)
    if carried.text is not None:
        harness.write_text(carried.text, encoding="utf-8")
        print(words.started_from_mine(lab.name, lab.title, before.id))
        return
    shutil.copyfile(lab.starter, harness)
    kept = harness.with_name("harness.mine.py")
    shutil.copyfile(yours_before, kept)
    where = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in carried.conflicts)
    print(words.not_merged(lab.name, lab.title, list(carried.names), where, before.id,
                           shown(kept)))


def reset(lab_id: str, *, confirm: bool = True) -> None:
    """Put the starter back as harness.py, keeping the student's file as harness.py.bak (which
    replaces any older .bak). Asks first unless confirm is False (the CLI's --yes); anything but
    y or yes keeps the file. A lab not started yet is simply started."""
    lab = built(lab_id)
    harness = work() / lab.folder / "harness.py"
    if not harness.exists():
        start(lab_id)
        return
    if confirm:
        answer = input(words.replace_it())
        if answer.strip().lower() not in ("y", "yes"):
            print(words.nothing_changed(shown(harness)))
            return
    backup = harness.with_name("harness.py.bak")
    shutil.copyfile(harness, backup)
    lay_out(lab, again=True)
    shutil.copyfile(lab.starter, harness)
    print(words.reset(shown(harness), lab.name, shown(backup)))
