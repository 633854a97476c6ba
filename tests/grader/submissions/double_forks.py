# Double-forks at import: a child that forks a grandchild and exits at once, so the grandchild
# (a sleep of 300 seconds in the interpreter, marked for the grader's tests) is an orphan,
# still in the process group.
import os as _os
import sys as _sys

if _os.fork() == 0:
    if _os.fork() == 0:
        _os.execv(_sys.executable, [_sys.executable, "-c", "import time; time.sleep(300)",
                                    "@LEFT@"])
    _os._exit(0)
