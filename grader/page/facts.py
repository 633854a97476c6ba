"""What the class page shows, computed from grades.json and nothing else.

The page is a view of the grades a run wrote, not a second grading: every number here is
counted from the rows grades.json holds (grader/report.py writes them, from Row.for_students;
grader/grades.py reads them back as rows), so the page and the CSV files can never disagree.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from lab.check.facts import Hung, NotRun, Raised, RanOut
from lab.check.rules import Rule as Declared
from lab.check.verdict import Verdict

from grader.grades import Grades
from grader.row import Overall

# A broken file (Overall.broken, as the terminal counts them): no test told anything about the
# student's code, so every cell of its row is "not run" and no rule counts it.
NOT_RUN = tuple(v for v in Overall if v.broken)
STOPPED_IN = (RanOut, Raised, Hung, NotRun)  # the facts that name where in harness.py


@dataclass
class Rule:
    """One test as the page shows it: the rule its sentence states and how the class did."""
    id: str
    says: str
    lab: str | None
    set: str
    hidden: bool
    failed: int = 0  # students whose run failed it (timeouts and crashes included)
    ran: int = 0  # students whose file ran at all
    messages: list[str] = field(default_factory=list)  # the distinct reasons, first ones first
    # What the failures were, as facts: the distinct rules broken (each failure's rule, where
    # it failed at a check) and the functions of harness.py they stopped in
    broke: list[Declared] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)


@dataclass
class Student:
    name: str
    score: float
    max: float
    verdict: str
    seconds: float
    cells: dict[str, str]  # test id -> "pass", "fail" or "not run"
    why: str  # for a broken file: the first line of why, where a problem or an error says it
    overrides: list[str] = field(default_factory=list)  # the instructor's, in words
    review: list[str] = field(default_factory=list)  # lines that need review (grader/review.py)

    @property
    def share(self) -> float:
        return self.score / self.max if self.max else 0.0


@dataclass
class Facts:
    lab: str
    title: str
    max: float
    sets: list[str]  # the sets the class failed most first
    rules: list[Rule]  # by set as above, and in each set the hardest first
    students: list[Student]  # who needs help first: lowest score, then name

    def by_set(self) -> list[tuple[str, list[Rule]]]:
        return [(s, [r for r in self.rules if r.set == s]) for s in self.sets]

    def failed_rules(self) -> list[Rule]:
        """Every rule someone failed, most failed first."""
        return sorted((r for r in self.rules if r.failed), key=lambda r: (-r.failed, r.set, r.id))

    def most_failed(self, n: int = 10) -> list[Rule]:
        """The rules most students failed, most first; only those someone failed."""
        return self.failed_rules()[:n]

    def not_graded(self) -> list[Student]:
        return [s for s in self.students if s.verdict in NOT_RUN]

    def distribution(self, buckets: int = 10) -> list[tuple[str, int]]:
        """How many students scored in each tenth of the maximum (the last holds full
        marks), as (label, count)."""
        counts = Counter(min(int(s.share * buckets), buckets - 1) for s in self.students)
        width = 100 // buckets
        return [(f"{i * width}–{(i + 1) * width}%", counts[i]) for i in range(buckets)]


def _first_line(text: str | None) -> str:
    lines = (text or "").strip().splitlines()
    return lines[-1 if lines and lines[0].startswith("Traceback") else 0] if lines else ""


def read(grades: Grades) -> Facts:
    """The page's facts from a grades.json."""
    rules = {t.id: Rule(t.id, t.says, t.lab, t.set, t.hidden) for t in grades.tests}
    students = []
    for row in grades.submissions:
        ran = not row.verdict.broken
        cells = {}
        for entry in row.tests:
            rule = rules.get(entry.id)
            if not ran:
                cells[entry.id] = "not run"
                continue
            passed = entry.verdict is Verdict.PASS
            cells[entry.id] = "pass" if passed else "fail"
            if rule is not None:
                rule.ran += 1
                if not passed:
                    rule.failed += 1
                    if entry.message not in rule.messages and len(rule.messages) < 20:
                        rule.messages.append(entry.message)
                    if entry.rule is not None and entry.rule not in rule.broke:
                        rule.broke.append(entry.rule)
                    if isinstance(entry.cause, STOPPED_IN) and entry.cause.function and \
                            entry.cause.function not in rule.functions:
                        rule.functions.append(entry.cause.function)
        why = "" if ran else _first_line(row.problem or row.import_error)
        students.append(Student(row.student, row.score, row.max, str(row.verdict), row.seconds,
                                cells, why, list(row.overrides), list(row.review)))
    # The labs whose tests the class failed most first, then course order; in each, the
    # tests most failed first: the columns an instructor looks for are at the left.
    planned = list(dict.fromkeys(t.set for t in grades.tests))
    failures: Counter[str] = Counter()
    for rule in rules.values():
        failures[rule.set] += rule.failed
    sets = sorted(planned, key=lambda s: (-failures[s], planned.index(s)))
    ordered = sorted(rules.values(), key=lambda r: (sets.index(r.set), -r.failed))
    students.sort(key=lambda s: (s.share, s.name))
    return Facts(grades.lab, grades.title, grades.max, sets, ordered, students)
