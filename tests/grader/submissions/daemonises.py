# Daemonises at import, as issue 12 found: fork, a new session, fork again, and a grandchild
# that execs a sleep of 300 seconds (the interpreter, the one program a submission can reach)
# holding the inherited output. Its command line carries a mark the grader's tests look for.
import os as _os
import sys as _sys

if _os.fork() == 0:
    _os.setsid()
    if _os.fork() == 0:
        _os.execv(_sys.executable, [_sys.executable, "-c", "import time; time.sleep(300)",
                                    "@LEFT@"])
    _os._exit(0)
