"""The words of the engine's refusals (lab/check/errors.py's Problems), made here and only
here when one is shown (lab/check/problems.py holds them): a lab or lesson this kit does not have, nothing to check, a test the
checker cannot blind. Each says what to do next; nothing reads these words back.
"""
from __future__ import annotations

from lab.check.problems import (CannotBlind, KitLacksTests, NamesNoLab, NoFile, NoLabLine,
                                NoSuchLab, NoSuchLesson, OtherLesson, Problem)

HOW = {"starred": "calls {method} with * or ** arguments",
       "receiver": "calls {method} on something other than the test's checks",
       "uncalled": "takes {method} without calling it",
       "class": "reaches the class Checks",
       "imports class": "imports the class Checks",
       "by name": "names {method} in a string (getattr?)"}


def said(fact: Problem) -> str:
    match fact:
        case NoSuchLab(lab_id, known):
            return f"there is no lab {lab_id} in this kit (labs: {', '.join(known)})"
        case NoSuchLesson(number):
            return f"there is no lesson {number} in this kit"
        case NoLabLine(path):
            return f'{path} has no LAB = "NN.K" line, so its lab is unknown'
        case OtherLesson(file, lab_id, lesson):
            return f"{file} holds the tests of lab {lab_id}, not of lesson {lesson}"
        case KitLacksTests(lab, file):
            return (f"this copy of the kit lacks the tests of {lab} ({file}); get a complete "
                    "copy of the course")
        case NoFile(what, path, start):
            return (f"there is no {what} file at {path}. Run this from your lab's folder, where "
                    f"harness.py and tests.py are ({start} makes one).")
        case NamesNoLab(path):
            return f"{path} names no lab of this kit"
        case CannotBlind(file, function, line, reach, method):
            where = ("the file's top level" if function is None else
                     f"test {function}" if function.startswith("test") else f"{function}()")
            return (f"{file}, {where}, line {'?' if line is None else line}: the test "
                    f"{HOW[reach].format(method=method)}, so the checker cannot take its wanted "
                    "value out of the code that runs beside the student's file. Write each "
                    "check as t.expect(found, wanted, why).")
    raise TypeError(f"no words for {fact!r}")  # a new Problem needs its case here
