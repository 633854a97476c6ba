"""Lab 14.1's grading bank: scenarios for each rule of its ledger (source/lessons/14-door/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario reaches its rule through another door than the public tests: a session whose
model sends one batch of calls a check answers in every way a check can, seen in the workspace
the real write tool wrote to; a frontend that calls the door itself and sorts what comes out
of it by type; a run of several shells behind deny_destructive; deny_destructive inside a
check of the caller's own, seen through the questions a person is then asked; a person who
reads each question and answers only the one they understand. So the public tests' wanted
expressions, evaluated in a bank test's frame, do not give its values.
"""
import asyncio
import itertools
import json

import harness
import lab
from lab.kit import hours_pass, lab_test, raised, settle, tool

LAB = "14.1"
SYSTEM = "You keep a small team's repository in order."
BLOCKED = "Tool call blocked: "
FAILED = "Tool call blocked: the check failed: "
NO = "Tool call blocked: the user said no"
FILES = ["notes", "plan", "todo", "draft", "report", "log", "index", "summary", "agenda",
         "ideas", "minutes", "budget", "roster", "errata", "digest", "outline", "memo"]


class RuleError(Exception):
    """A check's own kind of error, named in no list of Python's built-in ones."""


class Unanswered:
    """A check's answer that says it equals None, as a sentinel or a test double may: it is not
    None itself, so it is a reason."""

    def __eq__(self, other):
        return other is None

    __hash__ = object.__hash__

    def __str__(self):
        return "the rules service sent nothing back"


class Shell(str):
    """A command as text of a kind of its own: a str all the same."""


class bool_:  # noqa: N801 (named as numpy names its own)
    """A true value of a kind that is not bool, as numpy's bool_ is: equal to True, not True."""

    def __bool__(self):
        return True

    def __eq__(self, other):
        return other is True or isinstance(other, bool_)

    __hash__ = object.__hash__

    def __repr__(self):
        return "True"


class Dark:
    """A person whose frontend loses its power while the question is put."""

    def ask(self, question):
        raise lab.PowerCut("the lights went out")


class Hangup(BaseException):
    """The program ending another way than PowerCut: a BaseException of the bank's own, not an
    Exception."""


def recording(name, ran, output=None):
    """A tool `name` that notes each call's arguments in `ran` and prints a line naming them,
    or `output` when given."""
    def fn(arguments):
        ran.append([name, arguments])
        return f"{name} did {json.dumps(arguments)}\n" if output is None else output
    return tool(name, fn, description=f"The {name} tool.")


async def knock(door, arguments):
    """What a frontend that calls a door's execute itself finds, sorted by type: ["ran",
    output], ["refused", text] for a PermissionError, ["raised", "Type: text"] for another
    Exception, ["left", "Type: text"] for anything wider (the program ending)."""
    try:
        return ["ran", await settle(door["execute"](arguments))]
    except asyncio.CancelledError:
        raise
    except PermissionError as exc:  # a subclass of PermissionError is one (round 30's ruling)
        return ["refused", str(exc)]
    except Exception as exc:
        return ["raised", f"{type(exc).__name__}: {exc}"]
    except BaseException as exc:  # lab.PowerCut, KeyboardInterrupt, Hangup: the program ending
        return ["left", f"{type(exc).__name__}: {exc}"]


def results(messages):
    return [[m["content"], m["is_error"]] for m in messages if m["role"] == "toolResult"]


def refusals(t):
    """Answers of a check that are reasons, however they look, each with the refusal text it
    gives: falsy ones, True, a dict, a list, text with spaces at its ends, text that already
    says Tool call blocked:, text of over 200 characters; then checks that break, a
    PermissionError and an error of several lines among them."""
    long = "the policy says: " + "; ".join(f"clause {n} forbids it"
                                           for n in range(1, t.random.randint(16, 22)))
    said = ["", False, 0, [], True, {"path": "elsewhere.txt", "content": "moved"},
            ["not here", "not now"], f"  {t.random.choice(FILES)} is frozen\r\nby ops\r\n",
            BLOCKED + "said before", long, f"{t.random.choice(FILES)} is frozen".encode()]
    broke = [KeyError(t.random.choice(FILES)), AttributeError("'NoneType' has no 'get'"),
             RuleError(f"no rule for {t.random.choice(FILES)}\n  in policy.toml, line "
                       f"{t.random.randint(2, 90)}\n  ^"),
             PermissionError(f"{t.random.choice(FILES)} is not on the list"),
             RuleError("no rule matched\n" * t.random.randint(55_000, 90_000))]
    return [("say", value, BLOCKED + str(value)) for value in said] + \
        [("raise", exc, FAILED + str(exc)) for exc in broke]


# --- rule 1: guard(tool, check) ---------------------------------------------------------------

@lab_test("A model sends one batch of writes, each through a door whose check answers it in its "
          "own way; the workspace holds only the files of the calls answered None, each refusal "
          "is an error result whose text is Tool call blocked: and the answer, every other "
          "call's result is the tool's own, and a power cut in the check ends the next run.")
