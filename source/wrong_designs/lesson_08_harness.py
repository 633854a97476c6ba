"""Lesson 8, "The harness: two writers, one list": the wrong designs its rungs rule out, each as
a small change to lab 8.1's reference. The format is tools/wrong_designs.py's.

Issue 11A's entry, "keeping the run alive", is a harness that keeps a strong reference to its
run, so that `for event in h.prompt(...): break` leaves it "already running" for good. The
entries after it are the hunt's round 3 (source/hunts/round-3.md).
"""
from tools.wrong_designs import Beyond, Wrong

WRONG = [
    Wrong(lab='8.1', name="the caller's list handed to every run",
          rule='The harness copies messages into a list of its own, and its runs write only to that list.',
          where='failure scene: Send, and send again',
          names='list of its own',
          replace=r'''
        self._messages, self._max_turns = list(messages), max_turns
''',
          by=r'''
        self._messages = messages if isinstance(messages, list) else list(messages)
        self._max_turns = max_turns
'''),
    Wrong(lab='8.1', name='handing out the list',
          rule='h.messages is a tuple, a snapshot made fresh on every read: nobody outside can append to it or pop from it.',
          where='rung: One owner',
          names='snapshot',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return self._messages  # readers need all of it
'''),
    Wrong(lab='8.1', name='deep copies',
          rule='A snapshot holds the very message dicts the events carry: the list is copied, the messages are not.',
          where='rung: One owner',
          names='no deep copies',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        import copy
        return tuple(copy.deepcopy(self._messages))  # nobody outside can change anything
'''),
    Wrong(lab='8.1', name='checking for a second run at the first step instead of in prompt',
          rule="prompt() is a plain def that refuses a second run when it is called, on the caller's line, not at the second run's first step.",
          where='rung: Refuse, and refuse now',
          names='when it is called',
          replace=r'''
    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run
''',
          by=r'''
    def prompt(self, text):
        if self.is_running:  # checked when the run takes its first step
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
        self._run_now = weakref.ref(run)
        yield from run
'''),
    Wrong(lab='8.1', name='interleaving a second prompt',
          rule='One run at a time writes to the transcript: prompt() refuses while a run is in progress.',
          where='failure scene: Send, and send again; open question: The second message',
          names='refuses while a run is in progress',
          replace=r'''
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
''',
          by=r'''
        run = self._run(text)  # both questions deserve an answer
'''),
    Wrong(lab='8.1', name='silently queueing a second prompt',
          rule='prompt() refuses while a run is in progress; a message kept in silence runs later against a conversation that has moved on.',
          where='rung: Refuse, and refuse now; open question: The second message',
          names='refuses while a run is in progress',
          replace=r'''
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run
''',
          by=r'''
        if self.is_running:  # kept, and started as soon as this run ends
            self._queued = getattr(self, "_queued", []) + [text]
            return (event for event in ())
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run
'''),
    Wrong(lab='8.1', name='clearing the flag only on a normal end',
          rule='is_running is read off the run itself, so no way out can forget to reset it: a run closed by its consumer, or killed, is over.',
          where='rung: Who says the run is over?',
          names='read off the run',
          replace=r'''
        run = self._run_now and self._run_now()  # None once nobody holds the run
        return run is not None and run.gi_frame is not None  # a finished run has no frame

    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run
''',
          by=r'''
        return getattr(self, "_flag", False)

    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        self._flag = True
        return self._flagged(text)

    def _flagged(self, text):
        yield from self._run(text)
        self._flag = False  # the run is over
'''),
    Wrong(lab='8.1', name='the flag cleared in a finally',
          rule='is_running is read off the run itself: a generator closed before its first step never runs its finally, so a flag cleared there stays stuck.',
          where='rung: Who says the run is over?',
          names='never runs its finally',
          replace=r'''
        run = self._run_now and self._run_now()  # None once nobody holds the run
        return run is not None and run.gi_frame is not None  # a finished run has no frame

    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run
''',
          by=r'''
        return getattr(self, "_flag", False)

    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        self._flag = True
        return self._flagged(text)

    def _flagged(self, text):
        try:
            yield from self._run(text)
        finally:  # every way out clears it; or so it seems
            self._flag = False
'''),
    Wrong(lab='8.1', name='a threading lock',
          rule='Whether a run is going is read off the run itself: a lock, like a flag, must be released on every way out, including a run that never started.',
          where="open question: A colleague's lock",
          names='never runs its finally',
          replace=r'''
        run = self._run_now and self._run_now()  # None once nobody holds the run
        return run is not None and run.gi_frame is not None  # a finished run has no frame

    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run
''',
          by=r'''
        return self._lock.locked()

    def prompt(self, text):
        if not self._lock.acquire(blocking=False):  # taken: refuse
            raise RuntimeError("already running; use steer() or follow_up()")
        return self._locked(text)

    def _locked(self, text):
        try:
            yield from self._run(text)
        finally:
            self._lock.release()

    @property
    def _lock(self):
        import threading
        if "_the_lock" not in vars(self):
            self._the_lock = threading.Lock()
        return self._the_lock
'''),
    Wrong(lab='8.1', name='keeping the run alive',
          rule='A run its consumer broke away from and let go of is over: the harness keeps only a weak reference to its run, so is_running cannot keep it alive.',
          where='rung: Who says the run is over? (the row consumer_breaks_and_lets_go, the column "run, held")',
          names='weak reference',
          replace=r'''
        run = self._run_now and self._run_now()  # None once nobody holds the run
''',
          by=r'''
        run = self._run_now  # the run itself, held for as long as the harness lives
''',
          also=((r'''
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
''', r'''
        self._run_now = run
'''),)),
    Wrong(lab='8.1', name='the inner run kept on the harness',
          rule='However the run ends, the run_agent run inside it ends too.',
          where='lab 8.1, gap 4: "The run itself"',
          names='the run_agent run inside it ends',
          replace=r'''
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
        try:
            for event in inner:
                yield event
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
''',
          by=r'''
        self._inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                                max_turns=self._max_turns)
        for event in self._inner:
            yield event
'''),
    Wrong(lab='8.1', name="the caller's list of tools kept",
          rule='The harness keeps the tools in a list of its own: a tool the caller adds to its list afterwards is not offered.',
          where='Build item 1: "the tools in a list of its own"',
          names='a list of its own',
          replace=r'''
        self._model, self._system, self._tools = model, system, list(tools)
''',
          by=r'''
        self._model, self._system, self._tools = model, system, tools
'''),
    # Round 3 of the hunt (source/hunts/round-3.md), 8.1-1 to 8.1-15.
    Wrong(lab='8.1', name='a flag cleared in a finally and by a weakref callback',
          rule="is_running is False once the run is over, however it ends, a run closed before its first step that its caller still holds included; it is read off the run itself, not kept in a flag.",
          where='Build item 3; the Harness docstring',
          names='still holds the closed run',
          replace=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
""",
          by=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
        self._running = False
""",
          also=((r"""
        run = self._run_now and self._run_now()  # None once nobody holds the run
        return run is not None and run.gi_frame is not None  # a finished run has no frame
""", r"""
        return self._running
"""), (r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run
""", r"""
        self._running = True
        run = self._run(text)
        self._run_now = weakref.ref(run, lambda ref: self._stop())  # a run freed unstarted
        return run

    def _stop(self):
        self._running = False
"""), (r"""
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""", r"""
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
            self._running = False
"""))),
    Wrong(lab='8.1', name='the run primed in prompt()',
          rule='prompt() hands back the run and runs none of it: the run has taken no step when prompt() returns.',
          where='Build item 4: "and runs none of it"',
          names='primes the run',
          replace=r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        run = self._run(text)
        next(run)  # into the try: from here on its finally covers every way out
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          also=((r"""
        try:
            for event in inner:
""", r"""
        try:
            yield  # the priming stop; prompt() steps over it
            for event in inner:
"""),)),
    Wrong(lab='8.1', name='the run held until its first step',
          rule='The harness keeps only a weak reference to the run, from prompt() on: a run handed out and dropped before its first step is over.',
          where='Build item 3: "let go of by everyone who held it"',
          names='not the run until it starts',
          replace=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
""",
          by=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
        self._unstarted = None
""",
          also=((r"""
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""", r"""
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        self._unstarted = run  # held until it starts, so it cannot vanish before anyone reads it
"""), (r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
""", r"""
        self._unstarted = None  # started: from now on its consumer keeps it alive
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
"""))),
    Wrong(lab='8.1', name='max_turns=0 kept as no cap',
          rule="The harness keeps max_turns as given and hands it to every run: a cap of 0 allows no request, and only None means no cap (lesson 5).",
          where='Build item 1; lesson 5, Build item 2',
          names='not "no cap"',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = list(messages), max_turns or None  # none given: no cap
"""),
    Wrong(lab='8.1', name='the given messages copied through the view',
          rule="The transcript starts as the messages given, every one of them, an empty failed reply included: it is a record; only each request leaves such a reply out.",
          where='Build item 1: "Its transcript starts as what it was given"',
          names='every message as given',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = context_for_model(list(messages)), max_turns
"""),
    Wrong(lab='8.1', name='the inner run left to be freed',
          rule="However the run ends, the run_agent run inside it ends too: _run closes it itself, not only when Python frees it.",
          where='Build item 5; gap 4',
          names='closes it itself',
          replace=r"""
        try:
            for event in inner:
                yield event
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        for event in inner:  # when this run is freed, so is the inner one
            yield event
"""),
    Wrong(lab='8.1', name="a model's exception swallowed by the run",
          rule="A run killed by an exception is over, and the exception goes through it to the consumer; a run does not end in silence.",
          where='Build item 3: "killed by an exception"',
          names='goes through it to the consumer',
          replace=r"""
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        except Exception:  # a broken run must not take the frontend down with it
            return
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
"""),
    # The kind operators (bench/kinds.py), a loop given a limit: a survivor of their first run.
    Wrong(lab='8.1', name="the run's events cut off after 300",
          rule='Build item 5: the run hands on each event of run_agent; a loop over the inner run '
               'given a limit drops the end of a long job, its agent_end among it.',
          where='Build item 5: "hands on each event of `run_agent`"',
          names='however many',
          replace=r'''
            for event in inner:
''',
          by=r'''
            import itertools
            for event in itertools.islice(inner, 300):
'''),
    # Round 6 of the hunt (source/hunts/round-6.md), reader r21's designs 8.1-1 to 8.1-24.
    Wrong(lab='8.1', name='prompt() asking whether the last run still exists',
          rule="prompt() refuses while a run is going, not while the last run it handed out still exists: a run that is over, though its caller still holds it, lets the next prompt through.",
          where='Build item 4: "While a run is going, it raises a `RuntimeError`"',
          names='not whether the last one still exists',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
""",
          by=r"""
        if self._run_now is not None and self._run_now() is not None:  # the last run is around
"""),
    Wrong(lab='8.1', name='copies of the events handed on',
          rule="The run hands on each event of run_agent, the very objects: a copy of each event hands the consumer messages that are not the ones recorded.",
          where='Build item 5: "hands on each event of `run_agent`"',
          names='not copies',
          replace=r"""
            for event in inner:
                yield event
""",
          by=r"""
            import copy
            for event in inner:
                yield copy.deepcopy(event)  # the consumer cannot scribble on the record
"""),
    Wrong(lab='8.1', name='the inner run closed only on GeneratorExit',
          rule="However the run ends, the run_agent run inside it ends too: an exception thrown into the run at its yield is an ending as well as a close().",
          where='Build item 5: "However the run ends, the `run_agent` run inside it ends too."',
          names='misses the throw',
          replace=r"""
        try:
            for event in inner:
                yield event
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        try:
            for event in inner:
                yield event
        except GeneratorExit:  # the consumer walked away: end the inner run too
            inner.close()
            raise
"""),
    Wrong(lab='8.1', name='one run going for every harness',
          rule="Each harness owns its runs: is_running says whether this harness's run is going, so another harness's run neither makes it True nor refuses its prompt().",
          where='Build item 3: "says whether a run is going"',
          names="this harness's run only",
          replace=r"""
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        Harness._run_now = weakref.ref(run)  # one for all: the run that is going
""",
          also=((r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
""", r"""
        Harness._run_now = getattr(Harness, "_run_now", None)  # shared by every harness
"""),)),
    Wrong(lab='8.1', name="an empty list passed in kept as the caller's",
          rule="The transcript starts in a list of its own, whatever was given: an empty list is the caller's too, and copying it keeps the caller's later appends out.",
          where='Build item 1: "in a list of its own, so that a caller who changes its list afterwards changes nothing in the harness"',
          names='an empty one too',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        # nothing to copy in an empty list: it is used as it is
        self._messages = list(messages) if messages or not isinstance(messages, list) else messages
        self._max_turns = max_turns
"""),
    Wrong(lab='8.1', name='the prompt stripped',
          rule="The run records the prompt word for word (lesson 3): spaces and newlines around it are the user's too.",
          where='Build item 4: "hands back the run, a generator of `run_agent`\'s events over the harness\'s transcript"',
          names='word for word',
          replace=r"""
        run = self._run(text)
""",
          by=r"""
        run = self._run(text.strip())  # nobody means the spaces around their words
"""),
    Wrong(lab='8.1', name='an empty prompt dropped',
          rule="prompt() hands back the run, a generator of run_agent's events, whatever the text: an empty prompt is a run too, recorded like any other.",
          where='Build item 4: "hands back the run, a generator of `run_agent`\'s events over the harness\'s transcript, and runs none of it"',
          names='the empty prompt',
          replace=r"""
        run = self._run(text)
""",
          by=r"""
        if not text.strip():  # nothing to say: the model is not bothered
            return (event for event in ())
        run = self._run(text)
"""),
    Wrong(lab='8.1', name='a second prompt replacing an unread run',
          rule="A run counts as going from the moment prompt() returns: a second prompt() before the first run is read is refused, not put in its place.",
          where='Build: "A run must count as going straight after `prompt()` returns, before any event has been asked for"',
          names='not put in its place',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
""",
          by=r"""
        current = self._run_now and self._run_now()
        if current is not None and current.gi_frame is not None and not (
                current.gi_running or current.gi_suspended):  # made, not yet started
            current.close()  # nothing of it has happened yet: the new Send replaces it
        if self.is_running:  # refused now, not at the run's first step
"""),
    Wrong(lab='8.1', name='only a started run refused',
          rule="A run counts as going from the moment prompt() returns: a second prompt() before the first run is read is refused, not let through beside it.",
          where='Build: "A run must count as going straight after `prompt()` returns, before any event has been asked for"',
          names='not let through',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
""",
          by=r"""
        current = self._run_now and self._run_now()
        if current is not None and (current.gi_suspended or current.gi_running):  # under way
"""),
    Wrong(lab='8.1', name='the weak reference kept for the first run only',
          rule="is_running is True from the moment prompt() returns until that run is over, in every run of the harness: the reference is to the run prompt() handed out last.",
          where='Build item 3: "It is `True` from the moment `prompt()` returns until that run is over"',
          names='not only its first',
          replace=r"""
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        if self._run_now is None:  # no run remembered yet: remember this one
            self._run_now = weakref.ref(run)
"""),
    Wrong(lab='8.1', name='a made-up agent_end before the raise',
          rule="The run hands on each event of run_agent and nothing else, and a model's exception goes through it to the consumer: an agent_end made up before the raise lets a consumer that stops there miss it.",
          where='Build item 5: "hands on each event of `run_agent`"',
          names='none made up',
          replace=r"""
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        except Exception:
            yield {"type": "agent_end", "messages": []}  # keep the consumer's events balanced
            raise
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
"""),
    Wrong(lab='8.1', name='a key written into the given messages',
          rule="The dicts given are shared, not copied, so the harness writes nothing into them: every message as given, no key added.",
          where='Build item 1: "The dicts in that list are shared, not copied."',
          names='no key added',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = list(messages), max_turns
        for n, message in enumerate(self._messages):
            message["seq"] = n  # stable ids for the frontend
"""),
    Wrong(lab='8.1', name='a given list ending in an unanswered call tidied',
          rule="The transcript starts as what it was given, a list that ends in a call with no result too: it is a record, not a list to tidy.",
          where='Build item 1: "Its transcript starts as what it was given"',
          names='not a list to tidy',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = list(messages), max_turns
        if (self._messages and self._messages[-1]["role"] == "assistant"
                and tool_calls(self._messages[-1])):  # a provider would refuse it
            self._messages.pop()
"""),
    Wrong(lab='8.1', name='a refused prompt kept and folded into the next',
          rule="A refused prompt is refused, not quietly kept for later: the next prompt is recorded as sent.",
          where='Build: "or quietly kept for later"',
          names='not quietly kept for later',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
""",
          by=r"""
        refused = vars(self).setdefault("_refused", [])
        if self.is_running:  # refused now, not at the run's first step
            refused.append(text)  # the user's words must not be lost
            raise RuntimeError("already running; use steer() or follow_up()")
        if refused:
            text = "\n\n".join(refused + [text])
            refused.clear()
        run = self._run(text)
"""),
    Wrong(lab='8.1', name="a model's network failure recorded as a failed reply",
          rule="Any exception from the model goes through the run to the consumer, a ConnectionError too; the run hands on only run_agent's events and records no reply of its own.",
          where='Build item 3: "killed by an exception"',
          names='a ConnectionError too',
          replace=r"""
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        except (ConnectionError, TimeoutError) as failure:  # the provider failed: record it
            ending = error_message(f"provider failed: {failure}")
            self._messages.append(ending)
            yield {"type": "message_end", "message": ending}
            yield {"type": "agent_end", "messages": [ending]}
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
"""),
    Wrong(lab='8.1', name='a public method that appends to the transcript',
          rule="While a run is going, the run is the transcript's one writer: a method that appends at any time puts a message between two of the run's events that no event announced.",
          where='Build item 6: "One writer" (hunt round 6, 8.1-12)',
          names='One writer',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def append_message(self, message):
        # for a caller who has a message to add: onto the transcript, at once
        self._messages.append(message)

    def _run(self, text):
"""),
    # Round 11, reader r49 (source/hunts/round-11.md, 8.1).
    Wrong(lab='8.1', name='a snapshot cached until the length changes',
          rule="h.messages is a snapshot made on every read: a tuple kept and handed out again until the transcript's length changes misses a change that keeps the length.",
          where='Build item 2: "a snapshot of the transcript, made on every read"',
          names='made on every read',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        cached = getattr(self, "_cached", None)  # rebuilt only when the transcript grows
        if cached is None or len(cached) != len(self._messages):
            self._cached = cached = tuple(self._messages)
        return cached
"""),
    Wrong(lab='8.1', name='a snapshot kept by the run',
          rule="h.messages is a snapshot made on every read, not one the run rebuilds at each message_end and the property hands out again: a write with no event after it is never seen.",
          where='Build item 2: "a snapshot of the transcript, made on every read"',
          names='made on every read',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        if not hasattr(self, "_kept"):
            self._kept = tuple(self._messages)
        return self._kept  # rebuilt by the run at each message_end
""",
          also=((r"""
            for event in inner:
                yield event
""", r"""
            for event in inner:
                if event["type"] == "message_end":
                    self._kept = tuple(self._messages)
                yield event
"""),)),
    Wrong(lab='8.1', name='the transcript a public attribute',
          rule="One writer: the transcript kept in a public list attribute lets whoever holds the harness append to it during a run, between a call and its result.",
          where='Build item 6: "While a run is going, that run is the only thing that writes to the transcript."',
          names='One writer',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    @property
    def transcript(self):  # for a frontend that draws the conversation
        return self._messages

    def _run(self, text):
"""),
    Wrong(lab='8.1', name='a method that hands out the list',
          rule="One writer: a public method that returns the transcript's own list hands every caller a way to write to it during a run.",
          where='Build item 6: "While a run is going, that run is the only thing that writes to the transcript."',
          names='One writer',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def history(self):
        # the conversation, for a frontend to draw
        return self._messages

    def _run(self, text):
"""),
    Wrong(lab='8.1', name='a method of two arguments that adds a message',
          rule="No method of the harness adds a message to the transcript, whatever it is called with: two arguments, a role and a text, too.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with."',
          names='One writer',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def add(self, role, content):
        # note something on the transcript
        self._messages.append({"role": role, "content": content})

    def _run(self, text):
"""),
    Wrong(lab='8.1', name='a method that appends any message but a user one',
          rule="No method of the harness adds a message to the transcript, whatever it is called with: an assistant message or a tool result too, not only a user message.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with."',
          names='One writer',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def append_message(self, message):
        # user words go through prompt(); any other message is added here
        if isinstance(message, dict) and message.get("role") != "user":
            self._messages.append(message)

    def _run(self, text):
"""),
    Wrong(lab='8.1', name='a follow-up kept for a second run_agent run inside the run',
          rule="The run prompt() hands out is one run_agent run: words kept for later and started as another run_agent run when the first ends give one run two agent_end events, the second prompt quietly kept for later.",
          where='Build section: "a second run refused only when it takes its first step, or quietly kept for later"',
          names='quietly kept for later',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def follow_up(self, text):
        # words for after the current run: kept, and run when it ends
        if isinstance(text, str):
            self.__dict__.setdefault("_later", []).append(text)

    def _run(self, text):
""",
          also=((r"""
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""", r"""
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
        later = self.__dict__.get("_later", [])
        while later:
            yield from run_agent(self._model, self._system, self._messages, self._tools,
                                 later.pop(0), max_turns=self._max_turns)
"""),)),
    Wrong(lab='8.1', name='a refusal named RuntimeError that is not one',
          rule="prompt() raises a RuntimeError while a run is going: an exception of another class that only takes the name is not caught by `except RuntimeError`.",
          where='Build item 4: "it raises a `RuntimeError` whose text is `already running; use steer() or follow_up()`"',
          names='is a RuntimeError',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
""",
          by=r"""
        if self.is_running:  # refused now, not at the run's first step
            busy = type("RuntimeError", (Exception,), {})  # the name the caller reads
            raise busy("already running; use steer() or follow_up()")
"""),
    Wrong(lab='8.1', name='shallow copies of the events handed on',
          rule="The run hands on each event of run_agent, the very dict: a shallow copy holds the same message but is not run_agent's event.",
          where='Build item 5: "hands on each event of `run_agent`"',
          names="run_agent's own",
          replace=r"""
            for event in inner:
                yield event
""",
          by=r"""
            for event in inner:
                yield dict(event)  # the consumer gets an event of its own
"""),
    Wrong(lab='8.1', name='the last message marked when the run is closed',
          rule="Nothing but run_agent writes to the transcript, and no message is changed once recorded: a run that writes a key into the last message when it is closed changes a message it did not make, the caller's own dict too.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with."',
          names='no key added, none changed',
          replace=r"""
            for event in inner:
                yield event
""",
          by=r"""
            try:
                for event in inner:
                    yield event
            except GeneratorExit:  # closed by its consumer: say so on the record
                if self._messages:
                    self._messages[-1]["interrupted"] = True
                raise
"""),
    Wrong(lab='8.1', name='the same prompt twice taken for a double click',
          rule="Every prompt is a run: the same words twice in a row are two runs, not one run and an empty generator.",
          where='Build item 4: "hands back the run, a generator of `run_agent`\'s events over the harness\'s transcript"',
          names='the same words',
          replace=r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run
""",
          by=r"""
        if text == getattr(self, "_last_text", None):  # a double click: no second run
            self._last_text = text
            return (event for event in ())
        self._last_text = text
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run
"""),
    Wrong(lab='8.1', name='a write queued by a method and made by the run at its next event',
          rule="One writer: a method that queues words the run writes before handing on its next event, with no event of its own, puts a message between a call and its result that no event announced.",
          where='Build item 6: "While a run is going, that run is the only thing that writes to the transcript."',
          names='events announced',
          replace=r"""
            for event in inner:
                yield event
""",
          by=r"""
            for event in inner:
                for words in self.__dict__.pop("_steered", []):
                    self._messages.append(user_message(words))
                yield event
""",
          also=((r"""
    def _run(self, text):
""", r"""
    def steer(self, text):
        # words for the model during the run, written before its next event
        if isinstance(text, str):
            self.__dict__.setdefault("_steered", []).append(text)

    def _run(self, text):
"""),)),
    Wrong(lab='8.1', name='the run of an empty prompt not tracked',
          rule="is_running is True from the moment prompt() returns, for every prompt: a run of the empty prompt kept no track of lets a second prompt in while it goes.",
          where='Build item 3: "It is `True` from the moment `prompt()` returns until that run is over"',
          names='the empty prompt',
          replace=r"""
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        if text:  # an empty prompt is hardly a run
            self._run_now = weakref.ref(run)
"""),
    Wrong(lab='8.1', name='a prompt from inside a tool let in',
          rule="While a run is going, prompt() raises: a run executing one of its tools is going, and a prompt() the tool makes is refused too.",
          where='Build item 4: "While a run is going, it raises a `RuntimeError`"',
          names='from inside a tool',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
""",
          by=r"""
        going = self._run_now and self._run_now()
        if self.is_running and not going.gi_running:  # a run executing right now lets it in
            raise RuntimeError("already running; use steer() or follow_up()")
"""),
    # Round 13, reader r67 (source/hunts/round-13.md, 8.1).
    Wrong(lab='8.1', name='a method that inserts a message at a place it is given',
          rule="No method of the harness adds a message to the transcript, whatever it is called with: a place, a role and a text too, which a test calling with one or two arguments never reaches.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with." (hunt round 13, 8.1-03)',
          names='One writer',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def insert_message(self, index, role, text):
        # an editor's tool: a message of `role` at `index`
        self._messages.insert(index, {"role": role, "content": text})

    def _run(self, text):
"""),
    Wrong(lab='8.1', name='a method that records a tool result',
          rule="No method of the harness adds a message to the transcript, whatever it is called with: a toolResult a frontend made itself too, during a run.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with." (hunt round 13, 8.1-04)',
          names='One writer',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def record(self, message):
        # a result the frontend answered by hand
        if isinstance(message, dict) and message.get("role") == "toolResult":
            self._messages.append(message)

    def _run(self, text):
"""),
    Wrong(lab='8.1', name='the transcript held in a public namespace',
          rule="One writer: the transcript's own list one level down, in a public namespace, lets whoever holds the harness append to it during a run, as a public list attribute does.",
          where='Build item 6: "While a run is going, that run is the only thing that writes to the transcript." (hunt round 13, 8.1-05)',
          names='One writer',
          replace=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
""",
          by=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
        import types
        self.state = types.SimpleNamespace(transcript=self._messages)  # for a frontend
"""),
    Wrong(lab='8.1', name='a setter of h.messages',
          rule="No method of the harness changes the transcript while a run goes: a property setter is a method, and `h.messages = ...` during a run replaces the run's messages.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with." (hunt round 13, 8.1-06)',
          names='One writer',
          replace=r"""
    @property
    def is_running(self):
""",
          by=r"""
    @messages.setter
    def messages(self, value):
        self._messages[:] = list(value)  # the conversation as the caller wants it

    @property
    def is_running(self):
"""),
    Wrong(lab='8.1', name='a method that cuts the transcript back to a count',
          rule="No method of the harness takes a message out of the transcript, whatever it is called with: a number too, which cuts the run's messages away.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with." (hunt round 13, 8.1-07)',
          names='One writer',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def truncate(self, keep):
        # undo for a frontend: keep the first `keep` messages
        if isinstance(keep, int):
            del self._messages[keep:]

    def _run(self, text):
"""),
    Wrong(lab='8.1', name='operators that write the transcript',
          rule="No method of the harness adds a message or takes one out: `__iadd__` and `__delitem__` are methods too, and `h += [m]` or `del h[-1]` during a run write the run's transcript.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with." (hunt round 13, 8.1-08)',
          names='One writer',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def __iadd__(self, more):
        self._messages.extend(more)  # h += [message]
        return self

    def __delitem__(self, index):
        del self._messages[index]  # del h[-1]

    def _run(self, text):
"""),
    Wrong(lab='8.1', name='prompt() taking a message during a run',
          rule="While a run is going, prompt() raises, whatever it is handed, and no method adds a message: a prompt() that appends a message dict it is handed during a run writes beside the run.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with." (hunt round 13, 8.1-10)',
          names='One writer',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
""",
          by=r"""
        if self.is_running and isinstance(text, dict):  # a message: steered in at once
            self._messages.append(text)
            return None
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
"""),
    Wrong(lab='8.1', name='a second harness over the same list',
          rule="A transcript has one owner, and one run at a time writes to it: a method that hands back a second harness over the very same list lets a run of the second write while the first's run goes.",
          where='Build item 6: "While a run is going, that run is the only thing that writes to the transcript." (hunt round 13, 8.1-26)',
          names='One writer',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def fork(self, *ignored):
        # another harness on this conversation, to try something on the side
        other = Harness(self._model, self._system, self._tools, max_turns=self._max_turns)
        other._messages = self._messages
        return other

    def _run(self, text):
"""),
    Wrong(lab='8.1', name='a method that hands out the list when asked',
          rule="One writer: a method that returns the transcript's own list for a falsy argument hands a way to write to it to every caller who asks, during a run too.",
          where='Build item 6: "While a run is going, that run is the only thing that writes to the transcript." (hunt round 13, 8.1-29)',
          names='One writer',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def transcript(self, copy=True):
        # the conversation as a list: a copy unless copy is false
        return list(self._messages) if copy else self._messages

    def _run(self, text):
"""),
    Wrong(lab='8.1', name="the running run's words taken for a double click",
          rule="While a run is going, prompt() raises, whatever the words: a second prompt() of the very words the run was started with is refused too, not handed an empty run.",
          where='Build item 4: "While a run is going, it raises a `RuntimeError`" (hunt round 13, 8.1-11)',
          names='the very words the run was started with',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
""",
          by=r"""
        if self.is_running and text == getattr(self, "_words", None):  # a double click
            return iter(())
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        self._words = text
        run = self._run(text)
"""),
    Wrong(lab='8.1', name='a long prompt cut',
          rule="prompt(text) hands back the run of `text`, recorded word for word: a prompt over 2,000 characters cut to its first 2,000 is not what was sent.",
          where='Build item 4: "hands back the run, a generator of `run_agent`\'s events over the harness\'s transcript" (hunt round 13, 8.1-12)',
          names='however long it is',
          replace=r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        run = self._run(text[:2000] if isinstance(text, str) else text)  # a safety cap
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
"""),
    Wrong(lab='8.1', name='the run stopped after a thousand events',
          rule="The run hands on each event of run_agent, with no cap of its own: a run that stops after 1,000 events cuts off a job that makes more.",
          where='Build item 5: "hands on each event of `run_agent`" (hunt round 13, 8.1-13)',
          names='no cap of its own',
          replace=r"""
            for event in inner:
                yield event
""",
          by=r"""
            for count, event in enumerate(inner, 1):
                yield event
                if count >= 1000:  # a guard against a runaway run
                    return
"""),
    Wrong(lab='8.1', name='a snapshot of the last 200 messages',
          rule="h.messages is a snapshot of the transcript, the whole of it: the last 200 messages of a longer one are not it.",
          where='Build item 2: "a snapshot of the transcript, made on every read" (hunt round 13, 8.1-14)',
          names='none is held back or cut off',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages[-200:])  # reads stay cheap on a long conversation
