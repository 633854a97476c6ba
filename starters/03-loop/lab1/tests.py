"""Lesson 3, lab 1: keep going. The tests of run_agent's loop and of the write and bash tools.

run_agent's return value is not part of the contract, so the tests look only at the record
(the caller's list) and at what the model was sent. Each test draws its cases (how many calls
and rounds, how long a conversation, which paths, words and tools) from t.random, so it checks
its rule over a family of cases; the same seed draws the same ones.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 3 tests.py
"""

import harness
import lab
from lab.kit import hours_pass, lab_test, raised, settle, tool

LAB = "3.1"
SYSTEMS = ["You help with a small project.", "You are a careful coding agent.",
           "Answer briefly.\nUse the tools when you need a file."]
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
PATHS = ["a.py", "b.py", "c.py", "setup.py", "notes.txt", "src/app.py", "docs/plan.md",
         "tests/test_app.py", "README.md"]
PROMPTS = ["Hi.", "Look at the project.", "What does setup.py do?", "Read them, please.",
           "Fix the failing test.", "Naïve question: what is here?"]
# Words with spaces or line breaks at their ends, which the model is sent as they are.
EDGED_SYSTEMS = ["You help with a small project.\n", "  You are a careful coding agent.\n\n",
                 "Answer briefly.\nUse the tools when you need a file.\n"]
EDGED_PROMPTS = ["  Look at the project.", "Fix the failing test.\n", " Hi. ",
                 "What does setup.py do?\n\n"]
ANSWERS = ["Hello.", "Done.", "All read.", "It installs the package.", "The plan has two steps.",
           "Voilà."]
# A file's text: the empty file and one with no final line break among them.
TEXTS = ["", "1. test\n2. ship\n", "buy milk\n", "no newline at the end", "naïve café\n",
         "x = 1\ny = 2\n"]
# Texts a tidy-minded tool might change: Windows line ends, spaces and tabs at line ends.
UNTIDY = ["x = 1  \r\ny = 2\t\nz = 3 \n", "1. test \n2. ship\r\n\t\r\n", "buy milk\t \nand eggs\r\n  ",
          "# Plan \r\n\r\n- one\t\n"]
# A line with a decomposed accent (e and a combining acute) and a terminal's colour codes.
ODD = "Cafe\u0301 au lait, \x1b[1mbold\x1b[0m and plain.\n"


def looker(ran=None):
    """A tool `look` that answers "contents of <path>" and notes each path in `ran`."""
    def fn(arguments):
        if ran is not None:
            ran.append(arguments["path"])
        return "contents of " + arguments["path"]
    return tool("look", fn, PATH)


def looks(t, count):
    """`count` calls of look, each on a drawn path."""
    return [lab.call("look", {"path": t.random.choice(PATHS)}) for _ in range(count)]


def shape_of(widths, answer=True, before=""):
    """The shape lab.shape gives a run whose rounds ask for `widths` calls each (the model
    numbers them c1, c2, ... across the run), after the messages `before`: "U A[c1,c2] R(c1)
    R(c2) A" for [2]. With answer=False, the record as the next request carries it."""
    parts, number = [before + "U"] if before else ["U"], 0
    for width in widths:
        ids = [f"c{number + k}" for k in range(1, width + 1)]
        number += width
        parts += ["A[" + ",".join(ids) + "]"] + [f"R({id})" for id in ids]
    return " ".join(parts + (["A"] if answer else []))


async def run(model, tools, prompt, messages=None, system=SYSTEMS[0]):
    """One run on `messages` (a new list if None), whatever run_agent's colour; the record."""
    messages = [] if messages is None else messages
    await lab.drive(harness.run_agent(model, system, messages, tools, prompt))
    return messages


@lab_test("A plain reply ends the run at once: the record is U A, the model is asked once, and "
          "the system prompt reaches it unchanged, beside the messages rather than among them.")
async def test_a_plain_reply(t):
    system, prompt, answer = (t.random.choice(SYSTEMS), t.random.choice(PROMPTS),
                              t.random.choice(ANSWERS))
    model = lab.ScriptedModel([lab.say(answer)])
    tools = [looker()] if t.random.random() < 0.5 else []
    messages = await run(model, tools, prompt, system=system)
    t.expect(lab.shape(messages), "U A",
             "run_agent appends the prompt as a user message, then the reply, to the list it "
             "is given, which starts empty here: the caller's list is the record (run_agent, "
             "lesson 3).")
    t.expect(len(model.calls), 1, "A reply with no calls ends the run: one request (run_agent, "
                                  "lesson 3).")
    t.expect([model.calls[0].system, lab.shape(model.calls[0].messages)], [system, "U"],
             "The system prompt is passed as it is, and is not a message in the list. The "
             "items are [the request's system prompt, its messages] (run_agent, lesson 3).")
    t.expect([messages[0], harness.text_of(messages[1])],
             [{"role": "user", "content": prompt}, answer],
             "The prompt is user_message(prompt), and the reply is recorded as the model gave "
             "it (run_agent, lesson 3).")
    # A system prompt read from a file ends in a line break, and a person's prompt can start
    # with spaces or end with one; each reaches the model as it was given, spaces included.
    pairs = list(zip(t.random.sample(EDGED_SYSTEMS, 2), t.random.sample(EDGED_PROMPTS, 2)))
    # Words typed on Windows end their lines in \r\n, and go out so, in every draw.
    pairs.append((t.random.choice(EDGED_SYSTEMS).replace("\n", "\r\n"),
                  t.random.choice(EDGED_PROMPTS).rstrip("\n") + "\r\nThanks.\r\n"))
    # A system prompt saved with a byte-order mark, and a prompt typed with a decomposed accent
    # (i and a combining diaeresis) and blank lines at its end, go out as they came too.
    pairs.append(("\ufeff" + t.random.choice(SYSTEMS),
                  "Nai\u0308ve question: what is here?" + "\n" * t.random.randint(3, 5)))
    # A NUL byte pasted from a binary file, in each of them, goes out as it came as well.
    pairs.append((t.random.choice(SYSTEMS) + "\x00", "What is the \x00 in data.bin?"))
    # A prompt copied from a web page or a word processor: no-break spaces, a line separator
    # (U+2028) and tabs, which a tidy-minded loop would turn into plain spaces and line breaks.
    pairs.append((t.random.choice(SYSTEMS) + "\u2028",
                  t.random.choice(PROMPTS).replace(" ", "\u00a0") + "\u2028\tThanks,\u00a0" +
                  t.random.choice(["Ada", "Grace", "Zoé"]) + "\t"))
    sent = []
    for system, prompt in pairs:
        model = lab.ScriptedModel([lab.say(t.random.choice(ANSWERS))])
        messages = await run(model, [], prompt, system=system)
        sent.append([model.calls[0].system, messages[0]["content"],
                     model.calls[0].messages[0]["content"]])
    t.expect(sent, [[system, prompt, prompt] for system, prompt in pairs],
             "The system prompt and the prompt go out word for word, spaces and line breaks "
             "at their ends included, blank lines at the end, a byte-order mark, a NUL, a "
             "decomposed accent, tabs, no-break spaces and a line separator (U+2028) too: "
             "nothing is stripped, collapsed or normalised, on the "
             "record or in the request, and "
             "the system prompt stays beside the messages, never folded into the first. Each "
             "item is [the request's system prompt, the recorded prompt, the request's first "
             "message's content] of one run (run_agent, lesson 3).")
    # An empty prompt is still the user's turn: it goes on the record, "" and all.
    model = lab.ScriptedModel([lab.say(t.random.choice(ANSWERS))])
    messages = await run(model, [], "", system="")
    t.expect(model.calls[0].system, "",
             "The request carries system exactly as it was passed, even when it is \"\": "
             "nothing is done to the system prompt but passing it on, no default put in its "
             "place (run_agent, lesson 3).")
    t.expect([lab.shape(messages), messages[0], lab.shape(model.calls[0].messages)],
             ["U A", {"role": "user", "content": ""}, "U"],
             "The prompt goes on the record word for word as a user message, even when it is "
             "\"\": run_agent drops nothing the user gave. The items are [the record, its first "
             "message, the request's messages] (run_agent, lesson 3).")
    # A prompt of only spaces or line breaks is the user's turn too, as it came.
    blank = t.random.choice(["\t", " \t", "\t\n", "  \n\t"])  # each with a tab in it
    model = lab.ScriptedModel([lab.say(t.random.choice(ANSWERS))])
    messages = await run(model, [], blank)
    t.expect([lab.shape(messages), messages[0], model.calls[0].messages[0]["content"]],
             why=f"A prompt of only blanks ({blank!r}) goes on the record, and to the model, "
                 "word for word as a user message: `prompt`, word for word, whatever it holds, "
                 "not dropped or tidied, its tabs kept. The items are [the record, its first "
                 "message, the request's first message's content] - the Build's item 3 (run_agent, lesson 3).")
    # A long system prompt (a project's notes read into it) is sent whole, every time.
    notes = "".join(f"Rule {number}: keep the project's files as the user left them.\n"
                    for number in range(t.random.randint(400, 900))) + "\n"  # a blank line last
    model = lab.ScriptedModel([lab.reply(*looks(t, 1)), lab.say(t.random.choice(ANSWERS))])
    await run(model, [looker()], t.random.choice(PROMPTS), system=notes)
    t.expect([[len(request.system), request.system == notes] for request in model.calls],
             why=f"A system prompt of {len(notes)} characters reaches the model exactly as it "
                 "was passed, on every request: `system` exactly as it was passed, however "
                 "long, none of it cut. Each item is [the request's system prompt's characters, "
                 "whether it is the one passed] - the Build's item 3 (run_agent, lesson 3).")
    # A long prompt (a log the user pasted) is word for word too: none of it is cut.
    pasted = "".join(f"Line {number} of the log I pasted from Windows.\r\n"
                     for number in range(t.random.randint(800, 1600)))
    model = lab.ScriptedModel([lab.say(t.random.choice(ANSWERS))])
    messages = await run(model, [], pasted)
    t.expect([len(messages[0]["content"]), len(model.calls[0].messages[0]["content"]),
              messages[0]["content"] == pasted], [len(pasted), len(pasted), True],
             f"A prompt of {len(pasted)} characters goes on the record, and to the model, word "
             "for word: however long it is, none of it is cut, its \\r\\n line ends kept. The "
             "items are [characters recorded, characters sent, whether the recorded prompt "
             "is the one given] "
             "- the Build's item 3 (run_agent, lesson 3).")
    # A reply with words at its edges and keys the loop does not read (what it cost, when it
    # came) is recorded whole, as the model gave it.
    given = {"role": "assistant", "content": [{"type": "text", "text": " " + answer + "\n"},
                                              {"type": "text", "text": ""}],
             "stop_reason": "stop", "usage": {"input": t.random.randint(9, 99), "output": 3},
             "timestamp": 1_764_979_200_000 + t.random.randint(0, 10**6)}
    model = lab.ScriptedModel([given])
    messages = await run(model, [], t.random.choice(PROMPTS))
    t.expect(messages[1], given,
             "Every reply goes on the record as the model gave it: the same keys (its usage "
             "and timestamp too), its text unstripped, an empty text block kept, nothing "
             "rebuilt (run_agent, lesson 3).")
    # A later run on the same list leaves what the list held before as it was; and a reply
    # with nothing in it, after a round of tools, is still a reply, so it goes on the record too.
    empty, width = {"role": "assistant", "content": [], "stop_reason": "stop"}, t.random.randint(1, 2)
    await run(lab.ScriptedModel([lab.reply(*looks(t, width)), empty]), [looker()],
              t.random.choice(PROMPTS), messages)
    t.expect([lab.shape(messages), messages[1], messages[-1]],
             [shape_of([width], before="U A "), given, empty],
             "When run_agent returns, the caller's list holds what it held before, untouched "
             "(no key taken off an earlier reply), then the prompt, every reply and every "
             "result, an empty one included, even when it comes after a round of tools. The "
             "items are [the record, the first run's reply, the second run's last reply] "
             "- the Build's item 3 (run_agent, lesson 3).")
    # A first reply with nothing in it asks for nothing: the run ends at once, with it recorded.
    quiet = {"role": "assistant", "content": [], "stop_reason": "stop"}
    model = lab.ScriptedModel([quiet, lab.say("never asked")])
    quietly = await run(model, [looker()], t.random.choice(PROMPTS))
    t.expect([lab.shape(quietly), quietly[1:], len(model.calls)], ["U A", [quiet], 1],
             "A first reply with no content asks for nothing, so it ends the run at once: the "
             "run ends at the first reply that asks for nothing, whether that is the first "
             "reply or a later one, and the model is not asked again. The items are [the "
             "record, its replies, the requests] - the Build's item 3 (run_agent, lesson 3).")


