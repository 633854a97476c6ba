"""The catalogue of wrong designs: each one a lesson names, shows failing, or recalls, written as
a small change to its lab's reference, so that a kit test can prove the lab's tests fail it.

A lesson teaches a rule by ruling out the tempting designs that break it. A lab whose tests
pass one of those designs tells its student "all passed" for exactly the mistake the lesson
warned about, so every such design is kept here and checked (tests/authoring/test_wrong_designs.py).

The catalogue is source/wrong_designs/lesson_NN_slug.py, one module per lesson, in the authors'
wing, each holding a list WRONG of entries (and, where the lesson allows other answers than its
reference's, a list ALLOWED in the same form, see `allowed`; and designs no check of the lab can
afford to tell apart, a list BEYOND, see `Beyond`):

    Wrong(lab="9.1",                          # the lab that teaches the rule
          name="taken when handed over",      # the lesson's own name for the design
          rule="A steer leaves its queue only once it is recorded.",  # the rule it breaks
          where="Build section",              # where the lesson names or shows it
          names="recorded",                   # words a failing test's sentence or message holds
          replace=r'''
        ...lines of the lab's reference, exactly as solutions/ has them...
''',
          by=r'''
        ...the wrong design's lines...
''',
          also=((replace, by), ...))          # more changes, for a design with several parts

Each `replace` must occur exactly once in the lab's reference, so a change to the single source
that moves those lines fails loudly instead of leaving an entry that tests nothing. The newline
after a string's opening quotes and before its closing ones is not part of the text. The
entries are Python rather than TOML because they are code: the copy check reads them as code.
"""
from __future__ import annotations

import dataclasses
import runpy
from dataclasses import dataclass

from lab.check import manifest
from tools import labsource

FOLDER = "wrong_designs"


class CatalogueError(ValueError):
    """An entry that cannot be applied; the message names its file and design."""


def _text(value: str) -> str:
    """A block string without the newline after its opening quotes or before its closing ones,
    so entries can be written with the code on lines of its own."""
    if value.startswith("\n"):
        value = value[1:]
    if value.endswith("\n"):
        value = value[:-1]
    return value


@dataclass(frozen=True)
class Wrong:
    lab: str
    name: str
    rule: str
    where: str
    names: str
    replace: str
    by: str
    also: tuple = ()  # further (replace, by) pairs
    file: str = ""  # the catalogue module it came from, for messages

    @property
    def id(self) -> str:
        """A stable name for test ids: "9.1: taken when handed over"."""
        return f"{self.lab}: {self.name}"

    def changes(self) -> list[tuple[str, str]]:
        return [(_text(old), _text(new)) for old, new in ((self.replace, self.by), *self.also)]

    def apply(self, reference: str) -> str:
        """The lab's reference with this design in place of the right one. A `replace` text
        begins at the start of a line: found inside a longer line, a moved or re-indented line
        would still match, and the design would quietly change something else."""
        for old, new in self.changes():
            lines = f"\n{reference}"
            found = lines.count(f"\n{old}")
            if found != 1:
                raise CatalogueError(
                    f"{self.file}, {self.name!r}: a `replace` text occurs {found} times in "
                    f"the reference of lab {self.lab} from a line's start, not once; copy it "
                    "again from solutions/.")
            reference = lines.replace(f"\n{old}", f"\n{new}")[1:]
        return reference


def _entries(name: str) -> list[Wrong]:
    """The entries of every catalogue module's list `name`, in course order of their lab, then
    file order; a module may leave ALLOWED and BEYOND out."""
    designs = []
    for path in sorted((manifest.SOURCE / FOLDER).glob("lesson_*.py")):
        entries = runpy.run_path(str(path)).get(name, None if name == "WRONG" else [])
        if not isinstance(entries, list) or not all(isinstance(e, Wrong) for e in entries):
            raise CatalogueError(f"{path.name}: {name} must be a list of Wrong(...) entries")
        designs += [dataclasses.replace(e, file=path.name) for e in entries]
    designs.sort(key=lambda d: manifest.key(d.lab))
    return designs


def catalogue() -> list[Wrong]:
    """Every wrong design in the catalogue (each module's WRONG)."""
    return _entries("WRONG")


@dataclass(frozen=True)
class Beyond(Wrong):
    """A wrong design that differs from the reference only past what a check of its lab can
    afford (each list BEYOND): a cap of a thousand rounds where the rule says there is none,
    a wait that gives up after ten thousand turns. Any finite reach has such a design past it,
    so the hunt records it here instead of leaving it open, and a kit test keeps the claim
    honest both ways (tests/authoring/test_beyond_reach.py): the design passes every test of
    its lab (else it belongs in WRONG), and `deep`, run once with room to go past the reach,
    passes the reference and fails the design naming its rule."""
    reach: str = ""  # what the lab's tests can afford, and where past it the design differs
    deep: str = ""  # a test file's code, in tests.py's form, that goes past the reach
    turns: int = 10_000  # the budget of turns each of deep's tests may take
    seconds: float = 5.0  # the processor time and wall clock each of deep's tests may take


def beyond() -> list[Beyond]:
    """Every design a lab's check cannot reach (each module's BEYOND)."""
    found = _entries("BEYOND")
    plain = [d.id for d in found if not isinstance(d, Beyond) or not d.deep or not d.reach]
    if plain:
        raise CatalogueError(f"BEYOND entries need Beyond(..., reach=..., deep=...): {plain}")
    return [d for d in found if isinstance(d, Beyond)]


def allowed() -> list[Wrong]:
    """Every design a lesson allows (each module's ALLOWED): a change to its lab's reference that
    keeps the lab's rules another way, a stricter or safer answer where a rule leaves the choice,
    which the lab's tests must pass (tests/authoring/test_allowed_designs.py). `rule` says what
    the lesson allows and why; `names` is unused."""
    return _entries("ALLOWED")


def harness(design: Wrong) -> str:
    """The text of the lab's reference with `design` applied, made from the single source."""
    lab = manifest.lab(design.lab)
    return design.apply(labsource.make(lab, "solution"))
