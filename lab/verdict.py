"""The verdict on one test, decided outside the student's process.

A test passes when the student's run made the same checks as the reference's, found the same
value at every one, and ended without an error. The message for a failure is written here,
from the reference's own record of that check (its `why`, and what it found) beside what the
student's run found, so that it cannot be forged by the code under test.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from lab.observe import difference


@dataclass
class Outcome:
    id: str
    says: str  # the test's sentence in plain words
    lab_id: str | None
    verdict: str  # "pass", "fail", "timeout" or "crash"
    message: str = ""
    checks: int = 0  # how many checks the test holds
    trace: str | None = None  # the traceback behind an exception, shown with --verbose

    def to_dict(self) -> dict:
        return {"id": self.id, "says": self.says, "lab": self.lab_id, "verdict": self.verdict,
                "message": self.message, "checks": self.checks}


def _shown(encoded: str) -> str:
    """An encoded value as a student reads it: a string without its JSON quotes."""
    try:
        value = json.loads(encoded)
    except ValueError:
        return encoded
    if isinstance(value, str):
        text = value if "\n" not in value else "\n" + "\n".join("      | " + line
                                                                  for line in value.split("\n"))
    elif isinstance(value, dict) and set(value) == {"$repr"}:
        text = value["$repr"]
    else:
        text = encoded
    return text if len(text) <= 600 else text[:600] + f" ... ({len(text)} characters in all)"


def judge(test_id, says, lab_id, expected, seen, error, kind) -> Outcome:
    """Compare the checks `seen` [(encoded value, why)] with the reference's `expected`
    ({"checks": [encoded...], "why": [...]}, or None when the kit has no record of the test)."""
    if expected is None:
        return Outcome(test_id, says, lab_id, "fail",
                       "The kit has no reference record for this test, so it cannot be judged. "
                       "(For a course author: run `python -m tools.make` to record it.)")
    wanted, whys = expected["checks"], expected["why"]
    n = len(wanted)
    for i, (value, _) in enumerate(seen[:n]):
        if value != wanted[i]:
            where = difference(wanted[i], value)
            return Outcome(test_id, says, lab_id, "fail",
                           f"{whys[i]}\n    expected: {_shown(wanted[i])}\n"
                           f"    found:    {_shown(value)}" + (f"\n    {where}" if where else ""), n)
    if len(seen) < n:
        if kind == "turns":
            return Outcome(test_id, says, lab_id, "timeout", error, n)
        reason = error or "The test ended before making all of its checks."
        return Outcome(test_id, says, lab_id, "fail",
                       f"{reason}\n    (stopped before this check: {whys[len(seen)]})", n)
    if len(seen) > n:
        return Outcome(test_id, says, lab_id, "fail",
                       "The test made more checks than the reference run did, so its run took "
                       "a different path.", n)
    if error:
        verdict = "timeout" if kind == "turns" else "fail"
        return Outcome(test_id, says, lab_id, verdict,
                       f"Every check matched, then the test failed: {error}", n)
    return Outcome(test_id, says, lab_id, "pass", "", n)
