"""The course's browser site (tools/site.py) for the browser tests: a built site served on
127.0.0.1 from a thread, a tab on it that reaches no other host, and a lesson opened there with
its kernel ready. The site's JupyterLab and Python run in the page, so serving files is all a
test needs (jupyterlab_server.py is the kit's JupyterLab, a real server)."""
from __future__ import annotations

import contextlib
import functools
import http.server
import re
import threading
from pathlib import Path

import pytest

from tests import made_once
from tests.browser.page import kernel_idle, opened, playwright_api
from tools import site

SECONDS_TO_START = 120  # a lesson's kernel, loaded from the site and started in the page


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # the browser dropping a connection it no longer wants is not a failure


def built_site(factory: pytest.TempPathFactory, through: str | None = None) -> Path:
    """The course's browser site (`through` as tools.site.build takes it), built once per test
    run and shared by every browser test that asks, whichever worker (tests/made_once.py): a
    build takes about 35 s of processor time, and the tests only serve it, each in a browser
    profile of its own, so nothing one test does reaches another. Fails the test, naming the
    problem, when the site does not build."""
    def build(folder: Path) -> Path:
        return site.build(folder / "site", through=through)
    try:
        return made_once.value(factory, f"site-{through or 'whole'}", build)
    except site.SiteError as problem:
        pytest.fail(f"The site did not build: {problem}", pytrace=False)


@contextlib.contextmanager
def served(folder: Path):
    """The folder on http://127.0.0.1:PORT/, from a thread; always shut down."""
    server = _Server(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def site_tab(built: Path, tmp_path: Path, shot: str):
    """(page, the site's address): the site at `built` served, and a page of its own opened on
    nothing yet (page.opened: a fresh profile, 127.0.0.1 only, a screenshot named `shot` if the
    block fails, and the test failing afterwards if the site reached for another host)."""
    with served(built) as base, opened(tmp_path, shot, "the site") as page:
        yield page, base


def address(base: str, path: str) -> str:
    """The site's JupyterLab opening `path` (a notebook or a file in the browser's storage)."""
    return f"{base}lab/index.html?path={path}"


def lesson_opened(page, base: str, lesson_folder: str,
                  seconds_to_start: float = SECONDS_TO_START):
    """Open the notebook of the lesson in `lesson_folder` (its name) as a student does, by its
    address, and wait until its first code cell is drawn and its kernel idle, for at most
    `seconds_to_start`; returns the notebook's locator."""
    page.goto(address(base, site.notebook(lesson_folder)), timeout=60_000)
    notebook = page.locator(".jp-NotebookPanel .jp-Notebook")
    notebook.locator(".jp-CodeCell").first.wait_for(timeout=60_000)
    kernel_idle(page).wait_for(timeout=seconds_to_start * 1000)
    return notebook


def open_from_the_file_browser(page, path: str) -> None:
    """Open `path` as a student does: the file browser's home, then a double-click on each
    folder and on the file."""
    # A page still loading has no listing yet, and a click on home would be lost.
    page.locator(".jp-DirListing-item").first.wait_for(state="attached", timeout=60_000)
    if not page.locator(".jp-FileBrowser").is_visible():
        page.locator(".lm-TabBar-tab[title^='File Browser']").click()
    first, *rest = path.split("/")
    # Opening a notebook by its address moves the file browser to its folder when the page
    # gets round to it, which can come after a click on home: click home until home is shown.
    for _ in range(6):
        page.locator(".jp-FileBrowser .jp-BreadCrumbs-home").click()
        try:
            item(page, first).wait_for(timeout=5_000)
            break
        except playwright_api().TimeoutError:  # the browser was still elsewhere
            continue
    for name in (first, *rest):
        item(page, name).dblclick()


def item(page, name: str):
    """The file browser's entry named exactly `name`."""
    named = page.locator(".jp-DirListing-itemText", has_text=re.compile(rf"^{re.escape(name)}$"))
    return page.locator(".jp-FileBrowser .jp-DirListing-item").filter(has=named)
