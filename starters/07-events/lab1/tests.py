"""Lesson 7, lab 1: announce, don't draw. The tests of run_agent as a generator of events: their
sequence, the rule "mutate, then announce", balance on every way out, and laziness.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 7 tests.py
"""
import contextlib
import io
import json

import harness
import lab
from lab.kit import lab_test, tool

LAB = "7.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
TWELVE = ["agent_start", "turn_start", "message_end", "message_end", "tool_execution_start",
          "message_end", "tool_execution_end", "turn_end", "turn_start", "message_end",
          "turn_end", "agent_end"]


def looker(ran=None):
    def fn(arguments):
        if ran is not None:
            ran.append(arguments["path"])
        return "contents of " + arguments["path"]
    return tool("look", fn, PATH)


def one_call():
    return lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})), lab.say("Read it.")])


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
          "tool_execution_end, turn_end, turn_start, message_end (A), turn_end, agent_end.")
async def test_the_twelve_events(t):
    messages = []
    events = await lab.drive(harness.run_agent(one_call(), SYSTEM, messages, [looker()],
                                               "Read a.py."))
    t.expect(types(events), TWELVE,
             "run_agent yields one event per happening, in this order; nothing comes between a "
             "tool returning and its result's message_end (run_agent, lesson 7).")
    t.expect([what(e) for e in events],
             ["agent_start", "turn_start", "message_end U", "message_end A[c1]",
              "tool_execution_start c1", "message_end R(c1)", "tool_execution_end c1 R(c1)",
              "turn_end A[c1]", "turn_start", "message_end A", "turn_end A",
              "agent_end"],
             "Each message_end carries the message it announces, and each turn_end the turn's "
             "reply (run_agent, lesson 7).")
    t.expect(lab.shape(messages), "U A[c1] R(c1) A", "The work is the same as in lesson 6.")


@lab_test("Mutate, then announce: when a message_end arrives, its message is already the last "
          "message of the record.")
async def test_mutate_then_announce(t):
    messages = [harness.user_message("Earlier."), lab.say("Noted.")]
    seen = []

    def look(event):
        if event["type"] == "message_end":
            seen.append([lab.shape([event["message"]]), lab.shape(messages[-1:]),
                         event["message"] == messages[-1]])
    await lab.drive(harness.run_agent(one_call(), SYSTEM, messages, [looker()], "Read a.py."),
                    on_event=look)
    t.expect(seen, [["U", "U", True], ["A[c1]", "A[c1]", True], ["R(c1)", "R(c1)", True],
                    ["A", "A", True]],
             "A message is appended to the record before its message_end is yielded, so a "
             "consumer reading the record at that event finds it there (run_agent, lesson 7). "
             "Each row: [announced, last in the record, the same message].")


@lab_test("Every message a run adds is announced exactly once, in order, and agent_end carries "
          "exactly those messages, not the earlier ones.")
async def test_every_message_announced_once(t):
    messages = [harness.user_message("Earlier."), lab.say("Noted.")]
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"}),
                                         lab.call("look", {"path": "b.py"})),
                               lab.reply(lab.call("look", {"path": "c.py"})), lab.say("Done.")])
    events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read them."))
    announced = [e["message"] for e in events if e["type"] == "message_end"]
    t.expect(lab.shape(announced), "U A[c1,c2] R(c1) R(c2) A[c3] R(c3) A",
             "One message_end per new message, in the order they were recorded (run_agent, "
             "lesson 7).")
    t.expect([announced == messages[2:], lab.shape(events[-1]["messages"]),
              events[-1]["messages"] == messages[2:]],
             [True, "U A[c1,c2] R(c1) R(c2) A[c3] R(c3) A", True],
             "agent_end's \"messages\" are this run's messages, the ones announced; the final "
             "message is its last entry (run_agent, lesson 7).")
    t.expect(lab.shape(messages), "U A U A[c1,c2] R(c1) R(c2) A[c3] R(c3) A",
             "The record keeps the earlier messages too (run_agent, lesson 7).")


@lab_test("tool_execution_start and tool_execution_end carry the call; the end also carries the "
          "result that was recorded for it.")
async def test_tool_events_carry_the_call(t):
    messages = []
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"}),
                                         lab.call("look", {"path": "b.py"})), lab.say("Done.")])
    events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read both."))
    starts = [e for e in events if e["type"] == "tool_execution_start"]
    ends = [e for e in events if e["type"] == "tool_execution_end"]
    calls = harness.tool_calls(messages[1])
    t.expect([[e["call"]["id"], e["call"]["name"], e["call"]["arguments"]] for e in starts],
             [["c1", "look", {"path": "a.py"}], ["c2", "look", {"path": "b.py"}]],
             "tool_execution_start carries the call block about to run (run_agent, lesson 7).")
    t.expect([[e["call"] == call, e["result"] == recorded] for e, call, recorded
              in zip(ends, calls, messages[2:4])], [[True, True], [True, True]],
             "tool_execution_end carries the same call, and the result exactly as recorded "
             "(run_agent, lesson 7).")
    t.expect([e["result"]["content"] for e in ends], ["contents of a.py", "contents of b.py"],
             "Each end carries its own call's result (run_agent, lesson 7).")


