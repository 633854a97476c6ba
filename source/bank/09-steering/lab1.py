"""Lab 9.1's grading bank: scenarios for each rule of its ledger (source/lessons/09-steering/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario reaches its rule through another entry point than the public tests, or observes
another thing (the words sent by the consumer between events rather than by a tool, each
request's newest user messages, the user messages of each run's agent_end, a run closed at its
first turn_start or let go of there, a consumer whose handler raises, run_agent handed a
callable of the test's own or only one of the two), so that the public tests' wanted
expressions, evaluated in a bank test's frame, do not give its values.
"""
import itertools
import time
from collections.abc import Sized

import harness
import lab
from lab.kit import hours_pass, lab_test, raised, tool

LAB = "9.1"
SYSTEM = "You keep a small service running."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
NAMES = ["api.py", "db.py", "conf.toml", "NOTES.md", "lib/core.py", "tests/test_api.py",
         "Dockerfile", "setup.cfg"]
SAID = ["Prefer small commits.", "Leave the schema alone.", "Check the logs first.",
        "Use tabs, sorry.", "Ask before deleting.", "Version 2 only.", "Quote the error.",
        "The staging box is down."]
# What a person may send that a careless queue would change: blanks, spaces at the ends, and a
# line break at the end (alone, doubled, or after a carriage return).
BLANKS = ["", " ", "\n", "\t", "  "]
SPACED = ["  Prefer small commits.", " Leave the schema alone. ", "Check the logs first.  "]
BROKEN = ["Use tabs, sorry.\n", "Quote the error.\n\n", "Ask before deleting.\r\n"]
# What a paste or another program brings, which a harness that tidies words would change: a
# tab, a ligature, a full-width digit and an accent in two code points, a terminal's colour
# codes and bell, lines ending in spaces, and characters nobody sees (zero-width ones, a no-break
# space, a joiner inside an emoji, a soft hyphen, a right-to-left override, a word joiner).
TIDIED = ["Use\ttabs, sorry.", "Quote the \ufb01le \uff13 error, cafe\u0301.",
          "\x1b[31mERROR\x1b[0m db timeout\x07", "a line  \nanother\t\nlast \n",
          "Deploy\u200b at\u00a0noon, \U0001F468\u200d\U0001F527 style\u00ad, \u202eok\u200c.",
          "Re\u2060start it, then ring me\x07"]
# A pasted server log of over a megabyte, far over lesson 6's budget for a tool result in lines
# and in bytes.
# Words that sound urgent, sent while idle: every way of writing a few of them.
URGENT = [f"{word}{tail}" for word in ("STOP", "Stop", "stop", "WAIT", "Halt", "Abort")
          for tail in ("", " NOW", " now!", "!!", ", wrong box.")]
# What a frontend's undecodable input becomes in Python: a lone surrogate (surrogateescape, as
# os.fsdecode makes them) or half an emoji cut from a paste; still the user's str, word for word.
UNDECODED = ["\udcc3\udca9t\udce9 report", "log: \udcff", "the \ud83d\udd25 and the \ud83d",
             "\udfff ok", "caf\udce9 menu"]
PASTE = "".join(f"{n:05d} INFO request served in 3 ms, nothing unusual\n" for n in range(25000))


def opener(ran=None, during=None):
    """A tool `open` that answers "body of <path>"; `during(path)` runs inside it."""
    def fn(arguments):
        if during is not None:
            during(arguments["path"])
        if ran is not None:
            ran.append(arguments["path"])
        return "body of " + arguments["path"]
    return tool("open", fn, PATH)


def takes_hours(hours):
    """What a call that takes `hours` by the clock does: it reads time.monotonic() until that
    many hours have gone by. Only ever under hours_pass, where each reading is a minute on."""
    start = time.monotonic()
    while time.monotonic() - start < hours * 3600:
        pass


def opens(paths):
    """One reply asking to open each of `paths`, in one batch."""
    return lab.reply(*[lab.call("open", {"path": p}) for p in paths])


def noted():
    """A model's entry that answers every request from there on in a few words."""
    return lab.forever(lambda request: lab.say("Noted."))


def newest(request):
    """The user messages at the end of a request, after its last assistant message or result:
    what that request added for the model to read."""
    words = []
    for message in reversed(request.messages):
        if message["role"] != "user":
            break
        words.insert(0, message["content"])
    return words


def reached(value, queues=None):
    """The lists and deques `value` leads to through anything the garbage collector sees it
    hold (a live iterator's deque, a mapping proxy's dict, a function's closure, an object's
    attributes, a bound method's owner), short of any Harness, modules and classes; only those
    among `queues`, when given (by identity)."""
    import gc
    import sys
    import types
    from collections import deque
    modules = [m for m in list(sys.modules.values()) if m is not None]
    stops = {id(m) for m in modules} | {id(vars(m)) for m in modules if hasattr(m, "__dict__")}
    found, seen, todo = [], set(), [value]
    while todo and len(seen) < 20_000:
        item = todo.pop()
        if id(item) in seen or id(item) in stops or isinstance(
                item, (type, types.CodeType, harness.Harness, str, bytes, int, float)):
            continue
        seen.add(id(item))
        if queues is not None and any(item is queue for queue in queues):
            found.append(item)
            continue
        if queues is None and isinstance(item, (list, deque)) and item and all(
                isinstance(m, dict) and m.get("role") == "user" for m in item):
            found.append(item)
        todo += gc.get_referents(item)
    return found


def ids(first, width):
    return [f"c{n}" for n in range(first, first + width)]


def batch(first, width):
    """The shape of one reply's `width` calls from c<first> and their results."""
    return f"A[{','.join(ids(first, width))}] " + " ".join(f"R({i})" for i in ids(first, width))


class Walkaway(Exception):
    """What a consumer's own handler raises, as a screen that crashes mid-run."""


class Blackout(BaseException):
    """What a run can die of that is not an Exception, as the power going or Ctrl-C."""


async def queued_while_idle(kind, count):
    """A harness given `count` messages by `kind` ("steer" or "follow_up") while idle, the
    second in urgent capitals, then a run whose first reply opens three files in one batch:
    [its requests, whether its user messages after the prompt are those, in order, whether
    each result is an error]."""
    model = lab.ScriptedModel([opens(NAMES[:3]), noted()])
    h = harness.Harness(model, SYSTEM, [opener()])
    sent = [f"Item {n} of the list." for n in range(1, count + 1)]
    sent[1] = "HALT ALL: " + sent[1]
    for words in sent:
        getattr(h, kind)(words)
    await lab.drive(h.prompt("The list."))
    users = [m["content"] for m in h.messages if m["role"] == "user"]
    return [len(model.calls), users[1:] == sent,
            [m.get("is_error", False) for m in h.messages if m["role"] == "toolResult"]]


async def tabs_in_turn(count):
    """`count` harnesses made one after another, each run once and dropped with a steer left
    queued, the odd ones each made from the very same list of a saved session's messages: each
    one's user messages after its run."""
    firsts, models = [], [lab.ScriptedModel([noted()]) for _ in range(count)]
    saved = [harness.user_message("Is the service up?"), lab.say("It is.")]
    for n in range(count):
        tab = harness.Harness(models[n], SYSTEM, [], messages=saved if n % 2 else ())
        await lab.drive(tab.prompt(f"Tab {n}, status?"))
        firsts.append([m["content"] for m in tab.messages if m["role"] == "user"])
        tab.steer(f"Left behind in tab {n}.")
        del tab  # nobody holds it any more
    return firsts


async def drive_watched(h, text, on_event=None):
    """h.prompt(text) driven with harness.run_agent watched: [the run's events, for each call
    of run_agent whether each of get_steering and get_follow_ups it was handed can be called,
    is no collection, a deque that can be called included, and leads to no queue of h's]."""
    given, loop = [], harness.run_agent

    def watched(*args, **kwargs):
        given.append([callable(kwargs.get(name)) and not isinstance(kwargs.get(name), Sized)
                      and not reached(kwargs.get(name), (h._steering_queue, h._follow_up_queue))
                      for name in ("get_steering", "get_follow_ups")])
        return loop(*args, **kwargs)
    harness.run_agent = watched
    try:
        events = await lab.drive(h.prompt(text), on_event=on_event)
    finally:
        harness.run_agent = loop
    return events, given


async def words_while_running(t, by_tool):
    """Words sent while a run is going, each as a steer and as a follow-up, by a tool of the
    run (`by_tool`) or by the consumer at the first tool_execution_start: the same words far
    apart, blanks, spaces at the ends, tidied texts, a byte-order mark and a NUL, a paste of
    2,500 lines, urgent words after others; another harness over the same model with a steer
    of its own; then a burst of several hundred sent while idle, urgent words among them (and
    steered too, when the burst is of follow-ups). Returns [whether the run's user messages are
    the prompt and every text twice, as sent, their count, the other run's user messages,
    whether every request is valid, the burst's waiting count and whether it waits in order,
    the record's length after]."""
    far = t.random.choice(SAID)
    kinds = BLANKS + SPACED + BROKEN + TIDIED + ["\ufeffid,name\n7\x00,api\n"]
    texts = ([far] + t.random.sample(kinds, len(kinds))
             + [PASTE[:PASTE.index("02500 INFO")], "STOP", "stop the deploy.", far])
    theirs = t.random.choice([w for w in SAID if w != far])
    box, sent, runs = {}, [], []

    def send():
        if not sent:
            sent.append(True)
            for words in texts:
                box["h"].steer(words)
                box["h"].follow_up(words)

    def on_event(event):
        if event["type"] == "tool_execution_start" and not by_tool:
            send()
        if event["type"] == "agent_end":
            runs.append([m["content"] for m in event["messages"] if m["role"] == "user"])
    model = lab.ScriptedModel([opens([t.random.choice(NAMES)]), noted()])
    h = box["h"] = harness.Harness(model, SYSTEM, [opener(during=lambda path: by_tool and send())])
    other = harness.Harness(model, SYSTEM, [])
    other.steer(theirs)
    await lab.drive(h.prompt("Check the service."), on_event=on_event)
    await lab.drive(other.prompt("And mine?"), on_event=on_event)
    burst = [t.random.choice(SAID) for _ in range(t.random.randint(600, 700))]
    for words in URGENT:  # words that sound urgent, sent while idle among the others
        burst.insert(t.random.randint(1, len(burst)), words)
    queue = h._follow_up_queue if by_tool else h._steering_queue
    for words in burst:
        (h.follow_up if by_tool else h.steer)(words)
    if by_tool:  # the urgent words steered while idle as well, after a steer of others
        h.steer(burst[0])
        for words in URGENT:
            h.steer(words)
    return [runs[0] == ["Check the service."] + texts + texts, len(runs[0]), runs[1],
            all(lab.validate(request.messages) == [] for request in model.calls),
            len(queue), [m["content"] for m in queue] == burst, len(h.messages),
            [m["content"] for m in h._steering_queue][1:] == (URGENT if by_tool else burst[1:])]


