# harness.py for lab 16.2, "Read as it comes, stop when told" (lesson 16, guided level: each gap spells out its steps).
# Fill the gaps marked '# --- your code ---', then check the file from its lab folder:
#     python lab/lab_check.py --harness harness.py --lesson 16 tests.py
"""A coding-agent harness in one file: a model, the tools it may call, and the loop between them."""
import asyncio
import json
import weakref
from collections import deque

# == 1 messages ==
# A conversation is a list of messages, and a message is a dict tagged with the role that spoke.


def user_message(text):
    """What the user said. User content is a plain string."""
    return {"role": "user", "content": text}


def text_of(message):
    """The words of an assistant message, joined. Its content is a list of blocks, because one
    reply can mix words and calls; the words are the blocks of type "text"."""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")


def tool_calls(message):
    """The calls an assistant message makes, in order. Derived from content every time it is
    asked, so there is no second copy to fall out of step."""
    return [block for block in message["content"] if block["type"] == "toolCall"]


def error_message(text, stop_reason="error"):
    """An assistant message that ends a run and says why: empty content, the reason in
    error_message, and stop_reason "error" (something gave up) or "aborted" (the user stopped
    it). Runs record their endings; they do not raise them."""
    return {"role": "assistant", "content": [], "stop_reason": stop_reason, "error_message": text}


ABORTED = "Operation aborted"  # what a stopped run says, for each call it skipped and at its end


def render(messages):
    """The transcript as plain text, one line per message, calls written name(arguments). A
    summary is written from this, and estimate_tokens measures it."""
    out = []
    for message in messages:
        said = message["content"]
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
            said = " ".join([text_of(message)] + [
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
        out.append(f"{message['role']}: {said}".replace("\n", " "))
    return "\n".join(out)


# == 2 tools ==
# A tool is a dict. The model is told its "name", "description" and "parameters" (JSON Schema).
# "execute" is async: await execute(arguments, signal=None) -> str. Only this program calls it.
# "snippet" and "guidelines" are optional and only the system prompt reads them: what the tool
# is for, in a line, and advice on when to reach for it, which a schema cannot express.


def str_arg(arguments, name):
    """The string argument `name`. A schema asks the model for a string; nothing makes it send
    one. Raises ValueError("<name> must be a string") when it is missing or another type."""
    got = arguments.get(name)  # None when the model left it out
    if isinstance(got, str):
        return got
    raise ValueError(f"{name} must be a string")


def int_arg(arguments, name, default):
    """The optional whole-number argument `name`, or `default` when it is absent or None. A
    bool is not a whole number here. Raises ValueError("<name> must be an integer")."""
    got = arguments.get(name)
    if got is None:
        return default
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
        return got
    raise ValueError(f"{name} must be an integer")


def tool_specs(tools):
    """What the model may know of each tool: name, description and parameters, in order. The
    function itself never leaves this program."""
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]


async def run_tool(tools, call, signal=None):
    """Answer one call with exactly one toolResult, whatever happens. Tools report failure by
    raising; this is the one place a raise becomes a result (is_error True), so it never raises
    Exception. When `signal` is cancelled the tool is not run and the result is ABORTED; a tool
    that does run is handed the signal. A CancelledError is the task being stopped, not the
    tool failing, and passes through."""
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
    elif tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = await tool["execute"](call["arguments"], signal), False
        except asyncio.CancelledError:
            raise  # the task is being stopped; that is news for its owner, not for the model
        except Exception as exc:
            text, failed = str(exc), True
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}


MAX_LINES = 2000  # the budget of one tool result: every result is sent again on every later
MAX_BYTES = 50_000  # turn. Counted in UTF-8 bytes, so "é" costs two.


def truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The beginning of `text` that fits the budget, as (kept, lines_shown): whole lines with
    their newlines, for files, which are read from the top. A first line that alone is over
    budget gives ("", 0), because half a line misleads."""
    lines = text.splitlines(keepends=True)
    count, used = 0, 0
    while count < min(len(lines), max_lines):
        used += len(lines[count].encode())
        if used > max_bytes:  # this line would not fit: stop before it
            break
        count += 1
    return "".join(lines[:count]), count


def truncate_tail(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The end of `text` that fits the budget, as (kept, lines_shown), in the original order:
    for command output, whose verdict is printed last."""
    lines = text.splitlines(keepends=True)
    count, used = 0, 0
    while count < min(len(lines), max_lines):
        used += len(lines[-1 - count].encode())  # counting up from the last line
        if used > max_bytes:
            break
        count += 1
    return "".join(lines[len(lines) - count:]), count


