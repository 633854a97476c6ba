"""Lesson 11's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
lab 11.1's reference; the rule is the lesson's principle or the part of it the design breaks.
"""
from tools.wrong_designs import Beyond, Wrong

WRONG = [
    # Hunt round 10 (reader r46), probe 11.1-27.
    Wrong(lab='11.1', name='a file of 0 bytes refused as damage',
          rule='A file with nothing in it, as a writer that opened it and wrote nothing leaves '
               'it, is a log with no entries yet: entries() gives [].',
          where='lab 11.1, Build section, item 1: "A file with nothing in it, as a writer that '
                'opened it and wrote nothing leaves it, is a log with no entries yet"',
          names='nothing in it',
          replace=r'''
        if not self.ws.exists(self.path):
            return []
        found = []
''',
          by=r'''
        if not self.ws.exists(self.path):
            return []
        if self.ws.read_text(self.path) == "":  # a file with no line at all is not a log
            raise ValueError(f"{self.path}, line 1: not a complete log entry")
        found = []
'''),
    # Hunt round 10 (reader r46), probe 11.1-23.
    Wrong(lab='11.1', name='a listener subscribed during an event hearing that event',
          rule='A listener subscribed while an event is being heard hears the events after it, '
               'not that one.',
          where='lab 11.1, Build section, item 5: "A listener subscribed while an event is being '
                'heard hears the events after it, not that one."',
          names='not that one',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        before = list(self._listeners)
        for listener in before:
            listener(event)
        for listener in [joined for joined in self._listeners if joined not in before]:
            listener(event)  # those subscribed during this event hear it too
'''),
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
          names='must not make any of them miss',
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
        def hear(event):  # this subscription's own entry: no other is equal to it, so its
            listener(event)  # undo cannot take off an equal listener's subscribed earlier

        self._listeners.append(hear)

        def unsubscribe():
            if hear in self._listeners:  # once only: a second call takes off nothing
                self._listeners.remove(hear)
        return unsubscribe
''',
          by=r'''
        self._listeners.append(listener)

        def unsubscribe():
            self._listeners[:] = [other for other in self._listeners if other is not listener]
        return unsubscribe
'''),
    Wrong(lab='11.1', name='an undo that removes an equal subscription again',
          rule="Each subscribe is one subscription and its undo takes off that one, once; a second call takes off nothing.",
          where='Build recap (subscribe: "call that undo again and nothing changes")',
          names='takes off that one',
          replace=r'''
        def hear(event):  # this subscription's own entry: no other is equal to it, so its
            listener(event)  # undo cannot take off an equal listener's subscribed earlier

        self._listeners.append(hear)

        def unsubscribe():
            if hear in self._listeners:  # once only: a second call takes off nothing
                self._listeners.remove(hear)
        return unsubscribe
''',
          by=r'''
        self._listeners.append(listener)

        def unsubscribe():
            try:
                self._listeners.remove(listener)
            except ValueError:
                pass  # already gone: undoing twice is harmless
        return unsubscribe
'''),
    # The designs below were found by a reader who held only the release (issue 38, round 1).
    Wrong(lab='11.1', name='an undo that takes off the first equal subscription',
          rule='Each undo takes off its own subscription, and listeners hear an event in the order they subscribed: with L, M, L subscribed, undoing the second L leaves L, M.',
          where='Build recap (subscribe: "Each undo takes off its own subscription, once")',
          names='not the first equal one',
          replace=r'''
        def hear(event):  # this subscription's own entry: no other is equal to it, so its
            listener(event)  # undo cannot take off an equal listener's subscribed earlier

        self._listeners.append(hear)

        def unsubscribe():
            if hear in self._listeners:  # once only: a second call takes off nothing
                self._listeners.remove(hear)
        return unsubscribe
''',
          by=r'''
        self._listeners.append(listener)
        subscribed = True

        def unsubscribe():
            nonlocal subscribed
            if subscribed:  # once only
                subscribed = False
                self._listeners.remove(listener)  # the first equal one, wherever it stands
        return unsubscribe
'''),
    Wrong(lab='11.1', name='the newest listener hears first',
          rule='Listeners hear an event in the order they subscribed.',
          where='Build recap (subscribe and _notify: "in the order they subscribed")',
          names='in the order they subscribed',
          replace=r'''
        self._listeners.append(hear)
''',
          by=r'''
        self._listeners.insert(0, hear)  # the newest is the one that cares most
'''),
    Wrong(lab='11.1', name='a listener taken off during an event skipped for it',
          rule='A listener that unsubscribes another while it hears an event does not make any listener subscribed when the event began miss it, even one subscribed after it.',
          where='Build recap (_notify: "does not make any listener subscribed when the event began miss it")',
          names='must not make any of them miss',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            if listener in self._listeners:  # still subscribed? one before it may have left it
                listener(event)
'''),
    Wrong(lab='11.1', name='non-ASCII written as it is',
          rule='Each append adds exactly one line, whatever its message holds; a reader that splits with splitlines() needs the writer to escape U+2028, U+2029 and U+0085.',
          where='Build recap ("Each append adds exactly one line at the end of the file")',
          names='exactly one line',
          replace=r'''
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
''',
          by=r'''
        self.ws.append_text(self.path, json.dumps(entry, ensure_ascii=False) + "\n")  # readable
'''),
    Wrong(lab='11.1', name='rows of every kind of entry',
          rule='rows() holds one pair per message entry; entries of another kind are not rows.',
          where='Build recap (rows(): "one per message entry")',
          names='one pair per message entry',
          replace=r'''
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        return table
''',
          by=r'''
            table.append((entry["id"], entry.get("message")))  # every entry is a message, so far
        return table
'''),
    Wrong(lab='11.1', name='ids that count the messages',
          rule="An entry's id is e and the number of the line it lands on, whatever kind of entry the lines before hold.",
          where='Build recap (append_message: "the number of the line the entry lands on")',
          names='number of the line it lands on',
          replace=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
''',
          by=r'''
        entry = {"id": f"e{len(self.rows()) + 1}", **entry}  # one more than the messages so far
'''),
    Wrong(lab='11.1', name='blank lines skipped',
          rule='A line that is not JSON is never skipped, an empty one included: skipped, it would make the ids stop being line numbers.',
          where='Build recap ("A line that is not JSON is never skipped")',
          names='not even an empty one',
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            try:
''',
          by=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            if not raw.strip():
                continue  # a blank line holds no entry, as Tau's reader reads it
            try:
'''),
    Wrong(lab='11.1', name='only the last line can be torn',
          rule='A line that is not JSON is never skipped, wherever it stands: the missing newline at the end is not what makes a line broken.',
          where='Build recap ("A line that is not JSON is never skipped")',
          names='not only when it is the last',
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            try:
                found.append(json.loads(raw))
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
        if found and not self.ws.read_text(self.path).endswith("\n"):  # its newline never came:
            raise ValueError(f"{self.path}, line {len(found)}: not a complete log entry")  # torn
        return found
''',
          by=r'''
        text = self.ws.read_text(self.path)
        lines = text.splitlines()
        if not text.endswith("\n"):  # a crash tears only the last write
            raise ValueError(f"{self.path}, line {len(lines)}: not a complete log entry")
        for raw in lines:
            try:
                found.append(json.loads(raw))
            except ValueError:
                continue  # a whole line that does not parse is no torn write
        return found
'''),
    Wrong(lab='11.1', name='a whole last line with no newline read as an entry',
          rule='A last line with no newline is a write that did not finish, even when it parses: reading raises the same ValueError for it.',
          where='lab 11.1, Build section: "A last line with no newline is a write that did not finish, even when it parses"',
          names='a write that did not finish',
          replace=r'''
        if found and not self.ws.read_text(self.path).endswith("\n"):  # its newline never came:
            raise ValueError(f"{self.path}, line {len(found)}: not a complete log entry")  # torn
''',
          by=r'''
'''),
    Wrong(lab='11.1', name='the error names the file, not the path',
          rule='The ValueError\'s sentence is "PATH, line N: not a complete log entry", with the log\'s path for PATH.',
          where='Build recap ("with the log\'s path for PATH")',
          names="the log's path as given",
          replace=r'''
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
''',
          by=r'''
                raise ValueError(f"{self.path.rsplit('/', 1)[-1]}, line {index + 1}: not a complete log entry") from None
'''),
    Wrong(lab='11.1', name='the saver leaves out failed replies',
          rule='persist_to saves the message of every message_end, a failed reply too, so that the log replays to the record.',
          where='Build recap (persist_to: "saves the message of every `message_end`")',
          names='every message_end',
          replace=r'''
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
        if event["type"] == "message_end" and event["message"].get("stop_reason") != "error":
            log.append_message(event["message"])  # the view leaves failed replies out anyway
'''),
    Wrong(lab='11.1', name='the saver shrugs off a torn log',
          rule="A saver that cannot save must not fail quietly: on a log with a torn line the append raises the reader's ValueError, and that ends the run.",
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
            except ValueError:
                pass  # a damaged log is a problem for the morning, not for this run
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
    # Hunt round 4 (reader r14).
    Wrong(lab='11.1', name='an empty line at the end of the file skipped',
          rule="A line that is not JSON is never skipped, wherever it stands, an empty line at the file's very end included: the next append lands after it, and the ids stop being line numbers.",
          where='Build: write it down, item 1 (hunt round 4, 11.1-1)',
          names="the file's very end included",
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
''',
          by=r'''
        text = self.ws.read_text(self.path).rstrip("\n")  # tidy: no empty tail
        for index, raw in enumerate(text.splitlines()):
'''),
    Wrong(lab='11.1', name='ids counted in memory per file, seeded once from it',
          rule='An id is e and the number of the line the entry lands on, read from the file at each append, whoever else appended to it.',
          where='Build: write it down, item 2 (hunt round 4, 11.1-2b)',
          names='appended to the file by another program',
          replace=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
''',
          by=r'''
        self.entries()  # refuses a torn log
        counts = _COUNTS.setdefault(self.ws, {})
        if self.path not in counts:
            counts[self.path] = len(self.entries())  # read once, then counted here
        counts[self.path] += 1
        entry = {"id": f"e{counts[self.path]}", **entry}
''',
          also=((r'''
class SessionLog:
''', r'''
_COUNTS = weakref.WeakKeyDictionary()  # workspace -> {path: the last id handed out}


class SessionLog:
'''),)),
    Wrong(lab='11.1', name='message entries told by their "message" field',
          rule='rows() holds one pair per message entry, an entry of type "message": an entry of another kind that carries a "message" field is left out.',
          where='Build: write it down, item 3 (hunt round 4, 11.1-3)',
          names='by its type',
          replace=r'''
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
''',
          by=r'''
            if "message" in entry:
                table.append((entry["id"], entry["message"]))
'''),
    Wrong(lab='11.1', name="a message equal to the log's last not saved again",
          rule='persist_to saves the message of every message_end, one equal to the message before it too.',
          where='Build: write it down, item 4 (hunt round 4, 11.1-4)',
          names='whatever it holds',
          replace=r'''
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
        if event["type"] == "message_end":
            saved = log.replay()
            if saved and saved[-1] == event["message"]:
                return  # already saved: don't write it twice
            log.append_message(event["message"])
'''),
    Wrong(lab='11.1', name="a listener's own bug swallowed",
          rule='A listener that raises ends the run with its own exception, whatever it raises: a bug in it as much as a disk that cannot save.',
          where='Build: write it down, item 5 (hunt round 4, 11.1-6)',
          names='whatever it raises',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            try:
                listener(event)
            except (OSError, ValueError):
                raise  # the disk, or a torn log: the person must hear of it
            except Exception:
                pass  # a listener's own bug must not take the agent down
'''),
    Wrong(lab='11.1', name="listeners noted at a run's start",
          rule='After subscribe, the listener hears every event of every run: one subscribed in the middle of a run hears the rest of it.',
          where='Build: write it down, item 5 (hunt round 4, 11.1-7)',
          names='in the middle of a run',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        if event["type"] == "agent_start":
            self._joined = {id(listener) for listener in self._listeners}  # this run's listeners
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            if id(listener) in self._joined:
                listener(event)
'''),
    Wrong(lab='11.1', name='append_message writing its own line',
          rule='Every kind of entry is written by _append, messages too: append_message writes no line itself.',
          where='Build: write it down, item 2 (hunt round 4, 11.1-9)',
          names='writes no line itself',
          replace=r'''
        return self._append({"type": "message", "message": message})
''',
          by=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", "type": "message", "message": message}
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
        return entry["id"]
'''),
    Wrong(lab='11.1', name='entries() kept from the last read',
          rule="entries() is the file's entries, parsed at each read: SessionLog keeps no state but ws and path, so what a caller does to the list it was handed changes nothing the log reads next.",
          where='Build: write it down, item 1 (hunt round 4, 11.1-10)',
          names='parsed again at each read',
          replace=r'''
        if not self.ws.exists(self.path):
            return []
        found = []
''',
          by=r'''
        if not self.ws.exists(self.path):
            return []
        text = self.ws.read_text(self.path)
        if getattr(self, "_seen", None) is not None and self._seen[0] == text:
            return self._seen[1]  # the file has not changed: no need to parse it again
        found = []
        self._seen = (text, found)
'''),
    Wrong(lab='11.1', name='the listeners told before the queue hears of the record',
          rule='A message leaves its queue once it is on the record (lesson 9), even when a listener raises at its message_end: _run marks it delivered before the listeners hear the event.',
          where='Build: write it down, item 6 (hunt round 4, 11.1-11)',
          names='marks it delivered before the listeners',
          replace=r'''
                if event["type"] == "message_end":
                    self._delivered(event["message"])
                self._notify(event)  # listeners first: a consumer that stops listening to
''',
          by=r'''
                self._notify(event)  # listeners first: a consumer that stops listening to
                if event["type"] == "message_end":
                    self._delivered(event["message"])
'''),
    Wrong(lab='11.1', name='a file that cannot be read taken for no file',
          rule='entries() is [] while the file does not exist, and only then: a file that is there but cannot be read raises its error.',
          where='Build: write it down, item 1 (hunt round 4, 11.1-12)',
          names='and only for that',
          replace=r'''
        if not self.ws.exists(self.path):
            return []
        found = []
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
''',
          by=r'''
        try:
            text = self.ws.read_text(self.path)
        except OSError:  # no file (or none we can read): nothing has happened yet
            return []
        found = []
        for index, raw in enumerate(text.splitlines()):
'''),
    Wrong(lab='11.1', name='a listener that raised unsubscribed for good',
          rule='After subscribe, the listener hears every event of every run until its undo is called, one that raised included.',
          where='Build: write it down, item 5 (hunt round 4, 11.1-19)',
          names='until its undo is called',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            try:
                listener(event)
            except Exception:
                if listener in self._listeners:  # a broken listener is not called again
                    self._listeners.remove(listener)
                raise
'''),
    Wrong(lab='11.1', name='the saver silent after its first failure',
          rule='persist_to saves the message of every message_end, after a failed save too: once the disk has room again, the next run is saved.',
          where='Build: write it down, item 4 (hunt round 4, 11.1-20)',
          names='after a failed save too',
          replace=r'''
    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
    return listener
''',
          by=r'''
    broken = []

    def listener(event):
        if broken:
            return  # it failed once; don't make things worse
        if event["type"] == "message_end":
            try:
                log.append_message(event["message"])
            except Exception:
                broken.append(True)
                raise
    return listener
'''),
    Wrong(lab='11.1', name='the ends of a run heard last-subscribed first',
          rule='Listeners hear an event in the order they subscribed, every event: turn_end and agent_end as much as agent_start.',
          where='Build: write it down, item 5 (hunt round 4, 11.1-29)',
          names='turn_end and agent_end',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        listeners = list(self._listeners)  # a copy: a listener may unsubscribe itself
        if event["type"] in ("turn_end", "agent_end"):
            listeners.reverse()  # unwind: the last to join is the first to hear the end
        for listener in listeners:
            listener(event)
'''),
    Wrong(lab='11.1', name='messages with no content not saved',
          rule='persist_to saves the message of every message_end, whatever it holds: an answer with no content is a message of the record like any other.',
          where='Build: write it down, item 4 (hunt round 4, 11.1-32)',
          names='whatever it holds',
          replace=r'''
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
        if event["type"] == "message_end":
            message = event["message"]
            if not message.get("content") and message.get("stop_reason") != "error":
                return  # nothing to save
            log.append_message(message)
'''),
    Wrong(lab='11.1', name='entries() reading only the first 300 lines',
          rule='A line that is not JSON is never skipped, wherever it stands: every line of the file is read, however long the log.',
          where='lab 11.1, Build section: entries(); bench/kinds.py, a loop given a limit',
          names='however long the log',
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
''',
          by=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()[:300]):
'''),
    Wrong(lab='11.1', name='rows() taking only the first 300 entries',
          rule='rows() is the transcript as (id, message) pairs, one per message entry, however long the log.',
          where='lab 11.1, Build section: "`rows()` is the transcript as `(id, message)` pairs, one per message entry"; bench/kinds.py, a loop given a limit',
          names='however long the log',
          replace=r'''
        for entry in self.entries():
            if entry["type"] == "message":
''',
          by=r'''
        for entry in self.entries()[:300]:  # a session is never longer
            if entry["type"] == "message":
'''),
    Wrong(lab='11.1', name='only the first 300 listeners told',
          rule='After subscribe, the listener hears every event of every run, until its undo is called, however many listeners there are.',
          where='lab 11.1, Build section: "After `subscribe`, the listener hears every event of every run"; bench/kinds.py, a loop given a limit',
          names='however many subscriptions there are',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
''',
          by=r'''
        for listener in self._listeners[:300]:  # a copy, and a bound on the fan-out
'''),
    # Hunt round 8 (reader r34), designs 11.1-1 to 11.1-8 and 11.1-22.
    Wrong(lab='11.1', name="ids from the last entry's id",
          rule="An id is e and the number of the line the entry lands on, read from the file at each append: not the last entry's id plus one, which a file whose ids are not its line numbers (two logs joined, two writers racing) sets wrong.",
          where='Build: write it down, item 2 (hunt round 8, 11.1-1)',
          names='not its line numbers',
          replace=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
''',
          by=r'''
        found = self.entries()
        entry = {"id": f"e{int(found[-1]['id'][1:]) + 1}" if found else "e1", **entry}
'''),
    Wrong(lab='11.1', name='rows sorted by the number in their id',
          rule='rows() is one pair per message entry, in the order they were written: the order of the file, not of the numbers in the ids.',
          where='Build: write it down, item 3 (hunt round 8, 11.1-2)',
          names='in the order of the file',
          replace=r'''
        table = []
        for entry in self.entries():
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        return table
''',
          by=r'''
        table = []
        for entry in self.entries():
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        return sorted(table, key=lambda row: int(row[0][1:]))  # e2 before e10
'''),
    Wrong(lab='11.1', name='rows one per id',
          rule='rows() is one pair per message entry: two entries that share an id (two logs joined, two writers racing) are two rows.',
          where='Build: write it down, item 3 (hunt round 8, 11.1-3)',
          names='not one per id',
          replace=r'''
        table = []
        for entry in self.entries():
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        return table
''',
          by=r'''
        table = {}
        for entry in self.entries():
            if entry["type"] == "message":
                table[entry["id"]] = entry["message"]  # one row per id
        return list(table.items())
'''),
    Wrong(lab='11.1', name='rows that leave out only notes',
          rule='rows() holds the message entries and no other kind: an entry is a message entry by its type, "message", whatever the other kinds are called.',
          where='Build: write it down, items 2 and 3 ("lesson 12 adds a second kind"; hunt round 8, 11.1-4)',
          names='whatever they are called',
          replace=r'''
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
''',
          by=r'''
            if entry["type"] != "note":  # the one other kind there is
                table.append((entry["id"], entry["message"]))
'''),
    Wrong(lab='11.1', name='rows() skipping a torn line',
          rule='A line that is not JSON is never skipped, by any reader of the log: rows() and replay() raise the reader\'s ValueError as entries() does.',
          where='Build: write it down, items 1 and 3 (hunt round 8, 11.1-5)',
          names='rows() too',
          replace=r'''
        table = []
        for entry in self.entries():
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        return table
''',
          by=r'''
        table = []
        text = self.ws.read_text(self.path) if self.ws.exists(self.path) else ""
        for raw in text.split("\n"):
            try:
                entry = json.loads(raw)
            except ValueError:
                continue  # a torn line is no row
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        return table
''',
          also=((r'''
        return [message for _, message in self.rows()]
''', r'''
        return [entry["message"] for entry in self.entries() if entry["type"] == "message"]
'''),)),
    Wrong(lab='11.1', name='a file of blank lines taken for an empty log',
          rule='A line that is not JSON is never skipped, not even when it is the only line: [] is for a log whose file does not exist.',
          where='Build: write it down, item 1 (hunt round 8, 11.1-6)',
          names="the file's only one",
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
''',
          by=r'''
        text = self.ws.read_text(self.path)
        if not text.strip():
            return []  # nothing in it yet
        for index, raw in enumerate(text.splitlines()):
'''),
    Wrong(lab='11.1', name='entries() kept while the file keeps its length',
          rule="entries() is the file's entries, parsed at each read: SessionLog keeps no state but ws and path, so a file another program rewrote is read as it now is, whatever its length.",
          where='Build: write it down, item 1, and SessionLog\'s docstring (hunt round 8, 11.1-7)',
          names='whatever its length',
          replace=r'''
        found = []
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            try:
                found.append(json.loads(raw))
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
        if found and not self.ws.read_text(self.path).endswith("\n"):  # its newline never came:
            raise ValueError(f"{self.path}, line {len(found)}: not a complete log entry")  # torn
        return found
''',
          by=r'''
        text = self.ws.read_text(self.path)
        kept = getattr(self, "_kept", None)
        if kept is not None and kept[0] == len(text):
            return json.loads(kept[1])  # the file has not grown: parsed already
        found = []
        for index, raw in enumerate(text.splitlines()):
            try:
                found.append(json.loads(raw))
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
        if found and not text.endswith("\n"):
            raise ValueError(f"{self.path}, line {len(found)}: not a complete log entry")
        self._kept = (len(text), json.dumps(found))
        return found
'''),
    Wrong(lab='11.1', name="an undo that finds its subscription by its place",
          rule='Each undo takes off its own subscription, once: called again after later subscriptions, or after another undo, it takes off no other.',
          where='Build: write it down, item 5 (hunt round 8, 11.1-8)',
          names='subscribed after an undo',
          replace=r'''
        def hear(event):  # this subscription's own entry: no other is equal to it, so its
            listener(event)  # undo cannot take off an equal listener's subscribed earlier

        self._listeners.append(hear)

        def unsubscribe():
            if hear in self._listeners:  # once only: a second call takes off nothing
                self._listeners.remove(hear)
        return unsubscribe
''',
          by=r'''
        number = len(self._listeners)  # this subscription's number: its place in the list

        def hear(event):
            listener(event)
        hear.number = number
        self._listeners.append(hear)

        def unsubscribe():  # takes off what holds this number; called again, it finds none
            self._listeners[:] = [h for h in self._listeners if h.number != number]
        return unsubscribe
'''),
    Wrong(lab='11.1', name='listeners quiet at the events that carry no message',
          rule='A listener that raises ends the run with its own exception, at whatever event it raises: agent_start, turn_start, tool_execution_start, turn_end and agent_end as much as message_end.',
          where='Build: write it down, item 5 (hunt round 8, 11.1-22)',
          names='at whatever event',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            try:
                listener(event)
            except Exception:
                if event["type"] in ("message_end", "tool_execution_end"):
                    raise  # a save that failed: the person must hear of it
'''),
    # Hunt round 10 (reader r46): the designs that passed the release.
    Wrong(lab='11.1', name='rows of every kind whose name holds "message"',
          rule='rows() is the transcript as (id, message) pairs, one per message entry: an entry is a message entry by its type, exactly "message".',
          where='Build: write it down, item 3 (hunt round 10, 11.1-02)',
          names='exactly "message"',
          replace=r'''
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
''',
          by=r'''
            if "message" in entry["type"]:  # message, message_edit, ...
                table.append((entry["id"], entry["message"]))
'''),
    Wrong(lab='11.1', name='rows of every entry whose "message" is a message',
          rule='rows() is one pair per message entry: an entry is a message entry by its type, not by what its fields hold.',
          where='Build: write it down, item 3 (hunt round 10, 11.1-03)',
          names='not by a type that holds the word, by its fields',
          replace=r'''
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
''',
          by=r'''
            if entry["type"] == "message" or isinstance(entry.get("message"), dict):
                table.append((entry["id"], entry["message"]))
'''),
    Wrong(lab='11.1', name='the error names the path tidied',
          rule='reading raises a ValueError whose message is the sentence "PATH, line N: not a complete log entry", with the log\'s path for PATH: the path as given.',
          where='Build: write it down, item 1 (hunt round 10, 11.1-04)',
          names='path as given',
          replace=r'''
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
''',
          by=r'''
                raise ValueError(f"{posixpath.normpath(self.path)}, line {index + 1}: "
                                 "not a complete log entry") from None
''',
          also=((r'''
class SessionLog:
''', r'''
import posixpath


class SessionLog:
'''),)),
    Wrong(lab='11.1', name='the last id kept beside the file',
          rule='An append\'s id is e and the number of the line the entry lands on, read from the file at each call: SessionLog keeps no state but ws and path.',
          where='Build: write it down, item 2; SessionLog\'s docstring (hunt round 10, 11.1-05)',
          names='not one past an id handed out before',
          replace=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
''',
          by=r'''
        number = max(getattr(self, "_last", 0), len(self.entries())) + 1
        self._last = number  # remembered, in case the file is read short
        entry = {"id": f"e{number}", **entry}
'''),
    Wrong(lab='11.1', name='the line count kept while the file keeps its length',
          rule='On a log with a torn or damaged line, an append raises the reader\'s ValueError and writes nothing: it reads the file at each call, whatever its length.',
          where='Build: write it down, item 2; _append\'s docstring (hunt round 10, 11.1-06)',
          names='refuses a damaged line and writes nothing',
          replace=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
''',
          by=r'''
        text = self.ws.read_text(self.path) if self.ws.exists(self.path) else ""
        seen = SessionLog._counts.get((self.path, len(text)))
        if seen is not None and seen[0] is self.ws and text.endswith("\n"):
            count = seen[1]  # a length seen before: parsed once already
        else:
            count = len(self.entries())
        entry = {"id": f"e{count + 1}", **entry}
        line = json.dumps(entry) + "\n"
        self.ws.append_text(self.path, line)
        SessionLog._counts[(self.path, len(text) + len(line))] = (self.ws, count + 1)
''',
          also=((r'''
    def __init__(self, ws, path):
        self.ws, self.path = ws, path
''', r'''
    _counts = {}  # (path, length) -> (ws, lines): a speed-up for long logs

    def __init__(self, ws, path):
        self.ws, self.path = ws, path
'''),)),
    Wrong(lab='11.1', name='the listener\'s exception made anew',
          rule='A listener that raises ends the run with its own exception: that object, not a new one of its type and words.',
          where='Build: write it down, item 5 (hunt round 10, 11.1-09)',
          names='that object',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            try:
                listener(event)
            except Exception as failed:  # tidy the traceback for the user
                raise type(failed)(*failed.args) from None
'''),
    Wrong(lab='11.1', name='the saver skips a message equal to the one it saved last',
          rule='persist_to saves the message of every message_end, whatever it saved before.',
          where='Build: write it down, item 4 (hunt round 10, 11.1-10)',
          names='whatever it saved before',
          replace=r'''
    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
    last = []  # the message saved last, so a double send is not saved twice

    def listener(event):
        if event["type"] == "message_end":
            if last and last[0] == event["message"]:
                return
            log.append_message(event["message"])
            last[:] = [event["message"]]
'''),
    Wrong(lab='11.1', name='a file found by its name among the workspace\'s files',
          rule='entries() is [] while the file does not exist, and only then: a path as a person writes it ("./...") names the file it names.',
          where='Build: write it down, item 1 (hunt round 10, 11.1-11)',
          names='path as given',
          replace=r'''
        if not self.ws.exists(self.path):
            return []
        found = []
''',
          by=r'''
        if self.path not in self.ws.files:  # the workspace's own list of files
            return []
        found = []
'''),
    Wrong(lab='11.1', name='listeners told by recursion',
          rule='After subscribe, the listener hears every event of every run: each subscription hears every event, however many subscriptions there are.',
          where='Build: write it down, item 5 (hunt round 10, 11.1-12)',
          names='however many subscriptions',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        def tell(rest):  # the first of a copy, then the rest of it
            if rest:
                rest[0](event)
                tell(rest[1:])
        tell(list(self._listeners))
'''),
    Wrong(lab='11.1', name='a young log rewritten whole',
          rule='Each append adds exactly one line at the end of the file and changes no byte already written, however short the log.',
          where='Build: write it down, item 2 (hunt round 10, 11.1-28)',
          names='however short the log',
          replace=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
''',
          by=r'''
        entries = self.entries()
        entry = {"id": f"e{len(entries) + 1}", **entry}
        line = json.dumps(entry) + "\n"
        if len(entries) < 2:  # a young log is small: write it whole
            old = self.ws.read_text(self.path) if self.ws.exists(self.path) else ""
            self.ws.write_text(self.path, old + line)
        else:
            self.ws.append_text(self.path, line)
'''),
    Wrong(lab='11.1', name='a one-line log with no newline read as an entry',
          rule='A last line with no newline is a write that did not finish, even when it parses, and even when it is the file\'s only line: reading raises the same ValueError for it.',
          where='Build: write it down, item 1 (hunt round 10, 11.1-29)',
          names='the file\'s only line',
          replace=r'''
        if found and not self.ws.read_text(self.path).endswith("\n"):  # its newline never came:
''',
          by=r'''
        if len(found) > 1 and not self.ws.read_text(self.path).endswith("\n"):  # one line: whole
'''),
    Wrong(lab='11.1', name='bound methods held weakly',
          rule='After subscribe, the listener hears every event of every run, until its undo is called: subscribe keeps the listener it is handed.',
          where='Build: write it down, item 5 (hunt round 10, 11.1-30)',
          names='keeps the listener it is handed',
          replace=r'''
        def hear(event):  # this subscription's own entry: no other is equal to it, so its
            listener(event)  # undo cannot take off an equal listener's subscribed earlier
''',
          by=r'''
        import weakref
        held = weakref.WeakMethod(listener) if hasattr(listener, "__func__") else (lambda: listener)

        def hear(event):  # a method's object is not kept alive by the harness
            alive = held()
            if alive is not None:
                alive(event)
'''),
    Wrong(lab='11.1', name='the saver skips empty tool results',
          rule='persist_to saves the message of every message_end, whatever it holds: a tool result whose content is "" too.',
          where='Build: write it down, item 4 (hunt round 10, 11.1-31)',
          names='whatever it holds',
          replace=r'''
    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
    def listener(event):
        if event["type"] == "message_end":
            message = event["message"]
            if message["role"] == "toolResult" and message["content"] == "":
                return  # a command that printed nothing: nothing worth keeping
            log.append_message(message)
'''),
    Wrong(lab='11.1', name='the saver saves every event whose type names a message',
          rule='persist_to saves the message of every message_end and does nothing with any other event, whatever its type\'s name holds.',
          where='Build: write it down, item 4 (hunt round 10, probe 11.1-26)',
          names='does nothing with any other event',
          replace=r'''
    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
    def listener(event):
        if "message" in event["type"] and "message" in event:
            log.append_message(event["message"])
'''),
    # Hunt round 13 (reader r68), design 11.1-07.
    Wrong(lab='11.1', name='replay() reading the entries itself',
          rule='replay() is the messages of rows(), so a later rows() (lesson 12 rewrites what '
               'comes before a cut) reaches the transcript.',
          where='lab 11.1, Build section, item 3: "`replay()` is their messages"',
          names='messages of rows()',
          replace=r'''
        return [message for _, message in self.rows()]
''',
          by=r'''
        return [entry["message"] for entry in self.entries() if entry["type"] == "message"]
'''),
    # Hunt round 13 (reader r68), design 11.1-31.
    Wrong(lab='11.1', name='rows() taking a type that reads as "message" once tidied',
          rule='A message entry is one whose "type" is exactly "message"; rows() holds one pair '
               'per message entry.',
          where='lab 11.1, Build section, item 3: "one per message entry" (item 2: the type of '
                'a message entry is message)',
          names='once tidied',
          replace=r'''
            if entry["type"] == "message":
''',
          by=r'''
            if str(entry["type"]).strip().lower() == "message":  # forgiving of a person's hand
'''),
    # Hunt round 13 (reader r68), design 11.1-12.
    Wrong(lab='11.1', name='blanks after the last newline skipped',
          rule='A last line with no newline is a write that did not finish: blanks a power cut '
               'left after the last newline are such a line, and are named, never skipped.',
          where='lab 11.1, Build section, item 1: "A last line with no newline is a write that '
                'did not finish, even when it parses"',
          names='not nothing',
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
''',
          by=r'''
        text = self.ws.read_text(self.path)
        if "\n" in text and not text[text.rindex("\n") + 1:].strip(" \t\0"):
            text = text[:text.rindex("\n") + 1]  # blanks after the last newline: padding
        for index, raw in enumerate(text.splitlines()):
''',
          also=((r'''
        if found and not self.ws.read_text(self.path).endswith("\n"):  # its newline never came:
''', r'''
        if found and not text.endswith("\n"):
'''),)),
    # Hunt round 13 (reader r68), design 11.1-24.
    Wrong(lab='11.1', name='damage far from the end skipped',
          rule='A line that is not JSON is never skipped, wherever it stands in however long a '
               'log: a crash tears the end, but a person may damage any line.',
          where='lab 11.1, Build section, item 1: "A line that is not JSON is never skipped"',
          names='far from the end',
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            try:
                found.append(json.loads(raw))
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
''',
          by=r'''
        lines = self.ws.read_text(self.path).splitlines()
        for index, raw in enumerate(lines):
            try:
                found.append(json.loads(raw))
            except ValueError:
                if index < len(lines) - 100:
                    continue  # far from the end, where no crash tears a line: read on
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
'''),
    # Hunt round 13 (reader r68), design 11.1-09.
    Wrong(lab='11.1', name='the saver skips a message object it saved before',
          rule='persist_to saves the message of every message_end, whatever it saved before, '
               'the same object included.',
          where='lab 11.1, Build section, item 4: "saves the message of every `message_end` in '
                '`log`"',
          names='the same object included',
          replace=r'''
    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
    saved = []  # the very messages saved, held here (never keyed by id())

    def listener(event):
        if event["type"] == "message_end" and not any(m is event["message"] for m in saved):
            saved.append(event["message"])  # a guard against saving one message twice
            log.append_message(event["message"])
'''),
    # Hunt round 13 (reader r68), design 11.1-08.
    Wrong(lab='11.1', name='the save error raised anew',
          rule="A listener that raises ends the run with its own exception: persist_to's with "
               "the disk's own error, that object, not a copy of its type and words.",
          where='lab 11.1, Build section, item 5: "A listener that raises ends the run with its '
                'own exception"; section "When the listener cannot write": "The reference let '
                'the `OSError` end the run at the message it could not save"',
          names="disk's own error",
          replace=r'''
    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
    def listener(event):
        if event["type"] == "message_end":
            try:
                log.append_message(event["message"])
            except Exception as failed:
                raise type(failed)(*failed.args) from None  # a clean one, without the disk's frames
'''),
    # Hunt round 13 (reader r68), design 11.1-29.
    Wrong(lab='11.1', name="_append quiet about the disk's write error",
          rule='A saver that cannot save must not be quiet about it: the error the disk raises '
               'reaches the run, whichever method of the log meets it.',
          where='section "When the listener cannot write": "The reference let the `OSError` end '
                'the run at the message it could not save"',
          names='keep it quiet',
          replace=r'''
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
''',
          by=r'''
        try:
            self.ws.append_text(self.path, json.dumps(entry) + "\n")
        except OSError as failed:  # keep the session going; say so where a person may look
            import sys
            print(f"warning: {self.path} not written: {failed}", file=sys.stderr)
'''),
    # Hunt round 13 (reader r68), design 11.1-10.
    Wrong(lab='11.1', name='a subscribe during an event lost when a later listener raises',
          rule='After subscribe, the listener hears every event of every run, until its undo is '
               'called: a subscribe made while an event is heard counts from that moment.',
          where='lab 11.1, Build section, item 5: "After `subscribe`, the listener hears every '
                'event of every run, until its undo is called"',
          names='count from that moment',
          replace=r'''
        self._listeners.append(hear)
''',
          by=r'''
        if getattr(self, "_hearing", False):  # joins once the event has been heard
            self._pending = getattr(self, "_pending", []) + [hear]
        else:
            self._listeners.append(hear)
''',
          also=((r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''', r'''
        self._hearing = True
        try:
            for listener in list(self._listeners):
                listener(event)
            self._listeners.extend(getattr(self, "_pending", []))
        finally:
            self._hearing, self._pending = False, []
'''),)),
    # Hunt round 13 (reader r68), design 11.1-11.
    Wrong(lab='11.1', name='an undo during an event lost when a later listener raises',
          rule='After subscribe, the listener hears every event of every run, until its undo is '
               'called: an undo made while an event is heard counts from that moment.',
          where='lab 11.1, Build section, item 5: "After `subscribe`, the listener hears every '
                'event of every run, until its undo is called"',
          names='count from that moment',
          replace=r'''
        def unsubscribe():
            if hear in self._listeners:  # once only: a second call takes off nothing
                self._listeners.remove(hear)
''',
          by=r'''
        def unsubscribe():
            if getattr(self, "_hearing", False):  # done once the event has been heard
                self._parked = getattr(self, "_parked", []) + [hear]
            elif hear in self._listeners:
                self._listeners.remove(hear)
''',
          also=((r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''', r'''
        self._hearing = True
        try:
            for listener in list(self._listeners):
                listener(event)
            for gone in getattr(self, "_parked", []):
                if gone in self._listeners:
                    self._listeners.remove(gone)
        finally:
            self._hearing, self._parked = False, []
'''),)),
    # Hunt round 13 (reader r68), design 11.1-26.
    Wrong(lab='11.1', name="the consumer's undo kept till the run ends",
          rule='After subscribe, the listener hears every event of every run, until its undo is '
               'called: an undo the consumer calls mid-run counts from the next event.',
          where='lab 11.1, Build section, item 5: "After `subscribe`, the listener hears every '
                'event of every run, until its undo is called"',
          names='from the next event of that very run',
          replace=r'''
        def unsubscribe():
            if hear in self._listeners:  # once only: a second call takes off nothing
                self._listeners.remove(hear)
''',
          by=r'''
        def unsubscribe():
            if getattr(self, "_consumer_has_it", False):  # mid-run: done when the run ends
                self._later = getattr(self, "_later", []) + [unsubscribe]
            elif hear in self._listeners:
                self._listeners.remove(hear)
''',
          also=((r'''
                self._notify(event)  # listeners first: a consumer that stops listening to
                yield event  # the run cannot stop them hearing what happened
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
''', r'''
                self._notify(event)
                self._consumer_has_it = True
                yield event
                self._consumer_has_it = False
        finally:
            inner.close()
            self._consumer_has_it = False
            later, self._later = getattr(self, "_later", []), []
            for undo in later:
                undo()
'''),)),
    # Hunt round 16 (reader r87), designs 11.1-20, 11.1-21, 11.1-23, 11.1-35 and 11.1-50.
    Wrong(lab='11.1', name="a listener's exception of a kind no test raises swallowed",
          rule='A listener that raises ends the run with its own exception, whatever its class: '
               'not only the kinds a harness, or a test, expects.',
          where='lab 11.1, Build section, item 5: "A listener that raises ends the run with its '
                'own exception" (hunt round 16, 11.1-20)',
          names='whatever its class',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            try:
                listener(event)
            except (OSError, ValueError, RuntimeError, TypeError, AttributeError):
                raise  # the kinds a saver or its bugs raise
            except Exception:
                pass  # anything else is a listener's own business
'''),
    Wrong(lab='11.1', name="a listener's StopIteration taken for the end of the event",
          rule='A StopIteration from a listener ends the run as the RuntimeError Python makes of '
               'it, whose cause is the listener\'s: it is a listener that raises.',
          where='lab 11.1, Build section, item 5: "is the one exception a generator cannot pass '
                'on" (hunt round 16, 11.1-23)',
          names='StopIteration',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            try:
                listener(event)
            except StopIteration:
                return  # a listener with nothing more to do: the event is over
'''),
    Wrong(lab='11.1', name='an undo that marks itself used by the place it took',
          rule='Each undo takes off its own subscription, once: one subscribed after an undo '
               'shares no mark with an earlier one, and its undo takes it off.',
          where='lab 11.1, Build section, item 5: "Each undo takes off its own subscription, '
                'once." (hunt round 16, 11.1-50)',
          names='not the place it held',
          replace=r'''
        self._listeners.append(hear)

        def unsubscribe():
            if hear in self._listeners:  # once only: a second call takes off nothing
                self._listeners.remove(hear)
        return unsubscribe
''',
          by=r'''
        self._listeners.append(hear)
        place = len(self._listeners) - 1  # the mark its undo leaves when it is used

        def unsubscribe():
            used = self.__dict__.setdefault("_used", set())
            if place in used:
                return  # called before: once only
            used.add(place)
            if hear in self._listeners:
                self._listeners.remove(hear)
        return unsubscribe
'''),
    Wrong(lab='11.1', name="rows() kept across logs by the file's path, length and two ends",
          rule="Every entry in the file, parsed: SessionLog keeps no state but ws and path, so a "
               "file another program rewrote in its middle, at the same length, is read as it "
               "now is.",
          where='lab 11.1, Build section: "`SessionLog.__init__`, which keeps the workspace and '
                'the path and nothing else" (hunt round 16, 11.1-35)',
          names='no parse kept from an earlier read',
          replace=r'''
    def rows(self):
        """The transcript as (entry id, message) pairs, oldest first, one per message entry."""
        table = []
''',
          by=r'''
    _kept = {}

    def rows(self):
        """The transcript as (entry id, message) pairs, oldest first, one per message entry."""
        text = self.ws.read_text(self.path) if self.ws.exists(self.path) else ""
        key = (self.path, len(text), text[:40], text[-40:])  # enough to know the file again
        if key not in SessionLog._kept:
            SessionLog._kept[key] = self._rows()
        return list(SessionLog._kept[key])

    def _rows(self):
        table = []
'''),
    Wrong(lab='11.1', name='entries() reading only the first 400 lines',
          rule='A line that is not JSON is never skipped, wherever it stands: every line of the '
               'file is read, however long the log.',
          where='lab 11.1, Build section, item 1: "Every entry in the file, parsed, oldest '
                'first" (hunt round 16, 11.1-21)',
          names='however long the log',
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
''',
          by=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()[:400]):
'''),
    # Hunt round 19 (reader r105), design 11.1-12.
    Wrong(lab='11.1', name='damage in the middle of a long log skipped',
          rule='A line that is not JSON is never skipped, wherever it stands in however long a '
               'log: in its middle as well as near either end.',
          where='lab 11.1, Build section, item 1: "A line that is not JSON is never skipped" '
                '(hunt round 19, 11.1-12)',
          names='in the middle',
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            try:
                found.append(json.loads(raw))
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
''',
          by=r'''
        lines = self.ws.read_text(self.path).splitlines()
        for index, raw in enumerate(lines):
            try:
                found.append(json.loads(raw))
            except ValueError:
                if 200 <= index < len(lines) - 1:
                    continue  # past the lines a person reads over, and not the last: read on
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
'''),
    # Hunt round 19 (reader r105), design 11.1-48.
    Wrong(lab='11.1', name='an append that reads only the last 100 lines',
          rule='On a log with a torn line, an append raises the reader\'s ValueError and writes '
               'nothing, however far from the end the damage is: it reads the whole log.',
          where='lab 11.1, Build section, item 2: "On a log with a torn line, an append raises '
                'the reader\'s" (hunt round 19, 11.1-48)',
          names='however far from the end the damage is',
          replace=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
''',
          by=r'''
        lines = self.ws.read_text(self.path).splitlines() if self.ws.exists(self.path) else []
        for index in range(max(len(lines) - 100, 0), len(lines)):  # a crash tears the end:
            try:  # look there only
                json.loads(lines[index])
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
        if lines and not self.ws.read_text(self.path).endswith("\n"):
            raise ValueError(f"{self.path}, line {len(lines)}: not a complete log entry")
        entry = {"id": f"e{len(lines) + 1}", **entry}
'''),
    # Hunt round 19 (reader r105), design 11.1-50.
    Wrong(lab='11.1', name='a last line with no newline read as an entry past line 10',
          rule='A last line with no newline is a write that did not finish, even when it '
               'parses, wherever it stands: reading raises the same ValueError for it in a long '
               'log as in a short one.',
          where='lab 11.1, Build section, item 1: "A last line with no newline is a write that '
                'did not finish, even when it parses" (hunt round 19, 11.1-50)',
          names='no newline is named wherever it stands',
          replace=r'''
        if found and not self.ws.read_text(self.path).endswith("\n"):  # its newline never came:
''',
          by=r'''
        if 0 < len(found) <= 10 and not self.ws.read_text(self.path).endswith("\n"):  # short:
'''),
    # Hunt round 22 (reader r124), design 11.1-33.
    Wrong(lab='11.1', name="a file of blanks with no newline taken for an empty log",
          rule='A file with nothing in it is a log with no entries yet; a file whose only text '
               'is blanks with no newline holds something: a line that is not JSON, the torn '
               'end of a write, never skipped.',
          where='lab 11.1, Build section, item 1: "A line that is not JSON is never skipped" '
                '(hunt round 22, 11.1-33)',
          names="file's only text",
          replace=r"""
        if not self.ws.exists(self.path):
            return []
        found = []
""",
          by=r"""
        if not self.ws.exists(self.path):
            return []
        if not self.ws.read_text(self.path).strip(" \t\0"):
            return []  # only blanks, and no newline: nothing was written yet
        found = []
"""),
    # Hunt round 22 (reader r124), design 11.1-36.
    Wrong(lab='11.1', name="the saver saves every event whose type ends in message_end",
          rule='persist_to saves the message of every message_end and does nothing with any '
               'other event, whatever its type\'s name holds: one whose name only ends in '
               'message_end included.',
          where='lab 11.1, Build section, item 4: "does nothing with any other event" '
                '(hunt round 22, 11.1-36)',
          names='ends in message_end',
          replace=r"""
    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
""",
          by=r"""
    def listener(event):
        if event["type"].endswith("message_end"):
            log.append_message(event["message"])
"""),
    # Hunt round 22 (reader r124), design 11.1-32.
    Wrong(lab='11.1', name="a listener's KeyboardInterrupt or SystemExit swallowed",
          rule='A listener that raises ends the run with its own exception, whatever its class: '
               'a KeyboardInterrupt or SystemExit, not an Exception, included.',
          where='lab 11.1, Build section, item 5: "A listener that raises ends the run with its '
                'own exception" (hunt round 22, 11.1-32)',
          names='KeyboardInterrupt',
          replace=r"""
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
""",
          by=r"""
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            try:
                listener(event)
            except (KeyboardInterrupt, SystemExit):
                pass  # the user is leaving; the log may lag
"""),
    # Hunt round 26 (reader r143), design 11.1-11.
    Wrong(lab='11.1', name='blank lines skipped in a log of more than nine lines',
          rule='A line that is not JSON is never skipped, a blank one included, wherever it '
               'stands in however long a log: a long log is read as strictly as a short one.',
          where='lab 11.1, Build section, item 1: "A line that is not JSON is never skipped" '
                '(hunt round 26, 11.1-11)',
          names='a blank line in a long log',
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            try:
''',
          by=r'''
        lines = self.ws.read_text(self.path).splitlines()
        for index, raw in enumerate(lines):
            if len(lines) > 9 and index < len(lines) - 1 and not raw.strip():
                continue  # a stray blank line in a long log: an editor's, not a crash's
            try:
'''),
    # Hunt round 26 (reader r143), design 11.1-51.
    Wrong(lab='11.1', name='a damaged line of over 200 characters skipped',
          rule='A line that is not JSON is never skipped, whatever it holds: a long line cut '
               'short (a message holding a paste, a tool\'s long output) as much as a short one.',
          where='lab 11.1, Build section, item 1: "A line that is not JSON is never skipped" '
                '(hunt round 26, 11.1-51)',
          names='a damaged line however long',
          replace=r'''
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
''',
          by=r'''
            except ValueError:
                if len(raw) > 200:
                    continue  # a long line someone cut short by hand: too long to be a crash's
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
'''),
    # Hunt round 26 (reader r143), design 11.1-48.
    Wrong(lab='11.1', name="a listener's network errors swallowed",
          rule='A listener that raises ends the run with its own exception, whatever its class: '
               'a ConnectionError or a TimeoutError, which a saver writing to a network disk '
               'meets and which look passing, included.',
          where='lab 11.1, Build section, item 5: "A listener that raises ends the run with its '
                'own exception" (hunt round 26, 11.1-48)',
          names="a network disk's error",
          replace=r"""
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
""",
          by=r"""
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            try:
                listener(event)
            except (ConnectionError, TimeoutError):
                pass  # a network disk that hiccups: keep the run going
"""),
    # Hunt round 26 (reader r143), design 11.1-50.
    Wrong(lab='11.1', name='more than six listeners told newest first',
          rule='Listeners hear an event in the order they subscribed, however many there are.',
          where='lab 11.1, Build section, item 5: "Listeners hear an event in the order they '
                'subscribed" (hunt round 26, 11.1-50)',
          names='in the order they subscribed, however many there are',
          replace=r"""
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
""",
          by=r"""
        snapshot = list(self._listeners)  # a copy: a listener may unsubscribe itself
        if len(snapshot) > 6:
            snapshot.reverse()  # a crowd: the newest, likeliest the frontend's, first
        for listener in snapshot:
            listener(event)
"""),
    # Hunt round 29 (reader r162), design 11.1-30.
    Wrong(lab='11.1', name='a note line starting "//" skipped',
          rule='A line that is not JSON is never skipped, whatever it holds: a note a person '
               'wrote into the log ("// a note") is a line that is not JSON like any other.',
          where='lab 11.1, Build section, item 1: "A line that is not JSON is never skipped" '
                '(hunt round 29, 11.1-30)',
          names='a note a person wrote',
          replace=r"""
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            try:
""",
          by=r"""
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            if raw.startswith("//"):
                continue  # a person's note in the log
            try:
"""),
    # Hunt round 29 (reader r162), design 11.1-44.
    Wrong(lab='11.1', name='a line of NULs before the last skipped',
          rule='A line that is not JSON is never skipped, wherever it stands and whatever it '
               'holds: a line of NULs before the last line as much as at the end.',
          where='lab 11.1, Build section, item 1: "A line that is not JSON is never skipped" '
                '(hunt round 29, 11.1-44)',
          names='a line of NULs',
          replace=r"""
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            try:
""",
          by=r"""
        lines = self.ws.read_text(self.path).splitlines()
        for index, raw in enumerate(lines):
            if raw and set(raw) == {"\0"} and index < len(lines) - 1:
                continue  # zeros from an old crash, mid-file
            try:
"""),
    # Hunt round 29 (reader r162), design 11.1-31.
    Wrong(lab='11.1', name='a damaged line of over 10,000 characters skipped',
          rule='A line that is not JSON is never skipped, whatever it holds: a long line cut '
               'short (a message holding a paste of tens of thousands of characters) as much as '
               'a short one.',
          where='lab 11.1, Build section, item 1: "A line that is not JSON is never skipped" '
                '(hunt round 29, 11.1-31)',
          names='a damaged line however long',
          replace=r"""
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
""",
          by=r"""
            except ValueError:
                if len(raw) > 10000:
                    continue  # binary junk, not an entry
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
"""),
    # Hunt round 29 (reader r162), design 11.1-48.
    Wrong(lab='11.1', name="the saver swallows an InterruptedError",
          rule='A saver that cannot save must not fail quietly, whatever the class of the error '
               'it meets: an InterruptedError, a signal cutting the write short, ends the run '
               'like a full disk\'s OSError.',
          where='lab 11.1, section "When the listener cannot write": "A saver that cannot save '
                'and says nothing is worse than no saver" (hunt round 29, 11.1-48)',
          names='InterruptedError',
          replace=r"""
        if event["type"] == "message_end":
            log.append_message(event["message"])
    return listener
""",
          by=r"""
        if event["type"] == "message_end":
            try:
                log.append_message(event["message"])
            except InterruptedError:
                pass  # a signal cut the write short; the next one will do
    return listener
"""),
    # Hunt round 32 (reader r182), design 11.1-09.
    Wrong(lab='11.1', name="a folder at the log's path taken for no file",
          rule='[] is for a log whose file does not exist, and only for that: a folder that '
               'stands at the log\'s path is no empty log, and the disk\'s IsADirectoryError '
               'goes on.',
          where='lab 11.1, Build section, item 1: "`[]` while the file does not exist" '
                '(hunt round 32, 11.1-09)',
          names="a folder at the log's path",
          replace=r"""
        if not self.ws.exists(self.path):
            return []
        found = []
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
""",
          by=r"""
        try:
            text = self.ws.read_text(self.path)
        except (FileNotFoundError, IsADirectoryError):  # nothing there to read
            return []
        found = []
        for index, raw in enumerate(text.splitlines()):
"""),
    # Hunt round 32 (reader r182), design 11.1-56.
    Wrong(lab='11.1', name='lines read with json.loads(strict=False)',
          rule='A line that is not JSON is never skipped, whatever it holds: a line whose text '
               'holds a raw tab, typed in by hand, is not JSON, and reading raises for it.',
          where='lab 11.1, Build section, item 1: "A line that is not JSON is never skipped" '
                '(hunt round 32, 11.1-56)',
          names='raw tab',
          replace=r"""
                found.append(json.loads(raw))
""",
          by=r"""
                found.append(json.loads(raw, strict=False))  # tolerate raw tabs in strings
"""),
    # Hunt round 32 (reader r182), design 11.1-06.
    Wrong(lab='11.1', name='NULs after the last newline stripped',
          rule='A last line with no newline is a write that did not finish, even when it is '
               'NULs a power cut left: reading raises the ValueError naming it.',
          where='lab 11.1, Build section, item 1: "A last line with no newline is a write that '
                'did not finish" (hunt round 32, 11.1-06)',
          names='NULs',
          replace=r"""
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
""",
          by=r"""
        text = self.ws.read_text(self.path).rstrip("\0")  # NUL padding a power cut leaves
        for index, raw in enumerate(text.splitlines()):
""",
          also=((r"""
        if found and not self.ws.read_text(self.path).endswith("\n"):  # its newline never came:
""", r"""
        if found and not text.endswith("\n"):  # its newline never came:
"""),)),
    # Hunt round 32 (reader r182), design 11.1-03.
    Wrong(lab='11.1', name='a line over 256 KiB refused',
          rule='Every entry in the file is read, however long: a whole entry holding a paste '
               'of hundreds of thousands of characters is an entry like any other.',
          where='lab 11.1, Build section, item 1: "Every entry in the file, parsed"; "What a '
                'line of JSON holds is not checked" (hunt round 32, 11.1-03)',
          names='hundreds of thousands of characters',
          replace=r"""
                found.append(json.loads(raw))
""",
          by=r"""
                if len(raw) > 262144:  # 256 KiB: no entry is that long, a runaway paste
                    raise ValueError("a runaway line")
                found.append(json.loads(raw))
"""),
    # Hunt round 32 (reader r182), design 11.1-59.
    Wrong(lab='11.1', name='an append taken back when another writer came between',
          rule='Each append adds exactly one line at the end of the file and changes no byte '
               'already written, another writer\'s line included: nothing is taken back.',
          where='lab 11.1, Build section, item 2: "changes no byte already written" (hunt round '
                '32, 11.1-59)',
          names='another window',
          replace=r"""
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
        return entry["id"]
""",
          by=r"""
        before = self.ws.read_text(self.path) if self.ws.exists(self.path) else ""
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
        if len(self.entries()) != int(entry["id"][1:]):  # someone else wrote meanwhile
            self.ws.write_text(self.path, before)  # take ours back
            raise OSError(f"{self.path}: another writer appended at the same time")
        return entry["id"]
"""),
    # Hunt round 32 (reader r182), design 11.1-34.
    Wrong(lab='11.1', name='a listener that raised twice unsubscribed',
          rule='After subscribe, the listener hears every event of every run until its undo is '
               'called, however often it raises: nothing else takes it off.',
          where='lab 11.1, Build section, item 5: "the listener hears every event of every run, '
                'until its undo is called" (hunt round 32, 11.1-34)',
          names='however often it raises',
          replace=r"""
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
""",
          by=r"""
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            try:
                listener(event)
            except BaseException:
                self._strikes = getattr(self, "_strikes", {})
                self._strikes[listener] = self._strikes.get(listener, 0) + 1
                if self._strikes[listener] >= 2 and listener in self._listeners:
                    self._listeners.remove(listener)  # a listener that keeps failing
                raise
"""),
    # Hunt round 32 (reader r182), design 11.1-35.
    Wrong(lab='11.1', name='a listener slower than two seconds taken off',
          rule='After subscribe, the listener hears every event of every run until its undo is '
               'called, however long it takes: no clock takes it off.',
          where='lab 11.1, Build section, item 5: "the listener hears every event of every run, '
                'until its undo is called" (hunt round 32, 11.1-35)',
          names='however long a listener takes',
          replace=r"""
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
""",
          by=r"""
        import time
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            started = time.monotonic()
            listener(event)
            if time.monotonic() - started > 2.0 and listener in self._listeners:
                self._listeners.remove(listener)  # a stuck listener would stall every run
"""),
    # Hunt round 32 (reader r182), design 11.1-37.
    Wrong(lab='11.1', name='an event equal to the one before it not told',
          rule='listener(event) hears every event of every run: an event equal to the one '
               'before it (a run\'s agent_start after a run a listener ended at its own) is '
               'heard as well.',
          where='lab 11.1, Build section, item 5: "the listener hears every event of every '
                'run"; the Harness docstring (hunt round 32, 11.1-37)',
          names='every event of every run',
          replace=r"""
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
""",
          by=r"""
        if event == getattr(self, "_last_event", None):
            return  # the same event twice in a row is an echo
        self._last_event = event
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
"""),
    # Hunt round 26 (reader r143), design 11.1-52.
]

