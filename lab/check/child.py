"""The process that runs a student's harness.py against the tests, and reports what it saw.

It is started by lab/check/runner.py with one job on standard input: the harness's path, the test
files' code (with every wanted value taken out, see lab/check/suite.py) and which test to begin at.
It writes one JSON line per happening to a pipe of its own (the file descriptor named in
argv): a test starting, each value a check found, a test ending. It decides no verdict; it
only reports. The student's prints go to standard output, which the runner caps and never
reads for a verdict.

`run_tests` is shared with the trusted, in-process run that checks the reference solutions.
"""
from __future__ import annotations

import json
import os
import sys
import traceback

from lab.check import manifest, suite, turns
from lab.check.importer import import_harness
from lab.check.kit import CheckFailed, Checks
from lab.check.observe import encode


def run_tests(files, sources, emit, *, start=0, budget=turns.BUDGET, harness_path=""):
    """Run every test of `files` (with `sources[i]` as file i's code) from the start-th on,
    calling emit(dict) for each happening. Each test gets a fresh counting event loop."""
    index = 0
    for test_file, source in zip(files, sources):
        try:
            tests = suite.load(test_file, source)
            load_error = None
        except BaseException as exc:  # a test file that cannot even load fails each of its tests
            tests, load_error = [], explain(exc, harness_path, loading=test_file.stem)
        if load_error:
            for test_id, _ in suite.describe_source(source, test_file.stem):
                if index >= start:
                    emit({"event": "start", "id": test_id})
                    emit({"event": "end", "id": test_id, "error": load_error, "kind": "load"})
                index += 1
            continue
        for test in tests:
            if index >= start:
                test_id = suite.test_id(test_file, test)
                emit({"event": "start", "id": test_id})
                checks = Checks(lambda found, why: emit(
                    {"event": "check", "value": encode(found), "why": why}))
                error, kind, trace = None, None, None
                try:
                    turns.run(test.fn(checks), budget)
                except turns.OutOfTurns as exc:
                    error, kind = (f"This test never finished: {exc}. Something waits without "
                                   "end: a tool that never looks at its signal, or a loop with "
                                   "no way out?"), "turns"
                except CheckFailed as exc:
                    error, kind = str(exc), "check"
                except BaseException as exc:  # PowerCut and SystemExit included: a report, not an exit
                    error, kind = explain(exc, harness_path), "exception"
                    trace = "".join(traceback.format_exception(exc))
                emit({"event": "end", "id": test_id, "error": error, "kind": kind,
                      "trace": trace if kind == "exception" else None})
            index += 1


def explain(exc: BaseException, harness_path: str, loading: str | None = None) -> str:
    """An exception that escaped a test, in the course's terms: a missing name says which lab
    adds it; anything raised inside harness.py says which function raised what."""
    if isinstance(exc, AttributeError) and getattr(exc, "name", None):
        owner = getattr(exc, "obj", None)
        name = exc.name if getattr(owner, "__name__", None) == "harness" else \
            f"{type(owner).__name__}.{exc.name}" if owner is not None else exc.name
        if owner is not None and (getattr(owner, "__name__", None) == "harness" or
                                  type(owner).__module__ == "harness"):
            lab = (manifest.introduced_by(name) or manifest.introduced_by(exc.name) or
                   manifest.introduced_by(name.split(".")[0]))
            where = f" ({lab.name})" if lab else ""
            return f"harness.py has no {name} yet{where}."
    if isinstance(exc, SystemExit):
        return (f"harness.py called sys.exit({exc.code!r}). A harness is a library: it hands "
                "results back and leaves ending the program to its caller.")
    frames = traceback.extract_tb(exc.__traceback__)
    target = os.path.realpath(harness_path) if harness_path else None
    mine = [f for f in frames if target and os.path.realpath(f.filename) == target]
    what = f"{type(exc).__name__}({str(exc)!r})" if str(exc) else type(exc).__name__
    if mine:
        frame = mine[-1]
        return f"{frame.name} raised {what} (harness.py, line {frame.lineno})."
    if loading:
        return f"The tests of {loading} could not be loaded: {what}."
    if type(exc).__module__.startswith("lab"):
        return f"{type(exc).__name__}: {exc}"
    return f"The test could not go on: {what}."


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    channel = int(argv[0])

    def emit(message):
        os.write(channel, (json.dumps(message) + "\n").encode())

    job = json.loads(sys.stdin.read())
    files = [suite.TestFile(f["lab_id"], manifest.Path(f["path"]), "") for f in job["files"]]
    sources = [f["source"] for f in job["files"]]
    emit({"event": "import"})
    try:
        import_harness(job["harness"])
    except BaseException as exc:
        emit({"event": "import_failed", "message": explain(exc, job["harness"]) +
              "\n" + "".join(traceback.format_exception_only(type(exc), exc)).strip()})
        return 0
    emit({"event": "imported"})
    run_tests(files, sources, emit, start=job["start"], budget=job["budget"],
              harness_path=job["harness"])
    emit({"event": "done"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
