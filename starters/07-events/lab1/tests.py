"""Lesson 7, lab 1: announce, don't draw. The tests of run_agent as a generator of events: their
sequence, the rule "mutate, then announce", balance on every way out, and laziness.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 7 tests.py
"""
import collections
import contextlib
import copy
import gc
import io
import json
import os
import sys
import tempfile
import weakref
from types import BuiltinFunctionType, FunctionType, ModuleType

import harness
import lab
from lab.kit import Terminal, every_name_set, everything_said, hours_pass, lab_test, tool

LAB = "7.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
LONG = 200  # the turns of a long run
SWITCHED_ON = ["1", "true", "True", "yes", "on",  # the values a switch in the environment takes,
               "debug", "DEBUG", "verbose", "trace"]  # a log level's among them
TWELVE = ["agent_start", "turn_start", "message_end", "message_end", "tool_execution_start",
          "message_end", "tool_execution_end", "turn_end", "turn_start", "message_end",
          "turn_end", "agent_end"]


def looker(ran=None):
    def fn(arguments):
        if ran is not None:
            ran.append(arguments["path"])
        return "contents of " + arguments["path"]
    return tool("look", fn, PATH)


def breaker():
    """A tool `look` that raises on every call: the boundary makes each an error result."""
    def fn(arguments):
        raise OSError("disk on fire: " + arguments["path"])
    return tool("look", fn, PATH)


def types_within(data):
    """The sorted names of the types found anywhere in `data`, at any depth, `data`'s own too."""
    names, todo = set(), [data]
    while todo:
        item = todo.pop()
        names.add(type(item).__name__)
        todo += list(item.values()) if isinstance(item, dict) else list(item) \
            if isinstance(item, (list, tuple)) else []
    return sorted(names)


def kept_in(module, depth=4, most=50):
    """What `module` holds, as {where: what}: each name it defines (imported modules aside) and,
    `depth` levels in, the first `most` items of its lists, tuples, sets and dicts, the defaults,
    closure and attributes of its functions, the attributes of its classes and objects: each as
    its type and length, or its repr. A log kept anywhere in harness.py shows up as a change."""
    found, seen = {}, set()
    todo = [(name, value, depth) for name, value in vars(module).items()
            if not name.startswith("__")]
    while todo and len(found) < 20_000:
        where, value, left = todo.pop()
        if isinstance(value, ModuleType):
            continue
        inner = []
        if isinstance(value, (str, bytes)) and len(value) > 60:
            found[where] = (f"a {type(value).__name__} of {len(value)} characters", hash(value))
        elif isinstance(value, (str, bytes, int, float, complex, bool, type(None))):
            found[where] = (repr(value), None)
        elif id(value) in seen:
            found[where] = ("(met above)", id(value))
        elif isinstance(value, (io.StringIO, io.BytesIO)):
            found[where] = (f"a {type(value).__name__} of {len(value.getvalue())} characters",
                            hash(value.getvalue()))
        elif isinstance(value, (list, tuple, set, frozenset, dict, collections.deque)):
            found[where] = (f"a {type(value).__name__} of {len(value)} items", len(value))
            pairs = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
            inner = [(f"{where}[{key!r:.40}]", item) for key, item in pairs[:most]]
        elif isinstance(value, FunctionType) and value.__module__ == module.__name__:
            found[where] = (f"the function {value.__name__}", id(value))
            cells = zip(value.__code__.co_freevars, value.__closure__ or ())
            inner = [(f"{where}'s defaults", value.__defaults__),
                     (f"{where}'s keyword defaults", value.__kwdefaults__),
                     *[(f"{where}'s {name}", cell.cell_contents) for name, cell in cells
                       if cell.cell_contents is not value],
                     *[(f"{where}.{name}", item) for name, item in vars(value).items()]]
        elif isinstance(value, type) and value.__module__ == module.__name__:
            found[where] = (f"the class {value.__name__}", id(value))
            inner = [(f"{where}.{name}", item) for name, item in vars(value).items()
                     if name not in ("__dict__", "__weakref__", "__doc__", "__module__")]
        elif not isinstance(value, type) and callable(getattr(type(value), "cache_info", None)):
            kept = value.cache_info().currsize  # functools.cache, lru_cache: what it remembers
            found[where] = (f"a cache of {kept} items", kept)
        elif isinstance(value, (type, FunctionType, BuiltinFunctionType)):
            found[where] = (repr(value), id(value))
        else:
            found[where] = (f"a {type(value).__name__} object", id(value))
            own = type(value).__module__ == module.__name__  # another module's: its public part
            inner = [(f"{where}.{name}", item) for name, item in getattr(value, "__dict__", {}).items()
                     if own or not name.startswith("_")]
        if not isinstance(value, (str, bytes, int, float, complex, bool, type(None))):
            seen.add(id(value))
        if left > 0:
            todo += [(name, item, left - 1) for name, item in reversed(inner)]
    return found


def changes(before, after, most=3):
    """The places where two of kept_in's pictures differ, the shallowest first, in words."""
    places = sorted((where for where in before.keys() | after.keys()
                     if before.get(where) != after.get(where)), key=lambda w: (len(w), w))
    return [f"{where}: {before[where][0] if where in before else 'nothing'}, then "
            f"{after[where][0] if where in after else 'nothing'}" for where in places[:most]]


def bad_endings(t):
    """Two runs that end badly, a failed reply after a drawn round of calls and a max_turns
    stop: the (model, max_turns) of each."""
    replies, rounds, _ = drawn_job(t, most_rounds=1)
    return [(lab.ScriptedModel(replies[:1] + [lab.fail("overloaded")]), None),
            (lab.ScriptedModel(replies), 1)]


FILES = ["a.py", "b.py", "setup.py", "src/app.py", "README.md", "tests/test_app.py", "notes.txt"]


def one_call(path="a.py"):
    return lab.ScriptedModel([lab.reply(lab.call("look", {"path": path})), lab.say("Read it.")])


def drawn_job(t, most_rounds=4, widest=3):
    """A job drawn under the seed: 1 to most_rounds rounds of 1 to `widest` look calls at drawn
    paths, each reply with or without words before its calls, then an answer. Returns (the
    model's replies, the paths of each round's calls, the words of each turn's reply)."""
    rounds = [[t.random.choice(FILES) for _ in range(t.random.randint(1, widest))]
              for _ in range(t.random.randint(1, most_rounds))]
    words = [t.random.choice(["", f"Round {n}: a look."]) for n in range(1, len(rounds) + 1)]
    words.append(f"Done after {len(rounds)} rounds.")
    replies = [lab.reply(*([text] if text else []), *[lab.call("look", {"path": p}) for p in paths])
               for paths, text in zip(rounds, words)]
    return replies + [lab.say(words[-1])], rounds, words


def story(rounds):
    """The events a run yields, in what()'s words, when the model asks for the calls of `rounds`
    (their ids numbered c1, c2, ... across the run) and then answers: lesson 7's sequence."""
    events, n = ["agent_start", "turn_start", "message_end U"], 0
    for paths in rounds:
        ids = [f"c{n + i}" for i in range(1, len(paths) + 1)]
        n += len(paths)
        reply = f"A[{','.join(ids)}]"
        events.append(f"message_end {reply}")
        for id in ids:
            events += [f"tool_execution_start {id}", f"message_end R({id})",
                       f"tool_execution_end {id} R({id})"]
        events += [f"turn_end {reply}", "turn_start"]
    return events + ["message_end A", "turn_end A", "agent_end"]


def recorded(events):
    """The shape of the messages the message_end events among `events` announce."""
    return " ".join(what.split(" ", 1)[1] for what in events if what.startswith("message_end"))


def types(events):
    return [event["type"] for event in events]


def what(event):
    """An event in a few words: its type, and the shape of the message or result it carries."""
    if "message" in event:
        return f"{event['type']} {lab.shape([event['message']])}"
    if "result" in event:
        return f"{event['type']} {event['call']['id']} {lab.shape([event['result']])}"
    if "call" in event:
        return f"{event['type']} {event['call']['id']}"
    return event["type"]


@lab_test("A run with one call yields exactly twelve events: agent_start, turn_start, "
          "message_end (U), message_end (A), tool_execution_start, message_end (R), "
          "tool_execution_end, turn_end, turn_start, message_end (A), turn_end, agent_end; runs "
          "of more rounds and calls, drawn under the seed, repeat the turn's part for each.")
