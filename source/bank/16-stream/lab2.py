"""Lesson 16, lab 2: the grading bank. Private: never released, as solutions/ is not.

Scenarios written per rule of source/lessons/16-stream/rules.toml (lab 16.2's items of the Build
list), two a rule, each watching StreamingModel.acomplete through another door than the public
tests.py does: what a listener of a Harness hears announced while a desk of refusals answers,
clients of the scenario's own whose exceptions carry their own attributes, a signal of the
caller's own, a frontend that presses Stop while the provider is silent, a task cancelled from
outside, and a response whose reading breaks with a RuntimeError.
"""
import asyncio
import copy
import json

import harness
import lab
from lab.kit import changes_in, hours_pass, lab_test, noted, tool

LAB = "16.2"
SYSTEM = "You keep an eye on a small orchard of scripts."
WORDS = ("apple", "birch", "cedar", "damson", "elder", "fig", "gage", "hazel", "ivy", "juniper",
         "kumquat", "larch", "medlar", "nutmeg")
FIELD = {"type": "object", "properties": {"row": {"type": "string"}}, "required": ["row"]}


def word(t):
    """A drawn word with a number, carried through a scenario (a row, a reason, a text)."""
    return f"{t.random.choice(WORDS)}{t.random.randint(10, 999)}"


def listen(h):
    """Every event of every run of `h`, as a subscriber hears it, in one list."""
    heard = []
    h.subscribe(heard.append)
    return heard


def endings(heard):
    """[stop_reason, error_message] of each message_end a listener heard for an assistant."""
    return [[e["message"].get("stop_reason"), e["message"].get("error_message")] for e in heard
            if e["type"] == "message_end" and e["message"].get("role") == "assistant"]


def data(chunk):
    return "data: " + json.dumps(chunk)


def words_line(text):
    return data({"choices": [{"index": 0, "delta": {"content": text}}]})


FINISHED = data({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})


async def settle(task, limit):
    """Loop turns until `task` is done, at most `limit`; a task still waiting then is cancelled
    and awaited, so nothing outlives the scenario. Gives the turns taken, or None."""
    for turns in range(limit + 1):
        if task.done():
            return turns
        await lab.tick()
    task.cancel()
    while not task.done():
        await lab.tick()
    return None


# -- rule 1: sending -----------------------------------------------------------------------


class Desk:
    """A client in front of `provider` that, for the requests numbered in `glitches`, raises
    the exception given there instead of sending; every attempt is counted in `opened`."""

    def __init__(self, provider, glitches):
        self.provider, self.glitches, self.opened = provider, glitches, 0

    def open(self, body):
        self.opened += 1
        if self.opened in self.glitches:
            raise self.glitches[self.opened]
        return self.provider.open(body)


@lab_test("A Harness over a StreamingModel meets a desk of turn-aways, one prompt each in a "
          "drawn order: a connection refused, a 429 asking for no wait at all, a 429 of spent "
          "quota, a client that times out before sending, then an answer. A listener hears each "
          "run end on its own sentence, one attempt per prompt, and the last prompt answered.")
async def test_bank_a_listener_hears_each_turn_away(t):
    host = f"{word(t)}.example"
    cases = [["refused", lab.refuse(f"connection refused: {host}:443")],
             ["rate", lab.refuse(json.dumps(lab.RATE_LIMIT), status=429, retry_after=0)],
             ["quota", lab.refuse(json.dumps(lab.QUOTA), status=429,
                                  retry_after=t.random.choice([None, 30]))],
             ["timeout", TimeoutError(f"{host} took too long to accept")]]
    t.random.shuffle(cases)
    streams = [what for _, what in cases if not isinstance(what, Exception)]
    answer = f"{word(t)} is ripe."
    provider = lab.FakeProvider(streams + [lab.say(answer)])
    desk = Desk(provider, {n: what for n, (_, what) in enumerate(cases, 1)
                           if isinstance(what, Exception)})
    h = harness.Harness(harness.StreamingModel(desk), SYSTEM, [])
    heard = listen(h)
    attempts = []
    for number in range(len(cases) + 1):
        before = desk.opened
        await lab.drive(h.prompt(f"How is row {number}?"))
        attempts.append(desk.opened - before)
    where = provider.url
    said = {"refused": f"Provider request failed: connection refused: {host}:443",
            "rate": "Provider rate limit, so send again in 0 s: " + str(lab.Refused(
                where, 429, json.dumps(lab.RATE_LIMIT), retry_after=0)),
            "timeout": f"Provider request failed: {host} took too long to accept"}
    quota = [what for name, what in cases if name == "quota"][0]
    said["quota"] = "Provider quota spent, so waiting will not help: " + str(lab.Refused(
        where, 429, json.dumps(lab.QUOTA), retry_after=quota.retry_after))
    t.expect([[name for name, _ in cases], endings(heard), attempts, lab.shape(h.messages),
              provider.open_responses()],
             [[name for name, _ in cases], [["error", said[name]] for name, _ in cases]
              + [["stop", None]], [1] * (len(cases) + 1),
              " ".join(["U A(error)"] * len(cases) + ["U A"]), []],
             "Whatever sending raises is a reply labelled \"error\", sent once: Provider request "
             "failed and the text for most, and for a 429 (its status) the quota sentence when "
             "its code says the quota is spent, else the rate-limit sentence with retry_after's "
             "seconds, 0 included (StreamingModel, lesson 16). Items: [the order of the "
             "turn-aways, the [label, error_message] of each ending a listener heard, attempts "
             "to send per prompt, the record, responses left open].")
    found, drawn = await sent_as_given(t, through_harness=True)
    t.expect(found, why=sent_as_given_said(drawn))


class Balky(Exception):
    """An exception of a client of the scenario's own, carrying whatever attributes it is
    given (status, code, retry_after), or none."""

    def __init__(self, text, **attributes):
        super().__init__(text)
        for name, value in attributes.items():
            setattr(self, name, value)


class Worded(Balky):
    """A Balky whose text, str(exc), is written by its __str__: its words in brackets."""

    def __str__(self):
        return f"[{self.args[0]}]"


class Keeper:
    """A client that keeps each body it was handed, the object itself, and answers request n
    with `answers[n]` (the last one again once they run out), all ready at once; it names its
    model, as a real client does, and adds it to no body."""

    def __init__(self, model, *answers):
        self.model, self.answers, self.bodies = model, answers, []

    def open(self, body):
        self.bodies.append(body)
        return Ready(self.answers[min(len(self.bodies), len(self.answers)) - 1])


class Counter:
    """A client that raises `fault` on every attempt to send, counting them and keeping each
    body it was handed."""

    def __init__(self, fault):
        self.fault, self.opened, self.bodies = fault, 0, []

    def open(self, body):
        self.opened += 1
        self.bodies.append(body)
        raise self.fault


