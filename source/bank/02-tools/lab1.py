"""Lab 2.1's grading bank: scenarios for each rule of its ledger (source/lessons/02-tools/
rules.toml), in the form of the lab's tests.py, which the grader draws a secret subset of and
runs as hidden tests (grader/bank.py). Never released, never shown to a student: a failed one
shows only the sentence of the rule it checks.

Each scenario reaches its rule through another entry point than the public tests, or observes
another thing (the replies a scripted model hands back, the request a model was sent, the specs
as JSON, a workspace the tools wrote to, the caller's own lists and blocks afterwards), so that
the public tests' wanted expressions, evaluated in a bank test's frame, do not give its values.
"""
import json

import harness
import lab
from lab.kit import lab_test, raised, sealed, settle, tool

LAB = "2.1"
BRIEF = "You look after a small repository."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
# Words with spaces and line breaks at their ends, which text_of keeps as they are; one not in
# composed form (combining accents) with a NUL in it.
EDGED = [" Reading it now. ", "Found it:\n", "\tindented ", "  two spaces", "ends here\n\n",
         "déjà vu ", " - a list item\n", "a tab at the end\t", "de\u0301ja\u0300 \x00 "]
PATHS = ["app.py", "notes/todo.md", "lib/util.py", "CHANGES.txt", "docs/intro.md", "Makefile"]
NAMES = ["grep", "ls", "find", "fetch", "edit", "write", "bash", "read"]
# Names harness.py has for functions of its own: a tool may share one.
OWN = ["text_of", "tool_calls", "tool_specs", "user_message", "make_read_tool"]


def throw(problem):
    """Raise `problem`: the body of a tool that fails."""
    raise problem


def ids(t, count):
    """`count` distinct call ids drawn from k2..k98."""
    return [f"k{n}" for n in t.random.sample(range(2, 99), count)]


def refused(problem, result, call):
    """Whether run_tool refused `call` for a tool it does not have: lesson 2's raises KeyError,
    lesson 4's answers with an error result naming the call; both are allowed here."""
    if problem is not None:
        return problem.startswith("KeyError")
    return in_format(result, call)


def in_format(result, call):
    """Whether `result` is an error result for `call` in the format: exactly the five keys, the
    role "toolResult", the call's id and name, is_error True."""
    return isinstance(result, dict) and sorted(result) == [
        "content", "is_error", "role", "tool_call_id", "tool_name"] and \
        result["role"] == "toolResult" and result["tool_call_id"] == call["id"] and \
        result["tool_name"] == call["name"] and result["is_error"] is True


def as_raised(problem, result, failure, call, very=None):
    """What came back of a tool that raised `failure`, read as lesson 2's run_tool gives it
    ("Kind: words", as raised) when it is that: raised as it was (the very object, when `very`,
    what run_tool raised, is given), or, as lesson 4's run_tool answers (allowed here), an error
    result holding its words; else what run_tool raised or gave."""
    words = str(failure.args[0])
    if problem is not None:
        if very is not None and very is not failure:
            return f"{problem} (another object than the tool raised)"
        return problem
    if in_format(result, call) and words in str(result["content"]):
        return f"{type(failure).__name__}: {failure}"
    return result


async def attempt(tools, call, objects=None):
    """What run_tool did with `call`: (what it raised or None, the result it gave or None). The
    very object it raised, if it raised, goes into `objects` when a list is given."""
    given = []

    async def answer():
        try:
            given.append(await settle(harness.run_tool(tools, call)))
        except KeyError as missing:  # a subclass of KeyError is a KeyError, whatever its name
            if objects is not None:
                objects.append(missing)
            if type(missing) is KeyError:
                raise
            raise KeyError(*missing.args) from None
        except Exception as problem:
            if objects is not None:
                objects.append(problem)
            raise
    problem = await raised(answer)
    return problem, (given[0] if given else None)


# --- rule 1: text_of ------------------------------------------------------------------------

@lab_test("The words of each reply a scripted model hands back, read with text_of, are its text "
          "blocks joined as they stand, spaces and line breaks at their ends kept, whatever "
          "calls stand between them.")
async def test_bank_the_words_of_each_reply_a_model_gave(t):
    scripted, words = [], []
    for n in range(t.random.randint(2, 4)):
        said = t.random.sample(EDGED, t.random.randint(2, 3))
        if n == 0:  # the first reply says one thing twice
            said = [said[0], said[0]]
        parts = said + [lab.call(t.random.choice(NAMES), {"path": t.random.choice(PATHS)})
                        for _ in range(t.random.randint(0, 2))]
        t.random.shuffle(parts)
        scripted.append(lab.reply(*parts))
        words.append("".join(said_part for said_part in parts if isinstance(said_part, str)))
    model, messages = lab.ScriptedModel(scripted), [harness.user_message("Start.")]
    for _ in scripted:
        messages.append(model.complete(BRIEF, messages, []))
        messages.append(harness.user_message("Go on."))
    found = [harness.text_of(m) for m in messages if m["role"] == "assistant"]
    t.expect([[len(text), text.count("\n"), text] for text in found],
             [[len(text), text.count("\n"), text] for text in words],
             "For each reply a scripted model handed back in a conversation: [the number of "
             "characters text_of gave, its line breaks, its words]. text_of joins the text "
             "blocks in order with nothing between them and trims nothing.")


@lab_test("text_of reads a reply as its content is now: after the caller edits a text block, "
          "adds one and removes a call, the words are the text blocks then, joined as they "
          "stand; a reply whose text blocks are all empty has no words.")
