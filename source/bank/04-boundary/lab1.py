"""Lab 4.1's grading bank: scenarios for each rule of its ledger (source/lessons/04-boundary/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario reaches its rule through another entry point than the public tests, or observes
another thing (a tool of the test's own built on str_arg, the call blocks on the record after
a run, what the model's next request carries, a run that meets an ending of the test's own,
read's words as a workspace empties, shell commands of the test's own with drawn exit codes),
so that the public tests' wanted expressions, evaluated in a bank test's frame, do not give its
values.
"""
import asyncio
import errno
import pathlib
import string
import traceback
import unicodedata

import harness
import lab
from lab.kit import lab_test, raised, settle, tool

LAB = "4.1"
ROLE = "You maintain a small service."
STATUS = "Command exited with code"  # bash's status line, after a line break
NOT_THERE = ": No such file or directory"  # what cat says of a missing file
PROMPTS = ["Tidy the service up.", "Run the checks.", "Make it work, s'il te plaît."]
TEXT = {"type": "object", "properties": {"pattern": {"type": "string"}}}


async def go(model, tools, messages, prompt=None):
    """One run of run_agent on `messages`, whatever its colour; the record."""
    await lab.drive(harness.run_agent(model, ROLE, messages, tools, prompt or PROMPTS[0]))
    return messages


def results(messages):
    """[content, is_error] of each result on the record, in order."""
    return [[m.get("content"), m.get("is_error")] for m in messages if m["role"] == "toolResult"]


class Command(str):
    """A str of the test's own kind: bash answers it as str_arg does."""


# --- rule 1: str_arg ------------------------------------------------------------------------

@lab_test("A tool of the test's own that takes its pattern through str_arg, called in a run "
          "with a pattern that is \"\", one with spaces at its ends, one missing and ones of "
          "other types: a string comes back as sent, anything else is the call's error "
          "result \"pattern must be a string\", and the call blocks on the record keep their "
          "arguments.")
async def test_bank_a_tool_of_our_own_built_on_str_arg(t):
    seen = []

    def search(arguments):
        pattern = harness.str_arg(arguments, "pattern")
        seen.append(pattern)
        return f"searched for [{pattern}]"
    good = ["", t.random.choice([" TODO ", "fixme\n", "\tdef "]),
            t.random.choice(["\ufeffTODO", "\ufeff", "\ufeff\ufeffdef "])]  # a BOM kept
    bad = t.random.sample([7, 0, None, False, ["a"], {"p": 1}, 2.5, b"bytes"], 3)
    sent = [{"pattern": p, "limit": 5} for p in good + bad] + [{"limit": 5}]
    t.random.shuffle(sent)
    # write and bash in the same run, each sent content or a command that is no string.
    ws = lab.Workspace({"keep.md": "kept\n"})
    odd = [("write", {"path": "n.md", "content": t.random.choice([b"x = 1\n", b""])}, "content"),
           ("write", {"path": "n.md", "content": None}, "content"),
           ("write", {"path": "n.md"}, "content"),
           ("bash", {"command": t.random.choice([["ls"], ["ls", "echo done"]])}, "command")]
    t.random.shuffle(odd)
    model = lab.ScriptedModel([lab.reply(*[lab.call("search", dict(a)) for a in sent],
                                         *[lab.call(n, dict(a)) for n, a, _ in odd]),
                               lab.say("Searched.")])
    messages = await go(model, [tool("search", search, TEXT), harness.make_write_tool(ws),
                                harness.make_bash_tool(lab.Shell(ws))], [],
                        t.random.choice(PROMPTS))
    wanted = [[f"searched for [{a['pattern']}]", False] if isinstance(a.get("pattern"), str)
              else ["pattern must be a string", True] for a in sent]
    wanted += [[f"{refused} must be a string", True] for _, _, refused in odd]
    t.expect([results(messages), seen,
              [b["arguments"] for b in messages[1]["content"] if b["type"] == "toolCall"],
              sorted(ws.files)],
             [wanted, [a["pattern"] for a in sent if isinstance(a.get("pattern"), str)],
              sent + [a for _, a, _ in odd], ["keep.md"]],
             "[Each result of the run as [content, is_error], the search calls' then write's "
             "and bash's; the patterns the tool got from str_arg; the arguments of each call "
             "block on the record afterwards; the workspace's files].")


@lab_test("read, write and bash, each called through its execute with an argument missing or "
          "of another type, raise str_arg's ValueError naming it; content with \\r\\n and "
          "\"\" is written as sent and read back so; bash runs \"\" as a command.")
