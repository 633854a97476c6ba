"""A lesson's notebook, built from its Markdown source, and the outputs pinned for its cells.

A lesson is written as source/lessons/NN-slug/lesson.md in jupytext's Markdown format (```python
blocks are code cells, the rest is Markdown; two blank lines split a Markdown cell). Building
it expands the course's directives into plain Markdown and HTML and numbers the cells
(cell-01, cell-02, ...). The committed lesson.ipynb is exactly what build() makes.

What each code cell prints is pinned once, in source/lessons/NN-slug/outputs.json (cell id ->
text), and read only by pins(): the notebook a student opens carries no outputs and no expected
outputs, so no cell's answer sits beside its question.

Directives, each on lines of their own in a Markdown cell:

    ::: predict            (or `::: predict many` for a multi-select)
    The question, in Markdown.
    - [ ] a choice
      > its feedback, which says whether it is right
    - [x] a right choice
      > its feedback
    :::

    {{ hints 15.1 }}       a code cell that shows one of the lab's hints when asked
    {{ tests 15.1 }}       the lab's tests in plain words
    {{ starter 15.1 }}     the diff from the previous reference, the whole starter, the check

The others produce Markdown with <details> blocks: no JavaScript, widgets or outputs, so
feedback shows in an untrusted notebook, in VS Code and in GitHub's static viewer. The hints
stay out of the notebook: its cell asks `course.hint` for them (lab/desk/hints.py), so no hint
sits in the page or in its JSON before the student asks for it.

`[general]` marks, for authors and reviewers, a claim backed by neither the lab nor Tau's
source (CURRICULUM.md); it is an authoring tag, and the page leaves it out.

It lives in the grader, which is installed, because the student release builds the notebook of
a lesson not built yet, and records its cells' pins (grader/release/); the authors' command
line around it, which also checks, runs and pins, is tools/notebooks.py.
"""
from __future__ import annotations

import dataclasses
import html
import json
import os
import re
from collections.abc import Callable

import jupytext
import nbformat

from lab.check import manifest, spoken, suite
from lab.check.errors import UnknownLab, UserError


from grader.errors import Refused
from grader.refusals import (HintLevels, NoFigure, NotAChoice, NotADirective, NoTestsFile, NotMade,
                              NotPredict, PredictionFault, TestsSayNothing, Unclosed,
                              UnknownLabIn)
KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}
GENERAL = re.compile(r" ?\[general\]")


class LessonError(Refused, UserError, ValueError):
    """A lesson's source breaks the directive grammar, or a lab it names lacks a made file;
    its refusal names the lesson and what to run."""


# --- inline Markdown inside HTML -------------------------------------------------------------

CODE_SPAN = re.compile(r"(`+)(.+?)\1")
STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
EMPHASIS = re.compile(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])")
LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def inline(text: str) -> str:
    """Inline Markdown as HTML: code spans, bold, emphasis and links, with everything else
    escaped. Markdown is not parsed inside an HTML <summary>, so it is converted here."""
    pieces = []
    last = 0
    for match in CODE_SPAN.finditer(text):
        pieces.append(_prose(text[last:match.start()]))
        pieces.append(f"<code>{html.escape(match.group(2).strip(), quote=False)}</code>")
        last = match.end()
    pieces.append(_prose(text[last:]))
    return "".join(pieces)


def _prose(text: str) -> str:
    text = html.escape(text, quote=False)
    text = LINK.sub(lambda m: f'<a href="{html.escape(m.group(2))}">{m.group(1)}</a>', text)
    text = STRONG.sub(r"<strong>\1</strong>", text)
    return EMPHASIS.sub(r"<em>\2</em>", text)