async def test_the_twelve_events(t):
    messages = []
    events = await lab.drive(harness.run_agent(one_call(t.random.choice(FILES)), SYSTEM, messages,
                                               [looker()], "Read a file."))
    t.expect(types(events), TWELVE,
             "run_agent yields one event per happening, in this order; nothing comes between a "
             "tool returning and its result's message_end (run_agent, lesson 7).")
    t.expect(lab.shape(messages), "U A[c1] R(c1) A", "The work is the same as in lesson 6.")
    earlier = [harness.user_message("Earlier."), lab.say("Noted.")] * t.random.randint(1, 3)
    events = await lab.drive(harness.run_agent(one_call(), SYSTEM, earlier, [looker()],
                                               "Read it."))
    t.expect(types(events), TWELVE,
             "On a record that already holds a conversation the run yields the same twelve "
             "events in the same order: the prompt's message_end comes after turn_start, at "
             "the top of the first turn, whatever the record held before (run_agent, lesson 7, "
             "Build item 2).")
    jobs = [drawn_job(t, widest=1), drawn_job(t), drawn_job(t)]  # one call a round, and more
    found = [[what(e) for e in await lab.drive(harness.run_agent(
        lab.ScriptedModel(replies), SYSTEM, [], [looker()], "Read the files."))]
        for replies, _, _ in jobs]
    t.expect(found, [story(rounds) for _, rounds, _ in jobs],
             "Each turn opens with turn_start, announces its reply, runs each call between "
             "tool_execution_start and tool_execution_end with the result's message_end in "
             "between, and closes with turn_end carrying its reply; each message_end carries the "
             "message it announces; a turn of several calls repeats the call's part, start, result "
             "and end, for each call in turn. Each item is the events of one drawn run, in a few "
             "words each (run_agent, lesson 7).")

    def look_again(request):
        done = sum(m["role"] == "toolResult" for m in request.messages)
        return lab.reply(lab.call("look", {"path": "a.py"})) if done < LONG else lab.say("Done.")
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    room = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + LONG * 3 // 4)  # a long run's room, made small enough to test
    try:
        long = await lab.drive(harness.run_agent(lab.ScriptedModel([lab.forever(look_again)]),
                                                 SYSTEM, [], [looker()], "Keep looking."))
        ended = [types(long).count("turn_end"), long[-1]["type"]]
    except RecursionError:
        ended = ["RecursionError"]
    finally:
        sys.setrecursionlimit(room)
    t.expect(ended, [LONG + 1, "agent_end"],
             f"A run of {LONG} turns of one call, then an answer, repeats a turn's part for "
             "each turn, one after another, as a loop: a turn that runs the next one inside "
             "itself (a recursion, or a yield from per turn) goes one frame deeper each turn, "
             "and a long run dies of RecursionError. Found: the turn_end events and the last "
             "event, with room for three frames in four turns (run_agent, lesson 7).")


@lab_test("Mutate, then announce: when a message_end arrives, its message is already the last "
          "message of the record.")
async def test_mutate_then_announce(t):
    messages = [harness.user_message("Earlier."), lab.say("Noted.")] * t.random.randint(0, 3)
    replies, rounds, _ = drawn_job(t)
    model = lab.ScriptedModel(replies)
    seen = []

    def look(event):
        if event["type"] == "message_end":
            seen.append([lab.shape([event["message"]]), lab.shape(messages[-1:]),
                         event["message"] == messages[-1]])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read them."),
                    on_event=look)
    t.expect(seen, [[token, token, True] for token in recorded(story(rounds)).split()],
             "A message is appended to the record before its message_end is yielded, so a "
             "consumer reading the record at that event finds it there (run_agent, lesson 7). "
             "Each row: [announced, last in the record, the same message], for a drawn run.")
    seen.clear()
    for model, limit in bad_endings(t):
        messages = []
        await lab.drive(harness.run_agent(model, SYSTEM, messages, [breaker()], "Read them.",
                                          max_turns=limit), on_event=look)
    quiet = [tool(name, lambda arguments: "", PATH) for name in ("write", "bash")]
    messages = []
    await lab.drive(harness.run_agent(lab.ScriptedModel(
        [lab.reply(lab.call("write", {"path": "a.py"}), lab.call("bash", {"path": "."})),
         lab.say("Done.")]), SYSTEM, messages, quiet, "Change them."), on_event=look)
    t.expect(seen,
             why="On every way a run goes the append comes first, then the message_end: a tool "
                 "that fails, whose error result is a message like any other, a reply that comes "
                 "back failed, and the max_turns stop, which the run makes itself; and whatever "
                 "tool ran and whatever it returned, an empty result too. Each row: "
                 "[announced, last in the record, the same message], for two runs whose tool "
                 "raises on every call, one ending in a failed reply and one stopped by "
                 "max_turns=1, then one whose reply calls write and bash, each returning \"\" "
                 "(run_agent, lesson 7, Build item 5: \"by the time the consumer "
                 "sees that event, the message is already the last item of the caller's list\").")


@lab_test("Every message a run adds is announced exactly once, in order, and agent_end carries "
          "exactly those messages, not the earlier ones.")
async def test_every_message_announced_once(t):
    earlier = t.random.randint(1, 3)  # never none, so that agent_end has earlier ones to leave out
    messages = [harness.user_message("Earlier."), lab.say("Noted.")] * earlier
    replies, rounds, _ = drawn_job(t)
    model = lab.ScriptedModel(replies)
    events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read them."))
    announced = [e["message"] for e in events if e["type"] == "message_end"]
    t.expect(lab.shape(announced), recorded(story(rounds)),
             "One message_end per new message, in the order they were recorded, for a run of "
             "drawn rounds and calls (run_agent, lesson 7).")
    t.expect([announced == messages[2 * earlier:], lab.shape(events[-1]["messages"]),
              events[-1]["messages"] == messages[2 * earlier:]],
             [True, recorded(story(rounds)), True],
             "agent_end's \"messages\" are this run's messages, the ones announced, and not the "
             "record's earlier ones; the final message is its last entry. Items: announced equal "
             "the run's messages, agent_end's messages' shape, they equal the run's messages "
             "(run_agent, lesson 7).")
    t.expect(lab.shape(messages), " ".join(["U A"] * earlier + [recorded(story(rounds))]),
             "The record keeps the earlier messages too (run_agent, lesson 7).")
    messages = []  # and a prompt with no words, recorded like any other
    events = await lab.drive(harness.run_agent(lab.ScriptedModel([lab.reply()]), SYSTEM, messages,
                                               [looker()], ""))
    announced = [e["message"] for e in events if e["type"] == "message_end"]
    t.expect([lab.shape(messages), announced == messages, events[-1]["messages"] == messages,
              types(events)],
             ["U A", True, True, TWELVE[:4] + TWELVE[-2:]],
             "A run given an empty prompt \"\" whose reply has no words and no calls and did not "
             "fail: the prompt and the reply are recorded like any others, so each is announced "
             "once by a message_end and carried by agent_end: every message "
             "the run records is announced, and its turn closes with turn_end like any other "
             "turn. Items: the record, it equals what was announced, it equals what agent_end "
             "carries, the event types (run_agent, lesson 7, Build item 4: \"Each turn opens "
             "with `turn_start` and closes with `turn_end`\").")


@lab_test("tool_execution_start and tool_execution_end carry the call; the end also carries the "
          "result that was recorded for it.")
