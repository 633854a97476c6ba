"""Lesson 16, lab 2: read as it comes, stop when told. The tests of StreamingModel.acomplete: a
provider's streamed reply read line by line inside a Harness, a Stop that lands while the
provider is talking or silent, and a response that is closed on every way out.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 16 tests.py
"""
import asyncio
import copy
import json

import harness
import lab
from lab.kit import changes_in, hours_pass, lab_test, noted, raised, tool

LAB = "16.2"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def text(words):
    return 'data: ' + json.dumps({"choices": [{"index": 0, "delta": {"content": words}}]})


STOP = 'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}'
DONE = "data: [DONE]"


def reader(ws, ran):
    """A read tool over `ws` that also notes each path it is asked for in `ran`."""
    def read(arguments):
        ran.append(arguments["path"])
        return ws.read_text(arguments["path"])
    return tool("read", read, PATH, "Read a file.")




class StopOnLine:
    """A client in front of `provider` that presses Stop (calls `press`) just as line `n` of
    the first response is read, from inside the reader's own turn: so the test knows exactly
    which lines were read before Stop."""

    def __init__(self, provider, n, press):
        self.provider, self.n, self.press = provider, n, press

    def open(self, body):
        response = self.provider.open(body)
        read = response.read_line

        def read_line():
            line = read()
            if response.lines_read == self.n and len(self.provider.responses) == 1:
                self.press()
            return line
        response.read_line = read_line
        return response


class AllAtOnce:
    """A client whose one response has every line ready at once, as on a fast network, and
    presses Stop (calls `press`) just as line `n` is read. It keeps the interface
    StreamingModel reads: ready(), read_line() (None at the end), close()."""

    def __init__(self, lines, n, press):
        self.lines, self.n, self.press = list(lines), n, press
        self.lines_read, self.closed, self.requests, self.ends = 0, False, [], 0

    def open(self, body):
        self.requests.append(body)
        return self

    def ready(self):
        return not self.closed

    def read_line(self):
        if self.closed:
            raise RuntimeError("the response is closed")
        if self.lines_read == len(self.lines):
            self.ends += 1  # the times it said None: once is the end, more is reading past it
            return None
        self.lines_read += 1
        if self.lines_read == self.n:
            self.press()
        return self.lines[self.lines_read - 1]

    def close(self):
        self.closed = True


class Flag:
    """A signal of the test's own, not a CancelToken: it offers is_cancelled() alone, as any
    signal may (CancelToken, lesson 15), and counts the times it is asked."""

    def __init__(self, up=False):
        self.up, self.looks = up, 0

    def is_cancelled(self):
        self.looks += 1
        return self.up


class Linked(harness.CancelToken):
    """A CancelToken of the test's own class, set when it is cancelled or when its `parent` is,
    as a run's token tied to its session's may be: is_cancelled() alone says so."""

    def __init__(self, parent):
        super().__init__()
        self.parent = parent

    def is_cancelled(self):
        return super().is_cancelled() or self.parent.is_cancelled()


class Hollow(Flag):
    """A signal of the test's own that is falsy, as any object with a __len__ of 0 is: a signal
    is asked with is_cancelled(), whatever its truth."""

    def __bool__(self):
        return False


class Answers(Flag):
    """A signal of the test's own whose is_cancelled() answers `no` until `client` has been
    handed a request, and `yes` from then on (at once when `client` is None): answers that are
    no bool, read as a condition, as any `if` reads one (CancelToken, lesson 15)."""

    def __init__(self, no, yes, client=None):
        super().__init__()
        self.no, self.yes, self.client = no, yes, client

    def is_cancelled(self):
        self.looks += 1
        return self.no if self.client is not None and not self.client.requests else self.yes


class Watching:
    """A client that keeps each body it is handed, the object itself, and answers with `lines`
    all ready at once; each time a line is asked for, it looks whether the body is still what
    it was when handed over, as a client that sends the body while the reply comes in may.
    `changed` counts the looks that found it otherwise."""

    def __init__(self, lines):
        self.lines, self.requests, self.changed, self.last = lines, [], 0, None

    def open(self, body):
        self.requests.append(body)
        handed = copy.deepcopy(body)
        self.last = AllAtOnce(self.lines, 0, None)
        read = self.last.read_line

        def read_line():
            self.changed += body != handed
            return read()
        self.last.read_line = read_line
        return self.last


# White space of many kinds, each put at the ends of what a test sends or streams: nothing
# between to_wire, decode_line, assemble and the reply tidies it away.
WHITE = [" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000", "\u2028", "\x0b"]
# Words that Unicode normalisation (NFC, NFD, NFKC, NFKD) would each change, and words holding
# lone surrogates, as a client that decodes bytes with errors="surrogateescape" hands them on.
COMPOSED = ["cafe\u0301 caf\u00e9 \ufb01le", "\u212b \u00c5 \uff21\uff22",
            "\u2126 na\u00efve \u2460"]
ESCAPED = ["caf\udcc3\udca9", "\udce9t\udce9", "\udcff bytes \U0001f600"]


def raw(words):
    """A text line with its words as a server writes them, not escaped to ASCII."""
    return 'data: ' + json.dumps({"choices": [{"index": 0, "delta": {"content": words}}]},
                                 ensure_ascii=False)


async def turns_until_done(task, limit=50):
    """Loop turns until `task` is done, at most `limit`."""
    turns = 0
    while not task.done() and turns < limit:
        await lab.tick()
        turns += 1
    return turns


@lab_test("A StreamingModel on lab.FakeProvider runs a whole job in a Harness: U A[c1] R(c1) "
          "A, the tool getting its arguments whole. Each turn sent one request, to_wire of "
          "that turn's view, and every response was closed.")
async def test_a_streamed_job_runs_in_a_harness(t):
    ws, ran = lab.Workspace({"notes/caf\u00e9.md": "Closed on Mondays.\n"}), []
    provider = lab.FakeProvider([
        lab.reply("Let me look.", lab.call("read", {"path": "notes/caf\u00e9.md"})),
        lab.say("It is closed on Mondays."),
    ])
    tools = [reader(ws, ran)]
    h = harness.Harness(harness.StreamingModel(provider), SYSTEM, tools)
    await lab.drive(h.prompt("When is the caf\u00e9 closed?"))
    t.expect(lab.shape(h.messages), "U A[c1] R(c1) A",
             "The provider streamed a reply calling read, then an answer, each as lines of "
             "3-character fragments. acomplete reads every line and hands the loop what "
             "assemble makes of them (StreamingModel, lesson 16).")
    t.expect(ran, ["notes/caf\u00e9.md"], "The tool got the arguments parsed once, whole.")
    t.expect(harness.text_of(h.messages[-1]), "It is closed on Mondays.",
             "The answer's fragments were joined into one text.")
    views = [[h.messages[0]], list(h.messages[:3])]
    t.expect(provider.requests,
             [harness.to_wire(SYSTEM, view, harness.tool_specs(tools)) for view in views],
             "Each turn sends exactly one request: to_wire(system, the view, the specs), where "
             "the view is what the loop handed acomplete (StreamingModel, lesson 16).")
    t.expect(provider.open_responses(), [],
             "Every response is closed once its reply has been read (StreamingModel, lesson 16).")


@lab_test("Stop pressed just as the third of ten lines is read: within two loop turns the "
          "run ends aborted, keeping the words so far, the response is closed, and no line "
          "after the third was read.")
async def test_stop_while_the_provider_talks(t):
    words = "Twelve tests fail in io."
    provider = lab.FakeProvider([lab.say(words), lab.say("unused")])
    box, clock = {}, {"turn": 0, "pressed": None}

    def press():
        box["h"].cancel()
        clock["pressed"] = clock["turn"]

    h = box["h"] = harness.Harness(harness.StreamingModel(StopOnLine(provider, 3, press)),
                                   SYSTEM, [])
    async with lab.background(h.prompt("Summarise the failures.")) as task:
        while not task.done() and clock["turn"] < 200:
            await lab.tick()
            clock["turn"] += 1
    response = provider.responses[0]
    turns = None if clock["pressed"] is None else clock["turn"] - clock["pressed"]
    t.expect(turns is not None and turns <= 2, True,
             "After Stop, acomplete must look at the signal on its next look at the stream, "
             "before reading another line, and end the run within two turns (StreamingModel, "
             "lesson 16).")
    t.expect([lab.shape(h.messages), h.messages[-1]],
             ["U A(aborted)", {"role": "assistant", "stop_reason": "aborted",
                               "error_message": "Operation aborted",
                               "content": [{"type": "text", "text": "Twelve te"}]}],
             "The reply 'Twelve tests fail in io.' came as 10 lines (8 of 3 characters of "
             "text, a finish, [DONE]) and Stop came with the third: the run ends with "
             "assemble(chunks, aborted=True), the words read so far and ABORTED "
             "(StreamingModel, lesson 16).")
    t.expect([response.lines_read, response.closed], [3, True],
             "No line after Stop is read, and the response is closed: a reply nobody will "
             "read must not keep its connection (StreamingModel, lesson 16).")
    box = {}
    fast = AllAtOnce(lab.stream_lines(lab.say(words)), 3, lambda: box["h"].cancel())
    h = box["h"] = harness.Harness(harness.StreamingModel(fast), SYSTEM, [])
    await lab.drive(h.prompt("Summarise the failures."))
    t.expect([lab.shape(h.messages), harness.text_of(h.messages[-1]), fast.lines_read,
              fast.closed],
             ["U A(aborted)", "Twelve te", 3, True],
             "The same reply from a response whose lines are all ready at once, as on a fast "
             "network: look at the signal on every lap, line or no line, not only while "
             "waiting for one, and Stop lands before the fourth line (StreamingModel, "
             "lesson 16).")
    session = harness.CancelToken()
    fast = AllAtOnce(lab.stream_lines(lab.say(words)), 3, session.cancel)
    reply = await harness.StreamingModel(fast).acomplete(
        SYSTEM, [harness.user_message("Summarise the failures.")], [], Linked(session))
    t.expect([reply["stop_reason"], harness.text_of(reply), fast.lines_read, fast.closed],
             ["aborted", "Twelve te", 3, True],
             "The same lines, the signal a CancelToken of a class of the caller's own that is "
             "also set when its session's token is, and the session's token cancelled as the "
             "third line is read. Items: the stop_reason, the words, the lines read, closed. "
             "A signal is asked with is_cancelled() on every lap, never read from a "
             "CancelToken's insides (CancelToken, lesson 15; StreamingModel, lesson 16).")


