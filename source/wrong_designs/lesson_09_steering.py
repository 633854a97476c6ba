"""Lesson 9's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
lab 9.1's reference; the rule is the lesson's principle or the part of it the design breaks.
"""
from tools.wrong_designs import Beyond, Wrong

WRONG = [
    Wrong(lab='9.1', name='appending the steer at once',
          rule="The user's words enter the record only at the top of a turn, where every call has its result.",
          where='the scene "Also, the tests live in tests/" (AppendAtOnce)',
          names='top of a turn',
          replace='        self._steering_queue.append(user_message(text))',
          by='        self._messages.append(user_message(text))'),
    Wrong(lab='9.1', name='inserting the steer mid-batch',
          rule='Steering is asked for only in a gap, after turn_end, never between a call and its result.',
          where='prediction "When the loop asks" (straight after c1\'s result)',
          names='never between a call and its result',
          replace=r'''
                yield {"type": "tool_execution_end", "call": call, "result": result}
''',
          by=r'''
                yield {"type": "tool_execution_end", "call": call, "result": result}
                for message in ask(get_steering):  # straight after this call's result
                    yield record(message)
'''),
    Wrong(lab='9.1', name='interrupting the tool: skipping the calls still owed',
          rule='A steer is advice, not a Stop: every call of the batch runs and has its result before the words go in.',
          where='prediction "When the loop asks" (skip c2); Build recap',
          names='A call and its result stay together',
          replace='            for call in todo:',
          by=r'''
            for call in todo:
                pending = ask(get_steering)  # the user spoke: drop the rest of the batch
                if pending:
                    break
'''),
    Wrong(lab='9.1', name='draining everything at once',
          rule='One message per ask: each steer gets its own turn, oldest first.',
          where='section "One at a time"; Build recap',
          names='one message',
          replace='        return [queue[0]] if queue else []',
          by='        return list(queue)'),
    Wrong(lab='9.1', name='taken when handed over',
          rule='A queued message leaves its queue only once it is on the record.',
          where='section "When a message leaves its queue" (TakenWhenHandedOver); Build recap; Tau\'s gap',
          names='only once it is on the record',
          replace='        return [queue[0]] if queue else []',
          by='        return [queue.popleft()] if queue else []'),
    Wrong(lab='9.1', name='discarding queues at run end',
          rule='Queues belong to the harness and outlive runs; a harness drops nothing the user said.',
          where='section "Words typed while nothing runs"; Build recap',
          names='outlives the run',
          replace=r'''
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
''',
          by=r'''
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
            self._steering_queue.clear()
            self._follow_up_queue.clear()
'''),
    Wrong(lab='9.1', name='offering follow-ups every turn',
          rule='Follow-ups are asked for only where the run would otherwise end, never after a turn whose reply had calls.',
          where='section "Steer, or follow up"; Build recap',
          names='only after a reply with no calls',
          replace=r'''
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
''',
          by=r'''
            if not failed:
                pending = ask(get_steering) + ask(get_follow_ups)  # offered every turn
'''),
    Wrong(lab='9.1', name='steer() raising when idle',
          rule="steer() may be called at any time; steering sent while idle joins the next prompt's turn.",
          where='prediction "Words typed while nothing runs"; Build recap',
          names='raises nothing',
          replace='        self._steering_queue.append(user_message(text))',
          by=r'''
        if not self.is_running:
            raise RuntimeError("nothing is running to steer")
        self._steering_queue.append(user_message(text))
'''),
    Wrong(lab='9.1', name='asking for steering after a failed reply',
          rule='A failed reply ends the run, and nobody is asked for anything after it.',
          where='section "When the loop asks" (a reply that failed is never followed by a question)',
          names='After a failed reply nobody is asked',
          replace=r'''
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
''',
          by=r'''
            pending = ask(get_steering)  # asked even after a failed reply
'''),
    Wrong(lab='9.1', name='asking for follow-ups after a failed reply',
          rule='A failed run asks nobody for anything; a follow-up queued during it waits for the next run.',
          where='the cell "a follow-up queued during a run whose reply fails"',
          names='Nobody is asked for more after a failed reply',
          replace=r'''
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
''',
          by=r'''
        pending = ask(get_follow_ups)  # asked even after a failed reply
'''),
    Wrong(lab='9.1', name='a blank steer dropped',
          rule='steer(text) queues the words as a user message, whatever they hold: a blank steer is still the user\'s.',
          where='lab 9.1, gap 1: "`steer(text)` and `follow_up(text)`"',
          names='a blank one is still the user',
          replace=r'''
        self._steering_queue.append(user_message(text))
''',
          by=r'''
        if text.strip():
            self._steering_queue.append(user_message(text))
'''),
    Wrong(lab='9.1', name='a blank follow-up dropped',
          rule='follow_up(text) queues the words as a user message, whatever they hold: a blank follow-up is still the user\'s.',
          where='lab 9.1, gap 1: "`steer(text)` and `follow_up(text)`"',
          names='a blank one is still the user',
          replace=r'''
        self._follow_up_queue.append(user_message(text))
''',
          by=r'''
        if text.strip():
            self._follow_up_queue.append(user_message(text))
'''),
    Wrong(lab='9.1', name='a steer trimmed',
          rule='steer(text) queues the words word for word: spaces at their ends are part of them.',
          where='lab 9.1, gap 1: "`steer(text)` and `follow_up(text)`"',
          names='spaces at its ends are part of it',
          replace=r'''
        self._steering_queue.append(user_message(text))
''',
          by=r'''
        self._steering_queue.append(user_message(text.strip()))
'''),
    Wrong(lab='9.1', name='the callables called without ask',
          rule='Without the two callables, run_agent behaves exactly as in lesson 8: None means nobody to ask.',
          where='lab 9.1, Build section: "Without the two callables"',
          names='nobody to ask',
          replace=r'''
    pending = [user_message(prompt)] + ask(get_steering)  # steering sent while idle joins in
''',
          by=r'''
    pending = [user_message(prompt)] + list(get_steering())
'''),
    Wrong(lab='9.1', name='asking for steering before turn_end',
          rule='get_steering is called when the run begins and after the turn_end of every turn whose reply did not fail, and at no other moment.',
          where='Build item 3; found by a release-only reader (round 2, 9.1-1)',
          names='not before turn_end is handed over',
          replace=r'''
            yield {"type": "turn_end", "message": reply}
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
''',
          by=r'''
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
            yield {"type": "turn_end", "message": reply}
'''),
    Wrong(lab='9.1', name='a follow-up taken when handed over',
          rule='A message that was handed over and never recorded, because the run was closed in between, is handed over again by the next ask: a follow-up as much as a steer.',
          where='Build item 2; found by a release-only reader (round 2, 9.1-2)',
          names='only once it is on the record',
          replace='        return [queue[0]] if queue else []',
          by=r'''
        if queue is self._follow_up_queue:  # a follow-up is as good as delivered once handed over
            return [queue.popleft()] if queue else []
        return [queue[0]] if queue else []
'''),
    Wrong(lab='9.1', name='every follow-up handed over at once',
          rule='_drain(queue) hands the loop at most one message per ask, the oldest waiting: follow-ups too.',
          where='Build item 2; found by a release-only reader (round 2, 9.1-3)',
          names='at most one message',
          replace='        return [queue[0]] if queue else []',
          by=r'''
        if queue is self._follow_up_queue:  # the run is ending anyway: hand them all over
            return list(queue)
        return [queue[0]] if queue else []
'''),
    Wrong(lab='9.1', name='clearing the queues when a run ends well',
          rule='Queues belong to the harness and outlive runs; a harness drops nothing the user said.',
          where='Build section, first paragraph (queues cleared when a run ends); found by a release-only reader (round 2, 9.1-5)',
          names='outlive the run',
          replace=r'''
                yield event
        finally:  # exhausted, closed by the consumer, or dying
''',
          by=r'''
                yield event
            if self._messages and self._messages[-1].get("stop_reason") != "error":
                self._steering_queue.clear()  # the run ended well: what is left is stale
                self._follow_up_queue.clear()
        finally:  # exhausted, closed by the consumer, or dying
'''),
    Wrong(lab='9.1', name='every idle steer handed over with the prompt',
          rule='_drain(queue) hands the loop at most one message per ask: two steers sent together reach the model in two turns, sent while idle too.',
          where='Build item 2; found by a release-only reader (round 2, 9.1-6)',
          names='like every ask',
          replace=r'''
                        get_steering=lambda: self._drain(self._steering_queue),
''',
          by=r'''
                        get_steering=self._steering_asker(),
''',
          also=((r'''
    def _run(self, text):
''', r'''
    def _steering_asker(self):
        asked = []

        def get():  # the run's first ask hands over every steer sent while idle
            if not asked:
                asked.append(True)
                return list(self._steering_queue)
            return self._drain(self._steering_queue)
        return get

    def _run(self, text):
'''),)),
    Wrong(lab='9.1', name='a trailing line break dropped',
          rule='steer(text) queues the words word for word: a line break at their end is part of them.',
          where='lab 9.1, gap 1; Build item 1; found by a release-only reader (round 2, 9.1-7)',
          names='a line break too',
          replace=r'''
        self._steering_queue.append(user_message(text))
''',
          by=r'''
        self._steering_queue.append(user_message(text.rstrip("\n")))  # the text box's newline
'''),
    Wrong(lab='9.1', name='the same steer twice taken as one',
          rule='steer(text) queues the words at the back of the queue, behind any sent before them: a harness drops nothing the user said.',
          where='lab 9.1, gap 1; Build item 1; found by a release-only reader (round 2, 9.1-8)',
          names='drops nothing the user said',
          replace=r'''
        self._steering_queue.append(user_message(text))
''',
          by=r'''
        if not (self._steering_queue and self._steering_queue[-1]["content"] == text):  # a double click
            self._steering_queue.append(user_message(text))
'''),
    # Hunt round 6 (reader r20): seventeen designs the lab's tests passed, each now failing.
    Wrong(lab='9.1', name='popped at hand-over and put back when the run ends',
          rule='A queued message leaves its queue only once it is on the record: between the asking and the recording it is in two places, not in the loop alone.',
          where='section "When a message leaves its queue": "Between the asking and the recording, the message exists in two places"; hunt round 6, 9.1-1',
          names='only once it is on the record',
          replace=r"""
        return [queue[0]] if queue else []
""",
          by=r"""
        if not queue:
            return []
        message = queue.popleft()  # taken at hand-over
        self._handed.append((queue, message))
        return [message]
""",
          also=((r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""", r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
        self._handed = []  # (queue, message) handed to the loop, not yet recorded
"""), (r"""
                    self._delivered(event["message"])
                yield event
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""", r"""
                    self._handed = [(q, m) for q, m in self._handed if m is not event["message"]]
                yield event
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
            for queue, message in reversed(self._handed):  # put back what was never recorded
                queue.appendleft(message)
            self._handed = []
"""))),
    Wrong(lab='9.1', name='follow-ups asked for after a failed reply, the answer thrown away',
          rule='get_follow_ups is called only when the run would otherwise end, never after a failed reply: an owner that counts a message as handed over loses it otherwise.',
          where='Build item 4: "never after a failed reply"; hunt round 6, 9.1-2',
          names='never after a failed reply',
          replace=r"""
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          by=r"""
        offered = ask(get_follow_ups)  # ask, then decide
        pending = [] if failed else offered
"""),
    Wrong(lab='9.1', name='steering asked for again before the follow-ups',
          rule='get_steering is called when the run begins and after the turn_end of every turn whose reply did not fail, and at no other moment: not a second time before get_follow_ups.',
          where='Build item 3: "and at no other moment"; hunt round 6, 9.1-3',
          names='at no other moment',
          replace=r"""
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          by=r"""
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
            if get_follow_ups:  # steering first: it outranks a follow-up
                pending = ask(get_steering) or ask(get_follow_ups)
"""),
    Wrong(lab='9.1', name='a message taken off its queue by equal words',
          rule='A message leaves its queue only once it is on the record, itself: a follow-up with a steer\'s words is not delivered by the steer.',
          where='section "When a message leaves its queue"; "A harness drops nothing the user said."; hunt round 6, 9.1-4 (a given line)',
          names='itself and not one that looks like it',
          replace=r"""
            if queue and queue[0] is message:
""",
          by=r"""
            if queue and queue[0] == message:
"""),
    Wrong(lab='9.1', name='one message for the same words in both queues',
          rule='Each steer and follow-up waits as a user message of its own: a harness drops nothing the user said.',
          where='Build item 1; "A harness drops nothing the user said."; hunt round 6, 9.1-5',
          names='drops nothing the user said',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(self._said(text))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(self._said(text))

    def _said(self, text):  # one user message per text
        if not hasattr(self, "_cache"):
            self._cache = {}
        return self._cache.setdefault(text, user_message(text))
"""),)),
    Wrong(lab='9.1', name='queues of twenty at most',
          rule='A harness drops nothing the user said, however much is queued.',
          where='"A harness drops nothing the user said."; hunt round 6, 9.1-6',
          names='a queue has no limit',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        self._steering_queue, self._follow_up_queue = deque(maxlen=20), deque(maxlen=20)
"""),
    Wrong(lab='9.1', name='line breaks made Unix ones',
          rule='steer(text) and follow_up(text) queue the words word for word: a \\r\\n or \\r is the user\'s too.',
          where='Build item 1: "word for word"; hunt round 6, 9.1-7',
          names='a line break too',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(text.replace("\r\n", "\n").replace("\r", "\n")))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(user_message(text.replace("\r\n", "\n").replace("\r", "\n")))
"""),)),
    Wrong(lab='9.1', name='queues shared by every harness',
          rule='Each harness keeps two queues of its own, made in its __init__: a steer reaches only the harness it was sent to.',
          where='the given comment in `__init__`; "the queues are private"; hunt round 6, 9.1-8 (a given line)',
          names='queues of its own',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        pass  # the queues are class attributes
""",
          also=((r"""
    def __init__(self, model, system, tools, messages=(), max_turns=None):
""", r"""
    _steering_queue, _follow_up_queue = deque(), deque()  # one pair for the class

    def __init__(self, model, system, tools, messages=(), max_turns=None):
"""),)),
    Wrong(lab='9.1', name='a fresh max_turns for each follow-up',
          rule='A follow-up is answered in the same run, so its turns count toward the run\'s max_turns model calls.',
          where='Build item 4: "A follow-up sent during a run is answered in that run"; run_agent\'s docstring (max_turns); hunt round 6, 9.1-9',
          names="count toward the run's max_turns",
          replace=r"""
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          by=r"""
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
            if pending:
                turn = 0  # a follow-up is a fresh request, with its own budget
"""),
    Wrong(lab='9.1', name='the loop keeps one message of each ask',
          rule='Whoever owns the queue decides what a call hands over, and whatever is in pending at the top of a turn is recorded there: the loop cuts nothing.',
          where='section "Two messages in the queue": "Whoever owns the queue decides what a call to them hands over"; Build: "Whatever is in `pending` at the top of a turn is recorded there"; hunt round 6, 9.1-10',
          names='whoever owns the queue decides what a call hands over',
          replace=r"""
    pending = [user_message(prompt)] + ask(get_steering)  # steering sent while idle joins in
""",
          by=r"""
    pending = [user_message(prompt)] + ask(get_steering)[:1]  # one per turn
""",
          also=((r"""
                pending = ask(get_steering)  # every call of this turn has its result
""", r"""
                pending = ask(get_steering)[:1]  # one per turn
"""), (r"""
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""", r"""
            pending = ask(get_follow_ups)[:1]  # one per turn
"""))),
    Wrong(lab='9.1', name='steering cleared after a failed run',
          rule='Queues outlive runs, however they ended: a steer left queued by a run whose reply failed waits for the next run.',
          where='the Harness docstring (Queues outlive runs); hunt round 6, 9.1-11',
          names='however it ended',
          replace=r"""
        try:
            for event in inner:
                if event["type"] == "message_end":
                    self._delivered(event["message"])
                yield event
""",
          by=r"""
        failed = False
        try:
            for event in inner:
                if event["type"] == "message_end":
                    self._delivered(event["message"])
                    if event["message"]["role"] == "assistant":
                        failed = event["message"].get("stop_reason") == "error"
                yield event
            if failed:
                self._steering_queue.clear()  # advice for a job that failed is stale
"""),
    Wrong(lab='9.1', name='queues cleared when a run dies',
          rule='Queues outlive runs, however they ended: stopping a run never loses a queued message, a run that died of an exception neither.',
          where='the Harness docstring (stopping a run never loses one); hunt round 6, 9.1-12',
          names='nothing clears them when a run dies',
          replace=r"""
                yield event
        finally:  # exhausted, closed by the consumer, or dying
""",
          by=r"""
                yield event
        except Exception:  # the run crashed: start the next one clean
            self._steering_queue.clear()
            self._follow_up_queue.clear()
            raise
        finally:  # exhausted, closed by the consumer, or dying
"""),
    Wrong(lab='9.1', name='taken off its queue after its message_end is handed on',
          rule='At the message_end that announces a message, and not before, the harness takes it off its queue, before it yields that event: a run closed there does not deliver it twice.',
          where='section "When a message leaves its queue": "the message leaves its queue at the `message_end` that announces it, and not before"; hunt round 6, 9.1-13 (given lines)',
          names='does not deliver it twice',
          replace=r"""
                if event["type"] == "message_end":
                    self._delivered(event["message"])
                yield event
""",
          by=r"""
                yield event
                if event["type"] == "message_end":  # tidy up once the consumer has it
                    self._delivered(event["message"])
"""),
    Wrong(lab='9.1', name='no steering asked for once max_turns is spent',
          rule='get_steering is called after the turn_end of every turn whose reply did not fail, the last one max_turns allows too.',
          where='Build item 3: "after the `turn_end` of every turn whose reply did not fail"; hunt round 6, 9.1-14',
          names='the last one too',
          replace=r"""
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
""",
          by=r"""
            if not failed and (max_turns is None or turn < max_turns):
                pending = ask(get_steering)  # every call of this turn has its result
"""),
    Wrong(lab='9.1', name="long words cut to lesson 6's budget",
          rule="steer(text) and follow_up(text) queue the words word for word, however long: lesson 6's budget is for tool results.",
          where='Build item 1: "word for word"; hunt round 6, 9.1-17',
          names='however long',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if len(text.encode()) > MAX_BYTES or text.count("\n") > MAX_LINES:
            text = truncate_tail(text)[0]  # the budget of lesson 6
        self._steering_queue.append(user_message(text))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        if len(text.encode()) > MAX_BYTES or text.count("\n") > MAX_LINES:
            text = truncate_tail(text)[0]
        self._follow_up_queue.append(user_message(text))
"""),)),
    Wrong(lab='9.1', name='follow-ups asked for before the last turn_end',
          rule='get_follow_ups is called where the run would otherwise end, after that turn\'s turn_end is handed over: a follow-up sent at that turn_end is answered in the same run.',
          where='figure 9.1: "at two questions after turn_end"; Build item 4; hunt round 6, 9.1-18',
          names="not before that turn's turn_end is handed over",
          replace=r"""
            todo = [] if failed else tool_calls(reply)  # the calls this turn owes a result
""",
          by=r"""
            todo = [] if failed else tool_calls(reply)  # the calls this turn owes a result
            offered = ask(get_follow_ups) if not failed and not todo else []  # the run ends here
""",
          also=((r"""
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""", r"""
            pending = offered
"""),)),
    Wrong(lab='9.1', name='steering asked for again while it gives something new',
          rule='get_steering is called once when the run begins, and at no other moment but after a turn_end.',
          where='Build item 3: "and at no other moment"; hunt round 6, 9.1-24',
          names='at no other moment',
          replace=r"""
    pending = [user_message(prompt)] + ask(get_steering)  # steering sent while idle joins in
""",
          by=r"""
    pending = [user_message(prompt)]
    while True:  # everything typed while idle goes in with the prompt
        got = [m for m in ask(get_steering) if all(m is not p for p in pending)]
        if not got:
            break
        pending += got
"""),
    Wrong(lab='9.1', name='tabs expanded to spaces',
          rule='steer(text) and follow_up(text) queue the words word for word: a tab is the user\'s too.',
          where='Build item 1: "word for word"; hunt round 11, 9.1-03 (r48)',
          names='nothing is expanded, normalised, stripped or tidied',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(text.expandtabs(4)))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(user_message(text.expandtabs(4)))
