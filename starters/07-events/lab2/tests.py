"""Lesson 7, lab 2: two frontends. The tests of JsonRenderer and FinalTextRenderer, each a fold
over one run's events: render(event) for each, then finish().

Check your file with: python lab/lab_check.py --harness harness.py --lesson 7 tests.py
"""
import contextlib
import copy
import io
import json

import harness
import lab
from lab.kit import lab_test, tool

LAB = "7.2"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def looker():
    return tool("look", lambda arguments: "contents of " + arguments["path"], PATH)


async def events_of(*replies, **options):
    """The events of one run whose model answers with `replies`."""
    model = lab.ScriptedModel(list(replies))
    return await lab.drive(harness.run_agent(model, SYSTEM, [], [looker()], "Go.", **options))


def fold(t, renderer, events):
    """Render every event, then finish: (what render printed, finish's value, what it printed)."""
    printed = "".join(t.printed(renderer.render, event)[1] for event in events)
    value, said = t.printed(renderer.finish)
    return printed, value, said


class HeldOutput(io.StringIO):
    """Standard output as a pipe to another program holds it: what is written reaches the other
    end only once it is flushed (print(..., flush=True), or sys.stdout.flush())."""

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


class ClosedPipe(io.StringIO):
    """Standard output as a pipe whose reader has quit: every write raises BrokenPipeError, as
    print does once the program at the other end has gone."""

    def write(self, text):
        raise BrokenPipeError("the program at the other end of the pipe has gone")


def parsed(line):
    """The JSON value of a printed line, or None when it is not JSON."""
    try:
        return json.loads(line)
    except ValueError:
        return None


class Noting(dict):
    """A message of the record that notes every write into it, in `writes`, even one undone
    before the call that made it returns: comparing the record before and after a call sees
    nothing of a mark taken off again."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.writes, self.keys = [], list(dict.keys(self))

    def _read(self, key):
        """A read of the message: a mark written through dict's own methods (which pass by the
        methods below) is seen by the next read, while it is there, or by its moved keys."""
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

    def __ior__(self, other):
        self.writes.append("|=")
        return super().__ior__(other)

    def pop(self, key, *default):
        self.writes.append(f"pop {key}")
        return super().pop(key, *default)

    def popitem(self):
        self.writes.append("popitem")
        return super().popitem()

    def setdefault(self, key, default=None):
        self.writes.append(f"setdefault {key}")
        return super().setdefault(key, default)

    def update(self, *args, **kwargs):
        self.writes.append("update")
        super().update(*args, **kwargs)

    def clear(self):
        self.writes.append("clear")
        super().clear()


FILES = ["a.py", "b.py", "setup.py", "src/app.py", "README.md", "notes.txt"]
WORDS = ["a.py prints 1.", "Done.", "It installs the package.", "Two files: a.py and b.py.",
         "Line one.\nLine two.", "ünïcode ✓", "\"quoted\" and {braces}"]


def drawn_answer(t):
    """An answer's words, drawn under the seed."""
    return f"{t.random.choice(WORDS)} ({t.random.randint(1, 999)} checked)"


def drawn_rounds(t, most=4):
    """1 to `most` replies drawn under the seed, each with 1 to 3 look calls at drawn paths,
    some with words before them."""
    return [lab.reply(*t.random.choice([[], ["Let me look."], ["First, a.py."]]),
                      *[lab.call("look", {"path": t.random.choice(FILES)})
                        for _ in range(t.random.randint(1, 3))])
            for _ in range(t.random.randint(1, most))]


@lab_test("JsonRenderer prints one line per event, each parseable JSON equal to its event, and "
          "finish() prints nothing and returns True for a run that ended well, over runs drawn "
          "under the seed.")
