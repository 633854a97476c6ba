"""The student release holds the course up to one lab without a line of solution source and
without a way back to that lab's answer, shows what the lesson cells that need a missing
reference printed on it, updates an earlier release in place without touching the student's
work, and runs the same local checker (the Classroom workflow's tests are in
test_grader_classroom.py)."""
import ast
import difflib
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib

import nbformat
import pytest

from tests.grader.gradeclass import LAB
from lab.check import manifest
from lab.desk import recorded
from tools import notebooks

from grader import __main__ as cli, release
from grader.errors import ReleaseError

WEEK = manifest.lab("5.1")  # a lesson with one lab, as in a week of the course


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("release") / "course"
    return out, release.build(out)


def test_the_release_holds_lessons_starters_the_lab_package_and_the_checker(built):
    out, found = built
    for path in ("lab/lab_check.py", "lab/course.py", "lab/check/runner.py",
                 "start.py", "pyproject.toml", "README.md", "RELEASE.md", ".gitignore",
                 f"starters/{LAB.folder}/harness.py", f"starters/{LAB.folder}/tests.py",
                 f"starters/{LAB.folder}/expected.json"):
        assert (out / path).exists(), path
    assert {p.name for p in (out / "lessons").iterdir() if p.is_dir()} == \
        {lesson.folder.name for lesson in manifest.lessons()}
    assert LAB.id in found.labs


def test_the_release_holds_no_solution_source(built):
    out, _ = built
    for name in ("solutions", "source", "grader", "tests", "tools", "bench"):
        assert not (out / name).exists(), name
    assert release.solution_leaks(out) == []
    secrets = {p.read_bytes().strip() for p in (manifest.KIT / "solutions").rglob("*.py")}
    assert not [p for p in out.rglob("*") if p.is_file() and p.read_bytes().strip() in secrets]


def test_a_reference_cell_in_the_release_stops_with_a_plain_reason(built):
    out, _ = built
    code = ("from lab import course\ntry:\n    course.reference('15.1')\n"
            "except course.NoReference as exc:\n    print(exc)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", code], cwd=out, env=env, capture_output=True,
                          text=True, timeout=60)
    assert "does not include" in done.stdout, done.stdout + done.stderr


def test_release_notes_list_each_cell_that_needs_a_missing_reference(built):
    out, found = built
    notes = (out / "RELEASE.md").read_text(encoding="utf-8")
    assert "## Lesson cells shown as recorded" in notes
    assert found.cells
    for cell in found.cells:
        assert f"| {cell.number} | {', '.join(cell.needs)} |" in notes


