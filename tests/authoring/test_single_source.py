"""The single source: starters, solutions and the reference's observations are what the tools
make, and the source itself keeps to its grammar."""
import json

import pytest

from lab.check import manifest, record, suite
from tools import labsource, make

from conftest import BUILT


def test_committed_starters_and_solutions_are_what_the_source_makes():
    assert make.differences(make.lab_files()) == [], \
        "A file under starters/ or solutions/ differs from source/harness.src.py: run `python -m tools.make labs`."


def test_committed_expected_observations_are_current():
    assert make.differences(make.expected_files()) == [], \
        "lab/tests/expected/ is out of date: run `python -m tools.make expected`."


@pytest.mark.parametrize("lab_id", BUILT)
def test_gaps_are_numbered_one_to_n_and_each_is_marked(lab_id):
    lab = manifest.lab(lab_id)
    tree = labsource.parse(labsource.SOURCE.read_text(encoding="utf-8"))
    numbers = [gap.number for gap in labsource.gaps(tree, lab_id)]
    assert numbers == list(range(1, len(numbers) + 1)), f"lab {lab_id} gaps are numbered {numbers}"
    starter = lab.starter.read_text(encoding="utf-8")
    for n in numbers:
        assert f"{labsource.OPEN} gap {n} of {len(numbers)}:" in starter
    lines = [line.strip() for line in starter.splitlines()]
    assert sum(line.startswith(labsource.OPEN) for line in lines) == lines.count(labsource.CLOSE)
    assert labsource.OPEN not in lab.solution.read_text(encoding="utf-8")


def test_every_generated_file_compiles():
    for path, text in make.lab_files().items():
        if path.suffix == ".py":  # not the changes.diff beside each starter
            compile(text, str(path), "exec")


def test_a_directive_outside_its_block_is_refused_with_its_line():
    with pytest.raises(labsource.SourceError, match="line 2"):
        labsource.parse("x = 1\n#: starter\n")
    with pytest.raises(labsource.SourceError, match="never closed"):
        labsource.parse("x = 1\n#: from 15.1\ny = 2\n")


def test_a_gap_renders_before_during_and_after_its_lab():
    tree = labsource.parse("x = 1\n#: gap 15.1 1 the value\ny = 2\n#: starter\n# fill y\n#: before\ny = 0\n#: end\n")
    assert labsource.render(tree, "14.1", "solution") == "x = 1\ny = 0\n"
    assert labsource.render(tree, "15.1", "solution") == "x = 1\ny = 2\n"
    assert labsource.render(tree, "15.1", "starter") == \
        "x = 1\n# --- your code --- gap 1 of 1: the value\n# fill y\n# --- end ---\n"
    assert labsource.render(tree, "15.2", "starter") == "x = 1\ny = 2\n"


@pytest.mark.parametrize("lab_id", BUILT)
def test_recording_twice_gives_the_same_observations(lab_id):
    lab = manifest.lab(lab_id)
    files = suite.of_lab(lab_id, cumulative_=False)
    assert record.record(lab.solution, files) == record.record(lab.solution, files)


@pytest.mark.parametrize("lab_id", BUILT)
def test_every_test_makes_a_check_that_cannot_be_guessed(lab_id):
    """A verdict rests on values the student's process reports; a test made only of True/False
    checks could be passed by a file that reports True everywhere."""
    observed = json.loads(manifest.lab(lab_id).expected.read_text(encoding="utf-8"))
    for test_id, entry in observed.items():
        rich = [c for c in entry["checks"] if c not in ("true", "false")]
        assert rich, f"{test_id} checks only booleans"
