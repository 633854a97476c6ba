"""Lesson 9, lab 1: wait for the gap. The tests of steer() and follow_up(): the user's words are
queued at any time and reach the transcript only at the top of a turn, where every call already
has its result.

Each test draws its batches, the moment the user speaks and the words they say from t.random,
so the rule is checked over a family of runs, not one.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 9 tests.py
"""
import itertools
import time
from collections.abc import Sized

import harness
import lab
from lab.kit import hours_pass, lab_test, tool

LAB = "9.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
FILES = ["a.py", "b.py", "setup.py", "README.md", "src/app.py", "tests/test_app.py",
         "docs/guide.md", "pyproject.toml", "src/db.py", "Makefile"]
WORDS = ["Only the tests matter.", "Use the new API.", "Keep it short.", "No new files.",
         "Skip the docs.", "Python 3.11 only, please.", "Mind the config.", "Ignore vendor/.",
         "Then add a test.", "And the README."]


class Jammed(Exception):
    """What a frontend's own code may raise: an exception class of its own."""


# What a get_steering or get_follow_ups may raise, with words: a frontend's queue broken in one
# of many ways. Each is an Exception, so that a loop that swallows one swallows it.
RAISES = [(ConnectionError, "the frontend's socket closed"), (KeyError, "queue"),
          (OSError, "the inbox file is gone"), (ValueError, "not a message"),
          (RuntimeError, "a bug in the frontend"), (LookupError, "no such session"),
          (TimeoutError, "the frontend took too long"), (Jammed, "the input box is jammed"),
          (UnicodeError, "the terminal sent bad bytes"), (PermissionError, "not yours to read"),
          (IndexError, "pop from an empty deque"), (TypeError, "'NoneType' is not iterable"),
          (AttributeError, "'NoneType' object has no attribute 'popleft'")]


class PowerCut(BaseException):
    """What a run can die of that is not an Exception, as the power going or Ctrl-C: a
    BaseException, which an `except Exception` lets through."""


def looker(during=None):
    """A tool `look`; `during(path)` is called while it runs, if given."""
    def fn(arguments):
        if during is not None:
            during(arguments["path"])
        return "contents of " + arguments["path"]
    return tool("look", fn, PATH)


def looks(*paths):
    """One reply that asks to look at each path, in one batch."""
    return lab.reply(*[lab.call("look", {"path": p}) for p in paths])


def takes_hours(hours):
    """What a call that takes `hours` by the clock does: it reads time.monotonic() until that
    many hours have gone by. Only ever under hours_pass, where each reading is a minute on, so it
    costs sixty readings an hour and no time at all."""
    start = time.monotonic()
    while time.monotonic() - start < hours * 3600:
        pass


def user_words(messages):
    return [m["content"] for m in messages if m["role"] == "user"]


def batch(first, width):
    """The shape of a reply asking for `width` calls numbered from `first`, and their results:
    batch(2, 2) is "A[c2,c3] R(c2) R(c3)"."""
    ids = [f"c{n}" for n in range(first, first + width)]
    return f"A[{','.join(ids)}] " + " ".join(f"R({i})" for i in ids)


def rounds(widths):
    """The shape of replies asking for calls in batches of `widths`, each answered, numbered
    from c1: rounds([2, 1]) is "A[c1,c2] R(c1) R(c2) A[c3] R(c3)"."""
    shapes, first = [], 1
    for width in widths:
        shapes.append(batch(first, width))
        first += width
    return " ".join(shapes)


def script(t, widths):
    """Replies asking to look at drawn files in batches of `widths`, and the paths in call
    order."""
    paths = [t.random.choice(FILES) for _ in range(sum(widths))]
    replies, at = [], 0
    for width in widths:
        replies.append(looks(*paths[at:at + width]))
        at += width
    return replies, paths


@lab_test("The user steers while a call of a batch is running, before its last call. The words "
          "wait until every call of the batch has its result, then open the next turn: "
          "U A[c1,c2] R(c1) R(c2) U A for a batch of two; the same for words sent during "
          "the first call of a batch of eight, each call taking hours, whatever they say.")
async def test_a_steer_waits_for_the_batch(t):
    width = t.random.randint(2, 5)
    during_call = t.random.randrange(width - 1)  # never the last: the steer must wait
    words = t.random.choice(WORDS)
    (reply,), paths = script(t, [width])
    ran = []

    def during(path):
        if len(ran) == during_call:
            h.steer(words)
        ran.append(path)
    model = lab.ScriptedModel([reply, lab.say("Understood.")])
    h = harness.Harness(model, SYSTEM, [looker(during)])
    await lab.drive(h.prompt("Read the files."))
    t.expect(lab.shape(h.messages), batch(1, width).join(["U ", " U A"]),
             "A call and its result stay together (lesson 2), and user messages enter only at "
             "the top of a turn (lesson 7): the steer waits until the batch's last call has its "
             f"result; here a batch of {width} calls, steered during call {during_call + 1} "
             "(Harness.steer and run_agent, lesson 9).")
    t.expect(user_words(h.messages), ["Read the files.", words],
             "The steer is recorded as a user message holding exactly its text (Harness.steer, "
             "lesson 9).")
    # the scene of "Stop, wrong folder!": a wide batch, and words that sound urgent, sent
    # during its first call
    width, urgent, ran = 8, "Stop, wrong folder!", []
    louder = ["HALT ALL, wrong folder!", "Abort now, wrong folder!"]  # and sent again, louder
    hours = t.random.randint(2, 30)  # each call's time by the clock: the steers wait for hours

    def first_call(path):
        if not ran:
            for words in [urgent] + louder:
                h.steer(words)
        ran.append(path)
        takes_hours(hours)
    model = lab.ScriptedModel([looks(*FILES[:width]), lab.say("Stopping there."),
                               lab.say("Stopped."), lab.say("Still stopped.")])
    h = harness.Harness(model, SYSTEM, [looker(first_call)])
    with hours_pass():  # each reading of the clock a minute on: every call takes hours
        await lab.drive(h.prompt("Clean out build/."))
    t.expect([lab.shape(h.messages), user_words(h.messages),
              [m.get("is_error", False) for m in h.messages if m["role"] == "toolResult"]],
             [batch(1, width).join(["U ", " U A U A U A"]), ["Clean out build/.", urgent] + louder,
              [False] * width],
             f"{urgent!r}, then {louder[0]!r} and {louder[1]!r}, steered during the first call "
             f"of a batch of {width}, each call taking {hours} hours by the clock: a steer only queues, however urgent its words, however wide "
             "the batch and however slow its calls, and waits until every call of the batch "
             "has its result, however long ago it was sent: the words wait \"behind any of the "
             "same kind sent before them\", and a harness drops nothing the user said, not even "
             "words that waited for hours; steering is asked for after turn_end \"and at no other moment\" "
             "(Build items 1 and 3; lesson 15 has the Stop button), and every call of the batch runs, "
             "none skipped. The items are [the record, its user messages, whether each result "
             "is an error] (Harness.steer and run_agent, lesson 9).")


@lab_test("The request after a steer ends with the steer, so the model reads it before it "
          "answers again.")
async def test_the_next_request_ends_with_the_steer(t):
    width = t.random.randint(1, 4)
    during_call = t.random.randrange(width)
    words = t.random.choice(WORDS)
    (reply,), paths = script(t, [width])
    ran = []

    def during(path):
        if len(ran) == during_call:
            h.steer(words)
        ran.append(path)
    model = lab.ScriptedModel([reply, lab.say("Switching, then.")])
    h = harness.Harness(model, SYSTEM, [looker(during)])
    await lab.drive(h.prompt("Read the files."))
    last = model.calls[1].messages if len(model.calls) > 1 else []
    t.expect([lab.shape(last), last[-1]["content"] if last else None, len(model.calls)],
             ["U " + batch(1, width) + " U", words, 2],
             "The turn the steer opens sends it as the last message of the request; the items "
             "are [the second request's shape, its last message's text, requests] (run_agent, "
             "lesson 9).")


@lab_test("A follow-up sent during a run is answered in that same run, after its final reply: "
          "one agent_end, and the follow-up sits after the answer it waited for, however long "
          "the run has taken; a steer sent during the follow-up's own call opens the next turn "
          "of that run.")
async def test_a_follow_up_is_answered_in_the_same_run(t):
    widths = [t.random.randint(1, 3) for _ in range(t.random.randint(1, 3))]
    sent_at = t.random.randrange(sum(widths))
    words = t.random.choice(WORDS)
    replies, paths = script(t, widths)
    ran = []

    hours = t.random.randint(2, 30)  # each call's time by the clock: a run of hours

    def during(path):
        if len(ran) == sent_at:
            h.follow_up(words)
        ran.append(path)
        takes_hours(hours)
    model = lab.ScriptedModel(replies + [lab.say("Read them all."), lab.say("Done, as asked.")])
    h = harness.Harness(model, SYSTEM, [looker(during)])
    with hours_pass():  # each reading of the clock a minute on: every call takes hours
        events = await lab.drive(h.prompt("Read the files."))
    t.expect(lab.shape(h.messages), "U " + rounds(widths) + " A U A",
             "A follow-up waits until the run would otherwise end, then opens a turn of its own "
             f"in that same run, however long the run has taken: here {sum(widths)} calls of "
             f"{hours} hours each by the clock (\"A follow-up sent during a run is answered in "
             "that run\", Build item 4; run_agent, lesson 9).")
    t.expect([[e["type"] for e in events].count("agent_end"), lab.shape(events[-1]["messages"])],
             [1, "U " + rounds(widths) + " A U A"],
             "It is the same run: one agent_end, carrying both answers (run_agent, lessons 7 and 9).")
    t.expect(user_words(h.messages), ["Read the files.", words],
             "The follow-up's words are recorded as given (Harness.follow_up, lesson 9).")
    steer = t.random.choice([w for w in WORDS if w != words])
    ran = []

    def steered(path):  # the user steers during the follow-up's own call
        if not ran:
            h.steer(steer)
        ran.append(path)
    model = lab.ScriptedModel([lab.say("Read them all."), looks(t.random.choice(FILES)),
                               lab.say("Following your steer."), lab.say("Nothing more.")])
    h = harness.Harness(model, SYSTEM, [looker(steered)])
    h.follow_up(words)
    await lab.drive(h.prompt("Read the files."))
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             ["U A U A[c1] R(c1) U A", ["Read the files.", words, steer]],
             "A follow-up whose turn asks for a call, and a steer sent during that call: a "
             "follow-up's turns are turns like any other, so steering is still asked for after "
             "each of their turn_ends and the steer opens the next turn of the same run. The "
             "items are [the record, its user messages] (run_agent, lesson 9).")