async def test_bank_each_tool_takes_its_arguments_through_str_arg(t):
    ws = lab.Workspace({"keep.md": "kept\n"})
    read, write = harness.make_read_tool(ws), harness.make_write_tool(ws)
    bash = harness.make_bash_tool(lab.Shell(ws))
    odd = t.random.choice([3, None, ["x"], True])
    # (tool, its arguments, the argument str_arg refuses)
    tries = [(read, {}, "path"), (read, {"path": odd}, "path"),
             (write, {"path": "n.md"}, "content"), (write, {"content": "x", "path": odd}, "path"),
             (bash, {}, "command"), (bash, {"command": odd}, "command"),
             (read, {"path": b"keep.md"}, "path"), (bash, {"command": b"ls"}, "command"),
             (read, {t.random.choice(["Path", "PATH", "path "]): "keep.md"}, "path"),
             (write, {"content": "x", "path": t.random.choice([5, 1.5, 404])}, "path"),
             (write, {"path": "n.md", "content": t.random.choice([b"x\n", b"ok"])}, "content"),
             (write, {"path": "n.md", "content": None}, "content"),
             (bash, {"command": t.random.choice([["true"], ["ls", "true"]])}, "command"),
             (read, {key: "keep.md" for key in t.random.sample(
                 ["file", "mode", "encoding", "limit", "offset", "lines"], t.random.randint(3, 6))},
              "path")]
    t.random.shuffle(tries)
    keys = [sorted(a) for _, a, _ in tries]
    problems = [await raised(lambda x=x, a=a: x["execute"](a)) for x, a, _ in tries]
    crlf = t.random.choice(["one\r\ntwo\r\n", "a\r\n\r\nb", "x = 1\r\n"])
    said = [await settle(write["execute"]({"path": "n.md", "content": crlf})),
            await settle(read["execute"]({"path": "n.md"})),
            await settle(write["execute"]({"path": "keep.md", "content": ""})),
            await settle(read["execute"]({"path": "keep.md"})),
            await settle(bash["execute"]({"command": ""}))]
    nul = t.random.choice(["a\0b\n", "\0", "x = 1\0\n"])  # a string holding a NUL
    said += [await settle(write["execute"]({"path": "z.md", "content": nul})),
             await settle(read["execute"]({"path": "z.md"}))]
    # Content led by a byte order mark and content holding a lone surrogate, written and read
    # back: each as sent (told by ascii(), as JSON would escape it).
    unusual = [t.random.choice(["\ufeffx = 1\n", "\ufeff# notes\n", "\ufeff"]),
               t.random.choice(["caf\udce9\n", "\ud800", "x = '\udfff'\n"])]
    t.random.shuffle(unusual)
    kept = []
    for text in unusual:
        wrote = await raised(lambda text=text: write["execute"]({"path": "u.md", "content": text}))
        back = ascii(await settle(read["execute"]({"path": "u.md"}))) if wrote is None else None
        kept.append([wrote, back, await raised(lambda text=text: harness.str_arg(
            {"pattern": text}, "pattern")) or ascii(harness.str_arg({"pattern": text}, "pattern"))])
    try:
        await settle(write["execute"]({"path": "n.md"}))
        keyed = None
    except Exception as exc:
        keyed = isinstance(exc, KeyError)
    sub = Command(t.random.choice(["true", "exit 0"]))
    given, asked_for = harness.str_arg, []

    def spy(arguments, name):
        asked_for.append(name)
        return given(arguments, name)
    harness.str_arg = spy
    try:
        await settle(bash["execute"]({"command": "true"}))
    finally:
        harness.str_arg = given
    huge = t.random.choice(["ls ", "echo\n"]) * t.random.randint(400_000, 900_000)
    took = await raised(lambda: given({"command": huge}, "command"))
    t.expect([took, sorted(set(asked_for)), len(given({"command": huge}, "command"))
              if took is None else 0, keyed, kept],
             [None, ["command"], len(huge), False,
              [[None, ascii(text), ascii(text)] for text in unusual]],
             "[What str_arg raised for a command of millions of characters, the names bash "
             "asked a spy in harness.str_arg's place for, the length str_arg handed back, "
             "whether what write raised for a missing content is a KeyError, then for content "
             "led by a byte order mark and content holding a lone surrogate: what write raised, "
             "ascii() of what read gave back, ascii() of what str_arg handed back].")
    t.expect([problems, [sorted(a) for _, a, _ in tries] == keys, said,
              await raised(lambda: harness.str_arg({"command": sub}, "command")) ==
              await raised(lambda: bash["execute"]({"command": sub}))],
             [[f"ValueError: {refused} must be a string" for _, _, refused in tries], True,
              ["Successfully wrote to n.md.", crlf, "Successfully wrote to keep.md.", "", "",
               "Successfully wrote to z.md.", nul],
              True],
             "[What each execute raised for a missing or mistyped argument, bytes, None and a "
             "list among them; whether each arguments dict kept its keys, nothing added for a "
             "missing one; then what a write of text with \\r\\n said, what read gave back, what a write of "
             "\"\" said, what read gave back, what bash \"\" gave, what a write of text holding a "
             "NUL said and what read gave back; whether bash raised what "
             "str_arg raised for a command of a str subclass].")


