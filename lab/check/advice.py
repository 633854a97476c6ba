"""Advice for a student, read from a check's outcomes: which failure is probably collateral,
and what to do next.

The checker's closing line, the desk's practice check and the grader's feedback files all say
these things, so they are said here, once, in the engine that decided the outcomes.
"""
from __future__ import annotations

from lab.check import manifest, spoken
from lab.check.verdict import Verdict

RULE_CHARACTERS = 240  # of the rule quoted in the closing line, so that it stays one line


def collateral(test_lab: str | None, checked: str) -> str | None:
    """The label of a failing test of an earlier lab in a check of lab `checked`, or None when
    the test is the checked lab's own (or belongs to no lab). Lab `checked`'s starter held the
    earlier labs' code finished, so such a failure is most likely caused by the student's new
    code: the label says so and sends them to their gaps."""
    if test_lab is None or test_lab == checked or manifest.key(test_lab) > manifest.key(checked):
        return None
    return (f"a test of lab {test_lab}, whose code your starter gave you: it fails because of "
            f"code you changed for {checked}; look at your gaps first")


def rule(outcome) -> str:
    """The first line of a failure's message: the rule its check states, or why it stopped."""
    first = (outcome.message.strip().splitlines() or [outcome.verdict.words])[0].strip()
    return first if len(first) <= RULE_CHARACTERS else first[:RULE_CHARACTERS - 3] + "..."


def next_step(lab_id: str, outcomes, *, import_error: bool = False) -> str:
    """The checker's closing line: what to do next. The next lab's `course start` when every
    test passed; otherwise the first failing test of the lab's own set, or, when all of those
    pass, the first failing earlier test, labelled as probably collateral, each named by its
    sentence, with the first line of what it reported (its rule, or why it stopped); and
    `course hint LAB` either way. Each command is named as typed where the check ran
    (lab/check/spoken.py): in the browser's page, as a cell's call."""
    hint = f"{spoken.command('hint', lab_id)} gives a hint"
    failing = [o for o in outcomes if o.verdict is not Verdict.PASS]
    if import_error:
        return ("Next: harness.py does not import, so no test could run; fix the error above "
                "(`python harness.py` shows it too), then check again.")
    if not failing:
        later = [x for x in manifest.labs(built_only=True)
                 if manifest.key(x.id) > manifest.key(lab_id)]
        if later:
            return (f"Next: lab {lab_id} passes; start lab {later[0].id} with "
                    f"{spoken.command('start', later[0].id)}.")
        if manifest.more_to_come():
            return (f"Next: lab {lab_id} passes, and it is the last lab of this release: the "
                    "next release brings the labs after it.")
        return f"Next: lab {lab_id} passes, and it is the course's last lab: nothing is left to do."
    own = [o for o in failing if collateral(o.lab_id, lab_id) is None]
    if own:
        first = own[0]
        where = f"of lab {first.lab_id}" if first.lab_id else "of this check"
        return (f"Next: fix the first failing test {where} ({sentence(first.says)}), which "
                f"reported: {rule(first)} Then check again; {hint}.")
    first = failing[0]
    return (f"Next: every test of lab {lab_id} passes, but {collateral(first.lab_id, lab_id)}. "
            f"It ({sentence(first.says)}) reported: {rule(first)} Then check again; {hint}.")


def sentence(says: str) -> str:
    """The test's own sentence, in quotes, cut as a rule is: what the test checks, beside what
    it reported, so that an exception it reported is not read as the test's words."""
    said = " ".join(says.split())
    if len(said) > RULE_CHARACTERS // 2:
        said = said[:RULE_CHARACTERS // 2 - 3] + "..."
    return f'"{said}"'
