"""The test suites: which tests a check runs, what they say, and the code the student's side gets.

A lab's tests live in starters/NN-slug/labK/tests.py. The cumulative suite for a lab is every
built lab's tests before it, in course order, then its own (lab/check/manifest.py decides the order).
"""
from __future__ import annotations

import ast
import types
from dataclasses import dataclass
from pathlib import Path

from lab.check import kit, manifest
from lab.check.errors import NothingToCheck


@dataclass(frozen=True)
class TestFile:
    """One file of lab tests: where it came from, and its code."""
    lab_id: str | None  # None for a file that is not one of the kit's labs (instructor's extra)
    path: Path
    source: str

    @property
    def stem(self) -> str:
        """The name test ids start with: the kit's file name for a kit lab, whatever the
        student's copy is called, so that ids match the reference's observations."""
        if self.lab_id is not None:
            try:
                return manifest.lab(self.lab_id).test_stem
            except KeyError:
                pass
        return self.path.stem


def lab_of(path: Path) -> str | None:
    """The lab a test file belongs to, from its `LAB = "15.1"` line (read, not executed)."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["LAB"]:
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                return node.value.value
    return None


def cumulative(given: Path, lesson: int | None = None) -> list[TestFile]:
    """The files `lab_check --lesson N given` runs: the kit's tests of every built lab before
    the given file's lab, then the given file itself (the student's copy of its own tests)."""
    lab_id = lab_of(given)
    if lab_id is None:
        if lesson is None:
            raise NothingToCheck(f"{given} has no LAB = \"NN.K\" line, so its lab is unknown")
        own = [lab for lab in manifest.labs(built_only=True) if lab.lesson.number == lesson]
        lab_id = own[0].id if own else f"{lesson}.1"
    if lesson is not None and manifest.key(lab_id)[0] != lesson:
        raise NothingToCheck(f"{given.name} holds the tests of lab {lab_id}, not of lesson {lesson}")
    files = [_kit_file(lab) for lab in manifest.before(lab_id)]
    files.append(TestFile(lab_id, Path(given), Path(given).read_text(encoding="utf-8")))
    return files


def _kit_file(lab) -> TestFile:
    if not lab.tests.is_file():
        raise NothingToCheck(f"this copy of the kit lacks the tests of {lab.name} "
                         f"({lab.tests.name}); get a complete copy of the course")
    return TestFile(lab.id, lab.tests, lab.tests.read_text(encoding="utf-8"))


def of_lab(lab_id: str, *, cumulative_: bool = True) -> list[TestFile]:
    """The kit's own suite for a lab: its tests, after every earlier lab's with cumulative_."""
    lab = manifest.lab(lab_id)
    chosen = (list(manifest.before(lab_id)) if cumulative_ else []) + [lab]
    return [_kit_file(x) for x in chosen]


@dataclass(frozen=True)
class Declared:
    """One test as its file declares it: @lab_test("says", points=N) over async def name."""
    id: str  # "lesson_15_lab1::test_..."
    name: str  # the function's name
    says: str  # its sentence, whitespace folded
    points: float | None  # None: the lab's default


def declared(source: str, stem: str) -> list[Declared]:
    """Every @lab_test of a test file's code, in file order, read from the decorators without
    running anything; ids start with `stem`. The one reader of the decorator: the checker,
    the grader and the notebooks all list tests through it."""
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.AsyncFunctionDef):
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and getattr(deco.func, "id", "") == "lab_test":
                    says = ast.literal_eval(deco.args[0])
                    points = next((float(ast.literal_eval(k.value)) for k in deco.keywords
                                   if k.arg == "points"), None)
                    found.append(Declared(f"{stem}::{node.name}", node.name,
                                          " ".join(says.split()), points))
    return found


def describe(lab) -> list[tuple[str, str]]:
    """(test id, what it checks) for each test of `lab` (a manifest.Lab or a path), in file
    order, read from the decorators without running anything."""
    if isinstance(lab, manifest.Lab):
        return describe_source(lab.tests.read_text(encoding="utf-8"), lab.test_stem)
    path = Path(lab)
    return describe_source(path.read_text(encoding="utf-8"), path.stem)


def describe_source(source: str, stem: str) -> list[tuple[str, str]]:
    """As describe(), for a test file's code; ids start with `stem`."""
    return [(test.id, test.says) for test in declared(source, stem)]


def blind(source: str) -> str:
    """The test code the student's process runs: the same code with every wanted value taken
    out, so that nothing in that process knows what the checks compare against. Each
    t.expect(found, wanted, why) keeps its found and why; its wanted becomes `...`."""
    tree = ast.parse(source)
    # One pass over the tree, editing in place: the checker's parent blinds every test file
    # of a run before the last of it can start, so this is on the student's wait.
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "expect" and isinstance(node.func.value, ast.Name) and \
                node.func.value.id == "t":
            if len(node.args) >= 2:
                node.args[1] = ast.copy_location(ast.Constant(...), node.args[1])
            for keyword in node.keywords:
                if keyword.arg == "wanted":
                    keyword.value = ast.copy_location(ast.Constant(...), keyword.value)
    return ast.unparse(tree)


def load(test_file: TestFile, source: str | None = None) -> list[kit.LabTest]:
    """Execute a test file's code (the given `source`, or its own) as a fresh module and
    return its tests in file order. The module `harness` must already be imported."""
    module = types.ModuleType(f"labtests_{test_file.stem}")
    module.__file__ = str(test_file.path)
    kit.TESTS.clear()
    code = compile(source if source is not None else test_file.source, str(test_file.path), "exec")
    exec(code, module.__dict__)
    tests = list(kit.TESTS)
    kit.TESTS.clear()
    return tests


def test_id(test_file: TestFile, test: kit.LabTest) -> str:
    return f"{test_file.stem}::{test.name}"
