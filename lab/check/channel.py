"""The report channel from the process that runs harness.py, as the checker reads it: each line
opened by the run's secret and holding one report (lab/check/protocol.py), anything else a
Forged(); each report stamped with when it was read and its size, and queued in a queue bounded
in bytes, so that a child that writes faster than the runner judges waits in its own write;
and what harness.py prints, kept up to a cap and counted past it. lab/check/process.py starts
the child and wires its pipes to these."""
from __future__ import annotations

import os
import queue
import threading
from dataclasses import dataclass

from lab.check import protocol

LONGEST_REPORT = 1 << 24  # bytes; a longer line on the channel was not written by the child
QUEUE_BYTES = 1 << 20  # of reports read and not yet judged (and one report more)


@dataclass(frozen=True)
class Received:
    """One report off the channel: a protocol report, Forged() or Closed(); when it was read
    (time.monotonic(); None where no clock applies: the practice check's reports are all made
    before the first is read); and its size in bytes."""
    report: object
    at: float | None
    size: int


@dataclass(frozen=True)
class Forged:
    """The channel carried a line the child's code does not write: no secret, or no report."""


@dataclass(frozen=True)
class Closed:
    """The channel closed: the child ended, or closed it."""


class _Reports(queue.Queue):
    """A queue of Received that holds at most `maxsize` bytes of reports, and one report more
    (so a single long one still passes): queue.Queue measures its fill by _qsize, which here
    counts bytes rather than items. Every Received is at least a byte."""

    def _init(self, maxsize):
        super()._init(maxsize)
        self.bytes = 0

    def _qsize(self):
        return self.bytes

    def _put(self, item):
        super()._put(item)
        self.bytes += item.size

    def _get(self):
        item = super()._get()
        self.bytes -= item.size
        return item


def _report(line: bytes, prefix: bytes):
    """A line from the channel as a report: only if it opens with the run's secret and holds
    one of the protocol's reports; otherwise Forged()."""
    if line.startswith(prefix):
        try:
            return protocol.decode(line[len(prefix):])
        except protocol.Malformed:
            pass
    return Forged()


def _read(pipe) -> bytes:
    try:
        return os.read(pipe.fileno(), 1 << 16)
    except (OSError, ValueError):
        return b""


def _thread(target, *args) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread


class Output:
    """The student's prints: the first `cap` bytes kept, the rest only counted."""

    def __init__(self, cap):
        self.cap, self.kept, self.dropped = cap, bytearray(), 0
        self.lock = threading.Lock()

    def add(self, data: bytes):
        with self.lock:
            room = max(self.cap - len(self.kept), 0)
            self.kept += data[:room]
            self.dropped += max(len(data) - room, 0)

    def absorb(self, other: "Output"):
        """Add what another child printed, after what is here."""
        with other.lock:
            kept, dropped = bytes(other.kept), other.dropped
        self.add(kept)
        with self.lock:
            self.dropped += dropped

    def text(self):
        """What was kept, with Windows's line ends read as everyone else's."""
        return self.kept.decode("utf-8", errors="replace").replace("\r\n", "\n")
