"""A lesson's header says what its lesson.toml says: the number and title, the subtitle, the
minutes, how many labs, and its part (started by the part's first lesson, built on by the rest,
each part named alike everywhere). lesson.toml is the one source of these facts; the header is
prose that repeats them, so a test holds it to them (three had drifted, issue 27)."""
import re

import pytest

from lab.check import manifest

LESSONS = list(manifest.lessons())
BOLD = re.compile(r"^\*\*~(?P<minutes>\d+) min · (?P<labs>no lab|1 lab|\d+ labs) · "
                  r"(?P<how>starts|builds on) Part (?P<part>[A-Z]): (?P<name>[^*]+)\*\*$")


def header(lesson) -> list[str]:
    """The lesson's source up to its first blank line after the bold line."""
    lines = lesson.source.read_text(encoding="utf-8").splitlines()
    bold = next(n for n, line in enumerate(lines) if line.startswith("**~"))
    return lines[:bold + 1]


def labs_said(count: int) -> str:
    return "no lab" if count == 0 else "1 lab" if count == 1 else f"{count} labs"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.folder.name)
def test_the_header_repeats_the_lessons_facts_from_its_toml(lesson):
    lines = header(lesson)
    assert lines[0] == f"# {lesson.number:02d} · {lesson.title}", lines[0]
    today = next(line for line in lines if line.startswith("## Today: "))
    assert today.removeprefix("## Today: ").lower() == lesson.subtitle.lower(), today
    said = BOLD.match(lines[-1])
    assert said, f"lesson {lesson.number}'s bold line is not in the usual form: {lines[-1]}"
    first_of_part = min(x.number for x in LESSONS if x.part == lesson.part)
    assert (int(said["minutes"]), said["labs"], said["part"], said["how"]) == (
        lesson.minutes, labs_said(len(lesson.labs)), lesson.part,
        "starts" if lesson.number == first_of_part else "builds on"), lines[-1]


def test_each_part_has_one_name_across_its_lessons():
    names: dict[str, set[str]] = {}
    for lesson in LESSONS:
        said = BOLD.match(header(lesson)[-1])
        if said:
            names.setdefault(said["part"], set()).add(said["name"])
    assert all(len(found) == 1 for found in names.values()), names