"""),)),
    Wrong(lab='9.1', name='words normalised to NFKC',
          rule='steer(text) and follow_up(text) queue the words word for word: a ligature, a full-width digit or an accent in two code points is the user\'s too.',
          where='Build item 1: "word for word"; hunt round 11, 9.1-04 (r48)',
          names='nothing is expanded, normalised, stripped or tidied',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        import unicodedata
        self._steering_queue.append(user_message(unicodedata.normalize("NFKC", text)))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        import unicodedata
        self._follow_up_queue.append(user_message(unicodedata.normalize("NFKC", text)))
"""),)),
    Wrong(lab='9.1', name='a paste cut to ten thousand lines',
          rule="steer(text) and follow_up(text) queue the words word for word, however long: no cap of the harness's own, at lesson 6's budget or past it.",
          where='Build item 1: "word for word"; hunt round 11, 9.1-05 (r48)',
          names='however long',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        text = "".join(text.splitlines(keepends=True)[:10_000])
        self._steering_queue.append(user_message(text))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        text = "".join(text.splitlines(keepends=True)[:10_000])
        self._follow_up_queue.append(user_message(text))
"""),)),
    Wrong(lab='9.1', name="a paste's lines stripped of trailing spaces",
          rule='steer(text) and follow_up(text) queue the words word for word: spaces at the end of a pasted line are the user\'s too.',
          where='Build item 1: "word for word"; hunt round 11, 9.1-31 (r48)',
          names='nothing is expanded, normalised, stripped or tidied',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if text.count("\n") >= 2:  # a paste: tidy its lines
            text = "\n".join(line.rstrip(" \t") for line in text.split("\n"))
        self._steering_queue.append(user_message(text))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        if text.count("\n") >= 2:
            text = "\n".join(line.rstrip(" \t") for line in text.split("\n"))
        self._follow_up_queue.append(user_message(text))
"""),)),
    Wrong(lab='9.1', name='colour codes stripped',
          rule='steer(text) and follow_up(text) queue the words word for word: a terminal\'s colour codes in a paste are the user\'s too.',
          where='Build item 1: "word for word"; hunt round 11, 9.1-32 (r48)',
          names='nothing is expanded, normalised, stripped or tidied',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        import re
        text = re.sub(r"\x1b\[[0-9;]*m", "", text)
        self._steering_queue.append(user_message(text))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        import re
        text = re.sub(r"\x1b\[[0-9;]*m", "", text)
        self._follow_up_queue.append(user_message(text))
"""),)),
    Wrong(lab='9.1', name='steering asked for mid-batch once a batch is long',
          rule='get_steering is called only when the run begins and after a turn_end, never while a call of the run lacks its result, however wide the batch.',
          where='Build item 3: "and at no other moment"; hunt round 11, 9.1-13 (r48)',
          names='however wide the batch',
          replace=r"""
                yield {"type": "tool_execution_end", "call": call, "result": result}
""",
          by=r"""
                yield {"type": "tool_execution_end", "call": call, "result": result}
                if len(todo) > 5 and call is todo[4]:  # do not keep the user waiting
                    for message in ask(get_steering):
                        yield record(message)
"""),
    Wrong(lab='9.1', name='a steer that starts with "stop" appended at once',
          rule='steer(text) only queues, whatever its words: a keyword test in front of appending at once breaks the record as appending at once does.',
          where='section "Stop, wrong folder!" (the common answer "Deliver steering straight away when it starts with \'stop\'"); Build item 1; hunt round 11, 9.1-27 (r48)',
          names='however urgent its words',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if text.lower().startswith("stop") and self.is_running:  # urgent: in at once
            self._messages.append(user_message(text))
            return
        self._steering_queue.append(user_message(text))
"""),
    Wrong(lab='9.1', name='queues of sixty-four at most',
          rule='A harness drops nothing the user said, however much is queued: a queue has no limit of its own.',
          where='"A harness drops nothing the user said."; hunt round 11, 9.1-06 (r48)',
          names='a queue has no limit',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        self._steering_queue, self._follow_up_queue = deque(maxlen=64), deque(maxlen=64)
"""),
    Wrong(lab='9.1', name='steering asked for in the first sixty turns only',
          rule='get_steering is called after the turn_end of every turn whose reply did not fail, however long the run.',
          where='Build item 3: "after the `turn_end` of every turn whose reply did not fail"; hunt round 11, 9.1-14 (r48)',
          names='however long the run',
          replace=r"""
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
""",
          by=r"""
            if not failed and turn < 60:  # a runaway run takes no more steering
                pending = ask(get_steering)  # every call of this turn has its result
"""),
    Wrong(lab='9.1', name='fifty follow-ups a run at most',
          rule='A follow-up sent during a run is answered in that run: a run answers every follow-up that waits, however many.',
          where='Build item 4: "A follow-up sent during a run is answered in that run"; hunt round 11, 9.1-26 (r48)',
          names='however many',
          replace=r"""
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          by=r"""
        if not failed and taken < 50:  # a runaway guard: the rest wait for the next run
            taken += 1
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          also=((r"""
    turn, todo, failed = 0, [], False
""", r"""
    turn, todo, failed, taken = 0, [], False, 0
"""),)),
    Wrong(lab='9.1', name='a steer with the same words as the last user message ignored',
          rule='A harness drops nothing the user said: words sent again, even the ones just recorded, wait as a user message of their own.',
          where='Build item 1: "word for word"; "A harness drops nothing the user said."; hunt round 11, 9.1-07 (r48)',
          names='even words it has just recorded',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        said = [m["content"] for m in self._messages if m["role"] == "user"]
        if said and said[-1] == text:  # a double Send
            return
        self._steering_queue.append(user_message(text))
"""),
    Wrong(lab='9.1', name="a queued steer taken off by the prompt's equal words",
          rule='A message leaves its queue only once it is itself on the record: the prompt\'s message_end, with the same words, takes nothing off a queue.',
          where='section "When a message leaves its queue"; hunt round 11, 9.1-11 (r48; a given line, as round 6\'s 9.1-4)',
          names='once it is itself on the record',
          replace=r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
""",
          by=r"""
            if queue and queue[0] == message:
                queue.popleft()
                return
"""),
    Wrong(lab='9.1', name='no steering asked for once a follow-up is taken',
          rule="get_steering is called after the turn_end of every turn whose reply did not fail, a follow-up's turns too.",
          where='Build item 3: "after the `turn_end` of every turn whose reply did not fail"; hunt round 11, 9.1-15 (r48)',
          names="a follow-up's turns are turns like any other",
          replace=r"""
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
""",
          by=r"""
            if not failed and not wrapping_up:  # the run is wrapping up: no more steering
                pending = ask(get_steering)  # every call of this turn has its result
""",
          also=((r"""
    turn, todo, failed = 0, [], False
""", r"""
    turn, todo, failed, wrapping_up = 0, [], False, False
"""), (r"""
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""", r"""
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
            wrapping_up = wrapping_up or bool(pending)
"""))),
    Wrong(lab='9.1', name='queues cleared when max_turns stops a run',
          rule='Queues outlive runs, however they ended: a follow-up queued during a run that max_turns stopped waits for the next run.',
          where='the Harness docstring (Queues outlive runs); hunt round 11, 9.1-33 (r48)',
          names='stopped by max_turns as much as any other',
          replace=r"""
                if event["type"] == "message_end":
                    self._delivered(event["message"])
                yield event
""",
          by=r"""
                if event["type"] == "message_end":
                    self._delivered(event["message"])
                    if str(event["message"].get("error_message", "")).startswith(
                            "Agent stopped after max_turns"):  # the words belonged to that run
                        self._steering_queue.clear()
                        self._follow_up_queue.clear()
                yield event
"""),
    Wrong(lab='9.1', name='queues handed on from a harness nobody holds',
          rule='Each harness keeps two queues of its own, made in its __init__ and gone with it: a harness made later starts with none of an older one\'s words.',
          where='the given comment in `__init__` (two queues kept by the harness); the Harness docstring; hunt round 11, 9.1-19 (r48)',
          names='no new harness starts with a steer sent to one before it',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        self._steering_queue, self._follow_up_queue = (
            _SPARE.pop() if _SPARE else (deque(), deque()))
        weakref.finalize(self, _SPARE.append,  # a closed tab's queues serve the next one
                         (self._steering_queue, self._follow_up_queue))
""",
          also=((r"""
class Harness:
""", r"""
import weakref

_SPARE = []  # queues of harnesses nobody holds any more


class Harness:
"""),)),
    Wrong(lab='9.1', name='the loop handed the deques themselves',
          rule='run_agent is given get_steering and get_follow_ups, two functions, never a deque: the loop never touches a queue.',
          where='section "Two messages in the queue": "`run_agent` is not given a deque."; hunt round 11, 9.1-12 (r48)',
          names='the loop never touches a queue',
          replace=r"""
        return list(get()) if get else []
""",
          by=r"""
        if isinstance(get, deque):  # handed a queue: peek at its head
            return [get[0]] if get else []
        return list(get()) if get else []
""",
          also=((r"""
                        get_steering=lambda: self._drain(self._steering_queue),
                        get_follow_ups=lambda: self._drain(self._follow_up_queue))
""", r"""
                        get_steering=self._steering_queue,
                        get_follow_ups=self._follow_up_queue)
"""),)),
    Wrong(lab='9.1', name='steering asked for after a slow call, in the middle of its batch',
          rule="`get_steering` is called when the run begins, once the consumer has had `agent_start`, and after the `turn_end` of every turn whose reply did not fail, and at no other moment; so it is never called while a call of the run lacks its result.",
          where='lab 9.1, Build item 3: "and at no other moment"; found by a release-only reader (round 11, 9.1-34)',
          names='at no other moment',
          replace=r'''
                result = run_tool(tools, call)
                yield record(result)  # straight after the tool returned: nothing in between
                yield {"type": "tool_execution_end", "call": call, "result": result}
''',
          by=r'''
                import time
                began = time.monotonic()
                result = run_tool(tools, call)
                slow = time.monotonic() - began > 30  # the user waited: let them say something
                yield record(result)  # straight after the tool returned: nothing in between
                yield {"type": "tool_execution_end", "call": call, "result": result}
                if slow:
                    for message in ask(get_steering):
                        yield record(message)
'''),
    Wrong(lab='9.1', name='steering asked for after a slow call by the nanosecond clock',
          rule="`get_steering` is called when the run begins, once the consumer has had `agent_start`, and after the `turn_end` of every turn whose reply did not fail, and at no other moment; so it is never called while a call of the run lacks its result, however long its batch has taken by any clock.",
          where='lab 9.1, Build item 3: "and at no other moment"; found by a release-only reader (round 15, 9.1-05)',
          names='at no other moment',
          replace=r'''
                result = run_tool(tools, call)
                yield record(result)  # straight after the tool returned: nothing in between
                yield {"type": "tool_execution_end", "call": call, "result": result}
''',
          by=r'''
                import time
                began = time.monotonic_ns()
                result = run_tool(tools, call)
                slow = time.monotonic_ns() - began > 30e9  # the user waited: let them speak
                yield record(result)  # straight after the tool returned: nothing in between
                yield {"type": "tool_execution_end", "call": call, "result": result}
                if slow:
                    for message in ask(get_steering):
                        yield record(message)
'''),
    Wrong(lab='9.1', name='steering asked for before agent_start is handed over',
          rule="`get_steering` is called when the run begins, once the consumer has had `agent_start`, and after the `turn_end` of every turn whose reply did not fail, and at no other moment.",
          where='lab 9.1, Build item 3: "once the consumer has had `agent_start`"; found by a release-only reader (round 11, probe 9.1-23)',
          names='when the run begins',
          replace=r'''
    yield {"type": "agent_start"}
    turn, todo, failed = 0, [], False
    pending = [user_message(prompt)] + ask(get_steering)  # steering sent while idle joins in
''',
          by=r'''
    early = ask(get_steering)  # asked at once, with the run
    yield {"type": "agent_start"}
    turn, todo, failed = 0, [], False
    pending = [user_message(prompt)] + early  # steering sent while idle joins in
'''),
    # Hunt round 12 (reader r62): lab 9.1 the day its starter stopped giving _delivered.
    Wrong(lab='9.1', name='taken off its queue at the next ask',
          rule='A message leaves its queue at the `message_end` that announces it, and not before, nor later: _delivered takes it off as its message_end goes by, not the next call of _drain.',
          where='Build item 2 ("A message leaves its queue once it is itself on the record"); the given line above _run; hunt round 12, 9.1-01 (r62)',
          names='not at some later ask',
          replace=r"""
        return [queue[0]] if queue else []
""",
          by=r"""
        while queue and any(m is queue[0] for m in self._messages):  # recorded since: gone now
            queue.popleft()
        return [queue[0]] if queue else []
""",
          also=((r"""
        for queue in (self._steering_queue, self._follow_up_queue):
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
""", r"""
        pass  # _drain tidies up at its next call
"""),)),
    Wrong(lab='9.1', name='queues of two hundred and fifty-six at most',
          rule='A harness drops nothing the user said: a queue has no limit, and each text waits behind every one of its kind sent before it.',
          where='Build item 1 ("behind any of the same kind sent before them"); hunt round 12, 9.1-02 (r62)',
          names='a queue has no limit',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if len(self._steering_queue) < 256:  # more than a screenful waiting: drop the rest
            self._steering_queue.append(user_message(text))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        if len(self._follow_up_queue) < 256:
            self._follow_up_queue.append(user_message(text))
"""),)),
    Wrong(lab='9.1', name='a paste cut at a million characters',
          rule='steer(text) and follow_up(text) queue the text word for word, however long.',
          where='Build item 1 ("word for word"); hunt round 12, 9.1-03 (r62)',
          names='however long',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(text[:1_000_000]))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(user_message(text[:1_000_000]))
"""),)),
    Wrong(lab='9.1', name="a paste's NUL characters and byte-order mark stripped",
          rule='steer(text) and follow_up(text) queue the text word for word: nothing is tidied, a NUL character or a byte-order mark no more than a tab.',
          where='Build item 1 ("word for word"); hunt round 12, 9.1-04 (r62)',
          names='word for word',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(text.replace("\x00", "").removeprefix("\ufeff")))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(user_message(text.replace("\x00", "").removeprefix("\ufeff")))
