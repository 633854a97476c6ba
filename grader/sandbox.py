"""Where and as whom a submission runs: a scratch folder, resource limits, and, when the grader
runs as root, another user and a private view of the file system.

Three levels, the strongest this machine allows, decided once per batch by a probe (a real
child started with the real settings, which reports what it could reach):

  "namespaces"  root, and the kernel lets it make namespaces: the child gets its own mount,
                network and IPC namespaces; the kit's solutions/ and source/, the lab's expected
                observations, the output folder and the instructor's extra tests are covered
                by empty mounts; folders on the way to the interpreter that the other user could
                not enter (such as /root) are covered too, with only the interpreter's own
                folder put back; then it becomes `nobody` and can never regain root
                (no_new_privs).
  "user"        root without namespaces: the child becomes `nobody`, so it reads only what any
                user may read.
  "limits"      not root: the child runs as the grader's own user, with every limit below but
                no wall around the files that user can reach.

At every level: a new session (so the whole process group is killed), a scratch folder that
holds only a copy of the submission and is its working directory, HOME and TMPDIR, an
environment without the grader's variables, no core files, and limits on memory (address
space), CPU seconds, file size and number of processes. `statement()` says in plain words what
holds at the level found and what cannot be prevented.

Linux only: on any other system `prepare` refuses, saying so (students' checks need none of this).
"""
from __future__ import annotations

import ctypes
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from lab.check import manifest

try:
    import pwd
    import resource
except ImportError:  # not POSIX: prepare() says plainly that the grader needs Linux
    pwd = resource = None

CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWIPC = 0x00020000, 0x40000000, 0x08000000
MS_RDONLY, MS_BIND, MS_REC, MS_PRIVATE = 1, 4096, 16384, 1 << 18
PR_SET_NO_NEW_PRIVS = 38
ENV_KEEP = ("LANG", "LC_ALL", "LC_CTYPE", "TZ")


@dataclass
class Resources:
    """Limits for one child process (each test run may use a new one)."""
    memory_mb: int = 1024
    cpu_seconds: int = 120
    file_mb: int = 16
    processes: int = 64  # beyond what the user already runs


