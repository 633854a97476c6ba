"""The lesson 16 fakes: a provider that answers on the wire, as lines of a stream that arrive
one loop turn at a time, and a blocking client that holds its thread until it is let go."""

import asyncio
import json
import threading

from . import contracts
from .clock import turn_clock
from .errors import ScriptExhausted
from .replies import assistant_problem, number_calls, say
from .servers import recorded_lines, server_named
from .snapshot import snapshot


class _Pause:
    def __init__(self, turns):
        self.turns = turns

    def __repr__(self):
        return f"lab.pause({self.turns})"


class _Hang:
    def __repr__(self):
        return "lab.HANG"


class _Refusal:
    def __init__(self, text, status, retry_after):
        self.text, self.status, self.retry_after = text, status, retry_after

    def __repr__(self):
        status = "" if self.status is None else f", status={self.status}"
        wait = "" if self.retry_after is None else f", retry_after={self.retry_after}"
        return f"lab.refuse({self.text!r}{status}{wait})"


class Refused(ConnectionError):
    """A request the server turned away before any line: `status` (400 to 599), `said` (its
    body, as text), `code` (the body's error code or type when it is Chat Completions' JSON
    error, else None) and `retry_after` (the seconds its Retry-After header asked for, or
    None). Its text is turned_away's sentence. The fake and `course chat`'s client both raise
    it, so a model object can tell a rate limit (429, wait and send again) from spent quota
    (429 with code "insufficient_quota", which waiting does not cure)."""

    def __init__(self, where, status, said, *, retry_after=None):
        self.status, self.said, self.retry_after = status, said, retry_after
        self.code = error_code(said)
        super().__init__(turned_away(where, status, said, retry_after=retry_after))


def error_code(said):
    """The "code" (or, without one, the "type") of a Chat Completions JSON error body, or None
    for a body that is not one."""
    try:
        error = json.loads(said).get("error")
    except (ValueError, AttributeError):
        return None
    if not isinstance(error, dict):
        return None
    return error.get("code") or error.get("type")


URL = "https://api.example.com/v1/chat/completions"  # where a fake provider says it is

HANG = _Hang()
"""Put in a stream, it means no more lines, ever: a provider that went silent."""


def pause(n):
    """A stream item that holds back the next line for `n` more loop turns."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"pause(n) counts loop turns, a whole number 0 or more; got {n!r}")
    return _Pause(n)


def refuse(text, *, status=None, retry_after=None):
    """A FakeProvider entry for a request that gets no stream: open() raises ConnectionError.

    Without a status the connection itself failed, and the error's text is `text`. With one,
    the server answered that HTTP status (400 to 599) before any line, saying `text` in its
    body (a JSON error body, such as lab.servers.QUOTA dumped, gives the error its code), and
    open() raises Refused, whose text is what turned_away says, as `course chat`'s client
    says it; `retry_after` is the seconds a Retry-After header asked for."""
    if not isinstance(text, str):
        raise TypeError(f"refuse(text) takes the error's text, a string; got {text!r}")
    if status is not None and (isinstance(status, bool) or not isinstance(status, int)
                               or not 400 <= status <= 599):
        raise ValueError(f"refuse(status=...) is an HTTP status from 400 to 599; got {status!r}")
    if retry_after is not None and (status is None or isinstance(retry_after, bool)
                                    or not isinstance(retry_after, int) or retry_after < 0):
        raise ValueError("refuse(retry_after=...) is whole seconds, 0 or more, beside a "
                         f"status; got {retry_after!r}")
    return _Refusal(text, status, retry_after)


def turned_away(where, status, said, *, retry_after=None):
    """The sentence for a server at `where` that answered `status` instead of a stream, having
    said `said` (and asked, with Retry-After, for a wait of `retry_after` seconds): one wording
    for the fake and the real client, so a lesson shows what a student will meet. It names what
    the status usually means on a Chat Completions endpoint."""
    if status == 400:
        why = ("the server could not use the request: a Chat Completions body needs \"model\" "
               "and \"messages\"")
    elif status == 401:
        why = "the server refused the API key: set OPENAI_API_KEY to a key it accepts"
    elif status == 403:
        why = "the key may not use this model"
    elif status == 404:
        why = ("no Chat Completions endpoint there, or no such model: the base URL usually ends "
               "in /v1")
    elif status == 429 and error_code(said) == "insufficient_quota":
        why = "the account's quota is spent: waiting will not help, its billing must change"
    elif status == 429:
        wait = f"after {retry_after} s" if retry_after is not None else "after a wait"
        why = (f"too many requests: nothing was streamed, so sending again {wait} is safe "
               f"(Retry-After: {'none given' if retry_after is None else retry_after})")
    elif status >= 500:
        why = "the server is in trouble: nothing was streamed, so a later try may work"
    else:
        why = "the server turned the request away"
    return f"{where} answered {status}: {why}. It said: {said or '(nothing)'}"


def _data(chunk):
    return "data: " + json.dumps(chunk)


FINISHES = ("stop", "tool_calls", "length", "content_filter")


def _choice(delta, finish=None):
    """One chunk holding one choice, in the lesson's plainest shape."""
    choice = {"index": 0, "delta": delta}
    if finish is not None:
        choice["finish_reason"] = finish
    return {"choices": [choice]}


