"""Where and as whom a submission runs: a scratch folder, resource limits, and, when the grader
runs as root, a user of its own per worker slot and a private view of the machine.

Three levels, the strongest this machine allows, decided once per batch by a probe (a real
child started with the real settings, which reports what it could reach):

  "namespaces"  root, and the kernel lets it make namespaces: the child gets its own mount,
                network, IPC and PID namespaces, with a /proc of its own that shows only its
                own processes; the kit's solutions/ and source/, the lab's expected
                observations, the output folder and the instructor's extra tests are covered
                by empty mounts; folders on the way to the interpreter that the other user could
                not enter (such as /root) are covered too, with only the interpreter's own
                folder put back; then it becomes its slot's user and can never regain root
                (no_new_privs).
  "user"        root without namespaces: the child becomes its slot's user, so it reads only
                what any user may read, and sees other processes but not their folders or
                open files.
  "limits"      not root: the child runs as the grader's own user, with every limit below but
                no wall around the files that user can reach.

A slot is one of the batch's workers. As root, each slot runs its submissions as a user of its
own (`slot_user`): uids from FIRST_UID up, which no account on the machine has, so that two
submissions graded at the same time can neither read nor change each other's files. Where no
such range is free (a container that maps few uids), every slot shares `nobody`; at "limits"
every slot shares the grader's user. A shared user lets a submission reach the one graded
beside it, so `workers` then grades one at a time unless the instructor allows sharing.

Nothing a submission starts outlives its grading. At "namespaces" the process running its code
is the second process of a PID namespace whose first, a small reaper forked from the grader,
only waits: when the submission's process ends or is stopped, the reaper ends, and the kernel
kills every other process in the namespace (forked, double-forked, in a session of its own,
daemonised). Outside the namespace a third process stays the runner's child and ends the way
the submission's process ended, so exit codes and signals read as before. At both root levels
`sweep` then kills every process left to the slot's user. The PID namespace is the kernel's
own mechanism (the one bubblewrap's --unshare-pid uses); the kit builds it itself because its
mounts and change of user must happen inside it, in the same step.

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
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from lab.check import manifest

try:
    import grp
    import pwd
    import resource
except ImportError:  # not POSIX: prepare() says plainly that the grader needs Linux
    grp = pwd = resource = None

CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWPID = 0x20000, 0x40000000, 0x8000000, 0x20000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS = 1, 38
ENV_KEEP = ("LANG", "LC_ALL", "LC_CTYPE", "TZ")

# Slot users: slot n of a batch runs as uid and gid FIRST_UID + SLOTS * (the grader's process
# id) + n. Deriving the range from the process id keeps two graders running at once on one
# machine apart; with pid_max at most 2**22 the ids stay below 2**31.
FIRST_UID = 10_000_000
SLOTS = 256


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
    first_uid: int | None = None  # slot users from here (see slot); None: every slot shares `user`
    hidden: list[str] = field(default_factory=list)  # covered inside the child's namespace
    reopen: list[tuple[str, list[str]]] = field(default_factory=list)  # (cover, keep names)
    resources: Resources = field(default_factory=Resources)
    readable: list[str] = field(default_factory=list)  # secrets the probe could still read
    network: bool = True  # whether the probe could open a socket to the outside
    jobs: int = 1  # submissions graded at the same time (see workers)
    jobs_asked: int = 1

    # --- who runs what ---------------------------------------------------------------------

    def slot(self, n: int) -> "Sandbox":
        """This sandbox for worker slot n: with slot users, one that runs its children as slot
        n's user; otherwise this one."""
        if self.first_uid is None:
            return self
        if not 0 <= n < SLOTS:
            raise ValueError(f"a batch has at most {SLOTS} worker slots")
        return replace(self, user=(self.first_uid + n,) * 2)

    def workers(self, asked: int, allow_shared_user: bool = False) -> int:
        """How many submissions to grade at the same time when `asked` for: as many with slot
        users; one where every slot would share a user (a submission could read and change the
        one beside it), unless `allow_shared_user`. The statement says which, and why."""
        self.jobs_asked = asked
        self.jobs = asked if self.first_uid is not None or allow_shared_user else 1
        return self.jobs

    # --- the scratch folder --------------------------------------------------------------

    def scratch(self, harness: bytes) -> Path:
        """A new folder holding only harness.py (the submission's bytes), owned by the child's
        user and private to it (mkdtemp makes it 0700). The caller removes it with `remove`."""
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

    def sweep(self) -> None:
        """Kill every process left to this slot's own user, and wait until none runs. Only a
        slot user is swept: `nobody` and the grader's own user are shared with others."""
        if self.first_uid is None or self.user is None:
            return
        uid = self.user[0]

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
            if not any(owner == uid and state not in "ZX" for _, owner, state in _processes()):
                return
            time.sleep(0.01)

    # --- the child's side --------------------------------------------------------------

    def preexec(self):
        """The function run in the child between fork and exec. It may only make system calls:
        every path it uses was decided beforehand, in the grader. At "namespaces" it forks
        twice (see the module's docstring): the process that returns from it, and execs, is
        the second of a PID namespace of its own."""
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
                inherited = _open_files()
                if libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWPID) != 0:
                    raise OSError(ctypes.get_errno(), "unshare")
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
                libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # dies with the runner
                news = _fork_and_relay(libc, inherited)
                # Now the first process of the new PID namespace, its reaper.
                libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # dies with the relay
                mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None)
                mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
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
                        mount(b"tmpfs", path.encode(), b"tmpfs", MS_RDONLY, b"mode=0555,size=4k")
                    elif os.path.exists(path):
                        mount(b"/dev/null", path.encode(), None, MS_BIND, None)
                _fork_and_reap(news, inherited)
                # Now the second process of the namespace: the one that runs the child.
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
        who = self._who()
        if self.level == "namespaces":
            holds += [
                f"It runs as {who}, without root and unable to regain it.",
                "It has no network, and its own view of the file system, in which the kit's "
                "solutions/ and source/, the expected observations, the output folder and the "
                "extra tests are empty.",
                "The process running it is alone in a PID namespace of its own (beside only a "
                "reaper the grader started), and its /proc shows only that namespace: it sees "
                "no other submission's processes, nor their folders, open files or report "
                "channels.",
                "Nothing it starts outlives it: when its process ends or is stopped, the kernel "
                "ends every process in its namespace (forked, double-forked, in a session of "
                "its own, or daemonised)"
                + (", and after each submission the grader kills every process left to its "
                   "user." if self.first_uid is not None else "."),
            ]
            cannot.append(
                "It can read any file that every user may read (for example the kit's own lab/ "
                "tests, which students have anyway), and write to world-writable places such as "
                "/tmp, within the file-size limit.")
        elif self.level == "user":
            holds.append(f"It runs as {who}, without root and unable to regain it.")
            if self.first_uid is not None:
                holds.append("Nothing it starts outlives it: after each submission the grader "
                             "kills every process left to its user.")
            cannot += [
                "This machine does not allow namespaces, so the submission keeps the network and "
                "can read every file that every user may read: keep solutions and extra tests "
                "in folders only their owner can open (chmod 700). It can see that other "
                "processes run, and their command lines, but not their folders or open files.",
            ]
            if self.first_uid is None:
                cannot.append("A process it starts in a session of its own can outlive the "
                              "grading: the grader can kill only its process group.")
        elif os.geteuid() == 0:
            cannot += [
                "Submissions run as root, because no other user could run them here: they can "
                "read and change anything on this machine. This is only sound inside a "
                "container that is thrown away after the run.",
                "A process it starts in a session of its own can outlive the grading: the "
                "grader can kill only its process group."]
        else:
            cannot += [
                "The grader does not run as root, so submissions run as your own user: they can "
                "read and change every file you can, including the kit's solutions, the "
                "extra tests, the output folder and the grader itself, and they can use the "
                "network. Grade untrusted code as root (the grader then runs each at once as "
                "a user of its own) or inside a container or virtual machine.",
                "A process it starts in a session of its own can outlive the grading: the "
                "grader can kill only its process group."]
        holds_jobs, cannot_jobs = self._together(who)
        holds += holds_jobs
        cannot += cannot_jobs
        if self.readable:
            cannot.append("The probe could still read: " + ", ".join(self.readable) + ".")
        if self.network and self.level == "namespaces":
            cannot.append("The probe could still reach the network.")
        return {"level": self.level, "own_users": self.first_uid is not None, "holds": holds,
                "cannot_prevent": cannot}

    def _who(self) -> str:
        if self.first_uid is not None:
            last = self.first_uid + max(self.jobs, 1) - 1
            ids = f"uid {self.first_uid}" + (f" to {last}" if last > self.first_uid else "")
            return (f"a user of its own ({ids}, one per submission graded at the same time; "
                    "no account on this machine has these ids)")
        if self.user:
            try:
                return f"the user `{pwd.getpwuid(self.user[0]).pw_name}`"
            except KeyError:
                return f"uid {self.user[0]}"
        return "root" if os.geteuid() == 0 else "your own user"

    def _together(self, who: str) -> tuple[list[str], list[str]]:
        """What holds, and what does not, between submissions graded at the same time."""
        sharing = (f"Submissions graded at the same time ({self.jobs} here) share the "
                   "machine's processors, memory and disk: one can slow the others down, "
                   "within its own limits.")
        if self.jobs > 1 and self.first_uid is not None:
            return [f"Submissions graded at the same time ({self.jobs} here) each run as a "
                    "user of their own, in folders only that user may open: none can read or "
                    "change another's files."], [sharing]
        if self.jobs > 1:
            return [], [f"Submissions graded at the same time ({self.jobs} here) all run as "
                        f"{who}, as --allow-shared-user allowed: one can read and change the "
                        "files of the one beside it, and write into its report channel.",
                        sharing]
        if self.jobs_asked > 1:
            why = ("users of their own need the grader to run as root" if os.geteuid() != 0
                   else "no sandbox that changes user works here" if self.user is None
                   else f"no range of ids from {FIRST_UID} on was free for users of their own")
            return [f"Graded one submission at a time, although --jobs {self.jobs_asked} was "
                    f"asked: here every submission would run as {who} ({why}), so one could "
                    "read and change the files of the one beside it. --allow-shared-user "
                    "grades several at once anyway."], []
        return ["Graded one submission at a time, so none runs beside another."], []

    def to_dict(self) -> dict:
        return {"base": str(self.base), "level": self.level, "user": self.user,
                "first_uid": self.first_uid, "hidden": self.hidden, "reopen": self.reopen,
                "resources": vars(self.resources), "readable": self.readable,
                "network": self.network, "jobs": self.jobs, "jobs_asked": self.jobs_asked}

    @classmethod
    def from_dict(cls, data: dict) -> "Sandbox":
        return cls(base=Path(data["base"]), level=data["level"],
                   user=tuple(data["user"]) if data["user"] else None,
                   first_uid=data["first_uid"], hidden=list(data["hidden"]),
                   reopen=[(c, list(k)) for c, k in data["reopen"]],
                   resources=Resources(**data["resources"]), readable=list(data["readable"]),
                   network=data["network"], jobs=data["jobs"], jobs_asked=data["jobs_asked"])


