"""What a submission leaves on the disk, removed: its scratch folder, and, where it ran as a slot
user of its own without namespaces, what that user left in the machine's shared temporary
folders (at "namespaces" those are the child's own and go with it).

Both go through `remove`, which never recurses, never follows a link, holds one folder open at
a time and never raises: a tree thousands of levels deep, a name in no encoding or a folder it
may not enter cannot stop the grader; what cannot be removed stays.
"""
from __future__ import annotations

import os
import stat

SHARED = ("/tmp", "/var/tmp", "/dev/shm")  # where any user may write, and files outlive them

_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


def remove(path) -> None:
    """Remove `path`, a file, a link or a folder with all it holds, as far as this process
    may; never raises."""
    path = os.fspath(path)
    try:
        parent = os.open(os.path.dirname(path) or ".", _FOLDER & ~os.O_NOFOLLOW)
    except (OSError, ValueError):
        return
    try:
        _remove_in(parent, os.path.basename(path))
    except (OSError, ValueError):
        pass
    finally:
        os.close(parent)


def _remove_in(parent: int, name: str) -> None:
    """Remove `name` in the folder open as `parent`. Each folder is read once, its files
    removed and the names of its folders kept in `trail`; the walk goes down one folder at a
    time and back up by "..", checking it comes back to the folder it left."""
    if not stat.S_ISDIR(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode):
        os.unlink(name, dir_fd=parent)
        return
    here = os.open(name, _FOLDER, dir_fd=parent)
    trail = [(name, _identity(here), _emptied(here))]  # (name, identity, folders left in it)
    try:
        while True:
            below = trail[-1][2]
            if below:
                sub = below.pop()
                try:
                    down = os.open(sub, _FOLDER, dir_fd=here)
                except OSError:
                    continue  # not a folder any more, or not one to enter: it stays
                os.close(here)
                here = down
                trail.append((sub, _identity(here), _emptied(here)))
                continue
            gone = trail.pop()[0]
            if not trail:
                break
            up = os.open("..", _FOLDER & ~os.O_NOFOLLOW, dir_fd=here)
            os.close(here)
            here = up
            if _identity(here) != trail[-1][1]:
                return  # moved while it was walked: stop rather than remove elsewhere
            try:
                os.rmdir(gone, dir_fd=here)
            except OSError:
                pass  # something in it stayed
    finally:
        os.close(here)
    os.rmdir(name, dir_fd=parent)


def _emptied(folder: int) -> list[str]:
    """Remove the files and links in the open `folder`; the names of its folders, to walk."""
    folders = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        folders.append(entry.name)
                    else:
                        os.unlink(entry.name, dir_fd=folder)
                except OSError:
                    pass
    except OSError:
        pass
    return folders


def _identity(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


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
