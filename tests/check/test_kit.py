"""lab.check.kit: what a test's `t` does with and without a wanted value, and the colour-blind
helpers raised(), settle() and tool()."""
import asyncio
import inspect
import sys
import types

import pytest

import lab
from lab.check import kit
from lab.check.kit import CheckFailed, Checks


def checks():
    """A `t` whose observations land in a list, as the child sends them out."""
    observed = []
    return Checks(lambda found, why, kind, params: observed.append((found, why))), observed


def test_a_trusted_check_that_finds_what_it_wants_passes_and_is_recorded():
    t, observed = checks()
    t.expect(("read", {"b": 1, "a": 2}), ["read", {"a": 2, "b": 1}], "the call")
    assert observed == [(("read", {"b": 1, "a": 2}), "the call")]


def test_a_trusted_check_that_finds_something_else_fails_in_the_courses_terms():
    t, observed = checks()
    with pytest.raises(CheckFailed) as failed:
        t.expect(["read", "delete"], ["read", "write"], "the tools it ran, in order")
    assert str(failed.value) == (
        'the tools it ran, in order\n'
        '    expected: ["read", "write"]\n'
        '    found:    ["read", "delete"]\n'
        '    first difference, at item 2 of 2: expected "write", found "delete"')
    assert observed == [(["read", "delete"], "the tools it ran, in order")]


def test_a_failed_check_shows_strings_bare():
    t, _ = checks()
    with pytest.raises(CheckFailed, match="(?m)^    expected: done\n    found:    not done$"):
        t.expect("not done", "done", "the reply's words")


def test_a_blinded_check_only_records_what_it_found():
    t, observed = checks()
    t.expect("anything", ..., "first")
    t.expect(42, why="second")
    assert observed == [("anything", "first"), (42, "second")]


def test_lab_test_registers_an_async_test_with_its_sentence_folded():
    try:
        @kit.lab_test("It does\n   one thing.", points=2)
        async def test_one(t):
            pass
        assert kit.TESTS == [kit.LabTest("test_one", "It does one thing.", test_one, 2)]
    finally:
        kit.TESTS.clear()


def test_lab_test_refuses_a_plain_def():
    with pytest.raises(TypeError, match="test_sync: a lab test is an async def"):
        @kit.lab_test("Sync.")
        def test_sync(t):
            pass
    assert kit.TESTS == []


async def test_settle_returns_a_plain_value_as_it_is_and_awaits_an_awaitable():
    async def later():
        return "awaited"

    assert await kit.settle("plain") == "plain"
    assert await kit.settle(later()) == "awaited"


async def test_raised_names_what_a_call_raised():
    def bad():
        raise ValueError("path must be a string")

    assert await kit.raised(bad) == "ValueError: path must be a string"


class AlreadyRunning(RuntimeError):
    """A refusal of a class of its own: a subclass of the class the page names."""


NAMED_ALIKE = type("RuntimeError", (Exception,), {})  # takes the built-in's name and is not one


def _raising(error):
    def call():
        raise error
    return call


async def _written_by(how, thunk, **kind):
    """What raised(), or raised_now() for a call where nothing can be awaited (lab 8.1's
    prompt() from inside a tool), made of thunk(): the two must write alike."""
    return await kit.raised(thunk, **kind) if how == "raised" else kit.raised_now(thunk, **kind)


@pytest.mark.parametrize("how", ["raised", "raised_now"])
async def test_a_subclass_is_written_by_the_class_the_page_names_and_a_class_named_alike_by_its_module(how):
    busy = _raising(AlreadyRunning("already running"))
    found = [await _written_by(how, busy), await _written_by(how, busy, kind=RuntimeError),
             await _written_by(how, _raising(KeyError("x")), kind=RuntimeError),
             await _written_by(how, _raising(NAMED_ALIKE("already running")), kind=RuntimeError),
             await _written_by(how, lambda: "fine")]
    assert found == ["AlreadyRunning: already running", "RuntimeError: already running",
                     "KeyError: 'x'", f"{__name__}.RuntimeError: already running", None], (
        f"{how}(kind=RuntimeError) writes a RuntimeError of a subclass as RuntimeError, since the "
        "page asks for that class and `except RuntimeError` catches it; a class that only takes "
        "the name with its module, so it never passes for one; and None for a call that "
        f"returned; found {found}")


