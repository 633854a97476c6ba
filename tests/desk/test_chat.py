"""`course chat` against a real HTTP server on 127.0.0.1 that speaks streamed Chat Completions,
scripted per test: the kit's solution harness, a real folder and real subprocesses, no internet.
Nothing here waits for time: the tests synchronise on events the server and the folder raise."""

import os
import signal
import socket
import subprocess
import sys
import threading

import pytest

from lab.desk.course import main
from lab.world.provider import stream_lines
from lab.world.replies import call, reply, say

from tests.desk.chat_server import DEADLINE, KIT, Provider, chat_args, log_of


@pytest.fixture
def provider():
    server = Provider()
    yield server
    server.close()


def test_a_task_that_needs_a_write_and_a_bash_call_completes(provider, tmp_path, capsys,
                                                                monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    provider.answer(reply("I will write it, then copy it.",
                          call("write", {"path": "notes/caf\u00e9.txt", "content": "hello\n"}),
                          call("bash", {"command": "cp notes/caf\u00e9.txt copy.txt && echo copied"})))
    provider.answer(say("Done: copy.txt holds hello."))

    code = main(chat_args(provider.url, tmp_path, "-p", "Make copy.txt", "--yes"))

    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.strip() == "Done: copy.txt holds hello."
    assert (tmp_path / "notes" / "caf\u00e9.txt").read_text() == "hello\n"
    assert (tmp_path / "copy.txt").read_text() == "hello\n"
    first, second = (request["body"] for request in provider.requests)
    assert provider.requests[0]["path"] == "/v1/chat/completions"
    assert provider.requests[0]["headers"]["Authorization"] == "Bearer sk-test"
    assert first["model"] == "tiny" and first["stream"] is True
    assert [tool["function"]["name"] for tool in first["tools"]] == ["read", "write", "bash"]
    results = [m["content"] for m in second["messages"] if m["role"] == "tool"]
    assert results[0] == "Successfully wrote to notes/caf\u00e9.txt."
    assert results[1].strip() == "copied"


def test_the_session_log_is_resumed_on_the_next_start(provider, tmp_path, capsys):
    provider.answer(say("First answer."))
    provider.answer(say("Second answer."))
    assert main(chat_args(provider.url, tmp_path, "-p", "one")) == 0
    assert main(chat_args(provider.url, tmp_path, "-p", "two")) == 0
    sent = provider.requests[1]["body"]["messages"]
    assert [m["content"] for m in sent if m["role"] in ("user", "assistant")] == [
        "one", "First answer.", "two"]
    assert "resumed" in capsys.readouterr().err


def test_a_refused_call_is_not_run_without_yes(provider, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda *prompt: "n")
    provider.answer(reply(call("write", {"path": "x.txt", "content": "x"})))
    provider.answer(say("I was not allowed."))
    assert main(chat_args(provider.url, tmp_path, "-p", "write x")) == 0
    assert not (tmp_path / "x.txt").exists()
    result = [m for m in provider.requests[1]["body"]["messages"] if m["role"] == "tool"][0]
    assert "the user said no" in result["content"]


def test_a_401_says_the_key_was_refused_and_exits_non_zero(provider, tmp_path, capsys):
    provider.status(401, '{"error": {"message": "Incorrect API key provided"}}')
    assert main(chat_args(provider.url, tmp_path, "-p", "hi")) == 1
    err = capsys.readouterr().err
    assert "401" in err and "OPENAI_API_KEY" in err and "Incorrect API key" in err


def test_an_unreachable_port_says_so_and_exits_non_zero(tmp_path, capsys):
    with socket.socket() as spare:
        spare.bind(("127.0.0.1", 0))
        port = spare.getsockname()[1]  # bound, never listening: connections are refused
        url = f"http://127.0.0.1:{port}/v1"
        assert main(chat_args(url, tmp_path, "-p", "hi")) == 1
    assert "cannot reach" in capsys.readouterr().err


def test_a_server_that_is_not_chat_completions_is_named(provider, tmp_path, capsys):
    provider.status(200, "<html>hello</html>", kind="text/html")
    assert main(chat_args(provider.url, tmp_path, "-p", "hi")) == 1
    assert "OpenAI-compatible" in capsys.readouterr().err


def test_a_stream_cut_short_is_an_error(provider, tmp_path, capsys):
    lines = stream_lines(reply(call("write", {"path": "half.txt", "content": "abcdef"})))
    provider.stream(lines[:3])  # the connection closes inside the call's arguments
    assert main(chat_args(provider.url, tmp_path, "-p", "hi", "--yes")) == 1
    assert "ended before the reply was finished" in capsys.readouterr().err
    assert not (tmp_path / "half.txt").exists()


def test_an_error_in_the_stream_is_reported_naming_the_server_that_sent_it(
        provider, tmp_path, capsys):
    provider.stream(['data: {"error": "model is overloaded"}'])  # a bare string, as some send
    assert main(chat_args(provider.url, tmp_path, "-p", "hi")) == 1
    err = capsys.readouterr().err
    assert "model is overloaded" in err and f"from model tiny at {provider.url}" in err


def test_an_unfinished_harness_is_refused_naming_the_lab(tmp_path, capsys):
    early = KIT / "solutions" / "15-stop" / "lab2" / "harness.py"
    code = main(["chat", "--harness", str(early), "--base-url", "http://127.0.0.1:9/v1",
                 "--model", "m", "--workdir", str(tmp_path), "-p", "hi"])
    assert code == 2
    assert "StreamingModel (lesson 16, lab 2)" in capsys.readouterr().err


def test_paths_outside_the_work_folder_are_refused(tmp_path):
    from lab.desk.real import DiskWorkspace
    ws = DiskWorkspace(tmp_path / "inside")
    (tmp_path / "inside").mkdir()
    with pytest.raises(PermissionError):
        ws.read_text("../secret.txt")
    with pytest.raises(PermissionError):
        ws.write_text("/etc/passwd", "x")


def _chat_process(provider, workdir, *extra):
    return subprocess.Popen(
        [sys.executable, "-m", "lab.desk.course", *chat_args(provider.url, workdir, *extra)],
        cwd=KIT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_ctrl_c_while_the_model_talks_stops_the_run_and_keeps_the_log_valid(provider, tmp_path):
    provider.stream(stream_lines(say("Let me think about this at length"))[:2], hang=True)
    process = _chat_process(provider, tmp_path, "-p", "hi")
    assert provider.sent.wait(DEADLINE)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=DEADLINE)
    assert process.returncode == 1, err
    assert err.rstrip().endswith("[stopped (clean)]"), err
    assert "ended without an answer" not in err, "the Stop is said once, as a Stop"
    last = log_of(tmp_path)[-1]["message"]
    assert last["stop_reason"] == "aborted" and last["content"][0]["text"] == "Let me"


def test_ctrl_c_during_a_command_kills_it(provider, tmp_path):
    fifo = tmp_path / "ready.fifo"
    os.mkfifo(fifo)
    provider.answer(reply(call("bash", {"command": "echo $$ > ready.fifo; exec sleep 600"})))
    process = _chat_process(provider, tmp_path, "-p", "hi", "--yes")
    said = []
    reader = threading.Thread(target=lambda: said.append(fifo.read_text()), daemon=True)
    reader.start()
    reader.join(DEADLINE)  # returns once the command has written its pid
    assert said, "the command never started"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=DEADLINE)
    assert process.returncode == 1, err
    with pytest.raises(ProcessLookupError):
        os.kill(int(said[0]), 0)
    results = [e["message"] for e in log_of(tmp_path) if e["message"]["role"] == "toolResult"]
    assert results[-1]["content"].startswith("Command cancelled")


