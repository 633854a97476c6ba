"""Lab 13.1's grading bank: scenarios for each rule of its ledger (source/lessons/13-prompt/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario reaches its rule through another door than the public tests: the prompt as a
model reads it off its requests, run after run, with the tools switched on and off between
runs; the tool keys as tool_specs and the prompt show them for every set of the three tools;
AGENTS.md files a model writes with the write tool during a run, found after it; every folder
on the way asked in turn, from the deepest up, then again once the files changed. So the public
tests' wanted expressions, evaluated in a bank test's frame, do not give its values.
"""
import builtins
import copy
import datetime
import json
import os
import platform
import re
import sys
import tempfile
import time
import zlib

import harness
import lab
from lab.kit import Everywhere, Noted, NotedList, lab_test, tool

LAB = "13.1"
SYSTEM = "You look after a small shop's code."
TOOL_NAMES = ["pack", "mail", "sort", "ping", "plot", "tag", "sync", "scan", "vote", "trim"]
SNIPPETS = ["Bundle some files", "Send a note", "Order the lines", "Reach a server",
            "Draw a chart", "Label a commit", "Mirror a folder", "Look for secrets"]
ADVICE = ["Say what you will change.", "Work in small steps.", "Keep the tests green.",
          "Leave vendored code alone.", "Prefer the standard library.", "Cite the file you read.",
          "Check the diff before you finish.", "Write the changelog last.",
          "Never push to main.", "Ask when a name is unclear.", "Keep lines under 100.",
          "Quote error messages whole.", "Mention slow tests.", "Keep secrets out of logs.",
          "Use the project's formatter.", "Close what you open."]
WORDS = ["deploy", "on", "fridays", "never", "keep", "the", "ledger", "small", "run", "make",
         "check", "first", "tabs", "not", "spaces", "billing", "is", "fragile"]
# Folder names: some sort before "AGENTS.md" as strings (a digit first, or A then a letter
# before G), so a walk and a sort of the paths give different orders.
EARLY = ["2025", "10x", "ADR", "ACME", "0ps", "AB"]
LATER = ["shop", "api", "web", "billing", "core", "jobs", "Tools", "docs", "v3"]
SKILLS = [{"name": n, "description": d, "path": f"skills/{n}.md"} for n, d in (
    ("triage", "Sort new issues."), ("backport", "Carry a fix to an old branch."),
    ("profile", "Find where the time goes."), ("changelog", "Write the release notes."),
    ("onboard", "Explain the project to a newcomer."), ("rotate", "Rotate a leaked key."))]


def described(name, snippet=None, guidelines=None):
    """A test tool with the two optional keys, when given, and a description of two sentences."""
    made = tool(name, lambda arguments: "done", description=f"Use {name} here. It is quick.")
    if snippet is not None:
        made["snippet"] = snippet
    if guidelines is not None:
        made["guidelines"] = guidelines
    return made


def pieces(description):
    """A description whole, and each of its sentences and clauses, without their full stops."""
    return [description.rstrip(".")] + [piece.strip().rstrip(".") for piece in
                                        description.replace("; ", ". ").split(". ")]


def held(value):
    """Every dict and list in `value`, itself included, however deep."""
    found = []
    if isinstance(value, (dict, list)):
        found.append(value)
        for part in value.values() if isinstance(value, dict) else value:
            found += held(part)
    return found


def said_twice(line):
    """Whether a line says more than one sentence: inside it, a sentence's end (a full stop,
    question mark or exclamation mark, a closing quote or bracket after it) followed by a space
    and a capital letter, unless what stands before the mark is a single letter or an
    abbreviation such as e.g., i.e., etc. or vs."""
    return any(not re.fullmatch(r"(?:[A-Za-z]\.)*[A-Za-z]|etc|vs|Mr|Mrs|Ms|Dr|St|No",
                                found.group(1).strip("\"'`(["))
               for found in re.finditer(r"(\S*?)[.!?]+[\"')\]]*\s+(?=[A-Z])", line))


def same_sums(t):
    """Two pairs of different guidelines, each pair of one length and one checksum: the first
    the same CRC-32, the second the same Adler-32, drawn under the seed (hunt round 40,
    r204-73). Only the same characters make the same guideline."""
    base = "".join(t.random.choice("xy") for _ in range(40))
    rows, chosen = {}, 0
    for i in range(40):  # x <-> y at one place is a fixed change to the CRC: find a set that cancels
        other = base[:i] + ("y" if base[i] == "x" else "x") + base[i + 1:]
        change, chosen = zlib.crc32(base.encode()) ^ zlib.crc32(other.encode()), 1 << i
        while change and change.bit_length() - 1 in rows:
            row = rows[change.bit_length() - 1]
            change, chosen = change ^ row[0], chosen ^ row[1]
        if not change:
            break
        rows[change.bit_length() - 1] = (change, chosen)
    twin = "".join(("y" if c == "x" else "x") if chosen >> i & 1 else c for i, c in enumerate(base))
    pad, at = "".join(t.random.choice("klmnop") for _ in range(16)), t.random.randint(1, 15)
    word = t.random.choice(WORDS)
    return [(f"Name it {base}.", f"Name it {twin}."),
            (f"Mind {word} {pad[:at]}deed{pad[at:]}.", f"Mind {word} {pad[:at]}edde{pad[at:]}.")]


def old_day(t):
    """A date no clock will show while this course runs, written out as a person writes it."""
    return f"{t.random.randint(1, 28)} {t.random.choice(['May', 'June', 'August'])} " \
           f"{t.random.randint(1980, 2015)}"


def block(system, heading):
    """The lines under the line `heading` in a prompt, up to the next blank line; None when no
    line of the prompt is `heading`."""
    lines = system.split("\n")
    if heading not in lines:
        return None
    below = lines[lines.index(heading) + 1:]
    return below[:below.index("")] if "" in below else below


def told(system, skills):
    """What a model reads off its system prompt: the opening line's words (more than two?) and
    whether it holds a digit, each section's place in the text, the tool and guideline lines,
    the context files (path, text), the skills index's lines and whether the sentence over
    them has three words or more, and the last two lines."""
    first = system.split("\n")[0]
    files = re.findall(r'<project_instructions path="([^"]*)">\n(.*?)\n</project_instructions>',
                       system, flags=re.S)
    lines = system.split("\n")
    paths = tuple(f"({k['path']})" for k in skills)  # one endswith over all: prompts run long
    index = [line for line in lines if line.endswith(paths)]
    start = end = lines.index(index[0]) if index else 0
    while start and lines[start - 1]:  # the lines of the section above the first skill's
        start -= 1
    over = " ".join(lines[start:end])
    marks = ["Available tools:", "Guidelines:", "<project_instructions",
             lines[start] if over else "\0", "Current date:"]
    places = [system.find(mark) for mark in marks]
    return {"opening": len(first.split()) >= 3,
            "order": [n for n, _ in sorted(((n, p) for n, p in enumerate(places) if p >= 0),
                                           key=lambda pair: pair[1])],
            "tools": block(system, "Available tools:"),
            "guidelines": block(system, "Guidelines:"),
            "files": [list(pair) for pair in files],
            "skills": [len(over.split()) >= 3, index] if index else None,
            "last": system.split("\n")[-2:]}


def teller(skills):
    """A model that answers each request with what it was told, as JSON, so the run's record
    carries the prompt as the model read it."""
    return lab.forever(lambda request: lab.say(json.dumps(told(request.system, skills))))


def answers(messages):
    return [json.loads(harness.text_of(m)) for m in messages if m["role"] == "assistant"]


# --- rule 1: the tool keys --------------------------------------------------------------------

@lab_test("A model handed the three tools reads, on each request of two runs, a line for each "
          "tool in the system prompt that is not the description the request carries for it, "
          "nor a sentence or clause of it, and one guideline line fewer than the three tools "
          "have, the shared one said once.")
async def test_bank_a_model_reads_snippets_not_descriptions(t):
    ws = lab.Workspace({"notes.txt": " ".join(t.random.sample(WORDS, 5)) + "\n"})
    made = [harness.make_read_tool(ws), harness.make_write_tool(ws),
            harness.make_bash_tool(lab.Shell(ws))]
    t.random.shuffle(made)
    prompt = harness.build_system_prompt(made, [], [], "/srv/" + t.random.choice(LATER),
                                         old_day(t))

    def check(request):
        seen = []
        for spec in request.tools:
            lines = [line for line in request.system.split("\n")
                     if line.startswith(f"- {spec['name']}: ")]
            seen.append([spec["name"], len(lines), any(
                line.split(": ", 1)[1].strip().casefold().startswith(piece.casefold())
                for line in lines for piece in pieces(spec["description"].replace(", ", ". "))
                if len(piece.split()) >= 3)])
        said = [line.split(": ", 1)[1] for line in block(request.system, "Available tools:")
                or [] if ": " in line]
        seen.append(len(block(request.system, "Guidelines:") or []))
        seen.append(len(set(said)))
        seen.append([line for line in block(request.system, "Guidelines:") or []
                     if said_twice(line[2:])])
        return lab.say(json.dumps(seen))
    model = lab.ScriptedModel([lab.forever(check)])
    h = harness.Harness(model, prompt, made)
    for ask in t.random.sample(["What is here?", "Anything new?", "Read notes.txt."], 2):
        await lab.drive(h.prompt(ask))
    names = [x["name"] for x in made]
    t.expect([lab.shape(h.messages), answers(h.messages)],
             ["U A U A", [[[name, 1, False] for name in names] + [4, 3, []]] * 2],
             "Two runs of a harness made with read, write and bash in the drawn order "
             f"{names}, its prompt built from them; the model answered each request with, for "
             "each tool the request carried: [name, how many lines of the system prompt begin "
             "'- NAME: ', whether that line's text is or opens with the tool's description or "
             "a sentence or clause of it], then how many lines the Guidelines: section has (2 + "
             "2 + 1, the sentence read and write share said once), then how many different "
             "texts the tool lines have (each tool's snippet is its own), then the guideline "
             "lines that say more than one sentence (each guideline is one sentence, Build item "
             "1). Items: [the record, the model's answers].")


