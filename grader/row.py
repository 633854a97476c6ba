"""A submission's grade row: what every report, the journal and Gradescope are written from.

A row is built in one place, `build`, from the engine's outcomes and the plan's points; it
becomes JSON (grades.json, the journal) through `Row.to_dict` and comes back through
`Row.from_dict`, so the journal a batch resumes from holds exactly what the reports were
written from. Its verdicts are enums that are also strs, so JSON and CSV carry the plain words.

A row holds everything, for the instructor; what a student may be given is its
`for_students()` view, in which a hidden test keeps only its sentence and verdict (a test of
the grading bank: the sentence of the rule it checks, grader/bank.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum

from lab.check import facts, words_feedback
from lab.check.advice import blank, missing
from lab.check.facts import Cause
from lab.check.rules import Rule
from lab.check.verdict import Outcome, Verdict

from grader import bank, cells
from grader import plan as plans
from grader.plan import Plan


class Overall(StrEnum):
    """A whole submission's verdict. Declared in the order the summary counts them."""
    FULL_MARKS = "full marks"
    PARTIAL = "partial"
    NO_MARKS = "no marks"
    DOES_NOT_IMPORT = "does not import"
    EMPTY = "empty file"  # no code at all: every test failed for lack of a name
    LACKS_NAMES = "lacks the lab's names"  # code, but every test failed for lack of a name
    NOT_GRADED = "not graded"
    GRADER_ERROR = "grader error"  # the grader's own fault: never journaled, graded again

    @property
    def words(self) -> str:
        """The verdict as a student reads it beside the score."""
        return words_feedback.overall(self.value)

    @property
    def broken(self) -> bool:
        """Whether no test could tell anything about the student's code: the file did not
        import, held none of it, or was not graded. The class summary counts these apart."""
        return self in (Overall.DOES_NOT_IMPORT, Overall.EMPTY, Overall.LACKS_NAMES,
                        Overall.NOT_GRADED, Overall.GRADER_ERROR)


def _fields(data) -> dict:
    """A row's or an entry's fields as asdict gives them, one level deep: each list a copy,
    each value as it is (strings, numbers, enums, and the entry's cause and rule, which
    to_dict turns into dicts itself). asdict would copy every test's fact and rule on the way,
    only for to_dict to replace them: a class's grades.json and journal cost seconds of it."""
    return {f.name: list(value) if isinstance(value := getattr(data, f.name), list) else value
            for f in fields(data)}


@dataclass
class Entry:
    """One test in a row: the plan's test, the engine's verdict and reason, and the points."""
    id: str
    says: str
    lab: str | None
    set: str
    hidden: bool
    verdict: Verdict
    message: str
    points: float
    earned: float
    # Why it ended as it did (lab/check/facts.py), kept beside `message` for what is decided
    # from it: a file that lacks the lab's names, the summary's groups. None in a grades.json
    # written before facts were kept, and in a hidden test's view for students.
    cause: Cause | None = None
    # The rule of the check it failed at (lab/check/verdict.py's Outcome.rule): what the class
    # page matches the catalogue's wrong designs by. None where it failed at no check, in a
    # grades.json written before rules were kept, and in a hidden test's view for students.
    rule: Rule | None = None

    def __post_init__(self):
        self.verdict = Verdict(self.verdict)

    def to_dict(self) -> dict:
        """The entry as JSON-ready data: its fields in order, the fact and the rule as their
        dicts."""
        data = _fields(self)
        data["cause"] = facts.to_dict(self.cause) if self.cause is not None else None
        data["rule"] = self.rule.to_dict() if self.rule is not None else None
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "Entry":
        """The entry to_dict made, or one of a grades.json without facts or rules (cause and
        rule are None)."""
        cause, rule = data.get("cause"), data.get("rule")
        return cls(**{**data, "cause": facts.from_dict(cause) if cause is not None else None,
                      "rule": Rule.from_dict(rule) if rule is not None else None})


