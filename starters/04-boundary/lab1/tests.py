"""Lesson 4, lab 1: draw the boundary. The tests of run_tool's boundary, str_arg, read's and
write's bad arguments, read's missing-file message and bash's status line.

Each test draws its cases (which exceptions with which messages, where a batch fails, which
bad arguments, which files and exit codes) from t.random, so it checks its rule over a family
of cases; the same seed draws the same ones.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 4 tests.py
"""
import asyncio
import errno
import pathlib
import random
import string
import traceback
import unicodedata

import harness
import lab
from lab.kit import lab_test, raised, settle, tool

LAB = "4.1"
SYSTEM = "You help with a small project."
NAMES = ["open", "save", "deploy", "fetch", "grep", "lint", "format", "compile"]
PROMPTS = ["Open it.", "Do all of them.", "Deploy it.", "Go.", "Naïve request: fix it."]


class Unlucky(Exception):
    """An exception of the tool's own kind: run_tool must catch it like any other."""


class Worded(Exception):
    """An exception of the tool's own kind whose class words its str(): made with a host, it
    reads "HOST refused the connection", as many a library's exception does."""

    def __str__(self):
        return f"{self.args[0]} refused the connection"


class Ending(BaseException):
    """What a program of the test's own raises as it ends: not an Exception, like PowerCut,
    but none of the endings the lesson names, so only `except Exception` lets it by."""


def failures(t):
    """Exceptions a tool may raise, each with what str() gives of it, in a drawn order: one
    with no message, a KeyError (whose str() is quoted) and an OSError with an errno among
    them."""
    cases = [(ValueError("bad path"), "bad path"), (RuntimeError("it broke"), "it broke"),
             (KeyError("key"), "'key'"), (PermissionError("no credentials"), "no credentials"),
             (OSError("disk full"), "disk full"), (Unlucky("unlucky today"), "unlucky today"),
             (FileNotFoundError(2, "No such file or directory", "x.py"),
              "[Errno 2] No such file or directory: 'x.py'"),
             (RuntimeError(), ""), (TypeError("expected str, got int"), "expected str, got int")]
    return t.random.sample(cases, t.random.randint(3, 5))


def call(name, arguments=None, id="c1"):
    return lab.call(name, arguments, id=id)


def failing(name, exc):
    """A tool that raises `exc` every time it runs."""
    def fn(arguments):
        raise exc
    return tool(name, fn)


def fine(name, answer="ok", ran=None):
    def fn(arguments):
        if ran is not None:
            ran.append(name)
        return answer
    return tool(name, fn)


async def result_of(tools, name, arguments=None):
    """What run_tool answers for one call to `name`, as [content, is_error]."""
    result = await settle(harness.run_tool(tools, call(name, arguments)))
    return [result["content"], result["is_error"]]


@lab_test("A tool that raises, such as ValueError(\"bad path\"), gives a result carrying "
          "str(exc) with is_error True, and the model is asked again.")
