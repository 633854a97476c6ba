"""A loopback server that speaks streamed Chat Completions, scripted per test, and how `course
chat` is called against it: tests/desk/test_chat.py and test_chat_servers.py share them."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from lab.desk import chat
from lab.world.provider import stream_lines

KIT = Path(__file__).resolve().parents[2]
DEADLINE = 60  # seconds: only a hung test ever reaches it


class Provider:
    """A loopback Chat Completions server. `script` is a list of replies, one per request, each
    a function(handler) that writes the whole response; `requests` holds the bodies and headers
    that came in. `sent` is set once a streamed reply has written its lines."""

    def __init__(self):
        self.script, self.requests = [], []
        self.sent, self.release = threading.Event(), threading.Event()
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                size = int(self.headers.get("Content-Length", 0))
                provider.requests.append({"path": self.path, "headers": dict(self.headers),
                                          "body": json.loads(self.rfile.read(size))})
                provider.script.pop(0)(self)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stream(self, lines, *, hang=False):
        """A 200 event stream of `lines`; with hang, the connection then stays open, silent,
        until the test lets it go."""
        def send(handler):
            handler.send_response(200)
            handler.send_header("Content-Type", "text/event-stream")
            handler.end_headers()
            for line in lines:
                handler.wfile.write((line + "\n\n").encode())
                handler.wfile.flush()
            self.sent.set()
            if hang:
                self.release.wait(DEADLINE)
        self.script.append(send)

    def answer(self, message, **kwargs):
        """`message` streamed in 3-character fragments, with keep-alives between lines."""
        lines = []
        for line in stream_lines(message):
            lines += [": keep-alive", line]
        self.stream(lines, **kwargs)

    def status(self, code, text, kind="application/json"):
        def send(handler):
            handler.send_response(code)
            handler.send_header("Content-Type", kind)
            handler.end_headers()
            handler.wfile.write(text.encode())
        self.script.append(send)

    def close(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def chat_args(provider_url, workdir, *extra):
    return ["chat", "--harness", "solution", "--base-url", provider_url, "--model", "tiny",
            "--workdir", str(workdir), *extra]


def log_of(workdir):
    """The session log's entries; every line must be whole JSON for this to return."""
    text = (workdir / chat.SESSION).read_text()
    return [json.loads(line) for line in text.splitlines()]