# --- rule 2: the boundary, in run_tool -------------------------------------------------------

class Ending(BaseException):
    """What a program of the test's own raises as it ends: not an Exception, and none of the
    endings the lesson names."""


class Refused(Exception):
    """A failure of a tool's own kind whose class words its str(): made with an address, it
    reads "ADDRESS would not take the connection"."""

    def __str__(self):
        return f"{self.args[0]} would not take the connection"


def flaky(log):
    """A tool that fails on its first run and works from its second: a retry would hide the
    failure."""
    def fn(arguments):
        log.append("flaky")
        if log.count("flaky") == 1:
            raise ConnectionError("the service did not answer")
        return "answered"
    return tool("flaky", fn)


def raising(name, exc, log):
    """A tool `name` that notes each run in `log` and raises `exc`, the very object each time,
    with a traceback of its own each time, as a failure freshly raised has: raised again as it
    stands, the same object would carry every earlier raise's frames too, a traceback that grows
    with each run, which a harness that prints the tracebacks it catches (allowed: 4.1's "each
    caught failure printed to stderr as well") would take ever longer to print."""
    def fn(arguments):
        log.append(name)
        raise exc.with_traceback(None)
    return tool(name, fn)


def answering(name, answer, log):
    """A tool `name` that notes each run in `log` and returns `answer`."""
    return tool(name, lambda arguments: log.append(name) or answer)


@lab_test("A batch of calls whose tools fail in many ways, with names a tool almost has, a tool "
          "handed only to an earlier call, one added to the list since, and a tool that fails "
          "twenty-odd times: the model's next request holds one result per call, in order, each "
          "failure as str(exc) whole with is_error True, each unknown name as Tool NAME not "
          "found, and every tool ran once per call; rounds of nothing but failures after it "
          "do not end the run.")
