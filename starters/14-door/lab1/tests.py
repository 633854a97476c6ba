"""Lesson 14, lab 1: build the door. The tests of guard, deny_destructive and confirm_with: a
refusal decided in your own code before the tool runs, returned to the model as an error result,
and a door that stays shut when its check crashes or its answer is anything but True.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 14 tests.py
"""
import asyncio
import copy
import itertools
import json

import harness
import lab
from lab.kit import hours_pass, lab_test, raised, settle, tool

LAB = "14.1"
SYSTEM = "You help with a small project."
COMMAND = {"type": "object", "properties": {"command": {"type": "string"}},
           "required": ["command"]}
BLOCKED = "Tool call blocked: "


def shell_tool(ran, output="done\n"):
    """A tool named bash that notes each command it runs and prints `output`."""
    def fn(arguments):
        ran.append(arguments["command"])
        return output
    return tool("bash", fn, COMMAND, description="Run a command.")


def bash_call(command, id="c1"):
    return {"type": "toolCall", "id": id, "name": "bash", "arguments": {"command": command}}


async def answer(tools, call):
    """The result run_tool gives, as [content, is_error]."""
    found = await settle(harness.run_tool(tools, call))
    return [found["content"], found["is_error"]]


def allow_all(name, arguments):
    return None


async def refusal(execute, arguments):
    """What calling a guarded tool's execute itself did: [a PermissionError (a subclass of it is
    one), its kind and text]: a PermissionError of any subclass is written PermissionError."""
    try:
        await settle(execute(arguments))
    except Exception as exc:
        kind = "PermissionError" if isinstance(exc, PermissionError) else type(exc).__name__
        return [isinstance(exc, PermissionError), f"{kind}: {exc}"]
    return [False, "returned without raising"]


def said(check, name, arguments):
    """What check(name, arguments) answered, or "raised" and what it raised."""
    try:
        return check(name, arguments)
    except Exception as exc:
        return f"raised {type(exc).__name__}: {exc}"


class PolicyError(Exception):
    """A check's own kind of error: no list of Python's built-in errors names it."""


class Unreachable:
    """A person who cannot be asked: the frontend that would put the question is gone, and ask
    raises `error` (a TimeoutError where the frontend gave up waiting for it)."""

    def __init__(self, error=ConnectionError):
        self.error = error

    def ask(self, question):
        raise self.error("the frontend has closed")


class Dropped:
    """A person who answers True to the first question and whose frontend then closes."""

    def __init__(self):
        self.questions = []

    def ask(self, question):
        self.questions.append(question)
        if len(self.questions) > 1:
            raise ConnectionError("the frontend has closed")
        return True


class Frontless:
    """A person no frontend was ever attached to: there is no ask to put a question through."""


class Reconnecting:
    """A person whose frontend drops the first question put to it and answers the later ones
    from `answers`."""

    def __init__(self, answers):
        self.answers, self.questions = list(answers), []

    def ask(self, question):
        self.questions.append(question)
        if len(self.questions) == 1:
            raise ConnectionError("the frontend is reconnecting")
        return self.answers.pop(0)


class Text(str):
    """Text of a kind of its own, as a library may hand a harness: a str all the same."""


class Arguments(dict):
    """Arguments of a kind of their own, as a library may hand a harness: a dict all the same."""


class SaysItIsNone:
    """A check's answer that says it equals None, as some sentinels and test doubles do: it is
    not None itself."""

    def __eq__(self, other):
        return other is None

    __hash__ = object.__hash__

    def __str__(self):
        return "no word from the policy service"


class bool_:  # noqa: N801 (named as numpy names its own)
    """A true value of a kind that is not bool, as numpy's bool_ is: true, and equal to True,
    but not True itself."""

    def __bool__(self):
        return True

    def __eq__(self, other):
        return other is True or isinstance(other, bool_)

    __hash__ = object.__hash__

    def __repr__(self):
        return "True"


class CutOff:
    """A person whose frontend loses its power while the question is put: ask raises PowerCut."""

    def __init__(self, why):
        self.why = why

    def ask(self, question):
        raise lab.PowerCut(self.why)


class Shutdown(BaseException):
    """The program ending another way than PowerCut, as KeyboardInterrupt (Ctrl-C) does: a
    BaseException that is not an Exception."""


@lab_test("A guarded tool keeps every key of the tool but execute (name, description, "
          "parameters and any other), so the specs the model is sent do not change; the tool "
          "handed in is not changed, by guard or by any call through it, nor any value inside "
          "it.")
async def test_guard_keeps_every_other_key(t):
    ran = []
    plain = shell_tool(ran)
    plain["name"] = t.random.choice(["bash", "shell", "run", "sh"])
    extra = t.random.sample(["snippet", "title", "timeout", "tags", "owner"], t.random.randint(1, 3))
    for key in extra:
        plain[key] = f"{key} of {plain['name']}"
    plain["guidelines"] = [f"Say what each {plain['name']} call is for."]
    kept = copy.deepcopy({key: value for key, value in plain.items() if key != "execute"})
    during = []  # the keys of the tool handed in, as the check finds them while it is asked
    guarded = harness.guard(plain, lambda name, arguments: during.append(sorted(plain)))
    t.expect(sorted(key for key in guarded if guarded[key] is not plain[key]), ["execute"],
             "Only execute is new; every other value is the tool's own (guard, lesson 14).")
    t.expect([sorted(guarded), harness.tool_specs([guarded]) == harness.tool_specs([plain]),
              guarded["name"]],
             [sorted(["description", "execute", "guidelines", "name", "parameters"] + extra), True,
              plain["name"]],
             "Same keys, same specs, same name: the model cannot tell a door is there; the "
             "items are [the guarded tool's keys, its specs are the tool's, its name] (guard, "
             "lesson 14).")
    await settle(guarded["execute"]({"command": "ls"}))
    keys = sorted(["description", "execute", "guidelines", "name", "parameters"] + extra)
    t.expect([sorted(plain), ran, during], [keys, ["ls"], [keys]],
             "The tool handed in is not changed, by guard or by a call through the door: no key "
             "is added to it, an audit of calls included, not even for a moment while the check "
             "is asked (a mark of a call in progress, put in and taken out again, is a change "
             "another caller of that tool sees). The items are [the keys of the tool handed "
             "in, after one call through the door; the commands that ran; the keys of the tool "
             "handed in as the check found them while it was asked] (guard, lesson 14).")
    t.expect({key: value for key, value in plain.items() if key != "execute"}, kept,
             "Nor any value inside it is changed: the tool handed in keeps its guidelines list "
             "and its parameters as they were, no guideline added and no argument (such as a "
             "confirmed flag) put in its parameters, since the model sees the same tool it saw "
             "before. The value is every key of the tool handed in but execute, after guard and "
             "one call through the door (guard, lesson 14, \"Where the door goes\").")
    bare = tool(t.random.choice(["read", "grep", "ls"]), lambda arguments: "x\n")
    keys = sorted(bare)
    await settle(harness.guard(bare, allow_all)["execute"]({"path": "."}))
    t.expect(sorted(bare), keys,
             "Nor is a key added to a tool that has fewer keys: a tool with no guidelines "
             "(nor snippet) keeps having none, no empty list put in for it by guard or by a "
             "call through the door. The value is the keys of a tool of name, description, "
             "parameters and execute only, after guard and one call through the door (guard, "
             "lesson 14, \"Where the door goes\": \"`snippet` and `guidelines` travel with "
             "`{**tool}` untouched\").")


@lab_test("When the check allows a call, the real tool runs with the very same arguments (the "
          "dict the check was asked about, not a copy) and its output comes back unchanged, "
          "an empty one included.")
