"""Issue 42's reviews, held: source/review_findings.md lists every finding with its state
(fixed, or stands with the lesson saying why), its count says so, the claims the issue quoted
as wrong are gone from what students read, and the README and every lesson's start cell name
the two other starters (`--guided`, `--mine`), which students once met only in `--help`."""
from __future__ import annotations

import json
import re

import pytest

from lab.check import manifest

FINDINGS = manifest.SOURCE / "review_findings.md"
ROW = re.compile(r"^\| (\d+) \| [^|]+ \| [^|]+ \| .+ \| (.+) \|$")
COUNT = re.compile(r"^Count: (\d+) findings; (\d+) fixed .*?, (\d+) stands? with the lesson "
                   r"saying why, none not reached\.$", re.M)

# Claims the issue quotes as wrong, and where students would read them again.
WRONG_CLAIMS = [
    ("01-remembers", "is one you can do none of that to"),
    ("02-tools", "One hidden test"),
    ("03-loop", "the only one that cannot stop in the middle of a job"),
    ("06-budgets", "3, one per word"),
    ("08-harness", "a list nobody outside can change"),
    ("12-compaction", "down to the four characters per token"),
    ("12-compaction", "is refused by every provider"),
    ("13-prompt", "Current date: 2025-06-02"),
    ("05-exits", "twenty-one requests"),
]


def _rows():
    rows = []
    for line in FINDINGS.read_text(encoding="utf-8").splitlines():
        found = ROW.match(line)
        if found:
            rows.append((int(found[1]), found[2].strip()))
    return rows


def test_every_review_finding_is_fixed_or_stands_and_the_count_says_so():
    rows = _rows()
    assert [n for n, _ in rows] == list(range(1, len(rows) + 1)), (
        f"{FINDINGS.name} should number its findings 1, 2, ... without a gap; it has "
        f"{[n for n, _ in rows]}")
    open_ = [f"#{n}: {state[:60]}" for n, state in rows
             if not state.startswith(("fixed", "stands:"))]
    assert not open_, (f"every finding of issue 42's reviews is fixed, or stands with the "
                       f"lesson saying why; {FINDINGS.name} has these in another state:\n"
                       + "\n".join(open_))
    count = COUNT.search(FINDINGS.read_text(encoding="utf-8"))
    assert count, f"{FINDINGS.name} should open with its count line (Count: N findings; ...)"
    fixed = sum(state.startswith("fixed") for _, state in rows)
    assert [int(count[1]), int(count[2]), int(count[3])] == [len(rows), fixed,
                                                             len(rows) - fixed], (
        f"{FINDINGS.name}'s count line says {count[0]!r}, but its table holds {len(rows)} "
        f"findings, {fixed} fixed and {len(rows) - fixed} standing")


@pytest.mark.parametrize("lesson, claim", WRONG_CLAIMS, ids=[c for _, c in WRONG_CLAIMS])
def test_a_claim_the_reviews_found_wrong_is_gone(lesson, claim):
    places = [manifest.SOURCE / "lessons" / lesson / "lesson.md",
              manifest.SOURCE / "lessons" / lesson / "outputs.json",
              manifest.SOURCE / "harness.src.py",
              *(manifest.LESSONS / lesson).glob("*.svg")]
    found = [path.relative_to(manifest.KIT).as_posix() for path in places
             if path.is_file() and claim in path.read_text(encoding="utf-8")]
    assert not found, (f"issue 42's reviews found {claim!r} wrong ({FINDINGS.name} says how it "
                       f"was fixed); it is back in {', '.join(found)}")


def test_the_readme_names_the_guided_and_mine_starters():
    readme = (manifest.KIT / "README.md").read_text(encoding="utf-8")
    taking = readme[readme.index("## Taking a lesson"):readme.index("## Your harness on")]
    for flag in ("--guided", "--mine"):
        assert re.search(rf"`course start \d+\.\d+ {flag}`", taking), (
            f"the README's 'Taking a lesson' should show `course start N {flag}`, so a student "
            "meets the other starters outside --help")


@pytest.mark.parametrize("lesson", [lesson for lesson in manifest.lessons() if lesson.labs],
                         ids=lambda lesson: lesson.folder.name)
def test_every_labs_start_cell_names_the_guided_starter(lesson):
    pins = json.loads((manifest.SOURCE / "lessons" / lesson.folder.name / "outputs.json")
                      .read_text(encoding="utf-8"))
    printed = "".join(json.dumps(value) for value in pins.values())
    lost = [lab.id for lab in lesson.labs if not lab.reference_only
            and f"course start {lab.id} --guided" not in printed]
    assert not lost, (f"lesson {lesson.number}'s start cells should print `course start LAB "
                      f"--guided` for labs {lost}, as `course start` does (outputs.json pins "
                      "what they print)")