async def test_bank_what_the_next_request_carries_after_failures(t):
    log = []
    long = "the config file has " + ", ".join(f"key{n}" for n in range(2000)) * t.random.randint(20, 60)
    failures = {"lookup": KeyError(t.random.choice(["user", "id"])), "parse": ValueError(long),
                "ping": OSError(t.random.choice(["  no route to host\n", "\ttimeout \n",
                                                 "\nrefused\n"])),
                "buggy": NameError("name 'cfg' is not defined"),
                "nulls": AttributeError("'NoneType' object has no attribute 'get'"),
                "deploy": RuntimeError(), "slow": TimeoutError("no reply in 60 s"),
                "check": AssertionError(t.random.choice(["2 != 3", "expected a dict"])),
                "hollow": OSError(), "index": KeyError("index"),
                "columns": KeyError(t.random.choice(["unit price in euros", "the owner's id"])),
                "deep": RecursionError("maximum recursion depth exceeded"), "bare": Exception(),
                "busy": t.random.choice([InterruptedError(errno.EINTR, "Interrupted system call"),
                                         BlockingIOError(errno.EAGAIN, "Resource temporarily "
                                                                       "unavailable")]),
                "uploads": ExceptionGroup("2 uploads failed", [OSError("quota"), ValueError("size")]),
                "legacy": DeprecationWarning(t.random.choice(["use v2", "the flag is old"])),
                "stub": NotImplementedError(t.random.choice(["v2 only", "not yet"])),
                "win": OSError(t.random.choice(["bad\r\nworse\r\n", "no disk\r\n"])),
                "grep": ValueError("k must be a string"),
                "cut": ConnectionAbortedError("the peer aborted"),
                "stalled": t.random.choice([InterruptedError(errno.EINTR, "Interrupted"),
                                            OSError(errno.EINTR, "Interrupted system call")]),
                "chained": ValueError(t.random.choice(["no profile", "bad region"])),
                "locked": OSError(errno.EBUSY, "Device or resource busy"),
                "stale": OSError(errno.ESTALE, "Stale file handle"),
                "jammed": OSError(t.random.choice([errno.EIO, errno.ENOLCK, errno.ETXTBSY]),
                                  "try later"),
                "stream": StopAsyncIteration(t.random.choice(["no more pages", "end of rows"])),
                "first": IndexError(),
                "plugin": ModuleNotFoundError(t.random.choice(["No module named 'boto3'",
                                                               "No module named 'lxml'"])),
                "spawn": ChildProcessError(t.random.choice(["No child processes",
                                                            "the worker is gone"]))}
    failures["chained"].__cause__ = OSError("the file ~/.aws/config is missing")
    # A failure whose class words its own str() (told in those words, not by its argument), and
    # one with notes added (told without them).
    failures["dial"] = Refused(t.random.choice(["db.internal:5432", "the mail relay"]))
    failures["noted"] = OSError(t.random.choice(["quota exceeded", "read-only file system"]))
    failures["noted"].add_note(t.random.choice(["while writing build/out.o", "in step 3 of 4"]))
    # A message holding a NUL, an OSError whose errno says the network is down or slow, and a
    # tool whose name has an accented letter, called by its name spelt with a combining accent.
    failures["binary"] = ValueError(t.random.choice(["bad byte \0 here", "\0\0", "row 3: \0"]))
    for code in (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ETIMEDOUT, errno.ENETDOWN,
                 errno.ECONNREFUSED, errno.ECONNRESET):  # every network errno, a tool each
        failures[f"offline_{errno.errorcode[code].lower()}"] = OSError(code, t.random.choice(
            ["the network is down", "no route", "try later"]))
    accented = unicodedata.normalize("NFC", t.random.choice(["déployer", "résumé", "naïve"]))
    failures[accented] = RuntimeError("it broke")
    answers = {"status": "Error: 0 found", "read_log": "",
               "export": "row\n" * t.random.randint(260_000, 300_000)}  # over a million
    tools = [raising(n, exc, log) for n, exc in failures.items()] + [
        flaky(log), answering("status", answers["status"], log),
        answering("export", answers["export"], log)]
    await settle(harness.run_tool(tools, lab.call("status", id="k0")))
    await settle(harness.run_tool([answering("retired", "old", log)], lab.call("retired",
                                                                               id="k1")))
    tools.insert(t.random.randrange(len(tools)), answering("read_log", "", log))  # added since
    log.clear()
    names = [x["name"] for x in tools] + [
        t.random.choice(["Status", "STATUS"]), "retired",
        t.random.choice(["read-log", "read_log ", " read_log"]),
        "".join(chr(ord(c) + 0xFEE0) for c in "status"),  # fullwidth letters
        "read_log_" + "_then_".join(t.random.choices(list(failures), k=30)) *
        t.random.randint(20, 60),  # a long name
        "read_log_" + "x" * t.random.randint(200_000, 600_000),  # a longer one
        t.random.choice(["status\n", "read\tlog", "\tstatus"]),  # a line break or a tab
        t.random.choice(["status\r", "read\rlog"]), t.random.choice(["status\0", "\0read_log"]),
        "read" + t.random.choice([chr(c) for c in range(1, 32) if c not in (9, 10, 13)] +
                                 ["\x7f"]) + "log",  # another control character
        "read" + t.random.choice(["\u2028", "\u2029"]) + "log",  # a line or paragraph separator
        t.random.choice(["status", "deploy", "export"]) + str(t.random.randint(1, 99)),
        unicodedata.normalize("NFD", accented)]  # the same on screen, another name
    names += [c + t.random.choice(["_job", "ob"]) for c in string.ascii_letters + string.digits]
    t.random.shuffle(names)
    names += ["deploy"] * t.random.randint(60, 120)  # one tool failing scores of times over
    rounds = t.random.randint(9, 10)  # then rounds whose every call fails, before the answer
    asked = [{"k": k, **{f"opt{j}": j for j in range(t.random.randint(0, 7))}}
             for k in range(len(names))]  # one argument to eight
    asked[-1].update({f"opt{j}": "" for j in range(8, t.random.randint(16, 4_000))})  # many more
    model = lab.ScriptedModel([lab.reply(*[lab.call(n, dict(a)) for n, a in zip(names, asked)])] +
                              [lab.reply(lab.call("deploy"), lab.call("slow"))] * rounds +
                              [lab.say("Noted.")])
    problem = await raised(lambda: go(model, tools, [], t.random.choice(PROMPTS)))
    wanted = [[str(failures[n]), True] if n in failures else
              [answers[n], False] if n in answers else
              ["the service did not answer", True] if n == "flaky" else
              [f"Tool {n} not found", True] for n in names]
    sent = model.calls[1].messages if len(model.calls) > 1 else []
    alone = await settle(harness.run_tool([], lab.call(t.random.choice(["status", "deploy"]),
                                                       id="k2")))
    nameless = await settle(harness.run_tool(tools, {"type": "toolCall", "id": "k3", "name": "",
                                                     "arguments": {}}))
    # A return of five million characters and more, in a call of its own; then a run of its own
    # whose 45 to 70 rounds all fail, one tool each time, before the answer.
    # In lines of a hundred characters: a harness may print a caught failure's traceback for
    # its author (allowed, 4.1's "each caught failure printed to stderr as well"), and Python
    # formats a message line by line, which for millions of short lines spends the spin guard's
    # half second of processor time (lab/check/limits.py) in one call of run_tool.
    bulk = ("row " * 24 + "row\n") * t.random.randint(52_000, 120_000)
    whole = await settle(harness.run_tool([answering("dump", bulk, [])], lab.call("dump", id="k4")))
    told = await settle(harness.run_tool([raising("dump", ValueError(bulk), [])],
                                         lab.call("dump", id="k5")))
    many, again = t.random.randint(45, 70), []
    later = lab.ScriptedModel([lab.reply(lab.call("deploy"))] * many + [lab.say("Gave up.")])
    record = await go(later, [raising("deploy", failures["deploy"], again)], [])
    t.expect([problem, len(model.calls), [[m.get("content"), m.get("is_error")] for m in sent
                                          if m.get("role") == "toolResult"],
              sorted(log), [b["arguments"] for b in harness.tool_calls(sent[1])] if sent else [],
              [alone["content"], alone["is_error"]],
              [nameless["content"], nameless["is_error"], nameless["tool_name"]],
              [len(whole["content"]), whole["content"] == bulk, whole["is_error"]],
              [len(told["content"]), told["content"] == bulk, told["is_error"]],
              [len(later.calls), len(again), results(record)[-1]]],
             [None, rounds + 2, wanted, sorted([n for n in names if n in failures or n in answers
                                                or n == "flaky"] + ["deploy", "slow"] * rounds),
              asked, [f"Tool {alone['tool_name']} not found", True], ["Tool  not found", True, ""],
              [len(bulk), True, False], [len(bulk), True, True], [many + 1, many, ["", True]]],
             "[What the run raised; the requests made, rounds of nothing but failures "
             "included; each result the second request carried as [content, is_error]; the "
             "tools that ran, once per call naming them; the arguments of the first reply's "
             "calls in the second request; a call answered with no tools at all; a call whose "
             "name is \"\"; a return of millions of characters, then the same raised as a "
             "message, each as [length, whole, is_error]; "
             "a run of its own whose every round fails, as [requests, runs of the tool, its "
             "last result]]: a KeyError's str() keeps its quotes, no kind of Exception is a case "
             "of its own, a long message is whole, a long return is whole, any name no tool "
             "has is said whole, and \"Error: 0 found\" returned is no failure.")


