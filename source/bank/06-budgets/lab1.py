"""Lab 6.1's grading bank: scenarios for each rule of its ledger (source/lessons/06-budgets/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario reaches its rule through another entry point than the public tests, or observes
another thing: a tool of our own that reads its argument with int_arg, every byte budget from
nothing to the whole text instead of a chosen few, a model that pages a file by following the
notes it is sent, what the request after a batch of reads carries, bash run by run_tool and by
a run, so that the public tests' wanted expressions, evaluated in a bank test's frame, do not
give its values.
"""
import re

import harness
import lab
from lab.kit import lab_test, settle, tool

LAB = "6.1"
SYSTEM = "You look after a small repository."
PIECES = ("a", "é", "中", "🙂", "ok", "ß")  # one to four bytes of UTF-8
BREAKS = ("\n", "\r\n", "\r", "\u2028", "\x85")  # line breaks str.splitlines knows
RARE = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\u2029")  # the ones a text seldom holds
FIRST = "first|head|top|beginning|start|opening|initial|leading|front|earliest"
NAMES = ("notes.txt", "todo.md", "app.log", "data.csv", "main.py", "report.txt")


def worded(t, n):
    """Line n: its number, then one to three drawn pieces, at least one of them of two bytes
    or more, so a budget counted in characters differs from one counted in bytes."""
    return f"{n}" + t.random.choice(["é", "中", "🙂"]) + "".join(
        t.random.choice(PIECES) for _ in range(t.random.randint(0, 2)))


def size(text):
    return len(text.encode())


def accented(t):
    """A text of 1001 to 1500 lines of three-byte characters, over the default byte budget in
    bytes and well under it in characters."""
    return ("中" * t.random.randint(17, 40) + "\n") * t.random.randint(1001, 1500)


def rarely_broken(t):
    """Output of 2001 to 2300 numbered lines of 60 to 200 characters (over 120,000 in all), each
    ending in a break other than "\n"."""
    width = t.random.randint(60, 200)
    return "".join(f"{n}".ljust(width, ".") + t.random.choice(("\r", "\x85", "\u2028") + RARE)
                   for n in range(1, t.random.randint(2002, 2301)))


def stated(description, pairs):
    """For each (number, unit) pair: whether the number stands before its unit in the
    description, a word between allowed, separators inside numbers ignored."""
    plain = re.sub(r"(?<=\d)[,_ ](?=\d{3})", "", description).lower()
    return [bool(re.search(rf"\b{n}\s+(?:\w+\s+)?{unit}", plain)) for n, unit in pairs]


def first_named(description, lines):
    """Whether the description names the first lines, the head, the top or the beginning
    just before its line count: what a model reads as the lines it is sent."""
    return bool(re.search(rf"\b({FIRST})\W+(?:\w+\W+){{0,2}}{lines}\b", description.lower()))


LAST = "last|end|tail|final|closing|trailing|bottom|concluding|latter|terminal"


def last_named(description, lines):
    """Whether the description names the last lines, the end or the tail beside its line count
    ("the closing N lines", "N lines at the end"): what a model reads as the lines it is sent."""
    plain = re.sub(r"(?<=\d)[,_ ](?=\d{3})", "", description).lower()
    return bool(re.search(rf"\b(?:{LAST})\W+(?:\w+\W+){{0,2}}{lines}\b|\b{lines}\s+(?:(?:{LAST})\s+"
                          rf"lines?\b|lines?\s+(?:at|from|nearest)\s+(?:the\s+)?(?:end|bottom|tail)\b)",
                          plain))


def counted_from_0(spec):
    """Whether a tool spec's description, or one of its parameters', says lines are counted
    from 0, as if `offset` started there: it counts from 1."""
    said = [spec["description"]] + [p.get("description", "")
                                    for p in spec["parameters"]["properties"].values()]
    zero = (r"\bfirst(?:\s+line)?\s+is\s+(?:line\s+)?(?:0|zero)\b"
            r"|\b(?:count\w*|number\w*|index\w*|start\w*|begin\w*)\s+(?:from|at|with|on)\s+"
            r"(?:line\s+)?(?:0|zero)\b|\b(?:0|zero)[- ]?(?:based|indexed)\b"
            r"|\b(?:0|zero)\s*(?:for|is|means|=|:)\s*(?:the\s+)?(?:top|first|start|beginning|"
            r"head)\b|\b(?:top|start|beginning|head)\s*(?:is|=|:)\s*(?:line\s+)?(?:0|zero)\b"
            r"|\bline\s+(?:0|zero)\s+(?:opens|starts|begins|is\s+(?:the\s+)?(?:top|first|start|"
            r"beginning|head))\b"
            r"|\b(?:first|top|start|beginning|head|opening)(?:\s+line)?\s+(?:has|is\s+at|is|at|"
            r"gets?)\s+(?:the\s+)?(?:index|position|number|offset|line\s+number)\s+(?:0|zero)\b"
            r"|\b(?:index|position|offset|line\s+number)\s+(?:0|zero)\s+(?:opens|starts|begins)\b"
            r"|\b(?:how\s+many|number\s+of|count\s+of)\s+(?:\w+\s+){0,2}?lines?\s+(?:to\s+)?"
            r"(?:skip|pass|jump|leave|omit|ignore|drop)|\blines?\s+to\s+(?:skip|pass\s+over|"
            r"jump\s+over|leave\s+out|omit|ignore|drop)\b|\bskip\s+(?:this|that|so)\s+many\s+lines?\b")
    return any(re.search(zero, d.lower()) for d in said)


def bytes_as_characters(description, max_bytes):
    """Whether a description says a byte is a character, or gives its byte budget as that many
    characters ("50000 bytes, that is 50000 characters")."""
    plain = re.sub(r"(?<=\d)[,_ ](?=\d{3})", "", description).lower()
    return bool(re.search(
        r"\bbytes?\s+(?:is|are|=|equals?|means?|counts?\s+as)\s+(?:one\s+|a\s+|1\s+)?char"
        r"|\b(?:one|a|1|each)\s+char(?:acter)?s?\s+(?:is|=|equals?)\s+(?:one|a|1)\s+bytes?\b"
        r"|\bbytes?\s*[,(]?\s*(?:that\s+is|i\.?e\.?,?|in\s+other\s+words|meaning|aka|or)\s+"
        r"(?:(?:\d+|one|a)\s+)?char(?:acter)?s?\b", plain)
        or re.search(rf"(?<![-\w]){max_bytes}\s+(?:\w+\s+)?char", plain))


def other_budgets(description, budget):
    """The numbers a description gives as a budget, before lines or bytes or with "at most",
    "up to" or "max", that are not the tool's own `budget`."""
    plain = re.sub(r"(?<=\d)[,_ ](?=\d{3})", "", description).lower()
    found = re.finditer(r"(?:at\s+most|up\s+to|max(?:imum)?|limit\s+of|budget\s+of)\s+(\d+)"
                        r"|(?<![-\w])(\d+)\s*(?:\w+\s+)?(?:lines?|bytes?|char\w*)\b"
                        r"|(?<![-\w])(\d+)\s+(?:at\s+most|max(?:imum)?)\b", plain)
    return [n for n in (int(next(g for g in m.groups() if g)) for m in found) if n not in budget]


