"""The test suites: which tests a check runs, what they say, and the code the student's side gets.

A lab's tests live in starters/NN-slug/labK/tests.py. The cumulative suite for a lab is every
built lab's tests before it, in course order, then its own (lab/check/manifest.py decides the order).
"""
from __future__ import annotations

import ast
import functools
import types
from dataclasses import dataclass
from pathlib import Path

from lab.check import kit, manifest
from lab.check.errors import NothingToCheck, Unblindable
from lab.check.problems import CannotBlind, KitLacksTests, NoLabLine, OtherLesson, Reach


@dataclass(frozen=True)
class TestFile:
    """One file of lab tests: where it came from, and its code."""
    lab_id: str | None  # None for a file that is not one of the kit's labs (instructor's extra)
    path: Path
    source: str

    @property
    def lab(self) -> manifest.Lab:
        """The kit's lab this file is the tests of; ValueError for an instructor's file, which
        is none (the kit's own lists, such as of_lab, hold only labs' files)."""
        if self.lab_id is None:
            raise ValueError(f"{self.path} is an instructor's test file, not a lab's")
        return manifest.lab(self.lab_id)

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
            raise NothingToCheck(NoLabLine(str(given)))
        own = [lab for lab in manifest.labs(built_only=True) if lab.lesson.number == lesson]
        lab_id = own[0].id if own else f"{lesson}.1"
    if lesson is not None and manifest.key(lab_id)[0] != lesson:
        raise NothingToCheck(OtherLesson(given.name, lab_id, lesson))
    files = [_kit_file(lab) for lab in manifest.before(lab_id)]
    files.append(TestFile(lab_id, Path(given), Path(given).read_text(encoding="utf-8")))
    return files


def _kit_file(lab) -> TestFile:
    if not lab.tests.is_file():
        raise NothingToCheck(KitLacksTests(lab.name, lab.tests.name))
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
    return list(_declared(source, stem))


@functools.lru_cache(maxsize=128)
def _declared(source: str, stem: str) -> tuple[Declared, ...]:
    """declared(), kept per process: a plan lists every test file of its suite, and parsing
    lab 16.2's twenty files costs a tenth of a second each time."""
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
    return tuple(found)


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


# The methods of a test's `t` that make a check (lab/check/kit.py's Checks), and the place of
# the wanted value among each one's arguments: second, or third after t.expect_kind's kind.
WANTED_AT = {"expect": 1, "expect_same_items": 1, "expect_kind": 2}
EXPECTS = tuple(WANTED_AT)


def blind(source: str, name: str = "tests.py") -> str:
    """The test code the student's process runs: the same code with every wanted value taken
    out, so that nothing in that process knows what the checks compare against. Each
    `P.expect(found, wanted, why)` (whatever P is called, and likewise each other method of
    EXPECTS) keeps its found and why; its wanted becomes `...`.

    Any other way to reach a check could carry a wanted value past this, so the file is refused
    with the test and line that does it (Unblindable): the method taken without being called
    (`e = t.expect`), called with * or ** arguments, looked up by name (getattr), or called
    through the class `Checks`."""
    tree = ast.parse(source)
    # One pass over the tree, editing in place: the checker's parent blinds every test file
    # of a run before the last of it can start, so this is on the student's wait.
    called: set[int] = set()
    for node, function in _walk(tree):
        problem: tuple[Reach, str] | None = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in EXPECTS:
            called.add(id(node.func))
            if any(isinstance(a, ast.Starred) for a in node.args) or \
                    any(k.arg is None for k in node.keywords):
                problem = ("starred", node.func.attr)
            elif not _plain_receiver(node.func.value):
                problem = ("receiver", node.func.attr)
            else:
                at = WANTED_AT[node.func.attr]
                if len(node.args) > at:
                    node.args[at] = ast.copy_location(ast.Constant(...), node.args[at])
                for keyword in node.keywords:
                    if keyword.arg == "wanted":
                        keyword.value = ast.copy_location(ast.Constant(...), keyword.value)
        elif isinstance(node, ast.Attribute) and node.attr in EXPECTS and id(node) not in called:
            problem = ("uncalled", node.attr)
        elif isinstance(node, (ast.Name, ast.Attribute)) and \
                (getattr(node, "id", None) or getattr(node, "attr", None)) == "Checks":
            problem = ("class", "Checks")
        elif isinstance(node, ast.alias) and node.name.split(".")[-1] == "Checks":
            problem = ("imports class", "Checks")
        elif isinstance(node, ast.Constant) and node.value in EXPECTS:
            problem = ("by name", str(node.value))
        if problem:
            raise Unblindable(CannotBlind(name, function, getattr(node, "lineno", None),
                                          *problem))
    return ast.unparse(tree)


def _plain_receiver(node: ast.expr) -> bool:
    """A name, or names joined by dots (`t`, `self.checks`): an instance, not a call's result."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _walk(tree: ast.AST):
    """(node, function) for every node, parents before children; `function` is the name of
    the enclosing function, None at the file's top level. Calls come before their function's
    attribute, so blind() knows which attributes are called."""
    stack: list[tuple[ast.AST, str | None]] = [(tree, None)]
    while stack:
        node, function = stack.pop()
        yield node, function
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        stack.extend((child, function) for child in reversed(list(ast.iter_child_nodes(node))))


def load(test_file: TestFile, source: str | None = None) -> list[kit.LabTest]:
    """Execute a test file's code (the given `source`, or its own) as a fresh module and
    return its tests in file order. The module `harness` must already be imported."""
    module = types.ModuleType(f"labtests_{test_file.stem}")
    module.__file__ = str(test_file.path)
    kit.TESTS.clear()
    exec(_compiled(source if source is not None else test_file.source, str(test_file.path)),
         module.__dict__)
    tests = list(kit.TESTS)
    kit.TESTS.clear()
    return tests


# The practice check runs the same test files in one process run after run (the browser page,
# the kit's own tests): a code object, which nothing can change, is compiled once per process.
@functools.lru_cache(maxsize=64)
def _compiled(source: str, filename: str):
    return compile(source, filename, "exec")


def test_id(test_file: TestFile, test: kit.LabTest) -> str:
    return f"{test_file.stem}::{test.name}"
