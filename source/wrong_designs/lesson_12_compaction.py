"""Lesson 12's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
the reference of the lab whose gap holds the code: find_cut and the measure are lab 12.1's,
summarize, the log's compaction entry and compact are lab 12.2's.
"""
from tools.wrong_designs import Beyond, Wrong

WRONG = [
    Wrong(lab='12.1', name='cutting wherever the budget runs out',
          rule='The kept tail starts where a turn starts, at a user message, and never with a tool result whose call was summarised away.',
          where='prediction "Where to cut" (right there); the second opening question; Build recap',
          names='begins where a turn begins',
          replace=r'''
    if left > 0:
        return 0  # everything fits
''',
          by=r'''
    if left > 0:
        return 0  # everything fits
    return start  # the budget ran out here, so the cut goes here
'''),
    Wrong(lab='12.1', name='the last result kept when only results are left',
          rule='When every row from where the count stops is a tool result, no row there can open what is kept, and the cut is len(rows): nothing is kept.',
          where='Build item 3 (hunt round 30, reader r167 probe P5)',
          names='past any tool results',
          replace=r'''
    while start < len(roles) and roles[start] == "toolResult":
        start += 1  # no turn begins after it: at least step past the results
''',
          by=r'''
    while start < len(roles) - 1 and roles[start] == "toolResult":
        start += 1  # stop on the last row: a cut at len(rows) would keep nothing at all
'''),
    Wrong(lab='12.1', name='stepping back to the call',
          rule='Where the budget runs out at a tool result, the cut moves forward to the next user message: stepping back to the call keeps the pair but splits the turn and breaks the budget.',
          where='prediction "Where to cut" (back to the assistant message that made the call); Build recap',
          names='where a turn begins',
          replace=r'''
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
''',
          by=r'''
    if roles[start] == "toolResult":
        while roles[start] == "toolResult":
            start -= 1
        return start  # back to the call that asked for it, so that the pair stays together
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
'''),
    Wrong(lab='12.1', name='counting messages instead of tokens',
          rule='What a conversation costs is measured in tokens of its text (estimate_tokens), not in messages: one result can outweigh fifty short messages.',
          where='prediction "What to measure" (messages); Build recap',
          names='estimate_tokens',
          replace='        left -= estimate_tokens([rows[start][1]])',
          by='        left -= 1  # one message, one unit of the budget'),
    Wrong(lab='12.1', name='walking on past the row that reaches the budget',
          rule='The walk back stops at the row where the kept total reaches keep_recent_tokens (>=, as in Tau), not only once it goes past it.',
          where='Build section, find_cut (the budget is spent when the total reaches it)',
          names='reaching the budget counts',
          replace=r'''
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
        start -= 1
        left -= estimate_tokens([rows[start][1]])
    if left > 0:
        return 0  # everything fits
''',
          by=r'''
    while start > 0 and left >= 0:  # on until the total is past the budget
        start -= 1
        left -= estimate_tokens([rows[start][1]])
    if left >= 0:
        return 0  # everything fits
'''),
    Wrong(lab='12.1', name='measuring the dicts as Python prints them',
          rule="The measure is render's text, the conversation as a reader sees it, four characters to a token.",
          where='section "What to measure"; lab 12.1\'s first hint',
          names='characters of render()',
          replace='    return len(render(messages)) // 4',
          by='    return len(str(messages)) // 4'),
    Wrong(lab='12.1', name='render keeping the line breaks inside a message',
          rule='render writes one line per message: a newline inside a message becomes a space.',
          where='lab 12.1, gap 1: "render(messages)"',
          names='newlines turned into spaces',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        out.append(f"{message['role']}: {said}")
'''),
    Wrong(lab='12.1', name="calls written as Python prints their arguments",
          rule="A call is written as the tool's name followed by its arguments as JSON in brackets.",
          where='lab 12.1, gap 1: "render(messages)"',
          names='JSON arguments',
          replace=r'''
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
''',
          by=r'''
                f"{block['name']}({block['arguments']})" for block in tool_calls(message)])
'''),
    Wrong(lab='12.1', name='a reply of only calls written with one space',
          rule="An assistant message's words are its text and then each call, separated by single spaces, so a reply made only of calls has two spaces after its colon.",
          where='lab 12.1, gap 1: "render(messages)"',
          names='render writes',
          replace=r'''
            said = " ".join([text_of(message)] + [
''',
          by=r'''
            said = " ".join([text_of(message)] * bool(text_of(message)) + [
'''),
    Wrong(lab='12.1', name='the estimate rounded to the nearest token',
          rule='estimate_tokens is the length of render\'s text divided by four, rounded down.',
          where='lab 12.1, gap 2: "estimate_tokens(messages)"',
          names='rounded down',
          replace=r'''
    return len(render(messages)) // 4
''',
          by=r'''
    return round(len(render(messages)) / 4)
'''),
    Wrong(lab='12.2', name='deleting log lines',
          rule='The log only grows: compaction adds one entry and deletes nothing.',
          where='the opening question (delete the oldest lines); prediction "Where the summary lives" (in place of the lines it summarises); Build recap',
          names='deletes nothing',
          replace='    log.append_compaction(summary, rows[cut][0])',
          by=r'''
    kept = log.entries()[cut:]  # the summarised lines go; the summary takes their place
    log.ws.write_text(log.path, "")
    log.append_message(user_message("Previous conversation summary:\n" + summary))
    for entry in kept:
        log.ws.append_text(log.path, json.dumps(entry) + "\n")
'''),
    Wrong(lab='12.2', name='summarising inside the transcript',
          rule='The summary is asked for in a request of its own: the conversation as text inside one user message, not a transcript for the model to continue.',
          where='prediction "Asking for the summary" (add a user message to the session); Build recap',
          names='not as a transcript',
          replace='    reply = model.complete(SUMMARY_SYSTEM, [wrapped], [])',
          by=r'''
    reply = model.complete(SUMMARY_SYSTEM,
                           list(messages) + [user_message("Summarise our conversation so far.")],
                           [])
'''),
    Wrong(lab='12.2', name="a failed compaction costing the user's turn",
          rule='Compaction is tidying up: a failed summary makes compact return False and append nothing, and never costs the user their turn.',
          where='prediction "When compaction goes wrong" (raise); Build recap',
          names='A failed summary costs the user nothing',
          replace=r'''
    try:
        summary = summarize(model, older)
    except RuntimeError:
        return False
''',
          by=r'''
    summary = summarize(model, older)  # a failure goes up to the caller
'''),
    Wrong(lab='12.2', name='compacting mid-run',
          rule='The transcript belongs to the run while it runs: maybe_compact refuses during a run, before it asks for a summary.',
          where='prediction "When compaction goes wrong" (from a listener); Build recap',
          names='belongs to the run',
          replace=r'''
    if harness.is_running:
        raise RuntimeError("cannot compact during a run")
''',
          by=r'''
    # housekeeping: allowed whenever the code around the harness calls it
'''),
    Wrong(lab='12.2', name='replacing the transcript mid-run',
          rule='One writer at a time: replace_messages refuses during a run.',
          where='prediction "When compaction goes wrong" (two writers on one list)',
          names='belongs to the run',
          replace=r'''
        if self.is_running:
            raise RuntimeError("cannot replace messages during a run")
''',
          by=r'''
        # whoever rebuilt the transcript may hand it in at any time
'''),
    Wrong(lab='12.2', name='the summary placed in the system prompt',
          rule='The summary lives in the log, as a compaction entry that replay() reads; the system prompt is not in the log.',
          where='prediction "Where the summary lives" (anywhere the log cannot replay it from); Build recap',
          names='what the log replays',
          replace=r'''
    compacted = compact(log, model, keep_recent_tokens=keep_recent_tokens)
    if compacted:
        harness.replace_messages(log.replay())  # the one door in, shut during a run
    return compacted
''',
          by=r'''
    pairs = log.rows()
    cut = find_cut(pairs, keep_recent_tokens)
    if not 0 < cut < len(pairs):
        return False
    old, kept = [m for _, m in pairs[:cut]], [m for _, m in pairs[cut:]]
    try:
        summary = summarize(model, old)
    except RuntimeError:
        return False
    harness._system += "\n\nPrevious conversation summary:\n" + summary  # sent every time
    harness.replace_messages(kept)
    return True
'''),
    Wrong(lab='12.2', name='checking for an empty reply before stripping it',
          rule='A reply of whitespace only is no summary: summarize strips the text before it checks that there is any.',
          where="Build section, summarize (returns the reply's text, stripped; an empty reply raises)",
          names='whitespace only',
          replace=r'''
    text = text_of(reply).strip()
    if not text or reply["stop_reason"] in ("error", "aborted"):
        reason = reply.get("error_message") or "the reply was empty"  # none, None or ""
        raise RuntimeError(f"no summary: {reason}")
    return text
''',
          by=r'''
    if not text_of(reply) or reply["stop_reason"] in ("error", "aborted"):
        reason = reply.get("error_message") or "the reply was empty"  # none, None or ""
        raise RuntimeError(f"no summary: {reason}")
    return text_of(reply).strip()
'''),
    Wrong(lab='12.2', name='summarising the first kept row as well',
          rule='A row is summarised or kept, never both: the summariser is sent the rows before the cut, and the rows from the cut on are kept word for word.',
          where='Build section, compact (summarises the rows before the cut); section "Where the summary lives"',
          names='never both',
          replace='    older = [message for _, message in rows[:cut]]',
          by='    older = [message for _, message in rows[:cut + 1]]  # up to and with the cut'),
    Wrong(lab='12.2', name='a stopped reply taken for a summary',
          rule='A reply that was stopped (stop_reason aborted) is cut short like a failed one: summarize raises, however many words it holds.',
          where='Build section, summarize (a failed or empty reply raises)',
          names='stopped',
          replace='''    if not text or reply["stop_reason"] in ("error", "aborted"):''',
          by='''    if not text or reply["stop_reason"] == "error":'''),
    Wrong(lab='12.2', name='compacting when the window is exactly reached',
          rule='There is room while estimate_tokens of the record is at most window - reserve, equal included; maybe_compact compacts only past it.',
          where='Build section, maybe_compact (compacts only when the estimate plus reserve is over window)',
          names='equal included',
          replace='    if estimate_tokens(harness.messages) + reserve <= window:',
          by='    if estimate_tokens(harness.messages) + reserve < window:'),
    Wrong(lab='12.2', name='the threshold looked at before the running check',
          rule='During a run maybe_compact raises RuntimeError("cannot compact during a run"), whether or not the window has room.',
          where='lab 12.2, gap 6: "maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens)"',
          names='looks at the run before the threshold',
          replace=r'''
    if harness.is_running:
        raise RuntimeError("cannot compact during a run")
    if estimate_tokens(harness.messages) + reserve <= window:
        return False  # there is still room
''',
          by=r'''
    if estimate_tokens(harness.messages) + reserve <= window:
        return False
    if harness.is_running:
        raise RuntimeError("cannot compact during a run")
'''),
    Wrong(lab='12.2', name="replace_messages keeping the caller's list",
          rule="Between runs, the harness's record becomes a new list of messages, the list its own and the messages shared.",
          where='lab 12.2, gap 1: "Harness.replace_messages(messages)"',
          names="a list of the harness's own",
          replace=r'''
        self._messages = list(messages)

    def _notify(self, event):
''',
          by=r'''
        self._messages = messages

    def _notify(self, event):
'''),
    Wrong(lab='12.2', name='the first kept id stored under another name',
          rule='The compaction entry holds the summary and the first kept id under the keys "summary" and "first_kept_id".',
          where='lab 12.2, gap 2: "SessionLog.append_compaction(summary, first_kept_id)"',
          names='first_kept_id',
          replace=r'''
        return self._append({"type": "compaction", "summary": summary,
                             "first_kept_id": first_kept_id})
''',
          by=r'''
        return self._append({"type": "compaction", "summary": summary,
                             "keep_from": first_kept_id})
''',
          also=((r'''
                              if key == entry["first_kept_id"]), len(table))
''', r'''
                              if key == entry["keep_from"]), len(table))
'''),)),
    Wrong(lab='12.2', name='an unknown first_kept_id keeping everything',
          rule='If no pair has the compaction\'s first_kept_id, none are kept.',
          where='lab 12.2, gap 3: "Compaction in `rows()`"',
          names='keeps nothing',
          replace=r'''
                              if key == entry["first_kept_id"]), len(table))
''',
          by=r'''
                              if key == entry["first_kept_id"]), 0)
'''),
    Wrong(lab='12.2', name='the summary without its heading',
          rule='The summary pair is a user message whose content is "Previous conversation summary:", a newline, and the summary.',
          where='lab 12.2, gap 3: "Compaction in `rows()`"',
          names='summary',
          replace=r'''
                summary = user_message("Previous conversation summary:\n" + entry["summary"])
''',
          by=r'''
                summary = user_message(entry["summary"])
