# harness.py for lab 13.1, "Say what is there" (lesson 13).
# Fill the gaps marked '# --- your code ---', then check the file from its lab folder:
#     python lab/lab_check.py --harness harness.py --lesson 13 tests.py
"""A coding-agent harness in one file: a model, the tools it may call, and the loop between them."""
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


def error_message(text):
    """An assistant message that ends a run and says why: empty content, the reason in
    error_message, stop_reason "error". Runs record their endings; they do not raise them."""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}




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
# "execute" is a plain function, execute(arguments) -> str, that only this program calls.
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


def run_tool(tools, call):
    """Answer one call with exactly one toolResult, whatever happens. Tools report failure by
    raising; this is the one place a raise becomes a result (is_error True), so it never raises
    Exception. Anything wider, such as lab.PowerCut, is the program ending and passes through."""
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = tool["execute"](call["arguments"]), False
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
    def execute(arguments):
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
        # --- your code --- gap 1 of 3: the tool keys
        # Two more keys, which only build_system_prompt reads: "snippet", one line on what the
        # tool is for, in your own words and not the description; and "guidelines", a list of two
        # short pieces of advice. The first is read's alone; the second is write's second too,
        # word for word. The wording is yours. Each call makes a new dict, with lists and dicts of
        # its own, parameters included.
        # Tests: test_the_factories_carry_snippets_and_guidelines.
        # --- end ---
    }


def make_write_tool(ws):
    """The `write` tool: makes a file in `ws`, or overwrites one that is there, whole."""
    def execute(arguments):
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
        # --- your code --- gap 1, continued
        # write's two keys: a one-line "snippet", and two "guidelines": first one of write's own,
        # then read's second, word for word.
        # Tests: test_the_factories_carry_snippets_and_guidelines.
        # --- end ---
    }


def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `bash` tool: run one command line in `shell` and return what it printed. A command
    that exits non-zero still ran, so its code is information for the model, not a tool
    failure: the result is ordinary and ends with a status line."""
    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
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
        # --- your code --- gap 1, continued
        # bash's two keys: a one-line "snippet", and "guidelines" holding one sentence.
        # Tests: test_the_factories_carry_snippets_and_guidelines.
        # --- end ---
    }


# == 3 loop ==
# The code that talks to the model. The model remembers nothing, so every request carries
# everything.


def run_agent(model, system, messages, tools, prompt, *, max_turns=None,
              get_steering=None, get_follow_ups=None):
    """Give `prompt` to the model and carry on until a reply asks for no tools, a reply comes
    back failed, or `max_turns` model calls have been made. A generator of events.

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
            if max_turns is not None and turn > max_turns:  # before the call, never after
                reply = error_message(f"Agent stopped after max_turns={max_turns}")
            else:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            yield record(reply)
            failed = reply["stop_reason"] == "error"
            todo = [] if failed else tool_calls(reply)  # the calls this turn owes a result
            for call in todo:
                yield {"type": "tool_execution_start", "call": call}
                result = run_tool(tools, call)
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
    it never changes. Empty assistant messages that failed are left out (a failed one that got
    words out stays), then every call is paired with its result."""
    endings = ("error",)  # the empty ending a provider would refuse
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
    """

    def __init__(self, model, system, tools, messages=(), max_turns=None):
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
        self._run_now = None  # a weak reference to the run prompt() handed out last
        self._steering_queue, self._follow_up_queue = deque(), deque()
        self._listeners = []

    @property
    def messages(self):
        return tuple(self._messages)

    @property
    def is_running(self):
        run = self._run_now and self._run_now()  # None once nobody holds the run
        return run is not None and run.gi_frame is not None  # a finished run has no frame

    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
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

    def _run(self, text):
        """The run prompt() hands out: run_agent over the harness's own list."""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns,
                        get_steering=lambda: self._drain(self._steering_queue),
                        get_follow_ups=lambda: self._drain(self._follow_up_queue))
        try:
            for event in inner:
                if event["type"] == "message_end":
                    self._delivered(event["message"])
                self._notify(event)  # listeners first: a consumer that stops listening to
                yield event  # the run cannot stop them hearing what happened
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()


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
        if ended == "error":
            self.failed = True

    def finish(self):
        return not self.failed


class FinalTextRenderer:
    """The answer alone, printed once at the end, for `> answer.txt`. finish() prints the last
    assistant message's text and returns True; when that message failed
    it prints "Error: <its error_message>" instead, and returns False."""

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
        if reply["stop_reason"] == "error":
            print(f"Error: {reply.get('error_message')}")
            return False
        print(text_of(reply))
        return True


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


