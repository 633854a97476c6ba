"""Where and as whom a submission runs: a scratch folder, resource limits, and, when the grader
runs as root, a user of its own per worker slot and a private view of the machine.

Three levels, the strongest this machine allows, decided once per batch by a probe (a real
child started with the real settings, which reports what it could reach):

  "namespaces"  root, and the kernel lets it make namespaces: the child gets its own mount,
                network, IPC and PID namespaces, with a /proc of its own that shows only its
                own processes, and a root built from an allow-list: the interpreter and its
                libraries, the kit's lab/ package and lesson.toml files, its scratch folder, a
                /dev of four devices, and a /tmp, /var/tmp and /dev/shm of its own that go
                with it. Nothing else exists for it: not the kit's .git, starters, solutions
                or source, not the submissions or output folders, not the extra tests. Then it
                becomes its slot's user and can never regain root (no_new_privs).
  "user"        root without namespaces: the child becomes its slot's user, so it reads only
                what any user may read, and sees other processes but not their folders or
                open files; after each submission what that user left in /tmp, /var/tmp and
                /dev/shm is removed.
  "limits"      not root: the child runs as the grader's own user, with every limit below but
                no wall around the files that user can reach.

Nothing a submission starts outlives its grading: at "namespaces" the kernel ends every process
left in its PID namespace, and at both root levels the grader then kills every process left to
the slot's user. At every level: a new session, a scratch folder as working directory, HOME and
TMPDIR, an environment without the grader's variables, no core files, and limits on memory,
CPU seconds, file size and number of processes. `Sandbox.statement()` says in plain words what
holds at the level found and what cannot be prevented.

Linux only: on any other system `prepare` refuses, saying so (students' checks need none of this).

This module is the face (prepare, and the names other code uses); the parts, each one job:

    box.py         the Sandbox: one batch's settings, and what each child runs under
    users.py       a user of its own per worker slot, and the sweep of what it left running
    limits.py      memory, CPU, file size and process limits
    namespaces.py  the private machine at "namespaces": namespaces, relay and reaper
    view.py        the allow-list the child's root is built from at "namespaces"
    leftovers.py   what a submission left on the disk, removed (scratch, shared temporaries)
    probe.py       the probe of what this machine allows, and what it must find unreadable
    statement.py   what a sandbox holds and cannot prevent, in plain words
"""
from __future__ import annotations

import atexit
import os
import sys
from pathlib import Path

from lab.check import manifest

from grader.errors import SandboxError
from grader.refusals import (NoSandbox, NotAlone, NotLinux, NoUsers, OwnFileClosed, ProbeFailed,
                              ProbeReached, Unsafe, ViewUnplanned)
from grader.sandbox import cgroups, probe, users, view
from grader.sandbox.box import Sandbox
from grader.sandbox.limits import Resources
from grader.sandbox.probe import secrets
from grader.sandbox.users import FIRST_UID, SLOTS

__all__ = ["FIRST_UID", "SLOTS", "Resources", "Sandbox", "SandboxError", "prepare", "secrets"]


def prepare(base: Path, *, out: Path | None = None, extra_files=(), private=(),
            resources: Resources | None = None, level: str | None = None,
            unsandboxed_root: bool = False, slots: int = 1) -> Sandbox:
    """The strongest sandbox this machine allows, checked by starting a child with it: the
    child must find `out`, `extra_files` and the folders in `private` (the submissions
    folder) unreadable, with the kit's secrets (probe.secrets). `level` forces one (the tests
    use it). As root, "namespaces" is tried, then "user", each with
    `slots` users of its own where ids are free for them, else with `nobody`; if neither
    works, submissions would run as root, which is refused unless `unsandboxed_root` says the
    machine is a throwaway container (a Gradescope run is one). Only Linux has what it needs."""
    if not sys.platform.startswith("linux"):
        raise SandboxError(NotLinux(sys.platform))
    base = Path(base)
    base.mkdir(parents=True, exist_ok=True)
    # Others may pass through (to reach their own scratch folder) but not list it.
    base.chmod(0o711)
    resources = resources or Resources()
    hide = secrets(out, extra_files, private)
    root = os.geteuid() == 0
    if level:
        wanted = [level]
    else:
        wanted = ["namespaces", "user"] + (["limits"] if unsandboxed_root or not root else [])
        wanted = wanted if root else ["limits"]
    problems: list[Unsafe] = []
    groups = _groups(slots, resources)
    for candidate in wanted:
        box = Sandbox(base, candidate, resources=resources, groups=groups)
        if candidate != "limits":
            box.first_uid = users.free_uids(slots)
            if box.first_uid is not None:
                box.user = box.slot(0).user  # the probe runs as the first slot's user
            elif users.nobody():
                box.user = users.nobody()
            else:
                problems.append(NoUsers(candidate))
                continue
        if candidate == "namespaces":
            box.root.mkdir(mode=0o700, exist_ok=True)
            try:
                box.view = view.plan(base, resources.temporary_mb)
            except OSError as exc:
                problems.append(ViewUnplanned(candidate, str(exc)))
                continue
        found = probe.run(box, hide)
        if isinstance(found, ProbeFailed):
            problems.append(found)
            continue
        box.readable, box.network = found["readable"], found["network"]
        if not found["own_file"]:
            problems.append(OwnFileClosed(candidate, base))
            continue
        if candidate == "namespaces" and (box.readable or box.network):
            problems.append(ProbeReached(candidate, tuple(box.readable), box.network))
            continue
        if candidate == "namespaces" and (found["pid"], found["pids"]) != (2, [1, 2]):
            problems.append(NotAlone(candidate, found["pid"], tuple(found["pids"])))
            continue
        return box
    made = cgroups.Groups.from_dict(groups)
    if made is not None:
        made.remove()
    raise SandboxError(NoSandbox(tuple(problems), root, manifest.KIT, sys.executable, base))


def _groups(slots: int, resources: Resources) -> dict | None:
    """A control group per slot where the machine offers them (grader/sandbox/cgroups.py),
    as data every worker reads; None where it does not, or refuses to make them. Its memory
    is the child's own and what its own /tmp, /var/tmp, /dev/shm and scratch may hold."""
    cgroups.leftovers()
    found = cgroups.find()
    if found is None:
        return None
    try:
        found.make(max(1, slots), resources.memory_mb + 4 * resources.temporary_mb,
                   resources.processes)
    except OSError:
        found.remove()
        return None
    atexit.register(found.remove)  # a caller that never releases the box (a probe, a test)
    return found.to_dict()


