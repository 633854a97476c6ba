"""The Provider and Response contracts (lab.world.contracts), case by case on the fake
(lab.FakeProvider) and on the real client behind `course chat` (lab.desk.real's
ChatCompletionsClient) talking to a loopback server that serves the same script: the same
lines, pause(n) as a line held back until the test lets it go, HANG as a silence that lasts
until the client hangs up, and refuse(text) as a 503 that says `text` (refuse(text, status=n) as
status n)."""

import asyncio

import pytest

from lab.desk.real import ChatCompletionsClient
from lab.world import contracts
from lab.world.provider import HANG, FakeProvider, pause, refuse, stream_lines, turned_away
from lab.world.replies import call, fail, reply
from tests.desk.conformance import DEADLINE, WORLDS, missing_members, until
from tests.desk.loopback import Loopback

REFUSAL = type(refuse(""))
TEXT = 'data: {"choices": [{"index": 0, "delta": {"content": "Caf\u00e9 \u2014 \U0001F600"}}]}'
LINES = [TEXT, ": keep-alive", "",
         *stream_lines(reply("Reading it.", call("read", {"path": "caf\u00e9.py"}, id="c1")))]
FIRST, SECOND = LINES[0], LINES[3]
BODY = {"messages": [{"role": "system", "content": "You help."},
                     {"role": "user", "content": "Read caf\u00e9.py"}],
        "tools": [{"type": "function", "function": {"name": "read", "parameters": {}}}],
        "stream": True}


class Fake:
    """The fake side: a FakeProvider, whose pauses pass with the loop's turns."""

    def __init__(self, script):
        self.provider = FakeProvider(script)

    def bodies(self):
        return self.provider.requests

    def let_the_next_line_go(self):
        pass  # the turns the test gives while it waits are the pause

    async def saw_hang_up(self):
        return self.provider.open_responses() == []

    def close(self):
        pass


class Real:
    """The real side: a ChatCompletionsClient in front of a Loopback serving the same script."""

    def __init__(self, script):
        self.server = Loopback(script)
        self.provider = ChatCompletionsClient(self.server.url, "tiny")

    def bodies(self):
        return self.server.bodies

    def let_the_next_line_go(self):
        self.server.gate.set()

    async def saw_hang_up(self):
        await until(self.server.hung_up.is_set, "the server to see the client hang up")
        return True

    def close(self):
        self.provider.close()
        self.server.close()


@pytest.fixture(params=WORLDS)
def wire(request):
    """wire(*script) -> a side whose .provider answers request n with script entry n."""
    made = []

    def make(*script):
        side = (Fake if request.param == "fake" else Real)(list(script))
        made.append(side)
        return side
    yield make
    for side in made:
        side.close()


async def next_line(response):
    await until(response.ready, "the next line")
    return response.read_line()


async def read_to_the_end(response):
    lines = []
    while (line := await next_line(response)) is not None:
        lines.append(line)
    return lines


async def test_each_side_provides_every_member_of_the_contracts(wire):
    side = wire(LINES)
    response = side.provider.open(BODY)
    try:
        assert isinstance(side.provider, contracts.Provider)
        assert isinstance(response, contracts.Response)
        assert missing_members(side.provider, contracts.Provider) == []
        assert missing_members(response, contracts.Response) == []
    finally:
        response.close()


async def test_the_lines_come_out_as_sent_in_order_then_the_end_for_good(wire):
    response = wire(LINES).provider.open(BODY)
    assert await read_to_the_end(response) == LINES
    assert response.ready() and response.read_line() is None  # the end stays the end
    response.close()


async def test_the_body_arrives_as_it_was_sent(wire):
    side = wire(LINES)
    response = side.provider.open(BODY)
    await read_to_the_end(response)
    response.close()
    [body] = side.bodies()
    assert body["messages"] == BODY["messages"] and body["tools"] == BODY["tools"]
    assert body["stream"] is True


async def test_a_stream_that_stops_without_done_just_ends(wire):
    cut = stream_lines(fail("overloaded", "Half a sent"))[:-1]  # the error chunk, no [DONE]
    response = wire(cut).provider.open(BODY)
    assert await read_to_the_end(response) == cut  # judging it is the reader's job
    response.close()


