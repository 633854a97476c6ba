"""The checker speaks to the student about what the student did (issue 29): an empty file, or one
without the lab's names, in one line; a test's fake that ran out of script, as code that asked
once too often, never as advice on writing the script; and a rule credited to the function the
test reaches, not to one it reaches only through another.

Lab 5.1 is the lab of the issue's class: its cumulative suite is short, so each check here is
the student's own command, run whole.
"""
import pytest

from lab.check import advice, child, exercised, local, manifest, words
from lab.check.problems import NoSuchLab
from lab.check.rules import Rule
from lab.check.lines import check_aloud
from lab import ScriptedModel, ScriptExhausted

LAB = manifest.lab("5.1")
SOLUTION = LAB.solution.read_text(encoding="utf-8")
THE_TOP_OF_A_TURN = (
    "        if max_turns is not None and turn > max_turns:  # before the call, never after\n"
    '            reply = error_message(f"Agent stopped after max_turns={max_turns}")\n'
    "        else:\n"
    "            reply = model.complete(system, context_for_model(messages), tool_specs(tools))\n")
# The off-by-one of the class: the cap checked after the model call, not before it.
CHECKED_AFTER_THE_CALL = (
    "        reply = model.complete(system, context_for_model(messages), tool_specs(tools))\n"
    "        if max_turns is not None and turn > max_turns:\n"
    '            reply = error_message(f"Agent stopped after max_turns={max_turns}")\n')
# The gap never filled: no cap at all, so the test's scripted model runs out of replies.
NO_CAP = """        reply = model.complete(system, context_for_model(messages), tool_specs(tools))
"""


def checked(tmp_path, text: str) -> tuple[list[str], local.Checked]:
    harness = tmp_path / "harness.py"
    harness.write_text(text, encoding="utf-8")
    said: list[str] = []
    done = check_aloud(harness, LAB.tests, LAB.lesson.number, write=said.append)
    return said, done


def variant(top_of_a_turn: str) -> str:
    assert THE_TOP_OF_A_TURN in SOLUTION, "the reference's run_agent changed: update this test"
    return SOLUTION.replace(THE_TOP_OF_A_TURN, top_of_a_turn)


def verdict_lines(said: list[str]) -> list[str]:
    return [line for line in said if line.startswith(("  FAIL  ", "  PASS  ", "  TIME  "))]


@pytest.mark.parametrize("text", ["", "\n\n# I will start tomorrow.\n", '"""My lab 5.1."""\n'])
def test_an_empty_file_is_told_so_in_one_line_instead_of_a_failure_per_test(tmp_path, text):
    said, done = checked(tmp_path, text)
    assert done.exit_code == local.A_TEST_FAILED and done.report.passed == 0
    count = len(done.report.outcomes)
    assert verdict_lines(said) == [
        f"  FAIL  harness.py is empty: each of the {count} tests stopped at the first name it "
        "needed. Put your code for lab 5.1 in it, then check again."]
    assert "Probably collateral" not in "\n".join(said) and "probably collateral" not in \
        "\n".join(said)
    assert said[-1].startswith("Next: put your code for lab 5.1 in harness.py, then check again;")


def test_a_file_without_the_labs_names_is_told_so_in_one_line_naming_the_first_it_lacks(tmp_path):
    said, done = checked(tmp_path, "def greet(name):\n    return 'Hello, ' + name\n")
    [line] = verdict_lines(said)
    assert line.startswith("  FAIL  harness.py lacks the names the tests use (text_of, ")
    assert f"each of the {len(done.report.outcomes)} tests stopped at the first it needed" in line
    assert line.endswith("Is it your file for lab 5.1, with the starter's names?")


def test_a_file_with_some_of_the_names_gets_a_line_per_test_as_before(tmp_path):
    starter = LAB.starter.read_text(encoding="utf-8")
    said, done = checked(tmp_path, starter)
    assert 0 < done.report.passed < len(done.report.outcomes)
    assert len(verdict_lines(said)) == len(done.report.outcomes)