async def kept_through_trouble(t, error, at):
    """A follow-up queued while idle, then a run whose prompt has its words and whose model
    raises `error`; a run capped at one turn, where the consumer sends a steer at the event
    `at` of the first turn and has a prompt refused there, and sends another steer at
    agent_end; then a run, and a follow-up left waiting. Returns [what the first run raised,
    what the consumer saw (a refusal; at the steer's message_end, the words still in
    self._steering_queue), the user messages on the record, the type of what _drain gives
    back for each queue, the record]."""
    follow, steer, late = t.random.sample(SAID, 3)
    down = []

    def broken(request):  # the first request raises; the rest are answered
        if not down:
            down.append(request)
            raise error
        return lab.say("Noted.")
    model = lab.ScriptedModel([lab.forever(broken)])
    h = harness.Harness(model, SYSTEM, [opener()], max_turns=1)
    h.follow_up(follow)
    died = await raised(lambda: lab.drive(h.prompt(follow)))
    seen, done = [], []

    def on_event(event):
        if event["type"] == at and not done:
            done.append(at)
            h.steer(steer)
            try:
                h.prompt("Start again.")
            except RuntimeError:
                seen.append("refused")
        message = event.get("message") or {}
        if event["type"] == "message_end" and message.get("content") == steer:
            seen.append([m["content"] for m in h._steering_queue])
        if event["type"] == "agent_end" and len(done) == 1:
            done.append("agent_end")
            h.steer(late)
    await lab.drive(h.prompt("Say hello."), on_event=on_event)
    await lab.drive(h.prompt("Go on."))
    h.follow_up(late)
    kinds = [type(h._drain(queue)).__name__ for queue in (h._steering_queue, h._follow_up_queue)]
    return [died, seen, [m["content"] for m in h.messages if m["role"] == "user"], kinds,
            lab.shape(h.messages)]


async def through_a_blackout(t):
    """A follow-up queued while idle, a run whose model raises Blackout, a BaseException and no
    Exception, at its first request, a steer sent then, and a run after: [what the first run
    died of, the user messages of the record]."""
    follow, steer = t.random.sample(SAID, 2)

    def out(request):
        h.steer(steer)
        raise Blackout("the power went")
    h = harness.Harness(lab.ScriptedModel([out, noted()]), SYSTEM, [])
    h.follow_up(follow)
    try:
        await lab.drive(h.prompt("Is it up?"))
        died = None
    except Blackout as cut:
        died = str(cut)
    await lab.drive(h.prompt("And now?"))
    return [died, [m["content"] for m in h.messages if m["role"] == "user"]]


async def stopped_by_max_turns():
    """A follow-up a tool sends during a run that max_turns=2 stops, then a second run: every
    user message, and the record."""
    box, sent = {}, []

    def during(path):
        if not sent:
            sent.append(path)
            box["h"].follow_up("After the cap, sum it up.")
    model = lab.ScriptedModel([opens(["api.py"]), opens(["db.py"]), noted()])
    h = box["h"] = harness.Harness(model, SYSTEM, [opener(during=during)], max_turns=2)
    await lab.drive(h.prompt("Open both."))
    await lab.drive(h.prompt("Go on."))
    return [[m["content"] for m in h.messages if m["role"] == "user"], lab.shape(h.messages)]


async def steering_after_a_follow_up():
    """run_agent handed a get_follow_ups that hands over one follow-up, whose reply asks for a
    call: each ask as [the callable, the record then], and the record."""
    asks, messages, given = [], [], [harness.user_message("Then open the notes.")]

    def get_steering():
        asks.append(["steering", lab.shape(messages)])
        return []

    def get_follow_ups():
        asks.append(["follow-ups", lab.shape(messages)])
        return [given.pop()] if given else []
    model = lab.ScriptedModel([lab.say("Done."), opens(["NOTES.md"]), lab.say("Notes read.")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [opener()], "Do it.",
                                      get_steering=get_steering, get_follow_ups=get_follow_ups))
    return [asks, lab.shape(messages)]


async def crowds_at_once(t):
    """run_agent handed a get_steering that hands over a crowd of twelve thousand and more at its
    ask after the first turn_end, then one message per ask, and a get_follow_ups that does the
    same at its first ask: the asks of each, the requests, the user messages after the crowds,
    whether every message of both crowds is on the record, in order, repeats included, and how
    many user messages each request ends with (a crowd all in the turn it was handed for); then
    a run of 300 and more follow-ups with a steer handed over only once they are spent: its
    requests, its last user message, the steers left."""
    await lab.tick()  # a stretch of its own for the spin guard, whatever ran before it
    asks, messages = [], []
    every = t.random.randint(2, 7)  # the crowds say some words again, each time another message
    steers = [harness.user_message(f"Aside {n % every}.")
              for n in range(t.random.randint(12_000, 16_000))]
    follows = [harness.user_message(f"After {n % every}.")
               for n in range(t.random.randint(12_000, 16_000))]
    later = [harness.user_message(w) for w in t.random.sample(SAID, 4)]
    owed = {"steering": [later[0], later[1]], "follow-ups": [later[2], later[3]]}

    def owner(kind, crowd, at):
        def get():
            asks.append(kind)
            if asks.count(kind) == at:
                return crowd
            return [owed[kind].pop(0)] if asks.count(kind) > at and owed[kind] else []
        return get
    model = lab.ScriptedModel([noted()])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [], "Go.",
                                      get_steering=owner("steering", steers, 2),
                                      get_follow_ups=owner("follow-ups", follows, 1)))
    users = [m["content"] for m in messages if m["role"] == "user"]
    whole = users == (["Go."] + [m["content"] for m in steers] + [later[0]["content"],
                      later[1]["content"]] + [m["content"] for m in follows]
                      + [later[2]["content"], later[3]["content"]])
    found = [[asks.count("steering"), asks.count("follow-ups")], len(model.calls),
             [w for w in users if not w.startswith(("Aside", "After"))], whole,
             [len(newest(request)) for request in model.calls]]
    # then a run of 300 and more follow-ups, one per ask, and a steer handed over only once
    # they are spent: steering is asked for after every turn_end, however long the run
    follows = [harness.user_message(f"Next {n}.") for n in range(t.random.randint(300, 330))]
    steer = [harness.user_message(t.random.choice(SAID))]
    model, messages = lab.ScriptedModel([noted()]), []
    await lab.drive(harness.run_agent(
        model, SYSTEM, messages, [], "Go on.",
        get_steering=lambda: [steer.pop()] if steer and not follows else [],
        get_follow_ups=lambda: [follows.pop(0)] if follows else []),
        on_event=lambda event: lab.tick() if event["type"] == "turn_end" else None)
    return found + [[len(model.calls), messages[-2]["content"], len(steer)]]


async def two_tabs_at_once(t):
    """Two harnesses with a steer each sent while idle; the second's whole run goes by at the
    first run's prompt's message_end, between the first's ask and the recording of its steer.
    Each run's user messages, as its agent_end carried them, and the first's requests."""
    mine_words, theirs = t.random.sample(SAID, 2)
    models = [lab.ScriptedModel([noted()]) for _ in range(2)]
    mine, other = (harness.Harness(model, SYSTEM, []) for model in models)
    mine.steer(mine_words)
    other.steer(theirs)
    runs = []

    def keep(event):
        if event["type"] == "agent_end":
            runs.append([m["content"] for m in event["messages"] if m["role"] == "user"])

    def meanwhile(event):
        keep(event)
        if event["type"] == "message_end" and not other.messages:
            return lab.drive(other.prompt("Other tab."), on_event=keep)
    await lab.drive(mine.prompt("This tab."), on_event=meanwhile)
    return [runs, len(models[0].calls)]


async def a_steer_alike_a_handed_follow_up(t):
    """A follow-up a tool sends; at the turn_start that follow-up opens, before it is recorded,
    the consumer steers its very words and then others. The user messages each request ended
    with."""
    alike, after = t.random.sample(SAID, 2)
    box, starts = {}, []

    def during(path):
        box["h"].follow_up(alike)

    def at_start(event):
        if event["type"] == "turn_start":
            starts.append(event)
            if len(starts) == 3:  # the follow-up's turn
                box["h"].steer(alike)
                box["h"].steer(after)
    model = lab.ScriptedModel([opens([t.random.choice(NAMES)]), noted()])
    h = box["h"] = harness.Harness(model, SYSTEM, [opener(during=during)])
    await lab.drive(h.prompt("Open it."), on_event=at_start)
    return [newest(request) for request in model.calls]