async def test_an_allowed_call_runs(t):
    ran, seen = [], []
    output = t.random.choice(["3 passed\n", "", "ok", "1 failed, 2 passed\n", "  spaced  \n"])

    def fn(arguments):
        seen.append(arguments)
        return output
    name = t.random.choice(["test", "lint", "build"])
    tools = [harness.guard(tool(name, fn), allow_all)]
    arguments = {"path": t.random.choice(["tests/", "src/", "."]),
                 "verbose": t.random.choice([True, False]), "runs": t.random.randint(1, 9)}
    call_id = f"c{t.random.randint(1, 99)}"
    found = await settle(harness.run_tool(tools, {"type": "toolCall", "id": call_id, "name": name,
                                                  "arguments": dict(arguments)}))
    t.expect([found["content"], found["is_error"], found["tool_call_id"], seen],
             [output, False, call_id, [arguments]],
             "The door lets the call through untouched; the items are [the result's content, "
             "is_error, its call id, the arguments the tool got] (guard, lesson 14).")
    t.expect(ran, [], "Nothing else ran (lesson 14).")
    given = {"path": "build/", "command": t.random.choice([" touch build/.keep", "touch x \n",
                                                           "\ttouch a b "])}
    empty, kept, got, shown = {}, dict(given), [], []
    raw = "line 1\r\nline 2\r\n\x00"  # Windows line ends and a NUL, as some programs print
    outputs = ["", None, raw]
    quiet = harness.guard(tool("touch", lambda arguments: got.append(arguments) or outputs.pop(0)),
                          lambda name, arguments: shown.append(arguments))  # answers None
    calls = [given, empty, given]  # the first dict comes again: the very same object
    with hours_pass(60):  # each reading of a clock an hour after the one before
        printed = [await settle(quiet["execute"](arguments)) for arguments in calls]
    t.expect([printed, [arguments is called for arguments, called in zip(shown, calls)],
              [arguments is called for arguments, called in zip(got, calls)],
              [given, empty]], [["", None, raw], [True, True, True], [True, True, True],
                                [kept, {}]],
             "A tool that printed nothing comes back as nothing, with no stand-in text, a "
             "tool's None comes back as None, and an output with \\r\\n line ends and a NUL "
             "at its end comes back as it was printed, not tidied; and the tool is handed the "
             "very dict the check was shown, and the check the call's own dict, not a copy for "
             "either, an empty one included, and left as it came (its command's spaces kept): "
             "the call in the record is the call that was asked about and the call that ran. "
             "And the same dict handed in again is a new call, asked about again: the door "
             "remembers no answer, not even for the very same arguments object. And the answer "
             "None lets the call through however long the check took by the clock: these three "
             "calls run while each reading of the clock is an hour after the one before, and a "
             "None that came late is a None all the same. The items are "
             "[what the guarded execute returned for a tool that printed \"\", then None, then "
             "text with \\r\\n and a NUL; for each time the check was asked: it was shown the "
             "call's own arguments dict (the second one empty, the third the first again); for "
             "each run of the tool: it got that dict; the two dicts after the calls] "
             "(guard, Build item 1: \"the real tool gets the very arguments the check was shown, "
             "and its result, or its failure, is then the call's own, unchanged\", lesson 14).")
    # Outputs with white space at both ends: each kind once at a start and once at an end.
    white = [" ", "   ", "\t", "\n", "\r\n", "\u00a0", "\x0b", "\x0c"]
    t.random.shuffle(white)
    padded = [f"{lead}{t.random.choice(['3 passed', 'ok', 'built dist/'])}{end}"
              for lead, end in zip(white, white[1:] + white[:1])]
    waiting = list(padded)
    door = harness.guard(tool("make", lambda arguments: waiting.pop(0)), allow_all)
    printed = [await settle(door["execute"]({"target": f"t{n}"})) for n in range(len(padded))]
    t.expect(printed, padded,
             f"{len(padded)} allowed calls of a tool whose output has white space at its start "
             "and at its end (spaces, a tab, \\n, \\r\\n, a no-break space, a vertical tab, a "
             "form feed, each kind once at a start and once at an end) get that output back "
             "as the tool printed it, every character at both ends kept: the door tidies "
             "nothing. The items are what the guarded execute returned for each call (guard, "
             "Build item 1: \"its result, or its failure, is then the call's own, unchanged\", "
             "lesson 14).")
    # Results that are not text, arguments of many keys, and arguments that are None.
    objects = [t.random.randint(2, 99), [t.random.choice(["a.py", "b.py"])], {"passed": 3},
               t.random.choice([2.5, 0.75]), (1, 2), b"raw bytes\n"]
    wide = {f"{key}": n for n, key in enumerate(t.random.sample(
        ["path", "mode", "depth", "owner", "tag", "retries", "flags", "target", "env"],
        t.random.randint(4, 9)))}
    given, shown, got = [wide, None, dict(wide), None], [], []
    returned = list(objects)
    door = harness.guard(tool("probe", lambda arguments: got.append(arguments) or returned.pop(0)),
                         lambda name, arguments: shown.append(arguments))  # answers None
    printed = [await settle(door["execute"](arguments)) for arguments in given]
    printed += [await settle(door["execute"]({"n": n})) for n in range(len(objects) - len(given))]
    t.expect([[came is sent for came, sent in zip(printed, objects)],
              [seen is sent for seen, sent in zip(shown, given)],
              [ran is sent for ran, sent in zip(got, given)]],
             [[True] * len(objects), [True] * len(given), [True] * len(given)],
             f"A result that is not text (a number, a list, a dict, a float, a tuple, bytes) "
             f"comes back as the very object the tool returned, not made text; and arguments "
             f"of {len(wide)} keys, and arguments that are None, are shown to the check and "
             "handed to the tool as the very object the call holds, not a copy and not a "
             "stand-in such as {} for None. The items are [for each result, it is the tool's "
             "own object; for each call, the check was shown the call's own arguments; for "
             "each call, the tool got them] (guard, Build item 1: \"the real tool gets the very "
             "arguments the check was shown, and its result, or its failure, is then the "
             "call's own, unchanged\", lesson 14).")
    # A check that edits the arguments it is shown, then answers None.
    fetched = []

    def fills_in(name, arguments):
        arguments.setdefault("timeout", t.random.choice([10, 30, 60]))  # a default of its own
        return None
    door = harness.guard(tool("fetch", lambda arguments: fetched.append(arguments) or "fetched"),
                         fills_in)
    asked = {"url": t.random.choice(["https://example.com", "https://docs.python.org"])}
    came = await settle(door["execute"](asked))
    t.expect([came, [arguments is asked for arguments in fetched], sorted(asked)],
             ["fetched", [True], ["timeout", "url"]],
             "A check that fills in a default (it puts a timeout into the arguments it was "
             "shown) and answers None has let the call through: the answer None lets the call "
             "through, whatever the check did to the dict before it answered, and the tool gets "
             "that very dict, as the check left it; the door does not refuse a call because "
             "its arguments changed while the check was asked. The items are [what the guarded "
             "execute returned, for each run of the tool whether it got the dict the check was "
             "shown, that dict's keys afterwards] (guard, Build item 1: \"The answer `None` "
             "lets the call through: the real tool gets the very arguments the check was "
             "shown\", lesson 14).")


@lab_test("A refused call never reaches the tool; its result is Tool call blocked: and the "
          "reason, marked as an error, and the run goes on to the model's next reply.")
async def test_a_refusal_is_an_error_result(t):
    ran = []
    reason = t.random.choice(["not in this repo", "deploys need a person", "no network here",
                              "outside the workspace"])
    command = t.random.choice(["make deploy", "git push --force", "curl example.com", "rm -r /"])
    tools = [harness.guard(shell_tool(ran), lambda name, arguments: reason)]
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": command})),
                               lab.say("I may not do that from here; please run it yourself.")])
    h = harness.Harness(model, SYSTEM, tools)
    await lab.drive(h.prompt("Do it."))
    t.expect([lab.shape(h.messages), ran], ["U A[c1] R(c1) A", []],
             "The run continues after a refusal, and the tool never ran (guard, lesson 14).")
    t.expect([h.messages[2]["content"], h.messages[2]["is_error"]], [BLOCKED + reason, True],
             "The model reads the refusal and its reason as an error result (guard and "
             "run_tool, lessons 4 and 14).")
    t.expect(lab.shape(model.calls[1].messages), "U A[c1] R(c1)",
             "The next request carries the refusal to the model (lesson 14).")
    t.expect(await refusal(tools[0]["execute"], {"command": command}),
             [True, f"PermissionError: {BLOCKED}{reason}"],
             "Called directly, the guarded execute raises PermissionError, not an exception of "
             "its own kind: a frontend or a later lab tells a refusal by that type (except "
             "PermissionError), so it is a PermissionError, itself or a subclass of it, and its "
             "text is exact. The items are [it raised a PermissionError, what it raised, any "
             "subclass written PermissionError] (guard, Build item 1: "
             "\"the call raises `PermissionError` with the text `Tool call blocked: `\", "
             "lesson 14).")


@lab_test("A check that raises KeyError('rm') refuses the call with Tool call blocked: the check "
          "failed: 'rm', and the tool does not run: a door fails closed. So does any Exception "
          "a check raises, PermissionError included, with all its text, and the check is not "
          "asked again, though a call that comes again is asked again.")
