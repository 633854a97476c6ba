"""Lesson 6, lab 1: fit the budget. The tests of the two truncators, int_arg, read's paging and
its messages, and bash's tail.

Descriptions are yours to word, so they are checked for what they must state, not for their
wording: the budget's numbers, its unit (bytes), and for bash the end it keeps.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 6 tests.py
"""
import re

import harness
import lab
from lab.kit import lab_test, raised, settle, tool

LAB = "6.1"
SYSTEM = "You help with a small project."


def numbered(n, width=0):
    """Lines "1\\n" .. "n\\n" (each padded with dots to `width` characters, before its newline)."""
    return "".join(f"{i}".ljust(width, ".") + "\n" for i in range(1, n + 1))


async def read(ws, arguments, **budget):
    """What read returns for `arguments`, or the error it raises, as a string."""
    tool_ = harness.make_read_tool(ws, **budget)
    box = {}

    async def attempt():
        box["value"] = await settle(tool_["execute"](arguments))
    error = await raised(attempt)
    return error if error is not None else box["value"]


FIRST = "first|head|top|beginning|start|opening|initial|leading|front|earliest"


ZERO = (r"\bfirst(?:\s+line)?\s+is\s+(?:line\s+)?(?:0|zero)\b"
        r"|\b(?:count\w*|number\w*|index\w*|start\w*|begin\w*)\s+(?:from|at|with|on)\s+"
        r"(?:line\s+)?(?:0|zero)\b|\b(?:0|zero)[- ]?(?:based|indexed)\b"
        r"|\b(?:0|zero)\s*(?:for|is|means|=|:)\s*(?:the\s+)?(?:top|first|start|beginning|head)\b"
        r"|\b(?:top|start|beginning|head)\s*(?:is|=|:)\s*(?:line\s+)?(?:0|zero)\b"
        r"|\bline\s+(?:0|zero)\s+(?:opens|starts|begins|is\s+(?:the\s+)?(?:top|first|start|"
        r"beginning|head))\b"  # "line 0 opens the file" (hunt 29, 6.1-36)
        r"|\b(?:first|top|start|beginning|head|opening)(?:\s+line)?\s+(?:has|is\s+at|is|at|gets?)"
        r"\s+(?:the\s+)?(?:index|position|number|offset|line\s+number)\s+(?:0|zero)\b"
        r"|\b(?:index|position|offset|line\s+number)\s+(?:0|zero)\s+(?:opens|starts|"
        r"begins)\b"  # "the first line has index 0" (hunt 37, 6.1-33)
        r"|\b(?:how\s+many|number\s+of|count\s+of)\s+(?:\w+\s+){0,2}?lines?\s+(?:to\s+)?(?:skip|pass|"
        r"jump|leave|omit|ignore|drop)|\blines?\s+to\s+(?:skip|pass\s+over|jump\s+over|leave\s+out|"
        r"omit|ignore|drop)\b|\bskip\s+(?:this|that|so)\s+many\s+lines?\b")
# the last alternatives: offset given as the lines to skip, so that offset=1 would start at line 2
# (hunt 37, 6.1-43)


def counted_from_0(spec):
    """Whether a tool spec's description, or one of its parameters', says lines are counted
    from 0, or gives `offset` as a number of lines to skip: `offset` counts from 1, and a model
    told otherwise asks for the line before."""
    said = [spec["description"]] + [p.get("description", "")
                                    for p in spec["parameters"]["properties"].values()]
    return any(re.search(ZERO, d.lower()) for d in said)


END_CUT = (r"\b(?:end|ending|tail|bottom|last\s+(?:\w+\s+){0,2}?lines?)(?:\s+\w+){0,3}?\s+"
           r"(?:is\s+|are\s+|gets?\s+)?(?:cut|dropped|removed|truncated|lost|discarded|omitted|"
           r"trimmed|deleted)\b|\b(?:cuts?|drops?|removes?|truncates?|loses?|discards?|omits?|"
           r"trims?|deletes?)\s+(?:off\s+)?(?:the\s+|its\s+)?(?:end|tail|bottom|last)\b"
           r"|\b(?:end|ending|tail|bottom)\s+(?:is|are)\s+(?:not|never)\s+(?:shown|kept|"
           r"returned|included|given|seen)\b")  # "to the end is not shown" (hunt 22)


def end_cut(description):
    """Whether a description says the end, the tail or the last lines are what is cut: bash
    keeps them, and a model told otherwise reads the verdict as lost."""
    return bool(re.search(END_CUT, description.lower()))


BUDGET_NUMBER = (r"(?:at\s+most|up\s+to|max(?:imum)?|limit\s+of|budget\s+of|cap\s+of)\s+(\d+)"
                 r"|(?<![-\w])(\d+)\s*(?:\w+\s+)?(?:lines?|bytes?|char\w*)\b"
                 r"|(?<![-\w])(\d+)\s+(?:at\s+most|max(?:imum)?)\b")


def budget_numbers(text):
    """The numbers a description gives as a budget: before lines, bytes or characters, or
    with "at most", "up to" or "max" (separators inside a number ignored)."""
    plain = re.sub(r"(?<=\d)[,_ ](?=\d{3})", "", text).lower()
    return [int(next(g for g in m.groups() if g)) for m in re.finditer(BUDGET_NUMBER, plain)]


BYTE_IS_CHARACTER = (r"\bbytes?\s+(?:is|are|=|equals?|means?|counts?\s+as)\s+(?:one\s+|a\s+|1\s+)?"
                     r"char(?:acter)?s?\b|\b(?:one|a|1|each)\s+char(?:acter)?s?\s+(?:is|=|equals?)"
                     r"\s+(?:one|a|1)\s+bytes?\b"
                     r"|\bbytes?\s*[,(]?\s*(?:that\s+is|i\.?e\.?,?|in\s+other\s+words|meaning|aka|or)"
                     r"\s+(?:(?:\d+|one|a)\s+)?char(?:acter)?s?\b")  # "bytes, that is ... characters"


def bytes_as_characters(description, max_bytes):
    """Whether a description says a byte is a character, or gives its byte budget, `max_bytes`,
    as that many characters: a budget in bytes is not one in characters ("é" costs two), and a
    model told otherwise plans reads that do not fit (hunt 37, 6.1-42)."""
    plain = re.sub(r"(?<=\d)[,_ ](?=\d{3})", "", description).lower()
    return bool(re.search(BYTE_IS_CHARACTER, plain)
                or re.search(rf"(?<![-\w]){max_bytes}\s+(?:\w+\s+)?char", plain))


LAST = "last|end|tail|final|closing|trailing|bottom|concluding|latter|terminal"


def last_named(description, lines):
    """Whether a description names the last lines, the end or the tail beside its line count,
    as if a read returned a file's end: it starts at its offset (hunt 37, 6.1-35)."""
    plain = re.sub(r"(?<=\d)[,_ ](?=\d{3})", "", description).lower()
    return bool(re.search(rf"\b(?:{LAST})\W+(?:\w+\W+){{0,2}}{lines}\b|\b{lines}\s+(?:(?:{LAST})\s+"
                          rf"lines?\b|lines?\s+(?:at|from|nearest)\s+(?:the\s+)?(?:end|bottom|tail)\b)",
                          plain))


def first_kept(description):
    """Whether a description says the first lines, or what is seen first, are what is kept:
    bash keeps the end, and a model told otherwise reads the verdict as lost (hunt 29, 6.1-35)."""
    return bool(re.search(rf"\b(?:{FIRST})\b(?:\s+\w+){{0,3}}?\s+(?:is|are)\s+(?:what\s+"
                          r"(?:is|gets|are)\s+)?(?:kept|retained|preserved)\b|\bkeeps?\s+(?:the\s+)?"
                          rf"(?:{FIRST})\b", description.lower()))


def numbers_in(text):
    """The whole numbers a text states, with separators inside a number ignored: "50,000" and
    "50_000" and "50000" all read as 50000."""
    return [int(n) for n in re.findall(r"\d+", re.sub(r"(?<=\d)[,_ ](?=\d{3})", "", text))]


@lab_test("MAX_LINES is 2000 and MAX_BYTES is 50_000, and they are the truncators' "
          "defaults: texts of about 2000 lines, and of long lines, drawn under the seed, are cut "
          "at whichever limit comes first, in bytes however long the text.")
