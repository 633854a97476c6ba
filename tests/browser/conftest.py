"""The browser tests run only when asked for: `pytest -m browser`, or a path under tests/browser.

They need Debian's chromium and Playwright's Python package, which the kit's setup
(`python3 start.py`) does not install: chromium is a system package, and Playwright comes with
the kit's optional extra, `pip install -e '.[browser]'`. So that the README's test command keeps
passing on a machine set up by start.py alone, a plain `pytest` leaves them out (and says so in
its summary, as deselected). When they are asked for and something is missing, they fail and
say what to install; they never skip. CI asks for them (.ci/run).
"""
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _asked_for(config) -> bool:
    if "browser" in (config.option.markexpr or ""):
        return True
    where = Path(config.invocation_params.dir)
    for arg in config.invocation_params.args:
        if arg.startswith("-"):
            continue
        path = (where / arg.split("::")[0]).resolve()
        if path == HERE or HERE in path.parents:
            return True
    return False


def pytest_collection_modifyitems(config, items):
    if _asked_for(config):
        return
    left_out = [item for item in items if item.get_closest_marker("browser")]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if not item.get_closest_marker("browser")]
