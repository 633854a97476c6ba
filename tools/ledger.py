"""The ledger of rules, by the name the authoring tools and their tests use: grader/ledger.py,
which the grader reads too (a failed bank test shows the sentence of its rule). The module is
that one, not a copy."""
import sys

from grader import ledger

sys.modules[__name__] = ledger