class Flag:
    """A signal of the caller's own, no CancelToken: set once `raised` is True; `looks` counts
    the times it was asked."""

    def __init__(self, raised):
        self.raised, self.looks = raised, 0

    def is_cancelled(self):
        self.looks += 1
        return self.raised


class Hollow(Flag):
    """A flag of the caller's own that is falsy: a signal is asked, whatever its truth."""

    def __bool__(self):
        return False




def offering(body):
    """A request's body with its tools read as `body.get("tools") or []`: a body with no tools
    key offers none, as one with an empty list does (the key left out when there are no tools
    is allowed, 16.1 and 16.2; some providers refuse an empty list)."""
    return {**body, "tools": body.get("tools") or []} if isinstance(body, dict) else body


@lab_test("acomplete called bare on clients whose exceptions are of their own class, some "
          "with a status, a code or a retry_after: a 429 whose text never says 429, a 403 whose "
          "code says the quota is spent, a 502 whose text quotes a 429, a glitch with nothing on "
          "it, a 429 whose code says the quota is spent though it asks for a wait. Each becomes "
          "its own sentence after one attempt; with a flag of the caller's own already up, no "
          "attempt is made at all; and one model asked with other tools each time sends each "
          "call's own.")
async def test_bank_own_exceptions_at_the_door(t):
    wait = t.random.choice([0, t.random.randint(1, 90)])
    short = t.random.randint(1, 6) / 70  # under 0.1 s, and of sixteen digits or so
    notice = t.random.choice(["insufficient_quota_notice", "near_insufficient_quota"])
    reason = f"{word(t)} refused"
    day = t.random.randint(20_000, 90_000)  # a per-day limit's wait, hours long
    cases = [["quiet 429", Balky(f"too many: {reason}", status=429, retry_after=wait),
              f"Provider rate limit, so send again in {wait} s: too many: {reason}"],
             ["403 quota code", Balky(f"forbidden: {reason}", status=403,
                                      code="insufficient_quota"),
              f"Provider request failed: forbidden: {reason}"],
             ["502 quoting 429", Balky(f"gateway said 429 about {reason}", status=502),
              f"Provider request failed: gateway said 429 about {reason}"],
             ["bare glitch", Balky(f"{reason} in the client"),
              f"Provider request failed: {reason} in the client"],
             ["429 no wait given", Balky(reason, status=429, code="rate_limit_exceeded"),
              f"Provider rate limit, so send again later: {reason}"],
             ["429 quota, a wait asked", Balky(f"over the plan: {reason}", status=429,
                                               code="insufficient_quota",
                                               retry_after=t.random.randint(0, 90)),
              f"Provider quota spent, so waiting will not help: over the plan: {reason}"],
             ["timeout", TimeoutError(f"{reason}: no answer in time"),
              f"Provider request failed: {reason}: no answer in time"],
             ["500", Balky(f"server error: {reason}", status=500),
              f"Provider request failed: server error: {reason}"],
             ["529 with a wait", Balky(f"overloaded: {reason}", status=529, retry_after=wait),
              f"Provider request failed: overloaded: {reason}"],
             ["no text", Balky(""), "Provider request failed: "],
             ["a page of text", Balky(f"<html>{reason}. " * (pages := t.random.randint(80, 200))),
              "Provider request failed: " + f"<html>{reason}. " * pages],
             ["429 per-minute quota", Balky(reason, status=429, code="requests_per_min_quota",
                                            retry_after=wait + 0.5),
              f"Provider rate limit, so send again in {wait + 0.5} s: {reason}"],
             ["errno refusal", ConnectionRefusedError(111, reason),
              f"Provider request failed: [Errno 111] {reason}"],
             ["text with spaces and a line break", Balky(f"  {reason}\n"),
              f"Provider request failed:   {reason}\n"],
             ["429 whole float wait", Balky(reason, status=429, retry_after=float(wait + 1)),
              f"Provider rate limit, so send again in {float(wait + 1)} s: {reason}"],
             ["429 wait in eighths", Balky(reason, status=429, retry_after=wait + 0.375),
              f"Provider rate limit, so send again in {wait + 0.375} s: {reason}"],
             ["429 short wait", Balky(reason, status=429, retry_after=short),
              f"Provider rate limit, so send again in {short} s: {reason}"],
             ["429 code holding the quota's", Balky(reason, status=429, code=notice,
                                                    retry_after=wait),
              f"Provider rate limit, so send again in {wait} s: {reason}"],
             ["503 asking no wait", Balky(f"unavailable: {reason}", status=503, retry_after=0),
              f"Provider request failed: unavailable: {reason}"],
             ["broken pipe", BrokenPipeError(32, reason),
              f"Provider request failed: [Errno 32] {reason}"],
             ["429 quota code in capitals", Balky(reason, status=429, code="Insufficient_Quota"),
              f"Provider rate limit, so send again later: {reason}"],
             ["429 quota words, no code", Balky(f"insufficient_quota: {reason}", status=429),
              f"Provider rate limit, so send again later: insufficient_quota: {reason}"],
             ["no status, 429 words", Balky(f"429 Too Many Requests: {reason}"),
              f"Provider request failed: 429 Too Many Requests: {reason}"],
             ["429 in status_code", Balky(reason, status_code=429),
              f"Provider request failed: {reason}"],
             ["aborted connection", ConnectionAbortedError(103, reason),
              f"Provider request failed: [Errno 103] {reason}"],
             ["429 a day's wait, padded", Balky(f"\t{reason} for today \n", status=429,
                                               retry_after=day),
              f"Provider rate limit, so send again in {day} s: \t{reason} for today \n"],
             ["429 no text", Balky("", status=429, retry_after=wait),
              f"Provider rate limit, so send again in {wait} s: "],
             ["429 quota, no text", Balky("", status=429, code="insufficient_quota"),
              "Provider quota spent, so waiting will not help: "],
             ["KeyError from the client", KeyError(reason),
              f"Provider request failed: {reason!r}"],
             ["text made by __str__", Worded(reason, status=t.random.choice([400, 502])),
              f"Provider request failed: [{reason}]"],
             *[[f"429 code {code}", Balky(reason, status=429, code=code, retry_after=wait),
                f"Provider rate limit, so send again in {wait} s: {reason}"]
               for code in t.random.sample(["quota_exceeded", "billing_hard_limit_reached",
                                            "insufficient_balance", "credits_exhausted"], 3)]]
    t.random.shuffle(cases)
    rows = []
    for name, fault, _ in cases:
        client = Counter(fault)
        reply = await harness.StreamingModel(client).acomplete(
            SYSTEM, [harness.user_message(f"Check {word(t)}.")], [], Flag(False))
        rows.append([name, reply, client.opened])
    empty = Counted([])  # a request sent, and the connection ends before its first line
    task = asyncio.ensure_future(harness.StreamingModel(empty).acomplete(
        SYSTEM, [harness.user_message("Anything?")]))
    over = await settle(task, 40)
    t.expect([over is not None, empty.opened, empty.closed], [True, 1, True],
             "A response whose connection ends before its first line. Items: [over in time, "
             "requests sent, closed]. Exactly one request goes out, and no second request "
             "goes out, even when nothing came (StreamingModel, lesson 16).")
    stops = []
    for flag in (Flag(True), Hollow(True)):
        client = Counter(Balky("should not be sent"))
        stopped = await harness.StreamingModel(client).acomplete(
            SYSTEM, [harness.user_message("Check it.")], [], flag)
        stops += [stopped, client.opened]
    t.expect([rows, stops],
             [[[name, harness.error_message(why), 1] for name, _, why in cases],
              [harness.error_message(harness.ABORTED, stop_reason="aborted"), 0] * 2],
             "Any exception from sending is an error ending after one attempt; a 429 is told "
             "by the exception's status, read with getattr, not by its words, and only a 429 "
             "looks at the code; a retry_after of 0 is a wait of 0 s, None says later; a "
             "signal already set sends nothing and gives the aborted reply with no words, "
             "a falsy one too; the text is str(exc) as it is, never trimmed or picked from its "
             "args; the status is .status, never .status_code, and an exception with none is a "
             "failed request whatever its words; spent quota is the code itself, exactly, "
             "never the words, nor a code that only holds it; N is the retry_after as it came, a "
             ".0 included and every digit kept; "
             "no second request goes out, however short the wait, whatever the status or class "
             "(StreamingModel, lesson 16). "
             "Items: [each case as [its name, the reply, attempts to send], [the reply under a "
             "set flag, attempts, the same under a set flag that is falsy]].")
    rows = [tool(name, lambda arguments: "fine", FIELD) for name in ("prune", "graft", "water")]
    lists = [t.random.sample(rows, size) for size in t.random.sample([1, 2, 3], 3)]
    client = Counter(Balky(f"{word(t)} is closed"))
    model = harness.StreamingModel(client)
    for tools in lists:
        await model.acomplete(SYSTEM, [harness.user_message("Tend the rows.")],
                              harness.tool_specs(tools), Flag(False))
    t.expect([[[spec["function"]["name"] for spec in body.get("tools") or []]
               for body in client.bodies], client.opened],
             [[[one["name"] for one in tools] for tools in lists], len(lists)],
             "One model asked three times, each time with tools of its own: each request's "
             "body is to_wire of that call's own arguments, nothing kept from the call before "
             "(StreamingModel, lesson 16). Items: [the tools each request offered, attempts].")
    alike = [tool("water", lambda arguments: "wet", FIELD, f"Water the {side} rows.")
             for side in ("north", "south")] + [t.random.choice(rows)]
    t.random.shuffle(alike)
    said = word(t)
    keeper = Keeper(f"{word(t)}-small", [words_line(said), FINISHED, "data: [DONE]"],
                    [words_line(said), FINISHED, "data: [DONE]"], [FINISHED, "data: [DONE]"],
                    [words_line(f"{word(t)}, asked twice"), FINISHED, "data: [DONE]"])
    record = [harness.user_message("Water everything.")]
    kept = harness.StreamingModel(keeper)
    asks = [(record, harness.tool_specs(alike)), (record, harness.tool_specs(alike)),
            ([harness.user_message("Anything to add?")], [])]
    answers = [await kept.acomplete(SYSTEM, messages, tools) for messages, tools in asks]
    t.expect([[harness.text_of(answer) for answer in answers],
              answers[-1].get("error_message"), len(keeper.bodies),
              [offering(body) == offering(harness.to_wire(SYSTEM, messages, tools))
               for body, (messages, tools) in zip(keeper.bodies, asks)],
              len({id(body) for body in keeper.bodies})],
             [[said, said, ""], "The provider sent an empty reply", 3, [True] * 3, 3],
             "A client that keeps the body it is handed, the object itself, and names its model "
             f"({keeper.model!r}); one model asked with three tools, two of them named water, "
             "the same again, then a question whose stream finishes with no words. Items: [the "
             "replies' words, the last one's error_message, requests sent, whether each body "
             "kept, looked at once the last reply is back, is to_wire of its call's arguments, "
             "how many distinct objects the bodies are]. The body is the one to_wire makes, "
             "every tool given included and no model (the client adds it), each call's a body of "
             "its own, and once handed over nothing is taken from it or added to it; an empty "
             "reply is a reply, and no second request goes out (StreamingModel, lesson 16).")
    # a record to_wire cannot write (a set is not JSON), and a client that raises what is no
    # Exception: the first is a failed request with nothing sent, the second goes up
    odd = [harness.user_message("Tag the rows."),
           lab.reply(lab.call("prune", {"row": {word(t), word(t)}}, id="c1"))]
    client = Counter(Balky("should not be sent"))
    try:
        odd_reply = await harness.StreamingModel(client).acomplete(SYSTEM, odd, [], Flag(False))
    except Exception as error:
        odd_reply = f"raised {type(error).__name__}"
    looped = {"row": word(t)}
    looped["again"] = looped  # arguments that hold themselves: ValueError, not TypeError
    loop_client = Counter(Balky("should not be sent"))
    try:
        loop_reply = await harness.StreamingModel(loop_client).acomplete(
            SYSTEM, [odd[0], lab.reply(lab.call("prune", looped, id="c1"))], [], Flag(False))
    except Exception as error:
        loop_reply = f"raised {type(error).__name__}"
    held = Counter(Balky("should not be sent"))
    try:
        odd_stopped = await harness.StreamingModel(held).acomplete(SYSTEM, odd, [], Flag(True))
    except Exception as error:
        odd_stopped = f"raised {type(error).__name__}"
    leaving = Counter(SystemExit(f"{word(t)} is shutting down"))
    try:
        gone = await harness.StreamingModel(leaving).acomplete(
            SYSTEM, [harness.user_message("Tend the rows.")], [], Flag(False))
    except BaseException as error:  # what must go up: the scenario reports it
        gone = f"raised {type(error).__name__}: {error}"
    shut = Counter(GeneratorExit(f"{word(t)} closed its generator"))
    try:
        closed = await harness.StreamingModel(shut).acomplete(
            SYSTEM, [harness.user_message("Tend the rows.")], [], Flag(False))
    except BaseException as error:  # what must go up: the scenario reports it
        closed = f"raised {type(error).__name__}: {error}"
    called_off = Counter(asyncio.CancelledError(f"{word(t)} called off"))
    try:
        off = await harness.StreamingModel(called_off).acomplete(
            SYSTEM, [harness.user_message("Tend the rows.")], [], Flag(False))
    except BaseException as error:  # a CancelledError of the client's, not this task's
        off = f"raised {type(error).__name__}: {error}"
    t.expect([odd_reply, client.opened, loop_reply, loop_client.opened, gone, leaving.opened,
              odd_stopped, held.opened, off, called_off.opened, closed, shut.opened],
             [harness.error_message("Provider request failed: Object of type set is not JSON "
                                    "serializable"), 0,
              harness.error_message("Provider request failed: Circular reference detected"), 0,
              f"raised SystemExit: {leaving.fault}", 1,
              harness.error_message(harness.ABORTED, stop_reason="aborted"), 0,
              f"raised CancelledError: {called_off.fault}", 1,
              f"raised GeneratorExit: {shut.fault}", 1],
             "A record whose call's arguments hold a set, which to_wire cannot write, one whose "
             "arguments hold themselves (to_wire raises ValueError), then a client whose open "
             "raises SystemExit. Items: [the first reply, attempts to send, the second's reply, "
             "attempts, what the third raised, attempts]: the body is made inside the same try as the "
             "sending, so whatever Exception to_wire raises is a failed request and nothing goes out; only an Exception "
             "is the provider's trouble, so SystemExit goes up as it was raised; the same record "
             "under a flag already up is the aborted reply, before any body is made "
             "(StreamingModel, lesson 16). Items end with [the reply under a set flag, "
             "attempts], then [what a client whose open raises CancelledError made acomplete "
             "raise, attempts]: a CancelledError is no Exception either, and goes up; then "
             "[what a client whose open raises GeneratorExit made acomplete raise, attempts]: "
             "nor is a GeneratorExit, and it goes up too.")
    # one model, four calls: a flag up, then no signal at all, a long record, another system
    # prompt, and the first request again: each call with no signal set sends its own body
    provider = lab.FakeProvider([lab.say(f"{word(t)}.") for _ in range(4)])
    model = harness.StreamingModel(provider)
    record = [harness.user_message(f"Row {n}?") if n % 2 == 0 else lab.reply(f"Row {n} is fine.")
              for n in range(2 * t.random.randint(600, 800) + 1)]
    other = f"You tend the {word(t)} rows."
    calls = [(SYSTEM, record), (other, record), (SYSTEM, record)]
    first = await model.acomplete(SYSTEM, [harness.user_message("Stop.")], [], Flag(True))
    bodies = [harness.to_wire(system, messages, ()) for system, messages in calls]
    replies = [await model.acomplete(system, messages) for system, messages in calls]
    record[-1] = harness.user_message(f"Row {word(t)}, edited in place?")  # same list, same size
    bodies.append(harness.to_wire(SYSTEM, record, ()))
    replies.append(await model.acomplete(SYSTEM, record))
    t.expect([first["stop_reason"], [reply["stop_reason"] for reply in replies],
              [offering(body) for body in provider.requests] == [offering(b) for b in bodies]],
             ["aborted", ["stop"] * 4, True],
             f"One model: a call under a flag already up, then three with no signal: a record "
             f"of {len(record)} messages, the same under another system prompt, the first "
             "again, then the first again once its record was edited in place. Items: [the "
             "first reply's stop_reason, the others', whether the requests "
             "are to_wire of each call's own arguments, one each]. A call with no signal has "
             "none set, and its body is the whole record under its own system prompt, sent "
             "again even when the same request was answered before (StreamingModel, "
             "lesson 16).")
    # the caller's record and tools, each list and dict of them noting every change made to it,
    # even one taken back: acomplete reads them and changes none of them, not even for a moment
    kit = t.random.sample(rows, t.random.randint(1, 3))
    record = [harness.user_message(f"Tend row {word(t)}.")]
    for n in range(t.random.randint(1, 3)):
        row = word(t)
        record += [lab.reply(lab.call(kit[0]["name"], {"row": row}, id=f"t{n}")),
                   {"role": "toolResult", "tool_call_id": f"t{n}", "tool_name": kit[0]["name"],
                    "content": f"{row} is fine", "is_error": False},
                   harness.user_message(f"And {word(t)}?")]
    signals = [("no signal", None), ("a flag down", Flag(False)), ("a falsy flag up", Hollow(True))]
    t.random.shuffle(signals)
    said = word(t)
    keeper = Keeper(f"{word(t)}-small", [words_line(said), FINISHED, "data: [DONE]"])
    looks = []
    for name, signal in signals:
        messages, tools = noted(record), noted(kit)
        answer = await harness.StreamingModel(keeper).acomplete(SYSTEM, messages, tools, signal)
        looks.append([name, harness.text_of(answer),
                      changes_in(messages, "messages") + changes_in(tools, "tools")])
    t.expect([looks, [offering(body) == offering(harness.to_wire(SYSTEM, record, kit))
                      for body in keeper.bodies]],
             [[[name, "" if signal is not None and signal.raised else said, []]
               for name, signal in signals], [True] * 2],
             f"One record of {len(record)} messages and the tools "
             f"{[one['name'] for one in kit]}, handed to acomplete three times, under "
             f"{', '.join(name for name, _ in signals)}, each time as lists and dicts that note "
             "every change made to them, down to a call's arguments and a tool's parameters, "
             "even one taken back before the reply came. Items: [each call as [its signal, the "
             "reply's words, each list or dict changed and the methods that changed it], "
             "whether each request sent is to_wire of the record and tools as they were]. The "
             "messages and tools handed to acomplete are the caller's: it reads them and "
             "changes none of them, not even for a moment, so nothing is appended and popped "
             "again, nor written into a tool and put back (StreamingModel, lesson 16, Build "
             "item 1, \"changes none of them, not even for a moment\").")
    found, drawn = await sent_as_given(t, through_harness=False)
    t.expect(found, why=sent_as_given_said(drawn))