# Words that sound urgent, in the shapes a user types them.
URGENT = ["Stop, wrong folder!", "STOP", "stop that.", "STOP NOW", "Stop now!", "WAIT!",
          "Cancel that.", "Abort the deploy!", "HALT", "Abort now!", "HALT ALL."]


def together(t, count):
    """`count` words a user sends one after another, the same ones twice in a row among them
    (they meant it twice): distinct draws from WORDS with one of them repeated."""
    said = t.random.sample(WORDS, count - 1)
    at = t.random.randrange(len(said))
    return said[:at + 1] + said[at:]


@lab_test("Steers sent at once arrive one per turn, the older first, the same words sent twice "
          "included; steers sent while idle too: the first joins the prompt's turn, each other "
          "gets a turn of its own; run_agent is handed two functions, not the queues.")
async def test_two_steers_arrive_one_per_turn(t):
    said = together(t, t.random.randint(2, 5))

    def during(path):
        for words in said:
            h.steer(words)
    model = lab.ScriptedModel([looks(t.random.choice(FILES))] +
                              [lab.say(f"Noted ({n}).") for n in range(len(said))])
    h = harness.Harness(model, SYSTEM, [looker(during)])
    await lab.drive(h.prompt("Read the file."))
    t.expect(lab.shape(h.messages), "U A[c1] R(c1)" + " U A" * len(said),
             "Each ask hands the loop one message, so each steer gets its own turn and its own "
             f"answer; here {len(said)} steers, the same words twice in a row among them: a "
             "harness drops nothing the user said (Harness._drain, lesson 9).")
    t.expect(user_words(h.messages)[1:], said,
             "Queued messages come out oldest first (Harness._drain, lesson 9).")
    t.expect(lab.shape(model.calls[1].messages), "U A[c1] R(c1) U",
             "The second steer is not in the request the first one opened (Harness._drain, "
             "lesson 9).")
    model = lab.ScriptedModel([lab.say(f"Noted ({n}).") for n in range(len(said))])
    h = harness.Harness(model, SYSTEM, [looker()])
    for words in said:
        h.steer(words)
    given, loop = [], harness.run_agent

    def watched(*args, **kwargs):  # the loop as the harness calls it, and what it is handed
        given.append([callable(kwargs.get(name)) and not isinstance(kwargs.get(name), Sized)
                      and not queues_reached(kwargs.get(name), h)
                      for name in ("get_steering", "get_follow_ups")])
        return loop(*args, **kwargs)
    harness.run_agent = watched
    try:
        await lab.drive(h.prompt("Fix the login page."))
    finally:
        harness.run_agent = loop
    t.expect(given, [[True, True]],
             "The harness's run hands run_agent two functions, get_steering and "
             "get_follow_ups, never the queues themselves: the loop never touches a queue, "
             "and is not given a deque, not even one that can be called, nor a function or an "
             "object that carries one (\"it never sees the queue at all\"). The items are, for "
             "each call of run_agent, whether each of the two it was handed can be called, is no "
             "collection and leads to no queue through what it holds, short of the harness "
             "itself (Harness._run and run_agent, lesson 9).")
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             ["U U A" + " U A" * (len(said) - 1), ["Fix the login page."] + said],
             f"{len(said)} steers sent while idle: the run's first ask hands over one message, "
             "like every ask, so the oldest joins the prompt's turn and each of the others gets "
             "a turn of its own; the items are [the record, its user messages] "
             "(Harness._drain, lesson 9).")
    h.steer(said[0])  # one steer waiting, no follow-up: what _drain gives back for each queue
    got = [h._drain(h._steering_queue), h._drain(h._follow_up_queue)]
    t.expect([[type(g).__name__, len(g)] for g in got], [["list", 1], ["list", 0]],
             "_drain called with self._steering_queue while one steer waits, then with "
             "self._follow_up_queue while none does: what the loop is handed each time it asks "
             "gives back a list, of at most one message, or [] (Build item 2). The items are "
             "[the type of what _drain gave back, its length] for each queue (Harness._drain, "
             "lesson 9).")


@lab_test("Follow-ups sent at once are answered one per turn, the older first, the same words "
          "sent twice included; a hundred and fifty steers and as many follow-ups too; and "
          "over ten thousand sent while idle all wait, in the order they were sent, _drain "
          "handing over the oldest.")
