"""The class page's sentences (report.html: a lab's, and the class folder's), the sibling of
lab/check/words_feedback.py for grader/page/.

grader/page/facts.py counts what the page shows from grades.json and grader/page/html.py lays it
out as HTML; every sentence it writes is made here, from plain values, so that rewording one
(or translating the page) changes nothing that is counted or decided. Values that are HTML
already (a link, an escaped name) are passed in as the page will hold them; the words made
here hold no markup of their own, so html.py inserts them as they are.
"""
from __future__ import annotations

from collections.abc import Sequence


def _plural(n: int, word: str, many: str | None = None) -> str:
    return word if n == 1 else (many or word + "s")


# --- the page's frame ---------------------------------------------------------------------------

def title(lab: str, lab_title: str) -> str:
    return f"Lab {lab}: {lab_title}: the class"


def opening(graded: int, points: str, full: int, broken: int) -> str:
    """The page's first line: how many were graded, the points, full marks and broken files."""
    return (f"{graded} {_plural(graded, 'submission')} graded, {points} points each; {full} "
            f"with full marks, {broken} broken (did not import, empty, without the lab's "
            "names, or not graded).")


def nav(anchor: str) -> str:
    """The link to a section in the page's bar of links, by the section's anchor."""
    return {"picture": "class picture", "rules": "most-failed rules", "scores": "scores",
            "not-graded": "broken files", "times": "time", "not-submitted": "not submitted",
            "similar": "alike", "overrides": "overrides"}[anchor]


EVERY_LAB_LINK = "every lab of the class"


def overall(verdict: str) -> str:
    """A submission's overall verdict (grader/row.py's Overall, by its value) as the page
    names it."""
    return verdict


# --- the class picture --------------------------------------------------------------------------

PICTURE = "The class picture"
STUDENT = "student"
SCORE = "score"
FAILED_BY = "failed by"
PICTURE_HOW = ("Each row is a student, the lowest score first; each column a test, grouped by "
               "the lab it belongs to: the lab whose tests the class failed most comes first, "
               "and in each lab the tests most students failed. ✓ passed, ✗ failed (a timeout "
               "or crash counts as failed), · not run (a broken file: it did not import, was "
               "empty, lacked the lab's names or was not graded). Under each column's number, "
               "how many students failed it. A column's number is its place in the list below "
               "the picture; hover over it for the rule it checks.")
PASSED = "✓ passed"
FAILED = "✗ failed"
NOT_RUN = "· not run"
PICTURE_CAPTION = "Students by tests, coloured pass, fail or not run"
EVERY_TEST = "Every test by its number"


def test_counts(set_name: str, failed: int, ran: int) -> str:
    """A test's line in the list under the picture, after its sentence."""
    return f"({set_name}; {failed} of {ran} failed)"


# --- the rules the class broke most ----------------------------------------------------------

RULES = "The rules the class broke most"
NONE_FAILED = "Every submission that ran passed every test."
RULES_HOW = ("Counted over the students whose file ran (every file but the broken ones). A "
             "section link opens the lesson, rendered beside this page, at the lab that "
             "teaches the rule; a wrong design is one the lesson warns about that the same "
             "test catches, in the same function.")


def rules_shown(shown: int, failing: int) -> str:
    """Said when more rules were failed than the section shows."""
    return (f"The {shown} most failed of the {failing} rules someone failed; the other "
            f"{failing - shown} (ties with the last one shown among them) are in the list of "
            "every test under the class picture.")


def failed_share(failed: int, ran: int, share: int) -> str:
    return f"Failed by {failed} of the {ran} students whose file ran ({share}%)"


def lesson(number: int, lesson_title: str) -> str:
    """A lesson as the page names it (grader/page/teaching.py's Section)."""
    return f"Lesson {number}: {lesson_title}"


def taught_in(lesson_named: str, link: str) -> str:
    """Where a rule is taught: the lesson, and `link` (HTML: the section's heading, linked)."""
    return f"Taught in {lesson_named}, section {link}."