"""),)),
    Wrong(lab='9.1', name='_drain giving back a tuple',
          rule='`_drain` is what the loop is handed each time it calls `get_steering` or `get_follow_ups`: a list of at most one message, the oldest waiting, or `[]`.',
          where='Build item 2 ("a list of at most one message, the oldest waiting, or `[]`"); hunt round 12, 9.1-05 (r62)',
          names='gives back a list',
          replace=r"""
        return [queue[0]] if queue else []
""",
          by=r"""
        return (queue[0],) if queue else ()
"""),
    Wrong(lab='9.1', name='queues cleared when a prompt is refused',
          rule='Queues outlive runs, and a prompt refused while a run is going clears nothing: a harness drops nothing the user said.',
          where='the Harness docstring (Queues outlive runs); Build section: "queues that are cleared when a run ends"; hunt round 12, 9.1-07 (r62)',
          names='a refused prompt clears nothing',
          replace=r"""
            raise RuntimeError("already running; use steer() or follow_up()")
""",
          by=r"""
            self._steering_queue.clear()  # the user started over
            self._follow_up_queue.clear()
            raise RuntimeError("already running; use steer() or follow_up()")
"""),
    Wrong(lab='9.1', name='steering cleared when max_turns stops a run',
          rule='Queues outlive runs, however they ended: a steer sent at the agent_end of a run max_turns stopped waits for the next run.',
          where='the Harness docstring (Queues outlive runs); Build section: "queues that are cleared when a run ends"; hunt round 12, 9.1-08 (r62)',
          names='steering as much as follow-ups',
          replace=r"""
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        finally:  # exhausted, closed by the consumer, or dying
            last = self._messages[-1] if self._messages else {}
            if str(last.get("error_message", "")).startswith("Agent stopped after max_turns"):
                self._steering_queue.clear()  # steering was for the run that was stopped
            inner.close()
"""),
    Wrong(lab='9.1', name='a steer that starts with "stop" put first',
          rule='A steer waits behind any steer sent before it, however urgent its words.',
          where='Build item 1 ("behind any of the same kind sent before them"); the Stop scene\'s common answers; hunt round 12, 9.1-15 (r62)',
          names='however urgent its words',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if text.lower().startswith("stop"):  # urgent: ahead of older steers
            self._steering_queue.appendleft(user_message(text))
        else:
            self._steering_queue.append(user_message(text))
"""),
    Wrong(lab='9.1', name='"STOP" appended at once',
          rule='`steer(text)` and `follow_up(text)` only queue: nothing is recorded, no run is touched, whatever the words.',
          where='Build item 1 ("only queue"); hunt round 12, 9.1-16 (r62)',
          names='only queues, however urgent',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if text.strip() == "STOP":  # the one word that cannot wait
            self._messages.append(user_message(text))
            return
        self._steering_queue.append(user_message(text))
"""),
    Wrong(lab='9.1', name='words already waiting dropped unless the newest',
          rule='A harness drops nothing the user said: the same words sent again wait again, near or far from the first.',
          where='Build item 1 ("behind any of the same kind sent before them"); hunt round 12, 9.1-17 (r62)',
          names='not even words already waiting',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if any(m["content"] == text for m in list(self._steering_queue)[:-1]):
            return  # said already and still waiting
        self._steering_queue.append(user_message(text))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        if any(m["content"] == text for m in list(self._follow_up_queue)[:-1]):
            return
        self._follow_up_queue.append(user_message(text))
"""),)),
    Wrong(lab='9.1', name='queues shared by the harnesses of one model',
          rule='Each harness keeps two queues of its own, made in its __init__, whatever it shares with another harness.',
          where='the given comment in `__init__` (two queues kept by the harness); hunt round 12, 9.1-18 (r62)',
          names='whatever it shares with another',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        self._steering_queue, self._follow_up_queue = _QUEUES.setdefault(model, (deque(), deque()))
""",
          also=((r"""
class Harness:
""", r"""
_QUEUES = weakref.WeakKeyDictionary()  # one pair of queues per model


class Harness:
"""),)),
    Wrong(lab='9.1', name="a queued follow-up taken off by the prompt's equal words",
          rule='Only that message leaves: the prompt can say the same words as a queued follow-up and still be another message.',
          where='Build item 2 ("the prompt, or a steer and a follow-up, can say the same words as a queued message and still be another message"); hunt round 12, 9.1-25 (r62)',
          names='in either queue',
          replace=r"""
        for queue in (self._steering_queue, self._follow_up_queue):
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
""",
          by=r"""
        if self._steering_queue and self._steering_queue[0] is message:
            self._steering_queue.popleft()
        elif self._follow_up_queue and self._follow_up_queue[0] == message:
            self._follow_up_queue.popleft()
"""),
    Wrong(lab='9.1', name='a blank text dropped while a run is going',
          rule='A blank text is the user\'s too, and waits like any other, running or idle.',
          where='Build item 1 ("a blank text is the user\'s too, and waits like any other"); hunt round 12, 9.1-26 (r62)',
          names='running or idle',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if self.is_running and not text.strip():  # a stray Enter mid-run
            return
        self._steering_queue.append(user_message(text))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        if self.is_running and not text.strip():
            return
        self._follow_up_queue.append(user_message(text))
"""),)),
    Wrong(lab='9.1', name='words trimmed while a run is going',
          rule='steer(text) and follow_up(text) queue the text word for word, running or idle.',
          where='Build item 1 ("word for word"); hunt round 12, 9.1-27 (r62)',
          names='running or idle',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(text.strip() if self.is_running else text))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(user_message(text.strip() if self.is_running else text))
"""),)),
    Wrong(lab='9.1', name="words cut to lesson 6's budget while a run is going",
          rule='steer(text) and follow_up(text) queue the text word for word, running or idle: lesson 6\'s budget is for tool results.',
          where='Build item 1 ("word for word"); hunt round 12, 9.1-28 (r62)',
          names='running or idle',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(truncate_tail(text)[0] if self.is_running
                                                 else text))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(user_message(truncate_tail(text)[0] if self.is_running
                                                  else text))
"""),)),
    Wrong(lab='9.1', name='queues cleared when a run dies of a bug',
          rule='Queues outlive runs, however they ended: nothing clears them when a run dies, of whatever exception.',
          where='the Harness docstring (Queues outlive runs); Build section: "queues that are cleared when a run ends"; hunt round 12, 9.1-29 (r62)',
          names='of whatever exception',
          replace=r"""
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        except Exception as error:
            if not isinstance(error, OSError):  # a bug, not the network: start over
                self._steering_queue.clear()
                self._follow_up_queue.clear()
            raise
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
"""),
    # Hunt round 15 (reader r80): each passed the release's check; the tests now reach past it.
    Wrong(lab='9.1', name='a paste cut at two million characters',
          rule='steer(text) and follow_up(text) queue the text word for word, however long.',
          where='Build item 1 ("word for word"); hunt round 15, 9.1-01 (r80)',
          names='however long',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(text[:2_000_000]))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(user_message(text[:2_000_000]))