async def test_bank_text_of_follows_an_edited_reply(t):
    first, second = t.random.sample(EDGED, 2)
    message = lab.reply(first, lab.call("read", {"path": t.random.choice(PATHS)}), second)
    before = harness.text_of(message)
    added = t.random.choice([w for w in EDGED if w not in (first, second)])
    message["content"][0]["text"] = first.upper()
    message["content"].insert(t.random.randint(0, 3), {"type": "text", "text": added})
    message["content"] = [b for b in message["content"] if b["type"] != "toolCall"]
    after = harness.text_of(message)
    joined = "".join(b["text"] for b in message["content"])
    message["content"][-1]["text"] = "a Windows line\r\n\t"  # in place: no block added or taken
    rewritten = [harness.text_of(message), "".join(b["text"] for b in message["content"])]
    message["content"][0]["text"] = "Rewritten first. "  # in place, not the last block
    hollow = lab.reply("", lab.call("ls", {"path": "."}), "")
    blank = [" " * t.random.randint(1, 3) for _ in range(2)]  # blocks of spaces only: words too
    blanks = lab.reply(blank[0], lab.call("ls", {"path": "."}), blank[1])
    many = [f"{n}{t.random.choice(EDGED)}" for n in range(t.random.randint(55, 200) * 5)]
    t.expect([before, after, rewritten[0], harness.text_of(message), harness.text_of(hollow),
              harness.text_of(blanks),
              harness.text_of(lab.reply(lab.call("ls", {"path": "."}), *many)),
              shown(harness.text_of(lab.reply(lab.call("ls", {"path": "."}), LOG)))],
             [first + second, joined, rewritten[1],
              "".join(b["text"] for b in message["content"]), "", "".join(blank),
              "".join(many), shown(LOG)],
             "text_of of a reply [before it was edited, after the caller changed its first "
             "words, added a text block and removed its call, after the caller rewrote its last "
             "text block in place to end in \"\\r\\n\" and a tab, after it rewrote its first "
             "block in place], then of a reply whose two text blocks are empty, then of a reply "
             "whose two text blocks are spaces only (a block of spaces only is words), then of a reply "
             "of a call and 275 to 1000 text blocks, then of a call and one text block of over "
             "4,000,000 characters, by its length and last 30.")


# --- rule 2: tool_calls ---------------------------------------------------------------------

@lab_test("A caller that handles the calls of a reply in its own order, and writes into each "
          "call block it was given, changes the reply itself; the next ask gives every call "
          "again, in the content's order, as a list.")
async def test_bank_the_caller_works_on_the_very_blocks(t):
    count = t.random.randint(2, 4)
    calls = [lab.call(t.random.choice(NAMES), {"path": p}, id=i)
             for p, i in zip(t.random.sample(PATHS, count), ids(t, count))]
    parts = calls + t.random.sample(EDGED, t.random.randint(1, 2))
    t.random.shuffle(parts)
    model = lab.ScriptedModel([lab.reply(*parts)])
    message = model.complete(BRIEF, [harness.user_message("Look around.")], [])
    given = harness.tool_calls(message)
    given.reverse()  # the caller's own order of work
    for n, call in enumerate(given):
        call["handled"] = n
    again = harness.tool_calls(message)
    again.append("the caller's own note")
    order = [b["id"] for b in message["content"] if b["type"] == "toolCall"]
    t.expect([[b.get("handled") for b in message["content"] if b["type"] == "toolCall"],
              [c["id"] for c in harness.tool_calls(message)]],
             [list(range(count - 1, -1, -1)), order],
             "After the caller reversed the list tool_calls gave, wrote a number into each call "
             "block in that order, and added a note to a second list: [the number each call "
             "block of the reply now holds, in content order; the ids a third ask gives].")
    at = t.random.choice([n for n, b in enumerate(message["content"]) if b["type"] == "toolCall"])
    message["content"][at] = {**message["content"][at], "arguments": {"path": "redone.txt"}}
    t.expect([[c["arguments"]["path"], c is message["content"][at]] for c in
              harness.tool_calls(message) if c["id"] == message["content"][at]["id"]],
             [["redone.txt", True]],
             "After the caller re-made one call block in place (a new block, the same id, another "
             "path): [for the call of that id the next ask gives, its path and whether it is the "
             "new block].")


@lab_test("Across a conversation the calls of every reply are its call blocks in order; after a "
          "reply's content is edited (a call removed, one added) the calls follow the content "
          "as it is then, and a reply with no calls gives [].")
async def test_bank_the_calls_follow_each_reply(t):
    scripted = []
    for n in range(t.random.randint(2, 3)):
        parts = [lab.call(t.random.choice(NAMES), {"path": t.random.choice(PATHS)})
                 for _ in range(t.random.randint(2, 3))] + [t.random.choice(EDGED)]
        t.random.shuffle(parts)
        scripted.append(lab.reply(*parts))
    scripted.append(lab.say("All done."))
    model, messages = lab.ScriptedModel(scripted), [harness.user_message("Tidy up.")]
    asked = []
    for _ in scripted:
        reply = model.complete(BRIEF, messages, [])
        messages.append(reply)
        asked.append([[c["id"], c["name"]] for c in harness.tool_calls(reply)])
        messages.append(harness.user_message("Next."))
    counted, wanted = 0, []
    for reply in scripted:
        names = [b["name"] for b in reply["content"] if b["type"] == "toolCall"]
        wanted.append([[f"c{counted + k + 1}", name] for k, name in enumerate(names)])
        counted += len(names)
    edited = messages[1]
    dropped = [b for b in edited["content"] if b["type"] == "toolCall"][t.random.randint(0, 1)]
    edited["content"].remove(dropped)
    edited["content"].insert(0, lab.call("bash", {"command": "true"}, id="k100"))
    harness.tool_calls(messages[-2]).append(lab.call("ls", {"path": "."}, id="k99"))
    now = [c["id"] for c in harness.tool_calls(edited)]
    turned = next(b for b in edited["content"] if b["type"] == "toolCall" and b["id"] != "k100")
    turned.clear()  # the caller turns a call block, in place, into a text block
    turned.update({"type": "text", "text": "(withdrawn) "})
    many = [lab.call(t.random.choice(NAMES), {"path": t.random.choice(PATHS)}, id=f"m{n}")
            for n in range(t.random.randint(60, 400))]
    many[t.random.randrange(len(many))]["name"] = ""  # a call whose name is "": a call still
    many[t.random.randrange(len(many))]["id"] = ""  # and one whose id is "", one whose
    many[t.random.randrange(len(many))]["arguments"] = None  # arguments are None: calls still
    t.expect([asked, now, harness.tool_calls(lab.say("Nothing more.")),
              [c["id"] for c in harness.tool_calls(edited)],
              [c["id"] for c in harness.tool_calls(lab.reply("Many.", *many))]],
             [wanted, ["k100"] + [i for i, _ in wanted[0] if i != dropped["id"]], [],
              [b["id"] for b in edited["content"] if b["type"] == "toolCall"],
              [c["id"] for c in many]],
             "[For each reply of the conversation, [id, name] of each call tool_calls gave, the "
             "last reply a plain answer; the ids tool_calls gives for the first reply once a "
             "call was removed from its content and another put in front; the calls of another "
             "plain answer, after the caller added a call to the list the last reply gave; the "
             "ids for the first reply once the caller turned one of its call blocks, in place, "
             "into a text block; the ids of a reply of 60 to 400 calls, among them a call "
             "whose name is \"\", one whose id is \"\" and one whose arguments are None].")