async def test_a_crashing_check_fails_closed(t):
    ran, asked = [], []
    allowed = {"ls": None, "cat": None, "git": None}

    def check(name, arguments):
        asked.append(arguments["command"])
        return allowed[arguments["command"].split()[0]]
    tools = [harness.guard(shell_tool(ran), check)]
    commands = (["rm -rf build"] + t.random.sample(["ls", "cat a.py", "git status", "curl x.sh",
                                                    "make clean", "ls src", "chmod 777 ."], 4))
    t.random.shuffle(commands)
    again = t.random.choice([c for c in commands if c.split()[0] not in allowed])
    for _ in range(2):  # the crashed call comes three times in all
        last = len(commands) - commands[::-1].index(again)
        commands.insert(t.random.randint(last, len(commands)), again)
    found = [await answer(tools, bash_call(c, f"c{n}")) for n, c in enumerate(commands)]
    t.expect(found, [["done\n", False] if c.split()[0] in allowed else
                     [f"Tool call blocked: the check failed: '{c.split()[0]}'", True]
                     for c in commands],
             "A crashed check gave no permission: the door stays shut, and the reason tells "
             "the model what went wrong. Each item is [content, is_error] for one call "
             "(guard, lesson 14).")
    t.expect(ran, [c for c in commands if c.split()[0] in allowed],
             "Only the allowed commands ran (guard, lesson 14).")
    t.expect(asked, commands,
             "The check is asked once per call, a check that crashed included: a crash is not "
             "retried, since a check that breaks has already not said yes; and a call is "
             f"asked again when it comes again, the crashed one ({again}, three times) too: the "
             "door remembers no call, not even a call that crashed its check twice. The items are the commands the check was asked about, in "
             "order (guard, lesson 14).")
    # Checks that break in other ways: any Exception a check raises is a refusal.
    kinds = [RuntimeError("the policy file is missing"), TypeError("'NoneType' is not iterable"),
             ZeroDivisionError("division by zero"), ValueError("bad pattern"),
             OSError("disk unreadable")]
    included = "".join(f"  included from rules/{n}.toml, line {n}\n" for n in range(1, 401))
    broken = t.random.sample(kinds, 3) + [AttributeError("'NoneType' object has no attribute "
                                                         "'split'"),
                                          PolicyError("no rule for bash\n  in policy.toml, "
                                                      "line 3\n  [bash]\n  ^\n" + included),
                                          PermissionError("bash is not on the list"), LookupError(),
                                          PolicyError("policy.toml, line 4:\r\n  no rule for bash"
                                                      "\r\n"),
                                          NotImplementedError("no rule for bash yet"),
                                          TimeoutError("the policy service did not answer")]
    found, ran = [], []
    for exc in broken:
        def crashing(name, arguments, exc=exc):
            raise exc
        found.append(await answer([harness.guard(shell_tool(ran), crashing)], bash_call("ls")))
    t.expect([found, ran], [[[f"Tool call blocked: the check failed: {exc}", True]
                             for exc in broken], []],
             "A check that breaks in any way, not only with a KeyError, has not said yes: the "
             "door catches every Exception the check raises, not a list of the likely ones, "
             "and a PermissionError the check raised included: it is the check breaking, so "
             "its reason is the check failed: and the whole of its text, every line of it. "
             "A NotImplementedError and a TimeoutError are Exceptions too: a check whose rule "
             "is not written yet, or that timed out, has not said yes. "
             "The items are [[content, is_error] for checks raising three drawn kinds of "
             "Exception, an AttributeError, a PolicyError (an Exception of the check's own, "
             "its text 404 lines and over 16,000 characters long, not cut), a PermissionError "
             "a LookupError with no text at all (the check failed: and nothing after it, no "
             "stand-in such as its kind's name), a PolicyError whose text has Windows line ends "
             "(\\r\\n, kept as it was raised, not made \\n), a NotImplementedError and a "
             "TimeoutError, the "
             "commands that ran] (guard, Build item 1: "
             "\"its reason is `the check failed: ` followed by the text of what the check "
             "raised\", lesson 14).")
    vast = RuntimeError("  a rule of rules.toml failed to load\n" * t.random.randint(6_000, 30_000))

    def breaks_at_length(name, arguments):
        raise vast
    content, is_error = await answer([harness.guard(shell_tool(ran), breaks_at_length)],
                                     bash_call("ls"))
    wanted = f"Tool call blocked: the check failed: {vast}"
    tall = RuntimeError("no rule\n" * t.random.randint(60_000, 120_000))

    def breaks_at_height(name, arguments):
        raise tall
    tall_content, _ = await answer([harness.guard(shell_tool(ran), breaks_at_height)],
                                   bash_call("ls"))
    t.expect([len(content), content == wanted, is_error, ran,
              tall_content == f"Tool call blocked: the check failed: {tall}"],
             [len(wanted), True, True, [], True],
             f"A check's error of {len(str(vast)):,} characters is the reason whole, after the "
             "check failed: , not cut at any length: all its text, however long, and one of "
             f"{str(tall).count(chr(10)):,} short lines is whole too, not cut at any number of "
             "lines. The items "
             "are [the result's length, it is Tool call blocked: the check failed: and the "
             "whole text, is_error, the commands that ran, the error of many lines is the "
             "whole reason] (guard, Build item 1: \"its reason "
             "is `the check failed: ` followed by the text of what the check raised\", "
             "lesson 14).")
    asked, ran = [], []

    def always_breaks(name, arguments):
        asked.append(arguments["command"])
        raise RuntimeError("the policy service is down")
    door = harness.guard(shell_tool(ran), always_breaks)
    times = t.random.randint(1001, 1010)
    found = [await refusal(door["execute"], {"command": "make test"}) for _ in range(times)]
    t.expect([sorted(set(map(tuple, found))), len(asked), ran],
             [[(True, f"PermissionError: {BLOCKED}the check failed: the policy service is "
                      "down")], times, []],
             f"A door whose check breaks on every call stays shut on every call, the last of "
             f"{times} calls as the first, and asks its check each time: it keeps no count of "
             "crashes, neither opening after many nor refusing a call again unasked. The "
             "items are [each different thing the guarded execute raised, as [a "
             f"PermissionError?, its text], the times the check was asked for {times} calls of "
             "make test, the commands that ran] (guard, Build item 1: \"A check that breaks "
             "has not said yes: the call is refused\", lesson 14).")


@lab_test("The check is called with the tool's name and the call's arguments, by position, "
          "once per call, whatever the tool, a read too, the name exactly as the tool has it.")
async def test_the_check_gets_name_and_arguments(t):
    asked = []

    def check(tool, args):  # a check may name its parameters as it likes
        asked.append([tool, args])
        return None
    name = t.random.choice(["bash", "shell", "run"])
    plain = shell_tool([])
    plain["name"] = name
    capital = t.random.choice(["WebFetch", "Grep", "ReadFile"])  # a name with capitals
    tools = [harness.guard(plain, check), harness.guard(tool("read", lambda arguments: "x\n"),
                                                        check),
             harness.guard(tool(capital, lambda arguments: "x\n"), check)]
    calls = [[name, {"command": command}] for command in t.random.sample(
        ["ls src", "cat a.py", "pytest -q", "git log", "echo hi"], t.random.randint(1, 4))]
    calls.insert(t.random.randint(0, len(calls)), ["read", {"path": ".env"}])
    calls.insert(t.random.randint(0, len(calls)), ["read", t.random.choice(
        [[".env"], ".env", None])])  # arguments that are not a dict, as a model may send
    calls.insert(t.random.randint(0, len(calls)), [capital, {"pattern": "TODO"}])
    for n, (called, arguments) in enumerate(calls):
        await answer(tools, {"type": "toolCall", "id": f"c{n}", "name": called,
                             "arguments": arguments})
    t.expect(asked, calls,
             "check(name, arguments), once per call, asked by position as check(tool[\"name\"], "
             "arguments): this check names its parameters tool and args, as a check may; and "
             "every call is asked, whatever its tool: a tool named read behind a door asks its "
             "check as bash does, and the name is the tool's exactly, capitals and all "
             "(WebFetch, Grep or ReadFile, not made lower case); and a call whose arguments are not a dict (a list, a string "
             "or None, as a model may send) is asked about too, with those very arguments: "
             "the door does not refuse it on its own. Each item is [name, arguments] for one "
             "call (guard, Build item 1: \"For each call, the check is asked once\", "
             "lesson 14).")
    own, names = Text(t.random.choice(["deploy", "publish", "migrate"])), []
    door = harness.guard(tool(own, lambda arguments: "x\n"),
                         lambda name, arguments: names.append(name))  # answers None
    await settle(door["execute"]({}))
    t.expect([[type(given).__name__, given is own] for given in names], [["Text", True]],
             "The name the check is given is the tool's name exactly as the tool has it, the "
             "very object: a tool whose name is text of a str subclass of its own (as a "
             "library may hand a harness) is named to the check with that object, not a "
             "plain str made of it with str(). The items are [the kind of name the check got, "
             "it is the tool's own name object] (guard, Build item 1: \"the check is asked "
             "once, with the tool's name\", lesson 14).")


@lab_test("deny_destructive refuses bash with rm -rf build, and any command with rm -rf "
          "later in it, even with no space before it (ls;rm -rf build), on a later line, or "
          "thousands of characters in, with a reason for the model that names rm -rf, and lets "
          "through harmless "
          "commands, rm -r build among them, other commands with -rf (cp -rf), a command that "
          "is not text (bytes too), and other tools (sh, shell and run_bash too), even one whose "
          "command argument holds rm -rf. Whether it refuses more "
          "spellings, such as rm -fr, is the harness's choice: a speed bump, not a sandbox.")
