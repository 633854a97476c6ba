"""The child's view of the machine at "namespaces": an allow-list, built from nothing.

The child's root is an empty tmpfs. Into it go, bound read-only at the paths they have outside:
the interpreter (its executable, the standard library, the site-packages it imports from) and
the system libraries the dynamic loader lists for them; the kit's runtime that the tests import
(its lab/ package, and each lesson's lesson.toml, from which the checker takes test ids and the
lab that adds a missing name); and, read-write, the folder the child is started in, its scratch
folder. Beside them: a /dev holding only null, zero, random and urandom, a /proc of its own PID
namespace, and a /tmp, /var/tmp and /dev/shm of its own, empty tmpfs mounts that are gone when
it ends. Every symbolic link on the way to one of these is there too, as the same link.

Nothing else exists for the child: not the kit's .git, starters, solutions or source, not the
submissions or output folders, not the instructor's extra tests, no other program (no shell, no
git). The tests need no file either: the runner sends their code, with the wanted values taken
out, on the child's standard input (lab/check/process.py).

`plan` decides the view in the grader, as a list of steps; `build` makes it between fork and
exec, where only system calls are safe, and moves the child's root into it (pivot_root).
"""
from __future__ import annotations

import ctypes
import functools
import hashlib
import json
import os
import platform
import site
import stat
import subprocess
import sys
import sysconfig
from pathlib import Path

from lab.check import manifest

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND = 32, 4096
MNT_DETACH = 2
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}

DEVICES = ("null", "zero", "random", "urandom")
DEVICE_LINKS = {"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
                "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"}
OWN_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm")  # empty and its own, gone when it ends


# --- decided in the grader ------------------------------------------------------------------

def plan(base: Path, temporary_mb: int) -> list[list]:
    """The steps that build the view of a child whose scratch folder is in `base`, each
    ["dir", path], ["link", path, target], ["bind", path, is_folder, remount flags (0: leave
    as it is)] or ["tmpfs", path, options], in the order they must be made; the last,
    ["scratch", the folder scratch folders are in, options], says how the scratch folder is
    mounted."""
    view = _View()
    for path in [*interpreter(), *libraries(), *kit_runtime()]:
        view.bind(path, MS_RDONLY | MS_NOSUID | MS_NODEV)
    for name in DEVICES:
        view.bind(f"/dev/{name}", 0)  # as it is: writable, and a device
    for name, target in DEVICE_LINKS.items():
        view.links[f"/dev/{name}"] = target
    options = f"mode=1777,size={temporary_mb}m,nr_inodes=16384"
    for folder in OWN_FOLDERS:
        view.tmpfs[folder] = options
    view.folders.add("/proc")
    scratches = view.resolve(str(base))
    view.folders.add(scratches)  # the scratch folder is made in it
    # The scratch folder is a tmpfs of its own too, holding a copy of what the grader put in
    # it: a file that fills it fills only its own, and what "." shows as free is its own.
    return view.steps() + [["scratch", scratches,
                            f"mode=0700,size={temporary_mb}m,nr_inodes=16384"]]


def allowed(steps: list[list]) -> dict[str, str]:
    """{path: "open" or "leaf"} for the probe: what the view may hold. An "open" folder is one
    of the view's own, whose every entry must be allowed too; a "leaf" is bound or a link."""
    found = {step[1]: "open" if step[0] in ("dir", "tmpfs") else "leaf" for step in steps
             if step[0] != "scratch"}
    found["/proc"] = "leaf"  # its own PID namespace's
    return found


def interpreter() -> list[str]:
    """What this Python needs to start and import its standard library and site-packages."""
    paths = {sys.executable, sysconfig.get_path("stdlib"), sysconfig.get_path("platstdlib"),
             *site.getsitepackages(), *(p for p in sys.path if p.endswith("lib-dynload"))}
    if sys.prefix != sys.base_prefix:
        paths.add(os.path.join(sys.prefix, "pyvenv.cfg"))
    return sorted(p for p in paths if p and os.path.exists(p))


