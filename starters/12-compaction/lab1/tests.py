"""Lesson 12, lab 1: where to cut. The tests of render, estimate_tokens and find_cut: the
transcript as plain text, a cost estimate that needs no tokenizer, and a cut that keeps the
recent turns and never opens the kept part with a tool result.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 12 tests.py
"""
import copy
import json

import harness
import lab
from lab.kit import SealedList, SealedMessage, lab_test, sealed

LAB = "12.1"


def result(call_id, text, name="look"):
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": name, "content": text,
            "is_error": False}


WORDS = ("parser", "cache", "index", "report", "config", "server", "client", "queue", "token",
         "router", "schema", "ledger", "widget", "sensor", "loader", "budget", "lexer", "mailer")


def word(t):
    """A drawn word with a drawn number, so that a transcript's words differ from seed to seed."""
    return f"{t.random.choice(WORDS)}{t.random.randint(1, 999)}"


def drawn_four(t):
    """Four messages of drawn words, and render()'s text of them written out by hand: a question
    with spaces around it, a newline inside and a tab near its end, a reply of words with spaces
    around them and a blank line between (two newlines, two spaces) and a call whose arguments
    are not in alphabetical order, a result of drawn lines ending in a newline, and a reply of 1
    to 3 calls only, one of them at a path that is not ASCII."""
    topic, module, flag, tool = word(t), word(t), word(t), t.random.choice(("bash", "sh", "run"))
    question = f"  Fix the failing {topic} test\nin tests/test_{module}.py.\t\n"
    seconds = t.random.randint(1, 600)
    said = f" Running {flag}\n\nfirst. "
    lines = "".join(f"{t.random.randint(1, 99)} failed in {word(t)}\n"
                    for _ in range(t.random.randint(1, 3)))
    paths = [f"{word(t)}.py" for _ in range(t.random.randint(0, 2))] + [f"café/{word(t)}.py"]
    t.random.shuffle(paths)
    messages = [harness.user_message(question),
                lab.reply(said, lab.call(tool, {"timeout": seconds, "command": f"pytest -k {flag}"},
                                         id="c1")),
                result("c1", lines, tool),
                lab.reply(*[lab.call("read", {"path": path}, id=f"r{n}")
                            for n, path in enumerate(paths)])]
    text = (f"user:   Fix the failing {topic} test in tests/test_{module}.py.\t \n"
            f"assistant:  Running {flag}  first.  "
            f"{tool}({{\"timeout\": {seconds}, \"command\": \"pytest -k {flag}\"}})\n"
            f"toolResult: {lines.replace(chr(10), ' ')}\n"
            "assistant:  " + " ".join("read({\"path\": \"" + path.replace("é", "\\u00e9")
                                      + "\"})" for path in paths))
    return messages, text


@lab_test("render writes a four-message transcript exactly: role, colon, words; calls as "
          "name(JSON arguments); newlines turned into spaces; one line per message.")
