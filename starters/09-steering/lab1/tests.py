"""Lesson 9, lab 1: wait for the gap. The tests of steer() and follow_up(): the user's words are
queued at any time and reach the transcript only at the top of a turn, where every call already
has its result.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 9 tests.py
"""
import harness
import lab
from lab.kit import lab_test, tool

LAB = "9.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


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


def user_words(messages):
    return [m["content"] for m in messages if m["role"] == "user"]


@lab_test("The user steers while the first call of a two-call batch is running. The words wait "
          "until both results are in, then open the next turn: U A[c1,c2] R(c1) R(c2) U A.")
async def test_a_steer_waits_for_the_batch(t):
    box = {}

    def during(path):
        if path == "a.py":
            box["h"].steer("Only the tests matter.")
    model = lab.ScriptedModel([looks("a.py", "b.py"), lab.say("Looking at the tests, then.")])
    h = box["h"] = harness.Harness(model, SYSTEM, [looker(during)])
    await lab.drive(h.prompt("Read a.py and b.py."))
    t.expect(lab.shape(h.messages), "U A[c1,c2] R(c1) R(c2) U A",
             "A call and its result stay together (lesson 2), and user messages enter only at "
             "the top of a turn (lesson 7): the steer waits until c2 has its result "
             "(Harness.steer and run_agent, lesson 9).")
    t.expect(user_words(h.messages), ["Read a.py and b.py.", "Only the tests matter."],
             "The steer is recorded as a user message holding exactly its text (Harness.steer, "
             "lesson 9).")


@lab_test("The request after a steer ends with the steer, so the model reads it before it "
          "answers again.")
async def test_the_next_request_ends_with_the_steer(t):
    box = {}

    def during(path):
        if path == "a.py":
            box["h"].steer("Use the new API.")
    model = lab.ScriptedModel([looks("a.py", "b.py"), lab.say("Switching to the new API.")])
    h = box["h"] = harness.Harness(model, SYSTEM, [looker(during)])
    await lab.drive(h.prompt("Read a.py and b.py."))
    last = model.calls[1].messages
    t.expect([lab.shape(last), last[-1]["content"], len(model.calls)],
             ["U A[c1,c2] R(c1) R(c2) U", "Use the new API.", 2],
             "The turn the steer opens sends it as the last message of the request (run_agent, "
             "lesson 9).")


@lab_test("A follow-up sent during a run is answered in that same run, after its final reply: "
          "one agent_end, and the follow-up sits after the answer it waited for.")
async def test_a_follow_up_is_answered_in_the_same_run(t):
    box = {}

    def during(path):
        box["h"].follow_up("Now write the summary.")
    model = lab.ScriptedModel([looks("a.py"), lab.say("a.py defines one class."),
                               lab.say("Summary: one class.")])
    h = box["h"] = harness.Harness(model, SYSTEM, [looker(during)])
    events = await lab.drive(h.prompt("Read a.py."))
    t.expect(lab.shape(h.messages), "U A[c1] R(c1) A U A",
             "A follow-up waits until the run would otherwise end, then opens a turn of its own "
             "(run_agent, lesson 9).")
    t.expect([[e["type"] for e in events].count("agent_end"), lab.shape(events[-1]["messages"])],
             [1, "U A[c1] R(c1) A U A"],
             "It is the same run: one agent_end, carrying both answers (run_agent, lessons 7 and 9).")
    t.expect(user_words(h.messages), ["Read a.py.", "Now write the summary."],
             "The follow-up's words are recorded as given (Harness.follow_up, lesson 9).")


@lab_test("Two steers sent at once arrive one per turn, the older first.")
async def test_two_steers_arrive_one_per_turn(t):
    box = {}

    def during(path):
        box["h"].steer("First: keep it short.")
        box["h"].steer("Second: no new files.")
    model = lab.ScriptedModel([looks("a.py"), lab.say("Short, then."), lab.say("No new files.")])
    h = box["h"] = harness.Harness(model, SYSTEM, [looker(during)])
    await lab.drive(h.prompt("Read a.py."))
    t.expect(lab.shape(h.messages), "U A[c1] R(c1) U A U A",
             "Each ask hands the loop one message, so each steer gets its own turn and its own "
             "answer (Harness._drain, lesson 9).")
    t.expect(user_words(h.messages)[1:], ["First: keep it short.", "Second: no new files."],
             "Queued messages come out oldest first (Harness._drain, lesson 9).")
    t.expect(lab.shape(model.calls[1].messages), "U A[c1] R(c1) U",
             "The second steer is not in the request the first one opened (Harness._drain, "
             "lesson 9).")


@lab_test("A steer sent while nothing runs raises nothing and joins the next prompt's turn, "
          "after the prompt: U U A.")