@lab_test("One call, then an answer: the record is U A[c1] R(c1) A, and the second request "
          "holds the first three messages.")
async def test_one_call_then_an_answer(t):
    path, prompt, answer = (t.random.choice(PATHS), t.random.choice(PROMPTS),
                            t.random.choice(ANSWERS))
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": path})), lab.say(answer)])
    messages = await run(model, [looker()], prompt)
    t.expect(lab.shape(messages), "U A[c1] R(c1) A",
             "After the result the model is asked again, and the run ends on its answer "
             "(run_agent, lesson 3).")
    t.expect(lab.shape(model.calls[1].messages), "U A[c1] R(c1)",
             "The model remembers nothing: the second request carries everything so far "
             "(run_agent, lessons 1 and 3).")
    t.expect([messages[0]["content"], messages[2]["content"], harness.text_of(messages[3])],
             [prompt, "contents of " + path, answer],
             "The prompt, the tool's output for the path the call named, then the model's "
             "answer. The items are [the prompt, the result, the answer] (run_agent, lesson 3).")
    # A tool that prints a lot: its whole output is the result, however long.
    printed = "".join(f"{number:06d} a line of the tool's long output\r\n"
                      for number in range(t.random.randint(1300, 2000)))
    model = lab.ScriptedModel([lab.reply(lab.call("dump", {"path": path})), lab.say(answer)])
    messages = await run(model, [tool("dump", lambda arguments: printed, PATH)], prompt)
    t.expect([lab.shape(messages), len(messages[2]["content"]),
              messages[2]["content"] == printed],
             ["U A[c1] R(c1) A", len(printed), True],
             f"A tool that returns {len(printed)} characters, its lines ending in \\r\\n, has "
             "all of them as its result: the result is what run_tool returns, and the loop cuts "
             "nothing and tidies nothing. The items are "
             "[the record, the result's characters, whether it is the tool's output] "
             "- the Build's item 3 (run_agent, lesson 3).")


@lab_test("A reply with several calls, one of them asked twice, has all of their results "
          "recorded, each from run_tool, in call order, before the model is asked again.")
async def test_a_batch_is_answered_in_order(t):
    ran, answered = [], []
    paths = t.random.sample(PATHS, t.random.randint(2, 6))
    paths.insert(t.random.randint(1, len(paths)), t.random.choice(paths))  # asked twice
    model = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": p}) for p in paths]),
                               lab.say(t.random.choice(ANSWERS))])
    tools, given_run_tool = [looker(ran)], harness.run_tool

    def counted(tools, call, *rest):  # harness.run_tool, noting each call it answers
        answered.append(call["id"])
        return given_run_tool(tools, call, *rest)
    harness.run_tool = counted
    try:
        messages = await run(model, tools, t.random.choice(PROMPTS))
    finally:
        harness.run_tool = given_run_tool
    t.expect(lab.shape(model.calls[1].messages), shape_of([len(paths)], answer=False),
             "Every call of a reply is answered, in call order, before the next request "
             "(run_agent, lesson 3).")
    t.expect(ran, paths, "The tools ran in call order, not sorted, once per call: a call "
                         "asked twice is run twice. Each item is the path one call named "
                         "(run_agent, lesson 3).")
    t.expect(lab.shape(messages), shape_of([len(paths)]), "Then the answer (run_agent, "
                                                          "lesson 3).")
    t.expect(answered, [f"c{number}" for number in range(1, len(paths) + 1)],
             "Every call has its result from run_tool, one call of run_tool per call, so that "
             "what run_tool comes to do (lesson 4) reaches every call. Each item is the id of "
             "a call run_tool was handed (run_agent, lesson 3).")
    # A provider names its calls as it likes: ids out of their numbers' order, and one id
    # given twice in a reply. Call order is the reply's order, and each call is a call.
    # The ids are call_N once, and once c1, c2, ... as lab.reply numbers them, out of order.
    found, shown = [], []
    for prefix in ("call_", "c"):
        numbers = t.random.sample(range(2, 30), t.random.randint(3, 5))
        while numbers == sorted(numbers):
            t.random.shuffle(numbers)
        ids = [f"{prefix}{number}" for number in numbers]
        ids.insert(t.random.randint(1, len(ids)), t.random.choice(ids))
        ran = []
        named = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": f"n{at}.py"}, id=id)
                                               for at, id in enumerate(ids)]),
                                   lab.say(t.random.choice(ANSWERS))])
        messages = await run(named, [looker(ran)], t.random.choice(PROMPTS))
        found.append([lab.shape(messages), [m.get("tool_call_id") for m in messages
                                            if m["role"] == "toolResult"], ran])
        shown.append(ids)
    t.expect(found,
             why="Two replies whose calls' ids are out of their numbers' order: every call of "
                 "a reply has its result, from run_tool, in call order (the reply's order, not "
                 "the order of the ids' numbers), a call whose id another call of the reply has "
                 "included. Each item is [the record, the results' call ids, the paths the "
                 f"tool ran on] of one reply, whose ids were {shown[0]}, then {shown[1]} - the "
                 "Build's item 3 (run_agent, lesson 3).")
    # A reply wider than any cap that looks safe (500 calls, or a run's 2000) is answered whole.
    # Its tool notes how long the caller's list is as each call runs: the record grows as it
    # happens, however wide the reply.
    width, messages, lengths = t.random.randint(2001, 2100), [], []

    def counting(arguments):
        lengths.append(len(messages))
        return "contents of " + arguments["path"]
    # It comes labelled stop, as a provider may mislabel it: the content decides.
    wide = lab.ScriptedModel([{**lab.reply(*[lab.call("look", {"path": f"f{n}.py"})
                                             for n in range(width)]), "stop_reason": "stop"},
                              lab.say("All read.")])
    await run(wide, [tool("look", counting, PATH)], "Read every file.", messages)
    t.expect([len(wide.calls), sum(m["role"] == "toolResult" for m in messages),
              messages[-2].get("tool_call_id"), lab.shape(messages).split()[-1]],
             [2, width, f"c{width}", "A"],
             f"One reply of {width} calls, labelled stop: every call of a reply is answered, "
             "however many there are, before the next request, read off the content, never "
             "off its stop_reason label; no cap on calls per reply or per run ends it. The "
             "items are [requests, results recorded, the last result's call id, lab.shape of "
             "the record's last message] "
             "- the Build's item 3 (run_agent, lesson 3).")
    t.expect([lengths[0], lengths[-1], lengths == list(range(2, width + 2))],
             why=f"One reply of {width} calls: each result goes on the caller's list as it "
                 "happens, so each call finds the results of the calls before it there, not "
                 "kept aside and added when the batch is done. The items are [how long the list "
                 "was as the first call ran, as the last ran, whether it grew by one each call] "
                 "- run_agent's docstring (run_agent, lesson 3).")