def summarize(model, messages):
    """A summary of `messages` from one model call that belongs to no transcript: its own
    system prompt, the rendered conversation in <conversation> tags as the only message, and
    no tools, so summarising is all it can do. RuntimeError when the reply failed or was empty."""
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
    reply = model.complete(SUMMARY_SYSTEM, [wrapped], [])
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


def compact(log, model, *, keep_recent_tokens):
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
        summary = summarize(model, older)
    except RuntimeError:
        return False
    log.append_compaction(summary, rows[cut][0])
    return True


def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):
    """Compact when the transcript has come within `reserve` tokens of the context `window`,
    then hand the harness what the log now replays. For the code around the harness to call
    between runs, never during one. True if it compacted."""
    if harness.is_running:
        raise RuntimeError("cannot compact during a run")
    if estimate_tokens(harness.messages) + reserve <= window:
        return False  # there is still room
    compacted = compact(log, model, keep_recent_tokens=keep_recent_tokens)
    if compacted:
        harness.replace_messages(log.replay())  # the one door in, shut during a run
    return compacted


def discover_context(ws, cwd):
    """The project's standing instructions: each AGENTS.md from the workspace root down to the
    folder `cwd` (a plain relative path such as "services/api"), as [(path, text)], broadest
    first, so the file nearest the work is read last and has the last word. Whoever wrote
    these files is writing part of your system prompt."""
    # --- your code --- gap 2 of 3: discover_context
    # [(path, text)], one pair for each AGENTS.md on the way from the workspace root down to the
    # folder `cwd`, broadest first, with the workspace's own paths and texts: for "services/api",
    # what there is of "AGENTS.md", "services/AGENTS.md" and "services/api/AGENTS.md", in that
    # order. A folder with no file adds nothing; files beside the way or below cwd are not on
    # it. An empty part of cwd or a "." names no folder: "", "." and "./" are all the root, and
    # "./services//api/" is "services/api"; cwd never holds "..". The workspace answers
    # ws.exists(path) and ws.read_text(path).
    # Tests: test_discover_context_walks_from_the_root_down_to_cwd,
    #   test_discover_context_at_the_root.
    pass
    # --- end ---


def build_system_prompt(tools, context_files, skills, cwd, today):
    """The system prompt, made from what is really there: a line per enabled tool that has a
    snippet, each guideline once (first seen first), the `context_files` [(path, text)] in
    the order given, an index of `skills` [{"name", "description", "path"}] when a tool named
    read can load them, and last the date and folder. It reads no clock and no disk, so equal
    arguments give equal bytes, which tests and prompt caches depend on."""
    # --- your code --- gap 3 of 3: build_system_prompt
    # The prompt: sections separated by one blank line, in this order, each left out whole when it
    # has nothing to say:
    #   - an opening line of your own, three words or more, the same whatever the arguments
    #   - the heading "Available tools:", then a line "- NAME: SNIPPET" for each tool that has a
    #     snippet, in the order of `tools`; an empty snippet is no snippet
    #   - the heading "Guidelines:", then a line "- GUIDELINE" for each guideline of the tools,
    #     each sentence once, in the order it is first met
    #   - each context file (path, text), in the order given, as a section of its own: the tag
    #     <project_instructions path="PATH">, a newline, the text exactly as it came, a newline,
    #     and </project_instructions>; an empty file's section is the tags around an empty line
    #   - only with skills and a tool named exactly "read": a sentence of your own, of three
    #     words or more, on what the lines below it are for, then a line
    #     "- NAME: DESCRIPTION (PATH)" for each skill, in the order given
    #   - last, the two lines "Current date: TODAY" and "Current working directory: CWD"
    # The headings, tags and line shapes are exact; your two sentences are yours. Equal
    # arguments give equal text in every process: the prompt depends on its arguments alone.
    # Tests: test_the_bare_prompt, test_a_line_for_each_tool_with_a_snippet,
    #   test_each_guideline_once_first_seen_first,
    #   test_context_files_go_in_word_for_word_in_the_order_given,
    #   test_a_skills_index_only_with_a_tool_named_read, test_the_parts_come_in_a_fixed_order,
    #   test_the_prompt_is_deterministic, test_specs_and_requests.
    pass
    # --- end ---
