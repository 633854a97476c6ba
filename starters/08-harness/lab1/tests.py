"""Lesson 8, lab 1: one writer. The tests of the Harness: its own copy of the transcript, the
tuple snapshot, is_running read off the run, and prompt() refusing a second run at once.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 8 tests.py
"""
import operator

import harness
import lab
from lab.kit import hours_pass, lab_test, raised, raised_now, tool

YEAR = 365 * 24 * 60  # in minutes, hours_pass's step: every reading of a clock is years on

LAB = "8.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
BUSY = "RuntimeError: already running; use steer() or follow_up()"
MARKS = "/!\"#$%&'()*+,-.:;<=>?@[\\]^_`{|}~"  # string.punctuation: each may lead a frontend's command
# Not words at all: while a run is going, prompt() hands back no run for any of them.
NOT_TEXT = (None, 7, b"Read them.", ["Read them."], {"role": "user", "content": "Read them."})
# Nothing typed, or spaces and newlines alone: while a run is going, words all the same, refused.
BLANK = ("", " ", "\t\n", "\r\n  ")


def looker(ran=None, during=None):
    """A tool `look`; `during(arguments)` is called while it runs, if given."""
    def fn(arguments):
        if during is not None:
            during(arguments)
        if ran is not None:
            ran.append(arguments["path"])
        return "contents of " + arguments["path"]
    return tool("look", fn, PATH)


FILES = ["a.py", "b.py", "setup.py", "src/app.py", "README.md", "notes.txt"]


def answers(*texts):
    return lab.ScriptedModel([lab.say(text) for text in texts])


def drawn_job(t, most_rounds=3, widest=3):
    """A job drawn under the seed: 1 to most_rounds rounds of 1 to `widest` look calls at drawn
    paths. Returns (the replies asking for them, the paths of each round's calls); the job's
    answer is for the test to add."""
    rounds = [[t.random.choice(FILES) for _ in range(t.random.randint(1, widest))]
              for _ in range(t.random.randint(1, most_rounds))]
    return [lab.reply(*[lab.call("look", {"path": p}) for p in paths]) for paths in rounds], rounds


def story(rounds, first=1):
    """The events of a run whose model asks for the calls of `rounds` (ids numbered from
    c<first>) and then answers, each in a few words: lesson 7's sequence."""
    events, n = ["agent_start", "turn_start", "message_end U"], first - 1
    for paths in rounds:
        ids = [f"c{n + i}" for i in range(1, len(paths) + 1)]
        n += len(paths)
        events.append(f"message_end A[{','.join(ids)}]")
        for id in ids:
            events += [f"tool_execution_start {id}", f"message_end R({id})",
                       f"tool_execution_end {id}"]
        events += [f"turn_end A[{','.join(ids)}]", "turn_start"]
    return events + ["message_end A", "turn_end A", "agent_end"]


def recorded(events):
    """The shape of the messages the message_end events among `events` announce."""
    return " ".join(what.split(" ", 1)[1] for what in events if what.startswith("message_end"))


def asked(events):
    """How many requests a run has made by the end of `events`: one per assistant message."""
    return sum(what.startswith("message_end A") for what in events)


class Killed(Exception):
    """The caller's own exception, thrown into a run: of no class a harness could know."""


async def throw_after(run, count, on_event, error=None):
    """Read `count` events of `run`, then throw an exception into it at the yield it waits at,
    as a caller that kills a run with an error of its own does (an async run, from lesson 15
    on, gets it through athrow()). Returns what came out of the throw, as raised() gives it.
    `error` is what is thrown, if not the caller's own Killed: a KeyboardInterrupt or a
    SystemExit, which are no Exception."""
    error = Killed("killed by its caller") if error is None else error
    if hasattr(run, "__aiter__"):
        for _ in range(count):
            on_event(await run.__anext__())
        return await raised(lambda: run.athrow(error))
    for _ in range(count):
        on_event(next(run))
    return await raised(lambda: run.throw(error))


async def break_after(run, count):
    """Read `run` as `for event in run: ... break` does, leaving after `count` events without
    calling close(): the consumer just lets go of the run (lesson 7's clean stop)."""
    seen = 0
    if hasattr(run, "__aiter__"):  # from lesson 15 on, a run is async
        async for event in run:
            seen += 1
            if seen == count:
                break
    else:
        for event in run:
            seen += 1
            if seen == count:
                break


def held_long(h):
    """h.is_running read while the clocks say years have passed since the last reading."""
    with hours_pass(YEAR, processor=True, dates=True):
        return h.is_running


def kind(value):
    """The type of `value`: "tuple" for a tuple itself; a subclass of tuple is named as one,
    whatever it calls itself, since its own methods (a pop() say) are not a tuple's."""
    if type(value) is tuple:
        return "tuple"
    return f"{type(value).__module__}.{type(value).__qualname__}, not a tuple itself"


@lab_test("h.messages is () before any run, and a tuple holding the run afterwards.")
async def test_messages_is_a_tuple(t):
    replies, rounds = drawn_job(t)
    h = harness.Harness(lab.ScriptedModel(replies + [lab.say("Read them.")]), SYSTEM, [looker()])
    t.expect([kind(h.messages), lab.shape(h.messages)], ["tuple", ""],
             "h.messages is a snapshot, a tuple itself, not a subclass of one with methods of "
             "its own: a new harness with no messages shows an empty one (Harness.messages, "
             "lesson 8; the Build section's item 2: \"a tuple, which no later run changes and "
             "nobody can append to\").")
    await lab.drive(h.prompt("Read them."))
    t.expect([kind(h.messages), lab.shape(h.messages),
              [m["content"] for m in h.messages if m["role"] == "toolResult"]],
             ["tuple", recorded(story(rounds)),
              ["contents of " + path for paths in rounds for path in paths]],
             "After a run, .messages is a tuple of the harness's transcript, here of a drawn run. "
             "Items: its type, its shape, its results (Harness.messages, lesson 8).")
    first, second = h.messages, h.messages
    t.expect([first == second, first is second],
             why="A snapshot is made on every read (the Build section's item 2): two reads in a "
                 "row with nothing between hold the same messages, and are two tuples, not one "
                 "kept and handed out again. Items: equal, the very same tuple "
                 "(Harness.messages, lesson 8).")
    # every one of the very dicts first, on a short session: a file that copies each message on
    # every read, or walks the given list to leave some out, is told so here, before the long
    # session below costs it its processor time
    given = [harness.user_message("Line.")] * 4 + [lab.say("Noted.")]
    snapshot = harness.Harness(answers(), SYSTEM, [], messages=given).messages
    short = [len(snapshot), [message is mine for message, mine in zip(snapshot, given)]]
    t.expect(short, [5, [True] * 5],
             "The list is copied, the messages are not: no deep copies, on any read, and none "
             "left out (the Build section's item 1, \"The dicts in that list are shared, not "
             "copied\"). Items: how many messages h.messages holds, for a saved session of the "
             "same question four times in a row and a reply, and whether each is the very dict "
             "given (Harness.messages, lesson 8).")
    if short != [5, [True] * 5]:
        return  # the test has failed: the long session would only spend the file's allowance
    pair = [harness.user_message("Line."), lab.say("Noted.")]
    saved = pair * t.random.randint(250_001, 300_000)  # a long session, cheap to make
    h = harness.Harness(answers(), SYSTEM, [], messages=saved)
    snapshot = h.messages
    t.expect([len(saved), len(snapshot), snapshot[0] is saved[0], snapshot[-1] is saved[-1]],
             [len(saved), len(saved), True, True],
             "h.messages is a snapshot of the whole transcript, however long: a harness given "
             "a saved session of 500,002 to 600,000 messages hands out all of them, none cut "
             "(the Build section's item 2: \"a snapshot of the transcript\"). Items: messages "
             "given, messages in the snapshot, whether it starts and ends with the very ones "
             "given (Harness.messages, lesson 8).")


@lab_test("A snapshot stays as it was across later runs, and cannot be appended to; every "
          "prompt is a run recorded word for word, the same long words sent twice and \"/clear\" too.")
