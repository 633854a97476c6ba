"""The verdict on one test, decided outside the student's process.

A test passes when the student's run made the same checks as the reference's, found the same
value at every one, and ended without an error. The message for a failure is written here,
from the reference's own record of that check (its `why`, and what it found) beside what the
student's run found, so that it cannot be forged by the code under test.
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from enum import StrEnum

from lab.check.exercised import credited, reached
from lab.check.hangs import Place
from lab.check.observe import RAISED, agrees, difference
from lab.check.protocol import Observed


class Verdict(StrEnum):
    """The four verdicts, and every way they are written: a str, so JSON, CSV and journals
    carry the plain value ("pass") and read it back."""
    PASS = "pass"
    FAIL = "fail"
    TIMEOUT = "timeout"  # out of turns, or held the process past the wall-clock guard
    CRASH = "crash"  # the process running harness.py died during the test

    @property
    def mark(self) -> str:
        """The four letters the checker prints before a test's sentence."""
        return {"pass": "PASS", "fail": "FAIL", "timeout": "TIME", "crash": "DIED"}[self.value]

    @property
    def words(self) -> str:
        """The verdict as a sentence's end, for feedback files and Gradescope."""
        return {"pass": "passed", "fail": "failed", "timeout": "ran out of time",
                "crash": "the process died"}[self.value]


def spun(measure: str, place: Place | None = None) -> str:
    """The verdict's words on a test stopped for spinning: it used `measure` ("0.5 seconds of
    processor time") at `place` without ending. The child's guard and the practice check's
    (lab/check/spin.py) say it alike."""
    return _stopped(place, f"spun{{at}} through {measure} without giving the event loop a turn "
                    "(a loop that never awaits)",
                    f"went round{{at}} for {measure} without ending, where the reference ends in "
                    "milliseconds (a loop whose way out is never reached?)")


def held(seconds: float, place: Place | None = None) -> str:
    """The verdict's words on a test stopped by the wall clock: it held the process `seconds`
    at `place` without ending (and without a turn of the event loop, where there is one)."""
    span = f"held the process for {seconds:g} second{'' if seconds == 1 else 's'}{{at}}"
    return _stopped(place, f"{span} without giving the event loop a turn (a call that blocks, "
                    "such as time.sleep, or a busy loop)",
                    f"{span} without ending (a call that blocks, such as time.sleep, or a loop "
                    "that never ends)")


def _stopped(place: Place | None, evented: str, plain: str) -> str:
    """A stopped test's verdict, naming `place` where it is known. The event loop is named
    (`evented`) only where harness.py has async code, or the place is unknown: the early
    lessons' synchronous files have no turn to give (`plain`)."""
    known = place is not None and place.function is not None
    words = plain if known and not place.async_code else evented
    at = f" in {place}" if known else ""
    return f"Timed out: this test {words.format(at=at)}. It was stopped; the other tests still ran."


# A test's fake asked once more than its script holds (lab/world/errors.py's ScriptExhausted),
# as lab/check/child.py writes it: "run_agent raised ScriptExhausted('...') (harness.py, line 9)."
# or, raised outside harness.py, "ScriptExhausted: ...".
_RAISED_IN = re.compile(r"(\w+) raised ScriptExhausted\((.*)\)( \(harness\.py, line \d+\))\.",
                        re.S)
_EXHAUSTED = re.compile(r"(ScriptedModel|Human|FakeProvider): (?:request|question) (\d+) has no "
                        r"scripted \w+ \(the script has (\d+)\)(?:\. The request it could not "
                        r"answer:\n|: |\. )?(.*?)(?:\nEach request uses up one entry\..*|\. Add "
                        r"an answer to Human\(\[\.\.\.\]\) for it)?", re.S)
_ASKED = {"ScriptedModel": ("the model", "request", "replies", "The request"),
          "Human": ("the person", "question", "answers", "The question"),
          "FakeProvider": ("the provider", "request", "streams", "The request")}


def for_students(error: str | None) -> str | None:
    """How a test ended, in a student's words. A test's fake that ran out of script says how to
    lengthen the script, which is advice for whoever wrote the test; a student did not write
    it, so they are told instead that their code asked once more than the test allows, and
    what it asked. Anything else is returned as it is."""
    if not error or "ScriptExhausted" not in error:
        return error
    who, where, message = "Your code", "", None
    raised = _RAISED_IN.fullmatch(error.strip())
    if raised:
        try:
            message = ast.literal_eval(raised.group(2))
        except (ValueError, SyntaxError):
            return error
        who, where = raised.group(1), raised.group(3)
    elif error.startswith("ScriptExhausted: "):
        message = error.removeprefix("ScriptExhausted: ")
    found = _EXHAUSTED.fullmatch(message.strip()) if isinstance(message, str) else None
    if not found:
        return error
    fake, number, scripted, detail = found.groups()
    whom, thing, answers, shown_as = _ASKED[fake]
    return (f"{who} asked {whom} again{where}: {thing} {number}, where this test scripts "
            f"only {scripted} {answers}, enough for the reference's code. Your code goes on "
            "where it should have stopped." +
            (f" {shown_as} it made:\n{detail.strip()}" if detail.strip() else ""))


def sets_line(sets) -> str:
    """The line that says which sets of tests ran: "Sets run: lab 2.1, 5 tests holding 12
    checks; ...". `sets` holds (name, tests, checks) for each set, in order."""
    def count(n, word):
        return f"{n} {word}" + ("" if n == 1 else "s")
    return "Sets run: " + "; ".join(f"{name}, {count(tests, 'test')} holding "
                                    f"{count(checks, 'check')}"
                                    for name, tests, checks in sets) + "."


