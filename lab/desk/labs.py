"""Starting and resetting a lab: its starter becomes the student's harness.py in the lab's
folder (lab/desk/labfolder.py), in course order, from the kit's starter, the guided one, or the
student's own file of the lab before (`--mine`, lab/desk/carry.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

from lab.check import manifest, spoken
from lab.desk.errors import CourseError
from lab.desk.labfolder import check_command, lay_out, quoted
from lab.desk.progress import has_passed, last_check, passed_in
from lab.desk.workfolder import shown, work


def built(lab_id: str) -> manifest.Lab:
    """The lab, when this copy of the course can start it: a lab that comes in a later version,
    or whose starter or tests are missing, is a CourseError that says so."""
    lab = manifest.lab(lab_id)
    if lab.reference_only:
        raise CourseError(f"{lab.name.capitalize()} is not built yet: it comes in a later "
                          "version of the course.")
    for what, path in (("starter", lab.starter), ("tests", lab.tests)):
        if not path.is_file():
            raise CourseError(f"This copy of the course is missing the {what} of {lab.name} "
                              f"({path.name}); get a fresh copy of the kit.")
    return lab


def waits_for(lab_id: str) -> manifest.Lab | None:
    """The lab that must pass before `lab_id` may start: the lab before it in course order,
    when no check has shown its tests passing (progress.passed_in); else None. A lab's
    starter holds the previous lab's finished code, so starting 11.1 before 10.1 passes would
    hand the student 10.1's answer while lesson 10 is still asking for it. A student who
    begins at a later lesson starts its lab with force, and is told so."""
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
    """Set up a lab in the work folder: the starter as harness.py, the lab's tests as tests.py, a
    `lab` folder standing for the kit's package, and `.lab`. An existing harness.py is never
    replaced (use reset for that); tests.py and `lab` are refreshed, since they are the kit's.
    Prints where the files are and the command that checks them. Labs start in order: while
    the lab before has not passed its check, or once a later lab is started, prints why nothing
    was started, unless `force`.
    With `guided`, the starter is the guided one, whose gaps spell out their steps rather than
    state only what must hold. With `mine`, the starter is made from the student's own passing
    file of the lab before, with this lab's changes merged in (lab/desk/carry.py)."""
    try_start(lab_id, force=force, guided=guided, mine=mine)


def try_start(lab_id: str, *, force: bool = False, guided: bool = False,
              mine: bool = False) -> bool:
    """start(), returning whether the lab is now started (False: refused, out of order), for
    the `course start` command's exit code."""
    lab = built(lab_id)
    earlier = None if force or (work() / lab.folder / "harness.py").exists() \
        else waits_for(lab.id)
    if earlier is not None:
        last = last_check(earlier.id)
        state = (f"its last check: {last['passed']} passed, {last['failed']} failed" if last
                 else "it has no check recorded yet")
        print(f"Lab {lab.id} is not started: it starts once lab {earlier.id} has passed its "
              f"check ({state}). Its starter holds lab {earlier.id}'s finished code, so it "
              f"would hand you that answer. Check lab {earlier.id} first: "
              f"{spoken.command('check', earlier.id, quoted=False)}. To start lab {lab.id} "
              f"anyway: {spoken.anywhere('start', lab.id, force=True)}.")
        return False
    later = None if force or (work() / lab.folder / "harness.py").exists() \
        else started_after(lab.id)
    if later is not None:
        print(f"Lab {lab.id} is not started: you have started lab {later.id} already, whose "
              f"starter holds lab {lab.id}'s finished code. To start lab {lab.id} anyway, to "
              f"work through it: {spoken.anywhere('start', lab.id, force=True)}.")
        return False
    place = lay_out(lab)
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
        print(f"Check it in a cell: {spoken.in_cell('check', lab.id)} (a practice check, in "
              "this page)")
        return True
    print("Check it from that folder:")
    print(f"  cd {quoted(shown(place))}")
    print(f"  {check_command(lab.id)}")
    print(f"or from anywhere: {spoken.in_terminal('check', lab.id)}")
    return True


def _start_from_mine(lab: manifest.Lab, harness: Path) -> None:
    """Write `harness` as this lab's starter made from the student's own file of the lab
    before (it must have passed its check), or, where the merge conflicts, the kit's starter
    with the student's file kept beside it as harness.mine.py."""
    from lab.desk import carry  # here, not at the top: merge3 is not in the browser's Python
    order = list(manifest.labs(built_only=True))
    if order.index(lab) == 0:
        raise CourseError(f"{lab.name.capitalize()} is the first lab: there is no file of yours "
                          "to carry forward.")
    before = order[order.index(lab) - 1]
    yours_before = work() / before.folder / "harness.py"
    if not yours_before.is_file() or not has_passed(before.id):
        raise CourseError(f"--mine carries your own lab {before.id} file forward once it passes "
                          f"its check; check it first: "
                          f"{spoken.command('check', before.id, quoted=False)}.")
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
        print(f"Started {lab.name}: {lab.title}, from your own lab {before.id} file with this "
              f"lab's changes merged in.")
        return
    shutil.copyfile(lab.starter, harness)
    kept = harness.with_name("harness.mine.py")
    shutil.copyfile(yours_before, kept)
    where = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in carried.conflicts)
    what = ", ".join(f"`{name}`" for name in carried.names)
    print(f"Started {lab.name}: {lab.title}, from the kit's starter: this lab changes "
          + (f"{what} where you changed the same lines" if what else "lines you had changed too")
          + f" (lines {where} of your lab {before.id} file), so nothing was merged. "
          f"Your file is beside it as {shown(kept)}; copy what you want across.")


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
        answer = input("Replace your harness.py with the starter? "
                       "Your file is kept as harness.py.bak [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print(f"Nothing changed: {shown(harness)} is as you left it.")
            return
    backup = harness.with_name("harness.py.bak")
    shutil.copyfile(harness, backup)
    lay_out(lab)
    shutil.copyfile(lab.starter, harness)
    print(f"{shown(harness)} is the starter of {lab.name} again; "
          f"your previous file is {shown(backup)}.")
