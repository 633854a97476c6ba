"""The child's private machine at level "namespaces": its own mount, network, IPC and PID
namespaces, a view of the file system built from an allow-list (grader/sandbox/view.py), and
the processes that make sure nothing it starts outlives it. `enter` does it, between fork and
exec, and may only make system calls.

The process running the submission's code is the second process of a PID namespace whose
first, a small reaper, only waits: when the submission's process ends or is stopped, the reaper
ends, and the kernel kills every other process in the namespace (forked, double-forked, in a
session of its own, daemonised). Outside the namespace a third process, the relay, stays the
runner's child and ends the way the submission's process ended, so exit codes and signals read
as before. The PID namespace is the kernel's own mechanism (the one bubblewrap's --unshare-pid
uses); the kit builds it itself because its mounts and change of user must happen inside it, in
the same step. When the last of its processes ends, the mount namespace goes, and with it the
child's own /tmp, /var/tmp and /dev/shm.
"""
from __future__ import annotations

import ctypes
import os
import signal

from grader.sandbox import view

try:
    import resource
except ImportError:  # not POSIX: the sandbox's prepare() says plainly that it needs Linux
    resource = None  # type: ignore[assignment]

CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWPID = 0x20000, 0x40000000, 0x8000000, 0x20000000
MS_REC, MS_PRIVATE = 16384, 1 << 18
PR_SET_PDEATHSIG = 1


# --- between fork and exec -----------------------------------------------------------------

def enter(libc, steps: list[list], root: str, base: str) -> None:
    """Make the new namespaces and the view `steps` plans (grader/sandbox/view.py, in a tmpfs
    on `root`, with the scratch folder in `base`), and return in the second process of the new
    PID namespace, the one that goes on to run the child; the relay and the reaper never
    return from here."""
    inherited = _open_files()
    if libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWPID) != 0:
        raise OSError(ctypes.get_errno(), "unshare")
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # dies with the runner
    news = _fork_and_relay(libc, inherited)
    # Now the first process of the new PID namespace, its reaper: its /proc is mounted here.
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # dies with the relay
    if libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        raise OSError(ctypes.get_errno(), "mount --make-rprivate /")
    view.build(libc, steps, root, base)
    _fork_and_reap(news, inherited)
    # Now the second process of the namespace: the one that runs the child.


def _fork_and_relay(libc, inherited: list[int]) -> int:
    """Fork the first process of the new PID namespace, which returns from here with the end
    of a pipe to write its news into. This process, outside the namespace, stays the runner's
    child: it waits for the namespace's work and ends the way the process running harness.py
    ended (the reaper sends that through the pipe, since a namespace's first process cannot
    end itself by a signal)."""
    reading, writing = os.pipe()
    if os.fork() == 0:
        os.close(reading)
        return writing
    os.close(writing)
    # Holding none of the child's files: not the runner's pipes, and not the pipe on which
    # subprocess learns that exec happened (it waits for that pipe to close).
    _keep_only(reading, inherited)
    said = b""
    while chunk := os.read(reading, 16):
        said += chunk
    _, status = os.waitpid(-1, 0)
    if len(said) == 4:
        status = int.from_bytes(said, "little")
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        libc.signal(number, 0)  # SIG_DFL, so the signal ends this process too
        os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.WEXITSTATUS(status))


def _fork_and_reap(news: int, inherited: list[int]) -> None:
    """Fork the process that will run harness.py, which returns from here. This one, the
    namespace's first, reaps whatever is orphaned inside until that process ends, then writes
    its status into `news` for the relay and exits: the kernel then kills everything left in
    the namespace."""
    harness = os.fork()
    if harness == 0:
        os.close(news)
        return
    _keep_only(news, inherited)
    while True:
        ended, status = os.waitpid(-1, 0)
        if ended == harness:
            break
    os.write(news, status.to_bytes(4, "little"))
    os._exit(0)


def _open_files() -> list[int]:
    listed = [int(fd) for fd in os.listdir("/proc/self/fd")]
    return [fd for fd in listed if _is_open(fd)]  # not the one the listing itself used


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


def _keep_only(keep: int, inherited: list[int]) -> None:
    for fd in inherited:
        if fd != keep:
            try:
                os.close(fd)
            except OSError:
                pass