def first_kept(description):
    """Whether a description says the first lines, or what is seen first, are what is kept."""
    return bool(re.search(rf"\b(?:{FIRST})\b(?:\s+\w+){{0,3}}?\s+(?:is|are)\s+(?:what\s+"
                          r"(?:is|gets|are)\s+)?(?:kept|retained|preserved)\b|\bkeeps?\s+(?:the\s+)?"
                          rf"(?:{FIRST})\b", description.lower()))


def end_cut(description):
    """Whether a description says the end, the tail or the last lines are what is cut off:
    what bash keeps."""
    return bool(re.search(
        r"\b(?:end|ending|tail|bottom|last\s+(?:\w+\s+){0,2}?lines?)(?:\s+\w+){0,3}?\s+"
        r"(?:is\s+|are\s+|gets?\s+)?(?:cut|dropped|removed|truncated|lost|discarded|omitted|"
        r"trimmed|deleted)\b|\b(?:cuts?|drops?|removes?|truncates?|loses?|discards?|omits?|"
        r"trims?|deletes?)\s+(?:off\s+)?(?:the\s+|its\s+)?(?:end|tail|bottom|last)\b"
        r"|\b(?:end|ending|tail|bottom)\s+(?:is|are)\s+(?:not|never)\s+(?:shown|kept|"
        r"returned|included|given|seen)\b",
        description.lower()))


async def run(model, tools, ask, history=(), **options):
    """The record of one run of `model` over `tools`, started with `ask` after `history`."""
    messages = list(history)
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, ask, **options))
    return messages


def results(messages):
    """The toolResult messages of a list of messages, in order."""
    return [m for m in messages if m["role"] == "toolResult"]


# --- rule 1: int_arg ------------------------------------------------------------------------

@lab_test("A tool of the course's own that reads its count with int_arg, called by a model in "
          "one batch with the count left out, None, 0, negative, large, a bool, a whole float, "
          "an empty string, digits in a string and a list: the results the model is sent "
          "next.")
async def test_bank_a_tool_of_our_own_reads_its_count_with_int_arg(t):
    default = t.random.randint(2, 9)

    def repeat(arguments):
        return f"times={harness.int_arg(arguments, 'times', default)!r}"
    sent = {"absent": None, "None": None, "zero": 0, "negative": -t.random.randint(1, 50),
            "large": t.random.randint(10**6, 10**9), "huge": -t.random.randint(2**1400, 2**t.random.randint(10_000, 14_000)),
            "True": True, "False": False,
            "float": float(t.random.randint(1, 40)), "empty": "",
            "digits": str(t.random.randint(1, 99)), "list": [t.random.randint(1, 9)]}
    kinds = t.random.sample(sorted(sent), len(sent))  # every kind, in a drawn order
    calls = [lab.call("repeat", {} if kind == "absent" else {"times": sent[kind]})
             for kind in kinds]
    model = lab.ScriptedModel([lab.reply(*calls), lab.say("Counted.")])
    await run(model, [tool("repeat", repeat)], "Repeat it.")
    wanted = {"absent": f"times={default}", "None": f"times={default}", "zero": "times=0",
              "negative": f"times={sent['negative']}", "large": f"times={sent['large']}",
              "huge": f"times={sent['huge']}"}
    t.expect([[m["content"], m["is_error"]] for m in results(model.calls[1].messages)],
             [[wanted[kind], False] if kind in wanted else ["times must be an integer", True]
              for kind in kinds],
             "A tool whose execute reads `times` with int_arg(arguments, 'times', default) and "
             "returns its repr, called in one reply for the values " + repr(kinds) + ": the "
             "[content, is_error] of each result in the request after that reply. Only an int "
             "(0 and negatives too) is a whole number, only absent or None takes the default, "
             "and anything else raises \"times must be an integer\".")


@lab_test("A model reads a file with offset or limit sent as a bool, a whole float, an empty "
          "string, digits in a string or 0: each read is refused with a message, never read "
          "from the default, and a good read beside them gives its lines.")
async def test_bank_read_refuses_what_int_arg_refuses(t):
    total = t.random.randint(3, 9)
    name = t.random.choice(NAMES)
    ws = lab.Workspace({name: "".join(f"line {n}\n" for n in range(1, total + 1))})
    field = t.random.choice(["offset", "limit"])
    bad = t.random.sample([True, False, 2.0, float(total), "", "2", [1]], 7)  # all, shuffled
    asked = [({"path": name, field: value}, f"{field} must be an integer") for value in bad]
    asked.append(({"path": name, field: 0}, "offset and limit must be 1 or more"))
    good = t.random.randint(1, total)
    note = (f"[Showing lines {good}-{good} of {total}. Use offset={good + 1} to continue.]"
            if good < total else "")
    asked.insert(t.random.randint(0, len(asked)),
                 ({"path": name, "offset": good, "limit": 1}, f"line {good}\n" + note))
    rest = t.random.randint(1, total)
    asked.insert(t.random.randint(0, len(asked)),
                 ({"path": name, "offset": rest,
                   "limit": t.random.randint(2**65, 2**t.random.randint(10_000, 14_000))},
                  "".join(f"line {n}\n" for n in range(rest, total + 1))))
    model = lab.ScriptedModel([lab.reply(*[lab.call("read", dict(a)) for a, _ in asked]),
                               lab.say("Read.")])
    record = await run(model, [harness.make_read_tool(ws)], f"Look at {name}.")
    t.expect([m["content"] for m in results(record)], [said for _, said in asked],
             f"A batch of reads of {name} ({total} lines) with {field} sent as {bad!r} and 0, "
             "and two good reads, one with a limit past 2**31: the content of each result on "
             "the record, in call order.")


# --- rule 2: truncate_head ------------------------------------------------------------------

def broken_lines(t, count):
    """`count` (3 or more) numbered lines, each ending in a drawn line break, the last with
    none."""
    breaks = [t.random.choice(BREAKS) for _ in range(count - 3)]
    breaks += ["\r\n", t.random.choice(["\r", "\u2028", "\x85"])]  # one break of two bytes,
    t.random.shuffle(breaks)  # and one that is no newline at all
    return [worded(t, n) + end for n, end in enumerate(breaks + [""], 1)]


@lab_test("truncate_head under every byte budget from 0 to one past the text's size, and every "
          "line cap from 0 to one past its lines: the budgets at which one more line comes in, "
          "and what is kept there.")
