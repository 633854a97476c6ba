"""Lesson 2, "Tools: asking is not doing": the wrong designs its rungs rule out, each as a small
change to lab 2.1's reference. The format is tools/wrong_designs.py's.
"""
from tools.wrong_designs import Beyond, Wrong

WRONG = [
    Wrong(lab='2.1', name='the call encoded in text and parsed back out',
          rule='A call is a block of its own, not a sentence: tool_calls gives the call blocks in the order they stand.',
          where='rung: A call is a block, not a sentence',
          names='call blocks',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    calls = []
    for line in text_of(message).splitlines():
        if line.startswith("CALL "):
            _, name, path = line.split(maxsplit=2)
            calls.append({"type": "toolCall", "id": f"c{len(calls) + 1}", "name": name,
                          "arguments": {"path": path}})
    return calls
'''),
    Wrong(lab='2.1', name='a second stored tool_calls field',
          rule='The calls are derived from content each time they are asked for; a second stored copy goes stale.',
          where='rung: A call is a block, not a sentence',
          names='derived from content',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    if "calls" not in message:
        message["calls"] = [block for block in message["content"] if block["type"] == "toolCall"]
    return message["calls"]
'''),
    Wrong(lab='2.1', name='answering only the first call',
          rule='Every call is answered, not only the first: one result per call, in call order.',
          where='rung: Every call gets its answer',
          names='not only the first',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    calls = [block for block in message["content"] if block["type"] == "toolCall"]
    return calls[:1]
'''),
    Wrong(lab='2.1', name='execute sent to the model',
          rule="The model is told a tool's name, description and parameters, and nothing else; execute never leaves the program.",
          where='rung: What the model is told about a tool',
          names='execute never leaves the program',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by='    return [dict(tool) for tool in tools]'),
    Wrong(lab='2.1', name='the spec cut from the tool itself',
          rule='tool_specs leaves the tools as they were: the program still needs execute after the model has been told about the tool.',
          where='rung: What the model is told about a tool',
          names='still needs execute',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    for tool in tools:
        for key in [key for key in tool if key not in ("name", "description", "parameters")]:
            del tool[key]
    return tools
'''),
    Wrong(lab='2.1', name='run_tool marking the call answered',
          rule='run_tool leaves the call as it found it: it writes nothing into it, a key of its own included.',
          where='Build item 4: "and the call too: it writes nothing into either" (hunt round 15, probe 2.1-24)',
          names='writes nothing into a call',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    text, failed = tool["execute"](call["arguments"]), False
    call["answered"] = True  # a note for whoever reads the reply next
"""),
    Wrong(lab='2.1', name='dispatch through globals()',
          rule="run_tool looks the call's name up among the tools it is given, and nowhere else.",
          where='rung: Finding the tool a call names',
          names='among the tools it is given',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    found = globals().get(call["name"])
    if found is None:
        found = {t["name"]: t for t in tools}[call["name"]]["execute"]
    text, failed = found(call["arguments"]), False
'''),
    Wrong(lab='2.1', name='an if/elif with one branch for each tool',
          rule="The list of tools passed in is the only place that says which tools exist: run_tool looks the call's name up among the tools it is given.",
          where='rung: Finding the tool a call names',
          names='among several tools',
          replace='    tool = {t["name"]: t for t in tools}[call["name"]]',
          by=r'''
    if call["name"] == "read":
        tool = next(t for t in tools if t["name"] == "read")
    elif call["name"] == "write":
        tool = next(t for t in tools if t["name"] == "write")
    elif call["name"] == "bash":
        tool = next(t for t in tools if t["name"] == "bash")
    else:
        raise KeyError(call["name"])
'''),
    Wrong(lab='2.1', name='the result sent as a user message',
          rule="A tool's output goes into the list as a toolResult naming its call, not in the user's voice.",
          where='rung: Every call gets its answer',
          names='toolResult',
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
''',
          by='    return user_message(text)'),
    Wrong(lab='2.1', name='no tool_call_id',
          rule='A result names the call it answers by id, so the model can pair it with its call.',
          where='rung: Every call gets its answer',
          names='by id',
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
''',
          by=r'''
    return {"role": "toolResult", "tool_name": call["name"], "content": text, "is_error": failed}
'''),
    # Lesson 1 has no lab; its wrong design about the assistant's content shows in lab 2.1's text_of.
    Wrong(lab='2.1', name='string content for the assistant',
          rule="An assistant's content is always a list of blocks, even when it holds only words; text_of joins the text blocks.",
          where='lesson 1, Three ways to lose who said what',
          names='text blocks',
          replace=r'''
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
''',
          by='    return message["content"]'),
    # The fixed case "Looking. " + "Done." read the same either way; drawn words do not.
    Wrong(lab='2.1', name='the words stripped and joined with spaces',
          rule='text_of joins the text of the text blocks in order, as they are: nothing added between them, nothing trimmed.',
          where='lab 2.1, gap 1: "text_of(message)"',
          names='text_of joins the text blocks in order',
          replace=r'''
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
''',
          by=r'''
    return " ".join(block["text"].strip() for block in message["content"]
                    if block["type"] == "text")
'''),
    Wrong(lab='2.1', name='each call copied out of the content',
          rule='tool_calls gives the very blocks of the content, not copies of them.',
          where='lab 2.1, gap 2: "tool_calls(message)"',
          names='not a copy',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    return [dict(block) for block in message["content"] if block["type"] == "toolCall"]
'''),
    Wrong(lab='2.1', name='read giving the file stripped of its spaces and newlines',
          rule="read's execute gives the whole text of the file, as the workspace holds it: a "
               "final newline included.",
          where='lab 2.1, gap 5: "The read tool\'s `execute`"',
          names='whole text of the file',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        return ws.read_text(arguments["path"]).strip()
'''),
    # Hunt round 2 (reader r5), designs 2.1-2 to 2.1-10.
    Wrong(lab='2.1', name='a strict schema added to each tool in place',
          rule='tool_specs leaves the tools exactly as they went in: a spec is made new, and '
               "describing a tool never changes the tool's own parameters.",
          where='lab 2.1, gap 3: "tool_specs(tools)"',
          names='keeps its own values',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    specs = []
    for tool in tools:
        parameters = tool["parameters"]
        if isinstance(parameters, dict):
            parameters.setdefault("additionalProperties", False)
        specs.append({"name": tool["name"], "description": tool["description"],
                      "parameters": parameters})
    return specs
'''),
    Wrong(lab='2.1', name='execute run again when it returns ""',
          rule="run_tool runs the named tool's execute once per call: an empty answer is an "
               'answer, not a reason to try again.',
          where='lab 2.1, gap 4: "run_tool(tools, call)"',
          names='not run again',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    text, failed = tool["execute"](call["arguments"]), False
    if text == "":
        text = tool["execute"](call["arguments"])
'''),
    Wrong(lab='2.1', name='globals() as the fallback for a name no tool has',
          rule="run_tool looks the call's name up among the tools it is given, and nowhere else: "
               'a function of the file is not a tool, even for a name no tool has.',
          where='rung: Finding the tool a call names',
          names='nowhere else',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"]) or \
        {"execute": globals()[call["name"]]}
'''),
    Wrong(lab='2.1', name='the tool with the closest name run instead',
          rule="The tool that runs is the one whose name is the call's name; a name no tool has "
               'runs nothing (lesson 2 raises, lesson 4 answers with an error), never a guess.',
          where='The call for a tool you do not have',
          names='not the tool with the closest name',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    import difflib
    by_name = {t["name"]: t for t in tools}
    name = call["name"]
    if name not in by_name:
        name = difflib.get_close_matches(name.lower(), list(by_name), n=1, cutoff=0.0)[0]
    tool = by_name[name]
'''),
    Wrong(lab='2.1', name='read capped at 2000 characters',
          rule="read's execute gives the whole text of the file: lesson 2's read has no cap, "
               "and lesson 6's budget cuts at whole lines and says so.",
          where='lab 2.1, gap 5: "The read tool\'s `execute`"',
          names='however long',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        return ws.read_text(arguments["path"])[:2000]
'''),
    Wrong(lab='2.1', name='read remembering each file it has read',
          rule="read's execute gives the text as the workspace holds it at the time of the call, "
               'so a file changed since is read anew.',
          where='lab 2.1, gap 5: "The read tool\'s `execute`"',
          names='as the workspace holds it',
          replace=r'''
    def execute(arguments):
        return ws.read_text(arguments["path"])
''',
          by=r'''
    seen = {}

    def execute(arguments):
        if arguments["path"] not in seen:
            seen[arguments["path"]] = ws.read_text(arguments["path"])
        return seen[arguments["path"]]
'''),
    Wrong(lab='2.1', name='"(no output)" for an empty answer',
          rule="A result's content is what execute returned, an empty string included.",
          where='lab 2.1, gap 4: "run_tool(tools, call)"',
          names='"" included',
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
''',
          by=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text or "(no output)", "is_error": failed}
'''),
    Wrong(lab='2.1', name='arguments tidied of empty values',
          rule="execute gets the call's arguments, whatever they hold: an empty string or None "
               'is a value the tool may need.',
          where='lab 2.1, gap 4: "run_tool(tools, call)"',
          names='whatever they hold',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    arguments = {k: v for k, v in call["arguments"].items() if v not in (None, "")}
    text, failed = tool["execute"](arguments), False
'''),
    # Hunt round 5 (reader r16), designs 2.1-3 to 2.1-30.
    Wrong(lab='2.1', name='the calls kept per message and handed out again',
          rule='Nothing is kept between two asks: each ask of tool_calls gives a new list, so a '
               'caller that empties the list it was given changes no later answer.',
          where='lab 2.1, gap 2: "tool_calls(message)"',
          names='each ask gives a new list',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    # Kept beside the message and its blocks themselves, compared by identity: keyed by id(),
    # a freed message could lend its address to a new one.
    kept = tool_calls.__dict__.setdefault("kept", [])
    blocks = list(message["content"])
    for seen, seen_blocks, calls in kept:
        if seen is message and len(seen_blocks) == len(blocks) and \
                all(a is b for a, b in zip(seen_blocks, blocks)):
            return calls
    calls = [block for block in blocks if block["type"] == "toolCall"]
    kept.append((message, blocks, calls))
    return calls
'''),
    Wrong(lab='2.1', name='the calls as a tuple',
          rule='tool_calls gives a list: [] for a plain answer.',
          where='Build, item 2: "for a plain answer"',
          names='a list like any other',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    return tuple(block for block in message["content"] if block["type"] == "toolCall")
'''),
    Wrong(lab='2.1', name='the specs kept per tools list',
          rule='tool_specs gives a new list, holding a new dict for each tool, at every ask: '
               'a spec edited after one request is not sent again, and a tool added since is '
               'offered.',
          where='Build, item 3: "A new list, holding a new dict for each tool"',
          names='each ask makes a new list',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    # Kept beside the list itself, compared by identity (see the name table's design).
    kept = tool_specs.__dict__.setdefault("kept", [])
    for seen, specs in kept:
        if seen is tools:
            return specs
    specs = [{"name": tool["name"], "description": tool["description"],
              "parameters": tool["parameters"]} for tool in tools]
    kept.append((tools, specs))
    return specs
'''),
    Wrong(lab='2.1', name='the specs made through a dict keyed by name',
          rule="tool_specs makes a new dict for each tool in the tools' order: two tools that "
               'share a name give two specs; tool_specs describes the list and does not judge it.',
          where='Build, item 3: "a new dict for each tool in the tools\' order"',
          names='two tools that share a name give two specs',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    by_name = {}
    for tool in tools:
        by_name[tool["name"]] = {"name": tool["name"], "description": tool["description"],
                                 "parameters": tool["parameters"]}
    return list(by_name.values())
'''),
    Wrong(lab='2.1', name="a type and properties filled into the tool's own schema",
          rule='tool_specs leaves the tools exactly as they went in: a schema without "type" or '
               '"properties" is not filled in, in the spec or in the tool.',
          where='Build, item 3: "the tools come out exactly as they went in"',
          names='adds no "type" or "properties"',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    for tool in tools:
        tool["parameters"].setdefault("type", "object")
        tool["parameters"].setdefault("properties", {})
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
'''),
    Wrong(lab='2.1', name='a default schema for empty parameters',
          rule="Each value of a spec is the tool's own: parameters of {} are told to the model as "
               'they are, not as a schema the tool does not have.',
          where='Build, item 3: "with exactly the keys"',
          names='not filled in with a default schema',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"] or {"type": "object", "properties": {}}}
            for tool in tools]
'''),
    Wrong(lab='2.1', name='the tool found case-blind',
          rule="The tool that runs is the one whose name is the call's name, exactly as the call "
               'spells it: "Read" or "read " is not the tool read.',
          where='Build, item 4: "whatever other functions your file defines"',
          names='exactly as the call spells it',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    tool = {t["name"].strip().lower(): t for t in tools}[call["name"].strip().lower()]
'''),
    Wrong(lab='2.1', name='a registry of every tool the file made',
          rule='The list passed in is the whole of what the model may do: a tool this file made '
               'but did not give is not among them.',
          where='"The list you pass is the whole of what the model may do"',
          names='a read tool the file made but did not give',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"]) or _MADE[call["name"]]
''',
          also=((r'''
    return {
        "name": "read",
''', r'''
    _MADE["read"] = {"name": "read", "execute": execute}
    return {
        "name": "read",
'''), (r'''
def run_tool(tools, call):
''', r'''
_MADE = {}  # every tool this file has made, by name


def run_tool(tools, call):
'''))),
    Wrong(lab='2.1', name='the name table kept per tools list',
          rule="run_tool looks the call's name up among the tools it is given at that call: a "
               'tool taken out of the list since no longer runs, and one added since does.',
          where='"The list you pass is the whole of what the model may do"',
          names='a tool taken out of the list since no longer runs',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    # Each list is kept beside its table, so that a list freed since cannot lend its address
    # to a new one: which table a call finds must not depend on where Python put a list.
    tables = run_tool.__dict__.setdefault("tables", [])
    table = next((table for kept, table in tables if kept is tools), None)
    if table is None:
        table = {t["name"]: t for t in tools}
        tables.append((tools, table))
    tool = table[call["name"]]
'''),
    Wrong(lab='2.1', name='None for a tool it does not have',
          rule="A call for a tool that is not in the list is refused: lesson 2's run_tool raises "
               "KeyError (lesson 4's answers with an error result); returning None leaves the "
               'call unanswered and says nothing.',
          where='The call for a tool you do not have',
          names='never None',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        return None
'''),
    Wrong(lab='2.1', name='StopIteration for a tool it does not have',
          rule="A call for a tool that is not in the list raises KeyError in lesson 2 (lesson 4 "
               'answers it with an error result), not another exception.',
          where='The call for a tool you do not have',
          names='another exception',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    tool = next(t for t in tools if t["name"] == call["name"])
'''),
    Wrong(lab='2.1', name='every exception made content, is_error False',
          rule="A result's content is what execute returned, is_error False; a call that failed "
               '(a tool it does not have) is not told to the model as a success.',
          where='Build, item 4: "what `execute` returned as the content, and `is_error` False"',
          names='claims success',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    try:
        tool = {t["name"]: t for t in tools}[call["name"]]
        text, failed = tool["execute"](call["arguments"]), False
    except Exception as problem:
        text, failed = f"Error: {problem!r}", False
'''),
    Wrong(lab='2.1', name="a tool's own KeyError told as a missing tool",
          rule='A tool that is there and fails is not a tool that is missing: its own error comes '
               'back (raised in lesson 2, as an error result from lesson 4), not "no such tool".',
          where='Build, item 4: "whatever other functions your file defines"',
          names='a tool that is there and fails is not a tool that is missing',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    try:
        text, failed = {t["name"]: t for t in tools}[call["name"]]["execute"](
            call["arguments"]), False
    except KeyError:
        text, failed = f"No tool named {call['name']}", True
'''),
    Wrong(lab='2.1', name='the content made a string with str()',
          rule="A result's content is what execute returned, passed on as it is: a tool that "
               'returns None is not hidden behind "None".',
          where='Build, item 4: "what `execute` returned as the content"',
          names='not turned into "None"',
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
''',
          by=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": str(text), "is_error": failed}
'''),
    Wrong(lab='2.1', name='execute run again when it returns None',
          rule="run_tool runs the named tool's execute once per call, whatever it returned.",
          where='Build, item 4: "its `execute` gets the call\'s arguments, once"',
          names='execute ran once for each',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    text, failed = tool["execute"](call["arguments"]), False
    if text is None:
        text = tool["execute"](call["arguments"])
'''),
    Wrong(lab='2.1', name='is_error True for an empty answer',
          rule='is_error stays False all through lesson 2: an empty text is an answer, not a '
               'failure.',
          where='`is_error` stays `False` all through this lesson',
          names="an empty file's text is an answer, not a failure",
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
''',
          by=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": text == ""}
'''),
    Wrong(lab='2.1', name="is_error judged from the answer's first word",
          rule='is_error stays False all through lesson 2: a text that starts "Error" or '
               '"Traceback" is what a file may hold, not a failure.',
          where='`is_error` stays `False` all through this lesson',
          names='a text that starts "Error"',
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
''',
          by=r'''
    failed = isinstance(text, str) and text.startswith(("Error", "Traceback"))
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
'''),
    Wrong(lab='2.1', name='run_tool cutting answers at 10,000 characters',
          rule="A result's content is what execute returned, however long: run_tool has no cap "
               "of its own (lesson 6's budget is the read tool's, and says when it cuts).",
          where='Build, item 4: "what `execute` returned as the content"',
          names="no cap of run_tool's own",
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    text, failed = tool["execute"](call["arguments"]), False
    if isinstance(text, str):
        text = text[:10_000]
'''),
    Wrong(lab='2.1', name='results remembered by call id',
          rule="Each call runs its tool's execute, once: a call whose id an earlier call had (ids "
               'start again at c1 in each reply) runs anew, as the workspace is now.',
          where='Build, item 4: "its `execute` gets the call\'s arguments, once"',
          names='never answered from memory',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    # Kept beside the tool itself, compared by identity: keyed by id(), a freed tool could lend
    # its address to a new one, and the verdict would follow where Python put it.
    done = run_tool.__dict__.setdefault("done", [])
    found = [answer for kept, id_, answer in done if kept is tool and id_ == call["id"]]
    if not found:
        found = [tool["execute"](call["arguments"])]
        done.append((tool, call["id"], found[0]))
    text, failed = found[0], False
'''),
    Wrong(lab='2.1', name="the schema's defaults written into the arguments",
          rule="execute gets the call's arguments as the model sent them: no default of the "
               "schema is added, and the call block is left as it was.",
          where='Build, item 4: "its `execute` gets the call\'s arguments, once"',
          names='a "default" of the schema is not added',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    for key, schema in tool["parameters"].get("properties", {}).items():
        if "default" in schema:
            call["arguments"].setdefault(key, schema["default"])
    text, failed = tool["execute"](call["arguments"]), False
'''),
    Wrong(lab='2.1', name='read over the newest workspace made',
          rule="read's execute reads the workspace ws its own make_read_tool was given, even "
               'after another read tool was made over another.',
          where='Build, item 5: "as the workspace `ws` holds it"',
          names='even after another read tool was made',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        return make_read_tool.newest.read_text(arguments["path"])
''',
          also=((r'''
    def execute(arguments):
''', r'''
    make_read_tool.newest = ws

    def execute(arguments):
'''),)),
    Wrong(lab='2.1', name='a missing file read as empty',
          rule='A path with no file is not an empty file: read raises, as ws.read_text does.',
          where='Build, item 5: "as the workspace `ws` holds it"',
          names='a path with no file is not an empty file',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        if not ws.exists(arguments["path"]):
            return ""
        return ws.read_text(arguments["path"])
'''),
    Wrong(lab='2.1', name='read capped at 2000 lines, silently',
          rule="read's execute gives the whole text of the file, however long; lesson 6's "
               'budget cuts at 2000 lines and says so in a note, never silently.',
          where='Build, item 5: "The whole text of the file"',
          names='never cuts a file silently',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        return "".join(ws.read_text(arguments["path"]).splitlines(keepends=True)[:2000])
'''),
    Wrong(lab='2.1', name='read tidying the ends of lines',
          rule="read's execute gives the file's text as the workspace holds it: spaces, tabs and "
               '"\\r\\n" at the ends of lines are kept.',
          where='Build, item 5: "as the workspace `ws` holds it"',
          names='spaces and tabs at the ends of lines',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        text = ws.read_text(arguments["path"])
        return "\n".join(line.rstrip(" \t\r") for line in text.split("\n"))
'''),
    # Hunt round 5 (reader r16), probe 2.1-29, a rule since lesson 2 states it.
    Wrong(lab='2.1', name='the tools list reordered by run_tool',
          rule='Build item 4: run_tool leaves the list it is given as it found it. Moving the tool '
               'that ran to the front changes the caller\'s list: the order tool_specs offers '
               'the tools in next time is no longer the caller\'s.',
          where='Build item 4: "leaves the list it is given as it found it"',
          names='as it found it',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
    tools.remove(tool)
    tools.insert(0, tool)
'''),
    # The kind operators (bench/kinds.py), text stripped: survivors of their first run.
    Wrong(lab='2.1', name="a tool's name and description stripped in its spec",
          rule='Build item 3: the tools come out exactly as they went in, so a description that '
               'ends in a line break, or a name with a space, reaches the model as it is.',
          where='Build item 3: "the tools come out exactly as they went in"',
          names='nothing is stripped',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
''',
          by=r'''
    return [{"name": tool["name"].strip(), "description": tool["description"].strip(),
'''),
    Wrong(lab='2.1', name="the result's call id and name stripped",
          rule='Build item 4: the result carries the call\'s id and the call\'s name; stripped, '
               'an id with a space at its end answers no call.',
          where='Build item 4: "the call\'s id, the call\'s name"',
          names='exactly as the call block does',
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
''',
          by=r'''
    return {"role": "toolResult", "tool_call_id": call["id"].strip(),
            "tool_name": call["name"].strip(),
'''),
    # Hunt round 10 (reader r43): the designs that passed, each now failing naming its rule.
    Wrong(lab='2.1', name='a word said twice in a row kept once',
          rule='Build item 1: text_of gives the "text" of every text block, in the order they '
               'stand; a word the model said again right after itself is a block like any other.',
          where='Build item 1: "the "text" of every block of type "text", in the order they stand"',
          names='a word said again right after itself',
          replace=r'''
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
''',
          by=r'''
    words = [block["text"] for block in message["content"] if block["type"] == "text"]
    return "".join(w for n, w in enumerate(words) if n == 0 or w != words[n - 1])
'''),
    Wrong(lab='2.1', name='text_of kept per message',
          rule='Build item 1: the words are those of the blocks the reply holds when text_of is '
               'asked; an answer kept per message goes stale when the caller edits the content.',
          where='Build item 1: "the "text" of every block of type "text""',
          names='text_of follows the content as it is when asked',
          replace=r'''
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
''',
          by=r'''
    kept = _WORDS.get(id(message))
    if kept is None or kept[0] is not message:
        kept = _WORDS[id(message)] = (message, "".join(
            block["text"] for block in message["content"] if block["type"] == "text"))
    return kept[1]


_WORDS = {}  # id(message) -> (message, its words)
'''),
    Wrong(lab='2.1', name='the calls kept until the length or the last block changes',
          rule='Build item 2: nothing is kept between two asks; a block replaced in the middle of '
               'the content shows at the next ask.',
          where='Build item 2: "Nothing is kept between two asks"',
          names='the content as long as before',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    content = message["content"]
    last = content[-1] if content else None
    kept = _CALLS.get(id(message))
    if kept is None or kept[0] is not message or kept[1] != len(content) or kept[2] is not last:
        calls = [block for block in content if block["type"] == "toolCall"]
        kept = _CALLS[id(message)] = (message, len(content), last, calls)
    return list(kept[3])


_CALLS = {}  # id(message) -> (message, length, last block, calls)
'''),
    Wrong(lab='2.1', name='one shared [] for every plain answer',
          rule='Build item 2: nothing is kept between two asks; a plain answer\'s [] is a new list, '
               'so a caller that adds to it changes no later answer.',
          where='Build item 2: "`[]` for a plain answer. Nothing is kept between two asks"',
          names='a new list at each ask',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    calls = [block for block in message["content"] if block["type"] == "toolCall"]
    return calls if calls else _NO_CALLS


_NO_CALLS = []  # one answer for every plain reply
'''),
    Wrong(lab='2.1', name='the specs kept per list of tool ids, handed out as copies',
          rule='Build item 3: a new list of new dicts from the tools as they are at each ask; a '
               'tool changed in place since is told as it is now.',
          where='Build item 3: "A new list, holding a new dict for each tool"',
          names='changed in place since the last ask',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    key = tuple(id(tool) for tool in tools)
    if key not in _SPECS:
        _SPECS[key] = (list(tools), [{"name": tool["name"], "description": tool["description"],
                                      "parameters": tool["parameters"]} for tool in tools])
    return [dict(spec) for spec in _SPECS[key][1]]


_SPECS = {}  # tuple of tool ids -> (the tools, their specs)
'''),
    Wrong(lab='2.1', name='a missing description and schema filled into the tool',
          rule='Build item 3: the tools come out exactly as they went in, even a tool that lacks a '
               'key: tool_specs writes nothing into a tool.',
          where='Build item 3: "the tools come out exactly as they went in"',
          names='writes nothing into the tool',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    for tool in tools:
        tool.setdefault("description", "")
        tool.setdefault("parameters", {"type": "object", "properties": {}})
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
'''),
    Wrong(lab='2.1', name='one shared [] for no tools',
          rule='Build item 3: tool_specs gives a new list at each ask, the empty one included.',
          where='Build item 3: "A new list"',
          names='a spec a caller added to one answer is not in the next',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    if not tools:
        return _NO_SPECS
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]


_NO_SPECS = []  # one answer for every empty list of tools
'''),
    Wrong(lab='2.1', name="each name's first schema kept for the process",
          rule='Build item 3 and the test\'s "Each value is the tool\'s own": two tools of one name '
               'are each told with their own parameters, not with the first one seen.',
          where='Build item 3: "holding a new dict for each tool"; test_specs_have_three_keys_in_order: each value is the tool\'s own',
          names='each is told with its own schema',
          replace=r'''
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
             "parameters": _SCHEMAS.setdefault(tool["name"], tool["parameters"])}
            for tool in tools]


_SCHEMAS = {}  # tool name -> the parameters first seen under it
'''),
    Wrong(lab='2.1', name="a tool's error wrapped in a RuntimeError",
          rule='Build item 4: what execute raises goes up to the caller as it was raised; a '
               'RuntimeError wrapped round it is another exception.',
          where='Build item 4: "What `execute` raises goes up to the caller as it was raised"',
          names='not another exception wrapped round it',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except Exception as problem:
        raise RuntimeError(f"tool {call['name']} failed: {problem!r}") from problem
'''),
    Wrong(lab='2.1', name='results remembered by call id and arguments',
          rule='Build item 4: execute gets the call\'s arguments, once per call; a later run\'s '
               'c1 with the same arguments runs anew, since the files may have changed.',
          where='Build item 4: "its `execute` gets the call\'s arguments, once"',
          names='never answered from memory',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    key = (id(tool), call["id"], repr(sorted(call["arguments"].items())))
    if key not in _ANSWERED or _ANSWERED[key][0] is not tool:
        _ANSWERED[key] = (tool, tool["execute"](call["arguments"]))
    text, failed = _ANSWERED[key][1], False
'''),
    Wrong(lab='2.1', name="the arguments checked against the schema's types",
          rule='Build item 4 and "Yours checks nothing yet": execute gets the call\'s arguments '
               'whatever they hold; a value of another type than the schema says is the tool\'s '
               'to judge (lesson 4 writes str_arg for it).',
          where='Build item 4: "its `execute` gets the call\'s arguments"; "Where Tau is weaker"',
          names="the tool's to judge",
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    kinds = {"string": str, "integer": int}
    for key, spec in ((tool["parameters"] or {}).get("properties") or {}).items():
        kind = kinds.get(spec.get("type"))
        if kind and key in call["arguments"] and not isinstance(call["arguments"][key], kind):
            raise ValueError(f"{key} must be a {spec['type']}")
    text, failed = tool["execute"](call["arguments"]), False
'''),
    Wrong(lab='2.1', name='an answer other than text or None made a string',
          rule='"Your `run_tool` passes it on as it is": a number execute returned is the content '
               'as it is, not its str().',
          where='"Where yours is weaker": "Your `run_tool` passes it on as it is"; Build item 4',
          names='passed on, not turned into',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    text, failed = tool["execute"](call["arguments"]), False
    if text is not None and not isinstance(text, str):
        text = str(text)
'''),
    Wrong(lab='2.1', name='run_tool cutting answers at 100,000 characters',
          rule='Build item 4: what execute returned is the content, with no cap of run_tool\'s own.',
          where='Build item 4: "what `execute` returned as the content"',
          names="no cap of run_tool's own",
          replace=r'''
            "content": text, "is_error": failed}
''',
          by=r'''
            "content": text[:100_000] if isinstance(text, str) else text, "is_error": failed}
'''),
    Wrong(lab='2.1', name='read capped at 65,536 characters',
          rule='Build item 5: the whole text of the file; a read that stops at 64 KiB with no note '
               'cuts a file silently.',
          where='Build item 5: "The whole text of the file"',
          names='never cuts a file silently',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        return ws.read_text(arguments["path"])[:65536]
'''),
    Wrong(lab='2.1', name="lesson 6's offset and limit honoured, with no note",
          rule='Build item 5: the whole text of the file named by "path"; lesson 2\'s read takes no '
               'offset or limit, and lesson 6\'s, which does, says where it stopped.',
          where='Build item 5: "The whole text of the file named by the "path" argument"',
          names='never a bare piece of the file',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        lines = ws.read_text(arguments["path"]).splitlines(keepends=True)
        start = (arguments.get("offset") or 1) - 1
        limit = arguments.get("limit")
        return "".join(lines[start:start + limit] if limit else lines[start:])
'''),
    Wrong(lab='2.1', name='read dropping a byte-order mark',
          rule='Build item 5: the text of the file as the workspace holds it; a byte-order mark '
               'at its start is part of it.',
          where='Build item 5: "as the workspace `ws` holds it"',
          names='a byte-order mark at the start',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        return ws.read_text(arguments["path"]).removeprefix("\ufeff")
'''),
    # Hunt round 10 (reader r43), probe 2.1-93.
    Wrong(lab='2.1', name='read tidying the path it is given',
          rule='Build item 5: the path goes to the workspace as the call spells it; read tidies '
               'nothing, so a path with a space at its end names another file.',
          where='Build item 5: "The path goes to the workspace as the call spells it: `read` '
                'tidies nothing"',
          names='read tidies nothing',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        path = arguments["path"].strip()
        return ws.read_text(path[2:] if path.startswith("./") else path)
'''),
    # Hunt round 10 (reader r43), probe 2.1-94.
    Wrong(lab='2.1', name='a missing description and schema made up in the spec',
          rule='Build item 3: a tool that lacks a description or parameters is not a tool; '
               'tool_specs raises KeyError for it rather than tell the model what the tool does '
               'not have.',
          where='Build item 3: "`tool_specs` raises `KeyError` for it rather than tell the model a '
                'description or a schema the tool does not have"',
          names='raises KeyError for it',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    return [{"name": tool["name"], "description": tool.get("description", ""),
             "parameters": tool.get("parameters", {"type": "object", "properties": {}})}
            for tool in tools]
'''),
    # Hunt round 12 (reader r61): the designs that passed, each now failing naming its rule.
    Wrong(lab='2.1', name='execute tried again when it raises OSError',
          rule='Build item 4: execute gets the call\'s arguments once, and what it raises goes up '
               'to the caller as it was raised; a missing file is not tried a second time.',
          where='Build item 4: "What `execute` raises goes up to the caller as it was raised"',
          names='not tried again',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except OSError:
        text, failed = tool["execute"](call["arguments"]), False
"""),
    Wrong(lab='2.1', name='a tool\'s error other than KeyError wrapped in a RuntimeError',
          rule='Build item 4: what execute raises goes up to the caller as it was raised, '
               'whatever its kind, not only a KeyError.',
          where='Build item 4: "What `execute` raises goes up to the caller as it was raised"',
          names='the same kind with the same words',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except KeyError:
        raise
    except Exception as problem:
        raise RuntimeError(f"tool {call['name']} failed: {problem}") from problem
"""),
    Wrong(lab='2.1', name='a missing file answered as an empty one',
          rule='Build item 4: what execute raises goes up to the caller as it was raised, and '
               'is_error stays False only for what execute returned; a FileNotFoundError '
               'swallowed into content "" tells the model the file is there and empty.',
          where='Build item 4: "What `execute` raises goes up to the caller as it was raised"',
          names='not swallowed into a result that claims success',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except FileNotFoundError:
        text, failed = "", False
"""),
    Wrong(lab='2.1', name='the tool taken out of the list while it runs',
          rule='Build item 4: run_tool leaves the list it is given as it found it, even when the '
               'tool raises.',
          where='Build item 4: "`run_tool` leaves the list it is given as it found it"',
          names='leaves the list it is given as it found it',
          replace=r"""
    tool = {t["name"]: t for t in tools}[call["name"]]
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    index = max((n for n, t in enumerate(tools) if t["name"] == call["name"]),
                default=None)
    if index is None:
        raise KeyError(call["name"])
    tool = tools.pop(index)
    text, failed = tool["execute"](call["arguments"]), False
    tools.insert(index, tool)
"""),
    Wrong(lab='2.1', name='a count of runs written into the tool',
          rule='Build item 4: run_tool leaves the list it is given as it found it, its tools '
               'with the keys they had.',
          where='Build item 4: "`run_tool` leaves the list it is given as it found it"',
          names='with the same keys',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    tool["runs"] = tool.get("runs", 0) + 1
    text, failed = tool["execute"](call["arguments"]), False
"""),
    Wrong(lab='2.1', name='run_tool cutting answers at 250,000 characters',
          rule='Build item 4: what execute returned is the content, as it is; run_tool has no '
               'cap of its own, however long the answer.',
          where='Build item 4: "what `execute` returned as the content"',
          names="no cap of run_tool's own",
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    text, failed = tool["execute"](call["arguments"]), False
    if isinstance(text, str):
        text = text[:250_000]
"""),
    Wrong(lab='2.1', name='read capped at 120,000 characters, silently',
          rule='Build item 5: read gives the whole text of the file, however long; lesson 6 is '
               'where a read is cut, with a note that says so.',
          where='Build item 5: "The whole text of the file"',
          names='read never cuts a file silently',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        return ws.read_text(arguments["path"])[:120_000]
"""),
    Wrong(lab='2.1', name='read normalising the path it is given',
          rule='Build item 5: the path goes to the workspace as the call spells it; a path that '
               'climbs out and back (x/../a.py) is the workspace\'s to refuse, not read tidied.',
          where='Build item 5: "The path goes to the workspace as the call spells it: `read` '
                'tidies nothing"',
          names='read tidies nothing',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        return ws.read_text(posixpath.normpath(arguments["path"]))
""",
          also=((r"""
def make_read_tool(ws):
""", r"""
import posixpath


def make_read_tool(ws):
"""),)),
    Wrong(lab='2.1', name='read turning backslashes into slashes',
          rule='Build item 5: the path goes to the workspace as the call spells it; a path '
               'spelled with backslashes is not made a path with slashes.',
          where='Build item 5: "The path goes to the workspace as the call spells it: `read` '
                'tidies nothing"',
          names='read tidies nothing',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        return ws.read_text(arguments["path"].replace("\\", "/").lstrip("/"))
"""),
    Wrong(lab='2.1', name='a path that is not a string made one with str()',
          rule='Build item 5: the path goes to the workspace as the call spells it; a path that '
               'is not a string is the workspace\'s to refuse, not made a file\'s name.',
          where='Build item 5: "The path goes to the workspace as the call spells it: `read` '
                'tidies nothing"',
          names='read tidies nothing',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        return ws.read_text(str(arguments["path"]))
"""),
    Wrong(lab='2.1', name='the project folder read when no path is given',
          rule='Build item 5: read reads the file named by the "path" argument; a call with no '
               'path names no file, and read does not make one up.',
          where='Build item 5: "The whole text of the file named by the `"path"` argument"',
          names='names the missing path',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        return ws.read_text(arguments.get("path", "."))
"""),
    Wrong(lab='2.1', name='the calls kept per message and block ids, handed out as copies',
          rule='Build item 2: tool_calls gives the very blocks of the content and keeps nothing '
               'between two asks; a call re-made in place with the same id shows at the next '
               'ask.',
          where='Build item 2: "Nothing is kept between two asks"',
          names='re-made in place',
          replace=r"""
    return [block for block in message["content"] if block["type"] == "toolCall"]
""",
          by=r"""
    key = (id(message), tuple((b["type"], b.get("id")) for b in message["content"]))
    if key not in _CALLS:
        _CALLS[key] = [block for block in message["content"] if block["type"] == "toolCall"]
    return list(_CALLS[key])


_CALLS = {}  # (id(message), its blocks' kinds and ids) -> its calls
"""),
    Wrong(lab='2.1', name='results remembered by name, id and arguments unless empty',
          rule='Build item 4: execute gets the call\'s arguments once for each call; a later '
               'run\'s call with the same name, id and arguments runs its tool anew.',
          where='Build item 4: "its `execute` gets the call\'s arguments, once"',
          names='never from memory',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    key = (call["name"], call["id"], repr(sorted(call["arguments"].items())))
    if key in _MEMO:
        text, failed = _MEMO[key], False
    else:
        text, failed = tool["execute"](call["arguments"]), False
        if text:
            _MEMO[key] = text
""",
          also=((r"""
def run_tool(tools, call):
""", r"""
_MEMO = {}  # (name, id, arguments) -> what the tool answered


def run_tool(tools, call):
"""),)),
    # Hunt round 15 (reader r79): designs 2.1-3 to 2.1-20 and probe 2.1-25.
    Wrong(lab='2.1', name='read capped at 2,000,000 characters, silently',
          rule='Build item 5: read gives the whole text of the file, however long; lesson 6 is '
               'where a read is cut, with a note that says so.',
          where='Build item 5: "The whole text of the file"',
          names='read never cuts a file silently',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        return ws.read_text(arguments["path"])[:2_000_000]
"""),
    Wrong(lab='2.1', name='run_tool cutting answers at 2,000,000 characters',
          rule='Build item 4: what execute returned is the content, as it is; run_tool has no '
               'cap of its own, however long the answer.',
          where='Build item 4: "what `execute` returned as the content"',
          names="no cap of run_tool's own",
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    text, failed = tool["execute"](call["arguments"]), False
    if isinstance(text, str):
        text = text[:2_000_000]
"""),
    Wrong(lab='2.1', name='results remembered by call block and tool',
          rule='Build item 4: execute gets the call\'s arguments once for each call run_tool '
               'is handed; the same call block handed again to the same tool runs it anew.',
          where='Build item 4: "its `execute` gets the call\'s arguments, once"',
          names='never from memory',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    kept = _MEMO.get((id(call), id(tool)))
    if kept is not None and kept[0] is call and kept[1] is tool:  # the very block and tool
        text, failed = kept[2], False
    else:
        text, failed = tool["execute"](call["arguments"]), False
        _MEMO[(id(call), id(tool))] = (call, tool, text)
""",
          also=((r"""
def run_tool(tools, call):
""", r"""
_MEMO = {}  # (id of a call block, id of a tool) -> (the block, the tool, what it answered)


def run_tool(tools, call):
"""),)),
    Wrong(lab='2.1', name='a count of runs written into the tool after it ran',
          rule='Build item 4: run_tool leaves the list it is given as it found it, its tools '
               'with the keys they had, after a tool that ran as well as after one that failed.',
          where='Build item 4: "`run_tool` leaves the list it is given as it found it"',
          names='with the same keys',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    text, failed = tool["execute"](call["arguments"]), False
    tool["_runs"] = tool.get("_runs", 0) + 1
"""),
    Wrong(lab='2.1', name='execute tried again when it raises ConnectionError',
          rule='Build item 4: execute gets the call\'s arguments once, and what it raises goes up '
               'to the caller as it was raised; a lost connection is not tried a second time.',
          where='Build item 4: "What `execute` raises goes up to the caller as it was raised"',
          names='not tried again',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except ConnectionError:
        text, failed = tool["execute"](call["arguments"]), False
"""),
    Wrong(lab='2.1', name='a folder read as a file made a result that claims success',
          rule='Build item 4: what execute raises goes up to the caller as it was raised, and '
               'is_error stays False only for what execute returned; an IsADirectoryError '
               'swallowed into content tells the model the call worked.',
          where='Build item 4: "What `execute` raises goes up to the caller as it was raised"',
          names='claims success',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except (IsADirectoryError, NotADirectoryError) as problem:
        text, failed = f"{call['name']}: {problem} is a folder", False
"""),
    Wrong(lab='2.1', name='read stripping a leading "./"',
          rule='Build item 5: the path goes to the workspace as the call spells it; that '
               '"./notes.txt" is notes.txt is the workspace\'s to say, not read\'s to tidy.',
          where='Build item 5: "The path goes to the workspace as the call spells it: `read` '
                'tidies nothing"',
          names='read tidies nothing',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        path = arguments["path"]
        return ws.read_text(path[2:] if path.startswith("./") else path)
"""),
    Wrong(lab='2.1', name='read stripping a trailing "/"',
          rule='Build item 5: the path goes to the workspace as the call spells it; a path '
               'ending in "/" goes as it is, for the workspace to read or refuse.',
          where='Build item 5: "The path goes to the workspace as the call spells it: `read` '
                'tidies nothing"',
          names='read tidies nothing',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        return ws.read_text(arguments["path"].rstrip("/") or "/")
"""),
    Wrong(lab='2.1', name='read trying the name in another case when no file has it',
          rule='Build item 5: read gives the text of the file the path names, as the call '
               'spells it; src/main.py names no file beside src/Main.py, and read raises as the '
               'workspace does rather than read a file under another name.',
          where='Build item 5: "The path goes to the workspace as the call spells it: `read` '
                'tidies nothing"',
          names='read tidies nothing',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        path = arguments["path"]
        try:
            return ws.read_text(path)
        except FileNotFoundError:
            folder, _, leaf = path.rpartition("/")
            for name in ws.listdir(folder or "."):
                if name.lower() == leaf.lower():
                    return ws.read_text(f"{folder}/{name}" if folder else name)
            raise
"""),
    Wrong(lab='2.1', name='a call for "name()" run as the tool of that name',
          rule='Build item 4: the tool that runs is the one among tools whose name is the call\'s '
               'name; "read()" is no tool\'s name, and the call is refused.',
          where='Build item 4: "The tool that runs is the one among `tools` whose `"name"` is '
                'the call\'s name"',
          names='is not its name',
          replace=r"""
    tool = {t["name"]: t for t in tools}[call["name"]]
""",
          by=r"""
    by_name = {t["name"]: t for t in tools}
    name = call["name"]
    if name not in by_name and name.endswith("()"):
        name = name[:-2]
    tool = by_name[name]
"""),
    Wrong(lab='2.1', name='a call for "functions.name" run as the tool of that name',
          rule='Build item 4: the tool that runs is the one among tools whose name is the call\'s '
               'name; "functions.read" is no tool\'s name, and the call is refused.',
          where='Build item 4: "The tool that runs is the one among `tools` whose `"name"` is '
                'the call\'s name"',
          names='is not its name',
          replace=r"""
    tool = {t["name"]: t for t in tools}[call["name"]]
""",
          by=r"""
    by_name = {t["name"]: t for t in tools}
    tool = by_name.get(call["name"]) or by_name[call["name"].removeprefix("functions.")]
"""),
    Wrong(lab='2.1', name='tools named with "_" left out of the specs',
          rule='Build item 3: a new dict for each tool in the tools\' order; a tool whose name '
               'starts with "_" is a tool like any other, and the model is told of it.',
          where='Build item 3: "a new dict for each tool in the tools\' order"',
          names='a tool like any other',
          replace=r"""
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
""",
          by=r"""
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools
            if not tool["name"].startswith("_")]
"""),
    Wrong(lab='2.1', name='text_of turning "\\r\\n" into "\\n"',
          rule='Build item 1: the words are the "text" of every text block, with nothing put '
               'between them and nothing taken out; a Windows line break is the model\'s words.',
          where='Build item 1: "with nothing put between them"',
          names='trims nothing',
          replace=r"""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
""",
          by=r"""
    return "".join(block["text"] for block in message["content"]
                   if block["type"] == "text").replace("\r\n", "\n")
"""),
    Wrong(lab='2.1', name='text_of kept per message and its number of blocks',
          rule='Build item 1: the words are those of the blocks the reply holds when text_of is '
               'asked; an answer kept until a block is added goes stale when the caller edits a '
               'word in place.',
          where='Build item 1: "The words of a reply, as one string"',
          names='text_of follows the content as it is when asked',
          replace=r"""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
""",
          by=r"""
    key = (id(message), len(message["content"]))
    if _WORDS.get(key, (None,))[0] is not message:  # the very message, kept beside its id
        _WORDS[key] = (message, "".join(block["text"] for block in message["content"]
                                        if block["type"] == "text"))
    return _WORDS[key][1]


_WORDS = {}  # (id of a message, its number of blocks) -> (the message, its words)
"""),
    Wrong(lab='2.1', name='run_tool turning "\\r\\n" into "\\n" in an answer',
          rule='Build item 4: what execute returned is the content, as it is; a file\'s Windows '
               'line breaks are its text, not run_tool\'s to tidy.',
          where='Build item 4: "what `execute` returned as the content"',
          names='kept as it is',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    text, failed = tool["execute"](call["arguments"]), False
    if isinstance(text, str):
        text = text.replace("\r\n", "\n")
"""),
    Wrong(lab='2.1', name='read turning the path into its NFC form',
          rule='Build item 5: the path goes to the workspace as the call spells it; "café" '
               'spelled with a combining accent names another file than the one whose name has '
               'the one letter.',
          where='Build item 5: "The path goes to the workspace as the call spells it: `read` '
                'tidies nothing"',
          names='read tidies nothing',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        return ws.read_text(unicodedata.normalize("NFC", arguments["path"]))
""",
          also=((r"""
def make_read_tool(ws):
""", r"""
import unicodedata


def make_read_tool(ws):
"""),)),
    Wrong(lab='2.1', name='an empty description made up in the spec',
          rule='Build item 3: the tools come out exactly as they went in; a tool whose '
               'description is "" is told as "", not with a description it does not have.',
          where='Build item 3: "rather than tell the model a description or a schema the tool '
                'does not have"',
          names='not one made up',
          replace=r"""
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
""",
          by=r"""
    return [{"name": tool["name"], "description": tool["description"] or
             f"The {tool['name']} tool.", "parameters": tool["parameters"]} for tool in tools]
"""),
    Wrong(lab='2.1', name='a folder read as an empty file',
          rule='Build item 5: read gives the whole text of the file the path names; a folder is '
               'no file, and read raises as the workspace does rather than make up "".',
          where='Build item 5: "The whole text of the file named by the `"path"` argument"',
          names='read raises as the workspace does',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        try:
            return ws.read_text(arguments["path"])
        except IsADirectoryError:
            return ""
"""),
    # Hunt round 18 (reader r94): designs that passed lab 2.1's tests before round 18.
    Wrong(lab='2.1', name='text_of keeping the first ten text blocks',
          rule='text_of joins the "text" of every block of type "text", however many the reply '
               'holds: no count of its own.',
          where='hunt round 18, design 2.1-03 (r94); Build item 1: "in the order they stand"',
          names='however many',
          replace=r'''
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
''',
          by=r'''
    return "".join([block["text"] for block in message["content"]
                    if block["type"] == "text"][:10])
'''),
    Wrong(lab='2.1', name='tool_calls keeping the first eight calls',
          rule='tool_calls gives the blocks of type "toolCall", however many, in the order they '
               'stand.',
          where='hunt round 18, design 2.1-07 (r94); Build item 2: "in the order they stand"',
          names='however many',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"][:8]
'''),
    Wrong(lab='2.1', name='the calls reversed past eight',
          rule='tool_calls gives the blocks of type "toolCall", however many, in the order they '
               'stand.',
          where='hunt round 18, design 2.1-55 (r94); Build item 2: "in the order they stand"',
          names='however many',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    found = [block for block in message["content"] if block["type"] == "toolCall"]
    return found[::-1] if len(found) > 8 else found
'''),
    Wrong(lab='2.1', name="the calls kept per message and its blocks' ids alone",
          rule='Nothing is kept between two asks: a call block turned, in place, into a text '
               'block is not a call at the next ask.',
          where='hunt round 18, design 2.1-08 (r94); Build item 2: "Nothing is kept between two '
                'asks"',
          names='turned, in place',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    key = (id(message), tuple(id(block) for block in message["content"]))
    if key not in _BY_BLOCKS:
        _BY_BLOCKS[key] = [block for block in message["content"] if block["type"] == "toolCall"]
    return list(_BY_BLOCKS[key])
''',
          also=((r'''
def tool_calls(message):
''', r'''
_BY_BLOCKS = {}  # (id(message), its blocks' ids) -> its calls


def tool_calls(message):
'''),)),
    Wrong(lab='2.1', name='the specs sorted by name past seven tools',
          rule='tool_specs makes a new dict for each tool in the tools\' order, however many '
               'tools there are.',
          where='hunt round 18, design 2.1-12 (r94); Build item 3: "a new dict for each tool in '
                'the tools\' order"',
          names='however many tools',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    specs = [{"name": tool["name"], "description": tool["description"],
              "parameters": tool["parameters"]} for tool in tools]
    return sorted(specs, key=lambda spec: spec["name"]) if len(specs) > 7 else specs
'''),
    Wrong(lab='2.1', name='only the first sixteen tools described',
          rule='tool_specs makes a new dict for each tool in the tools\' order, however many '
               'tools there are.',
          where='hunt round 18, design 2.1-16 (r94); Build item 3: "a new dict for each tool in '
                'the tools\' order"',
          names='however many tools',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools[:16]]
