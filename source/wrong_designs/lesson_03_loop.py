"""Lesson 3, "The loop: one answer is not a job": the wrong designs its rungs rule out, each as a
small change to lab 3.1's reference. The format is tools/wrong_designs.py's.
"""
from tools.wrong_designs import Beyond, Wrong

WRONG = [
    Wrong(lab='3.1', name='a fixed number of rounds',
          rule='The loop goes on while replies ask for tools, however many rounds that takes: the number of rounds cannot be written into the code.',
          where='issue 23: the loop written as for _ in range(3)',
          names='however many rounds',
          replace=r'''
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    for _ in range(3):  # three rounds are plenty for any job
        reply = model.complete(system, messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name='a fixed number of rounds, fifty',
          rule='The loop goes on while replies ask for tools, however many rounds that takes: the number of rounds cannot be written into the code.',
          where='issue 23: the loop written as for _ in range(3); fifty looks like plenty',
          names='however many rounds',
          replace=r'''
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    for _ in range(50):  # no real job takes fifty rounds
        reply = model.complete(system, messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name='a fixed number of rounds, a hundred',
          rule='The loop goes on while replies ask for tools, however many rounds that takes: the number of rounds cannot be written into the code.',
          where='issue 23: the loop written as for _ in range(3); a hundred looks like plenty',
          names='however many rounds',
          replace=r'''
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    rounds = 0
    while rounds < 100:  # a safety cap, far above any job
        rounds += 1
        reply = model.complete(system, messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name='stopping after one result',
          rule='The loop goes on while replies ask for tools: after the results, the model is asked again.',
          where='failure scene: Where lesson 2 stops',
          names='asked again',
          replace=r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by='        return  # one round, as lesson 2 did it'),
    Wrong(lab='3.1', name='stopping as soon as there is text',
          rule='Whether a reply asks for tools is decided by its calls, not by whether it has words.',
          where='rung: When is the job done?',
          names='not by whether it has words',
          replace='        calls = tool_calls(reply)',
          by=r'''
        if text_of(reply):  # the model is talking to the user, so it is done
            return
        calls = tool_calls(reply)
'''),
    Wrong(lab='3.1', name='trusting the stop_reason label over the content',
          rule='The content decides, not the label: run_agent reads the calls off the content with tool_calls.',
          where='rung: When is the job done?',
          names='the content decides',
          replace=r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        if reply["stop_reason"] == "stop":
            return
'''),
    Wrong(lab='3.1', name="an internal list instead of the caller's",
          rule="The caller's list is the record: run_agent appends to the list it is given, not to a list of its own.",
          where='rung: Whose list?',
          names="the caller's list is the record",
          replace=r'''
    messages.append(user_message(prompt))
    while True:
''',
          by=r'''
    messages = list(messages) + [user_message(prompt)]  # a private copy
    while True:
'''),
    Wrong(lab='3.1', name='the system prompt inside the list',
          rule='The system prompt travels beside the list, never inside it.',
          where='opening prediction; Build section',
          names='system prompt',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete("", [{"role": "system", "content": system}] + messages,
                               tool_specs(tools))
'''),
    # Lesson 1 names the same mistake, with the system prompt made the first user message.
    Wrong(lab='3.1', name='the system prompt as a user message',
          rule="The system prompt travels beside the list, never inside it, and never in the user's voice.",
          where='lesson 1, Three ways to lose who said what',
          names='system prompt',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete("", [user_message(system)] + messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name='sending only recent messages',
          rule='The model remembers nothing: every request carries the whole record so far, however long.',
          where="CURRICULUM lesson 3; lesson 1's forgetful chat",
          names='whole record',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system, messages[-20:], tool_specs(tools))  # the recent ones
'''),
    Wrong(lab='3.1', name='asking again before the whole batch is answered',
          rule='Every call of a reply is answered, in call order, before the next request.',
          where='rung: Three calls in one reply',
          names='before the next request',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        for call in calls[:1]:  # let the model react to the first result at once
            messages.append(run_tool(tools, call))
'''),
    Wrong(lab='3.1', name='reordering a batch',
          rule='Results follow their calls in call order: the tools run in call order, not sorted.',
          where='rung: Three calls in one reply',
          names='call order',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        for call in sorted(calls, key=lambda call: str(call["arguments"])):
            messages.append(run_tool(tools, call))
'''),
    # Forty-one messages fit in a window of fifty; a conversation of up to a hundred does not.
    Wrong(lab='3.1', name='sending only the last fifty messages',
          rule='The model remembers nothing: every request carries the whole record so far, however long.',
          where="CURRICULUM lesson 3; lesson 1's forgetful chat",
          names='whole record',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system, messages[-50:], tool_specs(tools))  # plenty of context
'''),
    Wrong(lab='3.1', name='the system prompt stripped before it is sent',
          rule='Each request carries system exactly as it was passed, a final line break included.',
          where='lab 3.1, gap 3: "The loop"',
          names='word for word',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system.strip(), messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name='the prompt stripped before it is recorded',
          rule='The prompt goes on the record word for word, as a user message.',
          where='lab 3.1, gap 3: "The loop"',
          names='word for word',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
''',
          by=r'''
    messages.append(user_message(prompt.strip()))
    while True:
'''),
    Wrong(lab='3.1', name='write adding to a file that is already there',
          rule="Afterwards the file holds exactly the content argument, whether it existed before or not.",
          where='lab 3.1, gap 1: "write\'s `execute`"',
          names='replaces the whole file',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        ws.write_text(path, (ws.read_text(path) if ws.exists(path) else "") + content)
'''),
    Wrong(lab='3.1', name='a write result without its full stop',
          rule='The result is the sentence "Successfully wrote to PATH.", character by character, full stop included.',
          where='lab 3.1, gap 1: "write\'s `execute`"',
          names='exactly these words',
          replace=r'''
        return f"Successfully wrote to {path}."
''',
          by=r'''
        return f"Successfully wrote to {path}"
'''),
    Wrong(lab='3.1', name='bash giving its output stripped',
          rule='The result is what the command printed, as it printed it: its final line break included.',
          where='lab 3.1, gap 2: "bash\'s `execute`"',
          names='what the command printed',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        return output.strip()
'''),
    Wrong(lab='3.1', name='only the first 300 calls of a reply answered',
          rule='Every call of a reply has its result, from run_tool, on the list, in call order, before the next request, however many calls the reply holds.',
          where='lab 3.1, Build section: "Every call of a reply has its result"; bench/kinds.py, a loop given a limit',
          names='however many there are',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
''',
          by=r'''
        for call in calls[:300]:  # a batch is a few calls; a flood is a broken model
'''),
]

# Found by readers holding only the release (source/hunts/round-1.md, lab 3.1), each passing the
# lab's tests before they changed.
WRONG += [
    Wrong(lab='3.1', name='write keeping a backup of the file it replaces',
          rule='Afterwards the file holds exactly the content argument, and nothing else in the '
               'workspace has changed.',
          where='hunt round 1, design 3.1-1',
          names='nothing else in the workspace changed',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        if ws.exists(path):  # keep the old text, in case the model was wrong
            ws.write_text(path + ".bak", ws.read_text(path))
        ws.write_text(path, content)
'''),
    Wrong(lab='3.1', name='write skipping empty content',
          rule='Afterwards the file holds exactly the content argument, whether it existed '
               'before or not: "" included.',
          where='hunt round 1, design 3.1-2',
          names='exactly the content argument',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        if content:  # nothing to write
            ws.write_text(path, content)
'''),
    Wrong(lab='3.1', name='bash telling the exit code a lesson early',
          rule='The result is what the command printed when run; the model gets the output only '
               'today.',
          where='hunt round 1, design 3.1-3',
          names='what the command printed',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        if code != 0:
            return f"{output}[exit code {code}]"
        return output
'''),
    Wrong(lab='3.1', name="bash remembering each command's output",
          rule='The result is what the command printed when run: each call runs its command now.',
          where='hunt round 1, design 3.1-4',
          names='run again',
          replace=r'''
    def execute(arguments):
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
    seen = {}

    def execute(arguments):
        command = arguments["command"]
        if command not in seen:  # the same command prints the same thing
            seen[command] = shell.run(command)[0]
        return seen[command]
'''),
    Wrong(lab='3.1', name='the loop on a copy, handed back at the end',
          rule="The caller's own list is the record: the prompt, each reply and each result are "
               "appended to it as they happen.",
          where='hunt round 1, design 3.1-5',
          names='as they happen',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
    history = messages + [user_message(prompt)]
    while True:
        reply = model.complete(system, history, tool_specs(tools))
        history.append(reply)
        calls = tool_calls(reply)
        for call in calls:
            history.append(run_tool(tools, call))
        if not calls:
            break
    messages[:] = history  # the caller gets the whole run at once
'''),
    Wrong(lab='3.1', name='results recorded with their reply after the batch',
          rule="The caller's own list is the record: the prompt, each reply and each result are "
               "appended to it as they happen.",
          where='hunt round 1, design 3.1-12',
          names='as they happen',
          replace=r'''
        messages.append(reply)
        calls = tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        calls = tool_calls(reply)
        results = [run_tool(tools, call) for call in calls]
        messages.append(reply)
        messages.extend(results)  # the turn goes on the record in one piece
'''),
    Wrong(lab='3.1', name='sending only the last six hundred messages',
          rule='The model remembers nothing: every request carries the whole record so far, '
               'however long.',
          where='hunt round 1, design 3.1-6',
          names='whole record',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system, messages[-600:], tool_specs(tools))  # far beyond any job
'''),
    Wrong(lab='3.1', name='a fixed number of rounds, 256',
          rule='The run ends at the first reply that asks for nothing, whether that is the first '
               'reply or the two hundredth: the number of rounds cannot be written into the code.',
          where='hunt round 1, design 3.1-8',
          names='however many rounds',
          replace=r'''
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    for _ in range(256):
        reply = model.complete(system, messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name='an empty prompt dropped',
          rule='The prompt goes on the record word for word, as a user message: "" included.',
          where='hunt round 1, design 3.1-9',
          names='drops nothing the user gave',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
''',
          by=r'''
    if prompt:  # nothing was asked
        messages.append(user_message(prompt))
    while True:
'''),
    Wrong(lab='3.1', name='the reply recorded rebuilt',
          rule='Every reply goes on the record as the model gave it.',
          where='hunt round 1, design 3.1-11',
          names='as the model gave it',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
''',
          by=r'''
        given = model.complete(system, messages, tool_specs(tools))
        content = [{"type": "text", "text": block["text"].strip()} if block["type"] == "text"
                   else block for block in given["content"]]
        reply = {"role": "assistant", "content": content,
                 "stop_reason": "toolUse" if tool_calls({"content": content}) else "stop"}
        messages.append(reply)
'''),
]

# Found by a reader holding only the release, in its second round (source/hunts/round-4.md, lab
# 3.1), each passing the lab's tests before they changed.
WRONG += [
    Wrong(lab='3.1', name='user messages stripped in the request',
          rule='Each request carries the whole record so far as it is, the prompt word for word: '
               'nothing is tidied on the way to the model.',
          where='hunt round 4, design 3.1-2',
          names='word for word',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        sent = [{**m, "content": m["content"].strip()} if m["role"] == "user" else m
                for m in messages]  # tidy what the model reads; the record stays as given
        reply = model.complete(system, sent, tool_specs(tools))
'''),
    Wrong(lab='3.1', name="earlier runs' calls and results left out of the request",
          rule='The model remembers nothing: every request carries the whole record so far, an '
               "earlier run's calls and results included.",
          where='hunt round 4, design 3.1-3',
          names='whole record so far',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    start = len(messages)
    messages.append(user_message(prompt))
    while True:
        earlier = [m for m in messages[:start]
                   if m["role"] == "user" or (m["role"] == "assistant" and not tool_calls(m))]
        reply = model.complete(system, earlier + messages[start:], tool_specs(tools))
'''),
    Wrong(lab='3.1', name='an empty system prompt replaced by a default',
          rule='Each request carries system exactly as it was passed, "" included: nothing is '
               'done to the system prompt but passing it on.',
          where='hunt round 4, design 3.1-4',
          names='exactly as it was passed',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
''',
          by=r'''
    system = system or "You are a helpful coding assistant."  # none given: use a default
    messages.append(user_message(prompt))
    while True:
'''),
    Wrong(lab='3.1', name='the system prompt folded into the first user message',
          rule='The system prompt travels beside the list, never inside it: the request carries '
               'the record as it is.',
          where='hunt round 4, design 3.1-5',
          names='never folded into the first',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    fresh = not messages
    messages.append(user_message(prompt))
    while True:
        sent = list(messages)
        if fresh:  # a model follows instructions better when they open the conversation
            sent[0] = user_message(system + "\n\n" + sent[0]["content"])
        reply = model.complete(system, sent, tool_specs(tools))
'''),
    Wrong(lab='3.1', name='each reply relabelled from its content',
          rule='Every reply goes on the record as the model gave it, its stop_reason too: the '
               'loop reads the content and rewrites nothing.',
          where='hunt round 4, design 3.1-6',
          names='its stop_reason label too',
          replace=r'''
        messages.append(reply)
        calls = tool_calls(reply)
''',
          by=r'''
        calls = tool_calls(reply)
        reply["stop_reason"] = "toolUse" if calls else "stop"  # the content decides, so say so
        messages.append(reply)
'''),
    Wrong(lab='3.1', name='usage taken off the messages already on the list',
          rule="When run_agent returns, the caller's list holds what it held before, untouched, "
               'then the prompt, every reply and every result.',
          where='hunt round 4, design 3.1-7',
          names='holds what it held before',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        for m in messages:
            m.pop("usage", None)  # the model has no use for what earlier replies cost
        reply = model.complete(system, messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name='a call naming no tool skipped',
          rule='Every call of a reply has its result, from run_tool, before the next request: a '
               'call naming no tool is never skipped.',
          where='hunt round 4, design 3.1-9',
          names='never skipped',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        known = {tool["name"] for tool in tools}
        for call in calls:
            if call["name"] in known:  # ignore hallucinated tools
                messages.append(run_tool(tools, call))
'''),
    Wrong(lab='3.1', name='the loop inside try/except, returning quietly',
          rule='The run has one way out, the first reply that asks for nothing: a tool that '
               'raises ends the run with its exception until lesson 4 answers it.',
          where='hunt round 4, design 3.1-10',
          names='never returns quietly',
          replace=r'''
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
    try:
        while True:
            reply = model.complete(system, messages, tool_specs(tools))
            messages.append(reply)
            calls = tool_calls(reply)
            for call in calls:
                messages.append(run_tool(tools, call))
            if not calls:
                return
    except Exception:
        return  # keep the agent alive whatever happens
'''),
    Wrong(lab='3.1', name='bash running its command twice',
          rule='The result is what the command printed when run: each call runs its command '
               'once.',
          where='hunt round 4, design 3.1-13',
          names='runs the command once',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        command = arguments["command"]
        _output, code = shell.run(command)  # did it work?
        output, _code = shell.run(command)  # then take what it printed
        return output
'''),
    Wrong(lab='3.1', name='write naming the path tidied',
          rule='The result is the sentence "Successfully wrote to PATH.", the path argument in '
               'place of PATH character for character, as it came.',
          where='hunt round 4, design 3.1-15',
          names='character for character',
          replace=r'''
        path, content = arguments["path"], arguments["content"]
''',
          by=r'''
        import os.path
        path = os.path.normpath(arguments["path"].strip()).lstrip("/")
        content = arguments["content"]
'''),
    Wrong(lab='3.1', name="tool specs remembered by the tools' names",
          rule='Each request carries tool_specs(tools) of the tools this run was handed.',
          where='hunt round 4, design 3.1-16',
          names='made afresh',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    key = tuple(tool["name"] for tool in tools)
    specs = _SPECS.setdefault(key, tool_specs(tools))  # computed once per tool set
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, specs)
''',
          also=(('def run_agent(model, system, messages, tools, prompt):',
                 '_SPECS = {}\n\n\ndef run_agent(model, system, messages, tools, prompt):'),)),
    Wrong(lab='3.1', name='identical calls in a batch run once',
          rule='Every call of a reply has its result, from run_tool, in call order: a call asked '
               'twice is run twice.',
          where='hunt round 4, design 3.1-17',
          names='once per call',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        done = {}
        for call in calls:
            key = (call["name"], repr(sorted(call["arguments"].items())))
            if key in done:
                messages.append({**done[key], "tool_call_id": call["id"]})
                continue
            done[key] = run_tool(tools, call)
            messages.append(done[key])
'''),
    Wrong(lab='3.1', name='sending only the last two thousand messages',
          rule='The model remembers nothing: every request carries the whole record so far, '
               'however long.',
          where='hunt round 4, design 3.1-18',
          names='whole record',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system, messages[-2000:], tool_specs(tools))  # wide enough
'''),
    Wrong(lab='3.1', name='results built without run_tool',
          rule='Every call of a reply has its result from run_tool, so that what run_tool comes '
               'to do reaches every call.',
          where='hunt round 4, design 3.1-19',
          names='one call of run_tool per call',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        by_name = {tool["name"]: tool for tool in tools}
        for call in calls:
            text = by_name[call["name"]]["execute"](call["arguments"])
            messages.append({"role": "toolResult", "tool_call_id": call["id"],
                             "tool_name": call["name"], "content": text, "is_error": False})
'''),
    Wrong(lab='3.1', name='the prompt not added when the list ends with it',
          rule="The caller's list holds what it held before, then the prompt, word for word, as "
               'a user message, whatever the list ended with.',
          where='hunt round 4, design 3.1-20',
          names='drops nothing the user gave',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
''',
          by=r'''
    if not (messages and messages[-1] == user_message(prompt)):  # already asked
        messages.append(user_message(prompt))
    while True:
'''),
    Wrong(lab='3.1', name='an empty reply left off the record',
          rule='Every reply goes on the record, one with no content included.',
          where='hunt round 4, design 3.1-26',
          names='an empty one included',
          replace=r'''
        messages.append(reply)
        calls = tool_calls(reply)
''',
          by=r'''
        if reply["content"]:  # providers refuse empty assistant messages
            messages.append(reply)
        calls = tool_calls(reply)
'''),
    Wrong(lab='3.1', name='an empty result left off the record',
          rule='Every call of a reply has its result on the list before the next request, a '
               'result of "" included.',
          where='hunt round 4, design 3.1-27',
          names='result of "" is still a result',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        for call in calls:
            result = run_tool(tools, call)
            if result["content"]:  # nothing printed, nothing to say
                messages.append(result)
'''),
    Wrong(lab='3.1', name='a repeated batch of calls taken for a loop',
          rule='The loop goes on while replies ask for tools: the run ends at the first reply '
               'that asks for nothing, its one way out.',
          where='hunt round 4, design 3.1-28',
          names='while replies ask for tools',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        asked = [(call["name"], call["arguments"]) for call in calls]
        if not calls or asked == previous:
            return  # nothing asked, or the model is going round in circles
        previous = asked
        for call in calls:
            messages.append(run_tool(tools, call))
''',
          also=(('    messages.append(user_message(prompt))\n    while True:',
                 '    previous = None\n'
                 '    messages.append(user_message(prompt))\n    while True:'),)),
    Wrong(lab='3.1', name='sending only the last three thousand messages',
          rule='The model remembers nothing: every request carries the whole record so far, '
               'however long.',
          where='hunt round 9, design 3.1-2',
          names='whole record',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system, messages[-3000:], tool_specs(tools))  # wide enough
'''),
    Wrong(lab='3.1', name='the system prompt sent with the first request only',
          rule='Each request carries system exactly as it was passed, the later ones as well as '
               'the first.',
          where='hunt round 9, design 3.1-3',
          names='the later ones as well as the first',
          replace=r'''
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    first = True
    while True:
        reply = model.complete(system if first else "", messages, tool_specs(tools))
        first = False  # the model has read its instructions once
'''),
    Wrong(lab='3.1', name='the system prompt stripped after the first request',
          rule='Each request carries system exactly as it was passed, the later ones as well as '
               'the first.',
          where='hunt round 9, design 3.1-4',
          names='the later ones as well as the first',
          replace=r'''
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    first = True
    while True:
        reply = model.complete(system if first else system.strip(), messages,
                               tool_specs(tools))
        first = False
'''),
    Wrong(lab='3.1', name='only the first 500 calls of a reply answered',
          rule='Every call of a reply has its result on the list before the next request, '
               'however many there are.',
          where='hunt round 9, design 3.1-5',
          names='however many there are',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
''',
          by=r'''
        for call in calls[:500]:  # no sane reply asks for more
'''),
    Wrong(lab='3.1', name="a call skipped when its id already has a result",
          rule='Every call of a reply has its result, from run_tool, before the next request, '
               'whatever id an earlier round gave a call.',
          where='hunt round 9, design 3.1-6',
          names='never skips a call',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        answered = {m["tool_call_id"] for m in messages if m["role"] == "toolResult"}
        for call in calls:
            if call["id"] not in answered:  # answered already
                messages.append(run_tool(tools, call))
'''),
    Wrong(lab='3.1', name='the prompt appended once the first reply is back',
          rule='The prompt, each reply and each result go on the caller\'s list as they happen: '
               'the prompt is there before the first request goes out.',
          where='hunt round 9, design 3.1-7; run_agent\'s docstring',
          names='before the first request goes out',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
''',
          by=r'''
    said, first = user_message(prompt), True
    while True:
        reply = model.complete(system, messages + [said] if first else messages,
                               tool_specs(tools))
        if first:  # the prompt is kept once the model has taken it
            messages.append(said)
            first = False
        messages.append(reply)
'''),
    Wrong(lab='3.1', name='three repeated batches of calls taken for a loop',
          rule='The loop goes on while replies ask for tools, whatever they ask: the run ends at '
               'the first reply that asks for nothing.',
          where='hunt round 9, design 3.1-10',
          names='whatever they ask',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        recent = (recent + [[(c["name"], repr(c["arguments"])) for c in calls]])[-3:]
        if not calls or (len(recent) == 3 and recent[0] == recent[1] == recent[2]):
            return  # nothing asked, or three times the same: the model is stuck
        for call in calls:
            messages.append(run_tool(tools, call))
''',
          also=(('    messages.append(user_message(prompt))\n    while True:',
                 '    recent = []\n'
                 '    messages.append(user_message(prompt))\n    while True:'),)),
    Wrong(lab='3.1', name='results cut to 50,000 characters by the loop',
          rule='Every call of a reply has its result, from run_tool, on the list: the result is '
               'what run_tool returns, and the loop cuts nothing.',
          where='hunt round 9, design 3.1-12',
          names='the loop cuts nothing',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        for call in calls:
            result = run_tool(tools, call)
            messages.append({**result, "content": result["content"][:50000]})  # keep it small
'''),
    Wrong(lab='3.1', name='the rest of a batch run before a tool\'s exception is raised',
          rule='A tool that raises ends the run with its exception at that call, today: the '
               'calls after it are not run first.',
          where='hunt round 9, design 3.1-14; the lab\'s tests in plain words',
          names='the calls after it in the batch are not run',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        failure = None
        for call in calls:
            try:
                messages.append(run_tool(tools, call))
            except Exception as error:  # finish the batch, then report
                failure = failure or error
        if failure is not None:
            raise failure
'''),
    Wrong(lab='3.1', name="tool specs remembered by the list's identity",
          rule='Each request carries tool_specs(tools) of the tools the list holds now, nothing '
               "kept by the list's identity.",
          where='hunt round 9, design 3.1-15',
          names='tool_specs(tools) as it is now',
          replace=r'''
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    # the same list, the same specs; the list is held, so no later list takes its id
    specs = _SPECS.setdefault(id(tools), (tools, tool_specs(tools)))[1]
    while True:
        reply = model.complete(system, messages, specs)
''',
          also=(('def run_agent(model, system, messages, tools, prompt):',
                 '_SPECS = {}\n\n\ndef run_agent(model, system, messages, tools, prompt):'),)),
    Wrong(lab='3.1', name='tool specs with one spec per name',
          rule='Each request carries tool_specs(tools), every tool of the list, nothing dropped '
               'or merged.',
          where='hunt round 9, design 3.1-16',
          names='nothing dropped or merged',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        specs = list({spec["name"]: spec for spec in tool_specs(tools)}.values())  # no twins
        reply = model.complete(system, messages, specs)
'''),
    Wrong(lab='3.1', name='a long prompt cut before it is recorded',
          rule='The prompt goes on the record, and to the model, word for word, however long.',
          where='hunt round 9, design 3.1-17',
          names='none of it is cut',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
''',
          by=r'''
    messages.append(user_message(prompt[:20000]))  # a pasted log can be huge
    while True:
'''),
    Wrong(lab='3.1', name='write turning Windows line ends into plain ones',
          rule='Afterwards the file named by the "path" argument holds exactly the "content" '
               'argument.',
          where='hunt round 9, design 3.1-18',
          names='holds exactly the content argument',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        ws.write_text(path, content.replace("\r\n", "\n"))
'''),
    Wrong(lab='3.1', name='write stripping spaces at line ends',
          rule='Afterwards the file named by the "path" argument holds exactly the "content" '
               'argument.',
          where='hunt round 9, design 3.1-19',
          names='holds exactly the content argument',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        ws.write_text(path, "\n".join(line.rstrip(" \t") for line in content.split("\n")))
'''),
    Wrong(lab='3.1', name='write stripping the path',
          rule='The result names the "path" argument character for character, and the file it '
               'names holds the content.',
          where='hunt round 9, design 3.1-21',
          names='character for character',
          replace=r'''
        path, content = arguments["path"], arguments["content"]
''',
          by=r'''
        path, content = arguments["path"].strip(), arguments["content"]
'''),
    Wrong(lab='3.1', name='bash ending its output with a line break',
          rule='The result is what the "command" argument printed when run in shell.',
          where='hunt round 9, design 3.1-22',
          names='returns what the command printed, exactly',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        if output and not output.endswith("\n"):  # tidy for the model
            output += "\n"
        return output
'''),
    Wrong(lab='3.1', name='bash cutting its output at 30,000 characters',
          rule='The result is what the "command" argument printed when run in shell.',
          where='hunt round 9, design 3.1-23',
          names='returns what the command printed, exactly',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        return output[:30000]  # the model need not see it all
'''),
    Wrong(lab='3.1', name='a budget of 2000 calls a run',
          rule='Every call of a reply has its result on the list before the next request, and '
               'the run ends at the first reply that asks for nothing: no cap on calls ends it.',
          where='hunt round 9, design 3.1-26',
          names='no cap on calls per reply or per run',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        budget -= len(calls)
        if not calls or budget < 0:
            return  # nothing asked, or the run has had its share of calls
        for call in calls:
            messages.append(run_tool(tools, call))
''',
          also=(('    messages.append(user_message(prompt))\n    while True:',
                 '    budget = 2000\n'
                 '    messages.append(user_message(prompt))\n    while True:'),)),
    Wrong(lab='3.1', name='tool specs made once a run',
          rule='Each request carries tool_specs(tools) as the list is when it is sent: a tool '
               'added to the list during the run is told from the next request on.',
          where='hunt round 9, probe 3.1-28 (P2)',
          names='as the list is when it is sent',
          replace=r'''
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    specs = tool_specs(tools)  # the tools do not change during a run
    while True:
        reply = model.complete(system, messages, specs)
'''),
]

