"""Tests that drive the course in a real browser; run with `pytest -m browser`. A package, so
that its conftest does not stand in for tests/conftest.py as the module `conftest`."""
