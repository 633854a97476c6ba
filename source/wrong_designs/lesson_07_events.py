"""Lesson 7, "Events: the loop that drew on the screen": the wrong designs its rungs rule out,
each as a small change to the reference of lab 7.1 (the loop) or 7.2 (the frontends). The
format is tools/wrong_designs.py's.
"""
from tools.wrong_designs import Beyond, Wrong

END_AGENT = '''    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
'''

WRONG = [
    Wrong(lab='7.1', name='printing from the loop',
          rule="The loop reports what happened as events and draws nothing: any drawing it does is one frontend's picture forced on all the others.",
          where='failure scene: Three screens, one loop',
          names='draws nothing',
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
''',
          by=r'''
            yield {"type": "tool_execution_start", "call": call}
            print(f"running {call['name']}...")
            result = run_tool(tools, call)
'''),
    Wrong(lab='7.1', name='a callback parameter per happening',
          rule='run_agent is a generator that yields one event per happening, so the consumer sees each as it happens and can stop the run between two.',
          where='rung: Report, and let the consumer draw',
          names='yields one event per happening',
          replace=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          by=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None, on_message=None,
              on_tool_start=None, on_tool_end=None):
    for event in _run_agent(model, system, messages, tools, prompt, max_turns=max_turns):
        callback = {"message_end": on_message, "tool_execution_start": on_tool_start,
                    "tool_execution_end": on_tool_end}.get(event["type"])
        if callback is not None:
            callback(event)


def _run_agent(model, system, messages, tools, prompt, *, max_turns=None):
'''),
    Wrong(lab='7.1', name='collecting events and returning them at the end',
          rule='run_agent yields one event per happening, as it happens; a list handed over at the end shows the consumer nothing until the run is over.',
          where='rung: Report, and let the consumer draw',
          names='yields one event per happening',
          replace=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          by=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    return list(_run_agent(model, system, messages, tools, prompt, max_turns=max_turns))


def _run_agent(model, system, messages, tools, prompt, *, max_turns=None):
'''),
    Wrong(lab='7.1', name='announcing before appending',
          rule='Mutate, then announce: a message is appended to the record before its message_end is yielded.',
          where='rung: Record first, then announce',
          names='mutate, then announce',
          replace='        yield record(reply)',
          by=r'''
        yield {"type": "message_end", "message": reply}  # tell the screen at once
        record(reply)
'''),
    Wrong(lab='7.1', name="a yield between a tool's return and its record",
          rule='Nothing is yielded between a tool returning and its result being recorded, so a consumer that stops the run can lose a result that never happened, never one that did.',
          where='rung: Record first, then announce',
          names='nothing is yielded between a tool returning and its result being recorded',
          replace=r'''
            result = run_tool(tools, call)
            yield record(result)  # straight after the tool returned: nothing in between
            yield {"type": "tool_execution_end", "call": call, "result": result}
''',
          by=r'''
            result = run_tool(tools, call)
            yield {"type": "tool_execution_end", "call": call, "result": result}  # spinner off
            yield record(result)
'''),
    Wrong(lab='7.1', name='the tool run on the call the consumer left in tool_execution_start',
          rule="The tool runs the reply's own call, whatever the consumer does with the event that announced it: putting another call under its \"call\" key changes that event, not the run.",
          where='Build item 6: "The tool runs the reply\'s own call" (hunt round 14, probe 7.1-23)',
          names="The tool runs the reply's own call",
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
''',
          by=r'''
            yield (start := {"type": "tool_execution_start", "call": call})
            result = run_tool(tools, start["call"])  # the call as the consumer left it
'''),
    Wrong(lab='7.1', name='forgetting agent_end on an error exit',
          rule='Events balance on every way out: every agent_start has its agent_end, and agent_end is yielded from a single place.',
          where='rung: Every way out, one agent_end',
          names='agent_end',
          replace=r'''
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
''',
          by=r'''
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed:
            yield {"type": "turn_end", "message": reply}
            return  # nothing more to do
'''),
    Wrong(lab='7.1', name="the generator's return value as the answer",
          rule="The answer travels in agent_end, as the last of the messages the run added: a for loop throws a generator's return value away.",
          where='rung: Where the answer travels',
          names='agent_end carries',
          replace=r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''',
          by=r'''
    yield {"type": "agent_end"}
    return added[-1]  # the answer, for whoever wants it
'''),
    Wrong(lab='7.1', name='non-JSON payloads',
          rule='Events are plain data that go through json.dumps: they carry the call, never the tool with its execute.',
          where='rung: Events are data',
          names='json',
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
''',
          by=r'''
            yield {"type": "tool_execution_start", "call": call,
                   "tool": {t["name"]: t for t in tools}.get(call["name"])}
'''),
    Wrong(lab='7.1', name="a turn's tool_execution_end events after all of its calls",
          rule="A run with one call yields exactly the twelve events of Figure 7.1, in that order; more calls repeat the call's part, start, result and end, for each.",
          where='lab 7.1, Build section: "Figure 7.1"',
          names='repeat the turn',
          replace=r'''
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)  # straight after the tool returned: nothing in between
            yield {"type": "tool_execution_end", "call": call, "result": result}
''',
          by=r'''
        done = []
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)  # straight after the tool returned: nothing in between
            done.append((call, result))
        for call, result in done:
            yield {"type": "tool_execution_end", "call": call, "result": result}
'''),
    Wrong(lab='7.1', name='agent_end carrying the whole record',
          rule="agent_end carries the messages this run added to the record, in order, and none from before it.",
          where='lab 7.1, Build section: "agent_end"',
          names='not the earlier ones',
          replace=r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''',
          by=r'''
    yield {"type": "agent_end", "messages": list(messages)}
'''),
    Wrong(lab='7.1', name="turn_end carrying the turn's last message",
          rule="turn_end carries the turn's reply as \"message\", not whatever was recorded last.",
          where='lab 7.1, Build section: "turn_end"',
          names='turn_end',
          replace=r'''
        yield {"type": "turn_end", "message": reply}
''',
          by=r'''
        yield {"type": "turn_end", "message": messages[-1]}
'''),
    Wrong(lab='7.1', name='the prompt recorded without its message_end',
          rule='Every message the run records is announced once, by a message_end: the prompt too.',
          where='lab 7.1, Build section: "message_end"',
          names='announced',
          replace=r'''
        for message in pending:  # a user message enters only here, at the top of a turn
            yield record(message)
''',
          by=r'''
        for message in pending:
            record(message)
'''),
    Wrong(lab='7.1', name='tool_execution_start yielded once the tool has run',
          rule="Each call's tool is announced by tool_execution_start before it runs.",
          where='lab 7.1, Build section: "tool_execution_start"',
          names='never runs',
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
''',
          by=r'''
            result = run_tool(tools, call)
            yield {"type": "tool_execution_start", "call": call}
'''),
    Wrong(lab='7.1', name='printing to standard error from the loop',
          rule='run_agent prints nothing, on standard output or standard error: what happened travels in its events alone.',
          where='Build: announce, don\'t draw, item 1 (hunt round 1, 7.1-1)',
          names='standard error',
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
''',
          by=r'''
            yield {"type": "tool_execution_start", "call": call}
            import sys
            print(f"[agent] running {call['name']}...", file=sys.stderr)
            result = run_tool(tools, call)
'''),
    Wrong(lab='7.1', name='the prompt recorded before agent_start',
          rule='Every message the run records is announced once, and only once it is on the record: the prompt is recorded at the top of the first turn.',
          where='Build: announce, don\'t draw, item 5 (hunt round 1, 7.1-2)',
          names='never before agent_start',
          replace=r'''
    yield {"type": "agent_start"}
    turn, calls, pending = 0, [], [user_message(prompt)]
''',
          by=r'''
    prompt_message = user_message(prompt)
    messages.append(prompt_message)  # lesson 6's first line, kept at the top
    added.append(prompt_message)
    yield {"type": "agent_start"}
    turn, calls, pending = 0, [], [prompt_message]
''',
          also=((r'''
        for message in pending:  # a user message enters only here, at the top of a turn
            yield record(message)
''', r'''
        for message in pending:
            yield {"type": "message_end", "message": message}
'''),)),
    Wrong(lab='7.1', name="one module-level list of the run's messages",
          rule="agent_end carries the messages this run added, kept by the run itself: not a list another run shares.",
          where='Build: announce, don\'t draw, item 3 (hunt round 1, 7.1-3)',
          names='another run shares',
          replace=r'''
    added = []  # what this run puts on the record, for agent_end to carry
''',
          by=r'''
    added = _RUN_MESSAGES
    added.clear()
''',
          also=(('def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
                 '_RUN_MESSAGES = []\n\n\ndef run_agent(model, system, messages, tools, prompt, *, '
                 'max_turns=None):'),)),
    Wrong(lab='7.1', name="agent_end sliced from the caller's record",
          rule="agent_end carries the messages this run added, in order, and none other: not a slice of the caller's record, which others may write to.",
          where='Build: announce, don\'t draw, item 3 (hunt round 1, 7.1-4)',
          names='sliced',
          replace=r'''
    added = []  # what this run puts on the record, for agent_end to carry
''',
          by=r'''
    start = len(messages)
''',
          also=((r'''
        messages.append(message)
        added.append(message)
''', r'''
        messages.append(message)
'''), (r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''', r'''
    yield {"type": "agent_end", "messages": messages[start:]}
'''))),
    Wrong(lab='7.1', name='set up at the call, run later',
          rule='Until its first event is asked for, run_agent does nothing at all: the run starts from the record and the tools as they are then.',
          where='Build: announce, don\'t draw, item 1 (hunt round 1, 7.1-5)',
          names='does nothing at all',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """Set up now, run later."""
    specs, tools_now = tool_specs(tools), list(tools)
    return _run(model, system, messages, tools_now, prompt, max_turns, specs)


def _run(model, system, messages, tools, prompt, max_turns, specs):
''',
          also=((r'''
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
''', r'''
            reply = model.complete(system, context_for_model(messages), specs)
'''),)),
    Wrong(lab='7.1', name='events as a dict subclass carrying live objects',
          rule='Each event is a dict of plain data, not a subclass of dict that carries live objects beside its keys.',
          where='Build: announce, don\'t draw, item 1 (hunt round 1, 7.1-6)',
          names='not a subclass of dict',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r'''
class Event(dict):
    """An event: a dict, plus whatever live objects a frontend in this process may like."""
    tool = None


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          also=((r'''
            yield {"type": "tool_execution_start", "call": call}
''', r'''
            started = Event(type="tool_execution_start", call=call)
            started.tool = {each["name"]: each for each in tools}.get(call["name"])
            yield started
'''),)),
    Wrong(lab='7.1', name='max_turns=0 read as no cap',
          rule='agent_start and agent_end balance on every way out, max_turns included, and max_turns=0 is a cap: no model call is made.',
          where='Build: announce, don\'t draw, item 3 (hunt round 1, 7.1-7)',
          names='no cap',
          replace='        if max_turns is not None and turn > max_turns:  # before the call, never after',
          by='        if max_turns and turn > max_turns:  # before the call, never after'),
    Wrong(lab='7.2', name='an empty answer reported as success',
          rule='A run whose last reply failed did not end well: the text frontend prints Error: and the error_message, and finish() returns False.',
          where='rung: Events are data (did the run end well?)',
          names='did not end well',
          replace=r'''
        if reply["stop_reason"] == "error":
            print(f"Error: {reply.get('error_message')}")
            return False
''',
          by=''),
    Wrong(lab='7.2', name='the frontend raises the error',
          rule='An ending is recorded, not raised: the frontend reads it and reports it in its own way, Error: and the error_message.',
          where='rung: Events are data (did the run end well?)',
          names='error_message',
          replace=r'''
            print(f"Error: {reply.get('error_message')}")
            return False
''',
          by='            raise RuntimeError(reply["error_message"])'),
    Wrong(lab='7.2', name='a failed reply missed by the JSON frontend',
          rule='A message_end that announces a reply with stop_reason error means the run did not end well, whichever frontend reads it.',
          where='Build: two frontends',
          names='did not end well',
          replace=r'''
        if ended == "error":
            self.failed = True
''',
          by=''),
    Wrong(lab='7.2', name='a tool error counted as a failed run',
          rule='A tool error is not an ending: the boundary makes it a result and the run goes on, so only a reply with stop_reason error means the run did not end well, whichever frontend reads it.',
          where='issue 23: a run that recovers from a missing file and then answers, reported failed by one frontend and finished by the other',
          names='a tool error is not an ending',
          replace=r'''
        if ended == "error":
            self.failed = True
''',
          by=r'''
        if ended == "error" or event.get("message", {}).get("is_error"):
            self.failed = True  # a tool that went wrong spoils the run
'''),
    Wrong(lab='7.2', name='one failure spoils a later answer',
          rule='Only the last assistant message decides: a failed reply earlier in the events does not spoil a later answer.',
          where='Build: two frontends',
          names='newest assistant message',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            if self.last is None or self.last["stop_reason"] != "error":
                self.last = message  # once failed, always failed
'''),
    Wrong(lab='7.2', name='the final-text frontend drawing as it goes',
          rule='The final-text frontend prints the answer alone, once, at finish(), for a script that writes it to a file.',
          where='failure scene: Three screens, one loop',
          names='once, at finish()',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
            print(text_of(message))
'''),
    Wrong(lab='7.2', name='printing the event, not its JSON',
          rule='JsonRenderer prints json.dumps(event), one line of JSON per event, so another program can read the run.',
          where='rung: Events are data',
          names='json.dumps(event)',
          replace='        print(json.dumps(event), flush=True)',
          by='        print(event, flush=True)'),
    Wrong(lab='7.2', name='JSON lines held until agent_end',
          rule='Every event JsonRenderer is handed appears at once, as its own line, in the render call that is handed it.',
          where='lab 7.2, gap 1: "JsonRenderer"',
          names='appears at once',
          replace=r'''
    def __init__(self):
        self.failed = False

    def render(self, event):
        print(json.dumps(event), flush=True)
''',
          by=r'''
    def __init__(self):
        self.failed = False
        self.held = []

    def render(self, event):
        self.held.append(json.dumps(event))
        if event["type"] == "agent_end":
            print("\n".join(self.held), flush=True)
            self.held = []
'''),
    Wrong(lab='7.2', name='JsonRenderer judging by the last assistant message',
          rule='JsonRenderer.finish() is False when any message it saw announced had stop_reason "error", even with an answer after it.',
          where='lab 7.2, gap 1: "JsonRenderer"',
          names='any failed message',
          replace=r'''
        if ended == "error":
            self.failed = True
''',
          by=r'''
        if ended is not None:
            self.failed = ended == "error"
'''),
    Wrong(lab='7.2', name='JsonRenderer telling a failure by its error_message',
          rule='A failed message is one whose stop_reason is "error", whatever its error_message holds.',
          where='lab 7.2, gap 1: "JsonRenderer"',
          names='whatever its error_message',
          replace=r'''
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
''',
          by=r'''
        ended = event["message"].get("error_message") if event["type"] == "message_end" else None
        if ended:
'''),
    Wrong(lab='7.2', name='FinalTextRenderer telling a failure by its error_message',
          rule='When the last assistant message has stop_reason "error", finish() prints "Error: " and its error_message, even an empty one, and returns False.',
          where='lab 7.2, gap 2: "FinalTextRenderer"',
          names='whatever its error_message',
          replace=r'''
        if reply["stop_reason"] == "error":
            print(f"Error: {reply.get('error_message')}")
''',
          by=r'''
        if reply.get("error_message"):
            print(f"Error: {reply.get('error_message')}")
'''),
    Wrong(lab='7.2', name='an empty line printed when there is no answer',
          rule='When no assistant message came by at all, finish() prints nothing and returns False.',
          where='lab 7.2, gap 2: "FinalTextRenderer"',
          names='prints nothing',
          replace=r'''
        if reply is None:
            return False
''',
          by=r'''
        if reply is None:
            print("")
            return False
'''),
    Wrong(lab='7.2', name='JSON lines left in the buffer',
          rule='Every event JsonRenderer is handed appears at once, even when standard output is a pipe to another program: render flushes its line.',
          where='lab 7.2, gap 1: "JsonRenderer" (hunt round 1, 7.2-1)',
          names='appears at once',
          replace='        print(json.dumps(event), flush=True)',
          by='        print(json.dumps(event))'),
    Wrong(lab='7.2', name='a failure told by an error_message key',
          rule='Whether a reply failed is its stop_reason "error", whatever its error_message field holds.',
          where='Build: two frontends, items 1 and 2 (hunt round 1, 7.2-3)',
          names='whatever its',
          replace=r'''
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
''',
          by=r'''
        ended = "error_message" in event["message"] if event["type"] == "message_end" else None
        if ended:
''',
          also=((r'''
        if reply["stop_reason"] == "error":
            print(f"Error: {reply.get('error_message')}")
''', r'''
        if "error_message" in reply:
            print(f"Error: {reply.get('error_message')}")
'''),)),
    Wrong(lab='7.2', name='a failure told by an empty reply',
          rule='Whether a reply failed is its stop_reason "error", whatever its content holds: a failed reply that got words out first is still a failure.',
          where='Build: two frontends, items 1 and 2 (hunt round 1, 7.2-4)',
          names='whatever its',
          replace=r'''
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
''',
          by=r'''
        message = event.get("message", {})
        if (event["type"] == "message_end" and message["role"] == "assistant"
                and not message["content"]):
''',
          also=((r'''
        if reply["stop_reason"] == "error":
            print(f"Error: {reply.get('error_message')}")
''', r'''
        if not reply["content"]:
            print(f"Error: {reply.get('error_message', 'no answer')}")
'''),)),
    Wrong(lab='7.2', name='the answer stripped',
          rule="The last assistant message's words are printed as text_of gives them, nothing stripped.",
          where='Build: two frontends, item 2 (hunt round 1, 7.2-5)',
          names='nothing stripped',
          replace='        print(text_of(reply))',
          by='        print(text_of(reply).strip())'),
    Wrong(lab='7.2', name='an empty last answer passed over',
          rule='The last assistant message announced decides, an empty answer too: its words (none) and True.',
          where='Build: two frontends, item 2 (hunt round 1, 7.2-8)',
          names='empty answer',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if (event["type"] == "message_end" and message["role"] == "assistant"
                and (text_of(message) or message.get("stop_reason") == "error")):
            self.last = message
'''),
    Wrong(lab='7.2', name='the frontend tidying the record',
          rule='Neither frontend touches the record: they know the run only from its events.',
          where='Build: two frontends, after item 2 (hunt round 1, 7.2-17)',
          names='touches the record',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            message.setdefault("error_message", "")
            self.last = message
'''),
    Wrong(lab='7.2', name="the first block's text as the answer",
          rule="The last assistant message's words are text_of it: every text block, joined.",
          where='Build: two frontends, item 2 (hunt round 1, 7.2-18)',
          names='every text block',
          replace='        print(text_of(reply))',
          by='        print(reply["content"][0]["text"])'),
    # Hunt round 4 (reader r13).
    Wrong(lab='7.2', name='the error line cut short',
          rule='When the last assistant message failed, finish() prints "Error: " followed by its error_message, word for word, every line of it however long.',
          where='Build: two frontends, item 2 (hunt round 4, 7.2-1)',
          names='word for word',
          replace=r'''
            print(f"Error: {reply.get('error_message')}")
            return False
''',
          by=r'''
            reason = " ".join(reply["error_message"].split("\n")[0].split())
            if len(reason) > 60:
                reason = reason[:57] + "..."  # keep the error line short for the terminal
            print(f"Error: {reason}")
            return False
'''),
    Wrong(lab='7.2', name='FinalTextRenderer failing anything but a clean stop',
          rule='A failure is told by its label, stop_reason "error", and by nothing else: a last reply labelled "toolUse" is an answer, its words and True.',
          where='Build: two frontends, item 2 (hunt round 4, 7.2-2)',
          names='"toolUse"',
          replace=r'''
        if reply["stop_reason"] == "error":
            print(f"Error: {reply.get('error_message')}")
''',
          by=r'''
        if reply["stop_reason"] != "stop":
            print(f"Error: {reply.get('error_message')}")
'''),
    Wrong(lab='7.2', name='JsonRenderer swallowing what json.dumps raises',
          rule='Every event JsonRenderer is handed appears as a line equal to it; one that is not data makes json.dumps raise, and the error goes on, so the bug in the loop is seen.',
          where='rung: What an event may carry (hunt round 4, 7.2-3)',
          names='lets that error go',
          replace='        print(json.dumps(event), flush=True)',
          by=r'''
        try:
            print(json.dumps(event), flush=True)
        except Exception:  # an event we cannot write is not worth crashing the plug-in for
            pass
'''),
    Wrong(lab='7.2', name='json.dumps told to write anything with default=str',
          rule='Every event JsonRenderer is handed appears as one line that parses as JSON equal to the event; a function written as its str() is a line that is not the event.',
          where='rung: What an event may carry (hunt round 4, 7.2-4)',
          names='lets that error go',
          replace='        print(json.dumps(event), flush=True)',
          by='        print(json.dumps(event, default=str), flush=True)'),
    Wrong(lab='7.2', name="only lesson 7's event types printed",
          rule='Every event JsonRenderer is handed appears, of whatever type: a frontend does not choose which of the events it is handed another program sees.',
          where='Build: two frontends, item 1 (hunt round 4, 7.2-5)',
          names='of whatever type',
          replace='        print(json.dumps(event), flush=True)',
          by=r'''
        if event.get("type") in ("agent_start", "turn_start", "message_end", "tool_execution_start",
                                 "tool_execution_end", "turn_end", "agent_end"):
            print(json.dumps(event), flush=True)  # the plug-in only draws these
'''),
    Wrong(lab='7.2', name="a renderer's state kept on its class",
          rule="Each new frontend is a fold of its own: two alive at once keep apart what each has seen, so one run's events never decide another's ending.",
          where='Build: two frontends (hunt round 4, 7.2-6)',
          names='a fold of its own',
          replace=r'''
    def __init__(self):
        self.last = None  # the newest assistant message so far

    def render(self, event):
        message = event.get("message")
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message

    def finish(self):
        reply = self.last
''',
          by=r'''
    last = None  # the newest assistant message so far

    def __init__(self):
        FinalTextRenderer.last = None

    def render(self, event):
        message = event.get("message")
        if event["type"] == "message_end" and message["role"] == "assistant":
            FinalTextRenderer.last = message

    def finish(self):
        reply = FinalTextRenderer.last
'''),
    Wrong(lab='7.2', name='the error line written into the failed reply',
          rule="Neither frontend touches the record, a failed run's neither: the messages its events carry are the record's own.",
          where='Build: two frontends, after item 2 (hunt round 4, 7.2-7)',
          names='touches the record',
          replace=r'''
            print(f"Error: {reply.get('error_message')}")
            return False
''',
          by=r'''
            line = f"Error: {reply.get('error_message')}"
            reply["content"].append({"type": "text", "text": line})  # note it on the reply
            print(line)
            return False
'''),
    Wrong(lab='7.2', name='JsonRenderer searching its own line for the label',
          rule="A failure is told by its label, the stop_reason of a message a message_end announced, and by nothing else: a call's arguments that quote the label are no failure.",
          where='Build: two frontends, item 1 (hunt round 4, 7.2-8)',
          names="whatever its call's arguments hold",
          replace=r'''
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
''',
          by=r'''
        line = json.dumps(event)
        print(line, flush=True)
        if '"stop_reason": "error"' in line:
'''),
    Wrong(lab='7.2', name='replies that ask for tools passed over',
          rule='The last assistant message announced decides, one that asked for a tool too: its words and True.',
          where='Build: two frontends, item 2 (hunt round 4, 7.2-9)',
          names='it is the last assistant message',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if (event["type"] == "message_end" and message["role"] == "assistant"
                and not tool_calls(message)):  # those are not answers
            self.last = message
'''),
    Wrong(lab='7.2', name='long strings cut in the JSON line',
          rule='Every event JsonRenderer is handed appears as one line that parses as JSON equal to the event, a long answer or result carried whole.',
          where='Build: two frontends, item 1 (hunt round 4, 7.2-24)',
          names='carries whole',
          replace='        print(json.dumps(event), flush=True)',
          by=r'''
        def short(value, most=1000):
            if isinstance(value, str):
                return value if len(value) <= most else value[:most] + "...[cut]"
            if isinstance(value, list):
                return [short(item) for item in value]
            if isinstance(value, dict):
                return {key: short(item) for key, item in value.items()}
            return value
        print(json.dumps(short(event)), flush=True)  # so the plug-in's lines stay small
'''),
    Wrong(lab='7.1', name='only the first 300 calls of a reply run',
          rule='Every call of a reply runs between its tool_execution_start and its tool_execution_end, however many calls the reply holds.',
          where='lab 7.1, Build section: the tool events around a call; bench/kinds.py, a loop given a limit',
          names='however many there are',
          replace=r'''
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
''',
          by=r'''
        for call in calls[:300]:  # a batch is a few calls
            yield {"type": "tool_execution_start", "call": call}
'''),
    # Hunt round 6 (reader r24): each a design that passed lab 7.1's tests before this round.
    Wrong(lab='7.1', name='logging to standard error instead of printing',
          rule='run_agent prints nothing, and a line logged through a handler set up at import is printed all the same: what happened travels in its events alone.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 6, 7.1-1)',
          names='logged through the logging module',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r'''
import logging

logging.basicConfig(level=logging.INFO, format="%(message)s")  # bound to stderr at import
log = logging.getLogger("harness")


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          also=((r'''
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
''', r'''
            yield {"type": "tool_execution_start", "call": call}
            log.info("running %s...", call["name"])
            result = run_tool(tools, call)
'''),)),
    Wrong(lab='7.1', name='a warning printed on the bad endings only',
          rule='run_agent prints nothing on every way out: a failed reply and the max_turns stop are recorded and announced, never printed to standard error.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 6, 7.1-2)',
          names='on every way out',
          replace=r'''
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
''',
          by=r'''
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed:
            import sys
            print(f"warning: {reply.get('error_message')}", file=sys.stderr)
'''),
    Wrong(lab='7.1', name='a failed tool closed by tool_execution_error',
          rule='Every call is followed by tool_execution_end, carrying "call" and "result", a tool that raised too: its error result is a result like any other.',
          where='Build: announce, don\'t draw, item 6: "followed by `tool_execution_end`" (hunt round 6, 7.1-3)',
          names='A tool that raises',
          replace=r'''
            yield {"type": "tool_execution_end", "call": call, "result": result}
''',
          by=r'''
            kind = "tool_execution_error" if result["is_error"] else "tool_execution_end"
            yield {"type": kind, "call": call, "result": result}  # so a frontend can draw it red
'''),
    Wrong(lab='7.1', name='no tool events for a tool that does not exist',
          rule="Each call is announced by tool_execution_start and followed by tool_execution_end, a call to a tool the run was not given too: it gets its error result between them.",
          where='Build: announce, don\'t draw, item 6: "Each call\'s tool is announced by `tool_execution_start`" (hunt round 6, 7.1-4)',
          names='a tool that does not exist',
          replace=r'''
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
''',
          by=r'''
        for call in calls:
            if call["name"] not in [each["name"] for each in tools]:  # nothing will run
                yield record(run_tool(tools, call))
                continue
            yield {"type": "tool_execution_start", "call": call}
'''),
    Wrong(lab='7.1', name="agent_end picked off the caller's record by identity",
          rule="agent_end carries the messages this run added, kept by the run itself: not picked off the caller's record, where a consumer may put an announced message again.",
          where='Build: announce, don\'t draw, item 3: "the messages this run added to the record, in order" (hunt round 6, 7.1-5)',
          names='kept by the run itself',
          replace=r'''
        messages.append(message)
        added.append(message)
''',
          by=r'''
        messages.append(message)
        added.append(id(message))  # the ids are enough to find them again
''',
          also=((r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''', r'''
    yield {"type": "agent_end", "messages": [m for m in messages if id(m) in added]}
'''),)),
    Wrong(lab='7.1', name='turn_end carrying the newest assistant message on the record',
          rule="turn_end carries the turn's reply, the one the run announced, not the newest assistant message the record holds.",
          where='Build: announce, don\'t draw, item 4: "closes with `turn_end`" (hunt round 6, 7.1-6)',
          names='not whatever the record holds last',
          replace=r'''
        yield {"type": "turn_end", "message": reply}
''',
          by=r'''
        newest = next(m for m in reversed(messages) if m["role"] == "assistant")
        yield {"type": "turn_end", "message": newest}
'''),
    Wrong(lab='7.1', name="requests built from the run's own copy of the record",
          rule="Each request is built fresh from the record, the caller's list, as it is when the request is made: what a consumer puts there between events reaches the model.",
          where='Build: announce, don\'t draw, item 5: "the caller\'s list" (hunt round 6, 7.1-7)',
          names='built fresh from the record',
          replace=r'''
        messages.append(message)
        added.append(message)
''',
          by=r'''
        messages.append(message)
        added.append(message)
        own.append(message)
''',
          also=((r'''
    yield {"type": "agent_start"}
''', r'''
    own = list(messages)  # the run's own history, safe from the caller
    yield {"type": "agent_start"}
'''), (r'''
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
''', r'''
            reply = model.complete(system, context_for_model(own), tool_specs(tools))
'''))),
    Wrong(lab='7.1', name="a message_end's message a dict subclass carrying a live tool",
          rule='Events are plain data at every depth: the message a message_end carries is a dict itself, not a subclass of dict holding a live tool beside its keys.',
          where='Build: announce, don\'t draw, item 1: "each a dict of plain data" (hunt round 6, 7.1-9)',
          names='at any depth',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r'''
class Announced(dict):
    """A message as announced, with the live tool that made it beside its keys."""
    tool = None


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          also=((r'''
        return {"type": "message_end", "message": message}
''', r'''
        announced = Announced(message)
        if message["role"] == "toolResult":  # for a retry button
            announced.tool = tools[0] if tools else None
        return {"type": "message_end", "message": announced}
'''),)),
    Wrong(lab='7.1', name='tool_execution_start carrying a summary of the call',
          rule='tool_execution_start carries the call, the whole block as the reply holds it, not a summary of its id, name and arguments.',
          where='Build: announce, don\'t draw, item 6: "before it runs" (hunt round 6, 7.1-13)',
          names='the whole of it',
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
''',
          by=r'''
            summary = {"id": call["id"], "name": call["name"], "arguments": call["arguments"]}
            yield {"type": "tool_execution_start", "call": summary}
'''),
    Wrong(lab='7.1', name='the next request made before turn_end',
          rule='A generator does nothing unless somebody asks: the next request is made once the next turn is asked for, so a consumer that stops at turn_end has paid for no request more.',
          where='rung: The run, consumed: "nobody paid for a second request" (hunt round 6, 7.1-14)',
          names='does nothing unless somebody asks',
          replace=r'''
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
''',
          by=r'''
        if ahead is not None:
            reply, ahead = ahead, None
        elif max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
''',
          also=((r'''
    turn, calls, pending = 0, [], [user_message(prompt)]
''', r'''
    turn, calls, pending = 0, [], [user_message(prompt)]
    ahead = None  # the next reply, asked for early
'''), (r'''
        yield {"type": "turn_end", "message": reply}
''', r'''
        if calls and (max_turns is None or turn + 1 <= max_turns):
            ahead = model.complete(system, context_for_model(messages), tool_specs(tools))
        yield {"type": "turn_end", "message": reply}
'''))),
    Wrong(lab='7.1', name='each turn running the next inside itself',
          rule="A run of more turns repeats a turn's part for each, one after another, as a loop: a turn that runs the next inside itself goes a frame deeper each turn, and a long run dies of RecursionError.",
          where='Build: announce, don\'t draw, item 2: "a run of more turns or more calls repeats a turn\'s part for each" (hunt round 6, 7.1-15)',
          names='RecursionError',
          replace=r'''
    yield {"type": "agent_start"}
    turn, calls, pending = 0, [], [user_message(prompt)]
    while calls or pending:  # one lap is one turn
        turn += 1
''',
          by=r'''
    yield {"type": "agent_start"}
    yield from _turn(1, [user_message(prompt)], model, system, messages, tools, max_turns, record)
    yield {"type": "agent_end", "messages": added}


def _turn(turn, pending, model, system, messages, tools, max_turns, record):
    """One turn, then the next one inside it."""
    if True:
''',
          also=((r'''
        yield {"type": "turn_end", "message": reply}
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''', r'''
        yield {"type": "turn_end", "message": reply}
        if calls:
            yield from _turn(turn + 1, [], model, system, messages, tools, max_turns, record)
'''),)),
    Wrong(lab='7.1', name='a run handle with no close()',
          rule='run_agent returns a generator of events, which a consumer that walks away closes with run.close(), not an iterator of its own without close().',
          where='Build: announce, don\'t draw, item 1: "`run_agent` is a generator of events" (hunt round 6, 7.1-16)',
          names='close()',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r'''
class Run:
    """A handle on one run: iterate it for its events."""
    def __init__(self, events):
        self._events = events

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._events)


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    return Run(_events(model, system, messages, tools, prompt, max_turns=max_turns))


def _events(model, system, messages, tools, prompt, *, max_turns=None):
'''),
    Wrong(lab='7.1', name="a tool_error notice before a failed tool's result is recorded",
          rule='Nothing is yielded between a tool returning and its result being recorded, a tool that raised too: a notice of the error yielded first lets a consumer that stops there lose a result that happened.',
          where='Build: announce, don\'t draw, item 6: "Nothing is yielded between a tool returning and its result going onto the record" (hunt round 6, 7.1-17)',
          names='between a tool returning and its result being recorded',
          replace=r'''
            result = run_tool(tools, call)
            yield record(result)  # straight after the tool returned: nothing in between
''',
          by=r'''
            result = run_tool(tools, call)
            if result["is_error"]:  # the screen shows red before anything else
                yield {"type": "tool_error", "call": call, "error": result["content"]}
            yield record(result)
'''),
    Wrong(lab='7.1', name='a live exception in agent_end on a bad ending',
          rule='Events carry data that any program can read, never live Python objects, on every way out: a failed run\'s agent_end holds no exception.',
          where='rung: What an event may carry: "never live Python objects" (hunt round 6, 7.1-18)',
          names='never as a live Python object',
          replace=r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''',
          by=r'''
    end = {"type": "agent_end", "messages": added}
    if reply["stop_reason"] == "error":  # so a script can raise it
        end["error"] = RuntimeError(reply.get("error_message"))
    yield end
'''),
    Wrong(lab='7.1', name='the history copied at the call',
          rule='Until its first event is asked for, run_agent does nothing at all, so the first request holds the record as it is then, not a copy taken at the call.',
          where='Build: announce, don\'t draw, item 1: "Until its first event is asked for it does nothing at all" (hunt round 6, 7.1-19)',
          names='does nothing at all',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """The history it sends is taken now."""
    return _events(model, system, messages, list(messages), tools, prompt, max_turns=max_turns)


def _events(model, system, messages, history, tools, prompt, *, max_turns=None):
''',
          also=((r'''
        messages.append(message)
        added.append(message)
''', r'''
        messages.append(message)
        added.append(message)
        history.append(message)
'''), (r'''
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
''', r'''
            reply = model.complete(system, context_for_model(history), tool_specs(tools))
'''))),
    Wrong(lab='7.1', name="tool_execution_end's result read off the record",
          rule="tool_execution_end carries its own call's result, the one the run made, not the record's last message.",
          where='Build: announce, don\'t draw, item 6: "once its result is on the record" (hunt round 6, 7.1-20)',
          names='not whatever the record ends with',
          replace=r'''
            yield {"type": "tool_execution_end", "call": call, "result": result}
''',
          by=r'''
            yield {"type": "tool_execution_end", "call": call, "result": messages[-1]}
'''),
    Wrong(lab='7.1', name='one module-level turn count',
          rule="max_turns counts this run's own model calls: a count kept on the module, shared by every run, stops a run early when another ran meanwhile.",
          where='Build: announce, don\'t draw, item 3: "`max_turns`" (hunt round 6, 7.1-23)',
          names='not a count another run shares',
          replace=r'''
    turn, calls, pending = 0, [], [user_message(prompt)]
    while calls or pending:  # one lap is one turn
        turn += 1
''',
          by=r'''
    global _TURNS
    _TURNS, calls, pending = 0, [], [user_message(prompt)]
    while calls or pending:  # one lap is one turn
        _TURNS += 1
        turn = _TURNS
''',
          also=(('def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
                 '_TURNS = 0  # model calls made by the run\n\n\ndef run_agent(model, system, '
                 'messages, tools, prompt, *, max_turns=None):'),)),
    Wrong(lab='7.1', name='an empty reply recorded without its message_end',
          rule='Every message the run records is announced once, a reply with no words and no calls too.',
          where='Build: announce, don\'t draw, item 5: "Every message the run records is announced once" (hunt round 6, 7.1-24)',
          names='every message the run records is announced',
          replace=r'''
        yield record(reply)
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
''',
          by=r'''
        if reply["content"] or reply["stop_reason"] == "error":
            yield record(reply)
        else:
            messages.append(reply)  # nothing to draw: no empty bubble
            added.append(reply)
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
'''),
    Wrong(lab='7.1', name='one agent_start and one turn_start dict for every run',
          rule="Each event is a new dict, the consumer's to keep or change: a dict yielded again arrives carrying what a consumer wrote into it, and the event it kept changes with it.",
          where='Build: announce, don\'t draw, item 7: "Each event is a new dict" (hunt round 6, probe 7.1-12)',
          names='new dict',
          replace=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          by=r'''
AGENT_START, TURN_START = {"type": "agent_start"}, {"type": "turn_start"}  # made once


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          also=(('    yield {"type": "agent_start"}', '    yield AGENT_START'),
                ('        yield {"type": "turn_start"}', '        yield TURN_START'))),
    # Hunt round 11 (reader r52): designs 7.1-01 to 7.1-25 that passed lab 7.1's tests.
    Wrong(lab='7.1', name='a line on standard error when a tool fails',
          rule='run_agent prints nothing, on any way a run goes: a failed tool is an event like '
               'any other, and a line on standard error about it is one frontend\'s picture '
               'forced on every other.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 11, 7.1-01)',
          names='draws nothing',
          replace=r'''
            yield {"type": "tool_execution_end", "call": call, "result": result}
''',
          by=r'''
            if result["is_error"]:
                import sys
                print(f"tool {call['name']} failed", file=sys.stderr)
            yield {"type": "tool_execution_end", "call": call, "result": result}
'''),
    Wrong(lab='7.1', name="progress printed to the process's own standard output",
          rule='run_agent prints nothing, on standard output or standard error, whichever stream '
               'object it writes to: sys.__stdout__ is the same terminal another frontend draws on.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 11, 7.1-02)',
          names='draws nothing',
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
''',
          by=r'''
            yield {"type": "tool_execution_start", "call": call}
            import sys
            print(f"running {call['name']}...", file=sys.__stdout__)
            result = run_tool(tools, call)
'''),
    Wrong(lab='7.1', name='a logger of its own that does not propagate',
          rule='run_agent draws nothing, through the logging module either: a logger with a '
               'handler of its own on standard error, kept from the root logger, still draws one '
               'frontend\'s picture on every other.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 11, 7.1-03)',
          names='draws nothing',
          replace=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          by=r'''
import logging as _logging
import sys as _sys

_log = _logging.getLogger("harness.loop")
_log.propagate = False
_log.addHandler(_logging.StreamHandler(_sys.__stderr__))
_log.setLevel(_logging.INFO)


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          also=((r'''
        yield {"type": "turn_start"}
''', r'''
        _log.info("turn %d", turn)
        yield {"type": "turn_start"}
'''),)),
    Wrong(lab='7.1', name='a line on standard error when the record is not empty',
          rule='run_agent prints nothing, whatever the record holds when it starts: a run that '
               'carries on a conversation is drawn by its frontend, not by the loop.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 11, 7.1-13)',
          names='draws nothing',
          replace=r'''
    yield {"type": "agent_start"}
''',
          by=r'''
    if messages:
        import sys
        print(f"continuing a conversation of {len(messages)} messages", file=sys.stderr)
    yield {"type": "agent_start"}
'''),
    Wrong(lab='7.1', name='a line on standard error when the consumer closes the run',
          rule='run_agent prints nothing, on every way out, a consumer that walks away included: '
               'the consumer that closed the run draws the cancel, if anybody does.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 11, 7.1-24)',
          names='draws nothing',
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
''',
          by=r'''
            try:
                yield {"type": "tool_execution_start", "call": call}
            except GeneratorExit:
                import sys
                print("run cancelled", file=sys.stderr)
                raise
            result = run_tool(tools, call)
'''),
    Wrong(lab='7.1', name="a failed tool's result announced before it is recorded",
          rule='Mutate, then announce, for every message: a tool that raised gives an error '
               'result, a message like any other, appended to the record before its message_end '
               'and its tool_execution_end are yielded.',
          where='Build: announce, don\'t draw, item 5: "by the time the consumer sees that event, the message is already the last item of the caller\'s list" (hunt round 11, 7.1-04)',
          names='mutate, then announce',
          replace=r'''
            result = run_tool(tools, call)
            yield record(result)  # straight after the tool returned: nothing in between
''',
          by=r'''
            result = run_tool(tools, call)
            if result["is_error"]:  # the tempting order, only for failures
                yield {"type": "message_end", "message": result}
                yield {"type": "tool_execution_end", "call": call, "result": result}
                record(result)
                continue
            yield record(result)  # straight after the tool returned: nothing in between
'''),
    Wrong(lab='7.1', name='the max_turns stop announced before it is recorded',
          rule='Mutate, then announce, for every message the run records: the max_turns stop, '
               'which the run makes itself, is on the record before its message_end.',
          where='Build: announce, don\'t draw, item 5: "Every message the run records is announced once" (hunt round 11, 7.1-05)',
          names='mutate, then announce',
          replace='        yield record(reply)',
          by=r'''
        if max_turns is not None and turn > max_turns:
            yield {"type": "message_end", "message": reply}
            record(reply)
        else:
            yield record(reply)
'''),
    Wrong(lab='7.1', name='a failed reply announced before it is recorded',
          rule='Mutate, then announce, for every message the run records: a reply that came back '
               'failed is on the record before its message_end, like any other reply.',
          where='Build: announce, don\'t draw, item 5: "by the time the consumer sees that event, the message is already the last item of the caller\'s list" (hunt round 11, 7.1-06)',
          names='mutate, then announce',
          replace='        yield record(reply)',
          by=r'''
        if reply["stop_reason"] == "error":
            yield {"type": "message_end", "message": reply}
            record(reply)
        else:
            yield record(reply)
'''),
    Wrong(lab='7.1', name="the next turn's request made before its turn_start",
          rule='Each turn opens with turn_start, and its request is made only once the consumer '
               'asks past it: a consumer that walks away at turn_start has paid for no reply it '
               'was not shown.',
          where='Build: announce, don\'t draw, item 4: "Each turn opens with `turn_start`" (hunt round 11, 7.1-07)',
          names='a request is made only once its turn is asked for',
          replace=r'''
        turn += 1
        yield {"type": "turn_start"}
        for message in pending:  # a user message enters only here, at the top of a turn
            yield record(message)
        pending = []
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
''',
          by=r'''
        turn += 1
        if turn > 1:  # ask early, so the reply is ready when the turn opens
            if max_turns is not None and turn > max_turns:
                reply = error_message(f"Agent stopped after max_turns={max_turns}")
            else:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        yield {"type": "turn_start"}
        for message in pending:  # a user message enters only here, at the top of a turn
            yield record(message)
        pending = []
        if turn == 1:
            if max_turns is not None and turn > max_turns:  # before the call, never after
                reply = error_message(f"Agent stopped after max_turns={max_turns}")
            else:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
'''),
    Wrong(lab='7.1', name='the tools read at the call',
          rule='Until its first event is asked for, run_agent does nothing at all, not even read '
               'the tools: a tool list the caller has not finished at the call is no error until '
               'the run begins.',
          where='Build: announce, don\'t draw, item 1: "Until its first event is asked for it does nothing at all" (hunt round 11, 7.1-12)',
          names='does nothing at all',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """Fail fast on a malformed tool, then run."""
    tool_specs(tools)
    return _run_agent(model, system, messages, tools, prompt, max_turns=max_turns)


def _run_agent(model, system, messages, tools, prompt, *, max_turns=None):
'''),
    Wrong(lab='7.1', name='no turn_end for an empty reply',
          rule='Each turn opens with turn_start and closes with turn_end, the turn of a reply '
               'with no words and no calls too.',
          where='Build: announce, don\'t draw, item 4: "Each turn opens with `turn_start` and closes with `turn_end`" (hunt round 11, 7.1-17)',
          names='closes with turn_end',
          replace=r'''
        yield {"type": "turn_end", "message": reply}
''',
          by=r'''
        if reply["content"] or failed:
            yield {"type": "turn_end", "message": reply}
'''),
    Wrong(lab='7.1', name="agent_end carrying the failed reply it found on the record",
          rule='agent_end carries the messages this run added, and none from before it: a failed '
               'reply an earlier run left at the end of the record is not this run\'s.',
          where='Build: announce, don\'t draw, item 3: "the messages this run added to the record, in order, and none from before it" (hunt round 11, 7.1-19)',
          names='none from before it',
          replace=r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''',
          by=r'''
    carried = [m for m in messages[:len(messages) - len(added)][-1:]
               if m.get("stop_reason") == "error"]  # where the last run broke off
    yield {"type": "agent_end", "messages": carried + added}
'''),
    Wrong(lab='7.1', name="a progress event between a long output and its record",
          rule='Nothing is yielded between a tool returning and its result going onto the record, '
               'however long the result.',
          where='Build: announce, don\'t draw, item 6: "Nothing is yielded between a tool returning and its result going onto the record" (hunt round 11, 7.1-21)',
          names='nothing is yielded between a tool returning and its result being recorded',
          replace=r'''
            result = run_tool(tools, call)
            yield record(result)  # straight after the tool returned: nothing in between
''',
          by=r'''
            result = run_tool(tools, call)
            if len(result["content"]) > 2000:  # let a frontend show a big output arriving
                yield {"type": "tool_output", "call": call, "chars": len(result["content"])}
            yield record(result)
'''),
    Wrong(lab='7.1', name='one turn_start dict for every turn past the fifth',
          rule='Each event is a new dict, made when it is yielded and never yielded again, in a '
               'long run as in a short one.',
          where='Build: announce, don\'t draw, item 7: "Each event is a new dict, made when it is yielded and never yielded again" (hunt round 11, 7.1-23)',
          names='new dict',
          replace=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          by=r'''
LATE_TURN_START = {"type": "turn_start"}


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          also=(('        yield {"type": "turn_start"}',
                 '        yield LATE_TURN_START if turn > 5 else {"type": "turn_start"}'),)),
    # Hunt round 9 (reader r37): each a design that passed lab 7.2's tests before this round.
    Wrong(lab='7.2', name='JsonRenderer telling a failure by an error_message that is not null',
          rule='False when any message it saw announced had stop_reason "error": a reply labelled "error" with no error_message is a failure all the same.',
          where='Build: two frontends, item 1 (hunt round 9, 7.2-3)',
          names='no error_message at all',
          replace=r'''
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
''',
          by=r'''
        message = event["message"] if event["type"] == "message_end" else {}
        if message.get("error_message") is not None:  # a reason means it failed
'''),
    Wrong(lab='7.2', name='FinalTextRenderer failing an answer that carries a note in error_message',
          rule='The last assistant message announced decides by its stop_reason: an answer labelled "stop" is its words and True, whatever its error_message holds.',
          where='Build: two frontends, item 2 (hunt round 9, 7.2-4)',
          names='or a note',
          replace=r'''
        if reply["stop_reason"] == "error":
            print(f"Error: {reply.get('error_message')}")
''',
          by=r'''
        if reply.get("error_message") is not None:
            print(f"Error: {reply.get('error_message')}")
'''),
    Wrong(lab='7.2', name='JsonRenderer judging afresh at each agent_start',
          rule='False when any message it saw announced had stop_reason "error": a renderer handed two runs in a row, the first failing, saw a failed message, a new agent_start between them or not.',
          where='Build: two frontends, item 1 (hunt round 9, probe 7.2-P4)',
          names='a new agent_start came between them',
          replace='''        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None''',
          by=r'''
        if event["type"] == "agent_start":
            self.failed = False  # a new run: judge it afresh
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
'''),
    Wrong(lab='7.2', name="FinalTextRenderer keeping any message that is not the user's",
          rule='The last assistant message announced decides: a tool\'s result announced after it is not the answer.',
          where='Build: two frontends, item 2 (hunt round 9, 7.2-6)',
          names="a tool's result announced after it",
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] != "user":
            self.last = message
'''),
    Wrong(lab='7.2', name='FinalTextRenderer taking a reply from any event that carries one',
          rule='The last assistant message announced decides, and a message is announced by its message_end: a partial reply carried by another event (a later lesson\'s message_update) is not the answer.',
          where='Build: two frontends, item 2; lab 7.1, item 5 (hunt round 9, 7.2-27)',
          names='a message is announced by its message_end',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if isinstance(message, dict) and message.get("role") == "assistant":
            self.last = message  # turn_end carries the reply too
'''),
    Wrong(lab='7.2', name='the frontend deleting a null error_message',
          rule='Neither frontend touches the record: they know the run only from its events, an answer whose error_message is null included.',
          where='Build: two frontends, after item 2 (hunt round 9, 7.2-7)',
          names='as they were before',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            if "error_message" in message and message["error_message"] is None:
                del message["error_message"]  # a null field says nothing
            self.last = message
'''),
    Wrong(lab='7.2', name='one failure flag for every JsonRenderer, cleared by finish()',
          rule='Each new frontend is a fold of its own: two alive at once keep apart what each has seen, whichever finishes first.',
          where='Build: two frontends (hunt round 9, 7.2-8)',
          names='a fold of its own',
          replace=r'''
    def __init__(self):
        self.failed = False

    def render(self, event):
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
            self.failed = True

    def finish(self):
        return not self.failed
''',
          by=r'''
    failed = False  # one flag; finish() clears it for the next run

    def render(self, event):
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
            JsonRenderer.failed = True

    def finish(self):
        ended_well, JsonRenderer.failed = not JsonRenderer.failed, False
        return ended_well
'''),
    Wrong(lab='7.2', name='JsonRenderer leaving out an event that makes json.dumps raise ValueError',
          rule='Every event JsonRenderer is handed appears as a line equal to it; one that is not data makes json.dumps raise, whichever error, and the error goes on.',
          where='rung: What an event may carry; Build: two frontends, item 1 (hunt round 9, 7.2-9)',
          names='whichever error json.dumps raises',
          replace='        print(json.dumps(event), flush=True)',
          by=r'''
        try:
            line = json.dumps(event)
        except ValueError:  # a value JSON cannot hold: leave the event out
            return
        print(line, flush=True)
'''),
    Wrong(lab='7.2', name='JSON lines over 8000 characters replaced by a stub',
          rule='Every event JsonRenderer is handed appears as one line that parses as JSON equal to the event, however long.',
          where='Build: two frontends, item 1 (hunt round 9, 7.2-10)',
          names='however long',
          replace='        print(json.dumps(event), flush=True)',
          by=r'''
        line = json.dumps(event)
        if len(line) > 8000:  # keep the plug-in's lines small
            line = json.dumps({"type": event.get("type"), "cut": True})
        print(line, flush=True)
'''),
    Wrong(lab='7.2', name='the error line cut at 300 characters',
          rule='When the last assistant message failed, finish() prints "Error: " followed by its error_message, however long, nothing cut.',
          where='Build: two frontends, item 2 (hunt round 9, 7.2-11)',
          names='nothing cut',
          replace=r'''
            print(f"Error: {reply.get('error_message')}")
            return False
''',
          by=r'''
            reason = reply["error_message"]
            print(f"Error: {reason if len(reason) <= 300 else reason[:300] + '...'}")
            return False
'''),
    Wrong(lab='7.2', name='the error reason stripped',
          rule='When the last assistant message failed, finish() prints "Error: " followed by its error_message word for word, nothing stripped.',
          where='Build: two frontends, item 2 (hunt round 9, 7.2-12)',
          names='nothing stripped',
          replace=r'''
            print(f"Error: {reply.get('error_message')}")
            return False
''',
          by=r'''
            print(f"Error: {reply.get('error_message').strip()}")
            return False
'''),
    Wrong(lab='7.2', name='no second "Error: " before a reason that starts with Error',
          rule='When the last assistant message failed, finish() prints the line "Error: " followed by its error_message, even one that starts with a word "Error" of its own.',
          where='Build: two frontends, item 2 (hunt round 9, 7.2-29)',
          names='of its own',
          replace=r'''
            print(f"Error: {reply.get('error_message')}")
            return False
''',
          by=r'''
            reason = reply["error_message"]
            print(reason if reason.startswith("Error") else f"Error: {reason}")  # no "Error: Error"
            return False
'''),
    Wrong(lab='7.2', name="JsonRenderer's finish() telling standard error how the run went",
          rule="JsonRenderer's finish() prints nothing, on standard error no more than on standard output.",
          where='Build: two frontends, item 1 (hunt round 9, 7.2-14)',
          names='standard error',
          replace=r'''
    def finish(self):
        return not self.failed
''',
          by=r'''
    def finish(self):
        import sys
        print("run failed" if self.failed else "run ok", file=sys.stderr)
        return not self.failed
'''),
    Wrong(lab='7.2', name='FinalTextRenderer drawing progress on standard error',
          rule='FinalTextRenderer prints nothing until finish(), on standard error no more than on standard output.',
          where='Build: two frontends, item 2 (hunt round 9, 7.2-15)',
          names='standard error',
          replace=r'''
    def render(self, event):
        message = event.get("message")
''',
          by=r'''
    def render(self, event):
        import sys
        print(f"[{event['type']}]", file=sys.stderr)  # progress, beside the answer file
        message = event.get("message")
'''),
    Wrong(lab='7.2', name='the answer cut at 1000 characters',
          rule="The last assistant message's words are printed as text_of gives them, however long, nothing cut.",
          where='Build: two frontends, item 2 (hunt round 9, 7.2-22)',
          names='nothing cut',
          replace='        print(text_of(reply))',
          by=r'''
        text = text_of(reply)
        print(text if len(text) <= 1000 else text[:1000] + " [cut]")
'''),
    Wrong(lab='7.2', name='JsonRenderer dropping an event equal to the one before',
          rule='Every event JsonRenderer is handed appears as one line, each time it is handed one, an event equal to the one before it included.',
          where='Build: two frontends, item 1 (hunt round 9, 7.2-28)',
          names='equal to the one before',
          replace=r'''
    def __init__(self):
        self.failed = False

    def render(self, event):
        print(json.dumps(event), flush=True)
''',
          by=r'''
    def __init__(self):
        self.failed = False
        self.previous = None

    def render(self, event):
        if event != self.previous:  # a repeat tells the plug-in nothing new
            print(json.dumps(event), flush=True)
        self.previous = json.loads(json.dumps(event))
'''),
    Wrong(lab='7.2', name='JsonRenderer judging the events it kept at finish()',
          rule="JsonRenderer judges each message when its event is handed over: what a consumer writes into an event after render returned changes neither its line nor finish().",
          where='lab 7.2, Build section: "It judges each message when its event is handed over"',
          names='judges each message when its event is handed over',
          replace=r'''
    def __init__(self):
        self.failed = False

    def render(self, event):
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
            self.failed = True

    def finish(self):
        return not self.failed
''',
          by=r'''
    def __init__(self):
        self.seen = []  # every event, judged when the run is over

    def render(self, event):
        print(json.dumps(event), flush=True)
        self.seen.append(event)

    def finish(self):
        return not any(event["type"] == "message_end"
                       and event["message"].get("stop_reason") == "error" for event in self.seen)
'''),
    # Hunt round 10 (reader r45): designs 7.2-1 to 7.2-28 and probes P2, P6 that passed.
    Wrong(lab='7.2', name='JsonRenderer judging every event that carries a message',
          rule='JsonRenderer returns False when any message it saw announced had stop_reason "error"; a message is announced by its message_end, not by a turn_end or a message_update that carries one.',
          where='Build: two frontends, item 1 (hunt round 10, 7.2-1)',
          names='a message is announced by its message_end',
          replace=r'''
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
''',
          by=r'''
        message = event.get("message")
        ended = message.get("stop_reason") if isinstance(message, dict) else None
'''),
    Wrong(lab='7.2', name='JsonRenderer keeping the messages and judging them at finish()',
          rule="JsonRenderer judges each message when its event is handed over: what a consumer writes into an event after render returned, into the message it carried included, changes neither its line nor finish().",
          where='Build: two frontends, item 1 (hunt round 10, 7.2-2)',
          names='judges each message when its event is handed over',
          replace=r'''
    def __init__(self):
        self.failed = False

    def render(self, event):
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
            self.failed = True

    def finish(self):
        return not self.failed
''',
          by=r'''
    def __init__(self):
        self.messages = []  # the announced messages, judged when the run is over

    def render(self, event):
        print(json.dumps(event), flush=True)
        if event["type"] == "message_end":
            self.messages.append(event["message"])

    def finish(self):
        return not any(message.get("stop_reason") == "error" for message in self.messages)
'''),
    Wrong(lab='7.2', name="JsonRenderer's finish() printing a verdict line after a failed run",
          rule="JsonRenderer's finish() prints nothing and returns whether the run ended well, after a failed run too.",
          where='Build: two frontends, item 1 (hunt round 10, 7.2-3)',
          names='finish() prints nothing',
          replace=r'''
    def finish(self):
        return not self.failed
''',
          by=r'''
    def finish(self):
        if self.failed:  # one more line for the plug-in: the verdict
            print(json.dumps({"type": "verdict", "ok": False}), flush=True)
        return not self.failed
'''),
    Wrong(lab='7.2', name='JsonRenderer warning on standard error at a failed message',
          rule='JsonRenderer prints each event as its line and nothing else, on standard error no more than on standard output.',
          where='Build: two frontends, item 1 (hunt round 10, 7.2-4)',
          names='standard error',
          replace=r'''
        if ended == "error":
            self.failed = True
''',
          by=r'''
        if ended == "error":
            import sys
            print(f"warning: the run failed: {event['message'].get('error_message')}",
                  file=sys.stderr)
            self.failed = True
'''),
    Wrong(lab='7.2', name='FinalTextRenderer telling standard error of a failure at once',
          rule='FinalTextRenderer prints nothing until finish(), on standard error no more than on standard output.',
          where='Build: two frontends, item 2 (hunt round 10, 7.2-5)',
          names='standard error',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
            if message.get("stop_reason") == "error":
                import sys
                print(f"Error: {message.get('error_message')}", file=sys.stderr)
'''),
    Wrong(lab='7.2', name="FinalTextRenderer taking turn_end's message as announced",
          rule='The last assistant message announced decides, and a message is announced by its message_end: a turn_end carrying another reply changes nothing.',
          where='Build: two frontends, item 2 (hunt round 10, 7.2-6)',
          names='a message is announced by its message_end',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] in ("message_end", "turn_end") and message["role"] == "assistant":
            self.last = message
