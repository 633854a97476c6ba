"""The instructor's class page (report.html, grader/page/) as Chromium draws it, scripts off.

A class made as bench/grading.py makes its class of 100, with every kind it holds (the
reference, the starter and each gap opened in turn, files that wait or spin, and the crashing
kinds) but 23 students, is graded for lab 15.1 with the grader's command; its
report.html is served on 127.0.0.1 and opened with JavaScript disabled, every request beyond
127.0.0.1 refused. The page must show the class picture (a row per student, a cell per test,
coloured and marked pass or fail) and the most-failed rules, each with its link into the lesson
that teaches it. A screenshot goes to tests/browser/output/class_page.png either way.

    .venv/bin/python -m pytest -m browser tests/browser/test_class_page_in_browser.py
"""
from __future__ import annotations

import json

import pytest

from bench import grading as bench
from grader.__main__ import main
from lab.check import manifest
from tests.browser.page import VIEWPORT, launched, only_here, reached_only_here, shoot
from tests.browser.site_server import served

pytestmark = pytest.mark.browser

# Every kind of the bench's class, a few of each: the starter and each of 15.1's ten gaps opened
# need 11 partial files; the files that wait or spin cost a guard's seconds each, so the page
# gets two and one, where the bench's 100 (bench.CLASS) have twelve and three; four crash, one
# of each kind.
CLASS = {"full": 4, "partial": 12, "waits": 2, "busy": 1, "crashes": 4}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("class-page-browser")
    folder, out = root / "class", root / "out"
    folder.mkdir()
    bench.generate(folder, manifest.lab("15.1"), CLASS)
    # On the lab's own tests: the page is the same page, and CI's time goes to what it tests.
    assert main(["grade", "--lab", "15.1", str(folder), "--out", str(out), "--quiet",
                 "--jobs", "2", "--own-lab-only"]) == 0
    return out / "lab-15.1"  # the lab's own folder in the class folder


# What the page shows, read from the drawn page rather than the file.
SHOWN = """() => {
    const box = el => el.getBoundingClientRect();
    const picture = document.querySelector('#picture table.picture');
    const rows = [...picture.querySelectorAll('tbody tr')];
    const cells = rows.flatMap(row => [...row.querySelectorAll('td.p, td.f, td.n')]);
    return {
        pictureHeading: document.querySelector('#picture h2').innerText,
        pictureWidth: box(picture).width,
        students: rows.map(row => row.querySelector('th').innerText),
        cells: cells.length,
        colours: [...new Set(cells.map(c => getComputedStyle(c).backgroundColor))],
        marks: [...new Set(cells.map(c => c.innerText))],
        rules: [...document.querySelectorAll('#rules ol.rules > li')].map(li => ({
            says: li.querySelector('.says').innerText,
            link: (li.querySelector('a') || {}).href || '',
            visible: box(li).height > 0})),
    };
}"""


def test_the_class_page_shows_the_class_picture_and_the_most_failed_rules(graded, tmp_path):
    grades = json.loads((graded / "grades.json").read_text(encoding="utf-8"))
    outside: list[str] = []
    with launched() as browser, served(graded) as here:
        # The page's own scripts are off (it must read without any); Playwright's evaluate
        # still reads the drawn page, from a world of its own.
        context = browser.new_context(viewport=VIEWPORT, java_script_enabled=False)
        try:
            context.route("**/*", only_here(outside))
            page = context.new_page()
            page.goto(here + "report.html")
            shoot(page, "class_page.png", tmp_path)
            shown = page.evaluate(SHOWN)
        finally:
            context.close()
    reached_only_here(outside, "the class page")
    names = sorted(r["student"] for r in grades["submissions"])
    assert len(names) == sum(CLASS.values())
    assert shown["pictureHeading"] == "The class picture"
    assert sorted(shown["students"]) == names
    assert shown["cells"] == len(names) * len(grades["tests"])
    assert {"✓", "✗"} <= set(shown["marks"]), shown["marks"]
    assert len(shown["colours"]) >= 2, "pass and fail are drawn in one colour"
    assert shown["rules"], "no most-failed rules are shown"
    assert all(rule["visible"] for rule in shown["rules"])
    says = {t["says"] for t in grades["tests"]}
    assert all(rule["says"] in says for rule in shown["rules"])
    assert any("/lessons/15-stop.html#Build:-" in rule["link"] for rule in shown["rules"])