async def test_the_constants(t):
    t.expect([harness.MAX_LINES, harness.MAX_BYTES], [2000, 50_000],
             "One result's budget: 2000 lines or 50,000 bytes, whichever comes first "
             "(lesson 6).")
    counts = [1999, 2000, 2001, t.random.randint(2002, 3000)]
    widths = t.random.sample(range(26, 200), 2)  # bytes per line, newline included
    found = [harness.truncate_head("x\n" * n)[1] for n in counts]
    found += [harness.truncate_head(("y" * (w - 1) + "\n") * 2001)[1] for w in widths]
    t.expect(found, [min(n, 2000) for n in counts] + [50_000 // w for w in widths],
             "Called without limits, truncate_head keeps at most MAX_LINES lines and at most "
             "MAX_BYTES bytes. Each item is the lines kept of one text: first texts of short "
             "lines, then texts of 2001 lines of a few dozen bytes or more (truncate_head, "
             "lesson 6).")
    accented = ("é" * (widths[0] - 1) + "\n") * t.random.randint(2001, 2400)
    t.expect([harness.truncate_head(accented)[1], harness.truncate_tail(accented)[1]],
             [50_000 // (2 * widths[0] - 1)] * 2,
             "A long text is counted in bytes as a short one is: a line of "
             f"{widths[0] - 1} \"é\"s and its newline costs {2 * widths[0] - 1} bytes, not "
             f"{widths[0]}, however many lines the text has (Build items 2 and 3, \"at most "
             "`max_bytes` bytes of UTF-8\"). Items: the lines truncate_head keeps, then "
             f"truncate_tail, of {accented.count(chr(10))} such lines under the default budget "
             "(truncate_head and truncate_tail, lesson 6).")
    # 2001 lines of 1001 to 1999 bytes: a text of two to four million characters, cut whole
    # lines at a time like any other (hunt 26, 6.1-44); no width divides 50,000 evenly
    wide = t.random.choice([w for w in range(1001, 2000) if 50_000 % w])
    vast = ("v" * (wide - 1) + "\n") * 2001
    kept, shown = harness.truncate_head(vast)
    t.expect([shown, len(kept), kept.endswith("\n")], [50_000 // wide, 50_000 // wide * wide, True],
             "A text of millions of characters is cut as a short one is, whole lines at a time, "
             "in bytes however long the text: nothing is ever cut inside a line (Build item 2, "
             "\"the longest run of whole lines from the top\"). Items: the lines truncate_head "
             f"keeps of 2001 lines of {wide} bytes each ({len(vast)} characters) under the "
             "default budget, the length of what it keeps, and whether that ends in a newline "
             "(truncate_head, lesson 6).")


PIECES = ["a", "b", "cd", "é", "ß", "€", "🙂", "naïve", "日本", " ", "x = 1"]
MULTIBYTE = ["é", "ß", "€", "🙂", "日本"]


def drawn_line(t, newline=True):
    """A line of drawn words, one of them at least written in more than one byte of UTF-8."""
    words = [t.random.choice(PIECES) for _ in range(t.random.randint(0, 3))]
    words.insert(t.random.randint(0, len(words)), t.random.choice(MULTIBYTE))
    return "".join(words) + ("\n" if newline else "")


def size(lines):
    """The lines' size in bytes of UTF-8: what a budget counts."""
    return sum(len(line.encode()) for line in lines)


@lab_test("Short text comes back whole from both truncators, with its line count; empty text "
          "is (\"\", 0).")
async def test_short_text_is_whole(t):
    texts = [""] + ["".join(drawn_line(t) for _ in range(t.random.randint(1, 6))) +
                    t.random.choice(["", drawn_line(t, newline=False)]) for _ in range(4)]
    t.expect([[list(harness.truncate_head(text)), list(harness.truncate_tail(text))]
              for text in texts],
             [[[text, len(text.splitlines())]] * 2 for text in texts],
             "Within budget nothing is cut: (kept, lines_shown) is (text, its lines), and a last "
             "line without a newline is still a line; empty text keeps nothing. Each item is "
             "[truncate_head(text), truncate_tail(text)] for one drawn text (truncate_head and "
             "truncate_tail, lesson 6).")


@lab_test("The line cap keeps whole lines from the top: n lines under max_lines=cap give the "
          "first min(n, cap), newlines and all, for sizes and caps drawn under the seed.")
async def test_the_line_cap(t):
    cases = []
    for _ in range(4):
        cap = t.random.randint(1, 9)
        for n in (cap, cap + t.random.randint(1, 6), t.random.randint(0, cap)):
            cases.append([cap, [drawn_line(t) for _ in range(n)]])
    t.expect([list(harness.truncate_head("".join(lines), max_lines=cap)) for cap, lines in cases],
             [["".join(lines[:cap]), min(cap, len(lines))] for cap, lines in cases],
             "truncate_head keeps at most max_lines whole lines, from the top, and exactly "
             "max_lines lines all fit. Each item is (kept, lines_shown) for one text and cap "
             "(truncate_head, lesson 6).")
    below = -t.random.randint(1, 9)
    # more lines than the cap is below 0, so that a cap taken as a slice, lines[:cap] or
    # lines[-cap:], keeps some of them (hunt 26, 6.1-30 and 6.1-61)
    text = "".join(drawn_line(t) for _ in range(-below + t.random.randint(1, 5)))
    t.expect([list(harness.truncate_head(text, max_lines=0)),
              list(harness.truncate_head(text, max_bytes=0)),
              list(harness.truncate_head(text, max_lines=below)),
              list(harness.truncate_head(text, max_bytes=below)),
              list(harness.truncate_tail(text, max_lines=below)),
              list(harness.truncate_tail(text, max_bytes=below))], [["", 0]] * 6,
             "A cap of 0 is a cap, not \"no cap\": at most 0 lines, or at most 0 bytes, keeps "
             "nothing, and a cap below 0 can hold no more, however many lines the text has "
             "(Build item 2, \"at most `max_lines` lines and at most `max_bytes` bytes\"; "
             "after the Build list, \"at most −1 lines is no line\"). Items: for a text of "
             f"{text.count(chr(10))} lines, (kept, lines_shown) under "
             f"max_lines=0, then max_bytes=0, then max_lines={below} and max_bytes={below} by "
             "truncate_head, then by truncate_tail (truncate_head and truncate_tail, lesson 6).")
    cap = t.random.randint(1, 9)
    rare = [drawn_line(t, newline=False) + t.random.choice(BREAKS[2:])
            for _ in range(cap + t.random.randint(1, 6))]
    t.expect(list(harness.truncate_head("".join(rare), max_lines=cap)),
             ["".join(rare[:cap]), cap],
             "The line cap counts lines as str.splitlines does, whichever break ends them, not "
             "the \"\\n\"s in the text (Build item 2, \"A line runs up to and including a "
             "line break\"). The item is (kept, lines_shown) of "
             f"{''.join(rare)!r} under max_lines={cap} (truncate_head, lesson 6).")
    # Drawn last: 5001 to 5100 lines under a cap that holds them all, past a cap of 5000 of the
    # function's own (hunt 31, 6.1-05); blank lines, one byte each, so that a cut measuring its
    # kept text again for every line (beyond reach) stays as quick here as elsewhere
    tall = t.random.randint(5001, 5100)
    cap = tall + t.random.randint(0, 1000)
    kept, lines_shown = harness.truncate_head("\n" * tall, max_lines=cap, max_bytes=10**9)
    t.expect([kept == "\n" * tall, lines_shown], [True, tall],
             "max_lines is the only line cap: no cap of the function's own below it, however "
             "many lines the text has (Build item 2, \"at most `max_lines` lines\"). Items: "
             f"whether truncate_head of {tall} blank lines under max_lines={cap}, "
             "max_bytes=10**9 keeps them all, then the lines it shows (truncate_head, lesson 6).")


@lab_test("Bytes are counted, not characters: \"é\" costs two. A line that brings the size to "
          "exactly max_bytes stays; one byte more and it goes.")
async def test_bytes_not_characters(t):
    t.expect(list(harness.truncate_head("ééé\nx\n", max_bytes=6)), ["", 0],
             "\"ééé\\n\" is 4 characters but 7 bytes: over a 6-byte budget. Count "
             "len(line.encode()), not len(line) (truncate_head, lesson 6).")
    cases = []
    for _ in range(4):
        lines = [drawn_line(t) for _ in range(t.random.randint(3, 7))]
        k = t.random.randint(1, len(lines) - 1)
        # exactly k lines' bytes; one byte short of k + 1 lines; exactly k + 1 lines' bytes
        for budget, kept in ((size(lines[:k]), k), (size(lines[:k + 1]) - 1, k),
                             (size(lines[:k + 1]), k + 1)):
            cases.append([lines, budget, kept])
    t.expect([list(harness.truncate_head("".join(lines), max_bytes=budget))
              for lines, budget, _ in cases],
             [["".join(lines[:kept]), kept] for lines, _, kept in cases],
             "Lines are kept from the top while their size in UTF-8 bytes, len(line.encode()), "
             "stays within max_bytes: exactly max_bytes still fits, one byte short does not take "
             "the next line. Each item is (kept, lines_shown) for one text whose every line holds "
             "a character of two bytes or more (truncate_head, lesson 6).")
    wide = t.random.randint(30_000, 200_000)  # hunt 22: a line of any length, cheap to measure
    long = "é" * wide + "\n"
    t.expect([list(harness.truncate_head(long + "x\n", max_bytes=2 * wide)),
              harness.truncate_head(long + "x\n", max_bytes=2 * wide + 1)[1]], [["", 0], 1],
             "A long line is counted in bytes as a short one is, however many characters it "
             f"holds: a line of {wide} \"é\"s and its newline is {2 * wide + 1} bytes, over a "
             f"budget of {2 * wide}, and exactly a budget of {2 * wide + 1}. Items: (kept, "
             f"lines_shown) under max_bytes={2 * wide}, then the lines shown under "
             f"max_bytes={2 * wide + 1} (truncate_head, lesson 6).")


@lab_test("A first line that alone is over budget gives (\"\", 0): half a line would mislead.")
async def test_a_first_line_too_big(t):
    budgets = t.random.sample(range(8, 120), 3)
    cases = [[b, "x" * (b + extra - 1) + "\n", [drawn_line(t) for _ in range(t.random.randint(0, 3))]]
             for b in budgets for extra in (1, t.random.randint(2, 40))]
    t.expect([[list(harness.truncate_head(big + "".join(rest), max_bytes=b)),
               list(harness.truncate_tail("".join(rest) + big, max_bytes=b))]
              for b, big, rest in cases],
             [[["", 0], ["", 0]] for _ in cases],
             "truncate_head keeps whole lines only: when the first line alone is over max_bytes "
             "(by one byte or more), nothing is kept; truncate_tail likewise with the last line. "
             "Each item is [truncate_head, truncate_tail] for one budget and one big line "
             "(lesson 6).")
    t.expect([list(harness.truncate_head("x" * (b - 1) + "\n", max_bytes=b)) for b in budgets],
             [["x" * (b - 1) + "\n", 1] for b in budgets],
             "A line of exactly max_bytes bytes, newline included, fits (truncate_head, lesson 6).")


@lab_test("truncate_tail keeps the last whole lines, in their original order, under either "
          "limit, counting bytes, not characters.")
async def test_truncate_tail(t):
    by_lines = []
    for _ in range(3):
        lines = [drawn_line(t) for _ in range(t.random.randint(2, 9))]
        by_lines.append([lines, t.random.randint(1, len(lines) - 1)])
    t.expect([list(harness.truncate_tail("".join(lines), max_lines=cap)) for lines, cap in by_lines],
             [["".join(lines[len(lines) - cap:]), cap] for lines, cap in by_lines],
             "truncate_tail keeps the last max_lines lines, where a command prints its verdict, "
             "in their order. Each item is (kept, lines_shown) for one text (truncate_tail, "
             "lesson 6).")
    text = "".join(by_lines[0][0])
    below = -t.random.randint(1, len(by_lines[0][0]) - 1)  # a slice lines[-cap:] keeps some
    t.expect([list(harness.truncate_tail(text, max_lines=0)),
              list(harness.truncate_tail(text, max_bytes=0)),
              list(harness.truncate_tail(text, max_lines=below)),
              list(harness.truncate_tail(text, max_bytes=below))], [["", 0]] * 4,
             "A cap of 0 is a cap, not \"no cap\": the last 0 lines, or the last 0 bytes, are "
             "nothing, and a cap below 0 can hold no more, however many lines the text has "
             "(after the Build list, \"at most −1 lines is no line\"). Items: (kept, "
             f"lines_shown) of a text of {len(by_lines[0][0])} lines under max_lines=0, then "
             f"max_bytes=0, then max_lines={below}, then max_bytes={below} (truncate_tail, "
             "lesson 6).")
    by_bytes = []
    for _ in range(3):
        lines = [drawn_line(t) for _ in range(t.random.randint(3, 7))]
        k = t.random.randint(1, len(lines) - 1)
        for budget, kept in ((size(lines[-k:]), k), (size(lines[-k - 1:]) - 1, k)):
            by_bytes.append([lines, budget, kept])
    t.expect([list(harness.truncate_tail("".join(lines), max_bytes=budget))
              for lines, budget, _ in by_bytes],
             [["".join(lines[len(lines) - kept:]), kept] for lines, _, kept in by_bytes],
             "Counting UTF-8 bytes from the bottom, len(line.encode()): exactly max_bytes still "
             "fits, one byte short does not take the line above. Each item is (kept, "
             "lines_shown) for one text of lines holding characters of two bytes or more "
             "(truncate_tail, lesson 6).")
    wide = t.random.randint(2000, 20_000)
    long = "x\n" + "é" * wide + "\n"
    t.expect([list(harness.truncate_tail(long, max_bytes=2 * wide)),
              harness.truncate_tail(long, max_bytes=2 * wide + 1)[1]], [["", 0], 1],
             "A long line is counted in bytes, not characters, as a short one is: a last line of "
             f"{wide} \"é\"s and its newline is {2 * wide + 1} bytes, over a budget of "
             f"{2 * wide}, and exactly a budget of {2 * wide + 1}. Items: (kept, lines_shown) "
             f"under max_bytes={2 * wide}, then the lines shown under max_bytes={2 * wide + 1} "
             "(truncate_tail, lesson 6).")
    # Drawn last: past a cap of 5000 of the function's own, as in test_the_line_cap (hunt 31)
    tall = t.random.randint(5001, 5100)
    cap = tall + t.random.randint(0, 1000)
    kept, lines_shown = harness.truncate_tail("\n" * tall, max_lines=cap, max_bytes=10**9)
    t.expect([kept == "\n" * tall, lines_shown], [True, tall],
             "max_lines is the only line cap, from the bottom as from the top: no cap of the "
             "function's own below it, however many lines the text has (Build item 3, \"the "
             "same for the end\"). Items: whether truncate_tail of "
             f"{tall} blank lines under max_lines={cap}, max_bytes=10**9 keeps them all, then "
             "the lines it shows (truncate_tail, lesson 6).")


@lab_test("int_arg gives the default when the argument is absent or None, the value when it is an "
          "int, and raises ValueError(\"<name> must be an integer\") for anything else, a bool "
          "included, for names and values drawn under the seed.")
async def test_int_arg(t):
    name = t.random.choice(["limit", "offset", "count", "depth", "width"])
    default, value = t.random.randint(1, 60), t.random.randint(1, 100_000)
    # past any width, and past any top a student might set: 10,000 to 14,000 bits, drawn (hunt
    # 22; hunt 29, 6.1-05: a top just past 4000 bits); under 4300 digits, so it still prints
    huge = t.random.randint(2**1400, 2**t.random.randint(10_000, 14_000)) * t.random.choice([1, -1])
    t.expect([harness.int_arg({}, name, default), harness.int_arg({name: None}, name, default),
              harness.int_arg({name: value}, name, default), harness.int_arg({name: 0}, name, default),
              harness.int_arg({"other": value}, name, None), harness.int_arg({name: huge}, name, default)],
             [default, default, value, 0, None, huge],
             "Absent or None means left out: the default. An int, even 0, is returned as it is, "
             "however large (Build item 1, \"A whole number is a Python `int`\"). Items: the "
             f"argument absent, None, a drawn int, 0, absent with the default None, and an int of "
             f"{huge.bit_length()} bits "
             "(int_arg, lesson 6).")
    bad = [True, False, float(value), "", str(value), [value], {"n": value}, "ten",
           str(value) + ".5"]
    found = [await raised(lambda v=v: harness.int_arg({name: v}, name, default)) for v in bad]
    t.expect(found, [f"ValueError: {name} must be an integer"] * len(bad),
             "A string, a float, a list, a dict and a bool are not whole numbers here: True is an "
             "int to Python, but not a line number, and a float is not an int even when it is "
             "whole (the third item: the drawn int as a float); only absent or None is left out, "
             "so an empty string (the fourth item) is refused too, and a list holding one int "
             "is a list, not its int; the message names the argument. Each item is what "
             f"int_arg raised for one bad value of {bad!r} (int_arg, lesson 6).")


def shown(first, last):
    """What read shows of a file made by numbered(): the lines first to last, newlines and all."""
    return "".join(f"{i}\n" for i in range(first, last + 1))


def note(first, last, total):
    """read's note after a read that stopped at line `last` of `total`."""
    return f"[Showing lines {first}-{last} of {total}. Use offset={last + 1} to continue.]"


@lab_test("Reading a file of over 2000 lines, its length drawn under the seed, gives lines 1 to "
          "2000, then the note \"[Showing lines 1-2000 of N. Use offset=2001 to continue.]\"; "
          "the note's offset reads on, and the read that reaches the end has no note.")
async def test_a_long_file(t):
    # a file that ends exactly where a read's budget does, one a line either side, and any
    for total in (2000 * t.random.randint(1, 3), 2000 * t.random.randint(1, 3) +
                  t.random.choice([-1, 1]), t.random.randint(2002, 6500)):
        ws = lab.Workspace({"big.log": numbered(total)})
        starts = list(range(1, total + 1, 2000))
        found = []
        for start in starts:
            text = await read(ws, {"path": "big.log"} | ({"offset": start} if start > 1 else {}))
            found.append([len(text.split("\n")) - 1, text.split("\n", 1)[0],
                          text.rsplit("\n", 1)[-1]])
        t.expect(found, [[min(2000, total - start + 1), str(start),
                          note(start, start + 1999, total) if start + 1999 < total else ""]
                         for start in starts],
                 "read returns one budget of whole lines, then a note saying where it stopped "
                 "and how to go on; the read that reaches the end has no note. Each item is "
                 "[lines shown, the first line, what follows the last newline] for one read, from "
                 "offset 1, 2001, 4001... of a file of between 1999 and 6500 lines, one of them a "
                 "multiple of 2000 "
                 "(make_read_tool, lesson 6).")


@lab_test("offset and limit select exactly those lines; the note comes only when the read ends "
          "before the file does.")
async def test_offset_and_limit(t):
    total = t.random.randint(2, 30)
    last_words = drawn_line(t, newline=False)
    ws = lab.Workspace({"a.txt": numbered(total), "last.txt": "one\n" + last_words})
    asked = [[total, None], [total, 1], [1, total], [1, 1]] + [
        [t.random.randint(1, total), t.random.choice([None, t.random.randint(1, total + 3)])]
        for _ in range(6)]
    found = [await read(ws, {"path": "a.txt", "offset": offset} |
                        ({} if limit is None else {"limit": limit})) for offset, limit in asked]
    ends = [total if limit is None else min(total, offset + limit - 1) for offset, limit in asked]
    t.expect(found, [shown(offset, end) + (note(offset, end, total) if end < total else "")
                     for (offset, _), end in zip(asked, ends)],
             "offset counts from 1 and limit caps the lines; a read that stops before the file's "
             "last line says so, and one that reaches the end does not. Each item is what read "
             "returned for one [offset, limit] of a file of drawn length (make_read_tool, "
             "lesson 6).")
    broken = [drawn_line(t, newline=False) + end for end in t.random.sample(BREAKS, len(BREAKS))]
    ws.write_text("breaks.txt", "".join(broken))
    limit = t.random.randint(1, total - 1)
    wide = [drawn_line(t) for _ in range(t.random.randint(3, 7))]
    k = t.random.randint(1, len(wide) - 1)
    ws.write_text("wide.txt", "".join(wide))
    t.expect([await read(ws, {"path": "a.txt", "limit": limit}),
              await read(ws, {"path": "wide.txt"}, max_bytes=size(wide[:k]))],
             [shown(1, limit) + note(1, limit, total), "".join(wide[:k]) + note(1, k, len(wide))],
             "limit caps the lines with or without an offset: an offset left out is 1. A read "
             "pages in UTF-8 bytes, not characters, so exactly the size of the first k lines "
             "holds those k lines and no more. Items: a.txt read with only a limit of "
             f"{limit}; a file of {len(wide)} lines each holding a character of two bytes or "
             f"more, read by a tool made with max_bytes={size(wide[:k])}, the size of its first "
             f"{k} lines (make_read_tool, lesson 6).")
    # past any width or top: 10,000 to 14,000 bits (hunt 29, 6.1-17: a top just past 4000)
    huge = t.random.randint(2**65, 2**t.random.randint(10_000, 14_000))
    t.expect([await read(ws, {"path": "last.txt", "offset": 2}),
              await read(ws, {"path": "a.txt", "offset": None, "limit": None}),
              await read(ws, {"path": "a.txt", "limit": huge}),
              await read(ws, {"path": "breaks.txt", "offset": 2, "limit": 2})],
             [last_words, numbered(total), numbered(total),
              "".join(broken[1:3]) + note(2, 3, len(broken))],
             "A last line without a newline comes back as it is, and offset and limit sent as "
             "None are left out: the whole file. read counts lines as str.splitlines does, at "
             "\"\\r\", \"\\r\\n\", \"\\u2028\" and the rest as at \"\\n\", and returns them with "
             "their breaks as the file holds them. A limit has no top: any whole number 1 or "
             "more is taken (Build item 4, `limit`, \"the most lines wanted\"). Items: offset 2 "
             "of a file whose last line "
             f"has no newline; offset and limit None; a limit of {huge.bit_length()} bits; offset 2, "
             "limit 2 of "
             f"{''.join(broken)!r} "
             "(make_read_tool and int_arg, lesson 6).")
    # Last, so that a read splitting only at "\n" fails the check above first, which names
    # its rule; one doing so only for big files passes it and fails here (hunt 22, 6.1-10).
    many = [f"{i}".ljust(t.random.randint(60, 200), ".") + t.random.choice(BREAKS[2:])
            for i in range(1, t.random.randint(500, 700))]  # over 60,000 characters (hunt 22)
    ws.write_text("many.log", "".join(many))
    at = t.random.randint(1, len(many) - 2)
    t.expect(await read(ws, {"path": "many.log", "offset": at, "limit": 2}),
             "".join(many[at - 1:at + 1]) + note(at, at + 1, len(many)),
             "read splits a file of any size at every break str.splitlines knows, as bash does "
             "(Build item 2, \"`read` and `bash` count lines the same way\"). The item is a read "
             f"of a file of {len(many)} lines, {len(''.join(many))} characters, each ending in "
             f"a break other than \"\\n\", with offset {at} and limit 2 (make_read_tool, lesson 6).")
    # A file of 100,001 to 130,000 lines, its length drawn: cheap to read, since a read slices
    # its lines; its last line is still there, and N is written as digits (hunt 26, 6.1-37
    # and 6.1-56), every line counted, past a read that looks at its first 100,000 (hunt 31,
    # 6.1-44)
    lines = t.random.randint(100_001, 130_000)
    ws.write_text("huge.log", "x\n" * (lines - 1) + "end\n")
    at = t.random.randint(1, lines - 3)
    t.expect([await read(ws, {"path": "huge.log", "offset": lines}),
              await read(ws, {"path": "huge.log", "offset": at, "limit": 2})],
             ["end\n", "x\nx\n" + note(at, at + 1, lines)],
             "offset and limit select exactly those lines of a file of any size, its last line "
             "too, and the note is the exact text the Build gives, N written in digits alone, "
             "as `[Showing lines A-B of N. Use offset=C to continue.]`, with N the file's "
             "number of lines, every line of it counted (Build item 4). Items: "
             f"a read of huge.log, {lines} lines, at offset {lines}, its last line, \"end\"; "
             f"then at offset {at} with limit 2 (make_read_tool, lesson 6).")
    # Drawn last: a file of 1.1 to 2 million characters in five long lines, none ending in
    # "\n", cheap to split however long (hunt 29, 6.1-18)
    long_lines = [c * t.random.randint(220_000, 400_000) + t.random.choice(BREAKS[2:])
                  for c in "abcde"]
    ws.write_text("long.log", "".join(long_lines))
    found = await read(ws, {"path": "long.log", "offset": 2, "limit": 2}, max_bytes=10**9)
    t.expect([found == "".join(long_lines[1:3]) + note(2, 3, 5), found[-len(note(2, 3, 5)):]],
             [True, note(2, 3, 5)],
             "read splits a file of any size at every break str.splitlines knows, however long "
             "(Build item 2, \"`read` and `bash` count lines the same way\"). Items: whether a "
             f"read of a file of 5 lines, {sum(map(len, long_lines))} characters, each ending in "
             "a break other than \"\\n\", with offset 2 and limit 2, by a tool made with "
             "max_bytes=10**9, gives lines 2 and 3 and the note; then how it ends "
             "(make_read_tool, lesson 6).")
    # Drawn last: a limit of 1001 to 1999 lines, which the default budget holds, past a limit
    # capped at 1000 (hunt 31, 6.1-24); and a file whose lines are blank one in two, past an N
    # that counts only the lines with words (hunt 31, 6.1-51)
    limit = t.random.randint(1001, 1999)
    gaps = [drawn_line(t) if n % 2 else t.random.choice(["\n", " \n", "\t\n", "\r\n"])
            for n in range(limit + t.random.randint(1, 300))]
    ws.write_text("gaps.txt", "".join(gaps))
    at, one = t.random.randint(1, len(gaps) - limit), t.random.randint(1, len(gaps) - 1)
    t.expect([await read(ws, {"path": "gaps.txt", "offset": one, "limit": 1}),
              await read(ws, {"path": "gaps.txt", "offset": len(gaps) + 1})],
             [gaps[one - 1] + note(one, one, len(gaps)),
              f"ValueError: offset {len(gaps) + 1} is past the end of gaps.txt: {len(gaps)} lines"],
             "N is the file's number of lines, blank ones included, in the note as in the "
             "past-the-end message (Build item 4, \"with N the file's number of lines\"). Items: "
             f"a read of gaps.txt, {len(gaps)} lines, every other one blank or white space, at "
             f"offset {one} with limit 1; then at offset {len(gaps) + 1} (make_read_tool, "
             "lesson 6).")
    found = await read(ws, {"path": "gaps.txt", "offset": at, "limit": limit})
    wanted = "".join(gaps[at - 1:at - 1 + limit]) + note(at, at + limit - 1, len(gaps))
    t.expect([found == wanted, found.rsplit("\n", 1)[-1]],
             [True, note(at, at + limit - 1, len(gaps))],
             "A read returns every line it is asked for that its budget holds, however large "
             "the limit: no cap on limit of its own (Build item 4, `limit`, \"the most lines "
             "wanted\"; \"at most one budget\", the budget being the factory's). Items: whether "
             f"a read of gaps.txt at offset {at} with limit {limit}, under the default budget of "
             f"2000 lines and 50,000 bytes, which holds them, gives those {limit} lines and the "
             "note; then what follows its last newline (make_read_tool, lesson 6).")


@lab_test("The bad-argument messages are exact: offset 0, an offset past the end of a file whose "
          "length is drawn under the seed, and an offset sent as a string; argument errors come "
          "before the missing-file check.")
async def test_bad_arguments(t):
    total = t.random.randint(1, 40)
    name, empty, missing, one = (f"{stem}.txt" for stem in t.random.sample(
        ["a", "notes", "data", "log", "todo", "b", "readme", "zeta"], 4))
    ws = lab.Workspace({name: numbered(total), empty: "", one: drawn_line(t)})
    past, after_empty = total + t.random.randint(1, 9), t.random.randint(2, 9)
    found = [await read(ws, {"path": name, "offset": 0}),
             await read(ws, {"path": name, "limit": 0}),
             await read(ws, {"path": name, "offset": -t.random.randint(1, 9)}),
             await read(ws, {"path": name, "offset": past}),
             await read(ws, {"path": name, "offset": str(past)}),
             await read(ws, {"path": name, "limit": True}),
             await read(ws, {"path": empty, "offset": after_empty}),
             await read(ws, {"path": empty, "offset": 2}),
             await read(ws, {"path": name, "offset": total + 1}),
             await read(ws, {"path": missing, "offset": 0}),
             await read(ws, {"path": missing, "offset": past}),
             await read(ws, {"path": name, "offset": 0, "limit": True}),
             await read(ws, {"path": missing, "offset": str(past)})]
    t.expect(found, ["ValueError: offset and limit must be 1 or more",
                     "ValueError: offset and limit must be 1 or more",
                     "ValueError: offset and limit must be 1 or more",
                     f"ValueError: offset {past} is past the end of {name}: {total} lines",
                     "ValueError: offset must be an integer",
                     "ValueError: limit must be an integer",
                     f"ValueError: offset {after_empty} is past the end of {empty}: 0 lines",
                     f"ValueError: offset 2 is past the end of {empty}: 0 lines",
                     f"ValueError: offset {total + 1} is past the end of {name}: {total} lines",
                     "ValueError: offset and limit must be 1 or more",
                     f"FileNotFoundError: File not found: {missing}. Files here: "
                     f"{', '.join(sorted([name, empty, one]))}",
                     "ValueError: limit must be an integer",
                     "ValueError: offset must be an integer"],
             "read checks in this order: the arguments' types (str_arg, int_arg), both of them, "
             "then that offset and limit are 1 or more, then that the file exists, then that "
             "offset is not past its end. Each item is what read raised for one call; the last "
             "two are offset 0 with limit True, and a missing file with offset sent as a string "
             "(make_read_tool, lesson 6).")
    whole = [float(t.random.randint(1, total)) for _ in range(2)]
    found = [await read(ws, {"path": name, "offset": str(past), "limit": True}),
             await read(ws, {"path": missing, "limit": 0}),
             await read(ws, {"path": name, "offset": whole[0]}),
             await read(ws, {"path": name, "limit": whole[1]}),
             await read(ws, {"path": name, "limit": ""}),
             await read(ws, {"path": one, "offset": 2}),
             await read(ws, {"path": name, "limit": str(t.random.randint(1, total))}),
             await read(ws, {"path": missing, "limit": True}),
             await read(ws, {"path": name, "offset": past, "limit": 0})]
    t.expect(found, ["ValueError: offset must be an integer",
                     "ValueError: offset and limit must be 1 or more",
                     "ValueError: offset must be an integer",
                     "ValueError: limit must be an integer",
                     "ValueError: limit must be an integer",
                     f"ValueError: offset 2 is past the end of {one}: 1 lines",
                     "ValueError: limit must be an integer",
                     "ValueError: limit must be an integer",
                     "ValueError: offset and limit must be 1 or more"],
             "read checks in this order: offset's type, then limit's, then that both are 1 or "
             "more, then that the file exists; each as int_arg does, so a whole float, or an "
             "empty string, is refused as int_arg refuses it; and the past-the-end message is "
             "exact for any N, 1 included. Items: offset sent as a string with limit True; a "
             "missing file with limit 0; offset, then limit, sent as a whole float; limit sent "
             "as \"\"; offset 2 of a one-line file; limit sent as a string of digits; a "
             "missing file with limit True (limit's type before the file); offset past the end "
             "with limit 0 (the ranges before the file and its end) (make_read_tool, lesson 6).")
    ragged, limit = t.random.randint(1, 9), t.random.randint(1, 5)
    ws.write_text("ragged.txt", numbered(ragged) + drawn_line(t, newline=False))
    t.expect([await read(ws, {"path": name, "offset": past, "limit": limit}),
              await read(ws, {"path": "ragged.txt", "offset": ragged + 2})],
             [f"ValueError: offset {past} is past the end of {name}: {total} lines",
              f"ValueError: offset {ragged + 2} is past the end of ragged.txt: {ragged + 1} lines"],
             "An offset past the last line is refused whether or not a limit is sent, and N "
             "counts the file's lines, the last one too when it has no newline. Items: offset "
             f"{past} with limit {limit} of a {total}-line file; offset {ragged + 2} of a file of "
             f"{ragged} lines and a last line without a newline (make_read_tool, lesson 6).")
    t.expect([await read(ws, {"path": empty}), await read(ws, {"path": name, "offset": total})],
             ["", f"{total}\n"],
             "Offset 1 of an empty file is allowed: there is nothing to show, so a tool with a "
             "budget of lines gives the file's text, \"\" (lesson 2's read; the Build's "
             "\"whether it says so or gives `\"\"` is yours\" is said of a tool made with "
             "max_lines=0, and the tests take either there); the last line of a file is not past "
             "its end (make_read_tool, lesson 6).")


@lab_test("A line over the budget of one read gives the bracketed message instead of half a "
          "line, with the skip hint only when more lines follow.")
async def test_a_line_over_budget(t):
    budget = t.random.randint(40, 150)
    ends = ("\n", "\r\n", t.random.choice([end for end in BREAKS if end not in "\n\r"]))
    afters = (0, t.random.randint(1, 3), t.random.randint(1, 3))  # last in its file, and not
    for after, end in zip(afters, ends):
        before = t.random.randint(1, 4)
        big = t.random.choice(["x", "é", "€"]) * t.random.randint(budget, 2 * budget) + end
        name = t.random.choice(["data.csv", "dump.json", "page.html", "out.txt"])
        lines = [f"row {i}\n" for i in range(1, before + 1)] + [big] + \
                [f"tail {i}\n" for i in range(1, after + 1)]
        total, at = len(lines), before + 1
        ws = lab.Workspace({name: "".join(lines)})
        found = [await read(ws, {"path": name, "offset": at}, max_bytes=budget),
                 await read(ws, {"path": name, "offset": at, "limit": 1}, max_bytes=budget),
                 await read(ws, {"path": name}, max_bytes=budget)]
        skip = f" Use offset={at + 1} to skip it." if after else ""
        over = (f"[Line {at} of {name} is {len(big.encode())} bytes, over the {budget}-byte "
                f"budget of one read, so none of it is shown.{skip}]")
        t.expect(found, [over, over, "".join(lines[:before]) + note(1, before, total)],
            "A line that does not fit is named with its size in UTF-8 bytes, its line break "
            f"({end!r}) included, and never cut in half; the hint to skip it comes only when another line follows in "
            "the file, whatever limit the read asked for; a read that reaches it from above "
            "stops before it, with the usual note. Items: a read at the big line, the same with "
            "limit 1, and a read from the top (make_read_tool, lesson 6).")
    t.expect(await read(ws, {"path": name, "offset": at + 1}, max_bytes=budget),
             "".join(lines[at:]), "The skip hint's offset reads on past the big line "
                                  "(make_read_tool, lesson 6).")
    vast = int(10 ** t.random.uniform(5.1, 5.7))  # a line of 125,000 to 500,000 bytes (hunt 22)
    ws.write_text("vast.txt", "x" * vast + "\nafter\n")
    t.expect(await read(ws, {"path": "vast.txt"}),
             f"[Line 1 of vast.txt is {vast + 1} bytes, over the 50000-byte budget of one read, "
             "so none of it is shown. Use offset=2 to skip it.]",
             "However big the line, none of it is shown, under the default budget as under a "
             f"small one: never cut in half. The item is a read of a file whose first line is "
             f"{vast} \"x\"s and a newline (make_read_tool, lesson 6).")


@lab_test("A command printing over 2000 lines through bash, `seq N` with N drawn under the seed, "
          "gives the last 2000 lines, then a note after a blank line; a failing command's "
          "status line comes after the note.")
async def test_bash_keeps_the_tail(t):
    bash = harness.make_bash_tool(lab.Shell(lab.Workspace({})))
    total, code = t.random.randint(2001, 6000), t.random.randint(1, 120)
    cut = f"[Showing the last 2000 of {total} lines. Narrow the command for more.]"
    out = (await settle(bash["execute"]({"command": f"seq {total}"}))).split("\n")
    t.expect([len(out), out[0], out[1999], out[2000], out[2001]],
             [2002, str(total - 1999), str(total), "", cut],
             "Command output is cut from the top, so its end, where the verdict is, stays; "
             "the note says how much was dropped. Items: the lines of the result, its first, "
             "its 2000th, the blank line, the note (make_bash_tool, lesson 6).")
    failed = (await settle(bash["execute"]({"command": f"seq {total}; exit {code}"}))).split("\n")
    t.expect(failed[-3:], ["", cut, f"Command exited with code {code}"],
             "The status line is last, after the note (make_bash_tool, lessons 4 and 6).")
    small = t.random.randint(1, 2000)
    t.expect(await settle(bash["execute"]({"command": f"seq {small}"})), numbered(small),
             "Output within budget, up to 2000 lines, comes back whole, with no note "
             "(make_bash_tool, lesson 6).")
    lines = [drawn_line(t) for _ in range(t.random.randint(3, 6))]
    lines[-1] = lines[-1][:-1]  # the command's last line, printed without a newline
    budget = t.random.randint(20, 60)
    ws = lab.Workspace({"out.txt": "".join(lines),
                        "wide.txt": "ok\n" + "#" * t.random.randint(budget, 2 * budget) + "\n"})
    cap = t.random.randint(1, len(lines) - 1)
    by_lines = harness.make_bash_tool(lab.Shell(ws), max_lines=cap)
    by_bytes = harness.make_bash_tool(lab.Shell(ws), max_bytes=budget)
    t.expect([await settle(by_lines["execute"]({"command": "cat out.txt"})),
              await settle(by_bytes["execute"]({"command": "cat wide.txt"}))],
             ["".join(lines[-cap:]) + "\n\n[Showing the last "
              f"{cap} of {len(lines)} lines. Narrow the command for more.]",
              "\n[Showing the last 0 of 2 lines. Narrow the command for more.]"],
             "A last line printed without a newline is still a line: it is counted in T, and a "
             "blank line still comes between the kept lines and the note. A last line alone over "
             "the budget is not cut inside: no line is kept. Items: `cat` of a file whose last "
             "line has no newline, under max_lines; `cat` of a file whose last line is over "
             "max_bytes (make_bash_tool, lesson 6).")
    blank = t.random.randint(1, 3)  # blank lines the command prints last
    broken = [drawn_line(t, newline=False) + end for end in t.random.sample(BREAKS, len(BREAKS))]
    printed = "".join(broken) + "done\n" + "\n" * blank
    ws.write_text("breaks.txt", printed)
    tail = harness.make_bash_tool(lab.Shell(ws), max_lines=blank + 2)
    t.expect(await settle(tail["execute"]({"command": "cat breaks.txt"})),
             broken[-1] + "done\n" + "\n" * blank + "\n[Showing the last "
             f"{blank + 2} of {len(broken) + 1 + blank} lines. Narrow the command for more.]",
             "bash counts lines as read does, at any break str.splitlines knows, and keeps the "
             "kept lines as printed, blank ones included, before the blank line and the note. "
             f"The item is `cat` of {printed!r} under max_lines={blank + 2} (make_bash_tool, "
             "lesson 6).")
    wide = [drawn_line(t) for _ in range(t.random.randint(3, 7))]
    k = t.random.randint(1, len(wide) - 1)
    ws.write_text("wide.txt", "".join(wide))
    t.expect([await settle(harness.make_bash_tool(lab.Shell(ws), max_bytes=size(wide[-k:]))[
                  "execute"]({"command": "cat wide.txt"})),
              await settle(harness.make_bash_tool(lab.Shell(ws), max_bytes=size(wide))[
                  "execute"]({"command": "cat wide.txt"}))],
             ["".join(wide[-k:]) + f"\n[Showing the last {k} of {len(wide)} lines. Narrow the "
              "command for more.]", "".join(wide)],
             "bash's byte budget counts UTF-8 bytes, not characters, as read's does: exactly the "
             "size of the last k lines keeps those k lines and no more, and output of exactly "
             "the budget's size loses no line, so it comes back whole, with no note (Build item "
             "5, \"When lines were dropped\"). Items: `cat` of "
             f"{len(wide)} lines each holding a character of two bytes or more, under "
             f"max_bytes={size(wide[-k:])}, the size of its last {k}, then under "
             f"max_bytes={size(wide)}, the size of them all (make_bash_tool, lesson 6).")
    # characters a line: over 120,000 in all, and no wider: a tail that measures the kept text
    # again for every line, slow but beyond this test's reach, pays for the width squared here
    width = t.random.randint(60, 100)
    many = [f"{i}".ljust(width, ".") + t.random.choice(BREAKS[2:])
            for i in range(t.random.randint(2001, 2400))]
    ws.write_text("many.log", "".join(many))
    found = await settle(harness.make_bash_tool(lab.Shell(ws), max_bytes=10**9)["execute"](
        {"command": "cat many.log"}))
    t.expect([found.rsplit("\n", 1)[-1], found.startswith("".join(many[-2000:]))],
             [f"[Showing the last 2000 of {len(many)} lines. Narrow the command for more.]", True],
             "T, the lines printed, is counted as read counts lines, at any break str.splitlines "
             "knows, however long the output (Build item 2, \"`read` and `bash` count lines the "
             "same way\"). Items: the note after `cat` of a file of "
             f"{len(many)} lines of {width} characters ({len(''.join(many))} in all) each "
             "ending in \"\\r\", \"\\x0b\" or another break but "
             "\"\\n\", by a bash tool made with max_bytes=10**9, and whether the result "
             "starts with its last 2000 lines (make_bash_tool, lesson 6).")
    ends = t.random.sample(BREAKS[2:], len(BREAKS) - 2)  # "\r" and every rarer break, drawn order
    found = []
    for end in ends:
        ws.write_text("ends.txt", "first\nlast" + end)
        found.append(await settle(harness.make_bash_tool(lab.Shell(ws), max_lines=1)["execute"](
            {"command": "cat ends.txt"})))
    t.expect(found, [f"last{end}\n\n[Showing the last 1 of 2 lines. Narrow the command for more.]"
                     for end in ends],
             "Unless the kept text ends in \"\\n\" (or nothing is kept), bash adds a \"\\n\" to it "
             "first, after a last line that ends in \"\\r\" or any rarer break, each of them, "
             "as after one with none, so that the note always stands after \"\\n\\n\" (Build "
             "item 5). Items: `cat` "
             f"of {['first' + chr(10) + 'last' + end for end in ends]!r} under max_lines=1 "
             "(make_bash_tool, lesson 6).")
    # Drawn last, so that every draw above stays as it was (hunt 22, 6.1-32).
    head = [drawn_line(t) for _ in range(t.random.randint(1, 2))]
    vast = t.random.randint(61_000, 90_000)  # a last line over the default 50,000 bytes
    ws.write_text("vast.txt", "".join(head) + "#" * vast + "\n")
    t.expect(await settle(harness.make_bash_tool(lab.Shell(ws))["execute"](
                 {"command": "cat vast.txt"})),
             f"\n[Showing the last 0 of {len(head) + 1} lines. Narrow the command for more.]",
             "A last line alone over the budget is not cut inside, however big: no line is "
             f"kept, and none before it. The item is `cat` of a file of {len(head) + 1} lines "
             f"whose last is {vast} \"#\"s and a newline, under the default budget "
             "(make_bash_tool, lesson 6).")
    # Drawn last too: output of over one and a half million characters, in a first line that
    # long and many.log's last 20 lines, cheap to split and cut however long (hunt 29, 6.1-29)
    bulk = t.random.randint(1_550_000, 2_000_000)
    ws.write_text("bulk.log", "#" * bulk + "\r" + "".join(many[-20:]))
    found = await settle(harness.make_bash_tool(lab.Shell(ws), max_lines=10, max_bytes=10**9)[
        "execute"]({"command": "cat bulk.log"}))
    t.expect(found.rsplit("\n", 1)[-1],
             "[Showing the last 10 of 21 lines. Narrow the command for more.]",
             "T, the lines printed, is counted as read counts lines, at any break str.splitlines "
             "knows, however long the output (Build item 2, \"`read` and `bash` count lines the "
             "same way\"). The item is the note after `cat` of a file of 21 lines, "
             f"a first of {bulk} \"#\"s and a \"\\r\", then many.log's last 20, none ending in "
             "\"\\n\", by a bash tool made with max_lines=10, max_bytes=10**9 (make_bash_tool, "
             "lesson 6).")


@lab_test("Both factories honour the budget they are given, drawn under the seed, and their "
          "descriptions state it truly, read's offset counted from 1.")
async def test_the_factories_take_a_budget(t):
    width, total = t.random.randint(3, 12), t.random.randint(12, 20)
    lines_cap, read_bytes = t.random.randint(2, 8), t.random.randint(1000, 9999)
    kept = t.random.randint(1, 6)
    bash_lines, bash_bytes = t.random.randint(100, 999), kept * (width + 1) + t.random.randint(0, width)
    ws = lab.Workspace({"a.txt": numbered(total, width=width)})
    read_ = harness.make_read_tool(ws, max_lines=lines_cap, max_bytes=read_bytes)
    bash = harness.make_bash_tool(lab.Shell(ws), max_lines=bash_lines, max_bytes=bash_bytes)
    t.expect(await settle(read_["execute"]({"path": "a.txt"})),
             numbered(total, width=width)[:lines_cap * (width + 1)] + note(1, lines_cap, total),
             "make_read_tool(ws, max_lines=n) reads n lines at a time (make_read_tool, "
             "lesson 6).")
    t.expect(await settle(bash["execute"]({"command": "cat a.txt"})),
             numbered(total, width=width)[(total - kept) * (width + 1):] +
             f"\n[Showing the last {kept} of {total} lines. Narrow the command for more.]",
             "make_bash_tool(shell, max_bytes=b) keeps the last lines that fit in b bytes, each "
             "line here taking width + 1 (make_bash_tool, lesson 6).")
    ws.write_text("wide.txt", "w" * (read_bytes - 1) + "\nend\n")
    again = [await settle(read_["execute"]({"path": "wide.txt"})) for _ in range(2)]
    t.expect([text.split("\n", 1) for text in again],
             [["w" * (read_bytes - 1), note(1, 1, 2)]] * 2,
             "Each read has the whole budget its factory was given, however much the same tool "
             "has read before: a line of exactly max_bytes bytes, newline included, fits, the "
             "second time too. Each item is [the first line, what follows it] of one read of "
             "that file (make_read_tool, lesson 6).")
    long = t.random.randint(2001, 2400)  # lines of 31 bytes: over both defaults
    ws.write_text("long.log", numbered(long, width=30))
    roomy = {"max_lines": long + t.random.randint(0, 500),
             "max_bytes": t.random.randint(31 * long, 40 * long)}
    given = [await settle(harness.make_read_tool(ws, **roomy)["execute"]({"path": "long.log"})),
             await settle(harness.make_bash_tool(lab.Shell(ws), **roomy)["execute"](
                 {"command": "cat long.log"}))]
    t.expect([[text.count("\n"), text.rsplit("\n", 1)[-1]] for text in given], [[long, ""]] * 2,
             "A budget above the defaults is honoured too, and a limit left out is no limit: "
             f"tools made with max_lines={roomy['max_lines']}, max_bytes={roomy['max_bytes']} "
             f"return all {long} lines of a file of "
             f"{31 * long} bytes, with no note. Each item is [lines returned, what follows the "
             "last newline], for read, then for bash's `cat` (make_read_tool and make_bash_tool, "
             "lesson 6).")
    # 400,000 bytes a line, over 5 MiB: past a byte cap of the tool's own at 4 or 5 MB (hunt 37,
    # 6.1-06 and 6.1-31), in few lines, so that a cut measuring its kept text again for every
    # line (beyond reach) stays quick here too: it makes a new string for each line, of all the
    # kept lines, and the first time a process makes strings this large each costs it fresh
    # memory (over 0.5 s of processor time with 135 lines of 40,000 bytes, about 0.05 s now)
    vast = numbered(t.random.randint(14, 16), width=399_999)
    ws.write_text("vast.log", vast)
    unbounded = {"max_lines": 10**9, "max_bytes": 10**12}  # the lesson's own `everything`
    given = [await settle(harness.make_read_tool(ws, **unbounded)["execute"]({"path": "vast.log"})),
             await settle(harness.make_bash_tool(lab.Shell(ws), **unbounded)["execute"](
                 {"command": "cat vast.log"}))]
    t.expect([text == vast for text in given], [True, True],
             "The budget is the one the factory was given, however large: no cap of the "
             "tool's own below it (Build item 4, \"the budget being the `max_lines` and "
             "`max_bytes` that `make_read_tool` was given\"). Items: whether read, then bash's "
             f"`cat`, made with max_lines=10**9, max_bytes=10**12, return all {len(vast)} bytes "
             "of a file (make_read_tool and make_bash_tool, lesson 6).")
    past_end = total + t.random.randint(1, 9)
    zero = [await settle(harness.make_read_tool(ws, max_bytes=0)["execute"]({"path": "a.txt"})),
            await settle(harness.make_bash_tool(lab.Shell(ws), max_lines=0)["execute"](
                {"command": "cat a.txt"})),
            await settle(harness.make_read_tool(ws, max_lines=0)["execute"](
                {"path": "a.txt", "offset": t.random.randint(1, total)})),
            await settle(harness.make_read_tool(ws, max_lines=0, max_bytes=width)["execute"](
                {"path": "a.txt", "offset": t.random.randint(1, total)})),
            await settle(harness.make_read_tool(ws, max_lines=0, max_bytes=0)["execute"](
                {"path": "a.txt"})),
            await read(ws, {"path": "a.txt", "offset": past_end}, max_lines=0)]
    t.expect(zero[:5], [f"[Line 1 of a.txt is {width + 1} bytes, over the 0-byte budget of one "
                        "read, so none of it is shown. Use offset=2 to skip it.]",
                        f"\n[Showing the last 0 of {total} lines. Narrow the command for more.]",
                        "[No line of a.txt is shown: this read's budget is 0 lines.]",
                        "[No line of a.txt is shown: this read's budget is 0 lines.]",
                        "[No line of a.txt is shown: this read's budget is 0 lines.]"],
             "A cap of 0 is a cap, not \"no cap\" and not \"the default\": a budget is the one "
             "the factory was given, and a read tool made with max_lines=0 shows no line and "
             "says so, whatever the line's size, never that a line is over the byte budget "
             "(Build item 4). Items: read of a.txt by a tool made with max_bytes=0, `cat a.txt` "
             "by a bash tool made with max_lines=0, and read of a.txt at a drawn offset by a "
             "tool made with max_lines=0, then by one made with max_lines=0 and "
             f"max_bytes={width}, under each line's {width + 1} bytes, then from the top by "
             "one made with max_lines=0 and max_bytes=0 (make_read_tool and make_bash_tool, "
             "lesson 6).")
    t.expect(zero[5], f"ValueError: offset {past_end} is past the end of a.txt: {total} lines",
             "A tool made with max_lines=0 still refuses an offset past the last line, as any "
             "read does: `offset A is past the end of PATH: N lines` (Build item 4). The item "
             f"is read of the {total}-line a.txt at offset {past_end}, by a tool made with "
             "max_lines=0 (make_read_tool, lesson 6).")
    t.expect([sorted({lines_cap, read_bytes} & set(numbers_in(read_["description"]))),
              sorted({bash_lines, bash_bytes} & set(numbers_in(bash["description"])))],
             [sorted([lines_cap, read_bytes]), sorted([bash_lines, bash_bytes])],
             "Each description tells the model its budget, in the numbers it was made with, "
             "so the model can plan its reads. Items: the budget numbers found in read's "
             "description, then in bash's (make_read_tool and make_bash_tool, lesson 6).")
    t.expect([harness.MAX_LINES, harness.MAX_BYTES], [2000, 50_000],
             "The two constants stay 2000 and 50,000 whatever budgets the factories are made "
             "with: a tool's budget is its own, and nothing of it leaks into the module (Build, "
             "\"the two constants, `MAX_LINES = 2000` and `MAX_BYTES = 50_000`\"). Items: "
             "MAX_LINES and MAX_BYTES after tools were made with the budgets above (make_read_tool "
             "and make_bash_tool, lesson 6).")
    t.expect(await settle(read_["execute"]({"path": "a.txt"})),
             numbered(total, width=width)[:lines_cap * (width + 1)] + note(1, lines_cap, total),
             "A tool's budget is its own, for as long as the tool lives: the read tool made first, "
             f"with max_lines={lines_cap}, reads a.txt as it did, after read tools were made "
             "with other budgets (make_read_tool, lesson 6).")
    defaults = [harness.make_read_tool(ws)["description"],
                harness.make_bash_tool(lab.Shell(ws))["description"]]
    t.expect([sorted({2000, 50000} & set(numbers_in(d))) for d in defaults],
             [[2000, 50000], [2000, 50000]], "With the default budget, the default numbers "
                                             "(make_read_tool and make_bash_tool, lesson 6).")
    said = [read_["description"], bash["description"]]
    t.expect([[("byte" in d.lower()) for d in said],
              bool(re.search(r"\b(last|end|tail)\b", said[1].lower()))], [[True, True], True],
             "Each description states its budget truly, so the model can plan before it calls: "
             "the byte budget is named in bytes, not characters, and bash's says it keeps the "
             "last lines, the end of the output (a command's verdict is printed last). Items: "
             "whether read's and bash's descriptions name bytes, and whether bash's names the "
             f"end it keeps (last, end or tail). The descriptions: {said!r} (make_read_tool "
             "and make_bash_tool, lesson 6).")
    t.expect([[bytes_as_characters(d, n) for d, n in zip(said, (read_bytes, bash_bytes))],
              [[n for n in budget_numbers(d) if n not in pair]
               for d, pair in zip(said, [(lines_cap, read_bytes), (bash_lines, bash_bytes)])]],
             [[False, False], [[], []]],
             "Each description states its budget truly (Build, \"with descriptions that state "
             "them\"): a byte is not a character (\"é\" costs two), and no number is given as "
             "a budget but the tool's own. Items: whether read's, then bash's, description says "
             "a byte is a character, or gives its byte budget as that many characters; then, for each, the numbers it gives before lines, bytes or "
             "characters, or with at most, up to or max, that are not the budget it was made "
             f"with ({lines_cap} and {read_bytes} for read, {bash_lines} and {bash_bytes} for "
             f"bash). The descriptions: {said!r} (make_read_tool and make_bash_tool, lesson 6).")
    t.expect(sorted(read_["parameters"]["properties"]), ["limit", "offset", "path"],
             "read's parameters now include offset and limit (make_read_tool, lesson 6).")
    plain = [re.sub(r"(?<=\d)[,_ ](?=\d{3})", "", d).lower() for d in said]
    units = [[bool(re.search(rf"\b{n}\s+(?:\w+\s+)?{unit}", d)) for n, unit in pair]
             for d, pair in zip(plain, [((lines_cap, "line"), (read_bytes, "byte")),
                                        ((bash_lines, "line"), (bash_bytes, "byte"))])]
    head = bool(re.search(rf"\b({FIRST})\W+(?:\w+\W+){{0,2}}{bash_lines}\b", plain[1]))
    last = last_named(said[0], lines_cap)
    t.expect([units, head, last, counted_from_0(read_), end_cut(said[1]), first_kept(said[1])],
             [[[True, True], [True, True]], False, False, False, False, False],
             "Each description states its budget truly (Build, \"with descriptions that state "
             "them\"): each number stands before its own unit, the lines cap before \"lines\" "
             "and the byte budget before \"bytes\", bash's does not name the first lines "
             "as the ones it keeps, and read's does not name the last lines as the ones it "
             "returns (a read starts at its offset). Items: for read's, then bash's description, whether "
             f"{lines_cap} and {read_bytes}, then {bash_lines} and {bash_bytes}, come before "
             "\"line\" and \"byte\" (a word may stand between); then whether bash's says "
             f"first, head, top, beginning, start, opening or another word for the first just "
             f"before {bash_lines}; then whether read's says last, end, tail, closing or another word for the last "
             f"just before {lines_cap}, or {lines_cap} lines at the end; then whether read's "
             "description or its parameters' say lines count from 0, or give offset as the "
             "lines to skip (Build: a reworded description stays true, `offset` counted "
             "from 1); then whether bash's says the end, the tail or the last lines are what "
             "it cuts off (Build item 5: bash's result \"holds the end\"); then whether bash's "
             "says the first lines, or what is seen first, are what it keeps. The descriptions: "
             f"{said!r}, offset's {read_['parameters']['properties']['offset']!r} "
             "(make_read_tool and make_bash_tool, lesson 6).")
    # Drawn last: 5001 to 5100 lines under a line cap that holds them all, past a cap of 5000 of
    # the tool's own (hunt 16, 6.1-01; hunt 31, 6.1-05); blank lines, one byte each, so that a
    # cut measuring its kept text again for every line (beyond reach) stays quick here too
    tall = t.random.randint(5001, 5100)
    ws.write_text("tall.log", "\n" * tall)
    roomy = {"max_lines": tall + t.random.randint(0, 1000), "max_bytes": 10**9}
    given = [await settle(harness.make_read_tool(ws, **roomy)["execute"]({"path": "tall.log"})),
             await settle(harness.make_bash_tool(lab.Shell(ws), **roomy)["execute"](
                 {"command": "cat tall.log"}))]
    t.expect([[text.count("\n"), text == "\n" * tall] for text in given], [[tall, True]] * 2,
             "The budget is the one the factory was given, however large: no cap of the "
             "tool's own below it, in lines as in bytes (Build item 4, \"the budget being the "
             "`max_lines` and `max_bytes` that `make_read_tool` was given\"). Items: [newlines, "
             f"whether it is the whole file] of read's, then bash's `cat`, result for a file of "
             f"{tall} blank lines, by tools made with max_lines={roomy['max_lines']}, "
             "max_bytes=10**9 (make_read_tool and make_bash_tool, lesson 6).")


@lab_test("A result's budget is its own: late in a long conversation, after 60 to 90 messages "
          "of over a million bytes in all, drawn under the seed, three reads in one reply, of a "
          "short file and twice of one of 30,000 to 45,000 bytes, each return all their lines.")
async def test_the_budget_is_per_result(t):
    lines = [drawn_line(t) for _ in range(t.random.randint(1, 6))]
    big = numbered(t.random.randint(1000, 1500), width=29)  # 30 bytes a line: under one budget
    ws = lab.Workspace({"notes.txt": "".join(lines), "big.txt": big})
    messages = []
    for n in range(t.random.randint(30, 45)):  # over a million bytes in all, whatever the draw
        messages += [harness.user_message(f"Question {n}: " +
                                          "words " * t.random.randint(5700, 6500)),
                     lab.say(f"Answer {n}.")]
    said = sum(len(m["content"].encode()) for m in messages if m["role"] == "user")
    again = t.random.randint(4, 9)  # reads of big.txt in one reply: a batch of 5 to 10 calls
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "notes.txt"}),
                                         lab.call("read", {"path": "big.txt"}),
                                         *[lab.call("read", {"path": "big.txt", "offset": 1})
                                           for _ in range(again - 1)]),
                               lab.say("Read them.")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [harness.make_read_tool(ws)],
                                      "Read notes.txt and big.txt."))
    calls = range(1, again + 2)
    t.expect([lab.shape(messages[-(again + 3):]), messages[-(again + 2)]["content"],
              [m["content"] == big for m in messages[-(again + 1):-1]]],
             [f"A[{','.join(f'c{n}' for n in calls)}] {' '.join(f'R(c{n})' for n in calls)} A",
              "".join(lines), [True] * again],
             "One budget per result, kept by the tool that makes it: what a read returns never "
             "depends on what was said before it, nor on the other calls of its reply; no share "
             "of a window, no budget split among a batch, however many calls it holds. Items: "
             "the run's last messages (lab.shape), the short read's result, and whether each of "
             f"the {again} reads of big.txt ({len(big)} bytes) returned it whole, after {said} "
             "bytes of conversation "
             "(lesson 6).")


