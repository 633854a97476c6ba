"""Lesson 3, "The loop: one answer is not a job": the wrong designs its rungs rule out, each as a
small change to lab 3.1's reference. The format is tools/wrong_designs.py's.
"""
from tools.wrong_designs import Wrong

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

# Designs the lesson's tests cannot rule out: each passes its lab (tests/authoring/
# test_allowed_designs.py), with the reason here.
ALLOWED = [
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
]
