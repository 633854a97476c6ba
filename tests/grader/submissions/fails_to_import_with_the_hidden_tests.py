# Issue 25's attack through the import error, by a student who gives up one submission's marks
# to read the hidden tests: while harness.py imports, the checker's job (which test files run,
# then each one's code) is already arriving in this process's queue. If a file of it is hidden,
# the import fails with that file's code as its error, which a report shows whole. Where no
# hidden file comes, it imports as the reference.
import gc as _gc
import json as _json
import queue as _queue
import time as _time


def _hidden_code_in_the_job():
    """The code of each hidden file in the job this process is given, once the job's lines
    have all come ("" when none is hidden)."""
    deadline = _time.monotonic() + 5
    while _time.monotonic() < deadline:
        for job in [o for o in _gc.get_objects() if isinstance(o, _queue.Queue)]:
            with job.mutex:
                lines = [_json.loads(line) for line in job.queue]
            runs = [n for n, line in enumerate(lines) if "files" in line]
            if not runs:
                continue
            files = lines[runs[0]]["files"]
            sources = [line["source"] for line in lines[runs[0] + 1:] if "source" in line]
            if len(sources) >= len(files):
                return "\n".join(code for file, code in zip(files, sources)
                                 if file["lab_id"] is None)
        _time.sleep(0.01)
    return ""


_code = _hidden_code_in_the_job()
if _code:
    raise ImportError(_code)