'''),
    Wrong(lab='2.1', name='the tool found casefolded',
          rule="The tool that runs is the one whose name is the call's name, exactly as the call "
               'spells it: "READ" or "Read" is not the tool read.',
          where='hunt round 18, design 2.1-21 (r94); Build item 4: "the one among `tools` whose '
                '`"name"` is the call\'s name"',
          names='exactly as the call spells it',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    tool = {t["name"].casefold(): t for t in tools}[call["name"].casefold()]
'''),
    Wrong(lab='2.1', name='the call marked answered unless it names read',
          rule='run_tool writes nothing into the call, whichever tool it names.',
          where='hunt round 18, design 2.1-29 (r94); Build item 4: "and the call too: it writes '
                'nothing into either"',
          names='whichever tool it names',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    text, failed = tool["execute"](call["arguments"]), False
    if call["name"] != "read":
        call["answered"] = True
'''),
    Wrong(lab='2.1', name="every tool of the call's name run",
          rule="The tool that runs is the one among the tools whose name is the call's name, "
               'once: of two tools that share a name, one runs, not both.',
          where='hunt round 18, design 2.1-31 (r94); Build item 4: "its `execute` gets the '
                'call\'s arguments, once"',
          names='not both',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
    for namesake in [t for t in tools if t["name"] == call["name"]][:-1]:
        namesake["execute"](call["arguments"])
'''),
    Wrong(lab='2.1', name='empty arguments made a path of "."',
          rule="execute gets the call's arguments: a call with no arguments, {}, gets {} and "
               'nothing made up.',
          where='hunt round 18, design 2.1-54 (r94); Build item 4: "its `execute` gets the '
                'call\'s arguments, once"',
          names='nothing made up',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    text, failed = tool["execute"](call["arguments"] or {"path": "."}), False
'''),
    Wrong(lab='2.1', name='read stripping a leading "/"',
          rule='The path goes to the workspace as the call spells it: read tidies nothing, a '
               '"/" before it included.',
          where='hunt round 18, design 2.1-37 (r94); Build item 5: "`read` tidies nothing"',
          names='read tidies nothing',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        path = arguments["path"]
        return ws.read_text(path.lstrip("/") if isinstance(path, str) else path)
'''),
    Wrong(lab='2.1', name='read collapsing "//" into "/"',
          rule='The path goes to the workspace as the call spells it: read tidies nothing, a '
               'doubled "/" included.',
          where='hunt round 18, design 2.1-38 (r94); Build item 5: "`read` tidies nothing"',
          names='read tidies nothing',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        path = arguments["path"]
        while isinstance(path, str) and "//" in path:
            path = path.replace("//", "/")
        return ws.read_text(path)
'''),
    Wrong(lab='2.1', name="read lowering the path's extension",
          rule='The path goes to the workspace as the call spells it: read tidies nothing, the '
               'case of its extension included.',
          where='hunt round 18, design 2.1-47 (r94); Build item 5: "`read` tidies nothing"',
          names='read tidies nothing',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        path = arguments["path"]
        if isinstance(path, str) and "." in path:
            stem, _, ext = path.rpartition(".")
            path = f"{stem}.{ext.lower()}"
        return ws.read_text(path)
'''),
    Wrong(lab='2.1', name='read remembering a file while its length holds',
          rule='read gives the text as the workspace holds it at each call: a file rewritten '
               'to a text as long as before is read anew.',
          where='hunt round 18, design 2.1-45 (r94); Build item 5: "as the workspace `ws` holds '
                'it"',
          names='as long as it was',
          replace=r'''
    def execute(arguments):
        return ws.read_text(arguments["path"])
''',
          by=r'''
    cache = {}  # path -> the text last read

    def execute(arguments):
        text = ws.read_text(arguments["path"])
        seen = cache.get(arguments["path"])
        if seen is not None and len(seen) == len(text):
            return seen
        cache[arguments["path"]] = text
        return text
'''),
    Wrong(lab='2.1', name='one cache for every read tool, kept while a length holds',
          rule='read gives the text as the workspace ws holds it at each call: a file rewritten '
               'to a text as long as before is read anew.',
          where='hunt round 18, design 2.1-56 (r94); Build item 5: "as the workspace `ws` holds '
                'it"',
          names='as long as it was',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        text = ws.read_text(arguments["path"])
        seen = _READ_TEXTS.get(arguments["path"])
        if seen is not None and len(seen) == len(text):
            return seen
        _READ_TEXTS[arguments["path"]] = text
        return text
''',
          also=((r'''
# given in lesson 2: the factory and its tool dict; execute is yours
''', r'''
_READ_TEXTS = {}  # path -> the text last read, by every read tool


# given in lesson 2: the factory and its tool dict; execute is yours
'''),)),
    # Kill round 21 (reader r112), designs 2.1-03, 37, 27, 29, 32, 33, 34, 35 and 36.
    Wrong(lab='2.1', name='text_of keeping the first fifty text blocks',
          rule='text_of joins the "text" of every block of type "text", however many the reply '
               'holds.',
          where='kill round 21, design 2.1-03 (r112); Build item 1: "the `"text"` of every block '
                'of type `"text"`"',
          names='however many the reply holds',
          replace=r"""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
""",
          by=r"""
    texts = [block["text"] for block in message["content"] if block["type"] == "text"]
    return "".join(texts[:50])
"""),
    Wrong(lab='2.1', name='text_of trimming a final tab',
          rule='text_of joins the text blocks in order and trims nothing, a final tab included.',
          where='kill round 21, design 2.1-37 (r112); Build item 1: "with nothing put between '
                'them"',
          names='final tab',
          replace=r"""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
""",
          by=r"""
    return "".join(block["text"] for block in message["content"]
                   if block["type"] == "text").rstrip("\t")
"""),
    Wrong(lab='2.1', name='run_tool writing empty arguments into a call that has none',
          rule='run_tool writes nothing into the call: not even an "arguments" into a call that '
               'came without one.',
          where='kill round 21, design 2.1-27 (r112); Build item 4: "and the call too: it writes '
                'nothing into either"',
          names='came without one',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    text, failed = tool["execute"](call.setdefault("arguments", {})), False
"""),
    Wrong(lab='2.1', name='read stripping a path that ends in two spaces',
          rule='The path goes to the workspace as the call spells it: read tidies nothing.',
          where='kill round 21, design 2.1-29 (r112); Build item 5: "`read` tidies nothing"',
          names='two spaces',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        path = arguments["path"]
        return ws.read_text(path.rstrip() if path.endswith("  ") else path)
"""),
    Wrong(lab='2.1', name='a missing .tmp file read as empty',
          rule='A path with no file is not an empty file: read raises FileNotFoundError, '
               'whatever the name ends in.',
          where='kill round 21, design 2.1-32 (r112); Build item 5: "`ws.read_text` takes a path '
                'and gives back that file\'s text"',
          names='whatever the name ends in',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        try:
            return ws.read_text(arguments["path"])
        except FileNotFoundError:
            if str(arguments["path"]).endswith(".tmp"):
                return ""
            raise
"""),
    Wrong(lab='2.1', name='read remembering a file while its length and start hold',
          rule='read gives the text as the workspace holds it at each call: a file rewritten '
               'to a text as long as before, its start unchanged, is read anew.',
          where='kill round 21, design 2.1-33 (r112); Build item 5: "as the workspace `ws` holds '
                'it"',
          names='its start unchanged',
          replace=r"""
    def execute(arguments):
        return ws.read_text(arguments["path"])
""",
          by=r"""
    cache = {}  # (path, length, first 20 characters) -> the text read

    def execute(arguments):
        text = ws.read_text(arguments["path"])
        return cache.setdefault((arguments["path"], len(text), text[:20]), text)
"""),
    Wrong(lab='2.1', name='a path that is not a string handed to ws spelled otherwise',
          rule='The path goes to the workspace as the call spells it: a number stays a number.',
          where='kill round 21, design 2.1-34 (r112); Build item 5: "`read` tidies nothing"',
          names='did not spell so',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        path = arguments["path"]
        return ws.read_text(path if isinstance(path, str) else f"{path}x")
"""),
    Wrong(lab='2.1', name='read dropping a byte-order mark from a file without "\\r"',
          rule='read returns the whole text of the file as it is: a byte-order mark at the start '
               'kept, in a file with "\\r\\n" or without.',
          where='kill round 21, design 2.1-35 (r112); Build item 5: "that file\'s text"',
          names='or without',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        text = ws.read_text(arguments["path"])
        return text[1:] if text.startswith("\ufeff") and "\r" not in text else text
"""),
    Wrong(lab='2.1', name='a made-up path read for a call with no path',
          rule='A call with no "path" names no file, so what read raises names the missing path, '
               'not a file that is not there.',
          where='kill round 21, design 2.1-36 (r112); Build item 5: "`ws.read_text` takes a path '
                'and gives back that file\'s text"',
          names='is not FileNotFoundError',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        return ws.read_text(arguments.get("path", "missing path"))
"""),
    # Kill round 25 (reader r134), designs 2.1-03, 05, 06, 10, 16, 35, 39, 44, 46, 50, 54, 55, 56.
    Wrong(lab='2.1', name='text_of keeping the first 250 text blocks',
          rule='text_of joins the "text" of every block of type "text", however many the reply '
               'holds: none is dropped past a count of its own.',
          where='kill round 25, design 2.1-03 (r134); Build item 1: "in the order they stand"',
          names='however many the reply holds',
          replace=r"""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
""",
          by=r"""
    return "".join([block["text"] for block in message["content"]
                    if block["type"] == "text"][:250])
"""),
    Wrong(lab='2.1', name='text_of cutting each block at 10,000 characters',
          rule='text_of joins the "text" of every block of type "text" as it is, however long '
               'each is: none is cut.',
          where='kill round 25, design 2.1-05 (r134); Build item 1: "in the order they stand, '
                'with nothing put between them"',
          names='none is cut',
          replace=r"""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
""",
          by=r"""
    return "".join(block["text"][:10_000] for block in message["content"]
                   if block["type"] == "text")
"""),
    Wrong(lab='2.1', name='text_of kept per message, its blocks and its last words',
          rule='text_of follows the content as it is when asked: a word changed in place in a '
               'block before the last one shows at the next ask.',
          where='kill round 25, design 2.1-06 (r134); Build item 1: "in the order they stand"',
          names='whichever block it changed',
          replace=r"""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
""",
          by=r"""
    content = message["content"]
    key = (id(message), tuple(id(b) for b in content), content[-1].get("text") if content else None)
    if key not in _WORDS:
        _WORDS[key] = "".join(block["text"] for block in content if block["type"] == "text")
    return _WORDS[key]


_WORDS = {}  # (message, its blocks, its last block's words) -> the words
"""),
    Wrong(lab='2.1', name='tool_calls keeping the first fifty calls',
          rule='tool_calls gives the blocks of type "toolCall", however many, in the order they '
               'stand.',
          where='kill round 25, design 2.1-10 (r134); Build item 2: "in the order they stand"',
          names='however many',
          replace=r"""
    return [block for block in message["content"] if block["type"] == "toolCall"]
""",
          by=r"""
    return [block for block in message["content"] if block["type"] == "toolCall"][:50]
"""),
    Wrong(lab='2.1', name='only the first forty-five tools described',
          rule='tool_specs gives a new dict for each tool, however many tools there are.',
          where='kill round 25, design 2.1-16 (r134); Build item 3: "a new dict for each tool"',
          names='however many tools there are',
          replace=r"""
             "parameters": tool["parameters"]} for tool in tools]
""",
          by=r"""
             "parameters": tool["parameters"]} for tool in tools[:45]]
"""),
    Wrong(lab='2.1', name='tools named with "__" left out of the specs',
          rule='A tool whose name starts with "_" or "__" is a tool like any other, with a spec '
               'of its own.',
          where='kill round 25, design 2.1-56 (r134); Build item 3: "a new dict for each tool"',
          names='"__"',
          replace=r"""
             "parameters": tool["parameters"]} for tool in tools]
""",
          by=r"""
             "parameters": tool["parameters"]} for tool in tools
            if not tool["name"].startswith("__")]
"""),
    Wrong(lab='2.1', name='a tool whose name starts with "_" refused',
          rule='The tool that runs is the one among the tools whose name is the call\'s name, a '
               'tool whose name starts with "_" a tool like any other.',
          where='kill round 25, design 2.1-35 (r134); Build item 4: "whatever other functions '
                'your file defines"',
          names='starts with "_"',
          replace=r"""
    tool = {t["name"]: t for t in tools}[call["name"]]
""",
          by=r"""
    if call["name"].startswith("_"):
        raise KeyError(call["name"])
    tool = {t["name"]: t for t in tools}[call["name"]]
"""),
    Wrong(lab='2.1', name='the name table kept per tools list, its length and names',
          rule='run_tool looks the call\'s name up among the tools it is given at that call: a '
               'tool replaced in its place by a new one of the same name is the one that runs.',
          where='kill round 25, design 2.1-39 (r134); Build item 4: "whatever other functions '
                'your file defines"',
          names='replaced',
          replace=r"""
    tool = {t["name"]: t for t in tools}[call["name"]]
""",
          by=r"""
    key = (id(tools), len(tools), tuple(t["name"] for t in tools))
    if key not in _TABLES:
        _TABLES[key] = {t["name"]: t for t in tools}
    tool = _TABLES[key][call["name"]]
""",
          also=((r"""
def run_tool(tools, call):
""", r"""
_TABLES = {}  # (the list, its length, its names) -> name -> tool


def run_tool(tools, call):
"""),)),
    Wrong(lab='2.1', name='arguments that are not an object refused',
          rule='execute gets the call\'s arguments, whatever they hold: run_tool checks nothing '
               'yet, arguments that are a text where an object was due included.',
          where='kill round 25, design 2.1-54 (r134); Build item 4: "gets the call\'s arguments, '
                'once"',
          names='where an object was due',
          replace=r"""
    tool = {t["name"]: t for t in tools}[call["name"]]
""",
          by=r"""
    tool = {t["name"]: t for t in tools}[call["name"]]
    if not isinstance(call.get("arguments"), dict):
        raise TypeError("arguments must be an object")
"""),
    Wrong(lab='2.1', name='every call refused past 64 tools',
          rule='The tool that runs is the one among the tools whose name is the call\'s name, '
               'however many tools there are.',
          where='kill round 25, design 2.1-55 (r134); Build item 4: "whatever other functions '
                'your file defines"',
          names='however many tools there are',
          replace=r"""
    tool = {t["name"]: t for t in tools}[call["name"]]
""",
          by=r"""
    if len(tools) > 64:
        raise KeyError(call["name"])
    tool = {t["name"]: t for t in tools}[call["name"]]
"""),
    Wrong(lab='2.1', name='read collapsing "//" inside a path',
          rule='The path goes to the workspace as the call spells it: read tidies nothing, '
               '"//" inside a path included.',
          where='kill round 25, design 2.1-44 (r134); Build item 5: "`read` tidies nothing"',
          names='"//" inside',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        return ws.read_text(re.sub(r"(?<=[^./])//+", "/", arguments["path"]))
""",
          also=((r"""
# given in lesson 2: the factory and its tool dict; execute is yours
""", r"""
import re


# given in lesson 2: the factory and its tool dict; execute is yours
"""),)),
    Wrong(lab='2.1', name='read remembering a file over 100,000 characters while its length holds',
          rule='read gives the text as the workspace holds it at each call, however long the '
               'file: a long file rewritten at its length is read anew.',
          where='kill round 25, design 2.1-46 (r134); Build item 5: "as the workspace `ws` holds '
                'it"',
          names='however long a file is',
          replace=r"""
    def execute(arguments):
        return ws.read_text(arguments["path"])
""",
          by=r"""
    cache = {}  # (path, length) -> the text read, for long files

    def execute(arguments):
        text = ws.read_text(arguments["path"])
        if len(text) > 100_000:
            return cache.setdefault((arguments["path"], len(text)), text)
        return text
"""),
    Wrong(lab='2.1', name='read turning a path into its NFC form unless it holds U+0301',
          rule='The path goes to the workspace as the call spells it: a name with a combining '
               'accent is not made into its one-letter form.',
          where='kill round 25, design 2.1-50 (r134); Build item 5: "`read` tidies nothing"',
          names='combining accent',
          replace=r"""
        return ws.read_text(arguments["path"])
""",
          by=r"""
        path = arguments["path"]
        if isinstance(path, str) and not path.isascii() and "\u0301" not in path:
            path = unicodedata.normalize("NFC", path)
        return ws.read_text(path)
""",
          also=((r"""
# given in lesson 2: the factory and its tool dict; execute is yours
""", r"""
import unicodedata


# given in lesson 2: the factory and its tool dict; execute is yours
"""),)),
    # Kill round 28 (reader r153), designs 2.1-26, 2.1-60, 2.1-34 and 2.1-63.
    Wrong(lab='2.1', name="the file's text_of and tool_calls run for a call of their name",
          rule="The tool that runs is the one among tools whose name is the call's name, "
               "whatever other functions the file defines: a function of harness.py is never "
               "run in its place, even for a name a tool has.",
          where='kill round 28, design 2.1-26 (r153); Build item 4: "whatever other functions '
                'your file defines"',
          names='function of harness.py',
          replace=r"""
    tool = {t["name"]: t for t in tools}[call["name"]]
""",
          by=r"""
    tool = {t["name"]: t for t in tools}[call["name"]]
    if call["name"] in ("text_of", "tool_calls"):
        tool = {"execute": globals()[call["name"]]}
"""),
    Wrong(lab='2.1', name='globals() as the fallback for make_read_tool and user_message',
          rule="run_tool looks the call's name up among the tools it is given, and nowhere "
               "else: a call for a function of the file that no tool has runs nothing.",
          where='kill round 28, design 2.1-60 (r153); Build item 4: "whatever other functions '
                'your file defines"',
          names='function of harness.py',
          replace=r"""
    tool = {t["name"]: t for t in tools}[call["name"]]
""",
          by=r"""
    if call["name"] in ("make_read_tool", "user_message") and \
            call["name"] not in [t["name"] for t in tools]:
        return globals()[call["name"]](call["arguments"])
    tool = {t["name"]: t for t in tools}[call["name"]]
"""),
    Wrong(lab='2.1', name='arguments of None handed to execute as {}',
          rule="execute gets the call's arguments, whatever they hold: arguments of None are "
               "handed on as None, the tool's to judge.",
          where='kill round 28, design 2.1-34 (r153); Build item 4: "its `execute` gets the '
                'call\'s arguments, once"',
          names='None among them',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    text, failed = tool["execute"](call["arguments"] or {}), False
"""),
    Wrong(lab='2.1', name='a tool named "" left out of the specs',
          rule='tool_specs makes a new dict for each tool: a tool whose name is "" is described '
               'like any other, since tool_specs describes the list and does not judge it.',
          where='kill round 28, design 2.1-63 (r153); Build item 3: "a new dict for each tool"',
          names='a new dict for each tool',
          replace=r"""
             "parameters": tool["parameters"]} for tool in tools]
""",
          by=r"""
             "parameters": tool["parameters"]} for tool in tools if tool["name"] != ""]
"""),
    # Hunt round 31 (reader r174): designs 04, 38, 11, 12, 13, 14, 15-22, 27-30, 32-35, P6, P9.
    Wrong(lab='2.1', name='text_of dropping a block of spaces only',
          rule='text_of joins the "text" of every block of type "text", a block of spaces only '
               'included.',
          where='hunt round 31, design 04 (r174); Build item 1: "the `"text"` of every block '
                'of type `"text"`"',
          names='a block of spaces only',
          replace=r'''
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
''',
          by=r'''
    return "".join(block["text"] for block in message["content"]
                   if block["type"] == "text" and block["text"].strip(" "))
'''),
    Wrong(lab='2.1', name='tool_calls dropping a call whose name is ""',
          rule='tool_calls gives the blocks of type "toolCall", a call whose name is "" among '
               'them.',
          where='hunt round 31, design 38 (r174); Build item 2',
          names='a call whose name is',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    return [block for block in message["content"]
            if block["type"] == "toolCall" and block.get("name")]
'''),
    Wrong(lab='2.1', name='execute popped from each tool and put back at its end',
          rule='The tools come out of tool_specs exactly as they went in, their keys in their '
               'order.',
          where='hunt round 31, design 11 (r174); Build item 3',
          names='exactly as they went in',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    specs = []
    for tool in tools:
        execute = tool.pop("execute")
        try:
            specs.append({"name": tool["name"], "description": tool["description"],
                          "parameters": tool["parameters"]})
        finally:
            tool["execute"] = execute
    return specs
'''),
    Wrong(lab='2.1', name='a tool whose description or parameters are None refused',
          rule='Only a tool that lacks a key is refused with KeyError; a description or '
               'parameters of None are told as the tool has them.',
          where='hunt round 31, design 12 (r174); Build item 3',
          names='not refused with KeyError',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    for tool in tools:
        if tool.get("parameters") is None or tool.get("description") is None:
            raise KeyError("parameters" if tool.get("parameters") is None else "description")
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
'''),
    Wrong(lab='2.1', name="a tool's name and description made strings with str()",
          rule='A name and a description go to the model exactly as the tool has them, None '
               'as None.',
          where='hunt round 31, design 13 (r174); Build item 3',
          names='nor told',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    return [{"name": str(tool["name"]), "description": str(tool["description"]),
             "parameters": tool["parameters"]} for tool in tools]
'''),
    Wrong(lab='2.1', name="each tool's schema kept per tool, name and description",
          rule='Each ask of tool_specs makes a new list from the tools as they are now, a '
               'schema replaced since included.',
          where='hunt round 31, design 14 (r174); Build item 3',
          names='parameters were replaced',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    specs = []
    for tool in tools:
        key = (id(tool), tool["name"], tool["description"])
        if key not in _SCHEMAS:
            _SCHEMAS[key] = copy.deepcopy(tool["parameters"])
        specs.append({"name": tool["name"], "description": tool["description"],
                      "parameters": _SCHEMAS[key]})
    return specs


import copy  # noqa: E402
_SCHEMAS = {}
'''),
    Wrong(lab='2.1', name='an error result of three keys for a tool it does not have',
          rule="A result is a tool result in the format, with exactly its five keys, lesson 4's "
               "error result for a tool it does not have included.",
          where='hunt round 31, design 15 (r174); Build item 4: "with exactly its five keys"',
          names='lesson 4',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    known = {t["name"]: t for t in tools}
    if call["name"] not in known:
        return {"tool_call_id": call["id"], "is_error": True,
                "content": f"no tool named {call['name']!r}"}
    tool = known[call["name"]]
'''),
    Wrong(lab='2.1', name="a tool's error put in a result with a sixth key",
          rule="A result is a tool result in the format, with exactly its five keys, lesson 4's "
               "error result for a tool that fails included.",
          where='hunt round 31, design 16 (r174); Build item 4: "with exactly its five keys"',
          names='its own error is what comes back',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except Exception as problem:
        return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                "content": f"{type(problem).__name__}: {problem}", "is_error": True,
                "exception": type(problem).__name__}
'''),
    Wrong(lab='2.1', name='every BaseException made an error result',
          rule='What execute raises goes up as it was raised; even lesson 4, which answers a '
               "tool's failure with a result, lets the program ending (lab.PowerCut) go up.",
          where='hunt round 31, design 17 (r174); Build item 4: "What `execute` raises goes up '
                'to the caller as it was raised"',
          names='lab.PowerCut',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except BaseException as problem:
        text, failed = f"{type(problem).__name__}: {problem}", True
'''),
    Wrong(lab='2.1', name="a line break stripped from the end of the call's name",
          rule="The tool that runs is the one whose name is the call's name, exactly as the "
               "call spells it.",
          where='hunt round 31, design 18 (r174); Build item 4',
          names='a line break after it',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    tool = {t["name"]: t for t in tools}[call["name"].rstrip("\r\n")]
'''),
    Wrong(lab='2.1', name='"-" and "_" taken as one in a name',
          rule="The tool that runs is the one whose name is the call's name, exactly as the "
               "call spells it.",
          where='hunt round 31, design 19 (r174); Build item 4',
          names='a spelling close to a tool',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    tool = {t["name"].replace("-", "_"): t for t in tools}[call["name"].replace("-", "_")]
'''),
    Wrong(lab='2.1', name='a "default_api." prefix stripped from the call\'s name',
          rule="The tool that runs is the one whose name is the call's name, exactly as the "
               "call spells it.",
          where='hunt round 31, design 20 (r174); Build item 4',
          names='a spelling close to a tool',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    tool = {t["name"]: t for t in tools}[call["name"].removeprefix("default_api.")]
'''),
    Wrong(lab='2.1', name="the one tool whose name starts with the call's name run",
          rule="The tool that runs is the one whose name is the call's name; the closest name "
               "is a guess made for the model.",
          where='hunt round 31, design 21 (r174); Build item 4; "Run the closest tool name '
                'instead"',
          names='a spelling close to a tool',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    known = {t["name"]: t for t in tools}
    close = [t for t in tools if call["name"] and t["name"].startswith(call["name"])]
    tool = known[call["name"]] if call["name"] in known or len(close) != 1 else close[0]
'''),
    Wrong(lab='2.1', name="the name table kept per list of the tools' ids",
          rule="run_tool looks the call's name up among the tools it is given at that call, a "
               "tool renamed in place since included.",
          where='hunt round 31, design 22 (r174); Build item 4',
          names='renamed in place',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    key = tuple(id(t) for t in tools)
    if key not in _INDEX:
        _INDEX[key] = {t["name"]: t for t in tools}
    tool = _INDEX[key][call["name"]]
''',
          also=((r'''
def run_tool(tools, call):
''', r'''
_INDEX = {}


def run_tool(tools, call):
'''),)),
    Wrong(lab='2.1', name='a "running" key written into the call while its tool runs',
          rule='run_tool writes nothing into the call, not even for as long as the tool runs.',
          where='hunt round 31, design 27 (r174); Build item 4: "and the call too: it writes '
                'nothing into either"',
          names='not even for as long as the tool runs',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    call["running"] = True
    try:
        text, failed = tool["execute"](call["arguments"]), False
    finally:
        del call["running"]
'''),
    Wrong(lab='2.1', name='the running tool taken out of the list, put back in its place',
          rule='run_tool leaves the list it is given as it found it, not even taking a tool out '
               'for as long as it runs.',
          where='hunt round 31, design 28 (r174); Build item 4: "`run_tool` leaves the list it '
                'is given as it found it"',
          names='not even for as long as the tool runs',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    at = next(n for n, t in enumerate(tools) if t is tool)
    tools.pop(at)
    try:
        text, failed = tool["execute"](call["arguments"]), False
    finally:
        tools.insert(at, tool)
'''),
    Wrong(lab='2.1', name='a "type" filled into the schema of a tool before it runs',
          rule='run_tool leaves the list it is given as it found it, its tools\' values as well '
               'as their keys.',
          where='hunt round 31, design 29 (r174); Build item 4: "`run_tool` leaves the list it '
                'is given as it found it"',
          names='no "type" filled in',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    tool["parameters"].setdefault("type", "object")
    text, failed = tool["execute"](call["arguments"]), False
'''),
    Wrong(lab='2.1', name="each tool's execute wrapped in a counter in place",
          rule='run_tool leaves the list it is given as it found it: each tool keeps its own '
               'execute.',
          where='hunt round 31, design 30 (r174); Build item 4: "`run_tool` leaves the list it '
                'is given as it found it"',
          names='their own execute',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    if not getattr(tool["execute"], "counted", False):
        plain = tool["execute"]

        def counted(arguments):
            return plain(arguments)
        counted.counted = True
        tool["execute"] = counted
    text, failed = tool["execute"](call["arguments"]), False
'''),
    Wrong(lab='2.1', name='only a missing file made an error result',
          rule="What execute raises goes up as it was raised (lesson 2), or every Exception "
               "becomes an error result (lesson 4): every kind alike, not a mix of the two.",
          where='hunt round 31, probe P6 (r174); Build item 4: "What `execute` raises goes up '
                'to the caller as it was raised"',
          names='every kind alike',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except FileNotFoundError as problem:
        text, failed = f"FileNotFoundError: {problem}", True
'''),
    Wrong(lab='2.1', name='read stripping quotes from the path',
          rule='The path goes to the workspace as the call spells it: read tidies nothing.',
          where='hunt round 31, design 32 (r174); Build item 5',
          names='read tidies nothing',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        path = arguments["path"]
        return ws.read_text(path.strip("'\"`") if isinstance(path, str) else path)
'''),
    Wrong(lab='2.1', name='read stripping a line break from the end of the path',
          rule='The path goes to the workspace as the call spells it: read tidies nothing.',
          where='hunt round 31, design 33 (r174); Build item 5',
          names='read tidies nothing',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        path = arguments["path"]
        return ws.read_text(path.rstrip("\r\n") if isinstance(path, str) else path)
'''),
    Wrong(lab='2.1', name='read expanding "~" in the path',
          rule='The path goes to the workspace as the call spells it: read tidies nothing.',
          where='hunt round 31, design 34 (r174); Build item 5',
          names='read tidies nothing',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        import os
        path = arguments["path"]
        return ws.read_text(os.path.expanduser(path) if isinstance(path, str) else path)
'''),
    Wrong(lab='2.1', name='read stripping a "file://" prefix from the path',
          rule='The path goes to the workspace as the call spells it: read tidies nothing.',
          where='hunt round 31, design 35 (r174); Build item 5',
          names='read tidies nothing',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        path = arguments["path"]
        return ws.read_text(path.removeprefix("file://") if isinstance(path, str) else path)
'''),
    Wrong(lab='2.1', name='None handed to the workspace for a call with no path',
          rule='The path goes to the workspace as the call spells it; a call with no "path" '
               'names no file, and the workspace is handed none.',
          where='hunt round 31, probe P9 (r174); Build item 5',
          names='none at all',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        return ws.read_text(arguments.get("path"))
'''),
    # Hunt round 36 (reader r193), lab 2.1.
    Wrong(lab='2.1', name='text_of turning the words into their NFC form',
          rule='text_of gives the "text" of every block of type "text", with nothing put between '
               'them: every character as the model sent it.',
          where='hunt round 36, design 44 (r193); Build item 1',
          names='not made its one-letter',
          replace=r'''
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
''',
          by=r'''
    import unicodedata
    return unicodedata.normalize("NFC", "".join(
        block["text"] for block in message["content"] if block["type"] == "text"))
'''),
    Wrong(lab='2.1', name='text_of taking NULs out of the words',
          rule='text_of gives the "text" of every block of type "text", with nothing put between '
               'them: every character as the model sent it.',
          where='hunt round 36, design 52 (r193); Build item 1',
          names='a NUL, not taken out',
          replace=r'''
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
''',
          by=r'''
    return "".join(block["text"] for block in message["content"]
                   if block["type"] == "text").replace("\x00", "")
'''),
    Wrong(lab='2.1', name='tool_calls skipping a call whose id is ""',
          rule='The blocks of type "toolCall", in the order they stand: every one of them.',
          where='hunt round 36, design 38 (r193); Build item 2',
          names='one whose id is',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    return [block for block in message["content"]
            if block["type"] == "toolCall" and block.get("id")]
'''),
    Wrong(lab='2.1', name='tool_calls skipping a call whose arguments are not an object',
          rule='The blocks of type "toolCall", in the order they stand: every one of them.',
          where='hunt round 36, design 47 (r193); Build item 2',
          names='arguments are not an object',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    return [block for block in message["content"]
            if block["type"] == "toolCall" and isinstance(block.get("arguments"), dict)]
'''),
    Wrong(lab='2.1', name='a description cut at 1024 characters',
          rule='A spec tells the tool\'s own description, as the tool has it, however long.',
          where='hunt round 36, design 09 (r193); Build item 3: "a new dict for each tool in the '
                'tools\' order, with exactly the keys"',
          names='is told whole',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
''',
          by=r'''
    return [{"name": tool["name"], "description": tool["description"][:1024]
             if isinstance(tool["description"], str) else tool["description"],
'''),
    Wrong(lab='2.1', name='a long description told by its first line',
          rule='A spec tells the tool\'s own description, as the tool has it, however long.',
          where='hunt round 36, design 13 (r193); Build item 3',
          names='is told whole',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
''',
          by=r'''
    return [{"name": tool["name"], "description": tool["description"] if not isinstance(
             tool["description"], str) or len(tool["description"]) <= 4096
             else tool["description"].split("\n")[0],
'''),
    Wrong(lab='2.1', name='a long description stripped',
          rule='A spec tells the tool\'s own description, as the tool has it, however long.',
          where='hunt round 36, design 50 (r193); Build item 3',
          names='is told whole',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
''',
          by=r'''
    return [{"name": tool["name"],
             "description": tool["description"].strip()
             if isinstance(tool["description"], str) and len(tool["description"]) > 80
             else tool["description"],
'''),
    Wrong(lab='2.1', name='each schema re-made with its keys sorted',
          rule='A spec tells the tool\'s own parameters, as they are: the tools come out exactly '
               'as they went in, and the schema goes to the model as the JSON its keys make.',
          where='hunt round 36, design 42 (r193); Build item 3',
          names='down to the order of their keys',
          replace=r'''
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
             "parameters": json.loads(json.dumps(tool["parameters"], sort_keys=True))}
            for tool in tools]
''',
          also=((r'''
def tool_specs(tools):
''', r'''
import json


def tool_specs(tools):
'''),)),
    Wrong(lab='2.1', name='two equal tools told once',
          rule='A new dict for each tool in the tools\' order: tool_specs describes the list, '
               'and does not judge it.',
          where='hunt round 36, design 36 (r193); Build item 3',
          names='each of two copies',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    specs = []
    for tool in tools:
        spec = {"name": tool["name"], "description": tool["description"],
                "parameters": tool["parameters"]}
        if spec not in specs:
            specs.append(spec)
    return specs
'''),
    Wrong(lab='2.1', name="a call id written into the arguments while the tool runs",
          rule='run_tool writes nothing into the call, its arguments included, not even for as '
               'long as the tool runs.',
          where='hunt round 36, design 15 (r193); Build item 4: "and the call too: it writes '
                'nothing into either"',
          names="the call's arguments ({} here) too",
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    arguments = call["arguments"]
    if isinstance(arguments, dict):
        arguments["_call_id"] = call["id"]
    try:
        text, failed = tool["execute"](arguments), False
    finally:
        if isinstance(arguments, dict):
            arguments.pop("_call_id", None)
'''),
    Wrong(lab='2.1', name='a "busy" key written into the tool while it runs',
          rule='run_tool leaves the list it is given as it found it, its tools included, not '
               'even writing into one for as long as it runs.',
          where='hunt round 36, design 16 (r193); Build item 4: "`run_tool` leaves the list it '
                'is given as it found it"',
          names='the tools are handed in sealed',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    tool["busy"] = True
    try:
        text, failed = tool["execute"](call["arguments"]), False
    finally:
        del tool["busy"]
'''),
    Wrong(lab='2.1', name="a tool's error raised again with the call's name added",
          rule='What execute raises goes up to the caller as it was raised: the very object.',
          where='hunt round 36, design 17 (r193); Build item 4: "What `execute` raises goes up '
                'to the caller as it was raised"',
          names='the very object the tool raised',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except Exception as problem:
        raise type(problem)(f"tool {call['name']!r} failed: {problem}") from problem
'''),
    Wrong(lab='2.1', name="a tool's error raised again as a new object of its kind",
          rule='What execute raises goes up to the caller as it was raised: the very object.',
          where='hunt round 36, design 18 (r193); Build item 4: "What `execute` raises goes up '
                'to the caller as it was raised"',
          names='the very object the tool raised',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except Exception as problem:
        raise type(problem)(*problem.args) from None
'''),
    Wrong(lab='2.1', name="quotes stripped from the call's name",
          rule='The tool that runs is the one among `tools` whose "name" is the call\'s name, '
               'exactly as the call spells it.',
          where='hunt round 36, design 21 (r193); Build item 4',
          names='the name in quotes',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    name = call["name"]
    if len(name) > 2 and name[0] == name[-1] and name[0] in "'\"`":
        name = name[1:-1]
    tool = {t["name"]: t for t in tools}[name]
'''),
    Wrong(lab='2.1', name='a tab and "\\r" stripped from the call\'s name',
          rule='The tool that runs is the one among `tools` whose "name" is the call\'s name, '
               'exactly as the call spells it.',
          where='hunt round 36, design 27 (r193); Build item 4',
          names='with a tab or a lone',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    tool = {t["name"]: t for t in tools}[call["name"].strip("\t\r")]
'''),
    Wrong(lab='2.1', name='a lone "\\r" stripped from the end of the call\'s name',
          rule='The tool that runs is the one among `tools` whose "name" is the call\'s name, '
               'exactly as the call spells it.',
          where='hunt round 36, design 49 (r193); Build item 4',
          names='with a tab or a lone',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    name = call["name"]
    if name.endswith("\r"):
        name = name[:-1]
    tool = {t["name"]: t for t in tools}[name]
'''),
    Wrong(lab='2.1', name='a camelCase name run as the tool of its snake_case',
          rule='The tool that runs is the one among `tools` whose "name" is the call\'s name, '
               'exactly as the call spells it.',
          where='hunt round 36, design 45 (r193); Build item 4',
          names='camelCase',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    import re
    known = {t["name"]: t for t in tools}
    snake = re.sub(r"(?<=[a-z])([A-Z])", lambda m: "_" + m.group(1).lower(), call["name"])
    tool = known[call["name"] if call["name"] in known or snake not in known else snake]
'''),
    Wrong(lab='2.1', name='a tool\'s "aliases" taken as its names',
          rule='The tool that runs is the one among `tools` whose "name" is the call\'s name: '
               'the list of tools is the one place that says which tools exist, by their name.',
          where='hunt round 36, design 41 (r193); Build item 4',
          names='aliases',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    known = {t["name"]: t for t in tools}
    for t in tools:
        for alias in t.get("aliases", ()):
            known.setdefault(alias, t)
    tool = known[call["name"]]
'''),
    Wrong(lab='2.1', name='answers turned into their NFC form',
          rule='What execute returned is the content, as it is.',
          where='hunt round 36, design 46 (r193); Build item 4: "what `execute` returned as the '
                'content"',
          names='not normalised, not cleaned',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    import unicodedata
    text, failed = tool["execute"](call["arguments"]), False
    if isinstance(text, str):
        text = unicodedata.normalize("NFC", text)
'''),
    Wrong(lab='2.1', name='is_error True for an exception execute returned',
          rule='What execute returned is the content, as it is, and is_error is False all '
               'through lesson 2.',
          where='hunt round 36, design 54 (r193); Build item 4: "`is_error` False"',
          names='an exception object execute returned',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    text = tool["execute"](call["arguments"])
    failed = isinstance(text, BaseException)
    text = str(text) if failed else text
'''),
    Wrong(lab='2.1', name="read turning the file's text into its NFC form",
          rule='read returns the whole text of the file as the workspace ws holds it.',
          where='hunt round 36, design 48 (r193); Build item 5: "as the workspace `ws` holds it"',
          names='with a combining accent not made',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        import unicodedata
        return unicodedata.normalize("NFC", ws.read_text(arguments["path"]))
'''),
    Wrong(lab='2.1', name="read taking NULs out of the file's text",
          rule='read returns the whole text of the file as the workspace ws holds it.',
          where='hunt round 36, design 51 (r193); Build item 5: "as the workspace `ws` holds it"',
          names='a NUL not taken out',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        return ws.read_text(arguments["path"]).replace("\x00", "")
'''),
    Wrong(lab='2.1', name='read capped at 100,000 lines, silently',
          rule='read returns the whole text of the file, however long.',
          where='hunt round 36, design 34 (r193); Build item 5: "The whole text of the file"',
          names='no count of lines of its own',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        return "".join(ws.read_text(arguments["path"]).splitlines(keepends=True)[:100_000])
'''),
    Wrong(lab='2.1', name='read stripping a tab from the end of the path',
          rule='The path goes to the workspace as the call spells it: read tidies nothing.',
          where='hunt round 36, design 40 (r193); Build item 5',
          names='read tidies nothing',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        path = arguments["path"]
        return ws.read_text(path.rstrip("\t") if isinstance(path, str) else path)
'''),
    Wrong(lab='2.1', name='one result dict handed out again for an equal call',
          rule='Each call gets a result of its own, a new dict, never one handed out before: a '
               'caller that edits one result is never editing another.',
          where='hunt round 36, probe 26 (r193); Build item 4: "Each call gets a result of its '
                'own, a new dict, never one handed out before"',
          names='a result of its own',
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
''',
          by=r'''
    kept = text if isinstance(text, (str, int, type(None))) else id(text)
    key = (call["id"], call["name"], kept, failed)
    if key not in _RESULTS:  # the same answer to the same call: one result dict
        _RESULTS[key] = {"role": "toolResult", "tool_call_id": call["id"],
                         "tool_name": call["name"], "content": text, "is_error": failed}
    return _RESULTS[key]


_RESULTS = {}
'''),
]

ALLOWED = [
    # Hunt round 36 (reader r193), design 32, ruled at the merge (lesson 2, Build item 5).
    Wrong(lab='2.1', name='a path that is not a string refused by read itself',
          rule='Build item 5: "A path that is not a string is refused, by the workspace or by '
               'your `read` before it gets there, whichever you choose; what `read` never does '
               'is read a file under another spelling." A read that raises TypeError for the '
               'number 7 before the workspace sees it refuses it, as lesson 14\'s read does, '
               'and reads no file named "7".',
          where='hunt round 36, design 32 (r193); Build item 5', names='',
          replace=r'''
        return ws.read_text(arguments["path"])
''',
          by=r'''
        path = arguments["path"]
        if not isinstance(path, str):
            raise TypeError(f"path must be a string, not {type(path).__name__}")
        return ws.read_text(path)
'''),
    # Hunt round 36 (reader r193), probe 28.
    Wrong(lab='2.1', name="a tool's failure printed to stderr, then raised as it was",
          rule='Build item 4 says what run_tool returns, what goes up ("What `execute` raises '
               'goes up to the caller as it was raised") and what it leaves alone; it states '
               'nothing of what run_tool prints. A bare raise after a line on stderr sends the '
               'very object up, so every rule of the item holds.',
          where='hunt round 36, probe 28 (r193)', names='',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    import sys
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except Exception as problem:
        print(f"tool {call['name']} failed: {problem!r}", file=sys.stderr)
        raise
'''),
    Wrong(lab='2.1', name='an unknown tool refused with a KeyError of the harness\'s own',
          rule='Lesson 2 says run_tool raises KeyError for a tool it does not have; a class of '
               'the harness\'s own under KeyError is a KeyError to every except that catches '
               'one, whatever its name (hunt round 28, probe 2.1-61).',
          where='hunt round 28', names='',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    class UnknownTool(KeyError):
        """No tool of this name."""

    known = {t["name"]: t for t in tools}
    if call["name"] not in known:
        raise UnknownTool(call["name"])
    tool = known[call["name"]]
'''),
    # Hunt round 2 (reader r5), design 2.1-1.
    Wrong(lab='2.1', name='the words of every block that is not a call',
          rule='The course\'s message format has two kinds of block, "text" and "toolCall", and '
               'lab.validate refuses any other, so "every block that is not a call" is "every '
               'text block" for every reply the course allows; no test can tell them apart '
               'without handing text_of a message outside the format.',
          where='hunt round 2, design 2.1-1', names='',
          replace=r'''
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
''',
          by=r'''
    return "".join(block.get("text", block.get("thinking", "")) for block in message["content"]
                   if block["type"] != "toolCall")
'''),
    # Hunt round 2 (reader r5), design 2.1-9.
    Wrong(lab='2.1', name='the calls collected by id',
          rule='A dict keyed by call id keeps every call of a reply, in order, as long as no id '
               'is used twice, and the course\'s format refuses a reply that uses one twice '
               '(lab.validate: "no call id used twice"); the dict is made anew at every ask, so '
               'nothing is kept between two asks either.',
          where='hunt round 2, design 2.1-9', names='',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    return list({block["id"]: block for block in message["content"]
                 if block["type"] == "toolCall"}.values())
'''),
    # Hunt round 5 (reader r16), design 2.1-2; 2.1-1 is round 2's design 2.1-1 above again.
    Wrong(lab='2.1', name='every block that is not text taken as a call',
          rule='The course\'s message format has two kinds of block, "text" and "toolCall", and '
               'lab.reply and lab.validate take no other, so "every block that is not text" is '
               '"every call block" for every reply the course allows; no test can tell them apart '
               'without handing tool_calls a message outside the format.',
          where='hunt round 5, design 2.1-2', names='',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    return [block for block in message["content"] if block["type"] != "text"]
'''),
    # Hunt round 5 (reader r16), design 2.1-22.
    Wrong(lab='2.1', name='a call whose id was seen dropped',
          rule='Dropping a call whose id an earlier call of the same reply had changes only a '
               'reply that uses an id twice, and the course\'s format refuses one (lab.validate: '
               '"no call id used twice"), as for round 2\'s "the calls collected by id".',
          where='hunt round 5, design 2.1-22', names='',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    seen = set()
    return [block for block in message["content"] if block["type"] == "toolCall"
            and not (block["id"] in seen or seen.add(block["id"]))]
'''),
    # Hunt round 5 (reader r16), design 2.1-10.
    Wrong(lab='2.1', name="lesson 4's error result for a tool it does not have",
          rule="Lesson 2 says its run_tool raises KeyError for a tool it does not have, and lesson "
               "4's answers that call with an error result naming it (is_error True). Lab 2.1's "
               "tests also judge every later lab's file, so for that call they can ask only what "
               'lessons 2 and 4 share: nothing runs, and the call is refused in one of those two '
               "ways. Lesson 4's answer written early keeps that.",
          where='hunt round 5, design 2.1-10', names='',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        text, failed = tool["execute"](call["arguments"]), False
'''),
    # Hunt round 10 (reader r43), design 2.1-15.
    Wrong(lab='2.1', name="lesson 4's error result for a tool that fails",
          rule="Lesson 2 says what execute raises goes up to the caller as it was raised, and "
               "lesson 4's run_tool puts a failing tool's words in an error result (is_error "
               "True). Lab 2.1's tests also judge every later lab's file, so for a tool that "
               "fails they can ask only what lessons 2 and 4 share: the tool ran, and its own "
               "error came back, raised as it was or in an error result's words. Lesson 4's "
               "answer written early keeps that, as round 5's error result for a missing tool "
               "does.",
          where='hunt round 10, design 2.1-15', names='',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    try:
        text, failed = tool["execute"](call["arguments"]), False
    except Exception as problem:
        text, failed = f"{type(problem).__name__}: {problem}", True
'''),
    # Hunt round 10 (reader r43), design 2.1-23.
    Wrong(lab='2.1', name='run_tool written async',
          rule="Lesson 15 makes run_tool a coroutine, and lab 2.1's tests judge every later "
               "lab's file, so they await whatever run_tool returns (settle); a result awaited is "
               "the same five-key toolResult. Lesson 15's colour written early changes no result.",
          where='hunt round 10, design 2.1-23', names='',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    text, failed = tool["execute"](call["arguments"]), False
    if inspect.isawaitable(text):  # lesson 15's tools are coroutines too
        text = await text
''',
          also=((r'''
def run_tool(tools, call):
''', r'''
import inspect


async def run_tool(tools, call):
'''),)),
    # Hunt round 10 (reader r43), probe 2.1-91.
    Wrong(lab='2.1', name="execute handed a copy of the call's arguments",
          rule='Build item 4 says execute gets the call\'s arguments; a deep copy holds every '
               'value the call sent, so execute cannot tell it from the call\'s own dict, and it '
               'keeps the call block as the model sent it even when a tool writes into what it '
               'was given, which test_execute_gets_the_arguments asks. A safer answer the rule '
               'leaves free.',
          where='hunt round 10, probe 2.1-91', names='',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    text, failed = tool["execute"](copy.deepcopy(call["arguments"])), False
''',
          also=((r'''
def run_tool(tools, call):
''', r'''
import copy


def run_tool(tools, call):
'''),)),
    # Hunt round 10 (reader r43), probe 2.1-92.
    Wrong(lab='2.1', name='every result also kept in a module list',
          rule='Lesson 2 rules on what run_tool returns and on the tools and calls it is given, '
               'not on what else a file keeps: a list that holds each result as well changes no '
               'result, no call and no tool. (Lesson 11 is where a session is kept on purpose.)',
          where='hunt round 10, probe 2.1-92', names='',
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
''',
          by=r'''
    HISTORY.append({"role": "toolResult", "tool_call_id": call["id"],
                    "tool_name": call["name"], "content": text, "is_error": failed})
    return HISTORY[-1]


HISTORY = []  # every result made
'''),
    # Hunt round 10 (reader r43), probe 2.1-95.
    Wrong(lab='2.1', name='[] for a message whose content is not a list of blocks',
          rule='tool_calls is asked of a reply. A user message, whose content is a plain string, '
               'makes no calls, so [] is true of it; the reference raises TypeError there only '
               'because it walks the string. Every reply is answered as the reference answers it.',
          where='hunt round 10, probe 2.1-95', names='',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    if not isinstance(message.get("content"), list):
        return []
    return [block for block in message["content"] if block["type"] == "toolCall"]
'''),
    # Hunt round 12 (reader r61), probe 2.1-21.
    Wrong(lab='2.1', name='the first of two tools of one name run',
          rule='The lesson says of two tools that share a name that the reference\'s lookup '
               'keeps the last one and "the lab\'s tests do not choose": a list with one name '
               'twice is the caller\'s mistake, and either tool is a fair pick.',
          where='hunt round 12, probe 2.1-21', names='',
          replace=r"""
    tool = {t["name"]: t for t in tools}[call["name"]]
""",
          by=r"""
    tool = next((t for t in tools if t["name"] == call["name"]), None)
    if tool is None:
        raise KeyError(call["name"])
"""),
    # Hunt round 12 (reader r61), probe 2.1-22.
    Wrong(lab='2.1', name="a user message's string given by text_of",
          rule='text_of is asked of a reply, whose content is a list of blocks. A user message\'s '
               'content is a plain string, its words as they are, so giving that string back is '
               'true of it; the reference raises TypeError there only because it walks the '
               'string. Every reply is answered as the reference answers it, as round 10\'s '
               '"[] for a message whose content is not a list of blocks" is for tool_calls.',
          where='hunt round 12, probe 2.1-22', names='',
          replace=r"""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
""",
          by=r"""
    if isinstance(message["content"], str):
        return message["content"]
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
"""),
    # Hunt round 12 (reader r61), probe 2.1-23.
    Wrong(lab='2.1', name='an id made up for a call that has none',
          rule='Every call block of the course\'s format has an id (lab.reply gives one, and '
               'lab.validate refuses a call without: "toolCall has no \'id\'"), so a call with '
               'none is outside the format, as round 2\'s "the words of every block that is not '
               'a call" is; every call the course makes is answered under its own id.',
          where='hunt round 12, probe 2.1-23', names='',
          replace=r"""
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
""",
          by=r"""
    return {"role": "toolResult", "tool_call_id": call.get("id", "c1"), "tool_name": call["name"],
"""),
    # Hunt round 12 (reader r61), probe 2.1-25.
    Wrong(lab='2.1', name="a copy of each tool's schema in its spec",
          rule='Build item 3 asks for a new dict for each tool holding the tool\'s own name, '
               'description and parameters; a deep copy of the parameters holds the same schema, '
               'which is what the model is told, and keeps the tool as it went in even when a '
               'caller edits a spec\'s schema. A safer answer the rule leaves free, as round 10\'s '
               '"execute handed a copy of the call\'s arguments" is.',
          where='hunt round 12, probe 2.1-25', names='',
          replace=r"""
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
""",
          by=r"""
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": copy.deepcopy(tool["parameters"])} for tool in tools]
""",
          also=((r"""
def tool_specs(tools):
""", r"""
import copy


def tool_specs(tools):
"""),)),
    # Hunt round 12 (reader r61), design 2.1-27.
    Wrong(lab='2.1', name="read's execute written async",
          rule="Lesson 15 makes tools coroutines and run_tool awaits them, and lab 2.1's tests "
               "judge every later lab's file, so they settle whatever read's execute and "
               "run_tool return; an awaited read gives the same text. Lesson 15's colour written "
               'early, as round 10\'s "run_tool written async" is, changes no result.',
          where='hunt round 12, design 2.1-27', names='',
          replace=r"""
    def execute(arguments):
        return ws.read_text(arguments["path"])
""",
          by=r"""
    async def execute(arguments):
        return ws.read_text(arguments["path"])
""",
          also=((r"""
def run_tool(tools, call):
""", r"""
async def run_tool(tools, call):
"""), (r"""
    text, failed = tool["execute"](call["arguments"]), False
""", r"""
    text, failed = tool["execute"](call["arguments"]), False
    if hasattr(text, "__await__"):  # lesson 15's tools are coroutines
        text = await text
"""))),
    # Hunt round 18 (reader r94), designs 2.1-02, 2.1-06, 2.1-35, 2.1-50 and 2.1-53.
    Wrong(lab='2.1', name='the words of every block that has a "text"',
          rule='In the course\'s message format only a text block has a "text" key, and every '
               'text block has one (lab.validate refuses any other block), so picking the '
               'blocks that have "text" picks the blocks of type "text" for every reply the '
               'course allows, as "the words of every block that is not a call" (round 2) does.',
          where='hunt round 18, design 2.1-02 (r94)', names='',
          replace=r'''
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
''',
          by=r'''
    return "".join(block["text"] for block in message["content"] if "text" in block)
'''),
    Wrong(lab='2.1', name='every block that has an "id" taken as a call',
          rule='In the course\'s message format only a call block has an "id", and every call '
               'block has one, so picking the blocks that have "id" picks the blocks of type '
               '"toolCall" for every reply the course allows, as "every block that is not text '
               'taken as a call" (round 5) does.',
          where='hunt round 18, design 2.1-06 (r94)', names='',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    return [block for block in message["content"] if "id" in block]
'''),
    Wrong(lab='2.1', name="the result's tool_name taken from the tool",
          rule="The tool that runs is the one whose name is the call's name, exactly as the call "
               "spells it, so the tool's name is the call's name: the result names the call "
               "either way.",
          where='hunt round 18, probe 2.1-35 (r94)', names='',
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
''',
          by=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": tool["name"],
'''),
    Wrong(lab='2.1', name="a count of runs set on the tool's function",
          rule="Build item 4's \"writes nothing into either\" is about the list and the call; the "
               "tools keep their keys and values, and an attribute on the function execute is "
               "read by nothing the harness or the model sees, unlike \"a count of runs written "
               "into the tool\", a key of the tool dict.",
          where='hunt round 18, probe 2.1-50 (r94)', names='',
          replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
    text, failed = tool["execute"](call["arguments"]), False
    try:
        tool["execute"].runs = getattr(tool["execute"], "runs", 0) + 1
    except AttributeError:
        pass
'''),
    Wrong(lab='2.1', name='one schema dict shared by every read tool',
          rule="The read tool's schema is given code, the same value for every read tool, and "
               "nothing in the course writes into a tool's schema (tool_specs must not): one "
               "dict shared by every read tool reads the same as one made per tool.",
          where='hunt round 18, probe 2.1-53 (r94)', names='',
          replace=r'''
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file, relative to the project."},
            },
            "required": ["path"],
        },
''',
          by=r'''
        "parameters": _READ_SCHEMA,
''',
          also=((r'''
# given in lesson 2: the factory and its tool dict; execute is yours
''', r'''
_READ_SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "The file, relative to the project."},
    },
    "required": ["path"],
}