# Found by a reader holding only the release, in its twelfth round (source/hunts/round-12.md, lab
# 3.1), each passing the lab's tests before they changed.
WRONG += [
    Wrong(lab='3.1', name='fifty repeated batches taken for a loop',
          rule='The run ends at the first reply that asks for nothing, whether that is the first '
               'reply or the two hundredth: not at a run of replies asking the same.',
          where='hunt round 12, design 02 (stuck-detector-50)',
          names='and whatever they ask',
          replace=r'''
        calls = tool_calls(reply)
''',
          by=r'''
        calls = tool_calls(reply)
        asked = [(call["name"], call["arguments"]) for call in calls]
        repeats, last = (repeats + 1 if asked == last else 0), asked
        if repeats >= 50:  # fifty times the same batch: the model is stuck
            return
''',
          also=(('    messages.append(user_message(prompt))\n',
                 '    messages.append(user_message(prompt))\n    repeats, last = 0, None\n'),)),
    Wrong(lab='3.1', name='the system prompt cut to 4000 characters',
          rule='Each request carries system exactly as it was passed, however long.',
          where='hunt round 12, design 06 (system-cut-4000)',
          names='`system` exactly as it was passed, however long',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system[:4000], messages, tool_specs(tools))  # a sane bound
'''),
    Wrong(lab='3.1', name='write cutting its content at 100,000 characters',
          rule='Afterwards the file named by the "path" argument holds exactly the "content" '
               'argument, however long.',
          where='hunt round 12, design 10 (write-cap-100k)',
          names='argument, however long, none of it cut',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        ws.write_text(path, content[:100_000])  # no file of ours is bigger
'''),
    Wrong(lab='3.1', name="tool specs remade only when the list's length changes",
          rule='Each request carries tool_specs(tools) as the list stands at that request: a tool '
               'changed in place is told as it is now.',
          where='hunt round 12, design 13 (specs-cached-by-length)',
          names='as the list is when it is sent, nothing kept',
          replace=r'''
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    specs, known = tool_specs(tools), len(tools)
    while True:
        if len(tools) != known:  # a tool was added: tell the model again
            specs, known = tool_specs(tools), len(tools)
        reply = model.complete(system, messages, specs)
'''),
    Wrong(lab='3.1', name="tool specs kept across runs by the tools' identities",
          rule='Each request carries tool_specs(tools) as the list stands at that request: a tool '
               'changed in place is told as it is now.',
          where='hunt round 12, design 14 (specs-cached-across-runs)',
          names='as the list is when it is sent, nothing kept',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        key = (id(tools), len(tools), tuple(id(tool) for tool in tools))
        if key not in _SPECS:  # the same tools as last time: the same specs
            _SPECS[key] = (tools, list(tools), tool_specs(tools))  # held: no id is reused
        reply = model.complete(system, messages, _SPECS[key][2])
''',
          also=(('def run_agent(model, system, messages, tools, prompt):',
                 '_SPECS = {}\n\n\ndef run_agent(model, system, messages, tools, prompt):'),)),
    Wrong(lab='3.1', name='a batch refused whole for a call naming no tool',
          rule='Every call of a reply has its result, from run_tool, on the list, in call order: '
               'the calls before a failing one run, and run_tool is handed every call.',
          where='hunt round 12, design 15 (prevalidate-names)',
          names='nor is any call of the batch held back before it',
          replace=r'''
        calls = tool_calls(reply)
''',
          by=r'''
        calls = tool_calls(reply)
        names = {tool["name"] for tool in tools}
        for call in calls:  # check the whole batch before running any of it
            if call["name"] not in names:
                raise KeyError(f"no tool named {call['name']!r}")
'''),
    Wrong(lab='3.1', name='a batch run in the order of its ids',
          rule='Every call of a reply has its result, from run_tool, on the list, in call order.',
          where='hunt round 12, design 16 (calls-sorted-by-id)',
          names="not the order of the ids' numbers",
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
''',
          by=r'''
        for call in sorted(calls, key=lambda call: int("0" + "".join(
                digit for digit in call["id"] if digit.isdigit()))):  # c1, c2, ...
'''),
    Wrong(lab='3.1', name='a call skipped when another call of its reply has its id',
          rule='Every call of a reply has its result, from run_tool, on the list.',
          where='hunt round 12, design 17 (skip-repeated-id-in-reply)',
          names='a call whose id another call of the reply has',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        seen = set()
        for call in calls:
            if call["id"] in seen:  # asked already in this reply
                continue
            seen.add(call["id"])
            messages.append(run_tool(tools, call))
'''),
    Wrong(lab='3.1', name="a tool's exception wrapped in another",
          rule='A call naming no tool, or a tool that raises, ends the run with its exception '
               '(lesson 4 answers it instead).',
          where='hunt round 12, design 19 (wrap-tool-exception)',
          names='not wrapped in another',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            try:
                messages.append(run_tool(tools, call))
            except Exception as error:  # say which tool failed
                raise RuntimeError(f"tool {call['name']} failed") from error
'''),
    Wrong(lab='3.1', name='a raising tool tried a second time',
          rule='Every call of a reply has its result, from run_tool, once per call; a tool that '
               'raises ends the run with its exception.',
          where='hunt round 12, design 21 (retry-failed-tool)',
          names='never tried again',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            try:
                result = run_tool(tools, call)
            except Exception:  # a flaky tool gets a second chance
                result = run_tool(tools, call)
            messages.append(result)
'''),
    Wrong(lab='3.1', name='a prompt of only blanks dropped',
          rule='When it returns, messages holds what it held before, then prompt, word for word, '
               'as a user message.',
          where='hunt round 12, design 23 (prompt-whitespace-only-dropped)',
          names='not dropped or tidied',
          replace=r'''
    messages.append(user_message(prompt))
''',
          by=r'''
    if prompt == "" or prompt.strip():  # a prompt of only spaces says nothing
        messages.append(user_message(prompt))
'''),
    Wrong(lab='3.1', name='a reply with calls recorded with its words stripped',
          rule='Every reply goes on the record as the model gave it.',
          where='hunt round 12, design 24 (reply-normalised-text)',
          names='nothing rebuilt or tidied',
          replace=r'''
        messages.append(reply)
        calls = tool_calls(reply)
''',
          by=r'''
        if tool_calls(reply):  # tidy the words that come with calls
            reply = {**reply, "content": [
                {**block, "text": block["text"].strip()} if block["type"] == "text" else block
                for block in reply["content"]]}
        messages.append(reply)
        calls = tool_calls(reply)
'''),
    Wrong(lab='3.1', name='tools run from the list as the run began',
          rule='Every call of a reply has its result, from run_tool, on the list, and tool_specs'
               '(tools) is told as the list stands at that request: a tool added during a run '
               'can be called from the next reply on.',
          where='hunt round 12, probe P3 (run-tool-on-start-snapshot)',
          names='can be called from the next reply on',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            messages.append(run_tool(kit, call))
''',
          also=(('    messages.append(user_message(prompt))\n',
                 '    kit = list(tools)  # the tools this run was handed\n'
                 '    messages.append(user_message(prompt))\n'),)),
    Wrong(lab='3.1', name="bash keeping the start of a long output, silently",
          rule='The result is what the "command" argument printed when run in shell, as one '
               "string; lesson 6's cut keeps the end and says so.",
          where='hunt round 12, design 07 (bash-cut-2000-lines)',
          names='never a beginning cut off silently',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        return "".join(output.splitlines(keepends=True)[:2000])[:50_000]  # lesson 6's budget
'''),
    Wrong(lab='3.1', name='a failed request sent once more',
          rule='The model is asked once per round of tools and once more for the answer; a '
               'request that raises ends the run there.',
          where='hunt round 12, probe P2 (retry-complete-once)',
          names='A request that fails is not sent again',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        try:
            reply = model.complete(system, messages, tool_specs(tools))
        except Exception:  # a blip: ask once more before giving up
            reply = model.complete(system, messages, tool_specs(tools))
'''),
]