# -- rule 2: reading -----------------------------------------------------------------------


@lab_test("A Harness over a StreamingModel on a provider, a prompt each in a drawn order: a "
          "whole call followed by a llama.cpp error line, words with more lines after the "
          "marker, an answer with a long silence in it, a broken line with words after it, and "
          "a silence that the frontend ends with Stop, one more answer right after it. A "
          "listener hears each run end as its stream says, no tool runs, each response is read "
          "as far as it should be, and no connection stays open.")
async def test_bank_a_frontend_over_a_quiet_wire(t):
    ran = []
    check = tool("check", lambda arguments: ran.append(arguments["row"]) or "fine", FIELD)
    reason = f"{word(t)} ran out of memory"
    before, after, rest = f"{word(t)} then ", f"{word(t)} [DONE].", f" {word(t)} after the marker"
    quiet = t.random.randint(8000, 9000)
    broken = f"data: {{{word(t)}"
    last = f"{word(t)} is fine."
    held = f"Row {word(t)} is "
    empty = t.random.choice(["data:", "data: ", "data:  "])  # no payload: no JSON object
    odd = t.random.choice([" ", "\t", "  "])  # a field whose name is not data: as read
    cases = {
        "error line": [lab.stream_lines(lab.fail(reason, "Checking.",
                                                 lab.call("check", {"row": word(t)})),
                                        real="llamacpp"),
                       ["error", reason], "U A(error)"],
        "past the marker": [[words_line(before), words_line(after), FINISHED, "data: [DONE]",
                             words_line(rest), FINISHED], ["stop", None], "U A"],
        "long silence": [[words_line(before), lab.pause(quiet), words_line(after), FINISHED,
                          "data: [DONE]"], ["stop", None], "U A"],
        "stopped": [[words_line(held), lab.HANG], ["aborted", harness.ABORTED], "U A(aborted)"],
        "broken line": [[words_line(before), broken, words_line(after), FINISHED,
                         "data: [DONE]"], ["error", f"not a stream line: {broken!r}"],
                        "U A(error)"],
        "empty payload": [[words_line(before), empty, words_line(after), FINISHED,
                           "data: [DONE]"], ["error", f"not a stream line: {empty!r}"],
                          "U A(error)"],
        "a field not data as read": [[words_line(before), odd + words_line(rest), FINISHED,
                                      "data: [DONE]"], ["stop", None], "U A"],
        "last": [lab.say(last), ["stop", None], "U A"]}
    order = t.random.sample(sorted(set(cases) - {"last"}), len(cases) - 1)
    order.insert(order.index("stopped") + 1, "last")  # an answer right after the Stop
    provider = lab.FakeProvider([cases[name][0] for name in order])
    h = harness.Harness(harness.StreamingModel(provider), SYSTEM, [check])
    heard = listen(h)
    rows = []
    for name in order:
        start = len(h.messages)
        async with lab.background(h.prompt(f"Look at the {name}.")) as task:
            if name == "stopped":
                while not provider.responses or provider.responses[-1].lines_read < 1:
                    await lab.tick()
                await lab.ticks(t.random.randint(3, 30))  # the provider is silent now
                h.cancel()
                turns = await settle(task, 20)
                turns = turns is not None and turns <= 5
            elif name == "long silence":  # each reading of the clock a minute on: days pass
                with hours_pass():
                    turns = await settle(task, quiet + 200) is not None
            else:
                turns = await settle(task, quiet + 200) is not None
        rows.append([name, turns, endings(heard)[-1], lab.shape(h.messages[start:]),
                     harness.text_of(h.messages[-1])])
    words = {"error line": "Checking.", "past the marker": before + after,
             "long silence": before + after, "stopped": held, "broken line": "", "last": last,
             "empty payload": "", "a field not data as read": before}
    t.expect([rows, ran, provider.open_responses()],
             [[[name, True, cases[name][1], cases[name][2], words[name]] for name in order],
              [], []],
             "The response is read to [DONE] or its end and no further, however long the "
             "provider is quiet, by turns or by the clock (each reading of it a minute on "
             "during the long silence): no timeout; every line goes to decode_line as read, "
             "so a data line with no payload fails the reply and a line whose field is not "
             "data: as read carries nothing; an error: line goes to decode_line and fails the reply with "
             "its reason, the call before it never run; a Stop while no line comes ends the "
             "reply within a few turns as the aborted one, words kept; every response is "
             "closed (StreamingModel, lesson 16). Items: [each prompt as [its case, over in "
             "time, the [label, error_message] a listener heard last, the record it added, "
             "the last message's words], the tools run, responses left open].")
    t.expect([[name, response.lines_read] for name, response in zip(order, provider.responses)],
             why="Each response is read to [DONE] or to where the reply ends: an error line is "
                 "read past, a broken line is the last one read, a Stop reads nothing more, and "
                 "nothing after [DONE] (StreamingModel, lesson 16). Items: [each case, the lines "
                 "read of its response].")
    found, drawn = await read_as_it_came(t, through_harness=True)
    t.expect(found, why=read_as_it_came_said(drawn))