async def test_follow_ups_sent_together_arrive_one_per_turn(t):
    said = together(t, t.random.randint(2, 4))
    model = lab.ScriptedModel([lab.say(f"Answer {n}.") for n in range(len(said) + 1)])
    h = harness.Harness(model, SYSTEM, [looker()])
    for words in said:
        h.follow_up(words)
    events = await lab.drive(h.prompt("Fix the login page."))
    t.expect([lab.shape(h.messages), user_words(h.messages),
              [e["type"] for e in events].count("agent_end")],
             ["U A" + " U A" * len(said), ["Fix the login page."] + said, 1],
             f"{len(said)} follow-ups: each ask hands the loop at most one message, so each "
             "follow-up gets a turn and an answer of its own, oldest first, the same words twice "
             "as two; the items are [the record, its user messages, agent_ends] "
             "(Harness._drain, lesson 9).")
    many = [f"Note {n}." for n in range(1, 151)]
    late, asked = t.random.choice(WORDS), [0]  # the user speaks once more as the last
    # follow-up is answered (the request count, not the request: reading each is a copy)

    def noted(request):
        asked[0] += 1
        if asked[0] == 2 * len(many):
            h.steer(late)
        return lab.say("Noted.")
    model = lab.ScriptedModel([lab.forever(noted)])
    h = harness.Harness(model, SYSTEM, [looker()])
    for words in many:
        h.steer(words)
        h.follow_up("Then " + words.lower())
    await lab.drive(h.prompt("Fix the login page."))
    t.expect([len(model.calls), user_words(h.messages)[1:] == many + ["Then " + w.lower()
                                                                       for w in many] + [late]],
             [2 * len(many) + 1, True],
             f"{len(many)} steers and {len(many)} follow-ups sent while idle, and {late!r} "
             f"steered while the last follow-up is answered, at turn {2 * len(many)}: a queue "
             "has no limit, since a harness drops nothing the user said; steering is asked for "
             "after every turn_end, however long the run (turn 300 as much as turn 2), and a run "
             "answers every follow-up that waits, however many; each message gets its turn, "
             "the steers first. The items are [requests, whether the user messages after the "
             "prompt are every steer, every follow-up, then the late steer, oldest first] "
             "(Harness, lesson 9).")
    # a long session's words sent while idle: drawn with repeats far apart, and urgent ones
    # (in capitals too) sent after others
    said = [t.random.choice(WORDS) for _ in range(t.random.randint(10000, 10500))]
    for words in URGENT:
        said.insert(t.random.randint(1, len(said)), words)
    model = lab.ScriptedModel([lab.say("Noted.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    for words in said:
        h.steer(words)
        h.follow_up(words)
    t.expect([[len(queue), all(m["role"] == "user" for m in queue),
               [m["content"] for m in queue] == said]
              for queue in (h._steering_queue, h._follow_up_queue)]
             + [lab.shape(h.messages), len(model.calls)],
             [[len(said), True, True], [len(said), True, True], "", 0],
             f"{len(said)} words sent while idle, each as a steer and as a follow-up: the same "
             f"words again and again, far apart, and {', '.join(map(repr, URGENT))} sent after "
             "others. Each send only queues, however urgent its words, and waits as a user "
             "message behind every one of its kind sent before it: a queue has no limit and no "
             "order but the sending, and a harness drops nothing the user said, not even words "
             "already waiting (Build item 1). The items are, for self._steering_queue then "
             "self._follow_up_queue, [the messages waiting, whether each is a user message, "
             "whether their words are the ones sent, in order], then the record and the "
             "requests made (Harness.steer and Harness.follow_up, lesson 9).")
    queues = (h._steering_queue, h._follow_up_queue)
    got = [h._drain(queue) for queue in queues]
    t.expect([[type(g).__name__, len(g), len(g) == 1 and g[0] is queue[0], len(queue)]
              for g, queue in zip(got, queues)],
             [["list", 1, True, len(said)], ["list", 1, True, len(said)]],
             f"_drain called with each queue while {len(said)} messages wait in it: however "
             "many wait, it gives back \"a list of at most one message, the oldest waiting\" "
             "(Build item 2), that very message, and leaves it queued until it is on the "
             "record. The items are, for self._steering_queue then self._follow_up_queue, "
             "[the type of what _drain gave back, its length, whether it is the oldest "
             "message waiting, the messages still waiting] (Harness._drain, lesson 9).")
    # then a crowd far past what the user could send in a test: one message repeated (a queue
    # may hold one dict many times, as the same words queued again), put in each queue at once
    crowd = t.random.randint(2_100_000, 2_400_000)
    for queue in queues:
        queue.extend(itertools.repeat(queue[-1], crowd))
    got = [h._drain(queue) for queue in queues]
    t.expect([[len(queue), len(g), len(g) == 1 and g[0] is queue[0],
               getattr(queue, "maxlen", None)] for g, queue in zip(got, queues)],
             [[len(said) + crowd, 1, True, None], [len(said) + crowd, 1, True, None]],
             f"{crowd} more messages put behind the {len(said)} waiting in each queue: a queue "
             "has no limit and drops nothing, not even the oldest (the words wait \"behind any "
             "of the same kind sent before them\", Build item 1), so a deque is made with no "
             "maxlen, and however many wait, _drain gives back \"a list of at most one "
             "message, the oldest waiting\" (Build item 2), never more because a crowd waits. "
             "The items are, for self._steering_queue then self._follow_up_queue, [the messages "
             "waiting, the length of what _drain gave back, whether it is the oldest message "
             "waiting, its maxlen if it has one] (Harness._drain, lesson 9).")
    last = t.random.choice(WORDS)  # and the user sends once more, with the crowd waiting
    h.steer(last)
    h.follow_up(last)
    t.expect([[len(queue), queue[-1]["role"], queue[-1]["content"]] for queue in queues],
             [[len(said) + crowd + 1, "user", last]] * 2,
             f"{last!r} sent as a steer and as a follow-up while {len(said) + crowd} messages "
             "wait in each queue: a queue has no limit, so the words still wait, last, "
             "\"behind any of the same kind sent before them\" (Build item 1), however many "
             "wait, and nothing the user said is dropped. The items are, for "
             "self._steering_queue then self._follow_up_queue, [the messages waiting, the "
             "role and the words of the last one] (Harness.steer and Harness.follow_up, "
             "lesson 9).")
    h._delivered(h._steering_queue[0])  # as when the front steer's message_end goes by
    t.expect([len(queue) for queue in queues], [len(said) + crowd, len(said) + crowd + 1],
             f"_delivered told that the front steer is on the record while {len(said) + crowd + 1} "
             "messages wait in each queue: however many wait, the message recorded leaves its "
             "queue, and only it (\"A message leaves its queue once it is itself on the "
             "record\", Build item 2). The items are the lengths of self._steering_queue and "
             "self._follow_up_queue after it (Harness._delivered, lesson 9).")
    h._steering_queue.clear()  # so a harness whose queues are not its own carries none of
    h._follow_up_queue.clear()  # these words into the next test


def emptied(handed):
    """What steer() or follow_up() handed back, used as a frontend may use it: emptied when it
    is a list or a deque, and called when it can be called (an "unsend" it was handed, say):
    were it a way into a queue of the harness's, its words would be lost here, and the run
    would miss them."""
    from collections import deque
    if isinstance(handed, (list, deque)):
        handed.clear()
    elif callable(handed):
        try:
            handed()
        except Exception:
            pass


def queues_reached(value, h):
    """Which of harness `h`'s two queues `value` leads to, through anything the garbage
    collector sees it hold (a live iterator's deque, a mapping proxy's dict, a function's
    closure, an object's attributes, a bound method's owner), short of `h` itself, modules and
    classes: a way into a queue from outside, which the private queues never have. A harness
    handed back, or closed over, is no way in: its queues are its own business."""
    import gc
    import sys
    import types
    queues = (h._steering_queue, h._follow_up_queue)
    modules = [m for m in list(sys.modules.values()) if m is not None]
    stops = {id(h), id(getattr(h, "__dict__", h))} | {id(m) for m in modules} | {
        id(vars(m)) for m in modules if hasattr(m, "__dict__")}
    found, seen, todo = set(), set(), [value]
    while todo and len(seen) < 20_000:
        item = todo.pop()
        if id(item) in seen or id(item) in stops or isinstance(item, (type, types.CodeType)):
            continue
        seen.add(id(item))
        for n, queue in enumerate(queues):
            if item is queue:
                found.add(n)
                break
        else:
            if not isinstance(item, (str, bytes, int, float)):
                todo += gc.get_referents(item)
    return [["self._steering_queue", "self._follow_up_queue"][n] for n in sorted(found)]


def ways_in(h):
    """The public names of harness `h`, its own attributes and its class's properties, whose
    value is one of its queues or leads to one (held in a container, a mapping proxy, an
    object's attributes, a closure: queues_reached): a way in from outside, which the private
    queues never have."""
    names = [name for name in vars(h) if not name.startswith("_")]
    names += [name for name in dir(type(h)) if not name.startswith("_")
              and isinstance(getattr(type(h), name, None), property)]
    found = []
    for name in names:
        try:
            value = getattr(h, name)
        except Exception:
            continue
        if queues_reached(value, h):
            found.append(name)
    return found


@lab_test("A steer sent while nothing runs raises nothing and joins the next prompt's turn, "
          "after the prompt: U U A; and only that harness's, not another's, nor one made "
          "after it.")
async def test_a_steer_sent_while_idle(t):
    words = t.random.choice(WORDS)
    widths = [t.random.randint(1, 2) for _ in range(t.random.randint(0, 2))]
    replies, paths = script(t, widths)
    model = lab.ScriptedModel(replies + [lab.say("Fixed, as you asked.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    handed = h.steer(words)
    reached = queues_reached(handed, h)
    emptied(handed)  # what it hands back is emptied if a list or a deque, called if it can be
    t.expect([lab.shape(h.messages), len(model.calls)], ["", 0],
             "Steering only queues: nothing is recorded and nobody is asked (Harness.steer, "
             "lesson 9).")
    t.expect(reached, [],
             "What steer() handed back, and the queues it leads to, "
             "through anything it holds (a live iterator over a queue, a function that "
             "closes over one, an object or a mapping that keeps one): none, since the "
             "queues are private (Build item 1: \"Neither hands back a way into a queue\": "
             "what it returns is never the queue itself, nor a way to one), so nothing outside "
             "the harness can read, change or empty the words waiting. "
             "Hand back nothing, or something that leads to no queue (Harness.steer, "
             "lesson 9).")
    t.expect(ways_in(h), [],
             "The harness's public attributes and properties that are one of its queues, or "
             "hold one: none, since the queues are private (Build item 1: \"Neither hands back "
             "a way into a queue ... the queues are private\"), so nothing outside the harness "
             "can reach, change or empty the words waiting. Keep them as _steering_queue and "
             "_follow_up_queue only (Harness.__init__, lesson 9).")
    await lab.drive(h.prompt("Fix the login page."))
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             [" ".join(["U U", rounds(widths), "A"]).replace("  ", " "),
              ["Fix the login page.", words]],
             "Steering waiting when a run begins enters in the prompt's turn, after the prompt, "
             "and nowhere else; and what steer() handed back, emptied at once if it was a list "
             "or a deque and called if it could be called, is no way into a queue, since the "
             "queues are private (Build item 1), so its words still arrive (run_agent, "
             "lesson 9).")
    t.expect(lab.shape(model.calls[0].messages), "U U",
             "The first request carries both (run_agent, lesson 9).")
    # two tabs with a model each, two tabs of one model, then two tabs that resume one saved
    # session, each made from the very same list of its messages
    saved = [harness.user_message("Where is the login page?"), lab.say("In src/app.py.")]
    for shared in ("", " over one and the same model", " made from one saved session's list"):
        models = [lab.ScriptedModel([lab.say("Done."), lab.say("Done.")]) for _ in range(2)]
        mine, other = (harness.Harness(models[0 if "model" in shared else n], SYSTEM,
                                       [looker()], messages=saved if "saved" in shared else ())
                       for n in range(2))
        mine.steer(words)
        await lab.drive(other.prompt("Another tab's question."))
        await lab.drive(mine.prompt("Fix the login page."))
        before = user_words(saved) if "saved" in shared else []
        t.expect([user_words(other.messages), user_words(mine.messages)],
                 [before + ["Another tab's question."], before + ["Fix the login page.", words]],
                 "Two harnesses" + shared + ", a "
                 "steer sent to the first, then a run of the second and a run of the first: "
                 "each harness keeps queues of its own, made in its __init__, whatever it "
                 "shares with another, so the steer reaches only the harness it was sent to. "
                 "The items are each record's user messages (Harness, lesson 9).")
    # two tabs at once: the other tab's whole run goes by while this one's first turn is open,
    # its steer handed over and not yet recorded
    models = [lab.ScriptedModel([lab.say("Done."), lab.say("Done.")]) for _ in range(2)]
    mine, other = (harness.Harness(model, SYSTEM, [looker()]) for model in models)
    theirs = t.random.choice([w for w in WORDS if w != words])
    mine.steer(words)
    other.steer(theirs)

    def meanwhile(event):
        if event["type"] == "turn_start" and not other.messages:
            return lab.drive(other.prompt("Another tab's question."))
    await lab.drive(mine.prompt("Fix the login page."), on_event=meanwhile)
    t.expect([user_words(other.messages), lab.shape(mine.messages), user_words(mine.messages)],
             [["Another tab's question.", theirs], "U U A", ["Fix the login page.", words]],
             "Two harnesses, a steer sent to each while idle, and the second's whole run at "
             "the first one's first turn_start, between its ask and the recording of its "
             "steer: what one harness handed over and recorded is only that harness's "
             "business, and a message leaves its queue once it is itself on the record (Build "
             "item 2), whatever another harness did meanwhile, so the first run records its "
             "steer once. The items are [the second's user messages, the first's record, its "
             "user messages] (Harness._drain and _delivered, lesson 9).")
    firsts, models = [], [lab.ScriptedModel([lab.say("Done.")]) for _ in range(6)]
    for n in range(6):  # tabs opened and closed in turn, each left with a steer queued
        tab = harness.Harness(models[n], SYSTEM, [looker()])
        await lab.drive(tab.prompt(f"Question of tab {n}."))
        firsts.append(user_words(tab.messages))
        tab.steer(f"A steer left in tab {n}.")
        del tab  # closed: nobody holds it any more
    t.expect(firsts, [[f"Question of tab {n}."] for n in range(6)],
             "Six harnesses made one after another, each dropped with a steer still queued: a "
             "harness's queues are its own, made in its __init__ and gone with it, so no new "
             "harness starts with a steer sent to one before it. The items are each one's user "
             "messages after its run (Harness, lesson 9).")
    # words that wait years by the clock (and by datetime): no age is too old to deliver
    years = t.random.randint(40, 90)
    model = lab.ScriptedModel([lab.say("Done."), lab.say("Done too.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    late = t.random.sample(WORDS, 2)
    h.steer(late[0])
    h.follow_up(late[1])
    with hours_pass(years * 525_960, dates=True):  # each reading of a clock years on
        await lab.drive(h.prompt("Where were we?"))
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             ["U U A U A", ["Where were we?"] + late],
             f"A steer and a follow-up sent while idle, and the next prompt {years} years later "
             "by every clock the harness may read (time.time, time.monotonic, datetime): the "
             "words wait as user messages until they are on the record, however long that "
             "takes, and the loop is handed \"the oldest waiting\" (Build items 1 and 2), "
             "never nothing because it waited long: a harness drops nothing the user said. The "
             "items are [the record, its user messages] (Harness._drain, lesson 9).")


# What a person may type: nothing, spaces, a line break, a key held down (a line of two thousand
# spaces), words with spaces at their ends, line breaks as Windows (\r\n) and old Macs (\r)
# write them.
BLANK = ["", " ", "   ", "\n", " " * 2000 + "\n"]
EDGED = ["  Keep it short.", "Use the new API.\n", " Only the tests matter. ",
         "Keep it short.\r\nNo new files.", "Skip the docs.\r"]
# What a paste or another program brings: a tab, a ligature, full-width digits and an accent
# written as two code points, a terminal's colour codes and its bell, lines with spaces at their
# ends, a file's byte-order mark and a NUL character, and characters nobody sees (a no-break
# space, a zero-width space, the joiner inside an emoji, a soft hyphen, a right-to-left mark, a
# word joiner).
RAW = ["Keep\tit short.", "Read the \ufb01le \uff12, the cafe\u0301 one.",
       "\x1b[31mFAILED\x1b[0m tests/test_app.py\x07", "line 1  \nline 2\t\nline 3 \n",
       "\ufeffname,size\nbuild\x00,12\n",
       "No\u00a0new files\u200b, the \U0001F469\u200d\U0001F4BB one, re\u00adtry \u200fok\u2060."]
# A pasted log of over four million characters: far past lesson 6's budget for a tool result,
# in bytes and in lines.
# What a terminal's bytes that are not UTF-8 become in Python (a lone surrogate each, as
# os.fsdecode and surrogateescape make them), and a paste cut inside an emoji: still the user's
# text, a str, and kept as given.
UNDECODED = ["build \udcff\udcfe failed", "the \ud83d", "\udc80", "half \ude00 a face"]
PASTED = "".join(f"line {n}: ok, nothing to see here\n" for n in range(1, 120001))


@lab_test("A steer and a follow-up go in word for word, a blank one too, any line break, a "
          "tab, a colour code, any Unicode, a pasted log of a megabyte, and both with the same "
          "words: each is the user's, and the harness drops or trims nothing the user said.")
async def test_the_words_go_in_as_they_were_given(t):
    found, wanted = [], []
    for kinds in (BLANK, EDGED, RAW):
        # every text of the kind, as a steer and as a follow-up, in a drawn order
        steers = t.random.sample(kinds, len(kinds))
        for steer, follow in zip(steers, steers[1:] + steers[:1]):
            model = lab.ScriptedModel([lab.say("First answer."), lab.say("Second answer.")])
            h = harness.Harness(model, SYSTEM, [looker()])
            h.steer(steer)
            h.follow_up(follow)
            await lab.drive(h.prompt("Fix the login page."))
            found.append([lab.shape(h.messages), user_words(h.messages)])
            wanted.append(["U U A U A", ["Fix the login page.", steer, follow]])
    t.expect(found, wanted,
             "steer(text) and follow_up(text) queue the text as it was given: a blank one is "
             "still the user's, and spaces at its ends are part of it, a line break too, "
             "written \\n, \\r\\n or \\r. Each item is [the record, its user messages] for a "
             "steer and a follow-up sent while idle, first blank ones, then ones with spaces at "
             "their ends or line breaks, then ones with a tab, a ligature, full-width digits, "
             "an accent written as two code points, a terminal's colour codes and its bell, "
             "lines ending in spaces, or a byte-order mark and a NUL character, or characters "
             "nobody sees (a no-break space, a zero-width space, an emoji's joiner, a soft "
             "hyphen, a right-to-left mark, a word joiner): nothing is expanded, normalised, stripped or tidied, word "
             "for word as Build item 1 says (Harness.steer and Harness.follow_up, lesson 9).")
    same = t.random.choice(WORDS)
    for prompt in ("Fix the login page.", same):
        model = lab.ScriptedModel([lab.say("First answer."), lab.say("Second answer.")])
        h = harness.Harness(model, SYSTEM, [looker()])
        h.steer(same)
        h.follow_up(same)
        await lab.drive(h.prompt(prompt))
        t.expect([lab.shape(h.messages), user_words(h.messages)],
                 ["U U A U A", [prompt, same, same]],
                 "A steer and a follow-up with the same words, sent while idle, then a prompt"
                 + (" with those words too" if prompt == same else "") + ": each is a message of "
                 "its own, and a harness drops nothing the user said; a message leaves its "
                 "queue only once it is on the record, itself and not one that looks like it, "
                 "in either queue (Build item 2). The items are [the record, its user "
                 "messages] (Harness.steer, Harness.follow_up and _delivered, lesson 9).")
    # a long prompt, answered; then, while idle, a steer of its very words and a prompt
    long = " ".join(t.random.sample(WORDS, len(WORDS)))
    model = lab.ScriptedModel([lab.say("First answer."), lab.say("Second answer.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    await lab.drive(h.prompt(long))
    h.steer(long)
    await lab.drive(h.prompt("Go on."))
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             ["U A U U A", [long, "Go on.", long]],
             f"A prompt of {len(long)} characters, answered; then, while idle, a steer of the "
             "very same words, the newest user message on the record, and the prompt \"Go "
             "on.\": the steer is the user's again, however long, and a harness drops nothing "
             "the user said, not even words already on the record (Build item 1). The items "
             "are [the record, its user messages] (Harness.steer, lesson 9).")
    # a follow-up handed over; before it is recorded the user steers its very words, then others
    other = t.random.choice([w for w in WORDS if w != same])
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Noted."))])
    h = harness.Harness(model, SYSTEM, [looker()])
    h.follow_up(same)
    starts = []

    def steer_at_the_follow_up(event):
        if event["type"] == "turn_start":
            starts.append(event)
            if len(starts) == 2:  # the follow-up's turn: handed over, not yet recorded
                h.steer(same)
                h.steer(other)
    await lab.drive(h.prompt("Fix the login page."), on_event=steer_at_the_follow_up)
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             ["U A U A U A U A", ["Fix the login page.", same, same, other]],
             "A follow-up sent while idle; at the turn_start it opens, before it is recorded, "
             "a steer of the same words, then another steer. The follow-up's message_end takes "
             "only the follow-up off its queue: a steer that says the same words is still "
             "another message (Build item 2), so it waits, and comes before the steer sent "
             "after it. The items are [the record, its user messages] (_delivered, lesson 9).")
    model = lab.ScriptedModel([lab.say("First answer."), lab.say("Second answer.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    h.steer(PASTED)
    h.follow_up(PASTED)
    await lab.drive(h.prompt("Why does it fail?"))
    t.expect([[len(words), words == PASTED] for words in user_words(h.messages)[1:]],
             [[len(PASTED), True], [len(PASTED), True]],
             f"A pasted log of {len(PASTED)} characters in {PASTED.count(chr(10))} lines, "
             "sent as a steer and as a follow-up: word for word, the harness drops or trims "
             "nothing the user said, however long (lesson 6's budget is for tool results, not "
             "for the user). Each item is [the length recorded, whether it is the text as "
             "given] (Harness.steer and Harness.follow_up, lesson 9).")
    # every kind of text again, sent while a run is going, from inside its tool call, with a
    # paste of three thousand lines
    paste = PASTED[:PASTED.index("line 3001:")]
    kinds = BLANK + EDGED + RAW + UNDECODED
    texts = t.random.sample(kinds, len(kinds)) + [paste]

    def during(path):
        for text in texts:
            h.steer(text)
            h.follow_up(text)
    model = lab.ScriptedModel([looks(t.random.choice(FILES)),
                               lab.forever(lambda request: lab.say("Noted."))])
    h = harness.Harness(model, SYSTEM, [looker(during)])
    await lab.drive(h.prompt("Read the file."))
    recorded = user_words(h.messages)[1:]
    t.expect([len(recorded)] + [[len(words), words == sent]
                                for words, sent in zip(recorded, texts + texts)],
             [2 * len(texts)] + [[len(sent), True] for sent in texts + texts],
             f"{len(texts)} texts sent as steers and as follow-ups while a run is going, from "
             "inside its tool call: blank ones, ones with spaces at their ends or line breaks, "
             f"tabs, colour codes and the rest, bytes a terminal could not decode (lone "
             "surrogates, as Python's surrogateescape makes them, or half an emoji), and a "
             f"paste of {paste.count(chr(10))} lines. "
             "Build item 1 holds \"running or idle\": word for word, a blank one waits like any "
             "other, and nothing is trimmed, tidied or cut to lesson 6's budget because a run "
             "is going, nor encoded and decoded again. The first item is how many user messages follow the prompt; each "
             "other is [the length recorded, whether it is the text as sent], the steers "
             "then the follow-ups (Harness.steer and Harness.follow_up, lesson 9).")


@lab_test("A follow-up sent while nothing runs waits for the next run, and is taken up after "
          "that run's answer.")
async def test_a_follow_up_sent_while_idle(t):
    words = t.random.choice(WORDS)
    widths = [t.random.randint(1, 2) for _ in range(t.random.randint(0, 2))]
    replies, paths = script(t, widths)
    model = lab.ScriptedModel(replies + [lab.say("The login page is fixed."),
                                         lab.say("Done, as asked.")])
    h = harness.Harness(model, SYSTEM, [looker()])
    handed = h.follow_up(words)
    reached = queues_reached(handed, h)
    emptied(handed)  # what it hands back is emptied if a list or a deque, called if it can be
    t.expect(reached, [],
             "What follow_up() handed back, and the queues it leads "
             "to, through anything it holds (a live iterator over a queue, a function that "
             "closes over one, an object or a mapping that keeps one): none, since the "
             "queues are private (Build item 1: \"Neither hands back a way into a queue\": "
             "what it returns is never the queue itself, nor a way to one) "
             "(Harness.follow_up, lesson 9).")
    t.expect(lab.shape(h.messages), "", "Queuing a follow-up records nothing (Harness.follow_up, "
                                        "lesson 9).")
    events = await lab.drive(h.prompt("Fix the login page."))
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             [" ".join(["U", rounds(widths), "A U A"]).replace("  ", " "),
              ["Fix the login page.", words]],
             "A follow-up is asked for only when the run would end, so it comes after the "
             "prompt's answer; and what follow_up() handed back, emptied at once if it was a "
             "list or a deque and called if it could be called, is no way into a queue, since "
             "the queues are private (Build item 1) (run_agent, lesson 9).")
    t.expect([e["type"] for e in events].count("agent_end"), 1, "All in one run (lesson 9).")


@lab_test("A follow-up queued during a run whose last reply fails, and a steer sent at that "
          "failed turn's turn_end, are not lost: that run ends at the failure, and the next run "
          "takes the steer up after its prompt and the follow-up after its own answer.")
async def test_a_follow_up_outlives_a_failed_run(t):
    widths = [t.random.randint(1, 2) for _ in range(t.random.randint(1, 3))]
    sent_at = t.random.randrange(sum(widths))
    words = t.random.choice(WORDS)
    replies, paths = script(t, widths)
    ran = []

    def during(path):
        if len(ran) == sent_at:
            h.follow_up(words)
        ran.append(path)
    steer = t.random.choice([w for w in WORDS if w != words])

    def at_the_failure(event):  # the user steers once the failed reply's turn is over
        if event["type"] == "turn_end" and event["message"]["stop_reason"] == "error":
            h.steer(steer)
    model = lab.ScriptedModel(replies + [lab.fail("overloaded"), lab.say("Back again."),
                                         lab.say("Done, as asked."), lab.fail("overloaded"),
                                         lab.say("Here now."), lab.say("That too.")])
    h = harness.Harness(model, SYSTEM, [looker(during)])
    await lab.drive(h.prompt("Read the files."), on_event=at_the_failure)
    t.expect([lab.shape(h.messages), len(model.calls)],
             ["U " + rounds(widths) + " A(error)", len(widths) + 1],
             "Nobody is asked for more after a failed reply: the run ends there (run_agent, "
             "lessons 5 and 9).")
    await lab.drive(h.prompt("Try again."))
    t.expect(lab.shape(h.messages), "U " + rounds(widths) + " A(error) U U A U A",
             "Each queue outlives the run, however it ended: the next run takes the steer sent "
             "at the failed turn's turn_end right after its prompt, answers both, then the "
             "follow-up (Harness.steer and Harness.follow_up, lesson 9).")
    t.expect(user_words(h.messages), ["Read the files.", "Try again.", steer, words],
             "The steer and the follow-up are delivered once each, after the new prompt; "
             "nothing queued is cleared because a run failed (lesson 9).")
    # a follow-up queued between runs, then a run whose first reply fails, then a run that is
    # answered: the follow-up waits for the run after the failure
    later = t.random.choice([w for w in WORDS if w not in (words, steer)])
    h.follow_up(later)
    await lab.drive(h.prompt("One more thing."))
    failed_at = lab.shape(h.messages)
    await lab.drive(h.prompt("And again."))
    t.expect([failed_at, lab.shape(h.messages), user_words(h.messages)[-3:]],
             ["U " + rounds(widths) + " A(error) U U A U A U A(error)",
              "U " + rounds(widths) + " A(error) U U A U A U A(error) U A U A",
              ["One more thing.", "And again.", later]],
             "A follow-up queued while nothing runs, then a run whose first reply fails, then "
             "another run: get_follow_ups is called \"never after a failed reply\" (Build item "
             "4), the run's first reply as much as its last, whatever came before, so the "
             "follow-up waits for the next run and is answered after that run's own answer. "
             "The items are [the record after the failed run, the record after the next, the "
             "last three user messages] (run_agent, lesson 9).")


@lab_test("A steer the loop has asked for but not yet recorded survives a run closed in "
          "between: the consumer closes the run at the turn_start after the steer was asked "
          "for, and the next run delivers the steer right after its prompt. A steer the run "
          "recorded is not delivered again, even if the run is closed at its message_end; "
          "and a steer with the prompt's own words is not taken off its queue by the prompt.")
async def test_a_steer_survives_a_run_closed_before_it_is_recorded(t):
    count = t.random.randint(1, 4)  # rounds of one call each; the steer comes in the last
    words, again = t.random.choice(WORDS), t.random.choice(["Where were we?", "Go on.",
                                                            "Carry on, please."])
    replies, paths = script(t, [1] * count)
    ran = []

    def during(path):
        ran.append(path)
        if len(ran) == count:
            h.steer(words)
    model = lab.ScriptedModel(replies + [lab.forever(lambda request: lab.say("Noted."))])
    h = harness.Harness(model, SYSTEM, [looker(during)])
    # agent_start, turn_start, U, then per round A[c], tool_execution_start, R(c),
    # tool_execution_end, turn_end (the loop asks for steering here), turn_start: closed at
    # the last round's turn_start, before the steer's turn records it
    waiting = []

    def look(event):  # what waits in the queue given in __init__, at each turn_start
        if event["type"] == "turn_start":
            waiting.append([m["content"] for m in h._steering_queue])
    events = await lab.drive(h.prompt("Read the files."), on_event=look,
                             close_after=3 + 6 * count)
    t.expect([[e["type"] for e in events][-2:], lab.shape(h.messages)],
             [["turn_end", "turn_start"], "U " + rounds([1] * count)],
             "The run was closed at the turn_start after the steered call's turn: the steer "
             "had been asked for, and was not yet recorded (run_agent, lesson 9).")
    t.expect(waiting[-1], [words],
             "At that turn_start the steer had been handed to the loop and was not yet on the "
             "record, so it still waited in self._steering_queue: a message leaves its queue "
             "only once it is on the record, and between the asking and the recording it is in "
             "two places (Harness._drain, lesson 9).")
    await lab.drive(h.prompt(again))
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             ["U " + rounds([1] * count) + " U U A", ["Read the files.", again, words]],
             "A queued message leaves its queue only once it is on the record: the steer, "
             "handed to a run closed before recording it, must still be queued, so the next "
             "run delivers it after its prompt (Harness._drain leaves it queued; _delivered "
             "takes it off; lesson 9).")
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Noted."))])
    h = harness.Harness(model, SYSTEM, [looker()])
    h.steer(words)
    # agent_start, turn_start, the prompt's message_end, the steer's message_end: closed there
    events = await lab.drive(h.prompt("Read the files."), close_after=4)
    left = [m["content"] for m in h._steering_queue]
    await lab.drive(h.prompt(again))
    t.expect([events[-1]["type"], left, lab.shape(h.messages), user_words(h.messages)],
             ["message_end", [], "U U U A", ["Read the files.", words, again]],
             "A steer sent while idle, and the run closed at the message_end that announces the "
             "steer, then a second run. The steer left its queue at that message_end, before "
             "it was handed to the consumer, and not at some later ask: so nothing waits in "
             "self._steering_queue once the run is closed, and the second run does not deliver "
             "it twice. The items are [the last event of the first run, the words waiting in "
             "self._steering_queue after it, the record, its user messages] (_run calls "
             "_delivered before it yields the event, lesson 9).")
    # the user types the prompt's words as a steer first, and again once the run is closed
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Noted."))])
    h = harness.Harness(model, SYSTEM, [looker()])
    h.steer(words)
    # agent_start, turn_start, the prompt's message_end: closed there
    events = await lab.drive(h.prompt(words), close_after=3)
    h.steer(words)
    await lab.drive(h.prompt(again))
    t.expect([events[-1]["type"], lab.shape(h.messages), user_words(h.messages)],
             ["message_end", "U U U A U A", [words, again, words, words]],
             "A steer sent while idle with the very words of the prompt that follows, the run "
             "closed at the prompt's message_end, the same words steered again, then a second "
             "run. The prompt's message_end takes nothing off a queue: a message leaves it only "
             "once it is itself on the record, not one with the same words; and a harness "
             "drops nothing the user said, even words it has just recorded. So both steers "
             "arrive, one per turn. The items are [the last event of the first run, the "
             "record, its user messages] (Harness.steer and _delivered, lesson 9).")


@lab_test("A follow-up the loop has asked for but not yet recorded survives a run closed in "
          "between: the consumer closes the run at the turn_start the follow-up opened, and the "
          "next run answers it after its own answer.")
async def test_a_follow_up_survives_a_run_closed_before_it_is_recorded(t):
    count = t.random.randint(0, 3)  # rounds of one call each before the answer
    words, again = t.random.choice(WORDS), t.random.choice(["Where were we?", "Go on.",
                                                            "Carry on, please."])
    replies, paths = script(t, [1] * count)
    model = lab.ScriptedModel(replies + [lab.forever(lambda request: lab.say("Noted."))])
    h = harness.Harness(model, SYSTEM, [looker()])
    h.follow_up(words)
    # agent_start, turn_start, U, then per round A[c], tool_execution_start, R(c),
    # tool_execution_end, turn_end, turn_start; then A, turn_end (the loop asks for follow-ups
    # here), turn_start: closed there, before the follow-up's turn records it
    events = await lab.drive(h.prompt("Read the files."), close_after=3 + 6 * count + 3)
    t.expect([[e["type"] for e in events][-2:], lab.shape(h.messages)],
             [["turn_end", "turn_start"], " ".join(["U", rounds([1] * count), "A"])
              .replace("  ", " ")],
             "The run was closed at the turn_start after its answer: the follow-up had been "
             "asked for, and was not yet recorded (run_agent, lesson 9).")
    await lab.drive(h.prompt(again))
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             [" ".join(["U", rounds([1] * count), "A U A U A"]).replace("  ", " "),
              ["Read the files.", again, words]],
             "A queued message leaves its queue only once it is on the record, a follow-up as "
             "much as a steer: handed to a run closed before recording it, it must still be "
             "queued, so the next run answers it after its own answer (Harness._drain leaves it "
             "queued; _delivered takes it off; lesson 9).")


@lab_test("Queues outlive runs: a steer and a follow-up sent at agent_end of a run that ended "
          "well wait for the next run, which takes both up; a follow-up queued before a run whose "
          "model raised waits too, whatever it raised, and a follow-up and a steer left by a run "
          "that max_turns stopped; a prompt refused meanwhile clears nothing.")
async def test_words_sent_at_agent_end_wait_for_the_next_run(t):
    widths = [t.random.randint(1, 2) for _ in range(t.random.randint(0, 2))]
    steer, follow = t.random.sample(WORDS, 2)
    replies, paths = script(t, widths)
    model = lab.ScriptedModel(replies + [lab.forever(lambda request: lab.say("Noted."))])
    h = harness.Harness(model, SYSTEM, [looker()])

    refused = []

    def on_event(event):
        if event["type"] == "agent_end":
            h.steer(steer)
            h.follow_up(follow)
            try:  # the user starts over while the run is still going: refused
                h.prompt("Start over.")
            except RuntimeError:
                refused.append(event["type"])
    await lab.drive(h.prompt("Read the files."), on_event=on_event)
    first = " ".join(["U", rounds(widths), "A"]).replace("  ", " ")
    await lab.drive(h.prompt("Go on."))
    t.expect([refused, lab.shape(h.messages), user_words(h.messages)],
             [["agent_end"], first + " U U A U A", ["Read the files.", "Go on.", steer, follow]],
             "The user typed a steer and a follow-up at agent_end, after the run's last ask, "
             "then a prompt, which was refused since the run was still going. Queues belong to "
             "the harness and outlive the run, however it ended, and a refused prompt clears "
             "nothing: the next run takes the steer after its prompt and the follow-up after "
             "its answer. The items are [the events at which a prompt was refused, the record, "
             "its user messages] (Harness, lesson 9).")

    for error in (ConnectionError("the network is down"), TimeoutError("the model took too long"),
                  RuntimeError("a bug in the model's client"), PowerCut("the power went")):
        down = []

        def once_down(request):  # the first request raises; every later one is answered
            if not down:
                down.append(request)
                raise error
            return lab.say("Noted.")
        model = lab.ScriptedModel([lab.forever(once_down)])
        h = harness.Harness(model, SYSTEM, [looker()])
        h.follow_up(follow)
        try:
            await lab.drive(h.prompt("Read the files."))
        except (Exception, PowerCut):  # the run died of it; what it recorded is lesson 8's
            pass  # business
        await lab.drive(h.prompt("Go on."))
        t.expect(user_words(h.messages)[-2:], ["Go on.", follow],
                 f"A follow-up queued, then a run whose model raised {type(error).__name__}, "
                 "then a run with a model that answers: the queues outlive the run, however it "
                 "ended, and nothing clears them when a run dies, of whatever exception, one "
                 "that is not an Exception too (a BaseException, as the power going or Ctrl-C), "
                 "so the next run answers the follow-up after its prompt. The items are the last two "
                 "user messages (Harness, lesson 9).")
    stopped = []

    def during(path):
        if not stopped:
            stopped.append(path)
            h.follow_up(follow)

    def at_the_end(event):  # the user steers once the stopped run is over
        if event["type"] == "agent_end":
            h.steer(steer)
    replies, paths = script(t, [1, 1])
    model = lab.ScriptedModel(replies + [lab.forever(lambda request: lab.say("Noted."))])
    h = harness.Harness(model, SYSTEM, [looker(during)], max_turns=2)
    await lab.drive(h.prompt("Read the files."), on_event=at_the_end)
    await lab.drive(h.prompt("Go on."))
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             ["U A[c1] R(c1) A[c2] R(c2) A(error) U U A U A",
              ["Read the files.", "Go on.", steer, follow]],
             "A follow-up queued during a run that max_turns=2 then stops, a steer sent at its "
             "agent_end, and a second run: the queues outlive a run stopped by max_turns as "
             "much as any other, steering as much as follow-ups, so the second run takes the "
             "steer after its prompt and answers the follow-up after its own answer. The "
             "items are [the record, its user messages] (Harness, lesson 9).")


@lab_test("The loop asks for steering only when every call made so far in the run has its "
          "result: when the run begins, and after the turn_end of each turn of a reply that did "
          "not fail, once the consumer has had that turn_end; the last turn max_turns allows "
          "too; once per gap when get_follow_ups is given as well; and whatever it hands over "
          "is recorded, however many messages it has handed over.")
async def test_steering_is_asked_for_only_in_the_gaps(t):
    seen, messages, events = [], [], []

    def get_steering():
        answered = {m["tool_call_id"] for m in messages if m["role"] == "toolResult"}
        asked = [c["id"] for m in messages if m["role"] == "assistant"
                 for c in harness.tool_calls(m)]
        seen.append([lab.shape(messages), [c for c in asked if c not in answered],
                     events[-1] if events else None])
        return []

    def on_event(event):
        events.append(event["type"])
    widths = [t.random.randint(1, 4) for _ in range(t.random.randint(1, 4))]
    # and one wide batch among them, as a model asks for a file at a time across a project
    widths.insert(t.random.randrange(len(widths) + 1), t.random.randint(24, 96))
    replies, paths = script(t, widths)
    model = lab.ScriptedModel(replies + [lab.say("Read them all.")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read the files.",
                                      get_steering=get_steering), on_event=on_event)
    t.expect(seen, [["", [], "agent_start"]]
             + [["U " + rounds(widths[:n]), [], "turn_end"] for n in range(1, len(widths) + 1)]
             + [["U " + rounds(widths) + " A", [], "turn_end"]],
             f"Batches of {', '.join(map(str, widths))} calls. Each row: [the record when "
             "get_steering was called, calls still without a result, the last event the "
             "consumer had been handed]. Steering is asked for at the start and after each "
             "turn_end, never between a call and its result, however wide the batch, and not "
             "before turn_end is handed over: words the consumer sends at turn_end belong to "
             "that gap (run_agent, lesson 9).")
    before = [t.random.randint(1, 2) for _ in range(t.random.randint(0, 2))]
    replies, paths = script(t, before)
    model, messages, seen[:], events[:] = lab.ScriptedModel(
        replies + [lab.fail("overloaded", lab.call("look", {"path": t.random.choice(FILES)}))]), [], [], []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read the files.",
                                      get_steering=get_steering), on_event=on_event)
    t.expect(seen, [["", [], "agent_start"]]
             + [["U " + rounds(before[:n]), [], "turn_end"] for n in range(1, len(before) + 1)],
             "After a failed reply nobody is asked, not even with a call in it left unanswered; "
             "each row is [the record when get_steering was called, calls without a result, "
             "the last event the consumer had been handed] (run_agent, lessons 5 and 9).")
    replies, paths = script(t, widths)
    model, messages, seen[:], events[:] = lab.ScriptedModel(replies), [], [], []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read the files.",
                                      max_turns=len(widths), get_steering=get_steering),
                    on_event=on_event)
    t.expect([seen, lab.shape(messages)],
             [[["", [], "agent_start"]]
              + [["U " + rounds(widths[:n]), [], "turn_end"] for n in range(1, len(widths) + 1)],
              "U " + rounds(widths) + " A(error)"],
             f"With max_turns={len(widths)} and {len(widths)} replies that ask for calls: "
             "steering is asked for after the turn_end of every turn whose reply did not fail, "
             "the last one too, though no model call is left; the run then stops with a failed "
             "reply. Items: the rows as above, the record (run_agent, lessons 8 and 9).")
    asks, owner = [], [harness.user_message(w) for w in t.random.sample(WORDS, 2)]

    def get_steering_two():  # an owner that hands over everything it holds at its first ask
        asks.append(["get_steering", lab.shape(messages)])
        given, owner[:] = owner[:], []
        return given

    def get_follow_ups():
        asks.append(["get_follow_ups", lab.shape(messages)])
        return []
    widths = [t.random.randint(1, 3) for _ in range(t.random.randint(0, 2))]
    replies, paths = script(t, widths)
    model, messages = lab.ScriptedModel(replies + [lab.say("Both noted.")]), []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read the files.",
                                      get_steering=get_steering_two,
                                      get_follow_ups=get_follow_ups))
    body = " ".join(["U U U", rounds(widths), "A"]).replace("  ", " ")
    t.expect([asks, lab.shape(messages)],
             [[["get_steering", ""]]
              + [["get_steering", "U U U " + rounds(widths[:n])]
                 for n in range(1, len(widths) + 1)]
              + [["get_steering", body], ["get_follow_ups", body]],
             body],
             "run_agent handed both callables, and a get_steering of the test's own that hands "
             "over two messages at its first ask: whoever owns the queue decides what a call "
             "hands over, and whatever is in pending at the top of a turn is recorded there, "
             "both. get_steering is called once when the run begins and once after each "
             "turn_end, and at no other moment: not again before get_follow_ups. Items: each "
             "ask as [the callable, the record then], the record (run_agent, lesson 9).")
    # an owner that hands over a crowd at the first turn_end, then one message per ask; the
    # crowd says some words more than once, each time another message
    rounds_of = t.random.randint(3, 9)
    crowd = [harness.user_message(f"Point {n % rounds_of}.")
             for n in range(t.random.randint(8_000, 10_000))]
    later = t.random.sample(WORDS, 2)
    then, asked, messages = [harness.user_message(w) for w in later], [], []

    def get_steering_crowd():
        asked.append(len(messages))
        if len(asked) == 2:
            return crowd
        return [then.pop(0)] if len(asked) > 2 and then else []
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Noted."))])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read the files.",
                                      get_steering=get_steering_crowd))
    t.expect([len(asked), len(model.calls), user_words(messages)[-2:]], [5, 4, later],
             f"A get_steering of the test's own that hands over {len(crowd)} messages at "
             "its ask after the first turn_end, then one message at each later ask: steering "
             "is asked for after the turn_end of every turn whose reply did not fail (Build "
             "item 3), however many messages it has handed over, so the two after the crowd "
             "get a turn each; and whatever is in pending at the top of a turn is recorded "
             "there, the whole crowd in one turn. Items: the asks, the model calls, the last "
             "two user messages (run_agent, lesson 9).")
    t.expect([user_words(messages) == ["Read the files."] + [m["content"] for m in crowd]
              + later, lab.shape(model.calls[1].messages).count("U")],
             [True, 1 + len(crowd)],
             f"The same run: whoever owns the queue decides what a call hands over, and "
             f"whatever is in pending at the top of a turn is recorded there (Build), so all "
             f"{len(crowd)} messages of the crowd are on the record, in the order handed over, "
             "the same words again as often as they were handed over, all of them in the turn "
             "they were handed over for: the loop cuts, drops and reorders nothing, and splits "
             "nothing across turns. The items: whether the user messages are the prompt, the "
             "crowd, the two after it; the user messages in the request of the turn after the "
             "crowd was handed over (run_agent, lesson 9).")


