"""Lesson 5, lab 1: every way out. The tests of error_message, the max_turns check at the top of
a turn, a failed reply, and context_for_model, the view each request carries.

A run ends in one of three ways: a reply asks for nothing, max_turns model calls have been
made, or a reply failed. Each is recorded, never raised.

Each test draws its cases (max_turns, how many calls a turn asks for, how many rounds come
before a failure, what a record holds) from t.random, so it checks its rule over a family of
cases; the same seed draws the same ones.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 5 tests.py
"""
import asyncio
import copy
import http.client
import json
import operator
import socket
import ssl
import time
import urllib.error

import harness
import lab
from lab.kit import Uncounted, hours_pass, lab_test, raised, tool, worst_luck

LAB = "5.1"
SYSTEM = "You help with a small project."
YEAR = 365 * 24 * 60  # in minutes, hours_pass's step: every reading of a clock is years on
PROMPTS = ["Hello?", "Are you there?", "Why did you stop?", "Tick.", "Try again.",
           "Naïve question: what happened?"]
REASONS = ["overloaded", "connection reset", "rate limited", "boom", "server error 500",
           "Agent stopped after max_turns=2"]
# Reasons as a provider may give them, with a full stop, spaces or a line ending around them
# (a "\r\n" among them, as a server's headers end): kept as given.
UNTIDY = ["Connection reset by peer.", " overloaded\n", "Server error 500. ", "\tRate limited.",
          "502 Bad Gateway\r\n"]
# The reason lesson 16's provider code gives a reply cut off at the output limit (a real
# provider's "length" or "max_tokens").
OUTPUT_LIMIT = "The reply was cut off at the output limit"
# A reason that invites one more try; a failed reply is never asked again, whatever it says.
TIMEOUT = "Timeout: the request timed out"
# More reasons that invite a case of their own (one more try, a retry on a 429, the calls that
# came whole run, an exception raised after all): a failed reply is recorded as it came, runs none of its calls
# and ends the run without raising, whatever it says.
TEMPTING = ["rate limited", "503 Service Unavailable", "429 Too Many Requests", "stream ended",
            "authentication failed: check your API key", "server busy", "stream cut",
            "502 Bad Gateway", "pause_turn", "Retry-After: 30",
            "Internal server error, please try again", "529 Overloaded"]

# What a client's network stack raises besides: a name that did not resolve, a body cut short,
# a handshake that failed, a status line that made no sense. Each goes through, as above.
NETWORK = (socket.gaierror(-2, "Name or service not known"), socket.herror(1, "Unknown host"),
           ConnectionRefusedError(111, "Connection refused"),
           OSError(101, "Network is unreachable"), EOFError("EOF from the provider"),
           ssl.SSLError(1, "[SSL] record layer failure"),
           ssl.SSLEOFError(8, "EOF occurred in violation of protocol"),
           ssl.SSLCertVerificationError(1, "certificate verify failed"),
           http.client.IncompleteRead(b'{"type": "message", "con'),
           http.client.BadStatusLine("HTTP/1.1 2OO OK"), http.client.LineTooLong("header line"),
           http.client.ResponseNotReady("Idle"), http.client.CannotSendRequest("Request-sent"),
           urllib.error.URLError("no host given"),
           UnicodeDecodeError("utf-8", b"\xff\xfe", 0, 1, "invalid start byte"))


class Cancelled(asyncio.CancelledError):
    """What an async client raises when the task it runs in is cancelled during a request: an
    exception like the rest, which goes through. A class of this file's own, so that a test
    catches this one only, never a cancellation of its own task."""


def lengthy(t):
    """A reason as a provider's whole answer may give it, its length drawn from t.random: a
    status, then its JSON body, then the tries a client made, from about 150 characters to
    several thousand."""
    tries = ", ".join(f"try {n} failed" for n in range(1, t.random.randint(5, 400)))
    return ('Error code: 529 - {"type": "error", "error": {"type": "overloaded_error", '
            f'"message": "Overloaded"}}}} ({tries})')


def ticker(ran=None):
    """A tool `tick` that answers "tock", noting each run in `ran`."""
    return tool("tick", lambda arguments: (ran.append(1) if ran is not None else None) or "tock")


def ticks(width):
    """A reply that asks for `width` ticks, each a call block of its own."""
    return lab.reply(*[lab.call("tick") for _ in range(width)])


def endless(widths=()):
    """A model that asks for more ticks on every request: widths[n] of them on request n, and
    one on every request after those. (After 60 results it gives up and answers, so that a run
    with no working limit fails its test instead of running for ever.)"""
    def again(request):
        if sum(m["role"] == "toolResult" for m in request.messages) >= 60:
            return lab.say("I give up.")
        return lab.reply(lab.call("tick"))
    return lab.ScriptedModel([ticks(width) for width in widths] + [lab.forever(again)])


def shape_of(widths, end="A"):
    """The shape of a run whose turns asked for `widths` calls each, every one answered (the
    model numbers calls c1, c2, ... across the run), then `end`: "U A[c1,c2] R(c1) R(c2) A"."""
    parts, number = ["U"], 0
    for width in widths:
        ids = [f"c{number + k}" for k in range(1, width + 1)]
        number += width
        parts += ["A[" + ",".join(ids) + "]"] + [f"R({id})" for id in ids]
    return " ".join(parts + ([end] if end else []))


class Handed(lab.ScriptedModel):
    """A scripted model that also keeps every list it is handed, the list object itself, so a
    test can tell a view made for each request from the record, or from a list handed before."""

    def __init__(self, replies):
        super().__init__(replies)
        self.handed = []

    def complete(self, system, messages, tools=()):
        self.handed.append(messages)
        return super().complete(system, messages, tools)

    async def acomplete(self, system, messages, tools=(), signal=None):
        self.handed.append(messages)
        return await super().acomplete(system, messages, tools, signal)


async def run(model, tools, prompt, messages=None, **options):
    messages = [] if messages is None else messages
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, prompt, **options))
    return messages


@lab_test("error_message(\"boom\") is exactly the assistant message {\"role\": \"assistant\", "
          "\"content\": [], \"stop_reason\": \"error\", \"error_message\": \"boom\"}, whatever "
          "the reason, and a new message each time.")
async def test_error_message(t):
    reasons = t.random.sample(REASONS + ["", "naïve reason"], 3) + UNTIDY  # each, not a draw
    endings = [harness.error_message(reason) for reason in reasons]
    t.expect(endings,
             [{"role": "assistant", "content": [], "stop_reason": "error", "error_message": reason}
              for reason in reasons],
             "An ending is recorded as an assistant message with no content, labelled \"error\", "
             "saying why, its reason kept word for word, spaces and full stop included, and "
             "line endings too. Each "
             "item is error_message of one reason: three drawn, then every untidy one, each "
             "with its spaces, line ending or full stop (Build item 1, \"`error_message` holding "
             "`text`\") (error_message, lesson 5).")
    first, second = harness.error_message(reasons[0]), harness.error_message(reasons[0])
    first["content"].append({"type": "text", "text": "A note a frontend added."})
    # A provider's whole answer as the reason, as long as the seed draws it: a new message too.
    # Padded past eight million characters, up to twelve million, as the seed draws.
    told = lengthy(t) + " (and again)" * t.random.randint(700_000, 1_000_000)
    long_one, long_two = harness.error_message(told), harness.error_message(told)
    t.expect([first is second, second["content"], harness.error_message(reasons[2])["content"],
              long_one is long_two, long_one["content"] is long_two["content"],
              long_one["error_message"] == told,
              harness.error_message("") is harness.error_message(""),
              len({id(ending["content"]) for ending in endings}) == len(endings)],
             [False, [], [], False, False, True, False, True],
             "Each call makes a new message with a content list of its own, the same reason "
             "twice included, however long, and an empty reason too: a frontend that adds a "
             "note to one ending's content changes no other; and a long reason is held whole "
             "(Build item 1, \"its `content` a list of its own\", \"`error_message` holding "
             "`text`\"). The items are [two endings of the same reason are one dict, the "
             "second's content once a note went into the first's, the content of an ending made "
             f"after, two endings of one reason {len(told):,} characters long are one dict, "
             "their contents are one list, the first holds that reason whole, two endings of the "
             "reason \"\" are one dict, the endings of the first check (every untidy reason among "
             "them) each have a content list of their own] (error_message, lesson 5).")
    limit = t.random.randint(1, 40)
    t.expect(lab.show([harness.error_message(f"Agent stopped after max_turns={limit}")]),
             f"assistant -> (nothing)  [error: Agent stopped after max_turns={limit}]",
             "As lab.show prints it (error_message, lesson 5).")


