"""Lab 7.2's grading bank: scenarios for each rule of its ledger (source/lessons/07-events/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario hands a frontend its events through another door than the public tests: a
consumer that renders as a run goes (run_agent's events, with events of its own between them)
while a program at the other end of a pipe reads what was flushed, a session of runs on one
record folded by one renderer, runs a consumer walks away from, two renderers alive at once;
and it observes another thing: the lines received at each event, the record the renderers
were shown, what a later request carries, so that the public tests' wanted expressions,
evaluated in a bank test's frame, do not give its values.
"""
import contextlib
import io
import json

import harness
import lab
from lab.kit import lab_test, tool

LAB = "7.2"
SYSTEM = "You keep a small service running."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}}
REASONS = ["overloaded", "rate limited (429)", "HTTP 502: bad gateway", "stream broke",
           "context window exceeded"]


class Pipe(io.StringIO):
    """Standard output as a pipe: the program at the other end reads only what was flushed."""

    def __init__(self):
        super().__init__()
        self.shown = ""

    def flush(self):
        self.shown = self.getvalue()


class Unflushed(io.StringIO):
    """Standard output that knows whether something written to it is not yet flushed (held)."""

    written = let_out = 0  # the writes so far, and how many of them the last flush let out

    def write(self, text):
        self.written += 1
        return super().write(text)

    def flush(self):
        self.let_out = self.written

    @property
    def held(self):
        return self.written != self.let_out


class GonePipe(io.StringIO):
    """Standard output as a pipe whose reader has quit: every write raises BrokenPipeError."""

    def write(self, text):
        raise BrokenPipeError("the reader of the pipe has gone")