@lab_test("Two or three rounds of tools, a few calls each: the record is U A[c1] R(c1) A[c2] "
          "R(c2) A for two rounds of one call, and each request carries the whole record so far.")
async def test_two_rounds(t):
    widths = [t.random.randint(1, 3) for _ in range(t.random.randint(2, 3))]
    widths[1] = widths[0]
    rounds = [looks(t, width) for width in widths]
    rounds[1] = [lab.call("look", call["arguments"]) for call in rounds[0]]  # asked again
    model = lab.ScriptedModel([lab.reply(*calls) for calls in rounds] +
                              [lab.say(t.random.choice(ANSWERS))])
    system = t.random.choice(EDGED_SYSTEMS)
    messages = await run(model, [looker()], t.random.choice(PROMPTS), system=system)
    t.expect(lab.shape(messages), shape_of(widths),
             "The loop goes on while replies ask for tools, not just once (run_agent, lesson 3).")
    t.expect([request.system for request in model.calls], [system] * (len(widths) + 1),
             "Every request of the run carries system exactly as it was passed, the later "
             "ones as well as the first, line break and all. Each item is one request's "
             "system prompt - the Build's item 3 (run_agent, lesson 3).")
    t.expect([lab.shape(request.messages) for request in model.calls],
             [shape_of(widths[:done], answer=False) for done in range(len(widths) + 1)],
             "Each request carries the whole record so far. Each item is one request's "
             "messages (run_agent, lesson 3).")
    # The second round asked for the same calls as the first; a model may, after a change.
    later = lab.ScriptedModel([lab.say(t.random.choice(ANSWERS))])
    await run(later, [looker()], t.random.choice(PROMPTS), messages)
    t.expect(lab.shape(later.calls[0].messages), shape_of(widths) + " U",
             "A later run on the same list sends the whole record so far, the earlier run's "
             "calls and results included: the model remembers nothing. This is lab.shape of "
             "the later run's request (run_agent, lessons 1 and 3).")
    # A job whose rounds take days by the clock (each reading of it a day on): a budget of
    # time is a count of rounds by another name, and ends nothing either.
    widths = [t.random.randint(1, 3) for _ in range(t.random.randint(3, 5))]
    slow = lab.ScriptedModel([lab.reply(*looks(t, width)) for width in widths] +
                             [lab.say(t.random.choice(ANSWERS))])
    with hours_pass(minutes=24 * 60):  # each reading of the clock a day after the one before
        messages = await run(slow, [looker()], t.random.choice(PROMPTS))
    t.expect([lab.shape(messages), len(slow.calls)], [shape_of(widths), len(widths) + 1],
             f"A job of {len(widths)} rounds of tools, each of which takes days by the clock: "
             "the run ends at the first reply that asks for nothing, its one way out, however "
             "long the job has taken, with no limit of time (nor of rounds) ending it first. The "
             "items are [the record, the requests] - the Build's item 3 (run_agent, lesson 3).")


@lab_test("Any number of rounds: jobs of 1 to 290 rounds of tools, drawn under the seed, each "
          "ask the model once per round and once more, and end on its answer; the number of "
          "rounds cannot be written into the loop.")
async def test_any_number_of_rounds(t):
    # The longest job has over 256 rounds whatever the seed, so no loop of range(N) with N up
    # to 257 passes (a cap of 256, a round number in binary, among them). Its rounds ask for one
    # call each, and it stops at 290: a later lab's harness that goes over the record once per
    # message before each request (a fair lesson 10 repair) then stays within the practice
    # check's allowance of rounds between two turns (360 rounds went past it, and a job drawn from
    # 301 to 320 did for lesson 10's own reference), so a cap above 290, 300 say, still passes.
    # The job of 9 to 40 rounds, and the longest, ask for the same calls in every round (a
    # model checking a file until it changes does), so no loop that stops at a repeated request
    # passes, however many repeats it waits for below 257.
    jobs = t.random.sample(range(1, 9), 3) + [t.random.randint(9, 40), t.random.randint(257, 290)]
    found, calls_per_job = [], []
    for rounds in jobs:
        widest = 3 if rounds <= 40 else 1
        widths = [t.random.randint(1, widest) for _ in range(rounds)]
        same = rounds in jobs[3:]
        if same:
            widths = [widths[0]] * rounds
        calls_per_job.append(sum(widths))
        model = lab.ScriptedModel(
            [lab.reply(*[lab.call("look", {"path": f"r{0 if same else r}_{c}.py"})
                         for c in range(width)])
             for r, width in enumerate(widths)] + [lab.say("All read.")])
        messages = await run(model, [looker()], f"Read the files, {rounds} rounds of them.")
        found.append([len(model.calls), lab.shape(messages).split()[-1],
                      sum(m["role"] == "toolResult" for m in messages)])
    t.expect(found, [[rounds + 1, "A", calls] for rounds, calls in zip(jobs, calls_per_job)],
             "The loop goes on while replies ask for tools, however many rounds that takes, "
             f"and whatever they ask (the jobs of {jobs[3]} and {jobs[4]} rounds ask for the "
             "same calls in each round): one request per round of tools, one more for the answer, every call "
             "answered. Each item is [requests, lab.shape of the record's last message, "
             "results] for one job - the Build's item 3 (run_agent, lesson 3).")


@lab_test("The caller's list is the record: it grows in place, and each later run on the same "
          "list carries the conversation on.")
async def test_the_callers_list_is_the_record(t):
    earlier = t.random.randint(0, 3)
    messages = []
    for number in range(earlier):
        messages += [harness.user_message(f"Earlier remark {number}."), lab.say("Noted.")]
    runs = t.random.randint(2, 4)
    prompts = [t.random.choice(PROMPTS) for _ in range(runs)]
    model = lab.ScriptedModel([lab.say(t.random.choice(ANSWERS)) for _ in range(runs)])
    same = messages
    await run(model, [], prompts[0], messages)
    t.expect([same is messages, lab.shape(messages)], [True, " ".join(["U A"] * (earlier + 1))],
             "run_agent appends to the list it is given, not to a list of its own: the "
             "caller's list is the record. The items are [the same list, its shape] "
             "(run_agent, lesson 3).")
    for prompt in prompts[1:]:
        await run(model, [], prompt, messages)
    t.expect([lab.shape(request.messages) for request in model.calls],
             [" ".join(["U A"] * (earlier + done) + ["U"]) for done in range(runs)],
             "Each later run on the same list sends the earlier conversation too. Each item "
             "is one request's messages (run_agent, lesson 3).")
    t.expect([lab.shape(messages), [m["content"] for m in messages[2 * earlier::2]]],
             [" ".join(["U A"] * (earlier + runs)), prompts],
             "And the record holds every run, each prompt in its place. The items are [the "
             "record, the prompts of these runs] (run_agent, lesson 3).")
    # A list that already ends with the same words still gets the prompt: the user said it twice.
    said = harness.user_message(prompts[0])
    messages = [said]
    await run(lab.ScriptedModel([lab.say(t.random.choice(ANSWERS))]), [], prompts[0], messages)
    t.expect([lab.shape(messages), messages[:2]], ["U U A", [said, said]],
             "When run_agent returns, the list holds what it held before, then the prompt as a "
             "user message, even when the list already ended with the same words: run_agent "
             "drops nothing the user gave. The items are [the record, its first two messages] "
             "(run_agent, lesson 3).")


@lab_test("A long conversation is sent whole: after 51 to 120 earlier messages, or 4001 to "
          "4800, the first request carries all of them and the prompt, the oldest first.")
async def test_a_long_conversation_is_sent_whole(t):
    name = t.random.choice(["Ada", "Grace", "Linus", "Barbara", "Édouard"])
    # A conversation of a few dozen exchanges, and one of over four thousand messages, so that
    # no window of recent messages, however wide it looks (2000 and 3000 among them), passes
    # for the whole record.
    found, lengths = [], [t.random.randint(51, 120), t.random.randint(4001, 4800)]
    for length in lengths:
        messages = [harness.user_message(f"My name is {name}.")]
        for number in range(1, length):
            messages.append(lab.say(f"Noted, {number}.") if number % 2 else
                            harness.user_message(f"Remark {number}."))
        model = lab.ScriptedModel([lab.say(f"You are {name}.")])
        await run(model, [], "Who am I?", messages)
        sent = model.calls[0].messages
        found.append([len(sent), sent[0]["content"], sent[-1]["content"]])
    t.expect(found, [[length + 1, f"My name is {name}.", "Who am I?"] for length in lengths],
             "The model remembers nothing: every request carries the whole record so far, "
             "however long, and a window of recent messages drops what the user said first. "
             "Each item is [how many messages were sent, the first, the last] for one "
             "conversation (run_agent, lessons 1 and 3).")


