"""Lesson 6, "Budgets: the file that ate the context window": the wrong designs its rungs rule
out, each as a small change to lab 6.1's reference. The format is tools/wrong_designs.py's.
"""
from tools.wrong_designs import Beyond, Wrong

WRONG = [
    # Hunt round 10 (reader r42), probe 6.1-09: the reference's until the page ruled.
    Wrong(lab='6.1', name='a read made with max_lines=0 calling its first line too big',
          rule="A read tool made with max_lines=0 shows no line and says so: \"[No line of PATH is shown: this read's budget is 0 lines.]\", not that a line is over the byte budget.",
          where='lab 6.1, Build section, item 4: "but a tool made with `max_lines=0` shows no line and says so"',
          names='shows no line and says so',
          replace=r'''
        if shown == 0 and end >= start and max_lines == 0:  # lines were wanted; none may be
            return f"[No line of {path} is shown: this read's budget is 0 lines.]"
''',
          by=''),
    Wrong(lab='6.1', name='characters instead of bytes, in truncate_head',
          rule='The budget counts bytes of UTF-8, len(line.encode()), not characters: an é costs two.',
          where='rung: Bytes, not characters',
          names='not characters',
          replace='        used += len(lines[count].encode())',
          by='        used += len(lines[count])'),
    Wrong(lab='6.1', name='characters instead of bytes, in truncate_tail',
          rule='The budget counts bytes of UTF-8, len(line.encode()), not characters, from the bottom as from the top.',
          where='rung: Bytes, not characters',
          names='bytes',
          replace=r'''
        used += len(lines[-1 - count].encode())  # counting up from the last line
''',
          by=r'''
        used += len(lines[-1 - count])  # counting up from the last line
'''),
    Wrong(lab='6.1', name='half lines',
          rule='A cut keeps whole lines: half a line reads like a real one, and offset cannot reach the rest of it.',
          where='rung: Whole lines',
          names='whole lines',
          replace=r'''
    lines = text.splitlines(keepends=True)
    count, used = 0, 0
    while count < min(len(lines), max_lines):
        used += len(lines[count].encode())
        if used > max_bytes:  # this line would not fit: stop before it
            break
        count += 1
    return "".join(lines[:count]), count
''',
          by=r'''
    lines = text.splitlines(keepends=True)
    kept = "".join(lines[:max_lines]).encode()[:max_bytes].decode("utf-8", "ignore")
    return kept, len(kept.splitlines())
'''),
    Wrong(lab='6.1', name='the first part of a line too big to fit',
          rule='A line over the budget of one read is named with its size and never cut in half.',
          where='open question: The line that will not fit',
          names='never cut in half',
          replace=r'''
            return (f"[Line {start} of {path} is {size} bytes, over the {max_bytes}-byte "
                    f"budget of one read, so none of it is shown.{hint}]")
''',
          by=r'''
            return lines[start - 1].encode()[:max_bytes].decode("utf-8", "ignore")  # something
'''),
    Wrong(lab='6.1', name='the head of command output',
          rule='Command output is cut from the top, so its end, where the verdict is, stays.',
          where='rung: Which end to keep',
          names='where the verdict is',
          replace=r'''
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
''',
          by=r'''
        output, kept_lines = truncate_head(output, max_lines, max_bytes)  # one rule for every tool
'''),
    Wrong(lab='6.1', name='a silent cut, in read',
          rule='Every cut ends with a sentence: a read that stops early says where it stopped and how to go on.',
          where='rung: The note',
          names='how to go on',
          replace=r'''
        if last < total:
            chunk += f"[Showing lines {start}-{last} of {total}. Use offset={last + 1} to continue.]"
''',
          by=''),
    Wrong(lab='6.1', name='a silent cut, in bash',
          rule="Every cut ends with a sentence: the note says how much of the command's output was dropped.",
          where='rung: The note',
          names='how much was dropped',
          replace=r'''
        if kept_lines < printed:
            if output and not output.endswith("\n"):  # a last line printed without its newline
                output += "\n"
            output += (f"\n[Showing the last {kept_lines} of {printed} lines. "
                       "Narrow the command for more.]")
''',
          by=''),
    Wrong(lab='6.1', name='a note whenever a read fills its budget',
          rule='The note comes only when a read stops before the file does: a read that reaches the last line says nothing more, even when it fills the budget exactly.',
          where='rung: The note',
          names='reaches the end has no note',
          replace=r'''
        if last < total:
            chunk += f"[Showing lines {start}-{last} of {total}. Use offset={last + 1} to continue.]"
''',
          by=r'''
        if last < total or shown == max_lines:  # a full page: there may be more
            chunk += f"[Showing lines {start}-{last} of {total}. Use offset={last + 1} to continue.]"
'''),
    Wrong(lab='6.1', name='a note without a way to get the rest',
          rule='The note says how much there is, what was shown, and the exact offset for the next call.',
          where='rung: The note',
          names='how to go on',
          replace=r'''
            chunk += f"[Showing lines {start}-{last} of {total}. Use offset={last + 1} to continue.]"
''',
          by='            chunk += "[truncated]"'),
    Wrong(lab='6.1', name='offset true read as line 1',
          rule='A bool is not a whole number here: True is an int to Python, but not a line number, so int_arg refuses it.',
          where='rung: What offset may be',
          names='True is an int to Python',
          replace=r'''
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
''',
          by='    if isinstance(got, int):'),
    Wrong(lab='6.1', name='a bad offset ignored for the default',
          rule='A value that is not a whole number is refused with <name> must be an integer, never silently replaced by the default.',
          where='rung: What offset may be',
          names='must be an integer',
          replace=r'''
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
        return got
    raise ValueError(f"{name} must be an integer")
''',
          by=r'''
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
        return got
    return default  # the model surely meant the usual
'''),
    Wrong(lab='6.1', name='a single transcript-wide budget',
          rule='One budget per result, kept by the tool that makes it: how much a read returns never depends on what was said before it.',
          where='rung: Where the cut is made',
          names='one budget per result',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        for call in calls:  # every call, in order, before the model is asked again
            result = run_tool(tools, call)
            used = sum(len(str(message["content"]).encode()) for message in messages)
            result["content"] = truncate_head(result["content"],
                                              max_bytes=max(MAX_BYTES - used, 0))[0]
            messages.append(result)
'''),
    Wrong(lab='6.1', name='truncating only the view while the record keeps megabytes',
          rule='The budget is kept where the result is made, so the record, and every request built from it, carries one budget.',
          where='rung: Where the cut is made',
          names='where the result is made',
          replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
          by=r'''
        chunk, shown = "".join(lines[start - 1:end]), end - start + 1  # context_for_model cuts
'''),
    Wrong(lab='6.1', name='int_arg taking 0 for left out',
          rule='int_arg gives the default only when the argument is absent or None; 0 is a whole number, returned as it is.',
          where='lab 6.1, gap 1: "int_arg(arguments, name, default)"',
          names='even 0',
          replace=r'''
    if got is None:
        return default
''',
          by=r'''
    if not got:
        return default
'''),
    Wrong(lab='6.1', name='a byte budget the kept lines must stay under',
          rule='Exactly max_bytes fits: the kept lines may hold max_bytes bytes, not one fewer.',
          where='lab 6.1, gap 2: "truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES)"',
          names='exactly',
          replace=r'''
        if used > max_bytes:  # this line would not fit: stop before it
''',
          by=r'''
        if used >= max_bytes:
'''),
    Wrong(lab='6.1', name='the tail given last line first',
          rule='truncate_tail gives the end of the text with its lines in their original order.',
          where='lab 6.1, gap 3: "truncate_tail(...)"',
          names='original order',
          replace=r'''
    return "".join(lines[len(lines) - count:]), count
''',
          by=r'''
    return "".join(reversed(lines[len(lines) - count:])), count
'''),
    Wrong(lab='6.1', name='the missing file reported before a bad offset',
          rule='An argument that is wrong is reported before a file that is missing.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='in this order',
          replace=r'''
        if start < 1 or (most is not None and most < 1):
            raise ValueError("offset and limit must be 1 or more")
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
''',
          by=r'''
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
        if start < 1 or (most is not None and most < 1):
            raise ValueError("offset and limit must be 1 or more")
'''),
    Wrong(lab='6.1', name='read cut to the default budget whatever it is given',
          rule="A read returns at most one budget: the max_lines and max_bytes its factory was given.",
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='n lines at a time',
          replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
          by=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]))
'''),
    Wrong(lab='6.1', name='bash cut to the default budget whatever it is given',
          rule="bash keeps the end of the output that fits the budget its factory was given.",
          where='lab 6.1, gap 5: "`bash`\'s budget"',
          names='keeps the last lines that fit',
          replace=r'''
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
''',
          by=r'''
        output, kept_lines = truncate_tail(output)
'''),
    Wrong(lab='6.1', name='the status line before the note',
          rule="Lesson 4's status line still comes last, after the note of a cut.",
          where='lab 6.1, gap 5: "`bash`\'s budget"',
          names='status line is last',
          replace=r'''
        if kept_lines < printed:
            if output and not output.endswith("\n"):  # a last line printed without its newline
                output += "\n"
            output += (f"\n[Showing the last {kept_lines} of {printed} lines. "
                       "Narrow the command for more.]")
        if code != 0:
            output += f"\nCommand exited with code {code}"
''',
          by=r'''
        if code != 0:
            output += f"\nCommand exited with code {code}"
        if kept_lines < printed:
            if output and not output.endswith("\n"):  # a last line printed without its newline
                output += "\n"
            output += (f"\n[Showing the last {kept_lines} of {printed} lines. "
                       "Narrow the command for more.]")
'''),
    # Hunt round 2 (reader r5); 6.1-7, read remembering what it split, fails lab 2.1's
    # test_the_read_tool (lesson 2's rule: the text as the workspace holds it), as lesson_02's
    # "read remembering each file it has read".
    Wrong(lab='6.1', name='a whole float taken for an int',
          rule='A whole number is a Python int: a float such as 3.0 raises NAME must be an integer.',
          where='lab 6.1, gap 1: "int_arg(arguments, name, default)"',
          names='even when it is whole',
          replace=r'''
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
        return got
''',
          by=r'''
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
        return got
    if isinstance(got, float) and got.is_integer():
        return int(got)
'''),
    Wrong(lab='6.1', name='a cap of 0 read as no cap, in truncate_head',
          rule='truncate_head keeps at most max_lines lines and at most max_bytes bytes: under a '
               'cap of 0, nothing.',
          where='lab 6.1, gap 2: "truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES)"',
          names='a cap of 0 is a cap',
          replace=r'''
    while count < min(len(lines), max_lines):
        used += len(lines[count].encode())
        if used > max_bytes:  # this line would not fit: stop before it
''',
          by=r'''
    while count < (min(len(lines), max_lines) if max_lines else len(lines)):
        used += len(lines[count].encode())
        if max_bytes and used > max_bytes:  # this line would not fit: stop before it
'''),
    Wrong(lab='6.1', name='a cap of 0 read as no cap, in truncate_tail',
          rule='truncate_tail keeps at most max_lines lines and at most max_bytes bytes: under a '
               'cap of 0, nothing.',
          where='lab 6.1, gap 3: "truncate_tail(...)"',
          names='a cap of 0 is a cap',
          replace=r'''
    while count < min(len(lines), max_lines):
        used += len(lines[-1 - count].encode())  # counting up from the last line
        if used > max_bytes:
''',
          by=r'''
    while count < (min(len(lines), max_lines) if max_lines else len(lines)):
        used += len(lines[-1 - count].encode())  # counting up from the last line
        if max_bytes and used > max_bytes:
'''),
    Wrong(lab='6.1', name='the skip hint judged from the lines asked for',
          rule='The hint to skip a line too big comes when another line follows it in the file, '
               'whatever limit the read asked for.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='whatever limit the read asked for',
          replace=r'''
            hint = f" Use offset={start + 1} to skip it." if start < total else ""
''',
          by=r'''
            hint = f" Use offset={start + 1} to skip it." if end > start else ""
'''),
    Wrong(lab='6.1', name='a running byte count per read tool',
          rule='One budget per result: each read has the whole budget its factory was given, '
               'however much the same tool has read before.',
          where='rung: Where the cut is made',
          names='however much the same tool has read before',
          replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
          by=r'''
        left = max(max_bytes - spent[0], 0)
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, left)
        spent[0] += len(chunk.encode())
''',
          also=((r'''
    def execute(arguments):
        path = str_arg(arguments, "path")
''', r'''
    spent = [0]

    def execute(arguments):
        path = str_arg(arguments, "path")
'''),)),
    Wrong(lab='6.1', name='the offset checked in full before the limit is read',
          rule="read checks both arguments' types before either range: offset 0 with limit True "
               'is a limit that is not an integer.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='both of them',
          replace=r'''
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        if start < 1 or (most is not None and most < 1):
            raise ValueError("offset and limit must be 1 or more")
''',
          by=r'''
        start = int_arg(arguments, "offset", 1)
        if start < 1:
            raise ValueError("offset and limit must be 1 or more")
        most = int_arg(arguments, "limit", None)
        if most is not None and most < 1:
            raise ValueError("offset and limit must be 1 or more")
'''),
    Wrong(lab='6.1', name='the types read only once the file is found',
          rule='An argument that is wrong is reported before a file that is missing: its type '
               'as well as its range.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='offset sent as a string',
          replace=r'''
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        if start < 1 or (most is not None and most < 1):
            raise ValueError("offset and limit must be 1 or more")
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
''',
          by=r'''
        for key in ("offset", "limit"):
            raw = arguments.get(key)
            if type(raw) is int and raw < 1:
                raise ValueError("offset and limit must be 1 or more")
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
'''),
    Wrong(lab='6.1', name='T counted as the newlines printed',
          rule='T is the lines the command printed, its last line counted though it has no newline.',
          where='lab 6.1, gap 5: "`bash`\'s budget"',
          names='is still a line',
          replace=r'''
        printed = len(output.splitlines())  # lines the command printed, before the cut
''',
          by=r'''
        printed = output.count("\n")
'''),
    Wrong(lab='6.1', name='the end of a last line too big, cut inside it',
          rule='bash keeps whole lines: a last line alone over the budget is not cut inside, and '
               'no line is kept.',
          where='lab 6.1, gap 5: "`bash`\'s budget"',
          names='not cut inside',
          replace=r'''
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
''',
          by=r'''
        whole = output
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
        if kept_lines == 0 and whole:  # the verdict is at the end of that line: keep its end
            output, kept_lines = whole.encode()[-max_bytes:].decode(errors="ignore"), 1
'''),
    Wrong(lab='6.1', name='the note after a single newline',
          rule='When lines were dropped, a blank line and then the note follow the kept lines, '
               'though the last of them was printed without a newline.',
          where='lab 6.1, gap 5: "`bash`\'s budget"',
          names='a blank line still comes',
          replace=r'''
            if output and not output.endswith("\n"):  # a last line printed without its newline
                output += "\n"
''',
          by=''),
    # Hunt round 5 (reader r17, source/hunts/round-5.md); 6.1-8, read keeping each file's lines
    # per tool, fails lab 2.1's test_the_read_tool (lesson 2's rule), and 6.1-16, bash adding a
    # final newline, fails lab 4.1's test_the_status_line_follows_any_output (lesson 4's rule:
    # the result is what the command printed).
    Wrong(lab='6.1', name='limit read before offset',
          rule="read reads offset, then limit: a wrong type in both is reported as offset's.",
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names="offset's type, then limit's",
          replace=r'''
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
''',
          by=r'''
        most = int_arg(arguments, "limit", None)
        start = int_arg(arguments, "offset", 1)
'''),
    Wrong(lab='6.1', name='a line ending only at a newline, in truncate_head',
          rule='A line runs up to and including any break str.splitlines knows: "\\r", '
               '"\\u2028" and the rest end a line as "\\n" does.',
          where='lab 6.1, gap 2: "truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES)"',
          names='any break str.splitlines knows',
          replace=r'''
    lines = text.splitlines(keepends=True)
    count, used = 0, 0
    while count < min(len(lines), max_lines):
        used += len(lines[count].encode())
''',
          by=r'''
    lines = text.split("\n")  # a line ends at "\n", as wc -l counts
    lines = [line + "\n" for line in lines[:-1]] + [lines[-1]] * bool(lines[-1])
    count, used = 0, 0
    while count < min(len(lines), max_lines):
        used += len(lines[count].encode())
'''),
    Wrong(lab='6.1', name='a line ending only at a newline, in read',
          rule='read and bash count lines as truncate_head does, at any break str.splitlines '
               'knows.',
          where='lab 6.1, gap 2: "truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES)"',
          names='str.splitlines',
          replace=r'''
        lines = ws.read_text(path).splitlines(keepends=True)
''',
          by=r'''
        lines = ws.read_text(path).split("\n")  # a line ends at "\n", as wc -l counts
        lines = [line + "\n" for line in lines[:-1]] + [lines[-1]] * bool(lines[-1])
'''),
    Wrong(lab='6.1', name='a line ending only at a newline, in bash',
          rule='bash counts the lines printed as read does, at any break str.splitlines knows.',
          where='lab 6.1, gap 2: "truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES)"',
          names='bash counts lines as read does',
          replace=r'''
        printed = len(output.splitlines())  # lines the command printed, before the cut
''',
          by=r'''
        printed = output.count("\n") + (not output.endswith("\n"))  # as wc -l, plus a last line
'''),
    Wrong(lab='6.1', name='every line break made a newline',
          rule='A cut keeps whole lines as the text holds them, newlines included: a "\\r\\n" '
               'stays "\\r\\n" and costs two bytes.',
          where='lab 6.1, gap 2: "truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES)"',
          names='keeps it as it is',
          replace=r'''
    lines = text.splitlines(keepends=True)
    count, used = 0, 0
    while count < min(len(lines), max_lines):
        used += len(lines[count].encode())
''',
          by=r'''
    lines = []
    for line in text.splitlines(keepends=True):  # every break made "\n", as a Unix file has it
        bare = line.splitlines()[0]
        lines.append(bare + "\n" if bare != line else line)
    count, used = 0, 0
    while count < min(len(lines), max_lines):
        used += len(lines[count].encode())
'''),
    Wrong(lab='6.1', name='a newline byte charged to a last line without one',
          rule="A line's size counts its newline, and the last line may have none: it costs its "
               'own bytes, so exactly max_bytes still fits.',
          where='lab 6.1, gap 2: "truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES)"',
          names='costs its own bytes',
          replace=r'''
        used += len(lines[count].encode())
''',
          by=r'''
        used += len(lines[count].rstrip("\n").encode()) + 1  # every line ends in a newline
'''),
    Wrong(lab='6.1', name="read held to the course's budget when given more",
          rule='A read returns one budget of the max_lines and max_bytes its factory was given, '
               'above the defaults as below them.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='above the defaults is honoured',
          replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
          by=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), min(max_lines, MAX_LINES),
                                     min(max_bytes, MAX_BYTES))  # never over the course's budget
