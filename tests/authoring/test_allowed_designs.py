"""Designs a lesson allows pass their lab: no test may require a harness less safe than the
lesson allows. Each is a small change to its lab's reference, kept in the catalogue's ALLOWED
lists (source/wrong_designs/, read by tools/wrong_designs.allowed) and named by the rule that
allows it in the ledger (grader/ledger.py), judged by the lab's own tests under the public seed and
under another, against the reference recorded under each.

The other seed is one of OTHER, drawn by the run's seed (both with randomly off), so two runs
between them try each design under every seed while a run pays for one; the reference is
recorded once per lab and seed, not once per design.

A design of a lab with a grading bank (grader/bank.py) must pass the whole bank as well: the
grade rests on it, and a student whose file makes a choice the page allows loses no marks for
it. It is tried under this run's share of the seeds the ledger's tests try the bank under
(ledger_cases.BANK_SEEDS; all three with randomly off), against the reference's record of the
bank made once per lab and seed (the `recorded` fixture, tests/conftest.py)."""
import pytest

from grader import bank, ledger
from lab.check import manifest, record, runner, seeds, suite
from tests.authoring.ledger_cases import shown_bank
from tools import wrong_designs

ALLOWED = wrong_designs.allowed()
OTHER = (7, 20230923)
_recorded: dict[tuple[str, int], seeds.Expected] = {}


def expected(lab_id, files, seed):
    """The reference's observations on `files` under `seed`, recorded once per lab and seed."""
    if seed == seeds.PUBLIC:
        return runner.expected_for(files)
    if (lab_id, seed) not in _recorded:
        _recorded[lab_id, seed] = record.record(manifest.lab(lab_id).solution, files, seed=seed)
    return _recorded[lab_id, seed]


@pytest.fixture
def other_seeds(this_runs_share):
    """The seeds besides the public one that this run tries each design under."""
    return this_runs_share(OTHER)


@pytest.mark.parametrize("under", ["public", "other"])
@pytest.mark.parametrize("design", ALLOWED, ids=[d.id for d in ALLOWED])
def test_a_design_the_lesson_allows_passes_its_own_lab(design, under, other_seeds, tmp_path):
    path = tmp_path / "harness.py"
    path.write_text(wrong_designs.harness(design), encoding="utf-8")
    files = suite.of_lab(design.lab, cumulative_=False)
    failed = []
    for seed in (seeds.PUBLIC,) if under == "public" else other_seeds:
        report = runner.run(path, files, expected(design.lab, files, seed))
        failed += [f"under seed {seed}: {o.says}\n{o.message}" for o in report.outcomes
                   if o.verdict != "pass"]
    assert not failed, f"{design.id} is allowed ({design.rule}) but fails:\n" + "\n".join(failed)


BANKED = [design for design in ALLOWED if bank.has_bank(design.lab)]


def _allowing(design):
    """The rule of the ledger that allows `design` (grader/ledger.py), as a failure names it."""
    rules = [rule for rule in ledger.of_lab(design.lab) if design.name in rule.allows]
    return "; ".join(f"{rule.id} ({rule.file}), which a student reads as "
                     f"\"{ledger.sentence(rule)}\"" for rule in rules) or \
        f"no rule of lab {design.lab}'s ledger yet"


def _serving(lab_id, test_name):
    """The sentence a student reads for a failed bank test: its rule's (grader/bank.py)."""
    rules = [rule for rule in ledger.of_lab(lab_id) if test_name in rule.bank]
    return ledger.sentence(rules[0]) if rules else "(a bank test that serves no rule)"


@pytest.mark.parametrize("design", BANKED, ids=[d.id for d in BANKED])
def test_a_design_the_lesson_allows_passes_its_labs_whole_grading_bank(design, bank_seeds,
                                                                         recorded, tmp_path):
    harness = tmp_path / "harness.py"
    harness.write_text(wrong_designs.harness(design), encoding="utf-8")
    failed = []
    for seed in bank_seeds:
        file, expected = recorded(design.lab, seed)
        report = runner.run(harness, [file], expected)
        failed += [f"under seed {seed}, {o.id.partition('::')[2]}, which a student who fails it "
                   f"reads as \"{_serving(design.lab, o.id.partition('::')[2])}\"\n"
                   f"  {o.says}\n  {o.message}" for o in report.outcomes if o.verdict != "pass"]
    assert not failed, (
        f"{design.id} is a design the lesson allows ({design.where}: {design.rule}), by "
        f"{_allowing(design)}; but it fails lab {design.lab}'s grading bank "
        f"({shown_bank(design.lab)}), so a student whose file makes that choice loses marks "
        "in grading. Make the bank test accept it as the lab's public tests do, or, if the page "
        "does not allow it, move it from ALLOWED to a Wrong design of its rule:\n"
        + "\n".join(failed))
