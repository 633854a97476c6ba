"""Lab 3.1's grading bank: scenarios for each rule of its ledger (source/lessons/03-loop/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario reaches its rule through another entry point than the public tests, or observes
another thing (what a shell over the same workspace sees after a write, a command of the
test's own that counts its runs, a model written here that keeps only the size of each
request, the caller's list as each tool runs, a run_tool the test wraps), so that the public
tests' wanted expressions, evaluated in a bank test's frame, do not give its values.
"""
import copy

import harness
import lab
from lab.kit import hours_pass, lab_test, raised, settle, tool

LAB = "3.1"
STATUS = "Command exited with code"  # lesson 4's status line, after a line break
NOT_THERE = ": No such file or directory"  # what cat says of a missing file, then a line break
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
SYSTEMS = [" You keep a tidy repository.\n", "Be brief.\n\nAsk before deleting.  ",
           "\tYou work in a sandbox.\n"]
PROMPTS = [" Clean the repository up. ", "Write the release notes.\n", "\tCheck the build.",
           "Tell me what changed.\n\n"]
WORDS = [" On it. ", "Next file:\n", "  Still going", "Almost there.\n",
         "FINAL ANSWER: all well. One more look.\n"]
# Texts a file may hold: none empty, one with no final line break, one non-ASCII.
TEXTS = ["v1\nv2\n", "# Plan\n- ship\n", "no final line break", "résumé\n", "a = 1\nb = 2\n"]
# Texts a tidy-minded write would change: each has a Windows line end and spaces or a tab
# before a plain one.
UNTIDY = ["v1 \r\nv2\t\nv3\n", "# Notes\r\n\r\n- one  \n- two\r\n", "a = 1\t\nb = 2\r\n  "]
# Lines a normalising or colour-stripping tool would change: a decomposed accent (o and a
# combining diaeresis) and a terminal's colour codes.
ODD = "Zo\u0308e wrote \x1b[32mgreen\x1b[0m words.\n"


def lesson_6_form(said, whole):
    """Whether `said` is `whole`, or lesson 6's cut of it: the end of it, up to its last line,
    and a line of its own saying to narrow the command, after it or before it."""
    if not isinstance(said, str):
        return False
    last = whole.splitlines()[-1] + "\n"
    return said == whole or any(whole.endswith(kept) and kept.endswith(last) and
                                "Narrow the command" in note and "\n" not in note
                                for kept, note in (said.rpartition("\n[")[::2],
                                                   said.partition("\n")[::-2]))


async def go(model, tools, prompt, messages, system):
    """One run of run_agent on the caller's `messages`, whatever its colour; the record."""
    await lab.drive(harness.run_agent(model, system, messages, tools, prompt))
    return messages


def plain(said, printed, code=1):
    """[the start of a failing command's result, whether nothing follows it but lesson 4's
    status line]: the output is the model's today, and its exit code lesson 4's."""
    if not isinstance(said, str):
        return [said, None]
    return [said[:len(printed)], said[len(printed):] in ("", "\n" + f"{STATUS} {code}")]


# --- rule 1: write's execute ----------------------------------------------------------------

@lab_test("A run whose model writes over a file that is there, writes \"\" over another, and "
          "writes a new file under a path starting ./ and one whose path has spaces at its ends, "
          "with Windows line ends and spaces at line ends, leaves each file holding exactly what "
          "was written and nothing else changed, and each result is the sentence naming the "
          "path as the call gave it.")
async def test_bank_writes_made_through_a_run(t):
    old, kept, emptied = t.random.sample(["plan.md", "notes.txt", "app.py", "todo.md"], 3)
    files = {old: "the old text, longer than any new one\n" * t.random.randint(26_400, 28_000),
             kept: "left alone\n", emptied: "soon empty\n"}  # old: over a million characters
    handed = []

    class Noting(lab.Workspace):  # a workspace noting each path write_text is handed
        def write_text(self, path, text):
            handed.append(path)
            return super().write_text(path, text)
    ws = Noting(dict(files))
    new = t.random.choice(["./docs/new.md", "./src//made.py", "./CHANGES"])
    text, other = t.random.sample(TEXTS, 2)
    spaced = t.random.choice([" spaced.md\n", "padded.txt \n", "\n both.py "])  # a line break too
    table = "".join(f"{n:06d};a row of the exported table;{n * 3}\n"
                    for n in range(t.random.randint(4000, 7000))) + "total;;"  # no last \n
    writes = [{"path": old, "content": text}, {"path": new, "content": other},
              {"path": spaced, "content": t.random.choice(UNTIDY)},
              {"path": "export.csv", "content": table},
              {"path": "/logs/root.md", "content": text},  # a path the workspace takes from its root
              {"path": "win.txt", "content": "first\r\nsecond\r\nno end"}]  # \r\n, none last
    t.random.shuffle(writes)
    model = lab.ScriptedModel([lab.reply(*[lab.call("write", w) for w in writes]),
                               lab.reply(lab.call("write", {"path": emptied, "content": ""})),
                               lab.say("Written.")])
    tools = [harness.make_write_tool(ws), harness.make_read_tool(ws)]
    messages = await go(model, tools, t.random.choice(PROMPTS), [], t.random.choice(SYSTEMS))
    files |= {old: text, new.replace("./", "").replace("//", "/"): other, emptied: "",
              "logs/root.md": text, "win.txt": "first\r\nsecond\r\nno end",
              spaced: writes[[w["path"] for w in writes].index(spaced)]["content"],
              "export.csv": [len(table), True]}
    found = dict(ws.files)
    if "export.csv" in found:  # a long file, compared by its size and whether it is the table
        found["export.csv"] = [len(found["export.csv"]), found["export.csv"] == table]
    files[old] = [len(text), True]  # written over a text of over 10,000 characters
    if old in found:
        found[old] = [len(found[old]), found[old] == text]
    t.expect([[m["content"] for m in messages if m["role"] == "toolResult"], found, handed],
             [[f"Successfully wrote to {w['path']}." for w in writes] +
              [f"Successfully wrote to {emptied}."], files,
              [w["path"] for w in writes] + [emptied]],
             "[The content of each result on the record, in order; the workspace's files "
             "afterwards, a table of over 150,000 characters, and a file of over a million written "
             "over, as [its characters, whether it is what was written]; the paths the "
             "workspace was handed, each as the call gave it]: a write replaces the whole file, \"\" included, however long, cuts "
             "nothing, adds nothing beside it, and says so naming the path character for "
             "character.")