@lab_test("The record grows as things happen: each tool, as it runs, finds on the caller's list "
          "the reply that asked for it and the results of the calls before it.")
async def test_the_record_grows_as_it_happens(t):
    seen, asked, messages = [], [], []

    def peek(arguments):
        seen.append(lab.shape(messages))
        return "looked at " + arguments["path"]

    def noting(given):
        """A script entry that answers with `given`, noting the caller's list as it is asked."""
        def answer(request):
            asked.append(len(messages))
            return given
        return answer
    widths = [t.random.randint(2, 3)] + [t.random.randint(1, 3)
                                         for _ in range(t.random.randint(0, 2))]
    # The tool is a read, and the first reply asks for two or three reads at once: a batch of
    # reads runs one call at a time too, each result appended before the next call begins.
    model = lab.ScriptedModel([noting(lab.reply(*[{**call, "name": "read"}
                                                  for call in looks(t, width)]))
                               for width in widths] +
                              [noting(lab.say(t.random.choice(ANSWERS)))])
    await run(model, [tool("read", peek, PATH)], t.random.choice(PROMPTS), messages)
    parts = shape_of(widths).split()
    t.expect(seen, [" ".join(parts[:at]) for at, part in enumerate(parts) if part[0] == "R"],
             "The prompt, each reply and each result go on the caller's list as they happen, "
             "not kept aside and added at the end: a tool that runs sees the record up to its "
             "own call. Each item is lab.shape of the caller's list as one call ran (run_agent, "
             "lesson 3).")
    t.expect(asked, [len(shape_of(widths[:done], answer=False).split())
                     for done in range(len(widths) + 1)],
             "The prompt is on the caller's list before the first request goes out, and each "
             "result before the next: a model being asked finds the record it is sent already "
             "there. Each item is how many messages the caller's list held as one request was "
             "made "
             "- run_agent's docstring (run_agent, lesson 3).")
    # A first request that fails: the prompt was appended before it went out, so it stays.
    def down(request):
        raise ConnectionError("the provider is not answering")
    before = [harness.user_message("Earlier remark."), lab.say("Noted.")]
    messages, prompt = list(before), t.random.choice(PROMPTS)
    # The model would answer a second request; the run never sends one.
    model = lab.ScriptedModel([down, lab.say(t.random.choice(ANSWERS))])
    await raised(lambda: run(model, [], prompt, messages))
    t.expect([lab.shape(messages[:3]), messages[2:3]],
             ["U A U", [{"role": "user", "content": prompt}]],
             "When the first request fails, the caller's list still holds the prompt after what "
             "it held before: it was appended before the request went out, and whatever was "
             "appended before a run goes wrong stays appended. The items are [lab.shape of the "
             "record's first three messages, its third] "
             "- run_agent's docstring (run_agent, lesson 3).")
    t.expect(len(model.calls),
             why="A request that fails is not sent again: the model is asked once per round of "
                 "tools and once more for the answer, and a request that raises ends the run "
                 "there, with nothing asked twice. This is how many requests the run made, "
                 f"its record {lab.shape(messages)!r} (run_agent, lesson 3).")
    # A later request that fails, after a round of tools: the reply and its results were
    # appended as they happened, so they stay, and the failed request is not sent again, even
    # when what it raised is a timeout.
    def slow(request):
        raise TimeoutError("the provider took too long to answer")
    width, messages = t.random.randint(1, 3), []
    model = lab.ScriptedModel([lab.reply(*looks(t, width)), slow,
                               lab.say(t.random.choice(ANSWERS))])
    error = await raised(lambda: run(model, [looker()], t.random.choice(PROMPTS), messages))
    t.expect([lab.shape(messages), len(model.calls), error],
             why=f"The second request of a run fails with a timeout, after a round of {width} "
                 "calls: whatever "
                 "was appended before a run goes wrong stays appended (the prompt, the reply, "
                 "its results), and a request that raises ends the run with its exception: it is "
                 "not sent again, the first request or a later one, whatever it raised. The "
             "items are [the record, "
                 "how many requests the run made, what run_agent raised] "
                 "- the Build's item 3 (run_agent, lesson 3).")
    # Requests that fail with what a provider's client raises besides: an error of the
    # server, a reply it cannot read. Each ends the run with its own exception, asked once.
    found = []
    for problem in (RuntimeError("the provider answered 429: rate limit reached"),
                    ValueError("the provider's answer is not JSON"),
                    OSError("the network is unreachable"),
                    # each kind of ConnectionError a client raises when the line drops
                    ConnectionResetError("the provider reset the connection"),
                    BrokenPipeError("the line to the provider broke"),
                    ConnectionAbortedError("the connection was aborted"),
                    ConnectionRefusedError("the provider refused the connection")):
        def failing(request, problem=problem):
            raise problem
        model = lab.ScriptedModel([failing, lab.say(t.random.choice(ANSWERS))])
        error = await raised(lambda: run(model, [looker()], t.random.choice(PROMPTS)))
        found.append([len(model.calls), error])
    t.expect(found,
             why="A request that raises RuntimeError (a rate limit), then ValueError, then "
                 "OSError, then each kind of ConnectionError (reset, broken pipe, aborted, "
                 "refused): a "
                 "request that raises ends the run with its exception: it is not sent again, "
                 "whatever it raised. Each item is [how many requests the run made, what "
                 "run_agent raised] - the Build's item 3 (run_agent, lesson 3).")


@lab_test("Every request carries tool_specs(tools): the three keys of each tool, in order, and "
          "no functions.")
async def test_every_request_carries_the_specs(t):
    others = [tool(name, lambda a: "", description=f"The {name} tool.")
              for name in t.random.sample(["bash", "read", "write", "grep", "edit"],
                                          t.random.randint(1, 3))]
    others[0]["description"] = ""  # a tool described in no words is a tool all the same
    tools = others + [looker()]
    t.random.shuffle(tools)
    rounds = t.random.randint(1, 3)
    model = lab.ScriptedModel([lab.reply(*looks(t, 1)) for _ in range(rounds)] +
                              [lab.say(t.random.choice(ANSWERS))])
    await run(model, tools, t.random.choice(PROMPTS))
    t.expect([[spec["name"] for spec in request.tools] for request in model.calls],
             [[tool["name"] for tool in tools]] * (rounds + 1),
             "Every request tells the model about every tool, in order, one whose "
             "description is \"\" included: tool_specs(tools), nothing left out. Each item is "
             "one request's tool names (run_agent, lesson 3).")
    t.expect([[sorted(spec) for spec in request.tools] for request in model.calls],
             [[["description", "name", "parameters"]] * len(tools)] * (rounds + 1),
             "What the model is told is tool_specs(tools): execute never leaves the program "
             "(tool_specs, lesson 2).")
    t.expect([request.tools == harness.tool_specs(tools) for request in model.calls],
             [True] * (rounds + 1),
             "Each request's tools equal tool_specs(tools) (run_agent, lesson 3).")
    # The same names, told differently: a run is told about the tools it is handed now.
    retold = [{**tool, "description": tool["description"] + " Now it says more."}
              for tool in tools]
    model = lab.ScriptedModel([lab.say(t.random.choice(ANSWERS))])
    await run(model, retold, t.random.choice(PROMPTS))
    t.expect([spec["description"] for spec in model.calls[0].tools],
             [tool["description"] for tool in retold],
             "Each request carries tool_specs(tools) of the tools this run was handed, made "
             "afresh, not remembered from an earlier run with tools of the same names. Each "
             "item is one tool's description as the request told it (run_agent, lesson 3).")
    # The first run's own list, changed since: one more tool, whose name one of them has too.
    tools.append({**t.random.choice(tools), "description": "The same name, told again."})
    model = lab.ScriptedModel([lab.say(t.random.choice(ANSWERS))])
    await run(model, tools, t.random.choice(PROMPTS))
    t.expect([[spec["name"], spec["description"]] for spec in model.calls[0].tools],
             [[tool["name"], tool["description"]] for tool in tools],
             "A run on the same list, changed since an earlier run, tells the model of every "
             "tool the list holds now, even two of the same name: the request carries "
             "tool_specs(tools) as it is now, nothing kept by the list's identity and nothing "
             "dropped or merged. Each item is [a tool's name, its description] as the request "
             "told it - the Build's item 3 (run_agent, lesson 3).")
    # A list changed during a run: a tool that hands the model a new tool, on the same list;
    # the new tool, called next, retells look in place, the list as long as it was.
    kit = [looker()]

    def retell(arguments):
        kit[0]["description"] = "Look at a file, told again."
        return ""
    extra = tool(t.random.choice(["grep", "edit", "find"]), retell, PATH,
                 "A tool the run gained.")
    kit.append(tool("learn", lambda arguments: kit.append(extra) or "Learned.", PATH,
                    "Gain a tool."))
    model = lab.ScriptedModel([lab.reply(lab.call("learn", {"path": "x"})),
                               lab.reply(lab.call(extra["name"], {"path": "x"})),
                               lab.say(t.random.choice(ANSWERS))])
    messages = []
    error = await raised(lambda: run(model, kit, t.random.choice(PROMPTS), messages))
    t.expect([lab.shape(messages), error, [request.tools[0]["description"]
                                          for request in model.calls]],
             why="A tool added to the list during a run can be called from the next reply on, "
                 "and a tool changed in place is told as it is now: every call has its result "
                 "from run_tool on the tools as they stand, and each request carries "
                 "tool_specs(tools) as the list is when it is sent, nothing kept from an "
                 "earlier request. The items are [the record, what run_agent raised, each "
                 "request's description of look] - the Build's item 3 (run_agent, lesson 3).")
    t.expect([[spec["name"] for spec in request.tools] for request in model.calls],
             [["look", "learn"], ["look", "learn", extra["name"]],
              ["look", "learn", extra["name"]]],
             "Each request carries tool_specs(tools) as the list is when it is sent: a tool "
             "added to the list during the run is told from the next request on. Each item is "
             "one request's tool names - the Build's item 3 (run_agent, lesson 3).")
    # A tool whose schema is changed in place, on the same list, between two runs.
    changed = t.random.choice(tools)
    changed["parameters"] = {**changed["parameters"], "properties": {
        **changed["parameters"].get("properties", {}), "lines": {"type": "integer"}}}
    model = lab.ScriptedModel([lab.say(t.random.choice(ANSWERS))])
    await run(model, tools, t.random.choice(PROMPTS))
    t.expect([sorted(spec["parameters"].get("properties", {})) for spec in model.calls[0].tools
              if spec["name"] == changed["name"]],
             why=f"The tool {changed['name']} gained a parameter, lines, in place between two "
                 "runs on the same list: each request carries tool_specs(tools) as the list "
                 "stands at that request, its schemas as they are now, nothing remembered from "
                 "an earlier run. Each item is the parameters' names of one tool of that name "
                 "as the request told it - the Build's item 3 (run_agent, lesson 3).")


