"""The probe of what this machine allows: a real child, started with a candidate sandbox's real
settings, that reports what it could reach. prepare() keeps the first candidate whose child
started, could import the kit's child, and (at "namespaces") could read no secret, reach no
network and was alone in its PID namespace."""
from __future__ import annotations

import json
import subprocess
import sys

from lab.check import manifest

from grader.sandbox.box import Sandbox

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


def run(box: Sandbox, hide: list[str]) -> dict | str:
    """What a child of `box` reached, as the probe reports it (readable, network, uid, pid,
    pids), or a sentence saying why there is no report."""
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
