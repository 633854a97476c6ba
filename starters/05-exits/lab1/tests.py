"""Lesson 5, lab 1: every way out. The tests of error_message, the max_turns check at the top of
a turn, a failed reply, and context_for_model, the view each request carries.

A run ends in one of three ways: a reply asks for nothing, max_turns model calls have been
made, or a reply failed. Each is recorded, never raised.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 5 tests.py
"""
import harness
import lab
from lab.kit import lab_test, raised, tool

LAB = "5.1"
SYSTEM = "You help with a small project."


def ticker(ran=None):
    """A tool `tick` that answers "tock", noting each run in `ran`."""
    return tool("tick", lambda arguments: (ran.append(1) if ran is not None else None) or "tock")


def endless():
    """A model that asks for one more tick on every request. (After 50 requests it gives up
    and answers, so that a run with no working limit fails its test instead of running for
    ever.)"""
    def again(request):
        if sum(m["role"] == "toolResult" for m in request.messages) >= 50:
            return lab.say("I give up.")
        return lab.reply(lab.call("tick"))
    return lab.ScriptedModel([lab.forever(again)])


async def run(model, tools, prompt, messages=None, **options):
    messages = [] if messages is None else messages
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, prompt, **options))
    return messages


@lab_test("error_message(\"boom\") is exactly the assistant message {\"role\": \"assistant\", "
          "\"content\": [], \"stop_reason\": \"error\", \"error_message\": \"boom\"}.")
async def test_error_message(t):
    t.expect(harness.error_message("boom"),
             {"role": "assistant", "content": [], "stop_reason": "error", "error_message": "boom"},
             "An ending is recorded as an assistant message with no content, labelled \"error\", "
             "saying why (error_message, lesson 5).")
    t.expect(lab.show([harness.error_message("Agent stopped after max_turns=2")]),
             "assistant -> (nothing)  [error: Agent stopped after max_turns=2]",
             "As lab.show prints it (error_message, lesson 5).")


@lab_test("A model that asks for a tool on every reply, run with max_turns=3, is called 3 times, "
          "and the record ends with an error message saying \"Agent stopped after "
          "max_turns=3\".")
async def test_max_turns_stops_an_endless_run(t):
    model, messages = endless(), []
    t.expect(await raised(lambda: run(model, [ticker()], "Keep going.", messages, max_turns=3)),
             None, "Reaching max_turns ends the run with a message on the record, never raised: "
                   "run_agent returns normally (run_agent, lesson 5).")
    t.expect(len(model.calls), 3, "max_turns counts model calls: three, then no more, so its "
                                  "check sits at the top of a turn, before the model call "
                                  "(run_agent, lesson 5).")
    t.expect(lab.shape(messages), "U A[c1] R(c1) A[c2] R(c2) A[c3] R(c3) A(error)",
             "The stop is recorded as the run's last message, after every call of the last "
             "turn has its result (run_agent, lesson 5).")
    t.expect(messages[-1], harness.error_message("Agent stopped after max_turns=3"),
             "The last message is error_message(f\"Agent stopped after max_turns={max_turns}\") "
             "(run_agent, lesson 5).")


@lab_test("With max_turns=1 the record is U A[c1] R(c1) A(error): the check sits at the top of "
          "a turn, so the last batch is answered before the run stops.")
async def test_the_last_batch_is_answered(t):
    model, ran = endless(), []
    messages = await run(model, [ticker(ran)], "Tick once.", max_turns=1)
    t.expect(lab.shape(messages), "U A[c1] R(c1) A(error)",
             "The max_turns check belongs at the top of a turn, before the model call; one "
             "placed between a reply and its calls would leave c1 without a result (run_agent, "
             "lesson 5).")
    t.expect([len(model.calls), len(ran)], [1, 1],
             "One request, and its call ran; the stop itself costs no request (run_agent, lesson "
             "5).")
    t.expect(lab.validate(messages, record=True), [], "Every call of the record has its result "
                                                      "(run_agent, lesson 5).")


@lab_test("max_turns counts model calls, not tools: two turns of three calls each, with "
          "max_turns=2, make two requests and run six tools.")
async def test_turns_are_model_calls(t):
    def threes(request):
        if sum(m["role"] == "toolResult" for m in request.messages) >= 60:
            return lab.say("I give up.")
        return lab.reply(*[lab.call("tick")] * 3)
    model = lab.ScriptedModel([lab.forever(threes)])
    ran = []
    messages = await run(model, [ticker(ran)], "Tick in threes.", max_turns=2)
    t.expect([len(model.calls), len(ran), lab.shape(messages[-1:])], [2, 6, "A(error)"],
             "A turn is one model call with all of its calls; max_turns limits requests "
             "(run_agent, lesson 5).")


@lab_test("With max_turns=None there is no limit: a model that asks 20 times and then answers "
          "is called 21 times, and the run ends normally.")
async def test_no_limit(t):
    def twenty(request):
        done = sum(m["role"] == "toolResult" for m in request.messages)
        return lab.reply(lab.call("tick")) if done < 20 else lab.say("Twenty ticks.")
    model = lab.ScriptedModel([lab.forever(twenty)])
    messages = await run(model, [ticker()], "Tick twenty times.")
    t.expect([len(model.calls), lab.shape(messages[-2:])], [21, "R(c20) A"],
             "max_turns=None means no limit at all (run_agent, lesson 5).")
    t.expect(messages[-1]["stop_reason"], "stop", "The run ended on the model's answer (run_agent, "
                                                  "lesson 5).")


