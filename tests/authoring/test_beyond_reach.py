"""Designs a lab's check cannot afford to tell apart are recorded as such, and the record is kept
true both ways.

A rule such as "no cap of its own" is broken by a cap of a thousand rounds as surely as by a cap
of ten, but a test of the course may take a few hundred requests and ten thousand turns
(lab/check/turns.py's BUDGET, lab/check/limits.py), and any reach has a cap past it. So such a
design is kept in the catalogue's BEYOND lists (tools/wrong_designs.py's Beyond), under the
rule it breaks in the ledger (`beyond`), with the reach it escapes and a deep test that goes past
it. Here: each passes every test of its own lab, so a new case that catches it moves it to WRONG;
and its deep test, run with the room it names, passes the lab's reference (recording its values raises otherwise) and fails the design
with its rule's words, so an entry cannot claim a design wrong that is not.
"""
import pytest

from lab.check import manifest, record, runner, suite
from lab.check.limits import Limits
from tests.authoring.ledger_cases import RULES
from tools import wrong_designs

BEYOND = wrong_designs.beyond()
IDS = [d.id for d in BEYOND]


def _written(folder, design) -> object:
    path = folder / "harness.py"
    path.write_text(wrong_designs.harness(design), encoding="utf-8")
    return path


def _deep(folder, design) -> list[suite.TestFile]:
    path = folder / f"deep_{manifest.lab(design.lab).test_stem}.py"
    path.write_text(design.deep, encoding="utf-8")
    return [suite.TestFile(design.lab, path, design.deep)]


@pytest.mark.parametrize("design", BEYOND, ids=IDS)
def test_a_design_beyond_reach_passes_every_test_of_its_lab(design, tmp_path):
    files = suite.of_lab(design.lab, cumulative_=False)
    report = runner.run(_written(tmp_path, design), files, runner.expected_for(files))
    assert report.outcomes, f"lab {design.lab}'s tests ran no test on {design.id}"
    caught = [f"{o.id}: {o.says}" for o in report.outcomes if o.verdict != "pass"]
    assert not caught, (
        f"{design.id} is listed as beyond the reach of lab {design.lab}'s tests "
        f"({design.reach}), but they fail it now:\n" + "\n".join(caught) +
        f"\nMove it from BEYOND to WRONG in {design.file}, and from `beyond` to `designs` "
        "in its rule's rules.toml.")


@pytest.mark.parametrize("design", BEYOND, ids=IDS)
def test_past_the_reach_the_deep_test_fails_the_design_naming_its_rule(design, tmp_path):
    files = _deep(tmp_path, design)
    # Recording runs the reference here, and fails on any error or turn past the budget in it
    expected = record.record(manifest.lab(design.lab).solution, files, budget=design.turns)
    room = Limits(budget_turns=design.turns, seconds_per_test=design.seconds * 4,
                  cpu_without_a_turn=design.seconds)
    report = runner.run(_written(tmp_path, design), files, expected, limits=room)
    said = [f"{o.says}\n{o.message}" for o in report.outcomes if o.verdict != "pass"]
    assert said, (f"{design.id}: its deep test passes the design too, so nothing shows it "
                  f"breaks the rule ({design.rule}) past the reach ({design.reach})")
    assert any(design.names.lower() in text.lower() for text in said), (
        f"{design.id} fails its deep test, but no failure names its rule ({design.names!r}):\n"
        + "\n---\n".join(said))


def test_every_design_beyond_reach_is_under_one_rule_of_its_lab():
    placed = [f"{rule.lab}: {name}" for rule in RULES for name in rule.beyond]
    named = {d.id for d in BEYOND}
    loose = sorted(named - set(placed))
    lost = sorted(set(placed) - named)
    twice = sorted({id for id in placed if placed.count(id) > 1})
    assert not (loose or lost or twice), (
        "the ledger's `beyond` lists and the catalogue's BEYOND lists disagree: "
        f"under no rule {loose}; named by a rule but not in BEYOND {lost}; under two rules "
        f"{twice}")
