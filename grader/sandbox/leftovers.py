"""What a submission leaves on the disk, removed: its scratch folder, and, where it ran as a slot
user of its own without namespaces, what that user left in the machine's shared temporary
folders (at "namespaces" those are the child's own and go with it).

Both go through `remove`, which is GNU rm's `rm -rf --one-file-system`, not shutil.rmtree: rmtree
recurses once per level, and on Python 3.11 a tree a submission leaves a thousand levels deep
raises RecursionError, which no ignore_errors catches; rm walks any depth, never follows a link
and never leaves the file system it starts on. It never raises: what cannot be removed stays.
"""
from __future__ import annotations

import os
import stat
import subprocess

SHARED = ("/tmp", "/var/tmp", "/dev/shm")  # where any user may write, and files outlive them


def remove(path) -> bool:
    """Remove `path`, a file, a link or a folder with all it holds, as far as this process
    may; whether it is gone. Never raises."""
    try:
        subprocess.run(["rm", "-rf", "--one-file-system", "--", os.fspath(path)],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
    except (OSError, ValueError):
        pass
    return not os.path.lexists(path)


def sweep(uid: int) -> None:
    """Remove everything the user `uid` owns in the shared temporary folders: at their top,
    and in every folder there that any user may write to, where it could have put things
    too. Only for a slot's own user, whose files are its submission's alone; never raises."""
    folders = [place for place in SHARED if os.path.isdir(place)]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError:
            continue
        for entry in listed:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if info.st_uid == uid:
                remove(entry.path)
            elif stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_IWOTH:
                folders.append(entry.path)
