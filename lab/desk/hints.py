"""`course hint`: a lab's hints one level at a time, questions first, then the approach, then
the outline; the furthest level shown is remembered in the work folder's progress.json."""
from __future__ import annotations

from lab.check import manifest, spoken
from lab.desk.progress import FILE
from lab.desk.workfolder import load, save


def hint(lab_id: str, level: int | None = None) -> None:
    """Print one of the lab's hints. Without `level`, the next one after the furthest shown
    (the terminal's `course hint LAB`); after the last, says there are no more and shows it
    again. With `level`, that one: a notebook's hint cell names its level, so that running
    every cell again shows the same hint instead of walking on to the outline. Level 0 shows
    none: it says how to ask, and which levels were seen already, in a cell or a terminal
    alike, since the furthest level shown is remembered in progress.json for both."""
    lab = manifest.lab(lab_id)
    if not lab.hints:
        print(f"{lab.name.capitalize()} has no hints.")
        return
    count = len(lab.hints)
    data = load(FILE)
    furthest = data.get("hints", {}).get(lab.id, 0)
    if level is None:
        if furthest >= count:
            print(f"There are no more hints for {lab.name}; here is the last one again.\n")
        level = min(furthest + 1, count)
    elif level == 0:
        if furthest:
            seen = "hint 1" if furthest == 1 else f"hints 1 to {min(furthest, count)}"
            print(f"You have seen {seen} of {count} for {lab.name} (in a cell or with "
                  f"{spoken.command('hint', lab.id)}): {_levels(count)}. Change the 0 to the "
                  "one you want and run this cell again.")
        else:
            print(f"No hint shown yet. {lab.name.capitalize()} has {count} hints: "
                  f"{_levels(count)}. Change the 0 to 1 and run this cell again for the first.")
        return
    elif not 1 <= level <= count:
        raise ValueError(f"{lab.name} has hints 1 to {count}, not {level}")
    print(f"Hint {level} of {count} for {lab.name}: {_name(level)}\n")
    print(lab.hints[level - 1].strip())
    data.setdefault("hints", {})[lab.id] = max(furthest, level)
    save(FILE, data)


def _name(level: int) -> str:
    return manifest.HINT_LEVELS[level - 1][1] if level <= len(manifest.HINT_LEVELS) \
        else f"level {level}"


def _levels(count: int) -> str:
    return "; ".join(f"{n}, {_name(n)}" for n in range(1, count + 1))
