"""Lesson cells of a student release that need something the release leaves out.

A release (python -m grader release) leaves out the reference solutions, and the labs after the
one it goes up to. A lesson cell that loads a missing reference, or works on a lab still to
come, would stop with a traceback there; the release replaces its code with a call to replay(),
keeps the code under the call as comments to read, and writes beside the lesson, in
recorded.json, what the cell printed on the reference when the course was made. Run, the cell
prints that text under one line saying where it comes from, so the lesson still shows what it
talks about and Run All goes on.

When the student's own file of every lab such a cell needs passes its own check in the work
folder, replay() first runs the cell's code on those files (course.yours in place of
course.reference). It says it did only when they print exactly the recorded text, the one
behaviour the lesson's words were written against; otherwise it shows the record and says the
student's files printed something else.
"""
from __future__ import annotations

import contextlib
import io
import json
import re

import lab
from lab.check import manifest
from lab.check.errors import UserError
from lab.desk import words_cells as words
from lab.desk.progress import FILE as PROGRESS, lab_state, passed_in
from lab.desk.workfolder import load

FILE = "recorded.json"  # in a release's lessons/NN-slug/: cell id -> needs, later, code, printed
REFERENCE = re.compile(r"""course\.reference\(\s*["']([\d.]+)["']\s*\)""")


def labs(ids) -> str:
    """"lab 5.1", "labs 4.1 and 5.1": lab ids as a student reads them."""
    return words.labs(list(ids))


def notice(needs) -> str:
    """The line over a recorded output: whose output it is, and that the release lacks it."""
    return words.recorded_shown(list(needs))


def text(entry: dict) -> str:
    """What a replayed cell prints when it shows its record. The release puts exactly this text
    in its copy of the notebook as the cell's output, so running the cell changes nothing."""
    if entry.get("later"):
        return words.comes_later(list(entry["later"]))
    if entry.get("printed") is None:
        return words.recorded_unprinted(list(entry["needs"]))
    return notice(entry["needs"]) + "\n" + entry["printed"]


def entries(lesson: str) -> dict:
    """The lesson's recorded.json (`lesson` is its folder name, "05-exits"); empty if none."""
    path = manifest.LESSONS / lesson / FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def replay(lesson: str, cell: str, namespace: dict | None = None) -> None:
    """Print what the lesson's cell `cell` printed on the reference, under a line saying so; or,
    when the student's own files of every lab it needs pass their own checks and print the
    same, run it on them in `namespace` (the notebook's globals()) and say so. When a lab it
    needs passes only inside a later lab's check, the line says why the record is shown: the
    student has no file of that lab, or theirs has not passed. Never raises for a missing
    reference or lab: that is the point of the cell."""
    entry = entries(lesson).get(cell)
    if entry is None:
        print(words.record_missing(lesson, FILE, cell))
        return
    if entry.get("later") or namespace is None:
        print(text(entry), end="")
        return
    why = _not_yours(entry["needs"])
    if why is not None:
        none, unpassed = why
        print(text(entry) if not (none or unpassed) or entry.get("printed") is None else
              words.recorded_instead(list(entry["needs"]), none, unpassed) + entry["printed"],
              end="")
        return
    before = dict(namespace)
    printed = _on_yours(entry["code"], entry["needs"], namespace)
    if printed is None:
        print(text(entry), end="")
        return
    if printed == entry.get("printed"):
        print(words.ran_on_yours(list(entry["needs"])))
        print(printed, end="")
        return
    # A run that went astray leaves the notebook's names as they were before it.
    for name in set(namespace) - set(before):
        del namespace[name]
    namespace.update(before)
    print(words.recorded_differs(list(entry["needs"])))
    print(entry.get("printed") or "", end="")


def _not_yours(needs) -> tuple[list[str], list[str]] | None:
    """None when the student's own file of every lab in `needs` passed its own last check, so
    the cell may run on them. Otherwise why the record is shown instead, as two lists of labs
    whose tests pass only in a later lab's check: those the student has no file of, and those
    whose file has not passed its own check; both empty when some lab's tests have passed in
    no check."""
    try:
        checks = load(PROGRESS).get("checks", {})
        kinds = {lab_id: lab_state(manifest.lab(lab_id), checks)[0] for lab_id in needs}
        if all(kind == "passing" for kind in kinds.values()):
            return None
        if any(passed_in(lab_id) is None for lab_id in needs):
            return [], []
    except UserError:  # a broken progress.json, a lab this copy does not have: not passing
        return [], []
    none = [lab_id for lab_id, kind in kinds.items() if kind == "covered"]
    unpassed = [lab_id for lab_id, kind in kinds.items() if kind not in ("covered", "passing")]
    return none, unpassed


def _on_yours(code: str, needs, namespace: dict) -> str | None:
    """What the code printed (as outputs.json records a cell) when run in `namespace` with the
    student's files of the labs in `needs` in place of their references; None when it cannot
    run outside IPython (magics, a top-level await), or when the notebook has not imported
    `course` yet, which the code is written against (the desk never imports its own face)."""
    if "course" not in namespace:
        return None
    try:
        mine = REFERENCE.sub(lambda m: f'course.yours("{m[1]}")' if m[1] in needs else m[0],
                             code)
        compiled = compile(mine, "<this cell, on your files>", "exec")
    except SyntaxError:
        return None
    namespace.setdefault("lab", lab)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compiled, namespace)
    except Exception as exc:  # the student's file failed here: the record is shown instead
        return out.getvalue() + f"{type(exc).__name__}: {exc}\n"
    return out.getvalue()
