"""What the grader refuses to do, as facts: each a frozen record of the values that say why
(the path, the lab, the limit), carried by the GraderError that is raised with it
(grader/errors.py).

Nothing here is a sentence. The words an instructor reads are made from these records in one
place, grader/words_refused.py, when the error is shown (`python -m grader` prints it on
stderr); whoever needs to know why something was refused reads the record's type and values,
never those words back. A new refusal is a new record here and its case there; the
pseudo-localised test (tests/check/test_pseudo_localised.py) makes one of each and fails on a
record that has no words.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lab.check.problems import CannotBlind, Problem

Where = Path | str  # a path as it was given


@dataclass(frozen=True)
class Refusal:
    """One reason the grader stops before doing what was asked."""


# --- the command line and the submissions folder (grader/__main__.py, grader/pipeline.py) -----

@dataclass(frozen=True)
class NotPositive(Refusal):
    option: str  # "--memory-mb"


@dataclass(frozen=True)
class NoJobs(Refusal):
    """--jobs below 1."""


@dataclass(frozen=True)
class TooManyJobs(Refusal):
    most: int


@dataclass(frozen=True)
class NoSubmissionsFolder(Refusal):
    path: Where


@dataclass(frozen=True)
class OutInside(Refusal):
    """The output folder holds or sits inside the kit or the submissions folder."""


@dataclass(frozen=True)
class NoSubmissions(Refusal):
    path: Where


# --- a graded lab's folder (grader/classfolder.py, grader/grades.py, grader/gradebook.py) ------

@dataclass(frozen=True)
class Unreadable(Refusal):
    path: Where
    why: str  # the system's own words (an OSError's strerror)


@dataclass(frozen=True)
class NotGrades(Refusal):
    """A grades.json this grader did not write, or cannot read back."""
    path: Where
    problem: str  # the exception's type and text, as Python gave it


@dataclass(frozen=True)
class StrayGrades(Refusal):
    """A grades.json at the top of an output folder, which would move into its lab's folder,
    that this grader did not write."""
    path: Where
    problem: str


@dataclass(frozen=True)
class LabTwice(Refusal):
    out: Where
    lab: str
    target: Where


@dataclass(frozen=True)
class NoGradedLab(Refusal):
    out: Where


@dataclass(frozen=True)
class WhichLab(Refusal):
    out: Where
    labs: tuple[str, ...]
    every: str  # the --lab value that asks for every lab


@dataclass(frozen=True)
class NotALab(Refusal):
    given: str
    every: str


@dataclass(frozen=True)
class LabNotGraded(Refusal):
    lab: str
    out: Where
    labs: tuple[str, ...]


@dataclass(frozen=True)
class NoVisibility(Refusal):
    """--hidden-visibility given a value Gradescope does not know."""
    given: str
    visibilities: tuple[str, ...]


@dataclass(frozen=True)
class NoFormat(Refusal):
    given: str
    formats: tuple[str, ...]


# --- the roster and the overrides (grader/roster.py, grader/overrides.py) -----------------------

@dataclass(frozen=True)
class NoRoster(Refusal):
    path: Where


@dataclass(frozen=True)
class EmptyRoster(Refusal):
    path: Where


@dataclass(frozen=True)
class RosterUnnamed(Refusal):
    """The roster's first row names no column that names the student."""
    path: Where
    headings: tuple[str, ...]


@dataclass(frozen=True)
class NoOverrides(Refusal):
    path: Where


@dataclass(frozen=True)
class OverridesUnheaded(Refusal):
    path: Where
    columns: tuple[str, ...]


@dataclass(frozen=True)
class NoSuchStudent(Refusal):
    path: Where
    line: int  # of the overrides file, from 1
    lab: str
    student: str


@dataclass(frozen=True)
class NoSuchTest(Refusal):
    path: Where
    line: int  # of the overrides file, from 1
    lab: str
    test: str


@dataclass(frozen=True)
class NotAChange(Refusal):
    path: Where
    line: int  # of the overrides file, from 1
    change: str


@dataclass(frozen=True)
class EmptyOverride(Refusal):
    path: Where
    line: int  # of the overrides file, from 1


# --- the plan: the lab, its seed, its bank, an instructor's extra tests (grader/plan.py, bank.py)

@dataclass(frozen=True)
class UnknownLabAsked(Refusal):
    """No such lab in this kit: the engine's own record (lab/check/errors.py UnknownLab)."""
    missing: Problem


@dataclass(frozen=True)
class NotBuilt(Refusal):
    lab: str  # the lab's name, "lab 5.1"


@dataclass(frozen=True)
class SeedMismatch(Refusal):
    seed: int
    recorded: int


@dataclass(frozen=True)
class NoSolutions(Refusal):
    """A reference must be recorded, and this copy of the kit has no solutions/."""
    lab: str  # the lab's name
    to: str  # what needs it: "seed" (of its own), "extra" (tests), "bank", "bundle" (Gradescope)


@dataclass(frozen=True)
class BankFails(Refusal):
    lab: str
    path: Where
    failures: tuple[str, ...]


@dataclass(frozen=True)
class ExtraFails(Refusal):
    lab: str
    name: str
    failures: tuple[str, ...]


@dataclass(frozen=True)
class NoExtra(Refusal):
    path: Where


@dataclass(frozen=True)
class ExtraNamedTwice(Refusal):
    first: str
    second: str  # the same as `first` when two files share a name
    runs_as: str