'''),
    Wrong(lab='6.1', name="bash held to the course's budget when given more",
          rule='bash keeps the end of the output that fits the budget its factory was given, '
               'above the defaults as below them.',
          where='lab 6.1, gap 5: "`bash`\'s budget"',
          names='above the defaults is honoured',
          replace=r'''
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
''',
          by=r'''
        output, kept_lines = truncate_tail(output, min(max_lines, MAX_LINES),
                                           min(max_bytes, MAX_BYTES))
'''),
    Wrong(lab='6.1', name="limit's range checked once the file is found",
          rule='read holds offset and limit to 1 or more before it looks for the file: any wrong '
               'argument is reported before a file that is missing.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='then that the file exists',
          replace=r'''
        if start < 1 or (most is not None and most < 1):
            raise ValueError("offset and limit must be 1 or more")
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
''',
          by=r'''
        if start < 1:
            raise ValueError("offset and limit must be 1 or more")
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
        if most is not None and most < 1:  # checked where limit is used
            raise ValueError("offset and limit must be 1 or more")
'''),
    Wrong(lab='6.1', name='a limit left out taken as MAX_LINES',
          rule="A limit left out is no limit: the read is held only by its factory's budget.",
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='a limit left out is no limit',
          replace=r'''
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
''',
          by=r'''
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", MAX_LINES)
'''),
    Wrong(lab='6.1', name='a limit of 0 read as no limit',
          rule='A limit below 1 raises offset and limit must be 1 or more; 0 is not "no limit".',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='1 or more',
          replace=r'''
        if start < 1 or (most is not None and most < 1):
            raise ValueError("offset and limit must be 1 or more")
''',
          by=r'''
        if start < 1 or (most and most < 1):
            raise ValueError("offset and limit must be 1 or more")
        most = most or None  # 0: no limit
'''),
    Wrong(lab='6.1', name='the note kept inside the byte budget',
          rule='Every note comes on top of the budget: the budget bounds the text, and the '
               'sentence at a cut is added after it.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='exactly max_bytes bytes, newline included, fits',
          replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
          by=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines,
                                     max(max_bytes - 80, 0))  # room for the note
'''),
    Wrong(lab='6.1', name='trailing blank lines dropped before the note',
          rule='When lines were dropped, a blank line and then the note follow the kept lines '
               'as printed, blank ones included.',
          where='lab 6.1, gap 5: "`bash`\'s budget"',
          names='blank ones included',
          replace=r'''
            if output and not output.endswith("\n"):  # a last line printed without its newline
                output += "\n"
''',
          by=r'''
            if output:
                output = output.rstrip("\n") + "\n"  # exactly one newline before the blank line
'''),
    Wrong(lab='6.1', name='int_arg taking "" for left out',
          rule='int_arg gives the default only when the argument is absent or None; an empty '
               'string is not a whole number and raises NAME must be an integer.',
          where='lab 6.1, gap 1: "int_arg(arguments, name, default)"',
          names='an empty string',
          replace=r'''
    if got is None:
        return default
''',
          by=r'''
    if got is None or got == "":  # models send "" for an optional field too
        return default
'''),
    Wrong(lab='6.1', name="read writing its defaults into the call's arguments",
          rule='offset is 1 and limit none when left out, and left out they stay: the record '
               'holds the call as the model sent it.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='as the model sent them',
          replace=r'''
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
''',
          by=r'''
        arguments.setdefault("offset", 1)
        arguments.setdefault("limit", None)
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
'''),
    Wrong(lab='6.1', name='the budget kept again in context_for_model',
          rule='The cut happens once, where the result is made, so the record and every request '
               'hold the same text; not one line in context_for_model.',
          where='lab 6.1: "not one line in `context_for_model`"',
          names='not cut again on the way out',
          replace=r'''
    return kept
''',
          by=r'''
    # belt and braces: no result goes out over budget, whatever the tool did
    return [{**message, "content": truncate_head(message["content"])[0]}
            if message["role"] == "toolResult" else message for message in kept]
'''),
    Wrong(lab='6.1', name='read taking a whole float',
          rule='read reads offset and limit each as int_arg does: a float such as 3.0 raises '
               'NAME must be an integer.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names="a whole float, or an empty string, is refused",
          replace=r'''
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
''',
          by=r'''
        whole = {name: int(value) for name, value in arguments.items()
                 if isinstance(value, float) and value.is_integer()}  # 3.0 is 3
        start = int_arg({**arguments, **whole}, "offset", 1)
        most = int_arg({**arguments, **whole}, "limit", None)
'''),
    Wrong(lab='6.1', name='a budget of 0 given to read taken as the default',
          rule='A read returns at most the budget its factory was given: a cap of 0 is a cap, '
               'not the default.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='the one the factory was given',
          replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
          by=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines or MAX_LINES,
                                     max_bytes or MAX_BYTES)  # 0 or None: the default
'''),
    Wrong(lab='6.1', name='a budget of 0 given to bash taken as the default',
          rule='bash keeps what fits the budget its factory was given: a cap of 0 is a cap, not '
               'the default.',
          where='lab 6.1, gap 5: "`bash`\'s budget"',
          names='the one the factory was given',
          replace=r'''
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
''',
          by=r'''
        output, kept_lines = truncate_tail(output, max_lines or MAX_LINES,
                                           max_bytes or MAX_BYTES)  # 0 or None: the default
'''),
    Wrong(lab='6.1', name='"1 line" past the end of a one-line file',
          rule='The past-the-end message is offset A is past the end of PATH: N lines, down to '
               'the full stop, for every N.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='1 included',
          replace=r'''
            raise ValueError(f"offset {start} is past the end of {path}: {total} lines")
''',
          by=r'''
            raise ValueError(f"offset {start} is past the end of {path}: {total} "
                             f"line{'' if total == 1 else 's'}")
'''),
    # round 10 (reader r42): designs 6.1-01 to 6.1-24 of source/hunts/round-10.md
    Wrong(lab='6.1', name="bash's tail counted in characters",
          rule='bash keeps the end of the output that fits its budget, counted in bytes of UTF-8 '
               'as truncate_tail counts them, not in characters.',
          where='lab 6.1, gap 5: "`bash`\'s budget"; "The budget counts bytes of UTF-8"',
          names="not characters, as read's does",
          replace=r'''
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
''',
          by=r'''
        tail, used = [], 0
        for line in reversed(output.splitlines(keepends=True)):
            if len(tail) >= max_lines or used + len(line) > max_bytes:
                break
            tail.insert(0, line)
            used += len(line)
        output, kept_lines = "".join(tail), len(tail)