async def test_tool_events_carry_the_call(t):
    messages = []
    replies, rounds, _ = drawn_job(t)
    model = lab.ScriptedModel(replies)
    note = harness.user_message("(the user's note, put on the record at a result's message_end)")

    def note_once(event):
        if event["type"] == "message_end" and event["message"]["role"] == "toolResult" \
                and note not in messages:
            messages.append(note)
    events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read them."),
                             on_event=note_once)
    starts = [e for e in events if e["type"] == "tool_execution_start"]
    ends = [e for e in events if e["type"] == "tool_execution_end"]
    paths = [path for paths in rounds for path in paths]
    calls = [call for m in messages if m["role"] == "assistant" for call in harness.tool_calls(m)]
    t.expect([[e["call"]["id"], e["call"]["name"], e["call"]["arguments"], e["call"] == call]
              for e, call in zip(starts, calls)],
             [[f"c{n}", "look", {"path": path}, True] for n, path in enumerate(paths, 1)],
             "tool_execution_start carries the call block about to run, the whole of it, as the "
             "reply holds it. Each item is [id, name, arguments, the same as the recorded call] "
             "of one start, for a run of drawn calls (run_agent, lesson 7).")
    results = {m["tool_call_id"]: m for m in messages if m["role"] == "toolResult"}
    t.expect([[e["call"] == call, e["result"] == results[call["id"]], e["result"]["content"]]
              for e, call in zip(ends, calls)],
             [[True, True, "contents of " + path] for path in paths],
             "tool_execution_end carries the same call, and its own call's result exactly as "
             "recorded, even when the consumer put a note of its own on the record at the "
             "result's message_end: the result the run made, not whatever the record ends with. "
             "Each item is [the call, the recorded result, the result's text] of one end "
             "(run_agent, lesson 7).")
    odd = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "gone.py"}),
                                       lab.call("grep", {"path": "a.py"})),
                             lab.say("Both failed.")])
    events = await lab.drive(harness.run_agent(odd, SYSTEM, [], [breaker()], "Read it."))
    t.expect([[what(e), e.get("result", {}).get("is_error")] for e in events],
             [[each, True if each.startswith("tool_execution_end") else None]
              for each in story([["gone.py", "a.py"]])],
             "A tool that raises, and a call to a tool that does not exist, are calls like any "
             "other: each is announced by tool_execution_start, its error result is recorded "
             "and announced, and tool_execution_end carries the call and that result; nothing "
             "else is yielded between a tool returning and its result being recorded. Each item "
             "is [the event, its result's is_error], for one reply that calls a tool that "
             "raises, then one named grep that the run was not given (run_agent, lessons 4 and "
             "7).")
    lines = t.random.randint(300, 10_000)  # a tool's output of a drawn length, in lines
    size = lines * 100  # 30,000 characters or more, on every draw
    big = tool("look", lambda arguments: ("x" * 99 + "\n") * lines, PATH)
    messages, deep = [], t.random.randint(500_001, 2_000_000)  # a path of a million characters or more
    events = await lab.drive(harness.run_agent(one_call("d/" * deep + "a.py"), SYSTEM, messages,
                                               [big], "Read it."))
    t.expect([types(events), [len(e["result"]["content"]) for e in events
                              if e["type"] == "tool_execution_end"],
              [e["call"] == harness.tool_calls(messages[1])[0] for e in events
               if e["type"] in ("tool_execution_start", "tool_execution_end")],
              [e["message"] == message for e, message in
               zip([e for e in events if e["type"] == "message_end"], messages)],
              [e["result"] == messages[2] for e in events if e["type"] == "tool_execution_end"]],
             [TWELVE, [size], [True] * 2, [True] * 4, [True]],
             f"A call whose path is {2 * deep + 4} characters long, to a tool whose output is "
             f"{size} characters long, in {lines} lines, is a call like "
             "any other: both tool events carry the call as the reply holds it, whole, however "
             "long its arguments; nothing is yielded between a tool returning and its result being "
             "recorded, each message_end carries the message recorded, whole, and "
             "tool_execution_end the result recorded, whole, however long. Items: the event "
             "types, the length of the result tool_execution_end carries, each tool event's call equals the "
             "recorded call, each message_end's message equals the one recorded, the end's result equals the one recorded "
             "(run_agent, lesson 7, Build items 5 and 6: \"`tool_execution_start`, carrying "
             "`\"call\"`\"; \"Every message the run records is announced once, by a `message_end` that carries it as `\"message\"`\"; \"Nothing "
             "is yielded between a tool returning and its result going onto the record\").")
    wide = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": f"f{n}.py"})
                                          for n in range(301)]), lab.say("All read.")])
    events = await lab.drive(harness.run_agent(wide, SYSTEM, [], [looker()], "Read every file."))
    ends = [e["call"]["id"] for e in events if e["type"] == "tool_execution_end"]
    told = story([[f"f{n}.py" for n in range(301)]])
    astray = next(([n, what(e), each] for n, (e, each) in enumerate(zip(events, told), 1)
                   if what(e) != each), None)
    t.expect([sum(e["type"] == "tool_execution_start" for e in events), len(ends), ends[-1:],
              astray], [301, 301, ["c301"], None],
             "One reply of 301 calls, then an answer. The items are [tool_execution_start "
             "events, tool_execution_end events, the last end's call id, the first event out "
             "of the lesson's order as [its place, found, expected], or None]: every call of a "
             "reply is run, between its two events, however many there are, and each call's "
             "result is recorded and announced before its tool_execution_end, the fourth and "
             "the three hundredth as the first (run_agent, lesson 7, Build item 6: "
             "\"Nothing is yielded between a tool returning and its result going onto the "
             "record\").")
    ran, swapped = [], []
    replies, rounds, _ = drawn_job(t)

    def swap(event):  # the consumer puts a call of its own under the event's "call" key
        if event["type"] == "tool_execution_start":
            event["call"] = dict(event["call"], name="grep", arguments={"path": "elsewhere.py"})
    await lab.drive(harness.run_agent(lab.ScriptedModel(replies), SYSTEM, swapped, [looker(ran)],
                                      "Read them."), on_event=swap)
    shell = []  # a tool named bash, the lesson's own example, is a tool like any other
    await lab.drive(harness.run_agent(lab.ScriptedModel(
        [lab.reply(lab.call("bash", {"path": "build"})), lab.say("Done.")]), SYSTEM, swapped,
        [tool("bash", lambda arguments: shell.append(arguments["path"]) or "ran", PATH)],
        "Clean up."), on_event=swap)
    asked = [path for paths in rounds for path in paths]
    t.expect([ran + shell, [m["content"] for m in swapped if m["role"] == "toolResult"]],
             [asked + ["build"], ["contents of " + path for path in asked] + ["ran"]],
             "The tool runs the reply's own call, whatever the consumer does with the event "
             "that announced it: a consumer that puts a call of its own under "
             "tool_execution_start's \"call\" key changes that event, not the run. The items "
             "are [the paths the tool was run on, the recorded results' text], for drawn calls "
             "whose every start the consumer rewrote to ask a tool named grep, which the run "
             "was not given, for elsewhere.py, then one call to a tool named bash, rewritten "
             "the same way (run_agent, "
             "lesson 7, Build item 6).")


@lab_test("Each turn_end carries the reply of its turn.")
async def test_turn_end_carries_the_reply(t):
    replies, rounds, words = drawn_job(t)
    words[-1] = t.random.choice(["  ", "\n", " \t"]) + words[-1] + t.random.choice(["\n", "  \n"])
    replies[-1] = lab.say(words[-1])  # an answer with spaces around its words, as models give
    model, messages = lab.ScriptedModel(replies), []

    def aside(event):
        if event["type"] == "tool_execution_end":  # another assistant speaks on the record
            messages.append(lab.say("(an aside from another assistant)"))
    events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()],
                                               "What is in them?"), on_event=aside)
    ends = [e["message"] for e in events if e["type"] == "turn_end"]
    t.expect([[harness.text_of(m) for m in ends],
              ends == [e["message"] for e in events
                       if e["type"] == "message_end" and e["message"]["role"] == "assistant"]],
             [words, True],
             "turn_end {\"message\": reply} closes each turn with that turn's reply, the one the "
             "run announced, every key and every character of it (the answer's words have "
             "spaces around them, kept as the model gave them), even when the consumer put an assistant message of its own on the "
             "record at each tool_execution_end: not whatever the record holds last. Items: the "
             "words of each turn_end's message, for a run of drawn turns, and whether those "
             "messages equal the replies the message_end events announced (run_agent, lesson 7, "
             "Build item 4: \"`turn_end`, which carries `\"message\"`, the turn's reply\").")
    bare = [await lab.drive(harness.run_agent(model, SYSTEM, [], [], "What is in them?"))
            for model in (lab.ScriptedModel([lab.say("Nothing to look with.")]),
                          lab.ScriptedModel(replies))]
    t.expect([[what(e) for e in events] for events in bare],
             why="A run given no tools at all still has turns: each opens with turn_start and "
             "closes with turn_end, an answer at once as a run of drawn calls, each of which "
             "finds no tool. Each item is the events of one run given an empty tool list, in a "
             "few words (run_agent, lesson 7, Build item 4: \"Each turn opens with "
             "`turn_start` and closes with `turn_end`\").")