@lab_test("A model that asks for a tool on every reply, run with max_turns=3 (or any other "
          "limit), is called 3 times, and the record ends with an error message saying "
          "\"Agent stopped after max_turns=3\".")
async def test_max_turns_stops_an_endless_run(t):
    limits, endings, made = [t.random.randint(2, 5), t.random.randint(6, 28)], [], []
    given = harness.error_message

    def making(text):  # error_message as given, noting each message it makes
        made.append(given(text))
        return made[-1]
    # The first cap twice: two runs, two endings. The second of them goes on the first's
    # record, with the same prompt and the same cap: it makes its own requests, from 0.
    records = []
    for n, limit in enumerate(limits + limits[:1]):
        model, messages = endless(), records[0] if n == 2 else []
        records.append(messages)
        before = len(messages)
        harness.error_message = making
        try:
            t.expect(await raised(lambda: run(model, [ticker()], "Keep going.", messages,
                                              max_turns=limit)),
                     None, "Reaching max_turns ends the run with a message on the record, never "
                           "raised: run_agent returns normally (run_agent, lesson 5).")
        finally:
            harness.error_message = given
        endings.append(messages[-1])
        t.expect(len(model.calls), limit,
                 f"max_turns counts model calls: {limit}, then no more, so its check sits at "
                 "the top of a turn, before the model call" + (
                     ". This run went on the record of an earlier run stopped by the same cap, "
                     "with the same prompt: max_turns counts each run's own requests, from 0, "
                     "and keeps nothing from one run to the next (Build item 2, \"A run given "
                     "`max_turns=N` makes at most N requests\")" if n == 2 else "") +
                 " (run_agent, lesson 5).")
        t.expect(lab.shape(messages[before:]), shape_of([1] * limit, "A(error)"),
                 "The stop is recorded as the run's last message, after every call of the last "
                 "turn has its result (run_agent, lesson 5).")
        t.expect(messages[-1], harness.error_message(f"Agent stopped after max_turns={limit}"),
                 "The last message is error_message(f\"Agent stopped after max_turns="
                 "{max_turns}\") (run_agent, lesson 5).")
        t.expect(any(message is messages[-1] for message in made), True,
                 "The stop is an ending made by error_message, called by the run, not a dict "
                 "written out beside it: whether the run's last message is one that "
                 "error_message made during the run (run_agent, lesson 5).")
    endings[0]["content"].append({"type": "text", "text": "A note a frontend added."})
    t.expect([endings[2] is endings[0], endings[2]["content"]], [False, []],
             f"Two runs stopped by the same cap, max_turns={limits[0]}, end on two endings, "
             "each made by its own call of error_message, sharing nothing: a note added to the "
             "first's content is not in the second's. The items are [the second run's ending "
             "is the first's, its content] (error_message; run_agent, lesson 5).")
    model, messages = endless(), []
    await run(model, [ticker()], "Keep going.", messages, max_turns=0)
    t.expect([len(model.calls), lab.shape(messages), messages[-1].get("error_message")],
             [0, "U A(error)", "Agent stopped after max_turns=0"],
             "max_turns=0 is a cap of no turns, not \"no cap\": only None means no limit, so "
             "test the cap against None, not for truth. The items are [requests, the record, "
             "its last error_message] (run_agent, lesson 5).")
    # The cap holds whatever the run is given besides: no tools at all (each tick asked for
    # gets an unknown tool's result), and a cap past a hundred and fifty, its size drawn up to
    # 199, run twice.
    big, stops = t.random.randint(151, 199), []
    for limit, tools in ((limits[0], []), (big, [ticker()]), (big, [ticker()])):
        model, messages = lab.ScriptedModel([lab.forever(lambda request: lab.reply(
            lab.call("tick")) if len(model.calls) <= limit + 20 else lab.say("I give up."))]), []
        await run(model, tools, "Keep going.", messages, max_turns=limit)
        stops.append(messages[-1])
        t.expect([len(model.calls), messages[-1].get("error_message")],
                 [limit, f"Agent stopped after max_turns={limit}"],
                 f"A run given max_turns={limit} makes at most {limit} requests, whatever else "
                 f"it is given: here {len(tools)} tools, and a model that asks for a tick on "
                 "every reply. The cap is the same check at the top of every turn, with or "
                 "without tools, for a cap of any size (Build item 2). The items are [requests, "
                 "the last error_message] (run_agent, lesson 5).")
    t.expect([stops[2] is stops[1], stops[2]["content"] is stops[1]["content"]], [False, False],
             f"Two runs stopped by the same cap past a hundred, max_turns={big}, end on two "
             "endings sharing nothing, each made by its own call of error_message, for a cap of "
             "any size (Build item 1, \"no ending shares anything with another\"). The items "
             "are [the second run's ending is the first's, their content is one list] "
             "(error_message; run_agent, lesson 5).")
    # A cap below 0 allows at most that many requests: none, and the stop is still recorded,
    # its number as f"{max_turns}" writes it, a cap past a thousand included (-1000, not -1,000),
    # and one of any size: as many digits as the seed draws, up to thirty.
    # The cap of -1 comes twice, two runs: two endings sharing nothing.
    negatives = []
    for limit in (-1, -t.random.randint(2, 5), -t.random.randint(1000, 10 ** 6),
                  -t.random.randint(10 ** 7, 10 ** t.random.randint(8, 30)), -1):
        model, messages = endless(), []
        negatives.append(messages)
        got = await raised(lambda: run(model, [ticker()], "Keep going.", messages,
                                       max_turns=limit))
        t.expect([got, len(model.calls), lab.shape(messages), messages[-1].get("error_message")
                  if messages else None],
                 [None, 0, "U A(error)", f"Agent stopped after max_turns={limit}"],
                 f"max_turns={limit} allows at most {limit} requests, so none at all, like 0, "
                 "and the stop is recorded, never raised: a cap below 0 is still a cap past "
                 "which the turn is. Its text is Agent stopped after max_turns=N with the "
                 "number in place of N as Python writes it, no separator between its "
                 "thousands (Build item 2). The items are [what run_agent raised, requests, the "
                 "record, its last error_message] (run_agent, lesson 5).")
    first, again = negatives[0][-1], negatives[-1][-1]
    first["content"].append({"type": "text", "text": "A note a frontend added."})
    t.expect([again is first, again["content"]], [False, []],
             "Two runs stopped by the same cap below 0, max_turns=-1, end on two endings sharing "
             "nothing, each made by its own call of error_message, for a cap of any value "
             "(Build item 1, \"no ending shares anything with another\"). The items are [the "
             "second run's ending is the first's, its content once a note went into the first's] "
             "(error_message; run_agent, lesson 5).")