@lab_test("The loop asks for follow-ups only when the run would end, once the consumer has had "
          "that turn_end: never after a turn whose reply had calls, never after a failed reply; "
          "a follow-up's turns count toward max_turns, however many it has handed over; and "
          "what get_steering or get_follow_ups raises comes out of the run as it was raised.")
async def test_follow_ups_are_asked_for_only_at_the_end(t):
    first = [t.random.randint(1, 3) for _ in range(t.random.randint(1, 3))]
    then = [t.random.randint(1, 3) for _ in range(t.random.randint(0, 2))]
    words = t.random.choice(WORDS)
    seen, messages, queue, events = [], [], [harness.user_message(words)], []

    def get_follow_ups():
        seen.append([lab.shape(messages), events[-1] if events else None])
        return [queue.pop()] if queue else []

    def on_event(event):
        events.append(event["type"])
    replies, paths = script(t, first + then)
    model = lab.ScriptedModel(replies[:len(first)] + [lab.say("All read.")] +
                              replies[len(first):] + [lab.say("Those too.")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read the files.",
                                      get_follow_ups=get_follow_ups), on_event=on_event)
    before = "U " + rounds(first) + " A"
    after = " ".join(["U", batch_after(first, then), "A"]).replace("  ", " ")
    t.expect(seen, [[before, "turn_end"], [before + " " + after, "turn_end"]],
             "Each entry is [the record when get_follow_ups was called, the last event the "
             "consumer had been handed]: only after a reply with no calls, once per time the "
             "run would end, and not before that turn's turn_end is handed over: words the "
             "consumer sends at turn_end belong to that gap (run_agent, lesson 9).")
    t.expect(lab.shape(messages), before + " " + after,
             "The follow-up's turn runs its calls like any other (run_agent, lesson 9).")
    replies, paths = script(t, first)
    seen[:], messages, queue[:] = [], [], [harness.user_message(words)]
    model = lab.ScriptedModel(replies + [lab.fail("overloaded")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read the files.",
                                      get_follow_ups=get_follow_ups))
    t.expect([seen, lab.shape(messages)], [[], "U " + rounds(first) + " A(error)"],
             "A run whose last reply failed: never after a failed reply, so get_follow_ups is "
             "not called at all. Items: the entries as above, the record (run_agent, lessons 5 "
             "and 9).")
    limit = t.random.randint(1, 3)
    seen[:], messages = [], []
    queue[:] = [harness.user_message(f"And then step {n}.") for n in range(limit + 1, 0, -1)]
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Done."))])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Start.",
                                      max_turns=limit, get_follow_ups=get_follow_ups))
    t.expect([len(model.calls), lab.shape(messages)],
             [limit, "U A" * 1 + " U A" * (limit - 1) + " U A(error)"],
             f"max_turns={limit} and {limit + 1} follow-ups waiting: a follow-up is answered in "
             "the same run, so its turns count toward the run's max_turns model calls like any "
             "other; nothing starts the count again. Items: the model calls made, the record "
             "(run_agent, lessons 8 and 9).")
    # an owner that hands over a crowd at its first ask, then one message per ask; the crowd
    # says some words more than once, each time another message
    rounds_of = t.random.randint(3, 9)
    crowd = [harness.user_message(f"Then point {n % rounds_of}.")
             for n in range(t.random.randint(8_000, 10_000))]
    later = t.random.sample(WORDS, 2)
    then, asked, messages = [harness.user_message(w) for w in later], [], []

    def get_follow_ups_crowd():
        asked.append(len(messages))
        if len(asked) == 1:
            return crowd
        return [then.pop(0)] if then else []
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Done."))])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Start.",
                                      get_follow_ups=get_follow_ups_crowd))
    t.expect([len(asked), len(model.calls), user_words(messages)[-2:]], [4, 4, later],
             f"A get_follow_ups of the test's own that hands over {len(crowd)} messages at "
             "its first ask, then one message at each later ask: the loop asks for follow-ups "
             "each time the run would otherwise end (Build item 4), however many it has handed "
             "over, so the two after the crowd are answered in the same run. Items: the asks, "
             "the model calls, the last two user messages (run_agent, lesson 9).")
    t.expect(user_words(messages) == ["Start."] + [m["content"] for m in crowd] + later, True,
             f"The same run: whatever is in pending at the top of a turn is recorded there "
             f"(Build), however many it has handed over, so all {len(crowd)} follow-ups of the "
             "crowd are on the record, in the order handed over, the same words again as often "
             "as they were handed over: the loop cuts, drops and reorders nothing. The item: "
             "the user messages are the prompt, the crowd, the two after it (run_agent, "
             "lesson 9).")
    # callables that raise: at the run's start, after a turn of calls, where the run would end
    # every kind, each at one of the three places, drawn: a loop that swallows one kind (an
    # IndexError from an empty deque, say) swallows it at every place
    kinds = t.random.sample(RAISES, len(RAISES))
    widths = [t.random.randint(1, 3) for _ in range(t.random.randint(1, 3))]
    after = t.random.randint(1, len(widths))  # the steering ask that raises, after that turn
    found = []
    for at, (kind, words) in enumerate(kinds):
        error, messages, asks, case = kind(words), [], [], at % 3

        def get_steering():
            asks.append("get_steering")
            if case == 0 or (case == 1 and len(asks) == after + 1):
                raise error
            return []

        def get_follow_ups():
            asks.append("get_follow_ups")
            if case == 2:
                raise error
            return []
        replies, paths = script(t, widths)
        model = lab.ScriptedModel(replies + [lab.say("Read them."), lab.say("And more.")])
        seen = []
        try:
            await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read them.",
                                              get_steering=get_steering,
                                              get_follow_ups=get_follow_ups),
                            on_event=lambda event: seen.append(event["type"]))
            came = None
        except Exception as exc:
            came = [f"{type(exc).__name__}: {exc}", exc is error]
        found.append([came, lab.shape(messages), len(model.calls), seen[-1:]])
    places = ["U " + rounds(widths[:after]) if at % 3 == 1 else
              "U " + rounds(widths) + " A" if at % 3 == 2 else "" for at in range(len(kinds))]
    t.expect(found, [[[f"{kind.__name__}: {kind(words)}", True], shape,
                      [0, after, len(widths) + 1][at % 3],
                      ["agent_start" if at % 3 == 0 else "turn_end"]]
                     for at, ((kind, words), shape) in enumerate(zip(kinds, places))],
             f"{len(kinds)} runs whose get_steering or get_follow_ups raises, one per kind of "
             "exception, in turn at three places: get_steering at the run's start, get_steering "
             f"after the turn_end of turn {after} of {len(widths) + 1}, get_follow_ups where the "
             "run would end. The kinds, in the order run: "
             + ", ".join(kind.__name__ for kind, _ in kinds) + ". Whatever either raises, "
             "whatever its kind (an IndexError, a TypeError, an AttributeError too, as a guard "
             "against an empty or missing queue would catch), comes out of the run as it was "
             "raised, as an exception from the model does: the loop never swallows it and "
             "never takes it for [], so the run goes no further, and the last event the "
             "consumer had is the one before the ask: no agent_end, as none comes before a "
             "model's exception. Each item: [what the run raised, and whether it is the very "
             "exception; the record then (lab.shape); the model calls made; the last event "
             "handed out] (run_agent, lesson 9, Build item 4).")
    # then every kind of Exception this process has a class for (a queue.Empty, a
    # StopIteration, a kind of the frontend's own...), each raised once by get_steering as the
    # run begins and once by get_follow_ups where it would end: a loop that names a kind to
    # swallow has loaded its class, so it is among them. A kind is named only when its base
    # came out as raised, so that the names do not hang on which other classes are loaded
    def every(kind):
        yield kind
        for sub in type.__subclasses__(kind):
            yield from every(sub)
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Read."))])
    swallowed = []
    for late in (False, True):
        missed = {}
        for kind in sorted(set(every(Exception)), key=lambda k: (k.__module__, k.__qualname__)):
            try:
                error = kind.__new__(kind)
            except Exception:
                continue  # a kind that cannot be made without its own arguments
            seen = []

            def raises():
                raise error
            try:
                await lab.drive(harness.run_agent(model, SYSTEM, [], [], "Read them.",
                                                  get_steering=list if late else raises,
                                                  get_follow_ups=raises),
                                on_event=lambda event: seen.append(event["type"]))
                came = None
            except Exception as exc:
                came = exc
            as_raised = came is error or (  # a generator's own rule, and an async one's
                isinstance(error, (StopIteration, StopAsyncIteration))
                and isinstance(came, RuntimeError) and came.__cause__ is error)
            if not as_raised or "agent_end" in seen:
                missed[kind] = ((f"{type(came).__name__} came out" if came is not None
                                 else "the run ended as if it were []")
                                + (", after an agent_end" if "agent_end" in seen
                                   and came is not None else ""))
        swallowed += [f"{kind.__module__}.{kind.__qualname__} raised by "
                      + ("get_follow_ups" if late else "get_steering") + ": " + what
                      for kind, what in missed.items()
                      if not any(base in missed for base in kind.__mro__[1:])]
    t.expect(swallowed, [],
             "Every kind of Exception this process has a class for, each raised once by "
             "get_steering as the run begins and once by get_follow_ups where the run would end: "
             "whatever its kind (a queue.Empty, a StopIteration too), it comes out of the run as "
             "it was raised (a StopIteration raised inside a generator, or a StopAsyncIteration "
             "inside an async one, comes out as Python makes it, a RuntimeError caused by it), "
             "and no agent_end comes before it, as none "
             "comes before a model's exception. The items are the kinds that did not, each "
             "named only where its base did (run_agent, lesson 9, Build item 4).")


