"""lab.check.observe: encode() is canonical, and difference() finds where two lists part."""
import json

import pytest

from lab.check.facts import OtherItems, OtherLength, PartedAt
from lab.check.observe import difference, encode
from lab.check.words_values import parted


def said(wanted: str, found: str) -> str:
    """Where two encoded values part, as a failed check's message shows it."""
    found_at = difference(wanted, found)
    assert found_at is not None, f"{found} parts from {wanted}, yet difference() found nothing"
    return parted(found_at)


def test_dicts_encode_the_same_whatever_their_key_order():
    assert encode({"b": 1, "a": {"d": 2, "c": 3}}) == encode({"a": {"c": 3, "d": 2}, "b": 1})
    assert encode({"b": 1, "a": 2}) == '{"a": 2, "b": 1}'


def test_tuples_travel_as_lists():
    assert encode(("read", ("a.py", 1))) == encode(["read", ["a.py", 1]]) == '["read", ["a.py", 1]]'


def test_true_and_one_encode_differently():
    assert encode(True) != encode(1)


class Thing:
    pass


def test_a_value_json_cannot_hold_is_its_repr_without_the_memory_address():
    first, second = encode(Thing()), encode(Thing())
    assert first == second  # two objects at two addresses
    assert " at 0x" not in first
    assert json.loads(first) == {"$repr": f"<{__name__}.Thing object>"}


def test_a_coroutine_never_awaited_is_sent_as_its_repr():
    async def run_agent():
        pass

    coroutine = run_agent()
    try:
        value = json.loads(encode({"result": coroutine}))
    finally:
        coroutine.close()
    assert value["result"]["$repr"].startswith("<coroutine object ")
    assert "0x" not in value["result"]["$repr"]


def test_a_dict_with_other_than_string_keys_is_not_confused_with_its_string_keyed_twin():
    assert encode({1: "a"}) != encode({"1": "a"})
    assert json.loads(encode({1: "a"})) == {"$repr": "{1: 'a'}"}


def test_a_long_repr_is_cut_to_500_characters():
    assert json.loads(encode({1: "x" * 2000}))["$repr"] == repr({1: "x" * 2000})[:500]


def test_unicode_is_kept_as_it_is():
    assert encode("café ✓") == '"café ✓"'


def test_the_encoding_is_one_line():
    assert "\n" not in encode({"text": "a\nb", "list": [1, 2]})


def test_difference_names_the_first_item_where_two_lists_part():
    assert difference(encode(["a", "b", "c"]), encode(["a", "x", "y"])) == \
        PartedAt(2, 3, '"b"', '"x"')
    assert said(encode(["a", "b", "c"]), encode(["a", "x", "y"])) == \
        'first difference, at item 2 of 3: expected "b", found "x"'


def test_difference_encodes_the_items_it_shows():
    assert said(encode([{"b": 1, "a": 2}]), encode([("t",)])) == \
        'first difference, at item 1 of 1: expected {"a": 2, "b": 1}, found ["t"]'


def test_difference_of_lists_that_agree_as_far_as_they_go_counts_their_items():
    assert difference(encode([1, 2, 3]), encode([1, 2])) == OtherLength(3, 2)
    assert said(encode([1, 2, 3]), encode([1, 2])) == "expected 3 items, found 2"


@pytest.mark.parametrize("wanted, found", [
    (encode([1, 2]), encode([1, 2])),  # equal lists
    (encode("ab"), encode("ac")),  # not lists
    (encode([1]), encode({"a": 1})),  # only one a list
    ("not json", encode([1])),
])
def test_difference_is_none_unless_two_lists_differ(wanted, found):
    assert difference(wanted, found) is None


def test_difference_sees_true_and_one_as_different_items():
    assert said(encode([1, True, 3]), encode([1, 1, 4])) == \
        "first difference, at item 2 of 3: expected true, found 1"


def test_a_difference_travels_as_a_fact_and_comes_back_the_same():
    """A failed check's difference is a fact within the Mismatch (facts.Parted), which a grade
    row and grades.json carry as data and read back whole, an older file's words too."""
    from lab.check import facts
    for parted_at in (PartedAt(2, 3, '"b"', None, "the reply"), OtherLength(3, 2),
                      OtherItems(('"a"',), ('"z"', '"y"')), "a course's own words", None):
        mismatch = facts.Mismatch(0, "why", "[1]", "[2]", difference=parted_at)
        data = json.loads(json.dumps(facts.to_dict(mismatch)))
        assert facts.from_dict(data) == mismatch, f"{parted_at!r} read back as {data}"