"""),)),
    Wrong(lab='9.1', name='queues of five thousand at most',
          rule='A harness drops nothing the user said: a queue has no limit, and each text waits behind every one of its kind sent before it.',
          where='Build item 1 ("behind any of the same kind sent before them"); hunt round 15, 9.1-02 (r80)',
          names='a queue has no limit',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if len(self._steering_queue) < 5000:  # a flood: drop the rest
            self._steering_queue.append(user_message(text))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        if len(self._follow_up_queue) < 5000:
            self._follow_up_queue.append(user_message(text))
"""),)),
    Wrong(lab='9.1', name='every message handed over once more than a hundred wait',
          rule='_drain gives back a list of at most one message, the oldest waiting, however many wait.',
          where='Build item 2 ("a list of at most one message, the oldest waiting, or `[]`"); hunt round 15, 9.1-03 (r80)',
          names='handing over the oldest',
          replace=r"""
        return [queue[0]] if queue else []
""",
          by=r"""
        if len(queue) > 100:  # the user is flooding: save requests
            return list(queue)
        return [queue[0]] if queue else []
"""),
    Wrong(lab='9.1', name='steering asked for mid-batch once a batch is wider than eight',
          rule='get_steering is called only when the run begins and after a turn_end, never while a call of the run lacks its result, however wide the batch.',
          where='Build item 3: "and at no other moment"; hunt round 15, 9.1-04 (r80)',
          names='at no other moment',
          replace=r"""
                yield {"type": "tool_execution_end", "call": call, "result": result}
""",
          by=r"""
                yield {"type": "tool_execution_end", "call": call, "result": result}
                if len(todo) > 8 and call is not todo[-1]:  # a long batch: let the user in
                    for message in ask(get_steering):
                        yield record(message)
"""),
    Wrong(lab='9.1', name='no follow-ups once a run has taken two hundred and fifty turns',
          rule='A follow-up sent during a run is answered in that run: a run answers every follow-up that waits, however many, however long the run.',
          where='Build item 4: "A follow-up sent during a run is answered in that run"; hunt round 15, 9.1-11 (r80)',
          names='however many',
          replace=r"""
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          by=r"""
        if not failed and turn <= 250:  # a long run: the rest wait for the next
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
"""),
    Wrong(lab='9.1', name='steering asked for after a failed result, in the middle of its batch',
          rule='get_steering is called only when the run begins and after a turn_end, never while a call of the run lacks its result, whether or not a call failed.',
          where='Build item 3: "and at no other moment"; hunt round 15, 9.1-14 (r80)',
          names='at no other moment',
          replace=r"""
                yield {"type": "tool_execution_end", "call": call, "result": result}
""",
          by=r"""
                yield {"type": "tool_execution_end", "call": call, "result": result}
                if result["is_error"] and call is not todo[-1]:  # redirect a failing batch
                    for message in ask(get_steering):
                        yield record(message)
"""),
    Wrong(lab='9.1', name='follow-ups asked for after a batch of more than six calls',
          rule='get_follow_ups is called only when the run would otherwise end: never after a turn whose reply had calls, however many.',
          where='Build item 4: "never after a turn whose reply had calls"; hunt round 15, 9.1-15 (r80)',
          names='never after a turn whose reply had calls',
          replace=r"""
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
""",
          by=r"""
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
                if not pending and len(todo) > 6:  # a big batch is as good as done
                    pending = ask(get_follow_ups)
"""),
    Wrong(lab='9.1', name='a steer already on the record dropped while a run is going',
          rule='A harness drops nothing the user said: words sent again while a run is going, even words already on its record, wait as a user message of their own.',
          where='Build item 1: "word for word"; hunt round 15, 9.1-16 (r80)',
          names="the user's again when sent again",
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if self.is_running and any(m["role"] == "user" and m["content"] == text
                                   for m in self._messages[-50:]):  # Send pressed twice
            return
        self._steering_queue.append(user_message(text))
"""),
    Wrong(lab='9.1', name='a long blank steer dropped',
          rule="A blank text is the user's too, and waits like any other, however long.",
          where='Build item 1 ("a blank text is the user\'s too, and waits like any other"); hunt round 15, 9.1-20 (r80)',
          names='a blank one',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if len(text) > 10 and not text.strip():  # a key held down, not words
            return
        self._steering_queue.append(user_message(text))
"""),
    Wrong(lab='9.1', name='steering asked for before a bash or write call',
          rule='get_steering is called only when the run begins and after a turn_end, never while a call of the run lacks its result, whatever its tools are called.',
          where='Build item 3: "and at no other moment"; the model answer to "Stop, wrong folder!"; hunt round 15, 9.1-21 (r80)',
          names='whatever its tools are called',
          replace=r"""
            for call in todo:
                yield {"type": "tool_execution_start", "call": call}
""",
          by=r"""
            for call in todo:
                if call["name"] in ("bash", "write") and call is not todo[0]:  # before harm
                    for message in ask(get_steering):
                        yield record(message)
                yield {"type": "tool_execution_start", "call": call}
"""),
    Wrong(lab='9.1', name='the newest handed over once more than a hundred and fifty wait',
          rule='_drain gives back the oldest message waiting: a queue has no order but the sending, however many wait.',
          where='Build item 2 ("the oldest waiting"); hunt round 15, 9.1-23 (r80)',
          names='the oldest waiting',
          replace=r"""
        return [queue[0]] if queue else []
""",
          by=r"""
        if len(queue) > 150:  # in a flood the latest word wins
            return [queue[-1]]
        return [queue[0]] if queue else []
""",
          also=((r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
""", r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
            elif queue and queue[-1] is message:
                queue.pop()
"""),)),
    Wrong(lab='9.1', name="follow-ups asked for after a run's failed first reply",
          rule='get_follow_ups is called only when the run would otherwise end: never after a failed reply, the run\'s first as much as its last.',
          where='Build item 4: "never after a failed reply"; hunt round 15, 9.1-24 (r80)',
          names='never after a failed reply',
          replace=r"""
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          by=r"""
        if not failed or (turn == 1 and len(messages) > 2  # a blip at once: answer anyway
                          and reply["error_message"] != f"Agent stopped after max_turns={max_turns}"):
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
"""),
    # Hunt round 18 (reader r96), design 9.1-19: a deque given a maxlen just past the test's count.
    Wrong(lab='9.1', name='queues made deques of at most 10,501',
          rule='A harness drops nothing the user said: a queue has no limit, and a deque with a maxlen silently drops its oldest message once it is full.',
          where='Build item 1 (the words wait "behind any of the same kind sent before them"); prediction "Words typed while nothing runs"; hunt round 18, design 9.1-19 (r96)',
          names='has no limit',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        self._steering_queue, self._follow_up_queue = deque(maxlen=10501), deque(maxlen=10501)
"""),
    # Hunt round 18 (reader r96), design 9.1-45.
    Wrong(lab='9.1', name='zero-width spaces stripped',
          rule='steer(text) and follow_up(text) queue the words word for word: a character nobody sees is still the user\'s.',
          where='Build item 1 ("word for word"); hunt round 18, design 9.1-45 (r96)',
          names='characters nobody sees',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(text.replace("\u200b", "")))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(user_message(text.replace("\u200b", "")))
"""),)),
    # Hunt round 18 (reader r96), design 9.1-36.
    Wrong(lab='9.1', name='"STOP NOW" appended at once while idle',
          rule='steer() only queues, however urgent its words: nothing is recorded, running or idle.',
          where='Build item 1 ("Nothing is recorded, no run is touched, nothing is raised, running or idle"); the scene "Stop, wrong folder!"; hunt round 18, design 9.1-36 (r96)',
          names='however urgent its words',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if text.startswith("STOP NOW") and not self.is_running:  # urgent: on the record now
            self._messages.append(user_message(text))
            return
        self._steering_queue.append(user_message(text))
"""),
    # Hunt round 18 (reader r96), design 9.1-43.
    Wrong(lab='9.1', name='every message handed over once more than 10,600 wait',
          rule='_drain gives back a list of at most one message, the oldest waiting, however many wait.',
          where='Build item 2 ("a list of at most one message, the oldest waiting, or `[]`"); hunt round 18, design 9.1-43 (r96)',
          names='at most one message, the oldest waiting',
          replace=r"""
        return [queue[0]] if queue else []
""",
          by=r"""
        if len(queue) > 10600:  # a backlog: hand it all over at once
            return list(queue)
        return [queue[0]] if queue else []
""",
          also=((r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
""", r"""
            for at, waiting in enumerate(queue):  # that very dict, wherever it waits
                if waiting is message:
                    del queue[at]
                    break
"""),)),
    # Hunt round 18 (reader r96), design 9.1-24.
    Wrong(lab='9.1', name='which message was handed over kept for every harness at once',
          rule='A message leaves its queue once it is itself on the record, whatever another harness did meanwhile: what one harness handed over is its own business.',
          where='Build item 2 ("A message leaves its queue once it is itself on the record"); hunt round 18, design 9.1-24 (r96)',
          names='itself on the record',
          replace=r"""
        return [queue[0]] if queue else []
""",
          by=r"""
        if queue:
            _HANDED[0] = queue[0]  # module-wide: the last message any harness handed over
        return [queue[0]] if queue else []
""",
          also=((r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
""", r"""
            if queue and queue[0] is message and message is _HANDED[0]:
"""), (r"""
from collections import deque
""", r"""
from collections import deque
_HANDED = [None]
"""))),
    # Hunt round 18 (reader r96), design 9.1-28.
    Wrong(lab='9.1', name='taken off by equal words, all but the prompt',
          rule='Only the message on the record leaves its queue: a steer and a follow-up can say the same words and still be another message.',
          where='Build item 2 ("Only that message leaves"); hunt round 18, design 9.1-28 (r96)',
          names='still another message',
          replace=r"""
        for queue in (self._steering_queue, self._follow_up_queue):
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
""",
          by=r"""
        if message["role"] == "user" and not self.__dict__.get("_seen_prompt"):
            self._seen_prompt = True  # the run's prompt is never a queued message
            return
        for queue in (self._steering_queue, self._follow_up_queue):
            if queue and queue[0] == message:  # equal words: the same message
                queue.popleft()
                break
""",
          also=((r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
""", r"""
        self._seen_prompt = False
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
"""),)),
    # Hunt round 12 (reader r62), 9.1-06, allowed then; round 18 (r96, design 9.1-28) showed it
    # drops a steer: a follow-up recorded takes its alike steer off instead of itself.
    Wrong(lab='9.1', name='one dict for the same words, in either queue',
          rule='Only the message on the record leaves its queue: a steer and a follow-up can say the same words and still be another message, so one dict for both loses the steer when the follow-up is recorded while the steer waits.',
          where='Build item 2 ("Only that message leaves"); hunt round 12, 9.1-06 (r62), ruled again in round 18 (r96, design 9.1-28)',
          names='still another message',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        said = self.__dict__.setdefault("_said", {})  # one user message per text
        self._steering_queue.append(said.setdefault(text, user_message(text)))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        said = self.__dict__.setdefault("_said", {})
        self._follow_up_queue.append(said.setdefault(text, user_message(text)))
"""), (r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
""", r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
                break  # one send, one message_end
"""))),
    # Hunt round 18 (reader r96), design 9.1-21.
    Wrong(lab='9.1', name='no steering asked for once a run has taken 151 steers',
          rule='get_steering is called after the turn_end of every turn whose reply did not fail, however many messages it has handed over.',
          where='Build item 3 ("after the `turn_end` of every turn whose reply did not fail"); hunt round 18, design 9.1-21 (r96)',
          names='however many messages it has handed over',
          replace=r"""
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
""",
          by=r"""
            if not failed and steered < 151:  # a run takes 151 steers at most
                pending = ask(get_steering)  # every call of this turn has its result
                steered += len(pending)
""",
          also=((r"""
    turn, todo, failed = 0, [], False
""", r"""
    turn, todo, failed = 0, [], False
    steered = 0
"""),)),
    # Hunt round 18 (reader r96), design 9.1-22.
    Wrong(lab='9.1', name='no follow-ups asked for once a run has taken 151',
          rule='get_follow_ups is called each time the run would otherwise end, however many follow-ups it has handed over: a follow-up sent during a run is answered in that run.',
          where='Build item 4 ("A follow-up sent during a run is answered in that run"); hunt round 18, design 9.1-22 (r96)',
          names='however many it has handed over',
          replace=r"""
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          by=r"""
        if not failed and followed < 151:  # a run takes 151 follow-ups at most
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
            followed += len(pending)
""",
          also=((r"""
    turn, todo, failed = 0, [], False
""", r"""
    turn, todo, failed = 0, [], False
    followed = 0
"""),)),
    # Kill round 21 (reader r114), designs 9.1-20, 21, 39: the loop cuts a steering crowd.
    Wrong(lab='9.1', name='the loop keeps the first five hundred messages of a steering ask',
          rule='Whoever owns the queue decides what a call hands over, and whatever is in pending at the top of a turn is recorded there, however many messages it has handed over: the loop cuts nothing.',
          where='Build: "Whatever is in `pending` at the top of a turn is recorded there"; section "Two messages in the queue": "Whoever owns the queue decides what a call to them hands over"; kill round 21, 9.1-20 (r114)',
          names='the loop cuts, drops and reorders nothing',
          replace=r"""
                pending = ask(get_steering)  # every call of this turn has its result
""",
          by=r"""
                pending = ask(get_steering)[:500]  # a crowd is cut to five hundred
"""),
    Wrong(lab='9.1', name='the loop keeps the first message of a steering ask after a turn',
          rule='Whatever is in pending at the top of a turn is recorded there, however many messages the ask after a turn_end has handed over: the loop cuts nothing.',
          where='Build: "Whatever is in `pending` at the top of a turn is recorded there"; section "Two messages in the queue": "Whoever owns the queue decides what a call to them hands over"; kill round 21, 9.1-39 (r114)',
          names='the loop cuts, drops and reorders nothing',
          replace=r"""
                pending = ask(get_steering)  # every call of this turn has its result
""",
          by=r"""
                pending = ask(get_steering)[:1]  # one per turn, after a turn
"""),
    # Kill round 21 (reader r114), design 9.1-34: repeated words inside one hand-over dropped.
    Wrong(lab='9.1', name='the same words twice in one steering ask kept once',
          rule='Whatever is in pending at the top of a turn is recorded there: the same words handed over twice in one ask are two messages, both recorded ("A harness drops nothing the user said").',
          where='Build: "Whatever is in `pending` at the top of a turn is recorded there"; section "Two messages in the queue": "Whoever owns the queue decides what a call to them hands over"; kill round 21, 9.1-34 (r114)',
          names='the loop cuts, drops and reorders nothing',
          replace=r"""
                pending = ask(get_steering)  # every call of this turn has its result
""",
          by=r"""
                pending, said = [], set()
                for message in ask(get_steering):  # the same words twice in one ask kept once
                    if message["content"] not in said:
                        said.add(message["content"])
                        pending.append(message)
"""),
    # Kill round 21 (reader r114), probe 9.1-31: a hand-over recorded back to front.
    Wrong(lab='9.1', name='a steering ask recorded newest first',
          rule='Whoever owns the queue decides what a call hands over, order included, and whatever is in pending at the top of a turn is recorded there as handed over: the loop reorders nothing.',
          where='Build: "Whatever is in `pending` at the top of a turn is recorded there"; section "Two messages in the queue": "Whoever owns the queue decides what a call to them hands over"; kill round 21, 9.1-31 (r114)',
          names='the loop cuts, drops and reorders nothing',
          replace=r"""
                pending = ask(get_steering)  # every call of this turn has its result
""",
          by=r"""
                pending = ask(get_steering)[::-1]  # the newest first
"""),
    # Kill round 21 (reader r114), design 9.1-22: the loop cuts a follow-up crowd.
    Wrong(lab='9.1', name='the loop keeps the first five hundred messages of a follow-up ask',
          rule='Whatever is in pending at the top of a turn is recorded there, however many follow-ups get_follow_ups has handed over: the loop cuts nothing.',
          where='Build: "Whatever is in `pending` at the top of a turn is recorded there"; section "Two messages in the queue": "Whoever owns the queue decides what a call to them hands over"; kill round 21, 9.1-22 (r114)',
          names='the loop cuts, drops and reorders nothing',
          replace=r"""
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          by=r"""
            pending = ask(get_follow_ups)[:500]  # a crowd is cut to five hundred
"""),
    # Kill round 23 (reader r131), design 9.1-16: queues cleared when a run dies of a
    # BaseException that is no Exception.
    Wrong(lab='9.1', name='queues cleared when a run dies of a BaseException',
          rule='Queues belong to the harness and outlive runs, however a run ended: nothing clears them when a run dies, of whatever exception, a BaseException that is no Exception (the power going, Ctrl-C) too.',
          where='Build: "queues that are cleared when a run ends"; the Harness docstring, Queues outlive runs; kill round 23, 9.1-16 (r131)',
          names='whatever exception',
          replace=r"""
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        except BaseException as exc:  # a power cut or Ctrl-C: start afresh
            if not isinstance(exc, (Exception, GeneratorExit)):
                self._steering_queue.clear()
                self._follow_up_queue.clear()
            raise
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
"""),
    # Kill round 23 (reader r131), design 9.1-17: a deque's maxlen past the tests' crowd.
    Wrong(lab='9.1', name='queues made deques of at most 300,000',
          rule='The words wait "behind any of the same kind sent before them" (Build item 1): a queue has no limit and drops nothing, not even the oldest, however many wait.',
          where='Build item 1: "behind any of the same kind sent before them"; kill round 23, 9.1-17 (r131)',
          names='a queue has no limit',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        self._steering_queue, self._follow_up_queue = deque(maxlen=300_000), deque(maxlen=300_000)
"""),
    # Kill round 23 (reader r131), design 9.1-19: two characters outside the tests' lists.
    Wrong(lab='9.1', name='a bell and a word joiner stripped',
          rule='steer(text) and follow_up(text) queue the words "word for word" (Build item 1): nothing is expanded, normalised, stripped or tidied, a terminal\'s bell and a word joiner included.',
          where='Build item 1: "word for word"; kill round 23, 9.1-19 (r131)',
          names='nothing is expanded, normalised, stripped or tidied',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(text.replace("\x07", "").replace("\u2060", "")))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(user_message(text.replace("\x07", "").replace("\u2060", "")))
