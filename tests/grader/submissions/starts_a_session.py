# Starts a process in a session of its own at import (a sleep of 300 seconds in the
# interpreter, marked for the grader's tests), out of reach of a kill of the process group.
import os as _os
import sys as _sys

if _os.fork() == 0:
    _os.setsid()
    _os.execv(_sys.executable, [_sys.executable, "-c", "import time; time.sleep(300)",
                                "@LEFT@"])
