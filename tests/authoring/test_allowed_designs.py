"""Designs a lesson allows pass their lab: no test may require a harness less safe than the
lesson allows. Each is a small change to its lab's reference, kept in the catalogue's ALLOWED
lists (source/wrong_designs/, read by tools/wrong_designs.allowed) and named by the rule that
allows it in the ledger (grader/ledger.py), judged by the lab's own tests under the public seed and
under other seeds, against the reference recorded under each."""
import pytest

from lab.check import manifest, record, runner, seeds, suite
from tools import wrong_designs

ALLOWED = wrong_designs.allowed()


@pytest.mark.parametrize("seed", [seeds.PUBLIC, 7, 20230923])
@pytest.mark.parametrize("design", ALLOWED, ids=[d.id for d in ALLOWED])
def test_a_design_the_lesson_allows_passes_its_own_lab(design, seed, tmp_path):
    path = tmp_path / "harness.py"
    path.write_text(wrong_designs.harness(design), encoding="utf-8")
    files = suite.of_lab(design.lab, cumulative_=False)
    expected = runner.expected_for(files) if seed == seeds.PUBLIC else \
        record.record(manifest.lab(design.lab).solution, files, seed=seed)
    report = runner.run(path, files, expected)
    failed = [f"{o.says}\n{o.message}" for o in report.outcomes if o.verdict != "pass"]
    assert not failed, f"{design.id} is allowed ({design.rule}) but fails:\n" + "\n".join(failed)
