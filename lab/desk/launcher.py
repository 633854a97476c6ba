"""`course lab`: JupyterLab on the kit folder, lessons and work side by side. The one way the
course is opened: start.py runs this command too."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from lab.check import manifest
from lab.desk.workfolder import PACKAGE, kit_env

# What JupyterLab's file browser does not list: Jupyter's own defaults, and the folders that
# hold answers (the authors' wing with its prediction keys, pins and hints; the references).
# Hidden from view, not locked: the lessons' reference cells still import solutions/.
HIDDEN_FROM_BROWSER = ("__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~", "source", "solutions")


def jupyter(extra: list[str]) -> int:
    """Start JupyterLab on the kit folder (lessons and work side by side), opened at the first
    lesson, without a browser when $CI is set; `extra` is passed through. The one launcher:
    start.py opens the course through it too. Its terminals find this Python first on PATH,
    so `python lab/lab_check.py ...` there is the kit's."""
    kit = PACKAGE.parent
    first = [lesson.notebook for lesson in manifest.lessons() if lesson.notebook.is_file()][:1]
    where = first[0].relative_to(kit).as_posix() if first else "lessons"
    flags = ["--notebook-dir", str(kit), f"--LabApp.default_url=/lab/tree/{where}",
             f"--ContentsManager.hide_globs={list(HIDDEN_FROM_BROWSER)!r}"]
    if os.environ.get("CI"):
        flags.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags.append("--allow-root")  # a container's only user; JupyterLab refuses otherwise
    flags += extra
    print("Starting: " + shlex.join(["jupyter", "lab", *flags]), flush=True)
    env = kit_env()
    here = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(filter(None, [here, env.get("PATH")]))
    if sys.prefix != sys.base_prefix:
        env["VIRTUAL_ENV"] = sys.prefix
    try:
        return subprocess.run([sys.executable, "-m", "jupyter", "lab", *flags],
                              env=env).returncode
    except KeyboardInterrupt:
        return 0
