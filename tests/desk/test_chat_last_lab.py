"""`course chat` asks for the course's last lab, read from the labs the lesson.toml files list
(lab/check/manifest.py), not a lab named in its code: a lab added after it is the one asked for."""
from dataclasses import replace

from lab.check import manifest
from lab.desk import chat


def test_the_last_lab_is_the_courses_last_and_a_lab_added_after_it_takes_its_place(monkeypatch):
    every = manifest.labs()
    assert chat.last_lab() == every[-1], "chat asks for another lab than the course's last"
    assert chat.solution_path() == every[-1].solution
    later = replace(every[-1], id="99.1")
    monkeypatch.setattr(manifest, "labs", lambda **how: (*every, later))
    assert chat.last_lab().id == "99.1", "a lab added to the course is not the one chat asks for"
