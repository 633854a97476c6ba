"""Every lesson's figures, drawn in a real browser where students read the lessons: in the kit's
JupyterLab and in the course's browser site (JupyterLite, tools/site.py).

For every lesson it opens the notebook in headless Chromium (no cell is run), waits until each
Markdown cell is rendered and each image in it has been given its address and has loaded or
failed, and then asks the page, not the notebook file: every <img> of rendered Markdown whose
address is one of the lesson's figures (lessons/NN-slug/figures/NAME.svg in JupyterLab; in
JupyterLite, which inlines a local image, a data: URL of that file's bytes) must be complete
with a natural width above 0, and the figures drawn must be exactly the figure links of the
lesson's source (source/lessons/NN-slug/lesson.md), so a figure cannot pass by being absent. A
failure names the lesson, the figure file and every image the page showed. Every request to a
host other than 127.0.0.1 is refused (page.fresh_page) and fails the test. Screenshots of a
failure go to the test's tmp_path and tests/browser/output/.

JupyterLab runs on a copy of the kit's lessons folder (tests/browser/jupyterlab_server.py); the
site is the whole course, built by `python -m tools.site build` and served from a thread. Both
keep every cell drawn (windowingMode "none").

    .venv/bin/python -m pytest -m browser tests/browser/test_figures_drawn.py
"""
from __future__ import annotations

import base64
import contextlib
import re
import urllib.parse

import nbformat
import pytest

from grader.lesson_notebooks import FIGURE
from lab.check import manifest
from tests.browser.jupyterlab_server import jupyterlab, tail
from tests.browser.page import (chromium, fresh_page, launched, playwright_api,
                                reached_only_here, shoot)
from tests.browser.site_server import address, built_site, served
from tools import site

pytestmark = pytest.mark.browser

SECONDS_TO_OPEN = 120  # the page, JupyterLab and the notebook's first cell
SECONDS_TO_DRAW = 60  # every Markdown cell rendered and every image in it settled

# What the page shows of the notebook: its Markdown cells, how many are rendered, and each image
# in them as the browser holds it.
SHOWN = """() => {
    const cells = [...document.querySelectorAll('.jp-NotebookPanel .jp-Notebook .jp-MarkdownCell')];
    return {
        cells: cells.length,
        rendered: cells.filter(cell => cell.classList.contains('jp-mod-rendered')).length,
        images: cells.flatMap(cell => [...cell.querySelectorAll('.jp-RenderedMarkdown img')])
            .map(img => ({src: img.getAttribute('src') || '', url: img.currentSrc || img.src,
                          alt: img.alt, complete: img.complete, width: img.naturalWidth})),
    };
}"""
# Settled: every Markdown cell rendered, as many images in them as the notebook's Markdown
# writes (a cell is marked rendered before its HTML is in), and each given its address by
# JupyterLab (its src no longer the link as written) and loaded or failed.
SETTLED = """([markdown, written]) => {
    const shown = (%s)();
    return shown.cells === markdown && shown.rendered === markdown &&
        shown.images.length === written.length &&
        shown.images.every(img => !written.includes(img.src) && img.complete);
}""" % SHOWN
IMAGE_LINK = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)|<img[^>]*\ssrc=\"([^\"]+)\"")


def lessons() -> list[manifest.Lesson]:
    return [lesson for lesson in manifest.lessons() if lesson.notebook.is_file()]


def linked(lesson: manifest.Lesson) -> list[str]:
    """The figure files the lesson's source links, in order: what the page must draw."""
    return [name for _, name in FIGURE.findall(lesson.source.read_text(encoding="utf-8"))]


def written(lesson: manifest.Lesson) -> tuple[int, list[str]]:
    """(Markdown cells, image addresses as written) of the notebook the page opens: the
    committed one, which the kit's tests hold equal to what its source builds."""
    cells = [cell for cell in nbformat.read(lesson.notebook, as_version=4).cells
             if cell.cell_type == "markdown"]
    links = [a or b for cell in cells for a, b in IMAGE_LINK.findall(cell.source)]
    return len(cells), links


def figure_of(url: str, lesson: manifest.Lesson) -> str | None:
    """The figure file an image's address points at, when it is one of this lesson's: a URL
    of lessons/NN-slug/figures/NAME.svg (JupyterLab), or a data: URL holding that file's very
    bytes (JupyterLite's resolver reads a local image and inlines it)."""
    if url.startswith("data:"):
        header, _, data = url.partition(",")
        content = (base64.b64decode(data) if header.endswith(";base64")
                   else urllib.parse.unquote_to_bytes(data))
        return next((path.name for path in sorted((lesson.folder / "figures").glob("*.svg"))
                     if path.read_bytes() == content), None)
    path = urllib.parse.unquote(urllib.parse.urlsplit(url).path)
    found = re.search(rf"/lessons/{re.escape(lesson.folder.name)}/figures/([\w.-]+\.svg)$", path)
    return found.group(1) if found else None


