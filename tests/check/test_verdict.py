"""lab.check.verdict: judge() on each of its branches, the Verdict words, sets_line and shown."""
import json

import pytest

from lab.check.observe import encode
from lab.check.protocol import Observed
from lab.check.verdict import Outcome, Verdict, shown, expectation, judge, sets_line

WHYS = ["the reply's words", "the calls it asked for", "how many turns the run took"]
VALUES = ["done", ["read", "write"], 3]
REFERENCE = {"checks": [encode(v) for v in VALUES], "why": WHYS}


def seen(*values, why="what the student's side says the check is", kind="equal"):
    """Checks as the runner collects them from the child: protocol.Observed reports."""
    return [Observed(encode(v), why, kind) for v in values]


def verdict_on(found, error=None, kind=None, expected=REFERENCE):
    return judge("lesson_15_lab1::test_x", "It stops.", "15.1", expected, found, error, kind)


UNORDERED = expectation([encode(["a", "b", "b"])], ["which files it wrote"], ["same_items"])


@pytest.mark.parametrize("found", [["a", "b", "b"], ["b", "a", "b"], ["b", "b", "a"]])
def test_a_same_items_check_passes_on_every_order_of_the_same_items(found):
    outcome = verdict_on(seen(found, kind="same_items"), expected=UNORDERED)
    assert outcome.verdict is Verdict.PASS, outcome.message


@pytest.mark.parametrize("found, says", [
    (["a", "b"], 'missing "b"'), (["a", "b", "b", "c"], 'not wanted "c"'),
    (["a", "a", "b"], 'missing "b"; not wanted "a"'), ("a b b", None)])
def test_a_same_items_check_fails_on_other_items_and_says_which(found, says):
    outcome = verdict_on(seen(found, kind="same_items"), expected=UNORDERED)
    assert outcome.verdict is Verdict.FAIL
    assert outcome.message.splitlines()[0] == "which files it wrote"
    assert (says in outcome.message) if says else "in any order" not in outcome.message


def test_a_check_of_another_kind_than_the_references_fails_even_when_the_value_agrees():
    outcome = verdict_on(seen(["a", "b", "b"]), expected=UNORDERED)  # an "equal" check
    assert outcome.verdict is Verdict.FAIL
    assert "another kind of check" in outcome.message
    plain = verdict_on(seen(*VALUES, kind="same_items"))
    assert plain.verdict is Verdict.FAIL and "another kind of check" in plain.message
    unknown = verdict_on(seen(*VALUES, kind="close_enough"))  # no module registers it
    assert unknown.verdict is Verdict.FAIL and "another kind of check" in unknown.message, \
        "a kind the child named and the reference never made was not failed"


def test_a_check_made_with_other_parameters_than_the_references_fails():
    """The parameters the judge compares under are the reference's: a student's process that
    reports others (a pattern that matches anything) took another path, and fails."""
    pattern = expectation([encode("a")], ["a word"], ["equal"], ['{"pattern": "[a-z]+"}'])
    looser = [Observed(encode("a"), "a word", "equal", params='{"pattern": ".*"}')]
    outcome = verdict_on(looser, expected=pattern)
    assert outcome.verdict is Verdict.FAIL and "another kind of check" in outcome.message, \
        f"a check reported under other parameters was judged as the reference's: {outcome}"
    same = [Observed(encode("a"), "a word", "equal", params='{"pattern": "[a-z]+"}')]
    assert verdict_on(same, expected=pattern).verdict is Verdict.PASS


def test_an_expectation_of_plain_checks_is_stored_as_it_always_was():
    assert expectation(["1"], ["w"], ["equal"]) == {"checks": ["1"], "why": ["w"]}
    assert expectation(["[1]"], ["w"], ["same_items"])["kinds"] == ["same_items"]


