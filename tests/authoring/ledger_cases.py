"""What the ledger's tests share (tests/authoring/test_ledger.py and test_ledger_bank.py): the
built labs, every rule of every rules.toml, the catalogue's designs by id, and where a lab's
rules are stated."""
from lab.check import manifest

from grader import ledger
from tools import wrong_designs

LEDGERED = [lab.id for lab in manifest.labs(built_only=True)]
RULES = ledger.rules()
DESIGNS = {design.id: design for design in wrong_designs.catalogue()}


def where(lab_id: str) -> str:
    """The place a lab's rules are stated, as a failure names it."""
    lab = manifest.lab(lab_id)
    return f"the Build section of {lab.lesson.source.relative_to(manifest.KIT)}"
