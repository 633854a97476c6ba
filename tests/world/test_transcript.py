"""lab.world.transcript: shape, show and validate."""
import pytest

import lab


def user(text):
    return {"role": "user", "content": text}


def result(call_id, content="ok", name="bash", is_error=False):
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": name,
            "content": content, "is_error": is_error}


def asks(*ids, name="bash", stop_reason="toolUse", **extra):
    return {"role": "assistant", "stop_reason": stop_reason, **extra,
            "content": [lab.call(name, {"command": "ls"}, id=i) for i in ids]}


ABORTED = {"role": "assistant", "content": [], "stop_reason": "aborted",
           "error_message": "Operation aborted"}


# shape

def test_shape_gives_one_token_per_message():
    messages = [user("hi"), asks("c1", "c2"), result("c1"), result("c2"), lab.say("done")]
    assert lab.shape(messages) == "U A[c1,c2] R(c1) R(c2) A"


def test_shape_marks_failed_and_stopped_replies():
    assert lab.shape([user("x"), ABORTED]) == "U A(aborted)"
    assert lab.shape([user("x"), asks("c4", stop_reason="error", error_message="e")]) \
        == "U A[c4](error)"


def test_shape_of_nothing_is_the_empty_string_and_tuples_are_accepted():
    assert lab.shape([]) == ""
    assert lab.shape((user("x"), asks("c1"))) == "U A[c1]"


def test_shape_shows_an_unknown_message_as_a_question_mark_instead_of_failing():
    assert lab.shape([user("x"), {"role": "system", "content": "s"}, 7]) == "U ? ?"


@pytest.mark.parametrize("fn", [lab.shape, lab.show, lab.validate])
def test_one_message_instead_of_a_list_is_refused_with_a_hint(fn):
    with pytest.raises(TypeError, match=r"wrap it"):
        fn(user("x"))


# show

def test_show_prints_each_line_form_with_its_suffixes_in_order():
    messages = [
        user("Clean the build/ folder."),
        lab.reply("Checking.", lab.call("bash", {"command": "ls build"}, id="c1")),
        result("c1", "app.o\nmain.o\n"),
        lab.reply(lab.call("bash", {"command": "rm -r build"}, id="c2")),
        result("c2", "Tool call blocked: no", is_error=True),
        ABORTED,
    ]
    assert lab.show(messages, stop_reason=True).splitlines() == [
        'user -> "Clean the build/ folder."',
        'assistant -> "Checking." + toolCall c1 bash({"command": "ls build"})'
        '  [stop_reason=toolUse]',
        'toolResult c1 -> "app.o\\nmain.o\\n"',
        'assistant -> toolCall c2 bash({"command": "rm -r build"})  [stop_reason=toolUse]',
        'toolResult c2 -> "Tool call blocked: no"  [is_error]',
        'assistant -> (nothing)  [stop_reason=aborted]  [error: Operation aborted]',
    ]


def test_show_leaves_out_stop_reason_unless_asked_but_always_shows_an_error():
    messages = [user("x"), lab.fail("overloaded")]
    assert lab.show(messages) == 'user -> "x"\nassistant -> (nothing)  [error: overloaded]'


def test_show_prints_empty_arguments_as_braces_and_keeps_non_ascii_readable():
    messages = [user("café?"), lab.reply(lab.call("build", id="c1")),
                result("c1", "naïve", name="build")]
    assert lab.show(messages).splitlines() == [
        'user -> "café?"', "assistant -> toolCall c1 build({})", 'toolResult c1 -> "naïve"']


def test_show_of_nothing_is_the_empty_string():
    assert lab.show(()) == ""


# validate

def test_a_valid_transcript_has_no_problems_list_or_tuple():
    messages = [user("hi"), asks("c1", "c2"), result("c1"), result("c2"), lab.say("done"),
                user("more"), lab.say("ok")]
    assert lab.validate(messages) == []
    assert lab.validate(tuple(messages)) == []
    assert lab.validate([]) == []


def test_a_call_without_a_result_is_reported_at_its_assistant_message():
    assert lab.validate([user("x"), asks("c1", "c2"), result("c1")]) == [
        "messages[1]: call c2 has no result right after it"]