async def test_bank_every_byte_budget_keeps_whole_lines_from_the_top(t):
    lines = broken_lines(t, t.random.randint(3, 6))
    text = "".join(lines)
    counts = [harness.truncate_head(text, max_bytes=b)[1] for b in range(size(text) + 2)]
    steps = [b for b in range(1, len(counts)) if counts[b] != counts[b - 1]]
    t.expect([counts[0], steps, [harness.truncate_head(text, max_bytes=b)[0] for b in steps]],
             [0, [size("".join(lines[:k])) for k in range(1, len(lines) + 1)],
              ["".join(lines[:k]) for k in range(1, len(lines) + 1)]],
             f"For the text {text!r}: the lines kept under max_bytes=0, the byte budgets at "
             "which truncate_head keeps one more line, and the text it keeps at each of them. "
             "A line is kept once the budget holds all its UTF-8 bytes, its break as written "
             "included, and a last line without a break costs only its own bytes.")
    t.expect([list(harness.truncate_head(text, max_lines=cap)) for cap in range(len(lines) + 2)],
             [["".join(lines[:cap]), min(cap, len(lines))] for cap in range(len(lines) + 2)],
             f"truncate_head({text!r}, max_lines=cap) for every cap from 0 to {len(lines) + 1}.")
    # below 0 by less than the text's lines, so that a cap taken as a slice keeps some (hunt 26)
    long, below = accented(t), -t.random.randint(1, len(lines) - 1)
    t.expect([harness.truncate_head(long)[1], list(harness.truncate_head(text, max_lines=below)),
              list(harness.truncate_head(text, max_bytes=below))],
             why=f"truncate_head of {long.count(chr(10))} lines of {long.index(chr(10))} "
                 "three-byte characters under the default budget: the lines kept; then of the "
                 f"text above under max_lines={below}, and under max_bytes={below}.")
    wide = t.random.randint(30_000, 300_000)  # hunt 22: any length is cheap to measure
    wide_text = "中" * wide + "\n" + text
    t.expect([harness.truncate_head(wide_text, max_bytes=b)[1] for b in (wide + 1, 3 * wide,
                                                                        3 * wide + 1)],
             why=f"truncate_head of a line of {wide} three-byte characters and its newline, then "
                 f"the text above, under max_bytes={wide + 1}, {3 * wide} and {3 * wide + 1}: "
                 "the lines kept each time.")
    width = t.random.randint(50, 70)
    many = "".join(f"{n}🙂" + "中" * width + "\n" for n in range(1, t.random.randint(6001, 7001)))
    t.expect(list(harness.truncate_head(many, max_lines=10**9, max_bytes=10**12)) ==
             [many, many.count("\n")],
             why=f"Whether truncate_head of {many.count(chr(10))} lines of a number, an "
                 f"emoji and {width} three-byte characters, under max_lines=10**9 and "
                 "max_bytes=10**12, keeps them all, each line's size counted once: a cut that "
                 "measures the kept text again for every line it adds takes seconds here.")
    width = t.random.choice([w for w in range(1001, 3000) if 50_000 % w])  # hunt 26, 6.1-44
    vast = ("z" * (width - 1) + "\n") * t.random.randint(2001, 2500)  # 2 to 7.5 million
    t.expect(list(harness.truncate_head(vast)) == [vast[:50_000 // width * width],
                                                    50_000 // width],
             why=f"Whether truncate_head of {vast.count(chr(10))} lines of {width} bytes "
                 f"({len(vast)} characters), under the default budget, keeps its first "
                 f"{50_000 // width} lines whole and nothing of the next: whole lines, however "
                 "long the text.")


@lab_test("A model reads a file of mixed line breaks through a read tool whose byte budget is "
          "exactly its first lines, follows the note to the rest, and runs `cat` of it through "
          "a bash tool with a line cap: the results it is sent.")
async def test_bank_read_and_bash_count_lines_as_truncate_head_does(t):
    lines = broken_lines(t, t.random.randint(4, 7))
    k = t.random.randint(1, len(lines) - 2)
    budget = size("".join(lines[:k]))
    while size("".join(lines[k:])) > budget:  # the rest must fit one read too
        k += 1
        budget = size("".join(lines[:k]))
    lines[-1] += "z" * (budget - size("".join(lines[k:])))  # the rest is exactly one budget
    text, name, cap = "".join(lines), t.random.choice(NAMES), t.random.randint(1, len(lines) - 1)
    ws = lab.Workspace({name: text})

    def follow(request):
        last = request.messages[-1]
        if last["role"] == "user":
            return lab.reply(lab.call("read", {"path": name}))
        going = re.search(r"Use offset=(\d+) to continue", last["content"])
        if last["tool_name"] == "read" and going:
            return lab.reply(lab.call("read", {"path": name, "offset": int(going.group(1))}))
        if last["tool_name"] == "read":
            return lab.reply(lab.call("bash", {"command": f"cat {name}"}))
        return lab.say("Seen it all.")
    model = lab.ScriptedModel([lab.forever(follow)])
    await run(model, [harness.make_read_tool(ws, max_bytes=budget),
                      harness.make_bash_tool(lab.Shell(ws), max_lines=cap)],
              f"Read {name}.", max_turns=8)
    t.expect([m["content"] for m in results(model.calls[-1].messages)],
             ["".join(lines[:k]) + f"[Showing lines 1-{k} of {len(lines)}. Use offset={k + 1} "
              "to continue.]", "".join(lines[k:]),
              "".join(lines[-cap:]) + f"\n\n[Showing the last {cap} of {len(lines)} lines. "
              "Narrow the command for more.]"],
             f"The file {text!r}, read by a tool made with max_bytes={budget}, the note's offset "
             f"followed, then `cat` by a bash tool made with max_lines={cap}: the results in the "
             "model's last request. Both tools count lines at every break str.splitlines knows "
             "and keep them as written, and a budget holds exactly its bytes.")
    rare = "".join(worded(t, n) + end for n, end in enumerate(t.random.sample(RARE, 6), 1))
    ws.write_text("rare.txt", rare + "end\n")
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "rare.txt", "offset": 2,
                                                           "limit": 2}),
                                         lab.call("bash", {"command": "cat rare.txt"}),
                                         lab.call("read", {"path": "rare.txt"})),
                               lab.say("All seen.")])
    cap = t.random.randint(2, 3)
    await run(model, [harness.make_read_tool(ws, max_lines=cap),
                      harness.make_bash_tool(lab.Shell(ws), max_lines=2)], "Read rare.txt.")
    t.expect([m["content"] for m in results(model.calls[1].messages)],
             why=f"The file {rare + 'end'!r} and a newline, read with offset 2 and limit 2, "
                 "then `cat` by a bash tool made with max_lines=2, then read whole, by a read "
                 f"tool made with max_lines={cap}, in one reply: the results in the next "
                 "request. \\x0b, \\x0c, \\x1c to \\x1e and \\u2029 are line breaks as \\n is, "
                 "for read and bash alike, and for the line cap.")
    ws.write_text("long.txt", accented(t))
    seen = []
    # a budget of 0, not one below 0: what a factory does with that is the student's, and the
    # page promises the tests never give one (hunt 26, probe 6.1-50)
    for made in ({}, {"max_bytes": 0}):
        model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "long.txt"})),
                                   lab.say("Read.")])
        await run(model, [harness.make_read_tool(ws, **made)], "Read long.txt.")
        said = results(model.calls[1].messages)[0]["content"]
        seen.append([said.count("\n"), said.rsplit("\n", 1)[-1]])
    t.expect(seen, why="long.txt, 1001 to 1500 lines of three-byte characters, read by a tool "
                       "with the default budget, then by one made with max_bytes=0: the "
                       "result's newlines and what follows the last, in the next request.")
    many = rarely_broken(t)
    split = many.splitlines(keepends=True)
    ws.write_text("many.log", many)
    at = t.random.randint(1, len(split) - 2)
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "many.log", "offset": at,
                                                           "limit": 2})), lab.say("Read.")])
    await run(model, [harness.make_read_tool(ws)], "Read many.log.")
    t.expect([m["content"] for m in results(model.calls[1].messages)],
             ["".join(split[at - 1:at + 1]) + f"[Showing lines {at}-{at + 1} of {len(split)}. "
              f"Use offset={at + 2} to continue.]"],
             f"many.log, {len(split)} lines ({len(many)} characters) each ending in a break "
             f"other than \"\\n\", read with offset {at} and limit 2: the result in the next "
             "request; read counts lines as bash does, however big the file.")
    # hunt 29, 6.1-18: over a million characters in five long lines, cheap to split
    tall = "".join(c * t.random.randint(220_000, 500_000) + t.random.choice(RARE) for c in "pqrst")
    ws.write_text("tall.log", tall)
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "tall.log", "offset": 3,
                                                           "limit": 2})), lab.say("Read.")])
    await run(model, [harness.make_read_tool(ws, max_bytes=10**9)], "Read tall.log.")
    got = results(model.calls[1].messages)[0]["content"]
    t.expect([[got.count(c) for c in "pqrst"], got[-40:]],
             why=f"tall.log, 5 lines ({len(tall)} characters) each ending in a break other than "
                 "\"\\n\", read with offset 3 and limit 2 by a tool made with max_bytes=10**9: "
                 "how many of each line's letter the result holds, and how it ends; read counts "
                 "lines as bash does, however big the file.")