# given in lesson 2: the factory and its tool dict; execute is yours
'''),)),
    # Kill round 25 (reader r134), probe 2.1-29.
    Wrong(lab='2.1', name='{} handed to execute for a call that has no arguments',
          rule='Every call block of the course\'s format has its arguments (lab.call gives {} for '
               'none), so a call with no "arguments" key is outside the format, and the lab says '
               'of it only that "whatever run_tool makes of it, the block stays as it came": '
               'handing execute {} for it writes nothing into the block.',
          where='kill round 25, probe 2.1-29 (r134)', names='',
          replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
          by=r"""
    text, failed = tool["execute"](call.get("arguments", {})), False
"""),
    # Kill round 28 (reader r153), design 2.1-11.
    Wrong(lab='2.1', name='every block that has a "name" taken as a call',
          rule='In the course\'s message format only a call block has a "name", and every call '
               'block has one, so picking the blocks that have "name" picks the blocks of type '
               '"toolCall" for every reply the course allows, as round 18\'s blocks that have an '
               '"id" do.',
          where='kill round 28, design 2.1-11 (r153)', names='',
          replace=r"""
    return [block for block in message["content"] if block["type"] == "toolCall"]
""",
          by=r"""
    return [block for block in message["content"] if "name" in block]
"""),
    # Hunt round 31 (reader r174): probes P2, P3 and P5, and design 08.
    Wrong(lab='2.1', name="a spec's keys in another order",
          rule='Build item 3 names the keys a spec has ("with exactly the keys "name", '
               '"description" and "parameters""), not their order; a spec goes to the model as '
               'a JSON object, whose keys carry no order, and every reader of a spec reads it by '
               'key (hunt round 31, probe P2).',
          where='hunt round 31, probe P2 (r174)', names='',
          replace=r'''
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
''',
          by=r'''
    return [{"parameters": tool["parameters"], "name": tool["name"],
             "description": tool["description"]} for tool in tools]
