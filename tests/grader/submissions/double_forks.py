# Double-forks at import: a child that forks a grandchild and exits at once, so the grandchild
# (`sleep 300`, marked for the grader's tests) is an orphan, still in the process group.
import os as _os

if _os.fork() == 0:
    if _os.fork() == 0:
        _os.execv("/bin/sleep", ["@LEFT@", "300"])
    _os._exit(0)
