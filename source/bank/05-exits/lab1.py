"""Lab 5.1's grading bank: scenarios for each rule of its ledger (source/lessons/05-exits/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario reaches its rule through another entry point than the public tests, or observes
another thing (the workspace a tool wrote to, the roles of a request, what the caller's own
changes to a view, or a model's to the list it is handed, do to the record), so that the
public tests' wanted expressions, evaluated in a bank test's frame, do not give its values.
"""
import asyncio
import contextlib
import copy
import http.client
import json
import socket

import harness
import lab
from lab.kit import Uncounted, hours_pass, lab_test, raised, tool, worst_luck

YEAR = 365 * 24 * 60  # in minutes, hours_pass's step: every reading of a clock is years on
LAB = "5.1"
SYSTEM = "You keep a small project's files."
ASKS = ["Write the notes.", "Save it all.", "Carry on.", "Log this.", "Again, please.",
        "Ça va ? Write it down."]
WHY = ["upstream timeout", "bad gateway", "quota exceeded", "stream broke", "503",
       "context too long"]
# Reasons with the spaces and full stops a provider may put around them, which a record keeps.
RAGGED = ["Upstream timed out. ", "\tbad gateway.", " quota exceeded\n", "Stream broke...",
          "503 Service Unavailable. ", "bad gateway\r\n"]
# Reasons that invite a case of their own (a retry, the calls run, a raise): none is one.
INVITING = ["rate limited", "Service unavailable (503)", "stream ended",
            "auth: the API key was refused ", " Rate limited, retry after 1s.\n",
            "429: too many requests", "server busy", "stream cut", "length",
            "502 Bad Gateway: the upstream server sent nothing", "pause_turn",
            'Error code: 529 - {"type": "error", "error": {"type": "overloaded_error"}}',
            "Retry-After: 2", "Server error, please try again later", "529 overloaded, retry"]
# A provider's whole answer as a reason, past a million characters.
HUGE = 'Error code: 529 - {"type": "error", "message": "overloaded"} ' + "overloaded; " * 100_000


class Refused(RuntimeError):
    """What a client raises when the provider's answer makes no sense to it: an exception."""


def refused(request):
    """A script entry that answers its request by raising, as a client that could not read
    the provider's answer."""
    raise Refused("the answer was not JSON")


def garbled(request):
    """A script entry that answers its request by raising ValueError, as a client's parser."""
    raise ValueError("no reply in the answer")


def unparsed(request):
    """A script entry that answers its request by raising json.JSONDecodeError, as a client
    handed a gateway's page of HTML where JSON should be."""
    raise json.JSONDecodeError("Expecting value", "<html>Bad gateway</html>", 0)


@contextlib.contextmanager
def made_endings():
    """Inside it, harness.error_message is noted: the list it yields gets each message it makes,
    so a scenario can tell an ending error_message made from a dict written out beside it."""
    given, made = harness.error_message, []

    def making(text):
        made.append(given(text))
        return made[-1]
    harness.error_message = making
    try:
        yield made
    finally:
        harness.error_message = given


class Unplugged(ConnectionError):
    """What a model raises when it cannot be reached: an exception, not a failed reply."""


def unplugged(request):
    """A script entry that answers its request by raising, as a client whose network is gone."""
    raise Unplugged("the network is gone")


def reset(request):
    """A script entry that answers its request by raising ConnectionResetError, as a client
    whose connection the provider dropped."""
    raise ConnectionResetError("Connection reset by peer")


def throttled(request):
    """A script entry that answers its request by raising, as a client told 429: the words say
    rate limited, and it is still an exception."""
    raise Refused("429 Too Many Requests: rate limit reached, the server is overloaded")


def cut_short(request):
    """A script entry that answers its request by raising http.client.IncompleteRead, as a
    client whose provider closed the connection half way through its answer."""
    raise http.client.IncompleteRead(b'{"partial')


def unresolved(request):
    """A script entry that answers its request by raising socket.gaierror, as a client whose
    provider's name did not resolve."""
    raise socket.gaierror(-2, "Name or service not known")


def aborted(request):
    """A script entry that answers its request by raising ConnectionAbortedError, as a client
    whose own side gave up the connection."""
    raise ConnectionAbortedError("Software caused connection abort")


def exhausted(request):
    """A script entry that answers its request by raising MemoryError, as a client that could
    not hold the provider's answer."""
    raise MemoryError("the client ran out of memory")


def interrupted(request):
    """A script entry that answers its request by raising KeyboardInterrupt, as Ctrl-C during a
    request does: an exception like any other, which goes through."""
    raise KeyboardInterrupt("the user pressed Ctrl-C")


class Halted(asyncio.CancelledError):
    """What an async client raises when the task it runs in is cancelled during a request: an
    exception like the rest, which goes through. This file's own class, so that a scenario
    catches it only, never a cancellation of its own task."""


def halted(request):
    """A script entry that answers its request by raising Halted, as a client whose task was
    cancelled half way through the request."""
    raise Halted("the request was cancelled")


async def raised_through(thunk):
    """What raised() gives, and this file's own cancellation as well, which raised() lets go
    on up with every other."""
    try:
        return await raised(thunk)
    except Halted as exc:
        return f"Halted: {exc}"


def writer(ws, log=None):
    """A tool `save` that writes its `text` argument to the file its `path` names in `ws`."""
    def save(arguments):
        ws.write_text(arguments.get("path", "scratch.txt"), arguments.get("text", "-"))
        if log is not None:
            log.append(arguments.get("path", "scratch.txt"))
        return "saved"
    return tool("save", save)


def scribe(ws):
    """A tool `write` that writes its `content` argument to the file its `path` names in `ws`,
    as the course's own write tool does."""
    def write(arguments):
        ws.write_text(arguments.get("path", "scratch.txt"), arguments.get("content", "-"))
        return "Successfully wrote."
    return tool("write", write)


def torn():
    """A write cut off half way, as a reply stopped at the output limit carries it."""
    return lab.call("write", {"path": "torn.py", "content": "def add(a, b):\n    return su"})


