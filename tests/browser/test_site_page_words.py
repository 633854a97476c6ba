"""The browser site speaks the page's own way (tools/site_page.py, lab/check/spoken.py), in a
class site through lab 5.1 and in the whole course's site, with no network beyond this machine.

For each, takes the site built once for the run (site_server.built_site, with `--through 5.1`
for the class site), serves it on 127.0.0.1 and opens, in headless Chromium through Playwright, the lesson of
a lab (5.1 in the class site, the course's first lab in the whole one) without running it:
its rendered text names no terminal command (`lab_check.py`, `course check 5.1`, ...) and says
to check with `course.check(...)`; in the class site, each output it shows as recorded has no
line that starts with a comma (a list of lines in the .ipynb, joined with commas by
JupyterLite). Then, in new cells, starts the lab, which names the cell's check, and checks it:
the report's closing line names the cell's calls, and the cell shows nothing under it (no
execute_result, where an exit code would be a stray 0 or 1). Last, opens the started
harness.py, whose header says to check in a cell.

    .venv/bin/python -m pytest -m browser tests/browser/test_site_page_words.py
"""
from __future__ import annotations

import re

import pytest

from lab.check import manifest
from tests.browser.page import chromium, playwright_api, shoot, typed_and_run
from tests.browser.site_server import address, built_site, lesson_opened, site_tab

pytestmark = pytest.mark.browser

SECONDS_TO_CHECK = 300  # a practice check, in the page's Python
TERMINAL = re.compile(r"lab_check\.py|course (start|check|hint|reset|progress)\b")
SITES = {"through 5.1": ("5.1", manifest.lab("5.1")),
         "whole course": (None, manifest.labs(built_only=True)[0])}


@pytest.mark.parametrize("which", list(SITES))
def test_the_site_names_the_pages_commands_and_shows_recorded_outputs_as_text(
        tmp_path, tmp_path_factory, which):
    through, lab = SITES[which]
    api = playwright_api()
    chromium()  # named as missing before the site is built
    built = built_site(tmp_path_factory, through)
    name = which.replace(" ", "-")
    with site_tab(built, tmp_path, f"site-words-{name}-failure.png") as (page, base):
        notebook = lesson_opened(page, base, lab.lesson.folder.name)
        cells = notebook.locator(".jp-CodeCell")
        api.expect(notebook).to_contain_text(f'course.check("{lab.id}")')
        lesson = notebook.inner_text()
        assert not TERMINAL.search(lesson), \
            f"the lesson names a terminal command: {TERMINAL.search(lesson)[0]!r}"

        recorded = notebook.locator(".jp-OutputArea-output")
        shown = [recorded.nth(n).inner_text() for n in range(recorded.count())]
        if through:
            assert any(len(text.strip().splitlines()) > 1 for text in shown), \
                "the class site's lesson shows recorded outputs of several lines"
        comma = [text for text in shown
                 if any(line.startswith(",") for line in text.splitlines())]
        assert not comma, f"a recorded output shows its lines joined by commas:\n" \
                          f"{comma[0][:400]}"
        shoot(page, f"site-words-{name}-lesson.png", tmp_path)

        last = cells.count() - 1
        started = typed_and_run(page, notebook, last,
                                f'from lab import course; course.start("{lab.id}", force=True)')
        api.expect(started).to_contain_text(f'course.check("{lab.id}")', timeout=60_000)
        assert not TERMINAL.search(started.inner_text()), started.inner_text()

        report = typed_and_run(page, notebook, last + 1, f'course.check("{lab.id}")')
        api.expect(report).to_contain_text("Next: ", timeout=SECONDS_TO_CHECK * 1000)
        checked = cells.nth(last + 2)
        api.expect(checked.locator(".jp-InputArea-prompt")).to_have_text(
            re.compile(r"^\[\d+\]:$"), timeout=60_000)
        closing = report.inner_text().strip().splitlines()[-1]
        assert f'`course.hint("{lab.id}")`' in closing and \
            not TERMINAL.search(closing), closing
        assert checked.locator(".jp-OutputArea-executeResult").count() == 0, \
            "course.check shows a value under its report"
        outputs = checked.locator(".jp-OutputArea-output")
        bare = {outputs.nth(n).inner_text().strip() for n in range(outputs.count())}
        assert not bare & {"0", "1"}, "course.check shows its exit code"
        report.scroll_into_view_if_needed()
        shoot(page, f"site-words-{name}-check.png", tmp_path)

        editor = page.locator(".jp-FileEditor .cm-content")
        for tries_left in (1, 0):  # the drive the kernel wrote to may not be read on the first load
            page.goto(address(base, f"work/{lab.folder}/harness.py"), timeout=60_000)
            try:
                api.expect(editor).to_contain_text(f'course.check("{lab.id}")', timeout=45_000)
                break
            except AssertionError:
                if not tries_left:
                    raise
        header = editor.inner_text().splitlines()[:3]
        assert not TERMINAL.search("\n".join(header)), header
        shoot(page, f"site-words-{name}-harness.png", tmp_path)
