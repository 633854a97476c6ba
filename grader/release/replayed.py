"""Lesson cells the release shows as recorded: each one's code becomes a call to
lab.desk.recorded.replay() with the code kept under it as comments, its output in the shipped
notebook is the text that call prints, and recorded.json beside the lesson holds what replay()
reads (the labs the cell needs, and what it printed on the reference when the course was made).
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from lab.check import manifest
from lab.desk import recorded

from grader.release.leaks import Cell


def record(lesson: manifest.Lesson, folder: Path, cells: list[Cell], present: set) -> None:
    """Rewrite `cells` in the release's copy of the lesson's notebook, in `folder`: each calls
    recorded.replay() and keeps its code as comments, with the pinned output as its output; and
    write recorded.json, which replay() reads."""
    import nbformat

    from grader import lesson_notebooks

    path = folder / "lesson.ipynb"
    notebook = nbformat.read(path, as_version=4)
    pins = lesson_notebooks.pins(lesson)
    entries = {}
    for found in cells:
        cell = notebook.cells[found.number - 1]
        entry = {"needs": sorted(set(found.needs) - present, key=manifest.key),
                 "later": found.later, "code": cell.source,
                 "printed": None if found.later else pins.get(cell.id)}
        entries[cell.id] = entry
        cell.source = source(folder.name, cell.id, cell.source, entry)
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout",
                                               text=recorded.text(entry))]
        cell.execution_count = None
    nbformat.validate(notebook)
    # Each text one string: stored as a list of lines (nbformat's default), an output shows in
    # JupyterLite, which reads the file as it is, with its lines joined by commas.
    nbformat.write(notebook, path, split_lines=False)
    (folder / recorded.FILE).write_text(
        json.dumps(entries, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
        encoding="utf-8")


def source(lesson: str, cell: str, code: str, entry: dict) -> str:
    """A recorded cell's code in the release: a header that says what it runs on, the call that
    replays it, and the lesson's code as comments. The header replaces the kit's "# Runs on:"
    line, which promises a run this copy cannot give."""
    lines = code.splitlines()
    if lines and lines[0].startswith("# Runs on:"):
        lines = lines[1:]
    while lines and not lines[0].strip():
        lines.pop(0)
    if entry["later"]:
        words = (f"Runs on: {recorded.labs(entry['later'])}, which comes in a later release of "
                 "this course. Until then this cell says so; its code is under the call.")
    else:
        needs = entry["needs"]
        one = len(needs) == 1
        words = (f"Runs on: the {' and '.join(f'lab {n}' for n in needs)} "
                 f"reference{'' if one else 's'}, which this release does not include. Run, this "
                 f"cell shows what its code (under the call) printed on {'it' if one else 'them'} "
                 f"when the course was made; once your own {recorded.labs(needs)} "
                 f"pass{'es its' if one else ' their'} tests, it runs on your "
                 f"file{'' if one else 's'} instead, and says which it did.")
    head = textwrap.wrap(words, 96, initial_indent="# ", subsequent_indent="# ")
    call = ["from lab.desk import recorded", "",
            f"recorded.replay({lesson!r}, {cell!r}, globals())", ""]
    return "\n".join(head + call + [f"# {line}".rstrip() for line in lines])