class Noting(dict):
    """A message that notes every write into it, in `writes`, even one undone before the call
    that made it returns."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.writes, self.keys = [], list(dict.keys(self))

    def _read(self, key):
        """A read that finds keys other than the message started with, or moved: a mark written
        through dict's own methods, which pass by the methods below."""
        if list(dict.keys(self)) != self.keys:
            self.writes.append(f"read {key} beside keys {list(dict.keys(self))}")

    def __getitem__(self, key):
        self._read(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._read(key)
        return super().get(key, default)

    def __setitem__(self, key, value):
        self.writes.append(f"set {key}")
        super().__setitem__(key, value)

    def __delitem__(self, key):
        self.writes.append(f"del {key}")
        super().__delitem__(key)

    def pop(self, key, *default):
        self.writes.append(f"pop {key}")
        return super().pop(key, *default)

    def setdefault(self, key, default=None):
        self.writes.append(f"setdefault {key}")
        return super().setdefault(key, default)

    def update(self, *args, **kwargs):
        self.writes.append("update")
        super().update(*args, **kwargs)


def reader(long=""):
    """A tool `look` that returns its path, followed by `long`."""
    return tool("look", lambda arguments: f"{arguments.get('path')}: {long}", PATH)


def lines_of(text):
    """The JSON values of the lines of `text`, None for a line that is not JSON."""
    found = []
    for line in text.splitlines():
        try:
            found.append(json.loads(line))
        except ValueError:
            found.append(None)
    return found


# --- rule 1: JsonRenderer ---------------------------------------------------------------------

@lab_test("A consumer renders a run with JsonRenderer as it goes, and events of its own between "
          "the run's, while a program at the other end of a pipe reads what was flushed: the "
          "lines received after each render, what they parse to, and finish().")
async def test_bank_a_program_reads_the_pipe_as_the_run_goes(t):
    piece = "".join(t.random.choice("abcdé✓ {}\"") for _ in range(1000))
    long = piece * t.random.randint(400, 600)  # a line of over 400,000 characters
    where = {"stop_reason": "error", "since": t.random.randint(1, 30)}
    quiet = {"role": "assistant", "content": [], "stop_reason": "stop",
             "error_message": t.random.choice(["retried once", "slow upstream"])}
    model = lab.ScriptedModel([
        lab.reply(f"Looking. {long}", lab.call("look", {"path": "app.log", "where": where})),
        lab.reply(lab.call("grep", {"pattern": "ERROR"})),  # no such tool: an error result
        quiet])
    renderer, pipe, handed, received = harness.JsonRenderer(), Pipe(), [], []
    progress = {"type": "progress", "events": 0}  # one dict of the consumer's, handed again
    drafting = {"type": "message_update",  # a later lesson's event: a reply still being written
                "message": {"role": "assistant", "content": [{"type": "text", "text": "Wor"}]}}

    def show(event):
        mine = {"type": "error", "turn_done": len(handed), "note": None,
                "message": lab.fail(t.random.choice(REASONS))}  # a draft of the consumer's
        extra = [mine, dict(mine), drafting, progress] if event["type"] == "turn_end" else []
        for each in [event] + extra:
            if each is progress:
                progress["events"] = len(handed)
            renderer.render(each)
            handed.append(dict(each) if each is progress else each)  # as it was when handed
            received.append(pipe.shown.count("\n"))
    errors = io.StringIO()
    with contextlib.redirect_stdout(pipe), contextlib.redirect_stderr(errors):
        await lab.drive(harness.run_agent(model, SYSTEM, [], [reader(long)], "Why the errors?"),
                        on_event=show)
        other = harness.JsonRenderer()  # another run's, alive and never finished
        with contextlib.redirect_stdout(io.StringIO()):
            other.render({"type": "message_end", "message": lab.fail(t.random.choice(REASONS))})
        unwritten = {"type": "message_end",
                     "message": lab.fail(t.random.choice(REASONS)) | {"seen": {"a.py"}}}
        try:  # a failed reply's event that is not data: no line can tell of it
            renderer.render(unwritten)
        except Exception:  # noqa: BLE001, S110 - its error is another rule's
            pass
        ended = renderer.finish()
    t.expect([received, lines_of(pipe.shown) == handed, ended, pipe.getvalue() == pipe.shown,
              errors.getvalue()],
             [list(range(1, len(handed) + 1)), True, True, True, ""],
             f"A run whose first reply's words, and a tool's output, are over 400,000 "
             f"characters, a call whose arguments hold "
             f"{where!r}, a call of a tool that does not exist, and a last reply with no content "
             "labelled \"stop\" with error_message "
             f"{quiet['error_message']!r}; two equal events of type \"error\" of the consumer's "
             "own after "
             "each turn_end, each carrying a failed draft reply in \"message\", then a "
             "message_update carrying a reply still being written, then one \"progress\" dict "
             "of the consumer's, the same each time, its count changed before it is handed "
             "again; before finish(), "
             "another JsonRenderer made and handed a failed reply, never finished, and this one "
             "handed a failed reply's message_end that is not data (a set in it). Items: the "
             "lines the other end had received after each "
             "render, whether they parse back to the events handed over, finish(), whether "
             "finish left nothing unflushed, and what went to standard error.")


@lab_test("One JsonRenderer, made where its lines go and asked for its verdict before any "
          "event, folds a session of two runs on one record, the first ending in a "
          "failed reply and the second in an answer, then is handed events that are not data: "
          "what each run's lines parse to, what those last renders did, and finish(); another "
          "writes a failed reply to a pipe whose reader has gone. Then two "
          "renderers whose events the consumer rewrites after each render.")
async def test_bank_one_renderer_over_a_session(t):
    record, pipe, handed, errors = [], Pipe(), [], io.StringIO()
    with contextlib.redirect_stdout(pipe), contextlib.redirect_stderr(errors):
        renderer = harness.JsonRenderer()
        fresh = renderer.finish()  # nothing seen yet, nothing failed
    reason = t.random.choice(REASONS)
    runs = [lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.log"})),
                               lab.fail(reason, *t.random.choice([[], ["Half an answer"]]))]),
            lab.ScriptedModel([lab.say(f"Fixed after {t.random.randint(2, 9)} tries.")])]
    with contextlib.redirect_stdout(pipe):
        for model in runs:
            for event in await lab.drive(harness.run_agent(model, SYSTEM, record, [reader()],
                                                           "Is it up?")):
                renderer.render(event)
                handed.append(event)
    kept = pipe.getvalue()
    odd = {"type": "status", "files": {t.random.choice(["a.py", "b.py"])}}  # a set: not JSON
    looped = {"type": "status", "files": [t.random.choice(["a.py", "b.py"])]}
    looped["files"].append(looped)  # it holds itself: json.dumps raises ValueError
    keyed = {"type": "status", "counts": {("a.log", "b.log"): 2}}  # a tuple key: not JSON
    raised, gone, closed = [], harness.JsonRenderer(), "returned"
    with contextlib.redirect_stdout(pipe), contextlib.redirect_stderr(errors):
        for each in (odd, looped, keyed):
            try:
                renderer.render(each)
            except Exception as problem:  # noqa: BLE001 - any error: it must not go unseen
                raised.append(type(problem).__name__)
        ended = [renderer.finish(), renderer.finish()]
        try:
            with contextlib.redirect_stdout(GonePipe()):
                gone.render({"type": "message_end", "message": lab.fail(reason)})
        except Exception:  # noqa: BLE001 - any error: the line was not written
            closed = "raised"
        ended.append(gone.finish())
    many, later = t.random.randint(1_200, 2_400), harness.JsonRenderer()  # a microsecond each
    after = t.random.randint(100, 300)  # answers after the failure
    held = 0  # render calls that returned with their line unflushed
    with contextlib.redirect_stdout(Unflushed()) as out:
        for number in range(many):
            later.render({"type": "status", "done": number})
            held += out.held
        later.render({"type": "message_end", "message": lab.fail(reason)})
        held += out.held
        for number in range(after):
            later.render({"type": "message_end", "message": lab.say(f"Up ({number}).")})
            held += out.held
    replies, noting = [Noting(lab.say("Back up.")), Noting(lab.fail(reason))], harness.JsonRenderer()
    with contextlib.redirect_stdout(io.StringIO()):
        for reply in replies:
            noting.render({"type": "message_end", "message": reply})
    t.expect([later.finish(), held, out.getvalue().count("\n"), noting.finish(),
              [reply.writes for reply in replies]],
             [False, 0, many + 1 + after, False, [[], []]],
             f"A JsonRenderer handed {many} status events, then a failed reply's message_end "
             f"({reason!r}), then {after} answers' message_end; another handed an answer, then "
             "that failure, each a message that "
             "notes every write into it and every read that finds a key it did not start with. "
             "Items: the first's finish(), its render calls that returned with their line not "
             "flushed, the lines it printed, the second's finish(), the writes into each "
             "message.")
    t.expect([fresh, lines_of(kept) == handed, len(handed), len(raised) == 3,
              pipe.getvalue()[len(kept):], ended, closed, errors.getvalue()],
             [True, True, 18, True, "", [False, False, True], "raised", ""],
             f"Two runs on one record, one renderer: the first fails with {reason!r} after a "
             "round of one call, the second answers. Items: its finish() before any event, "
             "whether the lines parse back to "
             "the events, the events, whether rendering an event holding a set, then one holding "
             "itself, then one with a tuple for a key, raised each time, what those renders and "
             "finish printed, and finish(), asked twice; then another renderer's finish() once "
             "its render of that failure met the gone pipe, and what that render did; and what "
             "went to standard error.")
    rewritten = []
    for inside in (False, True):
        for first, then in ((lab.fail(reason), lab.say("Back up.")),
                            (lab.say("Back up."), lab.fail(reason))):
            session, pipe = [{"type": "message_end", "message": first}], Pipe()
            renderer = harness.JsonRenderer()
            with contextlib.redirect_stdout(pipe):
                renderer.render(session[0])
                if inside:  # the consumer's own write into the message, after render returned
                    session[0]["message"].update(then, seen=True)
                else:  # the consumer's own write into the event, after render returned
                    session[0]["message"] = then
                    session[0]["seen"] = True
                rewritten.append([lines_of(pipe.getvalue()), renderer.finish()])
    t.expect(rewritten, [[[{"type": "message_end", "message": lab.fail(reason)}], False],
                         [[{"type": "message_end", "message": lab.say("Back up.")}], True]] * 2,
             "A consumer that writes into each event after JsonRenderer rendered it: first a "
             f"failed reply ({reason!r}) replaced by an answer, then an answer replaced by that "
             "failure; then the same written into the message the event carried. JsonRenderer "
             "judges a message as its event is handed over, so finish() agrees with the line it "
             "printed. Items: for each, [the lines printed, parsed, finish()].")