def _pieces(text, piece):
    return [text[i:i + piece] for i in range(0, len(text), piece)]


def stream_lines(message, *, piece=3, real=False, finish=None):
    """The lines a provider streams for `message`, in the lesson 16 wire format.

    Text and each call's JSON arguments are cut into fragments of `piece` characters, so a
    fragment can end anywhere, inside an escape too; a call's id and name travel with its first
    fragment only. Then a finish chunk ("tool_calls" when there are calls, else "stop", or
    `finish` when given: "length" or "content_filter" for a reply the server cut short), or an
    error chunk for a reply built with fail(), and last `data: [DONE]`. A call with no id is
    numbered c1, c2, ... in the order of the message. No blank lines or keep-alives: add them to
    a raw list when a test wants them.

    real=NAME streams the reply as that recorded server does (lab.servers.SERVERS: "openai",
    "vllm", "llamacpp", "ollama", "ollama-0.4", "object-arguments"; real=True is "openai"),
    each in its own shape: OpenAI's role, "content": null and first call fragment in one
    chunk, Ollama's calls whole at index 0 or with no index, llama.cpp's `error:` line.
    """
    problem = assistant_problem(message)
    if problem:
        raise TypeError(f"stream_lines(message): {message!r} cannot be streamed: {problem}")
    if isinstance(piece, bool) or not isinstance(piece, int) or piece < 1:
        raise ValueError(f"stream_lines(piece=...) is a fragment's length, 1 or more; got "
                         f"{piece!r}")
    if finish is not None and finish not in FINISHES:
        raise ValueError(f"stream_lines(finish=...) is one of {', '.join(FINISHES)}; got "
                         f"{finish!r}")
    if message["stop_reason"] == "aborted":
        raise ValueError("stream_lines: a provider never sends an aborted reply; aborting is "
                         "the harness's decision. Use lab.fail(...) for a provider failure")
    if finish is not None and message["stop_reason"] == "error":
        raise ValueError("stream_lines: a reply built with lab.fail ends with an error chunk, "
                         "not a finish; give finish=... only for a reply that finishes")
    if real is not False:
        server = server_named(real)
        numbered = snapshot(message)
        number_calls(numbered, 0)
        ending = None if message["stop_reason"] == "error" else (
            finish or ("tool_calls" if any(block["type"] == "toolCall"
                                           for block in message["content"]) else "stop"))
        return recorded_lines(numbered, server, pieces=lambda text: _pieces(text, piece),
                              finish=ending)
    lines = []
    index = 0
    for block in message["content"]:
        if block["type"] == "text":
            lines += [_data(_choice({"content": fragment}))
                      for fragment in _pieces(block["text"], piece)]
            continue
        fragments = _pieces(json.dumps(block["arguments"]), piece)
        call_id = block.get("id") or f"c{index + 1}"
        for number, fragment in enumerate(fragments):
            if number == 0:
                part = {"index": index, "id": call_id, "type": "function",
                        "function": {"name": block["name"], "arguments": fragment}}
            else:
                part = {"index": index, "function": {"arguments": fragment}}
            lines.append(_data(_choice({"tool_calls": [part]})))
        index += 1
    if message["stop_reason"] == "error":
        lines.append(_data({"error": {"message": message.get("error_message", "")}}))
    else:
        lines.append(_data(_choice({}, finish or ("tool_calls" if index else "stop"))))
    lines.append("data: [DONE]")
    return lines