@lab_test("A run whose batch writes a file, writes where the workspace refuses, runs a command "
          "the shell cannot run, then meets an ending of the program's own: the ending leaves "
          "the run as the very object raised, the record holds the three results before it "
          "and nothing after; Ctrl-C, sys.exit, PowerCut, GeneratorExit and a cancellation "
          "leave run_tool as they came.")
async def test_bank_endings_pass_and_the_tools_own_failures_are_results(t):
    said = t.random.choice(["powering off", "the lid closed", "out of battery"])
    ending = Ending(said)
    trouble = t.random.choice(["no such device", "the shell went away"])

    def broken(args, ws):
        raise OSError(trouble)
    ws = lab.Workspace({"a.py": "x = 1\n"})
    tools = [harness.make_write_tool(ws), harness.make_bash_tool(lab.Shell(ws, commands={
        "deploy": broken})), raising("halt", ending, []), harness.make_read_tool(ws)]
    name = t.random.choice(["b.md", "c.txt"])
    # name is read before it is written and again after, with the very same arguments.
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": name}),
                                         lab.call("write", {"path": name, "content": "ok\n"}),
                                         lab.call("write", {"path": f"a.py/{name}",
                                                            "content": "no\n"}),
                                         lab.call("bash", {"command": "deploy"}),
                                         lab.call("read", {"path": name}),
                                         lab.call("halt"), lab.call("write", {
                                             "path": "late.md", "content": "never\n"})),
                               lab.say("Never asked.")])
    messages, came = [], None
    try:
        await go(model, tools, messages, t.random.choice(PROMPTS))
    except Ending as out:
        came = "the one raised" if out is ending else "a copy"
    t.expect([came, lab.shape(messages), results(messages), sorted(ws.files)],
             ["the one raised", "U A[" + ",".join(f"c{k}" for k in range(1, 8)) + "] " +
              " ".join(f"R(c{k})" for k in range(1, 6)),
              [[f"File not found: {name}. Files here: a.py", True],
               [f"Successfully wrote to {name}.", False], [f"a.py/{name}", True],
               [trouble, True], ["ok\n", False]], sorted(["a.py", name])],
             "[What left the run; lab.shape of the record; each result as [content, "
             "is_error]; the workspace's files]: write and bash let their failures out for "
             "run_tool to answer, a read asked again after a write runs again and finds the "
             "file, and an ending is not a tool failing.")
    code = t.random.randint(2, 9)
    power = lab.PowerCut(said)
    power.__cause__ = OSError(t.random.choice(["mains lost", "the breaker tripped"]))
    left = []
    for exc in (KeyboardInterrupt(), SystemExit(code), power, GeneratorExit(),
                asyncio.CancelledError()):
        cause, suppressed = exc.__cause__, exc.__suppress_context__
        try:
            await settle(harness.run_tool([raising("halt", exc, [])], lab.call("halt")))
            left.append("a result")
        except BaseException as out:
            frames = traceback.extract_tb(out.__traceback__)
            left.append([type(out).__name__, out is exc, bool(frames) and frames[-1].name == "fn"
                         and out.__cause__ is cause and out.__suppress_context__ == suppressed])
    t.expect(left, [["KeyboardInterrupt", True, True], ["SystemExit", True, True],
                    ["PowerCut", True, True], ["GeneratorExit", True, True],
                    ["CancelledError", True, True]],
             "[For Ctrl-C, sys.exit, a power cut, GeneratorExit and a cancellation raised by a "
             "tool, what left run_tool, whether it was the very object raised, and whether its "
             "traceback still reaches the tool's line that raised it, its __cause__ and "
             "__suppress_context__ as they were].")


