"""Open answers: what a student writes to a lesson's open question, kept in the work folder's
responses.json under a key like "04.boundary" and never graded; a later lesson may show one
back (`course.recall`)."""
from __future__ import annotations

import re

from lab.check import manifest
from lab.check.errors import UnknownLab
from lab.desk import words_course as words
from lab.desk.errors import CourseError
from lab.desk.problems import NotAQuestionKey
from lab.desk.workfolder import load, save

FILE = "responses.json"
KEY = re.compile(r"^(\d{1,2})\.[A-Za-z0-9_-]+$")
# What a lesson's answer cell holds before the student types: never saved as an answer.
PLACEHOLDER = "Write your answer here."


def _lesson_words(key: str) -> str:
    """The lesson a question key names, as a student reads it: "lesson 4 (its title)"."""
    match = KEY.match(key)
    if not match:
        raise CourseError(NotAQuestionKey(key))
    number = int(match.group(1))
    try:
        return words.lesson(number, manifest.lesson(number).title)
    except UnknownLab:  # a lesson this copy of the course does not have (yet)
        return words.lesson(number, None)


def respond(key: str, text: str) -> None:
    """Store an open response under `key` ("04.boundary") in responses.json, replacing an earlier
    answer to the same question. Responses are never graded; a later lesson may show one back."""
    where = _lesson_words(key)
    if not text.strip() or text.strip() == PLACEHOLDER:
        print(words.nothing_saved())
        return
    data = load(FILE)
    data[key] = text.strip()
    save(FILE, data)
    print(words.saved(where))


def recall(key: str) -> None:
    """Print the stored answer to `key`, or say that the question (from the lesson the key
    names) has not been answered yet."""
    where = _lesson_words(key)
    answer = load(FILE).get(key)
    if answer is None:
        print(words.not_answered(where))
        return
    print(words.answered(where))
    for line in answer.splitlines():
        print(f"    {line}" if line else "")
