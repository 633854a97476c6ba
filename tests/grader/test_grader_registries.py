"""The grader's extension points are registries: a gradebook format is one entry of
grader/gradebook.py's FORMATS, a Gradescope visibility one of grader/gradescope.py's
VISIBILITIES, and the command line offers exactly what they hold."""
import csv
import json

import pytest

from grader import gradebook, gradescope
from grader.__main__ import main

from tests.grader.grades_made import whole

GRADES = {"lab": "15.1", "title": "Ask the run to stop", "max": 20,
          "submissions": [{"student": "ann", "score": 20, "verdict": "full marks"},
                          {"student": "ben", "score": 7.5, "verdict": "partial"}]}


def _class_folder(tmp_path):
    lab = tmp_path / "out" / "lab-15.1"
    lab.mkdir(parents=True)
    (lab / "grades.json").write_text(json.dumps(whole(GRADES)), encoding="utf-8")
    return tmp_path / "out"


def _tab_separated(writer, labs, lines):
    """A format a test adds: student and score, one lab, tab-separated."""
    for student, name, each in lines:
        writer.writerow([f"{name}\t{each[0][0]:g}"])


def test_a_gradebook_format_added_as_one_entry_is_offered_and_written(tmp_path, monkeypatch):
    monkeypatch.setitem(gradebook.FORMATS, "tabs", _tab_separated)
    target = tmp_path / "grades.tsv"
    assert main(["export", "--format", "tabs", "--out", str(target),
                 str(_class_folder(tmp_path))]) == 0
    assert list(csv.reader(target.open(encoding="utf-8"))) == [["ann\t20"], ["ben\t7.5"]], \
        "the new format's entry did not write the file"


def test_the_command_line_offers_every_format_and_only_those(tmp_path, capsys):
    folder = _class_folder(tmp_path)
    for fmt in gradebook.FORMATS:
        assert main(["export", "--format", fmt, "--out", str(tmp_path / fmt),
                     str(folder)]) == 0, f"export refused its own format {fmt}"
    with pytest.raises(SystemExit):
        main(["export", "--format", "blackboard", "--out", str(tmp_path / "b"), str(folder)])
    assert "invalid choice: 'blackboard'" in capsys.readouterr().err


def test_the_command_line_offers_exactly_gradescopes_visibilities(capsys):
    with pytest.raises(SystemExit):
        main(["gradescope", "--lab", "15.1", "--out", "x.zip", "--hidden-visibility", "never"])
    said = capsys.readouterr().err
    assert all(repr(v) in said for v in gradescope.VISIBILITIES), \
        f"the command line's choices are not gradescope.VISIBILITIES: {said}"
