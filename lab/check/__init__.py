"""The checking engine: which tests run, how a harness.py runs them, and who decides.

    manifest   the course's facts, read from every lesson's lesson.toml
    suite      a lab's test files: the cumulative order, what each test says, blinding
    kit        what a test file imports: @lab_test, t.expect, and the colour-blind helpers
    importer   the one way a harness.py is imported, from its source, with no bytecode written
    turns      the event loop that counts turns and stops a test that overruns
    observe    how a found value travels: one canonical line of JSON
    child      the process that runs a harness.py and reports what each check found
    runner     starts that process, guards it, and decides each verdict outside it
    verdict    the verdict on one test, and its words
    record     the reference's observations, recorded in-process on a solution

Nothing here imports the fake world; the verdict is decided in the runner's process, never in
the child's.
"""
