"""The red team's attack on a grade (issue 40), built from what every student holds: the public
tests.py files of a student release through the lab. Each file it makes holds no harness code:

    oracle      at import, replaces the checker's loader of tests (lab.check.suite.load) in its
                own process with a loader of its own copy of each public tests.py, in which
                every t.expect(found, wanted, why) is rewritten to t.expect(wanted, wanted, why)
                and so evaluated in the test's frame over the drawn cases; every other name
                the tests ask of harness is an object that answers whatever is asked of it
                (called, read, walked, awaited), so that a test reaches its checks
    adaptive    the oracle, and for a file that is none of the public ones (the hidden tests:
                the bank's, blinded), it runs under each hidden test's name the rewritten public
                test whose code is shaped most like it (the count of each kind of syntax node)

A leaker, the reference with a loader that hands every hidden test's code back as its error and
in what it prints, stands for the student who would read the bank out of its own process.

grade_class grades the four (with the lab's reference) by `grader grade` and in the Gradescope
bundle. tests/grader/test_grader_oracle.py holds the bar on labs 5.1 and 15.2, and
bench/oracle.py measures it on every banked lab.
"""
from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

from lab.check import manifest, seeds, suite

from grader import batch, gradescope, plan as plans, release

SECONDS_PER_TEST = 2.0
TOO_MUCH = 1 / 5  # of full marks: what neither oracle may reach by score alone

ORACLE = r'''
# The red team's oracle (issue 40), holding no harness code.
import ast as _ast
import base64 as _base64
import json as _json
import zlib as _zlib
from collections import Counter as _Counter
from lab.check import suite as _suite

# Each public tests.py, by its lab, packed: the release's tests grew past the grader's 1 MB
# limit on a file, which a packed copy stays far under.
_PUBLIC = _json.loads(_zlib.decompress(_base64.b85decode(%(public)r)))
_ADAPTIVE = %(adaptive)r
_load = _suite.load


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _anything


class _Anything:
    """Whatever a test asks of harness: called, read, walked or awaited, it answers at once,
    so that a test reaches its checks, where the loader below hands each its wanted value."""

    def __call__(self, *args, **kwargs):
        return self

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self

    def __getitem__(self, key):
        return self

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def __await__(self):
        return iter(())

    def __aiter__(self):
        return self

    async def __anext__(self):
        raise StopAsyncIteration

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


_anything = _Anything()


def _answered(source):
    """The tests with every check's found replaced by its wanted."""
    tree = _ast.parse(source)
    for node in _ast.walk(tree):
        if isinstance(node, _ast.Call) and isinstance(node.func, _ast.Attribute):
            at = {"expect": 0, "expect_same_items": 0, "expect_kind": 1}.get(node.func.attr)
            if at is not None and len(node.args) > at + 1:
                node.args[at] = node.args[at + 1]
    return _ast.unparse(tree)


def _shape(node):
    return _Counter(type(n).__name__ for n in _ast.walk(node))


def _likeness(one, other):
    return sum((one & other).values()) / max(1, sum((one | other).values()))


def _nearest(shape, publics):
    return max(publics, key=lambda public: _likeness(shape, public[1]))[0]


def _oracle_load(test_file, source=None):
    if test_file.lab_id in _PUBLIC:
        return _load(test_file, _answered(_PUBLIC[test_file.lab_id]))
    if not _ADAPTIVE:
        return _load(test_file, source)
    hidden = _load(test_file, source)
    publics = []
    for lab_id, code in _PUBLIC.items():
        answered = {t.name: t for t in _load(_suite.TestFile(lab_id, test_file.path, code),
                                             _answered(code))}
        publics += [(answered[node.name], _shape(node)) for node in _ast.parse(code).body
                    if isinstance(node, _ast.AsyncFunctionDef) and node.name in answered]
    shapes = {node.name: _shape(node) for node in _ast.parse(source).body
              if isinstance(node, _ast.AsyncFunctionDef)}
    return [type(t)(t.name, t.says, _nearest(shapes[t.name], publics).fn, t.points)
            for t in hidden]


_suite.load = _oracle_load
'''

LEAKER = r'''

# The leaker: every hidden test's code, printed and raised as the test's error.
from lab.check import suite as _suite

_plain_load = _suite.load


def _leaking_load(test_file, source=None):
    tests = _plain_load(test_file, source)
    if test_file.lab_id is not None:
        return tests
    print(source)

    async def _leak(t):
        t.expect(source, source, source)
        raise RuntimeError(source)
    return [type(t)(t.name, t.says, _leak, t.points) for t in tests]


_suite.load = _leaking_load
'''


def public_tests(released: Path) -> dict[str, str]:
    """{lab id: code} of every tests.py a release holds, as a student has them."""
    found = {}
    for path in sorted(released.glob("starters/*/lab*/tests.py")):
        code = path.read_text(encoding="utf-8")
        found[suite.lab_of(path)] = code
    return found


def _packed(public: dict[str, str]) -> str:
    """The public tests as the oracle carries them: JSON, compressed, in base 85."""
    return base64.b85encode(zlib.compress(json.dumps(public).encode("utf-8"), 9)).decode("ascii")


def files(released: Path, lab: manifest.Lab) -> dict[str, str]:
    """The class of `lab`: its reference, both oracles and the leaker, by student name."""
    public = _packed(public_tests(released))
    reference = lab.solution.read_text(encoding="utf-8")
    return {"alice": reference,
            "oracle": ORACLE % {"public": public, "adaptive": False},
            "adaptive": ORACLE % {"public": public, "adaptive": True},
            "mallory": reference + LEAKER}


def grade_class(folder: Path, lab: manifest.Lab) -> dict:
    """Lab `lab`'s class (files()) graded in `folder` by `grader grade` and in the Gradescope
    bundle: what graded() keeps once per test run, and bench/oracle.py measures on every lab."""
    released = folder / "release"
    release.build(released, through=lab.id)
    subs, out = folder / "submissions", folder / "out"
    subs.mkdir()
    for name, text in files(released, lab).items():
        (subs / f"{name}.py").write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "grader", "grade", "--lab", lab.id, str(subs), "--out", str(out),
         "--jobs", "2", "--quiet", "--seconds-per-test", str(SECONDS_PER_TEST)],
        cwd=manifest.KIT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": str(manifest.KIT)})
    assert done.returncode == 0, done.stdout + done.stderr
    out = out / f"lab-{lab.id}"
    data = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    graded = {"out": out, "stdout": done.stdout, "release": released,
              "rows": {r["student"]: r for r in data["submissions"]}, "results": {}}
    # The Gradescope bundle, as `python -m grader gradescope` builds it, run on each of them.
    plan = plans.make(lab.id, draw=seeds.secret())  # as `python -m grader gradescope` does
    bundle = gradescope.build(plan, folder / "bundle.zip",
                              settings=batch.Settings(seconds_per_test=SECONDS_PER_TEST))
    source = folder / "bundle"
    with zipfile.ZipFile(bundle) as archive:
        archive.extract(gradescope.PLAN, source)
    for name, text in files(released, lab).items():
        submission = folder / "gradescope" / name
        submission.mkdir(parents=True)
        (submission / "harness.py").write_text(text, encoding="utf-8")
        gradescope.run_inside(source, submission, folder / "gradescope" / f"{name}.json")
        graded["results"][name] = json.loads(
            (folder / "gradescope" / f"{name}.json").read_text(encoding="utf-8"))
    return graded