@dataclass(frozen=True)
class ExtraUnparsed(Refusal):
    path: Where
    error: str  # the SyntaxError's text


@dataclass(frozen=True)
class ExtraUnblindable(Refusal):
    reach: CannotBlind  # the engine's own record (lab/check/errors.py Unblindable)


@dataclass(frozen=True)
class ExtraEmpty(Refusal):
    file: str


@dataclass(frozen=True)
class BadShare(Refusal):
    path: Where
    key: str
    lab: str
    share: object  # the value the file holds


@dataclass(frozen=True)
class BankLedgerDisagree(Refusal):
    lab: str
    bank: Where
    ledger: Where
    rule: str
    lost: tuple[str, ...]  # the bank tests the rule names that the bank lacks


# --- a sandbox (grader/sandbox/__init__.py) -----------------------------------------------------

@dataclass(frozen=True)
class NotLinux(Refusal):
    platform: str


@dataclass(frozen=True)
class Unsafe(Refusal):
    """Why one level of sandbox could not be used."""
    level: str  # "namespaces", "user", "limits"


@dataclass(frozen=True)
class NoUsers(Unsafe):
    """Neither ids free for users of its own nor a user `nobody`."""


@dataclass(frozen=True)
class ViewUnplanned(Unsafe):
    error: str


@dataclass(frozen=True)
class ProbeFailed(Unsafe):
    """The probe (grader/sandbox/probe.py) gave no report: at which stage, and what the system
    or the child said ("" for nothing)."""
    stage: str  # "start" (the child could not start), "failed" (it exited), "unreadable"
    detail: str


@dataclass(frozen=True)
class OwnFileClosed(Unsafe):
    base: Where


@dataclass(frozen=True)
class ProbeReached(Unsafe):
    readable: tuple[str, ...]
    network: object


@dataclass(frozen=True)
class NotAlone(Unsafe):
    pid: int
    pids: tuple[int, ...]


@dataclass(frozen=True)
class NoSandbox(Refusal):
    """No level could be used: each one's reason, and, as root, what to fix."""
    problems: tuple[Unsafe, ...]
    root: bool
    kit: Where
    python: Where
    base: Where


# --- a workflow and a release (grader/classroom.py, grader/release/) ---------------------------

@dataclass(frozen=True)
class NoCourse(Refusal):
    out: Where
    lab: str


@dataclass(frozen=True)
class OtherCourse(Refusal):
    out: Where
    lab: str
    differ: tuple[str, ...]  # the course's files that differ from the kit's


@dataclass(frozen=True)
class ReleaseNotBuilt(Refusal):
    lab: str  # the lab's name


@dataclass(frozen=True)
class NoReference(Refusal):
    lab: str  # the lab's name


@dataclass(frozen=True)
class ReferenceLater(Refusal):
    lab: str
    last: str


@dataclass(frozen=True)
class BadChange(Refusal):
    path: Where
    entry: object


@dataclass(frozen=True)
class ChangeTwice(Refusal):
    path: Where
    keys: tuple[str, ...]


@dataclass(frozen=True)
class NotARelease(Refusal):
    out: Where
    state: str


@dataclass(frozen=True)
class ReleaseBackwards(Refusal):
    out: Where
    through: str
    last: str


# --- the authors' files: a ledger and a lesson's text (grader/ledger.py, lesson_notebooks.py) ---

@dataclass(frozen=True)
class LedgerUnread(Refusal):
    path: Where
    error: str  # tomllib's own words


@dataclass(frozen=True)
class BadRule(Refusal):
    """A [[rule]] without the keys it needs, or with others."""
    path: Where
    keys: tuple[str, ...]  # the ones it has


@dataclass(frozen=True)
class NoBuildSection(Refusal):
    """No section of the lesson holds the lab's {{ starter LAB }} directive."""
    path: Where
    lab: str


@dataclass(frozen=True)
class NotAChoice(Refusal):
    """A line after a prediction's first choice that is neither a choice nor its feedback."""
    where: str  # the lesson's file and line
    line: str


@dataclass(frozen=True)
class PredictionFault(Refusal):
    where: str
    fault: str  # "no question", "one choice", "no feedback", "none right", "several right"


@dataclass(frozen=True)
class NotPredict(Refusal):
    """A ::: line that opens neither a prediction nor a multi-select one."""
    where: str
    line: str


@dataclass(frozen=True)
class Unclosed(Refusal):
    """A ::: predict block with no closing :::."""
    where: str


@dataclass(frozen=True)
class UnknownLabIn(Refusal):
    where: str
    missing: Problem  # the engine's own record (lab/check/errors.py UnknownLab)


@dataclass(frozen=True)
class NotADirective(Refusal):
    where: str
    line: str


@dataclass(frozen=True)
class HintLevels(Refusal):
    lab: str
    levels: int
    path: Where


@dataclass(frozen=True)
class NoTestsFile(Refusal):
    lab: str
    path: Where


@dataclass(frozen=True)
class TestsSayNothing(Refusal):
    """A lab's tests.py holds no @lab_test description."""
    lab: str


@dataclass(frozen=True)
class NotMade(Refusal):
    """A file tools/make.py makes (a starter, its changes.diff) is missing."""
    lab: str
    path: Where


@dataclass(frozen=True)
class NoFigure(Refusal):
    lesson: str
    path: Where