# --- rule 3: tool_specs ---------------------------------------------------------------------

def offered(t):
    """Five tools, in a drawn order: one whose parameters are {}, one with {"type": "object"}
    alone, one whose name and description have spaces at their ends, a second tool under the
    name of another, with parameters of its own and a description of many lines, and a copy of
    one of them right after it; some carry a key of their own."""
    names = t.random.sample(NAMES, 3)
    schemas = [{}, {"type": "object"}, dict(PATH)]
    t.random.shuffle(schemas)
    tools = [tool(name, lambda a, name=name: f"{name} did it", schema,
                  f"Use {name} for step {t.random.randint(1, 9)}.")
             for name, schema in zip(names, schemas)]
    for made, schema in zip(tools, schemas):
        made["parameters"] = schema  # tool() would fill in an empty schema
    edged = t.random.randrange(3)
    tools[edged] |= {"name": f" {names[edged]}  ", "description": "Lists.\n"}
    tools[t.random.randrange(3)]["timeout"] = t.random.randint(5, 60)
    wordy = " The same name, another tool.\n" + "\n".join(
        f"Step {n}: say what to look for." for n in range(t.random.randint(150, 600)))
    twin = dict(t.random.choice(tools), description=wordy + "\n",  # 4,000 to 17,000 characters
                parameters={"type": "object", "properties": {"depth": {"type": "integer"}}})
    tools.insert(t.random.randint(0, 3), twin)
    copied = t.random.choice(tools)
    tools.insert(tools.index(copied) + 1, dict(copied))  # a tool listed twice, as it is
    return tools


def told(specs):
    """What a model reads of each spec: [its keys, name, description, parameters]."""
    return [[sorted(each), each.get("name"), each.get("description"), each.get("parameters")]
            for each in specs]


@lab_test("What a scripted model is told of the tools, over two requests with the same list of "
          "tools edited between them, is each tool's name, description and parameters as they "
          "are at that request, one for each tool in order; and the program can still run "
          "every tool afterwards.")
async def test_bank_the_tools_a_model_is_told_of(t):
    tools = offered(t)
    model = lab.ScriptedModel([lab.say("Noted."), lab.say("Noted again.")])
    messages = [harness.user_message("What can you use?")]
    messages.append(model.complete(BRIEF, messages, harness.tool_specs(tools)))
    first = told(model.calls[0].tools)
    wanted = [[["description", "name", "parameters"], x["name"], x["description"],
               x["parameters"]] for x in tools]
    tools[t.random.randrange(len(tools))]["description"] = "Changed since the last request."
    tools.append(tool("_lint", lambda a: "linted", PATH, "Lint a file."))
    tools[-1]["description"] = ""  # a tool told with no words: "" is what it has
    tools.insert(t.random.randrange(len(tools)), tool("__fmt__", lambda a: "linted", PATH,
                                                      "Format a file."))
    tools.insert(t.random.randrange(len(tools)), tool("", lambda a: "linted", PATH,
                                                      "A tool whose name is empty."))
    messages.append(harness.user_message("And now?"))
    model.complete(BRIEF, messages, harness.tool_specs(tools))
    t.expect([first, told(model.calls[1].tools)],
             [wanted, [[["description", "name", "parameters"], x["name"], x["description"],
                        x["parameters"]] for x in tools]],
             "[What the model was told of each tool at the first request, then at the second, "
             "once a description had changed and three tools were added, one named \"__fmt__\", "
             "one whose name starts with \"_\" and whose description is \"\", one whose name "
             "is \"\"]: each spec's keys, name, description and parameters.")
    t.expect([await settle(x["execute"]({"path": "a"})) for x in tools],
             [f"{x['name'].strip()} did it" if x["name"] not in ("_lint", "__fmt__", "") else
              "linted"
              for x in tools],
             "What each tool's execute answers after two requests were made from the tools: the "
             "program still holds every tool whole.")


@lab_test("The specs of a list of tools go out as JSON, as a provider needs them: one object of "
          "three keys for each tool, its parameters exactly the tool's; editing a spec "
          "afterwards leaves the tool, which still runs.")