@lab_test("A stream that goes silent for ever after two lines still stops: stop_run says "
          "\"clean\" within its grace of five turns, the run ends aborted, and the response "
          "is closed. acomplete looks at the signal on every turn of the silence, and a "
          "signal set during it ends the reply on the next turn.")
async def test_stop_while_the_provider_is_silent(t):
    provider = lab.FakeProvider([[text("Thinking"), text(" about it"), lab.HANG]])
    h = harness.Harness(harness.StreamingModel(provider), SYSTEM, [])
    async with lab.background(h.prompt("Plan the migration.")) as task:
        await lab.ticks(30)
        t.expect([task.done(), provider.responses[0].lines_read], [False, 2],
                 "The provider sent two lines and then nothing, ever: the run is waiting.")
        outcome = await harness.stop_run(h, task, grace=5)
    t.expect(outcome, "clean",
             "While the provider is silent acomplete must still look at the signal on every "
             "turn: nothing ready means await asyncio.sleep(0), then look again. A reader that "
             "waits for the next line (`async for line in response`) hears Stop only when the "
             "provider speaks, and stop_run has to cancel the task (StreamingModel, lesson 16).")
    t.expect([lab.shape(h.messages), harness.text_of(h.messages[-1]), provider.open_responses()],
             ["U A(aborted)", "Thinking about it", []],
             "The run ends aborted with the words that came, and the response is closed.")
    provider, flag, box = lab.FakeProvider([[text("Still"), text(" here"), lab.HANG]]), Flag(), {}

    async def ask():
        box["reply"] = await harness.StreamingModel(provider).acomplete(
            SYSTEM, [harness.user_message("Plan it.")], [], flag)
    silence = t.random.randint(20, 40)
    async with lab.background(ask()) as task:
        await lab.ticks(10)  # both lines long since read: the provider is silent
        before = flag.looks
        await lab.ticks(silence)
        looks = flag.looks - before
        flag.up = True
        turns = await turns_until_done(task, 20)
    t.expect([looks >= silence, turns, harness.text_of(box.get("reply") or {"content": []})],
             [True, 1, "Still here"],
             f"Items: whether the signal was looked at on every turn of a silence of {silence} "
             f"turns (it was looked at {looks} times), the turns from setting it until acomplete "
             "returned, the reply's words. A Stop lands within a turn of the event loop even "
             "while the provider says nothing (acomplete's docstring): look at the signal on "
             "every turn, line or no line, and give the loop one turn, not several, between "
             "two looks (StreamingModel, lesson 16).")
    shared = lab.FakeProvider([[text("First"), lab.HANG], [text("Second"), lab.HANG]])
    model = harness.StreamingModel(shared)
    pair = [harness.Harness(model, SYSTEM, []) for _ in range(2)]
    async with lab.background(pair[0].prompt("Plan one.")) as first, \
            lab.background(pair[1].prompt("Plan two.")) as second:
        await lab.ticks(20)  # both runs started: the provider is silent to each
        outcomes = [await harness.stop_run(pair[1], second, grace=5)]
        alone = not first.done()  # Stop on the second run is no Stop on the first
        outcomes.append(await harness.stop_run(pair[0], first, grace=5))
    t.expect([outcomes, alone, [lab.shape(one.messages) for one in pair],
              [[harness.text_of(m) for m in one.messages if m["role"] == "assistant"]
               for one in pair], len(shared.responses),
              shared.open_responses()],
             why="One StreamingModel serving two Harnesses at once, each provider silent after "
                 "one line; Stop pressed on the second run, then on the first. Items: what "
                 "stop_run said for each, whether the first was still running once the "
                 "second had stopped, the records' shapes, their replies' words, the "
                 "responses opened, those left open. Stop must land within five turns while "
                 "the provider is silent, for each call of a model, whatever another call of "
                 "the same model is doing: a call that waits for another to finish hears no "
                 "Stop, and a Stop pressed on one call stops that call alone, since a model "
                 "object keeps nothing of one call's signal (StreamingModel, lesson 16, Build "
                 "section).")


@lab_test("A refused connection, or any other failure to send, gives an \"error\" reply, "
          "Provider request failed: and the exception's text, without raising; the responses "
          "of a normal end, an error chunk, a hard stop and two runs of one model at once are "
          "all closed (open_responses() == []).")
async def test_trouble_is_a_reply_and_every_response_is_closed(t):
    provider = lab.FakeProvider([lab.refuse("connection refused by api.example.com"),
                                 lab.say("Back."),
                                 lab.fail("overloaded", "Half an ans"),
                                 [text("Still "), lab.HANG]])
    h = harness.Harness(harness.StreamingModel(provider), SYSTEM, [])
    await lab.drive(h.prompt("Hello?"))
    t.expect(h.messages[-1], {"role": "assistant", "content": [], "stop_reason": "error",
                              "error_message": "Provider request failed: connection refused "
                                               "by api.example.com"},
             "open raised ConnectionError('connection refused by api.example.com'). Provider "
             "trouble is news for the record, never an exception: the reply is "
             "error_message(f\"Provider request failed: {exc}\") (StreamingModel, lessons 5 "
             "and 16).")
    class TurnedAway:
        def __init__(self):
            self.requests = []

        def open(self, body):
            self.requests.append(body)
            raise RuntimeError("HTTP 401: invalid API key")

    client = TurnedAway()
    other = await harness.StreamingModel(client).acomplete(SYSTEM, [harness.user_message(
        "Hello?")])
    t.expect([other, len(client.requests)],
             [{"role": "assistant", "content": [], "stop_reason": "error",
               "error_message": "Provider request failed: HTTP 401: invalid API key"}, 1],
             "A client that raises RuntimeError('HTTP 401: invalid API key') from open: any "
             "Exception is the provider's trouble, not only ConnectionError, and exactly one "
             "request goes out: whether to send again is not acomplete's to decide. Items: the "
             "reply, the times open was called (StreamingModel, lesson 16).")
    found = []
    for fault in (TimeoutError("the provider took too long to answer"),
                  Refusal("Internal server error", 500), ConnectionResetError(),
                  ConnectionRefusedError(111, "Connection refused"),
                  Refusal("Service unavailable\n", 503, retry_after=0),
                  Refusal("Overloaded", 529), BrokenPipeError(32, "Broken pipe"),
                  ConnectionAbortedError(103, "Software caused connection abort"),
                  RuntimeError("HTTP 502: <html><body>" + "Bad gateway. " * t.random.randint(
                      90, 300) + "</body></html>"),
                  KeyError(t.random.choice(["choices", "error", "retry-after"])),
                  Described(t.random.choice(["Bad gateway", "Gateway timeout"]),
                            t.random.choice([502, 504]))):
        client = Refusing(fault)
        reply = await harness.StreamingModel(client).acomplete(SYSTEM, [harness.user_message(
            "Hello?")])
        found.append([f"{type(fault).__name__}({str(fault)!r}, status "
                      f"{getattr(fault, 'status', None)})", reply, len(client.requests)])
    t.expect(found,
             why="Each item is [what open raised, the reply, the times open was called], for a "
                 "timeout, a status 500, a reset whose text is empty, a refusal with an errno "
                 "(its text is str(exc), errno included), a 503 whose text ends in a line break "
                 "and whose Retry-After is 0, Anthropic's 529 Overloaded, a broken pipe, an aborted "
                 "connection, a KeyError from a client that read a body without a field (its "
                 "text is its key in quotes), a client library's error whose __str__ writes "
                 "its status before its words, and a 502 whose text is a whole HTML page, over "
                 "a thousand characters. If sending raises any Exception, the reply is "
                 "an `error` ending and no second request goes out, whatever its class or "
                 "status, however short a wait it asks for: a quiet second try is not acomplete's to make. Its error_message is "
                 "`Provider request failed: ` followed by the exception's text, as it is, even "
                 "when that is empty, never trimmed or picked from its args (StreamingModel, "
                 "lesson 16, Build item 1).")
    # a record to_wire cannot write: arguments that are not JSON
    unwritable = [harness.user_message("Save it."),
                  lab.reply(lab.call("write", {"path": "a.bin", "content": b"\x00\x01"}, id="c1"))]
    looped = {"path": "a.txt"}
    looped["again"] = looped  # arguments that hold themselves: json refuses them, ValueError
    circular = [harness.user_message("Save it."), lab.reply(lab.call("write", looped, id="c1"))]
    written = []
    for record, signal in ((unwritable, None), (unwritable, Flag(up=True)), (circular, None)):
        client = TurnedAway()
        try:
            reply = await harness.StreamingModel(client).acomplete(SYSTEM, record, (), signal)
        except Exception as error:
            reply = f"raised {type(error).__name__}: {error}"
        written.append([reply, len(client.requests)])
    t.expect(written,
             why=f"A record, {lab.shape(unwritable)}, whose call's arguments hold bytes, which "
                 "to_wire cannot write as JSON, handed over with no signal, then with a signal "
                 "already set; then one whose call's arguments hold themselves, which JSON "
                 "cannot write either (a ValueError, not a TypeError). Each item is [the reply, or what acomplete raised; the times open "
                 "was called]. The body is made inside the same try as the sending: a record "
                 "to_wire cannot write is reported as a failed request, and nothing goes out; "
                 "but when the signal is already set, nothing is sent and the reply is the "
                 "aborted one, before any body is made (StreamingModel, lesson 16, Build item "
                 "1): whatever to_wire raises, since it is an Exception.")

    cuts = []
    for fault in (lab.PowerCut("the power failed while sending"),
                  KeyboardInterrupt("Ctrl-C while sending"), SystemExit(3),
                  GeneratorExit("the client's generator was closed while sending"),
                  asyncio.CancelledError("cancelled while sending")):
        try:
            cut = await harness.StreamingModel(Refusing(fault)).acomplete(
                SYSTEM, [harness.user_message("Hello?")])
        except BaseException as error:  # what must go up: the test reports it
            cut = f"raised {type(error).__name__}: {error}"
        cuts.append([type(fault).__name__, cut])
    t.expect(cuts,
             why="Each item is [what the client's open raised, which is not an Exception, what "
                 "acomplete returned or raised]: lab.PowerCut, a KeyboardInterrupt, a "
                 "SystemExit, a GeneratorExit and asyncio's CancelledError. Only an Exception is "
                 "the provider's "
                 "trouble: anything else raised while sending goes up as it was raised, a "
                 "CancelledError too, as lesson 15's Ctrl-C must "
                 "(StreamingModel, lesson 16, Build item 1).")
    await lab.drive(h.prompt("Hello again?"))
    t.expect([lab.shape(h.messages[2:]), len(provider.responses), provider.open_responses()],
             ["U A", 1, []], "A normal end: the response is closed once read.")
    await lab.drive(h.prompt("And now?"))
    t.expect([h.messages[-1]["stop_reason"], h.messages[-1]["error_message"],
              harness.text_of(h.messages[-1]), provider.open_responses()],
             ["error", "overloaded", "Half an ans", []],
             "An error chunk in the stream: an \"error\" reply with its message and the words "
             "before it, and the response is closed.")
    async with lab.background(h.prompt("Anyone there?")) as task:
        await lab.ticks(10)
        task.cancel()  # a hard stop: no flag, so only a finally can close the response
        turns = await turns_until_done(task)
    t.expect([task.cancelled(), turns <= 2, provider.open_responses()], [True, True, []],
             "A hard cancel raises CancelledError inside acomplete's await, a way out that "
             "sees no flag: only a finally around the reading closes the response on that way "
             "too (StreamingModel, lesson 16).")
    shared = lab.FakeProvider([lab.say("One for the first."), lab.say("One for the second.")])
    model = harness.StreamingModel(shared)
    pair = [harness.Harness(model, SYSTEM, []) for _ in range(2)]
    async with lab.background(pair[0].prompt("First.")) as first, \
            lab.background(pair[1].prompt("Second.")) as second:
        await turns_until_done(asyncio.gather(first, second), 60)
    t.expect([[lab.shape(one.messages) for one in pair],
              [harness.text_of(m) for one in pair for m in one.messages if m["role"] != "user"],
              len(shared.responses), shared.open_responses()],
             [["U A", "U A"], ["One for the first.", "One for the second."], 2, []],
             "One StreamingModel serving two Harnesses at once, each run's reply streaming "
             "while the other's does, given 60 turns. Items: each record's shape, the replies' "
             "words, the responses opened, those left open. Each "
             "acomplete reads and closes the response it opened, whatever another call of the "
             "same model is doing: the response is closed on every way out (StreamingModel, "
             "lesson 16).")