def make_read_tool(ws, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `read` tool over the workspace `ws`. A read returns at most one budget of lines, and
    when it stops early its last line says where to carry on."""
    async def execute(arguments, signal=None):
        path = str_arg(arguments, "path")
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        if start < 1 or (most is not None and most < 1):
            raise ValueError("offset and limit must be 1 or more")
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
        lines = ws.read_text(path).splitlines(keepends=True)
        total = len(lines)
        if start > max(total, 1):
            raise ValueError(f"offset {start} is past the end of {path}: {total} lines")
        end = total if most is None else min(total, start - 1 + most)  # the last line wanted
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
        if shown == 0 and end >= start and max_lines == 0:  # lines were wanted; none may be
            return f"[No line of {path} is shown: this read's budget is 0 lines.]"
        if shown == 0 and end >= start:  # lines were wanted, and the first alone is too big
            size = len(lines[start - 1].encode())
            hint = f" Use offset={start + 1} to skip it." if start < total else ""
            return (f"[Line {start} of {path} is {size} bytes, over the {max_bytes}-byte "
                    f"budget of one read, so none of it is shown.{hint}]")
        last = start + shown - 1
        if last < total:
            chunk += f"[Showing lines {start}-{last} of {total}. Use offset={last + 1} to continue.]"
        return chunk

    return {
        "name": "read",
        "description": f"Return the text of a file. A single read stops after {max_lines} lines "
                       f"or {max_bytes} bytes; ask again with offset for the rest.",
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file, relative to the project."},
                "offset": {"type": "integer", "description": "Line to start at; the first is 1."},
                "limit": {"type": "integer", "description": "Most lines to return."},
            },
            "required": ["path"],
        },
        "execute": execute,
        "snippet": "Read a file's contents",
        "guidelines": ["Read files with read, not with cat or sed.",
                       "Name the files you touch by their paths."],
    }


def make_write_tool(ws):
    """The `write` tool: makes a file in `ws`, or overwrites one that is there, whole."""
    async def execute(arguments, signal=None):
        path, content = str_arg(arguments, "path"), str_arg(arguments, "content")
        ws.write_text(path, content)
        return f"Successfully wrote to {path}."

    return {
        "name": "write",
        "description": "Create a text file, or replace everything in one that exists.",
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file, relative to the project."},
                "content": {"type": "string", "description": "Everything the file will hold."},
            },
            "required": ["path", "content"],
        },
        "execute": execute,
        "snippet": "Create or replace a file",
        "guidelines": ["Use write for new files and for rewriting a whole file.",
                       "Name the files you touch by their paths."],
    }


def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `bash` tool: run one command line in `shell` and return what it printed. A command
    that exits non-zero still ran, so its code is information for the model, not a tool
    failure: the result is ordinary and ends with a status line."""
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        try:
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
        finally:
            process.kill()  # on every way out, a hard cancel's too; harmless once it is done
        output, code = process.output()
        printed = len(output.splitlines())  # lines the command printed, before the cut
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
        if kept_lines < printed:
            if output and not output.endswith("\n"):  # a last line printed without its newline
                output += "\n"
            output += (f"\n[Showing the last {kept_lines} of {printed} lines. "
                       "Narrow the command for more.]")
        if code != 0:
            output += f"\nCommand exited with code {code}"
        return output

    return {
        "name": "bash",
        "description": "Run one shell command line; stdout and stderr come back together, cut "
                       f"to the last {max_lines} lines or {max_bytes} bytes.",
        "parameters": {
            "type": "object",
            "properties": {"command": {"type": "string", "description": "What to run."}},
            "required": ["command"],
        },
        "execute": execute,
        "snippet": "Run a shell command",
        "guidelines": ["Before running a command, say what it is for."],
    }


def guard(tool, check):
    """`tool` behind a door: the same dict, so neither the model nor the loop can tell, except
    that execute first asks check(name, arguments) for None (go ahead) or a reason to refuse.
    A refusal is raised as PermissionError, and run_tool turns it into the call's result. A
    check that raises has not said yes, so the call is refused: the door fails closed."""
    async def execute(arguments, signal=None):
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
            reason = f"the check failed: {exc}"
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
        return await tool["execute"](arguments, signal)  # outside the try: not the door's business

    return {**tool, "execute": execute}


def deny_destructive(name, arguments):
    """A check for guard that refuses bash commands containing "rm -rf". It slows a careless
    model down and stops nothing determined: `rm -fr` walks past it."""
    if name == "bash" and not isinstance(arguments.get("command"), str):
        return None  # not text, so it holds no rm -rf: the bash tool says what is wrong
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
        return "rm -rf cannot be undone; if the user wants it, they can run it themselves."
    return None


def confirm_with(human):
    """A check for guard that asks a person. Only an answer of True lets the call through;
    "yes", 1 or anything else is a no, because a door fails closed."""
    def check(name, arguments):
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
            return None
        return "the user said no"
    return check


# == 3 loop ==
# The code that talks to the model. The model remembers nothing, so every request carries
# everything.


async def run_agent(model, system, messages, tools, prompt, *, max_turns=None,
                    get_steering=None, get_follow_ups=None, signal=None):
    """Give `prompt` to the model and carry on until a reply asks for no tools, a reply comes
    back failed, `max_turns` model calls have been made, or `signal` (a CancelToken or None) is
    cancelled, which ends the run with an "aborted" message. An async generator of events.

    Events are dicts with a "type" that report what happened and draw nothing. They are
    balanced on every way out (agent_start ... agent_end, turn_start ... turn_end). Mutate, then
    announce: a message is appended to `messages`, the caller's list and the record, before
    its message_end is yielded, and nothing is yielded between a tool returning and its result
    being recorded. The final message is the last of agent_end's "messages".

    The user may speak mid-run. `get_steering` and `get_follow_ups` take no arguments and
    return a list of user messages, usually empty; the loop asks for steering once a turn's
    calls all have results, and for follow-ups only when the run would otherwise end. User
    messages enter only at the top of a turn. The loop never touches a queue."""
    added = []  # what this run puts on the record, for agent_end to carry

    def record(message):
        """Put `message` on the record first; only then build its message_end to yield."""
        messages.append(message)
        added.append(message)
        return {"type": "message_end", "message": message}

    def ask(get):
        return list(get()) if get else []

    yield {"type": "agent_start"}
    turn, todo, failed = 0, [], False
    pending = [user_message(prompt)] + ask(get_steering)  # steering sent while idle joins in
    while pending:  # once for the prompt, then once per follow-up
        while todo or pending:  # one lap is one turn
            turn += 1
            yield {"type": "turn_start"}
            for message in pending:
                yield record(message)
            pending = []
            if max_turns is not None and turn > max_turns:
                reply = error_message(f"Agent stopped after max_turns={max_turns}")
            elif signal is not None and signal.is_cancelled():
                reply = error_message(ABORTED, stop_reason="aborted")  # and no paid request
            else:
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools), signal)
            yield record(reply)
            failed = reply["stop_reason"] in ("error", "aborted")
            todo = [] if failed else tool_calls(reply)  # the calls this turn owes a result
            for call in todo:
                yield {"type": "tool_execution_start", "call": call}
                result = await run_tool(tools, call, signal)
                yield record(result)  # straight after the tool returned: nothing in between
                yield {"type": "tool_execution_end", "call": call, "result": result}
            yield {"type": "turn_end", "message": reply}
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances


def context_for_model(messages):
    """The view: what the model is sent, built fresh for every request from the record, which
    it never changes. Empty assistant messages that failed or were stopped are left out (one
    that got words or a call out stays), then every call is paired with its result."""
    endings = ("error", "aborted")  # empty endings a provider would refuse
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
    return repair_tool_history(kept)


INTERRUPTED = ("Tool call interrupted: no result was recorded. It may not have run, or may have "
               "run partly; check before repeating it.")


def repair_tool_history(messages):
    """A new list of the same message objects in which every call is followed at once by
    exactly one result, in call order: a recorded result is moved into place, the first of
    two wins, a result with no call is dropped (its arguments are unknown, so no call can be
    made up), and a call with no result gets INTERRUPTED, is_error True. Pure, idempotent,
    and equal to its input when that is already valid. Call ids are taken to be unique."""
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
    view = []
    for message in messages:
        if message["role"] == "toolResult":
            continue  # results come back in below, each straight after its own call
        view.append(message)
        for call in tool_calls(message) if message["role"] == "assistant" else ():
            view.append(answer.get(call["id"]) or {
                "role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                "content": INTERRUPTED, "is_error": True})
    return view


# == 4 harness ==
# One transcript, one writer. The loop holds the mechanics and no state; the Harness holds the list.


class CancelToken:
    """One run's Stop flag. cancel() sets it and nothing more: a run stops only where slow code
    looks at it (the loop at each turn's top, run_tool before each call, the model, a tool that
    polls). Any object with is_cancelled() can serve as a signal."""
    def __init__(self):
        self._cancelled = False

    def cancel(self):
        self._cancelled = True

    def is_cancelled(self):
        return self._cancelled


class Harness:
    """The one owner of a transcript, and of what stays the same between runs (model, system
    prompt, tools, max_turns). One run at a time writes to the transcript.

    Harness(model, system, tools, messages=(), max_turns=None) copies `messages` into a list of
    its own; the dicts in it are shared, not copied.
      .messages        a tuple: a snapshot nobody outside can append to or pop from.
      .is_running      True from prompt() until that run is exhausted, closed or dies, or
                       until nobody holds it any more.
      .prompt(text)    the run: run_agent's events over the harness's own list. It refuses a
                       second run at once, on the caller's line, with RuntimeError("already
                       running; use steer() or follow_up()"), so it is a plain def.
      .steer(text), .follow_up(text)
                       queue a user message, at any time: steering for the next gap between
                       turns, a follow-up for when the run would otherwise end. The loop is
                       handed one per ask, and a message leaves its queue only once it is on
                       the record, so stopping a run never loses one. Queues outlive runs.
      .subscribe(listener)
                       listener(event) hears every event of every run, after the record has
                       changed and before the consumer does. Returns the function that undoes
                       it. A listener that raises ends the run: a saver that cannot save must
                       not be quiet about it.
      .replace_messages(messages)
                       a whole new transcript, for whoever rebuilt it from the log. Refused
                       during a run.
      .cancel()        Stop: cancels the current run's token from the moment prompt() returns.
                       Each run gets a fresh token, so a late Stop, when idle, does nothing.
    """

    def __init__(self, model, system, tools, messages=(), max_turns=None):
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
        self._run_now = None  # a weak reference to the run prompt() handed out last
        self._steering_queue, self._follow_up_queue = deque(), deque()
        self._listeners = []
        self._signal = CancelToken()  # so that cancel() always has something to set

    @property
    def messages(self):
        return tuple(self._messages)

    @property
    def is_running(self):
        run = self._run_now and self._run_now()  # None once nobody holds the run
        return run is not None and run.ag_frame is not None  # a finished run has no frame

    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        self._signal, run = CancelToken(), self._run(text)  # one line: one beginning
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run

    def steer(self, text):
        """Queue `text` for the next gap between turns."""
        self._steering_queue.append(user_message(text))

    def follow_up(self, text):
        """Queue `text` for when the run would otherwise be over."""
        self._follow_up_queue.append(user_message(text))

    def subscribe(self, listener):
        """Have listener(event) hear every event of every run; returns the undo."""
        def hear(event):  # this subscription's own entry: no other is equal to it, so its
            listener(event)  # undo cannot take off an equal listener's subscribed earlier

        self._listeners.append(hear)

        def unsubscribe():
            if hear in self._listeners:  # once only: a second call takes off nothing
                self._listeners.remove(hear)
        return unsubscribe

    def replace_messages(self, messages):
        if self.is_running:
            raise RuntimeError("cannot replace messages during a run")
        self._messages = list(messages)

    def cancel(self):
        self._signal.cancel()  # when idle, the token of a run that is over: no effect

    def _notify(self, event):
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)

    def _drain(self, queue):
        """What the loop is handed when it asks: the oldest queued message, or nothing. It
        stays queued until it is on the record."""
        return [queue[0]] if queue else []

    def _delivered(self, message):
        """_run calls this with every message its run has put on the record, the moment its
        message_end goes by: the prompt, replies and results as well as queued words."""
        for queue in (self._steering_queue, self._follow_up_queue):
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()

    async def _run(self, text):
        """The run prompt() hands out: run_agent over the harness's own list, each event
        passed to the listeners, then on to the consumer."""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns,
                        get_steering=lambda: self._drain(self._steering_queue),
                        get_follow_ups=lambda: self._drain(self._follow_up_queue),
                        signal=self._signal)
        try:
            async for event in inner:
                if event["type"] == "message_end":
                    self._delivered(event["message"])
                self._notify(event)  # listeners first: a consumer that stops listening to
                yield event  # the run cannot stop them hearing what happened
        finally:  # exhausted, closed by the consumer, or dying
            await inner.aclose()


