"""Writing a release into its folder, and carrying forward what the student changed there.

Later releases go into the same folder as the first. Each writes STATE, the hash of every file
it wrote, so the next can tell a file the student changed (a saved lesson notebook) from one
the kit changed: a changed file stays as it is when the new release brings the same version,
and otherwise is kept beside the new version as NAME.yours.EXT. Nothing else in the folder is
read or written: the work folder, and every file no release wrote, are left alone.
"""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from lab.check import manifest

from grader.errors import ReleaseError
from grader.refusals import NotARelease, ReleaseBackwards
from grader.release.notes import Release

STATE = manifest.RELEASE_STATE  # what the last release wrote here: its lab, each file's hash
BESIDE = ".yours"  # a changed copy the next release found is kept as NAME.yours.EXT


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def earlier(out: Path, last: str) -> dict:
    """What the release already in `out` wrote (its STATE file); {} for a new or empty folder.
    Refused when `out` holds other files, or a release of a lab after `last`: a release goes
    forward, and the lab after `last` would give away the answer to `last`."""
    if not out.exists() or not any(out.iterdir()):
        return {}
    state = out / STATE
    if not state.is_file():
        raise ReleaseError(NotARelease(out, STATE))
    found = json.loads(state.read_text(encoding="utf-8"))
    if manifest.key(found["through"]) > manifest.key(last):
        raise ReleaseError(ReleaseBackwards(out, found["through"], last))
    return found


def install(out: Path, stage: Path, shipped: list[Path], before: dict[str, str],
            release: Release) -> dict[str, str]:
    """Copy the files `shipped` from `stage` to the same places in `out`, and return path ->
    hash of each.
    `before` holds the hashes the last release wrote. A file that is missing, or unchanged since
    the last release, gets the new version; a file changed here since (the student's saved
    notebook, say) stays as it is when the new version is the one shipped before, and otherwise
    is moved aside as NAME.yours.EXT and replaced. Nothing else in `out` is read or written: the
    student's work folder, and any file a release did not write, are left alone."""
    written = {}
    for source in shipped:
        path = source.relative_to(stage).as_posix()
        if path.split("/")[0] == "work":
            raise RuntimeError(f"the release would write into the work folder ({path})")
        target = out / path
        digest = _digest(source.read_bytes())
        written[path] = digest
        if not target.exists():
            release.added.append(path)
        else:
            here = _digest(target.read_bytes())
            if here == digest:
                continue
            if before.get(path) == digest:  # the student changed it; the kit did not
                release.left.append(path)
                continue
            if before.get(path) != here:  # changed here since the last release wrote it
                aside = _beside(target)
                target.rename(aside)
                release.kept[path] = aside.relative_to(out).as_posix()
            else:
                release.updated.append(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    return written


def _beside(target: Path) -> Path:
    """A free name beside `target` for the student's copy: lesson.yours.ipynb, then
    lesson.yours-2.ipynb, ..."""
    suffix = target.suffix if target.stem else ""
    stem = target.name[:len(target.name) - len(suffix)]
    for n in range(1, 1000):
        candidate = target.with_name(f"{stem}{BESIDE}{'' if n == 1 else f'-{n}'}{suffix}")
        if not candidate.exists():
            return candidate
    raise RuntimeError(f"no free name beside {target}")


def remove_unshipped(out: Path, before: dict[str, str], files: dict[str, str],
                     release: Release) -> None:
    """Remove each file the last release wrote (`before`) that this one did not (`files`),
    unless it changed here since, and each folder that leaves empty."""
    for path, digest in before.items():
        target = out / path
        if path not in files and target.is_file() and _digest(target.read_bytes()) == digest:
            target.unlink()
            release.removed.append(path)
            for parent in target.parents:
                if parent == out or any(parent.iterdir()):
                    break
                parent.rmdir()


def write_state(out: Path, release: Release, files: dict[str, str]) -> None:
    """Write STATE, which the next release into `out` reads: this one's last lab, its
    references, the hash of each file it wrote, the keys of the lab changes it knew (so the
    next tells only newer ones); and whether labs come after its last,
    which the checker reads (manifest.more_to_come) to say the next release brings them."""
    (out / STATE).write_text(json.dumps({"through": release.through,
                                         "references": release.references,
                                         "more": release.more,
                                         "changes": release.known,
                                         "files": files}, indent=1, sort_keys=True) + "\n",
                             encoding="utf-8")
