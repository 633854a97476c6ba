"""Looking at transcripts: shape() for one line a test can compare, show() for one line per
message a person can read, validate() for what the course's message format does not allow."""

import json

from .replies import STOP_REASONS

KEYS = {
    "user": {"role": str, "content": str},
    "assistant": {"role": str, "content": list, "stop_reason": str},
    "toolResult": {"role": str, "tool_call_id": str, "tool_name": str, "content": str,
                   "is_error": bool},
}
OPTIONAL = {"assistant": {"error_message": str}}
BLOCK_KEYS = {
    "text": {"type": str, "text": str},
    "toolCall": {"type": str, "id": str, "name": str, "arguments": dict},
}
FAILED = ("error", "aborted")


def _messages(messages, who):
    if isinstance(messages, (dict, str, bytes)) or not hasattr(messages, "__iter__"):
        raise TypeError(f"{who} takes a list (or tuple) of messages, such as h.messages; got "
                        f"{type(messages).__name__}. For one message, wrap it: {who}([message])")
    return list(messages)


def _calls(message):
    """The well-formed call blocks of an assistant message, in order."""
    content = message.get("content")
    if not isinstance(content, list):
        return []
    return [block for block in content
            if isinstance(block, dict) and block.get("type") == "toolCall"]


def _failed(message):
    return message.get("stop_reason") in FAILED


def shape(messages):
    """One token per message, space-separated: U, A (A[c1,c2] with calls, suffix (error) or
    (aborted)), R(<id>). Short enough to put in an assertion message, exact enough to compare.
    Anything that is not one of the three messages shows as ?, so a broken transcript can still
    be printed; validate() says what is wrong with it."""
    tokens = []
    for message in _messages(messages, "shape"):
        role = message.get("role") if isinstance(message, dict) else None
        if role == "user":
            tokens.append("U")
        elif role == "assistant":
            ids = [str(block.get("id")) for block in _calls(message)]
            token = f"A[{','.join(ids)}]" if ids else "A"
            if _failed(message):
                token += f"({message['stop_reason']})"
            tokens.append(token)
        elif role == "toolResult":
            tokens.append(f"R({message.get('tool_call_id')})")
        else:
            tokens.append("?")
    return " ".join(tokens)


def _json(value):
    return json.dumps(value, ensure_ascii=False)


def _part(block):
    if not isinstance(block, dict):
        return repr(block)
    if block.get("type") == "text":
        return _json(block.get("text"))
    if block.get("type") == "toolCall":
        return (f"toolCall {block.get('id')} {block.get('name')}"
                f"({_json(block.get('arguments'))})")
    return f"[{block.get('type')} block]"


def show(messages, *, stop_reason=False):
    """One line per message: `user -> "..."`, `assistant -> <parts>` (text as JSON strings, calls
    as `toolCall <id> <name>(<arguments>)`, joined with " + ", or `(nothing)`), and
    `toolResult <id> -> "..."`. Suffixes: `[stop_reason=...]` when asked for, `[error: ...]`,
    `[is_error]`. JSON keeps every character visible, so a newline or a trailing space in a
    result cannot hide."""
    lines = []
    for message in _messages(messages, "show"):
        role = message.get("role") if isinstance(message, dict) else None
        if role == "user":
            lines.append(f"user -> {_json(message.get('content'))}")
        elif role == "assistant":
            content = message.get("content")
            parts = [_part(block) for block in content] if isinstance(content, list) else []
            line = f"assistant -> {' + '.join(parts) if parts else '(nothing)'}"
            if stop_reason:
                line += f"  [stop_reason={message.get('stop_reason')}]"
            if "error_message" in message:
                line += f"  [error: {message['error_message']}]"
            lines.append(line)
        elif role == "toolResult":
            line = f"toolResult {message.get('tool_call_id')} -> {_json(message.get('content'))}"
            if message.get("is_error"):
                line += "  [is_error]"
            lines.append(line)
        else:
            lines.append(f"? -> {message!r}")
    return "\n".join(lines)


def _type_name(value):
    return type(value).__name__


def _fields(where, value, keys, optional=None):
    """Problems with the keys and their types of one dict."""
    problems = []
    allowed = {**keys, **(optional or {})}
    for key, kind in keys.items():
        if key not in value:
            problems.append(f"{where} has no '{key}'")
    for key, item in value.items():
        kind = allowed.get(key)
        if kind is None:
            problems.append(f"{where} has an unexpected key '{key}'")
        elif not isinstance(item, kind) or (kind is not bool and isinstance(item, bool)):
            problems.append(f"{where}'s '{key}' must be a {kind.__name__}, not "
                            f"{_type_name(item)}")
    return problems