'''),
    Wrong(lab='12.1', name="newlines kept in an assistant's text",
          rule="A newline inside a message becomes a space, in an assistant's text as in a user message or a result: a message is always one line.",
          where='Build: where to cut, item 1 (hunt round 1, 12.1-1)',
          names='a newline inside a message becomes a space',
          replace=r'''
        said = message["content"]
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
''',
          by=r'''
        said = message["content"].replace("\n", " ") if message["role"] != "assistant" else ""
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
''',
          also=((r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''', r'''
        out.append(f"{message['role']}: {said}")
'''),)),
    Wrong(lab='12.1', name='arguments written with their keys sorted',
          rule="A call's arguments are written as json.dumps writes them, in the order they were given.",
          where='Build: where to cut, item 1; lab 12.1, gap 1 (hunt round 1, 12.1-2)',
          names='keep the order they were given in',
          replace=r'''
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
''',
          by=r'''
                f"{block['name']}({json.dumps(block['arguments'], sort_keys=True)})"
                for block in tool_calls(message)])
'''),
    Wrong(lab='12.1', name='arguments written with ensure_ascii=False',
          rule="A call's arguments are json.dumps of them: a letter that is not ASCII is its \\u escape, and the estimate counts it so.",
          where='lab 12.1, gap 1: its arguments as JSON, json.dumps (hunt round 1, 12.1-3)',
          names='escape',
          replace=r'''
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
''',
          by=r'''
                f"{block['name']}({json.dumps(block['arguments'], ensure_ascii=False)})"
                for block in tool_calls(message)])
'''),
    Wrong(lab='12.1', name='a budget of 0 read as no budget',
          rule='keep_recent_tokens of 0 is a budget: it keeps the least, never everything.',
          where='Build: where to cut, item 3 (hunt round 1, 12.1-4)',
          names='no budget',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    if not keep_recent_tokens:  # no budget given: nothing to cut
        return 0
    left, start = keep_recent_tokens, len(rows)
'''),
    Wrong(lab='12.1', name="the user's words stripped",
          rule="A user message's words are its content, spaces and all.",
          where='Build: where to cut, item 1 (hunt round 1, 12.1-5)',
          names='spaces are its words',
          replace=r'''
        said = message["content"]
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
''',
          by=r'''
        said = message["content"]
        if message["role"] == "user":
            said = said.strip()
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
'''),
    Wrong(lab='12.1', name="a failed reply's error_message written into its line",
          rule="An assistant message's words are its text and then its calls, nothing else: not its error_message.",
          where='Build: where to cut, item 1 (hunt round 1, 12.1-6)',
          names='not its error_message',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        if message.get("stop_reason") == "error":
            said = f'{said}[error] {message.get("error_message", "")}'
        out.append(f"{message['role']}: {said}".replace("\n", " "))
'''),
    Wrong(lab='12.1', name='cuts remembered by the rows ids',
          rule="find_cut's answer is worked out from the rows' messages each time: each row costs estimate_tokens([message]).",
          where='Build: where to cut, item 3 (hunt round 1, 12.1-9)',
          names='never remembered by their ids',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    key = (tuple(row_id for row_id, _ in rows), keep_recent_tokens)
    if key not in _CUTS:
        _CUTS[key] = _find_cut(rows, keep_recent_tokens)
    return _CUTS[key]


_CUTS = {}


def _find_cut(rows, keep_recent_tokens):
    left, start = keep_recent_tokens, len(rows)
'''),
    Wrong(lab='12.1', name='a failed result marked in its line',
          rule="A line is the role, a colon, a space and the message's words: a result's words are its content, with no mark of an error.",
          where='Build: where to cut, item 1 (hunt round 1, 12.1-10)',
          names='no mark of the error',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        role = message["role"] + (" (error)" if message.get("is_error") else "")
        out.append(f"{role}: {said}".replace("\n", " "))
'''),
    Wrong(lab='12.2', name='replace_messages copying every message',
          rule="Between runs, the harness's record becomes a new list of messages, the list its own and the messages shared, as in __init__: the very dicts, not copies.",
          where='Build: summarise and keep, item 1; lab 12.2, gap 1 (hunt round 3, 12.2-1)',
          names='shared as in __init__',
          replace=r'''
        self._messages = list(messages)

    def _notify(self, event):
''',
          by=r'''
        import copy
        self._messages = [copy.deepcopy(message) for message in messages]

    def _notify(self, event):
'''),
    Wrong(lab='12.2', name='append_compaction rewriting the whole file',
          rule='append_compaction adds one line and changes no line already there: a write that replaces the file can tear the old lines when the power goes.',
          where='Build: summarise and keep, item 2; prediction "Where the summary lives" (hunt round 3, 12.2-2)',
          names='changes no line already there',
          replace=r'''
        return self._append({"type": "compaction", "summary": summary,
                             "first_kept_id": first_kept_id})
''',
          by=r'''
        entry = {"id": f"e{len(self.entries()) + 1}", "type": "compaction", "summary": summary,
                 "first_kept_id": first_kept_id}
        old = self.ws.read_text(self.path) if self.ws.exists(self.path) else ""
        self.ws.write_text(self.path, old + json.dumps(entry) + "\n")  # the same bytes
        return entry["id"]
'''),
    Wrong(lab='12.2', name='a first_kept_id summarised earlier bringing its messages back',
          rule="If no pair has the compaction's first_kept_id, none are kept, even when a message line of that id is still in the file.",
          where='Build: summarise and keep, item 3 (hunt round 3, 12.2-3)',
          names='summarised away',
          replace=r'''
        table = []
        for entry in self.entries():
            if entry["type"] == "compaction":
                start = next((i for i, (key, _) in enumerate(table)
                              if key == entry["first_kept_id"]), len(table))
                summary = user_message("Previous conversation summary:\n" + entry["summary"])
                table = [(entry["id"], summary), *table[start:]]
            elif entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
''',
          by=r'''
        table, every = [], []
        for entry in self.entries():
            if entry["type"] == "compaction":
                ids, first = [key for key, _ in table], entry["first_kept_id"]
                everyone = [key for key, _ in every]
                if first in ids:
                    kept = table[ids.index(first):]
                elif first in everyone:  # summarised earlier: read it back from the file
                    kept = every[everyone.index(first):]
                else:
                    kept = []
                summary = user_message("Previous conversation summary:\n" + entry["summary"])
                table = [(entry["id"], summary), *kept]
            elif entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
                every.append((entry["id"], entry["message"]))
'''),
    Wrong(lab='12.2', name='a failed summary told by its error_message',
          rule='A reply failed when its stop_reason says so ("error" or "aborted"), whatever else it holds: summarize raises, with "the reply was empty" when there is no error_message.',
          where='Build: summarise and keep, item 4; lesson 5 (the label) (hunt round 3, 12.2-4)',
          names='stop_reason is "error"',
          replace='''    if not text or reply["stop_reason"] in ("error", "aborted"):''',
          by='''    if not text or reply.get("error_message"):'''),
    Wrong(lab='12.2', name='the summary from the first text block only',
          rule="summarize returns the reply's text, all its text blocks joined (text_of), stripped.",
          where='Build: summarise and keep, item 4 (hunt round 3, 12.2-5)',
          names='all its text blocks joined',
          replace='''    text = text_of(reply).strip()''',
          by=r'''
    blocks = [block for block in reply["content"] if block["type"] == "text"]
    text = blocks[0]["text"].strip() if blocks else ""
'''),
    Wrong(lab='12.2', name='compact swallowing every error',
          rule='compact returns False only when there is nothing to cut or summarize raised RuntimeError: a torn log raises what reading it raises.',
          where='Build: summarise and keep, item 5; lesson 11 (a torn line raises) (hunt round 3, 12.2-6)',
          names='torn',
          replace=r'''
    rows = log.rows()
    cut = find_cut(rows, keep_recent_tokens)
    if not 0 < cut < len(rows):
        return False  # nothing before the cut to summarise, or nothing after it to keep
    older = [message for _, message in rows[:cut]]
    try:
        summary = summarize(model, older)
    except RuntimeError:
        return False
    log.append_compaction(summary, rows[cut][0])
    return True
''',
          by=r'''
    try:  # a tidy-up must never cost a turn
        rows = log.rows()
        cut = find_cut(rows, keep_recent_tokens)
        if not 0 < cut < len(rows):
            return False
        summary = summarize(model, [message for _, message in rows[:cut]])
        log.append_compaction(summary, rows[cut][0])
        return True
    except Exception:
        return False
'''),
    Wrong(lab='12.2', name='maybe_compact measuring the log instead of the record',
          rule="maybe_compact compacts when estimate_tokens of the harness's messages plus reserve is over window: the harness's record is measured, not the log's replay.",
          where='Build: summarise and keep, item 6 (hunt round 3, 12.2-7)',
          names="the harness's messages that are measured",
          replace='    if estimate_tokens(harness.messages) + reserve <= window:',
          by='    if estimate_tokens(log.replay()) + reserve <= window:'),
    Wrong(lab='12.2', name="maybe_compact ignoring compact's answer",
          rule='maybe_compact returns whether it compacted: when compact returns False, so does it, and the harness keeps its record.',
          where='Build: summarise and keep, item 6 (hunt round 3, 12.2-8)',
          names='returns whether it compacted',
          replace=r'''
    compacted = compact(log, model, keep_recent_tokens=keep_recent_tokens)
    if compacted:
        harness.replace_messages(log.replay())  # the one door in, shut during a run
    return compacted
''',
          by=r'''
    compact(log, model, keep_recent_tokens=keep_recent_tokens)
    harness.replace_messages(log.replay())
    return True
'''),
    Wrong(lab='12.2', name='replace_messages emptying the queues',
          rule='replace_messages replaces the record and nothing else: queues outlive runs, and a queued message leaves its queue only once it is on the record.',
          where="Build: summarise and keep, item 1; the Harness docstring (Queues outlive runs) (hunt round 3, 12.2-9)",
          names='queues outlive runs',
          replace=r'''
        self._messages = list(messages)

    def _notify(self, event):
''',
          by=r'''
        self._messages = list(messages)
        self._steering_queue.clear()  # a fresh transcript, a fresh start
        self._follow_up_queue.clear()

    def _notify(self, event):
'''),
    Wrong(lab='12.2', name='a window of 0 read as no window',
          rule='A window of 0 is a window every record is over: maybe_compact compacts.',
          where='Build: summarise and keep, item 6 (hunt round 3, 12.2-14)',
          names='a window of 0',
          replace='    if estimate_tokens(harness.messages) + reserve <= window:',
          by='    if not window or estimate_tokens(harness.messages) + reserve <= window:'),
    Wrong(lab='12.2', name="the summariser sent the request's view",
          rule='The summariser is sent render(messages) of every message given, not of the view a request is built from.',
          where='Build: summarise and keep, items 4 and 5 (hunt round 3, 12.2-15)',
          names='render(messages)',
          replace='''    wrapped = user_message(f"<conversation>\\n{render(messages)}\\n</conversation>")''',
          by='''    wrapped = user_message(f"<conversation>\\n{render(context_for_model(messages))}\\n</conversation>")'''),
    Wrong(lab='12.2', name='the budgets given defaults',
          rule="compact's and maybe_compact's budgets are keyword arguments with no default: one left out or given by position is a TypeError, never a guess.",
          where='Build: summarise and keep, items 5 and 6 (their signatures) (hunt round 3, 12.2-16)',
          names='keyword arguments with no default',
          replace='def compact(log, model, *, keep_recent_tokens):',
          by='def compact(log, model, keep_recent_tokens=20000):',
          also=(('def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):',
                 'def maybe_compact(harness, log, model, window, reserve=16384, keep_recent_tokens=20000):'),)),
    Wrong(lab='12.1', name='render writing only the first 300 messages',
          rule='render is the transcript as plain text, one line per message, however many messages there are.',
          where='lab 12.1, Build section: "one line per message"; bench/kinds.py, a loop given a limit',
          names='however many there are',
          replace=r'''
    for message in messages:
        said = message["content"]
''',
          by=r'''
    for message in messages[:300]:  # a summary needs no more
        said = message["content"]
'''),
    Wrong(lab='12.1', name="render's text stripped",
          rule='A newline inside a message becomes a space, and nothing else changes: a newline that ends the last message is a space that stays.',
          where='lab 12.1, Build section: "A newline inside a message becomes a space"; bench/kinds.py, text stripped',
          names='becomes a space that stays',
          replace=r'''
    return "\n".join(out)
''',
          by=r'''
    return "\n".join(out).strip()  # no stray space at the end
'''),
    Wrong(lab='12.1', name='the walk back given up after 300 rows',
          rule='Counting back from the newest row, the count stops at the row where the kept total reaches keep_recent_tokens, however many rows that takes.',
          where='lab 12.1, Build section: "the count stops at the row where the kept total reaches `keep_recent_tokens`"; bench/kinds.py, a loop given a limit',
          names='however many rows that takes',
          replace=r'''
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
''',
          by=r'''
    while start > 0 and left > 0 and len(rows) - start < 300:  # a sane walk
'''),
    Wrong(lab='12.1', name='stepping past at most 300 results',
          rule='With no user message after the row where the count stops, the cut is the first row from there on that is not a tool result, however many results stand there.',
          where='lab 12.1, Build section: "the cut is the first row from there on that is not a tool result"; bench/kinds.py, a loop given a limit',
          names='however many results it steps past',
          replace=r'''
    while start < len(roles) and roles[start] == "toolResult":
''',
          by=r'''
    for _ in range(300):  # no batch is longer
        if not (start < len(roles) and roles[start] == "toolResult"):
            break
'''),
    Wrong(lab='12.2', name='the summary stored stripped',
          rule='append_compaction adds one entry that holds the summary it is given, exactly as given.',
          where='lab 12.2, Build section: "adds one entry of type `"compaction"` that holds the summary"; bench/kinds.py, text stripped',
          names='exactly as given',
          replace=r'''
        return self._append({"type": "compaction", "summary": summary,
''',
          by=r'''
        return self._append({"type": "compaction", "summary": summary.strip(),
'''),
    Wrong(lab='12.2', name='rows() reading only the first 300 entries',
          rule='A compaction entry is read as a rule over the pairs read before it, wherever it stands, however long the log.',
          where='lab 12.2, Build section: "A compaction entry is read as a rule over the pairs read before it"; bench/kinds.py, a loop given a limit',
          names='however long the log',
          replace=r'''
        for entry in self.entries():
            if entry["type"] == "compaction":
''',
          by=r'''
        for entry in self.entries()[:300]:  # a compacted log stays short
            if entry["type"] == "compaction":
'''),
    # hunt round 8 (reader r32), lab 12.2
    Wrong(lab='12.2', name="compact swallowing the summariser's other errors",
          rule='compact returns False for three things only: nothing before the cut, nothing after it, or summarize raising RuntimeError; any other error goes through to the caller.',
          where='Build: summarise and keep, item 5 (hunt round 8, 12.2-01)',
          names='anything else goes through to the caller',
          replace=r'''
    except RuntimeError:
        return False
    log.append_compaction(summary, rows[cut][0])
''',
          by=r'''
    except Exception:  # whatever went wrong, no summary is no harm
        return False
    log.append_compaction(summary, rows[cut][0])
'''),
    Wrong(lab='12.2', name='compact hiding a failed write',
          rule='compact returns False for three things only: nothing before the cut, nothing after it, or summarize raising RuntimeError; a write of the log that fails goes through to the caller.',
          where='Build: summarise and keep, item 5 (hunt round 8, 12.2-02)',
          names='full disk',
          replace=r'''
    log.append_compaction(summary, rows[cut][0])
    return True
''',
          by=r'''
    try:
        log.append_compaction(summary, rows[cut][0])
    except Exception:  # the disk is full: try again next time
        return False
    return True
'''),
    Wrong(lab='12.2', name='maybe_compact hiding a torn log',
          rule='maybe_compact returns whether it compacted; what compact raises, a torn log among it, goes through maybe_compact to the caller, never a quiet False.',
          where='Build: summarise and keep, items 5 and 6 (hunt round 8, 12.2-34)',
          names='maybe_compact raises too',
          replace=r'''
    compacted = compact(log, model, keep_recent_tokens=keep_recent_tokens)
''',
          by=r'''
    try:
        compacted = compact(log, model, keep_recent_tokens=keep_recent_tokens)
    except ValueError:  # a torn log: nothing compacted
        return False
'''),
    Wrong(lab='12.2', name="compact sending the summariser the rows' view",
          rule='compact summarises exactly the rows before the cut: summarize is handed those messages, a failed empty reply among them, not the request\'s view of them.',
          where='Build: summarise and keep, items 4 and 5 (hunt round 8, 12.2-03)',
          names="not the request's view of them",
          replace=r'''
    older = [message for _, message in rows[:cut]]
''',
          by=r'''
    older = context_for_model([message for _, message in rows[:cut]])
'''),
    Wrong(lab='12.2', name='maybe_compact handing over the log after a failed summary',
          rule='When maybe_compact has compacted, the harness holds what the log now replays; when compact returned False, nothing was compacted and the harness keeps its record.',
          where='Build: summarise and keep, item 6 (hunt round 8, 12.2-05)',
          names='keeps the very record it had',
          replace=r'''
    if compacted:
        harness.replace_messages(log.replay())  # the one door in, shut during a run
''',
          by=r'''
    harness.replace_messages(log.replay())  # the log is the truth either way
'''),
    Wrong(lab='12.2', name="maybe_compact measuring the request's view",
          rule="maybe_compact compacts only when estimate_tokens of the harness's messages plus reserve is over window: the record is measured, a failed empty reply included, not the request's view of it.",
          where='Build: summarise and keep, item 6 (hunt round 8, 12.2-06)',
          names="harness's messages that are measured",
          replace=r'''
    if estimate_tokens(harness.messages) + reserve <= window:
''',
          by=r'''
    if estimate_tokens(context_for_model(list(harness.messages))) + reserve <= window:
'''),
    Wrong(lab='12.2', name='maybe_compact also counting messages',
          rule="maybe_compact compacts only when estimate_tokens of the harness's messages plus reserve is over window, never on a count of messages.",
          where='Build: summarise and keep, item 6; the prediction on what the harness should count (hunt round 8, 12.2-31)',
          names='never on a count of messages',
          replace=r'''
    if estimate_tokens(harness.messages) + reserve <= window:
''',
          by=r'''
    if len(harness.messages) <= 60 and estimate_tokens(harness.messages) + reserve <= window:
'''),
    Wrong(lab='12.2', name='rows() stripping the summary',
          rule='rows() reads a compaction as a user message whose content is the heading, a newline, and the summary as logged.',
          where='Build: summarise and keep, item 3 (hunt round 8, 12.2-07)',
          names='changes nothing in it',
          replace=r'''
                summary = user_message("Previous conversation summary:\n" + entry["summary"])
''',
          by=r'''
                summary = user_message("Previous conversation summary:\n" +
                                       entry["summary"].strip())
'''),
    Wrong(lab='12.2', name="rows() applying compactions after reading every message",
          rule='A compaction entry is read as a rule over the pairs read before it: a message logged after it follows its summary.',
          where='Build: summarise and keep, item 3 (hunt round 8, 12.2-40)',
          names='does not reach the messages that come after it',
          replace=r'''
        table = []
        for entry in self.entries():
            if entry["type"] == "compaction":
''',
          by=r'''
        table = []
        entries = self.entries()  # every message first, then the compactions over them all
        ordered = [e for e in entries if e["type"] == "message"] + \
            [e for e in entries if e["type"] == "compaction"]
        for entry in ordered:
            if entry["type"] == "compaction":
'''),
    Wrong(lab='12.2', name="summarize collapsing the summary's whitespace",
          rule="summarize returns the reply's text with the spaces around it stripped, and nothing inside it changed.",
          where='Build: summarise and keep, item 4 (hunt round 8, 12.2-08)',
          names='every character inside it',
          replace=r'''
    return text


def find_cut(rows, keep_recent_tokens):
''',
          by=r'''
    return " ".join(text.split())


def find_cut(rows, keep_recent_tokens):
'''),
    Wrong(lab='12.2', name='summarize cutting a long summary short',
          rule="summarize returns the reply's text with the spaces around it stripped, whatever its length.",
          where='Build: summarise and keep, item 4 (hunt round 8, 12.2-09)',
          names='whatever its length',
          replace=r'''
    return text


def find_cut(rows, keep_recent_tokens):
''',
          by=r'''
    return text[:400]  # a summary is short


def find_cut(rows, keep_recent_tokens):
'''),
    Wrong(lab='12.2', name='summarize remembering earlier summaries',
          rule='summarize makes exactly one request each time it is called, and returns what that reply says.',
          where='Build: summarise and keep, item 4 (hunt round 8, 12.2-10)',
          names='remembering no earlier summary',
          replace=r'''
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
    reply = model.complete(SUMMARY_SYSTEM, [wrapped], [])
''',
          by=r'''
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
    key = (id(model), wrapped["content"])
    if key in _SUMMARIES and _SUMMARIES[key][0] is model:  # asked before: the same answer, free
        return _SUMMARIES[key][1]
    reply = model.complete(SUMMARY_SYSTEM, [wrapped], [])
''',
          also=((r'''
    return text


def find_cut(rows, keep_recent_tokens):
''', r'''
    _SUMMARIES[key] = (model, text)  # the model kept alive, so that its id is never reused
    return text


_SUMMARIES = {}


def find_cut(rows, keep_recent_tokens):
'''),)),
    Wrong(lab='12.2', name='replace_messages refused while a finished run is held',
          rule='Between runs, replace_messages is allowed: a run that is over is no run, whoever still holds it.',
          where='Build: summarise and keep, item 1 (hunt round 8, 12.2-13)',
          names='not whether someone still holds',
          replace=r'''
        if self.is_running:
            raise RuntimeError("cannot replace messages during a run")
''',
          by=r'''
        if self._run_now is not None and self._run_now() is not None:
            raise RuntimeError("cannot replace messages during a run")
'''),
    Wrong(lab='12.1', name='the estimate counting bytes',
          rule="estimate_tokens is the length of render's text, in characters, divided by four, rounded down.",
          where='Build: where to cut, item 2 (hunt round 8, 12.1-01)',
          names='characters, not bytes',
          replace=r'''
    return len(render(messages)) // 4
''',
          by=r'''
    return len(render(messages).encode("utf-8")) // 4
'''),
    Wrong(lab='12.1', name='the estimate of the text stripped',
          rule="estimate_tokens is the length of render's text divided by four, rounded down: every character of it, spaces at its ends too.",
          where='Build: where to cut, item 2 (hunt round 8, 12.1-02)',
          names='spaces at either end of the text count too',
          replace=r'''
    return len(render(messages)) // 4
''',
          by=r'''
    return len(render(messages).strip()) // 4  # no stray spaces at the ends
'''),
    Wrong(lab='12.1', name='estimates remembered by the message object',
          rule='estimate_tokens is the length of the text the messages make now, divided by four: a message changed in place costs what it says now.',
          where='Build: where to cut, item 2 (hunt round 8, 12.1-07)',
          names='measured by what it says now',
          replace=r'''
    return len(render(messages)) // 4
''',
          by=r'''
    total = 0
    for message in messages:
        if id(message) not in _COSTS:  # each message rendered once
            _COSTS[id(message)] = (message, len(render([message])))
        total += _COSTS[id(message)][1]
    return (total + max(len(messages) - 1, 0)) // 4


_COSTS = {}
'''),
    Wrong(lab='12.1', name='long lists estimated from their newest 200 messages',
          rule="estimate_tokens is the length of render's text of every message given, however long the list, divided by four.",
          where='Build: where to cut, item 2 (hunt round 8, 12.1-25)',
          names='however long the list',
          replace=r'''
    return len(render(messages)) // 4
''',
          by=r'''
    if len(messages) <= 200:
        return len(render(messages)) // 4
    recent = len(render(messages[-200:]))  # the older ones cost about the same on average
    return (recent + recent * (len(messages) - 200) // 200) // 4
'''),
    Wrong(lab='12.1', name='a failed reply with no words written as its error_message',
          rule="An assistant message's words are its text and then its calls, nothing else: a failed reply with neither has empty words, not its error_message.",
          where='Build: where to cut, item 1 (hunt round 8, 12.1-03)',
          names='not its error_message',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        if not said.strip() and message.get("error_message"):
            said = message["error_message"]  # so the summariser sees why it failed
        out.append(f"{message['role']}: {said}".replace("\n", " "))
'''),
    Wrong(lab='12.1', name='messages with no words left out',
          rule='render writes one line per message: a message whose words are empty has its line too.',
          where='Build: where to cut, item 1 (hunt round 8, 12.1-04)',
          names='every message has its line, an empty one too',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        if not said.strip():
            continue  # an empty line tells the summariser nothing
        out.append(f"{message['role']}: {said}".replace("\n", " "))
'''),
    Wrong(lab='12.1', name='long contents cut short',
          rule="A user message's words, and a result's, are its content, all of it.",
          where='Build: where to cut, item 1 (hunt round 8, 12.1-05)',
          names='its whole content',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        if message["role"] != "assistant" and len(said) > 2000:
            said = said[:2000] + " ..."  # a long read would swamp the summary
        out.append(f"{message['role']}: {said}".replace("\n", " "))
'''),
    Wrong(lab='12.1', name='long arguments cut short',
          rule="A call is written as the tool's name followed by its arguments as JSON in brackets, all of them.",
          where='Build: where to cut, item 1 (hunt round 8, 12.1-06)',
          names='its whole arguments as json',
          replace=r'''
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
''',
          by=r'''
                f"{block['name']}({json.dumps(block['arguments'])[:200]}"
                f"{'...' * (len(json.dumps(block['arguments'])) > 200)})"
                for block in tool_calls(message)])
'''),
    Wrong(lab='12.1', name='render writing only the newest 500 messages',
          rule='render is the transcript as plain text, one line per message, however many messages there are.',
          where='Build: where to cut, item 1 (hunt round 8, 12.1-26)',
          names='however many there are',
          replace=r'''
    return "\n".join(out)
''',
          by=r'''
    if len(out) > 500:  # a huge transcript would not help a summariser
        out = [f"... {len(out) - 500} earlier messages"] + out[-500:]
    return "\n".join(out)
'''),
    Wrong(lab='12.1', name="a failed or stopped reply's calls left out",
          rule="An assistant message's words are its text and then each of its calls, whether or not the reply failed or was stopped.",
          where='Build: where to cut, item 1 (hunt round 8, 12.1-28)',
          names='its calls too when it failed or was stopped',
          replace=r'''
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
''',
          by=r'''
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)
                if message.get("stop_reason") not in ("error", "aborted")])  # they never ran
'''),
    Wrong(lab='12.1', name='an empty result marked',
          rule="A result's words are its content: an empty result has empty words, no mark.",
          where='Build: where to cut, item 1 (hunt round 8, 12.1-29)',
          names='no mark of an empty result',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        if message["role"] == "toolResult" and not said:
            said = "(no output)"  # so the summariser sees the tool printed nothing
        out.append(f"{message['role']}: {said}".replace("\n", " "))
'''),
    Wrong(lab='12.1', name='cuts remembered by the rows list',
          rule="find_cut's answer is worked out from the rows' messages each time it is asked: each row costs estimate_tokens([message]).",
          where='Build: where to cut, item 3 (hunt round 8, 12.1-08)',
          names='nor by the list or the message objects',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    key = (id(rows), len(rows), keep_recent_tokens)
    if key in _CUTS and _CUTS[key][0] is rows:
        return _CUTS[key][1]
    _CUTS[key] = (rows, _find_cut(rows, keep_recent_tokens))
    return _CUTS[key][1]


_CUTS = {}


def _find_cut(rows, keep_recent_tokens):
    left, start = keep_recent_tokens, len(rows)
'''),
    Wrong(lab='12.1', name="a summary not taken for a turn's beginning",
          rule="The cut is the first user message at or after the row where the count stops; a compaction's summary is a user message like any other, and find_cut looks at a message's role and size, never its words.",
          where='Build: where to cut, item 3 (hunt round 8, 12.1-09)',
          names='the summary is a user message like any other',
          replace=r'''
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
''',
          by=r'''
    roles = ["summary" if role == "user" and str(message["content"]).startswith(
        "Previous conversation summary:") else role for role, (_, message) in zip(roles, rows)]
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
'''),
    Wrong(lab='12.1', name='stepping back to the first of two user messages',
          rule="The cut is the first user message at or after the row where the count stops, even when a user message stands before it (a steer's U U).",
          where='Build: where to cut, item 3 (hunt round 8, 12.1-10)',
          names='so is a steer after a question',
          replace=r'''
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
''',
          by=r'''
    if "user" in roles[start:]:
        cut = roles.index("user", start)  # the next turn's beginning
        while cut > 0 and roles[cut - 1] == "user":
            cut -= 1  # the user messages before it go with it
        return cut
'''),
    Wrong(lab='12.1', name='the next user message looked for within 12 rows',
          rule='The cut is the first user message at or after the row where the count stops, however far on it stands.',
          where='Build: where to cut, item 3 (hunt round 8, 12.1-11)',
          names='however many rows later it stands',
          replace=r'''
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
''',
          by=r'''
    if "user" in roles[start:start + 12]:  # a turn is never longer than that
        return roles.index("user", start)  # the next turn's beginning
'''),
    Wrong(lab='12.1', name='the cut counted from the ids',
          rule="The answer is the index of the first row to keep, never worked out from the ids: after a compaction the first row's id is newer than those after it.",
          where='Build: where to cut, item 3 (hunt round 8, 12.1-12)',
          names='whatever its id says',
          replace=r'''
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
''',
          by=r'''
    def number(index):  # the row's place, from its id
        return int(rows[index][0].lstrip("e")) - int(rows[0][0].lstrip("e"))
    if "user" in roles[start:]:
        return number(roles.index("user", start))  # the next turn's beginning
'''),
    Wrong(lab='12.1', name='the walk back given up after 500 rows',
          rule='Counting back from the newest row, the count stops at the row where the kept total reaches keep_recent_tokens, however many rows that takes.',
          where='Build: where to cut, item 3 (hunt round 8, 12.1-27)',
          names='however many rows that takes',
          replace=r'''
        left -= estimate_tokens([rows[start][1]])
''',
          by=r'''
        left -= estimate_tokens([rows[start][1]])
        if len(rows) - start >= 500:
            left = min(left, 0)  # far enough back: the count stops here
'''),
    Wrong(lab='12.1', name='an unanswered question passed over for the turn before',
          rule='The cut is the first user message at or after the row where the count stops, even the newest row, a question not yet answered.',
          where='Build: where to cut, item 3 (hunt round 8, 12.1-30)',
          names='a question not yet answered',
          replace=r'''
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
''',
          by=r'''
    if "user" in roles[start:]:
        cut = roles.index("user", start)  # the next turn's beginning
        if cut == len(rows) - 1 and "user" in roles[:cut]:  # a lone question: keep a turn too
            cut = max(i for i in range(cut) if roles[i] == "user")
        return cut
'''),
    Wrong(lab='12.1', name='0 whenever the whole total is within the budget',
          rule='The answer is 0 when the total never reaches keep_recent_tokens; a budget the whole total reaches exactly is reached at the oldest row, and the cut moves on from there like any other.',
          where='Build: where to cut, item 3 (hunt round 8, probe 12.1-P3)',
          names='returns 0 if no row does',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    if sum(estimate_tokens([message]) for _, message in rows) <= keep_recent_tokens:
        return 0  # every row fits
    left, start = keep_recent_tokens, len(rows)
'''),
    Wrong(lab='12.1', name='render writing its one-line words back into the messages',
          rule='A newline inside a message becomes a space in the text only: render changes none of the messages it is given, which are the record.',
          where='Build: where to cut, item 1 (hunt round 8, probe 12.1-P5)',
          names='render changes none of the messages it is given',
          replace=r'''
        said = message["content"]
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
''',
          by=r'''
        said = message["content"]
        if message["role"] != "assistant":  # one line, and kept so for next time
            said = message["content"] = said.replace("\n", " ")
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
'''),
    Wrong(lab='12.1', name="a reply's text blocks joined with spaces",
          rule="An assistant message's text is text_of(message), its text blocks joined as they are, then each of its calls.",
          where='Build: where to cut, item 1 (hunt round 8, probe 12.1-P1)',
          names='the blocks joined as they are',
          replace=r'''
            said = " ".join([text_of(message)] + [
''',
          by=r'''
            said = " ".join([" ".join(block["text"] for block in message["content"]
                                      if block["type"] == "text")] + [
'''),
    Wrong(lab='12.1', name='a negative budget refused',
          rule='keep_recent_tokens of 0 is a budget, keeping the least, never everything, and so does a negative one: never an error.',
          where='Build: where to cut, item 3 (hunt round 8, probe 12.1-P4)',
          names='a budget of 0, or below, keeps the least',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    if keep_recent_tokens < 0:
        raise ValueError("keep_recent_tokens must be 0 or more")
    left, start = keep_recent_tokens, len(rows)
'''),
    Wrong(lab='12.1', name='every line break turned into a space',
          rule='Only a newline becomes a space in render: a carriage return, or any other line break Python knows, stays as it is.',
          where='Build: where to cut, item 1 (hunt round 8, probe 12.1-P2)',
          names='stays as it is',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        out.append(" ".join(f"{message['role']}: {said}".split("\n")).translate(
            {ord(c): " " for c in "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}))  # every break
'''),
    Wrong(lab='12.2', name='summarize refusing no messages without asking',
          rule="summarize makes exactly one request, even when messages is empty: what is worth summarising is compact's to decide, not summarize's.",
          where='Build: summarise and keep, item 4 (hunt round 8, probe 12.2-27)',
          names='even when messages is empty',
          replace=r'''
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
''',
          by=r'''
    if not messages:  # nothing to summarise: why ask?
        raise RuntimeError("no summary: nothing to summarise")
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
'''),
    Wrong(lab='12.2', name='an empty error_message given as the reason',
          rule='REASON is the reply\'s error_message, or "the reply was empty" when it has none, or an empty one ("" or None).',
          where='Build: summarise and keep, item 4 (hunt round 8, 12.2-35)',
          names='An empty error_message is none',
          replace=r'''
        reason = reply.get("error_message") or "the reply was empty"  # none, None or ""
''',
          by=r'''
        reason = reply.get("error_message", "the reply was empty")
'''),
    Wrong(lab='12.2', name='any reply but a plain stop refused as a summary',
          rule='Any reply with text that did not fail and was not stopped is a summary, a "toolUse" one included: the summariser was offered no tools, so its calls are ignored.',
          where='Build: summarise and keep, item 4 (hunt round 8, probe 12.2-38)',
          names='so its call is ignored',
          replace=r'''
    if not text or reply["stop_reason"] in ("error", "aborted"):
''',
          by=r'''
    if not text or reply["stop_reason"] != "stop":  # only a plain answer is a summary
'''),
    Wrong(lab='12.2', name='the first kept id read again after the summary',
          rule='The first kept id is the id of the row at the cut in the reading that was summarised.',
          where='Build: summarise and keep, item 5 (hunt round 8, probe 12.2-39)',
          names='in the reading that was summarised',
          replace=r'''
    log.append_compaction(summary, rows[cut][0])
''',
          by=r'''
    log.append_compaction(summary, log.rows()[cut][0])  # the log as it is now
'''),
    Wrong(lab='12.2', name='maybe_compact refusing a record the log does not end with',
          rule="maybe_compact does not compare the record with the log: it measures the one and compacts the other, and keeping them in step is the caller's business.",
          where='Build: summarise and keep, item 6 (hunt round 8, probe 12.2-30)',
          names='does not compare the record with the log',
          replace=r'''
        raise RuntimeError("cannot compact during a run")
''',
          by=r'''
        raise RuntimeError("cannot compact during a run")
    replayed = log.replay()
    if replayed[len(replayed) - len(harness.messages):] != list(harness.messages):
        raise RuntimeError("the harness and the log disagree")
'''),
    Wrong(lab='12.1', name='a run of newlines written as one space',
          rule='A newline inside a message becomes a space, each one its own: a blank line is two spaces.',
          where='Build: where to cut, item 1 (hunt round 11, 12.1-01)',
          names='each newline its own space',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        line = f"{message['role']}: {said}"
        while "\n\n" in line:  # a blank line is still one break in the text
            line = line.replace("\n\n", "\n")
        out.append(line.replace("\n", " "))
'''),
    Wrong(lab='12.1', name='the paragraph and file separators turned into spaces',
          rule='Only a newline becomes a space in render: a carriage return, or any other line break Python knows, stays as it is.',
          where='Build: where to cut, item 1 (hunt round 11, 12.1-02)',
          names='stays as it is',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        out.append(f"{message['role']}: {said}".translate(
            {ord(c): " " for c in "\n\u2029\x0c\x1c\x1d\x1e"}))  # the rarer breaks too
'''),
    Wrong(lab='12.1', name='tabs written as spaces',
          rule="A user message's words, and a result's, are its content, its tabs included: only a newline becomes a space.",
          where='Build: where to cut, item 1 (hunt round 11, 12.1-03)',
          names='its tabs as well',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " ").replace("\t", " "))