'''),
    Wrong(lab='6.1', name='read paging in characters',
          rule="read's result is at most one budget of the lines asked for, the budget counted "
               'in bytes of UTF-8, not in characters.',
          where='lab 6.1, gap 4: "`read`\'s paging"; "The budget counts bytes of UTF-8"',
          names='pages in UTF-8 bytes',
          replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
          by=r'''
        taken, used = [], 0
        for line in lines[start - 1:end]:
            if len(taken) >= max_lines or used + len(line) > max_bytes:
                break
            taken.append(line)
            used += len(line)
        chunk, shown = "".join(taken), len(taken)
'''),
    Wrong(lab='6.1', name='limit heeded only with an offset',
          rule='limit is the most lines wanted, with or without an offset: an offset left out '
               'is 1.',
          where='lab 6.1, gap 4: "`read`\'s paging"; "no limit when left out"',
          names='with or without an offset',
          replace=r'''
        end = total if most is None else min(total, start - 1 + most)  # the last line wanted
''',
          by=r'''
        if arguments.get("offset") is None:
            most = None  # no paging asked for: the whole file, under the budget
        end = total if most is None else min(total, start - 1 + most)  # the last line wanted
'''),
    Wrong(lab='6.1', name='the view cutting results over MAX_BYTES',
          rule='The cut happens once, where the result is made: a result of one budget and its '
               'note goes out as the record holds it; not one line in context_for_model.',
          where='lab 6.1: "not one line in `context_for_model`"',
          names='not cut again on the way out',
          replace=r'''
    return kept
''',
          by=r'''
    return [{**message, "content": truncate_head(message["content"], max_lines=10**9)[0]}
            if message["role"] == "toolResult" and len(message["content"].encode()) > MAX_BYTES
            else message for message in kept]
'''),
    Wrong(lab='6.1', name="one budget shared by a reply's calls",
          rule='One budget per result, kept where the result is made: a result does not shrink '
               'because other calls share its reply.',
          where='lab 6.1: "no change to the loop"; "One budget per result"',
          names='nor on the other calls of its reply',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            result = run_tool(tools, call)
            if len(calls) > 1:  # one budget for the batch, shared out
                result["content"] = truncate_head(result["content"],
                                                  max_bytes=MAX_BYTES // len(calls))[0]
            messages.append(result)
'''),
    Wrong(lab='6.1', name='read writing offset None back as 1',
          rule='offset is 1 when left out or None, and the record keeps the call as the model '
               'sent it: None stays None.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='an offset sent as None stays None',
          replace=r'''
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
''',
          by=r'''
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        for key, value in (("offset", start), ("limit", most)):
            if key in arguments:
                arguments[key] = value  # tidy the call: what read really used
'''),
    Wrong(lab='6.1', name='budgets described in characters',
          rule='Each description states its budget, in bytes as it is counted, so the model '
               'knows before it calls what one call can return.',
          where='"Descriptions that state the budget"; "The budget counts bytes of UTF-8"',
          names='named in bytes',
          replace=r'''
                       f"or {max_bytes} bytes; ask again with offset for the rest.",
''',
          by=r'''
                       f"or {max_bytes} characters; ask again with offset for the rest.",
''',
          also=((r'''
                       f"to the last {max_lines} lines or {max_bytes} bytes.",
''', r'''
                       f"to the last {max_lines} lines or {max_bytes} characters.",
'''),)),
    Wrong(lab='6.1', name='bash described as keeping the first lines',
          rule="bash's description states what one call can return: the last lines of the "
               'output, tail for commands.',
          where='"Head for files, tail for commands"; "Descriptions that state the budget"',
          names="bash's says it keeps the last lines",
          replace=r'''
                       f"to the last {max_lines} lines or {max_bytes} bytes.",
''',
          by=r'''
                       f"to the first {max_lines} lines or {max_bytes} bytes.",
'''),
    Wrong(lab='6.1', name="a big line's size counting one byte for its break",
          rule="The line over budget is named with its size in bytes, a line's size counting "
               'its line break, whatever break it is.',
          where='lab 6.1, gap 4: "`read`\'s paging"; "a line\'s size counts its newline"',
          names='its line break',
          replace=r'''
            size = len(lines[start - 1].encode())
''',
          by=r'''
            size = len(lines[start - 1].rstrip("\r\n").encode()) + 1  # the text, and its newline
'''),
    Wrong(lab='6.1', name='past the end only without a limit',
          rule='An offset past the last line raises offset A is past the end of PATH: N lines, '
               'with a limit sent or not.',
          where='lab 6.1, gap 4: "`read`\'s paging"',
          names='whether or not a limit is sent',
          replace=r'''
        if start > max(total, 1):
''',
          by=r'''
        if most is None and start > max(total, 1):
'''),
    Wrong(lab='6.1', name='each result cut to what is left of a window',
          rule='One budget per result: what a read returns never depends on what was said '
               'before it, so no result is cut to what is left of a window.',
          where='lab 6.1: "no change to the loop"; "One budget per result"',
          names='no share of a window',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        used = sum(len(str(m["content"]).encode()) for m in messages)
        for call in calls:  # every call, in order, before the model is asked again
            result = run_tool(tools, call)
            left = 800_000 - used  # a 200,000-token window, 4 bytes a token
            if len(result["content"].encode()) > left:
                result["content"] = truncate_head(result["content"], max_lines=10**9,
                                                  max_bytes=max(left, 0))[0]
            used += len(result["content"].encode())
            messages.append(result)
'''),
    Wrong(lab='6.1', name='lines split at six breaks only',
          rule="A line runs up to and including any break Python's str.splitlines knows, "
               'and read and bash count lines the same way.',
          where='lab 6.1, gap 2: "any other break Python\'s `str.splitlines` knows"',
          names='str.splitlines',
          replace=r'''
    budget gives ("", 0), because half a line misleads."""
    lines = text.splitlines(keepends=True)
''',
          by=r'''
    budget gives ("", 0), because half a line misleads."""
    lines = _SIX.findall(text)
''',
          also=((r'''
    for command output, whose verdict is printed last."""
    lines = text.splitlines(keepends=True)
''', r'''
    for command output, whose verdict is printed last."""
    lines = _SIX.findall(text)
'''), (r'''
        lines = ws.read_text(path).splitlines(keepends=True)
''', r'''
        lines = _SIX.findall(ws.read_text(path))
'''), (r'''
        printed = len(output.splitlines())  # lines the command printed, before the cut
''', r'''
        printed = len(_SIX.findall(output))  # lines the command printed, before the cut
'''), (r'''
def truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
''', r'''
import re

_SIX = re.compile(r"[^\n\r\x0c\x85\u2028]*(?:\r\n|[\n\r\x0c\x85\u2028])|[^\n\r\x0c\x85\u2028]+$")


def truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
'''))),
    Wrong(lab='6.1', name="N counted as the file's newlines",
          rule='offset A is past the end of PATH: N lines, N the file\'s number of lines, its '
               'last line counted when it has no newline.',
          where='lab 6.1, gap 4: "`read`\'s paging"; "the last line may have none"',
          names='the last one too when it has no newline',
          replace=r'''
            raise ValueError(f"offset {start} is past the end of {path}: {total} lines")
''',
          by=r'''
            raise ValueError(f"offset {start} is past the end of {path}: "
                             f"{ws.read_text(path).count(chr(10))} lines")
'''),
    # Hunt round 10 (reader r42): the reader's own passing file, which 6.1-03 was written against.
    Wrong(lab='6.1', name="no newline added after a line's own break",
          rule='Unless the kept text ends in "\\n", or nothing is kept, bash adds a "\\n" to it before the blank line and the note, after a last line ending in "\\r" or a rarer break too.',
          where='lab 6.1, Build section, item 5: "unless the kept text ends in", "so that the note always stands after"; hunt round 10, 6.1-03',
          names='always stands after',
          replace=r'''
            if output and not output.endswith("\n"):  # a last line printed without its newline
''',
          by=r'''
            if output and not output.endswith(("\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e",
                                               "\x85", "\u2028", "\u2029")):
'''),
    # Hunt round 10 (reader r42), probe 6.1-14.
    Wrong(lab='6.1', name='a newline added after no break or a \\r only',
          rule='Unless the kept text ends in "\\n", or nothing is kept, bash adds a "\\n" to it before the blank line and the note, after a rarer break of str.splitlines too, not only after "\\r" or no break.',
          where='lab 6.1, Build section, item 5: "or a rarer break of `str.splitlines` is given that"; hunt round 10, probe 6.1-14',
          names='always stands after',
          replace=r'''
            if output and not output.endswith("\n"):  # a last line printed without its newline
''',
          by=r'''
            if output and (output.endswith("\r") or not output.endswith((
                    "\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"))):
'''),
    # Hunt round 13 (reader r65): the designs that passed lab 6.1's tests, each now failing.
    Wrong(lab='6.1', name='a read made with max_lines=0 naming a line over the byte budget',
          rule="A read tool made with max_lines=0 shows no line and says so whatever the line's "
               "size: a line over the byte budget too gets \"[No line of PATH is shown: this "
               "read's budget is 0 lines.]\".",
          where='lab 6.1, Build section, item 4: "shows no line and says so, whatever the line\'s size"; hunt round 13, 6.1-05',
          names="whatever the line's size",
          replace=r'''
        if shown == 0 and end >= start and max_lines == 0:  # lines were wanted; none may be
''',
          by=r'''
        if shown == 0 and end >= start and max_lines == 0 and (
                len(lines[start - 1].encode()) <= max_bytes):  # a big line: the byte message
'''),
    Wrong(lab='6.1', name='a read made with max_lines=0 answering before the offset check',
          rule='A read tool made with max_lines=0 still refuses an offset past the last line: '
               'offset A is past the end of PATH: N lines.',
          where='lab 6.1, Build section, item 4: "an `offset` past the last line"; hunt round 13, 6.1-23',
          names='still refuses an offset past the last line',
          replace=r'''
        lines = ws.read_text(path).splitlines(keepends=True)
        total = len(lines)
''',
          by=r'''
        if max_lines == 0:  # nothing can be shown: say so at once
            return f"[No line of {path} is shown: this read's budget is 0 lines.]"
        lines = ws.read_text(path).splitlines(keepends=True)
        total = len(lines)
'''),
    Wrong(lab='6.1', name="the constants rebound to a read tool's budget",
          rule='MAX_LINES is 2000 and MAX_BYTES is 50_000, whatever budgets the factories are '
               'made with: a tool keeps its budget to itself.',
          where='lab 6.1, Build section: "the two constants, `MAX_LINES = 2000` and `MAX_BYTES = 50_000`"; hunt round 13, 6.1-06',
          names='nothing of it leaks into the module',
          replace=r'''
    def execute(arguments):
        path = str_arg(arguments, "path")
''',
          by=r'''
    global MAX_LINES, MAX_BYTES
    MAX_LINES, MAX_BYTES = max_lines, max_bytes  # the budget now in force

    def execute(arguments):
        path = str_arg(arguments, "path")
'''),
    Wrong(lab='6.1', name='int_arg refusing ints past 32 bits',
          rule='A whole number is a Python int, however large: int_arg returns it as it is.',
          where='lab 6.1, Build section, item 1: "A whole number is a Python `int`"; hunt round 13, 6.1-07',
          names='however large',
          replace=r'''
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
''',
          by=r'''
    if type(got) is int and abs(got) < 2**31:  # exactly int, and one a C int can hold
'''),
    Wrong(lab='6.1', name='read capping a budget above a megabyte',
          rule="A read's budget is the max_lines and max_bytes its factory was given, however "
               'large, with no cap of the tool\'s own below it.',
          where='lab 6.1, Build section, item 4: "the budget being the `max_lines` and `max_bytes` that `make_read_tool` was given"; hunt round 13, 6.1-09',
          names="no cap of the tool's own",
          replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
          by=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines,
                                     min(max_bytes, 1_000_000))  # a safety cap of a megabyte
'''),
    Wrong(lab='6.1', name='the view cutting results a little over the budget',
          rule='The cut happens once, where the result is made: a result of any tool\'s budget '
               'goes out as the record holds it; not one line in context_for_model.',
          where='lab 6.1: "not one line in `context_for_model`"; hunt round 13, 6.1-10',
          names='not cut again in context_for_model',
          replace=r'''
    return kept
''',
          by=r'''
    return [{**message, "content": truncate_head(message["content"], MAX_LINES + 5,
                                                 MAX_BYTES + 1000)[0]}
            if message["role"] == "toolResult" else message for message in kept]
'''),
    Wrong(lab='6.1', name='bash described as keeping the first lines, the end dropped',
          rule="bash's description states its budget truly: it keeps the last lines, and does "
               'not name the first as the ones it keeps.',
          where='lab 6.1, Build section: "with descriptions that state them"; hunt round 13, 6.1-11',
          names='does not name the first lines',
          replace=r'''
        "description": "Run one shell command line; stdout and stderr come back together, cut "
                       f"to the last {max_lines} lines or {max_bytes} bytes.",
''',
          by=r'''
        "description": "Run one shell command line; stdout and stderr come back together: the "
                       f"first {max_lines} lines or {max_bytes} bytes are kept and the end is "
                       "dropped.",
'''),
    Wrong(lab='6.1', name="read's description with its two numbers swapped",
          rule="read's description states its budget truly: the lines cap before \"lines\", the "
               'byte budget before "bytes".',
          where='lab 6.1, Build section: "with descriptions that state them"; hunt round 13, 6.1-12',
          names='each number stands before its own unit',
          replace=r'''
        "description": f"Return the text of a file. A single read stops after {max_lines} lines "
                       f"or {max_bytes} bytes; ask again with offset for the rest.",
''',
          by=r'''
        "description": f"Return the text of a file. A single read stops after {max_bytes} lines "
                       f"or {max_lines} bytes; ask again with offset for the rest.",
'''),
    Wrong(lab='6.1', name='characters for texts of over 1000 lines, in truncate_head',
          rule='The budget counts UTF-8 bytes however many lines the text has: a long text of '
               'é lines costs twice its characters.',
          where='lab 6.1, Build section, item 2: "at most `max_bytes` bytes of UTF-8"; hunt round 13, 6.1-20',
          names='however many lines the text has',
          replace=r'''
        used += len(lines[count].encode())
''',
          by=r'''
        used += len(lines[count]) if len(lines) > 1000 else len(lines[count].encode())
'''),
    Wrong(lab='6.1', name='characters for texts of over 1000 lines, in truncate_tail',
          rule="truncate_tail, and so bash, counts UTF-8 bytes however many lines the output "
               'has.',
          where='lab 6.1, Build section: "to bytes, so a line of `é`s costs twice its length"; hunt round 13, 6.1-21',
          names='however many lines the text has',
          replace=r'''
        used += len(lines[-1 - count].encode())  # counting up from the last line
''',
          by=r'''
        used += (len(lines[-1 - count]) if len(lines) > 1000  # a fast path for long output
                 else len(lines[-1 - count].encode()))
'''),
    Wrong(lab='6.1', name='a text kept whole when its newlines are within the line cap',
          rule='The line cap counts lines at every break str.splitlines knows, not the "\\n"s of '
               'the text.',
          where='lab 6.1, Build section, item 2: "A line runs up to and including a line break"; hunt round 13, 6.1-25',
          names='whichever break ends them',
          replace=r'''
    budget gives ("", 0), because half a line misleads."""
''',
          by=r'''
    budget gives ("", 0), because half a line misleads."""
    if len(text.encode()) <= max_bytes and text.count("\n") <= max_lines:  # a short cut
        return text, len(text.splitlines())
'''),
    Wrong(lab='6.1', name='a negative cap read as no cap, in truncate_head',
          rule='truncate_head keeps at most max_lines lines and at most max_bytes bytes: a cap '
               'below 0 keeps nothing, as 0 does.',
          where='lab 6.1, Build section, item 2: "at most `max_lines` lines and at most `max_bytes` bytes of UTF-8"; hunt round 13, probe 6.1-26',
          names='a cap below 0 can hold no more',
          replace=r'''
    budget gives ("", 0), because half a line misleads."""
''',
          by=r'''
    budget gives ("", 0), because half a line misleads."""
    if max_lines < 0 or max_bytes < 0:  # no cap at all
        return text, len(text.splitlines())
'''),
    Wrong(lab='6.1', name='a note when the output fills the byte budget exactly',
          rule='bash adds its note only when lines were dropped: output of exactly the budget '
               'comes back whole, with no note.',
          where='lab 6.1, Build section, item 5: "When lines were dropped"; hunt round 13, 6.1-27',
          names='loses no line',
          replace=r'''
        if kept_lines < printed:
''',
          by=r'''
        if kept_lines < printed or (output and len(output.encode()) == max_bytes):
'''),
    Wrong(lab='6.1', name='a big line\'s size counting "\\r\\n" as one byte',
          rule='The line over budget is named with its size in UTF-8 bytes, a "\\r\\n" break '
               'counting two.',
          where='lab 6.1, Build section, item 4: "S bytes of it"; hunt round 13, 6.1-30',
          names='its line break',
          replace=r'''
            size = len(lines[start - 1].encode())
''',
          by=r'''
            size = len(lines[start - 1].replace("\r\n", "\n").encode())
'''),
    Wrong(lab='6.1', name='T counted as newlines past 2000 lines',
          rule="T, the lines a command printed, is counted at every break str.splitlines knows, "
               'however long the output.',
          where='lab 6.1, Build section, item 2: "`read` and `bash` count lines the same way"; hunt round 13, 6.1-31',
          names='however long the output',
          replace=r'''
        printed = len(output.splitlines())  # lines the command printed, before the cut
''',
          by=r'''
        printed = len(output.splitlines())  # lines the command printed, before the cut
        if printed > 2000:  # a fast count for long output
            printed = output.count("\n") + (1 if output and not output.endswith("\n") else 0)
'''),
    # Hunt round 16 (reader r84, source/hunts/round-16/r84.md): the designs that passed lab 6.1's
    # tests, each now failing.
    Wrong(lab='6.1', name='int_arg refusing ints past 2**90',
          rule='A whole number is a Python int, however large: int_arg returns it as it is.',
          where='lab 6.1, Build section, item 1: "A whole number is a Python `int`"; hunt round 16, 6.1-05',
          names='however large',
          replace=r'''
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
''',
          by=r'''
    if type(got) is int and abs(got) < 2**90:  # exactly int, and one of a sane size
'''),
    Wrong(lab='6.1', name='int_arg unwrapping a list of one int',
          rule='A whole number is a Python int; anything else, a list holding one int included, '
               'raises ValueError("NAME must be an integer").',
          where='lab 6.1, Build section, item 1: "anything else"; hunt round 16, 6.1-06',
          names='anything else',
          replace=r'''
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
''',
          by=r'''
    if isinstance(got, list) and len(got) == 1:  # [5] is surely 5
        got = got[0]
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
'''),
    Wrong(lab='6.1', name='a limit sent as digits taken as its number',
          rule='read reads limit as int_arg does: a string of digits is not a whole number.',
          where='lab 6.1, Build section, item 4: "`read` reads `offset`, then `limit`, each as `int_arg` does"; hunt round 16, 6.1-07',
          names='each as int_arg does',
          replace=r'''
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
''',
          by=r'''
        start, most = int_arg(arguments, "offset", 1), arguments.get("limit")
        most = int(most) if isinstance(most, str) and most.isdigit() else int_arg(arguments,
                                                                                "limit", None)
'''),
    Wrong(lab='6.1', name="limit's bool let through to the file check",
          rule="read checks limit's type before it looks for the file: a missing file with "
               'limit true is refused for the limit.',
          where='lab 6.1, Build section, item 4: "a wrong type is reported before"; hunt round 16, 6.1-30',
          names='before the missing-file check',
          replace=r'''
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
''',
          by=r'''
        start, most = int_arg(arguments, "offset", 1), arguments.get("limit")
        most = None if isinstance(most, bool) else int_arg(arguments, "limit", None)
''',
          also=((r'''
        lines = ws.read_text(path).splitlines(keepends=True)
''', r'''
        most = int_arg(arguments, "limit", None)  # a bool is refused here, once the file is found
        lines = ws.read_text(path).splitlines(keepends=True)
'''),)),
    Wrong(lab='6.1', name="limit's range checked after the end, for a file that exists",
          rule='read holds offset and limit to 1 or more before it looks for the file and its '
               'end, whether or not the file exists.',
          where='lab 6.1, Build section, item 4: "then holds both to 1 or more, then looks for the file"; hunt round 16, 6.1-38',
          names='before the missing-file check',
          replace=r'''
        if start < 1 or (most is not None and most < 1):
''',
          by=r'''
        if start < 1 or (most is not None and most < 1 and not ws.exists(path)):
''',
          also=((r'''
            raise ValueError(f"offset {start} is past the end of {path}: {total} lines")
''', r'''
            raise ValueError(f"offset {start} is past the end of {path}: {total} lines")
        if most is not None and most < 1:
            raise ValueError("offset and limit must be 1 or more")
'''),)),
    Wrong(lab='6.1', name='one read budget for the module, the last factory\'s',
          rule="A tool's budget is its own: a read tool keeps the budget it was made with, "
               'however many read tools are made after it.',
          where='lab 6.1, Build section, item 4: "the budget being the `max_lines` and `max_bytes` that `make_read_tool` was given"; hunt round 16, 6.1-13',
          names='budget is its own',
          replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
          by=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), *READ_BUDGET)
