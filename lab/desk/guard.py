"""Guarded "your code" cells: a notebook cell that runs the student's own harness.py is bounded.

A lesson cell that calls course.yours("N.K") runs whatever the student's file does, finished or
not, and a loop without a way out would otherwise run until the kernel runs out of memory. So
course.yours arms a budget for the rest of that cell (`arm`), and the cell's end disarms it (an
IPython post_execute hook). The budget counts three things, and the first one used up stops the
run, with a line in the course's terms saying which:

- model calls: every request any ScriptedModel records (lab.world.model.on_request) counts; the
  one past the budget raises RunStopped inside the run's own call to the model;
- turns of the event loop, in a cell that awaits: a callback counts each turn of the kernel's
  running loop and, past the budget, cancels the cell's task, as the kernel's own interrupt
  does; the loop is never blocked or replaced, so the kernel stays responsive;
- wall time: the counting callback watches the clock in a cell that awaits; for code that never
  gives the loop a turn, a POSIX interval timer (SIGALRM) raises RunStopped, but only while the
  cell's own code (not the kernel's) is what runs; elsewhere it tries again a moment later.
  Windows has no such timer: there a loop that neither calls the model nor awaits is not
  stopped by the clock.

While armed, an error that ends the cell is preceded by one line: what stopped the run, or where in
the student's harness.py it crashed, or that the cell's own code failed on what an unfinished file
gave it. While the lab has not passed its check, that line and the traceback, cut to the student's
file, are the cell's printed output and the cell ends without an error (an IPython post_run_cell
hook clears it): JupyterLab's Run All stops at the first error, and an unfinished lab is what a
student pressing Run All is expected to have. Once the lab passes, an error is an error again, as
in any cell. RunStopped derives from BaseException, so a harness's wide `except Exception` (the
boundary lesson 4 teaches) does not swallow it. Outside IPython nothing is armed: there is no end
of a cell to disarm at.
"""
from __future__ import annotations

import asyncio
import signal
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from lab.desk import words_cells as words


@dataclass(frozen=True)
class Budget:
    """What one cell that runs a student's file may use. On the references, the lessons' "your
    code" cells use at most 15 model calls, about 100 turns and 20 ms, so no finished lab comes
    near; a runaway is stopped long before it can fill the kernel's memory by calling the model
    (lesson 5's once grew to 24 GB in 13 minutes)."""
    calls: int = 200
    turns: int = 50_000
    seconds: float = 10.0


BUDGET = Budget()


class RunStopped(BaseException):
    """A run that a "your code" cell drove used up its budget. A BaseException, like
    KeyboardInterrupt, so that a harness's `except Exception` lets it through."""


@dataclass
class _Cell:
    """The budget of the cell being run, and what it has used."""
    labs: list[str]
    files: list[Path]
    passed: bool  # whether every lab whose file the cell runs had passed its check
    budget: Budget
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    calls: int = 0
    turns: int = 0
    task: asyncio.Task | None = None  # the cell's own task, when it awaits
    why: str | None = None  # what stopped the run, once something has
    said: bool = False  # whether that has been printed

    def stop(self, why: str) -> None:
        if self.why is None:
            self.why = why


_cell: _Cell | None = None
_last: _Cell | None = None  # the last cell disarmed, for the kit's tests and bench
_saved: dict = {}  # what arming replaced: the SIGALRM handler, IPython's custom error handler


def _said_by_budget(budget: Budget, over: words.Over) -> str:
    return words.stopped(over, budget.calls, budget.turns, budget.seconds)


def _run_stopped(budget: Budget, over: words.Over) -> RunStopped:
    return RunStopped(words.stopped_briefly(over, budget.calls, budget.seconds))


def notice(lab_id: str) -> str:
    """The line a "your code" cell prints first when the lab has not passed its check."""
    return words.not_passed_yet(lab_id)


def _shell():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def arm(lab_id: str, harness: Path, *, passed: bool, budget: Budget | None = None) -> bool:
    """Bound the rest of the running notebook cell, which runs `harness` for lab `lab_id`, by
    `budget` (BUDGET, as it is at the call, by default); disarmed when the cell ends. `passed`:
    whether the lab has passed its check, which decides the words said when the cell fails.
    Returns False, arming nothing, outside IPython."""
    global _cell
    budget = budget or BUDGET
    shell = _shell()
    if shell is None or not hasattr(shell, "events"):
        return False
    if _cell is not None:  # a second yours() in the same cell: one budget for the cell
        _cell.labs.append(lab_id)
        _cell.files.append(Path(harness).resolve())
        _cell.passed = _cell.passed and passed
        return True
    _cell = cell = _Cell([lab_id], [Path(harness).resolve()], passed, budget)
    from lab.world import model
    model.on_request = _count_call
    # An excuse() earlier in this cell (its error caught by the cell) saved IPython's own.
    _saved.setdefault("custom", (shell.custom_exceptions, shell.CustomTB))
    shell.set_custom_exc((Exception, RunStopped, asyncio.CancelledError), _before_traceback)
    if _disarm not in shell.events.callbacks["post_execute"]:
        shell.events.register("post_execute", _disarm)
    if _forgive not in shell.events.callbacks["post_run_cell"]:
        shell.events.register("post_run_cell", _forgive)
    cell.task = _cells_task()
    if cell.task is not None:
        asyncio.get_running_loop().call_soon(_tick, cell)
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        _saved["alarm"] = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, budget.seconds)
    return True


