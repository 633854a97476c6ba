"""lab.check.manifest: course order, the cumulative suite's labs, who introduces a name, where a
lab's files live, and relocate()."""
import pytest

from lab.check import manifest

# A small kit of its own: lessons 9, 10, 15 and 16, numbered so that text order and course
# order disagree, with one lab that is not built yet.
LESSONS = {
    "09-steering": '''number = 9
title = "Steering"
[[lab]]
id = "9.1"
title = "Steer"
adds = ["Harness.steer"]
''',
    "10-repair": '''number = 10
title = "Repair"
[[lab]]
id = "10.1"
title = "Repair"
adds = ["repair"]
points = 2
''',
    "15-stop": '''number = 15
title = "Stop"
[[lab]]
id = "15.2"
title = "Second"
adds = ["ABORTED"]
[[lab]]
id = "15.1"
title = "First"
adds = ["CancelToken", "Harness.cancel"]
lines = 40
''',
    "16-later": '''number = 16
title = "Later"
[[lab]]
id = "16.1"
title = "Not yet"
adds = ["later"]
reference_only = true
''',
}


@pytest.fixture
def small_kit(tmp_path):
    for folder, text in LESSONS.items():
        (tmp_path / "lessons" / folder).mkdir(parents=True)
        (tmp_path / "lessons" / folder / "lesson.toml").write_text(text, encoding="utf-8")
    authors = tmp_path / "source" / "lessons" / "15-stop"  # hints live in the authors' wing
    authors.mkdir(parents=True)
    (authors / "hints.toml").write_text('["15.1"]\noutline = "the outline"\n'
                                        'questions = "some questions"\n', encoding="utf-8")
    before = manifest.relocate(tmp_path)
    try:
        yield tmp_path
    finally:
        manifest.relocate(before)


def ids(labs):
    return [lab.id for lab in labs]


def test_keys_sort_labs_in_course_order_not_text_order():
    assert manifest.key("15.1") < manifest.key("15.2") < manifest.key("16.1")
    assert manifest.key("9.1") < manifest.key("10.1")
    assert manifest.key("15") == (15, 1)


def test_labs_are_in_course_order_and_built_only_leaves_out_the_unbuilt(small_kit):
    assert ids(manifest.labs()) == ["9.1", "10.1", "15.1", "15.2", "16.1"]
    assert ids(manifest.labs(built_only=True)) == ["9.1", "10.1", "15.1", "15.2"]


def test_before_is_every_built_lab_earlier_in_course_order(small_kit):
    assert ids(manifest.before("9.1")) == []
    assert ids(manifest.before("15.2")) == ["9.1", "10.1", "15.1"]
    assert ids(manifest.before("17.1")) == ["9.1", "10.1", "15.1", "15.2"]


def test_introduced_by_finds_the_lab_that_adds_a_name(small_kit):
    assert manifest.introduced_by("Harness.cancel").id == "15.1"
    assert manifest.introduced_by("ABORTED").id == "15.2"
    assert manifest.introduced_by("Harness.nothing") is None


def test_a_lab_reads_its_facts_from_its_lesson_toml(small_kit):
    first, repair = manifest.lab("15.1"), manifest.lab("10.1")
    assert (first.title, first.lines, first.points, first.reference_only) == ("First", 40, 1.0,
                                                                                False)
    assert first.hints == ("some questions", "the outline")  # in the order they are given
    assert repair.points == 2.0
    assert (first.name, first.lesson.number) == ("lesson 15, lab 1", 15)


def test_an_unknown_lab_or_lesson_is_refused_with_the_known_labs(small_kit):
    with pytest.raises(KeyError, match=r"no lab 15\.3 .*\(labs: 9\.1, 10\.1, 15\.1, 15\.2\)"):
        manifest.lab("15.3")
    with pytest.raises(KeyError, match="no lesson 11"):
        manifest.lesson(11)


def test_a_labs_content_lives_under_starters_and_its_solution_under_solutions(small_kit):
    lab = manifest.lab("15.2")
    content = small_kit / "starters" / "15-stop" / "lab2"
    assert lab.content == content
    assert (lab.starter, lab.tests, lab.expected) == (
        content / "harness.py", content / "tests.py", content / "expected.json")
    assert lab.solution == small_kit / "solutions" / "15-stop" / "lab2" / "harness.py"


def test_test_stem_names_the_lesson_in_two_digits_and_the_lab(small_kit):
    assert manifest.lab("15.2").test_stem == "lesson_15_lab2"
    assert manifest.lab("9.1").test_stem == "lesson_09_lab1"


def test_relocate_moves_every_path_forgets_the_lessons_read_and_restores(tmp_path):
    real = (manifest.KIT, manifest.LESSONS, manifest.STARTERS, manifest.SOLUTIONS,
            manifest.SOURCE)
    real_lessons = manifest.lessons()
    before = manifest.relocate(tmp_path)
    try:
        assert before == real[0]
        assert (manifest.KIT, manifest.LESSONS, manifest.STARTERS, manifest.SOLUTIONS,
                manifest.SOURCE) == (tmp_path, tmp_path / "lessons", tmp_path / "starters",
                                     tmp_path / "solutions", tmp_path / "source")
        assert manifest.lessons() == ()  # the empty folder's lessons, not the ones read before
    finally:
        assert manifest.relocate(before) == tmp_path
    assert (manifest.KIT, manifest.LESSONS, manifest.STARTERS, manifest.SOLUTIONS,
            manifest.SOURCE) == real
    assert manifest.lessons() == real_lessons


def test_a_lessons_authors_files_follow_relocate(small_kit):
    lesson = manifest.lesson(15)
    assert lesson.source == small_kit / "source" / "lessons" / "15-stop" / "lesson.md"
    assert lesson.outputs == small_kit / "source" / "lessons" / "15-stop" / "outputs.json"
    assert lesson.notebook == small_kit / "lessons" / "15-stop" / "lesson.ipynb"