async def test_bank_a_batch_of_writes_behind_one_door(t):
    ws, asked, noted = lab.Workspace({"shared/keep.txt": "kept\n"}), [], []
    plan = {}

    def check(who, what):  # a check names its parameters as it likes
        asked.append(what)
        how, value, _ = plan[what.get("path", "quiet")]
        if how == "raise":
            raise value
        return value
    write = harness.make_write_tool(ws)
    keys = sorted(write)
    refused = refusals(t)
    names = t.random.sample(FILES, len(refused) + 1)
    t.random.shuffle(refused)
    calls, wanted = [], []
    for name, (how, value, text) in zip(names, refused):
        plan[f"{name}.txt"] = (how, value, text)
        calls.append(lab.call("write", {"path": f"{name}.txt", "content": name}))
        wanted.append([text, True])
    late = [f"{name}.txt" for name in names[len(refused):]]
    for path in late:
        plan[path] = ("say", None, None)
        calls.append(lab.call("write", {"path": path, "content": "late\n"}))
        wanted.append([False, False])  # the write tool's own words, whatever they are
    plan["quiet"] = ("say", None, None)
    locked = f"{t.random.choice(FILES)}.lock is held by another process"
    for at, call, result in sorted([(t.random.randint(0, len(calls)), lab.call(
            "note", {"line": t.random.choice(FILES)}), ["", False]), (t.random.randint(
            0, len(calls)), lab.call("stamp", {"seal": "v1"}), [locked, True])],
            key=lambda row: -row[0]):
        calls.insert(at, call)
        wanted.insert(at, result)

    def note(arguments):
        noted.append(arguments is asked[-1])
        return ""

    def stamp(arguments):
        raise OSError(locked)
    tools = [harness.guard(write, check), harness.guard(tool("note", note), check),
             harness.guard(tool("stamp", stamp), check)]
    model = lab.ScriptedModel([lab.reply(*calls), lab.say("Some were refused.")])
    h = harness.Harness(model, SYSTEM, tools)
    await lab.drive(h.prompt("Write them all."))
    ids = ",".join(f"c{n}" for n in range(1, len(calls) + 1))
    said = [[content.startswith(BLOCKED) if call["name"] == "write" and call["arguments"][
        "path"] in late else content, is_error] for call, (content, is_error) in zip(
        [block for block in h.messages[1]["content"] if block.get("type") == "toolCall"],
        results(h.messages))]
    t.expect([lab.shape(h.messages), said, sorted(ws.files), len(asked), noted,
              [spec["name"] for spec in model.calls[0].tools], sorted(write) == keys],
             [f"U A[{ids}] " + " ".join(f"R(c{n})" for n in range(1, len(calls) + 1)) + " A",
              wanted, sorted(["shared/keep.txt"] + late), len(calls), [True],
              ["write", "note", "stamp"], True],
             "One batch: 16 writes whose check gave a reason (\"\", False, 0, [], True, a dict, a "
             "list, spaced text, text beginning Tool call blocked:, a long reason, bytes) or broke "
             "(KeyError, AttributeError, an error of the check's own of several lines, "
             "PermissionError, an error of tens of thousands of short lines), then writes it answered None, and, among them, a call of a tool "
             "that prints nothing and one of a tool that raises OSError. Items: "
             "[the record, each result's [content (for a write answered None, whether it begins "
             "Tool call blocked: ), is_error], the workspace's files, how often "
             "the check was asked, whether the quiet tool got the dict the check was shown, the "
             "tool names the model was sent, whether the write tool handed in kept its keys].")
    cut = lab.ScriptedModel([lab.reply(lab.call("write", {"path": "power.txt", "content": "x"})),
                             lab.say("Never sent.")])
    plan["power.txt"] = ("raise", lab.PowerCut("the mains tripped"), None)
    again = harness.Harness(cut, SYSTEM, tools)
    problem = await raised(lambda: lab.drive(again.prompt("One more.")))
    t.expect([problem, "power.txt" in ws.files, len(cut.calls)],
             ["PowerCut: the mains tripped", False, 1],
             "Then a run whose one write's check raised lab.PowerCut: the power cut leaves the "
             "run as it came (no refusal is made of it). Items: [what the run raised, whether "
             "power.txt was written, the requests made].")


@lab_test("A frontend calls a guarded tool's execute itself, call after call, and sorts what "
          "comes out by type: a refusal is a PermissionError whatever the check answered or "
          "raised, what the real tool returns or raises is its own, and a power cut or another "
          "ending from the check or the tool leaves the door as it came.")