def fenced(text: str, info: str = "") -> str:
    """`text` in a code fence longer than any run of backticks inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text.rstrip()}\n{fence}"


# --- predictions -----------------------------------------------------------------------------

CHOICE = re.compile(r"^- \[( |x|X)\] (.+)$")
FEEDBACK = re.compile(r"^\s+>\s?(.*)$")


@dataclasses.dataclass
class Prediction:
    """One `::: predict` block as read: its question, its choices in order (each a dict with
    "text", "right" and "feedback", a list of lines), and whether it is a multi-select."""
    question: str
    choices: list[dict]
    many: bool


def read_prediction(lines: list[str], *, many: bool, where: str) -> Prediction:
    """One `::: predict` block (its lines without the fences), read and checked against the
    grammar: the one reader of predictions, for building and for the kit's tests of them."""
    question: list[str] = []
    choices: list[dict] = []
    for line in lines:
        choice, feedback = CHOICE.match(line), FEEDBACK.match(line)
        if choice:
            choices.append({"text": choice.group(2).strip(), "right": choice.group(1) != " ",
                            "feedback": []})
        elif feedback and choices:
            choices[-1]["feedback"].append(feedback.group(1).rstrip())
        elif choices and line.strip():
            raise LessonError(NotAChoice(where, line))
        elif not choices:
            question.append(line)
    fault = None
    if not "".join(question).strip():
        fault = "no question"
    elif len(choices) < 2:
        fault = "one choice"
    elif any(not "".join(c["feedback"]).strip() for c in choices):
        fault = "no feedback"
    elif not any(c["right"] for c in choices):
        fault = "none right"
    elif not many and sum(c["right"] for c in choices) > 1:
        fault = "several right"
    if fault:
        raise LessonError(PredictionFault(where, fault))
    return Prediction("\n".join(question).strip(), choices, many)


def render_prediction(read: Prediction) -> str:
    """A read prediction as Markdown and HTML: a <details> per choice, and for a multi-select
    a last <details> that reveals the right choices."""
    choices, many = read.choices, read.many
    out = [read.question, ""]
    for letter, choice in zip(LETTERS, choices):
        out.append(f"<details><summary><b>{letter}.</b> {inline(choice['text'])}</summary>"
                   f"{_paragraphs(choice['feedback'])}</details>")
    if many:
        right = "".join(f"<li><b>{letter}.</b> {inline(c['text'])}</li>"
                        for letter, c in zip(LETTERS, choices) if c["right"])
        out.append(f"<details><summary>Reveal the answer</summary><ul>{right}</ul></details>")
    return "\n".join(out)


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _paragraphs(lines: list[str]) -> str:
    """Feedback lines as HTML paragraphs: lines join into one, a blank `>` line starts a new
    one."""
    paragraphs, current = [], []
    for line in lines + [""]:
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(f"<p>{inline(' '.join(current))}</p>")
            current = []
    return "".join(paragraphs)


# --- the lab directives ----------------------------------------------------------------------

DIRECTIVE = re.compile(r"^\{\{\s*(hints|tests|starter)\s+(\S+)\s*\}\}$")


@dataclasses.dataclass(frozen=True)
class Code:
    """A code cell a directive makes, among the Markdown texts expand() returns."""
    source: str


def hints(lab: manifest.Lab, *, page: bool = False) -> Code:
    """A cell that shows one of the lab's hints when the student asks, by changing its level
    from 0: it names the level rather than asking for the next, so that running every cell
    again shows the same hint and never walks on to the outline. `course.hint` remembers the
    furthest level shown, as the terminal's `course hint` does. The same in the browser's
    `page`, where course.hint reads the packed hints."""
    if len(lab.hints) != 3:
        raise LessonError(HintLevels(lab.id, len(lab.hints), manifest.HINTS))
    return Code(f"# Runs on: plain Python. Lab {lab.id}'s hints, one at a time and only when you "
                "want one:\n# set the 0 to 1 (questions), 2 (the approach) or 3 (the outline) "
                f"and run this cell.\ncourse.hint(\"{lab.id}\", 0)")


def tests(lab: manifest.Lab, *, page: bool = False) -> str:
    """The lab's tests as a numbered list, one sentence each, and the command that runs them:
    the terminal's, or for the browser's `page` a cell's."""
    if not lab.tests.is_file():
        raise LessonError(NoTestsFile(lab.id, lab.tests))
    found = suite.describe(lab)
    if not found:
        raise LessonError(TestsSayNothing(lab.id))
    return "\n".join(f"{n}. {text}" for n, (_, text) in enumerate(found, 1)) + (
        f"\n\nThese are the tests your `tests.py` holds and `{_check(lab, page)}` runs, after "
        "every earlier lab's. An instructor may grade with more tests of their own, which you "
        "do not see.")