def test_cells_that_load_a_reference_and_cells_that_use_what_they_made_are_found(tmp_path):
    cells = [
        ("markdown", "# A lesson"),
        ("code", "from lab import course\nimport lab"),
        ("code", '# Runs on: the lesson 14 reference.\nharness = course.reference("14.1")\n'
                 "h = harness.Harness(None, 'sys', [])"),
        ("code", "print(h)"),  # uses what the reference cell made
        ("code", "ws = lab.Workspace({})\nprint(ws)"),  # fakes only
        ("code", 'harness = course.yours("15.1")\nh = harness.Harness(None, "s", [])'),
        ("code", "print(h)"),  # now the student's
        ("code", "%time x = 1\nprint(harness.ABORTED)"),
    ]
    notebook = {"cells": [{"cell_type": kind, "source": text, "metadata": {}}
                          for kind, text in cells], "metadata": {}, "nbformat": 4,
                "nbformat_minor": 5}
    (tmp_path / "lesson.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    found = release.needing_reference(tmp_path, "15-stop")
    assert [(c.number, c.needs, c.direct) for c in found] == [(3, ["14.1"], True),
                                                             (4, ["14.1"], False)]
    assert found[0].first_line == 'harness = course.reference("14.1")'


def notebook_of(folder, cells):
    notebook = {"cells": [{"cell_type": kind, "source": text, "metadata": {}}
                          for kind, text in cells], "metadata": {}, "nbformat": 4,
                "nbformat_minor": 5}
    (folder / "lesson.ipynb").write_text(json.dumps(notebook), encoding="utf-8")


def test_a_cell_that_cannot_run_leaves_every_name_it_binds_missing_below(tmp_path):
    notebook_of(tmp_path, [
        ("code", 'torn = lab.fail("reset")\nharness = course.reference("5.1")'),
        ("code", "print(torn)"),  # bound by a clean statement, in a cell that does not run
        ("code", 'torn = lab.fail("again")\nprint(torn)'),
    ])
    found = release.needing_reference(tmp_path, "05-exits")
    assert [(c.number, c.needs, c.direct) for c in found] == [(1, ["5.1"], True),
                                                             (2, ["5.1"], False)]


def test_cells_that_work_on_a_lab_of_a_later_release_are_found_only_when_it_is_later(tmp_path):
    notebook_of(tmp_path, [("code", 'course.start("7.2")'),
                           ("code", 'harness = course.yours("7.2")'), ("code", "print(harness)"),
                           ("code", 'course.start("7.1")')])
    found = release.needing_reference(tmp_path, "07-events", later={"7.2"})
    assert [(c.number, c.needs, c.later) for c in found] == [(1, [], ["7.2"]), (2, [], ["7.2"]),
                                                            (3, [], ["7.2"])]
    assert release.needing_reference(tmp_path, "07-events") == []


def test_with_reference_ships_only_the_chosen_labs_reference(tmp_path):
    out = tmp_path / "course"
    found = release.build(out, with_reference=[LAB.id])
    assert (out / "solutions" / LAB.folder / "harness.py").read_text() == \
        LAB.solution.read_text()
    assert [p.relative_to(out).as_posix() for p in (out / "solutions").rglob("*.py")] == \
        [f"solutions/{LAB.folder}/harness.py"]
    assert all(LAB.id not in c.needs for c in found.cells)
    assert "except the references of 15.1" in (out / "RELEASE.md").read_text()


def test_a_release_needs_nothing_from_the_authoring_tools(tmp_path):
    """pyproject.toml installs lab/ and grader/ only: a release, with the cells it shows as
    recorded, is built where `tools` cannot be imported."""
    code = ("import sys\n"
            "sys.modules['tools'] = None  # any import of it now fails\n"
            "from grader import release\n"
            "found = release.build(sys.argv[1], through='3.1')\n"
            "assert found.cells and not found.unbuilt, (found.cells, found.unbuilt)\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "course")],
                          cwd=manifest.KIT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(manifest.KIT)})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "course" / "lessons" / "02-tools" / recorded.FILE).is_file()