''',
          also=((r'''
    """The `read` tool over the workspace `ws`. A read returns at most one budget of lines, and
    when it stops early its last line says where to carry on."""
''', r'''
    """The `read` tool over the workspace `ws`. A read returns at most one budget of lines, and
    when it stops early its last line says where to carry on."""
    READ_BUDGET[:] = [max_lines, max_bytes]  # one budget for every read tool: the newest's
'''), (r'''
# given in lesson 6: the budget parameters, and a description that states them
''', r'''
READ_BUDGET = [MAX_LINES, MAX_BYTES]


# given in lesson 6: the budget parameters, and a description that states them
'''))),
    Wrong(lab='6.1', name='a batch of three or more sharing the budget',
          rule='One budget per result, kept where the result is made: a result does not shrink '
               'because its reply holds three calls or more.',
          where='lab 6.1: "no change to the loop"; "One budget per result"; hunt round 16, 6.1-15',
          names='no budget split among a batch',
          replace=r'''
            messages.append(run_tool(tools, call))
''',
          by=r'''
            result = run_tool(tools, call)
            if len(calls) >= 3:  # a big batch shares one budget
                result["content"] = truncate_head(result["content"],
                                                  max_bytes=MAX_BYTES // len(calls))[0]
            messages.append(result)
'''),
    Wrong(lab='6.1', name='a read made with both budgets 0 naming a line over the byte budget',
          rule="A read tool made with max_lines=0 shows no line and says so, whatever its byte "
               'budget, 0 included.',
          where='lab 6.1, Build section, item 4: "shows no line and says so, whatever the line\'s size"; hunt round 16, 6.1-16',
          names='shows no line and says so',
          replace=r'''
        if shown == 0 and end >= start and max_lines == 0:  # lines were wanted; none may be
''',
          by=r'''
        if shown == 0 and end >= start and max_lines == 0 and max_bytes > 0:  # none may be
'''),
    Wrong(lab='6.1', name='read described as returning the last lines',
          rule="read's description states its budget truly: a read starts at its offset, so it "
               'does not name the last lines as the ones it returns.',
          where='lab 6.1, Build section: "with descriptions that state them"; hunt round 16, 6.1-17',
          names='states its budget truly',
          replace=r'''
        "description": f"Return the text of a file. A single read stops after {max_lines} lines "
''',
          by=r'''
        "description": f"Return the text of a file: its last {max_lines} lines "
'''),
    Wrong(lab='6.1', name='bash described as keeping the opening lines',
          rule="bash's description states its budget truly: it keeps the last lines, and does "
               'not name the opening ones as the ones it keeps.',
          where='lab 6.1, Build section: "with descriptions that state them"; hunt round 16, 6.1-18',
          names='does not name the first lines',
          replace=r'''
        "description": "Run one shell command line; stdout and stderr come back together, cut "
                       f"to the last {max_lines} lines or {max_bytes} bytes.",
''',
          by=r'''
        "description": "Run one shell command line; you get the opening "
                       f"{max_lines} lines or {max_bytes} bytes of output, the tail end dropped.",
'''),
    Wrong(lab='6.1', name='offset described as counted from 0',
          rule="A reworded description stays true: read's offset counts from 1, so no "
               'description the model is sent says the first line is 0.',
          where='lab 6.1, Build section: "stay true, `offset` counted from 1"; hunt round 16, 6.1-19',
          names='lines count from 0',
          replace=r'''
                "offset": {"type": "integer", "description": "Line to start at; the first is 1."},
''',
          by=r'''
                "offset": {"type": "integer", "description": "Line to start at; the first is 0."},
'''),
    Wrong(lab='6.1', name='the view cutting results over 100,000 bytes',
          rule='The cut happens once, where the result is made: a result of any tool\'s budget '
               'goes out as the record holds it; not one line in context_for_model.',
          where='lab 6.1: "not one line in `context_for_model`"; hunt round 16, 6.1-03',
          names='not cut again in context_for_model',
          replace=r'''
    return kept
''',
          by=r'''
    return [{**message, "content": message["content"].encode()[:100_000].decode("utf-8",
                                                                               "ignore")}
            if message["role"] == "toolResult" else message for message in kept]
'''),
    Wrong(lab='6.1', name='the view trimming the record over 100,000 bytes',
          rule='context_for_model builds the view from the record, which it never changes, and '
               'adds no budget of its own: not one line in context_for_model.',
          where='lab 6.1: "not one line in `context_for_model`"; hunt round 16, 6.1-29',
          names='not cut again in context_for_model',
          replace=r'''
    return kept
''',
          by=r'''
    for message in kept:  # trimmed where it lies, so the next request is cheaper too
        if message["role"] == "toolResult" and len(message["content"]) > 100_000:
            message["content"] = truncate_head(message["content"], 10**9, 100_000)[0]
    return kept
'''),
    Wrong(lab='6.1', name='characters for lines over 1000 characters, in truncate_head',
          rule='The budget counts bytes of UTF-8, len(line.encode()), not characters, however '
               'long the line.',
          where='lab 6.1: "to bytes, so a line of"; hunt round 16, 6.1-08',
          names='not characters',
          replace=r'''
        used += len(lines[count].encode())
''',
          by=r'''
        line = lines[count]
        used += len(line) if len(line) > 1000 else len(line.encode())  # long: near enough
'''),
    Wrong(lab='6.1', name='characters for lines over 1000 characters, in truncate_tail',
          rule='The budget counts bytes of UTF-8, len(line.encode()), not characters, from the '
               'bottom as from the top, however long the line.',
          where='lab 6.1: "to bytes, so a line of"; hunt round 16, 6.1-08',
          names='not characters',
          replace=r'''
        used += len(lines[-1 - count].encode())  # counting up from the last line
''',
          by=r'''
        line = lines[-1 - count]  # counting up from the last line
        used += len(line) if len(line) > 1000 else len(line.encode())  # long: near enough
'''),
    Wrong(lab='6.1', name='T counted as newlines past 100,000 characters',
          rule="T, the lines a command printed, is counted at every break str.splitlines knows, "
               'however long the output.',
          where='lab 6.1, Build section, item 2: "`read` and `bash` count lines the same way"; hunt round 16, 6.1-31',
          names='however long the output',
          replace=r'''
        printed = len(output.splitlines())  # lines the command printed, before the cut
''',
          by=r'''
        printed = len(output.splitlines())  # lines the command printed, before the cut
        if len(output) > 100_000:  # a fast count for long output
            printed = output.count("\n") + (1 if output and not output.endswith("\n") else 0)
'''),
    # Hunt round 19 (reader r102), designs 39, 44, 45 and 46.
    Wrong(lab='6.1', name='no newline added after six of the rarer breaks',
          rule='A last kept line that ends in "\\r" or any rarer break of str.splitlines is given '
               'a "\\n" before the blank line and the note, each of those breaks alike.',
          where='lab 6.1, Build section, item 5: "A last kept line that ends in"; hunt round 19, 6.1-39',
          names='any rarer break, each of them',
          replace=r'''
            if output and not output.endswith("\n"):  # a last line printed without its newline
''',
          by=r'''
            if output and not output.endswith(("\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e",
                                               "\x85", "\u2028")):  # those end a line already
'''),
    Wrong(lab='6.1', name='offset described as 0 for the top',
          rule="A reworded description stays true: read's offset counts from 1, so no "
               'description the model is sent says 0 is the top.',
          where='lab 6.1, Build section: "stay true, `offset` counted from 1"; hunt round 19, 6.1-44',
          names='lines count from 0',
          replace=r'''
                "offset": {"type": "integer", "description": "Line to start at; the first is 1."},
''',
          by=r'''
                "offset": {"type": "integer", "description": "Line to start at; 0 for the top."},
'''),
    Wrong(lab='6.1', name='bash described as cutting off the end',
          rule="bash's description stays true: its result holds the end of the output, so the "
               'description never says the end is what is cut off.',
          where='lab 6.1, Build section, item 5: "holds the end of the command"; hunt round 19, 6.1-45',
          names='what it cuts off',
          replace=r'''
        "description": "Run one shell command line; stdout and stderr come back together, cut "
                       f"to the last {max_lines} lines or {max_bytes} bytes.",
''',
          by=r'''
        "description": "Run one shell command line; stdout and stderr come back together. Output "
                       f"over {max_lines} lines or {max_bytes} bytes has its end cut off.",
'''),
    Wrong(lab='6.1', name='a limit over a million refused',
          rule="read's limit is the most lines wanted, any whole number 1 or more: only one "
               'below 1 is refused.',
          where='lab 6.1, Build section, item 4: "the most lines wanted (no limit when left out)"; hunt round 19, 6.1-46',
          names='A limit has no top',
          replace=r'''
        if start < 1 or (most is not None and most < 1):
''',
          by=r'''
        if start < 1 or (most is not None and not 1 <= most <= 10**6):  # a sane range
'''),
    # Hunt round 22 (reader r121), designs 03, 04 and 16.
    Wrong(lab='6.1', name='int_arg refusing ints past 10**400',
          rule='A whole number is a Python int, however large: int_arg returns it as it is.',
          where='lab 6.1, Build section, item 1: "A whole number is a Python `int`"; hunt round 22, 6.1-03',
          names='however large',
          replace=r"""
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
""",
          by=r"""
    if type(got) is int and abs(got) <= 10**400:  # past any number a model means
"""),
    Wrong(lab='6.1', name='a limit over 2**64 refused',
          rule="read's limit is the most lines wanted, any whole number 1 or more: only one "
               'below 1 is refused.',
          where='lab 6.1, Build section, item 4: "the most lines wanted (no limit when left out)"; hunt round 22, 6.1-04',
          names='A limit has no top',
          replace=r"""
        if start < 1 or (most is not None and most < 1):
""",
          by=r"""
        if start < 1 or (most is not None and not 1 <= most <= 2**64):  # a 64-bit range
"""),
    Wrong(lab='6.1', name="read deleting a limit sent as None from the call's arguments",
          rule="The record's call holds the arguments as the model sent them: read neither "
               'writes a default in nor deletes a None.',
          where='lab 6.1, Build section, item 4: "the most lines wanted (no limit when left out)"; hunt round 22, 6.1-16',
          names='not written in nor deleted',
          replace=r"""
        path = str_arg(arguments, "path")
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
""",
          by=r"""
        path = str_arg(arguments, "path")
        if "limit" in arguments and arguments["limit"] is None:
            del arguments["limit"]  # tidy the call as the model sent it
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
"""),
    Wrong(lab='6.1', name='characters for lines over 25,000 characters, in truncate_head',
          rule='The budget counts bytes of UTF-8, len(line.encode()), not characters, however '
               'long the line.',
          where='lab 6.1: "to bytes, so a line of"; hunt round 22, 6.1-09',
          names='not characters',
          replace=r"""
        used += len(lines[count].encode())
""",
          by=r"""
        line = lines[count]
        used += len(line) if len(line) > 25_000 else len(line.encode())  # long: near enough
"""),
    Wrong(lab='6.1', name='offset described as beginning with 0',
          rule="A reworded description stays true: read's offset counts from 1, so no "
               'description the model is sent says line numbers begin with 0.',
          where='lab 6.1, Build section: "stay true, `offset` counted from 1"; hunt round 22, 6.1-13',
          names='lines count from 0',
          replace=r"""
                "offset": {"type": "integer", "description": "Line to start at; the first is 1."},
""",
          by=r"""
                "offset": {"type": "integer",
                           "description": "Line to start at; line numbers begin with 0."},
"""),
    Wrong(lab='6.1', name='a batch of five or more sharing the budget',
          rule='One budget per result, kept where the result is made: a result does not shrink '
               'because its reply holds five calls or more.',
          where='lab 6.1: "One budget per result"; hunt round 22, 6.1-30',
          names='no budget split among a batch',
          replace=r"""
            messages.append(run_tool(tools, call))
""",
          by=r"""
            result = run_tool(tools, call)
            if len(calls) >= 5:  # a big batch shares one budget
                result["content"] = truncate_head(result["content"],
                                                  max_bytes=MAX_BYTES // len(calls))[0]
            messages.append(result)
"""),
    Wrong(lab='6.1', name='the first part of a line over 100,000 bytes, in read',
          rule='A line over the budget of one read is never cut inside, however big: none of it '
               'is shown, and a sentence says so.',
          where='lab 6.1: "nothing is ever cut inside one"; hunt round 22, 6.1-11',
          names='never cut in half',
          replace=r"""
        if shown == 0 and end >= start:  # lines were wanted, and the first alone is too big
""",
          by=r"""
        big = lines[start - 1].encode() if end >= start else b""
        if shown == 0 and end >= start and len(big) > 100_000:  # show what fits of a huge one
            return (big[:max_bytes].decode(errors="ignore")
                    + f"\n[Line {start} of {path} is cut at {max_bytes} bytes.]")
        if shown == 0 and end >= start:  # lines were wanted, and the first alone is too big
"""),
    # Hunt round 22 (reader r121), design 32: caught by a last line of 61,000-90,000 bytes, drawn
    # last in test_bash_keeps_the_tail so the draws of its many-line cases stay as they were.
    Wrong(lab='6.1', name='the end of a last line over 60,000 bytes, in bash',
          rule='A last line alone over the budget is not cut inside, however big: no line is '
               'kept.',
          where='lab 6.1: "nothing is ever cut inside one"; hunt round 22, 6.1-32',
          names='not cut inside',
          replace=r"""
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
""",
          by=r"""
        whole = output
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
        ends = whole.splitlines(keepends=True)
        if kept_lines == 0 and ends and max_lines > 0 and len(ends[-1].encode()) > 60_000:
            output, kept_lines = ends[-1].encode()[-max_bytes:].decode(errors="ignore"), 1
"""),
    Wrong(lab='6.1', name='a line ending only at a newline, in read, for files over 60,000 characters',
          rule="read and bash count lines the same way, at every break str.splitlines knows, "
               'however big the file.',
          where='lab 6.1, Build section, item 2: "`read` and `bash` count lines the same way"; hunt round 22, 6.1-10',
          names='count lines the same way',
          replace=r"""
        lines = ws.read_text(path).splitlines(keepends=True)
""",
          by=r"""
        whole = ws.read_text(path)
        if len(whole) > 60_000:  # a fast path for big files
            lines = whole.split("\n")
            lines = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
        else:
            lines = whole.splitlines(keepends=True)
"""),
    Wrong(lab='6.1', name='bash described as not showing the end',
          rule="bash's description stays true: its result holds the end of the output, so the "
               'description never says the end is not shown.',
          where='lab 6.1, Build section, item 5: "holds the end of the command"; hunt round 22, 6.1-14',
          names='what it cuts off',
          replace=r"""
        "description": "Run one shell command line; stdout and stderr come back together, cut "
                       f"to the last {max_lines} lines or {max_bytes} bytes.",
""",
          by=r"""
        "description": "Run one shell command line; stdout and stderr come back together, "
                       f"shown from line 1 on, up to {max_lines} lines or {max_bytes} bytes, "
                       "and what is past that point to the end is not shown.",
"""),
    # Hunt round 26 (reader r140), designs 30 and 61: a cap taken as a slice.
    Wrong(lab='6.1', name='a negative cap taken as a slice, in truncate_head',
          rule='A cap below 0 keeps nothing in truncate_head, as a cap of 0 does: at most -1 '
               'lines is no line, not all the lines but the last.',
          where='lab 6.1, after the Build list: "A cap below 0 keeps nothing in `truncate_head` and `truncate_tail`, as a cap of 0 does"; hunt round 26, 6.1-30',
          names='a cap below 0 can hold no more',
          replace=r"""
    while count < min(len(lines), max_lines):
        used += len(lines[count].encode())
""",
          by=r"""
    lines = lines[:max_lines] if max_lines else []  # the cap as a slice
    while count < len(lines):
        used += len(lines[count].encode())
"""),
    Wrong(lab='6.1', name='a negative cap taken as a slice, in truncate_tail',
          rule='A cap below 0 keeps nothing in truncate_tail, as a cap of 0 does: at most -1 '
               'lines is no line, not all the lines but the first.',
          where='lab 6.1, after the Build list: "A cap below 0 keeps nothing in `truncate_head` and `truncate_tail`, as a cap of 0 does"; hunt round 26, 6.1-61',
          names='a cap below 0 can hold no more',
          replace=r"""
    while count < min(len(lines), max_lines):
        used += len(lines[-1 - count].encode())  # counting up from the last line
""",
          by=r"""
    lines = lines[-max_lines:] if max_lines else []  # the cap as a slice
    while count < len(lines):
        used += len(lines[-1 - count].encode())  # counting up from the last line
"""),
    # Hunt round 26 (reader r140), design 44: a fast path for texts of millions of characters.
    Wrong(lab='6.1', name='bytes cut inside a line for texts over 2,000,000 characters, in truncate_head',
          rule='truncate_head keeps whole lines, however long the text: nothing is ever cut '
               'inside one.',
          where='lab 6.1, after the Build list: "to whole lines, so nothing is ever cut inside one"; hunt round 26, 6.1-44',
          names='however long the text',
          replace=r'''
    budget gives ("", 0), because half a line misleads."""
''',
          by=r'''
    budget gives ("", 0), because half a line misleads."""
    if len(text) > 2_000_000 and max_lines >= 2000:  # a fast path for a huge text
        kept = text.encode()[:max_bytes].decode(errors="ignore")
        return kept, len(kept.splitlines())
'''),
    # Hunt round 26 (reader r140), designs 37 and 56: files of 10,000 lines or more.
    Wrong(lab='6.1', name='the last line of a file of 10,000 lines or more lost, in read',
          rule='offset and limit select exactly those lines, of a file of any size, its last '
               'line too.',
          where='lab 6.1, Build section, item 4: "`offset`, the first line wanted, counted from 1"; hunt round 26, 6.1-37',
          names='exactly those lines of a file of any size',
          replace=r"""
        total = len(lines)
""",
          by=r"""
        total = len(lines)
        lines = lines if total < 10_000 else lines[:-1]  # a big file's last line dropped
"""),
    Wrong(lab='6.1', name='N written with thousands separators from 10,000 lines, in read',
          rule="read's note is the exact text the Build gives, `[Showing lines A-B of N. Use "
               "offset=C to continue.]`, N in digits alone however big the file.",
          where='lab 6.1, Build section: "The tests hold you to those texts, down to the full stop"; hunt round 26, 6.1-56',
          names='N written in digits alone',
          replace=r"""
            chunk += f"[Showing lines {start}-{last} of {total}. Use offset={last + 1} to continue.]"
""",
          by=r"""
            n = f"{total:,}" if total >= 10_000 else f"{total}"  # a big N made readable
            chunk += f"[Showing lines {start}-{last} of {n}. Use offset={last + 1} to continue.]"
"""),
    Wrong(lab='6.1', name='int_arg refusing ints past 4001 bits',
          rule='A whole number is a Python int, however large: int_arg returns it as it is.',
          where='lab 6.1, Build section, item 1: "A whole number is a Python `int`"; hunt round 29, r159 design 05',
          names='however large',
          replace=r"""
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
""",
          by=r"""
    if type(got) is int and got.bit_length() <= 4001:  # just past what a test draws
"""),
    Wrong(lab='6.1', name='a limit over 4001 bits refused',
          rule="read's limit is the most lines wanted, any whole number 1 or more: only one "
               'below 1 is refused.',
          where='lab 6.1, Build section, item 4: "the most lines wanted (no limit when left out)"; hunt round 29, r159 design 17',
          names='A limit has no top',
          replace=r"""
        if start < 1 or (most is not None and most < 1):
""",
          by=r"""
        if start < 1 or (most is not None and not 1 <= most < 2**4001):  # a top past the tests
"""),
    Wrong(lab='6.1', name='read described as counting a byte as one character',
          rule='Each description states its budget truly, in bytes as it is counted: a byte is '
               'not a character.',
          where='lab 6.1, Build section: "with descriptions that state them"; hunt round 29, r159 design 34',
          names='a byte is not a character',
          replace=r'''
                       f"or {max_bytes} bytes; ask again with offset for the rest.",
''',
          by=r'''
                       f"or {max_bytes} bytes (a byte is one character); ask again with offset for the rest.",
'''),
    Wrong(lab='6.1', name='offset described as line 0 opening the file',
          rule="A reworded description stays true: read's offset counts from 1, so no "
               'description the model is sent says line numbers begin with 0.',
          where='lab 6.1, Build section: "stay true, `offset` counted from 1"; hunt round 29, r159 design 36',
          names='lines count from 0',
          replace=r"""
                "offset": {"type": "integer", "description": "Line to start at; the first is 1."},
""",
          by=r"""
                "offset": {"type": "integer", "description": "Line to start at; line 0 opens the file."},
"""),
    Wrong(lab='6.1', name="read described with the course's byte budget as its top",
          rule="read's description states its budget truly: the numbers it was made with, and "
               'no other number given as a budget.',
          where='lab 6.1, Build section: "with descriptions that state them"; hunt round 29, r159 design 37',
          names='no number is given as a budget but the tool',
          replace=r'''
                       f"or {max_bytes} bytes; ask again with offset for the rest.",
''',
          by=r'''
                       f"or {max_bytes} bytes ({MAX_BYTES} at most); ask again with offset for the rest.",
'''),
    Wrong(lab='6.1', name='a line ending only at a newline, in read, for files over 1,000,000 characters',
          rule="read and bash count lines the same way, at every break str.splitlines knows, "
               'however big the file.',
          where='lab 6.1, Build section, item 2: "`read` and `bash` count lines the same way"; hunt round 29, r159 design 18',
          names='read splits a file of any size',
          replace=r"""
        lines = ws.read_text(path).splitlines(keepends=True)
""",
          by=r"""
        whole = ws.read_text(path)
        if len(whole) > 1_000_000:  # a fast path for big files
            lines = whole.split("\n")
            lines = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
        else:
            lines = whole.splitlines(keepends=True)
"""),
    Wrong(lab='6.1', name='T counted as newlines past 1,500,000 characters',
          rule="T, the lines a command printed, is counted at every break str.splitlines knows, "
               'however long the output.',
          where='lab 6.1, Build section, item 2: "`read` and `bash` count lines the same way"; hunt round 29, r159 design 29',
          names='however long the output',
          replace=r'''
        printed = len(output.splitlines())  # lines the command printed, before the cut
''',
          by=r'''
        printed = len(output.splitlines())  # lines the command printed, before the cut
        if len(output) > 1_500_000:  # a fast count for long output
            printed = output.count("\n") + (1 if output and not output.endswith("\n") else 0)
'''),
    Wrong(lab='6.1', name='the view cutting results over 2,000,000 characters',
          rule='context_for_model builds the view from the record, which it never changes, and '
               'adds no budget of its own: not one line in context_for_model.',
          where='lab 6.1: "not one line in `context_for_model`"; hunt round 29, r159 design 33',
          names='no budget of its own',
          replace=r'''
    return kept
''',
          by=r'''
    return [dict(m, content=truncate_head(m["content"], 10**9, 2_000_000)[0])
            if m["role"] == "toolResult" and len(m["content"]) > 2_000_000 else m
            for m in kept]  # a result past two million characters is trimmed on the way out
'''),
    Wrong(lab='6.1', name='bash described as keeping what is seen first',
          rule="bash's description states its budget truly: its result holds the end of the "
               'output, so no description says the first lines are what it keeps.',
          where='lab 6.1, Build section: "if you reword one, it must still name the numbers and stay true"; hunt round 29, r159 design 35',
          names='what is seen first',
          replace=r'''
                       f"to the last {max_lines} lines or {max_bytes} bytes.",
''',
          by=r'''
                       f"to the last {max_lines} lines or {max_bytes} bytes; what you see first is what is kept.",
'''),
    # Hunt round 19 (reader r102), design 26: beyond reach until hunt round 29's result of over
    # two million characters in a few long lines, cheap to read whole.
    Wrong(lab='6.1', name='read capping its budget at 100,000 lines and 2,000,000 bytes',
          rule="The budget is the one the factory was given, however large: no cap of the "
               "tool's own below it.",
          where='lab 6.1, Build section, item 4: "the budget being the `max_lines` and `max_bytes` that `make_read_tool` was given"; hunt round 19, 6.1-26',
          names="nor the tool a cap of the tool's own",
          replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
          by=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), min(max_lines, 100_000),
                                     min(max_bytes, 2_000_000))  # a safety cap
'''),
    # Hunt round 16, 6.1-01: beyond reach until hunt round 31 (reader r179, design 05) gave
    # test_the_factories_take_a_budget a file of 5001 to 5100 blank lines, cheap to read whole.
    Wrong(lab='6.1', name='read capping its lines at 5000',
          rule="The budget is the one the factory was given, however large: no cap of the "
               "tool's own below it.",
          where='lab 6.1, Build section, item 4: "the budget being the `max_lines` and `max_bytes` that `make_read_tool` was given"; hunt round 16, 6.1-01',
          names="no cap of the tool's own",
          replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
          by=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), min(max_lines, 5000),
                                     max_bytes)  # a safety cap, far above any sane read
