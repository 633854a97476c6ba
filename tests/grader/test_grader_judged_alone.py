"""Issue 40, part 3: a test the wall clock stopped while the machine was loaded may have been
slowed by what ran beside it, so its submission is judged again alone before the verdict
counts, and its row says so. The load is read from a file the test writes in place of
/proc/loadavg (GRADER_LOADAVG), so that the batch's workers see a loaded machine on demand."""

import ast

from tests.grader.gradeclass import LAB, base_text

from grader import batch, plan as plans

# The reference, but the tests that call follow_up block in a sleep: the wall clock stops them.
SLEEPS = '''
import time as _time

_follow_up = Harness.follow_up


def _slow_follow_up(self, text):
    _time.sleep(600)
    return _follow_up(self, text)


Harness.follow_up = _slow_follow_up
'''


def grade(tmp_path, monkeypatch, load: str):
    (tmp_path / "load").write_text(f"{load} {load} {load} 1/100 1\n", encoding="ascii")
    monkeypatch.setenv("GRADER_LOADAVG", str(tmp_path / "load"))
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "alice.py").write_text(base_text("solution"), encoding="utf-8")
    (folder / "sleeps.py").write_text(base_text("solution") + SLEEPS, encoding="utf-8")
    plan = plans.make(LAB.id, own_lab_only=True)
    subs, _ = batch.find(folder)
    rows, _ = batch.grade_all(plan, subs, tmp_path / "out", jobs=2,
                              settings=batch.Settings(seconds_per_test=1.0))
    return {r.student: r for r in rows}


def calling_follow_up() -> list[str]:
    """The ids of the lab's tests whose code calls follow_up: the ones SLEEPS makes sleep."""
    tree = ast.parse(LAB.tests.read_text(encoding="utf-8"))
    return [f"lesson_15_lab1::{node.name}" for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name.startswith("test_")
            and any(isinstance(inner, ast.Attribute) and inner.attr == "follow_up"
                    for inner in ast.walk(node))]


def judged_alone(row) -> bool:
    return any(note.startswith("Judged again alone") for note in row.notes)


def test_a_wall_clock_timeout_on_a_loaded_machine_is_judged_again_alone(tmp_path, monkeypatch):
    rows = grade(tmp_path, monkeypatch, "64.00")
    sleeps, alice = rows["sleeps"], rows["alice"]
    timed = [t.id for t in sleeps.tests if t.verdict == "timeout"]
    sleeping = calling_follow_up()
    assert sleeping and timed == sleeping, (f"the wall clock stopped {timed}; the tests that "
                                            f"call follow_up, and sleep, are {sleeping}")
    assert judged_alone(sleeps), (f"the sleeper's row says {sleeps.notes}: its timeout, under a "
                                  "load of 64, must be judged again alone and say so")
    assert "load 64.0" in " ".join(sleeps.notes)
    assert not judged_alone(alice), "alice had no timeout, and was not judged again"


def test_on_an_idle_machine_a_timeout_counts_at_once(tmp_path, monkeypatch):
    rows = grade(tmp_path, monkeypatch, "0.00")
    assert not judged_alone(rows["sleeps"]), rows["sleeps"].notes
