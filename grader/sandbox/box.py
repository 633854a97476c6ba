"""The Sandbox: one batch's settings (its level, the user its children become, the view of the
machine they get, their limits), and what each child runs under: a scratch folder, an
environment without the grader's variables, and the function run between fork and exec.

At every level the child gets a new session (so the whole process group is killed), a scratch
folder that holds only a copy of the submission and is its working directory, HOME and TMPDIR,
an environment without the grader's variables, no core files, and the limits of
grader/sandbox/limits.py. As root it becomes its slot's user (grader/sandbox/users.py) and can
never regain root (no_new_privs); at "namespaces" it first gets namespaces of its own and a view
of the machine built from an allow-list (grader/sandbox/namespaces.py, grader/sandbox/view.py).
After each submission, what a slot's own user left is ended and removed (`sweep`).
"""
from __future__ import annotations

import ctypes
import os
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from grader.sandbox import (cgroups, leftovers, limits, namespaces, statement as statements,
                            users)
from grader.sandbox.limits import Resources

ENV_KEEP = ("LANG", "LC_ALL", "LC_CTYPE", "TZ")
PR_SET_NO_NEW_PRIVS = 38


@dataclass
class Sandbox:
    base: Path  # the grader's own temporary folder; scratch folders go in it
    level: str = "limits"
    user: tuple[int, int] | None = None  # (uid, gid) the child becomes
    first_uid: int | None = None  # slot users from here (see slot); None: every slot shares `user`
    view: list[list] = field(default_factory=list)  # at "namespaces": view.plan's steps
    resources: Resources = field(default_factory=Resources)
    readable: list[str] = field(default_factory=list)  # what the probe could read, not allowed
    network: bool = True  # whether the probe could open a socket to the outside
    jobs: int = 1  # submissions graded at the same time (see workers)
    jobs_asked: int = 1
    groups: dict | None = None  # a control group per slot (grader/sandbox/cgroups.py), or None
    number: int = 0  # this slot's number (see slot)

    # --- who runs what ---------------------------------------------------------------------

    def slot(self, n: int) -> "Sandbox":
        """This sandbox for worker slot n: with slot users, one that runs its children as slot
        n's user; otherwise this one."""
        if not 0 <= n < users.SLOTS:
            raise ValueError(f"a batch has at most {users.SLOTS} worker slots")
        if self.first_uid is None:
            return replace(self, number=n)
        return replace(self, user=(self.first_uid + n,) * 2, number=n)

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

    @property
    def root(self) -> Path:
        """The empty folder a child's view is mounted on, inside its own mount namespace."""
        return self.base / "root"

    @staticmethod
    def remove(folder: Path) -> bool:
        """Remove a scratch folder, whatever the submission left in it; whether it is gone.
        Never raises (grader/sandbox/leftovers.py)."""
        return leftovers.remove(folder)

    def env(self, scratch: Path) -> dict:
        env = {k: os.environ[k] for k in ENV_KEEP if k in os.environ}
        env.update(PATH="/usr/local/bin:/usr/bin:/bin", HOME=str(scratch), TMPDIR=str(scratch),
                   PYTHONIOENCODING="utf-8")
        env.setdefault("LANG", "C.UTF-8")
        return env

    def sweep(self) -> None:
        """Kill every process left to this slot's own user and wait until none runs; without
        namespaces, then remove what that user left in /tmp, /var/tmp and /dev/shm (at
        "namespaces" those are the child's own and went with it). Only a slot user is swept:
        `nobody` and the grader's own user are shared with others, whose files these are too."""
        if self.first_uid is None or self.user is None:
            return
        users.sweep(self.user[0])
        if self.level != "namespaces":
            leftovers.sweep(self.user[0])

    # --- the child's side --------------------------------------------------------------

    def preexec(self) -> "Entering":
        """What the child runs between fork and exec: its entry into this sandbox (Entering).
        It may only make system calls: every path it uses was decided beforehand, in the
        grader. At "namespaces" it forks twice (see grader/sandbox/namespaces.py): the process
        that returns from it, and execs, is the second of a PID namespace of its own; the
        folder the child is started in (its working folder, which must be a scratch folder of
        this sandbox) is the one place of the machine it may write to."""
        # A child that stays root could leave its group (it may write cgroup.procs), and
        # the time a join takes would leave it holding this worker's pipes the longer, as
        # root, where another root child may write into them: only a child that becomes a
        # user of its own joins.
        groups = cgroups.Groups.from_dict(self.groups) if self.user else None
        return Entering({"level": self.level, "user": self.user, "steps": list(self.view),
                         "root": str(self.root), "base": os.path.realpath(self.base),
                         "rlimits": limits.rlimits(self.resources, self.user),
                         "joins": groups.joins(self.number) if groups else []})

    # --- what holds ----------------------------------------------------------------------

    def release(self) -> None:
        """Remove the batch's control groups, once its last child has ended."""
        groups = cgroups.Groups.from_dict(self.groups)
        if groups:
            groups.remove()

    def statement(self) -> statements.Statement:
        """What this sandbox holds and what it cannot prevent, in plain words."""
        return statements.Statement.of(self)

    def to_dict(self) -> dict:
        return {"base": str(self.base), "level": self.level, "user": self.user,
                "first_uid": self.first_uid, "view": self.view,
                "resources": vars(self.resources), "readable": self.readable,
                "network": self.network, "jobs": self.jobs, "jobs_asked": self.jobs_asked,
                "groups": self.groups, "number": self.number}

    @classmethod
    def from_dict(cls, data: dict) -> "Sandbox":
        return cls(base=Path(data["base"]), level=data["level"],
                   user=tuple(data["user"]) if data["user"] else None,
                   first_uid=data["first_uid"], view=[list(s) for s in data["view"]],
                   resources=Resources(**data["resources"]), readable=list(data["readable"]),
                   network=data["network"], jobs=data["jobs"], jobs_asked=data["jobs_asked"],
                   groups=data.get("groups"), number=data.get("number", 0))



