"""The lessons' figures: every figure a lesson defines is shown by an image beside it, with
alt text that says what it shows, every committed image is shown by its lesson, every notebook
links its figures beside it, and every image is exactly what tools/figures/ draws now, so a
figure cannot drift from its code or from the reference it was drawn from."""
import ast
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from lab.check import manifest
from tools.figures import registry
from tools.figures.canvas import PAPER

SVG = "{http://www.w3.org/2000/svg}"
MENTION = re.compile(r"Figure (\d+\.\d+)")


@pytest.fixture(scope="module")
def drawn():
    return registry.files()


def sources():
    return {lesson: lesson.source.read_text(encoding="utf-8")
            for lesson in manifest.lessons() if lesson.source.exists()}


def test_every_figure_a_lesson_defines_has_code_that_draws_it():
    defined = set(registry.captions())
    assert defined, "no lesson defines a figure: the caption pattern no longer matches"
    assert sorted(defined - set(registry.FIGURES), key=manifest.key) == [], \
        "these figures have a caption in their lesson but no function in tools/figures/"
    assert sorted(set(registry.FIGURES) - defined, key=manifest.key) == [], \
        "tools/figures/ draws these figures, but no lesson defines them"


def test_every_figure_caption_stands_under_its_image():
    for lesson, text in sources().items():
        lines = text.split("\n")
        for i, line in enumerate(lines):
            found = registry.CAPTION.match(line)
            if not found:
                continue
            major, minor, _ = found.groups()
            image = registry.IMAGE.match(lines[i - 2]) if i >= 2 else None
            assert lines[i - 1] == "" and image and image.groups()[1:] == (major, minor), (
                f"{lesson.source.relative_to(manifest.KIT)}, line {i + 1}: Figure "
                f"{major}.{minor}'s caption must stand under its image, a blank line between:\n"
                f"![what the picture shows, in a sentence](figures/figure-{major}-{minor}.svg)")


IMAGE_LINK = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
SHORTEST_ALT = 40  # characters: fewer cannot say what a figure shows
MARKUP = re.compile(r"[`*\[\]<>]|(?<!\w)_|_(?!\w)")


def alt_problem(alt: str, number: str, caption: str) -> str | None:
    """What is wrong with a figure's alt text, or None. It is what a reader who cannot see the
    picture reads in its place, before the caption under it: so it says what the picture shows,
    in a sentence of plain words, and is neither the figure's number nor its caption again."""
    words = " ".join(alt.split())
    bare = re.sub(rf"^Figure {re.escape(number)}[:.]?\s*", "", words).rstrip(".")
    if not bare or bare.lower() == caption.strip().rstrip(".").lower():
        return "is only the figure's number or its caption; say what the picture shows"
    if len(words) < SHORTEST_ALT:
        return f"is {len(words)} characters; say what the picture shows in a sentence"
    if MARKUP.search(words):
        return "holds Markdown or HTML markup, which viewers drop from alt text differently"
    if not words.endswith("."):
        return "is not a sentence: it does not end with a full stop"
    return None


def test_the_alt_text_rule_refuses_a_number_a_caption_and_a_few_words():
    caption = "Every request is a full envelope."
    described = ("Diagram of three requests, each carrying the same system prompt and the "
                 "whole list so far.")
    assert alt_problem(described, "1.1", caption) is None
    for alt in ("Figure 1.1", "Figure 1.1: Every request is a full envelope.", caption,
                "A diagram of three requests.", "Three requests, each with `the list` so far.",
                "Three requests, each carrying the same prompt and the list"):
        assert alt_problem(alt, "1.1", caption), alt


def test_every_figure_has_alt_text_that_says_what_it_shows():
    captions = registry.captions()
    for lesson, text in sources().items():
        for alt, major, minor in registry.IMAGE.findall(text):
            number = f"{major}.{minor}"
            problem = alt_problem(alt, number, captions[number][1] if number in captions else "")
            assert problem is None, (f"{lesson.source.relative_to(manifest.KIT)}: Figure "
                                     f"{number}'s alt text {problem}: {alt!r}")


