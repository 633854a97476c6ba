"""Lesson 10's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
lab 10.1's reference; the rule is the lesson's principle or the part of it the design breaks.
"""
from tools.wrong_designs import Beyond, Wrong

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

    # Hunt round 6 (reader r23): each passed every test of lab 10.1 before this round's kills.
    Wrong(lab='10.1', name="only a run's first request repaired",
          rule="The view a request carries is what lesson 5's filter keeps, repaired: every request is valid, whatever holes the record has.",
          where='lab 10.1, Build section: "every request is valid, whatever holes the record has"; found by a release-only reader (round 6, 10.1-21)',
          names='every request of a run and not only its first',
          replace=r'''
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
''',
          by=r'''
                # holes are made only when a run ends, so the run's first request mends them all
                view = context_for_model(messages) if turn == 1 else [
                    m for m in messages if m["content"] or m["role"] != "assistant"
                    or m.get("stop_reason") != "error"]
                reply = model.complete(system, view, tool_specs(tools))
'''),
    Wrong(lab='10.1', name='result ids matched after stripping spaces',
          rule='A result answers the call whose id is exactly its own; a result that answers no call in the list is not in the new list.',
          where='lab 10.1, Build section: "A result that answers no call in the list is not in the new list."; found by a release-only reader (round 6, 10.1-5)',
          names='a result answers the call whose id is exactly its own',
          replace=r'''
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
          by=r'''
        if message["role"] == "toolResult" and message["tool_call_id"].strip() not in answer:
            answer[message["tool_call_id"].strip()] = message  # models emit stray spaces
''',
          also=((r'''
            view.append(answer.get(call["id"]) or {
''', r'''
            view.append(answer.get(call["id"].strip()) or {
'''),)),
    Wrong(lab='10.1', name='invented results announced but never recorded',
          rule='Only the view is repaired: an invented result lives only in the request, and a message is on the record before it is announced.',
          where='lab 10.1, Build section: "the record is never changed"; found by a release-only reader (round 6, 10.1-18)',
          names='never announced',
          replace=r'''
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
''',
          by=r'''
                view = context_for_model(messages)
                for made in view:  # let every listener hear of the mended holes
                    if not any(made is kept for kept in messages):
                        yield {"type": "message_end", "message": made}
                reply = model.complete(system, view, tool_specs(tools))
'''),
    Wrong(lab='10.1', name='the view cached, only the new tail repaired',
          rule="The view a request carries is what lesson 5's filter keeps of the whole record, repaired, built fresh for every request.",
          where='lab 10.1, Build section: "The view a request carries is what lesson 5\'s filter keeps, repaired"; found by a release-only reader (round 6, 10.1-3)',
          names='built fresh for every request',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    seen = context_for_model.__dict__.setdefault("seen", {})  # id(record) -> (prefix, its view)
    prefix, view = seen.get(id(messages), ([], []))
    if len(prefix) > len(messages) or any(a is not b for a, b in zip(prefix, messages)):
        prefix, view = [], []
    tail = [m for m in messages[len(prefix):] if m["content"] or m["role"] != "assistant"
            or m.get("stop_reason") not in endings]
    view = view + repair_tool_history(tail)  # only what was appended since is repaired
    seen[id(messages)] = (list(messages), view)
    return list(view)
'''),
    Wrong(lab='10.1', name='a harness that repairs the list it is handed',
          rule='The record is never changed: a harness keeps the list it is given, holes and all; only the view is repaired.',
          where='lab 10.1, Build section: "the record is never changed"; found by a release-only reader (round 6, 10.1-15)',
          names='keeps the record it is given',
          replace=r'''
        self._messages, self._max_turns = list(messages), max_turns
''',
          by=r'''
        self._messages, self._max_turns = repair_tool_history(list(messages)), max_turns
'''),
    Wrong(lab='10.1', name='results looked for only up to the next reply that makes calls',
          rule='A recorded result is the one used, moved if it has to be, whatever stood between it and its call, a reply that makes calls included.',
          where='lab 10.1, Build section: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 6, 10.1-2)',
          names='one that makes calls too',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
''',
          by=r'''
    answer, batch = {}, set()  # call id -> the first result recorded for it in its batch
    for message in messages:
        if message["role"] == "assistant" and tool_calls(message):
            batch = {call["id"] for call in tool_calls(message)}  # a new batch closes the old
        if (message["role"] == "toolResult" and message["tool_call_id"] in batch
                and message["tool_call_id"] not in answer):
'''),
    Wrong(lab='10.1', name='a result recorded before its call ignored',
          rule='A recorded result is the one used, moved if it has to be, wherever it stands, before its call too.',
          where='lab 10.1, Build section: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 6, 10.1-1)',
          names='wherever it stands',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
''',
          by=r'''
    answer, asked = {}, set()  # call id -> the first result recorded after its call
    for message in messages:
        if message["role"] == "assistant":
            asked.update(call["id"] for call in tool_calls(message))
        if (message["role"] == "toolResult" and message["tool_call_id"] in asked
                and message["tool_call_id"] not in answer):
'''),
    Wrong(lab='10.1', name='the result beside its call preferred to the first recorded',
          rule='Of two results recorded for one call, the one recorded first is kept, wherever each stands.',
          where='lab 10.1, Build section: "Of two results recorded for one call, the one recorded first is kept."; found by a release-only reader (round 6, 10.1-6)',
          names='The first recorded is kept',
          replace=r'''
            answer[message["tool_call_id"]] = message
''',
          by=r'''
            answer[message["tool_call_id"]] = message
    beside = {}  # Tau's rule: the first result standing right after its call wins
    for index, message in enumerate(messages):
        if message["role"] == "assistant":
            ids = {call["id"] for call in tool_calls(message)}
            for later in messages[index + 1:]:
                if later["role"] != "toolResult":
                    break
                if later["tool_call_id"] in ids:
                    beside.setdefault(later["tool_call_id"], later)
    answer.update(beside)
'''),
    Wrong(lab='10.1', name="a first result with INTERRUPTED's words taken for a made-up one",
          rule='Of two results recorded for one call, the one recorded first is kept, whatever it says.',
          where='lab 10.1, Build section: "Of two results recorded for one call, the one recorded first is kept."; found by a release-only reader (round 6, 10.1-16)',
          names='whatever it says',
          replace=r'''
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
          by=r'''
        if message["role"] == "toolResult":  # a real result beats a made-up one recorded first
            held = answer.get(message["tool_call_id"])
            if held is None or (held["content"] == INTERRUPTED
                                and message["content"] != INTERRUPTED):
                answer[message["tool_call_id"]] = message
'''),
    Wrong(lab='10.1', name='empty failed replies dropped by the repair too',
          rule='Whatever stood between a result and its call stays, after the batch: the repair leaves out only results.',
          where='lab 10.1, Build section: "Whatever stood between it and its call, a user message or a reply, say, stays, after the batch."; found by a release-only reader (round 6, 10.1-7)',
          names='the failed empty reply included',
          replace=r'''
        if message["role"] == "toolResult":
            continue  # results come back in below, each straight after its own call
''',
          by=r'''
        if message["role"] == "toolResult" or (message["role"] == "assistant" and not
                                               message["content"]
                                               and message.get("stop_reason") == "error"):
            continue  # results come back in below; an empty failed reply a provider refuses
'''),
    Wrong(lab='10.1', name='messages copied whenever a repair is needed',
          rule='Every message repair_tool_history takes from the list is the very same object, not a copy, whether or not something was repaired.',
          where='lab 10.1, Build section: "Every message it takes from `messages` is the very same object, not a copy."; found by a release-only reader (round 6, 10.1-9)',
          names='whether or not something was repaired',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
          by=r'''
                "content": INTERRUPTED, "is_error": True})
    if len(view) == len(messages) and all(a is b for a, b in zip(view, messages)):
        return view  # nothing repaired: the ordinary path costs nothing
    return [m if m["role"] == "toolResult" else dict(m) for m in view]  # so no repair touches the record
'''),
    Wrong(lab='10.1', name='invented results kept and handed out again',
          rule='A call with no recorded result gets a new result in each repair, never one made before and kept.',
          where='lab 10.1, Build section: "A call with no recorded result gets a new result"; found by a release-only reader (round 6, 10.1-10)',
          names='never one it made before',
          replace=r'''
            view.append(answer.get(call["id"]) or {
                "role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                "content": INTERRUPTED, "is_error": True})
''',
          by=r'''
            made = repair_tool_history.__dict__.setdefault("made", {})  # every result made so far
            view.append(answer.get(call["id"]) or made.setdefault((call["id"], call["name"]), {
                "role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                "content": INTERRUPTED, "is_error": True}))
'''),
    Wrong(lab='10.1', name='an empty list handed back as itself',
          rule='repair_tool_history returns a new list, for an empty list too.',
          where='lab 10.1, Build section: "returns a new list in which every call is followed at once by exactly one result for it"; found by a release-only reader (round 6, 10.1-20)',
          names='an empty one too',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
''',
          by=r'''
    if not messages:
        return messages  # nothing to repair
    answer = {}  # call id -> the first result recorded for it
'''),
    Wrong(lab='10.1', name='an invented result marked as made up',
          rule='An invented result has exactly five keys: role, tool_call_id, tool_name, content and is_error; a key of its own, such as a mark that it was made up, is a sixth.',
          where='lab 10.1, Build item 1: "Those five keys are all it has" (hunt round 6, probe 10.1-22)',
          names='five keys alone',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
''',
          by=r'''
                "content": INTERRUPTED, "is_error": True, "synthetic": True})
'''),
    Wrong(lab='10.1', name="copies of the record's messages in the view",
          rule="The view holds the record's own message objects; only the results it invents are new.",
          where='lab 10.1, Build item 2: "The view holds the record\'s own message objects" (hunt round 6, probe 10.1-17)',
          names="own message objects",
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    return [dict(message) for message in repair_tool_history(kept)]  # the view's own copies
'''),
    # Hunt round 11 (reader r51, /work/readers/r51): designs that passed the release's tests.
    Wrong(lab='10.1', name='result ids matched without regard to case',
          rule='A result answers the call whose id it carries, exactly: "C7" answers no call "c7".',
          where='lab 10.1, Build item 1: "A result answers the call whose id it carries."; found by a release-only reader (round 11, 10.1-01)',
          names='not even',
          replace=r"""
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
""",
          by=r"""
        if message["role"] == "toolResult" and message["tool_call_id"].casefold() not in answer:
            answer[message["tool_call_id"].casefold()] = message  # "C7" is surely c7
""",
          also=((r"""
            view.append(answer.get(call["id"]) or {
""", r"""
            view.append(answer.get(call["id"].casefold()) or {
"""),)),
    Wrong(lab='10.1', name='a result more than 40 messages from its call ignored',
          rule='A recorded result is the one used, however far from its call it stands.',
          where='lab 10.1, Build item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 11, 10.1-02)',
          names='however far from its call',
          replace=r"""
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
""",
          by=r"""
    where = {}  # call id -> where its first result stands
    for index, message in enumerate(messages):
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
            where[message["tool_call_id"]] = index
""",
          also=((r"""
    view = []
    for message in messages:
""", r"""
    view = []
    for index, message in enumerate(messages):
"""), (r"""
            view.append(answer.get(call["id"]) or {
""", r"""
            near = abs(where.get(call["id"], index) - index) <= 40  # a result that far is lost
            view.append((answer.get(call["id"]) if near else None) or {
"""))),
    Wrong(lab='10.1', name='only the last 500 messages repaired',
          rule='Every call is followed at once by exactly one result for it: the whole record is read, however long it is.',
          where='lab 10.1, Build item 1: "returns a new list in which every call is followed at once by exactly one result for it"; found by a release-only reader (round 11, 10.1-03)',
          names='the whole record is read',
          replace=r"""
    answer = {}  # call id -> the first result recorded for it
""",
          by=r"""
    if len(messages) > 500:  # the older messages went out before: only the tail needs mending
        return list(messages[:-500]) + repair_tool_history(messages[-500:])
    answer = {}  # call id -> the first result recorded for it
"""),
    Wrong(lab='10.1', name="a failed reply's calls answered in words of their own",
          rule="A call with no recorded result gets INTERRUPTED as its content, a failed reply's call too.",
          where='lab 10.1, Build item 1: "A call with no recorded result gets a new result"; found by a release-only reader (round 11, 10.1-05)',
          names='a call of a failed reply has no result like any other',
          replace=r"""
                "content": INTERRUPTED, "is_error": True})
    return view
""",
          by=r"""
                "content": INTERRUPTED if message.get("stop_reason") != "error"
                else "The reply failed before this call could run; it did not run.",
                "is_error": True})
    return view
"""),
    Wrong(lab='10.1', name="a failed reply's invented results not marked as errors",
          rule="A call with no recorded result gets a result with is_error true, a failed reply's call too.",
          where='lab 10.1, Build item 1: "A call with no recorded result gets a new result"; found by a release-only reader (round 11, 10.1-06)',
          names='a call of a failed reply has no result like any other',
          replace=r"""
                "content": INTERRUPTED, "is_error": True})
    return view
""",
          by=r"""
                "content": INTERRUPTED, "is_error": message.get("stop_reason") != "error"})
    return view
"""),
    Wrong(lab='10.1', name='invented results kept by call id across views',
          rule="The view is built for each request; only the results it invents are new, never one kept from an earlier view.",
          where='lab 10.1, Build item 2: "only the results it invents are new"; found by a release-only reader (round 11, 10.1-08)',
          names='new in every view',
          replace=r"""
    return repair_tool_history(kept)
""",
          by=r"""
    view = repair_tool_history(kept)
    for n, message in enumerate(view):
        if not any(message is k for k in kept):  # invented: the one made before for this id
            view[n] = _INVENTED.setdefault(message["tool_call_id"], message)
    return view


_INVENTED = {}  # call id -> the result invented for it the first time
"""),
    Wrong(lab='10.1', name="the view kept by the record's id and length",
          rule="The view is built for each request; only the results it invents are new, never one kept from an earlier view.",
          where='lab 10.1, Build item 2: "only the results it invents are new"; found by a release-only reader (round 11, 10.1-09)',
          names='new in every view',
          replace=r"""
    return repair_tool_history(kept)
""",
          by=r"""
    key = (id(messages), len(messages))
    if key not in _VIEWS or _VIEWS[key][0] is not messages:
        _VIEWS[key] = (messages, repair_tool_history(kept))
    return list(_VIEWS[key][1])


# (id of a record, its length) -> (the record, its view); the record is held so that its id is
# never another list's, which keeps the design's failures the same from run to run
_VIEWS = {}
"""),
    Wrong(lab='10.1', name='the repair announced in an event of its own',
          rule='The invented results live only in the requests: a repair adds no event.',
          where='lab 10.1, section "Your harness, after three holes": "none of which exists anywhere but in that request"; found by a release-only reader (round 11, 10.1-10)',
          names='a repair adds no event',
          replace=r"""
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
                view = context_for_model(messages)
                made = [m for m in view if not any(m is r for r in messages)]
                if made:  # tell the listeners what the view had to invent
                    yield {"type": "view_repaired", "results": made}
                reply = model.complete(system, view, tool_specs(tools))
"""),
    Wrong(lab='10.1', name="a result naming another tool sent as a corrected copy",
          rule="Every message repair_tool_history takes from the list is the very same object: a result naming another tool than its call's is used as it is or replaced, never mended in a copy.",
          where='lab 10.1, Build item 1: "Every message it takes from `messages` is the very same object, not a copy."; found by a release-only reader (round 11, 10.1-12)',
          names='but not to mend it',
          replace=r"""
            view.append(answer.get(call["id"]) or {
""",
          by=r"""
            got = answer.get(call["id"])
            if got is not None and got["tool_name"] != call["name"]:
                got = dict(got, tool_name=call["name"])  # make it name its call's tool
            view.append(got or {
"""),
    Wrong(lab='10.1', name="a result naming another tool mended on the record",
          rule="The list handed in, and every message in it, are exactly as they were: a result naming another tool than its call's is not renamed.",
          where='lab 10.1, Build item 1: "The list handed in, and every message in it, are exactly as they were."; found by a release-only reader (round 11, 10.1-13)',
          names='but not to mend it',
          replace=r"""
            view.append(answer.get(call["id"]) or {
""",
          by=r"""
            got = answer.get(call["id"])
            if got is not None and got["tool_name"] != call["name"]:
                got["tool_name"] = call["name"]  # make it name its call's tool
            view.append(got or {
"""),
    Wrong(lab='10.1', name='orphan results that are errors kept',
          rule='A result that answers no call in the list is not in the new list, an error as well as any other.',
          where='lab 10.1, Build item 1: "A result that answers no call in the list is not in the new list."; found by a release-only reader (round 11, 10.1-15)',
          names='an error as well as any other',
          replace=r"""
        if message["role"] == "toolResult":
            continue  # results come back in below, each straight after its own call
""",
          by=r"""
        if message["role"] == "toolResult":
            asked = {c["id"] for m in messages if m["role"] == "assistant" for c in tool_calls(m)}
            if message.get("is_error") and message["tool_call_id"] not in asked:
                view.append(message)  # an error nobody asked for: never hide an error
            continue  # results come back in below, each straight after its own call
"""),
    Wrong(lab='10.1', name='a later result of the same words kept',
          rule='Of two results recorded for one call, the one recorded first is kept, whatever the second says.',
          where='lab 10.1, Build item 1: "Of two results recorded for one call, the one recorded first is kept."; found by a release-only reader (round 11, 10.1-16)',
          names='the same words',
          replace=r"""
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
""",
          by=r"""
        if message["role"] == "toolResult" and (
                message["tool_call_id"] not in answer
                or answer[message["tool_call_id"]]["content"] == message["content"]):
            answer[message["tool_call_id"]] = message  # a repeat: the latest is kept
"""),
    Wrong(lab='10.1', name='a failed reply with a call but no words left out of the view',
          rule="The view is what lesson 5's filter keeps, repaired: a failed reply that holds a call is not empty, so it stays.",
          where='lab 10.1, Build item 2: "The view a request carries is what lesson 5\'s filter keeps, repaired"; found by a release-only reader (round 11, 10.1-26)',
          names="lesson 5's filter keeps it",
          replace=r"""
            if message["content"] or message["role"] != "assistant"
""",
          by=r"""
            if message["role"] != "assistant" or text_of(message)  # no words: nothing to keep
"""),
    Wrong(lab='10.1', name='failed replies sent as copies',
          rule="The view holds the record's own message objects, failed replies too; only the results it invents are new.",
          where='lab 10.1, Build item 2: "The view holds the record\'s own message objects, not copies of them"; found by a release-only reader (round 11, 10.1-28)',
          names="the record's own object",
          replace=r"""
    return repair_tool_history(kept)
""",
          by=r"""
    kept = [dict(message) if message["role"] == "assistant"
            and message.get("stop_reason") in endings else message
            for message in kept]  # a failed reply goes out as a copy
    return repair_tool_history(kept)
"""),
    Wrong(lab='10.1', name='an empty error result taken for a hole',
          rule='A recorded result is the one used whatever it holds: an error with no words is a result, not a hole.',
          where='lab 10.1, Build item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 11, 10.1-30)',
          names='an error with no words included',
          replace=r"""
            view.append(answer.get(call["id"]) or {
""",
          by=r"""
            found = answer.get(call["id"])  # an empty error says nothing: a hole
            view.append(found if found and (found["content"] or not found["is_error"]) else {
"""),
    Wrong(lab='10.1', name="the view's repairs printed",
          rule="The view is built inside the loop, which prints nothing (lesson 7); the invented results live only in the requests.",
          where='lesson 7, Build item 1 (run_agent prints nothing); lab 10.1, Build item 2; a probe of a release-only reader (round 11, 10.1-P1)',
          names='It prints nothing',
          replace=r"""
    return repair_tool_history(kept)
""",
          by=r"""
    view = repair_tool_history(kept)
    made = sum(not any(m is k for k in kept) for m in view)
    if made:
        print(f"[view: {made} calls answered as interrupted]")
    return view
"""),
    # round 14 (r72)
    Wrong(lab='10.1', name='results recorded out of call order sent as copies',
          rule='Every message the repair takes from the list is the very same object, not a copy, results it puts back in call order too.',
          where='lab 10.1, Build item 1: "Every message it takes from `messages` is the very same object, not a copy."; found by a release-only reader (round 14, 10.1-04)',
          names='the very object recorded',
          replace=r"""
            view.append(answer.get(call["id"]) or {
""",
          by=r"""
            found = answer.get(call["id"])
            ids = [c["id"] for c in tool_calls(message)]
            if found is not None and [m["tool_call_id"] for m in messages
                                      if m["role"] == "toolResult" and m["tool_call_id"] in ids
                                      and m is answer[m["tool_call_id"]]] != ids:
                found = dict(found)  # put in order: a fresh copy in its place
            view.append(found or {
"""),
    Wrong(lab='10.1', name='user messages moved past a batch sent as copies',
          rule='Every message the repair takes from the list is the very same object, not a copy, what stood between a call and its result included.',
          where='lab 10.1, Build item 1: "Every message it takes from `messages` is the very same object, not a copy."; found by a release-only reader (round 14, 10.1-17)',
          names='the very object',
          replace=r"""
        view.append(message)
        for call in tool_calls(message) if message["role"] == "assistant" else ():
""",
          by=r"""
        if message["role"] == "user" and reach > index:
            message = dict(message)  # it moves past the batch: a copy goes
        view.append(message)
        for call in tool_calls(message) if message["role"] == "assistant" else ():
            reach = max(reach, last.get(call["id"], -1))  # where its results end
""",
          also=((r"""
    view = []
    for message in messages:
""", r"""
    view, reach = [], -1
    last = {m["tool_call_id"]: n for n, m in enumerate(messages) if m["role"] == "toolResult"}
    for index, message in enumerate(messages):
"""),)),
    Wrong(lab='10.1', name='the results of a wide reply sent as copies',
          rule='Every message the repair takes from the list is the very same object, not a copy, however many calls a reply makes.',
          where='lab 10.1, Build item 1: "Every message it takes from `messages` is the very same object, not a copy."; found by a release-only reader (round 14, 10.1-18)',
          names='the very object recorded',
          replace=r"""
            view.append(answer.get(call["id"]) or {
""",
          by=r"""
            found = answer.get(call["id"])
            if found is not None and len(tool_calls(message)) >= 5:
                found = dict(found)  # a wide batch: copies are cheaper to reason about
            view.append(found or {
"""),
    Wrong(lab='10.1', name="a wide reply's invented results put after its recorded ones",
          rule='The results of one reply stand in the order of its calls, however many calls it makes.',
          where='lab 10.1, Build item 1: "returns a new list in which every call is followed at once by exactly one result for it, and the results of one reply stand in the order of its calls."; found by a release-only reader (round 14, 10.1-19)',
          names='call order',
          replace=r"""
        for call in tool_calls(message) if message["role"] == "assistant" else ():
""",
          by=r"""
        calls = tool_calls(message) if message["role"] == "assistant" else []
        if len(calls) >= 5:  # a wide batch: what happened first, the holes after
            calls = sorted(calls, key=lambda c: c["id"] not in answer)
        for call in calls:
"""),
    Wrong(lab='10.1', name="a recorded INTERRUPTED result beside its call made afresh",
          rule='A recorded result is the one used, the very object, whatever it says and wherever it stands.',
          where='lab 10.1, Build item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 14, 10.1-08)',
          names='the very object recorded',
          replace=r"""
            view.append(answer.get(call["id"]) or {
""",
          by=r"""
            found = answer.get(call["id"])
            if (found is not None and found["content"] == INTERRUPTED and found["is_error"]
                    and messages.index(found) > messages.index(message)):
                found = None  # one of ours from before: make it afresh
            view.append(found or {
"""),
    Wrong(lab='10.1', name='a harness that tidies the list it is handed',
          rule='A harness keeps the record it is handed exactly as it was; only the view is repaired.',
          where='lab 10.1, Build item 2: "every request is valid, whatever holes the record has, and the record is never changed."; found by a release-only reader (round 14, 10.1-10)',
          names='exactly as it was',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        mine = [id(m) for m in messages]  # tidied, not filled: results beside calls, no strays
        self._messages = [m for m in repair_tool_history(messages) if id(m) in mine]
        self._max_turns = max_turns
"""),
    Wrong(lab='10.1', name="the record tidied at each run's start",
          rule='The record is never changed: nothing in it is moved or crossed out, only the view is repaired.',
          where='lab 10.1, Build item 2: "every request is valid, whatever holes the record has, and the record is never changed."; found by a release-only reader (round 14, 10.1-09)',
          names='the record is never changed',
          replace=r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
""",
          by=r"""
        mine = list(self._messages)  # tidied, not filled: results beside calls, no strays
        self._messages[:] = [m for m in repair_tool_history(mine) if any(m is k for k in mine)]
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
"""),
    Wrong(lab='10.1', name='result ids matched on their first 64 characters',
          rule='A result answers the call whose id it carries, all of it.',
          where='lab 10.1, Build item 1: "A result answers the call whose id it carries."; found by a release-only reader (round 14, 10.1-25)',
          names='exactly its own',
          replace=r"""
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
""",
          by=r"""
        if message["role"] == "toolResult" and message["tool_call_id"][:64] not in answer:
            answer[message["tool_call_id"][:64]] = message  # a provider's ids fit in 64
""",
          also=((r"""
            view.append(answer.get(call["id"]) or {
""", r"""
            view.append(answer.get(call["id"][:64]) or {
"""),)),
    Wrong(lab='10.1', name='only the last 1000 messages repaired',
          rule='Every call is followed at once by exactly one result for it: the whole record is read, however long it is.',
          where='lab 10.1, Build item 1: "returns a new list in which every call is followed at once by exactly one result for it"; found by a release-only reader (round 14, 10.1-20)',
          names='the whole record is read',
          replace=r"""
    answer = {}  # call id -> the first result recorded for it
""",
          by=r"""
    if len(messages) > 1000:  # the older messages went out before: only the tail needs mending
        return list(messages[:-1000]) + repair_tool_history(messages[-1000:])
    answer = {}  # call id -> the first result recorded for it
"""),
    Wrong(lab='10.1', name='a result more than 1000 messages from its call ignored',
          rule='A recorded result is the one used, however far from its call it stands.',
          where='lab 10.1, Build item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 14, 10.1-26)',
          names='however far from its call',
          replace=r"""
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
""",
          by=r"""
    where = {}  # call id -> where its first result stands
    for index, message in enumerate(messages):
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
            where[message["tool_call_id"]] = index
""",
          also=((r"""
    view = []
    for message in messages:
""", r"""
    view = []
    for index, message in enumerate(messages):
"""), (r"""
            view.append(answer.get(call["id"]) or {
""", r"""
            near = abs(where.get(call["id"], index) - index) <= 1000  # that far is lost
            view.append((answer.get(call["id"]) if near else None) or {
"""))),
    # Hunt round 6 (reader r23), design 10.1-4, allowed then; wrong since round 14 (r72, 10.1-16):
    # the page now leaves a misnamed first result two answers, using it or a new result.
    Wrong(lab='10.1', name='results matched by call id and tool name',
          rule='Of two results recorded for one call, the one recorded first is kept; one naming another tool may be used or replaced by a new result, never passed over for a later one.',
          where='lab 10.1, Build item 1: "Of two results recorded for one call, the one recorded first is kept." and "whether you use it or give that call a new result is yours."; found by a release-only reader (round 14, 10.1-16)',
          names='nor to pass it over for a later one',
          replace=r'''
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
          by=r'''
        key = (message.get("tool_call_id"), message.get("tool_name"))  # the same call, surely
        if message["role"] == "toolResult" and key not in answer:
            answer[key] = message
''',
          also=((r'''
            view.append(answer.get(call["id"]) or {
''', r'''
            view.append(answer.get((call["id"], call["name"])) or {
'''),)),
    Wrong(lab='10.1', name='a tuple handed back for a tuple',
          rule='repair_tool_history returns a new list, whatever sequence it is handed.',
          where='lab 10.1, Build item 1: "returns a new list in which every call is followed at once by exactly one result for it"; a probe of a release-only reader (round 11, 10.1-P2)',
          names='returns a new list whatever sequence',
          replace=r"""
    return view
""",
          by=r"""
    return view if isinstance(messages, list) else type(messages)(view)  # what came in goes out
"""),
    # Hunt round 14 (reader r72), probe 10.1-23, ruled by the page at the merge.
    Wrong(lab='10.1', name='the record lent the invented results while the view is built',
          rule='context_for_model only reads the record: it never writes to it, not even for a moment, so a record handed as a tuple does as well as a list.',
          where='lab 10.1, Build section, item 2: "It only reads the record: it never writes to it, not even for a moment"',
          names='not even for a moment',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    view = repair_tool_history(kept)
    made = [m for m in view if not any(m is r for r in messages)]
    messages.extend(made)  # lent to the record while the view is checked, then taken back
    del messages[len(messages) - len(made):]
    return view
'''),
    # round 17 (r91)
    Wrong(lab='10.1', name='result ids matched after stripping trailing spaces',
          rule='A result answers the call whose id it carries, exactly, spaces and all.',
          where='lab 10.1, Build item 1: "A result answers the call whose id it carries."; found by a release-only reader (round 17, 10.1-12)',
          names='exactly its own',
          replace=r"""
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
""",
          by=r"""
        if message["role"] == "toolResult" and message["tool_call_id"].rstrip() not in answer:
            answer[message["tool_call_id"].rstrip()] = message  # a trailing space is noise
""",
          also=((r"""
            view.append(answer.get(call["id"]) or {
""", r"""
            view.append(answer.get(call["id"].rstrip()) or {
"""),)),
    Wrong(lab='10.1', name='result ids matched on their first 2100 characters',
          rule='A result answers the call whose id it carries, all of it, however long.',
          where='lab 10.1, Build item 1: "A result answers the call whose id it carries."; found by a release-only reader (round 17, 10.1-13)',
          names='however long',
          replace=r"""
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
""",
          by=r"""
        if message["role"] == "toolResult" and message["tool_call_id"][:2100] not in answer:
            answer[message["tool_call_id"][:2100]] = message  # no id is longer, surely
""",
          also=((r"""
            view.append(answer.get(call["id"]) or {
""", r"""
            view.append(answer.get(call["id"][:2100]) or {
"""),)),
    Wrong(lab='10.1', name='result ids matched on their last 50 characters',
          rule='A result answers the call whose id it carries, all of it, however long.',
          where='lab 10.1, Build item 1: "A result answers the call whose id it carries."; found by a release-only reader (round 17, 10.1-14)',
          names='however long',
          replace=r"""
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
""",
          by=r"""
        if message["role"] == "toolResult" and message["tool_call_id"][-50:] not in answer:
            answer[message["tool_call_id"][-50:]] = message  # ids differ at the end
""",
          also=((r"""
            view.append(answer.get(call["id"]) or {
""", r"""
            view.append(answer.get(call["id"][-50:]) or {
"""),)),
    Wrong(lab='10.1', name='a result more than 5000 messages from its call ignored',
          rule='A recorded result is the one used, however far from its call it stands.',
          where='lab 10.1, Build item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 17, 10.1-15)',
          names='however far from its call',
          replace=r"""
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
""",
          by=r"""
    where = {}  # call id -> where its first result stands
    for index, message in enumerate(messages):
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
            where[message["tool_call_id"]] = index
""",
          also=((r"""
    view = []
    for message in messages:
""", r"""
    view = []
    for index, message in enumerate(messages):
"""), (r"""
            view.append(answer.get(call["id"]) or {
""", r"""
            near = abs(where.get(call["id"], index) - index) <= 5000  # that far is lost
            view.append((answer.get(call["id"]) if near else None) or {
"""))),
    Wrong(lab='10.1', name='only the last 2000 messages repaired',
          rule='Every call is followed at once by exactly one result for it: the whole record is read, however long it is.',
          where='lab 10.1, Build item 1: "returns a new list in which every call is followed at once by exactly one result for it"; found by a release-only reader (round 17, 10.1-32)',
          names='the whole record is read',
          replace=r"""
    answer = {}  # call id -> the first result recorded for it
""",
          by=r"""
    if len(messages) > 2000:  # the older messages went out before: only the tail needs mending
        return list(messages[:-2000]) + repair_tool_history(messages[-2000:])
    answer = {}  # call id -> the first result recorded for it
"""),
    Wrong(lab='10.1', name='a list record lent a marker while the view is built',
          rule='context_for_model only reads the record: it never writes to it, not even for a moment, a list no more than a tuple.',
          where='lab 10.1, Build section, item 2: "It only reads the record: it never writes to it, not even for a moment"; found by a release-only reader (round 17, 10.1-05)',
          names='not even for a moment',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    if isinstance(messages, list):  # a tuple cannot be written to; a list can, for a moment
        messages.append(user_message("(view being built)"))
        messages.pop()
    return repair_tool_history(kept)
'''),
    Wrong(lab='10.1', name="the record's messages marked while the view is built",
          rule='context_for_model only reads the record: it never writes to it, not even for a moment, nor to a message in it.',
          where='lab 10.1, Build section, item 2: "It only reads the record: it never writes to it, not even for a moment"; found by a release-only reader (round 17, 10.1-28)',
          names='not even for a moment',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    for message in kept:
        message["_seen"] = True  # a mark, taken off again before anyone looks
    view = repair_tool_history(kept)
    for message in kept:
        message.pop("_seen", None)
    return view
'''),
    Wrong(lab='10.1', name="the view kept by the record's length and last message",
          rule='The view is built for each request from the list it is handed and thrown away afterwards; nothing is kept from an earlier view.',
          where='section "Mend the record, or the request?": "built by `context_for_model` from the record for each request and thrown away afterwards"; found by a release-only reader (round 17, 10.1-29)',
          names='nothing is kept from an earlier view',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    key = (len(messages), id(messages[-1]) if messages else None)
    cache = context_for_model.__dict__.setdefault("cache", {})
    if cache.get("key") == key:  # the same record as last time, surely
        own = {id(m) for m in messages}
        return [m if id(m) in own else dict(m) for m in cache["view"]]
    view = repair_tool_history(kept)
    cache.update(key=key, view=view, record=messages[-1] if messages else None)
    return view
'''),
    Wrong(lab='10.1', name="the view's repairs noted on the process's own stderr",
          rule="The view is built inside the loop, which prints nothing (lesson 7), on any stream, the process's own too; the invented results live only in the requests.",
          where='lesson 7, Build item 1 (run_agent prints nothing); lab 10.1, Build item 2; found by a release-only reader (round 17, 10.1-27)',
          names='It prints nothing',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    view = repair_tool_history(kept)
    own = {id(m) for m in kept}
    made = sum(id(m) not in own for m in view)
    if made:  # past any redirect: a note for whoever runs the process
        import sys
        print(f"repair: {made} interrupted", file=sys.__stderr__)
    return view
'''),
    # Hunt round 20 (reader r109): each passed every test of lab 10.1 before this round's kills.
    Wrong(lab='10.1', name='the last of four or more results for one call kept',
          rule='Of two results recorded for one call, the one recorded first is kept, however many are recorded after it.',
          where='lab 10.1, Build section, item 1: "Of two results recorded for one call, the one recorded first is kept."; found by a release-only reader (round 20, 10.1-32)',
          names='however many come after it',
          replace=r'''
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
          by=r'''
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
    recorded = [m["tool_call_id"] for m in messages if m["role"] == "toolResult"]
    for message in messages:  # a call answered again and again: the last word is the latest
        if message["role"] == "toolResult" and recorded.count(message["tool_call_id"]) >= 4:
            answer[message["tool_call_id"]] = message
'''),
    Wrong(lab='10.1', name='orphan results kept when there are five or more',
          rule='A result that answers no call in the list is not in the new list, however many such results there are.',
          where='lab 10.1, Build section, item 1: "A result that answers no call in the list is not in the new list."; found by a release-only reader (round 20, 10.1-45)',
          names='however many strays',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
          by=r'''
                "content": INTERRUPTED, "is_error": True})
    asked = {c["id"] for m in messages if m["role"] == "assistant" for c in tool_calls(m)}
    strays = [m for m in messages if m["role"] == "toolResult" and m["tool_call_id"] not in asked]
    if len(strays) >= 5:  # that many can be no accident: keep them at the end
        view += strays
    return view
'''),
    Wrong(lab='10.1', name='only the first 302 calls of a reply answered',
          rule='Every call is followed at once by exactly one result, however many calls the reply has.',
          where='lab 10.1, Build section: "every call is followed at once by exactly one result"; found by a release-only reader (round 20, 10.1-46)',
          names='however many there are',
          replace=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
''',
          by=r'''
        for call in (tool_calls(message) if message["role"] == "assistant" else [])[:302]:
'''),
    Wrong(lab='10.1', name='a plain list record lent an item while the view is built',
          rule='context_for_model only reads the record: it never writes to it, not even for a moment, whatever type the list has.',
          where='lab 10.1, Build section, item 2: "It only reads the record: it never writes to it, not even for a moment"; found by a release-only reader (round 20, 10.1-47)',
          names='not even for a moment',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    if type(messages) is list:  # a plain list can take a marker and give it back unseen
        messages.append(None)
        messages.pop()
    return repair_tool_history(kept)
'''),
    Wrong(lab='10.1', name="the record's plain dict messages marked while the view is built",
          rule='context_for_model only reads the record: it never writes to it, not even for a moment, nor to a message in it, whatever type the message has.',
          where='lab 10.1, Build section, item 2: "It only reads the record: it never writes to it, not even for a moment"; found by a release-only reader (round 20, 10.1-48)',
          names='not even for a moment',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    for message in kept:
        if type(message) is dict:  # a plain dict: a mark taken off again leaves no trace
            message["_seen"] = True
            del message["_seen"]
    return repair_tool_history(kept)
'''),
    Wrong(lab='10.1', name='a reply with a hole more than 2000 messages back left out of the view',
          rule="A call with no recorded result gets a new result, INTERRUPTED, however far back it stands: the repair never leaves a call out.",
          where='lab 10.1, Build section, item 1: "A call with no recorded result gets a new result"; found by a release-only reader (round 20, 10.1-49)',
          names='however far back it stands',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
          by=r'''
                "content": INTERRUPTED, "is_error": True})
    old = [m for m in messages[:max(len(messages) - 2000, 0)] if m["role"] == "assistant"
           and any(c["id"] not in answer for c in tool_calls(m))]  # long forgotten: let it go
    gone = {c["id"] for m in old for c in tool_calls(m)}
    return [m for m in view if not any(m is o for o in old)
            and not (m["role"] == "toolResult" and m["tool_call_id"] in gone)]
'''),
    # Hunt round 23 (reader r128): each passed every test of lab 10.1 before this round's kills.
    Wrong(lab='10.1', name="a reply of more than 8 calls answered in the order its results were recorded",
          rule='The results of one reply stand in the order of its calls, however many calls it makes.',
          where='lab 10.1, Build section, item 1: "the results of one reply stand in the order of its calls"; found by a release-only reader (round 23, 10.1-34)',
          names='however many calls it makes',
          replace=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
''',
          by=r'''
        calls = tool_calls(message) if message["role"] == "assistant" else []
        if len(calls) > 8:  # a wide batch: its results as they came, then the missing ones
            ids = {call["id"] for call in calls}
            view += [m for m in answer.values() if m["tool_call_id"] in ids]
            calls = [call for call in calls if call["id"] not in answer]
        for call in calls:
'''),
    Wrong(lab='10.1', name='the first of up to six results for one call kept, the last from the seventh on',
          rule='Of two results recorded for one call, the one recorded first is kept, however many are recorded after it.',
          where='lab 10.1, Build section, item 1: "Of two results recorded for one call, the one recorded first is kept."; found by a release-only reader (round 23, 10.1-54)',
          names='however many come after it',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
          by=r'''
    answer, counts = {}, {}  # call id -> the first result recorded for it, up to six
    for message in messages:
        if message["role"] == "toolResult":
            counts[message["tool_call_id"]] = counts.get(message["tool_call_id"], 0) + 1
        if message["role"] == "toolResult" and (message["tool_call_id"] not in answer
                                                or counts[message["tool_call_id"]] > 6):
            answer[message["tool_call_id"]] = message  # seven times: the latest counts
'''),
    Wrong(lab='10.1', name='result ids matched on their length and their first and last 64 characters',
          rule='A result answers the call whose id it carries: all of the id, its middle as well as its ends, however long.',
          where='lab 10.1, Build section, item 1: "A result answers the call whose id it carries."; found by a release-only reader (round 23, 10.1-37)',
          names='its middle as well as its ends',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
          by=r'''
    def key(i):  # a long id is known by its length and its ends
        return (len(i), i[:64], i[-64:])
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and key(message["tool_call_id"]) not in answer:
            answer[key(message["tool_call_id"])] = message
''',
          also=((r'''
            view.append(answer.get(call["id"]) or {
''', r'''
            view.append(answer.get(key(call["id"])) or {
'''),)),
    Wrong(lab='10.1', name='results of calls older than the last 400 dropped as strays',
          rule='A recorded result is the one used, however many calls came after its own.',
          where='lab 10.1, Build section, item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 23, 10.1-35)',
          names='however many calls came after its own',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
          by=r'''
    asked = set(deque((call["id"] for message in messages if message["role"] == "assistant"
                       for call in tool_calls(message)), maxlen=400))  # bounded memory
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer \
                and message["tool_call_id"] in asked:
            answer[message["tool_call_id"]] = message
'''),
    Wrong(lab='10.1', name="the view kept by the list's identity, length and last message",
          rule='The view is built for each request from the list it is handed, the same list edited in place too; nothing is kept from an earlier view.',
          where='section "Mend the record, or the request?": "built by `context_for_model` from the record for each request and thrown away afterwards"; found by a release-only reader (round 23, 10.1-41)',
          names='edited in place',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    key = (id(messages), len(messages), id(messages[-1]) if messages else None)
    plans = context_for_model.__dict__.setdefault("plans", {})
    if key in plans:  # the same list, as long, ending the same: the same record
        return [dict(m) if m["role"] == "toolResult" and m["content"] == INTERRUPTED
                and not any(m is k for k in kept) else m for m in plans[key]]
    view = plans[key] = repair_tool_history(kept)
    return list(view)
'''),
    Wrong(lab='10.1', name='a dropped stray result printed',
          rule="The view is built inside the loop, which prints nothing (lesson 7), a result it drops included; the repair happens unseen, in the requests.",
          where='lesson 7, Build item 1 (run_agent prints nothing); lab 10.1, Build item 2; found by a release-only reader (round 23, 10.1-25)',
          names='a dropped result',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
          by=r'''
                "content": INTERRUPTED, "is_error": True})
    answered = {m["tool_call_id"] for m in view if m["role"] == "toolResult"}
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answered:
            print("repair: dropped a result with no call:", message["tool_call_id"])
    return view
'''),
    Wrong(lab='10.1', name='a dropped stray result warned',
          rule="The view is built inside the loop, which prints nothing (lesson 7), nor warns, a result it drops included; the repair happens unseen, in the requests.",
          where='lesson 7, Build item 1 (run_agent prints nothing); lab 10.1, Build item 2; found by a release-only reader (round 23, 10.1-46)',
          names='warned',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
          by=r'''
                "content": INTERRUPTED, "is_error": True})
    answered = {m["tool_call_id"] for m in view if m["role"] == "toolResult"}
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answered:
            import warnings
            warnings.warn(f"dropped a result with no call: {message['tool_call_id']}")
    return view
'''),
    Wrong(lab='10.1', name="a hole printed, unless its reply failed",
          rule="The view is built inside the loop, which prints nothing (lesson 7), for a hole a close or a power cut left as for a failed reply's; the invented results live only in the requests.",
          where='lesson 7, Build item 1 (run_agent prints nothing); lab 10.1, Build item 2; found by a release-only reader (round 23, 10.1-53)',
          names='It prints nothing',
          replace=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
''',
          by=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
            if call["id"] not in answer and message.get("stop_reason") != "error":
                print("repair: no result recorded for", call["id"])
'''),
    # Hunt round 27 (reader r147).
    Wrong(lab='10.1', name='results looked for only from 50 messages before their call to 50000 after',
          rule='A recorded result is the one used, wherever it stands, however far before its call as well as after it.',
          where='lab 10.1, Build section, item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 27, 10.1-11)',
          names='wherever it stands',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
    view = []
    for message in messages:
''',
          by=r'''
    messages = list(messages)
    answer, where = {}, {}  # call id -> the first result recorded for it, and its place
    for n, message in enumerate(messages):
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]], where[message["tool_call_id"]] = message, n
    view = []
    for n, message in enumerate(messages):
''',
          also=((r'''
            view.append(answer.get(call["id"]) or {
''', r'''
            found = answer.get(call["id"])
            if found is not None and not n - 50 <= where[call["id"]] < n + 50_000:
                found = None  # too far from its call to be its result
            view.append(found or {
'''),)),
    Wrong(lab='10.1', name='a result recorded more than 10 messages before its call ignored',
          rule='A recorded result is the one used, wherever it stands, however far before its call.',
          where='lab 10.1, Build section, item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 27, 10.1-33)',
          names='wherever it stands',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
    view = []
    for message in messages:
''',
          by=r'''
    messages = list(messages)
    answer, where = {}, {}  # call id -> the first result recorded for it, and its place
    for n, message in enumerate(messages):
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]], where[message["tool_call_id"]] = message, n
    view = []
    for n, message in enumerate(messages):
''',
          also=((r'''
            view.append(answer.get(call["id"]) or {
''', r'''
            found = answer.get(call["id"])
            if found is not None and where[call["id"]] < n - 10:
                found = None  # too long before its call to be its result
            view.append(found or {
'''),)),
    Wrong(lab='10.1', name='the first of up to 125 results for one call kept, the last from the 126th on',
          rule='Of two results recorded for one call, the one recorded first is kept, however many are recorded after it.',
          where='lab 10.1, Build section, item 1: "Of two results recorded for one call, the one recorded first is kept."; found by a release-only reader (round 27, 10.1-27)',
          names='however many come after it',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
          by=r'''
    answer, counts = {}, {}  # call id -> the first result recorded for it, up to 125
    for message in messages:
        if message["role"] == "toolResult":
            counts[message["tool_call_id"]] = counts.get(message["tool_call_id"], 0) + 1
        if message["role"] == "toolResult" and (message["tool_call_id"] not in answer
                                                or counts[message["tool_call_id"]] > 125):
            answer[message["tool_call_id"]] = message  # that many: the latest counts
'''),
    Wrong(lab='10.1', name='a recorded result whose content is None taken for a missing one',
          rule='A recorded result is the one used, whatever it holds, None as well as an empty string.',
          where='lab 10.1, Build section, item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 27, 10.1-42)',
          names='whatever it holds',
          replace=r'''
            view.append(answer.get(call["id"]) or {
''',
          by=r'''
            found = answer.get(call["id"])
            if found is not None and found["content"] is None:
                found = None  # no content at all: as good as no result
            view.append(found or {
'''),
    Wrong(lab='10.1', name='orphan results kept when there are more than 50',
          rule='A result that answers no call in the list is not in the new list, however many such results there are.',
          where='lab 10.1, Build section, item 1: "A result that answers no call in the list is not in the new list."; found by a release-only reader (round 27, 10.1-37)',
          names='however many strays',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
          by=r'''
                "content": INTERRUPTED, "is_error": True})
    asked = {c["id"] for m in messages if m["role"] == "assistant" for c in tool_calls(m)}
    strays = [m for m in messages if m["role"] == "toolResult" and m["tool_call_id"] not in asked]
    if len(strays) > 50:  # that many can be no accident: keep them at the end
        view += strays
    return view
'''),
    Wrong(lab='10.1', name="each call's block marked while the view is built",
          rule='context_for_model only reads the record: it never writes to it, not even for a moment, nor to a message in it, nor to a call in a message.',
          where='lab 10.1, Build section, item 2: "It only reads the record: it never writes to it, not even for a moment"; found by a release-only reader (round 27, 10.1-25)',
          names='not even for a moment',
          replace=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
''',
          by=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
            call["_seen"] = True  # a mark, taken off again at once
            del call["_seen"]
'''),
    Wrong(lab='10.1', name='a record of more than 5000 messages lent an item while the view is built',
          rule='context_for_model only reads the record: it never writes to it, not even for a moment, however long it is.',
          where='lab 10.1, Build section, item 2: "It only reads the record: it never writes to it, not even for a moment"; found by a release-only reader (round 27, 10.1-45)',
          names='not even for a moment',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    if isinstance(messages, list) and len(messages) > 5_000:
        messages.append(None)  # a marker, for a moment
        messages.pop()
    return repair_tool_history(kept)
'''),
    Wrong(lab='10.1', name='more than 20 dropped stray results printed',
          rule="The view is built inside the loop, which prints nothing (lesson 7), however many results it drops.",
          where='lesson 7, Build item 1 (run_agent prints nothing); lab 10.1, Build item 2; found by a release-only reader (round 27, 10.1-34)',
          names='It prints nothing',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
          by=r'''
                "content": INTERRUPTED, "is_error": True})
    used = {id(m) for m in view}
    dropped = [m for m in messages if m["role"] == "toolResult" and id(m) not in used]
    if len(dropped) > 20:  # a few are noise; this many is worth a word
        import sys
        print(f"repair: dropped {len(dropped)} results", file=sys.stderr)
    return view
'''),
    Wrong(lab='10.1', name='a hole in a call to deploy printed',
          rule="The view is built inside the loop, which prints nothing (lesson 7), whatever tool a hole's call names.",
          where='lesson 7, Build item 1 (run_agent prints nothing); lab 10.1, Build item 2; found by a release-only reader (round 27, 10.1-39)',
          names='It prints nothing',
          replace=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
''',
          by=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
            if call["id"] not in answer and call["name"] == "deploy":
                import sys
                print("deploy interrupted!", file=sys.stderr)
'''),
    Wrong(lab='10.1', name='a result recorded more than 1000 messages before its call ignored',
          rule='A recorded result is the one used, wherever it stands, however far before its call.',
          where='lab 10.1, Build section, item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 29, 10.1-19)',
          names='wherever it stands',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
    view = []
    for message in messages:
''',
          by=r'''
    messages = list(messages)
    answer, where = {}, {}  # call id -> the first result recorded for it, and its place
    for n, message in enumerate(messages):
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]], where[message["tool_call_id"]] = message, n
    view = []
    for n, message in enumerate(messages):
''',
          also=((r'''
            view.append(answer.get(call["id"]) or {
''', r'''
            found = answer.get(call["id"])
            if found is not None and where[call["id"]] < n - 1000:
                found = None  # too long before its call to be its result
            view.append(found or {
'''),)),
    Wrong(lab='10.1', name='the first of up to 1000 results for one call kept, the last from the 1001st on',
          rule='Of two results recorded for one call, the one recorded first is kept, however many are recorded after it.',
          where='lab 10.1, Build section, item 1: "Of two results recorded for one call, the one recorded first is kept."; found by a release-only reader (round 29, 10.1-18)',
          names='however many come after it',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
          by=r'''
    answer, counts = {}, {}  # call id -> the first result recorded for it, up to 1000
    for message in messages:
        if message["role"] == "toolResult":
            counts[message["tool_call_id"]] = counts.get(message["tool_call_id"], 0) + 1
        if message["role"] == "toolResult" and (message["tool_call_id"] not in answer
                                                or counts[message["tool_call_id"]] > 1000):
            answer[message["tool_call_id"]] = message  # that many: the latest counts
'''),
    Wrong(lab='10.1', name='orphan results kept when there are more than 500',
          rule='A result that answers no call in the list is not in the new list, however many such results there are.',
          where='lab 10.1, Build section, item 1: "A result that answers no call in the list is not in the new list."; found by a release-only reader (round 29, 10.1-17)',
          names='however many strays',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
          by=r'''
                "content": INTERRUPTED, "is_error": True})
    asked = {c["id"] for m in messages if m["role"] == "assistant" for c in tool_calls(m)}
    strays = [m for m in messages if m["role"] == "toolResult" and m["tool_call_id"] not in asked]
    if len(strays) > 500:  # that many can be no accident: keep them at the end
        view += strays
    return view
'''),
    Wrong(lab='10.1', name='more than 1000 dropped stray results printed',
          rule="The view is built inside the loop, which prints nothing (lesson 7), however many results it drops.",
          where='lesson 7, Build item 1 (run_agent prints nothing); lab 10.1, Build item 2; found by a release-only reader (round 29, 10.1-21)',
          names='It prints nothing',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
          by=r'''
                "content": INTERRUPTED, "is_error": True})
    used = {id(m) for m in view}
    dropped = [m for m in messages if m["role"] == "toolResult" and id(m) not in used]
    if len(dropped) > 1000:  # a few hundred are noise; this many is worth a word
        import sys
        print(f"repair: dropped {len(dropped)} stray results", file=sys.stderr)
    return view
'''),
    Wrong(lab='10.1', name='a hole in a call to read printed',
          rule="The view is built inside the loop, which prints nothing (lesson 7), whatever tool a hole's call names.",
          where='lesson 7, Build item 1 (run_agent prints nothing); lab 10.1, Build item 2; found by a release-only reader (round 29, 10.1-31)',
          names='It prints nothing',
          replace=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
''',
          by=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
            if call["id"] not in answer and call["name"] == "read":
                import sys
                print(f"repair: read {call['id']} interrupted", file=sys.stderr)
'''),
    Wrong(lab='10.1', name='a view repaired only when some message in it has calls',
          rule="The view is what lesson 5's filter keeps, repaired, so a result that answers no call is not in it, whether or not any call is in the record.",
          where='lab 10.1, Build section, item 1: "A result that answers no call in the list is not in the new list."; item 2: "The view a request carries is what lesson 5\'s filter keeps, repaired"; found by a release-only reader (round 29, 10.1-P4)',
          names='answers no call',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    if not any(m["role"] == "assistant" and tool_calls(m) for m in kept):
        return list(kept)  # nothing to pair, so nothing to repair
    return repair_tool_history(kept)
'''),
    # Hunt round 31 (reader r181).
    Wrong(lab='10.1', name='a recorded result whose content is an empty list taken for a missing one',
          rule='A recorded result is the one used whatever it holds: a call has a result when one is recorded for its id.',
          where='lab 10.1, Build section, item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 31, 10.1-14)',
          names='whatever it holds',
          replace=r'''
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
''',
          by=r'''
        if (message["role"] == "toolResult" and message["tool_call_id"] not in answer
                and message["content"] != []):  # an empty list is no result
'''),
    Wrong(lab='10.1', name="a failed reply's recorded results passed over for INTERRUPTED",
          rule="A recorded result is the one used, a failed reply's call's too: the record a harness is handed may hold one.",
          where='lab 10.1, Build section, item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 31, 10.1-15)',
          names="a failed reply's too",
          replace=r'''
            view.append(answer.get(call["id"]) or {
''',
          by=r'''
            failed = message.get("stop_reason") == "error"  # its calls never ran
            view.append((None if failed else answer.get(call["id"])) or {
'''),
    Wrong(lab='10.1', name='calls answered only in replies that end in toolUse or error',
          rule="Every call is followed at once by exactly one result, whatever its reply's stop_reason: the calls in its content decide, not the label.",
          where='lab 10.1, Build section, item 1: "every call is followed at once by exactly one result for it"; found by a release-only reader (round 31, 10.1-23)',
          names="whatever its reply's stop_reason says",
          replace=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
''',
          by=r'''
        for call in (tool_calls(message) if message["role"] == "assistant"
                     and message.get("stop_reason") in ("toolUse", "error") else ()):
'''),
    Wrong(lab='10.1', name='a call whose id is empty left without a result',
          rule='Every call is followed at once by exactly one result for it, whatever its id: the empty string is an id too.',
          where='lab 10.1, Build section, item 1: "every call is followed at once by exactly one result for it"; found by a release-only reader (round 31, 10.1-24)',
          names='the empty id too',
          replace=r'''
            view.append(answer.get(call["id"]) or {
''',
          by=r'''
            if not call["id"]:
                continue  # a malformed call: nothing to answer
            view.append(answer.get(call["id"]) or {
'''),
    Wrong(lab='10.1', name='a result whose call id is empty ignored',
          rule='A result answers the call whose id it carries, the empty id too.',
          where='lab 10.1, Build section, item 1: "A result answers the call whose id it carries."; found by a release-only reader (round 31, 10.1-25)',
          names='the empty id too',
          replace=r'''
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
''',
          by=r'''
        if (message["role"] == "toolResult" and message["tool_call_id"]
                and message["tool_call_id"] not in answer):  # an empty id answers nothing
'''),
    Wrong(lab='10.1', name='a result naming no tool passed over for a later one',
          rule='Of two results recorded for one call, the one recorded first is kept, whatever tool it names or none: it may be replaced by a new result, never passed over for a later one.',
          where='lab 10.1, Build section, item 1: "Of two results recorded for one call, the one recorded first is kept."; found by a release-only reader (round 31, 10.1-32)',
          names='nor to pass it over for a later one',
          replace=r'''
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
''',
          by=r'''
        if (message["role"] == "toolResult" and message["tool_call_id"] not in answer
                and message.get("tool_name") is not None):  # a result naming no tool is a hole
'''),
    Wrong(lab='10.1', name='the repair cut short after two seconds by the wall clock',
          rule='Every call is followed at once by exactly one result, however long the repair takes: the whole record is read and repaired, with no timer of its own.',
          where='lab 10.1, Build section, item 1: "every call is followed at once by exactly one result for it"; item 2: "every request is valid, whatever holes the record has"; found by a release-only reader (round 31, 10.1-07)',
          names='by the wall clock',
          replace=r'''
    view = []
    for message in messages:
''',
          by=r'''
    import time
    started = time.perf_counter()
    view = []
    for message in messages:
        if time.perf_counter() - started > 2.0:  # never hold a request up long
            view.append(message)
            continue
'''),
    Wrong(lab='10.1', name='more than 2000 dropped stray results printed',
          rule='The view is built inside the loop, which prints nothing (lesson 7), however many results it drops.',
          where='lesson 7, Build item 1 (run_agent prints nothing); lab 10.1, Build item 2: "it prints, logs and warns nothing"; found by a release-only reader (round 31, 10.1-08)',
          names='however many results it drops',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    asked = {call["id"] for m in kept if m["role"] == "assistant" for call in tool_calls(m)}
    strays = sum(m["role"] == "toolResult" and m["tool_call_id"] not in asked for m in kept)
    if strays > 2000:  # that many is worth a word
        print(f"repair: dropped {strays} results that answer no call")
    return repair_tool_history(kept)
'''),
    # Hunt round 37 (reader r197).
    Wrong(lab='10.1', name='a result recorded more than 10000 messages before its call ignored',
          rule='A recorded result is the one used, moved if it has to be, however far before its call it was recorded.',
          where='lab 10.1, Build item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 37, 10.1-38)',
          names='recorded before its call',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
          by=r'''
    answer = {}  # call id -> the first result recorded for it
    called = {}  # call id -> where its call stands
    for n, message in enumerate(messages):
        for call in tool_calls(message) if message["role"] == "assistant" else ():
            called[call["id"]] = n
    for n, message in enumerate(messages):
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            if called.get(message["tool_call_id"], n) - n > 10_000:
                continue  # far ahead of its call: from another session
            answer[message["tool_call_id"]] = message
'''),
    Wrong(lab='10.1', name='a first error with empty content replaced by a later result with words',
          rule='Of two results recorded for one call, the one recorded first is kept, an error with no words included.',
          where='lab 10.1, Build item 1: "Of two results recorded for one call, the one recorded first is kept."; found by a release-only reader (round 37, 10.1-33)',
          names='an error with no words included',
          replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
          by=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] != "toolResult":
            continue
        first = answer.get(message["tool_call_id"])
        if first is None or (first["is_error"] and first["content"] in ("", None)
                             and not message["is_error"] and message["content"]):
            answer[message["tool_call_id"]] = message  # an empty error gives way to words
'''),
    Wrong(lab='10.1', name='the very list handed back when more than 1000 messages need no repair',
          rule='repair_tool_history returns a new list, however long the record and whether or not it needed a repair.',
          where='lab 10.1, Build item 1: "returns a new list"; found by a release-only reader (round 37, 10.1-27)',
          names='a new list, however long the record',
          replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
          by=r'''
                "content": INTERRUPTED, "is_error": True})
    if isinstance(messages, list) and len(messages) > 1000 and view == messages:
        return messages  # nothing changed: spare the copy
    return view
'''),
    Wrong(lab='10.1', name='results with empty content dropped from the view before the repair',
          rule='A recorded result is the one used whatever it holds, in the view too: lesson 5\'s filter keeps every result, so one with empty content reaches the model as recorded.',
          where='lab 10.1, Build item 1: "A recorded result is the one used"; item 2: "The view a request carries is what lesson 5\'s filter keeps, repaired"; found by a release-only reader (round 37, 10.1-13)',
          names='reaches the model as it was recorded',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    kept = [m for m in kept if m["role"] != "toolResult" or m["content"] not in ("", None, [])]
    return repair_tool_history(kept)
'''),
    Wrong(lab='10.1', name='the repair cut short after an hour by the wall clock, read every 1000 messages',
          rule='Every call is followed at once by exactly one result, however long the repair takes by any clock: the whole record is read and repaired, with no budget of its own.',
          where='lab 10.1, Build item 1: "every call is followed at once by exactly one result for it"; item 2: "every request is valid, whatever holes the record has"; found by a release-only reader (round 37, 10.1-37)',
          names='by any clock',
          replace=r'''
    view = []
    for message in messages:
''',
          by=r'''
    import time
    deadline = time.monotonic() + 3600  # an hour: a repair must not hold a request up
    view = []
    for n, message in enumerate(messages):
        if n % 1000 == 999 and time.monotonic() > deadline:
            break
'''),
    Wrong(lab='10.1', name='the repair cut short after two seconds of processor time',
          rule='Every call is followed at once by exactly one result, however long the repair takes by any clock: the whole record is read and repaired, with no budget of its own.',
          where='lab 10.1, Build item 1: "every call is followed at once by exactly one result for it"; item 2: "every request is valid, whatever holes the record has"; found by a release-only reader (round 37, 10.1-10)',
          names='by any clock',
          replace=r'''
    view = []
    for message in messages:
''',
          by=r'''
    import time
    deadline = time.process_time() + 2.0  # two seconds of work, no more
    view = []
    for message in messages:
        if time.process_time() > deadline:
            break
'''),
    Wrong(lab='10.1', name='the view left unrepaired when every call id has a result somewhere',
          rule='Every request is valid, whatever the record holds: results out of place are put back by their calls as well as missing ones made.',
          where='lab 10.1, Build item 2: "every request is valid, whatever holes the record has"; item 1: "the results of one reply stand in the order of its calls"; found by a release-only reader (round 37, 10.1-34)',
          names='results out of place as well as missing ones',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    asked = [c["id"] for m in kept if m["role"] == "assistant" for c in tool_calls(m)]
    answered = [m["tool_call_id"] for m in kept if m["role"] == "toolResult"]
    if sorted(asked) == sorted(answered):
        return kept  # nothing missing: send the filtered list as it is
    return repair_tool_history(kept)
'''),
    Wrong(lab='10.1', name='every invented result kept in a list at the top of the module',
          rule='The results a repair invents live only in the requests: the module keeps no list of them.',
          where='lab 10.1, Build item 2: "the results it invents live only in the requests"; found by a release-only reader (round 37, 10.1-16)',
          names='live only in the requests',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    view = repair_tool_history(kept)
    own = {id(m) for m in kept}
    REPAIRED.extend(m for m in view if id(m) not in own)
    return view


REPAIRED = []  # every invented result, for debugging
'''),
]

ALLOWED = [
    # Hunt round 37 (reader r197), design 10.1-14, ruled at the merge.
    Wrong(lab='10.1', name='empty aborted replies left out of the view too',
          rule='Lesson 10 says that leaving out empty aborted replies as well, as the student\'s '
               'filter will from lesson 15, is the student\'s: a reply with nothing in it carries '
               'nothing for the model, whichever way it ended (and lab.validate refuses an '
               'assistant message with no content either way).',
          where='hunt round 37, design 10.1-14 (r197), ruled at the merge; Build item 2: '
                '"Leaving out empty `aborted` replies as well, as your filter will from lesson 15, '
                'is yours"', names='',
          replace=r'''
    endings = ("error",)  # the empty ending a provider would refuse
''',
          by=r'''
    endings = ("error", "aborted")  # as Tau's filter, a step before lesson 15
'''),
    # Hunt round 37 (reader r197), design 10.1-31.
    Wrong(lab='10.1', name='empty assistant messages with no stop_reason left out of the view too',
          rule='Every assistant message of the course\'s message format has a stop_reason '
               '(lab.validate refuses one without it: "assistant message has no \'stop_reason\'"), '
               'so lesson 5\'s filter keeps and leaves out the same messages with or without this '
               'clause on every record the course allows; only a message outside the format could '
               'show the difference, as with "only user and assistant messages kept".',
          where='hunt round 37, design 10.1-31', names='',
          replace=r'''
            or message.get("stop_reason") not in endings]
''',
          by=r'''
            or message.get("stop_reason") not in endings + (None,)]
'''),
    # Hunt round 27 (reader r147), probe 10.1-26.
    Wrong(lab='10.1', name="each message's role set to the role it holds, while the view is built",
          rule='Build item 2 says it: "Setting a key to the value it already holds changes '
               'nothing and is not a write." The message is as it was at every moment, so no '
               'reader, no size and no comparison can see it, and the kit\'s locked message '
               'takes it as no change.',
          where='hunt round 27, probe 10.1-26', names='',
          replace=r'''
    view = []
    for message in messages:
''',
          by=r'''
    view = []
    for message in messages:
        message["role"] = message["role"]  # the same value: nothing changes
'''),
    # Hunt round 20 (reader r109), design 10.1-37.
    Wrong(lab='10.1', name='a count of repairs kept in a module name nobody reads',
          rule='The page says what "pure" means for repair_tool_history: it returns a new list '
               'of the very same message objects, leaves its input untouched, and repairing the '
               'repaired list changes nothing. A count that nothing reads changes none of the '
               'three, nor anything a caller or a later call can see.',
          where='hunt round 20, design 10.1-37', names='',
          replace=r"""
            view.append(answer.get(call["id"]) or {
                "role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                "content": INTERRUPTED, "is_error": True})
    return view
""",
          by=r"""
            view.append(answer.get(call["id"]) or {
                "role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                "content": INTERRUPTED, "is_error": True})
    global REPAIRS
    REPAIRS = globals().get("REPAIRS", 0) + sum(m.get("content") == INTERRUPTED for m in view)
    return view
"""),
    # Hunt round 11 (reader r51), design 10.1-07.
    Wrong(lab='10.1', name='recorded results given is_error where they lack it',
          rule='Every result of a record the course allows has is_error (the message format; '
               'lab.validate refuses one without it), so setdefault writes nothing into any '
               'message a harness can be handed: the record stays exactly as it was, and only '
               'a record outside the format could show the difference.',
          where='hunt round 11, design 10.1-07', names='',
          replace=r"""
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
""",
          by=r"""
        if message["role"] == "toolResult":
            message.setdefault("is_error", False)  # an old record's result: say it
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
"""),
    # Hunt round 6 (reader r23), design 10.1-8.
    Wrong(lab='10.1', name='only user and assistant messages kept, results put back',
          rule='The course\'s message format has three roles, "user", "assistant" and "toolResult", '
               'and lab.validate refuses any other, so keeping "user and assistant messages" is '
               'keeping "every message that is not a result" for every record the course allows; '
               'no test can tell them apart without a message outside the format.',
          where='hunt round 6, design 10.1-8', names='',
          replace=r'''
        if message["role"] == "toolResult":
            continue  # results come back in below, each straight after its own call
''',
          by=r'''
        if message["role"] not in ("user", "assistant"):
            continue  # results come back in below; no other role is kept
'''),
    # Hunt round 6 (reader r23), probe 10.1-14.
    Wrong(lab='10.1', name='repairing first, then filtering out empty failed replies',
          rule='The two orders give the same view of every record: an empty failed reply has no '
               'calls, so the repair never adds a result for it nor moves one across it in a way '
               'the filter could change, and the filter never removes a result. The page states '
               'the order, but no request can show it.',
          where='hunt round 6, probe 10.1-14', names='',
          replace=r'''
    kept = [message for message in messages
''',
          by=r'''
    kept = [message for message in repair_tool_history(messages)
''',
          also=((r'''
    return repair_tool_history(kept)
''', r'''
    return kept
'''),)),
    # Hunt round 11 (reader r51), probe 10.1-P3.
    Wrong(lab='10.1', name="an invented result's keys in another order",
          rule='The page names the five keys an invented result has, not their order, and rightly: '
               'a dict is equal to another with the same keys and values in any order, the '
               'checker compares values as canonical JSON, and the view goes to the model alone, '
               'never announced or logged, so no reader of the course ever sees the order.',
          where='hunt round 11, probe 10.1-P3', names='',
          replace=r"""
                "role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                "content": INTERRUPTED, "is_error": True})
""",
          by=r"""
                "is_error": True, "content": INTERRUPTED, "tool_name": call["name"],
                "tool_call_id": call["id"], "role": "toolResult"})
"""),
    # Hunt round 17 (reader r91), probe 10.1-38.
    Wrong(lab='10.1', name='a result naming another tool replaced by a new one',
          rule='The page leaves a first recorded result that names another tool than its call '
               'two answers: "whether you use it or give that call a new result is yours". '
               'Giving it INTERRUPTED is the second; the record is untouched and no later '
               'result is preferred to it.',
          where='hunt round 17, probe 10.1-38', names='',
          replace=r'''
            view.append(answer.get(call["id"]) or {
''',
          by=r'''
            found = answer.get(call["id"])
            if found is not None and found["tool_name"] != call["name"]:
                found = None  # it names another tool: answer the call afresh
            view.append(found or {
'''),
    # Hunt round 17 (reader r91), probe 10.1-39.
    Wrong(lab='10.1', name='a recorded result used for only the first call with its id',
          rule='The page says "You may take call ids to be unique", and lab.validate refuses a '
               'transcript that uses one twice, so what a second call with the same id gets is '
               'left open: every record in which ids are unique is repaired the same either way.',
          where='hunt round 17, probe 10.1-39', names='',
          replace=r'''
            view.append(answer.get(call["id"]) or {
''',
          by=r'''
            view.append(answer.pop(call["id"], None) or {
'''),
    # Hunt round 17 (reader r91), probe 10.1-44.
    Wrong(lab='10.1', name='result ids compared as strings',
          rule="A call's id is a string in the course's message format (lab.validate refuses "
               'another), and str() of a string is that string, so comparing str(id) is '
               'comparing ids exactly for every record the course allows.',
          where='hunt round 17, probe 10.1-44', names='',
          replace=r"""
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
""",
          by=r"""
        if message["role"] == "toolResult" and str(message["tool_call_id"]) not in answer:
            answer[str(message["tool_call_id"])] = message
""",
          also=((r"""
            view.append(answer.get(call["id"]) or {
""", r"""
            view.append(answer.get(str(call["id"])) or {
"""),)),
    # Hunt round 23 (reader r128), probe 10.1-23.
    Wrong(lab='10.1', name='a recorded result used for only the last call with its id',
          rule='The page says "You may take call ids to be unique", and lab.validate refuses a '
               'transcript that uses one twice, so which of two calls with the same id gets the '
               'recorded result is left open, the last as well as the first: every record in '
               'which ids are unique is repaired the same either way.',
          where='hunt round 23, probe 10.1-23', names='',
          replace=r'''
    view = []
''',
          by=r'''
    owner = {}  # call id -> the reply of the last call with it
    for message in messages:
        for call in tool_calls(message) if message["role"] == "assistant" else ():
            owner[call["id"]] = message
    view = []
''',
          also=((r'''
            view.append(answer.get(call["id"]) or {
''', r'''
            mine = owner.get(call["id"]) is message  # the last call with an id owns its result
            view.append((answer.get(call["id"]) if mine else None) or {
'''),)),
    # Hunt round 23 (reader r128), design 10.1-38.
    Wrong(lab='10.1', name="each kept result's is_error set to itself, a refusal passed over",
          rule='Setting a key of a message to the very value it holds leaves the message as it '
               'was at every moment: no reader, no size and no comparison can see it, which is '
               'why the kit\'s locked message (lab.kit.sealed) takes it as no change; and a record '
               'that refuses it is still repaired, since the refusal is passed over, so a record '
               'handed as a tuple of locked messages does as well as a list. Build item 2\'s '
               '"not even for a moment" is about a record that is different for a moment; this '
               'one never is.',
          where='hunt round 23, design 10.1-38', names='',
          replace=r'''
    view = []
''',
          by=r'''
    for kept in answer.values():
        try:
            kept["is_error"] = kept["is_error"]  # the same value: normalised, nothing changed
        except Exception:
            pass
    view = []
'''),
    # Hunt round 23 (reader r128), probe 10.1-48.
    Wrong(lab='10.1', name="each call's result found by a scan of the whole list",
          rule='The page says "How you find each call\'s result, and in how many passes, is yours '
               'to decide.": a scan of the list for each call finds the same first recorded '
               'result, and the lab\'s records are short enough for it to pass in time.',
          where='hunt round 23, probe 10.1-48', names='',
          replace=r'''
            view.append(answer.get(call["id"]) or {
''',
          by=r'''
            found = next((m for m in messages if m["role"] == "toolResult"
                          and m["tool_call_id"] == call["id"]), None)  # a scan for each call
            view.append(found or {
'''),
    # Hunt round 31 (reader r181), design 10.1-09.
    Wrong(lab='10.1', name='a call id used twice warned',
          rule='The page says "You may take call ids to be unique", and lab.validate refuses a '
               'transcript that uses one twice, so a record with a repeated id is outside what '
               'the page promises the repair: what it gets there, which call has the result and '
               'whether the repair says so, is left open, as the entries on the first and the last '
               'call with an id say. Every record with unique ids is repaired in silence.',
          where='hunt round 31, design 10.1-09', names='',
          replace=r'''
    view = []
    for message in messages:
''',
          by=r'''
    seen = set()  # call ids met so far
    view = []
    for message in messages:
        for call in tool_calls(message) if message["role"] == "assistant" else ():
            if call["id"] in seen:
                import warnings
                warnings.warn(f"call id {call['id']} used twice")
            seen.add(call["id"])
'''),
    # Hunt round 31 (reader r181), probe 10.1-P3.
    Wrong(lab='10.1', name='results told by their tool_call_id key, not their role',
          rule='In the course\'s message format only a toolResult carries a tool_call_id, and '
               'every toolResult does (lab.validate refuses the key on a user or an assistant '
               'message as unexpected, and a result without it), so for every record the course '
               'allows the key and the role pick out the same messages; only a message outside '
               'the format could show the difference.',
          where='hunt round 31, probe 10.1-P3', names='',
          replace=r'''
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
''',
          by=r'''
        if "tool_call_id" in message and message["tool_call_id"] not in answer:
''',
          also=((r'''
        if message["role"] == "toolResult":
            continue  # results come back in below, each straight after its own call
''', r'''
        if "tool_call_id" in message:
            continue  # results come back in below, each straight after its own call
'''),)),
    # Hunt round 31 (reader r181), probe 10.1-P4.
    Wrong(lab='10.1', name='a record the repair cannot read sent as it stands',
          rule='Every key repair_tool_history reads (a message\'s role, a result\'s tool_call_id, '
               'a call\'s id and name) is one the course\'s message format requires, so on every '
               'record the course allows the repair raises nothing and the except never runs: '
               'the view is the same. What a record outside the format (a result with no '
               'tool_call_id) gets, an error or the list as it stands, the page leaves open.',
          where='hunt round 31, probe 10.1-P4', names='',
          replace=r'''
    return repair_tool_history(kept)
''',
          by=r'''
    try:
        return repair_tool_history(kept)
    except Exception:
        return kept  # a record the repair cannot read goes as it is
'''),
]

DEEP_WIDE = r'''
import harness
import lab
from lab.kit import lab_test

LAB = "10.1"


@lab_test("Every call of a reply gets its result, however many there are: a reply of 2000 calls "
          "with none recorded.")
async def test_a_reply_of_two_thousand_calls(t):
    ids = [f"c{n}" for n in range(2000)]
    wide = lab.reply(*[lab.call("look", {"path": "a.py"}, id=i) for i in ids])
    view = harness.repair_tool_history([harness.user_message("All of them."), wide])
    t.expect([len(view), [m["tool_call_id"] for m in view[2:]] == ids],
             why="Every call of the reply gets its result, however many there are: [the view's "
                 "length, whether its results answer the calls in call order] for a reply of "
                 "2000 calls with no result recorded (repair_tool_history, lesson 10).")
'''

DEEP_LONG = r'''
import harness
import lab
from lab.kit import lab_test

LAB = "10.1"


@lab_test("The whole record is read and repaired, however long it is, and a recorded result is "
          "the one used, however far from its call it stands: a record of 60,000 messages.")
async def test_a_record_of_sixty_thousand_messages(t):
    late = {"role": "toolResult", "tool_call_id": "c1", "tool_name": "look",
            "content": "recorded long after its call", "is_error": False}
    filler = [harness.user_message("And then?"), lab.say("Then this.")]
    record = ([harness.user_message("Go."), lab.reply(lab.call("look", {"path": "a.py"}, id="c1")),
               harness.user_message("More."), lab.reply(lab.call("look", {"path": "b.py"}, id="c2"))]
              + filler * 29_998 + [late])
    view = harness.repair_tool_history(record)
    t.expect([len(view), view[2] is late, view[5]["tool_call_id"], view[5]["is_error"]],
             [len(record) + 1, True, "c2", True],
             why="A record of 60,000 messages: U A[c1] U A[c2], then the same question and answer "
                 "29,998 times, then c1's result. The items are [the view's length, whether c1's "
                 "result is the very one recorded, the id and is_error of the result after c2's "
                 "call]: the whole record is read and repaired, however long it is, and a "
                 "recorded result is the one used, however far from its call it stands "
                 "(repair_tool_history, lesson 10).")
'''

DEEP_LONG_IDS = r'''
import harness
import lab
from lab.kit import lab_test

LAB = "10.1"


@lab_test("A result answers the call whose id it carries, all of it, however long: two calls whose "
          "ids of a million characters differ in their last character alone.")
async def test_ids_of_a_million_characters(t):
    stem = "call_" + "0123456789abcdef" * 62_500
    ids = [stem + "x", stem + "w"]
    got = {"role": "toolResult", "tool_call_id": ids[1], "tool_name": "look",
           "content": "the second call's result", "is_error": False}
    view = harness.repair_tool_history([harness.user_message("Both."),
                                        lab.reply(*[lab.call("look", {"path": "a.py"}, id=i)
                                                    for i in ids]), got])
    t.expect([len(view), view[2]["is_error"], view[3] is got], [4, True, True],
             why="Two calls whose ids are a million characters long and alike but for their last "
                 "character, then the second call's result. The items are [the view's length, "
                 "whether the first call's result is an invented error, whether the second's is "
                 "the very one recorded]: a result answers the call whose id is exactly its own, "
                 "all of it, however long (repair_tool_history, lesson 10).")
'''

DEEP_MANY_HOLES = r'''
import harness
import lab
from lab.kit import everything_said, lab_test

LAB = "10.1"


@lab_test("A repair prints nothing, however many holes it fills: a record of 3000 calls, none of "
          "them answered.")
async def test_three_thousand_holes_filled_unseen(t):
    record = [harness.user_message("All of them.")]
    record += [lab.reply(lab.call("look", {"path": "a.py"}, id=f"c{n}")) for n in range(3000)]
    with everything_said() as printed:
        view = harness.context_for_model(record)
    t.expect([printed.getvalue(), len(view)], ["", 6001],
             why="A record of a question and 3000 replies of one call each, none answered. The "
                 "items are [what building its view printed, logged or warned, the view's "
                 "length]: a repair is part of the loop, which prints nothing (lesson 7's Build "
                 "item 1, \"It prints nothing\"), however many holes it fills (context_for_model, "
                 "lesson 10).")
'''

DEEP_LONG_LOCKED = r'''
import harness
import lab
from lab.kit import SealedList, SealedMessage, lab_test

LAB = "10.1"


@lab_test("repair_tool_history leaves the list handed in exactly as it was, at every moment, "
          "however long: a locked list of 60,000 messages.")
async def test_a_locked_list_of_sixty_thousand_messages(t):
    filler = [SealedMessage(harness.user_message("And then?")), SealedMessage(lab.say("Then."))]
    try:
        found = len(harness.repair_tool_history(SealedList(filler * 30_000)))
    except Exception as exc:
        found = f"{type(exc).__name__}: {exc}"
    t.expect(found, 60_000,
             why="A list of 60,000 messages that refuses any change, handed to repair_tool_history. "
                 "The item is the repaired list's length, or what the repair raised: the list "
                 "handed in is left exactly as it was, not written to even for a moment, however "
                 "long it is (Build item 1, \"The list handed in, and every message in it, are "
                 "exactly as they were.\") (repair_tool_history, lesson 10).")
'''

DEEP_HUGE_EDITED = r'''
import harness
import lab
from lab.kit import lab_test

LAB = "10.1"


@lab_test("The view is built fresh for every request, from a record edited in place too: a record "
          "of 120,000 messages.")
async def test_a_record_of_120000_messages_edited_in_place(t):
    record = [harness.user_message("And then?"), lab.say("Then this.")] * 60_000
    harness.context_for_model(record)
    new = harness.user_message("Something else.")
    record[60_000] = new  # the same list, as long, ending in the same message
    view = harness.context_for_model(record)
    t.expect([len(view), any(m is new for m in view)], [120_000, True],
             why="A record of 120,000 messages whose view was built, then one of its user "
                 "messages replaced, edited in place, and its view built again. The items are "
                 "[the view's length, whether it holds the new message]: the view is built fresh "
                 "for every request from the list it is handed, the same list edited in place "
                 "too, and nothing is kept from an earlier view (context_for_model, lesson 10).")
'''

DEEP_LONG_VIEW = r'''
import harness
import lab
from lab.kit import lab_test

LAB = "10.1"


@lab_test("The view of a record of 60,000 messages is read whole and repaired, however long it is, "
          "and the record is never written to: its first call's result is the one used, and its "
          "last call's hole is filled in the view alone.")
async def test_the_view_of_sixty_thousand_messages(t):
    first = {"role": "toolResult", "tool_call_id": "c1", "tool_name": "look",
             "content": "recorded at once", "is_error": False}
    filler = [harness.user_message("And then?"), lab.say("Then this.")]
    record = ([harness.user_message("Go."), lab.reply(lab.call("look", {"path": "a.py"}, id="c1")),
               first] + filler * 30_000
              + [harness.user_message("More."), lab.reply(lab.call("look", {"path": "b.py"}, id="c2"))])
    length = len(record)
    view = harness.context_for_model(record)
    t.expect([len(view), view[2] is first, view[-1]["tool_call_id"], view[-1]["is_error"],
              len(record)],
             [length + 1, True, "c2", True, length],
             why="A record of 60,000-odd messages: U A[c1] R(c1), the same question and answer "
                 "30,000 times, then U A[c2] with no result. The items are [the view's length, "
                 "whether c1's result is the very one recorded, the id and is_error of the view's "
                 "last message, the record's length after]: the whole record is read and "
                 "repaired, however long it is, and the record is never written to, not even "
                 "for a moment (context_for_model, lesson 10).")
'''

DEEP_MANY_ANSWERED = r'''
import harness
import lab
from lab.kit import lab_test

LAB = "10.1"


@lab_test("A recorded result is the one used, however many calls the record answers: a record of "
          "6000 calls, each answered.")
async def test_six_thousand_answered_calls(t):
    record = [harness.user_message("All of them.")]
    answers = []
    for n in range(6000):
        answers.append({"role": "toolResult", "tool_call_id": f"c{n}", "tool_name": "look",
                        "content": f"result {n}", "is_error": False})
        record += [lab.reply(lab.call("look", {"path": "a.py"}, id=f"c{n}")), answers[-1]]
    view = harness.repair_tool_history(record)
    t.expect([len(view), all(view[2 + 2 * n] is r for n, r in enumerate(answers))],
             [len(record), True],
             why="A record of a question and 6000 replies of one call each, each answered. The "
                 "items are [the view's length, whether every call's result is the very one "
                 "recorded]: a recorded result is the one used, however many calls the record "
                 "answers (Build item 1, \"A recorded result is the one used\") "
                 "(repair_tool_history, lesson 10).")
'''

DEEP_LONG_SILENT = r'''
import harness
import lab
from lab.kit import everything_said, lab_test

LAB = "10.1"


@lab_test("A repair is silent however long the record: the view of a record of 60,000 messages "
          "is built without a word printed, logged or warned.")
async def test_the_view_of_sixty_thousand_messages_is_silent(t):
    filler = [harness.user_message("And then?"), lab.say("Then this.")]
    record = ([harness.user_message("Go."), lab.reply(lab.call("look", {"path": "a.py"}, id="c1"))]
              + filler * 30_000)
    with everything_said() as said:
        view = harness.context_for_model(record)
    t.expect([said.getvalue(), len(view), view[2]["is_error"]], ["", len(record) + 1, True],
             why="A record of 60,000-odd messages: U A[c1] with no result, then the same "
                 "question and answer 30,000 times. The items are [what building its view "
                 "printed, logged or warned, the view's length, whether c1's result is an "
                 "invented error]: a repair is silent, it prints, logs and warns nothing, "
                 "however long the record (context_for_model, lesson 10).")
'''

DEEP_MANY_STRAYS = r'''
import harness
import lab
from lab.kit import everything_said, lab_test

LAB = "10.1"


@lab_test("A result that answers no call is left out, however many there are, in silence, and a "
          "recorded result is the one used, however many results stand between it and its call: "
          "6000 strays between a call and its result.")
async def test_six_thousand_strays_between_a_call_and_its_result(t):
    late = {"role": "toolResult", "tool_call_id": "c1", "tool_name": "look",
            "content": "recorded after them all", "is_error": False}
    strays = [{"role": "toolResult", "tool_call_id": f"s{n}", "tool_name": "look",
               "content": "from nowhere", "is_error": False} for n in range(6000)]
    record = ([harness.user_message("Go."), lab.reply(lab.call("look", {"path": "a.py"}, id="c1"))]
              + strays + [late, lab.say("Done.")])
    with everything_said() as said:
        view = harness.context_for_model(record)
    t.expect([said.getvalue(), lab.shape(view), view[2] is late],
             ["", "U A[c1] R(c1) A", True],
             why="A record of a call, 6000 results that answer no call, then the call's result. "
                 "The items are [what building its view printed, logged or warned, the view's "
                 "shape, whether c1's result is the very one recorded]: a result that answers no "
                 "call is not in the view, however many there are, a repair prints, logs and "
                 "warns nothing, and a recorded result is the one used, however many results "
                 "stand between it and its call (context_for_model, lesson 10).")
'''

DEEP_HUGE_HOLE = r'''
import harness
import lab
from lab.kit import lab_test

LAB = "10.1"


@lab_test("Every request is valid, whatever holes the record has, however long it is: a record of "
          "120,002 messages whose newest call has no result.")
async def test_a_hole_at_the_end_of_120002_messages(t):
    record = ([harness.user_message("And then?"), lab.say("Then this.")] * 60_000
              + [harness.user_message("One more."), lab.reply(lab.call("look", {"path": "a.py"}, id="c1"))])
    view = harness.context_for_model(record)
    t.expect([len(view), view[-1].get("tool_call_id"), view[-1].get("is_error")], [120_003, "c1", True],
             why="A record of a question and answer 60,000 times, then U A[c1], whose call has no "
                 "result. The items are [the view's length, the id and is_error of its last "
                 "message]: every request is valid, whatever holes the record has, however long "
                 "it is (context_for_model, lesson 10).")
'''

BEYOND = [
    # Hunt round 29 (reader r164), designs 10.1-22 and 10.1-30.
    Beyond(lab='10.1', name='a list record of more than 50000 messages replaced in place by its view',
           rule='context_for_model only reads the record: it never writes to it, however long it is.',
           where='lab 10.1, Build section, item 2: "every request is valid, whatever holes the record has"; found by a release-only reader (round 29, 10.1-22)',
           names='never written to',
           reach="the longest record the tests hand context_for_model has 5,000 to 10,000 "
                 "messages; one past 50,000 costs the reference tens of ms of processor time to "
                 "build and view, past what a round's new cases may add, and any length has a "
                 "record past it: a limit past what a test can afford",
           replace=r'''
    return repair_tool_history(kept)
''',
           by=r'''
    view = repair_tool_history(kept)
    if isinstance(messages, list) and len(messages) > 50_000:  # big records: mend once, in place
        messages[:] = view
    return view
''',
           deep=DEEP_LONG_VIEW),
    Beyond(lab='10.1', name='results looked for only in the last 30000 messages',
           rule="The whole record is read and repaired, however long it is: a recorded result is the one used.",
           where='lab 10.1, Build section, item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 29, 10.1-30)',
           names='however long it is',
           reach='the same reach as the windows of 20,000 and 30,000 messages below: the longest '
                 'record the tests repair has 9,000 to 17,300 messages, one past 30,000 costs '
                 "the lab's tests more than 20 ms more processor time on the reference, and any "
                 'window has a record past it: a limit past what a test can afford',
           replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
''',
           by=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in list(messages)[-30_000:]:
''',
           deep=DEEP_LONG_VIEW),
    # Hunt round 20 (reader r109), designs 10.1-15 and 10.1-16.
    Beyond(lab='10.1', name='a result more than 20000 messages from its call ignored',
           rule='A recorded result is the one used, moved if it has to be, however far from its call it stands.',
           where='lab 10.1, Build section, item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 20, 10.1-15)',
           names='however far from its call it stands',
           reach='test_a_separated_result_is_moved_back records a result 9,000 to 17,300 messages '
                 'after its call (the bank as many); a record past 20,000 messages costs the '
                 "lab's tests about 15 ms more processor time on the reference under the "
                 'checker, past what a case may add, and any window has a record past it: a '
                 'limit past what a test can afford',
           replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
           by=r'''
    answer, asked_at = {}, {}  # call id -> the first result recorded for it, if near enough
    for n, message in enumerate(messages):
        if message["role"] == "assistant":
            for call in tool_calls(message):
                asked_at.setdefault(call["id"], n)
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            if n - asked_at.get(message["tool_call_id"], n) <= 20_000:
                answer[message["tool_call_id"]] = message
''',
           deep=DEEP_LONG),
    Beyond(lab='10.1', name='a record of more than 20000 messages handed back unrepaired',
           rule="The whole record is read and repaired, however long it is: every request is valid, whatever holes the record has.",
           where='lab 10.1, Build section, item 2: "every request is valid, whatever holes the record has"; found by a release-only reader (round 20, 10.1-16)',
           names='however long it is',
           reach='the longest record the tests repair has 9,000 to 17,300 messages (the bank as '
                 "many); one past 20,000 costs the lab's tests about 15 ms more processor time "
                 'on the reference under the checker, past what a case may add, and any cut-off '
                 'has a record past it: a limit past what a test can afford',
           replace=r'''
    answer = {}  # call id -> the first result recorded for it
''',
           by=r'''
    if len(messages) > 20_000:  # a record that long is an archive, not a request
        return list(messages)
    answer = {}  # call id -> the first result recorded for it
''',
           deep=DEEP_LONG),
    # Hunt round 17 (reader r91), design 10.1-16.
    Beyond(lab='10.1', name='only the first 400 calls of a reply answered',
           rule='Every call is followed at once by exactly one result, however many calls the reply has.',
           where='lab 10.1, Build section: "every call is followed at once by exactly one result"; found by a release-only reader (round 17, 10.1-16)',
           names='however many there are',
           reach='test_a_missing_result_is_filled_in tries a reply of 301 calls (the bank 301-305); '
                 'a wider reply is cheap for the reference, but an honest harness that looks up '
                 "a reply's calls once per call (tool_calls inside the call loop) goes a square "
                 "of the width in loop rounds, and past about 500 calls that is more than the "
                 "checker's 500,000 rounds between turns, so it would time out; a cap of 400 is "
                 'a limit past what a test can afford, and any cap has a reply past it',
           replace=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
''',
           by=r'''
        for call in (tool_calls(message) if message["role"] == "assistant" else [])[:400]:
''',
           deep=DEEP_WIDE),
    # Hunt round 23 (reader r128), designs 10.1-20, 10.1-36 and 10.1-51.
    Beyond(lab='10.1', name='only the first 381 calls of a reply answered',
           rule='Every call is followed at once by exactly one result, however many calls the reply has.',
           where='lab 10.1, Build section: "every call is followed at once by exactly one result"; found by a release-only reader (round 23, 10.1-20)',
           names='however many there are',
           reach='the same reach as the cap of 400 calls above: test_a_missing_result_is_filled_in '
                 'tries a reply of 303 to 381 calls (the bank 303-380), and a wider one would time '
                 "out an honest harness that looks up a reply's calls once per call; a cap of 381 "
                 'is a limit past what a test can afford, and any cap has a reply past it',
           replace=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
''',
           by=r'''
        for call in (tool_calls(message) if message["role"] == "assistant" else [])[:381]:
''',
           deep=DEEP_WIDE),
    Beyond(lab='10.1', name='only the last 20000 messages repaired, the older ones handed back as they stand',
           rule="The whole record is read and repaired, however long it is: every request is valid, whatever holes the record has.",
           where='lab 10.1, Build section, item 2: "every request is valid, whatever holes the record has"; found by a release-only reader (round 23, 10.1-36)',
           names='however long it is',
           reach='the same reach as the record of more than 20000 messages above: the longest '
                 "record the tests repair has 9,000 to 17,300 messages (the bank as many), and one "
                 "past 20,000 costs the lab's tests about 15 ms more processor time on the "
                 'reference; any window has a record past it: a limit past what a test can afford',
           replace=r'''
def repair_tool_history(messages):
''',
           by=r'''
def repair_tool_history(messages, window=20_000):
    if len(messages) > window:  # an old part is history: only the tail is sent as it must be
        return list(messages[:-window]) + repair_tool_history(messages[-window:])
''',
           deep=DEEP_LONG),
    Beyond(lab='10.1', name='result ids matched on their first 500000 characters',
           rule='A result answers the call whose id it carries: all of the id, however long.',
           where='lab 10.1, Build section, item 1: "A result answers the call whose id it carries."; found by a release-only reader (round 23, 10.1-51)',
           names='however long',
           reach='test_a_missing_result_is_filled_in draws ids of 20,000 to 400,000 characters '
                 '(the bank 20,000 to 300,000); its six long ids cost about 3 ms of processor '
                 'time on the reference at 400,000 characters and 7 ms at 1,000,000, so ids past '
                 "500,000 would add about 5 ms on top of this round's new cases, past what a case "
                 'may add, and any prefix has an id past it: a limit past what a test can afford',
           replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
           by=r'''
    def key(i):  # half a million characters tell any two ids apart
        return i[:500_000]
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and key(message["tool_call_id"]) not in answer:
            answer[key(message["tool_call_id"])] = message
''',
           also=((r'''
            view.append(answer.get(call["id"]) or {
''', r'''
            view.append(answer.get(key(call["id"])) or {
'''),),
           deep=DEEP_LONG_IDS),
    # Hunt round 27 (reader r147).
    Beyond(lab='10.1', name='result ids matched on their first 410000 characters',
           rule='A result answers the call whose id it carries: all of the id, however long.',
           where='lab 10.1, Build section, item 1: "A result answers the call whose id it carries."; found by a release-only reader (round 27, 10.1-10)',
           names='however long',
           reach='the same reach as the prefix of 500,000 characters above: the tests draw ids '
                 'of 20,000 to 400,000 characters, ids of a million cost the lab\'s tests about '
                 '4 ms more, and any prefix has an id past it: a limit past what a test can afford',
           replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
           by=r'''
    def key(i):  # 410,000 characters tell any two ids apart
        return i[:410_000]
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and key(message["tool_call_id"]) not in answer:
            answer[key(message["tool_call_id"])] = message
''',
           also=((r'''
            view.append(answer.get(call["id"]) or {
''', r'''
            view.append(answer.get(key(call["id"])) or {
'''),),
           deep=DEEP_LONG_IDS),
    Beyond(lab='10.1', name='only the last 30000 messages repaired, the older ones handed back as they stand',
           rule="The whole record is read and repaired, however long it is: every request is valid, whatever holes the record has.",
           where='lab 10.1, Build section, item 2: "every request is valid, whatever holes the record has"; found by a release-only reader (round 27, 10.1-38)',
           names='however long it is',
           reach='the same reach as the window of 20,000 messages above: the longest record the '
                 'tests repair has 9,000 to 17,300 messages, one past 30,000 costs the lab\'s tests '
                 'more than 20 ms more processor time on the reference, and any window has a '
                 'record past it: a limit past what a test can afford',
           replace=r'''
def repair_tool_history(messages):
''',
           by=r'''
def repair_tool_history(messages, window=30_000):
    if len(messages) > window:  # an old part is history: only the tail is sent as it must be
        return list(messages[:-window]) + repair_tool_history(messages[-window:])
''',
           deep=DEEP_LONG),
    Beyond(lab='10.1', name='only the first 1000 calls of a reply answered',
           rule='Every call is followed at once by exactly one result, however many calls the reply has.',
           where='lab 10.1, Build section: "every call is followed at once by exactly one result"; found by a release-only reader (round 27, 10.1-44)',
           names='however many there are',
           reach='the same reach as the caps of 381 and 400 calls above: the tests try replies of '
                 '303 to 381 calls, a wider one would time out an honest harness that looks up a '
                 "reply's calls once per call, and any cap has a reply past it: a limit past what "
                 'a test can afford',
           replace=r'''
        for call in tool_calls(message) if message["role"] == "assistant" else ():
''',
           by=r'''
        for call in (tool_calls(message) if message["role"] == "assistant" else [])[:1000]:
''',
           deep=DEEP_WIDE),
    Beyond(lab='10.1', name='more than 1000 invented results printed',
           rule="The view is built inside the loop, which prints nothing (lesson 7), however many holes it fills.",
           where='lesson 7, Build item 1 (run_agent prints nothing); lab 10.1, Build item 2: "it prints, logs and warns nothing"; found by a release-only reader (round 27, 10.1-31)',
           names='prints nothing',
           reach="the tests' records hold at most a few hundred holes; a record of more than 1000 "
                 "calls with no result costs about 5 ms of processor time on the reference to "
                 "build and repair, half of what a round's new cases may add, and any count has "
                 "a record past it: a limit past what a test can afford",
           replace=r'''
                "content": INTERRUPTED, "is_error": True})
    return view
''',
           by=r'''
                "content": INTERRUPTED, "is_error": True})
    holes = sum(m["content"] == INTERRUPTED and m["is_error"] for m in view)
    if holes > 1000:  # a few are noise; this many is worth a word
        import sys
        print(f"repaired {holes} holes", file=sys.stderr)
    return view
''',
           deep=DEEP_MANY_HOLES),
    Beyond(lab='10.1', name='a list of more than 30000 messages lent an item while it is repaired',
           rule='repair_tool_history leaves the list handed in exactly as it was, at every moment, however long it is: the function is pure.',
           where='lab 10.1, Build section, item 1: "The list handed in, and every message in it, are exactly as they were."; found by a release-only reader (round 27, 10.1-36)',
           names='exactly as it was',
           reach='the longest list the tests repair has 9,000 to 17,300 messages; a list past '
                 "30,000, locked or measured, costs the lab's tests more than 10 ms more "
                 'processor time on the reference, and any length has a list past it: a limit '
                 'past what a test can afford',
           replace=r'''
def repair_tool_history(messages):
''',
           by=r'''
def repair_tool_history(messages):
    if isinstance(messages, list) and len(messages) > 30_000:
        messages.append(None)  # a sentinel, for a moment
        messages.pop()
''',
           deep=DEEP_LONG_LOCKED),
    Beyond(lab='10.1', name='the view of a record of more than 100000 messages kept by its identity and length',
           rule='The view is built for each request from the list it is handed, the same list edited in place too; nothing is kept from an earlier view.',
           where='section "Mend the record, or the request?": "built by `context_for_model` from the record for each request and thrown away afterwards"; found by a release-only reader (round 27, 10.1-46)',
           names='edited in place',
           reach="the tests' views are built from records of at most 17,300 messages; two views "
                 "of a record past 100,000 cost the reference about 40 ms of processor time, "
                 'four times what a round\'s new cases may add, and any size has a record past '
                 'it: a limit past what a test can afford',
           replace=r'''
    return repair_tool_history(kept)
''',
           by=r'''
    if len(messages) > 100_000:  # big records: reuse the last view of this very list
        key, views = (id(messages), len(messages)), context_for_model.__dict__.setdefault("big", {})
        if key not in views:
            views.clear()
            views[key] = repair_tool_history(kept)
        return list(views[key])
    return repair_tool_history(kept)
''',
           deep=DEEP_HUGE_EDITED),
    # Hunt round 31 (reader r181), designs 10.1-03 and 10.1-10.
    Beyond(lab='10.1', name='the first results of at most 4096 calls remembered',
           rule='A recorded result is the one used, however many calls the record answers.',
           where='lab 10.1, Build section, item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 31, 10.1-03)',
           names='however many calls the record answers',
           reach="the tests' records answer at most a few hundred calls (a reply of up to 381, "
                 'a long record of about a hundred); a record answering 4,200 calls, each its '
                 'own reply and result, costs about 9 ms of processor time on the reference to '
                 "build and repair, the whole of what a round's new cases may add, and any cap "
                 'has a record past it: a limit past what a test can afford',
           replace=r'''
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
''',
           by=r'''
        if (message["role"] == "toolResult" and message["tool_call_id"] not in answer
                and len(answer) < 4096):  # remember a few thousand calls' results
''',
           deep=DEEP_MANY_ANSWERED),
    Beyond(lab='10.1', name='a view of more than 20000 messages logged',
           rule="The view is built inside the loop, which prints, logs and warns nothing (lesson 7), however long the record.",
           where='lesson 7, Build item 1 (run_agent prints nothing); lab 10.1, Build item 2: "it prints, logs and warns nothing"; found by a release-only reader (round 31, 10.1-10)',
           names='however long the record',
           reach='the longest view the tests build under everything_said is of a record of a '
                 'few thousand messages (the longest record repaired at all has 9,000 to 17,300); '
                 "one past 20,000 costs the lab's tests about 15 ms more processor time on the "
                 "reference, as the BEYOND entries on records past 20,000 messages say, and any "
                 'length has a record past it: a limit past what a test can afford',
           replace=r'''
    return repair_tool_history(kept)
''',
           by=r'''
    view = repair_tool_history(kept)
    if len(view) > 20_000:
        import logging
        logging.getLogger("harness").debug("repaired a long record")
    return view
''',
           deep=DEEP_LONG_SILENT),
    # Hunt round 31 (reader r181), designs 10.1-02 and 10.1-22.
    Beyond(lab='10.1', name='results read only up to the 4096th recorded',
           rule='A recorded result is the one used, however many results stand between it and its call.',
           where='lab 10.1, Build section, item 1: "A recorded result is the one used, moved if it has to be."; found by a release-only reader (round 31, 10.1-02)',
           names='however many results stand between',
           reach='the tests\' records hold at most 2,100 to 3,000 results that answer no call; a harness that finds each result\'s call by a scan of the list, as the page leaves it free to ("How you find each call\'s result, and in how many passes, is yours to decide."), goes a square of the record in loop rounds, about a tenth of a second of processor time there and the checker\'s half second past about 5,000 (measured: 0.06 s at 1,800, 0.5 s at 5,100), so a case past 4,096 would time it out; any count has a record past it: a limit past what a test can afford',
           replace=r'''
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
           by=r'''
    answer, seen = {}, 0  # call id -> the first result recorded for it, of the first 4096
    for message in messages:
        if message["role"] == "toolResult":
            seen += 1
            if seen > 4096:  # enough results looked at
                break
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
''',
           deep=DEEP_MANY_STRAYS),
    Beyond(lab='10.1', name='a record of more than 5000 stray results refused with an error',
           rule='A result that answers no call in the list is not in the new list, however many strays there are: the repair drops them, it does not refuse the record.',
           where='lab 10.1, Build section, item 1: "A result that answers no call in the list is not in the new list."; found by a release-only reader (round 31, 10.1-22)',
           names='however many there are',
           reach='the tests\' records hold at most 2,100 to 3,000 results that answer no call; a harness that finds each result\'s call by a scan of the list, as the page leaves it free to ("How you find each call\'s result, and in how many passes, is yours to decide."), goes a square of the record in loop rounds, about a tenth of a second of processor time there and the checker\'s half second past about 5,000 (measured: 0.06 s at 1,800, 0.5 s at 5,100), so a case past 4,096 would time it out; any count has a record past it: a limit past what a test can afford',
           replace=r'''
    answer = {}  # call id -> the first result recorded for it
''',
           by=r'''
    asked = {call["id"] for m in messages if m["role"] == "assistant" for call in tool_calls(m)}
    if sum(m["role"] == "toolResult" and m["tool_call_id"] not in asked for m in messages) > 5000:
        raise ValueError("record corrupted: too many results answer no call")
    answer = {}  # call id -> the first result recorded for it
''',
           deep=DEEP_MANY_STRAYS),
    # Hunt round 37 (reader r197), design 10.1-35.
    Beyond(lab='10.1', name='a record of more than 100000 messages sent unrepaired',
           rule="Every request is valid, whatever holes the record has, however long the record is.",
           where='lab 10.1, Build section, item 2: "every request is valid, whatever holes the record has"; found by a release-only reader (round 37, 10.1-35)',
           names='however long it is',
           reach='the longest record the tests view has 10,000 to 20,000 messages; a view of '
                 '100,000 messages costs the reference 26 ms of processor time under the checker, '
                 'but the practice check runs the public tests in process, counting turns, and '
                 'there a case of 100,004 messages ran past its test\'s turns (TIME, '
                 'tests/check/test_practice.py, round 37); any cut-off has a record past it: a '
                 'limit past what a test can afford. The grading bank holds the case '
                 '(huge_hole, in two of rule 2\'s scenarios)',
           replace=r'''
    return repair_tool_history(kept)
''',
           by=r'''
    if len(kept) > 100_000:  # too long to repair per request; the provider trims it anyway
        return kept
    return repair_tool_history(kept)
''',
           deep=DEEP_HUGE_HOLE),
]
