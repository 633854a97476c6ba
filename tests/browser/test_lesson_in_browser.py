"""Lesson 15 as a student sees it: in JupyterLab, in a real browser.

Starts `jupyter lab` from this virtual environment on 127.0.0.1 (a free port, a token, no
browser of its own, HOME and every Jupyter folder in a temporary one), on a copy of the lesson
folder so nothing the browser does can write to the kit; opens lessons/15-stop/lesson.ipynb in
headless Chromium through Playwright; runs all cells from the Run menu; waits until every code
cell has run and a line the lesson's prose relies on is on the page; opens the right choice of
the first prediction and checks that its feedback, and only its, is now shown; and saves
screenshots to the test's tmp_path and to tests/browser/output/ (git-ignored). JupyterLab is
always shut down. Every wait has a bound.

Needs Debian's chromium (/usr/bin/chromium, or $HARNESS_COURSE_CHROMIUM) and Playwright's
Python package (`pip install -e '.[browser]'`; Playwright's own browser download is not used).
Without either it fails, naming what to install.

    .venv/bin/python -m pytest -m browser
"""
from __future__ import annotations

import contextlib
import html
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from lab.check import manifest
from tools import notebooks

pytestmark = pytest.mark.browser

LESSON = manifest.lesson(15)
CHROMIUM = Path(os.environ.get("HARNESS_COURSE_CHROMIUM", "/usr/bin/chromium"))
# The record of a stopped batch: the shape the lesson's prose and its lab are built around.
KNOWN_SHAPE = "U A[c1,c2,c3] R(c1) R(c2) R(c3) A(aborted)"
OUTPUT = Path(__file__).resolve().parent / "output"
# Without the networking flags Chromium keeps trying to reach Google's services.
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-dev-shm-usage"]
SECONDS_TO_START = 60  # JupyterLab answering its status API
SECONDS_TO_RUN = 180  # every cell of the lesson, run from the browser
# JupyterLab's user settings for the test: every cell kept in the page (so an output far down
# is there to be found), no autosave, no news or update checks.
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "checkForUpdates": False, "fetchNews": "false"},
}


# --- what is needed, and what to install when it is missing ---------------------------------

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


def first_prediction() -> tuple[str, str, str]:
    """(letter, choice text, feedback text) of the right choice of the lesson's first
    prediction, read from lesson.md and the notebook built from it."""
    source = LESSON.source.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(source) if line.strip().startswith("::: predict"))
    end = next(i for i, line in enumerate(source[start + 1:]) if line.strip() == ":::")
    choices = [m for m in map(notebooks.CHOICE.match, source[start + 1:start + 1 + end]) if m]
    right = next(i for i, m in enumerate(choices) if m.group(1) != " ")
    letter = notebooks.LETTERS[right]
    cell = next(c.source for c in notebooks.build(LESSON).cells
                if c.cell_type == "markdown" and "<details><summary><b>A.</b>" in c.source)
    match = re.search(rf"<details><summary><b>{letter}\.</b> (.*?)</summary>(.*?)</details>",
                      cell, re.S)
    plain = [" ".join(html.unescape(re.sub(r"<[^>]+>", "", part.replace("</p>", " "))).split())
             for part in match.groups()]
    return letter, plain[0], plain[1]