def _stream_problem(items):
    for number, item in enumerate(items):
        if item is HANG:
            if number != len(items) - 1:
                return "lab.HANG means no more lines, ever, so nothing may follow it"
        elif not isinstance(item, (str, _Pause)):
            return f"item {number} is {item!r}, not a line (a str), lab.pause(n) or lab.HANG"
    return None


class Response(contracts.Response):
    """One streamed response, read a line at a time. It must be made in running async code,
    because its lines arrive with the loop's turns: each line is ready one turn after the one
    before (the first, one turn after opening), pause(n) adds n turns, and HANG means no more
    lines and no end, ever.

    ready() is True when a line, or the end of the stream, can be had now. read_line() returns
    the next line, or None at the end, and raises RuntimeError when nothing is ready: a reader
    that polls must look before it takes. close() is idempotent; .closed and .lines_read say how
    far it got. `async for line in response` is the deaf way to read: it waits for each line and
    looks at nothing else meanwhile.
    """

    def __init__(self, lines):
        if isinstance(lines, (str, bytes)) or not isinstance(lines, (list, tuple)):
            raise TypeError(f"Response(lines) takes a list of lines; got {lines!r}")
        problem = _stream_problem(lines)
        if problem:
            raise ValueError(f"Response(lines): {problem}")
        self._clock = turn_clock("a streamed Response")
        self._opened = self._clock.now
        self._lines, self._ready_at, turn = [], [], 0
        self._end_at = None
        for item in lines:
            if item is HANG:
                break
            if isinstance(item, _Pause):
                turn += item.turns
            else:
                turn += 1
                self._lines.append(item)
                self._ready_at.append(turn)
        else:
            self._end_at = turn
        self.closed = False
        self.lines_read = 0
        last = self._end_at if self._end_at is not None else (turn if self._lines else 0)
        # an alarm at the last turn that matters keeps the clock counting until then
        self._alarm = self._clock.at(self._opened + last, lambda: None) if last else None
        self._waiter = None

    def __repr__(self):
        state = "closed" if self.closed else "open"
        return f"<Response {state}, {self.lines_read} of {len(self._lines)} lines read>"

    def _turns(self):
        return self._clock.now - self._opened

    def _next_at(self):
        """The turn (since opening) at which the next line or the end is ready; None: never."""
        if self.lines_read < len(self._lines):
            return self._ready_at[self.lines_read]
        return self._end_at

    def ready(self):
        """True when read_line() has something to give now: a line, or the end."""
        if self.closed:
            return False
        at = self._next_at()
        return at is not None and self._turns() >= at

    def read_line(self):
        """The next line, or None once the stream has ended."""
        if self.closed:
            raise RuntimeError("the response is closed")
        if not self.ready():
            raise RuntimeError("no line is ready yet: look with ready() first, and give the "
                               "loop a turn while it is False")
        if self.lines_read == len(self._lines):
            return None
        self.lines_read += 1
        return self._lines[self.lines_read - 1]

    def close(self):
        """Stop reading and let the connection go. Safe to call any number of times."""
        if self.closed:
            return
        self.closed = True
        if self._alarm is not None:
            self._alarm.cancel()
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def __aiter__(self):
        return self

    async def __anext__(self):
        while not self.ready():
            if self.closed:
                raise StopAsyncIteration
            self._waiter = asyncio.get_running_loop().create_future()
            at = self._next_at()
            alarm = None
            if at is not None:  # after HANG only close() wakes the waiter: no cost meanwhile
                waiter = self._waiter
                alarm = self._clock.at(
                    self._opened + at,
                    lambda: waiter.done() or waiter.set_result(None))
            try:
                await self._waiter
            finally:
                if alarm is not None:
                    alarm.cancel()
        line = self.read_line()
        if line is None:
            raise StopAsyncIteration
        return line


