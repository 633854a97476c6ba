"""Build each lesson's notebook from its Markdown source, and pin what its cells print.

A lesson is written as source/lessons/NN-slug/lesson.md in jupytext's Markdown format (```python
blocks are code cells, the rest is Markdown; two blank lines split a Markdown cell). Building
it expands the course's directives into plain Markdown and HTML and numbers the cells
(cell-01, cell-02, ...). The committed lesson.ipynb is exactly what build() makes.

What each code cell prints is pinned once, in source/lessons/NN-slug/outputs.json (cell id ->
text), and nowhere else: the notebook a student opens carries no outputs and no expected
outputs, so no cell's answer sits beside its question. Whatever compares a run with the pins
reads them with pins() and compares with mismatches(); the kit's tests re-run every notebook
that way (tests/authoring/test_notebooks.py).

Directives, each on lines of their own in a Markdown cell:

    ::: predict            (or `::: predict many` for a multi-select)
    The question, in Markdown.
    - [ ] a choice
      > its feedback, which says whether it is right
    - [x] a right choice
      > its feedback
    :::

    {{ hints 15.1 }}       the lab's three hint levels, a collapsed <details> each
    {{ tests 15.1 }}       the lab's tests in plain words
    {{ starter 15.1 }}     the diff from the previous reference, the whole starter, the check

Everything they produce is Markdown with <details> blocks: no JavaScript, widgets or outputs,
so feedback shows in an untrusted notebook, in VS Code and in GitHub's static viewer.

usage: python -m tools.notebooks build|check|pin [NN ...]
"""
from __future__ import annotations

import argparse
import ast
import base64
import dataclasses
import difflib
import html
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import jupytext
import nbformat

from lab.check import manifest, suite

KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}
HINT_TITLES = [f"Hint {n}: {words}" for n, (_, words) in enumerate(manifest.HINT_LEVELS, 1)]


class LessonError(ValueError):
    """The lesson's source breaks the directive grammar; the message names the lesson."""


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
            raise LessonError(f"{where}: in a prediction, after the first choice every line is "
                              f"a choice or an indented '> feedback' line, not {line!r}")
        elif not choices:
            question.append(line)
    problem = None
    if not "".join(question).strip():
        problem = "has no question"
    elif len(choices) < 2:
        problem = "needs at least two choices"
    elif any(not "".join(c["feedback"]).strip() for c in choices):
        problem = "has a choice without feedback"
    elif not any(c["right"] for c in choices):
        problem = "marks no choice right with [x]"
    elif not many and sum(c["right"] for c in choices) > 1:
        problem = "marks several choices right; write '::: predict many' for a multi-select"
    if problem:
        raise LessonError(f"{where}: the prediction {problem}")
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


def hints(lab: manifest.Lab) -> str:
    """The lab's hint levels, each a collapsed <details> of its own, one after the other: a
    reader opens one level at a time, and opening one opens no other (nested, opening the last
    would lay all three out at once). Markdown inside works because of the blank lines."""
    if len(lab.hints) != 3:
        raise LessonError(f"lab {lab.id} has {len(lab.hints)} hint levels in "
                          f"{manifest.HINTS}, not 3")
    return "\n\n".join(f"<details><summary>{title}</summary>\n\n{text.strip()}\n\n</details>"
                       for title, text in zip(HINT_TITLES, lab.hints))