# --- rule 3: read's missing file ------------------------------------------------------------

@lab_test("A run whose model reads a missing path inside a folder, writes files until the "
          "project has over eight names, reads missing paths again, one of them a file's name "
          "with a space at an end: each read of nothing is an error result naming the path "
          "and every name of the project's top as it is then.")
async def test_bank_what_the_model_learns_of_missing_files(t):
    first = sorted(t.random.sample(["app.py", "README.md", "tox.ini", "Makefile"], 2) +
                   [f"old{n}.py" for n in t.random.sample(range(1000), t.random.randint(320, 360))] +
                   [t.random.choice(["TODO.md", "Zeta.txt"])])
    junk, leaving = t.random.choice([("__pycache__", "__pycache__/app.cpython-312.pyc"),
                                     (".git", ".git/config"),
                                     ("node_modules", "node_modules/x/index.js")])
    first = sorted(first + [junk])
    ws = Guarded({"src/main.py": "pass\n", leaving: "x\n", "key.pem": "x\n", "logo.png": "x\n"} |
                 {n: "x\n" for n in first if n != junk})
    missing = t.random.choice(["src/util.py", "src/lib/a.py", "docs/intro.md"])
    added = [f"part{n}.py" for n in t.random.sample(range(10, 40), t.random.randint(7, 10))]
    spaced = t.random.choice([f" {first[0]}", f"{first[0]} ", f"{first[0]}\n"])
    deep = "docs/" + "part/" * t.random.randint(2_100, 5_000) + "intro.md"  # over 10,000
    dotted = t.random.choice(["./", ".//", "././"]) + t.random.choice(["gone.md", "src/x.py"])
    model = lab.ScriptedModel([
        lab.reply(lab.call("read", {"path": missing})),
        lab.reply(*[lab.call("write", {"path": n, "content": "y\n"}) for n in added]),
        lab.reply(lab.call("read", {"path": spaced}), lab.call("read", {"path": "src/none.py"}),
                  lab.call("read", {"path": deep}), lab.call("read", {"path": dotted})),
        lab.reply(*[lab.call("read", {"path": p}) for p in ("key.pem", "logo.png")],
                  lab.call("read", {"path": pathlib.PurePosixPath(first[0])})),
        lab.say("I see the files now.")])
    tools = [harness.make_read_tool(ws), harness.make_write_tool(ws)]
    messages = await go(model, tools, [], t.random.choice(PROMPTS))
    before = ", ".join(sorted(first + ["src", "key.pem", "logo.png"]))
    after = ", ".join(sorted(first + ["src", "key.pem", "logo.png"] + added))
    reads = [r for r in results(messages) if not str(r[0]).startswith("Successfully")]
    t.expect(reads, [[f"File not found: {missing}. Files here: {before}", True],
                     [f"File not found: {spaced}. Files here: {after}", True],
                     [f"File not found: src/none.py. Files here: {after}", True],
                     [f"File not found: {deep}. Files here: {after}", True],
                     [f"File not found: {dotted}. Files here: {after}", True],
                     ["key.pem may not be read here", True],
                     [str(UnicodeDecodeError("utf-8", b"\x89", 0, 1, "invalid start byte")),
                      True], ["path must be a string", True]],
             "[Each read's result on the record as [content, is_error]: before the writes, "
             "then after them for a name with a space at an end, for a path in src and for "
             "one of over ten thousand characters, and one spelt with ./ (named as sent), every "
             "name of the top each time, folders such as __pycache__ too; then a file the "
             "workspace may not read, one that is not text, and a path that is a path "
             "object, not a string].")


class Guarded(lab.Workspace):
    """A workspace whose key.pem may not be read and whose logo.png is not text: read_text
    raises for them as a real one would."""

    def read_text(self, path):
        if path == "key.pem":
            raise PermissionError("key.pem may not be read here")
        if path == "logo.png":
            raise UnicodeDecodeError("utf-8", b"\x89", 0, 1, "invalid start byte")
        if path == "core.dump":
            raise MemoryError("core.dump does not fit in memory")
        return super().read_text(path)


@lab_test("read's execute called again and again while the test empties the workspace: each "
          "missing path raises FileNotFoundError with every name of the top at that moment, "
          "none at all once it is empty, whether the path is outside the project or a name "
          "that differs from a file's by case alone; a folder's path, and \"\", raise what the "
          "workspace raises.")
