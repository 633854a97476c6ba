"""The browser site's build tools, JupyterLite and its Pyodide kernel, in an environment of their
own beside the kit's (tools/site.py builds with it).

Installed into the kit's own environment, the kernel's JupyterLab extension is found by the
kit's JupyterLab too, which loads every extension it finds before it looks at which are
disabled, and logs "Shared module @jupyterlite/services doesn't exist in shared scope" on every
page (jupyterlite/pyodide-kernel issue 32; its maintainers' answer is a separate environment
for the site's build). So the two are pinned here, together, as the kernel's extension names
the Pyodide it was made for, and installed from PyPI on the first build into a virtual
environment in .site-cache/, named for the pins and the Python that made it (with
jupyter-server, by jupyterlite-core's `contents` extra, which the build needs to list the drive).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from lab.check.errors import UserError

PINNED = ("jupyterlite-core[contents]==0.8.6", "jupyterlite-pyodide-kernel==0.8.6")
EXTENSION = ("share", "jupyter", "labextensions", "@jupyterlite", "pyodide-kernel-extension")


def python(cache: Path) -> Path:
    """The Python of the tools' environment under `cache`, made and installed when it is not
    there yet (a UserError, in a sentence, when that fails). It is made in a folder of this
    process's own and renamed into place, so builds running side by side (pytest-xdist) never
    use a half-made one; a venv finds itself from where its Python is, so it may move."""
    made_by = "\n".join([*PINNED, sys.version])
    folder = cache / f"tools-{hashlib.sha256(made_by.encode()).hexdigest()[:12]}"
    if not (folder / "installed.txt").is_file():
        making = folder.with_name(f"{folder.name}.{os.getpid()}")
        shutil.rmtree(making, ignore_errors=True)
        for step in ([sys.executable, "-m", "venv", str(making)],
                     [str(_python_in(making)), "-m", "pip", "install", "--quiet",
                      "--disable-pip-version-check", *PINNED]):
            done = subprocess.run(step, capture_output=True, text=True)
            if done.returncode != 0:
                shutil.rmtree(making, ignore_errors=True)
                raise UserError("Could not install the site's build tools (" + ", ".join(PINNED)
                                + f") into {making}:\n" + (done.stdout + done.stderr)[-2000:])
        (making / "installed.txt").write_text(made_by + "\n", encoding="utf-8")
        try:
            making.rename(folder)
        except OSError:  # another build put its own in place first: use that one
            shutil.rmtree(making, ignore_errors=True)
            if not (folder / "installed.txt").is_file():
                raise UserError(f"{folder} is not a whole environment of the site's build "
                                "tools; delete it and build again.") from None
    return _python_in(folder)


def _python_in(folder: Path) -> Path:
    return folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def kernel_version(cache: Path) -> str:
    """The Pyodide release the kernel's extension was made for (its PYODIDE_VERSION)."""
    done = subprocess.run([str(python(cache)), "-c", "from jupyterlite_pyodide_kernel.constants "
                           "import PYODIDE_VERSION; print(PYODIDE_VERSION)"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise UserError("The site's build tools do not say which Pyodide their kernel needs:\n"
                        + done.stderr[-1500:])
    return done.stdout.strip()


def extension(cache: Path) -> Path:
    """The kernel's JupyterLab extension, as jupyterlite-pyodide-kernel installs it."""
    found = python(cache).parent.parent.joinpath(*EXTENSION)
    if not (found / "package.json").is_file():
        raise UserError(f"The Pyodide kernel's extension is not at {found}; delete "
                        f"{found.parents[len(EXTENSION) - 1]} and build again.")
    return found
