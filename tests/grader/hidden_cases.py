"""An instructor's hidden tests for lab 15.1 and how the grader's tests look for their secrets
in what a student may be given: tests/grader/test_grader_hidden.py and
test_grader_red_team_class.py share them."""
import csv
import json
from pathlib import Path

from lab.check import suite

# The instructor's hidden tests for lab 15.1. Its inputs ("lark-5090", "heron"), the values
# it wants and its whys are what no student may read.
HIDDEN = '''
import harness
from lab.check.kit import lab_test

LAB = "15.1"

# The instructor's note, which no student reads: the tail is the lark's.


@lab_test("The words of a stop, with a tail of the instructor's.", points=2)
async def test_the_words_with_a_tail(t):
    tail = "lark-5090"
    t.expect(harness.ABORTED + " at " + tail, "Operation aborted at lark-5090",
             "The hidden check's own why: ABORTED, then the tail.")


@lab_test("The words of a stop, shouted.")
async def test_the_words_shouted(t):
    t.expect(harness.ABORTED.upper().replace(" ", "-heron-"), "OPERATION-heron-ABORTED",
             "The hidden check's second why: the words, shouted and joined.")
'''
SENTENCES = ["The words of a stop, with a tail of the instructor's.",
             "The words of a stop, shouted."]
SECRETS = ["lark-5090", "heron", "Operation aborted at lark-5090", "OPERATION-heron-ABORTED",
           "instructor's note", "hidden check's own why", "hidden check's second why"]


def secret_lines() -> list[str]:
    """Every line of the hidden file, as the instructor wrote it and as the student's process
    gets it (blinded), that is not a line every test file holds."""
    common = {"import harness", "from lab.check.kit import lab_test"}
    lines = {line.strip() for text in (HIDDEN, suite.blind(HIDDEN)) for line in text.splitlines()}
    return sorted(line for line in lines if line and line not in common)


def leaks(text: str) -> list[str]:
    """The secrets of the hidden file that `text` holds, as written or escaped in a repr."""
    return [s for s in [*secret_lines(), *SECRETS] if s in text or repr(s)[1:-1] in text]


def strings(data) -> str:
    """Every string a JSON document holds, one per line, as a reader of it sees them."""
    if isinstance(data, str):
        return data
    if isinstance(data, dict):
        return "\n".join(strings(v) for v in [*data, *data.values()])
    if isinstance(data, list):
        return "\n".join(strings(v) for v in data)
    return str(data)


def cells(path: Path) -> str:
    with path.open(encoding="utf-8", newline="") as handle:
        return "\n".join(cell for line in csv.reader(handle) for cell in line)


def student_files(out: Path) -> dict[str, str]:
    """What a student may be given from an output folder, each file as its reader sees it."""
    seen = {f"feedback/{p.name}": p.read_text(encoding="utf-8")
            for p in (out / "feedback").glob("*.md")}
    seen["grades.json"] = strings(json.loads((out / "grades.json").read_text(encoding="utf-8")))
    for name in ("tests.csv", "grades.csv"):
        seen[name] = cells(out / name)
    return seen
