"""The grader's command line.

    python -m grader grade --lab 15.1 SUBMISSIONS --out OUT [--jobs N] [--own-lab-only]
                     [--extra-tests FILE ...] [--seconds-per-test S]
                     [--seconds-per-submission S] [--memory-mb M] [--quiet] [--unsandboxed]
                     [--allow-shared-user] [--seed N] [--roster roster.csv]
                     [--overrides overrides.csv]
    python -m grader gradescope --lab 15.1 --out bundle.zip [--own-lab-only]
                     [--extra-tests FILE ...] [--hidden-visibility V] [limits as for grade]
    python -m grader classroom --lab 15.1 --out DIR
    python -m grader release --out DIR [--through LAB] [--with-reference LAB ...]
    python -m grader export --format canvas|moodle|csv --out FILE GRADES_DIR [--lab LAB|all]
                     [--roster CSV]

`gradescope-run` is the command the bundle's run_autograder calls; it is not for people.
Exit codes: 0 done, 2 a problem with what was asked: a UserError (lab/check/errors.py; the
grader's own are in grader/errors.py), which stderr says in one line, or arguments argparse
refuses. Anything else is a fault of the grader's, and ends with its traceback (exit code 1).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lab.check import seeds
from lab.check.errors import UserError

from grader import (batch, classfolder, gradebook as gradebooks, gradescope, pipeline,
                    plan as plans, report, roster, similarity, words_terminal as said)
from grader.errors import GraderError
from grader.journal import JOURNAL, Journal
from grader.pipeline import SEED_FILE  # noqa: F401 (the seed's file, by the name it had here)
from grader.refusals import NotPositive


def _limits(parser):
    defaults = batch.Settings()
    parser.add_argument("--seconds-per-test", type=float, default=defaults.seconds_per_test,
                        help="wall-clock limit for one test (default %(default)s)")
    parser.add_argument("--seconds-per-submission", type=float,
                        default=defaults.seconds_per_submission,
                        help="wall-clock limit for all of one submission's tests "
                             "(default %(default)s)")
    parser.add_argument("--memory-mb", type=int, default=defaults.memory_mb,
                        help="memory limit per process, in MB (default %(default)s)")


def _suite(parser, *, then: str = ""):
    """The options that choose the tests; `then` ends --extra-tests' help where the command
    takes a folder after its options, which the files' list would otherwise swallow."""
    parser.add_argument("--lab", required=True, help='the lab to grade, e.g. "15.1"')
    parser.add_argument("--own-lab-only", action="store_true",
                        help="grade only the lab's own tests, not every earlier lab's too")
    parser.add_argument("--extra-tests", type=Path, nargs="+", default=[], metavar="FILE",
                        help="hidden tests of your own (lab_test files), judged against the "
                             "lab's reference solution" + then)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader", description="Grade a class's "
                                     "harness.py files with the course's own tests.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    grade = commands.add_parser("grade", help="grade a folder of submissions")
    _suite(grade, then="; give them after the submissions folder")
    grade.add_argument("submissions", type=Path,
                       help="a folder holding NAME.py or NAME/harness.py for each student")
    grade.add_argument("--out", required=True, type=Path, help="where the reports go")
    grade.add_argument("--jobs", type=int, default=1, help="submissions graded at once "
                       "(default 1); each runs as a user of its own where the grader runs as "
                       "root, otherwise one at a time unless --allow-shared-user")
    grade.add_argument("--quiet", action="store_true", help="no progress bar")
    grade.add_argument("--unsandboxed", action="store_true",
                       help="as root, run submissions as root when no sandbox can be set up "
                            "(only inside a throwaway container)")
    grade.add_argument("--allow-shared-user", action="store_true",
                       help="grade --jobs submissions at once even where they must share a "
                            "user, so that one can read and change the files of the one "
                            "beside it")
    grade.add_argument("--seed", type=int, default=None,
                       help="the seed the tests draw their cases under (default: a secret one, "
                            "drawn for this output folder and kept in it, so that a re-run "
                            "resumes under the same seed)")
    grade.add_argument("--roster", type=Path, metavar="CSV",
                       help="the school's class list (name or login, id, email): lists who "
                            "has not submitted, and keeps the ids for `export`")
    grade.add_argument("--overrides", type=Path, metavar="CSV",
                       help="your score changes and comments per student and test (columns "
                            "student, lab, test, change, comment, by, when); kept in the "
                            "--out folder and applied on every later run")
    _limits(grade)

    gradebook = commands.add_parser("export", help="write a graded lab's scores for a "
                                    "school's gradebook")
    gradebook.add_argument("grades", type=Path, metavar="GRADES_DIR",
                           help="the --out folder of a `grade` run")
    gradebook.add_argument("--format", required=True, choices=list(gradebooks.FORMATS))
    gradebook.add_argument("--lab", help='the lab to export, e.g. "5.1", or "all" for a '
                           "column per lab (needed when the folder holds several labs)")
    gradebook.add_argument("--out", required=True, type=Path, help="the file to write")
    gradebook.add_argument("--roster", type=Path, metavar="CSV",
                           help="the class list to take ids from (default: the one `grade "
                                "--roster` kept in GRADES_DIR)")

    bundle = commands.add_parser("gradescope", help="build a Gradescope autograder bundle")
    _suite(bundle)
    bundle.add_argument("--out", required=True, type=Path, help="the .zip to write")
    bundle.add_argument("--hidden-visibility", default="after_published",
                        choices=gradescope.VISIBILITIES,
                        help="when students see the results of --extra-tests "
                             "(default %(default)s)")
    _limits(bundle)

    inside = commands.add_parser("gradescope-run")  # no help: only run_autograder calls it
    inside.add_argument("--source", required=True, type=Path)
    inside.add_argument("--submission", required=True, type=Path)
    inside.add_argument("--results", required=True, type=Path)

    classroom = commands.add_parser("classroom", help="write a GitHub Classroom workflow")
    classroom.add_argument("--lab", required=True)
    classroom.add_argument("--out", required=True, type=Path,
                           help="a student repository (or any folder): .github/workflows/"
                                "classroom.yml is written under it")

    release = commands.add_parser("release", help="build the folder students get")
    release.add_argument("--out", required=True, type=Path,
                         help="a new folder, or the folder of an earlier release, which is "
                              "updated (its work folder is never touched; its RELEASE.md says "
                              "what changed in the labs it held, from source/lab_changes.toml)")
    release.add_argument("--through", metavar="LAB",
                         help='the last lab to release, e.g. "5.1": its lesson, every lab up '
                              "to it, nothing after (default: every lab)")
    release.add_argument("--with-reference", nargs="+", default=[], metavar="LAB",
                         help="labs whose reference solutions the students may have "
                              "(so the lessons' cells that load them run)")
    args = parser.parse_args(argv)
    # A student's name may hold letters this terminal cannot show: it shows them escaped
    # rather than end the batch after its reports are written.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        return _run(args)
    except UserError as problem:
        print(f"grader: {problem}", file=sys.stderr)  # the program's name, then its words
        return 2
    except KeyboardInterrupt:
        if args.command != "grade":
            raise
        lab_out = classfolder.lab_folder(args.out, args.lab)
        print(said.stopped(_kept(lab_out), str(lab_out)), file=sys.stderr)
        return 130


