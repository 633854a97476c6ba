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
        lab="16.1", name="decode_line dropping exactly one space after data:, as SSE says",
        rule="The space after `data:` is optional; the SSE rule drops one if present, and a "
             "JSON payload parses with or without more.",
        where="issue 23", names="",
        replace='''    payload = line[len("data:"):].strip()''',
        by='''    payload = line[len("data:"):]
    payload = payload[1:] if payload.startswith(" ") else payload'''),
    wrong_designs.Wrong(
        lab="16.1", name="assemble that stops walking at the first error chunk",
        rule="An error chunk fails the reply with its message; the lesson does not say whether "
             "what follows it is read.",
        where="issue 23", names="",
        replace='''            failure = failure or chunk["error"]["message"]''',
        by='''            failure = failure or chunk["error"]["message"]
            break  # nothing after an error counts'''),
    wrong_designs.Wrong(
        lab="16.2", name="a reader that yields a turn on every lap, line or no line",
        rule="Polling may give the loop a turn on each lap; lines still arrive one a turn, so "
             "[DONE] and Stop are heard as soon.",
        where="issue 23", names="",
        replace='''                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue''',
        by='''                await asyncio.sleep(0)  # a turn on every lap
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)
                if not response.ready():
                    continue'''),
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