async def test_bank_the_specs_as_json(t):
    tools = offered(t)
    schemas = json.dumps([x["parameters"] for x in tools])
    descriptions = [x["description"] for x in tools]
    orders = [list(x) for x in tools]  # each tool's keys, in their order
    specs = harness.tool_specs(tools)
    sent = []
    problem = await raised(lambda: sent.append(json.dumps(specs)))
    back = json.loads(sent[0]) if sent else []
    t.expect([problem, [[sorted(s), s["name"], s["description"]] for s in back],
              json.dumps([s.get("parameters") for s in back])],
             [None, [[["description", "name", "parameters"], x["name"], x["description"]]
                     for x in tools], schemas],
             "[What json.dumps of the specs raised; the keys, name and description of each "
             "object in that JSON; its parameters as JSON text, to compare with the tools' own "
             "parameters before tool_specs].")
    for each in specs:
        each["description"] = "edited in the spec"
    used = t.random.choice([x for x in tools if x["name"] in NAMES])
    result = await settle(harness.run_tool(tools, lab.call(used["name"], {"path": "a"}, id="k1")))
    changed = t.random.randrange(len(tools))
    tools[changed]["description"] = "Changed in place."
    descriptions[changed] = "Changed in place."
    crowd = [tool(f"{NAMES[-1 - n % len(NAMES)]}{n}", lambda a: "done", PATH)
             for n in range(t.random.randint(60, 300))]  # names in no sorted order
    crowded = [s["name"] for s in harness.tool_specs(crowd)]
    empty = harness.tool_specs([])
    empty.append({"name": "lint", "description": "A caller's own.", "parameters": {}})
    bare = {"name": "lint", "execute": lambda a: "linted"}
    lacked = await raised(lambda: harness.tool_specs([*tools, bare]))
    t.expect([[x["description"] for x in tools], result["content"], json.dumps(
              [x["parameters"] for x in tools]),
              [s["description"] for s in harness.tool_specs(tools)],
              json.dumps(harness.tool_specs([])), sorted(bare),
              lacked.partition(":")[0] if lacked else None, crowded],
             [descriptions, f"{used['name']} did it", schemas, descriptions, "[]",
              ["execute", "name"], "KeyError", [x["name"] for x in crowd]],
             "[The tools' descriptions after the caller edited every spec's description (and "
             "one tool's own, in place); what a tool answers through run_tool then; the tools' "
             "parameters as JSON; the descriptions a new ask of the specs gives; the specs of no "
             "tools as JSON, after the caller added one to an earlier answer for no tools; the "
             "keys of a tool with no description or parameters, after tool_specs was asked of "
             "it; the kind of exception that ask raised, or None; the names of the specs of 60 to 300 "
             "tools, in order]: a spec is a new dict made at "
             "each ask, the tools are as they went in, and a tool lacking a key is no tool.")
    unset = dict(tools[0], description=None, parameters=None)  # keys it has, whose values are None
    got = []
    problem = await raised(lambda: got.append(json.dumps(harness.tool_specs([unset]),
                                                         sort_keys=True)))
    replaced = t.random.randrange(len(tools))
    tools[replaced]["parameters"] = {"type": "object", "properties": {"glob": {"type": "string"}}}
    t.expect([[list(x) for x in tools], problem, got,
              json.dumps([s["parameters"] for s in harness.tool_specs(tools)])],
             [orders, None, [json.dumps([{"name": unset["name"], "description": None,
                                          "parameters": None}], sort_keys=True)],
              json.dumps([x["parameters"] for x in tools])],
             "[Each tool's keys in their order after the specs were made; what tool_specs "
             "raised for a tool whose description and parameters are None (it has those keys), "
             "or None; its specs as JSON, keys sorted; the parameters as JSON of a new ask after one tool's "
             "schema was replaced]: the tools come out exactly as they went in, a spec tells "
             "each value as the tool has it, and each ask reads the tools as they are now.")


# --- rule 4: run_tool -----------------------------------------------------------------------

# A log the show tool gives back whole: it starts like a failure, its lines end in "\r\n", it
# holds an "e" with a combining accent and a NUL, and it is over 4,000,000 characters.
LOG = "Error: the nightly build (a saved log, cafe\u0301 \x00)\r\n" + "".join(
    f"step {n:06d} passed\r\n" for n in range(210000))


def workbench(ws):
    """Tools that act on the workspace `ws`: note appends its `line` and `tag` to notes.txt and
    answers ""; _count adds a line to runs.log and answers None; show answers build.log's text;
    a fourth, named text_of like a function of harness.py, answers how many notes there are, as
    a dict (not a text: run_tool passes it on as it is)."""
    def note(arguments):
        line = f"{arguments.get('line', '(no line)')}|{arguments.get('tag', '(no tag)')}"
        ws.append_text("notes.txt", line + "\n")
        return ""

    def count(arguments):
        ws.append_text("runs.log", "counted\n")

    def lines(arguments):
        return {"notes": ws.read_text("notes.txt").count(chr(10))}
    tagged = {"type": "object", "properties": {"line": {"type": "string"}, "tag": {
        "type": "string", "default": "misc"}}}
    return [tool("note", note, tagged), tool("_count", count), tool("show", lambda a: ws.read_text(
        "build.log")), tool("text_of", lines)]


@lab_test("A batch of calls run one by one on tools that write to a workspace: each tool the "
          "call names runs once on the call's own arguments (an empty line and None among "
          "them, a repeated id and arguments run anew), and each result carries the call's id and name and "
          "what the tool returned, is_error False.")