@lab_test("Writes made by calling write's execute, then looked at through a shell over the same "
          "workspace: cat shows exactly the last content written, an empty file included, ls "
          "shows no file but those written, and each write said the sentence for its path; a "
          "path the workspace refuses raises what the workspace raises.")
async def test_bank_what_a_shell_sees_after_writes(t):
    ws = lab.Workspace({"keep.txt": "kept\n"})
    write, shell = harness.make_write_tool(ws), lab.Shell(ws)
    harness.make_write_tool(lab.Workspace({}))  # another write tool, over a workspace of its own
    name = t.random.choice(["log.txt", "out.md", "data.csv"])
    texts, dotted = t.random.sample(TEXTS, 2) + [""], "./" + name
    said = []
    for n, text in enumerate(texts):
        said.append(await settle(write["execute"]({"path": name if n != 1 else dotted,
                                                   "content": text})))
    spaced = t.random.choice(["work//b.txt", ".//work/b.txt"])
    said.append(await settle(write["execute"]({"path": spaced, "content": texts[0]})))
    untidy = t.random.choice(UNTIDY) + ODD
    edged = t.random.choice(["work/c.md \n", "work/c.md\n", "work/c.md\t\n"])  # pasted with its line
    said.append(await settle(write["execute"]({"path": "work/c.md", "content": untidy})))
    said.append(await settle(write["execute"]({"path": edged, "content": "edged\n"})))
    t.expect([said] + [list(shell.run(line)) for line in (f"cat {name}", "ls", "cat work/b.txt",
                                                          "cat work/c.md")],
             [[f"Successfully wrote to {name}.", f"Successfully wrote to {dotted}.",
               f"Successfully wrote to {name}.", f"Successfully wrote to {spaced}.",
               "Successfully wrote to work/c.md.", f"Successfully wrote to {edged}."],
              ["", 0], ["".join(f"{n}\n" for n in sorted(["keep.txt", name, "work"])), 0],
              [texts[0], 0], [untidy, 0]],
             "[What each of six writes said (the same file three times, the last with \"\", "
             "then a file under a path with ./ or //, one with Windows line ends and spaces at "
             "line ends, one whose path ends in a line break); then (output, exit code) of a "
             "shell's cat of the first file, of ls, of cat of the fourth file and of cat of "
             "the fifth, which the sixth must not have touched].")
    # Writes over a settings file and a log that are there, and to a name with a backslash,
    # which the workspace takes as one file's name.
    settings = t.random.choice(["setup.cfg", "config.json", "pyproject.toml", "app.ini"])
    log, slashed = t.random.choice(["run.log", "error.log"]), t.random.choice(["a\\b.txt",
                                                                             "notes\\x.md"])
    files = {settings: "[old]\n", log: "an old line\n", "cfg/base.ini": "[base]\n"}
    ws = lab.Workspace(dict(files))
    write = harness.make_write_tool(ws)
    harness.make_write_tool(lab.Workspace(dict(files)))
    slashed_said = [await settle(write["execute"]({"path": where, "content": texts[0]}))
                    for where in (settings, log, slashed)]
    written = dict(ws.files)
    # Then paths write might be tempted to judge: the workspace's refusals and what it takes
    # (a .. part, a ~, a NUL, a folder, a path under a file) are the workspace's to decide.
    odd = [t.random.choice(["..", "work/../.."]) + "/" + name,
           t.random.choice(["~/", "~"]) + name, name + "\x00", "cfg", f"{log}/{name}"]
    twin, wanted = lab.Workspace(dict(ws.files)), []
    for where in odd:
        wanted.append(await raised(lambda: twin.write_text(where, texts[1])))
    tried = [await raised(lambda: write["execute"]({"path": where, "content": texts[1]}))
             for where in odd]
    t.expect([written, slashed_said, tried, dict(ws.files) == twin.files],
             [{**files, settings: texts[0], log: texts[0], slashed: texts[0]},
              [f"Successfully wrote to {where}." for where in (settings, log, slashed)], wanted,
              True],
             "[The workspace's files after writes over a settings file and a log that were "
             "there and to a name with a backslash; what those three writes said; what writes "
             "to a path with a .. part, one starting with ~, one holding a NUL, a folder's path "
             "and a path under a file each raised; whether the workspace then holds what the "
             "workspace alone, handed those writes, would]: each file holds exactly what was "
             "written, nothing kept beside it or added to the old text, the name is the path "
             "as the call gave it and so is the sentence, backslash and all; and write hands "
             "every path on as it came, so the workspace's refusals are what write raises and "
             "what it takes is written (a path the workspace refuses is the workspace's to "
             "refuse).")


