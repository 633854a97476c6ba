"""Predictions that do not give themselves away (issue 10, item 6). Across the whole course, a
student who always picks the same letter, or always the longest choice, must do no better than
one who thinks: no position holds more than 40 % of the single-choice keys, the key is the
strictly longest choice in at most 30 % of them, and at most one multi-select is "every choice
but the last". Every lesson.md is read through tools/notebooks.py, the reader that builds the
notebooks, so what is measured is what students are shown."""
from __future__ import annotations

import re
from collections import Counter

from tools import notebooks

MOST_AT_ONE_POSITION = 0.40
MOST_KEYS_LONGEST = 0.30
MOST_EVERY_BUT_LAST = 1


def visible(text: str) -> str:
    """A choice as a student reads it: code spans and emphasis show without their marks."""
    return re.sub(r"[`*]", "", text)


def key_at(prediction: notebooks.Prediction) -> int:
    """The position, from 0, of a single-choice prediction's one right choice."""
    return next(n for n, choice in enumerate(prediction.choices) if choice["right"])


def key_is_longest(prediction: notebooks.Prediction) -> bool:
    """Whether the right choice is longer, as read, than every other choice."""
    lengths = [len(visible(choice["text"])) for choice in prediction.choices]
    key = key_at(prediction)
    return all(lengths[key] > length for n, length in enumerate(lengths) if n != key)


def every_but_last(prediction: notebooks.Prediction) -> bool:
    """Whether a multi-select's right choices are all of them except the last."""
    right = [choice["right"] for choice in prediction.choices]
    return right == [True] * (len(right) - 1) + [False]


def course() -> list[tuple[int, int, notebooks.Prediction]]:
    """(lesson number, prediction number from 1, prediction) for every prediction written."""
    return [(lesson.number, n, prediction) for lesson in notebooks.written()
            for n, prediction in enumerate(notebooks.predictions(lesson), 1)]


def single(found):
    return [(lesson, n, p) for lesson, n, p in found if not p.many]


def by_lesson(found, mark) -> str:
    """One line per lesson: where its single-choice keys sit and which are marked by `mark`,
    so each lesson's author can see their share of a course-wide failure."""
    lines = []
    for lesson in sorted({lesson for lesson, _, _ in found}):
        mine = [(n, p) for number, n, p in found if number == lesson]
        letters = " ".join(f"{n}:{notebooks.LETTERS[key_at(p)]}{'*' if mark(p) else ''}"
                           for n, p in mine)
        lines.append(f"  lesson {lesson}: {letters}")
    return "\n".join(lines)


# --- the measures, on made-up predictions ---------------------------------------------------------

def made(*choices: str, many: bool = False) -> notebooks.Prediction:
    """A prediction read from choice texts, where a text starting with 'x ' is a right one."""
    lines = ["The question?"]
    for text in choices:
        lines += [f"- [{'x' if text.startswith('x ') else ' '}] {text.removeprefix('x ')}",
                  "  > Feedback."]
    return notebooks.read_prediction(lines, many=many, where="made up")


def test_the_key_counts_as_longest_only_when_it_is_strictly_longer_than_every_other_choice():
    assert key_is_longest(made("short", "x the longest of all", "middling one"))
    assert not key_is_longest(made("as long as it", "x as long as it", "short"))
    assert not key_is_longest(made("x short", "much longer than it"))


def test_code_marks_do_not_make_a_choice_longer():
    assert not key_is_longest(made("x `a`", "ab"))


def test_every_but_last_is_exactly_the_right_choices_before_a_wrong_last_one():
    assert every_but_last(made("x a", "x b", "c", many=True))
    assert not every_but_last(made("x a", "b", "x c", many=True))
    assert not every_but_last(made("x a", "x b", "x c", many=True))


# --- the course ----------------------------------------------------------------------------------

def test_every_lesson_has_predictions_to_measure():
    found = course()
    missing = {lesson.number for lesson in notebooks.written()} - {lesson for lesson, _, _ in found}
    assert not missing, f"lessons {sorted(missing)} have no '::: predict' block that was read"


def test_no_position_holds_more_than_40_percent_of_the_single_choice_keys():
    found = single(course())
    total = len(found)
    position, most = Counter(key_at(p) for _, _, p in found).most_common(1)[0]
    letter = notebooks.LETTERS[position]
    assert most <= MOST_AT_ONE_POSITION * total, (
        f"choice {letter} is the key of {most} of {total} single-choice predictions "
        f"({most / total:.0%}; at most {MOST_AT_ONE_POSITION:.0%}), so always answering "
        f"{letter} pays. Each lesson's keys in order, * marking those at {letter}:\n"
        + by_lesson(found, lambda p: key_at(p) == position))


def test_the_key_is_the_strictly_longest_choice_in_at_most_30_percent():
    found = single(course())
    total = len(found)
    longest = sum(key_is_longest(p) for _, _, p in found)
    assert longest <= MOST_KEYS_LONGEST * total, (
        f"the key is the strictly longest choice in {longest} of {total} single-choice "
        f"predictions ({longest / total:.0%}; at most {MOST_KEYS_LONGEST:.0%}), so picking "
        "the longest pays. Each lesson's keys in order, * marking a longest one:\n"
        + by_lesson(found, key_is_longest))


def test_at_most_one_multi_select_key_is_every_choice_but_the_last():
    found = [(lesson, n) for lesson, n, p in course() if p.many and every_but_last(p)]
    habit = len(found)
    assert habit <= MOST_EVERY_BUT_LAST, (
        f"{habit} multi-select predictions have every choice right but the last (at most "
        f"{MOST_EVERY_BUT_LAST}), a habit a student learns to tap: "
        + ", ".join(f"lesson {lesson} prediction {n}" for lesson, n in found))