# --- rule 1: steer and follow_up only queue, word for word ------------------------------------

# What the two helpers below give, for each bank scenario that runs them
WIDE = "Three wide batches of many tools: each ask, the record, lab.validate of each request."
LONG = ("A long run's requests and last user message; the record of runs around a failed first "
        "reply.")


async def wide_batches(t):
    """run_agent with callables of the test's own over three wide batches of calls to open, bash,
    write and rm (the second of forty calls and more), bash and rm failing: a steer put in the inbox during the first call of the
    first two batches, a follow-up waiting. Each ask as [the callable, calls still without a
    result], the record, what lab.validate found in each request."""
    await lab.tick()  # a stretch of its own for the spin guard, whatever ran before it
    widths = [t.random.randint(10, 24), t.random.randint(40, 120), t.random.randint(10, 24)]
    inbox, later, messages, asks, ran = [], [harness.user_message("Then list what is left.")], \
        [], [], []

    def lacking():
        answered = {m["tool_call_id"] for m in messages if m["role"] == "toolResult"}
        return len([c for m in messages if m["role"] == "assistant"
                    for c in harness.tool_calls(m) if c["id"] not in answered])

    def get_steering():  # the test's own inbox: one message per ask, taken as it is handed
        asks.append(["steering", lacking()])
        return [inbox.pop(0)] if inbox else []

    def get_follow_ups():
        asks.append(["follow-ups", lacking()])
        return [later.pop(0)] if later else []

    def counted(name, fails=False):
        def fn(arguments):
            ran.append(name)
            if len(ran) in (1, 1 + widths[0]):  # the first call of the first two batches
                inbox.append(harness.user_message(t.random.choice(SAID)))
            if fails:
                raise PermissionError("read-only file system")
            return name + " done"
        return tool(name, fn, PATH)

    def wide(width):
        names = ["open", "bash"] + [t.random.choice(["open", "bash", "write", "rm"])
                                    for _ in range(width - 2)]
        return lab.reply(*[lab.call(name, {"path": t.random.choice(NAMES)}) for name in names])
    tools = [counted("open"), counted("bash", fails=True), counted("write"),
             counted("rm", fails=True)]
    model = lab.ScriptedModel([wide(width) for width in widths]
                              + [lab.say("All cleaned."), lab.say("Listed.")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, "Clean up.",
                                      get_steering=get_steering,
                                      get_follow_ups=get_follow_ups))
    return [asks, lab.shape(messages), [lab.validate(r.messages) for r in model.calls]]


def a_ui_that_reaches_in(h):
    """A frontend's UI that looks for the words waiting among the harness's public attributes,
    and through anything they hold (a mapping proxy, an iterator, an object): each list or deque
    of user messages it finds there, it empties. Private queues are out of its reach (Build
    item 1: "the queues are private")."""
    for name, value in list(vars(h).items()):
        if not name.startswith("_"):
            for queue in reached(value):
                queue.clear()


async def words_of_every_size(t):
    """A harness sent, while idle, a blank of five hundred spaces and a paste of two and a half
    megabytes, the paste steered again once recorded, then five thousand and more words as steers and as follow-ups; then, in a
    run, a tool steers the words of a steer already recorded. The lengths recorded, the words
    waiting (with a crowd of two million and more put behind them) and each queue's maxlen, if
    it has one; then a steer and a follow-up sent with the crowd waiting, the crowd taken away
    from in front of them, undecodable words steered and followed up, a UI that empties every
    public list of user messages on the harness, and the user messages of the second run (as
    ascii() writes them)."""
    model = lab.ScriptedModel([lab.say("Read."), lab.say("Read too."),
                               opens([t.random.choice(NAMES)]), noted()])
    said = t.random.choice(SAID)
    h = harness.Harness(model, SYSTEM, [opener(during=lambda path: h.steer(said))])
    h.steer(" " * 500)
    h.follow_up(PASTE * 2)
    await lab.drive(h.prompt("Look at this."))
    lengths = [len(m["content"]) for m in h.messages if m["role"] == "user"]
    h.steer(h.messages[-2]["content"])  # the paste, the newest user message, steered again
    count = t.random.randint(5100, 5400)
    for n in range(count):
        h.steer(f"Idea {n}.")
        h.follow_up(f"Later {n}.")
    await lab.tick()  # a turn before the crowd: building it is the check's time, not the file's
    crowd = t.random.randint(2_100_000, 2_400_000)  # and a crowd behind, one message repeated
    for queue in (h._steering_queue, h._follow_up_queue):
        queue.extend(itertools.repeat(queue[0], crowd))
    waiting = [len(h._steering_queue) - crowd, len(h._follow_up_queue) - crowd,
               len(h._steering_queue[0]["content"]), h._follow_up_queue[0]["content"],
               [getattr(queue, "maxlen", None) for queue in (h._steering_queue,
                                                              h._follow_up_queue)]]
    await lab.tick()
    h.steer(said)  # sent with the crowd waiting: queued behind it all the same
    h.follow_up(later := t.random.choice(SAID))
    for queue in (h._steering_queue, h._follow_up_queue):  # the crowd taken away before them
        kept = queue[-1]
        queue.clear()
        queue.append(kept)
    await lab.tick()
    odd = t.random.sample(UNDECODED, 2)  # undecodable words, as a steer and a follow-up
    h.steer(odd[0])
    h.follow_up(odd[1])
    a_ui_that_reaches_in(h)  # it finds nothing to empty: the queues are private
    await lab.drive(h.prompt("Open one."))
    return [lengths, waiting, later,
            [ascii(m["content"]) for m in h.messages if m["role"] == "user"][2:]]


async def a_drain_of_many(t):
    """What _drain gives back from each queue of a harness sent two hundred and more steers and
    follow-ups while idle: [its length, whether it is the front message], and the queues'
    lengths after; then the same once a crowd of a million and more waits behind, and the
    queues' lengths once _delivered is told the front steer is on the record."""
    h = harness.Harness(lab.ScriptedModel([noted()]), SYSTEM, [opener()])
    for n in range(t.random.randint(200, 260)):
        h.steer(f"Idea {n}.")
        h.follow_up(f"Later {n}.")
    queues = (h._steering_queue, h._follow_up_queue)
    got = [h._drain(queue) for queue in queues]
    found = [[len(g), len(g) == 1 and g[0] is queue[0]] for g, queue in zip(got, queues)] + \
        [len(queue) for queue in queues]
    crowd = t.random.randint(1_000_000, 1_200_000)  # then a crowd behind, one message repeated
    for queue in queues:
        queue.extend(itertools.repeat(queue[-1], crowd))
    got = [h._drain(queue) for queue in queues]
    found += [[len(g), len(g) == 1 and g[0] is queue[0]] for g, queue in zip(got, queues)]
    h._delivered(h._steering_queue[0])  # the front steer recorded: it leaves, however many wait
    found += [len(queue) for queue in queues]
    for queue in queues:  # so queues that are not the harness's own carry none of it further
        queue.clear()
    return found


# What a frontend's hand-over may raise, with words: each an Exception, so that a loop that
# swallows one swallows it.
STUCK = [(BrokenPipeError, "the frontend hung up"), (KeyError, "steer"),
         (IndexError, "the inbox is empty"), (AttributeError, "no such field"),
         (FileNotFoundError, "inbox.jsonl"), (ZeroDivisionError, "a bug in the frontend"),
         (NotImplementedError, "not yet"), (UnicodeDecodeError, ("utf-8", b"\xff", 0, 1, "no"))]


async def a_jammed_hand_over(t, which):
    """A Harness whose hand-over of the queue `which` ("steering" or "follow_up") raises each
    kind of STUCK in turn, in a drawn order, once jammed: a steer (or a follow-up) sent from the
    run's first tool jams it, so the loop's next ask of that queue raises. Then, unjammed, a
    second run. Returns, per kind, [what came out of the first run, the text and whether it is
    the very exception; the last event it handed out; is_running after it; the words still in
    that queue; the user messages each request ended with; the record]; then the kinds
    every_kind_jammed found swallowed."""
    found = []
    for kind, words in t.random.sample(STUCK, len(STUCK)):  # every kind: none is swallowed
        found.append(await jammed_once(t, which, kind(*words) if isinstance(words, tuple)
                                       else kind(words)))
    return found + [await every_kind_jammed(t, which)]


async def jammed_once(t, which, error):
    """a_jammed_hand_over for one exception `error`."""
    said, jam = t.random.choice(SAID), []

    class Jammed(harness.Harness):
        def _drain(self, queue):
            if jam and queue is getattr(self, f"_{which}_queue"):
                raise error
            return super()._drain(queue)

    def during(path):
        if not jam:
            jam.append(path)
            getattr(box["h"], "steer" if which == "steering" else which)(said)
    box = {}
    width = t.random.randint(1, 3)
    model = lab.ScriptedModel([opens(t.random.sample(NAMES, width)), noted()])
    h = box["h"] = Jammed(model, SYSTEM, [opener(during=during)])
    seen = []
    try:
        await lab.drive(h.prompt("Open them."), on_event=lambda event: seen.append(event["type"]))
        came = None
    except Exception as exc:
        came = [f"{type(exc).__name__}: {exc}", exc is error]
    running = h.is_running
    queue = [m["content"] for m in getattr(h, f"_{which}_queue")]
    jam[:] = []
    await lab.drive(h.prompt("Go on."))
    return [came, seen[-1:], running, queue, [newest(request) for request in model.calls],
            lab.shape(h.messages)]


