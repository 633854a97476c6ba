"""The real world behind `course chat`: a folder on disk, real subprocesses and an HTTP client,
each keeping the contract in lab.world.contracts that its fake keeps, so a student's harness
runs unchanged; tests/desk/test_conformance_*.py run the same cases on both.

The fake world counts loop turns; this one counts seconds. The course's poll loops look with
done() or ready() and then give the loop a turn (`await asyncio.sleep(0)`), which against a real
process or socket would spin a core. So done() and ready() here wait up to POLL_WAIT seconds for
news before they say False: the student's loop runs as written and the process stays idle."""

from __future__ import annotations

import asyncio
import datetime
import email.utils
import errno
import html
import math
import os
import queue
import re
import signal
import socket
import subprocess
import threading
from pathlib import Path

import httpx

from lab.world import contracts
from lab.world.provider import Refused

POLL_WAIT = 0.005  # seconds a look may wait for news: short enough for Stop, long enough to idle


class DiskWorkspace(contracts.Workspace):
    """The Workspace contract over the folder `root`. Every path is relative to it, and one
    that leads outside it (through "..", an absolute path or a symlink) raises PermissionError:
    the model works in the folder it was given. Unlike lab.Workspace, a leading "/" is not
    ignored: on a real disk it names a real place, which is refused unless it is inside. Text
    is UTF-8 and kept as written: no line endings are translated, either way."""

    def __init__(self, root):
        self.root = Path(root).resolve()

    def _path(self, path):
        full = (self.root / path).resolve()  # an absolute path stays itself, and is judged
        if full != self.root and not full.is_relative_to(self.root):
            raise PermissionError(f"{path}: outside the work folder {self.root}")
        return full

    def exists(self, path):
        return self._path(path).exists()

    def isdir(self, path):
        return self._path(path).is_dir()

    def listdir(self, path="."):
        full = self._path(path)
        if full.is_file():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(full))
        return sorted(child.name for child in full.iterdir())

    def read_text(self, path):
        with self._file(path).open(encoding="utf-8", newline="") as handle:
            return handle.read()

    def write_text(self, path, text):
        self._write(path, text, "w")

    def append_text(self, path, text):
        self._write(path, text, "a")

    def remove(self, path):
        self._file(path).unlink()

    def _file(self, path):
        """The full path of a file that may be read, written or removed: a folder is refused
        here, since the systems disagree (Linux says IsADirectoryError, macOS and Windows a
        PermissionError for some of these calls)."""
        full = self._path(path)
        if full.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(full))
        return full

    def _write(self, path, text, mode):
        if not isinstance(text, str):  # before open() makes an empty file of a wrong call
            raise TypeError(f"{path}: the text to write is a str; got {type(text).__name__}")
        full = self._file(path)
        try:
            full.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:  # a file stands where the path needs a folder
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR),
                                     str(full.parent)) from None
        with full.open(mode, encoding="utf-8", newline="") as handle:
            handle.write(text)