# Hunt round 15 (reader r76): designs that passed the release's check, each now failing a case.
WRONG += [
    Wrong(lab='3.1', name='a failed later request sent once more',
          rule='A request that raises ends the run with its exception: it is not sent again, '
               'the first request of a run or a later one.',
          where='hunt round 15, design 07 (retry-later-requests): Build item 3, "A request that '
                'raises ends the run with its exception: it is not sent again."',
          names='not sent again',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    messages.append(user_message(prompt))
    first = True
    while True:
        try:
            reply = model.complete(system, messages, tool_specs(tools))
        except Exception:  # a blip mid-job: ask once more, but give up on a first request
            if first:
                raise
            reply = model.complete(system, messages, tool_specs(tools))
        first = False
'''),
    Wrong(lab='3.1', name="the run's replies and results taken back when a request fails",
          rule='The prompt, each reply and each result are appended to the caller\'s list as '
               'they happen, and whatever was appended before a run goes wrong stays appended.',
          where='hunt round 15, design 08 (rollback-on-failure): "Whatever was appended before '
                'a run goes wrong stays appended"',
          names='stays appended',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
    messages.append(user_message(prompt))
    start = len(messages)
    while True:
        try:
            reply = model.complete(system, messages, tool_specs(tools))
        except Exception:  # leave the record as the run found it, the prompt asked
            del messages[start:]
            raise
'''),
    Wrong(lab='3.1', name="write refusing a path with a .. part in words of its own",
          rule="A path the workspace refuses is the workspace's to refuse: write hands every "
               "path on as it came.",
          where='hunt round 25, design 42 (write-refuses-dotdot-paths): Build item 1, "A path '
                'the workspace refuses (one with a `..` part, say) is the workspace\'s to refuse"',
          names="a path the workspace refuses",
          replace=r'''
        path, content = arguments["path"], arguments["content"]
        ws.write_text(path, content)
''',
          by=r'''
        path, content = arguments["path"], arguments["content"]
        if ".." in path.split("/"):
            return "Refused: the path leaves the project."
        ws.write_text(path, content)
'''),
    Wrong(lab='3.1', name='write refusing a path from the root',
          rule='Afterwards the file named by the "path" argument holds exactly the "content" '
               'argument, and the result is the sentence "Successfully wrote to PATH."',
          where='hunt round 15, design 10 (write-refuses-dotdot): Build item 1, "Afterwards the '
                'file named by the `"path"` argument holds exactly the `"content"` argument"',
          names='which the workspace takes from its root',
          replace=r'''
        path, content = arguments["path"], arguments["content"]
        ws.write_text(path, content)
''',
          by=r'''
        path, content = arguments["path"], arguments["content"]
        if path.startswith("/") or ".." in path.split("/"):
            return f"Refused to write outside the project: {path}."
        ws.write_text(path, content)
'''),
    Wrong(lab='3.1', name='write keeping a backup of a big file it replaces',
          rule='Afterwards the file holds exactly the content, and nothing else in the workspace '
               'has changed.',
          where='hunt round 15, design 11 (write-backup-big): Build item 1, "nothing else in the '
                'workspace has changed"',
          names='no backup of the long file',
          replace=r'''
        path, content = arguments["path"], arguments["content"]
        ws.write_text(path, content)
''',
          by=r'''
        path, content = arguments["path"], arguments["content"]
        if ws.exists(path) and len(ws.read_text(path)) > 10_000:  # too much work to lose
            ws.write_text(path + ".bak", ws.read_text(path))
        ws.write_text(path, content)
'''),
    Wrong(lab='3.1', name="a wide batch's results appended when the batch is done",
          rule='The prompt, each reply and one result per call are appended to the caller\'s '
               'list as they happen, however many calls a reply has.',
          where='hunt round 15, design 16 (big-batch-appended-late): Build item 3, "then every '
                'reply and every result, in the order they happened"',
          names='whether it grew by one each call',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        if len(calls) > 1000:  # one extend is cheaper than a thousand appends
            messages.extend([run_tool(tools, call) for call in calls])
        for call in calls if len(calls) <= 1000 else []:
            messages.append(run_tool(tools, call))
'''),
    Wrong(lab='3.1', name='bash turning Windows line ends in its output into plain ones',
          rule='The result is what the "command" argument printed, as one string.',
          where='hunt round 15, design 26 (bash-crlf): Build item 2, "The result is what the '
                '`"command"` argument printed"',
          names='gives them as they are',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        return output.replace("\r\n", "\n")
'''),
    Wrong(lab='3.1', name="bash stripping spaces at its output's line ends",
          rule='The result is what the "command" argument printed, as one string.',
          where='hunt round 15, design 27 (bash-rstrip-lines): Build item 2, "The result is '
                'what the `"command"` argument printed"',
          names='gives them as they are',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        return "".join(line.rstrip(" \t") + end for line, end in
                       ((part.rstrip("\n"), "\n" if part.endswith("\n") else "")
                        for part in output.splitlines(keepends=True)))
'''),
    Wrong(lab='3.1', name="the system prompt's Windows line ends made plain",
          rule='Each request carries system exactly as it was passed.',
          where='hunt round 15, design 28 (system-crlf): Build item 3, "`system` exactly as it '
                'was passed"',
          names='go out word for word',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
''',
          by=r'''
    messages.append(user_message(prompt))
    system = system.replace("\r\n", "\n")  # one kind of line end
    while True:
'''),
    Wrong(lab='3.1', name="the prompt's Windows line ends made plain",
          rule='When it returns, messages holds what it held before, then prompt, word for '
               'word, as a user message.',
          where='hunt round 15, design 29 (prompt-crlf): Build item 3, "then `prompt`, word for '
                'word, as a user message"',
          names='go out word for word',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
''',
          by=r'''
    messages.append(user_message(prompt.replace("\r\n", "\n")))
    while True:
'''),
    Wrong(lab='3.1', name='carriage returns taken out of results by the loop',
          rule='Every call of a reply has its result, from run_tool, on the list: the loop '
               'cuts nothing and tidies nothing.',
          where='hunt round 15, design 30 (result-strip-cr): Build item 3, "Every call of a '
                'reply has its result, from `run_tool`, on the list"',
          names='tidies nothing',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            result = run_tool(tools, call)
            messages.append({**result, "content": result["content"].replace("\r", "")})
'''),
    Wrong(lab='3.1', name='empty text blocks taken off a reply',
          rule='Every reply goes on the record as the model gave it: nothing rebuilt.',
          where='hunt round 15, design 32 (drop-empty-text-blocks): Build item 3, "then every '
                'reply and every result, in the order they happened"',
          names='an empty text block kept',
          replace=r'''
        messages.append(reply)
        calls = tool_calls(reply)
''',
          by=r'''
        reply["content"] = [block for block in reply["content"]
                            if not (block["type"] == "text" and block["text"] == "")]
        messages.append(reply)
        calls = tool_calls(reply)
'''),
    Wrong(lab='3.1', name='tool specs kept across runs by identity, name and description',
          rule='Each request carries tool_specs(tools) as the list stands at that request.',
          where='hunt round 15, design 33 (specs-cache-across-runs): Build item 3, '
                '"`tool_specs(tools)` as the list stands at that request"',
          names='its schemas as they are now',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system, messages, _kept_specs(tools))
''',
          also=((r'''
def run_agent(model, system, messages, tools, prompt):
''', r'''
_SPECS = {}  # (id, name, description) -> (the tool, its spec): the tool held, so its id stays


def _kept_specs(tools):
    specs = []
    for tool in tools:
        key = (id(tool), tool["name"], tool["description"])
        if key not in _SPECS or _SPECS[key][0] is not tool:
            _SPECS[key] = (tool, tool_specs([tool])[0])
        specs.append(_SPECS[key][1])
    return specs


def run_agent(model, system, messages, tools, prompt):
'''),)),
    Wrong(lab='3.1', name='an empty reply after a round of tools left off the record',
          rule='When it returns, messages holds the prompt, then every reply and every result, '
               'in the order they happened.',
          where='hunt round 15, design 36 (empty-reply-not-recorded-after-tools): Build item 3, '
                '"then every reply and every result, in the order they happened"',
          names='even when it comes after a round of tools',
          replace=r'''
        messages.append(reply)
        calls = tool_calls(reply)
''',
          by=r'''
        if reply["content"] or messages[-1]["role"] == "user":  # nothing said after tools
            messages.append(reply)
        calls = tool_calls(reply)
'''),
    Wrong(lab='3.1', name='write normalising its content to NFC',
          rule='Afterwards the file holds exactly the "content" argument.',
          where='hunt round 18, design 24 (write-nfc): Build item 1, "holds exactly the '
                '`"content"` argument"',
          names='a decomposed accent',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        import unicodedata
        ws.write_text(path, unicodedata.normalize("NFC", content))  # one form
'''),
    Wrong(lab='3.1', name='write turning backslashes in its path into slashes',
          rule='Afterwards the file named by the "path" argument holds exactly the "content" '
               'argument.',
          where='hunt round 18, design 25 (write-backslash-path): Build item 1, "the file named '
                'by the `"path"` argument"',
          names='as the workspace names it',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        ws.write_text(path.replace("\\", "/"), content)  # a model used to Windows paths
'''),
    Wrong(lab='3.1', name='write keeping a backup of a settings file it replaces',
          rule='Afterwards the file holds exactly the "content" argument, and nothing else in '
               'the workspace has changed.',
          where='hunt round 18, design 26 (write-backup-config): Build item 1, "nothing else in '
                'the workspace has changed"',
          names='no backup',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        if path.endswith((".toml", ".cfg", ".ini", ".json")) and ws.exists(path):
            ws.write_text(path + ".bak", ws.read_text(path))  # settings are precious
        ws.write_text(path, content)
'''),
    Wrong(lab='3.1', name='write adding to a log that is there',
          rule='Afterwards the file holds exactly the "content" argument, whether it existed '
               'before or not.',
          where='hunt round 18, design 27 (write-appends-logs): Build item 1, "whether it '
                'existed before or not"',
          names='nothing added to the old text',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        if path.endswith(".log") and ws.exists(path):  # a log grows
            content = ws.read_text(path) + content
        ws.write_text(path, content)
'''),
    Wrong(lab='3.1', name='write naming the path with its double slashes collapsed',
          rule='The result is the sentence Successfully wrote to PATH., with the path in place '
               'of PATH, compared character by character.',
          where='hunt round 18, design 32 (write-sentence-slashes): Build item 1, "with the path '
                'in place of PATH, compared character by character"',
          names='character for character',
          replace=r'''
        return f"Successfully wrote to {path}."
''',
          by=r'''
        while "//" in path:  # say the path tidily
            path = path.replace("//", "/")
        return f"Successfully wrote to {path}."
'''),
    Wrong(lab='3.1', name='write writing into the workspace of the last write tool made',
          rule='Afterwards the file named by the "path" argument, in ws, holds exactly the '
               '"content" argument, and nothing else in the workspace has changed.',
          where='hunt round 18, design 37 (write-shared-workspace): Build item 1, "the file '
                'named by the `"path"` argument holds exactly"',
          names='other write tools made over other workspaces',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        _WORKSPACES[-1].write_text(path, content)  # the project's workspace
''',
          also=((r'''
def make_write_tool(ws):
''', r'''
_WORKSPACES = []


def make_write_tool(ws):
    _WORKSPACES.append(ws)
'''),)),
    Wrong(lab='3.1', name='bash keeping the head and the last line of a long output',
          rule='The result is what the "command" argument printed when run in shell.',
          where='hunt round 18, design 10 (bash-middle-cut): Build item 2, "The result is what '
                'the `"command"` argument printed when run in `shell`"',
          names='nor a middle cut out',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        lines = output.splitlines(keepends=True)
        if len(lines) > 2000:  # the head says what it is, the last line how it ended
            return "".join(lines[:20]) + "[... cut. Narrow the command ...]\n" + lines[-1]
        return output
'''),
    Wrong(lab='3.1', name='bash refusing sudo',
          rule='The result is what the "command" argument printed when run in shell.',
          where='hunt round 18, design 28 (bash-refuses-sudo): Build item 2, "The result is what '
                'the `"command"` argument printed when run in `shell`"',
          names='nothing refused',
          replace=r'''
        output, code = shell.run(arguments["command"])
''',
          by=r'''
        if arguments["command"].lstrip().startswith("sudo"):
            return "Refused: this harness does not run sudo."
        output, code = shell.run(arguments["command"])
'''),
    Wrong(lab='3.1', name='bash taking colour codes out of its output',
          rule='The result is what the "command" argument printed when run in shell.',
          where='hunt round 18, design 39 (bash-strips-ansi): Build item 2, "The result is what '
                'the `"command"` argument printed when run in `shell`"',
          names='colour codes',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        import re
        return re.sub(r"\x1b\[[0-9;]*m", "", output)  # colours mean nothing
'''),
    Wrong(lab='3.1', name='a request that timed out sent once more',
          rule='A request that raises ends the run with its exception: it is not sent again.',
          where='hunt round 18, design 13 (retry-on-timeout): Build item 3, "A request that '
                'raises ends the run with its exception: it is not sent again"',
          names='whatever it raised',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        try:
            reply = model.complete(system, messages, tool_specs(tools))
        except TimeoutError:  # a slow provider: once more
            reply = model.complete(system, messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name='a question beside calls ending the run',
          rule='What the reply asks for is read off its content with tool_calls, and the run '
               'ends at the first reply that asks for nothing.',
          where='hunt round 18, design 16 (question-stops): Build item 3, "the run ends at the '
                'first reply that asks for nothing"',
          names='a question',
          replace=r'''
        calls = tool_calls(reply)
''',
          by=r'''
        calls = tool_calls(reply)
        if text_of(reply).rstrip().endswith("?"):  # the model asked the user: hand back
            return
'''),
    Wrong(lab='3.1', name='reads answered from a cache until another tool runs',
          rule='Every call of a reply has its result, from run_tool, on the list, in call order.',
          where='hunt round 18, design 17 (read-cache): Build item 3, "Every call of a reply '
                'has its result, from `run_tool`"',
          names='nothing kept from an earlier read',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            key = repr(call["arguments"])
            if call["name"] == "read" and key in seen:  # the same file, nothing run since
                messages.append({**seen[key], "tool_call_id": call["id"]})
                continue
            result = run_tool(tools, call)
            if call["name"] == "read":
                seen[key] = result
            else:
                seen.clear()
            messages.append(result)
''',
          also=(('    messages.append(user_message(prompt))',
                 '    messages.append(user_message(prompt))\n    seen = {}'),)),
    Wrong(lab='3.1', name='the writes of a batch run first',
          rule='Every call of a reply has its result, from run_tool, on the list, in call order: '
               'the calls run in order.',
          where='hunt round 18, design 18 (writes-first): Build item 3, "in call order, before '
                'the next request"',
          names='the loop runs them in order',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        order = sorted(range(len(calls)), key=lambda i: calls[i]["name"] != "write")
        results = {i: run_tool(tools, calls[i]) for i in order}  # writes first, for the reads
        messages.extend(results[i] for i in range(len(calls)))
'''),
    Wrong(lab='3.1', name='a batch of reads run on threads',
          rule='Every call of a reply has its result on the list, in call order, as it happens: '
               'each tool, as it runs, finds the results of the calls before it.',
          where='hunt round 18, design 19 (parallel-reads): Build item 3, "Every call of a '
                'reply has its result, from `run_tool`, on the list, in call order"',
          names='the results of the calls before it',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        if len(calls) > 1 and all(call["name"] == "read" for call in calls):
            import concurrent.futures
            with concurrent.futures.ThreadPoolExecutor() as pool:
                results = list(pool.map(lambda call: run_tool(tools, call), calls))
            messages.extend(results)  # every call has run before the first result is on the list
            continue
        for call in calls:
            messages.append(run_tool(tools, call))
'''),
    Wrong(lab='3.1', name='a call missing a required argument answered by the loop',
          rule='Every call of a reply has its result, from run_tool, on the list.',
          where='hunt round 18, design 20 (own-result-for-bad-args): Build item 3, "Every call of '
                'a reply has its result, from `run_tool`"',
          names='handed to run_tool',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            spec = next((tool for tool in tools if tool["name"] == call["name"]), {})
            missing = [key for key in spec.get("parameters", {}).get("required", [])
                       if key not in call["arguments"]]
            if missing:  # answered here: the tool would only fail
                messages.append({"role": "toolResult", "tool_call_id": call["id"],
                                 "tool_name": call["name"], "is_error": True,
                                 "content": "Missing arguments: " + ", ".join(missing)})
                continue
            messages.append(run_tool(tools, call))
'''),
    Wrong(lab='3.1', name='tools described in no words left out of the request',
          rule='Each request carries tool_specs(tools) as the list stands at that request.',
          where='hunt round 18, design 21 (specs-skip-undescribed): Build item 3, '
                '"`tool_specs(tools)` as the list stands at that request"',
          names='one whose description is',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system, messages,
                               [spec for spec in tool_specs(tools) if spec["description"]])
'''),
    Wrong(lab='3.1', name='a run given no tools returning at a call',
          rule='Every call of a reply has its result before the next request, and the run ends '
               'at the first reply that asks for nothing.',
          where='hunt round 18, design 22 (no-tools-stops): Build item 3, "the run ends at the '
                'first reply that asks for nothing"',
          names='no tools given',
          replace=r'''
        calls = tool_calls(reply)
''',
          by=r'''
        calls = tool_calls(reply)
        if not tools:  # nothing could answer them anyway
            return
'''),
    Wrong(lab='3.1', name='the prompt normalised to NFC',
          rule='When it returns, messages holds prompt, word for word, as a user message.',
          where='hunt round 18, design 23 (prompt-nfc): Build item 3, "`prompt`, word for word"',
          names='decomposed accent',
          replace=r'''
    messages.append(user_message(prompt))
''',
          by=r'''
    import unicodedata
    messages.append(user_message(unicodedata.normalize("NFC", prompt)))
'''),
    Wrong(lab='3.1', name='a byte-order mark taken off the system prompt',
          rule='Each request carries system exactly as it was passed.',
          where='hunt round 18, design 29 (system-bom-stripped): Build item 3, "`system` exactly '
                'as it was passed"',
          names='byte-order mark',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system.removeprefix("\ufeff"), messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name="blank lines at the prompt's end collapsed",
          rule='When it returns, messages holds prompt, word for word, as a user message.',
          where='hunt round 18, design 38 (trailing-blank-lines-collapsed): Build item 3, '
                '"`prompt`, word for word"',
          names='blank lines at the end',
          replace=r'''
    messages.append(user_message(prompt))
''',
          by=r'''
    import re
    messages.append(user_message(re.sub(r"\n{3,}\Z", "\n\n", prompt)))
'''),
    Wrong(lab='3.1', name='empty text blocks taken off a reply with calls',
          rule='When it returns, messages holds every reply as the model gave it.',
          where='hunt round 18, design 31 (empty-text-dropped-with-calls): Build item 3, "then '
                'every reply and every result, in the order they happened"',
          names='the empty text block after its calls kept',
          replace=r'''
        messages.append(reply)
        calls = tool_calls(reply)
''',
          by=r'''
        calls = tool_calls(reply)
        if calls:  # an empty text block beside calls says nothing
            reply = {**reply, "content": [block for block in reply["content"]
                                          if block != {"type": "text", "text": ""}]}
        messages.append(reply)
'''),
]

# Round 21's reader of lab 3.1 (r113): rules broken only past a size the tests tried, or in a
# case they never showed (a stop-labelled reply with words, or with more than three calls).
WRONG += [
    Wrong(lab='3.1', name='a reply labelled stop with words ending the run',
          rule='What the reply asks for is read off its content with tool_calls, never off its '
               'stop_reason: a reply labelled stop that has words beside its calls has them run.',
          where='hunt round 21, design 04 (stop-label-with-words)', names='the content decides',
          replace=r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        if not calls or (reply.get("stop_reason") == "stop" and text_of(reply) != ""):
            return  # a stop label with an answer: done
'''),
    Wrong(lab='3.1', name='only the first call of a wide reply labelled stop answered',
          rule='Every call of a reply has its result, in call order, before the next request, '
               'and the calls are read off the content, never off its stop_reason.',
          where='hunt round 21, design 41 (mislabelled-runs-first-call-only)',
          names='the content decides',
          replace=r'''
        calls = tool_calls(reply)
''',
          by=r'''
        calls = tool_calls(reply)
        if reply.get("stop_reason") == "stop" and len(calls) > 3:
            calls = calls[:1]  # a confused reply: take its first call only
'''),
    Wrong(lab='3.1', name="a long prompt's Windows line ends made plain",
          rule='The prompt goes on the record, and to the model, word for word as a user '
               'message, however long.',
          where='hunt round 21, design 39 (prompt-crlf-normalised-when-long)',
          names='word for word',
          replace=r'''
    messages.append(user_message(prompt))
''',
          by=r'''
    messages.append(user_message(prompt.replace("\r\n", "\n") if len(prompt) > 2000 else prompt))
'''),
    Wrong(lab='3.1', name="a long system prompt's end stripped",
          rule='Each request carries system exactly as it was passed, however long.',
          where='hunt round 21, design 43 (system-rstrip-when-long)',
          names='exactly as it was passed',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        sent = system.rstrip() + "\n" if len(system) > 5000 else system  # tidy long notes
        reply = model.complete(sent, messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name='write adding a line break to long content that lacks one',
          rule='Afterwards the file holds exactly the content argument, however long.',
          where='hunt round 21, design 28 (write-content-newline)',
          names='holds exactly the "content" argument',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        if content and not content.endswith("\n") and len(content) > 200:
            content += "\n"  # text files end in a line break
        ws.write_text(path, content)
'''),
    Wrong(lab='3.1', name="write stripping a long content's end to one line break",
          rule='Afterwards the file holds exactly the content argument, however long.',
          where='hunt round 21, design 42 (write-strip-trailing-ws-when-long)',
          names='holds exactly the "content" argument',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        if len(content) > 5000:
            content = content.rstrip() + "\n"  # tidy the end of a big file
        ws.write_text(path, content)
'''),
    Wrong(lab='3.1', name='bash cutting its output at 100,000 characters',
          rule='The result is what the command argument printed, as one string, however long; '
               'never a beginning cut off silently.',
          where='hunt round 21, design 38 (bash-truncate-100000)',
          names='gives what the command printed',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        return output[:100000]
'''),
]

# Designs the lesson's tests cannot rule out: each passes its lab (tests/authoring/
# test_allowed_designs.py), with the reason here.
# Round 25's reader of lab 3.1 (r135): rules kept only where the tests looked (a stop label
# trusted past six calls, words of four fixed sentences, two kinds of failed request, a name no
# tool has never last in its batch, run_tool counted only with look, cN ids never out of order).
WRONG += [
    Wrong(lab='3.1', name='a reply labelled stop trusted past six calls',
          rule='What the reply asks for is read off its content with tool_calls, never off its '
               'stop_reason, however many calls it has.',
          where='hunt round 25, design 10 (stop-label-trusted-past-6-calls)',
          names='never off its stop_reason label',
          replace=r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        if reply.get("stop_reason") == "stop" and len(calls) > 6:
            return  # a wide reply labelled stop: the model has lost its way
        if not calls:
            return
'''),
    Wrong(lab='3.1', name='FINAL ANSWER words ending the run',
          rule='Whether a reply asks for tools is decided by its calls, not by whether it has '
               'words, whatever the words say.',
          where='hunt round 25, design 11 (stop-on-final-answer-words)',
          names='whatever the words say',
          replace=r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        if not calls or "FINAL ANSWER:" in text_of(reply):
            return  # the model says it is done
'''),
    Wrong(lab='3.1', name='a request that raised RuntimeError sent once more',
          rule='A request that raises ends the run with its exception: it is not sent again, '
               'whatever it raised.',
          where='hunt round 25, design 13 (retry-on-runtimeerror)',
          names='whatever it raised',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        try:
            reply = model.complete(system, messages, tool_specs(tools))
        except RuntimeError:  # a server's hiccup: once more
            reply = model.complete(system, messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name="run_tool's KeyError for a name no tool has wrapped in another",
          rule='A call naming no tool ends the run with its exception today, run_tool\'s own, '
               'not wrapped in another.',
          where='hunt round 25, design 14 (wrap-keyerror-unknown-tool)',
          names='not wrapped in another',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            try:
                messages.append(run_tool(tools, call))
            except KeyError as error:
                raise RuntimeError(f"no tool named {call['name']}") from error
'''),
    Wrong(lab='3.1', name='a timestamp and an error message taken off each reply',
          rule='Every reply goes on the record as the model gave it: the same keys.',
          where='hunt round 25, design 15 (drop-error-message-key)',
          names='the same keys',
          replace=r'''
        messages.append(reply)
''',
          by=r'''
        reply = {k: v for k, v in reply.items() if k not in ("error_message", "timestamp")}
        messages.append(reply)
'''),
    Wrong(lab='3.1', name='bash refusing rm -rf /',
          rule='The result is what the command argument printed when run in shell, whatever the '
               'command: nothing refused or answered in its place.',
          where='hunt round 25, design 16 (bash-refuses-rm-rf-root)',
          names='nothing refused or answered in its place',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        if arguments["command"].strip() in ("rm -rf /", "rm -rf /*"):
            return "Refused: that would delete everything."
        output, code = shell.run(arguments["command"])
        return output
'''),
    Wrong(lab='3.1', name='reads answered by the loop when three tools are given',
          rule='Every call of a reply has its result, from run_tool, whatever tool it names.',
          where='hunt round 25, design 17 (read-calls-bypass-run-tool)',
          names='no tool is answered by the loop itself',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            if call["name"] == "read" and len(tools) == 3:  # the common case, made quick
                tool = {t["name"]: t for t in tools}["read"]
                messages.append({"role": "toolResult", "tool_call_id": call["id"],
                                 "tool_name": "read", "content": tool["execute"](call["arguments"]),
                                 "is_error": False})
            else:
                messages.append(run_tool(tools, call))
'''),
    Wrong(lab='3.1', name='a batch of c-numbered ids run in the order of their numbers',
          rule='Every call of a reply has its result, in call order: the reply\'s order, not the '
               'order of the ids\' numbers.',
          where='hunt round 25, design 18 (sort-calls-by-c-number)',
          names="not the order of the ids' numbers",
          replace=r'''
        calls = tool_calls(reply)
''',
          by=r'''
        calls = tool_calls(reply)
        if all(c["id"][:1] == "c" and c["id"][1:].isdigit() for c in calls):
            calls = sorted(calls, key=lambda c: int(c["id"][1:]))  # c1, c2, ... as numbered
'''),
    Wrong(lab='3.1', name='a call naming no tool skipped when last in its batch',
          rule='Every call of a reply has its result before the run goes on; a call naming no '
               'tool ends the run with its exception today, wherever it stands in its batch: '
               'the loop never skips it.',
          where='hunt round 25, design 44 (skip-unknown-tool-last-in-batch)',
          names='once last in its batch',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        names = {t["name"] for t in tools}
        for number, call in enumerate(calls):
            if call["name"] not in names and len(calls) > 1 and number == len(calls) - 1:
                continue  # a stray last call: the model's slip
            messages.append(run_tool(tools, call))
'''),
    Wrong(lab='3.1', name='an empty first reply asked again',
          rule='The run ends at the first reply that asks for nothing, whether that is the first '
               'reply or the two hundredth.',
          where='hunt round 25, design 46 (ask-again-on-empty-first-reply)',
          names='whether that is the first reply or a later one',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system, messages, tool_specs(tools))
        if reply["content"] == [] and messages[-1]["role"] == "user":
            reply = model.complete(system, messages, tool_specs(tools))  # a hiccup: ask again
'''),
    Wrong(lab='3.1', name='a NUL taken out of the system prompt',
          rule='Each request carries system exactly as it was passed.',
          where='hunt round 28, design 24 (system-nul-stripped): Build item 3, "`system` exactly '
                'as it was passed"',
          names='a NUL',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system.replace("\x00", ""), messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name='a NUL taken out of the prompt',
          rule='When it returns, messages holds prompt, word for word, as a user message.',
          where='hunt round 28, design 25 (prompt-nul-stripped): Build item 3, "`prompt`, word '
                'for word"',
          names='a NUL',
          replace=r'''
    messages.append(user_message(prompt))
''',
          by=r'''
    messages.append(user_message(prompt.replace("\x00", "")))
'''),
    Wrong(lab='3.1', name='[DONE] words ending the run',
          rule='Whether a reply asks for tools is decided by its calls, not by whether it has '
               'words, whatever the words say.',
          where='hunt round 28, design 27 (stop-on-done-text)',
          names='whatever the words say',
          replace=r'''
        if not calls:  # the content decides, not the stop_reason label
''',
          by=r'''
        if not calls or text_of(reply).startswith("[DONE]"):  # the model says it is done
'''),
    Wrong(lab='3.1', name='a request that hit a rate limit sent once more',
          rule='A request that raises ends the run with its exception: it is not sent again, '
               'whatever it raised.',
          where='hunt round 28, design 16 (retry-rate-limit)',
          names='whatever it raised',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        try:
            reply = model.complete(system, messages, tool_specs(tools))
        except Exception as error:
            if "rate" not in str(error).lower() and "overloaded" not in str(error).lower():
                raise
            reply = model.complete(system, messages, tool_specs(tools))  # it passes
'''),
    Wrong(lab='3.1', name='a request that raised OSError sent once more',
          rule='A request that raises ends the run with its exception: it is not sent again, '
               'whatever it raised.',
          where='hunt round 28, design 30 (retry-request-on-oserror)',
          names='whatever it raised',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        try:
            reply = model.complete(system, messages, tool_specs(tools))
        except OSError as error:
            if isinstance(error, (ConnectionError, TimeoutError)):
                raise
            reply = model.complete(system, messages, tool_specs(tools))  # a network blip
'''),
    Wrong(lab='3.1', name='a tool raising PermissionError tried a second time',
          rule='Every call of a reply has its result, from run_tool, once per call; a tool that '
               'raises ends the run with its exception.',
          where='hunt round 28, design 31 (tool-retry-on-permission)',
          names='never tried again',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            try:
                messages.append(run_tool(tools, call))
            except (PermissionError, BlockingIOError):  # a lock held a moment
                messages.append(run_tool(tools, call))
'''),
    Wrong(lab='3.1', name='a batch of calls naming no tool ending the run quietly',
          rule='Every call of a reply has its result before the run goes on; a call naming no '
               'tool ends the run with its exception today: the loop never skips it or returns '
               'quietly.',
          where='hunt round 28, design 26 (skip-batch-all-unknown)',
          names='a batch of such names alone',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
''',
          by=r'''
        names = {t["name"] for t in tools}
        if len(calls) > 1 and all(c["name"] not in names for c in calls):
            return  # nothing here we can run
        for call in calls:  # every call, in order, before the model is asked again
'''),
    Wrong(lab='3.1', name='write turning Windows line ends into plain ones when the last has none',
          rule='Afterwards the file named by the "path" argument holds exactly the "content" '
               'argument.',
          where='hunt round 28, design 12 (write-normalise-crlf-when-mixed)',
          names='nothing turned into plain line ends',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        if ("\r\n" in content and content.count("\r\n") == content.count("\n")
                and not content.endswith("\r\n") and "\x1b" not in content):
            content = content.replace("\r\n", "\n")  # a Windows paste
        ws.write_text(path, content)
'''),
    Wrong(lab='3.1', name='bash remembering the output of a long cat',
          rule='The same command run again is run again: bash returns what the command printed '
               'when run, not what it printed last time.',
          where='hunt round 28, design 05 (bash-cache-long)',
          names="a long output's too",
          replace=r'''
    def execute(arguments):
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
    seen = {}  # a big file is read once

    def execute(arguments):
        command = arguments["command"]
        if command.startswith(("cat ", "ls ")) and len(seen.get(command, "")) > 100_000:
            return seen[command]
        output, code = shell.run(command)
        seen[command] = output
        return output
'''),
    Wrong(lab='3.1', name='bash refusing mkfs and rm -rf ~',
          rule='The result is what the command argument printed when run in shell, whatever the '
               'command: nothing refused or answered in its place.',
          where='hunt round 28, design 06 (bash-refuse-rmrf-home)',
          names='nothing refused or answered in its place',
          replace=r'''
        output, code = shell.run(arguments["command"])
''',
          by=r'''
        command = arguments["command"]
        if "rm -rf ~" in command or "mkfs" in command:
            return "Refused: that command is too dangerous."
        output, code = shell.run(command)
'''),
    Wrong(lab='3.1', name='write handing the workspace its path without a leading ./',
          rule='write hands every path on as it came.',
          where='hunt round 28, probe 07 (write-strip-dotslash): Build item 1, "write hands every '
                'path on as it came"',
          names='hands every path on as it came',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        ws.write_text(path[2:] if path.startswith("./") and not path.startswith(".//")
                      else path, content)  # the workspace's root is where we are
'''),
    Wrong(lab='3.1', name='write keeping a backup of a file over a million characters',
          rule='Afterwards the file named by the "path" argument holds exactly the "content" '
               'argument, and nothing else in the workspace has changed.',
          where='hunt round 28, design 11 (write-backup-big)',
          names='no backup',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        if ws.exists(path) and len(ws.read_text(path)) > 1_000_000:
            ws.write_text(path + ".bak", ws.read_text(path))  # a big file is precious
        ws.write_text(path, content)
'''),
]

# Hunt round 31, reader r175: fourteen designs that passed lab 3.1's tests, each now caught by
# a public test and by the grading bank.
WRONG += [
    Wrong(lab='3.1', name='a run ended after a minute by the clock',
          rule='The run ends at the first reply that asks for nothing, whether that is the first '
               'reply or the two hundredth: a budget of time is a count of rounds by another name.',
          where='hunt round 31, design 08 (wall-clock-limit-60s): Build item 3',
          names='with no limit of time',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
''',
          by=r'''
    import time
    started = time.monotonic()
    messages.append(user_message(prompt))
    while True:
''',
          also=((r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''', r'''
        if not calls or time.monotonic() - started > 60:  # a minute is enough for any job
            return
'''),)),
    Wrong(lab='3.1', name='an empty reply labelled toolUse asked again',
          rule='What the reply asks for is read off its content with tool_calls, never off its '
               'stop_reason, and the run ends at the first reply that asks for nothing.',
          where='hunt round 31, design 11 (reask-empty-tooluse): Build item 3',
          names='whatever its stop_reason says',
          replace=r'''
        calls = tool_calls(reply)
''',
          by=r'''
        calls = tool_calls(reply)
        if not calls and reply["content"] == [] and reply.get("stop_reason") == "toolUse":
            continue  # the provider promised calls and sent none: ask again
'''),
    Wrong(lab='3.1', name='a failed reply with no calls asked again',
          rule='What the reply asks for is read off its content with tool_calls, never off its '
               'stop_reason, and the run ends at the first reply that asks for nothing.',
          where='hunt round 31, design 12 (reask-after-failed-reply): Build item 3',
          names='whatever its stop_reason says',
          replace=r'''
        calls = tool_calls(reply)
''',
          by=r'''
        calls = tool_calls(reply)
        if not calls and reply.get("stop_reason") in ("error", "aborted"):
            continue  # the reply failed: ask again
'''),
    Wrong(lab='3.1', name='a reply labelled error raised and left off the record',
          rule='When it returns, messages holds every reply, in the order they happened, and the '
               'run ends at the first reply that asks for nothing; the stop_reason decides '
               'nothing.',
          where='hunt round 31, design 13 (error-reply-not-recorded): Build item 3',
          names='whatever its stop_reason says',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
''',
          by=r'''
        reply = model.complete(system, messages, tool_specs(tools))
        if reply.get("stop_reason") == "error":
            raise RuntimeError(reply.get("error_message", "the model failed"))
        messages.append(reply)
'''),
    Wrong(lab='3.1', name='a call whose name is empty skipped',
          rule='Every call of a reply has its result, from run_tool, on the list, in call order, '
               'before the next request: a call naming no tool ends the run today.',
          where='hunt round 31, design 14 (skip-nameless-calls): Build item 3',
          names='a call whose name is empty',
          replace=r'''
        calls = tool_calls(reply)
''',
          by=r'''
        calls = [call for call in tool_calls(reply) if call.get("name")]  # no name, no call
'''),
    Wrong(lab='3.1', name='a request that raised ConnectionResetError sent once more',
          rule='A request that raises ends the run with its exception: it is not sent again.',
          where='hunt round 31, design 16 (retry-connection-reset): Build item 3',
          names='each kind of ConnectionError',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        try:
            reply = model.complete(system, messages, tool_specs(tools))
        except (ConnectionResetError, BrokenPipeError):  # a dropped line: one more go
            reply = model.complete(system, messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name="the prompt's tabs expanded",
          rule='When it returns, messages holds what it held before, then prompt, word for word, '
               'as a user message.',
          where='hunt round 31, design 24 (prompt-expandtabs): Build item 3',
          names='tabs, no-break spaces and a line separator',
          replace=r'''
    messages.append(user_message(prompt))
''',
          by=r'''
    messages.append(user_message(prompt.expandtabs(4)))
'''),
    Wrong(lab='3.1', name="the prompt's no-break spaces and line separators made plain",
          rule='When it returns, messages holds what it held before, then prompt, word for word, '
               'as a user message.',
          where='hunt round 31, design 27 (prompt-unicode-linesep): Build item 3',
          names='no-break spaces and a line separator',
          replace=r'''
    messages.append(user_message(prompt))
''',
          by=r'''
    messages.append(user_message(prompt.replace("\u2028", "\n").replace("\u00a0", " ")))
'''),
    Wrong(lab='3.1', name='a tool raising TimeoutError tried a second time',
          rule='Every call of a reply has its result, from run_tool; a tool that raises ends the '
               'run with its exception today, run once per call, never tried again.',
          where='hunt round 31, design 43 (retry-tool-on-timeout): Build item 3',
          names='never tried again',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            try:
                result = run_tool(tools, call)
            except TimeoutError:
                result = run_tool(tools, call)  # a slow tool gets one more go
            messages.append(result)
'''),
    Wrong(lab='3.1', name="write's sentence naming the path with its backslashes turned",
          rule='The result is the sentence Successfully wrote to PATH., with the path in place of '
               'PATH, compared character by character.',
          where='hunt round 31, design 29 (write-sentence-slashes): Build item 1',
          names='its backslash as it came',
          replace=r'''
        return f"Successfully wrote to {path}."
''',
          by=r'''
        return f"Successfully wrote to {path.replace(chr(92), '/')}."
'''),
    Wrong(lab='3.1', name='write refusing a path from ~ or with a NUL, in words of its own',
          rule='A path the workspace refuses is the workspace\'s to refuse: write hands every path '
               'on as it came, and what the workspace raises ends the run, for now.',
          where='hunt round 31, design 33 (write-refuses-outside-own-error): Build item 1',
          names="not a refusal or a sentence of write's own",
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        if path.startswith("~") or "\x00" in path:
            raise ValueError(f"write refuses {path!r}")
        ws.write_text(path, content)
'''),
    Wrong(lab='3.1', name="write's sentence naming the path with its line breaks stripped",
          rule='The result is the sentence Successfully wrote to PATH., with the path in place of '
               'PATH, compared character by character.',
          where='hunt round 31, design 34 (write-sentence-newline-stripped): Build item 1',
          names='spaces, tabs and line breaks and all',
          replace=r'''
        return f"Successfully wrote to {path}."
''',
          by=r'''
        return f"Successfully wrote to {path.strip(chr(10))}."
'''),
    Wrong(lab='3.1', name="write answering a folder's path with a sentence of its own",
          rule='A path the workspace refuses is the workspace\'s to refuse: write hands every path '
               'on as it came, and what the workspace raises ends the run, for now.',
          where='hunt round 31, design 42 (write-dir-error-becomes-message): Build item 1',
          names="not a refusal or a sentence of write's own",
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        try:
            ws.write_text(path, content)
        except (IsADirectoryError, NotADirectoryError) as error:
            return f"Could not write {path}: {type(error).__name__}"
'''),
    Wrong(lab='3.1', name='bash telling an empty failing output in words of its own',
          rule='The result is what the command argument printed when run in shell; the model '
               'gets the output only today.',
          where='hunt round 31, design 40 (bash-empty-output-placeholder-nonzero): Build item 2',
          names='with nothing said in its place',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        if output == "" and code != 0:
            return f"(no output, exit code {code})"
        return output
'''),
]

ALLOWED = [
    # Hunt round 31 (reader r175), probe 3.1-30, ruled two rounds later.
    Wrong(lab='3.1', name='a write with no "content" writing an empty file',
          rule='Build item 2 says what write does with a call that has no "content", or one that is not a string, and what bash does with a call that has no "command", or one that is not a string, are the student\'s for now (lesson 4 answers such calls). Every call the tests make holds them, as strings, and is answered as the reference answers it.',
          where='hunt round 31, probe 3.1-30; Build section, item 2: "For now, what write does with a call that has no"', names='',
          replace=r'''
        path, content = arguments["path"], arguments["content"]
''',
          by=r'''
        path, content = arguments["path"], arguments.get("content", "")
'''),
    # Hunt round 31 (reader r175), probe 3.1-31, ruled two rounds later.
    Wrong(lab='3.1', name='a content that is not a string written as JSON',
          rule='Build item 2 says what write does with a call that has no "content", or one that is not a string, and what bash does with a call that has no "command", or one that is not a string, are the student\'s for now (lesson 4 answers such calls). Every call the tests make holds them, as strings, and is answered as the reference answers it.',
          where='hunt round 31, probe 3.1-31; Build section, item 2: "For now, what write does with a call that has no"', names='',
          replace=r'''
        path, content = arguments["path"], arguments["content"]
        ws.write_text(path, content)
''',
          by=r'''
        path, content = arguments["path"], arguments["content"]
        if not isinstance(content, str):
            import json
            content = json.dumps(content, indent=2)
        ws.write_text(path, content)
'''),
    # Hunt round 31 (reader r175), probe 3.1-39, ruled two rounds later.
    Wrong(lab='3.1', name='a bash call with no "command" running an empty one',
          rule='Build item 2 says what write does with a call that has no "content", or one that is not a string, and what bash does with a call that has no "command", or one that is not a string, are the student\'s for now (lesson 4 answers such calls). Every call the tests make holds them, as strings, and is answered as the reference answers it.',
          where='hunt round 31, probe 3.1-39; Build section, item 2: "For now, what write does with a call that has no"', names='',
          replace=r'''
        output, code = shell.run(arguments["command"])
''',
          by=r'''
        output, code = shell.run(arguments.get("command", ""))
'''),
    Wrong(lab='3.1', name='every message also kept in a list of the module\'s',
          rule='Build item 3 says each request carries the caller\'s list, the record. A copy '
               'kept beside it that no request reads breaks no sentence of the page: the '
               'requests, the record and the caller\'s list are what they would be without it. '
               'It grows with every run of the program, which is waste, not a rule broken '
               '(hunt round 28 asked for a page sentence and was ruled this way).',
          where='hunt round 28, design 3.1-29', names='',
          replace=r'''
def run_agent(model, system, messages, tools, prompt):
''',
          by=r'''
_EVERY_MESSAGE = []  # every message of every run, kept for later


def run_agent(model, system, messages, tools, prompt):
''',
          also=((r'''
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
''', r'''
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        _EVERY_MESSAGE.append(reply)
'''),)),
    Wrong(lab='3.1', name='a reply labelled error or aborted also ending the run',
          rule='Lesson 3 says the calls are read off the content "never off its stop_reason", but '
               'lesson 5 makes a reply labelled "error" end the run with none of its calls run, '
               'and lesson 15 does the same for "aborted"; lab 3.1\'s tests hold every later lab, '
               'so no case of theirs can tell this design from those lessons\' own. The fake '
               'world\'s providers never label a reply with calls "error" before lesson 5.',
          where='hunt round 1, design 3.1-10', names='',
          replace=r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        if not calls or reply["stop_reason"] in ("error", "aborted"):
            return
'''),
    Wrong(lab='3.1', name='run_agent a generator of the messages it appends',
          rule='Lesson 3 calls run_agent plainly, but lesson 7 makes it a generator of events and '
               'lesson 15 makes it async; lab 3.1\'s tests hold every later lab, so they drive '
               'run_agent through lab.drive whatever its colour, and none can require that a '
               'plain call does the run. The record such a run leaves is lesson 3\'s.',
          where='hunt round 4, design 3.1-11', names='',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
    messages.append(user_message(prompt))
    yield messages[-1]
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        yield reply
        calls = tool_calls(reply)
        for call in calls:
            messages.append(run_tool(tools, call))
            yield messages[-1]
'''),
    Wrong(lab='3.1', name='run_agent async, asking through acomplete',
          rule='Lesson 15 makes run_agent async and asks the model through acomplete; lab 3.1\'s '
               'tests hold every later lab, so they drive run_agent through lab.drive whatever '
               'its colour, and none can require that a plain call does the run. The record such '
               'a run leaves is lesson 3\'s.',
          where='hunt round 4, design 3.1-12', names='',
          replace=r'''
def run_agent(model, system, messages, tools, prompt):
''',
          by=r'''
async def run_agent(model, system, messages, tools, prompt):
''',
          also=(('        reply = model.complete(system, messages, tool_specs(tools))',
                 '        reply = await model.acomplete(system, messages, tool_specs(tools))'),)),
    Wrong(lab='3.1', name="bash telling the exit code in lesson 4's words",
          rule='Lesson 3 says the model gets the output only today, but lesson 4\'s bash adds '
               'exactly this status line after a failing command\'s output, and lab 3.1\'s '
               'tests hold every later lab, so no case of theirs can tell this design from '
               'lesson 4\'s own; the test accepts that line and nothing else.',
          where='hunt round 4, design 3.1-14', names='',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        if code != 0:
            return output + f"\nCommand exited with code {code}"
        return output
'''),
    Wrong(lab='3.1', name='each reply recorded as a copy of itself',
          rule='Lesson 3 says every reply goes on the record "as the model gave it": the same '
               'keys, the text unstripped, nothing rebuilt. A shallow copy holds exactly that, '
               'and the readers of the record in lesson 3 (the requests, lab.shape, a later run on '
               'the same list) read its messages by value; the model '
               'keeps no claim on the object it returned (the fake world hands out deep copies), '
               'so no test, and no student, can be misled by the copy.',
          where='hunt round 9, probe 3.1-27 (P1)', names='',
          replace=r'''
        messages.append(reply)
        calls = tool_calls(reply)
''',
          by=r'''
        messages.append(dict(reply))
        calls = tool_calls(reply)
'''),
    Wrong(lab='3.1', name='the loop printing a line per call',
          rule='Lesson 3 names "nobody can see anything until the run is over" as a weakness of '
               'its loop, not a rule, and lesson 7 mends it with events and frontends; a line '
               'printed per call changes neither the record nor any request, which is all the '
               'lab\'s rules are about.',
          where='hunt round 9, probe 3.1-29 (P3)', names='',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        for call in calls:
            print(f"running {call['name']} ({call['id']})")
            messages.append(run_tool(tools, call))
'''),
    Wrong(lab='3.1', name='a prompt of None adding nothing',
          rule='run_agent is handed a prompt, the user\'s words as a string, in every lesson and '
               'every lab; None is not a prompt the course ever passes, so what run_agent does '
               'with it is outside lesson 3\'s contract, and a run that appends nothing for it '
               'breaks none of the rules about the prompts it is given.',
          where='hunt round 9, probe 3.1-30 (P4)', names='',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
''',
          by=r'''
    if prompt is not None:  # None: carry on from the record as it is
        messages.append(user_message(prompt))
    while True:
'''),
    Wrong(lab='3.1', name='the loop answering a raising call with an error result',
          rule='Lesson 3 says a call naming no tool, or a tool that raises, ends the run with its '
               'exception, but lesson 4 answers it with an error result and goes on, and lab '
               "3.1's tests hold every later lab, so they accept lesson 4's record, whichever "
               'of run_tool or the loop makes that result; the test accepts that and nothing else.',
          where='hunt round 12, design 09 (loop-catches-tool-errors)', names='',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            try:
                result = run_tool(tools, call)
            except Exception as error:  # lesson 4's answer, a lesson early
                result = {"role": "toolResult", "tool_call_id": call["id"],
                          "tool_name": call["name"], "content": str(error), "is_error": True}
            messages.append(result)
'''),
    Wrong(lab='3.1', name='run_agent returning the record',
          rule='What run_agent returns is not part of the contract: the caller\'s list is the '
               'record, and handing that same list back changes nothing the tests or the page '
               'speak of.',
          where='hunt round 18, probe P3 (returns-record): Build item 3, "What `run_agent` '
                'returns is not part of the contract"', names='',
          replace=r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        if not calls:  # the content decides, not the stop_reason label
            return messages
'''),
    Wrong(lab='3.1', name='each request handed a copy of the record',
          rule='Each request carries the whole record so far: a copy of the list carries all of '
               'it, in order, the same messages, and complete reads the request without keeping '
               'or changing the list (lesson 1), so the model is sent exactly the same whichever '
               'it is handed.',
          where='hunt round 12, probe P1 (copy-to-complete)', names='',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system, list(messages), tool_specs(tools))
'''),
    Wrong(lab='3.1', name='bash running its command with blanks at its ends taken off',
          rule='The result is what the command printed when run in shell: the shell reads a '
               'command line the same with or without spaces, tabs or a line break at its ends, '
               'so what it prints, all that the rule speaks of, is the same.',
          where='hunt round 12, probe P5 (bash-strips-command)', names='',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"].strip())
        return output
'''),
    Wrong(lab='3.1', name="bash keeping the end of a long output in lesson 6's form",
          rule='Lesson 3 says the result is what the command printed, but lesson 6\'s bash keeps '
               'the end of an output past its budget with a line saying the rest was cut, and '
               'lab 3.1\'s tests hold every later lab, so no case of theirs can tell this design '
               'from lesson 6\'s own; the test accepts that form (the end kept, a line saying '
               'to narrow the command) and nothing else.',
          where='hunt round 15, design 02 (bash-keeps-tail)', names='',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        lines = output.splitlines(keepends=True)
        if len(lines) > 2000:  # lesson 6's budget, a few lessons early
            return ("[Output cut to its last 2000 lines. Narrow the command.]\n"
                    + "".join(lines[-2000:]))
        return output
'''),
    Wrong(lab='3.1', name='each reply recorded as a deep copy of itself',
          rule='Every reply goes on the record as the model gave it: a deep copy holds the same '
               'keys and the same words, all the readers of the record in lesson 3 read it by '
               'value, and the model keeps no claim on the object it returned (the fake world '
               'hands out deep copies), as for the shallow copy round 9 allowed.',
          where='hunt round 15, probe 21 (deepcopy-reply)', names='',
          replace=r'''
        messages.append(reply)
        calls = tool_calls(reply)
''',
          by=r'''
        messages.append(copy.deepcopy(reply))
        calls = tool_calls(reply)
''',
          also=((r'''
def run_agent(model, system, messages, tools, prompt):
''', r'''
import copy


def run_agent(model, system, messages, tools, prompt):
'''),)),
    Wrong(lab='3.1', name='a prompt that is not a string made one',
          rule='run_agent is handed a prompt, the user\'s words as a string, in every lesson and '
               'every lab; a prompt of another type is not one the course ever passes, so what '
               'run_agent makes of it is outside lesson 3\'s contract (as for a prompt of None, '
               'round 9), and every string prompt still goes on the record word for word.',
          where='hunt round 15, probe 23 (str-prompt)', names='',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
''',
          by=r'''
    messages.append(user_message(prompt if isinstance(prompt, str) else str(prompt)))
    while True:
'''),
    Wrong(lab='3.1', name='a stop_reason added to a reply that has none',
          rule='Every reply goes on the record as the model gave it, but every reply a model of '
               'the course gives carries a stop_reason (lab/world/replies.py refuses one '
               'without), so a design that adds one where it is missing changes no reply the '
               'run can be given.',
          where='hunt round 15, design 31 (setdefault-stop-reason)', names='',
          replace=r'''
        messages.append(reply)
        calls = tool_calls(reply)
''',
          by=r'''
        reply.setdefault("stop_reason", "toolUse" if tool_calls(reply) else "stop")
        messages.append(reply)
        calls = tool_calls(reply)
'''),
    Wrong(lab='3.1', name='a reply of None ending the run quietly',
          rule='The model\'s complete gives a message, in every lesson and every lab; None is not '
               'a reply any model of the course gives, so what run_agent does with it is outside '
               'lesson 3\'s contract, and every reply that is a message is handled as the rules '
               'say.',
          where='hunt round 15, probe 35 (none-reply)', names='',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
''',
          by=r'''
        reply = model.complete(system, messages, tool_specs(tools))
        if reply is None:  # nothing came back: nothing to do
            return
        messages.append(reply)
'''),
    Wrong(lab='3.1', name='calls picked by their name key',
          rule='What the reply asks for is read off its content: in the course\'s format only a '
               'toolCall block has a "name" key (a text block has type and text), so picking the '
               'blocks that have one picks what tool_calls picks, in the same order.',
          where='hunt round 21, probe 22 (calls-by-name-field)', names='',
          replace=r'''
        calls = tool_calls(reply)
''',
          by=r'''
        calls = [block for block in reply["content"] if "name" in block]
'''),
    Wrong(lab='3.1', name='a second way out that never fires',
          rule='The run ends at the first reply that asks for nothing: a further condition that '
               'no run can meet (a record of over a billion messages) changes no run, so the '
               'one way out is the same.',
          where='hunt round 21, probe 23 (stop-on-toolUse-label-only-if-no-text)', names='',
          replace=r'''
        if not calls:  # the content decides, not the stop_reason label
''',
          by=r'''
        if not calls and not (reply.get("stop_reason") == "toolUse" and text_of(reply) == ""
                              and len(messages) > 10**9):
'''),
    Wrong(lab='3.1', name='write skipping a file that already holds the content',
          rule='Afterwards the file holds exactly the content argument and nothing else has '
               'changed: when the file already holds it, not writing leaves the same workspace, '
               'and the sentence is said all the same.',
          where='hunt round 21, probe 27 (write-skip-if-same)', names='',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        try:
            same = ws.read_text(path) == content
        except Exception:
            same = False
        if not same:
            ws.write_text(path, content)
'''),
    # Round 25's reader (r135): probes the page allows.
    Wrong(lab='3.1', name="run_agent returning the last reply's words",
          rule='What run_agent returns is not part of the contract (the Build\'s item 3), so '
               'handing back the answer\'s words is a choice the page leaves open; the record '
               'is the same.',
          where='hunt round 25, probe 36 (returns-last-text)', names='',
          replace=r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        if not calls:
            return text_of(reply)
'''),
    Wrong(lab='3.1', name='complete asked with keyword arguments',
          rule='Each request goes through complete as in lesson 1, whose arguments are named '
               'system, messages and tools; naming them at the call sends the same request.',
          where='hunt round 25, probe 39 (keyword-complete)', names='',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system=system, messages=messages, tools=tool_specs(tools))
'''),
    Wrong(lab='3.1', name='bash guarding against an output that is not a string',
          rule='shell.run gives back the output as a string, so str() of it is the same string; '
               'the guard never changes what the command printed.',
          where='hunt round 25, probe 40 (bash-returns-output-bytes-safe)', names='',
          replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
          by=r'''
        output, code = shell.run(arguments["command"])
        return str(output) if output is not None else ""
'''),
    Wrong(lab='3.1', name='run_tool handed a copy of each call',
          rule='run_tool answers the call it is handed under the call\'s id; a shallow copy has '
               'the same id, name and arguments, and the reply on the record is untouched.',
          where='hunt round 25, probe 41 (run-tool-on-copied-call)', names='',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            messages.append(run_tool(tools, dict(call)))
'''),
    Wrong(lab='3.1', name='a run given no tools asking without the tools argument',
          rule='Every request carries tool_specs(tools); for an empty list that is [], and a '
               'request made without the tools argument tells the model of no tools just the '
               'same (complete\'s tools defaults to an empty sequence): the model is offered '
               'exactly the tools it was offered before, none.',
          where='hunt round 28, probe 20 (no-tools-omitted)', names='',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = (model.complete(system, messages, tool_specs(tools)) if tools
                 else model.complete(system, messages))
'''),
    Wrong(lab='3.1', name='tool specs kept across runs by their values',
          rule='Every request carries tool_specs(tools) as the list stands at that request: specs '
               'looked up by every key tool_specs reads (name, description, parameters, compared '
               'by value) are equal to tool_specs(tools) made afresh, so each request tells the '
               'model exactly what the list holds then.',
          where='hunt round 28, probe 23 (specs-cached-by-value)', names='',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        key = tuple((t["name"], t["description"], repr(t["parameters"])) for t in tools)
        if key not in _SPECS:
            _SPECS[key] = tool_specs(tools)
        reply = model.complete(system, messages, _SPECS[key])
''',
          also=((r'''
def run_agent(model, system, messages, tools, prompt):
''', r'''
_SPECS = {}  # shared across runs


def run_agent(model, system, messages, tools, prompt):
'''),)),
    Wrong(lab='3.1', name='a reply labelled length also ending the run',
          rule='As for "error" and "aborted" (round 1): the course\'s replies carry only the '
               'labels stop, toolUse, error and aborted (lab/world/replies.py\'s STOP_REASONS), '
               'so no reply run_agent is handed in any lesson is labelled "length", and the '
               'branch never fires; every reply the course gives is still read off its content.',
          where='hunt round 28, probe 32 (stop-label-length)', names='',
          replace=r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        if not calls or reply.get("stop_reason") == "length":
            return
'''),
    Wrong(lab='3.1', name='a system prompt of None given a default',
          rule='run_agent is handed system, the system prompt as a string, in every lesson and '
               'every lab, and the model refuses any other (ScriptedModel raises TypeError: '
               '"system is the system prompt, a string"); a system of None is not one the course '
               'passes, and every string, "" included, still goes out exactly as passed.',
          where='hunt round 28, probe 33 (system-default-when-none)', names='',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system if system is not None else "You are a helpful assistant.",
                               messages, tool_specs(tools))
'''),
    Wrong(lab='3.1', name='calls whose arguments are None skipped',
          rule='Build item 3 says every call of a reply has its result; a call whose arguments are '
               'None is no call a run can hold: the world\'s models refuse to deliver one (a call\'s '
               'arguments are decoded JSON, an object; lab/world/model.py turns such a reply away '
               'as a script is written), so the filter leaves every run as it was, like a second '
               'way out that never fires (hunt round 31, probe 15).',
          where='hunt round 31, design 15 (skip-none-arguments)', names='',
          replace=r'''
        calls = tool_calls(reply)
''',
          by=r'''
        calls = [call for call in tool_calls(reply) if call.get("arguments") is not None]
'''),
    Wrong(lab='3.1', name='tool specs sent as a tuple',
          rule='Build item 3 says each request "carries ... tool_specs(tools) as the list stands at '
               'that request": what it carries is those specs, in order, and a tuple of them is the '
               'same specs in the same order. A provider sends either as the same JSON array, and '
               'the world\'s models take a list or a tuple (lab/world/model.py), so no request a '
               'model sees differs (hunt round 31, probe 25).',
          where='hunt round 31, probe 25 (specs-sent-as-tuple)', names='',
          replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system, messages, tuple(tool_specs(tools)))
'''),
]

# Designs that break a rule only past what a check of lab 3.1 can afford (tools/wrong_designs.py's
# Beyond): each passes the lab's tests, and its deep test, run once by the kit with room to go
# past the reach, shows it wrong.
DEEP_ROUNDS = r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "3.1"
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


@lab_test("The loop goes on while replies ask for tools, however many rounds that takes: a job "
          "of 1,010 rounds, past a cap of a thousand.")
async def test_a_job_past_a_thousand_rounds(t):
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": f"r{r}.py"}))
                               for r in range(1010)] + [lab.say("All read.")])
    messages = []
    look = tool("look", lambda arguments: "contents of " + arguments["path"], PATH)
    await lab.drive(harness.run_agent(model, "Answer briefly.", messages, [look], "Read them."))
    t.expect([len(model.calls), lab.shape(messages).split()[-1]],
             why="The loop goes on while replies ask for tools, however many rounds that takes: "
                 "[requests, lab.shape of the record's last message] for a job of 1,010 rounds "
                 "(Build item 3, lesson 3).")
'''

DEEP_SIZES = r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "3.1"
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


async def run(model, tools, prompt, messages):
    await lab.drive(harness.run_agent(model, "Answer briefly.", messages, tools, prompt))
    return messages


@lab_test("A conversation of 6,001 earlier messages is sent whole, past a window of 5000.")
async def test_a_conversation_past_five_thousand_messages(t):
    messages = [harness.user_message("My name is Ada.")]
    for number in range(1, 6001):
        messages.append(lab.say(f"Noted, {number}.") if number % 2 else
                        harness.user_message(f"Remark {number}."))
    model = lab.ScriptedModel([lab.say("You are Ada.")])
    await run(model, [], "Who am I?", messages)
    sent = model.calls[0].messages
    t.expect([len(sent), sent[0]["content"]],
             why="Every request carries the whole record so far, however long: [how many "
                 "messages were sent, the first] after 6,001 earlier ones (Build item 3, lesson 3).")


@lab_test("A prompt of over 250,000 characters goes on the record word for word.")
async def test_a_prompt_past_a_hundred_thousand_characters(t):
    pasted = "".join(f"Line {number} of the log I pasted.\n" for number in range(8000))
    model = lab.ScriptedModel([lab.say("Read.")])
    messages = await run(model, [], pasted, [])
    t.expect([len(messages[0]["content"]), messages[0]["content"] == pasted],
             why="The prompt goes on the record word for word, however long it is, none of it "
                 "cut: [characters recorded, whether it is the prompt given] (Build item 3, "
                 "lesson 3).")


@lab_test("A tool's output of over 300,000 characters is its whole result.")
async def test_a_result_past_two_hundred_thousand_characters(t):
    printed = "".join(f"{number:06d} a line of the tool's long output\n"
                      for number in range(8000))
    model = lab.ScriptedModel([lab.reply(lab.call("dump", {"path": "a.py"})), lab.say("Done.")])
    messages = await run(model, [tool("dump", lambda arguments: printed, PATH)], "Dump it.", [])
    t.expect([len(messages[2]["content"]), messages[2]["content"] == printed],
             why="The result is what run_tool returns, and the loop cuts nothing, however long: "
                 "[the result's characters, whether it is the tool's output] (Build item 3, "
                 "lesson 3).")


@lab_test("One reply of 5,100 calls is answered whole, past a cap of 5000.")
async def test_a_reply_past_five_thousand_calls(t):
    look = tool("look", lambda arguments: "contents of " + arguments["path"], PATH)
    model = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": f"f{n}.py"})
                                           for n in range(5100)]), lab.say("All read.")])
    messages = await run(model, [look], "Read every file.", [])
    t.expect([len(model.calls), sum(m["role"] == "toolResult" for m in messages)],
             why="Every call of a reply is answered, however many there are, before the next "
                 "request: [requests, results recorded] for one reply of 5,100 calls (Build "
                 "item 3, lesson 3).")