def test_a_release_is_never_built_over_a_folder_with_files(tmp_path):
    (tmp_path / "old.txt").write_text("keep me")
    with pytest.raises(release.ReleaseError, match="no release of this course"):
        release.build(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["old.txt"]
    assert (tmp_path / "old.txt").read_text() == "keep me"


# --- a week's release: up to one lab, and nothing that leads to its answer --------------------

@pytest.fixture(scope="module")
def week(tmp_path_factory):
    out = tmp_path_factory.mktemp("week") / "course"
    return out, release.build(out, through=WEEK.id)


def test_a_release_through_a_lab_holds_the_lessons_and_labs_up_to_it_and_nothing_after(week):
    out, found = week
    upto = manifest.key(WEEK.id)
    assert {p.name for p in (out / "lessons").iterdir()} == \
        {lesson.folder.name for lesson in manifest.lessons()
         if lesson.number <= WEEK.lesson.number}
    labs = [lab for lab in manifest.labs(built_only=True) if manifest.key(lab.id) <= upto]
    assert found.labs == [lab.id for lab in labs]
    assert sorted(p.parent.relative_to(out / "starters").as_posix()
                  for p in (out / "starters").rglob("harness.py")) == \
        sorted(lab.folder for lab in labs)
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert f"course start {WEEK.id}" in readme and "one lab at a time" in readme.lower()


def gap_lines(lab: manifest.Lab) -> list[str]:
    """The lines filling the lab's gaps: lines of its reference that its starter lacks."""
    starter = lab.starter.read_text(encoding="utf-8").splitlines()
    reference = lab.solution.read_text(encoding="utf-8").splitlines()
    known = {line.strip() for line in starter}
    found = []
    for tag, _, _, j1, j2 in difflib.SequenceMatcher(None, starter, reference,
                                                     autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            found += [line.strip() for line in reference[j1:j2]
                      if line.strip() and not line.strip().startswith("#")
                      and line.strip() not in known]
    return found


def patched(diff: str, text: str, *, undo: bool = False) -> str | None:
    """`text` with the unified diff applied (or undone, as `patch -R` does); None where a hunk
    does not fit exactly."""
    lines = text.splitlines()
    out, at = [], 0
    hunks = re.split(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@.*$", diff, flags=re.MULTILINE)
    dropped, added = ("+", "-") if undo else ("-", "+")
    for old_start, new_start, body in zip(hunks[1::3], hunks[2::3], hunks[3::3]):
        start = max(int(new_start if undo else old_start) - 1, 0)
        before, after = [], []
        for line in body.strip("\n").split("\n"):
            mark, rest = (line[:1] or " "), line[1:]
            if mark in (" ", dropped):
                before.append(rest)
            if mark in (" ", added):
                after.append(rest)
        if start < at or lines[start:start + len(before)] != before:
            return None
        out += lines[at:start] + after
        at = start + len(before)
    return "\n".join(out + lines[at:])


def texts(path) -> str:
    """A file's text as a reader could search it: as written, with every string inside it if
    it is JSON (a notebook's code and outputs, recorded.json, expected.json), HTML unescaped."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return ""
    found = [text, html.unescape(text)]

    def strings(value):
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for inner in value.values():
                strings(inner)
        elif isinstance(value, list):
            for inner in value:
                strings(inner)

    if path.suffix in (".json", ".ipynb"):
        try:
            strings(json.loads(text))
        except ValueError:
            pass
    return "\n".join(found)


def rebuilt(folder, lab: manifest.Lab, *, every_line: bool) -> list[str]:
    """How the files in `folder` give back `lab`'s reference: by applying or undoing every diff
    in it on every starter in it (harness.py, harness.guided.py) and on what that makes, until
    nothing new comes; or as a file holding the reference's gap lines (with every_line, a file
    holding any one of them counts; without, only a file holding all of them)."""
    reference = lab.solution.read_text(encoding="utf-8").strip()
    diffs = {p: p.read_text(encoding="utf-8") for p in folder.rglob("*.diff")}
    seen = {p.read_text(encoding="utf-8").strip(): p for p in folder.rglob("harness*.py")}
    frontier = list(seen)
    while frontier:
        text = frontier.pop()
        for path, diff in diffs.items():
            for undo in (False, True):
                made = patched(diff, text, undo=undo)
                if made is not None and made.strip() not in seen:
                    seen[made.strip()] = path
                    frontier.append(made.strip())
    ways = [f"diffs: applying or undoing {seen[reference].relative_to(folder)} gives it"] \
        if reference in seen else []
    gaps = gap_lines(lab)
    assert gaps, f"lab {lab.id}'s reference fills no gaps; nothing to look for"
    for path in folder.rglob("*"):
        if path.is_file():
            text = texts(path)
            held = [line for line in gaps if line in text]
            if held and (every_line or len(held) == len(gaps)):
                ways.append(f"{path.relative_to(folder)} holds {len(held)} of its "
                            f"{len(gaps)} gap lines, first {held[0]!r}")
    return ways


def test_the_release_gives_hints_for_its_labs_from_a_packed_file_and_none_for_later_ones(
        week, tmp_path):
    out, _ = week
    packed = out.joinpath(*manifest.PACKED).read_text(encoding="utf-8")
    lab_ids = {line.split()[0] for line in packed.splitlines() if not line.startswith("#")}
    assert lab_ids == {lab.id for lab in manifest.labs(built_only=True)
                       if manifest.key(lab.id) <= manifest.key(WEEK.id)}
    assert WEEK.hints[0].strip().splitlines()[0] not in packed
    asked = subprocess.run(
        [sys.executable, "-c", "import sys; from lab.desk import course; "
         f"sys.exit(course.main(['hint', '{WEEK.id}']))"],
        cwd=out, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(out), "HARNESS_COURSE_WORK": str(tmp_path)})
    assert asked.returncode == 0, asked.stderr
    assert WEEK.hints[0].strip() in asked.stdout


def test_undoing_a_labs_diff_on_its_starter_gives_the_previous_labs_reference():
    before = manifest.before(WEEK.id)[-1]
    diff = (WEEK.content / "changes.diff").read_text(encoding="utf-8")
    undone = patched(diff, WEEK.starter.read_text(encoding="utf-8"), undo=True)
    assert undone.strip() == before.solution.read_text(encoding="utf-8").strip()
    assert patched(diff, undone).strip() == WEEK.starter.read_text(encoding="utf-8").strip()


def test_nobody_rebuilds_the_newest_labs_reference_from_a_release_through_it(week):
    out, _ = week
    assert rebuilt(out, WEEK, every_line=True) == []


def test_the_same_search_rebuilds_it_from_a_release_one_lab_later(tmp_path):
    """Why a release stops at the lab the class is on: the next starter holds its answer."""
    after = manifest.labs(built_only=True)[manifest.labs(built_only=True).index(WEEK) + 1]
    out = tmp_path / "course"
    release.build(out, through=after.id)
    ways = rebuilt(out, WEEK, every_line=False)
    assert any(way.startswith("diffs:") for way in ways), ways
    assert any(way.startswith(f"starters/{after.folder}/harness.py") for way in ways), ways


@pytest.mark.parametrize("lab_id", [lab.id for lab in manifest.labs(built_only=True)])
def test_no_release_gives_back_its_last_labs_reference_whole(tmp_path, lab_id):
    out = tmp_path / "course"
    release.build(out, through=lab_id)
    assert rebuilt(out, manifest.lab(lab_id), every_line=False) == []


def test_no_pinned_output_prints_a_line_of_an_answer_it_is_released_with():
    """What a release shows as recorded is what cells printed, never the code of an answer: no
    pin of a lesson up to a lab's own holds a line that fills that lab's gaps (whole, or, if
    12 characters or more, inside a longer line)."""
    found = []
    for lab in manifest.labs(built_only=True):
        gaps = gap_lines(lab)
        for lesson in [x for x in manifest.lessons() if x.number <= lab.lesson.number]:
            for cell, text in notebooks.pins(lesson).items():
                lines = {line.strip() for line in text.splitlines()}
                found += [f"{lab.id}: {lesson.folder.name} {cell} prints {line!r}"
                          for line in gaps if line in lines or (len(line) >= 12 and line in text)]
    assert found == []


def test_each_cell_that_needs_a_missing_reference_shows_what_it_printed_there(week):
    out, found = week
    assert {c.lesson for c in found.cells} >= {WEEK.lesson.folder.name}
    for lesson in [x for x in manifest.lessons() if x.folder.name in found.lessons]:
        mine = {c.number for c in found.cells if c.lesson == lesson.folder.name}
        pins = notebooks.pins(lesson)
        shipped = nbformat.read(out / "lessons" / lesson.folder.name / "lesson.ipynb", 4)
        record = out / "lessons" / lesson.folder.name / recorded.FILE
        entries = json.loads(record.read_text(encoding="utf-8")) if mine else {}
        for number, cell in enumerate(shipped.cells, 1):
            if cell.cell_type != "code":
                continue
            if number not in mine:
                assert not cell.get("outputs"), f"{lesson.folder.name} {cell.id} has outputs"
                continue
            where = f"{lesson.folder.name} {cell.id}"
            text = "".join(output.get("text", "") for output in cell.outputs)
            assert text.splitlines()[0].startswith("Recorded from the course's reference "
                                                   "solution"), where
            assert text.split("\n", 1)[1] == pins[cell.id], where
            assert text == recorded.text(entries[cell.id]), where
            calls = [node for node in ast.walk(ast.parse(cell.source))
                     if isinstance(node, ast.Call) and "reference" in ast.unparse(node.func)]
            assert not calls, f"{where} still loads a reference"
            assert "works before your lab does" not in cell.source, where
            assert entries[cell.id]["code"].splitlines()[-1] in cell.source, where


def test_the_kits_own_notebooks_keep_no_outputs_after_a_release(week):
    for lesson in manifest.lessons():
        notebook = nbformat.read(lesson.notebook, 4)
        assert not [c.id for c in notebook.cells if c.get("outputs")], lesson.folder.name


def in_release(out, work, *args, check=True):
    """Run python with `args` as a student would in the release `out`, on the work folder."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "HARNESS_COURSE_AS_SOLVED")}
    env.update(HARNESS_COURSE_WORK=str(work), PYTHONPATH=str(out))
    done = subprocess.run([sys.executable, *args], cwd=out, env=env, capture_output=True,
                          text=True, timeout=300)
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_a_weeks_lesson_runs_every_cell_on_the_record_or_on_the_students_passing_files(
        week, tmp_path):
    """The student passed the lab before (a real check) and wrote this week's file, unchecked:
    cells needing only the last lab's reference run on the student's file and say so, the
    others print their record, and no cell stops the run."""
    from nbclient import NotebookClient

    out, found = week
    work = tmp_path / "work"
    before = manifest.before(WEEK.id)[-1]
    for lab, check in ((before, True), (WEEK, False)):
        in_release(out, work, "-m", "lab.desk.course", "start", lab.id, "--force")
        shutil.copyfile(lab.solution, work / lab.folder / "harness.py")
        if check:
            in_release(out, work, "-m", "lab.desk.course", "check", lab.id)
    folder = out / "lessons" / WEEK.lesson.folder.name
    notebook = nbformat.read(folder / "lesson.ipynb", 4)
    shipped = {cell.id: "".join(o.get("text", "") for o in cell.get("outputs", []))
               for cell in notebook.cells}
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "HARNESS_COURSE_AS_SOLVED")}
    env.update(HARNESS_COURSE_WORK=str(work), PYTHONPATH=str(out))
    NotebookClient(notebook, timeout=60, kernel_name="python3",
                   resources={"metadata": {"path": str(folder)}}).execute(env=env)
    pins = notebooks.pins(WEEK.lesson)
    ran_on_yours = 0
    for number, cell in enumerate(notebook.cells, 1):
        if cell.cell_type != "code":
            continue
        assert not [o for o in cell.outputs if o.output_type == "error"], cell.id
        entry = next((c for c in found.cells if c.lesson == folder.name and c.number == number),
                     None)
        printed = notebooks.printed(cell)
        if entry is None:
            continue
        if entry.needs == [before.id]:
            assert printed == (f"Ran on your own lab {before.id} file, which passes its tests; "
                               f"the reference printed the same:\n{pins[cell.id]}"), cell.id
            ran_on_yours += 1
        else:
            assert printed == shipped[cell.id], cell.id
    assert ran_on_yours