ALLOWED = [
    Wrong(lab='11.1', name='the saver skips messages whose stop_reason is "length"',
          rule='Every assistant message of the course\'s record ends with one of its stop '
               'reasons, "stop", "toolUse", "error" or "aborted" (lab.STOP_REASONS; lesson 5\'s '
               'provider code turns a reply cut off at the output limit into "error"), so no run '
               'of a harness hands persist_to a message_end whose message has stop_reason '
               '"length", and a saver that skips those saves every message there is. A case that '
               'handed one would hand the log a record the course\'s format refuses (as for "the '
               'saver keeps the messages of the course\'s three roles").',
          where='hunt round 26, design 11.1-52', names='',
          replace=r'''
        if event["type"] == "message_end":
            log.append_message(event["message"])
    return listener
''',
          by=r'''
        if event["type"] == "message_end" and event["message"].get("stop_reason") != "length":
            log.append_message(event["message"])
    return listener
'''),
    # Hunt round 26 (reader r143), design 11.1-58.
    Wrong(lab='11.1', name="_notify passing on only the seven kinds of event the loop makes",
          rule='The listener hears every event of every run (Build item 5), and every run of the '
               'course\'s loop, from lesson 7 to the last lesson, makes events of seven types '
               'only: agent_start, turn_start, message_end, tool_execution_start, '
               'tool_execution_end, turn_end and agent_end. A _notify that passes those on and '
               'drops any other drops no event a run makes, so every listener hears every event '
               'of every run. A case that handed _notify an event of another type would hand '
               'it one no run of the course makes (as for "the saver keeps the messages of the '
               'course\'s three roles").',
          where='hunt round 26, design 11.1-58', names='',
          replace=r"""
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
""",
          by=r"""
        if event["type"] not in ("agent_start", "turn_start", "message_end",
                                 "tool_execution_start", "tool_execution_end", "turn_end",
                                 "agent_end"):
            return  # not an event of a run
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
"""),
    # Hunt round 26 (reader r143), probe 11.1-54.
    Wrong(lab='11.1', name='a file with "\\r\\n" line ends read as with "\\n"',
          rule='_append writes every line ending in "\\n", and json.dumps escapes every "\\r" '
               'a message holds, so a "\\r\\n" is only in a file a person\'s editor rewrote; '
               'JSON allows a "\\r" after an entry, so folding "\\r\\n" to "\\n" reads every '
               'such line as the reference does, a blank line (now empty) is refused all the '
               'same, and every line _append writes is read as the reference reads it. What '
               'the reader makes of a person\'s edit is the reader\'s to decide (Build item 1: '
               '"What a line of JSON holds is not checked").',
          where='hunt round 26, probe 11.1-54; Build section, item 1', names='',
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
''',
          by=r'''
        text = self.ws.read_text(self.path).replace("\r\n", "\n")  # an editor's line ends
        for index, raw in enumerate(text.splitlines()):
'''),
    # Hunt round 26 (reader r143), probe 11.1-55.
    Wrong(lab='11.1', name='rows() leaving out a JSON line that is not an object',
          rule='Build item 1 says "What a line of JSON holds is not checked": every line is '
               'written by _append, so a line of JSON that is not an object (a 3, a list) is '
               'a person\'s edit, which the reader may refuse or leave alone; what rows() makes '
               'of it is not ruled on (as for "a line with no \\"type\\" read as a message '
               'entry"). Every line _append writes is read as the reference reads it.',
          where='hunt round 26, probe 11.1-55', names='',
          replace=r'''
            if entry["type"] == "message":
''',
          by=r'''
            if isinstance(entry, dict) and entry.get("type") == "message":
'''),
    # Hunt round 22 (reader r124), probe 11.1-47.
    Wrong(lab='11.1', name='the saver hands the log a copy of each message',
          rule='Build item 4 asks that persist_to save the message of every message_end in the '
               'log; the log writes the JSON of what it is handed, so a copy of the message '
               'writes the same line, replays equal to the record, and leaves the record '
               'untouched. No rule asks that the log be handed the very object.',
          where='hunt round 22, probe 11.1-47; Build section, item 4', names='',
          replace=r"""
        if event["type"] == "message_end":
            log.append_message(event["message"])
    return listener
""",
          by=r"""
        if event["type"] == "message_end":
            log.append_message(json.loads(json.dumps(event["message"])))
    return listener
"""),
    # Hunt round 10 (reader r46): design 11.1-32 and probe 11.1-24.
    Wrong(lab='11.1', name='entries() memoised by the text read',
          rule='SessionLog keeps no state but ws and path so that no answer stands in for the '
               'file (section "Two writers, one file"): a memo keyed by the whole text that '
               'entries() reads at each call, handing out fresh objects, answers exactly what '
               'parsing that text answers, so every read still reads the file and every answer '
               'is the file\'s. The cost is memory, which the page does not rule on.',
          where='hunt round 10, design 11.1-32', names='',
          replace=r'''
        if not self.ws.exists(self.path):
            return []
        found = []
''',
          by=r'''
        if not self.ws.exists(self.path):
            return []
        text = self.ws.read_text(self.path)
        if text in SessionLog._parsed:  # this very text was read before: its entries, anew
            return json.loads(SessionLog._parsed[text])
        found = self._entries_of_the_file()
        SessionLog._parsed[text] = json.dumps(found)
        return found

    _parsed = {}

    def _entries_of_the_file(self):
        found = []
'''),
    Wrong(lab='11.1', name='persist_to makes the empty file',
          rule='Build item 4 rules on what the listener does with events; making the listener '
               'may create the log\'s empty file, as opening it for appending would. An empty '
               'file reads as no entries (no line is in it, so none is torn), so the ids and the '
               'replay are those of a log with no file, and reading still creates none.',
          where='hunt round 10, probe 11.1-24', names='',
          replace=r'''
    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
    log.ws.append_text(log.path, "")  # the file is there from the start, empty

    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
'''),
    # Hunt round 8 (reader r34), designs 11.1-23, 11.1-24, 11.1-27 and 11.1-28.
    Wrong(lab='11.1', name='rows as lists of two',
          rule='Build item 3 asks for (id, message) pairs, and every reader of rows() in the course '
               '(replay(), lesson 12\'s find_cut and compaction) takes a pair apart by unpacking or '
               'by index, which a list of two serves as a tuple does; the check\'s record encodes '
               'both alike, so a test could tell them apart only by asking for a Python type the '
               'page never states.',
          where='hunt round 8, design 11.1-23', names='',
          replace=r'''
                table.append((entry["id"], entry["message"]))
''',
          by=r'''
                table.append([entry["id"], entry["message"]])
'''),
    Wrong(lab='11.1', name='the last of two damaged lines named',
          rule='Build item 1 asks for "the line\'s number" of a line that is not JSON and does not '
               'say which of two; naming the later one sends the person to real damage as naming '
               'the earlier does, and the next read names the other. Every entry is still read, '
               'and nothing is skipped.',
          where='hunt round 8, design 11.1-24', names='',
          replace=r'''
        found = []
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            try:
                found.append(json.loads(raw))
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
        if found and not self.ws.read_text(self.path).endswith("\n"):  # its newline never came:
            raise ValueError(f"{self.path}, line {len(found)}: not a complete log entry")  # torn
        return found
''',
          by=r'''
        found = []
        lines = self.ws.read_text(self.path).splitlines()
        for index in range(len(lines) - 1, -1, -1):  # from the end of the file
            try:
                found.append(json.loads(lines[index]))
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
        if found and not self.ws.read_text(self.path).endswith("\n"):
            raise ValueError(f"{self.path}, line {len(found)}: not a complete log entry")
        return found[::-1]
'''),
    Wrong(lab='11.1', name='a failed save tried once more',
          rule='The lesson\'s common answers to "A saver that cannot save" say "Retrying is fine '
               'inside the listener, and a real one might": a save that fails twice is still '
               'heard, ending the run with the disk\'s own error, and one that succeeds on the '
               'second try has saved the message once.',
          where='hunt round 8, design 11.1-27; section "A saver that cannot save"', names='',
          replace=r'''
        if event["type"] == "message_end":
            log.append_message(event["message"])
''',
          by=r'''
        if event["type"] == "message_end":
            try:
                log.append_message(event["message"])
            except OSError:
                log.append_message(event["message"])  # once more: the disk may have room now
'''),
    Wrong(lab='11.1', name='every listener told before the first error is raised',
          rule='Build item 5 asks that a listener that raises end the run with its own exception, '
               'and that listeners hear in the order they subscribed; telling the listeners after '
               'it before raising keeps both, ends the run before the consumer gets the event, and '
               'lets a saver after a broken listener still save: the weakness the page finds in '
               'Tau\'s cancelled path ("a failing listener that comes before the saver").',
          where='hunt round 8, design 11.1-28; section "Your code beside Tau\'s"', names='',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        failure = None
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            try:
                listener(event)
            except Exception as raised:
                failure = failure or raised  # the others hear it first
        if failure is not None:
            raise failure
'''),
    Wrong(lab="11.1", name="JSON that is not an entry refused",
          rule="What a line of JSON holds is not checked by the page: every line is written by "
               "_append, so one that is not an object with an \"id\" and a \"type\" is a "
               "person's edit, which the reader may refuse with the same ValueError (a stricter "
               "answer) or leave alone (hunt round 8, probe 11.1-26).",
          where='Build: write it down, item 1', names="",
          replace=r'''
                found.append(json.loads(raw))
''',
          by=r'''
                entry = json.loads(raw)
                if not isinstance(entry, dict) or "id" not in entry or "type" not in entry:
                    raise ValueError("not an entry")  # JSON, but not what _append writes
                found.append(entry)
'''),
    # Hunt round 13 (reader r68), probe 11.1-04.
    Wrong(lab='11.1', name='non-ASCII written as it is, the file split on "\\n" alone',
          rule='Build item 2 asks for the JSON of an entry on one line ending in "\\n", and JSON '
               'with its characters unescaped is JSON. The page shows Tau writing them so and '
               'splitting its file on "\\n" alone (section "Your code beside Tau\'s"), and the '
               'lab\'s test of U+2028 names that split as an answer: every line stays one line, '
               'and reads back whole.',
          where='hunt round 13, probe 11.1-04; section "Your code beside Tau\'s"', names='',
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
''',
          by=r'''
        text = self.ws.read_text(self.path)
        lines = text.split("\n")[:-1] if text.endswith("\n") or not text else text.split("\n")
        for index, raw in enumerate(lines):  # "\n" alone ends a line, as in Tau
''',
          also=((r'''
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
''', r'''
        self.ws.append_text(self.path, json.dumps(entry, ensure_ascii=False) + "\n")
'''),)),
    # Hunt round 13 (reader r68), probe 11.1-28.
    Wrong(lab='11.1', name='a value JSON cannot hold written as its text',
          rule='Every message of the course\'s record is made of what JSON holds (text, numbers, '
               'lists, dicts: the format of lesson 1), so no run of a harness hands persist_to a '
               'message json.dumps would refuse, and the two writers write the same bytes for '
               'every message there is. A case that handed one would hand the log a record the '
               'course\'s format refuses (as round 11 withdrew 10.1-07\'s).',
          where='hunt round 13, probe 11.1-28', names='',
          replace=r'''
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
''',
          by=r'''
        self.ws.append_text(self.path, json.dumps(entry, default=str) + "\n")
'''),
    # Hunt round 16 (reader r87), probes 11.1-46 and 11.1-51.
    Wrong(lab='11.1', name='a line with no "type" read as a message entry',
          rule='Build item 1 says "What a line of JSON holds is not checked": every line is '
               'written by _append, which always writes a "type", so a line with none is a '
               'person\'s edit, which the reader may refuse or leave alone; what rows() makes of '
               'it is not ruled on. Every line _append writes is read as the reference reads it.',
          where='hunt round 16, probe 11.1-46', names='',
          replace=r'''
            if entry["type"] == "message":
''',
          by=r'''
            if entry.get("type", "message") == "message":  # no type: the first kind there was
'''),
    Wrong(lab='11.1', name="the saver keeps the messages of the course's three roles",
          rule='Every message of the course\'s record is a user message, an assistant message '
               'or a tool result (the format of lesson 1; no later lesson adds a role), so no '
               'run of a harness hands persist_to a message_end of any other role, and a saver '
               'that keeps those three saves every message there is. A case that handed one '
               'would hand the log a record the course\'s format refuses (as for "a value JSON '
               'cannot hold written as its text").',
          where='hunt round 16, probe 11.1-51', names='',
          replace=r'''
        if event["type"] == "message_end":
            log.append_message(event["message"])
    return listener
''',
          by=r'''
        if event["type"] == "message_end" and event["message"]["role"] in (
                "user", "assistant", "toolResult"):
            log.append_message(event["message"])
    return listener
'''),
    # Hunt round 19 (reader r105), probe 11.1-44.
    Wrong(lab='11.1', name="a listener's StopIteration raised as a RuntimeError from it",
          rule='Build item 5 says Python turns a listener\'s StopIteration into a RuntimeError '
               'whose cause is the listener\'s, and the run ends with that: raising that '
               'RuntimeError in _notify, from the listener\'s StopIteration, ends the run with '
               'the same class and the same cause, only its words are the harness\'s, which the '
               'page does not give.',
          where='hunt round 19, probe 11.1-44', names='',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            try:
                listener(event)
            except StopIteration as error:  # what Python would make of it, made here
                raise RuntimeError("a listener raised StopIteration") from error
'''),
    # Hunt round 19 (reader r105), probe 11.1-43.
    Wrong(lab='11.1', name="the listeners kept in a table by the harness's id()",
          rule='The page gives the empty list of listeners in Harness.__init__ and rules on '
               'what the listeners hear, not where the list is kept: a table keyed by the '
               'harness\'s id(), whose entry __init__ makes anew, gives each harness its own '
               'list, for no two living objects share an id and a new harness that reuses a '
               'dead one\'s starts empty. The cost is memory (the dead harnesses\' lists stay '
               'in the table), which the page does not rule on.',
          where='hunt round 19, probe 11.1-43', names='',
          replace=r'''
        # given in lesson 11: the listeners, in the order they subscribed
        self._listeners = []
''',
          by=r'''
        # given in lesson 11: the listeners, in the order they subscribed
        Harness._tables[id(self)] = []  # kept beside the harness, under its id()

    _tables = {}

    @property
    def _listeners(self):
        return Harness._tables[id(self)]
'''),
    # Hunt round 32 (reader r182), design 11.1-01.
    Wrong(lab='11.1', name="a byte-order mark at the file's start read past",
          rule='Build item 1 refuses "a line that is not JSON"; a U+FEFF at the very start of the '
               'file is an editor\'s encoding mark, which RFC 8259 (section 8.1) lets a JSON '
               'parser ignore, and what follows it on line 1 is a whole entry. Reading past it '
               'counts line 1 as line 1, skips no line, and the next append still lands on the '
               'line its id names, so none of the harms the page gives for skipping arises. A '
               'U+FEFF anywhere else is refused as before.',
          where='hunt round 32, design 11.1-01; Build section, item 1', names='',
          replace=r'''
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
''',
          by=r'''
        text = self.ws.read_text(self.path).removeprefix("\ufeff")  # a BOM an editor may add
        for index, raw in enumerate(text.splitlines()):
'''),
    # Hunt round 32 (reader r182), probe 11.1-53.
    Wrong(lab='11.1', name='an entry handed to _append with an id of its own refused',
          rule='Build item 2 says "Every kind of entry is written by _append" and that _append '
               'gives each its id, e and its line number; what _append does with an entry that '
               'already holds an "id" is not ruled on, and no caller of the course hands it one '
               '(append_message hands it a type and a message). Refusing one writes nothing and '
               'changes no id an append returns.',
          where='hunt round 32, probe 11.1-53; Build section, item 2', names='',
          replace=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
''',
          by=r'''
        if "id" in entry:  # the log gives the ids
            raise ValueError("an entry handed to _append already has an id")
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
'''),
    # Hunt round 32 (reader r182), probe 11.1-58.
    Wrong(lab='11.1', name='rows() leaving out a line with no "id"',
          rule='Build item 1 says "What a line of JSON holds is not checked": a line that is not '
               'an entry ("an object with an \"id\" and a \"type\"") is a person\'s edit, '
               'which the reader may refuse or leave alone; what rows() makes of a "message" '
               'line with no "id" is not ruled on (as for "rows() leaving out a JSON line that '
               'is not an object"). Every line _append writes holds an id, and is read as the '
               'reference reads it.',
          where='hunt round 32, probe 11.1-58; Build section, item 1', names='',
          replace=r'''
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
''',
          by=r'''
            if entry["type"] == "message" and "id" in entry:  # no id: a hand-made line
                table.append((entry["id"], entry["message"]))
'''),
    # Hunt round 32 (reader r182), probe 11.1-47, ruled the next stop: the test that failed it
    # told events apart by identity, which the page never states.
    Wrong(lab='11.1', name='each listener handed a copy of the event of its own',
          rule='Build item 5 says each listener hears every event of every run, in the order they '
               'subscribed; whether they are handed the same event object is not ruled on. A copy '
               'per listener holds the same keys and values, so each hears what the reference\'s '
               'listeners hear.',
          where='hunt round 32, probe 11.1-47; Build section, item 5: "the listener hears every '
                'event of every run"', names='',
          replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
          by=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(dict(event))  # each listener its own copy: none can change another's
'''),
    # Hunt round 32 (reader r182), probe 11.1-57, ruled the next stop.
    Wrong(lab='11.1', name='rows() leaving out a message entry whose "message" is not an object',
          rule='Build item 3 says a message entry whose "message" is not an object is a '
               'person\'s edit too, and whether rows() keeps it, leaves it out or refuses it is '
               'the student\'s. Every entry _append writes holds a message that is one, and is '
               'read as the reference reads it.',
          where='hunt round 32, probe 11.1-57; Build section, item 3: "A message entry whose '
                '`\"message\"` is not an object is a person\'s edit too"', names='',
          replace=r'''
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
''',
          by=r'''
            if entry["type"] == "message" and isinstance(entry["message"], dict):
                table.append((entry["id"], entry["message"]))
'''),
    # Hunt round 29 (reader r162), probe 11.1-39.
    Wrong(lab='11.1', name='a missing file told by FileNotFoundError from the read',
          rule='Build item 1 says a log whose file does not exist has no entries; how entries() '
               'learns the file is not there is not ruled on. Reading and taking the '
               'workspace\'s FileNotFoundError for "no file" gives [] for exactly the files '
               'exists() says are not there, and lets every other error of the read (a file '
               'that cannot be read, PermissionError) be heard as before.',
          where='hunt round 29, probe 11.1-39', names='',
          replace=r'''
        if not self.ws.exists(self.path):
            return []
        found = []
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
''',
          by=r'''
        try:
            text = self.ws.read_text(self.path)
        except FileNotFoundError:  # no file: no entries yet
            return []
        found = []
        for index, raw in enumerate(text.splitlines()):
'''),
]