'''),
    Wrong(lab='7.2', name='FinalTextRenderer writing a reason into a failed reply that had none',
          rule='Neither frontend touches the record: a failed reply with error_message null is left as it came, whatever line finish() prints for it.',
          where='Build: two frontends, after item 2 (hunt round 10, 7.2-7)',
          names='neither touches the record',
          replace=r'''
            print(f"Error: {reply.get('error_message')}")
            return False
''',
          by=r'''
            if reply.get("error_message") is None:
                reply["error_message"] = "no reason given"  # fill in what the provider left out
            print(f"Error: {reply.get('error_message')}")
            return False
'''),
    Wrong(lab='7.2', name='FinalTextRenderer marking the newest reply until finish()',
          rule='Neither frontend touches the record, not even for a while: a mark put into a message during the run would be sent with the next request, though finish() takes it out.',
          where='Build: two frontends, after item 2 (hunt round 10, 7.2-8)',
          names='not even for a while',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            if self.last is not None:
                self.last.pop("_newest", None)
            self.last = message
            self.last["_newest"] = True  # taken out again at finish()
'''),
    Wrong(lab='7.2', name='JsonRenderer judging a message before its line is written',
          rule="JsonRenderer's verdict is the one its lines told: a failed reply's message_end whose line could not be written (json.dumps raised) told no failure.",
          where='Build: two frontends, item 1 (hunt round 10, 7.2-10)',
          names='the one its lines told',
          replace=r'''
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
            self.failed = True
''',
          by=r'''
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
            self.failed = True
        print(json.dumps(event), flush=True)
'''),
    Wrong(lab='7.2', name="FinalTextRenderer taking the last of agent_end's messages",
          rule="The last assistant message announced decides: agent_end's last message, whatever its role, is not announced by it.",
          where='Build: two frontends, item 2 (hunt round 10, 7.2-11)',
          names='a message is announced by its message_end',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
        elif event["type"] == "agent_end" and event["messages"]:
            self.last = event["messages"][-1]  # the run's final message
'''),
    Wrong(lab='7.2', name='JSON lines over 300,000 characters carrying cut text',
          rule='Every event JsonRenderer is handed appears as one line that parses as JSON equal to the event, however long.',
          where='Build: two frontends, item 1 (hunt round 10, 7.2-23)',
          names='however long',
          replace='        print(json.dumps(event), flush=True)',
          by=r'''
        line = json.dumps(event)
        if len(line) > 300_000 and isinstance(event.get("message"), dict):
            short = json.loads(line)  # a copy whose long text is cut for the plug-in
            for block in short["message"].get("content") or []:
                if isinstance(block, dict) and block.get("type") == "text":
                    block["text"] = block["text"][:1000]
            line = json.dumps(short)
        print(line, flush=True)
'''),
    Wrong(lab='7.2', name='the answer cut at 200,000 characters',
          rule="The last assistant message's words are printed as text_of gives them, however long, nothing cut.",
          where='Build: two frontends, item 2 (hunt round 10, 7.2-24)',
          names='nothing cut',
          replace='        print(text_of(reply))',
          by='        print(text_of(reply)[:200_000])'),
    Wrong(lab='7.2', name='the error reason cut at 10,000 characters',
          rule='When the last assistant message failed, finish() prints "Error: " followed by its error_message word for word, however long, nothing cut.',
          where='Build: two frontends, item 2 (hunt round 10, 7.2-25)',
          names='nothing cut',
          replace=r'''
            print(f"Error: {reply.get('error_message')}")
            return False
''',
          by=r'''
            print(f"Error: {reply.get('error_message')[:10_000]}")
            return False
'''),
    Wrong(lab='7.2', name='a failed reply with no reason counted as an answer',
          rule='A last reply labelled "error" makes finish() return False even when it came with no reason (error_message null): only what its line says is the student\'s to choose.',
          where='Build: two frontends, item 2 (hunt round 10, 7.2-26)',
          names='came with no error_message at all',
          replace=r'''
        if reply["stop_reason"] == "error":
''',
          by=r'''
        if reply["stop_reason"] == "error" and reply.get("error_message") is not None:
'''),
    Wrong(lab='7.2', name='JsonRenderer deaf after agent_end',
          rule='Every event JsonRenderer is handed appears at once as one line, an event after an agent_end (the next run of a session) too.',
          where='Build: two frontends, item 1 (hunt round 10, 7.2-27)',
          names='after an agent_end too',
          replace=r'''
    def render(self, event):
        print(json.dumps(event), flush=True)
''',
          by=r'''
    def render(self, event):
        if getattr(self, "over", False):
            return  # the run is over: nothing more to tell
        self.over = event["type"] == "agent_end"
        print(json.dumps(event), flush=True)
'''),
    Wrong(lab='7.2', name='FinalTextRenderer deaf after agent_end',
          rule='The last assistant message announced decides, a message announced after an agent_end (the next run handed to the same renderer) included.',
          where='Build: two frontends, item 2 (hunt round 10, 7.2-28)',
          names='whichever run announced it',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "agent_end":
            self.over = True  # the answer is settled
        if (not getattr(self, "over", False) and event["type"] == "message_end"
                and message["role"] == "assistant"):
            self.last = message
'''),
    Wrong(lab='7.2', name="JsonRenderer's finish() forgetting the failure it saw",
          rule='JsonRenderer.finish() returns False when any message it saw announced had stop_reason "error", each time it is asked.',
          where='Build: two frontends, item 1 (hunt round 10, probe 7.2-P2)',
          names='each time it is asked',
          replace=r'''
    def finish(self):
        return not self.failed
''',
          by=r'''
    def finish(self):
        verdict, self.failed = not self.failed, False  # ready for the next run
        return verdict
'''),
    Wrong(lab='7.2', name='FinalTextRenderer forgetting its reply at each agent_start',
          rule='The last assistant message announced decides, whichever run of the events handed to the renderer announced it: a new agent_start makes it forget nothing.',
          where='Build: two frontends, item 2 (hunt round 10, probe 7.2-P6)',
          names='whichever run announced it',
          replace=r'''
    def render(self, event):
        message = event.get("message")
''',
          by=r'''
    def render(self, event):
        if event["type"] == "agent_start":
            self.last = None  # a new run: nothing announced yet
        message = event.get("message")
'''),
    Wrong(lab='7.1', name='a timedelta in the turn_end of a turn over a second',
           rule='Each event is a dict of plain data, whatever the turn took: a '
                'datetime.timedelta in a slow turn\'s turn_end is a live Python object that '
                'json.dumps cannot write.',
           where='lab 7.1, Build item 1: "each a dict of plain data"; found by a release-only reader (round 11, 7.1-22)', names='plain data',
           replace=r'''
        turn += 1
        yield {"type": "turn_start"}
''',
           by=r'''
        turn += 1
        import time
        began = time.monotonic()
        yield {"type": "turn_start"}
''',
           also=((r'''
        yield {"type": "turn_end", "message": reply}
''', r'''
        ended = {"type": "turn_end", "message": reply}
        if time.monotonic() - began > 1:
            import datetime
            ended["took"] = datetime.timedelta(seconds=time.monotonic() - began)
        yield ended
'''),)),
    Wrong(lab='7.1', name='agent_start carrying the live record',
          rule='Each event is a dict of plain data with a "type" and the keys the items below name for its type, no others: `agent_start` and `turn_start` carry their type alone.',
          where='lab 7.1, Build item 1: "`agent_start` and `turn_start` carry their type alone"; found by a release-only reader (round 11, probe 7.1-52)',
          names='carry their type alone',
          replace=r'''
    yield {"type": "agent_start"}
''',
          by=r'''
    yield {"type": "agent_start", "history": messages}  # so a frontend can show what came before
'''),
    Wrong(lab='7.1', name='a turn number on turn_start and turn_end',
          rule='Each event is a dict of plain data with a "type" and the keys the items below name for its type, no others: `agent_start` and `turn_start` carry their type alone.',
          where='lab 7.1, Build item 1: "`agent_start` and `turn_start` carry their type alone"; found by a release-only reader (round 11, probe 7.1-53)',
          names='carry their type alone',
          replace=r'''
        yield {"type": "turn_start"}
''',
          by=r'''
        yield {"type": "turn_start", "turn": turn}
''',
          also=((r'''
        yield {"type": "turn_end", "message": reply}
''', r'''
        yield {"type": "turn_end", "message": reply, "turn": turn}
'''),)),
    # Hunt round 13 (reader r66): designs 7.2-05, 06, 09 (a probe), 10, 11, 28, 29, 30, 31, 32, 38.
    Wrong(lab='7.2', name='FinalTextRenderer filling in a missing error_message key',
          rule='Neither frontend touches the record: a failed reply that came with no error_message key at all is left as it came, whatever finish() does for it.',
          where='Build: two frontends, after item 2 (hunt round 13, 7.2-05)',
          names='neither touches the record',
          replace=r'''
            print(f"Error: {reply.get('error_message')}")
            return False
''',
          by=r'''
            reply.setdefault("error_message", "the provider gave no reason")
            print(f"Error: {reply.get('error_message')}")
            return False
'''),
    Wrong(lab='7.2', name='JsonRenderer leaving out keys json.dumps cannot write',
          rule='Every event JsonRenderer is handed appears as one line that parses as JSON equal to the event: one that json.dumps cannot write whole (a key that is not a string) makes render fail, not a line with that key left out.',
          where='Build: two frontends, item 1; What an event may carry (hunt round 13, 7.2-06)',
          names='skipkeys',
          replace='        print(json.dumps(event), flush=True)',
          by='        print(json.dumps(event, skipkeys=True), flush=True)'),
    Wrong(lab='7.2', name='JsonRenderer writing sets and bytes as lists and strings',
          rule='Every event JsonRenderer is handed appears as one line that parses as JSON equal to the event: an event holding a set is no data, json.dumps raises for it, and a line that writes the set as a list is not the event.',
          where='Build: two frontends, item 1; What an event may carry (hunt round 13, 7.2-30)',
          names='a set as a list',
          replace='        print(json.dumps(event), flush=True)',
          by=r'''
        def plain(value):  # what JSON almost has a word for; anything else still raises
            if isinstance(value, (set, frozenset)):
                return sorted(value)
            if isinstance(value, bytes):
                return value.decode("utf-8", "replace")
            raise TypeError(f"{type(value).__name__} is not JSON")
        print(json.dumps(event, default=plain), flush=True)
'''),
    Wrong(lab='7.2', name='JsonRenderer noting on standard error an event it cannot write',
          rule='JsonRenderer prints each event as a line and nothing else, on standard error no more than on standard output: an event json.dumps cannot write makes render raise, with no note of its own.',
          where='Build: two frontends, item 1 (hunt round 13, 7.2-38)',
          names='standard error',
          replace='        print(json.dumps(event), flush=True)',
          by=r'''
        try:
            line = json.dumps(event)
        except (TypeError, ValueError):
            import sys
            print(f"JsonRenderer: cannot write a {event.get('type')} event", file=sys.stderr)
            raise
        print(line, flush=True)
'''),
    Wrong(lab='7.2', name='JsonRenderer skipping a line it cannot write to a closed pipe',
          rule='Every event JsonRenderer is handed appears at once as one line, or render fails: a line standard output refuses (the program at the other end has gone) is not skipped quietly.',
          where='Build: two frontends, item 1 (hunt round 13, 7.2-10)',
          names='skip the line quietly',
          replace='        print(json.dumps(event), flush=True)',
          by=r'''
        try:
            print(json.dumps(event), flush=True)
        except OSError:
            pass  # the other end went away; keep going
'''),
    Wrong(lab='7.2', name='JsonRenderer judging a message before its line is printed',
          rule="JsonRenderer's verdict is the one its lines told: a failed reply's message_end whose line standard output refused (a closed pipe) told no failure, so the message is judged once its line is written.",
          where='Build: two frontends, item 1 (hunt round 13, 7.2-11)',
          names='judged with its line',
          replace=r'''
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
            self.failed = True
''',
          by=r'''
        line = json.dumps(event)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if ended == "error":
            self.failed = True
        print(line, flush=True)
'''),
    Wrong(lab='7.2', name="JsonRenderer's finish() keeping its first verdict",
          rule='JsonRenderer.finish() returns False when any message it saw announced had stop_reason "error": asked again after a failed run was handed to it, it says False, whatever it said before.',
          where='Build: two frontends, item 1 (hunt round 13, 7.2-28)',
          names='settles nothing for the next',
          replace=r'''
    def finish(self):
        return not self.failed
''',
          by=r'''
    def finish(self):
        if not hasattr(self, "verdict"):
            self.verdict = not self.failed  # judged once: the run is over
        return self.verdict
'''),
    Wrong(lab='7.2', name="FinalTextRenderer's finish() going back to the reply it judged first",
          rule='For FinalTextRenderer the last assistant message announced decides: asked again after more events, it judges the newest reply, not the one its first finish() judged.',
          where='Build: two frontends, item 2 (hunt round 13, 7.2-29)',
          names='settles nothing for the next',
          replace=r'''
    def finish(self):
        reply = self.last
''',
          by=r'''
    def finish(self):
        if getattr(self, "judged", None) is not None:
            self.last = self.judged  # the answer, once given, stands
        self.judged = reply = self.last
'''),
    Wrong(lab='7.2', name='JsonRenderer printing a greeting line when it is made',
          rule='Every event JsonRenderer is handed appears as one line, and no other line: making a JsonRenderer prints nothing.',
          where='Build: two frontends, item 1 (hunt round 13, 7.2-31)',
          names='Making a frontend prints nothing',
          replace=r'''
    def __init__(self):
        self.failed = False
''',
          by=r'''
    def __init__(self):
        self.failed = False
        print(json.dumps({"type": "hello", "version": 1}), flush=True)  # for the other end
'''),
    Wrong(lab='7.2', name='FinalTextRenderer printing a blank line when it is made',
          rule='FinalTextRenderer prints nothing until finish(), which prints once: making one prints nothing.',
          where='Build: two frontends, item 2 (hunt round 13, 7.2-32)',
          names='Making a frontend prints nothing',
          replace=r'''
    def __init__(self):
        self.last = None  # the newest assistant message so far
''',
          by=r'''
    def __init__(self):
        self.last = None  # the newest assistant message so far
        print()  # the answer starts on a line of its own
'''),
    Wrong(lab='7.2', name='FinalTextRenderer keeping the event, not its message',
          rule='For FinalTextRenderer the last assistant message announced decides: the message its message_end carried when render was handed it, not one a consumer put into that event afterwards.',
          where='Build: two frontends, item 2 (hunt round 13, probe 7.2-09)',
          names='never announced',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = event  # the event; its message is read at finish()
''',
          also=((r'''
    def finish(self):
        reply = self.last
''', r'''
    def finish(self):
        reply = self.last and self.last["message"]
'''),)),
    # Hunt round 13 (reader r66), design 7.2-27b: a 7.1 rule, in the 7.2 starter's given loop.
    Wrong(lab='7.1', name='max_turns checked at the call',
          rule='Until its first event is asked for, run_agent does nothing at all, checking its arguments included: a call returns a run whatever they hold.',
          where="Build: announce, don't draw, item 1 (hunt round 13, 7.2-27b)",
          names='does nothing at all',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    if max_turns is not None and not isinstance(max_turns, int):
        raise TypeError(f"max_turns must be an int, not {max_turns!r}")  # told at once
    return _run_agent(model, system, messages, tools, prompt, max_turns=max_turns)


def _run_agent(model, system, messages, tools, prompt, *, max_turns=None):
'''),
    # Hunt round 14 (reader r71): designs 7.1-02, 05, 11, 14, 15, 19, 20, 21, 25, 26, 30.
    Wrong(lab='7.1', name='a line written to descriptor 2 on the max_turns stop',
          rule='The loop prints nothing, by any way out of the process: a line written with os.write to descriptor 2 reaches the screen past sys.stderr all the same.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 14, 7.1-02)',
          names='prints nothing',
          replace=r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
""",
          by=r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
            import os
            os.write(2, f"[harness] stopped after max_turns={max_turns}\n".encode())
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
"""),
    Wrong(lab='7.1', name='a progress line written to /dev/stderr before each tool',
          rule='The loop prints nothing, whatever file it prints to: /dev/stderr opened as a file is the screen, past sys.stderr.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 14, 7.1-25)',
          names='prints nothing',
          replace=r"""
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
""",
          by=r"""
            yield {"type": "tool_execution_start", "call": call}
            with open("/dev/stderr", "w") as tty:
                print(f"running {call['name']}...", file=tty)
            result = run_tool(tools, call)
"""),
    Wrong(lab='7.1', name='the record noted in a module list at the call',
          rule='Until its first event is asked for, run_agent does nothing at all: noting the caller\'s record in a list of runs is work done at the call, and keeps a record alive that its run never touched.',
          where='Build: announce, don\'t draw, item 1: "Until its first event is asked for it does nothing at all" (hunt round 14, 7.1-26)',
          names='does nothing at all',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r"""
ACTIVE_RUNS = []


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    ACTIVE_RUNS.append(messages)  # which records are busy, for a later lesson
    return _run_agent(model, system, messages, tools, prompt, max_turns=max_turns)


def _run_agent(model, system, messages, tools, prompt, *, max_turns=None):
"""),
    Wrong(lab='7.1', name='a model without complete() refused at the call',
          rule='Until its first event is asked for, run_agent does nothing at all, looking at its model included: a call returns a run whatever the model is.',
          where='Build: announce, don\'t draw, item 1: "Until its first event is asked for it does nothing at all" (hunt round 14, 7.1-30)',
          names='does nothing at all',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r"""
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    if model is not None and not callable(getattr(model, "complete", None)):
        raise TypeError("run_agent needs a model with complete()")  # told at once
    return _run_agent(model, system, messages, tools, prompt, max_turns=max_turns)


def _run_agent(model, system, messages, tools, prompt, *, max_turns=None):
"""),
    Wrong(lab='7.1', name='an error key on the tool_execution_end of an error result',
          rule='Each event carries its type and the keys Build item 1 names for it, no others, whatever the run met: tool_execution_end carries "call" and "result", for an error result as for any.',
          where='Build: announce, don\'t draw, item 1: "each a dict of plain data with a `"type"` and the keys the items below name for its type, no others" (hunt round 14, 7.1-15)',
          names='no others',
          replace='            yield {"type": "tool_execution_end", "call": call, "result": result}',
          by=r"""
            end = {"type": "tool_execution_end", "call": call, "result": result}
            if result.get("is_error"):
                end["error"] = True  # so a frontend can paint it red
            yield end
"""),
    Wrong(lab='7.1', name='no turn_start or turn_end when no tools are given',
          rule='Each turn opens with turn_start and closes with turn_end, in a run given no tools as in any other.',
          where='Build: announce, don\'t draw, item 4: "Each turn opens with `turn_start` and closes with `turn_end`" (hunt round 14, 7.1-21)',
          names='Each turn opens with',
          replace='        yield {"type": "turn_start"}',
          by=r"""
        if tools:  # no tools, no turns to frame
            yield {"type": "turn_start"}
""",
          also=(('        yield {"type": "turn_end", "message": reply}',
                 '        if tools:\n'
                 '            yield {"type": "turn_end", "message": reply}'),)),
    Wrong(lab='7.1', name='a long message announced by a shortened copy',
          rule='Every message the run records is announced by a message_end that carries it, whole, however long.',
          where='Build: announce, don\'t draw, item 5: "Every message the run records is announced once, by a `message_end` that carries it as `"message"`" (hunt round 14, 7.1-14)',
          names='carries it as',
          replace='        return {"type": "message_end", "message": message}',
          by=r"""
        shown = message
        if len(json.dumps(message)) > 20_000:  # keep the plug-in's lines short
            shown = dict(message, content=str(message["content"])[:2000])
        return {"type": "message_end", "message": shown}
""",
          also=(('def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
                 'import json\n\n\n'
                 'def run_agent(model, system, messages, tools, prompt, *, max_turns=None):'),)),
    Wrong(lab='7.1', name='tool_execution_end before the record from the fourth call of a reply',
          rule='Nothing is yielded between a tool returning and its result going onto the record, for every call of a reply, the fourth as the first.',
          where='Build: announce, don\'t draw, item 6: "Nothing is yielded between a tool returning and its result going onto the record." (hunt round 14, 7.1-05)',
          names='Nothing is yielded between a tool returning',
          replace=r"""
            yield record(result)  # straight after the tool returned: nothing in between
            yield {"type": "tool_execution_end", "call": call, "result": result}
""",
          by=r"""
            if calls.index(call) >= 3:  # a long batch: stop the spinner first
                yield {"type": "tool_execution_end", "call": call, "result": result}
                yield record(result)
                continue
            yield record(result)  # straight after the tool returned: nothing in between
            yield {"type": "tool_execution_end", "call": call, "result": result}
"""),
    Wrong(lab='7.1', name='tool_execution_end carrying the first 50 lines of a long result',
          rule='tool_execution_end carries the call and its result as recorded, whole, however long.',
          where='Build: announce, don\'t draw, item 6: "followed by `tool_execution_end`, carrying `"call"` and `"result"`, once its result is on the record" (hunt round 14, 7.1-19)',
          names='the result recorded, whole',
          replace='            yield {"type": "tool_execution_end", "call": call, "result": result}',
          by=r"""
            shown = result
            if str(result.get("content")).count("\n") > 50:
                shown = dict(result, content="".join(str(result["content"]).splitlines(True)[:50]))
            yield {"type": "tool_execution_end", "call": call, "result": shown}
"""),
    Wrong(lab='7.1', name='one turn_start dict for the turn that max_turns ends',
          rule='Each event is a new dict, made when it is yielded and never yielded again, on the bad endings as on an answer.',
          where='Build: announce, don\'t draw, item 7: "Each event is a new dict, made when it is yielded and never yielded again" (hunt round 14, 7.1-11)',
          names='new dict',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r"""
STOP_TURN_START = {"type": "turn_start"}


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
""",
          also=(('        yield {"type": "turn_start"}',
                 '        stopping = max_turns is not None and turn > max_turns\n'
                 '        yield STOP_TURN_START if stopping else {"type": "turn_start"}'),)),
    Wrong(lab='7.1', name='turn_start dicts kept per turn past the 250th',
          rule='Each event is a new dict, made when it is yielded and never yielded again, of this run or a later one, however long the runs.',
          where='Build: announce, don\'t draw, item 7: "no other event, of this run or a later one, changes with it" (hunt round 14, 7.1-20)',
          names='new dict',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r"""
TURN_STARTS = {}


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
""",
          also=(('        yield {"type": "turn_start"}',
                 '        if turn > 250:  # a memo of events for very long runs\n'
                 '            yield TURN_STARTS.setdefault(turn, {"type": "turn_start"})\n'
                 '        else:\n'
                 '            yield {"type": "turn_start"}'),)),
    # Hunt round 16 (reader r85): designs 7.2-30, 31, 33, 35 and 44.
    Wrong(lab='7.2', name='the answer cut at a million characters',
          rule="The last assistant message's words are printed as text_of gives them, however long, nothing cut.",
          where='Build: two frontends, item 2 (hunt round 16, 7.2-30)',
          names='nothing cut',
          replace='        print(text_of(reply))',
          by='        print(text_of(reply)[:1_000_000])'),
    # Hunt round 19 (reader r103): design 7.2-31, a cut past the longest answer the tests tried;
    # a longer answer costs a millisecond or two handed straight to the renderer.
    Wrong(lab='7.2', name='the answer cut at 5,000,000 characters',
          rule="The last assistant message's words are printed as text_of gives them, however long, nothing cut.",
          where='Build: two frontends, item 2 (hunt round 19, 7.2-31)',
          names='nothing cut',
          replace='        print(text_of(reply))',
          by='        print(text_of(reply)[:5_000_000])'),
    Wrong(lab='7.2', name='the error reason cut at 5,000 lines',
          rule='When the last assistant message failed, finish() prints "Error: " followed by its error_message word for word, every line of it however long, nothing cut.',
          where='Build: two frontends, item 2 (hunt round 16, 7.2-31)',
          names='nothing cut',
          replace=r'''
            print(f"Error: {reply.get('error_message')}")
''',
          by=r'''
            lines = str(reply.get("error_message")).splitlines(keepends=True)
            print("Error: " + "".join(lines[:5000]))
'''),
    Wrong(lab='7.2', name='FinalTextRenderer marking a reply while render runs',
          rule='Neither frontend touches the record, not even for a while: a mark written into a message while render runs, and taken out before it returns, is a write into the record all the same.',
          where='Build: two frontends, after item 2 (hunt round 16, 7.2-33)',
          names='not even for a while',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            message["seen_by"] = "FinalTextRenderer"  # a mark on the record, taken off below
            self.last = message
            del message["seen_by"]
'''),
    Wrong(lab='7.2', name='FinalTextRenderer deaf after a thousand events',
          rule='The last assistant message announced decides, however many events came before it: one renderer is one fold over every event it is handed, and it never stops listening.',
          where='Build: two frontends, item 2 (hunt round 16, 7.2-35)',
          names='never stops listening',
          replace=r'''
        message = event.get("message")
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        message = event.get("message")
        self.count = getattr(self, "count", 0) + 1
        if self.count > 1000:  # no real run is this long
            return
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
'''),
    Wrong(lab='7.2', name='FinalTextRenderer state kept on the class under id(self)',
          rule='Each new frontend is a fold of its own, starting from nothing: state kept on the class under id(self) outlives its renderer, and a new renderer Python gives the same id inherits it.',
          where='Build: two frontends (hunt round 16, 7.2-44)',
          names='a fold of its own',
          replace=r'''
    def __init__(self):
        self.last = None  # the newest assistant message so far

    def render(self, event):
        message = event.get("message")
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message

    def finish(self):
        reply = self.last
''',
          by=r'''
    _last = {}  # id(renderer) -> its newest assistant message, kept by the class

    def __init__(self):
        pass

    def render(self, event):
        message = event.get("message")
        if event["type"] == "message_end" and message["role"] == "assistant":
            FinalTextRenderer._last[id(self)] = message

    def finish(self):
        reply = FinalTextRenderer._last.get(id(self))
'''),
    # Hunt round 17 (reader r90): designs 7.1-22, 23, 25, 26, 27, 28 and 34, each a design
    # that passed lab 7.1's tests before this round.
    Wrong(lab='7.1', name='a progress line printed for replies of more than three calls',
          rule='run_agent prints nothing, however many calls a reply holds.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 17, 7.1-22)',
          names='one reply of',
          replace=r'''
        calls = [] if failed else tool_calls(reply)
''',
          by=r'''
        calls = [] if failed else tool_calls(reply)
        if len(calls) > 3:  # a long batch: tell the user it may take a while
            print(f"running {len(calls)} tools...")
'''),
    Wrong(lab='7.1', name='a warning given on a failed reply',
          rule='run_agent prints nothing: a warning is printed on standard error, and Python\'s '
               'filter that gives it once per place only hides it after the first time.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 17, 7.1-26)',
          names='heard each time it is given',
          replace=r'''
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
''',
          by=r'''
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        if failed:
            import warnings
            warnings.warn("the run ended in a failed reply")
'''),
    Wrong(lab='7.1', name='progress printed to a stream kept at import',
          rule='run_agent prints nothing, on any stream: one kept at import prints all the same.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 17, 7.1-27)',
          names='a stream kept from import',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r'''
import sys

_SCREEN = sys.stdout  # the screen, kept at import


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    for event in _run_agent(model, system, messages, tools, prompt, max_turns=max_turns):
        if event["type"] == "tool_execution_start":
            print(f"running {event['call']['name']}...", file=_SCREEN)
        yield event


def _run_agent(model, system, messages, tools, prompt, *, max_turns=None):'''),
    Wrong(lab='7.1', name='results of write and bash announced before they are recorded',
          rule='Every message the run records is announced once, after it is on the record, '
               'whatever tool made it.',
          where='Build: announce, don\'t draw, item 5: "by the time the consumer sees that '
                'event, the message is already the last item of the caller\'s list" (hunt '
                'round 17, 7.1-23)',
          names='calls write and bash',
          replace=r'''
            yield record(result)  # straight after the tool returned: nothing in between
''',
          by=r'''
            if call["name"] in ("look", "grep", "read"):
                yield record(result)
            else:  # bash, write: the spinner first, the record after
                yield {"type": "message_end", "message": result}
                messages.append(result)
                added.append(result)
'''),
    Wrong(lab='7.1', name='an empty result announced before it is recorded',
          rule='Every message the run records is announced once, after it is on the record, '
               'an empty result too.',
          where='Build: announce, don\'t draw, item 5: "by the time the consumer sees that '
                'event, the message is already the last item of the caller\'s list" (hunt '
                'round 17, 7.1-28)',
          names='an empty result too',
          replace=r'''
            yield record(result)  # straight after the tool returned: nothing in between
''',
          by=r'''
            if result["content"]:
                yield record(result)
            else:  # nothing to show: announce it, then record it
                yield {"type": "message_end", "message": result}
                messages.append(result)
                added.append(result)
'''),
    Wrong(lab='7.1', name='an unannounced result recorded when a long batch is closed',
          rule='Every message the run records is announced once: a run closed at a '
               'tool_execution_start writes nothing more on the record on its way out, however '
               'many calls the reply holds.',
          where='Build: announce, don\'t draw, item 5: "Every message the run records is '
                'announced once" (hunt round 17, 7.1-34)',
          names='nothing the run wrote on its way out',
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
''',
          by=r'''
            try:
                yield {"type": "tool_execution_start", "call": call}
            except GeneratorExit:
                if len(calls) > 3:  # a big batch: say on the record that it was cut short
                    messages.append(run_tool([], call))
                raise
            result = run_tool(tools, call)
'''),
    Wrong(lab='7.1', name="this run's messages kept in a table keyed by the record",
          rule='agent_end carries the messages this run added, kept by the run itself: two runs '
               'on one record at once each carry their own.',
          where='Build: announce, don\'t draw, item 3: "the messages this run added to the '
                'record, in order, and none from before it" (hunt round 17, 7.1-25)',
          names='not in a place keyed by the record',
          replace=r'''
        added.append(message)
''',
          by=r'''
        by_record = run_agent.__dict__.setdefault("by_record", {})  # id(record) -> messages
        if not added:  # this run's first message: its list goes in under its record
            by_record[id(messages)] = added
        by_record[id(messages)].append(message)
'''),
    Wrong(lab='7.1', name='the last record kept on run_agent',
          rule="Once agent_end is yielded the run keeps nothing of the caller's: no name outside "
               'the run still holds the record.',
          where='Build: announce, don\'t draw, item 3: "Once `agent_end` is yielded the run keeps '
                'nothing of the caller\'s" (hunt round 17, 7.1-p05)',
          names="keeps nothing of the caller's",
          replace=r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''',
          by=r'''
    run_agent.last_record = messages  # for a debugger to look at the last run
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
'''),
    Wrong(lab='7.1', name='a log file written by the loop',
          rule='The loop prints nothing and writes no file: a log is a frontend\'s choice, made '
               'from the events.',
          where='Build: announce, don\'t draw, item 1: "writes no file (a log is a frontend\'s '
                'choice, made from the events)" (hunt round 17, 7.1-31)',
          names='a file opened for writing',
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
''',
          by=r'''
            import tempfile
            with open(f"{tempfile.gettempdir()}/run_agent.log", "w") as log:
                log.write(f"running {call['name']}\n")
            yield {"type": "tool_execution_start", "call": call}
'''),
    # Hunt round 29 (reader r160, design 46): the log written only when a variable names a
    # file; the test runs one run where every environment variable is set (lab.kit's
    # every_name_set), so whatever name the loop looks for is there.
    Wrong(lab='7.1', name='a log file written when an environment variable names one',
          rule='The loop prints nothing and writes no file, whatever the environment holds: a '
               'log is a frontend\'s choice, made from the events.',
          where='Build: announce, don\'t draw, item 1: "writes no file (a log is a frontend\'s '
                'choice, made from the events)" (hunt round 29, r160-46)',
          names='every environment variable set',
          replace=r'''
    yield {"type": "agent_start"}
''',
          by=r'''
    import os
    if os.environ.get("HARNESS_LOG"):
        with open(os.environ["HARNESS_LOG"], "a") as log:
            log.write("run started\n")
    yield {"type": "agent_start"}
'''),
    # Hunt round 30 (reader r165): designs 7.1-13, 17, 07, 39, 41 and 43, each a rule kept only
    # where the tests looked: a prompt with words, an answer without spaces around its words,
    # arguments under 10,000 characters, a model that never raises, a small max_turns, and a
    # consumer that asks past agent_end.
    Wrong(lab='7.1', name='an empty prompt recorded without its message_end',
          rule='Every message the run records is announced once, by a message_end: an empty '
               'prompt too.',
          where='Build: announce, don\'t draw, item 5: "Every message the run records is '
                'announced once" (hunt round 30, r165-13)',
          names='given an empty prompt',
          replace=r'''
        for message in pending:  # a user message enters only here, at the top of a turn
            yield record(message)
''',
          by=r'''
        for message in pending:  # a user message enters only here, at the top of a turn
            if prompt:
                yield record(message)
            else:  # nothing to show for an empty prompt
                messages.append(message)
                added.append(message)
'''),
    Wrong(lab='7.1', name="turn_end carrying the reply with its words' spaces stripped",
          rule="turn_end carries the turn's reply, as the model gave it and the run recorded "
               'and announced it.',
          where='Build: announce, don\'t draw, item 4: "`turn_end`, which carries `"message"`, '
                'the turn\'s reply" (hunt round 30, r165-17)',
          names='every key and every character of it',
          replace=r'''
        yield {"type": "turn_end", "message": reply}
''',
          by=r'''
        tidied = dict(reply, content=[dict(block, text=block["text"].strip())
                                      if block["type"] == "text" else block
                                      for block in reply["content"]])
        yield {"type": "turn_end", "message": tidied}
'''),
    Wrong(lab='7.1', name='tool_execution_start carrying a stub for arguments over 10,000 characters',
          rule='tool_execution_start carries the call about to run, whole, however long its '
               'arguments.',
          where='Build: announce, don\'t draw, item 6: "`tool_execution_start`, carrying '
                '`"call"`" (hunt round 30, r165-07)',
          names='however long its arguments',
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
''',
          by=r'''
            shown = call if len(str(call["arguments"])) <= 10_000 \
                else dict(call, arguments={"...": "cut"})
            yield {"type": "tool_execution_start", "call": shown}
'''),
    Wrong(lab='7.1', name='a line on standard error when the model raises',
          rule='The loop prints nothing, on every way out: a model that raises too.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing and writes no file" '
                '(hunt round 30, r165-39)',
          names='whose model raised at its second request',
          replace=r'''
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
''',
          by=r'''
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except Exception as problem:
                import sys
                print(f"run_agent: the model raised {problem!r}", file=sys.stderr)
                raise
'''),
    Wrong(lab='7.1', name='a warning given for a max_turns over 10,000',
          rule='The loop prints nothing, whatever its max_turns: a warning is printing too.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing and writes no file" '
                '(hunt round 30, r165-41)',
          names='a max_turns of a drawn power of ten',
          replace=r'''
    yield {"type": "agent_start"}
''',
          by=r'''
    if max_turns is not None and max_turns > 10_000:
        import warnings
        warnings.warn(f"max_turns={max_turns} is hardly a cap")
    yield {"type": "agent_start"}
'''),
    Wrong(lab='7.1', name='the record noted in a module table until the run is asked past agent_end',
          rule="Once agent_end is yielded the run keeps nothing of the caller's, whether or not "
               'the consumer asks past it.',
          where='Build: announce, don\'t draw, item 3: "Once `agent_end` is yielded the run keeps '
                'nothing of the caller\'s: no name outside the run still holds the record" (hunt '
                'round 30, r165-43)',
          names='closes the run as soon as it has agent_end',
          replace=r'''
    yield {"type": "agent_start"}
''',
          by=r'''
    current = run_agent.__dict__.setdefault("current", {})  # for a debugger to peek at
    current["record"] = messages
    yield {"type": "agent_start"}
''',
          also=((r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''', r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
    current.pop("record", None)
'''),)),
    Wrong(lab='7.1', name='a line on standard error when an environment switch is "1"',
          rule='The loop prints nothing, whatever the environment holds: a debug switch is a '
               'frontend\'s choice too.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing and writes no file" '
                '(hunt round 30, r165-08)',
          names='every variable was set to, word for word',
          replace=r'''
    yield {"type": "agent_start"}
''',
          by=r'''
    import os
    if os.environ.get("HARNESS_DEBUG") == "1":
        import sys
        print("run_agent: starting", file=sys.stderr)
    yield {"type": "agent_start"}
'''),
    Wrong(lab='7.1', name='a warning printed for a result over 5,000,000 characters',
          rule='The loop prints nothing, however long a result.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing and writes no file" '
                '(hunt round 30, r165-11)',
          names='one call whose result is',
          replace=r'''
            yield record(result)  # straight after the tool returned: nothing in between
''',
          by=r'''
            if len(result["content"]) > 5_000_000:
                import sys
                print("warning: a huge result", file=sys.stderr)
            yield record(result)  # straight after the tool returned: nothing in between
'''),
    Wrong(lab='7.1', name='a module list of every run\'s message types and roles',
          rule='The loop keeps no log in memory: nothing a run saw stays in the module for the '
               'next run, not even the types and roles of what it recorded.',
          where='Build: announce, don\'t draw, item 1: "nor does it keep a log in memory: '
                'nothing a run saw stays in your module for the next run" (hunt round 30, '
                'r165-30)',
          names='nothing a run saw stays in your module',
          replace=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          by=r'''
EVENT_LOG = []  # what every run said, for debugging


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
''',
          also=((r'''
        added.append(message)
''', r'''
        added.append(message)
        EVENT_LOG.append(("message_end", message["role"]))
'''),)),
    # Hunt round 20 (reader r108): designs 7.1-16 and 7.1-33, a rule kept only where the tests
    # looked: the answered exit, and a record of at most six earlier messages.
    Wrong(lab='7.1', name='the record kept on run_agent after a failed reply',
          rule="Once agent_end is yielded the run keeps nothing of the caller's, on every way "
               'out: an answer, a failed reply, the max_turns stop.',
          where='Build: announce, don\'t draw, item 3: "Once `agent_end` is yielded the run keeps '
                'nothing of the caller\'s" (hunt round 20, 7.1-16)',
          names="keeps nothing of the caller's, on every way out",
          replace=r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''',
          by=r'''
    if reply["stop_reason"] == "error":  # kept, for a retry to look at
        run_agent.__dict__.setdefault("failed_records", []).append(messages)
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
'''),
    Wrong(lab='7.1', name='the prompt unannounced on a record of over six messages',
          rule='Every message the run records is announced once, by a message_end, however long '
               'the record it joins: the prompt of a conversation under way too.',
          where='Build: announce, don\'t draw, item 5: "Every message the run records is '
                'announced once" (hunt round 20, 7.1-33)',
          names='announced once, by a message_end, however long the record',
          replace=r'''
        for message in pending:  # a user message enters only here, at the top of a turn
            yield record(message)
''',
          by=r'''
        for message in pending:  # a user message enters only here, at the top of a turn
            if len(messages) > 6:  # a conversation under way: its screen shows the prompt
                messages.append(message)
                added.append(message)
            else:
                yield record(message)
'''),
    # Hunt round 22 (reader r122): designs 7.2-35, 38, 40 and 41.
    Wrong(lab='7.2', name='JsonRenderer failing a run at an event of type error',
          rule='A failure is told by its label, stop_reason "error", and by nothing else: an event that announces no message, of type "error" too, fails no run.',
          where='Build: two frontends, item 1 (hunt round 22, 7.2-40)',
          names='by nothing else',
          replace=r"""
        if ended == "error":
""",
          by=r"""
        if ended == "error" or event["type"] == "error":
"""),
    Wrong(lab='7.2', name='JsonRenderer judging no message past the 200th event',
          rule="JsonRenderer's finish() returns False when any message it saw announced had stop_reason \"error\", however many events came before it.",
          where='Build: two frontends, item 1 (hunt round 22, 7.2-38)',
          names='however many events came before it',
          replace=r"""
    def __init__(self):
        self.failed = False

    def render(self, event):
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
""",
          by=r"""
    def __init__(self):
        self.failed = False
        self.count = 0

    def render(self, event):
        print(json.dumps(event), flush=True)
        self.count += 1
        judged = event["type"] == "message_end" and self.count <= 200  # enough for any run
        ended = event["message"].get("stop_reason") if judged else None
"""),
    Wrong(lab='7.2', name='FinalTextRenderer failing a reply with no content',
          rule='A failure is told by its label, stop_reason "error", and by nothing else: an answer labelled "stop" with no content at all ended well.',
          where='Build: two frontends, item 2 (hunt round 22, 7.2-35)',
          names='by nothing else',
          replace=r"""
        if reply["stop_reason"] == "error":
""",
          by=r"""
        if reply["stop_reason"] == "error" or not reply["content"]:
"""),
    Wrong(lab='7.2', name="FinalTextRenderer taking the last reply among agent_end's messages",
          rule="For FinalTextRenderer the last assistant message announced decides, and a message is announced by its message_end: an agent_end's messages announce none.",
          where='Build: two frontends, item 2 (hunt round 22, 7.2-41)',
          names='announced by its message_end',
          replace=r"""
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
""",
          by=r"""
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
        if event["type"] == "agent_end":  # the run's own list has the final say
            replies = [each for each in event["messages"] if each["role"] == "assistant"]
            if replies:
                self.last = replies[-1]
"""),
    Wrong(lab='7.2', name='FinalTextRenderer deaf after 5,000 events',
          rule='For FinalTextRenderer the last assistant message announced decides, however many events came before it.',
          where='Build: two frontends, item 2: "The last assistant message announced decides" (hunt round 22, 7.2-39)',
          names='it never stops listening',
          replace=r"""
    def __init__(self):
        self.last = None  # the newest assistant message so far

    def render(self, event):
        message = event.get("message")
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
""",
          by=r"""
    def __init__(self):
        self.last = None  # the newest assistant message so far
        self.count = 0

    def render(self, event):
        message = event.get("message")
        self.count += 1
        if self.count > 5000:  # enough for any run
            return
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
"""),
    # Hunt round 23 (reader r127): passing designs 7.1-07, 28, 31, 27, 09, 10, 29, 17, 16, 18,
    # 12, 14, 15, 20, 21 and 30, each a rule kept only as far as the tests looked.
    Wrong(lab='7.1', name='a progress line printed for replies of over 100 calls',
          rule='run_agent prints nothing, however many calls a reply holds.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 23, 7.1-07)',
          names='one reply of',
          replace=r'''
        calls = [] if failed else tool_calls(reply)
''',
          by=r'''
        calls = [] if failed else tool_calls(reply)
        if len(calls) > 100:  # a wide reply: tell the user it may take a while
            print(f"running {len(calls)} tools...")
'''),
    Wrong(lab='7.1', name='a progress line printed for replies of over 30 calls',
          rule='run_agent prints nothing, however many calls a reply holds.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 23, 7.1-28)',
          names='one reply of',
          replace=r'''
        calls = [] if failed else tool_calls(reply)
''',
          by=r'''
        calls = [] if failed else tool_calls(reply)
        if len(calls) > 30:  # a wide reply: tell the user it may take a while
            print(f"running {len(calls)} tools...")
'''),
    Wrong(lab='7.1', name='a line on standard error for a call to a tool not given',
          rule='run_agent prints nothing, on standard error either, whatever a call names.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 23, 7.1-31)',
          names='a tool named grep that the run was not given',
          replace=r'''
            result = run_tool(tools, call)
''',
          by=r'''
            result = run_tool(tools, call)
            if result["content"] == f"Tool {call['name']} not found":
                import sys
                print(result["content"], file=sys.stderr)
'''),
    Wrong(lab='7.1', name='a log file appended to at the 251st turn',
          rule='The loop prints nothing and writes no file, however long the run.',
          where='Build: announce, don\'t draw, item 1: "writes no file (a log is a frontend\'s '
                'choice, made from the events)" (hunt round 23, 7.1-27)',
          names='draws nothing in a long run',
          replace=r'''
        turn += 1
''',
          by=r'''
        turn += 1
        if turn == 251:  # a long run: note it for whoever looks later
            import tempfile
            with open(f"{tempfile.gettempdir()}/run_agent.log", "a") as log:
                log.write("long run\n")
'''),
    Wrong(lab='7.1', name='tool_execution_end before the record for an empty result',
          rule='Nothing is yielded between a tool returning and its result going onto the '
               'record, whatever the tool returned, "" too.',
          where='Build: announce, don\'t draw, item 6: "Nothing is yielded between a tool '
                'returning and its result going onto the record" (hunt round 23, 7.1-09)',
          names='whatever the tool and whatever it returned',
          replace=r'''
            yield record(result)  # straight after the tool returned: nothing in between
''',
          by=r'''
            if not result["content"]:  # nothing to wait for: the spinner stops at once
                yield {"type": "tool_execution_end", "call": call, "result": result}
                yield record(result)
                continue
            yield record(result)  # straight after the tool returned: nothing in between
'''),
    Wrong(lab='7.1', name='tool_execution_end before the record for a result over a million characters',
          rule='Nothing is yielded between a tool returning and its result going onto the '
               'record, however long the result.',
          where='Build: announce, don\'t draw, item 6: "Nothing is yielded between a tool '
                'returning and its result going onto the record" (hunt round 23, 7.1-10)',
          names='whatever the tool and whatever it returned',
          replace=r'''
            yield record(result)  # straight after the tool returned: nothing in between
''',
          by=r'''
            if len(result["content"]) > 1_000_000:  # a huge result: stop the spinner first
                yield {"type": "tool_execution_end", "call": call, "result": result}
                yield record(result)
                continue
            yield record(result)  # straight after the tool returned: nothing in between
'''),
    Wrong(lab='7.1', name='tool_execution_end before the record for the edit tool',
          rule='Nothing is yielded between a tool returning and its result going onto the '
               'record, whichever tool ran.',
          where='Build: announce, don\'t draw, item 6: "Nothing is yielded between a tool '
                'returning and its result going onto the record" (hunt round 23, 7.1-29)',
          names='whatever the tool and whatever it returned',
          replace=r'''
            yield record(result)  # straight after the tool returned: nothing in between
''',
          by=r'''
            if call["name"] == "edit":  # the spinner stops at once for edits
                yield {"type": "tool_execution_end", "call": call, "result": result}
                yield record(result)
                continue
            yield record(result)  # straight after the tool returned: nothing in between
'''),
    Wrong(lab='7.1', name='a tool run before its tool_execution_start past the fifth turn',
          rule="Each call's tool is announced by tool_execution_start before it runs, in any "
               'turn, however late.',
          where='Build: announce, don\'t draw, item 6: "Each call\'s tool is announced by '
                '`tool_execution_start`, carrying `"call"`, before it runs" (hunt round 23, '
                '7.1-17)',
          names='before it runs',
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
''',
          by=r'''
            if turn > 5:  # a long run: run first, announce after
                result = run_tool(tools, call)
                yield {"type": "tool_execution_start", "call": call}
            else:
                yield {"type": "tool_execution_start", "call": call}
                result = run_tool(tools, call)
'''),
    Wrong(lab='7.1', name='the next request made ahead from the fifth turn',
          rule='A request is made only once its turn is asked for, after that turn\'s '
               'turn_start: a generator does nothing until it is asked, in any turn.',
          where='Build: announce, don\'t draw, item 1: "Until its first event is asked for it '
                'does nothing at all" (hunt round 23, 7.1-16)',
          names='a request is made only once its turn',
          replace=r'''
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        yield record(reply)
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        calls = [] if failed else tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)  # straight after the tool returned: nothing in between
            yield {"type": "tool_execution_end", "call": call, "result": result}