def test_without_p_each_line_is_a_prompt_until_the_input_ends(provider, tmp_path):
    provider.answer(say("One."))
    provider.answer(say("Two."))
    process = subprocess.run(
        [sys.executable, "-m", "lab.desk.course", *chat_args(provider.url, tmp_path)],
        cwd=KIT, input="first\n\nsecond\n", capture_output=True, text=True, timeout=DEADLINE)
    assert process.returncode == 0, process.stderr
    assert [word for word in process.stdout.split() if word != ">"] == ["One.", "Two."]
    assert [r["body"]["messages"][-1]["content"] for r in provider.requests] == ["first", "second"]


def read_until(stream, ending: str) -> str:
    """What the chat wrote to `stream` up to `ending`; each read blocks until it writes more,
    so nothing here waits for time."""
    seen = ""
    while not seen.endswith(ending):
        piece = stream.read(1)
        assert piece, f"the chat ended before writing {ending!r}: {seen}"
        seen += piece
    return seen


def test_ctrl_c_at_the_door_refuses_the_call_and_stops_the_run(provider, tmp_path):
    provider.answer(reply(call("write", {"path": "x.txt", "content": "x"})))
    process = subprocess.Popen(
        [sys.executable, "-m", "lab.desk.course", *chat_args(provider.url, tmp_path, "-p", "w")],
        cwd=KIT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = read_until(process.stderr, "[y/N] ")
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=DEADLINE)
    assert process.returncode == 1, seen + err
    assert not (tmp_path / "x.txt").exists()
    assert "the user said no" in log_of(tmp_path)[-2]["message"]["content"]


def test_a_file_that_does_not_pass_lab_16_2_is_refused_unless_forced(provider, tmp_path, capsys):
    """The 16.2 starter has every name but its gaps are open: against a real server it would
    fail and seem to blame the server."""
    starter = KIT / "starters" / "16-stream" / "lab2" / "harness.py"
    args = ["chat", "--harness", str(starter), "--base-url", provider.url, "--model", "tiny",
            "--workdir", str(tmp_path), "-p", "hi"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "tests of lab 16.2's check" in err and "course check 16.2" in err and \
        "--force" in err
    assert not provider.requests, "nothing was sent to the server"
    provider.answer(say("Hello."))
    assert main(args + ["--force"]) == 1, "with --force it starts, and the open gaps fail the run"
    assert "check" not in capsys.readouterr().err


def test_a_file_that_passes_lab_16_2_chats(provider, tmp_path, capsys):
    mine = tmp_path / "mine" / "harness.py"
    mine.parent.mkdir()
    mine.write_bytes((KIT / "solutions" / "16-stream" / "lab2" / "harness.py").read_bytes())
    provider.answer(say("Hello."))
    work = tmp_path / "work"
    work.mkdir()
    assert main(["chat", "--harness", str(mine), "--base-url", provider.url, "--model", "tiny",
                 "--workdir", str(work), "-p", "hi"]) == 0
    assert capsys.readouterr().out.strip() == "Hello."


def test_ctrl_c_at_the_prompt_ends_the_session_with_130_and_a_line(provider, tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "lab.desk.course", *chat_args(provider.url, tmp_path)],
        cwd=KIT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    read_until(process.stdout, "> ")
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=DEADLINE)
    assert process.returncode == 130, err
    assert "stopped at the prompt (Ctrl-C)" in err
