"""What the ledger's tests share (tests/authoring/test_ledger.py and test_ledger_bank.py, and
test_allowed_designs.py for the bank): the built labs, every rule of every rules.toml, the
catalogue's designs by id, where a lab's rules are stated, where its grading bank is, and the
seeds a bank is tried under."""
from lab.check import manifest, seeds

from grader import bank, ledger
from tools import wrong_designs

LEDGERED = [lab.id for lab in manifest.labs(built_only=True)]
RULES = ledger.rules()
DESIGNS = {design.id: design for design in wrong_designs.catalogue()}
# The seeds a grading bank is tried under (test_ledger_bank.py, test_allowed_designs.py): a
# grading run draws its cases under a secret seed, and a design must fail under any, an allowed
# one pass under any. The public seed is one of them like the others: no student ever runs the
# bank under it.
BANK_SEEDS = (seeds.PUBLIC, 4, 2026)


def where(lab_id: str) -> str:
    """The place a lab's rules are stated, as a failure names it."""
    lab = manifest.lab(lab_id)
    return f"the Build section of {lab.lesson.source.relative_to(manifest.KIT)}"


def shown_bank(lab_id: str):
    """Where a lab's grading bank is, from the kit's top, as a failure names it."""
    return bank.path_of(lab_id).relative_to(manifest.KIT)
