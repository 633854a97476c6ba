"""The words of what the desk refuses (lab/desk/problems.py's records), made here and only here
when a CourseError is shown: each says what to do next. Nothing reads them back."""
from __future__ import annotations

from lab.desk.problems import (CellNotStarted, CopyLacks, DeskProblem, DoesNotImport, EarlierNotPassed,
                               FailsLastLab, FirstLab, FolderInTheWay, LogNotResumable,
                               NoHarnessFile, NoReferenceHere, NotAFolder, NotAQuestionKey,
                               NotBuiltYet, NotStartedYet, StateNotJSON, Unfinished)


def said(fact: DeskProblem) -> str:
    match fact:
        case NotBuiltYet(lab):
            return f"{_capital(lab)} is not built yet: it comes in a later version of the course."
        case CopyLacks("guided starter", lab, file):
            return (f"This copy of the course has no guided starter for {lab} ({file}); start "
                    "it without --guided.")
        case CopyLacks(what, lab, file):
            return (f"This copy of the course is missing the {what} of {lab} ({file}); get a "
                    "fresh copy of the kit.")
        case FirstLab(lab):
            return f"{_capital(lab)} is the first lab: there is no file of yours to carry forward."
        case EarlierNotPassed(earlier, check):
            return (f"--mine carries your own lab {earlier} file forward once it passes its "
                    f"check; check it first: {check}.")
        case NotStartedYet(lab, start):
            return f"You have not started {lab} yet: run {start} first."
        case CellNotStarted(lab_id, lab, start, later):
            return (f"This cell runs your lab {lab_id} file, and you have not started {lab}: run "
                    f"{start} first" + (f" (you have started lab {later}, whose starter held its "
                                        "code)" if later else "") + ", then run this cell again.")
        case NoReferenceHere(lab):
            return (f"This cell runs against the reference solution of {lab}, which this copy "
                    "of the course does not include.")
        case FolderInTheWay(path):
            return (f"{path} is not the folder the course makes there; move it elsewhere, then "
                    "start the lab again.")
        case StateNotJSON(path):
            return (f"{path} is not valid JSON any more; fix it or delete it (deleting it "
                    "forgets what it held).")
        case NotAQuestionKey(key):
            return f'{key!r} is not a question key; keys look like "04.boundary".'
        case NoHarnessFile(path):
            return f"no harness file at {path}"
        case DoesNotImport(path, error, message):
            return f"{path} does not import: {error}: {message}"
        case Unfinished(path, lacks, last):
            names = ", ".join(f"{name} ({lab})" if lab else name for name, lab in lacks)
            return (f"{path} is not finished: it has no {names}. course chat needs a harness.py "
                    f"that has passed lab {last}.")
        case FailsLastLab(path, failed, tests, last, check):
            return (f"{path} fails {failed} of {tests} tests of lab {last}'s check ({check} "
                    "shows which). course chat runs a harness.py that passes them, so that a "
                    "failure in a chat is the server's or the model's, not an unfinished "
                    "file's. To chat with it anyway: --force.")
        case LogNotResumable(message):
            return f"the session log cannot be resumed: {message}"
        case NotAFolder(option, path):
            return f"{option} {path} is not a folder"
    raise TypeError(f"no words for {fact!r}")  # a new DeskProblem needs its case here


def _capital(name: str) -> str:
    return name[:1].upper() + name[1:]