@dataclass
class Outcome:
    id: str
    says: str  # the test's sentence in plain words
    lab_id: str | None
    verdict: Verdict
    message: str = ""
    checks: int = 0  # how many checks the test holds
    trace: str | None = None  # the traceback behind an exception, shown with --verbose
    # (why, found) for each check, kept only when there was no record to judge by: a run
    # under a seed the kit holds no reference for (`lab_check.py --seed N`) shows them.
    found: list | None = None
    ran: bool = True  # False: decided without running, as the tests after a repeated hang are

    def __post_init__(self):
        self.verdict = Verdict(self.verdict)

    def to_dict(self) -> dict:
        return {"id": self.id, "says": self.says, "lab": self.lab_id, "verdict": self.verdict,
                "message": self.message, "checks": self.checks}


def shown(encoded: str) -> str:
    """An encoded value as a student reads it: a string without its JSON quotes."""
    try:
        value = json.loads(encoded)
    except ValueError:
        return encoded
    if value == "":
        text = '"" (an empty string)'  # shown bare, it would read as a line left blank
    elif isinstance(value, str):
        text = value if "\n" not in value else "\n" + "\n".join("      | " + line
                                                                  for line in value.split("\n"))
    elif isinstance(value, dict) and set(value) == {"$repr"}:
        text = value["$repr"]
    else:
        text = encoded
    return text if len(text) <= 600 else text[:600] + f" ... ({len(text)} characters in all)"


def shown_found(wanted: str, found: str) -> str:
    """What a check found, shown: as shown(), except that where the reference's run raised
    ("ValueError: ...", as kit.raised reports it) and the student's raised nothing (None), it
    says so, rather than the bare "null" a student would have to decode."""
    try:
        nothing = json.loads(found) is None and RAISED.match(json.loads(wanted) or "")
    except (ValueError, TypeError):
        nothing = False
    return "nothing was raised" if nothing else shown(found)


_ITEMS = re.compile(r"[Ii]tems(?: are|:)\s*")
_CITED = re.compile(r" \([^()]*\blessons? \d[^()]*\)")  # "(run_tool, lesson 4)", which closes a rule
_SEPARATORS = re.compile(r",? then |; |, and |, | and ")


def item_labels(why: str) -> list[str] | None:
    """The names a check's rule gives the items of its list ("Items: the record, is_running"
    or "the items are [content, is_error]"), in order; None when it names none. A name may hold
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
    names = [name.strip() for name in names if name.strip()]
    return names or None


def expectation(checks: list[str], why: list[str], kinds: list[str]) -> dict:
    """What the reference found in one test, as expected.json keeps it: {"checks": [encoded
    values], "why": [rules]}, and "kinds" only when a check is of a kind other than "equal",
    so that a file of plain checks reads as it always has."""
    record = {"checks": list(checks), "why": list(why)}
    if any(kind != "equal" for kind in kinds):
        record["kinds"] = list(kinds)
    return record


def judge(test_id, says, lab_id, expected, seen: list[Observed], error, stop) -> Outcome:
    """Compare the observations `seen` with the reference's `expected` (an expectation(), or
    None when the kit has no record of the test); `error` and `stop` are how the test ended
    (protocol.Ended). Each check is held against the reference's by the kind the reference
    made it with (lab/check/observe.py)."""
    error = for_students(error)
    if expected is None:
        return Outcome(test_id, says, lab_id, Verdict.FAIL,
                       "The kit has no reference record for this test, so it cannot be judged. "
                       "(For a course author: run `python -m tools.make` to record it.)" +
                       (f"\n    The test ended: {error}" if error else ""),
                       found=[(o.why, shown(o.value)) for o in seen])
    reach = reached(lab_id, test_id)
    wanted, whys = expected["checks"], [credited(why, reach) for why in expected["why"]]
    kinds = expected.get("kinds") or ["equal"] * len(wanted)
    n = len(wanted)
    for i, observed in enumerate(seen[:n]):
        if observed.check != kinds[i]:
            return Outcome(test_id, says, lab_id, Verdict.FAIL,
                           f"{whys[i]}\n    This check was made as another kind of check than "
                           "the reference's, so the test's run took a different path.", n)
        if not agrees(wanted[i], observed.value, kinds[i]):
            where = difference(wanted[i], observed.value, kinds[i], item_labels(whys[i]))
            return Outcome(test_id, says, lab_id, Verdict.FAIL,
                           f"{whys[i]}\n    expected: {shown(wanted[i])}\n"
                           f"    found:    {shown_found(wanted[i], observed.value)}" +
                           (f"\n    {where}" if where else ""), n)
    if len(seen) < n:
        if stop in ("turns", "spun"):
            return Outcome(test_id, says, lab_id, Verdict.TIMEOUT, error, n)
        reason = error or "The test ended before making all of its checks."
        return Outcome(test_id, says, lab_id, Verdict.FAIL,
                       f"{reason}\n    (stopped before this check: {whys[len(seen)]})", n)
    if len(seen) > n:
        return Outcome(test_id, says, lab_id, Verdict.FAIL,
                       "The test made more checks than the reference run did, so its run took "
                       "a different path.", n)
    if error:
        verdict = Verdict.TIMEOUT if stop in ("turns", "spun") else Verdict.FAIL
        return Outcome(test_id, says, lab_id, verdict,
                       f"Every check matched, then the test failed: {error}", n)
    return Outcome(test_id, says, lab_id, Verdict.PASS, "", n)