@lab_test("With max_turns=1 the record is U A[c1] R(c1) A(error): the check sits at the top of "
          "a turn, so the last batch, of one call or several, is answered before the run stops.")
async def test_the_last_batch_is_answered(t):
    widths = [t.random.randint(1, 4) for _ in range(t.random.choice([1, 1, 2, 3]))]
    model, ran = endless(widths), []
    messages = await run(model, [ticker(ran)], "Tick.", max_turns=len(widths))
    t.expect(lab.shape(messages), shape_of(widths, "A(error)"),
             "The max_turns check belongs at the top of a turn, before the model call; one "
             "placed between a reply and its calls would leave the last batch without results "
             "(run_agent, lesson 5).")
    t.expect([len(model.calls), len(ran)], [len(widths), sum(widths)],
             "One request per turn, and every call of each ran; the stop itself costs no "
             "request. The items are [requests, tools run] (run_agent, lesson 5).")
    t.expect(lab.validate(messages, record=True), [], "Every call of the record has its result "
                                                      "(run_agent, lesson 5).")


@lab_test("max_turns counts model calls, not tools: turns of two to four calls each, after a "
          "first of dozens, with max_turns=2 (or 3, or 4), make that many requests and run every "
          "call of them.")
async def test_turns_are_model_calls(t):
    # A first turn of dozens of calls, then turns of two to four: the cap counts requests.
    widths = [t.random.randint(20, 40)] + [t.random.randint(2, 4)
                                           for _ in range(t.random.randint(1, 3))]
    model, ran = endless(widths + [3] * 3), []
    counted = Uncounted(model)
    before = sorted(vars(counted)), sorted(vars(model))
    messages = await run(counted, [ticker(ran)], "Tick in batches.", max_turns=len(widths))
    t.expect([len(model.calls), len(ran), lab.shape(messages)],
             [len(widths), sum(widths), shape_of(widths, "A(error)")],
             "A turn is one model call with all of its calls; max_turns limits requests, and "
             "the run counts them itself: this model keeps no count a harness may read (Build "
             "item 2, \"It counts its requests itself\"). The items are [requests, tools run, "
             "the record] (run_agent, lesson 5).")
    t.expect([name for name in sorted(vars(counted)) if name not in before[0]] +
             [name for name in sorted(vars(model)) if name not in before[1]], [],
             "The run keeps its count itself, not on the model: a model is only something "
             "with a complete, and the run writes no attribute on it (Build item 2, \"It counts "
             "its requests itself: a model is only something with a `complete`, and keeps no "
             "count a harness may read\"). The items are the attributes the run added to the "
             "model it was handed, or to the model behind it (run_agent, lesson 5).")
    # A model that keeps a count, and a tick that asks that same model a question of its own:
    # the model's count runs ahead of the run's requests, and the cap counts the run's only.
    asked, ran = [], []

    def answer(request):  # gives up after 60 results, as endless() does
        if request.messages[-1]["content"] == "Tock?":
            return lab.say("Tock.")
        asked.append(1)
        if sum(m["role"] == "toolResult" for m in request.messages) >= 60:
            return lab.say("I give up.")
        return ticks(widths[len(asked) - 1] if len(asked) <= len(widths) else 1)
    model = lab.ScriptedModel([lab.forever(answer)])

    def helper(arguments):  # a tick that asks the model, as a helper would
        ran.append(1)
        return harness.text_of(model.complete(SYSTEM, [harness.user_message("Tock?")]))
    messages = await run(model, [tool("tick", helper)], "Tick in batches.",
                         max_turns=len(widths))
    t.expect([len(asked), len(ran), lab.shape(messages)],
             [len(widths), sum(widths), shape_of(widths, "A(error)")],
             f"max_turns={len(widths)} counts the run's own requests, not the model's count of "
             f"every request it got: here each tick asked the model a question of its own, so "
             f"the model was asked {len(model.calls)} times in all. The run counts its requests "
             "itself (Build item 2, \"It counts its requests itself\"). The items are [the "
             "run's requests, tools run, the record] (run_agent, lesson 5).")


@lab_test("With max_turns=None there is no limit: a model that asks more than 25 times and "
          "then answers is called once more than that, and the run ends normally.")
async def test_no_limit(t):
    # Past a default cap of 25, and short enough that a harness which goes over the record
    # once per result before each request stays within the practice check's spin allowance.
    asks = t.random.randint(26, 28)
    prompt, answer = t.random.choice(PROMPTS), t.random.choice(["Done.", "All ticked.", "Voilà."])

    def some(request):
        done = sum(m["role"] == "toolResult" for m in request.messages)
        return lab.reply(lab.call("tick")) if done < asks else lab.say(answer)
    model = lab.ScriptedModel([lab.forever(some)])

    def an_age(arguments):  # a tick that takes ages: a reading of the clock, years after the last
        time.monotonic()
        return "tock"
    years = t.random.randint(100, 10 ** 6)  # however long a timer, a few readings pass it
    # and however the dice fall: a stop by chance, however rare, is met at the first draw
    with hours_pass(YEAR * years, processor=True, dates=True), worst_luck():
        messages = await run(model, [tool("tick", an_age)], prompt)
    t.expect([len(model.calls), lab.shape(messages[-2:])], [asks + 1, f"R(c{asks}) A"],
             "max_turns=None means no limit at all, not a large one, and no timer either, by "
             f"any clock: here time's clocks, processor time among them, moved {years:,} years "
             "at each reading, and datetime's ten, and the run still went on while the model "
             "asked for tools; nor a stop by chance, however rare: Python's random numbers fell "
             "as low as they can at every draw (random.random() gave 0.0) (Build item 2, "
             "\"`max_turns=None`, the default, means no cap at all\"; \"no retry, no timer\"). "
             "The items are [requests, the record's last two messages] (run_agent, lesson 5).")
    t.expect([messages[0]["content"], messages[-1]["stop_reason"], harness.text_of(messages[-1])],
             [prompt, "stop", answer],
             "The run ended on the model's answer. The items are [the prompt, the last "
             "message's stop_reason, its words] (run_agent, lesson 5).")
    # No budget on size either: a turn whose result is a log of forty megabytes or more (its
    # size drawn) counts as one turn, and the run goes on to the model's answer.
    size, seen = t.random.randint(40_000_000, 48_000_000), []

    def logged(request):
        seen.append(1)
        return lab.reply(lab.call("cat")) if len(seen) == 1 else (
            lab.reply(lab.call("tick")) if len(seen) <= 3 else lab.say(answer))
    heavy = lab.ScriptedModel([lab.forever(logged)])
    log = tool("cat", lambda arguments: "#" * size)
    messages = await run(heavy, [log, ticker()], prompt)
    t.expect([len(heavy.calls), lab.shape(messages), len(messages[2]["content"])],
             [4, shape_of([1, 1, 1]), size],
             f"max_turns=None means no cap at all, of any kind: a result of {size:,} "
             "characters, a forty-megabyte log, still counts as one turn, and the run goes on "
             "while the model asks for tools, whatever its requests weigh (Build item 2, "
             "\"`max_turns=None`, the default, means no cap at all\"; \"A colleague's cap\": "
             "\"whose result is a forty-megabyte log, still counts as one\"). The items are "
             "[requests, the record, the length of the log's result] (run_agent, lesson 5).")


