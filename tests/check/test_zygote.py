"""Children forked from a ready interpreter (lab/check/zygote.py): the same child as a new
interpreter would be, as far as harness.py can tell, and no zygote left behind or kept past
its use. That the checker's death ends a forked child is test_runner's
test_stopping_the_checker_leaves_no_child, on the POSIX path, which forks."""
import os
import signal
import sys

import pytest

from lab.check import manifest, process, runner, suite, zygote

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.environ.get(runner.PORTABLE_ENV) == "1",
    reason="children are forked only on Linux's POSIX path")

LAB = manifest.lab("2.1")

TELLS_WHAT_IT_SEES = """
import os as _os, random as _random, sys as _sys

print("argv", _sys.argv)
print("flags", _sys.flags.safe_path, _sys.flags.no_user_site, _sys.flags.utf8_mode,
      _sys.flags.isolated, _sys.flags.ignore_environment)
print("hash", hash("the same under the same seed"))
print("path", _sys.path[0] == {kit!r}, "cwd", _os.getcwd() == {cwd!r})
print("descriptors", sorted(int(fd) for fd in _os.listdir("/proc/self/fd")))
print("session-leader", _os.getsid(0) == _os.getpid())
print("main", sorted(name for name in vars(_sys.modules["__main__"]) if not name.startswith("__")))
print("random", _random.random())
print("parent-is-checker", _os.getppid() == {checker})
"""


def seen(folder, monkeypatch, fork: str) -> dict[str, str]:
    """What harness.py printed of itself, line by line, started with HARNESS_CHECK_FORK=fork."""
    monkeypatch.setenv(process.FORK_ENV, fork)
    monkeypatch.delenv(runner.PORTABLE_ENV, raising=False)
    path = folder / "harness.py"
    path.write_text(LAB.solution.read_text(encoding="utf-8") + TELLS_WHAT_IT_SEES.format(
        kit=str(manifest.KIT), cwd=str(folder), checker=os.getpid()), encoding="utf-8")
    files = suite.of_lab(LAB.id, cumulative_=False)
    report = runner.run(path, files, runner.expected_for(files))
    assert report.outcomes and report.failed == 0, (
        f"lab 2.1's reference, with lines that only print, failed in a "
        f"{'forked' if fork == '1' else 'started'} child: {report.import_error or report.outcomes}")
    return dict(line.split(" ", 1) for line in report.output.splitlines())


def test_a_harness_cannot_tell_a_forked_child_from_a_started_one(tmp_path, monkeypatch):
    forked, started = seen(tmp_path, monkeypatch, "1"), seen(tmp_path, monkeypatch, "0")
    assert forked.pop("parent-is-checker") == "False", (
        "on Linux's POSIX path the child should be forked from a zygote, not started by the "
        "checker: lab/check/process.py's _forked")
    assert started.pop("parent-is-checker") == "True"
    assert forked.pop("random") != started.pop("random")
    assert forked == started, (
        "a forked child should look to harness.py as a new interpreter does; it differs in: "
        + ", ".join(f"{k}: forked {forked.get(k)!r}, started {started.get(k)!r}"
                    for k in sorted(set(forked) | set(started)) if forked.get(k) != started.get(k)))


def test_two_forked_children_draw_different_random_numbers(tmp_path, monkeypatch):
    first, second = seen(tmp_path, monkeypatch, "1"), seen(tmp_path, monkeypatch, "1")
    assert first["random"] != second["random"], (
        "each forked child must reseed random as a new interpreter does, not share the "
        "zygote's state: lab/check/zygote.py's _be_the_child")


def test_a_zygote_that_died_is_replaced_and_the_check_goes_on(tmp_path, monkeypatch):
    seen(tmp_path, monkeypatch, "1")
    assert zygote._zygotes, "a check on the POSIX path made no zygote"
    dead = list(zygote._zygotes.values())[-1]  # the newest: the one this check used
    os.kill(dead.process.pid, signal.SIGKILL)
    dead.process.wait()
    seen(tmp_path, monkeypatch, "1")  # fails its own assertion if no child could be had
    used = list(zygote._zygotes.values())[-1]
    assert used is not dead and used.alive and used.process.poll() is None, (
        "after its zygote was killed, the next check should fork from a new one")


def test_at_most_a_few_zygotes_are_kept_and_those_let_go_have_ended(tmp_path, monkeypatch):
    monkeypatch.delenv(runner.PORTABLE_ENV, raising=False)
    monkeypatch.setenv(process.FORK_ENV, "1")
    path = tmp_path / "harness.py"
    path.write_text(LAB.solution.read_text(encoding="utf-8"), encoding="utf-8")
    files = suite.of_lab(LAB.id, cumulative_=False)
    made = []
    for n in range(zygote.KEPT + 2):  # an environment each, so a zygote each
        report = runner.run(path, files, runner.expected_for(files),
                            env={**os.environ, "HARNESS_TEST_ENVIRONMENT": str(n)})
        assert report.failed == 0
        made += [z for z in zygote._zygotes.values() if z not in made]
    assert len(zygote._zygotes) <= zygote.KEPT
    gone = [z for z in made if z not in zygote._zygotes.values()]
    assert gone and all(z.process.poll() is not None for z in gone), (
        "a zygote let go must end, not wait for the checker to end")