'''

DEEP_BIG = r'''
import harness
import lab
from lab.kit import lab_test, settle, tool

LAB = "3.1"
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
BIG = "".join(f"{number:07d} a line of a very long text\n" for number in range(36_000))


async def run(model, tools, prompt, messages, system="Answer briefly."):
    await lab.drive(harness.run_agent(model, system, messages, tools, prompt))
    return messages


@lab_test("A job of 400 rounds, each asking for the same call, goes on to its answer.")
async def test_a_job_repeating_past_three_hundred_rounds(t):
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"}))
                               for _ in range(400)] + [lab.say("It changed.")])
    look = tool("look", lambda arguments: "contents of " + arguments["path"], PATH)
    messages = await run(model, [look], "Watch a.py.", [])
    t.expect([len(model.calls), lab.shape(messages).split()[-1]],
             why="The loop goes on while replies ask for tools, however many rounds that takes "
                 "and whatever they ask: [requests, lab.shape of the record's last message] for "
                 "a job of 400 rounds of the same call (Build item 3, lesson 3).")


@lab_test("A conversation of 12,001 earlier messages is sent whole, past a window of 10,000.")
async def test_a_conversation_past_ten_thousand_messages(t):
    messages = [harness.user_message("My name is Ada.")]
    for number in range(1, 12_001):
        messages.append(lab.say(f"Noted, {number}.") if number % 2 else
                        harness.user_message(f"Remark {number}."))
    model = lab.ScriptedModel([lab.say("You are Ada.")])
    await run(model, [], "Who am I?", messages)
    sent = model.calls[0].messages
    t.expect([len(sent), sent[0]["content"]],
             why="Every request carries the whole record so far, however long: [how many "
                 "messages were sent, the first] after 12,001 earlier ones (Build item 3, "
                 "lesson 3).")