@lab_test("A run that finishes in exactly max_turns turns ends on its answer, not on an error, "
          "and so does a second run on the same record: max_turns counts each run's own "
          "requests.")
async def test_finishing_on_the_last_turn(t):
    limit = t.random.randint(1, 6)
    answer = t.random.choice(["Done.", "Done in two.", "All ticked."])
    job = [ticks(1) for _ in range(limit - 1)] + [lab.say(answer)]
    model = lab.ScriptedModel(job + job)
    prompt = t.random.choice(PROMPTS)
    messages = await run(model, [ticker()], prompt, max_turns=limit)
    t.expect(lab.shape(messages), shape_of([1] * (limit - 1)),
             "max_turns turns are allowed and all of them are used: no stop message (run_agent, "
             "lesson 5).")
    t.expect([messages[0]["content"], harness.text_of(messages[-1])], [prompt, answer],
             "The answer is the model's. The items are [the prompt, the answer] (run_agent, "
             "lesson 5).")
    first = len(messages)
    await run(model, [ticker()], "Once more.", messages, max_turns=limit)
    t.expect([len(model.calls), lab.shape(messages[first:]), harness.text_of(messages[-1])],
             [2 * limit,
              " ".join(["U"] + [f"A[c{n}] R(c{n})" for n in range(limit, 2 * limit - 1)] + ["A"]),
              answer],
             "A second run on the same record, with the same cap and the same job, also ends "
             "on its answer: max_turns counts this run's requests, from the top of its first "
             "turn, not the replies the record already holds. The items are [requests of both "
             "runs, the second run's part of the record, its last words] (run_agent, lesson 5).")
    # A cap past a hundred, its size drawn, and a job of exactly that many turns: no stop either.
    # Its ticks take ages: each reading of any clock is years after the last.
    big = t.random.randint(101, 140)
    model = lab.ScriptedModel([ticks(1) for _ in range(big - 1)] + [lab.say(answer)])

    def an_age(arguments):  # a tick that takes ages: a reading of the clock, years after the last
        time.monotonic()
        return "tock"
    years = t.random.randint(100, 10 ** 6)
    with hours_pass(YEAR * years, processor=True, dates=True), worst_luck():
        messages = await run(model, [tool("tick", an_age)], prompt, max_turns=big)
    t.expect([len(model.calls), messages[-1].get("stop_reason"), harness.text_of(messages[-1])],
             [big, "stop", answer],
             f"A run that finishes in exactly max_turns={big} turns ends on its answer, for a cap "
             f"of any size, and the cap is its only limit: no timer beside it, though every "
             f"clock moved {years:,} years at each reading, and no chance either, though "
             "Python's random numbers fell as low as they can at every draw (Build item 2, \"A "
             "run that needs no more than N turns ends on its own answer\"; \"no retry, no "
             "timer\"). The items are [requests, the last message's stop_reason, its words] "
             "(run_agent, lesson 5).")


@lab_test("A provider failure, lab.fail(\"overloaded\"), is recorded as the run's last message "
          "with that error_message, after one request (U A(error)), or after the rounds of "
          "tools before it; the run ends without raising. A model that raises is not a failed "
          "reply: its exception goes through.")
async def test_a_failed_reply_ends_the_run(t):
    reason = t.random.choice(REASONS[:-1])
    widths = [t.random.randint(1, 3) for _ in range(t.random.choice([0, 0, 1, 2]))]
    # A provider's failure may carry more than the four keys an ending has: it is kept whole.
    failure = {**lab.fail(reason), "usage": {"input": t.random.randint(9, 99), "output": 0}}
    model = lab.ScriptedModel([ticks(width) for width in widths] +
                              [failure, lab.say("never")])
    messages, prompt = [], t.random.choice(PROMPTS)
    t.expect(await raised(lambda: run(model, [ticker()], prompt, messages,
                                      max_turns=t.random.choice([None, 10]))), None,
             "A failed reply is recorded, never raised (run_agent, lesson 5).")
    t.expect([lab.shape(messages), messages[0]["content"], messages[-1].get("error_message"),
              len(model.calls)],
             [shape_of(widths, "A(error)"), prompt, reason, len(widths) + 1],
             "The failed reply is the run's last message, and nobody is asked again; no "
             "retries. The items are [the record, its prompt, its last error_message, "
             "requests] (run_agent, lesson 5).")
    t.expect(messages[-1], failure,
             "A failed reply stays on the record as it came, every key of it (here a usage "
             "key beside the four an ending has), not swapped for an ending of its own making "
             "(run_agent, lesson 5).")
    # A model that raises instead of replying: here the script runs out at the next request.
    model, messages = lab.ScriptedModel([ticks(width) for width in widths]), []
    got = await raised(lambda: run(model, [ticker()], prompt, messages))
    t.expect([(got or "").split(":")[0], lab.shape(messages)],
             ["ScriptExhausted", shape_of(widths, "")],
             "An exception from the model is not a failed reply: only a reply labelled "
             "\"error\" by the code that talks to the provider is, and the loop has no try to "
             "turn an exception into one. Here lab.ScriptExhausted, the lab saying the script "
             "ran out, not the harness stopping, goes through to the caller. The items are "
             "[what run_agent raised, the record] (run_agent, lesson 5).")
    # Whatever the model raises goes through: a network's errors (a dropped connection and a
    # broken pipe among them, and every kind in NETWORK, from socket, ssl, http.client and
    # urllib), a client's own complaints about what came back (an answer that
    # is not JSON among them), one whose words say rate limited, an interrupt, and a
    # cancellation during the request.
    for problem in (ConnectionError("connection reset"), TimeoutError("timed out"),
                    ConnectionResetError("Connection reset by peer"), BrokenPipeError("Broken pipe"),
                    ValueError("the provider sent no JSON"), RuntimeError("provider error"),
                    json.JSONDecodeError("Expecting value", "<html>502 Bad Gateway</html>", 0),
                    RuntimeError("429 Too Many Requests: rate limit exceeded, overloaded"),
                    http.client.RemoteDisconnected("Remote end closed connection"),
                    ConnectionAbortedError("Software caused connection abort"),
                    MemoryError("the client ran out of memory"), KeyboardInterrupt(),
                    Cancelled("the request was cancelled"), *NETWORK):
        def raising(request, problem=problem):
            raise problem
        model, messages = lab.ScriptedModel([ticks(width) for width in widths] + [raising]), []
        try:  # raised() lets every cancellation go on up: this file's own is caught here
            got = await raised(lambda: run(model, [ticker()], prompt, messages))
        except Cancelled as exc:
            got = f"Cancelled: {exc}"
        t.expect([(got or "").split(":")[0], lab.shape(messages)],
                 [type(problem).__name__, shape_of(widths, "")],
                 "An exception from the model is not a failed reply, whichever it is and "
                 "whatever it says: no try turns it into one, a network's error, a rate limit "
                 "or an interrupt included, and a cancellation (a subclass of "
                 "asyncio.CancelledError) too, socket's, ssl's, http.client's and urllib's own "
                 "among them, and it goes through to the caller (Build item 3, "
                 "\"no `try` turns it into one\"). Here the model raised "
                 f"{type(problem).__name__}({str(problem)!r}). The items are [what run_agent "
                 "raised, the record] (run_agent, lesson 5).")