''',
          by=r'''
        elif turn > 1 and ahead is not None:
            reply = ahead
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        yield record(reply)
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        calls = [] if failed else tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)  # straight after the tool returned: nothing in between
            yield {"type": "tool_execution_end", "call": call, "result": result}
        ahead = None  # from the fifth turn, the next reply is asked for before turn_end
        if calls and turn >= 5 and (max_turns is None or turn + 1 <= max_turns):
            ahead = model.complete(system, context_for_model(messages), tool_specs(tools))
'''),
    Wrong(lab='7.1', name='a turn number on turn_end past the fifth turn',
          rule='Each event carries its type and the keys Build item 1 names for it, no others, '
               'in any turn.',
          where='Build: announce, don\'t draw, item 1: "the keys the items below name for its '
                'type, no others" (hunt round 23, 7.1-18)',
          names='late turns as early ones',
          replace=r'''
        yield {"type": "turn_end", "message": reply}
''',
          by=r'''
        yield {"type": "turn_end", "message": reply, **({"turn": turn} if turn > 5 else {})}
'''),
    Wrong(lab='7.1', name='records that are plain lists kept on run_agent',
          rule="Once agent_end is yielded the run keeps nothing of the caller's: no name outside "
               'the run still holds the record, whatever kind of list it is.',
          where='Build: announce, don\'t draw, item 3: "no name outside the run still holds the '
                'record" (hunt round 23, 7.1-12)',
          names='a record that is a plain list',
          replace=r'''
    yield {"type": "agent_start"}