def asking(names):
    """A model that asks for `names` to be saved on every request, until the record holds 40
    results: then it gives up and answers, so that a run with no working cap fails its test
    instead of running until the grader's clock stops it."""
    def again(request):
        if sum(m["role"] == "toolResult" for m in request.messages) >= 40:
            return lab.say("I give up.")
        return lab.reply(*saves(names))
    return lab.forever(again)


def persistent(cap, name):
    """A model that asks for `name` to be saved on every request, twenty requests past `cap`,
    then gives up and answers: it counts the requests it got, not the record, so that a run of
    a hundred turns and more stays cheap."""
    def again(request):
        return lab.reply(*saves([name])) if len(model.calls) <= cap + 20 else lab.say("Gave up.")
    model = lab.ScriptedModel([lab.forever(again)])
    return model


async def on_time(t, cap, words):
    """A run under max_turns=`cap` whose model asks for a save on each of its first cap - 1
    requests and answers `words` on request `cap`, the last the cap allows: it ends on that
    answer, not on a stop. Checked here."""
    model = lab.ScriptedModel([lab.reply(*saves([f"t{n}.txt"])) for n in range(cap - 1)] +
                              [lab.say(words)])
    years = t.random.randint(100, 10 ** 6)  # and every turn takes years
    with hours_pass(YEAR * years, processor=True, dates=True), worst_luck():
        messages = await go(model, [tool("save", lambda arguments: "saved")],
                            t.random.choice(ASKS), max_turns=cap)
    t.expect([len(model.calls), messages[-1].get("stop_reason"), harness.text_of(messages[-1])],
             [cap, "stop", words],
             f"A run under max_turns={cap} whose model answers on request {cap}, the last the "
             "cap allows, while every clock jumps years at each reading and the random module "
             "draws its lowest every time: the requests made, the last message's stop_reason, "
             "its words.")


async def same_job_again(t):
    """Two runs on one record, the same prompt and the same cap, each stopped by it: the second
    makes its own requests, from 0. Checked here."""
    cap, ask, messages = t.random.randint(2, 4), t.random.choice(ASKS), []
    for _ in range(2):
        model = persistent(cap, "again.txt")
        await go(model, [tool("save", lambda arguments: "saved")], ask, messages, max_turns=cap)
    t.expect([len(model.calls), messages[-1].get("error_message")],
             [cap, f"Agent stopped after max_turns={cap}"],
             f"A second run under max_turns={cap}, with the prompt of the first, on the record "
             "the first left when its cap stopped it: its requests, its last error_message.")


async def weighty(t):
    """A run with no cap whose prompt is a log of forty megabytes, pasted whole, and whose
    model saves a file and answers: the request's weight ends nothing. Checked here."""
    ws = lab.Workspace()
    model = lab.ScriptedModel([lab.reply(*saves(["log.txt"])), lab.say("Logged.")])
    messages = await go(model, [writer(ws)], "Log this: " + "#" * 42_000_000)
    t.expect([len(model.calls), sorted(ws.files), harness.text_of(messages[-1])],
             [2, ["log.txt"], "Logged."],
             "With no cap and a prompt of forty megabytes: the requests made, the files "
             "written, the words of the last message.")


def saves(names):
    """One call of `save` per name: each writes a file of that name."""
    return [lab.call("save", {"path": name, "text": name.upper()}) for name in names]


async def go(model, tools, ask, messages=None, **options):
    messages = [] if messages is None else messages
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, ask, **options))
    return messages


def results_of(messages):
    """The ids of the calls the record asks for, and of the results it holds, as two lists."""
    asked = [block["id"] for m in messages if m["role"] == "assistant"
             for block in m["content"] if block.get("type") == "toolCall"]
    answered = [m["tool_call_id"] for m in messages if m["role"] == "toolResult"]
    return asked, answered


# --- rule 1: an ending the record can hold ----------------------------------------------------

@lab_test("The ending a capped run records has exactly the keys role, content, stop_reason and "
          "error_message, and no words at all.")
async def test_bank_the_cap_ending_has_four_keys_and_no_words(t):
    ws, cap = lab.Workspace(), t.random.randint(1, 3)
    model = lab.ScriptedModel([asking(["a.txt"])])
    messages = await go(model, [writer(ws)], t.random.choice(ASKS), max_turns=cap)
    ending = messages[-1]
    t.expect([sorted(ending), ending.get("content"), harness.text_of(ending)],
             [["content", "error_message", "role", "stop_reason"], [], ""],
             "The keys of the run's last message, its content and its words.")
    ending["content"].append({"type": "text", "text": "(stopped)"})  # a frontend's own note
    again = await go(lab.ScriptedModel([asking(["b.txt"])]), [writer(ws)], "Once more.",
                     max_turns=cap)
    t.expect([again[-1] is ending, again[-1].get("content"), harness.text_of(again[-1])],
             [False, [], ""],
             "A second capped run, after a note was put into the first run's ending: [its ending "
             "is the first's, its content, its words].")
    big, stops = t.random.randint(101, 130), []
    for _ in range(2):
        messages = await go(persistent(big, "big.txt"), [writer(ws)], "Save on.", max_turns=big)
        stops.append(messages[-1])
    t.expect([stops[1] is stops[0], stops[1]["content"] is stops[0]["content"],
              stops[1].get("error_message")],
             [False, False, f"Agent stopped after max_turns={big}"],
             f"Two runs stopped by one cap past a hundred, max_turns={big}: [the second's ending "
             "is the first's, their content is one list, the second's error_message].")
    below, stops = -t.random.randint(1, 9), []
    for _ in range(2):
        messages = await go(lab.ScriptedModel([asking(["n.txt"])]), [writer(ws)], "Save below.",
                            max_turns=below)
        stops.append(messages[-1])
    t.expect([stops[1] is stops[0], stops[1]["content"] is stops[0]["content"],
              stops[1].get("error_message")],
             [False, False, f"Agent stopped after max_turns={below}"],
             f"Two runs stopped by one cap below 0, max_turns={below}: [the second's ending is "
             "the first's, their content is one list, the second's error_message].")