# --- rule 2: bash's execute -----------------------------------------------------------------

def ticking():
    """A shell command `tick` of the test's own: each run adds a line to ticks.log and prints
    the number of runs so far between spaces, then two line breaks."""
    def tick(args, ws):
        ws.append_text("ticks.log", "tick\n")
        return f"  tick {ws.read_text('ticks.log').count(chr(10))}  \n\n", 0
    return {"tick": tick}


@lab_test("A run whose model runs a command of the shell's own three times across its rounds, "
          "once beside an echo, a command that fails, and cat of a long file and of one with no "
          "final line break: each result is what that run of the command printed, spaces and "
          "line breaks kept, nothing added or cut; each call runs the command once.")
async def test_bank_commands_run_through_a_run(t):
    long = "".join(f"{n:04d} row of the report\n" for n in range(t.random.randint(1500, 1900)))
    huge = "".join(f"{n:05d} row of the yearly report, every figure of it kept whole\n"
                   for n in range(t.random.randint(2100, 2800)))
    odd = t.random.choice(UNTIDY) + ODD
    ws = lab.Workspace({"a.txt": "alpha\n", "report.txt": long, "tail.txt": "last\r\nwords",
                        "year.txt": huge, "odd.txt": odd})
    sudo = t.random.choice(["sudo cat a.txt", "sudo ls"])
    shell = lab.Shell(ws, commands=ticking())
    words = t.random.sample(["ready", "set", "go", "naïve", "42"], 2)
    missing = t.random.choice(["gone.txt", "old.md", "b.txt"])
    first = [lab.call("bash", {"command": "tick"}),
             lab.call("bash", {"command": "echo " + " ".join(words)})]
    t.random.shuffle(first)
    model = lab.ScriptedModel([lab.reply(*first), lab.reply(lab.call("bash", {"command": "tick"})),
                               lab.reply(lab.call("bash", {"command": f"cat {missing}"}),
                                         lab.call("bash", {"command": "tick"})),
                               lab.reply(lab.call("bash", {"command": "cat report.txt"}),
                                         lab.call("bash", {"command": "cat tail.txt"})),
                               lab.reply(lab.call("bash", {"command": "cat year.txt"})),
                               lab.reply(lab.call("bash", {"command": "cat odd.txt"}),
                                         lab.call("bash", {"command": sudo})),
                               lab.say("The shell is fine.")])
    messages = await go(model, [harness.make_bash_tool(shell)], t.random.choice(PROMPTS), [],
                        t.random.choice(SYSTEMS))
    results = [m["content"] for m in messages if m["role"] == "toolResult"]
    ticks = iter(range(1, 4))
    wanted = [f"  tick {next(ticks)}  \n\n" if c["arguments"]["command"] == "tick" else
              " ".join(words) + "\n" for c in first] + [f"  tick {next(ticks)}  \n\n"]
    printed = f"cat: {missing}{NOT_THERE}" + "\n"
    year = results[7] if len(results) > 7 else ""
    last = huge.splitlines()[-1]
    refused = lab.Shell(lab.Workspace({})).run(sudo)[0]  # the shell has no sudo
    t.expect([results[:3], plain(results[3], printed) if len(results) > 3 else None,
              results[4:5], [len(r) for r in results[5:7]],
              results[5:7] == [long, "last\r\nwords"],
              ws.read_text("ticks.log"),
              [lesson_6_form(year, huge), last in year], results[8:9],
              plain(results[9], refused, 127) if len(results) > 9 else None],
             [wanted, [printed, True], ["  tick 3  \n\n"], [len(long), len("last\r\nwords")], True,
              "tick\n" * 3, [True, True], [odd], [refused, True]],
             "[The first three results on the record; the failing cat's result (its start, and "
             "whether nothing but lesson 4's status line follows); the fifth result; the "
             "characters of the last two, cat of a long file and of one with a Windows line end "
             "and no final line break; whether they are those files' texts; ticks.log, a line per run of tick; "
             "for cat of a file of over 2000 lines, whether the result is all of it (or, from "
             "lesson 6, its end, whole from some line on, and the line saying so) and whether "
             "it holds the file's last line; cat of a file with a decomposed accent and colour "
             "codes; what a sudo line the shell does not know printed (its start, and whether "
             "nothing but lesson 4's status line follows)].")


@lab_test("bash's execute, called again and again on a shell whose workspace the test changes "
          "between calls, gives what each run printed at that moment: the same command twice "
          "gives two answers, rm runs once, a failing line gives its output alone, and two "
          "files cat together, the first with no final line break, come back whole.")