async def test_json_renderer(t):
    renderer, events = harness.JsonRenderer(), await events_of(*drawn_rounds(t), lab.say("Done."))
    each = [t.printed(renderer.render, event)[1] for event in events]
    t.expect([[said.count("\n"), parsed(said) == event] for said, event in zip(each, events)],
             [[1, True]] * len(events),
             "Every event appears at once: the render call that is handed it prints its line, "
             "json.dumps(event), so a program at the other end follows the run as it goes, not "
             "at its end. Each item is [lines that render call printed, they parse back to its "
             "event] (JsonRenderer, lesson 7).")
    held, renderer, shown = HeldOutput(), harness.JsonRenderer(), []
    with contextlib.redirect_stdout(held):
        for event in events:
            renderer.render(event)
            shown.append(held.shown.count("\n"))
    t.expect(shown, list(range(1, len(events) + 1)),
             "Every event appears at once, even when standard output is a pipe to another "
             "program, which holds what is written until it is flushed: render flushes its line "
             "(print(..., flush=True)) before it returns. Each item is the lines the other end "
             "had received after one more render call (JsonRenderer, lesson 7).")
    found, runs = [], []
    for number in range(3):
        answer = drawn_answer(t)
        if number == 0:  # a long answer, every seed: the line carries it whole, nothing cut
            answer = " ".join([answer] * (1_000_000 // len(answer) + 1))
        events = await events_of(*drawn_rounds(t), lab.say(answer))
        printed, value, said = fold(t, harness.JsonRenderer(), events)
        lines = printed.splitlines()
        text = ((parsed(lines[-2]) or {}).get("message", {}).get("content", [{}])[0]
                .get("text") or "")
        found.append([len(lines), [parsed(line) for line in lines] == events,
                      [text[:40], len(text)], value, said])
        runs.append([len(events), answer])
    t.expect(found, [[count, True, [answer[:40], len(answer)], True, ""]
                     for count, answer in runs],
             "JsonRenderer.render prints json.dumps(event): one line per event, each parsing "
             "back to its event, so another program can read the run; finish() prints nothing "
             "and returns True after a run that ended well. Each item is [lines printed, they "
             "parse back to the events, [the start of the answer's text read off the line of the "
             "last turn_end, its length], finish(), what finish printed] for one drawn run, the "
             "first with an answer of over a million characters, which its line carries whole, "
             "however long (JsonRenderer, lesson 7).")
    live = {"type": "tool_execution_start", "call": lab.call("look", {"path": "a.py"}),
            "tool": looker()}  # a live tool dict, execute and all: lesson 7's own mistake
    looped = {"type": "status", "files": [t.random.choice(FILES)]}
    looped["files"].append(looped)  # a list that holds its own event: json.dumps raises too
    keyed = {"type": "status", "counts": {(t.random.choice(FILES), "b.py"): 1}}  # a tuple key
    shelved = {"type": "status", "files": {t.random.choice(FILES)}}  # a set: no JSON word
    outcomes, errors, wrote = [], io.StringIO(), []
    for unwritable in (live, looped, keyed, shelved):
        out = io.StringIO()
        try:
            with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(out):
                harness.JsonRenderer().render(unwritable)
            outcome = ["printed", out.getvalue()]
        except Exception as problem:  # noqa: BLE001 - any error will do: it must not go unseen
            outcome = ["raised", type(problem).__name__]
        outcomes.append(outcome)
        wrote.append(out.getvalue())
    t.expect([[outcome[0] for outcome in outcomes], errors.getvalue()],
             [["raised"] * 4, ""],
             "An event that is not data cannot appear as a line equal to it: json.dumps "
             "raises (a function is not JSON), and JsonRenderer lets that error go, so the bug "
             "in the loop that made the event is seen. It neither skips the event quietly, nor "
             "leaves out what json.dumps cannot write (skipkeys=True), nor prints a line that is "
             "not the event (json.dumps(event, default=str), or a default that writes a set as "
             "a list), nor writes a note of its own to standard error, whichever error "
             "json.dumps raises. Here render was handed a tool_execution_start carrying "
             "the tool dict with its execute, a \"status\" event whose list holds the event "
             "itself (json.dumps raises ValueError: circular reference), one whose dict has a "
             "key that is a tuple, and one holding a set; it "
             f"{' and '.join(' '.join(outcome) for outcome in outcomes)!r}. Items: what each "
             "render did, what they wrote to standard error (JsonRenderer, lesson 7, What an "
             "event may carry; Build: two frontends, item 1).")
    t.expect(wrote, [""] * 4,
             "JsonRenderer's lines are the events it is handed, one line per event and no "
             "other: an event json.dumps cannot write gets no line at all, the error going out "
             "of render, not a line of its own in the event's place (a note of the error, which "
             "a program at the other end reads as one more event of the run). Items: what each "
             "of the four renders above printed to standard output before its error "
             "(JsonRenderer, lesson 7, Build: two frontends, item 1).")
    # a failed reply's message_end that cannot be written: no line told of it
    unwritten = {"type": "message_end", "message": lab.fail("overloaded") | {"tool": looker()}}
    renderer = harness.JsonRenderer()
    try:
        outcome = ["printed", t.printed(renderer.render, unwritten)[1]]
    except Exception as problem:  # noqa: BLE001 - the error is the previous check's
        outcome = ["raised", type(problem).__name__]
    t.expect([outcome[0], t.printed(renderer.finish)], ["raised", (True, "")],
             "JsonRenderer's verdict is the one its lines told: a message is judged with its "
             "line, so a failed reply's message_end that could not be written (its "
             "message carries a live tool dict, and json.dumps raised) told nothing, and "
             "finish() still says True. Here render "
             f"{' '.join(outcome)!r}. Items: what render did, (finish(), what it printed) "
             "(JsonRenderer, lesson 7, Build: two frontends, item 1).")
    # a failed reply's message_end whose line cannot be written: the other end has gone
    renderer = harness.JsonRenderer()
    try:
        with contextlib.redirect_stdout(ClosedPipe()):
            renderer.render({"type": "message_end", "message": lab.fail("overloaded")})
        outcome = ["returned"]
    except Exception as problem:  # noqa: BLE001 - the error is the pipe's, and it must be seen
        outcome = ["raised", type(problem).__name__]
    t.expect([outcome[0], t.printed(renderer.finish)], ["raised", (True, "")],
             "Every event appears as a line, or render says it could not: when standard "
             "output is a pipe whose other end has gone (every write raises BrokenPipeError), "
             "JsonRenderer lets the error go rather than skip the line quietly, and since no "
             "line told of the failed reply, finish() still says True: a message is judged "
             "with its line, after it is written, not before. Here render was handed a failed "
             "reply's message_end. Items: what render did, "
             "(finish(), what it printed) (JsonRenderer, lesson 7, Build: two frontends, "
             "item 1).")


@lab_test("FinalTextRenderer prints nothing while the run goes on, then at finish() prints the "
          "final answer's text alone and returns True.")
async def test_final_text_renderer(t):
    rounds = drawn_rounds(t)
    for reply in rounds:
        reply["content"].insert(0, {"type": "text", "text": t.random.choice(WORDS)})
    answer = drawn_answer(t)
    events = await events_of(*rounds, lab.say(answer))
    before, errors = copy.deepcopy(events), io.StringIO()
    with contextlib.redirect_stderr(errors):
        printed, value, said = fold(t, harness.FinalTextRenderer(), events)
    t.expect([printed, said, value], ["", answer + "\n", True],
             "FinalTextRenderer keeps the newest assistant message and prints text_of it once, "
             "at finish(): not the words of earlier replies, drawn here (FinalTextRenderer, "
             "lesson 7). Items: what render printed, what finish printed, finish().")
    with contextlib.redirect_stderr(errors):
        fold(t, harness.JsonRenderer(), events)
    t.expect(errors.getvalue(), "",
             "Neither frontend prints anything but what its Build item says, on standard error "
             "no more than on standard output: FinalTextRenderer prints nothing until finish(), "
             "and JsonRenderer's finish() prints nothing, since a program or a file at the other "
             "end (or a terminal beside it) takes whatever is printed for part of the run. Here "
             "is what the two frontends wrote to standard error while they folded this run "
             "(JsonRenderer and FinalTextRenderer, lesson 7).")
    t.expect(events == before, True,
             "Neither frontend touches the record: the messages its events carry are the "
             "record's own, so a key added or changed while rendering them would be sent with "
             "the next request. After both frontends folded this run, its events are what "
             "they were before (JsonRenderer and FinalTextRenderer, lesson 7).")
    # and a block of text as a model may write it that a tidy-up would change, each kind in an
    # order drawn under the seed: Windows line ends, a letter and its accent as two code points
    # (Unicode's decomposed form), a tab, a non-breaking space, a ligature
    kinds = [f"line {t.random.randint(1, 99)}\r\nline two\r\n", "Zoe\u0308 and Ame\u0301lie",
             "\tindented by a tab", "a\u00a0non-breaking space", "the \ufb01les"]
    words = [f"\n    {answer}\n", "and a second block.\n\n",
             " ".join(t.random.sample(kinds, len(kinds))) + "\r\n"]
    events = await events_of(lab.reply(*words))
    t.expect(fold(t, harness.FinalTextRenderer(), events)[1:], (True, "".join(words) + "\n"),
             "The answer's words go out as text_of gives them: every text block of the last "
             "assistant message, joined, blank lines and indentation kept, nothing stripped, "
             "nothing tidied: a Windows line end (\\r\\n) stays one, and a letter written with "
             "its accent as a second code point is not normalised (unicodedata) into one. "
             f"The answer here is lab.reply(*{words!r}). Items: finish(), what finish printed "
             "(FinalTextRenderer, lesson 7).")
    # a block of drawn lines, repeated: an answer of five and a half to seven million
    # characters, the size drawn under the seed, for the price of a hundred draws; handed to
    # the renderer in a message_end of its own, so it costs a few milliseconds
    block = "".join(f"{number}. {t.random.choice(FILES)}: {t.random.randint(1, 999)} checked\n"
                    for number in range(1, 101))
    copies = t.random.randint(5_500_000, 7_000_000) // len(block) + 1
    long = block * copies + f"That is all ({t.random.randint(1, 99)})."
    _, value, said = fold(t, harness.FinalTextRenderer(),
                          [{"type": "message_end", "message": lab.say(long)}])
    t.expect([value, len(said), said.startswith(long) and said.endswith("\n")],
             [True, len(long) + 1, True],
             "The answer goes out whole, however long: an answer of "
             f"{len(long):,} characters on {copies * 100 + 1:,} lines, the last "
             f"{long[-30:]!r}, is printed as text_of gives it, nothing cut. Items: finish(), the "
             "length of what finish printed, it is the answer and its newline "
             "(FinalTextRenderer, lesson 7).")


@lab_test("After a failed reply both finish() methods return False, and FinalTextRenderer prints "
          "\"Error: <the reply's error_message>\".")
async def test_a_failed_run_did_not_end_well(t):
    drawn = t.random.choice(["overloaded", "rate limited", "HTTP 500: internal error",
                             "connection reset", "context window exceeded"]) + \
        f" (request {t.random.randint(1, 999)})"
    long = (f"Error {t.random.choice([500, 502, 529])}: {drawn}\n  {{\"error\": {{\"type\": "
            f"\"overloaded_error\", \"message\": \"the service is busy; wait "
            f"{t.random.randint(2, 60)} seconds and retry\"}}}}\n" +
            "".join(f"  retry {number}: {t.random.choice(['overloaded', 'rate limited'])}\n"
                    for number in range(1, 101)) * t.random.randint(60, 120) + "  ")
    # the label says it failed, even when no reason came with it; and the reason goes out whole,
    # every line and character of it, however long, its own "Error" and the blanks at its ends
    # included
    for reason in (drawn, "", long):
        events = await events_of(*drawn_rounds(t)[:t.random.randint(0, 4)], lab.fail(reason))
        before, errors = copy.deepcopy(events), io.StringIO()
        with contextlib.redirect_stderr(errors):
            _, as_json, json_said = fold(t, harness.JsonRenderer(), events)
            printed, as_text, said = fold(t, harness.FinalTextRenderer(), events)
        t.expect([json_said, errors.getvalue()], ["", ""],
                 "A failed run's verdict is finish()'s value and nothing printed: JsonRenderer's "
                 "finish() prints nothing, not a line of its own after the events' lines, "
                 "and neither frontend writes to standard error, FinalTextRenderer "
                 "printing nothing until finish() (a terminal beside the pipe or the answer file "
                 f"shows whatever is written). The run ended in lab.fail({reason[:60]!r}). Items: "
                 "what JsonRenderer.finish() printed, what both frontends wrote to standard "
                 "error while they folded the run "
                 "(JsonRenderer and FinalTextRenderer, lesson 7, Build: two frontends).")
        t.expect(events == before, True,
                 "Neither frontend touches the record, a failed run's neither: the messages its "
                 "events carry are the record's own, so an error line written into the failed "
                 "reply would be sent with the next request as words the model never wrote. "
                 f"After both frontends folded a run ending in lab.fail({reason!r}), its events "
                 "are what they were before (JsonRenderer and FinalTextRenderer, lesson 7).")
        t.expect([as_json, as_text, printed, said], [False, False, "", f"Error: {reason}\n"],
                 "A run whose message_end announced a reply with stop_reason \"error\", after "
                 "however many rounds of tools, did not end well, whatever its error_message "
                 f"(here {reason[:120]!r}, {len(reason)} characters); the text frontend says "
                 "why, \"Error: \" and then error_message word for word, every line of it however "
                 "long, nothing stripped, nothing cut, even when it starts with a word \"Error\" "
                 "of its own. Items: "
                 "JsonRenderer.finish(), FinalTextRenderer.finish(), what render printed, what "
                 "finish printed (JsonRenderer and FinalTextRenderer, lesson 7).")
    # and a longer reason still, its size drawn from 600,000 to 950,000 characters: checked by
    # its length and whether it went out whole, since a value that long is not kept for the check
    block = "".join(f"  retry {number}: {t.random.choice(['overloaded', 'rate limited'])}\n"
                    for number in range(1, 101))
    longer = (block * (t.random.randint(600_000, 950_000) // len(block)) +
              f"  gave up after {t.random.randint(2, 9)} minutes")
    _, value, said = fold(t, harness.FinalTextRenderer(),
                          [{"type": "message_end", "message": lab.fail(longer)}])
    t.expect([value, len(said), said == f"Error: {longer}\n"], [False, len(longer) + 8, True],
             "The text frontend says why, \"Error: \" and then error_message word for word, "
             f"nothing cut, however long: a reason of {len(longer):,} characters on "
             f"{longer.count(chr(10)) + 1:,} lines, ending {longer[-30:]!r}. Items: finish(), the "
             "length of what finish printed, it is \"Error: \", the reason and a newline "
             "(FinalTextRenderer, lesson 7, Build: two frontends, item 2).")
    failed = [{"type": "message_end", "message": lab.fail(drawn)}]
    answered = [{"type": "message_end", "message": lab.say("Done.")}]
    first_json, first_text = harness.JsonRenderer(), harness.FinalTextRenderer()
    for event in failed:
        t.printed(first_json.render, event)
        t.printed(first_text.render, event)
    second_json, second_text = harness.JsonRenderer(), harness.FinalTextRenderer()
    for event in answered:
        t.printed(second_json.render, event)
        t.printed(second_text.render, event)
    second = [t.printed(second_json.finish)[0], t.printed(second_text.finish)]
    t.expect([t.printed(first_json.finish)[0], t.printed(first_text.finish), *second,
              t.printed(first_json.finish)],
             [False, (False, f"Error: {drawn}\n"), True, (True, "Done.\n"), (False, "")],
             "Each new frontend is a fold of its own: two alive at once (two runs drawn side "
             "by side) keep apart what each has seen, so one's events never decide the other's "
             "ending. A JsonRenderer and a FinalTextRenderer folded a failed run, then a second "
             "pair was made and folded an answer \"Done.\", then all four finished, the second pair "
             "first; and a JsonRenderer says False each time it is asked, the failed message it saw "
             "still seen. Items: the first pair's finish() (JsonRenderer; FinalTextRenderer with "
             "what it printed), then the second pair's, then the first JsonRenderer's finish() "
             "asked again, with what it printed (JsonRenderer and FinalTextRenderer, lesson 7).")


@lab_test("A run stopped by max_turns did not end well either: JsonRenderer.finish() is False, "
          "and FinalTextRenderer prints the stop's reason.")
async def test_a_max_turns_stop(t):
    limit = t.random.randint(1, 8)
    events = await events_of(*[drawn_rounds(t, most=1)[0] for _ in range(limit + 1)],
                             max_turns=limit)
    lines, as_json, _ = fold(t, harness.JsonRenderer(), events)
    _, as_text, said = fold(t, harness.FinalTextRenderer(), events)
    t.expect([len(lines.splitlines()), as_json, as_text, said],
             [len(events), False, False, f"Error: Agent stopped after max_turns={limit}\n"],
             "The stop is an assistant message labelled \"error\", so both frontends report it "
             "without knowing about max_turns, whatever it is (drawn here). Items: lines "
             "JsonRenderer printed, its finish(), FinalTextRenderer.finish(), what it printed (lessons 5 "
             "and 7).")


@lab_test("A renderer that saw no assistant message has no answer: FinalTextRenderer.finish() "
          "prints nothing and returns False; a JsonRenderer that saw no failed message returns "
          "True.")
async def test_nothing_to_show(t):
    partial = [{"type": "agent_start"}]
    for _ in range(t.random.randint(1, 4)):
        partial += [{"type": "turn_start"},
                    {"type": "message_end",
                     "message": harness.user_message(f"Hello {t.random.randint(1, 999)}?")}]
    # an event of a type lesson 7 does not yield (a later lesson's, or another program's): it is
    # handed over, so it is printed; handed over twice in a row, equal, it is printed twice
    status, place = {"type": "status", "text": f"{t.random.randint(1, 9)} files indexed"}, \
        t.random.randint(1, len(partial))
    partial[place:place] = [status, dict(status)]
    # and a later lesson's message_update, carrying a reply still being written: no message_end
    # announced it, so the text frontend passes it by, and the JSON frontend prints it as any
    partial.insert(t.random.randint(1, len(partial)), {
        "type": "message_update",
        "message": {"role": "assistant", "content": [{"type": "text", "text": "Hel"}]}})
    fresh = []
    for _ in range(3):
        dropped = harness.FinalTextRenderer()
        t.printed(dropped.render, {"type": "message_end", "message": lab.say(drawn_answer(t))})
        del dropped  # gone: a renderer made now may be given its place in memory, and its id
        fresh.append(list(fold(t, harness.FinalTextRenderer(), partial)))
    t.expect(fresh, [["", False, ""]] * 3,
             "Each new frontend is a fold of its own, starting from nothing: a FinalTextRenderer "
             "made just after another that saw an answer was dropped has seen no assistant "
             "message, even where Python gives it the dropped one's place in memory, and so its "
             "id (state kept on the class under id(self) outlives its renderer). Three times, a "
             "renderer was handed an answer and dropped, then a new one folded the events above. "
             "Items: for each new one, [what render printed, finish(), what finish printed] "
             "(FinalTextRenderer, lesson 7).")
    printed, value, said = fold(t, harness.FinalTextRenderer(), partial)
    t.expect([printed, value, said], ["", False, ""],
             "FinalTextRenderer.finish() with no assistant message returns False and prints "
             "nothing. Items: what render printed, finish(), what finish printed "
             "(FinalTextRenderer, lesson 7).")
    printed, value, said = fold(t, harness.JsonRenderer(), partial)
    t.expect([[json.loads(line) for line in printed.splitlines()], value, said],
             [partial, True, ""],
             "JsonRenderer prints every event it is handed, of whatever type (a \"status\" "
             "event here, which lesson 7's loop never yields, and a later lesson's "
             "message_update carrying a reply still being written), and each time it is handed one, "
             "an event equal to the one before it included (the same status, twice), and fails a run only when it saw "
             "a failed message; these events, and none at all, hold none. Items: the events its "
             "lines parse back to, finish(), what finish printed (JsonRenderer, lesson 7).")
    # one "status" dict a consumer keeps and hands over again, its count changed in between
    counts, counter = sorted(t.random.sample(range(1, 999), 3)), {"type": "status", "text": ""}
    renderer, seen = harness.JsonRenderer(), []
    for count in counts:
        counter["text"] = f"{count} files indexed"
        seen.append(parsed(t.printed(renderer.render, counter)[1].strip()))
    t.expect(seen, [{"type": "status", "text": f"{count} files indexed"} for count in counts],
             "Every event JsonRenderer is handed appears as one line equal to the event as it "
             "is when handed: a consumer that keeps one \"status\" dict and hands it over again "
             "after changing its text gets a new line each time, saying what the dict says then, "
             "never a line kept from an earlier render of the same dict. Items: the events the "
             "three lines parse back to (JsonRenderer, lesson 7, Build: two frontends, item 1).")
    made, errors = [], io.StringIO()
    with contextlib.redirect_stderr(errors):
        for kind in (harness.JsonRenderer, harness.FinalTextRenderer):
            made.append(t.printed(kind)[1])
    t.expect([*made, errors.getvalue()], ["", "", ""],
             "Making a frontend prints nothing: JsonRenderer's lines are the events it is "
             "handed, one per event and no other (a greeting line is no event), and "
             "FinalTextRenderer prints nothing until finish() (a blank line first would be "
             "the start of answer.txt). Items: what JsonRenderer() printed, what "
             "FinalTextRenderer() printed, what the two wrote to standard error (JsonRenderer "
             "and FinalTextRenderer, lesson 7, Build: two frontends, items 1 and 2).")
    t.expect(list(fold(t, harness.JsonRenderer(), [])), ["", True, ""],
             "A new JsonRenderer's finish() is True (JsonRenderer, lesson 7).")


@lab_test("Only the last assistant message counts: failed replies and answers earlier in the "
          "events, drawn under the seed, do not decide what FinalTextRenderer prints.")
async def test_the_last_message_decides(t):
    runs, found = [], []
    for _ in range(4):
        # each reply: [failed, its error_message or its words]
        run = [t.random.choice([[True, t.random.choice(["overloaded", "rate limited"])],
                                [False, drawn_answer(t)]])
               for _ in range(t.random.randint(1, 4))]
        events = []
        for failed, text in run:
            reply = lab.fail(text) if failed else lab.say(text)
            events += [{"type": "message_end", "message": reply},
                       {"type": "message_end", "message": harness.user_message("Try again.")}]
        found.append(list(fold(t, harness.FinalTextRenderer(), events)))
        runs.append(run)
    # and one run where a failure comes first and an answer last, whatever was drawn above
    runs.append([[True, "overloaded"], [False, drawn_answer(t)]])
    events = [{"type": "message_end", "message": lab.fail("overloaded")},
              {"type": "message_end", "message": lab.say(runs[-1][-1][1])}]
    found.append(list(fold(t, harness.FinalTextRenderer(), events)))
    # and one where an empty answer comes last: it is still the last message, and it decides
    runs.append([[False, drawn_answer(t)], [False, ""]])
    events = [{"type": "message_end", "message": lab.say(text)} for _, text in runs[-1]]
    found.append(list(fold(t, harness.FinalTextRenderer(), events)))
    # and one where that empty answer comes after a failed reply: it decides all the same
    runs.append([[True, t.random.choice(["overloaded", "rate limited"])], [False, ""]])
    events = [{"type": "message_end", "message": lab.fail(text) if failed else lab.say(text)}
              for failed, text in runs[-1]]
    found.append(list(fold(t, harness.FinalTextRenderer(), events)))
    t.expect(found, [["", not run[-1][0], ("Error: " if run[-1][0] else "") + run[-1][1] + "\n"]
                     for run in runs],
             "FinalTextRenderer judges by the newest assistant message that a message_end "
             "announced, a user message after it changing nothing, and an empty answer that "
             "comes last deciding too (an empty line, True), even after a failed reply: a "
             "failure does not outlive a later answer, however few its words. Each item is "
             "[what render "
             "printed, finish(), what finish printed] for one drawn run of failures and answers "
             "(FinalTextRenderer, lesson 7).")
    judged = []
    for run in runs:
        renderer = harness.JsonRenderer()
        for failed, text in run:
            t.printed(renderer.render, {"type": "message_end",
                                        "message": lab.fail(text) if failed else lab.say(text)})
        judged.append(t.printed(renderer.finish)[0])
    # and one renderer handed two whole runs in a row, the first failing, the second answering,
    # then the start of a third that announced no reply yet
    reason, answer = t.random.choice(["overloaded", "rate limited"]), drawn_answer(t)
    session = (await events_of(lab.fail(reason)) + await events_of(lab.say(answer)) +
               [{"type": "agent_start"}, {"type": "turn_start"},
                {"type": "message_end", "message": harness.user_message("And now?")}])
    renderer, text, lines = harness.JsonRenderer(), harness.FinalTextRenderer(), ""
    for event in session:
        lines += t.printed(renderer.render, event)[1]
        t.printed(text.render, event)
    judged.append(t.printed(renderer.finish)[0])
    t.expect(judged, [not any(failed for failed, _ in run) for run in runs] + [False],
             "JsonRenderer is stricter: any failed message it saw announced means the run did "
             "not end well, even when an answer came after it, and even when a new agent_start "
             "came between them. Each item is its finish() for one of the runs above, then for "
             "one renderer handed the events of two runs in a row, a failed one and then an "
             "answer (JsonRenderer, lesson 7).")
    t.expect([[parsed(line) for line in lines.splitlines()] == session,
              len(lines.splitlines()), t.printed(text.finish)],
             [True, len(session), (True, answer + "\n")],
             "One renderer is one fold over every event it is handed, however many runs they "
             "span: JsonRenderer prints a line for each event after an agent_end too, and for "
             "FinalTextRenderer the last assistant message announced decides, whichever run "
             "announced it, neither an agent_end nor a new agent_start making it forget or stop "
             "listening. Both were handed a failed run, then a run answering "
             f"{answer!r}, then the start of a third run that announced no reply yet. Items: "
             "JsonRenderer's lines parse back to the events, how many lines it printed, "
             "FinalTextRenderer.finish() and what it printed (JsonRenderer and "
             "FinalTextRenderer, lesson 7, Build: two frontends).")
    # and one FinalTextRenderer handed a long session, its length drawn under the seed: the
    # same few event dicts handed over again and again cost little, and the answer comes last
    rounds, answer = t.random.randint(900, 1_500), drawn_answer(t)
    run = [{"type": "agent_start"}, {"type": "turn_start"},
           {"type": "message_end", "message": harness.user_message("Again?")},
           {"type": "message_end", "message": lab.fail(t.random.choice(["overloaded",
                                                                     "rate limited"]))},
           {"type": "turn_end", "message": lab.fail("overloaded")},
           {"type": "agent_end", "messages": []}]
    session = run * rounds + [{"type": "message_end", "message": lab.say(answer)}]
    text = harness.FinalTextRenderer()
    with contextlib.redirect_stdout(io.StringIO()) as during:
        for event in session:
            text.render(event)
    t.expect([during.getvalue(), t.printed(text.finish)], ["", (True, answer + "\n")],
             "One renderer is one fold over every event it is handed, however many: it never "
             "stops listening, so the last assistant message announced decides even after "
             f"thousands of events. A FinalTextRenderer was handed {len(session):,} events, "
             f"{rounds} failed runs in a row and then an answer {answer!r}. Items: what render "
             "printed, (finish(), what it printed) (FinalTextRenderer, lesson 7, Build: two "
             "frontends, item 2).")
    # and one JsonRenderer handed twice as many small events as that session has runs (a
    # microsecond or two each), then a failed reply, then answers, their count drawn: it judges
    # every message it is handed, however many events came first, and forgets none of them,
    # however many came after
    judge, small = harness.JsonRenderer(), {"type": "status", "text": "indexing"}
    later, done = t.random.randint(100, 300), {"type": "message_end", "message": lab.say("Done.")}
    held = 0  # render calls that returned with their line still unflushed
    with contextlib.redirect_stdout(Unflushed()) as during:
        for _ in range(rounds * 2):
            judge.render(small)
            held += during.held
        judge.render({"type": "message_end", "message": lab.fail("overloaded")})
        held += during.held
        for _ in range(later):
            judge.render(done)
            held += during.held
    t.expect([during.getvalue().count("\n"), held, t.printed(judge.finish)],
             [rounds * 2 + 1 + later, 0, (False, "")],
             "JsonRenderer is stricter: any failed message it saw announced means the run did "
             "not end well, however many events came before it and however many answers after "
             f"it. A JsonRenderer was handed {rounds * 2:,} \"status\" events, then a failed "
             f"reply's message_end, then {later} answers' message_end, each "
             "line appearing at once, flushed before render returned, the thousandth and after "
             "as the first. Items: the lines it printed, the render calls that returned with "
             "their line unflushed, (finish(), what it printed) (JsonRenderer, lesson 7, Build: "
             "two frontends, item 1).")
    # and one FinalTextRenderer handed an answer, then the reply of a run the user stopped,
    # labelled "aborted" (lesson 1's table; lesson 15 makes such runs): it is the last assistant
    # message announced, so it decides, whatever this lesson's frontend makes of its label
    answer = drawn_answer(t)
    stopped = {"role": "assistant", "content": [{"type": "text", "text": "Checking b."}],
               "stop_reason": "aborted", "error_message": "Operation aborted"}
    printed, value, said = fold(t, harness.FinalTextRenderer(), [
        {"type": "message_end", "message": lab.say(answer)},
        {"type": "message_end", "message": stopped}])
    t.expect([printed, said == answer + "\n"], ["", False],
             "For FinalTextRenderer the last assistant message announced decides, whatever its "
             "label: a reply labelled \"aborted\" (a run the user stopped) announced after an "
             f"answer {answer!r} is the last one, so what finish() prints is about it (its words, "
             "or a failure), never the answer before it, which a frontend that passes over a "
             "label it does not know would print. Items: what render printed, finish() printed "
             "the earlier answer (FinalTextRenderer, lesson 7, Build: two frontends, item 2).")
    # and one pair asked for a verdict after each of two runs in a row: an answer, then a failure
    answer, reason = drawn_answer(t), t.random.choice(["overloaded", "rate limited"])
    pair, verdicts = (harness.JsonRenderer(), harness.FinalTextRenderer()), []
    for events in (await events_of(lab.say(answer)), await events_of(lab.fail(reason))):
        for event in events:
            for renderer in pair:
                t.printed(renderer.render, event)
        verdicts.append([t.printed(renderer.finish) for renderer in pair])
    t.expect(verdicts, [[(True, ""), (True, answer + "\n")],
                        [(False, ""), (False, f"Error: {reason}\n")]],
             "A finish() between two runs settles nothing for the next: asked again after "
             "more events, JsonRenderer says False once any message it saw failed, and for "
             "FinalTextRenderer a reply announced since decides, not the one it judged before "
             "(what a second finish() says when no reply came since is yours: finish() is "
             f"called once the run is over). One pair folded a run answering {answer!r}, finished, then "
             f"folded a run ending in lab.fail({reason!r}) and finished again. Items: for each "
             "finish, [(JsonRenderer.finish(), what it printed), (FinalTextRenderer.finish(), "
             "what it printed)] (JsonRenderer and FinalTextRenderer, lesson 7, Build: two "
             "frontends, items 1 and 2).")


@lab_test("A failure is told by its label, stop_reason \"error\", and by nothing else: an "
          "answer that carries an error_message field ended well, and a failed reply that got "
          "words out before it failed did not, for both frontends. JsonRenderer reads the "
          "label as the event is handed over: a consumer's later write into it changes nothing.")
async def test_the_label_decides(t):
    answer, reason = drawn_answer(t), f"connection reset (request {t.random.randint(1, 999)})"
    asked = f"Reading {t.random.choice(FILES)} first."
    run = await events_of(lab.reply(asked, lab.call("look", {"path": t.random.choice(FILES)})),
                          lab.say(answer))
    result = next(number for number, event in enumerate(run) if event["type"] == "message_end"
                  and event["message"]["role"] == "toolResult")
    partial = {"role": "assistant", "content": [{"type": "text", "text": answer[:12]}]}
    cases = [("an answer with error_message null", lab.say(answer) | {"error_message": None},
              [True, True, answer + "\n"]),
             ("an answer carrying a note in error_message",
              lab.say(answer) | {"error_message": f"retried once after: {reason}"},
              [True, True, answer + "\n"]),
             ("a last reply asking for a tool, its arguments holding \"stop_reason\": \"error\"",
              lab.reply("Looking for failed runs.",
                        lab.call("look", {"path": "runs.jsonl", "stop_reason": "error"})),
              [True, True, "Looking for failed runs.\n"]),
             ("a reply asking for a tool, then its result's message_end (the run closed there)",
              run[:result + 1], [True, True, asked + "\n"]),
             ("the same, then a later lesson's message_update carrying a reply still being "
              "written, never announced", run[:result + 1] + [
                  {"type": "message_update", "message": partial}], [True, True, asked + "\n"]),
             ("an answer announced, then events made by hand that carry other messages or "
              "none: a turn_end and a message_update each carrying a failed reply, an event of "
              "type \"error\" (no message), and an agent_end whose messages hold a failed reply "
              "after the answer and end with a user's", [
                  {"type": "message_end", "message": lab.say(answer)},
                  {"type": "turn_end", "message": lab.fail(reason), "tool_results": []},
                  {"type": "message_update", "message": lab.fail(reason)},
                  {"type": "error", "error_message": reason},
                  {"type": "agent_end", "messages": [lab.say(answer), lab.fail(reason),
                                                     harness.user_message("Thanks.")]}],
              [True, True, answer + "\n"]),
             ("an answer, then a reply that only asks for a tool, no words before its call "
              "(the run closed there)", [
                  {"type": "message_end", "message": lab.say(answer)},
                  {"type": "message_end",
                   "message": lab.reply(lab.call("look", {"path": t.random.choice(FILES)}))}],
              [True, True, "\n"]),
             ("no message_end at all: a turn_end carrying an answer, then an agent_end whose "
              "messages end with it", [
                  {"type": "agent_start"}, {"type": "turn_start"},
                  {"type": "turn_end", "message": lab.say(answer), "tool_results": []},
                  {"type": "agent_end", "messages": [harness.user_message("Go."),
                                                     lab.say(answer)]}],
              [True, False, ""]),
             ("an answer labelled \"stop\" with no content at all (content [])",
              lab.say(answer) | {"content": []}, [True, True, "\n"]),
             ("an answer labelled \"stop\" with no content at all, carrying a note in "
              "error_message", lab.say(answer) | {"content": [], "error_message": reason},
              [True, True, "\n"]),
             ("a failed reply with words", lab.fail(reason, "Here is the fix: "),
              [False, False, f"Error: {reason}\n"]),
             # what the text frontend's line says without a reason is the student's to choose
             # (Build item 2), so only its verdict is held here, never its line
             ("a failed reply with error_message null (FinalTextRenderer's line not judged)",
              lab.fail(reason) | {"error_message": None}, [False, False, None]),
             # with no error_message key at all, the line is the student's too, and finish()
             # still says the run failed
             ("a failed reply with no error_message key (FinalTextRenderer's line not judged)",
              {key: value for key, value in lab.fail(reason).items() if key != "error_message"},
              [False, False, None])]

    def watched(renderer, events):
        """fold, and whether the events were as before after each render call and finish()."""
        before, untouched = copy.deepcopy(events), True
        for event in events:
            t.printed(renderer.render, event)
            untouched = untouched and repr(events) == repr(before)  # its keys' order too
        try:
            value, said = t.printed(renderer.finish)
        except Exception as problem:  # noqa: BLE001 - what it did is the item; the record is held
            value, said = f"raised {type(problem).__name__}", None
        return value, said, untouched and repr(events) == repr(before)

    found = []
    for what, given, wanted in cases:
        events = given if isinstance(given, list) else [{"type": "message_end", "message": given}]
        as_json, _, json_kept = watched(harness.JsonRenderer(), events)
        as_text, said, text_kept = watched(harness.FinalTextRenderer(), events)
        found.append([what, as_json, as_text if wanted[1] is not None else None,
                      said if wanted[2] is not None else None, json_kept and text_kept])
    t.expect(found, [[what, *wanted, True] for what, _, wanted in cases],
             "Whether a reply failed is its stop_reason, \"error\" or not, whatever its "
             "error_message field and its content hold: an error_message key on an answer "
             "labelled \"stop\" (null, as a provider's reply may carry it, or a note) is no "
             "failure, and a reply labelled \"error\" is one, whether it got words out first "
             "or came with no error_message at all. A reply labelled \"toolUse\" (the run closed "
             "after it) is no failure either, and it is the last assistant message, so its words "
             "are the answer, even none at all, whatever its call's arguments hold, and a tool's "
             "result announced after it, or a partial reply in an event other than message_end, changes nothing: "
             "a message is announced by its message_end, and an agent_end's messages or an "
             "event of another type (\"error\" too) announce none: a run whose reply no "
             "message_end announced has no answer. An answer with no words "
             "at all, labelled \"stop\", ended well. Each item is [the reply, "
             "JsonRenderer.finish(), FinalTextRenderer.finish(), what FinalTextRenderer "
             "printed, the events were as they were before, their keys in the same order, after "
             "every render call and finish() of both frontends: neither touches the record, "
             "not even for a while] "
             "(JsonRenderer and FinalTextRenderer, lesson 7, Build: two frontends).")
    noted = []
    for kind in (harness.JsonRenderer, harness.FinalTextRenderer):
        replies = [Noting(lab.reply(asked, lab.call("look", {"path": t.random.choice(FILES)}))),
                   Noting(t.random.choice([lab.say(answer), lab.fail(reason)]))]
        renderer = kind()
        for reply in replies:
            t.printed(renderer.render, {"type": "message_end", "message": reply})
        t.printed(renderer.finish)
        noted.append([kind.__name__, [reply.writes for reply in replies]])
    t.expect(noted, [["JsonRenderer", [[], []]], ["FinalTextRenderer", [[], []]]],
             "Neither frontend touches the record, not even for a while: the message an event "
             "carries is the record's own, and a mark written into it while render or finish() "
             "runs, and taken out again before it returns, is a write into the record all the "
             "same (a thread, a tool or a later lesson's stop reading the record then would see "
             "it), a mark written through dict's own methods that a later read finds there "
             "included. Each frontend was handed the message_end of a reply asking for a tool, "
             "then of a last reply, each a message that notes every write into it and every "
             "read that finds keys it did not start with. Items: "
             "[the frontend, the writes into each message while it rendered the two and "
             "finished] (JsonRenderer and FinalTextRenderer, lesson 7, Build: two frontends).")
    verdicts = []
    for how in ("replaces the message", "writes into the message itself"):
        for first, then in ((lab.fail(reason), lab.say(answer)),
                            (lab.say(answer), lab.fail(reason))):
            event = {"type": "message_end", "message": first}
            handed, renderer = copy.deepcopy(event), harness.JsonRenderer()
            line = t.printed(renderer.render, event)[1]
            # a consumer writes into the event after render returned
            if how == "replaces the message":
                event["message"] = then
            else:
                event["message"].clear()
                event["message"].update(copy.deepcopy(then))
            verdicts.append([how, handed["message"]["stop_reason"], then["stop_reason"],
                             parsed(line.strip()) == handed, t.printed(renderer.finish)])
    t.expect(verdicts, [[how, *wanted] for how in ("replaces the message",
                                                   "writes into the message itself")
                        for wanted in (["error", "stop", True, (False, "")],
                                       ["stop", "error", True, (True, "")])],
             "JsonRenderer judges each message when its event is handed over, so finish() "
             "agrees with the lines it printed: what a consumer writes into an event after "
             "render returned changes neither that event's line nor finish() (JsonRenderer, "
             "lesson 7, Build: two frontends), whether the consumer puts another message in the "
             "event or writes into the message the event carried. Each item is [what the "
             "consumer did, the label of the reply handed over, the label it wrote in its place "
             "afterwards, the line printed is the event as handed over, (finish(), what it "
             "printed)].")
    kept = []
    for first, then in ((lab.fail(reason), lab.say(answer)), (lab.say(answer), lab.fail(reason))):
        event, renderer = {"type": "message_end", "message": first}, harness.FinalTextRenderer()
        t.printed(renderer.render, event)
        event["message"] = then  # a consumer puts another message in the event afterwards
        kept.append([first["stop_reason"], then["stop_reason"], t.printed(renderer.finish)])
    t.expect(kept, [["error", "stop", (False, f"Error: {reason}\n")],
                    ["stop", "error", (True, answer + "\n")]],
             "For FinalTextRenderer the last assistant message announced decides: the message "
             "its message_end carried when render was handed it, not one a consumer put into "
             "that event afterwards, which was never announced. Each item is [the label of the "
             "reply announced, the label of the reply put in its place after render returned, "
             "(finish(), what it printed)] (FinalTextRenderer, lesson 7, Build: two frontends, "
             "item 2).")


def _trouble(kind, number):
    """A call that goes wrong in the tool, never in the run: the boundary answers it with an
    error result (lesson 4), and the model can carry on."""
    if kind == "a missing file":
        return lab.call("read", {"path": f"missing{number}.py"})
    if kind == "an unknown tool":
        return lab.call("grep", {"pattern": "TODO"})
    return lab.call("read", {"path": number})  # bad arguments: a path that is not a string


@lab_test("Tool errors are not endings: runs with 0 to 4 tool errors (a missing file, an unknown "
          "tool, bad arguments) at places drawn under the seed end with an answer, a provider "
          "failure or a max_turns stop, and both frontends' finish() judge each run by how it "
          "ended.")
async def test_tool_errors_are_not_endings(t):
    runs, found = [], []
    for ending in ("an answer", "a provider failure", "a max_turns stop"):
        for errors in (0, 1, t.random.randint(2, 4)):
            rounds = t.random.randint(1, 5)
            calls = [lab.call("read", {"path": "app.py"}) for _ in range(rounds + errors)]
            for number, place in enumerate(t.random.sample(range(len(calls)), errors)):
                calls[place] = _trouble(t.random.choice(
                    ("a missing file", "an unknown tool", "bad arguments")), number)
            cuts = sorted(t.random.sample(range(1, len(calls)), rounds - 1))
            replies = [lab.reply(*calls[start:end])
                       for start, end in zip([0] + cuts, cuts + [len(calls)])]
            last = {"an answer": lab.say(f"Tool errors on the way: {errors}. app.py prints ok."),
                    "a provider failure": lab.fail("overloaded"),
                    "a max_turns stop": lab.reply(lab.call("read", {"path": "app.py"}))}[ending]
            model = lab.ScriptedModel(replies + [last])
            ws = lab.Workspace({"app.py": "print('ok')\n"})
            limit = {"max_turns": rounds} if ending == "a max_turns stop" else {}
            events = await lab.drive(harness.run_agent(model, SYSTEM, [], [
                harness.make_read_tool(ws)], "What does app.py print?", **limit))
            _, as_json, _ = fold(t, harness.JsonRenderer(), events)
            _, as_text, said = fold(t, harness.FinalTextRenderer(), events)
            runs.append((ending, errors, rounds))
            found.append([ending, errors, as_json, as_text, said])
    t.expect(found, [[ending, errors, ending == "an answer", ending == "an answer",
                      {"an answer": f"Tool errors on the way: {errors}. app.py prints ok.\n",
                       "a provider failure": "Error: overloaded\n",
                       "a max_turns stop": f"Error: Agent stopped after max_turns={rounds}\n"}
                      [ending]] for ending, errors, rounds in runs],
             "A tool error is not an ending: the boundary makes it a result and the run goes "
             "on, so a run that recovers and answers ended well, and only a reply with "
             "stop_reason \"error\" (a provider failure, or a max_turns stop) means it did not, "
             "whichever frontend reads it. Each item is [how the run ended, tool errors on the "
             "way, JsonRenderer.finish(), FinalTextRenderer.finish(), what FinalTextRenderer "
             "printed] for one run (JsonRenderer and FinalTextRenderer, lessons 4, 5 and 7).")
