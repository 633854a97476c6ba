"""The ledger of rules (grader/ledger.py) agrees with what it stands between: every item of a
lab's Build list "what must hold" is in it, checked by a test of the lab that exists and broken
alone by a catalogue design that fails one of those tests; and every test of the lab checks an
item, so nothing is tested that the student was not told.

Every built lab is held to its ledger: a new lab comes with its Build list and its rules.toml.
A lab with a grading bank is held to it in test_ledger_bank.py.
"""
import pytest

from lab.check import manifest
from tests.authoring.ledger_cases import DESIGNS, LEDGERED, RULES, where as _where
from tests.check import catalogue_runs
from grader import ledger
from tools import wrong_designs

BROKEN = [(rule, DESIGNS[f"{rule.lab}: {name}"]) for rule in RULES if rule.lab in LEDGERED
          for name in rule.designs if f"{rule.lab}: {name}" in DESIGNS]


@pytest.mark.parametrize("lab_id", LEDGERED)
def test_the_build_list_and_the_ledger_hold_the_same_items(lab_id):
    listed = sorted(ledger.build_items(lab_id))
    ledgered = [rule.item for rule in ledger.of_lab(lab_id)]
    assert listed, f"lab {lab_id} has no numbered list of what must hold in {_where(lab_id)}"
    assert ledgered == listed, (
        f"lab {lab_id}: {_where(lab_id)} numbers its rules {listed}, but its rules.toml has "
        f"{ledgered}: each item of the list needs exactly one [[rule]], and no more")


@pytest.mark.parametrize("lab_id", LEDGERED)
def test_every_rule_has_a_test_and_a_design_that_exist(lab_id):
    tests = set(ledger.tests_of(lab_id))
    lost = []
    for rule in ledger.of_lab(lab_id):
        if not rule.tests:
            lost.append(f"{rule.id}: no test checks it")
        lost += [f"{rule.id}: no test {name} in {manifest.lab(lab_id).tests.name}"
                 for name in rule.tests if name not in tests]
        if not rule.designs:
            lost.append(f"{rule.id}: no catalogue design breaks it")
        lost += [f"{rule.id}: no design {name!r} of lab {lab_id} in source/wrong_designs/"
                 for name in rule.designs if f"{lab_id}: {name}" not in DESIGNS]
    assert not lost, f"lab {lab_id}'s ledger ({rule.file}) names what is not there:\n" + \
        "\n".join(lost)


@pytest.mark.parametrize("lab_id", LEDGERED)
def test_every_test_of_the_lab_serves_a_rule(lab_id):
    served = {name for rule in ledger.of_lab(lab_id) for name in rule.tests}
    idle = [name for name in ledger.tests_of(lab_id) if name not in served]
    assert not idle, (f"lab {lab_id}'s tests check rules its Build list does not state: "
                      f"{idle}; add them to a rule in the ledger, or the rule to the list")


@pytest.mark.parametrize("lab_id", LEDGERED)
def test_every_design_of_the_lab_breaks_a_rule_of_the_ledger(lab_id):
    placed = {name for rule in ledger.of_lab(lab_id) for name in rule.designs}
    loose = [design.name for design in DESIGNS.values()
             if design.lab == lab_id and design.name not in placed]
    assert not loose, (f"lab {lab_id}'s catalogue designs break no rule of its ledger: {loose}; "
                       f"name each under the rule it breaks")


@pytest.mark.parametrize("lab_id", LEDGERED)
def test_what_a_rule_allows_is_an_allowed_design_of_its_lab(lab_id):
    allowed = {design.name for design in wrong_designs.allowed() if design.lab == lab_id}
    lost = [f"{rule.id}: {name!r}" for rule in ledger.of_lab(lab_id) for name in rule.allows
            if name not in allowed]
    assert not lost, ("the ledger allows designs that are not in the catalogue's ALLOWED lists "
                      "(source/wrong_designs/), where their lab's tests are held to pass them:\n"
                      + "\n".join(lost))


def test_every_rule_belongs_to_a_built_lab():
    """A rules.toml entry for a lab the course does not build would be read by no test here."""
    unheld = sorted({rule.lab for rule in RULES} - set(LEDGERED), key=manifest.key)
    assert not unheld, f"rules.toml names labs the course does not build: {unheld}"


@pytest.mark.parametrize("rule, design", BROKEN, ids=[f"{r.id}: {d.name}" for r, d in BROKEN])
def test_a_design_fails_a_test_of_the_rule_it_breaks(tmp_path_factory, rule, design):
    report = catalogue_runs.checked(tmp_path_factory, design)
    failed = sorted(o.id.partition("::")[2] for o in report.outcomes if o.verdict != "pass")
    assert set(failed) & set(rule.tests), (
        f"{design.id} breaks {rule.id} ({_where(rule.lab)}, item {rule.item}), but none of that "
        f"rule's tests {list(rule.tests)} fails it; it fails {failed or 'nothing'}")


def test_a_rule_without_its_designs_is_refused_naming_the_file(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text('[[rule]]\nlab = "2.1"\nitem = 1\ntests = ["test_text_of"]\n',
                    encoding="utf-8")
    with pytest.raises(ledger.LedgerError, match="rules.toml: a \\[\\[rule\\]\\] needs lab, item, "
                                                 "tests and designs"):
        ledger._rules_of(path)
