"""Lesson 15 in the course's browser site (tools/site.py), with no network beyond this machine.

Takes the site built once for the run (site_server.built_site: `tools.site.build`, whose
downloads come from .site-cache/ after the first build), serves it on 127.0.0.1 from a thread, and opens lesson 15's notebook
in headless Chromium through Playwright in a fresh profile, with every request to a host other
than 127.0.0.1 refused and recorded (none may be made). Then, as a student would: runs all cells
from the Run menu, in the kernel that runs in the page. The run reaches the end (its start
cells start both labs, and the cells that run the student's unfilled file end without an
error); every cell before the first of those must have printed its pinned text exactly, apart
from those that print the work folder's paths. Opens the first prediction; the run's start cell
has told a student who begins at lesson 15 that lab 15.1 starts all the same, in one line, and
a new cell starting it again keeps the file; runs the practice check in a new cell and sees lab_check.py's report of the starter, line for
line after the line naming the file (its closing line's commands as the page types them); does
the same with the lab's reference, which passes; asks for a hint and the progress view, which
shows the practice check; opens the student's harness.py from the browser's storage in
JupyterLab's editor. No request of the page may get a 404 along the way (a figure's link as
written, JupyterLab's api/resolvePath and the drive's all.json files when a traceback renders
once did), but one: JupyterLite asks the site for the listing (all.json) of each folder the
kernel makes in the browser's storage, which the site cannot hold (course.start's work folders,
each first made as "Untitled Folder" and renamed: jupyterlite's DriveFS mkdir). Screenshots go
to the test's tmp_path and tests/browser/output/.

Needs what test_lesson_in_browser.py needs, and the kit's `site` extra
(`pip install -e '.[site]'`); the first build needs PyPI and the npm registry.

    .venv/bin/python -m pytest -m browser tests/browser/test_site_in_browser.py
"""
from __future__ import annotations

import json
import re
import shutil
import zipfile

import pytest

from lab.check.lines import PRACTICE
from lab.check import manifest
from tests.browser.page import (answer_prediction, checkers_report, chromium, highest_count,
                                playwright_api, ran_to_its_end, run_all, shoot, typed_and_run)
from tests.browser.site_server import (address, built_site, lesson_opened,
                                       open_from_the_file_browser, site_tab)
from tools import notebooks

pytestmark = pytest.mark.browser

LESSON = manifest.lesson(15)
LAB = manifest.lab("15.1")
LATER = manifest.lab("15.2")
NOTICE = f"lab {LATER.id} has not passed its check yet"  # lab/desk/guard.py's notice
SECONDS_TO_RUN = 300  # the lesson's cells, then the practice check, in the page's Python
# The one 404 a lesson's page may get: the site's listing of a folder made in the browser's storage.
MADE_IN_THE_PAGE = re.compile(r"/api/contents/(work(/[^/]+)*|([^/]+/)*Untitled%20Folder\d*)"
                              r"/all\.json$")
# Cells whose output holds the work folder's paths, which the pins write as <work>.
TOUCHES_WORK = ("course.start(", "course.yours(", "course.respond(", "course.recall(")


def after_checking(text: str) -> str:
    """A report from the line after its `Checking ...` line on, which names the file's path."""
    lines = text.strip().splitlines()
    return "\n".join(lines[[n for n, line in enumerate(lines) if line.startswith("Checking ")][0]
                           + 1:])


