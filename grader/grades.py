"""grades.json as one type: what a batch writes of a graded lab, and what the class page, the
gradebook export and the class folder's weeks read back.

`Grades.to_dict` is the only writer of the file's data (grader/report.py writes it) and
`Grades.read` (or `from_dict`) its only reader, so a field is added in one place and every
reader gets it typed: each submission comes back as grader/row.py's Row, its verdicts as
enums, each test's fact as lab/check/facts.py's. A grades.json an instructor already holds,
written before a field was added (a row's `overrides`, a test's `cause`), reads with that
field's default.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from grader.errors import GraderError
from grader.plan import Test
from grader.refusals import NotGrades, Unreadable
from grader.row import Row
from grader.sandbox.statement import Statement


@dataclass
class Grades:
    """A graded lab: the lab, the plan's sets and tests, what the sandbox could not prevent
    (the isolation statement, grader/sandbox/statement.py), the files left alone, and a Row
    for every submission, as students may see it (Row.for_students)."""
    lab: str
    name: str
    title: str
    own_lab_only: bool
    max: float
    sets: list[dict[str, Any]]  # grader/plan.py's Plan.sets: {"set", "tests", "checks", ...}
    tests: list[Test]
    isolation: Statement
    ignored: list[str] = field(default_factory=list)
    submissions: list[Row] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """grades.json's data, keys in the order the file has always had them."""
        return {"lab": self.lab, "name": self.name, "title": self.title,
                "own_lab_only": self.own_lab_only, "max": self.max, "sets": self.sets,
                "tests": [asdict(t) for t in self.tests], "isolation": self.isolation.to_dict(),
                "ignored": list(self.ignored),
                "submissions": [r.to_dict() for r in self.submissions]}

    def dumps(self) -> str:
        """grades.json's text."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Grades":
        """The graded lab `to_dict` made, or an older grades.json's. Raises KeyError,
        TypeError or ValueError for anything else."""
        return cls(lab=data["lab"], name=data["name"], title=data["title"],
                   own_lab_only=data.get("own_lab_only", False), max=data["max"],
                   sets=list(data.get("sets", [])),
                   tests=[Test(**t) for t in data["tests"]],
                   isolation=Statement.from_dict(data.get("isolation", {})),
                   ignored=list(data.get("ignored", [])),
                   submissions=[Row.from_dict(r) for r in data["submissions"]])

    @classmethod
    def read(cls, path: Path) -> "Grades":
        """The grades.json at `path`; a GraderError (a one-line UserError) when it is not one."""
        try:
            return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))
        except OSError as exc:
            raise GraderError(Unreadable(path, exc.strerror or str(exc))) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise GraderError(NotGrades(path, f"{type(exc).__name__}: {exc}")) from None