@lab_test("No call is left without its result while the run goes on: a tool that prints "
          "nothing still answers; a call naming no tool, or a tool that raises, ends the run "
          "with its exception (lesson 4 answers it instead); the loop never skips it or "
          "returns quietly.")
async def test_no_call_is_left_unanswered(t):
    tried = []

    def broken(arguments):
        tried.append(arguments["path"])
        raise PermissionError(f"{arguments['path']}: the disk is not ready")
    def stalled(arguments):  # a tool whose disk does not answer in time
        tried.append(arguments["path"])
        raise TimeoutError(f"{arguments['path']}: the disk did not answer in time")
    tools = [looker(), tool("touch", lambda arguments: "", PATH), tool("fetch", broken, PATH)]
    answered = "U A[c1] R(c1) A, and run_agent returned"
    # Today a call no tool answers stops the run with its exception; from lesson 4 it is answered.
    either = "U A[c1] R(c1) A and returned (lesson 4), or U A[c1] and raised (lesson 3)"
    found, wanted = [], []
    for name in ("touch", "fetch", t.random.choice(["lookup", "open", "view"]), ""):
        # "" is a name a provider can send, though lab.call will not make it: a call all the same
        made = {"type": "toolCall", "id": None, "name": name,
                "arguments": {"path": t.random.choice(PATHS)}}
        model = lab.ScriptedModel([lab.reply(made), lab.say(t.random.choice(ANSWERS))])
        messages = []
        error = await raised(lambda: run(model, tools, t.random.choice(PROMPTS), messages))
        what = f"{lab.shape(messages)}, and run_agent " + ("raised" if error else "returned")
        if name != "touch" and what in (answered, "U A[c1], and run_agent raised"):
            what = either
        found.append([name, what])
        wanted.append([name, answered if name == "touch" else either])
    # A call with no tools given at all, and a call of look without its path, which run_tool
    # is handed like any other call (the loop makes no result of its own).
    given_run_tool, handed = harness.run_tool, []

    def counted(tools, call, *rest):  # harness.run_tool, noting each call it is handed
        handed.append(call["id"])
        return given_run_tool(tools, call, *rest)
    for name, kit, arguments in (("look, no tools given", [], {"path": t.random.choice(PATHS)}),
                                 ("look, no path given", [looker()], {})):
        model = lab.ScriptedModel([lab.reply(lab.call("look", arguments)),
                                   lab.say(t.random.choice(ANSWERS))])
        messages, handed[:] = [], []
        harness.run_tool = counted
        try:
            error = await raised(lambda: run(model, kit, t.random.choice(PROMPTS), messages))
        finally:
            harness.run_tool = given_run_tool
        what = f"{lab.shape(messages)}, and run_agent " + ("raised" if error else "returned")
        if what in (answered, "U A[c1], and run_agent raised"):
            what = either
        if kit and "c1" not in handed:  # the tool is there, so run_tool decides what it gets
            what += f", run_tool handed the calls {handed}"
        found.append([name, what])
        wanted.append([name, either])
    t.expect(found, wanted,
             "Every call of a reply has its result, from run_tool, before the run goes on, and "
             "the run ends at the first reply that asks for nothing, its one way out. A result "
             "of \"\" is still a result. A call naming no tool, or a tool that raises, ends the "
             "run with its exception today (lesson 4 turns it into an error result): it is "
             "never skipped, and the loop never returns quietly with a call unanswered. Each "
             "item is [the tool the call named (\"\" for a call whose name is empty), what "
             "happened: lab.shape of the record and "
             "whether run_agent raised or returned]; the last two are a call with no tools "
             "given, and a call without its required path, which is handed to run_tool like "
             "any call, and run_tool answers it "
             "(run_agent, lessons 3 and 4).")
    # A call that raises in the middle of a batch, a tool's own raise or a name no tool has:
    # the calls after it are not run today, and the tool's exception is what ends the run.
    # A name no tool has comes once with calls after it, and once last in its batch.
    found, wanted = [], []
    unknown = t.random.sample(["lookup", "open", "view"], 2)
    for name, after in (("fetch", t.random.randint(1, 3)), ("wait", t.random.randint(0, 2)),
                        (unknown[0], t.random.randint(1, 3)),
                        (unknown[1], 0), ("only " + unknown[0], 0)):
        ran, tried[:] = [], []
        tools = [looker(ran), tool("fetch", broken, PATH), tool("wait", stalled, PATH)]
        first = t.random.randint(1, 3)
        path = t.random.choice(PATHS)
        batch = looks(t, first) + [lab.call(name, {"path": path})] + looks(t, after)
        if name.startswith("only "):  # a batch whose every call names a tool the list lacks
            name, first = unknown[0], 0
            batch = [lab.call(other, {"path": path}) for other in unknown]
            after = 0
        model = lab.ScriptedModel([lab.reply(*batch), lab.say(t.random.choice(ANSWERS))])
        messages = []
        error = await raised(lambda: run(model, tools, t.random.choice(PROMPTS), messages))
        results = sum(m["role"] == "toolResult" for m in messages)
        what = f"{results} results, {len(ran)} looks run, run_agent " + ("raised" if error else
                                                                         "returned")
        stopped = f"{first} results, {first} looks run, run_agent raised"
        went_on = f"{len(batch)} results, {first + after} looks run, run_agent returned"
        either = f"{stopped} (lesson 3), or {went_on} (lesson 4)"
        if name in ("fetch", "wait"):
            # Its own exception, the tool run once: not wrapped in another, not tried again,
            # a timeout no more than a refusal.
            own = (f"PermissionError: {path}: the disk is not ready" if name == "fetch" else
                   f"TimeoutError: {path}: the disk did not answer in time")
            what += f", runs of {name}: {len(tried)}" + (f", {error}" if error else "")
            stopped += f", runs of {name}: 1, {own}"
            went_on += f", runs of {name}: 1"
            either = f"{stopped} (lesson 3), or {went_on} (lesson 4)"
        else:
            # What run_tool itself raises for this call, not wrapped in another by the loop.
            own = await raised(lambda: harness.run_tool(tools, batch[first]))
            if error and error != own:
                what += f", raised {error} where run_tool raised {own}"
        found.append([name, either if what in (stopped, went_on) else
                      f"{what}; the record: {lab.shape(messages)}"])
        wanted.append([name, either])
    t.expect(found, wanted,
             "A batch of calls one of which, after the first few, names a tool that raises "
             "(PermissionError, or TimeoutError) or "
             "a tool the list lacks (once last in its batch, once in a batch of such names "
             "alone): the run ends with its exception "
             "at that call, today, and "
             "the calls after it in the batch are not run first, nor is any call of the batch "
             "held back before it; the loop never carries on past a call with no result. The "
             "exception is the tool's own, or run_tool's for a name no tool has, not wrapped "
             "in another, and the tool runs once per call, never tried again. From lesson 4 the raise is a result and every call runs. "
             "Each item is [the name the failing call gave, what happened: how many results "
             "the record holds, how many of the batch's looks ran, how run_agent ended (and, "
             "for fetch and wait, how many times it ran and what was raised)] "
             "(run_agent, lessons 3 and 4).")
    # A model may give a call the id of an earlier round's call: it is a new call all the same.
    path = t.random.choice(PATHS)
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": path})),
                               lab.reply(lab.call("look", {"path": path}, id="c1")),
                               lab.say(t.random.choice(ANSWERS))])
    messages, ran = [], []
    await run(model, [looker(ran)], t.random.choice(PROMPTS), messages)
    t.expect([lab.shape(messages), ran, len(model.calls)],
             ["U A[c1] R(c1) A[c1] R(c1) A", [path, path], 3],
             "A call whose id an earlier round's call had is still a call of this reply: it is "
             "run, and its result recorded, before the next request; the loop never skips a "
             "call because the record already holds a result of that id. The items are [the "
             "record, the paths the tool ran on, the requests] "
             "- the Build's item 3 (run_agent, lesson 3).")


