"""Advice for a student, read from a check's outcomes: which failure is probably collateral,
what a file that holds none of the lab's code is told in place of every test's failure, and
what to do next.

The checker's closing line, the desk's practice check and the grader's feedback files all say
these things, so they are said here, once, in the engine that decided the outcomes.
"""
from __future__ import annotations

import ast
import re

from lab.check import manifest, spoken
from lab.check.verdict import Verdict

RULE_CHARACTERS = 240  # of the rule quoted in the closing line, so that it stays one line
NAMES_SHOWN = 4  # of the names a file lacks, in the line that says it lacks them all
# A test that used a name harness.py does not define: lab/check/child.py's words when the test
# stopped there, Python's when a check caught it (kit.raised)
NO_SUCH_NAME = re.compile(r"harness\.py has no ([\w.]+) yet\b|"
                          r"AttributeError: module 'harness' has no attribute '(\w+)'")


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


def next_step(lab_id: str, outcomes, *, import_error: bool = False,
              carried: bool = False) -> str:
    """The checker's closing line: what to do next. The next lab's `course start` when every
    test passed; the hang that stopped the run and the first test it stopped, when tests were
    left unrun; otherwise the first failing test of the lab's own set, or, when all of those
    pass, the first failing earlier test, labelled as probably collateral, each named by its
    sentence, with the first line of what it reported (its rule, or why it stopped); and
    `course hint LAB` either way. `carried`: the file checked is the student's own in the lab's
    folder, which `course start NEXT --mine` can carry forward (never in the browser's page,
    whose Python has no merge), so a pass names that start first. Each command is named as typed where the check ran
    (lab/check/spoken.py): in the browser's page, as a cell's call."""
    hint = f"{spoken.command('hint', lab_id)} gives a hint"
    failing = [o for o in outcomes if o.verdict is not Verdict.PASS]
    if import_error:
        return ("Next: harness.py does not import, so no test could run; fix the error above "
                "(`python harness.py` shows it too), then check again.")
    if missing(outcomes):
        return f"Next: put your code for lab {lab_id} in harness.py, then check again; {hint}."
    not_run = next((i for i, o in enumerate(outcomes) if not o.ran), None)
    if not_run is not None:  # a repeated hang, or the whole run's time limit
        first = not_run
        while first > 0 and outcomes[first - 1].verdict is Verdict.TIMEOUT:
            first -= 1
        said = outcomes[not_run].message.removeprefix("Not run: ")
        stopped = (f" The first test it stopped: {sentence(outcomes[first].says)}."
                   if first < not_run else "")
        return f"Next: {said}{stopped} Then {hint}."
    if not failing:
        later = [x for x in manifest.labs(built_only=True)
                 if manifest.key(x.id) > manifest.key(lab_id)]
        if later and carried and not manifest.IN_BROWSER:
            return (f"Next: lab {lab_id} passes; start lab {later[0].id} from this file with "
                    f"{spoken.command('start', later[0].id, mine=True)} (its changes merged into "
                    f"your code), or from the kit's starter with "
                    f"{spoken.command('start', later[0].id)}.")
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


def missing(outcomes) -> list[str] | None:
    """The names harness.py lacks, in the order the tests first needed them, when there were
    tests, none passed, and each failed for lack of a name: a file that is empty, or not the
    lab's. None otherwise: then each failure says something of its own."""
    names: list[str] = []
    for o in outcomes:
        found = NO_SUCH_NAME.search(o.message) if o.verdict is not Verdict.PASS else None
        if not found:
            return None
        name = found.group(1) or found.group(2)
        if name not in names:
            names.append(name)
    return names or None


def blank(text: str) -> bool:
    """Whether a harness.py holds no code: only blank lines, comments, perhaps a docstring."""
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # not blank: not Python
        return False
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return not body


def unfit(lab_id: str, names: list[str], tests: int, *, empty: bool) -> str:
    """The one line said in place of `tests` failures that each lacked a name (missing()):
    the file is empty, or lacks the names, so there is one thing to fix, not one a test."""
    each = "the one test" if tests == 1 else f"each of the {tests} tests"
    if empty:
        return (f"harness.py is empty: {each} stopped at the first name it needed. Put your "
                f"code for lab {lab_id} in it, then check again.")
    shown = ", ".join(names[:NAMES_SHOWN]) + (f" and {len(names) - NAMES_SHOWN} more"
                                               if len(names) > NAMES_SHOWN else "")
    return (f"harness.py lacks the names the tests use ({shown}): {each} stopped at the "
            f"first it needed. Is it your file for lab {lab_id}, with the starter's names?")