async def test_raised_settles_an_awaitable_result_before_deciding():
    async def bad():
        raise KeyError("x")

    async def good():
        return 1

    assert await kit.raised(bad) == "KeyError: 'x'"
    assert await kit.raised(good) is None


async def test_raised_counts_a_power_cut():
    def cut():
        raise lab.PowerCut("the lights went out")

    assert await kit.raised(cut) == "PowerCut: the lights went out"


async def test_raised_lets_a_tasks_own_cancellation_go_on_up():
    def cancelled():
        raise asyncio.CancelledError()

    with pytest.raises(asyncio.CancelledError):
        await kit.raised(cancelled)


@pytest.fixture
def harness_with(monkeypatch):
    """Installs a fake `harness` module whose run_tool is the one given; monkeypatch takes it
    out of sys.modules again afterwards."""
    def install(run_tool):
        module = types.ModuleType("harness")
        module.run_tool = run_tool
        monkeypatch.setitem(sys.modules, "harness", module)
    return install


def test_tool_is_plain_for_a_harness_whose_run_tool_is_plain(harness_with):
    def run_tool(tools, call):
        pass

    harness_with(run_tool)
    made = kit.tool("look", lambda arguments: "saw " + arguments["path"])
    assert not inspect.iscoroutinefunction(made["execute"])
    assert made["execute"]({"path": "a.py"}) == "saw a.py"
    assert made == {"name": "look", "description": "A tool for this test.",
                    "parameters": {"type": "object", "properties": {}},
                    "execute": made["execute"]}


async def test_tool_is_async_and_takes_a_signal_for_a_harness_whose_run_tool_is_async(
        harness_with):
    async def run_tool(tools, call, signal=None):
        pass

    harness_with(run_tool)
    schema = {"type": "object", "properties": {"path": {"type": "string"}}}
    made = kit.tool("look", lambda arguments: "saw " + arguments["path"], schema, "Looks.")
    assert inspect.iscoroutinefunction(made["execute"])
    assert await made["execute"]({"path": "a.py"}, signal=object()) == "saw a.py"
    assert (made["parameters"], made["description"]) == (schema, "Looks.")


@pytest.mark.parametrize("found", [["x", "y", "y"], ("y", "x", "y"), ["y", "y", "x"]])
def test_a_trusted_same_items_check_passes_in_any_order_and_is_sent_as_that_kind(found):
    observed = []
    t = Checks(lambda found, why, kind, params: observed.append((found, why, kind)))
    t.expect_same_items(found, ["x", "y", "y"], "the files")
    assert observed == [(found, "the files", "same_items")]


def test_a_trusted_same_items_check_that_misses_an_item_fails_and_says_which():
    t = Checks(lambda found, why, kind, params: None)
    with pytest.raises(CheckFailed, match='in any order: missing "y"') as failed:
        t.expect_same_items(["x", "y"], ["x", "y", "y"], "the files")
    assert str(failed.value).startswith("the files\n")


def test_hours_pass_moves_every_clock_a_harness_can_read_a_minute_a_reading_and_puts_them_back():
    import time
    clocks = ("monotonic", "time", "perf_counter")
    before = {name: getattr(time, name) for name in clocks + tuple(f"{c}_ns" for c in clocks)}
    with kit.hours_pass():
        seconds = [getattr(time, name)() for name in clocks]
        nanoseconds = [getattr(time, f"{name}_ns")() for name in clocks]
    steps = [b - a for a, b in zip(seconds, seconds[1:])]
    assert steps == [60.0, 60.0], f"each reading in seconds should be a minute on: {seconds}"
    gaps = [b - a for a, b in zip(nanoseconds, nanoseconds[1:])]
    assert gaps == [60_000_000_000] * 2, f"the _ns clocks should step a minute too: {nanoseconds}"
    assert abs(nanoseconds[0] / 1e9 - seconds[-1] - 60.0) < 1e-3, \
        "the _ns clocks should read the others' time, a minute on, not a clock of their own"
    after = {name: getattr(time, name) for name in before}
    assert after == before, "hours_pass should put every clock back on the way out"