async def test_deny_destructive(t):
    reason = harness.deny_destructive("bash", {"command": "rm -rf build"})
    t.expect([type(reason).__name__, len(str(reason).split()) >= 4], ["str", True],
             "A refusal is a reason the model can read (deny_destructive, lesson 14).")
    before = ["", "cd build && ", "ls; ", "sudo ", "make clean || ", "echo start; "]
    targets = ["build", "~/cache", "/var/tmp", ".", "dist/*", "node_modules"]
    after = ["", " && ls", "; echo done", " 2>/dev/null"]
    later = [t.random.choice(before) + "rm -rf " + t.random.choice(targets) +
             t.random.choice(after) for _ in range(4)]
    later += ["ls;rm -rf build", "sh -c 'rm -rf build'", "(rm -rf dist)", "rm -rfv build",
              'sh -c "rm -rf build"', t.random.choice(['bash -c "cd app && rm -rf dist"',
                                                       'ssh ci "rm -rf /tmp/cache"']),
              t.random.choice(["echo a#b; rm -rf build", "git log --grep=#12 && rm -rf dist",
                               "make # clean\nrm -rf build"]),
              "ls  # a listing first, then rm -rf build",
              "cd build\nrm -rf .", "confirm -rf old", Text("rm -rf build"),
              "set -e\ncd app\nmake clean\n" + t.random.choice(before) + "rm -rf dist",
              "echo " + " ".join(f"step{n}" for n in range(1, 12001)) + " && rm -rf build",
              "echo " + " ".join(f"step{n}" for n in range(1, 110001)) + " && rm -rf build",
              "echo step\n" * t.random.randint(10_001, 20_000) + "rm -rf build"]
    t.expect([command if len(command) < 200 else f"{command[:40]}... ({len(command)} characters)"
              for command in later
              if harness.deny_destructive("bash", {"command": command}) is None], [],
             "deny_destructive refuses every bash command that contains rm -rf, wherever it "
             "stands, not only one that starts with it, inside double quotes as much as single "
             "ones (sh -c \"rm -rf build\": the shell runs what the quotes hold), after a # on "
             "its line, in a comment or not (a # inside a word such as a#b starts none), and "
             "not only where rm stands as a word "
             "of its own (confirm -rf holds it, rm ending a longer word) or -rf ends one "
             "(rm -rfv), on the fourth line of the command too, and after 100,000 characters of it, "
             "or after 1,000,000 (the whole command is looked at, however long), after more "
             "than 10,000 lines, and in a command "
             "that is text of a str subclass of its own (it is text, so it is looked inside): "
             "the text rm -rf is in each of these commands, and they got through "
             "(deny_destructive, Build item 2: \"A bash call whose command contains `rm -rf`, "
             "wherever it stands, gets a reason\", lesson 14).")
    own = [harness.deny_destructive("bash", Arguments(command="rm -rf build")),
           harness.deny_destructive(Text("bash"), {"command": "rm -rf build"}),
           harness.deny_destructive(Text("bash"), Arguments(command="rm -rf dist"))]
    t.expect([given is None for given in own], [False, False, False],
             "A bash call is a bash call in objects of a kind of its own: arguments in a dict "
             "subclass (an OrderedDict, or a library's own mapping, is a dict) whose command "
             "holds rm -rf get a reason, and so does a call whose name is bash as text of a str "
             "subclass (a str all the same, equal to bash). The items are whether "
             "deny_destructive gave None for [arguments of a dict subclass, a name of a str "
             "subclass, both] (deny_destructive, Build item 2: \"A bash call whose command "
             "contains `rm -rf`, wherever it stands, gets a reason\", lesson 14).")
    harmless = t.random.sample(["ls -la", "cat setup.py", "git status", "echo hello",
                                "pytest -q", "python -m build", "grep -n TODO src/app.py"], 3)
    harmless += ["cp -rf src backup", "grep -rf patterns.txt src", "rm -r build", "rm -R dist",
                 "rm -f build.log", "sudo make install"]
    t.expect([[command, harness.deny_destructive("bash", {"command": command})]
              for command in harmless],
             [[command, None] for command in harmless],
             "Every bash command that does not contain rm -rf gets None, -rf of another "
             "command included: cp -rf copies, and grep -rf reads patterns from a file; and "
             "rm -r build, which is not rm -rf in another spelling (it has no -f), gets None "
             "too: the lesson's own run puts it to the person; so does rm -f build.log (no -r) "
             "and sudo make install: deny_destructive refuses rm -rf, not whatever else looks "
             "risky. Each item is [the command, what deny_destructive gave] (deny_destructive, "
             "Build item 2: \"Every other call gets `None`\", lesson 14).")
    t.expect([harness.deny_destructive("write", {"path": "notes.md", "content": "rm -rf build"}),
              harness.deny_destructive("explain", {"command": "rm -rf build"}),
              harness.deny_destructive("sh", {"command": "rm -rf build"}),
              harness.deny_destructive("shell", {"command": "rm -rf build"}),
              harness.deny_destructive("run_bash", {"command": "rm -rf build"}),
              harness.deny_destructive("Bash", {"command": "rm -rf build"}),
              harness.deny_destructive("bash ", {"command": "rm -rf build"}),
              harness.deny_destructive("bash2", {"command": "rm -rf build"}),
              harness.deny_destructive("bash_v2", {"command": "rm -rf build"})],
             [None, None, None, None, None, None, None, None, None],
             "Other tools get through, even a write whose content holds rm -rf and an explain "
             "tool (it says what a command would do, and runs nothing) whose command is "
             "rm -rf build: the door is for bash commands, so it looks at the tool's name "
             "first, and the name bash only, not sh or shell, nor a name that holds bash "
             "(run_bash), nor bash in other letters or with a space (Bash, \"bash \"), nor a "
             "name that starts with bash (bash2, bash_v2): a "
             "name is a tool's, exactly. The items are [for the write, for the explain, for "
             "sh, for shell, for run_bash, for Bash, for \"bash \", for bash2, for bash_v2] "
             "(deny_destructive, Build "
             "item 2: \"Every other call gets `None`, other tools included\", lesson 14).")
    odd = [{"command": "git log", "why": "to see who ran rm -rf last"}, {"command": 7},
           {"command": None}, {}, {"command": ["rm -rf", "build"]},
           {"command": {"argv": "rm -rf build"}}, {"command": b"rm -rf build"},
           {"command": bytearray(b"rm -rf build")}, {"command": memoryview(b"rm -rf build")}]
    odd += [{"command": "git log", key: "rm -rf build"}
            for key in ["cwd", "script", "args", "stdin", "then", "note"]]
    t.expect([[arguments, said(harness.deny_destructive, "bash", arguments)]
              for arguments in odd],
             [[arguments, None] for arguments in odd],
             "A bash call is refused only when its command holds rm -rf: not for another "
             "argument that mentions it (why, cwd, script, args, stdin, then, note), and not for "
             "a command that is not text or is missing, which holds no rm -rf even when a list, "
             "a dict, bytes, a bytearray or a memoryview of it do (the bash tool "
             "itself then says what is wrong), so "
             "deny_destructive gives None and does not raise. Each item is [the arguments of a "
             "bash call, what deny_destructive gave] (deny_destructive, lesson 14).")
    named = [harness.deny_destructive("bash", {"command": command})
             for command in t.random.sample(later, 3)]
    t.expect([isinstance(given, str) and "rm -rf" in given
              and len(given.replace("rm -rf", " ").split()) >= 4 for given in named],
             why="A reason names what it refuses, rm -rf, in a sentence of four words or more "
                 "besides rm -rf itself, so that the model knows which part of its command was "
                 "the trouble (Build item 2); what else it says is yours. Each item is whether "
                 "the reason for one refused command holds rm -rf and four words or more besides "
                 "(deny_destructive, lesson 14).")
    times = t.random.randint(10_001, 10_100)
    given = {harness.deny_destructive("bash", {"command": "rm -rf build"}) for _ in range(times)}
    t.expect(sorted(repr(one) for one in given if not (
                 isinstance(one, str) and "rm -rf" in one
                 and len(one.replace("rm -rf", " ").split()) >= 4)), [],
             f"Asked {times:,} times about rm -rf build, deny_destructive gives a reason of "
             "four words or more besides rm -rf every time, the last as the first: it keeps no "
             "count of what it refused, and no reason grows shorter once the model has heard "
             "it. The items are the reasons it gave that do not hold rm -rf and four words or "
             "more besides (deny_destructive, Build item 2: \"a sentence for the "
             "model, of four words or more besides `rm -rf` itself\", lesson 14).")
    ran = []
    tools = [harness.guard(shell_tool(ran), harness.deny_destructive)]
    found = [await answer(tools, bash_call("rm -rf build")),
             await answer(tools, bash_call(harmless[0], "c2"))]
    t.expect([found[0] == [BLOCKED + reason, True], found[1], ran],
             [True, ["done\n", False], [harmless[0]]],
             "Behind guard, rm -rf is blocked with that reason, and a harmless command runs "
             "(guard and deny_destructive, lesson 14).")


@lab_test("Only None lets a call through: a check that answers \"\", False, 0, [] or any "
          "other value but None (True, a dict, a list) refuses the call, however falsy the "
          "answer, its result that answer as str writes it after Tool call blocked: , exactly, "
          "however long, an answer that equals None without being None included, and the tool "
          "does not run. The door keeps no count of refusals.")
