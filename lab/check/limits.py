"""How much one check of a harness.py may take: the limits policy every guard of the runner
(lab/check/runner.py), the child (lab/check/child.py) and the practice check's spin guard
(lab/check/spin.py) reads. The channel's own bounds are lab/check/channel.py's."""
from __future__ import annotations

from dataclasses import dataclass

from lab.check.channel import LONGEST_REPORT


@dataclass
class Limits:
    """How much one run may take. Every guard is there against a file that hangs; no correct
    test comes near one."""
    seconds_per_test: float = 5.0
    # Once one test of a file has hung, the file has shown it can, so each later test gets
    # this much instead. A test of the fake world needs milliseconds, so this costs a working
    # test nothing.
    seconds_after_a_hang: float = 1.0
    # Processor seconds a test may use without one turn of the event loop. The reference
    # solutions use at most a few milliseconds between two turns (bench/checker.py measures
    # it), so this is about a hundred times that, in a measure a loaded machine cannot inflate.
    cpu_without_a_turn: float = 0.5
    cpu_after_a_hang: float = 0.15  # as seconds_after_a_hang, for the spin guard
    # The practice check's spin guard (lab/check/spin.py), which has no process to watch from
    # outside: rounds of harness.py's loops a test may go without one turn of the event loop. A
    # count, so no machine's speed changes it. The reference solutions go at most about 95 000
    # in Pyodide's count and 190 000 in Python 3.11's (lab 9.1; bench/site_check.py counts
    # them), and every test must pass under the allowance a file gets once it has spun, or a
    # passing test would be stopped in the page and not by lab_check.py:
    # tests/check/test_practice.py runs every test of the kit under it.
    rounds_without_a_turn: int = 500_000
    rounds_after_a_hang: int = 250_000
    heartbeat: float = 0.02  # seconds between the child's reports of its turns and CPU time
    # A file that hangs at the same place (one function of harness.py) in this many tests in a
    # row will hang there in the rest (lab/check/hangs.py). The student's check then stops and
    # says where; the grader, which owes every test a verdict, goes on under these allowances.
    hangs_in_a_row: int = 3
    stop_at_hangs_in_a_row: bool = True
    cpu_after_hangs_in_a_row: float = 0.1
    seconds_after_hangs_in_a_row: float = 0.5
    seconds_to_import: float = 10.0
    seconds_total: float = 300.0
    budget_turns: int | None = None  # None: the child's own default, turns.BUDGET
    output_bytes: int = 64_000  # of the student's prints kept for the report; the rest is counted
    # Reports a child may send between two of a test's boundaries (importing, a test's start
    # and end). A test of the course sends at most a few kilobytes (its found values); this is
    # twice the longest line the channel takes, so it is only ever met by a flood.
    report_bytes_per_test: int = 2 * LONGEST_REPORT