def test_hours_pass_moves_processor_time_and_datetime_when_asked_and_puts_them_back():
    import datetime
    import time
    clocks = [name for name in ("process_time", "thread_time") if hasattr(time, name)]
    before = {name: getattr(time, name) for name in clocks}, datetime.datetime
    with kit.hours_pass(minutes=10):
        still = [getattr(time, name)() for name in clocks]
        assert datetime.datetime is before[1], "without dates=True, datetime is left alone"
    assert all(abs(b - a) < 60 for a, b in zip(still, still[1:])), \
        f"without processor=True, processor time is left alone: {still}"
    year = 365 * 24 * 60
    with kit.hours_pass(minutes=1000 * year, processor=True, dates=True):
        readings = [getattr(time, name)() for name in clocks]
        dates = [datetime.datetime.now(), datetime.datetime.utcnow(), datetime.datetime.today()]
        for _ in range(1000):  # far past the year 9999, where datetime ends
            last = datetime.datetime.now()
    steps = [b - a for a, b in zip(readings, readings[1:])]
    assert steps and all(abs(step - 1000 * year * 60) < 1 for step in steps), \
        f"each processor-time reading is a thousand years on: {readings}"
    assert [(b - a).days for a, b in zip(dates, dates[1:])] == [3650, 3650], \
        f"datetime goes ten years a reading at most: {dates}"
    assert last.year == 9990, f"datetime's clock stops short of the year 9999: {last}"
    assert ({name: getattr(time, name) for name in clocks}, datetime.datetime) == before, \
        "hours_pass should put processor time and datetime back on the way out"


def test_worst_luck_makes_every_draw_of_the_shared_generator_its_lowest_and_puts_it_back():
    import random
    random.seed(2026)
    expected_next = random.Random(2026).random()
    with kit.worst_luck():
        draws = [random.random() for _ in range(10_000)]
        picks = [random.randint(3, 9), random.choice("xyz"), random.randrange(5, 50)]
    assert set(draws) == {0.0}, \
        f"inside worst_luck, random.random() should give 0.0 every time: {sorted(set(draws))[:5]}"
    assert picks == [3, "x", 5], f"randint, choice and randrange should give their lowest: {picks}"
    assert random.random() == expected_next, \
        "worst_luck should put the generator back as it found it, mid-sequence"

def test_everything_said_hears_each_way_a_harness_can_print_and_puts_each_back(tmp_path):
    import builtins
    import io
    import logging
    import os
    import warnings
    openers = (builtins.open, io.open, os.open)
    kept, own, calling = sys.stdout, (sys.__stdout__, sys.__stderr__), logging.Logger.callHandlers
    quiet = logging.getLogger("a harness's own")
    quiet.addHandler(logging.NullHandler())
    quiet.propagate = False

    def warn():
        warnings.warn("once per place?", stacklevel=1)
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        with pytest.warns(UserWarning):
            warn()  # shown here, so the default filter would stay quiet at this place from now on
        with kit.everything_said() as said:
            print("printed")
            print("to the process's own", file=sys.__stderr__)
            kept.write("to a stream kept from before\n")
            os.write(1, b"to descriptor 1\n")
            os.write(2, b"to descriptor 2\n")
            quiet.warning("logged")
            warn()
            warn()
            with open(tmp_path / "a.log", "w") as log:
                log.write("a log of the run")
            os.close(os.open(tmp_path / "b.log", os.O_WRONLY | os.O_CREAT))
            (tmp_path / "a.log").read_text()
    heard = said.getvalue()
    for line in ("printed", "to the process's own", "to a stream kept from before",
                 "to descriptor 1", "to descriptor 2", "logged"):
        assert line in heard, f"{line!r} was said in the block but not heard: {heard!r}"
    assert heard.count("once per place?") == 2, f"each warning should be heard: {heard!r}"
    assert [line for line in heard.splitlines() if line.startswith("opened")] == [
        f"opened {tmp_path / 'a.log'} for writing", f"opened {tmp_path / 'b.log'} for writing"], \
        f"each file opened for writing, and only those, should be named: {heard!r}"
    assert (sys.stdout, (sys.__stdout__, sys.__stderr__), logging.Logger.callHandlers) == \
        (kept, own, calling), "everything_said should put the streams and logging back"
    assert "write" not in vars(kept), "the kept stream's own write should be back"
    assert (builtins.open, io.open, os.open) == openers, "everything_said should put the openers back"