@lab_test("A Stop pressed before the request goes out sends nothing, whether its signal is a "
          "CancelToken or any object with is_cancelled(): the reply is aborted and the provider "
          "saw no request. With a clear signal each call sends one request, its body to_wire "
          "of that call's own arguments.")
async def test_a_set_signal_sends_nothing(t):
    provider = lab.FakeProvider([lab.say("unused"), lab.say("Again."), lab.say("Once more."),
                                 lab.say("At length."), lab.say("Edited.")])
    model = harness.StreamingModel(provider)
    token = harness.CancelToken()
    token.cancel()
    reply = await model.acomplete(SYSTEM, [harness.user_message("Hi.")], [], token)
    own = await model.acomplete(SYSTEM, [harness.user_message("Hi.")], [], Flag(up=True))
    hollow = await model.acomplete(SYSTEM, [harness.user_message("Hi.")], [], Hollow(up=True))
    linked = await model.acomplete(SYSTEM, [harness.user_message("Hi.")], [], Linked(token))
    aborted = {"role": "assistant", "content": [], "stop_reason": "aborted",
               "error_message": "Operation aborted"}
    t.expect([reply, own, hollow, linked, provider.requests],
             [aborted, aborted, aborted, aborted, []],
             "Items: the reply under a CancelToken already set, the reply under a signal of the "
             "caller's own already up (an object with is_cancelled() and nothing else), the "
             "reply under such a signal that is also falsy (bool() of it is False), the reply "
             "under a CancelToken of a class of its own, itself never cancelled, whose "
             "is_cancelled() also says yes once that first token is set, the requests sent. A signal already set means the aborted reply before anything is "
             "sent: a request nobody will read is still paid for. Any object with "
             "is_cancelled() serves as a signal (CancelToken, lesson 15): ask it, never read a "
             "CancelToken's insides (StreamingModel, lesson 16).")
    ws = lab.Workspace({"a.py": "x = 1\n"})
    listing = tool("list", lambda arguments: "a.py", {"type": "object", "properties": {}},
                   "List the files.")
    specs = [harness.tool_specs([reader(ws, [])]), harness.tool_specs([listing, reader(ws, [])])]
    asked = [harness.user_message("Hi.")]
    replies = [await model.acomplete(SYSTEM, asked, specs[0]),
               await model.acomplete(SYSTEM, asked, specs[1], Flag())]
    t.expect([[harness.text_of(reply) for reply in replies],
              [[spec["function"]["name"] for spec in body.get("tools") or []]
               for body in provider.requests]],
             [["unused", "Again."], [["read"], ["list", "read"]]],
             "Two calls of one model just after those Stops, the first given no signal at all, "
             "the second a clear one and other tools. Items: the replies' words, the tools "
             "each request offered. A call with no signal has none set, so exactly one request "
             "goes out, its body to_wire of that call's own arguments: a model object keeps "
             "nothing of one call's signal, system prompt, messages or tools for the next "
             "(StreamingModel, lesson 16, Build item 1).")
    t.expect(provider.requests, [harness.to_wire(SYSTEM, asked, spec) for spec in specs],
             "Each request is to_wire(system, messages, tools) of that call's own arguments "
             "(StreamingModel, lesson 16).")
    long = [harness.user_message(f"Question {n // 2 + 1}?") if n % 2 == 0 else
            lab.reply(f"Answer {n // 2 + 1}.") for n in range(2 * t.random.randint(600, 800) + 1)]
    later = [("You answer in one line.", long, specs[1]), (SYSTEM, asked, specs[0])]
    found = []
    for system, messages, tools in later:
        before = len(provider.requests)
        reply = await model.acomplete(system, messages, tools, harness.CancelToken())
        sent = provider.requests[before:]
        found.append([len(messages), harness.text_of(reply), len(sent),
                      sent == [harness.to_wire(system, messages, tools)]])
        if len(found) == 2:  # once more, the same list edited in place
            asked[0] = harness.user_message(f"Hi, it is {t.random.choice(['me', 'Ann', 'Bo'])}.")
            later.append((SYSTEM, asked, specs[0]))
    t.expect(found,
             why="Three more calls of the same model: another system prompt and a record of "
                 f"{len(long)} messages, then the first call's arguments again, then those "
                 "same objects once more after its message list was edited in place (the same "
                 "list, the same length, another message). Each item is "
                 "[the messages handed over, the reply's words, the requests that call sent, "
                 "whether that request is to_wire(system, messages, tools) of its own "
                 "arguments]. Otherwise exactly one request goes out, its body the one to_wire "
                 "makes of the arguments: the whole record, never its tail, the system prompt "
                 "of this call, and a request sent again even when the same one was answered "
                 "before (StreamingModel, lesson 16, Build item 1).")
    other = reader(lab.Workspace({"b.py": "y = 2\n"}), [])
    offered = [reader(ws, []), listing, other]
    t.random.shuffle(offered)
    twice = harness.tool_specs(offered)
    keeping = Keeping(lab.FakeProvider([lab.say("Kept."), lab.say("Kept again."),
                                        [STOP, DONE], lab.say("Sent twice.")]))
    kept = harness.StreamingModel(keeping)
    calls = [(asked, twice), (asked, twice), (asked, specs[0])]  # the same request twice
    replies = [await kept.acomplete(SYSTEM, messages, tools) for messages, tools in calls]
    t.expect([[harness.text_of(reply) for reply in replies], replies[-1].get("error_message"),
              [[spec["function"]["name"] for spec in body.get("tools") or []]
               for body in keeping.bodies],
              [body == harness.to_wire(SYSTEM, messages, tools)
               for body, (messages, tools) in zip(keeping.bodies, calls)],
              len({id(body) for body in keeping.bodies})],
             why="A client that keeps the body it is handed, the object itself, and names its "
                 f"model ({keeping.model!r}), as a real client does; tools "
                 f"{[spec['name'] for spec in twice]}, two of them named read (two "
                 "workspaces' read tools). One model asked three times: those tools, the same "
                 "arguments again, then other tools, answered by a stream that finishes with no "
                 "words. Items: the replies' words, the third reply's error_message, the tools "
                 "of each body the client kept, whether each body, looked at after the last "
                 "reply, is still to_wire(system, messages, tools) of its call's arguments, how "
                 "many distinct objects those bodies are. The body is the one to_wire makes, "
                 "every tool it was given and nothing of the client's (the client adds its model "
                 "itself); each call makes a body of its own, and once handed over it is the "
                 "client's: nothing is taken from it or added to it afterwards, nor is it "
                 "reused; an empty reply is a reply, and no second request goes out (to_wire, "
                 "lab 16.1, Build item 3; StreamingModel, lesson 16, Build item 1).")
    count = t.random.randint(1_030, 1_400)  # tools past 1,024: no one count to stop at
    wide = harness.tool_specs([tool(f"t{n}", lambda arguments: "", PATH, f"Tool {n}.")
                               for n in range(count)])
    watching = Watching([text("Fine."), STOP, DONE])
    kinds = t.random.sample(WHITE, len(WHITE))
    sent = []
    for n, kind in enumerate(kinds):
        system, tools = kind + SYSTEM + kind, wide if n == 0 else specs[0]
        client = AllAtOnce([text("Fine."), STOP, DONE], 0, None) if n == 0 else watching
        reply = await harness.StreamingModel(client).acomplete(system, asked, tools, Flag())
        body = client.requests[-1]
        sent.append([harness.text_of(reply), body == harness.to_wire(system, asked, tools),
                     body["messages"][0]["content"] == system, len(body.get("tools") or [])])
    t.expect([sent, watching.changed],
             why=f"A model asked {len(kinds)} times, each with a clear signal and a system "
                 "prompt with white space at both ends, of another kind each time "
                 f"({', '.join(repr(kind) for kind in kinds)}); the first time with {count:,} "
                 "tools, then with one, through a client that keeps each body, the object "
                 "itself, and each time a line is asked for looks whether it is still what it "
                 "was when handed over. Each item of the first is [the reply's words, whether the body "
                 "is to_wire(system, messages, tools) of the call's own arguments, whether its "
                 "system message is the system prompt as given, the tools it offers]; the "
                 "second is how many looks found the body changed. Exactly one request goes "
                 "out, its body the one to_wire makes of the arguments: every tool, however "
                 "many, the system prompt as it was given; and once handed to the client the "
                 "body is the client's, nothing taken from it or added to it afterwards, not "
                 "even for a while (StreamingModel, lesson 16, Build item 1).")
    yes, no = t.random.choice([1, 2, "yes", [None], 0.5]), t.random.choice([0, "", [], 0.0])
    before = Watching([text("Unused."), STOP, DONE])
    during = Watching([text("Too late."), STOP, DONE])
    replies = [await harness.StreamingModel(before).acomplete(SYSTEM, asked, [], Answers(no, yes)),
               await harness.StreamingModel(during).acomplete(SYSTEM, asked, [],
                                                              Answers(no, yes, during))]
    t.expect([[reply["stop_reason"], harness.text_of(reply)] for reply in replies]
             + [len(before.requests), len(during.requests), during.last.closed],
             [["aborted", ""], ["aborted", ""], 0, 1, True],
             f"Two signals of the test's own whose is_cancelled() answers {yes!r} for set and "
             f"{no!r} for clear, no bool: the first set from the start, the second clear until "
             "the request is sent and set from then on, its response's lines all ready at "
             "once. Items: each reply's [stop_reason, words], the requests each client got, "
             "whether the second response was closed. A signal's answer is read as a "
             "condition, as any `if` reads one: an answer of 1 is set (CancelToken, lesson 15; "
             "StreamingModel, lesson 16, Build items 1 and 2).")
    # The caller's messages and tools, every list and dict of them down to a call's arguments
    # and a tool's parameters one that notes each change made to it, even one taken back
    # before acomplete returns: it reads them and changes none of them, not even for a moment
    record = [harness.user_message("Look at a.py.")]
    for n in range(t.random.randint(1, 4)):
        record += [lab.reply(f"Reading, turn {n + 1}.",
                             lab.call("read", {"path": "a.py"}, id=f"r{n + 1}")),
                   {"role": "toolResult", "tool_call_id": f"r{n + 1}", "tool_name": "read",
                    "content": "x = 1\n", "is_error": False},
                   harness.user_message(f"And now, {t.random.choice(['Ann', 'Bo', 'me'])}?")]
    kit = [reader(ws, []), listing, reader(lab.Workspace({"b.py": "y = 2\n"}), [])]
    t.random.shuffle(kit)
    kit = kit[:t.random.randint(1, len(kit))]
    handed = Watching([text("Read."), STOP, DONE])
    calls = [("a signal already set", Flag(up=True)), ("a clear signal", Flag())]
    t.random.shuffle(calls)
    watched = []
    for said, signal in calls:
        messages, tools = noted(record), noted(kit)
        reply = await harness.StreamingModel(handed).acomplete(SYSTEM, messages, tools, signal)
        watched.append([said, reply["stop_reason"],
                        changes_in(messages, "messages") + changes_in(tools, "tools")])
    t.expect([watched, handed.requests == [harness.to_wire(SYSTEM, record, kit)]],
             [[[said, "aborted" if signal.up else "stop", []] for said, signal in calls], True],
             f"A model asked twice, first with {calls[0][0]}, then with {calls[1][0]}, "
             f"and each time a record of {len(record)} messages and the tools "
             f"{[x['name'] for x in kit]}, whose "
             "every list and dict, down to a call's arguments and a tool's parameters, notes "
             "each change made to it, even one taken back before acomplete returned. Each item "
             "of the first is [the signal, the reply's stop_reason, each list or dict changed "
             "and the methods that changed it]; the second is whether the one request sent is "
             "to_wire of the arguments as they were. The messages and tools handed to acomplete "
             "are the caller's: it reads them and changes none of them, not even for a moment, "
             "so nothing is appended to the record and popped again, nor written into a tool "
             "and put back (StreamingModel, lesson 16, Build item 1, \"changes none of them, "
             "not even for a moment\").")


