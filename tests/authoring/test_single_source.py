"""The single source: starters (at both levels), solutions and the reference's observations are
what the tools make, and the source itself keeps to its grammar."""

import pytest

from lab.check import manifest, record, runner, seeds, suite
from tools import labsource, make

from conftest import BUILT

TREE = labsource.parse(labsource.SOURCE.read_text(encoding="utf-8"))


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


def test_guided_is_a_directive_of_a_gap_only():
    with pytest.raises(labsource.SourceError, match="line 2: 'guided' outside a gap"):
        labsource.parse("x = 1\n#: guided\n")


def test_a_gap_shows_its_contract_in_the_standard_starter_and_its_recipe_in_the_guided_one():
    tree = labsource.parse("x = 1\n#: gap 15.1 1 the value\ny = 2\n#: starter +before\n# y must be 2\n"
                           "#: guided +before\n# add one to y\n#: before\ny = 1\n#: end\n"
                           "#: gap 15.1 2 plain\nz = 3\n#: starter\n# z must be 3\n#: end\n")
    gap = "# --- your code --- gap {} of 2: {}"
    assert labsource.render(tree, "15.1", "starter") == "\n".join(["x = 1",
        gap.format(1, "the value"), "# y must be 2", "y = 1", labsource.CLOSE,
        gap.format(2, "plain"), "# z must be 3", labsource.CLOSE]) + "\n"
    assert labsource.render(tree, "15.1", "guided") == "\n".join(["x = 1",
        gap.format(1, "the value"), "# add one to y", "y = 1", labsource.CLOSE,
        gap.format(2, "plain"), "# z must be 3", labsource.CLOSE]) + "\n"  # no recipe: the contract
    assert labsource.render(tree, "15.2", "guided") == "x = 1\ny = 2\nz = 3\n"


@pytest.mark.parametrize("lab_id", BUILT)
def test_a_starter_says_what_it_is_and_how_to_check_it_and_nothing_of_the_build(lab_id):
    lab = manifest.lab(lab_id)
    for path in (lab.starter, lab.guided):
        head = path.read_text(encoding="utf-8").splitlines()[:3]
        assert f"lab {lab.id}, \"{lab.title}\"" in head[0], f"{path}: {head[0]}"
        assert head[2].endswith(f"python lab/lab_check.py --harness harness.py --lesson "
                                f"{lab.lesson.number} tests.py"), f"{path}: {head[2]}"
        text = path.read_text(encoding="utf-8")
        assert "tools/make.py" not in text and "harness.src.py" not in text, \
            f"{path} names how the kit is built, which a student's copy does not have"


@pytest.mark.parametrize("lab_id", BUILT)
def test_the_two_levels_differ_in_every_lab(lab_id):
    lab = manifest.lab(lab_id)
    assert lab.starter.read_text(encoding="utf-8") != lab.guided.read_text(encoding="utf-8")


def gap_cases():
    return [(lab_id, gap.number, gap.name) for lab_id in BUILT for gap in labsource.gaps(TREE, lab_id)]


@pytest.mark.parametrize("lab_id, number, name", gap_cases())
def test_each_gap_left_empty_at_the_guided_level_fails_its_labs_tests(tmp_path, lab_id, number,
                                                                     name):
    """tests/check/test_cumulative.py checks the standard level the same way."""
    lab = manifest.lab(lab_id)
    path = tmp_path / "harness.py"
    path.write_text(labsource.make(lab, "guided", open_only=number, tree=TREE), encoding="utf-8")
    files = suite.of_lab(lab_id, cumulative_=False)
    report = runner.run(path, files, runner.expected_for(files))
    assert any(o.verdict != "pass" for o in report.outcomes), \
        f"lab {lab_id}'s guided starter with only gap {number} ({name}) open passes every test"


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
    observed = seeds.loads(manifest.lab(lab_id).expected.read_text(encoding="utf-8"))
    for test_id, entry in observed.items():
        rich = [c for c in entry["checks"] if c not in ("true", "false")]
        assert rich, f"{test_id} checks only booleans"
