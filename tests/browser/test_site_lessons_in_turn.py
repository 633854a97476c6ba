"""Lessons 1, 5 and 15 opened one after another in one tab of the course's browser site
(tools/site.py), each with a kernel that starts and runs its cells.

A student goes from lesson to lesson in the tab they have: by the lesson's address (the site's
links, or a bookmark), or from JupyterLab's file browser while the lessons before are still open.
Each time the new lesson must get a kernel of its own, started in the lesson's folder (the
typed cell prints its working directory), within SECONDS_TO_START; a kernel that stays
"Initializing" is what a tester saw. The site is built once for the run (site_server.built_site),
served on 127.0.0.1, and opened in headless Chromium with every request to another host refused
(site_server.site_tab), as every browser test is.

    .venv/bin/python -m pytest -m browser tests/browser/test_site_lessons_in_turn.py
"""
from __future__ import annotations

import re
import time

import pytest

from lab.check import manifest
from tests.browser.page import kernel_idle, playwright_api, ran_to_its_end, typed_and_run
from tests.browser.site_server import (SECONDS_TO_START, address, built_site,
                                       open_from_the_file_browser, site_tab)
from tools import site

pytestmark = pytest.mark.browser

LESSONS = [manifest.lesson(number) for number in (1, 5, 15)]
SECONDS_TO_REOPEN = 45  # an address's tab not shown by then: opened from the file browser
SECONDS_TO_RUN = 60  # its first cell and one typed cell, once the kernel is idle
# Printed by the typed cell: where the kernel runs, once the lesson's first cell has imported lab.
WHERE = "import os; print('runs in', os.getcwd(), 'with', lab.__name__)"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return built_site(tmp_path_factory)


def notebook_path(lesson: manifest.Lesson) -> str:
    return str(site.notebook(lesson.folder.name))


def kernel_status(page) -> str:
    """What the status bar's kernel item reads ("Python (Pyodide) | Initializing", ...)."""
    items = page.evaluate("() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]"
                          ".map(item => item.textContent.trim())")
    return " / ".join(item for item in items if " | " in item) or "(no kernel item)"


def open_tabs(page) -> str:
    """The main area's tabs, by the path in their titles, the current one marked with a star."""
    tabs = page.evaluate("() => [...document.querySelectorAll('.lm-DockPanel .lm-TabBar-tab')]"
                         ".map(tab => (tab.classList.contains('lm-mod-current') ? '*' : '')"
                         " + (tab.getAttribute('title') || tab.textContent).split('\\n')[0])")
    return ", ".join(tabs) or "(none)"


def dialogs(page) -> str:
    """The text of every dialog the page shows, or "(none)"."""
    shown = page.evaluate("() => [...document.querySelectorAll('.jp-Dialog')]"
                          ".map(dialog => dialog.innerText.trim().replace(/\\s+/g, ' '))")
    return "; ".join(repr(text) for text in shown) or "(none)"


def within(locator, seconds: float) -> bool:
    """Whether `locator` is shown within `seconds`."""
    try:
        locator.wait_for(timeout=seconds * 1000)
    except playwright_api().TimeoutError:
        return False
    return True


