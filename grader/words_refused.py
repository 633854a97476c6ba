"""The grader's refusals in an instructor's words: the one place a refusal (grader/refusals.py)
becomes the sentence `python -m grader` prints after "grader: " before it exits with code 2.

A GraderError (grader/errors.py) carries its record and asks here for its words only when it
is shown, so no module that raises one writes a sentence, and no one reads these back: a
caller that needs to know why reads the record. Each sentence says what to do.
"""
from __future__ import annotations

from lab.check import words_errors

from grader.refusals import (
    BadChange, BadRule, BadShare, BankFails, BankLedgerDisagree, ChangeTwice, EmptyOverride,
    EmptyRoster, ExtraEmpty, ExtraFails, ExtraNamedTwice, ExtraUnblindable, ExtraUnparsed,
    HintLevels, LabNotGraded, LabTwice, LedgerUnread, NoBuildSection, NoCourse, NoExtra,
    NoFigure, NoFormat, NoGradedLab, NoJobs, NoOverrides, NoReference, NoRoster, NoSandbox,
    NoSolutions, NoSubmissions, NoSubmissionsFolder, NoSuchStudent, NoSuchTest, NotAChange,
    NotAChoice, NotADirective, NotALab, NotAlone, NotARelease, NotBuilt, NoTestsFile, NotGrades,
    NotLinux, NotMade, NotPositive, NotPredict, NoUsers, NoVisibility, OtherCourse, OutInside,
    OverridesUnheaded, OwnFileClosed, PredictionFault, ProbeFailed, ProbeReached,
    ReferenceLater, Refusal, ReleaseBackwards, ReleaseNotBuilt, RosterUnnamed, SeedMismatch,
    StrayGrades, TestsSayNothing, TooManyJobs, Unclosed, UnknownLabAsked, UnknownLabIn,
    Unreadable, Unsafe, ViewUnplanned, WhichLab)

_RECORD_FROM = "this copy of the kit has no solutions/ to record it from."