@lab_test("The record itself holds the cut result: a run that reads a file of over 2000 lines, "
          "its length drawn under the seed, records 2000 lines and the note, not the whole file.")
async def test_the_record_holds_the_cut(t):
    total = t.random.randint(2001, 6000)
    ws = lab.Workspace({"big.log": numbered(total, width=24)})  # 2000 lines: 50,000 bytes
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "big.log"})),
                               lab.reply(lab.call("read", {"path": "big.log", "offset": None,
                                                                  "limit": None})),
                               lab.say(f"It counts to {total}.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [harness.make_read_tool(ws)],
                                      "What is in big.log?"))
    result = messages[2]["content"]
    sent = [message["content"] for message in model.calls[1].messages
            if message["role"] == "toolResult"]
    t.expect([lab.shape(messages), len(result.split("\n")), result.split("\n")[-1],
              sent == [result]],
             ["U A[c1] R(c1) A[c2] R(c2) A", 2001, note(1, 2000, total), True],
             "The budget is kept where the result is made, so the record, and every later "
             "request built from it, carries one budget, never the whole file: the cut happens "
             "once, and the request after the read holds the very text the record holds, note "
             "and all, not cut again on the way out, though its 2000 lines of 25 bytes fill the "
             "50,000 bytes and the note goes past them. Items: the record's shape (lab.shape), "
             "the result's lines, its last line, and whether the next request's tool result is "
             "the record's (lesson 6).")
    t.expect([block["arguments"] for message in messages[1::2] if message["role"] == "assistant"
              for block in message["content"] if block.get("type") == "toolCall"],
             [{"path": "big.log"}, {"path": "big.log", "offset": None, "limit": None}],
             "The record's call holds the arguments as the model sent them: offset and limit "
             "left out stay left out, and an offset sent as None stays None, a limit too: not "
             "written in nor deleted by read. Items: the arguments of the calls in the record's "
             "assistant messages, the first sent with a path alone, the second with offset and "
             "limit None (make_read_tool, lesson 6).")
    whole = numbered(t.random.randint(2101, 3000), width=t.random.randint(60, 400))  # >125 kB
    ws.write_text("whole.log", whole)
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "whole.log"})),
                               lab.say("Read it all.")])
    messages = []
    roomy = harness.make_read_tool(ws, max_lines=10**6, max_bytes=10**9)
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [roomy], "Read whole.log."))
    sent = [message["content"] for message in model.calls[1].messages
            if message["role"] == "toolResult"]
    t.expect([lab.shape(messages), messages[2]["content"] == whole, sent == [whole]],
             ["U A[c1] R(c1) A", True, True],
             "The view adds no budget of its own: a tool made with a budget above the course's "
             "returns the whole file, and the next request carries that result as the record "
             "holds it, not cut again in context_for_model (after the Build list: \"not one "
             "line in `context_for_model`\"). Items: the record's shape (lab.shape), whether the "
             f"record's result is all {whole.count(chr(10))} lines ({len(whole)} bytes) of "
             "whole.log, read by a tool made with max_lines=10**6, max_bytes=10**9, and whether "
             "the next request's tool result is that text (lesson 6).")
    # Drawn last: a result of over two million characters, in four long lines, cheap to read
    # and to send however long (hunt 29, 6.1-33)
    bulk = "".join(c * t.random.randint(510_000, 600_000) + "\n" for c in "wxyz")
    ws.write_text("bulk.log", bulk)
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "bulk.log"})),
                               lab.say("Read it all.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [roomy], "Read bulk.log."))
    sent = [message["content"] for message in model.calls[1].messages
            if message["role"] == "toolResult"]
    t.expect([lab.shape(messages), messages[2]["content"] == bulk, sent == [bulk]],
             ["U A[c1] R(c1) A", True, True],
             "The view adds no budget of its own, however long the result, nor the tool a cap "
             "of the tool's own below the budget it was given: the record holds the whole file, "
             "and the next request carries it as the record holds it (after the Build list: "
             "\"not one line in "
             "`context_for_model`\"). Items: the record's shape, whether the record's result is "
             f"all of bulk.log, {len(bulk)} characters in 4 lines, read by the tool made with "
             "max_lines=10**6, max_bytes=10**9, and whether the next request's tool result is "
             "that text (lesson 6).")


PIECES = ("a", "é", "中", "🙂", "xyz")  # one, two, three, four and three bytes of UTF-8
BREAKS = ("\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
          "\u2029")  # every line break str.splitlines knows


@lab_test("Texts of two to nine lines made of one- to four-byte characters, each cut by both "
          "truncators under a byte budget set to the exact size of their first (or last) k lines, "
          "and one byte less, for every k: exactly the budget keeps k lines, a byte less keeps "
          "k - 1.")
async def test_the_byte_budget_to_the_byte(t):
    lines = ["".join(t.random.choice(PIECES) for _ in range(t.random.randint(0, 4))) + "\n"
             for _ in range(t.random.randint(2, 9))]
    text = "".join(lines)
    sizes = [len(line.encode()) for line in lines]
    rows, cases = [], []
    for k in range(1, len(lines) + 1):
        for spare in (0, -1):
            head = sum(sizes[:k]) + spare
            tail = sum(sizes[-k:]) + spare
            rows.append([k, spare, harness.truncate_head(text, max_bytes=head)[1],
                         harness.truncate_tail(text, max_bytes=tail)[1]])
            cases.append([k, spare])
    t.expect(rows, [[k, spare, k + spare, k + spare] for k, spare in cases],
             f"Lines of {sizes} bytes: a budget of exactly the first k lines' bytes keeps those k "
             "lines (truncate_head), of exactly the last k lines' bytes keeps those k "
             "(truncate_tail), and one byte less keeps one line fewer; the count starts at nothing "
             "used (truncate_head and truncate_tail, lesson 6). Each row: [k, 0 for the exact "
             "budget or -1 for a byte less, lines truncate_head shows, lines truncate_tail shows].")
    words = "".join(t.random.choice(PIECES) for _ in range(t.random.randint(1, 4)))
    t.expect([list(harness.truncate_head(text + words, max_bytes=len((text + words).encode()))),
              list(harness.truncate_tail(text + words, max_bytes=len(words.encode())))],
             [[text + words, len(lines) + 1], [words, 1]],
             "A last line printed without a newline costs its own bytes and no more: exactly "
             "max_bytes still fits. Items: truncate_head of the text above followed by "
             f"{words!r}, under a budget of exactly its size; truncate_tail of it under a budget "
             f"of exactly {words!r}'s size (truncate_head and truncate_tail, lesson 6).")
    broken = ["".join(t.random.choice(PIECES) for _ in range(t.random.randint(1, 3))) + end
              for end in t.random.sample(BREAKS, len(BREAKS))]
    mixed, k = "".join(broken), t.random.randint(2, len(broken) - 1)
    t.expect([list(harness.truncate_head(mixed)),
              list(harness.truncate_head(mixed, max_bytes=size(broken[:k]))),
              list(harness.truncate_head(mixed, max_bytes=size(broken[:k]) - 1)),
              list(harness.truncate_tail(mixed, max_bytes=size(broken[-k:])))],
             [[mixed, len(broken)], ["".join(broken[:k]), k], ["".join(broken[:k - 1]), k - 1],
              ["".join(broken[-k:]), k]],
             "A line ends at any break str.splitlines knows, and keeps it as it is: the text "
             f"{mixed!r} is {len(broken)} lines, a \"\\r\\n\" costs two bytes and stays "
             "\"\\r\\n\". Items: truncate_head of it whole, under a budget of exactly its first "
             f"{k} lines, and one byte less; truncate_tail under exactly its last {k} lines "
             "(truncate_head and truncate_tail, lesson 6).")