def runs_in_its_own_kernel(page, lesson: manifest.Lesson, how: str, opened: float) -> float:
    """Wait until the lesson is the current tab and its kernel is idle, then run its first code
    cell and a typed cell that prints where the kernel runs, which must be the lesson's folder;
    returns the seconds from `opened` to the kernel being idle. Failures name the lesson, how it
    was opened and what the kernel's status bar read."""
    said = f"lesson {lesson.number} ({how})"
    # A tab opens as the page loads the notebook: on a loaded machine that can pass
    # playwright's default of 30 s, so it gets as long as a kernel has to start.
    tab = page.locator(f'.lm-DockPanel .lm-TabBar-tab[title*="Path: {notebook_path(lesson)}"]')
    # On busy cores JupyterLab can lay out the lessons open before over the one the address
    # opened: its kernel starts and the file browser shows its folder with the notebook marked
    # running, but no tab (CI on 0a349aa9, and on bb608bc2 after a reload too). A student then opens
    # it from the file browser, and so does this, once, saying so: the test is about each
    # lesson getting a kernel of its own, not about JupyterLab's race.
    if how.startswith("opened by its address") and not within(tab, SECONDS_TO_REOPEN):
        print(f"{said}: no tab of it within {SECONDS_TO_REOPEN} s ({open_tabs(page)}); "
              "opened from the file browser")
        open_from_the_file_browser(page, notebook_path(lesson))
    if not within(tab, SECONDS_TO_START):
        pytest.fail(f"{said}: no tab of it within {SECONDS_TO_START} s; the tabs open were "
                    f"{open_tabs(page)}, the dialogs {dialogs(page)}, and the status bar read "
                    f"{kernel_status(page)!r}", pytrace=False)
    # JupyterLab restores the lessons open before, and which tab it leaves in front can race
    # with the one the address opened; a student who finds it behind clicks it, and so does this.
    if "lm-mod-current" not in (tab.get_attribute("class") or ""):
        print(f"{said}: its tab opened behind ({open_tabs(page)}); clicked")
        tab.click()
    # The status bar may still show the lesson before, idle, for a moment; a new kernel is not.
    if not within(page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r" \| (?!Idle$)")),
                  30):
        pytest.fail(f"{said}: its status bar went on reading {kernel_status(page)!r}, as if it "
                    "had the kernel of a lesson opened before", pytrace=False)
    if not within(kernel_idle(page), SECONDS_TO_START):
        pytest.fail(f"{said}: its kernel was not idle within {SECONDS_TO_START} s of opening it; "
                    f"the status bar read {kernel_status(page)!r}", pytrace=False)
    started = time.monotonic() - opened
    notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    notebook.locator(".jp-CodeCell").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+Enter")
    printed = typed_and_run(page, notebook, 0, WHERE)
    if not within(printed, SECONDS_TO_RUN):
        shown = notebook.locator(".jp-CodeCell").nth(1).locator(".jp-OutputArea").inner_text()
        pytest.fail(f"{said}: its first cell and a typed one printed nothing within "
                    f"{SECONDS_TO_RUN} s of its kernel being idle; the typed cell showed "
                    f"{shown[-800:]!r} and the status bar read {kernel_status(page)!r}",
                    pytrace=False)
    # The browser's kernel streams print's words one by one: the output shows "runs in" before
    # the folder, so it is read once the cell has its execution count.
    ran_to_its_end(playwright_api(), notebook, 1, SECONDS_TO_RUN)
    where = f"/drive/lessons/{lesson.folder.name}"
    assert printed.inner_text().strip() == f"runs in {where} with lab", (
        f"{said}: its kernel is not the lesson's own, started in {where}: "
        f"{printed.inner_text()!r}")
    print(f"{said}: kernel idle {started:.1f} s after opening; tabs {open_tabs(page)}")
    return started


def test_lessons_opened_in_turn_by_their_address_in_one_tab_each_get_a_running_kernel(
        built, tmp_path):
    with site_tab(built, tmp_path, "site-lessons-by-address.png") as (page, base):
        for n, lesson in enumerate(LESSONS):
            before = ", ".join(str(earlier.number) for earlier in LESSONS[:n])
            opened = time.monotonic()
            page.goto(address(base, notebook_path(lesson)), timeout=60_000)
            how = (f"opened by its address in the tab where lesson{'s' * (n > 1)} {before} ran"
                   if before else "opened by its address")
            runs_in_its_own_kernel(page, lesson, how, opened)


def test_lessons_opened_in_turn_from_the_file_browser_beside_earlier_ones_each_get_a_kernel(
        built, tmp_path):
    with site_tab(built, tmp_path, "site-lessons-from-the-file-browser.png") as (page, base):
        first, *later = LESSONS
        opened = time.monotonic()
        page.goto(address(base, notebook_path(first)), timeout=60_000)
        runs_in_its_own_kernel(page, first, "opened by its address", opened)
        for lesson in later:
            opened = time.monotonic()
            open_from_the_file_browser(page, notebook_path(lesson))
            runs_in_its_own_kernel(page, lesson, "opened from the file browser with the lessons "
                                   "before it open", opened)