async def test_a_snapshot_is_frozen(t):
    # Prompts kept word for word, spaces, tabs and newlines around them too; the last is empty.
    # The last drawn prompt is said twice in a row, as a second Send of the same words; then
    # words a frontend might take for its own command: to the harness, a prompt like any other.
    prompts = [f"\t\n  Prompt {t.random.randint(1, 999)}.  \n\t"
               for _ in range(t.random.randint(1, 3))]
    # A blank prompt of spaces and newlines alone, and lines ended as Windows ends them.
    blank = "".join(t.random.choice([" ", "\t", "\n", "\r\n"]) for _ in range(t.random.randint(1, 6)))
    crlf = "".join(f"Step {t.random.randint(1, 99)}.\r\n" for _ in range(t.random.randint(2, 4)))
    prompts += [prompts[-1], "/clear", " " + blank, crlf, ""]
    runs = len(prompts)
    h = harness.Harness(answers(*[f"Answer {n}." for n in range(runs)]), SYSTEM, [])
    snapshots, going = [], []
    for prompt in prompts:
        run = h.prompt(prompt)
        going.append(h.is_running)
        await lab.drive(run)
        snapshots.append(h.messages)
    t.expect(going, [True] * runs,
             "is_running is True from the moment prompt() returns, for every prompt: the same "
             "words as the last ones and the empty prompt \"\" too (the Build section's items 3 "
             "and 4). Each item is is_running straight after one prompt() (Harness.prompt, "
             "lesson 8).")
    t.expect([[lab.shape(snapshot), snapshot[-2]["content"]] for snapshot in snapshots],
             [[" ".join(["U A"] * n), prompts[n - 1]] for n in range(1, runs + 1)],
             "Each read of .messages is a new snapshot; an old one does not change when the "
             "harness goes on. Every prompt is a run, recorded word for word: spaces, tabs and "
             "newlines around it too, the same words said twice in a row as two runs, \"/clear\" "
             "(a frontend's command is the frontend's business: to the harness it is words), and the empty prompt "
             "\"\" as well, which prompt() hands back as a run like any other, and so a blank one of spaces, tabs and newlines alone, and lines ended with \\r\\n, not tidied to \\n (lesson 3's prompt, word for word). Each item is [shape, its last "
             "prompt] of the snapshot taken after one of a drawn number of runs, read after the "
             "last (Harness.messages and Harness.prompt, lesson 8).")
    chosen = t.random.choice(snapshots)
    t.expect(await raised(lambda: chosen.append(harness.user_message("sneaked in"))),
             "AttributeError: 'tuple' object has no attribute 'append'",
             "A tuple has no append: nobody outside the harness writes to its transcript "
             "(Harness.messages, lesson 8).")
    t.expect(lab.shape(h.messages), " ".join(["U A"] * runs),
             "The transcript is unchanged (Harness.messages, lesson 8).")
    # A long prompt, as a pasted file: recorded word for word too, every character of it.
    pasted = "".join(f"line {n}: {t.random.choice(FILES)}\n"
                     for n in range(t.random.randint(3000, 3200)))
    pasted *= t.random.randint(100, 130)  # the same file pasted again and again: cheap to make
    h = harness.Harness(answers("Read it.", "Read it again."), SYSTEM, [])
    await lab.drive(h.prompt(pasted))
    await lab.drive(h.prompt(pasted))  # pasted and sent again: a second run of the same words
    t.expect([len(pasted), len(h.messages[0]["content"]), h.messages[0]["content"] == pasted,
              lab.shape(h.messages), h.messages[2]["content"] == pasted],
             [len(pasted), len(pasted), True, "U A U A", True],
             "A prompt is recorded word for word however long it is (the Build section's item 4: "
             "prompt(text) \"hands back the run\" of `text`, and lesson 3's prompt is recorded "
             "as given): a pasted file of 3,000 lines or more, some 60,000 characters, "
             "pasted 100 to 130 times over, over 300,000 lines and five million characters, whole, none cut and "
             "none refused, and the same long words sent again straight after are a second run, "
             "recorded whole too. Items: the prompt's length, the recorded one's, whether they are the "
             "same words, the transcript after the second run, whether its prompt is those words "
             "(Harness.prompt, lesson 8).")


@lab_test("The list passed to Harness is copied, every message as given, a failed one too: "
          "changing it later does nothing, and runs never write to it. The messages themselves "
          "are shared, not copied, a tool result too; two harnesses made from one list keep apart.")
async def test_the_list_passed_in_is_copied(t):
    pairs = t.random.randint(1, 4)
    facts = [f"Fact {t.random.randint(1, 999)}." for _ in range(pairs)]
    failed = t.random.randrange(pairs)  # the exchange whose reply failed, empty, on the way in
    earlier = [message for n, fact in enumerate(facts)
               for message in (harness.user_message(fact),
                               harness.error_message("overloaded") if n == failed
                               else lab.say("Noted."))]
    given = lab.show(earlier, stop_reason=True)
    as_given = [dict(message) for message in earlier]  # each dict's keys and values, as given
    h = harness.Harness(answers("You know them."), SYSTEM, [], messages=earlier)
    added = t.random.randint(1, 3)
    earlier.extend(harness.user_message("This was never said.") for _ in range(added))
    t.expect(lab.show(h.messages, stop_reason=True), given,
             "Harness copies `messages` into a list of its own, every message as given: an "
             "empty failed reply too, since the transcript is a record and keeps its failures; "
             "only each request leaves them out (Harness, lesson 8; context_for_model, "
             "lesson 5).")
    await lab.drive(h.prompt("What do you know?"))
    t.expect([lab.shape(earlier), lab.shape(h.messages)],
             [" ".join([lab.shape(earlier[:2 * pairs])] + ["U"] * added),
              lab.shape(earlier[:2 * pairs]) + " U A"],
             "The harness's runs write to its own list, never to the caller's. Items: the "
             "caller's list, the harness's (Harness, lesson 8).")
    t.expect([[h.messages[2 * n]["content"], h.messages[2 * n] is earlier[2 * n],
               h.messages[2 * n + 1] is earlier[2 * n + 1]] for n in range(pairs)],
             [[fact, True, True] for fact in facts],
             "The list is copied, the messages are not: no deep copies. Each item is [the fact "
             "said, the user message is the caller's very object, the reply is too] for one "
             "earlier exchange (Harness, lesson 8).")
    t.expect([message == before for message, before in zip(earlier, as_given)],
             [True] * len(as_given),
             "The dicts given are shared, so the harness writes nothing into them: every message "
             "as given, with the keys and values it had, no key added, none changed. Each item is "
             "whether one of the caller's messages is as it was given (Harness, lesson 8).")
    # A run closed after a drawn number of its events: closing writes into no message either.
    h = harness.Harness(answers("Noted again."), SYSTEM, [], messages=earlier[:2 * pairs])
    told = []  # each message as its message_end announced it, keys and values

    def note(event):
        if event["type"] == "message_end":
            told.append(dict(event["message"]))
    await lab.drive(h.prompt("One more."), on_event=note, close_after=t.random.randint(1, 5))
    t.expect([lab.shape(h.messages), [message == before for message, before
                                      in zip(h.messages, as_given[:2 * pairs] + told)]],
             why="Nothing but run_agent writes to the transcript, and it writes nothing into a "
                 "message once recorded: a run closed by its consumer leaves every message as "
                 "it was given or announced, no key added, none changed (the Build section's "
                 "items 1 and 6: \"The dicts in that list are shared, not copied\"; \"No "
                 "method of the harness adds a message to it, takes one out or changes one\"). "
                 "Items: the transcript after a run closed at a drawn event, and whether each of "
                 "its messages is as it was given or announced (Harness, lesson 8).")
    window = []  # an empty list is copied too: there is nothing in it, but it is the caller's
    h = harness.Harness(answers("Hello."), SYSTEM, [], messages=window)
    await lab.drive(h.prompt("Hi."))
    other = harness.Harness(answers("Hello."), SYSTEM, [], messages=window)  # a second window
    await lab.drive(other.prompt("Hi."))
    window.append(harness.user_message("The window's own line."))
    unanswered = [harness.user_message("Look at a.py."),
                  lab.reply(lab.call("look", {"path": "a.py"}))]  # a run that died at its call
    # The same words sent twice, as a run closed before its first request leaves them, and the
    # same answer twice; then a long saved session, past any window a harness might keep.
    said = f"Fact {t.random.randint(1, 999)}."
    twice = [harness.user_message(said), harness.user_message(said), harness.user_message(said),
             lab.say("Noted."), harness.user_message("And?"), lab.say("Noted."), lab.say("Noted."),
             lab.say("Noted.")]
    orphan = [harness.user_message("Go on."), dict(TOOL_RESULT)]  # its call was never kept
    saved = [message for n in range(t.random.randint(1000, 1100))
             for message in (harness.user_message(f"Line {n}."), lab.say("Noted."))]
    saved = saved * t.random.randint(50, 66) + [harness.user_message(said)] * t.random.randint(
        1000, 2000)  # the session reopened again and again, then one stuck Send repeated
    kept = harness.Harness(answers(), SYSTEM, [], messages=saved).messages
    # A session of big messages: a pasted file of a megabyte or more and its tool result, the
    # very same strings again and again (cheap to make), over a hundred million characters.
    page = "".join(f"line {n}: {t.random.choice(FILES)}\n"
                   for n in range(t.random.randint(3000, 3200))) * t.random.randint(20, 30)
    heavy = [harness.user_message(page), dict(TOOL_RESULT, content=page),
             lab.say("Noted.")] * t.random.randint(60, 80)
    weighed = harness.Harness(answers(), SYSTEM, [], messages=heavy).messages
    sample = t.random.randrange(997)  # every 997th message from a drawn one: each the very one given
    orphaned = harness.Harness(answers(), SYSTEM, [], messages=orphan).messages
    t.expect([lab.shape(window), lab.shape(h.messages), lab.shape(other.messages),
              lab.shape(harness.Harness(answers(), SYSTEM, [], messages=unanswered).messages),
              lab.shape(harness.Harness(answers(), SYSTEM, [], messages=twice).messages),
              [lab.shape(orphaned), [m is n for m, n in zip(orphaned, orphan)]],
              [len(saved), len(kept) == len(saved) and kept[0] is saved[0] and kept[-1] is saved[-1]
               and all(map(operator.is_, kept[sample::997], saved[sample::997])), len(kept)],
              [len(heavy), len(weighed), all(map(operator.is_, weighed, heavy))]],
             ["U", "U A", "U A", lab.shape(unanswered), lab.shape(twice),
              [lab.shape(orphan), [True] * len(orphan)], [len(saved), True, len(saved)],
              [len(heavy), len(heavy), True]],
             "Every list given is copied into a list of its own, an empty one too, and kept as "
             "given (the Build section's item 1: \"Its transcript starts as what it was "
             "given\"): one that ends in a call with no result too, one that says the same words "
             "twice in a row, and three times, one holding a result whose call is not in it, and a long one of 2,000 messages or more, that saved session "
             "given 50 to 66 times over and then one message a thousand times or more in a row, "
             "101,000 messages or more however long the list, every one of them, and one of "
             "big messages, a pasted file of over a megabyte and its tool result 60 to 80 times "
             "over, past a hundred million characters in all, every one the very dict given: the "
             "transcript is a record, not a list to tidy, trim or take doubles out of. Items: "
             "the caller's empty list after a run and an append of its own, the harness's "
             "transcript, that of a second harness made from the same list and run once (two "
             "harnesses made from one list keep apart: each has a list of its own), a harness given a list ending in an unanswered call, one given a list "
             "with doubles and triples, [the shape of one given a result with no call, whether each message is the very dict given, "
             "the tool result too: the messages are shared, not copied], [messages in a long list, whether "
             "the harness's are those very ones, how many it holds], and [messages in the list of "
             "big ones, how many the harness holds, whether each is the very dict given, a big tool "
             "result too] (Harness, lesson 8).")