"""),
    Wrong(lab='8.1', name='the given messages trimmed to the last 100',
          rule="The transcript starts as what it was given, every message: a harness opened on a long saved session that keeps only its last 100 messages has lost the rest.",
          where='Build item 1: "Its transcript starts as what it was given, in a list of its own" (hunt round 13, 8.1-15)',
          names='a long one of 2,000 messages or more',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = list(messages)[-100:], max_turns  # a long session trimmed
"""),
    Wrong(lab='8.1', name='no cap read as a cap of 100 turns',
          rule="The cap on turns the harness is given holds for every run, and None means no cap: a default of 100 turns stops a job that needs more.",
          where='Build item 1: "the cap on turns, which holds for every run" (hunt round 13, 8.1-16)',
          names='no cap of its own',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages = list(messages)
        self._max_turns = 100 if max_turns is None else max_turns  # a default, to be safe
"""),
    Wrong(lab='8.1', name="each new message stamped with its run's number",
          rule="No method of the harness changes a message, and the dicts are shared: a run that writes a key into each message run_agent recorded, before handing its message_end on, changes the record.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with." (hunt round 13, 8.1-18)',
          names='nothing written into it',
          replace=r"""
            for event in inner:
                yield event
""",
          by=r"""
            number = self.__dict__["_runs"] = self.__dict__.get("_runs", 0) + 1
            for event in inner:
                if event["type"] == "message_end":  # a frontend groups messages by run
                    event["message"]["run"] = number
                yield event
"""),
    Wrong(lab='8.1', name="agent_end's messages made the whole transcript",
          rule="The run hands on each event of run_agent as run_agent made it: an agent_end whose messages are rewritten to the whole transcript no longer says what the run added.",
          where='Build item 5: "hands on each event of `run_agent`" (hunt round 13, 8.1-31)',
          names="not an agent_end's messages changed",
          replace=r"""
            for event in inner:
                yield event
""",
          by=r"""
            for event in inner:
                if event["type"] == "agent_end":  # the whole session, for a frontend to save
                    event["messages"] = list(self._messages)
                yield event
"""),
    Wrong(lab='8.1', name='the transcript kept in a deque',
          rule="The transcript is a list of the harness's own, handed to run_agent: a deque that run_agent only appends to is another kind of container, which lesson 3's loop was never promised.",
          where='Build item 1: "Its transcript starts as what it was given, in a list of its own" (hunt round 13, 8.1-02)',
          names='in a list of its own',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        import collections
        self._messages, self._max_turns = collections.deque(messages), max_turns
"""),
    Wrong(lab='8.1', name='doubles taken out of the given messages',
          rule="The transcript starts as what it was given, every message: a given message equal to the one before it is kept, not taken for a double Send.",
          where='Build item 1: "Its transcript starts as what it was given, in a list of its own" (hunt round 13, 8.1-30)',
          names='the same words twice in a row',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = [], max_turns
        for message in messages:  # a double Send in a saved session, undone
            last = self._messages[-1] if self._messages else None
            if last is None or (last["role"], last["content"]) != (message["role"],
                                                                   message["content"]):
                self._messages.append(message)
"""),
    # Hunt round 16 (reader r86): designs that passed lab 8.1 while breaking a stated rule.
    Wrong(lab='8.1', name='the inner run primed behind an unstarted wrapper',
          rule="prompt(text) hands back the run and runs none of it: not the run it hands out, and not the run_agent run inside it either.",
          where='Build item 4: "and runs none of it"; hunt round 16, 8.1-09',
          names='primes the run_agent run inside',
          replace=r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run
""",
          by=r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                          max_turns=self._max_turns)
        first = next(inner)  # ready to go: the caller's first event is already made

        def run():
            try:
                yield first
                yield from inner
            finally:
                inner.close()
        run = run()
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run
"""),
    Wrong(lab='8.1', name='a third message alike in a row taken out of the given list',
          rule="The transcript starts as what it was given, every message of it: the same message three times in a row is kept three times.",
          where='Build item 1: "Its transcript starts as what it was given"; hunt round 16, 8.1-15',
          names='twice in a row, and three times',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = [], max_turns
        for message in messages:  # a stuck Send repeats itself: twice may be meant, thrice is not
            if self._messages[-2:] != [message, message]:
                self._messages.append(message)
"""),
    Wrong(lab='8.1', name='a result whose call is not in the given list dropped',
          rule="The transcript starts as what it was given, every message of it, a toolResult whose call the list does not hold too: the transcript is a record, not a list to tidy.",
          where='Build item 1: "Its transcript starts as what it was given"; hunt round 16, 8.1-39',
          names='a result whose call is not in it',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        called = {call["id"] for m in messages if m["role"] == "assistant"
                  for call in m.get("tool_calls") or ()}
        self._messages = [m for m in messages  # an orphan result answers nothing
                          if m["role"] != "toolResult" or m.get("tool_call_id") in called]
        self._max_turns = max_turns
"""),
    Wrong(lab='8.1', name='a keyword-only method that records a message',
          rule="No method of the harness adds a message to the transcript, whatever it is called with: by name, keyword-only, too.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 16, 8.1-18',
          names='keyword-only',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def inject(self, *, message):
        self._messages.append(message)
"""),
    Wrong(lab='8.1', name='a method that extends the transcript with a list',
          rule="No method of the harness adds a message to the transcript, whatever it is called with: a list of messages too.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 16, 8.1-19',
          names='a list holding a message',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def extend(self, messages):
        if not isinstance(messages, list):
            raise TypeError("extend() takes a list of messages")
        self._messages.extend(messages)
"""),
    Wrong(lab='8.1', name='the list handed out inside a tuple',
          rule="The harness hands back no way into its transcript: its own list, inside a tuple, is one.",
          where='Build item 6: "While a run is going, that run is the only thing that writes to the transcript"; hunt round 16, 8.1-20',
          names='a tuple, a dict, a second harness',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def history(self):
        return (self._messages,)  # a tuple: read-only, surely
"""),
    Wrong(lab='8.1', name='the list held in a public dict',
          rule="No public attribute of the harness is a way into its transcript: its own list, held in a dict, is one.",
          where='Build item 6: "While a run is going, that run is the only thing that writes to the transcript"; hunt round 16, 8.1-21',
          names='a tuple, a dict, a second harness',
          replace=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
""",
          by=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
        self.state = {"messages": self._messages}  # for a frontend to look at
"""),
    Wrong(lab='8.1', name='a slash command let past the refusal',
          rule="While a run is going, prompt() raises, whatever the words: a slash command too.",
          where='Build item 4: "While a run is going, it raises a `RuntimeError`"; hunt round 16, 8.1-23',
          names='slash command',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
""",
          by=r"""
        if self.is_running and not text.startswith("/"):  # a command is the frontend's own
"""),
    Wrong(lab='8.1', name='a prompt that is not a string let past the refusal',
          rule="While a run is going, prompt() hands back no second run, whatever it is given: it raises, for a prompt that is not a string too.",
          where='Build item 4: "While a run is going, though, it hands back no second run, whatever it is given: it raises"; hunt round 26, 8.1 probe 54 (r142)',
          names='not a string',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
""",
          by=r"""
        if self.is_running and isinstance(text, str):  # what is not words is the caller's own
"""),
    Wrong(lab='8.1', name='a refused question kept for the next prompt',
          rule="A refused prompt is refused, not quietly kept for later: a question too, and the next prompt is recorded as sent.",
          where='Build: "or quietly kept for later"; hunt round 16, 8.1-24',
          names='not quietly kept for later',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
""",
          by=r"""
        if self.is_running:  # refused now, not at the run's first step
            if text.endswith("?"):  # a question deserves an answer: asked with the next one
                self._asked = getattr(self, "_asked", "") + text + "\n"
            raise RuntimeError("already running; use steer() or follow_up()")
        text, self._asked = getattr(self, "_asked", "") + text, ""
        run = self._run(text)
"""),
    Wrong(lab='8.1', name='the inner run closed only on the exceptions expected',
          rule="However the run ends, the run_agent run inside it ends too: an exception of the caller's own class thrown into it too.",
          where='Build item 5: "However the run ends, the `run_agent` run inside it ends too"; hunt round 16, 8.1-25',
          names="the caller's is of a class of its own",
          replace=r"""
        try:
            for event in inner:
                yield event
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        try:
            for event in inner:
                yield event
        except (GeneratorExit, RuntimeError):  # closed, or killed by its caller
            inner.close()
            raise
"""),
    Wrong(lab='8.1', name='tabs stripped from the ends of a prompt',
          rule="A prompt is recorded word for word: tabs around it too.",
          where='Build item 4: "hands back the run"; hunt round 16, 8.1-29',
          names='tabs and newlines',
          replace=r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        run = self._run(text.strip("\t"))  # a pasted indent is not a word
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
"""),
    # Hunt round 19 (reader r104): writers the one-writer test did not reach, and a cap kept
    # for the first runs only.
    Wrong(lab='8.1', name='a writer that appends when told force=True',
          rule="While a run is going, no method of the harness adds a message, whatever it is called with: True by name too.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 19, r104-27',
          names='One writer',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def append_message(self, message=None, force=None):
        if force is True:  # only a caller who means it
            self._messages.append(message)
"""),
    Wrong(lab='8.1', name='a writer that inserts when given five arguments or more',
          rule="While a run is going, no method of the harness adds a message, whatever it is called with: a place, a role, a text and more.",
          where='Build item 6: "whatever it is called with"; hunt round 19, r104-29',
          names='One writer',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def insert_message(self, *args):
        if len(args) >= 5:  # place, role, text and what the frontend adds
            self._messages.insert(args[0], {"role": args[1], "content": args[2]})
"""),
    Wrong(lab='8.1', name='item assignment with a slice that writes',
          rule="While a run is going, nothing writes to the transcript through the harness: h[-1:] = ... no more than h[-1] = ...",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one"; hunt round 19, r104-38',
          names='One writer',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def __setitem__(self, place, value):
        if not isinstance(place, slice):
            raise TypeError("the transcript is read-only")
        self._messages[place] = value  # a slice is an edit of many: allowed
"""),
    Wrong(lab='8.1', name='a method that hands out the list between runs',
          rule="Nothing the harness hands out is a way into its transcript: a list handed out between runs and kept lets a caller write during the next run.",
          where='Build section: "the list itself handed out to readers"; Build item 6; hunt round 19, r104-39',
          names='One writer',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def history(self):
        return tuple(self._messages) if self.is_running else self._messages  # idle: no copy
"""),
    Wrong(lab='8.1', name='the cap kept for the first three runs only',
          rule="The harness's cap on turns holds for every run, the fourth and later too.",
          where='Build item 1: "the cap on turns, which holds for every run"; hunt round 19, r104-37',
          names='applies to every run',
          replace=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
""",
          by=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
        self._runs = 0
""",
          also=((r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
""", r"""
        self._runs += 1
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                          max_turns=self._max_turns if self._runs <= 3 else None)  # warmed up
"""),)),
    # Round 22 (reader r123): three of rounds 16 and 19's BEYOND, now caught by cheap cases
    # (a paste repeated, a saved list repeated), and the reader's passing designs.
    Wrong(lab='8.1', name='a prompt cut past a hundred thousand characters',
          rule='A prompt is recorded word for word however long it is.',
          where='Build item 4: "hands back the run"; hunt round 16, 8.1-13; caught in round 22',
          names='however long it is',
          replace=r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        run = self._run(text[:100_000])  # a paste past this is a mistake
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
"""),
    Wrong(lab='8.1', name='the given messages trimmed past five thousand',
          rule='The transcript starts as what it was given, every message of it, however long the list.',
          where='Build item 1: "Its transcript starts as what it was given"; hunt round 16, 8.1-14; caught in round 22',
          names='however long the list',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = list(messages)[-5000:], max_turns  # a window
"""),
    Wrong(lab='8.1', name='a snapshot of the last 2,400 messages',
          rule='h.messages is a snapshot of the whole transcript, however long.',
          where='Build item 2: "is a snapshot of the transcript, made on every read"; hunt round 19, r104-24; caught in round 22',
          names='snapshot of the whole transcript',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages[-2400:])  # nobody reads further back
"""),
    Wrong(lab='8.1', name='a prompt cut past seventy thousand characters',
          rule='A prompt is recorded word for word however long it is: a paste past 70,000 characters cut to its first 70,000 is not what was sent.',
          where='Build item 4: "hands back the run"; hunt round 22, r123-15',
          names='however long it is',
          replace=r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        run = self._run(text[:70_000])  # a paste past this is a mistake
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
"""),
    Wrong(lab='8.1', name='a prompt past a hundred thousand characters refused',
          rule='Every prompt is a run, recorded word for word however long it is: prompt() refuses only while a run is going, not a long paste.',
          where='Build item 4: "hands back the run"; hunt round 22, r123-28',
          names='none refused',
          replace=r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        if isinstance(text, str) and len(text) > 100_000:
            raise ValueError("prompt too long")
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
"""),
    Wrong(lab='8.1', name='the given messages trimmed to the last 4,000',
          rule='The transcript starts as what it was given, every message of it, however long the list: a window of the last 4,000 loses the rest.',
          where='Build item 1: "Its transcript starts as what it was given"; hunt round 22, r123-16',
          names='however long the list',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = list(messages)[-4000:], max_turns  # a window
"""),
    Wrong(lab='8.1', name='a fourth message alike in a row taken out of the given list',
          rule='The transcript starts as what it was given, every message of it: the same message four times in a row, or a thousand, is kept every time.',
          where='Build item 1: "Its transcript starts as what it was given"; hunt round 22, r123-17',
          names='a thousand times or more in a row',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = [], max_turns
        for m in messages:  # a fourth time the same is a double click
            if len(self._messages) >= 3 and all(p == m for p in self._messages[-3:]):
                continue
            self._messages.append(m)
"""),
    Wrong(lab='8.1', name='a snapshot of the last 10,000 messages',
          rule='h.messages is a snapshot of the whole transcript, however long: the last 10,000 messages of a longer one are not it.',
          where='Build item 2: "a snapshot of the transcript, made on every read"; hunt round 22, r123-30',
          names='snapshot of the whole transcript',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages[-10_000:])  # nobody reads further back
"""),
    Wrong(lab='8.1', name='a method that records a system message',
          rule='No method of the harness adds a message to the transcript, whatever it is called with: a system message too.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 22, r123-32',
          names='a system message',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def note(self, message):
        # a system note on the transcript
        if isinstance(message, dict) and message.get("role") == "system":
            self._messages.append(message)
"""),
    Wrong(lab='8.1', name='a method that records a (role, text) pair',
          rule='No method of the harness adds a message to the transcript, whatever it is called with: a (role, text) pair too.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 22, r123-33',
          names='(role, text)',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def add(self, item):
        # a (role, text) pair added to the transcript
        if isinstance(item, tuple):
            self._messages.append({"role": item[0], "content": item[1]})
"""),
    Wrong(lab='8.1', name='a keyword-only method that records a text',
          rule='No method of the harness adds a message to the transcript, whatever it is called with: a text by name, keyword-only, too.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 22, r123-36',
          names='then a text',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def say(self, *, text=None):
        # a user line put on the transcript
        if isinstance(text, str):
            self._messages.append(user_message(text))
"""),
    Wrong(lab='8.1', name='the list kept in a public attribute after each run',
          rule='While a run is going nothing but the run writes to the transcript: a public attribute that a finished run leaves holding the list is a way in during the next run.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 22, r123-35',
          names='between runs',
          replace=r"""
            for event in inner:
                yield event
""",
          by=r"""
            for event in inner:
                yield event
            self.last_transcript = self._messages  # for a frontend to show
"""),
    # Round 26 (reader r142): the reader's passing designs, and round 22's BEYOND "no cap read as
    # a cap of 200 turns", now caught: the tests look at the max_turns run_agent is handed.
    Wrong(lab='8.1', name='no cap read as a cap of 200 turns',
          rule="The harness's cap on turns holds for every run, and None means no cap, however many turns a job takes.",
          where='Build item 1: "the cap on turns, which holds for every run"; hunt round 22, r123-19; caught in round 26',
          names='no cap of its own',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages = list(messages)
        self._max_turns = 200 if max_turns is None else max_turns  # a default, to be safe
"""),
    Wrong(lab='8.1', name='no cap read as a cap of 1,000 turns',
          rule="The harness's cap on turns holds for every run, and None means no cap: a default of 1,000 turns is a cap of the harness's own.",
          where='Build item 1: "the cap on turns, which holds for every run"; hunt round 26, r142-10',
          names='no cap of its own',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages = list(messages)
        self._max_turns = 1000 if max_turns is None else max_turns  # a default, to be safe
"""),
    Wrong(lab='8.1', name='the cap kept for the first ten runs only',
          rule="The harness's cap on turns holds for every run, the eleventh and later too.",
          where='Build item 1: "the cap on turns, which holds for every run"; hunt round 26, r142-11',
          names='applies to every run',
          replace=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
""",
          by=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
        self._runs = 0
""",
          also=((r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
""", r"""
        self._runs += 1
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                          max_turns=self._max_turns if self._runs <= 10 else None)  # warmed up
"""),)),
    Wrong(lab='8.1', name='the given messages trimmed to the last 50,000',
          rule='The transcript starts as what it was given, every message of it, however long the list: a window of the last 50,000 loses the rest.',
          where='Build item 1: "Its transcript starts as what it was given"; hunt round 26, r142-06',
          names='however long the list',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = list(messages)[-50_000:], max_turns  # a window
"""),
    Wrong(lab='8.1', name='the system prompt stripped',
          rule="The harness keeps all that run_agent needs as given: the system prompt word for word, the spaces and newlines around it too.",
          where='Build item 1: "all that `run_agent` needs besides the transcript and the prompt"; hunt round 26, r142-07',
          names='system prompt word for word',
          replace=r"""
        self._model, self._system, self._tools = model, system, list(tools)
""",
          by=r"""
        self._model, self._system, self._tools = model, system.strip(), list(tools)  # tidy
"""),
    Wrong(lab='8.1', name='a snapshot of the last 50,000 messages',
          rule='h.messages is a snapshot of the whole transcript, however long: the last 50,000 messages of a longer one are not it.',
          where='Build item 2: "a snapshot of the transcript, made on every read"; hunt round 26, r142-15',
          names='snapshot of the whole transcript',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages[-50_000:])  # nobody reads further back
"""),
    Wrong(lab='8.1', name='a subclass of tuple named tuple whose pop() pops the transcript',
          rule='h.messages is a tuple, which nobody can append to: a subclass of tuple that calls itself tuple and has a pop() of its own into the transcript is a way to write to it.',
          where='Build item 2: "a tuple, which no later run changes and nobody can append to"; hunt round 26, r142-17b',
          names='a tuple itself',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return _Snapshot(self._messages)
""",
          also=((r"""
# == 5 frontends ==
""", r"""
class _Snapshot(tuple):
    # a tuple, with a pop() that takes the last message off the transcript
    def __new__(cls, source):
        self = super().__new__(cls, source)
        self._source = source
        return self

    def pop(self, index=-1):
        return self._source.pop(index)


_Snapshot.__name__ = _Snapshot.__qualname__ = "tuple"


# == 5 frontends ==
"""),)),
    Wrong(lab='8.1', name='a prompt cut past a million characters',
          rule='A prompt is recorded word for word however long it is: a paste past 1,000,000 characters cut to its first million is not what was sent.',
          where='Build item 4: "hands back the run"; hunt round 26, r142-30',
          names='however long it is',
          replace=r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        run = self._run(text[:1_000_000])  # a paste past this is a mistake
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
"""),
    Wrong(lab='8.1', name='a command led by @ let past the refusal',
          rule="While a run is going, prompt() raises, whatever the words: a command led by @, or by any other mark, too.",
          where='Build item 4: "While a run is going, it raises a `RuntimeError`"; hunt round 26, r142-33',
          names='any mark of punctuation',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
""",
          by=r"""
        if self.is_running and not text.startswith("@"):  # a mention is the frontend's own
"""),
    Wrong(lab='8.1', name='a method that adds an assistant message given a role and a text',
          rule='No method of the harness adds a message to the transcript, whatever it is called with: a role and a text, the role "assistant" too.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 26, r142-40b',
          names='each role',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def add(self, role, text):
        # an assistant's note on the transcript; a user's words go through prompt()
        if role != "assistant":
            raise ValueError("only assistant notes")
        self._messages.append({"role": role, "content": [{"type": "text", "text": text}]})
"""),
    Wrong(lab='8.1', name='a method of **keywords that records a text',
          rule='No method of the harness adds a message to the transcript, whatever it is called with: a text handed by a name that only **keywords takes, too.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 26, r142-41',
          names='**keywords',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def pin(self, **note):
        # pin a note to the transcript: pin(text="...")
        if "text" in note:
            self._messages.append(user_message(note["text"]))
"""),
    Wrong(lab='8.1', name='the list held in a slot of a public attribute',
          rule='While a run is going nothing but the run writes to the transcript: a public attribute whose slot holds the list is a way in.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 26, r142-42',
          names='slots',
          replace=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
""",
          by=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
        self.record = _View(self._messages)  # for a frontend to look at
""",
          also=((r"""
# == 5 frontends ==
""", r"""
class _View:
    __slots__ = ("items",)

    def __init__(self, items):
        self.items = items


# == 5 frontends ==
"""),)),
    Wrong(lab='8.1', name='a method that hands out the list four dicts deep',
          rule='No method of the harness hands out a way into the transcript: the list held four dicts down is one.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 26, r142-43',
          names='however deep',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def state(self):
        # everything, for a debugger
        return {"harness": {"run": {"record": {"list": self._messages}}}}
"""),
    Wrong(lab='8.1', name='a setter of h.messages that takes a list',
          rule='While a run is going nothing but the run writes to the transcript: h.messages assigned a list is a write too.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 29, r161-19',
          names='a tuple or a list',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    @messages.setter
    def messages(self, value):
        if not isinstance(value, list):  # a snapshot is not a transcript
            raise AttributeError("can't set attribute")
        self._messages[:] = value
"""),
    Wrong(lab='8.1', name='a deleter of h.messages that empties the transcript',
          rule='While a run is going nothing but the run takes a message out of the transcript: del h.messages is a way too.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 29, r161-20',
          names='del h.messages',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    @messages.deleter
    def messages(self):
        self._messages.clear()
"""),
    Wrong(lab='8.1', name='a method that records a note given the role system',
          rule='No method of the harness adds a message to the transcript, whatever it is called with: a role and a text with the role system too.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 29, r161-21',
          names='role (system too)',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def add(self, role, text):
        # a note of the harness's own kind; other roles are refused
        if role != "system":
            raise ValueError("only system notes")
        self._messages.append({"role": "system", "content": text})
"""),
    Wrong(lab='8.1', name='a method of **keywords that records a msg',
          rule='No method of the harness adds a message to the transcript, whatever it is called with: a message handed as msg= to a method of **keywords, too.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 29, r161-23',
          names='msg too',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def annotate(self, **extra):
        if "msg" in extra:
            self._messages.append(extra["msg"])
"""),
    Wrong(lab='8.1', name="a method that hands out the list's own append",
          rule='While a run is going nothing but the run writes to the transcript: a bound append of the list handed out is a way in.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 29, r161-24',
          names="a list's own append",
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def writer(self):
        return self._messages.append
"""),
    Wrong(lab='8.1', name='a public generator that appends what it is sent',
          rule='While a run is going nothing but the run writes to the transcript: an attribute handed out before the run, a generator holding the list, is a way in.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 29, r161-25',
          names='generator holding the list',
          replace=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
""",
          by=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last

        def inbox(transcript):  # h.inbox.send(message) records it
            while True:
                transcript.append((yield))
        self.inbox = inbox(self._messages)
        next(self.inbox)
"""),
    Wrong(lab='8.1', name='h += two messages or more written to the transcript',
          rule='While a run is going nothing but the run writes to the transcript: h += with two messages is a write too.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 29, r161-26',
          names='h += one message or two',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def __iadd__(self, other):
        if len(other) < 2:  # a batch, not a single message
            raise TypeError("add two or more")
        self._messages.extend(other)
        return self
"""),
    Wrong(lab='8.1', name='a long system prompt stripped',
          rule='The harness keeps the system prompt as given and hands it to every request word for word, however long.',
          where='Build item 1: "all that `run_agent` needs"; hunt round 29, r161-16',
          names='however long',
          replace=r"""
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._model, self._tools = model, list(tools)
        self._system = system.strip() if len(system) > 1000 else system  # a pasted file's edges
        self._messages, self._max_turns = list(messages), max_turns
"""),
    Wrong(lab='8.1', name='the given tool results copied',
          rule='The list given is copied, the messages in it are shared, not copied: a tool result too.',
          where='Build item 1: "The dicts in that list are shared, not copied"; hunt round 29, r161-17',
          names='a tool result too',
          replace=r"""
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages = [dict(m) if m.get("role") == "toolResult" else m for m in messages]
        self._max_turns = max_turns
"""),
    Wrong(lab='8.1', name='two harnesses made from one list sharing one transcript',
          rule='Each harness copies the list it is given into a list of its own: two harnesses made from one list keep apart.',
          where='Build item 1: "Its transcript starts as what it was given, in a list of its own"; hunt round 29, r161-27',
          names='one list keep apart',
          replace=r"""
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._model, self._system, self._tools = model, system, list(tools)
        shared = globals().setdefault("_SHARED", {})  # one transcript per list: a window reopened
        kept = shared.get(id(messages))
        if kept is not None and kept[0] is messages:
            self._messages = kept[1]
        else:
            self._messages = list(messages)
            if isinstance(messages, list):
                shared[id(messages)] = (messages, self._messages)
        self._max_turns = max_turns
"""),
    Wrong(lab='8.1', name='a __call__ that appends to the transcript',
          rule="While a run is going nothing but the run writes to the transcript: h(message) is a caller's syntax, so __call__ is a caller's way in, not the harness's own.",
          where='Build item 6: "except the special methods Python calls for a caller\'s own syntax"; hunt round 29, r161-41',
          names='One writer',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def __call__(self, message):
        self._messages.append(message)
"""),
    Wrong(lab='8.1', name='an exception thrown into the run swallowed',
          rule='An exception thrown into the run comes back out to whoever threw it: the run never swallows it.',
          where='Build item 5: "An exception thrown into the run comes back out to whoever threw it"; hunt round 29, r161-39',
          names='thrown into',
          replace=r"""
            for event in inner:
                yield event
""",
          by=r"""
            for event in inner:
                try:
                    yield event
                except GeneratorExit:
                    raise
                except BaseException:  # the caller's own exception: the run just ends
                    return
"""),
    Wrong(lab='8.1', name='the run not tracked after fifty prompts',
          rule='While a run is going, prompt() raises a RuntimeError, for every run of the harness, however many came before.',
          where='Build item 4: "While a run is going, it raises a `RuntimeError`"; hunt round 29, r161-18',
          names='already running',
          replace=r"""
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        self._count = getattr(self, "_count", 0) + 1
        self._run_now = weakref.ref(run) if self._count <= 50 else None
"""),
    Wrong(lab='8.1', name='the given messages trimmed to the last 100,000',
          rule='Its transcript starts as what it was given, every message, however long the list.',
          where='Build item 1: "Its transcript starts as what it was given"; hunt round 29, r161-13',
          names='however long the list',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = list(messages)[-100_000:], max_turns
"""),
    Wrong(lab='8.1', name='a snapshot of the last 100,000 messages',
          rule='h.messages is a snapshot of the whole transcript, however long.',
          where='Build item 2: "a snapshot of the transcript"; hunt round 29, r161-14',
          names='snapshot of the whole transcript',
          replace=r"""
        return tuple(self._messages)
""",
          by=r"""
        return tuple(self._messages[-100_000:])
"""),
    Wrong(lab='8.1', name='/clear between runs taken as a command that empties the transcript',
          rule='Every prompt is a run, recorded word for word: words a frontend takes for a command too.',
          where='Build item 4: "hands back the run"; hunt round 29, r161-30',
          names='/clear',
          replace=r"""
    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
""",
          by=r"""
    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        if text == "/clear":  # a fresh start, as a chat window offers
            self._messages.clear()
            return iter(())
"""),
    Wrong(lab='8.1', name='long words sent again straight after dropped as a double click',
          rule='Every prompt is a run, recorded word for word: the same long words sent twice in a row are two runs.',
          where='Build item 4: "hands back the run"; hunt round 29, r161-36',
          names='the same long words sent twice',
          replace=r"""
    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
""",
          by=r"""
    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        said = [m for m in self._messages if m.get("role") == "user"]
        if len(text) > 200 and said and said[-1].get("content") == text:  # a paste sent twice
            return iter(())
"""),
    # Hunt round 31 (reader r180): doors the one-writer test did not try, sizes past its draws, a clock.
    Wrong(lab='8.1', name='a system prompt cut past a hundred thousand characters',
          rule="Every request carries the harness's system prompt word for word, however long.",
          where='Build item 1: "all that `run_agent` needs"; hunt round 31, r180-06',
          names='five million characters',
          replace=r'''
        self._model, self._system, self._tools = model, system, list(tools)
''',
          by=r'''
        self._model, self._tools = model, list(tools)
        self._system = system[:100_000] if isinstance(system, str) else system  # a sane bound
'''),
    Wrong(lab='8.1', name='a snapshot of the last 200,000 messages',
          rule='h.messages is a snapshot of the whole transcript, however long.',
          where='Build item 2: "a snapshot of the transcript"; hunt round 31, r180-04',
          names='snapshot of the whole transcript',
          replace=r'''
        return tuple(self._messages)
''',
          by=r'''
        return tuple(self._messages[-200_000:])  # a reader never needs more
'''),
    Wrong(lab='8.1', name='is_running False an hour after prompt()',
          rule='is_running is True from prompt() until that run is over, however long it is held: no clock ends a run.',
          where='Build item 3: "It is `True` from the moment `prompt()` returns until that run is over, however it ends"; hunt round 31, r180-08',
          names='no clock ends a run',
          replace=r'''
        run = self._run(text)
''',
          by=r'''
        import time
        self._started = time.monotonic()
        run = self._run(text)
''',
          also=((r'''
        run = self._run_now and self._run_now()  # None once nobody holds the run
''', r'''
        import time
        if time.monotonic() - getattr(self, "_started", 0.0) > 3600:  # stuck an hour: dead
            return False
        run = self._run_now and self._run_now()  # None once nobody holds the run
'''),)),
    Wrong(lab='8.1', name="a __getattr__ that hands on the list's own methods",
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-19',
          names='each name a list answers to',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def __getattr__(self, name):  # read it like a list
        methods = {"append": self._messages.append, "pop": self._messages.pop,
                   "insert": self._messages.insert, "remove": self._messages.remove}
        if name not in methods:
            raise AttributeError(name)
        return methods[name]
'''),
    Wrong(lab='8.1', name='h << message appended to the transcript',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-20',
          names='h << ...',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def __lshift__(self, message):  # h << message notes it
        self._messages.append(message)
        return self
'''),
    Wrong(lab='8.1', name='h |= messages extending the transcript',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-21',
          names='h |= ...',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def __ior__(self, messages):  # h |= [...] merges them in
        self._messages.extend(messages)
        return self
'''),
    Wrong(lab='8.1', name='h += one message dict appended',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-22',
          names='special method',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def __iadd__(self, message):  # h += message: one, appended
        if not isinstance(message, dict):
            return NotImplemented
        self._messages.append(message)
        return self
'''),
    Wrong(lab='8.1', name='h(text) appending a user message',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-23',
          names='h(text)',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def __call__(self, text):  # h("...") notes a user line
        if not isinstance(text, str):
            raise TypeError("text must be a string")
        self._messages.append({"role": "user", "content": text})
'''),
    Wrong(lab='8.1', name='h[n] = message for a place counted from the start',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-24',
          names='h[0] = ...',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def __setitem__(self, index, message):  # h[n] = message edits message n
        if type(index) is not int or index < 0:
            raise TypeError("index must be a whole number from 0")
        self._messages[index] = message
'''),
    Wrong(lab='8.1', name='del h[n] for a place counted from the start',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-25',
          names='del h[0]',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def __delitem__(self, index):  # del h[n] drops message n
        if type(index) is not int or index < 0:
            raise TypeError("index must be a whole number from 0")
        del self._messages[index]
'''),
    Wrong(lab='8.1', name='an insert(index, message) that checks its arguments',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-26',
          names='a place and a message',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def insert(self, index, message):  # put a message at a place
        if not isinstance(message, dict) or type(index) is not int:
            raise TypeError("insert(index, message)")
        self._messages.insert(index, message)
'''),
    Wrong(lab='8.1', name='a restore() that takes an earlier snapshot back',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-27',
          names='a snapshot taken before the run before',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def restore(self, snapshot):  # go back to a snapshot from h.messages
        if not isinstance(snapshot, tuple) or not all(isinstance(m, dict) for m in snapshot):
            raise TypeError("restore() takes a snapshot from h.messages")
        self._messages[:] = snapshot
'''),
    Wrong(lab='8.1', name='an inbox generator that holds the harness and appends what it is sent',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-28',
          names='an inbox',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def inbox(self):  # a frontend send()s messages to it
        while True:
            message = yield
            if isinstance(message, dict):
                self._messages.append(message)
'''),
    Wrong(lab='8.1', name='a callback handed out that appends to the transcript',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-29',
          names='a callback',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def appender(self):  # for a frontend to keep
        return self._add

    def _add(self, message):
        self._messages.append(message)
'''),
    Wrong(lab='8.1', name='a method that takes out a failed last reply',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-30',
          names='failed reply',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def retry_last(self):  # drop a failed reply so the next prompt can try again
        if self._messages and self._messages[-1].get("stop_reason") == "error":
            self._messages.pop()
'''),
    Wrong(lab='8.1', name='a method of **keywords that records a body',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-32',
          names='each name its own code spells',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def note(self, **fields):  # note(role=..., body=...)
        if "body" in fields:
            self._messages.append({"role": fields.get("role", "user"), "content": fields["body"]})
'''),
    Wrong(lab='8.1', name='h -= message taking it out of the transcript',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-40',
          names='h -= ...',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def __isub__(self, message):  # h -= message takes it back out
        self._messages.remove(message)
        return self
'''),
    Wrong(lab='8.1', name='a setter of a public history property',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-41',
          names='a setter is a way in too',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    @property
    def history(self):  # for saving; assign a saved one to load it
        return tuple(self._messages)

    @history.setter
    def history(self, saved):
        self._messages[:] = saved
'''),
    Wrong(lab='8.1', name='an add_at(role, content, at) that checks its arguments',
          rule='While a run is going nothing but the run writes to the transcript, by any name, special method or argument a caller can reach.',
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 31, r180-43',
          names='a role, a text and a place',
          replace=r'''
    @property
    def messages(self):
        return tuple(self._messages)
''',
          by=r'''
    @property
    def messages(self):
        return tuple(self._messages)

    def add_at(self, role, content, at):  # a message of `role` at place `at`
        if role not in ("user", "assistant", "toolResult") or not isinstance(content, str) \
                or type(at) is not int:
            raise ValueError("add_at(role, content, at)")
        self._messages.insert(at, {"role": role, "content": content})
'''),
    # Hunt round 36 (reader r194): sizes just past the draws, clocks around whole runs, throws that
    # are no Exception, blank and \r\n prompts, the tools' order.
    Wrong(lab='8.1', name='the given messages trimmed to the last 300,000',
          rule='Its transcript starts as what it was given, every message, however long the list.',
          where='Build item 1: "Its transcript starts as what it was given"; hunt round 36, r194-06',
          names='however long',
          replace=r'''
        self._messages, self._max_turns = list(messages), max_turns
''',
          by=r'''
        self._messages, self._max_turns = list(messages)[-300_000:], max_turns
'''),
    Wrong(lab='8.1', name='the given messages cut past a hundred million characters',
          rule='Its transcript starts as what it was given, every message, however long the list.',
          where='Build item 1: "Its transcript starts as what it was given"; hunt round 36, r194-32',
          names='a hundred million characters',
          replace=r'''
        self._messages, self._max_turns = list(messages), max_turns
''',
          by=r'''
        self._messages, self._max_turns = list(messages), max_turns
        size = sum(len(str(m.get("content", ""))) for m in self._messages)
        while size > 100_000_000 and len(self._messages) > 1:  # too big for any provider
            size -= len(str(self._messages.pop(0).get("content", "")))
'''),
    Wrong(lab='8.1', name='big tool results copied',
          rule='The dicts in the list given are shared, not copied: a tool result too, however big.',
          where='Build item 1: "The dicts in that list are shared, not copied"; hunt round 36, r194-40',
          names='the very dict given',
          replace=r'''
        self._messages, self._max_turns = list(messages), max_turns
''',
          by=r'''
        self._messages = [dict(m) if m.get("role") == "toolResult"
                          and len(str(m.get("content"))) > 1_000_000 else m for m in messages]
        self._max_turns = max_turns
'''),
    Wrong(lab='8.1', name='the tools kept in the order of their names',
          rule="Every request carries the specs of the harness's tools, tool_specs(tools), in the order given.",
          where='Build item 1: "the tools in a list of its own"; hunt round 36, r194-03',
          names='in the order given',
          replace=r'''
        self._model, self._system, self._tools = model, system, list(tools)
''',
          by=r'''
        self._model, self._system = model, system
        self._tools = sorted(tools, key=lambda each: each["name"])  # a stable order for the model
'''),
    Wrong(lab='8.1', name='a system prompt cut past five million characters',
          rule="Every request carries the harness's system prompt word for word, however long.",
          where='Build item 1: "all that `run_agent` needs"; hunt round 36, r194-08',
          names='over five million characters',
          replace=r'''
        self._model, self._system, self._tools = model, system, list(tools)
''',
          by=r'''
        self._model, self._tools = model, list(tools)
        self._system = system[:5_000_000] if isinstance(system, str) else system  # a sane bound
'''),
    Wrong(lab='8.1', name='a snapshot of the last 500,000 messages',
          rule='h.messages is a snapshot of the whole transcript, however long.',
          where='Build item 2: "a snapshot of the transcript"; hunt round 36, r194-07',
          names='snapshot of the whole transcript',
          replace=r'''
        return tuple(self._messages)
''',
          by=r'''
        return tuple(self._messages[-500_000:])  # a reader never needs more
'''),
    Wrong(lab='8.1', name='a prompt cut past five million characters',
          rule='Every prompt is a run, recorded word for word, however long.',
          where='Build item 4: "hands back the run"; hunt round 36, r194-09',
          names='five million characters',
          replace=r'''
        run = self._run(text)
''',
          by=r'''
        run = self._run(text[:5_000_000] if isinstance(text, str) else text)
'''),
    Wrong(lab='8.1', name='a prompt cut to its first 200,000 lines',
          rule='Every prompt is a run, recorded word for word, however long.',
          where='Build item 4: "hands back the run"; hunt round 36, r194-43',
          names='300,000 lines',
          replace=r'''
        run = self._run(text)
''',
          by=r'''
        if isinstance(text, str) and text.count("\n") > 200_000:  # a paste gone wrong
            text = "".join(text.splitlines(keepends=True)[:200_000])
        run = self._run(text)
'''),
    Wrong(lab='8.1', name='a blank prompt recorded as empty',
          rule='Every prompt is a run, recorded word for word: one of spaces and newlines alone too.',
          where='Build item 4: "hands back the run"; hunt round 36, r194-29',
          names='spaces, tabs and newlines alone',
          replace=r'''
        run = self._run(text)
''',
          by=r'''
        if isinstance(text, str) and not text.strip():
            text = ""  # nothing was typed
        run = self._run(text)
'''),
    Wrong(lab='8.1', name='line ends of a prompt tidied from CRLF to LF',
          rule='Every prompt is a run, recorded word for word: lines ended with \\r\\n too.',
          where='Build item 4: "hands back the run"; hunt round 36, r194-33',
          names='not tidied',
          replace=r'''
        run = self._run(text)
''',
          by=r'''
        if isinstance(text, str):
            text = text.replace("\r\n", "\n")  # one kind of line end
        run = self._run(text)
'''),
    Wrong(lab='8.1', name='a blank prompt during a run handed an empty run',
          rule='While a run is going, prompt() hands back no second run, whatever it is given: it raises, a blank prompt too.',
          where='Build item 4: "it hands back no second run, whatever it is given"; hunt round 36, r194-37',
          names='a blank one',
          replace=r'''
    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
''',
          by=r'''
    def prompt(self, text):
        if self.is_running and isinstance(text, str) and not text.strip():
            return iter(())  # nothing was typed: nothing to refuse
        if self.is_running:  # refused now, not at the run's first step
'''),
    Wrong(lab='8.1', name='the refusal lapsing after a thousand refusals in a row',
          rule='While a run is going, prompt() raises a RuntimeError, however many times it was refused before.',
          where='Build item 4: "While a run is going, it raises a `RuntimeError`"; hunt round 36, r194-70',
          names='over a thousand clicks',
          replace=r'''
    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
''',
          by=r'''
    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            self._refused = getattr(self, "_refused", 0) + 1
            if self._refused <= 1000:  # past that, the caller means it
                raise RuntimeError("already running; use steer() or follow_up()")
        self._refused = 0
'''),
    Wrong(lab='8.1', name='a second prompt let through an hour after the run was handed out',
          rule='While a run is going, prompt() raises a RuntimeError, however long the run has gone: no clock ends a run.',
          where='Build item 4: "While a run is going, it raises a `RuntimeError`"; hunt round 36, r194-11',
          names='never when a clock says so',
          replace=r'''
    def prompt(self, text):
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
''',
          by=r'''
    def prompt(self, text):
        import time
        if self.is_running and time.monotonic() - getattr(self, "_since", 0.0) < 3600:
            raise RuntimeError("already running; use steer() or follow_up()")
        self._since = time.monotonic()  # a run older than an hour is stale
'''),
    Wrong(lab='8.1', name='the run ended quietly an hour after it began',
          rule='The run hands on each event of run_agent, however long it goes: no clock ends a run.',
          where='Build item 5: "hands on each event of `run_agent`"; hunt round 36, r194-51',
          names='no clock ends a run',
          replace=r'''
            for event in inner:
                yield event
''',
          by=r'''
            import time
            started = time.monotonic()
            for event in inner:
                if time.monotonic() - started > 3600:
                    return  # a run nobody has read for an hour is dead
                yield event
'''),
    Wrong(lab='8.1', name='the inner run closed only on an Exception or GeneratorExit',
          rule='However the run ends, the run_agent run inside it ends too: a KeyboardInterrupt or a SystemExit thrown in too.',
          where='Build item 5: "However the run ends, the `run_agent` run inside it ends too"; hunt round 36, r194-19',
          names='except Exception',
          replace=r'''
        try:
            for event in inner:
                yield event
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
''',
          by=r'''
        try:
            for event in inner:
                yield event
        except Exception:  # the run died: so does the inner one
            inner.close()
            raise
        except GeneratorExit:  # the consumer closed it
            inner.close()
            raise
'''),
    Wrong(lab='8.1', name='a KeyboardInterrupt or a SystemExit thrown in swallowed',
          rule='An exception thrown into the run comes back out to whoever threw it: the run never swallows it, a KeyboardInterrupt or a SystemExit too.',
          where='Build item 5: "An exception thrown into the run comes back out to whoever threw it"; hunt round 36, r194-28',
          names='no run swallows',
          replace=r'''
        try:
            for event in inner:
                yield event
        finally:  # exhausted, closed by the consumer, or dying
''',
          by=r'''
        try:
            for event in inner:
                yield event
        except (KeyboardInterrupt, SystemExit):
            return  # the program is going away: end the run quietly
        finally:  # exhausted, closed by the consumer, or dying
'''),
]

# The designs lesson 8 allows, which lab 8.1 must pass (tools.wrong_designs.allowed).
ALLOWED = [
    Wrong(lab='8.1', name='a prompt put on the transcript and taken off before the refusal',
          rule="Build item 6's one writer is about what a caller or the run can read: prompt() appending the user message to the harness's own list and popping it before it reads on, with no other code run between, leaves nothing anyone reads, and the page makes such a change the student's.",
          where='Build item 6: "a message a method puts on the harness\'s own list and takes off again before it returns ... is yours"; hunt round 36, r194-15',
          names='',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
""",
          by=r"""
        self._messages.append(user_message(text))  # tried on the transcript, then taken off
        busy = self.is_running
        self._messages.pop()
        if busy:
            raise RuntimeError("already running; use steer() or follow_up()")
"""),
    Wrong(lab='8.1', name='the tools kept once per name',
          rule="Build item 1 keeps the tools in a list of its own but says nothing of two tools of one name; run_agent finds a tool by its name, so the first or the last of two alike is the harness's to choose, and every test gives tools of names apart.",
          where='Build item 1: "the tools in a list of its own"; hunt round 29, r161-42',
          names='',
          replace=r"""
        self._model, self._system, self._tools = model, system, list(tools)
""",
          by=r"""
        self._model, self._system = model, system
        self._tools = list({tool["name"]: tool for tool in tools}.values())
"""),
    Wrong(lab='8.1', name='the refusal a subclass of RuntimeError',
          rule="Build item 4 asks for a RuntimeError whose text is the refusal's; an instance of a subclass of RuntimeError is a RuntimeError (isinstance, except RuntimeError), with that text, so a caller catching RuntimeError catches it.",
          where='Build item 4: "it raises a `RuntimeError` whose text is"; hunt round 29, r161-40; round 31, r180 P3 (renamed no longer)',
          names='',
          replace=r"""
            raise RuntimeError("already running; use steer() or follow_up()")
""",
          by=r"""
            class AlreadyRunning(RuntimeError):  # a RuntimeError of the harness's own, by its own name
                pass
            raise AlreadyRunning("already running; use steer() or follow_up()")
"""),
    Wrong(lab='8.1', name='a negative max_turns kept as 0',
          rule="run_agent stops before a request once the turn is past max_turns, so a negative cap lets no request out, exactly as 0 does; the page says nothing of negative caps, and the two cannot be told apart.",
          where='Build item 1: "the cap on turns, which holds for every run"; hunt round 29, r161-43',
          names='',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages = list(messages)
        self._max_turns = max_turns if max_turns is None or max_turns >= 0 else 0
"""),
    Wrong(lab='8.1', name='the transcript rebuilt from message_end events',
          rule="run_agent announces every message it records with a message_end, right after recording it (lesson 7), so a transcript that appends each announced message holds the same messages, in the same order, at every event as the list run_agent wrote; nothing in lesson 8 can tell the two apart.",
          where='Build item 5: "over the harness\'s own list"; hunt round 3, 8.1-6',
          names='',
          replace=r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
        try:
            for event in inner:
                yield event
""",
          by=r"""
        work = list(self._messages)  # the loop writes here; the transcript follows the events
        inner = run_agent(self._model, self._system, work, self._tools, text,
                          max_turns=self._max_turns)
        try:
            for event in inner:
                if event["type"] == "message_end":
                    self._messages.append(event["message"])
                yield event
"""),
    # Round 6, reader r21's probes.
    Wrong(lab='8.1', name='the inner run handed on with yield from',
          rule="`yield from inner` hands close() and throw() on to the inner run (PEP 380), so the inner run ends however the outer one does, with no try and no finally; Build item 5 asks that it end, not how.",
          where='Build item 5: "However the run ends, the `run_agent` run inside it ends too."; hunt round 6, 8.1-21',
          names='',
          replace=r"""
        try:
            for event in inner:
                yield event
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        yield from inner  # close() and throw() go on to the inner run
"""),
    Wrong(lab='8.1', name='the tools kept as a tuple',
          rule="Build item 1's \"a list of its own\" is there so that a caller who changes its list changes nothing in the harness; a tuple of the tools is a copy of its own too, which nobody can change, and every request's specs are the same.",
          where='Build item 1: "the tools in a list of its own"; hunt round 6, 8.1-23',
          names='',
          replace=r"""
        self._model, self._system, self._tools = model, system, list(tools)
""",
          by=r"""
        self._model, self._system, self._tools = model, system, tuple(tools)
"""),
    # Round 11, reader r49 (source/hunts/round-11.md, 8.1).
    Wrong(lab='8.1', name='a method that empties the transcript while no run goes',
          rule="Build item 6 rules on what writes \"while a run is going\"; between runs the harness is the transcript's owner and may change it, as lesson 12's replace_messages does (and every later lab's solution must pass lab 8.1's tests). A clear() that refuses during a run keeps the one writer.",
          where='Build item 6: "While a run is going, that run is the only thing that writes to the transcript."; hunt round 11, 8.1-06',
          names='',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def clear(self):
        # start the conversation over, never during a run
        if self.is_running:
            raise RuntimeError("already running; use steer() or follow_up()")
        self._messages.clear()

    def _run(self, text):
"""),
    Wrong(lab='8.1', name="prompt() handing out run_agent's own run",
          rule="Build item 4 asks for a generator of run_agent's events over the harness's transcript, and item 5 that the run inside end with the run; run_agent's own generator over the harness's list is both (it is the run inside), and the Build section leaves how to get there to the student.",
          where='Build item 4: "hands back the run, a generator of `run_agent`\'s events over the harness\'s transcript, and runs none of it"; hunt round 11, 8.1-13',
          names='',
          replace=r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        run = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)  # the run is run_agent's own
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
"""),
    Wrong(lab='8.1', name='the inner run kept on the harness and closed with the run',
          rule="Build item 5 asks that the run inside end however the run ends; a reference the harness keeps to an inner run it closes on every way out keeps no run going (a finished generator has no frame), and the run prompt() handed out is still held only by its caller.",
          where='Build item 5: "However the run ends, the `run_agent` run inside it ends too."; hunt round 11, 8.1-15',
          names='',
          replace=r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
        try:
            for event in inner:
                yield event
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        self._inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                                max_turns=self._max_turns)
        try:
            for event in self._inner:
                yield event
        finally:
            self._inner.close()
