#!/usr/bin/env python3
"""Set up the course kit and open it: python3 start.py

Makes a virtual environment in .venv (once), installs the kit into it (editable, so the
lessons, the checker and the grader all use this folder), and starts JupyterLab on the
lessons. Needs only Python 3.11 or newer and a network to the package index.

    python3 start.py               set up, then open JupyterLab (Ctrl-C stops it)
    python3 start.py --setup-only  set up and stop (what CI does)
    python3 start.py -- ARGS       pass ARGS on to `jupyter lab` (e.g. --no-browser --port 8899)
"""
import argparse
import os
import subprocess
import sys
import venv
from pathlib import Path

KIT = Path(__file__).resolve().parent
VENV = KIT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def main(argv):
    if sys.version_info < (3, 11):
        sys.exit(f"The course needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    cut = argv.index("--") if "--" in argv else len(argv)
    own, passed_on = argv[:cut], argv[cut + 1:]
    # Before anything is made or installed: a mistyped flag is named, not taken for a start.
    asked = argparse.ArgumentParser(
        prog="start.py", description="Set up the course kit, then open JupyterLab on the lessons.",
        epilog="python3 start.py -- ARGS passes ARGS on to `jupyter lab` (e.g. --no-browser).")
    asked.add_argument("--setup-only", action="store_true", help="set up and stop (what CI does)")
    setup_only = asked.parse_args(own).setup_only
    python = BIN / ("python.exe" if os.name == "nt" else "python")
    if not python.exists():
        print("Making the virtual environment in .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("Installing the kit and its packages (a minute or two the first time) ...", flush=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "-e", str(KIT)], check=True)
    print("Ready. Check a lab from its folder with: python lab/lab_check.py --harness harness.py "
          f"--lesson 15 tests.py  (or: {BIN.relative_to(KIT) / 'course'} check 15.1)")
    if setup_only:
        return 0
    print("Starting JupyterLab on the lessons. Stop it with Ctrl-C.", flush=True)
    # The desk's launcher, `course lab`, is the one way the course is opened.
    try:
        return subprocess.run([str(python), "-m", "lab.desk.course", "lab", "--",
                               *passed_on]).returncode
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
