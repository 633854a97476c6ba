"""A lab graded with its grading bank, for the tests that read the result: the red team's
oracle and an adaptive one against it (tests/grader/test_grader_oracle.py, on lab 5.1 and on
lab 15.2, the lab the red team used), and the bank's secrets kept from what a student may be
given (tests/grader/test_grader_hidden.py, on lab 5.1). The class and its attackers are
tools/oracle.py's; each lab's is graded once per test run.
"""
from __future__ import annotations

import ast
import functools
import hashlib

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


# What a release is made from: lab/, the built lessons and starters, the lessons' sources (not
# their ledgers, rules.toml, which name the bank's scenarios and are never released).
RELEASED_FROM = ("lab", "lessons", "starters", "source/lessons", "source/harness.src.py")


def _released_from() -> list:
    kit = manifest.KIT
    paths = [path for name in RELEASED_FROM for path in sorted(
        (kit / name).rglob("*") if (kit / name).is_dir() else [kit / name])]
    return [path for path in paths if path.is_file() and "__pycache__" not in path.parts
            and path.name != "rules.toml"]  # the ledger stays in the authors' wing


@functools.cache
def kit_digests() -> frozenset:
    """The sha256 of every file a release is made from: a release file with one of them is
    a kit file as it stands, which holds nothing kit_text does not."""
    return frozenset(hashlib.sha256(path.read_bytes()).digest() for path in _released_from())


@functools.cache
def kit_text() -> str:
    """Every file a release is made from, as one text. A bank's line found in a release and
    here too came from the course's own files (a demonstration cell's `last =
    request.messages[-1]`), not from the bank; test_grader_hidden.py checks apart that no
    lesson source holds a bank's scenario."""
    return "\n".join(path.read_bytes().decode("utf-8", "replace") for path in _released_from())


def in_kit(secret: str) -> bool:
    return secret in kit_text() or repr(secret)[1:-1] in kit_text()


def bank_leaks(text: str, lab_id: str = LAB.id) -> list[str]:
    """The secrets of a lab's bank that `text` holds, as written or escaped in a repr."""
    return [s for s in bank_secrets(lab_id) if s in text or repr(s)[1:-1] in text]
