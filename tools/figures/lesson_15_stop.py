"""Lesson 15's figures: the ways out with Stop, and a single Stop, from runs of the lesson 15
reference watched by observers."""
from __future__ import annotations

import asyncio
import json

import lab
from tools.figures.canvas import (ACCENT, INK, LINE, MUTED, PANEL, PAPER, WIDTH, Canvas,
                                   text_width)
from tools.figures.lesson_05_exits import ways_out
from tools.figures.observers import Log, ObservedTask, reference


def every_way_out_and_stop(title):
    return ways_out(title, stop=True)


def stop_runs():
    """Lesson 15's two Stops on the lesson 15 reference, logged: a Stop clicked during the
    first of three bash calls (bash polls the flag), and stop_run on a tool that never looks
    (grace 5)."""

    async def polite():
        harness, log = reference("15.2"), Log()
        log.flag(harness)
        bash = log.tool(harness.make_bash_tool(lab.Shell(lab.Workspace({}))))
        calls = [lab.call("bash", {"command": c}) for c in ("sleep 10", "sleep 1", "sleep 1")]
        model = log.model(lab.ScriptedModel([lab.reply(*calls), lab.say("never sent")]))
        h = harness.Harness(model, "You look after a small project.", [bash])
        log.listen(h, "message_end", "agent_end")
        async with lab.background(h.prompt("Run the three checks.")) as task:
            while sum(1 for kind, d in log if kind == "look" and d[0] == "bash") < 3:
                await lab.tick()  # Stop is clicked during c1's third lap
            h.cancel()
            await task
        return log

    async def insist():
        harness, log = reference("15.2"), Log()
        log.flag(harness)
        shell = lab.Shell(lab.Workspace({}))

        async def execute(arguments, signal=None):
            try:
                output, _ = await shell.arun("sleep inf")  # looks at nothing
            except asyncio.CancelledError:
                log.append(("cancelled", None))
                raise
            return output

        build = log.tool({"name": "build", "description": "Build everything (slow).",
                          "parameters": {"type": "object", "properties": {}},
                          "execute": execute})
        model = log.model(lab.ScriptedModel([lab.reply(lab.call("build")), lab.say("unused")]))
        h = harness.Harness(model, "You look after a small project.", [build])
        log.listen(h, "message_end", "agent_end")
        task = asyncio.ensure_future(lab.drive(h.prompt("Start the build.")))
        await lab.ticks(10)
        log.append(("stop_run", await harness.stop_run(h, ObservedTask(task, log), grace=5)))
        log.append(("record", lab.shape(h.messages)))
        return log

    return asyncio.run(polite()), asyncio.run(insist())


