"""Whom a submission runs as: a user of its own for each worker slot, and the sweep that ends
whatever such a user left running.

A slot is one of the batch's workers. As root, each slot runs its submissions as a user of its
own: uids from FIRST_UID up, which no account on the machine has, so that two submissions
graded at the same time can neither read nor change each other's files. Where no such range is
free (a container that maps few uids), every slot shares `nobody`; at "limits" every slot shares
the grader's user. A shared user lets a submission reach the one graded beside it, so the
sandbox's `workers` then grades one at a time unless the instructor allows sharing.
"""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

try:
    import grp
    import pwd
except ImportError:  # not POSIX: the sandbox's prepare() says plainly that it needs Linux
    grp = pwd = None  # type: ignore[assignment]

# Slot users: slot n of a batch runs as uid and gid FIRST_UID + SLOTS * (the grader's process
# id) + n. Deriving the range from the process id keeps two graders running at once on one
# machine apart; with pid_max at most 2**22 the ids stay below 2**31.
FIRST_UID = 10_000_000
SLOTS = 256

_CLAIMED: set[int] = set()  # first ids of the ranges this process has used: its own


def free_uids(count: int) -> int | None:
    """The first of `count` ids, from this grader's range, that can serve as slot users (uid
    and gid alike): no account or group has one, none is handed to users for their own user
    namespaces (/etc/subuid, /etc/subgid), this user namespace maps them all, and no process
    runs as one, unless this grader used them before (a process of its last batch may still
    be dying). None when any of that fails: the sweep must never reach another's process."""
    first = FIRST_UID + SLOTS * os.getpid()
    ids = range(first, first + count)
    if count > SLOTS or not all(_mapped(f"/proc/self/{kind}_map", first, count)
                                for kind in ("uid", "gid")):
        return None
    for n in ids:
        for lookup in (pwd.getpwuid, grp.getgrgid):
            try:
                lookup(n)
                return None
            except KeyError:
                pass
    for path in ("/etc/subuid", "/etc/subgid"):
        try:
            lines = Path(path).read_text().splitlines()
        except OSError:
            continue
        for line in lines:
            start_, _, length = line.partition(":")[2].partition(":")
            if start_.isdigit() and length.strip().isdigit() and \
                    int(start_) < ids.stop and ids.start < int(start_) + int(length):
                return None
    if first not in _CLAIMED and any(owner in ids for _, owner, _ in processes()):
        return None
    _CLAIMED.add(first)
    return first


def _mapped(path: str, first: int, count: int) -> bool:
    try:
        numbers = [int(n) for n in Path(path).read_text().split()]
    except (OSError, ValueError):
        return False
    return any(inside <= first and first + count <= inside + length
               for inside, _, length in zip(*[iter(numbers)] * 3))


def nobody() -> tuple[int, int] | None:
    """(uid, gid) of the user `nobody`, which every slot shares where no ids are free; None
    where the machine has no such user."""
    try:
        found = pwd.getpwnam("nobody")
    except KeyError:
        return None
    return found.pw_uid, found.pw_gid


def name(uid: int) -> str | None:
    """The account name of `uid`; None for an id no account has (a slot user's)."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return None


def sweep(uid: int) -> None:
    """Kill every process the user `uid` runs, and wait until none runs. Only for a slot's own
    user: `nobody` and the grader's own user are shared with others."""

    def kill_all():
        # Signal -1 reaches every process this user owns in one step: the kernel walks
        # the processes holding a lock that fork needs, so none is born meanwhile.
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        # The killing is done between fork and exec, as that user; what is run after it
        # only has to exist (the interpreter may sit in a folder that user cannot enter).
        subprocess.run(["/bin/true"], user=uid, group=uid, extra_groups=[],
                       preexec_fn=kill_all, cwd="/", env={}, check=False)
    except OSError:
        pass
    for _ in range(300):  # SIGKILL is not instant; a dying process is gone within ms
        if not any(owner == uid and state not in "ZX" for _, owner, state in processes()):
            return
        time.sleep(0.01)


def processes() -> list[tuple[int, int, str]]:
    """(pid, owner's uid, state letter) of every process this /proc shows."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                owner = os.stat(f"/proc/{entry}").st_uid
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    state = handle.read().rsplit(b")", 1)[1].split()[0].decode()
            except (OSError, IndexError):
                continue
            found.append((int(entry), owner, state))
    return found


def processes_of(uid: int) -> int:
    return sum(owner == uid for _, owner, _ in processes())