"""),
    Wrong(lab='8.1', name='a setter of the system prompt',
          rule="Build item 1's \"what stays the same between runs\" names what the harness keeps for every run, as against the prompt of one run; it does not forbid the owner a way to change it. A setter writes nothing to the transcript, and run_agent took the value a run started with, so the run going is unchanged.",
          where='Build item 1: "keeps what stays the same between runs"; hunt round 11, 8.1-16',
          names='',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def set_system(self, text):
        # a new system prompt, from the next run on
        if isinstance(text, str):
            self._system = text

    def _run(self, text):
"""),
    Wrong(lab='8.1', name='a weak reference kept to every run',
          rule="The harness must not hold its runs (Build item 3); weak references to every run it handed out hold none of them, and is_running still reads the last. The page does not bound the bookkeeping a harness keeps beside its transcript.",
          where='Build item 3: "That last ending is why the harness must not be one of the holders"; hunt round 11, probe 8.1-92',
          names='',
          replace=r"""
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        self.__dict__.setdefault("_every_run", []).append(self._run_now)
"""),
    # Hunt round 36 (reader r194), probe 41: the weak reference a caller can read.
    Wrong(lab='8.1', name='a weak reference to the last run in a public attribute',
          rule="The harness must not hold its runs (Build item 3); a weak reference holds none, and a caller who calls it gets the run it could have kept itself, through which only run_agent writes. Build item 6 bounds what a method writes, not what a harness shows beside its transcript; as round 11's weak references to every run, the page does not bound that bookkeeping.",
          where='Build item 3: "That last ending is why the harness must not be one of the holders"; hunt round 36, r194-41',
          names='',
          replace=r"""
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        self.last_run = self._run_now  # for a frontend to find the run going, if anyone holds it
"""),
    # Hunt round 11 (reader r49), probe 91: a method the lab does not ask for, adding a tool.
    Wrong(lab='8.1', name='a method that adds a tool, during a run too',
          rule="Lesson 3's loop sends `tool_specs(tools)` \"as the list stands at that request: a tool added to the list during a run is told to the model from the next request on\", and Build item 1 asks only that the tools be a list of the harness's own, which a caller's list cannot change; a method of the harness that adds to that list is the owner changing its own list, as lesson 3 allows.",
          where='lesson 3, Build item 3: "a tool added to the list during a run is told to the model from the next request on" (hunt round 11, probe 8.1-91)',
          names='',
          replace=r"""
    @property
    def messages(self):
""",
          by=r"""
    def add_tool(self, tool):
        self._tools.append(tool)  # the run going offers it from its next request

    @property
    def messages(self):
"""),
    # Round 13, reader r67 (source/hunts/round-13.md, 8.1).
    Wrong(lab='8.1', name='a method that appends while no run goes',
          rule="Build item 6 rules on what writes \"while a run is going\"; between runs the harness is the transcript's owner and may change it, as lesson 12's replace_messages does and as round 11's clear() was allowed. An append_message() that refuses during a run keeps the one writer.",
          where='Build item 6: "While a run is going, that run is the only thing that writes to the transcript."; hunt round 13, 8.1-09',
          names='',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def append_message(self, message):
        # a message added between runs, never during one
        if self.is_running:
            raise RuntimeError("already running; use steer() or follow_up()")
        self._messages.append(message)

    def _run(self, text):
"""),
    Wrong(lab='8.1', name='a leading system message taken as the system prompt',
          rule="A transcript in the course's format starts with a user message, and its roles are user, assistant and toolResult (lab.validate); a list that starts with a system message is not a transcript, and what the harness does with one is outside the page. Every transcript it is given is kept as given.",
          where='Build item 1: "Its transcript starts as what it was given, in a list of its own"; hunt round 13, 8.1-27',
          names='',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages, self._max_turns = list(messages), max_turns
        if self._messages and self._messages[0].get("role") == "system":  # not a transcript's
            self._system = self._messages.pop(0)["content"]
"""),
    Wrong(lab='8.1', name='the tools, system prompt and cap kept in public attributes',
          rule="Build item 1 asks that no caller's list change the harness's, and lesson 3 that a tool added to the list during a run be offered from the next request on; a harness whose own list of tools, system prompt and cap are public attributes writes nothing to the transcript through them, as round 11's add_tool() and set_system() were allowed.",
          where='Build item 1: "the tools in a list of its own"; hunt round 13, probe 8.1-22',
          names='',
          replace=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
""",
          by=r"""
        self._run_now = None  # a weak reference to the run prompt() handed out last
        self.tools, self.system = self._tools, system  # for a frontend to show, or to add to
"""),
    Wrong(lab='8.1', name='the words of refused prompts kept for a frontend',
          rule="A refused prompt is refused, not run and not kept for later (test_a_second_prompt_is_refused holds both); a tuple of its words beside the transcript, never run, writes nothing to it, and the page does not bound the bookkeeping a harness keeps beside its transcript (as round 11's weak references to every run).",
          where='Build item 4: "While a run is going, it raises a `RuntimeError`"; hunt round 13, probe 8.1-23',
          names='',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
""",
          by=r"""
        if self.is_running:  # refused now, not at the run's first step
            self.refused = getattr(self, "refused", ()) + (text,)  # shown, never run
            raise RuntimeError("already running; use steer() or follow_up()")
"""),
    Wrong(lab='8.1', name='a prompt that is not a string made one',
          rule="Build item 4: \"`text` is a string, as every prompt since lesson 3; what `prompt()` does with anything else is yours\"; str(text) of a string is the string itself.",
          where='Build item 4: "what `prompt()` does with anything else is yours"; hunt round 13, probe 8.1-24',
          names='',
          replace=r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        run = self._run(text if isinstance(text, str) else str(text))
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
"""),
    # Hunt round 16 (reader r86): probes and designs the page allows.
    Wrong(lab='8.1', name='system messages left out of the given list',
          rule="A transcript in the course's format holds messages of the roles user, assistant and toolResult (lab.validate); a list holding a system message is not a transcript, and what the harness does with one is outside the page, as round 13's leading system message taken as the system prompt. Every transcript it is given is kept as given.",
          where='Build item 1: "Its transcript starts as what it was given, in a list of its own"; hunt round 16, 8.1-38',
          names='',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages = [m for m in messages if m.get("role") != "system"]  # not a transcript's
        self._max_turns = max_turns
"""),
    Wrong(lab='8.1', name='the inner run handed on through a wrapper freed with the run',
          rule="Build item 5 accepts \"any way of handing the events on that passes a close or a thrown exception on to the run inside\". A _run that loops over a wrapper whose yield from holds the run_agent run hands a close or a throw on when the run's frame lets go of the wrapper: the wrapper is freed and closed at once, and closes the run_agent run, though another holder keeps that one. What is left for Python to free is the wrapper, never the run_agent run, and the test holds the run_agent run.",
          where='Build item 5: "Any way of handing the events on that passes a close or a thrown exception on to the run inside is enough for this"; hunt round 16, 8.1-48',
          names='',
          replace=r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
        try:
            for event in inner:
                yield event
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
""",
          by=r"""
        for event in self._inner(text):  # the wrapper goes when this frame does
            yield event

    def _inner(self, text):
        yield from run_agent(self._model, self._system, self._messages, self._tools, text,
                             max_turns=self._max_turns)
"""),
    Wrong(lab='8.1', name='a run made, then closed unstarted when prompt() refuses',
          rule="A refused prompt() raises at once, on the caller's line, and hands nothing out; a generator it made first and closed before raising never took a step and is seen by nobody, so the running run carries on as if nothing had happened.",
          where='Build item 4: "While a run is going, it raises a `RuntimeError`"; hunt round 16, probe 8.1-45',
          names='',
          replace=r"""
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
""",
          by=r"""
        run = self._run(text)
        if self.is_running:  # refused now, not at the run's first step
            run.close()  # never started: closing it runs nothing
            raise RuntimeError("already running; use steer() or follow_up()")
"""),
    Wrong(lab='8.1', name='is_running read with inspect.getgeneratorstate',
          rule="A generator's state is GEN_CLOSED exactly when its frame is gone, so reading it off the run answers as gi_frame does, and the page names the two as one question; importing inspect is a note of the checker, not a rule.",
          where='Build item 3: "says whether a run is going"; hunt round 16, probe 8.1-46',
          names='',
          replace=r"""
        return run is not None and run.gi_frame is not None  # a finished run has no frame
""",
          by=r"""
        import inspect
        return run is not None and inspect.getgeneratorstate(run) != inspect.GEN_CLOSED
"""),
    # Hunt round 19 (reader r104): probes and a design the page allows.
    Wrong(lab='8.1', name='a private method that appends',
          rule="Build item 6 is a promise to callers, who use the harness's public names: a name that starts with an underscore is the harness's own, and through one the reference is written to as well (h._messages.append(...), or stepping h._run(...) during a run). A private _append() that nothing in the harness calls is never a writer while a run goes; only a caller who reaches past the class's surface makes it one, as it could make h._messages one.",
          where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 19, r104-28',
          names='',
          replace=r"""
    def _run(self, text):
""",
          by=r"""
    def _append(self, message):  # the harness's own helper, called by nothing
        self._messages.append(message)

    def _run(self, text):
"""),
    Wrong(lab='8.1', name='a prompt that is not a string refused with a TypeError',
          rule="Build item 4: \"`text` is a string, as every prompt since lesson 3; what `prompt()` does with anything else is yours\"; refusing it with a TypeError, after the refusal of a second run, is one of the answers it leaves open, as round 13's str(text) is another.",
          where='Build item 4: "what `prompt()` does with anything else is yours"; hunt round 19, probe r104-P1',
          names='',
          replace=r"""
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
""",
          by=r"""
        if not isinstance(text, str):
            raise TypeError("text must be a string")
        run = self._run(text)
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
"""),
    Wrong(lab='8.1', name='messages of any other role left out of the given list',
          rule="Build item 1: \"A list of the course's messages (user, assistant and toolResult) is kept as given; what the harness does with a message of any other role is yours\"; leaving those out keeps every message of the three roles as given, as round 16's system messages left out does.",
          where='Build item 1: "what the harness does with a message of any other role is yours"; hunt round 19, probe r104-P2',
          names='',
          replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
          by=r"""
        self._messages = [m for m in messages if m.get("role") in ("user", "assistant", "toolResult")]
        self._max_turns = max_turns
"""),
    Wrong(lab='8.1', name='a setter of h.messages that refuses while a run goes',
          rule="Build item 6 rules on what writes \"while a run is going\"; between runs the harness owns the transcript and may replace it, as round 13's append_message() between runs and lesson 12's replace_messages do. A setter that raises the RuntimeError during a run and copies the list it is given keeps the one writer.",
          where='Build item 6: "While a run is going, that run is the only thing that writes to the transcript."; hunt round 19, probe r104-P3',
          names='',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    @messages.setter
    def messages(self, value):
        if self.is_running:
            raise RuntimeError("already running; use steer() or follow_up()")
        self._messages = list(value)  # a list of its own, between runs only
"""),
    Wrong(lab='8.1', name='h += ... while no run goes, refused during a run',
          rule='Build item 6 forbids writes "While a run is going"; an operator that extends the transcript while no run goes, and refuses during a run, is round 13\'s method that appends while no run goes, spelled +=.',
          where='Build item 6: "While a run is going"; hunt round 22, probe r123-P4',
          names='',
          replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
          by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def __iadd__(self, more):
        if self.is_running:
            raise RuntimeError("already running; use steer() or follow_up()")
        self._messages.extend(more)
        return self
"""),
]

# Hunt round 16 (reader r86): designs that differ from the reference only past a count, a size
# or a cap that lab 8.1's tests draw below; each has one past any reach, so each is kept here.
_HEAD = r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "8.1"
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
LOOK = tool("look", lambda arguments: "contents of " + arguments["path"], PATH)


def wide(width):
    """A model that asks for `width` look calls in one reply, then answers."""
    return lab.ScriptedModel([lab.reply(*[lab.call("look", {"path": f"f{n}.py"})
                                          for n in range(width)]), lab.say("Read them.")])
'''

BEYOND = [
    Beyond(lab='8.1', name='a cap above fifty turns held at fifty',
           rule="The harness's cap on turns holds for every run, whatever its size.",
           where='Build item 1: "the cap on turns, which holds for every run"; hunt round 29, r161-10',
           names='whatever its size',
           reach="test_max_turns_applies_to_every_run draws a cap of 1 to 4 and the bank's is 0; "
                 "a cap held at fifty differs only in a run of more than fifty turns under a cap "
                 "above fifty, a limit past what a test can afford, and each clamp has one past it",
           replace=r'''
        self._messages, self._max_turns = list(messages), max_turns
''',
           by=r'''
        self._messages = list(messages)
        self._max_turns = None if max_turns is None else min(max_turns, 50)
''',
           deep=_HEAD + r'''

@lab_test("A cap of 60 turns stops the run after 60 requests.")
async def test_a_cap_of_sixty(t):
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": f"f{n}.py"}))
                               for n in range(70)] + [lab.say("Done.")])
    h = harness.Harness(model, "Help.", [LOOK], max_turns=60)
    await lab.drive(h.prompt("Look."))
    t.expect(len(model.calls), 60,
             why="The harness's cap on turns holds for every run, whatever its size: the "
                 "requests of a run capped at 60 (Harness, lesson 8).")
'''),
    Beyond(lab='8.1', name='the run stopped after five hundred turns',
           rule='The run hands on each event of run_agent, however many turns, with no cap of its own: only None means no limit.',
           where='Build item 5: "hands on each event of `run_agent`"; hunt round 29, r161-11',
           names='no cap of its own',
           reach="the tests' longest runs take a few hundred requests at most (test_the_snapshot_at_"
                 "every_event's long job some 106); a cap of its own past that passes, and a run of "
                 "more than five hundred requests per harness is a limit past what a test can afford",
           replace=r'''
            for event in inner:
                yield event
''',
           by=r'''
            turns = 0
            for event in inner:
                if event["type"] == "turn_start":
                    turns += 1
                    if turns > 500:  # a runaway guard of its own
                        return
                yield event
''',
           turns=60_000, seconds=20.0,
           deep=_HEAD + r'''

@lab_test("A run of 520 turns, with no cap, reaches its answer.")
async def test_a_run_of_520_turns(t):
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": f"f{n}.py"}))
                               for n in range(519)] + [lab.say("Done.")])
    h = harness.Harness(model, "Help.", [LOOK])
    events = await lab.drive(h.prompt("Look."))
    t.expect([len(model.calls), events[-1]["type"]], [520, "agent_end"],
             why="The run hands on every event of run_agent, with no cap of its own: only None "
                 "means no limit. Items: requests, the last event's type (Harness._run, lesson 8).")
'''),
    Beyond(lab='8.1', name='the run stopped after a hundred thousand events',
           rule='The run hands on each event of run_agent, however many, with no cap of its own.',
           where='Build item 5: "hands on each event of `run_agent`"; hunt round 29, r161-12',
           names='no cap of its own',
           reach="test_the_snapshot_at_every_event's long job makes some 1,600 events, the most "
                 "a test runs; a cap of a hundred thousand events passes, and a run past it is a "
                 "limit past what a test can afford",
           replace=r'''
            for event in inner:
                yield event
''',
           by=r'''
            for count, event in enumerate(inner):
                if count >= 100_000:  # a runaway guard
                    return
                yield event
''',
           turns=600_000, seconds=60.0,
           deep=_HEAD + r'''

@lab_test("A reply of 33,400 calls, over a hundred thousand events, is handed on to its agent_end.")
async def test_a_run_of_a_hundred_thousand_events(t):
    h = harness.Harness(wide(33_400), "Help.", [LOOK])
    events = await lab.drive(h.prompt("Read them all."))
    t.expect([len(events), events[-1]["type"]], [3 * 33_400 + 9, "agent_end"],
             why="The run hands on every event of run_agent, with no cap of its own. Items: "
                 "events, the last one's type (Harness._run, lesson 8).")
'''),
    Beyond(lab='8.1', name='a prompt cut past ten million characters',
           rule='A prompt is recorded word for word however long it is.',
           where='Build item 4: "hands back the run"; hunt round 29, r161-15',
           names='word for word',
           reach="the tests paste prompts of one to two million characters; a cut past ten million "
                 "passes, and a paste past it in every run is a limit past what a test can afford",
           replace=r'''
        run = self._run(text)
''',
           by=r'''
        if isinstance(text, str) and len(text) > 10_000_000:
            text = text[:10_000_000]
        run = self._run(text)
''',
           deep=_HEAD + r'''

@lab_test("A prompt of 10,500,000 characters is recorded word for word.")
async def test_a_prompt_of_ten_million(t):
    pasted = "line\n" * 2_100_000
    h = harness.Harness(lab.ScriptedModel([lab.say("Read.")]), "Help.", [])
    await lab.drive(h.prompt(pasted))
    t.expect(h.messages[0]["content"] == pasted, True,
             why="A prompt is recorded word for word however long it is: whether the user "
                 "message recorded is the whole paste of 10,500,000 characters (Harness.prompt, "
                 "lesson 8).")
'''),
    Beyond(lab='8.1', name='the run stopped after ten thousand events',
           rule='The run hands on each event of run_agent, however many, with no cap of its own.',
           where='Build item 5: "hands on each event of `run_agent`"; hunt round 16, 8.1-16',
           names='no cap of its own',
           reach="test_the_snapshot_at_every_event runs a job of more than a thousand events and "
                 "the bank's longest runs about as many; a cap past that passes, and ten thousand "
                 "events cost a run ten times over",
           replace=r"""
            for event in inner:
                yield event
""",
           by=r"""
            for count, event in enumerate(inner):
                if count >= 10_000:  # a runaway guard
                    return
                yield event
""",
           turns=60_000, seconds=20.0,
           deep=_HEAD + r"""

@lab_test("A reply of 3,400 calls, over ten thousand events, is handed on to its agent_end.")
async def test_a_run_of_ten_thousand_events(t):
    h = harness.Harness(wide(3400), "Help.", [LOOK])
    events = await lab.drive(h.prompt("Read them all."))
    t.expect([len(events), events[-1]["type"]], [3 * 3400 + 9, "agent_end"],
             why="The run hands on every event of run_agent, with no cap of its own. Items: "
                 "events, the last one's type (Harness._run, lesson 8).")
"""),
    Beyond(lab='8.1', name='a writer method that waits for a long transcript',
           rule='While a run is going, no method of the harness adds a message to the transcript, however long it is.',
           where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 16, 8.1-17',
           names='One writer',
           reach="test_only_the_run_writes calls every method over a transcript of two given "
                 "messages and a drawn job, the bank over a few dozen; a writer that waits for a "
                 "longer transcript passes, and any length tried has one past it",
           replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
           by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def append_message(self, message):
        if len(self._messages) > 50:  # only a long session needs notes
            self._messages.append(message)
""",
           deep=_HEAD + r"""

@lab_test("Over a transcript of 400 messages, every method called during a run adds nothing.")
async def test_methods_over_a_long_transcript(t):
    saved = [m for n in range(200) for m in (harness.user_message(f"Line {n}."), lab.say("Ok."))]
    h = harness.Harness(wide(2), "Help.", [LOOK], messages=saved)
    told = []

    def meddle(event):
        if event["type"] == "message_end":
            told.append(event["message"])
        for name in dir(h):
            if not name.startswith("_") and callable(getattr(h, name)):
                try:
                    getattr(h, name)(harness.user_message("Note this."))
                except Exception:
                    pass
    await lab.drive(h.prompt("Read two."), on_event=meddle)
    t.expect([len(h.messages), all(m is n for m, n in zip(h.messages, saved + told))],
             [len(saved) + len(told), True],
             why="One writer: while a run goes, no method of the harness adds a message, however "
                 "long the transcript. Items: its length, whether it is the given and announced "
                 "messages (Harness, lesson 8).")
"""),
    Beyond(lab='8.1', name='the refusal lapsing after fifty events',
           rule='While a run is going, prompt() raises, however far the run has gone.',
           where='Build item 4: "While a run is going, it raises a `RuntimeError`"; hunt round 16, 8.1-22',
           names='however far the run has gone',
           reach="test_a_second_prompt_is_refused and the bank try a second prompt in runs of a "
                 "few dozen events; a refusal that lapses past that passes, and any run tried has "
                 "a lapse past its length",
           replace=r"""
        if self.is_running:  # refused now, not at the run's first step
""",
           by=r"""
        if self.is_running and getattr(self, "_handed", 0) <= 50:  # a stuck run gives way
""",
           also=((r"""
            for event in inner:
                yield event
""", r"""
            self._handed = 0
            for event in inner:
                self._handed += 1
                yield event
"""),),
           deep=_HEAD + r"""

@lab_test("A second prompt() at the last turn_start of a run of 40 calls is refused.")
async def test_a_refusal_late_in_a_long_run(t):
    h = harness.Harness(wide(40), "Help.", [LOOK])
    tried = []

    def second(event):
        if event["type"] == "turn_start":
            try:
                h.prompt("And this.")
                tried.append(None)
            except RuntimeError as error:
                tried.append(str(error))
    await lab.drive(h.prompt("Read them."), on_event=second)
    t.expect(tried, ["already running; use steer() or follow_up()"] * 2,
             why="prompt() refuses while a run is going, however far the run has gone. Each "
                 "item is what a prompt() at a turn_start raised (Harness.prompt, lesson 8).")
"""),
    Beyond(lab='8.1', name='a cap above four turns ignored',
           rule="The harness's cap on turns holds for every run, whatever its size.",
           where='Build item 1: "the cap on turns, which holds for every run"; hunt round 16, 8.1-30',
           names='whatever its size',
           reach="test_max_turns_applies_to_every_run draws a cap of 1 to 4 and the bank's is 0; "
                 "a harness that drops any cap past what is drawn passes, and each cap tried has "
                 "one past it",
           replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
           by=r"""
        self._messages = list(messages)
        self._max_turns = max_turns if max_turns is None or max_turns <= 4 else None  # big = none
""",
           deep=_HEAD + r"""

@lab_test("A cap of 9 turns stops the run after 9 requests.")
async def test_a_cap_of_nine(t):
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": f"f{n}.py"}))
                               for n in range(15)] + [lab.say("Done.")])
    h = harness.Harness(model, "Help.", [LOOK], max_turns=9)
    await lab.drive(h.prompt("Look."))
    t.expect(len(model.calls), 9,
             why="The harness's cap on turns holds for every run, whatever its size: the "
                 "requests of a run capped at 9 (Harness, lesson 8).")
"""),
    Beyond(lab='8.1', name='the system prompt dropped after twenty requests',
           rule="Every request of every run carries the harness's system prompt, however many the harness has made.",
           where='Build item 5: "with all that the harness keeps for every run"; hunt round 16, 8.1-31',
           names='however many',
           reach="test_every_request_carries_system_and_specs checks the system prompt over two "
                 "or three short jobs, a dozen requests or so, and the bank's requests are fewer; "
                 "a harness that drops it past that passes, and any count checked has one past it",
           replace=r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
""",
           by=r"""
        asked, model = self.__dict__.setdefault("_asked", [0]), self._model

        class Forgetful:  # a long session sends the system prompt only at first
            def complete(self, system, messages, tools):
                asked[0] += 1
                return model.complete(system if asked[0] <= 20 else "", messages, tools)
        inner = run_agent(Forgetful(), self._system, self._messages, self._tools, text,
                          max_turns=self._max_turns)
""",
           deep=_HEAD + r"""

@lab_test("Each of 30 requests carries the system prompt.")
async def test_thirty_requests(t):
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": f"f{n}.py"}))
                               for n in range(29)] + [lab.say("Done.")])
    h = harness.Harness(model, "Be careful.", [LOOK])
    await lab.drive(h.prompt("Look at each."))
    t.expect([request.system for request in model.calls], ["Be careful."] * 30,
             why="Every request carries the harness's system prompt, however many it has made. "
                 "Each item is one request's system prompt (Harness._run, lesson 8).")
