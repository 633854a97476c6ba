"""What every browser test uses: Playwright and Debian's Chromium, found or named as missing, and
a page opened in them that reaches no host but 127.0.0.1; what the page must show, read from the
lesson's source and the checker; and JupyterLab's page, read and driven the same way whether
JupyterLab runs on a server (jupyterlab_server.py) or in the page itself (site_server.py)."""
from __future__ import annotations

import contextlib
import html
import io
import os
import re
import shutil
import time
import urllib.parse
from pathlib import Path
from unittest import mock

import pytest

from lab.check import manifest
from lab.check.lines import check_aloud
from tools import notebooks

CHROMIUM = Path(os.environ.get("HARNESS_COURSE_CHROMIUM", "/usr/bin/chromium"))
OUTPUT = Path(__file__).resolve().parent / "output"
# Without the networking flags Chromium keeps trying to reach Google's services.
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-dev-shm-usage"]
VIEWPORT = {"width": 1400, "height": 1000}


def playwright_api():
    try:
        from playwright import sync_api
        return sync_api
    except ImportError:
        pass
    pytest.fail("Playwright's Python package is not installed in this environment. Install "
                "it with the kit's extra: .venv/bin/python -m pip install -e '.[browser]' "
                "(do not run `playwright install`: the test uses Debian's chromium).",
                pytrace=False)


def chromium() -> Path:
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(f"There is no Chromium at {CHROMIUM}. Install Debian's package: "
                    "sudo apt-get install -y chromium (or point HARNESS_COURSE_CHROMIUM at a "
                    "Chromium executable).", pytrace=False)
    return CHROMIUM


@contextlib.contextmanager
def launched():
    """Headless Chromium under Playwright, always closed; a Chromium that will not start is the
    test's failure, said in one line."""
    api, executable = playwright_api(), chromium()
    with api.sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(executable_path=str(executable), headless=True,
                                                 args=CHROMIUM_FLAGS, timeout=60_000)
        except api.Error as problem:
            pytest.fail(f"Chromium at {executable} would not start under Playwright: "
                        f"{str(problem).splitlines()[0]}", pytrace=False)
        try:
            yield browser
        finally:
            browser.close()


def only_here(outside: list[str]):
    """A Playwright route handler that lets a request to 127.0.0.1 through and refuses any
    other, appending its address to `outside`, so a test can say what the page reached for."""
    def route_(route):
        if urllib.parse.urlsplit(route.request.url).hostname != "127.0.0.1":
            outside.append(route.request.url)
            return route.abort()
        return route.continue_()
    return route_


@contextlib.contextmanager
def fresh_page(browser, outside: list[str], tmp_path: Path, shot: str):
    """A page of `browser` in a fresh profile (a context of its own, closed after), every
    request beyond 127.0.0.1 refused and added to `outside`; if the block fails, a screenshot
    named `shot` first. For a test that opens many pages in one browser (test_figures_drawn.py);
    the others use `opened`."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        context.route("**/*", only_here(outside))
        page = context.new_page()
        page.set_default_timeout(30_000)
        try:
            yield page
        except BaseException:
            with contextlib.suppress(Exception):
                shoot(page, shot, tmp_path)
            raise
    finally:
        context.close()


def reached_only_here(outside: list[str], what: str = "the page") -> None:
    """Fail, naming the first addresses, if `what` asked for any host but 127.0.0.1."""
    assert not outside, f"{what} reached beyond 127.0.0.1 for: {outside[:5]}"


@contextlib.contextmanager
def opened(tmp_path: Path, shot: str, what: str = "the page"):
    """A Playwright page in headless Chromium with a fresh profile, reaching no host but
    127.0.0.1: every other request is refused, and once the block has passed the test fails
    if there was one (`what` names the page in that failure). If the block fails, a screenshot
    named `shot` goes to tmp_path and tests/browser/output/. The browser is always closed."""
    outside: list[str] = []
    with launched() as browser, fresh_page(browser, outside, tmp_path, shot) as page:
        yield page
    reached_only_here(outside, what)


def first_prediction(lesson: manifest.Lesson) -> tuple[str, str, str]:
    """(letter, choice text, feedback text) of the right choice of the lesson's first
    prediction, read from lesson.md and the notebook built from it."""
    source = lesson.source.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(source) if line.strip().startswith("::: predict"))
    end = next(i for i, line in enumerate(source[start + 1:]) if line.strip() == ":::")
    choices = [m for m in map(notebooks.CHOICE.match, source[start + 1:start + 1 + end]) if m]
    right = next(i for i, m in enumerate(choices) if m.group(1) != " ")
    letter = notebooks.LETTERS[right]
    cell = next(c.source for c in notebooks.build(lesson).cells
                if c.cell_type == "markdown" and "<details><summary><b>A.</b>" in c.source)
    match = re.search(rf"<details><summary><b>{letter}\.</b> (.*?)</summary>(.*?)</details>",
                      cell, re.S)
    plain = [" ".join(html.unescape(re.sub(r"<[^>]+>", "", part.replace("</p>", " "))).split())
             for part in match.groups()]
    return letter, plain[0], plain[1]


def checkers_report(harness: Path, lab: manifest.Lab) -> tuple[str, str]:
    """(count line, report after its first line) of lab_check.py on `harness` for `lab`, run
    here with its separate process: what the practice check in the page must print too. Its
    closing line names the next command as the page types it, a cell's call (lab/check/
    spoken.py reads IN_BROWSER): the one line that differs from a terminal's report."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), mock.patch.object(manifest, "IN_BROWSER", True):
        check_aloud(harness, lab.tests, lab.lesson.number)
    lines = printed.getvalue().splitlines()
    assert lines[0].startswith("Checking ")
    return lines[-2], "\n".join(lines[1:])