def test_a_passing_record_is_not_enough_the_students_file_must_print_the_same(week, tmp_path):
    out, found = week
    before = manifest.before(WEEK.id)[-1]
    cell = next(c for c in found.cells if c.lesson == WEEK.lesson.folder.name
                and c.needs == [before.id] and c.direct)
    cell_id = nbformat.read(out / "lessons" / cell.lesson / "lesson.ipynb", 4).cells[
        cell.number - 1].id
    work = tmp_path / "work"
    in_release(out, work, "-m", "lab.desk.course", "start", before.id, "--force")  # the starter: gaps
    (work / "progress.json").write_text(json.dumps(
        {"checks": {before.id: {"passed": 1, "failed": 0, "runs": 1}}}), encoding="utf-8")
    done = in_release(out, work, "-c", "import lab\nfrom lab import course\n"
                      "from lab.desk import recorded\nnames = set(globals()) | {'names'}\n"
                      f"recorded.replay({cell.lesson!r}, {cell_id!r}, globals())\n"
                      "print('names it left:', sorted(set(globals()) - names))")
    assert done.stdout == (
        f"Recorded from the course's reference solution of lab {before.id}, which this release "
        f"does not include (on your own lab {before.id} file, this cell printed something "
        f"else):\n{notebooks.pins(WEEK.lesson)[cell_id]}names it left: []\n"), \
        done.stdout + done.stderr


