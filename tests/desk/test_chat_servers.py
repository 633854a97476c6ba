"""`course chat` against a loopback server speaking each recorded server's shapes
(lab.world.servers): Ollama's calls at one index and with none, a proxy's arguments as an
object, llama.cpp's error line, a content-filter finish after words, a 429 with Retry-After and
a quota 429, OpenAI's own shapes; and what a user expects of a client around them: the words
before a failure shown, an HTML page as one line, readable progress, a fault in the harness file
shown as its own traceback with the session going on. No test sleeps: the countdown's sleep is
the test's."""

import io
import json

import pytest

from lab.desk import chat
from lab.desk.course import main
from lab.world.provider import stream_lines
from lab.world.replies import call, fail, reply, say
from lab.world.servers import QUOTA, RATE_LIMIT
from tests.desk.chat_server import KIT, Provider, chat_args, log_of


@pytest.fixture
def provider():
    server = Provider()
    yield server
    server.close()


@pytest.fixture
def slept(monkeypatch):
    """The seconds the countdown slept, one entry a second, and no real wait."""
    seconds = []
    monkeypatch.setattr(chat, "SLEEP", seconds.append)
    return seconds


def refuse(provider, status, body, *, headers=(), kind="application/json"):
    """A status before any line, with `headers` beside the content type."""
    def send(handler):
        handler.send_response(status)
        handler.send_header("Content-Type", kind)
        for name, value in headers:
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(body.encode())
    provider.script.append(send)


def two_reads():
    return reply("Reading both.", call("read", {"path": "a.txt"}, id="call_o1"),
                 call("read", {"path": "b.txt"}, id="call_o2"))


@pytest.mark.parametrize("server", ["ollama", "ollama-0.4", "object-arguments", "openai",
                                    "vllm", "llamacpp"])
def test_two_calls_in_one_reply_both_run_on_every_recorded_server(server, provider, tmp_path,
                                                                  capsys):
    (tmp_path / "a.txt").write_text("alpha\n")
    (tmp_path / "b.txt").write_text("beta\n")
    provider.stream(stream_lines(two_reads(), real=server))
    provider.stream(stream_lines(say("a is alpha, b is beta."), real=server))
    code = main(chat_args(provider.url, tmp_path, "-p", "Read both"))
    out, err = capsys.readouterr()
    assert code == 0, f"{server}: course chat failed where both calls should run:\n{err}"
    assert out.strip() == "a is alpha, b is beta."
    results = [m for m in provider.requests[1]["body"]["messages"] if m["role"] == "tool"]
    assert [(r["tool_call_id"], r["content"].strip()) for r in results] == [
        ("call_o1", "alpha"), ("call_o2", "beta")], f"{server}: each call's own result"


def test_llamacpps_error_line_is_shown_with_the_words_before_it(provider, tmp_path, capsys):
    lines = stream_lines(fail("the request exceeds the available context size"),
                         real="llamacpp")
    words = stream_lines(say("Half an"), real="llamacpp", piece=100)[1:2]
    provider.stream(lines[:1] + words + lines[1:])
    assert main(chat_args(provider.url, tmp_path, "-p", "hi")) == 1
    out, err = capsys.readouterr()
    assert out.strip() == "Half an"
    assert "exceeds the available context size" in err and "arrived before it" in err
    assert "ended before the reply was finished" not in err


def test_a_content_filter_finish_after_words_shows_them_with_the_failure(provider, tmp_path,
                                                                         capsys):
    provider.stream(stream_lines(say("The answer is"), real="openai", finish="content_filter"))
    assert main(chat_args(provider.url, tmp_path, "-p", "hi")) == 1
    out, err = capsys.readouterr()
    assert out.strip() == "The answer is"
    assert "content filter stopped the reply" in err


def test_a_429_with_retry_after_is_counted_down_and_sent_once_more(provider, tmp_path, capsys,
                                                                   slept):
    refuse(provider, 429, json.dumps(RATE_LIMIT), headers=[("Retry-After", "3")])
    provider.stream(stream_lines(say("Here now."), real="openai"))
    assert main(chat_args(provider.url, tmp_path, "-p", "hi")) == 0
    out, err = capsys.readouterr()
    assert out.strip() == "Here now." and slept == [1, 1, 1] and len(provider.requests) == 2
    assert "Retry-After: 3 s" in err and "sending again in 3 s" in err


def test_a_long_retry_after_is_capped_and_a_second_429_is_the_failure(provider, tmp_path,
                                                                      capsys, slept):
    for _ in range(2):
        refuse(provider, 429, json.dumps(RATE_LIMIT), headers=[("Retry-After", "600")])
    assert main(chat_args(provider.url, tmp_path, "-p", "hi")) == 1
    err = capsys.readouterr().err
    assert len(slept) == 60 and len(provider.requests) == 2
    assert "Provider rate limit, so send again in 600 s" in err and "rate_limit_exceeded" in err


