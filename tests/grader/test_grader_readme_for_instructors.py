"""What the README tells an instructor before a term (issue 44): which outputs are theirs alone,
to collect late work before the next release, and which Python grades. Each statement is
checked against what the grader does, so the README and the grader cannot drift apart."""
import re

import pytest

from lab.check import manifest

README = (manifest.KIT / "README.md").read_text(encoding="utf-8")
GRADING = README[README.index("## Grading a class"):README.index("## How the checker decides")]
WORDS = " ".join(GRADING.split())


@pytest.mark.parametrize("name", ["report.html", "grades.csv", "tests.csv", "grades.json",
                                  "roster.json", "similar.json", "instructor/", "journal.jsonl",
                                  ".seed"])
def test_the_readme_names_each_output_that_holds_every_students_rows_as_the_instructors(name):
    said = WORDS[WORDS.index("**What may go to students"):]
    said = said[:said.index("With `--extra-tests`")]
    assert "`lab-N.K/feedback/STUDENT.md`, and nothing else" in said
    assert f"`{name}`" in said, f"the README does not say that {name} is the instructor's alone"


def test_the_readme_says_to_collect_late_work_before_the_release_that_answers_it():
    assert re.search(r"Collect last week's work, late work included, before you push the "
                     r"release that holds the next lab", WORDS)


def test_the_readme_says_which_python_grades_as_the_grader_and_the_bundle_choose_it():
    from grader import gradescope
    said = WORDS[WORDS.index("**Which Python grades.**"):]
    assert "with the Python it runs on itself" in said
    order = re.search(r"for candidate in (python3\.\d+) (python3\.\d+) (python3\.\d+)",
                      gradescope.SETUP).groups()
    assert f"the newest of {order[0][6:]}, {order[1][6:]} and {order[2][6:]}" in said
    assert "its feedback names the Python that graded" in said


def test_the_readme_names_the_labs_graded_on_a_bank_and_the_line_that_says_so():
    from grader import bank
    banked = [lab.id for lab in manifest.labs(built_only=True) if bank.has_bank(lab.id)]
    named = ", ".join(banked[:-1]) + " and " + banked[-1] if len(banked) > 1 else banked[0]
    assert f"The labs graded on a bank so far are {named}." in WORDS, (
        f"the README's grading bank paragraph must name the labs with a bank: {named}")
    line = bank.line("NN.K", 0.1, "N")  # the summary's and feedback's line, in the README's words
    assert f'"{line}"' in WORDS, f"the README does not quote the line every report says:\n{line}"
