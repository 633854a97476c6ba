"""Lesson 16's figures: one reply's lines on a timeline, fragments grouped by index, and a Stop
while the provider is silent; the lines come from lab.stream_lines, the calls from the lesson 16
reference's assemble, and the looks from a run of its StreamingModel."""
from __future__ import annotations

import asyncio
import json

import lab
from tools.figures.canvas import ACCENT, GOOD, INK, MUTED, PANEL, PAPER, Canvas
from tools.figures.observers import reference

ROW = 30  # the height of one line of the stream


def delta_of(line):
    """What one line carries, in a few characters: the part of its chunk that is not packaging
    (the id, object, created, model and fingerprint every chunk repeats)."""
    if line == "data: [DONE]":
        return line, "end"
    if not line.startswith("data: {"):
        return line, "nothing"
    chunk = json.loads(line[len("data: "):])
    choice = chunk["choices"][0]
    if choice.get("finish_reason"):
        return f'delta: {{}}, finish_reason: "{choice["finish_reason"]}"', "finish"
    delta = choice["delta"]
    said = []
    if "role" in delta:
        said.append(f'role: "assistant", content: {json.dumps(delta["content"])}')
    if "tool_calls" in delta:
        part = delta["tool_calls"][0]
        arguments = json.dumps(part["function"]["arguments"])
        if "id" in part:
            said.append(f'index {part["index"]}, id {part["id"]}, name '
                        f'{part["function"]["name"]}, {arguments}')
        else:
            said.append(f'tool_calls: index {part["index"]}, {arguments}')
        return ", ".join(said), "call"
    if "role" in delta:
        return said[0], "nothing"
    return f'content: {json.dumps(delta["content"])}', "words"


def one_reply_on_the_wire(title):
    """A reply that opens with a call, as OpenAI streams it (lab.SERVERS["openai"]): the role,
    "content": null and the call's first fragment share the first chunk; the later fragments
    hold only tool_calls."""
    message = lab.reply(lab.call("read", {"path": "a.py"}, id="call_1"))
    lines = lab.stream_lines(message, piece=8, real="openai")
    lines.insert(1, ": keep-alive")
    top, x, w = 70, 96, 470
    c = Canvas(top + ROW * len(lines) + 20, title)
    c.text(x, 36, "each line in the order it arrives, and what its chunk carries", bold=True,
           size=13)
    kinds = []
    for n, line in enumerate(lines):
        y = top + n * ROW
        shown, kind = delta_of(line)
        kinds.append(kind)
        faint = kind == "nothing"
        stroke = {"call": ACCENT, "finish": GOOD}.get(kind, MUTED if faint else INK)
        c.box(x, y, w, ROW - 6, fill=PAPER if faint else PANEL, stroke=stroke,
              dash="4 3" if faint else None, rx=4, width=1.3)
        c.text(x + 8, y + 16, shown, size=10.5, mono=True, colour=MUTED if faint else INK)
        c.text(x - 10, y + 16, str(n + 1), size=11, anchor="end", colour=MUTED)
    groups = [("the role, null content and the first fragment", [0]),
              ("a comment: skipped", [1]), ("the rest of its arguments", [2, 3]),
              ("the finish: the reply is whole", [4]), ("the end of the stream", [5])]
    if len(lines) != 6:
        raise ValueError(f"Figure 16.1 draws six lines; the recording gave {len(lines)}")
    for words, rows in groups:
        y1, y2 = top + rows[0] * ROW + 2, top + rows[-1] * ROW + ROW - 8
        kind = kinds[rows[0]]
        colour = {"call": ACCENT, "finish": GOOD, "nothing": MUTED}.get(kind, INK)
        c.bracket(x + w + 18, y1, x + w + 18, y2, colour=colour, depth=-6)
        c.text(x + w + 30, (y1 + y2) / 2 + 4, words, size=12, colour=colour,
               italic=kind == "nothing")
    return c.svg()


FRAGMENTS = [(0, '{"path', "c1", "read"), (1, '{"comm', "c2", "bash"),
             (0, '": "app.py"}', None, None), (1, 'and": "pytest"}', None, None)]


def chunk_of(index, text, call_id, name):
    piece = {"index": index, "function": {"arguments": text}}
    if call_id is not None:
        piece.update(id=call_id, type="function")
        piece["function"]["name"] = name
    return {"choices": [{"index": 0, "delta": {"tool_calls": [piece]}}]}


