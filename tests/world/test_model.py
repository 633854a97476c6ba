"""lab.ScriptedModel and lab.Request."""
import asyncio

import pytest

import lab

SYSTEM = "You are terse."


def user(text):
    return {"role": "user", "content": text}


class Token:
    def __init__(self, cancelled=False):
        self.cancelled = cancelled

    def is_cancelled(self):
        return self.cancelled


ABORTED = {"role": "assistant", "content": [], "stop_reason": "aborted",
           "error_message": "Operation aborted"}


def test_complete_answers_request_n_with_entry_n_and_records_each_request():
    model = lab.ScriptedModel([lab.say("one"), lab.say("two")])
    tools = [{"name": "read", "description": "d", "parameters": {}}]
    assert model.complete(SYSTEM, [user("a")], tools) == lab.say("one")
    assert model.complete(SYSTEM, [user("a"), lab.say("one"), user("b")]) == lab.say("two")
    first, second = model.calls
    assert (first.system, first.messages, first.tools, first.signal) == (
        SYSTEM, [user("a")], tools, None)
    assert second.tools == [] and len(second.messages) == 3


def test_a_request_keeps_what_was_sent_even_if_the_list_changes_afterwards():
    messages = [user("a")]
    model = lab.ScriptedModel([lab.say("one")])
    model.complete(SYSTEM, messages)
    messages.append(user("later"))
    messages[0]["content"] = "edited"
    assert model.calls[0].messages == [user("a")]


def test_tuples_are_accepted_as_messages_and_tools():
    model = lab.ScriptedModel([lab.say("ok")])
    model.complete(SYSTEM, (user("a"),), ())
    assert model.calls[0].messages == [user("a")]


def test_call_ids_are_numbered_per_model_across_requests_and_explicit_ids_are_kept():
    model = lab.ScriptedModel([
        lab.reply(lab.call("ls"), lab.call("cat")),
        lab.reply(lab.call("rm", id="mine")),
        lab.reply(lab.call("ls")),
    ])
    ids = [[b["id"] for b in model.complete(SYSTEM, [user("x")])["content"]] for _ in range(3)]
    assert ids == [["c1", "c2"], ["mine"], ["c4"]]


def test_replies_are_copies_and_the_script_is_never_changed():
    entry = lab.reply(lab.call("ls"))
    model = lab.ScriptedModel([entry, entry])
    first = model.complete(SYSTEM, [user("x")])
    first["content"].clear()
    second = model.complete(SYSTEM, [user("x")])
    assert entry["content"][0]["id"] is None
    assert second["content"][0]["id"] == "c2"


def test_a_function_entry_answers_one_request_with_the_request_in_hand():
    seen = []

    def answer(request):
        seen.append(request)
        return lab.say(f"{len(request.messages)} messages")

    model = lab.ScriptedModel([answer, lab.say("next")])
    assert model.complete(SYSTEM, [user("a"), lab.say("b"), user("c")]) == lab.say("3 messages")
    assert model.complete(SYSTEM, [user("a")]) == lab.say("next")
    assert seen == [model.calls[0]]


def test_forever_answers_every_request_from_its_place_on():
    model = lab.ScriptedModel([lab.say("first"),
                               lab.forever(lambda r: lab.reply(lab.call("ls")))])
    replies = [model.complete(SYSTEM, [user("x")]) for _ in range(4)]
    assert replies[0] == lab.say("first")
    assert [r["content"][0]["id"] for r in replies[1:]] == ["c1", "c2", "c3"]


def test_an_exhausted_script_says_which_request_and_shows_it():
    model = lab.ScriptedModel([lab.say("one"), lab.say("two")])
    model.complete(SYSTEM, [user("a")])
    model.complete(SYSTEM, [user("a")])
    with pytest.raises(lab.ScriptExhausted) as caught:
        model.complete(SYSTEM, [user("Tidy up."), lab.say("Done.")])
    message = str(caught.value)
    assert message.startswith(
        "ScriptedModel: request 3 has no scripted reply (the script has 2)")
    assert 'user -> "Tidy up."\nassistant -> "Done."' in message
    assert "lab.forever" in message
    assert len(model.calls) == 3


async def test_acomplete_answers_after_latency_turns():
    for latency in (0, 1, 3):
        model = lab.ScriptedModel([lab.say("ok")], latency=latency)
        task = asyncio.ensure_future(model.acomplete(SYSTEM, [user("x")], []))
        turns = 0
        await asyncio.sleep(0)  # let the task reach its first await
        while not task.done():
            await lab.tick()
            turns += 1
        assert task.result() == lab.say("ok")
        assert turns == latency


async def test_a_signal_set_on_the_way_in_gets_the_aborted_reply_at_once():
    model = lab.ScriptedModel([lab.say("never sent"), lab.say("second")], latency=5)
    reply = await model.acomplete(SYSTEM, [user("x")], [], Token(cancelled=True))
    assert reply == ABORTED
    assert model.calls[0].signal.is_cancelled()
    # the stopped request used up entry 1: request 2 gets entry 2
    assert await model.acomplete(SYSTEM, [user("x")], []) == lab.say("second")


async def test_a_stop_while_the_request_is_on_its_way_ends_it_aborted():
    token = Token()
    model = lab.ScriptedModel([lab.reply(lab.call("rm"))], latency=3)
    task = asyncio.ensure_future(model.acomplete(SYSTEM, [user("x")], [], signal=token))
    await lab.tick()
    token.cancelled = True
    await lab.ticks(3)
    assert task.done() and task.result() == ABORTED