@lab_test("A second prompt() while a run is in progress raises RuntimeError(\"already running; "
          "use steer() or follow_up()\") at once, on the caller's line, and the first run "
          "carries on to its end.")
async def test_a_second_prompt_is_refused(t):
    box, tried = {}, []
    replies, rounds = drawn_job(t)

    def during(arguments):  # inside a tool: is_running, and a prompt() as a sub-agent's would be
        tried.append([box["h"].is_running,
                      raised_now(lambda: box["h"].prompt("Do this as well."), kind=RuntimeError)])
    h = box["h"] = harness.Harness(lab.ScriptedModel([lab.say("Hello.")] + replies +
                                                     [lab.say("Read them."),
                                                      lab.say("Second answer.")]),
                                   SYSTEM, [looker(during=during)])
    await lab.drive(h.prompt("Hello?"))  # the run tried is the harness's second, not its first
    for _ in range(t.random.randint(51, 60)):  # and follows many prompts: each run is tracked
        await lab.drive(h.prompt("Never mind."), close_after=0)  # closed before its first step

    clicks = t.random.randint(1001, 1200)  # Send clicked again and again, over a thousand times

    async def second(event):  # at a turn_start the running run's own words, as a double click
        if event["type"] == "turn_start" and not tried:  # the first: a thousand clicks and more
            got = {raised_now(lambda: h.prompt("Read them."), kind=RuntimeError)
                   for _ in range(clicks)}
            tried.append(BUSY if got == {BUSY} else ["of", clicks, "refusals in a row", sorted(map(str, got))])
        elif event["type"] == "turn_start":
            tried.append(await raised(lambda: h.prompt("Read them."), kind=RuntimeError))
        elif event["type"] == "tool_execution_end":  # a command, led by any mark a frontend uses
            got = [await raised(lambda: h.prompt(mark + "retry Did that work?"), kind=RuntimeError)
                   for mark in MARKS]
            answer = (got[0] if got == got[:1] * len(got) else
                      [[mark, what] for mark, what in zip(MARKS, got) if what != BUSY])
            handed = [repr(given) for given in NOT_TEXT + BLANK  # each a second run handed back
                      if await raised(lambda: h.prompt(given), kind=RuntimeError) is None]
            tried.append(answer if not handed else [answer, "a run handed back for", handed])
    # The clocks run years on at every reading while the run goes: no clock ends a refusal.
    with hours_pass(YEAR, processor=True, dates=True):
        await lab.drive(h.prompt("Read them."), on_event=second)
    t.expect(tried, [BUSY if what == "turn_start" or what.startswith("tool_execution_end")
                     else [True, BUSY] for what in story(rounds)
                     if what == "turn_start" or what.startswith("tool_execution")],
             "prompt() refuses while a run is in progress, when it is called, not at the "
             "second run's first step; is_running is True while each tool runs, in every run of "
             "the harness, not only its first, and a prompt() made from inside a tool, while the "
             "run is executing it, is refused too, and so is a prompt() of the very words the run "
             "was started with, as a second click of Send sends them, and a question sent as a "
             "slash command, or led by any mark of punctuation, @ or ! or # alike (the Build section's item 4: "
             "\"While a run is going, it raises a `RuntimeError`\"): whatever the words, "
             "it raises; and a prompt() of something that is not a string at all (None, a number, "
             "bytes, a list, a message dict) raises too, whatever its class, and so does a blank one, \"\" "
             "or spaces and newlines alone (\"it hands back no "
             "second run, whatever it is given\"). The refusal holds however many came before it, "
             "over a thousand clicks of Send in a row at the first turn_start, and however long "
             "the run has gone: here the clocks say years pass at every reading (\"a run is over "
             "when it ends, never when a clock says so\"). Each item is what a second prompt() raised at one turn_start (the "
             "run's own words) or "
             "tool_execution_end, or [is_running, what a prompt() raised] inside a tool, for a "
             "drawn run that follows a first one and 51 to 60 prompts whose runs were closed "
             "before their first step: the refusal holds for every run of the harness, however "
             "many came before (Harness.prompt, lesson 8).")
    t.expect(lab.shape(h.messages), "U A " + recorded(story(rounds)),
             "The run carried on, and the refused prompts left no trace (Harness.prompt, "
             "lesson 8).")
    await lab.drive(h.prompt("Now?"))
    t.expect([lab.shape(h.messages), h.messages[-2]["content"]],
             ["U A " + recorded(story(rounds)) + " U A", "Now?"],
             "After the run, a prompt is accepted, and recorded as sent: a refused prompt is "
             "refused, not quietly kept for later and folded into the next one. Items: the "
             "transcript, the last prompt recorded (Harness.prompt, lesson 8).")


def steps_taken(run):
    """"none" for a generator (an async one from lesson 15 on) that has not taken its first
    step, "some" for one that has; "not a generator" for anything else."""
    import dis
    import inspect
    if inspect.isasyncgen(run):
        if hasattr(inspect, "getasyncgenstate"):  # Python 3.12 on
            return "none" if inspect.getasyncgenstate(run) == inspect.AGEN_CREATED else "some"
        # Python 3.11 has no such question: a frame not yet entered has not reached its RESUME
        resume = next(i.offset for i in dis.get_instructions(run.ag_code) if i.opname == "RESUME")
        return "none" if run.ag_frame is not None and run.ag_frame.f_lasti < resume else "some"
    if inspect.isgenerator(run):
        return "none" if inspect.getgeneratorstate(run) == inspect.GEN_CREATED else "some"
    return "not a generator"