@functools.cache
def libraries() -> list[str]:
    """The shared libraries the interpreter and its extension modules load, as the dynamic
    loader (ldd) lists them with the child's environment; with libgcc_s, which the C library
    loads only when a thread ends abruptly (as a daemon thread does when the interpreter ends),
    and the loader's cache. Empty where there is no ldd: the probe then finds that the child
    cannot start.

    Listing them runs the loader once for every extension module the interpreter can import
    (about 900 in a kit set up with JupyterLab: 3 s of processor time), so the list is kept in
    the user's cache folder under a key of what it depends on (library_key); every grader
    started on the same interpreter and site-packages reads it back."""
    cached = _cache_file()
    try:
        found = json.loads(cached.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        found = None
    if not (isinstance(found, list) and found and all(isinstance(p, str) for p in found)):
        found = _listed_by_ldd()
        if found:
            _keep(cached, found)
    return sorted(p for p in found if os.path.exists(p))


def library_key() -> str:
    """What the list of libraries follows from, without walking the folders: the interpreter,
    the loader's cache, and the modification time of each folder the interpreter imports from
    and of each folder directly in it. Installing, removing or upgrading a package makes or
    removes a folder there, which changes the key."""
    marks = [os.path.realpath(sys.executable), sys.version]
    for path in [sys.executable, "/etc/ld.so.cache", *interpreter()]:
        try:
            marks.append(f"{path} {os.stat(path).st_mtime_ns}")
        except OSError:
            marks.append(f"{path} -")
        if os.path.isdir(path):
            with os.scandir(path) as entries:
                marks += sorted(f"{e.name} {e.stat().st_mtime_ns}" for e in entries
                                if e.is_dir(follow_symlinks=False))
    return hashlib.sha256("\n".join(marks).encode()).hexdigest()[:32]


def _cache_file() -> Path:
    # The folder platformdirs.user_cache_dir("harness-course") names on Linux, where alone the
    # grader runs (grader/page/teaching.py keeps its lessons there); a Gradescope bundle's
    # Python has the standard library alone, so it is found here as the XDG rule says.
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(home) / "harness-course" / f"view-libraries-{library_key()}.json"


def _keep(path: Path, found: list[str]) -> None:
    """Write the list where the next grader finds it, whole or not at all (graders started at
    once may write it together); a cache folder that cannot be written only costs the time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}")
        partial.write_text(json.dumps(sorted(found)), encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        pass


def _listed_by_ldd() -> list[str]:
    objects = [os.path.realpath(sys.executable)]
    for top in {p for p in interpreter() if os.path.isdir(p)}:
        for folder, _, names in os.walk(top):
            objects += [os.path.join(folder, n) for n in names if ".so" in n]
    try:
        listed = subprocess.run(["ldd", *sorted(set(objects))], capture_output=True, text=True,
                                env={"PATH": "/usr/bin:/bin"}, timeout=120).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found = set()
    for line in listed.splitlines():
        if not line.startswith("\t"):
            continue  # a file's name, before the libraries it needs
        path = line.split("=>")[-1].strip().split(" (")[0]
        if path.startswith("/"):
            found.add(os.path.normpath(path))
    for folder in {os.path.dirname(p) for p in found}:
        found.add(os.path.join(folder, "libgcc_s.so.1"))
    found.add("/etc/ld.so.cache")
    return sorted(p for p in found if os.path.exists(p))


def kit_runtime() -> list[str]:
    """The kit's part the child imports and reads: lab/, and each lesson's lesson.toml."""
    return [str(manifest.KIT / "lab"),
            *sorted(str(p) for p in manifest.LESSONS.glob("*/lesson.toml"))]


class _View:
    """The view being planned: what is bound, linked, made as a folder or as a tmpfs."""

    def __init__(self):
        self.binds: dict[str, list] = {}
        self.links: dict[str, str] = {}
        self.folders: set[str] = set()
        self.tmpfs: dict[str, str] = {}

    def bind(self, path: str, flags: int) -> None:
        real = self.resolve(path)
        self.binds[real] = [real, os.path.isdir(real), flags]

    def resolve(self, path: str) -> str:
        """The real path of `path`, each symbolic link met on the way kept to be made as the
        same link, so that the path resolves in the view as it does outside."""
        real, rest, hops = "/", list(Path(path).parts[1:]), 0
        while rest:
            part = rest.pop(0)
            if part == "..":
                real = os.path.dirname(real)
                continue
            here = os.path.join(real, part)
            if not os.path.islink(here):
                real = here
                continue
            hops += 1
            if hops > 40:
                raise OSError(f"too many symbolic links on the way to {path}")
            target = os.readlink(here)
            self.links[here] = target
            parts = Path(target).parts
            if target.startswith("/"):
                real, parts = "/", parts[1:]
            rest = list(parts) + rest
        return real

    def steps(self) -> list[list]:
        # What lies inside a bound folder is there already, and the bound folder is read-only.
        inside = [p + "/" for p, (_, folder, _) in self.binds.items() if folder]

        def covered(path):
            return any(path.startswith(top) for top in inside)
        binds = {p: b for p, b in self.binds.items() if not covered(p)}
        links = {p: t for p, t in self.links.items() if not covered(p)}
        places = [*binds, *links, *self.tmpfs, *self.folders]
        folders = {str(parent) for p in places for parent in Path(p).parents} | self.folders
        folders -= {"/", *binds, *links, *self.tmpfs}

        steps = ([["dir", p] for p in folders] + [["bind", *b] for b in binds.values()]
                 + [["link", p, t] for p, t in links.items()]
                 + [["tmpfs", p, o] for p, o in self.tmpfs.items()])
        # Each after the folder it goes in, which may be a tmpfs (a scratch folder in /tmp).
        return sorted(steps, key=lambda step: (step[1].count("/"), step[1]))


# --- between fork and exec -----------------------------------------------------------------

def build(libc, steps: list[list], root: str, base: str) -> None:
    """Make the view in a tmpfs mounted on `root` (an empty folder), bind the folder this
    process was started in (its scratch folder, which must be in `base`) read-write, and move
    this process's root into the view. Only for a process in a mount namespace of its own."""
    here = os.getcwd()
    if os.path.dirname(here) != base:
        raise OSError(f"a child is started only in a scratch folder of {base}, not in {here}")
    os.umask(0o022)
    _mount(libc, b"tmpfs", root, b"tmpfs", MS_NOSUID | MS_NODEV, b"mode=0755,size=1m")
    scratch = None
    for step in steps:
        kind, place = step[0], root + step[1]
        if kind == "scratch":
            scratch = step[2]
        elif kind == "dir":
            os.mkdir(place, 0o755)
        elif kind == "link":
            os.symlink(step[2], place)
        elif kind == "bind":
            _bind(libc, step[1], place, step[2], step[3])
        else:
            os.mkdir(place, 0o755)
            _mount(libc, b"tmpfs", place, b"tmpfs", MS_NOSUID | MS_NODEV, step[2].encode())
    if scratch is None:
        _bind(libc, here, root + here, True, MS_NOSUID | MS_NODEV)
    else:
        _own_scratch(libc, here, root + here, scratch)
    os.chdir(root)
    number = SYS_PIVOT_ROOT.get(platform.machine())
    if number is None or libc.syscall(number, b".", b".") != 0:
        raise OSError(ctypes.get_errno(), "pivot_root")
    if libc.umount2(b".", MNT_DETACH) != 0:  # the old root, now stacked on the new one
        raise OSError(ctypes.get_errno(), "umount2")
    os.chdir("/")
    _mount(libc, b"proc", "/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
    _mount(libc, None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, None)
    os.chdir(here)


def _own_scratch(libc, here: str, place: str, options: str) -> None:
    """A tmpfs at `place` owned by the owner of the scratch folder `here`, holding a copy of
    each file the grader put in `here` (harness.py): with system calls alone."""
    owner = os.stat(here)
    os.mkdir(place, 0o700)
    _mount(libc, b"tmpfs", place, b"tmpfs", MS_NOSUID | MS_NODEV,
           f"{options},uid={owner.st_uid},gid={owner.st_gid}".encode())
    for name in os.listdir(here):
        source = os.open(os.path.join(here, name), os.O_RDONLY | os.O_NOFOLLOW)
        try:
            if not stat.S_ISREG(os.fstat(source).st_mode):
                continue
            target = os.open(os.path.join(place, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                             0o600)
            try:
                while data := os.read(source, 1 << 16):
                    os.write(target, data)
                os.fchown(target, owner.st_uid, owner.st_gid)
            finally:
                os.close(target)
        finally:
            os.close(source)


def _bind(libc, source: str, place: str, folder: bool, flags: int) -> None:
    if folder:
        os.mkdir(place, 0o755)
    else:
        os.close(os.open(place, os.O_CREAT | os.O_WRONLY, 0o644))
    _mount(libc, source, place, None, MS_BIND, None)
    if flags:
        _mount(libc, None, place, None, MS_REMOUNT | MS_BIND | flags, None)


def _mount(libc, source, target: str, kind, flags: int, data) -> None:
    source = source.encode() if isinstance(source, str) else source
    if libc.mount(source, target.encode(), kind, flags, data) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"mount {target!r}: {os.strerror(errno)}")