@lab_test("A failed reply that carries calls has none of them run, whatever its error_message "
          "(a reason, \"\", or none at all) and whatever tools they ask for, a read or one the "
          "run was not given included, and no further request is made.")
async def test_a_failed_reply_is_not_acted_on(t):
    async def check(reason):
        ran, messages = [], []
        # Ticks, a read of a file the tools can read, a write cut off half way, and a tool the
        # run was not given: none runs, and none gets a result, an unknown tool's included.
        calls = [lab.call("tick") for _ in range(t.random.randint(0, 2))] + [
            lab.call("read", {"path": "notes.txt"}), lab.call(t.random.choice(["nosuch", "bash"])),
            lab.call("write", {"path": "app.py", "content": "def add(a, b):\n    return su"})]
        t.random.shuffle(calls)
        width = len(calls)
        words = t.random.choice(["", "I was saying", "Let me tick ", "Voilà, "])
        failed = lab.fail(reason or "", *([words] if words else []), *calls)
        if reason is None:
            del failed["error_message"]
        model = lab.ScriptedModel([failed, lab.say("never")])
        reader = tool("read", lambda arguments: ran.append(1) or "the notes")
        writer = tool("write", lambda arguments: ran.append(1) or "Successfully wrote to app.py.")
        got = await raised(lambda: run(model, [ticker(ran), reader, writer],
                                       t.random.choice(PROMPTS), messages))
        said = "none at all" if reason is None else repr(reason)
        t.expect([got, lab.shape(messages), ran, len(model.calls)],
                 [None, "U A[" + ",".join(f"c{n}" for n in range(1, width + 1)) + "](error)", [],
                  1],
                 "Nothing in a failed reply is acted on: its calls may be cut off half way, "
                 "and none of them runs, not even when the reason says the stream ended, "
                 "whichever tool a call asks for: a tick, a read, a write of a file cut off "
                 "half way, or a tool the run was not given, which gets no result either (Build item 3, \"none of its calls "
                 "runs\"). A "
                 "reply failed when its stop_reason is \"error\": the label decides, whatever "
                 f"its error_message says (here {said}); it ends the run without raising, and "
                 "the model is not asked again, whatever the reason invites. The items are [what "
                 "run_agent raised, the record, the tools run, requests] (run_agent, lesson 5).")
        t.expect([messages[-1].get("error_message"), harness.text_of(messages[-1])],
                 [reason, words],
                 "The failed reply is recorded as it came, its reason word for word, spaces "
                 "and full stop included, and any words it got out. The items are "
                 "[error_message, its words] (run_agent, lesson 5).")
    # A drawn reason, one that invites one more try, a failure that gave an empty one, and one
    # with no error_message at all: the label says it failed, not the reason.
    for reason in (t.random.choice(REASONS[:-1]), TIMEOUT, "", None):
        await check(reason)
    # Some code that talks to a provider puts error_message on every reply, None when nothing
    # went wrong; such a reply did not fail.
    for note in (None, t.random.choice(["slow upstream", "retried once", "Warning: 2 tools"])):
        width = t.random.randint(1, 3)
        ran, asking = [], {**lab.reply(*[lab.call("tick") for _ in range(width)]),
                           "error_message": note}
        model = lab.ScriptedModel([asking, lab.say("Ticked.")])
        messages = await run(model, [ticker(ran)], t.random.choice(PROMPTS))
        t.expect([lab.shape(messages), len(ran)], [shape_of([width]), width],
                 f"A reply labelled toolUse that carries error_message {note!r} did not fail: "
                 "the label decides, not whether the key is there or what it says. The items "
                 "are [the record, the tools run] (run_agent, lesson 5).")
    # Reasons that invite a case of their own, untidy ones, and a provider's whole answer (an
    # "Error code: 529" and its body): each of them, not a draw.
    for reason in TEMPTING + UNTIDY + [lengthy(t)]:
        await check(reason)
    # An empty failed reply, no calls and no words, whose reason is "" or missing altogether, or
    # any reason above: one that invites one more try among them.
    for reason in ("", None, t.random.choice(REASONS[:-1]), TIMEOUT, *TEMPTING, *UNTIDY):
        failed = lab.fail(reason or "")
        if reason is None:
            del failed["error_message"]
        model, messages = lab.ScriptedModel([failed, lab.say("never")]), []
        await run(model, [ticker()], t.random.choice(PROMPTS), messages)
        t.expect([lab.shape(messages), len(model.calls)], ["U A(error)", 1],
                 "An empty failed reply, no calls and no words, whose error_message is "
                 f"{'none at all' if reason is None else repr(reason)}, stays on the record and "
                 "ends the run: no further request is made, and it is not swapped for a second "
                 "request, since the label says it failed, not its reason, whatever that "
                 "invites (Build item 3, \"the model is not asked again\"). The items are [the "
                 "record, requests] (run_agent, lesson 5).")
    # A provider's whole answer as the reason, padded past a million characters: kept whole.
    told = lengthy(t) + " (and again)" * t.random.randint(100_000, 200_000)
    model = lab.ScriptedModel([lab.fail(told, "I was saying ", lab.call("tick")), lab.say("never")])
    messages = await run(model, [ticker()], t.random.choice(PROMPTS))
    t.expect([lab.shape(messages), messages[-1].get("error_message") == told,
              len(messages[-1].get("error_message") or "")], ["U A[c1](error)", True, len(told)],
             f"A failed reply whose reason is {len(told):,} characters long, a provider's whole "
             "answer, stays on the record as it came, its reason whole: nothing trims it "
             "(Build item 3, \"stays on the record\"). The items are [the record, its last "
             "error_message is the reason given, that error_message's length] (run_agent, "
             "lesson 5).")
    # However many calls a failed reply carries: one, a few dozen, or hundreds (each count
    # drawn). None of them runs, whatever their number says of how whole the reply came.
    for width in (1, t.random.randint(6, 40), t.random.randint(120, 400)):
        ran = []
        model = lab.ScriptedModel([lab.fail(t.random.choice(REASONS[:-1]), "Ticking them all.",
                                            *[lab.call("tick") for _ in range(width)]),
                                   lab.say("never")])
        messages = await run(model, [ticker(ran)], t.random.choice(PROMPTS))
        t.expect([lab.shape(messages), len(ran), len(model.calls)],
                 ["U A[" + ",".join(f"c{n}" for n in range(1, width + 1)) + "](error)", 0, 1],
                 f"A failed reply that carries {width} call{'s' if width > 1 else ''} has none "
                 "of them run, however many it carries, a batch of hundreds included: a count "
                 "says nothing of whether a failed reply's calls came whole (Build item 3, "
                 "\"none of its calls runs\"). The items are [the record, the tools run, "
                 "requests] (run_agent, lesson 5).")


@lab_test("A reply cut off at the output limit is a failed reply: none of its calls runs, not "
          "even the whole ones before the cut, and the run ends on it.")
