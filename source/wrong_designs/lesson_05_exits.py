"""Lesson 5, "Ways a run can end: the run that would not stop": the wrong designs its rungs rule
out, each as a small change to lab 5.1's reference. The format is tools/wrong_designs.py's.
"""
from tools.wrong_designs import Beyond, Wrong

WRONG = [
    Wrong(lab='5.1', name='the crossed-out exit: a max_turns check between a reply and its calls',
          rule='The max_turns check belongs at the top of a turn, before the model call, so every call of the last turn has its result; one placed between a reply and its calls leaves a call without a result.',
          where='rung: A cap, and where it goes; Figure 5.1',
          names='has its result',
          replace=r'''
        messages.append(reply)
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
''',
          by=r'''
        messages.append(reply)
        if max_turns is not None and turn >= max_turns:
            return  # the last turn allowed: its reply is the ending, and its calls never run
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
'''),
    # Hunt round 28 (reader r158), design 36: a cap on tools too, past the batches a test asked for.
    Wrong(lab='5.1', name='a cap on tools beside the cap on turns, four tools a turn and one',
          rule='A turn is one model call with all of its calls; max_turns limits requests, not tools, however many calls a turn asks for.',
          where='rung: What a turn is (hunt round 28, 5.1-36)',
          names='max_turns limits requests',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    ran = 0
    turn = 0
""",
          also=((r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""", r"""
        if max_turns is not None and (turn > max_turns or ran >= 4 * max_turns + 1):
"""), (r"""
            messages.append(run_tool(tools, call))
""", r"""
            messages.append(run_tool(tools, call))
            ran += 1
"""))),
    # Hunt round 28 (reader r158), design 38: a stop after an answer, past the caps a test drew.
    Wrong(lab='5.1', name='a stop put after an answer on the last turn of a cap past six',
          rule='A run that needs no more than N turns ends on its own answer, for a cap of any size: no stop follows an answer given on the last turn the cap allows.',
          where='Build item 2: "A run that needs no more than N turns ends on its own answer" (hunt round 28, 5.1-38)',
          names='ends on its answer',
          replace=r"""
        if not calls:  # the content decides, not the stop_reason label
            return
""",
          by=r"""
        if not calls:  # the content decides, not the stop_reason label
            if not failed and max_turns is not None and turn == max_turns and max_turns > 6:
                messages.append(error_message(f"Agent stopped after max_turns={max_turns}"))
            return
"""),
    # Hunt round 28 (reader r158), design 25: a cut past the longest reason a test gave.
    Wrong(lab='5.1', name='error_message cutting a reason at a million characters',
          rule='error_message holds its text whole, however long: a provider\'s whole answer as the reason is kept, not cut.',
          where='Build item 1: "`error_message` holding `text`" (hunt round 28, 5.1-25)',
          names='held whole',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text[:1_000_000]}
"""),
    Wrong(lab='5.1', name='checking after the call',
          rule='The max_turns check sits at the top of a turn, before the model call: the stop itself costs no request.',
          where='rung: A cap, and where it goes',
          names='top of a turn',
          replace=r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
''',
          by=r'''
        reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        if max_turns is not None and turn > max_turns:  # the reply just paid for goes in the bin
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
'''),
    Wrong(lab='5.1', name='counting tools instead of model calls',
          rule='A turn is one model call with all of its calls; max_turns limits requests, not tools.',
          where='rung: What a turn is',
          names='max_turns limits requests',
          replace=r'''
        # given in lesson 5: a count of model calls, for the check at the top of each turn
        turn += 1
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        calls = [] if failed else tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        if max_turns is not None and turn >= max_turns:  # turn counts the tools run so far
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        calls = [] if failed else tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            turn += 1
            messages.append(run_tool(tools, call))
'''),
    Wrong(lab='5.1', name='raising for max_turns',
          rule="Reaching max_turns is recorded as the run's last message, never raised.",
          where="rung: Say it; don't raise it",
          names='never raised',
          replace=r'''
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
''',
          by=r'''
            raise RuntimeError("max_turns reached")
        else:
'''),
    Wrong(lab='5.1', name='ending quietly on max_turns',
          rule="The stop is recorded as the run's last message: a record that stops after a result looks like a run that crashed there.",
          where="rung: Say it; don't raise it",
          names="recorded as the run's last message",
          replace=r'''
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
''',
          by=r'''
            return  # the caller can count the messages
        else:
'''),
    Wrong(lab='5.1', name='raising for a provider failure',
          rule='A failed reply is recorded, never raised.',
          where='CURRICULUM lesson 5; rung: The reply that failed half-way',
          names='never raised',
          replace=r'''
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
''',
          by=r'''
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            if reply["stop_reason"] == "error":
                raise RuntimeError(reply["error_message"])
        messages.append(reply)
'''),
    Wrong(lab='5.1', name='endless retries',
          rule="A failed reply is the run's last message, and nobody is asked again: no retries in the loop.",
          where='rung: The reply that failed half-way',
          names='no retries',
          replace=r'''
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
''',
          by=r'''
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            while reply["stop_reason"] == "error":  # try again until it works
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
'''),
    # The open question's second common answer: bounded, and still the loop's business.
    Wrong(lab='5.1', name='three tries in run_agent, then give up',
          rule="A failed reply is the run's last message, and nobody is asked again: retries belong to the code that talks to the provider, not to the loop.",
          where='open question: Where retries belong',
          names='no retries',
          replace=r'''
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
''',
          by=r'''
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            for _ in range(2):  # two more tries, then give up
                if reply["stop_reason"] != "error":
                    break
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
'''),
    Wrong(lab='5.1', name="acting on a failed reply's calls",
          rule='Nothing in a failed reply is acted on: its calls may be cut off half way.',
          where='rung: The reply that failed half-way',
          names='nothing in a failed reply is acted on',
          replace=r'''
        calls = [] if failed else tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        calls = tool_calls(reply)  # the model asked for them; the label is about the connection
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if failed or not calls:
            return
'''),
    Wrong(lab='5.1', name="the whole calls of a reply cut off at the output limit run",
          rule='A reply cut off at the output limit is a failed reply, and nothing in a failed reply is acted on, not even the calls that arrived whole before the cut.',
          where='Build item 3; the reply that failed half-way',
          names='not even the whole ones before the cut',
          replace=r'''
        calls = [] if failed else tool_calls(reply)
''',
          by=r'''
        calls = tool_calls(reply)[:-1] if failed else tool_calls(reply)  # only the last was cut
'''),
    Wrong(lab='5.1', name='resending the empty error message',
          rule='Every request carries the view, context_for_model(messages), not the record: providers refuse an empty assistant message.',
          where='opening prediction; rung: The next request',
          names='context_for_model(messages), not the record',
          replace=r'''
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
''',
          by=r'''
            reply = model.complete(system, messages, tool_specs(tools))
'''),
    Wrong(lab='5.1', name='a view that keeps the empty error message',
          rule='The view leaves out an empty failed reply, which a provider refuses.',
          where='rung: The next request',
          names='leaves out an empty failed reply',
          replace=r'''
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
    return kept
''',
          by='    return list(messages)  # the model should know it failed'),
    Wrong(lab='5.1', name='deleting the failure from the record',
          rule='The record says what happened and is never changed by the view; only each request leaves the empty failure out.',
          where='rung: The next request',
          names='the record is untouched',
          replace=r'''
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
    return kept
''',
          by=r'''
    messages[:] = [message for message in messages
                   if message["content"] or message["role"] != "assistant"
                   or message.get("stop_reason") not in endings]
    return messages
'''),
    Wrong(lab='5.1', name='every failed reply left out of the view',
          rule='Only an empty failed reply is left out of the view; one that got words out stays, since its words may help.',
          where='rung: The next request',
          names='keeps one that has words',
          replace=r'''
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
''',
          by=r'''
    kept = [message for message in messages if message.get("stop_reason") not in endings]
'''),
    # Twenty requests fit under a default cap of 25; a job of 26 to 60 does not.
    Wrong(lab='5.1', name='no limit written as a default cap',
          rule='max_turns=None means no limit at all, not a large one: a run goes on while replies ask for tools.',
          where='rung: A cap, and where it goes',
          names='no limit at all',
          replace=r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
''',
          by=r'''
        if turn > (max_turns or 25):  # None: a cap of 25, plenty for any job
'''),
    Wrong(lab='5.1', name='a cap of 0 read as no cap',
          rule='A run given max_turns=N makes at most N requests, none when N is 0; only None means no cap.',
          where='lab 5.1, gap 2: "The cap"',
          names='not "no cap"',
          replace=r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
''',
          by=r'''
        if max_turns and turn > max_turns:
'''),
    Wrong(lab='5.1', name='a failure recognised by its error_message',
          rule='A failed reply is one whose stop_reason is "error"; its error_message may be empty.',
          where='lab 5.1, gap 3: "A failed reply"',
          names='whatever its error_message',
          replace=r'''
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
''',
          by=r'''
        failed = bool(reply.get("error_message"))
'''),
    Wrong(lab='5.1', name='a failure recognised by an error_message key',
          rule='A failed reply is one whose stop_reason is "error"; a reply that carries error_message None did not fail.',
          where='lab 5.1, gap 3: "A failed reply"',
          names='the label decides',
          replace=r'''
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
''',
          by=r'''
        failed = "error_message" in reply
'''),
    Wrong(lab='5.1', name='an error result taken as a way out',
          rule="A tool's result marked as an error, an unknown tool's included, is not a reply, and ends nothing.",
          where='lab 5.1, gap 3: "A failed reply"',
          names='not a way out',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls or any(messages[-1 - n]["is_error"] for n in range(len(calls))):
            return
'''),
    Wrong(lab='5.1', name="the ending's reason put in its content",
          rule='error_message(text) has an empty content; the reason is in error_message alone.',
          where='lab 5.1, gap 1: "An ending the record can hold"',
          names='error_message',
          replace=r'''
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
''',
          by=r'''
    return {"role": "assistant", "content": [{"type": "text", "text": text}],
            "stop_reason": "error", "error_message": text}
'''),
    Wrong(lab='5.1', name='the record itself handed back when nothing is left out',
          rule='context_for_model returns a new list, whatever the record holds.',
          where='lab 5.1, gap 4: "The view"',
          names='a new list',
          replace=r'''
    return kept
''',
          by=r'''
    return messages if len(kept) == len(messages) else kept
'''),
    # Round 3 of the hunt (source/hunts/round-3.md), 5.1-1 to 5.1-13.
    Wrong(lab='5.1', name='a failure told by an error_message that is not None',
          rule='A failed reply is one whose stop_reason is "error"; one that carries no error_message at all failed too.',
          where='Build item 3: "The label says a reply failed, not its `error_message`"',
          names='whatever its error_message',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply.get("error_message") is not None  # a reason given: it failed
"""),
    Wrong(lab='5.1', name='a view that leaves out every empty reply',
          rule='The view leaves out an empty assistant message labelled "error" and nothing else: an empty reply whose stop_reason is "stop" stays.',
          where='Build item 4; "Where yours is weaker"',
          names='empty reply whose stop_reason is "stop"',
          replace=r"""
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
""",
          by=r"""
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"]
"""),
    Wrong(lab='5.1', name='a view that tells a failure by its error_message',
          rule='The view leaves out an empty failed reply told by its stop_reason "error", whatever its error_message, "" included.',
          where='Build items 3 and 4',
          names='not by its error_message',
          replace=r"""
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
""",
          by=r"""
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or not message.get("error_message")]
"""),
    Wrong(lab='5.1', name='turns counted from the record',
          rule="max_turns counts this run's requests, from the top of its first turn; the replies earlier runs left on the record are not this run's turns.",
          where='Build item 2; the given line: "a count of the loop\'s laps"',
          names="this run's requests",
          replace=r"""
        turn += 1
        if max_turns is not None and turn > max_turns:  # before the call, never after
""",
          by=r"""
        turn = sum(message["role"] == "assistant" for message in messages) + 1  # from the record
        if max_turns is not None and turn > max_turns:  # before the call, never after
"""),
    Wrong(lab='5.1', name='a view made once per run and kept in step',
          rule='Every request carries a view made for it from the record, context_for_model(messages), not a list made for an earlier request and appended to since.',
          where="Build item 4: \"Every request the run makes carries this view\", which "
                "context_for_model's docstring says is built fresh for every request",
          names='never a list made for an earlier request',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    view = context_for_model(messages)  # made once, then kept in step with the record
    turn = 0
""",
          also=((r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
""", r"""
            reply = model.complete(system, view, tool_specs(tools))
        messages.append(reply)
        view.append(reply)
"""), (r"""
            messages.append(run_tool(tools, call))
""", r"""
            result = run_tool(tools, call)
            messages.append(result)
            view.append(result)
"""))),
    Wrong(lab='5.1', name='an exception from the model recorded as a failed reply',
          rule='A failed reply is one the code that talks to the provider labels "error"; the loop has no try, and an exception from the model goes through to the caller.',
          where='Build item 3: "no `try` turns it into one"; the cell before the first prediction '
                '(lab.ScriptExhausted "is not the harness stopping")',
          names='an exception from the model is not a failed reply',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except Exception as exc:  # a provider that raises is a provider that failed
                reply = error_message(str(exc))
"""),
    Wrong(lab='5.1', name='the view as a tuple',
          rule='context_for_model returns a new list, a list and not another sequence.',
          where='Build item 4: "returns a new list"',
          names='a list and not a tuple',
          replace=r"""
    return kept
""",
          by=r"""
    return tuple(kept)  # new, and nobody can change it
"""),
    Wrong(lab='5.1', name='a tidied reason',
          rule="error_message(text) holds text as given: the provider's reason is kept word for word.",
          where='Build item 1: "`error_message` holding `text`"',
          names='word for word',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error",
            "error_message": text.strip().rstrip(".")}
"""),
    Wrong(lab='5.1', name='the record sent when the view leaves nothing out',
          rule='Every request carries the view, never the record itself, even when the view leaves nothing out.',
          where='Build item 4; gap 2: "never the record itself"',
          names='never the record itself',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            view = context_for_model(messages)
            sent = messages if len(view) == len(messages) else view  # no copy when none is needed
            reply = model.complete(system, sent, tool_specs(tools))
"""),
    # Round 6 of the hunt (source/hunts/round-6.md), reader r22.
    Wrong(lab='5.1', name='a negative cap never reached',
          rule='A run given max_turns=N makes at most N requests: a cap below 0 allows none, like 0, and its stop is recorded.',
          where='Build item 2: "A run given `max_turns=N` makes at most N requests, and none at all when N is 0"',
          names='allows at most',
          replace=r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""",
          by=r"""
        if max_turns is not None and turn == max_turns + 1:  # the first turn past the cap
"""),
    Wrong(lab='5.1', name='a negative cap refused by raising',
          rule="Every way out of a run is recorded as its last message, never raised: a cap below 0 ends the run at once, with its stop on the record.",
          where='Build item 2: "A run given `max_turns=N` makes at most N requests"; run_agent\'s docstring, which records each way out and raises none',
          names='never raised',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    if max_turns is not None and max_turns < 0:
        raise ValueError(f"max_turns must be 0 or more, not {max_turns}")
    messages.append(user_message(prompt))
    turn = 0
"""),
    Wrong(lab='5.1', name="a network's errors from the model recorded as failed replies",
          rule='An exception the model raises is not a failed reply, a network\'s error included: no try turns it into one, and it goes through to the caller.',
          where='Build item 3: "An exception the model\'s `complete` raises is not a failed reply: no `try` turns it into one"',
          names='no try turns it into one',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except (ConnectionError, TimeoutError, OSError) as exc:  # the network, not the model
                reply = error_message(str(exc))
"""),
    Wrong(lab='5.1', name='an interrupt during a request recorded as an ending',
          rule='An exception the model raises goes through to the caller, an interrupt included: no try turns it into an ending.',
          where='Build item 3: "it goes on through the run to whoever called it"',
          names='an interrupt included',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except KeyboardInterrupt:
                reply = error_message("Interrupted by the user")
"""),
    Wrong(lab='5.1', name='one more try when the reason says it timed out',
          rule='A failed reply ends the run and the model is not asked again, whatever its reason says.',
          where='Build item 3: "stays on the record and ends the run: none of its calls runs, and the model is not asked again"',
          names='the label decides',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    turn = 0
    retried = False
""",
          also=((r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""", r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed and "timed out" in (reply.get("error_message") or "").lower() and not retried:
            retried = True
            continue  # one more try, for a hiccup
"""),)),
    Wrong(lab='5.1', name='a failure told by its label or by words in its error_message',
          rule='The label says a reply failed, not its error_message: a reply labelled toolUse that carries words in error_message did not fail.',
          where='Build item 3: "The label says a reply failed, not its `error_message`"',
          names='what it says',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] == "error" or bool(reply.get("error_message"))