# --- rule 3: truncate_tail ------------------------------------------------------------------

@lab_test("truncate_tail under every byte budget from 0 to one past the text's size: the "
          "budgets at which one more line comes in from the bottom, and what is kept there.")
async def test_bank_every_byte_budget_keeps_whole_lines_from_the_bottom(t):
    lines = [worded(t, n) + "\n" for n in range(1, t.random.randint(3, 7))]
    text = "".join(lines)
    kept = [harness.truncate_tail(text, max_bytes=b) for b in range(size(text) + 2)]
    steps = [b for b in range(1, len(kept)) if kept[b][1] != kept[b - 1][1]]
    t.expect([kept[0][1], steps, [kept[b][0] for b in steps]],
             [0, [size("".join(lines[-k:])) for k in range(1, len(lines) + 1)],
              ["".join(lines[-k:]) for k in range(1, len(lines) + 1)]],
             f"For the text {text!r}: the lines kept under max_bytes=0, the byte budgets at "
             "which truncate_tail keeps one more line, counting UTF-8 bytes up from the last "
             "line, and the text kept at each, its lines in the order the text has them.")
    t.expect([harness.truncate_tail(text, max_lines=cap) == ("".join(lines[len(lines) - cap:]),
                                                           cap) for cap in range(len(lines) + 1)],
             [True] * (len(lines) + 1),
             "Whether truncate_tail(text, max_lines=cap) is the last cap lines, for every cap "
             "from 0 to the text's lines.")
    below = -t.random.randint(1, len(lines) - 1)  # hunt 26, 6.1-61: a cap as a slice keeps some
    t.expect([list(harness.truncate_tail(text, max_lines=below)),
              list(harness.truncate_tail(text, max_bytes=below))], [["", 0], ["", 0]],
             f"truncate_tail of the text above under max_lines={below}, then max_bytes={below}: "
             "a cap below 0 keeps nothing, as a cap of 0 does.")
    long = accented(t)
    t.expect(harness.truncate_tail(long)[1],
             why=f"truncate_tail of {long.count(chr(10))} lines of {long.index(chr(10))} "
                 "three-byte characters under the default budget: the lines kept.")
    wide = t.random.randint(30_000, 300_000)  # hunt 22: any length is cheap to measure
    wide_text = text + "中" * wide + "\n"
    t.expect([harness.truncate_tail(wide_text, max_bytes=b)[1] for b in (wide + 1, 3 * wide,
                                                                        3 * wide + 1)],
             why=f"truncate_tail of the text above, then a line of {wide} three-byte characters "
                 f"and its newline, under max_bytes={wide + 1}, {3 * wide} and {3 * wide + 1}: "
                 "the lines kept each time.")
    width = t.random.randint(50, 70)
    many = "".join(f"{n}🙂" + "中" * width + "\n" for n in range(1, t.random.randint(6001, 7001)))
    t.expect(list(harness.truncate_tail(many, max_lines=10**9, max_bytes=10**12)) ==
             [many, many.count("\n")],
             why=f"Whether truncate_tail of {many.count(chr(10))} lines of a number, an "
                 f"emoji and {width} three-byte characters, under max_lines=10**9 and "
                 "max_bytes=10**12, keeps them all, each line's size counted once: a cut that "
                 "measures the kept text again for every line it adds takes seconds here.")


@lab_test("A command prints lines of characters of two bytes or more; bash tools with a byte "
          "budget of exactly its last lines, one byte less, and 0, run by a model: what each "
          "result holds.")
async def test_bank_bash_keeps_the_last_lines_its_bytes_allow(t):
    lines = [worded(t, n) + "\n" for n in range(1, t.random.randint(4, 8))]
    k = t.random.randint(2, len(lines) - 1)
    exact = size("".join(lines[-k:]))
    shell = lab.Shell(lab.Workspace(), commands={"check": lambda args, ws: ("".join(lines), 0)})
    seen = []
    for budget in (exact, exact - 1, 0):
        model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "check"})),
                                   lab.say("Checked.")])
        await run(model, [harness.make_bash_tool(shell, max_bytes=budget)], "Run the check.")
        seen.append(results(model.calls[1].messages)[0]["content"])
    t.expect(seen, ["".join(lines[len(lines) - kept:]) + f"\n[Showing the last {kept} of "
                    f"{len(lines)} lines. Narrow the command for more.]"
                    for kept in (k, k - 1, 0)],
             f"`check` prints {''.join(lines)!r}; bash tools made with max_bytes={exact} (its "
             f"last {k} lines exactly), {exact - 1} and 0: the result the model is sent by "
             "each, whole lines from the end, in their order.")
    long = accented(t)
    shell = lab.Shell(lab.Workspace(), commands={"dump": lambda args, ws: (long, 0)})
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "dump"})),
                               lab.say("Dumped.")])
    await run(model, [harness.make_bash_tool(shell)], "Dump it.")
    said = results(model.calls[1].messages)[0]["content"]
    t.expect([said.count("\n"), said.rsplit("\n", 1)[-1]],
             why=f"`dump` prints {long.count(chr(10))} lines of {long.index(chr(10))} three-byte "
                 "characters, through a bash tool with the default budget: the result's "
                 "newlines and its note.")


# --- rule 4: read's paging ------------------------------------------------------------------

@lab_test("A model sends one batch of reads with wrong arguments in two at once, or with a "
          "missing file, and one read of a long file through a tool with a budget above the "
          "course's: the results and the calls the next request carries.")