def batch_after(done, widths):
    """The shape of batches of `widths` numbered after the calls of batches `done`."""
    first = sum(done) + 1
    shapes = []
    for width in widths:
        shapes.append(batch(first, width))
        first += width
    return " ".join(shapes)


@lab_test("Without get_steering and get_follow_ups, run_agent runs exactly as in lesson 8: the "
          "same record and the same events.")
async def test_without_the_callables_nothing_changes(t):
    widths = [t.random.randint(1, 3) for _ in range(t.random.randint(1, 3))]
    replies, paths = script(t, widths)
    messages = []
    model = lab.ScriptedModel(replies + [lab.say("Read them.")])
    events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read them."))
    t.expect(lab.shape(messages), "U " + rounds(widths) + " A",
             "No callables means nobody to ask (run_agent, lesson 9).")
    per_call = ["tool_execution_start", "message_end", "tool_execution_end"]
    t.expect([e["type"] for e in events],
             ["agent_start", "turn_start", "message_end"] +
             sum([["message_end"] + per_call * width + ["turn_end", "turn_start"]
                  for width in widths], []) + ["message_end", "turn_end", "agent_end"],
             "The events of a run of tools are unchanged: agent_start, then per turn turn_start, "
             "its messages, each call's tool_execution_start, result and tool_execution_end, "
             "and turn_end (run_agent, lessons 7 and 9).")
    messages = []
    model = lab.ScriptedModel([lab.say("Hello.")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [], "Hi.", get_steering=None,
                                      get_follow_ups=None))
    t.expect(lab.shape(messages), "U A", "Passing None for both is the same as leaving them out "
                                         "(run_agent, lesson 9).")