async def test_only_none_lets_a_call_through(t):
    answers = (["", False, 0, [], {}, 0.0, "not today", "  indented", "ends in a newline\n",
                "two lines\r\nfrom a Windows policy file", "\x1b[31mred\x1b[0m: not today",
                "a bell\x07, a backspace\x08 and a NUL\x00 from the policy service"] +
               [None] * t.random.randint(2, 4))
    t.random.shuffle(answers)
    ran, pending = [], list(answers)
    tools = [harness.guard(shell_tool(ran), lambda name, arguments: pending.pop(0))]
    commands = [f"echo {n}" for n in range(len(answers))]
    found = [await answer(tools, bash_call(command, f"c{n}"))
             for n, command in enumerate(commands)]
    t.expect(found, [["done\n", False] if given is None else [BLOCKED + str(given), True]
                     for given in answers],
             "A check's answer is None (go ahead) or a reason to refuse; any other answer is a "
             "reason, falsy or not, so the door asks `is not None`, not whether it is true. The "
             "reason is the check's answer as text, exactly, whatever its type: False reads "
             "False, and spaces or a newline at its ends stay, and so does a Windows line end "
             "(\\r\\n) inside it, not made \\n, and so do control characters in it (an "
             "escape sequence of a terminal's colours, a bell, a backspace, a NUL), not taken "
             "out. Each item is [content, is_error] "
             "for one call, the check's answers drawn in some order (guard, lesson 14).")
    # Through the same door: answers that are reasons though they look like something else,
    # then a None after more refusals than a door that counts them would allow.
    more = [True, {"command": "echo safe"}, ["too big", "not now"], BLOCKED + "already said",
            "the policy says: " + "; ".join(f"rule {n} forbids it" for n in range(1, 1001)),
            SaysItIsNone(), "None", b"no deploys on a Friday"]
    more += [t.random.choice(["not now", "ask the user", "outside the workspace"])
             for _ in range(100)]
    t.random.shuffle(more)
    more.append(None)
    pending.extend(more)
    commands += [f"echo {n}" for n in range(len(answers), len(answers) + len(more))]
    found = [await answer(tools, bash_call(command, f"c{n}"))
             for n, command in enumerate(commands[len(answers):], len(answers))]
    t.expect(found, [["done\n", False] if given is None else [BLOCKED + str(given), True]
                     for given in more],
             "Any answer but None is a reason, written after Tool call blocked: as str writes "
             "it, exactly: True (only confirm_with's person says yes with True), a dict (not "
             "new arguments for the tool), a list, a reason that already begins Tool call "
             "blocked: (the prefix comes again), one of over 20,000 characters (not cut), the "
             "text None (a string, not None), bytes (b'...' as str writes them, not decoded), "
             "and an answer that equals None without being "
             "None (only None itself lets a call through, so the door asks `is not None`, not "
             "`!= None`). And the door keeps no count: after more than a hundred refusals, a "
             "call the check answers None still runs. Each item "
             "is [content, is_error] for one call, the check's answers drawn in some order, "
             "None last (guard, lesson 14).")
    answers += more
    t.expect(ran, [command for command, given in zip(commands, answers) if given is None],
             "Only the calls whose check answered None ran (guard, lesson 14).")
    # A reason far longer than the one above: its length drawn, hundreds of thousands.
    huge = "the policy says no; " * t.random.randint(10_000, 50_000)
    door = harness.guard(shell_tool(ran), lambda name, arguments: huge)
    content, is_error = await answer([door], bash_call("make deploy"))
    t.expect([len(content), content == BLOCKED + huge, is_error], [len(BLOCKED + huge), True, True],
             f"A reason of {len(huge):,} characters comes after Tool call blocked: whole, not cut "
             "at any length: the reason is the check's answer, exactly, however long. The items "
             "are [the result's length, it is Tool call blocked: and the whole reason, "
             "is_error] (guard, Build item 1: \"the call raises `PermissionError` with the text "
             "`Tool call blocked: ` and the reason after it\", lesson 14).")
    # A door whose check refuses more than a thousand times in a row, then once more.
    asked, ran = [], []
    reason = t.random.choice(["not now", "ask the user", "outside the workspace"])

    def always_refuses(name, arguments):
        asked.append(name)
        return reason
    door = harness.guard(shell_tool(ran), always_refuses)
    times = t.random.randint(1001, 1010)
    found = [await refusal(door["execute"], {"command": "make deploy"}) for _ in range(times)]
    t.expect([sorted(set(map(tuple, found))), len(asked), ran],
             [[(True, f"PermissionError: {BLOCKED}{reason}")], times, []],
             f"A door whose check refuses every call refuses the last of {times} calls as the "
             "first, and asks its check each time: the door keeps no count of refusals, "
             "neither opening after many nor refusing unasked. The items are [each different "
             f"thing the guarded execute raised, as [a PermissionError?, its text], the times "
             f"the check was asked for {times} calls of make deploy, the commands that ran] "
             "(guard, Build item 1: \"Any other answer is the reason for a refusal\", "
             "lesson 14).")
    # A check that allows the same call over a thousand times, then refuses it.
    asked, ran = [], []
    allows = t.random.randint(1001, 1010)
    same = {"command": t.random.choice(["make test", "git status", "ls src"])}

    def allows_then_refuses(name, arguments):
        asked.append(arguments)
        return None if len(asked) <= allows else reason
    door = harness.guard(shell_tool(ran), allows_then_refuses)
    for n in range(allows):
        await settle(door["execute"](same if n % 2 else dict(same)))
    last = await refusal(door["execute"], dict(same))
    t.expect([last, len(asked), len(ran)],
             [[True, f"PermissionError: {BLOCKED}{reason}"], allows + 1, allows],
             f"A check that allowed the same call {allows} times in a row and then refuses it "
             "is asked about the next one too, and refuses it: the door remembers no answer, "
             "not after many yeses for the same arguments either, nor skips its check for a "
             "call it has let through before. The items are [what the last call raised, as [a "
             "PermissionError?, its text], the times the check was asked, the commands that "
             "ran] (guard, Build item 1: \"For each call, the check is asked once\", "
             "lesson 14).")
    # A check written with async def: calling it hands back an awaitable, which is not None.
    pending, ran = [], []

    async def later(name, arguments):
        return None

    def asks_later(name, arguments):
        pending.append(later(name, arguments))
        return pending[-1]
    door = harness.guard(shell_tool(ran), asks_later)
    content, is_error = await answer([door], bash_call("make deploy"))
    shown = [content == BLOCKED + str(pending[0]), is_error, ran]
    for waiting in pending:
        waiting.close()  # never awaited, by design: close it so Python does not warn
    t.expect(shown, [True, True, []],
             "A check is a plain function: what calling it returns is its answer, so a check "
             "written with async def, whose call hands back a coroutine (an awaitable that "
             "would give None), has not said None: the door does not await it, and the call is "
             "refused with the coroutine as its reason, as str writes it. The items are [the "
             "result is Tool call blocked: and the coroutine as str writes it, is_error, the "
             "commands that ran] (guard, Build item 1: \"A check is a plain function: what it "
             "returns when called is its answer, so one that hands back an awaitable has not "
             "said `None`\", lesson 14).")


@lab_test("confirm_with asks the person exactly Allow bash {\"command\": \"rm -r build\"}?, the "
          "arguments as json.dumps writes them (keys unsorted, non-ASCII escaped); an answer "
          "of True runs the tool, False gives Tool call blocked: the user said no. Every call "
          "is asked, a read or a call with no arguments too, and a long one in full; a call "
          "whose arguments json.dumps cannot write is refused unasked.")
