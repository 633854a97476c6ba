"""The browser site's drive, the kit's wheel and the lock file (tools/site.py, tools/kitwheel.py),
without the network: what a student's page holds, what its Python loads into memory as it
starts, and which of Pyodide's packages the kernel is given. The whole site, built and run
in Chromium, is tests/browser/test_site_in_browser.py."""
import hashlib
import shutil
import zipfile

import pytest

from lab.check import manifest
from lab.desk import course
from tools import kitwheel, site, site_bytecode

LABS = manifest.labs(built_only=True)


def test_the_drive_holds_the_kit_for_students_and_nothing_of_the_authors_wing(tmp_path):
    site._lay_out_drive(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*site.KIT_PARTS, "README.md"])
    assert not list(tmp_path.rglob("__pycache__")) and not (tmp_path / "source").exists()
    packed = tmp_path.joinpath(*manifest.PACKED)
    assert packed.read_text(encoding="utf-8") == \
        manifest.pack_hints(manifest.labs(built_only=True)), "course.hint reads the packed hints"
    assert "course.check" in (tmp_path / "README.md").read_text(encoding="utf-8")


def test_no_lesson_folder_has_a_lab_folder_that_would_hide_the_kernels_own(tmp_path):
    """`import lab` in a lesson's notebook must find the wheel's package in the kernel's memory,
    not a folder on the drive, every file of which is a request away."""
    site._lay_out_drive(tmp_path)
    assert not list((tmp_path / "lessons").glob("*/lab"))


def test_the_kernel_starts_with_the_kits_wheel_and_the_work_folder_on_the_drive():
    assert site.KERNEL_OPTIONS["packages"][0] == kitwheel.NAME
    assert site.KERNEL_OPTIONS["env"] == {course.WORK_ENV: "/drive/work"}


# What jupyterlite-pyodide-kernel's worker installs, one after another, unless the kernel's
# Python was started with it (its worker.ts, initPackageManager and initKernel).
WORKER_INSTALLS = ("micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython")


def test_the_kernel_starts_with_everything_its_worker_would_install_so_it_installs_nothing():
    assert set(WORKER_INSTALLS) <= set(site.KERNEL_OPTIONS["packages"])
    listed = {*site.FROM_THE_LOCK, *site.FROM_THE_EXTENSION,
              *(r.split("==")[0] for r in site.FROM_PYPI)}
    assert set(site.KERNEL_OPTIONS["packages"]) - {kitwheel.NAME} <= listed, \
        "each package the kernel starts with must be put in the site's lock"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """(the drive, the folder holding the kit's wheel made from it, its lock entry)."""
    drive, out = tmp_path_factory.mktemp("drive"), tmp_path_factory.mktemp("wheel")
    site._lay_out_drive(drive)
    return drive, out, kitwheel.make(drive, site.KIT_PARTS, out)


def test_the_kits_wheel_holds_what_lab_reads_and_no_notebook_or_figure(wheel, tmp_path):
    drive, out, entry = wheel
    with zipfile.ZipFile(out / entry["file_name"]) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path)
    assert not [n for n in names if n.endswith(".ipynb") or "/figures/" in n]
    held = {n for n in names if ".dist-info/" not in n}
    on_drive = {p.relative_to(drive).as_posix() for part in site.KIT_PARTS
                for p in (drive / part).rglob("*") if p.is_file()}
    assert held == {n for n in on_drive if not n.endswith(".ipynb") and "/figures/" not in n}
    before = manifest.relocate(tmp_path)  # the kit as `lab` sees it, unpacked in site-packages
    try:
        labs = manifest.labs(built_only=True)
        assert [lab.id for lab in labs] == [lab.id for lab in LABS]
        for lab in labs:
            assert lab.starter.is_file() and lab.tests.is_file() and lab.expected.is_file()
            assert lab.solution.is_file() and len(lab.hints) == 3, lab.id
    finally:
        manifest.relocate(before)


def test_the_kits_wheel_is_named_by_its_content_and_listed_as_pyodide_lists_a_package(
        wheel, tmp_path):
    drive, out, entry = wheel
    assert entry["sha256"] == hashlib.sha256((out / entry["file_name"]).read_bytes()).hexdigest()
    assert entry["name"] == kitwheel.NAME and entry["imports"] == ["lab"]
    assert entry["file_name"] == f"harness_course-{entry['version']}-py3-none-any.whl"
    (tmp_path / "same").mkdir()
    assert kitwheel.make(drive, site.KIT_PARTS, tmp_path / "same") == entry, \
        "the same files make the same wheel"
    changed = tmp_path / "changed"
    shutil.copytree(drive, changed)
    changed.joinpath(*manifest.PACKED).write_text("changed\n", encoding="utf-8")
    assert kitwheel.make(changed, site.KIT_PARTS, tmp_path)["version"] != entry["version"]


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
    assert not (plain / "lessons" / manifest.lesson(5).folder.name / "lab").exists()
    site._lay_out_release(tmp_path / "with", "5.1", with_reference=["3.1"])
    assert [p.relative_to(tmp_path / "with").as_posix()
            for p in (tmp_path / "with" / "solutions").rglob("*.py")] == \
        [f"solutions/{manifest.lab('3.1').folder}/harness.py"]


def test_a_class_site_through_a_lab_that_does_not_exist_is_refused(tmp_path):
    with pytest.raises(site.SiteError):
        site._lay_out_release(tmp_path, "99.1")


def test_without_node_the_wheels_stay_as_they_are_and_the_build_says_why(tmp_path, monkeypatch):
    """The site's modules are compiled ahead by its Pyodide in Node (tools/site_bytecode.py);
    a machine without Node builds the same site from source, and says what that costs."""
    (tmp_path / "package.json").write_text('{"version": "0.0.1"}', encoding="utf-8")
    wheel = tmp_path / "a-1.0-py3-none-any.whl"
    wheel.write_bytes(b"a wheel")
    monkeypatch.setattr(site_bytecode.shutil, "which", lambda name: None)
    said = site_bytecode.compile_wheels(tmp_path, {wheel: ["a"]}, tmp_path / "cache")
    assert said and "Node.js is not on PATH" in said and "slower" in said
    assert wheel.read_bytes() == b"a wheel"
