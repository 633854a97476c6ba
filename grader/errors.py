"""What an instructor asked of the grader that cannot be done, as types.

Each is a `UserError` (lab/check/errors.py): `python -m grader` turns one into a single line on
stderr and exit code 2, and catches nothing broader, so any other exception is the grader's own
fault and keeps its traceback. The message says what to do.
"""
from __future__ import annotations

from lab.check.errors import UserError


class GraderError(UserError):
    """Something asked of the grader cannot be done as asked: an argument out of range, a
    folder that is missing or in the wrong place."""


class PlanError(GraderError):
    """The plan cannot be made (an unknown lab, an extra tests file that is wrong)."""


class SandboxError(GraderError):
    """No sandbox fit to run untrusted code could be set up here; the message says why and
    what to do instead."""


class ReleaseError(GraderError):
    """The release cannot be built as asked (an unknown lab, a lab not built yet, a folder that
    holds something else)."""
