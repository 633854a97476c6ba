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
import json
import os
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
from tests.browser.page import (CHROMIUM_FLAGS, answer_prediction, chromium, kernel_idle,
                                playwright_api, run_all_and_wait, shoot)
from tools import notebooks

pytestmark = pytest.mark.browser

LESSON = manifest.lesson(15)
# The record of a stopped batch: the shape the lesson's prose and its lab are built around.
KNOWN_SHAPE = "U A[c1,c2,c3] R(c1) R(c2) R(c3) A(aborted)"
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


def test_lesson_15_runs_and_answers_a_prediction_in_chromium(tmp_path):
    api = playwright_api()
    executable = chromium()
    line = known_line()

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
                run_all_and_wait(page, SECONDS_TO_RUN)
                kernel_idle(page).wait_for(timeout=30_000)

                shown = notebook.locator(".jp-OutputArea-output", has_text=line).first
                api.expect(shown).to_be_visible(timeout=10_000)
                shown.scroll_into_view_if_needed()
                shoot(page, "lesson15-output.png", tmp_path)

                answer_prediction(api, page, LESSON)
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
