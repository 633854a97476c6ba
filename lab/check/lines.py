"""A check in the checker's words: the lines `lab_check.py` prints, and the practice check too.

One line per test as its verdict is decided (`PASS`, or `FAIL` with the reason, labelled when
it is probably collateral), or one line for them all when each failed for lack of a name (an
empty file, or not the lab's); the tests left unrun after a repeated hang are said once, as one
line. Then which sets ran, what harness.py printed, the count line "N passed, M failed" (and
", K not run"), and the next step (lab/check/advice.py). Written through `write`, so a caller
may print them or keep them; every sentence is lab/check/words_lines.py's.
"""
from __future__ import annotations

from pathlib import Path

from lab.check import audit, local, runner, words_lines
from lab.check.advice import blank, collateral, missing, next_step, unfit
from lab.check.verdict import Verdict

# The practice check's opening words, named here too for the callers that have always found
# them here; lab/check/words_lines.py keeps them.
PRACTICE = words_lines.PRACTICE
SHOWN_FINDINGS = 3  # of the lines audit.scan finds, named in the note after the count


def say(text: str) -> None:
    """Print one line at once: a student watches the verdicts arrive."""
    print(text, flush=True)


class Lines:
    """The per-test lines of one check. A failure whose reason repeats the one above says so
    instead of repeating it; the first collateral failure of an earlier lab says why it is
    probably collateral, later ones of that lab say only that they are too."""

    def __init__(self, lab_id: str, *, verbose: bool = False, write=say):
        self.lab_id, self.verbose, self.write = lab_id, verbose, write
        self.last_message: str | None = None
        self.labelled: set[str] = set()
        # Failures for lack of a name, held back while every test so far is one: if all are,
        # one line says so (`close`); the first test that is not releases them.
        self.held: list = []
        self.streaming = False

    def outcome(self, outcome) -> None:
        if not self.streaming:
            if outcome.found is None and missing([*self.held, outcome]):
                self.held.append(outcome)
                return
            self.release()
        self._line(outcome)

    def release(self) -> None:
        """Write the failures held back, and every later one as it comes."""
        self.streaming = True
        held, self.held = self.held, []
        for outcome in held:
            self._line(outcome)

    def close(self, harness: Path) -> None:
        """The one line for a check whose every test failed for lack of a name, if it was one."""
        if self.held:
            text = Path(harness).read_text(encoding="utf-8", errors="replace")
            said = unfit(self.lab_id, missing(self.held) or [], len(self.held),
                         empty=blank(text))
            self.write(f"  {Verdict.FAIL.mark}  {said}")
            self.held = []

    def _line(self, outcome) -> None:
        write = self.write
        if not outcome.ran:  # the rest of the run, decided at once: said once, not per test
            if outcome.message != self.last_message:
                self.last_message = outcome.message
                lines = outcome.message.splitlines()
                write(f"  ----  {lines[0]}")
                for line in lines[1:]:
                    write(f"        {line}")
            return
        if outcome.found is not None:  # not judged: what the file found, check by check
            write(f"  ....  {outcome.says}")
            for why, found in outcome.found:
                write(f"        {why}")
                write(f"          {words_lines.found(found)}")
            if outcome.error:
                write(f"        {words_lines.ended_as(outcome.error)}")
            return
        write(f"  {outcome.verdict.mark}  {outcome.says}")
        if outcome.verdict is Verdict.PASS:
            return
        label = collateral(outcome.lab_id, self.lab_id)
        if label and outcome.lab_id not in self.labelled:
            self.labelled.add(outcome.lab_id)
            write(f"        ({label}.)")
        elif label:
            write(f"        {words_lines.collateral_too(outcome.lab_id)}")
        if outcome.message == self.last_message:
            write(f"        {words_lines.same_reason()}")
            return
        self.last_message = outcome.message
        for line in outcome.message.splitlines():
            write(f"        {line}")
        if self.verbose and outcome.trace:
            for line in outcome.trace.rstrip().splitlines():
                write(f"        | {line}")


def check_aloud(harness: Path, tests: Path, lesson: int, *, verbose: bool = False,
                seconds: float = runner.Limits.seconds_per_test, practice: bool = False,
                write=say, seed: int | None = None, carried: bool = False) -> local.Checked:
    """Check `harness` as `lab_check.py` does and write its report line by line; raises
    NothingToCheck (a UserError) before writing anything when there is nothing to run. Under
    a `seed` the kit holds no reference for, nothing is judged: each test's checks are
    written with what the file found at each. `carried`: the file is the student's own in its
    lab's folder, which the closing line may offer to carry forward (advice.next_step)."""
    chosen = local.choose(harness, tests, lesson)
    if chosen.differs is not None:
        write(words_lines.tests_differ(chosen.differs, chosen.lab.id))
    if practice:
        write(words_lines.PRACTICE)
    lab = chosen.lab
    write(words_lines.checking(harness, lab.name, lab.title, seed))
    public = chosen.expected.seed
    if seed is not None and seed != public:
        write(words_lines.seed_not_held(public, seed))
    lines = Lines(lab.id, verbose=verbose, write=write)
    checked = local.check(harness, chosen, seconds=seconds, practice=practice,
                          on_outcome=lines.outcome, seed=seed)
    if checked.interrupted:
        lines.release()
        write(words_lines.interrupted())
        return checked
    report = checked.report
    lines.close(harness)
    write("\n" + words_lines.sets_line(report.sets))
    if report.output_dropped or (report.output and verbose):
        write(words_lines.printed(len(report.output.encode()) + report.output_dropped, verbose))
        if verbose:
            write(report.output + (words_lines.printed_dropped(report.output_dropped)
                                   if report.output_dropped else ""))
    if not checked.judged:
        write(words_lines.unjudged(len(report.outcomes), seed))
        return checked
    not_run = sum(not o.ran for o in report.outcomes)
    write(words_lines.counted(report.passed, report.failed - not_run, not_run))
    found = audit.scan(harness.read_text(encoding="utf-8", errors="replace"))
    if found:  # an aid, as in the grader: it never changes a verdict
        write(words_lines.reaches_past([str(f) for f in found[:SHOWN_FINDINGS]],
                                       len(found[SHOWN_FINDINGS:])))
    write(next_step(lab.id, report.outcomes, import_error=report.import_error is not None,
                    carried=carried))
    return checked
