"""lab.check.suite: reading tests from their decorators, blinding their code, finding a file's
lab and its cumulative suite, and loading a file's tests."""
import ast
import textwrap
from pathlib import Path

import pytest

from lab.check import kit, manifest, suite
from lab.check.errors import NothingToCheck
from lab.check.suite import Declared

from conftest import BUILT

# Top-level code that would stop anything that ran it: reading must not run it.
SOURCE = textwrap.dedent('''
    from lab.kit import lab_test

    raise SystemExit("this file was run")

    @lab_test("""The run stops
                 when asked.""", points=2)
    async def test_stops(t):
        t.expect(1, 1, "one")

    @lab_test("It counts its turns.")
    async def test_counts(t):
        t.expect(2, 2, "two")

    @lab_test("A plain def is not a lab test.")
    def test_plain(t):
        pass

    async def test_undecorated(t):
        pass

    @other("Not the course's decorator.")
    async def test_other(t):
        pass
''')


def test_declared_reads_sentences_names_and_points_in_file_order_without_running_the_file():
    assert suite.declared(SOURCE, "lesson_15_lab1") == [
        Declared("lesson_15_lab1::test_stops", "test_stops", "The run stops when asked.", 2.0),
        Declared("lesson_15_lab1::test_counts", "test_counts", "It counts its turns.", None)]


def test_describe_source_gives_each_tests_id_and_sentence():
    assert suite.describe_source(SOURCE, "mine") == [
        ("mine::test_stops", "The run stops when asked."),
        ("mine::test_counts", "It counts its turns.")]


CHECKS = textwrap.dedent('''
    async def test_x(t):
        t.expect(found, "the-answer-4242", "positional")
        t.expect(found, wanted=[1, 2], why="keyword")
        t.expect(found, why="no wanted at all")
        t.expect(found, "no why")
        t.expect(len(t.expect(a, {"k": 9}, "inner")), 3, "nested")
        check.expect(found, "the-answer-77", "whatever the parameter is called")
        self.t.expect_same_items(found, ["x"], "another kind of check")
        t.check(found, "kept", "not expect")
''')

CHECKS_BLIND = textwrap.dedent('''
    async def test_x(t):
        t.expect(found, ..., "positional")
        t.expect(found, wanted=..., why="keyword")
        t.expect(found, why="no wanted at all")
        t.expect(found, ...)
        t.expect(len(t.expect(a, ..., "inner")), ..., "nested")
        check.expect(found, ..., "whatever the parameter is called")
        self.t.expect_same_items(found, ..., "another kind of check")
        t.check(found, "kept", "not expect")
''')


def test_blind_takes_out_every_wanted_of_every_check_and_nothing_else():
    blinded = suite.blind(CHECKS)
    assert ast.dump(ast.parse(blinded)) == ast.dump(ast.parse(CHECKS_BLIND))
    assert "the-answer-4242" not in blinded and "the-answer-77" not in blinded


# Ways to reach a check that could carry the wanted value past blind(): each is refused, with the
# test and line that does it, rather than shipped.
UNBLINDABLE = {
    "e = t.expect\n    e(found, 42, 'w')": "takes expect without calling it",
    "run = t.expect_same_items": "takes expect_same_items without calling it",
    "steps = [t.expect]": "takes expect without calling it",
    "functools.partial(t.expect, found)(42)": "takes expect without calling it",
    "t.expect(*(found, 42))": "with * or ** arguments",
    "t.expect(found, **{'wanted': 42})": "with * or ** arguments",
    "getattr(t, 'expect')(found, 42)": "names expect in a string",
    "type(t).expect(t, found, 42)": "on something other than the test's checks",
    "kit.Checks.expect(t, found, 42)": "reaches the class Checks",
}


@pytest.mark.parametrize("line", list(UNBLINDABLE))
def test_blind_refuses_a_check_it_cannot_take_the_wanted_value_out_of(line):
    source = f"import functools\n\nasync def test_odd(t):\n    x = 1\n    {line}\n"
    with pytest.raises(suite.Unblindable) as refused:
        suite.blind(source, "secret.py")
    said = str(refused.value)
    assert said.startswith("secret.py, test test_odd, line 5: ") and UNBLINDABLE[line] in said
    assert "t.expect(found, wanted, why)" in said


def test_blind_refuses_a_file_that_imports_the_checks_class():
    with pytest.raises(suite.Unblindable, match="line 1: .*imports the class Checks"):
        suite.blind("from lab.check.kit import Checks as C\n")