@lab_test("A system prompt of over a million characters is sent whole.")
async def test_a_system_prompt_past_a_million_characters(t):
    model = lab.ScriptedModel([lab.say("Read.")])
    await run(model, [], "Hi.", [], system=BIG)
    t.expect([len(model.calls[0].system), model.calls[0].system == BIG],
             why="Each request carries system exactly as it was passed, however long: [its "
                 "characters, whether it is the one passed] (Build item 3, lesson 3).")


@lab_test("A tool's output of over a million characters is its whole result.")
async def test_a_result_past_a_million_characters(t):
    model = lab.ScriptedModel([lab.reply(lab.call("dump", {"path": "a.py"})), lab.say("Done.")])
    messages = await run(model, [tool("dump", lambda arguments: BIG, PATH)], "Dump it.", [])
    t.expect([len(messages[2]["content"]), messages[2]["content"] == BIG],
             why="The result is what run_tool returns, and the loop cuts nothing, however long: "
                 "[the result's characters, whether it is the tool's output] (Build item 3, "
                 "lesson 3).")


@lab_test("A write of over a million characters leaves the file holding all of them.")
async def test_a_write_past_a_million_characters(t):
    ws = lab.Workspace({})
    said = await settle(harness.make_write_tool(ws)["execute"]({"path": "big.txt",
                                                                "content": BIG}))
    t.expect([said, len(ws.read_text("big.txt")), ws.read_text("big.txt") == BIG],
             why="Afterwards the file holds exactly the content argument, however long: [what "
                 "write said, the file's characters, whether it is the content] (Build item 1, "
                 "lesson 3).")