def _previous(lab: manifest.Lab) -> manifest.Lab | None:
    order = list(manifest.labs())
    at = order.index(lab)
    return order[at - 1] if at else None


def _since(lab: manifest.Lab, previous: manifest.Lab) -> str:
    if previous.lesson.number == lab.lesson.number:
        return "the previous lab"
    if len(previous.lesson.labs) == 1:
        return f"lesson {previous.lesson.number}"
    return previous.name


def _check(lab: manifest.Lab, page: bool) -> str:
    """The command that checks the lab, as typed in a terminal, or in a cell of the `page`."""
    return (spoken.in_cell if page else spoken.in_terminal)("check", lab.id)


def starter(lab: manifest.Lab, *, page: bool = False) -> str:
    """What changed since the previous lab's reference and the whole starter, as links to the
    files tools/make.py writes beside the starter (JupyterLab opens them in a tab, next to the
    lesson), a count of the change, and how to check: in a terminal, or for the browser's
    `page`, which has none, in a cell. The code stays in code files, where it reads as code."""
    if not lab.starter.is_file():
        raise LessonError(NotMade(lab.id, lab.starter))
    here = lab.lesson.folder
    link = lambda path: os.path.relpath(path, here).replace(os.sep, "/")  # noqa: E731
    previous = _previous(lab)
    out = []
    if previous is None:
        out.append("### Your starter")
    else:
        since = _since(lab, previous)
        diff = lab.starter.parent / "changes.diff"
        if not diff.is_file():
            raise LessonError(NotMade(lab.id, diff.name))
        added = sum(1 for line in diff.read_text(encoding="utf-8").splitlines()
                    if line.startswith("+") and not line.startswith("+++"))
        removed = sum(1 for line in diff.read_text(encoding="utf-8").splitlines()
                      if line.startswith("-") and not line.startswith("---"))
        out += [f"### What changed since {since}", "",
                f"[The line diff from {since}'s reference to your starter]({link(diff)}) "
                f"({added} lines in, {removed} out). Read it before you start: it shows what "
                "was done for you and where the gaps are."]
    number = lab.lesson.number
    start = (spoken.in_cell if page else spoken.in_terminal)("start", lab.id)
    out += ["", f"[The whole starter]({link(lab.starter)}), as the kit made it. "
            f"`{start}` copies it to `work/{lab.folder}/harness.py`, the file you edit.", ""]
    if page:
        return "\n".join(out + ["To check your work, run this in a cell:", "",
                                fenced(_check(lab, page), "python")])
    out += ["To check your work, run this in your lab folder:", "",
            fenced(f"python lab/lab_check.py --harness harness.py --lesson {number} tests.py"),
            "", f"or, from anywhere, `{_check(lab, page)}`."]
    return "\n".join(out)


EXPANDERS: dict[str, Callable[..., str | Code]] = {"hints": hints, "tests": tests,
                                                   "starter": starter}


# --- building ----------------------------------------------------------------------------------

def expand(text: str, *, where: str, found: list[Prediction] | None = None,
           page: bool = False) -> list[str | Code]:
    """One Markdown cell's text as the Markdown of one or more cells: each directive becomes a
    cell of its own (in the browser's words for a `page`; a Code one for the hints), and the
    text around it keeps its own cells; `[general]` tags are left out. Fenced code is left alone. Each prediction read on the way is appended to `found`,
    when one is given."""
    cells: list[str | Code] = []
    plain: list[str] = []
    lines = text.split("\n")
    fence = None
    i = 0

    def flush():
        if "\n".join(plain).strip():
            cells.append(GENERAL.sub("", "\n".join(plain)).strip("\n"))
        plain.clear()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        opening = re.match(r"^(`{3,}|~{3,})", stripped)
        if fence:
            if stripped.startswith(fence):
                fence = None
        elif opening:
            fence = opening.group(1)
        elif re.match(r"^:::\s*predict\b", stripped):
            words = stripped[3:].split()
            if words not in (["predict"], ["predict", "many"]):
                raise LessonError(NotPredict(where, stripped))
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == ":::"), None)
            if end is None:
                raise LessonError(Unclosed(where))
            flush()
            read = read_prediction(lines[i + 1:end], many=len(words) == 2, where=where)
            if found is not None:
                found.append(read)
            cells.append(GENERAL.sub("", render_prediction(read)))
            i = end + 1
            continue
        elif directive := DIRECTIVE.match(stripped):
            kind, lab_id = directive.groups()
            try:
                lab = manifest.lab(lab_id)
            except UnknownLab as missing:
                raise LessonError(UnknownLabIn(where, missing.fact)) from None
            flush()
            cells.append(EXPANDERS[kind](lab, page=page))
            i += 1
            continue
        elif stripped.startswith("{{"):
            raise LessonError(NotADirective(where, stripped))
        plain.append(line)
        i += 1
    flush()
    return cells