# == 5 frontends ==
# A frontend folds over one run's events: render(event) for each, then finish(), which says
# whether the run ended well. The loop never learns what its events look like on screen.


class JsonRenderer:
    """Every event as a line of JSON on standard output, for a program at the other end."""

    def __init__(self):
        self.failed = False

    def render(self, event):
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended in ("error", "aborted"):
            self.failed = True

    def finish(self):
        return not self.failed


class FinalTextRenderer:
    """The answer alone, printed once at the end, for `> answer.txt`. finish() prints the last
    assistant message's text and returns True; when that message failed
    (or the user stopped its run), it prints "Error: <its error_message>" and returns False."""

    def __init__(self):
        self.last = None  # the newest assistant message so far

    def render(self, event):
        message = event.get("message")
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message

    def finish(self):
        reply = self.last
        if reply is None:
            return False
        if reply["stop_reason"] in ("error", "aborted"):
            print(f"Error: {reply.get('error_message')}")
            return False
        print(text_of(reply))
        return True


async def stop_run(harness, task, grace=5):
    """Stop the run that `task` consumes: ask, wait a little, then insist. harness.cancel()
    sets the flag, and code that looks at it has `grace` turns of the event loop to wind up
    ("clean"). Otherwise the task is cancelled, which raises CancelledError inside whatever it
    awaits, and is waited for ("hard"). Either way the task is over on return. Only the task's
    own CancelledError is swallowed: if stop_run is itself being cancelled, that goes on up."""
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
    for _ in range(grace):
        if task.done():
            break
        await asyncio.sleep(0)  # a turn for the run to notice
    if task.done():
        return "clean"
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"