async def test_confirm_with_asks_the_person(t):
    ran = []
    answers = [True, False] + [t.random.choice([True, False]) for _ in range(t.random.randint(0, 3))]
    t.random.shuffle(answers)
    commands = [t.random.choice(["rm -r build", "rm -r dist", "git clean -fd", "make reset"])
                for _ in answers]
    human = lab.Human(list(answers))
    tools = [harness.guard(shell_tool(ran), harness.confirm_with(human))]
    found = [await answer(tools, bash_call(c, f"c{n}")) for n, c in enumerate(commands)]
    t.expect(human.questions, [f'Allow bash {{"command": "{c}"}}?' for c in commands],
             "The question names the tool and its arguments as JSON (confirm_with, lesson 14).")
    t.expect([found, ran],
             [[["done\n", False] if yes else ["Tool call blocked: the user said no", True]
               for yes in answers], [c for c, yes in zip(commands, answers) if yes]],
             "True lets the call through; False refuses it. The items are [each call's "
             "[content, is_error], the commands that ran] (confirm_with, lesson 14).")
    person = lab.Human([False])
    said = harness.confirm_with(person)("write", {"path": "notes/r\u00e9sum\u00e9.md",
                                                  "content": "# Notes\n"})
    t.expect([person.questions, said],
             [['Allow write {"path": "notes/r\\u00e9sum\\u00e9.md", "content": "# Notes\\n"}?'],
              "the user said no"],
             "The arguments are written as json.dumps(arguments) writes them, with nothing "
             "added: keys in the call's order (path, then content), not sorted, and the "
             "\u00e9 of r\u00e9sum\u00e9 as the escape \\u00e9, not the letter. The items are "
             "[the questions the person was asked, what the check answered] (confirm_with, "
             "lesson 14).")
    person = lab.Human([True, True, False, True, True, True, True, False, False, True])
    check = harness.confirm_with(person)
    long = {"path": "setup.py", "content": "".join(f"line {n}\n" for n in range(1, 100001))}
    calls = [["read", {"path": ".env"}],
             [t.random.choice(["ReadFile", "WebFetch", "Grep"]), {"path": "docs"}],
             ["restart", {}], ["write", long],
             [t.random.choice(["bash ", " bash", "run  "]), {"command": "ls"}],
             [t.random.choice(["cafe\u0301", "re\u0301sume\u0301", "n\u0303"]), {"to": "Jose\u0301"}],
             ["score", {"ratio": float("nan"), "limit": t.random.choice([float("inf"),
                                                                         float("-inf")])}],
             ["bash", {"command": ""}],
             [t.random.choice(["read", "fetch"]), {key: None for key in t.random.sample(
                 ["path", "url", "since"], t.random.randint(1, 2))}],
             [t.random.choice(["\x1b[31mbash\x1b[0m", "deploy\x07", "run\x00"]), {"to": "prod"}]]
    answered = [check(name, arguments) for name, arguments in calls]

    def briefly(question, whole):
        """A question as the record keeps it: a long one as its length and whether it is whole."""
        return question if len(question) < 200 else [len(question), question == whole]
    wanted = [f"Allow {name} {json.dumps(arguments)}?" for name, arguments in calls]
    t.expect([answered, [briefly(question, whole)
                         for question, whole in zip(person.questions, wanted)]],
             [[None, None, "the user said no", None, None, None, None, "the user said no",
               "the user said no", None],
              [briefly(whole, whole) for whole in wanted]],
             "One question per call, whatever the call: a read asks too, a tool whose name has "
             "capitals is named as it is, capitals and all (the question is exact, character "
             "for character), and so is a name with spaces at its ends, not stripped, and one "
             "whose letters are written with combining accents, not normalised (NFC), a call "
             "holding NaN or infinity is asked with them as json.dumps writes them (NaN, "
             "Infinity), not refused, a call with no "
             "arguments asks Allow restart {}?, a bash call whose command is empty is asked "
             "too, not let through as one that does nothing, and so is a call whose arguments "
             "are all None, not refused unasked, and a tool name holding control characters "
             "(an escape sequence, a bell, a NUL) is put in the question as it is, not "
             "cleaned of them, since the question is exact, character for character; and a "
             "long call (its JSON over 1,000,000 "
             "characters) is asked in full, every character of its JSON, not cut, since the "
             "person allows only what they read. The items are [what the check answered for "
             "each call, the questions the person was asked, the long one as [its length, it "
             "is the whole question]] (confirm_with, Build item 3: \"The "
             "question reads `Allow`, the tool's name and the arguments as `json.dumps` writes "
             "them, then `?`\", lesson 14).")
    person, ran = lab.Human([True, True]), []
    odd = {"command": t.random.choice(["rm -r build", "make clean", "ls"]),
           "env": {t.random.choice(["CI", "DEBUG", "HOME"])}}  # a set: no JSON for it
    try:
        json.dumps(odd)
    except Exception as exc:
        cannot = str(exc)
    door = [harness.guard(shell_tool(ran), harness.confirm_with(person))]
    found = await answer(door, {"type": "toolCall", "id": "c9", "name": "bash", "arguments": odd})
    raw = {"command": odd["command"], "input": t.random.choice([b"y\n", b"\x00\x01", b"yes"])}
    try:
        json.dumps(raw)
    except Exception as exc:
        unwritten = str(exc)
    more = await answer(door, {"type": "toolCall", "id": "c10", "name": "bash",
                               "arguments": raw})  # bytes: no JSON for them either
    many = {key: f"{key} value" for key in t.random.sample(
        ["cwd", "shell", "timeout", "user", "note", "host", "log", "tag"], t.random.randint(6, 8))}
    many["env"] = {"CI", "HOME"}  # a set among many keys
    try:
        json.dumps(many)
    except Exception as exc:
        unwide = str(exc)
    wide = await answer(door, {"type": "toolCall", "id": "c11", "name": "bash",
                               "arguments": {"command": "make", **many}})
    t.expect([person.questions, found[0] in (BLOCKED + "the check failed: " + cannot,
                                             BLOCKED + "the user said no"), found[1],
              more[0] in (BLOCKED + "the check failed: " + unwritten,
                          BLOCKED + "the user said no"), more[1],
              wide[0] in (BLOCKED + "the check failed: " + unwide, BLOCKED + "the user said no"),
              wide[1], ran],
             [[], True, True, True, True, True, True, []],
             "Arguments json.dumps cannot write (a set among them) are never put to the person, "
             "who could not read them exactly: the call is refused, as a check that broke (the "
             "check failed: and what json.dumps raised) or with the user said no (Build item 3). "
             "Bytes are no more JSON than a set is: a call with bytes among its arguments is "
             "not put to the person either, its bytes decoded or not, and nor is a call of "
             f"{len(many) + 1} keys with a set among them, its set written some other way or "
             "not. The items are [the "
             "questions the person was asked, whether the call with a set has as its result "
             "one of those two refusals, is_error, the same for the call with bytes, the same "
             "for the call of many keys, the commands that ran] (confirm_with and "
             "guard, lesson 14).")


@lab_test("In a batch of guarded calls the person is asked once per call, in the order of "
          "the calls, and each answer decides its own call.")
async def test_one_question_per_call_in_order(t):
    ran = []
    commands = t.random.sample(["ls", "rm -r dist", "cat setup.py", "git stash", "make clean",
                                "pytest -q"], t.random.randint(3, 5))
    # and rm -rf: a call that holds it is asked once, like any other, not asked again
    commands.insert(t.random.randint(0, len(commands)), "rm -rf build")
    answers = [t.random.choice([True, False]) for _ in commands]
    # two calls again, one answered yes the first time and one no: neither is remembered
    yes, no = t.random.sample(range(len(commands)), 2)
    answers[yes], answers[no] = True, False
    for again in (commands[yes], commands[no]):
        at = t.random.randint(commands.index(again) + 1, len(commands))
        commands.insert(at, again)
        answers.insert(at, t.random.choice([True, False]))
    human = lab.Human(list(answers))
    model = lab.ScriptedModel([lab.reply(*[lab.call("bash", {"command": c}) for c in commands]),
                               lab.say("Done what I was allowed to.")])
    h = harness.Harness(model, SYSTEM, [harness.guard(shell_tool(ran), harness.confirm_with(human))])
    await lab.drive(h.prompt("Tidy up."))
    t.expect(human.questions, [f'Allow bash {{"command": "{c}"}}?' for c in commands],
             "One question per call, in call order, the same call asked again as often as it "
             "comes: a yes is for one call and is not remembered, and nor is a no, since the "
             "person may change their mind; and one question only, whatever the call holds: "
             "rm -rf build is asked once, as the others are, with no second question such as "
             "Are you sure? (confirm_with, Build item 3: \"puts one question to the person per "
             "call\", lesson 14).")
    calls = [f"c{n}" for n in range(1, len(commands) + 1)]
    t.expect([lab.shape(h.messages), [m["content"] for m in h.messages[2:2 + len(commands)]], ran],
             [f"U A[{','.join(calls)}] " + " ".join(f"R({c})" for c in calls) + " A",
              ["done\n" if yes else "Tool call blocked: the user said no" for yes in answers],
              [c for c, yes in zip(commands, answers) if yes]],
             "Each answer decides its own call; the items are [the record, each result's "
             "content, the commands that ran] (guard, lesson 14).")
    nos, yeses = t.random.randint(1001, 1005), t.random.randint(1001, 1005)
    person = lab.Human([False, False, True, True, True, False] + [False] * nos + [True] * yeses +
                       [False])
    check = harness.confirm_with(person)
    command = t.random.choice(["git clean -fd", "rm -r dist", "make reset"])
    same = {"command": command}  # the very same arguments dict, every time
    answered = [check("bash", same) for _ in range(6)]
    no = "the user said no"
    t.expect([answered, len(person.questions)], [[no, no, None, None, None, no], 6],
             f"The same call ({command}) six times is asked six times, and each answer decides "
             "its own call: not two nos, nor two or three yeses in a row, are remembered, so "
             "the person's no after three yeses still refuses, though the check was handed the "
             "very same arguments dict each time. The items are [what the check "
             "answered for each call, the person answering no, no, yes, yes, yes, no; the "
             "questions put] (confirm_with, Build item 3: \"puts one question to the person "
             "per call, through `human.ask`, the same call asked again as often as it comes\", "
             "lesson 14).")
    answered = []
    for n in range(nos + yeses + 1):
        answered.append(check("bash", same))
        if n % 200 == 199:
            await lab.tick()  # a turn now and then: waiting for a person is the student's
    runs = [[given, len(list(group))] for given, group in itertools.groupby(answered)]
    t.expect([runs, len(person.questions)], [[[no, nos], [None, yeses], [no, 1]],
                                             6 + nos + yeses + 1],
             f"Then the same call {nos + yeses + 1} times more, the person answering no "
             f"{nos} times in a row, then yes {yeses} times in a row, then no: each call is "
             "asked and each answer decides its own call, so a person who has said no a "
             "thousand times is still asked, and their yes lets the call through, and a "
             "person who has said yes a thousand times is still asked, and their no refuses: "
             "the check keeps no count of answers. The items are [the check's answers as runs "
             "of [answer, how many in a row]; the questions put "
             "in all] (confirm_with, Build item 3: \"puts one question to the person per call, "
             "through `human.ask`, the same call asked again as often as it comes\", lesson "
             "14).")
    person = lab.Human([True, True, True])
    check = harness.confirm_with(person)
    changing = {"command": t.random.choice(["ls", "git status", "cat setup.py"])}
    first = json.dumps(changing)
    check("bash", changing)
    changing["command"] = t.random.choice(["rm -r build", "git clean -fd", "make reset"])
    check("bash", changing)
    changing["dry_run"] = False
    check("bash", changing)
    t.expect(person.questions, [f"Allow bash {first}?",
                                f'Allow bash {{"command": "{changing["command"]}"}}?',
                                f"Allow bash {json.dumps(changing)}?"],
             "The same arguments dict, changed between calls (its command replaced, then a key "
             "added), is put to the person as it is now, each time: the question is the "
             "arguments as json.dumps writes them at that call, not a question kept from an "
             "earlier call for the same dict, so the person never allows a command other than "
             "the one that runs. The items are the questions put, in order (confirm_with, "
             "Build item 3: \"The question reads `Allow`, the tool's name and the arguments as "
             "`json.dumps` writes them, then `?`\", lesson 14).")