def test_code_that_asks_the_model_once_too_often_is_told_so_without_advice_for_test_writers(
        tmp_path):
    said, done = checked(tmp_path, variant(NO_CAP))
    text = "\n".join(said)
    assert "Script a reply" not in text and "lab.forever" not in text
    assert "ScriptExhausted" not in text
    assert "run_agent asked the model again (harness.py, line " in text
    assert "where this test scripts only 3 replies, enough for the reference's code. Your " \
           "code goes on where it should have stopped. The request it made:" in text


def test_a_fake_that_ran_out_outside_harness_py_is_said_in_the_same_words():
    with pytest.raises(ScriptExhausted) as caught:
        ScriptedModel([]).complete("system", [{"role": "user", "content": "Hi."}])
    error, cause = child.explained(caught.value, harness_path="")
    assert error.startswith("ScriptExhausted: ScriptedModel: request 1 has no scripted reply"), \
        f"the child's own words, for a test's author, changed: {error!r}"
    said = words.ended(cause, error)
    assert said.startswith("Your code asked the model again: request 1, where this test "
                           "scripts only 0 replies"), f"a student was told: {said!r}"
    assert said.endswith('The request it made:\nuser -> "Hi."'), f"a student was told: {said!r}"
    other = "run_tool raised KeyError('x') (harness.py, line 3)."
    assert words.ended(None, other) == other, "an error without a fact was reworded"


def test_an_off_by_one_in_run_agent_is_credited_to_run_agent_not_to_context_for_model(tmp_path):
    said, done = checked(tmp_path, variant(CHECKED_AFTER_THE_CALL))
    stop = next(o for o in done.report.outcomes
                if o.id.endswith("::test_the_request_after_a_max_turns_stop"))
    assert stop.verdict != "pass"
    assert "(run_agent, lesson 5)" in stop.message
    assert "context_for_model, lesson" not in stop.message
    own_test = next(o for o in done.report.outcomes if o.id.endswith("::test_context_for_model"))
    assert own_test.verdict == "pass"


def test_a_rule_keeps_the_function_it_names_when_the_test_calls_it():
    def credited(said: str, reach) -> str:
        return Rule.declared(said).credited(reach).said
    reach = exercised.reached("5.1", "lesson_05_lab1::test_context_for_model")
    assert "context_for_model" in reach
    rule = "The view leaves out an empty failed reply (context_for_model, lesson 5)."
    assert credited(rule, reach) == rule
    through = exercised.reached("5.1", "lesson_05_lab1::test_the_request_after_a_max_turns_stop")
    assert "run_agent" in through and "context_for_model" not in through
    assert credited(rule, through) == \
        "The view leaves out an empty failed reply (run_agent, lesson 5)."
    several = frozenset({"run_agent", "run_tool"})
    assert credited(rule, several) == \
        "The view leaves out an empty failed reply (lesson 5)."
    told = "A command's finally runs (bash's finally, lesson 15)."  # names no function of harness
    assert credited(told, several) == told
    assert credited(rule, None) == rule  # an instructor's test: nothing to go by


def test_missing_needs_every_test_to_have_failed_for_lack_of_a_name():
    from lab.check.facts import Mismatch, MissingName
    from lab.check.verdict import Outcome
    lacking = Outcome("t1", "says", "5.1", "fail", "(any words)",
                      cause=MissingName("run_agent", "3.1"))
    caught = Outcome("t2", "says", "5.1", "fail", "(any words)",
                     cause=Mismatch(0, "A rule.", "1", '"AttributeError: ..."', lacks="run_tool"))
    assert advice.missing([lacking, caught]) == ["run_agent", "run_tool"]
    assert advice.missing([lacking, Outcome("t3", "says", "5.1", "pass")]) is None
    assert advice.missing([lacking, Outcome("t4", "says", "5.1", "fail", "A rule.")]) is None
    assert advice.missing([]) is None


