# Daemonises at import, as issue 12 found: fork, a new session, fork again, and a grandchild
# that execs `sleep 300` holding the inherited output. Its command line carries a mark the
# grader's tests look for afterwards.
import os as _os

if _os.fork() == 0:
    _os.setsid()
    if _os.fork() == 0:
        _os.execv("/bin/sleep", ["@LEFT@", "300"])
    _os._exit(0)