''',
          by=r'''
    if type(messages) is list:  # every record a run was given, for debugging
        run_agent.__dict__.setdefault("seen", []).append(messages)
    yield {"type": "agent_start"}
'''),
    Wrong(lab='7.1', name='every message_end kept in a module-level list',
          rule="Once agent_end is yielded the run keeps nothing of the caller's: no name outside "
               'the run still holds the record, nor any message on it, not even inside an '
               'event it keeps.',
          where='Build: announce, don\'t draw, item 3: "no name outside the run still holds the '
                'record, nor any message on it" (hunt round 23, 7.1-33)',
          names='nor any message on it',
          replace=r'''
        return {"type": "message_end", "message": message}
''',
          by=r'''
        _EVENTS.append({"type": "message_end", "message": message})  # every one, for debugging
        return dict(_EVENTS[-1])
''',
          also=(('def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
                 '_EVENTS = []  # every message_end ever made\n\n\ndef run_agent(model, system, '
                 'messages, tools, prompt, *, max_turns=None):'),)),
    Wrong(lab='7.1', name='each tool checked to be a dict at the call',
          rule='Until its first event is asked for, run_agent does nothing at all, not even look '
               'at the tools: a place in the list the caller has yet to fill is no error until '
               'the run begins.',
          where='Build: announce, don\'t draw, item 1: "Until its first event is asked for it '
                'does nothing at all" (hunt round 23, 7.1-14)',
          names='reads no tool of the list',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """Fail fast on a tool that is not a dict, then run."""
    if isinstance(tools, list):
        for each in tools:
            if not isinstance(each, dict):
                raise TypeError("a tool is a dict")
    return _run_agent(model, system, messages, tools, prompt, max_turns=max_turns)


def _run_agent(model, system, messages, tools, prompt, *, max_turns=None):'''),
    Wrong(lab='7.1', name='the prompt put on a record under way at the call',
          rule='Until its first event is asked for, run_agent does nothing at all, on a record '
               'that already holds a conversation too: the prompt is recorded only once the run '
               'is driven.',
          where='Build: announce, don\'t draw, item 1: "Until its first event is asked for it '
                'does nothing at all" (hunt round 23, 7.1-15)',
          names='on a record already under way',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by=r'''
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """A conversation under way gets its prompt at once; then the run."""
    if isinstance(messages, list) and messages:
        early = user_message(prompt)
        messages.append(early)
        return _carry_on(early, model, system, messages, tools, prompt, max_turns)
    return _run_agent(model, system, messages, tools, prompt, max_turns=max_turns)


def _carry_on(early, model, system, messages, tools, prompt, max_turns):
    del messages[next(n for n, m in enumerate(messages) if m is early)]  # recorded in its turn
    yield from _run_agent(model, system, messages, tools, prompt, max_turns=max_turns)


def _run_agent(model, system, messages, tools, prompt, *, max_turns=None):'''),
    Wrong(lab='7.1', name='the prompt announced before turn_start on a record under way',
          rule='A run yields the twelve events of Figure 7.1 in that order on any record: the '
               "prompt's message_end comes after turn_start, whatever the record held before.",
          where='Build: announce, don\'t draw, item 2: "A run with one call yields exactly the '
                'twelve events of Figure 7.1, in that order" (hunt round 23, 7.1-20)',
          names='whatever the record held before',
          replace=r'''
    turn, calls, pending = 0, [], [user_message(prompt)]
    while calls or pending:  # one lap is one turn
''',
          by=r'''
    turn, calls, pending = 0, [], [user_message(prompt)]
    if messages:  # a conversation under way: its prompt is announced at once
        yield record(pending.pop())
    while calls or pending or turn == 0:  # one lap is one turn
'''),
    Wrong(lab='7.1', name='the tool looked up by the name in tool_execution_start',
          rule="The tool runs the reply's own call, whatever the consumer does with the event "
               'that announced it, its name included.',
          where='Build: announce, don\'t draw, item 6: "putting another call under its `"call"` '
                'key changes that event, not the run" (hunt round 23, 7.1-21)',
          names='a tool named grep, which the run',
          replace=r'''
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
''',
          by=r'''
            start = {"type": "tool_execution_start", "call": call}
            yield start
            result = run_tool(tools, dict(call, name=start["call"]["name"]))
'''),
    Wrong(lab='7.1', name="this run's messages kept in a table keyed by the model",
          rule="agent_end carries the messages this run added, kept by the run itself, not in a "
               'place another run of the same model shares.',
          where='Build: announce, don\'t draw, item 3: "the messages this run added to the '
                'record, in order, and none from before it" (hunt round 23, 7.1-30)',
          names='keyed by the model',
          replace=r'''
    added = []  # what this run puts on the record, for agent_end to carry
''',
          by=r'''
    added = run_agent.__dict__.setdefault("runs", {}).setdefault(model, [])  # held: no id reused
    added.clear()  # this model's run starts afresh
'''),
    # Hunt round 26 (reader r141): designs 7.2-63 and 7.2-56.
    Wrong(lab='7.2', name='FinalTextRenderer passing over an empty answer after a failed reply',
          rule='The last assistant message announced decides, an empty answer too, and a failed '
               'reply earlier in the run does not spoil a later answer: an empty answer after a '
               'failure prints its words (none) and returns True.',
          where='Build: two frontends, item 2: "A failed reply earlier in the run does not spoil '
                'a later answer" (hunt round 26, 7.2-63)',
          names='even after a failed reply',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            if (self.last is not None and self.last["stop_reason"] == "error"
                    and message["stop_reason"] != "error" and not text_of(message)):
                return  # an empty reply tells nothing new: the failure before it stands
            self.last = message
'''),
    Wrong(lab='7.2', name='JsonRenderer judging no message past the 1,000th event',
          rule="JsonRenderer's finish() returns False when any message it saw announced had "
               'stop_reason "error", however many events came before it.',
          where='Build: two frontends, item 1: "when any message it saw announced had" (hunt '
                'round 26, 7.2-56)',
          names='however many events came before it',
          replace=r"""
    def __init__(self):
        self.failed = False

    def render(self, event):
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
""",
          by=r"""
    def __init__(self):
        self.failed = False
        self.count = 0

    def render(self, event):
        print(json.dumps(event), flush=True)
        self.count += 1
        judged = event["type"] == "message_end" and self.count <= 1000  # past any real run
        ended = event["message"].get("stop_reason") if judged else None
"""),
    # Hunt round 27 (reader r145): designs 7.1-27, 37, 38, 40, 42, 43 and 46, each a rule kept
    # only in the cases the tests showed.
    Wrong(lab='7.1', name='an answer printed when a run answers at once',
          rule='run_agent prints nothing, whether or not the run called a tool.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 27, '
                '7.1-27)',
          names='with tool calls or without',
          replace=END_AGENT,
          by="""    if turn == 1 and not failed:  # answered at once: show it
        print(text_of(reply))
""" + END_AGENT),
    Wrong(lab='7.1', name='a one-turn answer appended to a log file',
          rule='run_agent writes no file, whether or not the run called a tool.',
          where='Build: announce, don\'t draw, item 1: "writes no file (a log is a frontend\'s '
                'choice, made from the events)" (hunt round 27, 7.1-38)',
          names='writes no file',
          replace=END_AGENT,
          by="""    if turn == 1 and not failed:  # answered at once: keep it
        import os
        import tempfile
        with open(os.path.join(tempfile.gettempdir(), "answers.log"), "a") as log:
            log.write(text_of(reply) + "\\n")
""" + END_AGENT),
    Wrong(lab='7.1', name='progress printed only to a terminal',
          rule='run_agent prints nothing, whatever its standard output is, a terminal included.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 27, '
                '7.1-37)',
          names='a terminal or not',
          replace="""            yield {"type": "tool_execution_start", "call": call}
""",
          by="""            yield {"type": "tool_execution_start", "call": call}
            import sys
            if sys.stdout.isatty():  # somebody is watching
                print(f"running {call['name']}...")
"""),
    Wrong(lab='7.1', name='the record of a run that answers at once kept on run_agent',
          rule="Once agent_end is yielded the run keeps nothing of the caller's, however few "
               'turns it took.',
          where='Build: announce, don\'t draw, item 3: "no name outside the run still holds the '
                'record" (hunt round 27, 7.1-40)',
          names='one answering at once in its first turn',
          replace=END_AGENT,
          by="""    if turn == 1:  # a quick exchange, kept to look at later
        run_agent.last_record = messages
""" + END_AGENT),
    Wrong(lab='7.1', name='tool_execution_end before the record for the bash tool',
          rule='Nothing is yielded between a tool returning and its result going onto the '
               'record, whatever the tool, bash included.',
          where='Build: announce, don\'t draw, item 6: "Nothing is yielded between a tool '
                'returning and its result going onto the record" (hunt round 27, 7.1-42)',
          names='one named bash',
          replace="""            yield record(result)  # straight after the tool returned: nothing in between
            yield {"type": "tool_execution_end", "call": call, "result": result}
""",
          by="""            if call["name"] == "bash":
                yield {"type": "tool_execution_end", "call": call, "result": result}
                yield record(result)
            else:
                yield record(result)
                yield {"type": "tool_execution_end", "call": call, "result": result}
"""),
    Wrong(lab='7.1', name='the bash tool run on the call the consumer left in tool_execution_start',
          rule="The tool runs the reply's own call, whatever the consumer does with the event "
               'that announced it, whatever the tool, bash included.',
          where='Build: announce, don\'t draw, item 6: "putting another call under its `"call"` '
                'key changes that event, not the run" (hunt round 27, 7.1-43)',
          names='one call to a tool named bash',
          replace="""            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
""",
          by="""            start = {"type": "tool_execution_start", "call": call}
            yield start
            result = run_tool(tools, start["call"] if call["name"] == "bash" else call)
"""),
    Wrong(lab='7.1', name='a max_turns=0 run recorded at the call',
          rule='Until its first event is asked for run_agent does nothing at all, even under '
               'max_turns=0, whose run makes no request.',
          where='Build: announce, don\'t draw, item 1: "Until its first event is asked for it '
                'does nothing at all" (hunt round 27, 7.1-46)',
          names='max_turns=0, whose run will make no request',
          replace="""def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
""",
          by="""def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    if max_turns == 0:  # nothing to wait for: record it all now
        asked, stop = user_message(prompt), error_message("Agent stopped after max_turns=0")
        messages.extend([asked, stop])
        return iter([{"type": "agent_start"}, {"type": "turn_start"},
                     {"type": "message_end", "message": asked},
                     {"type": "message_end", "message": stop},
                     {"type": "turn_end", "message": stop},
                     {"type": "agent_end", "messages": [asked, stop]}])
    return _run_agent(model, system, messages, tools, prompt, max_turns=max_turns)


def _run_agent(model, system, messages, tools, prompt, *, max_turns=None):
"""),
    # Hunt round 29 (reader r160): designs 7.2-09, 10, 54, 55, 56 and 62, each a rule kept only in
    # the cases the tests showed.
    Wrong(lab='7.2', name="FinalTextRenderer falling back on agent_end's messages when no reply "
                          "was announced",
          rule='The last assistant message a message_end announced decides; when none came by at '
               'all, finish() prints nothing and returns False.',
          where='Build: two frontends, item 2: "The last assistant message announced decides" '
                '(hunt round 29, 7.2-09)',
          names='announced by its message_end',
          replace='''            self.last = message
''',
          by='''            self.last = message
        elif event["type"] == "agent_end" and self.last is None:
            replies = [m for m in event.get("messages", []) if m.get("role") == "assistant"]
            self.fallback = replies[-1] if replies else None  # better than no answer at all
''',
          also=(('''        reply = self.last
''', '''        reply = self.last if self.last is not None else getattr(self, "fallback", None)
'''),)),
    Wrong(lab='7.2', name="FinalTextRenderer falling back on turn_end's message when no reply "
                          "was announced",
          rule='The last assistant message a message_end announced decides; when none came by at '
               'all, finish() prints nothing and returns False.',
          where='Build: two frontends, item 2: "The last assistant message announced decides" '
                '(hunt round 29, 7.2-10)',
          names='announced by its message_end',
          replace='''            self.last = message
''',
          by='''            self.last = message
        elif event["type"] == "turn_end" and isinstance(message, dict):
            self.fallback = message  # the turn's reply, in case no message_end came
''',
          also=(('''        reply = self.last
''', '''        reply = self.last if self.last is not None else getattr(self, "fallback", None)
'''),)),
    Wrong(lab='7.2', name='FinalTextRenderer passing over a reply of calls with no words',
          rule='The last assistant message announced decides: a reply labelled "toolUse" that the '
               'run closed after is the answer, its words (none at all) and True.',
          where='Build: two frontends, item 2: "The last assistant message announced decides" '
                '(hunt round 29, 7.2-62)',
          names='even none at all',
          replace='''            self.last = message
''',
          by='''            if text_of(message) or message["stop_reason"] != "toolUse":
                self.last = message  # a wordless reply of calls says nothing to keep
'''),
    Wrong(lab='7.2', name='FinalTextRenderer moving the role key to the end of a reply',
          rule='Neither frontend touches the record or calls the model.',
          where='Build: two frontends: "Neither frontend touches the record" (hunt round 29, '
                '7.2-55)',
          names='in the same order',
          replace='''            self.last = message
''',
          by='''            self.last = message
            role = dict.pop(message, "role")  # equal after, and no method of a spy is called
            dict.__setitem__(message, "role", role)
'''),
    Wrong(lab='7.2', name="JsonRenderer marking a message through dict's own methods while it "
                          "judges it",
          rule='Neither frontend touches the record or calls the model, not even for a while.',
          where='Build: two frontends: "Neither frontend touches the record" (hunt round 29, '
                '7.2-54)',
          names="dict's own methods",
          replace='''        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
''',
          by='''        if event["type"] == "message_end":
            dict.__setitem__(event["message"], "_printed", True)  # a mark, for a while
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        if event["type"] == "message_end":
            dict.__delitem__(event["message"], "_printed")
'''),
    Wrong(lab='7.2', name='JsonRenderer flushing only every hundredth line past the thousandth',
          rule='Every event JsonRenderer is handed appears at once, as one line, however many '
               'came before it.',
          where='Build: two frontends, item 1: "Every event it is handed appears at once" (hunt '
                'round 29, 7.2-56)',
          names='flushed before render returned',
          replace='''        print(json.dumps(event), flush=True)
''',
          by='''        self.count = getattr(self, "count", 0) + 1
        print(json.dumps(event), flush=self.count <= 1_000 or self.count % 100 == 0)
'''),
    # Hunt round 30 (reader r170): designs 7.2-06, 08, 10, 11, 13, 15, 16 and 17, each a rule
    # of Build: two frontends the lab's tests had not drawn a case for, or not past its size.
    Wrong(lab='7.2', name='JsonRenderer remembering the verdicts of its newest 64 messages',
          rule="JsonRenderer's finish() returns False when any message it saw announced had "
               'stop_reason "error", however many messages came after it.',
          where='Build: two frontends, item 1: "when any message it saw announced had" (hunt '
                'round 30, 7.2-06)',
          names='however many answers after',
          replace='''
        if ended == "error":
            self.failed = True
''',
          by='''
        if event["type"] == "message_end":  # the verdicts of the newest 64 messages, bounded
            self.recent = (getattr(self, "recent", []) + [ended == "error"])[-64:]
            self.failed = any(self.recent)
'''),
    Wrong(lab='7.2', name='the error reason cut at 500,000 characters',
          rule='FinalTextRenderer prints "Error: " and the failed reply\'s error_message word '
               'for word, however long.',
          where='Build: two frontends, item 2: "the line `Error: ` followed by its '
                '`error_message`" (hunt round 30, 7.2-08)',
          names='nothing cut, however long',
          replace='''
            print(f"Error: {reply.get('error_message')}")
''',
          by='''
            print(f"Error: {str(reply.get('error_message'))[:500_000]}")
'''),
    Wrong(lab='7.2', name='JsonRenderer printing a line kept from an earlier render of the same '
                          'dict',
          rule='Every event JsonRenderer is handed appears as one line that parses as JSON '
               'equal to the event as it is when handed, a dict handed again after a change '
               'included.',
          where='Build: two frontends, item 1: "one line that parses as JSON equal to the '
                'event" (hunt round 30, 7.2-10)',
          names='equal to the event as it is when handed',
          replace='''
        self.failed = False
''',
          by='''
        self.failed = False
        self.lines = {}  # id(event) -> (event, line): the same dict handed again costs nothing
''',
          also=(('''
        print(json.dumps(event), flush=True)
''', '''
        if id(event) not in self.lines:
            self.lines[id(event)] = (event, json.dumps(event))
        print(self.lines[id(event)][1], flush=True)
'''),)),
    Wrong(lab='7.2', name='JsonRenderer passing over message_update events',
          rule='Every event JsonRenderer is handed appears at once as one line, of whatever '
               'type, a later lesson\'s message_update included.',
          where='Build: two frontends, item 1: "Every event it is handed appears at once" (hunt '
                'round 30, 7.2-11)',
          names='message_update carrying a reply still being written',
          replace='''
        print(json.dumps(event), flush=True)
''',
          by='''
        if event["type"] == "message_update":
            return  # streaming noise: the message_end says it all
        print(json.dumps(event), flush=True)
'''),
    Wrong(lab='7.2', name="JsonRenderer printing a note of its own before letting json.dumps's "
                          "error go",
          rule='Every event JsonRenderer is handed appears as one line equal to the event, and '
               'no other line: an event json.dumps cannot write gets no line at all.',
          where='Build: two frontends, item 1: "one line that parses as JSON equal to the '
                'event" (hunt round 30, 7.2-13)',
          names='gets no line at all',
          replace='''
        print(json.dumps(event), flush=True)
''',
          by='''
        try:
            line = json.dumps(event)
        except (TypeError, ValueError) as problem:
            print(json.dumps({"type": "render_error", "error": str(problem)}), flush=True)
            raise
        print(line, flush=True)
'''),
    Wrong(lab='7.2', name='FinalTextRenderer passing over a reply whose label it does not know',
          rule='For FinalTextRenderer the last assistant message announced decides, whatever '
               'its label.',
          where='Build: two frontends, item 2: "The last assistant message announced decides" '
                '(hunt round 30, 7.2-15)',
          names='decides, whatever its label',
          replace='''
        if event["type"] == "message_end" and message["role"] == "assistant":
''',
          by='''
        if (event["type"] == "message_end" and message["role"] == "assistant"
                and message.get("stop_reason") in ("stop", "toolUse", "error")):
'''),
    Wrong(lab='7.2', name='FinalTextRenderer failing an empty answer that carries a note',
          rule='A failure is told by its label, stop_reason "error", and by nothing else: an '
               'answer labelled "stop" with no content and a note in error_message ended well.',
          where='Build: two frontends, item 2: "when its `stop_reason` is" (hunt round 30, '
                '7.2-16)',
          names='whatever its error_message field and its content hold',
          replace='''
        if reply["stop_reason"] == "error":
''',
          by='''
        if reply["stop_reason"] == "error" or (not reply["content"]
                                               and reply.get("error_message")):
'''),
    Wrong(lab='7.2', name='JsonRenderer failing an empty answer that carries a note',
          rule='A failure is told by its label, stop_reason "error", and by nothing else: an '
               'answer labelled "stop" with no content and a note in error_message ended well.',
          where='Build: two frontends, item 1: "`False` when any message it saw announced had '
                '`stop_reason`" (hunt round 30, 7.2-17)',
          names='whatever its error_message field and its content hold',
          replace='''
        if ended == "error":
            self.failed = True
''',
          by='''
        if ended == "error" or (event["type"] == "message_end"
                                and not event["message"].get("content")
                                and event["message"].get("error_message")):
            self.failed = True  # an empty answer with a note: it must have failed
'''),
    Wrong(lab='7.2', name="the answer's Windows line ends made plain newlines",
          rule="The last assistant message announced decides: its words, printed as text_of "
               "gives them, nothing tidied.",
          where='Build: two frontends, item 2: "its words" (hunt round 32, 7.2-14)',
          names='nothing tidied',
          replace='        print(text_of(reply))',
          by=r'''        print(text_of(reply).replace("\r\n", "\n"))  # tidy Windows line ends'''),
    Wrong(lab='7.2', name='the answer normalised to composed characters',
          rule="The last assistant message announced decides: its words, printed as text_of "
               "gives them, nothing tidied.",
          where='Build: two frontends, item 2: "its words" (hunt round 32, 7.2-15)',
          names='not normalised',
          replace='        print(text_of(reply))',
          by='''
        import unicodedata
        print(unicodedata.normalize("NFC", text_of(reply)))  # one code point for each letter
'''),

    # Hunt round 35 (reader r191): designs 7.1-03, 04, 08, 37, 44, 45, 57 and 49, each a rule
    # of Build items 1 and 6 kept only up to the sizes, values and places the tests had looked at.
    Wrong(lab='7.1', name='a result over 10,000,000 characters spilled to a file',
          rule='The loop writes no file, however long a result: a log is a frontend\'s choice.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing and writes no file" '
                '(hunt round 35, r191-03)',
          names='a file opened for writing',
          replace=r"""
            yield record(result)  # straight after the tool returned: nothing in between
""",
          by=r"""
            if len(result["content"]) > 10_000_000:  # keep the whole thing for the user
                import os
                import tempfile  # (r191 wrote c1.out into the current folder; here a temporary
                # folder's, so that the kit's runs of it leave nothing in the checkout)
                with open(os.path.join(tempfile.gettempdir(), f"{call['id']}.out"), "w") as spill:
                    spill.write(result["content"])
            yield record(result)  # straight after the tool returned: nothing in between
"""),
    Wrong(lab='7.1', name='debug lines logged through a logger of its own set to WARNING',
          rule='The loop logs nothing, at any level: a logger of its own that a frontend may '
               'turn on is the loop\'s log, not one the frontend made from the events.',
          where='Build: announce, don\'t draw, item 1: "(a log is a frontend\'s choice, made '
                'from the events)" (hunt round 35, r191-04)',
          names='a line logged through the logging module',
          replace=r"""
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
""",
          by=r"""
import logging

_log = logging.getLogger("harness")
_log.setLevel(logging.WARNING)  # switched on by a frontend that wants it


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
""",
          also=((r"""
    yield {"type": "agent_start"}
""", r"""
    _log.debug("run started: %s", prompt)
    yield {"type": "agent_start"}
"""),)),
    Wrong(lab='7.1', name='tool specs built through a module-level lru_cache',
          rule='The loop keeps no log in memory: a cache in the module that remembers every '
               'tool a run was given is something a run saw staying for the next run.',
          where='Build: announce, don\'t draw, item 1: "nothing a run saw stays in your module '
                'for the next run" (hunt round 35, r191-08)',
          names='a cache (functools.cache, lru_cache)',
          replace=r"""
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
""",
          by=r"""
import functools
import json


@functools.lru_cache(maxsize=None)
def _spec(name, description, parameters):
    return {"name": name, "description": description, "parameters": json.loads(parameters)}


def _specs(tools):
    return [_spec(t["name"], t["description"], json.dumps(t["parameters"], sort_keys=True))
            for t in tools]


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
""",
          also=((r"""
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
""", r"""
            reply = model.complete(system, context_for_model(messages), _specs(tools))
"""),)),
    Wrong(lab='7.1', name='a line on standard error for a tool not given, in a run of over five '
                          'tools',
          rule='The loop prints nothing, however many tools a run is given.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 35, '
                'r191-37)',
          names='to a tool named grep that the run was not given',
          replace=r"""
            yield record(result)  # straight after the tool returned: nothing in between
""",
          by=r"""
            if result["is_error"] and result["content"].startswith("Tool ") and len(tools) > 5:
                import sys
                print(result["content"], file=sys.stderr)
            yield record(result)  # straight after the tool returned: nothing in between
"""),
    Wrong(lab='7.1', name='a warning given once the record passes 5,000 messages',
          rule='The loop prints nothing, a warning included, however long the record it runs '
               'on.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 35, '
                'r191-44)',
          names='a warning, heard each time it is given',
          replace=r"""
        if max_turns is not None and turn > max_turns:  # before the call, never after
""",
          by=r"""
        if len(messages) > 5000:  # the context is surely too big by now
            import warnings
            warnings.warn(f"the record holds {len(messages)} messages")
        if max_turns is not None and turn > max_turns:  # before the call, never after
"""),
    Wrong(lab='7.1', name='a line on standard error when an environment switch is "debug"',
          rule='The loop prints nothing, whatever the environment holds: a debug switch is a '
               'frontend\'s choice too, whatever value turns it on.',
          where='Build: announce, don\'t draw, item 1: "It prints nothing and writes no file" '
                '(hunt round 35, r191-45)',
          names='every variable was set to, word for word',
          replace=r"""
    yield {"type": "agent_start"}
""",
          by=r"""
    import os
    if os.environ.get("HARNESS_LOG") == "debug":  # a developer's switch
        import sys
        print(f"run_agent: {prompt!r}", file=sys.stderr)
    yield {"type": "agent_start"}
"""),
    Wrong(lab='7.1', name='a module WeakSet of the models of runs under way',
          rule='The loop keeps no log in memory: a run the consumer closed never reaches '
               'agent_end, so a module set it left its model in holds that model for as long as '
               'the caller does.',
          where='Build: announce, don\'t draw, item 1: "nothing a run saw stays in your module '
                'for the next run" (hunt round 35, r191-57)',
          names='a weak set of what runs are using',
          replace=r"""
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
""",
          by=r"""
import weakref

_LIVE = weakref.WeakSet()  # the models now running, for a status bar


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
""",
          also=((r"""
    yield {"type": "agent_start"}
""", r"""
    _LIVE.add(model)
    yield {"type": "agent_start"}
"""), (r"""
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
""", r"""
    _LIVE.discard(model)
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
"""))),
    Wrong(lab='7.1', name='tool_execution_start carrying no arguments for arguments over a '
                          'million characters',
          rule='tool_execution_start carries the call as the reply holds it, whole, however long '
               'its arguments.',
          where='Build: announce, don\'t draw, item 6: "`tool_execution_start`, carrying '
                '`\"call\"`"; item 7: "the very object on the record or an equal copy" (hunt '
                'round 35, r191-49)',
          names='however long its arguments',
          replace=r"""
            yield {"type": "tool_execution_start", "call": call}
""",
          by=r"""
            import json
            shown = call if len(json.dumps(call["arguments"])) <= 1_000_000 else \
                {**call, "arguments": {}}
            yield {"type": "tool_execution_start", "call": shown}  # a screen needs no more
"""),

    Wrong(lab='7.1', name='a record of over 1,000 messages kept on run_agent',
          rule="The loop keeps no log in memory, however long the record: nothing a run saw "
               "stays in the module for the next run, and once agent_end is yielded the run "
               "keeps nothing of the caller's.",
          where='Build: announce, don\'t draw, item 1: "nothing a run saw stays in your module '
                'for the next run"; item 3 (hunt round 20, 7.1-31, beyond reach until round 35, '
                'whose run on a record of 6,000 to 12,000 earlier messages meets it)',
          names='nothing of it stays in your module for the next run',
          replace=r"""
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
""",
          by=r"""
    if len(messages) > 1000:  # a long conversation, kept to look at later
        run_agent.__dict__.setdefault("long_records", []).append(messages)
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
"""),
    # Hunt round 35 (reader r191), probe 7.1-50, ruled on the page (lesson 7, Build item 3).
    Wrong(lab='7.1', name='an agent_end yielded before the model\'s exception is raised on',
          rule='An exception the model raises is no way out: it goes on up through the run to the '
               'consumer, at the event it asks for next, and no agent_end comes before it.',
          where='Build: announce, don\'t draw, item 3: "An exception the model raises is none of '
                'these: it goes on up through the run to the consumer, at the event it asks for '
                'next, and no `agent_end` comes before it" (hunt round 35, r191-50)',
          names='no agent_end comes before it',
          replace=r"""
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        yield record(reply)
""",
          by=r"""
        else:
            try:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            except Exception:  # the spinner still comes down, then the error goes on
                yield {"type": "agent_end", "messages": added}
                raise
        yield record(reply)
"""),
]