# == 6 environment ==
# What a session needs around the harness, beginning with a disk. Regions 3 and 4 know none of it.


class SessionLog:
    """A session kept as the file `path` in the workspace `ws`: JSON Lines, appended and never
    edited, one entry per line, {"id": "e1", "type": "message", "message": {...}}. The log is
    the truth and the transcript is derived from it by replay(), so resuming a session is
    Harness(..., messages=log.replay()). It keeps no state but `ws` and `path`."""

    def __init__(self, ws, path):
        self.ws, self.path = ws, path

    def entries(self):
        """Every entry, oldest first; [] while there is no file, or an empty one. A line that
        is not JSON, the half a crash left of a write, raises ValueError naming its line.
        Skipping it would only hide it: the next append would land on the end of that
        half-line, and the log would lose two entries instead of one."""
        if not self.ws.exists(self.path):
            return []
        found = []
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            try:
                found.append(json.loads(raw))
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
        if found and not self.ws.read_text(self.path).endswith("\n"):  # its newline never came:
            raise ValueError(f"{self.path}, line {len(found)}: not a complete log entry")  # torn
        return found

    def _append(self, entry):
        """Append `entry` as one line, with the id "e" + its line number, and return the id.
        The number comes from reading the file again, so two logs on one file agree."""
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
        return entry["id"]

    def append_message(self, message):
        """Append one message; returns its entry id."""
        return self._append({"type": "message", "message": message})

    def append_compaction(self, summary, first_kept_id):
        """Append a compaction entry and return its id: from here on, the rows before
        `first_kept_id` read as `summary`. Nothing is deleted."""
        return self._append({"type": "compaction", "summary": summary,
                             "first_kept_id": first_kept_id})

    def rows(self):
        """The transcript as (entry id, message) pairs, oldest first. Entries are replayed
        in order; a compaction entry rewrites everything before its first_kept_id as a single
        pair, its own id with the summary as a user message, and keeps the pairs from there."""
        table = []
        for entry in self.entries():
            if entry["type"] == "compaction":
                start = next((i for i, (key, _) in enumerate(table)
                              if key == entry["first_kept_id"]), len(table))
                summary = user_message("Previous conversation summary:\n" + entry["summary"])
                table = [(entry["id"], summary), *table[start:]]
            elif entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        return table

    def replay(self):
        """The transcript, worked out from what happened rather than saved as a state."""
        return [message for _, message in self.rows()]


def persist_to(log):
    """A listener for Harness.subscribe that appends each message to `log` as it completes:
    saving is this listener's job alone, whoever consumes the run."""
    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
    return listener


def estimate_tokens(messages):
    """Roughly how many tokens `messages` cost: four characters of render() to a token. No
    tokenizer, the same answer every time, and on the low side, so leave a margin."""
    return len(render(messages)) // 4


SUMMARY_SYSTEM = ("You write summaries of a conversation between a user and a coding agent. Do "
                  "not continue it and do not answer anything asked in it. Answer with the "
                  "summary and nothing else: what the user wants, what has been done so far, "
                  "what remains to do, and every file path and error message exactly as written.")