def _kept(out: Path) -> int:
    """How many submissions a stopped run has graded for good: the journal's rows, which a
    re-run reuses (grader/journal.py)."""
    return len(Journal(out / JOURNAL).load())


def _settings(args) -> batch.Settings:
    for name in ("seconds_per_test", "seconds_per_submission", "memory_mb"):
        if getattr(args, name) <= 0:
            raise GraderError(NotPositive(f"--{name.replace('_', '-')}"))
    return batch.Settings(seconds_per_test=args.seconds_per_test,
                          seconds_per_submission=args.seconds_per_submission,
                          memory_mb=args.memory_mb)


def _run(args) -> int:
    if args.command == "grade":
        graded = pipeline.grade(pipeline.Asked(
            args.lab, args.submissions, args.out, _settings(args), args.jobs, args.own_lab_only,
            list(args.extra_tests or []), args.seed, args.roster, args.overrides,
            args.unsandboxed, args.allow_shared_user, args.quiet),
            tell=lambda line: print(line, file=sys.stderr))
        print(report.summary(graded.plan, graded.results, graded.isolation, graded.paths,
                             graded.ignored))
        print("\n".join(similarity.summary(graded.pairs)))
        if graded.matched is not None:
            print("\n" + roster.summary(graded.matched))
        return 0
    if args.command == "export":
        path, labs = gradebooks.export(args.grades, args.format, args.out, args.roster,
                                       lab=args.lab)
        print(said.exported(str(path), args.format, labs))
        return 0
    if args.command == "gradescope":
        # The bank's subset is the bundle's own, drawn under a seed no one is told.
        plan = plans.make(args.lab, own_lab_only=args.own_lab_only,
                          extra_tests=args.extra_tests, draw=seeds.secret())
        path = gradescope.build(plan, args.out, settings=_settings(args),
                                hidden_visibility=args.hidden_visibility)
        print(said.bundled(str(path), len(plan.tests), f"{plan.max_score:g}", plan.bank_line()))
        return 0
    if args.command == "gradescope-run":
        return gradescope.run_inside(args.source, args.submission, args.results)
    if args.command == "classroom":
        from grader import classroom
        path = classroom.write(args.lab, args.out)
        print(said.wrote(str(path)))
        return 0
    if args.command == "release":
        from grader import release, words_release
        found = release.build(args.out, through=args.through,
                              with_reference=args.with_reference)
        print(words_release.summary(found))
        return 0
    raise AssertionError(f"no such command: {args.command}")  # argparse allows only the above


if __name__ == "__main__":
    sys.exit(main())
