"""The lessons' figures: every figure a lesson defines is shown by an image beside it, every
committed image is shown by its lesson, and every image is exactly what tools/figures/ draws
now, so a figure cannot drift from its code or from the reference it was drawn from."""
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
            major, minor, caption = found.groups()
            image = (f"![Figure {major}.{minor}: {caption.strip()}]"
                     f"(figures/figure-{major}-{minor}.svg)")
            assert i >= 2 and lines[i - 1] == "" and lines[i - 2] == image, (
                f"{lesson.source.relative_to(manifest.KIT)}, line {i + 1}: Figure "
                f"{major}.{minor}'s caption must stand under its image, a blank line between:\n"
                f"{image}")


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
    """No script, no embedded HTML, no linked file: GitHub shows an SVG through an <img>, which
    drops all three. Text stays text, on a white card, so it is legible on a dark theme."""
    for path, svg in drawn.items():
        root = ET.fromstring(svg.split("?>", 1)[1])
        where = path.relative_to(manifest.KIT)
        assert root.tag == f"{SVG}svg" and root.get("viewBox"), where
        tags = {element.tag.removeprefix(SVG) for element in root.iter()}
        assert not tags & {"script", "foreignObject", "image", "use", "style"}, where
        assert "href" not in svg and "@import" not in svg, where
        number = path.stem.removeprefix("figure-").replace("-", ".")
        assert root.find(f"{SVG}title").text.startswith(f"Figure {number}: "), where
        background = root.find(f"{SVG}rect")
        assert background.get("fill") == PAPER and \
            background.get("width") == root.get("width"), where
        assert "text" in tags, where


def test_every_notebook_carries_its_figures_inside_it():
    """A viewer that cannot follow a link beside the notebook (GitHub renders notebooks apart
    from the repository's files) still shows each figure: the built notebook attaches the very
    bytes tools/figures/ drew, and links to nothing outside itself."""
    import base64
    import json
    for lesson in manifest.lessons():
        cells = json.loads(lesson.notebook.read_text(encoding="utf-8"))["cells"]
        attached = {name: data for cell in cells
                    for name, data in (cell.get("attachments") or {}).items()}
        text = "".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
        assert "](figures/" not in text, f"{lesson.folder.name} links a figure outside itself"
        for path in sorted((lesson.folder / "figures").glob("*.svg")):
            assert path.name in attached, f"{lesson.folder.name} does not carry {path.name}"
            data = attached[path.name]["image/svg+xml"]  # nbformat may store it as a list
            assert base64.b64decode("".join(data)) == path.read_bytes()


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