def excuse(problem: BaseException) -> BaseException:
    """Ready the running notebook cell to end on `problem`, about to be raised, without an
    error: its message, one line saying what to do (start the lab the cell needs), is the
    cell's printed output, with no traceback, and Run All goes on to the next cell. Returns
    `problem`, for `raise guard.excuse(...)`. Outside IPython nothing changes: it is raised."""
    shell = _shell()
    if shell is None or not hasattr(shell, "events"):
        return problem
    _saved["excused"] = problem
    if _cell is None and "custom" not in _saved:  # an armed cell's handler already hears it
        _saved["custom"] = (shell.custom_exceptions, shell.CustomTB)
        shell.set_custom_exc((type(problem),), _before_traceback)
        shell.events.register("post_execute", _disarm)
    if _forgive not in shell.events.callbacks["post_run_cell"]:
        shell.events.register("post_run_cell", _forgive)
    return problem


def _cells_task() -> asyncio.Task | None:
    """The task running the cell when the cell awaits (IPython runs such a cell as a task of
    its own, run_cell_async, which the kernel itself cancels on an interrupt); None for a cell
    that does not await, whose code runs inside the kernel's own task, never to be cancelled."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return None
    code = getattr(task.get_coro(), "cr_code", None) if task is not None else None
    return task if code is not None and code.co_name == "run_cell_async" else None


def _disarm(*_):
    """The cell has ended: undo everything arm() did, and say what stopped the run if the cell
    ended without an error that said it."""
    global _cell, _last
    cell, _cell = _cell, None
    _saved.pop("excused", None)
    if cell is None:
        shell = _shell()
        if "custom" in _saved and shell is not None:  # only excuse() armed this cell
            shell.events.unregister("post_execute", _disarm)
            shell.custom_exceptions, shell.CustomTB = _saved.pop("custom")
        return
    _last = cell
    cell.ended = time.monotonic()
    shell = _shell()
    if shell is not None:
        shell.events.unregister("post_execute", _disarm)
        shell.custom_exceptions, shell.CustomTB = _saved.pop("custom")
    from lab.world import model
    model.on_request = None
    if "alarm" in _saved:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, _saved.pop("alarm"))
    if cell.why and not cell.said:
        print(cell.why, flush=True)


def _count_call(request) -> None:
    cell = _cell
    if cell is None:
        return
    cell.calls += 1
    if cell.calls > cell.budget.calls:
        cell.stop(_said_by_budget(cell.budget, "calls"))
        raise _run_stopped(cell.budget, "calls")
    if cell.why is not None:  # stopped, and the stop was swallowed: go on stopping
        raise RunStopped(cell.why)


def _tick(cell: _Cell) -> None:
    """One turn of the kernel's loop while a cell that awaits runs: count it, and cancel the
    cell's task once the budget of turns or seconds is used up (again every thousand turns, if
    the run swallows the cancellation)."""
    if cell is not _cell or cell.task is None or cell.task.done():
        return
    cell.turns += 1
    if cell.why is None:
        if cell.turns > cell.budget.turns:
            cell.stop(_said_by_budget(cell.budget, "turns"))
            cell.task.cancel()
        elif time.monotonic() - cell.started > cell.budget.seconds:
            cell.stop(_said_by_budget(cell.budget, "seconds"))
            cell.task.cancel()
    elif cell.turns % 1000 == 0:
        cell.task.cancel()
    asyncio.get_running_loop().call_soon(_tick, cell)


def _in_cell_code(frame) -> bool:
    """Whether `frame` belongs to the cell's own code or what it calls (the student's file, the
    fake world), rather than to IPython, the kernel or asyncio: only there may an exception be
    raised at any moment."""
    from IPython.core.interactiveshell import InteractiveShell
    run_code = InteractiveShell.run_code.__code__
    if "asyncio" in Path(frame.f_code.co_filename).parts:
        return False
    callee = None
    while frame is not None:
        if frame.f_code is run_code:
            return callee is not None and "IPython" not in Path(callee.co_filename).parts
        callee, frame = frame.f_code, frame.f_back
    return False


def _on_alarm(signum, frame):
    cell = _cell
    if cell is None:
        return
    if not _in_cell_code(frame):
        signal.setitimer(signal.ITIMER_REAL, 0.05)  # the kernel's code: try again shortly
        return
    cell.stop(_said_by_budget(cell.budget, "seconds"))
    signal.setitimer(signal.ITIMER_REAL, 0.5)  # once more, should this one be swallowed
    raise _run_stopped(cell.budget, "seconds")


def _deepest_in(files: list[Path], tb):
    """The innermost traceback entry in one of `files`, or None."""
    found = None
    while tb is not None:
        try:
            if Path(tb.tb_frame.f_code.co_filename).resolve() in files:
                found = tb
        except (OSError, ValueError):
            pass
        tb = tb.tb_next
    return found


def explain(cell: _Cell, value: BaseException, tb) -> str | None:
    """The line said before the traceback of an error that ended a guarded cell."""
    if cell.why is not None and isinstance(value, (RunStopped, asyncio.CancelledError)):
        return cell.why
    labs = list(cell.labs)
    crash = _deepest_in(cell.files, tb)
    if isinstance(value, SyntaxError) and value.filename and \
            Path(value.filename).resolve() in cell.files:
        return words.does_not_import(labs, value.lineno)
    if crash is not None:
        code = crash.tb_frame.f_code
        return words.crashed(labs, code.co_name, crash.tb_lineno)
    if not cell.passed:
        return words.cell_failed(labs)
    return None


def cut(files: list[Path], value: BaseException, tb) -> str:
    """The traceback from the first frame in one of `files` (the student's harness.py) to the
    error; where none is, the last frame, which is the cell's own code. What the kernel,
    IPython and the course's own code did before the student's file is noise to a student, and
    a cell's frame is named as Jupyter names it ("Cell In[3]"). A run the guard stopped shows
    only where in the student's file it was: the rest is the guard's own code."""
    frames = traceback.extract_tb(tb)
    theirs = [n for n, frame in enumerate(frames) if _resolved(frame.filename) in files]
    if isinstance(value, (RunStopped, asyncio.CancelledError)) and theirs:
        return words.where_stopped() + "".join(
            traceback.format_list(frames[theirs[0]:theirs[-1] + 1]))
    if isinstance(value, SyntaxError) and value.filename and _resolved(value.filename) in files:
        shown, heading = [], words.traceback_from_yours()  # the error names the line
    elif theirs:
        shown, heading = frames[theirs[0]:], words.traceback_from_yours()
    else:
        shown, heading = frames[-1:], words.traceback_in_cell()
    shell = _shell()
    label = getattr(getattr(shell, "compile", None), "format_code_name", lambda name: None)
    for frame in shown:
        named = label(frame.filename)
        if named:
            frame.filename = " ".join(named)
    return heading + "\n" + "".join(
        traceback.format_list(shown) + traceback.format_exception_only(type(value), value))


def _resolved(name: str) -> Path | None:
    try:
        return Path(name).resolve()
    except (OSError, ValueError):
        return None


def _before_traceback(shell, etype, value, tb, tb_offset=None):
    """IPython's handler for an error that ends a guarded cell: the line, then the traceback.
    For a lab that has not passed, the traceback is printed, cut to the student's file, and the
    cell is marked to end without an error (_forgive); once it has passed, IPython's own."""
    if value is not None and value is _saved.get("excused"):
        print(value, flush=True)
        _saved["forgiven"] = True
        return None
    cell = _cell
    line = explain(cell, value, tb) if cell is not None else None
    if line:
        print(line, flush=True)
        if cell.why is not None and line == cell.why:
            cell.said = True
    if cell is not None and not cell.passed:
        print(cut(cell.files, value, tb), end="", flush=True)
        _saved["forgiven"] = True
        return None
    shell.showtraceback((etype, value, tb), tb_offset=tb_offset, running_compiled_code=True)
    return None


def _forgive(result) -> None:
    """post_run_cell: a guarded cell whose error was printed for an unfinished lab ends without
    one, so Run All goes on to the next cell."""
    shell = _shell()
    if shell is not None:
        shell.events.unregister("post_run_cell", _forgive)
    if _saved.pop("forgiven", False) and result is not None:
        result.error_in_exec = None


def last() -> _Cell | None:
    """The last guarded cell that ended: its budget, what it used (calls, turns; seconds are
    `ended - started`) and what stopped it. For the kit's tests and bench/run_all.py."""
    return _last