class RealProcess(contracts.Process):
    """The Process contract over a real `bash -c` in its own process group: done(), output()
    -> (output, code), kill() (code -9, idempotent, harmless once done), .command and .killed.
    A reader thread collects stdout and stderr together, so a chatty command never blocks on a
    full pipe while nobody is looking."""

    def __init__(self, command, cwd):
        self.command, self.killed = command, False
        self._popen = subprocess.Popen(
            ["bash", "-c", command], cwd=cwd, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        self._printed = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._code = None

    def __repr__(self):
        return f"<RealProcess {self.command!r} pid {self._popen.pid}>"

    def _read(self):
        for raw in iter(lambda: self._popen.stdout.read1(65536), b""):
            self._printed.append(raw)

    def done(self):
        """True once the command has finished or been killed; waits up to POLL_WAIT for that."""
        if self._code is None:
            try:
                self._popen.wait(timeout=POLL_WAIT)
            except subprocess.TimeoutExpired:
                return False
            self._reader.join()
            self._code = self._popen.returncode
        return True

    def output(self):
        if not self.done():
            raise RuntimeError("the process is still running")
        text = b"".join(self._printed).decode("utf-8", errors="replace")
        return text, self._code

    def kill(self):
        """The whole process group, at once: a command's own children go with it."""
        if self._code is not None or self._popen.poll() is not None:
            self.done()
            return
        try:
            os.killpg(self._popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._popen.wait()
        self._reader.join()
        self.killed, self._code = True, -9


class RealShell(contracts.Shell):
    """The Shell contract: start(command) -> a running RealProcess in the folder `cwd`.
    It remembers what it started, so kill_all() can end every command on the way out."""

    def __init__(self, cwd):
        self.cwd = str(cwd)
        self.started = []

    def start(self, command):
        process = RealProcess(command, self.cwd)
        self.started.append(process)
        return process

    def kill_all(self):
        for process in self.started:
            process.kill()


class ProviderError(ConnectionError):
    """The provider cannot be used: unreachable, or not a Chat Completions endpoint. Its text
    says which, in words a student can act on. A ConnectionError, as the Provider contract says
    open() raises when no stream can be had; a status before the stream is lab's Refused."""


_END = object()
SAID_MOST = 2000  # characters of an error body kept: enough for its message and its code
WAIT_MOST = 60  # seconds course chat waits on a Retry-After before its one second try


def retry_after(value, now=None):
    """The seconds a Retry-After header asks for (whole seconds, or an HTTP date), rounded up;
    None for a missing or unreadable one."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return int(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    now = now or datetime.datetime.now(datetime.timezone.utc)
    return max(0, math.ceil((when - now).total_seconds()))


def what_was_said(kind, body):
    """An error body as one line a person can read: an HTML page becomes its title (or its
    text), a long body is cut at SAID_MOST characters, and line breaks become spaces."""
    text = body.strip()
    if "html" in kind or text.lower().startswith(("<!doctype", "<html")):
        title = re.search(r"<title[^>]*>(.*?)</title>", text, re.I | re.S)
        text = html.unescape(re.sub(r"<[^>]+>", " ", title.group(1) if title else text))
        text = " ".join(text.split())[:200] + " (an HTML page)"
    text = " ".join(text.split())
    return text if len(text) <= SAID_MOST else text[:SAID_MOST] + "..."


class HttpResponse(contracts.Response):
    """The Response contract over a streamed httpx response: ready(), read_line() (None at the
    end, or when the connection drops mid-stream), close(), `async for`. A reader thread puts
    lines on a queue; ready() waits up to POLL_WAIT for one, so a poll loop idles instead of
    spinning. The reader thread reads the httpx response, and closes it at the end."""

    def __init__(self, response):
        self._response, self._lines = response, queue.Queue()
        self._next, self.closed = None, False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        try:
            for line in self._response.iter_lines():
                self._lines.put(line)  # as the server sent it: reading it is the harness's
        except Exception:  # closed by us, or dropped by the server: either way, the end
            pass
        finally:
            self._response.close()
        self._lines.put(_END)

    def ready(self):
        if self.closed:
            return False
        if self._next is None:
            try:
                self._next = self._lines.get(timeout=POLL_WAIT)
            except queue.Empty:
                return False
        return True

    def read_line(self):
        if self.closed:
            raise RuntimeError("the response is closed")
        if not self.ready():
            raise RuntimeError("no line is ready yet: look with ready() first")
        line, self._next = self._next, None
        if line is _END:
            self._next = _END  # the end stays the end
            return None
        return line

    def close(self):
        """Let the connection go now. Shutting the socket down wakes the reader thread, which
        then closes the response; closing the socket alone would leave that thread blocked in
        recv, and the connection open, until the server gave up."""
        if self.closed:
            return
        self.closed = True
        if not self._reader.is_alive():
            return  # the stream is over and its response closed: the socket may be another's
        stream = self._response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except (AttributeError, OSError):  # no socket to reach, or it has gone already
            self._response.close()

    def __aiter__(self):
        return self

    async def __anext__(self):
        while not self.ready():  # each look waits up to POLL_WAIT: this loop idles
            if self.closed:
                raise StopAsyncIteration
            await asyncio.sleep(0)
        line = self.read_line()
        if line is None:
            raise StopAsyncIteration
        return line


class ChatCompletionsClient(contracts.Provider):
    """`client.open(body) -> response` for any OpenAI-compatible Chat Completions endpoint at
    `base_url` (".../v1"). open() adds "model", drops an empty "tools" (some servers refuse
    one), sends `Authorization: Bearer <api_key>` when there is a key, and waits for the
    status line: trouble there raises a ConnectionError, which lesson 16's StreamingModel turns
    into a reply labelled "error": ProviderError when unreachable or not a stream, and for a
    4xx or 5xx such as 401 or 429 lab's Refused, as lab.refuse(text, status=...) does, with
    the body's code and the Retry-After wait. The lines of a stream are handed on as they came.

    `wait(seconds)`, when given, is how a rate-limited request (429 with a Retry-After, and not
    spent quota) waits, at most WAIT_MOST seconds, before it is sent once more; it returns False
    when the person gave up waiting, and then the refusal is raised as it came."""

    def __init__(self, base_url, model, api_key=None, *, connect_timeout=10.0, wait=None):
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        headers = {"Accept": "text/event-stream"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        # no read timeout: a local model may think for minutes, and Stop is the way out
        self._http = httpx.Client(headers=headers,
                                  timeout=httpx.Timeout(None, connect=connect_timeout))
        self._wait = wait

    def open(self, body):
        body = {**body, "model": self.model, "stream": True}
        if not body.get("tools"):
            body.pop("tools", None)
        try:
            return self._open(body)
        except Refused as refused:
            if (self._wait is None or refused.status != 429 or refused.retry_after is None
                    or refused.code == "insufficient_quota"):
                raise
            if not self._wait(min(refused.retry_after, WAIT_MOST)):
                raise
        return self._open(body)  # once more, after the wait the server asked for

    def _open(self, body):
        request = self._http.build_request("POST", self.url, json=body)
        try:
            response = self._http.send(request, stream=True)
        except httpx.HTTPError as exc:
            raise ProviderError(f"cannot reach {self.url}: {exc}") from None
        if response.status_code >= 400:
            raise self._refusal(response)
        kind = response.headers.get("content-type", "")
        if "text/event-stream" not in kind:
            response.close()
            raise ProviderError(
                f"{self.url} answered with {kind or 'no content type'}, not a stream "
                "(text/event-stream): is this an OpenAI-compatible Chat Completions endpoint?")
        return HttpResponse(response)

    def _refusal(self, response):
        try:
            said = response.read().decode("utf-8", errors="replace")
        finally:
            response.close()
        return Refused(self.url, response.status_code,
                       what_was_said(response.headers.get("content-type", ""), said),
                       retry_after=retry_after(response.headers.get("retry-after")))

    def close(self):
        self._http.close()