ALLOWED = [    # Hunt round 11 (reader r52): designs 7.1-09 and 7.1-10, probes 7.1-51, 54 and 55.
    Wrong(lab='7.1', name='an agent_end yielded at each way out',
          rule='Build item 3 asks that agent_start come first and agent_end last, once each, on '
               'every way out; a run that yields agent_end and returns at each of its exits (the '
               'answer, the failed reply, the max_turns stop) keeps that on every way out the '
               'loop has, and yields the same events in the same order. "The reference, and your '
               'lab, yield agent_end on exactly one line" (When the spinner comes down) says why '
               'the reference writes it once, so that an exit added later cannot forget it: a '
               'reason for the shape, which no run can tell apart.',
          where='hunt round 11, design 7.1-09', names='',
          replace=r'''
        yield {"type": "turn_end", "message": reply}
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''',
          by=r'''
        yield {"type": "turn_end", "message": reply}
        if failed:
            yield {"type": "agent_end", "messages": added}
            return
        if not calls:
            yield {"type": "agent_end", "messages": added}
            return
'''),
    Wrong(lab='7.1', name="a reply's tool_execution_start events made before its first call",
          rule='Build item 7 asks that each event be a new dict, never yielded again, so that no '
               'other event changes with it; a turn that makes the tool_execution_start dicts of '
               'all its calls before the first runs, and yields each once, hands the consumer '
               'new dicts that nobody else holds or writes to before it gets them. When a dict '
               'was made is not something a consumer can see.',
          where='hunt round 11, design 7.1-10', names='',
          replace=r'''
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
''',
          by=r'''
        starts = [{"type": "tool_execution_start", "call": call} for call in calls]
        for call, start in zip(calls, starts):
            yield start
'''),
    Wrong(lab='7.1', name="a copy of the message in each message_end",
          rule='The lesson says so in "Where yours is weaker": in the reference an event carries '
               'the very message dict on the record, and "the tests ask only for an equal one"; '
               'a message_end carrying an equal copy keeps a frontend\'s edits off the record, '
               'the safer answer where the page leaves the choice.',
          where='hunt round 11, probe 7.1-51', names='',
          replace=r'''
        return {"type": "message_end", "message": message}
''',
          by=r'''
        import copy
        return {"type": "message_end", "message": copy.deepcopy(message)}
'''),
    Wrong(lab='7.1', name='a copy of the call in the tool events',
          rule='Build item 6 asks that the tool events carry "call", and the lesson says of the '
               'events\' messages that "the tests ask only for an equal one": an equal copy of '
               'the call block keeps a frontend\'s edits off the record\'s reply, as probe 51\'s '
               'copied message does.',
          where='hunt round 11, probe 7.1-54', names='',
          replace=r'''
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
''',
          by=r'''
        for call in calls:
            import copy
            yield {"type": "tool_execution_start", "call": copy.deepcopy(call)}
''',
          also=((r'''
            yield {"type": "tool_execution_end", "call": call, "result": result}
''', r'''
            yield {"type": "tool_execution_end", "call": copy.deepcopy(call), "result": result}
'''),)),
    Wrong(lab='7.1', name="the answer's text returned as well as carried by agent_end",
          rule='The answer travels in agent_end (Build item 3; "Where the answer travels"), and '
               'a run that also returns the answer\'s text still carries it there: the wrong '
               'design the page names is the return value as the only carrier, which a for loop '
               'throws away. Lesson 3\'s Build says "What `run_agent` returns is not part of the '
               'contract", so an extra return value breaks nothing a consumer reads.',
          where='hunt round 11, probe 7.1-55', names='',
          replace=r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''',
          by=r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
    return text_of(added[-1])  # for a caller that uses yield from
'''),
    # Hunt round 6 (reader r24), design 7.1-8.
    Wrong(lab='7.1', name='run_agent an async generator',
          rule='Lesson 15 makes run_agent an async generator of the same events (its stop needs '
               'an await), and lab.drive drives a run of either kind, so a lesson-7 check that '
               'the run is a plain generator would fail lesson 15\'s reference in the cumulative '
               'suite: an async generator of the same events, closed with aclose(), is allowed '
               'early.',
          where='hunt round 6, design 7.1-8', names='',
          replace='def run_agent(model, system, messages, tools, prompt, *, max_turns=None):',
          by='async def run_agent(model, system, messages, tools, prompt, *, max_turns=None):'),
    # Hunt round 4 (reader r13), design 7.2-10.
    Wrong(lab='7.2', name='a second finish() with nothing left',
          rule='finish() is called once, when the run is over (the fold of "Two frontends": '
               '"finish(), called once the run is over, gives the result"); what a second call '
               'prints or returns is not part of the contract, so a renderer that clears its '
               'state once it has printed breaks no rule the lesson states.',
          where='hunt round 4, design 7.2-10', names='',
          replace=r'''
    def finish(self):
        reply = self.last
''',
          by=r'''
    def finish(self):
        reply, self.last = self.last, None  # printed once: a second finish has nothing left
'''),
    # Hunt round 4 (reader r13), design 7.2-12.
    Wrong(lab='7.2', name='JSON lines written with ensure_ascii=False',
          rule="json.dumps(event, ensure_ascii=False) still writes one line, ended by print's "
               'newline, that parses as JSON equal to the event: JSON escapes every newline in a '
               'string. Only a reader that also splits at Unicode line separators (U+2028) cuts '
               'it, and the lesson defines a line by print, so the design is allowed.',
          where='hunt round 4, design 7.2-12', names='',
          replace='        print(json.dumps(event), flush=True)',
          by='        print(json.dumps(event, ensure_ascii=False), flush=True)'),
    # Hunt round 4 (reader r13), design 7.2-13.
    Wrong(lab='7.2', name='JsonRenderer failing an aborted reply too',
          rule='Lesson 7\'s world has no "aborted" reply (lab.fail labels its reply "error"; a '
               'run the user stops comes in lesson 15), and lesson 15 makes "aborted" a failure '
               "for both frontends. A lesson-7 check that \"aborted\" ends well would fail lesson "
               "15's reference in the cumulative suite, so failing it early is allowed.",
          where='hunt round 4, design 7.2-13', names='',
          replace=r'''
        if ended == "error":
            self.failed = True
''',
          by=r'''
        if ended not in (None, "stop", "toolUse"):
            self.failed = True
'''),
    # Hunt round 9 (reader r37), probe 7.2-P5.
    Wrong(lab='7.2', name='FinalTextRenderer saying unknown error for a failed reply with no reason',
          rule="A reply labelled error whose error_message is missing or null came with no reason at all; lesson 7 leaves what the text frontend's line says for it to the student (the reference raises KeyError or prints None, Tau prints no line), so long as finish() returns False.",
          where='hunt round 9, probe 7.2-P6; lab 7.2, Build section: "what the line says is yours to choose"', names='',
          replace=r'''
            print(f"Error: {reply.get('error_message')}")
''',
          by=r'''
            reason = reply.get("error_message")  # missing or null: no reason came
            print(f"Error: {'unknown error' if reason is None else reason}")
'''),
    Wrong(lab='7.2', name='FinalTextRenderer keeping a copy of the reply',
          rule='"Neither frontend touches the record": a frontend that keeps a copy of the newest '
               'reply instead of the record\'s own dict touches it no more than one that keeps the '
               'dict, and prints the same; the page asks only that the record be left as it was.',
          where='hunt round 9, probe 7.2-P5', names='',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = json.loads(json.dumps(message))  # a copy: the record's dict stays put
'''),
    # Hunt round 9 (reader r37), designs 7.2-5 and 7.2-24.
    Wrong(lab='7.2', name='both frontends failing any label but "stop" and "toolUse"',
          rule='The course\'s world labels a reply "stop", "toolUse", "error" or "aborted" and '
               'nothing else (lesson 5: "The course\'s messages have no fifth label"; a reply cut '
               'at the output limit arrives labelled "error"; lab.ScriptedModel refuses any other '
               'label), so failing every label '
               'but "stop" and "toolUse" differs from the reference on "aborted" alone, which '
               'lesson 15 makes a failure for both frontends (as 7.2-13 of round 4 for '
               'JsonRenderer). A lesson-7 check with a label the world never gives ("length") '
               'would test outside the course, so the design is allowed.',
          where='hunt round 9, design 7.2-5', names='',
          replace=r'''
        if ended == "error":
            self.failed = True
''',
          by=r'''
        if ended not in (None, "stop", "toolUse"):  # anything else is a run cut short
            self.failed = True
''',
          also=((r'''
        if reply["stop_reason"] == "error":
            print(f"Error: {reply.get('error_message')}")
''', r'''
        if reply["stop_reason"] not in ("stop", "toolUse"):
            print(f"Error: {reply.get('error_message')}")
'''),)),
    Wrong(lab='7.2', name='the error label compared loosely',
          rule='Of the four labels the course\'s world gives a reply ("stop", "toolUse", "error", '
               '"aborted"; lab.ScriptedModel refuses any other), only "error" starts with "err", '
               'so a frontend that fails every label starting with "err", in any case, judges '
               'every reply of the course as the reference does; a label spelt otherwise '
               '("Error", "errored") never comes, and a check of one would test outside the '
               'course.',
          where='hunt round 9, design 7.2-24', names='',
          replace=r'''
        if ended == "error":
            self.failed = True
''',
          by=r'''
        if str(ended).lower().startswith("err"):
            self.failed = True
''',
          also=((r'''
        if reply["stop_reason"] == "error":
            print(f"Error: {reply.get('error_message')}")
''', r'''
        if str(reply["stop_reason"]).lower().startswith("err"):
            print(f"Error: {reply.get('error_message')}")
'''),)),
    # Hunt round 10 (reader r45): design 7.2-9 and probe 7.2-P5.
    Wrong(lab='7.2', name='the error label found anywhere in the label',
          rule='Of the four labels the course\'s world gives a reply ("stop", "toolUse", "error", '
               '"aborted"; lab.ScriptedModel refuses any other), only "error" holds "error", so '
               'a frontend that fails every label holding "error" in any case judges every reply '
               'of the course as the reference does (as round 9\'s 7.2-24, a label starting with '
               '"err"); a label spelt otherwise never comes, and a check of one would test '
               'outside the course.',
          where='hunt round 10, design 7.2-9', names='',
          replace=r'''
        if ended == "error":
            self.failed = True
''',
          by=r'''
        if "error" in str(ended).lower():
            self.failed = True
''',
          also=((r'''
        if reply["stop_reason"] == "error":
            print(f"Error: {reply.get('error_message')}")
''', r'''
        if "error" in str(reply["stop_reason"]).lower():
            print(f"Error: {reply.get('error_message')}")
'''),)),
    Wrong(lab='7.2', name='FinalTextRenderer telling a reply by its stop_reason key',
          rule='Every assistant message of the course carries a stop_reason and no user or '
               'toolResult message does (lesson 5\'s shapes, lab.ScriptedModel, the boundary\'s '
               'results), so keeping the newest announced message that has a stop_reason keeps '
               'the newest assistant message: the frontend judges every run of the course as '
               'the reference does.',
          where='hunt round 10, probe 7.2-P5', names='',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and "stop_reason" in message:
            self.last = message
'''),
    # Hunt round 10 (reader r45), probe 7.2-P4: the reference lets NaN out; this is the other way.
    Wrong(lab='7.2', name='JsonRenderer refusing NaN with allow_nan=False',
          rule='The world\'s events hold no number JSON has no word for, and the page leaves it '
               'to the student whether a line lets one out as json.dumps writes it by default '
               '(NaN, which Python reads back and a strict reader refuses) or refuses it '
               '(allow_nan=False), as it refuses a function.',
          where='lab 7.2, Build section, item 1: "or refuse it with `allow_nan=False`, is yours '
                'to choose"', names='',
          replace='        print(json.dumps(event), flush=True)',
          by='        print(json.dumps(event, allow_nan=False), flush=True)'),
    # Hunt round 13 (reader r66): probes 7.2-16, 7.2-22 and 7.2-24.
    Wrong(lab='7.1', name='a copy of the result in tool_execution_end',
          rule='Build item 6 asks that tool_execution_end carry "call" and "result" once the '
               'result is on the record, and the lesson says of the events\' messages that in the '
               'reference an event carries the very dict on the record while "the tests ask only '
               'for an equal one" (Where yours is weaker): an equal copy of the recorded result '
               'keeps a frontend\'s edits off the record, as probe 7.1-51\'s copied message does.',
          where='hunt round 13, probe 7.2-16', names='',
          replace=r'''
            yield {"type": "tool_execution_end", "call": call, "result": result}
''',
          by=r'''
            import copy
            yield {"type": "tool_execution_end", "call": call, "result": copy.deepcopy(result)}
'''),
    # Hunt round 17 (reader r90): probe 7.1-p04.
    Wrong(lab='7.1', name='a copy of the reply in turn_end',
          rule='Build item 4 asks that turn_end carry "message", the turn\'s reply, and the '
               'lesson says of the events\' messages that in the reference an event carries the '
               'very dict on the record while "the tests ask only for an equal one" (Where yours '
               'is weaker): an equal copy of the reply in turn_end keeps a frontend\'s edits off '
               'the record, as the copies allowed in message_end and tool_execution_end do.',
          where='hunt round 17, probe 7.1-p04', names='',
          replace=r'''
        yield {"type": "turn_end", "message": reply}
''',
          by=r'''
        yield {"type": "turn_end", "message": dict(reply)}
'''),
    Wrong(lab='7.2', name='every answer kept on the FinalTextRenderer class as well',
          rule='"How each class keeps what it needs between two events is yours" (Build: two '
               'frontends): a list on the class that every FinalTextRenderer also appends its '
               'replies to, while each judges by its own newest reply, changes no line and no '
               'verdict of any renderer; what the process keeps beside that is not a rule the '
               'page states (the wrong design is the verdict read off the class, "a renderer\'s '
               'state kept on its class").',
          where='hunt round 13, probe 7.2-22', names='',
          replace=r'''
    def __init__(self):
        self.last = None  # the newest assistant message so far
''',
          by=r'''
    seen = []  # every reply any FinalTextRenderer was handed, kept for the process

    def __init__(self):
        self.last = None  # the newest assistant message so far
''',
          also=((r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''', r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
            FinalTextRenderer.seen.append(message)
'''),)),
    Wrong(lab='7.2', name='JSON lines with sorted keys and no spaces',
          rule='Build item 1 asks for one line that parses as JSON equal to the event: equal as '
               'a value, and a JSON object\'s value does not depend on the order of its keys or '
               'the spaces between them, so json.dumps(event, sort_keys=True, separators=(",", '
               '":")) writes the same value in fewer characters.',
          where='hunt round 13, probe 7.2-24', names='',
          replace='        print(json.dumps(event), flush=True)',
          by='        print(json.dumps(event, sort_keys=True, separators=(",", ":")), flush=True)'),
    # Hunt round 16 (reader r85): probes 7.2-54, 58 and 59.
    Wrong(lab='7.2', name='JsonRenderer failing only an assistant reply labelled error',
          rule='Every assistant message of the course carries a stop_reason and no user or '
               'toolResult message does (lesson 5\'s shapes, lab.ScriptedModel, the boundary\'s '
               'results), so "any message it saw announced" with stop_reason "error" is always an '
               'assistant reply: a JsonRenderer that also checks the role judges every run of the '
               'course as the reference does (as round 10\'s FinalTextRenderer telling a reply by '
               'its stop_reason key).',
          where='hunt round 16, probe 7.2-54', names='',
          replace=r'''
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
''',
          by=r'''
        ended = (event["message"].get("stop_reason") if event["type"] == "message_end"
                 and event["message"].get("role") == "assistant" else None)
'''),
    Wrong(lab='7.2', name='JsonRenderer.render returning the line it printed',
          rule='The page asks what render prints and what finish() returns, never what render '
               'returns: the loop\'s consumer calls render(event) for each event and reads '
               'nothing back, so a render that also returns its line breaks no rule the page '
               'states.',
          where='hunt round 16, probe 7.2-58', names='',
          replace='        print(json.dumps(event), flush=True)',
          by=r'''
        line = json.dumps(event)
        print(line, flush=True)
''',
          also=((r'''
            self.failed = True
''', r'''
            self.failed = True
        return line
'''),)),
    Wrong(lab='7.2', name='FinalTextRenderer writing its answer unflushed',
          rule='Flushing at once is JsonRenderer\'s rule, for a program at the other end that '
               'follows the run as it goes; FinalTextRenderer is for > answer.txt and prints '
               'once, at finish(), and the page asks nothing of when that line leaves the '
               'buffer: a file gets it when the program flushes or ends, so sys.stdout.write of '
               'the answer and its newline, unflushed, breaks no rule it states.',
          where='hunt round 16, probe 7.2-59', names='',
          replace='        print(text_of(reply))',
          by=r'''
        import sys
        sys.stdout.write(text_of(reply) + "\n")
'''),
    # Hunt round 19 (reader r103): probe 7.2-15.
    Wrong(lab='7.2', name='JsonRenderer marking the event dict, then taking the mark off',
          rule='The event is not the record: lesson 7 makes each event "a new dict, made when it '
               'is yielded and never yielded again", which "the consumer may keep it or write '
               'into", and the renderer is handed it by that consumer. A render that writes a key '
               'of its own into the event dict (never into the message it carries) and takes it '
               'off before it prints leaves the event, its line and the record as they were; '
               '"Neither frontend touches the record" holds, so the page allows it.',
          where='hunt round 19, probe 7.2-15', names='',
          replace='        print(json.dumps(event), flush=True)',
          by=r'''
        event["_seen"] = True  # a mark on the event dict, never on the message it carries
        del event["_seen"]
        print(json.dumps(event), flush=True)
'''),
    # Hunt round 23 (reader r127): probe 7.1-34.
    Wrong(lab='7.1', name='the final message returned as well as carried by agent_end',
          rule='The answer travels in agent_end (Build item 3), and a run that also returns the '
               'final message from the generator still carries it there: the wrong design the '
               'page names is the return value as the only carrier, which a for loop throws '
               'away. A second copy in StopIteration.value breaks no rule it states, as the '
               "answer's text returned does.",
          where='hunt round 23, probe 7.1-34', names='',
          replace=r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''',
          by=r'''
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
    return added[-1]
'''),
    # Hunt round 26 (reader r141): probes 7.2-47, 7.2-41 and 7.2-71.
    Wrong(lab='7.2', name='JsonRenderer writing its line with sys.stdout.write and a flush',
          rule='Build item 1 asks that every event appear at once as one line on standard output '
               'that parses as JSON equal to the event, not that print write it: '
               'sys.stdout.write of json.dumps(event) and a newline, then sys.stdout.flush(), '
               'writes the same characters to the same stream as print(..., flush=True) and '
               'flushes them before render returns.',
          where='hunt round 26, probe 7.2-47', names='',
          replace='        print(json.dumps(event), flush=True)',
          by=r'''
        import sys
        sys.stdout.write(json.dumps(event) + "\n")
        sys.stdout.flush()
'''),
    Wrong(lab='7.2', name='JsonRenderer judging the line it printed, parsed back',
          rule='"It judges each message when its event is handed over, so its verdict is the '
               'one its lines told" (Build item 1): a render that prints json.dumps(event) and '
               'then reads the label off json.loads of that very line judges the message as it '
               'was handed over and after its line was written, as the reference does; the line '
               'parses back to the event, so the label read is the event\'s (unlike a search of '
               'the line\'s text for "error", which the catalogue fails).',
          where='hunt round 26, probe 7.2-41', names='',
          replace=r'''
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
''',
          by=r'''
        line = json.dumps(event)
        print(line, flush=True)
        told = json.loads(line)  # the line as the program at the other end reads it
        ended = told["message"].get("stop_reason") if told["type"] == "message_end" else None
'''),
    Wrong(lab='7.2', name='FinalTextRenderer keeping a shallow copy of the reply',
          rule='The page holds JsonRenderer alone to a consumer\'s later write ("what a consumer '
               'writes into an event after render returned changes neither that event\'s line '
               'nor finish()"); for FinalTextRenderer it asks that the last assistant message '
               'announced decide. Keeping dict(message), whose content list is the record\'s '
               'own, sits between the reference, which keeps the record\'s dict itself, and the '
               'allowed deep copy ("FinalTextRenderer keeping a copy of the reply"), and it '
               'leaves the record as it was.',
          where='hunt round 26, probe 7.2-71', names='',
          replace=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
''',
          by=r'''
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = dict(message)  # a shallow copy: its blocks are still the record's
'''),
    # Hunt round 27 (reader r145): probe 7.1-19.
    Wrong(lab='7.1', name="copies of this run's messages in agent_end",
          rule='Build item 3 asks that agent_end carry "messages", the messages this run added, '
               'in order, and the lesson says of the events\' messages that in the reference an '
               'event carries the very dict on the record while "the tests ask only for an equal '
               'one" (Where yours is weaker): equal copies in agent_end keep a frontend\'s edits '
               'off the record, as the copies allowed in message_end, turn_end and '
               'tool_execution_end do, and keep nothing of the caller\'s past the run.',
          where='hunt round 27, probe 7.1-19', names='',
          replace=END_AGENT,
          by="""    import copy
    yield {"type": "agent_end", "messages": copy.deepcopy(added)}
"""),
    # Hunt round 29 (reader r160): probes 7.2-38, 39, 57, 58 and 65.
    Wrong(lab='7.2', name='FinalTextRenderer taking an optional stream argument',
          rule='Build: two frontends says "a new one takes no arguments": a renderer whose one '
               'parameter has a default, standard output when it is None, is made with none and '
               'prints the same line to the same place; what else it could be given is not a '
               'rule the page states.',
          where='hunt round 29, probe 7.2-38', names='',
          replace='''
    def __init__(self):
        self.last = None  # the newest assistant message so far
''',
          by='''
    def __init__(self, stream=None):
        self.last = None  # the newest assistant message so far
        self.stream = stream  # None: standard output, as it is when finish() prints
''',
          also=(('''        print(text_of(reply))
''', '''        print(text_of(reply), file=self.stream or sys.stdout)
'''), ('''import json
''', '''import json
import sys
'''))),
    Wrong(lab='7.2', name='JsonRenderer also appending its lines to a log file',
          rule='Lab 7.1\'s Build item 1 says of the loop "a log is a frontend\'s choice, made '
               'from the events": a JsonRenderer that also appends each line it prints to a file '
               'of its own (os.devnull here, so that no run leaves one behind) prints the same '
               'lines at the same moments and judges the same.',
          where='hunt round 29, probe 7.2-39', names='',
          replace='''        print(json.dumps(event), flush=True)
''',
          by='''        line = json.dumps(event)
        print(line, flush=True)
        import os
        with open(os.devnull, "a", encoding="utf-8") as log:  # the frontend's own log
            log.write(line + "\\n")
'''),
    Wrong(lab='7.2', name='JSON lines ending in a carriage return and a newline',
          rule='Build item 1 asks that every event appear "as one line that parses as JSON '
               'equal to the event": a line ended by "\\r\\n" is one line to any reader of lines, '
               'and parses the same.',
          where='hunt round 29, probe 7.2-57', names='',
          replace='''        print(json.dumps(event), flush=True)
''',
          by='''        print(json.dumps(event), end="\\r\\n", flush=True)
'''),
    Wrong(lab='7.2', name='FinalTextRenderer writing its answer a line at a time',
          rule='Build item 2 says finish() "prints once": an answer written to standard output '
               'in one write per line, with nothing printed before finish(), leaves the same '
               'text in answer.txt, printed by that one call.',
          where='hunt round 29, probe 7.2-58', names='',
          replace='''        print(text_of(reply))
''',
          by='''        for piece in (text_of(reply) + "\\n").splitlines(keepends=True):
            sys.stdout.write(piece)  # one write per line, all of them in this one finish()
''',
          also=(('''import json
''', '''import json
import sys
'''),)),
    Wrong(lab='7.2', name='JsonRenderer raising an error of its own for an event json.dumps '
                          'cannot write',
          rule='Build item 1 says an event that is not data "is the loop\'s bug: `json.dumps` '
               'raises for most of it": a renderer that raises a RuntimeError of its own, naming '
               'json.dumps\'s reason, in its place still lets the bug be seen and prints no line.',
          where='hunt round 29, probe 7.2-65', names='',
          replace='''        print(json.dumps(event), flush=True)
''',
          by='''        try:
            line = json.dumps(event)
        except (TypeError, ValueError) as problem:
            raise RuntimeError(f"event is not data: {problem}") from None
        print(line, flush=True)
'''),
    # Hunt round 30 (reader r165): probe 7.1-28.
    Wrong(lab='7.1', name='turn_end carrying the last assistant message this run added',
          rule='Build item 4 asks that turn_end carry "the turn\'s reply"; at a turn_end the '
               'last assistant message the run itself added is that reply, the same dict, '
               'whatever the consumer put on the caller\'s record meanwhile, since the run adds '
               'one reply a turn and nothing after it before turn_end. Where the loop finds the '
               'reply is not something a consumer can see.',
          where='hunt round 30, probe r165-28', names='',
          replace=r'''
        yield {"type": "turn_end", "message": reply}
''',
          by=r'''
        yield {"type": "turn_end",
               "message": [m for m in added if m["role"] == "assistant"][-1]}
'''),
    # Hunt round 30 (reader r170): design 7.2-12, probes 7.2-53 and 55.
    Wrong(lab='7.2', name='JsonRenderer passing over a dict with no type',
          rule='Lab 7.1\'s Build item 1 makes every event "a dict of plain data with a `\"type\"`", '
               'and Build: two frontends asks that "Every event it is handed" appear as a line: '
               'a dict with no "type" is no event of the course, which the reference itself '
               'meets with a KeyError once its line is out, so a JsonRenderer that prints no '
               'line for one and goes on breaks no rule the page states, and prints every '
               'event as the reference does.',
          where='hunt round 30, design 7.2-12', names='',
          replace='''
        print(json.dumps(event), flush=True)
''',
          by='''
        if "type" not in event:
            return  # not an event: every event has a type
        print(json.dumps(event), flush=True)
'''),
    Wrong(lab='7.2', name='FinalTextRenderer letting a closed pipe go at finish()',
          rule='Build item 2 says finish() "prints once and returns whether the run ended '
               'well": its value is the run\'s verdict, not whether the line reached a reader, '
               'so a FinalTextRenderer that prints its answer once, and lets a BrokenPipeError '
               'go by when the program reading its output has quit, still returns how the run '
               'ended. (JsonRenderer\'s "Every event it is handed appears" is another rule: its '
               'lines are the run as it goes, and a line lost must be said.)',
          where='hunt round 30, probe 7.2-53', names='',
          replace='''
        print(text_of(reply))
''',
          by='''
        try:
            print(text_of(reply))
        except BrokenPipeError:
            pass  # nobody reads the answer any more; the run ended well all the same
'''),
    Wrong(lab='7.2', name='JsonRenderer taking an optional stream argument',
          rule='Build: two frontends says "a new one takes no arguments": a JsonRenderer whose '
               'one parameter has a default, None for print\'s own standard output, is made '
               'with none and prints the same line to the same place at the same moment (as '
               'round 29\'s FinalTextRenderer taking an optional stream argument).',
          where='hunt round 30, probe 7.2-55', names='',
          replace='''
    def __init__(self):
        self.failed = False
''',
          by='''
    def __init__(self, stream=None):
        self.failed = False
        self.stream = stream  # None: print's own default, sys.stdout at the time
''',
          also=(('''
        print(json.dumps(event), flush=True)
''', '''
        print(json.dumps(event), file=self.stream, flush=True)
'''),)),
    # Hunt round 32 (reader r184): designs 7.2-08 and 7.2-12, probe 7.2-P5.
    Wrong(lab='7.2', name='JsonRenderer failing a message with no label that carries an error_message',
          rule='Every assistant message of the course carries a stop_reason, and only an '
               'assistant message may carry an error_message (lab.transcript\'s shapes, '
               'lab.ScriptedModel\'s replies, the boundary\'s results), so no message of the '
               'course has an error_message and no label: a JsonRenderer that also fails such a '
               'message judges every run of the course as the reference does (as "JsonRenderer '
               'failing only an assistant reply labelled error"). A labelled answer carrying a '
               'note is another matter: it ended well, and "JsonRenderer telling a failure by '
               'its error_message" stays wrong.',
          where='hunt round 32, design 7.2-08', names='',
          replace=r'''
        if ended == "error":
            self.failed = True
''',
          by=r'''
        if ended == "error" or (event["type"] == "message_end"
                                and "stop_reason" not in event["message"]
                                and event["message"].get("error_message")):
            self.failed = True  # no label, but a reason: take it as a failure
'''),
    Wrong(lab='7.2', name='FinalTextRenderer failing a reply with no label that carries an error_message',
          rule='Every assistant message of the course carries a stop_reason (lab.transcript\'s '
               'shapes, lab.ScriptedModel\'s replies), so the last assistant message announced '
               'always has a label, and a FinalTextRenderer that also fails a reply with none '
               'and a reason prints and returns what the reference does on every run of the '
               'course (as "FinalTextRenderer telling a reply by its stop_reason key"). A '
               'labelled answer carrying a note ended well, and "FinalTextRenderer failing an '
               'answer that carries a note in error_message" stays wrong.',
          where='hunt round 32, design 7.2-12', names='',
          replace='''
        if reply["stop_reason"] == "error":
''',
          by='''
        if reply.get("stop_reason") == "error" or ("stop_reason" not in reply
                                                   and reply.get("error_message")):
'''),
    Wrong(lab='7.2', name='every line kept in a list of the module as well',
          rule='"How each class keeps what it needs between two events is yours" (Build: two '
               'frontends), and "a log is a frontend\'s choice, made from the events" (Build: '
               'announce, don\'t draw, item 1, whose "nor does it keep a log in memory" is said '
               'of run_agent): a list in the module that every JsonRenderer also appends its '
               'lines to changes no line, no flush and no verdict of any renderer; what the '
               'process keeps beside that is not a rule the page states (the twin of "every '
               'answer kept on the FinalTextRenderer class as well"; the wrong design is a '
               'verdict read off what is shared, "one failure flag for every JsonRenderer, '
               'cleared by finish()").',
          where='hunt round 32, probe 7.2-P5', names='',
          replace='''
class JsonRenderer:
''',
          by='''
EVENT_LINES = []  # every line any JsonRenderer printed, kept for the process


class JsonRenderer:
''',
          also=(('''
        print(json.dumps(event), flush=True)
''', '''
        line = json.dumps(event)
        EVENT_LINES.append(line)
        print(line, flush=True)
'''),)),
    # Hunt round 35 (reader r191): probe 7.1-40.
    Wrong(lab='7.1', name='tool_execution_end with its type key written last',
          rule='Build item 1 asks for "a dict of plain data with a `\"type\"` and the keys the '
               'items below name for its type, no others", and item 6 that tool_execution_end '
               'carry "`\"call\"` and `\"result\"`": the keys, never their order. Dicts with the '
               'same keys and values are equal whatever order they were written in, and a JSON '
               'object is read by its keys, so no consumer the page describes can tell.',
          where='hunt round 35, probe r191-40', names='',
          replace=r"""
            yield {"type": "tool_execution_end", "call": call, "result": result}
""",
          by=r"""
            yield {"call": call, "result": result, "type": "tool_execution_end"}
"""),
]


