"""course start LAB --mine on a file a student really wrote: it began as the previous lab's
starter (standard or guided), its gaps are filled in their own words under the gap notes they
kept, with their own comments and names. Their code must reach the next starter."""
from __future__ import annotations

import difflib
import re

import pytest

from lab.check import manifest
from lab.desk import carry, course, definitions

BUILT = manifest.labs(built_only=True)
PAIRS = {lab.id: (before, lab) for before, lab in zip(BUILT, BUILT[1:])}
OWN = "# mine: done my way\n"


def passed(lab_id, text):
    """A lab folder holding `text` as harness.py, recorded as passing its check."""
    course.start(lab_id, force=True)
    (course.work() / manifest.lab(lab_id).folder / "harness.py").write_text(text, encoding="utf-8")
    course.record_check(lab_id, 10, 0)


def filled(began: str, reference: str) -> str:
    """`began` as a student leaves it: each gap's notes kept, the given lines inside it
    replaced, and the reference's code typed under it with a comment of their own above and
    a note at the end of each line."""
    ours, theirs = began.splitlines(keepends=True), reference.splitlines(keepends=True)
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or i1 == 0:  # the header stays the starter's
            out += ours[i1:i2]
            continue
        out += [line for line in ours[i1:i2] if line.lstrip().startswith("#")]
        first = next((line for line in theirs[j1:j2] if line.strip()), None)
        if first is not None:
            out.append(first[:len(first) - len(first.lstrip())] + OWN)
        out += [line.rstrip("\n") + "  # mine\n" if line.strip() else line
                for line in theirs[j1:j2]]
    return "".join(out)


def unmarked(text: str) -> str:
    return "".join(line.replace("  # mine\n", "\n") for line in text.splitlines(keepends=True)
                   if not line.endswith(OWN))


def started(work, lab_id):
    return (work / manifest.lab(lab_id).folder / "harness.py").read_text(encoding="utf-8")


# The labs after which the next lab leaves the code just written alone (the others reopen it:
# 4.1 puts a gap around a line of 3.1's write tool, 9.1 rewrites 8.1's Agent, and so on).
@pytest.mark.parametrize("lab_id", ["3.1", "5.1", "6.1", "7.2", "8.1", "10.1", "14.1", "16.1"])
@pytest.mark.parametrize("level", ["starter", "guided"])
def test_a_students_filled_gaps_and_comments_are_carried_into_the_next_starter(
        work, capsys, lab_id, level):
    before, lab = PAIRS[lab_id]
    mine = filled(getattr(before, level).read_text(encoding="utf-8"),
                  before.solution.read_text(encoding="utf-8"))
    passed(before.id, mine)
    course.start(lab.id, mine=True)
    made = started(work, lab.id)
    assert "from your own lab" in capsys.readouterr().out
    assert unmarked(made) == lab.starter.read_text(encoding="utf-8")
    assert made.count(OWN) == mine.count(OWN) > 0


FILLS_51 = {  # gap of 5.1 -> the student's code, typed under its notes
    "gap 1 of 4": "    # my version: an empty reply that failed\n"
                  "    msg = {\"role\": \"assistant\", \"content\": []}\n"
                  "    msg[\"stop_reason\"] = \"error\"\n"
                  "    msg[\"error_message\"] = text\n"
                  "    return msg\n",
    "gap 2 of 4": "        if max_turns is not None and turn > max_turns:\n"
                  "            # over the cap: stop before paying for another call\n"
                  "            reply = error_message(\"Agent stopped after max_turns=\" + "
                  "str(max_turns))\n"
                  "        else:\n"
                  "            view = context_for_model(messages)\n"
                  "            reply = model.complete(system, view, tool_specs(tools))\n",
    "gap 3 of 4": "        if reply[\"stop_reason\"] == \"error\":\n"
                  "            calls = []  # a failed reply is not acted on\n"
                  "        else:\n"
                  "            calls = tool_calls(reply)\n",
    "gap 4 of 4": "    out = []\n"
                  "    for m in messages:\n"
                  "        refused = m[\"role\"] == \"assistant\" and not m[\"content\"] "
                  "and m.get(\"stop_reason\") == \"error\"\n"
                  "        if not refused:\n"
                  "            out.append(m)\n"
                  "    return out\n",
}
GIVEN_IN_GAPS_51 = ("        reply = model.complete(system, messages, tool_specs(tools))\n",
                    "        calls = tool_calls(reply)\n")
RENAMED = ('block["text"] for block in message["content"] if block["type"] == "text"',
           'part["text"] for part in message["content"] if part["type"] == "text"')


def students_51() -> str:
    """Lab 5.1 as a student filled it: their code under each gap's notes, the given lines in
    the gaps rewritten, and a local of a given function renamed."""
    text = manifest.lab("5.1").starter.read_text(encoding="utf-8")
    for line in GIVEN_IN_GAPS_51:
        text = text.replace(line, "", 1)
    for gap, code in FILLS_51.items():
        end = text.index("# --- end ---\n", text.index(gap)) + len("# --- end ---\n")
        text = text[:end] + code + text[end:]
    assert RENAMED[0] in text
    return text.replace(*RENAMED)