async def summarize(model, messages):
    """A summary of `messages` from one model call that belongs to no transcript: its own
    system prompt, the rendered conversation in <conversation> tags as the only message, and
    no tools, so summarising is all it can do. RuntimeError when the reply failed or was empty."""
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
    reply = await model.acomplete(SUMMARY_SYSTEM, [wrapped], [])
    text = text_of(reply).strip()
    if not text or reply["stop_reason"] in ("error", "aborted"):
        reason = reply.get("error_message") or "the reply was empty"  # none, None or ""
        raise RuntimeError(f"no summary: {reason}")
    return text


def find_cut(rows, keep_recent_tokens):
    """Where to cut `rows` (SessionLog.rows()) for a compaction: the index of the first row to
    keep; the rows before it get summarised, and it is 0 when the total of every row stays under
    keep_recent_tokens. The cut lands on a user message, a turn's beginning, or failing that at
    least not on a toolResult: a result whose call was summarised away would be in neither half,
    since the view drops it."""
    left, start = keep_recent_tokens, len(rows)
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
        start -= 1
        left -= estimate_tokens([rows[start][1]])
    if left > 0:
        return 0  # everything fits
    roles = [message["role"] for _, message in rows]
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
    while start < len(roles) and roles[start] == "toolResult":
        start += 1  # no turn begins after it: at least step past the results
    return start


async def compact(log, model, *, keep_recent_tokens):
    """Summarise the old part of the session in `log` and append one compaction entry, so that
    replay() gives [summary] + [the kept tail]. The log only grows. False, with nothing
    appended, when there is nothing to summarise, nothing would be kept, or the summary
    failed: tidying up is never worth a user's lost turn."""
    rows = log.rows()
    cut = find_cut(rows, keep_recent_tokens)
    if not 0 < cut < len(rows):
        return False  # nothing before the cut to summarise, or nothing after it to keep
    older = [message for _, message in rows[:cut]]
    try:
        summary = await summarize(model, older)
    except RuntimeError:
        return False
    log.append_compaction(summary, rows[cut][0])
    return True


async def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):
    """Compact when the transcript has come within `reserve` tokens of the context `window`,
    then hand the harness what the log now replays. For the code around the harness to call
    between runs, never during one. True if it compacted."""
    if harness.is_running:
        raise RuntimeError("cannot compact during a run")
    if estimate_tokens(harness.messages) + reserve <= window:
        return False  # there is still room
    compacted = await compact(log, model, keep_recent_tokens=keep_recent_tokens)
    if compacted:
        harness.replace_messages(log.replay())  # the one door in, shut during a run
    return compacted


def discover_context(ws, cwd):
    """The project's standing instructions: each AGENTS.md from the workspace root down to the
    folder `cwd` (a plain relative path such as "services/api"), as [(path, text)], broadest
    first, so the file nearest the work is read last and has the last word. Whoever wrote
    these files is writing part of your system prompt."""
    steps = [step for step in cwd.split("/") if step not in ("", ".")]
    found = []
    for depth in range(len(steps) + 1):  # the root first, then one folder deeper each time
        name = "".join(step + "/" for step in steps[:depth]) + "AGENTS.md"
        if ws.exists(name):
            found.append((name, ws.read_text(name)))
    return found