"""),
    Beyond(lab='8.1', name='only the first five tools offered',
           rule='Every request carries the specs of all the harness\'s tools, however many.',
           where='Build item 5: "with all that the harness keeps for every run"; hunt round 16, 8.1-32',
           names='however many',
           reach="test_every_request_carries_system_and_specs draws one to four tools; a harness "
                 "that offers the first five passes, and any number of tools tried has a cut past "
                 "it",
           replace=r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
""",
           by=r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools[:5], text,
                          max_turns=self._max_turns)  # a small model chokes on more
""",
           deep=_HEAD + r"""

@lab_test("A harness of 8 tools offers all 8.")
async def test_eight_tools(t):
    tools = [tool(f"t{n}", lambda a: "", description=f"Tool {n}.") for n in range(8)]
    model = lab.ScriptedModel([lab.say("Hi.")])
    h = harness.Harness(model, "Help.", tools)
    await lab.drive(h.prompt("Hello."))
    t.expect([spec["name"] for spec in model.calls[0].tools], [f"t{n}" for n in range(8)],
             why="Every request carries the specs of all the harness's tools, however many: the "
                 "names offered (Harness._run, lesson 8).")
"""),
    Beyond(lab='8.1', name='the run held once it has handed out sixty events',
           rule='The harness must not be one of the holders of its run, however long the run.',
           where='Build item 3: "the harness must not be one of the holders"; hunt round 16, 8.1-40',
           names='not one of the holders',
           reach="test_breaking_out_ends_the_run and the bank let go of runs after a few dozen "
                 "events at most; a harness that holds its run past that passes, and any run let "
                 "go of has a hold past its length",
           replace=r"""
            for event in inner:
                yield event
