"""Lesson 10, lab 1: repair the view. The tests of INTERRUPTED, repair_tool_history and the
repairing context_for_model: every request pairs each call with one result, and the record
stays as it happened.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 10 tests.py
"""
import copy

import harness
import lab
from lab.kit import lab_test, raised, tool

LAB = "10.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
WORDS = ("Tool call interrupted: no result was recorded. It may not have run, or may have run "
         "partly; check before repeating it.")


def asks(*ids, text=None):
    """An assistant message that makes one `look` call per id, in order."""
    parts = ([text] if text else []) + [lab.call("look", {"path": f"{i}.py"}, id=i) for i in ids]
    return lab.reply(*parts)


def result(call_id, content=None):
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": "look",
            "content": content if content is not None else f"contents of {call_id}.py",
            "is_error": False}


def looker(cut_on=None):
    def fn(arguments):
        if arguments["path"] == cut_on:
            raise lab.PowerCut("the power went off")
        return "contents of " + arguments["path"]
    return tool("look", fn, PATH)


def contents(messages):
    return [m["content"] for m in messages if m["role"] == "toolResult"]


@lab_test("INTERRUPTED is exactly the sentence the model reads for a call whose result was never "
          "recorded.")
async def test_interrupted_is_exact(t):
    t.expect(harness.INTERRUPTED, WORDS, "INTERRUPTED's text is a contract: the model reads it "
                                         "and the tests compare it (lesson 10).")


@lab_test("A list that is already valid comes back equal, as a new list holding the very same "
          "message objects.")
async def test_a_valid_list_comes_back_equal(t):
    record = [harness.user_message("Read a and b."), asks("c1", "c2"), result("c1"), result("c2"),
              lab.say("Both read."), harness.user_message("Thanks.")]
    view = harness.repair_tool_history(record)
    t.expect(lab.shape(view), "U A[c1,c2] R(c1) R(c2) A U",
             "Nothing to repair means nothing changes (repair_tool_history, lesson 10).")
    t.expect([view == record, view is record, [a is b for a, b in zip(view, record)]],
             [True, False, [True] * 6],
             "[equal, the same list, each message the same object]: a new list, no copies of "
             "the messages (repair_tool_history, lesson 10).")


@lab_test("A call with no result gets one right after it: INTERRUPTED, an error, with the call's "
          "id and tool name.")
async def test_a_missing_result_is_filled_in(t):
    record = [harness.user_message("Read a."), asks("c1"), harness.user_message("Are you there?")]
    view = harness.repair_tool_history(record)
    t.expect(lab.shape(view), "U A[c1] R(c1) U",
             "The invented result goes straight after its call (repair_tool_history, lesson 10).")
    t.expect(view[2], {"role": "toolResult", "tool_call_id": "c1", "tool_name": "look",
                       "content": WORDS, "is_error": True},
             "The invented result says the call may or may not have run, and is an error "
             "(repair_tool_history, lesson 10).")
    t.expect(lab.shape(record), "U A[c1] U", "The record is not changed (lesson 10).")


@lab_test("Results recorded out of order are put back in the order of the calls in their "
          "message.")
async def test_results_are_put_in_call_order(t):
    record = [harness.user_message("Read three."), asks("c9", "c2", "c5"), result("c5"),
              result("c9"), result("c2"), lab.say("Done.")]
    view = harness.repair_tool_history(record)
    t.expect(lab.shape(view), "U A[c9,c2,c5] R(c9) R(c2) R(c5) A",
             "Call order, not id order and not recorded order (repair_tool_history, lesson 10).")
    t.expect(contents(view), ["contents of c9.py", "contents of c2.py", "contents of c5.py"],
             "Each call gets the result recorded for it (repair_tool_history, lesson 10).")


