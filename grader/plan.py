"""What a grading run grades: the lab, its test files, the reference's observations, and points.

A plan is built once per batch from the kit's metadata (lab/check/manifest.py, lab/check/suite.py) and the
instructor's extra hidden tests, if any. It is plain data, so it can be sent to worker processes
and written into a Gradescope bundle, where no solution is present: the observations of the
extra tests are recorded against the reference when the plan is made, not when it is used.

Seeds: a plan judges under one seed. `make(..., seed=seeds.secret())` records the reference's
observations of the kit's tests under that seed when the plan is made, as it does for extra
tests, so a grading run's cases are ones no released expected.json holds; with the public
seed the kit's expected.json files are used as they are.

Points: a test's points are the `points=` its @lab_test decorator gives, else the `points` of its
lab in lesson.toml (default 1). An extra test without `points=` takes the graded lab's.

The grading bank (grader/bank.py): for a lab that has one, a plan made with `draw` (a grading
run's seed: grader/pipeline.py; one drawn for a Gradescope bundle) holds a subset of it drawn
under `draw` as one more hidden file, recorded on the reference like an extra one, and the
points are shared out so that the public tests (the kit's files) are worth the lesson's
`public_share` of what they were worth alone, and the bank's tests the rest, equally. The
instructor's extra tests keep their own points, on top.
"""
from __future__ import annotations

import ast
import hashlib
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from lab.check import manifest, record, runner, seeds, suite
from lab.check.errors import Unblindable, UnknownLab
from lab.check.verdict import sets_line

from grader import bank
from grader.errors import PlanError
from grader.refusals import (BankFails, ExtraEmpty, ExtraFails, ExtraNamedTwice, ExtraUnblindable,
                              ExtraUnparsed, NoExtra, NoSolutions, NotBuilt, SeedMismatch,
                              UnknownLabAsked)


@dataclass
class Test:
    id: str
    says: str
    lab: str | None  # None for an instructor's extra test
    set: str  # the set it belongs to: "lab 15.1" or the extra file's name
    points: float
    checks: int  # how many checks the reference made in it
    hidden: bool = False  # an instructor's extra test, which students do not have


@dataclass
class Extra:
    """An instructor's hidden tests file: its name (hidden_name), its code, what the reference
    observed, and the file's own name, which its tests' set is labelled with."""
    name: str
    source: str
    expected: dict
    file: str = ""
    # For the grading bank's subset: each test's rule as a student reads it, {name: sentence}.
    rules: dict = field(default_factory=dict)


