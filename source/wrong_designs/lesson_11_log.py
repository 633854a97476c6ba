"""Lesson 11's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
lab 11.1's reference; the rule is the lesson's principle or the part of it the design breaks.
"""
from tools.wrong_designs import Wrong

WRONG = [
    Wrong(lab='11.1', name='skipping a torn line',
          rule='A line that is not JSON is named and never skipped: skipped, the next append fuses with it.',
          where='section "A half line at the end" (SkippingLog); Build recap',
          names='never skipped',
          replace=r'''
            try:
                found.append(json.loads(raw))
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
''',
          by=r'''
            try:
                found.append(json.loads(raw))
            except ValueError:
                pass  # half a line from a crash: read on past it
'''),
    Wrong(lab='11.1', name='listeners that fail silently',
          rule='A listener that raises ends the run with its own exception: a saver that cannot save must not fail quietly.',
          where='section "When the listener cannot write" (QuietHarness); Build recap',
          names='must not fail quietly',
          replace='    def _notify(self, event):',
          by=r'''
    def _notify(self, event):
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                pass  # the run has nothing to do with the disk

    def _notify_as_the_reference_does(self, event):
'''),
    # The quiet _notify is put in front; the reference's body is left under another name, unused.
    Wrong(lab='11.1', name='rewriting the file',
          rule='The log only grows: each append adds one line and never rewrites what is written, so a torn write loses only that line.',
          where='section "Write as it happens" (rewrite_everything); Build recap',
          names='only grows',
          replace=r'''
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
''',
          by=r'''
        lines = [json.dumps(e) + "\n" for e in self.entries() + [entry]]
        self.ws.write_text(self.path, "".join(lines))  # the whole log, written afresh
'''),
    Wrong(lab='11.1', name='ids kept in memory',
          rule="An id is the entry's line number, read from the file at each append, so every log over one file agrees.",
          where='section "Two writers, one file" (CountingLog); Build recap',
          names='not kept in memory',
          replace=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
''',
          by=r'''
        self.count = getattr(self, "count", 0) + 1  # this object's own tally
        entry = {"id": f"e{self.count}", **entry}
'''),
    Wrong(lab='11.1', name='saving from the frontend loop: listeners told after the consumer',
          rule='Listeners hear each event before the consumer, so a consumer that stops at an event cannot stop the log hearing it.',
          where='section "Who writes it down?" (saved by the window); Build recap',
          names='before the consumer',
          replace=r'''
                self._notify(event)  # listeners first: a consumer that stops listening to
                yield event  # the run cannot stop them hearing what happened
''',
          by=r'''
                yield event  # the consumer first, as the window's own loop saw it
                self._notify(event)
'''),
    Wrong(lab='11.1', name='saving the state at the end of each run',
          rule='Each message is written down as it happens; saving at the end loses everything since the last end when a crash comes.',
          where='section "The morning after" (session.json saved after each run); Build recap',
          names='already holds that message',
          replace=r'''
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
        if event["type"] == "agent_end":  # the run is over: save what it added
            for message in event["messages"]:
                log.append_message(message)
'''),
    Wrong(lab='11.1', name='rows replayed sorted by their string id',
          rule='The transcript is the log read in the order it was written: an id is a name, and sorted as text e10 comes before e2.',
          where='Build recap (rows() and replay(), oldest first)',
          names='order they were written',
          replace=r'''
                table.append((entry["id"], entry["message"]))
        return table
''',
          by=r'''
                table.append((entry["id"], entry["message"]))
        return sorted(table, key=lambda row: row[0])  # by id, to be safe
'''),
    Wrong(lab='11.1', name='the quiet saver',
          rule='A saver that cannot save must not fail quietly: the error persist_to meets ends the run.',
          where='section "When the listener cannot write" (QuietHarness); Build recap',
          names='must not fail quietly',
          replace=r'''
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
        if event["type"] == "message_end":
            try:
                log.append_message(event["message"])
            except Exception:
                pass  # a full disk is no reason to stop the user's run
'''),
    Wrong(lab='11.1', name='notifying over the live list of listeners',
          rule='Every listener subscribed when an event began hears it, even when one unsubscribes itself or another during it.',
          where='Build recap (_notify, "does not make any listener subscribed when the event began miss it")',
          names='must not make the next one miss',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
''',
          by=r'''
        for listener in self._listeners:  # the list itself: no copy needed
'''),
    Wrong(lab='11.1', name='an undo that takes off every equal subscription',
          rule="Each subscribe is one subscription and its undo takes off that one, once; a second call takes off nothing.",
          where='Build recap (subscribe: "Each undo takes off its own subscription, once")',
          names='takes off that one',
          replace=r'''
            if subscribed:  # once only: a second call must not take off an equal subscription
                subscribed = False
                self._listeners.remove(listener)
''',
          by=r'''
            subscribed = False
            self._listeners[:] = [other for other in self._listeners if other is not listener]
'''),
    Wrong(lab='11.1', name='an undo that removes an equal subscription again',
          rule="Each subscribe is one subscription and its undo takes off that one, once; a second call takes off nothing.",
          where='Build recap (subscribe: "call that undo again and nothing changes")',
          names='takes off that one',
          replace=r'''
            if subscribed:  # once only: a second call must not take off an equal subscription
                subscribed = False
                self._listeners.remove(listener)
''',
          by=r'''
            subscribed = False
            try:
                self._listeners.remove(listener)
            except ValueError:
                pass  # already gone: undoing twice is harmless
'''),
    Wrong(lab='11.1', name='rows holding every entry',
          rule='rows() is the transcript as (id, message) pairs, one per message entry: an entry of another kind is not a row.',
          where='lab 11.1, gap 3: "`rows()` and `replay()`"',
          names='only a message entry is a row',
          replace=r'''
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
''',
          by=r'''
            table.append((entry["id"], entry.get("message")))
'''),
    Wrong(lab='11.1', name='reading that makes the file',
          rule='entries() is [] while the file does not exist, and reading creates no file.',
          where='lab 11.1, gap 1: "`SessionLog.entries()`"',
          names='reading creates no file',
          replace=r'''
        if not self.ws.exists(self.path):
            return []
''',
          by=r'''
        if not self.ws.exists(self.path):
            self.ws.append_text(self.path, "")
            return []
'''),
    Wrong(lab='11.1', name='a torn line counted from 0',
          rule='The ValueError names the line by its number counted from 1.',
          where='lab 11.1, gap 1: "`SessionLog.entries()`"',
          names='not a complete log entry',
          replace=r'''
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
''',
          by=r'''
                raise ValueError(f"{self.path}, line {index}: not a complete log entry") from None
'''),
    Wrong(lab='11.1', name='persist_to saving each result twice',
          rule='persist_to saves the message of every message_end, and does nothing with any other event.',
          where='lab 11.1, gap 4: "`persist_to(log)`"',
          names='replay() equals',
          replace=r'''
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
        if event["type"] == "message_end":
            log.append_message(event["message"])
        elif event["type"] == "tool_execution_end":
            log.append_message(event["result"])
'''),
]
