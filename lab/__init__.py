"""The fake world every lesson runs in.

A harness talks to a model, a disk and a shell. Here all three are fakes: a ScriptedModel that
answers from a list and records every request, a Workspace that is a dict (with a power cut
that can be armed for a chosen write), and a Shell whose commands run over that dict. Runs cost
nothing, need no network, and print the same thing on every machine, so a lesson's outputs and
its tests can be exact.

Time is counted in event-loop turns, never in seconds: one turn is what `await
asyncio.sleep(0)` costs. A command that takes "three minutes" is done three turns after it
starts, and a Stop can be pressed between any two turns. That keeps the lessons about
cancellation exact and instant: nothing reads the clock, nothing sleeps, and a test that says
"within five turns" means the same on a laptop and in CI.

Beside the world, in the same package: the checking engine that decides every verdict
(lab/check/) and the student's desk (lab/desk/); lab/lab_check.py, lab.course and lab.kit are
the paths students and their tests.py files use for them. The world's names are loaded on
first use, so that the checker's own process, which never touches the world, does not pay for
asyncio when it starts.
"""
from importlib import import_module

# Each public name of the fake world, and the module of lab/world/ that defines it.
_WORLD = {
    "PowerCut": "errors", "ScriptExhausted": "errors",
    "call": "replies", "reply": "replies", "say": "replies", "fail": "replies",
    "forever": "replies",
    "Request": "model", "ScriptedModel": "model",
    "Workspace": "workspace",
    "Shell": "shell", "Process": "shell",
    "tick": "clock", "ticks": "clock", "drive": "clock", "background": "clock",
    "shape": "transcript", "show": "transcript", "validate": "transcript",
    "Human": "people",
    "FakeProvider": "provider", "Response": "provider", "stream_lines": "provider",
    "refuse": "provider", "pause": "provider", "HANG": "provider", "BlockingClient": "provider",
    "Refused": "provider",
    "SERVERS": "servers", "RATE_LIMIT": "servers", "QUOTA": "servers",
}

__all__ = list(_WORLD)


def __getattr__(name: str):
    if name not in _WORLD:
        raise AttributeError(f"module 'lab' has no attribute {name!r}")
    value = getattr(import_module(f"lab.world.{_WORLD[name]}"), name)
    globals()[name] = value  # found once, then an ordinary attribute
    return value


def __dir__():
    return sorted(set(globals()) | set(_WORLD))