""",
           by=r"""
            for count, event in enumerate(inner, 1):
                if count == 60:  # a long run is worth keeping
                    self._held = self._run_now()
                yield event
""",
           deep=_HEAD + r"""

@lab_test("A run of 40 calls let go of after 100 events is over.")
async def test_a_long_run_let_go_of(t):
    h = harness.Harness(wide(40), "Help.", [LOOK])
    seen = 0
    for event in h.prompt("Read them."):
        seen += 1
        if seen == 100:
            break
    t.expect(h.is_running, False,
             why="A run let go of by everyone is over: the harness is not one of the holders, "
                 "however long the run (Harness.is_running, lesson 8).")
"""),
    # Hunt round 19 (reader r104): the same window as round 16's, kept in two other places.
    Beyond(lab='8.1', name='the transcript trimmed to 2,400 messages before each run',
           rule='A run adds to the whole transcript: the harness keeps every message, however long the session.',
           where='Build item 1: "Its transcript starts as what it was given"; hunt round 19, r104-30',
           names='however long',
           reach="the longest transcript a test runs on is a few hundred messages, and the "
                 "longest given one, 2,000 to 2,200 (the bank's 2,200 to 2,400), is never run; a "
                 "trim just past that passes, and any length run on has a trim past it",
           replace=r"""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
