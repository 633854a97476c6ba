"""The browser site names each lesson's notebook for its folder (tools/site.py's `notebook`), in
the whole course and in a class's release alike, and its README and first page say so: in
JupyterLite two notebooks with one file name share a session, and the second gets no kernel
(tests/browser/test_site_lessons_in_turn.py shows it in Chromium)."""
from lab.check import manifest
from tools import site


def test_every_lesson_notebook_in_the_drive_has_a_name_of_its_own_and_the_site_links_to_it(
        tmp_path):
    site._lay_out_drive(tmp_path / "course")
    site._lay_out_release(tmp_path / "class", "5.1")
    for drive, lessons in ((tmp_path / "course", manifest.lessons()),
                           (tmp_path / "class", manifest.lessons()[:5])):
        held = sorted(p.relative_to(drive).as_posix() for p in drive.rglob("*.ipynb"))
        assert held == [str(site.notebook(lesson.folder.name)) for lesson in lessons], drive
        assert len({name.rsplit("/", 1)[1] for name in held}) == len(held)
        first = str(site.notebook(manifest.lesson(1).folder.name))
        assert f"Open a lesson, {first} first" in (drive / "README.md").read_text(encoding="utf-8")
    assert site.first_page() == f"lab/index.html?path={first}"
