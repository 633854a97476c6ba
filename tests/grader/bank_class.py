"""A lab graded with its grading bank, for the tests that read the result: the red team's
oracle and an adaptive one against it (tests/grader/test_grader_oracle.py, on lab 5.1 and on
lab 15.2, the lab the red team used), and the bank's secrets kept from what a student may be
given (tests/grader/test_grader_hidden.py, on lab 5.1). The class and its attackers are
tools/oracle.py's; each lab's is graded once per test run.
"""
from __future__ import annotations

import ast
import functools

from lab.check import manifest, suite

from grader import bank
from tests import made_once
from tools.oracle import LEAKER, ORACLE, grade_class

LAB = manifest.lab("5.1")
LABS = ("5.1", "15.2")  # the banked labs the oracles are graded on


def graded(factory, lab_id: str = LAB.id) -> dict:
    """Lab `lab_id`'s class graded by `grader grade` (its lab folder, summary and rows) and
    each of its files' Gradescope results.json, made once per test run."""
    lab = manifest.lab(lab_id)
    key = made_once.key_of("bank-class", lab.id, ORACLE, LEAKER, bank.path_of(lab.id).read_text(
        encoding="utf-8"), lab.solution.read_text(encoding="utf-8"))
    return made_once.value(factory, f"bank-class-{key}", lambda folder: grade_class(folder, lab))


@functools.cache
def bank_secrets(lab_id: str = LAB.id) -> tuple[str, ...]:
    """Every line of a lab's bank, as written and as blinded for the student's process, and
    every string it holds, that no public tests.py holds too: what no file a student is given
    may hold. Read once per lab and process, since every row of a class is searched for them."""
    source = bank.path_of(lab_id).read_text(encoding="utf-8")
    public = "\n".join(lab.tests.read_text(encoding="utf-8")
                       for lab in manifest.labs(built_only=True))
    public_lines = {line.strip() for line in public.splitlines()}
    lines = {line.strip() for text in (source, suite.blind(source))
             for line in text.splitlines()}
    found = [line for line in lines if len(line) >= 16 and line not in public_lines]
    found += [node.value for node in ast.walk(ast.parse(source))
              if isinstance(node, ast.Constant) and isinstance(node.value, str)
              and len(node.value) >= 8 and node.value not in public]
    return tuple(sorted(set(found)))


def bank_leaks(text: str, lab_id: str = LAB.id) -> list[str]:
    """The secrets of a lab's bank that `text` holds, as written or escaped in a repr."""
    return [s for s in bank_secrets(lab_id) if s in text or repr(s)[1:-1] in text]
