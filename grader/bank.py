"""The private grading bank: for a lab, scenarios written per rule of its ledger that no student
holds, on which the grade rests.

Every student holds the public tests.py, and the code in their process can evaluate its wanted
expressions over the drawn cases, so a file with no harness code can pass them whatever the
seed (issue 40). A bank test is one whose code the student never had: it checks a rule of the
lab's Build list through another entry point than the public tests, or observes another thing,
so no public test's wanted expression gives its values.

    source/bank/NN-slug/labK.py    the bank of lab NN.K, in the form of its tests.py
                                   (@lab_test, t.expect, cases drawn from t.random); in the
                                   authors' wing, so never released
    rules.toml, bank = [...]       each rule's two to four scenarios (grader/ledger.py)
    lesson.toml, public_share      the share of the grade the public tests are worth (0.1: a
                                   tenth), set once per lesson, said in every feedback

A grading run draws a subset of the bank from its secret seed (`drawn`): of each rule's n
scenarios, max(2, n - 1) (`kept`), so every rule is checked, which scenario is left out changes
with the seed, and a design of the rule that fails two of its scenarios is caught by any draw.
The subset runs as the instructor's hidden tests run (grader/plan.py's Extra, grader/batch.py's
hidden run), its reference recorded when the plan is made; a failed one
shows the student the sentence of its rule (grader/ledger.py's sentence), never its code.
"""
from __future__ import annotations

import ast
import random
from dataclasses import dataclass
from pathlib import Path

from lab.check import manifest, words_feedback

from grader import ledger
from grader.errors import PlanError
from grader.refusals import BadShare, BankLedgerDisagree

FOLDER = "bank"  # under source/
SHARE = "public_share"  # the field of lesson.toml
NAME = "bank"  # the hidden file's name, as its tests' ids begin: bank::test_...
SET = "grading bank (hidden)"  # the set its tests are labelled with in every report
def path_of(lab_id: str) -> Path:
    """Where lab `lab_id`'s bank is: source/bank/NN-slug/labK.py."""
    lab = manifest.lab(lab_id)
    return manifest.SOURCE / FOLDER / lab.lesson.folder.name / f"lab{lab.number}.py"


def has_bank(lab_id: str) -> bool:
    return path_of(lab_id).is_file()


def public_share(lab_id: str) -> float:
    """The share of the grade the public tests of a lab with a bank are worth: the `public_share`
    of its lesson's lesson.toml, a number from 0 to under 1."""
    lesson = manifest.lab(lab_id).lesson
    toml = lesson.folder / "lesson.toml"
    share = lesson.public_share
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share < 1:
        raise PlanError(BadShare(ledger.shown(toml), SHARE, lab_id, share))
    return float(share)


def kept(scenarios: int) -> int:
    """How many of a rule's bank scenarios a run draws: all but one, and at least two (all of
    two). So a design of the rule is caught by every draw when it fails `scenarios - kept + 1`
    of them (tests/authoring/test_ledger.py holds each bank to that)."""
    return min(scenarios, max(2, scenarios - 1))


@dataclass(frozen=True)
class Drawn:
    """A bank's subset for one grading run: the code holding the drawn tests alone, and each
    drawn test's rule, as a student reads it ({function name: sentence})."""
    source: str
    rules: dict[str, str]


def drawn(lab_id: str, seed: int) -> Drawn | None:
    """The subset of lab `lab_id`'s bank a run under `seed` grades with; None for a lab with no
    bank. The draw is the seed's own, so a re-run into the same folder draws the same subset."""
    path = path_of(lab_id)
    if not path.is_file():
        return None
    source = path.read_text(encoding="utf-8")
    names = set(ledger.test_names(source))
    draw = random.Random(f"bank/{seed}/{lab_id}")
    rules, chosen = {}, set()
    for rule in ledger.of_lab(lab_id):
        lost = [name for name in rule.bank if name not in names]
        if lost or not rule.bank:
            raise PlanError(BankLedgerDisagree(lab_id, ledger.shown(path), rule.file, rule.id,
                                               tuple(lost)))
        picked = draw.sample(sorted(rule.bank), kept(len(rule.bank)))
        chosen.update(picked)
        rules.update({name: ledger.sentence(rule) for name in picked})
    return Drawn(_keeping(source, chosen), rules)


def line(lab_id: str, share: float | None, drawn_tests: int) -> str:
    """The one line every report says of the bank: what the public tests are worth and what
    the rest rests on, or, for a lab without a bank, that its grade rests on its public tests."""
    return words_feedback.bank_line(lab_id, share, drawn_tests)


def _keeping(source: str, chosen: set[str]) -> str:
    """`source` without the test functions not in `chosen` (their decorators with them)."""
    lines = source.splitlines(keepends=True)
    for node in reversed(ast.parse(source).body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.name.startswith("test_") and node.name not in chosen:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            del lines[start - 1:node.end_lineno]
    return "".join(lines)
