"""Helpers for writing the labs' tests, so that one test runs unchanged on every later lab's file.

A test is `async def test_...(t)` under @lab_test("what it checks, in plain words"). It states
each fact it checks with t.expect(found, wanted, why), or t.expect_same_items(found, wanted,
why) where the rule names which items and leaves their order free, or t.expect_kind(kind,
found, wanted, why, **parameters) for any other kind of check (lab/check/observe.py's
KINDS). Where the harness might be sync or async (lessons 2-14 against lesson 15's file), it
goes through the colour-blind helpers: settle() for a value that may need awaiting, tool() for
a tool that adapts to run_tool's colour, and lab.drive() for a run.

Why t.expect and not assert: the verdict is not decided in the process that runs the
student's code. Each found value is sent out of that process and compared there with what the
reference harness gave at the same point (see lab/check/verdict.py), and in that process `wanted`
has been taken out of the test's code before it runs (lab/check/suite.py), so patching t.expect
cannot copy it. So every test must make at least one check whose value could not be guessed:
a transcript's shape, a result's text, a count; not only True/False.
"""
from __future__ import annotations

import builtins
import collections
import contextlib
import inspect
import io
import logging
import os
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import Any
from contextlib import redirect_stdout
from dataclasses import dataclass

from lab.check import spin
from lab.check.kit_chance import hours_pass, worst_luck  # noqa: F401  (the tests' names)

TESTS: list["LabTest"] = []  # filled by @lab_test as a test file is executed


@dataclass(frozen=True)
class LabTest:
    name: str  # the function's name, test_...
    says: str  # one sentence a student reads in the checker's report
    fn: object
    points: float | None = None  # None: the lab's default, from the manifest


def lab_test(says: str, *, points: float | None = None):
    """Register an `async def test_...(t)` with the sentence that describes it."""
    def register(fn):
        if not inspect.iscoroutinefunction(fn):
            raise TypeError(f"{fn.__name__}: a lab test is an async def, even for a sync lesson")
        TESTS.append(LabTest(fn.__name__, " ".join(says.split()), fn, points))
        return fn
    return register


class CheckFailed(AssertionError):
    """A check found something other than it wanted (only raised where wanted is known)."""


class Checks:
    """The `t` a test is handed. Each expect() is one observation, in order.

    `sink(found, why, kind, params)` receives every observation. In a trusted run (the kit's own
    tests, against the reference) `wanted` is present and a mismatch raises CheckFailed at once;
    in the student's process `wanted` is Ellipsis and the comparison happens elsewhere. The
    kinds of check, and how each compares, are lab/check/observe.py's.

    `random` is the test's own random.Random, seeded from the run's seed and the test's id
    (lab/check/seeds.py): a test draws its cases from it (t.random.randint(1, 12)) so that it
    checks its rule over a family of cases, and the reference, run under the same seed, drew
    the same ones. Draw only from it: a test's observations must follow from the seed alone."""

    def __init__(self, sink, random=None):
        self._sink = sink
        self.random = random

    def expect(self, found, wanted=..., why: str = ""):
        """Check that `found` is `wanted`."""
        self._observe(found, wanted, why, "equal")

    def expect_same_items(self, found, wanted=..., why: str = ""):
        """Check that the list `found` holds the items of `wanted`, in any order: for a rule
        that says which, not in what order (a test must not demand an order the lesson leaves
        free)."""
        self._observe(found, wanted, why, "same_items")

    def expect_kind(self, kind: str, found, wanted=..., why: str = "", **params):
        """Check `found` by the kind of check named `kind` (lab/check/observe.py's KINDS: one
        registered elsewhere is named "module:name"), under its parameters: for a kind whose
        rule is a pattern, t.expect_kind(KIND, found, wanted, why, pattern=r"..."). The
        reference's record keeps the parameters, and the judge holds the student's value to
        those."""
        self._observe(found, wanted, why, kind, params)

    def _observe(self, found, wanted, why, kind, params=None):
        self._sink(found, why, kind, params or {})
        if wanted is ...:
            return
        from lab.check import words_values
        from lab.check.observe import agrees, difference, kind_of
        lacking = set(kind_of(kind).params) - set(params or {})
        if lacking:
            raise TypeError(f"a check of kind {kind} needs the parameters {sorted(lacking)}")
        if not agrees(_canonical(wanted), _canonical(found), kind, params):
            where = difference(_canonical(wanted), _canonical(found), kind, None, params)
            raise CheckFailed(f"{why}\n    expected: {show_value(wanted)}\n    found:    "
                              f"{show_value(found)}" +
                              (f"\n    {words_values.parted(where)}" if where else ""))

    def printed(self, fn, *args, **kwargs):
        """Call fn and return (its return value, what it printed)."""
        buffer = io.StringIO()
        with redirect_stdout(buffer):
            value = fn(*args, **kwargs)
        return value, buffer.getvalue()