async def test_a_refusal_raises_connection_error_saying_why_and_the_next_request_works(wire):
    provider = wire(refuse("model overloaded, try later"), LINES).provider
    with pytest.raises(ConnectionError, match="model overloaded, try later"):
        provider.open(BODY)
    response = provider.open(BODY)
    assert await read_to_the_end(response) == LINES
    response.close()


async def test_open_returns_before_the_first_line_has_come(wire):
    side = wire([pause(2), FIRST, "data: [DONE]"])
    response = side.provider.open(BODY)
    assert not response.ready()
    side.let_the_next_line_go()
    assert await read_to_the_end(response) == [FIRST, "data: [DONE]"]
    response.close()


async def test_a_pause_holds_the_next_line_back_and_reading_early_raises(wire):
    side = wire([FIRST, pause(3), SECOND, "data: [DONE]"])
    response = side.provider.open(BODY)
    assert await next_line(response) == FIRST
    assert not response.ready()
    with pytest.raises(RuntimeError, match="no line is ready"):
        response.read_line()
    side.let_the_next_line_go()
    assert await read_to_the_end(response) == [SECOND, "data: [DONE]"]
    response.close()


async def test_done_arrives_while_the_connection_stays_open_and_closing_lets_it_go(wire):
    side = wire([FIRST, "data: [DONE]", HANG])
    response = side.provider.open(BODY)
    assert [await next_line(response), await next_line(response)] == [FIRST, "data: [DONE]"]
    assert not response.ready()  # the body goes on, silent: no end comes
    response.close()  # a reader stops at [DONE]: it need not wait for the body to end
    assert await side.saw_hang_up()


async def test_close_mid_stream_stops_reading_and_a_later_read_says_it_is_closed(wire):
    side = wire([FIRST, SECOND, HANG])
    response = side.provider.open(BODY)
    assert await next_line(response) == FIRST
    await until(response.ready, "the second line")
    response.close()  # with a line waiting, unread
    assert response.closed and not response.ready()
    with pytest.raises(RuntimeError, match="closed"):
        response.read_line()
    response.close()  # again: nothing happens
    assert await side.saw_hang_up()


async def test_async_for_gives_every_line_and_ends_at_the_end(wire):
    response = wire(LINES).provider.open(BODY)

    async def read():
        return [line async for line in response]
    assert await asyncio.wait_for(read(), DEADLINE) == LINES
    response.close()


async def test_close_ends_an_async_for_that_waits_on_a_silent_provider(wire):
    side = wire([FIRST, SECOND, HANG])
    response, got = side.provider.open(BODY), []

    async def read():
        async for line in response:  # deaf: only close() can end this wait
            got.append(line)
    reader = asyncio.ensure_future(read())
    await until(lambda: len(got) == 2, "the two lines before the silence")
    response.close()
    await asyncio.wait_for(reader, DEADLINE)
    assert got == [FIRST, SECOND]
    assert await side.saw_hang_up()


@pytest.mark.parametrize("status, said", [
    (400, "you must provide a model parameter"),
    (401, "Incorrect API key provided"),
    (429, "Rate limit reached for requests"),
])
async def test_a_status_before_the_stream_raises_connection_error_in_one_wording(wire, status,
                                                                                said):
    provider = wire(refuse(said, status=status), LINES).provider
    with pytest.raises(ConnectionError) as refused:
        provider.open(BODY)
    assert str(refused.value) == turned_away(provider.url, status, said)
    response = provider.open(BODY)  # nothing was streamed, so the next request goes as usual
    assert await read_to_the_end(response) == LINES
    response.close()


async def test_a_real_servers_lines_come_out_as_sent(wire):
    shapes = stream_lines(reply("Reading it.", call("read", {"path": "a.py"}, id="c1")),
                          real=True, finish="content_filter")
    response = wire(shapes).provider.open(BODY)
    assert await read_to_the_end(response) == shapes  # the role-only delta, nulls and usage too
    response.close()
