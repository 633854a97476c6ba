"""Lesson 9's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
lab 9.1's reference; the rule is the lesson's principle or the part of it the design breaks.
"""
from tools.wrong_designs import Wrong

WRONG = [
    Wrong(lab='9.1', name='appending the steer at once',
          rule="The user's words enter the record only at the top of a turn, where every call has its result.",
          where='the scene "Also, the tests live in tests/" (AppendAtOnce)',
          names='top of a turn',
          replace='        self._steering.append(user_message(text))',
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
            self._steering.clear()
            self._follow_ups.clear()
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
          replace='        self._steering.append(user_message(text))',
          by=r'''
        if not self.is_running:
            raise RuntimeError("nothing is running to steer")
        self._steering.append(user_message(text))
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
        self._steering.append(user_message(text))
''',
          by=r'''
        if text.strip():
            self._steering.append(user_message(text))
'''),
    Wrong(lab='9.1', name='a blank follow-up dropped',
          rule='follow_up(text) queues the words as a user message, whatever they hold: a blank follow-up is still the user\'s.',
          where='lab 9.1, gap 1: "`steer(text)` and `follow_up(text)`"',
          names='a blank one is still the user',
          replace=r'''
        self._follow_ups.append(user_message(text))
''',
          by=r'''
        if text.strip():
            self._follow_ups.append(user_message(text))
'''),
    Wrong(lab='9.1', name='a steer trimmed',
          rule='steer(text) queues the words word for word: spaces at their ends are part of them.',
          where='lab 9.1, gap 1: "`steer(text)` and `follow_up(text)`"',
          names='spaces at its ends are part of it',
          replace=r'''
        self._steering.append(user_message(text))
''',
          by=r'''
        self._steering.append(user_message(text.strip()))
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
]
