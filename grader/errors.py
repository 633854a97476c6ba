"""What an instructor asked of the grader that cannot be done, as types.

Each is a `UserError` (lab/check/errors.py): `python -m grader` turns one into a single line on
stderr and exit code 2, and catches nothing broader, so any other exception is the grader's own
fault and keeps its traceback.

Each carries a refusal (grader/refusals.py), the values that say why, and makes no sentence of
its own: its words are grader/words_refused.py's, made when it is shown (str(), which the
command line prints), so a caller that needs to know why reads `fact`, never the message.
"""
from __future__ import annotations

from lab.check.errors import UserError, Worded

from grader import words_refused
from grader.refusals import Refusal


class Refused(Worded[Refusal]):
    """An exception that carries a refusal, `fact`, worded only when shown by
    grader/words_refused.py: the grader's exceptions (GraderError's; lesson_notebooks.
    LessonError's and ledger.LedgerError's, which are the authors' and are no GraderError)."""

    def worded(self) -> str:
        return words_refused.refused(self.fact)


class GraderError(Refused, UserError):
    """Something asked of the grader cannot be done as asked: an argument out of range, a
    folder that is missing or in the wrong place. `fact` says which and why."""


class PlanError(GraderError):
    """The plan cannot be made (an unknown lab, an extra tests file that is wrong)."""


class SandboxError(GraderError):
    """No sandbox fit to run untrusted code could be set up here; the message says why and
    what to do instead."""


class ReleaseError(GraderError):
    """The release cannot be built as asked (an unknown lab, a lab not built yet, a folder that
    holds something else)."""