@lab_test("A result separated from its call by a user message is moved back next to its call.")
async def test_a_separated_result_is_moved_back(t):
    record = [harness.user_message("Read a."), asks("c1"), harness.user_message("Hurry up."),
              result("c1"), lab.say("Read it.")]
    view = harness.repair_tool_history(record)
    t.expect(lab.shape(view), "U A[c1] R(c1) U A",
             "A result belongs right after its call (repair_tool_history, lesson 10).")
    t.expect([view[2] is record[3], contents(view)], [True, ["contents of c1.py"]],
             "It is the recorded result that moves, not a new one (repair_tool_history, "
             "lesson 10).")


@lab_test("With two results recorded for one call, the first is kept and the second dropped.")
async def test_the_first_of_two_results_wins(t):
    record = [harness.user_message("Read a."), asks("c1"), result("c1", "first answer"),
              result("c1", "second answer"), lab.say("Read it.")]
    view = harness.repair_tool_history(record)
    t.expect([lab.shape(view), contents(view)], ["U A[c1] R(c1) A", ["first answer"]],
             "One result per call, the first recorded (repair_tool_history, lesson 10).")


@lab_test("A result that no call asked for is dropped, and no call is made up for it.")
async def test_an_orphan_result_is_dropped(t):
    record = [harness.user_message("Hello."), result("c7", "from nowhere"), lab.say("Hi."),
              harness.user_message("Read a."), asks("c1"), result("c1"), lab.say("Read it.")]
    view = harness.repair_tool_history(record)
    t.expect([lab.shape(view), contents(view)], ["U A U A[c1] R(c1) A", ["contents of c1.py"]],
             "Its call's arguments are unknown, so the result goes (repair_tool_history, "
             "lesson 10).")
    t.expect(len(record), 7, "The record keeps all seven messages (lesson 10).")


@lab_test("Repairing twice gives what repairing once gave, and the list handed in is left exactly "
          "as it was.")
async def test_repair_is_idempotent_and_pure(t):
    record = [harness.user_message("Read."), asks("c1", "c2", "c3"), result("c3"), result("c7"),
              harness.user_message("Well?"), result("c1"), result("c1", "again")]
    before = copy.deepcopy(record)
    once = harness.repair_tool_history(record)
    twice = harness.repair_tool_history(once)
    t.expect([lab.shape(once), lab.shape(twice)],
             ["U A[c1,c2,c3] R(c1) R(c2) R(c3) U", "U A[c1,c2,c3] R(c1) R(c2) R(c3) U"],
             "A repaired list is valid, so repairing it again changes nothing "
             "(repair_tool_history, lesson 10).")
    t.expect(contents(twice), ["contents of c1.py", WORDS, "contents of c3.py"],
             "c1 and c3 keep their recorded results; c2 is interrupted (lesson 10).")
    t.expect([twice == once, record == before, lab.shape(record)],
             [True, True, "U A[c1,c2,c3] R(c3) R(c7) U R(c1) R(c1)"],
             "repair_tool_history is pure: the input list and its messages are unchanged "
             "(lesson 10).")
    t.expect(lab.validate(once), [], "The repaired list passes lab.validate (lesson 10).")


@lab_test("context_for_model filters out empty failed replies and then repairs what is left; the "
          "record it was given does not change.")
async def test_context_for_model_filters_then_repairs(t):
    record = [harness.user_message("Read a."), asks("c1"), result("c1"),
              harness.error_message("overloaded"), harness.user_message("Again, with b."),
              asks("c2", text="Reading b."), harness.error_message("overloaded")]
    before = copy.deepcopy(record)
    view = harness.context_for_model(record)
    t.expect(lab.shape(view), "U A[c1] R(c1) U A[c2] R(c2)",
             "The two empty error messages go (lesson 5), then c2 gets its interrupted result "
             "(context_for_model, lesson 10).")
    t.expect([contents(view), lab.validate(view)], [["contents of c1.py", WORDS], []],
             "The view is a valid request (context_for_model, lesson 10).")
    t.expect([record == before, lab.shape(record)],
             [True, "U A[c1] R(c1) A(error) U A[c2] A(error)"],
             "Only the view is repaired; the record says what happened (context_for_model, "
             "lesson 10).")