async def test_bank_a_batch_of_reads_checked_in_order(t):
    name, one, big, missing, ragged, vast = t.random.sample(NAMES, 6)
    total = t.random.randint(3, 12)
    long = 5000 + t.random.randint(1, 200)  # past 5000 lines and 125,000 bytes (hunt 31, 6.1-05)
    wide = t.random.randint(400, 600)  # lines of 2500 bytes: over a megabyte in all
    ws = lab.Workspace({name: "".join(f"{n}\n" for n in range(1, total + 1)),
                        one: worded(t, 1) + "\n",
                        big: "".join(f"{n:024d}\n" for n in range(1, long + 1)),
                        ragged: "".join(f"{n}\n" for n in range(1, total)) + worded(t, total),
                        vast: "".join(f"{n:02499d}\n" for n in range(1, wide + 1))})
    word = t.random.choice(["two", "3", "first"])
    asked = [({"path": missing, "offset": 0}, "offset and limit must be 1 or more"),
             ({"path": name, "offset": 0, "limit": t.random.choice([True, "9"])},
              "limit must be an integer"),
             ({"path": missing, "offset": word}, "offset must be an integer"),
             ({"path": name, "offset": word, "limit": 2.0}, "offset must be an integer"),
             ({"path": missing, "limit": 0}, "offset and limit must be 1 or more"),
             ({"path": name, "limit": 0}, "offset and limit must be 1 or more"),
             ({"path": one, "offset": 2}, f"offset 2 is past the end of {one}: 1 lines"),
             ({"path": name, "offset": float(t.random.randint(1, total))},
              "offset must be an integer"),
             ({"path": name, "offset": total + 1, "limit": t.random.randint(1, 9)},
              f"offset {total + 1} is past the end of {name}: {total} lines"),
             ({"path": ragged, "offset": total + 2},
              f"offset {total + 2} is past the end of {ragged}: {total} lines"),
             ({"path": missing, "offset": None, "limit": 0},
              "offset and limit must be 1 or more"),
             ({"path": name, "limit": str(t.random.randint(1, total))},
              "limit must be an integer"),
             ({"path": name, "offset": total + 1, "limit": 0},
              "offset and limit must be 1 or more")]
    # hunt 31, 6.1-24 and 6.1-51: a limit past 1000 that the budget holds, of a file blank one
    # line in two, read from the top: all the lines asked for, and a note whose N counts them all
    limit = t.random.randint(1001, 1999)
    gapped = "gapped.txt"
    ws.write_text(gapped, "".join(f"{n}\n" if n % 2 else t.random.choice(["\n", "  \n", "\r\n"])
                                  for n in range(1, limit + t.random.randint(2, 400))))
    gaps = ws.read_text(gapped).count("\n")
    asked.append(({"path": gapped, "offset": None, "limit": limit}, limit))
    batch = asked + [({"path": big}, long), ({"path": vast}, wide)]
    t.random.shuffle(batch)
    model = lab.ScriptedModel([lab.reply(*[lab.call("read", dict(a)) for a, _ in batch]),
                               lab.say("Done reading.")])
    lines_cap, bytes_cap = long + t.random.randint(0, 300), t.random.randint(3 * 10**6, 10**12)
    read = harness.make_read_tool(ws, max_lines=lines_cap, max_bytes=bytes_cap)
    said = [harness.user_message("Earlier: " + "words " * t.random.randint(80_000, 90_000)),
            lab.say("Noted.")] * 2  # over 900,000 bytes said before the batch
    await run(model, [read], "Read them.", history=said)
    sent = model.calls[1].messages
    t.expect([[m["is_error"], m["content"]] if isinstance(said, str) else
              [m["is_error"], m["content"].count("\n"), m["content"].rsplit("\n", 1)[-1]]
              for m, (_, said) in zip(results(sent), batch)],
             [[True, said] if isinstance(said, str) else
              [False, said, "" if said != limit else f"[Showing lines 1-{limit} of {gaps}. Use "
                                                      f"offset={limit + 1} to continue.]"]
              for _, said in batch],
             f"One reply of reads {[a for a, _ in batch]}, by a read tool made with "
             f"max_lines={lines_cap}, max_bytes={bytes_cap}, whose budget holds all {long} lines "
             f"of {big} and all {wide} lines of 2500 bytes of {vast}, and {limit} lines of "
             f"{gapped}, {gaps} lines blank one in two: in the next request, each result's "
             "[is_error, content], and for the three long reads [is_error, lines, what follows "
             "the last newline]. Types come first, offset's then limit's, then ranges, then the "
             "file.")
    t.expect([b["arguments"] for m in sent if m["role"] == "assistant" for b in m["content"]
              if b.get("type") == "toolCall"], [a for a, _ in batch],
             "The arguments of the calls in the next request, as the model sent them.")
    spec = model.calls[0].tools[0]
    told = spec["description"]
    t.expect(["byte" in told.lower(), "character" in told.lower(),
              stated(told, [(lines_cap, "line"), (bytes_cap, "byte")]),
              [harness.MAX_LINES, harness.MAX_BYTES], last_named(told, lines_cap),
              counted_from_0(spec), other_budgets(told, (lines_cap, bytes_cap))],
             [True, False, [True, True], [2000, 50_000], False, False, []],
             f"The read tool's description as the model is sent it, {told!r}: whether it names "
             "its byte budget in bytes, whether it speaks of characters, whether "
             f"{lines_cap} stands before \"line\" and {bytes_cap} before \"byte\"; then the "
             "module's MAX_LINES and MAX_BYTES after the tool was made; then whether it names "
             f"the last lines, the end or the tail beside {lines_cap}, as if a read "
             "returned a file's end; then whether it or a parameter's description says lines "
             "count from 0, or gives offset as the lines to skip, when offset counts from 1; then the numbers it gives as a budget "
             "(before lines or bytes, or with at most, up to or max) that are not the tool's.")
    zero_bytes, past = 0, total + t.random.randint(1, 5)  # both budgets 0
    at = t.random.randint(1, total)
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": name, "offset": past}),
                                         lab.call("read", {"path": one}),
                                         lab.call("read", {"path": name, "offset": at})),
                               lab.say("Nothing shown.")])
    await run(model, [harness.make_read_tool(ws, max_lines=0, max_bytes=zero_bytes)],
              "Read with nothing to spend.")
    t.expect([[m["is_error"], m["content"]] for m in results(model.calls[1].messages)],
             why=f"One reply of reads by a tool made with max_lines=0, max_bytes={zero_bytes}: "
                 f"{name} ({total} lines) at offset {past}, {one} (one line of four bytes or "
                 f"more), {name} at offset {at}: each result's [is_error, content] in the next "
                 "request.")
    budget = t.random.randint(40, 80)
    crlf = "é" * t.random.randint(budget, 2 * budget) + "\r\n"
    ws.write_text("crlf.txt", "head\n" + crlf + "after\n")
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "crlf.txt", "offset": 2}),
                                         lab.call("read", {"path": "crlf.txt"})),
                               lab.say("Too big.")])
    await run(model, [harness.make_read_tool(ws, max_bytes=budget)], "Read crlf.txt.")
    t.expect([m["content"] for m in results(model.calls[1].messages)],
             why=f"crlf.txt, \"head\\n\", a line of {len(crlf) - 2} \"é\"s ending in "
                 f"\"\\r\\n\", and \"after\\n\", read at offset 2 and from the top by a tool "
                 f"made with max_bytes={budget}: the results in the next request.")
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "crlf.txt"})),
                               lab.say("Read it again.")])
    await run(model, [read], "Read crlf.txt with the first tool.")
    t.expect([m["content"] for m in results(model.calls[1].messages)],
             why="crlf.txt read from the top by the first read tool of this scenario, made with "
                 f"max_lines={lines_cap}, max_bytes={bytes_cap}, after the tools with other "
                 "budgets were made: the result in the next request.")


@lab_test("A model pages through files by following each note it is sent: through a read tool "
          "with a byte budget of 0, one line at a time, and through one whose line and byte "
          "budgets meet exactly, over a file of a whole number of pages.")