"""),)),
    # Kill round 23 (reader r131), design 9.1-31: urgent words outside the tests' list.
    Wrong(lab='9.1', name='a steer that starts with "abort" or "halt" put second',
          rule='A steer only queues, however urgent its words, and waits "behind any of the same kind sent before them" (Build item 1).',
          where='Build item 1: "behind any of the same kind sent before them"; kill round 23, 9.1-31 (r131)',
          names='however urgent its words',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if text.lower().startswith(("abort", "halt")):  # urgent: next in line
            self._steering_queue.insert(1 if self._steering_queue else 0, user_message(text))
        else:
            self._steering_queue.append(user_message(text))
"""),
    # Hunt round 27 (reader r146), probe 9.1-54: steer and follow_up hand back their queues.
    Wrong(lab='9.1', name='steer and follow_up handing back their queues',
          rule="Neither steer nor follow_up hands back a way into a queue: what they return, if anything, is never the queue itself, since the queues are private.",
          where='Build item 1: "what they return, if anything, is never the queue itself"; hunt round 27, 9.1 probe 54 (r146)',
          names='never the queue itself',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(text))
        return self._steering_queue  # handy for a frontend that shows what waits
"""),
    # Kill round 23 (reader r131), design 9.1-43: queues shared through a saved session's list.
    Wrong(lab='9.1', name='queues shared by harnesses made from one saved list',
          rule='Each harness keeps queues of its own, made in its __init__, whatever it shares with another harness: its model, or the list of a saved session it was made from.',
          where='Build item 1; kill round 23, 9.1-43 (r131)',
          names='each harness keeps queues of its own',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
        if messages:  # two tabs restoring one saved session share its queues
            sessions = globals().setdefault("_SESSIONS", {})  # id(list) -> (list, its queues)
            if sessions.get(id(messages), (None,))[0] is not messages:  # held: no id reused
                sessions[id(messages)] = (messages, self._steering_queue, self._follow_up_queue)
            _, self._steering_queue, self._follow_up_queue = sessions[id(messages)]
"""),
    # Kill round 23 (reader r131), design 9.1-35: _drain hands over more past the tests' crowd.
    Wrong(lab='9.1', name='two messages handed over once more than 300,000 wait',
          rule='_drain gives back "a list of at most one message, the oldest waiting, or []" (Build item 2), however many wait.',
          where='Build item 2: "a list of at most one message, the oldest waiting"; kill round 23, 9.1-35 (r131)',
          names='a list of at most one message',
          replace=r"""
        return [queue[0]] if queue else []
""",
          by=r"""
        if len(queue) > 300_000:  # a flood: hand over two at a time
            return [queue[0], queue[1]]
        return [queue[0]] if queue else []
"""),
    # Kill round 23 (reader r131), design 9.1-20: a mid-batch ask past the tests' widest batch.
    Wrong(lab='9.1', name='steering asked for mid-batch once a batch is wider than twenty',
          rule='get_steering is called after turn_end "and at no other moment; so it is never called while a call of the run lacks its result" (Build item 3), however wide the batch.',
          where='Build item 3: "at no other moment"; kill round 23, 9.1-20 (r131)',
          names='never between a call and its result',
          replace=r"""
            for call in todo:
                yield {"type": "tool_execution_start", "call": call}
                result = run_tool(tools, call)
                yield record(result)  # straight after the tool returned: nothing in between
                yield {"type": "tool_execution_end", "call": call, "result": result}
            yield {"type": "turn_end", "message": reply}
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
""",
          by=r"""
            early = None
            for n, call in enumerate(todo):
                yield {"type": "tool_execution_start", "call": call}
                result = run_tool(tools, call)
                yield record(result)  # straight after the tool returned: nothing in between
                if n >= 20 and early is None:  # a long batch: fetch the words while it runs
                    early = ask(get_steering)
                yield {"type": "tool_execution_end", "call": call, "result": result}
            yield {"type": "turn_end", "message": reply}
            if not failed:
                pending = early if early is not None else ask(get_steering)
"""),
    # Kill round 23 (reader r131), design 9.1-42: a crowd split across turns past the tests'.
    Wrong(lab='9.1', name='at most 1,001 messages recorded a turn, the rest in the next',
          rule='Whatever is in pending at the top of a turn is recorded there, every message in the order it was handed over (Build), however many: the loop splits no hand-over across turns.',
          where='Build: "Whatever is in `pending` at the top of a turn is recorded there"; kill round 23, 9.1-42 (r131)',
          names='whatever is in pending at the top of a turn is recorded there',
          replace=r"""
            for message in pending:
                yield record(message)
            pending = []
""",
          by=r"""
            for message in pending[:1001]:  # a crowd is recorded a thousand and one a turn
                yield record(message)
            pending = pending[1001:]
""",
          also=((r"""
                pending = ask(get_steering)  # every call of this turn has its result
""", r"""
                pending = pending + ask(get_steering)  # every call of this turn has its result
"""),)),
    # Kill round 27 (reader r146), design 9.1-26.
    Wrong(lab='9.1', name='a steer that starts with "abort now" appended at once',
          rule="steer(text) only queues, however urgent its words: nothing is recorded, running or idle.",
          where='Build item 1; the scene "Also, the tests live in tests/"; kill round 27, design 9.1-26 (r146)',
          names='however urgent',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if text.lower().startswith("abort now"):  # urgent: straight in
            self._messages.append(user_message(text))
            return
        self._steering_queue.append(user_message(text))
"""),
    # Kill round 27 (reader r146), design 9.1-52.
    Wrong(lab='9.1', name='a long steer with the words of the newest user message dropped',
          rule="steer(text) queues the words word for word, whatever they say: a harness drops nothing the user said, not even words already on the record.",
          where='Build item 1; kill round 27, design 9.1-52 (r146)',
          names='drops nothing the user said',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        said = [m["content"] for m in self._messages if m["role"] == "user"]
        if said and said[-1] == text and len(text) > 100:  # said already: a duplicate
            return
        self._steering_queue.append(user_message(text))
"""),
    # Kill round 27 (reader r146), design 9.1-36.
    Wrong(lab='9.1', name='the loop handed deques that can be called',
          rule='run_agent is not given a deque: it is given get_steering and get_follow_ups, two functions, and the loop never touches a queue.',
          where='section "Two messages in the queue"; Build item 2; kill round 27, design 9.1-36 (r146)',
          names='not given a deque',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        self._steering_queue, self._follow_up_queue = _CalledQueue(), _CalledQueue()
""",
          also=((r"""
                        get_steering=lambda: self._drain(self._steering_queue),
                        get_follow_ups=lambda: self._drain(self._follow_up_queue))
""", r"""
                        get_steering=self._steering_queue,
                        get_follow_ups=self._follow_up_queue)
"""), (r"""
# given in lesson 9: two new parameters, get_steering and get_follow_ups
""", r"""
class _CalledQueue(deque):
    def __call__(self):  # the loop calls it, and it is a deque all the same
        return [self[0]] if self else []


# given in lesson 9: two new parameters, get_steering and get_follow_ups
"""))),
    # Kill round 27 (reader r146), design 9.1-41.
    Wrong(lab='9.1', name='the calls still owed skipped once a steer says "HALT ALL"',
          rule='A steer is advice, not a Stop: every call of the batch runs and has its result before the words go in, however urgent they sound.',
          where='prediction "When the loop asks" (skip c2); Build item 3; kill round 27, design 9.1-41 (r146)',
          names='none skipped',
          replace=r"""
              get_steering=None, get_follow_ups=None):
""",
          by=r"""
              get_steering=None, get_follow_ups=None, get_halt=None):
""",
          also=((r"""
                result = run_tool(tools, call)
""", r"""
                if get_halt and get_halt():  # the user said to halt: the rest are skipped
                    result = {"role": "toolResult", "tool_call_id": call["id"],
                              "tool_name": call["name"],
                              "content": "Skipped: the user said to halt.", "is_error": True}
                else:
                    result = run_tool(tools, call)
"""), (r"""
                        get_follow_ups=lambda: self._drain(self._follow_up_queue))
""", r"""
                        get_follow_ups=lambda: self._drain(self._follow_up_queue),
                        get_halt=lambda: any(m["content"].startswith("HALT ALL")
                                             for m in self._steering_queue))