class Ready:
    """A client whose one response has all its lines ready at once and, once `fault` is given,
    raises it from read_line() when the lines are used up; it calls `on_line(n)` as line n is
    read and keeps `closed` and `lines_read`."""

    def __init__(self, lines, on_line=None, fault=None):
        self.lines, self.on_line, self.fault = list(lines), on_line, fault
        self.lines_read, self.closed, self.early, self.ends = 0, False, 0, 0

    def open(self, body):
        return self

    def ready(self):
        return not self.closed

    def read_line(self):
        if self.closed:
            self.early += 1
            return None
        if self.lines_read == len(self.lines):
            if self.fault is not None:
                raise self.fault
            self.ends += 1
            return None
        self.lines_read += 1
        if self.on_line is not None:
            self.on_line(self.lines_read)
        return self.lines[self.lines_read - 1]

    def close(self):
        self.closed = True


class Counted(Ready):
    """Ready, counting the times it was opened."""
    opened = 0

    def open(self, body):
        self.opened += 1
        return self


class Tied(harness.CancelToken):
    """A CancelToken of the caller's own class that is also set once `parent` (a Flag) is."""

    def __init__(self, parent):
        super().__init__()
        self.parent = parent

    def is_cancelled(self):
        return super().is_cancelled() or self.parent.is_cancelled()


