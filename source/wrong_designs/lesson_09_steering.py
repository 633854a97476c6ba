"""Lesson 9's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
lab 9.1's reference; the rule is the lesson's principle or the part of it the design breaks.
"""
from tools.wrong_designs import Wrong

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
]
