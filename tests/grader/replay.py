"""A replay: a submission with no harness code that carries a release's recorded observations and
reports them through the child's report function, as a cheating student would build it.

It is the attack issue 23 names. Everything it needs is in a release: each lab's expected.json
holds, test by test, the values the reference observed under the public seed. The file, once
imported into the child, closes each test's coroutine unrun and hands that test's recorded
values to the test's own `t`, in order. Under the public seed it gets every test the release
records; under a grader's secret seed it gets only the tests whose observations do not follow
from the seed, so the grade it gets is the measure of how many of those are left. The values
travel packed (zlib, then base85), as a cheat's would: written out plain they pass the grader's
1 MB cap on a submission, which would refuse the file unread and measure nothing.
"""
from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

TEMPLATE = '''\
"""No harness: what the release's expected.json files recorded, reported as found."""
import base64
import json
import zlib

from lab.check import child, seeds, turns

RECORDED = json.loads(zlib.decompress(base64.b85decode({recorded!r})))
_now = {{"test": None}}
_random_for, _run = seeds.random_for, turns.run


def _remember(seed, test_id):
    _now["test"] = test_id
    return _random_for(seed, test_id)


def _replay(coroutine, budget):
    t = coroutine.cr_frame.f_locals["t"]
    coroutine.close()
    for value, kind in RECORDED.get(_now["test"], []):
        t._sink(value, "", kind, {{}})


seeds.random_for, turns.run = _remember, _replay
'''


def recorded(release: Path) -> dict:
    """{test id: [[the value a check found, its kind], in order]}, from every expected.json
    under release/starters."""
    values = {}
    for path in sorted((release / "starters").rglob("expected.json")):
        tests = json.loads(path.read_text(encoding="utf-8"))["tests"]
        for test_id, expectation in tests.items():
            kinds = expectation.get("kinds") or ["equal"] * len(expectation["checks"])
            values[test_id] = [[json.loads(found), kind]
                               for found, kind in zip(expectation["checks"], kinds)]
    return values


def replay_file(release: Path) -> str:
    """The text of the replay submission built from `release`."""
    packed = zlib.compress(json.dumps(recorded(release), ensure_ascii=False).encode(), 9)
    return TEMPLATE.format(recorded=base64.b85encode(packed).decode())
