"""The suite's units of work (tests/scheduling.py): the catalogue's files go a lab at a time, the
three that share the design runs together, the browser's two figure tests apart, and every
other file whole."""
from tests.scheduling import BY_LAB, BY_TEST, CATALOGUE, first, scope


def test_a_catalogue_file_goes_a_lab_at_a_time_with_the_others_that_read_its_runs():
    ids = ["tests/authoring/test_ledger.py::test_a_design_fails_a_test_of_the_rule_it_breaks"
           "[7.2 rule 1: JsonRenderer judging]",
           "tests/check/test_practice.py::test_the_practice_check_gives_the_checkers_verdicts_on_"
           "a_wrong_design[7.2: a design]",
           "tests/authoring/test_wrong_designs.py::test_the_wrong_design_fails_its_own_lab_naming_"
           "the_rule[7.2: a design]"]
    assert {path.split("::")[0] for path in ids} == CATALOGUE
    assert {scope(nodeid) for nodeid in ids} == {"catalogue::7.2"}


def test_a_split_file_finds_the_lab_after_a_seed_and_keeps_its_other_tests_whole():
    bank = "tests/authoring/test_ledger_bank.py"
    assert bank in BY_LAB and bank not in CATALOGUE
    assert scope(f"{bank}::test_the_reference_passes_the_whole_bank[23-13.1]") == f"{bank}::13.1"
    assert scope(f"{bank}::test_every_bank_test_serves_a_rule[9.1]") == f"{bank}::9.1"
    assert scope("tests/check/test_practice.py::test_survives[does_not_parse]") == \
        "tests/check/test_practice.py"


def test_a_file_of_long_tests_goes_a_test_at_a_time():
    figures = "tests/browser/test_figures_drawn.py"
    assert figures in BY_TEST
    tests = [f"{figures}::test_every_lessons_figures_are_drawn_in_jupyterlab",
             f"{figures}::test_every_lessons_figures_are_drawn_in_the_browser_site"]
    assert [scope(nodeid) for nodeid in tests] == tests


def test_any_other_file_goes_whole_whatever_its_parameters():
    assert scope("tests/check/test_hangs.py::test_a_hang[9.1]") == "tests/check/test_hangs.py"


def test_the_graders_files_go_first_then_the_units_with_most_tests():
    units = {"tests/world/test_shell.py": 79, "catalogue::2.1": 300,
             "tests/grader/test_grader_seed.py": 5}
    assert sorted(units, key=lambda unit: first(unit, units[unit])) == [
        "tests/grader/test_grader_seed.py", "catalogue::2.1", "tests/world/test_shell.py"]
