"""The lesson notebooks: built from lesson.md, committed without outputs or pins (those live
only in outputs.json), and printing exactly their pinned text when run; and the directive
expansion that builds them."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import nbformat
import pytest

from lab.check import manifest
from tools import notebooks

WRITTEN = [lesson.number for lesson in notebooks.written()]
COMMITTED = sorted((manifest.KIT / "lessons").glob("*/lesson.ipynb"))
# Keys a cell's metadata would hold if it carried a run or its expected outputs: the kit's old
# pinned_output, and what nbclient and Jupyter store after running a cell.
RUN_KEYS = {"pinned_output", "outputs", "execution_count", "execution"}


# --- every written lesson ------------------------------------------------------------------------

@pytest.mark.parametrize("number", WRITTEN)
def test_committed_notebook_is_what_lesson_md_builds(number):
    assert notebooks.check(manifest.lesson(number)) == []


def carried(notebook, pinned: set[str]) -> list[str]:
    """What the notebook's cells carry of a run or of its expected outputs: outputs, execution
    counts, run keys anywhere in a cell's metadata, or a metadata string that is a pin's text."""
    found = []

    def walk(where: str, value) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                if key in RUN_KEYS:
                    found.append(f"{where} holds {key!r}")
                walk(f"{where}[{key!r}]", inner)
        elif isinstance(value, list):
            for inner in value:
                walk(where, inner)
        elif isinstance(value, str) and value.strip() and value in pinned:
            found.append(f"{where} holds a pin's text, {value[:40]!r}")

    for cell in notebook.cells:
        if cell.get("outputs"):
            found.append(f"{cell.id} has outputs")
        if cell.get("execution_count") is not None:
            found.append(f"{cell.id} has an execution count")
        walk(f"{cell.id}'s metadata", cell.get("metadata", {}))
    return found


AUTHORING_TAG = re.compile(r"\[general\]")


@pytest.mark.parametrize("number", WRITTEN)
def test_no_authoring_tag_and_no_hint_reaches_the_students_page(number):
    """`[general]` is for authors and reviewers (CURRICULUM.md's tag for a claim backed by
    neither the lab nor Tau's source); the hints wait behind course.hint, so no hint's text is
    in the page or its JSON before it is asked for. Both the committed notebook and the
    browser's page are looked at."""
    lesson = manifest.lesson(number)
    for page in (False, True):
        text = "\n".join(cell.source for cell in notebooks.build(lesson, page=page).cells)
        assert not AUTHORING_TAG.search(text), f"lesson {number}: [general] reaches the page"
        for lab in lesson.labs:
            for level, hint in enumerate(lab.hints, 1):
                shown = [line for line in hint.splitlines() if len(line) > 30 and line in text]
                assert not shown, f"lesson {number}: hint {level} of lab {lab.id} is in the " \
                                  f"page: {shown[0]!r}"


@pytest.mark.parametrize("path", COMMITTED, ids=lambda path: path.parent.name)
def test_a_committed_notebook_carries_no_outputs_and_no_pins(path):
    every_pin = {text for lesson in manifest.lessons() for text in notebooks.pins(lesson).values()}
    found = carried(nbformat.read(path, as_version=4), every_pin)
    assert not found, (f"{path.parent.name}/lesson.ipynb gives students what its cells print: "
                       f"{'; '.join(found[:5])}; run python -m tools.make notebooks")


@pytest.mark.parametrize("number", WRITTEN)
def test_every_code_cell_has_a_pin_in_outputs_json(number):
    lesson = manifest.lesson(number)
    code = {c.id for c in notebooks.build(lesson).cells if c.cell_type == "code"}
    missing = sorted(code - set(notebooks.pins(lesson)))
    assert not missing, (f"outputs.json pins nothing for {missing}: run python -m "
                         f"tools.notebooks pin {number}")


@pytest.mark.parametrize("number", WRITTEN)
def test_running_the_notebook_prints_exactly_the_pinned_text(number):
    lesson = manifest.lesson(number)
    found = notebooks.mismatches(lesson, notebooks.execute(lesson, timeout=60))
    assert not found, "\n\n".join(found.values())


# --- a small lesson in a kit of its own ----------------------------------------------------------

TOML = '''number = 98
title = "Before"

[[lab]]
id = "98.1"
title = "The lab before"
'''

TOML_99 = '''number = 99
title = "Demo"

[[lab]]
id = "99.1"
title = "Build a demo"
'''

HINTS_99 = '''["99.1"]
questions = "What does `run` return?\\n\\nAnd *when*?"
approach = "It returns the **list**."
outline = "One loop, then a return."
'''

LESSON = '''# 99 · Demo

Some words.

```python
class course:  # stands in for the desk's: this small kit's lab is not the real kit's
    hint = staticmethod(lambda lab_id, level: print(f"{lab_id}: hint {level}"))
```


::: predict
What does `f()` print?
- [ ] `1 < 2`
  > Wrong: see *lesson 3*.
- [x] nothing
  > Right: it is never called.
  >
  > A second paragraph.
- [ ] an error
  > Wrong: nothing runs.
:::

```python
print("hello")
```

::: predict many
Tick every one that holds.
- [x] first
  > Yes.
- [ ] second
  > No.
- [x] third <b>bold</b>
  > Yes.
:::

{{ hints 99.1 }}

{{ tests 99.1 }}

{{ starter 99.1 }}

```python
print(1 + 1)
1 + 2
```
'''

TESTS = '''LAB = "99.1"
from lab.check.kit import lab_test


@lab_test("run returns the list")
async def test_returns():
    pass


@lab_test("""a stop ends
   the run""")
async def test_stops():
    pass
'''


@pytest.fixture
def kit(tmp_path, monkeypatch):
    """A kit with lessons 98 and 99 only, where 99 is the small lesson above."""
    for name, text in (("98-before", TOML), ("99-demo", TOML_99)):
        (tmp_path / "lessons" / name).mkdir(parents=True)
        (tmp_path / "lessons" / name / "lesson.toml").write_text(text)
    (tmp_path / "source" / "lessons" / "99-demo").mkdir(parents=True)
    (tmp_path / "source" / "lessons" / "99-demo" / "lesson.md").write_text(LESSON)
    (tmp_path / "source" / "lessons" / "99-demo" / "hints.toml").write_text(HINTS_99)
    for where, text in (("solutions/98-before/lab1", "def run():\n    return []\n"),
                        ("starters/99-demo/lab1", "def run():\n    # --- your code ---\n"
                                                  "    return []\n    # --- end ---\n")):
        (tmp_path / where).mkdir(parents=True)
        (tmp_path / where / "harness.py").write_text(text)
    (tmp_path / "starters/99-demo/lab1/tests.py").write_text(TESTS)
    (tmp_path / "starters/99-demo/lab1/changes.diff").write_text(
        "--- solutions/98-before/lab1/harness.py\n+++ starters/99-demo/lab1/harness.py\n"
        "@@ -1,2 +1,4 @@\n def run():\n+    # --- your code ---\n     return []\n+    # --- end ---\n")
    before = manifest.relocate(tmp_path)
    try:
        yield manifest.lesson(99)
    finally:
        manifest.relocate(before)


def markdown(notebook) -> list[str]:
    return [c.source for c in notebook.cells if c.cell_type == "markdown"]


def test_cells_get_stable_numbered_ids(kit):
    notebook = notebooks.build(kit)
    assert [c.id for c in notebook.cells] == [f"cell-{n:02d}" for n in
                                              range(1, len(notebook.cells) + 1)]
    assert notebooks.canonical(notebook) == notebooks.canonical(notebooks.build(kit))


def test_a_prediction_becomes_one_details_per_choice_without_giving_the_answer_away(kit):
    cell = next(s for s in markdown(notebooks.build(kit)) if s.startswith("What does"))
    assert cell.splitlines()[0] == "What does `f()` print?"
    summaries = [line for line in cell.splitlines() if line.startswith("<details>")]
    assert summaries == [
        "<details><summary><b>A.</b> <code>1 &lt; 2</code></summary>"
        "<p>Wrong: see <em>lesson 3</em>.</p></details>",
        "<details><summary><b>B.</b> nothing</summary>"
        "<p>Right: it is never called.</p><p>A second paragraph.</p></details>",
        "<details><summary><b>C.</b> an error</summary><p>Wrong: nothing runs.</p></details>",
    ]
    assert "Reveal" not in cell


def test_a_multi_select_prediction_ends_with_a_reveal_of_the_right_choices(kit):
    cell = next(s for s in markdown(notebooks.build(kit)) if s.startswith("Tick every"))
    assert cell.splitlines()[-1] == (
        "<details><summary>Reveal the answer</summary><ul><li><b>A.</b> first</li>"
        "<li><b>C.</b> third &lt;b&gt;bold&lt;/b&gt;</li></ul></details>")


def test_directives_become_cells_of_their_own_and_the_text_around_them_stays(kit):
    cells = markdown(notebooks.build(kit))
    assert cells[0] == "# 99 · Demo\n\nSome words."
    assert not any("{{" in c or ":::" in c for c in cells)


def test_the_hints_are_a_cell_that_asks_for_one_by_level_and_the_page_holds_none(kit):
    notebook = notebooks.build(kit)
    asking = [c for c in notebook.cells if c.cell_type == "code" and "course.hint(" in c.source]
    assert len(asking) == 1 and asking[0].source.splitlines()[-1] == 'course.hint("99.1", 0)'
    assert asking[0].source.startswith("# Runs on: plain Python.")
    page = "\n".join(cell.source for cell in notebook.cells)
    for text in kit.labs[0].hints:
        assert not [line for line in text.splitlines() if len(line) > 12 and line in page], \
            "a hint's text is in the notebook, where a glance shows it before it is asked for"


def test_tests_become_a_numbered_list_in_plain_words_that_says_more_may_be_graded(kit):
    cells = markdown(notebooks.build(kit))
    listed = [c for c in cells if c.startswith("1. run returns the list\n2. a stop ends the run")]
    assert len(listed) == 1
    assert "An instructor may grade with more tests of their own" in listed[0]


def test_starter_links_the_diff_and_the_starter_and_gives_the_check(kit):
    cell = next(s for s in markdown(notebooks.build(kit)) if "What changed" in s)
    assert cell.startswith("### What changed since lesson 98\n")
    assert "](../../starters/99-demo/lab1/changes.diff) (2 lines in, 0 out)" in cell
    assert "[The whole starter](../../starters/99-demo/lab1/harness.py)" in cell
    assert "python lab/lab_check.py --harness harness.py --lesson 99 tests.py" in cell
    assert "`course check 99.1`" in cell


def test_a_missing_diff_is_an_error_that_names_the_tool(kit):
    (manifest.KIT / "starters/99-demo/lab1/changes.diff").unlink()
    with pytest.raises(notebooks.LessonError, match="run tools/make.py"):
        notebooks.build(kit)


def test_pins_stay_in_outputs_json_and_the_built_notebook_carries_none(kit):
    before = notebooks.build(kit)
    code = [c.id for c in before.cells if c.cell_type == "code"]
    kit.outputs.write_text(json.dumps({code[0]: "hello\n", code[1]: "2\n3\n"}))
    built = notebooks.build(kit)
    assert notebooks.pins(kit) == {code[0]: "hello\n", code[1]: "2\n3\n"}
    assert notebooks.canonical(built) == notebooks.canonical(before)
    assert carried(built, {"hello\n", "2\n3\n"}) == []


def test_carried_finds_a_pin_an_output_or_an_execution_count_in_a_cell(kit):
    notebook = notebooks.build(kit)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    code[0].metadata["pinned_output"] = "hello\n"
    code[1].metadata["tags"] = ["2\n3\n"]
    code[1].execution_count = 4
    code[1].outputs = [nbformat.v4.new_output("stream", text="2\n")]
    assert carried(notebook, {"hello\n", "2\n3\n"}) == [
        f"{code[0].id}'s metadata holds 'pinned_output'",
        f"{code[0].id}'s metadata['pinned_output'] holds a pin's text, 'hello\\n'",
        f"{code[1].id} has outputs", f"{code[1].id} has an execution count",
        f"{code[1].id}'s metadata['tags'] holds a pin's text, '2\\n3\\n'"]


def test_check_names_a_pin_for_a_cell_that_is_not_code(kit):
    notebooks.write(kit)
    markdown_id = notebooks.build(kit).cells[0].id
    kit.outputs.write_text(json.dumps({markdown_id: "stale\n"}))
    problems = notebooks.check(kit)
    assert len(problems) == 1 and f"pins {markdown_id}, which are not code cells" in problems[0]


def test_check_passes_after_write_and_names_a_stale_notebook(kit):
    assert "missing" in notebooks.check(kit)[0]
    notebooks.write(kit)
    assert notebooks.check(kit) == []
    kit.source.write_text(kit.source.read_text().replace("1 + 2", "1 + 3"))
    last = notebooks.build(kit).cells[-1].id
    problems = notebooks.check(kit)
    assert len(problems) == 1 and f"(first at {last})" in problems[0]
    kit.source.write_text(kit.source.read_text().replace("Some words.", "Other words."))
    problems = notebooks.check(kit)
    assert len(problems) == 1 and "(first at cell-01)" in problems[0]


class Tags(HTMLParser):
    """The tags a Markdown cell's HTML opens and closes, and whether any is executable."""

    def __init__(self):
        super().__init__()
        self.stack, self.balanced, self.names = [], True, set()

    def handle_starttag(self, tag, attrs):
        self.names.add(tag)
        if tag not in ("br",):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.balanced = False


def test_feedback_needs_no_javascript_so_an_untrusted_notebook_shows_it(kit):
    notebooks.write(kit)
    reopened = nbformat.read(kit.notebook, as_version=4)
    assert not nbformat.sign.NotebookNotary().check_signature(reopened)  # untrusted
    feedback = [c for c in reopened.cells if c.cell_type == "markdown" and "<details>" in c.source]
    assert feedback, "the predictions should be <details> in Markdown cells"
    for cell in reopened.cells:
        assert cell.cell_type != "code" or cell.outputs == []
        if cell.cell_type == "markdown":
            tags = Tags()
            tags.feed(cell.source)
            assert tags.balanced and not tags.stack, cell.id
            assert not tags.names & {"script", "iframe", "object", "embed", "style"}
            assert not re.search(r"<[^>]*\son\w+\s*=", cell.source, re.I), cell.id
    assert "widgets" not in json.dumps(reopened.metadata)


@pytest.mark.parametrize("source, says", [
    ("::: predict\nQ?\n- [ ] a\n  > no\n- [ ] b\n  > no\n:::", "marks no choice right"),
    ("::: predict\nQ?\n- [x] a\n  > yes\n- [x] b\n  > yes\n:::", "predict many"),
    ("::: predict\nQ?\n- [x] a\n- [ ] b\n  > no\n:::", "without feedback"),
    ("::: predict\nQ?\n- [x] a\n  > yes\n", "no closing"),
    ("{{ hints 7.7 }}", "no lab 7.7"),
    ("{{ hint 99.1 }}", "not a directive"),
])
def test_a_malformed_directive_is_an_error_that_names_the_lesson(kit, source, says):
    kit.source.write_text(source + "\n")
    with pytest.raises(notebooks.LessonError) as raised:
        notebooks.build(kit)
    assert "99-demo/lesson.md" in str(raised.value) and says in str(raised.value)


def test_running_a_notebook_captures_what_each_cell_prints(kit):
    printed = notebooks.execute(kit, timeout=60)
    code = [c.id for c in notebooks.build(kit).cells if c.cell_type == "code"]
    assert printed == {code[0]: "", code[1]: "hello\n", code[2]: "99.1: hint 0\n",
                       code[3]: "2\n3\n"}


def test_pin_writes_only_outputs_json_and_a_changed_pin_no_longer_matches_the_run(kit):
    notebooks.write(kit)
    notebook = kit.notebook.read_text()
    run = notebooks.pin(kit)
    assert json.loads(kit.outputs.read_text()) == run
    assert kit.notebook.read_text() == notebook and notebooks.check(kit) == []
    assert notebooks.mismatches(kit, run) == {}
    first, second = [c.id for c in notebooks.build(kit).cells if c.cell_type == "code"][1:3]
    kit.outputs.write_text(json.dumps({**run, first: "bye\n"}))
    assert list(notebooks.mismatches(kit, run)) == [first]
    assert notebooks.mismatches(kit, run)[first] == (
        f"{first} (print(\"hello\"))\n--- pinned\n+++ actual\n@@ -1 +1 @@\n-bye\n+hello")
    kit.outputs.write_text(json.dumps({first: run[first]}))
    assert "outputs.json has no pin for it" in notebooks.mismatches(kit, run)[second]
