"""The instructor's grader: a class's submissions in, scores and feedback out.

It is the second front door of the one engine, lab/check/runner.py (the student's local checker is
the first): the same suites, the same verdicts, the same messages. Around the engine it adds
what grading a class needs:

    plan.py              what is graded and for how many points (the kit's metadata, extra tests)
    sandbox/             where and as whom a submission runs, and what that cannot prevent
    batch.py             finding submissions and grading them in parallel worker processes
    row.py               a submission's grade row, the one shape every report and the journal hold
    journal.py           each result saved as soon as it is known, so a batch resumes
    report.py            CSV, JSON, feedback per student, and the summary table
    graded.py            what a copy grading one lab holds: its tests, earlier labs', no later
    gradescope.py        the Gradescope autograder bundle, and the run inside it
    classroom.py         the GitHub Classroom workflow: points per test, files checked first
    classroom_score.py   the scorer that workflow carries into a student's repository
    release/             the folder students get, without solutions
    lesson_notebooks.py  a lesson's notebook built from its lesson.md, and its pinned outputs
    errors.py            what an instructor asked that cannot be done, as types

The command line is `python -m grader`; see grader/__main__.py.
"""
