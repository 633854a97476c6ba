"""Lesson 7's figure: the twelve events of a run with one call, from a run of the lesson 7
reference."""
from __future__ import annotations

import lab
from tools.figures.canvas import ACCENT, INK, LINE, MUTED, PANEL, PAPER, WIDTH, Canvas, text_width
from tools.figures.observers import Log, reference


def one_call_run():
    """Lesson 7's run with one call, on the lesson 7 reference, logged."""
    harness = reference("7.1")
    log = Log()
    ws = lab.Workspace({"app.py": "print('ok')\n"})
    model = log.model(lab.ScriptedModel([lab.reply(lab.call("read", {"path": "app.py"})),
                                         lab.say("It prints ok.")]))
    messages = log.record()
    for event in harness.run_agent(model, "You look after a small project.", messages,
                                   [log.tool(harness.make_read_tool(ws))],
                                   "What does app.py print?"):
        log.append(("event", event))
    return log


def twelve_events(title):
    log = one_call_run()
    events = [detail for kind, detail in log if kind == "event"]
    assert len(events) == 12, f"a run with one call gave {len(events)} events"
    top, row = 96, 27
    c = Canvas(top + row * len(log) + 40, title)
    rec_x, run_x, con_x = 70, 330, 610
    c.text(rec_x, 28, "record", bold=True, anchor="middle")
    c.note(rec_x, 44, "the caller's list", anchor="middle")
    c.text(run_x, 28, "run_agent", bold=True, mono=True, anchor="middle")
    c.text(con_x, 28, "consumer", bold=True, anchor="middle")
    c.note(con_x, 44, "your frontend's code runs", anchor="middle")
    c.box(run_x - 90, 54, 10, 14, fill=INK, rx=1, stroke=INK)
    c.note(run_x - 76, 65, "running", colour=INK)
    c.box(run_x + 10, 54, 10, 14, fill=PAPER, rx=1, stroke=INK)
    c.note(run_x + 24, 65, "waiting at its yield", colour=INK)
    c.line((rec_x, 74), (rec_x, top + row * len(log)), colour="#d5dae1", width=1.2)
    c.line((con_x, 74), (con_x, top + row * len(log)), colour="#d5dae1", width=1.2)
    turns = 0
    last_turn_end = max(i for i, (kind, detail) in enumerate(log)
                        if kind == "event" and detail["type"] == "turn_end")
    for i, (kind, detail) in enumerate(log):
        y = top + i * row
        mid = y + row / 2
        waiting = kind == "event"
        c.box(run_x - 5, y, 10, row, fill=PAPER if waiting else INK, rx=0, stroke=INK, width=1)
        if kind == "event":
            heavy = detail["type"] == "agent_end"
            colour = ACCENT if heavy else LINE
            c.arrow((run_x + 8, mid), (con_x - 54, mid), colour=colour, width=3 if heavy else 1.5)
            c.text(run_x + 16, mid - 4, detail["type"], size=11.5, mono=True, colour=colour,
                   bold=heavy)
            c.box(con_x - 50, y + 3, 100, row - 6, fill=PANEL, rx=3, stroke="#c3cad3", width=1)
            if detail["type"] == "message_end":
                c.chip(run_x + 112, y + 3, lab.shape([detail["message"]]), h=18, size=10.5)
            if heavy:
                c.chips(con_x + 60, y + 3, lab.shape(detail["messages"]).split(), h=18,
                        size=10.5)
                c.note(WIDTH - 12, y + row + 12, "agent_end carries what the run added, its "
                       "answer last", colour=ACCENT, anchor="end")
            if detail["type"] == "turn_start":
                turns += 1
                c.note(run_x - 14, mid + 4, f"turn {turns}", anchor="end", colour=INK)
        elif kind == "append":
            c.chip(rec_x - c.chip_width(detail, 11) / 2, y + 3, detail, h=row - 6, size=11,
                   state="new")
            c.line((run_x - 8, mid), (rec_x + 34, mid), colour=INK, dash="2 3", width=1)
            c.note(run_x - 14, mid - 4, "append", anchor="end", colour=INK)
        else:
            label = "model.complete" if kind == "model" else "run_tool"
            c.box(run_x + 12, y + 3, 120, row - 6, fill=PANEL, rx=3)
            c.text(run_x + 72, mid + 4, label, size=11, mono=True, anchor="middle")
            if kind == "tool" and log[i + 1][0] == "append":
                c.bracket(run_x + 150, y + 2, run_x + 150, y + 2 * row - 2, depth=-6,
                          colour=ACCENT, width=2)
                said = ("no yield here: the result is on the",
                        "record before anyone can walk away")
                c.clearing(run_x + 158, y + row - 8,
                           max(text_width(line, 11.5) for line in said) + 8, 32)
                c.note(run_x + 162, y + row + 4, said[0],
                       colour=ACCENT, italic=False, size=11.5)
                c.note(run_x + 162, y + row + 18, said[1],
                       colour=ACCENT, italic=False, size=11.5)
        if i == last_turn_end:
            for k, name in enumerate(("max_turns", "failed reply")):  # lesson 5's other ends
                by = y - row + 10 + k * row  # beside the rows with no line to the record
                c.box(110, by - 14, 88, 22, fill=PAPER, dash="4 3", stroke=MUTED, rx=3)
                c.text(154, by + 1, name, size=11, anchor="middle", colour=MUTED)
                c.line((198, by - 3), (run_x - 8, y - 4), colour=MUTED, dash="4 3")
            c.note(110, y + 36, "lesson 5's other exits", colour=MUTED)
            c.note(110, y + 50, "leave through this turn_end", colour=MUTED)
    return c.svg()


FIGURES = {"7.1": twelve_events}