def test_lesson_15_and_its_practice_check_run_in_the_browser_site_with_no_network(
        tmp_path, tmp_path_factory):
    api = playwright_api()
    chromium()  # named as missing before the site is built
    count, expected = checkers_report(LAB.starter, LAB)
    solution_count, solution_expected = checkers_report(LAB.solution, LAB)
    assert count.endswith(" failed") and not count.endswith(" 0 failed"), \
        "the starter must fail its own lab for this test to mean anything"
    built = built_site(tmp_path_factory)
    if shutil.which("node"):  # tools/site_bytecode.py compiles them with the site's Pyodide
        folder = built / "static" / "pyodide"
        python = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))
        tag = "cpython-" + "".join(python["info"]["python"].split(".")[:2])
        with zipfile.ZipFile(next(folder.glob("harness_course-*.whl"))) as wheel:
            compiled = [n for n in wheel.namelist() if n.endswith(".pyc")]
        assert f"lab/check/__pycache__/spin.{tag}.pyc" in compiled and \
            all(n.startswith("lab/") for n in compiled), \
            f"with Node on PATH, the kit's wheel holds lab's modules compiled: {compiled[:5]}"
    code = [c for c in notebooks.build(LESSON).cells if c.cell_type == "code"]
    pins = notebooks.pins(LESSON)

    with site_tab(built, tmp_path, "site-failure.png") as (page, base):
        missing = []
        page.on("response", lambda answer: answer.status == 404 and not MADE_IN_THE_PAGE.search(
            answer.url) and missing.append(answer.url))
        notebook = lesson_opened(page, base, LESSON.folder.name)
        states = run_all(page, SECONDS_TO_RUN)

        ran = [done for done, _ in states]
        assert all(ran), (f"Run All stopped at code cell {ran.index(False) - 1}: "
                          f"{states[ran.index(False) - 1][1][-800:]}")
        # Compared with the pins up to the first cell that runs the student's unfilled file.
        stopped = next(n for n, c in enumerate(code) if "course.yours(" in c.source)
        cells = notebook.locator(".jp-CodeCell")
        for n in range(stopped):
            if any(call in code[n].source for call in TOUCHES_WORK):
                continue
            cells.nth(n).scroll_into_view_if_needed()  # a cell out of view is not drawn
            if pins[code[n].id].strip():
                cells.nth(n).locator(".jp-OutputArea-output").first.wait_for()
            shown = cells.nth(n).locator(".jp-OutputArea").inner_text()
            assert shown.strip() == pins[code[n].id].strip(), (
                f"code cell {n} ({code[n].id}) printed, in the browser:\n{shown}\n"
                f"and its pin says:\n{pins[code[n].id]}")
        shoot(page, "site-lesson15-run.png", tmp_path)

        answer_prediction(api, page, LESSON)
        shoot(page, "site-lesson15-prediction.png", tmp_path)

        start = next(n for n, c in enumerate(code) if f'course.start("{LAB.id}")' in c.source)
        said = cells.nth(start).locator(".jp-OutputArea").inner_text()
        assert f"Lab {manifest.before(LAB.id)[-1].id} has not passed a check of yours" in said, \
            said  # begun here: started all the same, and told so in one line
        started = typed_and_run(page, notebook, len(code) - 1,
                                f'course.start("{LAB.id}", force=True)')
        api.expect(started).to_contain_text(f'course.check("{LAB.id}")', timeout=60_000)

        report = typed_and_run(page, notebook, len(code), f'course.check("{LAB.id}")')
        api.expect(report).to_contain_text(count, timeout=SECONDS_TO_RUN * 1000)
        ran_to_its_end(api, notebook, len(code) + 1, SECONDS_TO_RUN)
        text = report.inner_text()
        assert text.startswith(PRACTICE + "\n"), text[:300]
        assert after_checking(text) == expected, (
            "the practice report is not the checker's; the cell's whole output ends:\n"
            + cells.nth(len(code) + 1).locator(".jp-OutputArea").inner_text()[-1500:])
        report.scroll_into_view_if_needed()
        shoot(page, "site-lesson15-practice-check.png", tmp_path)

        solved = typed_and_run(page, notebook, len(code) + 1, (
            "from pathlib import Path; from lab.check.lines import check_aloud; check_aloud("
            f"Path('/drive/{LAB.solution.relative_to(manifest.KIT).as_posix()}'), "
            f"Path('/drive/{LAB.tests.relative_to(manifest.KIT).as_posix()}'), "
            f"{LAB.lesson.number}, practice=True)"))
        api.expect(solved).to_contain_text(solution_count, timeout=SECONDS_TO_RUN * 1000)
        ran_to_its_end(api, notebook, len(code) + 2, SECONDS_TO_RUN)
        assert after_checking(solved.inner_text()) == solution_expected

        desk = typed_and_run(page, notebook, len(code) + 2,
                             f'course.hint("{LAB.id}"); course.progress()')
        passed, failed = (int(word) for word in count.split()[::2])
        api.expect(desk).to_contain_text(f"failing ({passed}/{passed + failed})",
                                         timeout=60_000)
        assert f"Hint 1 of 3 for {LAB.name}" in desk.inner_text()

        # With every lab of the lesson started and unfilled, the lesson's cells run to the end in
        # this kernel too: a cell whose unfinished code raises prints the guard's words and ends
        # without an error (lab/desk/guard.py clears it after the cell, as under ipykernel).
        later = typed_and_run(page, notebook, len(code) + 3,
                              f'course.start("{LATER.id}", force=True)')
        api.expect(later).to_contain_text(f'course.check("{LATER.id}")', timeout=60_000)
        notebook.locator(".jp-CodeCell").nth(len(code)).click()
        again = run_all(page, SECONDS_TO_RUN, since=highest_count(page),
                        command="notebook:run-all-above")[:len(code)]
        assert all(ran for ran, _ in again), (
            "Run All stopped in the browser at code cell "
            f"{[ran for ran, _ in again].index(False) - 1} with both labs started: "
            f"{again[[ran for ran, _ in again].index(False) - 1][1][-800:]}")
        unfinished = [n for n, c in enumerate(code) if f'course.yours("{LATER.id}")' in c.source]
        shown = [cells.nth(n).locator(".jp-OutputArea").inner_text() for n in unfinished]
        assert shown and all(NOTICE in text for text in shown), shown
        assert any("\nTraceback, " in text for text in shown), (
            "the unfilled starter must raise in one of these cells for Run All's end to show "
            f"that the error was forgiven: {shown}")

        page.goto(address(base, f"work/{LAB.folder}/harness.py"), timeout=60_000)
        first = LAB.starter.read_text(encoding="utf-8").splitlines()[0]
        editor = page.locator(".jp-FileEditor .cm-content")
        try:  # the page opens a file by its address once it has laid out its last tabs again,
            editor.wait_for(timeout=30_000)  # which on a busy machine can come after this wait
        except api.TimeoutError:  # (CI, 2026-12-07): then it is opened as a student would
            open_from_the_file_browser(page, f"work/{LAB.folder}/harness.py")
        api.expect(editor).to_contain_text(first, timeout=60_000)
        shoot(page, "site-lab15.1-harness.png", tmp_path)
        assert not missing, f"requests of the page answered 404: {sorted(set(missing))}"
