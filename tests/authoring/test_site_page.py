"""The site's drive in the page's words (tools/site_page.py, tools/site.py): lessons and starters
that say to check in a cell, since the page has no terminal; notebooks whose every text is one
string, which JupyterLite shows as it is; a README whose example is the drive's own last lab;
and the kit's own files, made for a computer, left exactly as they were."""
import json
import re

import nbformat
import pytest

from grader import lesson_notebooks
from lab.check import manifest
from lab.desk import carry
from tools import labsource, site

TERMINAL = re.compile(r"course (start|check|hint|reset|progress)\b|lab_check\.py")
THROUGH = manifest.lab("5.1")


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    files = tmp_path_factory.mktemp("whole")
    site._lay_out_drive(files)
    return files


@pytest.fixture(scope="module")
def through(tmp_path_factory):
    files = tmp_path_factory.mktemp("through")
    site._lay_out_release(files, THROUGH.id)
    return files


@pytest.fixture(params=["whole", "through"])
def drive(request):
    return request.getfixturevalue(request.param)


def notebook_of(files, lesson):
    return files / site.notebook(lesson.folder.name)


def lessons_in(files):
    """The lessons the drive holds; never none, so that no test here passes on an empty drive."""
    found = [lesson for lesson in manifest.lessons() if notebook_of(files, lesson).is_file()]
    assert found, f"the drive at {files} holds no lesson notebook where site.notebook says"
    return found


def labs_in(files):
    return [lab for lab in manifest.labs(built_only=True)
            if (files / "starters" / lab.folder / "harness.py").is_file()]


def test_the_page_notebook_is_the_committed_one_but_for_how_to_check():
    for lesson in manifest.lessons():
        if not lesson.source.is_file():
            continue
        committed, page = lesson_notebooks.build(lesson), lesson_notebooks.build(lesson, page=True)
        assert [(c.id, c.cell_type) for c in page.cells] == \
            [(c.id, c.cell_type) for c in committed.cells]
        changed = [(a.source, b.source) for a, b in zip(committed.cells, page.cells)
                   if a.source != b.source]
        assert all(a.cell_type == "markdown" for a, b in zip(committed.cells, page.cells)
                   if a.source != b.source), "a code cell's pins must not change"
        for lab in lesson.labs:
            if lab.starter.is_file():
                assert any(f'`course.check("{lab.id}")`' in page_text
                           for _, page_text in changed), (lesson.folder.name, lab.id)
        assert not [text for _, text in changed if TERMINAL.search(text)], lesson.folder.name


def test_the_drives_lessons_and_starters_name_no_terminal_command(drive):
    for lesson in lessons_in(drive):
        notebook = nbformat.read(notebook_of(drive, lesson), 4)
        said = [c.source for c in notebook.cells if c.cell_type == "markdown"
                and TERMINAL.search(c.source)]
        assert not said, (lesson.folder.name, said[:1])
    for lab in labs_in(drive):
        for name in ("harness.py", "harness.guided.py", "tests.py"):
            text = (drive / "starters" / lab.folder / name).read_text(encoding="utf-8")
            assert not TERMINAL.search(text), (lab.id, name)
        head = (drive / "starters" / lab.folder / "harness.py").read_text(encoding="utf-8")
        assert head.startswith(labsource.header(lab, "starter", page=True))
        assert f'#     course.check("{lab.id}")\n' in head


def test_the_page_starters_hold_the_kits_code_under_a_header_of_as_many_lines(whole):
    for lab in labs_in(whole):
        for mode, name in (("starter", "harness.py"), ("guided", "harness.guided.py")):
            kit = (lab.content / name).read_text(encoding="utf-8")
            page = (whole / "starters" / lab.folder / name).read_text(encoding="utf-8")
            computer, here = labsource.header(lab, mode), labsource.header(lab, mode, page=True)
            assert kit.startswith(computer), "the kit's starter keeps the computer's header"
            assert page == here + kit[len(computer):]
            assert here.count("\n") == computer.count("\n")


def test_each_page_diff_leads_from_the_reference_before_to_the_page_starter(whole):
    order = list(manifest.labs())
    for lab in labs_in(whole):
        folder = whole / "starters" / lab.folder
        if not (folder / "changes.diff").is_file():
            continue
        previous = order[order.index(lab) - 1]
        assert carry.previous_reference((folder / "harness.py").read_text(encoding="utf-8"),
                                        (folder / "changes.diff").read_text(encoding="utf-8")) \
            == previous.solution.read_text(encoding="utf-8"), lab.id


def test_every_text_of_every_drive_notebook_is_one_string(drive):
    """A list of lines would show in JupyterLite with its lines joined by commas."""
    for path in [notebook_of(drive, lesson) for lesson in lessons_in(drive)]:
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            assert isinstance(cell["source"], str), (path, cell["id"])
            for output in cell.get("outputs", []):
                texts = [output["text"]] if "text" in output else \
                    list(output.get("data", {}).values())
                assert all(isinstance(text, (str, dict)) for text in texts), (path, cell["id"])
            for bundle in cell.get("attachments", {}).values():
                assert all(isinstance(text, str) for text in bundle.values()), (path, cell["id"])


def test_a_class_sites_notebooks_keep_their_recorded_outputs(through):
    recorded = 0
    for lesson in lessons_in(through):
        notebook = nbformat.read(notebook_of(through, lesson), 4)
        for cell in notebook.cells:
            if cell.cell_type == "code" and cell.outputs:
                recorded += 1
                assert "recorded.replay(" in cell.source
    assert recorded, "a site through lab 5.1 shows recorded outputs for this test to mean anything"


def test_the_sites_readme_example_is_the_drives_last_lab(whole, through):
    last = manifest.labs(built_only=True)[-1]
    for files, lab in ((whole, last), (through, THROUGH)):
        readme = (files / "README.md").read_text(encoding="utf-8")
        for call in (f'course.start("{lab.id}")', f'course.check("{lab.id}")',
                     f'course.hint("{lab.id}")', f"work/{lab.folder}/harness.py"):
            assert call in readme, (lab.id, call)
    assert "15.1" not in (through / "README.md").read_text(encoding="utf-8")