@lab_test("For every set of the three factories, each made over a workspace of its own, "
          "tool_specs describes each tool in words the prompt's line for it does not repeat, "
          "and the prompt has one guideline line fewer whenever read and write are both in it.")
async def test_bank_every_set_of_the_factories(t):
    sets = [["read"], ["write"], ["bash"], ["read", "write"], ["read", "bash"],
            ["write", "bash"], ["read", "write", "bash"]]
    t.random.shuffle(sets)
    found = []
    for names in sets:
        ws = lab.Workspace({f"{t.random.choice(LATER)}/a.txt": "a\n"})
        made = {"read": lambda: harness.make_read_tool(ws),
                "write": lambda: harness.make_write_tool(ws),
                "bash": lambda: harness.make_bash_tool(lab.Shell(ws))}
        tools = [made[name]() for name in t.random.sample(names, len(names))]
        prompt = harness.build_system_prompt(tools, [], [], ".", old_day(t))
        said = {line.split(": ", 1)[0][2:]: line.split(": ", 1)[1]
                for line in block(prompt, "Available tools:") or []}
        found.append([sorted(names), sorted({type(x.get("guidelines")).__name__ for x in tools}),
                      len(block(prompt, "Guidelines:") or []),
                      sorted(said), sorted(spec["name"] for spec in harness.tool_specs(tools)
                                           if said.get(spec["name"], "").strip().rstrip(".")
                                           in pieces(spec["description"])),
                      # made again, each tool is a new dict with a guidelines list of its own,
                      # and parameters whose dicts and lists are all its own
                      [[x.get("guidelines") is not y.get("guidelines"),
                        not {id(z) for z in held(x.get("parameters"))} &
                        {id(z) for z in held(y.get("parameters"))}]
                       for x, y in ((x, made[x["name"]]()) for x in tools)],
                      # a snippet that says something of its own, guidelines that say something
                      sorted(x["name"] for x in tools if not str(x.get("snippet", "")).strip() or
                             any(piece.casefold() in str(x.get("snippet")).casefold()
                                 for piece in pieces(x["description"].replace(", ", ". "))
                                 if len(piece.split()) >= 3) or
                             not all(str(line).strip() for line in x.get("guidelines") or [""])
                             or not set(str(x.get("snippet", "")).casefold().replace(".", " ")
                                        .split()) - {x["name"], "tool", "tools", "the", "a",
                                                     "an", "this", "its"}
                             or not all(isinstance(line, str) and "\n" not in line
                                        and len(line) <= 200
                                        for line in x.get("guidelines") or [""])
                             or any(said_twice(line[2:]) for line in
                                    block(prompt, "Guidelines:") or []
                                    if line[2:] in (x.get("guidelines") or [])))])
    size = {"read": 2, "write": 2, "bash": 1}
    t.expect(found, [[sorted(names), ["list"], sum(size[n] for n in names) -
                      ("read" in names and "write" in names), sorted(names), [],
                      [[True, True]] * len(names), []]
                     for names in sets],
             "For each set of the factories' tools: [its names, the types of their guidelines "
             "(lists), how many guideline lines the "
             "prompt built from them has (read 2, write 2, bash 1, the one read and write share "
             "once), the names the prompt's Available tools: lines give, the tools whose line "
             "there is the description tool_specs sends for them, or a sentence or clause of "
             "it, for each tool [whether its guidelines are another list than a second call of "
             "its factory gives, whether its parameters and every dict and list inside them "
             "are other objects than that call's], the tools whose snippet is blank or holds a "
             "sentence or clause of their description anywhere, or only their name (with the "
             "word tool or an article at most), or one of "
             "whose guidelines is blank, or holds a line break, or runs past 200 characters, or says "
             "more than one sentence on its line of the prompt]. "
             "Lesson 13, Build item 1: \"Each call of a factory returns a new dict, with lists "
             "and dicts of its own, its `parameters` included\"; \"Each guideline is one "
             "sentence on one line, 200 characters at most\".")


# --- rule 2: discover_context -----------------------------------------------------------------

def way(t):
    """A folder path of two to four names, one of which sorts before "AGENTS.md", and one with a
    space at its start or end, which is part of its name (kill round 34, probe r189-P5)."""
    names = t.random.sample(LATER, t.random.randint(1, 3))
    spaced = t.random.randrange(len(names))
    names[spaced] = t.random.choice([f" {names[spaced]}", f"{names[spaced]} "])
    names.insert(t.random.randint(0, len(names)), t.random.choice(EARLY))
    return names


def early(names):
    """The depth of the folder in `names` that sorts before "AGENTS.md": the file at that depth
    and the one below it sort the other way round as strings."""
    return next(n for n, name in enumerate(names) if name in EARLY)


def rules_text(t):
    """An AGENTS.md text as editors save it: a line with spaces at its end, Windows or Unix
    line ends, a final line break."""
    end = t.random.choice(["\r\n", "\n"])
    return end.join([" ".join(t.random.sample(WORDS, 4)) + ".  ",
                     " ".join(t.random.sample(WORDS, 3)) + "."]) + end


class Corrupt(Exception):
    """What a workspace of the caller's own may raise reading a file: a class of its own."""


# What reading an AGENTS.md may raise: no permission, a broken disk or link, bytes that are not
# UTF-8, and errors of a workspace's own. Each is an Exception, so a walk that swallows one
# swallows it.
CANNOT = [lambda: PermissionError(13, "Permission denied"),
          lambda: OSError(5, "Input/output error"),
          lambda: ConnectionResetError("the shared drive went away"),
          lambda: UnicodeDecodeError("utf-8", b"\xfe\xff", 0, 1, "invalid start byte"),
          lambda: Corrupt("the file's blocks are damaged"),
          lambda: LookupError("no such inode"), lambda: MemoryError("the file is too big"),
          lambda: FileNotFoundError(2, "No such file or directory"),
          lambda: IsADirectoryError(21, "Is a directory")]


class Guarded(lab.Workspace):
    """lab.Workspace, where a file can be locked: exists() still says it is there, and read_text
    raises the error locked on it, as a disk does for a file without permission or of bytes
    that are not text."""

    def __init__(self, files=None):
        super().__init__(files)
        self.locked = {}

    def read_text(self, path):
        key = "/".join(p for p in str(path).split("/") if p not in ("", "."))
        if key in self.locked:
            raise self.locked[key]
        return super().read_text(path)


def spelled(t, names):
    return t.random.choice(["./" + "/".join(names), "/".join(names) + "/",
                            "/./".join(names), "//".join(names) + "/."])


@lab_test("AGENTS.md files a model writes with the write tool during a run, on the way to cwd, "
          "beside it and below it, an empty one included, are found once the run is over, "
          "broadest first, with the texts the model wrote; a search before the run found only "
          "what was there then.")
