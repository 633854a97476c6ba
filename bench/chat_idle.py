"""What `course chat` costs while a reply trickles in: the CPU time of the process (time.process_time)
over the wall time of one streamed reply that a loopback server spreads over about 2 seconds,
read by the kit's solution harness (lesson 16's StreamingModel, whose poll loop gives the event
loop a turn with asyncio.sleep(0) each time nothing is ready). The target is under 10 % of one
core. The server runs in this process, so its own small share is counted too.

    .venv/bin/python -m bench.chat_idle
"""

import asyncio
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from lab.desk import chat
from lab.world.provider import stream_lines
from lab.world.replies import say

SECONDS, LINES = 2.0, 40


def serve():
    lines = stream_lines(say("x" * 3 * (LINES - 2)))  # LINES lines, ending with [DONE]

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for line in lines:
                time.sleep(SECONDS / len(lines))  # the trickle: a benchmark, not a test
                self.wfile.write((line + "\n\n").encode())
                self.wfile.flush()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    server = serve()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    with tempfile.TemporaryDirectory() as workdir:
        session = chat.Chat(chat.load_harness("solution"), workdir=workdir, base_url=url,
                            model="bench", approve_all=True, api_key=None)
        wall, cpu = time.perf_counter(), time.process_time()
        ok = asyncio.run(session.run("trickle"))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        session.close()
    server.shutdown()
    print(f"reply read: {ok}, wall {wall:.2f} s, cpu {cpu:.3f} s, "
          f"{100 * cpu / wall:.1f} % of one core", file=sys.stderr)


if __name__ == "__main__":
    main()