@dataclass
class Row:
    """One submission's grade: its score and verdict, and an Entry for every test of the plan."""
    student: str
    source: str  # where the harness.py was found, relative to the submissions folder
    score: float
    max: float
    verdict: Overall
    problem: str | None  # why nothing could be graded, in words for the student
    import_error: str | None
    tests: list[Entry]
    notes: list[str]
    printed_bytes: int
    output: str  # the start of what harness.py printed
    seconds: float
    overrides: list[str] = field(default_factory=list)  # the instructor's (grader/overrides.py)
    digest: str = ""  # the sha256 of the bytes graded, so a rerun can say the file changed
    review: list[str] = field(default_factory=list)  # lines that need review (grader/review.py)

    def __post_init__(self):
        self.verdict = Overall(self.verdict)

    def for_students(self) -> "Row":
        """The row as a student may read it. A hidden test's reason is the judge's words on
        the instructor's code (its wanted and found values, its whys) or the submission's own
        (an error's message, which can carry anything its process read, the hidden code
        included), so it gives way to words_feedback.HIDDEN_REASON; kept only when the whole submission shares
        it (why nothing was graded, or why the file did not import: both from outside the
        hidden run, and shown anyway)."""
        shared = {"", self.problem, self.import_error} - {None}
        return replace(self, tests=[t if not t.hidden or t.message in shared
                                    else replace(t, message=words_feedback.BANK_REASON
                                                 if t.set == bank.SET
                                                 else words_feedback.HIDDEN_REASON,
                                                 cause=None, rule=None)
                                    for t in self.tests])

    def to_dict(self) -> dict:
        """The row as JSON-ready data, keys in the order grades.json has always had them (each
        test's fact last, where a grades.json has one)."""
        return {**_fields(self), "tests": [t.to_dict() for t in self.tests]}

    @classmethod
    def from_dict(cls, data: dict) -> "Row":
        """The row `to_dict` made. Raises KeyError, TypeError or ValueError for anything else
        (a journal line of another version), which the journal treats as not graded
        (facts.Unreadable is a ValueError)."""
        return cls(**{**data, "tests": [Entry.from_dict(t) for t in data["tests"]]})


def build(plan: Plan, student: str, source: str, outcomes: list[Outcome], *, report=None,
          problem: str | None = None, cut: bool = False, seconds: float = 0.0,
          overall: Overall | None = None, text: str | None = None) -> Row:
    """A row holding every test of the plan with its verdict, reason and points. A test the
    outcomes do not cover fails; `report` is the runner's Report when there was a run, and
    `overall` overrides the verdict the score gives (the grader's own fault). A file whose
    every test failed for lack of a name is EMPTY when its `text` holds no code, else
    LACKS_NAMES."""
    by_id = {o.id: o for o in outcomes}
    tests = []
    for t in plan.tests:
        o = by_id.get(t.id) or Outcome(t.id, t.says, t.lab, Verdict.FAIL,
                                       words_feedback.NO_VERDICT)
        tests.append(Entry(t.id, t.says, t.lab, t.set, t.hidden, o.verdict, o.message,
                           t.points, t.points if o.verdict is Verdict.PASS else 0, o.cause,
                           o.rule))
    score = plans.points(sum(t.earned for t in tests))
    import_error = report.import_error if report else None
    notes = []
    if cut:
        notes.append(words_feedback.CUT_OFF)
    printed = (len(report.output.encode()) + report.output_dropped) if report else 0
    if report and report.output_dropped:
        notes.append(words_feedback.output_dropped(printed, len(report.output.encode())))
    if overall is None:
        overall = (Overall.NOT_GRADED if problem else
                   Overall.DOES_NOT_IMPORT if import_error else
                   (Overall.EMPTY if text is not None and blank(text) else
                    Overall.LACKS_NAMES) if missing(tests) else
                   Overall.FULL_MARKS if score == plan.max_score else
                   Overall.NO_MARKS if score == 0 else
                   Overall.PARTIAL)
    return Row(student, source, score, plan.max_score, overall, problem, import_error, tests,
               notes, printed, cells.cut(report.output, cells.OUTPUT_CHARACTERS) if report else "", round(seconds, 3))
