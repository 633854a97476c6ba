"""Shared fixtures of the kit's own tests."""
import os
import signal
import sys

import pytest

from lab.check import manifest
from lab.desk.workfolder import SOLVED_ENV, WORK_ENV
from tests import run_share

# A suite started in the background (a CI runner, nohup, `cmd &` in a script) inherits SIGINT
# ignored, and so would every process it starts, where Python then leaves Ctrl-C ignored. The
# tests that press Ctrl-C at a checker, the grader or `course chat` need it as a terminal gives
# it: handled here, it is the default again in each process started from here.
signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (the README's command, through pyproject.toml) starts half as many workers
    again as there are cores: about a quarter of the suite's time is spent waiting on the
    children its tests start (a sandbox set up, a kernel started, a guard's wall clock), and a
    third worker on two cores fills it (measured: 265 s against 301 s, file order, on a fresh
    clone). bench.suite holds the figure. The browser tests (`-m browser`) keep one worker a
    core: each drives Chromium and a JupyterLab of its own, and they wait on nothing else."""
    cores = os.cpu_count() or 1
    if (config.getoption("markexpr") or "").strip() == "browser":
        return cores
    return cores + cores // 2


def pytest_xdist_make_scheduler(config, log):
    """`--dist loadfile` (pyproject.toml's) with the catalogue's files split by lab
    (tests/scheduling.py); any other --dist is xdist's own."""
    if config.getoption("dist") != "loadfile":
        return None
    from tests.scheduling import ByFileOrLab
    return ByFileOrLab(config, log)


@pytest.fixture(scope="session")
def run_seed(pytestconfig):
    """The run's seed, as pytest-randomly prints it at the run's top (every xdist worker gets
    the same), or None with randomly off (`-p no:randomly`). Tests that try a share of a large
    space each run draw it from this, so `-p randomly --randomly-seed=N` tries run N's again."""
    return run_share.seed_of(pytestconfig)


@pytest.fixture(scope="session")
def this_runs_share(run_seed):
    """this_runs_share(choices): the one of `choices` this run tries, chosen by the run's seed
    (tests/run_share.py), so that runs in a row try each in turn (all of them with randomly
    off): for tests that would cost too much under every choice each run."""
    def share(choices: tuple) -> tuple:
        return tuple(run_share.share(choices, run_seed, len(choices)))
    return share


@pytest.fixture(scope="session")
def bank_seeds(this_runs_share):
    """The seeds this run tries a design on a grading bank under: this run's share of
    ledger_cases.BANK_SEEDS, so that runs in a row try each in turn; all three with randomly
    off, as a kill author checks a new design. The designs' bank runs were the largest part of
    the README command's time under two seeds a run, and grow with every round of the hunt; the
    reference passes the whole bank under all three in every run."""
    from tests.authoring.ledger_cases import BANK_SEEDS
    return this_runs_share(BANK_SEEDS)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """recorded(lab, seed): the lab's grading bank, copied to a file of its own, and its
    reference's record under `seed`, made once per module for every test that asks
    (record.ReferenceFailed goes to the asker): the ledger's bank tests and the allowed
    designs' (tests/authoring/)."""
    from grader import bank
    from lab.check import record, suite
    made: dict = {}

    def get(lab_id, seed):
        if (lab_id, seed) not in made:
            folder = tmp_path_factory.mktemp(f"bank-{lab_id}-{seed}")
            source = bank.path_of(lab_id).read_text(encoding="utf-8")
            (folder / f"{bank.NAME}.py").write_text(source, encoding="utf-8")
            file = suite.TestFile(None, folder / f"{bank.NAME}.py", source)
            made[lab_id, seed] = file, record.record(manifest.lab(lab_id).solution, [file],
                                                     seed=seed)
        return made[lab_id, seed]
    return get


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