async def test_a_steer_sent_while_idle(t):
    model = lab.ScriptedModel([lab.say("Fixing the login page, in TypeScript.")])
    h = harness.Harness(model, SYSTEM, [])
    h.steer("Use TypeScript.")
    t.expect([lab.shape(h.messages), len(model.calls)], ["", 0],
             "Steering only queues: nothing is recorded and nobody is asked (Harness.steer, "
             "lesson 9).")
    await lab.drive(h.prompt("Fix the login page."))
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             ["U U A", ["Fix the login page.", "Use TypeScript."]],
             "Steering waiting when a run begins enters in the prompt's turn, after the prompt "
             "(run_agent, lesson 9).")
    t.expect(lab.shape(model.calls[0].messages), "U U",
             "The first request carries both (run_agent, lesson 9).")


@lab_test("A follow-up sent while nothing runs waits for the next run, and is taken up after "
          "that run's answer.")
async def test_a_follow_up_sent_while_idle(t):
    model = lab.ScriptedModel([lab.say("The login page is fixed."), lab.say("Tests added.")])
    h = harness.Harness(model, SYSTEM, [])
    h.follow_up("Then add a test.")
    t.expect(lab.shape(h.messages), "", "Queuing a follow-up records nothing (Harness.follow_up, "
                                        "lesson 9).")
    events = await lab.drive(h.prompt("Fix the login page."))
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             ["U A U A", ["Fix the login page.", "Then add a test."]],
             "A follow-up is asked for only when the run would end, so it comes after the "
             "prompt's answer (run_agent, lesson 9).")
    t.expect([e["type"] for e in events].count("agent_end"), 1, "All in one run (lesson 9).")


@lab_test("A follow-up queued during a run whose last reply fails is not lost: that run ends "
          "at the failure, and the next run takes the follow-up up after its own answer.")
async def test_a_follow_up_outlives_a_failed_run(t):
    box = {}

    def during(path):
        box["h"].follow_up("And the README.")
    model = lab.ScriptedModel([looks("a.py"), lab.fail("overloaded"), lab.say("Back again."),
                               lab.say("README read.")])
    h = box["h"] = harness.Harness(model, SYSTEM, [looker(during)])
    await lab.drive(h.prompt("Read a.py."))
    t.expect([lab.shape(h.messages), len(model.calls)], ["U A[c1] R(c1) A(error)", 2],
             "Nobody is asked for more after a failed reply: the run ends there (run_agent, "
             "lessons 5 and 9).")
    await lab.drive(h.prompt("Try again."))
    t.expect(lab.shape(h.messages), "U A[c1] R(c1) A(error) U A U A",
             "The queue outlives the run: the next run answers its prompt, then the follow-up "
             "(Harness.follow_up, lesson 9).")
    t.expect(user_words(h.messages), ["Read a.py.", "Try again.", "And the README."],
             "The follow-up is delivered once, after the new prompt (lesson 9).")


@lab_test("A steer the loop has asked for but not yet recorded survives a run closed in "
          "between: the consumer closes the run at the turn_start after the steer was asked "
          "for, and the next run delivers the steer right after its prompt.")
async def test_a_steer_survives_a_run_closed_before_it_is_recorded(t):
    box = {}

    def during(path):
        box["h"].steer("Only the tests matter.")
    model = lab.ScriptedModel([looks("a.py"), lab.forever(lambda request: lab.say("Noted."))])
    h = box["h"] = harness.Harness(model, SYSTEM, [looker(during)])
    # agent_start, turn_start, U, A[c1], tool_execution_start, R(c1), tool_execution_end,
    # turn_end (the loop asks for steering here), turn_start: closed before the steer's turn
    # records it
    events = await lab.drive(h.prompt("Read a.py."), close_after=9)
    t.expect([[e["type"] for e in events][-2:], lab.shape(h.messages)],
             [["turn_end", "turn_start"], "U A[c1] R(c1)"],
             "The run was closed at the turn_start after c1's turn: the steer had been asked "
             "for, and was not yet recorded (run_agent, lesson 9).")
    await lab.drive(h.prompt("Where were we?"))
    t.expect([lab.shape(h.messages), user_words(h.messages)],
             ["U A[c1] R(c1) U U A", ["Read a.py.", "Where were we?", "Only the tests matter."]],
             "A queued message leaves its queue only once it is on the record: the steer, "
             "handed to a run closed before recording it, must still be queued, so the next "
             "run delivers it after its prompt (Harness._drain leaves it queued; _delivered "
             "takes it off; lesson 9).")


@lab_test("The loop asks for steering only when every call made so far in the run has its "
          "result: when the run begins, and after each turn of a reply that did not fail.")