def refused(fact: Refusal) -> str:
    """The sentence for `fact`, which says what was refused and what to do instead."""
    match fact:
        # the command line and the submissions folder
        case NotPositive(option):
            return f"{option} must be more than 0"
        case NoJobs():
            return "--jobs must be 1 or more"
        case TooManyJobs(most):
            return f"--jobs can be at most {most}"
        case NoSubmissionsFolder(path):
            return f"there is no folder of submissions at {path}"
        case OutInside():
            return ("choose an output folder that neither holds nor sits inside the kit or the "
                    "submissions folder (it is hidden from submissions while they run, and a "
                    "re-run would take it for a student)")
        case NoSubmissions(path):
            return (f"{path} holds no submissions (NAME.py files or NAME/ folders with a "
                    "harness.py)")
        # a graded lab's folder
        case Unreadable(path, why):
            return f"cannot read {path}: {why}"
        case NotGrades(path, problem):
            return (f"{path} is not a grades.json this grader wrote ({problem}); grade the lab "
                    "again to write it afresh")
        case StrayGrades(path, problem):
            return (f"{path} is not a grades.json this grader wrote ({problem}): move it out of "
                    "the folder, or grade into another one")
        case LabTwice(out, lab, target):
            return f"{out} holds lab {lab}'s files both at its top and in {target}: keep one of them"
        case NoGradedLab(out):
            return (f"{out} holds no graded lab (no grades.json in it or in a lab-N.K folder): "
                    "give the --out folder of a `python -m grader grade` run")
        case WhichLab(out, labs, every):
            return (f"{out} holds labs {', '.join(labs)}: say which with --lab "
                    f"(or --lab {every} for every one)")
        case NotALab(given, every):
            return f'--lab takes a lab such as "5.1", or "{every}"; not {given!r}'
        case LabNotGraded(lab, out, labs):
            return f"lab {lab} was not graded into {out}; it holds {', '.join(labs)}"
        case NoVisibility(given, visibilities):
            return f"--hidden-visibility is one of {', '.join(visibilities)}"
        case NoFormat(given, formats):
            return f"no gradebook format {given!r}; the formats are {', '.join(formats)}"
        # the roster and the overrides
        case NoRoster(path):
            return f"there is no roster at {path}"
        case EmptyRoster(path):
            return f"the roster {path} is empty"
        case RosterUnnamed(path, headings):
            return (f"the roster {path} has no column naming the student: its first row must "
                    f"name one of {', '.join(headings)}")
        case NoOverrides(path):
            return f"there is no overrides file at {path}"
        case OverridesUnheaded(path, columns):
            return (f"the overrides file {path} must have a header row naming at least student "
                    f"and lab (its columns: {', '.join(columns)})")
        case NoSuchStudent(path, line, lab, student):
            return (f"{path}, line {line}: no submission of lab {lab} is {student!r} (by name, or by the "
                    "roster's id, login or e-mail)")
        case NoSuchTest(path, line, lab, test):
            return f"{path}, line {line}: lab {lab}'s grading has no test {test!r}"
        case NotAChange(path, line, change):
            return f"{path}, line {line}: the change {change!r} is not +N, -N or =N points"
        case EmptyOverride(path, line):
            return f"{path}, line {line}: the line has neither a change nor a comment"
        # the plan
        case UnknownLabAsked(missing):
            return words_errors.said(missing)
        case ExtraUnblindable(reach):
            return f"The extra tests file cannot be used as it is: {words_errors.said(reach)}"
        case NotBuilt(lab):
            return f"{_capital(lab)} is not built in this kit yet, so it has no tests to grade with."
        case SeedMismatch(seed, recorded):
            return (f"This plan grades under seed {seed}, but the reference's observations it "
                    f"holds were made under seed {recorded}.")
        case NoSolutions(lab, "extra"):
            return f"Extra tests are judged against the reference of {lab}, and {_RECORD_FROM}"
        case NoSolutions(lab, "bank"):
            return (f"{_capital(lab)} is graded on its grading bank, recorded on its reference, "
                    "and this copy of the kit has no solutions/.")
        case NoSolutions(lab, "bundle"):
            return ("A bundle grades each submission under a seed of its own, recorded first on "
                    "the lab's reference, and this copy of the kit has no solutions/ to carry it "
                    "from.")
        case NoSolutions(lab, _):
            return (f"Grading under a seed of its own records the reference of {lab} first, and "
                    f"{_RECORD_FROM}")
        case BankFails(lab, path, failures):
            return (f"lab {lab}'s grading bank ({path}) fails on the lab's reference solution: "
                    "a fault of the kit's:\n" + "\n".join(failures))
        case ExtraFails(lab, name, failures):
            return (f"your hidden test file {name} (--extra-tests) fails on lab {lab}'s "
                    "reference solution, so the test is what is wrong, not the kit; fix it "
                    "before grading with it:\n" + "\n".join(failures))
        case NoExtra(path):
            return f"There is no extra tests file at {path}."
        case ExtraNamedTwice(first, second, runs_as) if first == second:
            return f"Two extra tests files are named {first}; rename one."
        case ExtraNamedTwice(first, second, runs_as):
            return (f"The extra tests files {first} and {second} would both run as {runs_as}; "
                    "rename one.")
        case ExtraUnparsed(path, error):
            return f"The extra tests file {path} does not parse: {error}"
        case ExtraEmpty(file):
            return f"The extra tests file {file} holds no @lab_test(...) tests."
        case BadShare(path, key, lab, share):
            return (f"{path} needs {key} = a number from 0 to under 1 (the share of the grade "
                    f"its public tests are worth), since lab {lab} has a grading bank; it has "
                    f"{share!r}.")
        case BankLedgerDisagree(lab, bank, ledger, rule, lost):
            return (f"lab {lab}'s grading bank ({bank}) and its ledger ({ledger}) disagree: "
                    f"{rule} names {list(lost) if lost else 'no bank test'}.")
        # a sandbox
        case NotLinux(platform):
            return (f"The grader runs submissions only on Linux (this is {platform}): its "
                    "sandbox is made of Linux namespaces, users and resource limits. Grade on a "
                    "Linux machine, container or virtual machine. Students' own checks (python "
                    "lab/lab_check.py) run on every system.")
        case NoSandbox(problems, root, kit, python, base):
            hint = ""
            if root:
                hint = (" Without namespaces, any user must be able to read the kit's lab/ "
                        f"folder and the Python interpreter ({kit}, {python}) and to pass "
                        f"through the folders on the way to {base}: a folder only root may open "
                        "on the way is the usual cause. Fix that, or, only inside a throwaway "
                        "container, pass --unsandboxed to run submissions as root.")
            return ("Submissions cannot be run safely here: "
                    + "; ".join(_unsafe(p) for p in problems) + "." + hint)
        case Unsafe():
            return _unsafe(fact)
        # a workflow and a release
        case NoCourse(out, lab):
            return (f"{out} holds no copy of the course (no lab/ folder), so the workflow could "
                    "not be checked against it: write it into the release you give students, "
                    f"after `python -m grader release --through {lab} --out {out}`")
        case OtherCourse(out, lab, files):
            differ = ", ".join(files[:4]) + (f" and {len(files) - 4} more" if files[4:] else "")
            return (f"{out} holds course files other than those this kit would check for lab "
                    f"{lab} ({differ}), so every push would score nothing. Write the workflow "
                    "from the kit that built the release, for a lab the release holds.")
        case ReleaseNotBuilt(lab):
            return f"{_capital(lab)} is not built yet, so no release can go up to it."
        case NoReference(lab):
            return f"This kit has no reference for {lab} to include."
        case ReferenceLater(lab, last):
            return (f"Lab {lab} comes after lab {last}, the last lab of this release, so its "
                    "reference cannot be in it.")
        case BadChange(path, entry):
            return (f'{path}: each [[change]] needs lab ("6.1"), landed (a date) and words; '
                    f"this one does not: {entry!r}")
        case ChangeTwice(path, keys):
            return f"{path}: one entry per lab and day; more than one for {', '.join(keys)}"
        case NotARelease(out, state):
            return (f"{out} holds files, and no release of this course ({state} is missing); "
                    "give a new folder, or the folder of an earlier release.")
        case ReleaseBackwards(out, through, last):
            return (f"{out} holds the release through lab {through}; a release goes forward, so "
                    f"it cannot be replaced by one through lab {last}.")
        # the authors' files
        case LedgerUnread(path, error):
            return f"{path}: {error}"
        case BadRule(path, keys):
            return (f"{path}: a [[rule]] needs lab, item, tests and designs (and may have allows "
                    f"and bank); this one has {list(keys)}")
        case NoBuildSection(path, lab):
            return f"{path}: no section holds {{{{ starter {lab} }}}}"
        case NotAChoice(where, line):
            return (f"{where}: in a prediction, after the first choice every line is a choice or "
                    f"an indented '> feedback' line, not {line!r}")
        case PredictionFault(where, fault):
            return f"{where}: the prediction {_FAULTS[fault]}"
        case NotPredict(where, line):
            return f"{where}: {line!r} is neither '::: predict' nor '::: predict many'"
        case Unclosed(where):
            return f"{where}: a '::: predict' block has no closing ':::'"
        case UnknownLabIn(where, missing):
            return f"{where}: {words_errors.said(missing)}"
        case NotADirective(where, line):
            return (f"{where}: {line!r} is not a directive; they are {{{{ hints LAB }}}}, "
                    "{{ tests LAB }} and {{ starter LAB }}")
        case HintLevels(lab, levels, path):
            return f"lab {lab} has {levels} hint levels in {path}, not 3"
        case NoTestsFile(lab, path):
            return f"lab {lab} has no tests file at {path}"
        case TestsSayNothing(lab):
            return f"lab {lab}'s tests say nothing: no @lab_test descriptions"
        case NotMade(lab, path):
            return f"lab {lab} has no {path}; run tools/make.py"
        case NoFigure(lesson, path):
            return f"{lesson}: a figure is missing: {path}; run python -m tools.make figures"
    raise TypeError(f"no words for the refusal {fact!r}")  # a new record needs its case here