# --- JupyterLab ------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def jupyterlab(tmp_path: Path):
    """A running JupyterLab on a copy of the lesson; yields (base url, token, log file). Always
    stopped. A context manager rather than a fixture, so that what is missing for the browser
    is said first, and a JupyterLab that does not start is the test's failure, not an error."""
    jupyter = Path(sys.executable).parent / "jupyter"
    if not jupyter.is_file():
        pytest.fail(f"There is no jupyter beside {sys.executable}; set the kit up first "
                    "(python3 start.py --setup-only).", pytrace=False)
    root, home = tmp_path / "root", tmp_path / "home"
    shutil.copytree(LESSON.folder, root / "lessons" / LESSON.folder.name,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    dirs = {name: home / ".jupyter-test" / name for name in
            ("config", "data", "runtime", "settings", "workspaces")}
    for path in dirs.values():
        path.mkdir(parents=True)
    for name, values in SETTINGS.items():
        (dirs["settings"] / name).parent.mkdir(parents=True, exist_ok=True)
        (dirs["settings"] / name).write_text(json.dumps(values), encoding="utf-8")
    port, token = free_port(), secrets.token_hex(16)
    (dirs["config"] / "jupyter_server_config.json").write_text(json.dumps({
        "ServerApp": {"ip": "127.0.0.1", "port": port, "port_retries": 0,
                      "open_browser": False, "root_dir": str(root),
                      "allow_root": os.geteuid() == 0},  # CI containers run as root
        "IdentityProvider": {"token": token},
        "LabApp": {"news_url": None, "check_for_updates_class":
                   "jupyterlab.handlers.announcements.NeverCheckForUpdate"},
    }), encoding="utf-8")
    env = dict(os.environ, HOME=str(home), JUPYTER_CONFIG_DIR=str(dirs["config"]),
               JUPYTER_DATA_DIR=str(dirs["data"]), JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
               JUPYTERLAB_SETTINGS_DIR=str(dirs["settings"]),
               JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]),
               HARNESS_COURSE_WORK=str(tmp_path / "work"), HARNESS_COURSE_AS_SOLVED="1",
               PYTHONPATH=os.pathsep.join(filter(None, [str(manifest.KIT),
                                                        os.environ.get("PYTHONPATH")])))
    log = tmp_path / "jupyterlab.log"
    with log.open("wb") as out:
        server = subprocess.Popen([str(jupyter), "lab", "--no-browser"], env=env, cwd=root,
                                  stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SECONDS_TO_START
        while True:
            if server.poll() is not None:
                pytest.fail(f"jupyter lab ended with exit code {server.returncode} before it "
                            f"answered:\n{tail(log)}", pytrace=False)
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2):
                    break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"jupyter lab did not answer on {base} within {SECONDS_TO_START} "
                            f"seconds:\n{tail(log)}", pytrace=False)
            time.sleep(0.25)
        yield base, token, log
    finally:
        stop(server, base, token)


def stop(server: subprocess.Popen, base: str, token: str) -> None:
    """Stop JupyterLab and its kernels: through its own shutdown API (which shuts the kernels
    down first), then by signals to the process group it leads. Kernels run in sessions of
    their own, but each watches its parent (JPY_PARENT_PID) and ends with it."""
    try:
        request = urllib.request.Request(f"{base}/api/shutdown?token={token}", method="POST")
        urllib.request.urlopen(request, timeout=5).close()
        server.wait(timeout=20)
    except (urllib.error.URLError, OSError, subprocess.TimeoutExpired):
        pass
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        if server.poll() is not None:
            return
        try:
            os.killpg(server.pid, sig)
            server.wait(timeout=wait)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass


def tail(log: Path, lines: int = 30) -> str:
    return "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])


# --- the page --------------------------------------------------------------------------------

CELL_STATES = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')].map(cell => {
    const prompt = cell.querySelector('.jp-InputArea-prompt');
    const error = cell.querySelector('[data-mime-type="application/vnd.jupyter.stderr"]');
    return [prompt ? prompt.textContent.trim() : '', error ? error.textContent : ''];
})"""


def kernel_idle(page):
    """The status bar's kernel item once a kernel is connected and idle: "Python 3 (ipykernel) |
    Idle" (it reads "No Kernel | ..." until the kernel has started)."""
    return page.locator(".jp-StatusBar-TextItem",
                        has_text=re.compile(r"^(?!No Kernel).+ \| Idle$"))