'''),
    Wrong(lab='12.1', name='contents over 200,000 characters cut short',
          rule="A user message's words, and a result's, are its content, all of it, however long.",
          where='Build: where to cut, item 1 (hunt round 11, 12.1-04)',
          names='however long',
          replace=r'''
        said = message["content"]
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
''',
          by=r'''
        said = message["content"]
        if message["role"] != "assistant" and len(said) > 200_000:
            said = said[:200_000] + "..."  # nobody reads past that
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
'''),
    Wrong(lab='12.1', name="a long message's line kept in the message",
          rule='render changes none of the messages it is given, which are the record: it keeps no line of its own in them.',
          where='Build: where to cut, item 1 (hunt round 11, 12.1-05)',
          names='render changes none of the messages it is given',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        if len(str(message["content"])) > 20_000:  # a big one: write it once, keep the line
            if "_line" not in message:
                message["_line"] = f"{message['role']}: {said}".replace("\n", " ")
            out.append(message["_line"])
            continue
        out.append(f"{message['role']}: {said}".replace("\n", " "))
'''),
    Wrong(lab='12.1', name='long contents made one line in place',
          rule='A newline inside a message becomes a space in the text only: render changes none of the messages it is given, however long.',
          where='Build: where to cut, item 1 (hunt round 11, 12.1-06)',
          names='render changes none of the messages it is given',
          replace=r'''
        said = message["content"]
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
''',
          by=r'''
        said = message["content"]
        if message["role"] != "assistant" and len(said) > 1000:  # so next time costs nothing
            said = message["content"] = said.replace("\n", " ")
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
'''),
    Wrong(lab='12.1', name='the walk back given up after 2,000 rows',
          rule='Counting back from the newest row, the count stops at the row where the kept total reaches keep_recent_tokens, however many rows that takes; only when no row reaches it is the answer 0.',
          where='Build: where to cut, item 3 (hunt round 11, 12.1-07)',
          names='however many rows that takes',
          replace=r'''
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
''',
          by=r'''
    while start > max(len(rows) - 2000, 0) and left > 0:  # far enough back for any session
'''),
    Wrong(lab='12.1', name='the cut found again through the ids',
          rule='The answer is the index of the first row to keep, never worked out from the ids: two logs joined both number from e1.',
          where='Build: where to cut, item 3 (hunt round 11, 12.1-08)',
          names='never worked out from the ids',
          replace=r'''
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
''',
          by=r'''
    place = {key: index for index, (key, _) in enumerate(rows)}
    if "user" in roles[start:]:
        return place[rows[roles.index("user", start)][0]]  # the row, by its id
'''),
    Wrong(lab='12.1', name="estimates remembered by the message, its role and its content's size",
          rule='estimate_tokens is the length of the text the messages make now, divided by four: a message changed in place costs what it says now, whatever its size in Python.',
          where='Build: where to cut, item 2 (hunt round 11, 12.1-09)',
          names='never remembered by the message object',
          replace=r'''
    return len(render(messages)) // 4
''',
          by=r'''
    if len(messages) == 1:  # one message: remember it by what it is and how big
        key = (id(messages[0]), messages[0]["role"], len(str(messages[0]["content"])))
        if key not in _ESTIMATES:
            _ESTIMATES[key] = len(render(messages)) // 4
        return _ESTIMATES[key]
    return len(render(messages)) // 4


_ESTIMATES = {}
'''),
    Wrong(lab='12.1', name='the cut found again among equal messages',
          rule='The cut is the first user message at or after the row where the count stops, its index in the list: an earlier message with the same words is not that row.',
          where='Build: where to cut, item 3 (hunt round 11, probe 12.1-21)',
          names='asked again, word for word',
          replace=r'''
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
''',
          by=r'''
    messages = [message for _, message in rows]
    if "user" in roles[start:]:
        return messages.index(messages[roles.index("user", start)])  # where that message is
'''),
    Wrong(lab='12.1', name='an empty user message not taken for a turn',
          rule="The cut is the first user message at or after the row where the count stops: find_cut looks at a row's role and its size, never its words.",
          where='Build: where to cut, item 3 (hunt round 11, 12.1-26)',
          names='a user message that says nothing',
          replace=r'''
    roles = [message["role"] for _, message in rows]
''',
          by=r'''
    roles = [message["role"] if message["role"] != "user" or str(message["content"]).strip()
             else "nothing asked" for _, message in rows]
'''),
    Wrong(lab='12.1', name="an assistant's text stripped",
          rule="An assistant message's words are its text (text_of(message), its text blocks joined as they are), spaces around it included, and then its calls.",
          where='Build: where to cut, item 1 (hunt round 11, 12.1-27)',
          names="the spaces around an assistant's text",
          replace=r'''
            said = " ".join([text_of(message)] + [
''',
          by=r'''
            said = " ".join([text_of(message).strip()] + [
'''),
    Wrong(lab='12.1', name='the next user message looked for within 64 rows',
          rule='The cut is the first user message at or after the row where the count stops, however far on it stands.',
          where='Build: where to cut, item 3 (hunt round 11, 12.1-28)',
          names='however many rows later it stands',
          replace=r'''
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
''',
          by=r'''
    if "user" in roles[start:start + 64]:  # further on is another conversation
        return roles.index("user", start)  # the next turn's beginning
'''),
    Wrong(lab='12.1', name='long lists estimated from their first 100 messages',
          rule="estimate_tokens is the length of render's text of every message given, however long the list, divided by four.",
          where='Build: where to cut, item 2 (hunt round 11, 12.1-29)',
          names='however long the list',
          replace=r'''
    return len(render(messages)) // 4
''',
          by=r'''
    if len(messages) > 1000:  # a sample is close enough for so many
        return len(render(messages[:100])) * len(messages) // 400
    return len(render(messages)) // 4
'''),
    Wrong(lab='12.1', name="each row's estimate written into its message",
          rule="Like `render`, `find_cut` changes none of the rows it is given: their messages are the record.",
          where='lab 12.1, Build item 3: "Like `render`, `find_cut` changes none of the rows it is given"; found by a release-only reader (round 11, probe 12.1-22)',
          names='changes none of the rows',
          replace=r'''
        left -= estimate_tokens([rows[start][1]])
''',
          by=r'''
        rows[start][1]["_tokens"] = estimate_tokens([rows[start][1]])  # kept for the next cut
        left -= rows[start][1]["_tokens"]
'''),
    # hunt round 12 (reader r56), lab 12.2
    Wrong(lab='12.2', name='replace_messages refusing a record that opens with a reply',
          rule='Between runs, the harness\'s record becomes a new list of the messages given, whatever they are: refusing during a run is replace_messages\' only refusal.',
          where='Build: summarise and keep, item 1 (hunt round 12, 12.2-22)',
          names='its only refusal',
          replace=r"""
        self._messages = list(messages)
""",
          by=r"""
        messages = list(messages)
        if messages and messages[0]["role"] != "user":
            raise ValueError("a record must open with a user message")
        self._messages = messages
"""),
    Wrong(lab='12.2', name='append_compaction refusing an empty summary',
          rule='append_compaction adds one entry of type "compaction" that holds the summary it is given, an empty one included.',
          where='Build: summarise and keep, item 2 (hunt round 12, 12.2-28)',
          names='whatever it holds',
          replace=r"""
        return self._append({"type": "compaction", "summary": summary,
""",
          by=r"""
        if not summary.strip():
            raise ValueError("a compaction needs a summary")
        return self._append({"type": "compaction", "summary": summary,
"""),
    Wrong(lab='12.2', name='a summary row never kept by a later compaction',
          rule='A later compaction sees an earlier summary as an ordinary pair: a first_kept_id that is a summary row\'s id keeps that row and the rows after it.',
          where='Build: summarise and keep, item 3 (hunt round 12, 12.2-23)',
          names='sees an earlier summary as an ordinary pair',
          replace=r"""
                start = next((i for i, (key, _) in enumerate(table)
                              if key == entry["first_kept_id"]), len(table))
""",
          by=r"""
                start = next((i for i, (key, message) in enumerate(table)
                              if key == entry["first_kept_id"] and not str(
                                  message["content"]).startswith(
                                      "Previous conversation summary:\n")), len(table))
"""),
    Wrong(lab='12.2', name='rows() dropping summary rows before a later compaction',
          rule='A later compaction sees an earlier summary as an ordinary pair: a first_kept_id that is a summary row\'s id keeps that row and the rows after it, and a row is a summary by its place, not by its words.',
          where='Build: summarise and keep, item 3 (hunt round 21, 12.2-10)',
          names='sees an earlier summary as an ordinary pair',
          replace=r"""
                start = next((i for i, (key, _) in enumerate(table)
                              if key == entry["first_kept_id"]), len(table))
""",
          by=r"""
                table = [(k, m) for k, m in table if not str(m.get("content", "")).startswith(
                    "Previous conversation summary:")] or table
                start = next((i for i, (key, _) in enumerate(table)
                              if key == entry["first_kept_id"]), len(table))
"""),
    Wrong(lab='12.2', name='rows() passing over a compaction with an empty summary',
          rule='A compaction entry is read as a rule over the pairs read before it, whatever its summary holds, an empty one included.',
          where='Build: summarise and keep, item 3 (hunt round 12, 12.2-25)',
          names='reads every compaction entry as a rule',
          replace=r"""
            if entry["type"] == "compaction":
""",
          by=r"""
            if entry["type"] == "compaction" and entry["summary"]:  # an empty one says nothing
"""),
    Wrong(lab='12.2', name='rows() leaving out a heading the summary already has',
          rule='The summary row\'s content is "Previous conversation summary:", a newline, and the summary as logged, a summary that opens with those words included.',
          where='Build: summarise and keep, item 3 (hunt round 12, 12.2-27)',
          names='already opens with the heading',
          replace=r"""
                summary = user_message("Previous conversation summary:\n" + entry["summary"])
""",
          by=r"""
                head = "Previous conversation summary:\n"
                summary = user_message(entry["summary"] if entry["summary"].startswith(head)
                                       else head + entry["summary"])  # never the heading twice
"""),
    Wrong(lab='12.2', name='summarize stripping only spaces, tabs and newlines',
          rule='summarize returns the reply\'s text with the spaces around it stripped: every kind of whitespace, not only the three most common.',
          where='Build: summarise and keep, item 4 (hunt round 12, 12.2-09)',
          names='and of nothing else',
          replace=r"""
    text = text_of(reply).strip()
""",
          by=r"""
    text = text_of(reply).strip(" \n\t")
"""),
    Wrong(lab='12.2', name='summarize sending the newest 20,000 characters',
          rule='summarize sends a single user message holding render(messages), all of it, between the <conversation> lines.',
          where='Build: summarise and keep, item 4 (hunt round 12, 12.2-10)',
          names='however long',
          replace=r"""
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
""",
          by=r"""
    text = render(messages)[-20_000:]  # the newest part: the request always fits
    wrapped = user_message(f"<conversation>\n{text}\n</conversation>")
"""),
    Wrong(lab='12.2', name='summarize cutting a summary over 8,000 characters short',
          rule='summarize returns the reply\'s text with the spaces around it stripped, whatever its length.',
          where='Build: summarise and keep, item 4 (hunt round 12, 12.2-12)',
          names='whatever its length',
          replace=r"""
        raise RuntimeError(f"no summary: {reason}")
    return text
""",
          by=r"""
        raise RuntimeError(f"no summary: {reason}")
    return text[:8000]  # a rambling summariser must not fill the window again
"""),
    Wrong(lab='12.2', name='compact taking any RuntimeError for a failed summary',
          rule='compact returns False for three things only, summarize raising RuntimeError among them; a RuntimeError from the log or the workspace goes through to the caller.',
          where='Build: summarise and keep, item 5 (hunt round 12, 12.2-07)',
          names="a RuntimeError that is not summarize's",
          replace=r"""
    try:
        summary = summarize(model, older)
    except RuntimeError:
        return False
    log.append_compaction(summary, rows[cut][0])
""",
          by=r"""
    try:
        summary = summarize(model, older)
        log.append_compaction(summary, rows[cut][0])
    except RuntimeError:  # no summary, or nowhere to keep it: nothing compacted
        return False
"""),
    Wrong(lab='12.2', name='compact refusing a summary longer than what it replaces',
          rule='Otherwise compact appends one compaction entry and returns True: a summary longer than the rows it summarises is no fourth reason for False.',
          where='Build: summarise and keep, item 5 (hunt round 12, 12.2-11)',
          names='is kept all the same',
          replace=r"""
    except RuntimeError:
        return False
    log.append_compaction(summary, rows[cut][0])
""",
          by=r"""
    except RuntimeError:
        return False
    if len(summary) >= len(render(older)):
        return False  # a summary no shorter than the rows saves nothing
    log.append_compaction(summary, rows[cut][0])
"""),
    Wrong(lab='12.2', name='compact remembering summaries by model and rows',
          rule='Each compaction asks summarize, which makes exactly one request and remembers no earlier summary.',
          where='Build: summarise and keep, items 4 and 5 (hunt round 12, 12.2-13)',
          names='remembers no earlier summary',
          replace=r"""
    try:
        summary = summarize(model, older)
    except RuntimeError:
        return False
""",
          by=r"""
    key = (model, render(older))  # the model itself, held: no later model takes its place
    try:
        summary = _SUMMARIES.get(key) or summarize(model, older)
    except RuntimeError:
        return False
    _SUMMARIES[key] = summary
""",
          also=((r"""
def compact(log, model, *, keep_recent_tokens):
""", r"""
_SUMMARIES = {}  # (model, the rendered rows) -> the summary it gave


def compact(log, model, *, keep_recent_tokens):
"""),)),
    Wrong(lab='12.2', name='maybe_compact refused while a finished run is held',
          rule='During a run maybe_compact raises RuntimeError; what counts is whether a run is going, is_running, not whether its caller still holds a finished one.',
          where='Build: summarise and keep, item 6 (hunt round 12, 12.2-02)',
          names='not whether someone still holds a finished one',
          replace=r"""
    if harness.is_running:
        raise RuntimeError("cannot compact during a run")
""",
          by=r"""
    if harness.is_running or (harness._run_now and harness._run_now()):  # a run still held
        raise RuntimeError("cannot compact during a run")
"""),
    Wrong(lab='12.2', name='maybe_compact compacting each harness once',
          rule='maybe_compact compacts whenever estimate_tokens of the harness\'s messages plus reserve is over window, however often it compacted that harness before.',
          where='Build: summarise and keep, item 6 (hunt round 12, 12.2-03)',
          names='however often the harness was compacted before',
          replace=r"""
    if estimate_tokens(harness.messages) + reserve <= window:
        return False  # there is still room
""",
          by=r"""
    if estimate_tokens(harness.messages) + reserve <= window or harness in _COMPACTED:
        return False  # there is still room, or it was compacted already
""",
          also=((r"""
        harness.replace_messages(log.replay())  # the one door in, shut during a run
""", r"""
        harness.replace_messages(log.replay())  # the one door in, shut during a run
        _COMPACTED.add(harness)
"""), (r"""
def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):
""", r"""
_COMPACTED = weakref.WeakSet()  # harnesses compacted once already


def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):
"""))),
    Wrong(lab='12.2', name='maybe_compact emptying the queues',
          rule='When it has compacted, maybe_compact hands the harness what the log replays and changes nothing else: queues outlive it, and a message leaves its queue only once it is on the record (lesson 9).',
          where='Build: summarise and keep, item 6; lesson 9 (hunt round 12, 12.2-04)',
          names='queues outlive it',
          replace=r"""
        harness.replace_messages(log.replay())  # the one door in, shut during a run
""",
          by=r"""
        harness.replace_messages(log.replay())  # the one door in, shut during a run
        harness._steering_queue.clear()  # a fresh start
        harness._follow_up_queue.clear()
"""),
    Wrong(lab='12.2', name="maybe_compact keeping its own record's tail",
          rule='When it has compacted, the harness holds what the log now replays: the summary and the log\'s kept rows, not the summary and a tail of its own record.',
          where='Build: summarise and keep, item 6 (hunt round 12, 12.2-08)',
          names='not a tail of its own record',
          replace=r"""
        harness.replace_messages(log.replay())  # the one door in, shut during a run
""",
          by=r"""
        rows = log.rows()  # the new summary, then the kept rows: keep the record's own tail
        kept = list(harness.messages)[len(harness.messages) - (len(rows) - 1):]
        harness.replace_messages([rows[0][1], *kept])
"""),
    Wrong(lab='12.2', name='a negative reserve counted as 0',
          rule='maybe_compact compacts only when estimate_tokens of the harness\'s messages plus reserve is over window: the reserve is added as it is, a negative one included.',
          where='Build: summarise and keep, item 6 (hunt round 12, 12.2-24)',
          names='a negative reserve is added as it is',
          replace=r"""
    if estimate_tokens(harness.messages) + reserve <= window:
""",
          by=r"""
    if estimate_tokens(harness.messages) + max(reserve, 0) <= window:
"""),
    Wrong(lab='12.2', name='maybe_compact measuring the newest 1,000 messages',
          rule='maybe_compact measures estimate_tokens of the harness\'s messages, all of them, however many there are.',
          where='Build: summarise and keep, item 6 (hunt round 12, 12.2-26)',
          names='however many there are',
          replace=r"""
    if estimate_tokens(harness.messages) + reserve <= window:
""",
          by=r"""
    if estimate_tokens(harness.messages[-1000:]) + reserve <= window:  # for speed
"""),
    # Hunt round 12 (reader r56), design 12.2-06.
    Wrong(lab='12.2', name='rows() cached by the count of entries',
          rule="Each call of rows() reads the log as it is now and returns a new list: a caller that changes the list it was given changes no later reading.",
          where='Build item 3 of lab 12.2: "Each call of `rows()` reads the log as it is now and returns a new list"; hunt round 12, 12.2-06 (r56)',
          names='changes no later reading',
          replace=r"""
            elif entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        return table
""",
          by=r"""
            elif entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        cached = self.__dict__.setdefault("_rows", {})  # entries read -> the table they gave
        return cached.setdefault(len(self.entries()), table)
"""),
    # Hunt round 15 (reader r75), lab 12.2.
    Wrong(lab='12.2', name='summarize sending the first 400,000 characters',
          rule='summarize sends a single user message holding render(messages), all of it, between the <conversation> lines.',
          where='Build: summarise and keep, item 4: "a single user message holding `render(messages)` between a line `<conversation>` and a line `</conversation>`" (hunt round 15, 12.2-01)',
          names='however long',
          replace=r"""
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
""",
          by=r"""
    wrapped = user_message(f"<conversation>\n{render(messages)[:400_000]}\n</conversation>")
"""),
    Wrong(lab='12.2', name='summarize cutting a summary over 100,000 characters short',
          rule="summarize returns the reply's text with the spaces around it stripped, whatever its length.",
          where="Build: summarise and keep, item 4: \"It returns the reply's text with the white space around it stripped\" (hunt round 15, 12.2-02)",
          names='whatever its length',
          replace=r"""
        raise RuntimeError(f"no summary: {reason}")
    return text
""",
          by=r"""
        raise RuntimeError(f"no summary: {reason}")
    return text[:100_000]  # a runaway summariser must not fill the window again
"""),
    Wrong(lab='12.2', name='replace_messages repairing the record it is given',
          rule="Between runs the harness's record becomes the messages given, whatever they are: an unanswered call or a stray result is kept as it is, and the view repairs each request (lesson 10).",
          where='Build: summarise and keep, item 1: "Between runs, the harness\'s record becomes a new list of `messages`" (hunt round 15, 12.2-03)',
          names='it repairs nothing',
          replace=r"""
        self._messages = list(messages)
""",
          by=r"""
        self._messages = repair_tool_history(list(messages))  # a record that is always whole
"""),
    Wrong(lab='12.2', name='maybe_compact keeping estimates by record length',
          rule="maybe_compact measures estimate_tokens of the messages the harness holds at each call, not an estimate kept from an earlier record of the same length.",
          where='Build: summarise and keep, item 6: "It compacts only when `estimate_tokens` of the harness\'s messages plus `reserve` is over `window`" (hunt round 15, 12.2-06)',
          names='not an estimate kept',
          replace=r"""
    if estimate_tokens(harness.messages) + reserve <= window:
        return False  # there is still room
""",
          by=r"""
    known = _ESTIMATES.setdefault(harness, {})  # the record's length -> its estimate
    if len(harness.messages) not in known:
        known[len(harness.messages)] = estimate_tokens(harness.messages)
    if known[len(harness.messages)] + reserve <= window:
        return False  # there is still room
""",
          also=((r"""
def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):
""", r"""
_ESTIMATES = weakref.WeakKeyDictionary()  # harness -> {record length: estimate}


def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):
"""),)),
    Wrong(lab='12.2', name="summarize stripping the error_message",
          rule="REASON is the reply's error_message as it came, whitespace included; only a missing or empty one (\"\" or None) gives \"the reply was empty\".",
          where='Build: summarise and keep, item 4: "where REASON is the reply\'s `error_message`" (hunt round 15, 12.2-07)',
          names='whitespace included',
          replace=r"""
        reason = reply.get("error_message") or "the reply was empty"  # none, None or ""
""",
          by=r"""
        reason = (reply.get("error_message") or "").strip() or "the reply was empty"
"""),
    Wrong(lab='12.2', name='a first_kept_id matched in any case and spacing',
          rule="A compaction keeps from the pair whose id is its first_kept_id exactly; an id that matches none, one in other letters or with spaces around it included, keeps none.",
          where='Build: summarise and keep, item 3: "If no pair has that id, none are kept." (hunt round 15, 12.2-11)',
          names='not one like it',
          replace=r"""
                start = next((i for i, (key, _) in enumerate(table)
                              if key == entry["first_kept_id"]), len(table))
""",
          by=r"""
                wanted = str(entry["first_kept_id"]).strip().lower()  # forgiving of the writer
                start = next((i for i, (key, _) in enumerate(table)
                              if key.strip().lower() == wanted), len(table))
"""),
    Wrong(lab='12.2', name='append_compaction writing its line in two appends',
          rule="Every kind of entry is written by _append, one line in one append: a compaction's line and its newline written apart leave a torn entry when the power goes between them.",
          where='lesson 11, Build item 2 (every kind of entry is written by _append); lesson 12, Build: summarise and keep, item 2 (hunt round 15, 12.2-12)',
          names='one line written by one append',
          replace=r"""
        return self._append({"type": "compaction", "summary": summary,
                             "first_kept_id": first_kept_id})
""",
          by=r"""
        entry = {"id": f"e{len(self.entries()) + 1}", "type": "compaction", "summary": summary,
                 "first_kept_id": first_kept_id}
        self.ws.append_text(self.path, json.dumps(entry))  # the entry, then its line's end
        self.ws.append_text(self.path, "\n")
        return entry["id"]
"""),
    Wrong(lab='12.2', name='rows() cutting a summary over 100,000 characters short',
          rule='The summary row\'s content is "Previous conversation summary:", a newline, and the summary as logged, whatever its length.',
          where='Build: summarise and keep, item 3: "a newline, and the summary" (hunt round 15, 12.2-18)',
          names='read back whatever its length',
          replace=r"""
                summary = user_message("Previous conversation summary:\n" + entry["summary"])
""",
          by=r"""
                summary = user_message("Previous conversation summary:\n" +
                                       entry["summary"][:100_000])  # a runaway summariser
"""),
    Wrong(lab='12.2', name='summarize stripping only the whitespace a test draws',
          rule="summarize returns the reply's text with the spaces around it stripped: every character str.isspace() knows, not a list of some.",
          where="Build: summarise and keep, item 4: \"It returns the reply's text with the white space around it stripped\" (hunt round 15, 12.2-19)",
          names='and of nothing else',
          replace=r"""
    text = text_of(reply).strip()
""",
          by=r"""
    text = text_of(reply).strip(" \t\n\r\v\f\u00a0\u2003\u3000")
"""),
    Wrong(lab='12.2', name="rows() cached by the file's length",
          rule="Each call of rows() reads the log as it is now: a file rewritten to a text of the same length is read as it now is.",
          where='Build: summarise and keep, item 3: "Each call of `rows()` reads the log as it is now and returns a new list" (hunt round 15, 12.2-21)',
          names='a reading sees the file as it is',
          replace=r"""
        table = []
        for entry in self.entries():
""",
          by=r"""
        size = len(self.ws.read_text(self.path)) if self.ws.exists(self.path) else -1
        cached = self.__dict__.setdefault("_by_size", {})  # the file's length -> its rows
        if size in cached:
            return list(cached[size])
        table = []
        for entry in self.entries():
""",
          also=((r"""
            elif entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        return table
""", r"""
            elif entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        cached[size] = list(table)
        return table
"""),)),
    Wrong(lab='12.2', name='compact summarising a second reading',
          rule="The rows compact summarises and the first kept id come from one reading: the id of the row at the cut in the reading that was summarised.",
          where='Build: summarise and keep, item 5: "The first kept id is the id of the row at the cut in the reading that was summarised." (hunt round 15, 12.2-22)',
          names='a second reading',
          replace=r"""
    older = [message for _, message in rows[:cut]]
""",
          by=r"""
    older = log.replay()[:cut]  # the messages, read again
"""),
    Wrong(lab='12.2', name='maybe_compact passing over a record it just compacted',
          rule="maybe_compact compacts whenever estimate_tokens of the harness's messages plus reserve is over window, whatever it did before: a record left as its last compaction left it is measured like any other.",
          where='Build: summarise and keep, item 6: "It compacts only when `estimate_tokens` of the harness\'s messages plus `reserve` is over `window`" (hunt round 15, 12.2-23)',
          names='whatever it did before',
          replace=r"""
    if estimate_tokens(harness.messages) + reserve <= window:
        return False  # there is still room
""",
          by=r"""
    if estimate_tokens(harness.messages) + reserve <= window:
        return False  # there is still room
    if _LEFT.get(harness) == len(harness.messages):
        return False  # as the last compaction left it: nothing new to summarise
""",
          also=((r"""
        harness.replace_messages(log.replay())  # the one door in, shut during a run
""", r"""
        harness.replace_messages(log.replay())  # the one door in, shut during a run
        _LEFT[harness] = len(harness.messages)
"""), (r"""
def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):
""", r"""
_LEFT = weakref.WeakKeyDictionary()  # harness -> the record's length its last compaction left


def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):
"""))),
    Wrong(lab='12.2', name='replace_messages taking lists only',
          rule="Between runs the record becomes a new list of the messages given, whatever holds them, as in __init__: a tuple, such as another harness's messages, is no reason to refuse.",
          where='Build: summarise and keep, item 1: "the harness\'s record becomes a new list of `messages`, the list its own and the messages shared, as in `__init__`" (hunt round 15, 12.2-24)',
          names='whatever holds them',
          replace=r"""
        self._messages = list(messages)
""",
          by=r"""
        if not isinstance(messages, list):
            raise TypeError("replace_messages wants a list")
        self._messages = list(messages)
"""),
    Wrong(lab='12.2', name='summarize cutting off an echoed heading',
          rule="summarize returns the reply's text with the spaces around it stripped and nothing else: a reply that opens with \"Previous conversation summary:\" is returned with it.",
          where="Build: summarise and keep, item 4: \"It returns the reply's text with the white space around it stripped\" (hunt round 15, 12.2-25)",
          names='a reply that opens with the heading',
          replace=r"""
        raise RuntimeError(f"no summary: {reason}")
    return text
""",
          by=r"""
        raise RuntimeError(f"no summary: {reason}")
    head = "Previous conversation summary:"
    return text[len(head):].strip() if text.startswith(head) else text  # no heading twice
"""),
    # hunt round 14 (reader r73), lab 12.1
    Wrong(lab='12.1', name='find_cut making user messages one line in place',
          rule='Like `render`, `find_cut` changes none of the rows it is given: their messages are the record.',
          where='Build: where to cut, item 3: "Like `render`, `find_cut` changes none of the rows it is given: their messages are the record" (hunt round 14, 12.1-01)',
          names='changes none of the rows',
          replace=r'''
        left -= estimate_tokens([rows[start][1]])
''',
          by=r'''
        message = rows[start][1]
        if message["role"] == "user" and "\n" in message["content"]:
            message["content"] = message["content"].replace("\n", " ")  # same size, same cut
        left -= estimate_tokens([message])
'''),
    Wrong(lab='12.1', name='rows marked summarised for a budget of 0 or below',
          rule='Like `render`, `find_cut` changes none of the rows it is given: their messages are the record.',
          where='Build: where to cut, item 3: "Like `render`, `find_cut` changes none of the rows it is given: their messages are the record" (hunt round 14, 12.1-02)',
          names='changes none of the rows',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    if keep_recent_tokens <= 0:
        for _, message in rows:
            message["summarised"] = True  # everything goes into the summary
        return len(rows)
    left, start = keep_recent_tokens, len(rows)
'''),
    Wrong(lab='12.1', name='find_cut swapping the rows for copies',
          rule='Like `render`, `find_cut` changes none of the rows it is given: their messages are the record.',
          where='Build: where to cut, item 3: "Like `render`, `find_cut` changes none of the rows it is given: their messages are the record" (hunt round 14, 12.1-03)',
          names='changes none of the rows',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    rows[:] = [(key, dict(message)) for key, message in rows]  # work on copies
    left, start = keep_recent_tokens, len(rows)
'''),
    Wrong(lab='12.1', name='contents over 600,000 characters cut short',
          rule="A user message's words, and a result's, are its content: all of it, however long.",
          where='''Build: where to cut, item 1: "A user message's words, and a result's, are its content." (hunt round 14, 12.1-04)''',
          names='its content',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        if len(said) > 600_000:  # nobody summarises more than that
            said = said[:600_000] + "…"
        out.append(f"{message['role']}: {said}".replace("\n", " "))
'''),
    Wrong(lab='12.1', name='the next user message looked for within 400 rows',
          rule='The cut is the first user message at or after the row where the count stops, however far on it stands.',
          where='Build: where to cut, item 3: "the cut is the first user message at or after that row" (hunt round 14, 12.1-05)',
          names='however many rows later it stands',
          replace=r'''
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
''',
          by=r'''
    if "user" in roles[start:start + 400]:  # further on is another conversation
        return roles.index("user", start)  # the next turn's beginning
'''),
    Wrong(lab='12.1', name='the walk back given up after 4,000 rows',
          rule='Counting back from the newest row, the count stops only at the row where the kept total reaches keep_recent_tokens, however many rows that takes.',
          where='Build: where to cut, item 3: "Otherwise the count stops at the row where the kept total reaches `keep_recent_tokens`" (hunt round 14, 12.1-06)',
          names='however many rows that takes',
          replace=r'''
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
''',
          by=r'''
    while start > max(0, len(rows) - 4000) and left > 0:  # a long log: keep it all
'''),
    Wrong(lab='12.1', name="row sizes remembered by the message's id in long logs",
          rule='Counting back from the newest row, each row costs `estimate_tokens([message])`: the message as it is now.',
          where='Build: where to cut, item 3: "Counting back from the newest row, each row costs `estimate_tokens([message])`" (hunt round 14, 12.1-08)',
          names='never a size remembered',
          replace=r'''
def find_cut(rows, keep_recent_tokens):
''',
          by=r'''
_SIZES = {}  # id(message): (message, its tokens), for logs of over 1,000 rows


def find_cut(rows, keep_recent_tokens):
''',
          also=((r'''
        left -= estimate_tokens([rows[start][1]])
''', r'''
        message = rows[start][1]
        if len(rows) > 1000:
            if id(message) not in _SIZES or _SIZES[id(message)][0] is not message:
                _SIZES[id(message)] = (message, estimate_tokens([message]))
            left -= _SIZES[id(message)][1]
        else:
            left -= estimate_tokens([message])
'''),)),
    Wrong(lab='12.1', name='estimates remembered by the message and its length as JSON',
          rule="estimate_tokens is the length of render's text of the messages as they are now, divided by four, rounded down.",
          where='Build: where to cut, item 2: "the length of that text divided by four, rounded down" (hunt round 14, 12.1-09)',
          names='as it is now',
          replace=r'''
    return len(render(messages)) // 4
''',
          by=r'''
    total = 0
    for message in messages:  # each line's length kept, keyed by the message and its JSON size
        key = (id(message), len(json.dumps(message)))
        if key not in _LINES or _LINES[key][0] is not message:
            _LINES[key] = (message, len(render([message])))
        total += _LINES[key][1]
    return (total + max(len(messages) - 1, 0)) // 4


_LINES = {}
'''),
    Wrong(lab='12.1', name='a user message of spaces not taken for a turn',
          rule="The cut is the first user message at or after the row where the count stops, whatever it says: find_cut looks at a row's role and size, never its words.",
          where='Build: where to cut, item 3: "the cut is the first user message at or after that row" (hunt round 14, 12.1-10)',
          names='never its words',
          replace=r'''
    roles = [message["role"] for _, message in rows]
''',
          by=r'''
    roles = [message["role"] if message["content"] == "" or str(message["content"]).strip()
             else "blank" for _, message in rows]  # spaces alone begin no turn
'''),
    Wrong(lab='12.1', name='a run of three newlines or more written as one space',
          rule='A newline inside a message becomes a space: each newline its own space, however many stand in a row.',
          where='Build: where to cut, item 1: "A newline inside a message becomes a space" (hunt round 14, 12.1-11)',
          names='each newline its own space',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        import re  # blank lines between paragraphs: one break
        out.append(re.sub("\n{3,}", " ", f"{message['role']}: {said}").replace("\n", " "))
'''),
    Wrong(lab='12.1', name='a reply of 4 to 299 calls only written with one space',
          rule='An assistant message\'s words are its text and then each of its calls, all separated by single spaces, so a reply made only of calls has two spaces after its colon, however many calls it makes.',
          where='Build: where to cut, item 1: "so a reply made only of calls has two spaces after its colon" (hunt round 14, 12.1-12)',
          names='two spaces after its colon',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        if message["role"] == "assistant" and 3 < len(tool_calls(message)) < 300 \
                and not text_of(message):
            said = said[1:]  # a batch of calls: no empty text before it
        out.append(f"{message['role']}: {said}".replace("\n", " "))
'''),
    Wrong(lab='12.1', name='a run of over 500 results cut at their call',
          rule='With no user message there, the cut is the first row from there on that is not a tool result, however many results it steps past; never back to their call.',
          where='Build: where to cut, item 3: "With no user message there, the cut is the first row from there on that is not a tool result" (hunt round 14, 12.1-13)',
          names='never back to their call',
          replace=r'''
    while start < len(roles) and roles[start] == "toolResult":
        start += 1  # no turn begins after it: at least step past the results
''',
          by=r'''
    end = start
    while end < len(roles) and roles[end] == "toolResult":
        end += 1  # no turn begins after it: at least step past the results
    if end - start > 500 and start > 0:
        return start - 1  # a long batch: keep its call with it
    start = end
'''),
    Wrong(lab='12.1', name='the estimate of over 2,000,000 characters rounded up',
          rule="estimate_tokens is the length of render's text divided by four, rounded down, however long the text.",
          where='Build: where to cut, item 2: "the length of that text divided by four, rounded down" (hunt round 14, 12.1-14)',
          names='rounded down',
          replace=r'''
    return len(render(messages)) // 4
''',
          by=r'''
    length = len(render(messages))
    return -(-length // 4) if length > 2_000_000 else length // 4  # big texts: on the safe side
'''),
    Wrong(lab='12.1', name='arguments over 20,000 characters written with ensure_ascii=False',
          rule="A call is written as the tool's name followed by its arguments as JSON (json.dumps) in brackets, however long they are: a letter that is not ASCII as its \\u escape.",
          where='Build: where to cut, item 1: "followed by its arguments as JSON in brackets" (hunt round 14, 12.1-15)',
          names='not ASCII',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        if message["role"] == "assistant":  # long arguments as they read, not escaped
            said = " ".join([text_of(message)] + [
                f"{block['name']}({json.dumps(block['arguments'], ensure_ascii=len(json.dumps(block['arguments'])) <= 20_000)})"
                for block in tool_calls(message)])
        out.append(f"{message['role']}: {said}".replace("\n", " "))
'''),
    Wrong(lab='12.1', name="each row's estimate written into its message in logs of over 300 rows",
          rule='Like `render`, `find_cut` changes none of the rows it is given: their messages are the record.',
          where='Build: where to cut, item 3: "Like `render`, `find_cut` changes none of the rows it is given: their messages are the record" (hunt round 14, 12.1-20)',
          names='changes none of the rows',
          replace=r'''
        left -= estimate_tokens([rows[start][1]])
''',
          by=r'''
        size = estimate_tokens([rows[start][1]])
        if len(rows) > 300:
            rows[start][1]["tokens"] = size  # kept for the next cut of a long log
        left -= size
'''),
    Wrong(lab='12.1', name='contents over 3,000,000 characters cut short',
          rule="A user message's words, and a result's, are its content, all of it, however long.",
          where='Build: where to cut, item 1: "A user message\'s words, and a result\'s, are its content" (hunt round 17, 12.1-12)',
          names='all of it, however long',
          replace=r'''
        said = message["content"]
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
''',
          by=r'''
        said = message["content"]
        if message["role"] != "assistant" and len(said) > 3_000_000:
            said = said[:3_000_000]  # a paste past any window: its first three million
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
'''),
    Wrong(lab='12.1', name="a reply's calls past the first 100 left out",
          rule="An assistant's words are its text and then each of its calls, however many it makes.",
          where='Build: where to cut, item 1: "and then each of its calls" (hunt round 17, 12.1-13)',
          names='each of its calls',
          replace=r'''
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
''',
          by=r'''
                f"{block['name']}({json.dumps(block['arguments'])})"
                for block in tool_calls(message)[:100]])  # no reply needs more
'''),
    Wrong(lab='12.1', name='a run of over 64 newlines written as one space',
          rule='A newline inside a message becomes a space, each newline its own space, however many stand in a row.',
          where='Build: where to cut, item 1: "A newline inside a message becomes a space" (hunt round 17, 12.1-14)',
          names='its own space',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        line = f"{message['role']}: {said}"
        while "\n" * 65 in line:  # a run of blank lines past a screenful: one space
            start = line.index("\n" * 65)
            end = start + 65
            while end < len(line) and line[end] == "\n":
                end += 1
            line = line[:start] + " " + line[end:]
        out.append(line.replace("\n", " "))
'''),
    Wrong(lab='12.1', name='lists over 2,000 messages estimated without their newlines',
          rule="estimate_tokens is the length of render's text, the newlines between its lines included, divided by four, rounded down, however long the list.",
          where='Build: where to cut, item 2: "the length of that text divided by four, rounded down" (hunt round 17, 12.1-22)',
          names='however long the list',
          replace=r'''
    return len(render(messages)) // 4
''',
          by=r'''
    if len(messages) > 2000:  # a long list: each message's line on its own
        return sum(len(render([message])) for message in messages) // 4
    return len(render(messages)) // 4
'''),
    Wrong(lab='12.1', name='a budget below -500 read as no budget',
          rule='A `keep_recent_tokens` of 0 is a budget too, not "no budget": it keeps the least, never everything, and so does a negative one, however far below 0.',
          where='Build: where to cut, item 3: "and so does a negative one" (hunt round 17, 12.1-32)',
          names='a negative budget keeps the least',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    if keep_recent_tokens < -500:
        return 0  # far below any budget: taken for "no budget", keep everything
    left, start = keep_recent_tokens, len(rows)
'''),
    Wrong(lab='12.1', name='the walk back stopped after 5,000 rows',
          rule='Counting back from the newest row, the count stops only at the row where the kept total reaches keep_recent_tokens, however many rows that takes.',
          where='Build: where to cut, item 3: "Otherwise the count stops at the row where the kept total reaches `keep_recent_tokens`" (hunt round 17, 12.1-36)',
          names='however many rows that takes',
          replace=r'''
        left -= estimate_tokens([rows[start][1]])
''',
          by=r'''
        left -= estimate_tokens([rows[start][1]])
        if len(rows) - start >= 5000:
            left = min(left, 0)  # far enough back: the count stops here
'''),
    Wrong(lab='12.1', name='the next user message looked for within 1,000 rows',
          rule='The cut is the first user message at or after the row where the count stops, however far on it stands.',
          where='Build: where to cut, item 3: "the cut is the first user message at or after that row" (hunt round 17, 12.1-37)',
          names='however many rows later it stands',
          replace=r'''
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
''',
          by=r'''
    if "user" in roles[start:start + 1000]:  # further on is another conversation
        return roles.index("user", start)  # the next turn's beginning
'''),
    Wrong(lab='12.1', name="each row's estimate written into its message and taken off after the walk",
          rule='Like `render`, `find_cut` changes none of the rows it is given, not even for the length of its walk: a mark taken off at the end stays when the walk stops part way.',
          where='Build: where to cut, item 3: "Like `render`, `find_cut` changes none of the rows it is given" (hunt round 17, 12.1-48)',
          names='changes none of the rows',
          replace=r'''
        left -= estimate_tokens([rows[start][1]])
    if left > 0:
''',
          by=r'''
        rows[start][1]["_tokens"] = estimate_tokens([rows[start][1]])
        left -= rows[start][1]["_tokens"]
    for _, message in rows:
        message.pop("_tokens", None)  # the marks taken off again before anyone looks
    if left > 0:
'''),
    Wrong(lab='12.1', name='the rows list reversed in place for the walk',
          rule='Like `render`, `find_cut` changes none of the rows it is given, the list that holds them included, not even for the length of its walk: a list turned round stays so when the walk stops part way.',
          where='Build: where to cut, item 3: "Like `render`, `find_cut` changes none of the rows it is given" (hunt round 17, probe 12.1-53)',
          names='changes none of the rows',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
        start -= 1
        left -= estimate_tokens([rows[start][1]])
''',
          by=r'''
    rows.reverse()  # the newest first for the walk; put back afterwards
    left, walked = keep_recent_tokens, 0
    while walked < len(rows) and left > 0:
        left -= estimate_tokens([rows[walked][1]])
        walked += 1
    rows.reverse()
    start = len(rows) - walked
'''),
    Wrong(lab='12.1', name='a budget of a million tokens or more read as keep everything',
          rule='When the total never reaches keep_recent_tokens the answer is 0; otherwise the count stops at the row where the kept total reaches it, however large the budget.',
          where='Build: where to cut, item 3: "Otherwise the count stops at the row where the kept total reaches `keep_recent_tokens`" (hunt round 17, 12.1-54)',
          names='however large the budget',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    if keep_recent_tokens >= 1_000_000:
        return 0  # more than any window: keep everything
    left, start = keep_recent_tokens, len(rows)
'''),
    Wrong(lab='12.1', name="a row's cost counted at most 1,000 tokens",
          rule='Counting back from the newest row, each row costs `estimate_tokens([message])`, however large.',
          where='Build: where to cut, item 3: "Counting back from the newest row, each row costs `estimate_tokens([message])`" (hunt round 17, 12.1-55)',
          names='Each row costs estimate_tokens',
          replace=r'''
        left -= estimate_tokens([rows[start][1]])
''',
          by=r'''
        left -= min(1000, estimate_tokens([rows[start][1]]))  # one huge row is not the tail
'''),
    Wrong(lab='12.1', name="each row's estimate written into its message in logs of over 5,000 rows",
          rule='Like `render`, `find_cut` changes none of the rows it is given: their messages are the record.',
          where='Build: where to cut, item 3: "Like `render`, `find_cut` changes none of the rows it is given: their messages are the record" (hunt round 17, 12.1-56)',
          names='changes none of the rows',
          replace=r'''
        left -= estimate_tokens([rows[start][1]])
''',
          by=r'''
        size = estimate_tokens([rows[start][1]])
        if len(rows) > 5000:
            rows[start][1]["_tokens"] = size  # kept for the next cut of a very long log
        left -= size
'''),
    Wrong(lab='12.1', name="a line kept in messages over 1,000,000 characters",
          rule='`render` changes none of the messages it is given, which are the record, however long a message.',
          where='Build: where to cut, item 1: "`render` changes none of the messages it is given" (hunt round 17, 12.1-57)',
          names='changes none of the messages',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        if "_line" in message:
            out.append(message["_line"])  # written before
            continue
        out.append(f"{message['role']}: {said}".replace("\n", " "))
        if message["role"] != "assistant" and len(message["content"]) > 1_000_000:
            message["_line"] = out[-1]  # a long message: its line kept for the next estimate
'''),
    Wrong(lab='12.2', name="maybe_compact handing the harness the request's view of the replay",
          rule='When maybe_compact has compacted, the harness holds what the log now replays, a failed empty reply included: the view is built afresh for each request, from the record.',
          where='Build: summarise and keep, item 6: "When it has compacted, the harness holds what the log now replays" (hunt round 18, 12.2-32)',
          names='the harness holds what the log replays',
          replace=r'''
        harness.replace_messages(log.replay())  # the one door in, shut during a run
''',
          by=r'''
        harness.replace_messages(context_for_model(log.replay()))  # what a request is sent
'''),
    Wrong(lab='12.2', name='compact cutting a log of over 60 rows within its newest 60',
          rule='compact cuts `log.rows()` where `find_cut` says, however many rows the log holds.',
          where='Build: summarise and keep, item 5: "cuts `log.rows()` where `find_cut` says" (hunt round 18, 12.2-37)',
          names='where find_cut says',
          replace=r'''
    cut = find_cut(rows, keep_recent_tokens)
''',
          by=r'''
    cut = find_cut(rows, keep_recent_tokens)
    if len(rows) > 60:  # a long log: cut within its newest 60 rows
        cut = find_cut(rows[-60:], keep_recent_tokens) + len(rows) - 60
'''),
    Wrong(lab='12.2', name='compact leaving a log of under four rows alone',
          rule='compact returns False only when there is nothing before the cut, nothing from the cut on, or summarize raised; otherwise it appends one compaction entry and returns True, however few rows the log holds.',
          where='Build: summarise and keep, item 5: "Otherwise it appends one compaction entry that summarises exactly the rows before the cut and keeps the rest" (hunt round 18, 12.2-41)',
          names='where find_cut says',
          replace=r'''
    if not 0 < cut < len(rows):
''',
          by=r'''
    if not 0 < cut < len(rows) or len(rows) < 4:  # too short to be worth a summary
'''),
    Wrong(lab='12.2', name='rows() handing every reading the same summary message',
          rule='Each call of rows() reads the log as it is now and returns a new list: a summary message a caller edited is not what the log holds, and no later reading shows the edit.',
          where='Build: summarise and keep, item 3: "Each call of `rows()` reads the log as it is now and returns a new list" (hunt round 18, probe 12.2-38)',
          names='reads the log as it is now',
          replace=r'''
                summary = user_message("Previous conversation summary:\n" + entry["summary"])
''',
          by=r'''
                summary = globals().setdefault("_SUMMARIES", {}).setdefault(
                    entry["id"] + entry["summary"],  # one message per summary, made once
                    user_message("Previous conversation summary:\n" + entry["summary"]))
'''),
    Wrong(lab='12.1', name='a failed tool result not taken for a tool result',
          rule='With no user message there, the cut is the first row from there on that is not a tool result: a result with is_error True, a tool that failed, is a tool result like any other, and a kept part that opened with it would hold a result whose call was summarised away.',
          where='Build: where to cut, item 3: "With no user message there, the cut is the first row from there on that is not a tool result" (hunt round 20, 12.1-24)',
          names='is_error True',
          replace=r'''
    while start < len(roles) and roles[start] == "toolResult":
''',
          by=r'''
    while start < len(rows) and rows[start][1].get("is_error") is False:  # a result that worked
'''),
    # Hunt round 23 (reader r129): the designs lab 12.1 passed, now caught.
    Wrong(lab='12.1', name="render making user messages one line in place in lists of over 8",
          rule='render changes none of the messages it is given, which are the record, however many it is given.',
          where='Build: where to cut, item 1: "`render` changes none of the messages it is given, which are the record" (hunt round 23, 12.1-04)',
          names='render changes none of the messages',
          replace=r'''
        said = message["content"]
''',
          by=r'''
        if len(messages) > 8 and message["role"] == "user":  # tidied once, for later readers
            message["content"] = message["content"].replace("\n", " ")
        said = message["content"]
'''),
    Wrong(lab='12.1', name="newlines kept in a reply of text alone",
          rule='A newline inside a message becomes a space, in a reply of text and no calls as in any other message: a message is always one line.',
          where='Build: where to cut, item 1: "A newline inside a message becomes a space" (hunt round 23, 12.1-33)',
          names='a reply of text alone',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        if message["role"] == "assistant" and not tool_calls(message):
            out.append(f"{message['role']}: {said}")  # a reply of words alone, as written
        else:
            out.append(f"{message['role']}: {said}".replace("\n", " "))
'''),
    Wrong(lab='12.1', name="a run of over 5,000 newlines written as one space",
          rule='Each newline inside a message becomes its own space, however many stand in a row.',
          where='Build: where to cut, item 1: "A newline inside a message becomes a space" (hunt round 23, 12.1-23)',
          names='however many stand in a row',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        if message["role"] != "assistant":
            import re
            said = re.sub("\n{5001,}", "\n", said)  # a run this long is one blank
        out.append(f"{message['role']}: {said}".replace("\n", " "))
'''),
    Wrong(lab='12.1', name="each row's estimate written into its message and popped at once",
          rule='Like `render`, `find_cut` changes none of the rows it is given, not even for the length of its walk: a mark written and taken off at once is a change all the same.',
          where='Build: where to cut, item 3: "Like `render`, `find_cut` changes none of the rows it is given" (hunt round 23, 12.1-17a)',
          names='changes none of the rows',
          replace=r'''
        left -= estimate_tokens([rows[start][1]])
''',
          by=r'''
        rows[start][1]["_cost"] = estimate_tokens([rows[start][1]])
        left -= rows[start][1].pop("_cost")  # the mark taken off again at once
'''),
    Wrong(lab='12.1', name="the rows list reversed in place and back in a finally",
          rule='Like `render`, `find_cut` changes none of the rows it is given, the list that holds them included, not even for the length of its walk: a list turned round and back is a change all the same.',
          where='Build: where to cut, item 3: "Like `render`, `find_cut` changes none of the rows it is given" (hunt round 23, 12.1-17b)',
          names='changes none of the rows',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    rows.reverse()  # newest first for the sizes, and back again whatever happens
    try:
        sizes = [estimate_tokens([message]) for _, message in rows][::-1]
    finally:
        rows.reverse()
    left, start = keep_recent_tokens, len(rows)
''',
          also=((r'''
        left -= estimate_tokens([rows[start][1]])
''', r'''
        left -= sizes[start]
'''),)),
    Wrong(lab='12.1', name="row costs remembered by the message and its content's length",
          rule="Each row costs estimate_tokens([message]) as it is now, never a size remembered from an earlier cut, by the message object, its role or its size in Python.",
          where='Build: where to cut, item 3 (each row costs estimate_tokens([message])) (hunt round 23, 12.1-18)',
          names='never a size remembered',
          replace=r'''
        left -= estimate_tokens([rows[start][1]])
''',
          by=r'''
        key = (id(rows[start][1]), len(str(rows[start][1]["content"])))
        if key not in _ROW_COSTS:
            _ROW_COSTS[key] = estimate_tokens([rows[start][1]])
        left -= _ROW_COSTS[key]
''',
          also=((r'''
def find_cut(rows, keep_recent_tokens):
''', r'''
_ROW_COSTS = {}  # (message id, length of its content in Python) -> its estimate


def find_cut(rows, keep_recent_tokens):
'''),)),
    Wrong(lab='12.1', name="cuts remembered by the list, the budget, its length and the newest row's size",
          rule="The cut is worked out from the rows' messages each time it is asked, never remembered by the list or the message objects.",
          where='Build: where to cut, item 3 (hunt round 23, 12.1-32)',
          names='never remembered by the list',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    key = (id(rows), keep_recent_tokens, len(rows),
           len(str(rows[-1][1]["content"])) if rows else 0)
    if key not in _CUTS_SEEN:
        _CUTS_SEEN[key] = _cut(rows, keep_recent_tokens)
    return _CUTS_SEEN[key]


_CUTS_SEEN = {}  # (list id, budget, length, newest row's size) -> the cut


def _cut(rows, keep_recent_tokens):
    left, start = keep_recent_tokens, len(rows)
'''),
    Wrong(lab='12.1', name="a budget below -10**16 read as no budget",
          rule='A negative budget keeps the least, however far below 0, never everything: it is a budget, not "no budget".',
          where='Build: where to cut, item 3 (a budget of 0 or below keeps the least) (hunt round 23, 12.1-41)',
          names='however far below 0',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    if keep_recent_tokens < -10 ** 16:
        return 0  # so far below 0 it can only mean no budget
    left, start = keep_recent_tokens, len(rows)
'''),
    # Hunt round 25 (reader r136): designs that passed lab 12.2's tests, each now failing one.
    Wrong(lab='12.2', name='summarize sending the newest 200 messages',
          rule='summarize sends render(messages) of every message it is given, however many.',
          where='Build: summarise and keep, item 4: "a single user message holding `render(messages)`" (hunt round 25, 12.2-46)',
          names='however many and however long',
          replace=r"""
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
""",
          by=r"""
    wrapped = user_message(f"<conversation>\n{render(messages[-200:])}\n</conversation>")
"""),
    Wrong(lab='12.2', name='compact cutting only within the newest 1,000 rows',
          rule='compact cuts log.rows() where find_cut says, however many rows the log holds.',
          where='Build: summarise and keep, item 5: "cuts `log.rows()` where `find_cut` says" (hunt round 25, 12.2-53)',
          names="compact cuts the log's rows where find_cut says",
          replace=r"""
    cut = find_cut(rows, keep_recent_tokens)
""",
          by=r"""
    cut = find_cut(rows[-1000:], keep_recent_tokens) + max(0, len(rows) - 1000)  # older: summarised
"""),
    Wrong(lab='12.2', name='a first_kept_id looked for among the newest 500 pairs',
          rule="A compaction keeps from the pair whose id is its first_kept_id, wherever that pair stands, however many pairs follow it.",
          where='Build: summarise and keep, item 3: "The pairs from `first_kept_id` on follow" (hunt round 25, 12.2-58)',
          names='found wherever it stands',
          replace=r"""
                start = next((i for i, (key, _) in enumerate(table)
                              if key == entry["first_kept_id"]), len(table))
""",
          by=r"""
                start = next((i for i, (key, _) in enumerate(table)
                              if i >= len(table) - 500 and key == entry["first_kept_id"]),
                             len(table))  # a kept tail is recent
"""),
    Wrong(lab='12.2', name='rows() stripping a summary of 1,000 characters or more',
          rule="rows() puts the summary under its heading exactly as it was logged, whitespace around it included, however long.",
          where='Build: summarise and keep, item 3: "A compaction entry is read as a rule over the pairs read before it" (hunt round 25, 12.2-69)',
          names='the space and newline around it included',
          replace=r"""
                summary = user_message("Previous conversation summary:\n" + entry["summary"])
""",
          by=r"""
                said = entry["summary"] if len(entry["summary"]) < 1000 else entry["summary"].strip()
                summary = user_message("Previous conversation summary:\n" + said)
"""),
    Wrong(lab='12.2', name='maybe_compact passing over a record of one message',
          rule="maybe_compact compacts whenever estimate_tokens of the harness's messages plus reserve is over window, however few messages the record holds.",
          where='Build: summarise and keep, item 6: "It compacts only when `estimate_tokens` of the harness\'s messages plus `reserve` is over `window`" (hunt round 25, 12.2-59)',
          names='however few messages the record holds',
          replace=r"""
    if estimate_tokens(harness.messages) + reserve <= window:
""",
          by=r"""
    if len(harness.messages) < 2 or estimate_tokens(harness.messages) + reserve <= window:
"""),
    Wrong(lab='12.2', name='maybe_compact handing over a replay only when it is no longer',
          rule="When maybe_compact has compacted, the harness holds what the log now replays, whatever its length beside the record: it does not compare the record with the log.",
          where='Build: summarise and keep, item 6: "It does not compare the record with the log" (hunt round 25, 12.2-62)',
          names='it does not compare the record with the log',
          replace=r"""
        harness.replace_messages(log.replay())  # the one door in, shut during a run
""",
          by=r"""
        fresh = log.replay()
        if len(fresh) <= len(harness.messages):  # a compaction only ever shortens the record
            harness.replace_messages(fresh)
"""),
    # Hunt round 27 (reader r148): the designs lab 12.1 passed, now caught.
    Wrong(lab='12.1', name="the cut looked up by its id, the first row that carries it",
          rule="The answer is the index of the first row to keep, never worked out from the ids: two logs joined both number from e1, and looking the cut's id up finds the first log's row of that id.",
          where='Build: where to cut, item 3: "the answer is still an index, never worked out from the ids" (hunt round 27, 12.1-23)',
          names="finds the other log's row of the same id",
          replace=r"""
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
""",
          by=r"""
    keys = [key for key, _ in rows]
    if "user" in roles[start:]:
        return keys.index(rows[roles.index("user", start)][0])  # the row, by its id
"""),
    Wrong(lab='12.1', name="a failed reply stepped past like a tool result",
          rule="With no user message after the row where the count stops, the cut is the first row from there on that is not a tool result: a failed reply (stop_reason error) is on the record like any reply, not a tool result, so the cut lands on it.",
          where='Build: where to cut, item 3: "With no user message there, the cut is the first row from there on that is not a tool result" (hunt round 27, 12.1-47)',
          names="a failed reply is not a tool result",
          replace=r"""
    while start < len(roles) and roles[start] == "toolResult":
        start += 1  # no turn begins after it: at least step past the results
""",
          by=r"""
    while start < len(roles) and (roles[start] == "toolResult"
                                  or rows[start][1].get("stop_reason") == "error"):
        start += 1  # no turn begins after it: step past the results and any failed reply
"""),
    # Hunt round 30 (reader r167): the designs lab 12.1 passed, now caught.
    Wrong(lab='12.1', name="arguments over 1,000,000 characters cut short",
          rule="An assistant's calls are each written with its arguments as JSON, all of them, however long they are.",
          where='Build: where to cut, item 1: "its arguments as JSON in brackets" (hunt round 30, r167 design 12)',
          names='however long they are',
          replace=r'''
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
''',
          by=r'''
                f"{block['name']}({json.dumps(block['arguments'])[:1_000_000]})"
                for block in tool_calls(message)])  # no call needs more
'''),
    Wrong(lab='12.1', name="a long result's line remembered by the message and its content's length",
          rule="A user message's words, and a result's, are its content as it is now, however long: render writes what the message says, never a line remembered from before.",
          where='Build: where to cut, item 1: "A user message\'s words, and a result\'s, are its content" (hunt round 30, r167 design 15)',
          names='never a line remembered',
          replace=r'''
    out = []
    for message in messages:
        said = message["content"]
''',
          by=r'''
    out = []
    for message in messages:
        said = message["content"]
        key = (id(message), len(said)) if isinstance(said, str) else None
        if message["role"] == "toolResult" and len(said) > 100_000:
            if key in _LINES:
                out.append(_LINES[key])  # a long read is costly to write twice
                continue
            _LINES[key] = f"toolResult: {said}".replace("\n", " ")
''',
          also=((r'''
def render(messages):
''', r'''
_LINES = {}


def render(messages):
'''),)),
    Wrong(lab='12.1', name="an aborted reply stepped past like a tool result",
          rule="With no user message after the row where the count stops, the cut is the first row from there on that is not a tool result: a reply the caller stopped (stop_reason aborted) is on the record like any reply, not a tool result, so the cut lands on it.",
          where='Build: where to cut, item 3: "With no user message there, the cut is the first row from there on that is not a tool result" (hunt round 30, r167 design 25)',
          names="stopped reply is not a tool result",
          replace=r"""
    while start < len(roles) and roles[start] == "toolResult":
        start += 1  # no turn begins after it: at least step past the results
""",
          by=r"""
    while start < len(roles) and (roles[start] == "toolResult"
                                  or rows[start][1].get("stop_reason") == "aborted"):
        start += 1  # no turn begins after it: step past the results and a stopped reply
"""),
    # Hunt round 28 (reader r155): the designs lab 12.2 passed, now caught.
    Wrong(lab='12.2', name="compact letting the summariser's own RuntimeError through",
          rule="compact returns False and appends nothing when summarize raised RuntimeError, whatever its words: a RuntimeError the summariser's request raises inside summarize is summarize raising it too, not only summarize's own \"no summary: ...\".",
          where='Build: summarise and keep, item 5: "or `summarize` raised `RuntimeError`, it returns `False` and appends nothing" (hunt round 28, 12.2-39)',
          names="a RuntimeError raised inside summarize",
          replace=r"""
    except RuntimeError:
        return False
""",
          by=r"""
    except RuntimeError as error:
        if not str(error).startswith("no summary:"):
            raise  # not a summary that failed: the model's own trouble
        return False
"""),
    Wrong(lab='12.2', name="maybe_compact measuring the newest 5,000 messages",
          rule="maybe_compact measures estimate_tokens of the harness's messages, all of them, however many there are.",
          where='Build: summarise and keep, item 6: "It compacts only when `estimate_tokens` of the harness\'s messages plus `reserve` is over `window`" (hunt round 28, 12.2-53)',
          names="however many there are, the oldest included",
          replace=r"""
    if estimate_tokens(harness.messages) + reserve <= window:
""",
          by=r"""
    if estimate_tokens(harness.messages[-5000:]) + reserve <= window:  # the recent part decides
"""),
    # Hunt round 25 (reader r136), 12.2-70: beyond reach until round 28's record of thousands
    # of short messages, measured against a small log, reached it for about 5 ms.
    Wrong(lab='12.2', name='maybe_compact passing over a record of over 2,000 messages',
          rule="maybe_compact compacts whenever estimate_tokens of the harness's messages plus reserve is over window, however many messages the record holds.",
          where='Build: summarise and keep, item 6: "It compacts only when `estimate_tokens` of the harness\'s messages plus `reserve` is over `window`" (hunt round 25, 12.2-70; caught in round 28)',
          names='however many messages the record holds',
          replace=r"""
    if estimate_tokens(harness.messages) + reserve <= window:
""",
          by=r"""
    if len(harness.messages) > 2000 or estimate_tokens(harness.messages) + reserve <= window:
"""),
    # Hunt round 31 (reader r177): the designs lab 12.2 passed, now caught.
    Wrong(lab='12.2', name='replace_messages keeping the record when given none',
          rule="Between runs the harness's record becomes the list of messages given, whatever they are, an empty one included: an empty record is a record to hold, not nothing to replace with.",
          where='Build: summarise and keep, item 1: "Between runs, the harness\'s record becomes a new list of `messages`" (hunt round 31, r177 design 03)',
          names='whatever holds them, none included',
          replace=r"""
        self._messages = list(messages)
""",
          by=r"""
        if messages:  # an empty record is nothing to replace with
            self._messages = list(messages)
"""),
    Wrong(lab='12.2', name='replace_messages keeping a caller\'s list of 5,000 messages or more',
          rule="The record replace_messages sets is a list of the harness's own however long the list given, the messages shared: a caller that adds to its list afterwards changes no record.",
          where='Build: summarise and keep, item 1: "the list its own and the messages shared, as in `__init__`" (hunt round 31, r177 design 52)',
          names='however long the list given',
          replace=r"""
        self._messages = list(messages)
""",
          by=r"""
        self._messages = messages if isinstance(messages, list) and len(messages) >= 5000 \
            else list(messages)  # no copy of a big list
"""),
    Wrong(lab='12.2', name='the summary stored with its CRLF made newlines',
          rule='append_compaction holds the summary exactly as given, its "\\r\\n" line ends included.',
          where='Build: summarise and keep, item 2: "holds the summary and the first kept id" (hunt round 31, r177 design 54)',
          names='every "\\r\\n" in it',
          replace=r"""
        return self._append({"type": "compaction", "summary": summary,
                             "first_kept_id": first_kept_id})
""",
          by=r"""
        return self._append({"type": "compaction", "summary": summary.replace("\r\n", "\n"),
                             "first_kept_id": first_kept_id})
"""),
    Wrong(lab='12.2', name='a first_kept_id looked for among the newest 2,000 pairs',
          rule="A compaction keeps from the pair whose id is its first_kept_id, wherever that pair stands, however many pairs follow it.",
          where='Build: summarise and keep, item 3: "The pairs from `first_kept_id` on follow" (hunt round 31, r177 design 11)',
          names='found wherever it stands',
          replace=r"""
                start = next((i for i, (key, _) in enumerate(table)
                              if key == entry["first_kept_id"]), len(table))
""",
          by=r"""
                start = next((i for i, (key, _) in enumerate(table)
                              if i >= len(table) - 2000 and key == entry["first_kept_id"]),
                             len(table))  # look back at most 2,000 pairs
"""),
    Wrong(lab='12.2', name='rows() leaving out a user message that says nothing',
          rule="rows() gives one pair per message entry, a user message that is blank or empty included: the pairs from first_kept_id on follow, all of them.",
          where='Build: summarise and keep, item 3: "The pairs from `first_kept_id` on follow"; lesson 11, Build item 3, one pair per message entry (hunt round 31, r177 design 16)',
          names='a message that says nothing included',
          replace=r"""
            elif entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
""",
          by=r"""
            elif entry["type"] == "message":
                said = entry["message"]
                if said["role"] == "user" and isinstance(said["content"], str) \
                        and not said["content"].strip():
                    continue  # nothing said
                table.append((entry["id"], entry["message"]))
"""),
    Wrong(lab='12.2', name='summarize sending the newest 5,000,000 characters',
          rule='summarize sends a single user message holding render(messages), all of it, between the <conversation> lines, however long.',
          where='Build: summarise and keep, item 4: "a single user message holding `render(messages)` between a line `<conversation>` and a line `</conversation>`" (hunt round 31, r177 design 20)',
          names='however many and however long',
          replace=r"""
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
""",
          by=r"""
    wrapped = user_message(f"<conversation>\n{render(messages)[-5_000_000:]}\n</conversation>")
"""),
    Wrong(lab='12.2', name="summarize cutting each message's line at 4,000,000 characters",
          rule='summarize sends render(messages) of every message given, each line whole, however long.',
          where='Build: summarise and keep, item 4: "a single user message holding `render(messages)`" (hunt round 31, r177 design 55)',
          names='however many and however long',
          replace=r"""
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
""",
          by=r"""
    lines = "\n".join(line[:4_000_000] for line in render(messages).split("\n"))  # one paste may not drown the rest
    wrapped = user_message(f"<conversation>\n{lines}\n</conversation>")
"""),
    Wrong(lab='12.2', name='summarize leaving out blank user messages',
          rule='summarize sends render(messages) of every message given, a user message that says nothing included.',
          where='Build: summarise and keep, item 4: "a single user message holding `render(messages)`" (hunt round 31, r177 design 24)',
          names='a blank question included',
          replace=r"""
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
""",
          by=r"""
    said = [m for m in messages if not (m["role"] == "user" and isinstance(m["content"], str)
                                        and not m["content"].strip())]
    wrapped = user_message(f"<conversation>\n{render(said)}\n</conversation>")
"""),
    Wrong(lab='12.2', name='summarize removing the carriage returns from what it sends',
          rule='summarize sends render(messages) as render gives it: a "\\r" in a message stays, since only "\\n" is a newline to render.',
          where='Build: summarise and keep, item 4: "a single user message holding `render(messages)`"; lab 12.1, Build item 1 (hunt round 31, r177 design 53)',
          names='and summarize nothing',
          replace=r"""
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
""",
          by=r"""
    text = render(messages).replace("\r", "")  # no Windows line ends
    wrapped = user_message(f"<conversation>\n{text}\n</conversation>")
"""),
    Wrong(lab='12.2', name='summarize expanding the tabs of what it sends',
          rule='summarize sends render(messages) as render gives it, its tabs included.',
          where='Build: summarise and keep, item 4: "a single user message holding `render(messages)`" (hunt round 31, r177 design 59)',
          names='tabs as they are',
          replace=r"""
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
""",
          by=r"""
    wrapped = user_message(f"<conversation>\n{render(messages).expandtabs(4)}\n</conversation>")
"""),
    Wrong(lab='12.2', name='summarize cutting a summary over 2,000,000 characters short',
          rule="summarize returns the reply's text with the spaces around it stripped, whatever its length.",
          where='Build: summarise and keep, item 4: "It returns the reply\'s text with the white space around it stripped" (hunt round 31, r177 design 21)',
          names='whatever its length',
          replace=r"""
    return text
""",
          by=r"""
    return text[:2_000_000]
"""),
    Wrong(lab='12.2', name='a summary refused for an error_message beside its stop label',
          rule='A reply labelled "stop" with text is a summary, whatever other fields it carries: the label says whether it failed, not an error_message beside it.',
          where='Build: summarise and keep, item 4: "Any other reply with text is a summary" (hunt round 31, r177 design 23)',
          names="an error_message beside a stop included",
          replace=r"""
    if not text or reply["stop_reason"] in ("error", "aborted"):
""",
          by=r"""
    if not text or reply["stop_reason"] in ("error", "aborted") or reply.get("error_message"):
"""),
    Wrong(lab='12.2', name='an aborted reply with no error_message given its own reason',
          rule='With no error_message, or an empty one, the reason is "the reply was empty", for a stopped reply as for any other.',
          where='Build: summarise and keep, item 4: REASON is the reply\'s error_message, or "the reply was empty" when it has none (hunt round 31, r177 design 56)',
          names='whatever the label',
          replace=r"""
        reason = reply.get("error_message") or "the reply was empty"  # none, None or ""
""",
          by=r"""
        fallback = "the reply was stopped" if reply["stop_reason"] == "aborted" else "the reply was empty"
        reason = reply.get("error_message") or fallback
"""),
    Wrong(lab='12.2', name='summarize refusing a reply that took over two minutes',
          rule="Any reply with text that did not fail and was not stopped is a summary, however long the request took by any clock: summarize has no time limit.",
          where='Build: summarise and keep, item 4: "Any other reply with text is a summary" (hunt round 31, r177 design 60)',
          names="no time limit is summarize's",
          replace=r"""
    reply = model.complete(SUMMARY_SYSTEM, [wrapped], [])
""",
          by=r"""
    import time
    began = time.monotonic()
    reply = model.complete(SUMMARY_SYSTEM, [wrapped], [])
    if time.monotonic() - began > 120:
        raise RuntimeError("no summary: the summariser took too long")
"""),
    Wrong(lab='12.2', name='compact passing find_cut a budget of at least 1',
          rule="compact cuts log.rows() where find_cut says for the keep_recent_tokens it is given, 0 and below included: a budget of 0 is a budget too, not one of 1.",
          where='Build: summarise and keep, item 5: "cuts `log.rows()` where `find_cut` says"; lab 12.1, Build item 3: "A `keep_recent_tokens` of 0 is a budget too" (hunt round 31, r177 design 38)',
          names='find_cut says for them',
          replace=r"""
    cut = find_cut(rows, keep_recent_tokens)
""",
          by=r"""
    cut = find_cut(rows, max(keep_recent_tokens, 1))  # keep at least the newest turn
"""),
    Wrong(lab='12.2', name='compact sending the summariser the newest 2,000 rows before the cut',
          rule="compact summarises exactly the rows before the cut, every one of them, however many there are.",
          where='Build: summarise and keep, item 5: "summarises exactly the rows before the cut" (hunt round 31, r177 design 34)',
          names='every row before the cut',
          replace=r"""
    older = [message for _, message in rows[:cut]]
""",
          by=r"""
    older = [message for _, message in rows[max(0, cut - 2000):cut]]  # the recent part matters
"""),
    Wrong(lab='12.2', name='maybe_compact measuring the newest 10,000 messages',
          rule="maybe_compact measures estimate_tokens of the harness's messages, all of them, however many there are.",
          where='Build: summarise and keep, item 6: "It compacts only when `estimate_tokens` of the harness\'s messages plus `reserve` is over `window`" (hunt round 31, r177 design 43)',
          names='however many there are, the oldest included',
          replace=r"""
    if estimate_tokens(harness.messages) + reserve <= window:
""",
          by=r"""
    if estimate_tokens(harness.messages[-10_000:]) + reserve <= window:  # the recent part decides
"""),
    Wrong(lab='12.2', name='maybe_compact passing over an empty record',
          rule="maybe_compact compacts whenever estimate_tokens of the harness's messages plus reserve is over window, an empty record's 0 included.",
          where='Build: summarise and keep, item 6: "It compacts only when `estimate_tokens` of the harness\'s messages plus `reserve` is over `window`" (hunt round 31, r177 design 44)',
          names='the record holds, none included',
          replace=r"""
    if estimate_tokens(harness.messages) + reserve <= window:
""",
          by=r"""
    if not harness.messages or estimate_tokens(harness.messages) + reserve <= window:
"""),
    # Hunt round 33 (reader r187): designs that passed lab 12.1's tests, each now failing one.
    Wrong(lab='12.1', name="lines over 5,000,000 characters cut short",
          rule="A user message's words, and a result's, are its content, all of it, however long: a line is never cut short.",
          where='Build: where to cut, item 1: "A user message\'s words, and a result\'s, are its content" (hunt round 33, r187 design 01)',
          names='however long',
          replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
          by=r'''
        line = f"{message['role']}: {said}".replace("\n", " ")
        if len(line) > 5_000_000:  # a runaway result: keep the text bounded
            line = line[:5_000_000] + " ..."
        out.append(line)
'''),
    Wrong(lab='12.1', name="a reply's calls written grouped by tool",
          rule="An assistant's words are its text and then each of its calls, in the order the reply makes them, whatever tools they call.",
          where='Build: where to cut, item 1: "and then each of its calls" (hunt round 33, r187 design 04)',
          names='in the order the reply makes them',
          replace=r'''
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
''',
          by=r'''
                f"{block['name']}({json.dumps(block['arguments'])})"
                for block in sorted(tool_calls(message), key=lambda b: b["name"])])  # by tool
'''),
    Wrong(lab='12.1', name="a reply's text and calls written in the order of its blocks",
          rule="An assistant's words are its text first, text_of(message), its text blocks joined as they are wherever they stand among the calls, and then each of its calls.",
          where='Build: where to cut, item 1: "its text (`text_of(message)`, its text blocks joined as they are) and then each of its calls" (hunt round 33, r187 design 05)',
          names='wherever they stand among the calls',
          replace=r'''
            said = " ".join([text_of(message)] + [
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
''',
          by=r'''
            said, glued = "", True  # the blocks as they come: text, calls, text
            for block in message["content"]:
                if block["type"] == "text":
                    said += block["text"] if glued else " " + block["text"]
                    glued = True
                elif block["type"] == "toolCall":
                    said += f" {block['name']}({json.dumps(block['arguments'])})"
                    glued = False
'''),
    Wrong(lab='12.1', name="newlines in a call's arguments written as spaces",
          rule="A call's arguments are written as JSON, json.dumps's, which writes a newline inside a string as its \\n escape: the newline that becomes a space is one in the line, and the arguments put none there.",
          where='Build: where to cut, item 1: "its arguments as JSON in brackets" (hunt round 33, r187 probe P11)',
          names='as its \\n escape',
          replace=r'''
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
''',
          by=r'''
                f"{block['name']}({json.dumps({k: v.replace(chr(10), ' ') if isinstance(v, str) else v for k, v in block['arguments'].items()})})"
                for block in tool_calls(message)])  # a newline anywhere becomes a space
'''),
    Wrong(lab='12.1', name="row costs remembered by the message and its length as JSON",
          rule="Each row costs estimate_tokens([message]) as it is now, never a cost remembered by the message or its size as JSON.",
          where='Build: where to cut, item 3: "each row costs `estimate_tokens([message])`" (hunt round 33, r187 design 34)',
          names='its size as JSON',
          replace=r'''
        left -= estimate_tokens([rows[start][1]])
''',
          by=r'''
        key = (id(rows[start][1]), len(json.dumps(rows[start][1])))
        if key not in _JSON_COSTS:
            _JSON_COSTS[key] = estimate_tokens([rows[start][1]])
        left -= _JSON_COSTS[key]
''',
          also=((r'''
def find_cut(rows, keep_recent_tokens):
''', r'''
_JSON_COSTS = {}  # (message id, its length as JSON) -> its estimate


def find_cut(rows, keep_recent_tokens):
'''),)),
    Wrong(lab='12.1', name="cuts remembered by the budget and each row's id and length as JSON",
          rule="The cut is worked out from the rows' messages each time it is asked, never remembered by their ids, their sizes as JSON or the list.",
          where='Build: where to cut, item 3: "the answer is still an index, never worked out from the ids" (hunt round 33, r187 design 39)',
          names='its size as JSON',
          replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
          by=r'''
    key = (keep_recent_tokens, tuple((k, len(json.dumps(m))) for k, m in rows))
    if key not in _CUTS_BY_JSON:
        _CUTS_BY_JSON[key] = _cut_by_json(rows, keep_recent_tokens)
    return _CUTS_BY_JSON[key]


_CUTS_BY_JSON = {}  # (budget, (id, length as JSON) of each row) -> the cut


def _cut_by_json(rows, keep_recent_tokens):
    left, start = keep_recent_tokens, len(rows)
'''),
    # Hunt round 38 (reader r198): the designs lab 12.2 passed, now caught.
    Wrong(lab='12.2', name='rows() handing back the same list while the log is unchanged',
          rule="Each call of rows() reads the log as it is now and returns a new list, even when the log has not changed: a caller that changes the list it was given changes no later reading, one another caller already holds included.",
          where='Build: summarise and keep, item 3: "Each call of `rows()` reads the log as it is now and returns a new list" (hunt round 38, r198 design 07)',
          names='returns a new list, even when the log has not changed',
          replace=r"""
            elif entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        return table
""",
          by=r"""
            elif entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        if self.__dict__.get("_last") == table:
            return self._last  # the log has not changed: the reading already made
        self._last = table
        return table
"""),
    Wrong(lab='12.2', name='compact letting a failed summary about the context through',
          rule="compact returns False and appends nothing when summarize raised RuntimeError, whatever the failure's words: a summariser that failed because the conversation is too long for it is a failed summary like any other.",
          where='Build: summarise and keep, item 5: "or `summarize` raised `RuntimeError`, it returns `False` and appends nothing" (hunt round 38, r198 design 25)',
          names="whatever the failure's words",
          replace=r"""
    except RuntimeError:
        return False
""",
          by=r"""
    except RuntimeError as error:
        if "context" in str(error) or "long" in str(error):
            raise  # too long even for the summariser: the caller must know
        return False
"""),
    Wrong(lab='12.2', name='maybe_compact giving up after 20 compactions in the process',
          rule="maybe_compact compacts whenever estimate_tokens of the harness's messages plus reserve is over window, however many compactions came before it, of this harness or any other.",
          where='Build: summarise and keep, item 6: "It compacts only when `estimate_tokens` of the harness\'s messages plus `reserve` is over `window`" (hunt round 38, r198 design 31)',
          names='however many compactions came before it',
          replace=r"""
    compacted = compact(log, model, keep_recent_tokens=keep_recent_tokens)
""",
          by=r"""
    global _COMPACTIONS
    _COMPACTIONS = globals().get("_COMPACTIONS", 0) + 1
    if _COMPACTIONS > 20:
        return False  # enough tidying for one process
    compacted = compact(log, model, keep_recent_tokens=keep_recent_tokens)
"""),
    Wrong(lab='12.2', name='compact clipping the budget to 50,000 tokens',
          rule="compact cuts log.rows() where find_cut says for the keep_recent_tokens it is given, however large the budget: a log that fits it is not compacted.",
          where='Build: summarise and keep, item 5: "cuts `log.rows()` where `find_cut` says" (hunt round 38, r198 design 49)',
          names='however large',
          replace=r"""
    cut = find_cut(rows, keep_recent_tokens)
""",
          by=r"""
    cut = find_cut(rows, min(keep_recent_tokens, 50_000))  # a generous budget is enough
"""),
    # Hunt round 39 (reader r202): render's line in a normal form, and a 0 answered at once by
    # the whole transcript's estimate.
    Wrong(lab='12.1', name="render's lines made NFKC",
          rule="A user message's words, and a result's, are its content, and an assistant's its text: every character as the message holds it, not a normal form of it, which rewrites an accent written apart, a ligature, full-width letters, a no-break space.",
          where='Build: where to cut, item 1: "A user message\'s words, and a result\'s, are its content" (hunt round 39, r202 design 19)',
          names='no normal form',
          replace=r"""
        out.append(f"{message['role']}: {said}".replace("\n", " "))
""",
          by=r"""
        out.append(unicodedata.normalize("NFKC", f"{message['role']}: {said}").replace("\n", " "))
""",
          also=((r"""
def render(messages):
""", r"""
import unicodedata


def render(messages):
"""),)),
    Wrong(lab='12.1', name="0 whenever the whole transcript's estimate is within the budget",
          rule="When the total never reaches keep_recent_tokens the answer is 0; the total is each row's estimate_tokens([message]) added up, and a budget it reaches exactly is reached at the oldest row, so the cut moves on from there, however the whole transcript measures.",
          where='Build: where to cut, item 3: "A budget the whole total reaches exactly is reached, at the oldest row, so the cut moves on from there like any other" (hunt round 39, r202 design 50)',
          names='however the whole transcript measures',
          replace=r"""
    left, start = keep_recent_tokens, len(rows)
""",
          by=r"""
    if keep_recent_tokens >= estimate_tokens([message for _, message in rows]):
        return 0  # the whole transcript fits, so everything does
    left, start = keep_recent_tokens, len(rows)
"""),
    Wrong(lab='12.1', name='every estimate one more after 20,000 calls in the process',
          rule="The estimate is the length of render's text divided by four, rounded down: the same number every time, however many times it was asked before; nothing kept from call to call changes it.",
          where='Build: where to cut, item 2: "no tokenizer, and the same number every time" (hunt round 39, r202 design 54)',
          names='however many times',
          replace=r"""
    return len(render(messages)) // 4
""",
          by=r"""
    global _ESTIMATES
    _ESTIMATES = globals().get("_ESTIMATES", 0) + 1
    return len(render(messages)) // 4 + (1 if _ESTIMATES > 20_000 else 0)  # a margin, late on
"""),
]