# --- rule 2: FinalTextRenderer -------------------------------------------------------------------

@lab_test("A new FinalTextRenderer for each of a series of runs on one record, rendering as "
          "each goes: a failed reply with a long reason, one with no reason, an answer of "
          "several blocks, a reply with calls the consumer walks away after, and a run it "
          "leaves before any reply; then the replies on the record.")
async def test_bank_a_renderer_for_each_run_of_a_series(t):
    record = []
    long = (f"Error {t.random.choice([502, 503, 529])}: {t.random.choice(REASONS)}\n  "
            f"{{\"error\": {{\"message\": \"the service is busy; retry in "
            f"{t.random.randint(2, 60)} seconds, then again in a minute\"}}}}\n" +
            "".join(f"  attempt {number}: {t.random.choice(REASONS)}\n" for number in range(100)) *
            t.random.randint(185, 290) + "  ")  # 18,500 lines or more: every one goes out
    # its first block as a model may write it: Windows line ends and a name whose accent is a
    # second code point, which a frontend that tidies the answer would change
    words = [f"\n  Checked {t.random.randint(2, 40)} files.\r\n  "
             f"{t.random.choice(['Zoe', 'Noe', 'Chloe'])}\u0308 signed off.\r\n  ",
             "".join(f"{name}: green. " for name in t.random.choices(["a.py", "b.py", "c.py"],
                                                                      k=2_000)) *
             t.random.randint(60, 120),  # over a million characters: the answer goes out whole
             "All green.\n\n"]
    asked = f"Now reading {t.random.choice(['a.log', 'b.log'])}."
    noted = f"Up after {t.random.randint(2, 9)} restarts."
    partial = {"role": "assistant", "content": [{"type": "text", "text": "The log sa"}]}
    # events made by hand that carry messages no message_end announced
    unannounced = [{"type": "message_update", "message": partial},
                   {"type": "turn_end", "message": partial | {"stop_reason": "stop"},
                    "tool_results": []},
                   {"type": "agent_end", "messages": [lab.fail(t.random.choice(REASONS)),
                                                      harness.user_message("Go on.")]}]
    plain, failed = ["content", "role", "stop_reason"], ["content", "error_message", "role",
                                                          "stop_reason"]
    # each run: its model, the events the consumer reads before it walks away (None: all),
    # what its renderer gives, the replies it leaves on the record as [keys, words], and events
    # the consumer renders once the run is closed
    runs = [(lab.ScriptedModel([lab.reply(lab.call("look", {"path": "x"})), lab.fail(long)]),
             None, ["", False, f"Error: {long}\n"], [[plain, ""], [failed, ""]]),
            (lab.ScriptedModel([lab.say(noted) | {"error_message": t.random.choice(REASONS)}]),
             None, ["", True, noted + "\n"], [[failed, noted]]),
            (lab.ScriptedModel([lab.say(noted) | {"error_message": None}]), None,
             ["", True, noted + "\n"], [[failed, noted]]),
            (lab.ScriptedModel([lab.reply(asked, lab.call("look", {"path": "b.log"}))]), 6,
             ["", True, asked + "\n"], [[plain, asked]], unannounced),
            (lab.ScriptedModel([lab.fail("")]), None, ["", False, "Error: \n"], [[failed, ""]]),
            # no reason at all: what its line says is the student's, so it is not observed
            (lab.ScriptedModel([lab.fail(t.random.choice(REASONS)) | {"error_message": None}]),
             None, ["", False, None], [[failed, ""]]),
            # no error_message key at all: what finish() does is not observed, only the record
            (lab.ScriptedModel([{key: value for key, value in lab.fail("x").items()
                                 if key != "error_message"}]),
             None, ["", None, None], [[plain, ""]]),
            (lab.ScriptedModel([lab.reply(*words)]), None, ["", True, "".join(words) + "\n"],
             [[plain, "".join(words)]]),
            (lab.ScriptedModel([lab.reply(asked, lab.call("look", {"path": "a.log"}))]), 4,
             ["", True, asked + "\n"], [[plain, asked]]),
            (lab.ScriptedModel([lab.reply(lab.call("look", {"path": "c.log"}))]), 4,
             ["", True, "\n"], [[plain, ""]]),  # a reply of calls only: it is the answer, no words
            # closed before its request, then handed events that carry a reply none announced
            (lab.ScriptedModel([lab.say("Never read.")]), 2, ["", False, ""], [],
             [{"type": "turn_end", "message": lab.say("Never read."), "tool_results": []},
              {"type": "agent_end", "messages": [harness.user_message("Go on."),
                                                 lab.say("Never read.")]}]),
            (lab.ScriptedModel([lab.say("") | {"content": []}]), None, ["", True, "\n"],
             [[plain, ""]]),
            # no content at all, labelled "stop", and a note in error_message: an answer still
            (lab.ScriptedModel([lab.say("") | {"content": [], "error_message": noted}]), None,
             ["", True, "\n"], [[failed, ""]])]
    order = t.random.sample(runs, len(runs))
    found, errors = [], io.StringIO()
    for model, leave, given, _, *after in order:
        renderer, during = harness.FinalTextRenderer(), io.StringIO()
        with contextlib.redirect_stdout(during), contextlib.redirect_stderr(errors):
            await lab.drive(harness.run_agent(model, SYSTEM, record, [reader()], "Go on."),
                            on_event=renderer.render, close_after=leave)
            for event in after[0] if after else []:
                renderer.render(event)
        said = io.StringIO()
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(errors):
            try:
                ended = renderer.finish()
            except Exception:  # noqa: BLE001 - observed only where given[1] is not None
                ended = None
        found.append([during.getvalue(), ended if given[1] is not None else None,
                      said.getvalue() if given[2] is not None else None])
    t.expect([found, errors.getvalue()], [[given for _, _, given, *_ in order], ""],
             "Runs, in a drawn order, each with a FinalTextRenderer of its own: a reply that "
             f"fails after a call with a reason of {len(long)} characters on {long.count(chr(10))} "
             f"lines, starting {long[:30]!r} and ending in blanks; an answer {noted!r} carrying "
             "a note in error_message, and the same with error_message null; a reply "
             f"{asked!r} with a call, closed once its result's message_end went by, then "
             "handed a message_update and a turn_end carrying a reply still being written and "
             "an agent_end whose messages hold a failed reply and end with a user's; one that fails "
             f"with \"\", and one with error_message null (what its line says not observed); "
             "one with no error_message key at all (what its finish() does not observed); a reply "
             "of one call and no words the consumer closes after; "
             f"an answer of {len(''.join(words))} characters in three blocks, blanks "
             "at its ends, its first block holding Windows line ends (\\r\\n) and an accent "
             "written as a second code point, every character as the model wrote it; a reply "
             f"{asked!r} with a call after which the consumer closes the run; a run closed "
             "before its request, then handed a turn_end and an agent_end "
             "carrying an answer no message_end announced; an answer labelled \"stop\" with no "
             "content at all (content []), and the same carrying a note in error_message. Items: "
             "for each run [what rendering "
             "printed, finish(), what finish printed], then what went to standard error.")
    t.expect([[sorted(m), harness.text_of(m)] for m in record if m["role"] == "assistant"],
             [reply for _, _, _, left, *_ in order for reply in left],
             "The keys and words of the record's replies once every renderer finished: as the "
             "model sent them, since a frontend knows the run only from its events.")
    t.expect([list(m) for m in record],
             why="The keys of each message on the record, in their order, once every renderer "
                 "finished: as the loop recorded them, a key taken out and put back by a frontend "
                 "moving to the end.")
    t.expect([m.get("error_message") for m in record if m["role"] == "assistant"],
             why="The error_message of each of the record's replies once every renderer "
                 "finished, a null one included: as the model sent it.")