async def test_bank_a_model_pages_by_the_notes(t):
    def pager(name, extra):
        def follow(request):
            last = request.messages[-1]
            if last["role"] == "user":
                return lab.reply(lab.call("read", {"path": name, **extra}))
            going = re.search(r"Use offset=(\d+) to", last["content"])
            if going:
                return lab.reply(lab.call("read", {"path": name, "offset": int(going.group(1)),
                                                   **extra}))
            return lab.say("That is the file.")
        return lab.ScriptedModel([lab.forever(follow)])

    name = t.random.choice(NAMES)
    small = [worded(t, n) + "\n" for n in range(1, t.random.randint(3, 5))]
    model = pager(name, {"limit": 1})
    record = await run(model, [harness.make_read_tool(lab.Workspace({name: "".join(small)}),
                                                      max_bytes=0)], "Page it.", max_turns=12)
    t.expect([m["content"] for m in results(record)],
             [f"[Line {n} of {name} is {size(line)} bytes, over the 0-byte budget of one read, "
              "so none of it is shown." + (f" Use offset={n + 1} to skip it." if n < len(small)
                                           else "") + "]" for n, line in enumerate(small, 1)],
             f"A read tool made with max_bytes=0, paged with limit 1 from the top of "
             f"{''.join(small)!r} by following each note: every result the run records.")
    zero_bytes = t.random.randint(0, 3)  # under every line's four bytes or more
    found = []
    for offset in (t.random.randint(1, len(small)), len(small) + t.random.randint(1, 4)):
        model = pager(name, {"offset": offset})
        record = await run(model, [harness.make_read_tool(
            lab.Workspace({name: "".join(small)}), max_lines=0, max_bytes=zero_bytes)],
            "Page it.", max_turns=12)
        found.append([[m["is_error"], m["content"]] for m in results(record)])
    t.expect(found[0], [[False, f"[No line of {name} is shown: this read's budget is 0 lines.]"]],
             f"A read tool made with max_lines=0 and max_bytes={zero_bytes}, asked for "
             f"{''.join(small)!r} from a drawn offset: it shows no line and says so, whatever "
             "the line's size, with no note to follow (Build item 4): every result the run "
             "records, as [is_error, content].")
    t.expect(found[1], why=f"The same tool asked for {''.join(small)!r} from an offset past its "
                           "last line: every result the run records, as [is_error, content].")
    huge = t.random.randint(2**65, 2**t.random.randint(10_000, 14_000))
    record = await run(pager(name, {"limit": huge}), [harness.make_read_tool(
        lab.Workspace({name: "".join(small)}))], "Page it.", max_turns=12)
    t.expect([m["content"] for m in results(record)], ["".join(small)],
             f"A read tool paging {''.join(small)!r} with a limit of {huge.bit_length()} bits, "
             "a limit with no top but its own: every result the run records.")
    record = await run(pager(name, {"offset": None, "limit": None}), [harness.make_read_tool(
        lab.Workspace({name: "".join(small)}))], "Page it.", max_turns=12)
    t.expect([[m["content"] for m in results(record)],
              [block["arguments"] for m in record if m["role"] == "assistant"
               for block in m["content"] if block.get("type") == "toolCall"]],
             [["".join(small)], [{"path": name, "offset": None, "limit": None}]],
             f"A read tool paging {''.join(small)!r} with offset and limit sent as None: the "
             "results the run records, and the arguments of the calls on the record, as the "
             "model sent them (None kept, nothing written in or deleted).")
    vast = int(10 ** t.random.uniform(5.1, 6))  # a line of 125,000 to a million bytes
    paged = worded(t, 1) + "\n" + "y" * vast + "\n" + worded(t, 3) + "\n"
    record = await run(pager(name, {"limit": 1}), [harness.make_read_tool(
        lab.Workspace({name: paged}))], "Page it.", max_turns=12)
    t.expect([m["content"] for m in results(record)],
             [paged.split("\n")[0] + "\n[Showing lines 1-1 of 3. Use offset=2 to continue.]",
              f"[Line 2 of {name} is {vast + 1} bytes, over the 50000-byte budget of one read, "
              "so none of it is shown. Use offset=3 to skip it.]", paged.split("\n")[2] + "\n"],
             f"A read tool with the course's budget paging, limit 1, a file of a line, one of "
             f"{vast} \"y\"s, and a line, by following each note: every result the run records.")
    width, page, pages = t.random.randint(3, 9), t.random.randint(2, 5), t.random.randint(2, 3)
    lines = [f"{n}".ljust(width, "-") + "\n" for n in range(1, page * pages + 1)]
    model = pager(name, {})
    record = await run(model, [harness.make_read_tool(lab.Workspace({name: "".join(lines)}),
                                                      max_lines=page,
                                                      max_bytes=page * (width + 1))],
                       "Page it.", max_turns=12)
    t.expect([m["content"] for m in results(model.calls[-1].messages)],
             ["".join(lines[p * page:(p + 1) * page]) + (
                 f"[Showing lines {p * page + 1}-{(p + 1) * page} of {len(lines)}. Use "
                 f"offset={(p + 1) * page + 1} to continue.]" if p < pages - 1 else "")
              for p in range(pages)],
             f"A read tool made with max_lines={page}, max_bytes={page * (width + 1)} (exactly "
             f"{page} lines of {width + 1} bytes), one tool for every read, paging a file of "
             f"{len(lines)} such lines by its notes: the results in the model's last request.")
    told = model.calls[0].tools[0]["description"]
    t.expect([stated(told, [(page, "line"), (page * (width + 1), "byte")]),
              [harness.MAX_LINES, harness.MAX_BYTES]], [[True, True], [2000, 50_000]],
             f"That tool's description as the model is sent it, {told!r}: whether {page} stands "
             f"before \"line\" and {page * (width + 1)} before \"byte\"; then the module's "
             "MAX_LINES and MAX_BYTES after the tools above were made.")
    vast = "".join(f"{n:01999d}\n" for n in range(1, t.random.randint(550, 800)))  # over 1 MB
    model = pager(name, {})
    await run(model, [harness.make_read_tool(lab.Workspace({name: vast}), max_lines=10**9,
                                             max_bytes=10**12)], "Page it.", max_turns=12)
    t.expect([[m["content"].count("\n"), len(m["content"])]
              for m in results(model.calls[-1].messages)],
             why=f"A model paging a file of {vast.count(chr(10))} lines of 2000 bytes "
                 f"({len(vast)} bytes) through a read tool made with max_lines=10**9, "
                 "max_bytes=10**12, the lesson's own: the [newlines, length] of each result in "
                 "its last request.")
    lim = t.random.randint(2, 4)
    plain = "".join(f"{n}\n" for n in range(1, lim * 2 + t.random.randint(1, lim)))
    model = pager(name, {"limit": lim})
    await run(model, [harness.make_read_tool(lab.Workspace({name: plain}))], "Page it.",
              max_turns=12)
    t.expect([m["content"] for m in results(model.calls[-1].messages)],
             why=f"A model paging {plain!r} with limit {lim} on every read, the first with no "
                 "offset: the results in its last request.")
    heavy = [worded(t, n) + "中" * 6 + "\n" for n in range(1, t.random.randint(6, 9))]
    k = t.random.randint(2, 3)
    budget = size("".join(heavy[:k]))
    heavy.insert(t.random.randint(k + 1, len(heavy) - 1), "#" * (budget + 1) + "\r\n")
    end = t.random.choice(("\x85", "\u2028") + RARE)
    heavy.insert(t.random.randint(k + 1, len(heavy) - 1), "#" * (budget + 1) + end)
    model = pager(name, {})
    await run(model, [harness.make_read_tool(lab.Workspace({name: "".join(heavy)}),
                                             max_bytes=budget)], "Page it.", max_turns=20)
    t.expect([m["content"] for m in results(model.calls[-1].messages)],
             why=f"A model paging {''.join(heavy)!r} by its notes, through a read tool made with "
                 f"max_bytes={budget} (its first {k} lines exactly, each line of three-byte "
                 "characters), past two lines over budget, one ending in \"\\r\\n\", one in a "
                 "rarer break: the results in its last request.")
    count = t.random.randint(100_001, 160_000)  # hunt 26, 6.1-37 and 6.1-56; hunt 31, 6.1-44
    tail = [worded(t, n) + "\n" for n in range(1, 4)]
    ws = lab.Workspace({name: "-\n" * (count - 3) + "".join(tail)})
    at = t.random.randint(count - 2, count - 1)
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": name, "offset": at,
                                                           "limit": 1}),
                                         lab.call("read", {"path": name, "offset": count})),
                               lab.say("Read the end.")])
    await run(model, [harness.make_read_tool(ws)], "Read the end.")
    t.expect([m["content"] for m in results(model.calls[1].messages)],
             [tail[at - count + 2] + f"[Showing lines {at}-{at} of {count}. Use "
              f"offset={at + 1} to continue.]", tail[2]],
             f"A model reads a file of {count} lines at offset {at} with limit 1, then at offset "
             f"{count}, its last line: the results in the next request, the lines asked for, "
             "however big the file, and the note as the Build writes it, N in digits alone.")
    # hunt 31, 6.1-24 and 6.1-51: paged with a limit past 1000 that the budget holds, a file
    # whose lines are blank one in two: every line asked for, and N counting the blank ones
    lim = t.random.randint(1001, 1999)
    gapped = [worded(t, n) + "\n" if n % 2 else t.random.choice(["\n", " \n", "\t\n"])
              for n in range(1, lim + t.random.randint(2, lim))]
    model = pager(name, {"limit": lim})
    await run(model, [harness.make_read_tool(lab.Workspace({name: "".join(gapped)}))],
              "Page it.", max_turns=12)
    t.expect([m["content"] for m in results(model.calls[-1].messages)],
             ["".join(gapped[:lim]) + f"[Showing lines 1-{lim} of {len(gapped)}. Use "
              f"offset={lim + 1} to continue.]", "".join(gapped[lim:])],
             f"A model paging a file of {len(gapped)} lines, blank one in two, with limit {lim} "
             "on every read, by following the notes, through a tool with the course's budget, "
             "which holds that many: the results in its last request, every line asked for, "
             "and N counting every line of the file.")
    # hunt 29, 6.1-33: a result of over two million characters goes out as the record holds it;
    # hunt 37, 6.1-06 and 6.1-45: over five million, past a cap of the tool's or the view's own
    bulk = "".join(c * t.random.randint(1_260_000, 1_500_000) + "\n" for c in "klmn")
    ws.write_text("bulk.txt", bulk)
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "bulk.txt"})),
                               lab.say("Read it all.")])
    record = await run(model, [harness.make_read_tool(ws, max_lines=10**6, max_bytes=10**9)],
                       "Read bulk.txt.")
    t.expect([[m["content"] == bulk for m in results(record)],
              [m["content"] == bulk for m in results(model.calls[1].messages)]], [[True], [True]],
             f"A model reads bulk.txt, {len(bulk)} characters in 4 lines, by a tool made with "
             "max_lines=10**6 and max_bytes=10**9: whether the record's result is all of it, "
             "then whether the next request's is: no budget of the view's own.")