@dataclass
class Plan:
    lab: str
    own_lab_only: bool = False
    extras: list[Extra] = field(default_factory=list)
    tests: list[Test] = field(default_factory=list)
    seed: int = seeds.PUBLIC
    recorded: dict | None = None  # the kit tests' observations under a seed not the public
    share: float | None = None  # the public tests' share of the grade; None: no bank drawn

    @property
    def max_score(self) -> float:
        return points(sum(t.points for t in self.tests))

    @property
    def sets(self) -> list[dict]:
        """Each set that runs, in order, with how many tests and checks it holds (§6.13)."""
        out: dict[str, dict] = {}
        for t in self.tests:
            entry = out.setdefault(t.set, {"set": t.set, "tests": 0, "checks": 0,
                                           "hidden": t.hidden})
            entry["tests"] += 1
            entry["checks"] += t.checks
        return list(out.values())

    def bank_line(self) -> str:
        """What the grade rests on, in one line (grader/bank.py's words)."""
        return bank.line(self.lab, self.share, sum(t.set == bank.SET for t in self.tests))

    def sets_line(self) -> str:
        """The checker's "Sets run:" line for this plan, so a student reads the same line in
        their feedback as from the local checker."""
        return sets_line([(s["set"], s["tests"], s["checks"]) for s in self.sets])

    def fingerprint(self) -> str:
        """Changes whenever what is graded or how it scores changes, so that a resumed batch
        never reuses a result graded under another plan."""
        files = [(f.stem, f.source) for f in self.kit_files()]
        data = [self.lab, self.own_lab_only, self.seed, files, self.expected(),
                [(e.name, e.source) for e in self.extras], [(t.id, t.points) for t in self.tests]]
        if self.extras:  # a row graded before hidden tests ran apart may hold what they printed
            data.append("hidden tests apart")
        text = json.dumps(data, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def kit_files(self) -> list[suite.TestFile]:
        return suite.of_lab(self.lab, cumulative_=not self.own_lab_only)

    def files(self, folder: Path) -> list[suite.TestFile]:
        """The test files to run: the kit's, then each extra file, named as if in `folder` but
        written nowhere, so that no process of a submission's can read it from a disk. Its code
        reaches only the process that runs it, blinded, over the runner's channel (see
        grader/batch.py); the full code, with the wanted values, stays in the grader."""
        return self.kit_files() + [suite.TestFile(None, Path(folder) / f"{extra.name}.py",
                                                  extra.source) for extra in self.extras]

    def expected(self) -> seeds.Expected:
        """Every test's observations on the reference, under the plan's seed: the run draws
        under the seed these carry, so kit records made under another would grade silently
        under theirs (a plan under a secret seed whose reference was never recorded)."""
        found = seeds.Expected(self.recorded, self.seed) if self.recorded is not None else \
            runner.expected_for(self.kit_files())
        if found.seed != self.seed:
            raise PlanError(SeedMismatch(self.seed, found.seed))
        for extra in self.extras:
            found.update(extra.expected)
        return found

    def to_dict(self) -> dict:
        return {"lab": self.lab, "own_lab_only": self.own_lab_only, "seed": self.seed,
                "recorded": self.recorded, "share": self.share,
                "extras": [{**vars(e), "expected": dict(e.expected)} for e in self.extras],
                "tests": [vars(t) for t in self.tests]}

    @classmethod
    def from_dict(cls, data: dict) -> "Plan":
        return cls(lab=data["lab"], own_lab_only=data.get("own_lab_only", False),
                   extras=[Extra(**e) for e in data.get("extras", [])],
                   tests=[Test(**t) for t in data.get("tests", [])],
                   seed=data.get("seed", seeds.PUBLIC), recorded=data.get("recorded"),
                   share=data.get("share"))


def points(total: float) -> float:
    """A sum of points as every report keeps it: to six places, since a lab graded on its bank
    shares its points out in fractions whose float sums carry noise (49.00000000000001), which
    would make full marks differ from the maximum and exports differ from grades.json."""
    return round(total, 6)


def reseeded(plan: Plan, seed: int) -> Plan:
    """`plan` judging under `seed`: the reference's observations of the kit's tests and of each
    extra test recorded again under it, here, before any submission runs. The Gradescope
    bundle draws its seed when it grades, from the reference it carries for this alone."""
    lab = manifest.lab(plan.lab)
    if not lab.solution.is_file():
        raise PlanError(NoSolutions(lab.name, "seed"))
    again = Plan(lab=plan.lab, own_lab_only=plan.own_lab_only, tests=list(plan.tests), seed=seed,
                 share=plan.share)
    again.recorded = dict(record.record(lab.solution, again.kit_files(), seed=seed))
    again.extras = [Extra(e.name, e.source, _record_extra(lab, e.name, e.source, seed), e.file,
                          e.rules) for e in plan.extras]
    return again


def hidden_name(path: Path) -> str:
    """What an extra tests file runs as, and its tests' ids begin with: hidden_ and its stem,
    the prefix once, so that a file an instructor named hidden_5_1.py gives hidden_5_1::..."""
    return path.stem if path.stem.startswith("hidden_") else "hidden_" + path.stem


def _record_extra(lab, name: str, source: str, seed: int) -> dict:
    """The reference's observations of one extra tests file under `seed`."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        try:
            return dict(record.record(lab.solution, [suite.TestFile(None, path, source)],
                                      seed=seed))
        except record.ReferenceFailed as exc:
            if name == bank.NAME:
                raise PlanError(BankFails(lab.id, bank.path_of(lab.id),
                                          tuple(exc.failures))) from None
            raise PlanError(ExtraFails(lab.id, name, tuple(exc.failures))) from None


def points_in(source: str) -> dict[str, float]:
    """{function name: points} for each @lab_test(..., points=N) in a test file's code."""
    return {test.name: test.points for test in suite.declared(source, "")
            if test.points is not None}


def make(lab_id: str, *, own_lab_only: bool = False, extra_tests=(),
         seed: int = seeds.PUBLIC, draw: int | None = None) -> Plan:
    """The plan for grading `lab_id`: the cumulative suite (or only the lab's own tests), then,
    given `draw`, the subset of the lab's grading bank drawn under it (a class's grade; a
    Classroom scorer, which runs in the student's repository, has none), then each extra tests
    file; the bank's and the extra files' observations are recorded here on the lab's
    reference, all under `seed`; under a seed other than the public one the kit's tests are
    recorded here on the reference too, before any submission runs."""
    try:
        lab = manifest.lab(lab_id)
    except UnknownLab as exc:
        raise PlanError(UnknownLabAsked(exc.fact)) from None
    if lab.reference_only or not lab.tests.exists():
        raise PlanError(NotBuilt(lab.name))
    plan = Plan(lab=lab.id, own_lab_only=own_lab_only, seed=seed)
    if seed != seeds.PUBLIC:
        if not lab.solution.is_file():
            raise PlanError(NoSolutions(lab.name, "seed"))
        plan.recorded = dict(record.record(lab.solution, plan.kit_files(), seed=seed))
    extras_files = []
    names: dict[str, str] = {}
    for given in extra_tests:
        path = Path(given)
        if not path.is_file():
            raise PlanError(NoExtra(path))
        source = path.read_text(encoding="utf-8")
        name = hidden_name(path)
        if name in names:
            raise PlanError(ExtraNamedTwice(names[name], path.name, name))
        names[name] = path.name
        try:
            ast.parse(source)
        except SyntaxError as exc:
            raise PlanError(ExtraUnparsed(path, str(exc))) from None
        try:  # refused here, before any submission runs beside a hidden wanted value
            suite.blind(source, path.name)
        except Unblindable as exc:
            raise PlanError(ExtraUnblindable(exc.fact)) from None
        extras_files.append((name, source, path.name))
    if extras_files:
        if not lab.solution.is_file():
            raise PlanError(NoSolutions(lab.name, "extra"))
        for name, source, file in extras_files:
            if not suite.declared(source, name):
                raise PlanError(ExtraEmpty(file))
            plan.extras.append(Extra(name, source, _record_extra(lab, name, source, seed), file))
    # The bank runs after the instructor's own hidden files, which keep the place they had
    # before a lab had a bank.
    subset = bank.drawn(lab.id, draw) if draw is not None else None
    if subset is not None:
        if not lab.solution.is_file():
            raise PlanError(NoSolutions(lab.name, "bank"))
        plan.share = bank.public_share(lab.id)
        plan.extras.append(Extra(bank.NAME, subset.source,
                                 _record_extra(lab, bank.NAME, subset.source, seed), bank.SET,
                                 subset.rules))
    expected = plan.expected()
    for test_file in plan.kit_files():
        kit_lab = test_file.lab
        for test in suite.declared(test_file.source, test_file.stem):
            plan.tests.append(Test(test.id, test.says, kit_lab.id, f"lab {kit_lab.id}",
                                   kit_lab.points if test.points is None else test.points,
                                   len(expected.get(test.id, {}).get("checks", ()))))
    public = sum(t.points for t in plan.tests)
    for extra in plan.extras:
        declared = suite.declared(extra.source, extra.name)
        for test in declared:
            checks = len(extra.expected.get(test.id, {}).get("checks", ()))
            if extra.rules:  # the bank: its sentence is its rule's, its points the bank's share
                assert plan.share is not None, "a bank's plan has the public tests' share"
                plan.tests.append(Test(test.id, extra.rules[test.name], None, bank.SET,
                                       public * (1 - plan.share) / len(declared), checks,
                                       hidden=True))
            else:
                plan.tests.append(Test(test.id, test.says, None, f"{extra.file} (hidden)",
                                       lab.points if test.points is None else test.points,
                                       checks, hidden=True))
    if plan.share is not None:
        for graded in plan.tests:
            if not graded.hidden:
                graded.points *= plan.share
    return plan