def test_a_sealed_record_refuses_every_change_and_reads_as_the_record():
    record = [{"role": "user", "content": "Hi."}, {"role": "assistant", "content": []}]
    view = kit.sealed(record)
    assert view == record and [dict(m) for m in view] == record
    changes = [lambda: view.append({}), lambda: view.pop(), lambda: view.__setitem__(0, {}),
               lambda: view[0].__setitem__("content", "Bye."), lambda: view[1].pop("content"),
               lambda: view[0].setdefault("extra", 1), lambda: view[0].update(x=1)]
    for change in changes:
        with pytest.raises(TypeError, match="only to be read"):
            change()
    view[0]["content"] = view[0]["content"]  # no change: the same value, set again
    assert view[0].setdefault("role") == "user" and view[0].pop("missing", None) is None
    assert view == record, "a sealed record should read as the record it was made from"


def test_a_noted_argument_names_each_change_even_one_taken_back_and_a_copy_notes_apart():
    import copy
    tool, tools = kit.Noted(name="read"), kit.NotedList(["a", "b"])
    tool["name"] = "read"  # the same object set again: no change
    tool["extra"] = 1
    del tool["extra"]  # taken back, still noted
    tools.sort()  # already in order: no change
    tools.reverse()
    tools.reverse()
    assert (tool, tool.changes) == ({"name": "read"}, ["__setitem__", "__delitem__"]), \
        f"a tool written into and set back should read as it was and name both: {tool.changes}"
    assert tools.changes == ["reverse", "reverse"], f"two reversals should be named: {tools.changes}"
    twin = copy.copy(tools)
    twin.append("c")
    assert tools.changes == ["reverse", "reverse"] and twin.changes[-1] == "append", \
        f"a shallow copy should note its changes apart: {tools.changes}, {twin.changes}"
    tools.forget()
    assert tools.changes == [] and tools == ["a", "b"], "forget should clear the notes only"


def test_noted_watches_every_list_and_dict_at_any_depth_and_changes_in_names_where():
    record = [{"role": "user", "content": "Hi."},
              {"role": "assistant", "content": [{"type": "toolCall", "arguments": {"path": "a"}}]}]
    watched = kit.noted(record)
    assert watched == record and watched is not record, "noted should copy the structure it watches"
    assert kit.changes_in(watched, "messages") == [], "nothing changed yet, nothing named"
    watched.append({"role": "user", "content": "More."})
    watched.pop()  # taken back: still a change
    arguments = watched[1]["content"][0]["arguments"]
    arguments["path"] = "b"
    arguments["path"] = "a"
    assert watched == record, "every change was taken back"
    assert kit.changes_in(watched, "messages") == [
        ["messages", ["append", "pop"]],
        ["messages[1]['content'][0]['arguments']", ["__setitem__", "__setitem__"]]], (
        f"each change should be named with its place: {kit.changes_in(watched, 'messages')}")


def test_grew_in_names_each_module_container_whose_length_changed_since_held_read_it():
    module = types.ModuleType("harness")
    module.log, module.seen, module.name = [], {"a": 1}, "not a container"
    before = kit.held(module)
    module.log.append("a view's invented result")
    module.later = {1, 2}
    assert kit.grew_in(before, module) == {"log": [0, 1], "later": [0, 2]}, (
        f"a log that grew and a set made since should be named with both lengths, and nothing "
        f"else: {kit.grew_in(before, module)}")
