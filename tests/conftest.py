"""Shared fixtures of the kit's own tests."""
import sys

import pytest

from lab.check import manifest
from lab.desk.workfolder import SOLVED_ENV, WORK_ENV


@pytest.fixture
def work(tmp_path, monkeypatch):
    """A fresh student work folder, so no test touches a real one, holding the student's own
    files (never the references that HARNESS_COURSE_AS_SOLVED stands in); the harness a test
    imported from it is forgotten afterwards."""
    folder = tmp_path / "work"
    monkeypatch.setenv(WORK_ENV, str(folder))
    monkeypatch.delenv(SOLVED_ENV, raising=False)
    yield folder
    sys.modules.pop("harness", None)


BUILT = [lab.id for lab in manifest.labs(built_only=True)]
