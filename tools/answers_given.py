"""How much of each lab's answer the student already has in front of them: the share of its
answer lines that stand verbatim in its standard starter, its lesson's notebook or its first
two hint levels.

A lab's answer lines are its solution's code lines that its standard starter lacks (blank
lines, comments and lines with no name in them, such as `else:` or `)`, left out). A line
stands verbatim when its text, spaces collapsed, is in one of those places. A Build section
or a gap comment that spells the lines out turns the lab into copying; the kit's test holds
every lab under a fifth and the course under a tenth (tests/authoring/test_answers_left.py).
The third hint level, the outline, is left out: a student reaches it by asking three times.

usage: python -m tools.answers_given [-v]    a table of every lab; -v lists the lines given
"""
from __future__ import annotations

import argparse
import collections
import keyword
import re
from dataclasses import dataclass

from grader.lesson_notebooks import build
from lab.check import manifest

LAB_MOST = 0.20  # of one lab's answer lines
COURSE_MOST = 0.10  # of all labs' answer lines together
NAME = re.compile(r"[A-Za-z_]\w*")
INLINE_COMMENT = re.compile(r"\s+#\s.*$")


@dataclass(frozen=True)
class Given:
    lab: str
    answers: tuple[str, ...]  # the answer lines, spaces collapsed
    given: tuple[tuple[str, str], ...]  # (line, where it stands) for each one given

    @property
    def share(self) -> float:
        return len(self.given) / len(self.answers) if self.answers else 0.0


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def code_lines(text: str) -> list[str]:
    """The file's code lines, stripped of comments and spaces collapsed, in order."""
    found = []
    for line in text.splitlines():
        line = INLINE_COMMENT.sub("", line).strip()
        if line and not line.startswith("#"):
            found.append(_collapsed(line))
    return found


def _answer(line: str) -> bool:
    return any(not keyword.iskeyword(name) for name in NAME.findall(line))


def answer_lines(lab: manifest.Lab) -> list[str]:
    """The solution's code lines its standard starter lacks, counted as a multiset: a line the
    starter holds twice covers two of the solution's."""
    left = collections.Counter(code_lines(lab.starter.read_text(encoding="utf-8")))
    answers = []
    for line in code_lines(lab.solution.read_text(encoding="utf-8")):
        if left[line]:
            left[line] -= 1
        elif _answer(line):
            answers.append(line)
    return answers


def places(lab: manifest.Lab) -> dict[str, str]:
    """Where a student reads before asking for the outline: name -> text, spaces collapsed."""
    notebook = build(lab.lesson)
    found = {"the standard starter": lab.starter.read_text(encoding="utf-8"),
             "the notebook": "\n".join(cell.source for cell in notebook.cells)}
    for (_, words), text in zip(manifest.HINT_LEVELS[:2], lab.hints[:2]):
        found[f"hint {words}"] = text
    return {name: _collapsed(text) for name, text in found.items()}


def measure(lab: manifest.Lab) -> Given:
    where = places(lab)
    answers = answer_lines(lab)
    given = tuple((line, name) for line in answers
                  for name in [next((n for n, text in where.items() if line in text), None)]
                  if name)
    return Given(lab.id, tuple(answers), given)


def every_lab() -> list[Given]:
    return [measure(lab) for lab in manifest.labs(built_only=True)]


def course_share(measured: list[Given]) -> float:
    total = sum(len(m.answers) for m in measured)
    return sum(len(m.given) for m in measured) / total if total else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.answers_given", description=__doc__
                                     .split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list the lines given")
    args = parser.parse_args(argv)
    measured = every_lab()
    for m in measured:
        mark = "  over a fifth" if m.share > LAB_MOST else ""
        print(f"{m.lab:>5}  {len(m.given):3} of {len(m.answers):3} answer lines given  "
              f"{m.share:6.1%}{mark}")
        if args.verbose:
            for line, name in m.given:
                print(f"         {line}    ({name})")
    share = course_share(measured)
    print(f"course  {share:.1%} of all answer lines given (at most {COURSE_MOST:.0%}; a lab at "
          f"most {LAB_MOST:.0%})")
    return int(share > COURSE_MOST or any(m.share > LAB_MOST for m in measured))


if __name__ == "__main__":
    raise SystemExit(main())