async def test_a_reply_cut_off_at_the_output_limit_runs_none_of_its_calls(t):
    # The course's reason, then a real provider's own word for it kept as the reason: "length"
    # (OpenAI's finish_reason) and "max_tokens" (Anthropic's stop_reason).
    for reason in (OUTPUT_LIMIT, "length", "max_tokens"):
        ran, whole = [], t.random.randint(1, 3)
        calls = [lab.call("tick", {"n": n}) for n in range(1, whole + 1)]
        calls.append(lab.call("tick", {"note": "cut off in the mi"}))  # the call the limit cut
        model = lab.ScriptedModel([lab.fail(reason, "Ticking now.", *calls), lab.say("never")])
        messages = await run(model, [ticker(ran)], t.random.choice(PROMPTS))
        t.expect([lab.shape(messages), ran, len(model.calls)],
                 ["U A[" + ",".join(f"c{n}" for n in range(1, whole + 2)) + "](error)", [], 1],
                 "A reply cut off at the output limit is a failed reply, labelled \"error\" by "
                 "the code that talks to the provider: none of its calls runs, not even the "
                 "whole ones before the cut, since nothing in a failed reply is acted on, and "
                 f"nobody is asked again, whatever its reason (here {reason!r}). The items are "
                 "[the record, the tools run, requests] (run_agent, lesson 5).")


@lab_test("An unknown tool is not a way out: its error result goes back to the model and the "
          "run goes on to an answer.")
async def test_an_unknown_tool_is_not_an_exit(t):
    unknown = t.random.choice(["nosuch", "tock", "Tick", "bash"])
    calls = [lab.call("tick") for _ in range(t.random.randint(0, 2))] + [lab.call(unknown)]
    t.random.shuffle(calls)
    # The same unknown tool asked for again in the next turn: still a result, not a way out.
    model = lab.ScriptedModel([lab.reply(*calls), lab.reply(lab.call(unknown)),
                               lab.reply(lab.call("tick")), lab.say("Ticked.")])
    messages = await run(model, [ticker()], "Tick.", max_turns=t.random.randint(4, 9))
    t.expect([lab.shape(messages), [m["content"] for m in messages[2:2 + len(calls)]],
              messages[3 + len(calls)]["content"]],
             [shape_of([len(calls), 1, 1]),
              [f"Tool {unknown} not found" if c["name"] == unknown else "tock" for c in calls],
              f"Tool {unknown} not found"],
             "A result informs the model; it does not end the run, not even when the next turn "
             f"asks for the unknown tool {unknown!r} again: \"A tool's result marked as an "
             "error, an unknown tool's included, is not a reply, and ends nothing\" (Build item "
             "3). The items are [the record, the first turn's results, the second turn's "
             "result] (run_tool, lesson 4; run_agent, lesson 5).")
    # However many times in a row: as many turns as the seed draws, scores of them, each
    # asking for it again.
    again = t.random.randint(45, 150)
    model = lab.ScriptedModel([lab.reply(lab.call(unknown)) for _ in range(again)] +
                              [lab.say("Done without it.")])
    messages = await run(model, [ticker()], "Tick.")
    t.expect([len(model.calls), [m["role"] for m in messages].count("toolResult"),
              harness.text_of(messages[-1])],
             [again + 1, again, "Done without it."],
             f"A model that asks for the unknown tool {unknown!r} in {again} turns in a row, "
             f"then answers, gets {again} results and is asked again after each: \"an unknown "
             "tool's included, is not a reply, and ends nothing\" (Build item 3), however many "
             "there are. The items are [requests, results on the record, the words of its last "
             "message] (run_agent, lesson 5).")
    # Or in batches: three or four turns of 70 to 90 calls of it each, more than two hundred
    # error results in a row.
    widths = [t.random.randint(70, 90) for _ in range(t.random.randint(3, 4))]
    model = lab.ScriptedModel([lab.reply(*[lab.call(unknown) for _ in range(width)])
                               for width in widths] + [lab.say("Done without it.")])
    messages = await run(model, [ticker()], "Tick.")
    t.expect([len(model.calls), [m["role"] for m in messages].count("toolResult"),
              harness.text_of(messages[-1])],
             [len(widths) + 1, sum(widths), "Done without it."],
             f"A model that asks for the unknown tool {unknown!r} {sum(widths)} times in a row, "
             f"in {len(widths)} turns, then answers, gets {sum(widths)} error results and is "
             "asked again after each turn: a tool's result marked as an error ends nothing, "
             "however many come in a row (Build item 3, \"A tool's result marked as an error, "
             "an unknown tool's included, is not a reply, and ends nothing\"). The items are "
             "[requests, results on the record, the words of its last message] (run_agent, "
             "lesson 5).")


class Watched(list):
    """A record that notes each write made to it, by the name of the list method that made it,
    in .writes, and then makes it: a view taken back before it returns still shows here."""

    def __init__(self, messages):
        super().__init__(messages)
        self.writes = []


def _noting(name):
    def write(self, *args, **options):
        self.writes.append(name)
        return getattr(list, name)(self, *args, **options)
    return write


for _name in ("__setitem__", "__delitem__", "__iadd__", "__imul__", "append", "extend",
              "insert", "pop", "remove", "clear", "sort", "reverse"):
    setattr(Watched, _name, _noting(_name))


def drawn_record(t):
    """A record of users, answers, turns of tools, empty error messages and failed replies that
    got words out, if only a space, in a drawn order, with one of each kind of failure at least, an
    empty failure whose reason is "" and one with no error_message key, one whose content is a
    text block holding "", empty replies that did not fail (one labelled "stop" whose
    error_message is None, one labelled "toolUse"), a prompt typed again after an empty
    failure, and a call whose result is "" (a command that printed nothing, or a tool that
    raised an exception with no words), among them; and for each message whether the view keeps
    it. Words end in spaces or a newline, as a reply cut off may."""
    drawn = ["empty", "words", "answer", "tools"]
    kinds = ["empty", "words", "unsaid", "keyless", "blank", "silent", "hollow", "unasked",
             "retyped", "quiet"] + [
        t.random.choice(drawn) for _ in range(t.random.randint(0, 3))]
    t.random.shuffle(kinds)
    pairs, number = [], 0
    for kind in kinds:
        pairs.append((harness.user_message(f"Message {len(pairs)}."), True))
        if kind == "empty":
            pairs.append((harness.error_message(t.random.choice(REASONS)), False))
        elif kind == "unsaid":  # failed, and gave no reason: the label says it failed
            pairs.append((harness.error_message(""), False))
        elif kind == "keyless":  # failed, and no error_message at all: the label says so
            pairs.append(({"role": "assistant", "content": [], "stop_reason": "error"}, False))
        elif kind == "silent":  # empty, and did not fail: lesson 5's view keeps it
            pairs.append(({"role": "assistant", "content": [], "stop_reason": "stop",
                           "error_message": None}, True))
        elif kind == "unasked":  # empty, labelled toolUse: only the label "error" is left out
            pairs.append(({"role": "assistant", "content": [], "stop_reason": "toolUse"}, True))
        elif kind == "hollow":  # failed, its content one text block of no words: it has content
            pairs.append((lab.fail(t.random.choice(REASONS), ""), True))
        elif kind == "retyped":  # an empty failure, then the same prompt typed again: both kept
            pairs += [(harness.error_message(t.random.choice(REASONS)), False),
                      (harness.user_message(f"Message {len(pairs) - 1}."), True)]
        elif kind == "blank":  # failed after a newline and nothing more: it has content
            pairs.append((lab.fail(t.random.choice(REASONS), t.random.choice([" ", "\n", " \n"])),
                          True))
        elif kind == "words":
            pairs.append((lab.fail(t.random.choice(REASONS), "I was saying "), True))
        elif kind == "answer":
            pairs.append((lab.say("Yes.\n"), True))
        elif kind == "quiet":  # calls whose results are "": results, not assistant messages
            number += 2  # a command that printed nothing, and a tool that raised with no words
            pairs += [(lab.reply(lab.call("bash", {"command": "true"}, id=f"c{number - 1}"),
                                 lab.call("check", id=f"c{number}")), True),
                      ({"role": "toolResult", "tool_call_id": f"c{number - 1}",
                        "tool_name": "bash", "content": "", "is_error": False}, True),
                      ({"role": "toolResult", "tool_call_id": f"c{number}", "tool_name": "check",
                        "content": "", "is_error": True}, True)]
        else:
            number += 1
            pairs += [(lab.reply(lab.call("tick", id=f"c{number}")), True),
                      ({"role": "toolResult", "tool_call_id": f"c{number}", "tool_name": "tick",
                        "content": "tock", "is_error": False}, True)]
    return pairs