class Entering:
    """A child's entry into its sandbox, as data: called between fork and exec in a child the
    runner starts, or, by name, in a child forked from the checker's ready interpreter
    (lab/check/zygote.py), which saves each child an interpreter's start. Both run `enter`.

    A forked child is offered only where the child becomes a user of its own (levels "user"
    and "namespaces"): the ready interpreter runs as the grader, and a child running as the
    grader too could reach it and the children it forks later, another student's among them.
    At "limits" every child is a new interpreter, as before."""

    def __init__(self, data: dict):
        self.data = data
        self._libc = _libc(data)  # looked up here: between fork and exec only system calls

    def __call__(self) -> None:
        enter(self._libc, self.data)

    @property
    def forkable(self) -> tuple[str, str, dict] | None:
        """(module, function, data) a forked child calls to enter, or None: start it anew."""
        return (__name__, "entered", self.data) if self.data["user"] else None


def _libc(data: dict):
    return ctypes.CDLL(None, use_errno=True) if data["user"] or \
        data["level"] == "namespaces" else None


def entered(data: dict) -> None:
    """`enter`, in a child forked from the ready interpreter: one thread, after fork, where the
    C library may be looked up."""
    enter(_libc(data), data)


def enter(libc, data: dict) -> None:
    """Join the slot's control groups, enter the namespaces and view at "namespaces", take the
    limits, and become the slot's user for good."""
    cgroups.join(data["joins"])  # first: whatever it starts next is held by its group
    if data["level"] == "namespaces":
        namespaces.enter(libc, data["steps"], data["root"], data["base"])
    limits.apply(data["rlimits"])
    os.umask(0o077)
    user = data["user"]
    if user:
        # No set-user-id program can give back what is dropped here.
        libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        os.setgroups([])
        os.setgid(user[1])
        os.setuid(user[0])