def grouped_by_index(title):
    harness = reference("16.1")
    chunks = [chunk_of(*fragment) for fragment in FRAGMENTS]
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    calls = harness.tool_calls(harness.assemble(chunks))
    c = Canvas(330, title)
    c.text(30, 34, "fragments, in the order they arrive", bold=True, size=13)
    c.text(500, 34, "the calls, one per index", bold=True, size=13)
    left, w, h = 30, 300, 48
    bins = {0: (500, 70), 1: (500, 200)}
    for n, (index, text, call_id, name) in enumerate(FRAGMENTS):
        y = 60 + n * 62
        colour = ACCENT if index == 1 else INK
        c.box(left, y, w, h, fill=PANEL, stroke=colour, rx=4)
        head = f"index {index}" + (f", id {call_id}, name {name}" if call_id else ", no id")
        c.text(left + 10, y + 19, head, size=11, mono=True, colour=colour, bold=True)
        c.text(left + 10, y + 37, repr(text), size=11, mono=True)
        bx, by = bins[index]
        c.arrow((left + w + 2, y + h / 2), (bx - 2, by + 34 + (n // 2) * 16),
                colour=colour, width=1.4)
    for call in calls:
        index = [f[2] for f in FRAGMENTS if f[2]].index(call["id"])
        bx, by = bins[index]
        colour = ACCENT if index == 1 else INK
        c.box(bx, by, 330, 86, fill=PAPER, stroke=colour, rx=6, width=1.6)
        c.text(bx + 12, by + 22, f"index {index}: {call['name']}({call['id']})", size=12.5,
               mono=True, bold=True, colour=colour)
        parts = [f[1] for f in FRAGMENTS if f[0] == index]
        c.text(bx + 12, by + 44, "joined: " + " + ".join(repr(p) for p in parts), size=10.5,
               mono=True)
        c.text(bx + 12, by + 68, "parsed once: " + json.dumps(call["arguments"]), size=11,
               mono=True, colour=GOOD)
    c.note(30, 318, "only the first fragment names its call; here every fragment carries its index",
           colour=INK)
    return c.svg()


def a_stop_run():
    """The lesson 16 reference's StreamingModel on a provider that sends two lines and then
    nothing: the loop turns at which it looked at the signal, the turn of Stop, and the turn it
    returned. Returns (lines' turns, looks per turn, stop turn, end turn, reply, left open)."""
    harness = reference("16.2")

    async def run():
        provider = lab.FakeProvider([['data: {"choices": [{"index": 0, "delta": {"content": '
                                      '"Let"}}]}', 'data: {"choices": [{"index": 0, "delta": '
                                      '{"content": " me"}}]}', lab.HANG]])
        looks, turn = {}, [0]

        class Watched(harness.CancelToken):
            def is_cancelled(self):
                looks[turn[0]] = looks.get(turn[0], 0) + 1
                return super().is_cancelled()

        token, box = Watched(), {}

        async def ask():
            box["reply"] = await harness.StreamingModel(provider).acomplete(
                "You help.", [harness.user_message("Plan it.")], [], token)
        task = asyncio.ensure_future(ask())
        stop_at = 7
        while not task.done():
            await lab.tick()
            turn[0] += 1
            if turn[0] == stop_at:
                token.cancel()
        return looks, stop_at, turn[0], box["reply"], len(provider.open_responses())

    return asyncio.run(run())


def a_stop_mid_stream(title):
    looks, stop_at, end, reply, left_open = a_stop_run()
    c = Canvas(300, title)
    x0, step = 150, 58
    lanes = {"provider": 90, "acomplete": 150, "the user": 210}
    right = x0 + step * (stop_at + 0.5)
    silent_from = x0 + 2 * step + 22  # after the provider's last line, its lane is empty
    for name, y in lanes.items():
        c.text(x0 - 24, y + 4, name, size=12, bold=True, anchor="end", mono=name == "acomplete")
        c.line((x0 - 12, y), (silent_from if name == "provider" else right, y),
               colour="#d5dae1", width=1.2)
    for t in range(stop_at + 1):
        x = x0 + t * step
        c.text(x, 52, f"turn {t}", size=11, anchor="middle", colour=MUTED)
        if t in (1, 2):
            c.box(x - 22, lanes["provider"] - 13, 44, 26, fill=PANEL, rx=4)
            c.text(x, lanes["provider"] + 4, '"Let"' if t == 1 else '" me"', size=10.5,
                   mono=True, anchor="middle")
        count = looks.get(t, 0)
        for n in range(count):
            stopped = t >= stop_at
            c.circle(x + (n - (count - 1) / 2) * 13, lanes["acomplete"], 5,
                     stroke=ACCENT if stopped else INK, fill=ACCENT if stopped else PAPER,
                     width=1.6)
    c.note(silent_from + 12, lanes["provider"] + 4, "silence: no line comes, ever",
           size=11.5)
    stop_x = x0 + stop_at * step
    c.line((stop_x, 64), (stop_x, lanes["the user"] - 14), colour=ACCENT, dash="6 4")
    c.box(stop_x - 30, lanes["the user"] - 13, 60, 26, fill=PAPER, stroke=ACCENT, rx=4)
    c.text(stop_x, lanes["the user"] + 4, "Stop", size=12, bold=True, colour=ACCENT,
           anchor="middle")
    box_x = stop_x + 40
    c.box(box_x, lanes["acomplete"] - 16, 846 - box_x, 32, fill=PAPER, stroke=ACCENT, rx=4)
    c.text(box_x + 10, lanes["acomplete"] + 5, f"{lab.shape([reply])}, {words_of(reply)}",
           size=11, mono=True, colour=ACCENT)
    c.arrow((stop_x + 9, lanes["acomplete"]), (box_x - 2, lanes["acomplete"]), colour=ACCENT)
    closed = "closed" if left_open == 0 else "left open"
    c.note(box_x, lanes["acomplete"] + 34, f"the response is {closed}", colour=ACCENT,
           size=11.5)
    c.note(x0 - 12, 256, "each circle is a look at the flag, hollow while it is clear: at least "
           "one in every turn, lines or none", colour=INK, size=11.5)
    c.note(x0 - 12, 280, "a reader that waits for the next line looks only when one arrives, "
           "and would still be waiting", colour=INK, size=11.5)
    return c.svg()


def words_of(reply):
    return "words " + json.dumps("".join(b["text"] for b in reply["content"]
                                         if b["type"] == "text"))


FIGURES = {"16.1": one_reply_on_the_wire, "16.2": grouped_by_index, "16.3": a_stop_mid_stream}