async def test_bank_bash_on_a_changing_workspace(t):
    names = sorted(t.random.sample(["a.py", "b.py", "c.py", "d.py"], 2))
    ws = lab.Workspace({f"src/{n}": "pass\n" for n in names})
    bash = harness.make_bash_tool(lab.Shell(ws, commands=ticking()))
    said = [await settle(bash["execute"]({"command": "ls src"}))]
    extra = t.random.choice(["e.py", "f.py"])
    ws.write_text(f"src/{extra}", "pass\n")
    said.append(await settle(bash["execute"]({"command": "ls src"})))
    said.append(await settle(bash["execute"]({"command": f"rm src/{extra} && tick"})))
    said.append(await settle(bash["execute"]({"command": "tick"})))
    failing = await settle(bash["execute"]({"command": f"echo start && cat src/{extra}"}))
    printed = f"start\ncat: src/{extra}{NOT_THERE}" + "\n"
    # A line a cautious tool might refuse: the shell has its own answer, and that is the result.
    wild = "rm -rf /"
    wild_printed, wild_code = lab.Shell(lab.Workspace({})).run(wild)
    wild_said = await settle(bash["execute"]({"command": wild}))
    mkfs = t.random.choice(["mkfs.ext4 /dev/sdb", "mkfs -t vfat /dev/sdc1"])
    mkfs_printed, mkfs_code = lab.Shell(lab.Workspace({})).run(mkfs)
    mkfs_said = await settle(bash["execute"]({"command": mkfs}))
    # A log of over 100,000 characters, cat twice with a line added between: run again.
    grown = "".join(f"{n:05d} a line of a grown log, kept whole\n"
                    for n in range(t.random.randint(2600, 3200)))
    ws.write_text("grown.log", grown)
    await settle(bash["execute"]({"command": "cat grown.log"}))
    ws.write_text("grown.log", grown + "the line added last\n")
    regrown = await settle(bash["execute"]({"command": "cat grown.log"}))
    ws.remove("grown.log")
    big = "".join(f"def function_{n:04d}(): pass\n" for n in range(t.random.randint(1500, 1900)))
    ws.write_text("src/big.py", big)
    ws.write_text("src/end.py", "x = 1")
    said.append(await settle(bash["execute"]({"command": "cat src/end.py && cat src/big.py"})))
    ws.remove("src/big.py")
    ws.remove("src/end.py")
    said[-1] = [len(said[-1]), said[-1] == "x = 1" + big]
    # A line that fails and prints nothing: its output is "", and that is the result.
    silent = t.random.choice(["false", "exit 4", "exit 1"])
    silent_code = lab.Shell(lab.Workspace({})).run(silent)[1]
    silent_said = await settle(bash["execute"]({"command": silent}))
    t.expect([said, plain(failing, printed), plain(wild_said, wild_printed, wild_code),
              plain(mkfs_said, mkfs_printed, mkfs_code), "the line added last" in regrown,
              sorted(ws.files), plain(silent_said, "", silent_code)],
             [["".join(f"{n}\n" for n in names), "".join(f"{n}\n" for n in sorted(
                 names + [extra])), "  tick 1  \n\n", "  tick 2  \n\n",
               [len(big) + 5, True]], [printed, True], [wild_printed, True],
              [mkfs_printed, True], True, sorted([f"src/{n}" for n in names] + ["ticks.log"]),
             ["", True]],
             "[What bash returned for ls, for ls after a file was added, for rm of that file "
             "then tick, for tick again, and (its characters, whether it is the two texts) for "
             "cat of a file with no final line break then a long one; the failing line's result (its start, and whether "
             "nothing but lesson 4's status line follows); the same for a line a cautious tool "
             "might refuse, run in the shell all the same; the same for mkfs; whether cat of a long log run again after a line was added gives that line; the workspace's files afterwards; the same as for the failing line, for a line that fails printing nothing].")


# --- rule 3: the loop -------------------------------------------------------------------------

class Tally:
    """A model written here rather than lab.ScriptedModel: it answers request n with a copy of
    script[n - 1] (the last entry from there on) and keeps, of each request, only its system
    prompt, how many messages it carried, the first one's content, the tools it told of (name
    and description) and how long the caller's list `watch` was as it was asked; so a job of
    hundreds of rounds on a record of thousands of messages stays cheap."""

    def __init__(self, script, watch=()):
        self.script, self.seen, self.watch = script, [], watch

    def complete(self, system, messages, tools=()):
        first = messages[0].get("content") if messages else None
        told = tuple((spec.get("name"), spec.get("description")) for spec in tools)
        self.seen.append([system, len(messages), first, told, len(self.watch)])
        return copy.deepcopy(self.script[min(len(self.seen), len(self.script)) - 1])

    async def acomplete(self, system, messages, tools=(), signal=None):
        return self.complete(system, messages, tools)


def in_runs(values):
    """`values` as [value, how many times running] pairs: a list of hundreds, told short."""
    runs = []
    for value in values:
        if runs and runs[-1][0] == value:
            runs[-1][1] += 1
        else:
            runs.append([value, 1])
    return runs


def earlier_record(t):
    """A conversation of 3001 to 3030 messages, users' words with spaces at their ends and
    replies that carry usage, ending with a call and its result."""
    messages = [harness.user_message(f"  I am {t.random.choice(['Ada', 'Grace', 'Zoé'])}.\n")]
    for n in range(1, t.random.randint(3001, 3030)):
        messages.append({**lab.say(f"Noted {n}."), "usage": {"input": n, "output": 2}}
                        if n % 2 else harness.user_message(f" remark {n}\n"))
    messages += [{**lab.reply(lab.call("look", {"path": "old.py"}, id="k0")), "usage": {}},
                 {"role": "toolResult", "tool_call_id": "k0", "tool_name": "look",
                  "content": "saw old.py", "is_error": False}]
    return messages


@lab_test("A job of 257 to 262 rounds, with a batch of 2001 calls among them (ids out of order, "
          "one given twice) and fifty-odd rounds asking the same, on a record of over three "
          "thousand messages, after a long prompt, under a long system prompt, with tools on a "
          "list an earlier run had that has gained one of a name it holds and has one retold in "
          "place during the run: each request carries the whole "
          "record so far, the system prompt as given and every tool, the prompt is on the list "
          "before the first request, every call is answered in order by its tool as it happens, "
          "long results whole, and the run ends at the first reply that asks for nothing.")