def tests(lab: manifest.Lab) -> str:
    """The lab's tests as a numbered list, one sentence each."""
    if not lab.tests.is_file():
        raise LessonError(f"lab {lab.id} has no tests file at {lab.tests}")
    found = suite.describe(lab)
    if not found:
        raise LessonError(f"lab {lab.id}'s tests say nothing: no @lab_test descriptions")
    return "\n".join(f"{n}. {text}" for n, (_, text) in enumerate(found, 1)) + (
        f"\n\nThese are the tests your `tests.py` holds and `course check {lab.id}` runs, after "
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


def starter(lab: manifest.Lab) -> str:
    """What changed since the previous lab's reference and the whole starter, as links to the
    files tools/make.py writes beside the starter (JupyterLab opens them in a tab, next to the
    lesson), a count of the change, and how to check. The code stays in code files, where it
    reads as code."""
    if not lab.starter.is_file():
        raise LessonError(f"lab {lab.id} has no starter at {lab.starter}; run tools/make.py")
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
            raise LessonError(f"lab {lab.id} has no {diff.name}; run tools/make.py")
        added = sum(1 for line in diff.read_text(encoding="utf-8").splitlines()
                    if line.startswith("+") and not line.startswith("+++"))
        removed = sum(1 for line in diff.read_text(encoding="utf-8").splitlines()
                      if line.startswith("-") and not line.startswith("---"))
        out += [f"### What changed since {since}", "",
                f"[The line diff from {since}'s reference to your starter]({link(diff)}) "
                f"({added} lines in, {removed} out). Read it before you start: it shows what "
                "was done for you and where the gaps are."]
    number = lab.lesson.number
    out += ["", f"[The whole starter]({link(lab.starter)}), as the kit made it. "
            f"`course start {lab.id}` copies it to `work/{lab.folder}/harness.py`, the file you "
            "edit.", "",
            f"To check your work, run this in your lab folder:", "",
            fenced(f"python lab/lab_check.py --harness harness.py --lesson {number} tests.py"),
            "", f"or, from anywhere, `course check {lab.id}`."]
    return "\n".join(out)


EXPANDERS = {"hints": hints, "tests": tests, "starter": starter}


# --- building ----------------------------------------------------------------------------------

def expand(text: str, *, where: str, found: list[Prediction] | None = None) -> list[str]:
    """One Markdown cell's text as the Markdown of one or more cells: each directive becomes a
    cell of its own, and the text around it keeps its own cells. Fenced code is left alone.
    Each prediction read on the way is appended to `found`, when one is given."""
    cells: list[str] = []
    plain: list[str] = []
    lines = text.split("\n")
    fence = None
    i = 0

    def flush():
        if "\n".join(plain).strip():
            cells.append("\n".join(plain).strip("\n"))
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
                raise LessonError(f"{where}: {stripped!r} is neither '::: predict' nor "
                                  "'::: predict many'")
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == ":::"), None)
            if end is None:
                raise LessonError(f"{where}: a '::: predict' block has no closing ':::'")
            flush()
            read = read_prediction(lines[i + 1:end], many=len(words) == 2, where=where)
            if found is not None:
                found.append(read)
            cells.append(render_prediction(read))
            i = end + 1
            continue
        elif DIRECTIVE.match(stripped):
            kind, lab_id = DIRECTIVE.match(stripped).groups()
            try:
                lab = manifest.lab(lab_id)
            except KeyError as missing:
                raise LessonError(f"{where}: {missing.args[0]}") from None
            flush()
            cells.append(EXPANDERS[kind](lab))
            i += 1
            continue
        elif stripped.startswith("{{"):
            raise LessonError(f"{where}: {stripped!r} is not a directive; they are "
                              "{{ hints LAB }}, {{ tests LAB }} and {{ starter LAB }}")
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


def _with_figures(cell, lesson: manifest.Lesson):
    """A Markdown cell whose figures (`![caption](figures/NAME.svg)` in lesson.md) travel inside
    it as attachments: a notebook viewer that cannot follow a link relative to the notebook
    (GitHub's renders notebooks apart from the repository's files) still shows the picture,
    and the notebook stands on its own when copied. The SVG files stay where they are, drawn
    by tools/figures.py, and are what is attached."""
    found = FIGURE.findall(cell.source)
    if not found:
        return cell
    cell.attachments = {}
    for _, name in found:
        path = lesson.folder / "figures" / name
        if not path.is_file():
            raise LessonError(f"{lesson.folder.name}: a figure is missing: {path}; run "
                              "python -m tools.make figures")
        cell.attachments[name] = {"image/svg+xml": base64.b64encode(path.read_bytes()).decode()}
    cell.source = FIGURE.sub(lambda m: f"![{m.group(1)}](attachment:{m.group(2)})", cell.source)
    return cell