# --- rule 5: bash's budget ------------------------------------------------------------------

@lab_test("A model runs a failing build whose verdict is printed last without a newline, and a "
          "report that ends in blank lines, through a bash tool with a line cap: the results "
          "the model is sent next.")
async def test_bank_a_model_reads_the_tail_of_two_commands(t):
    cap = t.random.randint(3, 6)
    progress = [f"step {n}\n" for n in range(1, cap + t.random.randint(1, 5))]
    verdict, code = f"FAILED: {t.random.choice(NAMES)}, line {t.random.randint(2, 90)}", \
        t.random.randint(1, 9)
    blank = t.random.randint(1, cap - 2)
    report = [f"row {n}\n" for n in range(1, cap + 2)] + ["all good\n"] + ["\n"] * blank
    shell = lab.Shell(lab.Workspace(), commands={
        "build": lambda args, ws: ("".join(progress) + verdict, code),
        "report": lambda args, ws: ("".join(report), 0)})
    order = t.random.sample(["build", "report"], 2)
    model = lab.ScriptedModel([lab.reply(*[lab.call("bash", {"command": c}) for c in order]),
                               lab.say("Read both.")])
    await run(model, [harness.make_bash_tool(shell, max_lines=cap)], "Build and report.")
    printed = {"build": progress + [verdict], "report": report}
    tail = {"build": f"\nCommand exited with code {code}", "report": ""}
    t.expect([m["content"] for m in results(model.calls[1].messages)],
             ["".join(printed[c][-cap:]) + ("\n" if c == "build" else "") +
              f"\n[Showing the last {cap} of {len(printed[c])} lines. Narrow the command for "
              "more.]" + tail[c] for c in order],
             f"`build` prints {''.join(printed['build'])!r} and exits {code}; `report` prints "
             f"{''.join(report)!r}. Through a bash tool made with max_lines={cap}, the result of "
             f"each, in the order {order}, in the request after: the last {cap} lines as "
             "printed, a blank line, the note, and the status line last.")
    told = model.calls[0].tools[0]["description"]
    t.expect([first_named(told, cap), end_cut(told), first_kept(told),
              bytes_as_characters(told, harness.MAX_BYTES)], [False, False, False, False],
             f"The bash tool's description as the model is sent it, {told!r}: whether it names "
             f"the first lines, the head, the top or the beginning just before {cap}, the lines "
             "it keeps, which are the last; then whether it says the end, the tail or the last "
             "lines are what it cuts off; then whether it says the first lines, or what is seen "
             "first, are what it keeps; then whether it says a byte is a character, or gives its "
             f"byte budget, {harness.MAX_BYTES}, as that many characters.")
    many, spare = rarely_broken(t), t.random.randint(2, 5)
    whole = "".join(f"row {n}\n" for n in range(1, spare))
    both = lab.Shell(lab.Workspace(), commands={"many": lambda args, ws: (many, 0),
                                                "whole": lambda args, ws: (whole, 0)})
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "many"}),
                                         lab.call("bash", {"command": "whole"})),
                               lab.say("Read both.")])
    await run(model, [harness.make_bash_tool(both, max_lines=spare, max_bytes=size(whole))],
              "Run many and whole.")
    t.expect([m["content"] for m in results(model.calls[1].messages)],
             why=f"`many` prints {len(many.splitlines())} lines, each ending in a break other "
                 "than \"\\n\"; "
                 f"`whole` prints {whole!r}. Through a bash tool made with max_lines={spare}, "
                 f"max_bytes={size(whole)}, exactly `whole`'s size: the results in the request "
                 "after.")
    vast = int(10 ** t.random.uniform(5.1, 6))  # a last line of 125,000 to a million bytes
    dump = lab.Shell(lab.Workspace(), commands={
        "dump": lambda args, ws: ("".join(progress) + "#" * vast, 0)})
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "dump"})),
                               lab.say("Read it.")])
    await run(model, [harness.make_bash_tool(dump)], "Run dump.")
    t.expect([m["content"] for m in results(model.calls[1].messages)],
             [f"\n[Showing the last 0 of {len(progress) + 1} lines. Narrow the command for "
              "more.]"],
             f"`dump` prints the steps, then {vast} \"#\"s without a newline: through a bash tool "
             "with the course's budget, the result in the request after; a last line over the "
             "budget is never cut inside.")
    ends = t.random.sample(["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
                            "\u2029"], 9)  # every break but "\n" and "\r\n", drawn order
    found = []
    for last in ends:
        odd = lab.Shell(lab.Workspace(), commands={
            "odd": lambda args, ws, last=last: ("".join(progress) + "done" + last, 0)})
        model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "odd"})),
                                   lab.say("Read it.")])
        await run(model, [harness.make_bash_tool(odd, max_lines=1)], "Run odd.")
        found.append([m["content"] for m in results(model.calls[1].messages)])
    t.expect(found, [[f"done{last}\n\n[Showing the last 1 of {len(progress) + 1} lines. Narrow "
                      "the command for more.]"] for last in ends],
             f"Then `odd` prints the steps and a last line ending in each of {ends!r}, through "
             "a bash tool made with max_lines=1: the result each time, the note after "
             "\"\\n\\n\" whatever break ends the kept line.")