async def test_bank_a_frontend_knocks_on_the_door_itself(t):
    asked, ran, now, during = [], [], {}, set()

    def check(name_of, args):  # a check names its parameters as it likes
        asked.append(args)
        during.add(tuple(sorted(plain)))  # the tool handed in, as the check finds it when asked
        how, value = now["check"]
        if how == "raise":
            raise value
        if how == "edit":  # a check that puts a default into the arguments, then answers None
            args.setdefault(value, t.random.choice(FILES))
            return None
        return value

    def act(arguments):
        ran.append(arguments)
        how, value = now["tool"] or ("say", "should not have run")
        if how == "raise":
            raise value
        return value
    name = t.random.choice(["deploy", "publish", "migrate", "sync"])
    plain = tool(name, act, description=f"The {name} tool.")
    plain["owner"] = t.random.choice(["ops", "release", "data"])
    plain["guidelines"] = [f"Say which {t.random.choice(FILES)} you {name}."]
    plain["parameters"] = {"type": "object", "properties": {"target": {"type": "string"}}}
    kept = json.dumps({key: value for key, value in plain.items() if key != "execute"})
    door = harness.guard(plain, check)
    text = f"{t.random.choice(FILES)} is missing"
    cases = [((how, value), None, ["refused", said]) for how, value, said in refusals(t)]
    huge = "the rules say: " + " ".join(f"{t.random.choice(FILES)} is frozen until step {n};"
                                        for n in range(1, t.random.randint(900, 1000)))
    deep = RuleError("".join(f"  from rules/{t.random.choice(FILES)}.toml, line {n}\n"
                             for n in range(1, t.random.randint(420, 480))))
    cases += [(("say", huge), None, ["refused", BLOCKED + huge]),
              (("say", Unanswered()), None, ["refused", BLOCKED + str(Unanswered())]),
              (("raise", deep), None, ["refused", FAILED + str(deep)]),
              (("say", "None"), None, ["refused", BLOCKED + "None"]),
              (("raise", RuleError()), None, ["refused", FAILED])]
    cases += [(("say", word), None, ["refused", BLOCKED + word]) for word in
              t.random.choices(["wait for review", "not on a Friday", "ask ops first"], k=110)]
    cases += [(("raise", RuleError(word)), None, ["refused", FAILED + word]) for word in
              t.random.choices(["rules.toml is locked", "no rule matched", "bad glob"], k=25)]
    odd_kinds = [NotImplementedError("rules for deploys are not written yet"),
                 TimeoutError("the rules service took too long"),
                 t.random.choice([RecursionError("rules nest too deep"),
                                  ConnectionResetError("the rules service hung up"),
                                  FloatingPointError("score overflow")])]
    cases += [(("raise", exc), None, ["refused", FAILED + str(exc)]) for exc in odd_kinds]
    code = t.random.randint(1, 9)
    cases.append((("raise", SystemExit(code)), None, ["left", f"SystemExit: {code}"]))
    windows = RuleError(f"rules.toml, line {t.random.randint(2, 90)}:\r\n  no rule for "
                        f"{t.random.choice(FILES)}\r\n")
    coloured = (f"\x1b[1m{t.random.choice(FILES)}\x1b[0m is frozen\x07; "
                f"{t.random.choice(FILES)}\x08 too\x00")
    group = BaseExceptionGroup("the session's tasks ended",
                               [Hangup("the session is closing"), KeyboardInterrupt("Ctrl-C")])
    cases += [(("raise", windows), None, ["refused", FAILED + str(windows)]),
              (("say", coloured), None, ["refused", BLOCKED + coloured]),
              (("raise", GeneratorExit("the run's generator was closed")), None,
               ["left", "GeneratorExit: the run's generator was closed"]),
              (("raise", group), None, ["left", f"BaseExceptionGroup: {group}"]),
              (("edit", "region"), ("say", "synced with a region"),
               ["ran", "synced with a region"])]
    for own in (RuntimeError(text), KeyError(t.random.choice(FILES)), TypeError(text),
                IndexError("list index out of range")):
        cases.append((("say", None), ("raise", own), ["raised", f"{type(own).__name__}: {own}"]))
    cases += [(("raise", lab.PowerCut("the battery died")), None,
               ["left", "PowerCut: the battery died"]),
              (("raise", Hangup("the session is closing")), None,
               ["left", "Hangup: the session is closing"]),
              (("say", None), ("say", ""), ["ran", ""]),
              (("say", None), ("say", None), ["ran", None]),
              (("say", None), ("raise", ValueError(text)), ["raised", f"ValueError: {text}"]),
              (("say", None), ("raise", PermissionError(text)), ["refused", text]),
              (("say", None), ("raise", KeyboardInterrupt("Ctrl-C")),
               ["left", "KeyboardInterrupt: Ctrl-C"]),
              (("say", None), ("raise", lab.PowerCut("the fuse blew")),
               ["left", "PowerCut: the fuse blew"])]
    rims = ["\u2003", " \t ", "\n\n", "\u3000", "\x1c", "\x85", "\r", "\u2028"]
    t.random.shuffle(rims)  # each kind of white space once at a start and once at an end
    for lead, end in zip(rims, rims[1:] + rims[:1]):
        padded = f"{lead}{name}ed {t.random.choice(FILES)}{end}"
        cases.append((("say", None), ("say", padded), ["ran", padded]))
    t.random.shuffle(cases)
    output = f"{name}ed {t.random.randint(2, 40)} items"
    cases.append((("say", None), ("say", output), ["ran", output]))  # after a dozen refusals
    found, given = [], []
    with hours_pass(60):  # the frontend's clock: each reading an hour after the one before
        for n, (step, action, _) in enumerate(cases):
            arguments = {"target": f"{t.random.choice(FILES)}-{n}", "dry_run": n % 2 == 0}
            given.append(arguments)
            now.update(check=step, tool=action)
            found.append(await knock(door, arguments))
    reached = [n for n, (step, action, _) in enumerate(cases) if action]
    crash = {"target": t.random.choice(FILES), "dry_run": True}
    now.update(check=("raise", KeyError("no rule")), tool=None)
    found += [await knock(door, crash) for _ in range(3)]
    reader = harness.guard(tool("read", act), check)
    now.update(check=("say", "secrets stay shut"), tool=None)
    found.append(await knock(reader, {"path": ".env"}))
    keys = ["description", "execute", "guidelines", "name", "owner", "parameters"]
    t.expect([door["name"], sorted(door), sorted(plain), found, len(asked),
              [ran[k] is given[n] for k, n in enumerate(reached) if k < len(ran)],
              json.dumps({key: value for key, value in plain.items() if key != "execute"}) == kept,
              sorted(during)],
             [name, keys, keys,
              [wanted for _, _, wanted in cases] + [["refused", FAILED + "'no rule'"]] * 3 +
              [["refused", BLOCKED + "secrets stay shut"]], len(cases) + 4,
              [True] * len(reached), True, [tuple(keys)]],
             f"One door on a tool named {name}, with an extra key, called while each reading of "
             "the clock is an hour after the one before; each call's check answered a "
             "reason (\"\", False, 0, [], True, a dict, a list, spaced text, text beginning Tool "
             "call blocked:, a long reason, the text None), broke (KeyError, AttributeError, an "
             "error of its own of several lines, one with no text, PermissionError, one whose "
             "text has \\r\\n line ends), answered text holding control characters (an escape "
             "sequence, a bell, a backspace, a NUL), raised lab.PowerCut, Hangup, GeneratorExit or "
             "a BaseExceptionGroup of Hangup and KeyboardInterrupt (each a "
             "BaseException, not an Exception), put a region into the arguments and answered "
             "None, or answered None for a tool that printed "
             "nothing or returned None, raised ValueError, PermissionError, KeyboardInterrupt "
             "or PowerCut, or printed an output with white space at both ends (an em space, a "
             "tab, \\n\\n, an ideographic space, \\x1c, \\x85, \\r, a line separator), "
             "or, last, printed its output; a reason of over 20,000 characters, an "
             "answer that equals None without being None, a check's error of over four hundred "
             "lines, a hundred and ten more refusals, checks raising NotImplementedError, TimeoutError "
             "and one more kind of Exception, a check that raised SystemExit, and tools raising RuntimeError, "
             "KeyError, TypeError and IndexError among them; then one call made three times whose "
             "check raised KeyError each time, and a call of a tool named read behind the same "
             "check, which refused it. Items: [the door's name, its keys, the keys of the tool "
             "handed in afterwards, what the frontend found for each call, how often the check "
             "was asked, for each call that reached the tool whether it got the very dict the "
             "check was shown, whether every value of the tool handed in (its guidelines, its "
             "parameters) is as it was, the keys of the tool handed in as the check found them "
             "each time it was asked].")
    stopped, cause = [], OSError(f"{t.random.choice(FILES)} is on a full disk")
    own = RuntimeError(text)

    def stop(name_of, args):
        stopped.append(name_of)
        raise asyncio.CancelledError("the run was stopped")

    def broke(arguments):
        raise own from cause
    named = name.capitalize()  # a tool's name with a capital, handed to the check as it is
    for way in (harness.guard(tool(named, act), stop), harness.guard(tool(name, broke), check)):
        now.update(check=("say", None), tool=None)
        try:
            stopped.append(["ran", await settle(way["execute"]({"target": "x"}))])
        except asyncio.CancelledError as exc:
            stopped.append(["left", f"CancelledError: {exc}"])
        except Exception as exc:
            stopped.append(["raised", f"{type(exc).__name__}: {exc}", exc is own,
                            exc.__cause__ is cause, getattr(exc, "__notes__", None)])
    t.expect(stopped, [named, ["left", "CancelledError: the run was stopped"],
                       ["raised", f"RuntimeError: {text}", True, True, None]],
             f"Then a door on a tool named {named} whose check raises asyncio.CancelledError "
             "(a run stopped: a BaseException, not an Exception), and a door whose tool raises RuntimeError from "
             "an OSError. Items: [what came out of the first door, as left or refused and its "
             "text; what came out of the second, as its text, whether it is the tool's very "
             "exception, whether its cause is the tool's own, the notes it carries]; first, "
             "the name the first check was handed].")
    given = [{}, {"command": f"  sync {t.random.choice(FILES)} \n"}]
    kept = [dict(arguments) for arguments in given]
    own = LookupError(text)
    now.update(check=("say", None), tool=("say", "synced"))
    before = len(ran)
    found = [await knock(door, arguments) for arguments in given]
    now.update(check=("say", None), tool=("raise", own))
    try:
        await settle(door["execute"]({"target": "x"}))
        came = "nothing"
    except Exception as exc:
        came = "the tool's own" if exc is own else f"another: {type(exc).__name__}: {exc}"
    dark = harness.guard(tool(name, act), harness.confirm_with(Dark()))
    t.expect([found, [ran[before + n] is arguments for n, arguments in enumerate(given)],
              given, came, await knock(dark, {"target": "y"})],
             [[["ran", "synced"]] * 2, [True, True], kept, "the tool's own",
              ["left", "PowerCut: the lights went out"]],
             "Then the same door lets through an empty arguments dict and a command with spaces "
             "at its ends, and a tool raises LookupError behind it; then a door whose check is "
             "confirm_with, its person's frontend losing its power while asked. Items: [what "
             "the frontend found for the two calls, whether the tool got each very dict, the "
             "two dicts afterwards, whether what left the door was the very exception the tool "
             "raised, what the frontend found at the second door].")
    later, ran = [], []

    async def deferred(name, arguments):
        return None

    def hands_back(name, arguments):
        later.append(deferred(name, arguments))
        return later[-1]
    found = await knock(harness.guard(recording(name, ran), hands_back), {"target": "z"})
    shown_as = found == ["refused", BLOCKED + str(later[0])]
    for waiting in later:
        waiting.close()  # never awaited, as the door must not: close it so Python does not warn
    times, asked = t.random.randint(1020, 1040), []
    reason = f"{t.random.choice(FILES)} is frozen"
    stubborn = harness.guard(recording(name, ran),
                             lambda name, arguments: asked.append(name) or reason)
    same = {"target": t.random.choice(FILES)}
    knocked = [tuple(await knock(stubborn, same)) for _ in range(times)]

    def interrupts(name, arguments):
        raise KeyboardInterrupt("Ctrl-C at the keyboard")
    printed = f"{t.random.choice(FILES)}\r\nsynced\r\n\x00"
    t.expect([shown_as, sorted(set(knocked)), len(asked), ran,
              await knock(harness.guard(recording(name, ran), interrupts), {"target": "w"}),
              await knock(harness.guard(recording(name, [], printed),
                                        lambda name, arguments: None), {"target": "v"})],
             [True, [("refused", BLOCKED + reason)], times, [],
              ["left", "KeyboardInterrupt: Ctrl-C at the keyboard"], ["ran", printed]],
             f"Then a door whose check is an async def (its call hands back a coroutine that "
             f"would give None); a door whose check refuses {times} calls in a row, each with the "
             "very same arguments dict; a door whose check raises KeyboardInterrupt; and a "
             "door that lets by a tool printing \\r\\n line ends and a NUL. Items: [whether "
             "the first door refused with the coroutine as its reason, each different thing "
             "the frontend found at the second door, how often its check was asked, the calls "
             "that ran, what the frontend found at the third door, and at the fourth].")
    ran, asked = [], []
    bare = recording("lint", ran)
    keys = sorted(bare)
    odd = t.random.choice([["src", "tests"], "src tests", None])
    said = "no linting on a Friday; " * t.random.randint(9_000, 45_000)
    broke = RuntimeError("  rules/lint.toml could not be read\n" * t.random.randint(6_000, 30_000))
    answers = [None, said, broke]

    def by_turn(name, arguments):
        asked.append(arguments)
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer
    door = harness.guard(bare, by_turn)
    found = [await knock(door, odd) for _ in range(3)]
    t.expect([found[0], [given is odd for given in asked], ran, sorted(bare) == keys,
              [[how, len(text), text == wanted] for (how, text), wanted in
               zip(found[1:], [BLOCKED + said, FAILED + str(broke)])]],
             [["ran", f"lint did {json.dumps(odd)}\n"], [True] * 3, [["lint", odd]], True,
              [["refused", len(BLOCKED + said), True], ["refused", len(FAILED + str(broke)), True]]],
             f"Then a door on a tool with no guidelines, called three times with arguments "
             f"that are not a dict ({odd!r}); its check answers None, then a reason of "
             f"{len(said):,} characters, then raises an error of {len(str(broke)):,} "
             "characters. Items: [what the frontend found for the first call, for each call "
             "whether the check was shown those very arguments, the calls that ran, whether "
             "the tool handed in kept its keys, for the two refusals [what the frontend found, "
             "the length of its text, whether its text is the whole of Tool call blocked: and "
             "the reason]].")
    crashes, asked, ran = t.random.randint(1020, 1040), [], []

    def down(name_of, args):
        asked.append(args)
        raise RuleError("rules.toml is unreadable")
    door = harness.guard(recording(name, ran), down)
    seen = {tuple(await knock(door, {"target": f"{t.random.choice(FILES)}-{n}"}))
            for n in range(crashes)}
    allows, verdicts = t.random.randint(1020, 1040), []

    def until(name_of, args):
        verdicts.append(args)
        return None if len(verdicts) <= allows else "enough for today"
    door = harness.guard(recording(name, ran, "ok"), until)
    target = {"target": t.random.choice(FILES), "dry_run": False}
    for n in range(allows):
        await knock(door, target if n % 3 else dict(target))
    last = await knock(door, dict(target))
    objects = [t.random.randint(100, 999), {"synced": [1, 2]}, ("a", "b"), b"\x00raw"]
    outs, shown, got = list(objects), [], []
    door = harness.guard(tool(Shell(name), lambda arguments: got.append(arguments) or outs.pop(0)),
                         lambda name_of, args: shown.append([name_of, args]))  # answers None
    wide = {key: n for n, key in enumerate(t.random.sample(
        ["target", "dry_run", "owner", "tag", "region", "retries", "note", "env"],
        t.random.randint(5, 8)))}
    given = [wide, None, wide, None]
    came = [await settle(door["execute"](arguments)) for arguments in given]
    t.expect([sorted(seen), len(asked), last, len(verdicts),
              [one is sent for one, sent in zip(came, objects)],
              [args is sent for (_, args), sent in zip(shown, given)],
              [args is sent for args, sent in zip(got, given)],
              [type(name_of).__name__ for name_of, _ in shown]],
             [[("refused", FAILED + "rules.toml is unreadable")], crashes,
              ["refused", BLOCKED + "enough for today"], allows + 1, [True] * 4, [True] * 4,
              [True] * 4, ["Shell"] * 4],
             f"Then a frontend knocks {crashes} times on a door whose check breaks every time; "
             f"then {allows + 1} times with the same target on a door whose check allows it "
             f"{allows} times and then refuses; then on a door on a tool named {name} as a str "
             "of a kind of its own, which returns a number, a dict, a tuple and bytes, called "
             f"with arguments of {len(wide)} keys and with None, twice each. Items: [each "
             "different thing the first door gave, how often its check was asked, what the "
             "last knock on the second door found, how often its check was asked, for each "
             "result of the third door whether it is the very object the tool returned, "
             "whether its check was shown the very arguments, whether the tool got them, the "
             "kind of name its check was handed]].")


