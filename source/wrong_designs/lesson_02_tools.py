"""Lesson 2, "Tools: asking is not doing": the wrong designs its rungs rule out, each as a small
change to lab 2.1's reference. The format is tools/wrong_designs.py's.
"""
from tools.wrong_designs import Wrong

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
]

ALLOWED = [
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
]
