"""A harness.py that spins, checked in the course's browser site (tools/site.py): the practice
check stops each test that spins, says so in lab_check.py's verdicts, and the page's Python is
free for the next cell.

Builds and serves the site as test_site_in_browser.py does (127.0.0.1 only, every other host
refused), opens lesson 15 in headless Chromium and, once its kernel is idle, types three cells
as a student would: one that starts lab 15.1 and writes into the work folder the lab's
reference with a tool that busy-loops (tests/check/submissions/hangs_in_a_busy_loop.py, whose
loop never awaits), one that runs `course.check("15.1")`, and one that prints. The check must
end within SECONDS_TO_CHECK with lab_check.py's count line for the same file, time out the same
tests, give the first of them the spin guard's reason (lab/check/spin.py), and the next cell
must then run. Before that guard, the check held the page's Python for good: the test failed at
SECONDS_TO_CHECK with no count line.

A second test does the same with loops written on one line (tests/check/test_practice_spins.py's
family: `while True: pass` in run_tool and in tool_calls, a spinning comprehension, a `for` over
itertools.count()), one after another in one page: each check must print lab_check.py's count
and stopped tests within SECONDS_TO_REPORT, and the next cell must run. Before the guard saw a
loop jump to itself, the first of them held the page's Python until its kernel was restarted.

    .venv/bin/python -m pytest -m browser tests/browser/test_site_spinning_file.py
"""
from __future__ import annotations

import re

import pytest

from lab.check import manifest, runner
from tools.hang_cases import SPINS as ONE_LINE_SPINS
from tests.browser.page import checkers_report, chromium, playwright_api, shoot, typed_and_run
from tests.browser.site_server import built_site, lesson_opened, site_tab

pytestmark = pytest.mark.browser

LESSON = manifest.lesson(15)
LAB = manifest.lab("15.1")
SPINS = (manifest.KIT / "tests" / "check" / "submissions" / "hangs_in_a_busy_loop.py"
         ).read_text(encoding="utf-8")
# The whole check, spun tests included: a bound against a page that never answers, not an aim
# (bench/site_check.py measures how long it takes).
SECONDS_TO_CHECK = 60
NEXT = "print('the next cell ran', 6 * 7)"
SECONDS_TO_REPORT = 10  # the aim for a file that spins in every call (issue 43)


def timed_out(report: str) -> list[str]:
    """The sentences of the tests a report says timed out."""
    return [line.strip()[4:].strip() for line in report.splitlines()
            if line.strip().startswith("TIME ")]


def test_a_file_that_spins_is_stopped_and_reported_in_the_page_which_stays_usable(
        tmp_path, tmp_path_factory):
    api = playwright_api()
    chromium()  # named as missing before the site is built
    harness = tmp_path / "harness.py"
    harness.write_text(LAB.solution.read_text(encoding="utf-8") + "\n" + SPINS, encoding="utf-8")
    count, expected = checkers_report(harness, LAB)
    assert timed_out(expected) and not count.endswith(" 0 failed"), \
        "lab_check.py must stop some of this file's tests for this test to mean anything"
    built = built_site(tmp_path_factory)
    written = ('from lab import course; from lab.check import manifest; '
               f'course.start("{LAB.id}", force=True); '
               f'(course.folder("{LAB.id}") / "harness.py").write_text('
               f'manifest.lab("{LAB.id}").solution.read_text(encoding="utf-8") + '
               f'{chr(10) + SPINS!r}, encoding="utf-8"); print("written")')
    with site_tab(built, tmp_path, "site-spinning-file-failure.png") as (page, base):
        notebook = lesson_opened(page, base, LESSON.folder.name)
        last = notebook.locator(".jp-CodeCell").count() - 1

        started = typed_and_run(page, notebook, last, written)
        api.expect(started).to_contain_text("written", timeout=60_000)

        report = typed_and_run(page, notebook, last + 1, f'course.check("{LAB.id}")')
        try:
            api.expect(report).to_contain_text(count, timeout=SECONDS_TO_CHECK * 1000)
            shown = None
        except AssertionError:
            shown = "\n".join(report.all_inner_texts())
        if shown is not None:
            pytest.fail(f"The practice check of a file that spins printed no count line "
                        f"within {SECONDS_TO_CHECK} s; the cell shows:\n{shown}",
                        pytrace=False)
        text = report.inner_text()
        assert timed_out(text) == timed_out(expected), \
            "the page stopped other tests than lab_check.py did"
        first = text.split("TIME ", 1)[1]
        assert re.search(r"spun in error_message \(harness\.py, line \d+\) through "
                         f"{runner.Limits().rounds_without_a_turn:,} rounds of harness.py's "
                         "loops without giving the event loop a turn", first), first
        report.scroll_into_view_if_needed()
        shoot(page, "site-spinning-file-check.png", tmp_path)

        after = typed_and_run(page, notebook, last + 2, NEXT)
        api.expect(after).to_contain_text("the next cell ran 42", timeout=60_000)


