"""Which of harness.py's names a lab test reaches, read from the kit's tests file: the only
record of a test's target that the test itself keeps.

A check's rule may end by naming what it is about, "(context_for_model, lesson 5)", while
the test reaches that function only through another (run_agent calls context_for_model). A
student whose run_agent is wrong must not be sent to a function they never touched: the
judge gives the rule's typed credit (lab/check/rules.py's Rule.credited) what this module reads
from the test's code, which is a fact of the code, not of any sentence.
"""
from __future__ import annotations

import ast
from functools import lru_cache

from lab.check import manifest

@lru_cache(maxsize=64)
def _reached_in(source: str) -> dict[str, frozenset[str]]:
    """{test function: the `harness.NAME`s it uses, itself or through the file's helpers}, of a
    tests file's code: a grader's worker judges the same files submission after submission."""
    tree = ast.parse(source)
    functions = {node.name: node for node in tree.body
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    direct: dict[str, set[str]] = {}
    helpers: dict[str, set[str]] = {}
    for name, node in functions.items():
        direct[name], helpers[name] = set(), set()
        for inner in ast.walk(node):
            if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and \
                    inner.value.id == "harness":
                direct[name].add(inner.attr)
            elif isinstance(inner, ast.Name) and inner.id in functions and inner.id != name:
                helpers[name].add(inner.id)

    def reach(name: str, seen: set[str]) -> set[str]:
        seen.add(name)
        found = set(direct[name])
        for helper in helpers[name] - seen:
            found |= reach(helper, seen)
        return found
    return {name: frozenset(reach(name, set())) for name in functions if name.startswith("test_")}


def reached(lab_id: str | None, test_id: str,
            source: str | None = None) -> frozenset[str] | None:
    """The harness names the kit's test `test_id` ("lesson_05_lab1::test_x") of lab `lab_id`
    reaches, read from `source`, the code of the tests file the run read (or, without it, the
    kit's file of the lab), or None when it cannot be told (an instructor's test, a lab this
    kit lacks)."""
    if lab_id is None:
        return None
    try:
        if source is None:
            source = manifest.lab(lab_id).tests.read_text(encoding="utf-8")
        return _reached_in(source).get(test_id.rpartition("::")[2])
    except (KeyError, OSError, SyntaxError):
        return None