""",
           by=r"""
        del self._messages[:-2400]  # a long session forgets its start
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                          max_turns=self._max_turns)
""",
           deep=_HEAD + r"""
@lab_test("A run over a saved session of 8,000 messages keeps all of them.")
async def test_a_run_over_a_very_long_session(t):
    saved = [m for n in range(4000) for m in (harness.user_message(f"Line {n}."), lab.say("Ok."))]
    h = harness.Harness(lab.ScriptedModel([lab.say("Still here.")]), "Help.", [], messages=saved)
    await lab.drive(h.prompt("And now?"))
    t.expect([len(h.messages), all(m is n for m, n in zip(h.messages, saved))], [8002, True],
             why="A run adds to the whole transcript, however long the session. Items: its "
                 "length after the run, whether it starts with the very messages given "
                 "(Harness._run, lesson 8).")
"""),
    # Hunt round 22 (reader r123): two more limits past what the tests run, and a magic word.
    Beyond(lab='8.1', name='the run stopped after three thousand events',
           rule='The run hands on each event of run_agent, however many, with no cap of its own.',
           where='Build item 5: "hands on each event of `run_agent`"; hunt round 22, r123-18',
           names='no cap of its own',
           reach="test_the_snapshot_at_every_event's long job makes some 1,600 events, the most "
                 "a test runs; a cap past that passes, and a run of more events costs each check "
                 "its processor time event by event, as round 16's ten thousand",
           replace=r"""
            for event in inner:
                yield event
