"""Every figure of the course by its number, where each is committed, and what each is now.

A lesson's source defines Figure N.M with a caption line, `**Figure N.M** caption`, under the
image line `![alt text](figures/figure-N-M.svg)`, whose alt text says in a sentence what the
picture shows (tests/authoring/test_figures.py holds it to that). The module for that lesson
(lesson_NN_slug.py) draws it: its FIGURES maps the number to a function that takes the title
("Figure N.M: caption") and returns the SVG text. The alt text goes into the SVG as its <desc>,
so the picture says what it shows wherever it is opened on its own, not only in the lesson.
"""
from __future__ import annotations

import re
from pathlib import Path
from xml.sax.saxutils import escape
from typing import Callable

from lab.check import manifest
from tools.figures import (lesson_01_remembers, lesson_02_tools, lesson_03_loop,
                           lesson_04_boundary, lesson_05_exits, lesson_06_budgets,
                           lesson_07_events, lesson_08_harness, lesson_09_steering,
                           lesson_10_repair, lesson_11_log, lesson_12_compaction,
                           lesson_13_prompt, lesson_14_door, lesson_15_stop,
                           lesson_16_stream)

LESSONS = (lesson_01_remembers, lesson_02_tools, lesson_03_loop, lesson_04_boundary,
           lesson_05_exits, lesson_06_budgets, lesson_07_events, lesson_08_harness,
           lesson_09_steering, lesson_10_repair, lesson_11_log, lesson_12_compaction,
           lesson_13_prompt, lesson_14_door, lesson_15_stop, lesson_16_stream)
FIGURES: dict[str, Callable[[str], str]] = {
    number: draw for module in LESSONS for number, draw in module.FIGURES.items()}

CAPTION = re.compile(r"^\*\*Figure (\d+)\.(\d+)\*\* (.+)$", re.M)
IMAGE = re.compile(r"^!\[([^\]]*)\]\(figures/figure-(\d+)-(\d+)\.svg\)$", re.M)  # alt, N, M


def captions() -> dict[str, tuple[manifest.Lesson, str]]:
    """Every figure a lesson's source defines, "1.1" -> (its lesson, its caption)."""
    found = {}
    for lesson in manifest.lessons():
        if lesson.source.exists():
            for major, minor, words in CAPTION.findall(lesson.source.read_text(encoding="utf-8")):
                found[f"{major}.{minor}"] = (lesson, words.strip())
    return found


def alt_texts() -> dict[str, str]:
    """Every figure's alt text, "1.1" -> the words of its image line in its lesson's source."""
    found = {}
    for lesson in manifest.lessons():
        if lesson.source.exists():
            for alt, major, minor in IMAGE.findall(lesson.source.read_text(encoding="utf-8")):
                found[f"{major}.{minor}"] = alt
    return found


def described(svg: str, alt: str | None) -> str:
    """`svg` with `alt` as its <desc>, right after its <title>; unchanged without one."""
    if not alt:
        return svg
    return svg.replace("</title>\n", f"</title>\n<desc>{escape(alt)}</desc>\n", 1)


def path(number: str) -> Path:
    """Where Figure `number` is committed: in the lesson's own folder, beside its notebook."""
    major, minor = number.split(".")
    return manifest.lesson(int(major)).folder / "figures" / f"figure-{major}-{minor}.svg"


def files() -> dict[Path, str]:
    """Each figure's SVG, drawn now, by the path it is committed at."""
    named = captions()
    missing = sorted(set(FIGURES) - set(named), key=manifest.key)
    if missing:
        raise SystemExit(f"tools/figures draws Figure {', '.join(missing)}, which no lesson "
                         "defines with a **Figure N.M** caption line")
    alts = alt_texts()
    return {path(number): described(draw(f"Figure {number}: {named[number][1]}"),
                                     alts.get(number))
            for number, draw in sorted(FIGURES.items(), key=lambda kv: manifest.key(kv[0]))}
