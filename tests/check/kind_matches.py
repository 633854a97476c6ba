"""A kind of check the engine does not have, added to the kit in this one file: the found text
must match a pattern, the check's parameter. A test names it "tests.check.kind_matches:matches"
(observe.register's name for it), and tests/check/test_check_kinds.py has the checker and the
grader judge it."""
import json
import re

from lab.check.observe import Kind, register


def _matches(wanted: str, found: str, params: dict) -> bool:
    value = json.loads(found)
    return isinstance(value, str) and re.fullmatch(params["pattern"], value) is not None


def _difference(wanted: str, found: str, labels, params: dict) -> str:
    return f"it does not match the pattern {params['pattern']}"


MATCHES = register(Kind("matches", _matches, _difference, params=("pattern",)))
