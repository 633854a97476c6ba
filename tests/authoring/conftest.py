"""Fixtures the authoring tests share."""
import pytest

from grader import bank
from lab.check import manifest, record, suite


def _bank_file(lab_id, folder):
    source = bank.path_of(lab_id).read_text(encoding="utf-8")
    path = folder / f"{bank.NAME}.py"
    path.write_text(source, encoding="utf-8")
    return suite.TestFile(None, path, source)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """recorded(lab, seed): the lab's grading bank file and its reference's record under `seed`,
    made once per module for every test that asks (record.ReferenceFailed goes to the asker):
    tests/authoring/test_ledger_bank.py's and test_allowed_designs.py's."""
    made: dict = {}

    def get(lab_id, seed):
        if (lab_id, seed) not in made:
            file = _bank_file(lab_id, tmp_path_factory.mktemp(f"bank-{lab_id}-{seed}"))
            made[lab_id, seed] = file, record.record(manifest.lab(lab_id).solution, [file],
                                                     seed=seed)
        return made[lab_id, seed]
    return get
