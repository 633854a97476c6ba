"""How an instructor's hidden tests are named, and what the commands that take them say: an
extra tests file's tests read as its own name with hidden_ in front once (a file already named
hidden_5_1.py gives hidden_5_1::..., never hidden_hidden_5_1::...), its set is labelled with
the file's name, and only `grade`, which takes a submissions folder, tells where that goes."""
import pytest

from tests.grader.gradeclass import EXTRA, LAB

from grader import __main__ as cli, plan as plans
from grader.errors import PlanError


@pytest.mark.parametrize("file, stem", [("hidden_15_1.py", "hidden_15_1"),
                                        ("extra15.py", "hidden_extra15")])
def test_hidden_test_ids_carry_the_hidden_prefix_once(tmp_path, file, stem):
    extra = tmp_path / file
    extra.write_text(EXTRA, encoding="utf-8")
    plan = plans.make(LAB.id, extra_tests=[extra])
    assert [t.id for t in plan.tests if t.hidden] == [
        f"{stem}::test_aborted_is_the_words", f"{stem}::test_a_new_token_is_clear"]
    assert plan.sets[-1]["set"] == f"{file} (hidden)"
    again = plans.Plan.from_dict(plan.to_dict())
    assert again.sets == plan.sets and again.fingerprint() == plan.fingerprint()


def test_two_extra_files_that_would_run_under_one_name_are_refused_by_name(tmp_path):
    for name in ("x.py", "hidden_x.py"):
        (tmp_path / name).write_text(EXTRA, encoding="utf-8")
    with pytest.raises(PlanError, match=r"x\.py and hidden_x\.py would both run as hidden_x"):
        plans.make(LAB.id, extra_tests=[tmp_path / "x.py", tmp_path / "hidden_x.py"])


def help_of(capsys, command: str) -> str:
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_only_grade_says_where_the_submissions_folder_goes_among_its_options(capsys):
    assert "give them after the submissions folder" in help_of(capsys, "grade")
    bundle = help_of(capsys, "gradescope")
    assert "--extra-tests" in bundle and "submissions folder" not in bundle