async def test_bank_read_as_the_workspace_empties(t):
    names = sorted(t.random.sample([f"n{k}.txt" for k in range(400)], t.random.randint(105, 125)) +
                   [t.random.choice([".env", ".gitignore"]), t.random.choice(["TODO", "Zoo.md"])])
    leaving = t.random.choice(["__pycache__/n.cpython-312.pyc", ".git/HEAD", "node_modules/a.js"])
    ws = lab.Workspace({n: f"{n}\n" for n in names} | {"lib/x.py": "pass\n", leaving: "x\n"})
    read = harness.make_read_tool(ws)
    seen, wanted = [], []
    # Each kind of path asked in turn: outside the project, and a name that differs from a
    # file's by case alone, among them.
    asks = ["missing.txt", "lib/missing.py", "gone/here.md", "/etc/hosts", names[-1].upper()]
    t.random.shuffle(asks)
    for k, gone in enumerate(names + [leaving, "lib/x.py"]):
        ask = asks[k % len(asks)]
        seen.append(await raised(lambda: read["execute"]({"path": ask})))
        left = sorted({p.split("/")[0] for p in ws.files})
        wanted.append(f"FileNotFoundError: File not found: {ask}. Files here: {', '.join(left)}")
        ws.remove(gone)
    seen.append(await raised(lambda: read["execute"]({"path": "a.py"})))
    wanted.append("FileNotFoundError: File not found: a.py. Files here: ")
    ws.write_text("lib/y.py", "pass\n")
    folder = [await raised(lambda: read["execute"]({"path": "lib"})),
              await raised(lambda: read["execute"]({"path": ""}))]
    dotted = await raised(lambda: read["execute"]({"path": "./lib/y.py"}))
    vanishing = harness.make_read_tool(Vanishing({"lib/y.py": "pass\n"}))
    blind = harness.make_read_tool(Blind({"lib/y.py": "pass\n", "a.md": "a\n"}))
    crowd = sorted(f"log{n}.txt" for n in t.random.sample(range(5000), t.random.randint(1000, 4999)))
    crowded = harness.make_read_tool(Crowded(crowd))
    guarded = harness.make_read_tool(Guarded({"key.pem": "x\n", "logo.png": "x\n",
                                              "core.dump": "x\n"}))
    t.expect([seen, folder, dotted, await raised(lambda: vanishing["execute"]({"path": "lib/y.py"})),
              [await raised(lambda p=p: guarded["execute"]({"path": p}))
               for p in ("key.pem", "logo.png", "core.dump")],
              await raised(lambda: read["execute"]({"path": pathlib.PurePosixPath("lib/y.py")})),
              await raised(lambda: crowded["execute"]({"path": "notes.md"})),
              await raised(lambda: blind["execute"]({"path": "lib/y.py"}))],
             [wanted, ["IsADirectoryError: lib", "IsADirectoryError: "], None,
              "FileNotFoundError: lib/y.py went away during the read",
              ["PermissionError: key.pem may not be read here",
               "UnicodeDecodeError: " + str(UnicodeDecodeError("utf-8", b"\x89", 0, 1,
                                                               "invalid start byte")),
               "MemoryError: core.dump does not fit in memory"],
              "ValueError: path must be a string",
              f"FileNotFoundError: File not found: notes.md. Files here: {', '.join(crowd)}",
              "FileNotFoundError: File not found: lib/y.py. Files here: a.md, lib"],
             "[What each read of a missing path raised as the files went one by one, the last "
             "in an empty project; what a read of the folder lib, then of \"\", raised; what a "
             "read of ./lib/y.py raised (nothing: it is lib/y.py); what a read raised of a file "
             "ws.exists finds but ws.read_text says went away; of a file it may not read, "
             "one that is not text and one too big to hold; of a path object; of a missing path where ws.listdir('.') "
             "gives a thousand names and more, every one of them listed; of a file ws.exists does "
             "not see, which ws.read_text would read].")


class Crowded(lab.Workspace):
    """A workspace over a disk of its own whose top holds the names it is made with, hundreds
    of them, and no file lab.Workspace holds: listdir(".") gives those names, and nothing is
    at any path."""

    def __init__(self, names):
        super().__init__({})
        self.names = names

    def listdir(self, path="."):
        return list(self.names)

    def exists(self, path):
        return False


class Blind(lab.Workspace):
    """A workspace whose ws.exists sees nothing at lib/y.py, which read_text would read: read
    asks ws.exists first, so File not found."""

    def exists(self, path):
        return path != "lib/y.py" and super().exists(path)


class Vanishing(lab.Workspace):
    """A workspace whose files go away between ws.exists and ws.read_text, as a file another
    program removes can: read_text raises FileNotFoundError for a path that is there."""

    def read_text(self, path):
        raise FileNotFoundError(f"{path} went away during the read")