def build(lesson: manifest.Lesson) -> nbformat.NotebookNode:
    """The lesson's notebook, made from lesson.md: directives expanded, cells numbered
    cell-01, cell-02... (the keys of outputs.json), no outputs and no pins, so it is the same
    whatever outputs.json holds."""
    where = f"source/lessons/{lesson.folder.name}/lesson.md"
    # "md:markdown" names jupytext's own Markdown format: with plain "md" it takes the
    # `::: predict` lines for Pandoc's divs and asks for pandoc.
    source = jupytext.reads(lesson.source.read_text(encoding="utf-8"), fmt="md:markdown")
    cells = []
    for cell in source.cells:
        if cell.cell_type == "markdown":
            first = cell.source.strip().split("\n")[0]
            cells += [_with_figures(nbformat.v4.new_markdown_cell(text), lesson) for text in
                      expand(cell.source, where=f"{where}, the Markdown cell starting {first!r}")]
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


def canonical(notebook) -> str:
    """A notebook as sorted JSON, so two notebooks compare equal whatever their formatting."""
    return json.dumps(json.loads(nbformat.writes(notebook) if not isinstance(notebook, str)
                                 else notebook), sort_keys=True, ensure_ascii=False, indent=1)


def write(lesson: manifest.Lesson) -> Path:
    """Write build(lesson) to the lesson's lesson.ipynb and return its path."""
    nbformat.write(build(lesson), lesson.notebook)
    return lesson.notebook


def check(lesson: manifest.Lesson) -> list[str]:
    """What is wrong with the committed lesson.ipynb: empty when it equals build(lesson). Also
    names pins in outputs.json that no code cell has, which a renumbering leaves behind."""
    name = f"lesson {lesson.number:02d}"
    if not lesson.notebook.is_file():
        return [f"{name}: lesson.ipynb is missing; run python -m tools.notebooks build "
                f"{lesson.number}"]
    problems = []
    built = build(lesson)
    committed = lesson.notebook.read_text(encoding="utf-8")
    if canonical(committed) != canonical(built):
        problems.append(f"{name}: lesson.ipynb is not what lesson.md builds"
                        f"{_first_difference(json.loads(committed), built)}; run "
                        f"python -m tools.notebooks build {lesson.number}")
    code = {c.id for c in built.cells if c.cell_type == "code"}
    stale = sorted(set(pins(lesson)) - code)
    if stale:
        problems.append(f"{name}: outputs.json pins {', '.join(stale)}, which are not code "
                        f"cells; run python -m tools.notebooks pin {lesson.number}")
    return problems


def _first_difference(committed: dict, built) -> str:
    old = committed.get("cells", [])
    # Compared as written, since a built cell holds its source as one string and a file as
    # a list of lines.
    new = json.loads(nbformat.writes(built))["cells"]
    for number, cell in enumerate(new):
        if number >= len(old) or old[number] != cell:
            return f" (first at {cell['id']})"
    if len(old) != len(new):
        return f" ({len(old)} cells instead of {len(new)})"
    return " (in the notebook's metadata)"


# --- running -----------------------------------------------------------------------------------

def printed(cell) -> str:
    """What a code cell printed, as outputs.json holds it: its stream text, the text/plain of
    each result and display (each followed by a newline), and `Name: message` for an error,
    in output order."""
    text = []
    for output in cell.get("outputs", []):
        kind = output.get("output_type")
        if kind == "stream":
            text.append(output.get("text", ""))
        elif kind in ("execute_result", "display_data"):
            plain = output.get("data", {}).get("text/plain")
            if plain is not None:
                text.append(plain + "\n")
        elif kind == "error":
            text.append(f"{output.get('ename')}: {output.get('evalue')}\n")
    return "".join(text)


