"""How much a submission's process may use: memory (address space), CPU seconds, file size and
number of processes, and no core files. They hold at every level of the sandbox, root or not;
at "namespaces" its own /tmp, /var/tmp and /dev/shm are bounded too (grader/sandbox/view.py)."""
from __future__ import annotations

import os
from dataclasses import dataclass

from grader.sandbox import users

try:
    import resource
except ImportError:  # not POSIX: the sandbox's prepare() says plainly that it needs Linux
    resource = None  # type: ignore[assignment]


@dataclass
class Resources:
    """Limits for one child process (each test run may use a new one)."""
    memory_mb: int = 1024
    cpu_seconds: int = 120
    file_mb: int = 16
    processes: int = 64  # beyond what the user already runs
    temporary_mb: int = 64  # each of its own /tmp, /var/tmp and /dev/shm, at "namespaces"


def rlimits(r: Resources, user: tuple[int, int] | None) -> list[tuple[int, tuple[int, int]]]:
    """(which, (soft, hard)) for each resource limit a child running as `user` (None: the
    grader's own user) gets, decided in the grader before the child is forked."""
    memory = r.memory_mb * 1024 * 1024
    # Counted per user: the grader's own user already runs some processes.
    processes = r.processes + (0 if user else users.processes_of(os.getuid()))
    return [(resource.RLIMIT_AS, (memory, memory)),
            (resource.RLIMIT_CPU, (r.cpu_seconds, r.cpu_seconds + 5)),
            (resource.RLIMIT_FSIZE, (r.file_mb * 1024 * 1024,) * 2),
            (resource.RLIMIT_NPROC, (processes, processes)),
            (resource.RLIMIT_CORE, (0, 0))]


def apply(limits: list[tuple[int, tuple[int, int]]]) -> None:
    """Set `limits` (from rlimits) on this process: in the child, between fork and exec."""
    for which, value in limits:
        resource.setrlimit(which, value)
