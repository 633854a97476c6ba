"""A control group of its own for each worker slot: limits the kernel keeps for everything a
submission's processes hold together, where per-process limits (grader/sandbox/limits.py)
cannot reach.

RLIMIT_AS bounds one process's address space, not what its sixty processes hold together, nor
the kernel's memory it makes the kernel hold (socket buffers: one file held 1.5 GB of them under
`--memory-mb 256`), nor its share of the processors (62 spinners in their own sessions made
honest neighbours lose tests to the wall-clock guard). A group per slot bounds all three: its
memory, kernel memory and socket buffers included; its processes; and its processors, an equal
share and at most one processor's time, so a neighbour always has a processor of its own.

Two kinds of machine are served. cgroup v2 (one hierarchy with the memory, pids and cpu
controllers: memory.max counts kernel and socket memory, pids.max, cpu.max and cpu.weight), and
cgroup v1 with memory (and its kmem.tcp files), cpu and pids mounted apart (memory.limit_in_bytes,
memory.kmem.tcp.limit_in_bytes, memory.memsw.limit_in_bytes where there is swap accounting,
pids.max, cpu.shares and cpu.cfs_quota_us). Each group is made under the group the grader runs
in, so whatever holds the grader holds its submissions too, and is removed when the batch ends.
A child joins its slot's group between fork and exec (`join`), before anything else.

`find` returns None where neither is offered or the grader may not make groups (not root); the
statement then says what is not bounded (grader/sandbox/statement.py).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
PREFIX = "grader-"  # a group's name: grader-PID-sN, PID the grader's, N the slot
TCP_SHARE = 4  # socket buffers may hold at most a quarter of the group's memory
PERIOD_US = 100_000


@dataclass
class Groups:
    """Where a batch's groups go: the version, and {controller: the folder of the grader's
    own group in it}."""
    version: int
    parents: dict[str, str]
    tag: str = ""  # grader-PID: the batch's groups are TAG-s0, TAG-s1, ...
    made: list[str] = field(default_factory=list)

    def folders(self, slot: int) -> dict[str, str]:
        """{controller: the folder of slot `slot`'s group}."""
        return {c: os.path.join(parent, f"{self.tag}-s{slot}")
                for c, parent in self.parents.items()}

    def make(self, slots: int, memory_mb: int, processes: int) -> None:
        """Make a group per slot, each with the limits; raises OSError where the kernel
        refuses one."""
        memory = memory_mb << 20
        self.tag = self.tag or f"{PREFIX}{os.getpid()}"
        for slot in range(slots):
            folders = self.folders(slot)
            for controller, folder in folders.items():
                os.makedirs(folder, exist_ok=True)
                self.made.append(folder)
            if self.version == 2:
                here = folders["unified"]
                _write(here, "memory.max", memory)
                _write(here, "memory.swap.max", 0, optional=True)
                _write(here, "pids.max", processes)
                _write(here, "cpu.max", f"{PERIOD_US} {PERIOD_US}")
                _write(here, "cpu.weight", 100)
            else:
                # The kernel takes kmem.tcp's limit only before a process has joined.
                _write(folders["memory"], "memory.kmem.tcp.limit_in_bytes", memory // TCP_SHARE)
                _write(folders["memory"], "memory.limit_in_bytes", memory)
                _write(folders["memory"], "memory.memsw.limit_in_bytes", memory, optional=True)
                _write(folders["pids"], "pids.max", processes)
                _write(folders["cpu"], "cpu.shares", 1024)
                _write(folders["cpu"], "cpu.cfs_period_us", PERIOD_US)
                _write(folders["cpu"], "cpu.cfs_quota_us", PERIOD_US)

    def joins(self, slot: int) -> list[str]:
        """The files a child of slot `slot` writes its process id into to join its group."""
        return [os.path.join(folder, "cgroup.procs") for folder in self.folders(slot).values()]

    def remove(self) -> None:
        """Remove every group made; a group still holding a process stays (never raises)."""
        for folder in reversed(self.made):
            try:
                os.rmdir(folder)
            except OSError:
                pass
        self.made.clear()

    def to_dict(self) -> dict:
        return {"version": self.version, "parents": self.parents, "tag": self.tag,
                "made": self.made}

    @classmethod
    def from_dict(cls, data: dict | None) -> "Groups | None":
        return cls(data["version"], dict(data["parents"]), data["tag"],
                   list(data["made"])) if data else None


def join(paths: list[str]) -> None:
    """Move this process into the groups whose cgroup.procs files are `paths`: in the child,
    between fork and exec, where only system calls are safe."""
    pid = str(os.getpid()).encode()
    for path in paths:
        fd = os.open(path, os.O_WRONLY)
        try:
            os.write(fd, pid)
        finally:
            os.close(fd)


def find() -> Groups | None:
    """The groups this machine offers the grader, or None: v2 where its one hierarchy has the
    memory, pids and cpu controllers, else v1 where memory (with kmem.tcp), pids and cpu are
    mounted; None where neither, or where the grader is not root."""
    if os.geteuid() != 0:
        return None
    own = _own_groups()
    unified = _unified()
    if unified is not None:
        enabled = _read(os.path.join(unified, "cgroup.controllers")).split()
        if {"memory", "pids", "cpu"} <= set(enabled):
            parent = os.path.join(unified, own.get("", "/").lstrip("/"))
            return Groups(2, {"unified": parent})
    parents = {}
    for controller in ("memory", "pids", "cpu"):
        mount = ROOT / controller
        if not (mount / "cgroup.procs").is_file():
            return None
        parents[controller] = str(mount / own.get(controller, "/").lstrip("/"))
    if not os.path.isfile(os.path.join(parents["memory"], "memory.kmem.tcp.limit_in_bytes")):
        return None
    return Groups(1, parents)


def leftovers() -> None:
    """Remove the groups a grader that is gone left behind (it was killed before it could)."""
    found = find()
    if found is None:
        return
    for parent in found.parents.values():
        try:
            names = os.listdir(parent)
        except OSError:
            continue
        for name in names:
            if name.startswith(PREFIX) and not _alive(name[len(PREFIX):].split("-")[0]):
                try:
                    os.rmdir(os.path.join(parent, name))
                except OSError:
                    pass


def _alive(pid: str) -> bool:
    return pid.isdigit() and os.path.exists(f"/proc/{pid}")


def _own_groups() -> dict[str, str]:
    """{controller: this process's group in it} ("" for v2's), from /proc/self/cgroup."""
    found = {}
    for line in _read("/proc/self/cgroup").splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            found[controller] = path
    return found


def _unified() -> str | None:
    """Where the v2 hierarchy is mounted: /sys/fs/cgroup itself, or its unified/ folder."""
    for place in (ROOT, ROOT / "unified"):
        if (place / "cgroup.controllers").is_file():
            return str(place)
    return None


def _read(path) -> str:
    try:
        with open(path, encoding="ascii") as handle:
            return handle.read()
    except OSError:
        return ""


def _write(folder: str, name: str, value, optional: bool = False) -> None:
    path = os.path.join(folder, name)
    if optional and not os.path.exists(path):
        return
    with open(path, "w", encoding="ascii") as handle:
        handle.write(str(value))
