"""The two files that set a release up, made a student's: start.py, whose closing line names
the release's own last lab rather than the kit's example, and pyproject.toml, which installs
only what a student runs (the lab/ package, the `course` command and the packages they import),
without the authors' site build, benchmarks, grader or test setup."""
from __future__ import annotations

import json
import re
import tomllib

from lab.check import manifest

# What the release's lab/ package and its lessons import, by the name pip installs them under
# (IPython comes with ipykernel); tests/grader/test_grader_release_setup.py holds this to it.
STUDENT_PACKAGES = ("jupyterlab", "ipykernel", "httpx", "merge3")

# start.py's closing line, whose lab the release replaces with its own last one.
START_LESSON = re.compile(r"--lesson \d+ tests\.py")
START_CHECK = re.compile(r"(/ 'course'\} check )[\d.]+\)")

PYPROJECT = """\
# The course as a student installs it (python3 start.py does): the lab/ package, the `course`
# command, and the packages the lessons and the desk import. Made from the kit's own.

[build-system]
requires = {requires}
build-backend = {backend}

[project]
name = {name}
version = {version}
description = {description}
readme = "README.md"
requires-python = {python}
dependencies = [
{dependencies}]

[project.scripts]
{scripts}
[tool.setuptools.packages.find]
include = ["lab*"]
"""


def start_script(last: manifest.Lab) -> str:
    """The kit's start.py with its closing line naming `last`, the release's last lab: its
    lesson in the checker's command, and its id in `course check`."""
    text = (manifest.KIT / "start.py").read_text(encoding="utf-8")
    text, lessons = START_LESSON.subn(f"--lesson {last.lesson.number} tests.py", text)
    text, checks = START_CHECK.subn(rf"\g<1>{last.id})", text)
    if (lessons, checks) != (1, 1):  # the kit's line changed: this must learn its new form
        raise RuntimeError(f"start.py names a lab in {lessons} checker commands and {checks} "
                           "course check commands, where the release rewrites one of each")
    return text


def _requirement_name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0].lower()


def pyproject() -> str:
    """A student's pyproject.toml: the kit's name, version, description, Python and command,
    and of its dependencies only STUDENT_PACKAGES, as the kit pins them."""
    kit = tomllib.loads((manifest.KIT / "pyproject.toml").read_text(encoding="utf-8"))
    project = kit["project"]
    wanted = [r for r in project["dependencies"] if _requirement_name(r) in STUDENT_PACKAGES]
    missing = set(STUDENT_PACKAGES) - {_requirement_name(r) for r in wanted}
    if missing:
        raise RuntimeError(f"the kit's pyproject.toml no longer lists {', '.join(sorted(missing))}")
    quoted = json.dumps  # a TOML basic string is a JSON string for these plain values
    return PYPROJECT.format(
        requires=quoted(kit["build-system"]["requires"]),
        backend=quoted(kit["build-system"]["build-backend"]),
        name=quoted(project["name"]), version=quoted(project["version"]),
        description=quoted(project["description"]),
        python=quoted(project["requires-python"]),
        dependencies="".join(f"    {quoted(r)},\n" for r in wanted),
        scripts="".join(f"{name} = {quoted(target)}\n"
                        for name, target in project["scripts"].items()))