@lab_test("In a run steered again and again (from inside tools, and by the consumer between "
          "events) with a follow-up as well, every request the model gets is a valid transcript.")
async def test_every_request_of_a_steered_run_is_valid(t):
    widths = [t.random.randint(1, 4) for _ in range(t.random.randint(1, 3))]
    between = t.random.randint(0, 4)  # steers the consumer sends between events
    replies, paths = script(t, widths)
    steered = []

    def during(path):
        h.steer(f"While {path} was read.")
    model = lab.ScriptedModel(replies + [lab.forever(lambda request: lab.say("Noted."))])
    h = harness.Harness(model, SYSTEM, [looker(during)])
    h.follow_up("Finally, sum it up.")

    def on_event(event):
        if event["type"] in ("tool_execution_start", "turn_start") and len(steered) < between:
            steered.append(event["type"])
            h.steer(f"Between events ({event['type']}).")
    await lab.drive(h.prompt("Read the files."), on_event=on_event)
    t.expect([lab.validate(request.messages) for request in model.calls], [[]] * len(model.calls),
             "Every request passes lab.validate: steering never splits a call from its result "
             "(run_agent, lesson 9).")
    steers = sum(widths) + between
    tool_turns = [batch(1 + sum(widths[:n]), width) for n, width in enumerate(widths)]
    t.expect([len(model.calls), lab.shape(h.messages)],
             [1 + steers + 1, "U " + " U ".join(tool_turns + ["A"] * (steers + 1 - len(widths)))
              + " U A"],
             f"All {steers} steers and the follow-up were delivered, one per turn; the items are "
             "[requests, the record's shape] (lesson 9).")
    t.expect(user_words(h.messages)[-1], "Finally, sum it up.",
             "The follow-up comes last, once no steering is left (run_agent, lesson 9).")
    # "Clean out build/.": three wide batches of look, bash and write calls, the second call of
    # each a bash command that fails. The user steers during the first call of the first batch,
    # and again, the same words, during the first call of the second; the third runs unsteered,
    # a follow-up waiting.
    def shell(arguments):
        ran.append(arguments["command"])
        if "cache" in arguments["command"]:
            raise FileNotFoundError("build/cache: no such directory")
        return "done: " + arguments["command"]

    def wide(width):
        calls = [lab.call("look", {"path": t.random.choice(FILES)}),
                 lab.call("bash", {"command": "rm -r build/cache"})]
        for n in range(width - 2):
            name = t.random.choice(["look", "bash", "write"])
            calls.append(lab.call(name, {"path": t.random.choice(FILES)} if name != "bash"
                                  else {"command": f"rm build/{t.random.choice(FILES)}"}))
        return lab.reply(*calls)
    widths = [t.random.randint(12, 20) for _ in range(3)]
    words, ran = t.random.choice(WORDS), []

    def first_calls(path):  # every call is counted in ran, so this is the batch's first look
        ran.append(path)
        if len(ran) in (1, 1 + widths[0]):
            h.steer(words)

    def write(arguments):
        ran.append(arguments["path"])
        return "written"
    command = {"type": "object", "properties": {"command": {"type": "string"}},
               "required": ["command"]}
    tools = [looker(first_calls), tool("bash", shell, command),
             tool("write", write, PATH)]
    model = lab.ScriptedModel([wide(width) for width in widths]
                              + [lab.say("Cleaned."), lab.say("Summed up.")])
    h = harness.Harness(model, SYSTEM, tools)
    h.follow_up("Finally, sum it up.")
    await lab.drive(h.prompt("Clean out build/."))
    t.expect([[lab.validate(request.messages) for request in model.calls],
              lab.shape(h.messages), user_words(h.messages)],
             [[[]] * 5, "U " + " U ".join(batch(1 + sum(widths[:n]), width)
                                          for n, width in enumerate(widths)) + " A U A",
              ["Clean out build/.", words, words, "Finally, sum it up."]],
             f"Three batches of {', '.join(map(str, widths))} calls to look, bash and write, "
             "the second call of each a bash command that fails; the same steer sent during "
             "the first call of the first batch and of the second, and a follow-up waiting. "
             "However wide the batch, whatever its tools are called and whether a call fails, "
             "steering is asked for after turn_end \"and at no other moment\" (Build item 3), "
             "so each steer waits for its batch; words already on the record are the user's "
             "again when sent again, and wait like any other (Build item 1); and follow-ups "
             "are asked for \"never after a turn whose reply had calls\" (Build item 4), "
             "however many calls it had. The items are [what lab.validate found in each "
             "request, the record, its user messages] (run_agent and Harness.steer, lesson 9).")