# --- rule 2: deny_destructive -----------------------------------------------------------------

def shown(arguments):
    """A call's arguments for a message, a command of over 200 characters cut to its first 40
    and its length."""
    command = arguments.get("command")
    if isinstance(command, str) and len(command) > 200:
        return {**arguments, "command": f"{command[:40]}... ({len(command)} characters)"}
    return arguments


def shell_calls(t):
    """Calls of bash and of other tools, each with whether deny_destructive must refuse it: rm -rf
    after other commands, glued to a ;, inside sh -c, in double quotes, after a # (in a word and
    in a comment), as rm -rfv; -rf of other commands; rm -rf
    in another argument (why, cwd, script and one more), or in the command of a tool not named bash (run_bash among them); a
    command that is not text, a list or a dict holding rm -rf among them; rm -rf on the fifth line
    of a script, after over 100,000 characters and after over a million, after over 10,000
    lines, at the end of a longer
    word, and in a str of a kind of its own; rm -r and rm -R, which are not rm -rf, nor are rm -f
    and sudo; bash spelt
    otherwise or with more after it (bash2), another tool."""
    target = t.random.choice(["build", "dist", "out", "cache", "tmp"])
    refused = [f"make clean && rm -rf {target}", f"ls;rm -rf {target}",
               f"echo go; sh -c 'rm -rf {target}'", f"rm -rfv {target} 2>/dev/null",
               f"cd {target} && rm -rf *", f"set -e\ncd {target}\nmake\nls\nrm -rf ./*",
               f'ssh ci "rm -rf /srv/{target}"', f'sh -c "cd /tmp && rm -rf {target}"',
               f"echo build#{t.random.randint(2, 99)}; rm -rf {target}",
               f"make  # then rm -rf {target} by hand",
               f"./confirm -rf {target}", Shell(f"rm -rf {target}"),
               "echo " + " ".join(f"{target}{n}" for n in range(t.random.randint(15000, 16000))) +
               f" | xargs rm -rf {target}"]
    let = [f"cp -rf src {target}", f"grep -rf words.txt {target}", "git status",
           f"rm -r {target}", f"rm -R {target}/old", f"rm -f {target}.log",
           t.random.choice(["sudo make install", "sudo apt-get update", "sudo ls /root"])]
    calls = [("bash", {"command": c}, True) for c in refused]
    calls += [("bash", {"command": c}, False) for c in let]
    calls += [("bash", {"command": "ls", "why": f"before rm -rf {target}"}, False),
              ("bash", {"command": t.random.choice([7, None, 2.5])}, False),
              ("bash", {"command": t.random.choice([[f"rm -rf {target}"],
                                                     {"line": f"rm -rf {target}"}])}, False),
              (t.random.choice(["sh", "shell"]), {"command": f"rm -rf {target}"}, False),
              (t.random.choice(["run_bash", "bash_script"]), {"command": f"rm -rf {target}"},
               False),
              (t.random.choice(["Bash", "BASH", "bash ", " bash"]),
               {"command": f"rm -rf {target}"}, False),
              (t.random.choice(["bash2", "bash_v2", "bashrc"]), {"command": f"rm -rf {target}"},
               False),
              ("bash", {"command": "echo " + " ".join(f"{target}{n}" for n in range(
                  t.random.randint(150000, 160000))) + f" | xargs rm -rf {target}"}, True),
              ("explain", {"command": f"rm -rf {target}"}, False),
              ("bash", {"command": f"echo {target}\n" * t.random.randint(11_000, 20_000) +
                        f"rm -rf {target}"}, True)]
    calls += [("bash", {"command": "git log", key: f"rm -rf {target}"}, False)
              for key in ["cwd", "script", t.random.choice(["args", "stdin", "then"])]]
    t.random.shuffle(calls)
    return calls