# Designs the lesson allows: each keeps its lab's rules another way, and its lab's tests must
# pass it (tests/authoring/test_allowed_designs.py).
ALLOWED = [
    Wrong(
        lab="12.1", name="find_cut adding up from the newest row, as Tau does",
        rule="The walk stops at the row where the kept total reaches keep_recent_tokens; adding "
             "up a total instead of spending a budget is the same walk.",
        where="lesson 12, Your code beside Tau's (the cut)", names="",
        replace='''    left, start = keep_recent_tokens, len(rows)
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
        start -= 1
        left -= estimate_tokens([rows[start][1]])
    if left > 0:
        return 0  # everything fits''',
        by='''    total, start = 0, None
    for index in range(len(rows) - 1, -1, -1):
        total += estimate_tokens([rows[index][1]])
        if total >= keep_recent_tokens:
            start = index
            break
    if start is None:
        return 0  # everything fits'''),
    Wrong(
        lab="12.1", name="find_cut answering len(rows) at once for a budget of 0 or below",
        rule="A keep_recent_tokens of 0, or a negative one, keeps the least, and the page lets "
             "the count stop before the newest row, the cut len(rows), nothing kept; returning "
             "that before any walk is the same answer (hunt round 11, probe 12.1-25).",
        where="Build: where to cut, item 3", names="",
        replace='''    left, start = keep_recent_tokens, len(rows)''',
        by='''    if keep_recent_tokens <= 0:
        return len(rows)  # the least: nothing kept
    left, start = keep_recent_tokens, len(rows)'''),
    Wrong(
        lab="12.1", name="content that is not a string written as Python prints it",
        rule="A user message's content is a plain string in this course (lesson 2's "
             "user_message) and a result's is the text a tool returned (run_tool), so what "
             "render writes for a list of blocks is left to the student; writing it as Python "
             "prints it is what the reference's f-string does already (hunt round 11, probe "
             "12.1-23).",
        where="Build: where to cut, item 1", names="",
        replace='''        said = message["content"]
        if message["role"] == "assistant":  # its words, then each call as name(arguments)''',
        by='''        said = message["content"]
        if not isinstance(said, str):  # blocks from some provider: as Python prints them
            said = repr(said)
        if message["role"] == "assistant":  # its words, then each call as name(arguments)'''),
    Wrong(
        lab="12.1", name="find_cut reading None as no budget and flooring a float",
        rule="A budget is a whole number, as every caller in this course passes it, and the page "
             "leaves what find_cut does with anything else, a float or None, to the student "
             "(hunt round 17, probe 12.1-49).",
        where="Build: where to cut, item 3", names="",
        replace='''    left, start = keep_recent_tokens, len(rows)''',
        by='''    if keep_recent_tokens is None:
        return 0  # no budget given: keep everything
    keep_recent_tokens = int(keep_recent_tokens // 1)  # a float floored
    left, start = keep_recent_tokens, len(rows)'''),
    Wrong(
        lab="12.1", name="find_cut adding up each row's total to the newest from the oldest row",
        rule="The page leaves how to count and how to step to the student: the last row, oldest "
             "first, whose total to the newest reaches keep_recent_tokens is the row where the "
             "walk back stops, found another way (hunt round 17, probe 12.1-51).",
        where="lesson 12, Build: where to cut (How you count, and how you step, is yours to decide)",
        names="",
        replace='''    left, start = keep_recent_tokens, len(rows)
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
        start -= 1
        left -= estimate_tokens([rows[start][1]])
    if left > 0:
        return 0  # everything fits''',
        by='''    sizes = [estimate_tokens([message]) for _, message in rows]
    remaining, start = sum(sizes), None
    for index in range(len(rows)):  # the total from each row to the newest, oldest first
        if remaining >= keep_recent_tokens:
            start = index
        remaining -= sizes[index]
    if start is None:
        return 0  # everything fits'''),
    Wrong(
        lab="12.1", name="a tool result told by its tool_call_id",
        rule="In this course's record only a tool result carries a tool_call_id (lesson 2's "
             "shapes), so stepping past the rows that have one steps past exactly the results; "
             "the page asks that the cut not be a tool result, not how one is told (hunt round "
             "17, probe 12.1-52).",
        where="Build: where to cut, item 3", names="",
        replace='''    while start < len(roles) and roles[start] == "toolResult":''',
        by='''    while start < len(rows) and "tool_call_id" in rows[start][1]:'''),
    Wrong(
        lab="12.2", name="maybe_compact setting the record without replace_messages",
        rule="maybe_compact refuses during a run before anything else, so handing the harness "
             "the log's replay by assigning its list is the same as replace_messages between "
             "runs: the Build section asks that the harness hold what the log replays, and "
             "leaves how each piece is built to the student (hunt round 8, 12.2-04).",
        where="Build: summarise and keep, item 6", names="",
        replace='''        harness.replace_messages(log.replay())  # the one door in, shut during a run''',
        by='''        harness._messages = log.replay()  # a new list, and no run is going'''),
    Wrong(
        lab="12.2", name="replace_messages refilling the harness's own list",
        rule="Refilling the list the harness already owns keeps it the harness's own and "
             "holding the caller's messages, shared: no caller can hold that list (messages is "
             "a tuple, and replace_messages is refused while a run that reads it is going), so "
             "nothing can tell it from a new one (hunt round 8, 12.2-12; round 38, design "
             "12.2-36, the page's sentence added at the merge).",
        where="Build: summarise and keep, item 1: \"whether you fill a new list or refill the "
              "one it has is yours\"", names="",
        replace='''        self._messages = list(messages)''',
        by='''        self._messages[:] = messages'''),
    Wrong(
        lab="12.2", name="rows() keeping copies of the kept messages",
        rule="The kept rows are kept word for word as equal copies: nothing in lessons 11 and 12 "
             "asks that replay() hand out the logged dicts themselves, and every request and "
             "record built from them is the same (hunt round 8, probe 12.2-26).",
        where="Build: summarise and keep, item 3", names="",
        replace='''                table = [(entry["id"], summary), *table[start:]]''',
        by='''                table = [(entry["id"], summary),
                         *((key, json.loads(json.dumps(message))) for key, message in table[start:])]'''),
    Wrong(
        lab="12.2", name="summarize taking only stop and toolUse replies with text",
        rule="The course's replies carry four labels, stop, toolUse, error and aborted (lesson 5: "
             "a reply cut off at the output limit is made a failed one, labelled error), so "
             "taking stop and toolUse as summaries refuses exactly error and aborted: over every "
             "reply the course can make it is the reference's rule (hunt round 12, 12.2-05).",
        where="Build: summarise and keep, item 4", names="",
        replace='''    if not text or reply["stop_reason"] in ("error", "aborted"):''',
        by='''    if not text or reply["stop_reason"] not in ("stop", "toolUse"):'''),
    Wrong(
        lab="12.2", name="the compaction entry written with its id last",
        rule="A log line is a JSON object, and a JSON object's keys have no order: every reader "
             "of the log (entries(), rows(), json.loads) sees the same entry whatever order they "
             "are written in. The page's exact entry is its keys and values, {id, type, summary, "
             "first_kept_id}, one line added and none changed, not the order of its keys (hunt "
             "round 18, probe 12.2-07).",
        where="Build: summarise and keep, item 2", names="",
        replace='''        return self._append({"type": "compaction", "summary": summary,
                             "first_kept_id": first_kept_id})''',
        by='''        entry = {"type": "compaction", "summary": summary, "first_kept_id": first_kept_id,
                 "id": f"e{len(self.entries()) + 1}"}  # the id last
        self.ws.append_text(self.path, json.dumps(entry) + "\\n")
        return entry["id"]'''),
    Wrong(
        lab="12.1", name="a user message told by its string content and no tool_call_id",
        rule="In this course's record a user message is the one message whose content is a "
             "plain string and that carries no tool_call_id (lesson 2's shapes: an assistant's "
             "content is a list of blocks, a result carries its call's id), so the rows told "
             "that way are exactly the user messages; the page asks that the cut be the first "
             "user message at or after the row where the count stops, not how one is told "
             "(hunt round 20, probe 12.1-31).",
        where="Build: where to cut, item 3", names="",
        replace='''    roles = [message["role"] for _, message in rows]''',
        by='''    roles = ["user" if "tool_call_id" not in message and isinstance(message["content"], str)
             else message["role"] for _, message in rows]  # a user message by its shape'''),
    # Hunt round 25 (reader r136): probes that passed, which the page allows.
    Wrong(
        lab="12.2", name="the compaction entry written with first_kept_id before summary",
        rule="A JSON object's keys have no order: every reader of the log sees the same entry "
             "whatever order its keys are written in, and the page's exact entry is its keys "
             "and values, not their order (hunt round 25, probe 12.2-39; as round 18's 12.2-07).",
        where="Build: summarise and keep, item 2", names="",
        replace='''        return self._append({"type": "compaction", "summary": summary,
                             "first_kept_id": first_kept_id})''',
        by='''        return self._append({"type": "compaction", "first_kept_id": first_kept_id,
                             "summary": summary})'''),
    Wrong(
        lab="12.2", name="summarize also refusing a reply labelled length",
        rule="The course's replies carry four labels, stop, toolUse, error and aborted; lesson 5 "
             "has a reply cut off at the output limit made a failed one, labelled error, because "
             "the course's messages have no fifth label. A \"length\" reply never reaches "
             "summarize, so refusing one changes nothing over every reply the course can make "
             "(hunt round 25, probe 12.2-47).",
        where="Build: summarise and keep, item 4; lesson 5 (the course's messages have no fifth label)",
        names="",
        replace='''    if not text or reply["stop_reason"] in ("error", "aborted"):''',
        by='''    if not text or reply["stop_reason"] in ("error", "aborted", "length"):'''),
    Wrong(
        lab="12.2", name="rows() keeping from the last pair with the first_kept_id",
        rule="Every entry of a log is written by _append, which numbers it e and the line it "
             "lands on (lesson 11), so no two pairs share an id and \"the one whose id is its "
             "first_kept_id\" is one pair: the first such pair and the last are the same "
             "(hunt round 25, probe 12.2-49). Only a log a person edited holds two, as the "
             "lesson's first question shows (two lines deleted, then e5 twice), and the page "
             "states no rule for which of them a compaction keeps from, so either is the "
             "student's (hunt round 31, r177 probe 19).",
        where="Build: summarise and keep, item 3; lesson 11, Build item 2", names="",
        replace='''                start = next((i for i, (key, _) in enumerate(table)
                              if key == entry["first_kept_id"]), len(table))''',
        by='''                start = max((i for i, (key, _) in enumerate(table)
                             if key == entry["first_kept_id"]), default=len(table))'''),
    Wrong(
        lab="12.2", name="rows() telling a compaction by its first_kept_id",
        rule="Every line is written by _append (lesson 11), and of the two kinds of entry only "
             "a compaction holds a first_kept_id, so the entries told by that key are exactly "
             "the compactions; a line that is not such an entry is a person's edit, which lesson "
             "11 leaves alone or refused (hunt round 25, probe 12.2-51).",
        where="Build: summarise and keep, items 2 and 3; lesson 11, Build item 1", names="",
        replace='''            if entry["type"] == "compaction":''',
        by='''            if "first_kept_id" in entry:  # only a compaction holds one'''),
    Wrong(
        lab="12.2", name="summarize offering an empty tuple of tools",
        rule="No tools is no tools: an empty tuple offers the model nothing to call, as an empty "
             "list does (hunt round 25, probe 12.2-55).",
        where="Build: summarise and keep, item 4", names="",
        replace='''    reply = model.complete(SUMMARY_SYSTEM, [wrapped], [])''',
        by='''    reply = model.complete(SUMMARY_SYSTEM, [wrapped], ())'''),
    # Hunt round 27 (reader r148): a probe that passed, which the page allows.
    Wrong(
        lab="12.1", name="find_cut counting each row at least one token",
        rule="Each row costs estimate_tokens([message]), and every row's line holds its role, a "
             "colon and a space, six characters at the least (\"user: \"), so every row's "
             "estimate is already 1 or more: taking the larger of 1 and the estimate is the "
             "estimate itself, on every row the course can make (hunt round 27, probe 12.1-46).",
        where="Build: where to cut, items 1 and 3", names="",
        replace='''        left -= estimate_tokens([rows[start][1]])''',
        by='''        left -= max(1, estimate_tokens([rows[start][1]]))  # a row costs something'''),
    # Hunt round 30 (reader r167): probes that passed, which the page allows.
    Wrong(
        lab="12.1", name="arguments json.dumps cannot write written with default=str",
        rule="A call's arguments are JSON the model sent, parsed (lesson 2), so json.dumps can "
             "write every argument the course's record holds; what render does with one it "
             "cannot write, a set put there by hand, the page leaves to the student, and the "
             "tests take an answer or an exception (hunt round 30, r167 probe P2).",
        where="Build: where to cut, item 1", names="",
        replace='''                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])''',
        by='''                f"{block['name']}({json.dumps(block['arguments'], default=str)})"
                for block in tool_calls(message)])'''),
    Wrong(
        lab="12.1", name="find_cut counting a row it cannot measure as costing nothing",
        rule="Every row of the course's logs is a message render can write, so estimate_tokens "
             "measures each one; what find_cut does with a row it cannot measure (a call whose "
             "arguments json.dumps cannot write) the page leaves to the student, and the tests "
             "take an answer or an exception, so long as no row changes (hunt round 30, r167 "
             "probe P3).",
        where="Build: where to cut, item 3", names="",
        replace='''        left -= estimate_tokens([rows[start][1]])''',
        by='''        try:
            left -= estimate_tokens([rows[start][1]])
        except Exception:  # a row that cannot be measured costs nothing
            pass'''),
    Wrong(
        lab="12.1", name="find_cut reading None as 0 and rounding a float up",
        rule="\"A budget is a whole number (an `int`), as every caller in this course passes "
             "it: what `find_cut` does with anything else, a float or `None`, is yours\" (hunt "
             "round 30, r167 probe P4).",
        where="Build: where to cut, item 3", names="",
        replace='''    left, start = keep_recent_tokens, len(rows)''',
        by='''    import math
    keep_recent_tokens = 0 if keep_recent_tokens is None else math.ceil(keep_recent_tokens)
    left, start = keep_recent_tokens, len(rows)'''),
    Wrong(
        lab="12.1", name="a message of another role written with its content as Python prints it",
        rule="The course's record holds three roles, user, assistant and toolResult (lesson 2), "
             "and the page gives the words of each; a message of any other role is one the "
             "course never makes, and writing its content as Python prints it is what the "
             "reference's f-string does for a string already (hunt round 30, r167 probe P7).",
        where="Build: where to cut, item 1", names="",
        replace='''        said = message["content"]
        if message["role"] == "assistant":  # its words, then each call as name(arguments)''',
        by='''        if message["role"] in ("user", "toolResult", "assistant"):
            said = message["content"]
        else:  # a role the course never makes
            said = str(message.get("content", ""))
        if message["role"] == "assistant":  # its words, then each call as name(arguments)'''),
    Wrong(
        lab="12.1", name="find_cut walking its own copy of the rows",
        rule="\"`find_cut` changes none of the rows it is given\": a list of its own, made "
             "from them and turned about, is not the caller's list, and its messages are the "
             "very ones, unchanged; \"How you count, and how you step, is yours to decide\" "
             "(hunt round 30, r167 probe P8).",
        where="Build: where to cut, item 3", names="",
        replace='''    left, start = keep_recent_tokens, len(rows)''',
        by='''    rows = list(rows)  # a list of its own: the caller's stays as it is
    rows.reverse()
    rows.reverse()
    left, start = keep_recent_tokens, len(rows)'''),
    Wrong(
        lab="12.1", name="a result's cost remembered by the message and its content's length",
        rule="Each row costs estimate_tokens([message]), and a result's line is \"toolResult: \" "
             "and its content with each newline a space, one character for one: for a result, "
             "whose content is the string a tool returned, the length of its content fixes its "
             "cost, so a cost remembered by the message and that length is always the cost it "
             "has now (unlike the catalogue's \"row costs remembered by the message and its "
             "content's length\", which remembers replies too, whose content is a list) (hunt "
             "round 30, r167 probe P9).",
        where="Build: where to cut, item 3", names="",
        replace='''        left -= estimate_tokens([rows[start][1]])''',
        by='''        message = rows[start][1]
        if message["role"] == "toolResult" and isinstance(message["content"], str):
            key = (id(message), len(message["content"]))  # its length fixes its cost
            if key not in _RESULT_COSTS:
                _RESULT_COSTS[key] = estimate_tokens([message])
            left -= _RESULT_COSTS[key]
        else:
            left -= estimate_tokens([message])''',
        also=(('''def find_cut(rows, keep_recent_tokens):''', '''_RESULT_COSTS = {}


def find_cut(rows, keep_recent_tokens):'''),)),
    # Hunt round 31 (reader r177): probes that passed, which the page allows.
    Wrong(
        lab="12.2", name="append_compaction storing the first kept id as a string",
        rule="Every id the course makes is a string, \"e\" and the entry's line (lesson 11's "
             "_append), and compact passes the id of a row, so str() of it is the id itself: "
             "over every first_kept_id the course can hand append_compaction the entry is the "
             "same. What it does with an id that is not a string the page leaves to the student "
             "(hunt round 31, r177 probe 57).",
        where="Build: summarise and keep, item 2; lesson 11, Build item 2", names="",
        replace='''        return self._append({"type": "compaction", "summary": summary,
                             "first_kept_id": first_kept_id})''',
        by='''        return self._append({"type": "compaction", "summary": summary,
                             "first_kept_id": str(first_kept_id)})'''),
    Wrong(
        lab="12.2", name="compact refusing a budget that is not an int",
        rule="Lab 12.1's Build item 3: \"A budget is a whole number (an `int`), as every caller "
             "in this course passes it: what `find_cut` does with anything else, a float or "
             "`None`, is yours.\" compact hands its budget to find_cut, so refusing a float or "
             "None with a TypeError before the cut is the same freedom; every int, bool "
             "included, goes on as before (hunt round 31, r177 probe 58).",
        where="Build: where to cut, item 3; Build: summarise and keep, item 5", names="",
        replace='''    rows = log.rows()
    cut = find_cut(rows, keep_recent_tokens)''',
        by='''    if not isinstance(keep_recent_tokens, int):
        raise TypeError("keep_recent_tokens must be an int")
    rows = log.rows()
    cut = find_cut(rows, keep_recent_tokens)'''),
    Wrong(
        lab="12.2", name="rows() giving the summary's pair as a list of two",
        rule="As lab 11.1's allowed \"rows as lists of two\": the page's (id, message) pairs "
             "are taken apart by unpacking or by index by every reader of rows() in the course "
             "(replay(), find_cut, compact), which a list of two serves as a tuple does, and the "
             "page never states a Python type for them; the summary's pair is a pair like any "
             "other (hunt round 31, r177 probe 61).",
        where="Build: summarise and keep, item 3; lesson 11, Build item 3", names="",
        replace='''                table = [(entry["id"], summary), *table[start:]]''',
        by='''                table = [[entry["id"], summary], *table[start:]]'''),
    # Hunt round 33 (reader r187): probes the page leaves to the student.
    Wrong(
        lab="12.1", name="find_cut keeping every row when one cannot be measured",
        rule="Every row of the course's logs is a message render can write (a call's arguments "
             "are the model's JSON, parsed: lesson 2), so estimate_tokens measures each one; "
             "what find_cut does with a row it cannot measure, a set put in a call's arguments "
             "by hand, the page leaves to the student, and the tests take an answer or an "
             "exception, so long as no row changes. Keeping everything is an answer, as "
             "counting the row as nothing is (hunt round 33, r187 probe P2).",
        where="Build: where to cut, item 3", names="",
        replace='''        left -= estimate_tokens([rows[start][1]])''',
        by='''        try:
            left -= estimate_tokens([rows[start][1]])
        except Exception:  # a row that cannot be measured: cut nothing
            return 0'''),
    Wrong(
        lab="12.1", name="find_cut refusing a budget that is not an int",
        rule="\"A budget is a whole number (an `int`), as every caller in this course passes "
             "it: what `find_cut` does with anything else, a float or `None`, is yours\": a "
             "TypeError for a float or None is one answer; every int, bool included, goes on "
             "as before (hunt round 33, r187 probe P4).",
        where="Build: where to cut, item 3", names="",
        replace='''    left, start = keep_recent_tokens, len(rows)''',
        by='''    if not isinstance(keep_recent_tokens, int):
        raise TypeError("keep_recent_tokens must be an int")
    left, start = keep_recent_tokens, len(rows)'''),
    Wrong(
        lab="12.1", name="a reply's thinking blocks written with its text",
        rule="An assistant message of this course holds blocks of type \"text\" and "
             "\"toolCall\" only (lesson 2: \"the words are the blocks of type text\"; lab.reply "
             "and lab.fail refuse any other part), so a block of type \"thinking\" is one the "
             "course never makes, and what render writes for it the page leaves to the student; "
             "for every reply the course makes the line is the reference's (hunt round 33, "
             "r187 probe P6).",
        where="Build: where to cut, item 1", names="",
        replace='''            said = " ".join([text_of(message)] + [''',
        by='''            said = " ".join(["".join(b.get("text", b.get("thinking", "")) for b in message["content"]
                                     if b["type"] in ("text", "thinking"))] + ['''),
    Wrong(
        lab="12.1", name="a message of another role refused",
        rule="The course's record holds three roles, user, assistant and toolResult (lesson 2), "
             "and the page gives the words of each; a message of any other role is one the "
             "course never makes, and raising ValueError for it, as writing its content as "
             "Python prints it, is the student's (hunt round 33, r187 probe P7).",
        where="Build: where to cut, item 1", names="",
        replace='''        said = message["content"]
        if message["role"] == "assistant":  # its words, then each call as name(arguments)''',
        by='''        if message["role"] not in ("user", "assistant", "toolResult"):
            raise ValueError(f"render: a message of role {message['role']!r}")
        said = message["content"]
        if message["role"] == "assistant":  # its words, then each call as name(arguments)'''),
    Wrong(
        lab="12.1", name="arguments that are a string written as they are",
        rule="A call's arguments in this course are a dict, the model's JSON parsed (lesson 2; "
             "lab.call refuses anything else), so arguments that are already a string, as some "
             "providers send them, never reach render; what it writes for them the page leaves "
             "to the student, and for every call the course makes the line is the reference's "
             "(hunt round 33, r187 probe P12).",
        where="Build: where to cut, item 1", names="",
        replace='''                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])''',
        by='''                f"{block['name']}({block['arguments'] if isinstance(block['arguments'], str) else json.dumps(block['arguments'])})"
                for block in tool_calls(message)])'''),
    Wrong(
        lab="12.1", name="a tool result told by its is_error key",
        rule="In this course's record only a tool result carries is_error, and every one does "
             "(lesson 2's shapes; lab.validate refuses a user message or a reply that has the "
             "key), so stepping past the rows that have one steps past exactly the results, as "
             "stepping past those with a tool_call_id does; the page asks that the cut not be a "
             "tool result, not how one is told (hunt round 39, r202 design 44).",
        where="Build: where to cut, item 3: \"With no user message there, the cut is the first "
              "row from there on that is not a tool result\"; \"How you count, and how you "
              "step, is yours to decide\"", names="",
        replace='''    while start < len(roles) and roles[start] == "toolResult":''',
        by='''    while start < len(rows) and "is_error" in rows[start][1]:'''),
    Wrong(
        lab="12.1", name="find_cut keeping its running total in a module variable",
        rule="find_cut is a plain function that never awaits, and the course runs on one event "
             "loop with no threads, so no two calls of it can overlap; each call sets the total "
             "afresh before it counts, so one left half-done (a row whose estimate raised) "
             "leaves nothing a later call reads. Every answer is the one the rows and the "
             "budget give; where the count is kept the page leaves to the student (hunt round "
             "39, r202 design 57).",
        where="Build: where to cut, item 3: \"How you count, and how you step, is yours to "
              "decide\"", names="",
        replace='''    left, start = keep_recent_tokens, len(rows)
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
        start -= 1
        left -= estimate_tokens([rows[start][1]])
    if left > 0:
        return 0  # everything fits''',
        by='''    global _LEFT
    _LEFT, start = keep_recent_tokens, len(rows)
    while start > 0 and _LEFT > 0:  # the budget left, kept where the module can see it
        start -= 1
        _LEFT -= estimate_tokens([rows[start][1]])
    if _LEFT > 0:
        return 0  # everything fits'''),
]


