"""The ledger of rules (grader/ledger.py) agrees with what it stands between: every item of a
lab's Build list "what must hold" is in it, checked by a test of the lab that exists and broken
alone by a catalogue design that fails one of those tests; and every test of the lab checks an
item, so nothing is tested that the student was not told.

Every built lab is held to its ledger: a new lab comes with its Build list and its rules.toml.
A lab with a grading bank (source/bank/NN-slug/labK.py) is held to it too: every bank test serves
a rule, every rule has two to four, the reference passes them all, each design of a rule fails
enough of that rule's bank tests that every draw a grading run makes catches it, under the public
seed and two others, and a file whose every function returns one value passes none.
"""
import pytest

from grader import bank
from lab.check import manifest, record, runner, seeds, suite
from tests.check import catalogue_runs
from grader import ledger
from tools import wrong_designs

LEDGERED = [lab.id for lab in manifest.labs(built_only=True)]

RULES = ledger.rules()
DESIGNS = {design.id: design for design in wrong_designs.catalogue()}
BROKEN = [(rule, DESIGNS[f"{rule.lab}: {name}"]) for rule in RULES if rule.lab in LEDGERED
          for name in rule.designs if f"{rule.lab}: {name}" in DESIGNS]


def _where(lab_id):
    lab = manifest.lab(lab_id)
    return f"the Build section of {lab.lesson.source.relative_to(manifest.KIT)}"


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
    report = catalogue_runs.runs(tmp_path_factory, design).checked
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


# --- the grading bank (grader/bank.py): scenarios per rule that no student holds --------------

BANKED = [lab_id for lab_id in LEDGERED if bank.has_bank(lab_id)]
# The seeds the bank's designs are tried under: the public one and two more, since a grading
# run draws its cases under a secret seed, and a design must fail under any.
BANK_SEEDS = (seeds.PUBLIC, 4, 2026)


def _bank_file(lab_id, folder):
    source = bank.path_of(lab_id).read_text(encoding="utf-8")
    path = folder / f"{bank.NAME}.py"
    path.write_text(source, encoding="utf-8")
    return suite.TestFile(None, path, source)


def _shown_bank(lab_id):
    return bank.path_of(lab_id).relative_to(manifest.KIT)


@pytest.mark.parametrize("lab_id", BANKED)
def test_every_bank_test_serves_a_rule_and_every_rule_has_two_to_four(lab_id):
    names = ledger.test_names(bank.path_of(lab_id).read_text(encoding="utf-8"))
    rules = ledger.of_lab(lab_id)
    served = [name for rule in rules for name in rule.bank]
    problems = [f"{rule.id} names {len(rule.bank)} bank tests {list(rule.bank)}; it needs 2 to 4"
                for rule in rules if not 2 <= len(rule.bank) <= 4]
    problems += [f"{rule.id} names {name}, which {_shown_bank(lab_id)} does not hold"
                 for rule in rules for name in rule.bank if name not in names]
    problems += [f"{name} serves no rule: name it under a rule's bank in {rules[0].file}"
                 for name in names if name not in served]
    problems += [f"{name} is named under two rules" for name in set(served)
                 if served.count(name) > 1]
    assert not problems, f"lab {lab_id}'s grading bank and its ledger disagree:\n" + \
        "\n".join(problems)


@pytest.mark.parametrize("lab_id", BANKED)
@pytest.mark.parametrize("seed", BANK_SEEDS)
def test_the_reference_passes_the_whole_bank(tmp_path, lab_id, seed):
    try:
        found = record.record(manifest.lab(lab_id).solution, [_bank_file(lab_id, tmp_path)],
                              seed=seed)
    except record.ReferenceFailed as failed:
        pytest.fail(f"lab {lab_id}'s reference fails its grading bank ({_shown_bank(lab_id)}) "
                    f"under seed {seed}: the bank is wrong, or the reference is\n{failed}")
    assert sorted(found) == sorted(f"{bank.NAME}::{name}" for name in ledger.test_names(
        bank.path_of(lab_id).read_text(encoding="utf-8"))), "a bank test made no record"
    assert all(found[test]["checks"] for test in found), (
        f"a test of {_shown_bank(lab_id)} makes no check on the reference, so it passes any "
        "file: " + ", ".join(test for test in found if not found[test]["checks"]))