def test_lab_51_filled_in_a_students_own_words_starts_61_with_their_code(work, capsys):
    began = manifest.lab("5.1").starter.read_text(encoding="utf-8").splitlines(keepends=True)
    reference = manifest.lab("5.1").solution.read_text(encoding="utf-8").splitlines(keepends=True)
    fills = [("".join(reference[j1:j2]), code) for (op, i1, _, j1, j2), code in zip(
        [op for op in difflib.SequenceMatcher(None, began, reference, autojunk=False)
         .get_opcodes() if op[0] != "equal" and op[1] > 0], FILLS_51.values(), strict=True)]
    passed("5.1", students_51())
    course.start("6.1", mine=True)
    assert "from your own lab 5.1 file with this lab's changes merged in" in \
        capsys.readouterr().out
    # the kit's 6.1 starter, with each of 5.1's reference fills as the student wrote it
    expected = manifest.lab("6.1").starter.read_text(encoding="utf-8").replace(*RENAMED)
    for kits, students in fills:
        assert kits in expected
        expected = expected.replace(kits, students, 1)
    assert started(work, "6.1") == expected


def test_a_conflict_names_the_students_own_lines_and_keeps_their_file(work, capsys):
    before, lab = PAIRS["4.1"]  # 4.1 puts a gap around a line of the student's write tool
    mine = filled(before.starter.read_text(encoding="utf-8"),
                  before.solution.read_text(encoding="utf-8"))
    passed(before.id, mine)
    course.start(lab.id, mine=True)
    said = capsys.readouterr().out
    assert "nothing was merged" in said
    place = work / lab.folder
    assert (place / "harness.py").read_text(encoding="utf-8") == \
        lab.starter.read_text(encoding="utf-8")
    assert (place / "harness.mine.py").read_text(encoding="utf-8") == mine
    lines = mine.splitlines()
    named = re.search(r"\(lines ([\d, -]+) of your lab 3\.1 file\)", said).group(1)
    for span in named.split(", "):
        first, _, last = span.partition("-")
        chunk = lines[int(first) - 1:int(last or first)]
        assert any(line.endswith("# mine") for line in chunk), chunk


def test_the_file_a_student_began_from_is_the_one_whose_header_it_keeps():
    lab = manifest.lab("5.1")
    standard, guided = (path.read_text(encoding="utf-8") for path in (lab.starter, lab.guided))
    reference = lab.solution.read_text(encoding="utf-8")
    candidates = [standard, guided, reference]
    assert carry.started_from(guided.replace("# Tests:", "# tests:"), candidates) == guided
    assert carry.started_from(reference + "# mine\n", candidates) == reference
    assert carry.started_from("# my own header\n" + standard, candidates) == standard


NAME_HEADER = "# Ada Lovelace, student 1001: my lab 5.1\n"
HELPER = ("\n\n# my own helper: the last message's role, for printing while I debug\n"
          "def last_role(messages):\n"
          "    return messages[-1][\"role\"] if messages else None\n")
IMPORT = "import math  # mine: for a budget I tried\n"


def test_a_name_header_comments_a_helper_an_import_and_a_gap_6_1_changes_are_all_carried(
        work, capsys):
    """Issue 44: a student's name above the header, their comments, a helper and an import of
    their own, and lab 5.1's gap in run_agent filled, a function 6.1 changes too (it drops a
    comment line near the gap): merged definition by definition, all of it reaches 6.1."""
    mine = students_51()
    docstring = next(line for line in mine.splitlines(keepends=True) if line.startswith('"""'))
    mine = NAME_HEADER + mine.replace(docstring, docstring + IMPORT, 1)
    at = mine.index("\n\n\n# given in lesson 5: a new parameter, max_turns\ndef run_agent")
    mine = mine[:at] + HELPER + mine[at:]
    passed("5.1", mine)
    course.start("6.1", mine=True)
    assert "from your own lab 5.1 file with this lab's changes merged in" in \
        capsys.readouterr().out
    made = started(work, "6.1")
    assert made.startswith(NAME_HEADER + "# harness.py for lab 6.1"), made[:300]
    assert IMPORT in made and HELPER.strip() in made
    for code in FILLS_51.values():
        assert code in made, f"the student's gap code was not carried:\n{code}"
    kit = {p.name: p for p in definitions.split(manifest.lab("6.1").starter.read_text(
        encoding="utf-8"))}
    run_agent = next(p for p in definitions.split(made) if p.name == "def run_agent")
    dropped = "        # given in lesson 5: a count of model calls, for the check at the top of " \
              "each turn\n"
    assert dropped not in run_agent.body and dropped not in kit["def run_agent"].body
    assert FILLS_51["gap 2 of 4"] in "".join(run_agent.body)
    names = [p.name for p in definitions.split(made)]
    assert [n for n in names if n not in kit] == ["import math", "def last_role"]
    assert [n for n in kit if n not in names] == []
    compile(made, "harness.py", "exec")  # still Python


def test_a_real_conflict_names_the_definition_both_changed(work, capsys):
    before, lab = PAIRS["4.1"]  # 4.1 puts a gap around a line of the student's write tool
    passed(before.id, filled(before.starter.read_text(encoding="utf-8"),
                             before.solution.read_text(encoding="utf-8")))
    course.start(lab.id, mine=True)
    said = capsys.readouterr().out
    assert "this lab changes `def make_write_tool`, `def make_bash_tool` where you changed " \
           "the same lines (lines " in said, said