@lab_test("A PowerCut raised by the real tool, or by the check, passes straight through the "
          "guard: no refusal, no result; so does any other BaseException that is not an "
          "Exception, from the check or from the tool.")
async def test_a_power_cut_passes_through_the_guard(t):
    asked = []
    name = t.random.choice(["save", "write", "bash", "deploy"])
    why = t.random.choice(["the power went off", "the mains tripped", "the battery died"])

    def cut(arguments):
        raise lab.PowerCut(why)

    def check(name, arguments):
        asked.append(name)
        return None
    tools = [harness.guard(tool(name, cut), check)]
    found = await raised(lambda: harness.run_tool(tools, {"type": "toolCall", "id": "c1",
                                                          "name": name, "arguments": {}}))
    t.expect([found, asked], [f"PowerCut: {why}", [name]],
             "The door catches what the check raises, and nothing the tool raises; a power "
             "cut is the program ending (guard, lessons 4 and 14).")
    ran = []

    def cut_in_check(name, arguments):
        raise lab.PowerCut(why)
    tools = [harness.guard(tool(name, lambda arguments: ran.append(name) or "ran"),
                           cut_in_check)]
    found = await raised(lambda: harness.run_tool(tools, {"type": "toolCall", "id": "c1",
                                                          "name": name, "arguments": {}}))
    t.expect([found, ran], [f"PowerCut: {why}", []],
             "A power cut inside the check is not the check breaking but the program ending: it "
             "leaves as it came, no refusal made of it, and the tool does not run. The items "
             "are [what run_tool raised, the tools that ran] (guard, lessons 4 and 14).")

    def shut_in_check(name, arguments):
        raise Shutdown("the program is ending")
    tools = [harness.guard(tool(name, lambda arguments: ran.append(name) or "ran"),
                           shut_in_check)]
    found = await raised(lambda: harness.run_tool(tools, {"type": "toolCall", "id": "c1",
                                                          "name": name, "arguments": {}}))
    t.expect([found, ran], ["Shutdown: the program is ending", []],
             "Nor is any other BaseException that is not an Exception: the check raised "
             "Shutdown, a BaseException of this test's own, as KeyboardInterrupt (Ctrl-C) is. "
             "The door's try catches Exception and nothing wider, not BaseException with "
             "PowerCut let out by name. The items are [what run_tool raised, the tools that "
             "ran] (guard, lessons 4 and 14).")
    door = harness.guard(tool(name, lambda arguments: ran.append(name) or "ran"),
                         harness.confirm_with(CutOff(why)))
    t.expect([await raised(lambda: door["execute"]({})), ran], [f"PowerCut: {why}", []],
             "Nor is a power cut while confirm_with asks the person: human.ask raised PowerCut, "
             "and it leaves the check and the door as it came, not made the user said no, since "
             "the program is ending, not the person refusing. The items are [what the guarded "
             "execute raised, the tools that ran] (confirm_with and guard, Build item 1: \"a "
             "`PowerCut`, raised by the real tool or by the check, leaves the run\", lesson 14).")

    def exits_in_check(name, arguments):
        raise SystemExit(3)
    door = harness.guard(tool(name, lambda arguments: ran.append(name) or "ran"), exits_in_check)
    t.expect([await raised(lambda: door["execute"]({})), ran], ["SystemExit: 3", []],
             "Nor is a SystemExit from the check, what sys.exit(3) raises: it is no Exception "
             "but the program ending, and leaves the door as it came, not made a refusal. The "
             "items are [what the guarded execute raised, the tools that ran] (guard, lessons 4 "
             "and 14, figure 14.1: anything wider than Exception passes every wall).")

    def interrupted_in_check(name, arguments):
        raise KeyboardInterrupt("Ctrl-C")
    door = harness.guard(tool(name, lambda arguments: ran.append(name) or "ran"),
                         interrupted_in_check)
    t.expect([await raised(lambda: door["execute"]({})), ran], ["KeyboardInterrupt: Ctrl-C", []],
             "Nor is a KeyboardInterrupt (Ctrl-C) from the check: the person at the keyboard "
             "ending the program is not the check breaking, and it leaves the door as it came, "
             "not made a refusal with the run going on; the door's try catches Exception and "
             "nothing wider, not Exception with Ctrl-C added by name. The items are [what the "
             "guarded execute raised, the tools that ran] (guard, Build item 1: \"a `PowerCut`, "
             "raised by the real tool or by the check, leaves the run\", lesson 14, figure "
             "14.1: anything wider than Exception passes every wall).")

    def cancelled_in_check(name, arguments):
        raise asyncio.CancelledError("the run was stopped")
    door = harness.guard(tool(name, lambda arguments: ran.append(name) or "ran"),
                         cancelled_in_check)
    try:
        await settle(door["execute"]({}))
        left = "nothing: the guarded execute returned"
    except asyncio.CancelledError as exc:
        left = f"CancelledError: {exc}"
    except Exception as exc:
        left = f"{type(exc).__name__}: {exc}"
    t.expect([left, ran], ["CancelledError: the run was stopped", []],
             "Nor is an asyncio.CancelledError from the check (a run being stopped, as "
             "lesson 15's Stop does): it is a BaseException, not an Exception, and leaves the "
             "door as it came, not made a refusal; the door's try catches Exception and "
             "nothing wider, not Exception with CancelledError or GeneratorExit added by name. "
             "The items are [what the guarded execute raised, the tools that ran] (guard, "
             "lessons 4 and 14, figure 14.1: anything wider than Exception passes every wall).")
    group = BaseExceptionGroup(t.random.choice(["the run's tasks ended", "2 tasks stopped"]),
                               [KeyboardInterrupt("Ctrl-C"), lab.PowerCut(why)])
    endings = [GeneratorExit("the run's generator was closed"), group]

    def ending_with(ending):
        def ends(name, arguments):
            raise ending
        return harness.guard(tool(name, lambda arguments: ran.append(name) or "ran"), ends)
    doors = [ending_with(ending) for ending in endings]
    left = [await raised(lambda door=door: door["execute"]({})) for door in doors]
    t.expect([left, ran], [[f"GeneratorExit: {endings[0]}", f"BaseExceptionGroup: {group}"], []],
             "Nor is a GeneratorExit from the check (what closing a generator raises in it), "
             "nor a BaseExceptionGroup (a group of endings, here a Ctrl-C and a power cut, as "
             "a task group raises them): neither is an Exception, and each leaves the door as "
             "it came, not made a refusal; the door's try catches Exception and nothing wider, "
             "not Exception with GeneratorExit or BaseExceptionGroup added by name. The items "
             "are [what the guarded execute raised for each, the tools that ran] (guard, "
             "Build item 1: \"a `PowerCut`, raised by the real tool or by the check, leaves "
             "the run\", lessons 4 and 14, figure 14.1: anything wider than Exception passes "
             "every wall).")

    def interrupted(arguments):
        raise KeyboardInterrupt("Ctrl-C")
    door = harness.guard(tool(name, interrupted), check)
    t.expect(await raised(lambda: door["execute"]({})), "KeyboardInterrupt: Ctrl-C",
             "Nor is anything wider than Exception that the real tool raises: a "
             "KeyboardInterrupt (Ctrl-C) from the tool leaves the door as it came, not made a "
             "refusal, since what the real tool raises is never the door's. The item is what "
             "the guarded execute raised (guard, lessons 4 and 14).")


@lab_test("With one guard inside another, the outer check is asked first, and either check can "
          "refuse.")
