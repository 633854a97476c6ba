"""The one way a harness.py is imported: as the module `harness`, compiled from its source.

Every importer of a student's file or a reference (the checker's child, the in-process
recording of the reference, the desk's notebook cells) comes through here. No bytecode cache
is read or written: a cache would be left in the kit beside every solution and starter, and an
edit that keeps a file's size within the same second could be served stale from one.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from types import ModuleType


class _FromSource(importlib.machinery.SourceFileLoader):
    """A loader that compiles the file every time and never touches __pycache__."""

    def get_code(self, fullname):
        return compile(self.get_data(self.path), self.path, "exec", dont_inherit=True)


def import_harness(path: str | Path) -> ModuleType:
    """Import the file at `path` afresh as the module `harness`, replacing any earlier one, so
    that `import harness` in a test or a cell finds this file as it is now. A file that raises
    while importing leaves no `harness` module behind."""
    path = str(path)
    sys.modules.pop("harness", None)
    loader = _FromSource("harness", path)
    spec = importlib.util.spec_from_file_location("harness", path, loader=loader)
    if spec is None:  # given a loader, there always is one
        raise ImportError(f"no module spec for {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["harness"] = module
    try:
        loader.exec_module(module)
    except BaseException:
        sys.modules.pop("harness", None)
        raise
    return module