@lab_test("A model asks, in one batch, for bash, sh or shell and explain calls, each tool "
          "behind a door with deny_destructive: only the bash calls whose command holds rm -rf "
          "are refused, each with a reason of four words or more naming rm -rf, and every other "
          "call runs.")
async def test_bank_a_batch_of_shells_behind_deny_destructive(t):
    calls, ran = shell_calls(t), []
    calls.insert(t.random.randint(0, len(calls)), ("bash", {"command": b"rm -rf build"}, False))
    calls.insert(t.random.randint(0, len(calls)),
                 ("bash", {"command": bytearray(b"rm -rf dist")}, False))
    times = t.random.randint(10_050, 10_300)
    said = {harness.deny_destructive("bash", {"command": f"rm -rf {t.random.choice(FILES)}"})
            for _ in range(times)}
    short = sorted(repr(one) for one in said if not (isinstance(one, str) and "rm -rf" in one and
                                                     len(one.replace("rm -rf", " ").split()) >= 4))
    names = list(dict.fromkeys(name for name, _, _ in calls))
    tools = [harness.guard(recording(name, ran, "ran\n"), harness.deny_destructive)
             for name in names]
    model = lab.ScriptedModel([lab.reply(*[lab.call(name, arguments)
                                           for name, arguments, _ in calls]),
                               lab.say("Some were refused.")])
    h = harness.Harness(model, SYSTEM, tools)
    await lab.drive(h.prompt("Clean up."))
    found = [[content.startswith(BLOCKED), is_error,
              content.startswith(BLOCKED) and "rm -rf" in content[len(BLOCKED):]
              and len(content[len(BLOCKED):].replace("rm -rf", " ").split()) >= 4]
             for content, is_error in results(h.messages)]
    t.expect([lab.shape(h.messages).count("R("), found, ran, short],
             [len(calls), [[no, no, no] for _, _, no in calls],
              [[name, arguments] for name, arguments, no in calls if not no], []],
             f"First deny_destructive is asked {times:,} times about rm -rf of one file or "
             "another; then one batch of calls "
             f"{[[name, shown(arguments)] for name, arguments, _ in calls]}. "
             "Items: "
             "[the results on the record, for each call [its result begins Tool call blocked: , "
             "is_error, the reason after it names rm -rf and has four words or more besides], the "
             "calls "
             "that ran, in order, the reasons of the first asking that do not name rm -rf with "
             "four words or more besides].")


