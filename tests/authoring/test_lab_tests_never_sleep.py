"""No lab test and no bank scenario waits on the clock: time in the fake world is turns of the
event loop, and in the browser site's Python a time.sleep holds the page, so a practice check
that met one would never finish (CI's browser phase hung on a time.sleep(0) once)."""
import ast
from pathlib import Path

from lab.check import manifest

FILES = sorted([*manifest.KIT.glob("starters/*/lab*/tests.py"),
                *manifest.KIT.glob("source/bank/*/lab*.py")])


def sleeps(path: Path) -> list[str]:
    """Where `path` calls time.sleep, or imports sleep from time, as "path:line"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        call = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "sleep" and isinstance(node.func.value, ast.Name) and \
            node.func.value.id == "time"
        imported = isinstance(node, ast.ImportFrom) and node.module == "time" and \
            any(alias.name == "sleep" for alias in node.names)
        if call or imported:
            found.append(f"{path.relative_to(manifest.KIT)}:{node.lineno}")
    return found


def test_no_lab_test_or_bank_scenario_waits_on_the_clock():
    assert FILES, "no tests.py or bank file found"
    found = [place for path in FILES for place in sleeps(path)]
    assert not found, ("these lab tests or bank scenarios call time.sleep, which waits on the "
                       "clock and holds the browser site's Python; wait for turns of the event "
                       f"loop instead (lab.tick, lab.ticks): {found}")