@dataclass
class Sandbox:
    base: Path  # the grader's own temporary folder; scratch folders go in it
    level: str = "limits"
    user: tuple[int, int] | None = None  # (uid, gid) the child becomes
    hidden: list[str] = field(default_factory=list)  # covered inside the child's namespace
    reopen: list[tuple[str, list[str]]] = field(default_factory=list)  # (cover, keep names)
    resources: Resources = field(default_factory=Resources)
    readable: list[str] = field(default_factory=list)  # secrets the probe could still read
    network: bool = True  # whether the probe could open a socket to the outside

    # --- the scratch folder --------------------------------------------------------------

    def scratch(self, harness: bytes) -> Path:
        """A new folder holding only harness.py (the submission's bytes), owned by the child's
        user. The caller removes it with `remove`."""
        folder = Path(tempfile.mkdtemp(prefix="s-", dir=self.base))
        (folder / "harness.py").write_bytes(harness)
        if self.user:
            for path in (folder, folder / "harness.py"):
                os.chown(path, *self.user)
        return folder

    @staticmethod
    def remove(folder: Path) -> None:
        shutil.rmtree(folder, ignore_errors=True)

    def env(self, scratch: Path) -> dict:
        env = {k: os.environ[k] for k in ENV_KEEP if k in os.environ}
        env.update(PATH="/usr/local/bin:/usr/bin:/bin", HOME=str(scratch), TMPDIR=str(scratch),
                   PYTHONIOENCODING="utf-8")
        env.setdefault("LANG", "C.UTF-8")
        return env

    # --- the child's side --------------------------------------------------------------

    def preexec(self):
        """The function run in the child between fork and exec. It may only make system calls:
        every path it uses was decided beforehand, in the grader."""
        libc = ctypes.CDLL(None, use_errno=True) if self.user or self.level == "namespaces" \
            else None
        limits = self._limits()
        level, user, hidden, reopen = self.level, self.user, list(self.hidden), list(self.reopen)

        def mount(source, target, kind, flags, data):
            if libc.mount(source, target, kind, flags, data) != 0:
                errno = ctypes.get_errno()
                raise OSError(errno, f"mount {target!r}: {os.strerror(errno)}")

        def run():
            if level == "namespaces":
                if libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC) != 0:
                    raise OSError(ctypes.get_errno(), "unshare")
                mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None)
                for cover, keep in reopen:
                    handles = [(name, os.open(os.path.join(cover, name), os.O_PATH))
                               for name in keep]
                    mount(b"tmpfs", cover.encode(), b"tmpfs", 0, b"mode=0711,size=64k")
                    for name, handle in handles:
                        place = os.path.join(cover, name)
                        if stat.S_ISDIR(os.fstat(handle).st_mode):
                            os.mkdir(place, 0o755)
                        else:
                            os.close(os.open(place, os.O_CREAT | os.O_WRONLY, 0o644))
                        mount(f"/proc/self/fd/{handle}".encode(), place.encode(), None,
                              MS_BIND | MS_REC, None)
                        os.close(handle)
                for path in hidden:
                    if os.path.isdir(path):
                        mount(b"tmpfs", path.encode(), b"tmpfs", MS_RDONLY, b"mode=0,size=4k")
                    elif os.path.exists(path):
                        mount(b"/dev/null", path.encode(), None, MS_BIND, None)
            for which, value in limits:
                resource.setrlimit(which, value)
            os.umask(0o077)
            if user:
                # No set-user-id program can give back what is dropped here.
                libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
                os.setgroups([])
                os.setgid(user[1])
                os.setuid(user[0])

        return run

    def _limits(self):
        r = self.resources
        memory = r.memory_mb * 1024 * 1024
        # Counted per user: the grader's own user already runs some processes.
        processes = r.processes + (0 if self.user else _processes_of(os.getuid()))
        return [(resource.RLIMIT_AS, (memory, memory)),
                (resource.RLIMIT_CPU, (r.cpu_seconds, r.cpu_seconds + 5)),
                (resource.RLIMIT_FSIZE, (r.file_mb * 1024 * 1024,) * 2),
                (resource.RLIMIT_NPROC, (processes, processes)),
                (resource.RLIMIT_CORE, (0, 0))]

    # --- what holds ----------------------------------------------------------------------

    def statement(self) -> dict:
        """What this sandbox holds and what it cannot prevent, in plain words."""
        r = self.resources
        holds = [
            "Each submission runs in processes of its own, in a new session, and the whole group "
            "is killed when a test ends or overruns.",
            "Its working folder, HOME and TMPDIR are a scratch folder holding only a copy of its "
            "harness.py, removed afterwards; its environment holds none of the grader's "
            "variables.",
            f"Limits per process: {r.memory_mb} MB of memory, {r.cpu_seconds} CPU seconds, files "
            f"of at most {r.file_mb} MB, a bounded number of processes, no core files; what it "
            "prints is capped, and the time per test and per submission is bounded.",
            "Verdicts are decided in the grader, from values the child reports; the wanted "
            "values are not in the child's copy of the tests.",
        ]
        cannot = []
        if self.level == "namespaces":
            holds += [
                "It runs as the user `nobody`, without root and unable to regain it.",
                "It has no network, and its own view of the file system, in which the kit's "
                "solutions/ and source/, the expected observations, the output folder and the "
                "extra tests are empty.",
            ]
            cannot += [
                "It can read any file that every user may read (for example the kit's own lab/ "
                "tests, which students have anyway), and write to world-writable places such as "
                "/tmp, within the file-size limit.",
                "Submissions graded at the same time share the `nobody` user; their scratch "
                "folders are private only by their random names.",
            ]
        elif self.level == "user":
            holds.append("It runs as the user `nobody`, without root and unable to regain it.")
            cannot += [
                "This machine does not allow namespaces, so the submission keeps the network and "
                "can read every file that every user may read: keep solutions and extra tests "
                "in folders only their owner can open (chmod 700).",
                "Submissions graded at the same time share the `nobody` user.",
            ]
        elif os.geteuid() == 0:
            cannot.append(
                "Submissions run as root, because no other user could run them here: they can "
                "read and change anything on this machine. This is only sound inside a "
                "container that is thrown away after the run.")
        else:
            cannot.append(
                "The grader does not run as root, so submissions run as your own user: they can "
                "read and change every file you can, including the kit's solutions, the "
                "extra tests, the output folder and the grader itself, and they can use the "
                "network. Grade untrusted code as root (the grader then drops it to `nobody`) "
                "or inside a container or virtual machine.")
        if self.readable:
            cannot.append("The probe could still read: " + ", ".join(self.readable) + ".")
        if self.network and self.level == "namespaces":
            cannot.append("The probe could still reach the network.")
        return {"level": self.level, "holds": holds, "cannot_prevent": cannot}

    def to_dict(self) -> dict:
        return {"base": str(self.base), "level": self.level, "user": self.user,
                "hidden": self.hidden, "reopen": self.reopen, "resources": vars(self.resources),
                "readable": self.readable, "network": self.network}

    @classmethod
    def from_dict(cls, data: dict) -> "Sandbox":
        return cls(base=Path(data["base"]), level=data["level"],
                   user=tuple(data["user"]) if data["user"] else None,
                   hidden=list(data["hidden"]),
                   reopen=[(c, list(k)) for c, k in data["reopen"]],
                   resources=Resources(**data["resources"]), readable=list(data["readable"]),
                   network=data["network"])


def _processes_of(uid: int) -> int:
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                count += os.stat(f"/proc/{entry}").st_uid == uid
            except OSError:
                pass
    return count


