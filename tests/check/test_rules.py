"""A check's rule is read once, where the test's declaration enters the reference's record, into
a type (lab/check/rules.py) the judge decides on; its sentence is written back from that type
exactly as the test declared it."""
import glob
from pathlib import Path

from lab.check import seeds
from lab.check.rules import Credit, Rule

KIT = Path(__file__).resolve().parents[2]


def test_every_kit_rule_is_written_back_as_its_test_declared_it():
    rules = 0
    for path in sorted(glob.glob(str(KIT / "starters/*/lab*/expected.json"))):
        for test_id, data in seeds.loads(Path(path).read_text(encoding="utf-8")).items():
            record = seeds.Expectation.from_dict(data)
            for why, rule in zip(record.why, record.rules, strict=True):
                rules += 1
                assert rule.said == why, (
                    f"{test_id}'s rule reads back otherwise than its test declared it:\n"
                    f"  declared: {why!r}\n  written:  {rule.said!r}\n"
                    "lab/check/rules.py's Rule.declared takes it apart wrongly")
    assert rules > 500, f"only {rules} rules found under starters/: the kit's records moved?"


def test_a_rule_holds_its_credits_and_items_as_types():
    rule = Rule.declared("The run stops; the items are [content, is_error] "
                         "(Harness.steer and run_agent, lesson 9).")
    assert rule.items == ("content", "is_error"), rule
    assert rule.credits == (Credit(("Harness.steer", "run_agent"), 9,
                                   "(Harness.steer and run_agent, lesson 9)"),), rule
    plain = Rule.declared("A rule that credits nothing.")
    assert (plain.items, plain.credits, plain.said) == (None, (), "A rule that credits nothing.")


def test_a_credit_the_judge_changed_is_written_from_its_fields():
    rule = Rule.declared("A view leaves out a failure (context_for_model, lesson 5).")
    moved = rule.credited(frozenset({"run_agent", "lab_only_helper"}))
    assert moved.credits == (Credit(("run_agent",), 5),), moved
    assert moved.said == "A view leaves out a failure (run_agent, lesson 5)."
    assert rule.credited(frozenset()) is rule, "an unknown reach changed the rule"