def pins(lesson: manifest.Lesson) -> dict[str, str]:
    """The lesson's outputs.json: cell id -> the text that cell prints. Empty if there is none.
    The only place pins are read from, since the notebooks do not carry them."""
    path = lesson.outputs
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def predictions(lesson: manifest.Lesson) -> list[Prediction]:
    """Every `::: predict` block of the lesson's lesson.md, in order, found and read exactly as
    build() finds and reads them."""
    found: list[Prediction] = []
    where = f"source/lessons/{lesson.folder.name}/lesson.md"
    source = jupytext.reads(lesson.source.read_text(encoding="utf-8"), fmt="md:markdown")
    for cell in source.cells:
        if cell.cell_type == "markdown":
            expand(cell.source, where=where, found=found)
    return found


FIGURE = re.compile(r"!\[([^\]]*)\]\(figures/([\w.-]+\.svg)\)")


def _figures_beside(cell, lesson: manifest.Lesson):
    """A Markdown cell whose figures (`![alt text](figures/NAME.svg)` in lesson.md) stay plain
    links to the SVGs beside the notebook, drawn by tools/figures/, once the missing are
    refused. A link, not an attachment: JupyterLab, and so the browser site, refuses SVG
    attachments (jupyterlab/jupyterlab#10464), and JupyterLab, JupyterLite, VS Code, GitHub
    and nbviewer all draw a relative image, and every copy of a lesson (the release, the site)
    takes its figures/ folder with it."""
    for _, name in FIGURE.findall(cell.source):
        path = lesson.folder / "figures" / name
        if not path.is_file():
            raise LessonError(NoFigure(lesson.folder.name, path))
    return cell


def build(lesson: manifest.Lesson, *, page: bool = False) -> nbformat.NotebookNode:
    """The lesson's notebook, made from lesson.md: directives expanded, cells numbered
    cell-01, cell-02... (the keys of outputs.json), no outputs and no pins, so it is the same
    whatever outputs.json holds. With `page`, the notebook as the browser's site shows it
    (tools/site.py): the same cells, but the how-to-check text names a cell's call, since the
    page has no terminal; the committed notebook is the one without."""
    where = f"source/lessons/{lesson.folder.name}/lesson.md"
    # "md:markdown" names jupytext's own Markdown format: with plain "md" it takes the
    # `::: predict` lines for Pandoc's divs and asks for pandoc.
    source = jupytext.reads(lesson.source.read_text(encoding="utf-8"), fmt="md:markdown")
    cells = []
    for cell in source.cells:
        if cell.cell_type == "markdown":
            first = cell.source.strip().split("\n")[0]
            cells += [nbformat.v4.new_code_cell(text.source) if isinstance(text, Code) else
                      _figures_beside(nbformat.v4.new_markdown_cell(text), lesson) for text in
                      expand(cell.source, where=f"{where}, the Markdown cell starting {first!r}",
                             page=page)]
        else:
            code = nbformat.v4.new_code_cell(cell.source)
            code.metadata.update(cell.metadata)
            cells.append(code)
    for number, cell in enumerate(cells, 1):
        cell.id = f"cell-{number:02d}"
    notebook = nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": dict(KERNEL), "language_info": {"name": "python"}})
    notebook.nbformat_minor = 5
    nbformat.validate(notebook)
    return notebook