def test_every_kit_test_file_can_be_blinded():
    for lab in manifest.labs(built_only=True):
        assert "..." in suite.blind(lab.tests.read_text(encoding="utf-8"), lab.tests.name)


RUNNABLE = textwrap.dedent('''
    from lab.kit import lab_test

    LAB = "15.1"

    @lab_test("It reports what it found.")
    async def test_reports(t):
        words = "found " + "it"
        t.expect(words, "found it", "the words")
        t.expect(len(words), wanted=8, why="their length")
''')


async def test_blinded_code_still_runs_and_makes_the_same_checks(tmp_path):
    test_file = suite.TestFile("15.1", tmp_path / "tests.py", RUNNABLE)
    [test] = suite.load(test_file, suite.blind(RUNNABLE))
    observed = []
    await test.fn(kit.Checks(lambda found, why, kind, params: observed.append((found, why))))
    assert observed == [("found it", "the words"), (8, "their length")]


def test_load_returns_a_files_tests_in_file_order_and_leaves_no_registration_behind(tmp_path):
    source = RUNNABLE + textwrap.dedent('''
        @lab_test("Second.", points=3)
        async def test_second(t):
            pass

        @lab_test("Third.")
        async def test_third(t):
            pass
    ''')
    tests = suite.load(suite.TestFile("15.1", tmp_path / "tests.py", source))
    assert [(x.name, x.says, x.points) for x in tests] == [
        ("test_reports", "It reports what it found.", None), ("test_second", "Second.", 3.0),
        ("test_third", "Third.", None)]
    assert kit.TESTS == []


def test_load_runs_the_source_it_is_given_rather_than_the_files_own(tmp_path):
    other = RUNNABLE.replace("test_reports", "test_given")
    [test] = suite.load(suite.TestFile("15.1", tmp_path / "tests.py", RUNNABLE), other)
    assert test.name == "test_given"


def write(folder: Path, text: str, name="tests.py") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_lab_of_reads_the_lab_line_without_running_the_file(tmp_path):
    assert suite.lab_of(write(tmp_path, 'raise SystemExit\nLAB = "15.2"\n')) == "15.2"


@pytest.mark.parametrize("text", ["X = 1\n", "LAB = 15.1\n", "def f():\n    LAB = '15.1'\n"])
def test_lab_of_is_none_without_a_top_level_lab_string(tmp_path, text):
    assert suite.lab_of(write(tmp_path, text)) is None


def test_cumulative_runs_every_earlier_built_lab_then_the_given_file(tmp_path):
    lab = manifest.lab(BUILT[2])
    given = write(tmp_path, f'LAB = "{lab.id}"\n# my copy\n', name="my_tests.py")
    files = suite.cumulative(given, lab.lesson.number)
    assert [f.lab_id for f in files] == BUILT[:3]
    assert [f.path for f in files[:-1]] == [manifest.lab(x).tests for x in BUILT[:2]]
    assert (files[-1].path, files[-1].source) == (given, f'LAB = "{lab.id}"\n# my copy\n')


def test_cumulative_refuses_a_file_of_another_lesson(tmp_path):
    lab = manifest.lab(BUILT[2])
    given = write(tmp_path, f'LAB = "{lab.id}"\n')
    with pytest.raises(NothingToCheck, match=f"holds the tests of lab {lab.id}, not of lesson 99"):
        suite.cumulative(given, 99)


def test_a_file_without_a_lab_line_needs_a_lesson_and_then_belongs_to_its_first_lab(tmp_path):
    given = write(tmp_path, "X = 1\n")
    with pytest.raises(NothingToCheck, match="no LAB"):
        suite.cumulative(given)
    lesson = next(x.lesson for x in manifest.labs(built_only=True) if len(x.lesson.labs) > 1)
    first = lesson.labs[0].id
    assert [f.lab_id for f in suite.cumulative(given, lesson.number)] == \
        BUILT[:BUILT.index(first)] + [first]


def test_a_kit_labs_stem_is_its_kit_name_whatever_the_file_is_called():
    assert suite.TestFile("15.1", Path("my_copy.py"), "").stem == "lesson_15_lab1"


@pytest.mark.parametrize("lab_id", [None, "99.1"])
def test_a_file_that_is_not_a_kit_lab_is_named_for_its_own_stem(lab_id):
    assert suite.TestFile(lab_id, Path("extra_checks.py"), "").stem == "extra_checks"