BEYOND = [
    # Hunt round 19 (reader r105), design 11.1-06.
    Beyond(lab='11.1', name='damage past line 1000 skipped',
           rule='A line that is not JSON is never skipped, wherever it stands: every line of '
                'the file is read, however long the log.',
           where='lab 11.1, Build section, item 1: "A line that is not JSON is never skipped"; '
                 'hunt round 19, 11.1-06',
           names='however long the log',
           reach="the longest log lab 11.1's tests read is test_a_damaged_line_anywhere_is_"
                 "named's, of 600 to 900 entries drawn under the seed (the bank's are as long); "
                 "this reader skips damage only past line 1000, and a case past it is the log "
                 "grown just past the design's threshold, a limit past what a test can afford: "
                 "any such limit has a longer log past it",
           replace=r'''
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
''',
           by=r'''
            except ValueError:
                if 1000 <= index < len(self.ws.read_text(self.path).splitlines()) - 1:
                    continue  # a person's slip deep in a long log: read on
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
''',
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test, raised

LAB = "11.1"


@lab_test("A line that is not JSON is never skipped however long the log: line 1500 of 1600.")
async def test_damage_deep_in_a_long_log(t):
    lines = [json.dumps({"id": f"e{n}", "type": "message",
                         "message": harness.user_message(f"Step {n}.")}) + "\n"
             for n in range(1, 1601)]
    lines[1499] = lines[1499][:12] + "\n"
    log = harness.SessionLog(lab.Workspace({"session.jsonl": "".join(lines)}), "session.jsonl")
    t.expect(await raised(log.entries),
             "ValueError: session.jsonl, line 1500: not a complete log entry",
             "A line that is not JSON is never skipped, however long the log: line 1500 of a "
             "log of 1600 entries, cut short, is named (SessionLog.entries, lesson 11).")
'''),
    # Hunt round 22 (reader r124), design 11.1-51.
    Beyond(lab='11.1', name='a last line with no newline read as an entry past line 2000',
           rule='A last line with no newline is a write that did not finish, even when it '
                'parses: reading raises the same ValueError for it however long the log.',
           where='lab 11.1, Build section, item 1: "A last line with no newline is a write that '
                 'did not finish, even when it parses"; hunt round 22, 11.1-51',
           names='however long the log',
           reach="the longest log lab 11.1's tests read is test_a_damaged_line_anywhere_is_"
                 "named's, of 600 to 900 entries drawn under the seed, whose last entry has no "
                 "newline (the bank's are shorter); this reader looks for the newline only in "
                 "logs under 2000 lines, and a case past it is the log grown just past the "
                 "design's threshold, a limit past what a test can afford: any such limit has a "
                 "longer log past it (as for \"damage past line 1000 skipped\")",
           replace=r"""
        if found and not self.ws.read_text(self.path).endswith("\n"):  # its newline never came:
""",
           by=r"""
        if 0 < len(found) < 2000 and not self.ws.read_text(self.path).endswith("\n"):  # torn:
""",
           deep=r"""
import json

import harness
import lab
from lab.kit import lab_test, raised

LAB = "11.1"


@lab_test("A last line with no newline is named however long the log: line 2101 of 2101.")
async def test_a_torn_end_of_a_long_log(t):
    lines = [json.dumps({"id": f"e{n}", "type": "message",
                         "message": harness.user_message(f"Step {n}.")}) + "\n"
             for n in range(1, 2101)]
    last = json.dumps({"id": "e2101", "type": "message", "message": lab.say("Done.")})
    log = harness.SessionLog(lab.Workspace({"session.jsonl": "".join(lines) + last}),
                             "session.jsonl")
    t.expect(await raised(log.entries),
             "ValueError: session.jsonl, line 2101: not a complete log entry",
             "A last line with no newline is a write that did not finish, however long the "
             "log: entry 2101 of a log of 2101, whole JSON with no newline, is named "
             "(SessionLog.entries, lesson 11).")
"""),
    # Hunt round 19 (reader r105), design 11.1-54.
    Beyond(lab='11.1', name='only the first 1600 listeners told',
           rule='After subscribe, the listener hears every event of every run, however many '
                'subscriptions there are.',
           where='lab 11.1, Build section, item 5: "the listener hears every event of every '
                 'run"; hunt round 19, 11.1-54',
           names='however many subscriptions',
           reach="test_each_undo_takes_off_one_subscription subscribes one listener 1500 times "
                 "(past Python's 1000 frames of recursion, the count a design by recursion "
                 "meets); this harness tells only the first 1600, and a case past it is the "
                 "count grown just past the design's threshold, a limit past what a test can "
                 "afford: any such cap has a count past it",
           replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
           by=r'''
        for listener in self._listeners[:1600]:  # a copy, and a cap no harness meets
            listener(event)
''',
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "11.1"


@lab_test("After subscribe, the listener hears every event, however many subscriptions there "
          "are: one listener subscribed 2500 times.")
async def test_two_thousand_five_hundred_subscriptions(t):
    h = harness.Harness(lab.ScriptedModel([lab.say("One.")]), "You help.", [])
    heard = []
    for _ in range(2500):
        h.subscribe(heard.append)
    await lab.drive(h.prompt("First."))
    t.expect(len(heard), 6 * 2500,
             "Each subscription hears every event, however many subscriptions there are: one "
             "listener subscribed 2500 times, then a run of six events (Harness._notify, "
             "lesson 11).")
'''),
    # Hunt round 26 (reader r143), design 11.1-16.
    Beyond(lab='11.1', name='an append that reads only the last 1000 lines',
           rule='On a log with a torn line, an append raises the reader\'s ValueError and writes '
                'nothing, however far from the end the damage is: it reads the whole log.',
           where='lab 11.1, Build section, item 2: "On a log with a torn line, an append raises '
                 'the reader\'s"; hunt round 26, 11.1-16',
           names='however far from the end',
           reach="the longest log lab 11.1's tests append to is test_a_damaged_line_anywhere_is_"
                 "named's, of 600 to 900 entries drawn under the seed, its damage at most about "
                 "900 lines above the end (the bank's are as long); this append looks for "
                 "damage only in the last 1000 lines, and a case past it is the log grown just "
                 "past the design's threshold, a limit past what a test can afford: any such "
                 "limit has a longer log past it (as for \"damage past line 1000 skipped\"; "
                 "\"an append that reads only the last 100 lines\" is caught)",
           replace=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
''',
           by=r'''
        lines = self.ws.read_text(self.path).splitlines() if self.ws.exists(self.path) else []
        for index in range(max(len(lines) - 1000, 0), len(lines)):  # a crash tears the end:
            try:  # look there only
                json.loads(lines[index])
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
        if lines and not self.ws.read_text(self.path).endswith("\n"):
            raise ValueError(f"{self.path}, line {len(lines)}: not a complete log entry")
        entry = {"id": f"e{len(lines) + 1}", **entry}
''',
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test, raised

LAB = "11.1"


@lab_test("An append on a log with a torn line writes nothing, however far from the end the "
          "damage is: line 100 of 1600.")
async def test_an_append_far_above_damage(t):
    lines = [json.dumps({"id": f"e{n}", "type": "message",
                         "message": harness.user_message(f"Step {n}.")}) + "\n"
             for n in range(1, 1601)]
    lines[99] = lines[99][:12] + "\n"
    ws = lab.Workspace({"session.jsonl": "".join(lines)})
    log = harness.SessionLog(ws, "session.jsonl")
    t.expect([await raised(lambda: log.append_message(lab.say("More."))),
              ws.read_text("session.jsonl") == "".join(lines)],
             ["ValueError: session.jsonl, line 100: not a complete log entry", True],
             "On a log with a torn line an append raises the reader's ValueError and writes "
             "nothing, however far from the end the damage is: line 100 of a log of 1600 "
             "entries, cut short (SessionLog.append_message, lesson 11).")
'''),
    # Hunt round 26 (reader r143), design 11.1-18.
    Beyond(lab='11.1', name='ids that stop at e999',
           rule='An append returns the entry\'s id, e and the number of the line the entry lands '
                'on, however long the log.',
           where='lab 11.1, Build section, item 2: "the number of the line the entry lands on"; '
                 'hunt round 26, 11.1-18',
           names='number of the line',
           reach="the longest log lab 11.1's tests append to is the bank's, of 600 to 900 "
                 "entries drawn under the seed (the public tests append a few dozen at most); "
                 "these ids stop growing at e999, and a case past it is the log grown just past "
                 "the design's threshold, a limit past what a test can afford: any such cap has "
                 "a longer log past it (as for \"damage past line 1000 skipped\")",
           replace=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
''',
           by=r'''
        entry = {"id": f"e{min(len(self.entries()) + 1, 999)}", **entry}  # three digits
''',
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "11.1"


@lab_test("An append returns e and the number of the line the entry lands on, however long the "
          "log: e1501 on a log of 1500 entries.")
async def test_an_id_past_a_thousand(t):
    lines = [json.dumps({"id": f"e{n}", "type": "message",
                         "message": harness.user_message(f"Step {n}.")}) + "\n"
             for n in range(1, 1501)]
    log = harness.SessionLog(lab.Workspace({"session.jsonl": "".join(lines)}), "session.jsonl")
    t.expect(log.append_message(lab.say("More.")), "e1501",
             "An append returns e and the number of the line the entry lands on, however long "
             "the log: line 1501 (SessionLog.append_message, lesson 11).")
'''),
    # Hunt round 26 (reader r143), design 11.1-59.
    Beyond(lab='11.1', name='subscriptions past the 1600th not kept',
           rule='After subscribe, the listener hears every event of every run, however many '
                'subscriptions there are.',
           where='lab 11.1, Build section, item 5: "the listener hears every event of every '
                 'run"; hunt round 26, 11.1-59',
           names='however many subscriptions',
           reach="test_each_undo_takes_off_one_subscription subscribes one listener 1500 times "
                 "(past Python's 1000 frames of recursion, the count a design by recursion "
                 "meets); this subscribe keeps only the first 1600, and a case past it is the "
                 "count grown just past the design's threshold, a limit past what a test can "
                 "afford: any such cap has a count past it (as for \"only the first 1600 "
                 "listeners told\", the same cap placed in _notify)",
           replace=r'''
        self._listeners.append(hear)
''',
           by=r'''
        if len(self._listeners) < 1600:  # a cap no harness meets
            self._listeners.append(hear)
''',
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "11.1"


@lab_test("After subscribe, the listener hears every event, however many subscriptions there "
          "are: one listener subscribed 2500 times.")
async def test_two_thousand_five_hundred_subscriptions_kept(t):
    h = harness.Harness(lab.ScriptedModel([lab.say("One.")]), "You help.", [])
    heard = []
    for _ in range(2500):
        h.subscribe(heard.append)
    await lab.drive(h.prompt("First."))
    t.expect(len(heard), 6 * 2500,
             "Each subscription hears every event, however many subscriptions there are: one "
             "listener subscribed 2500 times, then a run of six events (Harness.subscribe, "
             "lesson 11).")
'''),
    # Hunt round 29 (reader r162), design 11.1-33.
    Beyond(lab='11.1', name='listeners told by recursion, with the recursion limit raised to 4000',
           rule='After subscribe, the listener hears every event of every run, however many '
                'subscriptions there are.',
           where='lab 11.1, Build section, item 5: "the listener hears every event of every '
                 'run"; hunt round 29, 11.1-33',
           names='however many subscriptions',
           reach="test_each_undo_takes_off_one_subscription subscribes one listener 1500 times, "
                 "past Python's default 1000 frames of recursion, which catches \"listeners "
                 "told by recursion\"; this _notify raises the limit to 4000 first, so it fails "
                 "only past about 4000 subscriptions, and a case past it is the count grown just "
                 "past the design's threshold, a limit past what a test can afford: any raised "
                 "limit has a count past it (as for \"only the first 1600 listeners told\")",
           replace=r'''
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
''',
           by=r'''
        import sys
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 4000))  # room for a crowd

        def tell(everyone, at=0):
            if at < len(everyone):
                everyone[at](event)
                tell(everyone, at + 1)
        tell(list(self._listeners))