def test_ctrl_c_during_the_countdown_gives_up_and_the_log_stays_valid(provider, tmp_path,
                                                                      capsys, monkeypatch):
    def interrupted(seconds):
        raise KeyboardInterrupt
    monkeypatch.setattr(chat, "SLEEP", interrupted)
    refuse(provider, 429, json.dumps(RATE_LIMIT), headers=[("Retry-After", "20")])
    provider.stream(stream_lines(say("Later, then."), real="openai"))
    monkeypatch.setattr("sys.stdin", io.StringIO("hi\nagain\n"))
    assert main(chat_args(provider.url, tmp_path)) == 0
    out, err = capsys.readouterr()
    assert "gave up waiting" in err and "send again in 20 s" in err
    assert "Later, then." in out and len(provider.requests) == 2
    roles = [entry["message"]["role"] for entry in log_of(tmp_path)]
    assert roles == ["user", "assistant", "user", "assistant"]


def test_a_quota_429_is_not_sent_again_and_says_waiting_will_not_help(provider, tmp_path,
                                                                      capsys, slept):
    refuse(provider, 429, json.dumps(QUOTA), headers=[("Retry-After", "5")])
    assert main(chat_args(provider.url, tmp_path, "-p", "hi")) == 1
    err = capsys.readouterr().err
    assert slept == [] and len(provider.requests) == 1
    assert "quota spent, so waiting will not help" in err and "insufficient_quota" in err
    assert "safe" not in err


def test_an_html_error_page_becomes_one_line_with_its_status(provider, tmp_path, capsys):
    page = ("<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body>\n"
            "<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body>"
            "</html>\n")
    refuse(provider, 502, page, kind="text/html")
    assert main(chat_args(provider.url, tmp_path, "-p", "hi")) == 1
    err = capsys.readouterr().err
    failure = [line for line in err.splitlines() if "answered 502" in line]
    assert len(failure) == 1 and "502 Bad Gateway (an HTML page)" in failure[0]
    assert "<" not in failure[0]


def test_a_long_error_body_keeps_its_code(provider, tmp_path, capsys):
    body = {"error": {"message": "x" * 900, "type": "invalid_request_error",
                      "code": "context_length_exceeded"}}
    refuse(provider, 400, json.dumps(body))
    assert main(chat_args(provider.url, tmp_path, "-p", "hi")) == 1
    assert "context_length_exceeded" in capsys.readouterr().err


def test_the_progress_line_shows_readable_text(provider, tmp_path, capsys):
    (tmp_path / "caf\u00e9.md").write_text("menu\n")
    provider.stream(stream_lines(reply(call("read", {"path": "caf\u00e9.md"})), real="ollama"))
    provider.stream(stream_lines(say("A menu."), real="ollama"))
    assert main(chat_args(provider.url, tmp_path, "-p", "hi")) == 0
    err = capsys.readouterr().err
    assert '[read {"path": "caf\u00e9.md"}]' in err and "\\u00e9" not in err


def harness_that_raises(tmp_path):
    """The kit's finished 16.2 file, with a decode_line that raises on a line saying BOOM."""
    text = (KIT / "solutions" / "16-stream" / "lab2" / "harness.py").read_text()
    marker = "def decode_line(line):\n"
    head, tail = text.split(marker)
    body = tail.split('"""', 2)
    tail = '"""'.join(body[:2]) + '"""\n    if "BOOM" in line:\n        raise TypeError(' \
        '"a line I did not expect")' + body[2]
    path = tmp_path / "mine.py"
    path.write_text(head + marker + tail)
    return path


def test_a_fault_in_the_harness_file_is_its_traceback_and_the_session_goes_on(
        provider, tmp_path, capsys, monkeypatch):
    workdir = tmp_path / "work"
    workdir.mkdir()
    mine = harness_that_raises(tmp_path)
    provider.stream(["data: BOOM"])
    provider.stream(stream_lines(say("Fine now."), real="openai"))
    monkeypatch.setattr("sys.stdin", io.StringIO("first\nsecond\n"))
    code = main(["chat", "--harness", str(mine), "--base-url", provider.url, "--model", "tiny",
                 "--workdir", str(workdir), "--force"])
    out, err = capsys.readouterr()
    assert code == 0 and "Fine now." in out
    assert "mine.py raised TypeError: a line I did not expect" in err
    assert f'File "{mine}"' in err and "asyncio" not in err.split("raised TypeError")[1]
    roles = [entry["message"]["role"] for entry in log_of(workdir)]
    assert roles == ["user", "assistant", "user", "assistant"], roles
    sent = [m["role"] for m in provider.requests[1]["body"]["messages"]]
    assert sent == ["system", "user", "assistant", "user"], (
        f"the request after the fault should let roles take turns; it sent {sent}")
