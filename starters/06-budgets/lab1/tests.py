"""Lesson 6, lab 1: fit the budget. The tests of the two truncators, int_arg, read's paging and
its messages, and bash's tail.

Descriptions are ours to word, so they are checked for the numbers they state, not for their
words.

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


def numbers_in(text):
    """The whole numbers a text states, with separators inside a number ignored: "50,000" and
    "50_000" and "50000" all read as 50000."""
    return [int(n) for n in re.findall(r"\d+", re.sub(r"(?<=\d)[,_ ](?=\d{3})", "", text))]


@lab_test("MAX_LINES is 2000 and MAX_BYTES is 50_000.")
async def test_the_constants(t):
    t.expect([harness.MAX_LINES, harness.MAX_BYTES], [2000, 50_000],
             "One result's budget: 2000 lines or 50,000 bytes, whichever comes first "
             "(lesson 6).")


@lab_test("Short text comes back whole from both truncators, with its line count; empty text "
          "is (\"\", 0).")
async def test_short_text_is_whole(t):
    text = "def f():\n    return 1\n"
    t.expect([list(harness.truncate_head(text)), list(harness.truncate_tail(text))],
             [[text, 2], [text, 2]],
             "Within budget nothing is cut: (kept, lines_shown) is (text, its lines) "
             "(truncate_head and truncate_tail, lesson 6).")
    t.expect(list(harness.truncate_head("no newline at the end")), ["no newline at the end", 1],
             "A last line without a newline is still a line (truncate_head, lesson 6).")
    t.expect([list(harness.truncate_head("")), list(harness.truncate_tail(""))], [["", 0], ["", 0]],
             "Empty text keeps nothing (truncate_head and truncate_tail, lesson 6).")


@lab_test("The line cap keeps whole lines from the top: 5 lines under max_lines=3 give the first "
          "3, newlines and all.")
async def test_the_line_cap(t):
    t.expect(list(harness.truncate_head(numbered(5), max_lines=3)), ["1\n2\n3\n", 3],
             "truncate_head keeps at most max_lines whole lines, from the top (lesson 6).")
    t.expect(list(harness.truncate_head(numbered(3), max_lines=3)), ["1\n2\n3\n", 3],
             "Exactly max_lines lines all fit (truncate_head, lesson 6).")


@lab_test("Bytes are counted, not characters: \"é\" costs two. A line that brings the size to "
          "exactly max_bytes stays; one byte more and it goes.")
async def test_bytes_not_characters(t):
    t.expect(list(harness.truncate_head("aé\nb\n", max_bytes=4)), ["aé\n", 1],
             "\"aé\\n\" is 4 bytes: exactly the budget, so it stays, and \"b\\n\" would go past "
             "it (truncate_head, lesson 6).")
    t.expect(list(harness.truncate_head("aé\nb\n", max_bytes=5)), ["aé\n", 1],
             "5 bytes still cannot take \"b\\n\": \"aé\\n\" is 3 characters but 4 bytes, and "
             "4 + 2 = 6; only whole lines are kept (truncate_head, lesson 6).")
    t.expect(list(harness.truncate_head("aé\nb\n", max_bytes=6)), ["aé\nb\n", 2],
             "6 bytes take both lines (truncate_head, lesson 6).")
    t.expect(list(harness.truncate_head("ééé\nx\n", max_bytes=6)), ["", 0],
             "\"ééé\\n\" is 4 characters but 7 bytes: over a 6-byte budget. Count "
             "len(line.encode()), not len(line) (truncate_head, lesson 6).")


@lab_test("A first line that alone is over budget gives (\"\", 0): half a line would mislead.")
async def test_a_first_line_too_big(t):
    t.expect(list(harness.truncate_head("x" * 100 + "\nshort\n", max_bytes=50)), ["", 0],
             "truncate_head keeps whole lines only; when the first does not fit, nothing is "
             "kept (lesson 6).")
    t.expect(list(harness.truncate_tail("short\n" + "x" * 100 + "\n", max_bytes=50)), ["", 0],
             "truncate_tail likewise, from the bottom (truncate_tail, lesson 6).")


@lab_test("truncate_tail keeps the last whole lines, in their original order, under either "
          "limit, counting bytes, not characters.")
async def test_truncate_tail(t):
    t.expect(list(harness.truncate_tail(numbered(5), max_lines=2)), ["4\n5\n", 2],
             "truncate_tail keeps the end, where a command prints its verdict, in order "
             "(truncate_tail, lesson 6).")
    t.expect(list(harness.truncate_tail("aaaa\nb\nc\n", max_bytes=5)), ["b\nc\n", 2],
             "Counting bytes from the bottom: \"c\\n\" and \"b\\n\" make 4, \"aaaa\\n\" would "
             "make 9 (truncate_tail, lesson 6).")
    t.expect(list(harness.truncate_tail("error: é\n", max_bytes=10)), ["error: é\n", 1],
             "\"error: é\\n\" is 10 bytes: exactly the budget (truncate_tail, lesson 6).")
    t.expect(list(harness.truncate_tail("a\néé\n", max_bytes=5)), ["éé\n", 1],
             "\"éé\\n\" is 3 characters but 5 bytes, the whole budget, so \"a\\n\" cannot join "
             "it: bytes are counted from the bottom too, len(line.encode()) (truncate_tail, "
             "lesson 6).")


@lab_test("int_arg gives the default when the argument is absent or None, the value when it is an "
          "int, and raises ValueError(\"limit must be an integer\") for anything else, a bool "
          "included.")
async def test_int_arg(t):
    t.expect([harness.int_arg({}, "limit", 5), harness.int_arg({"limit": None}, "limit", 5),
              harness.int_arg({"limit": 7}, "limit", 5), harness.int_arg({"limit": 0}, "limit", 5)],
             [5, 5, 7, 0],
             "Absent or None means left out: the default. An int, even 0, is returned as it is "
             "(int_arg, lesson 6).")
    found = [await raised(lambda v=v: harness.int_arg({"limit": v}, "limit", 5))
             for v in ("3", 2.0, True, False, [1])]
    t.expect(found, ["ValueError: limit must be an integer"] * 5,
             "A string, a float, a list and a bool are not whole numbers here: True is an int "
             "to Python, but not a line number (int_arg, lesson 6).")


@lab_test("Reading a 5000-line file gives lines 1 to 2000, then the note "
          "\"[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]\"; offset=2001 reads "
          "on.")
async def test_a_long_file(t):
    ws = lab.Workspace({"big.log": numbered(5000)})
    first = await read(ws, {"path": "big.log"})
    lines = first.split("\n")
    t.expect([len(lines), lines[0], lines[1999], lines[-1]],
             [2001, "1", "2000", "[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]"],
             "read returns one budget of whole lines, then a note saying where it stopped and "
             "how to go on (make_read_tool, lesson 6).")
    second = (await read(ws, {"path": "big.log", "offset": 2001})).split("\n")
    t.expect([second[0], second[-1]],
             ["2001", "[Showing lines 2001-4000 of 5000. Use offset=4001 to continue.]"],
             "The note's offset reads on from the next line (make_read_tool, lesson 6).")
    last = await read(ws, {"path": "big.log", "offset": 4001})
    t.expect([last.split("\n")[0], last.endswith("5000\n")], ["4001", True],
             "The read that reaches the end has no note (make_read_tool, lesson 6).")


@lab_test("offset and limit select exactly those lines; the note comes only when the read ends "
          "before the file does.")
async def test_offset_and_limit(t):
    ws = lab.Workspace({"a.txt": numbered(10), "last.txt": "one\ntwo"})
    found = [await read(ws, {"path": "a.txt", "offset": 3, "limit": 2}),
             await read(ws, {"path": "a.txt", "offset": 9}),
             await read(ws, {"path": "a.txt", "offset": 9, "limit": 2}),
             await read(ws, {"path": "a.txt", "offset": 10, "limit": 5}),
             await read(ws, {"path": "a.txt", "limit": 1}),
             await read(ws, {"path": "last.txt", "offset": 2})]
    t.expect(found, ["3\n4\n[Showing lines 3-4 of 10. Use offset=5 to continue.]",
                     "9\n10\n",
                     "9\n10\n",
                     "10\n",
                     "1\n[Showing lines 1-1 of 10. Use offset=2 to continue.]",
                     "two"],
             "offset counts from 1 and limit caps the lines; a read that stops early, by "
             "budget or by limit, says so, and one that reaches the end does not "
             "(make_read_tool, lesson 6).")
    t.expect(await read(ws, {"path": "a.txt", "offset": None, "limit": None}), numbered(10),
             "offset and limit sent as None are left out: the whole file (int_arg, lesson 6).")


@lab_test("The bad-argument messages are exact: offset 0, offset 12 of a 10-line a.txt, and an "
          "offset sent as a string; argument errors come before the missing-file check.")
async def test_bad_arguments(t):
    ws = lab.Workspace({"a.txt": numbered(10), "empty.txt": ""})
    found = [await read(ws, {"path": "a.txt", "offset": 0}),
             await read(ws, {"path": "a.txt", "limit": 0}),
             await read(ws, {"path": "a.txt", "offset": 12}),
             await read(ws, {"path": "a.txt", "offset": "3"}),
             await read(ws, {"path": "a.txt", "limit": True}),
             await read(ws, {"path": "empty.txt", "offset": 2}),
             await read(ws, {"path": "nope.txt", "offset": 0}),
             await read(ws, {"path": "nope.txt", "offset": 3})]
    t.expect(found, ["ValueError: offset and limit must be 1 or more",
                     "ValueError: offset and limit must be 1 or more",
                     "ValueError: offset 12 is past the end of a.txt: 10 lines",
                     "ValueError: offset must be an integer",
                     "ValueError: limit must be an integer",
                     "ValueError: offset 2 is past the end of empty.txt: 0 lines",
                     "ValueError: offset and limit must be 1 or more",
                     "FileNotFoundError: File not found: nope.txt. Files here: a.txt, empty.txt"],
             "read checks in this order: the arguments' types (str_arg, int_arg), then that "
             "offset and limit are 1 or more, then that the file exists, then that offset is "
             "not past its end (make_read_tool, lesson 6).")
    t.expect(await read(ws, {"path": "empty.txt"}), "",
             "Offset 1 of an empty file is allowed: there is nothing to show (make_read_tool, "
             "lesson 6).")


@lab_test("A line over the budget of one read gives the bracketed message instead of half a "
          "line, with the skip hint only when more lines follow.")
async def test_a_line_over_budget(t):
    ws = lab.Workspace({"data.csv": "id,name\n" + "x" * 120 + "\nlast\n",
                        "one.txt": "y" * 99 + "\n"})
    found = [await read(ws, {"path": "data.csv", "offset": 2}, max_bytes=100),
             await read(ws, {"path": "one.txt"}, max_bytes=50),
             await read(ws, {"path": "data.csv", "offset": 3}, max_bytes=100),
             await read(ws, {"path": "data.csv"}, max_bytes=100)]
    t.expect(found, [
        "[Line 2 of data.csv is 121 bytes, over the 100-byte budget of one read, so none of it "
        "is shown. Use offset=3 to skip it.]",
        "[Line 1 of one.txt is 100 bytes, over the 50-byte budget of one read, so none of it "
        "is shown.]",
        "last\n",
        "id,name\n[Showing lines 1-1 of 3. Use offset=2 to continue.]"],
        "A line that does not fit is named with its size in bytes, newline included, and "
        "never cut in half; the hint to skip it comes only when another line follows "
        "(make_read_tool, lesson 6).")


@lab_test("`seq 5000` through bash gives the last 2000 lines, then a note after a blank line; a "
          "failing command's status line comes after the note.")
async def test_bash_keeps_the_tail(t):
    bash = harness.make_bash_tool(lab.Shell(lab.Workspace({})))
    out = (await settle(bash["execute"]({"command": "seq 5000"}))).split("\n")
    t.expect([len(out), out[0], out[1999], out[2000], out[2001]],
             [2002, "3001", "5000", "", "[Showing the last 2000 of 5000 lines. Narrow the "
                                         "command for more.]"],
             "Command output is cut from the top, so its end, where the verdict is, stays; "
             "the note says how much was dropped (make_bash_tool, lesson 6).")
    failed = (await settle(bash["execute"]({"command": "seq 5000; false"}))).split("\n")
    t.expect(failed[-3:], ["", "[Showing the last 2000 of 5000 lines. Narrow the command for "
                               "more.]", "Command exited with code 1"],
             "The status line is last, after the note (make_bash_tool, lessons 4 and 6).")
    t.expect(await settle(bash["execute"]({"command": "seq 3"})), "1\n2\n3\n",
             "Output within budget comes back whole, with no note (make_bash_tool, lesson 6).")


@lab_test("Both factories honour the budget they are given, and their descriptions state it.")
async def test_the_factories_take_a_budget(t):
    ws = lab.Workspace({"a.txt": numbered(10, width=9)})
    read_ = harness.make_read_tool(ws, max_lines=3, max_bytes=4321)
    bash = harness.make_bash_tool(lab.Shell(ws), max_lines=37, max_bytes=25)
    t.expect(await settle(read_["execute"]({"path": "a.txt"})),
             "1........\n2........\n3........\n"
             "[Showing lines 1-3 of 10. Use offset=4 to continue.]",
             "make_read_tool(ws, max_lines=3) reads 3 lines at a time (make_read_tool, "
             "lesson 6).")
    t.expect(await settle(bash["execute"]({"command": "cat a.txt"})),
             "9........\n10.......\n\n"
             "[Showing the last 2 of 10 lines. Narrow the command for more.]",
             "make_bash_tool(shell, max_bytes=25) keeps what fits in 25 bytes: two 10-byte "
             "lines (make_bash_tool, lesson 6).")
    t.expect([sorted({3, 4321} & set(numbers_in(read_["description"]))),
              sorted({37, 25} & set(numbers_in(bash["description"])))],
             [[3, 4321], [25, 37]],
             "Each description tells the model its budget, in the numbers it was made with, "
             "so the model can plan its reads (make_read_tool and make_bash_tool, lesson 6).")
    defaults = [harness.make_read_tool(ws)["description"],
                harness.make_bash_tool(lab.Shell(ws))["description"]]
    t.expect([sorted({2000, 50000} & set(numbers_in(d))) for d in defaults],
             [[2000, 50000], [2000, 50000]], "With the default budget, the default numbers "
                                             "(make_read_tool and make_bash_tool, lesson 6).")
    t.expect(sorted(read_["parameters"]["properties"]), ["limit", "offset", "path"],
             "read's parameters now include offset and limit (make_read_tool, lesson 6).")


@lab_test("A result's budget is its own: late in a long conversation, after 60 messages of about "
          "60,000 bytes, reading a three-line file still returns all three lines.")
async def test_the_budget_is_per_result(t):
    ws = lab.Workspace({"notes.txt": "one\ntwo\nthree\n"})
    messages = []
    for n in range(30):
        messages += [harness.user_message(f"Question {n}: " + "words " * 330),
                     lab.say(f"Answer {n}.")]
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "notes.txt"})),
                               lab.say("Three lines.")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [harness.make_read_tool(ws)],
                                      "Read notes.txt."))
    t.expect([lab.shape(messages[-3:]), messages[-2]["content"]],
             ["A[c1] R(c1) A", "one\ntwo\nthree\n"],
             "One budget per result, kept by the tool that makes it: what a read returns never "
             "depends on what was said before it, here 60 earlier messages of about 60,000 bytes "
             "(lesson 6).")


@lab_test("The record itself holds the cut result: a run that reads a 5000-line file records "
          "2000 lines and the note, not the whole file.")
async def test_the_record_holds_the_cut(t):
    ws = lab.Workspace({"big.log": numbered(5000)})
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "big.log"})),
                               lab.say("It counts to 5000.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [harness.make_read_tool(ws)],
                                      "What is in big.log?"))
    result = messages[2]["content"]
    t.expect([lab.shape(messages), len(result.split("\n")), result.split("\n")[-1]],
             ["U A[c1] R(c1) A", 2001,
              "[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]"],
             "The budget is kept where the result is made, so the record, and every later "
             "request built from it, carries one budget, never the whole file (lesson 6).")



PIECES = ("a", "é", "中", "🙂", "xyz")  # one, two, three, four and three bytes of UTF-8


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
