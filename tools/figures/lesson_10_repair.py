"""Lesson 10's figure: one record and the views made from it, from a power cut in a batch on the
lesson 10 reference."""
from __future__ import annotations

import contextlib

import lab
from tools.figures.canvas import ACCENT, GOOD, INK, LINE, PANEL, PAPER, Canvas
from tools.figures.observers import reference


def power_cut_views():
    """Lesson 10's power cut in the middle of a batch, on the lesson 10 reference: the record
    afterwards, and the view each request carried."""
    harness = reference("10.1")
    ws = lab.Workspace({"a.py": "A = 1\n", "b.py": "B = 2\n", "c.py": "C = 3\n"})
    read = harness.make_read_tool(ws)

    def read_or_lose_power(arguments):
        if arguments["path"] == "b.py":
            raise lab.PowerCut("power lost")
        return read["execute"](arguments)

    def answer(request):
        if request.messages[-1]["content"] == "Read all three.":
            return lab.reply(*[lab.call("read", {"path": p}) for p in ("a.py", "b.py", "c.py")])
        return lab.say("The power went during the reads.")

    model = lab.ScriptedModel([lab.forever(answer)])
    h = harness.Harness(model, "You look after a small project.",
                        [{**read, "execute": read_or_lose_power}])
    with contextlib.suppress(lab.PowerCut):
        for _ in h.prompt("Read all three."):
            pass
    record = list(h.messages)
    for _ in h.prompt("What happened?"):
        pass
    return harness, record, [request.messages for request in model.calls]


def one_record_many_views(title):
    harness, record, views = power_cut_views()
    answered = {m["tool_call_id"] for m in record if m["role"] == "toolResult"}
    unanswered = [b["id"] for m in record if m["role"] == "assistant"
                  for b in harness.tool_calls(m) if b["id"] not in answered]
    # then a row of space for the holes, drawn beside the column since nothing is written there,
    # and the user's next words
    rows = [(lab.shape([m]), "normal") for m in record] + [("", "hole"), ("U", "normal")]
    top, gap = 116, 40
    c = Canvas(top + gap * len(rows) + 40, title)
    c.text(30, 30, "record", bold=True)
    c.note(30, 46, "what happened: it only grows at the bottom; nothing in it is ever")
    c.note(30, 60, "crossed out, moved or filled in")
    for k, (token, state) in enumerate(rows):
        if state != "hole":
            c.chip(30, top + k * gap, token, state=state, h=24)
    hole = [k for k, (_, state) in enumerate(rows) if state == "hole"][0]
    c.bolt(34, top + hole * gap - 4, scale=1.1)
    c.note(56, top + hole * gap + 16, "power cut: " + ", ".join(unanswered)
           + " get no result, and nothing is written here", colour=ACCENT, italic=False)
    c.text(470, 30, "views", bold=True)
    c.note(470, 46, "what each request carries, made fresh by context_for_model")
    c.box(470, 56, 30, 18, fill=PANEL, rx=3, width=1)
    c.text(485, 69, "5", size=11, anchor="middle")
    c.note(506, 69, "lesson 5: leave out empty failed replies", colour=INK, size=11)
    c.box(470, 78, 30, 18, fill=PAPER, rx=3, stroke=ACCENT, width=1.6)
    c.text(485, 91, "10", size=11, anchor="middle", colour=ACCENT, bold=True)
    c.note(506, 91, "lesson 10: pair every call with one result", colour=ACCENT, size=11)
    # each request's view, level with the record as it stood when the request was made
    user_rows = [k for k, (token, _) in enumerate(rows) if token == "U"]
    for number, (k, view) in enumerate(zip(user_rows, views), 1):
        y = top + k * gap
        mid = y + 12
        if k:  # the request is made from the whole record
            c.bracket(22, top, 22, y + 24, depth=5, colour=LINE)
        c.arrow((64 if k else 60, mid), (246, mid))
        c.note(120, mid - 6, "context_for_model", italic=False, mono=True, size=10.5, colour=LINE)
        c.box(250, mid - 9, 30, 18, fill=PANEL, rx=3, width=1)
        c.text(265, mid + 4, "5", size=11, anchor="middle")
        c.arrow((280, mid), (292, mid))
        c.box(294, mid - 9, 30, 18, fill=PAPER, rx=3, stroke=ACCENT, width=1.6)
        c.text(309, mid + 4, "10", size=11, anchor="middle", colour=ACCENT, bold=True)
        c.arrow((324, mid), (338, mid))
        tokens = lab.shape(view).split()
        made = [m.get("content") == harness.INTERRUPTED for m in view]
        end = c.chips(340, y, tokens, states=["new" if x else "normal" for x in made], size=10.5,
                      h=24)
        c.note(340, y - 6, f"request {number}", colour=INK, italic=False, size=11)
        if any(made):
            first = 340 + c.chips_width(tokens[:made.index(True)], size=10.5) + 5
            c.note(first, y + 40, "INTERRUPTED, is_error: in the view only", colour=ACCENT,
                   size=11)
        if lab.validate(view) == []:
            c.tick_mark(end + 12, mid + 5)
            c.note(end + 26, mid + 4, "valid", colour=GOOD, italic=False)
        c.arrow((end + 62, mid), (770, mid))
    c.box(772, top - 10, 70, gap * len(rows) - 4, fill=PANEL, rx=14)  # square enough for the arrows
    c.text(807, top + gap * len(rows) / 2, "provider", size=12, anchor="middle", bold=True)
    c.note(340, top + gap * len(rows) + 16, "no arrow goes from a view back to the record: only "
           "the view is repaired", colour=INK)
    return c.svg()


FIGURES = {"10.1": one_record_many_views}
