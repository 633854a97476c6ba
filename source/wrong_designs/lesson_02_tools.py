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
]
