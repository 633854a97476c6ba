"""The libraries a child's view binds are listed once per interpreter and site-packages, not by
every grader that starts: listing them runs the loader on every extension module there."""
import pytest

from grader.sandbox import view


@pytest.fixture
def listed(tmp_path, monkeypatch):
    """view.libraries with its cache folder in tmp_path, counting each listing by ldd."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    calls = []

    def ldd():
        calls.append(1)
        return ["/etc/ld.so.cache", "/no/such/library.so"]
    monkeypatch.setattr(view, "_listed_by_ldd", ldd)
    view.libraries.cache_clear()
    yield calls
    view.libraries.cache_clear()  # the next test in this process lists the machine's own


def fresh():
    """libraries() as a newly started grader calls it."""
    view.libraries.cache_clear()
    return view.libraries()


def test_a_second_grader_reads_the_list_back_instead_of_running_ldd(listed):
    first, second = fresh(), fresh()
    assert (len(listed), first, second) == (1, ["/etc/ld.so.cache"], ["/etc/ld.so.cache"]), (
        f"Two graders started one after the other should list the libraries once (ldd ran "
        f"{len(listed)} times) and bind the same ones that exist ({first}, then {second}) "
        "(grader/sandbox/view.py, libraries)")


def test_a_changed_interpreter_or_site_packages_lists_them_again(listed, monkeypatch):
    fresh()
    monkeypatch.setattr(view, "library_key", lambda: "another-site-packages")
    fresh()
    assert len(listed) == 2, (
        "Once what the list follows from has changed (library_key), the next grader should "
        f"run ldd again; it ran {len(listed)} times (grader/sandbox/view.py, libraries)")


def test_a_torn_cache_file_is_listed_again_not_trusted(listed):
    fresh()
    view._cache_file().write_text('["/etc/ld.so.ca', encoding="utf-8")
    assert fresh() == ["/etc/ld.so.cache"] and len(listed) == 2, (
        "A cache file cut short (a disk that filled while it was written) should be listed "
        f"again by ldd; ldd ran {len(listed)} times (grader/sandbox/view.py, libraries)")


def test_installing_a_package_changes_the_key(tmp_path, monkeypatch):
    site = tmp_path / "site-packages"
    site.mkdir()
    monkeypatch.setattr(view, "interpreter", lambda: [str(site)])
    before = view.library_key()
    (site / "newpackage").mkdir()
    assert view.library_key() != before, (
        "A folder made in site-packages (pip installing a package) should change the key the "
        "list of libraries is kept under (grader/sandbox/view.py, library_key)")