@lab_test("Endings made by error_message, put on a record, keep their reasons there word for "
          "word, spaces and full stops included, and are left out of the view as empty replies "
          "a provider refuses, whatever their text.")
async def test_bank_an_ending_is_left_out_of_the_view(t):
    # A provider's long answer as a reason, its length drawn, twice: two endings all the same.
    body = "; ".join(f"upstream attempt {n} refused" for n in range(t.random.randint(8, 300)))
    body += "; refused again" * t.random.randint(600_000, 750_000)  # past nine million
    whys = RAGGED + [t.random.choice(WHY), "", ""] + [f"502 Bad Gateway: {body}"] * 2
    t.random.shuffle(whys)
    record = [harness.user_message(t.random.choice(ASKS))]
    for n, why in enumerate(whys):
        record += [harness.error_message(why), harness.user_message(f"And now ({n})?")]
    view = harness.context_for_model(record)
    t.expect([[m["role"] for m in view],
              [m.get("error_message") if len(why) < 1000 else m.get("error_message") == why
               for m, why in zip(record[1::2], whys)],
              len({id(m) for m in record[1::2]}), len({id(m["content"]) for m in record[1::2]})],
             [["user"] * (len(whys) + 1), [why if len(why) < 1000 else True for why in whys],
              len(whys), len(whys)],
             f"The roles of the view of a record holding {len(whys)} endings between prompts "
             f"(two of them of the same reason, {len(body) + 17:,} characters long, and two of "
             "the reason \"\"), the error_message of each ending as the record holds it (for the long "
             "ones, whether it is the reason given), how "
             "many distinct message dicts the endings are, and how many distinct content lists.")


# --- rule 2: the cap ------------------------------------------------------------------------

@lab_test("A capped run of batches, on a record that holds earlier exchanges, writes every "
          "file its replies asked for, answers every call, and makes as many requests as the "
          "cap: the replies already on the record are not this run's turns.")
async def test_bank_a_capped_run_answers_its_batches(t):
    ws, cap = lab.Workspace(), t.random.randint(2, 4)
    # the first batch wide, dozens of saves: a cap counts requests, however many tools they ask
    turns = [[f"f{n}_{k}.txt" for k in range(t.random.randint(17, 40) if n == 0 else
                                             t.random.randint(2, 3))] for n in range(cap)]
    model = lab.ScriptedModel([lab.reply(*saves(names)) for names in turns] +
                              [asking(["late.txt"])])
    messages = []
    for ask in t.random.sample(ASKS, t.random.randint(1, 3)):
        messages += [harness.user_message(ask), lab.say("Noted.")]
    uncounted = Uncounted(model)
    own = sorted(vars(uncounted)), sorted(vars(model))
    with made_endings() as made:
        problem = await raised(lambda: go(uncounted, [writer(ws)], t.random.choice(ASKS),
                                          messages, max_turns=cap))
    asked, answered = results_of(messages)
    t.expect([problem, sorted(ws.files), answered == asked, len(model.calls),
              (sorted(vars(uncounted)), sorted(vars(model))) == own],
             [None, sorted(name for names in turns for name in names), True, cap, True],
             "What the run raised, the files written, whether every call has its result, the "
             "requests made, and whether the model it was handed, and the one behind it, have "
             "the attributes they had before the run.")
    t.expect([messages[-1].get("stop_reason"), messages[-1].get("error_message"),
              any(message is messages[-1] for message in made)],
             ["error", f"Agent stopped after max_turns={cap}", True],
             "The run's last message: its stop_reason, its error_message, and whether "
             "error_message made it during the run.")
    # A save that asks the same model to check the file first: the model's own count of
    # requests runs ahead of the run's.
    checked = []

    def answer(request):
        if request.messages[-1]["content"].startswith("Check "):
            return lab.say("Looks fine.")
        return lab.reply(*saves([f"c{len(checked)}_{k}.txt" for k in range(2)]))
    model = lab.ScriptedModel([lab.forever(answer)])

    def checking(arguments):
        checked.append(model.complete(SYSTEM, [harness.user_message(
            f"Check {arguments.get('path')}.")]))
        return "saved"
    messages = await go(model, [tool("save", checking)], t.random.choice(ASKS), max_turns=cap)
    t.expect([len(model.calls) - len(checked), len(checked), messages[-1].get("error_message")],
             [cap, 2 * cap, f"Agent stopped after max_turns={cap}"],
             "With a save that asks the same model a question of its own: the run's requests, "
             "the saves' requests, the last error_message.")
    big = t.random.randint(151, 199)
    model = persistent(big, "many.txt")
    messages = await go(model, [], t.random.choice(ASKS), max_turns=big)
    t.expect([len(model.calls), messages[-1].get("error_message")],
             [big, f"Agent stopped after max_turns={big}"],
             f"A fresh run under max_turns={big}, given no tools, a model asking for a save on "
             "every reply: the requests made, the last error_message.")
    await on_time(t, big, "Done, on the last turn.")
    await same_job_again(t)


@lab_test("A cap of 0 lets no request out and runs no tool, and so does a cap below 0, whose "
          "stop is recorded; with no cap a long job runs to its answer, however much time it "
          "takes.")