async def test_bank_what_the_tools_did_to_the_workspace(t):
    ws = lab.Workspace({"build.log": LOG, "notes.txt": ""})
    tools = workbench(ws)
    spares = [tool(f"spare{n}", lambda a: "a spare ran", PATH)  # however many tools there are
              for n in range(t.random.randint(60, 300))]
    at = t.random.randint(0, len(spares))
    tools = spares[:at] + tools + spares[at:]
    order = [x["name"] for x in tools]
    next(x for x in tools if x["name"] == "_count")["parameters"] = {}  # a schema of anything
    held = [[repr(x["parameters"]), x["execute"]] for x in tools]
    lines = [t.random.choice(["", "fix the tests", "ship it", None]) for _ in range(3)]
    lines[t.random.randrange(3)] = ""
    calls = [lab.call("note", {"line": line, "tag": None} if n == 0 else {"line": line})
             for n, line in enumerate(lines)]
    calls += [lab.call("_count"), lab.call("show"), lab.call("text_of")]
    t.random.shuffle(calls)
    numbered = ids(t, len(calls) - 1) + [" k1 "]
    t.random.shuffle(numbered)
    for call, id in zip(calls, numbered):
        call["id"] = id
    # A note whose id an earlier note had (a later reply numbers its calls afresh): it runs anew.
    calls.append(lab.call("note", {"line": "once more"},
                          id=next(c["id"] for c in calls if c["name"] == "note")))
    # And a text_of call whose id and arguments an earlier one had: it counts the notes anew.
    calls.append(lab.call("text_of", id=next(c["id"] for c in calls if c["name"] == "text_of")))
    wanted, written = [], []  # worked out before any call runs, from the calls as sent
    for sent in calls:
        if sent["name"] == "note":
            written.append(f"{sent['arguments'].get('line', '(no line)')}|"
                           f"{sent['arguments'].get('tag', '(no tag)')}")
        answer = {"note": 0, "_count": None, "show": len(LOG),
                  "text_of": {"notes": len(written)}}[sent["name"]]
        wanted.append(["toolResult", sent["id"], sent["name"], answer, False, 5, False])
    results, given = [], []
    for sent in calls:
        result = await settle(harness.run_tool(tools, sent))
        content = result.get("content")
        results.append([result.get("role"), result.get("tool_call_id"), result.get("tool_name"),
                        len(content) if isinstance(content, str) else content,
                        result.get("is_error"), len(result)])
        results[-1].append(any(result is earlier for earlier in given))
        given.append(result)
    t.expect([ws.read_text("notes.txt").splitlines(), ws.read_text("runs.log").count("\n"),
              [x["name"] for x in tools]],
             [written, sum(c["name"] == "_count" for c in calls), order],
             "[The lines the note tool wrote to notes.txt, one per call of note; the lines the "
             "_count tool wrote to runs.log; the names of the tools list afterwards, in order].")
    t.expect(results, wanted,
             "For each call in turn, the result's [role, tool_call_id, tool_name, length of its "
             "content or the content itself when not a text, is_error, number of keys, whether it "
             "is a dict an earlier call of the batch was handed (the repeated note, same id, same "
             "answer, among them)]: each call gets a result of its own.")
    shown_again = next(c for c in calls if c["name"] == "show")
    ws.write_text("build.log", "rebuilt\r\n")
    bare = {"type": "toolCall", "id": "k99", "name": "show"}  # a call with no "arguments"
    await attempt(tools, bare)
    worded = {"type": "toolCall", "id": "k98", "name": "show", "arguments": "all of it"}
    problem, result = await attempt(tools, worded)  # arguments a text: the tool's to judge
    handed = []  # a tool that keeps what it is handed, for a call whose arguments are None,
    oops = t.random.choice([ValueError("kept"), OSError("noted")])  # and returns an exception
    _, peeked = await attempt([*tools, tool("peek", lambda a: handed.append(a) or oops)],
                              {"type": "toolCall", "id": "k97", "name": "peek", "arguments": None})
    t.expect([(await settle(harness.run_tool(tools, shown_again)))["content"],
              [sorted(x) for x in tools], [sorted(c) for c in calls], sorted(bare),
              [problem, (result or {}).get("content")], handed,
              [(peeked or {}).get("content") is oops, (peeked or {}).get("is_error")]],
             ["rebuilt\r\n", [["description", "execute", "name", "parameters"]] * len(tools),
              [["arguments", "id", "name", "type"]] * len(calls), ["id", "name", "type"],
              [None, "rebuilt\r\n"], [None], [True, False]],
             "[What the very same show call block, run again through the same tools once "
             "build.log was rebuilt, carries; the keys of each tool afterwards; the keys of each "
             "call block afterwards; the keys of a call block that came with no arguments, "
             "after run_tool was handed it; what run_tool raised for a show call whose arguments "
             "are a text, not an object, and the content it gave; what a tool was handed for a call "
             "whose arguments are None; whether the result's content is the very exception "
             "object that tool returned (not raised), and its is_error]: the tools list holds 60 to "
             "300 tools besides these four.")
    watched = []
    look = lab.call("look", {"path": "notes.txt"}, id="k96")
    box = [*tools]
    box.insert(t.random.randrange(len(box)), tool("look", lambda a: watched.append(
        [sorted(look), sorted(look["arguments"]), [x["name"] for x in box] == names]) or
        "looked", PATH))
    names = [x["name"] for x in box]
    box = sealed(box)  # each tool refuses a write, at any depth, even one taken back after
    await attempt(box, look)
    t.expect([watched, [repr(x["parameters"]) == p and x["execute"] is e
                        for x, (p, e) in zip(tools, held)].count(False)],
             [[[["arguments", "id", "name", "type"], ["path"], True]], 0],
             "[What a tool saw while it ran, the tools handed in sealed (a write into one "
             "raises): [the keys of its call block, the keys of its arguments, whether the tools "
             "list held every tool in its order]; how many tools of the list, after every call "
             "above, have other parameters (a schema of {} among them) or another execute than "
             "before]: run_tool writes nothing into the call or the list, not even while the "
             "tool runs, and leaves each tool's values as they were.")


@lab_test("run_tool runs only a tool of the list it is handed at that call, by the name exactly "
          "as the call spells it: a name in another case, with spaces, close to a tool's, of a "
          "function of harness.py, or of a tool made but not given, runs nothing and is "
          "refused; a tool's own failure comes back as it was raised (or, as lesson 4's run_tool "
          "answers, in an error result holding its words).")