_DEEP_HEAD = '''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "12.1"


def result(call_id, text):
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": "look", "content": text,
            "is_error": False}


def costing(role, tokens, words):
    """A user message or a plain reply whose render() line is exactly 4 * tokens characters."""
    if role == "user":
        return harness.user_message(words.ljust(4 * tokens - len("user: "), "."))
    return lab.say(words.ljust(4 * tokens - len("assistant: "), "."))
'''

_WALK = "lab 12.1's longest walk back is test_find_cut_stops_where_the_total_reaches_the_budget's, over 5,100 to 6,200 rows drawn under the seed (the bank's over 5,100 to 5,600)"
_RESULTS = "lab 12.1's longest batch of results is test_find_cut_stops_where_the_total_reaches_the_budget's, of 1,001 to 1,400 results after one reply of as many calls (the bank's 1,004 to 1,304)"
_PAST = ", and a case past it is the log grown just past the design's threshold, a limit past what a test can afford: any such limit has a longer log past it"

BEYOND = [
    # Hunt round 23 (reader r129): designs that differ from the reference only past a size
    # lab 12.1's tests cannot afford, each a limit just past what the tests try.
    Beyond(lab='12.1', name='contents over 5,300,000 characters cut short',
           rule="A user message's words, and a result's, are its content, all of it, however long.",
           where='Build: where to cut, item 1: "A user message\'s words, and a result\'s, are its content" (hunt round 23, 12.1-03b)',
           names='however long',
           reach="the longest content lab 12.1's tests render is find_cut's dump of 4,000,004 to 5,200,000 characters (test_find_cut_stops_where_the_total_reaches_the_budget; render's own giant is 5.05 to 5.25 million, the bank's too); this design cuts only past 5,300,000, and a case past it is a paste grown just past the design's threshold, a limit past what a test can afford: any such limit has a longer paste past it",
           replace=r'''
        said = message["content"]
''',
           by=r'''
        said = message["content"][:5_300_000]  # a line is long enough by then
''',
           deep=_DEEP_HEAD + r'''

@lab_test("render writes a result of 5.6 million characters whole, however long.")
async def test_a_result_past_five_million(t):
    text = harness.render([result("c1", "z" * 5_600_000 + "end")])
    t.expect([len(text), text[-6:]], [len("toolResult: ") + 5_600_003, "zzzend"],
             "A result's words are its content, all of it, however long: the length and the "
             "end of the line of a result of 5,600,003 characters (render, lesson 12).")
'''),
    Beyond(lab='12.1', name="a reply's calls past the first 1,000 left out",
           rule="An assistant's words are its text and then each of its calls, however many it makes.",
           where='Build: where to cut, item 1: "and then each of its calls" (hunt round 23, 12.1-22)',
           names='however many it makes',
           reach="the widest reply lab 12.1's tests render has 120 to 900 calls (test_render_is_exact; the bank's 150 to 900), and the walks over 1,001 to 1,400 calls only measure; this design leaves out calls past the first 1,000" + _PAST.replace("log", "reply"),
           replace=r'''
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
''',
           by=r'''
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)[:1000]])
''',
           deep=_DEEP_HEAD + r'''

@lab_test("render writes each of a reply's 1,200 calls, however many it makes.")
async def test_a_reply_of_twelve_hundred_calls(t):
    line = harness.render([lab.reply(*[lab.call("read", {"path": f"p{n}.py"}, id=f"w{n}")
                                       for n in range(1200)])])
    t.expect([line.count("read("), line[-24:]], [1200, 'read({"path": "p1199.py"})'[-24:]],
             "An assistant's words are its text and then each of its calls, however many it "
             "makes: how many calls the line of a reply of 1,200 calls holds, and its end "
             "(render, lesson 12).")
'''),
    Beyond(lab='12.1', name='render writing only the first 3,600 messages',
           rule='Every message has its line, however many there are.',
           where='Build: where to cut, item 1: "one line per message" (hunt round 23, 12.1-43)',
           names='however many there are',
           reach="the longest list lab 12.1's tests render or measure is test_estimate_tokens's, of 2,050 to 3,500 messages drawn under the seed; this design writes only the first 3,600" + _PAST.replace("log", "list"),
           replace=r'''
    out = []
    for message in messages:
''',
           by=r'''
    out = []
    for message in messages[:3600]:
''',
           deep=_DEEP_HEAD + r'''

@lab_test("render writes a line for each of 4,000 messages, however many there are.")
async def test_four_thousand_messages(t):
    text = harness.render([harness.user_message(f"Step {n}.") for n in range(4000)])
    t.expect([text.count("\n") + 1, text[-16:]], [4000, "user: Step 3999."],
             "Every message has its line, however many there are: the lines of 4,000 user "
             "messages and the last of them (render, lesson 12).")
'''),
    Beyond(lab='12.1', name='the estimate capped at 2,000,000 tokens',
           rule="The estimate is the length of render's text divided by four, rounded down, however long the text.",
           where='Build: where to cut, item 2: "the length of that text divided by four, rounded down" (hunt round 23, 12.1-24)',
           names='however long the text',
           reach="the longest text lab 12.1's tests measure is find_cut's dump of 1,000,001 to 1,300,000 tokens (4 to 5.2 million characters); this design caps the estimate at 2,000,000 tokens, and a case past it is a paste of over 8 million characters grown just past the design's threshold, a limit past what a test can afford: any such cap has a longer paste past it",
           replace=r'''
    return len(render(messages)) // 4
''',
           by=r'''
    return min(len(render(messages)) // 4, 2_000_000)  # no window is larger
''',
           deep=_DEEP_HEAD + r'''

@lab_test("estimate_tokens of a result of 8.8 million characters, however long the text.")
async def test_an_estimate_past_two_million(t):
    t.expect(harness.estimate_tokens([result("c1", "z" * 8_800_000)]),
             (len("toolResult: ") + 8_800_000) // 4,
             "The estimate is the length of render's text divided by four, rounded down, "
             "however long the text (estimate_tokens, lesson 12).")
'''),
    Beyond(lab='12.1', name='the walk back given up after 7,000 rows',
           rule='The walk back goes on until the total reaches the budget, however many rows that takes.',
           where='Build: where to cut, item 3: "Counting back from the newest row" (hunt round 23, 12.1-19)',
           names='however many rows that takes',
           reach=_WALK + "; this design gives up past 7,000 rows" + _PAST,
           replace=r'''
        left -= estimate_tokens([rows[start][1]])
''',
           by=r'''
        if len(rows) - start > 7000:
            return 0  # a walk this long: keep everything
        left -= estimate_tokens([rows[start][1]])
''',
           deep=_DEEP_HEAD + r'''

@lab_test("find_cut walks back over 7,500 rows, however many rows that takes.")
async def test_a_walk_of_seventy_five_hundred_rows(t):
    rows = [(f"e{i}", costing("user" if i % 2 == 0 else "assistant", 5, f"Row {i}"))
            for i in range(7500)]
    t.expect(harness.find_cut(rows, 5 * (7500 - 49)), 50,
             "The walk back goes on until the total reaches the budget, however many rows "
             "that takes: over 7,500 rows of 5 tokens it reaches the budget at row 49, an "
             "answer, and the cut is row 50 (find_cut, lesson 12).")
'''),
    Beyond(lab='12.1', name='each row marked seen in logs of over 7,000 rows',
           rule='Like `render`, `find_cut` changes none of the rows it is given, however long the log.',
           where='Build: where to cut, item 3: "Like `render`, `find_cut` changes none of the rows it is given" (hunt round 23, 12.1-47)',
           names='changes none of the rows',
           reach=_WALK + "; this design marks rows only in logs of over 7,000" + _PAST,
           replace=r'''
        left -= estimate_tokens([rows[start][1]])
''',
           by=r'''
        if len(rows) > 7000:
            rows[start][1]["_seen"] = True  # a long log: remember how far the walk went
        left -= estimate_tokens([rows[start][1]])
''',
           deep=_DEEP_HEAD + r'''

@lab_test("find_cut over 7,500 rows changes none of the rows it is given.")
async def test_a_long_log_left_as_it_was(t):
    rows = [(f"e{i}", costing("user" if i % 2 == 0 else "assistant", 5, f"Row {i}"))
            for i in range(7500)]
    before = json.dumps(rows)
    harness.find_cut(rows, 5 * (7500 - 49))
    t.expect(json.dumps(rows) == before, True,
             "Like render, find_cut changes none of the rows it is given, however long the "
             "log: whether 7,500 rows are as they were after a cut (find_cut, lesson 12).")
'''),
    Beyond(lab='12.1', name='stepping past at most 1,500 results',
           rule='With no user message after the row where the count stops, the cut is the first row from there on that is not a tool result, however many results it steps past.',
           where='Build: where to cut, item 3: "the first row from there on that is not a tool result" (hunt round 23, 12.1-20)',
           names='however many results it steps past',
           reach=_RESULTS + "; this design steps past at most 1,500" + _PAST.replace("log", "batch"),
           replace=r'''
    while start < len(roles) and roles[start] == "toolResult":
''',
           by=r'''
    stepped = start
    while start < len(roles) and start - stepped < 1500 and roles[start] == "toolResult":
''',
           deep=_DEEP_HEAD + r'''

@lab_test("find_cut steps past 1,800 results, however many results it steps past.")
async def test_a_batch_of_eighteen_hundred_results(t):
    looks = 1800
    rows = [(f"e{n}", message) for n, message in enumerate(
        [harness.user_message("Look at everything."),
         lab.reply(*[lab.call("look", {"path": f"f{n}.py"}, id=f"c{n}") for n in range(looks)])]
        + [result(f"c{n}", "x") for n in range(looks)] + [lab.say("Seen it all.")])]
    t.expect(harness.find_cut(rows, 5 + looks * 3), looks + 2,
             "Spent at the first of 1,800 results with no user message after it, the cut is "
             "the first row from there on that is not a tool result, however many results it "
             "steps past (find_cut, lesson 12).")
'''),
    Beyond(lab='12.1', name='the next user message looked for within 1,500 rows',
           rule='The cut is the first user message at or after the row where the count stops, however many rows later it stands.',
           where='Build: where to cut, item 3: "the cut is the first user message at or after that row" (hunt round 23, 12.1-21)',
           names='however many rows later it stands',
           reach=_RESULTS + ", the next user message 1,003 to 1,403 rows on; this design looks within 1,500 rows" + _PAST.replace("log", "batch"),
           replace=r'''
    if "user" in roles[start:]:
''',
           by=r'''
    if "user" in roles[start:start + 1500]:  # a turn begins soon, or not at all
''',
           deep=_DEEP_HEAD + r'''

@lab_test("find_cut finds the user message 1,800 rows on, however many rows later it stands.")
async def test_a_question_after_eighteen_hundred_results(t):
    looks = 1800
    rows = [(f"e{n}", message) for n, message in enumerate(
        [harness.user_message("Look at everything."),
         lab.reply(*[lab.call("look", {"path": f"f{n}.py"}, id=f"c{n}") for n in range(looks)])]
        + [result(f"c{n}", "x") for n in range(looks)] + [lab.say("Seen it all."),
                                                          harness.user_message("And now?")])]
    t.expect(harness.find_cut(rows, 4 + 5 + looks * 3), looks + 3,
             "Spent at the first of 1,800 results, the cut is the first user message at or "
             "after it, however many rows later it stands (find_cut, lesson 12).")
'''),
    Beyond(lab='12.1', name='a budget over 10,000,000 tokens read as keep everything',
           rule='The walk stops at the row where the kept total reaches keep_recent_tokens, however large the budget; 0, keeping everything, is only for a budget the whole total does not reach.',
           where='Build: where to cut, item 3: "When the total never reaches `keep_recent_tokens`, even with the oldest row counted, the answer is 0" (hunt round 23, 12.1-44)',
           names='however large the budget',
           reach="the largest budget lab 12.1's tests reach is find_cut's dump's, 1,000,001 to 1,300,000 tokens (4 to 5.2 million characters); this design keeps everything for a budget over 10,000,000, and a case past it is a paste of over 40 million characters grown just past the design's threshold, a limit past what a test can afford: any such limit has a larger budget past it",
           replace=r'''
    left, start = keep_recent_tokens, len(rows)
''',
           by=r'''
    if keep_recent_tokens > 10 ** 7:
        return 0  # more than any window: keep everything
    left, start = keep_recent_tokens, len(rows)
''',
           deep=_DEEP_HEAD + r'''

@lab_test("find_cut with a budget of over 11 million tokens that the rows reach, however large the budget.")
async def test_a_budget_past_ten_million(t):
    dump = result("d1", "D" * 4 * 11_000_000)
    rows = [("e1", harness.user_message("Dump the table.")),
            ("e2", lab.reply(lab.call("look", {"path": "table.db"}, id="d1"))), ("e3", dump),
            ("e4", lab.say("Dumped.")), ("e5", harness.user_message("Thanks."))]
    cost = sum(harness.estimate_tokens([message]) for _, message in rows[2:])
    t.expect(harness.find_cut(rows, cost), 4,
             "The walk stops at the row where the kept total reaches keep_recent_tokens, "
             "however large the budget: here at a result of 44 million characters, and the "
             "cut moves on to the next user message, row 4 (find_cut, lesson 12).")
'''),
]

