"""A grading run records the reference on the public tests and its bank subset under the
folder's secret seed, and stops with "a fault of the kit's" if the reference fails there
(grader/plan.py). So each lab's reference must pass its own public tests and its whole bank
under any seed, not only the few the ledger's tests try: lab 15.2's bank once failed under 1
seed in 20 (a reply that could land before the Stop its scenario pressed), and lab 12.1's
public tests under 29 seeds in 100 (a cut drawn at a result of an earlier batch than the last,
found only when a grading test's secret seed hit one).

Each run tries twenty seeds a lab, drawn afresh from the run's own seed (pytest-randomly's, which
the run prints at its top), so that the runs between them try thousands rather than the same
hundred every time: one run finds a fault of 1 seed in 20 with a chance of 64 %, one of 29 in
100 all but surely, and every later run tries again. Forty seeds a lab cost the README's command
about 45 s more processor time, which CI's twenty minutes could no longer spare.
`-p randomly --randomly-seed=N` tries run N's seeds again; with randomly off
(`-p no:randomly`), the first twenty of the span are tried."""
import random

import pytest

from lab.check import manifest, record, suite

from grader import bank

A_RUN = 20
SPAN = range(1000, 1_000_000)
BUILT = [lab.id for lab in manifest.labs(built_only=True)]
BANKED = [lab_id for lab_id in BUILT if bank.has_bank(lab_id)]


@pytest.fixture(scope="module")
def seeds(run_seed):
    """This run's seeds: A_RUN of SPAN, drawn from the run's seed."""
    if run_seed is None:
        return list(SPAN[:A_RUN])
    return sorted(random.Random(run_seed).sample(SPAN, A_RUN))


def failures(lab_id: str, files: list, seeds: list[int]) -> dict[int, list[str]]:
    """The seeds under which recording lab `lab_id`'s reference on `files` fails, each with the
    failures it gave."""
    failed = {}
    for seed in seeds:
        try:
            record.record(manifest.lab(lab_id).solution, files, seed=seed)
        except record.ReferenceFailed as exc:
            failed[seed] = exc.failures
    return failed


@pytest.mark.parametrize("lab_id", BANKED)
def test_the_reference_passes_its_whole_bank_under_twenty_seeds_drawn_for_the_run(seeds, lab_id):
    path = bank.path_of(lab_id)
    source = path.read_text(encoding="utf-8")
    failed = failures(lab_id, [suite.TestFile(None, path, source)], seeds)
    assert not failed, (
        f"lab {lab_id}'s reference fails its grading bank ({path.relative_to(manifest.KIT)}) "
        f"under {len(failed)} of this run's {len(seeds)} seeds, so `grader grade` stops on any "
        f"folder whose secret seed is one of them; the scenario is wrong where its draw lets the "
        f"reference find another value. Seeds {sorted(failed)[:10]}; under the first:\n"
        + "\n".join(failed[min(failed)]))


@pytest.mark.parametrize("lab_id", BUILT)
def test_the_reference_passes_its_own_public_tests_under_twenty_seeds_drawn_for_the_run(seeds,
                                                                                       lab_id):
    files = suite.of_lab(lab_id, cumulative_=False)
    failed = failures(lab_id, files, seeds)
    shown = ", ".join(str(f.path.relative_to(manifest.KIT)) for f in files)
    assert not failed, (
        f"lab {lab_id}'s reference fails its own public tests ({shown}) under {len(failed)} of "
        f"this run's {len(seeds)} seeds, so a grading run whose secret seed is one of them stops "
        f"on a fault of the kit's, and a student's local check under --seed fails the reference's "
        f"own answer; the test is wrong where its draw lets the reference find another value. "
        f"Seeds {sorted(failed)[:10]}; under the first:\n" + "\n".join(failed[min(failed)]))
