"""lab.Shell and lab.Process: commands over a workspace, with time in loop turns."""
import asyncio
import math

import pytest

import lab
from lab.world.clock import turn_clock


@pytest.fixture
def ws():
    return lab.Workspace({"a.txt": "alpha\n", "b.txt": "beta\n", "build/out.o": "o",
                          "build/sub/x.o": "x"})


@pytest.fixture
def shell(ws):
    return lab.Shell(ws)


async def turns_until_done(process, limit=1000):
    """How many turns pass, polling once per turn, before `process` is done."""
    turns = 0
    while not process.done():
        assert turns < limit, f"{process!r} still running after {limit} turns"
        await lab.tick()
        turns += 1
    return turns


# the command table, through run()

@pytest.mark.parametrize("command, expected", [
    ("echo hello  world", ("hello world\n", 0)),
    ("echo", ("\n", 0)),
    ("echo 'two  spaces'", ("two  spaces\n", 0)),
    ("cat a.txt b.txt", ("alpha\nbeta\n", 0)),
    ("cat missing.txt", ("cat: missing.txt: No such file or directory\n", 1)),
    ("cat a.txt missing.txt", ("alpha\ncat: missing.txt: No such file or directory\n", 1)),
    ("ls", ("a.txt\nb.txt\nbuild\n", 0)),
    ("ls build", ("out.o\nsub\n", 0)),
    ("ls a.txt", ("a.txt\n", 0)),
    ("ls nowhere", ("ls: cannot access 'nowhere': No such file or directory\n", 2)),
    ("seq 3", ("1\n2\n3\n", 0)),
    ("seq 0", ("", 0)),
    ("seq 2 4", ("2\n3\n4\n", 0)),
    ("seq 1 2 6", ("1\n3\n5\n", 0)),
    ("seq x", ("seq: invalid floating point argument: 'x'\n", 1)),
    ("true", ("", 0)),
    ("false", ("", 1)),
    ("exit 3", ("", 3)),
    ("exit", ("", 0)),
    ("nosuch --flag", ("bash: nosuch: command not found\n", 127)),
    ("sleep 5", ("", 0)),
    ("", ("", 0)),
])
def test_each_command_gives_the_tables_output_and_code(shell, command, expected):
    assert shell.run(command) == expected


def test_a_path_outside_the_workspace_is_an_error_message_not_a_crash(shell):
    output, code = shell.run("cat ../etc/passwd")
    assert code == 1 and output.startswith("cat: ") and "'../etc/passwd'" in output


def test_rm_deletes_files_and_with_r_directories(shell, ws):
    assert shell.run("rm a.txt") == ("", 0)
    assert shell.run("rm -r build") == ("", 0)
    assert ws.files == {"b.txt": "beta\n"}


@pytest.mark.parametrize("command, expected", [
    ("rm build", ("rm: cannot remove 'build': Is a directory\n", 1)),
    ("rm -f build", ("rm: cannot remove 'build': Is a directory\n", 1)),
    ("rm gone.txt", ("rm: cannot remove 'gone.txt': No such file or directory\n", 1)),
    ("rm -f gone.txt", ("", 0)),
    ("rm -rf gone.txt", ("", 0)),
    ("rm -fr build", ("", 0)),
    ("rm", ("rm: missing operand\n", 1)),
    ("rm -x a.txt", ("rm: invalid option -- 'x'\n", 1)),
])
def test_rm_refuses_directories_without_r_and_missing_paths_without_f(shell, command, expected):
    assert shell.run(command) == expected


def test_and_stops_at_the_first_failure_and_semicolon_goes_on(shell):
    assert shell.run("false && echo skipped") == ("", 1)
    assert shell.run("false; echo ran") == ("ran\n", 0)
    assert shell.run("echo a && cat nope && echo b; echo c") == (
        "a\ncat: nope: No such file or directory\nc\n", 0)
    assert shell.run("true && false && echo no") == ("", 1)


def test_exit_ends_the_whole_line(shell):
    assert shell.run("echo a; exit 4; echo b") == ("a\n", 4)


def test_quoted_separators_are_words_not_separators(shell):
    assert shell.run("echo 'a && b; c'") == ("a && b; c\n", 0)


def test_a_line_break_separates_commands_like_a_semicolon(shell):
    assert shell.run("echo a\n\necho b") == ("a\nb\n", 0)
    assert shell.run("false &&\necho b") == ("", 1)
    assert shell.run("echo 'one\ntwo'") == ("one\ntwo\n", 0)


def test_two_to_one_redirect_is_accepted_since_output_is_already_combined(shell):
    assert shell.run("cat nope 2>&1") == ("cat: nope: No such file or directory\n", 1)


@pytest.mark.parametrize("command", ["ls | wc -l", "echo hi > f.txt", "sleep 1 &",
                                     "true || echo x"])
def test_operators_the_lab_shell_lacks_are_refused_plainly(shell, command):
    output, code = shell.run(command)
    assert code == 2 and "&& and ; only" in output


@pytest.mark.parametrize("command", ["echo 'open", "&& echo x", "echo a &&"])
def test_a_broken_command_line_is_a_syntax_error_not_a_crash(shell, command):
    output, code = shell.run(command)
    assert code == 2 and output.startswith("bash: ")