class Unready(Ready):
    """Ready, but its very first ready() raises `fault`."""

    def ready(self):
        raise self.fault


@lab_test("acomplete called in a task of its own three ways: on a response whose lines are all "
          "ready at once, with the caller's own flag raised as a drawn line, a ping or the "
          "finish is read, or never; on a provider that goes silent, the task cancelled from "
          "outside; and on a response that raises RuntimeError, ConnectionResetError or "
          "ValueError once "
          "its lines run out; then twice at once on one model. The first stops on that line "
          "or at [DONE], the second looks at the flag every turn and leaves no connection "
          "open, the third lets the exception go up, the fourth closes both responses.")
async def test_bank_three_ways_out_of_the_reading(t):
    parts = [f"{word(t)} " for _ in range(t.random.randint(4, 8))]
    lines = [words_line(part) for part in parts] + [FINISHED, "data: [DONE]"]
    at = t.random.randint(2, len(parts))
    flag = Flag(False)

    def on_line(n):
        if n == at:
            flag.raised = True
    client = Ready(lines, on_line)
    task = asyncio.ensure_future(harness.StreamingModel(client).acomplete(
        SYSTEM, [harness.user_message("Count the rows.")], [], flag))
    over = await settle(task, 40)
    first = [at, over is not None, None if over is None else task.result(), client.lines_read,
             client.closed]
    ping = t.random.randint(1, len(parts) - 1)
    paced = (lines[:ping] + [": ping"] + lines[ping:]
             + [words_line(f"{word(t)} after the end"), FINISHED, "data: [DONE]"])
    more = []
    for press in (ping + 1, len(parts) + 2, None):  # with the ping, with the finish, never
        flag = Flag(False)

        def raise_on(n, press=press, flag=flag):
            if n == press:
                flag.raised = True
        client = Ready(paced, raise_on)
        task = asyncio.ensure_future(harness.StreamingModel(client).acomplete(
            SYSTEM, [harness.user_message("Count them again.")], [], flag))
        over = await settle(task, 40)
        more.append([press, None if over is None else task.result(), client.lines_read,
                     client.closed])
    row = f"row {word(t)}"
    called = lab.stream_lines(lab.reply("".join(parts[:2]), lab.call("check", {"row": row},
                                                                     id=f"call_{word(t)}")))
    finish = 1 + next(n for n, line in enumerate(called) if "finish_reason" in line)
    for press in (finish, 2):  # with the finish of a whole call; a tied token with line 2
        parent = Flag(False)
        flag = Tied(parent) if press == 2 else Flag(False)

        def raise_on(n, press=press, flag=flag, parent=parent):
            if n == press:
                (parent if isinstance(flag, Tied) else flag).raised = True
        client = Ready(called if press == finish else paced, raise_on)
        task = asyncio.ensure_future(harness.StreamingModel(client).acomplete(
            SYSTEM, [harness.user_message("Check a row.")], [], flag))
        over = await settle(task, 40)
        more.append([press, None if over is None else task.result(), client.lines_read,
                     client.closed])
    t.expect(more,
             why="Last, a reply bringing a whole call, the flag raised as its finish is read, "
                 "and the paced response again under a CancelToken of the caller's own class, "
                 "set through its parent as line 2 is read: an aborted reply keeps the words "
                 "and no call, and a signal is asked with is_cancelled(), never read from a "
                 "CancelToken's insides. "
                 "On a response whose lines are all ready at once, a ping among the words and "
                 "more lines after [DONE]: the flag raised as the ping is read, as the finish is "
                 "read, or never. The signal is looked at first on every lap, whatever the line "
                 "before it was, so a Stop reads no later line; with no Stop the reading ends at "
                 "[DONE], the lines ready after it unread (StreamingModel, lesson 16). Items: "
                 "[the line the flag was raised on, the reply, lines read, closed].")
    provider = lab.FakeProvider([[words_line(parts[0]), lab.HANG]])
    watch = Flag(False)
    task = asyncio.ensure_future(harness.StreamingModel(provider).acomplete(
        SYSTEM, [harness.user_message("Wait for it.")], [], watch))
    await lab.ticks(4)
    silence, looks = t.random.randint(150, 400), watch.looks  # long: no backing off either
    await lab.ticks(silence)
    looked = watch.looks - looks >= silence
    task.cancel()
    while not task.done():
        await lab.tick()
    second = [looked, task.cancelled(), len(provider.responses), provider.open_responses()]
    said, reset = f"{word(t)} buffer was freed twice", f"{word(t)} reset by its own peer"
    lost = f"{word(t)} lost its place in the buffer"
    third, ended_early = [], f"{word(t)} ran out of stream"
    slow, pipe = f"{word(t)} timed out", f"{word(t)} pipe broke"
    for fault in (RuntimeError(said), ConnectionResetError(reset), ValueError(lost),
                  EOFError(ended_early), BrokenPipeError(32, pipe), TimeoutError(slow)):
        kind = Unready if isinstance(fault, TimeoutError) else Ready  # ready() raises it
        client = kind(lines[:t.random.randint(1, len(parts))], fault=fault)
        task = asyncio.ensure_future(harness.StreamingModel(client).acomplete(
            SYSTEM, [harness.user_message("Read on.")]))
        over = await settle(task, 40)
        third.append([over is not None, None if over is None or task.cancelled()
                      else f"{type(task.exception()).__name__}: {task.exception()}"
                      if task.exception() else task.result(), client.closed])
    provider = lab.FakeProvider([[words_line(part) for part in parts[:2]]
                                 + [FINISHED, "data: [DONE]"]] * 2)
    model = harness.StreamingModel(provider)
    both = asyncio.gather(*(asyncio.ensure_future(model.acomplete(
        SYSTEM, [harness.user_message(f"Count row {n}.")])) for n in range(2)))
    over = await settle(both, 40)
    fourth = [over is not None, len(provider.responses), provider.open_responses()]
    t.expect(fourth, [True, 2, []],
             "One model asked twice at once, each call reading its own response: each call "
             "closes the response it opened, whatever the other is doing (StreamingModel, "
             "lesson 16). Items: [both over in time, responses opened, those left open].")
    t.expect([first, second, third],
             [[at, True, {"role": "assistant", "content": [{"type": "text",
                                                            "text": "".join(parts[:at])}],
                          "stop_reason": "aborted", "error_message": harness.ABORTED},
               at, True],
              [True, True, 1, []],
              [[True, f"RuntimeError: {said}", True], [True, f"ConnectionResetError: {reset}", True],
               [True, f"ValueError: {lost}", True], [True, f"EOFError: {ended_early}", True],
               [True, f"BrokenPipeError: [Errno 32] {pipe}", True],
               [True, f"TimeoutError: {slow}", True]]],
             "The signal is looked at on every lap of the reading, even when a line is always "
             "ready, and on every turn while the provider is silent, and a Stop gives the "
             "aborted reply with the words read so far; the close runs on every way out, a "
             "cancel from outside too; what read_line() raises is a fault that goes up as it "
             "was raised, whatever its class, never taken for the end or for \"not ready yet\" "
             "(StreamingModel, lesson 16). Items: [[the line "
             "Stop came on, over in time, the reply, lines read, closed], [looked at on every "
             "turn of a silence, the task cancelled, responses opened, those left open], [for "
             "a RuntimeError and a ConnectionResetError: over in time, what it gave or raised, "
             "closed]].")
    outside, wait = [], t.random.randint(2, len(parts))
    for turns in (wait, wait + 1):  # lines one a turn: the reader anywhere in its lap
        flag = Flag(False)
        provider = lab.FakeProvider([lines])
        task = asyncio.ensure_future(harness.StreamingModel(provider).acomplete(
            SYSTEM, [harness.user_message("Go slowly.")], [], flag))
        await lab.ticks(turns)
        read = provider.responses[0].lines_read
        flag.raised = True  # raised by the caller, between two of the reader's turns
        over = await settle(task, 5)
        outside.append([over is not None,
                        None if over is None else task.result()["stop_reason"],
                        provider.responses[0].lines_read - read, provider.open_responses()])
    t.expect(outside, [[True, "aborted", 0, []]] * 2,
             "The caller's flag raised from outside the reading, after a drawn number of turns "
             "and one turn later, while lines come one a turn. Items: [over in time, the "
             "stop_reason, lines read after the flag went up, responses left open]. A Stop "
             "ends the reply and no later line is read: the look at the signal comes right "
             "before each read, with no turn between (StreamingModel, lesson 16).")
    ended = Ready(lines[:-1])  # the connection ends after the finish, with no [DONE]
    early_cut = t.random.randint(1, len(parts) - 1)  # [DONE] before any finish, more after it
    early = Ready(lines[:early_cut] + ["data: [DONE]"] + lines[early_cut:])
    early_reply = await harness.StreamingModel(early).acomplete(
        SYSTEM, [harness.user_message("Cut short?")])
    reply = await harness.StreamingModel(ended).acomplete(SYSTEM, [harness.user_message("End?")])
    wide = f"{word(t)} " * t.random.randint(5_000, 9_000)  # one chunk of 20,000 characters or more
    wide = wide if len(wide) > 20_000 else wide * 2
    copies = 1_000_000 // len(wide) + t.random.randint(1, 6)  # over a million characters in all
    pings = t.random.randint(1_001, 2_500)  # carry-nothing lines in a row
    echo = Ready([words_line(parts[0]), words_line(parts[0])] + [": ping"] * pings
                 + [words_line(parts[1])] + [words_line(wide)] * copies
                 + [FINISHED, "data: [DONE]"])
    echoed = await harness.StreamingModel(echo).acomplete(SYSTEM, [harness.user_message("Echo?")])
    cut = t.random.randint(1, len(parts) - 1)
    broken = (f"data: {{{word(t)}" + ", ".join(word(t) for _ in range(t.random.randint(100, 250)))
              + t.random.choice(["\r\n", "\n", "\r"]))  # long, and a line break as read
    refused = Ready([words_line(part) for part in parts[:cut]] + [broken]
                    + [words_line(part) for part in parts[cut:]] + [FINISHED, "data: [DONE]"])
    got = await harness.StreamingModel(refused).acomplete(SYSTEM, [harness.user_message("Cut?")])
    t.expect([got, refused.lines_read, refused.closed],
             [{"role": "assistant", "content": [], "stop_reason": "error",
               "error_message": f"not a stream line: {broken!r}"}, cut + 1, True],
             f"A response whose lines are all ready at once, a broken line among its words, "
             f"{len(broken)} characters long and ending in a line break. "
             "Items: the reply, the lines read, closed. A line goes to decode_line as it was "
             "read, never tidied, and one that decode_line refuses ends "
             "the reply as an error whose text is its ValueError's, whole, and is the last line read, even when the next is ready at "
             "once (StreamingModel, lesson 16).")
    t.expect([echoed["stop_reason"],
              harness.text_of(echoed) == parts[0] * 2 + parts[1] + wide * copies],
             ["stop", True],
             f"A response whose first chunk comes twice, then {pings:,} pings in a row, then "
             f"chunks of {len(wide):,} characters, {copies} of them. Items: the reply's "
             "stop_reason, whether its words are every chunk's. The reply is what assemble "
             "makes of every chunk read, a chunk the same as the one before included; a line "
             "goes to decode_line however long, lines that carry nothing are skipped however "
             "many come in a row, and the response is read to its end however long the reply "
             "(StreamingModel, lesson 16).")
    faults, bare, ctrl_c = [], f"{word(t)} has no buffer yet", f"Ctrl-C on {word(t)}"
    leaving = f"{word(t)} shut down"
    for client in (Unready(lines, fault=LookupError(bare)),
                   Ready(lines[:2], fault=KeyboardInterrupt(ctrl_c)),
                   Ready(lines[:1], fault=SystemExit(leaving))):
        try:  # awaited here, never in a task: a KeyboardInterrupt must not reach the loop
            got = await harness.StreamingModel(client).acomplete(
                SYSTEM, [harness.user_message("Read on.")])
        except BaseException as error:  # what must go up: the scenario reports it
            got = f"{type(error).__name__}: {error}"
        faults.append([got, client.closed])
    provider = lab.FakeProvider([[words_line(parts[0]), lab.HANG]] * 2)
    model, flags = harness.StreamingModel(provider), [Flag(False), Flag(False)]
    tasks = [asyncio.ensure_future(model.acomplete(
        SYSTEM, [harness.user_message(f"Row {n}?")], [], flags[n])) for n in range(2)]
    await lab.ticks(10)
    flags[1].raised = True  # Stop on the second call only, the first's provider silent too
    over = await settle(tasks[1], 5)
    await lab.ticks(3)
    alone = not tasks[0].done()  # the first call's own flag is still down
    flags[0].raised = True
    await settle(tasks[0], 5)
    fifth = [over is not None, None if over is None else tasks[1].result()["stop_reason"], alone,
             len(provider.responses), provider.open_responses()]
    t.expect([[reply["stop_reason"], ended.ends, ended.closed], faults, fifth,
              [early_reply, early.lines_read, early.closed]],
             [["stop", 1, True],
              [[f"LookupError: {bare}", True], [f"KeyboardInterrupt: {ctrl_c}", True],
               [f"SystemExit: {leaving}", True]],
              [True, "aborted", True, 2, []],
              [{"role": "assistant", "content": [{"type": "text",
                                                  "text": "".join(parts[:early_cut])}],
                "stop_reason": "error",
                "error_message": "The stream ended before the reply was finished"},
               early_cut + 1, True]],
             "A response that ends with None after its finish, with no [DONE]; one whose very "
             "first ready() raises; one whose read_line() raises KeyboardInterrupt, one "
             "SystemExit; then two "
             "calls of one model at once, both providers silent, Stop on the second. Nothing "
             "after the end is read (read_line() gives None once); what ready() or "
             "read_line() raise goes up as it was raised, a KeyboardInterrupt too, and the "
             "response is closed on every way out, the first look's too; a Stop lands within "
             "five turns on each call, whatever another call of the model is doing, and on that "
             "call alone "
             "(StreamingModel, lesson 16). Items: [[stop_reason, times None was given, "
             "closed], [[what each raised, closed]], [the second over in time, its "
             "stop_reason, the first still running, responses opened, those left open], "
             "[the reply to words cut off by a [DONE] before any finish, more words, the finish "
             "and [DONE] after it, lines read, closed]]: a line that decodes to STREAM_DONE "
             "ends the reading even when no finish came before it, and nothing after it is "
             "read.")
    found, drawn = await read_as_it_came(t, through_harness=False)
    t.expect(found, why=read_as_it_came_said(drawn))