async def every_kind_jammed(t, which):
    """A Harness whose hand-over of the queue `which` raises, at its first ask, each kind of
    Exception this process has a class for (made without arguments), one run each: the kinds
    that did not come out of the run as raised (a StopIteration as the RuntimeError a generator
    makes of it), or came after an agent_end, each named only where its base came out as
    raised, so that the names do not hang on which other classes are loaded."""
    def every(kind):
        yield kind
        for sub in type.__subclasses__(kind):
            yield from every(sub)
    missed, model = [], lab.ScriptedModel([noted()])
    for kind in sorted(set(every(Exception)), key=lambda k: (k.__module__, k.__qualname__)):
        try:
            error = kind.__new__(kind)
        except Exception:
            continue  # a kind that cannot be made without its own arguments

        class Jammed(harness.Harness):
            def _drain(self, queue, error=error):
                if queue is getattr(self, f"_{which}_queue"):
                    raise error
                return super()._drain(queue)
        seen = []
        try:
            await lab.drive(Jammed(model, SYSTEM, []).prompt("Go."),  # no draw: the kinds vary
                            on_event=lambda event: seen.append(event["type"]))
            came = None
        except Exception as exc:
            came = exc
        if not (came is error or (isinstance(error, (StopIteration, StopAsyncIteration))
                                  and isinstance(came, RuntimeError)
                                  and came.__cause__ is error)) or "agent_end" in seen:
            missed.append(kind)
        await lab.tick()
    return [f"{kind.__module__}.{kind.__qualname__}" for kind in missed  # where its base held
            if not any(base in missed for base in kind.__mro__[1:])]


async def long_runs_and_a_failed_start(t):
    """run_agent handed an inbox of 260 and more steers and a follow-up: the requests and the
    last user message; then a harness with a follow-up queued between runs, whose second run's
    first reply fails, and a third run: the record after each, and its user messages."""
    await lab.tick()  # a stretch of its own for the spin guard, whatever ran before it
    inbox = [harness.user_message(f"Step {n}.") for n in range(t.random.randint(260, 280))]
    later = [harness.user_message("Then stop.")]
    model, messages = lab.ScriptedModel([noted()]), []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [], "Go.",
                                      get_steering=lambda: [inbox.pop(0)] if inbox else [],
                                      get_follow_ups=lambda: [later.pop(0)] if later else []),
                    # a turn of the event loop at each turn_end: hundreds of turns are the
                    # run's, not one stretch the spin guard should count
                    on_event=lambda event: lab.tick() if event["type"] == "turn_end" else None)
    found = [len(model.calls), messages[-2]["content"]]
    model = lab.ScriptedModel([lab.say("Done."), lab.fail("overloaded"), lab.say("Back."),
                               lab.say("And that.")])
    h = harness.Harness(model, SYSTEM, [opener()])
    await lab.drive(h.prompt("First."))
    h.follow_up(t.random.choice(SAID))
    await lab.drive(h.prompt("Second."))
    found.append(lab.shape(h.messages))
    await lab.drive(h.prompt("Third."))
    return found + [lab.shape(h.messages), [m["content"] for m in h.messages
                                            if m["role"] == "user"]]


@lab_test("Steers the consumer sends at a tool_execution_start, a blank one, one with spaces at "
          "its ends and the same words twice ending in a line break, record nothing then, and "
          "later come out word for word, one per turn.")
async def test_bank_awkward_steers_sent_between_events(t):
    twice = t.random.choice(BROKEN)
    texts = [t.random.choice(BLANKS), t.random.choice(SPACED), twice]
    t.random.shuffle(texts)
    at = texts.index(twice)
    texts.insert(at, twice)
    width, hours = t.random.randint(1, 3), t.random.randint(2, 40)
    model = lab.ScriptedModel([opens(t.random.sample(NAMES, width)), noted()])
    h = harness.Harness(model, SYSTEM, [opener(during=lambda path: takes_hours(hours))])
    lengths = []

    def send(event):
        if event["type"] == "tool_execution_start" and not lengths:
            before = len(h.messages)
            for text in texts:
                h.steer(text)
            lengths.extend([before, len(h.messages)])
    with hours_pass(t.random.randint(40, 90) * 525_960, dates=True):  # years a reading
        await lab.drive(h.prompt("Open them."), on_event=send)
    t.expect([lengths, lab.shape(h.messages),
              [m["content"] for m in h.messages if m["role"] == "user"][1:]],
             [[2, 2], "U " + batch(1, width) + " U A" * 4, texts],
             "Four steers sent by the consumer at the batch's first tool_execution_start, "
             "each call taking years by the clock. "
             "Items: the transcript's length before and after they were sent, its shape at the "
             "end, the steers as recorded.")


def emptied(handed):
    """What steer() or follow_up() handed back, used as a frontend may use it: called when it
    can be called, and every list or deque of user messages it leads to emptied (a live
    iterator's, a closure's): never a way into a queue of the harness's, so nothing it holds is
    lost (Build item 1)."""
    if callable(handed) and not isinstance(handed, harness.Harness):
        try:
            handed()
        except Exception:
            pass
    for queue in reached(handed):
        queue.clear()
    return None


@lab_test("Steers and follow-ups of awkward words sent while idle, in turn, a follow-up of a "
          "steer's words among them, then a crowd, raise nothing and record nothing; the "
          "prompt's run hands the model each of them, as given, one per request, the steers "
          "first, and another harness none.")
async def test_bank_idle_words_reach_each_request_as_given(t):
    steers = [t.random.choice(BLANKS), t.random.choice(SPACED), t.random.choice(BROKEN)]
    t.random.shuffle(steers)
    # the first follow-up has the first steer's words
    follows = [steers[0], t.random.choice(BLANKS), t.random.choice(SAID + BROKEN)]
    model = lab.ScriptedModel([noted()])
    h = harness.Harness(model, SYSTEM, [])
    other = harness.Harness(lab.ScriptedModel([noted()]), SYSTEM, [])
    problems = []
    for n in range(3):
        problems.append(await raised(lambda: emptied(h.steer(steers[n]))))
        problems.append(await raised(lambda: emptied(h.follow_up(follows[n]))))
    kept = [len(h.messages), h.is_running]
    # then a paste, a carriage return, and a crowd
    more = [PASTE, t.random.choice(SAID) + "\r"] + TIDIED + [
        f"Then part {n}." for n in range(1, t.random.randint(70, 74))]
    for words in more:
        h.follow_up(words)
    ask = t.random.choice(SAID)
    await lab.drive(other.prompt("Status?"))
    await lab.drive(h.prompt(ask))
    t.expect([problems, kept, [newest(request) for request in model.calls],
              [m["content"] for m in other.messages if m["role"] == "user"]],
             [[None] * 6, [0, False],
              [[ask, steers[0]], [steers[1]], [steers[2]]] + [[words] for words in follows + more],
              ["Status?"]],
             "Three steers and three follow-ups (the first of the first steer's words) sent in "
             "turn while idle, what each handed back emptied if it was a list or a deque (never "
             "the queue itself), then more follow-ups: a pasted log, words ending in a carriage "
             "return, words a careless harness would tidy, seventy or more; a run of another "
             "harness, then a prompt. Items: what each raised, the transcript's length and "
             "is_running after them, the user messages each request ended with, the other "
             "harness's user messages.")
    t.expect(await tabs_in_turn(5),
             why="Five harnesses made one after another, each run once and dropped with a steer "
                 "left queued: each one's user messages after its run.")
    t.expect(await words_while_running(t, by_tool=False),
             why="Words the consumer sends at a run's first tool_execution_start, each as a "
                 "steer and as a follow-up (the same words far apart, blanks, spaces at the "
                 "ends, tidied texts, a byte-order mark and a NUL, a paste, urgent words after "
                 "others), a harness over the same model with a steer of its own, then a burst "
                 "of steers sent while idle. Items: whether the run's user messages are the "
                 "prompt and every text twice, as sent, their count, the other run's user "
                 "messages, whether every request is valid, the steers waiting, whether they "
                 "wait in order.")
    t.expect(await words_of_every_size(t),
             why="Words of every size: the user messages' lengths, the words waiting, "
                 "the second run's user messages.")


@lab_test("Words sent from inside a tool (a blank follow-up, the same steer twice ending in a "
          "line break) and a steer sent between runs come out, run by run, word for word.")
async def test_bank_words_from_a_tool_and_between_runs(t):
    twice, blank = t.random.choice(BROKEN), t.random.choice(BLANKS)
    between = blank  # the very words the first run recorded last
    box, hours = {}, t.random.randint(2, 40)

    def during(path):
        box["h"].follow_up(blank)
        box["h"].steer("Stop, not that box!")
        box["h"].steer(twice)
        box["h"].steer(twice)
        takes_hours(hours)  # and the call goes on for hours by the clock
    model = lab.ScriptedModel([opens([t.random.choice(NAMES)]), noted()])
    h = box["h"] = harness.Harness(model, SYSTEM, [opener(during=during)])
    runs = []

    def keep(event):
        if event["type"] == "agent_end":
            runs.append([m["content"] for m in event["messages"] if m["role"] == "user"])
    with hours_pass(t.random.randint(40, 90) * 525_960, dates=True):  # years a reading
        await lab.drive(h.prompt("Open it."), on_event=keep)
    problem = await raised(lambda: emptied(h.steer(between)))  # never the queue itself
    await lab.drive(h.prompt("Next?"), on_event=keep)
    t.expect([runs, problem, lab.shape(h.messages)],
             [[["Open it.", "Stop, not that box!", twice, twice, blank], ["Next?", between]],
              None, "U A[c1] R(c1) U A U A U A U A U U A"],
             "A tool sends a follow-up, a steer that sounds urgent and the same steer twice, "
             "then goes on for years by the clock; "
             "between the runs a steer of the follow-up's words is sent, and what it hands back is emptied if it is a list or a deque (never the queue itself). Items: the user messages each run's agent_end carried, what the steer "
             "between runs raised, the transcript.")
    t.expect(await words_while_running(t, by_tool=True),
             why="Words a tool sends while its run is going, each as a steer and as a follow-up "
                 "(the same words far apart, blanks, spaces at the ends, tidied texts, a "
                 "byte-order mark and a NUL, a paste, urgent words after others), a harness "
                 "over the same model with a steer of its own, then a burst of follow-ups sent "
                 "while idle. Items: whether the run's user messages are the prompt and every "
                 "text twice, as sent, their count, the other run's user messages, whether "
                 "every request is valid, the follow-ups waiting, whether they wait in order.")
    t.expect(await words_of_every_size(t),
             why="Words of every size: the user messages' lengths, the words waiting, "
                 "the second run's user messages.")


