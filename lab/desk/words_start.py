"""What starting and resetting a lab print (lab/desk/labs.py), made here and only here from
facts: a lab's id, name and title, paths as the student sees them, commands as they would type
them. Nothing reads these words back, so a change of wording, or a translation, touches no
decision (tests/check/test_pseudo_localised.py swaps them all)."""
from __future__ import annotations

from lab.check import manifest


def refused_for_a_later_lab(lab_id: str, later_id: str, force: str) -> str:
    return (f"Lab {lab_id} is not started: you have started lab {later_id} already, whose "
            f"starter holds lab {lab_id}'s finished code. To start lab {lab_id} anyway, to "
            f"work through it: {force}.")


def kept(lab: str, harness: str) -> str:
    return f"You already started {lab}; your {harness} is kept as it is."


def started(lab: str, title: str, *, guided: bool) -> str:
    level = " (guided: each gap spells out its steps)" if guided else ""
    return f"Started {lab}: {title}{level}."


def started_from_mine(lab: str, title: str, before_id: str) -> str:
    return (f"Started {lab}: {title}, from your own lab {before_id} file with this lab's "
            "changes merged in.")


def not_merged(lab: str, title: str, names: list[str], lines: str, before_id: str,
               kept_as: str) -> str:
    """Why a `--mine` start fell back to the kit's starter: this lab changes what the student
    changed too, at `lines` of their file (names in backticks, "" for a file with no
    definition, or none found)."""
    what = ", ".join(f"`{name}`" if name else "the whole file" for name in names)
    clash = f"{what} where you changed the same lines" if what else "lines you had changed too"
    return (f"Started {lab}: {title}, from the kit's starter: this lab changes {clash} "
            f"(lines {lines} of your lab {before_id} file), so nothing was merged. Your file "
            f"is beside it as {kept_as}; copy what you want across.")


def stands_alone(earlier_id: str, lab_id: str) -> str:
    return (f"Lab {earlier_id} has not passed a check of yours, so this starter holds the "
            f"course's code for it: lab {lab_id} stands on its own.")


def your_files(harness: str, tests: str) -> str:
    return (f"  your file:  {harness}  (fill the gaps marked '{manifest.GAP_OPEN}')\n"
            f"  its tests:  {tests}")


def check_in_a_cell(call: str) -> str:
    return f"Check it in a cell: {call} (a practice check, in this page)"


def check_from_the_folder(folder: str, check: str, anywhere: str) -> str:
    return f"Check it from that folder:\n  cd {folder}\n  {check}\nor from anywhere: {anywhere}"


def other_starters(guided: str | None, mine: str | None, before_id: str | None) -> str:
    """The line naming the other starters of a lab just started from the standard one: `guided`
    and `mine` are the commands that start each, or None where that starter is not offered."""
    said = []
    if guided:
        said.append(f"{guided} (its gaps spell out their steps)")
    if mine:
        said.append(f"{mine} (your own lab {before_id} file, with this lab's changes merged in)")
    if not said:
        return ""
    return "Other starters, while your file is untouched: " + "; ".join(said) + "."


def replace_it() -> str:
    return "Replace your harness.py with the starter? Your file is kept as harness.py.bak [y/N] "


def nothing_changed(harness: str) -> str:
    return f"Nothing changed: {harness} is as you left it."


def reset(harness: str, lab: str, backup: str) -> str:
    return f"{harness} is the starter of {lab} again; your previous file is {backup}."