@lab_test("A consumer that walks away at any event, each of a drawn run's in turn, leaves a "
          "record holding exactly the messages it was announced: nothing recorded before its "
          "message_end came by, the prompt included.")
async def test_walking_away_at_any_event(t):
    replies, rounds, _ = drawn_job(t, most_rounds=2, widest=2)
    found = []
    for read in range(1, len(story(rounds)) + 1):
        messages, model = [], lab.ScriptedModel(replies)
        events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()],
                                                   "Read them."), close_after=read)
        announced = [e["message"] for e in events if e["type"] == "message_end"]
        found.append([what(events[-1]), lab.shape(messages), messages == announced,
                      len(model.calls)])
    t.expect(found, [[event, recorded(story(rounds)[:read]), True,
                      sum(told.startswith("message_end A") for told in story(rounds)[:read])]
                     for read, event in enumerate(story(rounds), 1)],
             "Every message the run records is announced by a message_end, and only once it is "
             "on the record; so wherever a consumer closes the run, the record holds what it "
             "was told and nothing more. The prompt too: it is recorded at the top of the first "
             "turn, after turn_start, never before agent_start. And a request is made only once "
             "its turn is asked for, after that turn's turn_start: a consumer that walks away "
             "has paid for no reply it was not shown. Each item is [the last event read before "
             "closing, the record, it equals the messages announced, the requests made] "
             "(run_agent, lesson 7, Build item 4: \"Each turn opens with `turn_start`\").")
    paths = [f"f{n}.py" for n in range(t.random.randint(4, 12))]  # a wider reply than above
    chosen = t.random.randint(1, len(paths))
    read, messages = first_after(story([paths]), f"tool_execution_start c{chosen}"), []
    events = await lab.drive(harness.run_agent(lab.ScriptedModel(
        [lab.reply(*[lab.call("look", {"path": p}) for p in paths]), lab.say("Read.")]), SYSTEM,
        messages, [looker()], "Read them."), close_after=read)
    t.expect([what(events[-1]), lab.shape(messages),
              messages == [e["message"] for e in events if e["type"] == "message_end"]],
             [f"tool_execution_start c{chosen}", recorded(story([paths])[:read]), True],
             f"One reply of {len(paths)} calls, the run closed at call c{chosen}'s "
             "tool_execution_start: the record holds exactly the messages it was announced, "
             "and nothing the run wrote on its way out, however many calls the reply held. "
             "Items: the last event read, the record, it equals the messages announced "
             "(run_agent, lesson 7, Build item 5: \"Every message the run records is announced "
             "once\").")


@lab_test("agent_end carries the messages its own run added, and only those: not another run's "
          "that went on meanwhile, and not a note the consumer put on the record itself.")
async def test_agent_end_carries_its_own_runs_messages(t):
    replies, rounds, _ = drawn_job(t)
    other_replies, other_rounds, _ = drawn_job(t)
    messages, other_messages, other = [], [], []
    note = harness.user_message(f"(note {t.random.randint(1, 999)}: the user stepped away)")
    noted = []

    async def meanwhile(event):
        if event["type"] == "turn_end" and not other:
            # the consumer adds a note of its own and quotes the reply it was shown, the same
            # dict, and a second run goes from start to end
            messages.extend([note, event["message"]])
            noted.append(len(messages))
            other.extend(await lab.drive(harness.run_agent(
                lab.ScriptedModel(other_replies), SYSTEM, other_messages, [looker()], "And these.")))
    model = lab.ScriptedModel(replies)
    events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read them.",
                                               max_turns=len(rounds) + 1), on_event=meanwhile)
    mine = [e["message"] for e in events if e["type"] == "message_end"]
    theirs = [e["message"] for e in other if e["type"] == "message_end"]
    t.expect([len(model.calls), note in model.calls[1].messages, what(events[-2])],
             [len(rounds) + 1, True, "turn_end A"],
             "While the first run was paused at its first turn_end, a second run went from "
             "start to end and the consumer put a note on the first run's record. The first "
             "run, given max_turns just enough for its drawn turns, made its own requests and "
             "no others: max_turns counts this run's model calls, not a count "
             "another run shares. Its second request was built from the record as it was then, "
             "the consumer's note included, since each request is built fresh from the record "
             "(run_agent, lessons 5 and 7). Items: the first run's requests, its second held the "
             "note, its last turn_end.")
    t.expect([lab.shape(events[-1]["messages"]), events[-1]["messages"] == mine,
              lab.shape(other[-1]["messages"]), other[-1]["messages"] == theirs],
             [recorded(story(rounds)), True, recorded(story(other_rounds)), True],
             "A second run went from start to end while the first was paused at its first "
             "turn_end, and the consumer put on the first run's record there a note of its own and "
             "the reply it was shown, the same dict once more. "
             "agent_end carries the messages this run added, in order, and none from before "
             "it: kept by the run itself, not read off a list another run shares, nor sliced "
             "from the caller's record, which others may write to. Items: the first run's "
             "agent_end messages, they equal what it announced, the same for the second run "
             "(run_agent, lesson 7).")
    shared, second = [], []

    async def alongside(event):  # a second run on the same record, start to end, meanwhile
        if event["type"] == "turn_end" and not second:
            second.extend(await lab.drive(harness.run_agent(one_call("b.py"), SYSTEM, shared,
                                                            [looker()], "And b.")))
    first = await lab.drive(harness.run_agent(one_call("a.py"), SYSTEM, shared, [looker()],
                                              "Read a."), on_event=alongside)
    t.expect([lab.shape(first[-1]["messages"]), lab.shape(second[-1]["messages"]),
              lab.shape(shared)], ["U A[c1] R(c1) A", "U A[c1] R(c1) A",
                                   "U A[c1] R(c1) U A[c1] R(c1) A A"],
             "Two runs on one record at once: the second went from start to end while the "
             "first was paused at its first turn_end. Each run's agent_end carries the "
             "messages it added itself, kept by the run, not in a place keyed by the record "
             "they share. Items: the first run's agent_end messages, the second's, the record "
             "(run_agent, lesson 7, Build item 3).")
    both, seconds = lab.ScriptedModel([lab.say("First."), lab.say("Second.")]), []

    async def inside(event):  # a second run of the same model, start to end, meanwhile
        if event["type"] == "turn_end" and not seconds:
            seconds.extend(await lab.drive(harness.run_agent(both, SYSTEM, [], [looker()],
                                                             "Second?")))
    firsts = await lab.drive(harness.run_agent(both, SYSTEM, [], [looker()], "First?"),
                             on_event=inside)
    t.expect([[m["content"] if m["role"] == "user" else harness.text_of(m)
               for m in run[-1]["messages"]] for run in (firsts, seconds)],
             [["First?", "First."], ["Second?", "Second."]],
             "Two runs of one model, each on a record of its own: the second went from start to "
             "end while the first was paused at its turn_end. Each run's agent_end carries the "
             "messages it added itself, kept by the run, not in a place keyed by the model they "
             "share. Items: the words of each run's agent_end messages, the first run's, then "
             "the second's (run_agent, lesson 7, Build item 3).")

    class Record(list):
        """A record that can be watched going away: a plain list cannot be weakly referred to."""
    pairs = t.random.randint(4, 12)  # a conversation under way, longer than the others here
    found = []
    for model, limit in [(one_call("c.py"), None), (lab.ScriptedModel([lab.say("Hello.")]), None)] \
            + bad_endings(t):
        finished = Record([harness.user_message("Earlier."), lab.say("Noted.")] * pairs)
        gone = weakref.ref(finished)
        events = await lab.drive(harness.run_agent(model, SYSTEM, finished, [looker()],
                                                   "Read c.", max_turns=limit))
        added = finished[2 * pairs:]
        found.append([events[-1]["type"],
                      [e["message"] for e in events if e["type"] == "message_end"] == added,
                      events[-1]["messages"] == added])
        del finished, added  # the run is over and the caller lets its record go
        gc.collect()
        found[-1].append(gone() is None)
    t.expect(found, [["agent_end", True, True, True]] * 4,
             f"Four runs, each on a record already holding {2 * pairs} earlier messages (drawn): "
             "one ending in an answer, one answering at once in its first turn, one in a failed "
             "reply, one in the max_turns stop. Every "
             "message a run records is announced once, by a message_end, however long the "
             "record it joins; and once agent_end is yielded the run keeps nothing of the "
             "caller's, on every way out: its record dropped by the caller, no name outside "
             "the run still holds it. Items: for each run [the last event, the messages "
             "announced are the ones it added, agent_end carries them, the record is gone] "
             "(run_agent, lesson 7, Build items 3 and 5: \"Every message the run records is "
             "announced once\").")
    plain = [harness.user_message("Earlier."), lab.say("Noted.")] * pairs
    held = sys.getrefcount(plain)  # the names that hold the caller's plain list before the run
    closed = await lab.drive(harness.run_agent(one_call("d.py"), SYSTEM, plain, [looker()],
                                               "Read d."), close_after=len(TWELVE))
    last = closed[-1]["type"]
    del closed  # the consumer lets the events go too
    gc.collect()
    twin = copy.deepcopy(plain)  # the same messages, held by nothing but this list and the test
    t.expect([lab.shape(plain[2 * pairs:]), last, sys.getrefcount(plain) - held,
              sum(map(sys.getrefcount, plain)) - sum(map(sys.getrefcount, twin))],
             ["U A[c1] R(c1) A", "agent_end", 0, 0],
             "The same for a record that is a plain list, which cannot be watched going away, "
             "and a consumer that closes the run as soon as it has agent_end, never asking past "
             "it: once agent_end is yielded, nothing holds the list that did not hold it before the run, "
             "nor any message on it: each message is held as often as its copy in a list of "
             "copies that nothing else holds, so no event, list or table outside the run still "
             "keeps one. Items: the messages the run added, the last event the consumer took, "
             "the references to the list gained over the run, the references its messages have beyond their copies' (run_agent, "
             "lesson 7, Build item 3: \"no name outside the run still holds the record, nor any "
             "message on it\").")