def test_every_image_a_lesson_links_is_a_file_beside_its_notebook():
    """Every image in a lesson's source is a relative link to a file in the lesson's folder,
    which is what every copy of a lesson (the release, the site) takes along."""
    for lesson, text in sources().items():
        links = IMAGE_LINK.findall(text)
        assert len(links) == len(registry.IMAGE.findall(text)), (
            f"{lesson.source.relative_to(manifest.KIT)} shows an image that is not a figure "
            "on a line of its own: ![alt text](figures/figure-N-M.svg)")
        for _, target in links:
            path = lesson.folder / target
            assert "://" not in target and path.resolve().is_relative_to(lesson.folder) \
                and path.is_file(), (f"{lesson.source.relative_to(manifest.KIT)} links "
                                     f"{target}, which is not a file in {lesson.folder.name}/; "
                                     "run python -m tools.make figures")


def test_every_committed_image_is_shown_by_its_own_lesson():
    for lesson, text in sources().items():
        shown = {f"figure-{a}-{b}.svg" for *_, a, b in registry.IMAGE.findall(text)}
        folder = lesson.folder / "figures"
        committed = {p.name for p in folder.iterdir()} if folder.exists() else set()
        assert committed - shown == set(), \
            f"{folder.relative_to(manifest.KIT)} holds images its lesson never shows"
        assert shown - committed == set(), \
            f"{lesson.source.relative_to(manifest.KIT)} shows images that are not committed"


def test_every_figure_a_lesson_mentions_exists():
    defined = set(registry.captions())
    for lesson, text in sources().items():
        missing = set(MENTION.findall(text)) - defined
        assert missing == set(), \
            f"{lesson.source.relative_to(manifest.KIT)} mentions Figure {sorted(missing)}, " \
            "which no lesson defines"


def test_every_committed_figure_is_what_its_code_draws_now(drawn):
    stale = [str(path.relative_to(manifest.KIT)) for path, svg in drawn.items()
             if not path.exists() or path.read_bytes() != svg.encode("utf-8")]
    assert stale == [], f"run `python -m tools.figures`: these differ from their code: {stale}"


def test_a_figure_is_the_same_bytes_in_another_process():
    """A fresh interpreter with another hash seed draws the same bytes, so nothing in a figure
    depends on set or dict order, the clock or the machine."""
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-m", "tools.figures", "--check"], cwd=manifest.KIT,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_figures_are_plain_svg_that_every_viewer_renders(drawn):
    """No script, no embedded HTML, no linked file: every viewer shows an SVG through an <img>,
    which drops all three. A width and a height in pixels, matching its viewBox, so the <img>
    has a size of its own (a natural width above 0) and no viewer shows it as a blank of zero
    size. ASCII only (anything else as an XML character reference): the browser site inlines
    a linked SVG with JavaScript's btoa, which takes each character for one byte, so any other
    character leaves the image refused or garbled, never drawn. Text stays text, on a white card, so it is legible on a dark theme."""
    for path, svg in drawn.items():
        root = ET.fromstring(svg.split("?>", 1)[1])
        where = path.relative_to(manifest.KIT)
        assert root.tag == f"{SVG}svg" and root.get("viewBox"), where
        size = (root.get("width") or "", root.get("height") or "")
        assert all(re.fullmatch(r"[1-9]\d*", side) for side in size), (where, size)
        assert root.get("viewBox").split() == ["0", "0", *size], where
        assert svg.isascii(), f"{where} holds a character beyond ASCII"
        tags = {element.tag.removeprefix(SVG) for element in root.iter()}
        assert not tags & {"script", "foreignObject", "image", "use", "style"}, where
        assert "href" not in svg and "@import" not in svg, where
        number = path.stem.removeprefix("figure-").replace("-", ".")
        assert root.find(f"{SVG}title").text.startswith(f"Figure {number}: "), where
        background = root.find(f"{SVG}rect")
        assert background.get("fill") == PAPER and \
            background.get("width") == root.get("width"), where
        assert "text" in tags, where