@lab_test("bash tools called through run_tool: one with a budget above the course's, over a "
          "command printing more than 2000 lines, and one with a byte budget of 0: each result.")
async def test_bank_run_tool_gives_bash_the_budget_it_was_made_with(t):
    long = 2000 + t.random.randint(1, 400)
    roomy_lines = long + t.random.randint(0, 100)
    roomy = harness.make_bash_tool(lab.Shell(lab.Workspace()), max_lines=roomy_lines,
                                   max_bytes=6 * long + t.random.randint(0, 999))
    done = await settle(harness.run_tool([roomy], lab.call("bash", {"command": f"seq {long}"},
                                                           id="b1")))
    # hunt 37, 6.1-31: output of over four million bytes, in lines of 40,000, past a byte cap of
    # bash's own at 4 MB, through a tool whose budget holds it all
    flood = "".join(f"{n}".ljust(39_999, "=") + "\n" for n in range(1, t.random.randint(102, 131)))
    vast = await settle(harness.run_tool(
        [harness.make_bash_tool(lab.Shell(lab.Workspace(), commands={
            "flood": lambda args, ws: (flood, 0)}), max_lines=10**6, max_bytes=10**9)],
        lab.call("bash", {"command": "flood"}, id="b0")))
    t.expect([vast["is_error"], vast["content"] == flood], [False, True],
             f"run_tool on a bash tool made with max_lines=10**6, max_bytes=10**9, running a "
             f"command that prints {len(flood.splitlines())} lines, {size(flood)} bytes: "
             "[is_error, whether the content is all of it]: the budget is the one the factory "
             "was given, however large, with no cap of the tool's own below it.")
    words = [worded(t, n) for n in range(1, t.random.randint(2, 4))]
    said = " ".join(words)
    zero = harness.make_bash_tool(lab.Shell(lab.Workspace()), max_bytes=0)
    none = await settle(harness.run_tool([zero], lab.call("bash", {"command": f"echo {said}"},
                                                          id="b2")))
    t.expect([[done["is_error"], done["content"].count("\n"), done["content"].splitlines()[-1]],
              [none["is_error"], none["content"]]],
             [[False, long, str(long)],
              [False, "\n[Showing the last 0 of 1 lines. Narrow the command for more.]"]],
             f"run_tool on a bash tool whose budget holds {long} lines, running `seq {long}`: "
             "[is_error, lines, its last line]; then on one made with max_bytes=0, "
             f"running `echo {said}`: [is_error, content].")
    heavy = [worded(t, n) + "中" * 6 + "\n" for n in range(1, t.random.randint(4, 7))]
    k = t.random.randint(2, len(heavy) - 1)
    fits = harness.make_bash_tool(lab.Shell(lab.Workspace(), commands={
        "check": lambda args, ws: ("".join(heavy), 0)}), max_bytes=size("".join(heavy[-k:])))
    checked = await settle(harness.run_tool([fits], lab.call("bash", {"command": "check"},
                                                             id="b3")))
    exact = harness.make_bash_tool(lab.Shell(lab.Workspace(), commands={
        "check": lambda args, ws: ("".join(heavy), 0)}), max_bytes=size("".join(heavy)))
    whole = await settle(harness.run_tool([exact], lab.call("bash", {"command": "check"},
                                                            id="b4")))
    told = [spec["description"] for spec in harness.tool_specs([roomy, zero, fits])]
    t.expect([checked["content"], whole["content"],
              [["byte" in d.lower(), bool(re.search(r"\b(last|end|tail)\b", d.lower()))]
               for d in told], first_named(told[0], roomy_lines)],
             why=f"`check` prints {''.join(heavy)!r}; run_tool on a bash tool made with "
                 f"max_bytes={size(''.join(heavy[-k:]))} (its last {k} lines exactly): the "
                 f"content; then on one made with max_bytes={size(''.join(heavy))}, all of it "
                 "exactly; then, for each bash tool's spec, whether its description names bytes "
                 "and the end it keeps (last, end or tail); then whether the roomy tool's names "
                 f"the first lines, the head, the top or the beginning just before {roomy_lines}.")
    many = rarely_broken(t)
    cut = await settle(harness.run_tool(
        [harness.make_bash_tool(lab.Shell(lab.Workspace(), commands={
            "many": lambda args, ws: (many, 0)}))], lab.call("bash", {"command": "many"}, id="b5")))
    t.expect([cut["is_error"], cut["content"].rsplit("\n", 1)[-1]],
             why=f"run_tool on a bash tool with the default budget, running a command that prints "
                 f"{len(many.splitlines())} lines, each ending in a break other than \"\\n\": "
                 "[is_error, what follows the last newline].")
    bulk = "#" * t.random.randint(1_550_000, 2_500_000) + "\r" + many  # hunt 29, 6.1-29
    cut = await settle(harness.run_tool(
        [harness.make_bash_tool(lab.Shell(lab.Workspace(), commands={
            "bulk": lambda args, ws: (bulk, 0)}), max_lines=10, max_bytes=10**9)],
        lab.call("bash", {"command": "bulk"}, id="b6")))
    t.expect([cut["is_error"], cut["content"].rsplit("\n", 1)[-1]],
             why=f"run_tool on a bash tool made with max_lines=10, max_bytes=10**9, running a "
                 "command that "
                 f"prints {len(bulk.splitlines())} lines ({len(bulk)} characters), a first of "
                 "over 1,500,000 \"#\"s, each ending in a break other than \"\\n\": [is_error, "
                 "what follows the last newline]; T counted as read counts lines, however long "
                 "the output.")