def test_run_raises_for_a_line_that_never_ends_naming_the_command(shell):
    with pytest.raises(RuntimeError) as caught:
        shell.run("sleep inf")
    assert str(caught.value) == "sleep inf never ends; Shell.run cannot wait for it"
    with pytest.raises(RuntimeError, match="^echo a && sleep infinity never ends"):
        shell.run("echo a && sleep infinity")


def test_run_records_no_process(shell):
    shell.run("echo hi")
    assert shell.processes == []


# pytest

def test_pytest_counts_passing_and_failing_tests_in_test_files():
    ws = lab.Workspace({
        "tests/test_math.py": "def test_add():\n    assert 1 + 1 == 2\n\n"
                              "def test_broken():\n    assert False\n",
        "tests/test_io.py": "def test_read():\n    '''doc'''\n    assert False, 'todo'\n\n"
                            "def helper():\n    assert False\n",
        "tests/helpers.py": "def test_not_collected():\n    assert False\n",
        "src/test_here.py": "def test_elsewhere():\n    pass\n",
    })
    shell = lab.Shell(ws)
    assert shell.run("pytest tests") == (
        "FAILED tests/test_io.py::test_read\nFAILED tests/test_math.py::test_broken\n"
        "2 failed, 1 passed\n", 1)
    assert shell.run("pytest") == (
        "FAILED tests/test_io.py::test_read\nFAILED tests/test_math.py::test_broken\n"
        "2 failed, 2 passed\n", 1)
    assert shell.run("pytest src -q") == ("1 passed\n", 0)
    assert shell.run("pytest tests/test_math.py") == (
        "FAILED tests/test_math.py::test_broken\n1 failed, 1 passed\n", 1)


def test_pytest_with_nothing_to_collect_says_no_tests_ran_with_code_5(shell):
    assert shell.run("pytest") == ("no tests ran\n", 5)


def test_pytest_on_a_missing_path_says_so():
    output, code = lab.Shell(lab.Workspace()).run("pytest nope")
    assert code == 4 and "file or directory not found: nope" in output


def test_pytest_reports_a_test_file_that_does_not_parse():
    shell = lab.Shell(lab.Workspace({"test_bad.py": "def test_x(:\n"}))
    output, code = shell.run("pytest")
    assert code == 2 and output.startswith("ERROR test_bad.py - SyntaxError")


async def test_pytest_takes_three_turns():
    ws = lab.Workspace({"test_a.py": "def test_a():\n    pass\n"})
    process = lab.Shell(ws).start("pytest")
    assert await turns_until_done(process) == 3
    assert process.output() == ("1 passed\n", 0)


# commands=

def test_commands_add_and_override_and_receive_args_and_the_workspace(ws):
    seen = []

    def deploy(args, workspace):
        seen.append((args, workspace))
        return f"deployed {args[0]}\n", 0

    shell = lab.Shell(ws, commands={"deploy": deploy, "echo": lambda args, w: ("ECHO\n", 0)})
    assert shell.run("deploy prod && echo x") == ("deployed prod\nECHO\n", 0)
    assert seen == [(["prod"], ws)]


async def test_a_command_may_take_turns_and_its_output_appears_when_they_are_over(ws):
    shell = lab.Shell(ws, commands={"build": lambda args, w: ("built\n", 0, 4)})
    assert shell.run("build") == ("built\n", 0)
    process = shell.start("build")
    assert await turns_until_done(process) == 4
    assert process.output() == ("built\n", 0)
    killed = shell.start("echo before; build")
    await lab.ticks(2)
    killed.kill()
    assert killed.output() == ("before\n", -9)


async def test_a_command_that_takes_math_inf_turns_never_ends(ws):
    shell = lab.Shell(ws, commands={"serve": lambda args, w: ("", 0, math.inf)})
    with pytest.raises(RuntimeError, match="^serve never ends"):
        shell.run("serve")
    process = shell.start("serve")
    await lab.ticks(50)
    assert not process.done()
    process.kill()


@pytest.mark.parametrize("returned", ["text", ("a",), ("a", "0"), ("a", 0, -1), ("a", 0, 1.5),
                                      (b"a", 0)])
async def test_a_command_function_returning_the_wrong_thing_is_named(ws, returned):
    shell = lab.Shell(ws, commands={"odd": lambda args, w: returned})
    with pytest.raises(TypeError, match="the command 'odd' returned"):
        shell.run("odd")
    process = shell.start("sleep 1 && odd")
    await turns_until_done(process)
    with pytest.raises(TypeError, match="the command 'odd' returned"):
        process.output()


@pytest.mark.parametrize("commands", [["deploy"], {"deploy": "not a function"}])
def test_commands_must_map_names_to_functions(ws, commands):
    with pytest.raises(TypeError, match="fn\\(args, ws\\)"):
        lab.Shell(ws, commands=commands)


# start, Process and time

