import os


def _leave(self):
    os._exit(0)  # no exception, no cleanup: the process is simply gone


CancelToken.cancel = _leave
