"""The seed a check draws its cases under, and the reference's observations tagged with it.

A lab test draws its cases (sizes, counts, orders, contents) from `t.random`, a
`random.Random` seeded from the run's seed and the test's id, so the same seed gives every
test the same family of cases in any process and on any system, and the reference's
observations are only worth comparing with a run under the seed they were made under.

The public seed is the one every committed expected.json records: the local checker runs
under it, so a file gets the same verdicts and bytes on every run. A grader draws a secret
seed per grading run (`secret()`) and records the reference under it first, so the values in
a released expected.json do not grade a replay.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from lab.check.rules import Rule

PUBLIC = 23  # the seed of every committed expected.json (issue 23 brought seeds in)
HASH_SEEDS = 1 << 32  # PYTHONHASHSEED takes 0 to 2**32 - 1


def secret() -> int:
    """A seed for one grading run: unguessable, and never the public one."""
    import secrets  # only a grader draws one: its hashlib would slow every child's start
    while (seed := secrets.randbelow(1 << 63)) == PUBLIC:
        pass
    return seed


def random_for(seed: int, test_id: str) -> random.Random:
    """The draws of one test under `seed`: seeded by text, which Python hashes the same way in
    every process whatever its PYTHONHASHSEED, so the child and the recorder draw alike."""
    return random.Random(f"{seed}/{test_id}")


def hash_seed(seed: int) -> str:
    """The PYTHONHASHSEED a child runs under for `seed`: fixed by the seed, so a design whose
    behaviour hangs on a set's order fails the same tests on every run of the same seed."""
    return str(seed % HASH_SEEDS)


@dataclass(frozen=True)
class Expectation:
    """What the reference found in one test: each check's encoded value (lab/check/observe.py),
    its rule, its kind, and its parameters (observe.encode_params: "" for none). expected.json,
    a grading plan and the judge hold it as the dict `to_dict` makes, and read it only through
    `from_dict`: {"checks": [...], "why": [...]}, with "kinds" only when a check is of a kind
    other than "equal" and "params" only when one has parameters, so that a file of plain
    checks reads as it always has."""
    checks: tuple[str, ...]
    why: tuple[str, ...]
    kinds: tuple[str, ...]
    params: tuple[str, ...] = ()  # none: "" for each check
    # Each rule as a type (lab/check/rules.py), read once here, where the test's declaration
    # enters the record: the judge decides on these, never on `why`'s words.
    rules: tuple[Rule, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", tuple(Rule.declared(why) for why in self.why))
        if not self.params:
            object.__setattr__(self, "params", ("",) * len(self.checks))
        if not len(self.checks) == len(self.why) == len(self.kinds) == len(self.params):
            raise ValueError(f"an expectation of {len(self.checks)} checks holds "
                             f"{len(self.why)} rules, {len(self.kinds)} kinds and "
                             f"{len(self.params)} parameter sets")

    def to_dict(self) -> dict[str, list[str]]:
        record = {"checks": list(self.checks), "why": list(self.why)}
        if any(kind != "equal" for kind in self.kinds):
            record["kinds"] = list(self.kinds)
        if any(self.params):
            record["params"] = list(self.params)
        return record

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Expectation":
        """The expectation `to_dict` made; ValueError (or KeyError) for anything else."""
        checks, why = data["checks"], data["why"]
        kinds = data.get("kinds") or ["equal"] * len(checks)
        params = data.get("params") or [""] * len(checks)
        if not all(isinstance(x, list) and all(isinstance(i, str) for i in x)
                   for x in (checks, why, kinds, params)):
            raise ValueError(f"not an expectation: {data!r}"[:200])
        return cls(tuple(checks), tuple(why), tuple(kinds), tuple(params))


class Expected(dict[str, dict[str, Any]]):
    """{test id: an Expectation's dict}, and the seed they were observed under.
    A dict, so a run looks tests up as it always has; `seed` says which draws they hold."""

    def __init__(self, observations: Any = (), seed: int = PUBLIC) -> None:
        super().__init__(observations)
        self.seed = seed


def dumps(expected: Expected) -> str:
    """expected.json's text: {"seed": N, "tests": {test id: expectation}}, keys sorted."""
    return json.dumps({"seed": expected.seed, "tests": dict(expected)}, indent=1,
                      ensure_ascii=False, sort_keys=True) + "\n"


def loads(text: str) -> Expected:
    """An expected.json's observations and seed. A file in the format before seeds (test ids
    at the top) was made by tests that drew nothing, so any seed reads it alike: the public."""
    data = json.loads(text)
    if set(data) == {"seed", "tests"} and isinstance(data["seed"], int):
        return Expected(data["tests"], data["seed"])
    return Expected(data, PUBLIC)
