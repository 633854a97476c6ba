"""What the course's small commands say, in a cell or a terminal alike: an open answer saved or
recalled (lab/desk/answers.py) and a lab's hints (lab/desk/hints.py). Made here and only here
from facts (a lesson's number and title, a lab's name, counts and levels, a command as spoken);
and `course progress`'s states (lab/desk/progress.py); nothing reads them back
(tests/check/test_pseudo_localised.py swaps them all)."""
from __future__ import annotations


def lesson(number: int, title: str | None) -> str:
    """A lesson as a sentence names it: "lesson 4 (its title)", or its number alone."""
    return f"lesson {number} ({title})" if title else f"lesson {number}"


def nothing_saved() -> str:
    return "Nothing saved: write your answer between the quotes, then run the cell again."


def saved(lesson: str) -> str:
    return f"Saved your answer to {lesson}. It is not graded; a later lesson may show it to you."


def not_answered(lesson: str) -> str:
    return f"You have not answered this question from {lesson} yet."


def answered(lesson: str) -> str:
    return f"What you wrote in {lesson}:"


def no_hints(lab: str) -> str:
    return f"{_capital(lab)} has no hints."


def no_more_hints(lab: str) -> str:
    return f"There are no more hints for {lab}; here is the last one again.\n"


def hints_seen(furthest: int, count: int, lab: str, command: str, levels: list[str]) -> str:
    seen = "hint 1" if furthest == 1 else f"hints 1 to {min(furthest, count)}"
    return (f"You have seen {seen} of {count} for {lab} (in a cell or with {command}): "
            f"{_levels(levels)}. Change the 0 to the one you want and run this cell again.")


def no_hint_yet(lab: str, levels: list[str]) -> str:
    return (f"No hint shown yet. {_capital(lab)} has {len(levels)} hints: {_levels(levels)}. "
            "Change the 0 to 1 and run this cell again for the first.")


def hint_heading(level: int, count: int, lab: str, name: str) -> str:
    return f"Hint {level} of {count} for {lab}: {name}\n"


def level_name(level: int, named: str | None) -> str:
    """A hint level's name: the kit's own for the first levels (manifest.HINT_LEVELS), else its
    number."""
    return named if named else f"level {level}"


def lab_state(kind: str, passed: int, total: int, shown_in: str | None) -> str:
    """What `course progress` prints for a lab of this kind (lab/desk/progress.py's kinds):
    `shown_in` names the later lab whose file passes its tests, when one does."""
    elsewhere = f"; its tests pass in your lab {shown_in} file" if shown_in else ""
    if kind == "later":
        return "coming later"
    if kind == "passing":
        return f"passing ({total}/{total})" if total else "passing"
    if kind == "failing":
        return f"failing ({passed}/{total}){elsewhere}"
    if kind == "started":
        return f"started{elsewhere}"
    return f"not started{elsewhere}"


def lesson_state(kind: str) -> str:
    """What `course progress` prints for a lesson, from its labs' kinds taken together."""
    return {"none": "no lab", "later": "coming later", "passing": "passing",
            "new": "not started"}.get(kind, "started")


def _levels(levels: list[str]) -> str:
    return "; ".join(f"{n}, {name}" for n, name in enumerate(levels, start=1))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