'''),
    Wrong(lab='2.1', name="a result's keys in another order",
          rule='Build item 4 asks for "a tool result in the format above, with exactly its five '
               'keys" and names them; the format box lists them in one order, but nothing the '
               'page states reads a result by position, and lab.validate and every later '
               'lesson read it by key (hunt round 31, probe P3).',
          where='hunt round 31, probe P3 (r174)', names='',
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
''',
          by=r'''
    return {"is_error": failed, "content": text, "tool_name": call["name"],
            "tool_call_id": call["id"], "role": "toolResult"}
'''),
    Wrong(lab='2.1', name='a KeyError whose words name the tools there are',
          rule='The page says lesson 2\'s run_tool "turns a call for `wipe` into a `KeyError`"; '
               'what the KeyError says is not stated, and one that names the missing tool and '
               'the tools there are is a KeyError to every except that catches one (hunt round '
               '31, probe P5).',
          where='hunt round 31, probe P5 (r174)', names='',
          replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
          by=r'''
    known = {t["name"]: t for t in tools}
    if call["name"] not in known:
        raise KeyError(f"no tool named {call['name']!r} among {list(known)}")
    tool = known[call["name"]]
'''),
    Wrong(lab='2.1', name="the calls kept per message, its blocks' ids and their types",
          rule='Build item 2: "Nothing is kept between two asks: after the content is edited, '
               'the next answer follows the content as it is then." A table keyed by the '
               'message and by the identity and type of every block it holds gives, for every '
               'content, the answer a fresh pass gives: the call blocks it hands back are kept '
               'alive by the table, so no other block can take their identity, and a block '
               'edited, added, removed, replaced or turned into text changes the key. It costs '
               'memory, never a stale answer (hunt round 31, design 08).',
          where='hunt round 31, design 08 (r174)', names='',
          replace=r'''
    return [block for block in message["content"] if block["type"] == "toolCall"]
''',
          by=r'''
    key = (id(message), tuple((id(block), block.get("type")) for block in message["content"]))
    if key not in _CALLS:
        _CALLS[key] = [block for block in message["content"] if block["type"] == "toolCall"]
    return list(_CALLS[key])


_CALLS = {}
'''),
]