DEEP_LONG_LINE = r"""import contextlib
import io
import json

import harness
import lab
from lab.kit import lab_test

LAB = "7.2"


@lab_test("JsonRenderer prints every event as one line that parses as JSON equal to it, however "
          "long: a run whose answer is over three million characters.")
async def test_a_line_of_over_three_million_characters(t):
    answer = "".join(t.random.choice("abcd {}") for _ in range(1000)) * 3_100
    model = lab.ScriptedModel([lab.say(answer)])
    events = await lab.drive(harness.run_agent(model, "You help.", [], [], "Go."))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        renderer = harness.JsonRenderer()
        for event in events:
            renderer.render(event)
    t.expect([json.loads(line) for line in out.getvalue().splitlines()] == events, True,
             "Every event appears as one line that parses as JSON equal to the event, however "
             "long: the line of the answer's message_end carries its 3,100,000 characters "
             "whole (JsonRenderer, lesson 7).")
"""

DEEP_MANY_EVENTS = r"""
import contextlib
import io
import json

import harness
from lab.kit import lab_test

LAB = "7.2"


@lab_test("JsonRenderer prints every event it is handed, however many: one renderer handed "
          "6,000 events.")
async def test_six_thousand_events(t):
    events = [{"type": "status", "number": number} for number in range(6_000)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        renderer = harness.JsonRenderer()
        for event in events:
            renderer.render(event)
    lines = out.getvalue().splitlines()
    t.expect([len(lines), [json.loads(line) for line in lines] == events], [6_000, True],
             "JsonRenderer prints every event it is handed, one line each, however many: "
             "6,000 events make 6,000 lines (JsonRenderer, lesson 7).")
"""

