"""A real `jupyter lab` for the browser tests, on a copy of some of the kit's folders.

It runs from this virtual environment on 127.0.0.1 (a free port, a token, no browser of its
own, HOME and every Jupyter folder in a temporary one), on copies of the folders it is given,
so nothing the browser does can write to the kit. Every cell stays drawn (windowingMode
"none"), nothing autosaves and nothing checks for news. JupyterLab is always shut down, and
every wait has a bound.
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

SECONDS_TO_START = 60  # JupyterLab answering its status API
# JupyterLab's user settings for the tests: every cell kept in the page (so an output or a
# figure far down is there to be found), no autosave, no news or update checks.
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "checkForUpdates": False, "fetchNews": "false"},
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def jupyterlab(tmp_path: Path, folders: list[Path]):
    """A running JupyterLab whose root holds a copy of each of `folders` (folders of the kit,
    at their place in it); yields (base url, token, log file). Always stopped. A context
    manager rather than a fixture, so that what is missing for the browser is said first, and
    a JupyterLab that does not start is the test's failure, not an error."""
    jupyter = Path(sys.executable).parent / "jupyter"
    if not jupyter.is_file():
        pytest.fail(f"There is no jupyter beside {sys.executable}; set the kit up first "
                    "(python3 start.py --setup-only).", pytrace=False)
    root, home = tmp_path / "root", tmp_path / "home"
    for folder in folders:
        shutil.copytree(folder, root / folder.relative_to(manifest.KIT),
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
