"""Where the course teaches a rule: the lesson section a lab is built in, and the catalogue's
wrong designs a class's failures look like.

Sections: a lesson has one "## Build: ..." heading per lab, in the order of its labs (the
lessons' source keeps them so), and the link points at the lab's in the lesson rendered to HTML
beside the page (lessons/NN-slug.html, by nbconvert, the maintained converter Jupyter itself
uses, its figures inlined): a browser shows it as a page, not as a notebook's JSON, and the
link is relative, so it holds when the folder is moved or copied elsewhere. The anchor is the
heading's text with each space made a hyphen, which is how nbconvert (and JupyterLab) name a
heading.

Wrong designs: starters/wrong_designs.json, which `python -m tools.make` writes from the
catalogue (source/wrong_designs/, which neither the grader may import nor a release holds).
Each design's `names` is the words a failing test's sentence or the rule it broke holds when a
lab's tests catch it (the kit's own test of the catalogue holds every design to that); a failed
test of the same lab whose sentence or broken rules (grades.json's "rule" of each failure, the
authors' words: never the sentences the kit made of a failure, which a translation rewords)
hold them fails the way that design does.
Where the file is missing (a student release) the page shows no designs.
"""
from __future__ import annotations

import functools
import hashlib
import html
import importlib.metadata
import json
import os
import re
from dataclasses import dataclass
from collections.abc import Iterable, Sequence
from pathlib import Path

import platformdirs

from lab.check import manifest
from lab.check.rules import Rule

from grader import words_page

DESIGNS = "wrong_designs.json"  # in starters/


@dataclass(frozen=True)
class Section:
    lesson: str  # "Lesson 15: Meeting the real world"
    heading: str  # "Build: ask the run to stop"
    notebook: Path

    def anchor(self) -> str:
        return self.heading.replace(" ", "-")

    def href(self) -> str:
        """A link to the section from a page beside the rendered lessons (`render`)."""
        return f"{LESSONS}/{self.notebook.parent.name}.html#{self.anchor()}"


LESSONS = "lessons"  # beside a lab's report.html: each linked lesson rendered to HTML


def render(sections: list[Section], here: Path) -> list[Path]:
    """Write each section's lesson as HTML into `here`/lessons/, once each, with its figures
    inlined and no script (nbconvert's basic template in a page of its own), so it opens in
    any browser from wherever the folder is."""
    written = []
    for notebook in sorted({s.notebook for s in sections}):
        target = Path(here) / LESSONS / f"{notebook.parent.name}.html"
        target.parent.mkdir(exist_ok=True)
        title = next((s.lesson for s in sections if s.notebook == notebook), "")
        target.write_text(_page(notebook, title), encoding="utf-8")
        written.append(target)
    return written


def _page(notebook: Path, title: str) -> str:
    """The lesson's page, from the machine's cache when the same notebook was rendered by the
    same nbconvert, with the same figures, before: a lesson takes nbconvert one to four seconds, and a class is graded
    again and again on one lesson. The cache is keyed by everything the page is made of, so a
    changed lesson is rendered afresh; a cache that cannot be written is only not kept."""
    source = notebook.read_bytes()
    figures = sorted((notebook.parent / "figures").glob("*"))  # inlined into the page
    key = hashlib.sha256(b"\0".join([source, title.encode(), LESSON_STYLE.encode(),
                                      importlib.metadata.version("nbconvert").encode(),
                                      *(f.name.encode() + f.read_bytes() for f in figures)]))
    cached = Path(platformdirs.user_cache_dir("harness-course")) / "lessons" / \
        f"{key.hexdigest()[:32]}.html"
    try:
        return cached.read_text(encoding="utf-8")
    except OSError:
        pass
    from nbconvert import HTMLExporter  # the instructor's page alone needs it
    import nbformat
    exporter = HTMLExporter(template_name="basic")
    exporter.embed_images = True
    body, _ = exporter.from_notebook_node(
        nbformat.reads(source.decode("utf-8"), as_version=4),
        resources={"metadata": {"path": str(notebook.parent)}})
    page = ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{LESSON_STYLE}</style>"
            f"</head><body>\n{body}\n</body></html>\n")
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        part = cached.with_suffix(f".{os.getpid()}.part")
        part.write_text(page, encoding="utf-8")
        part.replace(cached)  # whole or not at all, whichever process writes it
    except OSError:
        pass
    return page


LESSON_STYLE = ("body{font:16px/1.5 system-ui,sans-serif;max-width:52em;margin:2em auto;"
                "padding:0 1em;color:#222}pre{background:#f6f6f6;padding:.6em;overflow:auto}"
                "img{max-width:100%}.jp-InputPrompt,.jp-OutputPrompt{display:none}")


@functools.cache
def _build_headings(notebook: Path) -> tuple[str, ...]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return tuple(line[3:].strip() for cell in cells if cell["cell_type"] == "markdown"
                 for line in "".join(cell["source"]).splitlines()
                 if line.startswith("## Build"))


def section(lab_id: str | None) -> Section | None:
    """The section that builds lab `lab_id`, or None (an instructor's hidden test, or a
    lesson whose notebook is not there)."""
    if lab_id is None:
        return None
    try:
        lab = manifest.lab(lab_id)
    except KeyError:
        return None
    lesson = lab.lesson
    if not lesson.notebook.is_file():
        return None
    headings = _build_headings(lesson.notebook)
    at = list(lesson.labs).index(lab)
    if at >= len(headings):
        return None
    return Section(words_page.lesson(lesson.number, lesson.title), headings[at],
                   lesson.notebook)


@functools.cache
def designs() -> tuple[dict, ...]:
    """The catalogue's designs as tools/make.py wrote them, or none where it is not there."""
    path = manifest.STARTERS / DESIGNS
    if not path.is_file():
        return ()
    return tuple(json.loads(path.read_text(encoding="utf-8")))


def designs_like(lab_id: str | None, says: str, broke: Sequence[Rule],
                 functions: Iterable[str] = ()) -> list[dict]:
    """The wrong designs of lab `lab_id` whose telltale words the test's sentence or a rule
    the class broke in it holds (`broke`: each failure's Outcome.rule, the authors' words
    and the functions they credit, never the sentences the kit made of a failure); a design
    named for one function ("..., in truncate_tail") only where that function is the one a
    broken rule credits, the failure stopped in (`functions`: its fact's) or the sentence
    names, since the same words can come from a bug in its neighbour."""
    if lab_id is None:
        return []
    text = "\n".join([says, *(rule.said for rule in broke)]).lower()
    named = {name for rule in broke for name in rule.functions} | set(functions)
    return [d for d in designs() if d["lab"] == lab_id and d["names"].lower() in text
            and _in_function(d["name"], says, named)]


def _in_function(name: str, says: str, named: set[str]) -> bool:
    function = re.search(r", in ([a-z_][a-z0-9_]*)$", name)
    return (function is None or function[1] in named
            or re.search(rf"\b{function[1]}\b", says) is not None)
