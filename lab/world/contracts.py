"""The contracts a harness relies on, one Protocol per part of the world that has a real
counterpart: the provider and the response it streams, the workspace, the shell and its process.

Each fake of the world (lab.FakeProvider, lab.Response, lab.Workspace, lab.Shell, lab.Process)
and each real part behind `course chat` (lab/desk/real.py) subclasses the Protocol it keeps, so
that a harness written against the fakes runs unchanged on the real ones;
tests/desk/test_conformance_*.py run the same cases on both. Where the two worlds legitimately
differ, the docstring says so, and a harness must not depend on either side of the difference.

Time is the one difference everywhere: the fake world counts loop turns and the real one
counts seconds. A look (Response.ready(), Process.done()) never blocks for long, and a caller
that waits gives the event loop a turn between looks (`await asyncio.sleep(0)`); a real look
may itself wait a few milliseconds for news first, so that such a loop idles instead of
spinning. Nothing in a contract promises how many turns or seconds anything takes.
"""

from typing import Protocol, runtime_checkable


@runtime_checkable
class Response(Protocol):
    """One streamed reply, read a line at a time: what Provider.open returns.

    A line is one line of the response body as text, without its line ending: `data: {...}`,
    `data: [DONE]`, a `: keep-alive` comment, or "" for a blank line, in the order the provider
    sent them and otherwise unchanged (a real adapter may rewrite an error chunk in a server's
    own dialect into lesson 16's `data: {"error": {"message": ...}}`, and nothing else). The
    response does not interpret lines: `data: [DONE]` is a line like any other, and it is the
    reader (lesson 16's decode_line) that stops there.

    ready() is True when read_line() has something to give now, a line or the end, and False
    once closed. It answers at once or after a short, bounded wait for news (a real response
    waits a few milliseconds), never longer.

    read_line() returns the next line, or None once the stream has ended: the body is over,
    with [DONE] or without (a connection dropped mid-stream ends it too; judging a reply that
    stopped short is the reader's job). After None, ready() stays True and read_line() keeps
    returning None. It raises RuntimeError when nothing is ready (look first) and once closed.

    close() stops reading and lets the connection go at once, so the provider stops sending,
    and billing, what nobody will read. It is safe at any moment and any number of times.
    Afterwards .closed is True, ready() is False, read_line() raises RuntimeError, and an
    `async for` waiting for a line ends.

    `async for line in response` waits for each line and looks at nothing else meanwhile: the
    deaf way to read, which lesson 16 shows failing to hear Stop. It ends at the end of the
    stream, or when the response is closed.
    """

    closed: bool

    def ready(self) -> bool:
        """True when read_line() has a line, or the end, to give now."""

    def read_line(self) -> "str | None":
        """The next line, or None once the stream has ended."""

    def close(self) -> None:
        """Stop reading and let the connection go."""

    def __aiter__(self) -> "Response":
        """The response itself, read by `async for`."""

    async def __anext__(self) -> str:
        """The next line, once it has come; StopAsyncIteration at the end or once closed."""


@runtime_checkable
class Provider(Protocol):
    """Where streamed replies come from: open(body) sends one request and returns its Response.

    `body` is the request in lesson 16's wire shape (to_wire: {"messages": [...], "tools":
    [...], "stream": True}), sent once and as given; a real adapter may add what its server
    needs, such as the model's name, and drop an empty "tools" that some servers refuse. open
    returns before any line has to arrive: a fake at once, a real client once the status line
    has come (until then it holds its thread). Call it from running async code, since a fake's
    lines arrive with the loop's turns.

    When no stream can be had (the provider is unreachable, refuses the connection, or turns
    the request away) open raises ConnectionError, whose text says why; no Response exists then,
    so there is nothing to close. A fake whose script has run out raises ScriptExhausted
    instead: that is the test's mistake, not the provider's.
    """

    def open(self, body: dict) -> Response:
        """Send `body` and return the Response whose lines will arrive."""


@runtime_checkable
class Workspace(Protocol):
    """The files a harness works on, by path. Text in, the same text out: what write_text
    stored, read_text gives back exactly, line endings included.

    A path is a str of "/"-separated parts relative to the workspace's root; "" and "." name
    the root, and "." parts and doubled slashes are ignored, so "./src//a.py" is "src/a.py". A
    path that would lead outside is refused, by the fake with ValueError for any "..", by a real
    folder with PermissionError for one that resolves outside (a ".." that stays inside is
    allowed there); a leading "/" means nothing portable, so a harness does not write one.

    The errors are a disk's: FileNotFoundError for a missing path, IsADirectoryError for a
    folder where a file was wanted (read_text, remove, write_text), NotADirectoryError for a
    file where a folder was wanted (listdir, a write beneath a file); each one's text names the
    path. write_text and append_text make the folders a path needs. Folders exist only through
    what they hold in the fake, so whether a folder emptied by remove() still exists is the
    workspace's own business: a harness must not depend on it either way.
    """

    def exists(self, path: str) -> bool:
        """True for a file or a folder."""

    def isdir(self, path: str) -> bool:
        """True for a folder, the root included."""

    def listdir(self, path: str = ".") -> "list[str]":
        """The sorted names of a folder's direct children, files and folders alike."""

    def read_text(self, path: str) -> str:
        """The whole text of a file."""

    def write_text(self, path: str, text: str) -> None:
        """Create the file, or replace all of its text."""

    def append_text(self, path: str, text: str) -> None:
        """Add `text` to the end of the file, creating it if needed."""

    def remove(self, path: str) -> None:
        """Delete a file (never a folder)."""


@runtime_checkable
class Process(Protocol):
    """A command line started by Shell.start, running on its own until it ends or is killed.

    .command is the text it was started with. done() says whether it has finished or been
    killed; it answers at once or after a short, bounded wait (a real process waits a few
    milliseconds for its end), so a loop that polls it with a turn between looks idles.
    output() returns (output, code) once done: stdout and stderr together, as one str, and the
    exit code; before that it raises RuntimeError("the process is still running").

    kill() ends it at once: done() becomes True, the code is -9, the output is what it had
    printed so far, .killed becomes True, and nothing it started lives on. Once it has finished
    on its own, kill() does nothing (.killed stays False), and it may be called any number of
    times, so `finally: process.kill()` is always safe.
    """

    command: str
    killed: bool

    def done(self) -> bool:
        """True once the command line has finished or been killed."""

    def output(self) -> "tuple[str, int]":
        """(output, code), once done."""

    def kill(self) -> None:
        """Stop it now; harmless once it is done."""


@runtime_checkable
class Shell(Protocol):
    """Runs command lines in the workspace's folder: start(command) returns a running Process
    at once, and what its commands write, the workspace reads, and the other way round.

    A command line is bash's: segments joined by &&, ; or a line break, quotes respected,
    `2>&1` allowed. The fake runs a few commands (echo, cat, ls, rm, seq, sleep, true, false,
    exit, and a pretend pytest) with the output and exit codes GNU bash and coreutils give, and
    refuses pipes and redirections with a message and code 2; a real shell runs everything,
    with its own system's tools. So what a command prints when it succeeds, and whether its
    code is 0, are the contract; a failure's wording and exact code are the tools' own (GNU's
    `ls missing` exits 2, BSD's 1; a newer bash says "bash: line 1: nope: command not found",
    an older one "bash: nope: command not found", both with 127). A fake's durations pass in
    loop turns (`sleep 600` is 600 turns) and a real one's in seconds. Call start from running
    async code.
    """

    def start(self, command: str) -> Process:
        """Start `command` and return its Process at once."""
