"""lab.Workspace: an in-memory tree of text files, with a power cut on demand."""
import pytest

import lab


@pytest.fixture
def ws():
    return lab.Workspace({"a.py": "print(1)\n", "src/app.py": "app\n", "src/lib/x.py": "x\n"})


def test_read_text_returns_a_files_text(ws):
    assert ws.read_text("src/app.py") == "app\n"


def test_read_text_raises_like_a_disk_for_missing_paths_and_directories(ws):
    with pytest.raises(FileNotFoundError) as missing:
        ws.read_text("nope.txt")
    assert missing.value.args == ("nope.txt",)
    with pytest.raises(IsADirectoryError) as folder:
        ws.read_text("src")
    assert folder.value.args == ("src",)
    with pytest.raises(IsADirectoryError):
        ws.read_text(".")


def test_a_directory_exists_exactly_when_a_file_lies_beneath_it(ws):
    assert ws.isdir("src") and ws.isdir("src/lib") and ws.exists("src")
    assert not ws.isdir("a.py") and ws.exists("a.py")
    assert not ws.exists("sr") and not ws.isdir("lib")
    ws.remove("src/lib/x.py")
    assert not ws.exists("src/lib")


def test_the_root_is_a_directory_even_when_empty():
    empty = lab.Workspace()
    assert empty.isdir("") and empty.isdir(".") and empty.listdir() == []


def test_listdir_gives_sorted_direct_children_files_and_directories_alike(ws):
    ws.write_text("B.md", "")
    assert ws.listdir(".") == ["B.md", "a.py", "src"]
    assert ws.listdir("") == ws.listdir()
    assert ws.listdir("src") == ["app.py", "lib"]


def test_listdir_raises_for_a_missing_path_or_a_file(ws):
    with pytest.raises(FileNotFoundError):
        ws.listdir("nope")
    with pytest.raises(NotADirectoryError):
        ws.listdir("a.py")


def test_write_text_creates_or_replaces_and_append_text_creates_or_extends(ws):
    ws.write_text("new/deep/file.txt", "one")
    ws.write_text("a.py", "replaced")
    ws.append_text("log.jsonl", "1\n")
    ws.append_text("log.jsonl", "2\n")
    assert ws.read_text("new/deep/file.txt") == "one"
    assert ws.read_text("a.py") == "replaced"
    assert ws.read_text("log.jsonl") == "1\n2\n"


def test_writing_over_a_directory_or_beneath_a_file_is_refused(ws):
    with pytest.raises(IsADirectoryError):
        ws.write_text("src", "x")
    with pytest.raises(NotADirectoryError):
        ws.append_text("a.py/inner.txt", "x")


def test_remove_deletes_a_file_and_raises_like_read_text(ws):
    ws.remove("a.py")
    assert not ws.exists("a.py")
    with pytest.raises(FileNotFoundError):
        ws.remove("a.py")
    with pytest.raises(IsADirectoryError):
        ws.remove("src")


def test_files_is_a_snapshot_that_changes_nothing_when_edited(ws):
    snapshot = ws.files
    snapshot["evil.txt"] = "x"
    ws.write_text("later.txt", "y")
    assert "evil.txt" not in ws.files and "later.txt" not in snapshot
    assert ws.files["src/app.py"] == "app\n"


def test_paths_are_normalised_so_one_file_has_one_name(ws):
    assert ws.read_text("./src//app.py") == "app\n"
    ws.write_text("./notes.txt", "n")
    assert "notes.txt" in ws.files


def test_cut_power_after_n_lets_n_writes_through_and_cuts_the_next_once():
    ws = lab.Workspace()
    ws.cut_power_after(2)
    ws.append_text("log", "1\n")
    ws.write_text("other", "x")
    with pytest.raises(lab.PowerCut):
        ws.append_text("log", "2\n")
    assert ws.read_text("log") == "1\n"
    ws.append_text("log", "3\n")  # it fires once
    assert ws.read_text("log") == "1\n3\n"


def test_a_torn_append_leaves_half_the_line_behind():
    ws = lab.Workspace({"log": "first\n"})
    ws.cut_power_after(0, torn=True)
    with pytest.raises(lab.PowerCut):
        ws.append_text("log", '{"id": "e2"}\n')
    assert ws.read_text("log") == 'first\n{"id":'  # 6 of 13 characters


def test_a_torn_write_leaves_the_first_half_as_the_file():
    ws = lab.Workspace({"f": "old"})
    ws.cut_power_after(0, torn=True)
    with pytest.raises(lab.PowerCut):
        ws.write_text("f", "abcdef")
    assert ws.read_text("f") == "abc"


def test_a_power_cut_is_not_caught_by_except_exception():
    ws = lab.Workspace()
    ws.cut_power_after(0)
    with pytest.raises(lab.PowerCut):
        try:
            ws.write_text("f", "x")
        except Exception:
            pass


def test_a_refused_write_does_not_count_towards_the_power_cut(ws):
    ws.cut_power_after(1)
    with pytest.raises(IsADirectoryError):
        ws.write_text("src", "x")
    ws.write_text("ok.txt", "x")
    with pytest.raises(lab.PowerCut):
        ws.write_text("cut.txt", "x")


@pytest.mark.parametrize("build, error, words", [
    (lambda: lab.Workspace(["a.py"]), TypeError, "dict of path -> text"),
    (lambda: lab.Workspace({"a.py": b"bytes"}), TypeError, "text is a str"),
    (lambda: lab.Workspace().read_text(3), TypeError, "a workspace path is a string"),
    (lambda: lab.Workspace().read_text("../etc/passwd"), ValueError, "stay inside"),
    (lambda: lab.Workspace().write_text("f", None), TypeError, "text is a str"),
    (lambda: lab.Workspace().cut_power_after(-1), ValueError, "how many writes"),
])
def test_misuse_is_refused_with_a_plain_message(build, error, words):
    with pytest.raises(error, match=words):
        build()