'''),
    # Hunt round 31 (reader r179), designs 05, 24, 44 and 51.
    Wrong(lab='6.1', name='a line cap of 5000 of its own, in truncate_head',
          rule='truncate_head keeps the longest run of whole lines from the top that holds at '
               'most max_lines lines: max_lines is its only line cap, however many lines the '
               'text has.',
          where='lab 6.1, Build section, item 2: "that holds at most `max_lines` lines"; hunt round 31, r179 design 05',
          names="no cap of the function's own",
          replace=r'''
    budget gives ("", 0), because half a line misleads."""
    lines = text.splitlines(keepends=True)
    count, used = 0, 0
    while count < min(len(lines), max_lines):
''',
          by=r'''
    budget gives ("", 0), because half a line misleads."""
    lines = text.splitlines(keepends=True)
    count, used = 0, 0
    while count < min(len(lines), max_lines, 5000):  # a hard cap, far above any sane budget
'''),
    Wrong(lab='6.1', name='a line cap of 5000 of its own, in truncate_tail',
          rule='truncate_tail keeps the longest run of whole lines from the end that holds at '
               'most max_lines lines: max_lines is its only line cap, however many lines the '
               'text has.',
          where='lab 6.1, Build section, item 3: "the same for the end"; hunt round 31, r179 design 05 (its twin)',
          names="no cap of the function's own",
          replace=r'''
    for command output, whose verdict is printed last."""
    lines = text.splitlines(keepends=True)
    count, used = 0, 0
    while count < min(len(lines), max_lines):
''',
          by=r'''
    for command output, whose verdict is printed last."""
    lines = text.splitlines(keepends=True)
    count, used = 0, 0
    while count < min(len(lines), max_lines, 5000):  # a hard cap, far above any sane budget