async def test_nested_guards(t):
    ran, asked = [], []

    def named(label, refuse_when):
        def check(name, arguments):
            asked.append(label)
            return f"{label} says no" if refuse_when in arguments["command"] else None
        return check
    tools = [harness.guard(harness.guard(shell_tool(ran), named("inner", "push")),
                           named("outer", "rm"))]
    commands = ["ls", "rm a", "git push"] + [t.random.choice(
        ["ls", "rm a", "git push", "rm -r x", "git push -f", "cat y", "rm && git push"])
        for _ in range(t.random.randint(0, 4))]
    t.random.shuffle(commands)
    found = [await answer(tools, bash_call(c, f"c{n}")) for n, c in enumerate(commands)]
    t.expect(found, [["Tool call blocked: outer says no", True] if "rm" in c else
                     ["Tool call blocked: inner says no", True] if "push" in c else
                     ["done\n", False] for c in commands],
             "Either door can refuse, and the refusal names the door that refused. To the "
             "outer door the inner one is the real tool, called outside the outer door's try, "
             "so the inner refusal comes back unchanged. Each item is [content, is_error] for "
             "one call (guard, lesson 14).")
    t.expect([asked, ran],
             [sum([["outer"] if "rm" in c else ["outer", "inner"] for c in commands], []),
              [c for c in commands if "rm" not in c and "push" not in c]],
             "The outer check goes first; a refusal there means the inner one is never asked. "
             "The items are [the checks asked, in order, the commands that ran] (guard, "
             "lesson 14).")


@lab_test("When the real tool behind a guard raises ValueError, or any other error of its own "
          "(TypeError, RuntimeError, KeyError), the result is the tool's own message, not a "
          "refusal, and the exception leaves the door with its own type.")
async def test_the_tools_own_failure_is_not_a_refusal(t):
    kind, text = t.random.choice([(ValueError, "command must be a string"),
                                  (TypeError, "command is not text"),
                                  (FileNotFoundError, "no such directory: build"),
                                  (ValueError, "empty command")])

    def picky(arguments):
        raise kind(text)
    tools = [harness.guard(tool("bash", picky, COMMAND), allow_all)]
    t.expect(await answer(tools, {"type": "toolCall", "id": "c1", "name": "bash",
                                  "arguments": {"command": t.random.choice([7, None, ""])}}),
             [text, True],
             "The real tool is called outside the door's try: its failure is its own, and "
             "run_tool reports it (guard, lessons 4 and 14).")
    found = []
    owns = [ValueError("empty command"), TypeError("command is not text"),
            FileNotFoundError("no such directory: build"), RuntimeError("the build server is busy"),
            KeyError("main"), IndexError("list index out of range"),
            PermissionError("build/ is read-only")]
    for own in owns:
        def failing(arguments, own=own):
            raise own
        door = harness.guard(tool("bash", failing, COMMAND), allow_all)
        found.append(await refusal(door["execute"], {"command": "make"}))
    t.expect(found, [[isinstance(own, PermissionError), f"{type(own).__name__}: {own}"]
                     for own in owns],
             "Called directly, the guarded execute raises the real tool's own exception, its "
             "type unchanged, whatever it is (a TypeError, a RuntimeError or a KeyError as "
             "much as a ValueError), a PermissionError of the tool's own included: the door "
             "neither wraps it in another kind nor adds Tool call blocked: to it. Each item is "
             "[it raised a PermissionError, what it raised] for one tool: ValueError, "
             "TypeError, FileNotFoundError, RuntimeError, KeyError, IndexError, PermissionError "
             "(guard, lesson 14).")
    own = t.random.choice(owns)
    cause = OSError(t.random.choice(["the disk is full", "build/ is read-only"]))

    def failing(arguments):
        raise own from cause  # a failure with a cause of its own, as a tool's often has
    door = harness.guard(tool("bash", failing, COMMAND), allow_all)
    try:
        await settle(door["execute"]({"command": "make"}))
        came = "nothing: the guarded execute returned"
    except Exception as exc:
        came = "the very exception the tool raised" if exc is own else (
            f"another exception, {type(exc).__name__}: {exc}, made by the door")
        if exc is own and (exc.__cause__ is not cause or getattr(exc, "__notes__", None)):
            came = (f"the tool's exception, its cause now {exc.__cause__!r} and its notes "
                    f"{getattr(exc, '__notes__', None)!r}: changed by the door")
    t.expect(came, "the very exception the tool raised",
             f"What leaves the door is the very exception the tool raised ({type(own).__name__}: "
             f"{own}), not a copy of it rebuilt with the same type and text, and unchanged: "
             f"its cause ({cause!r}) kept, not cut off with raise ... from None, and no note "
             "added to it: the tool's failure "
             "is the call's own, unchanged, its traceback and cause included. The value is what "
             "the guarded execute raised (guard, Build item 1: \"its result, or its failure, "
             "is then the call's own, unchanged\", lesson 14).")


@lab_test("confirm_with takes only True for a yes: answers such as \"yes\" and 1 (which == "
          "True) refuse the call, and so does a person who cannot be asked, with a reason; the "
          "person is asked again about the next call.")
async def test_only_true_is_yes(t):
    ran = []
    answers = [1, "True", "y", bool_(), "always"] + t.random.sample(["yes", "Y", 1.0, [True],
                                                                      "ok", "yes to all"], 2)
    answers += [True] * t.random.randint(1, 2)
    t.random.shuffle(answers)
    human = lab.Human(list(answers))
    tools = [harness.guard(shell_tool(ran), harness.confirm_with(human))]
    found = [await answer(tools, bash_call(f"rm -r out{n}", f"c{n}"))
             for n in range(1, len(answers) + 1)]
    t.expect(found, [["done\n", False] if given is True else
                     ["Tool call blocked: the user said no", True] for given in answers],
             "What is not a clear True, True itself, is a no, even 1, which == True, and the "
             "text \"True\", and a true value of another kind (a bool_ as numpy has, true "
             "and == True), and always (no answer is a yes for this call, still less for "
             "later ones: the next call is asked again), and y: a door fails closed, so "
             "confirm_with asks `is True`. Each item is [content, is_error] "
             "for one call, the person's answers drawn in some order (confirm_with, "
             "lesson 14).")
    t.expect([len(human.questions), ran],
             [len(answers), [f"rm -r out{n}" for n, given in enumerate(answers, 1)
                             if given is True]],
             "Only the calls answered True ran (confirm_with, lesson 14).")
    either = [BLOCKED + "the user said no", BLOCKED + "the check failed: the frontend has closed"]
    for error in (ConnectionError, TimeoutError):
        ran = []
        door = harness.guard(shell_tool(ran), harness.confirm_with(Unreachable(error)))
        content, is_error = await answer([door], bash_call("rm -r build"))
        t.expect([content in either, is_error, ran], [True, True, []],
                 "A person who cannot be asked has not said yes: when human.ask raises "
                 f"{error.__name__} (the frontend is gone), the call is refused with a reason, "
                 "either the user said no or the check failed: and what ask raised, never an "
                 "empty one or one of the check's own, and the tool does not run. A TimeoutError "
                 "from ask is the person's failure, not a wait the check gave up on. The items "
                 f"are [the result is one of {either}, is_error, the commands that ran]; the "
                 f"result was {content!r} (confirm_with, lesson 14).")
    ran = []
    door = harness.guard(shell_tool(ran), harness.confirm_with(Dropped()))
    first = await answer([door], bash_call("make status", "c1"))
    content, is_error = await answer([door], bash_call("rm -r build", "c2"))
    t.expect([first, content in either, is_error, ran],
             [["done\n", False], True, True, ["make status"]],
             "Nor has a person who said yes before and cannot be asked now: their True let the "
             "first call run, then human.ask raised (the frontend closed), and the second call "
             "is refused with a reason, not let through on the yes they gave before, since a "
             "yes is for one call. The items are [the first call's [content, is_error], the "
             f"second call's result is one of {either}, its is_error, the commands that ran]; "
             f"the second result was {content!r} (confirm_with, Build item 3: \"lets the call "
             "through only on a clear yes\", lesson 14).")
    ran = []
    door = harness.guard(shell_tool(ran), harness.confirm_with(Frontless()))
    content, is_error = await answer([door], bash_call("rm -r build"))
    t.expect([content.startswith(BLOCKED) and len(content) > len(BLOCKED), is_error, ran],
             [True, True, []],
             "Nor has a person with no way to be asked at all: the human handed to "
             "confirm_with has no ask (no frontend was ever attached), so no question was put "
             "and no yes given, and the call is refused with a reason, never let through, and "
             "the tool does not run. The items are [the result is Tool call blocked: and a "
             f"reason, is_error, the commands that ran]; the result was {content!r} "
             "(confirm_with, Build item 3: \"lets the call through only on a clear yes\", "
             "lesson 14).")
    ran = []
    person = Reconnecting([True])
    door = harness.guard(shell_tool(ran), harness.confirm_with(person))
    found = [await answer([door], bash_call("make reset", "c1")),
             await answer([door], bash_call("make reset", "c2"))]
    t.expect([found[1], len(person.questions), ran], [["done\n", False], 2, ["make reset"]],
             "One question per call, the same call asked again as often as it comes: a person "
             "who could not be asked once (ask raised ConnectionError) is asked about the next "
             "call, and their True lets it run. The items are [the second call's [content, "
             "is_error], the questions put, the commands that ran] (confirm_with, lesson 14).")
