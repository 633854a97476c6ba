"""Designs a lesson allows pass their lab: no test may require a harness less safe than the
lesson allows. Each is a small change to its lab's reference (tools/wrong_designs.py's Wrong,
used here for the change alone), judged by the lab's own tests under the public seed and
under other seeds, against the reference recorded under each."""
import pytest

from lab.check import manifest, record, runner, seeds, suite
from tools import wrong_designs

ALLOWED = [
    wrong_designs.Wrong(
        lab="14.1", name="a deny-list that also refuses rm -fr and rm -r -f",
        rule="deny_destructive refuses any bash command holding rm -rf; refusing more spellings "
             "of the same command is only safer.",
        where="issue 23", names="",
        replace='''    if name == "bash" and "rm -rf" in str(arguments.get("command")):''',
        by='''    spellings = ("rm -rf", "rm -fr", "rm -r -f", "rm -f -r", "rm -Rf")
    if name == "bash" and any(s in " ".join(str(arguments.get("command")).split())
                              for s in spellings):'''),
    wrong_designs.Wrong(
        lab="12.1", name="find_cut adding up from the newest row, as Tau does",
        rule="The walk stops at the row where the kept total reaches keep_recent_tokens; adding "
             "up a total instead of spending a budget is the same walk.",
        where="lesson 12, Your code beside Tau's (the cut)", names="",
        replace='''    left, start = keep_recent_tokens, len(rows)
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
        start -= 1
        left -= estimate_tokens([rows[start][1]])
    if left > 0:
        return 0  # everything fits''',
        by='''    total, start = 0, None
    for index in range(len(rows) - 1, -1, -1):
        total += estimate_tokens([rows[index][1]])
        if total >= keep_recent_tokens:
            start = index
            break
    if start is None:
        return 0  # everything fits'''),
]


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