@lab_test("deny_destructive inside a check of the caller's own, which asks a person about "
          "every call it lets through: the person is asked about every call but the bash calls "
          "whose command holds rm -rf, in order, and those alone do not run.")
async def test_bank_a_person_hears_what_deny_destructive_let_through(t):
    calls, ran = shell_calls(t), []
    person = lab.Human([True] * (len(calls) + 1))
    confirm = harness.confirm_with(person)

    def both(name, arguments):  # the caller's own check: the rule first, then the person
        reason = harness.deny_destructive(name, arguments)
        return confirm(name, arguments) if reason is None else \
            ["denied", len(str(reason).replace("rm -rf", " ").split()) >= 4]
    names = list(dict.fromkeys(name for name, _, _ in calls))
    tools = [harness.guard(recording(name, ran), both) for name in names]
    found = []
    for n, (name, arguments, _) in enumerate(calls):
        result = await settle(harness.run_tool(tools, {"type": "toolCall", "id": f"k{n}",
                                                       "name": name, "arguments": arguments}))
        found.append(result["content"])
    target = t.random.choice(FILES)

    class Options(dict):
        """Arguments of a library's own mapping: a dict all the same."""
    own = harness.guard(recording(Shell("bash"), ran), both)  # its name a str of its own kind
    odd = [(own, {"command": f"make && rm -rf {target}"}, True),
           (harness.guard(recording("bash", ran), both),
            Options(command=f"cd /tmp; rm -rf {target}"), True),
           (own, Options(command=f"ls {target}"), False)]
    for n, (door, arguments, _) in enumerate(odd):
        result = await settle(harness.run_tool([door], {"type": "toolCall", "id": f"o{n}",
                                                        "name": "bash", "arguments": arguments}))
        found.append(result["content"])
    t.expect([person.questions, found],
             [[f"Allow {name} {json.dumps(arguments)}?" for name, arguments, no in calls
               if not no] + [f"Allow bash {json.dumps(odd[-1][1])}?"],
              [BLOCKED + "['denied', True]" if no else f"{name} did {json.dumps(arguments)}\n"
               for name, arguments, no in calls] +
              [BLOCKED + "['denied', True]"] * 2 + [f"bash did {json.dumps(odd[-1][1])}\n"]],
             f"Calls {[[name, arguments] for name, arguments, _ in calls]}, each behind a door "
             "whose check gives deny_destructive's reason, as ['denied', whether it has four "
             "words or more besides rm -rf], or else asks the person, who says True; then "
             "three more bash calls, one through a door on a tool named bash as a str of a "
             "kind of its own, one whose arguments are a dict of a kind of their own, and "
             "one with both, its command ls. Items: [the questions the "
             "person was asked, in order, each call's result].")


# --- rule 3: confirm_with(human) --------------------------------------------------------------

@lab_test("A model's batch of calls, each behind a door that asks one person: the person is "
          "asked about every call, in order, a read, a call with no arguments and a long one "
          "included, the same call again each time, and only a True lets one through; a "
          "person who cannot be asked refuses the next run's call.")
