"""lab.world.provider's real-wire shapes: stream_lines(real=True) and finish=..., a FakeProvider
with real=True, and refuse(text, status=...) turned away before any line, in turned_away's words."""
import json

import pytest

import lab
from lab.world.provider import URL, turned_away

BODY = {"messages": [{"role": "user", "content": "hi"}], "tools": [], "stream": True}


def chunks(lines):
    """The JSON payloads of `data:` lines, [DONE] left as it is."""
    return [line[6:] if line == "data: [DONE]" else json.loads(line[6:]) for line in lines]


def test_a_real_text_reply_opens_with_a_role_only_delta_and_ends_with_usage_after_the_finish():
    assert chunks(lab.stream_lines(lab.say("Hello!"), real=True)) == [
        {"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""},
                      "finish_reason": None}]},
        {"choices": [{"index": 0, "delta": {"content": "Hel"}, "finish_reason": None}]},
        {"choices": [{"index": 0, "delta": {"content": "lo!"}, "finish_reason": None}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        {"choices": [], "usage": {"prompt_tokens": 31, "completion_tokens": 9,
                                  "total_tokens": 40}},
        "[DONE]",
    ]


def test_a_real_calls_fragments_stand_beside_content_null_and_its_first_has_empty_arguments():
    payloads = chunks(lab.stream_lines(lab.reply(lab.call("read", {"p": 1}, id="c7")),
                                       piece=4, real=True))
    deltas = [p["choices"][0]["delta"] for p in payloads[1:-3]]
    assert all(delta["content"] is None for delta in deltas)
    parts = [delta["tool_calls"][0] for delta in deltas]
    assert parts[0] == {"index": 0, "id": "c7", "type": "function",
                        "function": {"name": "read", "arguments": ""}}
    assert "".join(part["function"]["arguments"] for part in parts) == '{"p": 1}'
    assert payloads[-3]["choices"][0]["finish_reason"] == "tool_calls"


@pytest.mark.parametrize("finish", ["length", "content_filter"])
def test_finish_names_the_reason_a_server_cut_the_reply_short(finish):
    for real in (False, True):
        payloads = chunks(lab.stream_lines(lab.say("Half"), finish=finish, real=real))
        finishes = [p["choices"][0]["finish_reason"] for p in payloads[:-1] if p["choices"]
                    and p["choices"][0].get("finish_reason")]
        assert finishes == [finish]


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