async def test_bank_instructions_written_during_a_run(t):
    names = way(t)
    root = rules_text(t)
    ws = Guarded({"AGENTS.md": root, "/".join(names + ["main.py"]): "print(1)\n"})
    before = harness.discover_context(ws, spelled(t, names))
    k = early(names)
    # the root's when k is 0, and cwd's own, below every folder of the way
    levels = sorted({k, k + 1, t.random.randint(1, len(names)), len(names)})
    texts = {level: rules_text(t) for level in levels}
    texts[t.random.choice([n for n in levels if n])] = ""  # an empty file is still on the way
    paths = {level: "".join(f + "/" for f in names[:level]) + "AGENTS.md" for level in levels}
    beside = "/".join(names[:len(names) - 1] + [names[-1][:-1], "AGENTS.md"])
    below = "/".join(names + [t.random.choice(["tests", "old"]), "AGENTS.md"])
    writes = [(paths[level], texts[level]) for level in levels] + \
        [(beside, "Not on the way."), (below, "Below cwd.")]
    t.random.shuffle(writes)
    model = lab.ScriptedModel([lab.reply(*[lab.call("write", {"path": p, "content": c})
                                           for p, c in writes]), lab.say("Written.")])
    h = harness.Harness(model, SYSTEM, [harness.make_write_tool(ws)])
    await lab.drive(h.prompt("Write the project's rules."))
    # asked from an account whose home and starting folder hold AGENTS.md files on this
    # machine's disk: only the workspace's files are on the way
    saved, here = dict(os.environ), os.getcwd()
    with tempfile.TemporaryDirectory() as home:
        for name in ("AGENTS.md", ".agents/AGENTS.md", ".config/AGENTS.md",
                     "/".join(names[:1] + ["AGENTS.md"])):
            os.makedirs(os.path.dirname(os.path.join(home, name)), exist_ok=True)
            with open(os.path.join(home, name), "w", encoding="utf-8") as file:
                file.write("The account's own rules.")
        try:
            os.environ.update(HOME=home, USERPROFILE=home, XDG_CONFIG_HOME=f"{home}/.config")
            os.chdir(home)
            after = harness.discover_context(ws, spelled(t, names))
        except Exception as error:
            after = [("raised", f"{type(error).__name__}: {error}")]
        finally:
            os.chdir(here)
            os.environ.clear()
            os.environ.update(saved)
    if 0 not in texts:
        texts[0], paths[0] = root, "AGENTS.md"
    t.expect([lab.shape(h.messages), [list(p) for p in before], [list(p) for p in after]],
             [" ".join(["U A[" + ",".join(f"c{n}" for n in range(1, len(writes) + 1)) + "]"] +
                       [f"R(c{n})" for n in range(1, len(writes) + 1)] + ["A"]),
              [["AGENTS.md", root]],
              [[paths[level], texts[level]] for level in sorted(texts)]],
             f"cwd {'/'.join(names)}; before the run only AGENTS.md was there; in one reply the "
             f"model wrote {[p for p, _ in writes]} (one on the way empty, one in a folder "
             "beside the way whose name begins the next one's, one below cwd). Items: [the "
             "record, discover_context before the run, and after it, as [path, text] pairs: "
             "every AGENTS.md from the root down to cwd, broadest first, each text as written, "
             "line ends and end spaces included, asked with HOME and the process's folder "
             "holding AGENTS.md files of the account's own, which are not in the workspace]; "
             "each part of cwd names a folder exactly as it is spelled, a space at its end "
             "included.")
    # Kill round 34 (reader r189, designs 09 and 25): one file on the way rewritten, after the
    # run, with ten and a half to twelve million characters, as long as a file can be (written
    # to the workspace itself: a model's reply of that size costs the fake world's copies more
    # than the walk does): found whole
    longest = t.random.choice(levels)
    huge = (((" ".join(t.random.sample(WORDS, 7)) + " ") * 100)[:1198] + "\r\n") * \
        t.random.randint(8750, 10000)
    ws.write_text(paths[longest], huge)
    whole = harness.discover_context(ws, spelled(t, names))
    t.expect([[path for path, _ in whole], [text == ws.read_text(path) for path, text in whole]],
             [[paths[level] for level in sorted(texts)], [True] * len(texts)],
             f"The same workspace once {paths[longest]} was rewritten with {len(huge):,} "
             "characters. Items: [the paths found, whether each text is the workspace's whole]: "
             "each text exactly as the workspace holds it, however long, never cut short nor "
             "left out (discover_context, lesson 13, Build item 2).")
    texts[longest] = huge
    # Kill round 30 (reader r173, probe P3): one file the model wrote on the way can no longer
    # be read; the next session's prompt is built from discover_context, and a harness started
    # with it. What read_text raised comes out before any model is asked, never a prompt that
    # quietly lacks that file.
    lost = t.random.choice([level for level in levels if texts[level]] or levels)
    error = t.random.choice(CANNOT)()
    ws.locked[paths[lost]] = error
    model = lab.ScriptedModel([lab.say("Ready.")])
    session = []
    try:
        system = harness.build_system_prompt([harness.make_read_tool(ws)], harness.discover_context(
            ws, spelled(t, names)), [], "/".join(names), old_day(t))
        h = harness.Harness(model, system, [harness.make_read_tool(ws)])
        session = h.messages
        await lab.drive(h.prompt("What are the project's rules?"))
        came = None
    except Exception as raised:
        came = [f"{type(raised).__name__}: {raised}", raised is error]
    del ws.locked[paths[lost]]
    t.expect([came, len(model.calls), lab.shape(session),
              [path for path, _ in harness.discover_context(ws, spelled(t, names))]],
             [[f"{type(error).__name__}: {error}", True], 0, "",
              [paths[level] for level in sorted(texts)]],
             f"The same workspace once {paths[lost]}, written by the model, could no longer be "
             f"read (its read_text raising {type(error).__name__}: {error}), a new session's "
             "prompt built from discover_context's pairs and a harness started with it. Items: "
             "[what came out, and whether it is the very exception read_text raised; the model "
             "calls made; the session's record (lab.shape); the paths found once the file could "
             "be read again]: an AGENTS.md the workspace has but cannot read is not passed over "
             "in silence, so no prompt that lacks it reaches a model (discover_context, lesson "
             "13, Build item 2, \"not passed over in silence\").")


@lab_test("Asked at each folder on the way, six to eight deep, from the deepest up to the root, "
          "discover_context gives each folder the AGENTS.md files above it and its own, broadest "
          "first, each as the workspace holds it, twins and all; asked again at "
          "the deepest after one file was removed and another rewritten, it gives what is "
          "there now.")
async def test_bank_each_folder_on_the_way_in_turn(t):
    names = way(t)
    k = early(names)
    names += t.random.sample([name for name in LATER if name not in names], 4)  # 6 to 8 deep
    # Hunt round 40 (reader r204): two of the four below, one named with dots only (four or
    # five, neither "." nor "..") and one whose accent is a letter and a combining mark: each
    # names a folder exactly as it is spelled
    deep = t.random.sample(range(len(names) - 4, len(names)), 2)
    names[deep[0]] = "." * t.random.randint(4, 5)
    names[deep[1]] = t.random.choice(["cafe", "resume", "Menu"]) + "\u0301"
    present = sorted({0, k, k + 1, len(names) - 2, len(names) - 1, len(names),
                      t.random.randint(0, len(names))})
    files = {"".join(f + "/" for f in names[:n]) + "AGENTS.md": rules_text(t) for n in present}
    empty = t.random.choice([n for n in present if n])
    files["".join(f + "/" for f in names[:empty]) + "AGENTS.md"] = ""
    # two files of the same words, one opening with a byte-order mark, a CLAUDE.md beside each
    full = [n for n in present if n != empty]
    twins = t.random.sample(full, 2)
    marked = t.random.choice([n for n in full if n not in twins])
    at = ["".join(f + "/" for f in names[:n]) for n in range(len(names) + 1)]
    files[at[twins[1]] + "AGENTS.md"] = files[at[twins[0]] + "AGENTS.md"]
    files[at[marked] + "AGENTS.md"] = "\ufeff" + files[at[marked] + "AGENTS.md"]
    for n in present:
        files[at[n] + "CLAUDE.md"] = "Another agent's rules."
        files[at[n] + ".agents/AGENTS.md"] = "In a folder beside the way."
    for n in range(len(names)):
        files["/".join(names[:n] + [names[n][:-1], "AGENTS.md"])] = "Beside the way."
    files["/".join(names + ["deeper", "AGENTS.md"])] = "Below."
    ws, first = Guarded(files), dict(files)
    found = []
    for depth in range(len(names), -1, -1):
        found.append([[path, text] for path, text in harness.discover_context(
            ws, spelled(t, names[:depth]) if depth else t.random.choice(["", ".", "./"]))])
    on_way = ["".join(f + "/" for f in names[:n]) + "AGENTS.md" for n in present]
    gone = t.random.choice(on_way[:-1])
    ws.remove(gone)
    edited = f"Edited. {rules_text(t)}"
    ws.write_text(on_way[-1], edited)
    files.pop(gone)
    files[on_way[-1]] = edited
    again = [[path, text] for path, text in harness.discover_context(ws, spelled(t, names))]
    # Hunt round 30 (reader r173): one file on the way rewritten as long as a file can be, ten
    # and a half to twelve million characters since kill round 34 (r189-09, r189-25): found
    # whole, as the workspace holds it
    longest = t.random.choice([path for path in on_way if path != gone])
    ws.write_text(longest, (((" ".join(t.random.sample(WORDS, 7)) + " ") * 100)[:1198] + "\r\n") *
                  t.random.randint(8750, 10000))
    whole = harness.discover_context(ws, spelled(t, names))
    t.expect([[path for path, _ in whole], [text == ws.read_text(path) for path, text in whole]],
             [[path for path in on_way if path != gone],
              [True] * len([path for path in on_way if path != gone])],
             f"The same workspace once {longest} was rewritten with "
             f"{len(ws.read_text(longest))} characters. Items: [the paths found, whether each "
             "text is the workspace's whole]: each text exactly as the workspace holds it, "
             "however long, nothing cut short nor left out (discover_context, lesson 13, Build "
             "item 2).")
    t.expect([found, again],
             [[[[path, first[path]] for n, path in zip(present, on_way)
                if n <= depth] for depth in range(len(names), -1, -1)],
              [[path, files[path]] for path in on_way if path != gone]],
             f"A workspace with AGENTS.md at {on_way} on the way to {'/'.join(names)} "
             f"({on_way[present.index(empty)]} empty; {at[twins[0]]}AGENTS.md and "
             f"{at[twins[1]]}AGENTS.md of the same words; {at[marked]}AGENTS.md opening with a "
             "byte-order mark; a CLAUDE.md and a .agents/AGENTS.md beside each), others beside the way and below it. "
             "Items: [for each folder from the deepest up to the root, the [path, text] pairs "
             f"found there], then, after {gone} was removed and {on_way[-1]} rewritten, what "
             "the deepest folder finds.")
    # Kill round 30 (reader r173, probe P3): one file on the way locked, then each folder asked
    # again from the deepest up: below the locked file every answer is what read_text raised,
    # above it the files there are
    kept = [path for path in on_way if path != gone]
    # Kill round 34 (reader r189, designs 15 to 17): every kind in turn, the ones a real disk
    # raises included, so a walk that swallows any one of them shows
    for make in t.random.sample(CANNOT, len(CANNOT)):
        lost = t.random.randrange(len(kept))
        error = make()
        ws.locked[kept[lost]] = error
        level = kept[lost].count("/")
        asked = []
        for depth in range(len(names), -1, -1):
            try:
                asked.append(["found", [path for path, _ in harness.discover_context(
                    ws, spelled(t, names[:depth]) if depth else "./")]])
            except Exception as raised:
                asked.append(["raised", f"{type(raised).__name__}: {raised}", raised is error])
        t.expect(asked, [["raised", f"{type(error).__name__}: {error}", True] if depth >= level
                         else ["found", [path for path in kept if path.count("/") <= depth]]
                         for depth in range(len(names), -1, -1)],
                 f"The same workspace once {kept[lost]} could not be read (its read_text raising "
                 f"{type(error).__name__}: {error}), asked at each folder from the deepest up to "
                 "the root. Items: for each folder, [\"raised\", the exception, whether it is "
                 "the very one read_text raised] or [\"found\", the paths]: every folder at or "
                 f"below {kept[lost]}'s has it on the way, and an AGENTS.md the workspace has but "
                 "cannot read is not passed over in silence: what read_text raised comes out of "
                 "discover_context as it was raised; folders above it find their files as "
                 "before (discover_context, lesson 13, Build item 2, \"not passed over in "
                 "silence\").")
        del ws.locked[kept[lost]]
    # a hundred to two hundred folders deep, names repeating; every third folder holds an
    # AGENTS.md, the others a file of another name only
    deep, others = t.random.choices(LATER + EARLY, k=t.random.randint(100, 200)), \
        ["CLAUDE.md", "agents.md", "Agents.md", "AGENTS.MD"]
    at = ["".join(f + "/" for f in deep[:n]) for n in range(len(deep) + 1)]
    ws = lab.Workspace({at[n] + ("AGENTS.md" if n % 3 == 0 else others[n % 4]): f"Level {n}."
                        for n in range(len(deep) + 1)})
    first = [[type(pair).__name__, *pair] for pair in
             harness.discover_context(ws, spelled(t, deep))]
    # then again, after one file on the way was rewritten and a folder that had none got one
    edited, added = t.random.randrange(0, len(deep) + 1, 3), t.random.randrange(1, len(deep), 3)
    ws.write_text(at[edited] + "AGENTS.md", f"Level {edited}, edited.")
    ws.write_text(at[added] + "AGENTS.md", f"Level {added}, added.")
    t.expect([first, [[type(pair).__name__, *pair] for pair in
                      harness.discover_context(ws, spelled(t, deep))]],
             [[["tuple", at[n] + "AGENTS.md", f"Level {n}."] for n in range(0, len(deep) + 1, 3)],
              [["tuple", at[n] + "AGENTS.md", f"Level {n}" + (
                  ", edited." if n == edited else ", added." if n == added else ".")]
               for n in sorted(set(range(0, len(deep) + 1, 3)) | {added})]],
             f"cwd {len(deep)} folders deep, an AGENTS.md in every third folder from the root, "
             "the others holding only a CLAUDE.md, agents.md, Agents.md or AGENTS.MD. Items: "
             "for each pair found, [its kind, path, text], then the same after one file on "
             "the way was rewritten and one written in a folder that had none.")


