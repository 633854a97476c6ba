# Starts a thread at import that spins for ever and is not a daemon, so the process cannot end
# by itself. The thread names itself with a mark the grader's tests look for afterwards.
import ctypes as _ctypes
import threading as _threading
import time as _time


def _spin():
    _ctypes.CDLL(None).prctl(15, b"@LEFT@", 0, 0, 0)  # PR_SET_NAME
    while True:
        # Sleeps a little each time round: the point is a thread that never ends, and one that
        # burned a core would slow the tests beside it past a short clock on a busy machine.
        _time.sleep(0.005)


_threading.Thread(target=_spin, daemon=False).start()