async def test_bank_which_tool_runs_and_which_is_refused(t):
    ran = []

    def doing(name):
        return lambda arguments: ran.append(name) or f"{name}: {arguments.get('path', '-')}"
    names = t.random.sample(["grep", "find", "edit", "fetch"], 2) + [t.random.choice(OWN)]
    t.random.shuffle(names)
    tools = [tool(name, doing(name), PATH) for name in names]
    order = list(names)
    harness.make_read_tool(lab.Workspace({"a.txt": "made, never given\n"}))
    near = t.random.choice(names)
    # Functions of harness.py that, called on a call's arguments, do not raise KeyError.
    loose = [n for n in ["user_message", "make_read_tool", "tool_specs"] if n not in names]
    asked = [near.upper(), near.title(), f"{near}\n", f" {near}",
             t.random.choice(names)[:-1], t.random.choice(loose), "read",
             f"{t.random.choice(names)}()", f"functions.{t.random.choice(names)}",
             t.random.choice(names)]
    own_name = next(n for n in names if n in OWN)  # every OWN name holds a "_"
    asked[9:9] = [own_name.replace("_", "-"), f"default_api.{t.random.choice(names)}"]
    verdicts = []
    for n, name in enumerate(asked):
        call = lab.call(name, {"path": "a.txt"}, id=f"k{n + 1}")
        problem, result = await attempt(tools, call)
        verdicts.append("refused" if refused(problem, result, call) else
                        (result or {}).get("content", problem))
    others = []  # the other functions of harness.py no tool has, each tried by name too
    head, *tail = own_name.split("_")
    nick = t.random.choice(["cat", "sh", "view"])
    next(x for x in tools if x["name"] == own_name)["aliases"] = [nick]  # a key of its own
    mark = t.random.choice(["`", chr(34), chr(39)])
    odd = [f"{mark}{own_name}{mark}", f"{near}\t", f"{near}\r", head + "".join(word.title() for word in tail), nick]
    for n, name in enumerate([n for n in loose if n != asked[5]] + odd):
        call = lab.call(name, {"path": "a.txt"}, id=f"k{n + 40}")
        problem, result = await attempt(tools, call)
        others.append("refused" if refused(problem, result, call) else
                      (result or {}).get("content", problem))
    gone = tools.pop(t.random.randrange(len(tools)))["name"]
    order.remove(gone)
    added = t.random.choice([n for n in NAMES if n not in names])
    tools.append(tool(added, doing(added), PATH))
    order.append(added)
    for n, name in enumerate([gone, added]):
        call = lab.call(name, {"path": "b.txt"}, id=f"k{n + 10}")
        problem, result = await attempt(tools, call)
        verdicts.append("refused" if refused(problem, result, call) else
                        (result or {}).get("content", problem))
    at = t.random.randrange(len(tools))  # a tool replaced in its place by one of its name
    tools[at] = tool(tools[at]["name"], doing("remade"), PATH)
    call = lab.call(tools[at]["name"], {"path": "b.txt"}, id="k12")
    problem, result = await attempt(tools, call)
    verdicts.append((result or {}).get("content", problem))
    spare = t.random.sample([n for n in NAMES if n not in order], 5)
    kinds = [KeyError("depth"), FileNotFoundError("c.txt"), IsADirectoryError("lib"),
             ConnectionError("no network"),
             t.random.choice([ValueError("depth must be a number"), RuntimeError("the tool broke")])]
    t.random.shuffle(kinds)
    for name, kind in zip(spare, kinds):
        tools.insert(t.random.randrange(len(tools) + 1),
                     tool(name, lambda a, name=name, kind=kind: ran.append(name) or throw(kind),
                          PATH))
    keys = [[x["name"], sorted(x)] for x in tools]
    problems, ways = [], set()
    for n, (name, kind) in enumerate(zip(spare, kinds)):
        call = lab.call(name, {"path": "c.txt"}, id=f"k{n + 20}")
        very = []
        problem, result = await attempt(tools, call, very)
        ways.add(problem is None)
        problems.append(as_raised(problem, result, kind, call, very[0] if very else None))
    t.expect([verdicts, others, ran, [x["name"] for x in tools if x["name"] not in spare],
              problems, [[x["name"], sorted(x)] for x in tools] == keys],
             [["refused"] * 11 + [f"{asked[11]}: a.txt", "refused", f"{added}: b.txt",
                                  "remade: b.txt"],
              ["refused"] * (len(loose) - 1 + len(odd)), [asked[11], added, "remade", *spare], order, [f"{type(k).__name__}: {k}" for k in kinds],
              True],
             "[For each call (a tool's name in upper case, in title case, with a line break "
             "after it, with a space before it, a name one letter "
             "short of a tool's, the name of a function of harness.py no tool has, "
             "read (made, not given), a tool's name with \"()\" after it, a tool's name after "
             "\"functions.\", the name of the harness.py function a tool has with \"-\" for "
             "\"_\", a tool's name after \"default_api.\", "
             "a tool's own name, a tool removed from the list since, a "
             "tool added since, a tool replaced in its place by a new one of its name): refused, or "
             "the content it got; the same for each other function of harness.py no tool has, "
             "then for a tool's name in quotes, with a tab after it, with a lone \"\\r\" after "
             "it, the harness.py function's name a tool has in camelCase, and a name that tool "
             "lists under \"aliases\", a key of its own; "
             "the tools that ran; the tools "
             "list's names afterwards, but for the failing tools; what each of five tools in "
             "the list that fail raised (the very object it raised, or said to be another), or gave in an error result (one on an argument the "
             "call lacks, one on a missing "
             "file, one on a folder, one on a lost connection, one drawn); whether the list holds the same tools in the same order with the "
             "same keys after they failed].")
    twins_ran = []
    twins = [tool("grep", lambda a, n=n: twins_ran.append(n) or f"grep {n}: "
                  f"{a.get('path', '-')}", PATH) for n in (1, 2)]
    twin = await settle(harness.run_tool(twins, lab.call("grep", {}, id="k30")))
    t.expect([len(twins_ran), twin["content"] in [f"grep {n}: -" for n in twins_ran]],
             [1, True],
             "[How many of two tools that share a name ran for one call of that name with no "
             "arguments, {}; whether the content is what the one that ran answered on {}]: one "
             "tool runs, once, on the call's own arguments.")
    # A tool renamed in place after a call to the list; a tool the program's end goes through.
    shelf = [tool(name, lambda a, name=name: f"{name} answered", PATH)
             for name in t.random.sample(NAMES, 3)]
    await attempt(shelf, lab.call(shelf[-1]["name"], {"path": "a"}, id="k31"))
    moved = t.random.choice(shelf)
    was = moved["name"]
    moved["name"] = f"{was}_{t.random.choice(['v2', 'new'])}"
    renamed = await attempt(shelf, lab.call(moved["name"], {"path": "a"}, id="k32"))
    old_call = lab.call(was, {"path": "a"}, id="k33")
    ending = tool("shutdown", lambda a: throw(lab.PowerCut("the lights went out")), PATH)
    cut, _ = await attempt([*shelf, ending], lab.call("shutdown", {"path": "a"}, id="k34"))
    t.expect([(renamed[1] or {}).get("content", renamed[0]),
              refused(*await attempt(shelf, old_call), old_call), len(ways), cut],
             [f"{was} answered", True, 1, "PowerCut: the lights went out"],
             "[The content of a call of a tool's new name, after it was renamed in place in a "
             "list run_tool had already been handed; whether a call of its old name was "
             "refused; in how many ways the five failing tools' errors came back (raised, or "
             "in an error result: one way for every kind); what run_tool raised for a tool "
             "that raised lab.PowerCut, the program ending, or None]: the name is looked up at "
             "each call, and what a tool raises goes up as it was raised (lesson 4's run_tool "
             "answers every Exception, and lets the program's end go up).")