"""),
    Wrong(lab='5.1', name='an empty failure swapped for an ending of its own',
          rule='A failed reply stays on the record as it came, every key of it.',
          where='Build item 3: "stays on the record"',
          names='as it came',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed and not reply["content"]:  # tidied to the ending's four keys
            messages[-1] = error_message(reply.get("error_message"))
"""),
    Wrong(lab='5.1', name="the view made for a run's first request only",
          rule='Every request the run makes carries the view, not only its first: later ones never carry the record.',
          where='Build item 4: "Every request the run makes carries this view instead of the record"',
          names='not only its first',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            sent = context_for_model(messages) if turn == 1 else list(messages)
            reply = model.complete(system, sent, tool_specs(tools))
"""),
    Wrong(lab='5.1', name='"no content" read as "no words"',
          rule='The view leaves out an assistant message with no content labelled "error": a failed reply with content stays, if its words are only spaces.',
          where='Build item 4: "less every assistant message that has no content and `stop_reason` `"error"`"',
          names='if only a space',
          replace=r"""
            if message["content"] or message["role"] != "assistant"
""",
          by=r"""
            if message["role"] != "assistant" or text_of(message).strip()
"""),
    Wrong(lab='5.1', name='a view that tells a failure by its error_message key',
          rule='The view tells an empty failure by its stop_reason "error", not by an error_message key, which a failure may lack and a good reply may carry as None.',
          where='Build item 4; Build item 3: "The label says a reply failed, not its `error_message`"',
          names='not by its error_message',
          replace=r"""
            or message.get("stop_reason") not in endings]
""",
          by=r"""
            or "error_message" not in message]
"""),
    Wrong(lab='5.1', name='a view that leaves out only an exact ending',
          rule='The view leaves out every empty assistant message labelled "error", whatever other keys it has or lacks, not only one equal to an ending error_message makes.',
          where='Build item 4: "less every assistant message that has no content and `stop_reason` `"error"`"',
          names='not by its error_message',
          replace=r"""
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
""",
          by=r"""
    kept = [message for message in messages
            if message != error_message(message.get("error_message"))]
"""),
    Wrong(lab='5.1', name="the view tidies None keys off the record's messages",
          rule='The view never changes the record: not a message of it, not a key whose value is None.',
          where='Build item 4: "It never changes the record"',
          names='whose value is None',
          replace=r"""
    endings = ("error",)  # the empty ending a provider would refuse
""",
          by=r"""
    endings = ("error",)  # the empty ending a provider would refuse
    for message in messages:
        for key in [key for key, value in message.items() if value is None]:
            del message[key]  # a provider refuses nulls
"""),
    Wrong(lab='5.1', name='a view of copies with their words right-stripped',
          rule="The view carries the record's messages as they stand, not edited copies.",
          where='Build item 4: "the record\'s messages, in order"',
          names='every space',
          replace=r"""
    return kept
""",
          by=r"""
    return [{**m, "content": [{**b, "text": b["text"].rstrip()} if b["type"] == "text" else b
                              for b in m["content"]]} if m["role"] == "assistant" else m
            for m in kept]