def execute(lesson: manifest.Lesson, *, timeout: int = 60, work: Path | None = None
            ) -> dict[str, str]:
    """Run the built notebook top to bottom (kernel python3, in the lesson's folder, with
    HARNESS_COURSE_AS_SOLVED=1 and HARNESS_COURSE_WORK a fresh folder named `work` unless given)
    and return each code cell's printed text by cell id. A cell that raises stops the run,
    unless it is tagged raises-exception. The desk prints the work folder's paths absolute in
    a notebook, so the work folder is written `<work>` in what this returns: pins do not
    depend on the machine."""
    from nbclient import NotebookClient

    notebook = build(lesson)
    with tempfile.TemporaryDirectory(prefix="course-") as scratch:
        # Named "work" like a student's; its place is written <work> in what is returned.
        folder = Path(work) if work is not None else Path(scratch) / "work"
        folder.mkdir(parents=True, exist_ok=True)
        kit = str(Path(__file__).resolve().parent.parent)  # where `lab` imports from
        env = dict(os.environ, HARNESS_COURSE_WORK=str(folder), HARNESS_COURSE_AS_SOLVED="1",
                   PYTHONPATH=os.pathsep.join(filter(None, [kit, os.environ.get("PYTHONPATH")])))
        client = NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                                resources={"metadata": {"path": str(lesson.folder)}})
        client.execute(env=env)
        places = sorted({str(folder.resolve()), str(folder)}, key=len, reverse=True)

    def machine_free(text: str) -> str:
        for place in places:
            text = text.replace(place, "<work>")
        return text
    return {cell.id: machine_free(printed(cell)) for cell in notebook.cells
            if cell.cell_type == "code"}


def mismatches(lesson: manifest.Lesson, printed: dict[str, str]) -> dict[str, str]:
    """Each code cell whose text in `printed` (what execute() returns) is not its pin in
    outputs.json, as cell id -> the cell's id and first line, then a unified diff from the pin
    to what it printed. A code cell with no pin is a mismatch too. Empty when the run matches."""
    pinned = pins(lesson)
    out = {}
    for cell in build(lesson).cells:
        if cell.cell_type != "code":
            continue
        expected, actual = pinned.get(cell.id), printed.get(cell.id, "")
        if expected == actual:
            continue
        head = f"{cell.id} ({(cell.source.splitlines() or [''])[0]})"
        if expected is None:
            out[cell.id] = (f"{head}: outputs.json has no pin for it; run python -m "
                            f"tools.notebooks pin {lesson.number}")
            continue
        diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                         "pinned", "actual", lineterm=""))
        # Texts that differ only in line endings or a last newline make no line diff: show both.
        out[cell.id] = "\n".join([head, *diff] if diff else
                                 [head, f"pinned {expected!r}", f"actual {actual!r}"])
    return out


def pin(lesson: manifest.Lesson) -> dict[str, str]:
    """Run the lesson and make what it printed the pinned outputs: write outputs.json, and
    nothing else, since the notebook does not hold them. Returns the pins."""
    found = execute(lesson)
    lesson.outputs.write_text(
        json.dumps(found, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return found


# --- the command line ----------------------------------------------------------------------------

def written() -> list[manifest.Lesson]:
    """Every lesson that has a lesson.md, in course order."""
    return [lesson for lesson in manifest.lessons() if lesson.source.is_file()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.notebooks",
                                     description="Build, check or pin lesson notebooks.")
    parser.add_argument("action", choices=("build", "check", "pin"))
    parser.add_argument("lessons", nargs="*", type=int,
                        help="lesson numbers (default: every lesson with a lesson.md)")
    args = parser.parse_args(argv)
    chosen = [manifest.lesson(n) for n in args.lessons] if args.lessons else written()
    status = 0
    for lesson in chosen:
        if not lesson.source.is_file():
            print(f"lesson {lesson.number:02d}: no lesson.md yet", file=sys.stderr)
            status = 1
            continue
        try:
            if args.action == "build":
                print(f"wrote {write(lesson).relative_to(manifest.KIT)}")
            elif args.action == "pin":
                found = pin(lesson)
                print(f"lesson {lesson.number:02d}: pinned {len(found)} code cells")
            else:
                problems = check(lesson)
                for problem in problems:
                    print(problem, file=sys.stderr)
                status = status or int(bool(problems))
                if not problems:
                    print(f"lesson {lesson.number:02d}: lesson.ipynb is up to date")
        except LessonError as problem:
            print(problem, file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