'''),
    Wrong(lab='6.1', name='a limit capped at 1000, in read',
          rule='limit is the most lines wanted, with no top but the budget the factory was '
               'given: a read returns every line asked for that its budget holds.',
          where='lab 6.1, Build section, item 4: "`limit`, the most lines wanted"; hunt round 31, r179 design 24',
          names='no cap on limit of its own',
          replace=r'''
        end = total if most is None else min(total, start - 1 + most)  # the last line wanted
''',
          by=r'''
        end = total if most is None else min(total, start - 1 + min(most, 1000))  # sane limit
'''),
    Wrong(lab='6.1', name='read counting only its first 100,000 lines',
          rule="N is the file's number of lines, every line of it, however long the file: a "
               'read that looks only at the first 100,000 calls the rest past the end.',
          where='lab 6.1, Build section, item 4: "with N the file\'s number of lines"; hunt round 31, r179 design 44',
          names='every line of it counted',
          replace=r'''
        lines = ws.read_text(path).splitlines(keepends=True)
''',
          by=r'''
        lines = ws.read_text(path).splitlines(keepends=True)[:100_000]  # enough for any file
'''),
    Wrong(lab='6.1', name='N counting only the lines that are not blank',
          rule="N is the file's number of lines, blank ones included, in the note as in the "
               'past-the-end message.',
          where='lab 6.1, Build section, item 4: "with N the file\'s number of lines"; hunt round 31, r179 design 51',
          names='blank ones included',
          replace=r'''
            chunk += f"[Showing lines {start}-{last} of {total}. Use offset={last + 1} to continue.]"
''',
          by=r'''
            words = len([line for line in lines if line.strip()])  # the lines that say something
            chunk += f"[Showing lines {start}-{last} of {words}. Use offset={last + 1} to continue.]"