"""),
    Wrong(lab='5.1', name='a wall-clock budget beside max_turns',
          rule='max_turns=None means no cap at all, and the loop has no timer: a run goes on while replies ask for tools, however long it takes.',
          where='Build item 2: "`max_turns=None`, the default, means no cap at all"; "no retry, no timer"',
          names='no timer',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    import time
    started = time.monotonic()
    messages.append(user_message(prompt))
    turn = 0
""",
          also=((r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""", r"""
        if (max_turns is not None and turn > max_turns) or time.monotonic() - started > 120:
"""),)),
    Wrong(lab='5.1', name='one content list shared by every ending',
          rule="Each call of error_message makes a new message whose content is a list of its own: an ending that shares its content with every other takes a note written into one into all of them.",
          where='Build item 1: "Each call makes a new message" (hunt round 6, probe 5.1-13)',
          names='a content list of its own',
          replace=r"""
def error_message(text):
""",
          by=r"""
NO_WORDS = []  # an ending has no words: one empty list serves them all


def error_message(text):
""",
          also=((r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""", r"""
    return {"role": "assistant", "content": NO_WORDS, "stop_reason": "error", "error_message": text}
"""),)),
    # Hunt round 11 (reader r50): each design below passed the lab's tests of that day.
    Wrong(lab='5.1', name='error_message remembered for each reason',
          rule="Each call of error_message makes a new message, the same reason twice included: an ending kept and handed out again for its reason shares everything with the next ending of that reason.",
          where='Build item 1: "Each call makes a new message, its `content` a list of its own, so that no ending shares anything with another." (hunt round 11, 5.1-22)',
          names='the same reason twice',
          replace=r"""
def error_message(text):
""",
          by=r"""
ENDINGS = {}  # one ending for each reason, made once


def error_message(text):
""",
          also=((r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""", r"""
    if text not in ENDINGS:
        ENDINGS[text] = {"role": "assistant", "content": [], "stop_reason": "error",
                         "error_message": text}
    return ENDINGS[text]
"""),)),
    Wrong(lab='5.1', name='one stop kept for each cap and shared by its runs',
          rule="Each run stopped by its cap ends on an ending of its own: two runs stopped by the same cap share nothing, so a note a frontend adds to one is not in the other.",
          where='Build item 1: "Each call makes a new message, its `content` a list of its own, so that no ending shares anything with another." (hunt round 11, 5.1-06)',
          names='two runs stopped by the same cap',
          replace=r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
""",
          by=r"""
            reply = STOPS.setdefault(max_turns,
                                     error_message(f"Agent stopped after max_turns={max_turns}"))
""",
          also=((r"""
def error_message(text):
""", r"""
STOPS = {}  # one stop message for each cap, made once


def error_message(text):
"""),)),
    Wrong(lab='5.1', name='the stop written out beside error_message',
          rule="The run's last message, when the cap ends it, is an ending made by error_message: a dict written out in the loop is equal today and drifts when error_message changes.",
          where='Build item 2: "the run\'s last message is an ending made by `error_message`" (hunt round 11, 5.1-11)',
          names='made by error_message',
          replace=r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
""",
          by=r"""
            reply = {"role": "assistant", "content": [], "stop_reason": "error",
                     "error_message": f"Agent stopped after max_turns={max_turns}"}
"""),
    Wrong(lab='5.1', name='a three-hour timer beside max_turns',
          rule='max_turns=None means no cap at all, and the loop has no timer, however long: a run goes on while replies ask for tools, however much time goes by.',
          where='Build item 2: "`max_turns=None`, the default, means no cap at all" (hunt round 11, 5.1-02)',
          names='no timer',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    import time
    started = time.monotonic()
    messages.append(user_message(prompt))
    turn = 0
""",
          also=((r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""", r"""
        if (max_turns is not None and turn > max_turns) or time.monotonic() - started > 3 * 3600:
"""),)),
    # Hunt round 28 (reader r158), design 31: a timer far past what a test lets a day's ticks reach.
    Wrong(lab='5.1', name='a one-year timer beside max_turns',
          rule='max_turns=None means no cap at all, and the loop has no timer, however long: a run goes on while replies ask for tools, however much time goes by.',
          where='Build item 2: "`max_turns=None`, the default, means no cap at all" (hunt round 28, 5.1-31)',
          names='no timer',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    import time
    started = time.monotonic()
    messages.append(user_message(prompt))
    turn = 0
""",
          also=((r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""", r"""
        if (max_turns is not None and turn > max_turns) or time.monotonic() - started > 365 * 86400:
"""),)),
    Wrong(lab='5.1', name='the stop of an earlier run deleted by the next',
          rule="The record says what happened: a run's stop stays on the record after the next run on it, which leaves it out of the view, never off the record.",
          where='Build item 2: "the run\'s last message is an ending made by `error_message`" (hunt round 11, 5.1-10)',
          names='no run deletes an earlier',
          replace=r"""
        turn += 1
        if max_turns is not None and turn > max_turns:  # before the call, never after
""",
          by=r"""
        turn += 1
        if turn == 1 and len(messages) >= 2 and messages[-2].get("stop_reason") == "error" \
                and str(messages[-2].get("error_message")).startswith("Agent stopped after"):
            del messages[-2]  # the old stop is history now
        if max_turns is not None and turn > max_turns:  # before the call, never after
"""),
    Wrong(lab='5.1', name='a ValueError or RuntimeError from the model recorded as a failed reply',
          rule="An exception the model's complete raises is not a failed reply, whichever it is: no try turns it into one, and it goes on to the caller.",
          where='Build item 3: "no `try` turns it into one" (hunt round 11, 5.1-03)',
          names='no try turns it into one',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
""",
          by=r"""
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except (ValueError, RuntimeError) as problem:  # a bad answer from the provider
                reply = error_message(str(problem))
        messages.append(reply)
"""),
    Wrong(lab='5.1', name='one more try when the reason says rate limited',
          rule="A failed reply ends the run and the model is not asked again, whatever its reason invites: a rate limit's retry belongs to the code that talks to the provider.",
          where='Build item 3: "stays on the record and ends the run: none of its calls runs, and the model is not asked again" (hunt round 11, 5.1-04)',
          names='the model is not asked again',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        if reply["stop_reason"] == "error" and reply.get("error_message") == "rate limited" \
                and turn == 1:
            continue  # a rate limit passes in a second: one more try
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
"""),
    Wrong(lab='5.1', name='a few more tries when the reason says 503',
          rule="A failed reply ends the run and the model is not asked again, whatever its reason invites: a server's 503 is retried, if at all, by the code that talks to the provider.",
          where='Build item 3: "stays on the record and ends the run: none of its calls runs, and the model is not asked again" (hunt round 11, 5.1-05)',
          names='the model is not asked again',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        reason = str(reply.get("error_message") or "")
        if reply["stop_reason"] == "error" and turn <= 3 and (
                "503" in reason or "unavailable" in reason.lower()):
            continue  # a restarting server: ask again, a few times
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
"""),
    Wrong(lab='5.1', name="a failed reply's reason stripped on the record",
          rule="A failed reply stays on the record as it came, its reason word for word, spaces and full stop included: the loop tidies nothing of it.",
          where='Build item 3: "stays on the record and ends the run" (hunt round 11, 5.1-07)',
          names='word for word',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        if reply["stop_reason"] == "error" and isinstance(reply.get("error_message"), str):
            reply["error_message"] = reply["error_message"].strip()  # tidy the reason
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
"""),
    Wrong(lab='5.1', name='a failed reply raised after it is recorded when its reason says auth',
          rule="A failed reply is recorded and ends the run without raising, whatever its reason: a run's ending is a message on its record, never an exception.",
          where='Build item 3: "stays on the record and ends the run" (hunt round 11, 5.1-13)',
          names='without raising',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        if reply["stop_reason"] == "error" and "auth" in str(reply.get("error_message")).lower():
            raise PermissionError(reply["error_message"])  # no point going on
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
"""),
    Wrong(lab='5.1', name='the calls of a failed reply run when its reason says the stream ended',
          rule="None of a failed reply's calls runs, whatever its reason says: the label decides, and a reason saying the stream ended does not make its calls whole.",
          where='Build item 3: "none of its calls runs" (hunt round 11, 5.1-23)',
          names='the stream ended',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed and reply.get("error_message") == "stream ended":  # the calls came whole
            for call in tool_calls(reply):
                messages.append(run_tool(tools, call))
"""),
    Wrong(lab='5.1', name='a view that leaves out a failed reply of calls and no words',
          rule='The view leaves out an assistant message with no content labelled "error": a failed reply whose content is calls and no words has content, and stays.',
          where='Build item 4: "less every assistant message that has no content and `stop_reason` `"error"`" (hunt round 11, 5.1-08)',
          names='calls and no words',
          replace=r"""
            if message["content"] or message["role"] != "assistant"
""",
          by=r"""
            if message["role"] != "assistant" or text_of(message)
"""),
    Wrong(lab='5.1', name="a failed reply's calls edited out of the view",
          rule="The view holds the record's messages as they stand, less the empty failures: a failed reply with calls is kept as it is, not swapped for a copy without them.",
          where='Build item 4: "the record\'s messages, in order, less every assistant message that has no content and `stop_reason` `"error"`" (hunt round 11, 5.1-09)',
          names='not an edited copy',
          replace=r"""
    return kept
""",
          by=r"""
    view = []
    for message in kept:
        if message["role"] == "assistant" and message.get("stop_reason") == "error":
            words = [block for block in message["content"] if block["type"] != "toolCall"]
            if not words:
                continue  # its calls never ran: hide them, and the reply with them
            message = {**message, "content": words}
        view.append(message)
    return view
"""),
    Wrong(lab='5.1', name="a view that leaves out empty failures among the record's last 40 only",
          rule="The view leaves out every empty failed reply, wherever it stands on the record, the oldest of a long record too.",
          where='Build item 4: "less every assistant message that has no content and `stop_reason` `"error"`" (hunt round 11, 5.1-12)',
          names='wherever it stands',
          replace=r"""
    kept = [message for message in messages
""",
          by=r"""
    kept = messages[:-40] + [message for message in messages[-40:]
"""),
    Wrong(lab='5.1', name="a view that keeps an empty failure at the record's end",
          rule="The view leaves out every empty failed reply, the record's last message included: the view is given a record, not told who will add to it.",
          where='Build item 4: "less every assistant message that has no content and `stop_reason` `"error"`" (hunt round 11, 5.1-25)',
          names="the record's last message too",
          replace=r"""
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
""",
          by=r"""
    kept = [message for message in messages
            if message is messages[-1] or message["content"] or message["role"] != "assistant"
"""),
    Wrong(lab='5.1', name="the cap counted from the model's own count of calls",
          rule="A run given `max_turns=N` makes at most N requests. It counts its requests itself: a model is only something with a `complete`, and keeps no count a harness may read.",
          where='lab 5.1, Build item 2: "It counts its requests itself: a model is only something with a `complete`, and keeps no count a harness may read."; found by a release-only reader (round 11, probe 5.1-P2)',
          names='counts its requests itself',
          replace=r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""",
          by=r"""
        if turn == 1:
            asked_before = len(model.calls)  # the fake keeps a count: use it
        if max_turns is not None and len(model.calls) - asked_before >= max_turns:
"""),
    # Hunt round 13 (reader r64): designs that passed the release's check, each now failing.
    Wrong(lab='5.1', name="the model's count of calls read when it keeps one",
          rule="A run given `max_turns=N` makes at most N requests, and counts them itself: a model's own count of the requests it got is not the run's, since a tool may ask the same model too.",
          where='Build item 2: "It counts its requests itself: a model is only something with a `complete`, and keeps no count a harness may read." (hunt round 13, design 5.1-01)',
          names='counts its requests itself',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    asked_before = len(getattr(model, "calls", ()))  # the model's own count, where it keeps one
    turn = 0
""",
          also=((r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""", r"""
        counted = getattr(model, "calls", None)
        done = len(counted) - asked_before if counted is not None else turn - 1
        if max_turns is not None and done >= max_turns:  # before the call, never after
"""),)),
    Wrong(lab='5.1', name='the count kept on the model',
          rule='A run counts its requests itself: a model is only something with a `complete`, and the run writes no count on it to read back.',
          where='Build item 2: "It counts its requests itself: a model is only something with a `complete`, and keeps no count a harness may read." (hunt round 13, design 5.1-15)',
          names='writes no attribute on it',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    model.turns_asked = 0  # the count lives on the model, reset at each run
    turn = 0
""",
          also=((r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""", r"""
        if max_turns is not None and model.turns_asked >= max_turns:  # read off the model
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            model.turns_asked += 1
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
"""),)),
    Wrong(lab='5.1', name='a dropped connection from the model recorded as a failed reply',
          rule='An exception the model\'s `complete` raises is not a failed reply: no `try` turns it into one, a reset connection or a broken pipe included, and it goes through to the caller.',
          where='Build item 3: "no `try` turns it into one" (hunt round 13, design 5.1-05)',
          names='no try turns it into one',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except (ConnectionResetError, BrokenPipeError) as problem:  # a dropped line
                reply = error_message(str(problem))
"""),
    Wrong(lab='5.1', name='an exception that says rate limited recorded as a failed reply',
          rule='An exception the model\'s `complete` raises is not a failed reply, whatever its words say (a 429, overloaded, a rate limit): no `try` turns it into one, and it goes through to the caller.',
          where='Build item 3: "no `try` turns it into one" (hunt round 13, design 5.1-23)',
          names='no try turns it into one',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except Exception as problem:
                said = str(problem).lower()
                if not any(w in said for w in ("429", "overloaded", "rate limit")):
                    raise
                reply = error_message(str(problem))  # a rate limit, told by its words
"""),
    Wrong(lab='5.1', name='one more try when the reason starts with 429',
          rule='A failed reply stays on the record and ends the run: none of its calls runs, and the model is not asked again, a 429 included.',
          where='Build item 3: "stays on the record and ends the run: none of its calls runs, and the model is not asked again" (hunt round 13, design 5.1-24)',
          names='whatever the reason invites',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    retried = False
    turn = 0
""",
          also=((r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""", r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed and str(reply.get("error_message") or "").startswith("429") and not retried:
            retried = True  # a rate limit passes: one more try
            continue
"""),)),
    # Hunt round 28 (reader r158), design 29: a failure that names a wait is asked again.
    Wrong(lab='5.1', name='asked again, for ever, when the reason starts with Retry-After',
          rule='A failed reply stays on the record and ends the run: none of its calls runs, and the model is not asked again, whatever its error_message, a Retry-After included.',
          where='Build item 3: "stays on the record and ends the run: none of its calls runs, and the model is not asked again" (hunt round 28, design 5.1-29)',
          names='whatever its error_message',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed and str(reply.get("error_message") or "").startswith("Retry-After"):
            continue  # the provider named a wait: ask again
"""),
    Wrong(lab='5.1', name='an unknown tool asked for twice in a row taken as a way out',
          rule="A tool's result marked as an error, an unknown tool's included, is not a reply, and ends nothing, however often the model asks for that tool.",
          where='Build item 3: "A tool\'s result marked as an error, an unknown tool\'s included, is not a reply, and ends nothing." (hunt round 13, design 5.1-11)',
          names='an unknown tool\'s included, is not a reply',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    missing_before = set()
    turn = 0
""",
          also=((r"""
        if not calls:  # the content decides, not the stop_reason label
            return
""", r"""
        if not calls:  # the content decides, not the stop_reason label
            return
        missing = {call["name"] for call in calls} - {tool["name"] for tool in tools}
        if missing & missing_before:  # the same unknown tool twice in a row: give up
            name = sorted(missing & missing_before)[0]
            messages.append(error_message(f"Tool {name} not found twice"))
            return
        missing_before = missing
"""),)),
    Wrong(lab='5.1', name='error_message dropping a full stop at the end of its reason',
          rule='`error_message(text)` returns an ending whose `error_message` holds `text`, word for word, a full stop at its end included.',
          where='Build item 1: "`error_message` holding `text`" (hunt round 13, design 5.1-27)',
          names='spaces and full stop included',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    reason = text[:-1] if text.endswith(".") else text  # a sentence's full stop is not the reason
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": reason}
"""),
    Wrong(lab='5.1', name='a view that leaves out every empty reply not labelled stop',
          rule='The view is the record\'s messages, in order, less every assistant message that has no content and `stop_reason` `"error"`: an empty reply labelled anything else stays.',
          where='Build item 4: "less every assistant message that has no content and `stop_reason` `"error"`" (hunt round 13, design 5.1-08)',
          names='only the label "error" is left out',
          replace=r"""
            or message.get("stop_reason") not in endings]
""",
          by=r"""
            or message.get("stop_reason") == "stop"]  # an empty reply that ended well stays
"""),
    Wrong(lab='5.1', name='a view that leaves out a prompt typed again',
          rule='The view is the record\'s messages, in order, less every assistant message that has no content and `stop_reason` `"error"`: a user message stays, the same prompt typed twice included.',
          where='Build item 4: "the record\'s messages, in order, less every assistant message that has no content and `stop_reason` `"error"`" (hunt round 13, design 5.1-10)',
          names='a prompt typed twice',
          replace=r"""
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
    return kept
""",
          by=r"""
    kept = []
    for message in messages:
        if not message["content"] and message["role"] == "assistant" \
                and message.get("stop_reason") in endings:
            continue
        if kept and message["role"] == "user" and kept[-1] == message:
            continue  # the same prompt twice in a row says nothing new
        kept.append(message)
    return kept
"""),
    Wrong(lab='5.1', name='a failed reply of one empty text block left out of the view',
          rule='The view leaves out only an assistant message that has no content: a failed reply whose content is a text block holding "" has content, and stays.',
          where='Build item 4: "less every assistant message that has no content and `stop_reason` `"error"`" (hunt round 13, design 5.1-18, a probe)',
          names='a text block holding',
          replace=r"""
            if message["content"] or message["role"] != "assistant"
""",
          by=r"""
            if message["role"] != "assistant" or text_of(message) or tool_calls(message)
"""),
    Wrong(lab='5.1', name='a view kept in step and sent as a copy',
          rule='Every request the run makes carries the view context_for_model makes of the record for it, not a copy of a list kept in step with the record since the run began.',
          where='Build item 4: "Every request the run makes carries this view instead of the record" (hunt round 13, design 5.1-09)',
          names='Every request carries this view',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    view, seen = None, 0
    turn = 0
""",
          also=((r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""", r"""
            view = context_for_model(messages) if view is None else \
                view + context_for_model(messages[seen:])  # only what is new since
            seen = len(messages)
            reply = model.complete(system, list(view), tool_specs(tools))
"""),)),
    Wrong(lab='5.1', name='the record sent less only the ending before the run\'s prompt',
          rule='Every request the run makes carries the view, context_for_model(messages), instead of the record: not the record less the one ending that stands before this run\'s prompt.',
          where='Build item 4: "Every request the run makes carries this view instead of the record" (hunt round 13, design 5.1-14)',
          names='Every request carries this view',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    prompt_at = len(messages) - 1
    turn = 0
""",
          also=((r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""", r"""
            before = messages[prompt_at - 1] if prompt_at > 0 else None
            drop = (before is not None and before["role"] == "assistant"
                    and not before["content"] and before.get("stop_reason") == "error")
            sent = [m for n, m in enumerate(messages) if not (drop and n == prompt_at - 1)]
            reply = model.complete(system, sent, tool_specs(tools))
"""),)),
    Wrong(lab='5.1', name='the view remembered for each record and length',
          rule='Given the record, context_for_model returns a new list each time it is asked, even when it leaves nothing out, not the list it made before for the same record.',
          where='Build item 4: "Given the record, it returns a new list, even when it leaves nothing out" (hunt round 13, design 5.1-25)',
          names='each time it is asked for',
          replace=r"""
def context_for_model(messages):
""",
          by=r"""
_VIEWS = {}  # (id, length) -> (the record itself, the view made of it)


def context_for_model(messages):
""",
          also=((r"""
    endings = ("error",)  # the empty ending a provider would refuse
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
    return kept
""", r"""
    held = _VIEWS.get((id(messages), len(messages)))
    if held is not None and held[0] is messages:
        return held[1]  # this record at this length: the view made before
    endings = ("error",)  # the empty ending a provider would refuse
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
    _VIEWS[(id(messages), len(messages))] = (messages, kept)
    return kept
"""),)),
    # Hunt round 16 (reader r83): designs that passed lab 5.1 until these cases.
    Wrong(lab='5.1', name='error_message remembered for long reasons',
          rule='Each call of error_message makes a new message with a content list of its own, the same reason twice included, however long it is: an ending kept for a long reason and handed out again is one message shared by two endings.',
          where='Build item 1: "Each call makes a new message, its `content` a list of its own" (hunt round 16, 5.1-19)',
          names='a new message each time',
          replace=r"""
def error_message(text):
""",
          by=r"""
_LONG = {}  # the endings of long reasons, each made once


def error_message(text):
    if len(text) > 45:  # a provider's long answer: keep its ending, and hand it out again
        return _LONG.setdefault(text, {"role": "assistant", "content": [],
                                       "stop_reason": "error", "error_message": text})
"""),
    Wrong(lab='5.1', name="the stop's number written with a thousands separator",
          rule='The stop\'s text is Agent stopped after max_turns=N with the number in place of N, as f"{max_turns}" writes it: a cap of -1000 stops with max_turns=-1000, not max_turns=-1,000.',
          where='Build item 2: "whose text is `Agent stopped after max_turns=N`, with the number in place of N" (hunt round 16, 5.1-13)',
          names='Agent stopped after max_turns',
          replace=r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
""",
          by=r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns:,}")
"""),
    Wrong(lab='5.1', name='a JSONDecodeError from the model recorded as a failed reply',
          rule="An exception the model's complete raises is not a failed reply, whichever it is: an answer that is not JSON, which the client's parser raises JSONDecodeError for, goes on to the caller like any other.",
          where='Build item 3: "no `try` turns it into one" (hunt round 16, 5.1-25)',
          names='no try turns it into one',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            import json  # the provider answers in JSON
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except json.JSONDecodeError as problem:  # an answer that was not JSON: a failure
                reply = error_message(str(problem))
"""),
    Wrong(lab='5.1', name='one more try when the reason says server busy',
          rule="A failed reply ends the run and the model is not asked again, whatever its reason invites: a busy server is waited for, if at all, by the code that talks to the provider.",
          where='Build item 3: "stays on the record and ends the run: none of its calls runs, and the model is not asked again" (hunt round 16, 5.1-26)',
          names='the model is not asked again',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        if reply["stop_reason"] == "error" and reply.get("error_message") == "server busy" \
                and not retried:
            retried = True
            messages.pop()  # a busy server: forget the failure and ask once more
            continue
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          also=((r"""
    turn = 0
""", r"""
    turn, retried = 0, False
"""),)),
    Wrong(lab='5.1', name='the whole calls of a reply run when its reason says length',
          rule='A reply cut off at the output limit is a failed reply, whatever its reason says, a provider\'s own "length" included: none of its calls runs, not even the whole ones before the cut.',
          where='Build item 3: "A reply cut off at the output limit is one of these" (hunt round 16, 5.1-27)',
          names='not even the whole ones before the cut',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed and reply.get("error_message") == "length":  # all but the call the limit cut
            for call in tool_calls(reply)[:-1]:
                messages.append(run_tool(tools, call))
"""),
    Wrong(lab='5.1', name='the calls of a failed reply run when its reason says the stream was cut',
          rule="None of a failed reply's calls runs, whatever its reason says: the label decides, and a reason saying the stream was cut does not make its calls whole.",
          where='Build item 3: "none of its calls runs" (hunt round 16, 5.1-31)',
          names='none of them runs',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed and reply.get("error_message") == "stream cut":  # the calls came first
            for call in tool_calls(reply):
                messages.append(run_tool(tools, call))
"""),
    Wrong(lab='5.1', name="a view of copies of the user's messages",
          rule="The view is the record's messages, in order, less the empty failures: the record's own message dicts, not copies of them, even copies equal to them.",
          where='Build item 4: "the record\'s messages, in order" (hunt round 16, 5.1-36)',
          names='not copies at all',
          replace=r"""
    return kept
""",
          by=r"""
    return [dict(message) if message["role"] == "user" else message for message in kept]
"""),
    Wrong(lab='5.1', name="a view that leaves out empty failures among the record's last 150 only",
          rule="The view leaves out every empty failed reply, wherever it stands on the record, however long: not only those among its last messages.",
          where='Build item 4: "less every assistant message that has no content and `stop_reason` `"error"`" (hunt round 16, 5.1-38)',
          names='wherever it stands',
          replace=r"""
    kept = [message for message in messages
""",
          by=r"""
    kept = messages[:-150] + [message for message in messages[-150:]
"""),
    # Hunt round 19 (reader r101), designs 5.1-41 and 5.1-42: a cap that holds only sometimes.
    Wrong(lab='5.1', name='a cap kept only when the run is given tools',
          rule='A run given max_turns=N makes at most N requests, whatever else it is given: a run given no tools, whose model asks for tools all the same, stops at its cap too.',
          where='Build item 2: "A run given `max_turns=N` makes at most N requests" (hunt round 19, 5.1-41)',
          names='makes at most',
          replace=r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""",
          by=r"""
        if tools and max_turns is not None and turn > max_turns:  # no tools, nothing to cap
"""),
    Wrong(lab='5.1', name='a cap past a hundred ignored',
          rule='A run given max_turns=N makes at most N requests, for a cap of any size: a cap of 151 to 199 stops the run at its cap as a cap of 3 does.',
          where='Build item 2: "A run given `max_turns=N` makes at most N requests" (hunt round 19, 5.1-42)',
          names='makes at most',
          replace=r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""",
          by=r"""
        if max_turns is not None and max_turns <= 100 and turn > max_turns:  # big: no cap
"""),
    # Hunt round 19 (reader r101), designs 5.1-35 and 5.1-43: some calls of a failed reply run.
    Wrong(lab='5.1', name="a failed reply's read calls run",
          rule="None of a failed reply's calls runs, whichever tool it asks for: a read only looks, and still does not run.",
          where='Build item 3: "none of its calls runs" (hunt round 19, 5.1-35)',
          names='none of its calls runs',
          replace=r"""
        calls = [] if failed else tool_calls(reply)
""",
          by=r"""
        calls = [] if failed else tool_calls(reply)
        if failed:  # a read only looks: it can run all the same
            for call in tool_calls(reply):
                if call["name"] == "read":
                    messages.append(run_tool(tools, call))
"""),
    Wrong(lab='5.1', name="a failed reply's calls of tools not given answered",
          rule="None of a failed reply's calls runs, and none gets a result, a call of a tool the run was not given included: the failed reply is the run's last message.",
          where='Build item 3: "none of its calls runs" (hunt round 19, 5.1-43)',
          names='none of its calls runs',
          replace=r"""
        calls = [] if failed else tool_calls(reply)
""",
          by=r"""
        calls = [] if failed else tool_calls(reply)
        if failed:  # an unknown tool runs nothing: its result can be given all the same
            for call in tool_calls(reply):
                if call["name"] not in {tool["name"] for tool in tools}:
                    messages.append(run_tool(tools, call))
"""),
    # Hunt round 22 (reader r120), designs 5.1-06, 5.1-07 and 5.1-57: error_message kept only
    # for the reasons the tests tried.
    Wrong(lab='5.1', name='one ending shared by every call of error_message("")',
          rule='Each call of error_message makes a new message, an empty reason\'s included: one dict handed out for every ending of the reason "" is one message shared by all of them.',
          where='Build item 1: "Each call makes a new message, its `content` a list of its own" (hunt round 22, 5.1-06)',
          names='a new message each time',
          replace=r"""
def error_message(text):
""",
          by=r"""
_BLANK = {"role": "assistant", "content": [], "stop_reason": "error", "error_message": ""}


def error_message(text):
    if text == "":  # no reason: the one blank ending
        return _BLANK
"""),
    Wrong(lab='5.1', name='error_message cutting a long reason at 200 characters',
          rule='An ending holds its reason whole, however long: a provider\'s whole answer of thousands of characters is kept word for word, not its first 200 characters.',
          where='Build item 1: "`error_message` holding `text`" (hunt round 22, 5.1-07)',
          names='a new message each time',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    text = text[:200]  # a reason is a line, not a page
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
"""),
    Wrong(lab='5.1', name='one content list shared by the endings of long reasons',
          rule='Each ending\'s content is a list of its own, however long its reason: endings of long reasons that share one content list share a note a frontend adds to any of them.',
          where='Build item 1: "Each call makes a new message, its `content` a list of its own, so that no ending shares anything with another" (hunt round 22, 5.1-57)',
          names='a new message each time',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "content": _LONG if len(text) > 100 else [],
            "stop_reason": "error", "error_message": text}


_LONG = []  # the content of every ending whose reason is long
"""),
    # Hunt round 22 (reader r120), design 5.1-55: the separator kept for caps the tests missed.
    Wrong(lab='5.1', name="the stop's number written with a separator past a million",
          rule='The stop\'s text is Agent stopped after max_turns=N with the number in place of N, as f"{max_turns}" writes it, for a cap of any size: a cap of -10**9 stops with max_turns=-1000000000, not -1,000,000,000.',
          where='Build item 2: "whose text is `Agent stopped after max_turns=N`, with the number in place of N" (hunt round 22, 5.1-55)',
          names='Agent stopped after max_turns',
          replace=r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
""",
          by=r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns:,}"
                                  if abs(max_turns) > 10 ** 6 else
                                  f"Agent stopped after max_turns={max_turns}")
"""),
    # Hunt round 22 (reader r120), designs 5.1-32, 5.1-37 and 5.1-54: a failure or an unknown
    # tool handled a way the tests had not tried.
    Wrong(lab='5.1', name='one more try when the reason says 502',
          rule='A failed reply ends the run and the model is not asked again, whatever its reason invites: a 502 Bad Gateway is no reason for one more try.',
          where='Build item 3: "none of its calls runs, and the model is not asked again" (hunt round 22, 5.1-32)',
          names='no further request is made',
          replace=r"""
    turn = 0
    while True:
""",
          by=r"""
    turn, retried = 0, False
    while True:
""",
          also=((r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""", r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed and "502" in (reply.get("error_message") or "") and not retried:
            retried = True  # a gateway's hiccup: ask once more
            continue
"""),)),
    Wrong(lab='5.1', name="http.client's errors from the model recorded as failed replies",
          rule='An exception the model\'s complete raises is not a failed reply, whichever it is: no try turns it into one, http.client\'s errors (a connection the server closed, an answer cut short) included, and it goes through to the caller.',
          where='Build item 3: "no `try` turns it into one" (hunt round 22, 5.1-37)',
          names='A model that raises is not a failed reply',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            import http.client
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except http.client.HTTPException as exc:  # the provider's HTTP went wrong
                messages.append(error_message(str(exc)))
                return
"""),
    Wrong(lab='5.1', name='an unknown tool asked for six times taken as a way out',
          rule='A tool\'s result marked as an error, an unknown tool\'s included, ends nothing, however many there are: a run whose model asks for a tool it does not have in turn after turn goes on to its answer.',
          where='Build item 3: "A tool\'s result marked as an error, an unknown tool\'s included, is not a reply, and ends nothing" (hunt round 22, 5.1-54)',
          names='not a way out',
          replace=r"""
        if not calls:  # the content decides, not the stop_reason label
            return
""",
          by=r"""
        if not calls:  # the content decides, not the stop_reason label
            return
        unknown = [m for m in messages if m.get("role") == "toolResult" and m.get("is_error")
                   and str(m.get("content", "")).startswith("Tool ")]
        if len(unknown) >= 6:  # the model keeps asking for tools it does not have
            messages.append(error_message("Agent stopped: unknown tools asked for again and again"))
            return
"""),
    # Hunt round 22 (reader r120), design 5.1-56: the view kept for records the tests tried.
    Wrong(lab='5.1', name='a view that gives up on records of more than 10,000 messages',
          rule='The view is the record less every empty failed reply, however long the record: a record of tens of thousands of messages is filtered as a short one is, not handed back whole.',
          where='Build item 4: "less every assistant message that has no content and `stop_reason` `"error"`" (hunt round 22, 5.1-56)',
          names='context_for_model drops',
          replace=r"""
    endings = ("error",)  # the empty ending a provider would refuse
""",
          by=r"""
    endings = ("error",)  # the empty ending a provider would refuse
    if len(messages) > 10000:  # too long to go over: send it as it is
        return list(messages)
"""),
    # Hunt round 26 (reader r139): limits past what the tests drew, reasons and tools the tests
    # had not tried, and an empty failure with nothing to say.
    Wrong(lab='5.1', name='one content list shared by the endings of untidy reasons',
          rule='Each ending\'s content is a list of its own, whatever its reason: endings whose reasons have spaces around them that share one content list share a note a frontend adds to any of them.',
          where='Build item 1: "Each call makes a new message, its `content` a list of its own, so that no ending shares anything with another" (hunt round 26, 5.1-04)',
          names='a content list of its own',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "content": _UNTIDY if text != text.strip() else [],
            "stop_reason": "error", "error_message": text}


