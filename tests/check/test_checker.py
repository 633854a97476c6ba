"""The local checker, exactly as a student runs it, and what it does with bad submissions.

Each kind of bad submission in tests/check/submissions/ must get a verdict and a reason, the other
tests must still run, and no test may pass that did not pass on the base file alone: not by
printing, exiting, patching the checks or asyncio, or writing to the checker's channel.

CI runs this file twice: as it is, and with HARNESS_CHECK_PORTABLE=1, the path Windows takes;
the verdicts must be the same on both.
"""
import os
import re
import subprocess
import sys
import threading

import pytest

from lab.check import advice, manifest, process, runner, suite, words_lines
from tools import wrong_designs

from tests.check.bad_submissions import (LAB, TABLE, base_text, lab_folder,
                                        outcome, submission)

def check(folder, *extra):
    """python lab/lab_check.py --harness harness.py --lesson 15 tests.py, in `folder`."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    return subprocess.run([sys.executable, "lab/lab_check.py", "--harness", "harness.py",
                           "--lesson", "15", "tests.py", *extra], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_students_command_passes_the_solution_and_ends_on_the_count(tmp_path):
    done = check(lab_folder(tmp_path, LAB.solution.read_text(encoding="utf-8")))
    count = sum(len(suite.describe(lab)) for lab in (*manifest.before(LAB.id), LAB))  # cumulative
    assert done.returncode == 0, done.stdout + done.stderr
    *_, counted, closing = done.stdout.rstrip().splitlines()
    assert counted == f"{count} passed, 0 failed"
    assert closing == "Next: lab 15.1 passes; start lab 15.2 with `course start 15.2`."
    assert done.stdout.count("  PASS  ") == count


def test_the_students_command_explains_each_failure_of_the_starter(tmp_path):
    done = check(lab_folder(tmp_path, LAB.starter.read_text(encoding="utf-8")))
    assert done.returncode == 1
    out = done.stdout
    first = suite.describe(LAB)[0][1]
    assert f"FAIL  {first}" in out
    assert "expected: U A[c1,c2] R(c1) R(c2) A(aborted)" in out  # the public seed's batch
    assert "found:    U A[c1,c2] R(c1) R(c2) A\n" in out
    assert "harness.py has no CancelToken.is_cancelled yet (lesson 15, lab 1)." in out
    assert "AssertionError" not in out and "Traceback" not in out
    first_own = next(line for line in out.splitlines() if line.startswith("  FAIL  "))
    rule = out.splitlines()[out.splitlines().index(first_own) + 1].strip()
    says = first_own.split("FAIL  ", 1)[1]
    assert out.rstrip().splitlines()[-1] == (
        f"Next: fix the first failing test of lab 15.1 ({advice.sentence(says)}), which "
        f"reported: {rule} "
        "Then check again; `course hint 15.1` gives a hint.")


def test_an_earlier_labs_failure_is_labelled_collateral_and_the_closing_line_sends_to_the_own_lab(
        tmp_path):
    """Issue 9 item 4: bash is lab 15.1's code, given finished in 15.2's starter. Broken in a
    check of 15.2, its test fails first, so that failure says it is probably collateral, and the
    closing line names lab 15.2's own first failure instead."""
    design = next(w for w in wrong_designs.catalogue() if w.name.startswith("believing"))
    lab2 = manifest.lab("15.2")
    folder = lab_folder(tmp_path, design.apply(lab2.solution.read_text(encoding="utf-8")))
    (folder / "tests.py").write_text(lab2.tests.read_text(encoding="utf-8"), encoding="utf-8")
    lines = check(folder).stdout.splitlines()
    fails = [n for n, line in enumerate(lines) if line.startswith("  FAIL  ")]
    labels = [line.strip() for line in lines if "whose code your starter gave you" in line]
    assert lines[fails[0] + 1].strip() == (
        "(a test of lab 15.1, whose code your starter gave you: it fails because of code you "
        "changed for 15.2; look at your gaps first.)")
    assert len(labels) == 1, "the full label once per earlier lab; later ones point back to it"
    own = [n for n in fails if "whose code your starter" not in lines[n + 1]
           and "collateral too" not in lines[n + 1]]
    assert own, "the design breaks lab 15.2's own tests too"
    says = lines[own[0]].split("FAIL  ", 1)[1]
    reported = words_lines.first_line(lines[own[0] + 1], "fail")  # cut to one line, as it is there
    assert lines[-1] == (f"Next: fix the first failing test of lab 15.2 ({advice.sentence(says)}), "
                         f"which reported: {reported} Then check again; "
                         "`course hint 15.2` gives a hint.")


