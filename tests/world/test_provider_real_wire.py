"""lab.world.provider's real-wire shapes: stream_lines(real=NAME) in each recorded server's shape
(lab.world.servers) and finish=..., a FakeProvider with real=NAME, and refuse(text, status=...)
turned away before any line, in turned_away's words."""
import json

import pytest

import lab
from lab.world.provider import URL, turned_away

BODY = {"messages": [{"role": "user", "content": "hi"}], "tools": [], "stream": True}


def chunks(lines):
    """The JSON payloads of `data:` lines, [DONE] left as it is."""
    return [line[6:] if line == "data: [DONE]" else json.loads(line[6:]) for line in lines]


def choices(lines):
    """Each data line's first choice, without the envelope a server repeats on every chunk."""
    return [p if p == "[DONE]" else p["choices"][0] for p in chunks(lines)]


def test_openai_opens_a_call_with_the_role_null_content_and_its_first_fragment_in_one_chunk():
    lines = lab.stream_lines(lab.reply(lab.call("read", {"p": 1}, id="c7")), piece=4,
                             real="openai")
    first, *later, end, done = choices(lines)
    assert first["delta"] == {"role": "assistant", "content": None, "refusal": None,
                              "tool_calls": [{"index": 0, "id": "c7", "type": "function",
                                              "function": {"name": "read", "arguments": ""}}]}
    assert all(set(choice["delta"]) == {"tool_calls"} for choice in later)
    assert all(choice["finish_reason"] is None for choice in [first, *later])
    assert "".join(c["delta"]["tool_calls"][0]["function"]["arguments"] for c in later) == \
        '{"p": 1}'
    assert end["finish_reason"] == "tool_calls" and done == "[DONE]"
    assert lab.stream_lines(lab.say("Hi"), real=True) == lab.stream_lines(lab.say("Hi"),
                                                                          real="openai")


def test_ollama_sends_each_call_whole_at_index_0_and_before_0_4_7_with_no_index():
    message = lab.reply(lab.call("read", {"path": "a"}, id="o1"),
                        lab.call("read", {"path": "b"}, id="o2"))
    for real, index in (("ollama", {"index": 0}), ("ollama-0.4", {})):
        calls = [c["delta"]["tool_calls"][0] for c in choices(lab.stream_lines(message,
                                                                               real=real))
                 if c != "[DONE]" and "tool_calls" in c["delta"]]
        assert calls == [{**index, "id": "o1", "type": "function",
                          "function": {"name": "read", "arguments": '{"path": "a"}'}},
                         {**index, "id": "o2", "type": "function",
                          "function": {"name": "read", "arguments": '{"path": "b"}'}}]


def test_a_proxy_sends_arguments_as_an_object_and_vllm_names_a_call_without_arguments():
    message = lab.reply(lab.call("read", {"path": "a"}, id="p1"))
    proxy = choices(lab.stream_lines(message, real="object-arguments"))
    assert proxy[0]["delta"]["tool_calls"][0]["function"]["arguments"] == {"path": "a"}
    vllm = choices(lab.stream_lines(message, real="vllm"))
    assert vllm[1]["delta"]["tool_calls"][0]["function"] == {"name": "read"}
    assert vllm[-2]["finish_reason"] == "tool_calls" and "tool_calls" in vllm[-2]["delta"]


def test_llamacpp_says_a_failure_on_an_error_line_and_every_server_is_labelled_with_its_source():
    lines = lab.stream_lines(lab.fail("out of memory"), real="llamacpp")
    assert lines[-2] == ('error: {"code": 500, "message": "out of memory", '
                         '"type": "server_error"}') and lines[-1] == "data: [DONE]"
    for name, server in lab.SERVERS.items():
        assert server.name == name and server.source and server.version and server.shapes
    with pytest.raises(ValueError, match="recorded server"):
        lab.FakeProvider([], real="anthropic")


@pytest.mark.parametrize("finish", ["length", "content_filter"])
def test_finish_names_the_reason_a_server_cut_the_reply_short(finish):
    for real in (False, *lab.SERVERS):
        payloads = chunks(lab.stream_lines(lab.say("Half"), finish=finish, real=real))
        finishes = [p["choices"][0]["finish_reason"] for p in payloads[:-1] if p["choices"]
                    and p["choices"][0].get("finish_reason")]
        assert finishes == [finish], real


@pytest.mark.parametrize("build, error, words", [
    (lambda: lab.stream_lines(lab.say("x"), finish="done"), ValueError, "content_filter"),
    (lambda: lab.stream_lines(lab.fail("down"), finish="length"), ValueError, "error chunk"),
    (lambda: lab.refuse("busy", status=200), ValueError, "400 to 599"),
    (lambda: lab.refuse("busy", status="429"), ValueError, "HTTP status"),
])
def test_misuse_of_the_real_wire_builders_is_refused_plainly(build, error, words):
    with pytest.raises(error, match=words):
        build()


async def test_a_real_provider_streams_reply_entries_as_a_real_server_does():
    provider = lab.FakeProvider([lab.say("Hi."), ["data: [DONE]"]], real=True)
    response = provider.open(BODY)
    await lab.ticks(10)
    lines = []
    while (line := response.read_line()) is not None:
        lines.append(line)
    assert lines == lab.stream_lines(lab.say("Hi."), real=True)
    response.close()


@pytest.mark.parametrize("status", [400, 401, 403, 404, 429, 500, 503, 418])
async def test_a_status_refusal_raises_connection_error_naming_the_status_and_what_was_said(
        status):
    provider = lab.FakeProvider([lab.refuse("slow down", status=status), lab.say("ok")])
    with pytest.raises(ConnectionError) as refused:
        provider.open(BODY)
    text = str(refused.value)
    assert text == turned_away(URL, status, "slow down") and provider.url == URL
    assert text.startswith(f"{URL} answered {status}: ") and text.endswith("It said: slow down")
    assert provider.open_responses() == [] and len(provider.requests) == 1
    provider.open(BODY).close()


def test_each_status_is_explained_in_its_own_words():
    reasons = {status: turned_away(URL, status, "")
               for status in (400, 401, 403, 404, 429, 500, 418)}
    assert len(set(reasons.values())) == len(reasons)
    assert '"model"' in reasons[400] and "OPENAI_API_KEY" in reasons[401]
    assert "safe" in reasons[429] and reasons[418].endswith("It said: (nothing)")


async def test_a_429_refusal_carries_its_status_code_and_wait_and_quota_is_not_told_to_wait():
    provider = lab.FakeProvider([lab.refuse(json.dumps(lab.RATE_LIMIT), status=429,
                                            retry_after=20),
                                 lab.refuse(json.dumps(lab.QUOTA), status=429)])
    with pytest.raises(lab.Refused) as limited:
        provider.open(BODY)
    with pytest.raises(lab.Refused) as spent:
        provider.open(BODY)
    assert (limited.value.status, limited.value.code, limited.value.retry_after) == (
        429, "rate_limit_exceeded", 20)
    assert (spent.value.code, spent.value.retry_after) == ("insufficient_quota", None)
    assert "after 20 s is safe" in str(limited.value)
    assert "will not help" in str(spent.value) and "safe" not in str(spent.value)
