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
    wrong_designs.Wrong(
        lab="13.1", name="the prompt and the tool keys in the student's own words",
        rule="Lesson 13 leaves the opening sentence, the sentence over the skills index and the "
             "tools' snippets and guidelines to the student (\"The wording is yours\"); only the "
             "headings, the forms of the lines and the order are given.",
        where='section "Build: say what is there"', names="",
        replace='''        "snippet": "Read a file's contents",
        "guidelines": ["Read files with read, not with cat or sed.",
                       "Name the files you touch by their paths."],''',
        by='''        "snippet": "Open a file and show it",
        "guidelines": ["Look at a file before you change it.",
                       "Always say which paths you changed."],''',
        also=(('''        "snippet": "Create or replace a file",
        "guidelines": ["Use write for new files and for rewriting a whole file.",
                       "Name the files you touch by their paths."],''',
               '''        "snippet": "Save a whole file",
        "guidelines": ["Write whole files only.", "Always say which paths you changed."],'''),
              ('''        "snippet": "Run a shell command",
        "guidelines": ["Before running a command, say what it is for."],''',
               '''        "snippet": "Run a command in the shell",
        "guidelines": ["Explain a command before you run it."],'''),
              ('''    parts = ["You are a coding assistant working in the user's project."]''',
               '''    parts = ["You help with the code in this repository."]'''),
              ('''            ["Skills are instruction files for particular kinds of task. Before starting a "
             "task that fits a description, read its file."] +''',
               '''            ["When a task matches one of these skills, read its file first:"] +'''))),
    wrong_designs.Wrong(
        lab="13.1", name="guidelines kept once by dict.fromkeys",
        rule="Any way of listing each guideline once, first seen first, keeps the rule: a dict "
             "keeps its keys in the order they were first put in.",
        where='section "The tool lines" (first seen, first listed)', names="",
        replace='''    advice = []
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
                advice.append(line)''',
        by='''    advice = list(dict.fromkeys(line for tool in tools
                                for line in tool.get("guidelines", [])))'''),
    wrong_designs.Wrong(
        lab="13.1", name="discover_context by posixpath",
        rule="Any walk from the root down to cwd that ignores the parts \"\" and \".\" keeps the "
             "rule, however it builds the paths.",
        where='section "Build: say what is there" (discover_context)', names="",
        replace='''    steps = [step for step in cwd.split("/") if step not in ("", ".")]
    found = []
    for depth in range(len(steps) + 1):  # the root first, then one folder deeper each time
        name = "".join(step + "/" for step in steps[:depth]) + "AGENTS.md"
        if ws.exists(name):
            found.append((name, ws.read_text(name)))
    return found''',
        by='''    import posixpath
    folder, found = posixpath.normpath(cwd or "."), []
    while True:
        name = posixpath.normpath(posixpath.join(folder, "AGENTS.md"))
        if ws.exists(name):
            found.insert(0, (name, ws.read_text(name)))
        if folder in (".", "/", ""):
            return found
        folder = posixpath.dirname(folder) or "."'''),
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
        replace='''            failure = failure or str(error if said is None else said)''',
        by='''            failure = failure or str(error if said is None else said)
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