def problems(lesson: manifest.Lesson, shown: dict, settled: bool) -> list[str]:
    """What is wrong with the lesson's figures as the page showed them; empty when each is
    drawn. Each problem names the lesson and the figure file."""
    name = lesson.folder.name
    expected = linked(lesson)
    figures = [(figure_of(img["url"], lesson), img) for img in shown["images"]]
    drawn = [figure for figure, img in figures
             if figure and img["complete"] and img["width"] > 0]
    found = [f"lesson {name}: {figure} is shown but not drawn (complete={img['complete']}, "
             f"naturalWidth={img['width']})" for figure, img in figures
             if figure and not (img["complete"] and img["width"] > 0)]
    found += [f"lesson {name}: {figure} is not drawn" for figure in expected
              if drawn.count(figure) < expected.count(figure)]
    found += [f"lesson {name}: {figure} is drawn but its source does not link it" for figure
              in sorted(set(drawn)) if drawn.count(figure) > expected.count(figure)]
    if found:
        images = "; ".join(f"<img alt={img['alt'][:60]!r} src={img['src'][:90]!r} "
                           f"complete={img['complete']} naturalWidth={img['width']}>"
                           for img in shown["images"]) or "no image at all"
        found.append(f"lesson {name}: the page showed {shown['rendered']} of {shown['cells']} "
                     f"Markdown cells rendered{'' if settled else ' (not settled in time)'} "
                     f"and {images}")
    return found


def drawn_in(api, browser, url: str, lesson: manifest.Lesson, outside: list[str],
             tmp_path, place: str) -> tuple[list[str], int]:
    """Open the lesson's notebook at `url` in a fresh profile of `browser` and judge its
    figures; returns (problems, figures drawn)."""
    shot = f"figures-{place}-{lesson.folder.name}.png"
    with fresh_page(browser, outside, tmp_path, shot) as page:
        page.goto(url, timeout=SECONDS_TO_OPEN * 1000)
        page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for(
            timeout=SECONDS_TO_OPEN * 1000)
        settled = True
        try:
            page.wait_for_function(SETTLED, arg=list(written(lesson)),
                                   timeout=SECONDS_TO_DRAW * 1000)
        except api.TimeoutError:
            settled = False
        shown = page.evaluate(SHOWN)
        found = problems(lesson, shown, settled)
        count = sum(1 for img in shown["images"] if figure_of(img["url"], lesson)
                    and img["complete"] and img["width"] > 0)
        if found:
            with contextlib.suppress(Exception):
                images = page.locator(".jp-MarkdownCell .jp-RenderedMarkdown img")
                if images.count():
                    images.first.scroll_into_view_if_needed()
                shoot(page, shot, tmp_path)
        return found, count


def every_lesson(api, address_of, tmp_path, place: str) -> dict[str, int]:
    """Open every lesson at `address_of(lesson)`, each in a fresh profile of one browser, and
    fail, naming every problem, unless each one's figures are all drawn and no request left
    127.0.0.1; returns the figures drawn by lesson."""
    outside: list[str] = []
    counts, found = {}, []
    with launched() as browser:
        for lesson in lessons():
            wrong, counts[lesson.folder.name] = drawn_in(
                api, browser, address_of(lesson), lesson, outside, tmp_path, place)
            found += wrong
    print(f"figures drawn in {place}, by lesson: {counts}")
    if found:
        pytest.fail("\n".join(found), pytrace=False)
    reached_only_here(outside)
    return counts


def test_every_lessons_figures_are_drawn_in_jupyterlab(tmp_path):
    api = playwright_api()
    chromium()  # named as missing before JupyterLab is started
    with jupyterlab(tmp_path, [manifest.KIT / "lessons"]) as (base, token, log):
        try:
            every_lesson(api, lambda lesson: (
                f"{base}/lab/tree/lessons/{lesson.folder.name}/lesson.ipynb?reset&token={token}"),
                tmp_path, "jupyterlab")
        except BaseException:
            print(f"JupyterLab's log ({log}):\n{tail(log)}")
            raise


def test_every_lessons_figures_are_drawn_in_the_browser_site(tmp_path, tmp_path_factory):
    api = playwright_api()
    chromium()  # named as missing before the site is built
    built = built_site(tmp_path_factory)
    with served(built) as base:
        every_lesson(api, lambda lesson: address(base, site.notebook(lesson.folder.name)),
                     tmp_path, "site")
