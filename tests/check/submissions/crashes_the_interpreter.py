import os
import signal


def _crash(self):
    os.kill(os.getpid(), signal.SIGSEGV)


CancelToken.cancel = _crash