def tree(folder) -> dict:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_later_release_adds_the_new_labs_and_leaves_the_students_work_alone(tmp_path):
    out = tmp_path / "course"
    earlier = manifest.before("7.2")[-2]  # two labs before 7.2: 6.1
    first = manifest.labs(built_only=True)[0]  # its reference is shipped now, and not later
    release.build(out, through=WEEK.id, with_reference=[first.id])
    work = out / "work"
    for lab in manifest.before(earlier.id)[-2:]:
        (work / lab.folder).mkdir(parents=True)
        (work / lab.folder / "harness.py").write_text(f"# my {lab.id}\n", encoding="utf-8")
    (work / "progress.json").write_text('{"checks": {}}\n', encoding="utf-8")
    (work / "responses.json").write_text('{"05.retry": "mine"}\n', encoding="utf-8")
    (out / "lessons" / "05-exits" / "notes.md").write_text("my notes\n", encoding="utf-8")
    notebook = out / "lessons" / WEEK.lesson.folder.name / "lesson.ipynb"
    saved = notebook.read_text(encoding="utf-8").replace('"outputs": []', '"outputs": [ ]', 1)
    notebook.write_text(saved, encoding="utf-8")  # the student saved the lesson
    (out / "README.md").write_text("my own README\n", encoding="utf-8")
    kept = {**tree(work), "notes": tree(out / "lessons" / "05-exits")["notes.md"]}

    found = release.build(out, through="7.2")

    assert {**tree(work), "notes": tree(out / "lessons" / "05-exits")["notes.md"]} == kept
    assert notebook.read_text(encoding="utf-8") == saved
    assert found.left == [notebook.relative_to(out).as_posix()]
    assert found.kept == {"README.md": "README.yours.md"}
    assert (out / "README.yours.md").read_text(encoding="utf-8") == "my own README\n"
    assert "course start 7.2" in (out / "README.md").read_text(encoding="utf-8")
    assert "RELEASE.md" in found.updated
    assert not (out / "solutions").exists()  # shipped before, unchanged, not chosen now
    assert f"solutions/{first.folder}/harness.py" in found.removed
    assert f"lessons/{first.lesson.folder.name}/lesson.ipynb" in found.updated
    for lab_id in ("6.1", "7.1", "7.2"):
        assert (out / "starters" / manifest.lab(lab_id).folder / "harness.py").is_file()
    assert {p.name for p in (out / "lessons").iterdir()} >= {"06-budgets", "07-events"}
    assert not (out / "starters" / "08-harness").exists()
    notes = (out / "RELEASE.md").read_text(encoding="utf-8")
    assert "README.yours.md" in notes