@lab_test("The max_turns exit and the failed-reply exit stay balanced: every agent_start has its "
          "agent_end, every turn_start its turn_end, and agent_end comes last. An exception the "
          "model raises is no way out: it reaches the consumer with no agent_end before it.")
async def test_every_exit_is_balanced(t):
    def ask_again(request):
        done = sum(m["role"] == "toolResult" for m in request.messages)
        return lab.reply(lab.call("look", {"path": "a.py"})) if done < 20 else lab.say("Enough.")
    limit = t.random.randint(1, 5)
    stopped = await lab.drive(harness.run_agent(lab.ScriptedModel([lab.forever(ask_again)]), SYSTEM,
                                                [], [looker()], "Look.", max_turns=limit))
    t.expect([what(e) for e in stopped],
             story([["a.py"]] * limit)[:-3] + ["message_end A(error)", "turn_end A(error)", "agent_end"],
             "The max_turns stop is recorded in a turn of its own, closed like any other, and "
             "the run still ends with agent_end, whatever max_turns is (drawn here) (run_agent, "
             "lessons 5 and 7).")
    model = lab.ScriptedModel([lab.say("unused")])
    none = await lab.drive(harness.run_agent(model, SYSTEM, [], [looker()], "Look.", max_turns=0))
    t.expect([[what(e) for e in none], len(model.calls)],
             [["agent_start", "turn_start", "message_end U", "message_end A(error)",
               "turn_end A(error)", "agent_end"], 0],
             "max_turns=0 is a cap like any other, not \"no cap\": no model call may be made, "
             "so the first turn holds the prompt and the stop, balanced. Items: the events, the "
             "model calls made (run_agent, lessons 5 and 7).")
    replies, rounds, _ = drawn_job(t)
    failing = t.random.randint(0, len(rounds))  # the reply that fails: after this many rounds
    model, record = lab.ScriptedModel(replies[:failing] + [lab.fail("overloaded")]), []
    failed = await lab.drive(harness.run_agent(model, SYSTEM, record, [looker()], "Look."))
    t.expect([what(e) for e in failed],
             story(rounds[:failing])[:-3] + ["message_end A(error)", "turn_end A(error)",
                                             "agent_end"],
             "A failed reply, whichever turn it comes in, ends the turn and the run, balanced "
             "(run_agent, lessons 5 and 7).")
    t.expect([lab.shape(stopped[-1]["messages"]), lab.shape(failed[-1]["messages"])],
             [recorded(story([["a.py"]] * limit)[:-3]) + " A(error)",
              recorded(story(rounds[:failing])[:-3]) + " A(error)"],
             "On every exit, agent_end carries what the run recorded, the stop included "
             "(run_agent, lesson 7).")
    again = await lab.drive(harness.run_agent(lab.ScriptedModel([lab.say("Back again.")]), SYSTEM,
                                              record, [looker()], "Try again."))
    t.expect([lab.shape(record), lab.shape(again[-1]["messages"])],
             [recorded(story(rounds[:failing])[:-3]) + " A(error) U A", "U A"],
             "A run that carries on the conversation after the failed one, on the same record: "
             "its agent_end carries the messages this run added, and none from before it, the "
             "failed reply it found at the end of the record included. Items: the record, what "
             "the second run's agent_end carries (run_agent, lesson 7, Build item 3: \"the "
             "messages this run added to the record, in order, and none from before it\").")
    replies, rounds, _ = drawn_job(t)
    asked = t.random.randint(1, len(rounds) + 1)  # the request at which the model raises
    cause = ConnectionResetError(f"the provider hung up at request {asked}")

    def hang_up(request):
        raise cause
    seen = []  # the events the consumer took, one at a time, until the exception reached it
    try:
        await lab.drive(harness.run_agent(lab.ScriptedModel(replies[:asked - 1] + [hang_up]),
                                          SYSTEM, [], [looker()], "Look."), on_event=seen.append)
        raised = "nothing"
    except Exception as problem:  # noqa: BLE001 - what reached the consumer is the item
        raised = "the model's exception" if problem is cause else f"{type(problem).__name__}"
    t.expect([types(seen).count("agent_end"), raised], [0, "the model's exception"],
             f"A model that raises at request {asked} (drawn), read one event at a time: an "
             "exception the model raises is none of the ways out. It goes on up through the "
             "run to the consumer, at the event it asks for next, and no agent_end comes "
             "before it (a consumer that stops at agent_end would close the run there and "
             "never hear of the exception). Items: the agent_end events the consumer took "
             "before the exception, what reached it (run_agent, lesson 7, Build item 3: \"no "
             "`agent_end` comes before it\").")


@lab_test("Calling run_agent does nothing yet: until the first event is asked for, nothing is "
          "recorded and the model is not called.")
