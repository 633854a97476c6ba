"""A ready interpreter that the checker's children are forked from, on Linux: each child starts
with the checker's modules already imported, instead of paying for a new interpreter and its
imports (about 80 ms of processor time, most of a short child's life) every time.

A zygote is a process of its own, started the way a child is (lab/check/process.py's CHILD
flags, and the child's environment), that imports the child's modules and then only waits.
What an interpreter keeps from its start (the hash seed, the time zone, the locale) is the
zygote's, so there is one zygote for each (startup()). It never runs a student's code and never
holds a secret: the job, the secret among it, reaches each child on its own standard input, as
it does from a new interpreter. Asked for a child, the zygote forks; the fork takes the three
pipes the checker made for it as its standard streams and the rest of its own environment,
leads a session of its own, takes the child's processor limit, dies with the zygote (which dies
with the checker), and runs lab/check/child.py's main, then leaves the way an interpreter does (atexit, threads,
flushes). The zygote reports each child's pid and, when it ends, its exit status, in Popen's
convention, so the checker waits for and kills a forked child as it does a started one.

multiprocessing's forkserver does the forking, but one server per process, under the parent's
own flags and environment, and without a way to hand a process its standard streams: the
children here need an environment (a hash seed) per run and UTF-8 mode, so this is its own.
A caller's sandbox that says how a forked child enters it (a `forkable`: the grader's, at its
root levels, grader/sandbox/box.py's Entering) is entered in the child after the fork, where a
started child would run it before exec; any other sandbox, and every system but Linux, starts
a new interpreter as before: process._forked decides.
"""
from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading

from lab.check import own_threads

FDS = 3  # the child's standard input, output and error
PACKET = 1 << 20  # the longest request: a larger environment is started anew instead


def startup(env: dict) -> frozenset:
    """What of an environment an interpreter reads as it starts and keeps: the hash seed, the
    time zone (the time module reads TZ once) and the locale. Children whose environments agree
    on these can come from one zygote; each child then takes the rest of its own environment."""
    return frozenset((k, v) for k, v in env.items()
                     if k in ("PYTHONHASHSEED", "TZ", "LANG", "LANGUAGE") or k.startswith("LC_"))


# --- the checker's side ----------------------------------------------------------------------

