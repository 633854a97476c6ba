"""The engine's facts in a student's words: the one place a fact (lab/check/facts.py) or a
found value becomes a sentence.

The judge, the runner, the child and the practice check's guard call these to write a test's
message, and keep the fact beside it; whoever needs to know why a test stopped reads the fact,
never these words back. So rewording a sentence here changes what a student reads and nothing
that is decided from it.
"""
from __future__ import annotations

import json
import signal

from lab.check import manifest, words_values
from lab.check.facts import (Cause, Escaped, Exited, Hung, KitRaised, Mismatch, MissingName,
                             NotRun, RanOut, Raised, Stalled, Unloadable)
from lab.check.hangs import Place
from lab.check.observe import RAISED

SHOWN_CHARACTERS = 600  # of a value shown in a message


# --- why a test stopped ----------------------------------------------------------------------

def missing_name(fact: MissingName) -> str:
    """A name harness.py lacks, and the lab that adds it."""
    lab = _lab_name(fact.lab)
    return f"harness.py has no {fact.name} yet{f' ({lab})' if lab else ''}."


def _lab_name(lab_id: str | None) -> str | None:
    if lab_id is None:
        return None
    try:
        return manifest.lab(lab_id).name
    except KeyError:
        return f"lab {lab_id}"


# For each fake: (who was asked, what one asking is, what its script holds, how it is shown)
_ASKED = {"model": ("the model", "request", "replies", "The request"),
          "person": ("the person", "question", "answers", "The question"),
          "provider": ("the provider", "request", "streams", "The request")}


def ran_out(fact: RanOut) -> str:
    """A fake that ran out of script, for a student. Its own message says how to lengthen the
    script, which is advice for whoever wrote the test; a student did not write it, so they are
    told instead that their code asked once more than the test allows, and what it asked."""
    who = fact.function or "Your code"
    where = f" (harness.py, line {fact.line})" if fact.function else ""
    whom, thing, answers, shown_as = _ASKED[fact.fake]
    detail = fact.asked.strip()
    return (f"{who} asked {whom} again{where}: {thing} {fact.number}, where this test scripts "
            f"only {fact.scripted} {answers}, enough for the reference's code. Your code goes on "
            "where it should have stopped." + (f" {shown_as} it made:\n{detail}" if detail else ""))


def raised(fact: Raised) -> str:
    """An exception harness.py raised, and where."""
    return f"{fact.function} raised {fact.what} (harness.py, line {fact.line})."


def exited(fact: Exited) -> str:
    return (f"harness.py called sys.exit({fact.code}). A harness is a library: it hands "
            "results back and leaves ending the program to its caller.")


def unloadable(fact: Unloadable) -> str:
    return f"The tests of {fact.stem} could not be loaded: {fact.what}."


def kit_raised(fact: KitRaised) -> str:
    return f"{fact.kind}: {fact.message}"


def escaped(fact: Escaped) -> str:
    return f"The test could not go on: {fact.what}."


def ended(cause: Cause | None, error: str | None, place: Place | None = None) -> str | None:
    """How a test ended, for a student: from its fact when it has one (`error` is then the
    child's words, for a test's author and the reference's recorder), else `error` as it is.
    `place` is where a guard stopped it (protocol.Ended's), for a Stalled."""
    if isinstance(cause, MissingName):
        return missing_name(cause)
    if isinstance(cause, RanOut):
        return ran_out(cause)
    if isinstance(cause, Raised):
        return raised(cause)
    if isinstance(cause, Exited):
        return exited(cause)
    if isinstance(cause, Unloadable):
        return unloadable(cause)
    if isinstance(cause, KitRaised):
        return kit_raised(cause)
    if isinstance(cause, Escaped):
        return escaped(cause)
    if isinstance(cause, Stalled):
        return stalled(cause, place)
    return error


def stalled(fact: Stalled, place: Place | None = None) -> str:
    """A test the child's own guard stopped: out of the event loop's turns, waiting for what
    cannot happen, or (the practice check's guard) going round or holding within one turn."""
    if fact.how == "rounds":
        return _spun(_rounds(fact.count), place)
    if fact.how == "seconds":
        return held(fact.seconds, place)
    why = ("it is waiting for something that can never happen: nothing else is left to run"
           if fact.how == "waiting" else
           f"it used up its budget of {fact.count:,} turns of the event loop")
    return (f"This test never finished: {why}. Something waits without end: a tool that never "
            "looks at its signal, or a loop with no way out?")


