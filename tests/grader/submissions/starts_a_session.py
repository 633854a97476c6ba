# Starts a process in a session of its own at import (`sleep 300`, marked for the grader's
# tests), out of reach of a kill of the process group.
import os as _os

if _os.fork() == 0:
    _os.setsid()
    _os.execv("/bin/sleep", ["@LEFT@", "300"])
