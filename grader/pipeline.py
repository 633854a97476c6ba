"""A grading run, from what was asked to the files written: the one place its steps are put in
order, so that the command line (grader/__main__.py) only reads arguments and says what
happened, and each step stays in its own module.

The steps: check what was asked, settle the seed (kept in the output folder, so a re-run
resumes under it), make the plan, find the submissions, read the instructor's overrides, grade
every submission (grader/batch.py), apply the overrides, write the reports (grader/report.py),
the pairs more alike than the starter explains (grader/similarity.py) and the class page
(grader/page/), matching the roster where there is one.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lab.check import manifest, seeds

from grader import (batch, classfolder, overrides, page, plan as plans, report, roster,
                    similarity)
from grader.errors import GraderError
from grader.plan import Plan
from grader.refusals import NoJobs, NoSubmissions, NoSubmissionsFolder, OutInside
from grader.row import Row
from grader.sandbox.statement import Statement

SEED_FILE = ".seed"  # in a grading run's output folder, readable by its owner alone


@dataclass(frozen=True)
class Asked:
    """What `grade` was asked: the lab, where the submissions are and where the reports go,
    and how to grade them."""
    lab: str
    submissions: Path
    out: Path
    settings: batch.Settings
    jobs: int = 1
    own_lab_only: bool = False
    extra_tests: list[Path] = field(default_factory=list)
    seed: int | None = None  # None: the one kept in `out`, else a secret one
    roster: Path | None = None
    overrides: Path | None = None
    unsandboxed: bool = False
    allow_shared_user: bool = False
    quiet: bool = False


@dataclass
class Graded:
    """What a grading run did: its plan, a row for each submission, what isolated them, the
    files written, the files left alone, the pairs more alike than the starter explains, and
    how the roster matched (None without one)."""
    plan: Plan
    results: list[Row]
    isolation: Statement
    paths: dict[str, Path]
    ignored: list[str]
    pairs: list
    matched: roster.Match | None


def grading_seed(out: Path, given: int | None) -> int:
    """The seed this grading run draws its cases under: `given`, else the one an earlier run
    kept in `out` (so that a re-run resumes), else a secret one, which the run keeps there."""
    kept = out / SEED_FILE
    if given is None and kept.is_file():
        return int(kept.read_text(encoding="utf-8"))
    return seeds.secret() if given is None else given


def grade(asked: Asked, tell: Callable[[str], None] = lambda line: None) -> Graded:
    """Grade every submission of `asked` and write its reports; GraderError, before anything
    is written, for what cannot be done as asked. tell(line) hears a notice as it happens
    (an old output folder moved into the class folder's layout)."""
    if not asked.submissions.is_dir():
        raise GraderError(NoSubmissionsFolder(asked.submissions))
    if asked.jobs < 1:
        raise GraderError(NoJobs())
    out, folder = asked.out.resolve(), asked.submissions.resolve()
    if manifest.KIT.is_relative_to(out) or folder.is_relative_to(out) or \
            out.is_relative_to(folder):
        raise GraderError(OutInside())
    seed = grading_seed(asked.out, asked.seed)
    students = roster.read(asked.roster) if asked.roster else None
    plan = plans.make(asked.lab, own_lab_only=asked.own_lab_only,
                      extra_tests=asked.extra_tests, seed=seed, draw=seed)
    subs, ignored = batch.find(asked.submissions)
    if not subs:
        raise GraderError(NoSubmissions(asked.submissions))
    changed_by = overrides.source(asked.out, asked.overrides)
    changes = overrides.read(changed_by, plan, [s.student for s in subs],
                             students or roster.kept(asked.out)) if changed_by else []
    if not asked.out.exists():
        asked.out.mkdir(parents=True, mode=0o700)  # others' grades are nobody else's
    if changed_by:
        overrides.keep(asked.out, changed_by)
    moved = classfolder.migrate(asked.out)
    if moved:
        tell(moved)
    kept = asked.out / SEED_FILE
    kept.write_text(f"{seed}\n", encoding="utf-8")
    kept.chmod(0o600)
    lab_out = classfolder.lab_folder(asked.out, plan.lab)
    lab_out.mkdir(mode=0o700, exist_ok=True)
    results, isolation = batch.grade_all(
        plan, subs, lab_out, jobs=asked.jobs, settings=asked.settings,
        extra_files=asked.extra_tests, unsandboxed_root=asked.unsandboxed,
        allow_shared_user=asked.allow_shared_user, hide=asked.out,
        progress=None if asked.quiet else batch.Progress())
    results = overrides.apply(plan, results, changes)
    paths = report.write(lab_out, plan, results, isolation, ignored)
    pairs = similarity.find({s.student: batch.head(s.path).decode("utf-8", "replace")
                             for s in subs if s.path and not s.problem}, plan.lab)
    similarity.write(lab_out, pairs)
    matched = None
    if students is not None:
        matched = roster.match(students, [r.student for r in results])
        roster.keep(asked.out, students)
    paths["report.html"] = page.write(lab_out, matched, class_folder=asked.out)
    return Graded(plan, results, isolation, paths, ignored, pairs, matched)
