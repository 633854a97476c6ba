"""The practice check's stand-in for a child (the browser's page, where no process can be started):
the same reports a child sends, made in the checker's own process, with what harness.py prints
kept as a child's pipe would keep it. lab/check/process.py's Child is the real one."""
from __future__ import annotations

import contextlib
from pathlib import Path

from lab.check import hangs, job, protocol, seeds, suite
from lab.check.channel import Closed, Output, Received
from lab.check.limits import Limits


class InProcess:
    """A child's stand-in for the practice check: the same reports, made in this process.
    The tests run when the first report is asked for, once the plan has sent the whole job;
    what harness.py prints meanwhile is kept as a child's would be. A test that spins is
    stopped by lab/check/spin.py's guard and ends as a child's would after its spin guard."""

    def __init__(self, harness: Path, limits: Limits, seed: int = seeds.PUBLIC):
        self.harness, self.limits, self.seed = str(harness), limits, seed
        self.job: list[job.Message] = []
        self.reports: list | None = None
        self.output = Output(limits.output_bytes)

    def send(self, message: job.Message) -> None:
        self.job.append(message)

    def next(self, timeout: float) -> Received:
        if self.reports is None:
            self.reports = self._run()
        return self.reports.pop(0) if self.reports else Received(Closed(), None, 1)

    def exit_code(self, wait: float) -> int | None:
        return 0

    def stop(self) -> None:
        pass

    def _run(self) -> list:
        from lab.check import child, spin, turns  # the world's asyncio, only for this path
        reports: list = []

        limits = self.limits
        streak = hangs.Streak(limits.hangs_in_a_row)  # as the runner counts them

        def emit(report):  # through the codec, as a child's report travels
            line = protocol.encode(report)
            reports.append(Received(protocol.decode(line), None, len(line.encode()) + 1))
            if isinstance(report, protocol.Ended):
                streak.add(report.place)

        def each() -> bool:  # the runner stops reading at a repeated hang: so do the tests
            guard.next_test()
            return not (limits.stop_at_hangs_in_a_row and streak.repeated)
        run, sources = self.job[0], [m.source for m in self.job[1:] if isinstance(m, job.Source)]
        if not isinstance(run, job.Run):
            raise TypeError(f"a job starts with a Run, not {run!r}")
        files = [suite.TestFile(f.lab_id, Path(f.path), "") for f in run.files]
        printed = _Printed(self.output)
        guard = spin.Guard(self.harness, limits)  # in place of the child's, watched from out
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed), guard:
            if child.import_reported(self.harness, emit):
                child.run_tests(files, sources, emit, start=run.start,
                                budget=self.limits.budget_turns or turns.BUDGET,
                                harness_path=self.harness, seed=self.seed, each=each)
                emit(protocol.Done())
        return reports


class _Printed:
    """A text stream that keeps what it is given in an Output, as a child's pipe would."""

    def __init__(self, output: "Output"):
        self.output = output

    def write(self, text: str) -> int:
        self.output.add(text.encode("utf-8", "replace"))
        return len(text)

    def flush(self) -> None:
        pass