def run_all_and_wait(page) -> None:
    """Run every cell from the Run menu; return once every code cell has an execution count,
    or fail naming the cells that did not run (and what an error cell said)."""
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').click()
    deadline = time.monotonic() + SECONDS_TO_RUN
    while True:
        states = page.evaluate(CELL_STATES)
        prompts = [p for p, _ in states]
        numbered = [bool(re.fullmatch(r"\[\d+\]:", p)) for p in prompts]
        if states and all(numbered):
            return
        if any(numbered) and "[*]:" not in prompts:  # the run ended, and not every cell ran
            errors = [e for _, e in states if e.strip()]
            pytest.fail(f"Run All Cells stopped: {numbered.count(False)} of {len(states)} code "
                        "cells did not run." + (f" The first error:\n{errors[0][-1500:]}"
                                                if errors else ""), pytrace=False)
        dialog = page.locator(".jp-Dialog")
        if dialog.count():  # a question no student was asked: fail now rather than at the bound
            pytest.fail("JupyterLab asked instead of running: "
                        + " / ".join(dialog.first.inner_text().split("\n")), pytrace=False)
        if time.monotonic() > deadline:
            pytest.fail(f"The lesson did not finish running within {SECONDS_TO_RUN} seconds; "
                        f"cell prompts: {prompts}", pytrace=False)
        page.wait_for_timeout(250)


def shoot(page, name: str, tmp_path: Path) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(tmp_path / name))
    shutil.copyfile(tmp_path / name, OUTPUT / name)


def test_lesson_15_runs_and_answers_a_prediction_in_chromium(tmp_path):
    api = playwright_api()
    executable = chromium()
    line = known_line()
    letter, choice, feedback = first_prediction()

    with jupyterlab(tmp_path) as (base, token, log), api.sync_playwright() as playwright:
        url = f"{base}/lab/tree/lessons/{LESSON.folder.name}/lesson.ipynb?reset&token={token}"
        try:
            browser = playwright.chromium.launch(executable_path=str(executable), headless=True,
                                                 args=CHROMIUM_FLAGS, timeout=60_000)
        except api.Error as problem:
            pytest.fail(f"Chromium at {executable} would not start under Playwright: "
                        f"{str(problem).splitlines()[0]}", pytrace=False)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(30_000)
            try:
                page.goto(url, timeout=60_000)
                notebook = page.locator(".jp-NotebookPanel .jp-Notebook")
                notebook.locator(".jp-CodeCell").first.wait_for(timeout=60_000)
                kernel_idle(page).wait_for(timeout=60_000)  # before it, Run All asks for one
                run_all_and_wait(page)
                kernel_idle(page).wait_for(timeout=30_000)

                shown = notebook.locator(".jp-OutputArea-output", has_text=line).first
                api.expect(shown).to_be_visible(timeout=10_000)
                shown.scroll_into_view_if_needed()
                shoot(page, "lesson15-output.png", tmp_path)

                cell = notebook.locator(".jp-MarkdownCell").filter(
                    has=page.locator("details")).first
                details = cell.locator("details").filter(
                    has=page.locator("summary", has_text=re.compile(rf"^{letter}\."))).first
                others = cell.locator("details:not([open]) p")
                said = details.locator("p").first
                details.scroll_into_view_if_needed()
                api.expect(said).to_be_hidden()
                details.locator("summary").click()
                api.expect(said).to_be_visible(timeout=10_000)
                assert " ".join(details.locator("summary").inner_text().split()) == \
                    f"{letter}. {choice}"
                assert " ".join(details.inner_text().split()).endswith(feedback)
                for other in range(others.count()):  # the other choices still hide theirs
                    api.expect(others.nth(other)).to_be_hidden()
                shoot(page, "lesson15-prediction.png", tmp_path)
            except BaseException:
                try:
                    shoot(page, "lesson15-failure.png", tmp_path)
                except Exception:
                    pass
                print(f"JupyterLab's log ({log}):\n{tail(log)}")
                raise
        finally:
            browser.close()
