"""How two encoded values part, in a student's words: the line a failed check shows under its
expected and found values. lab/check/observe.py's kinds of check find where they part, as a
fact (lab/check/facts.py's Parted); the words are made here, so that rewording or translating
them changes nothing decided."""
from __future__ import annotations

from lab.check.facts import OtherItems, OtherLength, Parted, PartedAt


def parted(fact: Parted | str) -> str:
    """Where a found value parts from the wanted one: a fact of the kit's kinds of check, or
    the words a kind a course added gave."""
    if isinstance(fact, PartedAt):
        named = f" ({fact.label})" if fact.label else ""
        found = NOTHING_RAISED if fact.found is None else fact.found
        return (f"first difference, at item {fact.at} of {fact.of}{named}: expected "
                f"{fact.wanted}, found {found}")
    if isinstance(fact, OtherLength):
        return f"expected {fact.wanted} items, found {fact.found}"
    if isinstance(fact, OtherItems):
        said = [f"missing {', '.join(fact.missing)}" if fact.missing else "",
                f"not wanted {', '.join(fact.extra)}" if fact.extra else ""]
        return "in any order: " + "; ".join(part for part in said if part)
    return fact


NOTHING_RAISED = "nothing raised"  # a found item beside a wanted one that was raised