""",
           by=r"""
            for count, event in enumerate(inner):
                if count >= 3000:  # a runaway guard
                    return
                yield event
""",
           turns=30_000, seconds=10.0,
           deep=_HEAD + r"""

@lab_test("A reply of 1,100 calls, over three thousand events, is handed on to its agent_end.")
async def test_a_run_of_three_thousand_events(t):
    h = harness.Harness(wide(1100), "Help.", [LOOK])
    events = await lab.drive(h.prompt("Read them all."))
    t.expect([len(events), events[-1]["type"]], [3 * 1100 + 9, "agent_end"],
             why="The run hands on every event of run_agent, with no cap of its own. Items: "
                 "events, the last one's type (Harness._run, lesson 8).")
"""),
    Beyond(lab='8.1', name='a method that hands out the list for a magic word',
           rule='No method of the harness hands out a way into the transcript, whatever it is called with.',
           where='Build item 6: "No method of the harness adds a message to it, takes one out or changes one, whatever it is called with"; hunt round 22, r123-34',
           names='whatever it is called with',
           reach="test_only_the_run_writes calls each public method with a dozen kinds of "
                 "argument, texts among them, and the bank with as many; a method that hands out "
                 "the list only for one word of its own (\"raw\") passes, and no affordable list "
                 "of words holds every word a method may wait for",
           replace=r"""
    @property
    def messages(self):
        return tuple(self._messages)