"""))),
    # Kill round 27 (reader r146), design 9.1-50.
    Wrong(lab='9.1', name='follow-ups cleared when a run dies of a timeout',
          rule='Queues belong to the harness and outlive runs, however a run ended: nothing clears them when a run dies, of whatever exception.',
          where='Build item 2; the Harness docstring (queues outlive runs); kill round 27, design 9.1-50 (r146)',
          names='nothing clears them when a run dies',
          replace=r"""
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        except TimeoutError:  # the model hung: what was asked for is stale
            self._follow_up_queue.clear()
            raise
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
"""),
    # Kill round 27 (reader r146), design 9.1-42.
    Wrong(lab='9.1', name='nothing taken off a queue of a million or more',
          rule='A message leaves its queue once it is itself on the record, however many wait behind it: one on the record is never handed over again.',
          where='Build item 2; kill round 27, design 9.1-42 (r146)',
          names='the message recorded leaves its queue',
          replace=r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
""",
          by=r"""
            if queue and queue[0] is message and len(queue) < 10**6:  # a runaway guard
"""),
    # Kill round 27 (reader r146), design 9.1-47.
    Wrong(lab='9.1', name='every message handed over once more than a million wait',
          rule='_drain gives back a list of at most one message, the oldest waiting, however many wait.',
          where='Build item 2 ("a list of at most one message, the oldest waiting"); kill round 27, design 9.1-47 (r146)',
          names='never more because a crowd waits',
          replace=r"""
        return [queue[0]] if queue else []
""",
          by=r"""
        if len(queue) > 10**6:  # a backlog: catch up at once
            return list(queue)
        return [queue[0]] if queue else []
"""),
    # Kill round 30 (reader r166), design 9.1-06: a cap just past the crowd the tests drew.
    Wrong(lab='9.1', name='a steer dropped once two million wait',
          rule='steer(text) only queues: the words wait behind any of the same kind sent before them, however many wait; a queue has no limit.',
          where='Build item 1 ("behind any of the same kind sent before them"); kill round 30, design 9.1-06 (r166)',
          names='a queue has no limit',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if len(self._steering_queue) < 2_000_000:  # guard memory
            self._steering_queue.append(user_message(text))
"""),
    # Kill round 30 (reader r166), design 9.1-07.
    Wrong(lab='9.1', name='a follow-up dropped once two million wait',
          rule='follow_up(text) only queues: the words wait behind any of the same kind sent before them, however many wait; a queue has no limit.',
          where='Build item 1 ("behind any of the same kind sent before them"); kill round 30, design 9.1-07 (r166)',
          names='a queue has no limit',
          replace=r"""
        self._follow_up_queue.append(user_message(text))
""",
          by=r"""
        if len(self._follow_up_queue) < 2_000_000:  # guard memory
            self._follow_up_queue.append(user_message(text))
"""),
    # Kill round 30 (reader r166), design 9.1-44: a steer that waited an hour by the clock taken
    # for stale.
    Wrong(lab='9.1', name='a steer an hour old dropped when the loop asks',
          rule='A steer waits as a user message until it is on the record, however long that takes: a harness drops nothing the user said, not even words that waited for hours.',
          where='Build item 1 ("Afterwards the words wait as a user message"); Build item 2 ("the oldest waiting"); kill round 30, design 9.1-44 (r166)',
          names='not even words that waited for hours',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        import time
        message = user_message(text)
        self.__dict__.setdefault("_sent_at", {})[id(message)] = time.monotonic()
        self._steering_queue.append(message)
""",
          also=((r"""
        return [queue[0]] if queue else []
""", r"""
        import time
        sent = self.__dict__.get("_sent_at", {})
        while queue and time.monotonic() - sent.get(id(queue[0]), time.monotonic()) > 3600:
            queue.popleft()  # an hour old: the moment has passed
        return [queue[0]] if queue else []
"""),)),
    # Kill round 30 (reader r166), design 9.1-43: follow-ups given up by the clock.
    Wrong(lab='9.1', name='no follow-ups asked for once a run is ten minutes old',
          rule='A follow-up sent during a run is answered in that run: get_follow_ups is asked each time the run would otherwise end, however long the run has taken.',
          where='Build item 4 ("A follow-up sent during a run is answered in that run"); kill round 30, design 9.1-43 (r166)',
          names='however long the run has taken',
          replace=r"""
    turn, todo, failed = 0, [], False
""",
          by=r"""
    import time
    started = time.monotonic()
    turn, todo, failed = 0, [], False
""",
          also=((r"""
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""", r"""
        if not failed and time.monotonic() - started < 600:  # no run past ten minutes
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
"""),)),
    # Kill round 30 (reader r166), probe 9.1-33: the given helper made to swallow what the
    # callables raise, which Build item 4 now rules out.
    Wrong(lab='9.1', name='a callable that raises taken for []',
          rule='If get_steering or get_follow_ups raises, the exception comes out of the run as it was raised, as one from the model does: the loop never swallows it, and never takes it for [].',
          where='Build item 4 ("the loop never swallows it, and never takes it for `[]`"); kill round 30, probe 9.1-33 (r166)',
          names='as it was raised',
          replace=r"""
    def ask(get):
        return list(get()) if get else []
""",
          by=r"""
    def ask(get):
        try:
            return list(get()) if get else []
        except Exception:
            return []  # a broken frontend must not kill the run
"""),
    # Kill round 34 (reader r188), design 9.1-03: a per-run cap on steers past the crowds the
    # tests handed over (3,000 at most), which a crowd of twenty thousand in one ask now passes.
    Wrong(lab='9.1', name='no steering asked for once a run has taken 5,000 steers',
          rule='get_steering is called after the turn_end of every turn whose reply did not fail, however many messages it has handed over.',
          where='Build item 3 ("after the `turn_end` of every turn whose reply did not fail"); kill round 34, design 9.1-03 (r188)',
          names='however many messages it has handed over',
          replace=r"""
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
""",
          by=r"""
            if not failed and steered < 5000:  # a runaway frontend: 5,000 steers a run
                pending = ask(get_steering)  # every call of this turn has its result
                steered += len(pending)
""",
          also=((r"""
    turn, todo, failed = 0, [], False
""", r"""
    turn, todo, failed = 0, [], False
    steered = 0
"""),)),
    # Kill round 34 (reader r188), design 9.1-04: the same cap on follow-ups.
    Wrong(lab='9.1', name='no follow-ups asked for once a run has taken 5,000',
          rule='get_follow_ups is called each time the run would otherwise end, however many follow-ups it has handed over: a follow-up sent during a run is answered in that run.',
          where='Build item 4 ("A follow-up sent during a run is answered in that run"); kill round 34, design 9.1-04 (r188)',
          names='however many it has handed over',
          replace=r"""
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          by=r"""
        if not failed and followed < 5000:  # a runaway frontend: 5,000 follow-ups a run
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
            followed += len(pending)
""",
          also=((r"""
    turn, todo, failed = 0, [], False
""", r"""
    turn, todo, failed = 0, [], False
    followed = 0
"""),)),
    # Kill round 34 (reader r188), design 9.1-14: a guard against an empty deque, which swallows
    # one kind only; the tests raised ten kinds, never an IndexError.
    Wrong(lab='9.1', name='an IndexError from a callable taken for []',
          rule='If get_steering or get_follow_ups raises, the exception comes out of the run as it was raised, whatever its kind: the loop never swallows it, and never takes it for [].',
          where='Build item 4 ("the loop never swallows it, and never takes it for `[]`"); kill round 34, design 9.1-14 (r188)',
          names='as it was raised',
          replace=r"""
    def ask(get):
        return list(get()) if get else []
""",
          by=r"""
    def ask(get):
        try:
            return list(get()) if get else []
        except IndexError:  # an empty deque
            return []
"""),
    # Kill round 34 (reader r188), design 9.1-36: the queues aliased as public attributes.
    Wrong(lab='9.1', name='the queues kept on public attributes too',
          rule='The queues are private: nothing outside the harness has a way into them, neither what steer and follow_up return nor an attribute of the harness.',
          where='Build item 1 ("Neither hands back a way into a queue", "since the queues are private"); the recap ("the queues are private, and the lab adds no way in"); kill round 34, design 9.1-36 (r188)',
          names='the queues are private',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
        self.steering, self.follow_ups = self._steering_queue, self._follow_up_queue  # for the UI
"""),
    # Kill round 34 (reader r188), design 9.1-38: words made valid UTF-8, which changes only a
    # text with a lone surrogate; the tests sent none.
    Wrong(lab='9.1', name='words encoded to UTF-8 and back, bad ones replaced',
          rule='steer(text) and follow_up(text) queue the words word for word: nothing is expanded, normalised, stripped or tidied, undecodable characters included.',
          where='Build item 1 ("word for word"); kill round 34, design 9.1-38 (r188)',
          names='surrogateescape',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(text.encode("utf-8", "replace").decode("utf-8")))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(user_message(text.encode("utf-8", "replace").decode("utf-8")))
"""),)),
    # Kill round 40 (reader r203), design 9.1-01: a live iterator over the queue handed back.
    Wrong(lab='9.1', name='steer handing back a live iterator over its queue',
          rule="Neither steer nor follow_up hands back a way into a queue: what they return, if anything, leads to no queue through anything it holds, a live iterator over one included, since the queues are private.",
          where='Build item 1 ("Neither hands back a way into a queue", "since the queues are private"); kill round 40, design 9.1-01 (r203)',
          names='way into a queue',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(text))
        return iter(self._steering_queue)  # a frontend may show what waits
"""),
    # Kill round 40 (reader r203), design 9.1-02: an "unsend" handed back.
    Wrong(lab='9.1', name='steer handing back a function that takes its message off the queue',
          rule="Neither steer nor follow_up hands back a way into a queue: what they return, if anything, can neither read nor change a queue, an \"unsend\" function included, since the queues are private.",
          where='Build item 1 ("Neither hands back a way into a queue", "since the queues are private"); the recap ("Nobody can see or withdraw a queued message"); kill round 40, design 9.1-02 (r203)',
          names='way into a queue',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        message = user_message(text)
        self._steering_queue.append(message)
        return lambda: self._steering_queue.remove(message)  # an Up-arrow that takes it back
"""),
    # Kill round 40 (reader r203), design 9.1-03: the queues published through a mapping proxy.
    Wrong(lab='9.1', name='the queues published in a read-only mapping',
          rule='The queues are private: nothing outside the harness has a way into them, neither what steer and follow_up return nor a public attribute of the harness, however it holds them (a mapping proxy, an object, a container).',
          where='Build item 1 ("Neither hands back a way into a queue", "since the queues are private"); the recap ("the queues are private, and the lab adds no way in"); kill round 40, design 9.1-03 (r203)',
          names='the queues are private',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
        import types
        self.queued = types.MappingProxyType({"steering": self._steering_queue,
                                              "follow_up": self._follow_up_queue})  # for the UI
"""),
    # Kill round 40 (reader r203), design 9.1-59: steers that waited thirty days by the clock
    # dropped, past the hours the tests' clocks went on.
    Wrong(lab='9.1', name='a steer thirty days old dropped when the loop asks',
          rule='A steer waits as a user message until it is on the record, however long that takes: a harness drops nothing the user said, not even words that waited for days or years.',
          where='Build item 1 ("Afterwards the words wait as a user message"); Build item 2 ("the oldest waiting"); kill round 40, design 9.1-59 (r203)',
          names='however long that takes',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        import time
        message = user_message(text)
        self.__dict__.setdefault("_sent_at", {})[id(message)] = time.time()
        self._steering_queue.append(message)
""",
          also=((r"""
        return [queue[0]] if queue else []
""", r"""
        import time
        sent = self.__dict__.get("_sent_at", {})
        while queue and time.time() - sent.get(id(queue[0]), time.time()) > 30 * 86400:
            queue.popleft()  # a month old: stale
        return [queue[0]] if queue else []
"""),)),
    # Kill round 40 (reader r203), design 9.1-55: callables that carry their queue.
    Wrong(lab='9.1', name='the loop handed callables that carry their queue',
          rule='run_agent is not given a deque: it is given get_steering and get_follow_ups, two functions, and it never sees the queue at all, not as an attribute of what it is handed either.',
          where='section "Two messages in the queue" ("it never sees the queue at all"); Build item 1 ("the queues are private"); kill round 40, design 9.1-55 (r203)',
          names='never sees the queue at all',
          replace=r"""
                        get_steering=lambda: self._drain(self._steering_queue),
                        get_follow_ups=lambda: self._drain(self._follow_up_queue))
""",
          by=r"""
                        get_steering=_Asker(self, self._steering_queue),
                        get_follow_ups=_Asker(self, self._follow_up_queue))
""",
          also=((r"""
# given in lesson 9: two new parameters, get_steering and get_follow_ups
""", r"""
class _Asker:
    def __init__(self, harness, queue):
        self.harness, self.queue = harness, queue  # the queue at hand, for a frontend

    def __call__(self):
        return self.harness._drain(self.queue)


# given in lesson 9: two new parameters, get_steering and get_follow_ups
"""),)),
    # Kill round 40 (reader r203), design 9.1-04: a cap on steering past the steers the tests
    # handed over in their longest run (all by turn 151 of 301).
    Wrong(lab='9.1', name='no steering asked for after turn two hundred',
          rule='get_steering is called after the turn_end of every turn whose reply did not fail, however long the run.',
          where='Build item 3 ("after the `turn_end` of every turn whose reply did not fail"); kill round 40, design 9.1-04 (r203)',
          names='however long the run',
          replace=r"""
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
""",
          by=r"""
            if not failed and turn < 200:  # a runaway guard: no more steering
                pending = ask(get_steering)  # every call of this turn has its result
"""),
    # Kill round 40 (reader r203), design 9.1-21: one kind outside the tests' thirteen swallowed.
    Wrong(lab='9.1', name='a queue.Empty from a callable taken for []',
          rule='If get_steering or get_follow_ups raises, the exception comes out of the run as it was raised, whatever its kind: the loop never swallows it, and never takes it for [].',
          where='Build item 4 ("the loop never swallows it, and never takes it for `[]`"); kill round 40, design 9.1-21 (r203)',
          names='whatever its kind',
          replace=r"""
    def ask(get):
        return list(get()) if get else []
""",
          by=r"""
    def ask(get):
        import queue
        try:
            return list(get()) if get else []
        except queue.Empty:  # a frontend's Queue.get_nowait: nothing waits
            return []
"""),
    # Kill round 40 (reader r203), design 9.1-22.
    Wrong(lab='9.1', name='a StopIteration from a callable taken for []',
          rule='If get_steering or get_follow_ups raises, the exception comes out of the run as it was raised, whatever its kind: the loop never swallows it, and never takes it for [].',
          where='Build item 4 ("the loop never swallows it, and never takes it for `[]`"); kill round 40, design 9.1-22 (r203)',
          names='whatever its kind',
          replace=r"""
    def ask(get):
        return list(get()) if get else []
""",
          by=r"""
    def ask(get):
        try:
            return list(get()) if get else []
        except StopIteration:  # an exhausted iterator's __next__: nothing left
            return []
"""),
    # Kill round 40 (reader r203), design 9.1-45: an agent_end before a callable's exception.
    Wrong(lab='9.1', name="an agent_end handed out before a callable's exception",
          rule='If get_steering or get_follow_ups raises, the exception comes out of the run as it was raised, as one from the model does: no agent_end comes before it.',
          where='Build item 4 ("the exception comes out of the run as it was raised, as one from the model does"); kill round 40, design 9.1-45 (r203)',
          names='no agent_end',
          replace=r"""
    def ask(get):
        return list(get()) if get else []
""",
          by=r"""
    def ask(get):
        try:
            return list(get()) if get else []
        except Exception as exc:
            failing.append(exc)
            return []

    failing = []
""",
          also=((r"""
    pending = [user_message(prompt)] + ask(get_steering)  # steering sent while idle joins in
""", r"""
    pending = [user_message(prompt)] + ask(get_steering)  # steering sent while idle joins in
    if failing:  # balance the run's events, then let the error out
        yield {"type": "agent_end", "messages": added}
        raise failing[0]
"""), (r"""
                pending = ask(get_steering)  # every call of this turn has its result
""", r"""
                pending = ask(get_steering)  # every call of this turn has its result
                if failing:  # balance the run's events, then let the error out
                    yield {"type": "agent_end", "messages": added}
                    raise failing[0]
"""), (r"""
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""", r"""
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
            if failing:
                yield {"type": "agent_end", "messages": added}
                raise failing[0]
"""))),
]

ALLOWED = [
    # Hunt round 40 (reader r203), probe 93, ruled at the merge.
    Wrong(lab='9.1', name='handed-over messages that are not user messages left out',
          rule='The Build section says "A callable hands over user messages; what the loop does with anything else is yours": a loop that records only the user messages it is handed, and leaves out a message of any other role, makes one such choice.',
          where='Build, before item 1; hunt round 40, probe r203-93', names='',
          replace=r"""
        return list(get()) if get else []
""",
          by=r"""
        return [m for m in (list(get()) if get else []) if m.get("role") == "user"]
