import time

_plain = deny_destructive


def deny_destructive(name, arguments):
    time.sleep(600)  # blocks without a turn and without using the processor: only the clock sees it
    return _plain(name, arguments)