# --- rule 5: the read tool's execute --------------------------------------------------------

# 2,401 short lines, some ending in spaces, a tab or "\r\n", the first with a combining accent and
# a NUL: longer than 2000 lines and 2000 characters, and every byte the file's own.
LONGER = "cafe\u0301 \x00\n" + "".join(f"{n}{'  ' if n % 7 == 0 else ''}{chr(9) if n % 11 == 0 else ''}"
                 f"{chr(13) if n % 13 == 0 else ''}\n" for n in range(1, 2401))


class Noting(lab.Workspace):
    """A workspace that notes each path its read_text is handed, as it was spelled."""

    def __init__(self, files=None):
        super().__init__(files)
        self.handed = []

    def read_text(self, path):
        self.handed.append(path)
        return super().read_text(path)


def shown(text):
    """A text as a check records it: short ones whole, long ones by length and last 30."""
    return text if not isinstance(text, str) or len(text) <= 120 else [len(text), text[-30:]]


@lab_test("A conversation driven by hand in which the model reads files through run_tool, "
          "while the caller rewrites one between replies: each result holds the file's whole "
          "text as the workspace holds it at that call, line ends and all; a file taken away "
          "raises as the workspace does.")
async def test_bank_reading_through_a_conversation(t):
    ws = lab.Workspace({"big.txt": LONGER, "todo.md": "  - first  \n\n",
                        "crlf.txt": "\ufeffone\r\ntwo \r\n"})
    readers = [harness.make_read_tool(ws)]
    harness.make_read_tool(lab.Workspace({p: "another workspace\n" for p in
                                          ["big.txt", "todo.md", "crlf.txt"]}))
    first = t.random.sample(["big.txt", "todo.md", "crlf.txt"], 3)
    again = t.random.choice(first)
    model = lab.ScriptedModel([lab.reply(*[lab.call("read", {"path": p}) for p in first]),
                               lab.reply(lab.call("read", {"path": again, "offset": 2,
                                                           "limit": 1})),
                               lab.reply(lab.call("read", {"path": "todo.md"})),
                               lab.say("Read.")])
    texts = {"big.txt": LONGER, "todo.md": "  - first  \n\n",
             "crlf.txt": "\ufeffone\r\ntwo \r\n"}
    messages = [harness.user_message("Read my files.")]
    found, wanted, problem = [], [], None
    for turn in range(3):
        reply = model.complete(BRIEF, messages, harness.tool_specs(readers))
        messages.append(reply)
        for call in harness.tool_calls(reply):
            if turn == 2:
                problem = as_raised(*await attempt(readers, call),
                                    FileNotFoundError("todo.md"), call)
                continue
            result = await settle(harness.run_tool(readers, call))
            messages.append(result)
            found.append(shown(result["content"]))
            wanted.append(shown(texts[call["arguments"]["path"]]))
        if turn == 0:
            texts[again] = texts[again].replace("\n", "\n\t", 1) + "  and more  \n"
            ws.write_text(again, texts[again])
        if turn == 1:
            ws.remove("todo.md")
    t.expect([found, problem], [wanted, "FileNotFoundError: todo.md"],
             "[The content of each read result in the conversation (a long file by its length "
             "and last 30 characters), a file rewritten by the caller after the first reply read "
             "again after it; what running the read of a file removed since raised, or gave in an "
             "error result].")


@lab_test("Two read tools over two workspaces, made one after the other, each read what a "
          "write made in its own workspace: the whole text, however long, with its spaces, "
          "tabs and line breaks, as the workspace holds it at each call.")