@lab_test("A reply with words and a call still has its call run: text does not mean the job is "
          "done.")
async def test_words_and_a_call(t):
    # Words that sound like the end of the job, each beside calls, before or after them.
    found, wanted = [], []
    for words in t.random.sample(["Let me check the file first.", "Done. But one more look.",
                                  "The answer is 42.", "I have finished.",
                                  "FINAL ANSWER: it works. Checking once more.",
                                  "[DONE] Or nearly: one more look."], 6):
        ran = []
        calls = looks(t, t.random.randint(1, 3))
        parts = [words] + calls if t.random.random() < 0.5 else calls + [words]
        model = lab.ScriptedModel([lab.reply(*parts), lab.say(t.random.choice(ANSWERS))])
        messages = await run(model, [looker(ran)], t.random.choice(PROMPTS))
        found.append([words, lab.shape(messages), ran])
        wanted.append([words, shape_of([len(calls)]),
                       [call["arguments"]["path"] for call in calls]])
    t.expect(found, wanted,
             "Whether a reply asks for tools is decided by its calls, not by whether it has "
             "words, before or after them, whatever the words say. Each item is [the words, "
             "the record, the paths the tool ran on] (run_agent, lesson 3).")
    # Its words, spaces and line breaks at their ends, are recorded as the model gave them.
    # The words ask the user something, and an empty text block follows the calls: a question
    # does not end the run while there are calls, and the empty block is kept.
    asked = t.random.choice(["Shall I look at the tests too?", "Is this the file you meant?",
                             "What does it print?"])
    edged = t.random.choice([" ", "\n", "  "]) + asked + t.random.choice(["\n", " ", "\n\n"])
    # Its calls carry their ids, so that the reply the model gives is the one compared.
    given = lab.reply(edged, *[{**call, "id": f"c{number}"} for number, call
                               in enumerate(looks(t, t.random.randint(1, 2)), 1)], "")
    model = lab.ScriptedModel([given, lab.say(t.random.choice(ANSWERS))])
    messages = await run(model, [looker()], t.random.choice(PROMPTS))
    t.expect([lab.shape(messages), messages[1] == given, harness.text_of(messages[1])],
             why="A reply with words and calls goes on the record as the model gave it, its "
                 f"words {edged!r} unstripped and the empty text block after its calls kept: "
                 "every reply, in the order it happened, nothing rebuilt or tidied; and words "
                 "that ask the user a question do not end the run while the reply has calls. "
                 "The items are [the record, whether the recorded reply is "
                 "the one given, its words] - the Build's item 3 (run_agent, lesson 3).")


@lab_test("The content decides, not the label: replies labelled stop that carry calls have them "
          "run, and a reply labelled toolUse with no calls ends the run.")
async def test_the_content_decides(t):
    ran = []
    widths = [t.random.randint(1, 2) for _ in range(t.random.randint(1, 3))]
    # One of them has words beside four to six calls: words and a stop label still end nothing.
    wide = t.random.randint(0, len(widths))
    widths.insert(wide, t.random.randint(4, 6))
    mislabelled = [{"role": "assistant", "content": [{"type": "text", "text": "Looking first."}]
                    * (number == wide) + looks(t, width), "stop_reason": "stop"}
                   for number, width in enumerate(widths)]
    empty_promise = {"role": "assistant", "content": [{"type": "text", "text": "Done."}],
                     "stop_reason": "toolUse"}
    model = lab.ScriptedModel(mislabelled + [empty_promise, lab.say("never asked")])
    messages = await run(model, [looker(ran)], t.random.choice(PROMPTS))
    t.expect([lab.shape(messages), ran, len(model.calls)],
             [shape_of(widths), [c["arguments"]["path"] for reply in mislabelled
                                 for c in reply["content"] if c["type"] == "toolCall"],
              len(widths) + 1],
             "run_agent reads the calls off the content with tool_calls; the stop_reason label "
             "can be wrong, so the content decides: a reply labelled stop with words beside its "
             "calls, and one with four to six calls, has every call run. The items are [the "
             "record, the paths the tool ran on, the requests] (run_agent, lesson 3).")
    t.expect([m["stop_reason"] for m in messages if m["role"] == "assistant"],
             ["stop"] * len(widths) + ["toolUse"],
             "Every reply goes on the record as the model gave it, its stop_reason label too, "
             "wrong or not: the loop reads the content and rewrites nothing. Each item is one "
             "recorded reply's stop_reason (run_agent, lesson 3).")
    # A reply with nothing in it asks for nothing, whatever its label: toolUse (a provider that
    # promised calls and sent none), error or aborted (a reply that failed). Each ends the run
    # there, recorded as it came, as the first reply or after a round of tools.
    found, wanted = [], []
    for label in ("toolUse", "error", "aborted"):
        given = {"role": "assistant", "content": [], "stop_reason": label}
        if label != "toolUse":
            given["error_message"] = t.random.choice(["the provider failed", "Operation aborted",
                                                      "overloaded, try again"])
        width, messages = t.random.randint(0, 2), []
        model = lab.ScriptedModel([lab.reply(*looks(t, width))] * (width > 0) +
                                  [given, lab.say("never asked")])
        error = await raised(lambda: run(model, [looker()], t.random.choice(PROMPTS), messages))
        found.append([label, lab.shape(messages), messages[-1:] == [given], len(model.calls),
                      error])
        shown = "" if label == "toolUse" else f"({label})"  # lab.shape marks a failed reply
        wanted.append([label, shape_of([width] * (width > 0)) + shown, True, 1 + (width > 0),
                       None])
    t.expect(found, wanted,
             "A reply with no content asks for nothing, whatever its stop_reason says, toolUse, "
             "error or aborted: the run ends at the first reply that asks for nothing, with that "
             "reply on the record as the model gave it, the model not asked again and nothing "
             "raised. Each item is [the reply's label, the record, whether its last message is "
             "that reply, the requests, what run_agent raised] - the Build's item 3 (run_agent, "
             "lesson 3).")


@lab_test("make_write_tool(ws) makes a tool named write that needs path and content, creates the "
          "file and returns exactly \"Successfully wrote to <path>.\"; writing again replaces "
          "the whole file.")
