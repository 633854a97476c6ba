# harness.py for lab 7.2, "Two frontends" (lesson 7, guided level: each gap spells out its steps).
# Fill the gaps marked '# --- your code ---', then check the file from its lab folder:
#     python lab/lab_check.py --harness harness.py --lesson 7 tests.py
"""A coding-agent harness in one file: a model, the tools it may call, and the loop between them."""
# given in lesson 7: json, for the frontend that prints each event as a line of JSON
import json

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


# == 2 tools ==
# A tool is a dict. The model is told its "name", "description" and "parameters" (JSON Schema).
# "execute" is a plain function, execute(arguments) -> str, that only this program calls.


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
    }


# == 3 loop ==
# The code that talks to the model. The model remembers nothing, so every request carries
# everything.


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """Give `prompt` to the model and carry on until a reply asks for no tools, a reply comes
    back failed, or `max_turns` model calls have been made. A generator of events.

    Events are dicts with a "type" that report what happened and draw nothing. They are
    balanced on every way out (agent_start ... agent_end, turn_start ... turn_end). Mutate, then
    announce: a message is appended to `messages`, the caller's list and the record, before
    its message_end is yielded, and nothing is yielded between a tool returning and its result
    being recorded. The final message is the last of agent_end's "messages"."""
    added = []  # what this run puts on the record, for agent_end to carry

    def record(message):
        """Put `message` on the record first; only then build its message_end to yield."""
        messages.append(message)
        added.append(message)
        return {"type": "message_end", "message": message}

    yield {"type": "agent_start"}
    turn, calls, pending = 0, [], [user_message(prompt)]
    while calls or pending:  # one lap is one turn
        turn += 1
        yield {"type": "turn_start"}
        for message in pending:  # a user message enters only here, at the top of a turn
            yield record(message)
        pending = []
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        yield record(reply)
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        calls = [] if failed else tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)  # straight after the tool returned: nothing in between
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances


def context_for_model(messages):
    """The view: what the model is sent, built fresh for every request from the record, which
    it never changes. An empty assistant message that failed is left out, because a provider
    refuses an empty assistant message; a failed one that got words out stays."""
    endings = ("error",)  # the empty ending a provider would refuse
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
    return kept


# == 4 harness ==
# Empty until lesson 8, which gives the transcript a single owner.


# == 5 frontends ==
# A frontend folds over one run's events: render(event) for each, then finish(), which says
# whether the run ended well. The loop never learns what its events look like on screen.


# given in lesson 7: the class lines, docstrings and def lines; the method bodies are yours
class JsonRenderer:
    """Every event as a line of JSON on standard output, for a program at the other end."""

    def __init__(self):
        # --- your code --- gap 1 of 2: JsonRenderer
        # One thing to remember between events: whether a message announced so far failed.
        # Nothing has failed yet.
        pass
        # --- end ---

    def render(self, event):
        # --- your code --- gap 1, continued
        # Print json.dumps(event) with flush=True: one line, on its way before render returns.
        # Then, if the event is a message_end whose message has stop_reason "error", note that
        # the run did not end well.
        pass
        # --- end ---

    def finish(self):
        # --- your code --- gap 1, continued
        # False if a failed message came by, True otherwise. No print.
        pass
        # --- end ---


class FinalTextRenderer:
    """The answer alone, printed once at the end, for `> answer.txt`. finish() prints the last
    assistant message's text and returns True; when that message failed
    it prints "Error: <its error_message>" instead, and returns False."""

    def __init__(self):
        # --- your code --- gap 2 of 2: FinalTextRenderer
        # Keep a place for the newest assistant message announced: none yet.
        pass
        # --- end ---

    def render(self, event):
        # --- your code --- gap 2, continued
        # Print nothing. When the event is a message_end announcing an assistant message, keep
        # that message: the newest one is the one that decides.
        pass
        # --- end ---

    def finish(self):
        # --- your code --- gap 2, continued
        # Three cases, from the message render kept:
        #   - none came by: print nothing, return False
        #   - its stop_reason is "error": print f"Error: {its error_message}", return False
        #   - otherwise print text_of(it) and return True
        pass
        # --- end ---


# == 6 environment ==
# Empty until lesson 11, which keeps a session on disk.