@lab_test("Each turn_end carries the reply of its turn.")
async def test_turn_end_carries_the_reply(t):
    model = lab.ScriptedModel([lab.reply("First a look.", lab.call("look", {"path": "a.py"})),
                               lab.say("It prints 1.")])
    events = await lab.drive(harness.run_agent(model, SYSTEM, [], [looker()], "What does a.py do?"))
    t.expect([harness.text_of(e["message"]) for e in events if e["type"] == "turn_end"],
             ["First a look.", "It prints 1."],
             "turn_end {\"message\": reply} closes each turn with that turn's reply (run_agent, "
             "lesson 7).")


@lab_test("The max_turns exit and the failed-reply exit stay balanced: every agent_start has its "
          "agent_end, every turn_start its turn_end, and agent_end comes last.")
async def test_every_exit_is_balanced(t):
    def ask_again(request):
        done = sum(m["role"] == "toolResult" for m in request.messages)
        return lab.reply(lab.call("look", {"path": "a.py"})) if done < 20 else lab.say("Enough.")
    stopped = await lab.drive(harness.run_agent(lab.ScriptedModel([lab.forever(ask_again)]), SYSTEM,
                                                [], [looker()], "Look.", max_turns=1))
    t.expect(types(stopped), ["agent_start", "turn_start", "message_end", "message_end",
                              "tool_execution_start", "message_end", "tool_execution_end",
                              "turn_end", "turn_start", "message_end", "turn_end", "agent_end"],
             "The max_turns stop is recorded in a turn of its own, closed like any other, and "
             "the run still ends with agent_end (run_agent, lessons 5 and 7).")
    failed = await lab.drive(harness.run_agent(lab.ScriptedModel([lab.fail("overloaded")]), SYSTEM,
                                               [], [looker()], "Look."))
    t.expect(types(failed), ["agent_start", "turn_start", "message_end", "message_end",
                             "turn_end", "agent_end"],
             "A failed reply ends the turn and the run, balanced (run_agent, lessons 5 and 7).")
    t.expect([lab.shape(stopped[-1]["messages"]), lab.shape(failed[-1]["messages"])],
             ["U A[c1] R(c1) A(error)", "U A(error)"],
             "On every exit, agent_end carries what the run recorded, the stop included "
             "(run_agent, lesson 7).")


@lab_test("Calling run_agent does nothing yet: until the first event is asked for, nothing is "
          "recorded and the model is not called.")
async def test_nothing_happens_until_asked(t):
    model, messages = one_call(), []
    run = harness.run_agent(model, SYSTEM, messages, [looker()], "Read a.py.")
    t.expect([len(messages), len(model.calls)], [0, 0],
             "A generator's body does not start when it is called; the run begins at the first "
             "event (run_agent, lesson 7).")
    events = await lab.drive(run)
    t.expect([len(events), lab.shape(messages)], [12, "U A[c1] R(c1) A"],
             "Driven, the same run does its work (run_agent, lesson 7).")


@lab_test("A consumer that closes the run right after tool_execution_start stops it there: the "
          "tool never runs and the model is not asked again.")
async def test_closing_before_a_tool_runs(t):
    ran, model, messages = [], one_call(), []
    events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker(ran)],
                                               "Read a.py."), close_after=5)
    t.expect([types(events)[-1], ran, len(model.calls), lab.shape(messages)],
             ["tool_execution_start", [], 1, "U A[c1]"],
             "The run does nothing between two events that the consumer did not ask for: "
             "closed at tool_execution_start, the tool does not run (run_agent, lesson 7).")


@lab_test("A consumer that closes the run at the first event after a tool returned finds that "
          "tool's result on the record: nothing is yielded between a tool returning and its "
          "result being recorded.")
async def test_closing_after_a_tool_returned(t):
    ran, model, messages = [], one_call(), []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker(ran)], "Read a.py."),
                    close_after=6)
    t.expect([ran, lab.shape(messages), len(model.calls)], [["a.py"], "U A[c1] R(c1)", 1],
             "Nothing is yielded between a tool returning and its result being recorded, so a "
             "consumer that stops at the first event after the tool ran (here the 6th event of "
             "a run with one call) finds the result on the record: the tool ran, and the "
             "record says so (run_agent, lesson 7).")


@lab_test("The loop draws nothing: a run with a tool call prints nothing at all, and what "
          "happened travels in its events alone.")
async def test_the_loop_draws_nothing(t):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        events = await lab.drive(harness.run_agent(one_call(), SYSTEM, [], [looker()],
                                                   "Read a.py."))
    t.expect([len(events), printed.getvalue()], [12, ""],
             "run_agent reports what happened as events and draws nothing: a print in the loop "
             "forces one frontend's picture on every other. Found: the events of a run with one "
             "call, and what the run printed (run_agent, lesson 7).")


@lab_test("Events are plain data: each one goes through json.dumps and comes back equal.")
async def test_events_are_json(t):
    events = await lab.drive(harness.run_agent(one_call(), SYSTEM, [], [looker()], "Read a.py."))
    t.expect([json.loads(json.dumps(e)) == e for e in events], [True] * 12,
             "Events report what happened as JSON-serialisable dicts, so any frontend, in any "
             "process, can consume them (run_agent, lesson 7).")
    t.expect(sorted(events[6]), ["call", "result", "type"],
             "tool_execution_end has exactly its type, call and result (run_agent, lesson 7).")


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