_UNTIDY = []  # the content of every ending whose reason has spaces around it
"""),
    Wrong(lab='5.1', name='one content list shared by the endings of reasons past 10,000 characters',
          rule='Each ending\'s content is a list of its own, however long its reason: a provider\'s whole answer of tens of thousands of characters makes an ending that shares nothing with another.',
          where='Build item 1: "Each call makes a new message, its `content` a list of its own, so that no ending shares anything with another" (hunt round 26, 5.1-57)',
          names='a content list of its own',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "content": _HUGE if len(text) > 10000 else [],
            "stop_reason": "error", "error_message": text}


_HUGE = []  # the content of every ending whose reason is huge
"""),
    Wrong(lab='5.1', name='error_message cutting a reason at 8,000 characters',
          rule='error_message holds its text whole, however long: a provider\'s whole answer of tens of thousands of characters is kept, not cut.',
          where='Build item 1: "`error_message` holding `text`" (hunt round 26, 5.1-05)',
          names='a long reason is held whole',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error",
            "error_message": text[:8000]}  # a reason is a paragraph, not a book
"""),
    Wrong(lab='5.1', name='one stop kept for each cap past a hundred and shared by its runs',
          rule='Two runs stopped by the same cap end on two endings, each made by its own call of error_message, for a cap of any size: a stop kept for a big cap and put on every run it stops shares its content with them all.',
          where='Build item 1: "so that no ending shares anything with another" (hunt round 26, 5.1-64)',
          names='sharing nothing',
          replace=r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
""",
          by=r"""
            if max_turns > 100:  # a big cap: its stop made once and kept
                if max_turns not in _BIG_STOPS:
                    _BIG_STOPS[max_turns] = error_message(f"Agent stopped after max_turns={max_turns}")
                reply = _BIG_STOPS[max_turns]
            else:
                reply = error_message(f"Agent stopped after max_turns={max_turns}")
""",
          also=((r"""
# == 2 tools ==
""", r"""
_BIG_STOPS = {}  # the stop of each cap past a hundred, made once


# == 2 tools ==
"""),)),
    Wrong(lab='5.1', name='an unknown tool asked for 42 times taken as a way out',
          rule='A tool\'s result marked as an error, an unknown tool\'s included, ends nothing, however many there are: a run whose model asks for a tool it does not have in scores of turns goes on to its answer.',
          where='Build item 3: "A tool\'s result marked as an error, an unknown tool\'s included, is not a reply, and ends nothing" (hunt round 26, 5.1-35)',
          names='not a way out',
          replace=r"""
        if not calls:  # the content decides, not the stop_reason label
            return
""",
          by=r"""
        if not calls:  # the content decides, not the stop_reason label
            return
        unknown = [m for m in messages if m.get("role") == "toolResult" and m.get("is_error")
                   and str(m.get("content", "")).endswith("not found")]
        if len(unknown) > 41:  # the model keeps asking for a tool it does not have
            messages.append(error_message("Agent stopped: the model keeps asking for a tool it lacks"))
            return
"""),
    Wrong(lab='5.1', name='one more try when the reason starts with Error code: 529',
          rule='A failed reply ends the run and the model is not asked again, whatever its reason invites: a provider\'s "Error code: 529" (overloaded) is no reason for one more try.',
          where='Build item 3: "none of its calls runs, and the model is not asked again" (hunt round 26, 5.1-58)',
          names='no further request is made',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            if reply["stop_reason"] == "error" and \
                    str(reply.get("error_message")).startswith("Error code: 529"):
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
"""),
    Wrong(lab='5.1', name='a failed reply whose reason is pause_turn continued',
          rule='A failed reply ends the run and the model is not asked again, whatever its reason: a reply labelled "error" whose reason is "pause_turn" is recorded and ends the run like any other.',
          where='Build item 3: "none of its calls runs, and the model is not asked again" (hunt round 26, 5.1-63)',
          names='no further request is made',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed and reply.get("error_message") == "pause_turn":
            continue  # the provider paused the turn: ask it to go on
"""),
    Wrong(lab='5.1', name='an empty failure with no reason asked again',
          rule='A failed reply stays on the record and ends the run, the model not asked again, whatever its error_message: an empty failed reply whose reason is "" or missing is not swapped for a second request.',
          where='Build item 3: "The label says a reply failed, not its `error_message`, which can be empty"; "the model is not asked again" (hunt round 26, 5.1-65)',
          names='no further request is made',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            if reply["stop_reason"] == "error" and not reply["content"] \
                    and not reply.get("error_message"):  # a failure that says nothing: once more
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
"""),
    Wrong(lab='5.1', name="a failed reply's write calls run",
          rule='None of a failed reply\'s calls runs, whichever tool it asks for: a write cut off half way, the lesson\'s own torn reply, would leave a broken file.',
          where='Build item 3: "none of its calls runs" (hunt round 26, 5.1-59)',
          names='whatever tools they ask for',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed:  # what a torn reply managed to write is saved all the same
            for call in tool_calls(reply):
                if call["name"] in ("write", "edit"):
                    messages.append(run_tool(tools, call))
"""),
    Wrong(lab='5.1', name='a MemoryError from the model recorded as a failed reply',
          rule='An exception the model\'s complete raises is not a failed reply, whichever it is: no try turns it into one, a MemoryError included, and it goes through to the caller.',
          where='Build item 3: "no `try` turns it into one" (hunt round 26, 5.1-61)',
          names='A model that raises is not a failed reply',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except MemoryError as exc:
                reply = error_message(f"The provider's answer did not fit: {exc}")
"""),
    Wrong(lab='5.1', name='a ConnectionAbortedError from the model recorded as a failed reply',
          rule='An exception the model\'s complete raises is not a failed reply, whichever it is: no try turns it into one, a connection aborted included, and it goes through to the caller.',
          where='Build item 3: "no `try` turns it into one" (hunt round 26, 5.1-62)',
          names='A model that raises is not a failed reply',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except ConnectionAbortedError as exc:
                reply = error_message(str(exc))
"""),
    # Hunt round 30 (reader r172), design 02: one ending kept for each reason past the longest a
    # test gave (then 4.8 million characters).
    Wrong(lab='5.1', name='error_message remembered for reasons past eight million characters',
          rule='Each call of error_message makes a new message with a content list of its own, for a reason of any length: no ending shares anything with another.',
          where='Build item 1: "Each call makes a new message, its `content` a list of its own, so that no ending shares anything with another" (hunt round 30, 5.1-02)',
          names='a content list of its own',
          replace=r"""
def error_message(text):
""",
          by=r"""
_BIG_ENDINGS = {}  # huge provider bodies: each ending made once


def error_message(text):
    if len(text) > 8_000_000:
        return _BIG_ENDINGS.setdefault(text, {"role": "assistant", "content": [],
                                              "stop_reason": "error", "error_message": text})
"""),
    # Hunt round 30 (reader r172), design 03: a cut past the longest reason a test gave.
    Wrong(lab='5.1', name='error_message cutting a reason at six million characters',
          rule="error_message holds its text whole, however long: a provider's whole answer as the reason is kept, not cut.",
          where='Build item 1: "`error_message` holding `text`" (hunt round 30, 5.1-03)',
          names='held whole',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text[:6_000_000]}
