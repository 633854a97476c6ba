"""What a release through one lab says in its own files: each recorded output stored as one
string (JupyterLite, which reads a notebook as stored, shows a list of lines joined by commas),
and a README whose example is the release's own last lab."""
import json

import pytest

from lab.check import manifest

from grader import release

WEEK = manifest.lab("5.1")


@pytest.fixture(scope="module")
def week(tmp_path_factory):
    out = tmp_path_factory.mktemp("release") / "course"
    release.build(out, through=WEEK.id)
    return out


def test_each_recorded_output_is_one_string_in_the_notebooks_file(week):
    outputs = [output for path in (week / "lessons").glob("*/lesson.ipynb")
               for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
               for output in cell.get("outputs", [])]
    assert outputs, "a release through lab 5.1 records outputs for this test to mean anything"
    assert all(isinstance(output["text"], str) for output in outputs)
    assert any("\n" in output["text"].rstrip("\n") for output in outputs), \
        "some recorded output runs over several lines, which a list would have split"


def test_the_readme_gives_the_releases_own_last_lab_as_its_example(week):
    readme = (week / "README.md").read_text(encoding="utf-8")
    for line in (f"course start {WEEK.id} ", f"course check {WEEK.id} ",
                 f"course hint {WEEK.id} ", f"cd work/{WEEK.folder}\n",
                 f"--lesson {WEEK.lesson.number} tests.py"):
        assert line in readme, line
    later = [lab.id for lab in manifest.labs(built_only=True)
             if manifest.key(lab.id) > manifest.key(WEEK.id)]
    assert not [lab_id for lab_id in later if f" {lab_id}" in readme]
