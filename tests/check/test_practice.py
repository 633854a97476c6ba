"""The practice check: the checker's tests run in this process, for the browser, where no process
can be started (lab/check/runner.py, `in_process`; `course.check` there, PRACTICE).

It must give the verdicts lab_check.py gives, on every lab's starter and solution, on every
wrong design of the catalogue and on the bad submissions it can survive, and it must run from a
notebook cell, inside the kernel's running event loop, and leave that loop as it found it.
What it cannot survive is named here and in the line it prints first: a file that blocks the
process, ends it, or patches what judges it.
"""
import dataclasses
import asyncio
import re
import sys

import pytest

from lab.check.lines import PRACTICE, check_aloud
from lab.check import manifest, runner, spin, suite
from lab.desk import course
from tools import wrong_designs

from tests import run_share
from tests.check import catalogue_runs, checked_once
from tests.check.bad_submissions import LAB, SUBMISSIONS, TABLE, lab_folder, submission

# Bad submissions the practice check survives, and so must judge as lab_check.py does. The rest
# end or block the process (crashes_the_interpreter, exits_during_a_test, blocks_in_a_sleep),
# or reach into what judges them (patches_asyncio, patches_the_checks, echoes_what_is_wanted,
# tampers_with_the_channel, forges_reports_during_a_test), which only a separate process stops:
# a patch made in this process outlives the check. hangs_in_a_busy_loop is stopped by the
# practice check's own spin guard, with the checker's verdicts in its own measure (below).
SURVIVED = ("does_not_parse", "exits_at_import", "floods_output", "prints_fake_results",
            "waits_for_ever")
SPUN = "without giving the event loop a turn (a loop that never awaits). It was stopped; the " \
       "other tests still ran."


def verdicts(harness, files, *, in_process):
    report = runner.run(harness, files, runner.expected_for(files), in_process=in_process)
    return [(o.id, o.verdict, o.message) for o in report.outcomes]


BUILT = [lab.id for lab in manifest.labs(built_only=True)]


@pytest.mark.parametrize("lab_id", BUILT)
def test_the_practice_check_gives_the_checkers_verdicts_on_the_starter_and_the_solution(
        tmp_path_factory, lab_id):
    """On the lab's own tests, against lab_check.py's cumulative reports, the ones
    tests/check/test_cumulative.py judges (made once). The earlier labs' tests are the last
    solution's to practise, below: run again under every later lab, they made this test a
    tenth of the README command's time."""
    lab = manifest.lab(lab_id)
    files = suite.of_lab(lab.id)
    own = [file for file in files if file.lab_id == lab_id]
    for harness in (lab.starter, lab.solution):
        checked = checked_once.report(tmp_path_factory, harness, files)
        practised = verdicts(harness, own, in_process=True)
        assert practised == [(o.id, o.verdict, o.message) for o in checked.outcomes
                             if o.lab_id == lab_id], \
            f"{harness}: the practice check and lab_check.py disagree"
    assert {v for _, v, _ in practised} == {"pass"}, "the solution fails its practice check"


def test_the_practice_check_gives_the_checkers_verdicts_on_every_test_under_the_last_solution(
        tmp_path_factory):
    """Every test of the kit, in one cumulative run as `course.check` makes it, on the last
    lab's solution."""
    lab = manifest.lab(BUILT[-1])
    files = suite.of_lab(lab.id)
    checked = checked_once.report(tmp_path_factory, lab.solution, files)
    practised = verdicts(lab.solution, files, in_process=True)
    assert practised == [(o.id, o.verdict, o.message) for o in checked.outcomes], \
        f"{lab.solution}: the practice check and lab_check.py disagree"
    assert {v for _, v, _ in practised} == {"pass"}, "the last solution fails its practice check"


@pytest.mark.parametrize("lab_id", BUILT)
def test_each_solution_passes_its_tests_under_the_allowances_of_a_file_that_spun(lab_id):
    """Once a test of a file has spun, the practice check gives each later test only
    Limits.rounds_after_a_hang rounds of harness.py's loops between two turns (lab/check/spin.py),
    where lab_check.py gives cpu_after_a_hang of processor time. A correct test must pass under
    both, or a file that spun once would see a passing test stopped in the page and passed by
    lab_check.py. So each lab's solution runs its own lab's tests here, in process, with that
    count from the first test (the last solution runs every test of the kit, in the colour
    lesson 15 gave the loop): a case grown past it fails here, not in a browser. The wall clock
    is given a minute: it only guards against a file that hangs, and on a loaded machine the
    second a test it gives after a hang stopped a reference's test that needs milliseconds
    (how long the tests take is bench/checker.py's to measure, not a test's)."""
    limits = runner.Limits()
    after = dataclasses.replace(limits, rounds_without_a_turn=limits.rounds_after_a_hang,
                                seconds_per_test=60.0)
    lab = manifest.lab(lab_id)
    files = [f for f in suite.of_lab(lab_id) if lab_id == BUILT[-1] or f.lab_id == lab_id]
    report = runner.run(lab.solution, files, runner.expected_for(files), limits=after,
                        in_process=True)
    stopped = [f"{o.id}: {o.message}" for o in report.outcomes if o.verdict != "pass"]
    assert not stopped, (f"under the allowances of a file that has spun "
                         f"({after.rounds_without_a_turn:,} rounds), lab {lab_id}'s solution "
                         f"fails:\n" + "\n".join(stopped))