def _canonical(value):
    from lab.check.observe import encode
    return encode(value)


def show_value(value) -> str:
    """A value as a student reads it in a message: the checker's own way of showing a found or
    expected value (lab/check/verdict.py), so a trusted run's failure reads like a student's."""
    from lab.check.observe import encode
    from lab.check.words import shown
    return shown(encode(value))


def harness():
    """The harness module under test (imported as `harness` by the runner)."""
    return sys.modules["harness"]


async def settle(value):
    """`value`, awaited first if it is awaitable: run_tool, execute, summarize, compact and
    maybe_compact are plain before lesson 15 and async from it."""
    if inspect.isawaitable(value):
        return await value
    return value




@contextlib.contextmanager
def everything_said() -> Iterator[io.StringIO]:
    """Yield a text buffer that holds, once the block is over, all that code run in it said
    beside what it returned: both streams, the process's own sys.__stdout__ and sys.__stderr__,
    any stream the process had before (one a harness may have kept at import), descriptors 1
    and 2 beneath them (os.write, a file opened on /dev/stderr) where the platform lets them be
    moved, every record of any logger whatever its handlers and its level (a logger a harness
    set to WARNING at import still passes on its debug lines here, as it would to a frontend
    that turned it on), and every warning each time it is given, not once per place; and a
    line for each file that code on this thread opens for writing (open, io.open, os.open),
    since a log file is a frontend's choice too. A lesson's
    "prints nothing" means all of these, so the tests that hold it read this one buffer."""
    said = io.StringIO()
    root, calling = logging.getLogger(), logging.Logger.callHandlers
    enabled = logging.Logger.isEnabledFor
    level, own = root.level, (sys.__stdout__, sys.__stderr__)
    kept = list({id(s): s for s in (sys.stdout, sys.stderr, *own) if s is not None}.values())
    written: list[str] = []

    def heard(logger: logging.Logger, record: logging.LogRecord) -> None:
        said.write(record.getMessage() + "\n")

    with tempfile.TemporaryFile() as sink, contextlib.ExitStack() as undo:
        saved: list[int] = []
        try:
            for stream in kept:
                stream.flush()
            saved = [os.dup(1), os.dup(2)]
            os.dup2(sink.fileno(), 1)
            os.dup2(sink.fileno(), 2)
        except (AttributeError, OSError, ValueError):
            pass  # no descriptors to move here: the streams and loggers are still heard
        for stream in kept:
            undo.enter_context(_writes_into(stream, written))
        undo.enter_context(_opened_for_writing(written))
        setattr(logging.Logger, "callHandlers", heard)
        setattr(logging.Logger, "isEnabledFor", lambda logger, level: True)  # any level is heard
        root.setLevel(logging.DEBUG)
        for name in ("__stdout__", "__stderr__"):  # the process's own, past a redirect
            setattr(sys, name, said)
        try:
            with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said), \
                    warnings.catch_warnings(record=True) as warned:
                warnings.simplefilter("always")
                yield said
            written += [f"{warning.category.__name__}: {warning.message}\n" for warning in warned]
        finally:
            setattr(logging.Logger, "callHandlers", calling)
            setattr(logging.Logger, "isEnabledFor", enabled)
            for name, stream in zip(("__stdout__", "__stderr__"), own):
                setattr(sys, name, stream)
            root.setLevel(level)
            undo.close()
            for stream in kept:  # what a stream holds unwritten reaches the descriptors
                with contextlib.suppress(AttributeError, OSError, ValueError):
                    stream.flush()
            for standard, descriptor in enumerate(saved, 1):
                os.dup2(descriptor, standard)
                os.close(descriptor)
            sink.seek(0)
            said.write("".join(written) + sink.read().decode("utf-8", "replace"))