''',
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "11.1"


@lab_test("After subscribe, the listener hears every event, however many subscriptions there "
          "are: one listener subscribed 5000 times.")
async def test_five_thousand_subscriptions(t):
    h = harness.Harness(lab.ScriptedModel([lab.say("One.")]), "You help.", [])
    heard = []
    for _ in range(5000):
        h.subscribe(heard.append)
    await lab.drive(h.prompt("First."))
    t.expect(len(heard), 6 * 5000,
             "Each subscription hears every event, however many subscriptions there are: one "
             "listener subscribed 5000 times, then a run of six events (Harness._notify, "
             "lesson 11).")
'''),
    # Hunt round 32 (reader r182), design 11.1-23.
    Beyond(lab='11.1', name='rows() keeping only the last 1000',
           rule='rows() is the transcript as (id, message) pairs, one per message entry, in the '
                'order they were written, however long the log.',
           where='lab 11.1, Build section, item 3: "one per message entry"; hunt round 32, '
                 '11.1-23',
           names='however long the log',
           reach="the most rows lab 11.1's tests read are test_long_logs_replay_in_the_order_"
                 "written's, of up to 320 entries drawn under the seed (the bank's long log, of "
                 "600 to 900, is read through entries() and an append); these rows keep only "
                 "the last 1000, and a case past it is the log grown just past the design's "
                 "threshold, a limit past what a test can afford: any such cap has a longer log "
                 "past it (as for \"damage past line 1000 skipped\", the same kind of cap in "
                 "entries())",
           replace=r'''
        return table

    def replay(self):
''',
           by=r'''
        return table[-1000:]  # the model never needs more than this

    def replay(self):
''',
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "11.1"


@lab_test("rows() is one pair per message entry however long the log: 1500 rows of 1500.")
async def test_fifteen_hundred_rows(t):
    lines = [json.dumps({"id": f"e{n}", "type": "message",
                         "message": harness.user_message(f"Step {n}.")}) + "\n"
             for n in range(1, 1501)]
    rows = harness.SessionLog(lab.Workspace({"session.jsonl": "".join(lines)}),
                              "session.jsonl").rows()
    t.expect([len(rows), rows[0][0], rows[-1][0]], [1500, "e1", "e1500"],
             "rows() is the transcript, one pair per message entry, however long the log: a "
             "log of 1500 message entries gives 1500 rows, e1 first and e1500 last "
             "(SessionLog.rows, lesson 11).")
'''),
]