async def test_bank_zero_and_none(t):
    ws, log = lab.Workspace(), []
    model = lab.ScriptedModel([lab.reply(*saves(["never.txt"]))])
    messages = await go(model, [writer(ws, log)], t.random.choice(ASKS), max_turns=0)
    t.expect([[m["role"] for m in messages], log, model.calls == []],
             [["user", "assistant"], [], True],
             "Under max_turns=0: the roles on the record, the files written, whether no "
             "request was made.")
    # written as Python writes it: -1000, not -1,000, however many digits the seed draws
    below = -t.random.randint(1000, 10 ** t.random.randint(7, 24))
    model = lab.ScriptedModel([asking(["below.txt"])])
    problem = await raised(lambda: go(model, [], t.random.choice(ASKS), messages,
                                      max_turns=below))
    t.expect([problem, [m["role"] for m in messages], log, len(model.calls),
              messages[-1].get("error_message")],
             [None, ["user", "assistant"] * 2, [], 0, f"Agent stopped after max_turns={below}"],
             f"Then, on the same record, under max_turns={below} and given no tools at all: what "
             "the run raised, the roles on the record, the files written, the requests made, "
             "the last error_message.")
    big = t.random.randint(151, 199)
    model = persistent(big, "big.txt")
    capped = await go(model, [tool("save", lambda arguments: "saved")], t.random.choice(ASKS),
                      max_turns=big)
    t.expect([len(model.calls), capped[-1].get("error_message")],
             [big, f"Agent stopped after max_turns={big}"],
             f"A fresh run under max_turns={big}, a model asking for a save on every reply, a "
             "save that writes nothing: the requests made, the last error_message.")
    await on_time(t, t.random.randint(151, 199), "Finished, just in time.")
    rounds = t.random.randint(26, 29)
    model = lab.ScriptedModel([lab.reply(*saves([f"r{n}.txt"])) for n in range(rounds)] +
                              [lab.say("Finished.")])
    # years of wall time go by at each reading of the clock, and every draw of the random
    # module is its lowest: a cap of None is still no cap
    with hours_pass(YEAR * t.random.randint(100, 10 ** 6), processor=True, dates=True), \
            worst_luck():
        messages = await go(model, [writer(ws, log)], t.random.choice(ASKS))
    t.expect([len(log), messages[-1].get("stop_reason"), len(ws.files)],
             [rounds, "stop", rounds],
             "With no cap, every clock jumping years at each reading, and the random module "
             "drawing its lowest every time: the tools run, the last stop_reason, the files in "
             "the workspace.")
    await weighty(t)


@lab_test("The cap counts the requests of one run: each run on the same record gets its own "
          "cap, a cap of 0 or below included, and a run with none goes on to its answer.")
async def test_bank_each_run_has_its_own_cap(t):
    ws, log = lab.Workspace(), []
    first, third = t.random.randint(2, 3), t.random.randint(2, 3)
    # a first reply of a wide batch, a dozen saves and more, then two saves on every request
    wide = [f"w{k}.txt" for k in range(t.random.randint(14, 24))]
    model = lab.ScriptedModel([lab.reply(*saves(wide)), asking(["x.txt", "y.txt"])])
    below = -t.random.randint(10 ** 7, 10 ** t.random.randint(8, 24))  # no -1,000,000 in it
    uncounted, checks = Uncounted(model), []
    own = sorted(vars(uncounted)), sorted(vars(model))

    def checking(arguments):  # a save that first asks the same model about the file
        checks.append(model.complete(SYSTEM, [harness.user_message("Check it.")]))
        log.append(arguments.get("path", "scratch.txt"))
        return "saved"
    with made_endings() as endings_made:
        messages = await go(uncounted, [writer(ws, log)], "First.", max_turns=first)
        made = [len(model.calls)]
        await go(model, [], "Second.", messages, max_turns=0)  # no tools: capped all the same
        made.append(len(model.calls) - sum(made))
        await go(model, [writer(ws, log)], "Below.", messages, max_turns=below)
        made.append(len(model.calls) - sum(made))
        await go(model, [tool("save", checking)], "Third.", messages, max_turns=third)
        made.append(len(model.calls) - sum(made) - len(checks))
    rounds = t.random.randint(26, 27)
    model = lab.ScriptedModel([lab.reply(*saves([f"z{n}.txt"])) for n in range(rounds)] +
                              [lab.say("All saved.")])
    with hours_pass(YEAR * t.random.randint(100, 10 ** 6), processor=True, dates=True), \
            worst_luck():  # and the random module draws its lowest every time
        await go(model, [writer(ws, log)], "Fourth.", messages)
    made.append(len(model.calls))
    stops = [m for m in messages if m.get("stop_reason") == "error"]
    t.expect([made, [m.get("error_message") for m in stops], len(log),
              harness.text_of(messages[-1]),
              [any(m is made_one for made_one in endings_made) for m in stops],
              (sorted(vars(uncounted)), sorted(vars(model))) == own],
             [[first, 0, 0, third, rounds + 1],
              [f"Agent stopped after max_turns={n}" for n in (first, 0, below, third)],
              len(wide) + 2 * (first - 1 + third) + rounds, "All saved.", [True] * 4, True],
             "The requests of each run (the third's saves each asked the model something of "
             "their own, not counted here), the endings on the record, the tools run, the "
             "words of the last message, for each ending whether error_message made it, and "
             "whether the first run's model, and the one behind it, have the attributes they "
             "had before.")
    await same_job_again(t)
    await weighty(t)


# --- rule 3: a failed reply ---------------------------------------------------------------

def broken(arguments):
    """A tool that raises, as a tool reports failure."""
    raise OSError(arguments.get("why", "disk full"))


def silent(arguments):
    """A tool that raises with no words: its error result is ""."""
    raise ValueError()


def reader(log):
    """A tool `read` that answers with a file's words, noting each path it read in `log`."""
    return tool("read", lambda arguments: log.append(arguments.get("path")) or "the notes")


def looks(path):
    """A failed reply's other calls: a read of `path`, which the run's tools can do, and a call
    of `fetch`, a tool the run was not given. Neither runs, nor gets a result."""
    return [lab.call("read", {"path": path}), lab.call("fetch", {"url": path})]


async def failed_runs_in_a_row(t):
    """Runs on one record, each ended by an empty failed reply, a dozen to fifty of them, then
    one whose model saves a file and answers: that run asks the model as every run does.
    Checked here."""
    many, ws, messages = t.random.randint(12, 50), lab.Workspace(), []
    model = lab.ScriptedModel([lab.fail(t.random.choice(WHY)) for _ in range(many)] +
                              [lab.reply(*saves(["back.txt"])), lab.say("Back.")])
    for n in range(many + 1):
        await go(model, [writer(ws)], f"Try {n}.", messages)
    t.expect([len(model.calls), sorted(ws.files), harness.text_of(messages[-1])],
             [many + 2, ["back.txt"], "Back."],
             f"After {many} runs on one record, each ended by a failed reply, one more run: the "
             "requests of all the runs, the files written, the words of the last message.")