DESIGNS = wrong_designs.catalogue()
# The third of the catalogue a run compares the two paths on (tests/run_share.py): runs in a row
# take each third in turn, and a run with randomly off takes every design.
THIRDS = 3


def pytest_generate_tests(metafunc):
    if metafunc.function is test_the_practice_check_gives_the_checkers_verdicts_on_a_wrong_design:
        chosen = run_share.share(DESIGNS, run_share.seed_of(metafunc.config), THIRDS)
        metafunc.parametrize("design", chosen, ids=[d.id for d in chosen])


def test_the_practice_check_gives_the_checkers_verdicts_on_a_wrong_design(tmp_path_factory,
                                                                           design):
    """Test by test, the same verdicts, on the design's own lab: the tests whose verdicts it
    changes, the ones lab_check.py did not pass, run by the practice check and held to
    lab_check.py's verdicts on them, from a run of those tests alone where the two part (the
    starter and solution test above covers every lab's tests). The runs are
    tests/check/catalogue_runs.py's, shared with the catalogue's own test; a run compares a
    third of the designs (THIRDS), every one with randomly off.

    No design's verdicts may follow the hash seed, which differs between the two paths (this
    process's, and the one the checker pins in its child): "13.1: a set for guidelines" once
    did, until lab 13.1 drew ten or more guidelines in one list, which a set keeps in their
    first-seen order under about one hash seed in 3.6 million."""
    runs = catalogue_runs.runs(tmp_path_factory, design)
    practised = catalogue_runs.verdicts(runs.practised)
    checked = runs.checker_verdicts()
    assert practised == checked, (
        f"{design.id}: the practice check's verdicts differ from lab_check.py's; test by test "
        f"(practice check, lab_check.py): "
        f"{[(p, c) for p, c in zip(practised, checked) if p != c] or (len(practised), len(checked))}")


@pytest.mark.parametrize("name", SURVIVED)
def test_the_practice_check_judges_a_bad_submission_it_survives_as_the_checker_does(tmp_path, name):
    assert name in TABLE and (SUBMISSIONS / f"{name}.py").is_file()
    path = tmp_path / "harness.py"
    path.write_text(submission(TABLE[name]["base"], name), encoding="utf-8")
    files = suite.of_lab(LAB.id, cumulative_=False)
    practised = runner.run(path, files, runner.expected_for(files), in_process=True)
    checked = runner.run(path, files, runner.expected_for(files))
    assert [(o.id, o.verdict, o.message) for o in practised.outcomes] == \
        [(o.id, o.verdict, o.message) for o in checked.outcomes]
    assert practised.import_error == checked.import_error
    assert (practised.output, practised.output_dropped) == (checked.output, checked.output_dropped)


async def test_the_practice_check_runs_inside_a_running_loop_and_hands_it_back():
    """As in a notebook cell: the kernel's loop is running this coroutine when the check starts."""
    outer = asyncio.get_running_loop()
    mine = asyncio.current_task()
    files = suite.of_lab(LAB.id)
    practised = verdicts(LAB.starter, files, in_process=True)
    assert practised == verdicts(LAB.starter, files, in_process=False)
    assert asyncio.get_running_loop() is outer and asyncio.current_task() is mine
    assert asyncio.get_event_loop() is outer
    await asyncio.sleep(0)  # the outer loop still turns


def test_the_practice_report_is_the_checkers_under_a_line_that_says_what_it_is(
        tmp_path, capsys, monkeypatch):
    folder = lab_folder(tmp_path, LAB.starter.read_text(encoding="utf-8"))
    monkeypatch.chdir(folder)
    arguments = (folder / "harness.py", folder / "tests.py", LAB.lesson.number)
    assert check_aloud(*arguments).exit_code == 1
    checked = capsys.readouterr().out
    assert check_aloud(*arguments, practice=True).exit_code == 1
    practised = capsys.readouterr().out
    assert practised == PRACTICE + "\n" + checked
    assert "not isolated" in PRACTICE and "lab_check.py" in PRACTICE


def test_course_check_in_the_browser_is_the_practice_check_and_is_recorded(
        tmp_path, capsys, monkeypatch):
    monkeypatch.setenv(course.WORK_ENV, str(tmp_path / "work"))
    monkeypatch.setattr(manifest, "IN_BROWSER", True)
    course.start(LAB.id, force=True)
    started = capsys.readouterr().out
    assert f'Check it in a cell: course.check("{LAB.id}")' in started
    assert "lab_check.py" not in started, "a browser tab has no terminal to type it in"
    assert course.check(LAB.id) is None, "a notebook would show an exit code under the report"
    out = capsys.readouterr().out
    assert out.startswith(PRACTICE + "\n")
    last = course.last_check(LAB.id)
    assert last and last["passed"] > 0 and last["failed"] > 0
    assert out.rstrip().splitlines()[-2] == f"{last['passed']} passed, {last['failed']} failed"