# -- sent as given: drawn for both scenarios of rule 1 (hunt round 40) -----------------------

# White space of many kinds at the ends of what a scenario sends or streams: nothing between
# to_wire, decode_line, assemble and the reply tidies it away.
WHITE = (" ", "\t", "\n", "\r\n", "\u00a0", "\u2003", "\u3000", "\u2029", "\x0c", "\x1f")


class Watcher:
    """A client that keeps each body it is handed, the object itself, answers with `lines` all
    ready at once, and looks, each time a line is read, whether the body is still what it was
    when handed over; `changed` counts the looks that found it otherwise."""

    def __init__(self, lines):
        self.lines, self.bodies, self.changed, self.last = lines, [], 0, None

    def open(self, body):
        self.bodies.append(body)
        handed = copy.deepcopy(body)
        self.last = Ready(self.lines, on_line=lambda n: self.look(body, handed))
        return self.last

    def look(self, body, handed):
        self.changed += body != handed


class Answering(Flag):
    """A flag of the caller's own whose is_cancelled() answers `no` until `client` has been
    handed a body and `yes` from then on (at once with no client): answers that are no bool,
    read as a condition, as any `if` reads one."""

    def __init__(self, no, yes, client=None):
        super().__init__(False)
        self.no, self.yes, self.client = no, yes, client

    def is_cancelled(self):
        self.looks += 1
        return self.no if self.client is not None and not self.client.bodies else self.yes


