"""A file that hangs: each stop names the place in harness.py, and a file that hangs at one place
test after test gets its answer after a few tests, not after all of them.

The rule (lab/check/hangs.py): once `Limits.hangs_in_a_row` tests in a row have been stopped in
the same function of harness.py, the student's check marks every later test as not run, naming
that place, and ends; before that point its verdicts are the grader's, which never gives up and
judges each later test under shorter guards. It is checked over a family of files (a loop in an
async function hit by every test, one in a sync function hit by some tests, a call that blocks)
and the count itself over sequences of places. tests/check/test_checker.py holds the allowances
of a file that spins at one place in some tests only (lab 15.1's), and test_practice.py the
practice check's agreement.
"""
import ast
import random
import re

import pytest

from lab.check import hangs, runner, suite
from lab.check.hangs import Place, Streak
from lab.check.manifest import lab as lab_named

from tools.hang_cases import Hanging, place_of_stop

REPEATS = runner.Limits().hangs_in_a_row



FAMILY = {
    "every call of an async function spins": Hanging(
        "15.2", 'tool = {t["name"]: t for t in tools}.get(call["name"])',
        "while True:\n    pass", "run_tool", True, {}, every_test=True),
    "a while where an if belongs, in a sync function": Hanging(
        "5.1", 'failed = reply["stop_reason"] == "error"  # recorded, and not acted on',
        "while failed:\n    pass", "run_agent", False, {}),
    "a call that blocks in a sync tool's every call": Hanging(
        "5.1", 'tool = {t["name"]: t for t in tools}.get(call["name"])',
        "import time\ntime.sleep(600)", "run_tool", False, {"seconds_per_test": 1.0},
        every_test=True),
}


def run(path, lab_id, **limits):
    files = suite.of_lab(lab_id, cumulative_=False)
    return runner.run(path, files, runner.expected_for(files), limits=runner.Limits(**limits))


@pytest.fixture(scope="module", params=sorted(FAMILY))
def checked(request, tmp_path_factory):
    """(case, the file's added lines, the student's check, the grader's judging or None) of one
    file."""
    case = FAMILY[request.param]
    text, added = case.text()
    path = tmp_path_factory.mktemp("hangs") / "harness.py"
    path.write_text(text, encoding="utf-8")
    ast.parse(text)
    # The grader's judging of a call that blocks costs a clock's allowance per test: its
    # allowances are tests/check/test_checker.py's (SLEEPS_IN_GUARD).
    graded = None if case.limits else run(path, case.lab, stop_at_hangs_in_a_row=False)
    return case, added, run(path, case.lab, **case.limits), graded


def test_every_stop_names_the_function_and_a_line_of_the_hang(checked):
    case, added, student, _ = checked
    stops = [o for o in student.outcomes if o.verdict == "timeout" and o.ran]
    assert stops, f"the file must hang for this case to mean anything: {case}"
    for outcome in stops:
        assert place_of_stop(outcome.message) is not None, \
            f"a stop says where harness.py was; it said: {outcome.message}"
        function, line = place_of_stop(outcome.message)
        assert function == case.function and line in added, (
            f"expected the stop in {case.function} at one of the lines {sorted(added)} put in; "
            f"it said: {outcome.message}")
        assert ("event loop" in outcome.message) == case.async_code, (
            "the event loop is named where an async function hangs, and only there: "
            f"{outcome.message}")


def test_the_student_check_stops_after_the_same_place_hangs_in_a_row_and_not_before(checked):
    case, _, student, graded = checked
    outcomes = student.outcomes
    assert len(outcomes) == len(suite.describe(lab_named(case.lab))), \
        "every test gets a verdict, run or not"
    ran = [o for o in outcomes if o.ran]
    assert outcomes[:len(ran)] == ran, "the tests not run are the last ones"
    hung = [o.verdict == "timeout" for o in ran]
    if len(ran) < len(outcomes):
        assert all(hung[-REPEATS:]) and len(ran) >= REPEATS, \
            f"the run stopped after {REPEATS} hangs in a row; it ran {[o.verdict for o in ran]}"
        places = {place_of_stop(o.message)[0] for o in ran[-REPEATS:]}
        assert places == {case.function}
        words = {o.message for o in outcomes[len(ran):]}
        assert words == {student.notes[-1]} and f"in {case.function} (harness.py, line " in \
            student.notes[-1], f"each test not run says why, naming the place: {words}"
    elif case.every_test:
        pytest.fail(f"every test that calls {case.function} hangs there, so the check must stop "
                    f"after {REPEATS} of them; it ran {[o.verdict for o in ran]}")
    windows = [hung[i:i + REPEATS] for i in range(len(hung) - REPEATS)]
    assert not any(all(w) for w in windows), \
        f"the run went on past {REPEATS} hangs in a row at one place: {[o.verdict for o in ran]}"
    assert graded is None or [(o.id, o.verdict) for o in ran] == \
        [(o.id, o.verdict) for o in graded.outcomes[:len(ran)]], \
        "until it stops, the student's check decides what the grader decides"


