"""The kit's generated files against their committed copies: what differs, and writing them.

Both front doors that generate files (`python -m tools.make` and `python -m tools.figures`)
hand their files here as {path: text}, so both report and write them the same way.
"""
from __future__ import annotations

from pathlib import Path

from lab.check import manifest


def differences(files: dict[Path, str]) -> list[str]:
    """One line for each file that is missing or differs from `files`, sorted by path."""
    out = []
    for path, text in sorted(files.items()):
        if not path.exists():
            out.append(f"missing: {path.relative_to(manifest.KIT)}")
        elif path.read_text(encoding="utf-8") != text:
            out.append(f"differs: {path.relative_to(manifest.KIT)}")
    return out


def write(files: dict[Path, str]) -> None:
    """Write each file whose committed text differs, saying so; leave the others untouched,
    so that their times do not change."""
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(manifest.KIT)}")