def test_the_closing_line_when_only_earlier_labs_fail_labels_the_first_of_them():
    closing = advice.next_step("15.2", [outcome("14.1", "pass"), outcome("15.1"),
                                           outcome("15.2", "pass")])
    assert closing == ("Next: every test of lab 15.2 passes, but a test of lab 15.1, whose code "
                       "your starter gave you: it fails because of code you changed for 15.2; "
                       'look at your gaps first. It ("says") reported: The rule it states (a '
                       "name, lesson 15). Then check again; `course hint 15.2` gives a hint.")


def test_the_closing_line_prefers_the_own_labs_first_failure_over_earlier_ones():
    closing = advice.next_step("15.2", [outcome("15.1", message="Earlier."),
                                           outcome("15.2", message="Own rule.\n  more"),
                                           outcome("15.2", message="Later own rule.")])
    assert closing.startswith('Next: fix the first failing test of lab 15.2 ("says"), which '
                              "reported: Own rule. Then")


def test_the_closing_line_names_the_test_by_its_sentence_not_by_the_exception_it_reported():
    closing = advice.next_step("15.2", [outcome(
        "15.2", message="Every check matched, then the test failed: TypeError: 'NoneType' "
                        "object is not iterable")])
    assert closing.startswith('Next: fix the first failing test of lab 15.2 ("says"), which '
                              "reported: Every check matched, then the test failed: TypeError")


def test_the_closing_line_after_the_last_lab_and_after_an_import_error():
    last = manifest.labs(built_only=True)[-1].id
    assert advice.next_step(last, [outcome(last, "pass")]) == (
        f"Next: lab {last} passes, and it is the course's last lab: nothing is left to do.")
    assert "does not import" in advice.next_step("15.1", [outcome("2.1")], import_error=True)


def test_a_long_rule_is_cut_so_the_closing_line_stays_one_line():
    closing = advice.next_step("15.1", [outcome("15.1", message="word " * 200)])
    quoted = closing.split("which reported: ", 1)[1].split(" Then check again", 1)[0]
    assert "\n" not in closing and quoted.endswith("...")
    assert len(quoted) == advice.RULE_CHARACTERS


def test_the_graders_feedback_labels_an_earlier_labs_failure_in_the_checkers_words():
    from grader import plan as plans, report, row
    plan = plans.make("15.2")
    earlier = next(t for t in plan.tests if t.lab == "15.1")
    own = next(t for t in plan.tests if t.lab == "15.2")
    graded = row.build(plan, "ada", "ada.py", [
        outcome(t.lab, "fail" if t in (earlier, own) else "pass", test_id=t.id)
        for t in plan.tests])
    text = report.feedback(plan, graded)
    label = f"  Probably collateral: {advice.collateral('15.1', '15.2')}."
    assert text.count(label) == 1
    assert text.splitlines()[text.splitlines().index(label) - 1].startswith(
        f"- **{earlier.says}**")


def test_verbose_shows_the_traceback_behind_an_exception(tmp_path):
    done = check(lab_folder(tmp_path, LAB.starter.read_text(encoding="utf-8")), "--verbose")
    assert "| Traceback" in done.stdout


def test_a_missing_file_is_a_plain_error(tmp_path):
    folder = lab_folder(tmp_path, "")
    (folder / "harness.py").unlink()
    done = check(folder)
    assert done.returncode == 2 and "there is no harness file" in done.stdout


def judged(path):
    """Every test's verdict, as the grader judges (a file that hangs test after test is not
    given up on: tests below pin the student's check, which does)."""
    files = suite.of_lab(LAB.id, cumulative_=False)
    return runner.run(path, files, runner.expected_for(files),
                      limits=runner.Limits(seconds_per_test=1.5, seconds_to_import=5,
                                           stop_at_hangs_in_a_row=False))


