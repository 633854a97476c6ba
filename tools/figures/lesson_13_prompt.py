"""Lesson 13's figure: where each section of the system prompt comes from, as the lesson 13
reference builds it."""
from __future__ import annotations

import drawsvg as dw

import lab
from tools.figures.canvas import INK, LINE, MUTED, PANEL, PAPER, ROLE_FILL, Canvas
from tools.figures.observers import reference


def prompt_sections():
    """The sections of a system prompt built by the lesson 13 reference from a workspace with
    three AGENTS.md files, two skills and its three tools."""
    harness = reference("13.1")
    ws = lab.Workspace({"AGENTS.md": "Run the tests with pytest -q.",
                        "services/AGENTS.md": "Every service has a README.",
                        "services/api/AGENTS.md": "This service talks to the billing database."})
    tools = [harness.make_read_tool(ws), harness.make_write_tool(ws),
             harness.make_bash_tool(lab.Shell(ws))]
    skills = [{"name": "migration", "description": "Write a database migration.",
               "path": "skills/migration.md"}]
    context = harness.discover_context(ws, "services/api")
    prompt = harness.build_system_prompt(tools, context, skills, "services/api", "2026-03-14")
    return prompt.split("\n\n"), [where for where, _ in context]


def where_the_prompt_comes_from(title):
    sections, context = prompt_sections()
    top, h, gap = 40, 30, 10
    c = Canvas(top + (h + gap) * len(sections) + 80, title)
    px, pw = 440, 335
    c.text(px, 26, "the prompt, top to bottom", bold=True)
    ys = []
    for k, section in enumerate(sections):
        y = top + k * (h + gap)
        ys.append(y + h / 2)
        first = section.split("\n")[0]
        words = first if len(first) <= 52 else first[:49] + "..."
        c.box(px, y, pw, h, fill=PAPER if k < len(sections) - 1 else ROLE_FILL["A"], rx=3)
        c.text(px + 8, y + 19, words, size=10, mono=True)
    bottom = top + (h + gap) * len(sections) - gap
    c.arrow((790, top), (790, bottom), axis=True)
    c.add(dw.Text("changes least to changes most", 11, 802, top + 4, fill=LINE,
                  font_style="italic", transform=f"rotate(90 802 {top + 4})"))
    c.bracket(824, top, 824, bottom - h - gap, depth=-5, colour=INK)
    c.add(dw.Text("shared from one day to the next", 11, 836, top + 4, fill=INK,
                  font_style="italic", transform=f"rotate(90 836 {top + 4})"))

    def at(word):
        return ys[next(k for k, s in enumerate(sections) if s.startswith(word))]

    def source(y, label, sub=None):
        c.box(20, y - 16, 150, 32 if not sub else 40, fill=PANEL, rx=4)  # wide enough for sub
        c.text(30, y + 2 if not sub else y - 1, label, size=12, bold=True)
        if sub:
            c.note(30, y + 15, sub, size=11)
        return y

    # the tools feed two sections; guidelines pass through a list that keeps each once
    y = source(at("Available tools"), "the tool list", "given to the harness")
    c.arrow((170, y - 4), (px - 2, at("Available tools")))
    c.note(300, at("Available tools") - 6, "each snippet", colour=LINE, size=11)
    g = at("Guidelines")
    c.shape((300, g - 12), (340, g - 12), (330, g + 8), (310, g + 8))
    c.arrow((170, y + 10), (302, g - 4))
    c.arrow((336, at("Guidelines") - 2), (px - 2, at("Guidelines")))
    c.note(180, at("Guidelines") + 20, "each guideline once, first seen first", colour=LINE,
           size=11)
    # the workspace: each AGENTS.md from the root down to cwd, broadest first
    blocks = [k for k, s in enumerate(sections) if s.startswith("<project_instructions")]
    y = source((ys[blocks[0]] + ys[blocks[-1]]) / 2, "the workspace")
    c.label_box(180, y - 14, 108, 28, "discover_context", size=10, mono=True, fill=PAPER)
    c.arrow((170, y), (178, y))
    for k, where in zip(blocks, context):
        c.box(296, ys[k] - 11, 134, 22, fill=PAPER, rx=2, width=1)
        c.text(302, ys[k] + 4, where, size=9, mono=True)
        c.arrow((288, y), (294, ys[k]))
        c.arrow((430, ys[k]), (px - 2, ys[k]))
    # the skills: an index, and only when a tool named read can load them
    y = source(at("Skills"), "the skills list")
    c.arrow((170, y), (300, y))
    c.box(302, y - 12, 20, 24, fill=PAPER, rx=2)
    c.line((306, y - 12), (306, y + 12), colour=INK, width=1)
    c.line((318, y - 12), (318, y + 12), colour=INK, width=1)
    c.arrow((322, y), (px - 2, y))
    c.note(px - 8, y + 26, "only if a tool is named read", colour=LINE, size=11, anchor="end")
    # the caller: the folder and the date, last
    y = source(at("Current date"), "the caller", "passes cwd and today")
    c.arrow((170, y - 2), (px - 2, at("Current date")))
    # what the builder never reads
    y = bottom + 40
    for k, thing in enumerate(("the clock", "the disk", "a prompt typed once")):
        x = 20 + k * 150
        c.box(x, y - 14, 130, 26, fill=PAPER, rx=4, stroke=MUTED, dash="4 3")
        c.text(x + 65, y + 3, thing, size=11.5, colour=MUTED, anchor="middle")
        c.strike(x, y + 12, x + 130, y - 14)
    c.note(470, y + 3, "never read by the builder: equal arguments give equal bytes",
           colour=INK, size=11.5)
    return c.svg()


FIGURES = {"13.1": where_the_prompt_comes_from}