async def test_nothing_happens_until_asked(t):
    replies, rounds, _ = drawn_job(t)
    model, messages, tools = lab.ScriptedModel(replies), [], [looker(), {"name": "grep"}]
    try:  # the grep tool is still being put together: the caller finishes it before the run
        run, called = harness.run_agent(model, SYSTEM, messages, tools, "Read them."), "returned"
    except Exception as problem:
        run, called = None, f"raised {type(problem).__name__}"
    unusable = []
    for arguments in ([None] * 5, [object(), 7, "no record", {"look": None}, b"a prompt"]):
        try:  # nothing a run could take: only a call that looks at its arguments finds that out
            harness.run_agent(*arguments, max_turns="two")
            unusable.append("returned")
        except Exception as problem:  # noqa: BLE001 - what the call did is the item
            unusable.append(f"raised {type(problem).__name__}")

    class Record(list):
        """A record that can be watched going away: a plain list cannot be weakly referred to."""
    dropped = Record()
    gone = weakref.ref(dropped)
    harness.run_agent(lab.ScriptedModel(replies), SYSTEM, dropped, [looker()], "Read them.")
    del dropped  # the run, never driven, is dropped at once: nothing should hold its record now
    gc.collect()
    t.expect([called, len(messages), len(model.calls), unusable, gone() is None],
             ["returned", 0, 0, ["returned"] * 2, True],
             "A generator's body does not start when it is called; the run begins at the first "
             "event, so the call itself reads nothing, not even the tools, whose list held a "
             "tool the caller had not finished making, nor checks its arguments: a call with "
             "None for the model, the record, the tools and the prompt and max_turns=\"two\" "
             "returns a run too, and so does one whose model is an object with no complete(), "
             "whatever its first event would find; nor does it note the caller's record "
             "anywhere: a run never driven and dropped leaves nothing holding the record. "
             "Items: what the call did, the record's length, the requests, what the calls with "
             "those arguments did, the dropped run's record is gone (run_agent, lesson 7, Build "
             "item 1: \"until its first event is asked for it does nothing at all\").")
    held = [harness.user_message("Earlier."), lab.say("Noted.")]
    try:  # a record under way, and a tool list whose second tool is still to be made
        harness.run_agent(lab.ScriptedModel(replies), SYSTEM, held, [looker(), None], "Read.")
        harness.run_agent(lab.ScriptedModel(replies), SYSTEM, held, [looker()], "Read.",
                          max_turns=0)  # no model call to wait for: still nothing yet
        called = "returned"
    except Exception as problem:  # noqa: BLE001 - what the call did is the item
        called = f"raised {type(problem).__name__}"
    t.expect([called, lab.shape(held)], ["returned", "U A"],
             "The call does nothing on a record already under way either, and reads no tool of "
             "the list, not even one the caller has yet to put in its place (None here): the "
             "prompt is recorded only once the run is driven, and a tool only looked at when "
             "its call comes. So too with max_turns=0, whose run will make no request at all: "
             "the call records nothing, the prompt and the stop both wait for the first "
             "event. Items: what the calls did, the record after them (run_agent, lesson 7, "
             "Build item 1: \"until its first event is asked for it does nothing at all\").")
    # after the call and before the first event: the run has not begun, so these count
    messages += [harness.user_message("Earlier."), lab.say("Noted.")]
    tools[1].update(tool("grep", lambda arguments: "", PATH))
    if run is None:  # so that the rest of the test still has a run to drive
        run = harness.run_agent(model, SYSTEM, messages, tools, "Read them.")
    events = await lab.drive(run)
    t.expect([len(events), lab.shape(messages),
              [m["content"] for m in messages if m["role"] == "toolResult"],
              [spec["name"] for spec in model.calls[0].tools],
              lab.shape(model.calls[0].messages), lab.shape(events[-1]["messages"])],
             [len(story(rounds)), "U A " + recorded(story(rounds)),
              ["contents of " + path for paths in rounds for path in paths], ["look", "grep"],
              "U A U", recorded(story(rounds))],
             "Driven, the same run does its work. Between the call and the first event the "
             "caller added two messages to its record and a tool to its list: until its first "
             "event is asked for, run_agent does nothing at all, so the run starts from the "
             "record and the tools as they are then. Items: a drawn run's events, its record, "
             "its results, the tools the first request offered, the messages it held, what "
             "agent_end carries (run_agent, lesson 7).")
    run = harness.run_agent(lab.ScriptedModel(replies), SYSTEM, [], [looker()], "Read them.")
    t.expect([hasattr(run, "close") or hasattr(run, "aclose")], [True],
             "What run_agent returns is a generator of events, which a consumer that walks "
             "away can close, as the lesson's own consumer does with run.close(): not an "
             "iterator of its own that leaves the suspended run to the garbage collector. The "
             "item: it has close() (run_agent, lesson 7).")


def first_after(events, opening):
    """How many events a consumer reads up to and including the first that starts `opening`."""
    return next(n for n, what in enumerate(events, 1) if what.startswith(opening))


@lab_test("A consumer that closes the run right after a tool_execution_start, drawn under the "
          "seed, stops it there: that tool never runs and the model is not asked again.")
async def test_closing_before_a_tool_runs(t):
    replies, rounds, _ = drawn_job(t)
    paths = [path for paths in rounds for path in paths]
    chosen = t.random.randint(1, len(paths))  # the call whose start is the last event read
    ran, model, messages = [], lab.ScriptedModel(replies), []
    read = first_after(story(rounds), f"tool_execution_start c{chosen}")
    events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker(ran)],
                                               "Read them."), close_after=read)
    t.expect([what(events[-1]), ran, len(model.calls), lab.shape(messages)],
             [f"tool_execution_start c{chosen}", paths[:chosen - 1],
              story(rounds)[:read].count("turn_start"), recorded(story(rounds)[:read])],
             "The run does nothing between two events that the consumer did not ask for: "
             "closed at a call's tool_execution_start, that tool does not run. Items: the last "
             "event read, the paths the tool ran on, the requests, the record (run_agent, "
             "lesson 7).")
    model, read = lab.ScriptedModel(replies), first_after(story(rounds), "turn_end")
    events = await lab.drive(harness.run_agent(model, SYSTEM, [], [looker()], "Read them."),
                             close_after=read)
    t.expect([what(events[-1]), len(model.calls)], [story(rounds)[read - 1], 1],
             "A consumer that stops at the first turn_end has paid for one request: a generator "
             "does nothing unless somebody asks, so the next request is made only once the next "
             "turn's turn_start is asked for, never ahead of it. Items: the last event read, the "
             "requests made (run_agent, lesson 7).")
    turns = t.random.randint(6, 12)  # a run longer than a drawn job: a late turn as an early one
    told = story([[f"f{n}.py"] for n in range(1, turns + 1)])
    found = []
    for read in (first_after(told, f"tool_execution_start c{turns}"),
                 first_after(told, f"turn_end A[c{turns - 1}]")):
        ran, model = [], lab.ScriptedModel(
            [lab.reply(lab.call("look", {"path": f"f{n}.py"})) for n in range(1, turns + 1)]
            + [lab.say("Read.")])
        events = await lab.drive(harness.run_agent(model, SYSTEM, [], [looker(ran)], "Read them."),
                                 close_after=read)
        found.append([what(events[-1]), len(ran), len(model.calls)])
    t.expect(found, [[f"tool_execution_start c{turns}", turns - 1, turns],
                     [f"turn_end A[c{turns - 1}]", turns - 1, turns - 1]],
             f"A run of {turns} turns of one call each (drawn), closed at its last call's "
             "tool_execution_start, then again at the turn_end before its last turn: in any "
             "turn, however late, a tool is announced before it runs and a request is made only "
             "once its turn's turn_start is asked for. Items: the last event read, the tools "
             "run, the requests made (run_agent, lesson 7, Build item 6: \"Each call's tool is "
             "announced by `tool_execution_start`, carrying `\"call\"`, before it runs\").")


@lab_test("A consumer that closes the run at the first event after a tool returned, drawn under "
          "the seed, finds that tool's result on the record: nothing is yielded between a tool "
          "returning and its result being recorded.")
async def test_closing_after_a_tool_returned(t):
    replies, rounds, _ = drawn_job(t)
    paths = [path for paths in rounds for path in paths]
    chosen = t.random.randint(1, len(paths))  # the call that has just returned
    ran, model, messages = [], lab.ScriptedModel(replies), []
    read = first_after(story(rounds), f"tool_execution_start c{chosen}") + 1
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker(ran)], "Read them."),
                    close_after=read)
    t.expect([ran, lab.shape(messages), len(model.calls)],
             [paths[:chosen], recorded(story(rounds)[:read]),
              story(rounds)[:read].count("turn_start")],
             "Nothing is yielded between a tool returning and its result being recorded, so a "
             "consumer that stops at the first event after the tool ran finds the result on the "
             "record: the tool ran, and the record says so. Items: the paths the tool ran on, "
             "the record, the requests (run_agent, lesson 7).")
    size = t.random.randint(1_000_001, 3_000_000)  # a result over a million characters, drawn
    odd = [tool("edit", lambda arguments: "", PATH), tool("bash", lambda arguments: "done", PATH),
           tool("look", lambda arguments: "x" * size, PATH)]
    found = []
    for chosen in (1, 2, 3):  # closed at the first event after the edit, the bash, the look
        messages = []
        read = first_after(story([["a.py", "b", "b.py"]]), f"tool_execution_start c{chosen}") + 1
        await lab.drive(harness.run_agent(lab.ScriptedModel(
            [lab.reply(lab.call("edit", {"path": "a.py"}), lab.call("bash", {"path": "b"}),
                       lab.call("look", {"path": "b.py"})),
             lab.say("Done.")]), SYSTEM, messages, odd, "Edit a, build, read b."),
            close_after=read)
        found.append([lab.shape(messages), [len(m["content"]) for m in messages[2:]]])
    t.expect(found, [["U A[c1,c2,c3] R(c1)", [0]], ["U A[c1,c2,c3] R(c1) R(c2)", [0, 4]],
                     ["U A[c1,c2,c3] R(c1) R(c2) R(c3)", [0, 4, size]]],
             "Whatever the tool and whatever it returned, nothing is yielded between its "
             "returning and its result being recorded: a tool named edit whose result is \"\", "
             "then one named bash, the lesson's own example, "
             f"then one whose result is {size} characters long. Each item is [the record, the "
             "length of each result on it] after a consumer closed the run at the first event "
             "after that tool returned (run_agent, lesson 7, Build item 6: \"Nothing is yielded "
             "between a tool returning and its result going onto the record\").")