@lab_test("Words a tool sends one harness (a steer and a follow-up of the same words, then two "
          "dozen follow-ups with a pasted log and a carriage return among them) reach its record "
          "word for word, and a steer queued on another harness stays that one's.")
async def test_bank_a_crowd_of_words_and_a_second_harness(t):
    same, theirs = t.random.sample(SAID, 2)
    crowd = [f"Step {n} of the plan." for n in range(1, t.random.randint(70, 74))]
    crowd[t.random.randrange(len(crowd))] += "\r"
    crowd.insert(t.random.randrange(len(crowd) + 1), PASTE)
    for words in TIDIED:
        crowd.insert(t.random.randrange(len(crowd) + 1), words)
    box, sent = {}, []

    def during(path):
        if not sent:
            sent.append(path)
            box["h"].steer("Stop, wrong plan!")
            box["h"].steer(same)
            box["h"].follow_up(same)
            for words in crowd:
                box["h"].follow_up(words)
    model = lab.ScriptedModel([opens([t.random.choice(NAMES)]), noted()])
    h = box["h"] = harness.Harness(model, SYSTEM, [opener(during=during)])
    other = harness.Harness(lab.ScriptedModel([noted()]), SYSTEM, [])
    other.steer(theirs)
    runs = []

    def keep(event):
        if event["type"] == "agent_end":
            runs.append([m["content"] for m in event["messages"] if m["role"] == "user"])
    await lab.drive(h.prompt(same), on_event=keep)
    await lab.drive(other.prompt("And mine?"), on_event=keep)
    t.expect([runs[0] == [same, "Stop, wrong plan!", same, same] + crowd, len(runs[0]), runs[1],
              lab.shape(h.messages).count("U")],
             [True, 4 + len(crowd), ["And mine?", theirs], 4 + len(crowd)],
             "A tool of a run whose prompt is the words it will steer sends a steer that sounds "
             "urgent, a steer and a follow-up of the prompt's words and a crowd of follow-ups; "
             "another harness had a steer queued and runs after. Items: whether the first "
             "run's user messages are every one sent, as sent, their count, the other run's "
             "user messages, the user messages on the first record.")
    t.expect(await tabs_in_turn(4),
             why="Four harnesses made one after another, each run once and dropped with a steer "
                 "left queued: each one's user messages after its run.")


# --- rule 2: _drain hands over one message per ask, and again until it is recorded -----------

@lab_test("Follow-ups sent while idle and kept through a run whose model raised, steers sent at "
          "the agent_end of a run whose reply failed, and two steers sent together from a tool, "
          "reach the model one per request, oldest first.")
async def test_bank_one_message_per_request(t):
    idle = t.random.sample(SAID, t.random.randint(2, 3))
    later = t.random.sample([w for w in SAID if w not in idle], 2)
    follows = [f"Then {w.lower()}" for w in t.random.sample(SAID, 2)]
    box = {}

    def during(path):
        for words in later:
            box["h"].steer(words)

    def down(request):
        raise TimeoutError("no answer in 600 s")
    model = lab.ScriptedModel([down, lab.fail("overloaded"), opens([t.random.choice(NAMES)]),
                               noted()])
    h = box["h"] = harness.Harness(model, SYSTEM, [opener(during=during)])
    for words in follows:
        h.follow_up(words)
    died = await raised(lambda: lab.drive(h.prompt("Warm up.")))

    def at_the_end(event):  # the steers come at the agent_end of a run whose reply failed
        if event["type"] == "agent_end":
            for words in idle:
                h.steer(words)
    await lab.drive(h.prompt("Try."), on_event=at_the_end)
    _, given = await drive_watched(h, "Start.")
    t.expect([died, [newest(request) for request in model.calls][2:]],
             ["TimeoutError: no answer in 600 s",
              [["Warm up.", "Try.", "Start.", idle[0]]] + [[w] for w in idle[1:] + later +
                                                            follows]],
             "Follow-ups sent while idle, then a run whose model raised, then a run whose reply "
             "failed with steers sent at its agent_end, then a prompt whose first reply's tool "
             "sends two steers. Items: what the run that died raised, the user messages each "
             "request of the last run ended with.")
    t.expect([given, await stopped_by_max_turns()],
             why="For the last run above, whether each of the two functions run_agent was "
                 "handed can be called; then a follow-up a tool sends during a run that "
                 "max_turns=2 stops, and a second run: every user message, the record.")
    t.expect(await a_drain_of_many(t),
             why="_drain on two crowded queues: for each [length, whether it is the "
                 "front message], then the queues' lengths.")
    t.expect(await a_steer_alike_a_handed_follow_up(t),
             why="A follow-up from a tool, and at the turn_start it opens a steer of its words, "
                 "then another: the user messages each request ended with.")


@lab_test("A steer handed to a run closed at its first turn_start, and a follow-up handed to a "
          "run whose consumer crashed at the turn_start it opened, are each delivered by a "
          "later run; a follow-up sent at an agent_end waits for the next run.")
async def test_bank_words_handed_over_and_never_recorded(t):
    steer, follow, late = t.random.sample(SAID, 3)
    model = lab.ScriptedModel([noted()])
    h = harness.Harness(model, SYSTEM, [])
    h.steer(steer)
    h.follow_up(follow)
    events = await lab.drive(h.prompt("First try."), close_after=2)
    found = [[e["type"] for e in events], lab.shape(h.messages), len(model.calls)]
    starts = []

    def crash(event):
        if event["type"] == "turn_start":
            starts.append(event)
            if len(starts) == 2:
                starts.append([m["content"] for m in h._follow_up_queue])
                raise Walkaway("the screen crashed")
    found.append(await raised(lambda: lab.drive(h.prompt("Second try."), on_event=crash)))
    found.append(starts[-1])
    found.append(lab.shape(h.messages))

    def add(event):
        if event["type"] == "agent_end":
            h.follow_up(late)
    await lab.drive(h.prompt("Third try."), on_event=add)
    await lab.drive(h.prompt("Fourth try."))
    h.steer(steer)
    # agent_start, turn_start, the prompt's message_end, the steer's: closed at the steer's
    found.append([e["type"] for e in await lab.drive(h.prompt("Fifth try."), close_after=4)][-1])
    await lab.drive(h.prompt("Sixth try."))
    t.expect(found + [[m["content"] for m in h.messages if m["role"] == "user"]],
             [["agent_start", "turn_start"], "", 0, "Walkaway: the screen crashed", [follow],
              "U U A", "message_end",
              ["Second try.", steer, "Third try.", follow, "Fourth try.", late, "Fifth try.",
               steer, "Sixth try."]],
             "A steer and a follow-up queued; a run closed at its first turn_start; a run whose "
             "consumer crashed at its second turn_start; a run that gets a follow-up at its "
             "agent_end; a run; the steer again, and a run closed at its message_end; a last "
             "run. Items: the first run's events, the transcript and requests then, what the "
             "second run's consumer got, the follow-up queue when it crashed, the transcript "
             "then, the last event of the fifth run, every user message at the end.")
    h.steer("Seventh try.")
    # agent_start, turn_start, the prompt's message_end: closed there
    events = await lab.drive(h.prompt("Seventh try."), close_after=3)
    await lab.drive(h.prompt("Eighth try."))
    t.expect([events[-1]["type"], [m["content"] for m in h.messages if m["role"] == "user"][-4:]],
             why="A steer of the very words of the prompt after it, the run closed at the "
                 "prompt's message_end, then a last run. Items: the closed run's last event, the "
                 "last four user messages.")
    t.expect(await kept_through_trouble(t, ValueError("a field the client did not expect"),
                                        "turn_end"),
             why="A follow-up queued while idle, a run whose prompt has its words and whose "
                 "model raised ValueError; a run capped at one turn, a steer and a refused "
                 "prompt at its first turn_end, another steer at its agent_end; a last run. "
                 "Items: what the first run raised, what the consumer saw (the refusal; the "
                 "steers waiting at the steer's message_end), the user messages, the type of what "
                 "_drain gives back for each queue, the record.")
    t.expect(await two_tabs_at_once(t),
             why="Two harnesses with a steer each, the second's whole run at the first's "
                 "prompt's message_end: each run's user messages, the first's requests.")
    t.expect(await through_a_blackout(t),
             why="A follow-up queued, a run whose model raised a BaseException that is no "
                 "Exception (the power going), a steer sent meanwhile, a run after: what the "
                 "first run died of, the user messages.")


@lab_test("Two steers and two follow-ups sent at the agent_end of a run whose reply failed all "
          "reach the runs after, a run whose model raised among them, one per turn, the steers "
          "first and each kind oldest first.")