class Forked:
    """A forked child, seen as subprocess.Popen shows a started one: its pid, its three pipes
    (binary, buffered as Popen's are), and poll/wait/kill with Popen's exit codes."""

    def __init__(self, zygote: "Zygote", pid: int, stdin, stdout, stderr):
        self._zygote, self.pid = zygote, pid
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.returncode: int | None = None

    def poll(self) -> int | None:
        self.returncode = self._zygote.status(self.pid, 0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        code = self._zygote.status(self.pid, timeout)
        if code is None:
            raise subprocess.TimeoutExpired("a forked child", timeout or 0.0)
        self.returncode = code
        return code

    def kill(self) -> None:
        if self.returncode is None and self._zygote.status(self.pid, 0) is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


class Zygote:
    """One zygote process and the thread that reads what it says. Children are asked for one at
    a time (a lock), so each pid answers the request before it."""

    def __init__(self, command: list[str], env: dict, tie):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            self.process = subprocess.Popen(
                [*command, str(theirs.fileno())], pass_fds=(theirs.fileno(),), env=env,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                preexec_fn=tie, start_new_session=True)
        self.socket = ours
        self._asking = threading.Lock()
        self._changed = threading.Condition()
        self._answers: list[dict] = []
        self._ended: dict[int, int] = {}
        self._pids: set[int] = set()
        self.alive = True
        self.closed = threading.Event()
        listener = threading.Thread(target=self._listen, daemon=True, name="zygote listener")
        listener.start()
        own_threads.not_work(listener)

    def fork(self, cwd: str, env: dict, cpu_seconds: int, entry=None) -> Forked:
        """A new child in `cwd` with the environment `env`, under a processor limit of
        `cpu_seconds`, that first calls `entry` if given (module, function, data: the grader's
        sandbox); RuntimeError when the zygote is gone or refuses (the caller then starts an
        interpreter)."""
        if not os.path.isdir(cwd):  # as Popen would say it, in this process
            raise FileNotFoundError(f"No such directory: {cwd!r}")
        request = json.dumps({"cwd": cwd, "env": env, "cpu": cpu_seconds,
                              "entry": entry}).encode()
        if len(request) > PACKET:
            raise RuntimeError("the environment is too large to send")
        pipes = [os.pipe() for _ in range(FDS)]
        theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
        ours = [pipes[0][1], pipes[1][0], pipes[2][0]]
        try:
            with self._asking:
                answer = {"error": "the zygote has ended"}
                if self.alive:
                    try:
                        socket.send_fds(self.socket, [request], theirs)
                        answer = self._answer()
                    except OSError as exc:  # its end is closed: it is gone
                        self.alive = False
                        answer = {"error": f"the zygote cannot be reached: {exc}"}
        finally:
            for fd in theirs:
                os.close(fd)
        if "pid" not in answer:
            for fd in ours:
                os.close(fd)
            raise RuntimeError(answer["error"])
        return Forked(self, int(answer["pid"]), os.fdopen(pipes[0][1], "wb"),
                      os.fdopen(pipes[1][0], "rb"), os.fdopen(pipes[2][0], "rb"))

    def idle(self) -> bool:
        """Whether every child it forked has ended."""
        with self._changed:
            return self._pids <= set(self._ended)

    def close(self) -> None:
        """Let the zygote go: it sees its socket close and ends."""
        with self._asking:
            self.alive = False
            try:
                self.socket.shutdown(socket.SHUT_RDWR)  # wakes the listener, and the zygote
            except OSError:
                pass
        self.closed.set()
        self.process.wait()
        self.socket.close()

    def status(self, pid: int, timeout: float | None) -> int | None:
        """`pid`'s exit code once it has ended, waiting at most `timeout` seconds (None: for as
        long as it takes)."""
        with self._changed:
            self._changed.wait_for(lambda: pid in self._ended, timeout)
            return self._ended.get(pid)

    def _answer(self) -> dict:
        with self._changed:
            self._changed.wait_for(lambda: self._answers or not self.alive)
            return self._answers.pop(0) if self._answers else {"error": "the zygote has ended"}

    def _listen(self) -> None:
        while True:
            try:
                data = self.socket.recv(PACKET)
            except OSError:
                data = b""
            with self._changed:
                if not data:  # the zygote is gone, and its children died with it
                    self.alive = False
                    for pid in self._pids - set(self._ended):
                        self._ended[pid] = -signal.SIGKILL
                    self._changed.notify_all()
                    return
                said = json.loads(data)
                if "ended" in said:
                    self._ended[said["ended"]] = said["code"]
                else:
                    if "pid" in said:
                        self._pids.add(said["pid"])
                    self._answers.append(said)
                self._changed.notify_all()


KEPT = 4  # zygotes kept ready at once: one per startup() environment (a seed each, mostly)
_zygotes: dict[frozenset, Zygote] = {}  # oldest first
_making = threading.Lock()


def fork(command: list[str], env: dict, tie, cwd: str, cpu_seconds: int, entry=None) -> Forked:
    """A child with the environment `env`, forked from the zygote for what of `env` an
    interpreter keeps from its start (startup()), made the first time it is needed. Each zygote
    is started by a thread of its own that lives as long as the zygote does, since a zygote's
    parent-death signal follows the thread that started it, not the process. At most KEPT are
    kept; the oldest idle one is let go to make room. A zygote found dead only on asking (it
    was killed, and its socket's end not yet read) is replaced, and asked once more."""
    key = startup(env)
    for _ in range(2):
        with _making:
            zygote = _zygotes.pop(key, None)
            if zygote is None or not zygote.alive:
                zygote = _start(command, env, tie)
                idle = [k for k, z in _zygotes.items() if z.idle()]
                for old in idle[:max(len(_zygotes) + 1 - KEPT, 0)]:
                    _zygotes.pop(old).close()
            _zygotes[key] = zygote
        try:
            return zygote.fork(cwd, env, cpu_seconds, entry)
        except RuntimeError:
            if zygote.alive:
                raise
    raise RuntimeError("no zygote could fork a child")


def _start(command: list[str], env: dict, tie) -> Zygote:
    made: list = []
    done = threading.Event()

    def keeper():
        try:
            made.append(Zygote(command, env, tie))
        except OSError as exc:
            made.append(exc)
        done.set()
        if isinstance(made[0], Zygote):
            made[0].closed.wait()  # the zygote's parent-death signal is this thread's

    thread = threading.Thread(target=keeper, daemon=True, name="zygote keeper")
    thread.start()
    own_threads.not_work(thread)
    done.wait()
    if isinstance(made[0], OSError):
        raise RuntimeError(f"no zygote: {made[0]}")
    return made[0]


# --- the zygote's side ------------------------------------------------------------------------

def serve(fd: int) -> int:
    """The zygote's life: import the child's modules, then fork a child for each request until
    the checker closes its end. Returns in the zygote (0) when that happens, and in each child
    with the child's own exit code, so that both leave as an interpreter does."""
    from importlib import import_module

    import lab
    from lab.check import child  # noqa: F401  (what every child needs, imported once)
    for module in sorted(set(lab._WORLD.values())):  # the world a harness.py imports
        import_module(f"lab.world.{module}")

    channel = socket.socket(fileno=fd)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    while True:
        ready, _, _ = select.select([channel, wake_r], [], [])  # type: ignore[type-var]
        if wake_r in ready:
            os.read(wake_r, 4096)
            _reap(channel)
        if channel in ready:
            try:
                request, fds, _, _ = socket.recv_fds(channel, PACKET, FDS)
            except OSError:
                request, fds = b"", []
            if not request:
                return 0
            asked = json.loads(request)
            if asked.get("entry"):  # imported here, once, not in every child
                import_module(asked["entry"][0])
            pid = _fork(request, fds, channel, (wake_r, wake_w))
            if pid == 0:
                return _be_the_child(asked)
            for descriptor in fds:
                os.close(descriptor)
            _say(channel, {"pid": pid} if pid > 0 else {"error": "fork failed"})


def _fork(request: bytes, fds: list[int], channel, wake) -> int:
    """Fork, and in the child put the three pipes in place of the standard streams and let go
    of everything that is the zygote's. -1 when the fork failed or the request was not whole."""
    if len(fds) != FDS:
        for descriptor in fds:
            os.close(descriptor)
        return -1
    try:
        pid = os.fork()
    except OSError:
        return -1
    if pid == 0:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        channel.close()
        for descriptor in wake:
            os.close(descriptor)
        for standard, descriptor in enumerate(fds):
            os.dup2(descriptor, standard)
        for descriptor in fds:
            if descriptor > 2:
                os.close(descriptor)
    return pid


def _be_the_child(request: dict) -> int:
    """The child's own hardening, as process._posix_tie gives a started child, then its main.
    A child with an entry (the grader's sandbox) enters it where a started child would run it,
    between fork and exec: in its folder, in a session of its own; then the limit and the tie,
    which a change of user would clear."""
    import resource
    os.setsid()
    import ctypes
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    entry = request.get("entry")
    parent = os.getppid()
    if not entry:
        prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the zygote ended before the signal was tied to it
            return 1
    os.chdir(request["cwd"])
    if entry:
        module, function, data = entry
        getattr(sys.modules[module], function)(data)
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    cpu = request["cpu"]
    if hard == resource.RLIM_INFINITY or cpu < hard:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard))
    if entry:
        prctl(1, signal.SIGKILL)  # dies with the process that waits for it
    os.environ.clear()  # the child's own environment, in place of the zygote's (putenv too)
    os.environ.update(request["env"])
    import random
    random.seed()  # as a new interpreter seeds it, not the zygote's state shared by every child
    sys.argv = ["-c"]
    from lab.check.child import main
    return main()


def _reap(channel) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _say(channel, {"ended": pid, "code": os.waitstatus_to_exitcode(status)})


def _say(channel, message: dict) -> None:
    try:
        channel.send(json.dumps(message).encode())
    except OSError:
        sys.exit(0)  # the checker is gone
