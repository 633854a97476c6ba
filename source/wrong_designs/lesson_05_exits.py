"""Lesson 5, "Ways a run can end: the run that would not stop": the wrong designs its rungs rule
out, each as a small change to lab 5.1's reference. The format is tools/wrong_designs.py's.
"""
from tools.wrong_designs import Wrong

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
]
