"""lab.world.provider: stream_lines, FakeProvider, Response, pause, HANG, refuse, BlockingClient."""
import asyncio
import json

import pytest

import lab

BODY = {"messages": [{"role": "user", "content": "hi"}], "tools": [], "stream": True}


def chunks(lines):
    """The JSON payloads of `data:` lines, [DONE] left as it is."""
    out = []
    for line in lines:
        payload = line[len("data: "):]
        out.append(payload if payload == "[DONE]" else json.loads(payload))
    return out


async def read_all(response, limit=200):
    """Poll a response to its end, one look per turn; returns (lines, turns taken)."""
    lines, turns = [], 0
    while True:
        if response.ready():
            line = response.read_line()
            if line is None:
                return lines, turns
            lines.append(line)
        else:
            assert turns < limit
            await lab.tick()
            turns += 1


# stream_lines

def test_text_is_streamed_in_pieces_then_stop_then_done():
    assert chunks(lab.stream_lines(lab.say("Hello!"))) == [
        {"choices": [{"index": 0, "delta": {"content": "Hel"}}]},
        {"choices": [{"index": 0, "delta": {"content": "lo!"}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        "[DONE]",
    ]


def test_a_calls_id_and_name_travel_with_its_first_fragment_only():
    message = lab.reply(lab.call("read", {"p": "é"}, id="c7"))
    payloads = chunks(lab.stream_lines(message, piece=4))
    calls = [p["choices"][0]["delta"]["tool_calls"][0] for p in payloads[:-2]]
    assert calls[0] == {"index": 0, "id": "c7", "type": "function",
                        "function": {"name": "read", "arguments": '{"p"'}}
    assert all(set(c) == {"index", "function"} and set(c["function"]) == {"arguments"}
               for c in calls[1:])
    joined = "".join(c["function"]["arguments"] for c in calls)
    assert joined == json.dumps({"p": "é"}) and "\\u00e9" in joined
    assert payloads[-2] == {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}


def test_calls_are_indexed_in_order_and_unnamed_ids_are_numbered_within_the_message():
    message = lab.reply("Two.", lab.call("a"), lab.call("b", {"x": 1}))
    payloads = chunks(lab.stream_lines(message, piece=100))
    assert payloads[0] == {"choices": [{"index": 0, "delta": {"content": "Two."}}]}
    firsts = [p["choices"][0]["delta"]["tool_calls"][0] for p in payloads[1:3]]
    assert [(c["index"], c["id"], c["function"]["arguments"]) for c in firsts] == [
        (0, "c1", "{}"), (1, "c2", '{"x": 1}')]


def test_a_failed_reply_ends_with_an_error_chunk_then_done():
    assert chunks(lab.stream_lines(lab.fail("overloaded", "Par"))) == [
        {"choices": [{"index": 0, "delta": {"content": "Par"}}]},
        {"error": {"message": "overloaded"}},
        "[DONE]",
    ]


def test_every_line_is_a_data_line():
    assert all(line.startswith("data: ") for line in lab.stream_lines(lab.say("x" * 20)))


@pytest.mark.parametrize("build, error, words", [
    (lambda: lab.stream_lines({"role": "user", "content": "x"}), TypeError, "cannot be streamed"),
    (lambda: lab.stream_lines(lab.say("x"), piece=0), ValueError, "piece"),
    (lambda: lab.stream_lines({"role": "assistant", "content": [], "stop_reason": "aborted",
                               "error_message": "Operation aborted"}), ValueError, "aborted"),
    (lambda: lab.pause(-1), ValueError, "pause"),
    (lambda: lab.refuse(None), TypeError, "refuse"),
])
def test_misuse_of_the_stream_builders_is_refused_plainly(build, error, words):
    with pytest.raises(error, match=words):
        build()


# Response

async def test_one_line_becomes_ready_per_turn_and_the_end_with_the_last():
    response = lab.Response(["a", "b", "c"])
    assert not response.ready()
    lines, turns = await read_all(response)
    assert (lines, turns) == (["a", "b", "c"], 3)
    assert response.read_line() is None and response.lines_read == 3


async def test_read_line_raises_when_nothing_is_ready():
    response = lab.Response(["a"])
    with pytest.raises(RuntimeError, match="no line is ready yet"):
        response.read_line()
    await lab.tick()
    assert response.read_line() == "a"


async def test_lines_wait_for_the_reader_and_pile_up_when_it_is_slow():
    response = lab.Response(["a", "b", "c"])
    await lab.ticks(10)
    assert [response.read_line() for _ in range(4)] == ["a", "b", "c", None]


async def test_pause_holds_back_the_next_line_by_n_turns():
    response = lab.Response(["a", lab.pause(4), "b"])
    lines, turns = await read_all(response)
    assert (lines, turns) == (["a", "b"], 6)


async def test_hang_means_no_more_lines_and_no_end_ever():
    response = lab.Response(["a", "b", lab.HANG])
    await lab.ticks(100)
    assert [response.read_line(), response.read_line()] == ["a", "b"]
    assert not response.ready()
    with pytest.raises(RuntimeError):
        response.read_line()


async def test_a_stream_can_hold_its_connection_open_after_done_in_turns():
    """A server that keeps the connection after [DONE] (keep-alives, then nothing ever): the
    response streams what follows [DONE] like any other line, at known turns, and never ends,
    so a reader that waits for the end is caught by counting turns, not by a clock."""
    lines = lab.stream_lines(lab.say("Hi."))
    response = lab.Response(lines + [": keep-alive", lab.pause(3), ": keep-alive", lab.HANG])
    await lab.ticks(len(lines))
    assert [response.read_line() for _ in lines][-1] == "data: [DONE]"
    assert not response.ready()
    await lab.tick()
    assert response.read_line() == ": keep-alive"
    await lab.ticks(3)
    assert not response.ready()
    await lab.tick()
    assert response.read_line() == ": keep-alive"
    await lab.ticks(100)
    assert not response.ready() and not response.closed


async def test_close_is_idempotent_and_a_closed_response_gives_nothing():
    response = lab.Response(["a"])
    response.close()
    response.close()
    assert response.closed and not response.ready()
    with pytest.raises(RuntimeError, match="closed"):
        response.read_line()


async def test_async_for_reads_every_line_waiting_as_long_as_it_takes():
    response = lab.Response(["a", lab.pause(3), "b"])
    assert [line async for line in response] == ["a", "b"]


async def test_async_for_on_a_hung_stream_waits_until_the_response_is_closed():
    response = lab.Response(["a", lab.HANG])
    got = []

    async def deaf_reader():
        async for line in response:
            got.append(line)

    task = asyncio.ensure_future(deaf_reader())
    await lab.ticks(50)
    assert got == ["a"] and not task.done()
    response.close()
    await lab.tick()
    assert task.done()


@pytest.mark.parametrize("lines, words", [
    ("data: x", "list of lines"),
    (["a", 3], "item 1 is 3"),
    (["a", lab.HANG, "b"], "nothing may follow"),
])
async def test_a_malformed_stream_is_refused(lines, words):
    with pytest.raises((TypeError, ValueError), match=words):
        lab.Response(lines)


def test_a_response_needs_a_running_loop():
    with pytest.raises(RuntimeError, match="needs a running event loop"):
        lab.Response(["a"])


# FakeProvider

async def test_open_records_a_copy_of_the_body_and_streams_the_entry():
    provider = lab.FakeProvider([lab.say("Hi.")])
    body = json.loads(json.dumps(BODY))
    response = provider.open(body)
    body["messages"].clear()
    assert provider.requests == [BODY]
    lines, _ = await read_all(response)
    assert lines == lab.stream_lines(lab.say("Hi."))
    assert provider.responses == [response]


async def test_call_ids_are_numbered_per_provider_across_requests():
    provider = lab.FakeProvider([lab.reply(lab.call("a"), lab.call("b")),
                                 lab.reply(lab.call("c"))])
    ids = []
    for _ in range(2):
        lines, _ = await read_all(provider.open(BODY))
        ids += [call["id"] for p in chunks(lines)[:-1] if "choices" in p
                for call in p["choices"][0]["delta"].get("tool_calls", []) if "id" in call]
    assert ids == ["c1", "c2", "c3"]


async def test_a_raw_list_entry_is_streamed_as_given():
    provider = lab.FakeProvider([["", ": keep-alive", "data: [DONE]"]])
    lines, _ = await read_all(provider.open(BODY))
    assert lines == ["", ": keep-alive", "data: [DONE]"]


async def test_refuse_makes_open_raise_connection_error_with_its_text():
    provider = lab.FakeProvider([lab.refuse("connection refused"), lab.say("ok")])
    with pytest.raises(ConnectionError, match="^connection refused$"):
        provider.open(BODY)
    assert len(provider.requests) == 1 and provider.responses == []
    provider.open(BODY)
    assert len(provider.responses) == 1


async def test_open_responses_lists_those_not_closed():
    provider = lab.FakeProvider([lab.say("a"), lab.say("b")])
    first, second = provider.open(BODY), provider.open(BODY)
    assert provider.open_responses() == [first, second]
    first.close()
    assert provider.open_responses() == [second]


async def test_a_request_past_the_script_raises_script_exhausted():
    provider = lab.FakeProvider([])
    with pytest.raises(lab.ScriptExhausted, match=r"^FakeProvider: request 1 has no scripted "
                                                  r"stream \(the script has 0\)"):
        provider.open(BODY)


@pytest.mark.parametrize("streams, words", [
    (lab.say("x"), "takes a list of entries"),
    (["data: x"], "entry 1 is 'data: x'"),
    ([[lab.HANG, "x"]], "nothing may follow"),
])
def test_a_bad_provider_script_is_refused_when_made(streams, words):
    with pytest.raises(TypeError, match=words):
        lab.FakeProvider(streams)


async def test_the_same_scenario_twice_streams_the_same_lines_at_the_same_turns():
    async def scenario():
        provider = lab.FakeProvider([lab.reply("Hm.", lab.call("read", {"path": "a.py"})),
                                     ["data: x", lab.pause(2), "data: [DONE]"]])
        return [await read_all(provider.open(BODY)) for _ in range(2)]

    assert await scenario() == await scenario()


# BlockingClient

async def test_a_blocking_post_holds_its_thread_until_released_even_after_a_hard_cancel():
    client = lab.BlockingClient()
    task = asyncio.ensure_future(asyncio.to_thread(client.post, BODY))
    while client.started == 0:  # the worker thread gets going
        await lab.tick()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert (client.started, client.finished) == (1, 0)  # control is back; the thread is not
    client.release()
    while client.finished == 0:
        await lab.tick()
    assert client.finished == 1 and client.requests == [BODY]


async def test_a_released_client_returns_a_copy_of_its_reply_at_once():
    client = lab.BlockingClient(lab.say("Ready."))
    client.release()
    first = await asyncio.to_thread(client.post, BODY)
    first["content"].clear()
    assert await asyncio.to_thread(client.post, BODY) == lab.say("Ready.")
    assert (client.started, client.finished) == (2, 2)


def test_a_blocking_client_reply_must_be_a_reply():
    with pytest.raises(TypeError, match="not a reply"):
        lab.BlockingClient("Ready.")