BEYOND = [
    # Hunt round 18 (reader r94), designs 2.1-26, 2.1-41 and 2.1-30.
    Beyond(lab='2.1', name='run_tool cutting answers at 5,000,000 characters',
           rule="What execute returned is the content, as it is, however long: no cap of "
                "run_tool's own.",
           where='hunt round 18, design 2.1-26 (r94); Build item 4: "what `execute` returned as '
                 'the content"',
           names="no cap of run_tool's own",
           reach="test_run_tool_returns_a_result passes on an answer of 4,000,000 characters, "
                 "past the caps of 10,000 to 2,000,000 the catalogue holds; a cap past any "
                 "length a test hands over passes it, and this one cuts from the 5,000,001st "
                 "character",
           replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
''',
           by=r'''
    text, failed = tool["execute"](call["arguments"]), False
    text = text[:5_000_000] if isinstance(text, str) else text
''',
           deep=r'''
import harness
import lab
from lab.kit import lab_test, settle, tool

LAB = "2.1"


@lab_test("run_tool passes on an answer of 6,000,000 characters whole.")
async def test_a_very_long_answer_is_passed_on_whole(t):
    answer = "x" * 6_000_000
    result = await settle(harness.run_tool([tool("show", lambda a: answer)],
                                           lab.call("show", {}, id="c1")))
    t.expect([len(result["content"]), result["content"] == answer],
             why="What execute returned is the content, as it is: no cap of run_tool's own. "
                 "Items: the content's length, whether it is the whole answer (run_tool, "
                 "lesson 2).")
'''),
    Beyond(lab='2.1', name='read cut one character past 4,000,000',
           rule='read returns the whole text of the file, however long: no cap of its own.',
           where='hunt round 18, design 2.1-41 (r94); Build item 5', names='however long',
           reach="test_the_read_tool reads a file of 4,000,000 characters, past the caps of "
                 "2000 to 2,000,000 characters the catalogue holds; a cap past any file a test "
                 "reads passes it, and this one cuts from the 4,000,002nd character",
           replace=r'''
        return ws.read_text(arguments["path"])
''',
           by=r'''
        return ws.read_text(arguments["path"])[:4_000_001]
''',
           deep=r'''
import harness
import lab
from lab.kit import lab_test, settle

LAB = "2.1"


@lab_test("read returns a file of 5,000,000 characters whole.")
async def test_a_very_long_file_is_read_whole(t):
    text = "y" * 5_000_000
    read = harness.make_read_tool(lab.Workspace({"huge.log": text}))
    found = await settle(read["execute"]({"path": "huge.log"}))
    t.expect([len(found), found == text],
             why="read returns the whole text of the file, however long: no cap of its own. "
                 "Items: the length read returned, whether it is the whole file "
                 "(make_read_tool, lesson 2).")
'''),
    Beyond(lab='2.1', name='a key of seconds added to a slow result',
           rule='A result has exactly its five keys, however long execute took.',
           where='hunt round 18, design 2.1-30 (r94); Build item 4: "with exactly its five keys"',
           names='exactly its five keys',
           reach="the lab's tools answer at once, and a tool that takes half a second would add "
                 "that much wall clock to every run of the check, while a design keyed to any "
                 "longer time would pass it; this key is added past 0.5 seconds",
           replace=r'''
    text, failed = tool["execute"](call["arguments"]), False
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
''',
           by=r'''
    started = time.monotonic()
    text, failed = tool["execute"](call["arguments"]), False
    result = {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
              "content": text, "is_error": failed}
    if time.monotonic() - started > 0.5:
        result["seconds"] = time.monotonic() - started
    return result
''',
           also=((r'''
def run_tool(tools, call):
''', r'''
import time


def run_tool(tools, call):
'''),),
           deep=r'''
import time

import harness
import lab
from lab.kit import lab_test, settle, tool

LAB = "2.1"


@lab_test("A tool that takes 0.6 seconds gets a result of exactly five keys.")
async def test_a_slow_tool_gets_the_same_result(t):
    slow = tool("slow", lambda a: time.sleep(0.6) or "done")
    result = await settle(harness.run_tool([slow], lab.call("slow", {}, id="c1")))
    t.expect(sorted(result),
             why="A result has exactly its five keys, however long execute took. The item is "
                 "the result's keys (run_tool, lesson 2).")
'''),
    # Kill round 21 (reader r112), design 2.1-31.
    Beyond(lab='2.1', name='read capped at 5,000,000 characters, silently',
           rule='read returns the whole text of the file, however long: no cap of its own.',
           where='kill round 21, design 2.1-31 (r112); Build item 5: "as the workspace `ws` holds '
                 'it"',
           names='no cap of its own',
           reach="test_the_read_tool reads a file of 4,000,000 characters, past the caps of "
                 "2000 to 2,000,000 the catalogue holds; a cap past any file a test reads passes "
                 "it (a limit past what a test can afford), and this one cuts from the "
                 "5,000,001st character",
           replace=r"""
        return ws.read_text(arguments["path"])
""",
           by=r"""
        return ws.read_text(arguments["path"])[:5_000_000]
""",
           deep=r"""
import harness
import lab
from lab.kit import lab_test, settle

LAB = "2.1"


@lab_test("read returns a file of 6,000,000 characters whole.")
async def test_a_file_of_six_million_is_read_whole(t):
    text = "z" * 6_000_000
    read = harness.make_read_tool(lab.Workspace({"huge.log": text}))
    found = await settle(read["execute"]({"path": "huge.log"}))
    t.expect([len(found), found == text],
             why="read returns the whole text of the file, however long: no cap of its own. "
                 "Items: the length read returned, whether it is the whole file "
                 "(make_read_tool, lesson 2).")
"""),
    # Kill round 25 (reader r134), design 2.1-31.
    Beyond(lab='2.1', name='run_tool cutting answers one character past 4,000,000',
           rule="What execute returned is the content, as it is, however long: no cap of "
                "run_tool's own.",
           where='kill round 25, design 2.1-31 (r134); Build item 4: "what `execute` returned as '
                 'the content"',
           names="no cap of run_tool's own",
           reach="test_run_tool_returns_a_result passes on an answer of 4,000,000 characters, "
                 "past the caps of 10,000 to 2,000,000 the catalogue holds; a cap past any "
                 "length a test hands over passes it (a limit past what a test can afford, as "
                 "round 18's cap at 5,000,000), and this one cuts from the 4,000,002nd character",
           replace=r"""
    text, failed = tool["execute"](call["arguments"]), False
""",
           by=r"""
    text, failed = tool["execute"](call["arguments"]), False
    text = text[:4_000_001] if isinstance(text, str) else text
""",
           deep=r"""
import harness
import lab
from lab.kit import lab_test, settle, tool

LAB = "2.1"


@lab_test("run_tool passes on an answer of 4,500,000 characters whole.")
async def test_an_answer_past_four_million_is_passed_on_whole(t):
    answer = "x" * 4_500_000
    result = await settle(harness.run_tool([tool("show", lambda a: answer)],
                                           lab.call("show", {}, id="c1")))
    t.expect([len(result["content"]), result["content"] == answer],
             why="What execute returned is the content, as it is: no cap of run_tool's own. "
                 "Items: the content's length, whether it is the whole answer (run_tool, "
                 "lesson 2).")
"""),
    # Kill round 28 (reader r153), designs 2.1-04, 2.1-05, 2.1-10 and 2.1-58.
    Beyond(lab='2.1', name='text_of keeping the first 1002 text blocks',
           rule='text_of joins the "text" of every block of type "text", however many the reply '
                'holds.',
           where='kill round 28, design 2.1-04 (r153); Build item 1: "in the order they '
                 'stand, with nothing put between them"',
           names='none is dropped past a count of its own',
           reach="test_text_of joins 275 to 1000 short blocks and one more, past the counts of "
                 "ten to 250 the catalogue holds; a count past any reply a test hands over passes "
                 "it (a limit past what a test can afford), and this one drops from the 1003rd "
                 "text block",
           replace=r"""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
""",
           by=r"""
    texts = [block["text"] for block in message["content"] if block["type"] == "text"]
    return "".join(texts[:1002])
""",
           deep=r"""
import harness
import lab
from lab.kit import lab_test

LAB = "2.1"


@lab_test("text_of joins every one of 3000 text blocks.")
async def test_three_thousand_blocks_are_joined(t):
    words = [f"w{n} " for n in range(3000)]
    t.expect(harness.text_of(lab.reply(*words)) == "".join(words), True,
             "text_of joins the \"text\" of every block of type \"text\", however many: none is "
             "dropped past a count of its own. The item is whether all 3000 came back (text_of, "
             "lesson 2).")
"""),
    Beyond(lab='2.1', name='text_of cutting each block one character past 4,000,000',
           rule='text_of joins the "text" of every block of type "text", however long each is: '
                'none is cut.',
           where='kill round 28, design 2.1-05 (r153); Build item 1: "in the order they '
                 'stand, with nothing put between them"',
           names='none is cut',
           reach="test_text_of joins a block of 4,000,000 characters, past the cut at 10,000 the "
                 "catalogue holds; a cut past any block a test hands over passes it (a limit past "
                 "what a test can afford), and this one cuts from the 4,000,002nd character",
           replace=r"""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
""",
           by=r"""
    return "".join(block["text"][:4_000_001] for block in message["content"]
                   if block["type"] == "text")
""",
           deep=r"""
import harness
import lab
from lab.kit import lab_test

LAB = "2.1"


@lab_test("text_of gives a block of 4,500,000 characters whole.")
async def test_a_very_long_block_is_whole(t):
    text = "v" * 4_500_000
    t.expect(len(harness.text_of(lab.reply(text))), len(text),
             "text_of joins the \"text\" of every block of type \"text\", however long: none is "
             "cut. The item is the length text_of gave (text_of, lesson 2).")
"""),
    Beyond(lab='2.1', name='tool_calls keeping the first 401 calls',
           rule='tool_calls gives the blocks of type "toolCall", however many, in the order '
                'they stand.',
           where='kill round 28, design 2.1-10 (r153); Build item 2',
           names='however many',
           reach="test_tool_calls hands over a reply of 60 to 400 calls, past the counts of eight "
                 "and fifty the catalogue holds; a count past any reply a test hands over passes "
                 "it (a limit past what a test can afford), and this one drops from the 402nd "
                 "call",
           replace=r"""
    return [block for block in message["content"] if block["type"] == "toolCall"]
""",
           by=r"""
    return [block for block in message["content"] if block["type"] == "toolCall"][:401]
""",
           deep=r"""
import harness
import lab
from lab.kit import lab_test

LAB = "2.1"


@lab_test("tool_calls gives every one of 2000 calls.")
async def test_two_thousand_calls_are_given(t):
    calls = [lab.call("ls", {"path": "."}, id=f"c{n}") for n in range(2000)]
    t.expect(len(harness.tool_calls(lab.reply("Listing. ", *calls))), 2000,
             "tool_calls gives the blocks of type \"toolCall\", however many: none is dropped. "
             "The item is how many calls it gave (tool_calls, lesson 2).")
"""),
    Beyond(lab='2.1', name='read remembering a file over 4,000,000 characters',
           rule='read gives the text as the workspace ws holds it at each call, however long '
                'the file is.',
           where='kill round 28, design 2.1-58 (r153); Build item 5: "as the workspace `ws` holds '
                 'it"',
           names='as the workspace holds it',
           reach="test_the_read_tool rewrites and reads again a file of 4,000,000 characters, "
                 "past the cache over 100,000 the catalogue holds; a cache kept only for files "
                 "past any a test reads passes it (a limit past what a test can afford), and this "
                 "one keeps files of 4,000,001 characters and more",
           replace=r"""
        return ws.read_text(arguments["path"])
""",
           by=r"""
        text = _BIG.get(arguments["path"])
        if text is None:
            text = ws.read_text(arguments["path"])
            if len(text) > 4_000_000:
                _BIG[arguments["path"]] = text
        return text
""",
           also=((r"""
# given in lesson 2: the factory and its tool dict; execute is yours
""", r"""
_BIG = {}  # the text of each file over 4,000,000 characters, by path


# given in lesson 2: the factory and its tool dict; execute is yours
"""),),
           deep=r"""
import harness
import lab
from lab.kit import lab_test, settle

LAB = "2.1"


@lab_test("read gives a file of 4,500,000 characters as it is after it was rewritten.")
async def test_a_very_long_file_is_read_anew(t):
    ws = lab.Workspace({"huge.log": "a" * 4_500_000})
    read = harness.make_read_tool(ws)
    await settle(read["execute"]({"path": "huge.log"}))
    ws.write_text("huge.log", "b" * 4_500_000)
    found = await settle(read["execute"]({"path": "huge.log"}))
    t.expect(found[:1], "b",
             "read gives the text as the workspace holds it at each call, however long the "
             "file: a file rewritten since is read anew. The item is the first character read "
             "gave after the rewrite (make_read_tool, lesson 2).")
"""),
    # Hunt round 31 (reader r174), designs 10, 24 and 23.
    Beyond(lab='2.1', name='only the first 1024 tools described',
           rule='tool_specs gives a new dict for each tool in the tools\' order, however many '
                'tools there are.',
           where='hunt round 31, design 10 (r174); Build item 3: "a new dict for each tool in '
                 'the tools\' order"',
           names='however many tools there are',
           reach="test_specs_have_three_keys_in_order describes 60 to 300 tools, past the caps of "
                 "16 and 45 the catalogue holds; a cap past any list a test hands over passes "
                 "it, and this one leaves out the 1025th tool on",
           replace=r'''
             "parameters": tool["parameters"]} for tool in tools]