class Everywhere(dict):
    """An environment where every name is set: a name it was not given reads as
    "<word>-<name in lower case>" (through [], get() and `in` alike), so code that acts only
    when some variable of its own choosing is set acts here. Swapped in for os.environ by a
    test (or by every_name_set), it is another process's environment, whatever names that
    code looks for."""

    def __init__(self, word: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.word = word

    def __missing__(self, name: Any) -> str:
        return f"{self.word}-{str(name).lower()}"

    def get(self, name: Any, default: Any = None) -> Any:
        return self[name]

    def __contains__(self, name: object) -> bool:
        return True


class EverywhereAlike(Everywhere):
    """An Everywhere whose names it was not given all read as `word` itself, exactly: "1",
    "true", the values a switch in the environment is turned on with."""

    def __missing__(self, name: Any) -> str:
        return self.word


@contextlib.contextmanager
def every_name_set(word: str, *, exactly: bool = False) -> Iterator[Everywhere]:
    """While open, os.environ is an Everywhere holding the process's own variables and
    answering any other name with "<word>-<name>" (with exactly=True, with `word` itself, as
    every_name_set("1", exactly=True) turns on any switch that looks for "1"): a harness that
    writes a log, or does anything else, only when a variable it chose is set is seen doing
    it. The real environment is put back on the way out."""
    real = os.environ
    everywhere = (EverywhereAlike if exactly else Everywhere)(word, os.environ)
    setattr(os, "environ", everywhere)
    try:
        yield everywhere
    finally:
        setattr(os, "environ", real)


@contextlib.contextmanager
def _opened_for_writing(written: list[str]) -> Iterator[None]:
    """While open, each file this thread opens for writing adds a line to `written`; files are
    still opened as asked, and the openers are put back on the way out."""
    here, opener, low = threading.get_ident(), builtins.open, os.open
    flags = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC

    def note(file: object) -> None:
        if threading.get_ident() == here:
            written.append(f"opened {file} for writing\n")

    def watched_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if any(letter in str(mode) for letter in "wax+"):
            note(file)
        return opener(file, mode, *args, **kwargs)

    def watched_os_open(path: Any, flag: int, *args: Any, **kwargs: Any) -> int:
        if flag & flags:
            note(path)
        return low(path, flag, *args, **kwargs)
    setattr(builtins, "open", watched_open)
    setattr(io, "open", watched_open)
    setattr(os, "open", watched_os_open)
    try:
        yield
    finally:
        setattr(builtins, "open", opener)
        setattr(io, "open", opener)
        setattr(os, "open", low)


@contextlib.contextmanager
def _writes_into(stream: object, written: list[str]) -> Iterator[None]:
    """While open, what is written to `stream` as text goes into `written` instead; a stream
    whose write cannot be shadowed is left alone (its descriptor is still heard)."""
    own = getattr(stream, "__dict__", {}).get("write")

    def write(text: str) -> int:
        written.append(text)
        return len(text)
    try:
        setattr(stream, "write", write)
    except (AttributeError, TypeError):
        yield
        return
    try:
        yield
    finally:
        if own is None:
            delattr(stream, "write")
        else:
            setattr(stream, "write", own)


class SealedList(list):
    """A list that refuses every change: a record handed to something that must only read it."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("this record is only to be read")

    append = extend = insert = pop = remove = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse


class SealedMessage(dict):
    """A message that refuses every change to it: a call that would leave it as it was is no
    change (setdefault of a key it has, pop of a key it lacks, a key set to its own value)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("this message is only to be read")

    def __setitem__(self, key: Any, value: Any) -> None:
        if key not in self or self[key] is not value:
            self._refuse()

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self._refuse()
        return self[key]

    def pop(self, key: Any, *default: Any) -> Any:
        if key in self or not default:
            self._refuse()
        return default[0]

    __delitem__ = __ior__ = popitem = update = clear = _refuse


def sealed(record: Any) -> SealedList:
    """`record` as a list that refuses changes, of messages that refuse changes down to each
    block of their content and each call's arguments: what a test hands to code that must only
    read the record (context_for_model, a view's repair), so a write at any depth raises."""
    def lock(value: Any) -> Any:
        if isinstance(value, dict):
            return SealedMessage({key: lock(inner) for key, inner in value.items()})
        if isinstance(value, list):
            return SealedList(lock(inner) for inner in value)
        return value
    return SealedList(lock(message) for message in record)


class Noted(dict):
    """A caller's dict that notes in `changes` each method that changed it, even a change taken
    back before the call returned: for code that must leave its arguments as they came."""

    @property
    def changes(self) -> list[str]:
        """The methods that changed this, in order."""
        return list(self.__dict__.get("_changes", ()))

    def forget(self) -> None:  # the changes a test made itself before handing this over
        self.__dict__.pop("_changes", None)


class NotedList(list):
    """A caller's list that notes each change made to it, as Noted does."""

    changes = Noted.changes
    forget = Noted.forget


def _noting(base: type, how: str, contents: Callable[[Any], list[Any]]) -> Callable[..., Any]:
    """`base`'s `how`, noting it when the contents (by identity) differ after; a new notes list
    each time, so that a shallow copy never shares them."""
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        before = contents(self)
        try:
            return getattr(base, how)(self, *args, **kwargs)
        finally:
            if contents(self) != before:
                self.__dict__["_changes"] = [*self.__dict__.get("_changes", ()), how]
    return method


for _how in "__setitem__ __delitem__ __ior__ pop popitem setdefault update clear".split():
    setattr(Noted, _how, _noting(dict, _how, lambda self: [(k, id(v)) for k, v in dict.items(self)]))
for _how in ("__setitem__ __delitem__ __iadd__ __imul__ append extend insert pop remove clear "
             "sort reverse").split():
    setattr(NotedList, _how, _noting(list, _how, lambda self: [id(v) for v in list.__iter__(self)]))


def noted(value: Any) -> Any:
    """`value` with every list and dict in it, at any depth, a NotedList or a Noted: arguments
    handed to code that must only read them, so that any change is noted, even one taken back
    before the call returned (changes_in lists them)."""
    if isinstance(value, dict):
        return Noted({key: noted(inner) for key, inner in value.items()})
    if isinstance(value, list):
        return NotedList(noted(inner) for inner in value)
    return value


def changes_in(value: Any, where: str) -> list[list[Any]]:
    """[where, the methods that changed it] for each Noted or NotedList in `value`, at any
    depth, that was changed, `where` naming `value` and each place in it by key or index."""
    changed = getattr(value, "changes") if isinstance(value, (Noted, NotedList)) else []
    found: list[list[Any]] = [[where, changed]] if changed else []
    inner = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, item in inner:
        found += changes_in(item, f"{where}[{key!r}]")
    return found


def held(module: Any) -> dict[str, int]:
    """Each list, dict, set or deque at the top of `module`, by name, with its length."""
    kinds = (list, dict, set, collections.deque)
    return {k: len(v) for k, v in vars(module).items() if isinstance(v, kinds) and k[:2] != "__"}


def grew_in(before: dict[str, int], module: Any) -> dict[str, list[int]]:
    """The containers of `module` whose length differs from `before`'s: name: [then, now]."""
    return {name: [before.get(name, 0), size] for name, size in held(module).items()
            if size != before.get(name, 0)}


class Terminal(io.TextIOBase):
    """A stream that says it is a terminal and passes what it is given on to `into`: a test's
    stand-in for a screen, so that code which draws only when a person watches is heard too."""

    def __init__(self, into: io.TextIOBase | io.StringIO) -> None:
        self.into = into

    def write(self, text: str) -> int:
        return self.into.write(text)

    def isatty(self) -> bool:
        return True


class Uncounted:
    """`model` as a harness may use it: everything it has but its `calls`, which only the
    course's fakes keep (a real model client has `complete` and what it streams with), so a
    harness that reads how often it was asked fails here instead of counting for itself."""

    def __init__(self, model):
        self._model = model

    def __getattr__(self, name):
        if name == "calls":
            raise AttributeError("this model keeps no count of its calls; count them yourself")
        return getattr(self._model, name)


def tool(name, fn, parameters=None, description="A tool for this test."):
    """A tool dict whose execute calls the plain function fn(arguments), in the colour that
    the harness's run_tool expects: async execute(arguments, signal=None) from lesson 15,
    execute(arguments) before it. fn may raise, or call h.steer(), h.cancel() and the like."""
    async def execute_async(arguments, signal=None):
        return fn(arguments)

    def execute_sync(arguments):
        return fn(arguments)
    return {"name": name, "description": description,
            "parameters": parameters or {"type": "object", "properties": {}},
            "execute": execute_async if inspect.iscoroutinefunction(harness().run_tool)
            else execute_sync}


async def raised(thunk, *, kind: type[BaseException] | None = None):
    """What calling thunk() raised, as "ValueError: path must be a string", or None if it
    returned (after settling an awaitable result). The call runs inside this helper, so a
    run that happens all at once (run_agent before lesson 7) raises here, not earlier.
    PowerCut counts; a task's own cancellation does not, and goes on up, nor does the practice
    check's spin guard stopping the test (lab/check/spin.py's Spun), so that a file that spins
    gets the same verdict in a page as in a child.

    `kind` is a class the page names ("it raises a `RuntimeError`"): what raised an instance of
    a subclass of it is written with kind's name, since an `except` of that class catches it."""
    import asyncio
    try:
        await settle(thunk())
    except (asyncio.CancelledError, spin.Spun):
        raise  # the practice check's spin guard stops the test, as a child's watcher would
    except BaseException as exc:  # lab.PowerCut is a BaseException on purpose
        return _written(exc, kind)
    return None


def raised_now(thunk, *, kind: type[BaseException] | None = None):
    """raised() for a call made where nothing can be awaited, such as inside a tool that a run
    calls: what thunk() raised, written as raised() writes it, or None if it returned. What it
    returns is not settled, so a call that hands back an awaitable is judged by its return."""
    import asyncio
    try:
        thunk()
    except (asyncio.CancelledError, spin.Spun):
        raise
    except BaseException as exc:
        return _written(exc, kind)
    return None


def _written(exc: BaseException, kind: type[BaseException] | None) -> "Raised":
    """`exc` as a check compares it, "ValueError: ...", by kind's name for a subclass of kind. A
    class that takes a built-in exception's name without being one is written with its module
    ("harness.RuntimeError"), so it never passes for the class the page names."""
    cls = type(exc)
    shadowed = getattr(builtins, cls.__name__, None)
    if kind is not None and isinstance(exc, kind):
        name = kind.__name__
    elif isinstance(shadowed, type) and not issubclass(cls, shadowed):
        name = f"{cls.__module__}.{cls.__qualname__}"
    else:
        name = cls.__name__
    return Raised(f"{name}: {exc}", _lacks(exc))


class Raised(str):
    """What raised() returns: the text a check compares ("AttributeError: ..."), which is all
    that travels as the value, and `lacks`, the name of harness.py whose absence raised it, if
    that is what it was: the checker tells a file that lacks the lab's names from that fact
    (lacking()), not from Python's words."""
    lacks: str | None

    def __new__(cls, text: str, lacks: str | None = None) -> "Raised":
        made = super().__new__(cls, text)
        made.lacks = lacks
        return made


def _lacks(exc: BaseException) -> str | None:
    """The name a harness module lacked, when `exc` is the AttributeError of looking it up."""
    if isinstance(exc, AttributeError) and exc.name and \
            exc.obj is not None and exc.obj is sys.modules.get("harness"):
        return exc.name
    return None


def lacking(found) -> str | None:
    """The first name of harness.py a found value says was missing: a raised() of one, at any
    depth of the lists and dicts a check found."""
    if isinstance(found, Raised):
        return found.lacks
    items = found.values() if isinstance(found, dict) else \
        found if isinstance(found, (list, tuple)) else ()
    for item in items:
        lacks = lacking(item)
        if lacks is not None:
            return lacks
    return None