@lab_test("The loop draws nothing: a run, with tool calls or without, prints nothing at all, on "
          "standard output or standard error, a terminal or not, writes no file, keeps no log "
          "in harness.py's module, and what happened travels in its events alone.")
async def test_the_loop_draws_nothing(t):
    held = kept_in(harness)  # what harness.py's module holds before this test's runs
    replies, rounds, _ = drawn_job(t)
    wide = t.random.randint(150, 301)  # the calls of one reply, up to the 301 tried elsewhere
    given = t.random.randint(6, 24)  # the tools that reply's run is given, a dozen or so
    long = t.random.randint(3_000, 6_000)  # a conversation of thousands of earlier messages, halved
    alive = []  # the models of runs that never reached agent_end: their caller still holds them
    with everything_said() as said:
        with contextlib.redirect_stdout(Terminal(said)), contextlib.redirect_stderr(Terminal(said)):
            events = await lab.drive(harness.run_agent(lab.ScriptedModel(replies), SYSTEM, [],
                                                       [looker()], "Read them.",
                                                       max_turns=10 ** t.random.randint(5, 9)))
            await lab.drive(harness.run_agent(lab.ScriptedModel([lab.say("Nothing to read.")]),
                                              SYSTEM, [], [looker()], "Anything?"))
            huge = t.random.randint(10_000_001, 20_000_000)  # a result of tens of millions
            await lab.drive(harness.run_agent(one_call(), SYSTEM, [], [
                tool("look", lambda arguments: "#" * huge, PATH)], "Read it all."))
            try:  # a model that raises at its second request: the run raises, and says nothing
                alive.append(lab.ScriptedModel(replies[:1]))
                await lab.drive(harness.run_agent(alive[-1], SYSTEM, [],
                                                  [looker()], "Read them."))
                raised = None
            except Exception as problem:
                raised = type(problem).__name__
        for model, limit in bad_endings(t):
            await lab.drive(harness.run_agent(model, SYSTEM, [], [looker()], "Read them.",
                                              max_turns=limit))
        earlier = [harness.user_message("Earlier."), lab.say("Noted.")]
        await lab.drive(harness.run_agent(lab.ScriptedModel(replies), SYSTEM, earlier,
                                          [breaker()], "Read them again."))
        await lab.drive(harness.run_agent(lab.ScriptedModel([lab.say("Nothing new.")]), SYSTEM,
                                          [harness.user_message("Earlier."), lab.say("Noted.")]
                                          * long, [looker()], "Anything new?"))
        for walked in range(1, len(story(rounds))):  # closed after each event in turn
            alive.append(lab.ScriptedModel(replies))
            await lab.drive(harness.run_agent(alive[-1], SYSTEM, [],
                                              [looker()], "Read them."), close_after=walked)
        await lab.drive(harness.run_agent(lab.ScriptedModel(
            [lab.reply(*[lab.call("grep" if n == wide // 2 else "look", {"path": f"f{n}.py"})
                         for n in range(wide)]),
             lab.say("All read.")]), SYSTEM, [],
            [looker()] + [tool(f"tool{n}", lambda arguments: "", PATH) for n in range(2, given + 1)],
            "Read every file."))
        here, word = os.getcwd(), f"user{t.random.randint(100, 999)}"
        with tempfile.TemporaryDirectory() as folder:
            try:  # one run where every environment variable is set, started in an empty folder
                os.chdir(folder)
                with every_name_set(word):
                    await lab.drive(harness.run_agent(lab.ScriptedModel([lab.say("Nothing.")]),
                                                      SYSTEM, [], [looker()], "Anything?"))
                for switch in SWITCHED_ON:  # and every name set to a value a switch takes
                    with every_name_set(switch, exactly=True):
                        await lab.drive(harness.run_agent(lab.ScriptedModel(
                            [lab.say("Nothing.")]), SYSTEM, [], [looker()], "Anything?"))
            finally:
                os.chdir(here)
            left = sorted(os.listdir(folder))
    t.expect([len(events), raised, said.getvalue(), left,
              [e["result"]["content"] for e in events if e["type"] == "tool_execution_end"]],
             [len(story(rounds)), "ScriptExhausted", "", [],
              ["contents of " + path for paths in rounds for path in paths]],
             "run_agent reports what happened as events and draws nothing: a print in the loop, "
             "to standard output or to standard error (sys.__stdout__ and sys.__stderr__ too, "
             "a stream kept from import, and the process's descriptors 1 and 2 beneath them: "
             "os.write, /dev/stderr), a warning, heard each time it is given, not once per "
             "place, a line logged through the logging module, by any logger with any "
             "handler, or a file opened for writing (a log is a frontend's choice), forces one "
             "frontend's picture on every other, on every way out. Found: "
             "the number of events of a drawn run (given a max_turns of a drawn power of ten, "
             "100,000 or more), what the run whose model raised at its second request raised, "
             "all the runs said beside their events (one answering after drawn calls, one "
             "answering at once with no call, one whose model raised, and one call whose "
             f"result is {huge} characters long, all on streams that say they are a terminal, "
             "one failing, one stopped by max_turns, one on a record that already "
             "held messages whose tool fails on every call, one answering at once on a record "
             f"of {2 * long} earlier messages, the first again, closed by the "
             f"consumer after each of its events in turn, and one reply of {wide} calls to a run "
             f"given {given} tools, one of "
             "them to a tool named grep that the run was not given), the files left in an "
             "empty folder by one run started there with every environment variable set "
             f"(then by one run for each of the values {', '.join(SWITCHED_ON)} that every "
             "variable was set to, word for word) "
             "(a log written only when some variable names a file is still a file the loop "
             "writes), and "
             "the results the first one's events carry (run_agent, lesson 7, Build item 1: "
             "\"It prints nothing and writes no file\").")
    t.expect(changes(held, kept_in(harness)), [],
             "run_agent keeps no log in memory either: what a run saw leaves in its events, "
             "and nothing of it stays in your module for the next run. A list, dict or count "
             "at the top of harness.py, or one set on a function or a class, that each run "
             "adds to is a log kept in memory (a log is a frontend's choice, made from the "
             "events), and so is a cache (functools.cache, lru_cache) that remembers what a "
             "run was given, or a weak set of what runs are using, looked at while the caller "
             f"still holds it (the {len(alive)} models of the runs here that never reached "
             "agent_end are still held). Found: the places in harness.py's module whose value changed over "
             "this test's runs, each as where, what it held before them, then after, the "
             "first three (run_agent, lesson 7, Build item 1: \"nothing a run saw stays in "
             "your module for the next run\").")


@lab_test("Events are plain data: each one goes through json.dumps and comes back equal.")
async def test_events_are_json(t):
    replies, rounds, _ = drawn_job(t)
    with hours_pass():  # each reading of the clock a minute on: every turn takes minutes
        events = await lab.drive(harness.run_agent(lab.ScriptedModel(replies), SYSTEM, [],
                                                   [looker()], "Read them."))
    t.expect([[what(e), json.loads(json.dumps(e)) == e] for e in events] +
             [e["call"]["arguments"] for e in events if e["type"] == "tool_execution_start"],
             [[event, True] for event in story(rounds)] +
             [{"path": path} for paths in rounds for path in paths],
             "Events report what happened as JSON-serialisable dicts, so any frontend, in any "
             "process, can consume them, however long a turn took (each reading of the clock "
             "is a minute after the last here). Each item is [the event, it comes back equal] "
             "for a drawn run, then the arguments the tool_execution_start events carry (run_agent, "
             "lesson 7).")
    bad = [await lab.drive(harness.run_agent(model, SYSTEM, [], [looker()], "Read them.",
                                             max_turns=limit)) for model, limit in bad_endings(t)]
    t.expect([[what(e), json.loads(json.dumps(e)) == e] for run in bad for e in run[-3:]],
             [["message_end A(error)", True], ["turn_end A(error)", True], ["agent_end", True]] * 2,
             "A run that ends badly reports its ending as plain data too, never as a live Python "
             "object such as an exception: the JSON frontend must be able to write the runs that "
             "failed. Each item is [the event, it comes back equal from json.dumps] for the last "
             "three events of a failed reply's run, then of a max_turns stop (run_agent, lesson "
             "7).")
    plain = ["NoneType", "bool", "dict", "float", "int", "list", "str"]
    t.expect([name for name in types_within(events + [e for run in bad for e in run])
              if name not in plain], [],
             "Each event is a dict of plain data: a dict itself, not a subclass of dict that "
             "could carry live objects beside its keys, which json.dumps would silently leave "
             "out, and so is every message, call and result inside it, at any depth. The item "
             "is the names of the types other than dict, list, str, int, float, bool and None "
             "found anywhere in the events of three runs (run_agent, lesson 7).")
    t.expect([sorted(e) for e in events if e["type"] == "tool_execution_end"],
             [["call", "result", "type"]] * sum(map(len, rounds)),
             "tool_execution_end has exactly its type, call and result (run_agent, lesson 7).")
    failing = await lab.drive(harness.run_agent(lab.ScriptedModel(replies), SYSTEM, [],
                                                [breaker()], "Read them."))
    turns = t.random.randint(6, 12)  # a run longer than a drawn job: a late turn's keys too
    late = await lab.drive(harness.run_agent(lab.ScriptedModel(
        [lab.reply(lab.call("look", {"path": "a.py"})) for _ in range(turns)]
        + [lab.say("Read.")]), SYSTEM,
        [], [looker()], "Read it again and again."))
    t.expect([[e["type"], sorted(e)] for e in events + [e for run in bad for e in run] + failing
              + late],
             why="Each event carries its type and the keys Build item 1 names for it, no others "
             "(\"`agent_start` and `turn_start` carry their type alone\"): a key more is a "
             "promise every consumer would come to rely on, whatever the run met. Each item is "
             "[the event's type, its keys], for the drawn run, then the failed reply's and the "
             "max_turns stop's, then the drawn run's again with a tool that raises on every "
             f"call, so that each result is an error, then a run of {turns} turns of one call "
             "each (drawn), late turns as early ones (run_agent, lesson 7).")


@lab_test("Each event is a new dict, the consumer's to keep or change: a consumer that writes "
          "a note into every event of two runs never finds its note in a later event, and every "
          "event it kept still holds its own.")
async def test_each_event_is_a_new_dict(t):
    kept, arrived, stories = [], [], []

    def note(event):
        arrived.append([event.get("type"), "note" in event])  # as it came, before the note
        event["note"] = len(arrived)  # the consumer's own key, written into the event
        kept.append(event)
        return lab.tick() if event.get("type") == "turn_end" else None  # a turn for others
    for ask in ("Read them.", "Read them again."):
        replies, rounds, _ = drawn_job(t, most_rounds=3)
        stories += story(rounds)
        await lab.drive(harness.run_agent(lab.ScriptedModel(replies), SYSTEM, [], [looker()], ask),
                        on_event=note)

    longer, asked = LONG * 3 // 2, [0]  # two runs past LONG: a late turn's kept dict returns

    def look_again(request):  # of `longer` turns of one call each, then an answer
        asked[0] += 1  # counted, not summed over the record: a long run stays cheap
        return lab.reply(lab.call("look", {"path": "a.py"})) if asked[0] <= longer \
            else lab.say("Done.")
    with everything_said() as said:  # long runs: a late turn draws nothing either
        for _ in range(2):
            asked[0] = 0
            stories += story([["a.py"]] * longer)
            await lab.drive(harness.run_agent(lab.ScriptedModel([lab.forever(look_again)]),
                                              SYSTEM, [], [looker()], "Keep looking."),
                            on_event=note)
    t.expect(said.getvalue(), "",
             f"The loop draws nothing in a long run either: two runs of {longer} turns said "
             "nothing beside their events, on either stream, and wrote no file, however late the "
             "turn. The item: all they said (run_agent, lesson 7, Build item 1: \"It prints "
             "nothing and writes no file\").")
    t.expect([arrived, [event["note"] for event in kept], len({id(event) for event in kept})],
             [[[told.split(" ")[0], False] for told in stories],
              list(range(1, len(stories) + 1)), len(stories)],
             "The events are the consumer's once yielded: a frontend may keep them, or add a key "
             "of its own to each, so a dict yielded a second time (one turn_start kept for every "
             "turn, one agent_start for every run) arrives carrying what was written into it "
             "before, and the event kept earlier changes with it. Found: [the type of each event "
             f"of two drawn runs and two of {longer} turns, and whether it arrived already "
             "holding the consumer's note], "
             "the note each kept event holds at the end, and the number of different dicts "
             "among them (run_agent, lesson 7).")
    ended = len(kept)
    for _ in range(2):  # each bad ending twice: a dict kept for one of them would come back
        for model, limit in bad_endings(t):
            await lab.drive(harness.run_agent(model, SYSTEM, [], [looker()], "Read them.",
                                              max_turns=limit), on_event=note)
    t.expect([arrived[ended:], [event["note"] for event in kept[ended:]],
              len({id(event) for event in kept})],
             why="The events of the bad endings are new dicts too: a turn_start or a stop kept "
             "for the turn that max_turns ends, or for a failed reply, arrives the second time "
             "carrying the note written into it the first. Found: [the type of each event of a "
             "failed reply's run and a max_turns stop, each run twice, and whether it arrived "
             "already holding the consumer's note], the note each holds at the end, the number "
             "of different dicts among every event kept (run_agent, lesson 7, Build item 7: "
             "\"Each event is a new dict, made when it is yielded and never yielded again\").")


@lab_test("Runs of nought to three turns of one to three calls, each ending in an answer, a "
          "provider failure that got nought to two calls out first, or the max_turns stop: every "
          "exit is balanced, a failed reply's calls get no tool_execution events and never run, "
          "and agent_end comes last carrying every message the run added.")
async def test_every_exit_over_a_family(t):
    rows, cases = [], []
    for ending, late in (("an answer", 0), ("a failure", 0), ("a failure", t.random.randint(1, 2)),
                         ("the max_turns stop", 0)):
        rounds = [t.random.randint(1, 3) for _ in range(t.random.randint(0, 3))]
        partial = late
        ran = []
        replies = [lab.reply(*[lab.call("look", {"path": f"f{n}.py"}) for n in range(calls)])
                   for calls in rounds]
        last = {"an answer": lab.say("Done."),
                "a failure": lab.fail("connection reset",
                                      *[lab.call("look", {"path": f"late{n}.py"})
                                        for n in range(partial)]),
                "the max_turns stop": lab.reply(lab.call("look", {"path": "one_more.py"}))}[ending]
        limit = {"max_turns": len(rounds)} if ending == "the max_turns stop" else {}
        events = await lab.drive(harness.run_agent(lab.ScriptedModel(replies + [last]), SYSTEM, [],
                                                   [looker(ran)], "Look.", **limit))
        rows.append([ending, rounds, partial, types(events), len(ran),
                     lab.shape(events[-1]["messages"])])
        cases.append([ending, rounds, partial])

    def events(rounds):
        found = ["agent_start"]
        for number, calls in enumerate(rounds + [0]):  # the last turn holds the ending
            found += ["turn_start"] + ["message_end"] * (2 if number == 0 else 1)
            found += ["tool_execution_start", "message_end", "tool_execution_end"] * calls
            found += ["turn_end"]
        return found + ["agent_end"]

    def shape(rounds, ending, partial):
        parts, number = ["U"], 0
        for calls in rounds:
            ids = [f"c{number + n + 1}" for n in range(calls)]
            number += calls
            parts += [f"A[{','.join(ids)}]"] + [f"R({i})" for i in ids]
        late = ",".join(f"c{number + n + 1}" for n in range(partial))
        return " ".join(parts + [{"an answer": "A", "the max_turns stop": "A(error)",
                                  "a failure": f"A[{late}](error)" if late else "A(error)"}[ending]])
    t.expect(rows, [[ending, rounds, partial,
                     events(rounds),
                     sum(rounds), shape(rounds, ending, partial)]
                    for ending, rounds, partial in cases],
             "Every way a run ends is balanced: each turn_start has its turn_end, the last turn "
             "holds the ending (the answer, the failed reply, or the max_turns stop) and no "
             "tool events, because a reply with stop_reason \"error\" is recorded and not acted on "
             "even when calls got out before it failed; agent_end comes last and carries the "
             "run's messages (run_agent, lessons 5 and 7). Each row: [how the run ended, calls per "
             "turn before the ending, calls the failed reply got out, the event types, tools run, "
             "what agent_end carries].")