def test_the_grader_judges_every_test_and_each_repeated_hang_costs_less(checked):
    case, _, _, graded = checked
    if graded is None:
        pytest.skip("a call that blocks: tests/check/test_checker.py holds the clock's allowances")
    assert all(o.ran for o in graded.outcomes)
    allowed = [re.search(r"(?:through|for) ([\d.]+) seconds of processor time", o.message)
               for o in graded.outcomes if o.verdict == "timeout"]
    spent = [float(m[1]) for m in allowed if m]
    limits = runner.Limits()
    assert spent[:1] == [limits.cpu_without_a_turn] and \
        all(s <= limits.cpu_after_a_hang for s in spent[1:]), spent
    if case.every_test:  # the hangs come in a row: after the first few, each costs less again
        assert spent[1:REPEATS] == [limits.cpu_after_a_hang] * (REPEATS - 1) and \
            set(spent[REPEATS:]) == {limits.cpu_after_hangs_in_a_row}, spent


# --- the count itself ---------------------------------------------------------------------

def counted(places) -> list[bool]:
    """Streak.repeated after each test, as the runner feeds it."""
    streak, said = Streak(REPEATS), []
    for place in places:
        streak.add(place)
        said.append(streak.repeated)
    return said


def by_hand(places) -> list[bool]:
    """The rule in plain words: the last REPEATS tests all hung in one function."""
    return [i + 1 >= REPEATS and all(p is not None for p in places[i + 1 - REPEATS:i + 1]) and
            len({p.function for p in places[i + 1 - REPEATS:i + 1]}) == 1
            for i in range(len(places))]


@pytest.mark.parametrize("seed", range(40))
def test_hangs_count_in_a_row_only_at_one_function_whatever_the_lines(seed):
    rng = random.Random(seed)
    choices = [None, Place("run_tool", 10, True), Place("run_tool", 12, True),
               Place("run_agent", 40, False), Place()]
    places = [rng.choice(choices) for _ in range(rng.randint(1, 30))]
    assert counted(places) == by_hand(places), places


def test_reading_whether_a_file_has_async_code_leaves_no_file_open(tmp_path):
    """The checker reads harness.py to say where it hung; a file it left open would be closed
    by a collection in the middle of a later test, whose ResourceWarning a test that hears every
    warning (lab.kit.everything_said) would count against the student."""
    import gc
    import warnings
    path = tmp_path / "harness.py"
    path.write_text("async def f():\n    pass\n", encoding="utf-8")
    hangs.has_async_code.cache_clear()
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        assert hangs.has_async_code(str(path)) is True
        gc.collect()
    left = [str(w.message) for w in heard if issubclass(w.category, ResourceWarning)]
    assert not left, f"has_async_code left its file open: {left}"


def test_naming_the_place_resolves_each_file_once(tmp_path, monkeypatch):
    """The heartbeat names a place fifty times a second, mostly in the same few files: once a
    file has been seen, place_of resolves no path again."""
    import os
    import sys
    path = tmp_path / "harness.py"
    path.write_text("async def f():\n    pass\n", encoding="utf-8")
    calls = hangs.calls_of(sys._getframe())
    hangs.place_of(calls, str(path))  # sees this test's files and harness.py once
    resolved = []
    real = os.path.realpath
    monkeypatch.setattr(os.path, "realpath", lambda p, *a, **k: resolved.append(p) or real(p))
    hangs.place_of(calls, str(path))
    assert not resolved, f"place_of resolved {resolved} again on its second look"


def test_naming_the_place_holds_no_frame_while_it_waits(tmp_path, monkeypatch):
    """A frame another thread holds keeps its function's locals alive after the function
    returns (lab 7.1's count of a record's references once failed so, under load). The
    heartbeat takes calls_of's list and lets the frames go; place_of, which may wait on a stat
    call, holds none: a local of a function that has returned is gone while it waits."""
    import os
    import sys
    import weakref

    class Local:
        """A local that can be watched going away."""

    def returned():
        local = Local()
        return sys._getframe(), weakref.ref(local)

    frame, local = returned()  # the frame, held here, keeps `local` alive
    calls = hangs.calls_of(frame)
    del frame
    alive_while_waiting = []
    real = os.path.realpath

    def realpath(p, *a, **k):
        alive_while_waiting.append(local() is not None)
        return real(p)
    monkeypatch.setattr(os.path, "realpath", realpath)
    hangs._seen.clear()  # every file is resolved afresh: each resolution is a wait
    hangs.place_of(calls, str(tmp_path / "harness.py"))
    assert alive_while_waiting and not any(alive_while_waiting), (
        f"while place_of resolved paths, a returned function's local was alive in "
        f"{sum(alive_while_waiting)} of {len(alive_while_waiting)} waits: calls_of's list "
        "holds a frame")