@lab_test("A run that finishes in exactly max_turns turns ends on its answer, not on an error.")
async def test_finishing_on_the_last_turn(t):
    model = lab.ScriptedModel([lab.reply(lab.call("tick")), lab.say("Done in two.")])
    messages = await run(model, [ticker()], "Tick, then answer.", max_turns=2)
    t.expect(lab.shape(messages), "U A[c1] R(c1) A",
             "Two turns are allowed and two are used: no stop message (run_agent, lesson 5).")
    t.expect(harness.text_of(messages[-1]), "Done in two.", "The answer is the model's (run_agent, "
                                                            "lesson 5).")


@lab_test("A provider failure, lab.fail(\"overloaded\"), is recorded as U A(error) with that "
          "error_message, after one request; the run ends without raising.")
async def test_a_failed_reply_ends_the_run(t):
    model = lab.ScriptedModel([lab.fail("overloaded"), lab.say("never")])
    messages = []
    t.expect(await raised(lambda: run(model, [ticker()], "Hello?", messages)), None,
             "A failed reply is recorded, never raised (run_agent, lesson 5).")
    t.expect([lab.shape(messages), messages[-1].get("error_message"), len(model.calls)],
             ["U A(error)", "overloaded", 1],
             "The failed reply is the run's last message, and nobody is asked again; no "
             "retries (run_agent, lesson 5).")


@lab_test("A failed reply that carries a call has none of its calls run, and no further request "
          "is made.")
async def test_a_failed_reply_is_not_acted_on(t):
    ran = []
    model = lab.ScriptedModel([lab.fail("connection reset", lab.call("tick")), lab.say("never")])
    messages = await run(model, [ticker(ran)], "Tick.")
    t.expect([lab.shape(messages), ran, len(model.calls)], ["U A[c1](error)", [], 1],
             "Nothing in a failed reply is acted on: its calls may be cut off half way "
             "(run_agent, lesson 5).")


@lab_test("An unknown tool is not a way out: its error result goes back to the model and the "
          "run goes on to an answer.")
async def test_an_unknown_tool_is_not_an_exit(t):
    model = lab.ScriptedModel([lab.reply(lab.call("nosuch")), lab.reply(lab.call("tick")),
                               lab.say("Ticked.")])
    messages = await run(model, [ticker()], "Tick.", max_turns=5)
    t.expect([lab.shape(messages), messages[2]["content"]],
             ["U A[c1] R(c1) A[c2] R(c2) A", "Tool nosuch not found"],
             "A result informs the model; it does not end the run (run_tool, lesson 4; "
             "run_agent, lesson 5).")


@lab_test("context_for_model drops an empty error message, keeps an error message that has "
          "words, returns a new list, and leaves the record as it was.")
async def test_context_for_model(t):
    cut_off = lab.fail("connection reset", "I was saying")
    empty = harness.error_message("overloaded")
    record = [harness.user_message("Hi."), cut_off, harness.user_message("Again?"), empty]
    before = lab.show(record, stop_reason=True)
    view = harness.context_for_model(record)
    t.expect(lab.shape(view), "U A(error) U",
             "The view leaves out an empty failed reply, which a provider refuses, and keeps "
             "one that has words (context_for_model, lesson 5).")
    t.expect([view is record, lab.show(record, stop_reason=True) == before, len(record)],
             [False, True, 4],
             "The view is a new list; the record is untouched: it says what happened "
             "(context_for_model, lesson 5).")
    t.expect(lab.shape(harness.context_for_model([harness.user_message("Hi."), lab.say("Yes.")])),
             "U A", "A record with nothing to leave out comes back whole (context_for_model, "
                    "lesson 5).")


@lab_test("After a provider failure, the next run's request leaves out the empty error message "
          "and is one a provider accepts; the record keeps it.")
async def test_the_request_after_a_failure(t):
    model = lab.ScriptedModel([lab.fail("overloaded"), lab.say("Back now.")])
    messages = await run(model, [ticker()], "Hello?")
    await run(model, [ticker()], "Are you there?", messages)
    sent = model.calls[1].messages
    t.expect(lab.shape(sent), "U U",
             "Every request carries the view, context_for_model(messages), not the record "
             "(run_agent, lesson 5).")
    t.expect(lab.validate(sent), [], "That request is one a provider accepts (context_for_model, "
                                     "lesson 5).")
    t.expect(lab.shape(messages), "U A(error) U A", "The record keeps the failure "
                                                    "(context_for_model, lesson 5).")


@lab_test("After a max_turns stop, the next run's request is one a provider accepts.")
async def test_the_request_after_a_max_turns_stop(t):
    model = lab.ScriptedModel([lab.reply(lab.call("tick")), lab.reply(lab.call("tick")),
                               lab.say("Stopped, as asked.")])
    messages = await run(model, [ticker()], "Tick.", max_turns=1)
    await run(model, [ticker()], "Why did you stop?", messages)
    sent = model.calls[1].messages
    t.expect(lab.shape(sent), "U A[c1] R(c1) U",
             "The empty stop message is left out of the request (context_for_model, lesson 5).")
    t.expect(lab.validate(sent), [], "That request is one a provider accepts (context_for_model, "
                                     "lesson 5).")
