"""The scripted model: a stand-in for a provider that answers from a list, records every
request it is sent, and hears a Stop while a request is on its way."""


from typing import Callable

from .errors import ScriptExhausted
from .replies import Forever, assistant_problem, number_calls
from .snapshot import Kept, snapshot
from .transcript import shape, show
from .clock import turn

ABORTED_REPLY = {"role": "assistant", "content": [], "stop_reason": "aborted",
                 "error_message": "Operation aborted"}

# Called with each Request as a ScriptedModel records it, or None. The desk sets it while a
# notebook cell runs a student's own file (lab/desk/guard.py), to count the cell's model calls
# and stop a run that never ends by raising from here, inside the run's own call to the model.
on_request: "Callable[[Request], None] | None" = None


class Request:
    """One request as the model received it: .system (the system prompt), .messages (a deep copy
    of the list that was sent, the view), .tools (a deep copy of the specs) and .signal (the
    object passed, or None). Copies, so that what a test inspects is what was sent then, not
    what the record became later."""

    def __init__(self, system, messages, tools, signal):
        self.system = system
        self._messages = Kept(list(messages))
        self._tools = Kept(list(tools))
        self.signal = signal

    @property
    def messages(self):
        return self._messages.get()

    @property
    def tools(self):
        return self._tools.get()

    def __repr__(self):
        names = [tool.get("name") if isinstance(tool, dict) else tool for tool in self.tools]
        return (f"Request(system={self.system!r:.40}, messages={shape(self.messages)!r}, "
                f"tools={names!r})")


def _is_cancelled(signal):
    return signal is not None and bool(signal.is_cancelled())


def _entry_problem(entry):
    if isinstance(entry, Forever) or callable(entry):
        return None
    return assistant_problem(entry)


