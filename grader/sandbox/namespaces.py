"""The child's private view of the machine at level "namespaces": its own mount, network, IPC and
PID namespaces, the mounts that cover what it must not read, and the processes that make sure
nothing it starts outlives it.

What to cover is decided in the grader: `secrets` (the kit's solutions/ and source/, the lab's
expected observations, the output folder, the instructor's extra tests) are covered by empty
mounts, and `reachable` finds the folders on the way to the interpreter that the child's user
could not enter (such as /root), to be covered too with only the interpreter's own folder put
back. `enter` does it, between fork and exec, and may only make system calls.

The process running the submission's code is the second process of a PID namespace whose
first, a small reaper, only waits: when the submission's process ends or is stopped, the reaper
ends, and the kernel kills every other process in the namespace (forked, double-forked, in a
session of its own, daemonised). Outside the namespace a third process, the relay, stays the
runner's child and ends the way the submission's process ended, so exit codes and signals read
as before. The PID namespace is the kernel's own mechanism (the one bubblewrap's --unshare-pid
uses); the kit builds it itself because its mounts and change of user must happen inside it, in
the same step.
"""
from __future__ import annotations

import ctypes
import os
import signal
import stat
from pathlib import Path

from lab.check import manifest

try:
    import resource
except ImportError:  # not POSIX: the sandbox's prepare() says plainly that it needs Linux
    resource = None

CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWPID = 0x20000, 0x40000000, 0x8000000, 0x20000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
PR_SET_PDEATHSIG = 1


# --- decided in the grader ------------------------------------------------------------------

def secrets(out: Path | None, extra_files=()) -> list[str]:
    """The paths a submission must not read: the kit's solutions and single source, the
    reference's observations, the output folder and the instructor's extra tests files."""
    paths = [manifest.SOLUTIONS, manifest.SOURCE] + [lab.expected for lab in manifest.labs()]
    if out is not None:
        paths.append(Path(out))
    paths += [Path(p) for p in extra_files]
    return [os.path.realpath(p) for p in paths]


def reachable(paths, uid, gid) -> list[tuple[str, list[str]]]:
    """The folders on the way to `paths` that user uid could not enter, each with the names in
    it that must be put back. Ordered from the top, so that each cover is made before the
    covers inside what it puts back."""
    covers: dict[str, list[str]] = {}
    for path in paths:
        parts = Path(os.path.realpath(path)).parts
        for i in range(1, len(parts)):
            folder = os.path.join(*parts[:i])
            info = os.stat(folder)
            if not _may_enter(info, uid, gid):
                keep = covers.setdefault(folder, [])
                if parts[i] not in keep:
                    keep.append(parts[i])
    return sorted(covers.items(), key=lambda item: len(Path(item[0]).parts))


def _may_enter(info, uid, gid) -> bool:
    if info.st_uid == uid:
        return bool(info.st_mode & stat.S_IXUSR)
    if info.st_gid == gid:
        return bool(info.st_mode & stat.S_IXGRP)
    return bool(info.st_mode & stat.S_IXOTH)


# --- between fork and exec -----------------------------------------------------------------

def enter(libc, hidden: list[str], reopen: list[tuple[str, list[str]]]) -> None:
    """Make the new namespaces, cover `reopen` (putting back the names kept in each) and
    `hidden`, and return in the second process of the new PID namespace, the one that goes on
    to run the child; the relay and the reaper never return from here."""
    inherited = _open_files()
    if libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWPID) != 0:
        raise OSError(ctypes.get_errno(), "unshare")
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # dies with the runner
    news = _fork_and_relay(libc, inherited)
    # Now the first process of the new PID namespace, its reaper.
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # dies with the relay
    _mount(libc, b"none", b"/", None, MS_REC | MS_PRIVATE, None)
    _mount(libc, b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
    for cover, keep in reopen:
        handles = [(name, os.open(os.path.join(cover, name), os.O_PATH)) for name in keep]
        _mount(libc, b"tmpfs", cover.encode(), b"tmpfs", 0, b"mode=0711,size=64k")
        for name, handle in handles:
            place = os.path.join(cover, name)
            if stat.S_ISDIR(os.fstat(handle).st_mode):
                os.mkdir(place, 0o755)
            else:
                os.close(os.open(place, os.O_CREAT | os.O_WRONLY, 0o644))
            _mount(libc, f"/proc/self/fd/{handle}".encode(), place.encode(), None,
                   MS_BIND | MS_REC, None)
            os.close(handle)
    for path in hidden:
        if os.path.isdir(path):
            _mount(libc, b"tmpfs", path.encode(), b"tmpfs", MS_RDONLY, b"mode=0555,size=4k")
        elif os.path.exists(path):
            _mount(libc, b"/dev/null", path.encode(), None, MS_BIND, None)
    _fork_and_reap(news, inherited)
    # Now the second process of the namespace: the one that runs the child.


def _mount(libc, source, target, kind, flags, data) -> None:
    if libc.mount(source, target, kind, flags, data) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"mount {target!r}: {os.strerror(errno)}")


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