def test_a_missing_name_is_read_from_the_fact_never_from_the_words():
    """The words are the student's to read; what is decided comes from the fact beside them."""
    from lab.check.facts import MissingName
    from lab.check.verdict import Outcome
    worded = Outcome("t1", "says", "5.1", "fail", "harness.py has no run_agent yet (lab 3.1).")
    assert advice.missing([worded]) is None, "a missing name was read back out of a sentence"
    reworded = Outcome("t1", "says", "5.1", "fail", "harness.py n'a pas encore run_agent.",
                       cause=MissingName("run_agent", "3.1"))
    assert advice.missing([reworded]) == ["run_agent"], "the fact was not read"


def test_failures_for_lack_of_a_name_held_back_are_all_written_once_a_test_passes(tmp_path):
    said, done = checked(tmp_path, SOLUTION + "\ndel text_of\n")
    first = done.report.outcomes[0]
    assert first.verdict != "pass" and "harness.py has no text_of yet" in first.message
    assert done.report.passed > 0
    assert len(verdict_lines(said)) == len(done.report.outcomes)
    assert verdict_lines(said)[0] == f"  FAIL  {first.says}"


def test_each_fake_that_runs_out_says_so_from_its_fact_not_its_message():
    """A person and a provider run out as the model does: the student hears which fake, which
    question or request, and what it was asked, made from the exception's fields."""
    from lab import FakeProvider, Human
    with pytest.raises(ScriptExhausted) as person:
        Human([]).ask("Delete notes.txt?")
    with pytest.raises(ScriptExhausted) as provider:
        FakeProvider([]).open({"model": "m"})
    said = [words.ended(child.explained(caught.value, harness_path="")[1], None)
            for caught in (person, provider)]
    assert said[0] == ("Your code asked the person again: question 1, where this test scripts "
                       "only 0 answers, enough for the reference's code. Your code goes on "
                       "where it should have stopped. The question it made:\n"
                       "'Delete notes.txt?'"), f"a student was told: {said[0]!r}"
    assert said[1].startswith("Your code asked the provider again: request 1, where this test "
                              "scripts only 0 streams") and \
        said[1].endswith('The request it made:\nIts body: {"model": "m"}'), \
        f"a student was told: {said[1]!r}"


def test_every_way_a_test_stops_travels_as_a_fact_whose_words_are_the_childs_own(tmp_path):
    """What the child says of an exception and what the runner says from the fact it sent are
    the same words: the fact carries everything the sentence needs."""
    from lab.check import facts
    harness = tmp_path / "harness.py"
    harness.write_text("def run_tool(call):\n    raise KeyError(call)\n", encoding="utf-8")
    namespace: dict = {}
    exec(compile(harness.read_text(encoding="utf-8"), str(harness), "exec"), namespace)

    def caught(thunk):
        try:
            thunk()
        except BaseException as exc:  # SystemExit too: the child catches every exception
            return exc
        raise AssertionError("nothing was raised")
    cases = [
        (caught(lambda: namespace["run_tool"]("x")), None, facts.Raised),
        (SystemExit(3), None, facts.Exited),
        (ValueError("no"), "lesson_05_lab1", facts.Unloadable),
        (caught(lambda: ScriptedModel([]).complete("s", [])), None, facts.RanOut),
        (manifest.UnknownLab(NoSuchLab("9.9", ())), None, facts.KitRaised),
        (ValueError("no"), None, facts.Escaped),
    ]
    for exc, loading, kind in cases:
        error, cause = child.explained(exc, str(harness), loading=loading)
        assert isinstance(cause, kind), f"{exc!r} travelled as {cause!r}, not a {kind.__name__}"
        assert facts.from_dict(facts.to_dict(cause)) == cause, f"{cause} did not travel whole"
        if kind is not facts.RanOut:  # a fake's own words are for a test's author
            assert words.ended(cause, None) == error, \
                f"the runner's words for {cause} differ from the child's: {error!r}"
