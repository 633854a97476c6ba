"""Building replies: the assistant messages a script hands back, written as a reader thinks of
them ("say this", "call that") instead of as nested dicts."""

STOP_REASONS = ("stop", "toolUse", "error", "aborted")


def call(name, arguments=None, *, id=None):
    """A toolCall block: {"type": "toolCall", "id": id, "name": name, "arguments": arguments or {}}.

    Leave `id` as None and the model that delivers the block numbers it c1, c2, ... in the order
    it hands calls out, so a script never has to keep count.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"call(name, arguments): name is the tool's name, a non-empty string; "
                        f"got {name!r}")
    if arguments is not None and not isinstance(arguments, dict):
        raise TypeError(f"call({name!r}, arguments): arguments is a dict such as "
                        f"{{'path': 'a.py'}}; got {arguments!r}")
    if id is not None and not isinstance(id, str):
        raise TypeError(f"call({name!r}, id=...): an id is a string such as 'c1', or None to let "
                        f"the model number it; got {id!r}")
    return {"type": "toolCall", "id": id, "name": name, "arguments": arguments or {}}


def _blocks(parts, where):
    blocks = []
    for number, part in enumerate(parts, 1):
        if isinstance(part, str):
            blocks.append({"type": "text", "text": part})
        elif isinstance(part, dict) and part.get("type") in ("toolCall", "text"):
            blocks.append(part)
        else:
            raise TypeError(f"{where} takes strings (words) and lab.call(...) blocks; part "
                            f"{number} is {part!r}")
    return blocks


def reply(*parts):
    """An assistant message made of `parts`, in order: a string becomes a text block, a call
    block is kept. stop_reason is "toolUse" when any part is a call and "stop" otherwise, because
    the content, not a label, says whether the model asked for something."""
    content = _blocks(parts, "reply(...)")
    asks = any(block["type"] == "toolCall" for block in content)
    return {"role": "assistant", "content": content, "stop_reason": "toolUse" if asks else "stop"}


def say(text):
    """A plain answer with no calls: reply(text)."""
    if not isinstance(text, str):
        raise TypeError(f"say(text) takes the words of the answer as a string; got {text!r}")
    return reply(text)


def fail(error_message, *parts):
    """A failed reply, as the code that talks to a provider turns an HTTP error or a broken
    stream into one: stop_reason "error", the reason in error_message, and whatever `parts`
    arrived before it failed (usually none)."""
    if not isinstance(error_message, str):
        raise TypeError(f"fail(error_message, *parts): error_message is the reason, a string; "
                        f"got {error_message!r}")
    return {"role": "assistant", "content": _blocks(parts, "fail(error_message, ...)"),
            "stop_reason": "error", "error_message": error_message}


class Forever:
    """The script entry forever(fn) makes: fn answers this request and every one after it."""

    def __init__(self, fn):
        self.fn = fn

    def __repr__(self):
        return f"lab.forever({getattr(self.fn, '__name__', repr(self.fn))})"


def forever(fn):
    """A script entry that answers this request and every later one with fn(request), for a model
    whose answers depend on what it is asked. It must be the last entry; a plain function as an
    entry answers one request only."""
    if not callable(fn):
        raise TypeError(f"forever(fn) takes a function of one request that returns a reply; "
                        f"got {fn!r}")
    return Forever(fn)


def number_calls(message, delivered: int) -> int:
    """Give each call in `message` that has no id the next of c1, c2, ..., counting from the
    `delivered` calls handed out before, and return the new count. The scripted model and the
    fake provider both number this way, so a transcript's ids read the same from either."""
    for block in message["content"]:
        if block["type"] == "toolCall":
            delivered += 1
            if block.get("id") is None:
                block["id"] = f"c{delivered}"
    return delivered


def assistant_problem(message):
    """What makes `message` unfit to be delivered as a reply, or None if it is fit. Shared by the
    fakes that hand replies out, so every one of them says the same thing about a bad entry."""
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return "it is not an assistant message"
    content = message.get("content")
    if not isinstance(content, list):
        return "its content is not a list of blocks"
    if message.get("stop_reason") not in STOP_REASONS:
        return f"its stop_reason {message.get('stop_reason')!r} is not one of {STOP_REASONS}"
    for number, block in enumerate(content):
        if not isinstance(block, dict) or block.get("type") not in ("text", "toolCall"):
            return f"content[{number}] is not a text or toolCall block"
        if block["type"] == "toolCall" and not isinstance(block.get("arguments"), dict):
            return f"content[{number}] is a call whose arguments are not a dict"
    return None