@lab_test("A failed reply that carries whole calls writes nothing, is not sent again, and "
          "ends the run without raising, whatever its reason, a timeout, a rate limit, a 503, "
          "a stream that ended or an empty one included, or none given at all, and stays on the "
          "record with its reason as it came; a tool's error and a note in error_message before "
          "it ended nothing; an empty failed reply on the first request stays on the record as "
          "it came, and nothing is asked again.")
async def test_bank_a_failed_reply_writes_nothing(t):
    for why in (t.random.choice(WHY + ["The reply was cut off at the output limit"]),
                t.random.choice(["Upstream timed out. ", "request timed out"]), *INVITING, "",
                None):
        ws = lab.Workspace()
        before = [f"b{n}.txt" for n in range(t.random.randint(0, 2))]
        first = saves(before) + [lab.call("broken", {"why": t.random.choice(WHY)})]
        t.random.shuffle(first)
        cut = [f"cut{n}.txt" for n in range(t.random.randint(2, 3))]
        failed = lab.fail(why or "", *saves(cut), torn(), *looks("cut.txt"))
        if why is None:  # labelled "error", and no error_message key at all
            del failed["error_message"]
        note = t.random.choice(["slow upstream", "retried once"])  # a note, not a failure
        missing = lab.call(t.random.choice(["load", "Save", "remove"]))  # no such tool
        script = [{**lab.reply(*first, missing), "error_message": note},
                  lab.reply(lab.call(missing["name"])), failed,
                  lab.say("Recovered."), lab.say("Recovered again.")]
        model, messages, read = lab.ScriptedModel(script), [], []
        problem = await raised(lambda: go(model, [writer(ws), tool("broken", broken),
                                                  reader(read), scribe(ws)],
                                          t.random.choice(ASKS), messages))
        t.expect([problem, sorted(ws.files), read, len(model.calls),
                  messages[-1].get("stop_reason"), messages[-1].get("error_message")],
                 [None, sorted(before), [], 3, "error", why],
                 "What the run raised, the files written, the files read (the failed reply also "
                 "asked for a read and for a tool the run was not given), the requests made "
                 "(two turns asked for a tool that does not exist before the failed reply), the "
                 "last stop_reason and error_message.")
    # A tool the run was not given, asked for in as many turns in a row as the seed draws, ends
    # nothing either: the failed reply after them does.
    times, ws = t.random.randint(70, 120), lab.Workspace()  # three calls a turn: 210 and more
    model = lab.ScriptedModel([lab.reply(*[lab.call("fetch", {"url": f"u{n}.{k}"})
                                           for k in range(3)]) for n in range(times)] +
                              [lab.fail("bad gateway", *saves(["after.txt"])), lab.say("Never.")])
    messages = await go(model, [writer(ws)], t.random.choice(ASKS))
    t.expect([len(model.calls), sorted(ws.files), messages[-1].get("error_message")],
             [times + 1, [], "bad gateway"],
             f"A model that asks for fetch, a tool the run was not given, three times in each of "
             f"{times} turns in a row, then fails with a save among its calls: the requests made, the files written, "
             "the last error_message.")
    for why in (t.random.choice(WHY), "rate limited", "", None, HUGE, *INVITING):
        empty = {**lab.fail(why or ""), "usage": {"input": t.random.randint(50, 90)}}
        if why is None:  # no error_message key at all
            del empty["error_message"]
        model, messages = lab.ScriptedModel([empty, lab.say("Never.")]), []
        await go(model, [writer(lab.Workspace())], t.random.choice(ASKS), messages)
        t.expect([messages[-1] == empty, sorted(messages[-1]), len(model.calls)],
                 [True, sorted(empty), 1],
                 f"A failed reply with no content, reason {why!r:.80}, and a usage key beside its "
                 "reason, on the first request: whether the record's last message is that reply "
                 "as it came, its keys, the requests made.")
    # However many whole calls a failed reply carries, one, dozens or hundreds (each count
    # drawn): it writes nothing.
    for width in (1, t.random.randint(6, 50), t.random.randint(150, 500)):
        ws = lab.Workspace()
        model = lab.ScriptedModel([lab.fail(t.random.choice(WHY),
                                            *saves([f"many{k}.txt" for k in range(width)])),
                                   lab.say("Never.")])
        messages = await go(model, [writer(ws)], t.random.choice(ASKS))
        t.expect([sorted(ws.files), len(model.calls), [m["role"] for m in messages]],
                 [[], 1, ["user", "assistant"]],
                 f"A failed reply carrying {width} whole saves, on the first request: the files "
                 "written, the requests made, the roles on the record.")
    await failed_runs_in_a_row(t)


@lab_test("A reply labelled toolUse is acted on even when it carries an error_message, empty, "
          "None or with words; a reply labelled error after it, or on the first request, ends "
          "the run without raising and runs none of its calls, whatever its reason invites, and "
          "stays on the record as it came.")