@pytest.fixture(scope="module")
def base_verdicts(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bases")
    verdicts = {}
    for base in ("solution", "starter"):
        path = folder / f"{base}.py"
        path.write_text(base_text(base), encoding="utf-8")
        verdicts[base] = {o.id: o.verdict for o in judged(path).outcomes}
    return verdicts


@pytest.mark.parametrize("name", sorted(TABLE))
def test_a_bad_submission_gets_a_verdict_and_a_reason(tmp_path, name, base_verdicts):
    case = TABLE[name]
    path = tmp_path / "harness.py"
    path.write_text(submission(case["base"], name), encoding="utf-8")
    report = judged(path)
    outcomes = {o.id: o for o in report.outcomes}
    assert len(outcomes) == len(suite.describe(LAB)), "every test gets a verdict"
    assert all(o.verdict == "pass" or o.message for o in report.outcomes), "and every failure a reason"
    passed = {i for i, o in outcomes.items() if o.verdict == "pass"}
    if case["base"] != "none":
        before = {i for i, v in base_verdicts[case["base"]].items() if v == "pass"}
        assert passed <= before, f"{name}: tests passed that the base alone fails: {passed - before}"
    expect = case["expect"]
    if expect == "import":
        assert not passed and report.import_error and case["says"] in report.import_error
    elif expect == "none-pass":
        assert not passed
    elif expect == "all-pass":
        assert len(passed) == len(outcomes)
    elif expect == "starter":
        assert passed == {i for i, v in base_verdicts["starter"].items() if v == "pass"}
    elif expect == "some-pass":
        hit = [o for o in report.outcomes if o.verdict == case["verdict"]]
        assert hit and passed, f"{name}: expected some {case['verdict']} verdicts and some passes"
    says = case.get("says_on_windows", case.get("says")) if os.name == "nt" else case.get("says")
    if says and expect != "import":
        assert any(says in o.message for o in report.outcomes), \
            [o.message for o in report.outcomes if o.verdict != "pass"][:3]


def test_output_beyond_the_cap_is_counted_not_kept(tmp_path):
    """Every byte is counted, whenever the reading thread ran: 5,000,100 for each import (a
    test the machine's load stopped starts one more child, which prints it all again)."""
    path = tmp_path / "harness.py"
    path.write_text(submission("solution", "floods_output"), encoding="utf-8")
    report = judged(path)
    kept = len(report.output.encode())
    assert kept <= runner.Limits().output_bytes, f"{kept} bytes kept, past the cap"
    counted = kept + report.output_dropped
    assert counted and counted % 5_000_100 == 0, (
        f"floods_output prints 5,000,100 bytes at each import; {counted} were counted")


KILLED_AT_IMPORT = """
import os, sys
print("printed to standard output, then killed")
print("printed to standard error, then killed", file=sys.stderr)
os.kill(os.getpid(), 9)
"""


def test_what_a_file_printed_before_it_was_killed_is_kept(tmp_path):
    path = tmp_path / "harness.py"
    path.write_text(base_text("solution") + KILLED_AT_IMPORT, encoding="utf-8")
    report = judged(path)
    for line in ("printed to standard output, then killed",
                 "printed to standard error, then killed"):
        assert line in report.output, (
            f"harness.py printed {line!r} at import, then was killed: the line must be in what "
            f"the report kept (lab/check/process.py, CHILD's -u), which is {report.output!r}")


LEAVES_A_PROCESS_HOLDING_ITS_OUTPUT = """
import os, sys
_ready = os.pipe()
if os.fork() == 0:  # a process of its own session, holding the child's output pipe open
    os.setsid()
    with open({pid_file!r}, "a") as f:
        print(os.getpid(), file=f)
    os.close(_ready[1])
    os.read(_ready[0], 1)  # until the child is dead, which lets go of the pipe's other end
    while True:  # then it floods the output for ever
        os.write(2, b"x" * 65536)
os.close(_ready[0])
print("printed after the fork", file=sys.stderr)
"""


def test_a_process_left_holding_the_output_neither_holds_the_run_nor_loses_a_byte(tmp_path):
    """A child's stop does not wait for the end of a pipe that a process it left behind keeps
    open and floods (lab/check/process.py, Child._read_output): what the child printed is all
    read, and on POSIX the output's reader has ended by the time the run returns, instead of
    reading the flood for ever."""
    pid_file = tmp_path / "left.pid"
    path = tmp_path / "harness.py"
    path.write_text(base_text("solution") + LEAVES_A_PROCESS_HOLDING_ITS_OUTPUT.format(
        pid_file=str(pid_file)), encoding="utf-8")
    before = set(threading.enumerate())
    try:
        report = judged(path)
        reading = [t.name for t in set(threading.enumerate()) - before
                   if "_read_output" in t.name]
    finally:
        for pid in pid_file.read_text().split() if pid_file.exists() else ():
            try:
                os.kill(int(pid), 9)
            except ProcessLookupError:
                pass
    assert pid_file.exists(), "the harness never left its process behind"
    said = report.output.count("printed after the fork")
    assert said == 1 and all(o.verdict.value == "pass" for o in report.outcomes), (
        f"the line was kept {said} times; verdicts other than pass: "
        f"{[(o.id, o.verdict.value) for o in report.outcomes if o.verdict.value != 'pass']}")
    assert process.portable() or not reading, (
        f"the run returned with the output still being read by {reading}: a process the child "
        "left behind floods the pipe, so that reader would never end")


def timeouts(folder, text, limits):
    """The messages of the tests of lab 15.1 that timed out on the harness `text`."""
    path = folder / "harness.py"
    path.write_text(text, encoding="utf-8")
    files = suite.of_lab(LAB.id, cumulative_=False)
    report = runner.run(path, files, runner.expected_for(files), limits=limits)
    return [o.message for o in report.outcomes if o.verdict == "timeout"]


def test_a_busy_loop_is_stopped_by_its_processor_time_and_sooner_once_the_file_has_hung(
        tmp_path):
    """A test that spins is stopped by the processor time it uses without a turn (the wall
    clock is set at a minute here, so nothing else could stop it); after the first,
    Limits.cpu_after_a_hang is enough."""
    found = timeouts(tmp_path, submission("solution", "hangs_in_a_busy_loop"),
                     runner.Limits(seconds_per_test=60, seconds_after_a_hang=60,
                                   seconds_after_hangs_in_a_row=60,
                                   stop_at_hangs_in_a_row=False))
    assert len(found) >= 2
    assert ("spun in error_message (harness.py, line " in found[0] and
            "through 0.5 seconds of processor time without giving the event loop a turn" in found[0])
    assert all(re.search(r"through 0\.(15|1) seconds of processor time", m) for m in found[1:])


SLEEPS_IN_GUARD = """
import time

_plain_guard = guard


def guard(tool, check):
    time.sleep(600)  # a few of lab 15.1's tests call guard
    return _plain_guard(tool, check)
"""


def test_a_call_that_blocks_is_stopped_by_the_wall_clock_and_sooner_once_the_file_has_hung(
        tmp_path):
    """A sleep uses no processor time, so only the wall clock can see it; once one test of the
    file has hung, the next gets Limits.seconds_after_a_hang."""
    found = timeouts(tmp_path, base_text("solution") + SLEEPS_IN_GUARD,
                     runner.Limits(seconds_per_test=2, seconds_after_a_hang=1,
                                   stop_at_hangs_in_a_row=False))
    assert len(found) >= 2
    assert "held the process for 2 seconds in guard (harness.py, line " in found[0]
    assert all("held the process for 1 second in guard" in m for m in found[1:3])
    assert all("held the process for 0.5 seconds in guard" in m for m in found[3:])


def test_a_file_that_does_not_import_exits_2_because_no_test_could_run(tmp_path):
    done = check(lab_folder(tmp_path, "def broken(:\n"))
    assert done.returncode == 2, done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith("Next: harness.py does not import")


def test_only_a_users_mistake_becomes_one_line_and_a_fault_of_the_kit_keeps_its_traceback(
        tmp_path, monkeypatch, capsys):
    from lab import lab_check
    from lab.check.errors import NothingToCheck
    from lab.check.problems import NamesNoLab

    def mistaken(*args, **kwargs):
        raise NothingToCheck(NamesNoLab("nowhere.py"))
    monkeypatch.setattr(lab_check, "check_aloud", mistaken)
    assert lab_check.main(["--harness", "h.py", "--lesson", "15", "nowhere.py"]) == 2
    assert capsys.readouterr().out == "lab_check: nowhere.py names no lab of this kit\n"

    def broken(*args, **kwargs):
        raise ValueError("a bug in the checker")
    monkeypatch.setattr(lab_check, "check_aloud", broken)
    with pytest.raises(ValueError, match="a bug in the checker"):
        lab_check.main(["--harness", "h.py", "--lesson", "15", "nowhere.py"])


def test_a_file_reaching_into_the_checker_is_told_so_after_the_count_and_keeps_its_verdicts(
        tmp_path):
    """The local check judges under the public seed, whose answers the student holds, so a file
    can fool it from inside; the audit's scan (lab/check/audit.py) finds the reach, and the note
    after the count says so, naming the lines, without changing a verdict."""
    from lab.check.lines import check_aloud
    lab = manifest.lab("2.1")
    solution = lab.solution.read_text(encoding="utf-8")
    reaching = solution + "\nimport lab.check.kit  # a file that answers the checks itself\n"
    said: dict[str, list[str]] = {}
    for name, text in (("reference", solution), ("reaching", reaching)):
        harness = tmp_path / name / "harness.py"
        harness.parent.mkdir()
        harness.write_text(text, encoding="utf-8")
        said[name] = []
        check_aloud(harness, lab.tests, lab.lesson.number, write=said[name].append)
    notes = [line for line in said["reaching"] if line.startswith("Note: harness.py reaches")]
    line = len(reaching.splitlines())
    assert notes and f"line {line}: imports lab.check.kit" in notes[0], (
        "A file importing the checker's modules passed lab 2.1's check with no note after the "
        "count; the check said:\n" + "\n".join(said["reaching"][-4:]))
    assert said["reaching"].index(notes[0]) == len(said["reaching"]) - 2, (
        "The note stands between the count and the Next line")
    assert [text for text in said["reaching"] if text not in notes][1:] == said["reference"][1:], (
        "The note may change no other line of the check (after the opening line, which names "
        "the file): the reference's lines and the reaching file's differ beyond it")
    assert not any(text.startswith("Note: harness.py reaches") for text in said["reference"]), (
        "The reference, which reaches for nothing, was told it did")