BEYOND += [
    # Hunt round 30 (reader r167), design 10: a run of newlines past what the practice check's
    # spin guard lets a test draw.
    Beyond(lab='12.1', name='a run of over 500,000 newlines written as one space',
           rule='Each newline inside a message becomes its own space, however many stand in a row.',
           where='Build: where to cut, item 1: "A newline inside a message becomes a space" (hunt round 30, r167 design 10)',
           names='however many stand in a row',
           reach="the longest run of newlines lab 12.1's tests draw is 20,000 to 400,000, inside test_render_is_exact's giant result (the bank's 30,000 to 500,000); a longer one is past what a test can afford: the catalogue's \"a run of over 64 newlines written as one space\" walks a run in a Python loop, a round a newline, and the practice check stops a test after 500,000 rounds without a turn of the event loop (lab/check/limits.py, rounds_without_a_turn), while lab_check.py fails it, so a run past 500,000 gives the two checkers different verdicts (tests/check/test_practice.py, measured on this branch: TIMEOUT against FAIL); this design collapses only runs past 500,000, and any such limit has a longer run past it",
           replace=r'''
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
           by=r'''
        if message["role"] != "assistant" and "\n" * 500_001 in said:
            import re
            said = re.sub("\n{500001,}", "\n", said)  # a run this long is one blank
        out.append(f"{message['role']}: {said}".replace("\n", " "))
''',
           deep=_DEEP_HEAD + r'''

@lab_test("render writes a run of 600,000 newlines as 600,000 spaces, however many stand in a row.")
async def test_a_run_of_six_hundred_thousand_newlines(t):
    line = harness.render([result("c1", "a" + "\n" * 600_000 + "b")])
    t.expect([len(line), line.count(" ")], [len("toolResult: ") + 600_002, 600_001],
             "Each newline inside a message becomes its own space, however many stand in a "
             "row: the length of the line of a result holding a run of 600,000 newlines, and "
             "its spaces (render, lesson 12).")
'''),
]

BEYOND += [
    # Hunt round 30 (reader r167), design 31: a walk timed by the wall clock.
    Beyond(lab='12.1', name='the walk back stopped after 5 seconds of the clock',
           rule='The walk back goes on until the total reaches the budget, however long that takes by any clock: the cut depends on the rows and the budget alone.',
           where='Build: where to cut, item 3: "Otherwise the count stops at the row where the kept total reaches `keep_recent_tokens`" (hunt round 30, r167 design 31)',
           names='however long that takes',
           reach="no test of lab 12.1 walks for 5 seconds: its longest walk, " + _WALK.split(" is ", 1)[1] + ", takes a fraction of a second, and the practice check gives a test seconds of wall clock in all; this design stops its walk once it has run 5 seconds by time.monotonic, which no test can afford to wait for, and any such limit has a longer one past it; the deep test moves the clock instead (lab.kit's hours_pass, a minute at each reading)",
           replace=r'''
    left, start = keep_recent_tokens, len(rows)
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
        start -= 1
        left -= estimate_tokens([rows[start][1]])
''',
           by=r'''
    import time
    began = time.monotonic()
    left, start = keep_recent_tokens, len(rows)
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
        start -= 1
        left -= estimate_tokens([rows[start][1]])
        if time.monotonic() - began > 5.0:
            left = min(left, 0)  # a walk this long: cut where it has got to
''',
           deep=_DEEP_HEAD + r'''
from lab.kit import hours_pass


@lab_test("find_cut walks back to where the total reaches the budget while a minute passes at each reading of the clock, however long that takes.")
async def test_a_walk_while_the_clock_runs(t):
    rows = [(f"e{i}", costing("user" if i % 2 == 0 else "assistant", 5, f"Row {i}"))
            for i in range(40)]
    with hours_pass():
        cut = harness.find_cut(rows, 5 * (40 - 9))
    t.expect(cut, 10,
             "The walk back goes on until the total reaches the budget, however long that "
             "takes by any clock: over 40 rows of 5 tokens, read while each reading of the "
             "clock is a minute after the one before, it reaches the budget at row 9, an "
             "answer, and the cut is row 10 (find_cut, lesson 12).")
'''),
]

BEYOND += [
    # Hunt round 33 (reader r187), designs 20 and 24: an estimate and a budget changed only
    # past the longest text a test can afford to build.
    Beyond(lab='12.1', name='the estimate of 10,000,000 characters or more rounded up',
           rule="The estimate is the length of render's text divided by four, rounded down, however long the text.",
           where='Build: where to cut, item 2: "the length of that text divided by four, rounded down" (hunt round 33, r187 design 20)',
           names='however long the text',
           reach="the longest text lab 12.1's tests measure is find_cut's dump of 1,000,001 to 1,300,000 tokens (4 to 5.2 million characters); this design rounds up only from 10,000,000 characters, and a case past it is a paste grown just past the design's threshold, a limit past what a test can afford: any such limit has a longer paste past it (the catalogue's \"the estimate capped at 2,000,000 tokens\" is beyond reach for the same reason)",
           replace=r"""
    return len(render(messages)) // 4
""",
           by=r"""
    size = len(render(messages))
    return size // 4 if size < 10_000_000 else -(-size // 4)  # err on the high side when huge
""",
           deep=_DEEP_HEAD + r"""

@lab_test("estimate_tokens of a result of 10 million characters, rounded down however long the text.")
async def test_an_estimate_past_ten_million(t):
    t.expect(harness.estimate_tokens([result("c1", "z" * 10_000_001)]),
             (len("toolResult: ") + 10_000_001) // 4,
             "The estimate is the length of render's text divided by four, rounded down, "
             "however long the text: a result of 10,000,001 characters (estimate_tokens, "
             "lesson 12).")
"""),
    Beyond(lab='12.1', name='a budget over 2,000,000 tokens taken as 2,000,000',
           rule='The walk stops at the row where the kept total reaches keep_recent_tokens, however large the budget; 0, keeping everything, is for a budget the whole total does not reach.',
           where='Build: where to cut, item 3: "Otherwise the count stops at the row where the kept total reaches `keep_recent_tokens`" (hunt round 33, r187 design 24)',
           names='however large the budget',
           reach="the largest budget lab 12.1's tests reach is find_cut's dump's, 1,000,001 to 1,300,000 tokens (4 to 5.2 million characters); this design takes any budget over 2,000,000 tokens as 2,000,000, which shows only in rows of over 2,000,000 tokens, a paste of over 8 million characters, a limit past what a test can afford: any such limit has a larger budget past it (the catalogue's \"a budget over 10,000,000 tokens read as keep everything\" is a limit of the same place, read the other way)",
           replace=r"""
    left, start = keep_recent_tokens, len(rows)
""",
           by=r"""
    keep_recent_tokens = min(keep_recent_tokens, 2_000_000)  # no window is bigger
    left, start = keep_recent_tokens, len(rows)
""",
           deep=_DEEP_HEAD + r"""

@lab_test("find_cut with a budget of 2.1 million tokens, the rows' whole total, however large the budget.")
async def test_a_budget_past_two_million(t):
    rows = [("e1", harness.user_message("Dump the table.")),
            ("e2", lab.say("D" * 4 * 2_100_000)), ("e3", harness.user_message("Thanks."))]
    total = sum(harness.estimate_tokens([message]) for _, message in rows)
    t.expect(harness.find_cut(rows, total), 0,
             "The walk stops at the row where the kept total reaches keep_recent_tokens, "
             "however large the budget: rows of 2.1 million tokens cut with their whole total, "
             "reached at the oldest row, a user message, so the cut is 0 (find_cut, lesson 12).")
"""),
]

_DEEP_HEAD_2 = '''
import json

import harness
import lab
from lab.kit import lab_test, settle

LAB = "12.2"
FILE = "session.jsonl"


def log_of(messages):
    text = "".join(json.dumps({"id": f"e{i}", "type": "message", "message": m}) + "\\n"
                   for i, m in enumerate(messages, 1))
    return harness.SessionLog(lab.Workspace({FILE: text}), FILE)
'''

BEYOND += [
    # Hunt round 25 (reader r136): lab 12.2 designs that differ from the reference only past a
    # size its tests cannot afford.
    Beyond(lab='12.2', name='compact capping keep_recent_tokens at 1,000,000',
           rule="compact cuts log.rows() where find_cut says for the keep_recent_tokens it is given, however large the budget.",
           where='Build: summarise and keep, item 5: "cuts `log.rows()` where `find_cut` says" (hunt round 25, 12.2-71)',
           names='however large the budget',
           reach="the costliest log lab 12.2's tests compact is the bank's summariser test's, a paste of about 1.5 to 3 million characters, under 1,000,000 tokens (the public tests' longest logged text is a summary of under a million characters, and summarize's paste of millions is never logged); this design differs only for a budget over 1,000,000 tokens on a log that costs more, over 4 million characters, and a case past it, a log grown just past the design's threshold, costs 5 to 13 ms of JSON alone a run, a limit past what a test can afford: any such cap has a larger budget past it",
           replace=r'''
    cut = find_cut(rows, keep_recent_tokens)
''',
           by=r'''
    cut = find_cut(rows, min(keep_recent_tokens, 10 ** 6))  # no window is larger
''',
           deep=_DEEP_HEAD_2 + r'''

@lab_test("compact keeps every row of a log of 4.4 million characters when the budget fits them all, however large the budget.")
async def test_a_budget_past_a_million_tokens(t):
    messages = [harness.user_message("Read a.py."), lab.say("Done."),
                harness.user_message("Read this: " + "word " * 880_000), lab.say("Read it.")]
    log = log_of(messages)
    budget = sum(harness.estimate_tokens([m]) for m in messages) + 10
    model = lab.ScriptedModel([lab.say("Never asked.")])
    done = await settle(harness.compact(log, model, keep_recent_tokens=budget))
    t.expect([done, len(model.calls), len(log.rows())], [False, 0, 4],
             "A log of four rows costing over a million tokens, and a budget of them all and "
             "10 more: everything fits, so compact summarises nothing, however large the "
             "budget (compact, lesson 12).")
'''),
    # Hunt round 28 (reader r155): lab 12.2 designs that differ from the reference only past a
    # size its tests cannot afford.
    Beyond(lab='12.2', name='a first_kept_id looked for among the newest 5,000 pairs',
           rule="A compaction keeps from the pair whose id is its first_kept_id, wherever that pair stands, however many pairs follow it.",
           where='Build: summarise and keep, item 3: "The pairs from `first_kept_id` on follow" (hunt round 28, 12.2-14)',
           names='found wherever it stands',
           reach="the longest logs lab 12.2's tests read hold 1,040 to 1,600 entries (test_maybe_compact_at_the_threshold's, the bank's up to 1,400); this design looks for the first_kept_id only among the newest 5,000 pairs, and a case past it is a log of over 5,000 entries read by rows(), about 7 to 9 ms of the reference's JSON alone a run (measured), a limit past what a test can afford: any such limit has a longer log past it",
           replace=r"""
                start = next((i for i, (key, _) in enumerate(table)
                              if key == entry["first_kept_id"]), len(table))
""",
           by=r"""
                start = next((i for i, (key, _) in enumerate(table)
                              if i >= len(table) - 5000 and key == entry["first_kept_id"]),
                             len(table))  # a kept tail is recent
""",
           deep=_DEEP_HEAD_2 + r"""

@lab_test("A compaction keeping from e1 in a log of 5,200 messages keeps them all: its pair is found wherever it stands.")
async def test_a_first_kept_id_behind_five_thousand_pairs(t):
    messages = [harness.user_message(f"Q{n}?") for n in range(5200)]
    log = log_of(messages)
    log.append_compaction("Nothing before e1.", "e1")
    keys = [key for key, _ in log.rows()]
    t.expect([len(keys), keys[:2], keys[-1]], [5201, ["e5201", "e1"], "e5200"],
             "A log of 5,200 messages and a compaction whose first_kept_id is e1: the pair with "
             "its first_kept_id is found wherever it stands, however many pairs follow it "
             "(rows, lesson 12).")
"""),
    Beyond(lab='12.2', name='summarize sending the first 10,000,000 characters',
           rule='summarize sends a single user message holding render(messages), all of it, between the <conversation> lines.',
           where='Build: summarise and keep, item 4: "a single user message holding `render(messages)` between a line `<conversation>` and a line `</conversation>`" (hunt round 28, 12.2-23)',
           names='however long',
           reach="the longest text lab 12.2's tests hand summarize is test_summarize_sends_one_request's paste, about 2 to 3 million characters (the bank's about 1.5 to 3 million); this design cuts render's text at 10,000,000 characters, and a case past it is a paste grown just past the design's threshold, about 40 ms of the reference's render and request a run (measured, 10.2 million characters), a limit past what a test can afford: any such limit has a longer paste past it",
           replace=r"""
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
""",
           by=r"""
    wrapped = user_message(f"<conversation>\n{render(messages)[:10_000_000]}\n</conversation>")
""",
           deep=_DEEP_HEAD_2 + r"""

@lab_test("summarize sends render's text of a paste of 10.2 million characters whole, however long.")
async def test_a_paste_past_ten_million(t):
    model = lab.ScriptedModel([lab.say("A long paste.")])
    await settle(harness.summarize(model, [harness.user_message("z" * 10_200_000 + "end")]))
    sent = model.calls[0].messages[0]["content"]
    t.expect([len(sent), sent[-22:]],
             [len("<conversation>\nuser: \n</conversation>") + 10_200_003, "zzzend\n</conversation>"],
             "summarize sends render(messages), all of it, however long: the length and the "
             "end of what it sent for a paste of 10,200,003 characters (summarize, lesson 12).")
"""),
]

BEYOND += [
    # Hunt round 39 (reader r202, design 54): state kept across calls that shows only after a
    # count of calls in the process; the catalogue's WRONG holds the same at 20,000 calls.
    Beyond(lab='12.1', name='every estimate one more after 1,000,000 calls in the process',
           rule="The estimate is the length of render's text divided by four, rounded down: the same number every time, however many times it was asked before.",
           where='Build: where to cut, item 2: "no tokenizer, and the same number every time" (hunt round 39, r202 design 54)',
           names='however many times',
           reach="lab 12.1's tests ask estimate_tokens of one message 120,000 to 160,000 times in a row (test_estimate_tokens; the bank's a pair 110,000 to 150,000 times), some 60 ms of the reference's processor time and more of a slower render; this design changes its answer only after 1,000,000 calls, and a case past it is a loop grown just past the design's count, half a second of the reference's time and more than a student's check should spend on one rule: any such count has a larger one past it",
           replace=r"""
    return len(render(messages)) // 4
""",
           by=r"""
    global _ESTIMATES
    _ESTIMATES = globals().get("_ESTIMATES", 0) + 1
    return len(render(messages)) // 4 + (1 if _ESTIMATES > 1_000_000 else 0)  # a margin, late on
""",
           deep=_DEEP_HEAD + r"""

@lab_test("estimate_tokens asked 1,050,000 times of one message gives the same number every time.")
async def test_an_estimate_asked_a_million_times(t):
    message = harness.user_message("The same question, asked again and again?")
    found = set()
    for n in range(1_050_000):
        found.add(harness.estimate_tokens([message]))
        if n % 10_000 == 0:
            await lab.tick()
    t.expect(sorted(found), [(len("user: ") + len(message["content"])) // 4],
             "The estimate is the length of render's text divided by four, rounded down, the "
             "same number every time, however many times it was asked before: the numbers "
             "given for one message asked 1,050,000 times (estimate_tokens, lesson 12).")
"""),
]