async def test_bank_a_long_job_on_a_long_record(t):
    messages = earlier_record(t)
    start = len(messages)
    system = t.random.choice(SYSTEMS) + "".join(  # a project's notes read into it
        f"Note {n}: ask before touching generated files.\n"
        for n in range(t.random.randint(120, 200))) + "\n"  # a blank line last
    prompt = t.random.choice(PROMPTS) + "".join(
        f"log line {n}: all well\r\n" for n in range(t.random.randint(1000, 1500)))  # Windows
    rounds = t.random.randint(257, 262)
    big, streak = t.random.randint(3, rounds - 5), t.random.randint(51, 60)
    again = t.random.choice([r for r in range(3, rounds - streak - 1)
                             if not r <= big < r + streak])
    long = t.random.choice([r for r in range(1, rounds) if r not in range(again, again + streak)
                            and r != big])
    retell = t.random.choice([r for r in range(1, rounds - 1) if r not in range(
        again, again + streak) and r not in (big, long)])  # its look retells touch in place
    number, script, batches = 0, [], []
    for r in range(rounds):
        if r == big:
            paths = [f"f{k:04d}.py" for k in range(2000)]
            t.random.shuffle(paths)
            paths.insert(t.random.randint(1, 2000), paths[0])  # asked twice in one batch
        elif r in range(again, again + streak):
            paths = ["same.py"]  # the same batch fifty-odd rounds running
        elif r == long:
            paths = ["long.py"]
        else:
            paths = [f"r{r}.py"] + (["(touch)"] if r % 5 == 2 else [])
        calls = []
        for named in paths:
            number += 1
            calls.append(lab.call("touch" if named == "(touch)" else "look",
                                  {} if named == "(touch)" else {"path": named}, id=f"c{number}"))
        if r == big:  # its ids out of their numbers' order, and one of them given twice
            ids = [call["id"] for call in calls]
            t.random.shuffle(ids)
            ids[t.random.randint(1, len(ids) - 1)] = ids[0]
            for call, id in zip(calls, ids):
                call["id"] = id
        reply = lab.reply(*([t.random.choice(WORDS)] if r % 3 == 0 else []), *calls)
        if r in (0, again, big):
            reply["stop_reason"] = "stop"  # mislabelled: the content asks for tools
        if r == big:  # words beside the 2001 calls
            reply["content"].insert(0, {"type": "text", "text": t.random.choice(WORDS)})
        reply["usage"] = {"input": r, "output": len(calls)}
        reply["timestamp"] = 1_764_979_200_000 + r  # a key the loop does not read
        script.append(reply)
        batches.append(paths)
    script.append({**lab.say(" All looked at.\n"), "usage": {"input": rounds, "output": 1}})
    ran, peeked, carried = [], [], sum("usage" in m for m in messages)
    printed = "".join(f"{n:05d} a line of a long file\n" for n in range(t.random.randint(2100, 2600)))

    def look(arguments):
        if arguments["path"] == f"r{retell}.py":
            kit[1]["description"] = "Touch a file, told anew."
        ran.append(arguments["path"])
        peeked.append(len(messages))
        return "saw " + arguments["path"] + (":\n" + printed if arguments["path"] == "long.py"
                                             else "")
    # The tools' list had a run of its own first; then it gains a second touch, told otherwise.
    kit = [tool("look", look, PATH), tool("touch", lambda a: "", description="Touch a file.")]
    blank = t.random.choice([" ", "\n", " \n\t"])  # a prompt of blanks is a prompt too
    ready = await go(lab.ScriptedModel([lab.say("Ready.")]), kit, blank, [], system)
    kit.append(tool("touch", lambda a: "", description="Touch a file, told again."))
    told = [tuple((k["name"], k["description"]) for k in kit)]
    told.append(tuple((k["name"], "Touch a file, told anew." if n == 1 else k["description"])
                      for n, k in enumerate(kit)))
    told_runs = [[told[0], retell + 1], [told[1], rounds - retell]]
    model = Tally(script, messages)
    await go(model, kit, prompt, messages, system)
    sizes, at, wanted_peeks = [], start + 1, []
    for paths in batches:
        sizes.append(at)
        at += 1
        for named in paths:
            if named != "(touch)":
                wanted_peeks.append(at)
            at += 1
    sizes.append(at)
    t.expect([len(model.seen), [s[1] for s in model.seen], sorted({s[0] for s in model.seen}),
              sorted({s[2] for s in model.seen}), in_runs([s[3] for s in model.seen]),
              [s[4] for s in model.seen]],
             [rounds + 1, sizes, [system], [messages[0]["content"]], told_runs, sizes],
             "[The requests the model got; how many messages each carried; the system prompts "
             "they carried; the content of their first messages; the tools they told of, as "
             "[what was told, how many requests running told it], a tool retold in place during "
             "round " + str(retell) + "; the "
             "length of the caller's list as each was asked]: every request carries the whole "
             "record so far, the earlier conversation from its first message on, every tool "
             "the list holds now, and the caller's list holds all of it before it goes out.")
    t.expect([ran, peeked, [m["content"] for m in messages[start:] if m["role"] == "toolResult"
                            and m["tool_name"] == "look"]],
             [[p for paths in batches for p in paths if p != "(touch)"], wanted_peeks,
              ["saw " + p + (":\n" + printed if p == "long.py" else "") for paths in batches
               for p in paths if p != "(touch)"]],
             "[The paths the look tool ran on, in order; the length of the caller's list as "
             "each ran; the look results on the record]: every call of a batch runs in call "
             "order, a call asked twice runs twice, the caller's list holds the reply and the "
             "results before it, and each result is the tool's output, however long.")
    shape = "U " + " ".join("A[" + ",".join(c["id"] for c in lab_calls) + "] " + " ".join(
        f"R({c['id']})" for c in lab_calls) for lab_calls in (
        [b for b in reply["content"] if b["type"] == "toolCall"] for reply in script[:-1]))
    replies = [m for m in messages[start:] if m.get("role") == "assistant"]
    t.expect([lab.shape(messages[start:]), messages[start], sum("usage" in m for m in
                                                                messages[:start]),
              [[m.get("stop_reason"), m.get("usage"), m.get("timestamp"),
                [b.get("text") for b in m["content"] if b["type"] == "text"]]
               for m in replies], [lab.shape(ready), ready[0] if ready else None]],
             [shape + " A", {"role": "user", "content": prompt}, carried,
              [[m["stop_reason"], m["usage"], m.get("timestamp"),
                [b["text"] for b in m["content"] if b["type"] == "text"]] for m in script],
              ["U A", {"role": "user", "content": blank}]],
             "[lab.shape of what this run added to the caller's list; the prompt as recorded; "
             "how many earlier messages still carry usage; each recorded reply's stop_reason, "
             "usage, timestamp and words; lab.shape of an earlier run's record whose prompt was only "
             "blanks, and its first message]: the record holds the prompt word for word, every "
             "reply as the model gave it and every result, and the earlier messages as they "
             "were.")