@lab_test("is_running is False before any prompt, True straight after prompt() returns, before "
          "any event and before the run's first step, and False once the run is exhausted.")
async def test_is_running(t):
    replies, rounds = drawn_job(t)
    model = lab.ScriptedModel(replies + [lab.say("Read them."), lab.say("Again.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    t.expect(h.is_running, False, "No run yet (Harness.is_running, lesson 8).")
    run = h.prompt("Read them.")
    t.expect([held_long(h), steps_taken(run),
              [steps_taken(inner) for inner in suspended_runs(model)] in ([], ["none"]),
              len(model.calls), lab.shape(h.messages)],
             [True, "none", True, 0, ""],
             "The run exists from prompt() on, though none of it has happened yet, however long "
             "it is held unread (is_running is read here as the clocks say years have passed: "
             "no clock ends a run): prompt() "
             "returns the run without starting it, not one step of it, so a prompt() that "
             "primes the run with next() has run some of it, and so has one that primes the "
             "run_agent run inside and hands out a wrapper that has not started. Items: "
             "is_running, the steps the run has taken, whether the run_agent run over its model, "
             "if one is made yet, has taken none, requests, the transcript (Harness.prompt, "
             "lessons 7 and 8).")
    refused = await raised(lambda: h.prompt("Something else."), kind=RuntimeError)
    try:
        h.prompt("Something else.")
        kind = None
    except Exception as error:  # the refusal is a RuntimeError, not only named like one
        kind = isinstance(error, RuntimeError)
    other = harness.Harness(answers("Meanwhile."), SYSTEM, [])
    before = other.is_running
    meanwhile = await raised(lambda: lab.drive(other.prompt("And you?")), kind=RuntimeError)
    t.expect([refused, kind, before, meanwhile, lab.shape(other.messages), h.is_running],
             [BUSY, True, False, None, "U A", True],
             "A run handed out and not yet read is going: a second prompt() is refused, not "
             "let through and not put in its place. And it is this harness's run only: another "
             "harness is not running, and its own run goes through. Items: the second prompt(), "
             "whether what it raised is a RuntimeError (an `except RuntimeError` catches it, not "
             "only a class that takes the name: the Build section's item 4), the other "
             "harness's is_running, what its run raised, its transcript, is_running "
             "(Harness.prompt, lesson 8).")
    seen = []
    events = await lab.drive(run, on_event=lambda event: seen.append(held_long(h)))
    t.expect([seen, h.is_running,
              lab.shape([event["message"] for event in events if event["type"] == "message_end"])],
             [[True] * len(story(rounds)), False, recorded(story(rounds))],
             "True at every event of the run, however long it has gone (each read as the clocks "
             "say years have passed: a run is over when it ends, never when a clock says so), "
             "False once it is exhausted, and the run is the "
             "first prompt's, whole. Items: is_running at each event of a drawn run, and after "
             "it, what its events announced (Harness.is_running, lesson 8).")
    again = await raised(lambda: lab.drive(h.prompt("Once more.")), kind=RuntimeError)
    t.expect([again, lab.shape(h.messages)], [None, recorded(story(rounds)) + " U A"],
             "A run that is over is not going, though its caller still holds it, as `run = "
             "h.prompt(...)` does: prompt() asks whether a run is going, not whether the last one "
             "still exists. Items: what the next prompt() raised, the transcript "
             "(Harness.prompt, lesson 8).")


def walked_away(t):
    """A drawn job, a drawn number of its events a consumer reads before letting go, and a
    model that answers the job's requests up to there and then the next prompt."""
    replies, rounds = drawn_job(t)
    read = t.random.randint(1, len(story(rounds)) - 1)
    script = replies + [lab.say("Read them.")]
    return lab.ScriptedModel(script[:asked(story(rounds)[:read])] +
                             [lab.say("Second answer.")]), rounds, read


@lab_test("A consumer that walks away early, closing the run after a drawn number of events, "
          "ends it: is_running is False and a new prompt is accepted.")
async def test_walking_away_ends_the_run(t):
    ran = []
    model, rounds, read = walked_away(t)
    h = harness.Harness(model, SYSTEM, [looker(ran)])
    events = await lab.drive(h.prompt("Read them."), close_after=read)
    paths = [path for paths in rounds for path in paths]
    t.expect([len(events), h.is_running, lab.shape(h.messages), ran],
             [read, False, recorded(story(rounds)[:read]),
              [path for n, path in enumerate(paths, 1)
               if f"message_end R(c{n})" in story(rounds)[:read]]],
             "A run closed by its consumer is over: is_running is read off the run itself, and "
             "_run's finally closes the inner run, so no tool runs after the close. Items: "
             "events read, is_running, the transcript, the paths the tool ran on (Harness, "
             "lesson 8).")
    await lab.drive(h.prompt("Go on."))
    t.expect(lab.shape(h.messages), (recorded(story(rounds)[:read]) + " U A").strip(),
             "The next prompt is accepted and answered (Harness, lesson 8).")


def suspended_runs(model):
    """The run_agent runs over `model` that are not over: generators of run_agent (async ones
    from lesson 15 on) whose frame is still there. A run that ended, however, has none. A
    suspended generator holds its frame's locals, so it is among the referrers of `model`:
    asking for those is cheaper than walking every object the process holds."""
    import gc
    import inspect
    found = []
    for thing in gc.get_referrers(model):
        if not (inspect.isgenerator(thing) or inspect.isasyncgen(thing)):
            continue
        frame = thing.gi_frame if inspect.isgenerator(thing) else thing.ag_frame
        if (frame is not None and frame.f_code is harness.run_agent.__code__
                and any(value is model for value in frame.f_locals.values())):
            found.append(thing)
    return found


@lab_test("However a run ends (closed after a drawn number of events, let go of, exhausted, "
          "killed by a PowerCut, or by an exception thrown into it), the run_agent run inside it "
          "ends too, even while something else still holds it; an exception thrown into it comes "
          "back out to whoever threw it.")
async def test_the_inner_run_ends_with_the_run(t):
    def cut(arguments):
        raise lab.PowerCut("the power went off")

    found, thrown = [], []
    stops = {"a KeyboardInterrupt thrown into": KeyboardInterrupt("Ctrl-C"),
             "a SystemExit thrown into": SystemExit("the program is going away")}
    for ending in ("closed", "let go of", "exhausted", "a power cut", "thrown into", *stops):
        model, rounds, read = walked_away(t)
        h = harness.Harness(model, SYSTEM, [looker()])
        held = []  # the inner run, kept by the test as some other holder might keep it

        def hold(event):
            if not held:
                held.extend(suspended_runs(model))
        if ending == "closed":
            await lab.drive(h.prompt("Read them."), close_after=read, on_event=hold)
        elif ending == "let go of":
            await break_after(h.prompt("Read them."), read)
        elif ending == "exhausted":
            await lab.drive(h.prompt("Read them."))
        elif ending == "thrown into" or ending in stops:
            thrown.append(await throw_after(h.prompt("Read them."), read, hold, stops.get(ending)))
        else:
            model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"}))])
            h = harness.Harness(model, SYSTEM, [tool("look", cut, PATH)])
            await raised(lambda: lab.drive(h.prompt("Read it.")), kind=RuntimeError)
        # From lesson 15 on a run is async, and a run let go of is closed by the event loop, in
        # the turns after the consumer lets go: those turns are given before looking.
        await lab.ticks(3)
        found.append([ending, len(suspended_runs(model))])
    t.expect(found, [[ending, 0] for ending, _ in found],
             "However the run that prompt() handed out ends, the run_agent run inside it ends "
             "with it: a harness that keeps the inner run, or a _run that leaves it suspended, "
             "keeps a run going that nobody will ever finish. When the run is closed, or an "
             "exception is thrown into it, the test still holds the inner run, so only a _run "
             "that closes it itself, on every way out, ends it: in a finally (an except for "
             "GeneratorExit alone misses the throw, and so does one that names the "
             "exceptions it expects: the caller's is of a class of its own, and so does an except "
             "Exception, which a KeyboardInterrupt or a SystemExit thrown in passes by), or through a yield "
             "from, which hands close() and throw() on to it; leaving the run_agent run for "
             "Python to free is not enough, since another holder keeps it. Each item is "
             "[how the run ended, run_agent runs over its model still suspended] "
             "(Harness._run, lesson 8).")
    t.expect(thrown, ["Killed: killed by its caller", "KeyboardInterrupt: Ctrl-C",
                      "SystemExit: the program is going away"],
             "An exception thrown into the run comes back out to whoever threw it (the Build "
             "section's item 5: \"An exception thrown into the run comes back out to whoever "
             "threw it, as one raised by the model does: the run never swallows it\"): a _run "
             "that catches it and ends quietly hands its caller a StopIteration, as if the run "
             "had simply finished; and so does a KeyboardInterrupt or a SystemExit thrown in, "
             "which no run swallows either. Each item is what came out of one throw, as [type: text]: "
             "the caller's own exception, a KeyboardInterrupt, a SystemExit "
             "(Harness._run, lesson 8).")


@lab_test("A consumer that breaks out of its loop after a drawn number of events and lets go of "
          "the run, without calling close(), has ended it: is_running is False and a new prompt "
          "is accepted.")
async def test_breaking_out_ends_the_run(t):
    model, rounds, read = walked_away(t)
    h = harness.Harness(model, SYSTEM, [looker()])
    await break_after(h.prompt("Read them."), read)
    t.expect([h.is_running, lab.shape(h.messages)], [False, recorded(story(rounds)[:read])],
             "A run its consumer broke away from, and holds no more, is over: the harness keeps "
             "only a weak reference to its run, so that is_running cannot keep alive a run "
             "nobody will ever read again (Harness.is_running, lesson 8).")
    await lab.drive(h.prompt("Go on."))
    t.expect(lab.shape(h.messages), (recorded(story(rounds)[:read]) + " U A").strip(),
             "The next prompt is accepted and answered (Harness.prompt, lesson 8).")


@lab_test("A run closed before its first step is over too, though its caller still holds it, and "
          "so is a run handed out and dropped unread: is_running turns False and the next prompt "
          "is accepted.")
async def test_a_run_closed_before_it_starts(t):
    before = t.random.randint(0, 3)  # runs that ended well before the one closed at once
    model = answers(*[f"Answer {n}." for n in range(before)], "Only the next run asks.")
    h = harness.Harness(model, SYSTEM, [])
    for n in range(before):
        await lab.drive(h.prompt(f"Prompt {n}."))
    again = f"Hello again, {t.random.randint(1, 999)}."
    run = h.prompt("Never mind.")
    await lab.drive(run, close_after=0)
    t.expect([h.is_running, len(model.calls), lab.shape(h.messages)],
             [False, before, " ".join(["U A"] * before)],
             "A generator closed before its first step never runs its finally, so a flag "
             "cleared there would stay stuck, and the caller still holds the closed run, so "
             "nothing frees it either; read running off the run instead. Items: is_running, "
             "requests, the transcript, after a drawn number of earlier runs (Harness, "
             "lesson 8).")
    del run
    h.prompt("Forget it.")  # handed out and dropped at once, never read
    t.expect([h.is_running, len(model.calls)], [False, before],
             "A run handed out and dropped before its first step is over: nobody holds it, and "
             "the harness keeps only a weak reference, not the run until it starts. Items: "
             "is_running, requests (Harness, lesson 8).")
    await lab.drive(h.prompt(again))
    t.expect([lab.shape(h.messages), h.messages[-2]["content"]],
             [" ".join(["U A"] * (before + 1)), again],
             "The next prompt is accepted and answered. Items: the transcript, its last prompt "
             "(Harness, lesson 8).")


@lab_test("A PowerCut that kills a run at a call drawn under the seed leaves is_running False, "
          "and a new prompt is accepted; an exception from the model goes through to the "
          "consumer too.")
async def test_a_power_cut_ends_the_run(t):
    replies, rounds = drawn_job(t)
    cut_at = t.random.randint(1, sum(map(len, rounds)))  # the call whose tool loses the power
    until = story(rounds).index(f"tool_execution_start c{cut_at}")  # what was said before it
    started = []

    def during(arguments):
        started.append(arguments)
        if len(started) == cut_at:
            raise lab.PowerCut("the power went off")
    model = lab.ScriptedModel(replies[:asked(story(rounds)[:until])] + [lab.say("Hello.")])
    h = harness.Harness(model, SYSTEM, [looker(during=during)])
    t.expect(await raised(lambda: lab.drive(h.prompt("Read them.")), kind=RuntimeError),
             "PowerCut: the power went off",
             "The power cut goes through the run to the consumer (run_tool, lesson 4).")
    t.expect([h.is_running, lab.shape(h.messages)], [False, recorded(story(rounds)[:until])],
             "A run that died is over; the transcript holds what was recorded before the cut "
             "(Harness.is_running, lesson 8).")
    await lab.drive(h.prompt("Are you back?"))
    t.expect(lab.shape(h.messages), recorded(story(rounds)[:until]) + " U A",
             "The harness whose run died accepts the next prompt, on the same transcript (Harness, "
             "lesson 8).")
    got = await raised(lambda: lab.drive(h.prompt("And now?")), kind=RuntimeError)  # the script has run out
    t.expect([(got or "").split(":")[0], h.is_running],
             ["ScriptExhausted", False],
             "An exception from the model, here lab.ScriptExhausted as the script ran out, "
             "kills the run and goes through it to the consumer, as the power cut did: a _run "
             "that catches it ends the run in silence, with no ending on the transcript and no "
             "agent_end. Items: what the consumer got, is_running (Harness._run, lesson 8).")

    def unreachable(request):  # the client fails before any reply, as a dropped network does
        raise ConnectionError("the provider is unreachable")
    h = harness.Harness(lab.ScriptedModel([unreachable]), SYSTEM, [looker()])
    events = []
    got = await raised(lambda: lab.drive(h.prompt("Hello?"), on_event=events.append), kind=RuntimeError)
    t.expect([got, [event["type"] for event in events], lab.shape(h.messages), h.is_running],
             ["ConnectionError: the provider is unreachable",
              ["agent_start", "turn_start", "message_end"], "U", False],
             "Any exception from the model goes through the run to the consumer, a "
             "ConnectionError too, and the run hands on only run_agent's own events: none made "
             "up, no agent_end before the raise, no failed reply recorded in its place. Items: "
             "what the consumer got, the events it read before, the transcript, is_running "
             "(Harness._run, lesson 8).")


@lab_test("The harness's max_turns, drawn under the seed, applies to every run, and "
          "max_turns=0 allows no request.")
async def test_max_turns_applies_to_every_run(t):
    limit, runs = t.random.randint(1, 4), t.random.randint(2, 3)
    paths = [t.random.choice(FILES) for _ in range(limit * runs)]

    def again(request):  # the n-th request asks to look at the n-th drawn path
        return lab.reply(lab.call("look", {"path": paths[(len(model.calls) - 1) % len(paths)]}))
    model = lab.ScriptedModel([lab.forever(again)])
    h = harness.Harness(model, SYSTEM, [looker()], max_turns=limit)
    for n in range(runs):
        await lab.drive(h.prompt(f"Look, {n}."))
    t.expect(lab.shape(h.messages),
             " ".join("U " + "".join(f"A[c{n * limit + k}] R(c{n * limit + k}) "
                                     for k in range(1, limit + 1)) + "A(error)"
                      for n in range(runs)),
             "Harness(max_turns=n) hands max_turns to run_agent on each run, so each of a drawn "
             "number of runs stops after n turns (Harness, lesson 8).")
    t.expect([len(model.calls), h.messages[-1]["error_message"],
              [m["content"] for m in h.messages if m["role"] == "toolResult"]],
             [runs * limit, f"Agent stopped after max_turns={limit}",
              ["contents of " + path for path in paths]],
             "max_turns requests per run, and the stop says why. Items: requests, the last "
             "message's error_message, the results (Harness, lesson 8).")
    never = answers("Never asked.")
    h = harness.Harness(never, SYSTEM, [looker()], max_turns=0)
    capped = t.random.randint(12, 24)  # runs of no turns cost no request: many are cheap
    for n in range(capped):
        await lab.drive(h.prompt(f"Look, {n}."))
    t.expect([len(never.calls), lab.shape(h.messages), h.messages[-1].get("error_message")],
             [0, " ".join(["U A(error)"] * capped), "Agent stopped after max_turns=0"],
             "Harness(max_turns=0) is a cap of no turns, not \"no cap\": the harness keeps "
             "max_turns as given, and only None means no limit (lesson 5); and the cap holds "
             "for every run (the Build section's item 1: \"the cap on turns, which holds for "
             "every run\"), here each of 12 to 24 runs in a row. Items: requests, the "
             "transcript, its last error_message (Harness, lesson 8).")


def jobs_in_turn(t, runs):
    """`runs` drawn jobs, each ending with an answer, in one script; and each job's rounds."""
    script, jobs = [], []
    for n in range(runs):
        replies, rounds = drawn_job(t, most_rounds=2)
        script += replies + [lab.say(f"Answer {n}.")]
        jobs.append(rounds)
    return lab.ScriptedModel(script), jobs


def stories(jobs):
    """The stories of consecutive runs of `jobs` on one harness, call ids running on."""
    told, first = [], 1
    for rounds in jobs:
        told.append(story(rounds, first))
        first += sum(map(len, rounds))
    return told


@lab_test("Each run's first request holds all the runs before it: the harness keeps one "
          "transcript across a drawn number of runs.")
async def test_run_two_continues_run_one(t):
    model, jobs = jobs_in_turn(t, t.random.randint(2, 3))
    h = harness.Harness(model, SYSTEM, [looker()])
    for n in range(len(jobs)):
        await lab.drive(h.prompt(f"Job {n}."))
    told = stories(jobs)
    firsts = [sum(asked(events) for events in told[:n]) for n in range(len(jobs))]
    t.expect([lab.shape(model.calls[first].messages) for first in firsts],
             [" ".join(recorded(events) for events in told[:n] + [["message_end U"]])
              for n in range(len(jobs))],
             "The harness keeps the transcript between runs: each run starts from the ones "
             "before it. Each item is the shape of one run's first request (Harness, lesson 8).")
    t.expect(lab.shape(h.messages), " ".join(recorded(events) for events in told),
             "Every run is on the transcript (Harness, lesson 8).")


@lab_test("Every request of every run carries the harness's system prompt, word for word however "
          "long, and the specs of its tools.")
async def test_every_request_carries_system_and_specs(t):
    system = (t.random.choice(["", " ", "\n", "\t"]) +  # as given, the spaces around it too
              t.random.choice([SYSTEM, "You are terse.", "Answer in French.", "Be careful."]) +
              t.random.choice(["\n", " ", "\n\n", "\t"]))
    extra = t.random.sample(["bash", "write", "grep", "edit"], t.random.randint(1, 3))
    tools = [looker()] + [tool(name, lambda a: "", description=f"The {name} tool.")
                          for name in extra]
    t.random.shuffle(tools)
    if [each["name"] for each in tools] == sorted(each["name"] for each in tools):
        tools.reverse()  # two tools or more, never in the order of their names: the order given
    model, jobs = jobs_in_turn(t, t.random.randint(2, 3))
    h = harness.Harness(model, system, tools)
    given = list(tools)
    tools.append(tool("later", lambda a: "", description="A tool added after the harness."))
    for n in range(len(jobs)):
        await lab.drive(h.prompt(f"Job {n}."))
    # A long system prompt, as a project's rules pasted in: every character of it, its newline too.
    long = system + "Keep to the project's style.\n" * t.random.randint(200_000, 300_000)
    other = answers("Noted.")
    await lab.drive(harness.Harness(other, long, given).prompt("One more job."))
    t.expect([len(long), [request.system == long for request in other.calls]], [len(long), [True]],
             "Every request carries the system prompt word for word however long it is: one of "
             "over five million characters, ending in a newline, is not stripped or cut (the Build "
             "section's item 1: \"all that `run_agent` needs\"). Items: its length, whether "
             "each request carried it whole (Harness, lesson 8).")
    t.expect([[request.system, [spec["name"] for spec in request.tools]]
              for request in model.calls],
             [[system, [each["name"] for each in given]]] *
             sum(asked(events) for events in stories(jobs)),
             "What stays the same between runs is kept by the harness and handed to run_agent "
             "on each run: the system prompt and the tools, both drawn, the system prompt word "
             "for word, the spaces and newlines around it too (the Build section's item 1: "
             "\"all that `run_agent` needs\"), the tools in a list of "
             "its own, in the order given (two tools or more, never in the order of their "
             "names), so a tool the caller adds to its list afterwards is not offered. Each "
             "item is [system, tool names] of one request (Harness, lesson 8).")
    t.expect([request.tools == harness.tool_specs(given) for request in model.calls],
             [True] * sum(asked(events) for events in stories(jobs)),
             "The specs are tool_specs(tools), as in every request since lesson 3.")


LIST_NAMES = tuple(name for name in dir(list) if not name.startswith("_"))  # append, insert...
# What Python calls for a class's own making and for attributes, not for a caller's syntax.
MACHINERY = frozenset(dir(object)) | {"__getattr__", "__del__", "__class_getitem__",
                                      "__getstate__", "__setstate__", "__copy__", "__deepcopy__",
                                      "__weakref__", "__dict__", "__slots__", "__annotations__"}


def callers(h):
    """The public methods of harness `h`, prompt() too, by name: what a caller could try; the
    names a list answers to (append, insert, pop, ...) where `h` answers to them though dir()
    may not show them (a __getattr__ that hands them on); and each special method its class
    defines, which Python calls for a caller's own syntax (h << ..., h |= ..., h -= ...,
    h[0] = ..., del h[0], h(...)), by its name."""
    names = [name for name in dir(h) if not name.startswith("_")]
    names += [name for name in LIST_NAMES if name not in names]
    names += [name for kind in type(h).__mro__ if kind is not object for name in vars(kind)
              if name.startswith("__") and name.endswith("__") and name not in MACHINERY]
    found = []
    for name in dict.fromkeys(names):
        try:
            if callable(getattr(h, name)):
                found.append(name)
        except Exception:  # a name the harness does not answer to
            pass
    return found


def spelled(method):
    """The names the code of `method` spells, as strings (a key it looks for in **keywords)."""
    code = getattr(getattr(method, "__func__", method), "__code__", None)
    codes, names = [code] if code is not None else [], []
    while codes:
        for const in codes.pop().co_consts:
            if isinstance(const, str) and const.isidentifier():
                names.append(const)
            elif hasattr(const, "co_consts"):
                codes.append(const)
    return names


def written(h):
    """The transcript of `h` as it stands: each message's identity and every key and value."""
    return [(id(message), repr(message)) for message in h.messages]


ATTRIBUTES = "(its public attributes)"  # what test_only_the_run_writes tries besides methods


KEYS = ("role", "content", "text", "message", "msg", "note", "words", "prompt")  # for **keywords


def by_name(method, value):
    """Each parameter of `method` a caller can name, keyword-only ones too, given `value`; and
    for a method that takes **keywords, the names a message's parts go by (KEYS) as well."""
    import inspect
    try:
        parameters = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):
        return {}
    named = {p.name: value for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD,
                                                             p.KEYWORD_ONLY)}
    if any(p.kind == p.VAR_KEYWORD for p in parameters):
        named.update({key: value for key in KEYS + tuple(spelled(method)) if key not in named})
    return named
OPERATORS = ("(h.messages = a tuple or a list, h += one message or two, del h[-1], h[-1] = ..., "
             "h[-1:] = ..., del h[:1], del h.messages, h(message))")  # no method name


def held_in(value):
    """What an object holds: its attributes, private ones too, in its __dict__ and in the
    __slots__ of its class and those it comes from; the list a list's own bound method (its
    append) belongs to; and the lists a generator's frame holds (an inbox a caller send()s to)."""
    import inspect
    import types
    inside = getattr(value, "__dict__", None)
    inside = list(inside.values()) if isinstance(inside, dict) else []
    for kind in type(value).__mro__:
        slots = kind.__dict__.get("__slots__", ())
        for slot in [slots] if isinstance(slots, str) else slots:
            if slot not in ("__dict__", "__weakref__") and hasattr(value, slot):
                inside.append(getattr(value, slot))
    owner = getattr(value, "__self__", None)  # a list's own append, handed out as a method
    if isinstance(value, types.BuiltinMethodType) and isinstance(owner, (list, dict)):
        inside.append(owner)
    if inspect.isgenerator(value) and value.gi_frame is not None:  # a generator's own lists
        inside += [each for each in value.gi_frame.f_locals.values()
                   if isinstance(each, (list, tuple, dict))]
    return inside


def way_in(h, value, seen=None, run=None):
    """Whether `value`, something the harness handed out, is a way into its transcript: a list
    that a message appended to shows up in h.messages, or a list, a tuple, a dict (not a
    message) or an object holding such a list, among its attributes, private ones too, slots
    too (a namespace, a second harness), however deep. The message is taken out again. A
    function or a method handed out (but a public method of `h`, which is called anyway) is
    called with a message, and a generator (but `run`, and a run_agent run) is sent one, as a
    caller holding a callback or an inbox does."""
    import inspect
    import types
    seen = set() if seen is None else seen
    if id(value) in seen:
        return False
    seen.add(id(value))
    if isinstance(value, (types.FunctionType, types.MethodType)) and not (
            getattr(value, "__self__", None) is h and not value.__name__.startswith("_")):
        before = written(h)
        try:
            value(harness.user_message("Slipped in."))
        except Exception:
            pass
        return written(h) != before
    if (inspect.isgenerator(value) and value is not run
            and value.gi_code is not getattr(harness.run_agent, "__code__", None)
            and inspect.getgeneratorstate(value) in (inspect.GEN_CREATED, inspect.GEN_SUSPENDED)):
        before = written(h)
        try:
            if inspect.getgeneratorstate(value) == inspect.GEN_CREATED:
                next(value)
            value.send(harness.user_message("Slipped in."))
        except Exception:
            pass
        if written(h) != before:
            return True
    if isinstance(value, list):
        before = written(h)
        value.append(harness.user_message("Slipped in."))
        try:
            if written(h) != before:
                return True
        finally:
            value.pop()
        inside = value
    elif isinstance(value, tuple):
        inside = value
    elif isinstance(value, dict):  # a message's own lists are the run's record, not a way in
        inside = [] if "role" in value else list(value.values())
    else:
        inside = held_in(value)
    return any(way_in(h, each, seen, run) for each in inside
               if isinstance(each, (list, tuple, dict)))


def through_operators(h):
    """Each write a caller could try on harness `h` with no method name: h.messages assigned a
    tuple and a list, h += [message] and two messages, del h[-1], h[-1] = message, and with a slice, h[-1:] = [message] and
    del h[:1], del h.messages, and h called with a message or a list of one (h(...), a
    special method a caller reaches by syntax); whether any changed the transcript (what one raised left aside: a harness may
    refuse them, as a property with no setter does)."""
    import operator
    message = harness.user_message("Write this down.")
    tries = [lambda: setattr(h, "messages", (message,)), lambda: setattr(h, "messages", [message]),
             lambda: operator.iadd(h, [message]), lambda: operator.iadd(h, [message, message]),
             lambda: operator.delitem(h, -1),
             lambda: operator.setitem(h, -1, message),
             lambda: operator.setitem(h, slice(-1, None), [message]),
             lambda: operator.delitem(h, slice(None, 1)), lambda: delattr(h, "messages"),
             lambda: h(message), lambda: h([message])]  # a call: a special method, a caller's
    changed = False
    for write in tries:
        before = written(h)
        try:
            write()
        except Exception:
            pass
        changed = changed or written(h) != before
    return changed


TOOL_RESULT = {"role": "toolResult", "tool_call_id": "c1", "tool_name": "look",
               "content": "Write this down.", "is_error": False}


@lab_test("One writer: while a run is going, no method of the harness but the run changes the "
          "transcript. Each public method, prompt() too, called at a drawn event with a message "
          "of any role, a (role, text) pair, a text, a role (system too) and a text, a number, a place and a role and a text, and "
          "more texts after them, a place and a message, a role, a text and a place, an earlier "
          "snapshot, a message of its own, a list, a message, a text or True for each parameter by name "
          "(for **keywords, each name a message goes by, msg too, and each its code spells), or nothing (after a failed reply too), "
          "leaves h.messages as it was, hands back no way into it, and the run goes on "
          "as one run whose transcript is what its events announced; so do the names a list "
          "answers to and the special methods of h's class, by name; nothing a method or an "
          "attribute handed out before the run is a way into it either (a list's own append, a "
          "generator holding the list or sent a message, a callback called), no public attribute assigned a "
          "list writes; so do h.messages = a tuple or a list, h += one message "
          "or two, del h[-1], h[-1] = ... and the same with a slice, h[-1:] = ..., del h[:1] "
          "and del h.messages, and so does h(message), a call of the harness itself")
async def test_only_the_run_writes(t):
    replies, rounds = drawn_job(t)
    at = t.random.randint(2, len(story(rounds)) - 1)
    last = len(story(rounds)) - 1  # the run's last turn_end, after its reply failed
    more = t.random.randint(2, 6)  # texts after a place, a role and a text
    found = []
    for name in callers(harness.Harness(answers(), SYSTEM, [looker()])) + [ATTRIBUTES,
                                                                          OPERATORS]:
        given = [harness.user_message("Hello."), lab.say("Hi.")]
        h = harness.Harness(lab.ScriptedModel([lab.say("Hi again.")] + replies +
                                              [lab.fail("overloaded")]), SYSTEM, [looker()], given)
        await lab.drive(h.prompt("Hello again."))  # a run before: what it leaves is tried too
        events, changed, idle = [], [], []
        if name not in (ATTRIBUTES, OPERATORS):  # called between runs, with nothing
            try:
                idle.append(getattr(h, name)())
            except Exception:
                pass
        else:  # each public attribute read between runs
            idle += [getattr(h, other, None) for other in dir(h) if not other.startswith("_")]
        given = list(h.messages)  # what a call with no run going left, which is the harness's
        run = h.prompt("Read them.")

        def call_it(event, h=h, name=name, events=events, changed=changed, idle=idle, run=run,
                    earlier=tuple(given[:2])):  # a snapshot from before the run before
            events.append(event)
            if len(events) == last and name not in (ATTRIBUTES, OPERATORS):
                before = written(h)  # the transcript ends with a failed reply: called with nothing
                try:
                    getattr(h, name)()
                except Exception:
                    pass
                changed.append(written(h) != before)
            if len(events) != at:
                return
            changed.append(any(way_in(h, kept, run=run) for kept in idle))  # kept from before
            if name == ATTRIBUTES:  # no call: each public attribute's list tried as a way in
                changed.append(any(way_in(h, getattr(h, other), run=run) for other in dir(h)
                                   if not other.startswith("_") and other != "messages"))
                for other in dir(h):  # and each assigned a message, a list, an earlier snapshot
                    try:
                        old = getattr(h, other)
                    except Exception:
                        continue
                    if other.startswith("_") or other == "messages" or callable(old):
                        continue
                    for value in ((harness.user_message("Write this down."),),
                                  [harness.user_message("Write this down.")], earlier):
                        before = written(h)
                        try:
                            setattr(h, other, value)
                        except Exception:  # an attribute a caller cannot assign
                            continue
                        changed.append(written(h) != before)
                        try:
                            setattr(h, other, old)
                        except Exception:
                            pass
                return
            if name == OPERATORS:
                changed.append(through_operators(h))
                return
            message, own = harness.user_message("Write this down."), h.messages[-1]
            for arguments, named in [(each, {}) for each in (
                    [message], [lab.say("Write this down.")], [dict(TOOL_RESULT)],
                    ["Write this down."], ["user", "Write this down."],
                    ["assistant", "Write this down."], ["toolResult", "Write this down."],
                    ["system", "Write this down."], [0],
                    [0, "user", "Write this down."],
                    [0, "user", "Write this down."] + ["Write this down."] * more,
                    [[message]], [{"role": "system", "content": "Write this down."}],
                    [("user", "Write this down.")], [0, message], [-1, message],
                    [message, 0], ["user", "Write this down.", 0], [earlier], [own], [])] + [
                    ([], by_name(getattr(h, name), message)),
                    ([], by_name(getattr(h, name), "Write this down.")),
                    ([], by_name(getattr(h, name), True))]:
                before = written(h)
                try:
                    back = getattr(h, name)(*arguments, **named)
                except Exception:  # a method may refuse what it is handed: that writes nothing
                    back = None
                changed.append(written(h) != before)
                changed.append(way_in(h, back, run=run))  # what it handed back, as a way in
        died = False
        try:
            await lab.drive(run, on_event=call_it)
        except Exception:  # a run a method broke: only the transcript and the events count here
            died = True  # its last message may be recorded with its event never handed on
        told = [id(event["message"]) for event in events if event["type"] == "message_end"]
        told, mine = [id(m) for m in given] + told, [id(m) for m in h.messages]
        ends = [n for n, event in enumerate(events, 1) if event["type"] == "agent_end"]
        if (any(changed) or mine[:len(told)] != told or len(mine) > len(told) + died
                or ends not in ([], [len(events)])):
            found.append([name, lab.shape(h.messages)])
    t.expect(found, [],
             "The run is the transcript's one writer while it goes (Harness, lesson 8, the Build "
             "section's item 6, \"One writer\"), so no message that is not the run's lands on "
             f"it. At event {at} of a run, each public method of the harness, prompt() too, was "
             "called with a user message, an assistant message, a toolResult, a system message, "
             "a (role, text) tuple, a text, a role and a text (each role: user, assistant, toolResult, system), the number 0, 0 and a role and a text, the same with 2 to 6 more texts after "
             "them, a list holding a message, a place and a message (0 and -1, and a message then 0), "
             "a role, a text and a place, a snapshot taken before the run before, the transcript's own "
             "last message, with "
             "nothing, and with a message, then a text, then True, for every parameter by name, keyword-only ones too, "
             f"and for a method of **keywords each of the names {', '.join(KEYS)} and each name "
             "its own code spells "
             "(what it raised left aside); and at the run's last turn_end, when the transcript "
             "ends with a failed reply, each was called with nothing. The methods tried are those "
             "dir(h) shows, each name a list answers to (append, insert, pop, remove...) that h "
             "answers to too, and each special method h's class defines, by its name (h << ..., "
             "h |= ..., h -= ..., h[0] = ..., del h[0], h(text)). A list it handed back, or any public attribute's "
             f"list (found as \"{ATTRIBUTES}\"), or what each method, called with nothing, or each "
             "public attribute handed out before the run, after an earlier run of the same harness (a list kept from between runs is a "
             "way in all the same), or a list held inside either, however deep (a namespace, a "
             "tuple, a dict, a second harness over the same list, an object's slots, dicts in dicts, a list in a list, "
             "the list a bound append belongs to, a list a generator holds), was tried with an append; "
             "a function or a method of the harness handed out was called with a message, and a "
             "generator handed out was sent one (a callback, an inbox); each public attribute was "
             "assigned a tuple and a list of a message and a snapshot taken before the run before (a "
             "setter is a way in too); h.messages was assigned a tuple and a list, and += "
             "with one message and with two, del h.messages, h(message) and h([message]) (a special "
             "method a caller reaches by syntax is a caller's: the Build section's item 6, "
             "\"except the special methods Python calls for a caller's own syntax\"), "
             f"del and item assignment, with an index and with a slice, tried on h (found as "
             f"\"{OPERATORS}\"); then the "
             "run was read on. Found are [method, lab.shape of the transcript after the run] "
             "where h.messages had changed at the call, a list handed out let a message in, "
             "the transcript (its shape, and each message's identity) was not "
             "the messages given and those the events announced, the very objects and no more "
             "(but for the last message of a run a call broke, whose event never came), "
             "or the run went on past an agent_end, as a second run_agent run kept for later "
             "inside the first (the Build section: \"quietly kept for later\").")


def spied(loop, own, made_as=None, lists=None, caps=None):
    """run_agent as `loop` is, with each event it makes kept in `own` as it goes by (an async
    run from lesson 15 on), so a test can tell run_agent's own events from copies; `made_as`,
    if given, gets each event's repr as run_agent made it, and `lists` the kind of transcript
    each run_agent run was handed, and `caps` the max_turns each was handed (None for none)."""
    def spy(*arguments, **keywords):
        if lists is not None:
            given = arguments[2] if len(arguments) > 2 else keywords.get("messages")
            lists.append(type(given).__name__)
        if caps is not None:
            caps.append(keywords.get("max_turns"))
        made = loop(*arguments, **keywords)
        if hasattr(made, "__aiter__"):
            async def kept_async():
                while True:
                    try:
                        own.append(await made.__anext__())
                    except StopAsyncIteration:
                        return
                    if made_as is not None:
                        made_as.append(repr(own[-1]))
                    yield own[-1]
            return kept_async()

        def kept():
            while True:
                try:
                    own.append(next(made))
                except StopIteration:
                    return
                if made_as is not None:
                    made_as.append(repr(own[-1]))
                yield own[-1]
        return kept()
    return spy


@lab_test("At every event, h.messages already ends with the message that event announces.")
async def test_the_snapshot_at_every_event(t):
    replies, rounds = drawn_job(t)
    earlier = [harness.user_message("Hello."), lab.say("Hi.")]  # a run before this one
    h = harness.Harness(lab.ScriptedModel(replies + [lab.say("Read them.")]), SYSTEM, [looker()],
                        earlier)
    seen, own, loop = [], [], harness.run_agent
    made_as, handed_as, lists, caps = [], [], [], []

    def look(event):
        handed_as.append(repr(event))
        if event["type"] == "message_end":
            seen.append([lab.shape([event["message"]]), lab.shape(h.messages),
                         h.messages[-1] is event["message"]])
    # the test keeps run_agent's own events beside the run, and each as it was made
    harness.run_agent = spied(loop, own, made_as, lists, caps)
    try:
        events = await lab.drive(h.prompt("Read them."), on_event=look)
    finally:
        harness.run_agent = loop
    t.expect([len(events) == len(own), [event is mine for event, mine in zip(events, own)]],
             why="The run hands on each event of run_agent (the Build section's item 5), the "
                 "very dict run_agent made: not copies, however shallow. Items: as many "
                 "events handed on as run_agent made, and whether each is run_agent's own "
                 "(Harness._run, lesson 8).")
    t.expect([lists, [mine == theirs for mine, theirs in zip(handed_as, made_as)]],
             [["list"], [True] * len(made_as)],
             "The run hands run_agent the harness's transcript, a list of its own (the Build "
             "section's items 1 and 5: \"in a list of its own\"), and hands on each event as "
             "run_agent made it, nothing written into it: not a key added to a message, not an "
             "agent_end's messages changed (items 5 and 6: \"No method of the harness adds a "
             "message to it, takes one out or changes one\"). Items: the kind of list each "
             "run_agent run was handed, and whether each event handed on reads as run_agent made "
             "it, for a drawn run (Harness._run, lesson 8).")
    t.expect(caps, [None],
             "A harness made with no max_turns hands run_agent no cap (max_turns=None), and no "
             "cap of its own: only None means no limit (lesson 5), and the harness keeps the cap "
             "as given (the Build section's item 1: \"the cap on turns, which holds for every "
             "run\"). Items: the max_turns each run_agent run was handed (Harness, lesson 8).")
    shapes = recorded(story(rounds)).split()
    t.expect(seen, [[token, " ".join(["U", "A"] + shapes[:n]), True]
                    for n, token in enumerate(shapes, 1)],
             "The harness's run writes to its own list before each event reaches the consumer "
             "(Harness and run_agent, lessons 7 and 8), and hands on run_agent's own events, "
             "not copies: the message announced is the very object recorded. Each row: "
             "[announced, h.messages, the very same message], for a drawn run.")
    # A long job: every one of its more than a thousand events is handed on, none held back.
    rounds, wide = t.random.randint(101, 106), t.random.randint(300, 320)
    h = harness.Harness(lab.ScriptedModel(
        [lab.reply(lab.call("look", {"path": f"f{n}.py"})) for n in range(rounds)] +
        [lab.reply(*[lab.call("look", {"path": f"g{n}.py"}) for n in range(wide)])] +
        [lab.say("Read them all.")]), SYSTEM, [looker()])
    events = []
    with hours_pass(YEAR, processor=True, dates=True):  # years at every reading: no clock ends it
        await lab.drive(h.prompt("Read every file."), on_event=events.append)
    t.expect([len(h.messages), sum(e["type"] == "turn_end" for e in events), events[-1]["type"]],
             [2 * rounds + wide + 3, rounds + 2, "agent_end"],
             "The run hands on every event of run_agent, however many, with the harness's cap, "
             "None here, and no cap of its own (the Build section's items 1 and 5: \"the cap on "
             "turns, which holds for every run\", \"hands on each event of `run_agent`\"): a "
             "job of 101 to 106 rounds of one call, then a reply of 300 to 320 calls, makes "
             "more than a thousand events and 500 messages, and none is held back or cut off, "
             "and no turn is refused, though the clocks say years pass at every reading (no "
             "clock ends a run). The items are [messages recorded, turn_end events, the "
             "last event] (Harness._run, lesson 8).")
