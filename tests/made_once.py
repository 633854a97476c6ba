"""Work that several tests read, made once per test run however many workers share the run.

pytest-xdist runs the suite in several processes, and each would make a module's or a
session's fixture again for itself: a class graded, a catalogue design's runs. `value` makes
it in the first worker that asks, under a file lock, keeps it pickled in the run's shared
temporary folder, and hands the same value to every worker that asks after; within one
process it is kept in memory too. A value must pickle, and the files it names must stay
where they are (a folder under the run's temporary root does).

filelock is the maintained cross-platform lock (Windows included), which xdist's own
documentation recommends for exactly this.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import shutil
from pathlib import Path
from typing import Callable, TypeVar

import pytest
from filelock import FileLock

T = TypeVar("T")

_kept: dict[str, object] = {}


def root(factory: pytest.TempPathFactory) -> Path:
    """The run's temporary folder that every worker shares: under xdist each worker's base
    folder sits in it; without xdist it is the base folder itself."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def key_of(*parts: object) -> str:
    """A key for work named by its inputs: file texts, lab ids, seeds. Equal inputs, equal
    keys, whichever test or worker asks."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(repr(part).encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()[:24]


def value(factory: pytest.TempPathFactory, key: str, make: Callable[[Path], T]) -> T:
    """`make(folder)`'s value, made once in this run for `key`. `folder` is a fresh folder of
    the run's own, kept for the rest of the run, for what the work writes (a graded class);
    `key` holds only letters, digits, dots, dashes and underscores."""
    if key in _kept:
        return _kept[key]  # type: ignore[return-value]
    shared = root(factory) / "made-once"
    shared.mkdir(exist_ok=True)
    kept = shared / f"{key}.pickle"
    with FileLock(str(shared / f"{key}.lock")):
        if kept.exists():
            made = pickle.loads(kept.read_bytes())
        else:
            folder = shared / key
            shutil.rmtree(folder, ignore_errors=True)  # left by a make that raised
            folder.mkdir()
            made = make(folder)
            part = kept.with_suffix(".part")
            part.write_bytes(pickle.dumps(made))
            part.replace(kept)
    _kept[key] = made
    return made