@lab_test("A consumer that closes the run right after tool_execution_start leaves U A[c1] on the "
          "record; the next request shows c1 as interrupted and is valid.")
async def test_closing_mid_call_leaves_a_hole_the_view_repairs(t):
    ran = []
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})),
                               lab.say("Shall I read a.py again?")])
    h = harness.Harness(model, SYSTEM, [tool("look", lambda a: ran.append(1) or "text", PATH)])
    events = await lab.drive(h.prompt("Read a.py."), close_after=5)
    t.expect([events[-1]["type"], lab.shape(h.messages), ran],
             ["tool_execution_start", "U A[c1]", []],
             "Closed between events, the run stops where it is, and nothing is written into "
             "the record on its way out: c1 has no result there, and the tool never ran "
             "(lessons 7 and 10).")
    await lab.drive(h.prompt("Go on."))
    sent = model.calls[1].messages
    t.expect([lab.shape(sent), sent[2]["content"], sent[2].get("is_error"), lab.validate(sent)],
             ["U A[c1] R(c1) U", WORDS, True, []],
             "The next request answers c1 as interrupted, so the provider accepts it "
             "(context_for_model, lesson 10).")
    t.expect(lab.shape(h.messages), "U A[c1] U A",
             "The record still has no result for c1: nothing was written into it (lesson 10).")


@lab_test("A PowerCut in c2 of the batch [c1, c2, c3] leaves U A[c1,c2,c3] R(c1); the next "
          "request holds c1's real result and interrupted ones for c2 and c3.")
async def test_a_power_cut_mid_batch(t):
    model = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": p})
                                           for p in ("a.py", "b.py", "c.py")]),
                               lab.say("Back. Which files are still to read?")])
    h = harness.Harness(model, SYSTEM, [looker(cut_on="b.py")])
    t.expect(await raised(lambda: lab.drive(h.prompt("Read all three."))),
             "PowerCut: the power went off", "The power cut ends the run (run_tool, lesson 4).")
    t.expect(lab.shape(h.messages), "U A[c1,c2,c3] R(c1)",
             "Only c1 finished before the cut, and nothing is written into the record after "
             "it: c2 and c3 have no results there (lesson 10).")
    await lab.drive(h.prompt("Are you back?"))
    sent = model.calls[1].messages
    t.expect([lab.shape(sent), contents(sent), lab.validate(sent)],
             ["U A[c1,c2,c3] R(c1) R(c2) R(c3) U", ["contents of a.py", WORDS, WORDS], []],
             "c1 keeps its real result; c2 and c3 are interrupted (context_for_model, lesson 10).")


@lab_test("A failed reply that said something and asked for a tool stays in every later request, "
          "its call answered as interrupted, and every request is valid.")
async def test_a_failed_reply_with_a_call(t):
    ran = []
    model = lab.ScriptedModel([lab.fail("connection reset", "Let me look.",
                                        lab.call("look", {"path": "a.py"})),
                               lab.say("Trying again."), lab.say("Still here.")])
    h = harness.Harness(model, SYSTEM, [tool("look", lambda a: ran.append(1) or "text", PATH)])
    await lab.drive(h.prompt("Read a.py."))
    await lab.drive(h.prompt("Again?"))
    await lab.drive(h.prompt("And now?"))
    t.expect([lab.shape(h.messages), ran], ["U A[c1](error) U A U A", []],
             "A failed reply is recorded and its call never runs, and no result is written "
             "into the record for it (run_agent, lessons 5 and 10).")
    t.expect([lab.shape(request.messages) for request in model.calls],
             ["U", "U A[c1](error) R(c1) U", "U A[c1](error) R(c1) U A U"],
             "The failed reply has words, so it stays in the view, and its call is answered as "
             "interrupted in every later request (context_for_model, lesson 10).")
    t.expect([lab.validate(request.messages) for request in model.calls], [[], [], []],
             "Every request passes lab.validate (lesson 10).")
