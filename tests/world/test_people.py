"""lab.Human: a user whose answers are scripted."""
import pytest

import lab


def test_ask_records_each_question_and_returns_the_answers_in_order():
    human = lab.Human([True, "yes", False])
    assert human.ask("Allow bash?") is True
    assert human.ask("Allow write?") == "yes"
    assert human.ask("Allow rm?") is False
    assert human.questions == ["Allow bash?", "Allow write?", "Allow rm?"]


def test_answers_are_returned_as_given_not_interpreted():
    human = lab.Human([1, None])
    assert human.ask("q1") == 1 and human.ask("q2") is None


def test_a_question_past_the_script_raises_script_exhausted_naming_it():
    human = lab.Human([True])
    human.ask("first?")
    with pytest.raises(lab.ScriptExhausted) as caught:
        human.ask("Allow bash {\"command\": \"rm -r build\"}?")
    message = str(caught.value)
    assert message.startswith("Human: question 2 has no scripted answer (the script has 1)")
    assert "rm -r build" in message
    assert human.questions[-1] == "Allow bash {\"command\": \"rm -r build\"}?"


@pytest.mark.parametrize("answers", [True, "yes", {"q": True}, None])
def test_answers_that_are_not_a_list_are_refused_with_an_example(answers):
    with pytest.raises(TypeError, match=r"Human\(\[True, False\]\)"):
        lab.Human(answers)


def test_a_tuple_of_answers_is_accepted():
    assert lab.Human((False,)).ask("ok?") is False
