"""The Shell and Process contracts (lab.world.contracts), case by case on the fake (lab.Shell
over a lab.Workspace) and on the real shell behind `course chat` (lab.desk.real's RealShell in a
tmp folder, beside a DiskWorkspace of the same folder). The commands are the ones the fake runs,
with outputs that GNU and BSD tools print alike, so the cases hold on Linux and macOS too."""

import sys

import pytest

from lab.desk.real import DiskWorkspace, RealShell
from lab.world import contracts
from lab.world.shell import Shell
from lab.world.workspace import Workspace
from tests.desk.conformance import WORLDS, missing_members, until

FILES = {"notes.txt": "one\ntwo\n", "src/app.py": "print(1)\n", "src/lib/util.py": ""}


@pytest.fixture(params=WORLDS)
def world(request, tmp_path):
    """(shell, workspace) over FILES: the fakes, or a real shell and folder in tmp_path."""
    if request.param == "fake":
        workspace = Workspace(FILES)
        yield Shell(workspace), workspace
        return
    workspace = DiskWorkspace(tmp_path)
    for path, text in FILES.items():
        workspace.write_text(path, text)
    shell = RealShell(tmp_path)
    yield shell, workspace
    shell.kill_all()


@pytest.fixture
def shell(world):
    return world[0]


async def finish(process):
    await until(process.done, f"{process.command!r} to end")
    return process.output()


async def run(shell, command):
    return await finish(shell.start(command))


async def test_each_shell_and_process_provide_every_member_of_the_contracts(shell):
    process = shell.start("true")
    await finish(process)
    assert isinstance(shell, contracts.Shell) and isinstance(process, contracts.Process)
    assert missing_members(shell, contracts.Shell) == []
    assert missing_members(process, contracts.Process) == []


@pytest.mark.parametrize("command, expected", [
    ("echo hello", ("hello\n", 0)),
    ("cat notes.txt", ("one\ntwo\n", 0)),
    ("cat missing.txt", ("cat: missing.txt: No such file or directory\n", 1)),
    ("ls", ("notes.txt\nsrc\n", 0)),
    ("ls src", ("app.py\nlib\n", 0)),
    ("seq 3", ("1\n2\n3\n", 0)),
    ("seq 2 4", ("2\n3\n4\n", 0)),
    ("true && echo yes", ("yes\n", 0)),
    ("false && echo no; echo after", ("after\n", 0)),
    ("false", ("", 1)),
    ("false; exit", ("", 1)),
    ("exit 3", ("", 3)),
    ("echo a; exit 4; echo b", ("a\n", 4)),
    ("exit 300", ("", 44)),
    ("echo \"a  b\" 'c'", ("a  b c\n", 0)),
    ("echo a\necho b", ("a\nb\n", 0)),
    ("cat missing.txt 2>&1", ("cat: missing.txt: No such file or directory\n", 1)),
    ("rm -f missing.txt", ("", 0)),
], ids=repr)
async def test_a_command_line_gives_the_same_output_and_code(shell, command, expected):
    assert await run(shell, command) == expected


@pytest.mark.parametrize("command, says", [
    ("ls missing", "No such file or directory"),
    ("rm missing.txt", "No such file or directory"),
    ("rm src", "is a directory"),
    ("nope", "command not found"),
])
async def test_a_failing_command_exits_non_zero_and_says_why(shell, command, says):
    # GNU and BSD word these, and pick the code, each their own way: the fake's are GNU's
    output, code = await run(shell, command)
    assert code != 0 and says.lower() in output.lower()
    if command == "nope":
        assert code == 127


async def test_what_a_command_changes_the_workspace_sees_and_back(world):
    shell, workspace = world
    workspace.write_text("made.txt", "by the workspace\n")
    assert await run(shell, "cat made.txt") == ("by the workspace\n", 0)
    assert await run(shell, "rm notes.txt && rm -r src && ls") == ("made.txt\n", 0)
    assert workspace.listdir() == ["made.txt"]


async def test_a_slow_command_is_not_done_at_once_and_then_ends_on_its_own(shell):
    process = shell.start("sleep 0.1 && echo slept")
    assert process.command == "sleep 0.1 && echo slept"
    assert not process.done()
    with pytest.raises(RuntimeError, match="the process is still running"):
        process.output()
    assert await finish(process) == ("slept\n", 0)
    assert not process.killed


async def test_kill_ends_a_command_at_once_with_code_minus_nine_and_the_rest_never_runs(shell):
    if sys.platform == "win32" and isinstance(shell, RealShell):
        pytest.skip("RealProcess.kill ends a process group, which Windows does not have")
    process = shell.start("sleep 600; echo after")
    assert not process.done()
    process.kill()
    assert process.done() and process.killed
    assert process.output() == ("", -9)
    process.kill()  # again: nothing changes
    assert process.output() == ("", -9) and process.killed


async def test_kill_after_the_end_changes_nothing(shell):
    process = shell.start("echo hi")
    assert await finish(process) == ("hi\n", 0)
    process.kill()
    assert process.output() == ("hi\n", 0) and not process.killed