BANK_BROKEN = [(rule, DESIGNS[f"{rule.lab}: {name}"]) for rule in RULES if rule.lab in BANKED
               for name in rule.designs if f"{rule.lab}: {name}" in DESIGNS]


@pytest.fixture(scope="module")
def bank_runs(tmp_path_factory):
    """Each banked lab's bank, recorded on its reference under each of BANK_SEEDS, and the
    tests each design fails, worked out once per module: {(design id, seed): failed names}."""
    failed = {}
    for lab_id in BANKED:
        folder = tmp_path_factory.mktemp(f"bank-{lab_id}")
        file = _bank_file(lab_id, folder)
        for seed in BANK_SEEDS:
            expected = record.record(manifest.lab(lab_id).solution, [file], seed=seed)
            for design in DESIGNS.values():
                if design.lab != lab_id:
                    continue
                harness = folder / "harness.py"
                harness.write_text(wrong_designs.harness(design), encoding="utf-8")
                report = runner.run(harness, [file], expected)
                failed[design.id, seed] = {o.id.partition("::")[2] for o in report.outcomes
                                           if o.verdict != "pass"}
    return failed


@pytest.mark.parametrize("rule, design", BANK_BROKEN,
                         ids=[f"{r.id}: {d.name}" for r, d in BANK_BROKEN])
def test_a_design_fails_every_draw_of_the_bank_tests_of_the_rule_it_breaks(bank_runs, rule,
                                                                           design):
    """A run draws bank.kept(n) of a rule's n bank tests, so a design must fail n - kept + 1
    of them (one of two, two of three or four) for every draw to catch it."""
    needed = len(rule.bank) - bank.kept(len(rule.bank)) + 1
    passed = [seed for seed in BANK_SEEDS
              if len(bank_runs[design.id, seed] & set(rule.bank)) < needed]
    assert not passed, (
        f"{design.id} breaks {rule.id} ({_where(rule.lab)}, item {rule.item}), but fewer than "
        f"{needed} of the rule's bank tests {list(rule.bank)} ({_shown_bank(rule.lab)}) fail it "
        f"under seed{'s' if len(passed) > 1 else ''} {', '.join(map(str, passed))}: it fails "
        f"{sorted(bank_runs[design.id, passed[0]]) or 'nothing'} there, so a run that draws "
        f"{bank.kept(len(rule.bank))} of them can miss it. Write a scenario of the rule that "
        "this design cannot pass, whatever the draw.")


STUBS = ["None", "[]", "{}", "''", "0", "True"]


@pytest.mark.parametrize("lab_id", BANKED)
def test_a_harness_whose_every_function_answers_alike_passes_no_bank_test(tmp_path, lab_id):
    """A file with no harness code whose every name is a function giving the same value (an
    empty list, None, ...) passes no bank test: a bank scenario that only checks what must not
    happen (the record unchanged) would give such a file its points."""
    file = _bank_file(lab_id, tmp_path)
    expected = record.record(manifest.lab(lab_id).solution, [file])
    passed = {}
    for value in STUBS:
        harness = tmp_path / "harness.py"
        harness.write_text("def __getattr__(name):\n    if name.startswith('__'):\n"
                           "        raise AttributeError(name)\n"
                           f"    return lambda *args, **kwargs: {value}\n", encoding="utf-8")
        report = runner.run(harness, [file], expected)
        passed[value] = [o.id for o in report.outcomes if o.verdict == "pass"]
    assert not any(passed.values()), (
        f"{_shown_bank(lab_id)}: a file whose every function returns one value passes these "
        f"bank tests: { {v: ids for v, ids in passed.items() if ids} }; make each observe "
        "something only a working harness gives")