def a_single_stop(title):
    polite, insist = stop_runs()
    insist = insist[next(i for i, (kind, _) in enumerate(insist) if kind == "tool"):]
    row = 21
    first_h = 90 + row * len(polite)
    c = Canvas(first_h + 90 + row * len(insist) + 20, title)

    def draw(log, top, lanes, tool):
        for name, x in lanes.items():
            c.text(x, top - 30, name, bold=True, mono=name != "model", anchor="middle")
            c.line((x, top - 22), (x, top + row * len(log)), colour="#d5dae1", width=1.2,
                   role="lane")
        run_x, tool_x = lanes["run_agent"], lanes[tool]
        calls = iter(["c1", "c2", "c3"])
        starts = [i for i, (kind, _) in enumerate(log) if kind == "tool"]
        for start in starts:  # the tool's bar, from its start to its return or its end
            end = next((i for i in range(start + 1, len(log))
                        if log[i][0] in ("returned", "cancelled")), start + 1)
            c.box(tool_x - 4, top + start * row + row - 2, 8, (end - start) * row - row / 2 + 6,
                  fill=PANEL, rx=2, stroke=INK, width=1)
        for i, (kind, detail) in enumerate(log):
            y = top + i * row
            mid = y + row / 2
            if kind == "look":
                who, value, call = detail
                x = {"run_agent": run_x, "run_tool": run_x, "model": lanes["model"]}.get(
                    who, tool_x)
                c.circle(x, mid, 5.5, stroke=ACCENT if value else INK,
                         fill=ACCENT if value else PAPER, width=1.6)
                words = {"run_agent": "top of the turn", "run_tool": f"run_tool, before {call}",
                         "model": "the model, waiting"}.get(who, "a lap of the poll")
                c.note(x + 11, mid + 4, words + (": set" if value else ""), size=11,
                       colour=ACCENT if value else MUTED)
            elif kind == "model":
                a, b = (run_x - 8, lanes["model"] + 3) if detail == "start" else \
                    (lanes["model"] + 8, run_x - 3)
                c.arrow((a, mid), (b, mid))
                c.note((a + b) / 2, mid - 4, "request" if detail == "start" else "reply",
                       anchor="middle", colour=LINE, italic=False, size=11)
            elif kind == "tool":
                call = next(calls)
                c.arrow((run_x + 8, mid), (tool_x - 3, mid))
                c.note(run_x + 16, mid - 4, f"{call} starts", colour=LINE, italic=False, size=11)
            elif kind == "returned":
                c.cross(tool_x, y + 2, 6, colour=ACCENT, width=2)
                c.note(tool_x + 14, y + 6, "the command is killed", colour=ACCENT, size=11)
                c.arrow((tool_x - 10, mid + 2), (run_x + 3, mid + 2), colour=ACCENT)
                c.text(run_x + 16, mid - 2, json.dumps(detail), size=11, mono=True,
                       colour=ACCENT)
            elif kind == "event" and detail["type"] == "message_end":
                token = lab.shape([detail["message"]])
                w = c.chip_width(token, 10.5)
                stopped = "aborted" in token or detail["message"]["content"] == "Operation aborted"
                c.chip(run_x - 14 - w, y + 2, token, h=row - 4, size=10.5,
                       state="new" if stopped else "normal")
                if token.startswith("R(") and stopped:
                    c.note(run_x - 20 - w, mid + 4, "Operation aborted", anchor="end",
                           colour=ACCENT, size=11)
            elif kind == "event":
                c.text(run_x + 12, mid + 4, "agent_end", size=11.5, mono=True, bold=True)
            elif kind == "stop":
                c.line((20, mid), (WIDTH - 20, mid), colour=ACCENT, dash="6 4", width=1.5)
                said = "Stop: h.cancel() sets the flag"
                c.clearing(20, mid - 18, text_width(said, 11.5) * 1.1 + 12, 16)  # bold is wider
                c.text(24, mid - 5, said, size=11.5, colour=ACCENT, bold=True)

    # the first panel: a tool that polls, and a loop that looks before each wait
    top = 80
    c.text(20, 24, "A tool that looks", bold=True, size=14)
    c.note(160, 24, "each circle is a look at the flag, on the lane that looks: hollow, it was "
           "clear; filled, it was set", colour=INK)
    draw(polite, top, {"model": 90, "run_agent": 420, "bash": 690}, "bash")
    # the second panel: the backstop, for a tool that never looks
    top2 = first_h + 90
    c.line((20, first_h + 10), (WIDTH - 20, first_h + 10), colour="#d5dae1", width=1)
    c.text(20, first_h + 34, "The backstop: stop_run(h, task, grace=5), for a tool that never "
           "looks", bold=True, size=14)
    lanes = {"model": 90, "run_agent": 380, "build": 560, "stop_run": 770}
    draw(insist, top2, lanes, "build")
    c.note(lanes["build"] + 12, top2 + 4.5 * row, "the tool never looks", colour=INK)
    c.note(lanes["build"] + 12, top2 + 5.2 * row, "at the flag", colour=INK)
    checks = [i for i, (kind, _) in enumerate(insist) if kind == "done?"]
    for i, (kind, detail) in enumerate(insist):
        y = top2 + i * row
        mid = y + row / 2
        if kind == "done?":
            c.line((lanes["stop_run"] - 6, mid), (lanes["stop_run"] + 6, mid), colour=INK, width=2)
            if i == checks[0]:
                c.note(lanes["stop_run"] - 12, mid + 4, "task.done()? no, once a turn",
                       anchor="end", size=11, colour=INK)
        elif kind == "task.cancel":
            c.bolt(lanes["build"] + 70, y - 6, scale=0.9)
            c.arrow((lanes["stop_run"] - 8, mid), (lanes["build"] + 6, mid), colour=ACCENT,
                    width=2.2)
            c.text(lanes["build"] + 90, mid - 4, "task.cancel()", size=11, mono=True,
                   colour=ACCENT, bold=True)
        elif kind == "cancelled":
            said = "CancelledError, in its await"
            wide = text_width(said, 11, mono=True)
            c.clearing(lanes["build"] - 14 - wide, mid - 8, wide + 8, 16)
            c.text(lanes["build"] - 10, mid + 4, said, size=11,
                   mono=True, colour=ACCENT, anchor="end")
            c.arrow((lanes["build"] - 10, mid + 12), (lanes["run_agent"] + 8, mid + 12),
                    (lanes["run_agent"] + 8, mid + 30), colour=ACCENT, width=2)
        elif kind == "stop_run":
            said = f"returns {json.dumps(detail)}"
            wide = text_width(said, 11.5, mono=True)
            c.clearing(lanes["stop_run"] - wide / 2 - 4, mid + 10, wide + 8, 16)
            c.text(lanes["stop_run"], mid + 22, said, size=11.5,
                   mono=True, anchor="middle", bold=True)
        elif kind == "record":
            c.note(lanes["run_agent"] - 14, mid + 4, f"record: {detail}, c1 has no result",
                   anchor="end", colour=INK)
            c.note(lanes["run_agent"] + 14, mid + 4, "run_tool lets it through", colour=ACCENT)
            for side in (-1, 1):  # run_tool, an open gate
                c.box(lanes["run_agent"] + 8 + side * 6 - 2, y - row + 4, 4, 14, fill=INK,
                      stroke=INK, rx=1, width=1)
    return c.svg()


FIGURES = {"15.1": every_way_out_and_stop, "15.2": a_single_stop}
