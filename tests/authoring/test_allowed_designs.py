"""Designs a lesson allows pass their lab: no test may require a harness less safe than the
lesson allows. Each is a small change to its lab's reference, kept in the catalogue's ALLOWED
lists (source/wrong_designs/, read by tools/wrong_designs.allowed) and named by the rule that
allows it in the ledger (grader/ledger.py), judged by the lab's own tests under the public seed and
under another, against the reference recorded under each.

The other seed is one of OTHER, drawn by the run's seed (both with randomly off), so two runs
between them try each design under every seed while a run pays for one; the reference is
recorded once per lab and seed, not once per design."""
import pytest

from lab.check import manifest, record, runner, seeds, suite
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
