"""course start LAB --mine: the next starter made from the student's own passing file."""
from __future__ import annotations


import pytest

from lab.check import manifest
from lab.desk import carry, course, definitions

BUILT = manifest.labs(built_only=True)


@pytest.mark.parametrize("before, lab", list(zip(BUILT, BUILT[1:])), ids=[x.id for x in BUILT[1:]])
def test_the_previous_reference_is_rebuilt_from_a_starter_and_its_diff(before, lab):
    rebuilt = carry.previous_reference(lab.starter.read_text(encoding="utf-8"),
                                       (lab.content / "changes.diff").read_text(encoding="utf-8"))
    assert rebuilt == before.solution.read_text(encoding="utf-8")


def passed(lab_id, text):
    """A lab folder holding `text` as harness.py, recorded as passing its check."""
    lab = manifest.lab(lab_id)
    course.start(lab_id, force=True)
    (course.work() / lab.folder / "harness.py").write_text(text, encoding="utf-8")
    course.record_check(lab_id, 10, 0)


def test_own_lines_the_next_lab_leaves_alone_are_carried_into_its_starter(work, capsys):
    import difflib
    reference = manifest.lab("5.1").solution.read_text(encoding="utf-8").splitlines(keepends=True)
    starter = manifest.lab("6.1").starter.read_text(encoding="utf-8").splitlines(keepends=True)
    # a note in the middle of a long stretch that 6.1 leaves as it was
    stretch = max((op for op in difflib.SequenceMatcher(None, reference, starter).get_opcodes()
                   if op[0] == "equal"), key=lambda op: op[2] - op[1])
    middle = (stretch[1] + stretch[2]) // 2
    mine = "".join(reference[:middle] + ["# my notes: done on Tuesday\n"] + reference[middle:])
    passed("5.1", mine)
    course.start("6.1", mine=True)
    made = (work / manifest.lab("6.1").folder / "harness.py").read_text(encoding="utf-8")
    kit = manifest.lab("6.1").starter.read_text(encoding="utf-8")
    assert made.replace("# my notes: done on Tuesday\n", "", 1) == kit
    assert "# my notes: done on Tuesday" in made
    assert "from your own lab 5.1 file" in capsys.readouterr().out


def test_a_line_both_changed_falls_back_to_the_kits_starter_and_keeps_the_students_file(
        work, capsys):
    before, lab = manifest.lab("5.1"), manifest.lab("6.1")
    reference = before.solution.read_text(encoding="utf-8")
    starter = lab.starter.read_text(encoding="utf-8")
    # a line of code of the reference that 6.1's starter changes, edited by the student too
    changed = next(line for line in reference.splitlines(keepends=True)
                   if line.strip() and not line.lstrip().startswith("#")
                   and line not in starter.splitlines(keepends=True))
    mine = reference.replace(changed, changed.rstrip("\n") + "  # mine\n", 1)
    passed("5.1", mine)
    course.start("6.1", mine=True)
    place = work / lab.folder
    assert (place / "harness.py").read_text(encoding="utf-8") == starter
    assert (place / "harness.mine.py").read_text(encoding="utf-8") == mine
    said = capsys.readouterr().out
    assert "nothing was merged" in said and "harness.mine.py" in said
    where = next(part.name for part in definitions.split(mine)
                 if changed.rstrip("\n") + "  # mine\n" in part.body)
    assert f"this lab changes `{where}` where you changed the same lines (lines " in said


def test_mine_waits_until_the_previous_lab_passes(work):
    course.start("5.1", force=True)
    with pytest.raises(course.CourseError, match="once it passes its check"):
        course.start("6.1", mine=True, force=True)
    assert not (work / manifest.lab("6.1").folder / "harness.py").exists()