async def test_bank_a_burst_at_agent_end(t):
    steers = t.random.sample(SAID, 2)
    follows = [f"Also: {w}" for w in t.random.sample(SAID, 2)]
    order = [("steer", steers[0]), ("follow", follows[0]), ("steer", steers[1]),
             ("follow", follows[1])]
    t.random.shuffle(order)
    order.sort(key=lambda pair: (pair[1] not in (steers[0], follows[0])))  # oldest of each first
    def down(request):
        raise TimeoutError("the provider did not answer")
    model = lab.ScriptedModel([opens([t.random.choice(NAMES)]), lab.fail("overloaded"), down,
                               noted()])
    h = harness.Harness(model, SYSTEM, [opener()])

    def burst(event):
        if event["type"] == "agent_end":
            for kind, words in order:
                (h.steer if kind == "steer" else h.follow_up)(words)
    await lab.drive(h.prompt("Check the service."), on_event=burst)
    died = await raised(lambda: lab.drive(h.prompt("Hello?")))
    before = [m["content"] for m in h.messages if m["role"] == "user"]
    turns = []

    def per_turn(event):
        if event["type"] == "turn_start":
            turns.append([])
        elif event["type"] == "message_end" and event["message"]["role"] == "user":
            turns[-1].append(event["message"]["content"])
    _, given = await drive_watched(h, "And now?", on_event=per_turn)
    t.expect([before, died, turns],
             [["Check the service.", "Hello?", steers[0]],
              "TimeoutError: the provider did not answer",
              [["And now?", steers[1]], [follows[0]], [follows[1]]]],
             "Two steers and two follow-ups sent at the agent_end of a run whose reply failed; a "
             "run whose model raised once its prompt and the first steer were recorded; a last "
             "run. Items: the user messages recorded before the last run, what the run that "
             "died raised, the user messages announced in each turn of the last run.")
    t.expect([given, await stopped_by_max_turns()],
             why="For the last run above, whether each of the two functions run_agent was "
                 "handed can be called; then a follow-up a tool sends during a run that "
                 "max_turns=2 stops, and a second run: every user message, the record.")
    t.expect(await kept_through_trouble(t, KeyError("stop_reason"), "message_end"),
             why="A follow-up queued while idle, a run whose prompt has its words and whose "
                 "model raised KeyError; a run capped at one turn, a steer and a refused prompt "
                 "at its prompt's message_end, another steer at its agent_end; a last run. "
                 "Items: what the first run raised, what the consumer saw (the refusal; the "
                 "steers waiting at the steer's message_end), the user messages, the type of what "
                 "_drain gives back for each queue, the record.")
    t.expect(await a_drain_of_many(t),
             why="_drain on two crowded queues: for each [length, whether it is the "
                 "front message], then the queues' lengths.")
    t.expect(await a_steer_alike_a_handed_follow_up(t),
             why="A follow-up from a tool, and at the turn_start it opens a steer of its words, "
                 "then another: the user messages each request ended with.")


@lab_test("A steer handed to a run let go of at the turn_start it opened, and then a follow-up "
          "handed to a run let go of the same way, wait in their queues and are each delivered "
          "by the run after; a follow-up recorded by a run let go of at its message_end is not "
          "delivered again.")
async def test_bank_runs_let_go_of_at_a_turn_start(t):
    steer, follow = t.random.sample(SAID, 2)
    box = {}
    model = lab.ScriptedModel([opens([t.random.choice(NAMES)]), noted()])
    h = box["h"] = harness.Harness(model, SYSTEM,
                                   [opener(during=lambda path: box["h"].steer(steer))])

    waiting = []

    def let_go_at(run, starts):
        seen = 0
        for event in run:
            seen += event["type"] == "turn_start"
            if seen == starts:
                waiting.append([m["content"] for m in h._steering_queue + h._follow_up_queue])
                break
    let_go_at(h.prompt("Open it."), 2)
    shapes = [lab.shape(h.messages)]
    h.follow_up(follow)
    let_go_at(h.prompt("Go on."), 2)
    shapes.append(lab.shape(h.messages))
    last = t.random.choice([w for w in SAID if w not in (steer, follow)])
    await lab.drive(h.prompt("Finish."), on_event=lambda event: h.follow_up(last) if
                    event["type"] == "agent_end" else None)
    for event in h.prompt("Wrap up."):  # let go of at the message_end of the follow-up
        if event["type"] == "message_end" and event["message"]["content"] == last:
            break
    await lab.drive(h.prompt("Bye."))
    t.expect([shapes, waiting, lab.shape(h.messages),
              [m["content"] for m in h.messages if m["role"] == "user"]],
             [["U A[c1] R(c1)", "U A[c1] R(c1) U U A"], [[steer], [follow]],
              "U A[c1] R(c1) U U A U A U A U A U U A",
              ["Open it.", "Go on.", steer, "Finish.", follow, "Wrap up.", last, "Bye."]],
             "A steer from the first run's tool; the run let go of at its second turn_start; a "
             "follow-up queued; the next run let go of the same way; a run, a follow-up sent "
             "at its agent_end, and a run let go of at that follow-up's message_end; a last "
             "run. Items: the transcript "
             "after each of the first two runs, what waited in the queues when each was let "
             "go of, the transcript at the end, and its user messages.")
    again = t.random.choice(SAID)
    h.steer(again)
    for event in h.prompt(again):  # let go of at the prompt's own message_end
        if event["type"] == "message_end":
            break
    await lab.drive(h.prompt("Really bye."))
    t.expect([lab.shape(h.messages),
              [m["content"] for m in h.messages if m["role"] == "user"][-3:]],
             why="A steer of the very words of the next prompt, that run let go of at the "
                 "prompt's message_end, then a last run. Items: the transcript, its last three "
                 "user messages.")
    t.expect(await two_tabs_at_once(t),
             why="Two harnesses with a steer each, the second's whole run at the first's "
                 "prompt's message_end: each run's user messages, the first's requests.")
    t.expect(await through_a_blackout(t),
             why="A follow-up queued, a run whose model raised a BaseException that is no "
                 "Exception (the power going), a steer sent meanwhile, a run after: what the "
                 "first run died of, the user messages.")


async def steered_at_agent_start(by_harness: bool):
    """The record of a run whose consumer steers when it is handed agent_start, through a
    Harness or through run_agent handed an inbox of its own: those words belong to the first
    gap, U U A, since steering is asked for once the consumer has had agent_start."""
    model = lab.ScriptedModel([lab.say("Noted."), lab.say("And that.")])
    if by_harness:
        h = harness.Harness(model, SYSTEM, [opener()])
        await lab.drive(h.prompt("Begin."), on_event=lambda event: h.steer("At the start.")
                        if event["type"] == "agent_start" else None)
        return [lab.shape(h.messages), [m["content"] for m in h.messages if m["role"] == "user"]]
    inbox, messages = [], []

    def get_steering():
        given, inbox[:] = [harness.user_message(w) for w in inbox], []
        return given
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [opener()], "Begin.",
                                      get_steering=get_steering),
                    on_event=lambda event: inbox.append("At the start.")
                    if event["type"] == "agent_start" else None)
    return [lab.shape(messages), [m["content"] for m in messages if m["role"] == "user"]]


# --- rule 3: steering is asked for only in the gaps -----------------------------------------------

@lab_test("Steers the consumer sends at a tool_execution_end mid-batch and a tool sends later "
          "wait for the whole batch: every call runs, and they follow the last result.")
async def test_bank_steers_from_the_consumer_wait_for_the_batch(t):
    width = t.random.randint(6, 8)
    paths = [t.random.choice(NAMES) for _ in range(width)]
    when = t.random.randrange(4)
    first, second = t.random.sample(SAID, 2)
    ran, ends = [], []
    box = {}

    def during(path):
        if len(ran) == width - 1:
            box["h"].steer(second)
    model = lab.ScriptedModel([opens(paths), noted()])
    h = box["h"] = harness.Harness(model, SYSTEM, [opener(ran, during)])

    def send(event):
        if event["type"] == "tool_execution_end":
            ends.append(event)
            if len(ends) == when + 1:
                h.steer(first)
    with hours_pass():  # every call takes minutes by the clock, and still nothing is asked
        await lab.drive(h.prompt("Open them."), on_event=send)
    t.expect([ran, lab.shape(h.messages), [newest(request) for request in model.calls][1:]],
             [paths, "U " + batch(1, width) + " U A U A", [[first], [second]]],
             "A batch; a steer sent by the consumer at a tool_execution_end before the last, "
             "another by the batch's last tool. Items: the paths opened, the transcript, the "
             "user messages each later request ended with.")
    t.expect(await queued_while_idle("steer", 70),
             why="Seventy steers queued while idle, one in urgent capitals, and a run whose "
                 "first reply is a batch of three: its requests, whether its user messages "
                 "after the prompt are the steers, in order, and whether each result is an "
                 "error (every call runs).")
    t.expect(await wide_batches(t), why=WIDE)


@lab_test("A steer sent at the turn_end of an answer is taken up in that run; one sent at the "
          "turn_end of a failed reply waits for the next run.")
async def test_bank_steers_sent_at_turn_end(t):
    first, second = t.random.sample(SAID, 2)
    width = t.random.randint(0, 2)
    script = ([opens(t.random.sample(NAMES, width))] if width else []) + [
        lab.say("All done."), lab.say("About that."), lab.fail(t.random.choice(
            ["overloaded", "upstream timeout"])), lab.say("Back.")]
    model = lab.ScriptedModel(script)
    h = harness.Harness(model, SYSTEM, [opener()])
    sent = []

    def send(event):
        if event["type"] != "turn_end" or harness.tool_calls(event["message"]) or sent:
            return
        sent.append(event["message"]["stop_reason"])
        h.steer(first)
    found = []
    for ask in ("Tidy up.", "Once more."):
        events = await lab.drive(h.prompt(ask), on_event=send)
        found.append([lab.shape(h.messages), [e["type"] for e in events].count("turn_start")])
        sent.clear()
        send = (lambda event: h.steer(second) if event["type"] == "turn_end" and
                event["message"]["stop_reason"] == "error" else None)
    await lab.drive(h.prompt("Again."))
    head = "U " + (batch(1, width) + " " if width else "")
    t.expect([found, [m["content"] for m in h.messages if m["role"] == "user"]],
             [[[head + "A U A", 3 if width else 2], [head + "A U A U A(error)", 1]],
              ["Tidy up.", first, "Once more.", "Again.", second]],
             "A steer sent at the turn_end of a run's answer, then one sent at the turn_end of "
             "the next run's failed reply, then a prompt. Items: [transcript, turns] after each "
             "of the two runs, and every user message at the end.")
    t.expect(await queued_while_idle("steer", 70),
             why="Seventy steers queued while idle, one in urgent capitals, and a run whose "
                 "first reply is a batch of three: its requests, whether its user messages "
                 "after the prompt are the steers, in order, and whether each result is an "
                 "error (every call runs).")
    t.expect(await steered_at_agent_start(by_harness=True),
             why="A steer sent when the consumer is handed agent_start: the record and its user "
                 "messages (steering is asked for once the consumer has had agent_start).")


