"""Guarded "your code" cells (lab/desk/guard.py), in a real Jupyter kernel: a cell that runs the
student's harness.py says when the lab has not passed, is stopped by its budget of model calls,
turns and seconds with a line in the course's terms, explains a crash before its traceback,
and leaves the kernel as it found it. While the lab has not passed, the cell prints all that
and ends without an error, so Run All goes on; once it has passed, an error is an error."""
from __future__ import annotations

import os
import sys
import textwrap

import nbformat
import pytest

from lab.check import manifest
from lab.desk import course

nbclient = pytest.importorskip("nbclient")

LAB = "5.1"

# A harness.py with one way to misbehave per function; LINE is where crash() fails.
HARNESS = textwrap.dedent('''\
    import asyncio


    def ask_forever(model):
        while True:
            model.complete("system", [], [])


    def ask_swallowing(model):
        while True:
            try:
                model.complete("system", [], [])
            except Exception:
                pass


    async def turn_forever():
        while True:
            await asyncio.sleep(0)


    async def wait_forever():
        await asyncio.get_running_loop().create_future()


    def spin():
        while True:
            pass


    def crash():
        return {}["missing"]
''')
LINE = HARNESS.splitlines().index("    return {}[\"missing\"]") + 1

SETUP = """\
import lab
from lab import course
from lab.desk import guard
guard.BUDGET = guard.Budget(calls=50, turns=5_000, seconds=1.0)
def model():
    return lab.ScriptedModel([lab.forever(lambda request: lab.say("Again."))])
"""

CELLS = {
    "calls": 'harness = course.yours("5.1")\nharness.ask_forever(model())',
    "after": 'from lab.world import model as world\nprint("hook:", world.on_request)\n'
             'm = model()\nfor _ in range(80):\n    m.complete("s", [], [])\n'
             'print("an unguarded cell made", len(m.calls), "calls")',
    "swallowed": 'harness = course.yours("5.1")\nharness.ask_swallowing(model())',
    "turns": 'harness = course.yours("5.1")\nawait harness.turn_forever()',
    "waits": 'harness = course.yours("5.1")\nawait harness.wait_forever()',
    "spins": 'harness = course.yours("5.1")\nharness.spin()',
    "crash": 'harness = course.yours("5.1")\nharness.crash()',
    "broken": 'harness = course.yours("2.1")',
    "unstarted": 'harness = course.yours("9.1")\nprint("not reached")',
    "unstarted-after-armed": 'harness = course.yours("5.1")\nother = course.yours("9.1")\n'
                             'print("not reached")',
    "error-after-unstarted": 'raise ValueError("an error of the cell\'s own")',
    "check-unstarted": 'course.check("9.1")\nprint("not reached")',
    "passed": 'course.record_check("5.1", 12, 0)\nharness = course.yours("5.1")\n'
              'print("quiet:", guard.last().why)',
    "passed-crash": 'harness = course.yours("5.1")\nharness.crash()',
}


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """Every cell above, run in order in one kernel, with a work folder whose lab 5.1 holds
    HARNESS and lab 2.1 a file that does not parse, neither with a check recorded."""
    work = tmp_path_factory.mktemp("guard") / "work"
    place = work / manifest.lab(LAB).folder
    place.mkdir(parents=True)
    (place / "harness.py").write_text(HARNESS, encoding="utf-8")
    broken = work / manifest.lab("2.1").folder
    broken.mkdir(parents=True)
    (broken / "harness.py").write_text("def user_message(text:\n", encoding="utf-8")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(SETUP)] + [
        nbformat.v4.new_code_cell(source, id=name) for name, source in CELLS.items()]
    env = {k: v for k, v in os.environ.items() if k != course.SOLVED_ENV}
    env.update({course.WORK_ENV: str(work), "PYTHONPATH": str(manifest.KIT)})
    nbclient.NotebookClient(notebook, timeout=60, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(work)}}).execute(env=env)
    return {cell.id: cell.outputs for cell in notebook.cells[1:]}


def before_the_error(outputs) -> tuple[list[str], str | None]:
    """The lines printed before the cell's error, and the error's name (None if none). The
    kernel may split one print into several stream outputs, so they are joined first."""
    text, error = [], None
    for output in outputs:
        if output.output_type == "error":
            error = output.ename
            break
        if output.output_type == "stream":
            text.append(output.text)
    return "".join(text).splitlines(), error


def printed_then_traceback(outputs) -> tuple[list[str], list[str]]:
    """For a cell of an unfinished lab: it ended without an error; what it printed before the
    cut traceback, and the traceback's lines."""
    lines, error = before_the_error(outputs)
    assert error is None, f"the cell ended in {error}: Run All would stop there"
    at = next(n for n, line in enumerate(lines)
              if line.startswith(("Traceback, ", "Where it was stopped")))
    return lines[:at], lines[at:]


NOTICE = ("lab 5.1 has not passed its check yet: this cell runs your file as it is, and may not "
          "match the lesson.")


