"""A desk command as a student types it where they are: `course hint 15.1` in a terminal,
`course.hint("15.1")` in a notebook cell.

The browser's page (manifest.IN_BROWSER) has no terminal, so a line that tells a student what to
type says the cell's form there. Every such line, in the engine (the checker's closing line) and
at the desk, asks here, so the two forms are written once and cannot drift apart.
"""
from __future__ import annotations

from lab.check import manifest


def in_terminal(verb: str, lab_id: str | None = None, **flags: bool) -> str:
    """`course start 15.1 --force`: the command, its lab, and each flag that is on."""
    words = ["course", verb, *([lab_id] if lab_id else [])]
    return " ".join(words + [f"--{name}" for name, on in flags.items() if on])


def in_cell(verb: str, lab_id: str | None = None, **flags: bool) -> str:
    """`course.start("15.1", force=True)`: the desk's function of the same name, called."""
    arguments = [f'"{lab_id}"'] if lab_id else []
    arguments += [f"{name}=True" for name, on in flags.items() if on]
    return f"course.{verb}({', '.join(arguments)})"


def command(verb: str, lab_id: str | None = None, *, quoted: bool = True, **flags: bool) -> str:
    """The command as typed where this Python runs: the cell's form in the browser's page, the
    terminal's elsewhere; in backticks (Markdown's code) unless not `quoted`."""
    said = (in_cell if manifest.IN_BROWSER else in_terminal)(verb, lab_id, **flags)
    return f"`{said}`" if quoted else said


def anywhere(verb: str, lab_id: str | None = None, **flags: bool) -> str:
    """Both forms, each labelled, for a student on a computer, who may be in a notebook or in a
    terminal; in the browser's page, the cell's form alone."""
    cell = in_cell(verb, lab_id, **flags)
    if manifest.IN_BROWSER:
        return cell
    return f"{cell} in a cell, or {in_terminal(verb, lab_id, **flags)} in a terminal"
