"""A lab with a grading bank (source/bank/NN-slug/labK.py, grader/bank.py) is held to its ledger
(grader/ledger.py) and to its reference: every bank test serves a rule, every rule has two to
four, the reference passes them all, each design of a rule fails enough of that rule's bank tests
that every draw a grading run makes catches it, under one of three seeds (a run's seed picks
which; all three with randomly off, as a kill author runs them), and a file whose every function
returns one value passes none. A file of its own, apart from the ledger's other tests: its
designs' runs are most of the ledger's time (tests/scheduling.py hands it to the workers a lab
at a time).
"""
import pytest

from grader import bank, ledger
from lab.check import manifest, record, runner, seeds, suite
from tests.authoring.ledger_cases import (BANK_SEEDS, DESIGNS, LEDGERED, RULES,
                                          shown_bank as _shown_bank, where as _where)
from tools import wrong_designs

BANKED = [lab_id for lab_id in LEDGERED if bank.has_bank(lab_id)]


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
def test_the_reference_passes_the_whole_bank(recorded, lab_id, seed):
    try:
        file, found = recorded(lab_id, seed)
    except record.ReferenceFailed as failed:
        pytest.fail(f"lab {lab_id}'s reference fails its grading bank ({_shown_bank(lab_id)}) "
                    f"under seed {seed}: the bank is wrong, or the reference is\n{failed}")
    assert sorted(found) == sorted(f"{bank.NAME}::{name}" for name in ledger.test_names(
        bank.path_of(lab_id).read_text(encoding="utf-8"))), "a bank test made no record"
    assert all(found[test]["checks"] for test in found), (
        f"a test of {_shown_bank(lab_id)} makes no check on the reference, so it passes any "
        "file: " + ", ".join(test for test in found if not found[test]["checks"]))
    # Recording runs the reference with no guard; a grading run gives each test the checker's
    # allowance of processor time, and a bank test the reference cannot finish within it fails
    # every submission (lab 12.2's summariser test once did, at 0.7 s).
    report = runner.run(manifest.lab(lab_id).solution, [file], found)
    stopped = [f"{o.id}: {o.message}" for o in report.outcomes if o.verdict != "pass"]
    assert not stopped, (
        f"lab {lab_id}'s reference passes its grading bank ({_shown_bank(lab_id)}) when "
        f"recorded under seed {seed}, but not when checked as a submission is, within the "
        "checker's limits, so no file can pass these tests:\n" + "\n".join(stopped))


BANK_BROKEN = [(rule, DESIGNS[f"{rule.lab}: {name}"]) for rule in RULES if rule.lab in BANKED
               for name in rule.designs if f"{rule.lab}: {name}" in DESIGNS]


@pytest.fixture(scope="module")
def bank_runs(tmp_path_factory, recorded):
    """bank_runs(design id, seed): the bank tests that design fails, worked out when first asked
    and kept for the module, so a run narrowed with -k runs only the designs it selects. A design
    runs only the bank tests of the rules it is listed under, cut from the bank as a grading run
    cuts its draw (bank._keeping), against the reference's record of the whole bank under the
    seed: a test draws its cases by its own name, so the cut leaves each test's cases as they
    were, and the other rules' tests were no evidence here."""
    tested: dict[str, set[str]] = {}
    for rule, design in BANK_BROKEN:
        tested.setdefault(design.id, set()).update(rule.bank)
    failed: dict[tuple[str, int], set[str]] = {}

    def get(design_id, seed):
        if (design_id, seed) not in failed:
            design = DESIGNS[design_id]
            file, expected = recorded(design.lab, seed)
            folder = tmp_path_factory.mktemp(f"design-{design.lab}-{seed}")
            cut = bank._keeping(file.source, tested[design_id])
            (folder / file.path.name).write_text(cut, encoding="utf-8")
            harness = folder / "harness.py"
            harness.write_text(wrong_designs.harness(design), encoding="utf-8")
            report = runner.run(harness, [suite.TestFile(None, folder / file.path.name, cut)],
                                expected)
            failed[design_id, seed] = {o.id.partition("::")[2] for o in report.outcomes
                                       if o.verdict != "pass"}
        return failed[design_id, seed]
    return get


@pytest.mark.parametrize("rule, design", BANK_BROKEN,
                         ids=[f"{r.id}: {d.name}" for r, d in BANK_BROKEN])
def test_a_design_fails_every_draw_of_the_bank_tests_of_the_rule_it_breaks(bank_runs, bank_seeds,
                                                                           rule, design):
    """A run draws bank.kept(n) of a rule's n bank tests, so a design must fail n - kept + 1
    of them (one of two, two of three or four) for every draw to catch it."""
    needed = len(rule.bank) - bank.kept(len(rule.bank)) + 1
    passed = [seed for seed in bank_seeds
              if len(bank_runs(design.id, seed) & set(rule.bank)) < needed]
    assert not passed, (
        f"{design.id} breaks {rule.id} ({_where(rule.lab)}, item {rule.item}), but fewer than "
        f"{needed} of the rule's bank tests {list(rule.bank)} ({_shown_bank(rule.lab)}) fail it "
        f"under seed{'s' if len(passed) > 1 else ''} {', '.join(map(str, passed))}: it fails "
        f"{sorted(bank_runs(design.id, passed[0])) or 'nothing'} there, so a run that draws "
        f"{bank.kept(len(rule.bank))} of them can miss it. Write a scenario of the rule that "
        "this design cannot pass, whatever the draw.")


STUBS = ["None", "[]", "{}", "''", "0", "True"]


@pytest.mark.parametrize("lab_id", BANKED)
def test_a_harness_whose_every_function_answers_alike_passes_no_bank_test(tmp_path, recorded,
                                                                         lab_id):
    """A file with no harness code whose every name is a function giving the same value (an
    empty list, None, ...) passes no bank test: a bank scenario that only checks what must not
    happen (the record unchanged) would give such a file its points."""
    file, expected = recorded(lab_id, seeds.PUBLIC)
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