async def test_the_write_tool(t):
    kept = dict(zip(t.random.sample(PATHS, 2), t.random.sample(TEXTS, 2)))
    path = t.random.choice([p for p in PATHS if p not in kept])
    # The first text is never empty, so that a write that adds to the file cannot pass for one
    # that replaces it; the second may be.
    first = t.random.choice([text for text in TEXTS if text])
    second = t.random.choice([text for text in TEXTS if text != first])
    ws = lab.Workspace(dict(kept))
    write = harness.make_write_tool(ws)
    t.expect([write["name"], sorted(write["parameters"]["required"])],
             ["write", ["content", "path"]],
             "The write tool is called write and requires path and content (make_write_tool, "
             "lesson 3).")
    said = await settle(write["execute"]({"path": path, "content": first}))
    t.expect(said, f"Successfully wrote to {path}.",
             "write says what it did, in exactly these words (make_write_tool, lesson 3).")
    t.expect(ws.files, {**kept, path: first},
             "The file exists with the given content, and nothing else changed (make_write_tool, "
             "lesson 3).")
    await settle(write["execute"]({"path": path, "content": second}))
    t.expect(ws.files, {**kept, path: second},
             "A second write replaces the whole file, and nothing else in the workspace "
             "changed: no backup, no other file (make_write_tool, lesson 3).")
    # The path in the sentence is the argument as it came, whatever the workspace makes of it.
    dotted = ".//" + t.random.choice([p for p in PATHS if p not in kept and p != path])
    said = await settle(write["execute"]({"path": dotted, "content": first}))
    t.expect([said, ws.read_text(dotted) if ws.exists(dotted) else None],
             [f"Successfully wrote to {dotted}.", first],
             "The sentence names the \"path\" argument character for character, as it came, "
             "not tidied, and the file it names holds the content. The items are [what write "
             "said, the file's text] (make_write_tool, lesson 3).")
    if ws.exists(dotted):
        ws.remove(dotted)
    # Content is written exactly, line ends and all, and the path is the argument as it came,
    # spaces at its ends included.
    # Its ends are a space or two before, and a line break after (a path pasted with its line).
    untidy = t.random.choice(UNTIDY) + ODD
    spaced = t.random.choice([" ", "  "]) + path + t.random.choice(["\n", " \n", "\t\n"])
    said = await settle(write["execute"]({"path": spaced, "content": untidy}))
    t.expect([said, ws.read_text(spaced) if ws.exists(spaced) else None],
             [f"Successfully wrote to {spaced}.", untidy],
             "The file holds exactly the content argument, \\r\\n line ends, spaces or "
             "tabs at line ends, a decomposed accent and colour codes included, and the "
             "sentence names the path character for character, spaces, tabs and line breaks and "
             "all. The items are [what write said, the file's text] "
             "- the Build's item 1 (make_write_tool, lesson 3).")
    if ws.exists(spaced):
        ws.remove(spaced)
    # Windows line ends, all but the last line's: as they came too.
    crlf = t.random.choice(["x = 1\r\ny = 2", "a\r\nb\r\nc"])
    await settle(write["execute"]({"path": spaced, "content": crlf}))
    t.expect(ws.read_text(spaced) if ws.exists(spaced) else None, crlf,
             "The file holds exactly the content argument, \\r\\n line ends included when the "
             "last line has none: nothing turned into plain line ends. This is the file's text "
             "- the Build's item 1 (make_write_tool, lesson 3).")
    if ws.exists(spaced):
        ws.remove(spaced)
    # "" is content too: the file is made, or emptied, and the sentence is the same.
    fresh = t.random.choice([p for p in PATHS if p not in kept and p != path])
    said = [await settle(write["execute"]({"path": where, "content": ""}))
            for where in (path, fresh)]
    t.expect([said, ws.files],
             [[f"Successfully wrote to {path}.", f"Successfully wrote to {fresh}."],
              {**kept, path: "", fresh: ""}],
             "Afterwards the file holds exactly the content argument, even when it is \"\": a "
             "write of \"\" empties a file that is there and makes one that is not. The items "
             "are [what the two writes said, the workspace's files] (make_write_tool, lesson 3).")
    # A long file (a generated table, a log) is written whole: no size is too big for write.
    table = "".join(f"{number:06d},a row of a long generated table,{number * 7}\n"
                    for number in range(t.random.randint(3000, 6000))) + "total,,"  # no \n
    said = await settle(write["execute"]({"path": fresh, "content": table}))
    written = ws.read_text(fresh) if ws.exists(fresh) else ""
    t.expect([said, len(written), written == table],
             why=f"A write of {len(table)} characters leaves the file holding all of them: "
                 "afterwards the file holds exactly the \"content\" argument, however long, "
                 "none of it cut, and the sentence says so. The items are [what write said, "
                 "the file's characters, whether it is the content given (its last row has no "
                 "line break, and gets none)] "
                 "- the Build's item 1 (make_write_tool, lesson 3).")
    # A write over that long file replaces it, and leaves nothing else behind.
    await settle(write["execute"]({"path": fresh, "content": first}))
    t.expect(ws.files, {**kept, path: "", fresh: first},
             f"A write over a file of {len(table)} characters replaces it whole, and nothing "
             "else in the workspace has changed: no backup of the long file, however big it "
             "was. This is the workspace's files - the Build's item 1 (make_write_tool, "
             "lesson 3).")
    # A path from the workspace's root ("/notes.txt") names a file in it: write writes it.
    rooted = "/" + t.random.choice([p for p in PATHS if p not in kept and p not in (path, fresh)])
    said = await settle(write["execute"]({"path": rooted, "content": second}))
    t.expect([said, ws.read_text(rooted) if ws.exists(rooted) else None],
             why=f"A write to {rooted!r}, which the workspace takes from its root: the file the "
                 "\"path\" argument names holds exactly the \"content\" argument, and the "
                 "sentence names the path as it came. The items are [what write said, the "
                 "file's text] - the Build's item 1 (make_write_tool, lesson 3).")
    # A path the workspace refuses is the workspace's to refuse: write hands it on as it came.
    # So is one it takes that a cautious tool might refuse (a ~, a NUL), and one it refuses
    # for a reason of its own (a folder's path, a path under a file): the workspace decides.
    outside = t.random.choice(["../", "src/../../", "docs/../../"]) + t.random.choice(PATHS)
    odd = [outside, "~/" + t.random.choice(["notes.txt", ".bashrc", "a.py"]),
           t.random.choice(["data\x00.bin", "a.py\x00.txt"]), t.random.choice(["src", "docs"]),
           t.random.choice(["notes.txt/x.md", "docs/plan.md/more.md"])]
    boxed = lab.Workspace({"src/app.py": "print(1)\n", "docs/plan.md": "1. test\n",
                           "notes.txt": "buy milk\n"})
    boxed_write, found, wanted = harness.make_write_tool(boxed), [], []
    for where in odd:
        twin = lab.Workspace(dict(boxed.files))  # the workspace alone, handed the same write
        wanted.append([where, await raised(lambda: twin.write_text(where, second)), twin.files])
        found.append([where, await raised(lambda: boxed_write["execute"]({"path": where,
                                                                          "content": second})),
                      dict(boxed.files)])
    t.expect(found, wanted,
             f"Writes to {odd[0]!r}, a path the workspace refuses, and to {odd[1]!r}, "
             f"{odd[2]!r}, {odd[3]!r} (a folder) and {odd[4]!r} (under a file): write hands "
             "every path to the workspace as it came, so what the workspace raises is what the "
             "write raises, not a refusal or a sentence of write's own, and what it takes is "
             "written. Each item is [the path, what the write raised, the workspace's files "
             "afterwards] - the Build's item 1 (make_write_tool, lesson 3: \"a path the "
             "workspace refuses is the workspace's to refuse\").")
    # Another write tool is made over a workspace of its own; then this one writes over a
    # project's settings file and a log that are there, and to a name with a backslash in it,
    # which the workspace takes as one file's name.
    harness.make_write_tool(lab.Workspace({}))
    settings = t.random.choice(["pyproject.toml", "setup.cfg", "tox.ini", "package.json"])
    log, slashed = t.random.choice(["app.log", "build.log"]), t.random.choice(["src\\x.py",
                                                                             "docs\\a.md"])
    ws = lab.Workspace({settings: "[old]\n", log: "an old line\n"})
    write = harness.make_write_tool(ws)
    harness.make_write_tool(lab.Workspace({}))
    said = [await settle(write["execute"]({"path": where, "content": first}))
            for where in (settings, log, slashed)]
    t.expect(said, [f"Successfully wrote to {where}." for where in (settings, log, slashed)],
             f"What the writes over {settings} and {log}, and to {slashed!r}, said: the "
             "sentence names the \"path\" argument character for character, its backslash as it "
             "came, whatever the workspace makes of it - the Build's item 1 (make_write_tool, "
             "lesson 3).")
    t.expect(ws.files, {settings: first, log: first, slashed: first},
             f"Writes over {settings} and {log}, which are there, and to {slashed!r}: each "
             "file named by the \"path\" argument, as the workspace names it, holds exactly "
             "the \"content\" argument, whether it existed before or not, and nothing else in "
             "the workspace has changed (no backup, nothing added to the old text), even with "
             "other write tools made over other workspaces. This is the workspace's files - "
             "the Build's item 1 (make_write_tool, lesson 3).")
    # The path goes to the workspace as it came, ./ and all (the workspace, not write, makes
    # ./a.py a.py); and a file of over a million characters written over keeps nothing beside it.
    handed = []

    class Noting(lab.Workspace):  # a workspace noting each path write_text is handed
        def write_text(self, path, text):
            handed.append(path)
            return super().write_text(path, text)
    noting = Noting({"big.log": "0123456789abcde\n" * t.random.randint(62_600, 70_000)})
    noted, given = harness.make_write_tool(noting), "./" + t.random.choice(PATHS)
    await settle(noted["execute"]({"path": given, "content": first}))
    await settle(noted["execute"]({"path": "big.log", "content": second}))
    t.expect([handed, sorted(noting.files)], [[given, "big.log"], sorted([given[2:], "big.log"])],
             "write hands every path on as it came, ./ included, and a write over a file of "
             "over a million characters replaces it with nothing else in the workspace "
             "changed: no backup. The items are [the paths ws.write_text was handed, the "
             "workspace's files] - the Build's item 1 (make_write_tool, lesson 3).")


@lab_test("make_bash_tool(shell) makes a tool named bash that needs a command and returns what "
          "the command printed: `echo hi` returns \"hi\\n\".")
