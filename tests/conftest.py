"""Shared fixtures of the kit's own tests."""
import pytest

from lab.check import manifest


@pytest.fixture
def work(tmp_path, monkeypatch):
    """A fresh student work folder, so no test touches a real one."""
    folder = tmp_path / "work"
    monkeypatch.setenv("HARNESS_COURSE_WORK", str(folder))
    return folder


BUILT = [lab.id for lab in manifest.labs(built_only=True)]