DEEP_PAST_FIVE_MILLION = r"""
import contextlib
import io
import json

import harness
import lab
from lab.kit import lab_test

LAB = "7.2"


@lab_test("JsonRenderer prints every event as one line that parses as JSON equal to it, however "
          "long: an answer's message_end of over six million characters.")
async def test_a_line_of_over_six_million_characters(t):
    event = {"type": "message_end", "message": lab.say("abcd {}" * 900_000)}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        harness.JsonRenderer().render(event)
    t.expect([json.loads(line) for line in out.getvalue().splitlines()] == [event], True,
             "Every event appears as one line that parses as JSON equal to the event, however "
             "long: the line of the answer's message_end carries its 6,300,000 characters "
             "whole (JsonRenderer, lesson 7).")
"""

DEEP_PAST_A_HUNDRED_THOUSAND_EVENTS = r"""
import contextlib
import io

import harness
import lab
from lab.kit import lab_test

LAB = "7.2"


@lab_test("JsonRenderer's finish() returns False when any message it saw announced had "
          "stop_reason \"error\": a failed reply after 120,000 events.")
async def test_a_failure_after_many_events(t):
    status = {"type": "status"}
    renderer = harness.JsonRenderer()
    with contextlib.redirect_stdout(io.StringIO()):
        for _ in range(120_000):
            renderer.render(status)
        renderer.render({"type": "message_end", "message": lab.fail("overloaded")})
    t.expect(renderer.finish(), False,
             "False when any message it saw announced had stop_reason \"error\", however many "
             "events came before it: a failed reply's message_end after 120,000 events "
             "(JsonRenderer, lesson 7).")
"""

DEEP_PAST_EIGHT_MILLION = r"""
import harness
import lab
from lab.kit import lab_test

LAB = "7.2"


@lab_test("FinalTextRenderer's answer goes out whole, however long: an answer of nine million "
          "characters.")
async def test_an_answer_of_nine_million_characters(t):
    answer = "0123456789 abcdefg\n" * 480_000
    renderer = harness.FinalTextRenderer()
    renderer.render({"type": "message_end", "message": lab.say(answer)})
    value, said = t.printed(renderer.finish)
    t.expect([value, len(said), said == answer + "\n"], [True, len(answer) + 1, True],
             "The answer goes out whole, however long: an answer of 9,120,000 characters "
             "(FinalTextRenderer, lesson 7).")
"""

DEEP_A_REASON_PAST_A_MILLION = r"""
import harness
import lab
from lab.kit import lab_test

LAB = "7.2"


@lab_test("FinalTextRenderer says why a run failed, \"Error: \" and its error_message word for "
          "word, however long: a reason of two million characters.")
async def test_a_reason_of_two_million_characters(t):
    reason = "  retry 1: overloaded\n" * 91_000
    renderer = harness.FinalTextRenderer()
    renderer.render({"type": "message_end", "message": lab.fail(reason)})
    value, said = t.printed(renderer.finish)
    t.expect([value, len(said), said == "Error: " + reason + "\n"],
             [False, len(reason) + 8, True],
             "The text frontend says why, \"Error: \" and then error_message word for word, "
             "nothing cut, however long: a reason of 2,002,000 characters (FinalTextRenderer, "
             "lesson 7).")
"""

DEEP_PAST_A_MILLION_EVENTS = r"""
import harness
import lab
from lab.kit import lab_test

LAB = "7.2"


@lab_test("For FinalTextRenderer the last assistant message announced decides, however many "
          "events came before it: an answer after 1,100,000 failed replies.")
async def test_an_answer_after_a_million_events(t):
    failed = {"type": "message_end", "message": lab.fail("overloaded")}
    renderer = harness.FinalTextRenderer()
    for _ in range(1_100_000):
        renderer.render(failed)
    renderer.render({"type": "message_end", "message": lab.say("Back up.")})
    t.expect(t.printed(renderer.finish), (True, "Back up.\n"),
             "The last assistant message announced decides, however many events came before "
             "it: an answer after 1,100,000 failed replies (FinalTextRenderer, lesson 7).")
"""

DEEP_PAST_THE_TESTS = r"""
import contextlib
import io
import time

import harness
import lab
from lab.kit import lab_test, tool

LAB = "7.1"
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def looker(size=0):
    return tool("look", lambda arguments: "x" * size if size else "seen " + arguments["path"],
                PATH)


def wide(calls):
    return lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": f"f{n}.py"})
                                          for n in range(calls)]), lab.say("Done.")])


@lab_test("Two runs of 700 turns: every event is a new dict, never yielded again.")
async def test_two_long_runs(t):
    kept = []
    for _ in range(2):
        asked = [0]

        def again(request):
            asked[0] += 1
            return lab.reply(lab.call("look", {"path": "a.py"})) if asked[0] <= 700 \
                else lab.say("Done.")
        kept += await lab.drive(harness.run_agent(lab.ScriptedModel([lab.forever(again)]),
                                                  "You help.", [], [looker()], "Go."))
    t.expect([len(kept), len({id(event) for event in kept})], [len(kept)] * 2,
             "Each event is a new dict, made when it is yielded and never yielded again. "
             "Items: the events of two runs of 700 turns, the different dicts among them "
             "(run_agent, lesson 7).")


@lab_test("One reply of 1,000 calls: only the twelve events' types, each call between its "
          "two tool events.")
async def test_a_reply_of_a_thousand_calls(t):
    events = await lab.drive(harness.run_agent(wide(1000), "You help.", [], [looker()], "Go."))
    kinds = sorted({event["type"] for event in events})
    t.expect(kinds, sorted(set(["agent_start", "turn_start", "message_end", "tool_execution_start",
                                "tool_execution_end", "turn_end", "agent_end"])),
             "A run yields only the twelve events of Figure 7.1, repeated, however many calls "
             "a reply holds. The item: the types of the events of a reply of 1,000 calls "
             "(run_agent, lesson 7).")
    t.expect([sum(e["type"] == "tool_execution_start" for e in events),
              sum(e["type"] == "tool_execution_end" for e in events)], [1000, 1000],
             "Each call's tool is announced by tool_execution_start and followed by "
             "tool_execution_end, however many calls the reply holds. Items: the starts, the "
             "ends (run_agent, lesson 7).")


@lab_test("A result of 5,000,000 characters: announced once, and carried whole.")
async def test_a_result_of_five_million_characters(t):
    messages = []
    events = await lab.drive(harness.run_agent(wide(1), "You help.", messages,
                                               [looker(5_000_000)], "Go."))
    t.expect([sum(e["type"] == "message_end" for e in events),
              [len(e["result"]["content"]) for e in events if e["type"] == "tool_execution_end"]],
             [len(messages), [5_000_000]],
             "Every message the run records is announced once by a message_end, and "
             "tool_execution_end carries the result recorded, whole, however long. Items: the "
             "message_end events, the length of the end's result (run_agent, lesson 7).")


@lab_test("A run whose every clock reading is a day after the last prints nothing.")
async def test_a_run_of_days(t):
    names = ("monotonic", "time", "perf_counter")
    saved = {name: getattr(time, name) for name in names}
    days = [saved["time"]()]

    def a_day_later():
        days[0] += 86_400.0
        return days[0]
    printed = io.StringIO()
    for name in names:
        setattr(time, name, a_day_later)
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            await lab.drive(harness.run_agent(wide(2), "You help.", [], [looker()], "Go."))
    finally:
        for name, clock in saved.items():
            setattr(time, name, clock)
    t.expect(printed.getvalue(), "",
             "run_agent prints nothing, however long the run takes: each clock reading here "
             "is a day after the last (run_agent, lesson 7).")
"""


DEEP_A_WIDE_REPLY_AS_JSON = r"""
import json

import harness
import lab
from lab.kit import lab_test, tool

LAB = "7.1"
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
LOOK = tool("look", lambda arguments: "seen " + arguments["path"], PATH)


@lab_test("A reply of 400 calls: every event plain data, equal after json.dumps and back.")
async def test_a_reply_of_four_hundred_calls_as_json(t):
    model = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": f"f{n}.py"})
                                           for n in range(400)]), lab.say("Done.")])
    events = await lab.drive(harness.run_agent(model, "You help.", [], [LOOK], "Go."))
    t.expect([len(events), sum(json.loads(json.dumps(e)) != e for e in events)], [1209, 0],
             "However many calls a reply holds, each event is a dict of plain data, which "
             "json.dumps writes and json.loads gives back equal. Items: the events, those not "
             "equal after the round trip (run_agent, lesson 7).")
"""


DEEP_A_LONG_RUN_A_WIDE_REPLY_A_LONG_RECORD = r"""
import contextlib
import gc
import io
import os
import warnings
import weakref

import harness
import lab
from lab.kit import lab_test, tool

LAB = "7.1"
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
LOOK = tool("look", lambda arguments: "seen " + arguments["path"], PATH)


async def quietly(run):
    # Drive `run` with standard output and error caught and every warning kept: (the events,
    # what was printed and warned, the name of the exception that ended it, or None). A
    # ResourceWarning the garbage collector raises for a file the checker left open is the
    # checker's, not the run's: only one from harness.py counts.
    printed, died, events = io.StringIO(), None, []
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed), \
            warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        try:
            events = await lab.drive(run)
        except Exception as error:
            died = type(error).__name__
    said = [f"{w.category.__name__}: {w.message}\n" for w in warned
            if not issubclass(w.category, ResourceWarning)
            or os.path.basename(w.filename) == "harness.py"]
    return events, printed.getvalue() + "".join(said), died


@lab_test("A run of 1,500 turns: a loop that prints nothing, warns nothing, writes no file, and "
          "yields a new dict for each event.")
async def test_a_run_of_fifteen_hundred_turns(t):
    asked = [0]

    def again(request):
        asked[0] += 1
        return lab.reply(lab.call("look", {"path": "a.py"})) if asked[0] < 1500 \
            else lab.say("Done.")
    before = os.listdir(".")
    events, printed, died = await quietly(harness.run_agent(
        lab.ScriptedModel([lab.forever(again)]), "You help.", [], [LOOK], "Go."))
    made = sorted(set(os.listdir(".")) - set(before))
    t.expect([died, printed, made, len({id(e) for e in events}) == len(events)],
             [None, "", [], True],
             "A run of more turns repeats a turn's part for each as a loop, however long: no "
             "RecursionError; it prints nothing (a warning included) and writes no file, "
             "whatever turn it is on; each event is a new dict, never yielded again. Items: "
             "the exception that ended the run, what was printed, the files it made, every "
             "event a different dict (run_agent, lesson 7).")
    t.expect([events[-1]["type"] if events else None,
              len(events[-1].get("messages", [])) if events else 0], ["agent_end", 3000],
             "agent_end comes last, once, on every way out, and carries the messages this run "
             "added, in order, however long the run. Items: the last event, the number of "
             "messages it carries, of a run of 1,500 turns (run_agent, lesson 7).")


@lab_test("A reply of 1,000 calls: nothing printed, and each event a new dict.")
async def test_a_reply_of_a_thousand_calls_quietly(t):
    model = lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": f"f{n}.py"})
                                           for n in range(1000)]), lab.say("Done.")])
    events, printed, died = await quietly(harness.run_agent(model, "You help.", [], [LOOK], "Go."))
    t.expect([died, printed, len({id(e) for e in events}) == len(events)], [None, "", True],
             "However many calls a reply holds, run_agent prints nothing, and each event is a "
             "new dict, never yielded again. Items: the exception that ended the run, what was "
             "printed, every event a different dict (run_agent, lesson 7).")


@lab_test("A run on a record of 3,000 earlier messages keeps nothing of it once agent_end is "
          "yielded.")
async def test_a_record_of_three_thousand_messages(t):
    class Record(list):
        pass
    record = Record([harness.user_message("Earlier."), lab.say("Noted.")] * 1500)
    gone = weakref.ref(record)
    events = await lab.drive(harness.run_agent(lab.ScriptedModel([lab.say("Done.")]), "You help.",
                                               record, [LOOK], "Go."))
    del record
    gc.collect()
    t.expect([events[-1]["type"], gone() is None], ["agent_end", True],
             "Once agent_end is yielded the run keeps nothing of the caller's, however long "
             "the record: a record of 3,000 earlier messages, dropped by the caller after the "
             "run, is gone. Items: the last event, the record is gone (run_agent, lesson 7).")
"""


