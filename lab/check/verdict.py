"""The verdict on one test, decided outside the student's process.

A test passes when the student's run made the same checks as the reference's, found the same
value at every one, and ended without an error. The message for a failure is written here,
from the reference's own record of that check (its `why`, and what it found) beside what the
student's run found, so that it cannot be forged by the code under test.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from lab.check import facts, words, words_lines
from lab.check.exercised import reached
from lab.check.facts import Cause, Mismatch
from lab.check.observe import agrees, decode_params, difference
from lab.check.protocol import Observed
from lab.check.rules import Rule
from lab.check.seeds import Expectation
# The words of a found value and of a stopped test are lab/check/words.py's; named here too
# for the callers that have always found them here.
from lab.check.words import held, shown, shown_found

__all__ = ["Outcome", "Verdict", "expectation", "held", "judge", "sets_line", "shown",
           "shown_found"]


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
        return words_lines.mark(self.value)

    @property
    def words(self) -> str:
        """The verdict as a sentence's end, for feedback files and Gradescope."""
        return words_lines.verdict_said(self.value)


def sets_line(sets) -> str:
    """The line that says which sets of tests ran (lab/check/words_lines.py's)."""
    return words_lines.sets_line(sets)


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
    # Why it ended as it did (lab/check/facts.py), where that is more than its verdict: what
    # advice, the grader's groups and the class page read, never `message`.
    cause: Cause | None = None
    error: str | None = None  # how the test ended, in a student's words, when it raised
    # The rule of the check it failed at (lab/check/rules.py), as the student is shown it: the
    # check whose value differed or was of another kind, or the one it stopped before. None
    # when it failed at no check (it ended in an error after them, or had no record): what the
    # class page matches the catalogue's wrong designs by, never `message`.
    rule: Rule | None = None

    def __post_init__(self):
        self.verdict = Verdict(self.verdict)

    def to_dict(self) -> dict:
        return {"id": self.id, "says": self.says, "lab": self.lab_id, "verdict": self.verdict,
                "message": self.message, "checks": self.checks}


def expectation(checks: list[str], why: list[str], kinds: list[str],
                params: Sequence[str] = ()) -> dict:
    """What the reference found in one test, as expected.json keeps it (seeds.Expectation's
    dict)."""
    return Expectation(tuple(checks), tuple(why), tuple(kinds), tuple(params)).to_dict()


def judge(test_id, says, lab_id, expected, seen: list[Observed], error, stop,
          cause: Cause | None = None, source: str | None = None) -> Outcome:
    """Compare the observations `seen` with the reference's `expected` (an expectation(), or
    None when the kit has no record of the test); `error`, `stop` and `cause` are how the test
    ended (protocol.Ended). Each check is held against the reference's by the kind the
    reference made it with (lab/check/observe.py). The outcome keeps the fact behind its
    verdict; its message is that fact in a student's words (lab/check/words.py). `source` is
    the code of the test's file, which the run has read already (exercised.reached)."""
    error = words.ended(cause, error)

    def outcome(verdict: Verdict, message: str, n: int = 0, fact: Cause | None = cause,
                rule: Rule | None = None) -> Outcome:
        return Outcome(test_id, says, lab_id, verdict, message, n, cause=fact, error=error,
                       rule=rule)
    if expected is None:
        made = outcome(Verdict.FAIL, words.no_record(error))
        made.found = [(o.why, shown(o.value)) for o in seen]
        return made
    reach = reached(lab_id, test_id, source)
    record = Expectation.from_dict(expected)
    rules = [rule.credited(reach) for rule in record.rules]
    wanted, whys, kinds = record.checks, [rule.said for rule in rules], record.kinds
    n = len(wanted)
    for i, observed in enumerate(seen[:n]):
        if observed.check != kinds[i] or observed.params != record.params[i]:
            return outcome(Verdict.FAIL, words.other_kind(whys[i]), n, None, rules[i])
        params = decode_params(record.params[i])  # the reference's, never the child's word
        if not agrees(wanted[i], observed.value, kinds[i], params):
            fact = Mismatch(i, whys[i], _kept(wanted[i]), _kept(observed.value), kinds[i],
                            difference(wanted[i], observed.value, kinds[i],
                                       _labels(rules[i]), params), observed.lacks)
            # the message shows the values whole, as far as words.shown shows any value
            return outcome(Verdict.FAIL, words.mismatch(
                Mismatch(i, whys[i], wanted[i], observed.value, kinds[i], fact.difference)),
                n, fact, rules[i])
    if len(seen) < n:
        if stop in ("turns", "spun"):
            return outcome(Verdict.TIMEOUT, error, n, rule=rules[len(seen)])
        return outcome(Verdict.FAIL, words.stopped_before(error, whys[len(seen)]), n,
                       rule=rules[len(seen)])
    if len(seen) > n:
        return outcome(Verdict.FAIL, words.MORE_CHECKS, n, None)
    if error:
        verdict = Verdict.TIMEOUT if stop in ("turns", "spun") else Verdict.FAIL
        return outcome(verdict, words.failed_after(error), n)
    return outcome(Verdict.PASS, "", n, None)


def _labels(rule) -> list[str] | None:
    return list(rule.items) if rule.items is not None else None


def _kept(encoded: str) -> str:
    """An encoded value as a Mismatch keeps it: cut at facts.VALUE_CHARACTERS."""
    return encoded[:facts.VALUE_CHARACTERS]