async def test_bank_the_label_decides_not_the_message(t):
    notes = t.random.sample([None, "", "slow upstream", "retried once"], 4)
    whys = INVITING + [t.random.choice(["", "Upstream timed out. ", "timed out"])]
    for n, why in enumerate(whys):
        note = notes[n % len(notes)]
        ws = lab.Workspace()
        names = [f"n{k}.txt" for k in range(t.random.randint(1, 3))]
        noted = {**lab.reply(*saves(names)), "error_message": note}
        late = [*saves(["late.txt", "later.txt"]), torn(), *looks("late.txt")]
        t.random.shuffle(late)
        model = lab.ScriptedModel([noted, lab.fail(why, "Half", *late),
                                   lab.say("Never sent."), lab.say("Never sent either.")])
        messages, read = [], []
        problem = await raised(lambda: go(model, [writer(ws), reader(read), scribe(ws)],
                                          t.random.choice(ASKS), messages, max_turns=5))
        t.expect([problem, sorted(ws.files), read, len(model.calls),
                  harness.text_of(messages[-1]), messages[-1].get("error_message")],
                 [None, sorted(names), [], 2, "Half", why],
                 "What the run raised, the files written, the files read (the failed reply "
                 "asked for saves, a read and a tool the run was not given), the requests made, "
                 "the words and the error_message of the last message.")
    ws = lab.Workspace()
    model, messages = lab.ScriptedModel([lab.fail("rate limited", *saves(["first.txt"])),
                                         lab.say("Never sent.")]), []
    await go(model, [writer(ws)], t.random.choice(ASKS), messages)
    t.expect([sorted(ws.files), len(model.calls), messages[-1].get("error_message")],
             [[], 1, "rate limited"],
             "A failed reply on the first request, reason \"rate limited\", carrying a call: "
             "the files written, the requests made, the last error_message.")
    for why in ("timed out", "", None, HUGE, *INVITING):
        failed = {**lab.fail(why or ""), "id": f"resp_{t.random.randint(100, 999)}"}
        if why is None:  # no error_message key at all
            del failed["error_message"]
        model, messages = lab.ScriptedModel([lab.reply(*saves(["one.txt"])), failed,
                                             lab.say("Never sent.")]), []
        await go(model, [writer(lab.Workspace())], t.random.choice(ASKS), messages)
        t.expect([messages[-1] == failed, len(model.calls)], [True, 2],
                 "After a round of tools, a failed reply with no content, reason "
                 f"{'none at all' if why is None else repr(why)[:80]} and an id of its own: whether "
                 "the record's last message is that reply as it came, and the requests made.")
    # After a round of tools, a failed reply of dozens or hundreds of whole saves (each count
    # drawn), its reason one that invites a case of its own: it writes nothing.
    for width in (t.random.randint(6, 50), t.random.randint(150, 500)):
        ws = lab.Workspace()
        model = lab.ScriptedModel([lab.reply(*saves(["one.txt"])),
                                   lab.fail(t.random.choice(INVITING),
                                            *saves([f"w{k}.txt" for k in range(width)])),
                                   lab.say("Never sent.")])
        messages = await go(model, [writer(ws)], t.random.choice(ASKS),
                            max_turns=t.random.choice([None, 5]))
        t.expect([sorted(ws.files), len(model.calls), messages[-1].get("stop_reason")],
                 [["one.txt"], 2, "error"],
                 f"After a round of tools, a failed reply carrying {width} whole saves: the files "
                 "written, the requests made, the last stop_reason.")
    await failed_runs_in_a_row(t)


@lab_test("A tool that raises gives an error result, and the run goes on to the model's answer; "
          "a model that raises is not a failed reply, and its exception goes through to the "
          "caller.")
async def test_bank_a_raising_tool_ends_nothing(t):
    ws = lab.Workspace()
    names = [f"ok{k}.txt" for k in range(t.random.randint(0, 2))]
    calls = saves(names) + [lab.call("broken", {"why": t.random.choice(WHY)})]
    t.random.shuffle(calls)
    model = lab.ScriptedModel([{**lab.reply(*calls), "error_message": None},
                               lab.reply(*saves(["after.txt"])), lab.say("Done anyway.")])
    messages = await go(model, [writer(ws), tool("broken", broken)], t.random.choice(ASKS),
                        max_turns=t.random.choice([None, 4, 7]))
    t.expect([sorted(ws.files), len(model.calls), messages[-1].get("stop_reason")],
             [sorted(names + ["after.txt"]), 3, "stop"],
             "The files written, the requests made, the last stop_reason.")
    missing, times = t.random.choice(["load", "Save", "remove"]), t.random.randint(70, 120)
    model = lab.ScriptedModel([lab.reply(*[lab.call(missing) for _ in range(3)])
                               for _ in range(times - 1)] +
                              [lab.reply(lab.call(missing), *saves(["last.txt"])),
                               lab.say("Done without it.")])
    other = lab.Workspace()
    await go(model, [writer(other)], "Use the other tool.", messages,
             max_turns=t.random.choice([None, times + 2]))
    t.expect([len(model.calls), sorted(other.files), harness.text_of(messages[-1])],
             [times + 1, ["last.txt"], "Done without it."],
             f"Then, on the same record, a model that asks for the unknown tool {missing!r} "
             f"three times in each of {times} turns in a row: the requests made, the files the last turn's save wrote, "
             "the words of the last message.")
    model = lab.ScriptedModel([lab.reply(*saves(["more.txt"])), unplugged, lab.say("Never.")])
    problem = await raised(lambda: go(model, [writer(ws)], "More, please.", messages,
                                      max_turns=t.random.choice([None, 5])))
    t.expect([problem, sorted(ws.files), messages[-1]["role"],
              [m.get("stop_reason") for m in messages].count("error")],
             ["Unplugged: the network is gone", sorted(names + ["after.txt", "more.txt"]),
              "toolResult", 0],
             "Then, on the same record, with a model that raises on its second request: what "
             "the run raised, the files written, the role of the record's last message, and "
             "how many messages on the record are labelled \"error\".")
    model = lab.ScriptedModel([interrupted, lab.say("Never.")])
    problem = await raised(lambda: go(model, [writer(ws)], "Still there?", messages))
    t.expect([problem, [m.get("stop_reason") for m in messages].count("error")],
             ["KeyboardInterrupt: the user pressed Ctrl-C", 0],
             "Then a model interrupted on its first request: what the run raised, and how many "
             "messages on the record are labelled \"error\".")
    for raiser, said in ((refused, "Refused: the answer was not JSON"),
                         (unparsed, "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"),
                         (reset, "ConnectionResetError: Connection reset by peer"),
                         (cut_short, "IncompleteRead: IncompleteRead(9 bytes read)"),
                         (unresolved, "gaierror: [Errno -2] Name or service not known"),
                         (aborted, "ConnectionAbortedError: Software caused connection abort"),
                         (exhausted, "MemoryError: the client ran out of memory"),
                         (halted, "Halted: the request was cancelled"),
                         (throttled, "Refused: 429 Too Many Requests: rate limit reached, the "
                                     "server is overloaded")):
        model = lab.ScriptedModel([raiser, lab.say("Never.")])
        problem = await raised_through(lambda: go(model, [writer(ws)], "And now?", messages))
        t.expect([problem, [m.get("stop_reason") for m in messages].count("error")],
                 [said, 0],
                 "Then a model whose client raised (could not read the answer, lost its "
                 "connection, was told 429, was cancelled): what the run raised, and how many "
                 "messages on the record are labelled \"error\".")