@lab_test("run_agent, handed a get_steering of the test's own, takes a steer sent at a "
          "tool_execution_start mid-batch only after the batch's turn_end, takes one sent at "
          "the answer's turn_end, and after a failed reply asks for none.")
async def test_bank_run_agent_with_an_inbox(t):
    width = t.random.randint(6, 8)
    when = t.random.randrange(4)
    inbox, messages, starts, asks = [], [], [], []
    mid, late, never, early, earlier = t.random.sample(SAID, 5)
    inbox.extend([earlier, early])  # waiting before the run: the first ask hands both over

    def get_steering():  # the inbox hands over all it holds
        asks.append("steering")
        given, inbox[:] = [harness.user_message(w) for w in inbox], []
        return given

    def get_follow_ups():
        asks.append("follow-ups")
        return []

    def watch(event):
        if event["type"] == "tool_execution_start":
            starts.append(event)
            if len(starts) == when + 1:
                inbox.append(mid)
        if event["type"] == "turn_end" and not harness.tool_calls(event["message"]):
            if event["message"]["stop_reason"] == "error":
                inbox.append(never)
            elif late not in [m["content"] for m in messages if m["role"] == "user"] and \
                    late not in inbox:
                inbox.append(late)
    model = lab.ScriptedModel([opens(t.random.sample(NAMES, width)), lab.say("Seen."),
                               lab.say("Done."), lab.fail("overloaded"),
                               lab.say("Never asked.")])
    with hours_pass():  # slow calls by the clock: steering is still asked in the gaps only
        await lab.drive(harness.run_agent(model, SYSTEM, messages, [opener()], "Look.",
                                          get_steering=get_steering,
                                          get_follow_ups=get_follow_ups),
                        on_event=watch)
    shape = lab.shape(messages)
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [opener()], "Again.",
                                      get_steering=get_steering, get_follow_ups=get_follow_ups),
                    on_event=watch)
    found = [shape, len(starts), lab.shape(messages), inbox[:], len(model.calls), asks[:]]
    # a last run capped at one turn, whose tool puts words in the inbox
    inbox[:], capped = [], []
    model = lab.ScriptedModel([opens([t.random.choice(NAMES)]), lab.say("Never asked.")])
    await lab.drive(harness.run_agent(model, SYSTEM, capped, [opener(
        during=lambda path: inbox.append(mid))], "Once.", max_turns=1,
        get_steering=get_steering))
    t.expect(found + [lab.shape(capped), inbox],
             ["U U U " + batch(1, width) + " U A U A", width,
              "U U U " + batch(1, width) + " U A U A U A(error)", [never], 4,
              ["steering"] * 4 + ["follow-ups", "steering"],
              "U A[c1] R(c1) U A(error)", []],
             "Two steers waiting as the run begins; a batch with a steer sent at a "
             "tool_execution_start before its last call, one sent at the turn_end of the first "
             "answer; then a run whose reply fails, with a steer sent at its turn_end; then a "
             "run capped at one turn whose tool sends a steer. Items: the first record, the "
             "calls started, the record at the end, what was left in the inbox, the requests, "
             "each ask in order; the capped run's record and what is left in the inbox.")
    t.expect(await steering_after_a_follow_up(),
             why="run_agent handed a follow-up whose reply asks for a call. Items: each ask as "
                 "[the callable, the record then], the record.")
    t.expect(await steered_at_agent_start(by_harness=False),
             why="Words put in the inbox when the consumer is handed agent_start: the record and "
                 "its user messages (steering is asked for once the consumer has had "
                 "agent_start).")
    t.expect(await wide_batches(t), why=WIDE)
    t.expect(await crowds_at_once(t),
             why="Owners that hand over a crowd at one ask, then one message per ask: the asks "
                 "of get_steering and of get_follow_ups, the requests, the user messages after "
                 "the crowds, and whether both crowds are on the record whole, in order, the "
                 "same words as often as handed over: whatever is in pending at the top of a "
                 "turn is recorded there.")


@lab_test("run_agent handed both callables, and a get_steering that hands over all it holds: "
          "two steers waiting at the start go in together, one sent during the only turn "
          "max_turns allows goes in after it, and get_steering is asked for nowhere else, not "
          "before get_follow_ups either.")
async def test_bank_an_owner_that_hands_over_all_it_holds(t):
    first, second, third = t.random.sample(SAID, 3)
    held, asks, messages, sent = [harness.user_message(first), harness.user_message(second)], [], \
        [], []

    def get_steering():
        asks.append(["steering", lab.shape(messages)])
        given, held[:] = held[:], []
        return given

    def get_follow_ups():
        asks.append(["follow-ups", lab.shape(messages)])
        return []

    def during(path):
        if not sent:
            sent.append(path)
            held.append(harness.user_message(third))
    width = t.random.randint(1, 3)
    model = lab.ScriptedModel([opens(t.random.sample(NAMES, width)), noted()])
    tools = [opener(during=during)]
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, "Begin.", max_turns=1,
                                      get_steering=get_steering, get_follow_ups=get_follow_ups))
    capped = lab.shape(messages)
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, "Again.",
                                      get_steering=get_steering, get_follow_ups=get_follow_ups))
    head = "U U U " + batch(1, width)
    t.expect([capped, [m["content"] for m in messages if m["role"] == "user"], asks],
             [head + " U A(error)", ["Begin.", first, second, third, "Again."],
              [["steering", ""], ["steering", head], ["steering", head + " U A(error)"],
               ["steering", head + " U A(error) U A"], ["follow-ups", head + " U A(error) U A"]]],
             "A run capped at one turn with two steers waiting at its start and one sent by its "
             "tool, then a run without a cap, both handed both callables. Items: the first "
             "record, every user message, each ask as [callable, record then].")
    t.expect(await steering_after_a_follow_up(),
             why="run_agent handed a follow-up whose reply asks for a call. Items: each ask as "
                 "[the callable, the record then], the record.")
    t.expect(await crowds_at_once(t),
             why="Owners that hand over a crowd at one ask, then one message per ask: the asks "
                 "of get_steering and of get_follow_ups, the requests, the user messages after "
                 "the crowds, and whether both crowds are on the record whole, in order, the "
                 "same words as often as handed over: whatever is in pending at the top of a "
                 "turn is recorded there.")


# --- rule 4: follow-ups are asked for only where the run would end ------------------------------

@lab_test("A follow-up and a steer sent from a tool of the first batch: the steer opens the next "
          "turn, and the follow-up waits for the job's answer, in the same run; a hand-over "
          "of follow-ups that raises ends the run with that very exception.")
async def test_bank_a_follow_up_waits_behind_the_job(t):
    follow, steer = t.random.sample(SAID, 2)
    box, sent = {}, []
    widths = [t.random.randint(1, 2), t.random.randint(1, 2)]

    hours = t.random.randint(2, 40)  # each call's time by the clock

    def during(path):
        if not sent:
            sent.append(path)
            box["h"].follow_up(follow)
            box["h"].steer(steer)
        takes_hours(hours)
    model = lab.ScriptedModel([opens(t.random.sample(NAMES, widths[0])), opens(
        t.random.sample(NAMES, widths[1])), lab.say("Job done."), lab.say("And that too.")])
    h = box["h"] = harness.Harness(model, SYSTEM, [opener(during=during)])
    with hours_pass():  # a job of hours by the clock: its follow-up is answered all the same
        events = await lab.drive(h.prompt("Do the job."))
    t.expect([[newest(request) for request in model.calls],
              [e["type"] for e in events].count("agent_end"), harness.text_of(h.messages[-1])],
             [[["Do the job."], [steer], [], [follow]], 1, "And that too."],
             "Each call of the job takes hours by the clock. Each item of the first is the user "
             "messages a request ended with; then the run's agent_end events, and its last "
             "words.")
    t.expect(await queued_while_idle("follow_up", 70),
             why="Seventy follow-ups queued while idle, one in urgent capitals, and a run "
                 "whose first reply is a batch of three: its requests, whether its user "
                 "messages after the prompt are the follow-ups, in order, and whether each "
                 "result is an error.")
    t.expect(await a_jammed_hand_over(t, "follow_up"),
             why="A harness whose hand-over of follow-ups raises once a tool of the first "
                 "batch sends a follow-up: the exception comes out of the run as it was raised, "
                 "never taken for [], and the follow-up waits for the next run. Items: what "
                 "came out of the run and whether it is the very exception, the last event "
                 "handed out (no agent_end before it), is_running, the follow-ups still queued, "
                 "the user messages each request ended with, the record; then the kinds of "
                 "every Exception class, raised at the first ask, that did not come out as "
                 "raised.")


@lab_test("run_agent asks a get_follow_ups of the test's own only once its reply has no calls "
          "and its turn_end is handed out, and never on a run that ends with a failed reply; a "
          "capped run's follow-ups count toward its cap.")