@lab_test("Keep-alive comments and blank lines between the data lines are skipped, and a "
          "comment or a text that holds the words [DONE] ends nothing; a line that is not a "
          "stream line ends the reply as an \"error\", without raising, is the last line read, "
          "and closes the response; an error line is read past, to [DONE].")
async def test_what_a_stream_carries_between_chunks(t):
    llama = lab.stream_lines(lab.fail("out of memory", "Half an"), real="llamacpp")
    provider = lab.FakeProvider([
        ["", ": keep-alive", text("Fine"), "", lab.pause(3), ": [DONE] comes after the words",
         text(" here; say [DONE] when done."), STOP, DONE],
        [text("Par"), "data: {not json", text("tial"), STOP, DONE],
        llama,
    ])
    h = harness.Harness(harness.StreamingModel(provider), SYSTEM, [])
    await lab.drive(h.prompt("Status?"))
    t.expect([lab.shape(h.messages), harness.text_of(h.messages[-1])],
             ["U A", "Fine here; say [DONE] when done."],
             "The stream held '', ': keep-alive', a comment that mentions [DONE], two text "
             "lines (the second with [DONE] among its words) and a pause between them: "
             "decode_line gives None for a line that carries nothing, and acomplete skips it; "
             "only a line that decodes to STREAM_DONE ends the stream, not one that holds the "
             "text [DONE] (StreamingModel, lesson 16).")
    await lab.drive(h.prompt("And now?"))
    t.expect([h.messages[-1], provider.responses[1].lines_read, provider.open_responses()],
             [{"role": "assistant", "content": [], "stop_reason": "error",
               "error_message": "not a stream line: 'data: {not json'"}, 2, []],
             "The second stream held 'data: {not json' as its second line, more lines after "
             "it. Items: the reply, the lines read, the responses left open. decode_line raises "
             "ValueError, and acomplete turns it into error_message(str(exc)): that line ends "
             "the reply, no line after it is read, and the response is closed "
             "(StreamingModel, lesson 16).")
    before = [text(word) for word in t.random.sample(["Par", "tial", " and", " then"],
                                                    t.random.randint(1, 3))]
    fast = AllAtOnce(before + ["data: {not json", text(" more"), STOP, DONE], 0, None)
    reply = await harness.StreamingModel(fast).acomplete(SYSTEM, [harness.user_message("Again?")])
    t.expect([reply, fast.lines_read, fast.closed],
             [{"role": "assistant", "content": [], "stop_reason": "error",
               "error_message": "not a stream line: 'data: {not json'"}, len(before) + 1, True],
             f"A response whose lines are all ready at once held 'data: {{not json' as line "
             f"{len(before) + 1}, more lines after it ready too. Items: the reply, the lines "
             "read, closed. A line that decode_line refuses is the last line read, even when "
             "the next one is ready at once: the reply ends there, and nothing after it is "
             "read, not even one more line to see what came (StreamingModel, lesson 16, Build "
             "item 2).")
    spoken = t.random.choice([" more", " later", " again"])
    edges = []
    long = "data: {" + ", ".join(["not json"] * t.random.randint(60, 400))  # 600 to 4,000 long
    for odd in ("data:", "data: ", " " + text(spoken), "\t" + DONE,
                "data: {not json" + t.random.choice(["\r", "\r\n", "\n"]), long):
        fast = AllAtOnce([text("Fine")] + [odd, text("."), STOP, DONE], 0, None)
        reply = await harness.StreamingModel(fast).acomplete(SYSTEM, [harness.user_message("Hi?")])
        edges.append([odd, reply["stop_reason"], reply.get("error_message"),
                      harness.text_of(reply), fast.lines_read, fast.closed])
    t.expect(edges,
             why="Responses whose lines are all ready at once: 'Fine', then one odd line, then "
                 "'.', a finish and [DONE]. The odd lines: a data line with an empty payload, "
                 "the same with a space after the colon, a text line whose field name begins "
                 f"with a space (its words {spoken!r}), and [DONE] after a tab. Each item is [the "
                 "odd line, the reply's stop_reason, its error_message, its words, the lines "
                 "read, closed]. Then a broken line that ends in a line break as read, and a "
                 f"broken line {len(long):,} characters long. "
                 "Every line goes to decode_line as it was read, never tidied, cut "
                 "or judged first, and the reply's error_message is its ValueError's text, "
                 "whole: an empty payload is no JSON object, so decode_line refuses it "
                 "and the reply is an error ending with no words; a field that is not `data:` "
                 "as read carries nothing and is skipped (decode_line, lab 16.1; StreamingModel, "
                 "lesson 16, Build item 2).")
    size = t.random.randint(20_001, 80_000)  # one chunk's words, longer than any cap a reader drew
    huge = t.random.randint(1_048_577, 1_150_000)  # one line past a mebibyte: a reply's, whole
    word = t.random.choice(["tea ", "rows ", "plans "])
    said = (word * (size // len(word) + 1))[:size]
    first = (word * (huge // len(word) + 1))[:huge]
    copies = t.random.randint(2, 5)
    quiet = t.random.randint(1_001, 1_900)  # keep-alives in a row; the reply under 2,000 lines
    fast = AllAtOnce([text(first)] + [": keep-alive"] * quiet + [text(said)] * (copies - 1)
                     + [STOP, DONE], 0, None)
    reply = await harness.StreamingModel(fast).acomplete(SYSTEM, [harness.user_message("All?")])
    total = huge + size * (copies - 1)
    t.expect([reply["stop_reason"], len(harness.text_of(reply)),
              harness.text_of(reply) == first + said * (copies - 1), fast.lines_read,
              fast.closed],
             ["stop", total, True, copies + quiet + 2, True],
             f"A response whose lines are all ready at once: a chunk of {huge:,} characters of "
             f"words, then {quiet:,} keep-alive comments in a row, then a chunk of {size:,} "
             f"characters {copies - 1} times ({total:,} characters in all), a finish and "
             "[DONE]. Items: the reply's stop_reason, the length of its words, whether they are "
             "every chunk's, the lines read, closed. Every line goes to decode_line as it was "
             "read, however long: only decode_line's refusal is a refused line; lines that "
             "carry nothing are skipped, however many come in a row; and the response is read "
             "to its end, however long the reply (StreamingModel, lesson 16, Build item 2).")
    untidy, kinds = [], t.random.sample(WHITE, len(WHITE))
    for kind in kinds:
        pieces = [kind + t.random.choice(COMPOSED), " ", t.random.choice(ESCAPED) + kind]
        fast = AllAtOnce([raw(piece) for piece in pieces] + [STOP, DONE], 0, None)
        reply = await harness.StreamingModel(fast).acomplete(SYSTEM, [harness.user_message("Say?")])
        untidy.append([reply["stop_reason"], harness.text_of(reply) == "".join(pieces)])
    t.expect(untidy, [["stop", True]] * len(kinds),
             f"{len(kinds)} responses whose lines are all ready at once, each of three text "
             "lines written as a server writes them, not escaped to ASCII: words that Unicode "
             "normalisation (NFC, NFD, NFKC or NFKD) would change, a space, and words holding "
             "lone surrogates (as a client that decodes with errors='surrogateescape' hands "
             "them on), with white space of another kind at both ends each time "
             f"({', '.join(repr(kind) for kind in kinds)}). Each item is [the reply's "
             "stop_reason, whether its words are the lines' words exactly]. Each line goes to "
             "decode_line as it was read, never tidied first, and the reply is then what "
             "assemble makes of the chunks: nothing normalised, re-encoded or stripped "
             "(StreamingModel, lesson 16, Build item 2).")
    many = t.random.randint(1_030, 1_200)  # chunks past 1,024: no one count to stop at
    spoken = t.random.choices("abc", k=many)
    lines = {piece: text(piece) for piece in "abc"}
    fast = AllAtOnce([lines[piece] for piece in spoken] + [STOP, DONE], 0, None)
    reply = await harness.StreamingModel(fast).acomplete(SYSTEM, [harness.user_message("On?")])
    t.expect([reply["stop_reason"], harness.text_of(reply) == "".join(spoken), fast.lines_read,
              fast.closed],
             ["stop", True, many + 2, True],
             f"A response whose lines are all ready at once: {many:,} text lines of one letter "
             "each, a finish and [DONE]. Items: the reply's stop_reason, whether its words are "
             "every line's, the lines read, closed. The response is read to its end, where a "
             "line decodes to STREAM_DONE: no count of chunks ends it, however many "
             "(StreamingModel, lesson 16, Build item 2).")
    await lab.drive(h.prompt("Once more?"))
    t.expect([h.messages[-1], provider.responses[2].lines_read, provider.open_responses()],
             [{"role": "assistant", "content": [{"type": "text", "text": "Half an"}],
               "stop_reason": "error", "error_message": "out of memory"}, len(llama), []],
             "The third stream is llama.cpp's: words, then `error: {\"code\": 500, \"message\": "
             "\"out of memory\", ...}`, then `data: [DONE]`. Items: the reply, the lines read, "
             "the responses left open. An `error:` line carries something, the server's reason, "
             "so it is not skipped as a line that carries nothing: every line goes to "
             "decode_line, an error chunk does not end the reading, the response is read to its "
             "end, and assemble makes the failure of the chunks (decode_line and "
             "StreamingModel, lesson 16).")


class Watched:
    """A client in front of `provider` that notes, for each read_line() call made while the
    response's ready() said False, how many lines had been read by then."""

    def __init__(self, provider):
        self.provider, self.early = provider, []

    def open(self, body):
        response = self.provider.open(body)
        read = response.read_line

        def read_line():
            if not response.ready():
                self.early.append(response.lines_read)
            return read()
        response.read_line = read_line
        return response


QUIET = 9_000  # loop turns of silence: long, as a provider that thinks or is overloaded is;
# a test's budget is 10,000 turns


@lab_test("A provider that says nothing for 9,000 loop turns in the middle of a reply is "
          "waited for: the reply is its whole answer, and the signal is looked at on every turn of "
          "the silence. read_line() is called only once ready() says a line can be had.")
async def test_a_quiet_provider_is_waited_for(t):
    provider = lab.FakeProvider([[text("Let me think"), lab.pause(QUIET), text(" it over."),
                                  STOP, DONE]])
    client, flag = Watched(provider), Flag()
    with hours_pass():  # each reading of the clock a minute on: the silence lasts days
        reply = await harness.StreamingModel(client).acomplete(
            SYSTEM, [harness.user_message("Plan?")], [], flag)
    t.expect([reply["stop_reason"], harness.text_of(reply), provider.open_responses()],
             ["stop", "Let me think it over.", []],
             f"The provider sent a line, said nothing for {QUIET} loop turns, then finished, "
             "while each reading of the clock was a minute after the last. A "
             "provider can stop sending for a long while in the middle of a reply, thinking or "
             "overloaded, and the lesson sets no limit on how long: only a Stop or the end of "
             "the stream ends the reading, never a count of quiet looks, and no timeout by the "
             "clock either. Items: the reply's "
             "stop_reason, its words, the responses left open (StreamingModel, lesson 16).")
    t.expect(client.early, [],
             "Each item is the lines read so far when read_line() was called while ready() "
             "said False. A response offers read_line() only once ready() is True: look with "
             "ready() first and give the loop a turn while it is False, rather than call "
             "read_line() and take a RuntimeError for \"not yet\", which would hide a "
             "RuntimeError that means something else (StreamingModel, lesson 16).")
    t.expect(flag.looks >= QUIET, True,
             f"A clear signal was handed over, and looked at {flag.looks} times in a reply "
             f"with {QUIET} quiet turns. The signal is looked at on every turn of the silence, "
             "however long it has lasted: give the loop one turn, not several, between two "
             "looks, so a Stop lands within a turn even after a long wait (StreamingModel, "
             "lesson 16).")


class Faulty:
    """A client whose one response gives `lines`, then raises `fault` from ready() or from
    read_line() (`where`). No provider trouble looks like this here: a connection that drops
    ends the stream, and read_line() gives None."""

    def __init__(self, lines, fault, where):
        self.lines, self.fault, self.where = list(lines), fault, where
        self.lines_read, self.closed = 0, False

    def open(self, body):
        return self

    def ready(self):
        if self.where == "ready" and self.lines_read == len(self.lines) and not self.closed:
            raise self.fault
        return not self.closed

    def read_line(self):
        if self.closed:
            raise RuntimeError("the response is closed")
        if self.lines_read == len(self.lines):
            raise self.fault
        self.lines_read += 1
        return self.lines[self.lines_read - 1]

    def close(self):
        self.closed = True


@lab_test("What ready() or read_line() raise is a fault in the reading, not the provider's "
          "trouble (a dropped connection ends the stream with None): it goes up as it was "
          "raised, whatever its class, and the response is closed.")
async def test_a_fault_in_the_reading_goes_up(t):
    found = []
    for fault, where in ((OSError("the adapter's socket went away"), "read_line"),
                         (LookupError("no line 3 in the adapter's buffer"), "ready"),
                         (RuntimeError("the adapter's buffer was freed twice"), "read_line"),
                         (ConnectionResetError("the adapter reset its own socket"), "ready"),
                         (ValueError("the adapter lost its place in the buffer"), "ready"),
                         (ValueError("the adapter's buffer holds no line"), "read_line"),
                         (EOFError("the adapter's stream ended early"), "read_line"),
                         (BrokenPipeError(32, "Broken pipe"), "read_line"),
                         (ConnectionResetError(104, "Connection reset by peer"), "read_line"),
                         (TimeoutError("the adapter's socket timed out"), "ready")):
        client = Faulty([text("Half "), text("an answer")], fault, where)
        model = harness.StreamingModel(client)
        task = asyncio.ensure_future(raised(lambda: model.acomplete(
            SYSTEM, [harness.user_message("Hello?")])))
        if await turns_until_done(task, 40) == 40:  # a fault taken for "not yet" reads for ever
            task.cancel()
            await turns_until_done(task)
        said = task.result() if not task.cancelled() else "still reading after 40 turns"
        found.append([where, said, client.closed])
    t.expect(found,
             [["read_line", "OSError: the adapter's socket went away", True],
              ["ready", "LookupError: no line 3 in the adapter's buffer", True],
              ["read_line", "RuntimeError: the adapter's buffer was freed twice", True],
              ["ready", "ConnectionResetError: the adapter reset its own socket", True],
              ["ready", "ValueError: the adapter lost its place in the buffer", True],
              ["read_line", "ValueError: the adapter's buffer holds no line", True],
              ["read_line", "EOFError: the adapter's stream ended early", True],
              ["read_line", "BrokenPipeError: [Errno 32] Broken pipe", True],
              ["read_line", "ConnectionResetError: [Errno 104] Connection reset by peer", True],
              ["ready", "TimeoutError: the adapter's socket timed out", True]],
             "Each item is [where the response raised after two lines of words, what acomplete "
             "raised, whether the response was closed]. A connection that drops ends the "
             "stream (read_line() gives None), so the provider's trouble never arrives as an "
             "exception from ready() or read_line(): one that does is a fault in the reading "
             "or in the response, and it goes up as it was raised, whatever its class (a "
             "RuntimeError, a ConnectionError, an EOFError, a TimeoutError or a ValueError too: "
             "none is the end of the stream or \"not ready yet\", and only decode_line's "
             "ValueError is a refused line), as an exception from the "
             "model does (lesson 5), never recorded as an \"error\" reply nor taken for the "
             "end of the stream; the finally "
             "closes the response on this way out too (StreamingModel, lesson 16).")
    more = []
    for lines, fault, where in (([], LookupError("the adapter has no buffer yet"), "ready"),
                                ([text("Half "), text("an answer")],
                                 KeyboardInterrupt("Ctrl-C while reading"), "read_line"),
                                ([text("Half ")], SystemExit("the adapter shut down"),
                                 "read_line")):
        client = Faulty(lines, fault, where)
        said = await raised(lambda: harness.StreamingModel(client).acomplete(
            SYSTEM, [harness.user_message("Hello?")]))
        more.append([where, len(lines), said, client.closed])
    t.expect(more,
             why="Each item is [where the response raised, the lines it gave before, what "
                 "acomplete raised, whether the response was closed]: a fault on the very "
                 "first ready(), a KeyboardInterrupt from read_line(), which is not a Stop, "
                 "and a SystemExit from read_line(): "
                 "a Stop is the signal. What ready() or read_line() raise goes up as it was "
                 "raised, and the response is closed on every way out, a fault's included, the "
                 "first look's too, whatever was raised (StreamingModel, lesson 16, Build item "
                 "2).")


@lab_test("A call that arrives whole and is then followed by an error chunk, or by the end "
          "of the stream with no finish, is never run: the run ends with an \"error\" "
          "reply, and the next prompt is answered.")
async def test_a_call_that_looks_complete_is_not_acted_on(t):
    ws, ran = lab.Workspace({"a.py": "x = 1\n"}), []
    whole_call = lab.stream_lines(lab.reply(lab.call("read", {"path": "a.py"})), piece=100)
    provider = lab.FakeProvider([
        whole_call[:-2] + ['data: {"error": {"message": "server restarting"}}', DONE],
        whole_call[:-2],
        lab.say("Both attempts failed; try again later."),
    ])
    h = harness.Harness(harness.StreamingModel(provider), SYSTEM, [reader(ws, ran)])
    await lab.drive(h.prompt("Read a.py."))
    await lab.drive(h.prompt("Read a.py, please."))
    await lab.drive(h.prompt("What happened?"))
    t.expect([lab.shape(h.messages), [m.get("error_message") for m in h.messages], ran],
             ["U A(error) U A(error) U A",
              [None, "server restarting", None, "The stream ended before the reply was "
                                                "finished", None, None], []],
             "Both streams brought read(c1)'s arguments whole in their first line; then one "
             "sent an error chunk and the other simply ended, with no finish_reason. "
             "Arguments that parse are not a reply: read to the end of the stream, then let "
             "assemble decide, and nothing of a failed reply is run (StreamingModel and "
             "assemble, lesson 16).")
    t.expect([[m["role"] for m in provider.requests[2]["messages"]], provider.open_responses()],
             [["system", "user", "user", "user"], []],
             "The failed replies are empty, so the third request leaves them out (lesson 5's "
             "view): no call that never ran reaches the provider, and no response stays open.")


@lab_test("A run stopped mid-reply is followed by prompts that are answered as usual, each "
          "reply its own words, and the next request carries the stopped reply's words as the "
          "assistant's.")
async def test_life_goes_on_after_a_stop(t):
    provider = lab.FakeProvider([lab.say("First, the parser. Then the lexer."),
                                 lab.say("Stopped at your word."), lab.say("Fine.")])
    box = {}
    model = harness.StreamingModel(StopOnLine(provider, 2, lambda: box["h"].cancel()))
    h = box["h"] = harness.Harness(model, SYSTEM, [])
    await lab.drive(h.prompt("Plan the refactor."))
    await lab.drive(h.prompt("Why did you stop?"))
    await lab.drive(h.prompt("Thanks."))
    t.expect([lab.shape(h.messages), [harness.text_of(m) for m in h.messages[1::2]]],
             ["U A(aborted) U A U A", ["First,", "Stopped at your word.", "Fine."]],
             "Items: the record's shape, each reply's words. After a stopped reply the harness "
             "takes the next prompt; each run gets a fresh token (Harness, lesson 15). Each "
             "call returns one reply, made of its own response's lines: the stopped reply's "
             "words are in the record, and nothing of them is carried into the next reply "
             "(StreamingModel, lesson 16).")
    t.expect(provider.requests[1]["messages"][1:],
             [{"role": "user", "content": "Plan the refactor."},
              {"role": "assistant", "content": "First,"},
              {"role": "user", "content": "Why did you stop?"}],
             "The stopped reply kept the words read before Stop, so the next request shows the "
             "model what it had said (StreamingModel and to_wire, lesson 16).")


# The families below draw their streams from t.random.
WORDS = ["Reading", "the", "caf\u00e9", "notes", "first;", "\"quoted\"", "two\nlines", "C:\\temp",
         "then", "fixing", "it."]
BETWEEN = ["", ": keep-alive", ":", "event: ping"]  # lines that carry nothing


def draw_message(random, call=False):
    """A reply a provider may stream: words, and sometimes a read call after them (always, with
    `call`)."""
    words = " ".join(random.sample(WORDS, random.randint(2, 6)))
    if not call and random.random() < 0.5:
        return lab.say(words)
    return lab.reply(words, lab.call("read", {"path": random.choice(["a.py", "notes/caf\u00e9.md"])},
                                     id=f"call_{random.randrange(100, 1000)}"))


def draw_lines(random, message):
    """The lines of `message` cut into drawn fragments, with lines that carry nothing and short
    pauses put in at drawn places, and [DONE] spelt with or without the space after the colon."""
    lines = lab.stream_lines(message, piece=random.randint(1, 8))
    lines[-1] = random.choice(["data: [DONE]", "data:[DONE]"])
    for _ in range(random.randint(0, 4)):
        lines.insert(random.randrange(len(lines)), random.choice(BETWEEN))
    if random.random() < 0.5:
        lines.insert(random.randrange(len(lines)), lab.pause(random.randint(1, 3)))
    return lines


def arrival(lines, upto):
    """The loop turn, counted from opening, at which item `upto` of a FakeProvider stream is
    ready: one turn per line, pause(n) n more."""
    return sum(getattr(item, "turns", 1) for item in lines[:upto + 1])


def said(lines):
    """The words in the text deltas among `lines`."""
    return "".join(json.loads(line[len("data: "):])["choices"][0]["delta"].get("content", "")
                   for line in lines if isinstance(line, str) and line.startswith("data: {"))


async def reading(model, limit):
    """acomplete's reply to one prompt, given `limit` loop turns; None if it has not returned
    by then (its task is then cancelled, as a user who gives up would)."""
    box = {}

    async def ask():
        box["reply"] = await model.acomplete(SYSTEM, [harness.user_message("Go on.")], [],
                                             harness.CancelToken())
    async with lab.background(ask()) as task:
        await turns_until_done(task, limit)
    return box.get("reply")


@lab_test("[DONE] ends the reading, whatever the connection does next: drawn replies whose "
          "server then holds the connection open (sending nothing more, or keep-alives) or "
          "sends more lines, slowly or all ready at once, each come back within five turns of "
          "[DONE], with no line after it read and the response closed.")
async def test_done_ends_the_reading_whatever_follows(t):
    tails = {"nothing more, ever": [lab.HANG],
             "keep-alives, then nothing": [": keep-alive", lab.pause(4), ": keep-alive",
                                           lab.pause(4), "", lab.HANG],
             "more lines, then the end": [": keep-alive", text(" (after the end)"), STOP, DONE]}
    drawn = list(tails) + [t.random.choice(list(tails))]
    spellings = ["data: [DONE]", "data:[DONE]"] * 2
    t.random.shuffle(drawn)
    t.random.shuffle(spellings)
    cases = []
    for tail, done in zip(drawn, spellings):
        message = draw_message(t.random)
        lines = draw_lines(t.random, message)
        lines[-1] = done
        provider = lab.FakeProvider([lines + tails[tail]])
        reply = await reading(harness.StreamingModel(provider), arrival(lines, len(lines) - 1) + 5)
        response = provider.responses[0]
        cases.append([tail, message, sum(isinstance(line, str) for line in lines),
                      [reply, response.lines_read, response.closed]])
    message = draw_message(t.random)
    lines = [line for line in draw_lines(t.random, message) if isinstance(line, str)]
    fast = AllAtOnce(lines + [line for line in tails["more lines, then the end"]], 0, None)
    reply = await reading(harness.StreamingModel(fast), 20 + len(fast.lines))  # a turn a line
    cases.append(["more lines, all ready at once", message, len(lines),
                  [reply, fast.lines_read, fast.closed]])
    t.expect([[tail, found] for tail, message, count, found in cases],
             [[tail, [message, count, True]] for tail, message, count, found in cases],
             "Each item is [what the server sent after `data: [DONE]`, [acomplete's reply "
             "(None: it had not returned five turns after [DONE] arrived), lines read, "
             "closed]]. `data: [DONE]` (or `data:[DONE]`, the space is optional) ends the "
             "stream: stop reading there and close the response, and nothing after it is "
             "read, even lines that are ready at once. A reader that waits for the "
             "connection to end waits as long as the server holds it open; against a real one, "
             "one prompt took 41.7 s instead of 1.8 s (StreamingModel, lesson 16).")
    message = draw_message(t.random)
    lines = [line for line in draw_lines(t.random, message) if isinstance(line, str)]
    ended = AllAtOnce([line for line in lines if "[DONE]" not in line], 0, None)
    reply = await reading(harness.StreamingModel(ended), 20 + len(ended.lines))
    t.expect([reply, ended.lines_read, ended.ends, ended.closed],
             why="A response whose lines are all ready at once and whose connection ends "
                 "with no [DONE]: read_line() gives None after the last line. Items: the reply, "
                 "the lines read, the times read_line() gave None, whether the response was "
                 "closed. The response is read to its end, where read_line() gives None, and "
                 "nothing after that end is read: not even read_line() once more to be sure "
                 "(StreamingModel, lesson 16, Build item 2).")
    word = t.random.choice(["Ha", "No", "Well", "Yes"])
    again = []
    for lines in ([], [text(word), text(word), text(f" {word.lower()}!"), STOP, DONE]):
        fast = AllAtOnce(lines, 0, None)
        reply = await reading(harness.StreamingModel(fast), 20 + len(lines))
        again.append([len(lines), reply, len(fast.requests), fast.ends, fast.closed])
    t.expect(again,
             why="Two responses whose lines are all ready at once: one whose connection ends "
                 f"before its first line, one whose words come as {word!r}, {word!r} again, then "
                 "more. Each item is [the lines sent, the reply (None: not returned within 20 "
                 "turns more than its lines), the requests sent, the times read_line() gave None, whether the "
                 "response was closed]. The response is read to its end, and the reply is what "
                 "assemble makes of every chunk read, a chunk the same as the one before "
                 "included; no second request goes out, even when nothing came (StreamingModel, "
                 "lesson 16, Build items 1 and 2).")
    cut = [text(piece) for piece in t.random.sample(["Par", "tial", " and", " then"],
                                                     t.random.randint(1, 3))]
    early = AllAtOnce(cut + [t.random.choice(["data: [DONE]", "data:[DONE]"]),
                             text(" (after the end)"), STOP, DONE], 0, None)
    reply = await reading(harness.StreamingModel(early), 20 + len(early.lines))
    t.expect([reply, early.lines_read, early.closed],
             why=f"A response whose lines are all ready at once: {len(cut)} lines of words cut "
                 "off before any finish, then `[DONE]`, then more words, a finish and [DONE] "
                 "again. Items: the reply (None: not returned), the lines read, closed. A line "
                 "that decodes to STREAM_DONE is the end of the stream even when no finish came "
                 "before it: nothing after it is read, and the reply is what assemble makes of "
                 "the chunks before it, a reply cut short (StreamingModel, lesson 16, Build item "
                 "2).")


@lab_test("Connections that drop at drawn points after some words arrived: each reply is an "
          "\"error\", The stream ended before the reply was finished, with the words that "
          "came and no call run; every response is closed and the next prompt is answered.")
async def test_a_connection_that_drops_mid_reply(t):
    ws, ran = lab.Workspace({"a.py": "x = 1\n", "notes/caf\u00e9.md": "Open.\n"}), []
    cuts = []
    for _ in range(3):
        lines = draw_lines(t.random, draw_message(t.random))
        first_words = next(n for n, line in enumerate(lines) if said([line]))
        finish = next(n for n, line in enumerate(lines) if "finish_reason" in str(line))
        cuts.append(lines[:t.random.randint(first_words + 1, finish)])  # the finish never comes
    provider = lab.FakeProvider(cuts + [lab.say("Back again.")])
    h = harness.Harness(harness.StreamingModel(provider), SYSTEM, [reader(ws, ran)])
    for n in range(len(cuts) + 1):
        await lab.drive(h.prompt(f"Prompt {n + 1}."))
    t.expect([lab.shape(h.messages), [m.get("error_message") for m in h.messages[1::2]],
              [harness.text_of(m) for m in h.messages[1::2]], ran, provider.open_responses()],
             ["U A(error) U A(error) U A(error) U A",
              ["The stream ended before the reply was finished"] * len(cuts) + [None],
              [said(lines) for lines in cuts] + ["Back again."], [], []],
             "Three streams dropped at drawn points after some of their words (the connection "
             "gone, read_line gives None, with no finish and no [DONE]), then a whole reply. "
             "Items: the record's shape; each reply's error_message; each reply's words; the "
             "calls run; the responses left open. A reply cut short is an \"error\" that keeps "
             "its words and runs no call, even one that looks complete, and the harness goes on "
             "(StreamingModel and assemble, lesson 16).")


@lab_test("Stop pressed just as a drawn line of a drawn stream is read, the finish line "
          "among them, and on a response whose lines are all ready at once just as a line that "
          "carries nothing or the finish is read: the reply is aborted with the words read so "
          "far, no later line is read, and the response is closed.")
async def test_stop_at_drawn_points(t):
    cases = []
    for _ in range(4):
        lines = draw_lines(t.random, draw_message(t.random))
        spoken = [line for line in lines if isinstance(line, str)]
        n = t.random.randint(1, len(spoken) - 1)  # any line before [DONE]
        token = harness.CancelToken()
        provider = lab.FakeProvider([lines])
        model = harness.StreamingModel(StopOnLine(provider, n, token.cancel))
        reply = await model.acomplete(SYSTEM, [harness.user_message("Go on.")], [], token)
        response = provider.responses[0]
        cases.append([n, said(spoken[:n]), [reply, response.lines_read, response.closed]])
    lines = draw_lines(t.random, draw_message(t.random, call=True))  # the call whole by the finish
    spoken = [line for line in lines if isinstance(line, str)]
    finish = 1 + next(n for n, line in enumerate(spoken) if "finish_reason" in line)
    token = harness.CancelToken()
    provider = lab.FakeProvider([lines])
    model = harness.StreamingModel(StopOnLine(provider, finish, token.cancel))
    reply = await model.acomplete(SYSTEM, [harness.user_message("Go on.")], [], token)
    response = provider.responses[0]
    cases.append([finish, said(spoken[:finish]), [reply, response.lines_read, response.closed]])
    at = t.random.randint(1, finish - 1)
    quick = spoken[:at] + [t.random.choice(BETWEEN)] + spoken[at:]  # all ready at once
    for n in (at + 1, finish + 1):  # Stop with the line that carries nothing, then the finish
        token = harness.CancelToken()
        fast = AllAtOnce(quick, n, token.cancel)
        reply = await harness.StreamingModel(fast).acomplete(
            SYSTEM, [harness.user_message("Go on.")], [], token)
        cases.append([n, said(quick[:n]), [reply, fast.lines_read, fast.closed]])
    t.expect([[n, found] for n, words, found in cases],
             [[n, [{"role": "assistant", "stop_reason": "aborted",
                    "error_message": "Operation aborted",
                    "content": [{"type": "text", "text": words}] if words else []}, n, True]]
              for n, words, found in cases],
             "Each item is [the line Stop came with, [acomplete's reply, lines read, closed]]; "
             "the fifth item's reply brings a read call, whole by its finish line, and the last "
             "two items' lines were all ready at once. "
             "The signal is looked at first on every lap, so Stop lands before the next line "
             "is read, whatever that line is (text, a fragment of a call, a keep-alive, the "
             "finish): the reply is assemble(chunks, aborted=True), the words so far and no "
             "call, and the response is closed (StreamingModel, lesson 16).")
    late, start = [], t.random.randint(3, 12)
    for wait in (start, start + 1):  # lines come one a turn: a reader may be anywhere in its lap
        token = harness.CancelToken()
        provider = lab.FakeProvider([lab.say("Twelve tests fail in io, and two more in net.")])
        model, box = harness.StreamingModel(provider), {}

        async def ask(model=model, token=token, box=box):
            box["reply"] = await model.acomplete(SYSTEM, [harness.user_message("Go on.")], [],
                                                 token)
        async with lab.background(ask()) as task:
            await lab.ticks(wait)
            read = provider.responses[0].lines_read
            token.cancel()  # from outside the reading, between two of its turns
            await turns_until_done(task, 5)
        reply, response = box.get("reply"), provider.responses[0]
        late.append([wait, reply and reply["stop_reason"], response.lines_read - read,
                     response.closed])
    t.expect(late, [[wait, "aborted", 0, True] for wait, *_ in late],
             "Stop pressed from outside the reading, by another task, after a drawn number of "
             "turns while lines arrive one a turn. Each item is [the turns before Stop, the "
             "reply's stop_reason (None: not over within five turns), the lines read after "
             "Stop was pressed, closed]. No later line is read: look at the signal right before "
             "each read_line(), with no turn given to the loop between that look and the read, "
             "or a Stop pressed in that turn lets one more line in (StreamingModel, lesson 16).")


@lab_test("A recorded server's streams (lab.FakeProvider(real=NAME), NAME drawn from "
          "lab.SERVERS: OpenAI, vLLM, llama.cpp, Ollama with its calls at index 0 or with no "
          "index, a proxy's arguments as an object) run a job of two calls in a Harness as "
          "before; a request turned away before any line (502, 503, 504, 401, 400) and a "
          "reply stopped "
          "by the content filter each end their run as an \"error\" reply, with one request "
          "each, and the next prompt is answered.")
async def test_a_real_servers_shapes_and_refusals(t):
    ws, ran = lab.Workspace({"a.py": "x = 1\n", "b.py": "y = 2\n"}), []
    server = t.random.choice(sorted(lab.SERVERS))
    turned = t.random.sample([(503, "The server is overloaded"),
                              (401, "Incorrect API key provided"),
                              (400, "you must provide a model parameter"),
                              (502, "Bad gateway"), (504, "Gateway timeout")], 5)
    script = [lab.reply("Reading.", lab.call("read", {"path": "a.py"}),
                        lab.call("read", {"path": "b.py"})), lab.say("x is 1.")]
    script += [lab.refuse(said, status=status) for status, said in turned]
    script += [lab.stream_lines(lab.say("The answer is"), real=server, finish="content_filter"),
               lab.say("Back.")]
    provider = lab.FakeProvider(script, real=server)
    h = harness.Harness(harness.StreamingModel(provider), SYSTEM, [reader(ws, ran)])
    prompts = ["What is x?"] + [f"Again, {n}." for n in range(len(turned) + 2)]
    for prompt in prompts:
        await lab.drive(h.prompt(prompt))
    endings = [[m["stop_reason"], m.get("error_message"), harness.text_of(m)]
               for m in h.messages[6::2]]
    t.expect([server, lab.shape(h.messages[:5]), ran, endings, len(provider.requests),
              provider.open_responses()],
             [server, "U A[c1,c2] R(c1) R(c2) A", ["a.py", "b.py"],
              [["error", "Provider request failed: " + turned_away_text(status, said),
                ""] for status, said in turned]
              + [["error", "The provider's content filter stopped the reply", "The answer is"],
                 ["stop", None, "Back."]],
              len(prompts) + 1, []],
             "Items: the server whose shapes were streamed (lab.SERVERS[name].shapes says what "
             "sets it apart); the first job's shape; the calls run; each later reply's "
             "[stop_reason, error_message, words]; the requests sent; the responses left open. "
             "A server's own shapes add nothing, and Ollama's two calls at one index are two "
             "calls. A status "
             "before any line makes open raise ConnectionError, and that is a reply, "
             "\"Provider request failed: \" and its text, after exactly one request: nothing "
             "was streamed, and whether to send again is not acomplete's to decide. A "
             "content_filter finish is a reply that did not arrive whole (StreamingModel and "
             "assemble, lesson 16).")


def turned_away_text(status, said, retry_after=None):
    """What a client says when the server answered `status` before any line: the error's text,
    as lab.refuse(said, status=status, retry_after=...) raises it."""
    try:
        lab.FakeProvider([lab.refuse(said, status=status, retry_after=retry_after)]).open({})
    except ConnectionError as refused:
        return str(refused)


@lab_test("A 429 is one of two troubles, told apart by the model object: a rate limit "
          "(Retry-After: N, 0 included, or none given) is a reply saying to send again in N s, "
          "or later; spent quota (code insufficient_quota, OpenAI's body) is a reply saying waiting will "
          "not help. Each costs one request, and the next prompt is answered.")
async def test_a_rate_limit_is_not_spent_quota(t):
    wait = t.random.randint(1, 90)
    # Retry-After: 0 too, which says "now" and is a number all the same, not "none given"
    troubles = t.random.sample([("limit", wait), ("limit", 0), ("limit", None), ("quota", None)], 4)
    script = [lab.refuse(json.dumps(lab.RATE_LIMIT if kind == "limit" else lab.QUOTA),
                         status=429, retry_after=after) for kind, after in troubles]
    provider = lab.FakeProvider(script + [lab.say("Back.")], real=True)
    h = harness.Harness(harness.StreamingModel(provider), SYSTEM, [])
    for n in range(len(script) + 1):
        await lab.drive(h.prompt(f"Try {n}."))
    endings = [[m["stop_reason"], m.get("error_message"), harness.text_of(m)]
               for m in h.messages[1::2]]
    expected = []
    for (kind, after), entry in zip(troubles, script):
        said = turned_away_text(429, entry.text, retry_after=after)
        if kind == "quota":
            expected.append(["error", "Provider quota spent, so waiting will not help: " + said,
                             ""])
        else:
            later = "later" if after is None else f"in {after} s"
            expected.append(["error", f"Provider rate limit, so send again {later}: " + said,
                             ""])
    t.expect([[kind, after] for kind, after in troubles] + [endings, len(provider.requests)],
             [[kind, after] for kind, after in troubles] + [
                 expected + [["stop", None, "Back."]], len(script) + 1],
             "Items: the drawn troubles, [kind, Retry-After seconds or None]; then each reply's "
             "[stop_reason, error_message, words]; then the requests sent. The refusal the "
             "client raises carries .status (429), .code (\"insufficient_quota\" for spent "
             "quota, from the body) and .retry_after. A rate limit passes: the reply says when "
             "to send again. Spent quota does not: the reply says so, so nobody waits for "
             "nothing. Neither is sent again by acomplete (StreamingModel, lesson 16).")


class TooManyRequests(Exception):
    """A client library's refusal: status 429 on the exception, and words that do not say 429."""
    status, code, retry_after = 429, None, None


@lab_test("A 429 is told by the exception's status alone: a 400 whose body mentions 429 and a "
          "403 whose body carries code insufficient_quota are plain request failures, and a "
          "429 whose text never says 429 is still a rate limit; its code, read with getattr, "
          "not its words or its retry_after, says when the quota is spent.")
async def test_a_429_is_told_by_its_status(t):
    many = f"a request of 429 messages is over this model's limit of {t.random.randint(100, 400)}"
    provider = lab.FakeProvider([lab.refuse(many, status=400),
                                 lab.refuse(json.dumps(lab.QUOTA), status=403)], real=True)
    model = harness.StreamingModel(provider)
    found = [(await model.acomplete(SYSTEM, [harness.user_message("Hi.")]))["error_message"]
             for _ in range(2)]

    class Client:
        def open(self, body):
            raise TooManyRequests("Too Many Requests")

    reply = await harness.StreamingModel(Client()).acomplete(SYSTEM, [harness.user_message("Hi.")])
    wait = t.random.randint(1, 90)
    others = []
    for fault in (QuotaSpent("You exceeded your current quota", wait), StatusOnly("Slow down")):
        others.append((await harness.StreamingModel(Refusing(fault)).acomplete(
            SYSTEM, [harness.user_message("Hi.")]))["error_message"])
    t.expect(found + [reply["error_message"]] + others,
             ["Provider request failed: " + turned_away_text(400, many),
              "Provider request failed: " + turned_away_text(403, json.dumps(lab.QUOTA)),
              "Provider rate limit, so send again later: Too Many Requests",
              "Provider quota spent, so waiting will not help: You exceeded your current quota",
              "Provider rate limit, so send again later: Slow down"],
             "Items: the error_message for a 400 whose body says \"429\", for a 403 whose body "
             "is OpenAI's insufficient_quota error, for an exception with .status 429 whose "
             "text is 'Too Many Requests', for a 429 with .code insufficient_quota and a "
             f".retry_after of {wait} whose text never names the code, and for an exception "
             "with .status 429 and no .code or .retry_after at all. Which trouble it is comes "
             "from the exception's status, getattr(exc, \"status\", None) == 429, looked at "
             "first, never from its words; code insufficient_quota means spent quota only on "
             "a 429, whatever its retry_after; and .code and .retry_after are read with "
             "getattr too, since not every exception has them (StreamingModel, lesson 16).")
    eighths = [0.125, 0.375, 0.625, 0.875]
    after = wait + t.random.choice(eighths)
    soon = t.random.choice([1, 2, 4, 5, 7, 8]) / 300  # under 0.1 s, and of sixteen digits
    notice = t.random.choice(["insufficient_quota_warning", "org_insufficient_quota_soon"])
    day = t.random.randint(36_000, 86_400)  # a per-day limit asks for hours
    more = []
    for fault in (Refusal("Overloaded", 529, retry_after=wait),
                  Refusal("Rate limit reached for tokens per min", 429,
                          code="tokens_per_min_quota", retry_after=after),
                  Refusal("Rate limit reached for requests", 429, retry_after=float(wait)),
                  Refusal("Rate limit reached for requests", 429, retry_after=soon),
                  Refusal("You exceeded your current quota", 429, code="INSUFFICIENT_QUOTA"),
                  Refusal("You are close to your quota", 429, code=notice, retry_after=wait),
                  Refusal(json.dumps(lab.QUOTA), 429),
                  ConnectionError(f"HTTP 429 Too Many Requests (retry in {wait} s)"),
                  Coded("Too Many Requests", 429),
                  Refusal(" Rate limit reached for requests per day\n", 429, retry_after=day),
                  Refusal("", 429, retry_after=wait),
                  Refusal("", 429, code="insufficient_quota"),
                  *[Refusal("You have run out of credit", 429, code=code, retry_after=wait)
                    for code in t.random.sample(SPENT_ELSEWHERE, 2)]):
        client = Refusing(fault)
        reply = await harness.StreamingModel(client).acomplete(SYSTEM,
                                                               [harness.user_message("Hi.")])
        more.append([type(fault).__name__, getattr(fault, "status", None),
                     getattr(fault, "code", None), getattr(fault, "retry_after", None),
                     reply["error_message"], len(client.requests),
                     reply == harness.error_message(reply["error_message"])])
    t.expect(more,
             why="Each item is [the exception's class, .status, .code, .retry_after, the "
                 "error_message, the times open was called]: Anthropic's 529 Overloaded; a 429 "
                 f"whose code names a per-minute quota, with a Retry-After of {after} s; a 429 "
                 f"with a Retry-After of {float(wait)} s (a float); a 429 with a Retry-After of "
                 f"{soon} s; a 429 whose code is INSUFFICIENT_QUOTA in capitals; a 429 whose code "
                 f"is {notice}, which holds the quota's code but is not it; a 429 with no "
                 "code whose text is OpenAI's insufficient_quota body; an exception with no "
                 "status whose text says 429; one whose 429 is in .status_code, not .status; a "
                 f"429 of a per-day limit with a Retry-After of {day} s, whose text has a space "
                 "before it and a line break after; a 429 whose text is empty, with a Retry-After "
                 f"of {wait} s; a 429 of spent quota whose text is empty; and two 429s whose "
                 "codes name spent credit in other providers' words. The last field says whether "
                 "the reply is exactly error_message(its text), with no field of its own added. "
                 "Only a 429 is one of the two troubles, a 429 in the exception's status; any "
                 "other exception is `Provider request failed: ` and the text, whatever its "
                 "words. Spent quota is the code `\"insufficient_quota\"` itself, exactly, never "
                 "the words; any other code is a rate limit, and `N` is its retry_after as it "
                 "came, a fraction included, written as Python writes it, a .0 included, "
                 "however long a wait it asks for. Either sentence is followed by the "
                 "exception's text, as it is, even when that is empty, never trimmed. No "
                 "second request goes out, however short the wait (StreamingModel, lesson 16, "
                 "Build item 1).")


SPENT_ELSEWHERE = ["quota_exceeded", "billing_hard_limit_reached", "insufficient_balance"]
# codes other providers give spent credit: on this page only insufficient_quota is spent quota


class Described(Exception):
    """A client library's error whose text is written by its __str__, its status before its
    words, as SDKs do: its text is str(exc), not its argument."""

    def __init__(self, text, status):
        super().__init__(text)
        self.status = status

    def __str__(self):
        return f"Error code: {self.status} - {self.args[0]}"


class Keeping:
    """A client in front of `provider` that keeps each body it was handed, the object itself,
    as a client that logs or sends later may."""

    model = "gpt-4o-mini"  # a real client names its model, and adds it to the body itself

    def __init__(self, provider):
        self.provider, self.bodies = provider, []

    def open(self, body):
        self.bodies.append(body)
        return self.provider.open(body)


class QuotaSpent(Exception):
    """A client library's refusal of spent quota: status 429, the code on the exception and a
    Retry-After, and words that name neither."""
    status, code = 429, "insufficient_quota"

    def __init__(self, text, retry_after):
        super().__init__(text)
        self.retry_after = retry_after


class Coded(Exception):
    """A client library's refusal whose status is in .status_code, as some libraries name it:
    the status the page reads is .status."""

    def __init__(self, text, status_code):
        super().__init__(text)
        self.status_code = status_code


class StatusOnly(Exception):
    """A client library's 429 that carries its status and nothing else."""
    status = 429


class Refusal(Exception):
    """A client library's refusal before the stream: a status, and a code and Retry-After
    when the server sent them."""

    def __init__(self, text, status, code=None, retry_after=None):
        super().__init__(text)
        self.status, self.code, self.retry_after = status, code, retry_after


class Refusing:
    """A client whose open raises `fault`, and keeps each body it was handed."""

    def __init__(self, fault):
        self.fault, self.requests = fault, []

    def open(self, body):
        self.requests.append(body)
        raise self.fault
