"""lab.world.replies: call, reply, say, fail, forever."""
import pytest

import lab


def test_call_builds_the_tool_call_block_with_no_id_yet():
    assert lab.call("read", {"path": "a.py"}) == {
        "type": "toolCall", "id": None, "name": "read", "arguments": {"path": "a.py"}}


def test_call_without_arguments_has_empty_arguments_and_keeps_a_given_id():
    assert lab.call("build", id="x1") == {
        "type": "toolCall", "id": "x1", "name": "build", "arguments": {}}


def test_reply_turns_strings_into_text_blocks_and_keeps_calls_in_order():
    message = lab.reply("Looking.", lab.call("ls"), "Then:", lab.call("cat", {"p": 1}))
    assert message == {
        "role": "assistant",
        "content": [{"type": "text", "text": "Looking."},
                    {"type": "toolCall", "id": None, "name": "ls", "arguments": {}},
                    {"type": "text", "text": "Then:"},
                    {"type": "toolCall", "id": None, "name": "cat", "arguments": {"p": 1}}],
        "stop_reason": "toolUse"}


def test_reply_without_calls_stops_and_has_no_error_message():
    message = lab.reply("Done.")
    assert message["stop_reason"] == "stop"
    assert "error_message" not in message


def test_say_is_reply_of_one_text():
    assert lab.say("Hi.") == lab.reply("Hi.") == {
        "role": "assistant", "content": [{"type": "text", "text": "Hi."}], "stop_reason": "stop"}


def test_fail_is_an_error_reply_with_its_reason_and_any_parts():
    assert lab.fail("overloaded") == {"role": "assistant", "content": [],
                                      "stop_reason": "error", "error_message": "overloaded"}
    partial = lab.fail("cut off", "Half an", lab.call("ls"))
    assert [b["type"] for b in partial["content"]] == ["text", "toolCall"]
    assert partial["stop_reason"] == "error"


def test_forever_wraps_a_function():
    entry = lab.forever(lambda request: lab.say("x"))
    assert "forever" in repr(entry)


@pytest.mark.parametrize("build, words", [
    (lambda: lab.call(""), "non-empty string"),
    (lambda: lab.call(None), "non-empty string"),
    (lambda: lab.call("read", "a.py"), "arguments is a dict"),
    (lambda: lab.call("read", id=3), "an id is a string"),
    (lambda: lab.reply("ok", 5), "part 2 is 5"),
    (lambda: lab.reply({"role": "assistant"}), "part 1"),
    (lambda: lab.say(["hi"]), "as a string"),
    (lambda: lab.fail(None), "error_message is the reason"),
    (lambda: lab.forever("not a function"), "takes a function"),
])
def test_misuse_is_refused_with_a_plain_message(build, words):
    with pytest.raises(TypeError, match=words):
        build()