async def test_render_is_exact(t):
    messages, text = drawn_four(t)
    before = json.dumps(messages)
    t.expect(harness.render(messages), text,
             "render's format is exact: one line per message, role, colon, words; an "
             "assistant's words are its text and then each call as name(json.dumps(arguments)), "
             "so a reply of calls only has two spaces after the colon; a newline inside a "
             "message becomes a space, each newline its own space, in a user message, a "
             "result and an assistant's text alike, and nothing else changes: a user message's "
             "spaces are its words too, its tabs as well, and so are the spaces around an "
             "assistant's text, "
             "arguments keep the order they were given in, and json.dumps writes a letter that "
             "is not ASCII as its \\u escape (render, lesson 12).")
    t.expect(json.dumps(messages) == before, True,
             f"The messages {lab.shape(messages)} after render wrote them out: the item is "
             "whether they are as they were, their newlines included. The newline becomes a "
             "space in the text only: render changes none of the messages it is given, which "
             "are the record (render, lesson 12).")
    t.expect(harness.render([]), "", "No messages, no text (render, lesson 12).")
    many = t.random.randint(600, 999)
    steps = [harness.user_message(f"Step {n}.") for n in range(1, many + 1)]
    try:  # messages that refuse any change, so a change made only in a long list shows
        text = harness.render(sealed(steps + [harness.user_message("Done?\n")]))
    except TypeError as exc:
        text = f"render changed a message it was given: {exc}"
    t.expect([text.count("\n") + 1, text[-28:]], [many + 1, f"user: Step {many}.\nuser: Done? "],
             f"A long transcript: {many} user messages 'Step 1.' to 'Step {many}.', then "
             "'Done?\\n'. "
             "The items are [how many lines, the text's last 28 characters]: every message "
             "has its line, however many there are, and the newline that ends the last "
             "message becomes a space that stays, like any other; the messages are handed "
             "over as ones that refuse any change, and render changes none of the messages "
             "it is given, which are the record, however many (render, lesson 12).")
    reason, half, missing = f"prompt is too long ({word(t)})", f"Half an {word(t)}", word(t)
    dropped, path, parts = f"connection reset ({word(t)})", f"{word(t)}.py", [word(t), word(t)]
    stopped = {**lab.reply(lab.call("read", {"path": path}, id="c3")), "stop_reason": "aborted",
               "error_message": "Request was aborted"}
    failed = [lab.fail(reason, half),
              {**result("c2", f"Tool {missing} not found", missing), "is_error": True},
              lab.fail(dropped), stopped, lab.fail(dropped, lab.call("read", {"path": path}, id="c4")),
              result("c3", ""), harness.user_message(""), lab.reply(f"{parts[0]}.\n", f"{parts[1]}.")]
    t.expect(harness.render(failed),
             f"assistant: {half}\ntoolResult: Tool {missing} not found\nassistant: \n"
             f"assistant:  read({{\"path\": \"{path}\"}})\nassistant:  read({{\"path\": \"{path}\"}})\n"
             f"toolResult: \nuser: \nassistant: {parts[0]}. {parts[1]}.",
             f"{lab.shape(failed)}: a failed reply, lab.fail({reason!r}, {half!r}); a result "
             f"with is_error True; a failed reply with no words, lab.fail({dropped!r}); an "
             "aborted reply and a failed one, each with a call to read; a result and a user "
             "message whose content is empty; a reply of two text blocks and no calls, the first "
             "ending in a newline. A line is the role, "
             "a colon, a space and the "
             "message's words, whatever went wrong, and every message has its line, an empty "
             "one too: a reply's words are its text and calls, its calls too when it failed or "
             "was stopped, not its error_message, and a result's words are its content, with "
             "no mark of the error and no mark of an empty result. A reply's text is "
             "text_of(message), the blocks joined as they are, and a newline in it becomes a "
             "space as in any message, a reply of text alone included (render, lesson 12).")
    # a reply whose text stands before and after its calls, calling several tools in an order
    # no sort of their names gives, one a write of a file whose lines end in newlines
    others = t.random.sample([("grep", "pattern"), ("find", "name"), ("ls", "path")], 2)
    notes = "".join(f"{word(t)} = {t.random.randint(1, 99)}\n"
                    for _ in range(t.random.randint(2, 6)))
    asks = [lab.call("read", {"path": f"{word(t)}.py"}, id="k1"),
            lab.call(others[0][0], {others[0][1]: word(t)}, id="k2"),
            lab.call("write", {"path": f"{word(t)}.txt", "content": notes}, id="k3"),
            lab.call(others[1][0], {others[1][1]: word(t)}, id="k4")]
    opening, closing = f"{word(t)}:", f" then {word(t)}.\n"
    mixed = lab.reply(opening, asks[0], asks[1], closing, asks[2], asks[3])
    t.expect(harness.render([mixed]),
             f"assistant: {opening}{closing[:-1]}  " + " ".join(
                 f"{c['name']}({json.dumps(c['arguments'])})" for c in asks),
             f"A reply whose content is, in order, the text {opening!r}, a call to read, a call "
             f"to {others[0][0]}, the text {closing!r}, a call to write a file of "
             f"{notes.count(chr(10))} lines, each ending in a newline, and a call to "
             f"{others[1][0]}. An assistant's words are its text first, text_of(message), its "
             "text blocks joined as they are, wherever they stand among the calls, and then "
             "each of its calls, in the order the reply makes them, whatever tools they call "
             "(tool_calls, lesson 2), each as name(json.dumps(arguments)): its arguments as "
             "JSON, which writes a newline inside a string as its \\n escape, so the arguments "
             "put no newline in the line to become a space (render, lesson 12, Build item 1).")
    # a result of drawn lines, over 250,000 characters: a long read, its newlines included
    chunk = "".join(f"{word(t)} = {word(t)}\n" for _ in range(t.random.randint(400, 700)))
    chunk += "\n" * t.random.randint(3, 6)  # a run of blank lines: each newline its own space
    big = chunk * (t.random.randint(250_000, 400_000) // len(chunk) + 1)
    written = {"path": f"{word(t)}.py", "content": "".join(f"{word(t)} = 1;" for _ in range(400))}
    huge = [lab.reply(lab.call("write", written, id="c5")), result("c5", big, "write")]
    before = json.dumps(huge)
    t.expect(harness.render(huge),
             f"assistant:  write({json.dumps(written)})\ntoolResult: {big.replace(chr(10), ' ')}",
             f"A reply whose call to write carries {len(json.dumps(written))} characters of "
             f"arguments, and a result of {len(big)} characters over {big.count(chr(10))} "
             "lines, runs of blank lines among them: each is written whole, its whole content, "
             "its whole arguments as JSON, however long, and each newline its own space, "
             "however many stand in a row. render is the text that is summarised and measured, so a cut-down line "
             "would measure a long result at a fraction of its cost (render, lesson 12).")
    t.expect(json.dumps(huge) == before, True,
             f"The messages {lab.shape(huge)}, a result of {len(big)} characters over "
             f"{big.count(chr(10))} lines among them, after render wrote them out: the item is "
             "whether they are as they were, every key and every newline. However long a "
             "message, render changes none of the messages it is given, which are the record: "
             "it writes nothing back into them, no line kept for next time and no content made "
             "one line (render, lesson 12).")
    # the same long result changed in place, as long as before: rendered by what it says now
    huge[1]["content"] = big.upper()
    again = harness.render([huge[1]])
    t.expect([again[:40], again == "toolResult: " + big.upper().replace(chr(10), " ")],
             ["toolResult: " + big.upper().replace(chr(10), " ")[:28], True],
             f"The result of {len(big)} characters above, after render wrote its line, changed "
             "in place to the same text in capitals, as long as before, and rendered again: "
             "the items are [the line's first 40 characters, whether the line is its content "
             "as it is now, each newline a space]. A result's words are its content, the "
             "content it holds now, however long: never a line remembered by the message, its "
             "role or its size (render, lesson 12, Build item 1).")
    calls = lab.reply(*[lab.call("read", {"path": f"{word(t)}.py"}, id=f"m{n}")
                        for n in range(t.random.randint(4, 60))])
    run = t.random.randint(20_000, 400_000)  # a run of newlines inside it, drawn
    # a result of over five million characters: past any cut of a line at five million
    giant = result("c8", "z" * (t.random.randint(5_050_000, 5_250_000) - run) + "\n" * run
                   + "z" * t.random.randint(1, 9) + word(t))
    giant_content = giant["content"]
    text = harness.render([giant])
    block = "".join(f"{word(t)} = '{t.random.choice('éàü')}';"
                    for _ in range(t.random.randint(2000, 2600)))
    accented = {"path": f"{word(t)}.py",  # arguments of over a million characters, drawn
                "content": block * (t.random.randint(1_100_000, 1_600_000) // len(block) + 1)}
    wrote = harness.render([lab.reply(lab.call("write", accented, id="c9"))])
    t.expect([harness.render([calls]), len(text), text[-40:], len(wrote), wrote[-40:]],
             why=f"Items: the line of a reply of {len(calls['content'])} calls and no text; "
                 f"the length and the last 40 characters of the line of a result of "
                 f"{len(giant['content'])} characters, {run} newlines in a row among them; "
                 "the length and the last 40 characters of "
                 f"the line of a call to write whose arguments hold {len(accented['content'])} "
                 "characters, letters that are not ASCII among them; held against the "
                 "reference's. A reply of calls only has two spaces after its colon, however "
                 "many calls it makes; a user message's words, and a result's, are its content, "
                 "all of it, however long, each newline its own space however many stand in a row; and a call's arguments are JSON, json.dumps's, a "
                 "letter that is not ASCII as its \\u escape, however long they are (render, "
                 "lesson 12, Build item 1).")
    # line breaks that are not "\n": Windows line ends, and the ones only str.splitlines knows
    breaks = ["\r\n", "\r", "\u2028", "\x85", "\x0b"]
    others = breaks + ["\x0c", "\x1c", "\x1d", "\x1e", "\u2029"]  # every one Python knows
    broken = [harness.user_message(f"{word(t)}{t.random.choice(breaks)}{word(t)}"),
              lab.reply(f"{word(t)}{t.random.choice(breaks)}{word(t)}"),
              result("c6", f"{word(t)}{t.random.choice(breaks)}{word(t)}\r\n"),
              harness.user_message("".join(f"{word(t)}{other}"
                                           for other in t.random.sample(others, len(others))))]
    words = [harness.text_of(m) if m["role"] == "assistant" else m["content"] for m in broken]
    t.expect(harness.render(broken).split("\n"),
             why=f"{lab.shape(broken)}, whose words hold other line breaks than \"\\n\": "
                 f"{words!r}. "
                 "The items are render's text cut at each \"\\n\". Only \"\\n\" is a newline "
                 "here, and becomes a space; a \"\\r\", or any other line break Python knows, "
                 "stays as it is (render, lesson 12, Build item 1).")
    # letters Unicode can write more than one way: an accent as a letter of its own after its
    # letter, one letter with its accent, a ligature, full-width letters, a no-break space, a
    # superscript, a Roman numeral, the Angstrom and Ohm signs; every normal form changes some
    forms = ["e\u0301", "a\u0300", "u\u0308", "n\u0303", "c\u0327", "é", "ö", "\ufb01",
             "\uff21\uff22", "\u00a0", "\u00b2", "\u2163", "\u212b", "\u2126"]
    spelled = [" ".join(f"{word(t)}{piece}" for piece in t.random.sample(forms, len(forms)))
               for _ in range(3)]
    odd = [harness.user_message(spelled[0]), lab.reply(spelled[1]), result("c7", spelled[2])]
    t.expect(harness.render(odd),
             f"user: {spelled[0]}\nassistant: {spelled[1]}\ntoolResult: {spelled[2]}",
             f"{lab.shape(odd)}, whose words hold letters Unicode can write more than one way, "
             f"{[ascii(words) for words in spelled]}: an accent written as a character of its "
             "own after its letter, letters with their accent, a ligature, full-width letters, "
             "a no-break space, a superscript, a Roman numeral, the Angstrom and Ohm signs. A "
             "user message's words, and a result's, are its content, and an assistant's its "
             "text, as they are: render writes each character as the message holds it, no "
             "normal form (NFC, NFKC) made of it, since the estimate counts the characters "
             "the record holds (render, lesson 12, Build item 1).")
    # a reply of hundreds of calls, a run of hundreds or thousands of newlines, and the giant
    # result above as render left it: none of them has a size past which the rule changes
    wide = t.random.randint(120, 900)
    many_calls = lab.reply(*[lab.call("read", {"path": f"p{n}.py"}, id=f"w{n}")
                             for n in range(wide)])
    run = t.random.randint(100, 5000)
    spaced = harness.user_message(f"{word(t)}{chr(10) * run}{word(t)}")
    line, plain = harness.render([many_calls]), harness.render([spaced])
    written = "assistant:  " + " ".join('read({"path": "p%d.py"})' % n for n in range(wide))
    t.expect([len(line), line[-40:], len(plain), plain.count(" ")],
             [len(written), written[-40:], len("user: ") + len(spaced["content"]), run + 1],
             f"Items: [the length and the last 40 characters of the line of a reply of {wide} "
             f"calls to read and no text, the length of the line of a user message of two words "
             f"with a run of {run} newlines between them, and how many spaces that line holds]. "
             "An assistant's words are its text and then each of its calls, however many it "
             "makes, and each newline is its own space, however many stand in a row (render, "
             "lesson 12, Build item 1).")
    t.expect([sorted(giant), giant["content"] == giant_content],
             [["content", "is_error", "role", "tool_call_id", "tool_name"], True],
             f"The result of {len(giant['content'])} characters above, after render wrote its "
             "line: the items are [its keys, whether its content is as it was]. However long a "
             "message, render changes none of the messages it is given, which are the record: "
             "no line kept in it for next time (render, lesson 12, Build item 1).")


@lab_test("estimate_tokens is the length of render's text divided by four, rounded down, and "
          "gives the same number every time it is asked.")
async def test_estimate_tokens(t):
    messages, text = drawn_four(t)
    found = [harness.estimate_tokens(messages) for _ in range(3)]
    t.expect(found, [len(text) // 4] * 3,
             f"{len(text)} characters of render(), four to a token, rounded down, asked three "
             "times (estimate_tokens, lesson 12).")
    # one message of each remainder of its length divided by four, so rounding shows; each
    # ends with a space and a newline, two spaces at the end of its line
    lengths = [4 * t.random.randint(3, 200) + remainder for remainder in t.random.sample(range(4), 4)]
    single = [harness.user_message("x" * (length - len("user: ") - 2) + " \n")
              for length in lengths]
    t.expect([harness.estimate_tokens(messages[:1]), harness.estimate_tokens([])] +
             [harness.estimate_tokens([message]) for message in single],
             [len(text.split("\n")[0]) // 4, 0] + [length // 4 for length in lengths],
             f"len(render(messages)) // 4, for any list: the first message of the four, no "
             f"messages, then user messages whose render() lines are {lengths} characters long, "
             "each ending in two spaces: spaces at either end of the text count too "
             "(estimate_tokens, lesson 12).")
    accents = harness.user_message(f"Où est {word(t)} ? Voilà — {word(t)} ✓ déjà vu, naïve café")
    first = t.random.randint(40, 400)
    edited = harness.user_message("x" * first)
    before = harness.estimate_tokens([edited])
    edited["content"] = "y" * t.random.randint(500, 900)  # the same message, changed in place
    older = [harness.user_message(f"Long {n}: " + "o" * t.random.randint(200, 400))
             for n in range(t.random.randint(150, 300))]
    newer = [harness.user_message(f"Short {n}.") for n in range(t.random.randint(1900, 3200))]
    lines = [f"user: {m['content']}" for m in older + newer]
    t.expect([harness.estimate_tokens([accents]), before, harness.estimate_tokens([edited]),
              harness.estimate_tokens(older + newer)],
             [len("user: " + accents["content"]) // 4, (6 + first) // 4,
              (6 + len(edited["content"])) // 4,
              (sum(map(len, lines)) + len(lines) - 1) // 4],
             f"Items: a user message {accents['content']!r}, whose letters are characters, not "
             f"bytes; a message of {first} characters, then the same message changed in place to "
             f"{len(edited['content'])} characters, measured by what it says now, not by what "
             f"it said; {len(older)} long user messages and then {len(newer)} short ones, "
             "measured whole, however long the list (estimate_tokens, lesson 12).")
    giant = result("c9", "z" * t.random.randint(2_000_000, 2_400_000) + word(t))
    giant["content"] += "z" * ((1 - len("toolResult: " + giant["content"])) % 4)  # 4k + 1
    blanks = t.random.randint(10, 60)
    same = harness.user_message("x" * (2 * blanks))
    first = harness.estimate_tokens([same])
    same["content"] = "\n" * blanks  # changed in place: as long as before written as JSON
    t.expect([harness.estimate_tokens([giant]), first, harness.estimate_tokens([same])],
             why=f"Items: a result of {len(giant['content'])} characters, whose render() line is "
                 "not a whole number of tokens; a user message of "
                 f"{2 * blanks} letters, then the same message changed in place to {blanks} "
                 "newlines, which json.dumps writes in as many characters as before, measured "
                 "again; held against the reference's. The estimate is the length of render's "
                 "text divided by four, rounded down however long the text, and measured from "
                 "the text as it is now (estimate_tokens, lesson 12, Build item 2).")
    # a reply changed in place to arguments of the same length in Python, longer as JSON
    name, letters = word(t), t.random.randint(3, 12)
    asked = lab.reply(lab.call("read", {"path": f"{'e' * letters}/{name}.py"}, id="c7"))
    measured = harness.estimate_tokens([asked])
    asked["content"][-1]["arguments"]["path"] = f"{'é' * letters}/{name}.py"
    t.expect([measured, harness.estimate_tokens([asked])],
             why=f"Items: a reply {lab.shape([asked])} calling read with the path "
                 f"{'e' * letters + '/' + name + '.py'!r}, measured; then the same reply changed "
                 f"in place to the path {asked['content'][-1]['arguments']['path']!r}, the same "
                 "number of letters, measured again, held against the reference's. The measure "
                 "is the length of render's text as it is now, the é written as JSON's \\u "
                 "escape, never remembered by the message object, its role or its size in "
                 "Python (estimate_tokens, lesson 12).")
    # one message asked again and again, in one process: past any count of calls after which
    # a harness might change its answer (state kept from call to call)
    again = harness.user_message(f"The {word(t)} question, asked once more?")
    times, seen = t.random.randint(120_000, 160_000), set()
    for n in range(times):
        seen.add(harness.estimate_tokens([again]))
        if n % 10_000 == 0:
            await lab.tick()  # a turn of the event loop now and then
    t.expect(sorted(seen), [(len("user: ") + len(again["content"])) // 4],
             f"A user message {again['content']!r}, measured {times} times in a row: the item "
             "is every number estimate_tokens gave for it. The same number every time, however "
             "many times it was asked before: nothing kept from call to call, no count of calls, "
             "changes the estimate (estimate_tokens, lesson 12, Build item 2).")


def line(role, words):
    """A message of `role` ("user", "say", "result") saying `words`, with its render() line."""
    if role == "user":
        return harness.user_message(words), "user: " + words
    if role == "say":
        return lab.say(words), "assistant: " + words
    return result("c0", words), "toolResult: " + words


def calls_line(ids, paths):
    """A reply of calls only, one look(path) per id, with its render() line."""
    blocks = [lab.call("look", {"path": path}, id=i) for i, path in zip(ids, paths)]
    return lab.reply(*blocks), "assistant:  " + " ".join(
        f"look({json.dumps({'path': path})})" for path in paths)


def drawn_session(t, turns, *, last_turn_ends_in_results=False):
    """`turns` turns drawn under the seed, as (message, render() line) pairs: each a question,
    0 to 2 rounds of 1 or 2 look calls with one result each, and an answer; the last turn may
    stop after its results, as a log written during a run does. The words' lengths are drawn,
    so the rows cost from 2 to over 100 tokens each."""
    made, calls = [], 0
    for n in range(1, turns + 1):
        made.append(line("user", f"Question {n}: " + "q" * t.random.randint(0, 120)))
        for _ in range(t.random.randint(0 if n < turns else 1, 2)):
            ids = [f"c{calls + k}" for k in range(1, t.random.randint(1, 2) + 1)]
            calls += len(ids)
            made.append(calls_line(ids, ["p" * t.random.randint(1, 40) + ".py" for _ in ids]))
            for call_id in ids:
                message, text = line("result", "r" * t.random.randint(1, 400))
                made.append(({**message, "tool_call_id": call_id}, text))
        if not (n == turns and last_turn_ends_in_results):
            made.append(line("say", f"Answer {n}: " + "a" * t.random.randint(0, 160)))
    return made


def keyed(t, messages):
    """Rows (id, message) as SessionLog.rows() gives them, their ids counting from a drawn number,
    as in a log that holds older entries."""
    first = t.random.randint(1, 900)
    return [(f"e{first + i}", message) for i, message in enumerate(messages)]


def kept_ids(rows, cut):
    """The ids of the rows a cut at `cut` keeps."""
    return [key for key, _ in rows[cut:]]


def rows_messages(rows):
    """The messages of `rows`, for lab.shape."""
    return [message for _, message in rows]


@lab_test("find_cut returns 0, cut nothing, when the whole transcript fits the budget of recent "
          "tokens.")
async def test_find_cut_when_everything_fits(t):
    made = drawn_session(t, t.random.randint(2, 4))
    rows = keyed(t, [message for message, _ in made])
    total = sum(len(text) // 4 for _, text in made)
    budgets = [total, total + 1, total + t.random.randint(2, 5000)]
    t.expect([kept_ids(rows, harness.find_cut(rows, budget)) for budget in budgets]
             + [harness.find_cut([], t.random.randint(1, 500))],
             [[key for key, _ in rows]] * 3 + [0],
             f"Rows {lab.shape(rows_messages(rows))} costing {total} tokens in all, with the "
             f"budgets {budgets}: each item is the ids of the rows kept, and the last is the cut "
             "of no rows. Rows that begin with a user message, and a budget the whole transcript "
             "fits: every row is kept, find_cut returns 0 (find_cut, lesson 12).")


@lab_test("find_cut moves forward from where the budget runs out to the first user message, "
          "the beginning of a turn.")
async def test_find_cut_lands_on_a_user_message(t):
    made = drawn_session(t, t.random.randint(3, 5))
    rows = keyed(t, [message for message, _ in made])
    roles, sizes = [m["role"] for m, _ in made], [len(text) // 4 for _, text in made]
    last_user = max(i for i, role in enumerate(roles) if role == "user")
    inside = [i for i in range(1, last_user) if roles[i] != "user"]  # inside a turn, a U after
    stops = t.random.sample(inside, min(2, len(inside)))
    budgets = [sum(sizes[stop:]) for stop in stops]  # the walk stops exactly at that row
    cuts = [harness.find_cut(rows, budget) for budget in budgets]
    t.expect([[roles[cut] if cut < len(rows) else None, kept_ids(rows, cut)] for cut in cuts],
             [["user", kept_ids(rows, roles.index("user", stop))] for stop in stops],
             f"Rows {lab.shape(rows_messages(rows))} costing {sizes} tokens, with the budgets "
             f"{budgets}, each spent at row {stops} in the middle of a turn. Each item is [the "
             "role the kept part begins with, the ids of the rows kept]. A kept part begins "
             "where a turn begins, with the first user message after the row where the budget "
             "ran out, not wherever it ran out; the walk back adds up each row's "
             "estimate_tokens, not a count of rows (find_cut, lesson 12).")


@lab_test("With no user message after the point where the budget runs out, find_cut still never "
          "cuts at a tool result, a failed one (is_error True) included: it steps past the "
          "results.")
async def test_find_cut_never_lands_on_a_result(t):
    made = drawn_session(t, t.random.randint(1, 3))
    rows = keyed(t, [message for message, _ in made])
    roles, sizes = [m["role"] for m, _ in made], [len(text) // 4 for _, text in made]
    last_user = max(i for i, role in enumerate(roles) if role == "user")
    results = [i for i in range(last_user, len(roles)) if roles[i] == "toolResult"]
    answers = [i for i in range(last_user, len(roles)) if roles[i] == "assistant"]
    stops = [t.random.choice(results), t.random.choice(results), t.random.choice(answers)]
    made[stops[0]][0]["is_error"] = True  # a tool that failed: its result is a result too
    budgets = [sum(sizes[stop:]) for stop in stops]
    cuts = [harness.find_cut(rows, budget) for budget in budgets]
    t.expect([[roles[cut] if cut < len(rows) else None, kept_ids(rows, cut)] for cut in cuts],
             [["assistant", kept_ids(rows, next(i for i in range(stop, len(roles))
                                                if roles[i] != "toolResult"))] for stop in stops],
             f"Rows {lab.shape(rows_messages(rows))} costing {sizes} tokens, with the budgets "
             f"{budgets}, each spent at row {stops} of the last turn, after its user message; "
             f"row {stops[0]} is a failed tool's result, is_error True. "
             "Each item is [the role the kept part begins with, the ids of the rows kept]. A "
             "kept part never begins with a tool result, a failed one as much as any: one whose "
             "call was summarised away is refused by a provider, whether it failed or not. "
             "It begins where a turn begins when it can; with no user "
             "message to move to, the cut steps forward past the results, never back to their "
             "call, which would keep more than the budget (find_cut, lesson 12).")
    # a run that ended in a failed reply (lesson 5: it goes on the record) after its results,
    # and one stopped by the caller (stop_reason "aborted"), on the record too
    ending = drawn_session(t, 1, last_turn_ends_in_results=True)
    last_reply = max(i for i, (m, _) in enumerate(ending) if m["role"] != "toolResult")
    spent = [t.random.randint(last_reply + 1, len(ending) - 1),  # a result of the last batch
             len(ending)]
    stopped = {**lab.fail(f"HTTP 529: {word(t)} overloaded"), "stop_reason": "aborted",
               "error_message": "Request was aborted"}
    for last in (lab.fail(f"HTTP 529: {word(t)} overloaded"), stopped):
        ended = ending + [(last, "assistant: ")]
        tail = keyed(t, [message for message, _ in ended])
        costs = [len(text) // 4 for _, text in ended]
        kind = "failed" if last["stop_reason"] == "error" else "stopped"
        t.expect([harness.find_cut(tail, sum(costs[stop:])) for stop in spent],
                 [len(ended) - 1] * 2,
                 f"Rows {lab.shape(rows_messages(tail))} costing {costs} tokens, the newest a "
                 f"{kind} reply (stop_reason {last['stop_reason']!r}), with the budgets "
                 f"{[sum(costs[s:]) for s in spent]}, spent at rows {spent}: the items are the "
                 "cuts. With no user message after the row where the count stops, the cut is "
                 f"the first row from there on that is not a tool result, and a {kind} reply "
                 "is not a tool result: it is on the record like any reply, so the cut is that "
                 "reply, not past it (find_cut, lesson 12, Build item 3).")


def costing(role, tokens, words):
    """A user message or a plain reply whose render() line is exactly 4 * tokens characters."""
    if role == "user":
        return harness.user_message(words.ljust(4 * tokens - len("user: "), "."))
    return lab.say(words.ljust(4 * tokens - len("assistant: "), "."))


@lab_test("find_cut's walk back stops at the row where the kept total reaches keep_recent_tokens, "
          "equal included, not only once the total goes past it.")
async def test_find_cut_stops_where_the_total_reaches_the_budget(t):
    turns = t.random.randint(2, 4)
    sizes = [t.random.randint(8, 60) for _ in range(2 * turns)]
    rows = keyed(t, [costing("user" if i % 2 == 0 else "assistant", size,
                             f"{'Question' if i % 2 == 0 else 'Answer'} {word(t)}")
                     for i, size in enumerate(sizes)])
    t.expect([harness.estimate_tokens([message]) for _, message in rows], sizes,
             f"The rows {lab.shape(rows_messages(rows))} cost the drawn number of tokens each "
             "(estimate_tokens, lesson 12).")
    answer = t.random.randrange(1, 2 * turns - 1, 2)  # an A with a U after it
    reach = sum(sizes[answer:])
    t.expect([kept_ids(rows, harness.find_cut(rows, budget)) for budget in (reach - 1, reach,
                                                                             reach + 1)],
             [kept_ids(rows, answer + 1), kept_ids(rows, answer + 1), kept_ids(rows, answer - 1)],
             f"Rows U A U A ... costing {sizes} tokens, with keep_recent_tokens {reach - 1}, "
             f"{reach} and {reach + 1}; each item is the ids of the rows kept. Walking back from "
             f"the newest, the total reaches {reach} at row {answer}, an answer; reaching the "
             "budget counts (the total >= keep_recent_tokens), so with "
             f"{reach}, as with {reach - 1}, the walk stops there and the cut moves on to the "
             f"next user message, row {answer + 1}. Only with {reach + 1} does the walk go on to "
             f"row {answer - 1}, a user message, and the cut is there (find_cut, lesson 12).")
    # a few rows that open inside a turn, each a whole number of tokens, so that the whole
    # transcript's estimate (its newlines counted) is the rows' own total; and a lone result
    short = keyed(t, [costing("user" if i % 2 else "assistant", t.random.randint(8, 60),
                              f"{'Question' if i % 2 else 'Answer'} {word(t)}")
                      for i in range(t.random.randint(2, 4))])
    lone = [("e1", result("z1", "r" * t.random.randint(1, 400)))]
    whole = [harness.estimate_tokens(rows_messages(short)), harness.estimate_tokens(
        rows_messages(lone))]
    t.expect([harness.find_cut(short, whole[0]), harness.find_cut(lone, whole[1])], [1, 1],
             f"Rows {lab.shape(rows_messages(short))}, which open with an answer, inside a "
             f"turn, with keep_recent_tokens {whole[0]}, and a lone result, "
             f"{lab.shape(rows_messages(lone))}, with {whole[1]}: each budget is what the rows "
             "cost row by row and what estimate_tokens of them all gives too. The items are the "
             "cuts. A budget the whole total reaches exactly is reached, at the oldest row, and "
             "the cut moves on from there like any other: to the first user message, row 1, "
             "and past the lone result, to len(rows), 1. 0 is only for a budget the total does "
             "not reach, counted row by row however the whole transcript measures (find_cut, "
             "lesson 12, Build item 3).")
    again = rows  # the same list, its newest answer changed in place
    again[-1][1]["content"] = [{"type": "text", "text": "A" * (4 * (reach + 1))}]
    t.expect(kept_ids(again, harness.find_cut(again, reach)), kept_ids(again, 2 * turns - 1),
             f"The same rows, the same list and ids, but the newest answer, changed in place, "
             f"now costs {reach + 1} tokens, with keep_recent_tokens {reach} again: the item is "
             "the ids of the rows kept. The walk alone reaches the budget at the newest row, an "
             "answer with no user message after it, so only that row is kept. The cut is worked "
             "out from the rows' messages each time it is asked, never remembered by their ids "
             "(every log numbers its entries from e1), nor by the list or the message objects "
             "(find_cut, lesson 12).")
    # a reply in the middle changed in place to a path of the same length in Python, longer as
    # JSON (each é its \u escape), asked again with the same list and the same budget
    letters = t.random.randint(8, 40)
    moved = lab.reply(lab.call("read", {"path": "e" * letters + ".py"}, id="m1"))
    tail = [("f1", costing("user", t.random.randint(8, 60), f"Question {word(t)}")), ("f2", moved),
            ("f3", result("m1", "r" * t.random.randint(1, 200))),
            ("f4", costing("assistant", t.random.randint(8, 60), f"Answer {word(t)}"))]
    spent = sum(harness.estimate_tokens([message]) for _, message in tail[2:])
    spent += (len('assistant:  read({"path": ".py"})') + 6 * letters) // 4
    first = harness.find_cut(tail, spent)
    moved["content"][-1]["arguments"]["path"] = "é" * letters + ".py"
    t.expect([first, harness.find_cut(tail, spent)], [0, 1],
             f"Rows {lab.shape(rows_messages(tail))}, the reply calling read with the path "
             f"{'e' * letters + '.py'!r}, with keep_recent_tokens {spent}, then the same list, "
             f"that reply changed in place to the path {'é' * letters + '.py'!r}, as many "
             "letters but longer as JSON (each é its \\u escape), with the same budget: the "
             "items are the cuts. At first the rows from the reply on fall short of the "
             "budget, and the walk stops at the question (0); after the change they reach it "
             "exactly at the reply, and with no user message after it the cut is the reply "
             "(1). Each row costs estimate_tokens([message]) as it is now, never a size "
             "remembered from an earlier cut: the cut is worked out from the rows' messages "
             "each time it is asked, never remembered by the list or the message objects "
             "(find_cut, lesson 12, Build item 3).")
    # a result changed in place to as many characters of JSON, far fewer on the page (each é
    # its \u escape, six characters of JSON for one of text), asked again with the same list
    # and the same budget
    letters = t.random.randint(200, 600)
    read = result("m2", "x" * 6 * letters, "read")
    tail = [("g1", costing("user", t.random.randint(8, 60), f"Question {word(t)}")),
            ("g2", lab.reply(lab.call("read", {"path": f"{word(t)}.py"}, id="m2"))), ("g3", read),
            ("g4", costing("assistant", t.random.randint(8, 60), f"Answer {word(t)}"))]
    spent = sum(harness.estimate_tokens([message]) for _, message in tail[2:])
    size = len(json.dumps(read))
    first = harness.find_cut(tail, spent)
    read["content"] = "é" * letters
    t.expect([first, len(json.dumps(read)) == size, harness.find_cut(tail, spent)], [3, True, 0],
             f"Rows {lab.shape(rows_messages(tail))}, the result {6 * letters} letters x, with "
             f"keep_recent_tokens {spent}, then the same list, that result changed in place to "
             f"{letters} letters é, as long as before written as JSON (each é its \\u escape) "
             "but a sixth as long in render's text, with the same budget: the items are [the "
             "first cut, whether the result is as long as JSON as before, the second cut]. At "
             "first the walk reaches the budget exactly at the result, and the cut moves on to "
             "the answer after it (3); after the change the rows fall short of the budget, all "
             "of them, and the cut is 0. Each row costs estimate_tokens([message]) as it is "
             "now, never a cost or a cut remembered by the message, its size as JSON or the "
             "list (find_cut, lesson 12, Build item 3).")
    many = t.random.randint(5100, 6200)
    long = keyed(t, [costing("user" if i % 2 == 0 else "assistant", 5, f"Row\n{i}")
                     for i in range(many)])
    held, before = list(long), json.dumps(long)
    t.expect(harness.find_cut(long, 5 * (many - 49)), 50,
             f"Rows U A U A ... {many} of them, each costing 5 tokens, with keep_recent_tokens "
             f"{5 * (many - 49)}: the item is the cut. The walk back goes on until the total "
             f"reaches the budget, however many rows that takes: it reaches {5 * (many - 49)} at "
             "row 49, an answer, and the cut moves on to row 50, a user message (find_cut, "
             "lesson 12).")
    t.expect([json.dumps(long) == before, all(row is kept for row, kept in zip(long, held))
              and len(long) == len(held)], [True, True],
             f"The same {many} rows {lab.shape(rows_messages(long[:4]))}..., each user message "
             "with a newline inside, after find_cut: the items are [whether every message is as "
             "it was, every key and newline, whether the list holds the very rows it held]. "
             "Like `render`, `find_cut` changes none of the rows it is given: their messages "
             "are the record, not to be tidied, marked or swapped for copies (find_cut, lesson "
             "12, Build item 3).")
    newest = long[-1][1]  # the newest row, changed in place: thousands of tokens
    heavy = "N" * 4 * t.random.randint(1200, 4000)
    newest["content"] = heavy if newest["role"] == "user" else [{"type": "text", "text": heavy}]
    t.expect(harness.find_cut(long, 5 * (many - 49)),
             why=f"The same {many} rows, their newest row changed in place to cost about "
                 f"{len(heavy) // 4} tokens, "
                 f"keep_recent_tokens {5 * (many - 49)} again: the item is the cut, held against "
                 "the reference's. Each row costs estimate_tokens([message]) as it is now, never "
                 "a size remembered from an earlier cut (find_cut, lesson 12, Build item 3).")
    # a result of over a million tokens, and a budget it reaches: no budget is too large to count
    dump = result("d1", "D" * 4 * t.random.randint(1_000_001, 1_300_000))
    tail = [("e1", harness.user_message("Dump the table.")),
            ("e2", lab.reply(lab.call("look", {"path": "table.db"}, id="d1"))), ("e3", dump),
            ("e4", lab.say("Dumped.")), ("e5", harness.user_message("Thanks."))]
    cost = ((len("toolResult: ") + len(dump["content"])) // 4
            + harness.estimate_tokens([tail[3][1]]) + harness.estimate_tokens([tail[4][1]]))
    t.expect(harness.find_cut(tail, cost), 4,
             f"Rows {lab.shape(rows_messages(tail))}, the result of {len(dump['content'])} "
             f"characters, with keep_recent_tokens {cost}, which the rows from that result on "
             "cost exactly: the item is the cut. The walk stops at the row where the kept total "
             "reaches keep_recent_tokens, however large the budget, here at the result, and the "
             "cut moves on to the next user message, row 4; 0, keeping everything, is only for "
             "a budget the whole total does not reach (find_cut, lesson 12, Build item 3).")
    looks = t.random.randint(1001, 1400)
    batch = [(f"e{n}", message) for n, message in enumerate(
        [harness.user_message("Look at everything."),
         lab.reply(*[lab.call("look", {"path": f"f{n}.py"}, id=f"c{n}") for n in range(looks)])]
        + [result(f"c{n}", "x") for n in range(looks)] + [lab.say("Seen it all.")], 1)]
    asked = batch + [(f"e{looks + 4}", harness.user_message("And now?"))]  # 4 tokens
    t.expect([harness.find_cut(batch, 5 + looks * 3),
              harness.find_cut(asked, 4 + 5 + looks * 3)],
             [looks + 2, looks + 3],
             f"Rows U A({looks} calls) R R ... R ({looks} results, 3 tokens each) A (5 tokens), "
             f"with keep_recent_tokens {5 + looks * 3}, then the same rows and a question "
             f"'And now?' (4 tokens) with {4 + 5 + looks * 3}: the items are the cuts. Each "
             "walk reaches its budget at row 2, the first result; with no user message after "
             "it, the cut is the first row from there on that is not a tool result, row "
             f"{looks + 2}, however many results it steps past, never back to their call; with "
             "the question there, the cut is the first user message at or after row 2, row "
             f"{looks + 3}, however many rows later it stands (find_cut, lesson 12).")


@lab_test("find_cut over rows as SessionLog.rows() gives them after a compaction (lab 12.2): "
          "the summary first, a user message whose id is newer than the ids after it, then a "
          "turn with a steer (two user messages in a row), a long turn of many rounds, an empty "
          "user message and the first question asked again, not yet answered, cut with the "
          "budget spent exactly at each row in turn.")
async def test_find_cut_over_the_rows_of_a_compacted_log(t):
    summary = harness.user_message("Previous conversation summary:\n" + " ".join(
        word(t) for _ in range(t.random.randint(3, 30))))
    kept = [message for message, _ in drawn_session(t, t.random.randint(1, 2))]
    question = f"Question: {word(t)}?"
    later = [harness.user_message(question),
             harness.user_message(f"Also {word(t)}, please."),  # a steer: U U
             lab.say(f"Both: {word(t)} " + "a" * t.random.randint(0, 80)),
             harness.user_message(f"Look at every {word(t)}.")]
    for n in range(t.random.randint(14, 20)):
        later += [lab.reply(lab.call("look", {"path": f"{word(t)}.py"}, id=f"L{n}")),
                  result(f"L{n}", "r" * t.random.randint(1, 200))]
    later += [lab.say(f"Seen every one, {word(t)}."), harness.user_message(""),
              lab.say(f"Anything more about {word(t)}?"),
              harness.user_message(t.random.choice((" ", "\n", "  \t", " \n "))),
              lab.say(f"Say it again about {word(t)}?"), harness.user_message(question)]
    first = t.random.randint(1, 400)
    compaction = first + len(kept)  # written after the rows it kept, before the later ones
    rows = ([(f"e{compaction}", summary)] + [(f"e{first + i}", m) for i, m in enumerate(kept)]
            + [(f"e{compaction + 1 + i}", m) for i, m in enumerate(later)])
    sizes = [harness.estimate_tokens([message]) for _, message in rows]
    budgets = [sum(sizes[i:]) for i in range(len(rows))]
    t.expect([harness.find_cut(rows, budget) for budget in budgets],
             why=f"Rows {lab.shape(rows_messages(rows))} as rows() gives them after a "
             f"compaction, their ids {[key for key, _ in rows]}, costing {sizes} tokens, with "
             f"the budgets {budgets}, each spent exactly at one row, oldest first. Each item is "
             "the cut for one budget, held against the reference's. The summary is a user "
             "message like any other, and so is a steer after a question: the cut is the first "
             "user message at or after the row where the count stops, however many rows later "
             "it stands, and even when it is the newest row, a question not yet answered, or "
             "a user message that says nothing, or only spaces: find_cut looks at a row's role and size, never "
             "its words. The answer is the index of that row in the list, whatever its id says "
             "(after a compaction the first row's id is newer than those after it), and "
             "whatever an earlier row says: the newest question is the first one asked again, word for word (find_cut, "
             "lesson 12).")


def boundary_budgets(t, sizes):
    """Budgets at every boundary of find_cut's walk, for rows that cost `sizes`: for two
    drawn rows, the kept total from that row to the newest exactly, one token under it and one
    over it; every row exactly, everything with a token to spare and with plenty; and a budget
    the newest row alone uses up, so nothing else fits."""
    suffix = [sum(sizes[i:]) for i in range(len(sizes))]
    budgets = []
    for i in t.random.sample(range(len(sizes)), 2):
        budgets += [suffix[i], suffix[i] - 1, suffix[i] + 1]
    return budgets + [suffix[0], suffix[0] + 1, suffix[0] + t.random.randint(2, 500),
                      t.random.randint(1, sizes[-1])]


def split_pairs(rows, cut):
    """Whether a call and its result lie on opposite sides of `cut`."""
    side = {}
    for index, (_, message) in enumerate(rows):
        ids = [message["tool_call_id"]] if message["role"] == "toolResult" else \
            [block["id"] for block in message["content"] if block["type"] == "toolCall"] \
            if message["role"] == "assistant" else []
        for call_id in ids:
            side.setdefault(call_id, set()).add(index < cut)
    return any(len(sides) > 1 for sides in side.values())


@lab_test("Over sessions of drawn turns and sizes, find_cut cuts where its rule says for budgets "
          "at every boundary (a kept part that exactly fits, one token under or over it, "
          "everything fits, nothing but the newest row fits), including sessions whose rows "
          "open in the middle of a turn or end with tool results: it never opens the kept part "
          "with a result and never parts a call from its result; a budget of 0, or below, keeps "
          "the least.")
async def test_find_cut_over_drawn_sessions_and_budgets(t):
    sessions = [drawn_session(t, t.random.randint(2, 4)),
                drawn_session(t, t.random.randint(2, 4), last_turn_ends_in_results=True),
                drawn_session(t, 1, last_turn_ends_in_results=True)]
    opening = drawn_session(t, t.random.randint(2, 3))
    second_question = [m["role"] for m, _ in opening].index("user", 1)
    sessions.append(opening[t.random.randint(1, second_question - 1):])  # opens mid-turn
    for made in sessions:
        again = t.random.randint(1, len(made) - 1)  # two logs' rows, each numbering from e1
        rows = [(f"e{i if i <= again else i - again}", message)
                for i, (message, _) in enumerate(made, 1)]
        roles, sizes = [m["role"] for m, _ in made], [len(text) // 4 for _, text in made]
        budgets = boundary_budgets(t, sizes)
        found, before = [], copy.deepcopy(rows)
        for budget in budgets:
            cut = harness.find_cut(rows, budget)
            found.append([cut, cut < len(rows) and cut > 0 and roles[cut] == "toolResult",
                          split_pairs(rows, cut)])
        t.expect(found,
                 why=f"Rows {lab.shape([m for m, _ in made])}, costing {sizes} tokens, their ids "
                 f"{[key for key, _ in rows]} (two logs' rows, each log numbering from e1), cut "
                 f"for the budgets {budgets}. Each item is [the cut, the kept part opens with a tool "
                 "result, a call and its result are on opposite sides] for one budget, held "
                 "against the reference's. Counting "
                 "back from the newest row, the walk stops at the row where the kept total "
                 "reaches keep_recent_tokens, and returns 0 if no row does; from there the cut "
                 "moves forward to the next user message, or with none, past any tool results, "
                 "so a row is summarised or kept and a call stays with its result; the cut is "
                 "an index in the list, never worked out from the ids (find_cut, lesson 12).")
        # 0 is a budget too, not "no budget". Whether the total of no rows already reaches it
        # (nothing kept) or the walk counts the newest row first and stops there (as Tau does),
        # the lesson's words allow both; keeping everything they do not.
        cut, newest_only = harness.find_cut(rows, 0), harness.find_cut(rows, 1)
        below, power = -t.random.randint(1, 500), t.random.randint(3, 4000)
        far = -10 ** power
        allowed = sorted({len(rows), newest_only})
        lower = [harness.find_cut(rows, below), harness.find_cut(rows, far),
                 harness.find_cut(rows, -10 ** t.random.randint(17, 4000))]
        t.expect([cut in allowed for cut in lower], [True, True, True],
                 f"Rows {lab.shape([m for m, _ in made])} with keep_recent_tokens {below}, then "
                 f"-10**{power}, then a power of ten further below still: find_cut returned {lower}, and the rule gives {allowed[0]} or "
                 f"{allowed[-1]} for each, as for a budget of 0: a negative budget keeps the "
                 "least too, however far below 0, never everything and never an error "
                 "(find_cut, lesson 12).")
        t.expect(cut in allowed, True,
                 f"Rows {lab.shape([m for m, _ in made])} with keep_recent_tokens 0: find_cut "
                 f"returned {cut}, and the rule gives {allowed[0]} or {allowed[-1]}: nothing "
                 "kept (the total reaches 0 before any row), or what a budget of 1 keeps (the "
                 "walk counts the newest row and stops there). A budget of 0 is a budget, not "
                 "\"no budget\": it keeps the least, never everything, which is a cut of 0 "
                 "(find_cut, lesson 12).")
        t.expect(rows == before, True,
                 f"Rows {lab.shape([m for m, _ in made])}, cut for the budgets {budgets}, 0 "
                 f"and {below}: "
                 "whether each row's message was exactly as it was afterwards. find_cut only "
                 "reads the rows; their messages are the record, and a mark written into one "
                 "goes into the log with it, whatever the budget (Build item 3, \"Like "
                 "`render`, `find_cut` changes none of the rows it is given\") (find_cut, "
                 "lesson 12).")
    # a row whose estimate raises (a call's arguments holding a set, which json.dumps cannot
    # write), older than the newest: whatever find_cut does with it, the rows stay as they were
    trap = list(rows)
    trap.insert(t.random.randrange(len(rows)), (f"e{len(rows) + 1}", lab.reply(
        lab.call("look", {"paths": {word(t), word(t)}}, id="x1"))))
    held, before = list(trap), copy.deepcopy(trap)
    try:
        harness.find_cut(trap, sum(sizes) + t.random.randint(1, 50))
    except Exception:  # noqa: BLE001 - answering or raising are both the harness's to choose
        pass
    t.expect([trap == before, len(trap) == len(held) and all(
        row is was for row, was in zip(trap, held))], [True, True],
             f"Rows {lab.shape([m for _, m in trap])}, one of them a reply whose call's "
             "arguments hold a set, which json.dumps cannot write, cut with a budget past their "
             "whole total; whatever find_cut did with that row, answer or raise, the items are "
             "[whether every row's message is as it was afterwards, whether the list holds the "
             "very rows it held, in their order]. find_cut changes none of the rows it is "
             "given, not even for the length of its walk: a mark written into a message, or the "
             "list turned round, stays there when the walk stops part way (find_cut, lesson "
             "12, Build item 3).")
    # two logs joined, each numbering from e1: the second opens with a question whose id, e1,
    # the first log's opening question has too
    second = drawn_session(t, 2)
    joined = ([(f"e{i}", m) for i, (m, _) in enumerate(sessions[0], 1)]
              + [(f"e{i}", m) for i, (m, _) in enumerate(second, 1)])
    costs = [len(text) // 4 for _, text in sessions[0] + second]
    opens = len(sessions[0])
    t.expect([harness.find_cut(joined, sum(costs)), harness.find_cut(joined, sum(costs[opens:]))],
             [0, opens],
             f"Two logs' rows joined, {lab.shape(rows_messages(joined))}, their ids "
             f"{[key for key, _ in joined]}, costing {costs} tokens, with the budgets "
             f"{sum(costs)} (the whole total) and {sum(costs[opens:])} (the second log's): the "
             "items are the cuts. The first walk stops at row 0, the second at row "
             f"{opens}, where the second log begins with a question, both ids e1: the cut "
             "is the index of that row in the list, never worked out from the ids, and looking "
             "its id up finds the other log's row of the same id (find_cut, lesson 12, Build "
             "item 3).")
    shut = SealedList((key, SealedMessage(message)) for key, message in rows)
    try:
        walked = [harness.find_cut(shut, budget) for budget in budgets]
    except TypeError as exc:
        walked = f"find_cut changed a row it was given: {exc}"
    t.expect(walked == [cut for cut, _, _ in found], True,
             f"The last rows above, {lab.shape(rows_messages(rows))}, handed over as a list and "
             "messages that refuse any change, cut again for the same budgets: the item is "
             "whether find_cut gave the same cuts as before. find_cut changes none of the rows "
             "it is given, not even for the length of its walk: a mark written into a message "
             "and taken off again, or the list turned round and back, is a change all the "
             "same (find_cut, lesson 12, Build item 3).")