@lab_test("A model that raises, after rounds of tools, is not a failed reply, whatever it "
          "raises, an interrupt or a cancellation included: its exception reaches the caller, "
          "the files asked for before it are written, and the record holds no ending.")
async def test_bank_a_raising_model_is_not_a_failed_reply(t):
    for raiser, said in ((unplugged, "Unplugged: the network is gone"),
                         (reset, "ConnectionResetError: Connection reset by peer"),
                         (throttled, "Refused: 429 Too Many Requests: rate limit reached, the "
                                     "server is overloaded"),
                         (garbled, "ValueError: no reply in the answer"),
                         (unparsed, "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"),
                         (cut_short, "IncompleteRead: IncompleteRead(9 bytes read)"),
                         (unresolved, "gaierror: [Errno -2] Name or service not known"),
                         (aborted, "ConnectionAbortedError: Software caused connection abort"),
                         (exhausted, "MemoryError: the client ran out of memory"),
                         (interrupted, "KeyboardInterrupt: the user pressed Ctrl-C"),
                         (halted, "Halted: the request was cancelled")):
        ws = lab.Workspace()
        rounds = [[f"r{n}_{k}.txt" for k in range(t.random.randint(1, 2))]
                  for n in range(t.random.randint(1, 3))]
        model = lab.ScriptedModel([lab.reply(*saves(names)) for names in rounds] +
                                  [raiser, lab.say("Never sent.")])
        messages = []
        problem = await raised_through(lambda: go(model, [writer(ws)], t.random.choice(ASKS),
                                                  messages,
                                                  max_turns=t.random.choice([None, 6, 9])))
        asked, answered = results_of(messages)
        t.expect([problem, sorted(ws.files), len(model.calls), answered == asked,
                  [m["role"] for m in messages if m["role"] != "toolResult"]],
                 [said, sorted(n for names in rounds for n in names),
                  len(rounds) + 1, True, ["user"] + ["assistant"] * len(rounds)],
                 "What the run raised, the files written, the requests made, whether every call "
                 "has its result, and the roles on the record other than results.")


# --- rule 4: the view ---------------------------------------------------------------------

def failure(t, kind):
    """An assistant message of `kind`: "empty", a failed reply with no content and a usage key
    beside its reason; "unsaid", one whose reason is ""; "words", one that got words out, which
    end in a space; "blank", one that got only a newline out; "hollow", one whose content is a
    text block holding ""; "silent", an empty reply that did not fail, whose error_message is
    None; "unasked", an empty reply labelled toolUse."""
    if kind == "silent":  # did not fail
        return {"role": "assistant", "content": [], "stop_reason": "stop", "error_message": None}
    if kind == "unasked":  # did not fail either, and asked for nothing
        return {"role": "assistant", "content": [], "stop_reason": "toolUse"}
    why = "" if kind == "unsaid" else t.random.choice(WHY)
    said = {"words": ["Half an answer "], "blank": ["\n"], "hollow": [""]}.get(kind, [])
    failed = lab.fail(why, *said)
    return {**failed, "usage": {"input": 70, "output": 0}} if kind == "empty" else failed


@lab_test("A run on a record holding failures sends every request without the empty ones, "
          "whatever their reason, \"\" included, and whatever keys they carry, and with the "
          "ones that got words out, if only a newline, as they stand, and an empty reply that "
          "did not fail; the record keeps them all, unchanged.")
async def test_bank_the_request_on_a_record_of_failures(t):
    record = []
    kinds = ["empty", "unsaid", "words", "blank", "silent", "hollow", "unasked"] + [
        t.random.choice(["empty", "words"]) for _ in range(t.random.randint(0, 2))]
    t.random.shuffle(kinds)
    for n, kind in enumerate(kinds):
        record += [harness.user_message(f"Ask {n}."), failure(t, kind)]
    # The last prompt typed again after an empty failure: both stay in the view.
    again = t.random.choice(ASKS)
    record += [harness.user_message(again), failure(t, "empty")]
    before = copy.deepcopy(record)
    record = Noting(record)  # notes every write but an append: a run only appends
    # The run's first reply asks for a save, a touch whose result is "" and a check that raises
    # with no words (an error result of ""): each still answered, and each result is sent.
    model = lab.ScriptedModel([lab.reply(*saves(["here.txt"]),
                                         lab.call("touch", {"path": "here.txt"}),
                                         lab.call("check", {"path": "here.txt"})),
                               lab.say("Here.")])
    await go(model, [writer(lab.Workspace()), tool("touch", lambda arguments: ""),
                     tool("check", silent)], again, record)
    sent = model.calls[-1].messages
    kept = [k for k in kinds if k in ("words", "blank", "silent", "hollow", "unasked")]
    t.expect([[m["role"] for m in sent], [harness.text_of(m) for m in sent if m["role"] ==
                                          "assistant"],
              [[m["content"], m["is_error"]] for m in sent[-3:] if m["role"] == "toolResult"],
              len(record)],
             [[role for k in kinds for role in (["user", "assistant"] if k in kept else
                                                 ["user"])] + ["user"] * 2 +
              ["assistant", "toolResult", "toolResult", "toolResult"],
              [{"words": "Half an answer ", "blank": "\n"}.get(k, "") for k in kept] + [""],
              [["saved", False], ["", False], ["", True]], 2 * len(kinds) + 8],
             "The roles the run's second request sent, the words of each assistant message it "
             "sent, the content and is_error of each result it sent last (a save's, a touch's "
             "that printed nothing, a check's that raised with no words), the record's "
             "length.")
    t.expect([record[:len(before)] == before, record.writes], [True, []],
             "Whether the messages the record held before the run are as they were, every key "
             "of them, and the writes other than appends made to the record during the run, "
             "even ones taken back.")