def stalled_importing(fact: Stalled) -> str:
    """An import the practice check's guard stopped (after not_imported's)."""
    went = (f"went {_rounds(fact.count)}" if fact.how == "rounds" else
            f"ran for {fact.seconds:g} seconds")
    return (f"its code at the top level {went} without ending, and was stopped: is there code "
            "at the top level that never ends?")


def _rounds(count: int) -> str:
    return f"{count:,} rounds of harness.py's loops"


def spun_processor(seconds: float, place: Place | None = None) -> str:
    """A test the runner stopped for using `seconds` of processor time without a turn."""
    return _spun(f"{seconds:g} seconds of processor time", place)


def _spun(measure: str, place: Place | None = None) -> str:
    """A test stopped for spinning: it used `measure` ("0.5 seconds of processor time") at
    `place` without ending. The runner's guard and the practice check's (lab/check/spin.py)
    say it alike."""
    return _stopped(place, f"spun{{at}} through {measure} without giving the event loop a turn "
                    "(a loop that never awaits)",
                    f"went round{{at}} for {measure} without ending, where the reference ends in "
                    "milliseconds (a loop whose way out is never reached?)")


def held(seconds: float, place: Place | None = None) -> str:
    """A test stopped by the wall clock: it held the process `seconds` at `place` without
    ending (and without a turn of the event loop, where there is one)."""
    span = f"held the process for {seconds:g} second{'' if seconds == 1 else 's'}{{at}}"
    return _stopped(place, f"{span} without giving the event loop a turn (a call that blocks, "
                    "such as time.sleep, or a busy loop)",
                    f"{span} without ending (a call that blocks, such as time.sleep, or a loop "
                    "that never ends)")


def _stopped(place: Place | None, evented: str, plain: str) -> str:
    """A stopped test's verdict, naming `place` where it is known. The event loop is named
    (`evented`) only where harness.py has async code, or the place is unknown: the early
    lessons' synchronous files have no turn to give (`plain`)."""
    known = place is not None and place.function is not None
    words = plain if known and place is not None and not place.async_code else evented
    at = f" in {place_named(place)}" if known and place is not None else ""
    return f"Timed out: this test {words.format(at=at)}. It was stopped; the other tests still ran."


def overran(seconds: float) -> str:
    """The test running when the whole check's time ran out."""
    return (f"Timed out: the whole check ran past its time limit of {seconds:g} seconds during "
            "this test. It was stopped.")


def import_hung(seconds: float) -> str:
    """harness.py held its import past the allowance."""
    return (f"harness.py did not finish importing within {seconds:.0f} seconds: is there code "
            "at the top level that never ends?")


def import_failed(cause: Cause | None, detail: str, message: str) -> str:
    """Why harness.py did not import, from the child's fact (`detail`: Python's own line for
    the exception, when one escaped); the child's `message` only where it gave no fact."""
    if isinstance(cause, Stalled):
        return stalled_importing(cause)
    said = ended(cause, None)
    if said is None:
        return message
    return said + ("\n" + detail if detail else "")


def not_imported(why: str) -> str:
    """Why no test could run: harness.py did not import, for `why`."""
    return "harness.py does not import: " + why


def _flooding(megabytes: int) -> str:
    return (f"sent the checker more than {megabytes} MB of reports, where a test of the course "
            "sends a few kilobytes (the values its checks found), so it was stopped")


def flooded(megabytes: int) -> str:
    """A test that sent the checker more reports than a test may."""
    return (f"This test {_flooding(megabytes)}; the other tests still ran. Does a loop make "
            "checks without end, or write to the checker's report channel?")


def flooded_importing(megabytes: int) -> str:
    """An import that sent the checker more reports than a test may (after not_imported's)."""
    return f"while it was being imported, it {_flooding(megabytes)}."


def died(code: int | None, importing: bool = False) -> str:
    """How the child ended, for a student: a signal (POSIX), a crash status (Windows) or an
    exit code."""
    when = "while it was being imported" if importing else "during this test"
    rest = "" if importing else " The other tests still ran."
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return (f"the process running harness.py was killed by signal {name} {when} (a crash, "
                f"or a resource limit).{rest}")
    if code is not None and code >= 0xC0000000:  # an NTSTATUS: Windows ended it for a fault
        return (f"the process running harness.py crashed {when}: Windows ended it with status "
                f"0x{code:08X} (0xC0000005 is a bad memory access).{rest}")
    return (f"the process running harness.py ended {when}, with exit code {code}: does "
            f"harness.py call sys.exit() or os._exit()?{rest}")


def crashed(code: int | None) -> str:
    """A test during which the process running harness.py ended, as its verdict says it."""
    said = died(code)
    return said[:1].upper() + said[1:]


NEVER_RAN = ("This test never ran: the process running harness.py said the tests were over "
             "before it.")