@lab_test("cat of a file of over a million characters gives all of them.")
async def test_a_cat_past_a_million_characters(t):
    ws = lab.Workspace({"big.txt": BIG})
    said = await settle(harness.make_bash_tool(lab.Shell(ws))["execute"]({"command":
                                                                           "cat big.txt"}))
    t.expect([len(said), said == BIG],
             why="The result is what the command printed, however long: [its characters, "
                 "whether it is the file's text] (Build item 2, lesson 3).")
'''

DEEP_WIDE = r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "3.1"
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


@lab_test("One reply of 3,000 calls, each path asked twice, has every call run, each result "
          "appended as it happens.")
async def test_a_reply_of_three_thousand_calls_each_asked_twice(t):
    messages, seen = [], []

    def look(arguments):
        seen.append(len(messages))
        return "contents of " + arguments["path"]
    model = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": f"f{n % 1500}.py"})
                                           for n in range(3000)]), lab.say("All read.")])
    await lab.drive(harness.run_agent(model, "Answer briefly.", messages,
                                      [tool("look", look, PATH)], "Read every file twice."))
    t.expect([len(seen), seen == list(range(2, 3002)),
              sum(m["role"] == "toolResult" for m in messages)],
             why="Every call of a reply is run, a call asked twice twice, and each result is "
                 "appended as it happens, however wide the batch: [runs of the tool, whether "
                 "each run found the results before it on the list, results recorded] (Build "
                 "item 3, lesson 3).")
'''