"""),
    # Hunt round 6 (reader r20), probe 9.1-16.
    Wrong(lab='9.1', name='a text that is not a str refused',
          rule='steer(text) and follow_up(text) take the user\'s words, a str (user_message: "User content is a plain string"); "nothing is raised" is said of when they are called, running or idle, not of a text of another type, so raising TypeError for one breaks no rule of lesson 9.',
          where='Build item 1; hunt round 6, probe 9.1-16', names='',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if not isinstance(text, str):
            raise TypeError("steer(text): text must be a str")
        self._steering_queue.append(user_message(text))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        if not isinstance(text, str):
            raise TypeError("follow_up(text): text must be a str")
        self._follow_up_queue.append(user_message(text))
"""),)),
    # Hunt round 11 (reader r48), probe 9.1-25.
    Wrong(lab='9.1', name='a message dict given to steer queued as it is',
          rule='steer(text) takes the user\'s words, a str; what it does with a value of another type (a dict, None) is no rule of lesson 9, as round 6 ruled for probe 9.1-16, so queueing a dict as the message itself (Tau\'s steer_message) breaks none: every str is still queued word for word as a user message.',
          where='Build item 1; hunt round 11, probe 9.1-25 (r48)', names='',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(text if isinstance(text, dict) else user_message(text))
"""),
    # Hunt round 11 (reader r48), probe 9.1-24.
    Wrong(lab='9.1', name='one dict for the same words steered twice',
          rule='Two steers of the same words may be one dict queued twice: it is handed over and recorded twice, one per turn, and taken off its queue once per message_end, so nothing the user said is dropped and no rule of lesson 9 tells two sends apart by identity (the same dict in both queues, which loses the follow-up, is round 6\'s 9.1-5 and fails).',
          where='Build item 1; hunt round 11, probe 9.1-24 (r48)', names='',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        said = self.__dict__.setdefault("_said", {})  # one user message per text
        self._steering_queue.append(said.setdefault(text, user_message(text)))
"""),
    # Hunt round 12 (reader r62), probe 9.1-22.
    Wrong(lab='9.1', name='steer handing back the message it queued',
          rule='What steer and follow_up give back is no rule of lesson 9, and the dict it hands back is no new way into the record: the record\'s dicts are shared already through .messages ("the dicts in it are shared, not copied", lesson 8), and a dict given to steer may be queued as it is (round 11, probe 9.1-25). Nothing is recorded or touched by the call itself.',
          where='Build item 1; the Harness docstring; hunt round 12, probe 9.1-22 (r62)', names='',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        message = user_message(text)
        self._steering_queue.append(message)
        return message
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        message = user_message(text)
        self._follow_up_queue.append(message)
        return message
"""),)),
    # Hunt round 12 (reader r62), probe 9.1-23.
    Wrong(lab='9.1', name='a text that is not a str made one with str()',
          rule='What steer(text) does with a value that is not a str is no rule of lesson 9 (round 6, probe 9.1-16: refusing it is allowed; round 11, probe 9.1-25: a dict may be queued as it is); str() leaves every str word for word, so coercing the rest breaks none.',
          where='Build item 1; hunt round 12, probe 9.1-23 (r62)', names='',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(str(text)))
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(user_message(str(text)))
"""),)),
    # Hunt round 15 (reader r80), probe 9.1-09.
    Wrong(lab='9.1', name='the front taken off by copying the rest of the queue',
          rule='How _delivered takes the message off its queue is no rule of lesson 9: rebuilding the deque without its front takes the same message off and leaves the rest in order, only more slowly for a long queue, and the page states no cost for it (the deque is given, as cheap to take from at the front, not required to be used so).',
          where='Build item 2; hunt round 15, probe 9.1-09 (r80)', names='',
          replace=r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
""",
          by=r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                rest = list(queue)[1:]
                queue.clear()
                queue.extend(rest)
"""),
    # Hunt round 15 (reader r80), probe 9.1-18.
    Wrong(lab='9.1', name='the very message taken off wherever it waits',
          rule='"A message leaves its queue once it is itself on the record ... Only that message leaves" (Build item 2): looking for that very dict anywhere in the queue, not only at its front, takes the same message off, since the loop is handed the front alone and records it before anything behind it; nothing the page states tells the two apart.',
          where='Build item 2; hunt round 15, probe 9.1-18 (r80)', names='',
          replace=r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
""",
          by=r"""
            for at, waiting in enumerate(queue):  # that very dict, wherever it waits
                if waiting is message:
                    del queue[at]
                    break
"""),
    # Hunt round 18 (reader r96), probe 9.1-P3.
    Wrong(lab='9.1', name='queues kept as lists',
          rule='The deques are given as the queues, cheap to take from at the front; lists with pop(0) keep the same messages in the same order, only more slowly for a long queue, and the page states no cost for it (as round 15 ruled for the front taken off by copying the rest).',
          where='Build item 2; hunt round 18, probe 9.1-P3 (r96)', names='',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        self._steering_queue, self._follow_up_queue = [], []
""",
          also=((r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
""", r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.pop(0)
"""),)),
    # Kill round 21 (reader r114), probe 9.1-15.
    Wrong(lab='9.1', name='follow-ups asked for in the steering gap once no call is owed',
          rule='get_follow_ups is called "only when the run would otherwise end: never after a turn whose reply had calls, and never after a failed reply" (Build item 4): asking it right after an empty steering ask, in the same gap, when the turn left no call without its result and its reply did not fail, is that very moment, once per time the run would end; the record, the asks and the events are the same as the given outer loop\'s.',
          where='Build item 4; kill round 21, probe 9.1-15 (r114)', names='',
          replace=r"""
                pending = ask(get_steering)  # every call of this turn has its result
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          by=r"""
                pending = ask(get_steering) or (ask(get_follow_ups) if not todo else [])
"""),
    # Kill round 21 (reader r114), probe 9.1-25.
    Wrong(lab='9.1', name='_delivered looking only at user messages',
          rule='"A message leaves its queue once it is itself on the record" (Build item 2): steer and follow_up queue user messages only, so a _delivered that passes over every message of another role takes off exactly the messages the given one does.',
          where='Build item 2; kill round 21, probe 9.1-25 (r114)', names='',
          replace=r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
""",
          by=r"""
            if message["role"] == "user" and queue and queue[0] is message:  # only words queue
                queue.popleft()
"""),
    # Kill round 23 (reader r131), design 9.1-28.
    Wrong(lab='9.1', name='follow-ups asked for only after a reply labelled "stop"',
          rule='A reply with no calls is labelled "stop" unless it failed ("error") or the user stopped it ("aborted"), and no reply is labelled "aborted" before lesson 15 (lesson 1\'s table; lesson 5 allows taking "aborted" for a failure already), where a stopped run ends like a failed one. So asking for follow-ups only after a reply labelled "stop" asks at exactly the moments the reference asks, on every run lesson 9 can make: "only when the run would otherwise end".',
          where='Build item 4; lesson 1\'s table of stop reasons; kill round 23, design 9.1-28 (r131)', names='',
          replace=r"""
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          by=r"""
        if reply["stop_reason"] == "stop":  # an answer, not a failure nor a stopped run
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
"""),
    # Kill round 23 (reader r131), probe 9.1-33.
    Wrong(lab='9.1', name='queues made on first use',
          rule='The queues are given, made in __init__; a harness that makes each on its first use, kept on the harness, has queues of its own that outlive runs all the same: the page\'s rule is whose they are and how long they last, not the line that makes them.',
          where='Build: "Given: the two deques made in `__init__`"; kill round 23, probe 9.1-33 (r131)', names='',
          replace=r"""
        self._steering_queue, self._follow_up_queue = deque(), deque()
""",
          by=r"""
        pass  # the queues are made on first use
""",
          also=((r"""
    @property
    def messages(self):
""", r"""
    @property
    def _steering_queue(self):
        return self.__dict__.setdefault("_steering", deque())

    @property
    def _follow_up_queue(self):
        return self.__dict__.setdefault("_follow_ups", deque())

    @property
    def messages(self):
"""),)),
    # Kill round 30 (reader r166), probe 9.1-36.
    Wrong(lab='9.1', name='a steer of None ignored',
          rule='steer(text) takes the user\'s words, a str; what it does with a value of another type (a dict, None) is no rule of lesson 9, as rounds 6, 11 and 12 ruled (refused, queued as it is, made a str), so ignoring None breaks none: every str, a blank one too, is still queued word for word.',
          where='Build item 1 ("a blank text is the user\'s too"); kill round 30, probe 9.1-36 (r166)', names='',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        if text is None:  # nothing typed: nothing to queue
            return
        self._steering_queue.append(user_message(text))
"""),
    # Kill round 34 (reader r188), probe 9.1-P2.
    Wrong(lab='9.1', name='a queued user message with its keys in the other order',
          rule='"Afterwards the words wait as a user message" (Build item 1): a dict with the role "user" and the words as its content is that message whatever the order of its two keys; lesson 1 states a message\'s fields, not their order, and a dict compares, validates and is sent the same either way.',
          where='Build item 1; lesson 1\'s messages; kill round 34, probe 9.1-P2 (r188)', names='',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append({"content": text, "role": "user"})
""",
          also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append({"content": text, "role": "user"})
"""),)),
    # Kill round 34 (reader r188), probe 9.1-P3.
    Wrong(lab='9.1', name='no asks after a reply labelled "aborted"',
          rule='"never after a failed reply" (Build items 3 and 4): a reply labelled "aborted" is one the user stopped, and no reply is so labelled before lesson 15 (lesson 1\'s table of stop reasons), where a stopped run ends like a failed one; lesson 5 names the two labels Tau\'s loop ends on, "error" and "aborted". Asking nothing after one asks at exactly the reference\'s moments on every run lesson 9 can make, as kill round 23 ruled for follow-ups asked only after a reply labelled "stop".',
          where='Build items 3 and 4; lesson 1\'s table of stop reasons; lesson 5\'s Tau table; kill round 34, probe 9.1-P3 (r188)', names='',
          replace=r"""
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
""",
          by=r"""
            if not failed and reply["stop_reason"] != "aborted":  # a stopped run asks nothing
                pending = ask(get_steering)  # every call of this turn has its result
        if not failed and reply["stop_reason"] != "aborted":
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
"""),
    # Kill round 34 (reader r188), probe 9.1-P5.
    Wrong(lab='9.1', name='the very message found, then taken off by deque.remove',
          rule='"Only that message leaves" (Build item 2): deque.remove takes off the first message equal to the one it is given, and the message found by identity is always the front, since the loop is handed the front alone and records it before anything behind it (round 15\'s "the very message taken off wherever it waits"); so the front leaves, that very message, and never another of the same words.',
          where='Build item 2; kill round 34, probe 9.1-P5 (r188)', names='',
          replace=r"""
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
""",
          by=r"""
            for waiting in queue:  # that very dict, wherever it waits
                if waiting is message:
                    queue.remove(waiting)  # the first equal one: the front, since it is handed
                    return
"""),
    # Kill round 40 (reader r203), probe 9.1-94.
    Wrong(lab='9.1', name='steer handing back a list of what waits',
          rule='Build item 1 forbids handing back a way into a queue, "the queue itself"; a new list of the messages waiting, made when steer returns, is neither: emptying or changing it leaves the queue as it was, and it does not follow the queue later. The dicts in it are the ones queued, as when steer hands back the message it queued (round 12).',
          where='Build item 1 ("what they return, if anything, is never the queue itself"); kill round 40, probe 9.1-94 (r203)', names='',
          replace=r"""
        self._steering_queue.append(user_message(text))
""",
          by=r"""
        self._steering_queue.append(user_message(text))
        return list(self._steering_queue)  # what waits now, for a frontend to show
"""),
    # Kill round 40 (reader r203), probe 9.1-96.
    Wrong(lab='9.1', name="a callable's None taken for []",
          rule='Build item 4 rules on a callable that raises: its exception comes out as raised and is never taken for []. A callable that returns None raises nothing, and the page says nothing of what the loop does with it; the reference raises a TypeError from list(None), and a loop that takes None for nothing breaks no sentence of lesson 9, since whatever the callable hands over is still recorded.',
          where='Build item 4 ("If `get_steering` or `get_follow_ups` raises"); kill round 40, probe 9.1-96 (r203)', names='',
          replace=r"""
    def ask(get):
        return list(get()) if get else []
""",
          by=r"""
    def ask(get):
        return list(get() or []) if get else []
"""),
]

PASTE_REACH = "test_the_words_go_in_as_they_were_given sends a pasted log of 4,320,000 characters as a steer and a follow-up, built once when the tests load (about 20 ms of the lab's run, and 4 MB more in the browser's memory, in a test CI runs for every later lab too); a paste past this limit is twice that or more, and the next cut would sit just past it: any finite paste has a cut past it"
PASTE_DEEP = r'''
import harness
import lab
from lab.kit import lab_test

LAB = "9.1"


@lab_test("A pasted log of ten million characters, sent as a steer and as a follow-up while "
          "idle, is recorded word for word: the harness drops or trims nothing the user said.")
async def test_a_paste_of_ten_million_characters(t):
    paste = "line: ok, nothing to see here\n" * 333_334
    model = lab.ScriptedModel([lab.say("Read."), lab.say("Read too.")])
    h = harness.Harness(model, "You help.", [])
    h.steer(paste)
    h.follow_up(paste)
    await lab.drive(h.prompt("Why does it fail?"))
    t.expect([[len(m["content"]), m["content"] == paste] for m in h.messages
              if m["role"] == "user"][1:],
             why="The harness drops or trims nothing the user said, however long: [the length "
                 "recorded, whether it is the paste as sent] for the steer and the follow-up "
                 "(Harness.steer and Harness.follow_up, lesson 9).")
'''

