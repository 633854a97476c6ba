"""The kit's architecture, read from its own imports: one-way layers, no circles, small modules.

Every import counts, the ones deferred into a function too, since a deferred import is still a
dependency; only `lab/__init__.py`'s lazy loading of the world's names is by string, and that
module is the world's own face. The layers, from the ground up:

    world   lab/__init__.py, lab/world/       the fake world: imports only itself
    engine  lab/check/, lab/kit.py            decides verdicts: knows nothing above it
    desk    lab/desk/, lab/course.py          the student's desk
    script  lab/lab_check.py                  the student's checker; grader  grader/
    tools   tools/                            the authors' tools
    bench   bench/                            the benchmarks

A module may import its own layer and the layers below it, never one above or beside it.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

KIT = Path(__file__).resolve().parents[2]
ROOTS = ("lab", "grader", "tools", "bench")
LONGEST_MODULE = 600  # lines

LAYERS = [  # (layer, its rank, the module names that open it); the most specific match wins
    ("world", 0, ("lab", "lab.world")),
    ("engine", 1, ("lab.check", "lab.kit")),
    ("desk", 2, ("lab.desk", "lab.course")),
    ("script", 3, ("lab.lab_check",)),
    ("grader", 3, ("grader",)),
    ("tools", 4, ("tools",)),
    ("bench", 5, ("bench",)),
]


def modules() -> dict[str, Path]:
    """Every hand-written module of the kit, by its dotted name."""
    found = {}
    for root in ROOTS:
        for path in sorted((KIT / root).rglob("*.py")):
            parts = path.relative_to(KIT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = modules()


def layer(name: str) -> tuple[str, int]:
    best = max(((len(prefix), layer, rank) for layer, rank, prefixes in LAYERS
                for prefix in prefixes if name == prefix or name.startswith(prefix + ".")),
               default=None)
    assert best, f"{name} belongs to no layer; add it to LAYERS"
    return best[1], best[2]


def imports(name: str) -> tuple[set[str], set[str]]:
    """(the kit's modules `name` imports, the other top-level modules it imports)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    kit, other = set(), set()

    def add(target: str):
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target:
            kit.add(target)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # `from pkg import mod` depends on the module; `from pkg import name`, on pkg's face.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                       for alias in node.names]
        for target in targets:
            if target.split(".")[0] in ROOTS:
                add(target)
            else:
                other.add(target.split(".")[0])
    kit.discard(name)
    return kit, other


GRAPH = {name: imports(name)[0] for name in MODULES}


def test_every_import_runs_down_the_layers_or_stays_in_its_own():
    wrong = []
    for name, targets in GRAPH.items():
        mine, rank = layer(name)
        for target in sorted(targets):
            theirs, their_rank = layer(target)
            if theirs != mine and their_rank >= rank:
                wrong.append(f"{name} ({mine}) imports {target} ({theirs})")
    assert not wrong, "imports against the layers:\n  " + "\n  ".join(wrong)


def test_the_fake_world_imports_only_itself_and_the_standard_library():
    for name in MODULES:
        if layer(name)[0] == "world":
            kit, other = imports(name)
            assert {layer(t)[0] for t in kit} <= {"world"}, (name, kit)
            assert other <= set(sys.stdlib_module_names) | {"__future__"}, (name, other)


def test_no_module_imports_itself_through_others():
    circles, state = [], {}

    def visit(name, path):
        state[name] = "open"
        for target in sorted(GRAPH[name]):
            if state.get(target) == "open":
                circles.append(" -> ".join(path[path.index(target):] + [target]))
            elif target not in state:
                visit(target, path + [target])
        state[name] = "done"

    for name in sorted(GRAPH):
        if name not in state:
            visit(name, [name])
    assert not circles, "import circles:\n  " + "\n  ".join(circles)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_hand_written_module_passes_600_lines(name):
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= LONGEST_MODULE, f"{MODULES[name].relative_to(KIT)} has {lines} lines"


def test_the_layer_test_sees_what_it_judges():
    """The reader itself: it finds a deferred import and a relative one."""
    assert "lab.desk.course" in GRAPH["lab.course"]
    assert {"lab.world.errors", "lab.world.replies"} <= GRAPH["lab.world.model"]
    assert layer("lab.check.runner") == ("engine", 1) and layer("lab") == ("world", 0)


def test_no_test_file_is_imported_by_another():
    """Test helpers live in helper modules (tests/*/name.py, no test_ prefix), never in a test
    file another imports: that file's tests would then hang on another file's setup, and a
    change to one would move the other."""
    found = []
    for path in sorted((KIT / "tests").rglob("*.py")):
        if "submissions" in path.parts:  # students' files, fragments among them: data
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                dotted = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                dotted = [a.name for a in node.names]
            else:
                continue
            found += [f"{path.relative_to(KIT)} imports {name}" for name in dotted
                      if name.startswith("tests.")
                      and any(part.startswith("test_") for part in name.split("."))]
    assert not found, ("a test file is imported as a library; move what it shares into a "
                       "helper module beside it:\n" + "\n".join(found))