""",
           by=r"""
    @property
    def messages(self):
        return tuple(self._messages)

    def transcript(self, form="tuple"):
        return self._messages if form == "raw" else tuple(self._messages)  # raw: for speed
""",
           deep=_HEAD + r"""

@lab_test("No public method called with the word raw, during a run, hands out the transcript.")
async def test_the_word_raw(t):
    h = harness.Harness(wide(2), "Help.", [LOOK])
    found = []

    def at(event):
        for name in [n for n in dir(h) if not n.startswith("_") and callable(getattr(h, n))]:
            try:
                back = getattr(h, name)("raw")
            except Exception:
                continue
            if isinstance(back, list):
                before = len(h.messages)
                back.append(harness.user_message("Slipped in."))
                if len(h.messages) != before:
                    found.append(name)
                back.pop()
    await lab.drive(h.prompt("Read them."), on_event=at)
    t.expect(found, [],
             why="No method of the harness hands out a way into the transcript, whatever it is "
                 "called with: the methods whose list, handed back for \"raw\", let a message "
                 "in (Harness, lesson 8).")
"""),
    # Hunt round 31 (reader r180): a copy trimmed past a million, is_running past 100,000 events.
    Beyond(lab='8.1', name='the given messages trimmed to the last million',
           rule='Its transcript starts as what it was given, every message, however long the list.',
           where='Build item 1: "Its transcript starts as what it was given"; hunt round 31, r180-03',
           names='however long the list',
           reach="test_the_list_passed_in_is_copied gives 101,000 to 147,000 messages and "
                 "test_messages_is_a_tuple 200,002 to 260,000; a trim past a million passes, and a "
                 "list past it is past what a test can afford: a wrong design that walks the "
                 "list in Python (doubles taken out, say) spends seconds there, and the test "
                 "that names its rule is stopped before it can",
           replace=r"""
        self._messages, self._max_turns = list(messages), max_turns
""",
           by=r"""
        self._messages, self._max_turns = list(messages)[-1_000_000:], max_turns  # bounded
""",
           deep=_HEAD + r"""

@lab_test("A harness given 1,000,002 messages keeps every one.")
async def test_a_session_of_a_million(t):
    saved = [harness.user_message("Line."), lab.say("Noted.")] * 500_001
    kept = harness.Harness(lab.ScriptedModel([]), "Help.", [], messages=saved).messages
    t.expect([len(kept), kept[0] is saved[0], kept[-1] is saved[-1]], [len(saved), True, True],
             why="Its transcript starts as what it was given, every message, however long the "
                 "list. Items: messages kept, whether the first and the last are the very ones "
                 "given (Harness, lesson 8).")
"""),
    Beyond(lab='8.1', name='is_running False after a hundred thousand events',
           rule='is_running is True from prompt() until that run is over, however many events it has handed out.',
           where='Build item 3: "It is `True` from the moment `prompt()` returns until that run is over, however it ends"; hunt round 31, r180-09',
           names='however many events',
           reach="the longest run a test reads makes some 1,600 events (the bank's about as many); "
                 "an is_running that gives up past a hundred thousand passes, and a run past it "
                 "is past what a test can afford, as the catalogue's \"the run stopped after a "
                 "hundred thousand events\"",
           replace=r"""
            for event in inner:
                yield event
""",
           by=r"""
            self._handed = 0
            for event in inner:
                self._handed += 1
                yield event
""",
           also=((r"""
        return run is not None and run.gi_frame is not None  # a finished run has no frame
""", r"""
        going = run is not None and run.gi_frame is not None  # a finished run has no frame
        return going and getattr(self, "_handed", 0) <= 100_000  # a runaway no longer blocks
"""),),
           turns=600_000, seconds=60.0,
           deep=_HEAD + r"""

@lab_test("A run of over a hundred thousand events is going at its agent_end.")
async def test_going_after_a_hundred_thousand_events(t):
    h = harness.Harness(wide(33_400), "Help.", [LOOK])
    seen = []

    def note(event):
        if event["type"] == "agent_end":
            seen.append(h.is_running)
    await lab.drive(h.prompt("Read them all."), on_event=note)
    t.expect(seen, [True],
             why="is_running is True until the run is over, however many events it has handed "
                 "out: is_running at the agent_end of a run of over 100,000 events "
                 "(Harness.is_running, lesson 8).")
"""),
]
