"""Lesson 3's figure: the loop, beside the list it grows in a run of the lesson 3 reference."""
from __future__ import annotations

import lab
from tools.figures.canvas import ACCENT, INK, MUTED, PANEL, PAPER, Canvas
from tools.figures.observers import Log, reference


def greeting_job():
    """Lesson 3's whole job, fix the greeting, run on the lesson 3 reference: the list after
    each append, and the list each request carried."""
    harness = reference("3.1")
    ws = lab.Workspace({"app.py": 'print("Helo, world")\n'})
    tools = [harness.make_read_tool(ws), harness.make_write_tool(ws),
             harness.make_bash_tool(lab.Shell(ws))]

    def careful(request):
        last = request.messages[-1]
        if last["role"] == "user":
            return lab.reply("I'll read it first.", lab.call("read", {"path": "app.py"}))
        if last["tool_name"] == "read":
            fixed = last["content"].replace("Helo", "Hello")
            return lab.reply(lab.call("write", {"path": "app.py", "content": fixed}))
        if last["tool_name"] == "write":
            return lab.reply("Checking it.", lab.call("bash", {"command": "cat app.py"}))
        return lab.say(f"Fixed. app.py now reads: {last['content'].strip()}")

    model = lab.ScriptedModel([lab.forever(careful)])
    log = Log()
    harness.run_agent(model, "You look after a small project.", log.record(), tools,
                      "Fix the greeting in app.py.")
    tokens = [token for kind, token in log if kind == "append"]
    shapes = [" ".join(tokens[:k + 1]) for k in range(len(tokens))]
    return shapes, [lab.shape(request.messages) for request in model.calls]


def the_loop_and_its_list(title):
    shapes, requests = greeting_job()
    rows_top, row_h = 70, 44
    c = Canvas(max(440, rows_top + row_h * len(shapes) + 20), title)
    # the loop
    c.label_box(110, 24, 200, 30, "append the prompt", rx=15, fill=PAPER)
    c.arrow((210, 54), (210, 88))
    c.box(22, 90, 350, 52, fill=PANEL)
    c.text(32, 110, "ask", bold=True)
    c.note(362, 110, "with the whole list", anchor="end", colour=INK)
    c.text(32, 131, "model.complete(system, messages, tool_specs(tools))", size=10.5, mono=True)
    c.box(232, 56, 112, 24, fill=PAPER, rx=3, stroke=ACCENT)
    c.text(288, 72, "system prompt", size=11, colour=ACCENT, anchor="middle")
    c.arrow((288, 82), (288, 89), colour=ACCENT)  # into ask's own argument, not the list's arrow
    c.arrow((195, 142), (195, 168))
    c.label_box(95, 170, 200, 32, "append the reply")
    c.arrow((195, 202), (195, 222))
    c.diamond(195, 262, 220, 80, "does its content hold calls?")
    c.arrow((195, 302), (195, 330))
    c.text(203, 320, "yes", size=12, bold=True)
    c.label_box(75, 332, 240, 46, "run each call in order, append each result")
    c.arrow((75, 355), (18, 355), (18, 116), (28, 116))
    c.arrow((305, 262), (353, 262), (353, 370))
    c.text(318, 254, "no", size=12, bold=True)
    c.label_box(322, 372, 62, 30, "return", rx=15, fill=PAPER)
    for k, words in enumerate(("has words", "says stop")):  # the exits a prediction ruled out
        y = 170 + k * 17
        c.arrow((296, y + 8), (310, y + 8), colour=MUTED, width=1.2)
        c.label_box(312, y, 72, 15, words, size=10.5, colour=MUTED, italic=True, fill=PAPER,
                    stroke=MUTED, dash="3 2", rx=3, width=1)
        c.strike(312, y + 8, 384, y + 8, width=1.2)
    c.note(20, 418, "struck: ending the run because a reply has words, or because its label "
           "says stop; a prediction ruled out both", width=350)
    # the list, after each append, and what each request carried
    c.text(400, 30, "the list, after each append", bold=True)
    c.note(400, 48, "new in colour; nothing removed, nothing reordered")
    sent = iter(requests)
    carried = next(sent, None)
    number = 1
    for i, shape in enumerate(shapes):
        y = rows_top + i * row_h
        tokens = shape.split()
        c.chips(470, y, tokens, states=["normal"] * (len(tokens) - 1) + ["new"], size=11)
        if shape == carried:
            c.bracket(462, y + 28, 470 + c.chips_width(tokens, size=11), y + 28, colour=ACCENT,
                      depth=-4)
            c.text(400, y + 16, f"request {number}", size=12, colour=ACCENT, bold=True)
            carried, number = next(sent, None), number + 1
        elif i == len(shapes) - 1:
            c.text(400, y + 16, "return", size=12, bold=True)
    return c.svg()


FIGURES = {"3.1": the_loop_and_its_list}