async def test_bank_follow_ups_asked_for_on_two_runs(t):
    seen, messages, last = [], [], []

    def get_follow_ups():
        seen.append([lab.shape(messages), last[-1]])
        return []

    def watch(event):
        last.append(event["type"])
    first = [t.random.randint(1, 2) for _ in range(t.random.randint(1, 2))]
    second = [t.random.randint(1, 2) for _ in range(t.random.randint(0, 2))]
    n, script = 0, []
    for width in first:
        script.append(opens([t.random.choice(NAMES)] * width))
    script.append(lab.say("Opened."))
    for width in second:
        script.append(opens([t.random.choice(NAMES)] * width))
    script.append(lab.fail(t.random.choice(["overloaded", "bad gateway"]),
                           lab.call("open", {"path": "x.py"})))
    model = lab.ScriptedModel(script)
    for ask in ("Open some.", "Open more."):
        await lab.drive(harness.run_agent(model, SYSTEM, messages, [opener()], ask,
                                          get_follow_ups=get_follow_ups), on_event=watch)
    first_shape = "U"
    for width in first:
        first_shape += " " + batch(n + 1, width)
        n += width
    first_shape += " A"
    found = [seen[:], len(model.calls)]
    cap = t.random.randint(1, 2)
    waiting = [harness.user_message(f"Then part {k}.") for k in range(cap + 1, 0, -1)]
    capped, model = [], lab.ScriptedModel([noted()])
    await lab.drive(harness.run_agent(model, SYSTEM, capped, [opener()], "Parts.", max_turns=cap,
                                      get_follow_ups=lambda: [waiting.pop()] if waiting else []))
    t.expect(found + [lab.shape(capped), len(model.calls)],
             [[[first_shape, "turn_end"]], len(first) + len(second) + 2,
              "U A" + " U A" * (cap - 1) + " U A(error)", cap],
             "Two runs on one record, the second ending with a failed reply; then a run capped "
             "at a drawn number of turns with more follow-ups waiting than it allows. Items: "
             "each time get_follow_ups was called, [the record then, the last event handed "
             "out]; the requests; the capped run's record and requests.")
    t.expect(await wide_batches(t), why=WIDE)
    t.expect(await long_runs_and_a_failed_start(t), why=LONG)
    t.expect(await crowds_at_once(t),
             why="Owners that hand over a crowd at one ask, then one message per ask: the asks "
                 "of get_steering and of get_follow_ups, the requests, the user messages after "
                 "the crowds, and whether both crowds are on the record whole, in order, the "
                 "same words as often as handed over: whatever is in pending at the top of a "
                 "turn is recorded there.")


@lab_test("A follow-up sent at the turn_end of a batch waits for the answer; one sent at the "
          "turn_end of a failed reply waits for the next run; one sent at the turn_end of a "
          "run's answer is answered in that run; a hand-over of steering that raises ends the "
          "run with that very exception.")
async def test_bank_follow_ups_sent_at_turn_end(t):
    early, late = t.random.sample(SAID, 2)
    width = t.random.randint(1, 3)
    model = lab.ScriptedModel([opens(t.random.sample(NAMES, width)), lab.say("Opened."),
                               lab.say("As for that."), lab.fail("upstream timeout"),
                               lab.say("Here."), lab.say("And that."), lab.say("Yes."),
                               lab.say("Also done.")])
    hours = t.random.randint(2, 40)  # each call's time by the clock
    h = harness.Harness(model, SYSTEM, [opener(during=lambda path: takes_hours(hours))])

    def send(event):
        if event["type"] == "turn_end":
            if harness.tool_calls(event["message"]):
                h.follow_up(early)
            elif event["message"]["stop_reason"] == "error":
                h.follow_up(late)
    shapes = []
    for ask in ("Open them.", "Try.", "Last."):
        with hours_pass():  # the first run's calls take hours by the clock
            await lab.drive(h.prompt(ask), on_event=send)
        shapes.append(lab.shape(h.messages))
    final, sent = t.random.choice([w for w in SAID if w not in (early, late)]), []

    def send_once(event):
        if event["type"] == "turn_end" and not sent:
            sent.append(event)
            h.follow_up(final)
    events = await lab.drive(h.prompt("Done?"), on_event=send_once)
    head = "U " + batch(1, width)
    t.expect([shapes, [m["content"] for m in h.messages if m["role"] == "user"],
              [e["type"] for e in events].count("agent_end")],
             [[head + " A U A", head + " A U A U A(error)", head + " A U A U A(error) U A U A"],
              ["Open them.", early, "Try.", "Last.", late, "Done?", final], 1],
             "A follow-up sent at the turn_end of a batch whose calls take hours by the "
             "clock, and one at the turn_end of a failed "
             "reply in the next run, then a third run; then a fourth, whose only answer's "
             "turn_end gets a follow-up. Items: the transcript after each of the first three "
             "runs, every user message, the fourth run's agent_ends.")
    t.expect(await queued_while_idle("follow_up", 70),
             why="Seventy follow-ups queued while idle, one in urgent capitals, and a run "
                 "whose first reply is a batch of three: its requests, whether its user "
                 "messages after the prompt are the follow-ups, in order, and whether each "
                 "result is an error.")
    t.expect(await a_jammed_hand_over(t, "steering"),
             why="A harness whose hand-over of steering raises once a tool of the first batch "
                 "sends a steer: the exception comes out of the run as it was raised after "
                 "that turn_end, never taken for [], and the steer waits for the next run. "
                 "Items: what came out of the run and whether it is the very exception, the "
                 "last event handed out (no agent_end before it), is_running, the steers still "
                 "queued, the user messages each request ended with, the record; then the "
                 "kinds of every Exception class, raised at the first ask, that did not come "
                 "out as raised.")


@lab_test("run_agent capped at a drawn number of turns, handed a get_follow_ups that takes each "
          "message off its list as it hands it over: it is asked once per answer, after that "
          "answer's turn_end, until the cap ends the run with a failed reply; and not after it.")
async def test_bank_follow_ups_from_an_owner_that_takes_them(t):
    cap = t.random.randint(2, 4)
    waiting = [harness.user_message(f"Now part {k}.") for k in range(cap + 1, 0, -1)]
    asked, events, messages = [], [], []

    def get_follow_ups():
        asked.append([lab.shape(messages), events[-1]])
        return [waiting.pop()] if waiting else []

    def watch(event):
        events.append(event["type"])
    width = t.random.randint(1, 2)
    model = lab.ScriptedModel([opens(t.random.sample(NAMES, width)), noted()])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [opener()], "Begin.",
                                      max_turns=cap, get_follow_ups=get_follow_ups),
                    on_event=watch)
    head = "U " + batch(1, width) + " A"
    t.expect([asked, lab.shape(messages), len(model.calls),
              [m["content"] for m in waiting]],
             [[[head + " U A" * k, "turn_end"] for k in range(cap - 1)],
              head + " U A" * (cap - 2) + " U A(error)", cap,
              [f"Now part {k}." for k in range(cap + 1, cap - 1, -1)]],
             "A batch, then answers, with more follow-ups waiting than the cap lets the run "
             "answer. Items: each call of get_follow_ups as [the record then, the last event "
             "handed out], the record, the requests, the messages the owner still holds.")
    t.expect(await long_runs_and_a_failed_start(t), why=LONG)
    t.expect(await wide_batches(t), why=WIDE)
    t.expect(await crowds_at_once(t),
             why="Owners that hand over a crowd at one ask, then one message per ask: the asks "
                 "of get_steering and of get_follow_ups, the requests, the user messages after "
                 "the crowds, and whether both crowds are on the record whole, in order, the "
                 "same words as often as handed over: whatever is in pending at the top of a "
                 "turn is recorded there.")


# --- rule 5: without the two callables, lesson 8's run --------------------------------------------

@lab_test("run_agent without get_steering and get_follow_ups, on a record holding earlier "
          "exchanges, records and announces what lesson 8's loop did, a cap's ending included.")
async def test_bank_no_callables_on_an_earlier_record(t):
    messages = [harness.user_message("Earlier."), lab.say("Earlier answer.")]
    width, cap = t.random.randint(1, 3), t.random.randint(1, 2)
    model = lab.ScriptedModel([opens(t.random.sample(NAMES, width)) for _ in range(cap)])
    events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [opener()], "Go.",
                                               max_turns=cap))
    per = ["message_end"] + ["tool_execution_start", "message_end", "tool_execution_end"] * width
    t.expect([lab.shape(messages), [e["type"] for e in events], len(model.calls)],
             [" ".join(["U A U"] + [batch(1 + width * k, width) for k in range(cap)] +
                       ["A(error)"]),
              ["agent_start", "turn_start", "message_end"] +
              (per + ["turn_end", "turn_start"]) * cap + ["message_end", "turn_end", "agent_end"],
              cap],
             "A run capped at a drawn number of turns, each asking for a batch. Items: the "
             "record, the events, the requests.")


@lab_test("run_agent handed only one of the two callables asks that one and goes without the "
          "other.")
async def test_bank_only_one_callable(t):
    words = t.random.choice(SAID)
    given = [harness.user_message(words)]
    messages = []
    model = lab.ScriptedModel([lab.say("One."), lab.say("Two."), lab.say("Three.")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [], "Hi.",
                                      get_follow_ups=lambda: [given.pop()] if given else []))
    first = lab.shape(messages)
    later = [harness.user_message("Also this.")]
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [], "Bye.",
                                      get_steering=lambda: [later.pop()] if later else []))
    t.expect([first, lab.shape(messages), [m["content"] for m in messages if m["role"] == "user"]],
             ["U A U A", "U A U A U U A", ["Hi.", words, "Bye.", "Also this."]],
             "A run handed get_follow_ups alone, then one handed get_steering alone. Items: the "
             "record after the first, after the second, and its user messages.")