@lab_test("context_for_model drops an empty error message, whatever its reason, keeps an error "
          "message that has words and an empty reply that did not fail, returns a new list, and "
          "leaves the record as it was.")
async def test_context_for_model(t):
    pairs = drawn_record(t)
    record = [message for message, _ in pairs]
    before, copied = lab.show(record, stop_reason=True), copy.deepcopy(record)
    view = harness.context_for_model(record)
    held = {id(message) for message in record}
    t.expect([[n for n, message in enumerate(record) if message != copied[n]],
              [n for n, message in enumerate(view) if not any(message == m for m in copied)],
              [n for n, message in enumerate(view) if id(message) not in held]],
             [[], [], []],
             "Once the view is made, the record is untouched, every message of it as it was, "
             "not even a key whose value is None tidied away; and the view carries the record's "
             "messages as they stand, every key and every space of their words, the record's "
             "own message dicts: not an edited copy, and not copies at all, even equal ones "
             "(Build item 4, \"the record's messages, in order\"). The items are [the record's messages that changed, the "
             "view's messages the record does not hold, the view's messages that are not the "
             "record's own dicts but copies], by position (context_for_model, lesson 5).")
    t.expect(lab.show(view, stop_reason=True),
             lab.show([message for message, kept in pairs if kept], stop_reason=True),
             "The view leaves out an empty failed reply, every one, which a provider refuses, "
             "told by its stop_reason \"error\", not by its error_message, which may be \"\". "
             "It keeps one that has words, if only a space, and one that has content and no "
             "words (a text block holding \"\", or calls and no words), and everything else, "
             "in order: an empty reply whose stop_reason is \"stop\" too, and one labelled "
             "\"toolUse\", since only the label \"error\" is left out, a prompt typed "
             "twice, each time, and a tool's result that is \"\", a command that printed "
             "nothing or a tool that raised with no words, marked as an error or not, which is "
             "a result and not an assistant message (Build item 4, \"the "
             "record's messages, in order, less every assistant message that has no content "
             "and `stop_reason` `\"error\"`\") (context_for_model, lesson 5).")
    # A failed reply whose content is calls and no words: it has content, so the view keeps it.
    calls = lab.fail(t.random.choice(REASONS), *[lab.call("tick", id=f"f{n}")
                                                 for n in range(t.random.randint(1, 3))])
    view = harness.context_for_model(record + [calls, harness.user_message("Go on.")])
    t.expect(any(message is calls for message in view), True,
             "A failed reply whose content is calls and no words has content, so the view keeps "
             "it, the record's own message and not an edited copy: only an assistant message "
             "with no content and stop_reason \"error\" is left out. The item is whether the "
             "view holds that message (context_for_model, lesson 5).")
    # A result as long as a forty-megabyte log, or longer (its size drawn): the view carries the
    # record's own message, its content whole, however long.
    size = t.random.randint(40_000_000, 48_000_000)
    logged = [harness.user_message("Show me the build log."),
              lab.reply(lab.call("bash", {"command": "cat build.log"}, id="c1")),
              {"role": "toolResult", "tool_call_id": "c1", "tool_name": "bash",
               "content": "#" * size, "is_error": False}, lab.say("It is long.")]
    view = harness.context_for_model(logged)
    t.expect([lab.shape(view), [any(message is m for m in logged) for message in view],
              [len(message["content"]) for message in view if message["role"] == "toolResult"]],
             [lab.shape(logged), [True] * len(logged), [size]],
             f"A tool's result of {size:,} characters, a forty-megabyte log or more, stands in "
             "the view as it stands on the record: the record's own message, its content "
             "whole, not cut to a length; only an empty failed reply is left out (Build item 4, "
             "\"the record's messages, in order\"; \"A colleague's cap\": \"whose result is a "
             "forty-megabyte log, still counts as one\"). The items are [the view, for each of "
             "its messages whether it is one of the record's own dicts, the length of each "
             "result in it] (context_for_model, lesson 5).")
    del logged, view
    # The same record, then a long exchange, then an empty failure as the record's last message.
    filler = [message for n in range(t.random.randint(25, 40))
              for message in (harness.user_message(f"Later {n}."), lab.say("Yes.\n"))]
    longer = record + filler + [harness.error_message(t.random.choice(REASONS))]
    t.expect(lab.show(harness.context_for_model(longer), stop_reason=True),
             lab.show([message for message, kept in pairs if kept] + filler, stop_reason=True),
             f"Every empty failed reply is left out, wherever it stands on a record of "
             f"{len(longer)} messages: the old ones before {len(filler)} messages of a later "
             "exchange, and the record's last message too (context_for_model, lesson 5).")
    # An empty failure at the start of a record of 12,000 to 40,000 messages (its length drawn):
    # the view leaves it out too, however far back it stands, and a record that long is treated
    # as a short one is, its view a new list of the record's own messages each time. (No longer
    # than 40,001: a later lab's view takes about five rounds of its loops a message, and the
    # practice check's guard allows 250,000 between two turns of the loop after a hang.)
    exchange = [harness.user_message("Later again."), lab.say("Yes.\n")]
    old = harness.error_message(t.random.choice(REASONS))
    long = [harness.user_message("First."), old] + exchange * t.random.randint(6000, 20000)
    # A turn of the loop before each view, as between two requests of a run: each pass over a
    # long record is counted apart by the practice check's guard against spinning.
    await lab.tick()
    view_of_long = harness.context_for_model(long)
    await lab.tick()
    again = harness.context_for_model(long)
    rest = long[:1] + long[2:]  # the same record with nothing to leave out
    await lab.tick()
    view_of_rest = harness.context_for_model(rest)
    t.expect([any(message is old for message in view_of_long), len(view_of_long),
              len(view_of_long) == len(rest) and all(map(operator.is_, view_of_long, rest)),
              again is view_of_long, view_of_rest is rest, len(view_of_rest)],
             [False, len(long) - 1, True, False, False, len(rest)],
             f"The empty failed reply at the start of a record of {len(long):,} messages is "
             "left out as well, wherever it stands: the view goes over the whole record, not "
             "its last messages only; and a long record's view is what a short one's is, the "
             "record's own message dicts, not copies, in a new list each time it is asked for, "
             "even when nothing is left out (Build item 4, \"it returns a new list, even when it "
             "leaves nothing out: the record's messages, in order\"). The items are [whether "
             "the view holds it, the view's length, the view is the record's own messages in "
             "order, the view made again of the same record is the same list, the view of "
             f"that record less its failure ({len(rest):,} messages) is that record, its "
             "length] (context_for_model, lesson 5).")
    # A record that notes every write to it: making its view writes nothing, not even a
    # write taken back before the view is returned.
    watched = Watched(record)
    view = harness.context_for_model(watched)
    t.expect([watched.writes, lab.show(watched, stop_reason=True) == before,
              lab.show(view, stop_reason=True) == lab.show([m for m, kept in pairs if kept],
                                                           stop_reason=True)],
             [[], True, True],
             "context_for_model never changes the record, not even for a while: it writes "
             "nothing into the list it is given, no message deleted and put back, none moved "
             "and moved back (Build item 4, \"It never changes the record\"). The items are "
             "[the writes made to the record while its view was made, by the list method that "
             "made each, the record as it was, the view] (context_for_model, lesson 5).")
    t.expect([type(view).__name__, view is record, lab.show(record, stop_reason=True) == before,
              len(record)],
             ["list", False, True, len(pairs)],
             "The view is a new list, a list and not a tuple or other sequence; the record is "
             "untouched: it says what happened. The items are [the view's type, the same list, "
             "the record as it was, its length] (context_for_model, lesson 5).")
    whole = [message for message, kept in pairs if kept]
    view, again = harness.context_for_model(whole), harness.context_for_model(whole)
    t.expect([lab.shape(view), view is whole, again is view], [lab.shape(whole), False, False],
             "A record with nothing to leave out comes back whole, and still as a new list, "
             "each time it is asked for, the same record twice included: the caller may change "
             "one view without changing the record or another view (Build item 4, \"it returns "
             "a new list, even when it leaves nothing out\"). The items are [the view, the same "
             "list as the record, the same list as the view made just before] "
             "(context_for_model, lesson 5).")