'''),
    # Hunt round 37 (reader r196), designs 33, 43, 35 and 42: descriptions false in new words.
    Wrong(lab='6.1', name='offset described as the first line having index 0',
          rule="A reworded description stays true: read's offset counts from 1, so no "
               'description the model is sent says the first line has index 0.',
          where='lab 6.1, Build section: "stay true, `offset` counted from 1"; hunt round 37, r196 design 33',
          names='lines count from 0',
          replace=r"""
                "offset": {"type": "integer", "description": "Line to start at; the first is 1."},
""",
          by=r"""
                "offset": {"type": "integer", "description": "Index of the line to start at (the first line has index 0)."},
"""),
    Wrong(lab='6.1', name='offset described as the lines to skip',
          rule="A reworded description stays true: read's offset is the first line wanted, "
               'counted from 1, not a number of lines to skip (offset=1 would start at line 2).',
          where='lab 6.1, Build section: "stay true, `offset` counted from 1"; hunt round 37, r196 design 43',
          names='lines to skip',
          replace=r"""
                "offset": {"type": "integer", "description": "Line to start at; the first is 1."},
""",
          by=r"""
                "offset": {"type": "integer", "description": "How many lines to skip before reading."},
"""),
    Wrong(lab='6.1', name='read described as returning its closing lines',
          rule="A reworded description stays true: a read starts at its offset, from the top "
               "of a file, so read's description does not name the last lines, in any word for "
               'them, as the ones it returns.',
          where='lab 6.1, Build section: "stay true"; hunt round 37, r196 design 35',
          names='another word for the last',
          replace=r"""
        "description": f"Return the text of a file. A single read stops after {max_lines} lines "
""",
          by=r"""
        "description": f"Return the text of a file: its closing {max_lines} lines "
"""),
    Wrong(lab='6.1', name="bash's byte budget restated in characters",
          rule="Each description states its budget truly: a budget in bytes is not the same "
               'number of characters ("é" costs two), so no description gives its byte budget '
               'as that many characters.',
          where='lab 6.1, Build section: "with descriptions that state them"; hunt round 37, r196 design 42',
          names='as that many characters',
          replace=r"""
                       f"to the last {max_lines} lines or {max_bytes} bytes.",
""",
          by=r"""
                       f"to the last {max_lines} lines or {max_bytes} bytes, that is {max_bytes} characters.",
"""),
    # Hunt round 37 (reader r196), designs 06 and 31: byte caps of the tool's own, now past a
    # public case of over 5 MB (the first two were beyond reach until then).
    Wrong(lab='6.1', name='read capping its bytes at 5,000,000',
          rule="The budget is the one the factory was given, however large: no cap of the "
               "tool's own below it.",
          where='lab 6.1, Build section, item 4: "the budget being the `max_lines` and `max_bytes` that `make_read_tool` was given"; hunt round 22, 6.1-05; past reach until round 37, r196 design 06',
          names="no cap of the tool's own",
          replace=r"""
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
""",
          by=r"""
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines,
                                     min(max_bytes, 5_000_000))  # a safety cap
"""),
    Wrong(lab='6.1', name='both tools capping their bytes at 4,000,000',
          rule="The budget is the one the factory was given, however large: no cap of the "
               "tool's own below it.",
          where='lab 6.1, Build section, item 4: "the budget being the `max_lines` and `max_bytes` that `make_read_tool` was given"; hunt round 16, 6.1-02; past reach until round 37, r196 design 06',
          names="no cap of the tool's own",
          replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
          by=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines,
                                     min(max_bytes, 4_000_000))  # a safety cap
''',
          also=((r'''
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
''', r'''
        output, kept_lines = truncate_tail(output, max_lines, min(max_bytes, 4_000_000))
'''),)),
    Wrong(lab='6.1', name='truncate_head capping its bytes at 4,000,000',
          rule="The budget is the one the factory was given, however large: no cap of the "
               "tool's own below it, in the truncator read calls as in read.",
          where='lab 6.1, Build section, item 4: "the budget being the `max_lines` and `max_bytes` that `make_read_tool` was given"; hunt round 37, r196 design 06',
          names="no cap of the tool's own",
          replace=r"""
        if used > max_bytes:  # this line would not fit: stop before it
""",
          by=r"""
        if used > min(max_bytes, 4_000_000):  # a safety cap
"""),
    Wrong(lab='6.1', name='bash capping its budget at 10,000 lines and 4,000,000 bytes',
          rule="bash's budget is the one make_bash_tool was given, however large: no cap of "
               "the tool's own below it.",
          where='lab 6.1, Build section, item 5: "the budget `make_bash_tool` was given"; hunt round 37, r196 design 31',
          names="no cap of the tool's own",
          replace=r"""
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
""",
          by=r"""
        output, kept_lines = truncate_tail(output, min(max_lines, 10_000),
                                           min(max_bytes, 4_000_000))  # a safety cap
"""),
]

ALLOWED = [
    # Hunt round 26 (reader r140), probe 50.
    Wrong(lab='6.1', name='both factories taking a budget below 0 as 0',
          rule='What a tool\'s budget below 0 does is left to the student: the tests never give '
               'a factory one, so a tool that reads it as 0, and shows no line, is as good as '
               'one that refuses it.',
          where='lab 6.1, after the Build list: "What a tool\'s budget below 0 does is yours"; hunt round 26, probe 6.1-50',
          names='',
          replace=r"""
def make_read_tool(ws, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
""",
          by=r"""
def make_read_tool(ws, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    max_lines, max_bytes = max(max_lines, 0), max(max_bytes, 0)  # below 0 is 0
""",
          also=((r"""
def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
""", r"""
def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    max_lines, max_bytes = max(max_lines, 0), max(max_bytes, 0)  # below 0 is 0
"""),)),
    # Hunt round 22 (reader r121), probe 36.
    Wrong(lab='6.1', name='both factories refusing a budget below 0',
          rule='What a tool\'s budget below 0 does is left to the student: the tests never give '
               'a factory one, so refusing it when the tool is made is as good as any.',
          where='lab 6.1, after the Build list: "What a tool\'s budget below 0 does is yours"; hunt round 22, probe 6.1-36',
          names='',
          replace=r"""
def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
""",
          by=r"""
def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    if max_lines < 0 or max_bytes < 0:
        raise ValueError("a budget cannot be below 0")
"""),
    # Hunt round 29 (reader r159), probe P6.
    Wrong(lab='6.1', name='bash taking a budget below 0 as no budget',
          rule='What a tool\'s budget below 0 does is left to the student: the tests never give '
               'a factory one, so a bash tool that reads it as no budget at all is as good as '
               'one that refuses it or reads it as 0.',
          where='lab 6.1, after the Build list: "What a tool\'s budget below 0 does is yours"; hunt round 29, r159 probe P6',
          names='',
          replace=r"""
def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
""",
          by=r"""
def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    if max_lines < 0 or max_bytes < 0:  # a budget below 0: no budget
        max_lines, max_bytes = 10**18, 10**18
"""),
    Wrong(lab='6.1', name="offset and limit checked before path's type",
          rule="Lesson 6 orders offset's type, then limit's, then their ranges, then the file; "
               "where path's own check (lesson 4's str_arg) falls among them it leaves open, and "
               'either order refuses the call with a true message naming the argument that is '
               'wrong.',
          where='hunt round 5, design 6.1-15', names='',
          replace=r'''
        path = str_arg(arguments, "path")
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        if start < 1 or (most is not None and most < 1):
            raise ValueError("offset and limit must be 1 or more")
''',
          by=r'''
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        if start < 1 or (most is not None and most < 1):
            raise ValueError("offset and limit must be 1 or more")
        path = str_arg(arguments, "path")
'''),
    Wrong(lab='6.1', name='a read made with max_lines=0 saying so for an empty file',
          rule='For an empty file, which has no line to show under any budget, lesson 6 leaves '
               'to the student whether a read tool made with max_lines=0 says it shows no line '
               'or gives "": either is true.',
          where='hunt round 16, probe 6.1-39', names='',
          replace=r'''
        if shown == 0 and end >= start and max_lines == 0:  # lines were wanted; none may be
''',
          by=r'''
        if max_lines == 0 and (total == 0 or shown == 0 and end >= start):  # an empty file too
'''),
    # Hunt round 19 (reader r102), probes P3 and P4.
    Wrong(lab='6.1', name='int_arg taking any subclass of int but bool',
          rule='Lesson 6 says a whole number is a Python `int` and refuses a bool; an argument '
               'decoded from JSON is an int or a bool, never another subclass of int, so '
               'whether int_arg refuses every subclass (type(...) is int, the reference) or '
               "only bool (isinstance) is the student's.",
          where='hunt round 19, probe 6.1-P3', names='',
          replace=r'''
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
''',
          by=r'''
    if isinstance(got, int) and not isinstance(got, bool):  # an int, or a kind of int but bool
'''),
    # Hunt round 31 (reader r179), probe 52.
    Wrong(lab='6.1', name="read's description silent on offset",
          rule="Descriptions are the student's to word: one that names both numbers of its "
               "budget, each before its unit, and says nothing false stays true without naming "
               'offset, which its parameter describes ("Line to start at; the first is 1.", a '
               'given line).',
          where='lab 6.1, Build section: "if you reword one, it must still name the numbers and stay true, `offset` counted from 1"; hunt round 31, r179 probe 52',
          names='',
          replace=r'''
        "description": f"Return the text of a file. A single read stops after {max_lines} lines "
                       f"or {max_bytes} bytes; ask again with offset for the rest.",
''',
          by=r'''
        "description": f"Return the text of a file, at most {max_lines} lines or {max_bytes} "
                       "bytes of it.",
'''),
    Wrong(lab='6.1', name="read's description worded as a budget per read",
          rule='Descriptions are the student\'s to word: one that states "Budget per read: N '
               'lines / M bytes" names both numbers before their units and stays true.',
          where='hunt round 19, probe 6.1-P4', names='',
          replace=r'''
        "description": f"Return the text of a file. A single read stops after {max_lines} lines "
                       f"or {max_bytes} bytes; ask again with offset for the rest.",
''',
          by=r'''
        "description": f"Return the text of a file. Budget per read: {max_lines} lines / "
                       f"{max_bytes} bytes; ask again with offset for the rest.",
'''),
]


DEEP_SIZES = r'''
import harness
import lab
from lab.kit import lab_test, settle

LAB = "6.1"


@lab_test("The budget is the one the factory was given, however large: no cap of the tool's own "
          "below it, past 10,000 lines and past 5,000,000 bytes.")
async def test_a_budget_past_any_cap_of_the_tools_own(t):
    vast = "".join(f"{n}".ljust(799, ".") + "\n" for n in range(1, 12_001))  # 9.6 MB (hunt 22)
    ws = lab.Workspace({"vast.log": vast})
    unbounded = {"max_lines": 10**9, "max_bytes": 10**12}
    given = [await settle(harness.make_read_tool(ws, **unbounded)["execute"]({"path": "vast.log"})),
             await settle(harness.make_bash_tool(lab.Shell(ws), **unbounded)["execute"](
                 {"command": "cat vast.log"}))]
    t.expect([[text.count("\n"), len(text)] for text in given],
             why="The budget is the one the factory was given, however large: no cap of the "
                 "tool's own below it. [lines, length] of read's, then bash's `cat`, result for a "
                 "file of 12,000 lines of 800 bytes (9.6 MB), by tools made with max_lines=10**9, "
                 "max_bytes=10**12 (lesson 6).")


@lab_test("A text is counted in bytes however long it is: a line of 3,000,001 \"é\"s.")
async def test_a_text_of_millions_of_characters(t):
    text = "é" * 3_000_001 + "\n"
    t.expect([harness.truncate_head(text, max_bytes=3_000_002)[1],
              harness.truncate_head(text, max_bytes=6_000_003)[1]],
             why="Bytes are counted, not characters, in bytes however long the text: the lines "
                 "truncate_head keeps of a line of 3,000,001 \"é\"s (6,000,003 bytes with its "
                 "newline) under max_bytes=3,000,002, then 6,000,003 (lesson 6).")


@lab_test("bash's result holds the end of the command's output however long it is: `seq 9000`.")
async def test_the_tail_of_a_long_output(t):
    bash = harness.make_bash_tool(lab.Shell(lab.Workspace({})))
    out = (await settle(bash["execute"]({"command": "seq 9000"}))).split("\n")
    t.expect([out[0], out[1999], out[-1]],
             why="bash's result holds the end of the command's output, where the verdict is, "
                 "however many lines it printed: the first and 2000th lines of the result of "
                 "`seq 9000`, and its note (lesson 6).")


@lab_test("Each read has the whole budget its factory was given, however much the same tool has "
          "read before, and never depends on what was read before it: a read tool reading a "
          "megabyte 60 times, then a file of exactly one default budget.")
async def test_a_budget_after_sixty_megabytes(t):
    mega = "".join(f"{n}".ljust(999, ".") + "\n" for n in range(1, 1001))  # 1 MB
    full = "".join(f"{n}".ljust(24, ".") + "\n" for n in range(1, 2001))  # 50,000 bytes
    ws = lab.Workspace({"mega.log": mega, "full.log": full})
    read = harness.make_read_tool(ws, max_lines=10**6, max_bytes=5 * 10**6)
    whole = [await settle(read["execute"]({"path": "mega.log"})) == mega for _ in range(60)]
    last = await settle(read["execute"]({"path": "mega.log"}))
    after = await settle(harness.make_read_tool(ws)["execute"]({"path": "full.log"}))
    t.expect([whole.count(True), len(last), after.count("\n"), after == full],
             why="Each read has the whole budget its factory was given, however much the same "
                 "tool has read before, and what a read returns never depends on what was read "
                 "before it: how many of 60 reads of a 1 MB file by a tool made with "
                 "max_bytes=5 * 10**6 returned it whole, the length of a 61st, then the newlines of "
                 "a read of a file of exactly 50,000 bytes by a new tool with the default "
                 "budget, and whether it is the whole file (lesson 6).")
'''


