"""The checking engine: which tests run, how a harness.py runs them, and who decides.

    manifest   the course's facts, read from every lesson's lesson.toml
    suite      a lab's test files: the cumulative order, what each test says, blinding
    kit        what a test file imports: @lab_test, t.expect, and the colour-blind helpers
    importer   the one way a harness.py is imported, from its source, with no bytecode written
    turns      the event loop that counts turns and stops a test that overruns
    observe    how a found value travels (one canonical line of JSON) and how each kind of
               check holds it against the reference's: KINDS, where a kind is registered
    facts      why a test stopped and what the judge found, as types that cross every boundary
    words      those facts, and found values, in a student's words: the one place they are made,
               with words_lines (the checker's own lines and advice) and words_feedback (the
               grader's feedback and summary) beside it
    rules      a check's rule as its test declared it, as a type: its credits and item names
    job        the job the runner sends the process running harness.py, as types
    protocol   the reports of the process running harness.py, as types, and their one codec
    child      the process that runs a harness.py and reports what each check found
    process    starting and feeding that process on every system, and its end
    channel    reading its report channel into a queue bounded in bytes; what it printed
    limits     how much one check may take: the policy every guard reads
    in_page    the practice check's stand-in for that process, in the checker's own one
    runner     the session that guards that process and decides each verdict outside it
    spin       the practice check's spin guard, in place of that process's: rounds of
               harness.py's loops counted between two turns
    verdict    the verdict on one test, and the fact behind it
    record     the reference's observations, recorded in-process on a solution
    seeds      the seed a check draws its cases under, and expected.json (an Expectation each)
    local      a lab's check of one harness.py, returned as a report
    lines      that report in the checker's lines; advice: collateral failures, the next step,
               decided as facts (advice.Next)
    spoken     a desk command as typed where the student is: in a terminal, or a page's cell
    errors     what a user got wrong, as types: the only errors a front door makes one line of;
               the engine's carry a record of problems, worded by words_errors when shown

Nothing here imports the desk, and the runner's process never imports the fake world (the
child reads a fake's ScriptExhausted as a fact, and the zygote loads the world ahead of its
children); the verdict is decided in the runner's process, never in the child's.
"""