class ScriptedModel:
    """A model that answers request n with entry n of `replies`, free and the same every time.

    An entry is an assistant message (lab.reply, lab.say, lab.fail), a function of the Request
    that returns one (it answers one request), or lab.forever(fn) as the last entry (it answers
    every request from there on). Replies are handed out as deep copies, and a call whose id is
    None is numbered c1, c2, ... counting every call this model has delivered, across runs.

    complete() answers at once, for plain harnesses. acomplete() gives up the floor for
    `latency` loop turns first, looking at the signal after each, so a Stop pressed while the
    request is on its way ends it with the aborted reply; a request that is stopped still uses
    up its entry, so request n is always paired with entry n. `.calls` holds every Request.

    hears_stop=False makes a provider that never reads the signal: it still waits its `latency`
    turns, and its scripted reply comes back as usual however the signal is set, as a real
    provider's can when Stop lands after its answer was already on the way.
    """

    def __init__(self, replies, *, latency=1, hears_stop=True):
        if isinstance(replies, (dict, str)) or not isinstance(replies, (list, tuple)):
            raise TypeError("ScriptedModel(replies) takes a list of replies, one per request, "
                            "e.g. ScriptedModel([lab.say('Hi.')]); got "
                            f"{type(replies).__name__}")
        for number, entry in enumerate(replies, 1):
            problem = _entry_problem(entry)
            if problem:
                raise TypeError(f"ScriptedModel: entry {number} of the script is {entry!r}, and "
                                f"{problem}. Build replies with lab.say(...), lab.reply(...) "
                                "or lab.fail(...), or give a function of the request")
            if isinstance(entry, Forever) and number != len(replies):
                raise ValueError(f"ScriptedModel: entry {number} is lab.forever(...), which "
                                 "answers every request from there on, so the entries after "
                                 "it would never be used. Make it the last entry")
        if isinstance(latency, bool) or not isinstance(latency, int) or latency < 0:
            raise ValueError(f"ScriptedModel(latency=...) counts loop turns, a whole number "
                             f"0 or more; got {latency!r}")
        if not isinstance(hears_stop, bool):
            raise ValueError("ScriptedModel(hears_stop=...) is True or False; got "
                             f"{hears_stop!r}")
        self._script = list(replies)
        self._latency = latency
        self._hears_stop = hears_stop
        self._delivered = 0  # call blocks handed out so far: the k of the next "c<k>"
        self.calls = []

    def complete(self, system, messages, tools=()):
        """Answer one request at once (lessons 1-14): record it, return the next reply."""
        request = self._record("complete", system, messages, tools, None)
        return self._answer(request)

    async def acomplete(self, system, messages, tools=(), signal=None):
        """Answer one request after `latency` loop turns (lesson 15 on). A signal that is
        cancelled on the way in, or after any of those turns, gets (unless hears_stop=False)
        the aborted reply
        {"role": "assistant", "content": [], "stop_reason": "aborted",
        "error_message": "Operation aborted"} instead of the scripted one."""
        request = self._record("acomplete", system, messages, tools, signal)
        heard = signal if self._hears_stop else None
        if _is_cancelled(heard):
            return snapshot(ABORTED_REPLY)
        for _ in range(self._latency):
            await turn()
            if _is_cancelled(heard):
                return snapshot(ABORTED_REPLY)
        return self._answer(request)

    def _record(self, method, system, messages, tools, signal):
        where = f"ScriptedModel.{method}(system, messages, tools)"
        if not isinstance(system, str):
            raise TypeError(f"{where}: system is the system prompt, a string; got "
                            f"{type(system).__name__}. It travels beside the messages, "
                            "not inside them")
        if not isinstance(messages, (list, tuple)):
            raise TypeError(f"{where}: messages is the list of messages to send; got "
                            f"{type(messages).__name__}")
        for index, message in enumerate(messages):
            if not isinstance(message, dict):
                raise TypeError(f"{where}: messages[{index}] is {message!r}, not a message "
                                "dict such as {'role': 'user', 'content': '...'}")
        if isinstance(tools, (dict, str)) or not isinstance(tools, (list, tuple)):
            raise TypeError(f"{where}: tools is a list of tool specs (tool_specs(tools)); got "
                            f"{type(tools).__name__}")
        if signal is not None and not callable(getattr(signal, "is_cancelled", None)):
            raise TypeError(f"{where}: signal is None or an object with is_cancelled(), "
                            f"such as a CancelToken; got {type(signal).__name__}")
        request = Request(system, messages, tools, signal)
        self.calls.append(request)
        if on_request is not None:
            on_request(request)
        return request

    def _answer(self, request):
        number = len(self.calls)  # this request's number, from 1; its entry is script[number-1]
        entry = self._entry(number)
        if entry is None:
            asked = _render(request.messages)
            raise ScriptExhausted(
                f"ScriptedModel: request {number} has no scripted reply (the script has "
                f"{len(self._script)}). The request it could not answer:\n{asked}\n"
                "Each request uses up one entry. Script a reply for it, or end the script "
                "with lab.forever(fn) to answer every request from there on",
                fake="model", number=number, scripted=len(self._script), asked=asked)
        if isinstance(entry, Forever) or callable(entry):
            fn = entry.fn if isinstance(entry, Forever) else entry
            message = fn(request)
            problem = assistant_problem(message)
            if problem:
                raise TypeError(f"ScriptedModel: the function answering request {number} "
                                f"returned {message!r}, and {problem}. Return lab.say(...), "
                                "lab.reply(...) or lab.fail(...)")
        else:
            message = entry
        message = snapshot(message)
        self._delivered = number_calls(message, self._delivered)
        return message

    def _entry(self, number):
        if number <= len(self._script):
            return self._script[number - 1]
        if self._script and isinstance(self._script[-1], Forever):
            return self._script[-1]
        return None


def _render(messages):
    try:
        return show(messages)
    except Exception:  # a transcript too broken to show is still worth printing as it is
        return repr(messages)