async def test_bank_a_person_at_the_frontend_during_a_run(t):
    ran = []
    long = {"path": f"{t.random.choice(FILES)}.md",
            "content": "".join(f"- item {n}\n" for n in range(1, t.random.randint(2200, 2400)))}
    once_yes = {"command": f"git clean -fd {t.random.choice(FILES)}"}
    once_no = {"command": f"rm -rf {t.random.choice(FILES)}"}
    marked = t.random.choice(["\x1b[32mlint\x1b[0m", "sync\x07", "tag\x00", "\x1b]0;ok\x07push"])
    calls = [("read", {"path": f"caf\u00e9/{t.random.choice(FILES)}.txt"}), ("Restart", {}),
             ("write", long), ("bash", {"command": "make reset"}), ("bash", {"command": ""}),
             ("read", {key: None for key in t.random.sample(["path", "since", "limit"], 2)}),
             (marked, {"to": t.random.choice(FILES)})]
    answers = [True, True, "True", t.random.choice([1, 1.0]), "always", True, False]
    t.random.shuffle(answers)  # clear yeses, a no, a word, always, a number that == True
    first = t.random.sample(range(2, 10), 2)
    for at, (again, said) in sorted(zip(first, [(once_yes, [True, False]),
                                                (once_no, [False, True])]), key=lambda r: r[0]):
        calls.insert(at, ("bash", again))
        answers.insert(at, said[0])
    for again, said in t.random.sample([(once_yes, False), (once_no, True)], 2):
        calls.append(("bash", again))
        answers.append(said)
    yes_no = [answer is True for answer in answers]
    person = lab.Human(list(answers))
    tools = [harness.guard(recording(name, ran), harness.confirm_with(person))
             for name in ("read", "Restart", "write", "bash", marked)]
    model = lab.ScriptedModel([lab.reply(*[lab.call(name, a) for name, a in calls]),
                               lab.say("Done what you allowed.")])
    h = harness.Harness(model, SYSTEM, tools)
    await lab.drive(h.prompt("Tidy the repository."))
    t.expect([person.questions, results(h.messages), ran],
             [[f"Allow {name} {json.dumps(a)}?" for name, a in calls],
              [[f"{name} did {json.dumps(a)}\n", False] if yes else [NO, True]
               for (name, a), yes in zip(calls, yes_no)],
              [[name, a] for (name, a), yes in zip(calls, yes_no) if yes]],
             f"One batch {[name for name, _ in calls]} (the read's path holds \u00e9, the write "
             f"is long, two bash calls come twice, one an rm -rf, a bash call's command is "
             f"empty, a read's arguments are all None, a tool's name holds control characters); "
             f"the person answered {answers!r} in turn. "
             "Items: [the questions, in order, each result's [content, is_error], the calls "
             "that ran].")

    class Gone:
        """Says True to the first question; then the terminal is closed."""
        heard = 0

        def ask(self, question):
            self.heard += 1
            if self.heard > 1:
                raise ConnectionError("the terminal was closed")
            return True
    ran.clear()
    status = {"command": f"git status {t.random.choice(FILES)}"}
    cut_off = lab.ScriptedModel([lab.reply(lab.call("bash", status),
                                           lab.call("bash", {"command": "make reset"})),
                                 lab.say("Not allowed, then.")])
    h = harness.Harness(cut_off, SYSTEM,
                        [harness.guard(recording("bash", ran), harness.confirm_with(Gone()))])
    await lab.drive(h.prompt("Reset it."))
    t.expect([lab.shape(h.messages), h.messages[3]["content"] in (
        NO, FAILED + "the terminal was closed"), h.messages[3]["is_error"], ran],
             ["U A[c1,c2] R(c1) R(c2) A", True, True, [["bash", status]]],
             "Then a run whose person says True about the first call and then cannot be asked "
             "(ask raises ConnectionError) about the second. Items: [the "
             "record, whether the second result is a refusal with a reason (the user said no, "
             "or the check failed: and what ask raised), its is_error, the calls that ran].")
    person, ran = lab.Human([True, True]), []
    door = harness.guard(recording("write", ran), harness.confirm_with(person))
    unwritable = {"path": f"{t.random.choice(FILES)}.bin",
                  "content": t.random.choice([b"\x00\x01", frozenset({"a"}), 1j])}
    try:
        json.dumps(unwritable)
    except Exception as exc:
        cannot = str(exc)
    t.expect([await knock(door, unwritable) in (["refused", FAILED + cannot], ["refused", NO]),
              person.questions, ran],
             [True, [], []],
             f"Then a frontend knocks on a write's door with arguments json.dumps cannot write "
             f"({unwritable['content']!r} as the content). Items: [whether the door refused it, "
             "as a check that broke or as the user said no, the "
             "questions the person was asked, the calls that ran].")
    streaks = [t.random.randint(1010, 1020), t.random.randint(1010, 1020), 1]
    said = [True] * streaks[0] + [False] * streaks[1] + [True]
    person, ran = lab.Human(list(said)), []
    door = harness.guard(recording("bash", ran), harness.confirm_with(person))
    again = {"command": f"make {t.random.choice(FILES)}"}
    found = []
    for n, _ in enumerate(said):
        found.append((await knock(door, again))[0])
        if n % 200 == 199:
            await lab.tick()  # a turn now and then: waiting for a person is the student's
    runs = [[kind, len(list(group))] for kind, group in itertools.groupby(found)]
    t.expect([runs, len(person.questions)],
             [[["ran", streaks[0]], ["refused", streaks[1]], ["ran", 1]], len(said)],
             f"Then a frontend knocks {len(said)} times with the very same arguments dict, the "
             f"person answering True {streaks[0]} times, then False {streaks[1]} times, then "
             "True. Items: [what the knocks found, as runs of [ran or refused, how many in a "
             "row], the questions put].")
    person, ran = lab.Human([True]), []
    door = harness.guard(recording("write", ran), harness.confirm_with(person))
    raw = {"path": f"{t.random.choice(FILES)}.bin", "content": b"\xff\x00 raw"}
    try:
        json.dumps(raw)
    except Exception as exc:
        cannot = str(exc)

    class Unattached:
        """A person no frontend was ever attached to: nothing to ask them through."""
    door_without = harness.guard(recording("bash", ran), harness.confirm_with(Unattached()))
    nobody = await knock(door_without, {"command": "make deploy"})
    huge = {"path": f"{t.random.choice(FILES)}.md", "content": "".join(
        f"- entry {n}\n" for n in range(1, t.random.randint(90000, 95000)))}
    listener = lab.Human([False])
    await knock(harness.guard(recording("write", ran), harness.confirm_with(listener)), huge)
    whole = f"Allow write {json.dumps(huge)}?"
    heard = [[len(question), question == whole] for question in listener.questions]
    t.expect([await knock(door, raw) in (["refused", FAILED + cannot], ["refused", NO]),
              person.questions, nobody[0], nobody[1].startswith(BLOCKED), ran, heard],
             [True, [], "refused", True, [], [[len(whole), True]]],
             "Then a frontend knocks on a write's door with bytes as the content, which "
             "json.dumps cannot write, on a bash door whose person has no ask at all, and on a "
             "write's door with a content of over a million characters, which the person "
             "refuses. Items: [whether the write's door refused, as a check that broke or as "
             "the user said no, the questions that person was asked, what the frontend found at "
             "the bash door, whether it was refused with a reason, the calls that ran, each "
             "question the last person heard as [its length, it is the whole question]].")
    door = harness.guard(recording("bash", ran), harness.confirm_with(Dark()))
    t.expect(await knock(door, again), ["left", "PowerCut: the lights went out"],
             "Then a frontend knocks on a door whose person's frontend loses its power while "
             "asked (ask raises lab.PowerCut). Item: what the knock found.")
    person = lab.Human([True] * 5)
    check = harness.confirm_with(person)
    moving = {"command": f"ls {t.random.choice(FILES)}"}
    first = f"Allow bash {json.dumps(moving)}?"
    check("bash", moving)
    moving["command"] = f"rm -r {t.random.choice(FILES)}"
    check("bash", moving)
    odd_names = [t.random.choice([" write", "write ", "bash\t"]),
                 t.random.choice(["re\u0301sume\u0301", "cafe\u0301", "pin\u0303a"])]
    for odd_name in odd_names:
        check(odd_name, {"path": f"{t.random.choice(FILES)}.md"})
    measured = {"mean": float("nan"), "max": t.random.choice([float("inf"), float("-inf")])}
    check("measure", measured)
    wide = {key: f"{key} of {t.random.choice(FILES)}" for key in t.random.sample(
        ["cwd", "user", "host", "note", "log", "shell", "timeout", "owner"], t.random.randint(6, 8))}
    wide["labels"] = set(t.random.sample(FILES, 3))
    try:
        json.dumps(wide)
    except Exception as exc:
        cannot = str(exc)
    ran = []
    answered = await knock(harness.guard(recording("bash", ran), check), wide)
    wanted = [first, f"Allow bash {json.dumps(moving)}?"]
    numpy_like = await knock(harness.guard(recording("bash", ran),
                                           harness.confirm_with(lab.Human([bool_()]))),
                             {"command": "make deploy"})
    t.expect([person.questions[:2], [question.split(" {")[0] for question in person.questions[2:4]],
              person.questions[4:], answered in (["refused", NO], ["refused", FAILED + cannot]),
              numpy_like, ran],
             [wanted, [f"Allow {odd_name}" for odd_name in odd_names],
              [f"Allow measure {json.dumps(measured)}?"], True, ["refused", NO], []],
             "Then one person is asked about the same bash arguments dict twice, its command "
             "changed between the calls; about calls of tools named "
             f"{odd_names!r} (spaces or a tab at an end, letters with combining accents); about "
             "a call holding NaN and infinity; and a call of "
             f"{len(wide)} keys with a set among them comes; then a frontend knocks on a door "
             "whose person answers a true value that is not True (numpy's bool_). Items: [the "
             "two questions about the changing dict, the start of the questions about the "
             "oddly named tools, the questions after them, whether the call with a set was "
             "refused (the user said no, or the check failed: ), what the knock found, the "
             "calls that ran].")