async def sent_as_given(t, through_harness):
    """One model asked once for each kind of white space, the system prompt between two of
    that kind, the last time with a crowd of tools; through a Harness, or bare. Then two flags
    that answer no bool. Gives what was found, and what was drawn, for the sentence."""
    count = t.random.randint(1_100, 1_600)
    crowd = [tool(f"row{n}", lambda arguments: "", FIELD, f"Row {n}.") for n in range(count)]
    kinds = t.random.sample(WHITE, len(WHITE))
    watcher = Watcher([words_line(f"{word(t)} noted."), FINISHED, "data: [DONE]"])
    model = harness.StreamingModel(watcher)
    found = []
    for n, kind in enumerate(kinds):
        system, tools = kind + SYSTEM + kind, crowd if n == len(kinds) - 1 else []
        if through_harness:
            h = harness.Harness(model, system, tools)
            await lab.drive(h.prompt("Which row?"))
            reply = h.messages[-1]
        else:
            reply = await model.acomplete(system, [harness.user_message("Which row?")],
                                          harness.tool_specs(tools), Flag(False))
        body = watcher.bodies[-1]
        found.append([reply["stop_reason"], body["messages"][0]["content"] == system,
                      len(offering(body)["tools"])])
    yes, no = t.random.choice([1, 3, "set", (0,), 1.5]), t.random.choice([0, "", (), 0.0])
    early = Watcher([words_line("Unsent."), FINISHED, "data: [DONE]"])
    late = Watcher([words_line("Too late."), FINISHED, "data: [DONE]"])
    asked = [harness.user_message("Which row?")]
    replies = [await harness.StreamingModel(early).acomplete(SYSTEM, asked, [], Answering(no, yes)),
               await harness.StreamingModel(late).acomplete(SYSTEM, asked, [],
                                                            Answering(no, yes, late))]
    found.append([[reply["stop_reason"] for reply in replies], len(early.bodies),
                  len(late.bodies), late.last.closed, watcher.changed])
    return found, (count, kinds, yes, no)