def test_a_run_that_keeps_calling_the_model_is_stopped_at_the_call_budget(ran):
    lines, traceback = printed_then_traceback(ran["calls"])
    assert lines[0] == NOTICE
    assert lines[-1].startswith("Stopped: the run made more than 50 model calls, past the "
                                "budget of a cell that runs your harness.py (50 model calls, "
                                "5,000 turns of the event loop, 1 seconds)")
    assert traceback[0] == "Where it was stopped, in your harness.py:"
    assert traceback[1].endswith("in ask_forever") and "RunStopped" not in "".join(traceback)


def test_the_cell_after_a_stopped_one_runs_unguarded(ran):
    lines, error = before_the_error(ran["after"])
    assert error is None
    assert lines == ["hook: None", "an unguarded cell made 80 calls"]


def test_a_wide_except_in_the_harness_does_not_swallow_the_stop(ran):
    lines, _ = printed_then_traceback(ran["swallowed"])
    assert lines[-1].startswith("Stopped: the run made more than 50")


@pytest.mark.parametrize("cell", ["turns", "waits"])
def test_a_cell_that_awaits_for_ever_is_cancelled_at_the_turn_budget(ran, cell):
    """Turning for ever and waiting on a future nobody resolves end the same way: the loop is
    counted, never blocked, and the cell's task is cancelled as the kernel's interrupt does."""
    lines, traceback = printed_then_traceback(ran[cell])
    assert lines[0] == NOTICE
    assert lines[-1].startswith("Stopped: the run took more than 5,000 turns of the event loop "
                                "without finishing")
    assert traceback[0] == "Where it was stopped, in your harness.py:"
    assert traceback[1].endswith(("in turn_forever", "in wait_forever"))


@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"),
                    reason="no interval timer on this system")
def test_a_loop_that_never_calls_the_model_nor_awaits_is_stopped_by_the_clock(ran):
    lines, _ = printed_then_traceback(ran["spins"])
    assert lines[-1].startswith("Stopped: the run ran for more than 1 seconds")


def test_a_crash_in_the_students_file_is_named_then_shown_from_the_file_on(ran):
    lines, traceback = printed_then_traceback(ran["crash"])
    assert lines == [NOTICE, "The run crashed inside your harness.py (lab 5.1), in crash at "
                             f"line {LINE}: the traceback below ends there."]
    assert traceback[0] == "Traceback, from your harness.py on:"
    assert traceback[1].endswith(f'harness.py", line {LINE}, in crash')
    assert traceback[-1] == "KeyError: 'missing'"
    assert not [line for line in traceback if "site-packages" in line or "lab/desk" in line]


def test_a_file_that_does_not_import_is_named_then_its_line_shown(ran):
    lines, traceback = printed_then_traceback(ran["broken"])
    assert lines[-1] == ("Your harness.py for lab 2.1 does not import: Python cannot read line "
                         "1. The traceback below shows it.")
    assert traceback[1].endswith('harness.py", line 1') and \
        traceback[-1].startswith("SyntaxError")


UNSTARTED = ('This cell runs your lab 9.1 file, and you have not started lesson 9, lab 1: run '
             'course.start("9.1") first, then run this cell again.')


def test_a_cell_that_needs_a_lab_not_started_says_what_to_do_in_one_line_and_ends_quietly(ran):
    """Run All of a lesson whose lab is not started reaches the end (issue 42, item 6): the
    cell prints one line, no traceback, and ends without an error."""
    assert before_the_error(ran["unstarted"]) == ([UNSTARTED], None)
    assert before_the_error(ran["unstarted-after-armed"]) == ([NOTICE, UNSTARTED], None)
    assert before_the_error(ran["check-unstarted"]) == (
        ["You have not started lesson 9, lab 1 yet: run `course start 9.1` first."], None)


def test_after_a_cell_that_needed_a_lab_not_started_an_error_is_an_error(ran):
    lines, error = before_the_error(ran["error-after-unstarted"])
    assert (lines, error) == ([], "ValueError")


def test_a_lab_that_passed_its_check_runs_without_the_notice(ran):
    lines, error = before_the_error(ran["passed"])
    assert error is None and lines == ["quiet: None"]


def test_once_the_lab_has_passed_an_error_is_an_error_again(ran):
    lines, error = before_the_error(ran["passed-crash"])
    assert error == "KeyError" and NOTICE not in lines
    assert lines == ["The run crashed inside your harness.py (lab 5.1), in crash at line "
                     f"{LINE}: the traceback below ends there."]


def test_outside_a_notebook_nothing_is_armed(tmp_path, monkeypatch, capsys):
    from lab.desk import guard
    from lab.world import model
    monkeypatch.setenv(course.WORK_ENV, str(tmp_path / "work"))
    monkeypatch.delenv(course.SOLVED_ENV, raising=False)
    place = tmp_path / "work" / manifest.lab(LAB).folder
    place.mkdir(parents=True)
    (place / "harness.py").write_text("VALUE = 1\n", encoding="utf-8")
    assert course.yours(LAB).VALUE == 1
    assert capsys.readouterr().out == NOTICE + "\n"
    assert model.on_request is None and not guard.arm(LAB, place / "harness.py", passed=False)
    sys.modules.pop("harness", None)