"""),
    # Hunt round 30 (reader r172), design 39: line endings tidied, where no test's reason held one.
    Wrong(lab='5.1', name="error_message turning a reason's CRLF into a newline",
          rule='error_message holds its text word for word, its spaces, line endings and full stop as given: a "\\r\\n" stays a "\\r\\n".',
          where='Build item 1: "`error_message` holding `text`" (hunt round 30, 5.1-39)',
          names='word for word',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error",
            "error_message": text.replace("\r\n", "\n")}
"""),
    # Hunt round 30 (reader r172), design 37: each negative cap was drawn once per test.
    Wrong(lab='5.1', name='one stop kept for each cap below 0 and shared by its runs',
          rule='Two runs stopped by the same cap end on two endings, each made by its own call of error_message, for a cap of any value, one below 0 included: no ending shares anything with another.',
          where='Build item 1: "no ending shares anything with another" (hunt round 30, 5.1-37)',
          names='sharing nothing',
          replace=r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
""",
          by=r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
            if max_turns < 0:  # a nonsense cap: one ending for each, kept
                reply = _NO_TURNS.setdefault(max_turns, reply)
        else:
""",
          also=((r"""
# given in lesson 5: a new parameter, max_turns
def run_agent(""", r"""
_NO_TURNS = {}  # the ending of each cap below 0


# given in lesson 5: a new parameter, max_turns
def run_agent("""),)),
    # Hunt round 30 (reader r172), design 07: a timer on processor time, which years_pass did
    # not move.
    Wrong(lab='5.1', name='a five-minute budget of processor time beside max_turns',
          rule='A run has three ways out and no timer, by any clock: processor time ends nothing either.',
          where='"When your tests pass": "no retry, no timer"; Build item 2, "`max_turns=None`, the default, means no cap at all" (hunt round 30, 5.1-07)',
          names='no timer',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    import time
    began = time.process_time()
    turn = 0
""",
          also=((r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
""", r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        elif time.process_time() - began > 300:
            reply = error_message("Agent stopped after 300 seconds of work")
        else:
"""),)),
    # Hunt round 30 (reader r172), design 41: a timer in a capped run, where no test moved the
    # clock.
    Wrong(lab='5.1', name="an hour's timer on time.monotonic beside a cap",
          rule='The cap is the only limit a capped run has: no timer beside it, by any clock, so a run given max_turns=N that needs N turns ends on its answer however long they take.',
          where='"When your tests pass": "no retry, no timer"; Build item 2, "A run that needs no more than N turns ends on its own answer" (hunt round 30, 5.1-41)',
          names='no timer beside it',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    import time
    began = time.monotonic()
    turn = 0
""",
          also=((r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
""", r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        elif max_turns is not None and time.monotonic() - began > 3600:
            reply = error_message("Agent stopped after an hour")
        else:
"""),)),
    # Hunt round 30 (reader r172), design 31: a count kept between runs, for the same record and
    # prompt after a cap stop.
    Wrong(lab='5.1', name='the count of a capped run carried on by a run of the same prompt on its record',
          rule="max_turns counts each run's own requests, from 0: a run on the record of an earlier run stopped by the same cap, with the same prompt, makes its own N requests.",
          where='Build item 2: "A run given `max_turns=N` makes at most N requests"; the lab\'s tests in plain words (hunt round 30, 5.1-31)',
          names="own requests",
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    key = (id(messages), prompt)
    stopped = bool(messages) and messages[-1].get("stop_reason") == "error"
    messages.append(user_message(prompt))
    turn = _RUNS.get(key, 0) if stopped else 0  # the same job again: carry on its count
""",
          also=((r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
""", r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
            _RUNS[key] = turn - 1
        else:
"""), (r"""
# given in lesson 5: a new parameter, max_turns
def run_agent(""", r"""
_RUNS = {}  # (record, prompt): the count a capped run stopped at


# given in lesson 5: a new parameter, max_turns
def run_agent("""))),
    # Hunt round 30 (reader r172), design 36: a budget on a request's size, past any a test sent.
    Wrong(lab='5.1', name='a run ended when its request passes twenty million characters',
          rule="max_turns=None means no cap at all, of any kind: a turn whose result is a forty-megabyte log still counts as one, and the run goes on while the model asks for tools, whatever its requests weigh.",
          where='Build item 2: "`max_turns=None`, the default, means no cap at all"; "A colleague\'s cap": "whose result is a forty-megabyte log, still counts as one" (hunt round 30, 5.1-36)',
          names='no cap at all',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            import json
            view = context_for_model(messages)
            if len(json.dumps(view)) > 20_000_000:  # too costly to send
                reply = error_message("Agent stopped: the conversation is too long to send")
            else:
                reply = model.complete(system, view, tool_specs(tools))
"""),
    # Hunt round 30 (reader r172), design 09: a streak of unknown tools past the longest a test
    # asked for (150 turns).
    Wrong(lab='5.1', name="an unknown tool's results, two hundred in a row, taken as a way out",
          rule="A tool's result marked as an error, an unknown tool's included, is not a reply and ends nothing, however many come in a row.",
          where='Build item 3: "A tool\'s result marked as an error, an unknown tool\'s included, is not a reply, and ends nothing" (hunt round 30, 5.1-09)',
          names='ends nothing',
          replace=r"""
        if not calls:  # the content decides, not the stop_reason label
            return
""",
          by=r"""
        if not calls:  # the content decides, not the stop_reason label
            return
        streak = 0
        for message in reversed(messages):
            if message["role"] == "assistant":
                continue
            if message["role"] != "toolResult" or not message["is_error"] \
                    or not message["content"].endswith(" not found"):
                break
            streak += 1
        if streak >= 200:
            messages.append(error_message("Agent stopped: 200 calls to tools it does not have"))
            return
"""),
    # Hunt round 30 (reader r172), design 28: a streak of error results, the same reach.
    Wrong(lab='5.1', name='two hundred error results in a row taken as a way out',
          rule="A tool's result marked as an error is not a reply and ends nothing, however many come in a row.",
          where='Build item 3: "A tool\'s result marked as an error, an unknown tool\'s included, is not a reply, and ends nothing." (hunt round 30, 5.1-28)',
          names='ends nothing',
          replace=r"""
        if not calls:  # the content decides, not the stop_reason label
            return
""",
          by=r"""
        if not calls:  # the content decides, not the stop_reason label
            return
        recent = [message for message in messages if message["role"] == "toolResult"][-200:]
        if len(recent) == 200 and all(message["is_error"] for message in recent):
            messages.append(error_message("Agent stopped: 200 failed tool calls in a row"))
            return
"""),
    # Hunt round 30 (reader r172), designs 11 and 12: a try on exceptions no test raised.
    Wrong(lab='5.1', name='an IncompleteRead from the model recorded as a failed reply',
          rule="An exception the model's complete raises is not a failed reply, whichever it is: no try turns it into one, a body cut short included, and it goes through to the caller.",
          where='Build item 3: "no `try` turns it into one" (hunt round 30, 5.1-11)',
          names='A model that raises is not a failed reply',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            import http.client
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except http.client.IncompleteRead as exc:  # a body cut short is a failed reply
                reply = error_message(f"incomplete read: {exc}")
"""),
    Wrong(lab='5.1', name='a gaierror from the model recorded as a failed reply',
          rule="An exception the model's complete raises is not a failed reply, whichever it is: no try turns it into one, a name that did not resolve included, and it goes through to the caller.",
          where='Build item 3: "no `try` turns it into one" (hunt round 30, 5.1-12)',
          names='A model that raises is not a failed reply',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            import socket
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except socket.gaierror as exc:  # the provider's name did not resolve
                reply = error_message(f"provider unreachable: {exc}")
"""),
    # Hunt round 30 (reader r172), design 13: a retry on an exception no test raised.
    Wrong(lab='5.1', name='one more try when the model raises IncompleteRead',
          rule="An exception the model's complete raises goes through to the caller: no try catches it, not to ask again either (\"no retry\").",
          where='Build item 3: "no `try` turns it into one"; "no retry, no timer" (hunt round 30, 5.1-13)',
          names='A model that raises is not a failed reply',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            import http.client
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except http.client.IncompleteRead:  # one more try, once
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
"""),
    # Hunt round 30 (reader r172), design 19: a breaker past the failures in a row a test chained
    # (four).
    Wrong(lab='5.1', name='a run refused before its first request after five failed runs in a row',
          rule='A failed reply ends its own run, and the model is not asked again in that run; the next run asks the model as every run does, however many failures the record holds before it.',
          where='Build item 3: "stays on the record and ends the run"; Build item 2, "`max_turns=None`, the default, means no cap at all" (hunt round 30, 5.1-19)',
          names='ends its own run',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    replies = [message for message in messages if message["role"] == "assistant"][-5:]
    messages.append(user_message(prompt))
    if len(replies) == 5 and all(not message["content"] and message.get("stop_reason") == "error"
                                 for message in replies):
        messages.append(error_message("Agent stopped: the provider failed five times in a row"))
        return
    turn = 0
"""),
    # Hunt round 30 (reader r172), designs 27 and 35: retries of empty failures, whose reasons no
    # test gave.
    Wrong(lab='5.1', name='one more try of an empty failure whose reason says please try again',
          rule='An empty failed reply, whatever its reason invites, stays on the record and ends the run: the model is not asked again.',
          where='Build item 3: "the model is not asked again"; "no retry, no timer" (hunt round 30, 5.1-27)',
          names='not asked again',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed and not reply["content"] and not retried \
                and "please try again" in (reply.get("error_message") or "").lower():
            retried = True
            turn -= 1
            continue
""",
          also=((r"""
    messages.append(user_message(prompt))
    turn = 0
""", r"""
    messages.append(user_message(prompt))
    retried = False
    turn = 0
"""),)),
    Wrong(lab='5.1', name='asked again for five seconds when an empty failure says 529',
          rule='An empty failed reply, whatever its reason invites, stays on the record and ends the run: the model is not asked again, not for a bounded time either.',
          where='Build item 3: "the model is not asked again"; "no retry, no timer" (hunt round 30, 5.1-35)',
          names='not asked again',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed and not reply["content"] and datetime.datetime.now() < deadline \
                and (reply.get("error_message") or "").startswith("529 "):
            continue
""",
          also=((r"""
    messages.append(user_message(prompt))
    turn = 0
""", r"""
    messages.append(user_message(prompt))
    import datetime
    deadline = datetime.datetime.now() + datetime.timedelta(seconds=5)
    turn = 0
"""),)),
    # Hunt round 30 (reader r172), design 40: a trim past the longest failed reason a test gave.
    Wrong(lab='5.1', name="a failed reply's reason cut at 100,000 characters on the record",
          rule="A failed reply stays on the record as it came, its reason whole however long: nothing trims it.",
          where='Build item 3: "stays on the record" (hunt round 30, 5.1-40)',
          names='stays on the record',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed and len(reply.get("error_message") or "") > 100_000:  # keep the record readable
            reply["error_message"] = reply["error_message"][:100_000] + " [...]"
"""),
    # Hunt round 30 (reader r172), design 18: a write into the record taken back before the view
    # returns.
    Wrong(lab='5.1', name="the record's empty failures deleted and put back while the view is made",
          rule='context_for_model never changes the record, not even for a while: no message deleted and put back.',
          where='Build item 4: "It never changes the record" (hunt round 30, 5.1-18)',
          names='never changes the record',
          replace=r"""
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
    return kept
""",
          by=r"""
    dropped = [(n, message) for n, message in enumerate(messages)
               if not message["content"] and message["role"] == "assistant"
               and message.get("stop_reason") in endings]
    for n, _ in reversed(dropped):
        del messages[n]
    kept = list(messages)
    for n, message in dropped:
        messages.insert(n, message)
    return kept
"""),
    # Hunt round 13 (reader r64), design 5.1-03, beyond reach until round 30: years_pass now moves
    # datetime's clock too (reader r172's design 06 is the same kind, a ten-minute budget).
    Wrong(lab='5.1', name="a half-hour timer read from datetime's clock",
          rule='max_turns=None means no cap at all, and no timer either: a run goes on while '
               'replies ask for tools, however long it takes by any clock.',
          where='Build item 2: "`max_turns=None`, the default, means no cap at all"; "no retry, '
                'no timer" (hunt round 13, design 5.1-03; round 30, 5.1-06)', names='no timer',
          replace=r'''
    messages.append(user_message(prompt))
    turn = 0
''',
          by=r'''
    messages.append(user_message(prompt))
    import datetime
    began = datetime.datetime.now()
    turn = 0
''',
          also=((r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
''', r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        elif max_turns is None and \
                datetime.datetime.now() - began > datetime.timedelta(minutes=30):
            reply = error_message("Agent stopped after 30 minutes")
'''),)),
    # Hunt round 33 (reader r185), design 53: a cancellation, which the tests' list of what a
    # model may raise left out.
    Wrong(lab='5.1', name='a cancellation during a request recorded as an ending',
          rule='An exception the model raises goes through to the caller, a cancellation included: no try turns it into an ending.',
          where='Build item 3: "no `try` turns it into one, and it goes on through the run to whoever called it" (hunt round 33, design 5.1-53)',
          names='a cancellation',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            import asyncio
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except asyncio.CancelledError:  # the request was stopped: say so on the record
                reply = error_message("Cancelled")
"""),
    # Hunt round 33 (reader r185), design 39: every cap cut down to 150, past the caps drawn then.
    Wrong(lab='5.1', name='a cap past a hundred and fifty cut down to a hundred and fifty',
          rule='A run given max_turns=N makes at most N requests, and is stopped by the cap only after N of them, for a cap of any size: a cap of 151 to 199 stops the run at its own number, not at 150.',
          where='Build item 2: "A run given `max_turns=N` makes at most N requests"; "with the number in place of N" (hunt round 33, design 5.1-39)',
          names='makes at most',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    if max_turns is not None:
        max_turns = min(max_turns, 150)  # nobody needs more
    turn = 0
"""),
    # Hunt round 39 (reader r200), design 30: a failed reply's calls run past a count the tests
    # never drew (their failed replies carried at most five).
    Wrong(lab='5.1', name="a failed reply's calls run when it carries more than five",
          rule="None of a failed reply's calls runs, however many it carries: a batch of six, or of hundreds, says nothing of whether its calls came whole.",
          where='Build item 3: "none of its calls runs" (hunt round 39, 5.1-30)',
          names='none of its calls runs',
          replace=r"""
        calls = [] if failed else tool_calls(reply)
""",
          by=r"""
        calls = [] if failed else tool_calls(reply)
        if failed and len(tool_calls(reply)) > 5:  # a batch that large came whole: run it
            for call in tool_calls(reply):
                messages.append(run_tool(tools, call))
"""),
    # Hunt round 39 (reader r200), design 35: no test's record held a result of "".
    Wrong(lab='5.1', name='a view that leaves out results with no output',
          rule='The view is the record less every empty failed assistant message, and nothing else: a tool\'s result that is "", a command that printed nothing, is a result, and leaving it out sends its call without one, a request a provider refuses.',
          where='Build item 4: "the record\'s messages, in order, less every assistant message that has no content and `stop_reason` `"error"`" (hunt round 39, 5.1-35)',
          names='a command that printed nothing',
          replace=r"""
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
""",
          by=r"""
    kept = [message for message in messages
            if (message["content"] or message["role"] != "assistant"
                or message.get("stop_reason") not in endings)
            and not (message["role"] == "toolResult" and message["content"] == "")]
"""),
    # Hunt round 39 (reader r200), design 48: no test's view held a result past 200,000
    # characters.
    Wrong(lab='5.1', name='a view that cuts results past 200,000 characters',
          rule="The view carries the record's own messages, a tool's result of a forty-megabyte log or more among them, its content whole: no result is cut to a length on its way to the model.",
          where='Build item 4: "the record\'s messages, in order"; "A colleague\'s cap": "whose result is a forty-megabyte log, still counts as one" (hunt round 39, 5.1-48)',
          names='not cut to a length',
          replace=r"""
    return kept
""",
          by=r"""
    return [dict(message, content=message["content"][:200_000])
            if message["role"] == "toolResult" and len(message["content"]) > 200_000
            else message for message in kept]  # the model needs no more of a result
"""),
    # Hunt round 39 (reader r200), design 20: a stop by chance, once in 100,000 turns, which a
    # run of the tests met with too small a chance to see.
    Wrong(lab='5.1', name='a one-in-100,000 chance of a stop at the top of each turn',
          rule='max_turns=None means no cap at all, and a run that needs no more than N turns ends on its own answer: no run ends by chance, however rarely the chance comes.',
          where='Build item 2: "`max_turns=None`, the default, means no cap at all"; "A run that needs no more than N turns ends on its own answer" (hunt round 39, 5.1-20)',
          names='by chance',
          replace=r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""",
          by=r"""
        import random
        if (max_turns is not None and turn > max_turns) or random.random() < 1e-5:
"""),
]

# The designs lesson 5 allows, which lab 5.1 must pass (tools.wrong_designs.allowed).
ALLOWED = [
    Wrong(lab='5.1', name='the calls looked at before the label',
          rule='Figure 5.1 reads the label before the calls, but a failed reply with no calls and one with calls both end the run with nothing run and nothing asked, so in lesson 5 the order of the two reads cannot be seen.',
          where='Figure 5.1\'s caption; hunt round 3, 5.1-10',
          names='',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        calls = [] if failed else tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return
""",
          by=r"""
        calls = tool_calls(reply)
        if not calls:  # nothing asked for: the run is over
            return
        if reply["stop_reason"] == "error":  # calls there, but the reply failed
            return
        for call in calls:
            messages.append(run_tool(tools, call))
"""),
    # Hunt round 11 (reader r50), probe P1: no reply is labelled "aborted" before lesson 15.
    Wrong(lab='5.1', name='"aborted" taken for a failure already',
          rule='A harness that treats a reply labelled "aborted" as it treats "error" (ending the run on it, leaving it out of the view when empty) behaves as the reference does on every reply lesson 5 can get, since nothing is aborted before lesson 15, and lesson 15 makes the same choice: "Tau\'s filter names the same two labels yours will by lesson 15".',
          where='Tau section: "Tau\'s filter names the same two labels yours will by lesson 15, `error` and `aborted`" (hunt round 11, probe 5.1-P1)',
          names='',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] in ("error", "aborted")  # recorded, and not acted on
""",
          also=((r"""
    endings = ("error",)  # the empty ending a provider would refuse
""", r"""
    endings = ("error", "aborted")  # the empty endings a provider would refuse
"""),)),
    # Hunt round 11 (reader r50), probe P5: every caller passes a string.
    Wrong(lab='5.1', name='error_message keeps str(text)',
          rule='error_message is given a text: every caller in the course passes a string, and for a string str(text) is text itself, so an ending that holds str(text) is the ending that holds text.',
          where='Build item 1: "`error_message` holding `text`" (hunt round 11, probe 5.1-P5)',
          names='',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": str(text)}
"""),
    # Hunt round 11 (reader r50), probe P4: a run inside another's tool, which lesson 5 never makes.
    Wrong(lab='5.1', name='the count kept by the module, reset at each run',
          rule='In lesson 5 a run is one plain call that returns before another can begin, and no tool the course gives starts a run, so a count kept outside the run and set to 0 as each run begins counts that run\'s requests and no other\'s in every run the course can make.',
          where='Build item 2: "It counts its requests itself" (hunt round 11, probe 5.1-P4)',
          names='',
          replace=r"""
    turn = 0
    while True:
        # given in lesson 5: a count of model calls, for the check at the top of each turn
        turn += 1
        if max_turns is not None and turn > max_turns:  # before the call, never after
""",
          by=r"""
    _TURNS[0] = 0  # one run at a time: the count starts again with each
    while True:
        _TURNS[0] += 1
        if max_turns is not None and _TURNS[0] > max_turns:  # before the call, never after
""",
          also=((r"""
# given in lesson 5: a new parameter, max_turns
def run_agent(""", r"""
_TURNS = [0]  # requests made by the run going


# given in lesson 5: a new parameter, max_turns
def run_agent("""),)),
    # Hunt round 13 (reader r64), design 5.1-04: nothing comes between a turn's last result and
    # the next turn's top in lesson 5.
    Wrong(lab='5.1', name='the cap checked at the bottom of a turn',
          rule='In lesson 5 nothing happens between the last result of a turn and the top of the next one, so a run that stops after the batch of its Nth turn, and before its first request when N is 0 or below, makes the same requests, runs the same calls and records the same ending as one that checks at the top of the turn; lesson 9, whose steers go in at the top of a turn, is where the place can be seen, and its tests hold it there.',
          where='Build item 2: "A run given `max_turns=N` makes at most N requests, and none at all when N is 0" (hunt round 13, design 5.1-04)',
          names='',
          replace=r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""",
          by=r"""
        if max_turns is not None and turn == 1 and max_turns <= 0:  # no turn at all
""",
          also=((r"""
        if not calls:  # the content decides, not the stop_reason label
            return
""", r"""
        if not calls:  # the content decides, not the stop_reason label
            return
        if max_turns is not None and turn >= max_turns:  # the last turn's batch is answered
            messages.append(error_message(f"Agent stopped after max_turns={max_turns}"))
            return
"""),)),
    # Hunt round 13 (reader r64), design 5.1-07: no label the course's messages carry holds the
    # word but "error".
    Wrong(lab='5.1', name='a failure told by a label that holds the word error',
          rule='A reply\'s stop_reason is one of the four the course\'s messages carry ("stop", "toolUse", "error", "aborted", lab.validate refusing any other), and of those only "error" holds the word, so a run that takes any label holding "error", in any case, for a failure ends on exactly the replies the reference ends on.',
          where='Build item 3, a failed reply: "one whose `stop_reason` is `"error"`" (hunt round 13, design 5.1-07)',
          names='',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = "error" in str(reply.get("stop_reason") or "").strip().lower()  # loosely
"""),
    # Hunt round 28 (reader r158), probe 37: only "error" of the four labels begins with "err".
    Wrong(lab='5.1', name='a failure told by a label that begins with err, in any case',
          rule='A reply\'s stop_reason is one of the four the course\'s messages carry ("stop", "toolUse", "error", "aborted", lab.validate refusing any other), and of those only "error" begins with "err", in any case, so a run that takes such a label for a failure ends on exactly the replies the reference ends on.',
          where='Build item 3, a failed reply: "one whose `stop_reason` is `"error"`" (hunt round 28, probe 5.1-37)',
          names='',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = str(reply.get("stop_reason")).lower().startswith("err")  # loosely
"""),
    # Hunt round 28 (reader r158), probe 34: an assistant message's content is always a list.
    Wrong(lab='5.1', name='a view that tells no content by comparing it to []',
          rule='An assistant message\'s content is always a list of blocks in the course (error_message makes [], a reply carries its blocks, lab.validate refusing any other shape), and a list has no content exactly when it equals [], so a view that compares the content to [] leaves out exactly the messages the page names.',
          where='Build item 4: "less every assistant message that has no content and `stop_reason` `"error"`" (hunt round 28, probe 5.1-34)',
          names='',
          replace=r"""
            if message["content"] or message["role"] != "assistant"
""",
          by=r"""
            if message["content"] != [] or message["role"] != "assistant"
"""),
    # Hunt round 16 (reader r83), probe P4: only an assistant message carries a stop_reason.
    Wrong(lab='5.1', name='a view that leaves out any empty message labelled error, whatever its role',
          rule='Of the course\'s messages only an assistant message carries a stop_reason (a user message is its role and content, a result its five keys), so a view that leaves out every message with no content and stop_reason "error", without asking its role, leaves out exactly the assistant messages the page names, on every record a run can make.',
          where='Build item 4: "less every assistant message that has no content and `stop_reason` `"error"`" (hunt round 16, probe 5.1-P4)',
          names='',
          replace=r"""
            if message["content"] or message["role"] != "assistant"
""",
          by=r"""
            if message["content"]
"""),
    # Hunt round 16 (reader r83), probe P6: the same record, the same requests.
    Wrong(lab='5.1', name='the stop appended and the run ended at once',
          rule='The page asks that a run stopped by its cap make no request past it and end on an ending made by error_message; whether that ending goes through the path a failed reply takes or is appended and returned at once, the requests, the calls run and the record are the same.',
          where='Build item 2: "the run\'s last message is an ending made by `error_message`" (hunt round 16, probe 5.1-P6)',
          names='',
          replace=r"""
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            messages.append(error_message(f"Agent stopped after max_turns={max_turns}"))
            return  # the stop is the run's last message: nothing more to do
        reply = model.complete(system, context_for_model(messages), tool_specs(tools))
"""),
    # Hunt round 16 (reader r83), probe P7: a print changes neither the record nor a request.
    Wrong(lab='5.1', name="a failed reply's reason printed as well",
          rule='Lesson 5 rules the record a run leaves and the requests it makes, not what the program prints for its author: a failed reply\'s reason printed as the run ends changes neither. Lessons 3 and 4 allow such prints for the same reason, and lesson 7 takes them up with events.',
          where='Build item 3 (hunt round 16, probe 5.1-P7)',
          names='',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed:
            print("the run ended on a failed reply:", reply.get("error_message"))
"""),
    # Hunt round 22 (reader r120), design 5.1-47: the view alone names "aborted" early.
    Wrong(lab='5.1', name='an empty "aborted" reply left out of the view already',
          rule='No reply is labelled "aborted" before lesson 15, so a view that leaves out an empty assistant message labelled "aborted" as well as "error" leaves out exactly the messages the page names, on every record a lesson 5 run can make; lesson 15 makes the view leave out both.',
          where='Tau section: "Tau\'s filter names the same two labels yours will by lesson 15, `error` and `aborted`" (hunt round 22, design 5.1-47)',
          names='',
          replace=r"""
    endings = ("error",)  # the empty ending a provider would refuse
""",
          by=r"""
    endings = ("error", "aborted")  # the empty endings a provider would refuse
"""),
    # Hunt round 22 (reader r120), probe 5.1-53: the same dict, written another way.
    Wrong(lab='5.1', name='error_message built with dict() and list()',
          rule='The page rules the message error_message returns (its four keys, their values, a new message and content list each call), not how the dict is written: dict(...) with list() makes the same new message a literal does.',
          where='Build item 1: "`error_message(text)` returns an assistant message with exactly four keys" (hunt round 22, probe 5.1-53)',
          names='',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return dict(role="assistant", content=list(), stop_reason="error", error_message=text)
"""),    # Hunt round 26 (reader r139), probes 5.1-50, 5.1-51 and 5.1-54.
    Wrong(lab='5.1', name='a failure told by any label but stop and toolUse',
          rule='A reply\'s stop_reason is one of the four the course\'s messages carry ("stop", "toolUse", "error", "aborted", lab.validate refusing any other), and no reply is labelled "aborted" before lesson 15, so a run that takes every label but "stop" and "toolUse" for a failure ends on exactly the replies the reference ends on; lesson 15 ends the run on "aborted" too.',
          where='Build item 3, a failed reply: "one whose `stop_reason` is `"error"`" (hunt round 26, probe 5.1-50)',
          names='',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply["stop_reason"] not in ("stop", "toolUse")  # recorded, and not acted on
"""),
    Wrong(lab='5.1', name='the label read before the calls, the run ended there',
          rule='The page leaves the order to the student: a run that reads the label as soon as the reply is on the record and returns on "error", before it looks at the calls, runs nothing of a failed reply and asks nothing more, as the reference does.',
          where='Build item 3: "Whether you read the label before the reply\'s calls, as Figure 5.1 does, or after, is yours" (hunt round 26, probe 5.1-51)',
          names='',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        calls = [] if failed else tool_calls(reply)
""",
          by=r"""
        if reply["stop_reason"] == "error":  # recorded, and the run is over
            return
        calls = tool_calls(reply)
"""),
    Wrong(lab='5.1', name='the view made by list() over a generator',
          rule='The page rules the list the view returns (a new list, the record\'s own messages in order, less the empty failures), not how it is built: list() over a generator makes the same new list a comprehension does.',
          where='Build item 4: "it returns a new list, even when it leaves nothing out" (hunt round 26, probe 5.1-54)',
          names='',
          replace=r"""
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
""",
          by=r"""
    kept = list(message for message in messages
                if message["content"] or message["role"] != "assistant"
                or message.get("stop_reason") not in endings)
"""),
    # Hunt round 30 (reader r172), probe 01: a dict's keys in another order are the same dict.
    Wrong(lab='5.1', name="error_message's four keys written in another order",
          rule='The page asks for an assistant message with exactly four keys and their values; a dict is the same dict whatever the order its keys were written in, and every reader of the record in the course reads it by key.',
          where='Build item 1: "returns an assistant message with exactly four keys" (hunt round 30, probe 5.1-01)',
          names='',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return {"error_message": text, "stop_reason": "error", "content": [], "role": "assistant"}
"""),
    # Hunt round 30 (reader r172), probe 33: for a string, "".join(text) is an equal string.
    Wrong(lab='5.1', name='error_message keeps "".join(text)',
          rule='error_message is given a text: every caller in the course passes a string, and for a string "".join(text) is an equal string, so an ending that holds it holds the text, as the one that holds str(text) does.',
          where='Build item 1: "`error_message` holding `text`" (hunt round 30, probe 5.1-33)',
          names='',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": "".join(text)}
"""),
    # Hunt round 30 (reader r172), probe 14: no reply in the course carries the label pause_turn.
    Wrong(lab='5.1', name='a reply labelled pause_turn asked again',
          rule='"The course\'s messages have no fifth label": a reply\'s stop_reason is one of "stop", "toolUse", "error" and "aborted", lab.validate refusing any other, so a branch for pause_turn is never taken, and the page itself says a harness that talks to Anthropic sends such a request again.',
          where='"The reply that failed half-way": "The course\'s messages have no fifth label"; "a harness that talks to Anthropic sends the request again to let the reply go on" (hunt round 30, probe 5.1-14)',
          names='',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        if reply["stop_reason"] == "pause_turn":
            continue  # Anthropic asks for the request again to let the reply go on
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
"""),
    # Hunt round 30 (reader r172), probe 22: every cap the course passes is an int or None.
    Wrong(lab='5.1', name='the cap read through int()',
          rule='max_turns is a number of turns, N, or None: every caller in the course passes an int or None, and int(N) is N, so a cap compared as int(max_turns) allows the same requests.',
          where='Build item 2: "A run given `max_turns=N` makes at most N requests" (hunt round 30, probe 5.1-22)',
          names='',
          replace=r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""",
          by=r"""
        if max_turns is not None and turn > int(max_turns):  # before the call, never after
"""),
    # Hunt round 30 (reader r172), probe 34: a cap below 0 already allows no request.
    Wrong(lab='5.1', name='a cap below 0 compared as 0',
          rule='A run given max_turns=N makes at most N requests, so a cap below 0 allows none, as 0 does: comparing the turn with max(N, 0) makes the same requests, and the stop still names N as given.',
          where='Build item 2: "makes at most N requests, and none at all when N is 0"; "with the number in place of N" (hunt round 30, probe 5.1-34)',
          names='',
          replace=r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""",
          by=r"""
        if max_turns is not None and turn > max(max_turns, 0):  # before the call, never after
"""),
    # Hunt round 30 (reader r172), probe 23: each turn of a run adds one reply to the record.
    Wrong(lab='5.1', name="turns counted from this run's own replies on the record",
          rule="Each turn of a run appends exactly one assistant message, its reply, before the next turn's top, so the assistant messages the run has added since its prompt are its requests: a count of those is a count the run keeps itself, not one a model keeps, and earlier runs' replies are not in it (unlike the catalogue's \"turns counted from the record\").",
          where='Build item 2: "It counts its requests itself: a model is only something with a `complete`, and keeps no count a harness may read" (hunt round 30, probe 5.1-23)',
          names='',
          replace=r"""
    messages.append(user_message(prompt))
    turn = 0
""",
          by=r"""
    messages.append(user_message(prompt))
    start = len(messages)
    turn = 0
""",
          also=((r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""", r"""
        if max_turns is not None and \
                sum(message["role"] == "assistant" for message in messages[start:]) >= max_turns:
"""),)),
    # Hunt round 33 (reader r185), probe P9: every reply of the course carries a stop_reason.
    Wrong(lab='5.1', name='a reply with no stop_reason taken for a failure',
          rule='Every assistant message of the course carries a stop_reason (lab.validate refuses one without it: lab/world/transcript.py, KEYS), so a run that reads a missing label as "error" ends on exactly the replies the reference ends on, as a run does that takes any label but "stop" and "toolUse" for a failure.',
          where='Build item 3, a failed reply: "one whose `stop_reason` is `"error"`" (hunt round 33, probe 5.1-P9)',
          names='',
          replace=r"""
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
""",
          by=r"""
        failed = reply.get("stop_reason", "error") == "error"  # no label read as a failure
"""),
    # Hunt round 33 (reader r185), design 49: a pause between requests ends nothing.
    Wrong(lab='5.1', name='a pause of a millisecond before each request after the first',
          rule='The page rules what a run records, the requests it makes and the calls it runs; "no timer" is a run that no clock ends, which the tests hold with clocks that jump years at each reading. A pause before a request ends nothing, retries nothing and changes no request and no record: the run makes the same requests, runs the same calls and leaves the same record, a millisecond a turn later.',
          where='Build: "Here is what must hold once they are filled; how you get there is yours"; "Count what you did without: no retry, no timer" (hunt round 33, design 5.1-49)',
          names='',
          replace=r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""",
          by=r"""
            if turn > 1:
                import time
                time.sleep(0.001)  # be kind to the provider
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
"""),
    # Hunt round 39 (reader r200), design 46: for a string, text or "" is that string.
    Wrong(lab='5.1', name='error_message keeps text or ""',
          rule='error_message is given a text: every caller in the course passes a string (lesson 16\'s reading too makes each reason text first), and for a string `text or ""` is an equal string, "" for "", so an ending that holds it holds the text, as the ones that hold str(text) and "".join(text) do.',
          where='Build item 1: "`error_message(text)` returns an assistant message with exactly four keys"; "`error_message` holding `text`" (hunt round 39, 5.1-46)',
          names='',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text or ""}
"""),
]

# Designs that break a rule only past what a check of lab 5.1 can afford (tools/wrong_designs.py's
# Beyond): each passes the lab's tests, and its deep test, run once by the kit with room to go
# past the reach, shows it wrong.
BEYOND = [
    # Hunt round 26 (reader r139), design 5.1-60: the view filtered over the last 50,000 only.
    Beyond(lab='5.1', name='a view that leaves out empty failures among the record\'s last 50,000 only',
           rule='The view is the record less every empty failed reply, however long the record: '
                'an empty failure at the start of a record of tens of thousands of messages is '
                'left out as one at its end is.',
           where='Build item 4: "less every assistant message that has no content and '
                 '`stop_reason` `\"error\"`" (hunt round 26, design 5.1-60)',
           names='context_for_model drops',
           reach="test_context_for_model goes over records of up to 40,000 messages, and the "
                 "bank's up to 35,000: the view of a record past 50,000 costs the reference a "
                 "pass over each of its messages, which would add more processor time than the "
                 "test's whole share, and a window of 100,000 would ask for twice that again: a "
                 "limit past what a test can afford",
           replace=r'''
    endings = ("error",)  # the empty ending a provider would refuse
''',
           by=r'''
    endings = ("error",)  # the empty ending a provider would refuse
    head, messages = messages[:-50000], messages[-50000:]  # older ones were sent before
''',
           also=((r'''
    return kept
''', r'''
    return head + kept
'''),),
           turns=10_000, seconds=10.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "5.1"


@lab_test("The view of a record of 60,002 messages that starts with an empty failure leaves "
          "that failure out.")
async def test_the_view_of_sixty_thousand(t):
    old = harness.error_message("overloaded")
    record = [harness.user_message("First."), old] + [harness.user_message("Again."),
                                                       lab.say("Yes.")] * 30000
    view = harness.context_for_model(record)
    t.expect([any(message is old for message in view), len(view)],
             why="context_for_model drops every empty failed reply, however long the record: "
                 "[whether the view holds the first one, its length] (context_for_model, "
                 "lesson 5).")
'''),
    Beyond(lab='5.1', name='no cap read as a cap of a thousand',
           rule='max_turns=None means no limit at all, not a large one: a run goes on while '
                'replies ask for tools.',
           where='hunt round 6, design 5.1-15', names='no limit at all',
           reach="test_no_limit asks 26 to 28 times, and lab 3.1's test_any_number_of_rounds, "
                 "which the lab's check runs too, at most 290: as many requests as a later lab's "
                 "reference takes within the practice check's allowance; this cap is met at the "
                 "1001st request",
           replace=r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
''',
           by=r'''
        if turn > (1000 if max_turns is None else max_turns):  # None: far above any job
''',
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "5.1"


@lab_test("With max_turns=None there is no limit at all: a model that asks 1,005 times and then "
          "answers is called once more than that.")
async def test_no_limit_past_a_thousand(t):
    asked = []

    def some(request):
        asked.append(1)
        return lab.reply(lab.call("tick")) if len(asked) <= 1005 else lab.say("Done.")
    model = lab.ScriptedModel([lab.forever(some)])
    messages = []
    tick = tool("tick", lambda arguments: "tock")
    await lab.drive(harness.run_agent(model, "Tick.", messages, [tick], "Tick until done."))
    t.expect([len(model.calls), lab.shape(messages[-2:])],
             why="max_turns=None means no limit at all, not a large one: [requests, the record's "
                 "last two messages] for a model that asks 1,005 times (run_agent, lesson 5).")
'''),
    # Hunt round 19 (reader r101), design 5.1-39: the same design, its cap just past the reach.
    Beyond(lab='5.1', name='no cap read as a cap of three hundred',
           rule='max_turns=None means no limit at all, not a large one: a run goes on while '
                'replies ask for tools.',
           where='Build item 2: "`max_turns=None`, the default, means no cap at all" (hunt '
                 'round 19, design 5.1-39)', names='no limit at all',
           reach="test_no_limit asks 26 to 28 times, and lab 3.1's test_any_number_of_rounds, "
                 "which the lab's check runs too, at most 290: as many requests as a later lab's "
                 "reference takes within the practice check's allowance; this cap is met at the "
                 "301st request",
           replace=r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
''',
           by=r'''
        if turn > (300 if max_turns is None else max_turns):  # None: above any job tried
''',
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "5.1"


@lab_test("With max_turns=None there is no limit at all: a model that asks 305 times and then "
          "answers is called once more than that.")
async def test_no_limit_past_three_hundred(t):
    asked = []

    def some(request):
        asked.append(1)
        return lab.reply(lab.call("tick")) if len(asked) <= 305 else lab.say("Done.")
    model = lab.ScriptedModel([lab.forever(some)])
    messages = []
    tick = tool("tick", lambda arguments: "tock")
    await lab.drive(harness.run_agent(model, "Tick.", messages, [tick], "Tick until done."))
    t.expect([len(model.calls), lab.shape(messages[-2:])],
             why="max_turns=None means no limit at all, not a large one: [requests, the record's "
                 "last two messages] for a model that asks 305 times (run_agent, lesson 5).")
'''),
    # Hunt round 13 (reader r64), design 5.1-12: not a cap on requests but a guard on replies
    # that repeat, a new kind past the same reach.
    Beyond(lab='5.1', name='a guard that ends the run after 300 identical replies in a row',
           rule='max_turns=None means no cap at all: a run goes on while replies ask for tools, '
                'the same calls asked again and again included; no guard of the loop\'s own '
                'ends it.',
           where='Build item 2: "`max_turns=None`, the default, means no cap at all" (hunt '
                 'round 13, design 5.1-12)', names='no limit at all',
           reach="test_no_limit asks 26 to 28 times, and lab 3.1's test_any_number_of_rounds, "
                 "which the lab's check runs too, at most 290 times, the same call each time: "
                 "as many requests as a later lab's reference takes within the practice "
                 "check's allowance; this guard is met at the 300th identical reply in a row",
           replace=r'''
    messages.append(user_message(prompt))
    turn = 0
''',
           by=r'''
    messages.append(user_message(prompt))
    last_asked, same = None, 0
    turn = 0
''',
           also=((r'''
        if not calls:  # the content decides, not the stop_reason label
            return
''', r'''
        if not calls:  # the content decides, not the stop_reason label
            return
        asked = [(call["name"], repr(call["arguments"])) for call in calls]
        same = same + 1 if asked == last_asked else 1
        last_asked = asked
        if same >= 300:  # the model repeats itself: a loop guard, whatever max_turns says
            messages.append(error_message("Agent stopped: the model repeats itself"))
            return
'''),),
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "5.1"


@lab_test("With max_turns=None there is no limit at all: a model that asks for the same tick "
          "305 times in a row and then answers is called once more than that.")
async def test_no_limit_past_three_hundred_repeats(t):
    asked = []

    def some(request):
        asked.append(1)
        return lab.reply(lab.call("tick")) if len(asked) <= 305 else lab.say("Done.")
    model = lab.ScriptedModel([lab.forever(some)])
    messages = []
    tick = tool("tick", lambda arguments: "tock")
    await lab.drive(harness.run_agent(model, "Tick.", messages, [tick], "Tick until done."))
    t.expect([len(model.calls), lab.shape(messages[-2:])],
             why="max_turns=None means no limit at all, and no guard against a model that "
                 "repeats itself: [requests, the record's last two messages] for a model that "
                 "asks for the same tick 305 times (run_agent, lesson 5).")
'''),
    # Hunt round 22 (reader r120), design 5.1-21: "a cap past a hundred ignored" moved past reach.
    Beyond(lab='5.1', name='a cap past a thousand ignored',
           rule='A run given max_turns=N makes at most N requests, for a cap of any size: a cap '
                'of 1,001 and more stops the run at its cap as a cap of 3 does.',
           where='Build item 2: "A run given `max_turns=N` makes at most N requests" (hunt '
                 'round 22, design 5.1-21)', names='makes at most',
           reach="test_max_turns_stops_an_endless_run runs caps up to 199 to their end, and the "
                 "bank's up to 199: a cap is seen only when a run reaches it, so this design "
                 "shows at the 1,001st request of a run, which costs more processor time than "
                 "the lab's whole check",
           replace=r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
''',
           by=r'''
        if max_turns is not None and max_turns <= 1000 and turn > max_turns:  # big: no cap
''',
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "5.1"


@lab_test("A run given max_turns=1003, whose model asks for a tick on every reply, makes 1,003 "
          "requests and stops with Agent stopped after max_turns=1003.")
async def test_a_cap_past_a_thousand(t):
    model = lab.ScriptedModel([lab.forever(lambda request: lab.reply(lab.call("tick"))
                                           if len(model.calls) <= 1020 else lab.say("Done."))])
    messages = []
    tick = tool("tick", lambda arguments: "tock")
    await lab.drive(harness.run_agent(model, "Tick.", messages, [tick], "Tick on.",
                                      max_turns=1003))
    t.expect([len(model.calls), messages[-1].get("error_message")],
             why="A run given max_turns=N makes at most N requests, for a cap of any size: "
                 "[requests, the last error_message] under max_turns=1003 (run_agent, "
                 "lesson 5).")
'''),
    # Hunt round 26 (reader r139), design 5.1-22: every cap cut down to 200, seen only past it.
    Beyond(lab='5.1', name='a cap past two hundred cut down to two hundred',
           rule='A run given max_turns=N makes at most N requests, and a run that needs no more '
                'than N turns ends on its own answer, for a cap of any size: a cap of 250 lets '
                'a job of 216 requests finish.',
           where='Build item 2: "A run that needs no more than N turns ends on its own answer" '
                 '(hunt round 26, design 5.1-22)', names='ends on its answer',
           reach="test_finishing_on_the_last_turn runs caps up to 6 to their end, and "
                 "test_max_turns_stops_an_endless_run caps up to 199: a cap cut down is seen "
                 "only when a run goes past the cut, so this design shows at the 201st request "
                 "of a run, and every cut further up as far again: a limit past what a test can "
                 "afford",
           replace=r'''
    messages.append(user_message(prompt))
    turn = 0
''',
           by=r'''
    messages.append(user_message(prompt))
    if max_turns is not None:
        max_turns = min(max_turns, 200)  # no job needs more
    turn = 0
''',
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "5.1"


@lab_test("A run given max_turns=250, whose model asks for a tick 215 times and then answers, "
          "ends on its answer after 216 requests.")
async def test_a_cap_of_two_hundred_and_fifty(t):
    asked = []

    def some(request):
        asked.append(1)
        return lab.reply(lab.call("tick")) if len(asked) <= 215 else lab.say("Done.")
    model = lab.ScriptedModel([lab.forever(some)])
    messages = []
    tick = tool("tick", lambda arguments: "tock")
    await lab.drive(harness.run_agent(model, "Tick.", messages, [tick], "Tick until done.",
                                      max_turns=250))
    t.expect([len(model.calls), lab.shape(messages[-2:])],
             why="A run that needs no more than N turns ends on its own answer, for a cap of "
                 "any size: [requests, the record's last two messages] under max_turns=250 "
                 "(run_agent, lesson 5).")
'''),
    # Hunt round 30 (reader r172), design 24: one stop kept for each cap of a thousand or more,
    # seen only when two runs reach such a cap.
    Beyond(lab='5.1', name='one stop kept for each cap of a thousand or more and shared by its runs',
           rule='Two runs stopped by the same cap end on two endings, each made by its own call '
                'of error_message, for a cap of any size: no ending shares anything with '
                'another.',
           where='Build item 1: "no ending shares anything with another" (hunt round 30, '
                 'design 5.1-24)', names='sharing nothing',
           reach="test_max_turns_stops_an_endless_run runs caps up to 199 to their stop, twice "
                 "for one cap past a hundred and fifty, and the bank's up to 199: a stop is made only when "
                 "a run reaches its cap, so this design shows only when two runs make a "
                 "thousand requests each, as 'a cap past a thousand ignored' shows only at the "
                 "1,001st: more processor time than the lab's whole check",
           replace=r'''
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
''',
           by=r'''
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
            if max_turns >= 1000:  # the same long-run stop every time: kept
                reply = _STOPS.setdefault(max_turns, reply)
        else:
''',
           also=((r'''
# given in lesson 5: a new parameter, max_turns
def run_agent(''', r'''
_STOPS = {}  # the ending of each cap of a thousand or more


# given in lesson 5: a new parameter, max_turns
def run_agent('''),),
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "5.1"


class Ticking:
    """A model that asks for a tick on every request, each call with an id of its own."""

    def __init__(self):
        self.asked = 0

    def complete(self, system, messages, tools=()):
        self.asked += 1
        return lab.reply(lab.call("tick", id=f"c{self.asked}"))


@lab_test("Two runs given max_turns=1000, whose model asks for a tick on every reply, end on "
          "two endings sharing nothing.")
async def test_two_stops_at_a_thousand(t):
    tick, stops, asked = tool("tick", lambda arguments: "tock"), [], []
    for _ in range(2):
        model, messages = Ticking(), []
        await lab.drive(harness.run_agent(model, "Tick.", messages, [tick], "Tick on.",
                                          max_turns=1000))
        stops.append(messages[-1])
        asked.append(model.asked)
    stops[0]["content"].append({"type": "text", "text": "A note a frontend added."})
    t.expect([asked, stops[1] is stops[0], stops[1]["content"],
              stops[1].get("error_message")],
             why="Two runs stopped by the same cap end on two endings sharing nothing, for a cap "
                 "of any size: [requests of each run, the second run's ending is the first's, "
                 "its content once a note went into the first's, its error_message] under "
                 "max_turns=1000 (error_message; run_agent, lesson 5).")
'''),
    # Hunt round 33 (reader r185), designs 29 and 38: a cap on the record's size, past the
    # forty-megabyte log the tests run (40 to 48 million characters).
    Beyond(lab='5.1', name="a run ended when its record's content passes a hundred million characters",
           rule='max_turns=None means no cap at all, of any kind: a run goes on while the model '
                'asks for tools, however much its record holds.',
           where='Build item 2: "`max_turns=None`, the default, means no cap at all"; "A '
                 'colleague\'s cap": "whose result is a forty-megabyte log, still counts as one" '
                 '(hunt round 33, designs 5.1-29 and 5.1-38)', names='no cap at all',
           reach="test_no_limit runs a record past the forty-megabyte log the page names (40 to "
                 "48 million characters), and the bank a prompt of 42 million: a cap on the "
                 "record's size is seen only on a record past it, and every lab's check after "
                 "this one runs these tests on its own reference, which walks the record on "
                 "each request; a record of a hundred million characters holds that much memory "
                 "in the browser's Python, and a cap further up asks for more again: a limit "
                 "past what a test can afford. The catalogue's 'a run ended when its request "
                 "passes twenty million characters' is the same kind, within reach, and fails",
           replace=r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
''',
           by=r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        elif sum(len(str(m.get("content", ""))) for m in messages) > 100_000_000:
            reply = error_message("Agent stopped: the record is too large")
''',
           turns=10_000, seconds=10.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "5.1"


@lab_test("With max_turns=None there is no cap of any kind: a run whose first result is a log of "
          "a hundred and five million characters goes on to the model's answer.")
async def test_no_cap_past_a_hundred_million(t):
    asked = []

    def some(request):
        asked.append(1)
        return lab.reply(lab.call("cat")) if len(asked) == 1 else lab.say("Read it all.")
    model = lab.ScriptedModel([lab.forever(some)])
    messages = []
    cat = tool("cat", lambda arguments: "#" * 105_000_000)
    await lab.drive(harness.run_agent(model, "Read the log.", messages, [cat], "Read on."))
    t.expect([len(model.calls), lab.shape(messages[-2:])],
             why="max_turns=None means no cap at all, of any kind: [requests, the record's last "
                 "two messages] for a run whose one result holds 105 million characters "
                 "(run_agent, lesson 5).")
'''),
    # Hunt round 33 (reader r185), design 55: a cap on the record's length in messages, past the
    # records the tests hand a run.
    Beyond(lab='5.1', name='a run ended when its record passes a hundred thousand messages',
           rule='max_turns=None means no cap at all, of any kind: a run goes on while the model '
                'asks for tools, however many messages its record holds.',
           where='Build item 2: "`max_turns=None`, the default, means no cap at all" (hunt round '
                 '33, design 5.1-55)', names='no cap at all',
           reach="test_context_for_model's views go over records of up to 40,000 messages and "
                 "no run of the tests carries a record that long: a cap on the record's length "
                 "is seen only by a run on a record past it, which costs a later lab's "
                 "reference (lab 16.2's view, about five rounds of its loops a message) more "
                 "than the practice check allows a test past 50,000 messages, as 'a view that "
                 "leaves out empty failures among the record's last 50,000 only' found: a "
                 "limit past what a test can afford",
           replace=r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
''',
           by=r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        elif len(messages) > 100_000:
            reply = error_message("Agent stopped: the record is too long")
''',
           turns=10_000, seconds=10.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "5.1"


@lab_test("With max_turns=None there is no cap of any kind: a run on a record of 100,002 "
          "messages whose model asks for a tick and then answers is called twice.")
async def test_no_cap_past_a_hundred_thousand_messages(t):
    messages = [harness.user_message("Again."), lab.say("Yes.")] * 50001
    model = lab.ScriptedModel([lab.reply(lab.call("tick")), lab.say("Done.")])
    tick = tool("tick", lambda arguments: "tock")
    await lab.drive(harness.run_agent(model, "Tick once.", messages, [tick], "Tick."))
    t.expect([len(model.calls), lab.shape(messages[-4:])],
             why="max_turns=None means no cap at all, of any kind: [requests, the record's last "
                 "four messages] for a run on a record of 100,002 messages (run_agent, "
                 "lesson 5).")
'''),
    # Hunt round 33 (reader r185), designs 37 and 05: cuts past the longest reason a test can
    # give.
    Beyond(lab='5.1', name='error_message cutting a reason at twenty million characters',
           rule="error_message holds its text whole, however long: a provider's whole answer as "
                "the reason is kept, not cut.",
           where='Build item 1: "`error_message` holding `text`" (hunt round 33, designs 5.1-37 '
                 'and 5.1-05)', names='held whole',
           reach="test_error_message's long reason is 8 to 12 million characters, and the "
                 "bank's 9 to 11 million: a cut is seen only on a reason past it, and an "
                 "error_message the page allows may go over its text a character at a time (the "
                 "catalogue's allowed 'error_message keeps \"\".join(text)'), which for a reason "
                 "past twenty million characters takes more processor time than the practice "
                 "check allows a test without a turn (tried at fifty million: stopped at 0.5 "
                 "seconds), in the browser's Python sooner: a limit past what a test can afford. "
                 "The catalogue's 'error_message cutting a reason at six million characters' is "
                 "the same kind, within reach, and fails",
           replace=r'''
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
''',
           by=r'''
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text[:20_000_000]}
''',
           turns=10_000, seconds=10.0,
           deep=r'''
import harness
from lab.kit import lab_test

LAB = "5.1"


@lab_test("error_message holds a reason of 55 million characters whole.")
async def test_a_reason_of_fifty_five_million(t):
    told = "Error code: 529 (overloaded)" + " (and again)" * 4_580_000
    ending = harness.error_message(told)
    t.expect([len(ending["error_message"]), ending["error_message"] == told],
             why="A long reason is held whole, not cut: [the length of the ending's "
                 "error_message, it is the reason given] for a reason of 55 million characters "
                 "(error_message, lesson 5).")
'''),
]