def _reachable(paths, uid, gid) -> list[tuple[str, list[str]]]:
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


def secrets(out: Path | None, extra_files=()) -> list[str]:
    """The paths a submission must not read: the kit's solutions and single source, the
    reference's observations, the output folder and the instructor's extra tests files."""
    kit = manifest.KIT
    paths = [manifest.SOLUTIONS, manifest.SOURCE] + [lab.expected for lab in manifest.labs()]
    if out is not None:
        paths.append(Path(out))
    paths += [Path(p) for p in extra_files]
    return [os.path.realpath(p) for p in paths]


PROBE = r"""
import json, os, socket, sys
sys.path.insert(0, sys.argv[1])
import lab.check.child  # the kit's child must import, or nothing can be graded
readable = []
for path in json.loads(sys.argv[2]):
    try:
        if os.path.isdir(path):
            if os.listdir(path):
                readable.append(path)
        else:
            with open(path, "rb") as handle:
                if handle.read(1):
                    readable.append(path)
    except OSError:
        pass
network = True
try:
    socket.create_connection(("192.0.2.1", 9), timeout=0.5).close()
except OSError as exc:
    network = exc.errno not in (101, 99, 97)  # no route out: the network is cut
print(json.dumps({"readable": readable, "network": network, "uid": os.getuid()}))
"""


class SandboxError(RuntimeError):
    """No sandbox fit to run untrusted code could be set up; the message says why and what to
    do. The CLI prints it without a traceback."""


def prepare(base: Path, *, out: Path | None = None, extra_files=(),
            resources: Resources | None = None, level: str | None = None,
            unsandboxed_root: bool = False) -> Sandbox:
    """The strongest sandbox this machine allows, checked by starting a child with it. `level`
    forces one (the tests use it). As root, "namespaces" is tried, then "user"; if neither
    works, submissions would run as root, which is refused unless `unsandboxed_root` says the
    machine is a throwaway container (a Gradescope run is one). Only Linux has what it needs."""
    if not sys.platform.startswith("linux"):
        raise SandboxError(
            f"The grader runs submissions only on Linux (this is {sys.platform}): its sandbox "
            "is made of Linux namespaces, users and resource limits. Grade on a Linux machine, "
            "container or virtual machine. Students' own checks (python lab/lab_check.py) run "
            "on every system.")
    base = Path(base)
    base.mkdir(parents=True, exist_ok=True)
    # Others may pass through (to reach their own scratch folder) but not list it.
    base.chmod(0o711)
    resources = resources or Resources()
    hide = secrets(out, extra_files)
    root = os.geteuid() == 0
    if level:
        wanted = [level]
    else:
        wanted = ["namespaces", "user"] + (["limits"] if unsandboxed_root or not root else [])
        wanted = wanted if root else ["limits"]
    problems = []
    for candidate in wanted:
        box = Sandbox(base, candidate, resources=resources)
        if candidate != "limits":
            if not _has_nobody():
                problems.append(f"{candidate}: there is no user `nobody` to run as")
                continue
            nobody = pwd.getpwnam("nobody")
            box.user = (nobody.pw_uid, nobody.pw_gid)
        if candidate == "namespaces":
            box.hidden = hide
            box.reopen = _reachable([sys.base_prefix, sys.prefix, sys.executable,
                                     os.path.dirname(sys.executable), manifest.KIT, base],
                                    *box.user)
        found = _probe(box, hide)
        if isinstance(found, str):
            problems.append(f"{candidate}: {found}")
            continue
        box.readable, box.network = found["readable"], found["network"]
        if candidate == "namespaces" and (box.readable or box.network):
            problems.append(f"{candidate}: the probe could still read {box.readable} "
                            f"or reach the network ({box.network})")
            continue
        return box
    hint = ""
    if root:
        hint = (" The user `nobody` must be able to read the kit folder and the Python "
                f"interpreter ({manifest.KIT}, {sys.executable}): a folder only root may open "
                "on the way is the usual cause. Fix that, or, only inside a throwaway "
                "container, pass --unsandboxed to run submissions as root.")
    raise SandboxError("Submissions cannot be run safely here: " + "; ".join(problems) + "."
                       + hint)


def _has_nobody() -> bool:
    try:
        pwd.getpwnam("nobody")
        return True
    except KeyError:
        return False


def _probe(box: Sandbox, hide: list[str]):
    scratch = box.scratch(b"")
    try:
        done = subprocess.run([sys.executable, "-I", "-c", PROBE, str(manifest.KIT),
                               json.dumps(hide)], cwd=scratch, env=box.env(scratch),
                              preexec_fn=box.preexec(), capture_output=True, text=True,
                              timeout=60, start_new_session=True)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"the child could not start ({exc})"
    finally:
        box.remove(scratch)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return f"the child failed ({last})"
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return "the child's answer could not be read"