# --- rule 3: build_system_prompt --------------------------------------------------------------

# Characters a tidy-up takes or changes, none a line break: a tab, a carriage return, a NUL, a
# no-break space, a zero-width space, a line tab, an escape, a full-width letter, and one accent
# in both its spellings (one character, or a letter and a combining mark).
ODD = ["\t", "\r", "\x00", "\u00a0", "\u200b", "\x0b", "\x1b", "\uff42", "\u00e8", "e\u0300"]


def odd(t, least, kinds=ODD):
    """A value of at least `least` characters: each of `kinds` before a word, words of WORDS,
    said again until it is long enough (joined once: one copy, however long), and a no-break
    space at one end and a tab at the other."""
    said = " ".join([bit + t.random.choice(WORDS) for bit in t.random.sample(kinds, len(kinds))] +
                    t.random.sample(WORDS, 4))
    ends = t.random.sample(["\t", "\u00a0"], 2)  # one of each, in either order
    repeated = [said] * -(-least // len(said))
    repeated[0] = ends[0] + repeated[0]
    repeated[-1] += ends[1]
    return " ".join(repeated)


def stands(system, pieces, alone=True):
    """Whether the texts `pieces`, one straight after another, stand in `system` as one of its
    sections, between blank lines (alone=False: at the end of one), looked for in place, so a
    text of millions of characters is never copied to be compared."""
    first = pieces[0][:100]
    at = system.find(first)
    while at >= 0:
        end = at
        for piece in pieces:
            if not system.startswith(piece, end):
                break
            end += len(piece)
        else:
            if (not alone or at == 0 or system.startswith("\n\n", at - 2)) and \
                    (end == len(system) or system.startswith("\n\n", end)):
                return True
        at = system.find(first, at + 1)
    return False


def changed(arguments):
    """Each list and dict of the builder's arguments that was changed, with how."""
    tools, files, skills = arguments[:3]
    seen = [("tools", tools), ("files", files), ("skills", skills)] + \
        [(f"tool {x['name']!r}", x) for x in tools] + \
        [(f"tool {x['name']!r}'s guidelines", x["guidelines"]) for x in tools
         if "guidelines" in x] + [(f"skill {k['name'][:20]!r}", k) for k in skills]
    return [[what, value.changes] for what, value in seen if value.changes]


def as_they_came(t):
    """Arguments for the builder whose every value is odd and long (kill round 34, r189): a read
    tool whose snippet is hundreds of characters, whose guidelines are one sentence said 2,001 to
    8,000 times and then three new ones, two that differ only in how an accent is spelled and one
    of over a million characters; a context file whose path is thousands of characters and whose
    text is over ten million; a skill whose name and path are hundreds and whose description is
    over a million; today and cwd of hundreds and thousands; and a tool with neither snippet nor
    guidelines. Every list and dict of them notes each change made to it. With them, what each
    part of the prompt must be, exactly."""
    same = odd(t, t.random.randint(60, 500))
    new = [same.replace("e\u0300", "\u00e8") + " \u00e8.", same.replace("\u00e8", "e\u0300") +
           " e\u0300.", odd(t, t.random.randint(1_050_000, 1_400_000))]
    t.random.shuffle(new)
    again = t.random.choice(ADVICE)
    read = Noted(harness.make_read_tool(lab.Workspace()), snippet=odd(t, t.random.randint(150, 1500)),
                 guidelines=NotedList([again] * t.random.randint(1998, 7997) + new))
    tools = NotedList([read])
    tools.insert(t.random.randint(0, 1), Noted(described(t.random.choice(TOOL_NAMES))))
    tools.forget()  # the insert above is the test's own
    where, body = odd(t, t.random.randint(260, 4000)), odd(t, t.random.randint(3000, 30000))
    skill = {"name": odd(t, t.random.randint(101, 900)),
             "description": odd(t, t.random.randint(1_050_000, 1_400_000)),
             "path": odd(t, t.random.randint(101, 900))}
    today, cwd = odd(t, t.random.randint(33, 300)), odd(t, t.random.randint(4100, 8000))
    wanted = [["tools", ("Available tools:\n- read: ", read["snippet"])],
              ["guidelines", ("Guidelines:\n", "\n".join([f"- {again}"] + [f"- {g}" for g in new]))],
              ["file", (f'<project_instructions path="{where}">\n', body, "\n</project_instructions>")],
              ["skill", (f"\n- {skill['name']}: ", skill["description"], f" ({skill['path']})")],
              ["date", (f"Current date: {today}\nCurrent working directory: {cwd}",)]]
    return (tools, NotedList([(where, body)]), NotedList([Noted(skill)]), cwd, today), wanted


def as_long_as_a_file(t):
    """A context file of ten and a half to twelve million characters, as long as a file can be,
    of the odd characters Latin-1 text holds (kill round 34, r189-05 and r189-26), with the
    rest of a prompt of its own plain; and what its section must be."""
    path = odd(t, t.random.randint(30, 300), ODD[:4])
    text = odd(t, t.random.randint(10_500_000, 12_000_000),
               [bit for bit in ODD if max(bit) < "\u0100"])
    return (([], [(path, text)], [], "/srv/" + t.random.choice(LATER), old_day(t)),
            [["long file", (f'<project_instructions path="{path}">\n', text,
                            "\n</project_instructions>")]])


def came(system, wanted):
    """For each part `wanted` names, whether the prompt `system` holds it exactly as a section
    of its own (the skill's line: at the end of one)."""
    return [[what, stands(system, line, alone=what != "skill")] for what, line in wanted]


def sizes(arguments):
    """The lengths of the odd values, for a failure's message."""
    tools, ((where, body),), (skill,), cwd, today = arguments
    read = next(x for x in tools if x["name"] == "read")
    return (f"a read tool and one with neither snippet nor guidelines, read's snippet of {len(read['snippet']):,} characters, its "
            f"{len(read['guidelines']):,} guidelines one sentence said "
            f"{len(read['guidelines']) - 3:,} times then three new ones of "
            f"{', '.join(f'{len(g):,}' for g in read['guidelines'][-3:])} characters (two "
            "differing only in how an accent is spelled), a context file whose path is "
            f"{len(where):,} characters and its text {len(body):,}, a skill whose name, "
            f"description and path are {len(skill['name']):,}, {len(skill['description']):,} "
            f"and {len(skill['path']):,}, today of {len(today):,} and cwd of {len(cwd):,}, "
            "every one holding tabs, carriage returns, NULs, no-break spaces (at its ends too), "
            "a zero-width space, a line tab, an escape, a full-width letter and accents")

def advice_for(t, count):
    """`count` tools' guideline lists over at least ten different sentences, some repeated
    within and across tools, and one sentence again with a small first letter and once with a
    space at its end and once without its full stop: four sentences, since only the same
    characters are the same sentence."""
    pool = t.random.sample(ADVICE, t.random.randint(10, 13))
    lists = [[] for _ in range(count)]
    for line in pool + t.random.sample(pool, 4):
        lists[t.random.randrange(count)].append(line)
    line = t.random.choice(pool)
    lists[t.random.randrange(count)].append(line[0].lower() + line[1:])
    lists[t.random.randrange(count)].append(line + " ")
    lists[t.random.randrange(count)].append(line[:-1])
    return lists


@lab_test("A model reads, on each request of two runs, the prompt built for a harness of tools "
          "with and without snippets, context files and skills: sections in the fixed order, a "
          "line per tool with a snippet, each guideline once as written, the files word for "
          "word, the skills index in the order given, and the date and folder as the caller "
          "spelled them, last and only there; built again from the same arguments, it is the "
          "same text, and the builder fills in nothing of its own; past a thousand tools, "
          "guidelines, skills and files, each goes in as it came, built again by another "
          "process the same text, and after an edit the new one; every value, however long "
          "and whatever characters it holds, goes in as it came, and the builder changes none "
          "of its arguments.")
async def test_bank_what_a_model_is_told_in_a_session(t):
    # every name and three of them again, read after the fourth tool: nine lines or more
    names = t.random.sample(TOOL_NAMES, len(TOOL_NAMES)) + t.random.sample(TOOL_NAMES, 3)
    names.insert(t.random.randint(4, len(names)), "read")
    # no snippet, and an empty one, which is no snippet either
    snippets = [t.random.choice(SNIPPETS) if n % 3 or name == "read" else ("" if n % 2 else None)
                for n, name in enumerate(names)]
    lists = advice_for(t, len(names))
    # a guideline that is its tool's snippet word for word, and one as long as a page
    said = t.random.choice([n for n, snippet in enumerate(snippets) if snippet])
    lists[said].append(snippets[said])
    lists[t.random.randrange(len(names))].append(
        "Mind this: " + " ".join(ADVICE) * t.random.randint(2, 30))
    tools = [described(name, snippet, lines or None)
             for name, snippet, lines in zip(names, snippets, lists)]
    files = [(f"{'/'.join(t.random.sample(LATER, n))}{'/' if n else ''}AGENTS.md",
              t.random.choice(["\n", "  "]) + " ".join(t.random.sample(WORDS, 5)) + ".\n")
             for n in range(t.random.randint(1, 3))]
    # a file as it may come: markup, ampersands and quotes, \r\n and end spaces, 250 lines;
    # its path holds & and <, and the first file is given again
    long = "\r\n".join(f"<b>{n}</b> & \"{' '.join(t.random.sample(WORDS, 6))}\" here.  "
                        for n in range(250))
    files += [(f"R&D <{t.random.choice(EARLY)}>\\AGENTS.md", long), files[0],
              (f"{t.random.choice(EARLY)}/AGENTS.md", ""),  # an empty file is still a file
              (f"{t.random.choice(LATER)}/AGENTS.md",  # and a byte-order mark stays
               "\ufeff" + " ".join(t.random.sample(WORDS, 4)) + ".\n")]
    t.random.shuffle(files)
    skills = t.random.sample(SKILLS, 6)
    if skills == sorted(skills, key=lambda k: k["name"]):
        skills.reverse()
    today, cwd = f" {old_day(t)} ", "./" + "/".join(t.random.sample(LATER, 2)) + "/ "
    keys, owned = [sorted(x) for x in tools], [x.get("guidelines") for x in tools]
    prompt = harness.build_system_prompt(tools, files, skills, cwd, today)
    kept = [[sorted(x) for x in tools] == keys and all(
        x.get("guidelines") is lines for x, lines in zip(tools, owned))]
    # the same tools list again with another day; the same arguments as another user's process
    # would run them; the skills without read; None for the date and the folder
    later = old_day(t)
    kept.append(harness.build_system_prompt(tools, files, skills, cwd, later).endswith(
        f"Current date: {later}\nCurrent working directory: {cwd}"))
    someone, saved = f"clerk{t.random.randint(10, 99)}", dict(os.environ)
    try:
        os.environ.update(USER=someone, LOGNAME=someone, USERNAME=someone, LNAME=someone)
        kept.append(harness.build_system_prompt(tools, files, skills, cwd, today) == prompt)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    unread = [x for x in tools if x["name"] != "read"] + [
        described(name, "Open it") for name in t.random.sample(["open", "view", "load", "cat"], 4)]
    kept.append(harness.build_system_prompt(unread, files, skills, cwd, today) ==
                harness.build_system_prompt(unread, files, [], cwd, today))
    try:
        bare = harness.build_system_prompt([], [], [], None, None).split("\n")[-2:]
    except Exception as error:  # refusing None is allowed; filling it in is not
        bare = [type(error).__name__]
    kept.append(any(os.getcwd() in line or str(datetime.date.today().year) in line
                    for line in bare))
    # the opening line is the same whatever the arguments
    kept.append(prompt.split("\n")[0] == harness.build_system_prompt(
        unread[:2], [], [], cwd, later).split("\n")[0])
    model = lab.ScriptedModel([teller(skills)])
    h = harness.Harness(model, prompt, tools)
    for ask in ("What can you do?", "And the skills?"):
        await lab.drive(h.prompt(ask))
    wanted = {"opening": True, "order": [0, 1, 2, 3, 4],
              "tools": [f"- {name}: {s}" for name, s in zip(names, snippets) if s],
              "guidelines": ["- " + line for line in dict.fromkeys(x for xs in lists for x in xs)],
              "files": [list(pair) for pair in files],
              "skills": [True, [f"- {k['name']}: {k['description']} ({k['path']})"
                                for k in skills]],
              "last": [f"Current date: {today}", f"Current working directory: {cwd}"]}
    t.expect([lab.shape(h.messages), answers(h.messages),
              [request.system == prompt for request in model.calls], prompt.count(today),
              prompt.count(cwd), kept],
             ["U A U A", [wanted, wanted], [True, True], 1, 1,
              [True, True, True, True, False, True]],
             f"Tools {names} (a snippet on {[n for n, s in zip(names, snippets) if s]}), "
             f"{len(files)} context files, skills {[k['name'] for k in skills]}, today "
             f"{today!r}, cwd {cwd!r}. The model answered each request with what it read: the "
             "opening line has three words or more, the order of the sections "
             "found (0 tools, 1 guidelines, 2 files, 3 skills, 4 date), the tool lines, the "
             "guideline lines (each sentence once, first seen first, as written), the files, "
             "the skills index [its sentence has three words or more, its lines], the last two "
             "lines. Items: [the record, the model's answers, whether each request carried the "
             "prompt, how often the prompt holds today, and cwd, then [whether the tools kept "
             "their keys, and their very guideline lists, through the build, whether the same tools list built again with "
             "another day ends with that day, whether the prompt built with USER and LOGNAME "
             "naming another user is the same text, whether without read (open, view, load and cat there instead) the skills changed "
             "nothing, whether a prompt given None as today and cwd holds the clock's year or "
             "this process's folder, whether the opening line is the one of a prompt built from "
             "two of the tools alone]].")
    # hundreds of tools (some snippets with spaces at their ends, each guideline said twice by
    # its tool), of skills (descriptions without full stops, one given twice) and of files (paths
    # as their caller spelled them, one file of over 100,000 characters); built again by another
    # process of another account on another host, then after one snippet changed
    crowd = [described(f"{t.random.choice(TOOL_NAMES)}{n}", f" {t.random.choice(SNIPPETS)} "
                       if n % 7 == 0 else t.random.choice(SNIPPETS), [ADVICE[n % 16]] * 2)
             for n in range(t.random.randint(300, 350))]
    crowd.insert(t.random.randint(0, len(crowd)), described("read", "Open a file"))
    shelf = [{"name": f"case{n}", "description": f"Handle case {n}", "path": f"skills/c{n}.md"}
             for n in range(t.random.randint(150, 200))]
    shelf.insert(t.random.randint(1, len(shelf)), shelf[0])
    pile = [(f"./{t.random.choice(LATER)}//{n}/AGENTS.md", f"Rule {n}.")
            for n in range(t.random.randint(150, 200))]
    pile.insert(t.random.randint(0, len(pile)), ("AGENTS.md", "\n".join(
        f"{n}: {' '.join(t.random.sample(WORDS, 7))}." for n in range(3000))))
    day, where, kept = old_day(t), "/srv/" + t.random.choice(LATER), copy.deepcopy(crowd)
    prompt = harness.build_system_prompt(crowd, pile, shelf, where, day)
    await lab.tick()  # a turn between builds: each is the harness's, the scenario long
    someone, saved, here = f"clerk{t.random.randint(10, 99)}", dict(os.environ), os.getcwd()
    try:
        import socket
    except ImportError:
        socket = None
    uid, salt, hashed = t.random.randint(70000, 90000), t.random.random(), builtins.hash
    swaps = [(at, name, value) for at, name, value in (
        (builtins, "hash", lambda value: hashed((salt, value))),
        (os, "getuid", lambda: uid), (os, "geteuid", lambda: uid),
        (socket, "gethostname", lambda: f"box-{someone}")) if hasattr(at, name)]
    olds = [getattr(at, name) for at, name, _ in swaps]
    with tempfile.TemporaryDirectory(prefix=someone) as home:
        os.makedirs(os.path.join(home, ".agents"))
        for name in ("AGENTS.md", ".agents/AGENTS.md"):
            with open(os.path.join(home, name), "w", encoding="utf-8") as file:
                file.write(f"{someone}'s own rules.")
        try:
            os.environ.update(USER=someone, LOGNAME=someone, HOME=home)
            for at, name, value in swaps:
                setattr(at, name, value)
            os.chdir(home)
            theirs = harness.build_system_prompt(crowd, pile, shelf, where, day)
        except Exception as error:
            theirs = type(error).__name__
        finally:
            os.chdir(here)
            for (at, name, _), value in zip(swaps, olds):
                setattr(at, name, value)
            os.environ.clear()
            os.environ.update(saved)
    untouched = crowd == kept
    await lab.tick()  # a turn between builds: each is the harness's, the scenario long
    crowd[-1]["snippet"] = "Changed at last"
    model = lab.ScriptedModel([teller(shelf)])
    h = harness.Harness(model, harness.build_system_prompt(crowd, pile, shelf, where, day), crowd)
    await lab.drive(h.prompt("What is there?"))
    seen = answers(h.messages)[0]
    t.expect([theirs == prompt, untouched, str(datetime.date.today().year) in
              prompt.split("\n")[0], seen["tools"], len(seen["guidelines"]), seen["files"],
              seen["skills"][1], seen["last"], prompt.split("\n")[0] ==
              harness.build_system_prompt([], [], [], where, day).split("\n")[0]],
             [True, True, False, [f"- {x['name']}: {x['snippet']}" for x in crowd], 16,
              [list(pair) for pair in pile],
              [f"- {k['name']}: {k['description']} ({k['path']})" for k in shelf],
              [f"Current date: {day}", f"Current working directory: {where}"], True],
             f"{len(crowd)} tools, {len(shelf)} skills (one given twice), {len(pile)} context "
             "files (one of over 100,000 characters). Items: [whether the prompt built again "
             f"by another account's process (user {someone}, number {uid}, its own host, home "
             "and starting folder, hash() salted anew) is the same text, whether the caller's "
             "tools are as they were, whether the opening line holds this year, then what the "
             "model read once the last tool's snippet changed: the tool lines, how many "
             "guideline lines, the files, the skills index's lines, the last two lines; "
             "whether the opening line is the one of a prompt with nothing to list: the same "
             "words whatever the arguments].")
    # Past a thousand of each: tools (a snippet ending in a full stop, one of spaces only, a
    # name with a capital and spaces), their guidelines (one said again with two spaces inside),
    # skills (capital names, paths with "./" and "//") and files; built again by a process with
    # another number, machine name, environment and clock, then once more after every file and
    # one skill's description were edited in place; and an empty date and folder
    # (from the 1,201st tool on, no guidelines: a list that checks before appending is a scan)
    size = t.random.randint(1001, 5000)
    heap = [{"name": f"{t.random.choice(TOOL_NAMES)}{n}", "description": "Use it.",
             "parameters": {}, "snippet": t.random.choice(SNIPPETS) + t.random.choice(["", "."])} |
            ({"guidelines": [f"Tip {size - n}."]} if n < 1200 else {}) for n in range(size)]
    odd = t.random.sample(range(min(size, 1200)), 4)
    heap[odd[0]]["name"] = f" {t.random.choice(TOOL_NAMES).capitalize()} "
    heap[odd[1]]["snippet"] = " " * t.random.randint(1, 3)
    tip = heap[odd[2]]["guidelines"][0]
    # the first tool's tip said again by the last tool with tips: once, however far apart
    heap[min(size, 1200) - 1]["guidelines"].append(f"Tip {size}.")
    heap[odd[2]]["guidelines"].append(tip.replace(" ", "  "))
    heap[odd[3]]["snippet"] = "\n".join(t.random.sample(SNIPPETS, 2))  # a line break, as it came
    heap.insert(t.random.randint(0, size), described("read", "Open a file"))
    heap.insert(t.random.randint(0, len(heap)), heap[t.random.randrange(len(heap))])  # one dict twice
    for name, snippet in (("write", None), ("bash", "")):  # the lesson's own, with no snippet
        heap.insert(t.random.randint(0, len(heap)), described(name, snippet))
    shelf = [{"name": f"Case{n}", "description": f"Handle case {n}.", "path": f"./skills//C{n}.md"}
             for n in range(t.random.randint(1001, 5000))]
    long, blank, huge = t.random.sample(range(2, len(shelf)), 3)
    shelf[huge]["description"] = (" ".join(t.random.sample(WORDS, 7)) + ". ") * \
        t.random.randint(200, 5000)  # thousands to hundreds of thousands of characters
    shelf[long]["description"] = "Handle it.\n" + " ".join(
        t.random.choice(WORDS) for _ in range(t.random.randint(60, 250))) + "."
    shelf[blank]["description"] = ""  # still a skill, whose line is "- NAME:  (PATH)"
    pile = [(f"{t.random.choice(LATER)}/{n}/AGENTS.md", f"Rule {n}.")
            for n in range(t.random.randint(1001, 5000))]
    quoted, big = t.random.sample(range(len(pile)), 2)
    pile[quoted] = (
        "AGENTS.md", f'Quoted: <project_instructions path="{t.random.choice(LATER)}/AGENTS.md">')
    # Hunt round 30 (reader r173): one file of two to three million characters, whole
    pile[big] = (pile[big][0], "\n".join([((" ".join(t.random.sample(WORDS, 6)) + " ") * 90)[:800]]
                                          * t.random.randint(2550, 3700)))
    day, where = old_day(t), "/srv/" + t.random.choice(LATER)
    prompt = harness.build_system_prompt(heap, pile, shelf, where, day)
    await lab.tick()  # a turn between builds: each is the harness's, the scenario long
    pid, shift = t.random.randint(100000, 400000), \
        (7 * t.random.randint(100, 900) + t.random.randint(1, 6)) * 86400
    clock, now, uname = datetime.datetime, time.time, getattr(os, "uname", None)
    node, spoken = platform.uname(), (f"{sys.version_info[0]}.{sys.version_info[1] + 7}.2 "
                                      "(main, Mar  3 2030, 10:00:00) [Clang 21.0.0]")

    class Later(datetime.datetime):  # the wall clock on another day
        @classmethod
        def now(cls, tz=None):
            return clock.now(tz) + datetime.timedelta(seconds=shift)
    swaps = [(at, name, value) for at, name, value in (
        (os, "environ", Everywhere("other")),  # every name set
        (os, "getpid", lambda: pid), (os, "getppid", lambda: pid + 1),
        (os, "uname", lambda: type(uname())((uname()[0], f"box{pid}", *uname()[2:]))),
        (time, "time", lambda: now() + shift), (datetime, "datetime", Later),
        (platform, "node", lambda: f"box{pid}"),
        (platform, "uname", lambda: type(node)(node.system, f"box{pid}", node.release,
                                               node.version, node.machine)),
        (sys, "version", spoken)) if hasattr(at, name)]
    olds, saved = [getattr(at, name) for at, name, _ in swaps], dict(os.environ)
    try:
        os.environ.update({name: f"other-{name.lower()}" for name in saved}, SHELL="/bin/other")
        swaps[0][2].update(os.environ)
        for at, name, value in swaps:
            setattr(at, name, value)
        theirs = harness.build_system_prompt(heap, pile, shelf, where, day)
    except Exception as error:
        theirs = type(error).__name__
    finally:
        for (at, name, _), value in zip(swaps, olds):
            setattr(at, name, value)
        os.environ.clear()
        os.environ.update(saved)
    await lab.tick()  # a turn between builds: each is the harness's, the scenario long
    kept = copy.deepcopy(shelf)
    # each edit keeps the length ("Rule 7." becomes "Edit 7."), and the quoted tag stays as it is
    pile = [(path, text.replace("Rule ", "Edit ").replace("Quoted:", "Edited:"))
            for path, text in pile]
    edited = harness.build_system_prompt(heap, pile, shelf, where, day)
    await lab.tick()  # a turn between builds: each is the harness's, the scenario long
    shelf[1]["description"] = kept[1]["description"] = "Handle the edited case."
    parts = edited.split("\n\n")
    index = next((part.split("\n") for part in harness.build_system_prompt(
        heap, pile, shelf, where, day).split("\n\n") if f"({shelf[0]['path']})" in part), [])
    # words for the date and folder, with HOME and PWD set: never looked up nor expanded
    said, saved = [("today", "."), ("tomorrow", f"$HOME/{t.random.choice(LATER)}"),
                   (t.random.choice(["next week", "now"]), t.random.choice(["~", "${PWD}"]))], \
        dict(os.environ)
    try:
        os.environ.update(HOME=tempfile.gettempdir(), PWD=os.getcwd())
        words = [harness.build_system_prompt([], [], [], cwd, day).split("\n")[-2:] ==
                 [f"Current date: {day}", f"Current working directory: {cwd}"]
                 for day, cwd in said]
    finally:
        os.environ.clear()
        os.environ.update(saved)
    # a snippet ending in a line break, a tool after it: as it came, not mended
    ended = [described(name, f"{snippet}\n" if n == 0 else snippet) for n, (name, snippet) in
             enumerate(zip(t.random.sample(TOOL_NAMES, 2), t.random.sample(SNIPPETS, 2)))]
    words.append(f"- {ended[0]['name']}: {ended[0]['snippet']}\n- {ended[1]['name']}: "
                 in harness.build_system_prompt(ended, [], [], ".", "today"))
    t.expect([theirs == prompt, block(edited, "Available tools:") == "\n".join(
                  f"- {x['name']}: {x['snippet']}" for x in heap if x.get("snippet")).split("\n"),
              block(edited, "Guidelines:") ==
              ["- " + line for line in dict.fromkeys(x for tool in heap
                                                     for x in tool.get("guidelines", []))],
              parts[-len(pile) - 2:-2] == [f'<project_instructions path="{path}">\n{text}\n'
                                           "</project_instructions>" for path, text in pile],
              "\n".join(index).endswith("\n" + "\n".join(
                  f"- {k['name']}: {k['description']} ({k['path']})" for k in shelf)),
              shelf == kept, prompt.split("\n")[0] == harness.build_system_prompt(
                  [], [], [], "", "").split("\n")[0],
              words == [True] * 4],
             [True] * 8,
             f"{len(heap)} tools, {len(pile)} context files and {len(shelf)} skills. Items: "
             "[whether the prompt built again by a process with another number, machine name, "
             "environment and clock is the same text; then, built once more after every file's "
             "text was edited, its length kept (Rule to Edit, Quoted to Edited), and again "
             "after one skill's description was edited in place: "
             "whether the tool lines are "
             "each tool's name and snippet as they came, a snippet of spaces included; whether "
             "the guideline lines are every guideline once in the order first met, one said "
             "again with two spaces inside included; whether the files are every file with its "
             "new text; whether the skills index lists every skill as it is now, names and "
             "paths as they came; whether the caller's skills kept their keys and values; "
             "whether the opening line is the one of a prompt with an empty date and folder; "
             "whether prompts given \"today\" and \".\", \"tomorrow\" and a folder under "
             f"$HOME, and {said[2]!r} end with them as words, and a snippet ending in a line "
             "break goes in as it came]. Among "
             "the tools, write and bash with no snippet, one snippet with a line break and "
             "one tool dict given twice; "
             "among the skills, one description of hundreds of characters after a line break, "
             "one of many thousands, "
             "and one empty, still a skill with its line; "
             "among the files, one quoting an opening tag and one of two to three million "
             "characters; the other process's environment "
             "answers any name it is asked for, and its host and Python are others.")
    # Hunt round 28 (reader r152): an account's folder, read far down the list, read's own
    # description under another name, a full-width letter, accents as marks, another platform,
    # and a repeat over a thousand guidelines apart
    await lab.tick()  # a turn between builds: each is the harness's, the scenario long
    home = f"/home/{t.random.choice(LATER)}/{t.random.choice(EARLY)}"
    opening = harness.build_system_prompt([], [], [], "", "").split("\n")[0]
    homed = harness.build_system_prompt([], [], [], home, old_day(t))
    far = [described(name, t.random.choice(SNIPPETS)) for name in
           t.random.sample(TOOL_NAMES, 10)] + [described("read")]
    shelf = t.random.sample(SKILLS, 2)
    alias = dict(harness.make_read_tool(lab.Workspace()), name=t.random.choice(["open", "view"]))
    line = t.random.choice(ADVICE)
    wide = chr(ord(line[0]) + 0xFEE0) + line[1:]
    marks = "Cafe\u0301 re\u0301sume\u0301, nai\u0308ve.\n"
    first = f"{t.random.choice(ADVICE)[:-1]}, first."
    pile = [described("tool0", None, [first])] + \
        [described(f"tool{n}", None, [f"Rule {n}."]) for n in range(1, 1002)] + \
        [described("last", None, [first])]
    args = ([described("read", "Read a file", [line, wide])], [("AGENTS.md", marks)], shelf,
            "/srv/" + t.random.choice(LATER), old_day(t))
    mine, saved = harness.build_system_prompt(*args), sys.platform
    try:
        sys.platform = "darwin" if saved != "darwin" else "linux"
        theirs = harness.build_system_prompt(*args)
    finally:
        sys.platform = saved
    advice = block(mine, "Guidelines:") or []
    kept = block(harness.build_system_prompt(pile, [], [], "/srv", old_day(t)), "Guidelines:")
    # Hunt round 30 (reader r173): a tool named read that carries its name alone, and one tool
    # with over a thousand guidelines of its own, one of them tens of thousands of characters
    bare = f"({shelf[0]['path']})" in harness.build_system_prompt(
        [{"name": "read"}], [], shelf, "/srv", old_day(t))
    notes = [f"Note {n} of the one tool." for n in range(1000 + t.random.randint(2, 60))]
    notes[t.random.randrange(len(notes))] = " ".join(ADVICE) * t.random.randint(100, 1000)
    alone = block(harness.build_system_prompt([described(t.random.choice(TOOL_NAMES), None, notes)],
                                              [], [], "/srv", old_day(t)), "Guidelines:")
    t.expect([homed.split("\n")[0] == opening, home in homed.split("\n\n")[0],
              f"({shelf[0]['path']})" in harness.build_system_prompt(far, [], shelf, "/srv",
                                                                   old_day(t)),
              harness.build_system_prompt([alias], [], shelf, "/srv", "2020-01-01") ==
              harness.build_system_prompt([alias], [], [], "/srv", "2020-01-01"),
              advice == [f"- {line}", f"- {wide}"], marks in mine, theirs == mine,
              len(kept or []) == 1002 and kept.count(f"- {first}") == 1,
              bare, alone == [f"- {line}" for line in notes]],
             [True, False, True, True, True, True, True, True, True, True],
             f"Items: [whether the opening line with cwd {home!r} is the one with an empty "
             "folder; whether that folder stands in the opening part; whether two skills get "
             "their index with read after ten other tools; whether make_read_tool's dict "
             f"renamed {alias['name']!r} leaves the skills out, its description read's own; "
             f"whether {line!r} and {wide!r}, its first letter full-width, are two guideline "
             "lines; whether a context file with accents written as separate marks goes in as "
             "it came; whether the prompt built with another sys.platform is the same text; "
             "whether a guideline said by the first of 1,003 tools and again by the last is "
             "listed once among 1,002 lines; whether two skills get their index with a tool that is "
             f"{{'name': 'read'}} and nothing more; whether one tool's {len(notes)} guidelines, "
             "one of tens of thousands of characters, are all listed whole]: the opening line is the same words whatever the "
             "arguments, the index needs a tool named exactly read wherever it stands, only the "
             "same characters make the same guideline, each sentence once however far apart, "
             "the text exactly as it came, and equal arguments give identical text in every "
             "process (build_system_prompt, lesson 13, Build item 3).")

    # Kill round 34 (reader r189): every value odd and long, and a tool with neither snippet nor
    # guidelines, a harness started with the prompt built from them and asked twice: each
    # request carries every part as it came, and the builder changed none of its arguments
    arguments, wanted = as_they_came(t)
    system = harness.build_system_prompt(*arguments)
    await lab.tick()  # a turn between builds: each is the harness's, the scenario long
    touched = changed(arguments)
    model = lab.ScriptedModel([lab.say("Noted."), lab.say("Noted again.")])
    h = harness.Harness(model, system, list(arguments[0]))
    for ask in ("What were you told?", "And the skills?"):
        await lab.drive(h.prompt(ask))
    # and a session whose prompt holds one context file as long as a file can be
    longest, whole = as_long_as_a_file(t)
    told_long = lab.ScriptedModel([lab.say("Read it all.")])
    await lab.drive(harness.Harness(told_long, harness.build_system_prompt(*longest), []).prompt(
        "What are the project's rules?"))
    t.expect([lab.shape(h.messages), touched] + [came(request.system, wanted)
                                                 for request in model.calls] +
             [came(told_long.calls[0].system, whole)],
             ["U A U A", []] + [[[what, True] for what, _ in wanted]] * 2 + [[["long file", True]]],
             f"A harness of two tools, {sizes(arguments)}, asked twice; then a session whose "
             f"prompt holds one context file of {len(longest[1][0][1]):,} characters. Items: "
             "[the record, each argument the builder changed and how, then for each request, "
             "each part of the prompt it carried and whether it is there exactly as the lesson "
             "spells it]: "
             "every value goes in as it came, however long, never cut, tidied, normalised or "
             "left out, only the same characters make the same guideline, however many times "
             "one tool says another first, and the builder changes none of its arguments, not "
             "even for a moment while it runs (build_system_prompt, lesson 13, Build item 3, "
             "\"as it came\", \"as they were passed\", \"changes none of them\").")

    # Hunt round 40 (reader r204): a session over a crowd of 12,001 to 16,000 tools, context
    # files and skills, past any cap or switch a builder might keep; then twins of one checksum,
    # a guideline with a line break, a lone surrogate in a file, the context files watched as
    # they are read, a caller's empty snippet, and a small AGENTS.md where the process started
    count = t.random.randint(12_001, 16_000)
    crowd = [{"name": f"{TOOL_NAMES[n % len(TOOL_NAMES)]}{n}", "description": "A tool.",
              "snippet": f"{SNIPPETS[n % len(SNIPPETS)]} {n}"} for n in range(count)]
    crowd.insert(t.random.randrange(count), {"name": "read", "description": "Read a file."})
    today, cwd = old_day(t), "/" + "/".join(t.random.sample(LATER, 2))
    date = f"Current date: {today}\nCurrent working directory: {cwd}"
    bare = harness.build_system_prompt([], [], [], cwd, today).split("\n\n")[0]
    crowded = lab.ScriptedModel([lab.say("So many.")])
    await lab.drive(harness.Harness(crowded, harness.build_system_prompt(crowd, [], [], cwd,
                                                                         today), []).prompt(
        "What is there?"))
    parts = crowded.calls[0].system.split("\n\n")
    seen = [len(parts), parts[0] == bare,
            parts[1] == "\n".join(["Available tools:"] + [f"- {x['name']}: {x['snippet']}"
                                                          for x in crowd if "snippet" in x]),
            parts[-1] == date]
    await lab.tick()  # a turn between the crowd's prompts, each of over twelve thousand items
    files = [(f"{LATER[n % len(LATER)]}/{n}/AGENTS.md", f"Keep rule {n}.") for n in range(count)]
    parts = harness.build_system_prompt([], files, [], cwd, today).split("\n\n")
    seen += [len(parts), parts[0] == bare,
             parts[1:-1] == [f'<project_instructions path="{path}">\n{body}\n'
                             "</project_instructions>" for path, body in files],
             parts[-1] == date]
    await lab.tick()
    jobs = [{"name": f"job{n}", "description": f"Run job {n}.", "path": f"skills/job{n}.md"}
            for n in range(count)]
    parts = harness.build_system_prompt([{"name": "read", "description": "Read a file."}], [],
                                        jobs, cwd, today).split("\n\n")
    seen += [len(parts), parts[0] == bare,
             parts[-2].split("\n")[1:] == [f"- {k['name']}: {k['description']} ({k['path']})"
                                           for k in jobs],
             parts[-1] == date]
    await lab.tick()
    sums, broken = same_sums(t), f"{t.random.choice(ADVICE)}\n{t.random.choice(ADVICE)}"
    advice = [sums[0][0], sums[1][1], broken, sums[1][0], sums[0][1]]
    lone = t.random.choice(["\ud800", "\udbff", "\udfff"])  # a surrogate with no pair
    odd_file = (f"{t.random.choice(LATER)}/AGENTS.md", f"{rules_text(t)}{lone} end.\n")
    watched = NotedList([(f"{name}/AGENTS.md", rules_text(t))
                         for name in t.random.sample(LATER, t.random.randint(1, 3))])
    watched.insert(t.random.randint(0, len(watched)), odd_file)
    watched.forget()  # the insert above is the scenario's own
    empty = {"name": t.random.choice(TOOL_NAMES), "description": "Quiet.", "snippet": ""}
    tools = [described("read", t.random.choice(SNIPPETS), advice[:3]), empty,
             described(t.random.choice(TOOL_NAMES), None, advice[3:])]
    small = f"{' '.join(t.random.sample(WORDS, 3))}.\n"
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as started:
        with open(os.path.join(started, "AGENTS.md"), "w", encoding="utf-8") as file:
            file.write(small)
        try:
            os.chdir(started)
            odd_prompt = harness.build_system_prompt(tools, watched, [], cwd, today)
            nothing = harness.build_system_prompt([], [], [], cwd, today)
        finally:
            os.chdir(here)
    told_odd = lab.ScriptedModel([lab.say("Odd ones.")])
    await lab.drive(harness.Harness(told_odd, odd_prompt, []).prompt("Anything odd?"))
    system = told_odd.calls[0].system
    t.expect(seen + [block(system, "Guidelines:"),
                     f'<project_instructions path="{odd_file[0]}">\n{odd_file[1]}\n'
                     "</project_instructions>" in odd_prompt,
                     watched.changes, empty == {"name": empty["name"], "description": "Quiet.",
                                                "snippet": ""},
                     len(nothing.split("\n\n")), small.strip() in nothing],
             [3, True, True, True, count + 2, True, True, True, 3, True, True, True,
              "\n".join(f"- {line}" for line in advice).split("\n"),
              True, [], True, 2, False],
             f"A session over {count:,} tools with a snippet each and read among them, "
             f"{count:,} context files and {count:,} skills, each in a prompt of its own; then "
             "one of three tools whose "
             f"guidelines are {advice!r}, two pairs of one CRC-32 and one Adler-32 and one with a "
             "line break, a tool whose snippet is \"\", context files watched as they are read, one "
             "with a lone surrogate, built in a process started in a folder holding a small "
             "AGENTS.md, and once with no context files there. Items: [for each of the crowd's three "
             "prompts, how many parts it has, whether its opening line is the bare one's, "
             "whether its tools section, its file sections or its skill lines are every tool's, "
             "file's or skill's in the order given, whether the date is last; the guidelines the model read; whether "
             "the file with the lone surrogate went in as it came; the changes made to the "
             "context files list; whether the tool with the empty snippet is as it was; how "
             "many parts the prompt with no context files has, whether the folder's AGENTS.md "
             "is in it]: a line, a section and a line for each tool, file and skill however many "
             "there are, in the order given, the opening line the same words whatever the "
             "arguments; only the same characters make the same guideline, and every value goes "
             "in as it came; the builder changes none of its arguments, not even for a moment "
             "while it runs, and reads no disk (build_system_prompt, lesson 13, Build item 3).")


@lab_test("A harness rebuilt run after run as tools are switched on and off: the prompt each "
          "run's request carries lists no tool without a snippet and no skills until a tool "
          "named exactly read is there, leaves an empty date or folder empty, reads no disk, "
          "and keeps every guideline of over three hundred tools; run after run, every value, "
          "however long and whatever characters it holds, goes in as it came, and the builder "
          "changes none of its arguments.")
async def test_bank_the_prompt_follows_the_tools_run_after_run(t):
    skills = t.random.sample(SKILLS, 3)
    if skills == sorted(skills, key=lambda k: k["name"]):
        skills.reverse()
    # named like read, none named read: read in other letters or with a space, read inside a name
    close = [t.random.choice(["Read", " read", "READ", "read "]),
             t.random.choice(["thread", "ready", "reader"]), t.random.choice(TOOL_NAMES)]
    near = [described(name, None, [t.random.choice(ADVICE)])
            for name in t.random.sample(close, 3)]
    many = [described(f"t{n}", None, [ADVICE[n % 5]]) for n in range(300)]
    late = [f"Rule {n} of the late tools." for n in range(t.random.randint(1, 4))]
    late[-1] = f"{late[-1][:-1]}: " + " ".join(ADVICE) * t.random.randint(100, 1000)
    many += [described(f"late{n}", None, [line]) for n, line in enumerate(late)]
    long = [f"Step {n}." for n in range(600 + t.random.randint(1, 400))]
    many.insert(t.random.randint(0, 300), described("steps", None, long))
    rules = " ".join(t.random.sample(WORDS, 5)) + ".\n"
    today = old_day(t)
    found, record = [], []
    with tempfile.TemporaryDirectory() as real:  # a folder on this machine's disk
        for name in ("AGENTS.md", "AGENTS.local.md", "CLAUDE.md", ".agents/AGENTS.md"):
            os.makedirs(os.path.dirname(os.path.join(real, name)), exist_ok=True)
            with open(os.path.join(real, name), "w", encoding="utf-8") as file:
                file.write(rules)
        steps = {"near": (near, skills, "", ""),
                 "read": (near + [dict(described("read", None, None), execute=None)], skills,
                          today, "."),
                 "disk": ([], [], today, real),
                 "many": (many, [], today, "src")}
        order = t.random.sample(list(steps), 4)
        for step in order:
            tools, known, day, cwd = steps[step]
            model = lab.ScriptedModel([teller(skills)])
            h = harness.Harness(model, harness.build_system_prompt(tools, [], known, cwd, day),
                                tools, messages=record)
            await lab.drive(h.prompt(f"Step {step}."))
            record = h.messages
            seen = json.loads(harness.text_of(record[-1]))
            found.append([step, seen["order"], seen["tools"], seen["skills"], seen["last"][0],
                          seen["last"][1] == f"Current working directory: {cwd}",
                          len(seen["guidelines"] or []), (seen["guidelines"] or [])[-2:],
                          rules.strip() in model.calls[0].system])
    advice = list(dict.fromkeys(line for x in many for line in x["guidelines"]))
    heard = list(dict.fromkeys(x["guidelines"][0] for x in near))
    wanted = {
        "near": ["near", [1, 4], None, None, "Current date: ", True,
                 len(heard), ["- " + line for line in heard[-2:]], False],
        "read": ["read", [1, 3, 4], None,
                 [True, [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]],
                 f"Current date: {today}", True,
                 len(heard), ["- " + line for line in heard[-2:]], False],
        "disk": ["disk", [4], None, None,
                 f"Current date: {today}", True, 0, [],
                 False],
        "many": ["many", [1, 4], None, None,
                 f"Current date: {today}", True, len(advice),
                 ["- " + line for line in advice[-2:]], False]}
    t.expect([lab.shape(record), found], [" ".join(["U A"] * 4), [wanted[s] for s in order]],
             "Four runs on one record, each by a harness built with its own tools and a prompt "
             "built for them: 'near' (tools named like read but not read, none with a snippet, "
             "skills, today and cwd both \"\"), 'read' (the same and a tool named read), 'disk' "
             "(no tools, no context files, cwd a real folder holding an AGENTS.md, an "
             "AGENTS.local.md, a CLAUDE.md and a .agents/AGENTS.md), 'many' (over "
             "300 tools, one with 601 to 1,000 guidelines, the last tool's guideline tens of "
             "thousands of characters). The tool named read in 'read' has an execute of None: "
             "the name decides. For each run in the drawn order: [step, "
             "the order of the sections the model found (1 guidelines, 3 skills, 4 date), the "
             "tool lines, the skills index, the date line, whether the last line is 'Current "
             "working directory: ' and cwd as passed, how many guideline lines, the "
             "last two of them, whether the real AGENTS.md's text was in the prompt].")

    # Kill round 34 (reader r189): two more runs on a record of their own, the first by a
    # harness of odd and long arguments and a tool with neither snippet nor guidelines, the
    # second of one context file as long as a file can be: each run's request carries every
    # part as it came, and the builder changed none of its arguments
    arguments, wanted = as_they_came(t)
    longest, whole = as_long_as_a_file(t)
    record, seen, touched = [], [], []
    for built, parts in ((arguments, wanted), (longest, whole)):
        model = lab.ScriptedModel([lab.say("Done.")])
        h = harness.Harness(model, harness.build_system_prompt(*built), list(built[0]),
                            messages=record)
        touched = changed(arguments)
        await lab.drive(h.prompt("Go on."))
        record = h.messages
        seen.append(came(model.calls[0].system, parts))
    t.expect([lab.shape(record), touched, seen],
             ["U A U A", [], [[[what, True] for what, _ in wanted], [["long file", True]]]],
             f"Two runs on one record: the first by a harness of two tools, {sizes(arguments)}; "
             "the second by a harness of no tools whose prompt holds one context file of "
             f"{len(longest[1][0][1]):,} characters. Items: [the record, each argument the "
             "builder changed and how, then for each run's request, each part of the prompt "
             "and whether it is there exactly as the lesson spells it]: every "
             "value goes in as it came, however long, never cut, tidied, normalised or left "
             "out, only the same characters make the same guideline, however many times one "
             "tool says another first, and the builder changes none of its arguments, not even "
             "for a moment while it runs (build_system_prompt, lesson 13, Build item 3, \"as it "
             "came\", \"as they were passed\", \"changes none of them\").")
