"""The practice check stops every spin, however it is written: a loop on one line (which raises
no new line event), a spinning comprehension, a `for` over an endless iterator (lab/check/spin.py).

Each case is lab 15.1's reference with one line put in, and each must be reported as lab_check.py
reports it: the same tests stopped and not run, each stop naming the function and the line put
in, and the closing note naming the place. The guard's clock is held still here, so a stop can
only come from the count of rounds: the test is bounded by that count, never by seconds (a
signal fails it, rather than hanging the suite, if the guard never sees the loop). Afterwards
the process is as it was: no tracer or monitoring tool left behind, and the reference passes.
"""
import re
import sys

import pytest

from lab.check import runner, spin, suite
from lab.check.manifest import lab as lab_named

from tools.hang_cases import LAB, SPINS, no_hang, place_of_stop

IN_ROUNDS = re.compile(r"Timed out: this test spun in \S+ \(harness\.py, line \d+\) through "
                       r"[\d,]+ rounds of harness\.py's loops without giving the event loop a "
                       r"turn")


@pytest.fixture(scope="module", params=sorted(SPINS))
def spun(request, tmp_path_factory):
    """(case, the lines put in, the practice check's report, lab_check.py's report)."""
    case = SPINS[request.param]
    text, added = case.text()
    path = tmp_path_factory.mktemp("spins") / "harness.py"
    path.write_text(text, encoding="utf-8")
    files = suite.of_lab(LAB, cumulative_=False)
    expected = runner.expected_for(files)
    with pytest.MonkeyPatch.context() as patch, no_hang(60):
        patch.setattr(spin.Guard, "clock", staticmethod(lambda: 0.0))  # rounds alone stop it
        practised = runner.run(path, files, expected, in_process=True)
    return case, added, practised, runner.run(path, files, expected)


def test_each_spin_is_stopped_by_the_count_of_rounds_at_the_line_put_in(spun):
    case, added, practised, _ = spun
    stops = [o.message for o in practised.outcomes if o.verdict == "timeout" and o.ran]
    assert stops, f"{case.loop!r} in {case.function} must be stopped at least once"
    for message in stops:
        assert IN_ROUNDS.match(message), \
            f"a stop is counted in rounds of harness.py's loops; it said: {message}"
        assert place_of_stop(message) in {(case.function, line) for line in added}, (
            f"expected the stop in {case.function} at line {sorted(added)}, where "
            f"{case.loop!r} was put in; it said: {message}")


def test_each_spin_is_reported_as_lab_check_reports_it(spun):
    """The same tests stopped, the same tests not run, and the same closing note naming the
    place; where lab_check.py measures processor time, the practice check counts rounds."""
    case, _, practised, checked = spun
    assert [(o.id, o.verdict, o.ran) for o in practised.outcomes] == \
        [(o.id, o.verdict, o.ran) for o in checked.outcomes], \
        f"{case.loop!r} in {case.function}: the practice check and lab_check.py disagree"
    assert not practised.outcomes[-1].ran, "every test hangs here: the check gives up early"
    assert practised.notes == checked.notes and \
        f"in {case.function} (harness.py, line " in practised.notes[-1], practised.notes


def test_after_each_spin_the_process_is_as_it_was_and_the_reference_passes(spun):
    tracer = sys.gettrace()
    assert tracer is None or not isinstance(getattr(tracer, "__self__", None), spin.Guard), \
        "the spin guard left its tracer behind"
    if spin.MONITORING is not None:
        assert all(spin.MONITORING.get_tool(tool) is None for tool in spin.TOOL_IDS), \
            "the spin guard left its monitoring tool behind"
    files = suite.of_lab(LAB, cumulative_=False)
    report = runner.run(lab_named(LAB).solution, files, runner.expected_for(files),
                        in_process=True)
    assert {o.verdict for o in report.outcomes} == {"pass"}, \
        "after a file spun, the next practice check of the reference must pass every test"


SPINS_WHEN_CALLED = """
def spin():
    while True:
        pass
"""


def test_a_spin_in_a_task_the_test_never_awaits_ends_the_test_and_so_does_each_after_it(tmp_path):
    """In a child, a test whose harness.py spins is killed whole, whichever task spun. In
    process, the first stop ends the test too, though the task it stopped is one the test never
    awaits; and the spins that come after it, in the test's other tasks as they are cancelled,
    are stopped as well, though Python unsets a tracer that raises (Python 3.11's guard)."""
    import asyncio

    from lab.check import importer, limits, turns
    path = tmp_path / "harness.py"
    path.write_text(SPINS_WHEN_CALLED, encoding="utf-8")
    spun_in = []

    async def spins_when_cancelled(n):
        try:
            await asyncio.sleep(3600)
        finally:
            spun_in.append(n)
            harness.spin()

    async def a_test_that_awaits_none_of_its_tasks():
        tasks = [asyncio.ensure_future(spins_when_cancelled(n)) for n in range(3)]
        await asyncio.sleep(0)
        tasks[0].cancel()  # the first spin, in a task this test never awaits
        for _ in range(10_000):
            await asyncio.sleep(0)
        return "went on"

    with spin.Guard(str(path), limits.Limits()) as guard, no_hang(60):
        harness = importer.import_harness(path)
        guard.next_test()
        with pytest.raises(spin.Spun) as stopped:
            turns.run(a_test_that_awaits_none_of_its_tasks())
    assert stopped.value.place is not None and stopped.value.place.function == "spin", \
        f"the test ends with the first stop, in spin(); it ended with {stopped.value!r}"
    assert sorted(spun_in) == [0, 1, 2], \
        f"each task spun once, as it was cancelled, and was stopped; these spun: {spun_in}"
