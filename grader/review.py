"""Which submissions need review: the lines of each that use what a harness never needs
(lab/check/audit.py's scan of its code, and what its audit hook saw it do), kept in its row and
said in the terminal's summary and on report.html.

It is an aid to the instructor and counts toward nothing: a row's score never reads it, and a
file can use these things for a reason of its own. Students never see it (feedback/ does not
show it), so it tells a file nothing about how it was found.
"""
from __future__ import annotations

from html import escape

from lab.check import audit, words_feedback

from grader import words_page as said

SHOWN = 4  # lines named per student in the summary; the rest are counted
LONGEST = 20  # lines kept per row


def of(text: str, output: str) -> tuple[list[str], str]:
    """(the lines of a submission that need review, what it printed without the audit hook's
    notes) from its code and what it printed."""
    ran, output = audit.found_in(output or "")
    found = sorted(set(audit.scan(text)) | set(ran))
    lines = [str(f) for f in found[:LONGEST]]
    if len(found) > LONGEST:
        lines.append(f"and {len(found) - LONGEST} more")
    return lines, output


def summary_lines(rows) -> list[str]:
    """The summary's line on the submissions that need review, or none."""
    flagged = [r for r in rows if getattr(r, "review", None)]
    if not flagged:
        return []
    return [words_feedback.needs_review([(r.student, r.review) for r in flagged], SHOWN)]


def section(students) -> list[str]:
    """report.html's section on the students whose rows need review, or nothing."""
    found = [s for s in students if getattr(s, "review", None)]
    if not found:
        return []
    rows = [f'<tr><th scope="row">{escape(s.name)}</th><td>{escape(str(s.score))}</td><td>'
            + "<br>".join(escape(line) for line in s.review) + "</td></tr>"
            for s in sorted(found, key=lambda s: s.name)]
    return ['<section id="review" aria-labelledby="review-h">',
            f'<h2 id="review-h">{escape(said.REVIEW)}</h2>',
            f"<p>{escape(said.REVIEW_HOW)}</p>",
            f'<table class="bars"><tr><th scope="col">{escape(said.STUDENT)}</th>'
            f'<th scope="col">{escape(said.SCORE)}</th>'
            f'<th scope="col">{escape(said.LINES)}</th></tr>', *rows, "</table>", "</section>"]
