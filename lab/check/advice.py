"""Advice for a student, read from a check's outcomes: which failure is probably collateral,
what a file that holds none of the lab's code is told in place of every test's failure, and
what to do next.

The checker's closing line, the desk's practice check and the grader's feedback files all say
these things, so they are decided here, once, in the engine that decided the outcomes; each
decision is a fact (`Next`, a lab id, a list of names) and lab/check/words_lines.py says it.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from enum import StrEnum

from lab.check import manifest, spoken, words, words_lines
from lab.check.facts import NotRun, missing_name
from lab.check.verdict import Outcome, Verdict
from lab.check.words_lines import NAMES_SHOWN, RULE_CHARACTERS

__all__ = ["NAMES_SHOWN", "RULE_CHARACTERS", "Next", "Step", "blank", "collateral",
           "collateral_lab", "missing", "next_step", "rule", "sentence", "step", "unfit"]


def collateral_lab(test_lab: str | None, checked: str) -> bool:
    """Whether a failing test of lab `test_lab` is, in a check of lab `checked`, an earlier
    lab's, whose code the starter held finished: its failure is most likely caused by the
    student's new code."""
    return not (test_lab is None or test_lab == checked or
                manifest.key(test_lab) > manifest.key(checked))


def collateral(test_lab: str | None, checked: str) -> str | None:
    """The label of a failing test of an earlier lab in a check of lab `checked`, or None when
    the test is the checked lab's own (or belongs to no lab): it says the failure is probably
    collateral and sends them to their gaps."""
    if test_lab is None or not collateral_lab(test_lab, checked):
        return None
    return words_lines.collateral_label(test_lab, checked)


def rule(outcome: Outcome) -> str:
    """The first line of a failure's message: the rule its check states, or why it stopped."""
    return words_lines.first_line(outcome.message, outcome.verdict)


def sentence(says: str) -> str:
    """The test's own sentence, in quotes, cut as a rule is."""
    return words_lines.quoted(says)


class Step(StrEnum):
    """Which of the closing line's pieces of advice a check ends with."""
    IMPORT = "import"  # harness.py did not import
    MISSING = "missing"  # the file holds none of the lab's names
    NOT_RUN = "not run"  # a repeated hang, or the whole run's time limit, left tests unrun
    START_MINE = "start mine"  # passes; the next lab can start from this file
    START = "start"  # passes; the next lab starts from its starter
    RELEASE_END = "release end"  # passes, and is this release's last lab
    COURSE_END = "course end"  # passes, and is the course's last lab
    FIX = "fix"  # the first failing test of the lab's own set
    FIX_COLLATERAL = "fix collateral"  # every own test passes; the first earlier one fails


@dataclass(frozen=True)
class Next:
    """What a check's closing line advises, as a fact: the step, the lab checked, the lab to
    start next, and the outcomes it names (the test to fix, or the one whose run stopped the
    rest and the first test that stopped)."""
    step: Step
    lab: str
    later: str | None = None
    test: Outcome | None = None
    stopped: Outcome | None = None


def step(lab_id: str, outcomes: list[Outcome], *, import_error: bool = False,
         carried: bool = False) -> Next:
    """The closing line's advice. The next lab's start when every test passed (from this file
    when `carried`: the student's own in the lab's folder, which `course start NEXT --mine` can
    carry forward, never in the browser's page, whose Python has no merge); the hang that
    stopped the run and the first test it stopped, when tests were left unrun; otherwise the
    first failing test of the lab's own set, or, when all of those pass, the first failing
    earlier test, probably collateral."""
    failing = [o for o in outcomes if o.verdict is not Verdict.PASS]
    if import_error:
        return Next(Step.IMPORT, lab_id)
    if missing(outcomes):
        return Next(Step.MISSING, lab_id)
    not_run = next((i for i, o in enumerate(outcomes) if not o.ran), None)
    if not_run is not None:
        first = not_run
        while first > 0 and outcomes[first - 1].verdict is Verdict.TIMEOUT:
            first -= 1
        return Next(Step.NOT_RUN, lab_id, test=outcomes[not_run],
                    stopped=outcomes[first] if first < not_run else None)
    if not failing:
        later = [x for x in manifest.labs(built_only=True)
                 if manifest.key(x.id) > manifest.key(lab_id)]
        if later and carried and not manifest.IN_BROWSER:
            return Next(Step.START_MINE, lab_id, later[0].id)
        if later:
            return Next(Step.START, lab_id, later[0].id)
        return Next(Step.RELEASE_END if manifest.more_to_come() else Step.COURSE_END, lab_id)
    own = [o for o in failing if not collateral_lab(o.lab_id, lab_id)]
    if own:
        return Next(Step.FIX, lab_id, test=own[0])
    return Next(Step.FIX_COLLATERAL, lab_id, test=failing[0])


def next_step(lab_id: str, outcomes: list[Outcome], *, import_error: bool = False,
              carried: bool = False) -> str:
    """The checker's closing line: `step`'s advice in a student's words, each command named as
    typed where the check ran (lab/check/spoken.py): in the browser's page, as a cell's call;
    and `course hint LAB` wherever something is left to fix."""
    said = step(lab_id, outcomes, import_error=import_error, carried=carried)
    hinted = words_lines.hint(spoken.command("hint", lab_id))
    test = said.test
    if said.step is Step.IMPORT:
        return words_lines.next_import_error()
    if said.step is Step.MISSING:
        return words_lines.next_missing(lab_id, hinted)
    if said.step is Step.NOT_RUN and test is not None:
        reason = (words.not_run_reason(test.cause) if isinstance(test.cause, NotRun) else
                  test.message)
        return words_lines.next_not_run(
            reason, sentence(said.stopped.says) if said.stopped else None, hinted)
    if said.step is Step.START_MINE and said.later:
        return words_lines.next_start_mine(lab_id, said.later,
                                           spoken.command("start", said.later, mine=True),
                                           spoken.command("start", said.later))
    if said.step is Step.START and said.later:
        return words_lines.next_start(lab_id, said.later, spoken.command("start", said.later))
    if said.step is Step.RELEASE_END:
        return words_lines.next_release_end(lab_id)
    if said.step is Step.COURSE_END:
        return words_lines.next_course_end(lab_id)
    assert test is not None, said
    if said.step is Step.FIX:
        return words_lines.next_fix(test.lab_id, sentence(test.says), rule(test), hinted)
    return words_lines.next_fix_collateral(lab_id, collateral(test.lab_id, lab_id) or "",
                                           sentence(test.says), rule(test), hinted)


def missing(outcomes) -> list[str] | None:
    """The names harness.py lacks, in the order the tests first needed them, when there were
    tests, none passed, and each failed for lack of a name: a file that is empty, or not the
    lab's. None otherwise: then each failure says something of its own. Read from each
    outcome's (or grade row entry's) fact, facts.missing_name: a test stopped by a name it
    used, or a check whose found value says one was missing (kit.raised)."""
    names: list[str] = []
    for o in outcomes:
        name = missing_name(o.cause) if o.verdict is not Verdict.PASS else None
        if name is None:
            return None
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
    """The one line said in place of `tests` failures that each lacked a name (missing())."""
    return words_lines.unfit(lab_id, names, tests, empty=empty)