def test_the_same_checks_with_no_error_pass():
    outcome = verdict_on(seen(*VALUES))
    assert (outcome.verdict, outcome.message, outcome.checks) == (Verdict.PASS, "", 3)
    assert (outcome.id, outcome.says, outcome.lab_id) == ("lesson_15_lab1::test_x", "It stops.",
                                                          "15.1")


def test_the_first_differing_check_fails_with_the_references_why_not_the_students():
    outcome = verdict_on(seen("done", ["read", "delete"], 4, why="forged: all is well"))
    assert outcome.verdict is Verdict.FAIL
    assert outcome.message.splitlines()[0] == "the calls it asked for"
    assert "forged" not in outcome.message
    assert "how many turns" not in outcome.message  # only the first difference is reported


def test_a_differing_string_is_shown_without_its_json_quotes():
    outcome = verdict_on(seen("not done"))
    assert outcome.message == "the reply's words\n    expected: done\n    found:    not done"


def test_a_differing_list_says_where_it_first_differs():
    outcome = verdict_on(seen("done", ["read", "delete"]))
    assert outcome.message == ('the calls it asked for\n    expected: ["read", "write"]\n'
                               '    found:    ["read", "delete"]\n'
                               '    first difference, at item 2 of 2: expected "write", found "delete"')


def test_fewer_checks_out_of_turns_is_a_timeout_with_the_childs_words():
    outcome = verdict_on(seen("done"), error="This test never finished: out of turns.",
                         kind="turns")
    assert (outcome.verdict, outcome.message, outcome.checks) == (
        Verdict.TIMEOUT, "This test never finished: out of turns.", 3)


def test_fewer_checks_after_an_error_names_the_check_it_stopped_before():
    outcome = verdict_on(seen("done"), error="run_tool raised KeyError('x') (harness.py, line 9).",
                         kind="exception")
    assert outcome.verdict is Verdict.FAIL
    assert outcome.message == ("run_tool raised KeyError('x') (harness.py, line 9).\n"
                               "    (stopped before this check: the calls it asked for)")


def test_fewer_checks_without_an_error_still_names_the_check_it_stopped_before():
    outcome = verdict_on(seen("done", ["read", "write"]))
    assert outcome.verdict is Verdict.FAIL
    assert outcome.message == ("The test ended before making all of its checks.\n"
                               "    (stopped before this check: how many turns the run took)")


def test_more_checks_than_the_reference_fail():
    outcome = verdict_on(seen(*VALUES, "one more"))
    assert outcome.verdict is Verdict.FAIL
    assert "more checks than the reference" in outcome.message


def test_an_error_after_every_check_matched_fails_and_says_so():
    outcome = verdict_on(seen(*VALUES), error="The test could not go on: ValueError('late').",
                         kind="exception")
    assert outcome.verdict is Verdict.FAIL
    assert outcome.message == ("Every check matched, then the test failed: "
                               "The test could not go on: ValueError('late').")


def test_running_out_of_turns_after_every_check_matched_is_a_timeout():
    outcome = verdict_on(seen(*VALUES), error="This test never finished.", kind="turns")
    assert outcome.verdict is Verdict.TIMEOUT
    assert outcome.message == "Every check matched, then the test failed: This test never finished."


def test_a_test_with_no_reference_record_fails_and_tells_an_author_how_to_record_it():
    outcome = verdict_on(seen(*VALUES), expected=None)
    assert outcome.verdict is Verdict.FAIL
    assert "no reference record" in outcome.message and "tools.make" in outcome.message


@pytest.mark.parametrize("verdict, mark, words", [
    (Verdict.PASS, "PASS", "passed"), (Verdict.FAIL, "FAIL", "failed"),
    (Verdict.TIMEOUT, "TIME", "ran out of time"), (Verdict.CRASH, "DIED", "the process died")])
def test_each_verdict_has_a_four_letter_mark_and_words(verdict, mark, words):
    assert (verdict.mark, verdict.words) == (mark, words)


