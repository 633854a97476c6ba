"""start.py, the README's first command: a flag it does not know is named and nothing is set up
or started (a reader's `start.py --help` once installed the kit and opened JupyterLab)."""
import subprocess
import sys

from lab.check import manifest


def start(*args):
    return subprocess.run([sys.executable, str(manifest.KIT / "start.py"), *args],
                          capture_output=True, text=True, timeout=60)


def test_help_says_what_start_does_and_sets_up_nothing():
    done = start("--help")
    assert done.returncode == 0 and "--setup-only" in done.stdout, (
        f"start.py --help should print its usage and stop; it exited {done.returncode} "
        f"printing:\n{done.stdout}{done.stderr}")
    assert "Installing" not in done.stdout and "JupyterLab on the lessons. Stop" not in done.stdout


def test_a_mistyped_flag_is_named_and_nothing_is_started():
    done = start("--setup_only")
    assert done.returncode == 2 and "unrecognized arguments: --setup_only" in done.stderr, (
        f"start.py --setup_only (a typo) should be refused with exit code 2 and the flag named; "
        f"it exited {done.returncode} printing:\n{done.stdout}{done.stderr}")
    assert "Installing" not in done.stdout