async def test_a_raise_becomes_a_result(t):
    exc, text = failures(t)[0]
    name = t.random.choice(NAMES)
    model = lab.ScriptedModel([lab.reply(lab.call(name)), lab.say("That went wrong.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [failing(name, exc)],
                                      t.random.choice(PROMPTS)))
    t.expect(lab.shape(messages), "U A[c1] R(c1) A",
             "A tool that raises still gets a result, and the run goes on (run_tool, lesson 4).")
    t.expect([messages[2]["content"], messages[2]["is_error"], messages[2]["tool_name"]],
             [text, True, name],
             "The result's content is str(exc), marked is_error, named for the tool. The items "
             "are [content, is_error, tool_name] (run_tool, lesson 4).")
    t.expect(len(model.calls), 2, "The model is asked again, and can act on the error (run_tool, "
                                  "lesson 4).")
    # Every time: failing calls of one argument to eight, each left as the model sent it.
    sent = [call(name, {f"arg{k}": t.random.choice(["a.py", 3, ""]) for k in range(n)})
            for n in range(1, 9)]
    # And every time, one call of nine to five thousand arguments, drawn.
    sent += [call(name, {f"arg{k}": "a.py" for k in range(t.random.randint(9, 5_000))})]
    before = [dict(made["arguments"]) for made in sent]
    for made in sent:
        await settle(harness.run_tool([failing(name, exc)], made))
    t.expect([made["arguments"] for made in sent], before,
             "A call whose tool fails keeps its arguments as the model sent them, however many "
             f"it has (here one to eight, then {len(sent[-1]['arguments']):,}): nothing is "
             "added to them, taken out or changed. Each item is one call's arguments after run_tool answered it (run_tool, lesson 4, Build "
             "item 2: \"its arguments stay in the record as the model sent them\").")
    # Round after round in which every call fails, then one that works: the loop decides
    # nothing about failures, so it asks the model again after each and reaches the answer.
    rounds = t.random.randint(40, 90)
    model = lab.ScriptedModel([lab.reply(lab.call(name)) for _ in range(rounds)] +
                              [lab.reply(lab.call("fix")), lab.say("Fixed it.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages,
                                      [failing(name, exc), fine("fix", "fixed")],
                                      t.random.choice(PROMPTS)))
    t.expect([lab.shape(messages), len(model.calls), messages[-2]["content"]],
             why=f"{rounds} rounds in a row whose every call fails, then a round whose call "
                 "works: an error result is a result like any other, so the run goes on after "
                 "each and ends only when a reply asks for no tools. The items are [the record "
                 "as lab.shape gives it, how many requests the model had, the last result's "
                 "content] (run_tool, lesson 4, Build item 2: \"the run goes on\").")


@lab_test("A call to a tool nobody has gives \"Tool nosuch not found\" (for a tool called "
          "nosuch), named for it and marked is_error, and the run goes on.")
async def test_an_unknown_tool(t):
    known = t.random.sample(NAMES, t.random.randint(0, 3))
    unknown = t.random.choice(["nosuch", "reed", "Read", "bash2", "rm"] +
                              [n for n in NAMES if n not in known])
    id = f"c{t.random.randint(1, 99)}"
    result = await settle(harness.run_tool([fine(name) for name in known],
                                           call(unknown, {"x": t.random.randint(1, 9)}, id)))
    t.expect(result, {"role": "toolResult", "tool_call_id": id, "tool_name": unknown,
                      "content": f"Tool {unknown} not found", "is_error": True},
             "An unknown name is answered, not raised, with a sentence that names it (run_tool, "
             "lesson 4).")
    asked = {"path": t.random.choice(["a.py", "src/"]), "n": t.random.randint(1, 9)}
    model = lab.ScriptedModel([lab.reply(lab.call(unknown, dict(asked))),
                               lab.say("I will use another.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [fine(name) for name in known],
                                      t.random.choice(PROMPTS)))
    t.expect([lab.shape(messages), messages[2]["content"],
              harness.tool_calls(model.calls[1].messages[1])[0]["arguments"]],
             ["U A[c1] R(c1) A", f"Tool {unknown} not found", asked],
             "The run continues after an unknown tool, and the call stays in the record as the "
             "model made it, its arguments untouched, in the request the model is sent again. "
             "The items are [the record, the result's content, the call's arguments in the "
             "second request] (run_tool, lesson 4; run_agent, lesson 3: messages is the record).")
    # A tool handed to an earlier call, and a name that differs from a tool's by case alone.
    earlier, here = t.random.sample(NAMES, 2)
    await settle(harness.run_tool([fine(earlier)], call(earlier)))
    cased = t.random.choice([here.upper(), here.capitalize()])
    wide = "".join(chr(ord(c) + 0xFEE0) for c in here)  # fullwidth letters: ｒｅａｄ for read
    numbered = here + str(t.random.randint(1, 99))  # read2 is another name than read
    t.expect([await result_of([fine(here)], earlier), await result_of([fine(here)], cased),
              await result_of([fine(here)], wide), await result_of([], here),
              await result_of([fine(here)], numbered)],
             [[f"Tool {earlier} not found", True], [f"Tool {cased} not found", True],
              [f"Tool {wide} not found", True], [f"Tool {here} not found", True],
              [f"Tool {numbered} not found", True]],
             "A name that no tool has gets Tool NAME not found: run_tool looks in the tools it "
             "is handed for this call, not in any it saw before, and matches the name exactly "
             "as spelt, case included, and fullwidth letters are other letters; with no tools "
             f"at all the words are the same; and {numbered}, a tool's name with digits after "
             "it, is no tool's name either. Each item is [content, is_error] of one call "
             "(run_tool, lesson 4, Build item 2: \"A name that no tool has gets the result Tool "
             "NAME not found\").")
    # One list, changed between calls: each call looks in the list as it is then. And a name
    # with a space at its end or - for _ is another name.
    first, then = t.random.sample(NAMES, 2)
    tools = [fine(first), fine("read_file")]
    await settle(harness.run_tool(tools, call(first)))
    tools[0] = fine(then)
    long = "read_file_" + "_or_".join(t.random.choices(NAMES, k=t.random.randint(150, 200))
                                      ) * t.random.randint(3, 30)
    broken = t.random.choice(["read\nfile", "read_file\n", "read\tfile", "\tread_file"])
    # Every time too: a carriage return and a NUL in a name are characters like any other.
    bare = [t.random.choice(["read\rfile", "read_file\r"]), t.random.choice(["read\0file", "\0read_file"])]
    # And every time, one more control character drawn (an escape, a bell, a DEL, ...).
    bare += ["read" + t.random.choice([chr(c) for c in range(1, 32) if c not in (9, 10, 13)] +
                                      ["\x7f"]) + "file"]
    # And every time, a line or paragraph separator (U+2028, U+2029): characters like any other.
    bare += ["read" + t.random.choice(["\u2028", "\u2029"]) + "file"]
    # lab.call refuses an empty name, but a provider can send one: the call is built by hand.
    result = await settle(harness.run_tool(tools, {"type": "toolCall", "id": "c9", "name": "",
                                                   "arguments": {}}))
    t.expect([await result_of(tools, first), await result_of(tools, then),
              await result_of(tools, "read-file"), await result_of(tools, "read_file "),
              await result_of(tools, long), await result_of(tools, broken),
              *[await result_of(tools, odd) for odd in bare],
              [result["content"], result["is_error"], result["tool_name"]]],
             [[f"Tool {first} not found", True], ["ok", False],
              ["Tool read-file not found", True], ["Tool read_file  not found", True],
              [f"Tool {long} not found", True], [f"Tool {broken} not found", True],
              *[[f"Tool {odd} not found", True] for odd in bare],
              ["Tool  not found", True, ""]],
             f"The same list, with {first} replaced by {then} after one call: run_tool looks in "
             "the tools it is handed for this call, as they are now, and matches the name "
             "exactly as spelt, so read-file and \"read_file \" are not read_file; and any name "
             f"no tool has is said whole in NAME's place: a long name is said whole "
             f"({len(long):,} characters here), so is {broken!r} with its line break or tab, so are "
             f"{bare[0]!r}, {bare[1]!r}, {bare[2]!r} and {bare[3]!r} with a carriage return, a "
             "NUL, another control character or a line or paragraph separator, and "
             "\"\" too (\"Tool  not found\", its result named \"\" as the call is). Each item is "
             "[content, is_error] of one call, the last [content, is_error, tool_name] (run_tool, "
             "lesson 4, Build item 2: \"A name that no tool has gets the result Tool NAME not "
             "found\"; lesson 2: a result carries its call's tool name).")
    # Every time: a name of two hundred thousand characters to a million, said whole too.
    longer = "read_file_" + "x" * t.random.randint(200_000, 1_000_000)
    content, is_error = await result_of([fine("read_file")], longer)
    t.expect([len(content), content == f"Tool {longer} not found", is_error],
             [len(longer) + 15, True, True],
             f"A name of {len(longer):,} characters that no tool has is said whole in NAME's "
             "place: run_tool cuts nothing of it. The items are [the content's length, whether "
             "it is Tool NAME not found with the name whole, is_error] (run_tool, lesson 4, "
             "Build item 2: \"A name that no tool has gets the result Tool NAME not found\").")
    # Every time: names no tool has, one starting with each letter, digit, _ and -.
    tail = t.random.choice(["_tool", "ool", "2"])
    lettered = [c + tail for c in string.ascii_letters + string.digits + "_-"]
    t.expect([await result_of([fine("read_file")], odd) for odd in lettered],
             [[f"Tool {odd} not found", True] for odd in lettered],
             "A name that no tool has is an error result, whatever it starts with: each of "
             f"these {len(lettered)} names starts with another letter, digit, _ or -, and each "
             "gets Tool NAME not found with is_error True. Each item is [content, is_error] of "
             "one call (run_tool, lesson 4, Build item 2: \"A name that no tool has gets the "
             "result Tool NAME not found\" and \"Both are marked is_error True\").")
    # Every time: a name spelt with a combining accent (e and U+0301) where the tool's has the
    # accented letter itself (é), and the other way round: the same on screen, other names.
    word = t.random.choice(["résumé", "café", "naïve_fix", "déployer", "über_lint"])
    composed = unicodedata.normalize("NFC", word)
    decomposed = unicodedata.normalize("NFD", word)
    t.expect([await result_of([fine(composed)], decomposed),
              await result_of([fine(decomposed)], composed),
              await result_of([fine(composed), fine(decomposed, "other")], decomposed)],
             [[f"Tool {decomposed} not found", True], [f"Tool {composed} not found", True],
              ["other", False]],
             f"A name that no tool has gets Tool NAME not found even when it looks the same: "
             f"{ascii(decomposed)} (a letter, then a combining accent) is not {ascii(composed)} "
             "(the accented letter), nor the other way round, and with both tools handed over "
             "the call runs the one spelt as it is. Each item is [content, is_error] of one call "
             "(run_tool, lesson 4, Build item 2: \"A name that no tool has gets the result Tool "
             "NAME not found\"; the name matches exactly as spelt).")


@lab_test("Every kind of Exception becomes an error result carrying str(exc): RuntimeError, "
          "KeyError, ZeroDivisionError, one of the tool's own and more; a KeyError reads 'key', "
          "quotes and all.")
async def test_every_exception_becomes_a_result(t):
    def divide(arguments):
        return str(1 / 0)
    cases = [(failing(f"tool{n}", exc), text, True) for n, (exc, text) in enumerate(failures(t))]
    cases += [(tool("divide", divide), "division by zero", True)]
    cases += [(fine(f"good{n}", answer), answer, False)
              for n, answer in enumerate(["", t.random.choice(["fine", "ok\n"])])]
    # Drawn every time: a KeyError from inside a tool that is there, a message with spaces and
    # a line break at its ends, a long one, and a returned text that only looks like an error.
    edged = t.random.choice(["  bad path\n", "bad path \n", "\nno such key\n"])
    long = "could not parse " + "/".join(t.random.sample(NAMES, 8)) * t.random.randint(400, 800)
    said = t.random.choice(["Error: nothing to change", "Error 404 is what the page says",
                            "Errors found: 0"])
    spaced = t.random.choice(["total price per unit", "the home folder of the user"])
    cases += [(failing("lookup", KeyError("user")), "'user'", True),
              (failing("column", KeyError(spaced)), f"'{spaced}'", True),
              (failing("edged", ValueError(edged)), edged, True),
              (failing("parse", ValueError(long)), long, True),
              (fine("quoted", said), said, False)]
    # Drawn every time too: an exception with no message, one of the tool's own kind, a
    # tool's own bug (a NameError, an AttributeError, a failed assert), a TimeoutError and an
    # OSError with no message, each an Exception like the others.
    cases += [(failing("quiet", RuntimeError()), "", True),
              (failing("late", TimeoutError("no answer in 30 s")), "no answer in 30 s", True),
              (failing("check", AssertionError("expected 3 files")), "expected 3 files", True),
              (failing("hollow", OSError()), "", True),
              (failing("own", Unlucky("unlucky today")), "unlucky today", True),
              (failing("typo", NameError("name 'pathh' is not defined")),
               "name 'pathh' is not defined", True),
              (failing("slip", AttributeError("'NoneType' object has no attribute 'strip'")),
               "'NoneType' object has no attribute 'strip'", True)]
    # Drawn every time as well: kinds a boundary might take for the program's trouble or for
    # no failure at all (a RecursionError, a MemoryError, a bare Exception(), a warning raised,
    # an ExceptionGroup), and a KeyError whose key is the very name of the tool that raised it.
    own = t.random.choice(["index", "cache", "users"])
    group = ExceptionGroup(t.random.choice(["2 checks failed", "both uploads failed"]),
                           [ValueError("bad size"), OSError("disk full")])
    cases += [(failing("deep", RecursionError("maximum recursion depth exceeded")),
               "maximum recursion depth exceeded", True),
              (failing("big", MemoryError()), "", True),
              (failing("bare", Exception()), "", True),
              (failing("warn", UserWarning("the flag is deprecated")), "the flag is deprecated",
               True),
              (failing("group", group), str(group), True),
              (failing(own, KeyError(own)), f"'{own}'", True)]
    # And every time: a NotImplementedError (a tool not finished is a tool failing), and a
    # message whose lines end in \r\n, as a Windows program's do.
    unfinished = t.random.choice(["not written yet", "dry run only"])
    # And every time: an exception raised from another (its __cause__ set): str(exc) is its
    # own message, with nothing of the cause's added.
    why_not = t.random.choice(["bad config", "no such profile"])
    chained = ValueError(why_not)
    chained.__cause__ = KeyError(t.random.choice(["port", "host"]))
    crlf = t.random.choice(["line 1: bad\r\nline 2: worse\r\n", "build failed\r\n",
                            "first\r\n\r\nsecond"])
    # And every time: a StopAsyncIteration, an Exception like the others. (A StopIteration
    # cannot be tried: from lesson 5 on, a coroutine turns it into a RuntimeError.)
    stopped = t.random.choice(["no more pages", "the stream ran dry"])
    cases += [(failing("drained", StopAsyncIteration(stopped)), stopped, True)]
    # And every time: an IndexError with no message (a LookupError like KeyError, told as its
    # empty str()), and an ImportError (a tool whose module is not there is a tool failing).
    module = t.random.choice(["yaml", "requests", "numpy"])
    cases += [(failing("first", IndexError()), "", True),
              (failing("plugin", ImportError(f"No module named '{module}'")),
               f"No module named '{module}'", True)]
    cases += [(failing("later", NotImplementedError(unfinished)), unfinished, True),
              (failing("windows", OSError(crlf)), crlf, True),
              (failing("chained", chained), why_not, True)]
    # And every time: an exception of a tool's own kind whose class words its str() (str(exc)
    # is those words, not the argument it was made with), and one with notes added to it
    # (add_note, as a library adds context): str(exc) holds its message and none of its notes.
    host = t.random.choice(["db.internal", "10.0.0.7", "cache-2"])
    worded = Worded(host)
    noted = ValueError(t.random.choice(["bad size", "no such column: price"]))
    for note in t.random.sample(["while saving notes.md", "retry with --force",
                                 "see the log for more"], t.random.randint(1, 2)):
        noted.add_note(note)
    cases += [(failing("dial", worded), f"{host} refused the connection", True),
              (failing("load", noted), noted.args[0], True)]
    t.random.shuffle(cases)
    tools = [made for made, _, _ in cases]
    found = [await result_of(tools, made["name"]) for made in tools]
    t.expect(found, [[text, is_error] for _, text, is_error in cases],
             "run_tool catches Exception, every kind of it, and gives str(exc) as the content, "
             "whole and unstripped, with is_error True; a KeyError from a tool that is there is "
             "that tool failing, not an unknown name; a tool that returns is not an error, even "
             "with \"\" or words that start with Error. No kind is a special case, a "
             "TimeoutError, an AssertionError, an OSError with no message, a RecursionError, a "
             "MemoryError, a bare Exception(), a Warning, a NotImplementedError, a "
             "StopAsyncIteration, an IndexError with no message, an ImportError and an "
             "ExceptionGroup included (whose str() is the whole group's), a message whose lines end in \\r\\n "
             "keeps them, an exception raised from another is told as str(exc), its own "
             "message and nothing of its __cause__, an exception whose class words its own "
             "str() is told in those words, not by the argument it was made with, an "
             "exception with notes added (add_note) is told without them, a KeyError naming the tool's own name is the tool "
             "failing too, a KeyError whose key is long and holds spaces keeps its quotes as "
             "well, and no message is cut, however long (here tens of thousands of "
             "characters). Each item is [content, is_error] of one call "
             "(run_tool, lesson 4, Build item 2: \"an Exception of any kind gets a result holding "
             "str(exc)\"). str(KeyError('key')) is \"'key'\".")
    # Every time: a message of some three hundred thousand characters to a million and a
    # returned text of five million to thirteen million, each answered whole (told here by length and sameness, not spelt out).
    huge = "Traceback of the build:\n" + "".join(
        f"  step {n}: {t.random.choice(NAMES)} failed\n" for n in range(1_000)
    ) * t.random.randint(12, 40)
    dump = "log line\n" * t.random.randint(600_000, 1_500_000)
    found = [await result_of([failing("build", ValueError(huge))], "build"),
             await result_of([fine("dump", dump)], "dump"),
             await result_of([failing("log", ValueError(dump))], "log")]
    t.expect([[len(content), content == text, is_error]
              for (content, is_error), text in zip(found, [huge, dump, dump])],
             [[len(huge), True, True], [len(dump), True, False], [len(dump), True, True]],
             f"A tool that raises a ValueError whose message is {len(huge):,} characters long "
             f"gets a result holding that message whole, a tool that returns {len(dump):,} "
             "characters gets them all, and so does one that raises them as its message: "
             "run_tool cuts nothing, however long. Each item is [the "
             "content's length, whether it is the text whole, is_error] (run_tool, lesson 4, "
             "Build item 2: \"str(exc), whole, however long\").")
    # Tools that fail on every call: the first called 45 to 90 times, then, each 10 to 15
    # times, one with each OSError that says "try again" (EINTR, EAGAIN) and one with each kind
    # of ConnectionError, and one with a TimeoutError: run once per call, told each time.
    many, few = t.random.randint(45, 90), t.random.randint(10, 15)
    busy = [OSError(errno.EINTR, "Interrupted system call"),
            BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")]
    dropped = [ConnectionResetError("the server reset the connection"),
               ConnectionRefusedError("nothing listens on port 8080"),
               ConnectionAbortedError("the connection was aborted"),
               BrokenPipeError("the pipe to the server broke")]
    late = [TimeoutError(t.random.choice(["no answer in 30 s", "timed out"])),
            ChildProcessError(t.random.choice(["no child processes", "the child is gone"]))]
    # And more errnos, each once, in a drawn order: no errno is one to try again on.
    others = t.random.sample(["EBUSY", "ESTALE", "EIO", "ENOSPC", "ENOLCK", "ETXTBSY"], 6)
    busy += [OSError(getattr(errno, code), code) for code in others]
    for exc, text, calls in [(*failures(t)[0], many),
                             *[(exc, str(exc), few) for exc in busy + dropped + late]]:
        ran = []

        def again(arguments, exc=exc, ran=ran):
            ran.append(1)
            raise exc
        tools = [tool("deploy", again)]  # one tool, as one run hands the same list each time
        found = []
        for _ in range(calls):  # a loop turn after each call, as a run has between calls
            found.append(await result_of(tools, "deploy"))
            await lab.tick()
        if exc in busy:  # its str() names the platform's errno (4 on Linux, 27 in the browser)
            found = [[content == text and "str(exc)", is_error] for content, is_error in found]
            text = "str(exc)"
        told = [result for n, result in enumerate(found) if result not in found[:n]]
        t.expect([told, found.count([text, True]), len(ran)], [[[text, True]], calls, calls],
                 f"A tool that raises {exc!r} on every call, called {calls} times: it runs "
                 f"once per call and its failure is told each time, since run_tool neither tries "
                 f"it again nor stops calling it, however often it failed before; an OSError "
                 f"whose errno says to try again (EINTR, EAGAIN) or any other errno "
                 f"({', '.join(others)} here) and a ConnectionError of any "
                 f"kind (reset, refused, aborted, a broken pipe) and a TimeoutError are no "
                 f"exception, nor is a ChildProcessError. The items are [the different "
                 f"results among the {calls} as [content, is_error], how many of them are "
                 f"str(exc) with is_error True, how many times the tool ran] (run_tool, lesson 4, "
                 f"Build item 2: \"run_tool neither tries a call again nor stops calling a tool "
                 f"that keeps failing\").")
    # Every time: each errno the platform names (errno.errorcode, a hundred and more), in a
    # drawn order, raised as an OSError by a tool of its own, called once: no errno is one to
    # try again on, a network's (ENETUNREACH, EHOSTUNREACH, ETIMEDOUT) included.
    codes = sorted(errno.errorcode)  # 130 on Linux, more in the browser's Python
    random.Random(t.random.getrandbits(32)).shuffle(codes)  # one draw, whatever their number
    ran, found = [], []
    for code in codes:
        def down(arguments, code=code):
            ran.append(code)
            raise OSError(code, errno.errorcode[code])
        found.append(await result_of([tool("fetch", down)], "fetch"))
    again = [errno.errorcode[code] for code in codes if ran.count(code) != 1]
    t.expect([again, all(content == str(OSError(code, errno.errorcode[code])) and is_error is True
                         for (content, is_error), code in zip(found, codes))], [[], True],
             f"A tool that raises an OSError of each of the {len(codes)} errnos the platform "
             "names, called once each: it runs once, and its failure is told as str(exc), "
             "whatever the errno, a network's (ENETUNREACH, EHOSTUNREACH, ETIMEDOUT) included. "
             "The items are [the errnos whose tool ran other than once, whether every result is "
             "str(exc) with is_error True] (run_tool, lesson 4, Build item 2: \"run_tool neither "
             "tries a call again\").")
    # And every time: a message that holds a NUL, and one holding another control character
    # (an escape, a bell, a DEL, ...): characters like any other, kept in str(exc).
    nul = t.random.choice(["bad byte \0 at offset 12", "\0", "name\0.txt is not valid",
                           "read 3 bytes: \0\0\0"])
    control = "bad byte " + t.random.choice([chr(c) for c in range(1, 32) if c not in (9, 10, 13)] +
                                            ["\x7f"]) + " in the header"
    t.expect([await result_of([failing("binary", ValueError(nul))], "binary"),
              await result_of([failing("header", UnicodeError(control))], "header")],
             [[nul, True], [control, True]],
             f"A message that holds a NUL ({nul!r}) or another control character ({control!r}) "
             "is told whole: str(exc), every character kept. Each item is [content, is_error] "
             "of one call (run_tool, lesson 4, Build item 2: \"a result holding str(exc), whole, "
             "however long\").")


@lab_test("lab.PowerCut is not a tool failing but the program ending: it goes through run_tool "
          "and out of the run, and the record stays U A[c1].")
async def test_a_power_cut_passes_through(t):
    said = t.random.choice(["the power went off", "fuse blown", "unplugged"]) + \
        t.random.choice(["", " at 3 a.m.", " during the save"])
    name, prompt = t.random.choice(NAMES), t.random.choice(PROMPTS)

    def cut(arguments):
        raise lab.PowerCut(said)
    t.expect(await raised(lambda: harness.run_tool([tool(name, cut)], call(name))),
             f"PowerCut: {said}",
             "run_tool catches Exception and nothing wider: PowerCut is a BaseException "
             "(run_tool, lesson 4).")
    # Ctrl-C and sys.exit() are the program ending too, and they are not Exceptions either.
    code = t.random.randint(1, 9)
    endings = [KeyboardInterrupt(), SystemExit(code)]
    t.expect([await raised(lambda exc=exc: harness.run_tool([failing(name, exc)], call(name)))
              for exc in endings],
             ["KeyboardInterrupt: ", f"SystemExit: {code}"],
             "What the program raises as it ends is not a tool failing: KeyboardInterrupt "
             "(Ctrl-C) and SystemExit (sys.exit) leave run_tool as they came, as PowerCut does. "
             "Each item is what one call raised (run_tool, lesson 4).")
    # Any ending, not only the ones named, and the very exception raised, not a copy of it:
    # GeneratorExit and asyncio.CancelledError are BaseExceptions that are not Exceptions too.
    endings = [Ending(said), lab.PowerCut(said), GeneratorExit(), asyncio.CancelledError()]
    endings[1].__cause__ = OSError(t.random.choice(["the UPS failed", "the fuse blew"]))
    before = [(exc.__cause__, exc.__suppress_context__) for exc in endings]
    came = []
    for exc, (cause, suppressed) in zip(endings, before):
        try:
            await settle(harness.run_tool([failing(name, exc)], call(name)))
            came.append("a result")
        except BaseException as out:
            frames = traceback.extract_tb(out.__traceback__)
            came.append("another " + type(out).__name__ if out is not exc else
                        "the one raised, its __cause__ changed" if out.__cause__ is not cause or
                        out.__suppress_context__ != suppressed else
                        "the one raised" if frames and frames[-1].name == "fn" else
                        "the one raised, its traceback no longer reaching the tool")
    t.expect(came, ["the one raised"] * len(endings),
             "run_tool catches Exception and nothing wider, so any BaseException that is not "
             "an Exception (here one of the test's own, PowerCut, GeneratorExit and "
             "asyncio.CancelledError) leaves it as it came: the same object, with its traceback, "
             "which still reaches the tool's line that raised it, and with its __cause__ as it "
             "was (the PowerCut's an OSError, the others' none), not a result and not a copy, "
             "not raised again from None. "
             "Each item is what came out of one call (run_tool, lesson 4, Build item 2: \"it "
             "leaves run_tool and run_agent as it came\").")
    model = lab.ScriptedModel([lab.reply(lab.call(name)), lab.say("never")])
    messages = []
    t.expect(await raised(lambda: lab.drive(harness.run_agent(model, SYSTEM, messages,
                                                              [tool(name, cut)], prompt))),
             f"PowerCut: {said}", "The power cut leaves the run (run_tool, lesson 4).")
    t.expect([lab.shape(messages), messages[0]["content"], messages[1]["content"][0]["name"]],
             ["U A[c1]", prompt, name],
             "Where the program stopped, the call has no result: nothing was recorded after "
             "the cut. The items are [the record, its prompt, the call's tool] (run_tool, "
             "lesson 4).")
    # A cut in the middle of a batch: the calls before it were answered and stay answered;
    # the cut call and the later ones have no result, and the later ones never ran.
    size = t.random.randint(3, 5)
    at, ran = t.random.randint(1, size - 2), []
    tools = [fine(f"step{n}", f"step {n} done", ran) for n in range(size)]
    tools[at] = tool(f"step{at}", cut)
    model = lab.ScriptedModel([lab.reply(*[lab.call(made["name"]) for made in tools]),
                               lab.say("never")])
    messages = []
    t.expect(await raised(lambda: lab.drive(harness.run_agent(model, SYSTEM, messages, tools,
                                                              prompt))),
             f"PowerCut: {said}", "The power cut leaves the run (run_tool, lesson 4).")
    t.expect([lab.shape(messages), ran],
             why=f"A power cut at call {at + 1} of a batch of {size}: the run stops where it "
                 "stands, whatever was appended stays appended, and nothing is made for the cut "
                 "call or the ones after it, which never run. The items are [the record as "
                 "lab.shape gives it, the tools that ran] (run_agent and run_tool, lesson 4, "
                 "Build item 2: \"with no result made for it and the record as it stood\").")


@lab_test("In a batch of three to five calls where some in the middle raise, the later calls "
          "still run, and every result is in call order.")
async def test_a_failure_mid_batch(t):
    size = t.random.randint(3, 5)
    broken = set(t.random.sample(range(1, size - 1), t.random.randint(1, size - 2)))
    broken |= {0} if t.random.random() < 0.3 else set()
    excs = failures(t) * 2
    ran, tools, wanted = [], [], []
    for n in range(size):
        if n in broken:
            exc, text = excs[n]
            tools.append(failing(f"step{n}", exc))
            wanted.append([text, True])
        else:
            tools.append(fine(f"step{n}", f"step {n} done", ran))
            wanted.append([f"step {n} done", False])
    model = lab.ScriptedModel([lab.reply(*[lab.call(made["name"]) for made in tools]),
                               lab.say("Some of them worked.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, t.random.choice(PROMPTS)))
    ids = [f"c{n}" for n in range(1, size + 1)]
    t.expect(lab.shape(messages),
             "U A[" + ",".join(ids) + "] " + " ".join(f"R({id})" for id in ids) + " A",
             "A failure is one call's result; it does not end the batch or the run (run_tool, "
             "lesson 4).")
    t.expect([[m["content"], m["is_error"]] for m in messages[2:2 + size]], wanted,
             "The calls after a failure ran. Each item is [content, is_error] of one call, in "
             "call order (run_tool, lesson 4).")
    t.expect(ran, [f"step{n}" for n in range(size) if n not in broken],
             "Every working tool ran (run_tool, lesson 4).")
    # The same tool twice in one batch, failing the first time only: the second call runs.
    runs = []

    def flaky(arguments):
        runs.append(arguments)
        if len(runs) == 1:
            raise excs[0][0]
        return "worked this time"
    model = lab.ScriptedModel([lab.reply(lab.call("retry", {"n": 1}), lab.call("retry", {"n": 2})),
                               lab.say("The second try worked.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [tool("retry", flaky)],
                                      t.random.choice(PROMPTS)))
    t.expect([[[m["content"], m["is_error"]] for m in messages[2:4]], runs],
             [[[excs[0][1], True], ["worked this time", False]], [{"n": 1}, {"n": 2}]],
             "A batch that calls one tool twice, whose first call fails: the second call runs "
             "all the same and gets what it returned, since each call is run and answered on "
             "its own. The items are [the two results as [content, is_error], the arguments "
             "the tool ran with] (run_tool, lesson 4, Build item 2: \"later calls of the same "
             "batch included\").")
    # Every time: a batch of 8 to 40 calls that all fail, or of 50 to 150, then one that
    # works: each runs.
    count, runs = t.random.choice([t.random.randint(8, 40), t.random.randint(50, 150)]), []

    def shaky(arguments):
        runs.append("shaky")
        raise excs[1][0]
    model = lab.ScriptedModel([lab.reply(*[lab.call("shaky") for _ in range(count)],
                                         lab.call("good")), lab.say("One worked.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages,
                                      [tool("shaky", shaky), fine("good", "good", runs)],
                                      t.random.choice(PROMPTS)))
    t.expect([[[m["content"], m["is_error"]] for m in messages[2:-1]], runs],
             [[[excs[1][1], True]] * count + [["good", False]], ["shaky"] * count + ["good"]],
             f"A batch of {count} calls whose tool fails each time, then a call that works: "
             "every call runs and gets its own result, however many failed before it in the "
             "batch. The items are [the results as [content, is_error], the tools that ran] "
             "(run_tool, lesson 4, Build item 2: \"later calls of the same batch included\").")
    # Every time: a batch that reads a missing file, writes it, then reads it with the very
    # same arguments: the second read runs too, and finds the file.
    path = t.random.choice(["notes.md", "todo.txt", "src/app.py"])
    text = t.random.choice(["x = 1\n", "- fix the build\n", ""])
    ws = lab.Workspace({"a.py": "print(1)\n"})
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": path}),
                                         lab.call("write", {"path": path, "content": text}),
                                         lab.call("read", {"path": path})),
                               lab.say("Written and read.")])
    messages = []
    await lab.drive(harness.run_agent(model, SYSTEM, messages,
                                      [harness.make_read_tool(ws), harness.make_write_tool(ws)],
                                      t.random.choice(PROMPTS)))
    t.expect([lab.shape(messages), [[m["content"], m["is_error"]] for m in messages[2:5]]],
             ["U A[c1,c2,c3] R(c1) R(c2) R(c3) A",
              [[f"File not found: {path}. Files here: a.py", True],
               [f"Successfully wrote to {path}.", False], [text, False]]],
             f"A batch that reads {path} before it exists, writes it, then reads it again with "
             "the same arguments: each call runs on its own, in order, so the second read finds "
             "what the write put there rather than a copy of the first read's answer. The items "
             "are [the record, the three results as [content, is_error]] (run_tool, lesson 4, "
             "Build item 2: \"Every call ends in exactly one result\" and \"later calls of the "
             "same batch included\").")


BAD = [("missing", None), ("a number", 7), ("None", None), ("a list", ["a.py"]),
       ("a float", 2.5), ("a dict", {"name": "a.py"}), ("True", True)]


class Line(str):
    """A string of a kind of its own: a str, but not of type str exactly."""


def bad_arguments(t, name, count):
    """`count` drawn arguments dicts whose `name` is missing or not a string."""
    return [{} if kind == "missing" else {name: value}
            for kind, value in t.random.sample(BAD, count)]


@lab_test("str_arg hands back a string argument as it is, even \"\"; an absent one, or one of "
          "another type, raises ValueError(\"path must be a string\") (for an argument called "
          "path).")
async def test_str_arg(t):
    name = t.random.choice(["path", "command", "content", "pattern"])
    # "" and a value with spaces or a line break at its ends, every time.
    values = ["", t.random.choice(["a.py", "src/app.py", "rm -rf build"]),
              t.random.choice(["naïve\n", " ", " a.py", "src/app.py\n", "\tx = 1\n"])]
    # And every time, a string holding a NUL: a string all the same.
    values += [t.random.choice(["a.py\0", "\0", "x = 1\0y = 2\n"])]
    t.random.shuffle(values)
    # And every time, a string of millions of characters: a string all the same.
    long = t.random.choice(["a.py ", "x = 1\n", "naïve "]) * t.random.randint(250_000, 1_000_000)
    said = await raised(lambda: harness.str_arg({name: long}, name))
    got = harness.str_arg({name: long}, name) if said is None else ""
    t.expect([said, len(got), got == long], [None, len(long), True],
             f"A string of {len(long):,} characters is a string: str_arg hands it back as it "
             "was sent, however long. The items are [what str_arg raised, the length of what it "
             "returned, whether that is the string whole] (str_arg, lesson 4, Build item 1: "
             "\"as it was sent, when that is a string\").")
    sent = [{name: value, "n": 1} for value in values]
    t.expect([harness.str_arg(arguments, name) for arguments in sent], values,
             "str_arg returns the value as it was sent when it is a string, the empty string "
             "too: \"\" is a string the model sent, not a missing argument, and spaces and line "
             "breaks at its ends are part of it, and so is a NUL anywhere in it. Each item is what one call returned (str_arg, "
             "lesson 4).")
    t.expect(sent, [{name: value, "n": 1} for value in values],
             "str_arg reads the argument and leaves the dict as it was sent: the arguments are "
             "the call's, in the record the model is sent again, so nothing is taken out of them "
             "or changed. Each item is one arguments dict after str_arg read it (str_arg, "
             "lesson 4).")
    # A missing argument every time (a KeyError must not come out), and present ones of other
    # types, drawn.
    # And every time, a dict of three to six other keys, none of them the argument.
    crowded = {key: "a.py" for key in t.random.sample(["mode", "n", "limit", "encoding", "force",
                                                       "dry_run", "cwd"], t.random.randint(3, 6))}
    bad = [{}, {name: name.encode()}, {t.random.choice([name.upper(), name.capitalize(),
                                                         f" {name}"]): "a.py"}, crowded] + [
        {name: value} for _, value
                                         in t.random.sample(BAD[1:], t.random.randint(2, 4))]
    t.random.shuffle(bad)
    before = [sorted(arguments) for arguments in bad]
    found = [await raised(lambda a=a: harness.str_arg(a, name)) for a in bad]
    t.expect([[sorted(arguments) for arguments in bad], found],
             [before, [f"ValueError: {name} must be a string"] * len(bad)],
             "Missing, bytes, a number, None, a list and the like: ValueError(f\"{name} must "
             "be a string\"), naming the argument; bytes are not a string, and a key that is "
             "only like the name (another case, a space) is not the argument, so it is missing, "
             "however many other keys the dict holds; and a refused dict is left as it was sent, nothing added to it for a missing "
             "argument. The items are [the keys of each arguments dict after str_arg read it, "
             "what each call raised] (str_arg, lesson 4, Build item 1: \"as it was sent\"; Build item 2: "
             "\"its arguments stay in the record as the model sent them\").")
    try:
        harness.str_arg({}, name)
        kinds = []
    except Exception as exc:
        kinds = [isinstance(exc, ValueError), isinstance(exc, KeyError)]
    t.expect(kinds, [True, False],
             "A missing argument raises a ValueError that is no KeyError, not even one of a "
             "class that is both: the items are [whether what str_arg raised for {} is a "
             "ValueError, whether it is a KeyError] (str_arg, lesson 4, Build item 1: \"raises "
             "ValueError ... and never a KeyError\").")
    # And every time, a string that starts with a byte order mark and one that holds a lone
    # surrogate (JSON's "\ud800" decodes to one): strings all the same, told here by ascii().
    odd = [t.random.choice(["\ufeffa.py", "\ufeffx = 1\n", "\ufeff", "\ufeff\ufeffsrc/"]),
           t.random.choice(["a\ud800.py", "\udcff", "x = '\ud83d'\n", "\udfff\ud800"])]
    t.random.shuffle(odd)
    got = [await raised(lambda v=v: harness.str_arg({name: v, "n": 1}, name)) or
           ascii(harness.str_arg({name: v, "n": 1}, name)) for v in odd]
    t.expect(got, [ascii(v) for v in odd],
             "A string that starts with a byte order mark (U+FEFF) or holds a lone surrogate is "
             "a string: str_arg hands it back as it was sent, the mark and the surrogate kept. "
             "Each item is ascii() of what str_arg returned, or what it raised (str_arg, lesson "
             "4, Build item 1: \"as it was sent, when that is a string\").")


@lab_test("read called with {} gives the error result \"path must be a string\"; write and bash "
          "check their arguments the same way.")
async def test_bad_arguments_are_results(t):
    ws = lab.Workspace({"a.py": "x\n"})
    tools = [harness.make_read_tool(ws), harness.make_write_tool(ws),
             harness.make_bash_tool(lab.Shell(ws))]
    asked = ([["read", "path", arguments] for arguments in bad_arguments(t, "path", 2)] +
             [["write", "path", {**arguments, "content": "x"}]
              for arguments in bad_arguments(t, "path", 1)] +
             [["write", "content", {**arguments, "path": "b.py"}]
              for arguments in bad_arguments(t, "content", 1)] +
             [["bash", "command", arguments] for arguments in bad_arguments(t, "command", 2)])
    t.random.shuffle(asked)
    calls = [call(name, arguments, id=f"c{n}") for n, (name, _, arguments) in enumerate(asked)]
    sent = [dict(made["arguments"]) for made in calls]
    found = [await settle(harness.run_tool(tools, made)) for made in calls]
    found = [[result["content"], result["is_error"]] for result in found]
    t.expect([made["arguments"] for made in calls], sent,
             "run_tool changes nothing of the call, a call whose argument was refused "
             "included: its arguments stay as the model sent them, the refused one too. Each "
             "item is one call's arguments after run_tool answered it (run_tool, lesson 4, "
             "Build item 2: \"its arguments stay in the record as the model sent them\").")
    t.expect(found, [[f"{argument} must be a string", True] for _, argument, _ in asked],
             "Each tool takes its arguments with str_arg, and run_tool turns the ValueError "
             "into the call's result. Each item is [content, is_error] of one call (str_arg "
             "and run_tool, lesson 4).")
    t.expect(ws.files, {"a.py": "x\n"}, "A refused write writes nothing (make_write_tool, lesson "
                                        "4).")
    # What each tool raises before run_tool sees it: str_arg's ValueError, for every tool.
    read, write, bash = tools
    number = t.random.choice([7, 2.5, 404])
    # Every time too: content that is bytes, None or missing, a command that is a list of
    # strings, and a path that is a path object rather than a string.
    raw = t.random.choice([b"x = 1\n", b"", b"print('hi')\n"])
    steps = t.random.choice([["echo hi"], ["echo hi", "true"], ["ls", "echo done"]])
    where = pathlib.PurePosixPath(t.random.choice(["a.py", "src/app.py"]))
    t.expect([await raised(lambda: read["execute"]({})),
              await raised(lambda: write["execute"]({"path": "b.py", "content": 7})),
              await raised(lambda: write["execute"]({"path": number, "content": "x"})),
              await raised(lambda: bash["execute"]({"command": None})),
              await raised(lambda: write["execute"]({"path": "b.py", "content": raw})),
              await raised(lambda: write["execute"]({"path": "b.py", "content": None})),
              await raised(lambda: write["execute"]({"path": "b.py"})),
              await raised(lambda: bash["execute"]({"command": steps})),
              await raised(lambda: read["execute"]({"path": where})), sorted(ws.files)],
             ["ValueError: path must be a string", "ValueError: content must be a string",
              "ValueError: path must be a string", "ValueError: command must be a string",
              "ValueError: content must be a string", "ValueError: content must be a string",
              "ValueError: content must be a string", "ValueError: command must be a string",
              "ValueError: path must be a string", ["a.py"]],
             "read, write and bash each take their arguments through str_arg, so a bad one "
             "raises str_arg's ValueError, one rule kept in one place: a number is no path, and "
             f"no file is made of it; content that is bytes ({raw!r}), None or missing is not "
             f"a string, so write writes nothing, a list of commands ({steps!r}) is no command, "
             f"and a path object ({where!r}) is no string. The items are what each execute "
             "raised, in that order, then the workspace's files (str_arg, lesson 4, Build item "
             "1: \"write takes path and content through it\").")
    # A command of a str subclass of the test's own: bash answers it as your str_arg does.
    line = Line(t.random.choice(["echo hi", "true", "ls"]))
    took, ran = (await raised(lambda: harness.str_arg({"command": line}, "command")),
                 await raised(lambda: bash["execute"]({"command": line})))
    t.expect(took == ran, True,
             "bash takes command through str_arg, so for a command of a str subclass bash "
             "raises what str_arg raises, or nothing when str_arg takes it and the command "
             "runs. The item is whether what bash raised is what str_arg raised "
             "(make_bash_tool, lesson 4, Build item 1: \"bash takes command through it\").")
    # A spy in str_arg's place: read, write and bash each ask it for their arguments, so the
    # rule is kept in one place, not copied.
    given, asked_for = harness.str_arg, []

    def spy(arguments, name):
        asked_for[-1].append(name)
        return given(arguments, name)
    harness.str_arg = spy
    try:
        for made, arguments in [(read, {"path": "a.py"}), (write, {"path": "c.py", "content": "c\n"}),
                                (bash, {"command": "true"})]:
            asked_for.append([])
            await settle(made["execute"](arguments))
    finally:
        harness.str_arg = given
    t.expect([sorted(set(names)) for names in asked_for], [["path"], ["content", "path"], ["command"]],
             "read, write and bash each take their arguments through str_arg, one rule kept in "
             "one place: with a spy of the test's own in harness.str_arg's place, each asks it "
             "for every argument it takes. The items are the names each of read, write and bash "
             "asked str_arg for (str_arg, lesson 4, Build item 1: \"write takes `path` and "
             "`content` through it, and bash takes `command`\").")
    # A write the workspace refuses (a.py is a file, so a.py/b.py cannot be one) raises in the
    # tool, and only run_tool makes that raise a result.
    t.expect(await result_of(tools, "write", {"path": "a.py/b.py", "content": "x"}),
             ["a.py/b.py", True],
             "write lets ws.write_text's NotADirectoryError('a.py/b.py') out, and run_tool, the "
             "one place a raise becomes a result, answers str(exc) with is_error True: a tool "
             "that catches its own failure tells the model it worked. The items are [content, "
             "is_error] (run_tool, lesson 4).")
    # A good write keeps its content as it was sent, line endings and all, and "" is content
    # too: it empties a file. An empty command line is a command that prints nothing.
    content = t.random.choice(["x = 1\r\ny = 2\r\n", "line one\r\nline two", "a\r\n\r\nb"])
    await result_of(tools, "write", {"path": "c.py", "content": content})
    emptied = await result_of(tools, "write", {"path": "a.py", "content": ""})
    t.expect([ws.files.get("c.py"), ws.files.get("a.py"), emptied[1],
              await result_of(tools, "bash", {"command": ""})],
             [content, "", False, ["", False]],
             "write stores the content as it was sent: \\r\\n stays \\r\\n, no line break is "
             "added, and \"\" empties the file, since str_arg hands back any string untouched, "
             "\"\" included; bash runs \"\" as the command it is. The items are [c.py's text, "
             "a.py's text after writing \"\", whether that write was an error, bash \"\" as "
             "[content, is_error]] (str_arg, make_write_tool and make_bash_tool, lesson 4).")


@lab_test("read of a missing file says exactly \"File not found: nope.txt. Files here: a.py, "
          "src\" (for that path, in a folder holding a.py and src).")
async def test_read_a_missing_file(t):
    paths = t.random.sample(["a.py", "src/main.py", "src/util.py", "setup.py", "docs/plan.md",
                             "README.md", "tests/test_a.py", "zeta.txt", "B.md"],
                            t.random.randint(1, 5))
    files = {path: f"text of {path}\n" for path in paths}
    ws = lab.Workspace(files)
    read = harness.make_read_tool(ws)
    missing = [t.random.choice(["nope.txt", "main.py", "a.py.bak"]),
               t.random.choice(["src/nope.py", "docs/notes.md", "lib/a.py"])]
    t.random.shuffle(missing)
    here = ", ".join(sorted({path.split("/")[0] for path in paths}))
    t.expect([await raised(lambda path=path: read["execute"]({"path": path})) for path in missing],
             [f"FileNotFoundError: File not found: {path}. Files here: {here}" for path in missing],
             "read raises FileNotFoundError naming the path and what is there, the names "
             "ws.listdir('.') gives, in the order it gives them, wherever the missing path "
             "points, so the model can ask "
             "again. Each item is what one read raised (make_read_tool, lesson 4).")
    t.expect(await result_of([read], "read", {"path": missing[0]}),
             [f"File not found: {missing[0]}. Files here: {here}", True],
             "Through run_tool it becomes the call's error result (run_tool, lesson 4).")
    there = t.random.choice(paths)
    t.expect(await result_of([read], "read", {"path": there}), [f"text of {there}\n", False],
             "A file that is there is read as before (make_read_tool, lesson 4).")
    # Every time: that path with a space or a line break at an end, which no file has; a
    # project with no files; and one with more than eight names, every one of them listed,
    # asked for a path inside its one folder.
    near = t.random.choice([" " + there, there + " ", there + "\n"])
    # And every time, a missing path spelt with ./ (and a doubled slash or a second ./ after
    # it, or none): PATH in the message is the path as it was sent, however the workspace would
    # read it. (A path with .. the workspace refuses outright, so none is drawn.)
    dotted = "./" + t.random.choice(["", "/", "./"]) + t.random.choice(
        ["nope.txt", "src/nope.py", "notes.md"])
    # And a path of over ten thousand characters, a path like any other.
    deep = "src/" + "sub/" * t.random.randint(2_600, 6_000) + "nope.py"
    empty = harness.make_read_tool(lab.Workspace({}))
    folders = {"src": "src/main.py", **dict([t.random.choice([
        ("__pycache__", "__pycache__/a.cpython-312.pyc"), (".git", ".git/HEAD"),
        ("node_modules", "node_modules/left-pad/index.js")])])}
    names = sorted(t.random.sample([f"part{n}.py" for n in range(1000)], t.random.randint(505, 600)) +
                   [*folders, t.random.choice([".env", ".gitignore", ".flake8"]),
                    t.random.choice(["README.md", "TODO.md", "Zeta.txt"])])
    crowded = harness.make_read_tool(lab.Workspace(
        {folders.get(name, name): "x\n" for name in names}))
    t.expect([await raised(lambda: read["execute"]({"path": near})),
              await raised(lambda: read["execute"]({"path": deep})),
              await raised(lambda: empty["execute"]({"path": "a.py"})),
              await raised(lambda: crowded["execute"]({"path": "src/nope.py"})),
              await raised(lambda: read["execute"]({"path": dotted}))],
             [f"FileNotFoundError: File not found: {near}. Files here: {here}",
              f"FileNotFoundError: File not found: {deep}. Files here: {here}",
              "FileNotFoundError: File not found: a.py. Files here: ",
              f"FileNotFoundError: File not found: src/nope.py. Files here: {', '.join(names)}",
              f"FileNotFoundError: File not found: {dotted}. Files here: {here}"],
             f"read looks for the path as it was sent ({near!r} is not {there!r}), and names "
             f"it as it was sent ({dotted!r}, ./ and all, not tidied), a path "
             f"of {len(deep):,} characters is a path like any other, and NAMES are "
             "exactly what ws.listdir('.') gives, joined by a comma and a space: nothing for an "
             f"empty project, and every name of the project's top however many there are "
             f"({len(names)} here), in the order it gives them (capitals first), names that "
             f"start with a dot too, and folders such as {[*folders][1]}, even for a path inside "
             f"src. Each item is what one read "
             "raised (make_read_tool, lesson 4, Build item 3: \"NAMES are every name "
             "ws.listdir(\".\") gives, however many\"; Build item 3: \"File not found: PATH. "
             "Files here: NAMES\").")
    # Every time: the page's own case (README.md asked, readme.md there), a path outside the
    # project, and a missing path after a file was written: NAMES are what is there now.
    asked = t.random.choice(["README.md", "Readme.md", "README.MD"])
    cased = harness.make_read_tool(lab.Workspace({"readme.md": "# hi\n", "src/main.py": "x\n"}))
    outside = t.random.choice(["/etc/passwd", "/tmp/notes.md", "/home/me/a.py"])
    new = t.random.choice(["notes.md", "zz.txt", "lib/helpers.py"])
    ws.write_text(new, "new\n")
    now = ", ".join(sorted({path.split("/")[0] for path in [*paths, new]}))
    t.expect([await raised(lambda: cased["execute"]({"path": asked})),
              await raised(lambda: read["execute"]({"path": outside})),
              await raised(lambda: read["execute"]({"path": missing[0]}))],
             [f"FileNotFoundError: File not found: {asked}. Files here: readme.md, src",
              f"FileNotFoundError: File not found: {outside}. Files here: {now}",
              f"FileNotFoundError: File not found: {missing[0]}. Files here: {now}"],
             f"A path with nothing at it raises, whatever it is: {asked} is not readme.md (read "
             f"never picks a name for the model; the model learns the real one), a path outside "
             f"the project lists the project's names as any other does, and after {new} was "
             "written the names are the ones there at the read. Each item is what one read "
             "raised (make_read_tool, lesson 4, Build item 3).")
    # A folder's path, and "" (the project itself, a folder too): read reads them as the
    # workspace does, and what that raises is the call's result through run_tool.
    t.expect([await result_of([crowded], "read", {"path": path}) for path in ("src", "")],
             why="read of a folder: ws.exists says something is there, so read reads it as the "
                 "workspace reads a folder, and what ws.read_text raises becomes, through "
                 "run_tool, the call's error result; read catches nothing of its own and says "
                 "no file is missing. Each item is [content, is_error] of one call, for src and "
                 "for \"\" (make_read_tool and run_tool, lesson 4, Build item 3: \"a folder's "
                 "path is read as the workspace reads it\").")
    # A path the workspace takes for a file's (./ in front) is that file.
    t.expect(await result_of([read], "read", {"path": "./" + there}), [f"text of {there}\n", False],
             f"./{there} is a path the workspace reads as {there}, and ws.exists says whether "
             "anything is at a path, so read reads it. The items are [content, is_error] "
             "(make_read_tool, lesson 4, Build item 3).")
    # A file that goes away between ws.exists and ws.read_text (another program removed it):
    # what the workspace raises then is the call's result, as for a folder.
    # And, every time, a file the workspace will not let be read, and one that is not text.
    gone = t.random.choice(paths)
    locked, binary = t.random.choice(["secrets.env", "id_rsa"]), t.random.choice(["logo.png", "a.pyc"])
    # And every time, a file too big to hold: its MemoryError is the result, as raised.
    big = t.random.choice(["dump.sql", "core.bin"])
    troubles = {gone: FileNotFoundError(f"{gone} was removed while it was read"),
                locked: PermissionError(f"{locked} may not be read by this user"),
                binary: UnicodeDecodeError("utf-8", b"\x89PNG", 0, 1, "invalid start byte"),
                big: MemoryError(f"{big} does not fit in memory")}

    class Vanishing(lab.Workspace):
        def read_text(self, path):
            raise troubles[path]
    vanishing = harness.make_read_tool(Vanishing({**files, locked: "x\n", binary: "x\n",
                                                  big: "x\n"}))
    t.expect([await result_of([vanishing], "read", {"path": path}) for path in troubles],
             why=f"ws.exists says {gone}, {locked}, {binary} and {big} are there, so read reads them, "
                 "and what ws.read_text raises (a FileNotFoundError: the file was removed in "
                 "between; a PermissionError; a UnicodeDecodeError; a MemoryError) becomes the call's result "
                 "through run_tool as it was raised: read catches nothing of its own, so it says "
                 "File not found only for a path ws.exists says has nothing at it, and says "
                 "nothing in words of its own for any other. Each item is [content, is_error] of "
                 "one call (make_read_tool and run_tool, lesson 4, Build item 3: \"read catches "
                 "nothing of its own\").")
    # A project whose top holds a thousand names to five thousand: every one is listed.
    crowd = [f"log{n:04}.txt" for n in range(t.random.randint(1000, 5000))]

    class Crowded(lab.Workspace):
        def listdir(self, path="."):
            return list(crowd)
    t.expect(await raised(lambda: harness.make_read_tool(Crowded({}))["execute"](
        {"path": "notes.md"})) == f"FileNotFoundError: File not found: notes.md. Files here: "
             f"{', '.join(crowd)}", True,
             f"ws.listdir('.') gives {len(crowd):,} names here, and the message lists every one of "
             "them: NAMES are every name ws.listdir(\".\") gives, however many. The item is "
             "whether read raised exactly that FileNotFoundError (make_read_tool, lesson 4, "
             "Build item 3: \"NAMES are every name `ws.listdir(\".\")` gives, however many\").")
    # A workspace whose ws.exists does not see one file that read_text would read: read asks
    # ws.exists first, so File not found, and read_text is never asked.
    hidden = t.random.choice(paths)

    class Blind(lab.Workspace):
        def exists(self, path):
            return path != hidden and super().exists(path)
    t.expect(await result_of([harness.make_read_tool(Blind(files))], "read", {"path": hidden}),
             [f"File not found: {hidden}. Files here: {here}", True],
             f"ws.exists says nothing is at {hidden}, so read says File not found, though "
             "ws.read_text would have read it: File not found is for a path ws.exists says has "
             "nothing at it, asked before anything is read. The items are [content, is_error] "
             "(make_read_tool, lesson 4, Build item 3: \"`ws.exists` says whether anything is at "
             "a path\").")


@lab_test("bash running a command that exits with a code other than 0, such as `exit 2`, gives "
          "an ordinary result (is_error False) that ends with \"Command exited with code 2\".")
async def test_a_failing_command_is_information(t):
    bash = harness.make_bash_tool(lab.Shell(lab.Workspace({"a.py": "x\n"})))
    code = t.random.choice([1, 2, 3, 42, 127, 255])
    words = t.random.choice(["failing", "tests failed", "naïve output"])
    t.expect(await result_of([bash], "bash", {"command": f"echo {words}; exit {code}"}),
             [f"{words}\n\nCommand exited with code {code}", False],
             "A command that ran and failed is news for the model, not a broken tool: its "
             "output, then the line \"Command exited with code <n>\", is_error False (bash, "
             "lesson 4).")
    t.expect(await settle(bash["execute"]({"command": f"exit {code}"})),
             f"\nCommand exited with code {code}",
             "With no output, only the status line (make_bash_tool, lesson 4).")
    t.expect(await result_of([bash], "bash", {"command": "grep x a.py"}),
             ["bash: grep: command not found\n\nCommand exited with code 127", False],
             "A command the shell does not have still ran, and exited with 127: its words and "
             "the status line, is_error False, as for any code but 0. The items are [content, "
             "is_error] (bash, lesson 4).")
    missing = t.random.choice(["nope.txt", "b.py", "src"])
    t.expect(await settle(bash["execute"]({"command": f"cat a.py {missing}"})),
             f"x\ncat: {missing}: No such file or directory\n\nCommand exited with code 1",
             "Output, error output and the code all reach the model (make_bash_tool, lesson 4).")


@lab_test("The status line follows a newline whatever the command printed, and comes for any "
          "code but 0: output with no final line break, and a code below 0 (a command a signal "
          "killed), get \"\\nCommand exited with code N\" too.")
async def test_the_status_line_follows_any_output(t):
    # The workspace shell's own commands always end their output with a line break and exit
    # with 0 or more; a real shell does not, so two commands of the test's own stand in.
    partial = t.random.choice(["50% done", "Compiling...", "naïve: no newline"])
    code, signal = t.random.choice([1, 2, 3, 127]), t.random.choice([-9, -15, -11])
    trouble = t.random.choice(["no such device", "the shell went away", "pipe closed"])

    def broken(args, ws):
        raise OSError(trouble)
    inner = t.random.choice([1, 2, 3])
    wide = t.random.choice([256, 1000, 65535, 2 ** 31])
    # Every time too: a code past 2**31 and one far below 0, ints like any other.
    far, sunk = t.random.choice([2 ** 32, 2 ** 63, 10 ** 20]), -t.random.choice([129, 2 ** 31 + 1, 2 ** 63])
    # And every time: a code of thirty digits to three hundred, above 0 or below.
    vast = t.random.choice([1, -1]) * 10 ** t.random.randint(30, 300)
    # And every time, one of a thousand digits to four thousand (Python prints ints of up to
    # 4,300 digits), above 0 or below: as cheap to try as any other.
    vaster = t.random.choice([1, -1]) * 10 ** t.random.randint(1000, 4000)
    flood = "".join(f"line {n} of the build log\n" for n in range(t.random.randint(150, 300)))
    # And every time, a thousand short lines to nineteen hundred (a later lesson's bash keeps
    # two thousand lines, so no test of this lab goes past that).
    tall = "".join(f"{n}\n" for n in range(t.random.randint(1000, 1900)))
    # And every time, output that ends in a carriage return (a progress bar redrawn in place,
    # or a Windows line end cut short), one or more: characters the command printed like any other.
    progress = t.random.choice(["Downloading 100%", "step 3/3", "naïve bar ###"]) + t.random.choice(
        ["\r", "\r\r", "\r\n\r"])
    shell = lab.Shell(lab.Workspace({}), commands={
        "partial": lambda args, ws: (partial, code),
        "killed": lambda args, ws: ("started\n", signal), "broken": broken,
        "piped": lambda args, ws: ("first lines\n", 141),
        "nested": lambda args, ws: (f"inner\nCommand exited with code {inner}", code),
        "again": lambda args, ws: (f"retrying\nCommand exited with code {code}", code),
        "wide": lambda args, ws: ("wrapped\n", wide),
        "far": lambda args, ws: ("far\n", far), "sunk": lambda args, ws: ("sunk\n", sunk),
        "vast": lambda args, ws: ("vast\n", vast),
        "vaster": lambda args, ws: ("vaster\n", vaster),
        "flood": lambda args, ws: (flood, code),
        "tall": lambda args, ws: (tall, code),
        "progress": lambda args, ws: (progress, code)})
    bash = harness.make_bash_tool(shell)
    t.expect([await result_of([bash], "bash", {"command": command})
              for command in ("partial", "killed", "piped", "nested", "again", "wide", "far",
                              "sunk", "flood", "vast", "vaster", "progress")],
             [[f"{partial}\nCommand exited with code {code}", False],
              [f"started\n\nCommand exited with code {signal}", False],
              ["first lines\n\nCommand exited with code 141", False],
              [f"inner\nCommand exited with code {inner}\nCommand exited with code {code}",
               False],
              [f"retrying\nCommand exited with code {code}\nCommand exited with code {code}",
               False],
              [f"wrapped\n\nCommand exited with code {wide}", False],
              [f"far\n\nCommand exited with code {far}", False],
              [f"sunk\n\nCommand exited with code {sunk}", False],
              [f"{flood}\nCommand exited with code {code}", False],
              [f"vast\n\nCommand exited with code {vast}", False],
              [f"vaster\n\nCommand exited with code {vaster}", False],
              [f"{progress}\nCommand exited with code {code}", False]],
             f"The result is what the command printed, then a newline, then Command exited "
             f"with code N, whenever the code is other than 0: the newline goes in even when "
             f"the output has none of its own, a code below 0 is other than 0, however far below ({sunk} here), so is 141 (a "
             f"pipe closed early) and so is a code past 255 ({wide} and {far} here), output of any length "
             f"({len(flood)} characters here) gets the one newline, and output that itself ends "
             f"with a status line gets this command's own, even when it is the same line, and "
             f"output that ends in a carriage return ({progress!r} here) keeps it, the newline "
             f"after it. Each "
             f"item is [content, is_error] of one call, for the commands partial, killed, piped, "
             f"nested, again (whose output already ends with Command exited with code {code}), "
             f"wide, far, sunk, flood, vast and vaster, whose codes have {len(str(abs(vast)))} and "
             f"{len(str(abs(vaster)))} digits, and progress: "
             f"no code is too far from 0, and no output is tidied (bash, lesson 4, Build item 4: "
             f"\"what the command printed, then a newline\").")
    tallied = await settle(bash["execute"]({"command": "tall"}))
    t.expect([len(tallied), tallied == f"{tall}\nCommand exited with code {code}"],
             [len(tall) + len(f"\nCommand exited with code {code}"), True],
             f"Output of {tall.count(chr(10)):,} lines, then the status line: the result is what "
             "the command printed, all of it, then a newline, then Command exited with code N. "
             "The items are [the result's length, whether it is the output whole and the status "
             "line] (bash, lesson 4, Build item 4: \"its result is what the command printed\").")
    # Every code a shell gives, 1 to 255: none is passed over (130, Ctrl-C, included).
    each = harness.make_bash_tool(lab.Shell(lab.Workspace({}), commands={
        "code": lambda args, ws: ("", int(args[0]))}))
    t.expect([code for code in range(1, 256)
              if await settle(each["execute"]({"command": f"code {code}"}))
              != f"\nCommand exited with code {code}"], [],
             "Every code from 1 to 255 gets its status line, 130 (Ctrl-C) and 141 among them. "
             "The item is the list of the codes whose result was not \"\\nCommand exited with "
             "code N\" (bash, lesson 4, Build item 4: any code but 0).")
    # A shell that cannot run the command at all is the tool failing, which bash leaves to run_tool.
    t.expect(await result_of([bash], "bash", {"command": "broken"}), [trouble, True],
             f"When the shell itself raises (here OSError({trouble!r})), bash lets it out and "
             "run_tool, the one place a raise becomes a result, answers str(exc) with is_error "
             "True; a try inside bash would tell the model the command ran. The items are "
             "[content, is_error] (run_tool, lesson 4).")


@lab_test("A command that exits with code 0 gets no status line.")
async def test_success_adds_nothing(t):
    bash = harness.make_bash_tool(lab.Shell(lab.Workspace({})))
    said = t.random.sample(["ok", "all", "good", "0 failed", "exit 1", "done", "naïve"],
                           t.random.randint(2, 4))
    t.expect(await result_of([bash], "bash", {"command": f"echo '{' '.join(said)}'"}),
             [" ".join(said) + "\n", False],
             "Exit code 0 adds nothing to the output, whatever the output says. The items are "
             "[content, is_error] (bash, lesson 4).")
    quiet = t.random.sample(["true", "exit 0", "true && true"], 2)
    t.expect([await settle(bash["execute"]({"command": command})) for command in quiet], ["", ""],
             "No output, no line (make_bash_tool, lesson 4).")
    last = t.random.choice(["true", "exit 0"])
    t.expect(await settle(bash["execute"]({"command": f"echo {said[0]}; {last}"})),
             said[0] + "\n", "A line that ends with code 0 adds nothing either, even after "
                              "other commands (make_bash_tool, lesson 4).")


@lab_test("The error result is in the next request, right after its call, and that request is "
          "one a provider accepts.")
async def test_the_next_request_carries_the_error(t):
    exc, text = failures(t)[0]
    name = t.random.choice(NAMES)
    arguments = {"env": t.random.choice(["prod", "staging", "dev"])}
    model = lab.ScriptedModel([lab.reply(lab.call(name, arguments)),
                               lab.say("That failed; here is why.")])
    messages = []
    prompt = t.random.choice(PROMPTS)
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [failing(name, exc)], prompt))
    sent = model.calls[1].messages
    t.expect([lab.shape(sent), sent[0]["content"], harness.tool_calls(sent[1])[0]["name"],
              harness.tool_calls(sent[1])[0]["arguments"]],
             ["U A[c1] R(c1)", prompt, name, arguments],
             "The model is told what went wrong, as the call's result, right after the call it "
             "answers. The items are [the request's messages, the prompt, the call's tool, its "
             "arguments] (run_tool, lesson 4).")
    t.expect([sent[2]["tool_call_id"], sent[2]["content"], sent[2]["is_error"]],
             ["c1", text, True],
             "The result names its call and carries str(exc), marked is_error. The items are "
             "[tool_call_id, content, is_error] (run_tool, lesson 4).")
    t.expect(lab.validate(sent), [], "Every call answered: a request a provider accepts (run_tool, "
                                     "lesson 4).")