async def test_a_model_that_does_not_hear_stop_answers_as_scripted_after_its_latency():
    reply = lab.reply(lab.call("rm"))
    for cancelled_on_the_way_in in (True, False):
        token = Token(cancelled=cancelled_on_the_way_in)
        model = lab.ScriptedModel([reply], latency=3, hears_stop=False)
        task = asyncio.ensure_future(model.acomplete(SYSTEM, [user("x")], [], signal=token))
        await lab.tick()
        token.cancelled = True
        await lab.ticks(2)
        assert not task.done(), "it still waits its three turns"
        await lab.tick()
        assert task.done() and task.result() == {**reply, "content": [
            {**reply["content"][0], "id": "c1"}]}
        assert model.calls[0].signal is token, "the signal is recorded, though never read"


@pytest.mark.parametrize("hears_stop", [0, 1, "no", None])
def test_hears_stop_is_true_or_false(hears_stop):
    with pytest.raises(ValueError, match="hears_stop"):
        lab.ScriptedModel([], hears_stop=hears_stop)


async def test_an_aborted_reply_is_a_fresh_copy_each_time():
    model = lab.ScriptedModel([], latency=0)
    first = await model.acomplete(SYSTEM, [user("x")], [], Token(True))
    first["content"].append("junk")
    assert await model.acomplete(SYSTEM, [user("x")], [], Token(True)) == ABORTED


async def test_an_aborted_request_past_the_script_does_not_raise():
    model = lab.ScriptedModel([])
    assert await model.acomplete(SYSTEM, [user("x")], [], Token(True)) == ABORTED


async def test_complete_and_acomplete_give_identical_replies():
    script = [lab.reply("a", lab.call("ls")), lab.say("b")]
    plain, colour = lab.ScriptedModel(script), lab.ScriptedModel(script)
    sync = [plain.complete(SYSTEM, [user("x")]) for _ in range(2)]
    asynchronous = [await colour.acomplete(SYSTEM, [user("x")]) for _ in range(2)]
    assert sync == asynchronous


async def test_the_same_scenario_twice_gives_the_same_requests_and_replies():
    async def scenario():
        token = Token()
        model = lab.ScriptedModel([lab.reply(lab.call("ls")), lab.say("x"),
                                   lab.forever(lambda r: lab.say(lab.shape(r.messages)))])
        replies = [await model.acomplete(SYSTEM, [user("a")], [], token)]
        replies.append(model.complete(SYSTEM, [user("a"), replies[0]]))
        token.cancelled = True
        replies.append(await model.acomplete(SYSTEM, [user("b")], [], token))
        replies.append(await model.acomplete(SYSTEM, [user("c"), lab.say("d")]))
        return replies, [(r.system, r.messages, r.tools) for r in model.calls]

    assert await scenario() == await scenario()


def test_request_repr_shows_the_shape_of_what_was_sent():
    model = lab.ScriptedModel([lab.say("ok")])
    model.complete(SYSTEM, [user("x")], [{"name": "read"}])
    assert "messages='U'" in repr(model.calls[0]) and "['read']" in repr(model.calls[0])


@pytest.mark.parametrize("replies, error, words", [
    (lab.say("one"), TypeError, "takes a list of replies"),
    (["Hello."], TypeError, "entry 1 of the script is 'Hello.'.*not an assistant message"),
    ([{"role": "user", "content": "x"}], TypeError, "not an assistant message"),
    ([lab.say("a"), {"role": "assistant", "content": "x", "stop_reason": "stop"}], TypeError,
     "entry 2.*content is not a list"),
    ([lab.forever(lambda r: lab.say("x")), lab.say("y")], ValueError, "Make it the last entry"),
])
def test_a_bad_script_is_refused_when_the_model_is_made(replies, error, words):
    with pytest.raises(error, match=words):
        lab.ScriptedModel(replies)


@pytest.mark.parametrize("latency", [-1, 1.5, "1", True])
def test_latency_must_be_a_whole_number_of_turns(latency):
    with pytest.raises(ValueError, match="latency"):
        lab.ScriptedModel([], latency=latency)


def test_a_function_that_returns_something_else_than_a_reply_is_named():
    model = lab.ScriptedModel([lambda request: "Hello."])
    with pytest.raises(TypeError, match="request 1 returned 'Hello.'.*lab.say"):
        model.complete(SYSTEM, [user("x")])


@pytest.mark.parametrize("system, messages, tools, words", [
    (SYSTEM, "hello", [], "messages is the list of messages"),
    (SYSTEM, user("x"), [], "messages is the list of messages"),
    (SYSTEM, ["hello"], [], r"messages\[0\] is 'hello', not a message dict"),
    ([user("x")], [user("x")], [], "system is the system prompt, a string"),
    (SYSTEM, [user("x")], {"name": "read"}, "tools is a list of tool specs"),
])
def test_a_malformed_request_is_refused_with_what_was_wrong(system, messages, tools, words):
    model = lab.ScriptedModel([lab.say("ok")])
    with pytest.raises(TypeError, match=words):
        model.complete(system, messages, tools)
    assert model.calls == []


async def test_a_signal_without_is_cancelled_is_refused():
    model = lab.ScriptedModel([lab.say("ok")])
    with pytest.raises(TypeError, match="is_cancelled"):
        await model.acomplete(SYSTEM, [user("x")], [], signal=True)
