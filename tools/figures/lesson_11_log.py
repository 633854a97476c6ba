"""Lesson 11's figure: a message on its way from the loop to the disk, with the log lines the
lesson 11 reference writes."""
from __future__ import annotations

import json

import lab
from tools.figures.canvas import ACCENT, LINE, MUTED, PANEL, PAPER, Canvas
from tools.figures.observers import reference


def session_lines():
    """The lines of session.jsonl after a run with one call, from the lesson 11 reference
    with persist_to listening."""
    harness = reference("11.1")
    ws = lab.Workspace({"app.py": "print('ok')\n"})
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "app.py"})),
                               lab.say("It prints ok.")])
    h = harness.Harness(model, "You look after a small project.", [harness.make_read_tool(ws)])
    h.subscribe(harness.persist_to(harness.SessionLog(ws, "session.jsonl")))
    for _ in h.prompt("What does app.py print?"):
        pass
    return ws.read_text("session.jsonl").splitlines()


def from_the_loop_to_the_disk(title):
    lines = session_lines()
    second = json.loads(lines[1])
    token = lab.shape([second["message"]])
    c = Canvas(470, title)
    lanes = {"loop": 60, "record": 130, "listeners": 200, "consumer": 270}
    names = {"loop": "run_agent, in _run", "record": "the harness's list", "listeners": "persist_to",
             "consumer": "your frontend"}
    for name, y in lanes.items():
        c.text(20, y + 4, name, bold=True)
        code = name in ("loop", "listeners")
        c.note(20, y + 19, names[name], mono=code, italic=not code, size=11)
        end = 600 if name in ("consumer", "record") else 840
        c.line((170, y), (end, y), colour="#d5dae1", width=1.2)
    c.line((600, lanes["record"]), (840, lanes["record"]), colour="#d5dae1", width=1.2,
           dash="2 6")
    c.note(610, lanes["record"] - 8, "gone with the process", colour=MUTED)
    c.chip(190, lanes["loop"] - 11, token)
    c.arrow((230, lanes["loop"] + 11), (268, lanes["record"] - 12))
    c.text(254, 100, "1 append", size=11.5, bold=True, colour=LINE)
    c.chip(270, lanes["record"] - 11, token, state="new")
    # _run hears of each message from run_agent; it tells the listeners, and only then yields
    c.label_box(340, lanes["loop"] - 12, 220, 24, "_run", size=11, mono=True, fill=PAPER)
    c.arrow((241, lanes["loop"]), (338, lanes["loop"]))
    c.note(248, lanes["loop"] - 6, "message_end", mono=True, italic=False, size=10.5,
           colour=LINE)
    c.arrow((395, lanes["loop"] + 12), (395, lanes["listeners"] - 14))
    c.text(403, 165, "2 notify", size=11.5, bold=True, colour=LINE)
    c.label_box(350, lanes["listeners"] - 12, 90, 24, "append_message", size=10.5, mono=True,
                fill=PAPER)
    c.arrow((395, lanes["listeners"] + 12), (395, 318))
    c.note(403, 300, "one new line", colour=LINE)
    c.arrow((535, lanes["loop"] + 12), (535, lanes["consumer"] - 13))
    c.text(543, 165, "3 yield", size=11.5, bold=True, colour=LINE)
    c.box(500, lanes["consumer"] - 11, 70, 22, fill=PANEL, rx=3, width=1)
    c.text(535, lanes["consumer"] + 4, "renders", size=11, anchor="middle")
    c.bolt(584, lanes["listeners"] + 12, scale=1.6)
    c.note(612, lanes["consumer"] + 4, "the power goes", colour=ACCENT)
    # the log on disk: lines are only ever added at the end
    y = 320
    c.text(20, y + 22, "session.jsonl", bold=True, mono=True, size=12)
    c.note(20, y + 38, "on disk", size=11)
    c.box(170, y, 670, 64, fill=PAPER, rx=2)
    c.box(172, y + 6, 666, 22, fill="#e4e7eb", rx=0, width=0, stroke="none")
    for k, line in enumerate(lines[:2]):
        shown = line if len(line) <= 96 else line[:93] + "..."
        c.text(180, y + 21 + k * 26, shown, size=10, mono=True,
               colour=MUTED if k == 0 else ACCENT, bold=k == 1)
    c.box(172, y + 33, 666, 24, fill="none", rx=2, stroke=ACCENT, width=1.4)
    c.note(838, y + 80, "earlier lines: never touched again; the log does not fade",
           anchor="end")
    # the next morning
    y = 412
    c.arrow((300, 386), (300, y + 18), (418, y + 18))
    c.text(308, y + 12, "replay()", size=11.5, mono=True, bold=True)
    c.box(420, y, 420, 40, fill=PANEL, rx=6, stroke=MUTED, dash="5 4")
    c.text(430, y + 25, "Harness(..., messages=log.replay())", size=11, mono=True)
    c.chips(700, y + 9, lab.shape([json.loads(x)["message"] for x in lines[:2]]).split(),
            h=22, size=10.5)
    return c.svg()


FIGURES = {"11.1": from_the_loop_to_the_disk}
