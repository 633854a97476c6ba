# Jams the grader: at import, writes garbage into every pipe its grader's worker holds (its
# parent process, which it reaches through /proc only where it runs as the grader's own user),
# the pool's queues among them, so that the grader reads that garbage as the length of a result
# and waits for it; then leaves a process in a session of its own that holds those pipes open,
# so that they never end either. It skips the pipes it holds itself: garbage in its report
# channel would only get it stopped at once. Its garbage is a line the interpreter's resource
# tracker (the worker holds a pipe to it too) takes for a probe, so that the tracker does not
# print a traceback on the tests' terminal for each. It prints how many pipes it wrote into. The
# process it leaves carries a mark the grader's tests look for.
import os as _os
import stat as _stat
import sys as _sys


def _jam():
    parent, held = _os.getppid(), []
    mine = set()
    for fd in _os.listdir("/proc/self/fd"):
        try:
            mine.add(_os.stat(f"/proc/self/fd/{fd}").st_ino)
        except OSError:
            pass
    try:
        listed = _os.listdir(f"/proc/{parent}/fd")
    except OSError:
        listed = []
    for fd in listed:
        try:
            found = _os.stat(f"/proc/{parent}/fd/{fd}")
            if not _stat.S_ISFIFO(found.st_mode) or found.st_ino in mine:
                continue
            out = _os.open(f"/proc/{parent}/fd/{fd}", _os.O_WRONLY | _os.O_NONBLOCK)
            _os.write(out, b"PROBE:0:noop\n")
            held.append(out)
        except OSError:
            pass
    print(f"jammer: its worker's pipes written: {len(held)}")
    if held and _os.fork() == 0:
        _os.setsid()
        if _os.fork() == 0:
            null = _os.open(_os.devnull, _os.O_RDWR)
            for fd in (0, 1, 2):
                _os.dup2(null, fd)
            for fd in held:
                _os.set_inheritable(fd, True)
            _os.execv(_sys.executable, [_sys.executable, "-c", "import time; time.sleep(300)",
                                        "@LEFT@"])
        _os._exit(0)
    for fd in held:
        _os.close(fd)


_jam()
