"""Watching a run of a lesson's reference through what the lessons teach, and nothing else.

A figure that shows what a reference does takes it from a run of that reference in the fake
world, watched by a `Log`. The observers stand only where a student's own code could stand:
the caller's list of messages, the model and the tools the harness is handed (and the Stop flag
they are handed with their request or call), the events a Harness announces to a subscriber,
the task stop_run is given, and the reference's public CancelToken, which the Harness makes each
run's flag from. None reads a name of the reference that starts with an underscore, or a frame,
so a reference may rename its insides without its figures noticing; a change to what it does
changes its figures.
"""
from __future__ import annotations

import asyncio

import lab
from lab.check import manifest
from lab.check.importer import import_harness


def reference(lab_id: str):
    """The lab's reference solution, imported the one way a harness.py is imported."""
    return import_harness(manifest.lab(lab_id).solution)


class Log(list):
    """What happened in a run, in order, as (kind, detail) pairs, written by observers placed
    around the reference: the record's appends, the model, the tools, the events, the flag."""

    def __init__(self):
        super().__init__()
        self.heard = None  # the last event of a run that listen() heard, logged or not

    def record(self):
        """A list that logs ("append", token) for each message appended to it."""
        log = self

        class Record(list):
            def append(self, message):
                super().append(message)
                log.append(("append", lab.shape([message])))
        return Record()

    def model(self, model):
        """`model`, with each request logged: ("model", "complete") before a plain request
        is answered, ("model", "start") and ("model", "end") around an async one. The flag
        an async request carries is handed on as the model's own (see `flag`)."""
        log = self

        class Observed:
            def complete(self, *args):
                log.append(("model", "complete"))
                return model.complete(*args)

            async def acomplete(self, system, messages, tools=(), signal=None):
                log.append(("model", "start"))
                reply = await model.acomplete(system, messages, tools, handed(signal, "model"))
                log.append(("model", "end"))
                return reply
        return Observed()

    def tool(self, tool):
        """`tool`, with each run of its execute logged as ("tool", name); an async one also
        logs ("returned", what it returned). The flag a call carries is handed on as the
        tool's own (see `flag`)."""
        name = tool["name"]

        def execute(arguments, *rest):
            self.append(("tool", name))
            return tool["execute"](arguments, *rest)

        async def aexecute(arguments, signal=None):
            self.append(("tool", name))
            text = await tool["execute"](arguments, handed(signal, name))
            self.append(("returned", text))
            return text
        return {**tool, "execute": aexecute if asyncio.iscoroutinefunction(tool["execute"])
                else execute}

    def flag(self, harness):
        """Swap the reference's CancelToken, the class its Harness makes each run's flag from,
        for one that logs ("stop", None) when it is set and ("look", (who, set?, call id)) each
        time it is read. Who read it: the model or a tool (by name) when they read the flag
        they were handed through `model` or `tool`; otherwise the run's own code, which looks
        in two places that its events tell apart (so `listen` must be on): run_tool, just
        after a call's tool_execution_start, before that call; run_agent, at the top of a
        turn."""
        log, plain = self, harness.CancelToken

        class Token(plain):
            def cancel(self):
                log.append(("stop", None))
                super().cancel()

            def is_cancelled(self):
                event = log.heard or {}
                if event.get("type") == "tool_execution_start":
                    return self.looked("run_tool", event["call"]["id"])
                return self.looked("run_agent")

            def looked(self, who, call=None):
                value = plain.is_cancelled(self)
                log.append(("look", (who, value, call)))
                return value

            def handed_to(self, who):
                token = self

                class Handed:
                    """The flag as `who` holds it: each of its looks logged under its name."""
                    def is_cancelled(self):
                        return token.looked(who)
                return Handed()
        harness.CancelToken = Token

    def listen(self, h, *types):
        """Log ("event", event) for each event of `h`'s runs whose type is in `types`, and
        keep the last event of any type as `heard`."""
        def hear(event):
            self.heard = event
            if event["type"] in types:
                self.append(("event", event))
        h.subscribe(hear)


def handed(signal, who):
    """`signal` as handed to `who`: a flag made by Log.flag logs who looks at it; anything
    else (None, a flag nobody watches) is handed on as it is."""
    return signal.handed_to(who) if hasattr(signal, "handed_to") else signal


class ObservedTask:
    """A task as stop_run sees it, with each done() and cancel() logged: how long stop_run
    waited, and when it insisted."""

    def __init__(self, task, log):
        self.task, self.log = task, log

    def done(self):
        self.log.append(("done?", self.task.done()))
        return self.task.done()

    def cancel(self):
        self.log.append(("task.cancel", None))
        return self.task.cancel()

    def __await__(self):
        return self.task.__await__()