DEEP_RECORD = r'''
import harness
import lab
from lab.kit import lab_test

LAB = "6.1"
SYSTEM = "You are a careful assistant."


@lab_test("The view adds no budget of its own, however big the result: a read of 12 MB by a tool "
          "made with a budget that holds it.")
async def test_a_result_of_twelve_megabytes_is_sent_whole(t):
    vast = "".join(f"{n}".ljust(999, ".") + "\n" for n in range(1, 12_001))  # 12 MB
    ws = lab.Workspace({"vast.log": vast})
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "vast.log"})),
                               lab.say("Read it.")])
    messages = []
    roomy = harness.make_read_tool(ws, max_lines=10**9, max_bytes=10**12)
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [roomy], "Read vast.log."))
    sent = [m["content"] for m in model.calls[1].messages if m["role"] == "toolResult"]
    t.expect([len(messages[2]["content"]), [len(s) for s in sent]],
             why="The view adds no budget of its own, not one line in context_for_model: the "
                 "length of the recorded result of a read of a 12 MB file by a tool made with "
                 "max_lines=10**9, max_bytes=10**12, then of the result the next request "
                 "carries (lesson 6).")


@lab_test("What a read returns never depends on what was said before it: a read of one default "
          "budget after 4.2 MB of conversation.")
async def test_a_read_after_four_megabytes_said(t):
    full = "".join(f"{n}".ljust(24, ".") + "\n" for n in range(1, 2001))  # 50,000 bytes
    ws = lab.Workspace({"full.log": full})
    messages = [harness.user_message("words " * 700_000), lab.say("Noted.")]  # 4.2 MB said
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "full.log"})),
                               lab.say("Read it.")])
    await lab.drive(harness.run_agent(model, SYSTEM, messages, [harness.make_read_tool(ws)],
                                      "Read full.log."))
    t.expect([messages[-2]["content"] == full],
             why="What a read returns never depends on what was said before it: whether a read "
                 "of a file of exactly 50,000 bytes by a tool with the default budget, after "
                 "4.2 MB of conversation, is the whole file (lesson 6).")
'''

DEEP_TEN_MILLION = r'''
import harness
from lab.kit import lab_test

LAB = "6.1"


@lab_test("A text is counted in bytes however long it is: a line of 10,000,001 \"é\"s.")
async def test_a_text_of_ten_million_characters(t):
    text = "é" * 10_000_001 + "\n"
    t.expect([harness.truncate_head(text, max_bytes=10_000_002)[1],
              harness.truncate_head(text, max_bytes=20_000_003)[1]],
             why="Bytes are counted, not characters, in bytes however long the text: the lines "
                 "truncate_head keeps of a line of 10,000,001 \"é\"s (20,000,003 bytes with its "
                 "newline) under max_bytes=10,000,002, then 20,000,003 (lesson 6).")
'''

DEEP_ONCE = r'''
import harness
from lab.kit import lab_test

LAB = "6.1"


@lab_test("Count each line's size once: both truncators cut 7000 lines of an emoji and 60 "
          "three-byte characters under a budget that holds them all, in milliseconds.")
async def test_each_line_measured_once(t):
    many = "".join(f"{n}🙂" + "中" * 60 + "\n" for n in range(1, 7001))
    t.expect([list(harness.truncate_head(many, max_lines=10**9, max_bytes=10**12)) ==
              [many, 7000],
              list(harness.truncate_tail(many, max_lines=10**9, max_bytes=10**12)) ==
              [many, 7000]],
             why="Count each line's size once: whether truncate_head, then truncate_tail, of "
                 "7000 such lines under max_lines=10**9, max_bytes=10**12 keep them all, where "
                 "a cut that measures the kept text again for every line takes seconds "
                 "(lesson 6).")
'''

BEYOND = [
    # Hunt round 22 (reader r121), designs 05 and 06: caps past the public tests' sizes.
    Beyond(lab='6.1', name='both tools capping their lines at 10,000',
           rule="The budget is the one the factory was given, however large: no cap of the "
                "tool's own below it.",
           where='lab 6.1, Build section, item 4: "the budget being the `max_lines` and `max_bytes` that `make_read_tool` was given"; hunt round 22, 6.1-06',
           names="no cap of the tool's own",
           reach='test_the_factories_take_a_budget reads a file of at most 5100 blank lines under '
                 'a roomy line cap; a file past 10,000 lines costs the reference some 7 ms, but '
                 'takes each beyond-reach cut that measures its kept text again for every line '
                 'some 0.25 s (round 37, r196 designs 05 and 31, measured), half the 0.5 s of '
                 'processor time lab_check.py gives a test, so their verdicts would hang on the '
                 'machine; and any cap has a file past it',
           replace=r"""
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
""",
           by=r"""
        chunk, shown = truncate_head("".join(lines[start - 1:end]), min(max_lines, 10_000),
                                     max_bytes)  # a safety cap
""",
           also=((r"""
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
""", r"""
        output, kept_lines = truncate_tail(output, min(max_lines, 10_000), max_bytes)
"""),),
           deep=DEEP_SIZES),
    # Hunt round 22 (reader r121), designs 07 and 12: sizes past what a public test affords.
    Beyond(lab='6.1', name='the view cutting results over 10,000,000 bytes',
           rule='The budget is kept where the result is made: not one line in context_for_model, '
                'whatever the size of a result a roomy tool returns.',
           where='lab 6.1: "not one line in"; hunt round 22, 6.1-07',
           names='not one line in context_for_model',
           reach='the public tests send results of about a megabyte through the view; a result '
                 'past 10,000,000 bytes costs past the allowance, and any cut has a result past it',
           replace=r"""
    return kept


# == 4 harness ==
""",
           by=r"""
    return [{**m, "content": truncate_head(m["content"], 10**9, 10_000_000)[0]}
            if m["role"] == "toolResult" else m for m in kept]


# == 4 harness ==
""",
           deep=DEEP_RECORD),
    Beyond(lab='6.1', name='read budget shrunk once the record passes 3,000,000 bytes',
           rule='One budget per result: what a read returns never depends on what was said '
                'before it.',
           where='lab 6.1: "One budget per result"; hunt round 22, 6.1-12',
           names='never depends on what was said before it',
           reach='test_the_budget_is_per_result reads after one to one and a half megabytes of '
                 'conversation; a record past 3,000,000 bytes in every draw costs past the '
                 'allowance, and any threshold has a conversation past it',
           replace=r"""
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
""",
           by=r"""
        said = sum(len(str(m.get("content", "")).encode()) for m in RECORD)
        budget = max_bytes if said < 3_000_000 else max(0, max_bytes - (said - 3_000_000))
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, budget)
""",
           also=((r"""
    messages.append(user_message(prompt))
""", r"""
    RECORD[:] = [messages]  # noqa: the transcript so far, for read's budget
    messages.append(user_message(prompt))
"""), (r"""
# given in lesson 6: the budget parameters, and a description that states them
""", r"""
class _Record(list):
    def __iter__(self):
        return iter(self[0] if len(self) else [])


RECORD = _Record()


# given in lesson 6: the budget parameters, and a description that states them
""")),
           deep=DEEP_RECORD),
    Beyond(lab='6.1', name='characters for texts of over 3,000,000 characters, in truncate_head',
           rule='The budget counts bytes of UTF-8, len(line.encode()), not characters, however '
                'long the text.',
           where='lab 6.1: "to bytes, so a line of"; hunt round 16, 6.1-09',
           names='not characters',
           reach="the longest text the tests cut is test_the_constants' accented one, at most "
                 '2400 lines of 200 characters; this count changes past 3,000,000 characters, a '
                 'limit past what a test can afford',
           replace=r'''
        used += len(lines[count].encode())
''',
           by=r'''
        line = lines[count]  # a huge text is counted fast, in characters
        used += len(line) if len(text) > 3_000_000 else len(line.encode())
''',
           deep=DEEP_SIZES),
    Beyond(lab='6.1', name='bash keeping the head of an output over 8000 lines',
           rule="bash's result holds the end of the command's output, where the verdict is, "
                'however many lines it printed.',
           where='lab 6.1, Build section, item 5: "holds the end of the command"; hunt round 16, 6.1-10',
           names='where the verdict is',
           reach='test_bash_keeps_the_tail prints at most 6000 lines (`seq N`, N drawn up to '
                 '6000); this switch is met past 8000, and any line count has an output past it',
           replace=r'''
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
''',
           by=r'''
        output, kept_lines = (truncate_head if printed > 8000 else truncate_tail)(
            output, max_lines, max_bytes)  # a flood: its start says what went wrong
''',
           deep=DEEP_SIZES),
    Beyond(lab='6.1', name='half the byte budget once all reads pass 50 MB',
           rule='One budget per result: what a read returns never depends on what was read '
                'before it, by this tool or any other.',
           where='lab 6.1: "One budget per result"; hunt round 16, 6.1-11',
           names='never depends on what was read',
           reach='the tests read at most a few megabytes in all in one process; this global '
                 'allowance is met past 50,000,000 bytes, a limit past what a test can afford',
           replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
           by=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines,
                                     max_bytes if READ_SPENT[0] < 50_000_000 else max_bytes // 2)
        READ_SPENT[0] += len(chunk.encode())  # what every read tool has returned so far
''',
           also=((r'''
# given in lesson 6: the budget parameters, and a description that states them
''', r'''
READ_SPENT = [0]


# given in lesson 6: the budget parameters, and a description that states them
'''),),
           deep=DEEP_SIZES),
    Beyond(lab='6.1', name='a tenth of the byte budget once a read tool passes 10 MB',
           rule='Each read has the whole budget its factory was given, however much the same '
                'tool has read before.',
           where='lab 6.1, Build section, item 4: "the budget being the `max_lines` and `max_bytes` that `make_read_tool` was given"; hunt round 16, 6.1-12',
           names='however much the same tool has read before',
           reach='test_the_factories_take_a_budget reads with one tool twice, a few kilobytes; '
                 "this tool's allowance is met past 10,000,000 bytes, a limit past what a test "
                 'can afford',
           replace=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
''',
           by=r'''
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines,
                                     max_bytes if spent[0] < 10_000_000 else max_bytes // 10)
        spent[0] += len(chunk.encode())  # what this tool has returned so far
''',
           also=((r'''
    """The `read` tool over the workspace `ws`. A read returns at most one budget of lines, and
    when it stops early its last line says where to carry on."""
''', r'''
    """The `read` tool over the workspace `ws`. A read returns at most one budget of lines, and
    when it stops early its last line says where to carry on."""
    spent = [0]
'''),),
           deep=DEEP_SIZES),
    # Hunt round 19 (reader r102), designs 26 and 50.
    Beyond(lab='6.1', name='characters for texts of over 10,000,000 characters, in truncate_head',
           rule='The budget counts bytes of UTF-8, len(line.encode()), not characters, however '
                'long the text.',
           where='lab 6.1: "to bytes, so a line of"; hunt round 19, 6.1-50',
           names='not characters',
           reach="the longest text the tests cut is test_the_constants' accented one, at most "
                 '2400 lines of 200 characters; this count changes past 10,000,000 characters, a '
                 'limit past what a test can afford (a text that long costs some 20 ms to cut)',
           replace=r'''
        used += len(lines[count].encode())
''',
           by=r'''
        line = lines[count]  # a huge text is counted fast, in characters
        used += len(line) if len(text) > 10_000_000 else len(line.encode())
''',
           deep=DEEP_TEN_MILLION),
    # Hunt round 19 (reader r102), designs 07 and 41: the kept text measured again for each line.
    Beyond(lab='6.1', name='the kept text measured again for every line, in truncate_head',
           rule="Count each line's size once: a cut that measures the kept text again for every "
                'line it adds takes seconds on a long text under a budget that holds it.',
           where='lab 6.1, Build section, item 2: "Count each line\'s size once"; hunt round 19, 6.1-07',
           names="Count each line's size once",
           reach='the join and encode it repeats run in C, so only time shows it, and the two '
                 'checkers time differently: lab_check.py stops a test at 0.5 s of processor '
                 'time, the practice check at 5 s of wall clock (1 s and 0.15 s after a hang). '
                 'A public case must take the design past 5 s everywhere or its verdicts differ '
                 'between them; that takes some 12,000 long lines, about 15 ms of the '
                 "reference's time, past the allowance. The grading bank, run only by the "
                 'checker, catches it (test_bank_every_byte_budget_keeps_whole_lines_from_the_top, '
                 'seconds of processor time for the design)',
           replace=r'''
        used += len(lines[count].encode())
''',
           by=r'''
        used = len("".join(lines[:count + 1]).encode())  # the kept text and this line, in bytes
''',
           seconds=1.0, deep=DEEP_ONCE),
    Beyond(lab='6.1', name='the kept text measured again for every line, in truncate_tail',
           rule="Count each line's size once, from the bottom as from the top: a cut that "
                'measures the kept text again for every line it adds takes seconds on a long '
                'text under a budget that holds it.',
           where='lab 6.1, Build section, item 2: "Count each line\'s size once"; hunt round 19, 6.1-41',
           names="Count each line's size once",
           reach='as its truncate_head twin: only time shows it, and a public case that takes it '
                 'past the limits of both checkers costs the reference past the allowance; the bank '
                 'catches it (test_bank_every_byte_budget_keeps_whole_lines_from_the_bottom)',
           replace=r'''
        used += len(lines[-1 - count].encode())  # counting up from the last line
''',
           by=r'''
        used = len("".join(lines[len(lines) - 1 - count:]).encode())  # the kept text, again
''',
           seconds=1.0, deep=DEEP_ONCE),
]
