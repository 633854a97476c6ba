"""What a sandbox holds and what it cannot prevent: the statement every report and Gradescope
result carries, so an instructor knows what grading untrusted code here risked. It says what
was found, not what was hoped for: the level the probe settled on, whether the probe could
still read a secret or reach the network, and how many submissions ran at once; and it says
plainly, at each level, what a submission can read and what it can leave behind.

A Statement is a typed record of those facts (grader/sandbox/found.py's Sandbox); its two
lists of sentences are made from them when read, by grader/words_statement.py, so rewording
one changes nothing the sandbox decided. It travels from the sandbox to the reports and into
grades.json, read and written through `to_dict` and `from_dict` alone, as grader/grades.py does
for the file around it. A grades.json written before the facts were kept holds the sentences
alone (`written`), and reads back with them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader import words_statement
from grader.sandbox.found import Sandbox


@dataclass(frozen=True)
class Statement:
    """What a sandbox held and what it could not prevent: its level ("namespaces", "user",
    "limits"), whether each slot ran as a user of its own, the sentences an older grades.json
    held (`written_holds`, `written_cannot`: empty for a statement made now), and the facts
    the sentences are made from (`sandbox`; None in an older grades.json)."""
    level: str
    own_users: bool
    written_holds: tuple[str, ...] = ()
    written_cannot: tuple[str, ...] = ()
    sandbox: Sandbox | None = None

    @classmethod
    def of(cls, box: Any) -> "Statement":
        """The statement of the sandbox `box` (grader/sandbox/box.py's), as facts."""
        found = Sandbox.of(box)
        return cls(found.level, found.first_uid is not None, sandbox=found)

    @property
    def holds(self) -> tuple[str, ...]:
        """What the sandbox holds, in words (grader/words_statement.py's)."""
        return tuple(words_statement.statement(self.sandbox)[0]) if self.sandbox \
            else self.written_holds

    @property
    def cannot_prevent(self) -> tuple[str, ...]:
        """What the sandbox cannot prevent, in words (grader/words_statement.py's)."""
        return tuple(words_statement.statement(self.sandbox)[1]) if self.sandbox \
            else self.written_cannot

    def to_dict(self) -> dict[str, Any]:
        """The statement as grades.json keeps it, keys in the order the file has always had,
        then the facts. The sentences are written too, as they read when the file was
        written, for a person reading the file and a grader that predates the facts."""
        return {"level": self.level, "own_users": self.own_users, "holds": list(self.holds),
                "cannot_prevent": list(self.cannot_prevent),
                "sandbox": self.sandbox.to_dict() if self.sandbox else None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Statement":
        """The statement `to_dict` made, or an older grades.json's, which may lack a key (a
        grades.json made by hand may hold none: {}). Where the facts are there the sentences
        are made from them again; without them the sentences are kept as written. TypeError
        or ValueError for anything that is not one."""
        if not isinstance(data, dict):
            raise TypeError(f"an isolation statement is an object, not {type(data).__name__}")
        found = data.get("sandbox")
        if found is not None:
            sandbox = Sandbox.from_dict(found)
            return cls(sandbox.level, sandbox.first_uid is not None, sandbox=sandbox)
        holds, cannot = data.get("holds", []), data.get("cannot_prevent", [])
        if not all(isinstance(x, list) and all(isinstance(line, str) for line in x)
                   for x in (holds, cannot)):
            raise ValueError("an isolation statement's holds and cannot_prevent are lists of "
                             "sentences")
        return cls(str(data.get("level", "")), bool(data.get("own_users", False)),
                   tuple(holds), tuple(cannot))
