"""The browser site's drive and lock file (tools/site.py), without the network: what a student's
page holds, and which of Pyodide's packages the kernel is given. The whole site, built and run
in Chromium, is tests/browser/test_site_in_browser.py."""
import pytest

from lab.check import manifest
from tools import site


def test_the_drive_holds_the_kit_for_students_and_nothing_of_the_authors_wing(tmp_path):
    site._lay_out_drive(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*site.KIT_PARTS, "README.md"])
    assert not list(tmp_path.rglob("__pycache__")) and not (tmp_path / "source").exists()
    packed = tmp_path.joinpath(*manifest.PACKED)
    assert packed.read_text(encoding="utf-8") == \
        manifest.pack_hints(manifest.labs(built_only=True)), "course.hint reads the packed hints"
    assert "course.check" in (tmp_path / "README.md").read_text(encoding="utf-8")


def test_each_lesson_folder_has_a_doorway_to_the_drives_lab_package(tmp_path):
    site._lay_out_drive(tmp_path)
    for lesson in manifest.lessons():
        if not lesson.notebook.is_file():
            continue
        door = tmp_path / "lessons" / lesson.folder.name / "lab" / "__init__.py"
        assert "__path__ = ['/drive/lab']" in door.read_text(encoding="utf-8"), door


LOCK = {"micropip": {"depends": []}, "ipython": {"depends": ["traitlets", "Pygments"]},
        "traitlets": {"depends": []}, "pygments": {"depends": []},
        "jedi": {"depends": ["parso"]}, "parso": {"depends": []}, "numpy": {"depends": []}}


def test_the_kernel_is_given_what_it_installs_and_what_that_depends_on_only():
    assert site._needed(LOCK) == ["ipython", "jedi", "micropip", "parso", "pygments",
                                  "traitlets"]


def test_a_lock_without_a_package_the_kernel_needs_is_refused():
    with pytest.raises(site.SiteError, match="does not list parso, a package the kernel needs"):
        site._needed({k: v for k, v in LOCK.items() if k != "parso"})


def test_a_class_site_holds_the_release_through_its_lab_and_no_reference_unasked(tmp_path):
    site._lay_out_release(tmp_path / "plain", "5.1")
    plain = tmp_path / "plain"
    assert not (plain / "solutions").exists(), "a class site holds no reference unless asked"
    assert sorted(p.name for p in (plain / "lessons").iterdir()) == \
        [lesson.folder.name for lesson in manifest.lessons() if lesson.number <= 5]
    assert {p.parent.relative_to(plain / "starters").as_posix()
            for p in (plain / "starters").rglob("tests.py")} == \
        {lab.folder for lab in manifest.labs(built_only=True) if manifest.key(lab.id) <= (5, 1)}
    assert plain.joinpath(*manifest.PACKED).is_file() and (plain / "RELEASE.md").is_file()
    assert "__path__ = ['/drive/lab']" in \
        (plain / "lessons" / manifest.lesson(5).folder.name / "lab" / "__init__.py").read_text()
    site._lay_out_release(tmp_path / "with", "5.1", with_reference=["3.1"])
    assert [p.relative_to(tmp_path / "with").as_posix()
            for p in (tmp_path / "with" / "solutions").rglob("*.py")] == \
        [f"solutions/{manifest.lab('3.1').folder}/harness.py"]


def test_a_class_site_through_a_lab_that_does_not_exist_is_refused(tmp_path):
    with pytest.raises(site.SiteError):
        site._lay_out_release(tmp_path, "99.1")