''',
           by=r'''
             "parameters": tool["parameters"]} for tool in tools[:1024]]
''',
           deep=r'''
import harness
from lab.kit import lab_test, tool

LAB = "2.1"


@lab_test("tool_specs describes every one of 1500 tools.")
async def test_every_one_of_many_tools_is_described(t):
    crowd = [tool(f"tool{n}", lambda a: "ran") for n in range(1500)]
    t.expect([spec["name"] for spec in harness.tool_specs(crowd)], [x["name"] for x in crowd],
             why="A new dict for each tool in the tools' order, however many tools there are. "
                 "Each item is a spec's name (tool_specs, lesson 2).")
'''),
    Beyond(lab='2.1', name='run_tool looking only at the first 512 tools',
           rule="The tool that runs is the one among `tools` whose name is the call's name, "
                "however many tools there are.",
           where='hunt round 31, design 24 (r174); Build item 4',
           names='however many tools there are',
           reach="test_run_tool_returns_a_result hands run_tool 60 to 300 tools besides the one "
                 "it calls, past the 64 of the catalogue's \"every call refused past 64 tools\"; "
                 "a scan that stops past any list a test hands over passes it, and this one "
                 "looks no further than the 512th tool",
           replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
           by=r'''
    tool = {t["name"]: t for t in tools[:512]}[call["name"]]
