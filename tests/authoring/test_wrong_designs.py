"""Every wrong design a lesson names fails the lab that teaches its rule, and says which rule.

Each entry of the catalogue (source/wrong_designs/, see tools/wrong_designs.py) is applied to
its lab's reference and checked with that lab's own tests by lab_check.py's engine, in a child
process (tests/check/catalogue_runs.py, whose runs the practice check's test shares): at least
one of them must fail, and a failing test's sentence or message must hold the
entry's `names`, so the student reads the rule they broke, not a symptom elsewhere; and the
class page must name the design beside that failure from its facts alone (the test's sentence,
the rule it broke, the function it stopped in: grader/page/teaching.py's designs_like), never
from the words the kit made of it.
"""
import pytest

from grader.page import teaching
from grader.page.facts import STOPPED_IN
from lab.check import manifest
from tests.check import catalogue_runs
from tools import wrong_designs

DESIGNS = wrong_designs.catalogue()


@pytest.mark.parametrize("design", DESIGNS, ids=[d.id for d in DESIGNS])
def test_the_wrong_design_fails_its_own_lab_naming_the_rule(tmp_path_factory, design):
    report = catalogue_runs.checked(tmp_path_factory, design)
    failed = [o for o in report.outcomes if o.verdict != "pass"]
    assert failed, (f"{design.id} ({design.where}) passes every test of lab {design.lab}, "
                    f"though it breaks the rule: {design.rule}")
    said = [f"{o.says}\n{o.message}" for o in failed]
    assert any(design.names.lower() in text.lower() for text in said), (
        f"{design.id} fails lab {design.lab}, but no failure names its rule "
        f"({design.names!r}); the failures say:\n" + "\n---\n".join(said[:4]))
    named = [o.id for o in failed if any(
        d["name"] == design.name for d in teaching.designs_like(
            design.lab, o.says, [o.rule] if o.rule else [],
            [o.cause.function] if isinstance(o.cause, STOPPED_IN) and o.cause.function else []))]
    assert named, (f"{design.id} fails lab {design.lab}, but the class page would not name it "
                   "beside any failure: no failing test's sentence or broken rule holds "
                   f"{design.names!r}, or not in the function the design is named for")


def test_every_built_lab_has_at_least_one_wrong_design_in_the_catalogue():
    covered = {d.lab for d in DESIGNS}
    missing = [lab.id for lab in manifest.labs(built_only=True) if lab.id not in covered]
    assert not missing, f"labs with no wrong design in source/wrong_designs/: {missing}"


def test_an_entry_whose_lines_are_not_in_the_reference_is_refused():
    design = wrong_designs.Wrong(lab="2.1", name="nowhere", rule="r", where="w", names="n",
                                 replace="this line is in no reference", by="")
    with pytest.raises(wrong_designs.CatalogueError, match="occurs 0 times"):
        wrong_designs.harness(design)


def test_every_place_a_design_quotes_is_in_its_lesson():
    """A `where` that quotes a heading or a line ("When the loop asks") points a reader at the
    lesson; a heading renamed since would send them nowhere."""
    import re
    lost = []
    for design in DESIGNS:
        text = manifest.lab(design.lab).lesson.source.read_text(encoding="utf-8")
        lost += [f"{design.id}: {quoted!r}" for quoted in re.findall(r'"([^"]+)"', design.where)
                 if quoted not in text]
    assert not lost, "catalogue entries quote places their lesson no longer has:\n" + \
        "\n".join(lost)
