# Starts a thread at import that spins for ever and is not a daemon, so the process cannot end
# by itself. The thread names itself with a mark the grader's tests look for afterwards.
import ctypes as _ctypes
import threading as _threading
import time as _time


def _spin():
    _ctypes.CDLL(None).prctl(15, b"@LEFT@", 0, 0, 0)  # PR_SET_NAME
    while True:
        _time.sleep(0)  # gives up the interpreter lock each time round, so the tests still run


_threading.Thread(target=_spin, daemon=False).start()