@lab_test("Runs on one list: a first with an empty system prompt and an empty prompt whose last "
          "reply is empty, a second after the caller put the same long prompt on the list, its "
          "results from a run_tool the test wraps, on the first run's list of tools renamed in "
          "their descriptions in place; and a call no tool answers "
          "or a tool that raises, alone or in a batch, is never passed over quietly, and a "
          "request that fails is not sent again.")
async def test_bank_runs_on_one_list_with_empty_things(t):
    messages = []
    told = []
    padding = "".join(f" and line {n} of its output" for n in range(t.random.randint(2100, 2600)))

    def tools(version):
        return [tool(name, lambda a, name=name: f"{name} on {a.get('path', '-')}{padding}", PATH,
                     f"The {name} tool, version {version}.") for name in ("look", "scan")]
    empty = {"role": "assistant", "content": [], "stop_reason": "stop"}
    path = t.random.choice(["a.py", "b.md", "c.txt"])
    kit = tools(1)
    first = lab.ScriptedModel([lab.reply(lab.call(t.random.choice(["look", "scan"]),
                                                  {"path": path})), empty])
    await go(first, kit, "", messages, "")
    told.append([first.calls[0].system, lab.shape(first.calls[0].messages),
                 first.calls[0].messages[0]["content"]])
    asked = t.random.choice(PROMPTS) + "".join(
        f"pasted line {n}\n" for n in range(t.random.randint(1500, 2500)))
    messages.append(harness.user_message(asked))
    original = harness.run_tool

    grown = tool("note", lambda a: "", PATH, "The note tool, gained during the run.")

    def wrapped(tools, call, *rest):  # the test's own run_tool: it marks each result, and
        if grown not in tools:  # the first call it answers adds a tool to the run's list
            tools.append(grown)
        result = original(tools, call, *rest)

        async def marked():
            done = await result
            return {**done, "content": "[checked] " + done["content"]}
        if hasattr(result, "__await__"):
            return marked()
        return {**result, "content": "[checked] " + result["content"]}
    asking = []

    def noted(request):  # the second run's first answer, noting the caller's list as it is asked
        asking.append(lab.shape(messages))
        return lab.reply(lab.call("scan", {"path": path}), lab.call("look", {"path": "z.py"}))
    second = lab.ScriptedModel([noted, lab.say("Done.")])
    kit[:] = tools(2)  # the same list, its tools renamed in their descriptions in place
    system = t.random.choice(SYSTEMS)
    harness.run_tool = wrapped
    try:
        await go(second, kit, asked, messages, system)
    finally:
        harness.run_tool = original
    told.append([lab.shape(second.calls[0].messages),
                 [s["description"] for s in second.calls[0].tools],
                 [request.system for request in second.calls], asking,
                 [s["name"] for s in second.calls[-1].tools]])
    t.expect([told, lab.shape(messages), messages[0], messages[3],
              [m["content"] == asked for m in messages[4:6]],
              [m["content"] for m in messages[5:] if m["role"] == "toolResult"]],
             [[["", "U", ""], ["U A[c1] R(c1) A U U", ["The look tool, version 2.",
                                                         "The scan tool, version 2."],
                               [system, system], ["U A[c1] R(c1) A U U"],
                               ["look", "scan", "note"]]],
              "U A[c1] R(c1) A U U A[c1,c2] R(c1) R(c2) A", {"role": "user", "content": ""},
              empty, [True, True],
              [f"[checked] scan on {path}{padding}", f"[checked] look on z.py{padding}"]],
             "[What the first run's request carried: its system prompt, lab.shape of its "
             "messages, the first one's content; what the second run's requests carried: "
             "lab.shape of the first one's messages, its tools' descriptions, each request's "
             "system prompt, lab.shape of the caller's list as the first was asked, and the "
             "tool names of the last, after a tool was added to the list during the run; "
             "lab.shape of the list after both runs; its first message; the first run's empty "
             "reply; whether the two user messages after it are the long prompt word for word; "
             "the second run's results].")

    tries = []

    def broken(arguments):
        tries.append(arguments["path"])
        raise PermissionError("the disk is not ready")

    def stalled(arguments):
        tries.append(arguments["path"])
        raise TimeoutError("the disk took too long")
    ended, (unknown, stray) = [], t.random.sample(["view", "open", "grep"], 2)
    # A name no tool has, alone; a tool that raises, alone, then first in a batch of two; a
    # name no tool has second in a batch, after a call that runs.
    for names in ([unknown], ["fetch"], ["fetch", "scan"], ["scan", unknown], [unknown, stray],
                  ["slow", "scan"]):
        tries.clear()
        calls = [lab.call(name, {"path": path}) for name in names]
        model = lab.ScriptedModel([lab.reply(*calls), lab.say("Hm.")])
        record = [harness.user_message("Earlier."), lab.say("Yes.")]
        problem = await raised(lambda: go(model, [tool("fetch", broken, PATH),
                                                  tool("slow", stalled, PATH), *tools(3)],
                                          "Try it.", record, ""))
        what = [lab.shape(record), problem is not None, len(tries)]
        before, ids = "U A U ", ",".join(f"c{n}" for n in range(1, len(calls) + 1))
        results = [f"R(c{n})" for n in range(1, len(calls) + 1)]
        failing = 1 if names == ["scan", unknown] else 0  # the calls before it run
        runs = int("fetch" in names or "slow" in names)
        stopped = [" ".join([before + f"A[{ids}]", *results[:failing]]), True, runs]
        went_on = [before + f"A[{ids}] " + " ".join(results) + " A", False, runs]
        own = problem is None or problem == ("PermissionError: the disk is not ready" if "fetch" in names
                                             else "TimeoutError: the disk took too long"
                                             if "slow" in names
                                             else await raised(lambda: original(
                                                 tools(3), calls[names.index(unknown)])))
        ended.append(what in (stopped, went_on) and own)
    # A request that fails: the run ends there, and the model, which would answer, is not
    # asked again.
    def refused(request):
        raise ConnectionError("the provider refused the connection")
    down = lab.ScriptedModel([refused, lab.say("Back.")])
    await raised(lambda: go(down, tools(4), "Still there?", [], ""))
    ended.append(len(down.calls) == 1)
    # ...whatever it raised: a server's error, an answer that is not JSON.
    for problem in (RuntimeError("the provider is overloaded"), ValueError("not JSON"),
                    OSError("the network is unreachable"), ConnectionResetError("reset by peer"),
                    BrokenPipeError("broken pipe"), ConnectionAbortedError("aborted"),
                    ConnectionRefusedError("refused")):
        def failing(request, problem=problem):
            raise problem
        down = lab.ScriptedModel([failing, lab.say("Back.")])
        said = await raised(lambda: go(down, tools(4), "Still there?", [], ""))
        ended.append([len(down.calls), said] == [1, f"{type(problem).__name__}: {problem}"])
    # A first reply with nothing in it ends the run at once; the model is not asked again.
    quiet, record = lab.ScriptedModel([dict(empty), lab.say("Hm.")]), []
    await go(quiet, tools(4), "Anything?", record, "")
    ended.append([lab.shape(record), record[1:], len(quiet.calls)] == ["U A", [empty], 1])
    # ...and so does an empty reply after a round of tools, whatever its label says: toolUse
    # (calls promised, none sent), error or aborted (a reply that failed). It goes on the record.
    for label in ("toolUse", "error", "aborted"):
        given = {**empty, "stop_reason": label}
        if label != "toolUse":
            given["error_message"] = "the provider gave up"
        labelled, record = lab.ScriptedModel([lab.reply(lab.call("scan", {"path": path})),
                                              given, lab.say("Hm.")]), []
        problem = await raised(lambda: go(labelled, tools(4), "Anything?", record, ""))
        ended.append([record[-1:], len(labelled.calls), len(record), problem] ==
                     [[given], 2, 4, None])
    # A call whose name is empty, after a call that runs: a call all the same, never passed over.
    nameless, record = lab.ScriptedModel([lab.reply(
        lab.call("scan", {"path": path}),
        {"type": "toolCall", "id": None, "name": "", "arguments": {"path": path}}),
        lab.say("Hm.")]), []
    problem = await raised(lambda: go(nameless, tools(4), "Scan it.", record, ""))
    ended.append([lab.shape(record), problem is not None] in (
        ["U A[c1,c2] R(c1)", True], ["U A[c1,c2] R(c1) R(c2) A", False]))
    # A job of three rounds, each taking days by the clock: no budget of time ends it.
    clocked, record = Tally([lab.reply(lab.call("scan", {"path": path}, id="d1"))] * 3 +
                            [lab.say("Done.")]), []
    with hours_pass(minutes=3 * 24 * 60):  # each reading of the clock three days on
        await go(clocked, tools(4), "Take your time.", record, "")
    ended.append([len(clocked.seen), lab.shape(record).split()[-1]] == [4, "A"])
    # A later request that fails, after a round of tools: what the run appended stays, and the
    # model is not asked a third time.
    def timed_out(request):
        raise TimeoutError("the provider took too long")
    later = lab.ScriptedModel([lab.reply(lab.call("scan", {"path": path})), timed_out,
                               lab.say("Back.")])
    record = [harness.user_message("Earlier."), lab.say("Yes.")]
    await raised(lambda: go(later, tools(5), "Still there?", record, ""))
    ended.append([lab.shape(record), len(later.calls)] == ["U A U A[c1] R(c1)", 2])
    # A call when the run was given no tools at all: never passed over quietly either.
    lone = lab.ScriptedModel([lab.reply(lab.call("scan", {"path": path})), lab.say("Hm.")])
    record = []
    problem = await raised(lambda: go(lone, [], "Scan it.", record, ""))
    ended.append([lab.shape(record), problem is not None] in (["U A[c1]", True],
                                                              ["U A[c1] R(c1) A", False]))
    # A call without the path its tool requires: handed to run_tool like any other call.
    handed = []

    def counting(tools, call, *rest):
        handed.append(call["id"])
        return original(tools, call, *rest)
    harness.run_tool = counting
    try:
        await raised(lambda: go(lab.ScriptedModel([lab.reply(lab.call("look", {})),
                                                   lab.say("Hm.")]), tools(6), "Look.", [], ""))
    finally:
        harness.run_tool = original
    ended.append(handed == ["c1"])
    # Reads of one file: two at once, each seeing the record grown by the result before it;
    # then, after the user edits the file, a read then a write in one reply.
    ws, record, lengths = lab.Workspace({path: "first\n"}), [], []

    def reading(arguments):
        lengths.append(len(record))
        return ws.read_text(arguments["path"])

    def edited(request):
        ws.write_text(path, "edited\n")
        return lab.reply(lab.call("read", {"path": path}),
                         lab.call("write", {"path": path, "content": "last\n"}))
    reads = lab.ScriptedModel([lab.reply(lab.call("read", {"path": path}),
                                         lab.call("read", {"path": path})), edited,
                               lab.say("Read.")])
    handed.clear()
    harness.run_tool = counting
    try:
        await go(reads, [tool("read", reading, PATH, "Read a file."), harness.make_write_tool(ws),
                         harness.make_bash_tool(lab.Shell(ws))], "Read it.", record, "")
    finally:
        harness.run_tool = original
    ended.append([[m["content"] for m in record if m["role"] == "toolResult"], lengths,
                  handed] ==
                 [["first\n", "first\n", "edited\n", f"Successfully wrote to {path}."],
                  [2, 3, 5], ["c1", "c2", "c3", "c4"]])
    t.expect(ended, [True] * 24,
             "[For a call naming a tool no one gave, then a call of a tool that raises, then "
             "the same first in a batch of two, then a name no tool has second in a batch, "
             "then a batch of two names no tool has, then a tool that times out first in a batch "
             "of two, "
             "whether the run either raised the tool's own exception with the calls before "
             "the failing one answered and none after it (lesson 3), or answered them all and "
             "went on to the model's answer (lesson 4), the tool run once, and for a name no tool "
             "has the exception run_tool raised, not wrapped; then, for a first "
             "request that raises (ConnectionError, RuntimeError, ValueError, OSError, then "
             "ConnectionResetError, BrokenPipeError, ConnectionAbortedError and "
             "ConnectionRefusedError), whether the "
             "model was asked once and its exception ended the run; then whether an empty first "
             "reply ended the run at once, and an empty reply after a round of tools labelled "
             "toolUse, error or aborted ended it too, recorded, nothing raised; whether a call "
             "whose name is empty, after one that runs, was not passed over quietly; whether "
             "a job of three rounds each taking days by the clock went on to its answer; "
             "then, for a second "
             "request that times out after a round of tools, whether the record kept that round "
             "and the model was asked twice; then whether a call in a run given no tools was "
             "not passed over quietly; whether a call without its required path was handed to "
             "run_tool; whether reads, two at once and then one before a write after the user "
             "edited the file, each saw the file and the record as they were then, each "
             "answered through run_tool, with bash on the list too]: a call is never passed over quietly, nothing runs "
             "after a call that raised today, nothing before it is held back, whatever was "
             "appended before a run goes wrong stays appended, and nothing is tried twice.")

    # Two runs on one list of tools, whose schema the test changes in place between them; the
    # second's system prompt, prompt and result end their lines in \r\n, and its first reply
    # starts with an empty text block: each goes on as it came.
    kit = [tool("look", lambda a: "one\r\ntwo\r\n", PATH, "Look at a file."),
           tool("mark", lambda a: "", PATH, "")]  # a tool described in no words
    await go(lab.ScriptedModel([lab.say("Ok.")]), kit, "Hi.", [], "")
    kit[0]["parameters"] = {**PATH, "properties": {**PATH["properties"],
                                                  "depth": {"type": "integer"}}}
    given = lab.reply("", lab.call("look", {"path": path}), "[DONE] Shall I go on?")
    model, record = lab.ScriptedModel([given, lab.say("Done.")]), []
    system = "\ufeffBe brief.\x00\r\nAsk first.\r\n"  # saved with a byte-order mark, a NUL
    # a decomposed accent, a NUL, a no-break space, a tab and a line separator (U+2028)
    prompt = "Look at\u00a0the cafe\u0301's menu\x00,\tplease.\u2028\r\n\n\n\n"
    await go(model, kit, prompt, record, system)
    t.expect([model.calls[0].system, record[0]["content"], record[1]["content"][0],
              record[2]["content"] if len(record) > 2 else None,
              sorted(model.calls[0].tools[0]["parameters"]["properties"]),
              [spec["name"] for spec in model.calls[0].tools], len(model.calls)],
             [system, prompt, {"type": "text", "text": ""}, "one\r\ntwo\r\n", ["depth", "path"],
              ["look", "mark"], 2],
             "[The request's system prompt (a byte-order mark first), the recorded prompt (a "
             "decomposed accent, a no-break space, a tab, a line separator, blank lines at its "
             "end), the first reply's first block "
             "as recorded, the result of its call (the reply ends in a question), the "
             "parameters the request told for the tool changed in place, the tools the request "
             "told of, one described in \"\"; the requests made (the reply's words start "
             "[DONE])]: everything goes on as it came, nothing tidied, "
             "a question beside calls does not end the run, and each request carries "
             "tool_specs(tools) as the list stands at that request.")