@lab_test("Two FinalTextRenderers alive at once: one folds a session of two runs on one record, "
          "a failed reply and then an empty answer, while the other folds a run between them "
          "that answers in words; both finish at the end.")
async def test_bank_two_renderers_alive_at_once(t):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):  # made where their answers go
        session, other = harness.FinalTextRenderer(), harness.FinalTextRenderer()
    record, reason = [], t.random.choice(REASONS)
    answer = f"Restarted {t.random.randint(2, 9)} workers."
    steps = [(session, record, lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a"})),
                                                  lab.fail(reason)])),
             (other, [], lab.ScriptedModel([lab.say(answer)])),
             (session, record, lab.ScriptedModel([lab.say("")])),
             (session, record, lab.ScriptedModel([lab.say("Never asked.")]))]

    def rewriting(event):  # the consumer puts its own draft in each reply's event, once rendered
        other.render(event)
        if event["type"] == "message_end" and event["message"]["role"] == "assistant":
            event["message"] = lab.fail(reason)

    with contextlib.redirect_stdout(printed):
        for number, (renderer, messages, model) in enumerate(steps):
            await lab.drive(harness.run_agent(model, SYSTEM, messages, [reader()], "Restart."),
                            on_event=rewriting if renderer is other else renderer.render,
                            close_after=2 if number == 3 else None)
            if number == 0:  # the session asked how its first run went, before it goes on
                midway = t.printed(session.finish)
    held = [sorted(message) for message in record]  # both alive, before their last finish()
    during, results = printed.getvalue(), []
    for renderer in t.random.sample([session, other], 2):
        said = io.StringIO()
        with contextlib.redirect_stdout(said):
            results.append([renderer is session, renderer.finish(), said.getvalue()])
    t.expect(held, why="The keys of each message on the session's record while both renderers "
                       "were alive, before their last finish(): as the loop recorded them, since a "
                       "frontend knows the run only from its events.")
    t.expect([during, midway, sorted(results)],
             ["", (False, f"Error: {reason}\n"), [[False, True, answer + "\n"],
                                                  [True, True, "\n"]]],
             f"A renderer folds a run failing with {reason!r}, then a later run on the same "
             "record whose answer has no words, then a run on it the consumer closes before its "
             "request; another renderer, made beside it, folds a run answering "
             f"{answer!r} between the first two, the consumer putting a failed draft of its own "
             "into that reply's event once it was rendered. Items: what making and rendering "
             "printed, the session's finish() after its first run, with what it printed, and "
             "for each renderer at the end [it folded the session, finish(), what finish "
             "printed].")
    # renderers made one after another where the last was dropped, a renderer handed replies
    # that note every write into them, and one handed a long session of replies
    fresh = []
    for _ in range(4):
        gone = harness.FinalTextRenderer()
        with contextlib.redirect_stdout(io.StringIO()):
            gone.render({"type": "message_end", "message": lab.say(answer)})
        del gone  # a renderer made now may take its place in memory, and its id
        made = harness.FinalTextRenderer()
        with contextlib.redirect_stdout(io.StringIO()):
            made.render({"type": "message_end", "message": harness.user_message("Status?")})
        fresh.append(t.printed(made.finish))
    replies = [Noting(lab.fail(reason)), Noting(lab.say(answer))]
    noting = harness.FinalTextRenderer()
    with contextlib.redirect_stdout(io.StringIO()):
        for reply in replies:
            noting.render({"type": "message_end", "message": reply})
    noted = [t.printed(noting.finish), [reply.writes for reply in replies]]
    count = t.random.randint(10_500, 14_000)
    replies = [{"type": "message_end", "message": lab.say("Still down.")},
               {"type": "message_end", "message": lab.fail(reason)}]
    # its last answer a status table of over five million characters, the size drawn
    table = "".join(f"worker {number}: up\n" for number in range(100)) * t.random.randint(
        3_700, 4_500)
    last = f"{answer}\n{table}All up."
    long = harness.FinalTextRenderer()
    with contextlib.redirect_stdout(io.StringIO()) as during:
        for number in range(count):
            long.render(replies[number % 2])
        long.render({"type": "message_end", "message": lab.say(last)})
    value, said = t.printed(long.finish)
    stopped = harness.FinalTextRenderer()  # an answer, then a reply the user stopped
    with contextlib.redirect_stdout(io.StringIO()):
        stopped.render({"type": "message_end", "message": lab.say(answer)})
        stopped.render({"type": "message_end", "message": {
            "role": "assistant", "content": [], "stop_reason": "aborted",
            "error_message": "Operation aborted"}})
    _, after_stop = t.printed(stopped.finish)
    t.expect([fresh, noted, [during.getvalue(), value, len(said),
                                said.startswith(last) and said.endswith("\n")],
              after_stop == answer + "\n"],
             [[(False, "")] * 4, [(True, answer + "\n"), [[], []]],
              ["", True, len(last) + 1, True], False],
             "Four times, a renderer handed an answer and dropped, then a new one handed a user's "
             "message; a renderer handed a failed reply, then an answer, each a message that "
             "notes every write into it; and a renderer handed "
             f"{count:,} replies, answers and failures by turns, then {answer!r} followed by a "
             f"table of {len(table):,} characters. Items: the new ones' (finish(), "
             "what it printed); the second's, with the writes into each message while it "
             "rendered them; and what the third's render printed, its finish(), the length of "
             "what finish printed, and whether that is the whole answer and its newline; then "
             "whether a renderer handed an answer, then a reply labelled \"aborted\" (a run the "
             "user stopped), printed that earlier answer at finish().")