BEYOND = [
    # Hunt round 16 (reader r85): designs 7.2-16 and 7.2-17.
    Beyond(lab='7.2', name='JSON lines over 2,000,000 characters replaced by a stub',
           rule='Every event JsonRenderer is handed appears as one line that parses as JSON '
                'equal to the event, however long.',
           where='Build: two frontends, item 1 (hunt round 16, 7.2-16)',
           names='however long',
           reach="test_json_renderer's longest line carries an answer of about a million "
                 'characters (the bank\'s, at most 600,000); writing and parsing back a line of '
                 'two million characters costs about 6 ms of processor time, most of what a new '
                 "case may add to the lab's run, and a cut at any larger size would sit past it "
                 'again; this stub is met only by a line over 2,000,000 characters',
           replace='        print(json.dumps(event), flush=True)',
           by=r"""
        line = json.dumps(event)
        if len(line) > 2_000_000:  # a limit just past the tests' million-character answer
            line = json.dumps({"type": event["type"], "truncated": True})
        print(line, flush=True)
""",
           deep=DEEP_LONG_LINE),
    Beyond(lab='7.2', name='JsonRenderer silent after 5,000 events',
           rule='Every event JsonRenderer is handed appears at once as one line, however many '
                'events one renderer is handed.',
           where='Build: two frontends, item 1 (hunt round 16, 7.2-17)',
           names='every event it is handed',
           reach="the lab's tests hand one JsonRenderer at most 3,301 events, and the bank's "
                 'at most 2,701 (round 30); a JsonRenderer line costs about 1.7 microseconds of '
                 'processor time to print, about 8 under the check (6,000 more measured 48 ms in '
                 'round 30), more than a new case may add to the lab\'s run, and a count at any '
                 "larger size would sit past it again; "
                 'this design differs only from the 5,001st event',
           replace=r"""
    def __init__(self):
        self.failed = False

    def render(self, event):
        print(json.dumps(event), flush=True)
""",
           by=r"""
    def __init__(self):
        self.failed = False
        self.count = 0

    def render(self, event):
        self.count += 1
        if self.count <= 5000:  # enough for any run
            print(json.dumps(event), flush=True)
""",
           deep=DEEP_MANY_EVENTS),
    # Hunt round 19 (reader r103): designs 7.2-17, 46 and 47, each a limit past the largest
    # case the lab's tests try, where a case past it costs more than a test may add.
    Beyond(lab='7.2', name='JSON lines cut at 5,000,000 characters',
           rule='Every event JsonRenderer is handed appears as one line that parses as JSON '
                'equal to the event, however long.',
           where='Build: two frontends, item 1 (hunt round 19, 7.2-17)',
           names='however long',
           reach="test_json_renderer's longest line carries an answer of about a million "
                 "characters; writing and parsing back a line of over five million costs about "
                 "30 ms of processor time, three times what a new case may add to the lab's run, "
                 "and a cut at any larger size would sit past it again (as the stub past "
                 "2,000,000 characters of round 16); this design differs only past 5,000,000",
           replace='        print(json.dumps(event), flush=True)',
           by='        print(json.dumps(event)[:5_000_000], flush=True)',
           deep=DEEP_PAST_FIVE_MILLION),
    Beyond(lab='7.2', name='JsonRenderer judging no message past the 100,000th event',
           rule="JsonRenderer's finish() returns False when any message it saw announced had "
                'stop_reason "error", however many events came before it.',
           where='Build: two frontends, item 1: "when any message it saw announced had" '
                 '(hunt round 19, 7.2-46)',
           names='any message it saw',
           reach="the lab's tests hand one JsonRenderer at most 3,301 events (3,000 before its "
                 "failed reply), and the bank's at most 2,701; a JsonRenderer line costs over a "
                 "microsecond of processor time (about 8 under the check, measured in round 30, "
                 "where 6,000 more events cost 48 ms), so 100,000 events cost over 100 ms, ten "
                 "times what a new case may add to the lab's run, and a count at any larger size "
                 "would sit past it again (as round 30's 7.2-19, judging up to the 5,000th); "
                 'this design differs only from the 100,001st event',
           replace=r"""
    def __init__(self):
        self.failed = False

    def render(self, event):
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
""",
           by=r"""
    def __init__(self):
        self.failed = False
        self.count = 0

    def render(self, event):
        print(json.dumps(event), flush=True)
        self.count += 1
        judged = event["type"] == "message_end" and self.count <= 100_000  # enough for any run
        ended = event["message"].get("stop_reason") if judged else None
""",
           deep=DEEP_PAST_A_HUNDRED_THOUSAND_EVENTS),
    # Hunt round 22 (reader r122): designs 7.2-31 and 32, each a cut past the longest text
    # the lab's tests try, where a case past it costs more than a test may add.
    Beyond(lab='7.2', name='the answer cut at 8,000,000 characters',
           rule="FinalTextRenderer prints the last answer's text whole, however long.",
           where='Build: two frontends, item 2 (hunt round 22, 7.2-31)',
           names='however long',
           reach="test_final_text_renderer's longest answer is five and a half to seven million "
                 "characters (the size drawn), which already costs a few ms of processor time; "
                 "an answer past eight million costs about 2 ms a million more, and a cut at any "
                 "larger size would sit past it again (as the cut at 5,000,000 of round 19 did "
                 "not); this design differs only past 8,000,000",
           replace='        print(text_of(reply))',
           by='        print(text_of(reply)[:8_000_000])',
           deep=DEEP_PAST_EIGHT_MILLION),
    Beyond(lab='7.2', name='the error reason cut at a million characters',
           rule='FinalTextRenderer prints "Error: " and the failed reply\'s error_message word '
                'for word, however long.',
           where='Build: two frontends, item 2 (hunt round 22, 7.2-32)',
           names='however long',
           reach="test_a_failed_run_did_not_end_well's longest reason is 600,000 to 950,000 "
                 "characters, checked by its length since round 30 (its 150,000 to 300,000 are "
                 "held whole as the check's observation in expected.json), and the bank's at most "
                 "about 950,000; a reason of five and a half to "
                 "seven million, checked by its length as the long answer is, measured 13 ms of "
                 "processor time, more than a new case may add to the lab's run, and a cut at "
                 "any larger size would sit past a smaller case again; this design differs only "
                 "past 1,000,000 characters",
           replace=r"""            print(f"Error: {reply.get('error_message')}")""",
           by=r"""            print(f"Error: {str(reply.get('error_message'))[:1_000_000]}")""",
           deep=DEEP_A_REASON_PAST_A_MILLION),
    Beyond(lab='7.2', name='FinalTextRenderer deaf after a million events',
           rule='For FinalTextRenderer the last assistant message announced decides, however '
                'many events came before it.',
           where='Build: two frontends, item 2: "The last assistant message announced decides" '
                 '(hunt round 19, 7.2-47)',
           names='last assistant message announced decides',
           reach="the lab's tests hand one FinalTextRenderer at most 9,001 events, the bank's "
                 "at most 14,001 (round 30); a "
                 "render costs about 60 nanoseconds of processor time, so a million events "
                 "cost about 60 ms, six times what a new case may add to the lab's run, and a "
                 "count at any larger size would sit past it again; this design differs only "
                 "from the 1,000,001st event",
           replace=r"""
    def __init__(self):
        self.last = None  # the newest assistant message so far

    def render(self, event):
        message = event.get("message")
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
""",
           by=r"""
    def __init__(self):
        self.last = None  # the newest assistant message so far
        self.count = 0

    def render(self, event):
        message = event.get("message")
        self.count += 1
        if self.count > 1_000_000:  # enough for any run
            return
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
""",
           deep=DEEP_PAST_A_MILLION_EVENTS),
    # Hunt round 17 (reader r90): designs 7.1-06, 24, 30, 35, 36, 37 and 38, each a limit
    # just past the largest case the lab's tests try.
    Beyond(lab='7.1', name='one turn_start dict for every turn past the 301st',
           rule='Each event is a new dict, made when it is yielded and never yielded again, '
                'however long the run.',
           where='Build: announce, don\'t draw, item 7: "Each event is a new dict, made when it '
                 'is yielded and never yielded again" (hunt round 17, 7.1-06)',
           names='never yielded again',
           reach="test_each_event_is_a_new_dict's longest runs are two of 300 turns (the bank's "
                 "fewer); a turn of the reference costs about 30 microseconds of processor "
                 "time there, so runs past a limit of a few hundred turns cost a few ms each, "
                 "and a limit at any larger count would sit past them again; this design "
                 "differs only from the 302nd turn",
           replace='''        yield {"type": "turn_start"}
''',
           by='''        if turn <= 301:
            last_start = {"type": "turn_start"}
        yield last_start  # past 301 turns the same dict comes back
''',
           deep=DEEP_PAST_THE_TESTS, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name='one agent_end dict for every run of over 301 turns',
           rule='Each event is a new dict, made when it is yielded and never yielded again, of '
                'this run or a later one, however long the run.',
           where='Build: announce, don\'t draw, item 7: "Each event is a new dict, made when it '
                 'is yielded and never yielded again" (hunt round 17, 7.1-30)',
           names='never yielded again',
           reach="test_each_event_is_a_new_dict's longest runs are two of 300 turns; this design "
                 "differs only in runs of over 301, and a limit at any larger count would sit "
                 "past a longer run again, each turn about 30 microseconds of processor time",
           replace='''    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''',
           by='''    if turn > 301:  # a long run's ending: one dict will do
        ending = run_agent.__dict__.setdefault("long_end", {"type": "agent_end"})
        ending["messages"] = added
        yield ending
    else:
        yield {"type": "agent_end", "messages": added}
''',
           deep=DEEP_PAST_THE_TESTS, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name='no tool events for the calls of a reply past the 301st',
           rule="Each call's tool is announced by tool_execution_start and followed by "
                "tool_execution_end, however many calls the reply holds.",
           where='Build: announce, don\'t draw, item 6 (hunt round 17, 7.1-24)',
           names='however many calls',
           reach="test_tool_events_carry_the_call's widest reply holds 301 calls (the bank's, "
                 "just over 300); a call costs about 20 microseconds of processor time, so a "
                 "reply of thousands costs tens of ms, and a limit at any larger count would "
                 "sit past it again; this design differs only from the 302nd call of a reply",
           replace='''        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)  # straight after the tool returned: nothing in between
            yield {"type": "tool_execution_end", "call": call, "result": result}
''',
           by='''        for index, call in enumerate(calls):
            if index < 301:
                yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)
            if index < 301:
                yield {"type": "tool_execution_end", "call": call, "result": result}
''',
           deep=DEEP_PAST_THE_TESTS, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name='a batch_start event before a reply of over 301 calls',
           rule='A run yields only the events of Figure 7.1, each with the keys Build item 1 '
                'names, however many calls a reply holds.',
           where='Build: announce, don\'t draw, items 1 and 2 (hunt round 17, 7.1-36)',
           names='only the twelve events',
           reach="test_tool_events_carry_the_call's widest reply holds 301 calls; this design "
                 "differs only for a reply of 302 or more, and a limit at any larger count "
                 "would sit past a wider reply again, each call about 20 microseconds",
           replace='''        calls = [] if failed else tool_calls(reply)
''',
           by='''        calls = [] if failed else tool_calls(reply)
        if len(calls) > 301:
            yield {"type": "batch_start", "count": len(calls)}
''',
           deep=DEEP_PAST_THE_TESTS, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name='results over a million characters recorded without a message_end',
           rule='Every message the run records is announced once, by a message_end, however '
                'long.',
           where='Build: announce, don\'t draw, item 5: "Every message the run records is '
                 'announced once" (hunt round 17, 7.1-35)',
           names='however long',
           reach="test_tool_events_carry_the_call's longest result is drawn up to exactly "
                 "1,000,000 characters (the bank's, 300,000); a longer one costs little, but "
                 "this design differs only past the longest size drawn, and a cut at any larger "
                 "size would sit past a longer draw again",
           replace='''            yield record(result)  # straight after the tool returned: nothing in between
''',
           by='''            if len(result["content"]) > 1_000_000:  # too big to send to a screen
                messages.append(result)
                added.append(result)
            else:
                yield record(result)
''',
           deep=DEEP_PAST_THE_TESTS, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name="tool_execution_end's result cut at a million characters",
           rule='tool_execution_end carries the result recorded for its call, whole, however '
                'long.',
           where='Build: announce, don\'t draw, item 6 (hunt round 17, 7.1-37)',
           names='however long',
           reach="test_tool_events_carry_the_call's longest result is drawn up to exactly "
                 "1,000,000 characters; this design differs only past that size, and a cut at "
                 "any larger size would sit past a longer draw again",
           replace='''            yield {"type": "tool_execution_end", "call": call, "result": result}
''',
           by='''            shown = result if len(result["content"]) <= 1_000_000 else \\
                dict(result, content=result["content"][:1_000_000])
            yield {"type": "tool_execution_end", "call": call, "result": shown}
''',
           deep=DEEP_PAST_THE_TESTS, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name='a progress line printed once a run is six hours old',
           rule='run_agent prints nothing, however long the run takes.',
           where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 17, '
                 '7.1-38)',
           names='however long the run takes',
           reach="test_the_loop_draws_nothing runs with the clock as it is, and the tests that "
                 "move it (hours_pass) move it a minute a reading over runs of a few turns; "
                 "this design differs only once the clock says six hours have gone, and a "
                 "limit at any longer time would sit past a faster clock again",
           replace='''        yield {"type": "turn_start"}
''',
           by='''        yield {"type": "turn_start"}
        import time
        began = began if turn > 1 else time.time()  # the run's own start, kept in the run
        if time.time() - began > 6 * 3600:
            print(f"still working, turn {turn}...")
''',
           deep=DEEP_PAST_THE_TESTS, turns=50_000, seconds=10.0),
    # Hunt round 20 (reader r108): designs 7.1-11, 12, 14, 29, 30 and 31, each a limit just
    # past the largest case the lab's tests try (13 is 'one turn_start dict for every turn past
    # the 301st' above, at 400).
    Beyond(lab='7.1', name='a progress line printed for a reply of over 400 calls',
           rule='run_agent prints nothing, however many calls a reply holds.',
           where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 20, '
                 '7.1-11)',
           names='prints nothing',
           reach="test_tool_events_carry_the_call's widest reply holds 301 calls; a call costs "
                 "about 20 microseconds of processor time, and a limit at any larger count "
                 "would sit past a wider reply again; this design differs only for a reply of "
                 "401 or more",
           replace='''        calls = [] if failed else tool_calls(reply)
''',
           by='''        calls = [] if failed else tool_calls(reply)
        if len(calls) > 400:
            print(f"running {len(calls)} tools...")
''',
           deep=DEEP_A_LONG_RUN_A_WIDE_REPLY_A_LONG_RECORD, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name='a log file appended to past the 1,000th turn',
           rule='The loop writes no file, whatever turn it is on: a log is a frontend\'s choice.',
           where='Build: announce, don\'t draw, item 1: "writes no file (a log is a frontend\'s '
                 'choice, made from the events)" (hunt round 20, 7.1-12)',
           names='writes no file',
           reach="the lab's longest runs are of 300 turns, about 30 microseconds of processor "
                 "time each; this design differs only from the 1,001st turn, and a limit at any "
                 "larger count would sit past a longer run again",
           replace='''        yield {"type": "turn_start"}
''',
           by='''        yield {"type": "turn_start"}
        if turn > 1000:  # a long run leaves a trace
            with open("agent.log", "a") as log:
                log.write(f"turn {turn}\\n")
''',
           deep=DEEP_A_LONG_RUN_A_WIDE_REPLY_A_LONG_RECORD, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name='a warning given at the 1,000th turn',
           rule='run_agent prints nothing, a warning included, whatever turn it is on.',
           where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 20, '
                 '7.1-30)',
           names='prints nothing',
           reach="the lab's longest runs are of 300 turns; this design differs only at the "
                 "1,000th, and a turn at any larger count would sit past a longer run again, "
                 "each turn about 30 microseconds of processor time",
           replace='''        yield {"type": "turn_start"}
''',
           by='''        yield {"type": "turn_start"}
        if turn == 1000:
            import warnings
            warnings.warn("a long run: 1,000 turns")
''',
           deep=DEEP_A_LONG_RUN_A_WIDE_REPLY_A_LONG_RECORD, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name='each turn past the 250th running the next inside itself',
           rule="A run of more turns repeats a turn's part for each, one after another, as a "
                "loop, however long: a turn that runs the next inside itself goes a frame "
                "deeper each turn, and a long run dies of RecursionError.",
           where='Build: announce, don\'t draw, item 2: "a run of more turns or more calls '
                 'repeats a turn\'s part for each" (hunt round 20, 7.1-14)',
           names='RecursionError',
           reach="test_the_twelve_events' long run is of 200 turns and the lab's longest of 300; "
                 "this design nests only from the 251st turn, so a run dies only past about "
                 "1,200 turns, and a start at any larger count would sit past a longer run "
                 "again",
           replace='''    turn, calls, pending = 0, [], [user_message(prompt)]
    while calls or pending:  # one lap is one turn
''',
           by='''    def laps(turn, calls, pending):
     while calls or pending:  # one lap is one turn
''',
           also=(('''        yield {"type": "turn_end", "message": reply}
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
''', '''        yield {"type": "turn_end", "message": reply}
        if turn >= 250 and calls:  # a long run: the next turn inside this one
            yield from laps(turn, calls, pending)
            return
    yield from laps(0, [], [user_message(prompt)])
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
'''),),
           deep=DEEP_A_LONG_RUN_A_WIDE_REPLY_A_LONG_RECORD, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name='one tool_execution_start dict for a reply of over 400 calls',
           rule='Each event is a new dict, made when it is yielded and never yielded again, '
                'however many calls a reply holds.',
           where='Build: announce, don\'t draw, item 7: "Each event is a new dict, made when it '
                 'is yielded and never yielded again" (hunt round 20, 7.1-29)',
           names='never yielded again',
           reach="test_tool_events_carry_the_call's widest reply holds 301 calls; this design "
                 "differs only for a reply of 401 or more, and a limit at any larger count "
                 "would sit past a wider reply again, each call about 20 microseconds",
           replace='''            yield {"type": "tool_execution_start", "call": call}
''',
           by='''            if len(calls) > 400:  # a wide reply: one dict, filled again for each call
                start = run_agent.__dict__.setdefault("start", {})
                start.clear()
                start.update(type="tool_execution_start", call=call)
                yield start
            else:
                yield {"type": "tool_execution_start", "call": call}
''',
           deep=DEEP_A_LONG_RUN_A_WIDE_REPLY_A_LONG_RECORD, turns=50_000, seconds=10.0),
    # Hunt round 23 (reader r127): design 7.1-19, a rule kept only up to the widest reply tried.
    Beyond(lab='7.1', name='a tuple in the calls of a reply of over 301 calls',
           rule='Each event is a dict of plain data, however many calls a reply holds.',
           where='Build: announce, don\'t draw, item 1: "each a dict of plain data" (hunt round '
                 '23, 7.1-19)',
           names='plain data',
           reach="test_tool_events_carry_the_call's widest reply holds 301 calls (the quiet "
                 "test's, 150 to 301); this design differs only for a reply of 302 or more, and a "
                 "limit at any larger count would sit past a wider reply again, each call about "
                 "20 microseconds",
           replace='''            yield {"type": "tool_execution_start", "call": call}
''',
           by='''            yield {"type": "tool_execution_start",
                   "call": call if len(calls) <= 301 else dict(call, position=(1, 2))}
''',
           deep=DEEP_A_WIDE_REPLY_AS_JSON, turns=50_000, seconds=10.0),
    # Hunt round 27 (reader r145): designs 7.1-22, 35, 36, 39 and 44, each a limit just past
    # the longest runs the lab's tests try.
    Beyond(lab='7.1', name="agent_end carrying only a run's last 1,000 messages",
           rule='agent_end carries the messages this run added to the record, in order, however '
                'long the run.',
           where='Build: announce, don\'t draw, item 3: "`agent_end` carries `"messages"`: the '
                 'messages this run added to the record, in order" (hunt round 27, 7.1-22)',
           names='however long the run',
           reach="the lab's longest runs add 602 messages (two of 300 turns in "
                 "test_each_event_is_a_new_dict), each turn about 30 microseconds of processor "
                 "time; this design differs only for a run that adds over 1,000, and a cap at "
                 "any larger count would sit past a longer run again",
           replace=END_AGENT,
           by="""    yield {"type": "agent_end", "messages": added[-1000:]}  # enough for anyone
""", deep=DEEP_A_LONG_RUN_A_WIDE_REPLY_A_LONG_RECORD, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name="agent_end carrying only a run's last 650 messages",
           rule='agent_end carries the messages this run added to the record, in order, however '
                'long the run.',
           where='Build: announce, don\'t draw, item 3: "`agent_end` carries `"messages"`: the '
                 'messages this run added to the record, in order" (hunt round 27, 7.1-36)',
           names='however long the run',
           reach="the lab's longest runs add 602 messages (two of 300 turns in "
                 "test_each_event_is_a_new_dict), each turn about 30 microseconds of processor "
                 "time; this cap sits just past them, and a case past it would only move the "
                 "cap again: a run of over 325 turns, or a reply of over 650 calls",
           replace=END_AGENT,
           by="""    yield {"type": "agent_end", "messages": added[-650:]}  # past the longest run tried
""", deep=DEEP_A_LONG_RUN_A_WIDE_REPLY_A_LONG_RECORD, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name='no agent_end for an answer past the 400th turn',
           rule='agent_start comes first and agent_end last, once each, on every way out, '
                'however long the run.',
           where='Build: announce, don\'t draw, item 3: "`agent_start` comes first and '
                 '`agent_end` last, once each, on every way out" (hunt round 27, 7.1-44)',
           names='however long the run',
           reach="test_each_event_is_a_new_dict's longest runs are two of 300 turns (the "
                 "bank's, 255 to 300); this design differs only for a run that answers past "
                 "its 400th turn, and a limit at any larger count would sit past a longer run "
                 "again, each turn about 30 microseconds of processor time",
           replace="""        yield {"type": "turn_end", "message": reply}
""",
           by="""        yield {"type": "turn_end", "message": reply}
        if turn > 400 and not calls and not failed:  # a long run has said enough
            return
""", deep=DEEP_A_LONG_RUN_A_WIDE_REPLY_A_LONG_RECORD, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name='a turn number printed past the 500th turn',
           rule='run_agent prints nothing, however long the run.',
           where='Build: announce, don\'t draw, item 1: "It prints nothing" (hunt round 27, '
                 '7.1-39)',
           names='prints nothing',
           reach="test_each_event_is_a_new_dict's two runs of 300 turns are the longest the "
                 "lab's quiet checks hear; this design differs only past the 500th turn, and a "
                 "limit at any larger count would sit past a longer run again, each turn about "
                 "30 microseconds of processor time",
           replace="""        yield {"type": "turn_start"}
""",
           by="""        yield {"type": "turn_start"}
        if turn > 500:  # a long run: say how far it got
            print(f"turn {turn}")
""", deep=DEEP_A_LONG_RUN_A_WIDE_REPLY_A_LONG_RECORD, turns=50_000, seconds=10.0),
    Beyond(lab='7.1', name='one turn_start dict for every turn past the 400th',
           rule='Each event is a new dict, made when it is yielded and never yielded again, '
                'however long the run.',
           where='Build: announce, don\'t draw, item 7: "Each event is a new dict, made when it '
                 'is yielded and never yielded again" (hunt round 27, 7.1-35)',
           names='never yielded again',
           reach="test_each_event_is_a_new_dict's longest runs are two of 300 turns; this "
                 "design differs only from the 401st turn, and a limit at any larger count "
                 "would sit past a longer run again, each turn about 30 microseconds of "
                 "processor time",
           replace="""        yield {"type": "turn_start"}
""",
           by="""        if turn <= 400:
            yield {"type": "turn_start"}
        else:  # a long run: one dict will do
            yield run_agent.__dict__.setdefault("late_start", {"type": "turn_start"})
""", deep=DEEP_A_LONG_RUN_A_WIDE_REPLY_A_LONG_RECORD, turns=50_000, seconds=10.0),
]