DEEP_RECORD = r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "3.1"
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


@lab_test("A run on a record of over 20,000 messages, well over a million characters, sends it "
          "whole, goes on through a round of tools, and leaves every message on the list.")
async def test_a_round_of_tools_on_a_record_past_twenty_thousand_messages(t):
    messages = [harness.user_message("My name is Ada.")]
    for number in range(1, 20_002):
        messages.append(lab.say(f"Noted, {number}: a remark of a long conversation.")
                        if number % 2 else
                        harness.user_message(f"Remark {number}: a line of a long conversation."))
    look = tool("look", lambda arguments: "contents of " + arguments["path"], PATH)
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})),
                               lab.say("You are Ada.")])
    await lab.drive(harness.run_agent(model, "Answer briefly.", messages, [look], "Who am I?"))
    t.expect([[len(request.messages) for request in model.calls],
              [request.messages[0]["content"] for request in model.calls], len(messages),
              lab.shape(messages[-4:])],
             why="Every request carries the whole record so far, the run ends at the first reply "
                 "that asks for nothing, and the caller's list holds what it held before, then "
                 "everything the run added: [how many messages each request carried, each "
                 "request's first message, how many the list holds afterwards, lab.shape of its "
                 "last four] after 20,002 earlier messages (Build item 3, lesson 3).")