def test_a_release_never_goes_back_to_an_earlier_lab(tmp_path):
    out = tmp_path / "course"
    release.build(out, through="7.2")
    before = tree(out)
    with pytest.raises(ReleaseError, match="goes forward"):
        release.build(out, through=WEEK.id)
    assert tree(out) == before


def test_a_lesson_released_before_its_last_lab_says_that_lab_comes_later(tmp_path):
    out = tmp_path / "course"
    found = release.build(out, through="7.1")
    assert found.later == ["7.2"]
    assert not (out / "starters" / manifest.lab("7.2").folder).exists()
    toml = tomllib.loads((out / "lessons" / "07-events" / "lesson.toml").read_text())
    assert {lab["id"]: lab.get("reference_only", False) for lab in toml["lab"]} == \
        {"7.1": False, "7.2": True}
    waiting = [c for c in found.cells if c.later]
    assert waiting
    shipped = nbformat.read(out / "lessons" / "07-events" / "lesson.ipynb", 4)
    for cell in waiting:
        text = "".join(o.get("text", "") for o in shipped.cells[cell.number - 1].outputs)
        assert text == "Lab 7.2 comes in a later release of this course; this cell runs once " \
                       "it is here.\n"
    done = in_release(out, tmp_path / "work", "-m", "lab.desk.course", "start", "7.2",
                      check=False)
    assert done.returncode == 2 and "comes in a later version" in done.stderr


def test_the_release_command_goes_through_a_lab_and_names_an_unknown_one(tmp_path, capsys):
    assert cli.main(["release", "--out", str(tmp_path / "a"), "--through", "3.1"]) == 0
    assert "through lab 3.1" in capsys.readouterr().out
    assert cli.main(["release", "--out", str(tmp_path / "b"), "--through", "3.9"]) == 2
    assert "there is no lab 3.9" in capsys.readouterr().err
    assert cli.main(["release", "--out", str(tmp_path / "c"), "--through", "3.1",
                     "--with-reference", "4.1"]) == 2
    assert "comes after lab 3.1" in capsys.readouterr().err
    assert not (tmp_path / "b").exists() and not (tmp_path / "c").exists()


def test_a_release_that_changes_a_labs_tests_tells_students_to_check_it_again(tmp_path):
    """Students mid-course hold files that passed the tests they had: when a later release
    replaces a lab's tests, RELEASE.md names the lab and the command that checks it again."""
    from grader.release.carry import STATE
    out = tmp_path / "course"
    release.build(out, through="3.1")
    lab = manifest.lab("2.1")
    tests = out / "starters" / lab.folder / "tests.py"
    tests.write_text("# the tests as an earlier version of the course had them\n", encoding="utf-8")
    state = json.loads((out / STATE).read_text(encoding="utf-8"))  # as if the kit wrote them
    state["files"][tests.relative_to(out).as_posix()] = hashlib.sha256(
        tests.read_bytes()).hexdigest()
    (out / STATE).write_text(json.dumps(state), encoding="utf-8")

    found = release.build(out, through="5.1")

    notes = (out / "RELEASE.md").read_text(encoding="utf-8")
    assert "## Labs whose tests changed" in notes and "- Lab 2.1: `course check 2.1`" in notes, (
        "a release that replaced lab 2.1's tests should tell a student who passed it to check "
        f"it again; RELEASE.md says:\n{notes}")
    assert "Lab 3.1: `course check" not in notes, "lab 3.1's tests did not change"
    assert tests.relative_to(out).as_posix() in found.updated