class FakeProvider(contracts.Provider):
    """A provider on the wire: request n is answered with stream entry n.

    An entry is an assistant message (lab.reply, say or fail), streamed with stream_lines and
    with call ids numbered per provider as ScriptedModel numbers them; a raw list of lines, with
    lab.pause(n) and lab.HANG where wanted (lines after `data: [DONE]`, then HANG, make a server
    that holds its connection open after the reply); or lab.refuse(text), for which open() raises
    ConnectionError(text), or, with status=..., Refused, whose text is the sentence turned_away
    makes of it. With real=NAME (or True, "openai") a reply entry is streamed as that recorded
    server sends it (stream_lines(real=NAME)).

    .url is where a real provider would be; .requests holds deep copies of every body sent,
    .responses every Response opened, and open_responses() those not closed yet, so a test can
    see that a reader let go of its connection on every way out.
    """

    def __init__(self, streams, *, real=False):
        if isinstance(streams, (dict, str)) or not isinstance(streams, (list, tuple)):
            raise TypeError("FakeProvider(streams) takes a list of entries, one per request, "
                            f"e.g. FakeProvider([lab.say('Hi.')]); got {streams!r}")
        for number, entry in enumerate(streams, 1):
            if isinstance(entry, _Refusal):
                continue
            if isinstance(entry, (list, tuple)):
                problem = _stream_problem(entry)
            else:
                problem = assistant_problem(entry)
            if problem:
                raise TypeError(f"FakeProvider: entry {number} is {entry!r}, and {problem}. An "
                                "entry is a reply (lab.say, lab.reply, lab.fail), a list of "
                                "lines, or lab.refuse(text)")
        if real is not False:
            server_named(real)  # a name nobody recorded is refused now, not at the first open
        self._streams = list(streams)
        self.url, self.real = URL, real
        self._delivered = 0
        self.requests = []
        self.responses = []

    def open(self, body):
        """Send `body` and return the Response whose lines will arrive, or raise
        ConnectionError for a refused entry."""
        self.requests.append(snapshot(body))
        number = len(self.requests)
        if number > len(self._streams):
            asked = f"Its body: {json.dumps(body, ensure_ascii=False)[:2000]}"
            raise ScriptExhausted(f"FakeProvider: request {number} has no scripted stream "
                                  f"(the script has {len(self._streams)}). {asked}",
                                  fake="provider", number=number,
                                  scripted=len(self._streams), asked=asked)
        entry = self._streams[number - 1]
        if isinstance(entry, _Refusal) and entry.status is None:
            raise ConnectionError(entry.text)
        if isinstance(entry, _Refusal):
            raise Refused(self.url, entry.status, entry.text, retry_after=entry.retry_after)
        if isinstance(entry, dict):
            entry = snapshot(entry)
            self._delivered = number_calls(entry, self._delivered)
            entry = stream_lines(entry, real=self.real)
        response = Response(list(entry))
        self.responses.append(response)
        return response

    def open_responses(self):
        """The responses opened and not yet closed."""
        return [response for response in self.responses if not response.closed]


class BlockingClient:
    """A client whose post(body) blocks the thread it runs on until release() is called, then
    returns the reply: what a synchronous SDK does, for showing that cancelling the task that
    waits for a worker thread does not stop the thread. .started and .finished count posts;
    after a hard stop, .finished still goes up once released.

    Release it before the test ends: an unreleased post keeps its thread, and whoever joins
    that thread, waiting for ever. It waits on a threading.Event, never on the clock.
    """

    def __init__(self, reply=None):
        problem = None if reply is None else assistant_problem(reply)
        if problem:
            raise TypeError(f"BlockingClient(reply): {reply!r} is not a reply: {problem}")
        self.reply = say("Done.") if reply is None else reply
        self.requests = []
        self.started = 0
        self.finished = 0
        self._released = threading.Event()
        self._lock = threading.Lock()

    def post(self, body):
        """Send `body`, block until release(), and return a copy of the reply."""
        with self._lock:
            self.started += 1
            self.requests.append(snapshot(body))
        self._released.wait()
        with self._lock:
            self.finished += 1
        return snapshot(self.reply)

    def release(self):
        """Let every blocked post return, and every later one return at once."""
        self._released.set()
