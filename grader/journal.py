"""The batch's journal: one JSON line per graded submission, appended as soon as it is graded;
and the scores of the last two finished runs, so that a rerun says what changed.

It is what makes a batch safe to interrupt: each line is written, flushed and synced before the
next submission is reported done, so a crash (of the grader, or of the machine) loses at most
the line being written, and a half-written last line is skipped when the journal is read.
Reading keeps the last line of each student, so a re-graded submission replaces its old row.
A line is {"key": ..., "result": the row as grader/row.py's Row.to_dict writes it}; a line
Row.from_dict cannot read back (cut short, or from another version) counts as not graded.
"""
from __future__ import annotations

import errno
import json
import os
from pathlib import Path

from grader.row import Row

JOURNAL = "journal.jsonl"  # its name in a grading run's output folder


class Journal:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.full: str | None = None  # the system's words (strerror), once the disk was full
        self.unkept = 0  # rows not kept since

    def load(self) -> dict[str, tuple[str, Row]]:
        """{student: (key, row)} from every line that reads back whole, the last one per
        student."""
        found: dict[str, tuple[str, Row]] = {}
        if not self.path.is_file():
            return found
        with self.path.open("rb") as handle:
            for line in handle:
                try:
                    entry = json.loads(line)
                    row = Row.from_dict(entry["result"])
                    found[row.student] = (entry["key"], row)
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut short by a crash: that submission is graded again
        return found

    def append(self, key: str, row: Row) -> bool:
        """Keep `row` under `key`; whether it was kept. A disk that is full (or a quota met)
        does not stop the batch: the line half written is taken back, so the journal still
        reads whole, `full` says why, and the row is graded again by the next run; every
        other error is the grader's own and raises."""
        line = json.dumps({"key": key, "result": row.to_dict()}, ensure_ascii=False) + "\n"
        # A lone surrogate (a name or message that was not UTF-8) goes in as its JSON escape,
        # \\udcff, which reads back as the same string: no row can stop the journal.
        data = line.encode("utf-8", "backslashreplace")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                start = os.lseek(fd, 0, os.SEEK_END)
                # A line cut by an earlier crash would swallow this one: start on a line of
                # its own.
                if start and not _ends_with_newline(self.path):
                    data = b"\n" + data
                try:
                    while data:
                        data = data[os.write(fd, data):]
                    os.fsync(fd)
                except OSError:
                    os.ftruncate(fd, start)
                    raise
            finally:
                os.close(fd)
        except OSError as exc:
            if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
                raise
            self.full = self.full or exc.strerror or errno.errorcode[exc.errno]
            self.unkept += 1
            return False
        return True


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


class LastRun:
    """The scores of a batch's last two finished runs, kept beside its journal (last_run.json),
    so that a rerun can say what changed since the run before: the journal keeps the latest row
    of each student, not which run wrote it. grader/report.py keeps each finished run's scores
    here as it writes the run's files, and its summary reads what changed."""

    NAME = "last_run.json"

    def __init__(self, out: Path):
        self.path = Path(out) / self.NAME

    def _read(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def keep(self, rows: list[Row]) -> None:
        """Keep `rows`' scores as the last run's, and the ones they replace as the run before."""
        now = {r.student: [r.score, r.max, str(r.verdict), r.digest] for r in rows}
        data = {"before": self._read().get("now"), "now": now}
        self.path.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False)
                             + "\n", encoding="utf-8", errors="backslashreplace")

    def changes(self, rows: list[Row]) -> list[str] | None:
        """What changed for each student from the run before to `rows`: "frank 40 -> 45",
        with the verdicts when they changed too, and "(file changed)" when the file graded is
        not the one graded then (a file resubmitted into a folder is graded under the seed it
        was graded under before, which its feedback told, so the instructor is told it is a
        new file, not a new grading of the old one); then who is new and who is gone; [] when
        nothing changed, None when there was no run before to compare with."""
        before = self._read().get("before")
        if not isinstance(before, dict):
            return None
        said, now = [], {r.student: r for r in rows}
        for r in rows:
            if r.student not in before:
                continue
            try:
                score, _, verdict, *digest = before[r.student]
                score = float(score)
            except (TypeError, ValueError):
                continue
            # A run before digests were kept, or a row without one (not graded), says nothing.
            changed = bool(digest and digest[0] and r.digest and digest[0] != r.digest)
            if score == r.score and verdict == r.verdict:
                if changed:
                    said.append(f"{r.student} {score:g} (file changed)")
                continue
            said.append(f"{r.student} {score:g} -> {r.score:g}" +
                        (f" ({verdict} -> {r.verdict})" if verdict != r.verdict else "") +
                        (" (file changed)" if changed else ""))
        new = [r.student for r in rows if r.student not in before]
        gone = sorted(set(before) - set(now))
        if new:
            said.append("new: " + ", ".join(new))
        if gone:
            said.append("no longer submitted: " + ", ".join(gone))
        return said