class Noting(list):
    """A record that notes each write made to it other than an append, by the name of the list
    method that made it, in .writes: a write taken back still shows here."""

    def __init__(self, messages):
        super().__init__(messages)
        self.writes = []


def _noting(name):
    def write(self, *args, **options):
        self.writes.append(name)
        return getattr(list, name)(self, *args, **options)
    return write


for _name in ("__setitem__", "__delitem__", "__imul__", "insert", "pop", "remove", "clear",
              "sort", "reverse"):
    setattr(Noting, _name, _noting(_name))


class Emptying(lab.ScriptedModel):
    """A scripted model that empties each list it is handed once it has read it, as a client
    that consumes what it is given: harmless to a run that hands every request a view of its
    own, made for it. It keeps each list it was handed, the list object itself."""

    def __init__(self, replies):
        super().__init__(replies)
        self.handed = []

    def complete(self, system, messages, tools=()):
        self.handed.append(messages)
        reply = super().complete(system, messages, tools)
        messages.clear()
        return reply

    async def acomplete(self, system, messages, tools=(), signal=None):
        self.handed.append(messages)
        reply = await super().acomplete(system, messages, tools, signal)
        messages.clear()
        return reply


@lab_test("What the caller does to a view never reaches the record, whether the view left "
          "something out or not; what a model does to the list it is handed reaches neither the "
          "record nor the run's next request; and the view of a long record leaves out the "
          "empty failure at its start and keeps a failed reply of calls alone, the record's own "
          "message.")
async def test_bank_changing_the_view_leaves_the_record(t):
    whole = [harness.user_message(a) for a in t.random.sample(ASKS, t.random.randint(1, 3))]
    whole.append(lab.say("Fine."))
    gapped = whole + [harness.user_message("More?"), harness.error_message(t.random.choice(WHY))]
    seen = []
    for record in (whole, gapped, whole):  # the first record asked for twice
        size = len(record)
        view = harness.context_for_model(record)
        view.append(harness.user_message("added to the view"))
        seen.append([len(record) - size, [m["role"] for m in view]])
    kept = [m["role"] for m in whole]
    t.expect(seen, [[0, kept + ["user"]], [0, kept + ["user", "user"]], [0, kept + ["user"]]],
             "For each record, the first asked for again at the end: how much it grew or shrank "
             "once the caller added a message to its view, and the roles of that view.")
    ws, rounds = lab.Workspace(), t.random.randint(1, 3)
    model = Emptying([lab.reply(*saves([f"e{n}.txt"])) for n in range(rounds)] +
                     [lab.say("Emptied.")])
    record, given, made = [], harness.context_for_model, []

    def making(messages):  # context_for_model as given, noting each view it makes of the record
        view = given(messages)
        if messages is record:
            made.append(view)
        return view
    harness.context_for_model = making
    try:
        await go(model, [writer(ws)], t.random.choice(ASKS), record)
    finally:
        harness.context_for_model = given
    t.expect([[len(request.messages) for request in model.calls], len(record),
              harness.text_of(record[-1]),
              [any(handed is view for view in made) for handed in model.handed]],
             [[1 + 2 * n for n in range(rounds + 1)], 2 + 2 * rounds, "Emptied.",
              [True] * (rounds + 1)],
             "With a model that empties each list it is handed: the messages each request "
             "carried, the record's length, the words of its last message, and for each request "
             "whether its list is a view context_for_model made of the record.")
    cut = lab.fail(t.random.choice(WHY), *saves(["cut.txt"]))
    size = t.random.randint(41_000_000, 47_000_000)  # a forty-megabyte log, or more
    log = {"role": "toolResult", "tool_call_id": "log1", "tool_name": "bash",
           "content": "#" * size, "is_error": False}
    old = [harness.user_message("First."), harness.error_message(t.random.choice(RAGGED)),
           harness.user_message("Second."), cut, harness.user_message("The log?"),
           lab.reply(lab.call("bash", {"command": "cat build.log"}, id="log1")), log]
    later = [message for n in range(t.random.randint(25, 35))
             for message in (harness.user_message(f"Then {n}."), lab.say("Fine."))]
    later *= t.random.randint(250, 500)  # the same exchange again and again: 12,500 and more
    long = old + later
    await lab.tick()  # a turn of the loop before each view, as between two requests
    view, held = harness.context_for_model(long), {id(message) for message in long}
    await lab.tick()
    again = harness.context_for_model(long)
    await lab.tick()
    plain = old[2:] + later  # nothing in it to leave out
    view_of_plain = harness.context_for_model(plain)
    t.expect([sum(message is cut for message in view),
              sum(message["role"] == "assistant" and not message["content"] for message in view),
              len(view), sum(id(message) not in held for message in view),
              [len(message["content"]) for message in view if message["role"] == "toolResult"],
              again is view, view_of_plain is plain, len(view_of_plain)],
             [1, 0, len(later) + 6, 0, [size], False, False, len(plain)],
             f"The view of a record of {len(old + later):,} messages that starts with an empty "
             "failure, a failed reply of one call and no words, and a result of a log of "
             f"{size:,} characters: how many times it holds that reply itself, how many empty "
             "assistant messages it holds, its length, how many of its messages are not the "
             "record's own dicts, the length of each result in it; whether the view made again "
             "of it is the same list; whether the view of that record less its first two "
             "messages, nothing in it to leave out, is that record, and its length.")