async def test_bank_two_reads_over_two_workspaces(t):
    spaces = [Noting(), lab.Workspace()]
    reads = [harness.make_read_tool(ws) for ws in spaces]
    picks = [t.random.randint(0, 1) for _ in range(5)]
    picks[t.random.randrange(5)] = 0  # the read made first reads too
    wanted, found = [], []
    for n, which in enumerate(picks):
        text = LONGER * 400 if n == 0 else f"{n}:" + t.random.choice(
            [LONGER[:2500], "\t tab first\r\n  ", "\n\n", "", "an edit\n  "])
        spaces[which].write_text("same.txt", text)
        spaces[1 - which].write_text("same.txt", f"the other workspace, write {n}\n")
        result = await settle(harness.run_tool([reads[which]], lab.call(
            "read", {"path": "same.txt"}, id=f"k{n}")))
        found.append(shown(result["content"]))
        wanted.append(shown(text))
    missing = []
    for gone in ["gone.md", "cache.tmp", "gone.txt", "run.log", "LICENSE"]:
        problem = await raised(lambda: reads[t.random.randint(0, 1)]["execute"]({"path": gone}))
        missing.append(problem)
    edge = t.random.choice([" same.txt", "same.txt ", "same.txt\t"])
    spaces[0].write_text(edge, "a file whose name has a blank at one end\n")
    spaces[0].write_text("same.txt  ", "a file whose name ends in two spaces\n")
    spaces[0].write_text("bom.md", "\ufeff# a heading, no carriage return\n")
    spaces[0].write_text("7", "a file named 7\n")
    spaces[0].write_text("lib/Util.py", "util = 1\n")
    spaces[0].write_text("d\u00e9j\u00e0.md", "composed\n")
    spaces[0].write_text("same.TXT", "the capital extension's own file\n")
    spaces[0].write_text("nai\u0308ve.md", "decomposed\n")
    kept = []
    for text in ["first words\n", "other words\n", "other words, then a longer line.\n",
                 "other words, then a longer line!\n"]:  # each pair as long as each other
        spaces[0].write_text("kept.md", text)
        kept.append(await settle(reads[0]["execute"]({"path": "kept.md"})))
    big = LONGER * 400  # over 4,000,000 characters, read, then rewritten at its length
    spaces[0].write_text("big.txt", big)
    await settle(reads[0]["execute"]({"path": "big.txt"}))
    spaces[0].write_text("big.txt", "W" + big[1:])
    again = await settle(reads[0]["execute"]({"path": "big.txt"}))
    kept.append(again[:12])
    spaces[0].handed.clear()
    odd = [f"{t.random.choice(['`', chr(34)])}same.txt{t.random.choice(['`', chr(34)])}",
           f"same.txt{t.random.choice([chr(10), chr(13) + chr(10)])}", "~/same.txt",
           "file://same.txt", "same.txt\t"]
    for path in ["./same.txt", "same.txt/", "/same.txt", ".//same.txt", "lib//Util.py",
                 "nai\u0308ve.md", "same.TXT"]:
        await raised(lambda: reads[0]["execute"]({"path": path}))
    handed = list(spaces[0].handed)
    spaces[0].handed.clear()
    for path in odd:  # a later lesson's read may refuse these; none may reach ws tidied
        await raised(lambda: reads[0]["execute"]({"path": path}))
    handed.append([path for path in spaces[0].handed if path not in odd])
    spaces[0].handed.clear()
    spelled = []
    for arguments in [{"path": "x/../same.txt"}, {"path": "\\same.txt"}, {"path": 7}, {},
                      {"path": "lib/util.py"}, {"path": "de\u0301ja\u0300.md"}, {"path": "lib"}]:
        problem = await raised(lambda: reads[0]["execute"](arguments))
        spelled.append(problem.partition(":")[0] if problem else None)
    # A path that is not a string is refused, by the workspace or by read before it gets there
    # (Build item 5), so the number 7 may reach ws as it is, or not at all; never spelled "7".
    handed_too = [path for path in spaces[0].handed if not (type(path) is int and path == 7)]
    t.expect([found, missing, await settle(reads[0]["execute"]({"path": edge})),
              await settle(reads[0]["execute"]({"path": "same.txt  "})),
              await settle(reads[0]["execute"]({"path": "bom.md"})), spelled,
              handed, handed_too, kept],
             [wanted, [f"FileNotFoundError: {gone}" for gone in
                       ["gone.md", "cache.tmp", "gone.txt", "run.log", "LICENSE"]],
              "a file whose name has a blank at one end\n",
              "a file whose name ends in two spaces\n", "\ufeff# a heading, no carriage return\n",
              ["ValueError", "FileNotFoundError", "TypeError", "KeyError", "FileNotFoundError",
               "FileNotFoundError", "IsADirectoryError"],
              ["./same.txt", "same.txt/", "/same.txt", ".//same.txt", "lib//Util.py",
               "nai\u0308ve.md", "same.TXT", []],
              ["x/../same.txt", "\\same.txt", "lib/util.py", "de\u0301ja\u0300.md", "lib"],
              ["first words\n", "other words\n", "other words, then a longer line.\n",
               "other words, then a longer line!\n", "W" + LONGER[1:12]]],
             "[What each read returned through run_tool after a write to its workspace and "
             "another to the other one (a long text by its length and last 30 characters); "
             "what reading each of five paths with no file raised; what read returned for a "
             "path with a blank at one end, beside same.txt, for one ending in two spaces, and "
             "for a file starting with a byte-order mark and no \"\\r\"; the kind of exception read raised for the "
             "paths x/../same.txt and \\same.txt, for the number 7 beside a file named 7, for "
             "no path, for lib/util.py beside lib/Util.py, for d\u00e9j\u00e0.md spelled with "
             "combining accents beside the file spelled without, and for the folder lib; the "
             "paths the workspace was handed by reads of ./same.txt, same.txt/, /same.txt, "
             ".//same.txt, lib//Util.py, nai\u0308ve.md (a combining accent, a file of its "
             "own) and same.TXT (a file of its own), and of same.txt in quotes, with a line "
             "break after it, after \"~/\", after \"file://\" and with a tab after it, those handed "
             "tidied (none); the paths it was handed by the reads "
             "of those kinds of exception, each as spelt (the number 7 left out: it may reach "
             "the workspace as that number, or read may refuse it first, but never as \"7\"); "
             "what read returned after "
             "four writes of kept.md, the second as long as the first, the fourth as the third "
             "but its last letter; the first 12 characters read gave for a file of "
             "over 4,000,000 characters, read, then rewritten at its length with another first "
             "letter]: read takes the path as the call "
             "spells it, and the text as the workspace holds it at each call.")