def test_a_verdict_travels_through_json_as_its_plain_value_and_reads_back():
    text = json.dumps(Outcome("a::test_b", "It works.", "2.1", Verdict.TIMEOUT).to_dict())
    assert json.loads(text)["verdict"] == "timeout"
    assert Verdict(json.loads(text)["verdict"]) is Verdict.TIMEOUT
    assert str(Verdict.CRASH) == "crash"


def test_an_outcome_made_from_a_plain_string_holds_a_verdict():
    assert Outcome("a::test_b", "It works.", "2.1", "fail").verdict is Verdict.FAIL


def test_sets_line_names_each_set_in_order():
    assert sets_line([("lab 2.1", 10, 31), ("extra.py", 2, 5)]) == \
        "Sets run: lab 2.1, 10 tests holding 31 checks; extra.py, 2 tests holding 5 checks."


def test_sets_line_says_one_test_and_one_check_in_the_singular():
    assert sets_line([("extra.py", 1, 1)]) == "Sets run: extra.py, 1 test holding 1 check."


def test_shown_writes_a_multiline_string_as_a_block_of_lines():
    assert shown(encode("one\ntwo")) == "\n      | one\n      | two"


def test_shown_writes_a_value_json_cannot_hold_as_its_repr():
    assert shown(encode({"$repr": "<coroutine object run_agent>"})) == \
        "<coroutine object run_agent>"


def test_shown_leaves_text_that_is_not_json_as_it_is():
    assert shown("not json {") == "not json {"


def test_shown_cuts_a_long_value_and_says_how_long_it_was():
    text = shown(encode("x" * 1000))
    assert text == "x" * 600 + " ... (1000 characters in all)"
    assert shown(encode("x" * 600)) == "x" * 600
    assert shown(encode("x" * 601)) == "x" * 600 + " ... (601 characters in all)"


def test_shown_names_an_empty_string_so_it_does_not_read_as_a_blank_line():
    assert shown(encode("")) == '"" (an empty string)'
    assert shown(encode(" ")) == " " and shown(encode(0)) == "0"


def test_a_check_that_wanted_an_error_and_found_none_says_nothing_was_raised():
    raising = expectation([encode("ValueError: path must be a string")],
                          ["a number as the path is refused"], ["equal"])
    outcome = verdict_on(seen(None), expected=raising)
    assert outcome.message.splitlines()[-1] == "    found:    nothing was raised"
    listed = expectation([encode(["ValueError: no path", None])], ["each bad path"], ["equal"])
    outcome = verdict_on(seen([None, None]), expected=listed)
    assert outcome.message.splitlines()[-1] == \
        '    first difference, at item 1 of 2: expected "ValueError: no path", found nothing raised'
    returned = expectation([encode("done")], ["the answer"], ["equal"])
    assert verdict_on(seen(None), expected=returned).message.splitlines()[-1] == \
        "    found:    null"  # nothing was wanted of an error here: null is what it found


def test_a_differing_list_names_its_item_where_the_rule_names_the_items():
    """The rule's own names for a list's items label the first difference, whichever way the
    rule writes them; a rule that names too few or too many leaves the item counted only."""
    rules = {"Items: what render printed, finish(), what finish printed (lesson 7).":
             "finish()",
             "The run stops; the items are [content, is_error, tool_name] (run_tool, lesson 4).":
             "is_error",
             "Items: [the record, [name, arguments] for each question, the answers].":
             "[name, arguments] for each question",
             "Items: the lines, whether it ended well, and what it printed.":
             "whether it ended well",
             "A rule that names two: the items are [one, two].": None,
             "A rule that names none.": None}
    for rule, label in rules.items():
        wanted = expectation([encode(["", True, ""])], [rule], ["equal"])
        outcome = verdict_on(seen(["", False, ""]), expected=wanted)
        named = f" ({label})" if label else ""
        assert outcome.message.splitlines()[-1] == \
            f"    first difference, at item 2 of 3{named}: expected true, found false", rule
