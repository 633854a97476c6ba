"""The share of a large space of cases that one test run tries, chosen by the run's seed.

Some spaces cost too much to try whole in every run of the README's command (every seed of a
grading bank for every design, every catalogue design through both of the checker's paths), yet
each case is cheap on its own. A run tries one part in `parts`, picked by the seed that
pytest-randomly prints at the run's top (every xdist worker has the same, so every worker
collects the same tests): runs in a row try each part in turn, `-p randomly --randomly-seed=N`
tries run N's part again, and with randomly off (`-p no:randomly`, as a kill author runs a lab)
the whole space is tried.
"""
from __future__ import annotations

from typing import Sequence, TypeVar

import pytest

T = TypeVar("T")


def seed_of(config: pytest.Config) -> int | None:
    """The run's seed, or None with randomly off."""
    seed = config.getoption("randomly_seed", None)
    return seed if isinstance(seed, int) else None


def share(items: Sequence[T], seed: int | None, parts: int) -> list[T]:
    """This run's part of `items`: every `parts`-th, from the one the seed picks; all of them
    with no seed."""
    return list(items) if seed is None else list(items[seed % parts::parts])