def test_an_orphan_result_is_reported():
    assert lab.validate([user("x"), lab.say("hi"), result("c9")]) == [
        "messages[2]: result for c9, which no call asked for"]


def test_a_second_result_for_one_call_is_reported():
    assert lab.validate([user("x"), asks("c1"), result("c1"), result("c1")]) == [
        "messages[3]: second result for c1"]


def test_a_result_separated_from_its_call_is_misplaced():
    assert lab.validate([user("x"), asks("c1"), user("wait"), result("c1")]) == [
        "messages[1]: call c1 has no result right after it",
        "messages[3]: result for c1 is not right after its call"]


def test_results_out_of_call_order_are_reported():
    assert lab.validate([user("x"), asks("c1", "c2"), result("c2"), result("c1")]) == [
        "messages[3]: result for c1 is out of call order"]


def test_a_result_naming_another_tool_is_reported():
    assert lab.validate([user("x"), asks("c1"), result("c1", name="read")]) == [
        "messages[2]: result for c1 names tool 'read', but the call was to 'bash'"]


def test_an_empty_assistant_message_is_reported():
    assert lab.validate([user("x"), lab.fail("overloaded")]) == [
        "messages[1]: assistant message has no content"]


def test_a_transcript_must_start_with_a_user_message():
    assert lab.validate([lab.say("hi")]) == [
        "messages[0]: a transcript must start with a user message"]


def test_a_call_id_used_twice_is_reported_where_it_is_used_again():
    messages = [user("x"), asks("c1"), result("c1"), asks("c1"), result("c1")]
    problems = lab.validate(messages)
    assert "messages[3]: call id c1 is used twice" in problems


@pytest.mark.parametrize("message, problem", [
    ({"role": "x", "content": "?"}, "unknown role 'x'"),
    ({"content": "?"}, "message has no 'role'"),
    ({"role": "user"}, "user message has no 'content'"),
    ({"role": "assistant", "content": [{"type": "text", "text": "a"}]},
     "assistant message has no 'stop_reason'"),
    ({"role": "assistant", "content": "words", "stop_reason": "stop"},
     "assistant message's 'content' must be a list, not str"),
    ({"role": "assistant", "content": [{"type": "text", "text": "a"}], "stop_reason": "done"},
     "stop_reason 'done' is not one of 'stop', 'toolUse', 'error', 'aborted'"),
    ({"role": "assistant", "content": [{"type": "text", "text": "a"}], "stop_reason": "error"},
     "assistant message has no 'error_message'"),
    ({"role": "assistant", "content": [{"type": "image"}], "stop_reason": "stop"},
     "content[0] has unknown type 'image'"),
    ({"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "ls"}],
      "stop_reason": "toolUse"}, "content[0] (toolCall) has no 'arguments'"),
    ({"role": "user", "content": "x", "time": 3}, "user message has an unexpected key 'time'"),
    (dict(result("c1"), is_error="no"), "toolResult message's 'is_error' must be a bool"),
])
def test_malformed_messages_are_named_with_their_index(message, problem):
    problems = lab.validate([user("x"), lab.say("ok"), message])
    assert any(p.startswith("messages[2]: ") and problem in p for p in problems), problems


def test_record_mode_allows_an_empty_failed_or_stopped_reply_and_its_unanswered_calls():
    stopped_with_call = asks("c2", stop_reason="error", error_message="cut off")
    record = [user("x"), asks("c1"), result("c1"), ABORTED, user("y"), stopped_with_call]
    assert lab.validate(record, record=True) == []
    assert lab.validate(record) == [
        "messages[3]: assistant message has no content",
        "messages[5]: call c2 has no result right after it"]


def test_record_mode_still_reports_a_call_that_was_acted_on_without_a_result():
    assert lab.validate([user("x"), asks("c1")], record=True) == [
        "messages[1]: call c1 has no result right after it"]


def test_problems_come_in_index_order():
    messages = [lab.say("first"), result("c7"), user("u"), lab.fail("e")]
    problems = lab.validate(messages)
    assert [p.split(":")[0] for p in problems] == sorted(p.split(":")[0] for p in problems)
    assert len(problems) == 3