async def test_steering_is_asked_for_only_in_the_gaps(t):
    seen, messages = [], []

    def get_steering():
        answered = {m["tool_call_id"] for m in messages if m["role"] == "toolResult"}
        asked = [c["id"] for m in messages if m["role"] == "assistant"
                 for c in harness.tool_calls(m)]
        seen.append([lab.shape(messages), [c for c in asked if c not in answered]])
        return []
    model = lab.ScriptedModel([looks("a.py", "b.py"), looks("c.py"), lab.say("Read all three.")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read the files.",
                                      get_steering=get_steering))
    t.expect(seen, [["", []], ["U A[c1,c2] R(c1) R(c2)", []],
                    ["U A[c1,c2] R(c1) R(c2) A[c3] R(c3)", []],
                    ["U A[c1,c2] R(c1) R(c2) A[c3] R(c3) A", []]],
             "Each row: [the record when get_steering was called, calls still without a "
             "result]. Steering is asked for at the start and after each turn_end, never "
             "between a call and its result (run_agent, lesson 9).")
    model, messages, seen[:] = lab.ScriptedModel([lab.fail("overloaded", lab.call("look", {"path": "a.py"}))]), [], []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read a.py.",
                                      get_steering=get_steering))
    t.expect(seen, [["", []]], "After a failed reply nobody is asked, not even with a call in "
                               "it left unanswered (run_agent, lessons 5 and 9).")


@lab_test("The loop asks for follow-ups only when the run would end: never after a turn whose "
          "reply had calls.")
async def test_follow_ups_are_asked_for_only_at_the_end(t):
    seen, messages, queue = [], [], [harness.user_message("Now check c.py.")]

    def get_follow_ups():
        seen.append(lab.shape(messages))
        return [queue.pop()] if queue else []
    model = lab.ScriptedModel([looks("a.py"), looks("b.py"), lab.say("Both read."),
                               looks("c.py"), lab.say("c.py read too.")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read a.py and b.py.",
                                      get_follow_ups=get_follow_ups))
    t.expect(seen, ["U A[c1] R(c1) A[c2] R(c2) A",
                    "U A[c1] R(c1) A[c2] R(c2) A U A[c3] R(c3) A"],
             "Each entry is the record when get_follow_ups was called: only after a reply with "
             "no calls, once per time the run would end (run_agent, lesson 9).")
    t.expect(lab.shape(messages), "U A[c1] R(c1) A[c2] R(c2) A U A[c3] R(c3) A",
             "The follow-up's turn runs its calls like any other (run_agent, lesson 9).")


@lab_test("Without get_steering and get_follow_ups, run_agent runs exactly as in lesson 8: the "
          "same record and the same twelve events.")
async def test_without_the_callables_nothing_changes(t):
    messages = []
    model = lab.ScriptedModel([looks("a.py"), lab.say("Read it.")])
    events = await lab.drive(harness.run_agent(model, SYSTEM, messages, [looker()], "Read a.py."))
    t.expect(lab.shape(messages), "U A[c1] R(c1) A",
             "No callables means nobody to ask (run_agent, lesson 9).")
    t.expect([e["type"] for e in events],
             ["agent_start", "turn_start", "message_end", "message_end", "tool_execution_start",
              "message_end", "tool_execution_end", "turn_end", "turn_start", "message_end",
              "turn_end", "agent_end"],
             "The events of a one-call run are unchanged (run_agent, lessons 7 and 9).")
    messages = []
    model = lab.ScriptedModel([lab.say("Hello.")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [], "Hi.", get_steering=None,
                                      get_follow_ups=None))
    t.expect(lab.shape(messages), "U A", "Passing None for both is the same as leaving them out "
                                         "(run_agent, lesson 9).")


@lab_test("In a run steered again and again (from inside tools, and by the consumer between "
          "events) with a follow-up as well, every request the model gets is a valid transcript.")
async def test_every_request_of_a_steered_run_is_valid(t):
    box, steered = {}, []

    def during(path):
        box["h"].steer(f"While {path} was read.")
    model = lab.ScriptedModel([looks("a.py", "b.py", "c.py"), looks("d.py"),
                               lab.forever(lambda request: lab.say("Noted."))])
    h = box["h"] = harness.Harness(model, SYSTEM, [looker(during)])
    h.follow_up("Finally, sum it up.")

    def on_event(event):
        if event["type"] in ("tool_execution_start", "turn_start") and len(steered) < 3:
            steered.append(event["type"])
            h.steer(f"Between events ({event['type']}).")
    await lab.drive(h.prompt("Read the files."), on_event=on_event)
    t.expect([lab.validate(request.messages) for request in model.calls], [[]] * len(model.calls),
             "Every request passes lab.validate: steering never splits a call from its result "
             "(run_agent, lesson 9).")
    t.expect([len(model.calls), lab.shape(h.messages)],
             [9, "U A[c1,c2,c3] R(c1) R(c2) R(c3) U A[c4] R(c4) U A U A U A U A U A U A U A"],
             "All seven steers and the follow-up were delivered, one per turn (lesson 9).")
    t.expect(user_words(h.messages)[-1], "Finally, sum it up.",
             "The follow-up comes last, once no steering is left (run_agent, lesson 9).")