def place_named(place: Place) -> str:
    """A place in harness.py, as a student is told it."""
    if place.function is None:
        return "a place the checker could not see (a call that holds Python itself?)"
    function = "the top level" if place.function == "<module>" else place.function
    return f"{function} (harness.py, line {place.line})"


def hung_at(fact: Hung | NotRun) -> Place:
    """The place in harness.py a hang's fact names."""
    return Place(fact.function, fact.line, fact.async_code)


def forged(closed: bool = False) -> str:
    """A test failed because the report channel carried what the child did not write."""
    if closed:
        return ("The process running harness.py closed the checker's report channel, so this "
                "test cannot pass. Leave file descriptors that harness.py did not open alone.")
    return ("The checker's report channel carried something it did not write, so this test "
            "cannot pass. Leave file descriptors that harness.py did not open alone.")


def forged_importing(closed: bool) -> str:
    """An import that wrote into the report channel or closed it (after not_imported's)."""
    did = "closed" if closed else "wrote into"
    return (f"while it was being imported, it {did} the checker's report channel, so no test "
            "can pass. Leave file descriptors that harness.py did not open alone.")


def not_run(fact: NotRun) -> str:
    """Why a test was not run, as the checker's line for the rest of a run says it."""
    return "Not run: " + not_run_reason(fact)


def not_run_reason(fact: NotRun) -> str:
    """not_run()'s words without their opening, for the closing line's "Next: ..."."""
    if fact.hangs:
        return (f"harness.py hung at the same place in {fact.hangs} tests in a row, in "
                f"{place_named(hung_at(fact))}, so the tests after them were not run. Fix that hang first, "
                "then check again.")
    return f"the whole check ran past its time limit of {fact.seconds:.0f} seconds."


# --- what the judge found --------------------------------------------------------------------

def shown(encoded: str) -> str:
    """An encoded value as a student reads it: a string without its JSON quotes."""
    try:
        value = json.loads(encoded)
    except ValueError:
        return encoded
    if value == "":
        text = '"" (an empty string)'  # shown bare, it would read as a line left blank
    elif isinstance(value, str):
        text = value if "\n" not in value else "\n" + "\n".join("      | " + line
                                                                  for line in value.split("\n"))
    elif isinstance(value, dict) and set(value) == {"$repr"}:
        text = value["$repr"]
    else:
        text = encoded
    return (text if len(text) <= SHOWN_CHARACTERS else
            text[:SHOWN_CHARACTERS] + f" ... ({len(text)} characters in all)")


def shown_found(wanted: str, found: str) -> str:
    """What a check found, shown: as shown(), except that where the reference's run raised
    ("ValueError: ...", as kit.raised reports it) and the student's raised nothing (None), it
    says so, rather than the bare "null" a student would have to decode."""
    try:
        nothing = json.loads(found) is None and RAISED.match(json.loads(wanted) or "")
    except (ValueError, TypeError):
        nothing = False
    return "nothing was raised" if nothing else shown(found)


def mismatch(fact: Mismatch) -> str:
    """A check that found another value than the reference's: its rule, both values, and
    where they part."""
    return (f"{fact.why}\n    expected: {shown(fact.wanted)}\n"
            f"    found:    {shown_found(fact.wanted, fact.found)}" +
            (f"\n    {words_values.parted(fact.difference)}" if fact.difference else ""))


def found_briefly(fact: Mismatch) -> str:
    """What a failed check found, in a few words: the value, or the first lines of a text of
    several, each as the message shows it. Students whose code found the same share a group
    in the grader's summary (grader/report.py)."""
    text = shown_found(fact.wanted, fact.found)
    lines = text.split("\n")
    first = lines[0].strip() or " / ".join(line.strip()[2:] for line in lines[1:4]
                                           if line.strip().startswith("| "))
    return f"found {first}" if first else fact.why.strip().partition("\n")[0]


def no_record(error: str | None) -> str:
    """A test the kit holds no reference record for."""
    return ("The kit has no reference record for this test, so it cannot be judged. "
            "(For a course author: run `python -m tools.make` to record it.)" +
            (f"\n    The test ended: {error}" if error else ""))


def other_kind(why: str) -> str:
    return (f"{why}\n    This check was made as another kind of check than the reference's, so "
            "the test's run took a different path.")


def stopped_before(error: str | None, why: str) -> str:
    reason = error or "The test ended before making all of its checks."
    return f"{reason}\n    (stopped before this check: {why})"


MORE_CHECKS = ("The test made more checks than the reference run did, so its run took a "
               "different path.")


def failed_after(error: str) -> str:
    return f"Every check matched, then the test failed: {error}"
