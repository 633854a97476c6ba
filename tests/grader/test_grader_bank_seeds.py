"""A grading run records the reference on its bank subset under the folder's secret seed, and
stops with "a fault of the kit's" if the reference fails there (grader/plan.py). So each banked
lab's reference must pass its whole bank under any seed, not only the few the ledger's tests
try: lab 15.2's bank once failed under 1 seed in 20 (a reply that could land before the Stop
its scenario pressed). Two hundred seeds a lab, recorded in this process, take seconds."""
import pytest

from lab.check import manifest, record, suite

from grader import bank

SEEDS = range(1000, 1200)
BANKED = [lab.id for lab in manifest.labs(built_only=True) if bank.has_bank(lab.id)]


@pytest.mark.parametrize("lab_id", BANKED)
def test_the_reference_passes_its_whole_bank_under_two_hundred_seeds(lab_id):
    path = bank.path_of(lab_id)
    source = path.read_text(encoding="utf-8")
    file = suite.TestFile(None, path, source)
    failed = {}
    for seed in SEEDS:
        try:
            record.record(manifest.lab(lab_id).solution, [file], seed=seed)
        except record.ReferenceFailed as exc:
            failed[seed] = exc.failures
    assert not failed, (
        f"lab {lab_id}'s reference fails its grading bank ({path.relative_to(manifest.KIT)}) "
        f"under {len(failed)} of {len(SEEDS)} seeds, so `grader grade` stops on any folder "
        f"whose secret seed is one of them; the scenario is wrong where its draw lets the "
        f"reference find another value. Seeds {sorted(failed)[:10]}; under the first:\n"
        + "\n".join(failed[min(failed)]))