def build_system_prompt(tools, context_files, skills, cwd, today):
    """The system prompt, made from what is really there: a line per enabled tool that has a
    snippet, each guideline once (first seen first), the `context_files` [(path, text)] in
    the order given, an index of `skills` [{"name", "description", "path"}] when a tool named
    read can load them, and last the date and folder. It reads no clock and no disk, so equal
    arguments give equal bytes, which tests and prompt caches depend on."""
    advice = []
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
                advice.append(line)
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]
    parts = ["You are a coding assistant working in the user's project."]
    if snippets:
        parts.append("\n".join(["Available tools:", *snippets]))
    if advice:
        parts.append("\n".join(["Guidelines:", *(f"- {line}" for line in advice)]))
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file
        parts.append("\n".join(
            ["Skills are instruction files for particular kinds of task. Before starting a "
             "task that fits a description, read its file."] +
            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
    return "\n\n".join(parts)


# == 7 provider ==
# A real model sits at the far end of a wire. A request goes out in the provider's own JSON, and
# the reply comes back as lines of a stream, a few characters at a time: even a tool call's
# arguments arrive as fragments of one JSON string. This region translates, both ways.


STREAM_DONE = "[DONE]"


def decode_line(line):
    """One line of a streamed reply, read: the chunk (a dict) for a `data:` line, STREAM_DONE
    for `data: [DONE]`, {"error": what it says} for an `error:` line (llama.cpp's way to say a
    reply failed), and None for a line that carries nothing: a blank line, a `:` comment (a
    keep-alive) or any other field. A data payload that is not a JSON object raises
    ValueError(f"not a stream line: {line!r}"): the provider is broken, and a guess would
    only hide it."""
    if line.startswith("error:"):  # a failure, said as its own field: its reason is news
        said = line[len("error:"):].strip()
        try:
            parsed = json.loads(said)
        except ValueError:
            parsed = None
        return {"error": said if parsed is None else parsed}  # `null` too says it failed
    if not line.startswith("data:"):
        return None  # blank, a keep-alive, or a field this reader has no use for
    payload = line[len("data:"):].strip()
    if payload == STREAM_DONE:
        return STREAM_DONE
    try:
        chunk = json.loads(payload)
    except ValueError:
        chunk = None
    if not isinstance(chunk, dict):
        raise ValueError(f"not a stream line: {line!r}")
    return chunk


def assemble(chunks, *, aborted=False):
    """The assistant message that the decoded `chunks` of one reply add up to.

    Text deltas are joined into one text block, first, if there are any words. Tool-call
    fragments are grouped by their `index` (none, or null, means 0), except that a fragment whose id
    differs from the id already at its index starts a new call there: Ollama puts every call
    of a reply at index 0, or sends no index. A call's id and name come from the fragment that
    carries them (on the real wire the first), or are None when none does, and its arguments
    are the joined fragments, parsed once, at the end ("" means {}), or an object a server
    sent already parsed. Calls follow the text in
    index order, and calls at one index in the order they began. The content decides the
    label: "toolUse" when there are calls, "stop" otherwise, whatever finish_reason said.

    A reply that did not arrive whole fails: aborted=True (the user stopped it) gives
    "aborted" and ABORTED; an error chunk (its "message", or what it says when it has none), a
    stream with no finish_reason, a finish_reason of "length" or "content_filter", arguments
    that are not a JSON object, or nothing at all give "error" with a sentence saying which.
    Chunks a real server adds (a delta holding only the role, "content": null beside calls, a
    usage chunk with no choices) add nothing, and so does a key whose value is null, "error"
    too. The chunks are read, never changed. A failed reply keeps its words and drops every
    call: a call the stream never finished has no arguments to write down, and none of them
    was acted on."""
    words, calls, finish, failure = [], [], None, None
    latest = {}  # index -> the call most recently begun there
    for chunk in chunks:
        if chunk.get("error") is not None:  # the key, whatever it holds; but null is left out
            error = chunk["error"]
            said = error.get("message") if isinstance(error, dict) else None
            failure = failure or str(error if said is None else said)
        for choice in chunk.get("choices") or ():
            delta = choice.get("delta") or {}
            words.append(delta.get("content") or "")  # a delta may hold only a role, or None
            for piece in delta.get("tool_calls") or ():
                index, call_id = piece.get("index") or 0, piece.get("id")
                call = latest.get(index)
                if call is None or (call_id and call["id"] and call_id != call["id"]):
                    call = {"index": index, "id": None, "name": None, "parts": []}  # a new id
                    latest[index] = call
                    calls.append(call)
                function = piece.get("function") or {}
                call["id"] = call_id or call["id"]  # only the first fragment has it
                call["name"] = function.get("name") or call["name"]
                said = function.get("arguments")  # a scrap of text, or a value sent parsed
                call["parts"].append("" if said is None else said)
            finish = choice.get("finish_reason") or finish
    text = "".join(words)
    content = [{"type": "text", "text": text}] if text else []
    blocks, broken = [], None
    for call in sorted(calls, key=lambda call: call["index"]):  # stable: in order at one index
        objects = [part for part in call["parts"] if not isinstance(part, str)]
        joined = "".join(part for part in call["parts"] if isinstance(part, str))
        if objects and not joined and len(objects) == 1:
            arguments = objects[0]  # sent already parsed: whole, and judged below like any
        elif objects:
            arguments = None  # an object and scraps beside it: no one JSON text
        else:
            try:
                arguments = json.loads(joined) if joined else {}
                json.dumps(arguments, allow_nan=False)  # NaN, Infinity: Python's, not JSON's
            except ValueError:
                arguments = None
        if not isinstance(arguments, dict):
            broken = broken or (f"Tool call {call['id']} ({call['name']}) arrived with "
                                "arguments that are not a JSON object")
        blocks.append({"type": "toolCall", "id": call["id"], "name": call["name"],
                       "arguments": arguments})
    if aborted:
        why = ABORTED
    elif failure is not None:
        why = failure
    elif finish is None:
        why = "The stream ended before the reply was finished"
    elif finish == "length":
        why = "The reply was cut off at the output limit"
    elif finish == "content_filter":
        why = "The provider's content filter stopped the reply"
    elif broken is not None:
        why = broken
    elif not content and not blocks:
        why = "The provider sent an empty reply"
    else:
        return {"role": "assistant", "content": content + blocks,
                "stop_reason": "toolUse" if blocks else "stop"}
    failed = error_message(why, stop_reason="aborted" if aborted else "error")
    return {**failed, "content": content}  # the words stay; no call does


def to_wire(system, messages, tools):
    """The body of a Chat Completions request, {"messages": [...], "tools": [...], "stream":
    True}, all but "model", which the client adds as it adds the Authorization header: both
    belong to the connection, not to the conversation. The system prompt is the first message; a toolResult
    becomes a "tool" message; an assistant's calls travel as "tool_calls" whose arguments are
    a JSON string. The wire has no field for is_error, so a result's own words must say that it
    failed, as ours do. `tools` may be the tools or their specs: only the specs go out."""
    wire = [{"role": "system", "content": system}]
    for message in messages:
        if message["role"] == "user":
            wire.append({"role": "user", "content": message["content"]})
        elif message["role"] == "assistant":
            said = {"role": "assistant", "content": text_of(message) or None}
            calls = tool_calls(message)
            if calls:
                said["tool_calls"] = [
                    {"id": call["id"], "type": "function",
                     "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}
                    for call in calls]
            wire.append(said)
        else:
            wire.append({"role": "tool", "tool_call_id": message["tool_call_id"],
                         "content": message["content"]})
    return {"messages": wire,
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
            "stream": True}


# given in lesson 16: the class line, its docstring and __init__; acomplete is yours
class StreamingModel:
    """A model at the far end of a wire, for Harness(model, ...) like any other model.
    `client.open(body)` sends one request and hands back its response at once; the response is
    read a line at a time: ready() says whether a line, or the end, can be had now;
    read_line() takes it (None at the end); close() lets the connection go.

    acomplete never raises for the provider's trouble. A refused connection, a broken line or
    an error in the stream comes back as a reply labelled "error", and a Stop as one labelled
    "aborted", so the loop records it like any other ending (lesson 5). A 429 says which of
    two troubles it is: a rate limit, which a wait cures, or spent quota, which it does not.
    A connection that drops ends the stream (read_line gives None), so what ready() or
    read_line() raise is a fault in the reading, not the provider's trouble, and goes up."""

    def __init__(self, client):
        self.client = client

    async def acomplete(self, system, messages, tools=(), signal=None):
        """One request, read as it arrives. A set `signal` is looked at before anything is
        sent and on every look at the stream, so a Stop lands within a turn of the event loop
        even while the provider says nothing. The response is closed on every way out."""
        # --- your code --- gap 1 of 2: sending
        # Before anything goes out: a signal that is already set means the aborted reply,
        # assemble([], aborted=True), and no request at all.
        # Then send: response = self.client.open(to_wire(system, messages, tools)). open
        # raising any Exception (a refused connection is a ConnectionError) means an "error"
        # reply; nothing is raised from here. Which one, by getattr(exc, "status", None):
        #   not 429                   error_message(f"Provider request failed: {exc}")
        #   429, getattr(exc, "code", None) == "insufficient_quota"
        #                             f"Provider quota spent, so waiting will not help: {exc}"
        #   any other 429             f"Provider rate limit, so send again in {n} s: {exc}",
        #                             n = exc.retry_after; "... send again later: ..." if None
        response = self.client.open(to_wire(system, messages, tools))
        # --- end ---
        # --- your code --- gap 2 of 2: reading
        # Read the stream the way bash polls its command (lesson 15), one look per lap:
        #   - a set signal: return assemble(chunks, aborted=True), the words so far
        #   - nothing ready (response.ready() is False): await asyncio.sleep(0), look again
        #   - a line ready: response.read_line(); None, or decode_line giving STREAM_DONE,
        #     ends the stream; a chunk is kept; a line that carries nothing is skipped
        # decode_line raising ValueError means the reply error_message(str(exc)); anything
        # ready() or read_line() raise is not the provider's (a dropped connection is the end,
        # None) and goes up as it was raised.
        # Whichever way this is left, a hard cancel included, response.close() must run.
        # At the end of the stream, the reply is assemble(chunks). One of the lab's tests:
        #     a stream that goes quiet for ever after two lines still ends aborted within
        #     five turns of h.cancel(), and provider.open_responses() == [] afterwards
        return assemble([])  # until the reading is written: a reply that never arrived
        # --- end ---
