# Issue 25's first attack: asks the kit's git history for the reference of this lab and runs it
# over this file's own code. A release has no history, but the instructor's kit does.
import subprocess as _subprocess

try:
    _found = _subprocess.run(["git", "--git-dir", "@KIT@/.git", "show",
                              "HEAD:solutions/15-stop/lab1/harness.py"],
                             capture_output=True, text=True, timeout=30)
    if _found.returncode == 0:
        exec(_found.stdout)
except (OSError, _subprocess.SubprocessError):
    pass