# --- rule 4: bash's status line -------------------------------------------------------------

def coded(pairs):
    """Shell commands of the test's own, c0, c1, ...: command k prints pairs[k][0] and exits
    with pairs[k][1]."""
    return {f"c{k}": (lambda args, ws, pair=pair: pair) for k, pair in enumerate(pairs)}


OUTPUTS = ["", "done\n", "half a line", "two\nlines\n", "naïve\n\n"]
CODES = [0, 0, 1, 2, 127, 255, -9, -15]


@lab_test("bash over commands of the test's own that print drawn outputs, with or without a "
          "final line break, and exit with drawn codes, 0, above 0 and below 0: each result is "
          "the output, then for any code but 0 a newline and Command exited with code N; "
          "is_error False.")
async def test_bank_status_lines_for_drawn_codes(t):
    pairs = [(t.random.choice(OUTPUTS), t.random.choice(CODES)) for _ in range(5)]
    pairs += [("no newline", t.random.choice([-1, -9])), ("ok\n", 0), ("", 3),
              ("first lines\n", 141), (f"inner\n{STATUS} {t.random.choice([1, 2])}", 1),
              ("wrapped\n", t.random.choice([256, 1000, 65535])),
              (f"retrying\n{STATUS} {t.random.choice([1, 2])}", 0),
              ("far\n", t.random.choice([2 ** 32, 2 ** 63])),
              ("sunk\n", -t.random.choice([129, 2 ** 31 + 1, 2 ** 63])),
              ("vast\n", t.random.choice([1, -1]) * 10 ** t.random.randint(30, 300)),
              ("vaster\n", t.random.choice([1, -1]) * 10 ** t.random.randint(1000, 4000))]
    again = t.random.choice([1, 2, 4])
    pairs += [(f"once more\n{STATUS} {again}", again),
              ("".join(f"log line {n}\n" for n in range(t.random.randint(200, 400))), 2),
              ("".join(f"{n}\n" for n in range(t.random.randint(1000, 1900))), 1),
              (t.random.choice(["copying 10/10", "done ✓"]) + t.random.choice(["\r", "\r\r"]),
               t.random.choice([1, 2, -9]))]  # output that ends in a carriage return
    t.random.shuffle(pairs)
    bash = harness.make_bash_tool(lab.Shell(lab.Workspace({}), commands=coded(pairs)))
    found = [await settle(harness.run_tool([bash], lab.call("bash", {"command": f"c{k}"})))
             for k in range(len(pairs))]
    each = harness.make_bash_tool(lab.Shell(lab.Workspace({}), commands={
        "code": lambda args, ws: ("", int(args[0]))}))
    skipped = [code for code in range(1, 256)
               if await settle(each["execute"]({"command": f"code {code}"})) != f"\n{STATUS} {code}"]
    t.expect([[[r.get("content"), r.get("is_error")] for r in found], skipped],
             [[[out + ("\n" + f"{STATUS} {code}" if code else ""), False]
               for out, code in pairs], []],
             "[Each result as [content, is_error], for commands printing and exiting as drawn; "
             "the codes from 1 to 255 whose result was not \"\\nCommand exited with code N\"].")


@lab_test("A run whose model runs commands of the workspace shell joined by ; and &&, some "
          "ending in failure and some not: the model's next request carries each command's "
          "output and, for a code other than 0, the status line, never as an error.")
async def test_bank_status_lines_the_model_reads(t):
    code = t.random.choice([1, 2, 3, 42])
    ws = lab.Workspace({"a.py": "x\n", "b.py": "y\n", "run.log": f"retrying\n{STATUS} {code}"})
    missing = t.random.choice(["c.py", "nope.md"])
    gone = f"cat: {missing}{NOT_THERE}" + "\n"
    lines = [(f"cat a.py && exit {code}", "x\n\n" + f"{STATUS} {code}"),
             (f"cat {missing} && echo never", gone + "\n" + f"{STATUS} 1"),
             (f"cat {missing}; echo then", gone + "then\n"), ("ls; true", "a.py\nb.py\nrun.log\n"),
             (f"cat run.log; exit {code}", f"retrying\n{STATUS} {code}\n{STATUS} {code}"),
             ("false", "\n" + f"{STATUS} 1")]
    t.random.shuffle(lines)
    model = lab.ScriptedModel([lab.reply(*[lab.call("bash", {"command": c}) for c, _ in lines]),
                               lab.say("Checked.")])
    await go(model, [harness.make_bash_tool(lab.Shell(ws))], [], t.random.choice(PROMPTS))
    sent = model.calls[1].messages if len(model.calls) > 1 else []
    t.expect([[m.get("content"), m.get("is_error")] for m in sent if m["role"] == "toolResult"],
             [[said, False] for _, said in lines],
             "[Each result the second request carried, as [content, is_error]].")
