"""A Chat Completions server on loopback that serves a FakeProvider's script as a real server
would: tests/desk/test_conformance_provider.py and test_conformance_servers.py run the real
client against it."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from lab.world.provider import HANG, refuse

from tests.desk.conformance import DEADLINE

REFUSAL = type(refuse(""))


class Loopback:
    """A Chat Completions server on 127.0.0.1 answering request n with script entry n, written
    a line and a "\\n" at a time; the body ends when the handler returns and the connection
    closes. `bodies` holds the JSON each request sent. A pause waits for `gate`, which the test
    sets to let the next line go; at HANG the handler waits for the client to hang up, and
    sets `hung_up` when it does."""

    def __init__(self, script):
        self.script, self.bodies = list(script), []
        self.gate, self.hung_up, self.ending = (threading.Event(), threading.Event(),
                                                threading.Event())
        loopback = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                size = int(self.headers.get("Content-Length", 0))
                loopback.bodies.append(json.loads(self.rfile.read(size)))
                try:
                    loopback.answer(self, loopback.script.pop(0))
                except OSError:  # the client hung up mid-stream: what close() is for
                    pass

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def answer(self, handler, entry):
        if isinstance(entry, REFUSAL):
            handler.send_response(entry.status or 503)
            json_body = entry.text.startswith("{")
            handler.send_header("Content-Type", "application/json" if json_body else "text/plain")
            if entry.retry_after is not None:
                handler.send_header("Retry-After", str(entry.retry_after))
            handler.end_headers()
            handler.wfile.write(entry.text.encode())
            return
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        for item in entry:
            if item is HANG:
                handler.connection.settimeout(DEADLINE)
                if handler.connection.recv(1) == b"":
                    self.hung_up.set()
                return
            if isinstance(item, str):
                handler.wfile.write((item + "\n").encode())
                handler.wfile.flush()
            else:  # a pause: the next line waits for the test
                self.gate.wait(DEADLINE)
                self.gate.clear()

    def close(self):
        self.gate.set()
        self.server.shutdown()
        self.server.server_close()
