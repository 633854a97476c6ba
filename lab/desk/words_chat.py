"""What `course chat` says on the terminal and writes into a failed turn (lab/desk/chat.py), made
here and only here from facts: seconds, a tool's name and arguments, the client's name, the
harness's own words and exceptions, the session log's name. Nothing reads these words back, so a
change of wording touches no decision (tests/check/test_pseudo_localised.py swaps them all)."""
from __future__ import annotations

ARGUMENTS_SHOWN = 200  # characters of a call's arguments shown on its line


def question(asked: str) -> str:
    return f"{asked} [y/N] "


def rate_limited(seconds: int) -> str:
    return (f"[rate limited: the server asked for a wait (Retry-After: {seconds} s); sending "
            "once more when it is over, Ctrl-C gives up]")


def sending_in(left: int) -> str:
    return f"\r[sending again in {left} s] "


def gave_up() -> str:
    return "\r[gave up waiting: not sent again]"


def sending_now() -> str:
    return "\r[sending again]          "


def stopped(how: str | None = None) -> str:
    return f"[stopped ({how})]" if how else "[stopped]"


def call(name: str, arguments: str) -> str:
    return f"[{name} {arguments[:ARGUMENTS_SHOWN]}]"


def no_answer(client: str, error: str | None, *, words_came: bool) -> str:
    kept = " (the words above are what arrived before it)" if words_came else ""
    return f"course chat: the run ended without an answer from {client}{kept}: {error}"


def raised(file: str, what: str) -> str:
    """The harness file raised `what` (its type and message) out of a run."""
    return f"course chat: {file} raised {what}"


def raised_here(file: str, what: str, path: str, lines: str) -> str:
    """raised(), with the traceback's lines that are the file's own."""
    return f"{raised(file, what)}\nTraceback (the lines of {path}):\n{lines}{what}"


def raised_outside(trace: str) -> str:
    return f"course chat: the run raised, outside your file:\n{trace}"


def no_reply(why: str) -> str:
    """The words of the error reply that ends the record after the file raised."""
    return f"[no reply: {why}]"


def goes_on() -> str:
    return "[the session goes on; the log ends with that failure]"


def refused(problem: str) -> str:
    return f"course chat: {problem}"


def resumed(session: str, messages: int) -> str:
    return f"[resumed {session}: {messages} messages]"


def stopped_at_the_prompt(session: str) -> str:
    return (f"\ncourse chat: stopped at the prompt (Ctrl-C); the session log is kept in "
            f"{session} for next time.")