async def test_the_bash_tool(t):
    names = sorted(t.random.sample(["app.py", "util.py", "main.py", "cli.py", "db.py"],
                                   t.random.randint(1, 4)))
    ws = lab.Workspace({f"src/{name}": "print(1)\n" for name in names})
    bash = harness.make_bash_tool(lab.Shell(ws))
    t.expect([bash["name"], bash["parameters"]["required"]], ["bash", ["command"]],
             "The bash tool is called bash and requires a command (make_bash_tool, lesson 3).")
    words = t.random.sample(["hi", "hello", "there", "42", "café"], t.random.randint(1, 3))
    t.expect(await settle(bash["execute"]({"command": "echo " + " ".join(words)})),
             " ".join(words) + "\n",
             "bash returns what the command printed (make_bash_tool, lesson 3).")
    t.expect(await settle(bash["execute"]({"command": "ls src"})),
             "".join(name + "\n" for name in names),
             "It runs in the shell over the workspace (make_bash_tool, lesson 3).")
    # Each call runs its command now: the same command after a change sees the change.
    added = t.random.choice(["new.py", "zz.py", "api.py"])
    ws.write_text(f"src/{added}", "print(2)\n")
    t.expect(await settle(bash["execute"]({"command": "ls src"})),
             "".join(name + "\n" for name in sorted(names + [added])),
             "The same command run again is run again, in the workspace as it is now: bash "
             "returns what the command printed when run, not what it printed last time "
             "(make_bash_tool, lesson 3).")
    # What cat prints is the file's text as it is: no line break added at its end, and a long
    # file is printed whole (lesson 6 cuts only beyond 2000 lines or 50,000 bytes).
    unended = t.random.choice(["no newline at the end", "x = 1\ny = 2", "done"])
    long = "".join(f"{number:05d} print('a line of a long file')\n"
                   for number in range(t.random.randint(900, 1300)))
    untidy = t.random.choice(UNTIDY) + ODD  # \r\n, blanks at line ends, an accent, colours
    ws.write_text("notes.txt", unended)
    ws.write_text("long.txt", long)
    ws.write_text("untidy.txt", untidy)
    said = [await settle(bash["execute"]({"command": f"cat {name}"}))
            for name in ("notes.txt", "long.txt", "untidy.txt")]
    t.expect([said[0], len(said[1]), said[1] == long, said[2]],
             [unended, len(long), True, untidy],
             "bash returns what the command printed, exactly: cat of a file with no final "
             f"line break gives its text with none added, cat of a file of {len(long)} "
             "characters gives all of them, and cat of a file with \\r\\n line ends, "
             "spaces or tabs at line ends, a decomposed accent and colour codes gives them as "
             "they are. The items are [the first "
             "result, the second's characters, whether it is the file's text, the third "
             "result] - the Build's item 2 (make_bash_tool, lesson 3).")
    for name in ("notes.txt", "long.txt", "untidy.txt"):
        ws.remove(name)
    # Past lesson 6's budget the whole output is still what the command printed today; from
    # lesson 6 its end is kept with a line saying so, so the test accepts that and nothing else.
    longer = "".join(f"{number:05d} print('a line of a longer file, kept whole')\n"
                     for number in range(t.random.randint(2100, 2600)))
    ws.write_text("longer.txt", longer)
    said = await settle(bash["execute"]({"command": "cat longer.txt"}))
    last = longer.splitlines()[-1]
    # Lesson 6's form: the output's end, up to its last line, and a line of its own saying to
    # narrow the command, after it or before it.
    cuts = [said.rpartition("\n[")[::2], said.partition("\n")[::-2]]
    t.expect([said == longer or any(longer.endswith(kept) and kept.endswith(last + "\n") and
                                    "Narrow the command" in note and "\n" not in note
                                    for kept, note in cuts),
              last in said], [True, True],
             f"cat of a file of {len(longer.splitlines())} lines ({len(longer)} characters) "
             "gives what the command printed: all of it today (from lesson 6, its end and a "
             "line saying the rest was cut), never a beginning cut off silently, nor a middle "
             "cut out. The items are "
             "[whether the result is the whole output or lesson 6's end of it, whether the "
             "file's last line is in it] "
             "- the Build's item 2 (make_bash_tool, lesson 3).")
    edit = f"# edited {t.random.randint(10, 99)}\n"
    # The same cat once more, after a line is added to the file.
    ws.write_text("longer.txt", longer + edit)
    again = await settle(bash["execute"]({"command": "cat longer.txt"}))
    ws.remove("longer.txt")
    t.expect(edit in again, True,
             "The same command run again is run again, a long output's too: cat of the "
             "file after a line is added gives that line, not what it printed last time "
             "- the Build's item 2 (make_bash_tool, lesson 3).")
    # A command runs once per call: rm run twice would fail the second time.
    gone = t.random.choice(names)
    said = await settle(bash["execute"]({"command": f"rm src/{gone}"}))
    t.expect([said, ws.exists(f"src/{gone}")], ["", False],
             "bash runs the command once, and returns what that run printed: rm prints "
             "nothing and the file is gone. The items are [the result, whether the file is "
             "still there] (make_bash_tool, lesson 3).")
    # A command the shell does not have, sudo among them: what the shell printed is the result.
    # And one a cautious tool might refuse: the shell has its own answer to it.
    lines = [t.random.choice(["sudo ls src", "sudo rm -rf src"]), "rm -rf /",
             t.random.choice(["mkfs /dev/sda1", "rm -rf ~"])]
    found, wanted = [], []
    for line in lines:
        said = await settle(bash["execute"]({"command": line}))
        printed, code = lab.Shell(lab.Workspace({})).run(line)
        found.append([line, said[:len(printed)],
                      said[len(printed):] in ("", f"\nCommand exited with code {code}")])
        wanted.append([line, printed, True])
    t.expect(found, wanted,
             f"bash runs {lines[0]!r}, then {lines[1]!r}, then {lines[2]!r}, in the shell, "
             "whatever the command, "
             "and returns what it "
             "printed: the result is what the \"command\" argument printed when run in "
             "`shell`, nothing refused or answered in its place. Each item is [the command, "
             "the result's start, whether nothing (or lesson 4's status line) follows it] - "
             "the Build's item 2 (make_bash_tool, lesson 3).")
    # A command that fails printed something too, and that is all the model gets today.
    # Lesson 4 adds a status line after it, so the test accepts that line and nothing else.
    missing = t.random.choice(["nope.py", "old.py", "main.py.bak"])
    said = await settle(bash["execute"]({"command": f"cat src/{missing}"}))
    printed = f"cat: src/{missing}: No such file or directory\n"
    t.expect([said[:len(printed)], said[len(printed):] in ("", "\nCommand exited with code 1")],
             [printed, True],
             "A failing command's result is what the command printed and nothing more: the "
             "model gets the output only, and the exit code is lesson 4's. The items are [the "
             "result's start, whether nothing (or lesson 4's status line) follows it] "
             "(make_bash_tool, lesson 3).")
    # A command that fails and prints nothing: nothing is what it printed, and so its result.
    silent = t.random.choice(["false", "exit 2", "exit 3"])
    code = lab.Shell(lab.Workspace({})).run(silent)[1]
    said = await settle(bash["execute"]({"command": silent}))
    t.expect([silent, "" if said == f"\nCommand exited with code {code}" else said], [silent, ""],
             f"{silent!r} fails (exit code {code}) and prints nothing: the result is what the "
             "command printed, \"\", with nothing said in its place; the model gets the "
             "output only today (lesson 4 adds its status line, which the test accepts). The "
             "items are [the command, the result] - the Build's item 2 (make_bash_tool, "
             "lesson 3).")


@lab_test("A file written in turn 1 is there for a read in turn 2: the tools share one "
          "workspace, and the loop runs them in order.")
async def test_a_write_then_a_read(t):
    ws = lab.Workspace({})
    tools = [harness.make_read_tool(ws), harness.make_write_tool(ws),
             harness.make_bash_tool(lab.Shell(ws))]
    t.random.shuffle(tools)
    path = t.random.choice(["plan.md", "notes.txt", "todo.md"])
    text = t.random.choice([text for text in TEXTS if text])
    checks = [lab.call("read", {"path": path}), lab.call("bash", {"command": f"cat {path}"})]
    t.random.shuffle(checks)
    # Then the file is read again; the user edits it; and a reply asks to read it, then to
    # write it: each call runs when its turn comes, in call order, on the file as it is then.
    edited, final = t.random.sample([other for other in TEXTS if other != text], 2)

    def edit_then_ask(request):
        ws.write_text(path, edited)  # the user changed the file between two requests
        return lab.reply(lab.call("read", {"path": path}),
                         lab.call("write", {"path": path, "content": final}))
    model = lab.ScriptedModel([
        lab.reply(lab.call("write", {"path": path, "content": text})),
        lab.reply(*checks),
        lab.reply(lab.call("read", {"path": path})),
        edit_then_ask,
        lab.say("The plan has two steps.")])
    given_run_tool, handed = harness.run_tool, []

    def counted(tools, call, *rest):  # harness.run_tool, noting each call it is handed
        handed.append(call["id"])
        return given_run_tool(tools, call, *rest)
    harness.run_tool = counted
    try:
        messages = await run(model, tools, "Write a plan, then check it.")
    finally:
        harness.run_tool = given_run_tool
    t.expect(lab.shape(messages),
             "U A[c1] R(c1) A[c2,c3] R(c2) R(c3) A[c4] R(c4) A[c5,c6] R(c5) R(c6) A",
             "Six calls over four turns, each answered (run_agent, lesson 3).")
    t.expect([[m["content"] for m in messages if m["role"] == "toolResult"],
              ws.read_text(path) if ws.exists(path) else None],
             [[f"Successfully wrote to {path}.", text, text, text, edited,
               f"Successfully wrote to {path}."], final],
             "The read and the command in turn 2 see the file the write made in turn 1; a read "
             "in turn 4, after the user edited the file, sees the edit, because every call has "
             "its result from run_tool, run afresh, nothing kept from an earlier read; and in "
             "a batch of a read then a write, the read runs first and sees the file before "
             "the write: the loop runs them in order. The items are [each result's content, "
             "the file's text at the end] (run_agent, lesson 3).")
    t.expect(handed, [f"c{number}" for number in range(1, 7)],
             "Every call has its result from run_tool, the reads, the writes and the command "
             "alike, one call of run_tool per call: no tool is answered by the loop itself. "
             "Each item is the id of a call run_tool was handed (run_agent, lesson 3).")
    t.expect(lab.validate(messages), [], "The record is a transcript a provider accepts "
                                         "(run_agent, lesson 3).")
