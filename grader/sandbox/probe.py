"""The probe of what this machine allows: a real child, started with a candidate sandbox's real
settings, that reports what it could reach. prepare() keeps the first candidate whose child
started, could import the kit's child and open its own harness.py by its path (as the runner's
child does), and (at "namespaces") could read nothing outside the allow-list, reach no network
and was alone in its PID namespace.

What it must find unreadable is named (`secrets`: the kit's .git, starters, solutions and
source, the expected observations, the output folder, the extra tests, the submissions folder
when the caller names it); at "namespaces" it also walks its whole view, outside what is bound
into it, and reports every entry the allow-list does not hold, so that a view built otherwise
than planned (a mount left from the machine's own root, another program) is caught too.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from lab.check import manifest

from grader.refusals import ProbeFailed
from grader.sandbox import view
from grader.sandbox.box import Sandbox

PROBE = r"""
import json, os, socket, sys
kit, secrets, allowed, own = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), \
    sys.argv[4]
sys.path.insert(0, kit)
import lab.check.child  # the kit's child must import, or nothing can be graded
readable = []
for path in secrets:
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
if allowed:  # the view is an allow-list: walk what it holds outside what it binds
    here, folders = os.getcwd(), ["/"]
    while folders:
        folder = folders.pop()
        for entry in os.scandir(folder):
            kind = allowed.get(entry.path, "leaf" if entry.path == here else None)
            if kind is None:
                readable.append(entry.path)
            elif kind == "open" and entry.is_dir(follow_symlinks=False):
                folders.append(entry.path)
try:
    with open(own, "rb"):
        own_file = True
except OSError:
    own_file = False
network = True
try:
    socket.create_connection(("192.0.2.1", 9), timeout=0.5).close()
except OSError as exc:
    network = exc.errno not in (101, 99, 97)  # no route out: the network is cut
pids = sorted(int(entry) for entry in os.listdir("/proc") if entry.isdigit())
print(json.dumps({"readable": readable, "network": network, "uid": os.getuid(),
                  "pid": os.getpid(), "pids": pids[:3], "own_file": own_file}))
"""


def secrets(out: Path | None, extra_files=(), private=()) -> list[str]:
    """The paths a submission must not read, named: the kit's history, starters (the next
    lab's starter holds this lab's answer), solutions and single source, the reference's
    observations, the output folder, the instructor's extra tests files and `private`
    folders (the submissions folder)."""
    paths = [manifest.KIT / ".git", manifest.STARTERS, manifest.SOLUTIONS, manifest.SOURCE]
    paths += [lab.expected for lab in manifest.labs()]
    if out is not None:
        paths.append(Path(out))
    paths += [Path(p) for p in [*extra_files, *private]]
    return [os.path.realpath(p) for p in paths]


def run(box: Sandbox, hide: list[str]) -> dict | ProbeFailed:
    """What a child of `box` reached, as the probe reports it (readable, network, uid, pid,
    pids, own_file), or why there is no report."""
    scratch = box.scratch(b"# the probe's own harness.py\n")
    allowed = view.allowed(box.view) if box.level == "namespaces" else {}
    try:
        done = subprocess.run([sys.executable, "-I", "-c", PROBE, str(manifest.KIT),
                               json.dumps(hide), json.dumps(allowed),
                               str(scratch / "harness.py")], cwd=scratch, env=box.env(scratch),
                              preexec_fn=box.preexec(), capture_output=True, text=True,
                              timeout=60, start_new_session=True)
    except (OSError, subprocess.SubprocessError) as exc:
        return ProbeFailed(box.level, "start", str(exc))
    finally:
        box.remove(scratch)
    if done.returncode != 0:
        return ProbeFailed(box.level, "failed", (done.stderr.strip().splitlines() or [""])[-1])
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return ProbeFailed(box.level, "unreadable", "")
