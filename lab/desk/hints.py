"""`course hint`: a lab's hints one level at a time, questions first, then the approach, then
the outline; the level shown last is remembered in the work folder's progress.json."""
from __future__ import annotations

from lab.check import manifest
from lab.desk.progress import FILE
from lab.desk.workfolder import load, save


def hint(lab_id: str) -> None:
    """Print the lab's next hint: questions first, then the approach, then the outline. The last
    level shown is remembered in progress.json; after the third, says there are no more and
    shows the third again."""
    lab = manifest.lab(lab_id)
    if not lab.hints:
        print(f"{lab.name.capitalize()} has no hints.")
        return
    data = load(FILE)
    shown_before = data.get("hints", {}).get(lab.id, 0)
    if shown_before >= len(lab.hints):
        print(f"There are no more hints for {lab.name}; here is the last one again.\n")
    level = min(shown_before + 1, len(lab.hints))
    name = manifest.HINT_LEVELS[level - 1][1] if level <= len(manifest.HINT_LEVELS) \
        else f"level {level}"
    print(f"Hint {level} of {len(lab.hints)} for {lab.name}: {name}\n")
    print(lab.hints[level - 1].strip())
    data.setdefault("hints", {})[lab.id] = level
    save(FILE, data)
