"""`course hint`: a lab's hints one level at a time, questions first, then the approach, then
the outline; the furthest level shown is remembered in the work folder's progress.json."""
from __future__ import annotations

from lab.check import manifest, spoken
from lab.desk import words_course as words
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
        print(words.no_hints(lab.name))
        return
    count = len(lab.hints)
    data = load(FILE)
    furthest = data.get("hints", {}).get(lab.id, 0)
    if level is None:
        if furthest >= count:
            print(words.no_more_hints(lab.name))
        level = min(furthest + 1, count)
    elif level == 0:
        levels = [_name(n) for n in range(1, count + 1)]
        if furthest:
            print(words.hints_seen(furthest, count, lab.name, spoken.command("hint", lab.id),
                                   levels))
        else:
            print(words.no_hint_yet(lab.name, levels))
        return
    elif not 1 <= level <= count:
        raise ValueError(f"{lab.name} has hints 1 to {count}, not {level}")
    print(words.hint_heading(level, count, lab.name, _name(level)))
    print(lab.hints[level - 1].strip())
    data.setdefault("hints", {})[lab.id] = max(furthest, level)
    save(FILE, data)


def _name(level: int) -> str:
    return words.level_name(level, manifest.HINT_LEVELS[level - 1][1]
                            if level <= len(manifest.HINT_LEVELS) else None)