async def test_a_process_of_duration_d_is_done_d_turns_after_start(shell):
    for command, duration in [("echo hi", 0), ("sleep 1", 1), ("sleep 3 && echo done", 3),
                              ("sleep 2; sleep 2", 4), ("sleep 0.5", 1)]:
        process = shell.start(command)
        assert await turns_until_done(process) == duration, command


async def test_a_segments_output_appears_when_the_segment_runs(shell):
    process = shell.start("echo start && sleep 3 && echo done")
    await lab.ticks(2)
    process.kill()
    assert process.output() == ("start\n", -9)
    finished = shell.start("echo start && sleep 3 && echo done")
    await lab.ticks(3)
    assert finished.output() == ("start\ndone\n", 0)


async def test_output_before_done_raises(shell):
    process = shell.start("sleep 2")
    with pytest.raises(RuntimeError) as caught:
        process.output()
    assert str(caught.value) == "the process is still running"
    process.kill()


async def test_kill_ends_a_running_process_with_code_minus_nine(shell):
    process = shell.start("echo a; sleep inf")
    await lab.ticks(10)
    assert not process.done() and not process.killed
    process.kill()
    assert process.done() and process.killed
    assert process.output() == ("a\n", -9)
    process.kill()
    assert process.output() == ("a\n", -9)


async def test_kill_after_a_normal_finish_changes_nothing(shell):
    process = shell.start("echo fine")
    assert process.done()
    process.kill()
    assert not process.killed and process.output() == ("fine\n", 0)


async def test_sleep_inf_waits_for_ever_and_costs_nothing_while_it_waits(shell):
    process = shell.start("sleep inf")
    clock = turn_clock("test")
    assert not clock._ticking  # no alarm was set, so no callback runs per turn
    await lab.ticks(200)
    assert not process.done() and not clock._ticking
    process.kill()


async def test_a_long_finite_sleep_is_counted_and_the_clock_stops_after(shell):
    process = shell.start("sleep 600 && echo woke")
    assert await turns_until_done(process, limit=700) == 600
    assert process.output() == ("woke\n", 0)
    await lab.tick()
    assert not turn_clock("test")._ticking


async def test_a_killed_process_stops_the_clock_it_no_longer_needs(shell):
    process = shell.start("sleep 600")
    await lab.tick()
    process.kill()
    await lab.ticks(2)
    assert not turn_clock("test")._ticking


async def test_many_processes_share_one_clock_and_keep_their_own_durations(shell):
    processes = [shell.start(f"sleep {n} && echo {n}") for n in (5, 1, 3)]
    done_at = {}
    for turn in range(1, 7):
        await lab.tick()
        for process in processes:
            if process.done() and process.command not in done_at:
                done_at[process.command] = turn
    assert done_at == {"sleep 1 && echo 1": 1, "sleep 3 && echo 3": 3, "sleep 5 && echo 5": 5}


async def test_processes_lists_every_start_and_running_those_not_done(shell):
    quick, slow, never = shell.start("true"), shell.start("sleep 2"), shell.start("sleep inf")
    assert shell.processes == [quick, slow, never]
    assert shell.running() == [slow, never]
    await lab.ticks(2)
    assert shell.running() == [never]
    never.kill()
    assert shell.running() == []


def test_start_without_a_running_loop_says_what_it_needs(shell):
    with pytest.raises(RuntimeError, match="Shell.start needs a running event loop"):
        shell.start("echo hi")


def test_a_command_line_must_be_a_string(shell):
    with pytest.raises(TypeError, match="a command line is a string"):
        shell.run(["echo", "hi"])


# arun

async def test_arun_gives_the_same_result_as_run(ws):
    for command in ["echo hi", "cat nope", "sleep 3 && echo done", "exit 7", "ls build"]:
        assert await lab.Shell(ws).arun(command) == lab.Shell(ws).run(command), command


async def test_arun_waits_for_a_command_and_looks_at_nothing_else(shell):
    task = asyncio.ensure_future(shell.arun("sleep 3 && echo done"))
    await lab.ticks(3)
    assert not task.done()  # the task needs a turn to start, then the command three more
    assert await task == ("done\n", 0)


async def test_cancelling_arun_ends_the_waiting_not_the_process(shell):
    task = asyncio.ensure_future(shell.arun("sleep 10 && echo finished"))
    await lab.ticks(2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    [process] = shell.running()
    assert process.command == "sleep 10 && echo finished" and not process.killed
    await turns_until_done(process)
    assert process.output() == ("finished\n", 0)


async def test_two_awaiters_of_one_process_both_get_its_result(shell):
    process = shell.start("sleep 2 && echo x")
    both = await asyncio.gather(process._wait(), process._wait())
    assert both == [("x\n", 0), ("x\n", 0)]


async def test_the_same_scenario_twice_gives_the_same_outputs_and_timings(ws):
    async def scenario():
        shell = lab.Shell(lab.Workspace(ws.files))
        processes = [shell.start(c) for c in ("sleep 2 && echo a", "sleep inf", "pytest")]
        log = []
        for turn in range(5):
            await lab.tick()
            log.append([p.done() for p in processes])
        processes[1].kill()
        return log, [p.output() for p in processes], shell.run("rm -r build; ls")

    assert await scenario() == await scenario()