''',
           deep=r'''
import harness
import lab
from lab.kit import lab_test, settle, tool

LAB = "2.1"


@lab_test("run_tool runs the last of 1000 tools.")
async def test_the_last_of_many_tools_runs(t):
    crowd = [tool(f"spare{n}", lambda a: "a spare ran") for n in range(999)]
    crowd.append(tool("last", lambda a: "the last ran"))
    result = await settle(harness.run_tool(crowd, lab.call("last", {}, id="c1")))
    t.expect(result["content"], "the last ran",
             "The tool that runs is the one among the tools whose name is the call's name, "
             "however many tools there are (run_tool, lesson 2).")
'''),
    Beyond(lab='2.1', name='every call refused past 20,000 calls in a process',
           rule="Each call runs its tool, once, however many calls came before it.",
           where='hunt round 31, design 23 (r174); Build item 4: "its `execute` gets the '
                 'call\'s arguments, once"',
           names='however many calls came before',
           reach="a check of lab 2.1 makes some hundreds of calls; a count of the process's "
                 "calls that refuses past any number a check can afford passes it, and this "
                 "one raises from the 20,001st call of the process on",
           replace=r'''
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
           by=r'''
    global _RUNS
    _RUNS += 1
    if _RUNS > 20_000:
        raise RuntimeError("too many tool calls in this process")
    tool = {t["name"]: t for t in tools}[call["name"]]
''',
           also=((r'''
def run_tool(tools, call):
''', r'''
_RUNS = 0


def run_tool(tools, call):
'''),),
           turns=200_000,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, raised, settle, tool

LAB = "2.1"


@lab_test("run_tool answers the 25,000th call as it answered the first.")
async def test_many_calls_are_each_answered(t):
    tools = [tool("count", lambda a: "counted")]
    problems = 0
    for n in range(25_000):
        if await raised(lambda: harness.run_tool(tools, lab.call("count", {}, id="c1"))):
            problems += 1
    last = await settle(harness.run_tool(tools, lab.call("count", {}, id="c2")))
    t.expect([problems, last["content"]], [0, "counted"],
             "Each call runs its tool, once, however many calls came before it. Items: how "
             "many of 25,000 calls raised, then the content of one more (run_tool, lesson 2).")
'''),
]
