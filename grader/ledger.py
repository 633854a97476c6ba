"""The ledger of rules: for each lab, what its Build section says must hold, item by item, and
what holds each item to it, read in one place for every tool that needs it.

A student reads a lab's rules as the numbered list "what must hold" in the lab's Build section of
source/lessons/NN-slug/lesson.md (the `## Build` section holding `{{ starter LAB }}`). The words
stay there, once; the ledger adds what the student does not read. It is one file per lesson,
source/lessons/NN-slug/rules.toml, a table for each item:

    [[rule]]
    lab = "2.1"                 # the lab whose Build list holds the item
    item = 1                    # its number in that list
    tests = ["test_text_of"]    # test functions of the lab's tests.py that check it
    designs = ["..."]           # catalogue entries (source/wrong_designs/) that break it alone
    allows = ["..."]            # optional: designs the item allows (tools.wrong_designs.allowed),
                                # which the lab's tests must pass
    beyond = ["..."]            # optional: designs that break it only past what a check can
                                # afford (tools.wrong_designs.beyond), which its tests pass
    bank = ["test_bank_..."]    # in a lab with a grading bank (grader/bank.py): the 2 to 4
                                # scenarios of source/bank/NN-slug/labK.py that check the item

tests/authoring/test_ledger.py holds the ledger to the lesson, the tests and the catalogue: the
same numbers as the list, every item with a test and a design that exist, every test of the lab
serving an item, every design failing one of its item's tests; and, in a lab with a bank, every
bank test serving an item, every item with two to four of them, every design failing one.

It lives with the grader, which reads each bank test's rule from it (a failed bank test shows
a student the rule's sentence, never the test); the authoring tools' tests read it here too.
"""
from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from lab.check import manifest


from grader.errors import Refused
from grader.refusals import BadRule, LedgerUnread, NoBuildSection
FILE = "rules.toml"  # beside lesson.md in the authors' wing


class LedgerError(Refused, ValueError):
    """A ledger or a Build section that cannot be read; its refusal names the file. No
    UserError: a ledger is the kit's, so a command that meets a broken one keeps its
    traceback."""


@dataclass(frozen=True)
class Rule:
    lab: str
    item: int
    tests: tuple[str, ...]
    designs: tuple[str, ...]
    allows: tuple[str, ...] = ()
    file: str = ""  # the ledger it came from, for messages
    bank: tuple[str, ...] = ()  # the grading bank's scenarios of the item, in a lab with a bank
    beyond: tuple[str, ...] = ()  # designs breaking it past its tests' reach

    @property
    def id(self) -> str:
        """"2.1 rule 3", for test ids and messages."""
        return f"{self.lab} rule {self.item}"


def shown(path: Path) -> str:
    """A ledger's path as messages name it: from the kit's top when it is in the kit."""
    return str(path.relative_to(manifest.KIT)) if path.is_relative_to(manifest.KIT) else str(path)


def _rules_of(path: Path) -> list[Rule]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise LedgerError(LedgerUnread(shown(path), str(error))) from None
    rules = []
    for entry in data.get("rule", []):
        unknown = set(entry) - {"lab", "item", "tests", "designs", "allows", "bank", "beyond"}
        if unknown or not {"lab", "item", "tests", "designs"} <= set(entry):
            raise LedgerError(BadRule(shown(path), tuple(sorted(entry))))
        rules.append(Rule(lab=entry["lab"], item=entry["item"], tests=tuple(entry["tests"]),
                          designs=tuple(entry["designs"]), allows=tuple(entry.get("allows", ())),
                          file=shown(path), bank=tuple(entry.get("bank", ())),
                          beyond=tuple(entry.get("beyond", ()))))
    return rules


def rules() -> list[Rule]:
    """Every rule of every lesson's ledger, in course order of its lab, then by item."""
    found = []
    for lesson in manifest.lessons():
        path = lesson.authors / FILE
        if path.is_file():
            found += _rules_of(path)
    return sorted(found, key=lambda r: (manifest.key(r.lab), r.item))


def of_lab(lab_id: str) -> list[Rule]:
    """The rules of one lab, by item."""
    return [rule for rule in rules() if rule.lab == lab_id]


def build_section(lab_id: str) -> str:
    """The text of the lab's Build section: the `## ` section of its lesson.md that holds
    `{{ starter LAB }}`, up to the next `## ` heading."""
    lab = manifest.lab(lab_id)
    text = lab.lesson.source.read_text(encoding="utf-8")
    for section in re.split(r"(?m)^(?=## )", text):
        if "{{ starter %s }}" % lab_id in section:
            return section
    raise LedgerError(NoBuildSection(lab.lesson.source, lab_id))


def build_items(lab_id: str) -> dict[int, str]:
    """The numbered list "what must hold" in the lab's Build section: number -> the item's text.
    An item is a line that starts with its number and a full stop, at the left margin; the
    lines indented under it (a table, a sub-list) belong to it."""
    items: dict[int, str] = {}
    current = None
    for line in build_section(lab_id).splitlines():
        match = re.match(r"(\d+)\. (.*)", line)
        if match:
            current = int(match.group(1))
            items[current] = match.group(2)
        elif current is not None and (line.startswith((" ", "|")) or not line.strip()):
            items[current] += "\n" + line
        else:
            current = None
    return items


def tests_of(lab_id: str) -> list[str]:
    """The names of the test functions in the lab's tests.py (`async def test_...` or `def
    test_...` at the top level), in file order, read without importing it."""
    return test_names(manifest.lab(lab_id).tests.read_text(encoding="utf-8"))


def test_names(source: str) -> list[str]:
    """The names of the top-level test functions of a test file's code, in file order."""
    return [node.name for node in ast.parse(source).body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name.startswith("test_")]


def sentence(rule: Rule) -> str:
    """What a student reads of a rule: its item of the Build list, whitespace folded, after
    the lab and the item's number, its bold marks taken out, since a report sets it in bold
    ("Lab 5.1, rule 2: The cap (gap 2). A run ...")."""
    text = " ".join(build_items(rule.lab).get(rule.item, "").replace("**", "").split())
    return f"Lab {rule.lab}, rule {rule.item}: {text}"