@lab_test("After a provider failure, the next run's request leaves out the empty error message "
          "and is one a provider accepts; the record keeps it.")
async def test_the_request_after_a_failure(t):
    reasons = [t.random.choice(REASONS[:-1]) for _ in range(t.random.randint(1, 4))]
    prompts = t.random.sample(PROMPTS, len(reasons) + 1)
    model = lab.ScriptedModel([lab.fail(reason) for reason in reasons] + [lab.say("Back now.")])
    messages = []
    for prompt in prompts:
        await run(model, [ticker()], prompt, messages)
    sent = model.calls[-1].messages
    t.expect([lab.shape(sent), [m["content"] for m in sent]],
             [" ".join(["U"] * len(prompts)), prompts],
             "Every request carries the view, context_for_model(messages), not the record: "
             "the prompts, without the empty failures between them. The items are [the last "
             "request's messages, their contents] (run_agent, lesson 5).")
    t.expect(lab.validate(sent), [], "That request is one a provider accepts (context_for_model, "
                                     "lesson 5).")
    t.expect([lab.shape(messages), [m.get("error_message") for m in messages[1::2]]],
             [" ".join(["U A(error)"] * len(reasons) + ["U A"]), reasons + [None]],
             "The record keeps every failure, with its reason. The items are [the record, the "
             "error_message of each reply] (context_for_model, lesson 5).")
    # Failed runs in a row, a dozen to sixty of them as the seed draws: the next run is asked.
    many = t.random.randint(12, 60)
    model = lab.ScriptedModel([lab.fail(t.random.choice(REASONS[:-1])) for _ in range(many)] +
                              [lab.say("Back now.")])
    messages = []
    for n in range(many + 1):
        await run(model, [ticker()], f"Attempt {n + 1}.", messages)
    t.expect([len(model.calls), lab.shape(messages[-2:]), harness.text_of(messages[-1])],
             [many + 1, "U A", "Back now."],
             f"After {many} runs in a row that each ended on a failed reply, the next run asks "
             "the model as every run does, and ends on its answer: a failed reply ends its own "
             "run, and no run ends before its first request because of the failures on the "
             "record (Build item 3, \"stays on the record and ends the run\"; Build item 2, "
             "\"`max_turns=None`, the default, means no cap at all\"). The items are [requests "
             "of all the runs, the record's last two messages, the last words] (run_agent, "
             "lesson 5).")


@lab_test("After a max_turns stop, the next run's request is one a provider accepts, and every "
          "request carries a view made for it: never the record itself, never an earlier "
          "request's list.")
async def test_the_request_after_a_max_turns_stop(t):
    limit = t.random.randint(1, 4)
    first, second = t.random.sample(PROMPTS, 2)
    model, messages = Handed([ticks(1) for _ in range(limit + 1)] +
                             [lab.say("Stopped, as asked.")]), []
    await run(model, [ticker()], first, messages, max_turns=limit)
    await run(model, [ticker()], second, messages)
    sent = model.calls[limit].messages
    t.expect([lab.shape(sent), sent[0]["content"], sent[-1]["content"]],
             [shape_of([1] * limit, "U"), first, second],
             "The empty stop message is left out of the request, and the rest is sent as it "
             "stands. The items are [the request's messages, the first one's content, the "
             "last one's] (context_for_model, lesson 5).")
    t.expect(lab.validate(sent), [], "That request is one a provider accepts (context_for_model, "
                                     "lesson 5).")
    last = model.calls[-1].messages
    t.expect([lab.shape(last), lab.validate(last)],
             [shape_of([1] * limit, "U") + f" A[c{limit + 1}] R(c{limit + 1})", []],
             "The second run's second request carries a view too, not the record: the stop "
             "is left out of every request of a run, not only its first. The items are [the "
             "request's messages, what lab.validate finds wrong with it] (run_agent, lesson 5).")
    t.expect(lab.shape(messages),
             shape_of([1] * limit, "A(error)") + f" U A[c{limit + 1}] R(c{limit + 1}) A",
             "The record still holds the first run's stop after the second run: the record says "
             "what happened, and only the view leaves the stop out; no run deletes an earlier "
             "run's ending (run_agent; context_for_model, lesson 5).")
    handed = model.handed
    t.expect([[sent is messages, any(sent is earlier for earlier in handed[:n])]
              for n, sent in enumerate(handed)],
             [[False, False]] * (limit + 2),
             "Every request carries a view made for it, context_for_model(messages) at the top "
             "of its turn: never the record itself, even when the view leaves nothing out, and "
             "never a list made for an earlier request and kept in step. Each item is [the list "
             "handed over is the record, it was handed over before] for one request of the two "
             "runs (run_agent, lesson 5).")


# Apart from the test above on purpose: this one wraps context_for_model, so a slip in
# run_agent's turns would be credited to both functions; above, run_agent is the only way in.
@lab_test("Across a max_turns stop and the run after it, each request's list is the very one "
          "context_for_model returned for the record: not a copy, not a list kept in step.")
async def test_every_request_carries_a_view_context_for_model_made(t):
    limit = t.random.randint(1, 4)
    first, second = t.random.sample(PROMPTS, 2)
    model, messages = Handed([ticks(1) for _ in range(limit + 1)] +
                             [lab.say("Stopped, as asked.")]), []
    given, made = harness.context_for_model, []

    def making(record):  # context_for_model as given, noting each view it makes of the record
        view = given(record)
        if record is messages:
            made.append(view)
        return view
    harness.context_for_model = making
    try:
        await run(model, [ticker()], first, messages, max_turns=limit)
        await run(model, [ticker()], second, messages)
    finally:
        harness.context_for_model = given
    t.expect([any(sent is view for view in made) for sent in model.handed], [True] * (limit + 2),
             "Every request carries this view: the very list context_for_model returned, "
             "called on the record itself during the run, not a copy of it, a view kept in step "
             "by hand, or a list filtered some other way (Build item 4, \"Every request the run "
             "makes carries this view instead of the record\"). Each item is whether one "
             "request's list is a view that context_for_model made of the record (run_agent, "
             "lesson 5).")