def _structure(message):
    """Rule 1: a known role, the keys and types of §2.1, a known stop_reason, and an
    error_message on a failed reply."""
    if not isinstance(message, dict):
        return [f"not a message (a dict with a 'role'): got {_type_name(message)}"]
    if "role" not in message:
        return ["message has no 'role'"]
    role = message["role"]
    if role not in KEYS:
        return [f"unknown role {role!r}"]
    problems = _fields(f"{role} message", message, KEYS[role], OPTIONAL.get(role))
    if role != "assistant":
        return problems
    reason = message.get("stop_reason")
    if isinstance(reason, str) and reason not in STOP_REASONS:
        problems.append(f"stop_reason {reason!r} is not one of "
                        + ", ".join(repr(r) for r in STOP_REASONS))
    if reason in FAILED and "error_message" not in message:
        problems.append("assistant message has no 'error_message'")
    content = message.get("content")
    for number, block in enumerate(content if isinstance(content, list) else []):
        where = f"content[{number}]"
        if not isinstance(block, dict) or "type" not in block:
            problems.append(f"{where} is not a block (a dict with a 'type')")
        elif block["type"] not in BLOCK_KEYS:
            problems.append(f"{where} has unknown type {block['type']!r}")
        else:
            problems += _fields(f"{where} ({block['type']})", block, BLOCK_KEYS[block["type"]])
    return problems


def validate(messages, *, record=False):
    """The problems this transcript has in the course's message format (rules modelled on what
    providers refuse, not any one provider's), each `messages[i]: <what>` with i the 0-based
    index into what was passed; [] when there are none.

    Request rules: known roles and shapes; a user message first; no empty assistant message;
    right after each assistant message, one result per call in call order, naming the call's
    tool; no orphan, duplicate or misplaced result; no call id used twice.

    record=True checks what a finished run owes its record instead, which differs in one way:
    a reply that failed or was stopped ("error", "aborted") may be empty, and its calls need no
    result, because nothing acted on them. A call in any other reply still needs its result.
    """
    messages = _messages(messages, "validate")
    found = []  # (index, problem), sorted by index at the end

    for index, message in enumerate(messages):
        found += [(index, problem) for problem in _structure(message)]
    if messages and (not isinstance(messages[0], dict) or messages[0].get("role") != "user"):
        found.append((0, "a transcript must start with a user message"))

    def role(index):
        message = messages[index]
        return message.get("role") if isinstance(message, dict) else None

    calls = {}  # id -> (index of its assistant message, position among its calls, tool name)
    for index, message in enumerate(messages):
        if role(index) != "assistant":
            continue
        if message.get("content") == [] and not (record and _failed(message)):
            found.append((index, "assistant message has no content"))
        for position, block in enumerate(_calls(message)):
            call_id = block.get("id")
            if call_id in calls:
                found.append((index, f"call id {call_id} is used twice"))
            else:
                calls[call_id] = (index, position, block.get("name"))

    def block_after(index):
        """Indices of the run of results directly after message `index`."""
        end = index + 1
        while end < len(messages) and role(end) == "toolResult":
            end += 1
        return range(index + 1, end)

    answered, last_position = set(), {}
    for index, message in enumerate(messages):
        if role(index) != "toolResult":
            continue
        call_id = message.get("tool_call_id")
        if call_id in answered:
            found.append((index, f"second result for {call_id}"))
            continue
        answered.add(call_id)
        if call_id not in calls:
            found.append((index, f"result for {call_id}, which no call asked for"))
            continue
        home, position, name = calls[call_id]
        if index not in block_after(home):
            found.append((index, f"result for {call_id} is not right after its call"))
            continue
        if position < last_position.get(home, -1):
            found.append((index, f"result for {call_id} is out of call order"))
        last_position[home] = max(position, last_position.get(home, -1))
        if message.get("tool_name") != name:
            found.append((index, f"result for {call_id} names tool "
                                 f"{message.get('tool_name')!r}, but the call was to {name!r}"))

    for call_id, (home, _, _) in calls.items():
        if record and _failed(messages[home]):
            continue
        ids = [messages[i].get("tool_call_id") for i in block_after(home)]
        if call_id not in ids:
            found.append((home, f"call {call_id} has no result right after it"))

    found.sort(key=lambda item: item[0])
    return [f"messages[{index}]: {problem}" for index, problem in found]