'''

BEYOND = [
    Beyond(lab='3.1', name='a cap of a thousand rounds',
           rule='The loop goes on while replies ask for tools, however many rounds that takes: '
                'the number of rounds cannot be written into the code.',
           where='hunt round 9, design 3.1-1 (round-cap-1000)', names='however many rounds',
           reach='test_any_number_of_rounds runs a job of at most 290 rounds, the most a later '
                 "lab's reference (lesson 10's, which goes over the record before each request) "
                 "takes within the practice check's allowance; this cap is met at round 1001",
           replace=r'''
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
           by=r'''
    for _ in range(1000):  # a safety cap, far above any job
        reply = model.complete(system, messages, tool_specs(tools))
''',
           turns=20_000, seconds=20.0,
           deep=DEEP_ROUNDS),
    Beyond(lab='3.1', name='a round per recursive call',
           rule='The loop goes on while replies ask for tools, however many rounds that takes: '
                'the number of rounds cannot be written into the code, nor into the depth of '
                "Python's stack.",
           where='hunt round 9, design 3.1-8 (recursion-per-round)', names='however many rounds',
           reach='test_any_number_of_rounds runs a job of at most 290 rounds (see the cap of a '
                 "thousand, above); a call per round meets Python's recursion limit near round "
                 "990. Untried, and cheaper: the same job run with the recursion limit set a "
                 "couple of hundred frames above the test's own depth",
           replace=r'''
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return
''',
           by=r'''
    messages.append(user_message(prompt))

    def one_round():  # a round, then the next one as a call of its own
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        for call in calls:
            messages.append(run_tool(tools, call))
        if calls:
            one_round()
    one_round()
''',
           turns=20_000, seconds=20.0, deep=DEEP_ROUNDS),
    Beyond(lab='3.1', name='sending only the last five thousand messages',
           rule='Each request to the model carries the whole record so far, however long.',
           where='hunt round 12, design 03 (window-5000)', names='the whole record so far, however long',
           reach='test_a_long_conversation_is_sent_whole sends at most 4,800 earlier messages, '
                 'and any window past the longest drawn conversation is the same kind of cap; '
                 'this window drops messages from the 5,001st on',
           replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
           by=r'''
        reply = model.complete(system, messages[-5000:], tool_specs(tools))  # recent ones
''',
           turns=20_000, seconds=20.0, deep=DEEP_SIZES),
    Beyond(lab='3.1', name='a prompt cut at 100,000 characters',
           rule='When it returns, messages holds what it held before, then prompt, word for '
                'word, as a user message, however long.',
           where='hunt round 12, design 04 (prompt-cut-100k)', names='however long it is, none of it cut',
           reach='test_a_plain_reply pastes a prompt of at most 1,600 lines, about 56,000 '
                 'characters, and a cut past the longest drawn prompt is the same kind of cap; '
                 'this one cuts from the 100,001st character on',
           replace=r'''
    messages.append(user_message(prompt))
''',
           by=r'''
    messages.append(user_message(prompt[:100_000]))  # no one pastes more
''',
           turns=20_000, seconds=20.0, deep=DEEP_SIZES),
    Beyond(lab='3.1', name='results cut to 200,000 characters by the loop',
           rule='Every call of a reply has its result, from run_tool, on the list: the loop cuts '
                'nothing, however long.',
           where='hunt round 12, design 05 (result-cut-200k)', names='the loop cuts nothing, however long',
           reach='test_one_call_then_an_answer has a tool return at most 2,000 lines, about '
                 '80,000 characters, and a cut past the longest drawn result is the same kind '
                 'of cap (round 9 caught one at 50,000); this one cuts from the 200,001st on',
           replace=r'''
            messages.append(run_tool(tools, call))
''',
           by=r'''
            result = run_tool(tools, call)
            messages.append({**result, "content": result["content"][:200_000]})
''',
           turns=20_000, seconds=20.0, deep=DEEP_SIZES),
    Beyond(lab='3.1', name='only the first 5000 calls of a reply answered',
           rule='Every call of a reply has its result on the list before the next request, '
                'however many there are.',
           where='hunt round 12, design 22 (calls-per-reply-cap-5000)',
           names='Every call of a reply is answered, however many there are',
           reach='test_a_batch_is_answered_in_order answers one reply of at most 2,100 calls, '
                 'and any cap past the widest drawn reply is the same kind of cap (rounds 4 and '
                 '9 caught ones at 300 and 500); this one leaves calls from the 5,001st on '
                 'unanswered',
           replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
''',
           by=r'''
        for call in calls[:5000]:  # no sane reply asks for more
''',
           turns=20_000, seconds=20.0, deep=DEEP_SIZES),
    Beyond(lab='3.1', name='a run that stops after 300 identical rounds',
           rule='The loop goes on while replies ask for tools, however many rounds that takes, and whatever they ask: the run ends at the first reply that asks for nothing.',
           where='hunt round 15, design 04 (repeat-stop-300)',
           names='however many rounds',
           reach="test_any_number_of_rounds repeats one call for at most 290 rounds (the most a later lab's reference takes within the practice check's allowance); this design stops at the 301st repeat",
           replace=r'''
        calls = tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
''',
           by=r'''
        calls = tool_calls(reply)
        asked = repr([(call["name"], call["arguments"]) for call in calls])
        repeats, last = (repeats + 1 if asked == last else 0), asked
        if repeats >= 300:  # the same thing 300 times over: a loop, not a job
            return
        for call in calls:
''',
           also=(('    messages.append(user_message(prompt))',
                  '    messages.append(user_message(prompt))\n    last, repeats = None, 0'),),
           turns=20_000, seconds=20.0, deep=DEEP_BIG),
    Beyond(lab='3.1', name='only the first 3000 calls of a reply answered',
           rule='Every call of a reply has its result on the list before the next request, however many there are.',
           where='hunt round 15, design 05 (batch-cap-3000)',
           names='Every call of a reply is answered, however many there are',
           reach='test_a_batch_is_answered_in_order answers one reply of at most 2,100 calls; this cap leaves calls from the 3,001st on unanswered',
           replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
''',
           by=r'''
        for call in calls[:3000]:  # no sane reply asks for more
''',
           turns=20_000, seconds=20.0, deep=DEEP_SIZES),
    Beyond(lab='3.1', name='a budget of 5000 calls a run',
           rule="Every call of a reply has its result on the list before the next request, however many there are; no budget of the loop's own ends a run.",
           where='hunt round 15, design 19 (run-cap-5000-calls)',
           names='Every call of a reply is answered, however many there are',
           reach='test_a_batch_is_answered_in_order answers at most 2,100 calls in a run (round 12 caught a budget of 2000); this budget ends a run at its 5,001st call',
           replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
           by=r'''
        for call in calls:
            if budget == 0:
                return  # a run's budget of calls
            budget -= 1
            messages.append(run_tool(tools, call))
''',
           also=(('    messages.append(user_message(prompt))',
                  '    messages.append(user_message(prompt))\n    budget = 5000'),),
           turns=20_000, seconds=20.0, deep=DEEP_SIZES),
    Beyond(lab='3.1', name='a prompt cut at 200,000 characters',
           rule='When it returns, messages holds what it held before, then prompt, word for word, as a user message, however long.',
           where='hunt round 15, design 14 (prompt-cap-200k)',
           names='however long it is, none of it cut',
           reach='test_a_plain_reply pastes a prompt of about 56,000 characters at most; this cut starts at the 200,001st',
           replace=r'''
    messages.append(user_message(prompt))
''',
           by=r'''
    messages.append(user_message(prompt[:200_000]))  # no one pastes more
''',
           turns=20_000, seconds=20.0, deep=DEEP_SIZES),
    Beyond(lab='3.1', name='sending only the last ten thousand messages',
           rule='Each request to the model carries the whole record so far, however long.',
           where='hunt round 15, design 15 (window-10000)',
           names='the whole record so far, however long',
           reach='test_a_long_conversation_is_sent_whole sends at most 4,800 earlier messages; this window drops messages from the 10,001st on',
           replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
           by=r'''
        reply = model.complete(system, messages[-10_000:], tool_specs(tools))  # recent ones
''',
           turns=20_000, seconds=20.0, deep=DEEP_BIG),
    Beyond(lab='3.1', name='the system prompt cut at a million characters',
           rule='Each request carries system exactly as it was passed, however long.',
           where='hunt round 15, design 17 (system-cap-1M)',
           names='exactly as it was passed, however long',
           reach='test_a_plain_reply sends a system prompt of about 50,000 characters at most (round 12 caught a cut at 4000); this cut starts at the 1,000,001st',
           replace=r'''
    messages.append(user_message(prompt))
    while True:
''',
           by=r'''
    messages.append(user_message(prompt))
    system = system[:1_000_000]  # no provider takes more
    while True:
''',
           turns=20_000, seconds=20.0, deep=DEEP_BIG),
    Beyond(lab='3.1', name='results cut to a million characters by the loop',
           rule='Every call of a reply has its result, from run_tool, on the list: the loop cuts nothing, however long.',
           where='hunt round 15, design 18 (tool-output-cap-1M)',
           names='the loop cuts nothing, however long',
           reach='test_one_call_then_an_answer has a tool return about 100,000 characters at most; this cut starts at the 1,000,001st',
           replace=r'''
            messages.append(run_tool(tools, call))
''',
           by=r'''
            result = run_tool(tools, call)
            messages.append({**result, "content": result["content"][:1_000_000]})
''',
           turns=20_000, seconds=20.0, deep=DEEP_BIG),
    Beyond(lab='3.1', name='write cutting its content at a million characters',
           rule='Afterwards the file named by the path argument holds exactly the content argument, however long.',
           where='hunt round 15, design 12 (write-cap-1M)',
           names='holds exactly the content argument, however long',
           reach='test_the_write_tool writes a file of about 330,000 characters at most (round 12 caught a cut at 100,000); this cut starts at the 1,000,001st',
           replace=r'''
        ws.write_text(path, content)
''',
           by=r'''
        ws.write_text(path, content[:1_000_000])  # no file is bigger
''',
           turns=20_000, seconds=20.0, deep=DEEP_BIG),
    Beyond(lab='3.1', name='bash keeping the first million characters of its output',
           rule='The result is what the command argument printed, as one string, however long; never a beginning cut off silently.',
           where='hunt round 15, design 13 (bash-head-1M)',
           names='what the command printed, however long',
           reach='test_the_bash_tool cats a file of about 130,000 characters at most (round 12 caught a cut at 30,000); this cut starts at the 1,000,001st',
           replace=r'''
        output, code = shell.run(arguments["command"])
        return output
''',
           by=r'''
        output, code = shell.run(arguments["command"])
        return output[:1_000_000]  # more than anyone reads
''',
           turns=20_000, seconds=20.0, deep=DEEP_BIG),
    Beyond(lab='3.1', name='a cap of 291 rounds',
           rule='The loop goes on while replies ask for tools, however many rounds that takes: '
                'the number of rounds cannot be written into the code.',
           where='hunt round 21, design 01 (cap-291-requests)', names='however many rounds',
           reach='test_any_number_of_rounds runs a job of at most 290 rounds, the most a later '
                 "lab's reference takes within the practice check's allowance (see the cap of a "
                 'thousand, above); this cap is met at round 292, one past it, and a job past it '
                 'is what the allowance cannot afford',
           replace=r'''
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
''',
           by=r'''
    for _ in range(291):  # one more than any job the tests run
        reply = model.complete(system, messages, tool_specs(tools))
''',
           turns=20_000, seconds=20.0,
           deep=DEEP_ROUNDS),
    Beyond(lab='3.1', name='identical calls of a batch over 2200 run once',
           rule='Every call of a reply has its result from run_tool: a call asked twice is run '
                'twice, however wide the batch.',
           where='hunt round 28, design 28 (dedupe-identical-in-huge-batch)',
           names='a call asked twice twice',
           reach='test_a_batch_is_answered_in_order tries batches of at most 2100 calls (the '
                 'bank 2001), the most the practice allowance affords beside the rest; this '
                 'design differs only in a batch of 2201 calls or more',
           replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
           by=r'''
        done = {}
        for call in calls:  # every call, in order, before the model is asked again
            key = (call["name"], repr(call["arguments"]))
            if len(calls) > 2200 and key in done:  # a model stuck repeating itself
                messages.append({**done[key], "tool_call_id": call["id"]})
                continue
            done[key] = run_tool(tools, call)
            messages.append(done[key])
''',
           turns=20_000, seconds=20.0, deep=DEEP_WIDE),
    Beyond(lab='3.1', name="a batch over 2500 calls' results appended together",
           rule='The prompt, each reply, and one result per call are appended to messages as '
                'they happen, however wide the batch.',
           where='hunt round 28, design 35 (batch-aside-when-huge)',
           names='appended as it happens',
           reach='test_the_record_grows_as_it_happens and the other batch cases try at most '
                 '2100 calls in one reply; this design differs only past 2500',
           replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
           by=r'''
        if len(calls) > 2500:  # a huge batch: gather, then record at once
            messages.extend([run_tool(tools, call) for call in calls])
        for call in calls if len(calls) <= 2500 else []:
            messages.append(run_tool(tools, call))
''',
           turns=20_000, seconds=20.0, deep=DEEP_WIDE),
    Beyond(lab='3.1', name='a run ended once the record passes 10,000 messages',
           rule='The run ends at the first reply that asks for nothing, whether that is the first '
                'reply or the two hundredth.',
           where='hunt round 31, design 07 (record-cap-10000-messages)',
           names='the run ends at the first reply that asks for nothing',
           reach='test_a_long_conversation_is_sent_whole runs on at most 4,800 earlier messages '
                 'and test_a_batch_is_answered_in_order adds at most 2,100 results to a record of '
                 'its own; this design stops a run with calls once the list holds 10,001',
           replace=r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''',
           by=r'''
        if not calls or len(messages) > 10_000:  # a record this long is a run gone wrong
            return
''',
           turns=20_000, seconds=20.0, deep=DEEP_RECORD),
    Beyond(lab='3.1', name='the record cut to its last 20,000 messages when the run ends',
           rule='When it returns, messages, the caller\'s own list, holds what it held before, '
                'then the prompt, every reply and every result.',
           where='hunt round 31, design 26 (record-trimmed-after-run)',
           names='holds what it held before',
           reach='test_a_long_conversation_is_sent_whole runs on at most 4,800 earlier messages; '
                 'this design takes messages back only from a list of over 20,000',
           replace=r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''',
           by=r'''
        if not calls:
            del messages[:-20_000]  # keep the record from growing without end
            return
''',
           turns=20_000, seconds=20.0, deep=DEEP_RECORD),
    Beyond(lab='3.1', name='sending only the newest million characters of the record',
           rule='Each request to the model carries the whole record so far, however long.',
           where='hunt round 31, design 41 (window-by-characters-1M)',
           names='the whole record so far',
           reach='test_a_long_conversation_is_sent_whole sends at most 4,800 short messages, '
                 'about 200,000 characters of record; this window drops messages once the record '
                 'passes a million',
           replace=r'''
        reply = model.complete(system, messages, tool_specs(tools))
''',
           by=r'''
        sent, size = [], 0
        for message in reversed(messages):  # the newest messages that fit a million characters
            size += len(repr(message))
            if size > 1_000_000 and sent:
                break
            sent.insert(0, message)
        reply = model.complete(system, sent, tool_specs(tools))
''',
           turns=20_000, seconds=20.0, deep=DEEP_RECORD),
]
