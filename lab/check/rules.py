"""A check's rule as its test declared it, as a type: the sentence in its parts, the functions of
harness.py it credits and the lesson that teaches them, and the names it gives a list's items.

A test declares each rule as one sentence, `t.expect(found, wanted, why)`, in the form the
kit's tests keep: it may end by crediting what it is about, "(context_for_model, lesson 5)",
and may name the items of the list it checks, "The items are [the record, requests]" or
"Items: the record, is_running". `Rule.declared` is the one reader of that form, at the place
the declaration enters the reference's record (lab/check/seeds.py's Expectation); the judge
decides on the Rule's fields (`credited`, `items`) and writes its sentence with `said`, so
nothing reads a rule's words after that. A declaration whose words the reader cannot take
apart is a fault of the test, which tests/check/test_rules.py holds for every kit test.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from lab.check import manifest

# "(context_for_model, lesson 5)" or "(Harness.steer and run_agent, lesson 9)" in a rule
_CREDIT = re.compile(r"\(([^()]+), lesson (\d+)\)")
_NAMES = re.compile(r",| and ")
_ITEMS = re.compile(r"[Ii]tems(?: are|:)\s*")
_CITED = re.compile(r" \([^()]*\blessons? \d[^()]*\)")  # "(run_tool, lesson 4)", which closes a rule
_SEPARATORS = re.compile(r",? then |; |, and |, | and ")


@dataclass(frozen=True)
class Credit:
    """What a rule credits: the names it gives (functions of harness.py, or words such as
    "bash's finally") and the lesson that teaches them. `said` is the declaration's own text
    for it, kept while the credit stands as declared; None once the judge has changed it."""
    names: tuple[str, ...]
    lesson: int
    said: str | None = None

    @property
    def text(self) -> str:
        if self.said is not None:
            return self.said
        return "(" + ", ".join([*self.names, f"lesson {self.lesson}"]) + ")"


@dataclass(frozen=True)
class Rule:
    """A rule: its sentence as text and credits in order, and the names of its list's items
    (None where it names none)."""
    parts: tuple[str | Credit, ...]
    items: tuple[str, ...] | None = None

    @property
    def said(self) -> str:
        """The rule's sentence: the declaration's own, or the judge's after `credited`."""
        return "".join(part if isinstance(part, str) else part.text for part in self.parts)

    @property
    def credits(self) -> tuple[Credit, ...]:
        return tuple(part for part in self.parts if isinstance(part, Credit))

    def to_dict(self) -> dict[str, Any]:
        """The rule as JSON-ready data (a grade row's, grades.json's): each part a text or a
        credit's fields, and the items' names."""
        return {"parts": [part if isinstance(part, str) else
                          {"names": list(part.names), "lesson": part.lesson, "said": part.said}
                          for part in self.parts],
                "items": None if self.items is None else list(self.items)}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> "Rule":
        """The rule `to_dict` made. Raises KeyError, TypeError or ValueError for anything else,
        as grades.json's reader expects of a field it cannot read."""
        parts: list[str | Credit] = []
        for part in data["parts"]:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict):
                names, said = part["names"], part.get("said")
                if not isinstance(names, list) or not all(isinstance(n, str) for n in names) \
                        or not isinstance(part["lesson"], int) \
                        or not (said is None or isinstance(said, str)):
                    raise ValueError(f"not a rule's credit: {part!r}"[:200])
                parts.append(Credit(tuple(names), part["lesson"], said))
            else:
                raise ValueError(f"not a part of a rule: {part!r}"[:200])
        items = data.get("items")
        if items is not None and not (isinstance(items, list)
                                      and all(isinstance(i, str) for i in items)):
            raise ValueError(f"not a rule's items: {items!r}"[:200])
        return Rule(tuple(parts), None if items is None else tuple(items))

    @property
    def functions(self) -> frozenset[str]:
        """The names the rule credits, each as it credits it and by its root ("Harness" of
        "Harness.steer"): which function of harness.py the rule is about."""
        names = {name for credit in self.credits for name in credit.names}
        return frozenset(names | {name.split(".")[0] for name in names})

    @property
    def text(self) -> str:
        """The rule's sentence without its credits: the words its test's author wrote."""
        return "".join(part for part in self.parts if isinstance(part, str))

    @staticmethod
    @lru_cache(maxsize=4096)
    def declared(why: str) -> "Rule":
        """The rule a test declared as `why`: a grader judges the same rules submission after
        submission, so each is taken apart once."""
        parts: list[str | Credit] = []
        at = 0
        for match in _CREDIT.finditer(why):
            parts.append(why[at:match.start()])
            names = tuple(n.strip() for n in _NAMES.split(match.group(1)) if n.strip())
            parts.append(Credit(names, int(match.group(2)), match.group(0)))
            at = match.end()
        parts.append(why[at:])
        return Rule(tuple(part for part in parts if part != ""), _item_names(why))

    def credited(self, reach: frozenset[str] | None) -> "Rule":
        """This rule with each credit kept only where the test reaches one of its functions:
        a student whose run_agent is wrong must not be sent to a function the test reaches only
        through it. A credit stands when it names anything that is not a function a lab adds
        ("bash's finally"), or when the test reaches one it names; otherwise the one function
        the test reaches is credited in their place, or none: "(lesson 5)". `reach` is
        lab/check/exercised.py's, None when it cannot be told (nothing changes then)."""
        if not reach:
            return self
        only = tuple(sorted(name for name in reach if manifest.introduced_by(name)))

        def fixed(credit: Credit) -> Credit:
            roots = {name.split(".")[0] for name in credit.names}
            if not all(manifest.introduced_by(root) for root in roots) or roots & reach:
                return credit
            return Credit(only if len(only) == 1 else (), credit.lesson)
        return replace(self, parts=tuple(part if isinstance(part, str) else fixed(part)
                                         for part in self.parts))


def _item_names(why: str) -> tuple[str, ...] | None:
    """The names a rule gives the items of its list ("Items: the record, is_running" or "the
    items are [content, is_error]"), in order; None when it names none. A name may hold
    brackets with commas inside ("[name, arguments] for each question"): only commas outside
    brackets part names. The judge uses them only where there is one for each item."""
    found = _ITEMS.search(why)
    if not found:
        return None
    text = why[found.end():]
    if text.startswith("["):
        depth = 0
        for end, char in enumerate(text):
            depth += {"[": 1, "]": -1}.get(char, 0)
            if depth == 0:
                text = text[1:end]
                break
    else:
        cited = _CITED.search(text)
        text = text[:cited.start()] if cited else text
        text = re.split(r"\.(?:\s|$)", text, maxsplit=1)[0]
    names, depth, start = [], 0, 0
    for at, char in enumerate(text):
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(char, 0)
        separator = _SEPARATORS.match(text, at) if depth == 0 else None
        if separator and at >= start:
            names.append(text[start:at])
            start = separator.end()
    names.append(text[start:])
    items = tuple(name.strip() for name in names if name.strip())
    return items or None