# --- the page --------------------------------------------------------------------------------

CELL_STATES = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')].map(cell => {
    const prompt = cell.querySelector('.jp-InputArea-prompt');
    const error = cell.querySelector('[data-mime-type="application/vnd.jupyter.stderr"]');
    return [prompt ? prompt.textContent.trim() : '', error ? error.textContent : ''];
})"""


def typed_and_run(page, notebook, after: int, code: str):
    """A new code cell below cell `after`, `code` typed into it and run, as a student adds one;
    returns the locator of what it printed."""
    notebook.locator(".jp-CodeCell").nth(after).click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.keyboard.press("Enter")
    page.keyboard.type(code)
    page.keyboard.press("Shift+Enter")
    return notebook.locator(".jp-CodeCell").nth(after + 1).locator(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stdout"]')


def ran_to_its_end(api, notebook, n: int, seconds: float) -> None:
    """Wait until code cell `n` has an execution count: its output is then whole. A report's
    count line is printed before the advice under it, so seeing the count is not enough."""
    prompt = notebook.locator(".jp-CodeCell").nth(n).locator(".jp-InputArea-prompt")
    api.expect(prompt).to_have_text(re.compile(r"^\[\d+\]:$"), timeout=seconds * 1000)


def kernel_idle(page):
    """The status bar's kernel item once a kernel is connected and idle: "Python 3 (ipykernel) |
    Idle" (it reads "No Kernel | ..." until the kernel has started)."""
    return page.locator(".jp-StatusBar-TextItem",
                        has_text=re.compile(r"^(?!No Kernel).+ \| Idle$"))


def run_all(page, seconds: float, since: int = 0,
            command: str = "runmenu:run-all") -> list[tuple[bool, str]]:
    """Run every cell from the Run menu (or the cells its `command` runs, such as
    "notebook:run-all-above" the selected one); once the run has ended, (ran, error text) for
    each code cell in order. It has ended when every code cell has an execution count above
    `since` (the highest before this run), or when none is waiting any more (a cell raised, and
    the cells after it were not run). Fails at the bound, or when JupyterLab asks a question
    instead of running."""
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator(f'.lm-Menu-item[data-command="{command}"]').click()
    deadline = time.monotonic() + seconds
    while True:
        states = page.evaluate(CELL_STATES)
        prompts = [p for p, _ in states]
        numbered = [count is not None and count > since for count in map(execution_count, prompts)]
        if states and (all(numbered) or (any(numbered) and "[*]:" not in prompts)):
            return [(ran, error) for ran, (_, error) in zip(numbered, states)]
        dialog = page.locator(".jp-Dialog")
        if dialog.count():  # a question no student was asked: fail now rather than at the bound
            pytest.fail("JupyterLab asked instead of running: "
                        + " / ".join(dialog.first.inner_text().split("\n")), pytrace=False)
        if time.monotonic() > deadline:
            pytest.fail(f"The lesson did not finish running within {seconds:.0f} seconds; "
                        f"cell prompts: {prompts}", pytrace=False)
        page.wait_for_timeout(250)


def execution_count(prompt: str) -> int | None:
    """The number in a code cell's prompt ("[12]:"), or None while it has none or is queued."""
    found = re.fullmatch(r"\[(\d+)\]:", prompt)
    return int(found[1]) if found else None


def highest_count(page) -> int:
    """The highest execution count of the notebook's code cells so far."""
    return max((execution_count(p) or 0 for p, _ in page.evaluate(CELL_STATES)), default=0)


def run_all_and_wait(page, seconds: float) -> None:
    """run_all, failing unless every code cell ran (naming the first error, if one was shown)."""
    states = run_all(page, seconds)
    if not all(ran for ran, _ in states):
        errors = [e for _, e in states if e.strip()]
        pytest.fail(f"Run All Cells stopped: {[ran for ran, _ in states].count(False)} of "
                    f"{len(states)} code cells did not run." +
                    (f" The first error:\n{errors[0][-1500:]}" if errors else ""), pytrace=False)


def answer_prediction(api, page, lesson: manifest.Lesson) -> None:
    """Open the right choice of the lesson's first prediction; its feedback, and only its, must
    then be shown, with the words the lesson's source gives."""
    letter, choice, feedback = first_prediction(lesson)
    notebook = page.locator(".jp-NotebookPanel .jp-Notebook")
    cell = notebook.locator(".jp-MarkdownCell").filter(has=page.locator("details")).first
    details = cell.locator("details").filter(
        has=page.locator("summary", has_text=re.compile(rf"^{letter}\."))).first
    others = cell.locator("details:not([open]) p")
    said = details.locator("p").first
    details.scroll_into_view_if_needed()
    api.expect(said).to_be_hidden()
    details.locator("summary").click()
    api.expect(said).to_be_visible(timeout=10_000)
    assert " ".join(details.locator("summary").inner_text().split()) == f"{letter}. {choice}"
    assert " ".join(details.inner_text().split()).endswith(feedback)
    for other in range(others.count()):  # the other choices still hide theirs
        api.expect(others.nth(other)).to_be_hidden()


def shoot(page, name: str, tmp_path: Path) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(tmp_path / name))
    shutil.copyfile(tmp_path / name, OUTPUT / name)


