"""Lab 12.1's grading bank: scenarios for each rule of its ledger (source/lessons/12-compaction/
rules.toml, lab 12.1's items), in the form of the lab's tests.py, which the grader draws a
secret subset of and runs as hidden tests (grader/bank.py). Never released, never shown to a
student: a failed one shows only the sentence of the rule it checks.

Each scenario reaches its rule through another door than the public tests: render of a real
run's record, a long mixed transcript read through its last lines and its estimate, the
estimate a listener takes at each message_end, pairs of messages measured together, find_cut
over the rows a SessionLog saved during runs and over two logs that both number from e1, and
over a long compacted log measured by how much each cut keeps; so that the public tests' wanted
expressions, evaluated in a bank test's frame, do not give its values.
"""
import copy
import json

import harness
import lab
from lab.kit import SealedList, SealedMessage, lab_test, tool

LAB = "12.1"
SYSTEM = "You look after a small repository."
WORDS = ("harbor", "lantern", "meadow", "quartz", "saddle", "timber", "violet", "walnut",
         "zephyr", "anchor", "bramble", "cinder")
ANY = {"type": "object"}


def word(t):
    """A drawn word with a drawn number."""
    return f"{t.random.choice(WORDS)}{t.random.randint(10, 9999)}"


def result(call_id, text):
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": "read", "content": text,
            "is_error": False}


def dumped(arguments):
    return json.dumps(arguments)


# --- rule 1: render -------------------------------------------------------------------------

def broken(arguments):
    raise FileNotFoundError(f"no such pattern file: {arguments['pattern']}")


@lab_test("render of a real run's record (a prompt with spaces, a tab, a line break and letters "
          "Unicode writes more than one way, a reply "
          "of only calls, a result over several lines, a tool's error, a reply of words and a "
          "call, a failed reply whose words end in a line break) is one exact line per message.")
async def test_bank_render_of_a_real_run(t):
    topic, path, pattern = word(t), f"café/{word(t)}.py", word(t)
    lines = t.random.randint(5, 80)
    # letters Unicode writes more than one way, which any normal form (NFC, NFKC) changes
    forms = t.random.sample(["\ufb02", "\uff10\uff11", "\u2002", "\u00bd", "\u210c", "\u2075",
                             "ñ", "\u212a"], 5)
    forms.insert(4, t.random.choice(["o\u0302", "i\u0308", "e\u0300", "a\u030a"]))  # two for one
    body = "".join(f"{n}: {word(t)}{forms[n]}\n" for n in range(t.random.randint(2, 4)))
    prompt = f"  Check the {topic}{forms[4]} module\nplease{forms[5]}.\t \n"
    # a Windows line end and a break only str.splitlines knows: only the "\n" becomes a space
    said, half = f"Found {pattern}.\nNow the rest.", f"Half an\r\n{word(t)} answer\x85\n"
    after = f" Then {word(t)}.\n"  # a text block after the reply's call: its text comes first
    half += "".join(f"{word(t)}{other}" for other in t.random.sample(
        ["\x0c", "\x1c", "\x1d", "\x1e", "\u2029", "\x0b", "\u2028"], 7)) + "\n"
    reason = t.random.choice(["overloaded", "prompt is too long", "stream broke"])
    model = lab.ScriptedModel([
        lab.reply(lab.call("read", {"path": path, "lines": lines}, id="c1"),
                  lab.call("grep", {"pattern": pattern}, id="c2")),
        lab.reply(said, lab.call("read", {"path": "ledger.cfg", "lines": 1}, id="c3"), after),
        lab.fail(reason, half)])
    h = harness.Harness(model, SYSTEM, [tool("read", lambda arguments: body, ANY),
                                        tool("grep", broken, ANY)])
    await lab.drive(h.prompt(prompt))
    error = h.messages[3]["content"]
    record = json.dumps(h.messages)
    text = "\n".join([
        "user: " + prompt.replace("\n", " "),
        "assistant:  read(" + dumped({"path": path, "lines": lines}) + ") grep("
        + dumped({"pattern": pattern}) + ")",
        "toolResult: " + body.replace("\n", " "),
        "toolResult: " + error.replace("\n", " "),
        "assistant: " + (said + after).replace("\n", " ")
        + ' read({"path": "ledger.cfg", "lines": 1})',
        "toolResult: " + body.replace("\n", " "),
        "assistant: " + half.replace("\n", " ")])
    t.expect([lab.shape(h.messages), harness.render(h.messages), json.dumps(h.messages) == record],
             ["U A[c1,c2] R(c1) R(c2) A[c3] R(c3) A(error)", text, True],
             "Items: [lab.shape of a run's record, render of it, whether the record is as it "
             "was after render, which changes none of its messages]. A line is the role, a colon, "
             "a space and the message's words: a user message's and a result's are its "
             "content (a tool's error too, unmarked), an assistant's its text and then each "
             "call as name(json.dumps(arguments)), in the order the reply makes them, "
             "whatever tools they call, \\u escapes and all, its text blocks joined as they are "
             "first, a block after a call too, "
             "separated by single spaces, every character as the record holds it (a letter "
             "Unicode writes more than one way too: no normal form made of it); a newline "
             "anywhere becomes a space, the one that "
             "ends the last message included, and not its error_message; only \"\\n\" is a "
             "newline, and a \"\\r\", U+0085, a form feed, U+2029 or any other line break "
             "Python knows stays as it is (render, lesson 12).")