# What a prediction lacks or gets wrong (PredictionFault's faults), after "the prediction"
_FAULTS = {"no question": "has no question", "one choice": "needs at least two choices",
           "no feedback": "has a choice without feedback",
           "none right": "marks no choice right with [x]",
           "several right": "marks several choices right; write '::: predict many' for a "
                            "multi-select"}


def _unsafe(fact: Unsafe) -> str:
    """Why one level of sandbox could not be used, after the level's name."""
    match fact:
        case NoUsers():
            why = "there are neither ids free for users of its own nor a user `nobody` to run as"
        case ViewUnplanned(_, error):
            why = f"its view could not be planned ({error})"
        case ProbeFailed(_, "start", detail):
            why = f"the child could not start ({detail})"
        case ProbeFailed(_, "failed", detail):
            why = f"the child failed ({detail or 'no message'})"
        case ProbeFailed():
            why = "the child's answer could not be read"
        case OwnFileClosed(_, base):
            why = (f"the child could not open its own harness.py by its path: a folder on the "
                   f"way to {base} is closed to others")
        case ProbeReached(_, readable, network):
            why = f"the probe could still read {list(readable)} or reach the network ({network})"
        case NotAlone(_, pid, pids):
            why = (f"the probe was not alone in a PID namespace of its own (it was process {pid} "
                   f"and saw {list(pids)})")
        case _:
            raise TypeError(f"no words for the sandbox's problem {fact!r}")
    return f"{fact.level}: {why}"


def _capital(name: str) -> str:
    """A lab's name opening a sentence: "Lab 5.1"."""
    return name[:1].upper() + name[1:]