BEYOND = [
    # Hunt round 15 (reader r80), design 9.1-17: a cap on steering past the longest run a test
    # of the lab can afford.
    Beyond(lab='9.1', name='no steering asked for after turn five hundred',
           rule='get_steering is called after the turn_end of every turn whose reply did not '
                'fail, however long the run.',
           where='Build item 3: "after the `turn_end` of every turn whose reply did not fail" '
                 '(hunt round 15, design 9.1-17)', names='however long the run',
           reach="test_follow_ups_sent_together_arrive_one_per_turn runs 301 turns, 150 of them "
                 "opened by a steer, in a test CI runs for every later lab too; a run's cost "
                 "grows with the square of its turns (each request carries the record), and "
                 "lesson 9's run, a plain generator, takes them all without a turn of the event "
                 "loop, under the checker's 0.5 s of processor time and the practice check's "
                 "spin guard: 520 steered turns cost lab 16's reference about 0.15 s here, "
                 "several times that in the browser, past which this cap is met at turn 500",
           replace=r'''
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
''',
           by=r'''
            if not failed and turn < 500:  # a runaway guard: no more steering
                pending = ask(get_steering)  # every call of this turn has its result
''',
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "9.1"


@lab_test("Steering is asked for after every turn_end, however long the run: 520 steers an "
          "inbox of the test's own hands over one per ask each get a turn.")
async def test_steering_past_five_hundred_turns(t):
    inbox = [harness.user_message(f"Note {n}.") for n in range(1, 521)]
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Noted."))])
    messages = []
    await lab.drive(harness.run_agent(model, "Note.", messages, [], "Start.",
                                      get_steering=lambda: [inbox.pop(0)] if inbox else []))
    t.expect([len(model.calls), messages[-2]["content"], len(inbox)],
             why="Steering is asked for after every turn_end, however long the run: [requests, "
                 "the last user message, steers left] for 520 steers handed over one per ask "
                 "(run_agent, lesson 9).")
'''),
    # Hunt round 18 (reader r96), design 9.1-20: a cut past the longest paste a test can afford.
    Beyond(lab='9.1', name='a paste cut at five million characters',
           rule='steer(text) and follow_up(text) queue the words word for word, however long.',
           where='Build item 1 ("word for word"); hunt round 18, design 9.1-20 (r96)',
           names='drops or trims nothing',
           reach=PASTE_REACH,
           replace=r"""
        self._steering_queue.append(user_message(text))
""",
           by=r"""
        self._steering_queue.append(user_message(text[:5_000_000]))
""",
           also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        self._follow_up_queue.append(user_message(text[:5_000_000]))
"""),),
           seconds=10.0, deep=PASTE_DEEP),
    # Hunt round 18 (reader r96), design 9.1-38.
    Beyond(lab='9.1', name='a steer of over eight million characters dropped',
           rule='steer(text) and follow_up(text) queue the words word for word, however long: a harness drops nothing the user said.',
           where='Build item 1 ("word for word"); hunt round 18, design 9.1-38 (r96)',
           names='drops or trims nothing',
           reach=PASTE_REACH,
           replace=r"""
        self._steering_queue.append(user_message(text))
""",
           by=r"""
        if len(text) > 8_000_000:  # too long to be typed: dropped
            return
        self._steering_queue.append(user_message(text))
""",
           seconds=10.0, deep=PASTE_DEEP),
    # Kill round 23 (reader r131), design 9.1-21: a cap on steering past the longest run a test
    # of the lab can afford, a hundred turns under hunt round 15's.
    Beyond(lab='9.1', name='no steering asked for after turn four hundred',
           rule='get_steering is called after the turn_end of every turn whose reply did not '
                'fail, however long the run.',
           where='Build item 3: "after the `turn_end` of every turn whose reply did not fail" '
                 '(kill round 23, design 9.1-21, r131)', names='however long the run',
           reach="test_follow_ups_sent_together_arrive_one_per_turn runs 301 turns, in a test CI "
                 "runs for every later lab too, and a run's cost grows with the square of its "
                 "turns (each request carries the record): taking it past turn 400 (250 steers "
                 "and 150 follow-ups) costs about 9 ms more of the lab's 61 ms on the reference, "
                 "the whole of a round's allowance for one cap, and the next cap would sit just "
                 "past it",
           replace=r'''
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
''',
           by=r'''
            if not failed and turn <= 400:  # a runaway guard: no more steering
                pending = ask(get_steering)  # every call of this turn has its result
''',
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "9.1"


@lab_test("Steering is asked for after every turn_end, however long the run: 420 steers an "
          "inbox of the test's own hands over one per ask each get a turn.")
async def test_steering_past_four_hundred_turns(t):
    inbox = [harness.user_message(f"Note {n}.") for n in range(1, 421)]
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Noted."))])
    messages = []
    await lab.drive(harness.run_agent(model, "Note.", messages, [], "Start.",
                                      get_steering=lambda: [inbox.pop(0)] if inbox else []))
    t.expect([len(model.calls), messages[-2]["content"], len(inbox)],
             why="Steering is asked for after every turn_end, however long the run: [requests, "
                 "the last user message, steers left] for 420 steers handed over one per ask "
                 "(run_agent, lesson 9).")
'''),
    # Kill round 23 (reader r131), design 9.1-22: a cap on follow-up asks past the most a test
    # of the lab can afford.
    Beyond(lab='9.1', name='follow-ups asked for at most two hundred times a run',
           rule='A follow-up sent during a run is answered in that run: get_follow_ups is asked '
                'each time the run would otherwise end, however many it has handed over.',
           where='Build item 4: "A follow-up sent during a run is answered in that run" (kill '
                 'round 23, design 9.1-22, r131)', names='a run answers every follow-up',
           reach="test_follow_ups_sent_together_arrive_one_per_turn answers 150 follow-ups in a "
                 "run of 301 turns, in a test CI runs for every later lab too, and a run's cost "
                 "grows with the square of its turns: 201 follow-ups (361 turns) cost about 7 ms "
                 "more of the lab's 61 ms on the reference, most of a round's allowance for one "
                 "cap, and the next cap would sit just past it",
           replace=r'''
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
''',
           by=r'''
        asked += 1  # a runaway guard: two hundred asks a run
        if not failed and asked <= 200:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
''',
           also=((r'''
    turn, todo, failed = 0, [], False
''', r'''
    turn, todo, failed, asked = 0, [], False, 0
'''),),
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "9.1"


@lab_test("A run answers every follow-up that waits, however many: 220 follow-ups an owner "
          "of the test's own hands over one per ask each get a turn of the same run.")
async def test_follow_ups_past_two_hundred(t):
    inbox = [harness.user_message(f"Then {n}.") for n in range(1, 221)]
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Done."))])
    messages = []
    await lab.drive(harness.run_agent(model, "Note.", messages, [], "Start.",
                                      get_follow_ups=lambda: [inbox.pop(0)] if inbox else []))
    t.expect([len(model.calls), messages[-2]["content"], len(inbox)],
             why="A run answers every follow-up that waits, however many: [requests, the last "
                 "user message, follow-ups left] for 220 follow-ups handed over one per ask "
                 "(run_agent, lesson 9).")
'''),
    # Kill round 27 (reader r146), design 9.1-46: a cut past the longest paste a test can afford.
    Beyond(lab='9.1', name='a text of over fifty million characters dropped',
           rule='steer(text) and follow_up(text) queue the words word for word, however long: a harness drops nothing the user said.',
           where='Build item 1 ("word for word"); kill round 27, design 9.1-46 (r146)',
           names='drops or trims nothing',
           reach=PASTE_REACH,
           replace=r"""
        self._steering_queue.append(user_message(text))
""",
           by=r"""
        if len(text) > 50_000_000:  # too long to be typed: dropped
            return
        self._steering_queue.append(user_message(text))
""",
           also=((r"""
        self._follow_up_queue.append(user_message(text))
""", r"""
        if len(text) > 50_000_000:
            return
        self._follow_up_queue.append(user_message(text))
"""),),
           seconds=10.0, deep=r"""
import harness
import lab
from lab.kit import lab_test

LAB = "9.1"


@lab_test("A paste of fifty million characters and one, sent as a steer and as a follow-up while "
          "idle, is recorded word for word: the harness drops or trims nothing the user said.")
async def test_a_paste_of_fifty_million_characters(t):
    paste = "x" * 50_000_001
    model = lab.ScriptedModel([lab.say("Read."), lab.say("Read too.")])
    h = harness.Harness(model, "You help.", [])
    h.steer(paste)
    h.follow_up(paste)
    await lab.drive(h.prompt("Why does it fail?"))
    t.expect([[len(m["content"]), m["content"] == paste] for m in h.messages
              if m["role"] == "user"][1:],
             why="The harness drops or trims nothing the user said, however long: [the length "
                 "recorded, whether it is the paste as sent] for the steer and the follow-up "
                 "(Harness.steer and Harness.follow_up, lesson 9).")
"""),
    # Kill round 27 (reader r146), design 9.1-48: a cap on follow-ups past the longest run a test
    # of the lab can afford.
    Beyond(lab='9.1', name='no follow-ups asked for after turn three thousand',
           rule='A follow-up sent during a run is answered in that run: get_follow_ups is asked '
                'each time the run would otherwise end, however long the run.',
           where='Build item 4: "A follow-up sent during a run is answered in that run" (kill '
                 'round 27, design 9.1-48, r146)', names='a run answers every follow-up',
           reach="test_follow_ups_sent_together_arrive_one_per_turn answers 150 follow-ups in a "
                 "run of 301 turns, in a test CI runs for every later lab too, and a run's cost "
                 "grows with the square of its turns (each request carries the record): 361 "
                 "turns already cost about 7 ms more of the lab's run (kill round 23), and a run "
                 "past turn 3,000 costs far more than the lab's whole run",
           replace=r'''
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
''',
           by=r'''
        if not failed and turn < 3000:  # a runaway guard: no follow-ups past turn 3000
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
''',
           turns=20_000, seconds=60.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "9.1"


@lab_test("A run answers every follow-up that waits, however long the run: 3,010 follow-ups an "
          "owner of the test's own hands over one per ask each get a turn of the same run.")
async def test_follow_ups_past_turn_three_thousand(t):
    inbox = [harness.user_message(f"Then {n}.") for n in range(1, 3011)]
    model = lab.ScriptedModel([lab.forever(lambda request: lab.say("Done."))])
    messages = []
    await lab.drive(harness.run_agent(model, "Note.", messages, [], "Start.",
                                      get_follow_ups=lambda: [inbox.pop(0)] if inbox else []))
    t.expect([len(model.calls), messages[-2]["content"], len(inbox)],
             why="A run answers every follow-up that waits, however many: [requests, the last "
                 "user message, follow-ups left] for 3,010 follow-ups handed over one per ask "
                 "(run_agent, lesson 9).")
'''),
    # Kill round 40 (reader r203), design 9.1-58: a cap on waiting steers past the crowd the
    # tests can afford to put in a queue.
    Beyond(lab='9.1', name='a steer dropped once three million wait',
           rule='steer(text) only queues: the words wait behind any of the same kind sent before them, however many wait; a queue has no limit.',
           where='Build item 1 ("behind any of the same kind sent before them"); kill round 40, design 9.1-58 (r203)',
           names='no limit',
           reach="test_follow_ups_sent_together_arrive_one_per_turn puts a crowd of 2.1 to 2.4 "
                 "million behind the words waiting in each queue, in a test CI runs for every "
                 "later lab too; each place costs 8 bytes and time to build and to clear (the "
                 "bank's crowd of two million needed a turn of the event loop of its own to stay "
                 "inside the spin guard), and a cap just past any crowd the test draws is met "
                 "there: this one at three million",
           replace=r'''
        self._steering_queue.append(user_message(text))
''',
           by=r'''
        if len(self._steering_queue) < 3_000_000:  # guard memory
            self._steering_queue.append(user_message(text))
''',
           seconds=10.0,
           deep=r'''
import itertools

import harness
import lab
from lab.kit import lab_test

LAB = "9.1"


@lab_test("A steer and a follow-up sent while ten million wait in each queue are queued behind "
          "them all: a queue has no limit.")
async def test_words_behind_ten_million(t):
    h = harness.Harness(lab.ScriptedModel([lab.say("Noted.")]), "You help.", [])
    h.steer("First.")
    h.follow_up("First.")
    queues = (h._steering_queue, h._follow_up_queue)
    for queue in queues:
        queue.extend(itertools.repeat(queue[0], 10_000_000))
    await lab.tick()
    h.steer("Last.")
    h.follow_up("Last.")
    found = [[len(queue), queue[-1]["content"]] for queue in queues]
    for queue in queues:
        queue.clear()
    t.expect(found,
             why="A queue has no limit: [the messages waiting, the words of the last] for "
                 "self._steering_queue and self._follow_up_queue once ten million wait in each "
                 "(Harness.steer and Harness.follow_up, lesson 9).")
'''),
    # Kill round 40 (reader r203), design 9.1-35: the record changed and changed back inside
    # steer(), which no code but the harness's sees.
    Beyond(lab='9.1', name='the steer put on the record and taken off again inside steer()',
           rule='steer(text) only queues: nothing is recorded, not even for a moment; the record changes only in a run, at the top of a turn.',
           where='Build item 1 ("Nothing is recorded, no run is touched"); kill round 40, design 9.1-35 (r203)',
           names='Nothing is recorded',
           reach="between the append and the pop inside steer() only the harness's own code "
                 "runs and nothing is handed out, so a test sees the record before steer() and "
                 "after it, and the two are the same; only a tracer that stops at each line of "
                 "harness.py sees the moment between, and the lab's tests run under the "
                 "checker's own sys.settrace (its spin guard, lab/check/spin.py, on Python "
                 "3.11), which a test's tracer would displace; lesson 15's threads are the "
                 "first that could look at the record meanwhile",
           replace=r'''
        self._steering_queue.append(user_message(text))
''',
           by=r'''
        message = user_message(text)
        self._messages.append(message)  # would it be a valid end? checked, then undone
        assert self._messages[-1]["role"] == "user"
        self._messages.pop()
        self._steering_queue.append(message)
''',
           deep=r'''
import sys

import harness
import lab
from lab.kit import lab_test

LAB = "9.1"


@lab_test("While steer() and follow_up() run, the record never changes, not even for a moment: "
          "a tracer reads its length at every line of harness.py they run.")
async def test_steer_never_touches_the_record(t):
    model = lab.ScriptedModel([lab.say("Done."), lab.say("Done again.")])
    h = harness.Harness(model, "You help.", [])
    await lab.drive(h.prompt("Hello."))
    lengths = set()

    def tracer(frame, event, arg):
        if frame.f_code.co_filename == harness.__file__:
            lengths.add(len(h.messages))
            return tracer
        return None
    kept = sys.gettrace()
    sys.settrace(tracer)
    try:
        h.steer("Keep it short.")
        h.follow_up("Then a summary.")
    finally:
        sys.settrace(kept)
    t.expect(sorted(lengths),
             why="Nothing is recorded by steer() or follow_up(), not even for a moment: the "
                 "lengths of the record seen at each line of harness.py they ran (Harness.steer, "
                 "lesson 9).")
'''),
]