@lab_test("render of a long transcript of every kind of message (over five hundred: empty ones, "
          "failed and stopped replies, long results and long arguments among them) has a line "
          "per message, and its last lines and length are as the rule writes them.")
async def test_bank_render_of_a_long_mixed_transcript(t):
    size = 520 + t.random.randint(1, 300)
    messages, lines = [], []
    for n in range(size):
        kind = n % 4 if n % 9 else 4 + n // 9 % 4
        if kind == 4:  # a failed reply with no words
            messages.append(lab.fail(f"overloaded ({word(t)})"))
            lines.append("assistant: ")
        elif kind == 5:  # a stopped reply whose call carries long arguments
            arguments = {"path": f"{word(t)}.py", "content": "x = 1\n" * t.random.randint(40, 90)}
            messages.append({**lab.reply(lab.call("write", arguments, id=f"w{n}")),
                             "stop_reason": "aborted", "error_message": "Request was aborted"})
            lines.append("assistant:  write(" + json.dumps(arguments) + ")")
        elif kind == 6:  # an empty result, and an empty user message
            messages += [result(f"c{n}", ""), harness.user_message("")]
            lines += ["toolResult: ", "user: "]
        elif kind == 7:  # a long result
            words = "".join(f"{word(t)}{t.random.choice(' ' * 9 + chr(10))}"
                            for _ in range(t.random.randint(250, 600)))
            messages.append(result(f"c{n}", words))
            lines.append("toolResult: " + words.replace("\n", " "))
        elif kind == 0:
            words = f" Step {n}:\t{word(t)}\n\n"
            messages.append(harness.user_message(words))
            lines.append("user: " + words.replace("\n", " "))
        elif kind == 1:
            arguments = {"path": f"src/{word(t)}.py", "all": n % 3 == 0}
            messages.append(lab.reply(lab.call("read", arguments, id=f"c{n}")))
            lines.append("assistant:  read(" + json.dumps(arguments) + ")")
        elif kind == 2:
            words = f"{word(t)}\nok\n"
            messages.append({**result(f"c{n - 1}", words), "is_error": n % 3 == 0})
            lines.append("toolResult: " + words.replace("\n", " "))
        else:
            words = f" Read {word(t)}.\n\nNext. "
            extra = f" ({word(t)})"  # a second text block
            messages.append(lab.reply(words, extra) if n < size - 1
                            else lab.fail("overloaded", words, extra))
            lines.append("assistant: " + (words + extra).replace("\n", " "))
    wide = [f"{word(t)}.py" for _ in range(t.random.randint(150, 900))]  # hundreds of calls
    messages.append(lab.reply(*[lab.call("read", {"path": p}, id=f"v{n}")
                                for n, p in enumerate(wide)]))
    lines.append("assistant:  " + " ".join("read(" + json.dumps({"path": p}) + ")" for p in wide))
    gap = "\n" * t.random.randint(100, 4000)  # a run of hundreds or thousands of newlines
    messages.append(harness.user_message(f"{word(t)}:{gap}{word(t)}"))
    lines.append("user: " + messages[-1]["content"].replace("\n", " "))
    run = "\n" * t.random.randint(30_000, 500_000)  # a run of newlines inside it
    giant = "g" * (t.random.randint(5_050_000, 5_250_000) - len(run)) + run + word(t)  # millions
    messages.append(result(f"c{size}", giant))
    lines.append("toolResult: " + giant.replace("\n", " "))
    arguments = {"path": f"{word(t)}.py",  # over a million characters as JSON
                 "content": "é = 1\n" * t.random.randint(90_000, 130_000)}
    messages.append(lab.reply(lab.call("write", arguments, id=f"w{size}")))
    lines.append("assistant:  write(" + json.dumps(arguments) + ")")  # é as its \u escape
    paths = [f"{word(t)}.py" for _ in range(t.random.randint(4, 60))]
    messages.append(lab.reply(*[lab.call("read", {"path": p}, id=f"r{n}")
                                for n, p in enumerate(paths)]))
    lines.append("assistant:  " + " ".join("read(" + json.dumps({"path": p}) + ")" for p in paths))
    piece = "".join(f"{word(t)}: {word(t)}\n" for _ in range(t.random.randint(300, 500)))
    piece += "\n" * t.random.randint(3, 5)  # a run of blank lines
    read = piece * (t.random.randint(250_000, 320_000) // len(piece) + 1)  # one very long read
    messages.append(result(f"c{size}", read))
    lines.append("toolResult: " + read.replace("\n", " "))
    if not messages[-1]["role"] == "user":
        messages.append(harness.user_message("And\tnow?\n"))
        lines.append("user: And\tnow? ")
    record = json.dumps(messages)
    text = harness.render(messages)
    whole = "\n".join(lines)
    long_read = next(m for m in reversed(messages) if m["role"] == "toolResult")
    long_read["content"] = read.swapcase()  # changed in place, as long as before
    now = harness.render(messages[-3:])
    long_read["content"] = read
    t.expect([text.count("\n") + 1, text.split("\n")[-3:], len(text),
              harness.estimate_tokens(messages), json.dumps(messages) == record,
              now.split("\n")[-2 if messages[-1] is not long_read else -1][:60]],
             [len(lines), lines[-3:], len(whole), len(whole) // 4, True,
              ("toolResult: " + read.swapcase().replace("\n", " "))[:60]],
             f"A transcript of {len(messages)} messages: user messages with a space before, "
             "a tab inside and a blank line after, replies of one call, results over two lines "
             "(some with is_error), replies of words with spaces around them and a blank line "
             "inside, in two text blocks, joined as they are, and now and then a failed reply "
             "with no words, a stopped reply with a call of long arguments, an empty result and "
             "an empty user message, a result of thousands of characters over many lines, and "
             f"near the end a result of {len(giant)} characters, {len(run)} newlines in a "
             "row among them, a call whose arguments are "
             f"{len(json.dumps(arguments))} characters of JSON with letters that are not ASCII, "
             f"a reply of {len(wide)} calls only, a user message with {len(gap)} newlines in a "
             "row, "
             f"a reply of {len(paths)} calls only, and one read of {len(read)} characters over "
             "many lines with runs of blank lines. Items: [how many lines render "
             "gives, its last three lines, its length, estimate_tokens of the messages, whether "
             "the messages are as they were after render, the first 60 characters of the long "
             "read's line once its content is changed in place to the same text with its "
             "letters' case swapped, as long as before]: one line per message, however many "
             "and however long, each newline its own space, tabs and spaces kept, and render "
             "changes none of the messages it is given (render, lesson 12).")


# --- rule 2: estimate_tokens -----------------------------------------------------------------

@lab_test("A listener that asks estimate_tokens of the record at each message_end of a run gets "
          "the length of the record's text so far divided by four, rounded down.")
async def test_bank_the_estimate_a_listener_takes(t):
    path = f"lib/{word(t)}.py"
    body = f"{word(t)} = {t.random.randint(1, 99)}\n"
    answer = f"{path} sets {word(t)}."
    ask = f"What does {path} set? "
    ask += "." * ((3 - len("user: " + ask)) % 4)  # a line of 4k + 3 characters
    h = harness.Harness(lab.ScriptedModel([lab.reply(lab.call("read", {"path": path})),
                                           lab.say(answer)]),
                        SYSTEM, [tool("read", lambda arguments: body, ANY)])
    seen = []
    h.subscribe(lambda event: seen.append(harness.estimate_tokens(list(h.messages)))
                if event["type"] == "message_end" else None)
    await lab.drive(h.prompt(ask))
    lines = ["user: " + ask, "assistant:  read(" + json.dumps({"path": path}) + ")",
             "toolResult: " + body.replace("\n", " "), "assistant: " + answer]
    t.expect(seen, [len("\n".join(lines[:n])) // 4 for n in range(1, 5)],
             "Items: estimate_tokens of the record at each message_end of a run U A[c1] R(c1) A, "
             f"whose render lines are {[len(line) for line in lines]} characters long: the "
             "length of render's text, newlines between lines included, divided by four and "
             "rounded down (estimate_tokens, lesson 12).")


@lab_test("estimate_tokens of pairs and triples of messages of different kinds counts the newline "
          "between their lines, four characters to a token, rounded down.")
async def test_bank_estimates_of_groups(t):
    file, done, part = f"{word(t)}.md", f"edited {word(t)}", f"Part {word(t)}"
    kinds = {"user": harness.user_message(f"Tidy {word(t)} s'il vous plaît — déjà vu ✓"),
             "calls": lab.reply(lab.call("edit", {"file": file, "line": 3}, id="e1")),
             "result": result("e1", done), "failed": lab.fail("rate limited", part)}
    text = {"user": "user: " + kinds["user"]["content"],
            "calls": "assistant:  edit(" + json.dumps({"file": file, "line": 3}) + ")",
            "result": "toolResult: " + done, "failed": "assistant: " + part}
    groups = [t.random.sample(sorted(kinds), t.random.randint(2, 3)) for _ in range(4)]
    head = len("\n".join(text[k] for k in groups[0]))
    pad = harness.user_message("x" + "y" * ((3 - head - 1 - len("user: x")) % 4))
    found = [harness.estimate_tokens([kinds[k] for k in group]) for group in groups]
    found.append(harness.estimate_tokens([kinds[k] for k in groups[0]] + [pad]))
    wanted = [len("\n".join(text[k] for k in group)) // 4 for group in groups]
    wanted.append(len("\n".join([text[k] for k in groups[0]] + ["user: " + pad["content"]]))
                  // 4)
    found.append(harness.estimate_tokens([kinds["user"]]))
    wanted.append(len(text["user"]) // 4)
    kinds["user"]["content"] = "Tidy everything. " * t.random.randint(20, 60)  # in place
    found.append(harness.estimate_tokens([kinds["user"]]))
    wanted.append(len("user: " + kinds["user"]["content"]) // 4)
    old = [harness.user_message(f"Old {n} " + "o" * t.random.randint(100, 300))
           for n in range(t.random.randint(100, 200))]
    new = [harness.user_message(f"New {n}") for n in range(t.random.randint(1950, 3000))]
    found.append(harness.estimate_tokens(old + new))
    wanted.append(len("\n".join("user: " + m["content"] for m in old + new)) // 4)
    giant = result("g1", "z" * t.random.randint(2_000_000, 2_300_000))
    giant["content"] += "z" * ((1 - len("toolResult: " + giant["content"])) % 4)  # 4k + 1
    found.append(harness.estimate_tokens([giant]))
    wanted.append(len("toolResult: " + giant["content"]) // 4)
    blanks = t.random.randint(10, 60)
    same = harness.user_message("x" * (2 * blanks))
    found.append(harness.estimate_tokens([same]))
    wanted.append((len("user: ") + 2 * blanks) // 4)
    same["content"] = "\n" * blanks  # in place, as long as before written as JSON
    found.append(harness.estimate_tokens([same]))
    wanted.append((len("user: ") + blanks) // 4)
    many = t.random.randint(4, 16)
    edit = lab.reply(lab.call("edit", {"file": f"{'u' * many}/{file}", "line": 3}, id="e2"))
    for letter in "uü":
        edit["content"][-1]["arguments"]["file"] = f"{letter * many}/{file}"  # in place
        found.append(harness.estimate_tokens([edit]))
        wanted.append(len("assistant:  edit(" + json.dumps(
            {"file": f"{letter * many}/{file}", "line": 3}) + ")") // 4)
    t.expect(found, wanted,
             f"Items: estimate_tokens of the groups {groups}, then of the first with a user "
             "message after it that makes the text 4k + 3 characters, then of the user "
             "message alone (its letters counted as characters), then of that message after it "
             f"was changed in place, then of {len(old)} long user messages and {len(new)} "
             "short ones after them, then of a result of "
             f"{len(giant['content'])} characters (a line of 4k + 1), then of a user message of "
             f"{2 * blanks} letters, before and after it was changed in place to {blanks} "
             "newlines, as long as before written as JSON, "
             "then of a reply of one call to edit whose file is "
             f"{'u' * many + '/' + file!r}, before and after its file was changed in place to "
             f"{'ü' * many + '/' + file!r}: as many letters, but longer as JSON, which writes "
             "each ü as its \\u escape. The "
             "length of render's text as it is now, divided by four, rounded down "
             "(estimate_tokens, lesson 12).")
    # a pair of messages measured again and again, past any count of calls a harness might
    # keep from call to call and change its answer after
    pair = [harness.user_message(f"Is {word(t)} done?"), result("c1", f"{word(t)}: done.")]
    times, seen = t.random.randint(110_000, 150_000), set()
    for n in range(times):
        seen.add(harness.estimate_tokens(pair))
        if n % 10_000 == 0:
            await lab.tick()
    t.expect(sorted(seen), [len(harness.render(pair)) // 4],
             f"A question and a result, {lab.shape(pair)}, measured together {times} times "
             "in a row: the item is every number estimate_tokens gave. The same number every "
             "time, however many times it was asked before (estimate_tokens, lesson 12).")


# --- rule 3: find_cut --------------------------------------------------------------------------

def reading(body):
    def read(arguments):
        if arguments["path"] == "b.py":  # a read that fails: its result has is_error True
            raise FileNotFoundError("b.py: no such file")
        return body
    return tool("read", read, ANY)


async def logged_session(t, ws, path):
    """A session saved by persist_to: a turn of one plain answer, then a turn whose reply asks
    for two reads, the second of which fails, then a turn of one answer; the log's rows."""
    long = "r" * t.random.randint(80, 200)
    script = [lab.say("Hello. " + "h" * t.random.randint(20, 60)),
              lab.reply(lab.call("read", {"path": "a.py"}), lab.call("read", {"path": "b.py"})),
              lab.say("Both read. " + "b" * t.random.randint(10, 90)),
              lab.say("Last. " + "l" * t.random.randint(10, 90))]
    h = harness.Harness(lab.ScriptedModel(script), SYSTEM, [reading(long)])
    log = harness.SessionLog(ws, path)
    h.subscribe(harness.persist_to(log))
    for ask in ("Hi " + "q" * t.random.randint(0, 40), "Read a.py and b.py.",
                "Anything else? " + "z" * t.random.randint(0, 40)):
        await lab.drive(h.prompt(ask))
    return log.rows()


@lab_test("find_cut over the rows a SessionLog saved during three runs (U A, U A[c1,c2] R R A, "
          "U A) cuts where the rule says for budgets spent exactly at a result and at a plain "
          "answer, keeps the least for a budget of 0, and cuts a second log numbered from e1 "
          "too by its own messages.")
async def test_bank_find_cut_over_a_saved_log(t):
    ws = lab.Workspace()
    rows = await logged_session(t, ws, "one.jsonl")
    sizes = [harness.estimate_tokens([m]) for _, m in rows]
    shapes = lab.shape([m for _, m in rows])
    at_result = t.random.choice([4, 5])  # R(c1) or R(c2) of the middle turn
    budgets = [sum(sizes[at_result:]), sum(sizes[1:]), sum(sizes[1:]) + t.random.randint(1, 3)]
    before = copy.deepcopy(rows)
    shut = SealedList((key, SealedMessage(m)) for key, m in rows)  # refuse any change
    kept = [lab.shape([m for _, m in rows[harness.find_cut(shut, b):]]) for b in budgets]
    t.expect(rows == before, True,
             f"Rows of a log that persist_to wrote, cut for the budgets {budgets}: whether each "
             "row's message was exactly as it was afterwards. find_cut changes none of the rows "
             "it is given; their messages are the record (find_cut, lesson 12).")
    # a reply whose estimate raises (a set in its call's arguments) among the saved rows
    odd = list(rows)
    odd.insert(t.random.randint(1, len(rows) - 1), ("e99", lab.reply(
        lab.call("read", {"path": {word(t)}}, id="z1"))))
    held, before = list(odd), copy.deepcopy(odd)
    try:
        harness.find_cut(odd, sum(sizes) + t.random.randint(1, 9))
    except Exception:  # noqa: BLE001 - answering or raising are both the harness's to choose
        pass
    t.expect([odd == before, len(odd) == len(held) and all(a is b for a, b in zip(odd, held))],
             [True, True],
             "Rows of a log that persist_to wrote, with a reply whose call's arguments hold a "
             "set, which json.dumps cannot write, put among them, cut with a budget past their "
             "total: whatever find_cut did, answer or raise, [whether each row's message was as "
             "it was afterwards, whether the list holds the very rows it held, in order]. "
             "find_cut changes none of the rows it is given, not for a moment of its walk "
             "either (find_cut, lesson 12).")
    other = lab.Workspace()
    again = await logged_session(t, other, "two.jsonl")
    again[-1] = (again[-1][0], lab.say("L" * 4 * (budgets[0] + 1)))  # the newest outweighs all
    cuts = [harness.find_cut(rows, budgets[0]), harness.find_cut(again, budgets[0])]
    nothing = harness.find_cut(rows, 0)
    below = harness.find_cut(rows, -t.random.randint(1, 99))
    far = harness.find_cut(rows, -t.random.randint(501, 10 ** 12) * 10 ** t.random.randint(
        16, 3000))  # far below 0, as far as a drawn power of ten
    whole = "U A U A[c1,c2] R(c1) R(c2) A U A"
    cuts.append(harness.find_cut(rows[3:], sum(sizes[3:])))  # rows opening mid-turn, all reached
    # the log as it stood mid-run, ending in the two results, the second failed (is_error True)
    cuts.append(harness.find_cut(rows[:6], sum(sizes[at_result:6])))
    joined = rows + again  # two logs' rows one after the other, both numbering from e1
    dump = lab.say("D" * 4 * t.random.randint(1_000_001, 1_200_000))  # over a million tokens
    heavy = rows + [("e50", harness.user_message("Dump it all.")), ("e51", dump)]
    cuts.append(harness.find_cut(joined, sum(harness.estimate_tokens([m]) for _, m in joined)))
    cuts.append(harness.find_cut(heavy, (len("assistant: ") + len(dump["content"][0]["text"]))
                                 // 4))
    # the joined logs with the second log's own total: the walk stops where it begins, at a
    # question whose id, e1, the first log's opening question has too
    cuts.append(harness.find_cut(joined, sum(harness.estimate_tokens([m]) for _, m in again)))
    # the log as it stood when the run ended in a failed reply after the two results, and
    # when the caller stopped it there (stop_reason "aborted")
    failed = rows[:6] + [("e7", lab.fail(f"HTTP 500: {word(t)}"))]
    cuts.append(harness.find_cut(failed, sum(harness.estimate_tokens([m])
                                             for _, m in failed[at_result:])))
    aborted = rows[:6] + [("e7", {**lab.fail("Request was aborted"), "stop_reason": "aborted"})]
    cuts.append(harness.find_cut(aborted, sum(harness.estimate_tokens([m])
                                              for _, m in aborted[at_result:])))
    t.expect([shapes, kept, cuts, [nothing > 0, nothing >= len(rows) - 1, below > 0,
                                   below >= len(rows) - 1, far > 0, far >= len(rows) - 1]],
             [whole, ["U A", "U A[c1,c2] R(c1) R(c2) A U A", whole],
              [7, 8, 4, 6, 0, len(rows) + 1, len(rows), 6, 6],
              [True] * 6],
             f"Rows of a log that persist_to wrote, costing {sizes} tokens; items: [their "
             f"lab.shape, the shape kept with keep_recent_tokens {budgets} (spent exactly at "
             "a result, so the cut moves on to the next user message; spent exactly at the "
             "first answer, so the walk stops there and the cut moves on; one token more, so "
             "everything fits), the cuts of that log and of another log whose ids are the same "
             "but whose newest answer alone outweighs the first budget, and of the rows "
             "from the first call on (A[c1,c2] ... U A) with a budget their whole total reaches "
             "exactly (reached at their oldest row, so the cut moves on to the next user "
             "message), and of the log as it stood mid-run, ending in the two results, the "
             "read of b.py failed (is_error True), with a budget spent exactly at a result (no "
             "user message after it, so the cut steps past both results, a failed one a tool "
             "result like any other: len of those rows), and of both logs' rows joined, their "
             "ids e1 on twice, with a budget their whole total reaches exactly (the cut is index 0, never worked out from the "
             "ids), and of the log with a question and an answer of over a million tokens "
             "after it, with a budget that answer alone reaches exactly (the walk stops there "
             "however large the budget, and with no user message after it the cut is that "
             "answer), and of both logs' rows again with the second log's own total, reached at "
             "its first question, both logs' first questions e1 (the cut is that row's index, "
             "len of the first log's rows, never worked out from the ids), and of the log as "
             "it stood when the run ended in a failed reply after the two results, with a "
             "budget spent exactly at a result (no user message after it, so the cut is the "
             "first row from there on that is not a tool result: the failed reply, on the "
             "record like any reply), and of the log as it stood when the caller stopped the "
             "run there, a reply with stop_reason \"aborted\" after the two results, the same "
             "budget (a stopped reply is no tool result either: the cut is that reply), whether "
             "a budget of 0 keeps something less than "
             "everything and at "
             "most the newest row, and whether a "
             "negative budget does, one just below 0 and one far below]. Each row costs estimate_tokens([message]), worked out each "
             "time, and a budget of 0 is a budget (find_cut, lesson 12).")
    # the reply that asked for the reads, changed in place to a path as long in Python and
    # longer as JSON, cut again in the same list for the same budget
    block = next(b for b in rows[3][1]["content"] if b.get("arguments") == {"path": "a.py"})
    accent = t.random.choice("áàâäéèêë")
    block["arguments"]["path"] = accent + ".py"
    exact = sum(harness.estimate_tokens([m]) for _, m in rows[3:])
    block["arguments"]["path"] = "a.py"
    before_change = harness.find_cut(rows, exact)
    block["arguments"]["path"] = accent + ".py"
    t.expect([before_change, harness.find_cut(rows, exact)], [2, 7],
             f"Rows of a log that persist_to wrote ({whole}), cut with keep_recent_tokens "
             f"{exact}, then the same list, its reply that asked for the reads changed in place "
             f"to read {accent + '.py'!r} for 'a.py', as many letters but longer as JSON, cut "
             "with the same budget: the items are the cuts. Before, the "
             "rows from that reply on fall short, the walk goes on to the question before it, "
             "and the cut is that question (2); after, they reach the budget exactly at the "
             "reply, and the cut moves on to the next user message (7). Each row costs "
             "estimate_tokens([message]) as it is now, never a size remembered by the message "
             "or the list (find_cut, lesson 12).")
    # rows whose whole transcript measures what they cost row by row (its newlines too few to
    # make a token): a result of the log alone, and an answer and a question of whole tokens
    lone = rows[at_result:at_result + 1]
    pair = [("e20", lab.say(word(t).ljust(4 * t.random.randint(6, 90) - len("assistant: "), "."))),
            ("e21", harness.user_message(word(t).ljust(4 * t.random.randint(6, 90) - 6, "?")))]
    whole = [harness.estimate_tokens([m for _, m in part]) for part in (lone, pair)]
    t.expect([harness.find_cut(lone, whole[0]), harness.find_cut(pair, whole[1])], [1, 1],
             f"The log's {lab.shape([lone[0][1]])} alone, with keep_recent_tokens {whole[0]}, "
             f"and rows {lab.shape([m for _, m in pair])} of whole tokens each, which open "
             f"inside a turn, with {whole[1]}: each budget is the rows' total row by row and "
             "estimate_tokens of them all alike. The items are the cuts. The whole total "
             "reaches the budget exactly, at the oldest row, and the cut moves on from there: "
             "past the lone result to len(rows), 1, and to the question, 1; 0 is only for a "
             "budget the total does not reach (find_cut, lesson 12).")


@lab_test("find_cut over a long compacted log (its summary first under the compaction's own id, "
          "hundreds of turns, one with a steer, a batch of over a thousand results, and a "
          "question not yet answered) keeps, for each budget, as many rows as the rule says, "
          "however far back the walk goes and however many results it steps past, and cuts the "
          "same list again by what its rows say after the newest is changed.")
async def test_bank_find_cut_over_a_long_log(t):
    turns, width = 1050 + t.random.randint(0, 100), 1004 + t.random.randint(0, 300)
    first = t.random.randint(1, 500)
    steered = t.random.randint(2, 40)  # the turn with a steer: U U A
    kept = []
    for n in range(turns):
        kept.append(harness.user_message(f"Q{n} " + "q" * t.random.randint(0, 12)))
        if n == steered:
            kept.append(harness.user_message(f"Also {word(t)}."))
        kept.append(lab.say(f"A{n} " + "a" * t.random.randint(0, 12)))
    later = [harness.user_message("Read them all."),
             lab.reply(*[lab.call("read", {"path": f"f{n}.py"}, id=f"c{n}") for n in range(width)])]
    later += [result(f"c{n}", "x" * t.random.randint(5, 9)) for n in range(width)]
    later[2 + t.random.randint(3, width - 1)]["is_error"] = True  # a read that failed
    later += [lab.say("All read."), harness.user_message(""),  # a user who says nothing
              lab.say(f"Anything about {word(t)}?"),
              harness.user_message(kept[0]["content"])]  # the first question asked again
    summary = harness.user_message("Previous conversation summary:\n" + word(t))
    compaction = first + len(kept)  # written after the rows it kept, before the later ones
    rows = ([(f"e{compaction}", summary)] + [(f"e{first + i}", m) for i, m in enumerate(kept)]
            + [(f"e{compaction + 1 + i}", m) for i, m in enumerate(later)])
    messages = [message for _, message in rows]
    sizes = [harness.estimate_tokens([m]) for m in messages]
    questions = [i for i, m in enumerate(messages) if m["role"] == "user"]
    steer = questions[steered + 2]  # after the summary and turns 0 to `steered`
    batch = len(rows) - width - 4  # the first result
    into = t.random.randint(0, 3)
    far = t.random.randint(steered + 3, steered + 8)  # far back, past the steer, 500 rows on
    budgets = [sum(sizes[batch + into:]), sum(sizes[questions[far]:]) + 1, sum(sizes),
               sum(sizes[steer:])]
    before, held = json.dumps(rows), list(rows)  # the summary holds a newline
    found = [len(rows) - harness.find_cut(rows, budget) for budget in budgets]
    asked = rows[:-3]  # the log before the user said nothing: the answer is newest
    found.append(len(asked) - harness.find_cut(asked, sum(sizes[batch + into:-3])))
    found.append(len(rows) - harness.find_cut(rows, sum(sizes[-2:])))  # spent at the answer
    harness.find_cut(rows, 0), harness.find_cut(rows, -t.random.randint(1, 50))
    untouched = [json.dumps(rows) == before, all(row is was for row, was in zip(rows, held))]
    rows[-1] = (rows[-1][0], harness.user_message("N" * 4 * (budgets[1] + 1)))  # in place
    found.append(len(rows) - harness.find_cut(rows, budgets[1]))
    t.expect(found, [3, len(rows) - questions[far], len(rows), len(rows) - steer, 1, 1, 1],
             f"Rows of a compacted log: the summary under the compaction's id, {turns} turns U A "
             f"(turn {steered} with a steer, U U A), then U A[{width} calls] and their {width} "
             "results (one of them failed, is_error True), an answer, a user message that says "
             "nothing, an answer, and the first "
             "question asked again word for word, not yet answered, with keep_recent_tokens "
             f"{budgets}: the first spent exactly at result {into + 1} of the batch, so the cut "
             "moves on past every result to the user message that says nothing, a user message "
             "like any other; the second one token "
             "more than the rows from a question far back, so the walk goes on to the answer "
             "before it and the cut moves on to that question; the third the whole total, "
             "reached at the summary, a user message like any other; the fourth spent exactly "
             "at the steer, itself the first user message from there. Then the rows before the "
             "question, with the first budget less the question's cost: with no user message "
             "after the result where it is spent, the cut steps past every result, the failed "
             "one too, to the answer. Then the whole rows with a budget spent exactly at the "
             "answer before the "
             "newest question, which is the cut, not the first question it repeats. Then the "
             "same list, its "
             "newest row replaced by a question that alone outweighs the second budget. Items: "
             "how many rows each cut keeps, an index into the rows whatever their ids say "
             "(find_cut, lesson 12).")
    count = t.random.randint(5100, 5600)  # over five thousand rows of 5 tokens each
    answer = t.random.randint(40, 80)  # an answer, then a user message of spaces only
    plain = [harness.user_message("R" * 14) for _ in range(count)]
    plain[answer], plain[answer + 1] = lab.say("A" * 9), harness.user_message(" " * 14)
    flat = [(f"e{n}", message) for n, message in enumerate(plain, 1)]
    record = json.dumps(flat)
    cuts = [harness.find_cut(flat, 5 * (count - answer))]
    cuts.append(json.dumps(flat) == record)  # however long the log, its rows are as they were
    plain[-1]["content"] = "N" * 1194  # the newest row, changed in place: 300 tokens
    cuts.append(harness.find_cut(flat, 5 * (count - answer)))
    plain[-1]["content"] = "\n" * 597  # in place again: as long as JSON, 150 tokens now
    cuts.append(harness.find_cut(flat, 5 * (count - answer)))
    t.expect(cuts, [answer + 1, True, answer + 59, answer + 29],
             f"Rows of {count} user messages of 5 tokens each, but for an answer at row {answer} "
             f"and a user message of spaces only after it, with keep_recent_tokens "
             f"{5 * (count - answer)}: the walk back reaches it at the answer, however many rows "
             "that takes, and the cut moves on to the user message of spaces, a user message "
             "like any other; and whether every row is as it was after that cut, however "
             "long the log: find_cut changes none of the rows it is given. Then the same rows, "
             "the newest changed in place to cost 300 "
             f"tokens: the walk reaches the budget at row {answer + 59}; then that row changed "
             "in place again to 597 newlines, as long as before written as JSON (each newline "
             "its \\n escape) but 150 tokens in render's text: the walk reaches the budget at "
             f"row {answer + 29}. Items: the cuts. Each "
             "row costs estimate_tokens([message]) as it is now, never a cost or a cut "
             "remembered by the message, its size as JSON or the list (find_cut, lesson 12).")
    t.expect(untouched, [True, True],
             f"The same {len(rows)} rows after those cuts and cuts with keep_recent_tokens 0 and "
             "below: the items are [whether every message is as it was, every key and the "
             "summary's newline, whether the list holds the very rows it held]. Like `render`, "
             "`find_cut` changes none of the rows it is given: their messages are the record "
             "(find_cut, lesson 12).")