def sent_as_given_said(drawn):
    count, kinds, yes, no = drawn
    return (f"One model asked {len(kinds)} times, the system prompt between two white spaces "
            f"of another kind each time ({', '.join(repr(kind) for kind in kinds)}), the last "
            f"time with {count:,} tools; the client keeps each body and looks at it each time "
            "a line is read. Then a flag of the caller's own that answers "
            f"{yes!r} for set, and one that answers {no!r} until the request is sent and "
            f"{yes!r} after. Each body is the one to_wire makes of the arguments: the system "
            "prompt as it was given, every tool, however many; once handed to the client it "
            "is the client's, nothing taken from it or added to it afterwards, not even for a "
            "while; and a signal's answer is read as a condition, as any `if` reads one "
            "(StreamingModel, lesson 16). Items: [[stop_reason, the system message is the "
            "prompt as given, the tools offered] for each call, then [the two flags' "
            "stop_reasons, requests to the first, requests to the second, the second response "
            "closed, looks that found a body changed]].")


# -- read as it came: drawn for both scenarios of rule 2 (hunt round 40) ---------------------

# Words that NFC, NFD, NFKC and NFKD would each change, and words holding lone surrogates, as
# a client that decodes with errors="surrogateescape" hands them on.
COMPOSED = ("pe\u0301che \u00e9t\u00e9 \ufb02ow", "\u212b\u00c5 \uff10\uff11",
            "\u2126 \u00fcber \u2163")
ESCAPED = ("r\udcc3\udcb4w", "\udce2\udc80 row", "\U0001f34e \udcfe")


def raw_line(text):
    """A text line with its words as a server writes them, not escaped to ASCII."""
    return "data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": text}}]},
                                 ensure_ascii=False)


async def read_as_it_came(t, through_harness):
    """Replies read through a Harness or bare: one for each kind of white space, at the ends
    of words Unicode would normalise and words with lone surrogates; a reply of over a
    thousand chunks; one with a line past a mebibyte. Gives what was found and what was
    drawn."""
    async def answer(lines):
        client = Ready(lines)
        if through_harness:
            h = harness.Harness(harness.StreamingModel(client), SYSTEM, [])
            await lab.drive(h.prompt("How is the orchard?"))
            return h.messages[-1], client
        return await harness.StreamingModel(client).acomplete(
            SYSTEM, [harness.user_message("How is the orchard?")]), client
    found, kinds = [], t.random.sample(WHITE, len(WHITE))
    for kind in kinds:
        pieces = [kind + t.random.choice(COMPOSED), t.random.choice(ESCAPED) + kind]
        reply, _ = await answer([raw_line(piece) for piece in pieces]
                                + [FINISHED, "data: [DONE]"])
        found.append([reply["stop_reason"], harness.text_of(reply) == "".join(pieces)])
    many = None
    if not through_harness:  # a reader may give a turn a line, and a Harness's scenario has
        # spent most of its 10,000 turns on its silences already
        many = t.random.randint(1_050, 1_450)
        said = [piece[:2] for piece in t.random.choices(WORDS, k=many)]
        lines = {piece: words_line(piece) for piece in set(said)}
        reply, client = await answer([lines[piece] for piece in said]
                                     + [FINISHED, "data: [DONE]"])
        found.append([reply["stop_reason"], harness.text_of(reply) == "".join(said),
                      client.lines_read, client.closed])
    size = t.random.randint(1_048_577, 1_100_000)
    huge = (f"{word(t)} " * (size // 5))[:size]
    reply, client = await answer([words_line(huge), words_line("."), FINISHED, "data: [DONE]"])
    found.append([reply["stop_reason"], harness.text_of(reply) == huge + ".",
                  client.lines_read, client.closed])
    return found, (kinds, many, size)


def read_as_it_came_said(drawn):
    kinds, many, size = drawn
    return (f"Replies whose lines are all ready at once: {len(kinds)} of words Unicode "
            "normalisation would change and words holding lone surrogates, written as a "
            "server writes them, with white space of another kind at both ends each time "
            f"({', '.join(repr(kind) for kind in kinds)}); "
            + ("" if many is None else f"one of {many:,} text lines; ")
            + f"one whose first line is {size:,} characters long. Each line goes to "
            "decode_line as it was read, never tidied first and however long, and the reply "
            "is what "
            "assemble makes of the chunks; the response is read to its end: no count of "
            "chunks ends it (StreamingModel, lesson 16). Items: [stop_reason, the words are "
            "the lines' words exactly] for each of the first, then [stop_reason, the words "
            "are every line's, lines read, closed] for each long one.")
