"""A student mid-course reads, in the release notes of an update, what changed in the labs
they could have passed: the words of source/lab_changes.toml, for each lab the update touched,
and none for a lab it did not."""
import hashlib
import json

from lab.check import manifest

from grader import release
from grader.release import changes
from grader.release.carry import STATE

TOLD = ("2.1", "5.1", "6.1", "8.1", "9.1", "14.1", "16.1")


def _as_shipped_before(out, path: str, text: str) -> None:
    """Make `path` in the release at `out` read as an earlier version of the kit shipped it."""
    target = out / path
    target.write_text(text, encoding="utf-8")
    state = json.loads((out / STATE).read_text(encoding="utf-8"))
    state["files"][path] = hashlib.sha256(target.read_bytes()).hexdigest()
    (out / STATE).write_text(json.dumps(state), encoding="utf-8")


def _forget_changes(out) -> None:
    """Make the release at `out` one built before any entry of lab_changes.toml landed."""
    state = json.loads((out / STATE).read_text(encoding="utf-8"))
    state["changes"] = []
    (out / STATE).write_text(json.dumps(state), encoding="utf-8")


def _section(notes: str, lab_id: str) -> str:
    start = notes.find(f"### Lab {lab_id}\n")
    return "" if start < 0 else notes[start:notes.find("\n### ", start + 1)]


def test_every_lab_named_here_has_words_that_say_what_changed():
    recorded = changes.recorded()
    assert {c.lab for c in recorded} >= set(TOLD), (
        "source/lab_changes.toml should say in words what changed in each of labs "
        f"{', '.join(TOLD)} since students could pass them; it has entries for "
        f"{sorted({c.lab for c in recorded})}")


def test_an_update_tells_what_changed_in_each_touched_lab_and_nothing_for_the_others(tmp_path):
    out = tmp_path / "course"
    release.build(out, through="16.1")
    _forget_changes(out)
    untouched = "14.1"  # has entries, but the update below replaces none of its files
    for lab_id in TOLD:
        if lab_id != untouched:
            lab = manifest.lab(lab_id)
            _as_shipped_before(out, f"starters/{lab.folder}/tests.py",
                               "# the tests as an earlier version of the course had them\n")

    found = release.build(out, through="16.2")

    notes = (out / "RELEASE.md").read_text(encoding="utf-8")
    assert "## What changed in labs you may have passed" in notes, (
        "an update that replaced the tests of labs a student may have passed should say what "
        f"changed in them; RELEASE.md says:\n{notes}")
    for change in changes.recorded():
        section = _section(notes, change.lab)
        if change.lab in TOLD and change.lab != untouched:
            assert f"- {change.landed.isoformat()}: {change.words}" in section, (
                f"lab {change.lab}'s tests were replaced, so RELEASE.md should tell what "
                f"changed on {change.landed} in lab_changes.toml's words; its section reads:\n"
                f"{section or '(none)'}")
        else:
            assert not section, (f"the update replaced no file of lab {change.lab}, so "
                                 f"RELEASE.md should say nothing about it; it says:\n{section}")
    assert "### Lab 16.2" not in notes, "16.2 is new in this update: nobody has passed it"
    state = json.loads((out / STATE).read_text(encoding="utf-8"))
    assert state["changes"] == [c.key for c in changes.recorded()] == found.known


def test_an_update_tells_no_change_the_release_it_updates_already_knew(tmp_path):
    out = tmp_path / "course"
    release.build(out, through="6.1")
    lab = manifest.lab("6.1")
    _as_shipped_before(out, f"starters/{lab.folder}/tests.py", "# older tests\n")

    release.build(out, through="7.1")

    notes = (out / "RELEASE.md").read_text(encoding="utf-8")
    assert "- Lab 6.1: `course check 6.1`" in notes  # its tests were replaced
    assert "## What changed in labs you may have passed" not in notes, (
        "every entry of lab_changes.toml was known to the release being updated, so none is "
        f"news; RELEASE.md says:\n{notes}")


def test_a_first_release_tells_no_changes(tmp_path):
    out = tmp_path / "course"
    release.build(out, through="6.1")
    assert "What changed in labs" not in (out / "RELEASE.md").read_text(encoding="utf-8")