# --- a file that spins: the practice check's own spin guard (lab/check/spin.py) ---------------

def spinning(tmp_path, snippet="hangs_in_a_busy_loop"):
    path = tmp_path / "harness.py"
    path.write_text(submission("solution", snippet), encoding="utf-8")
    return path


def test_a_busy_loop_is_stopped_in_process_with_the_checkers_verdict_on_each_test(tmp_path):
    """The same tests time out as under lab_check.py, the others still run and pass, and the
    reason is the checker's sentence, naming the loop's place and measured in rounds of
    harness.py's loops: the first stop after the allowance, the later ones after the shorter
    one. (Judged as the grader judges, to the end: the next test pins where a student's check
    stops.)"""
    path, limits = spinning(tmp_path), runner.Limits(stop_at_hangs_in_a_row=False)
    files = suite.of_lab(LAB.id, cumulative_=False)
    practised = runner.run(path, files, runner.expected_for(files), limits=limits,
                           in_process=True)
    checked = runner.run(path, files, runner.expected_for(files), limits=limits)
    assert [(o.id, o.verdict) for o in practised.outcomes] == \
        [(o.id, o.verdict) for o in checked.outcomes]
    stopped = [o.message for o in practised.outcomes if o.verdict == "timeout"]
    assert len(stopped) >= 2 and any(o.verdict == "pass" for o in practised.outcomes)
    at = re.match(r"Timed out: this test spun in error_message \(harness\.py, line \d+\) ",
                  stopped[0])
    assert at and stopped[0] == (f"{at[0]}through {limits.rounds_without_a_turn:,} rounds of "
                                 "harness.py's loops " + SPUN)
    assert all(m == f"{at[0]}through {limits.rounds_after_a_hang:,} rounds of harness.py's "
                    "loops " + SPUN for m in stopped[1:])


def test_a_file_that_hangs_at_one_place_in_a_row_is_given_up_on_where_the_checker_does(tmp_path):
    """The student's check, in process and in a child: the same tests run, the same hang in a
    row stops both, and the tests after it are not run, for the same reason."""
    path = spinning(tmp_path)
    files = suite.of_lab(LAB.id, cumulative_=False)
    practised = runner.run(path, files, runner.expected_for(files), in_process=True)
    checked = runner.run(path, files, runner.expected_for(files))
    assert [(o.id, o.verdict, o.ran) for o in practised.outcomes] == \
        [(o.id, o.verdict, o.ran) for o in checked.outcomes]
    assert not practised.outcomes[-1].ran, "this file hangs test after test: the check stops"
    assert practised.notes == checked.notes and practised.outcomes[-1].message == \
        checked.outcomes[-1].message == checked.notes[-1]


def test_a_loop_whose_rounds_are_slow_is_stopped_by_the_wall_clock(tmp_path, monkeypatch):
    """A clock that moves a second at every reading stands for a loop that sleeps in each round:
    the allowance in seconds stops it long before the one in rounds, in lab_check.py's words."""
    seconds = iter(range(1_000_000))
    monkeypatch.setattr(spin.Guard, "clock", staticmethod(lambda: float(next(seconds))))
    files = suite.of_lab(LAB.id, cumulative_=False)
    report = runner.run(spinning(tmp_path), files, runner.expected_for(files), in_process=True)
    stopped = [o.message for o in report.outcomes if o.verdict == "timeout" and o.ran]
    place = r" in \S+ \(harness\.py, line \d+\) without giving the event loop a turn"
    assert stopped and re.match("Timed out: this test held the process for 5 seconds" + place,
                                stopped[0]), stopped[:1]
    assert all(re.search("held the process for 1 second" + place, m) for m in stopped[1:])


def test_a_file_that_spins_as_it_is_imported_is_stopped_and_says_so(tmp_path):
    path = tmp_path / "harness.py"
    path.write_text(LAB.solution.read_text(encoding="utf-8") + "\nwhile True:\n    pass\n",
                    encoding="utf-8")
    files = suite.of_lab(LAB.id, cumulative_=False)
    report = runner.run(path, files, runner.expected_for(files), in_process=True)
    assert report.import_error == (
        f"harness.py does not import: its code at the top level went "
        f"{runner.Limits().rounds_without_a_turn:,} rounds of harness.py's loops without ending, "
        "and was stopped: is there code at the top level that never ends?")
    assert {o.verdict for o in report.outcomes} == {"fail"}


def test_after_a_file_spun_the_process_is_as_it_was_and_the_next_check_runs(tmp_path):
    """What a notebook cell after the check needs: no tracer or monitoring tool left behind, and
    the next practice check, of the reference, passes every test."""
    tracer = sys.gettrace()
    files = suite.of_lab(LAB.id, cumulative_=False)
    runner.run(spinning(tmp_path), files, runner.expected_for(files), in_process=True)
    assert sys.gettrace() is tracer
    if spin.MONITORING is not None:
        assert all(spin.MONITORING.get_tool(tool) is None for tool in spin.TOOL_IDS)
    assert {v for _, v, _ in verdicts(LAB.solution, files, in_process=True)} == {"pass"}
