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
"""

from .clock import background, drive, tick, ticks
from .errors import PowerCut, ScriptExhausted
from .model import Request, ScriptedModel
from .people import Human
from .provider import (HANG, BlockingClient, FakeProvider, Response, pause, refuse,
                       stream_lines)
from .replies import call, fail, forever, reply, say
from .shell import Process, Shell
from .transcript import shape, show, validate
from .workspace import Workspace

__all__ = [
    "PowerCut", "ScriptExhausted",
    "call", "reply", "say", "fail", "forever",
    "Request", "ScriptedModel",
    "Workspace",
    "Shell", "Process",
    "tick", "ticks", "drive", "background",
    "shape", "show", "validate",
    "Human",
    "FakeProvider", "Response", "stream_lines", "refuse", "pause", "HANG", "BlockingClient",
]