def written_in_a_cell(case) -> str:
    """A cell that writes lab 15.1's reference with `case`'s line put in (test_hangs.Hanging's
    way) as the work folder's harness.py: typed as a student would, so kept short."""
    source = LAB.solution.read_text(encoding="utf-8")
    head = source.split(case.after)[0]
    indent = re.match(r" *", head.rpartition("\n")[2]).group()
    put_in = "\n" + indent + case.loop
    return (f'_p = course.folder("{LAB.id}") / "harness.py"; '
            f'_s = manifest.lab("{LAB.id}").solution.read_text(encoding="utf-8"); '
            f'_p.write_text(_s.replace({case.after!r}, {case.after + put_in!r}, 1), '
            'encoding="utf-8"); print("written", len(_p.read_text(encoding="utf-8")))')


def test_loops_on_one_line_are_stopped_and_reported_in_seconds_one_after_another(
        tmp_path, tmp_path_factory):
    api = playwright_api()
    chromium()
    expected = {}
    for name, case in ONE_LINE_SPINS.items():
        harness = tmp_path / f"{len(expected)}" / "harness.py"
        harness.parent.mkdir()
        text = case.text()[0]
        harness.write_text(text, encoding="utf-8")
        expected[name] = (len(text),) + checkers_report(harness, LAB)
        assert timed_out(expected[name][2]), f"lab_check.py must stop {name} for this to mean anything"
    built = built_site(tmp_path_factory)
    with site_tab(built, tmp_path, "site-one-line-spins-failure.png") as (page, base):
        notebook = lesson_opened(page, base, LESSON.folder.name)
        at = notebook.locator(".jp-CodeCell").count() - 1
        started = typed_and_run(page, notebook, at, 'from lab import course; from lab.check '
                                f'import manifest; course.start("{LAB.id}", force=True)')
        api.expect(started).to_contain_text("Check it", timeout=60_000)
        at += 1
        for name, case in ONE_LINE_SPINS.items():
            size, count, report = expected[name]
            written = typed_and_run(page, notebook, at, written_in_a_cell(case))
            api.expect(written).to_contain_text(f"written {size}", timeout=60_000)
            checked = typed_and_run(page, notebook, at + 1, f'course.check("{LAB.id}")')
            try:
                api.expect(checked).to_contain_text(count, timeout=SECONDS_TO_REPORT * 1000)
            except AssertionError:
                pytest.fail(f"{name}: the practice check printed no count line ({count!r}) "
                            f"within {SECONDS_TO_REPORT} s of Shift+Enter; the cell shows:\n"
                            + "\n".join(checked.all_inner_texts()), pytrace=False)
            text = checked.inner_text()
            assert timed_out(text) == timed_out(report), \
                f"{name}: the page stopped other tests than lab_check.py did"
            assert f"in {case.function} (harness.py, line " in text.split("TIME ", 1)[1], \
                f"{name}: the first stop names another place: {text.split('TIME ', 1)[1][:300]}"
            after = typed_and_run(page, notebook, at + 2, NEXT)
            api.expect(after).to_contain_text("the next cell ran 42", timeout=60_000)
            at += 3
        shoot(page, "site-one-line-spins.png", tmp_path)
