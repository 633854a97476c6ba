"""One conformance suite for the recorded servers (lab.world.servers): each recorded stream, and
each kind of 429, runs through lab's fake (FakeProvider(real=NAME)) and through `course chat`'s
HTTP client (lab/desk/real.py) in front of a loopback server sending the same lines, and the
kit's finished lesson 16 harness makes the same replies of both. The client hands the lines on
as the server sent them, so what the student's code meets in the lab is what it meets live."""

import json
from pathlib import Path

import pytest

from lab.check.importer import import_harness
from lab.desk.real import ChatCompletionsClient
from lab.world.provider import URL, FakeProvider, refuse, stream_lines
from lab.world.replies import call, fail, reply, say
from lab.world.servers import QUOTA, RATE_LIMIT, SERVERS
from tests.desk.loopback import Loopback

KIT = Path(__file__).resolve().parents[2]
SYSTEM = "You help."
ASKED = [{"role": "user", "content": "Read a.py and b.py"}]


def script(server):
    """What the server is asked to send, request by request: two calls in one reply, words
    then a failure said the server's way, a reply cut at the output limit, one the content
    filter stopped, and the two 429s."""
    return [reply("Reading both.", call("read", {"path": "caf\u00e9.py"}, id="call_1"),
                  call("bash", {"command": "ls"}, id="call_2")),
            reply("Half an", call("read", {"path": "a.py"}, id="call_3")),
            say("Half an answer"), say("The answer is"),
            refuse(json.dumps(RATE_LIMIT), status=429, retry_after=20),
            refuse(json.dumps(QUOTA), status=429)]


def lines_of(server, entries):
    """The script as the loopback serves it: each reply as stream_lines(real=server) writes it,
    the second failing mid-reply, the third and fourth finished by "length" and
    "content_filter"; refusals as they are."""
    finishes = [None, "fail", "length", "content_filter"]
    served = []
    for entry, finish in zip(entries, finishes + [None] * len(entries)):
        if not isinstance(entry, dict):
            served.append(entry)
        elif finish == "fail":  # the words, then the server's own way of failing
            failing = stream_lines(fail("the server gave up"), real=server)
            words = [line for line in stream_lines(say(entry["content"][0]["text"]),
                                                   real=server, piece=3)
                     if '"content": "' in line and '"content": ""' not in line]
            served.append(failing[:-2] + words + failing[-2:])
        else:
            served.append(stream_lines(entry, real=server, finish=finish))
    return served


async def replies(provider, n, url):
    harness = import_harness(KIT / "solutions" / "16-stream" / "lab2" / "harness.py")
    model = harness.StreamingModel(provider)
    made = []
    for _ in range(n):
        reply_ = await model.acomplete(SYSTEM, ASKED, [])
        if "error_message" in reply_:
            reply_ = {**reply_, "error_message": reply_["error_message"].replace(url, "<url>")}
        made.append(reply_)
    return made


@pytest.mark.parametrize("server", sorted(SERVERS))
async def test_a_recorded_server_gives_the_same_replies_through_the_fake_and_the_client(server):
    served = lines_of(server, script(server))
    fake = FakeProvider(served, real=server)
    loopback = Loopback(served)
    client = ChatCompletionsClient(loopback.url, "tiny")
    try:
        through_fake = await replies(fake, len(served), URL)
        through_client = await replies(client, len(served), client.url)
    finally:
        client.close()
        loopback.close()
    assert through_client == through_fake, (
        f"{server}: the client and the fake disagree on the replies the harness makes of the "
        "same lines; the client must hand lines on as the server sent them")
    assert [r["stop_reason"] for r in through_fake] == ["toolUse"] + ["error"] * 5
    assert through_fake[1]["error_message"] == "the server gave up"
    assert through_fake[1]["content"] == [{"type": "text", "text": "Half an"}]
    assert through_fake[3]["error_message"] == "The provider's content filter stopped the reply"
    assert through_fake[4]["error_message"].startswith("Provider rate limit, so send again in 20")
    assert through_fake[5]["error_message"].startswith("Provider quota spent")
    assert fake.open_responses() == []