def test_every_notebook_links_its_figures_beside_it_and_attaches_none():
    """Each figure is a Markdown image linking figures/NAME.svg beside the notebook, the one
    copy tools/figures/ drew: JupyterLab (and so the browser site) refuses SVG attachments
    (jupyterlab/jupyterlab#10464), while JupyterLab, JupyterLite, VS Code, GitHub and nbviewer
    all draw a relative image. tests/browser/test_figures_drawn.py sees them drawn."""
    import json
    for lesson in manifest.lessons():
        if not lesson.notebook.is_file():
            continue
        cells = json.loads(lesson.notebook.read_text(encoding="utf-8"))["cells"]
        assert not [cell["id"] for cell in cells if cell.get("attachments")], \
            f"{lesson.folder.name}'s notebook carries attachments"
        text = "".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
        linked = sorted(target.removeprefix("figures/") for _, target in IMAGE_LINK.findall(text))
        committed = sorted(p.name for p in (lesson.folder / "figures").glob("*.svg"))
        assert linked == committed, f"{lesson.folder.name}'s notebook links {linked}"


def figure_modules():
    return {path.name: ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted((manifest.KIT / "tools" / "figures").glob("*.py"))}


def test_figures_watch_a_reference_through_its_public_names_only():
    """A figure drawn from a run sees the reference only where a student's code could (its
    events, the list it is handed, its public classes and functions), never a private name or
    a frame, so renaming a reference's insides cannot change or break a figure."""
    private = []
    for name, tree in figure_modules().items():
        for node in ast.walk(tree):
            names = [alias.name for alias in getattr(node, "names", ())
                     if isinstance(alias, ast.alias)] + [getattr(node, "attr", "")]
            private += [f"{name}, line {node.lineno}: {found}" for found in names
                        if found.startswith("_") and not found.startswith("__")
                        or "frame" in found or found.startswith("f_")]
    assert private == []


def test_the_figures_do_not_import_make_which_imports_them():
    for name, tree in figure_modules().items():
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                    for alias in node.names}
        imported |= {f"{node.module}.{alias.name}" for node in ast.walk(tree)
                     if isinstance(node, ast.ImportFrom) for alias in node.names}
        assert not any(module.startswith("tools.make") for module in imported), name


def unshipped(folder) -> tuple[int, list[str]]:
    """(notebooks, links whose file is not beside them or differs from the kit's) of the
    lessons under `folder`, a copy of the course."""
    import json
    notebooks, missing = 0, []
    for notebook in sorted(folder.glob("lessons/*/*.ipynb")):  # the site names them per lesson
        notebooks += 1
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        text = "".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
        for _, target in IMAGE_LINK.findall(text):
            shipped = notebook.parent / target
            kit = manifest.KIT / "lessons" / notebook.parent.name / target
            if not shipped.is_file() or shipped.read_bytes() != kit.read_bytes():
                missing.append(f"{notebook.parent.name}/{target}")
    return notebooks, missing


def test_every_copy_of_the_lessons_ships_the_figures_its_notebooks_link(tmp_path):
    """The student release through the last lab (`python -m grader release`, which a class
    site through a lab lays out, `tools.site build --through`) and the whole course's site
    drive each hold every lesson, and each figure its notebook links, byte for byte."""
    from tools import site
    last = manifest.labs(built_only=True)[-1].id
    site._lay_out_release(tmp_path / "release", last)
    site._lay_out_drive(tmp_path / "drive")
    lessons = [lesson for lesson in manifest.lessons() if lesson.notebook.is_file()]
    for copy in ("release", "drive"):
        notebooks, missing = unshipped(tmp_path / copy)
        assert notebooks == len(lessons), f"the {copy} holds {notebooks} lessons' notebooks"
        assert missing == [], f"the {copy} lacks, or changed, figures its notebooks link"