def wrong_design(name: str, rule: str, where: str) -> str:
    """A wrong design of the catalogue that fails as the class did: its name, the rule it
    breaks and where the lesson shows it."""
    return f"Fails as the wrong design “{name}” does: {rule} (the lesson shows it in: {where})"


def what_tests_said(shown: int, length: int) -> str:
    """The heading of a failure's reason, cut at `shown` characters when longer."""
    return "What the tests said" + (f" (the first {shown:,} of its {length:,} characters)"
                                    if length > shown else "")


# --- the score distribution, the broken files, the time --------------------------------------

SCORES = "The score distribution"
SCORES_CAPTION = ("How many students scored in each tenth of the points; the last band holds "
                  "full marks.")
BAND = "band"
STUDENTS = "students"
BROKEN = "Broken files"
NONE_BROKEN = "No file was broken: every one ran the lab's tests."
BROKEN_CAPTION = ("Why no test could tell anything about these (did not import, empty, "
                  "without the lab's names, or not graded), counted apart as the summary "
                  "counts them: the submission's own feedback file says it in full.")
VERDICT = "verdict"
WHY = "why"
TIMES = "Time per submission"
TIMES_CAPTION = ("How long grading each submission took, its tests and its sandbox together, "
                 "the slowest first.")
SECONDS = "seconds"


def seconds(value: float) -> str:
    return f"{value:.1f} s"


# --- overrides, submissions alike, review, the roster -----------------------------------------

OVERRIDES = "Your overrides"
OVERRIDES_HOW = ("Applied from overrides.csv on every run, in the scores above and in each "
                 "student's feedback.")


def with_overrides(score: str, most: str) -> str:
    return f"({score}/{most} with them):"


ALIKE = "Submissions more alike than the starter explains"
ALIKE_HOW = ("Compared by copydetect (MOSS's winnowing) with the lab's starter left out, so "
             "only what both wrote themselves counts; a renamed name or a reworded message "
             "does not hide a copy. A reason to read the two files, not a verdict.")


def pair(first: str, second: str) -> str:
    """Two submissions found alike (`first` and `second` as HTML: names, marked up)."""
    return f"{first} and {second}"


def alike(first: str, second: str, shares: tuple[float, float],
          lines: tuple[str, str]) -> str:
    """A pair of submissions: each one's share of its own code that is shared, and where."""
    return (f"{shares[0]:.0%} of {first}'s own code and {shares[1]:.0%} of {second}'s is "
            f"shared; {first}'s lines {lines[0]}, {second}'s lines {lines[1]}.")


def shared_lines(first: str) -> str:
    return f"The shared lines, as {first} wrote them"


REVIEW = "Needs review"
REVIEW_HOW = ("These files use what a harness never needs: the checker's modules, the import "
              "machinery, the garbage collector, ctypes, tracing, other frames, or code built "
              "as it runs. Read the lines: the score does not count this, and a file may have "
              "a reason.")
LINES = "lines"
NOT_SUBMITTED = "Not submitted"
EVERYONE_SUBMITTED = "No one: everyone submitted."


def roster_counts(matched: int, missing: int) -> str:
    return (f"{matched} {_plural(matched, 'submission')} matched the roster; {missing} "
            f"{_plural(missing, 'student')} on it {'has' if missing == 1 else 'have'} none.")


def unknown(students: Sequence[str]) -> str:
    return "Submissions no one on the roster matches: " + ", ".join(students)


# --- the class folder's page: every lab, each student's path ----------------------------------

CLASS = "The class: every lab graded into this folder"
CLASS_HOW = ("Each lab's page holds its own class picture, rules and feedback; a lab's counts "
             "are never set against another lab's.")


def lab_link(lab: str, lab_title: str) -> str:
    return f"Lab {lab}: {lab_title}"


def lab_counts(submissions: int, points: str, full: int) -> str:
    return (f": {submissions} {_plural(submissions, 'submission')}, {points} points each, "
            f"{full} with full marks.")


PATH = "Each student's path across the labs"
PATH_CAPTION = ("Every lab graded into this class folder, in course order: each student's "
                "score and its share of the lab's points.")
NOT_GRADED = "not graded"


def lab_column(lab: str) -> str:
    return f"lab {lab}"
