"""The Workspace contract (lab.world.contracts.Workspace), case by case on the fake
(lab.Workspace) and on the real folder behind `course chat` (lab.desk.real.DiskWorkspace)."""

import pytest

from lab.desk.real import DiskWorkspace
from lab.world import contracts
from lab.world.workspace import Workspace
from tests.desk.conformance import WORLDS, missing_members

FILES = {"notes.txt": "one\ntwo\n", "src/app.py": "print(1)\n", "src/lib/util.py": ""}


@pytest.fixture(params=WORLDS)
def workspace(request, tmp_path):
    """A workspace holding FILES: the fake, or a tmp folder written byte for byte without the
    part under test."""
    if request.param == "fake":
        return Workspace(FILES)
    root = tmp_path / "work"
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(text.encode("utf-8"))
    return DiskWorkspace(root)


def test_each_workspace_provides_every_member_of_the_contract(workspace):
    assert isinstance(workspace, contracts.Workspace)
    assert missing_members(workspace, contracts.Workspace) == []


@pytest.mark.parametrize("text", ["", "no newline at the end", "crlf\r\nand cr\rand lf\n",
                                  "caf\u00e9 \u2014 \U0001F600\n"])
def test_what_is_written_is_read_back_exactly(workspace, text):
    workspace.write_text("out.txt", text)
    assert workspace.read_text("out.txt") == text
    workspace.append_text("out.txt", text)
    assert workspace.read_text("out.txt") == text + text


def test_write_replaces_and_append_adds_making_the_folders_a_path_needs(workspace):
    workspace.write_text("notes.txt", "replaced\n")
    assert workspace.read_text("notes.txt") == "replaced\n"
    workspace.append_text("notes.txt", "added\n")
    assert workspace.read_text("notes.txt") == "replaced\nadded\n"
    workspace.append_text("logs/today/run.log", "started\n")
    workspace.write_text("deep/er/file.txt", "x")
    assert workspace.read_text("logs/today/run.log") == "started\n"
    assert workspace.isdir("logs/today") and workspace.isdir("deep/er")


def test_exists_and_isdir_tell_files_from_folders_and_from_nothing(workspace):
    assert [workspace.exists(p) for p in ("notes.txt", "src", "src/lib", "", ".", "nope")] == [
        True, True, True, True, True, False]
    assert [workspace.isdir(p) for p in ("notes.txt", "src", "src/lib", "", ".", "nope")] == [
        False, True, True, True, True, False]
    assert not workspace.exists("notes.txt/inside")


def test_listdir_gives_a_folders_direct_children_sorted(workspace):
    assert workspace.listdir() == workspace.listdir(".") == ["notes.txt", "src"]
    assert workspace.listdir("src") == workspace.listdir("./src//") == ["app.py", "lib"]


def test_dot_parts_and_doubled_slashes_name_the_same_file(workspace):
    workspace.write_text("./src//new.py", "x = 1\n")
    assert workspace.read_text("src/new.py") == "x = 1\n"
    assert "new.py" in workspace.listdir("src")


def test_remove_deletes_the_file_and_only_it(workspace):
    workspace.remove("src/app.py")
    assert not workspace.exists("src/app.py")
    assert workspace.listdir("src") == ["lib"]
    assert workspace.read_text("notes.txt") == "one\ntwo\n"


@pytest.mark.parametrize("call", ["read_text", "remove", "listdir"])
def test_a_missing_path_raises_file_not_found_naming_it(workspace, call):
    with pytest.raises(FileNotFoundError, match="missing_file"):
        getattr(workspace, call)("missing_file")


@pytest.mark.parametrize("call", ["read_text", "remove", "write_text", "append_text"])
def test_a_folder_where_a_file_is_wanted_raises_is_a_directory(workspace, call):
    arguments = ("src", "x") if call.endswith("_text") and call != "read_text" else ("src",)
    with pytest.raises(IsADirectoryError, match="src"):
        getattr(workspace, call)(*arguments)
    assert workspace.listdir("src") == ["app.py", "lib"]


@pytest.mark.parametrize("call, arguments", [
    ("listdir", ("notes.txt",)),
    ("write_text", ("notes.txt/inside.txt", "x")),
    ("append_text", ("notes.txt/deeper/inside.txt", "x")),
])
def test_a_file_where_a_folder_is_wanted_raises_not_a_directory(workspace, call, arguments):
    with pytest.raises(NotADirectoryError, match="notes.txt"):
        getattr(workspace, call)(*arguments)
    assert workspace.read_text("notes.txt") == "one\ntwo\n"


@pytest.mark.parametrize("call", ["write_text", "append_text"])
def test_text_that_is_not_a_str_is_refused_and_nothing_is_written(workspace, call):
    with pytest.raises(TypeError):
        getattr(workspace, call)("bytes.txt", b"raw")
    assert not workspace.exists("bytes.txt")


@pytest.mark.parametrize("call, arguments", [
    ("read_text", ("../outside.txt",)),
    ("write_text", ("../escape.txt", "x")),
    ("append_text", ("src/../../escape.txt", "x")),
    ("listdir", ("..",)),
])
def test_a_path_that_leads_outside_is_refused(workspace, call, arguments):
    # The fake refuses any ".." with ValueError; a real folder refuses a path that resolves
    # outside with PermissionError: the contract allows either, and nothing is written.
    with pytest.raises((ValueError, PermissionError)):
        getattr(workspace, call)(*arguments)
    assert workspace.listdir() == ["notes.txt", "src"]
