"""What the probe found a sandbox to be, as facts: the record an isolation statement is made of
(grader/sandbox/statement.py), from which grader/words_statement.py makes its sentences at the
edge. Every value the statement's words depend on is here, the grader's own user included, so
the same facts always make the same words, wherever and by whom they are read."""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, fields
from typing import Any

from grader.sandbox import users


@dataclass(frozen=True)
class Sandbox:
    """A sandbox as the probe settled it: its level ("namespaces", "user", "limits"), whether
    the grader runs as root, the slots' own uids (from `first_uid`, one per slot of `jobs`;
    None: no users of their own), the uid submissions run as where it is not the grader's own
    (`uid`, with its account's name where one has it), the jobs asked and granted, each
    process's limits, the control group's version where one holds each slot, what the probe
    could still read and whether it reached the network, and where free uids were looked for."""
    level: str
    root: bool
    first_uid: int | None
    uid: int | None
    account: str | None
    jobs: int
    jobs_asked: int
    memory_mb: int
    cpu_seconds: int
    file_mb: int
    temporary_mb: int
    processes: int
    groups: int | None
    readable: tuple[str, ...] = ()
    network: bool = False
    free_from: int = users.FIRST_UID

    @classmethod
    def of(cls, box: Any) -> "Sandbox":
        """The facts of the sandbox `box` (grader/sandbox/box.py's)."""
        r = box.resources
        uid = box.user[0] if box.user else None
        return cls(box.level, os.geteuid() == 0, box.first_uid, uid,
                   users.name(uid) if uid is not None else None, box.jobs, box.jobs_asked,
                   r.memory_mb, r.cpu_seconds, r.file_mb, r.temporary_mb, r.processes,
                   int(box.groups["version"]) if box.groups and box.user else None,
                   tuple(box.readable), bool(box.network))

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "readable": list(self.readable)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Sandbox":
        """The facts `to_dict` made; TypeError or ValueError for anything else."""
        if not isinstance(data, dict) or set(data) - {f.name for f in fields(cls)}:
            raise ValueError(f"not a sandbox's facts: {data!r}"[:200])
        readable = data.get("readable", [])
        if not isinstance(readable, list) or not all(isinstance(p, str) for p in readable):
            raise ValueError("a sandbox's readable paths are a list of paths")
        return cls(**{**data, "readable": tuple(readable)})
