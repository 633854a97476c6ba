"""Lesson 15 as a student sees it: in JupyterLab, in a real browser.

Starts `jupyter lab` on a copy of the lesson folder (tests/browser/jupyterlab_server.py);
opens lessons/15-stop/lesson.ipynb in headless Chromium through Playwright, with every request to
a host other than 127.0.0.1 refused and recorded (none may be made); runs all cells from
the Run menu; waits until every code cell has run and a line the lesson's prose relies on is on
the page; opens the right choice of the first prediction and checks that its feedback, and only
its, is now shown; requires that no JupyterLab extension failed to load on the way (one
installed for the browser site, the Pyodide kernel's, once logged "Shared module
@jupyterlite/services doesn't exist in shared scope" here); and saves screenshots to the test's tmp_path and to tests/browser/output/
(git-ignored). JupyterLab is always shut down. Every wait has a bound.

Needs Debian's chromium (/usr/bin/chromium, or $HARNESS_COURSE_CHROMIUM) and Playwright's
Python package (`pip install -e '.[browser]'`; Playwright's own browser download is not used).
Without either it fails, naming what to install.

    .venv/bin/python -m pytest -m browser
"""
from __future__ import annotations

import pytest

from lab.check import manifest
from tests.browser.jupyterlab_server import jupyterlab, tail
from tests.browser.page import (answer_prediction, chromium, kernel_idle, opened, playwright_api,
                                run_all_and_wait, shoot)
from tools import notebooks

pytestmark = pytest.mark.browser

LESSON = manifest.lesson(15)
# The record of a stopped batch: the shape the lesson's prose and its lab are built around.
KNOWN_SHAPE = "U A[c1,c2,c3] R(c1) R(c2) R(c3) A(aborted)"
SECONDS_TO_RUN = 180  # every cell of the lesson, run from the browser
# What JupyterLab logs when an extension it found cannot load (its index.js).
NOT_LOADED = ("doesn't exist in shared scope", "Failed to create module", "Failed to load module")


def known_line() -> str:
    """The first pinned output line holding KNOWN_SHAPE: what the page must show once run."""
    pinned = notebooks.pins(LESSON)
    for text in pinned.values():
        for line in text.splitlines():
            if KNOWN_SHAPE in line:
                return line.strip()
    pytest.fail(f"{LESSON.outputs.relative_to(manifest.KIT)} pins no line with {KNOWN_SHAPE!r}; "
                "the lesson's prose relies on that record, so this test looks for it.",
                pytrace=False)


def test_lesson_15_runs_and_answers_a_prediction_in_chromium(tmp_path):
    api = playwright_api()
    chromium()  # named as missing before JupyterLab is started
    line = known_line()

    with jupyterlab(tmp_path, [LESSON.folder]) as (base, token, log):
        url = f"{base}/lab/tree/lessons/{LESSON.folder.name}/lesson.ipynb?reset&token={token}"
        try:
            with opened(tmp_path, "lesson15-failure.png") as page:
                logged = []
                page.on("console", lambda message: logged.append(message.text))
                page.goto(url, timeout=60_000)
                notebook = page.locator(".jp-NotebookPanel .jp-Notebook")
                notebook.locator(".jp-CodeCell").first.wait_for(timeout=60_000)
                kernel_idle(page).wait_for(timeout=60_000)  # before it, Run All asks for one
                run_all_and_wait(page, SECONDS_TO_RUN)
                kernel_idle(page).wait_for(timeout=30_000)

                shown = notebook.locator(".jp-OutputArea-output", has_text=line).first
                api.expect(shown).to_be_visible(timeout=10_000)
                shown.scroll_into_view_if_needed()
                shoot(page, "lesson15-output.png", tmp_path)

                answer_prediction(api, page, LESSON)
                shoot(page, "lesson15-prediction.png", tmp_path)
                failed = [text for text in logged if any(words in text for words in NOT_LOADED)]
                assert not failed, f"JupyterLab could not load an extension it found: {failed}"
        except BaseException:
            print(f"JupyterLab's log ({log}):\n{tail(log)}")
            raise
