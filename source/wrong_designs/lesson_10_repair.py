"""Lesson 10's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
lab 10.1's reference; the rule is the lesson's principle or the part of it the design breaks.
"""
from tools.wrong_designs import Wrong

WRONG = [
    Wrong(lab='10.1', name='writing the invented result into the record, in a finally on the way out',
          rule='Only the view is repaired; the record says what happened, and nothing is written to it after the consumer has gone.',
          where='section "Mend the record, or the request?" (WritesOnTheWayOut); Build recap',
          names='written into',
          replace=r'''
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
''',
          by=r'''
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
            answered = {m["tool_call_id"] for m in self._messages if m["role"] == "toolResult"}
            for message in list(self._messages):
                for call in tool_calls(message) if message["role"] == "assistant" else ():
                    if call["id"] not in answered:  # answered now, on the record, unannounced
                        self._messages.append({"role": "toolResult", "tool_call_id": call["id"],
                                               "tool_name": call["name"], "is_error": True,
                                               "content": INTERRUPTED})
'''),
    Wrong(lab='10.1', name="writing the invented result into the record, at the next run's start",
          rule='Only the view is repaired; the record says what happened.',
          where='prediction "Mend the record, or the request?" (onto the record, at the start of the next run); Build recap',
          names='written into',
          replace=r'''
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
''',
          by=r'''
        self._messages[:] = repair_tool_history(self._messages)  # mend the record first
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
'''),
    Wrong(lab='10.1', name='repairing the record in place, in context_for_model',
          rule='context_for_model builds the view and never changes the record.',
          where='section "Mend the record, or the request?" (the record is what happened, the view is what is sent)',
          names='the record says what happened',
          replace='    return repair_tool_history(kept)',
          by=r'''
    messages[:] = repair_tool_history(kept)  # mend it where it lies, once and for all
    return messages
'''),
    Wrong(lab='10.1', name='deleting the call',
          rule='A call with no result stays in the view, answered INTERRUPTED, so the model knows it may have run.',
          where='prediction "What the answer says" (leave the call out); Build recap',
          names='A call with no result gets one right after it',
          replace='        view.append(message)',
          by=r'''
        if message["role"] == "assistant" and any(c["id"] not in answer
                                                  for c in tool_calls(message)):
            continue  # a call with no result never properly happened: leave the reply out
        view.append(message)
'''),
    Wrong(lab='10.1', name='a result that calls the interruption a failure',
          rule='The invented result says the call may or may not have run (INTERRUPTED), so the model checks before repeating it.',
          where='prediction "What the answer says" (a result that says it failed); Build recap',
          names='may or may not have run',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
          by=r'''
                "content": "Tool call failed.", "is_error": True})
    return view
'''),
    Wrong(lab='10.1', name='inventing a call for an orphan result',
          rule="A result that no call asked for is dropped: its call's arguments are unknown, so none is made up.",
          where='prediction "Putting results back"; Build recap',
          names='no call is made up',
          replace=r'''
        if message["role"] == "toolResult":
            continue  # results come back in below, each straight after its own call
''',
          by=r'''
        if message["role"] == "toolResult":
            asked = {c["id"] for m in messages if m["role"] == "assistant" for c in tool_calls(m)}
            if message["tool_call_id"] not in asked:  # an orphan: give it a call to answer
                view.append({"role": "assistant", "content": "", "tool_calls": [
                    {"id": message["tool_call_id"], "name": message["tool_name"],
                     "arguments": {}}], "stop_reason": "tool_use"})
                view.append(message)
            continue
'''),
    Wrong(lab='10.1', name='ordering results by id',
          rule='Results follow their calls in call order; ids are names, not numbers.',
          where='prediction "Putting results back" (sorted by id); Build recap',
          names='Call order, not id order',
          replace=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
            view.append(answer.get(call["id"]) or {
''',
          by=r'''
        for call in sorted(tool_calls(message) if message["role"] == "assistant" else (),
                           key=lambda call: call["id"]):
            view.append(answer.get(call["id"]) or {
'''),
    Wrong(lab='10.1', name='keeping the later of two results',
          rule='With two results for one call, the first recorded wins: it is the one that happened first.',
          where='prediction "Putting results back" (the first one recorded wins)',
          names='the first recorded',
          replace=r'''
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
''',
          by=r'''
        if message["role"] == "toolResult":  # a later result overwrites an earlier one
'''),
    Wrong(lab='10.1', name='deep copies',
          rule='repair_tool_history returns a new list of the very same message objects, not copies.',
          where='Build section (the tests compare objects, not just shapes)',
          names='no copies of the messages',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
          by=r'''
                "content": INTERRUPTED, "is_error": True})
    return json.loads(json.dumps(view))  # a safe copy of everything
'''),
    Wrong(lab='10.1', name='repairing once at load',
          rule='Every request is repaired as it is built: a hole made later in the session goes out repaired too.',
          where='section "Once, or every time?" (RepairedAtLoad); Build recap',
          names='so the provider accepts it',
          replace='    return repair_tool_history(kept)',
          by=r'''
    return kept  # the list was repaired once, at load, so requests go out as lesson 5 sent them
'''),
    Wrong(lab='10.1', name='results looked for only up to the next reply',
          rule='A recorded result is the one used, moved if it has to be, whatever stood between it and its call.',
          where='lab 10.1, gap 1: "repair_tool_history(messages)"',
          names='wherever it stands',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
    view = []
    for message in messages:
        if message["role"] == "toolResult":
            continue  # results come back in below, each straight after its own call
        view.append(message)
''',
          by=r'''
    view = []
    for index, message in enumerate(messages):
        if message["role"] == "toolResult":
            continue
        view.append(message)
        answer = {}  # the results recorded after this message, up to the next reply
        for later in messages[index + 1:]:
            if later["role"] == "assistant":
                break
            if later["role"] == "toolResult" and later["tool_call_id"] not in answer:
                answer[later["tool_call_id"]] = later
'''),
    Wrong(lab='10.1', name='a later result that is not an error preferred to an earlier error',
          rule='Of two results recorded for one call, the one recorded first is kept.',
          where='Build item 1, second bullet; found by a release-only reader (round 2, 10.1-1)',
          names='whatever it says',
          replace=r'''
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
          by=r'''
        if message["role"] == "toolResult":  # an ok result beats an error recorded before it
            old = answer.get(message["tool_call_id"])
            if old is None or (old["is_error"] and not message["is_error"]):
                answer[message["tool_call_id"]] = message
'''),
    Wrong(lab='10.1', name='an empty result taken for a missing one',
          rule='A recorded result is the one used; only a call with no recorded result gets INTERRUPTED.',
          where='Build item 1, first and fourth bullets; found by a release-only reader (round 2, 10.1-3)',
          names='is a result, not a hole',
          replace=r'''
            view.append(answer.get(call["id"]) or {
''',
          by=r'''
            found = answer.get(call["id"])  # a result with nothing in it counts as none
            view.append(found if found and found["content"] else {
'''),
    Wrong(lab='10.1', name='repairing only from the last batch of calls',
          rule='The view a request carries is what lesson 5\'s filter keeps, repaired: every request is valid, whatever holes the record has.',
          where='Build item 2; lesson 10 shows a hole followed by a later batch; found by a release-only reader (round 2, 10.1-11)',
          names='whatever holes the record has',
          replace='    return repair_tool_history(kept)',
          by=r'''
    last = max((i for i, m in enumerate(kept) if m["role"] == "assistant" and tool_calls(m)),
               default=len(kept))  # a hole can only be where the run stopped, at the end
    return kept[:last] + repair_tool_history(kept[last:])
'''),
    Wrong(lab='10.1', name='results looked up only in the first 300 messages',
          rule='A recorded result is the one used, however far into a long record it stands: a valid list comes back equal to it.',
          where='lab 10.1, Build section: "A list that is already valid comes back equal to it"; bench/kinds.py, a loop given a limit',
          names='however long it is',
          replace=r'''
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
''',
          by=r'''
    for message in messages[:300]:  # results stand near their calls
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
'''),
    Wrong(lab='10.1', name='the view cut at 300 messages',
          rule='repair_tool_history returns the whole record, repaired: a valid list comes back equal to it, however long.',
          where='lab 10.1, Build section: "A list that is already valid comes back equal to it"; bench/kinds.py, a loop given a limit',
          names='however long it is',
          replace=r'''
    for message in messages:
        if message["role"] == "toolResult":
            continue  # results come back in below, each straight after its own call
''',
          by=r'''
    for message in messages[:300]:  # plenty for any window
        if message["role"] == "toolResult":
            continue  # results come back in below, each straight after its own call
'''),
    Wrong(lab='10.1', name='only the first 300 calls of a reply answered',
          rule='Every call is followed at once by exactly one result, however many calls the reply has.',
          where='lab 10.1, Build section: "every call is followed at once by exactly one result"; bench/kinds.py, a loop given a limit',
          names='however many there are',
          replace=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
''',
          by=r'''
        for call in (tool_calls(message) if message["role"] == "assistant" else [])[:300]:
'''),
    Wrong(lab='10.1', name="an invented result's call id stripped",
          rule="A call with no recorded result gets a new result with the call's id, exactly as recorded, so that it answers that call.",
          where='lab 10.1, Build section: "a `toolResult` with the call\'s id and tool name"; bench/kinds.py, text stripped',
          names='exactly as recorded',
          replace=r'''
                "role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
''',
          by=r'''
                "role": "toolResult", "tool_call_id": call["id"].strip(), "tool_name": call["name"],
'''),
    Wrong(lab='10.1', name="an invented result's tool name stripped",
          rule="A call with no recorded result gets a new result with the call's tool name, exactly as recorded.",
          where='lab 10.1, Build section: "a `toolResult` with the call\'s id and tool name"; bench/kinds.py, text stripped',
          names='exactly as recorded',
          replace=r'''
                "role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
''',
          by=r'''
                "role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"].strip(),
'''),
]