# --- between fork and exec, at "namespaces" -------------------------------------------------

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


# --- what runs on this machine -------------------------------------------------------------

def _processes() -> list[tuple[int, int, str]]:
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


def _processes_of(uid: int) -> int:
    return sum(owner == uid for _, owner, _ in _processes())


_CLAIMED: set[int] = set()  # first ids of the ranges this process has used: its own


def _free_uids(count: int) -> int | None:
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
    if first not in _CLAIMED and any(owner in ids for _, owner, _ in _processes()):
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
pids = sorted(int(entry) for entry in os.listdir("/proc") if entry.isdigit())
print(json.dumps({"readable": readable, "network": network, "uid": os.getuid(),
                  "pid": os.getpid(), "pids": pids[:3]}))
"""


class SandboxError(RuntimeError):
    """No sandbox fit to run untrusted code could be set up; the message says why and what to
    do. The CLI prints it without a traceback."""


def prepare(base: Path, *, out: Path | None = None, extra_files=(),
            resources: Resources | None = None, level: str | None = None,
            unsandboxed_root: bool = False, slots: int = 1) -> Sandbox:
    """The strongest sandbox this machine allows, checked by starting a child with it. `level`
    forces one (the tests use it). As root, "namespaces" is tried, then "user", each with
    `slots` users of its own where ids are free for them, else with `nobody`; if neither
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
            box.first_uid = _free_uids(slots)
            if box.first_uid is not None:
                box.user = box.slot(0).user  # the probe runs as the first slot's user
            elif _has_nobody():
                nobody = pwd.getpwnam("nobody")
                box.user = (nobody.pw_uid, nobody.pw_gid)
            else:
                problems.append(f"{candidate}: there are neither ids free for users of its own "
                                "nor a user `nobody` to run as")
                continue
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
        if candidate == "namespaces" and (found["pid"], found["pids"]) != (2, [1, 2]):
            problems.append(f"{candidate}: the probe was not alone in a PID namespace of its "
                            f"own (it was process {found['pid']} and saw {found['pids']})")
            continue
        return box
    hint = ""
    if root:
        hint = (" Any user must be able to read the kit folder and the Python "
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