class Reader:
    """A person who reads each question and answers only what they understand: for a question
    in `replies`, its next answer in turn; for any other, "what?", a no; and for a question
    holding `away` they cannot be reached."""

    def __init__(self, replies, away):
        self.replies, self.away, self.heard = replies, away, []

    def ask(self, question):
        self.heard.append(question)
        if self.away in question:
            raise TimeoutError("nobody at the keyboard")
        return self.replies[question].pop(0) if self.replies.get(question) else "what?"


@lab_test("Over several runs, a person who reads each question answers True only to the "
          "questions they understand, word for word, and answers a repeated call anew each "
          "time: only the calls they said True to run, and a call they cannot be reached about "
          "is refused.")
async def test_bank_a_person_who_reads_the_question(t):
    ran, name = [], t.random.choice(FILES)
    long = {"path": f"{name}.txt",
            "content": " ".join(f"word{n}" for n in range(t.random.randint(600, 900)))}
    read = {"path": f"r\u00e9sum\u00e9s/{name}.md"}
    again_yes = {"command": f"rm -r {name}"}
    again_no = {"command": f"git stash drop {t.random.randint(0, 9)}"}
    truthy = {"command": f"make {name}"}
    plan = [("read", read), ("restart", {}), ("write", long), ("bash", again_yes),
            ("bash", again_no), ("bash", truthy), ("bash", {"command": "make deploy"})]
    plan += [("bash", again_yes), ("bash", again_no), ("bash", truthy)]
    ask = {n: f"Allow {n_} {json.dumps(a)}?" for n, (n_, a) in enumerate(plan)}
    reader = Reader({ask[0]: [True], ask[1]: [True], ask[2]: [True], ask[3]: [True, False],
                     ask[4]: [False, True], ask[5]: [1, t.random.choice(["y", "Y"])]},
                    "deploy")
    tools = [harness.guard(recording(n, ran), harness.confirm_with(reader))
             for n in ("read", "restart", "write", "bash")]
    order = list(range(len(plan) - 3))
    t.random.shuffle(order)
    order += [7, 8, 9]
    record = []
    for n in order:
        model = lab.ScriptedModel([lab.reply(lab.call(*plan[n])), lab.say("Next.")])
        h = harness.Harness(model, SYSTEM, tools, messages=record)
        await lab.drive(h.prompt(f"Step {n}."))
        record = h.messages
    allowed = {0, 1, 2, 3, 8}
    # who cannot be reached has not said yes: a refusal with one of the two reasons the page names
    contents = [content in (NO, FAILED + "nobody at the keyboard") if n == 6 else content
                for n, (content, _) in zip(order, results(record))]
    t.expect([reader.heard, contents, ran],
             [[ask[n] for n in order],
              [True if n == 6 else f"{plan[n][0]} did {json.dumps(plan[n][1])}\n"
               if n in allowed else NO for n in order],
              [list(plan[n]) for n in order if n in allowed]],
             f"Runs, one call each, in the order {order}: a read of a path holding \u00e9, a "
             "restart with no arguments, a long write, three bash calls each made twice (the "
             "person says True the first time and no the second, no then True, and 1 then y or Y), "
             "and make deploy, which the person cannot be reached about. Items: "
             "[the questions the person heard, each result's content (for make deploy, whether "
             "it is a refusal with a reason: the user said no, or the check failed: and what ask "
             "raised), the calls that ran].")
