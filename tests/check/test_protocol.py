"""lab.check.protocol: every report travels and comes back as itself, and nothing else decodes."""
import json
import typing

import pytest

from lab.check import protocol
from lab.check.protocol import (Beat, Done, Ended, Imported, ImportFailed, Importing, Malformed,
                                Observed, Started)

EVERY_REPORT = [
    Importing(), Imported(), ImportFailed("harness.py raised NameError('x')"),
    Started("lesson_15_lab1::test_stop"), Observed('["a", "b"]', "the calls"),
    Observed('["b", "a"]', "which files", "same_items"), Ended("lesson_15_lab1::test_stop"),
    Ended("lesson_15_lab1::test_stop", "out of turns", "turns"),
    Ended("x::test_y", "run_tool raised KeyError", "exception", "Traceback ..."),
    Ended("x::test_y", "Timed out: ...", "spun", None, "Harness._run.<locals>.<lambda>", 512, True),
    Beat(12, 0.25), Beat(0, 3), Beat(4, 0.5, "run_tool", 94, False), Done(),
]


@pytest.mark.parametrize("report", EVERY_REPORT, ids=repr)
def test_each_report_comes_back_from_its_line_as_itself(report):
    line = protocol.encode(report)
    assert "\n" not in line
    assert protocol.decode(line) == report and type(protocol.decode(line)) is type(report)


def test_every_kind_of_report_is_named_once_on_the_wire():
    kinds = typing.get_args(protocol.Report)
    assert {kind.event for kind in kinds} == set(protocol.KINDS)
    assert len(protocol.KINDS) == len(kinds)
    assert {type(r) for r in EVERY_REPORT} == set(kinds)


@pytest.mark.parametrize("line", [
    "not json", "[]", "null", '{"id": "x"}', '{"event": "hello"}',
    '{"event": "start"}',  # a field missing
    '{"event": "start", "id": 7}',  # of the wrong type
    '{"event": "start", "id": "x", "secret": "y"}',  # one field too many
    '{"event": "beat", "turns": true, "cpu": 0.1}',  # a bool is no count
    '{"event": "beat", "turns": 1, "cpu": "0.1"}',
    '{"event": "check", "value": "1", "why": "w", "check": 3}',  # a kind is a name
    '{"event": "check", "value": "1", "why": "w", "params": {"pattern": "x"}}',  # params: JSON
    '{"event": "end", "id": "x", "error": null, "stop": "bored"}',  # no such stop
    '{"event": "done", "event2": 1}',
    '{"event": "beat", "turns": 1, "cpu": 0.1, "line": true}',  # a bool is no line
    '{"event": "beat", "turns": 1, "cpu": 0.1, "async_code": 1}',  # nor a count a bool
])
def test_a_line_that_is_no_report_is_malformed(line):
    with pytest.raises(Malformed):
        protocol.decode(line)


def test_a_report_is_frozen_so_no_one_can_change_what_was_reported():
    report = Observed("1", "w")
    with pytest.raises(AttributeError):
        report.value = "2"


def test_an_observation_is_an_equal_check_unless_it_says_otherwise():
    decoded = protocol.decode(json.dumps({"event": "check", "value": "1", "why": "w"}))
    assert decoded == Observed("1", "w", "equal")


def test_a_place_travels_with_a_beat_and_with_a_test_the_practice_guard_stopped():
    """The runner names where a test hung from these (lab/check/hangs.py); an end that no guard
    caused carries none, so it cannot count as a hang."""
    assert Beat(1, 0.1, "run_tool", 94, True).place == protocol.Place("run_tool", 94, True)
    assert Ended("x", "...", "spun", None, "run_tool", 94).place == \
        protocol.Place("run_tool", 94, False)
    assert Ended("x", "...", "turns", None, "run_tool", 94).place is None
