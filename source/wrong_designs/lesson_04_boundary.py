"""Lesson 4, "When a tool fails: a traceback is not an answer": the wrong designs its rungs rule
out, each as a small change to lab 4.1's reference. The format is tools/wrong_designs.py's.
"""
from tools.wrong_designs import Beyond, Wrong

WRONG = [
    Wrong(lab='4.1', name='catching more than Exception',
          rule='run_tool catches Exception and nothing wider: PowerCut is the program ending, not a tool failing.',
          where='rung: How wide should the except be?',
          names='nothing wider',
          replace=r'''
        except Exception as exc:
            text, failed = str(exc), True
''',
          by=r'''
        except BaseException as exc:  # a harness should never crash
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='letting exceptions escape',
          rule="A tool that raises still gets a result: run_tool turns the raise into the call's error result, and the run goes on.",
          where='failure scene: A file that is not there',
          names='still gets a result',
          replace=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
''',
          by=r'''
        text, failed = tool["execute"](call["arguments"]), False
'''),
    Wrong(lab='4.1', name='a try in every tool',
          rule='One boundary, in run_tool, where every call passes through: tools go on raising, and a tool that raises still gets a result.',
          where='rung: Where does the try go?',
          names='still gets a result',
          replace=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}


def make_read_tool(ws):
    """The `read` tool over the workspace `ws`: the whole text of one file, named by its path."""
    def execute(arguments):
        path = str_arg(arguments, "path")
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
        return ws.read_text(path)
''',
          by=r'''
        text, failed = tool["execute"](call["arguments"]), False  # each tool catches its own
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}


def make_read_tool(ws):
    """The `read` tool over the workspace `ws`: the whole text of one file, named by its path."""
    def execute(arguments):
        try:
            path = str_arg(arguments, "path")
            if not ws.exists(path):  # say what is there, so the model can ask again
                listing = ", ".join(ws.listdir("."))
                raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
            return ws.read_text(path)
        except Exception as exc:
            return str(exc)
'''),
    # The design has two halves, far apart in the file: the loop's body gets the try, and run_tool
    # loses its own. The second half is written as a new run_tool after run_agent, which takes the
    # place of the first when the module is imported.
    Wrong(lab='4.1', name='a try around the whole loop',
          rule="A failure is one call's result: it does not end the batch or the run, and the model is asked again.",
          where='rung: Where does the try go?',
          names='the run goes on',
          replace=r'''
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=r'''
    messages.append(user_message(prompt))
    try:
        while True:
            reply = model.complete(system, messages, tool_specs(tools))
            messages.append(reply)
            calls = tool_calls(reply)
            for call in calls:  # every call, in order, before the model is asked again
                messages.append(run_tool(tools, call))
            if not calls:  # the content decides, not the stop_reason label
                return
    except Exception:
        return  # end the run politely instead of with a traceback


def run_tool(tools, call):
    """Lesson 2's run_tool, with the unknown name answered: the try is around the loop now."""
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        text, failed = tool["execute"](call["arguments"]), False
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
'''),
    Wrong(lab='4.1', name='ending the run on the first failure',
          rule="A failure is one call's result: it does not end the batch or the run, and the model is asked again.",
          where='Build section; CURRICULUM lesson 4',
          names='the run goes on',
          replace=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
          by=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
            if messages[-1]["is_error"]:
                return
'''),
    Wrong(lab='4.1', name='a traceback as the content',
          rule="A failed call's content is str(exc), the exception's own message, not your program's insides.",
          where='rung: What goes into the result?',
          names='str(exc)',
          replace=r'''
        except Exception as exc:
            text, failed = str(exc), True
''',
          by=r'''
        except Exception:
            import traceback
            text, failed = traceback.format_exc(), True
'''),
    Wrong(lab='4.1', name='a fixed word as the content',
          rule="A failed call's content is str(exc): the flag says something went wrong, the words say what.",
          where='rung: What goes into the result?',
          names='str(exc)',
          replace=r'''
        except Exception as exc:
            text, failed = str(exc), True
''',
          by=r'''
        except Exception:
            text, failed = "error", True
'''),
    Wrong(lab='4.1', name='returning an empty string',
          rule="A failed call's content is str(exc): an empty result from a tool means it worked and had nothing to say.",
          where='CURRICULUM lesson 4',
          names='str(exc)',
          replace=r'''
        except Exception as exc:
            text, failed = str(exc), True
''',
          by=r'''
        except Exception:
            text, failed = "", True
'''),
    Wrong(lab='4.1', name='a non-zero exit treated as a tool error',
          rule='A command that ran and failed is news for the model, not a broken tool: its result is ordinary, is_error False, with a status line.',
          where='rung: A command that fails is not a tool that fails',
          names='not a broken tool',
          replace=r'''
        if code != 0:
            output += f"\nCommand exited with code {code}"
''',
          by=r'''
        if code != 0:
            raise RuntimeError(output + f"\nCommand exited with code {code}")
'''),
    Wrong(lab='4.1', name='the exit code thrown away',
          rule='bash passes the exit code on: a command that exits non-zero ends with the line Command exited with code <n>.',
          where='opening prediction',
          names='Command exited with code',
          replace=r'''
        if code != 0:
            output += f"\nCommand exited with code {code}"
''',
          by=''),
    Wrong(lab='4.1', name='unhelpful error text: a missing file named and nothing more',
          rule="read's missing-file error names the path and what is there, so the model can ask again.",
          where='rung: What goes into the result?',
          names='what is there',
          replace=r'''
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
''',
          by='            raise FileNotFoundError(path)'),
    Wrong(lab='4.1', name='unhelpful error text: the bare KeyError for an unknown tool',
          rule='An unknown name is answered with Tool <name> not found, a sentence the model can act on.',
          where='opening prediction; Figure 4.1',
          names='not found',
          replace=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
''',
          by=r'''
    try:
        tool = {t["name"]: t for t in tools}[call["name"]]
        text, failed = tool["execute"](call["arguments"]), False
    except Exception as exc:
        text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='unhelpful error text: arguments taken without str_arg',
          rule='A model that leaves out path, or sends a number, learns path must be a string: each tool takes its arguments with str_arg.',
          where='rung: What goes into the result?',
          names='str_arg',
          replace=r'''
        path = str_arg(arguments, "path")
        if not ws.exists(path):  # say what is there, so the model can ask again
''',
          by=r'''
        path = arguments["path"]
        if not ws.exists(path):  # say what is there, so the model can ask again
'''),
    # nope.txt's own folder is the top one, so the fixed case could not tell these apart.
    Wrong(lab='4.1', name="the missing file's own folder listed",
          rule="read's missing-file error names the path and what is there: the names ws.listdir('.') gives, wherever the missing path points.",
          where='Build section, gap 3',
          names='what is there',
          replace=r'''
            listing = ", ".join(ws.listdir("."))
''',
          by=r'''
            listing = ", ".join(ws.listdir(path.rpartition("/")[0] or "."))
'''),
    Wrong(lab='4.1', name='str_arg taking "" for a missing argument',
          rule='str_arg hands back a string argument as it was sent, "" included.',
          where='lab 4.1, gap 1: "str_arg(arguments, name)"',
          names='the empty string too',
          replace=r'''
    if isinstance(got, str):
        return got
''',
          by=r'''
    if isinstance(got, str) and got:
        return got
'''),
    Wrong(lab='4.1', name='str_arg reading the argument by indexing',
          rule='A missing argument raises ValueError("NAME must be a string"), never a KeyError.',
          where='lab 4.1, gap 1: "str_arg(arguments, name)"',
          names='must be a string',
          replace=r'''
    got = arguments.get(name)  # None when the model left it out
''',
          by=r'''
    got = arguments[name]
'''),
    Wrong(lab='4.1', name='str_arg turning any value into text',
          rule='An argument that holds anything but a string raises ValueError("NAME must be a string").',
          where='lab 4.1, gap 1: "str_arg(arguments, name)"',
          names='must be a string',
          replace=r'''
    if isinstance(got, str):
        return got
''',
          by=r'''
    if got is not None:
        return str(got)
'''),
    Wrong(lab='4.1', name='an unknown tool answered as if it had worked',
          rule='A name that no tool has gets the result "Tool NAME not found", marked is_error True.',
          where='lab 4.1, gap 2: "The boundary, in `run_tool`"',
          names='is_error',
          replace=r'''
        text, failed = f"Tool {call['name']} not found", True
''',
          by=r'''
        text, failed = f"Tool {call['name']} not found", False
'''),
    Wrong(lab='4.1', name='a status line for code 0 too',
          rule="Code 0 adds nothing: only a command that exits with another code gets the status line.",
          where='lab 4.1, gap 4: "bash\'s status line"',
          names='adds nothing',
          replace=r'''
        if code != 0:
            output += f"\nCommand exited with code {code}"
''',
          by=r'''
        output += f"\nCommand exited with code {code}"
'''),
]

# Found by readers holding only the release (source/hunts/round-1.md, lab 4.1), each passing the
# lab's tests before they changed.
_LOOKUP = r'''
    tool = {t["name"]: t for t in tools}.get(call["name"])
'''
WRONG += [
    Wrong(lab='4.1', name='tool names matched whatever their case',
          rule='A name that no tool has gets the result Tool NAME not found: the name as the '
               'model spelt it.',
          where='hunt round 1, design 4.1-1',
          names='exactly as spelt',
          replace=_LOOKUP,
          by=r'''
    tool = {t["name"].lower(): t for t in tools}.get(call["name"].lower())  # forgive the model
'''),
    Wrong(lab='4.1', name='every tool ever handed over remembered',
          rule='A name that no tool has gets the result Tool NAME not found: the tools are the '
               'ones handed to this call.',
          where='hunt round 1, design 4.1-7',
          names='not in any it saw before',
          replace=_LOOKUP,
          by=r'''
    _KNOWN.update({t["name"]: t for t in tools})  # a tool seen once stays callable
    tool = _KNOWN.get(call["name"])
''',
          also=(('def run_tool(tools, call):', '_KNOWN = {}\n\n\ndef run_tool(tools, call):'),)),
    Wrong(lab='4.1', name='a KeyError from a tool read as an unknown tool',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc); only a name that no tool has gets Tool NAME not found.',
          where='hunt round 1, design 4.1-9',
          names='not an unknown name',
          replace=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
''',
          by=r'''
    try:
        tool = {t["name"]: t for t in tools}[call["name"]]
        text, failed = tool["execute"](call["arguments"]), False
    except KeyError:  # no tool by that name
        text, failed = f"Tool {call['name']} not found", True
    except Exception as exc:
        text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='str(exc) stripped',
          rule='A tool whose execute raises an Exception gets a result holding str(exc).',
          where='hunt round 1, design 4.1-2',
          names='whole and unstripped',
          replace=r'''
            text, failed = str(exc), True
''',
          by=r'''
            text, failed = str(exc).strip(), True
'''),
    Wrong(lab='4.1', name='str(exc) cut to eighty characters',
          rule='A tool whose execute raises an Exception gets a result holding str(exc).',
          where='hunt round 1, design 4.1-14',
          names='whole and unstripped',
          replace=r'''
            text, failed = str(exc), True
''',
          by=r'''
            text, failed = str(exc)[:80], True  # one line is enough for the model
'''),
    Wrong(lab='4.1', name='catching Ctrl-C and sys.exit too',
          rule='What the program raises as it ends is not a tool failing: it leaves run_tool as '
               'it came.',
          where='hunt round 1, design 4.1-3',
          names='as it ends',
          replace=r'''
        except Exception as exc:
''',
          by=r'''
        except (Exception, KeyboardInterrupt, SystemExit) as exc:
'''),
    Wrong(lab='4.1', name='a returned text that starts with Error marked an error',
          rule='A tool that returns is answered as in lesson 2, is_error False.',
          where='hunt round 1, design 4.1-4',
          names='start with Error',
          replace=r'''
            text, failed = tool["execute"](call["arguments"]), False
''',
          by=r'''
            text = tool["execute"](call["arguments"])
            failed = text.startswith("Error")  # the tool is telling us it failed
'''),
    Wrong(lab='4.1', name='a line break of its own before the status line',
          rule='Its result is what the command printed, then a newline, then Command exited with '
               'code N.',
          where='hunt round 1, design 4.1-5',
          names='a newline',
          replace=r'''
        if code != 0:
            output += f"\nCommand exited with code {code}"
''',
          by=r'''
        if code != 0:
            if output and not output.endswith("\n"):
                output += "\n"  # the status line on a line of its own, after a blank one
            output += f"\nCommand exited with code {code}"
'''),
    Wrong(lab='4.1', name='a status line for positive codes only',
          rule='A command that exits with a code other than 0 gets the status line.',
          where='hunt round 1, design 4.1-6',
          names='other than 0',
          replace=r'''
        if code != 0:
            output += f"\nCommand exited with code {code}"
''',
          by=r'''
        if code > 0:
            output += f"\nCommand exited with code {code}"
'''),
    Wrong(lab='4.1', name='str_arg stripping the value',
          rule='str_arg hands back the argument called name as it was sent, when that is a '
               'string.',
          where='hunt round 1, design 4.1-10',
          names='as it was sent',
          replace=r'''
        return got
''',
          by=r'''
        return got.strip()  # stray spaces are never meant
'''),
]

# Found by the release-only reader of round 4 (source/hunts/round-4.md, lab 4.1), each passing
# the lab's tests before they changed.
_BOUNDARY = r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
'''
_LISTING = r'''
            listing = ", ".join(ws.listdir("."))
'''
WRONG += [
    Wrong(lab='4.1', name='str_arg taking the argument out of the dict',
          rule='str_arg hands back the argument called name as it was sent; the arguments are '
               'the call\'s, in the record, and stay as they were.',
          where='hunt round 4, design 4.1-6; Build item 1: "as it was sent"',
          names='leaves the dict as it was sent',
          replace=r'''
    got = arguments.get(name)  # None when the model left it out
''',
          by=r'''
    got = arguments.pop(name, None)  # read once, so take it
'''),
    Wrong(lab='4.1', name='catching everything but the endings the lesson names',
          rule='run_tool catches Exception and nothing wider: any other BaseException is the '
               'program ending and leaves run_tool as it came.',
          where='hunt round 4, design 4.1-2; rung: "How wide should the `except` be?"',
          names='nothing wider',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except BaseException as exc:
            if isinstance(exc, (KeyboardInterrupt, SystemExit)) or \
                    type(exc).__name__ == "PowerCut":
                raise  # the three endings the lesson names
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name="a tool's bugs let out of the boundary",
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc).',
          where='hunt round 4, design 4.1-23; Build item 2: "an `Exception` of any kind"',
          names='every kind of it',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except (NameError, AttributeError, AssertionError, ImportError, NotImplementedError,
                SyntaxError):
            raise  # a bug in a tool, not a failure: let the developer see it
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='a failed tool tried once more',
          rule='A tool whose execute raises gets a result holding str(exc): it runs once per '
               'call, and its failure is news for the model.',
          where='hunt round 4, design 4.1-32',
          names='once per call',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception:
            try:  # one retry: many failures are flaky
                text, failed = tool["execute"](call["arguments"]), False
            except Exception as exc:
                text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='write catching its own failure',
          rule='Tools report failure by raising; run_tool is the one place a raise becomes a '
               'result, with is_error True.',
          where='hunt round 4, design 4.1-1; rung: "Where does the `try` go?"',
          names='one place a raise becomes a result',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        try:
            ws.write_text(path, content)
        except Exception as exc:  # never crash the loop
            return f"Error: could not write {path}: {exc}"
'''),
    Wrong(lab='4.1', name="bash catching the shell's failure",
          rule='Tools report failure by raising; run_tool is the one place a raise becomes a '
               'result, with is_error True.',
          where='hunt round 4, design 4.1-20; rung: "Where does the `try` go?"',
          names='one place a raise becomes a result',
          replace=r'''
        output, code = shell.run(str_arg(arguments, "command"))
''',
          by=r'''
        command = str_arg(arguments, "command")
        try:
            output, code = shell.run(command)
        except Exception as exc:
            return f"bash: {exc}"
'''),
    Wrong(lab='4.1', name='arguments checked in each tool with TypeError',
          rule='read takes path through str_arg, write takes path and content through it, and '
               'bash takes command: a bad one raises str_arg\'s ValueError.',
          where='hunt round 4, design 4.1-35; Build item 1: "write takes `path` and `content` '
                'through it"',
          names='through str_arg',
          replace=r'''
        path = str_arg(arguments, "path")
''',
          by=r'''
        path = arguments.get("path")
        if not isinstance(path, str):
            raise TypeError("path must be a string")
''',
          also=((r'''        path, content = str_arg(arguments, "path"), str_arg(arguments, "content")''',
                 r'''        path, content = arguments.get("path"), arguments.get("content")
        for key, value in (("path", path), ("content", content)):
            if not isinstance(value, str):
                raise TypeError(f"{key} must be a string")'''),
                (r'''        output, code = shell.run(str_arg(arguments, "command"))''',
                 r'''        command = arguments.get("command")
        if not isinstance(command, str):
            raise TypeError("command must be a string")
        output, code = shell.run(command)'''))),
    Wrong(lab='4.1', name='a name table kept for each tools list',
          rule='A name that no tool has gets Tool NAME not found: run_tool looks in the tools it '
               'is handed for this call, as they are now.',
          where='hunt round 4, design 4.1-8',
          names='as they are now',
          replace=_LOOKUP,
          by=r'''
    if id(tools) not in _TABLES:  # build the table once per list; keep the list alive
        _TABLES[id(tools)] = (tools, {t["name"]: t for t in tools})
    tool = _TABLES[id(tools)][1].get(call["name"])
''',
          also=(('def run_tool(tools, call):', '_TABLES = {}\n\n\ndef run_tool(tools, call):'),)),
    Wrong(lab='4.1', name='a name turned off after ten failures',
          rule='A tool whose execute raises gets a result holding str(exc), every time it is '
               'called: run_tool keeps no count of failures across calls.',
          where='hunt round 4, design 4.1-29',
          names='nor stops calling it',
          replace=r'''
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
''',
          by=r'''
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    elif _FAILS.get(call["name"], 0) >= 10:  # a circuit breaker
        text, failed = f"Tool {call['name']} disabled after repeated failures", True
    else:
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            _FAILS[call["name"]] = _FAILS.get(call["name"], 0) + 1
            text, failed = str(exc), True
''',
          also=(('def run_tool(tools, call):', '_FAILS = {}\n\n\ndef run_tool(tools, call):'),)),
    Wrong(lab='4.1', name='read stripping the path',
          rule='read looks for the path as it was sent, and a missing one is named as it was '
               'sent.',
          where='hunt round 4, design 4.1-7; Build item 1: "as it was sent"',
          names='as it was sent',
          replace=r'''
        path = str_arg(arguments, "path")
''',
          by=r'''
        path = str_arg(arguments, "path").strip()  # the model's stray spaces
'''),
    Wrong(lab='4.1', name='write turning CRLF into LF',
          rule='str_arg hands back the argument as it was sent, and write stores the content '
               'it took through str_arg.',
          where='hunt round 4, design 4.1-25; Build item 1: "as it was sent"',
          names='as it was sent',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        ws.write_text(path, content.replace("\r\n", "\n"))  # one kind of line ending
'''),
    Wrong(lab='4.1', name='a tool lookup that forgives spaces and dashes',
          rule='A name that no tool has gets Tool NAME not found: the name exactly as the model '
               'spelt it.',
          where='hunt round 4, design 4.1-26',
          names='exactly as spelt',
          replace=_LOOKUP,
          by=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"].strip().replace("-", "_"))
'''),
    Wrong(lab='4.1', name='the ending re-raised as a copy',
          rule='What the program raises as it ends leaves run_tool as it came: the same '
               'exception, not a result and not a copy.',
          where='hunt round 4, design 4.1-22; Build item 2: "as it came"',
          names='not a copy',
          replace=r'''
        except Exception as exc:
            text, failed = str(exc), True
''',
          by=r'''
        except Exception as exc:
            text, failed = str(exc), True
        except BaseException as exc:  # the program is ending: pass it on, tidily
            raise type(exc)(*exc.args) from None
'''),
    Wrong(lab='4.1', name='an empty project said as (none)',
          rule='NAMES are what ws.listdir(".") gives, joined by a comma and a space.',
          where='hunt round 4, design 4.1-30; Build item 3: "joined by a comma and a space"',
          names='nothing for an empty project',
          replace=_LISTING,
          by=r'''
            listing = ", ".join(ws.listdir(".")) or "(none)"
'''),
    Wrong(lab='4.1', name='the listing cut after eight names',
          rule='NAMES are what ws.listdir(".") gives, joined by a comma and a space.',
          where='hunt round 4, design 4.1-31; Build item 3: "joined by a comma and a space"',
          names='however many there are',
          replace=_LISTING,
          by=r'''
            names = ws.listdir(".")
            listing = ", ".join(names[:8]) + (f", ... ({len(names) - 8} more)"
                                              if len(names) > 8 else "")
'''),
    Wrong(lab='4.1', name='write and bash refusing ""',
          rule='str_arg hands back a string argument as it was sent, "" included, and write and '
               'bash use what it hands back.',
          where='hunt round 4, design 4.1-36; Build item 1',
          names='empties the file',
          replace=r'''
        ws.write_text(path, content)
''',
          by=r'''
        if content == "":
            raise ValueError("content must not be empty")
        ws.write_text(path, content)
''',
          also=((r'''        output, code = shell.run(str_arg(arguments, "command"))''',
                 r'''        command = str_arg(arguments, "command")
        if command == "":
            raise ValueError("command must not be empty")
        output, code = shell.run(command)'''),)),
]

# Found by the release-only reader of round 9 (source/hunts/round-9.md, lab 4.1, reader r36),
# each passing the lab's tests before they changed.
_READ = r'''
        if not ws.exists(path):  # say what is there, so the model can ask again
'''
_STATUS = r'''
        if code != 0:
'''
_BATCH = r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
'''
WRONG += [
    Wrong(lab='4.1', name='str(exc) cut to five hundred characters',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), however long.',
          where='hunt round 9, design 4.1-1; Build item 2: "of any kind"',
          names='no message is cut',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text = str(exc) if len(str(exc)) <= 500 else str(exc)[:500] + "..."  # spare the context
            failed = True
'''),
    Wrong(lab='4.1', name='the listing cut after twenty names',
          rule='NAMES are what ws.listdir(".") gives, joined by a comma and a space.',
          where='hunt round 9, design 4.1-2; Build item 3: "joined by a comma and a space"',
          names='however many there are',
          replace=_LISTING,
          by=r'''
            here = ws.listdir(".")
            listing = ", ".join(here[:20]) + (f" (and {len(here) - 20} more)"
                                              if len(here) > 20 else "")
'''),
    Wrong(lab='4.1', name='a folder read as a missing file',
          rule="ws.exists says whether anything is at a path; a folder's path is read as the "
               "workspace reads it, and what that raises is the call's result.",
          where="hunt round 9, design 4.1-3; Build item 3: \"a folder's path is read as the "
                "workspace reads it\"",
          names='read of a folder',
          replace=_READ,
          by=r'''
        if path not in ws.files:  # files only: a folder is no file
'''),
    Wrong(lab='4.1', name='read catching what the workspace raises',
          rule='Tools report failure by raising; run_tool is the one place a raise becomes a '
               "result, so a folder's read fails as the workspace fails it.",
          where="hunt round 9, design 4.1-4; Build item 3: \"what that raises is the call's "
                "result\"",
          names='read catches nothing of its own',
          replace=r'''
        return ws.read_text(path)

    return {
        "name": "read",
''',
          by=r'''
        try:
            return ws.read_text(path)
        except Exception as exc:
            return f"Error: {exc}"

    return {
        "name": "read",
'''),
    Wrong(lab='4.1', name='a TimeoutError told in words of its own',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): no special case for any exception type.',
          where='hunt round 9, design 4.1-5; "no special case for any exception type"',
          names='no kind is a special case',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except TimeoutError as exc:
            text, failed = f"Tool {call['name']} timed out: {exc}", True
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='an AssertionError let out as a bug of the harness',
          rule='Every call ends in exactly one result, whatever its tool does, so run_tool '
               'raises no Exception.',
          where='hunt round 9, design 4.1-6; Build item 2: "raises no"',
          names='every kind of exception',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except AssertionError:
            raise  # a failed assert is a bug to see, not news for the model
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='a cancelled tool made a result',
          rule='The boundary is except Exception, and nothing wider: asyncio.CancelledError is '
               'not a tool failing.',
          where='hunt round 9, design 4.1-7; "and nothing wider"',
          names='GeneratorExit and asyncio.CancelledError',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except (Exception, asyncio.CancelledError) as exc:  # a cancelled tool is a failed one
            text, failed = str(exc), True
''',
          also=(('def run_tool(tools, call):', 'import asyncio\n\n\ndef run_tool(tools, call):'),)),
    Wrong(lab='4.1', name='GeneratorExit made a result',
          rule='The boundary is except Exception, and nothing wider: GeneratorExit is not a '
               'tool failing.',
          where='hunt round 9, design 4.1-8; "and nothing wider"',
          names='GeneratorExit and asyncio.CancelledError',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except (Exception, GeneratorExit) as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='the run given up after three rounds of errors',
          rule='An error result is a result like any other: the run goes on, with no code that '
               'decides whether a run should go on after a failure.',
          where='hunt round 9, design 4.1-10; "no code that decides whether a run should go on '
                'after a failure"',
          names='rounds in a row whose every call fails',
          replace=_BATCH + r'''        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=_BATCH + r'''        if not calls:  # the content decides, not the stop_reason label
            return
        flailing = all(result["is_error"] for result in messages[-len(calls):])
        bad_rounds = bad_rounds + 1 if flailing else 0
        if bad_rounds == 3:  # three rounds of nothing but errors: stop the model flailing
            return
''',
          also=(('    messages.append(user_message(prompt))\n    while True:',
                 '    messages.append(user_message(prompt))\n    bad_rounds = 0\n    while True:'),)),
    Wrong(lab='4.1', name="the batch's results taken back at a power cut",
          rule='What the program raises as it ends leaves run_agent with the record as it '
               'stood: the results already appended stay.',
          where='hunt round 9, design 4.1-11; Build item 2: "the record as it stood"',
          names='whatever was appended stays appended',
          replace=_BATCH,
          by=r'''
        start = len(messages)
        try:
            for call in calls:  # every call, in order, before the model is asked again
                messages.append(run_tool(tools, call))
        except BaseException:
            del messages[start:]  # leave a clean U A[...]
            raise
'''),
    Wrong(lab='4.1', name='results made for the calls a power cut skipped',
          rule='What the program raises as it ends leaves run_agent with no result made for it '
               'and the record as it stood.',
          where='hunt round 9, design 4.1-12; Build item 2: "with no result made for it"',
          names='nothing is made for the cut call',
          replace=_BATCH,
          by=r'''
        for n, call in enumerate(calls):  # every call, in order, before the model is asked again
            try:
                messages.append(run_tool(tools, call))
            except BaseException:
                for later in calls[n + 1:]:  # every call answered, even now
                    messages.append({"role": "toolResult", "tool_call_id": later["id"],
                                     "tool_name": later["name"],
                                     "content": "Skipped: the program is ending", "is_error": True})
                raise
'''),
    Wrong(lab='4.1', name='the listing taken when read is made',
          rule='NAMES are what ws.listdir(".") gives when a path with nothing at it is read.',
          where='hunt round 9, design 4.1-13; Build item 3: "so that the model learns what it '
                'could have asked for"',
          names='the names are the ones there at the read',
          replace=r'''
    def execute(arguments):
        path = str_arg(arguments, "path")
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
''',
          by=r'''
    listing = ", ".join(ws.listdir("."))  # once, when the tool is made

    def execute(arguments):
        path = str_arg(arguments, "path")
        if not ws.exists(path):  # say what is there, so the model can ask again
'''),
    Wrong(lab='4.1', name='bash checking its command with a copy of the rule',
          rule='write takes path and content through str_arg, and bash takes command.',
          where='hunt round 9, design 4.1-14; Build item 1: "bash takes `command`"',
          names='bash takes command through str_arg',
          replace=r'''
        output, code = shell.run(str_arg(arguments, "command"))
''',
          by=r'''
        command = arguments.get("command")
        if type(command) is not str:  # the same words as str_arg's
            raise ValueError("command must be a string")
        output, code = shell.run(command)
'''),
    Wrong(lab='4.1', name='no listing for a path outside the project',
          rule='A path with nothing at it raises FileNotFoundError with the text File not '
               'found: PATH. Files here: NAMES, NAMES what ws.listdir(".") gives.',
          where='hunt round 9, design 4.1-18; Build item 3: "Files here: NAMES"',
          names="a path outside the project lists the project's names",
          replace=_LISTING,
          by=r'''
            listing = "" if path.startswith("/") else ", ".join(ws.listdir("."))
'''),
    Wrong(lab='4.1', name='an OSError with no message told by its class name',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): no special case for any exception type.',
          where='hunt round 9, design 4.1-19; "no special case for any exception type"',
          names='no kind is a special case',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text = str(exc) or (type(exc).__name__ if isinstance(exc, OSError) else "")
            failed = True
'''),
    Wrong(lab='4.1', name='exit code 141 taken for success',
          rule='A command that exits with a code other than 0 gets the status line; code 0 '
               'adds nothing.',
          where='hunt round 9, design 4.1-20; Build item 4: "Code 0 adds nothing"',
          names='so is 141',
          replace=_STATUS,
          by=r'''
        if code not in (0, 141):  # 141 is a pipe closed early, as by | head: harmless
'''),
    Wrong(lab='4.1', name='one status line only',
          rule='The result is what the command printed, then a newline, then Command exited '
               'with code N, whenever the code is other than 0.',
          where='hunt round 9, design 4.1-21; Build item 4: "then a newline, then"',
          names="gets this command's own",
          replace=_STATUS,
          by=r'''
        if code != 0 and "Command exited with code" not in output.rsplit("\n", 2)[-1]:
'''),
    Wrong(lab='4.1', name='str_arg decoding bytes',
          rule='When the argument holds anything but a string, str_arg raises ValueError with '
               'the text NAME must be a string.',
          where='hunt round 9, design 4.1-22; Build item 1: "holds anything but a string"',
          names='bytes are not a string',
          replace=r'''
    got = arguments.get(name)  # None when the model left it out
''',
          by=r'''
    got = arguments.get(name)  # None when the model left it out
    if isinstance(got, bytes):  # an adapter may hand over bytes
        got = got.decode()
'''),
    Wrong(lab='4.1', name='later calls of a failed tool skipped in the batch',
          rule='A failed call is answered and the run goes on, later calls of the same batch '
               'included.',
          where='hunt round 9, design 4.1-26; Build item 2: "later calls of the same batch '
                'included"',
          names='the second call runs all the same',
          replace=_BATCH,
          by=r'''
        failed_names = set()
        for call in calls:  # every call, in order, before the model is asked again
            if call["name"] in failed_names:  # it failed once this batch: do not run it again
                messages.append({"role": "toolResult", "tool_call_id": call["id"],
                                 "tool_name": call["name"], "is_error": True,
                                 "content": f"Skipped: {call['name']} failed earlier in this batch"})
                continue
            result = run_tool(tools, call)
            if result["is_error"]:
                failed_names.add(call["name"])
            messages.append(result)
'''),
    Wrong(lab='4.1', name='dotfiles left out of the listing',
          rule='NAMES are what ws.listdir(".") gives, joined by a comma and a space.',
          where='hunt round 9, design 4.1-27; Build item 3: "joined by a comma and a space"',
          names='names that start with a dot too',
          replace=_LISTING,
          by=r'''
            listing = ", ".join(n for n in ws.listdir(".") if not n.startswith("."))
'''),
    Wrong(lab='4.1', name='a case twin read in place of the missing file',
          rule='A path with nothing at it raises FileNotFoundError naming what is there, so '
               'that the model learns what it could have asked for.',
          where='hunt round 9, design 4.1-28; Build item 3: "so that the model learns what it '
                'could have asked for"',
          names='read never picks a name for the model',
          replace=_READ,
          by=r'''
        twins = [n for n in ws.listdir(".") if n.lower() == path.lower()]
        if not ws.exists(path) and len(twins) == 1:  # README.md asked, readme.md there
            return ws.read_text(twins[0])
        if not ws.exists(path):  # say what is there, so the model can ask again
'''),
    Wrong(lab='4.1', name='read of "" said as a missing file',
          rule="ws.exists says whether anything is at a path; \"\" is the project's own folder, "
               "read as the workspace reads it.",
          where="hunt round 9, probe 4.1-95; Build item 3: \"a folder's path is read as the "
                "workspace reads it\"",
          names='for src and for ""',
          replace=_READ,
          by=r'''
        if path == "" or not ws.exists(path):  # "" names no file
'''),
]


_EXCEPT = r'''
        except Exception as exc:
            text, failed = str(exc), True
'''
_NOT_FOUND = r'''
        text, failed = f"Tool {call['name']} not found", True
'''
WRONG += [
    Wrong(lab='4.1', name='str(exc) cut to four thousand characters',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), however long.',
          where='hunt round 10, design 4.1-1 (r47); Build item 2: "of any kind gets a result '
                'holding `str(exc)`"',
          names='no message is cut',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text, failed = str(exc), True
            if len(text) > 4000:  # spare the context
                text = text[:4000] + "..."
'''),
    Wrong(lab='4.1', name='the listing cut after forty names',
          rule='NAMES are every name ws.listdir(".") gives, however many, joined by a comma and a space.',
          where='hunt round 10, design 4.1-2 (r47); Build item 3: "NAMES are every name", "gives, however many"',
          names='however many there are',
          replace=_LISTING,
          by=r'''
            here = ws.listdir(".")
            listing = ", ".join(here[:40] + (["..."] if len(here) > 40 else []))
'''),
    Wrong(lab='4.1', name='a name turned off after fifteen failures in a row',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), every time it is called: run_tool neither tries it again nor stops '
               'calling it.',
          where='hunt round 10, design 4.1-3 (r47); Build item 2',
          names='nor stops calling it',
          replace=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
''',
          by=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    elif _fails.get(call["name"], 0) >= 15:  # a circuit breaker
        text, failed = f"Tool {call['name']} disabled after repeated failures", True
    else:
''',
          also=((_EXCEPT, r'''
        except Exception as exc:
            _fails[call["name"]] = _fails.get(call["name"], 0) + 1
            text, failed = str(exc), True
        else:
            _fails[call["name"]] = 0
'''), ('def run_tool(tools, call):', '_fails = {}\n\n\ndef run_tool(tools, call):'))),
    Wrong(lab='4.1', name="a KeyError naming the call's own tool read as an unknown tool",
          rule='A name that no tool has gets the result Tool NAME not found; a tool that is '
               'there and raises KeyError gets str(exc), whatever its key.',
          where='hunt round 10, design 4.1-4 (r47); Build item 2',
          names="a KeyError naming the tool's own name",
          replace=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
''',
          by=r'''
    try:  # lesson 2's lookup and call in one line, inside the boundary
        text, failed = {t["name"]: t for t in tools}[call["name"]]["execute"](
            call["arguments"]), False
    except KeyError as exc:
        if exc.args == (call["name"],):
            text, failed = f"Tool {call['name']} not found", True
        else:
            text, failed = str(exc), True
    except Exception as exc:
        text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='tool names matched after NFKC',
          rule='A name that no tool has gets the result Tool NAME not found: the name as the '
               'model spelt it.',
          where='hunt round 10, design 4.1-5 (r47); Build item 2',
          names='fullwidth letters are other letters',
          replace=_LOOKUP,
          by=r'''
    tool = {unicodedata.normalize("NFKC", t["name"]): t for t in tools}.get(
        unicodedata.normalize("NFKC", call["name"]))
''',
          also=(('def run_tool(tools, call):',
                 'import unicodedata\n\n\ndef run_tool(tools, call):'),)),
    Wrong(lab='4.1', name='MemoryError and RecursionError let out',
          rule='Every call ends in exactly one result, whatever its tool does, so run_tool '
               'raises no Exception; a tool whose execute raises an Exception of any kind gets '
               'a result holding str(exc).',
          where='hunt round 10, design 4.1-6 (r47); Build item 2: "raises no `Exception`"',
          names='a RecursionError',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except (MemoryError, RecursionError):  # the process is in trouble, not the tool
            raise
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name="read catching the workspace's FileNotFoundError",
          rule='ws.exists says whether anything is at a path; what ws.read_text raises for a '
               "path that is there is the call's result, as raised.",
          where='hunt round 10, design 4.1-8 (r47); Build item 3: "`ws.exists` says whether '
                'anything is at a path"',
          names='read catches nothing of its own',
          replace=r'''
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
        return ws.read_text(path)
''',
          by=r'''
        try:
            return ws.read_text(path)
        except FileNotFoundError:
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}") from None
'''),
    Wrong(lab='4.1', name="an unknown tool's arguments cleared in the record",
          rule="messages is the caller's list and the record: a call stays in it as the model "
               'made it, and an unknown name gets the result Tool NAME not found.',
          where='hunt round 10, design 4.1-9 (r47); Build item 2; lesson 3, run_agent',
          names='its arguments untouched',
          replace=_NOT_FOUND,
          by=r'''
        text, failed = f"Tool {call['name']} not found", True
        call["arguments"].clear()  # nothing of a call that cannot run
'''),
    Wrong(lab='4.1', name='no status line for codes past 255',
          rule='A command that exits with a code other than 0: its result is what it printed, '
               'then a newline, then Command exited with code N.',
          where='hunt round 10, design 4.1-10 (r47); Build item 4: "a code other than 0"',
          names='a code past 255',
          replace=_STATUS,
          by=r'''
        if code != 0 and code <= 255:  # a real exit status is a byte
'''),
    Wrong(lab='4.1', name="write's path turned into text",
          rule='write takes path and content through str_arg, which raises ValueError for '
               'anything but a string.',
          where='hunt round 10, design 4.1-12 (r47); Build item 1: "write takes `path` and '
                '`content` through it"',
          names='a number is no path',
          replace=r'''
        path, content = str_arg(arguments, "path"), str_arg(arguments, "content")
''',
          by=r'''
        content = str_arg(arguments, "content")
        path = arguments.get("path")
        if path is None or isinstance(path, (list, dict, bool)):
            path = str_arg(arguments, "path")
        path = str(path)  # a number names a file as well as a string does
'''),
    Wrong(lab='4.1', name="a file found by walking the listing",
          rule='ws.exists says whether anything is at a path; a path with nothing at it raises '
               'FileNotFoundError.',
          where='hunt round 10, design 4.1-14 (r47); Build item 3',
          names='ws.exists says whether anything is at a path',
          replace=_READ,
          by=r'''
        def walk(folder):
            for name in ws.listdir(folder):
                full = name if folder == "." else f"{folder}/{name}"
                yield full
                if ws.isdir(full):
                    yield from walk(full)
        if path != "" and path not in set(walk(".")):
'''),
    Wrong(lab='4.1', name='a bare Exception told by its class name',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): no special case for any exception type.',
          where='hunt round 10, design 4.1-15 (r47); Build item 2',
          names='a bare Exception()',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text = str(exc) or (type(exc).__name__ if type(exc) is Exception else "")
            failed = True
'''),
    Wrong(lab='4.1', name='a blank line before the status line of long output',
          rule='The result is what the command printed, then a newline, then Command exited '
               'with code N.',
          where='hunt round 10, design 4.1-16 (r47); Build item 4: "then a newline"',
          names='output of any length',
          replace=r'''
            output += f"\nCommand exited with code {code}"
''',
          by=r'''
            output += ("\n\n" if len(output) > 2000 else "\n") + f"Command exited with code {code}"
'''),
    Wrong(lab='4.1', name='a long unknown name cut in its message',
          rule='A name that no tool has gets the result Tool NAME not found, the call\'s name '
               'in place of NAME.',
          where='hunt round 10, design 4.1-17 (r47); Build item 2',
          names='a long name is said whole',
          replace=_NOT_FOUND,
          by=r'''
        shown = call["name"] if len(call["name"]) <= 40 else call["name"][:40] + "..."
        text, failed = f"Tool {shown} not found", True
'''),
    Wrong(lab='4.1', name='str_arg taking a key that differs by case',
          rule='str_arg hands back the argument called name; when it is missing it raises '
               'ValueError("NAME must be a string").',
          where='hunt round 10, design 4.1-19 (r47); Build item 1: "When the argument is '
                'missing"',
          names='only like the name',
          replace=r'''
    got = arguments.get(name)  # None when the model left it out
''',
          by=r'''
    got = arguments.get(name)  # None when the model left it out
    if name not in arguments:  # the model's Path for path
        got = next((value for key, value in arguments.items()
                    if isinstance(key, str) and key.strip().lower() == name.lower()), None)
'''),
    Wrong(lab='4.1', name='an empty tools list said in words of its own',
          rule='A name that no tool has gets the result Tool NAME not found.',
          where='hunt round 10, design 4.1-20 (r47); Build item 2',
          names='with no tools at all the words are the same',
          replace=_NOT_FOUND,
          by=r'''
        text = f"Tool {call['name']} not found" if tools else "No tools are available"
        failed = True
'''),
    Wrong(lab='4.1', name='an OSError that says try again tried once more',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): run_tool neither tries it again nor stops calling it.',
          where='hunt round 10, design 4.1-21 (r47); Build item 2',
          names='neither tries it again',
          replace=_EXCEPT,
          by=r'''
        except OSError as exc:
            if exc.errno in (4, 11):  # EINTR, EAGAIN: worth one more try
                try:
                    text, failed = tool["execute"](call["arguments"]), False
                except Exception as again:
                    text, failed = str(again), True
            else:
                text, failed = str(exc), True
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='the ending re-raised without its traceback',
          rule='What the program raises as it ends leaves run_tool and run_agent as it came: '
               'the same object, with its traceback.',
          where='hunt round 10, design 4.1-23 (r47); Build item 2: "it leaves `run_tool` and '
                '`run_agent` as it came"',
          names="still reaches the tool's line",
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text, failed = str(exc), True
        except BaseException as ending:  # the tool's frames are no business of the caller
            raise ending.with_traceback(None)
'''),
    Wrong(lab='4.1', name='an ExceptionGroup told by its first exception',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): no special case for any exception type.',
          where='hunt round 10, design 4.1-24 (r47); Build item 2',
          names='an ExceptionGroup',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text, failed = str(exc), True
            if isinstance(exc, ExceptionGroup) and exc.exceptions:
                text = str(exc.exceptions[0])
'''),
    Wrong(lab='4.1', name='a raised Warning taken for no error',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), marked is_error True.',
          where='hunt round 10, design 4.1-25 (r47); Build item 2: "Both are marked '
                '`is_error` True"',
          names='a Warning',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text, failed = str(exc), not isinstance(exc, Warning)  # a warning is no failure
'''),
]

# Round 13 (reader r63, source/hunts/round-13.md): each design below passed lab 4.1's tests
# before the round's cases were added.
_WRITE_ARGS = r'''
        path, content = str_arg(arguments, "path"), str_arg(arguments, "content")
'''
_RUN_TOOL = r'''
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
'''
WRONG += [
    Wrong(lab='4.1', name='str(exc) cut to fifty thousand characters',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), whole, however long.',
          where='hunt round 13, design 4.1-01 (r63); Build item 2: "`str(exc)`, whole, however '
                'long"',
          names='cuts nothing, however long',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text, failed = str(exc), True
            if len(text) > 50_000:  # spare the model a wall of text
                text = text[:50_000] + " [cut]"
'''),
    Wrong(lab='4.1', name='a ConnectionError tried once more',
          rule='run_tool neither tries a call again nor stops calling a tool that keeps '
               'failing: a ConnectionError is an Exception like any other, run once and told.',
          where='hunt round 13, design 4.1-30 (r63); Build item 2: "`run_tool` neither tries a '
                'call again nor stops calling a tool that keeps failing"',
          names='a ConnectionError',
          replace=_BOUNDARY,
          by=r'''
        try:
            try:
                text, failed = tool["execute"](call["arguments"]), False
            except ConnectionError:  # the network blinked: one more try
                text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='a returned text cut at a million characters',
          rule='A tool that returns is answered as in lesson 2: with what it returned, whole, '
               'however long.',
          where='hunt round 13, design 4.1-32 (r63); Build item 2: "A tool that returns is '
                'answered as in lesson 2"',
          names='cuts nothing, however long',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
            if isinstance(text, str) and len(text) > 1_000_000:  # no result needs more
                text = text[:1_000_000]
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name="str(exc)'s line breaks at its end taken off",
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), whole: a line break at its end is part of it.',
          where='hunt round 13, design 4.1-19 (r63); Build item 2: "`str(exc)`, whole, however '
                'long"',
          names='whole and unstripped',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text, failed = str(exc).rstrip("\n"), True  # no trailing blank line for the model
'''),
    Wrong(lab='4.1', name='an empty name said in words of its own',
          rule='A name that no tool has gets the result Tool NAME not found, "" as much as any '
               'other.',
          where='hunt round 13, design 4.1-06 (r63); Build item 2: "A name that no tool has gets '
                'the result `Tool NAME not found`"',
          names='is said whole in NAME',
          replace=_NOT_FOUND,
          by=r'''
        text, failed = (f"Tool {call['name']} not found" if call["name"]
                        else "Tool call has no name"), True
'''),
    Wrong(lab='4.1', name='an unknown name cut after a hundred characters',
          rule='A name that no tool has gets the result Tool NAME not found, the call\'s name '
               'whole in NAME\'s place, however long.',
          where='hunt round 13, design 4.1-07 (r63); Build item 2: "A name that no tool has gets '
                'the result `Tool NAME not found`"',
          names='is said whole in NAME',
          replace=_NOT_FOUND,
          by=r'''
        name = call["name"] if len(call["name"]) <= 100 else call["name"][:100] + "..."
        text, failed = f"Tool {name} not found", True
'''),
    Wrong(lab='4.1', name="line breaks and tabs in an unknown name made spaces",
          rule='A name that no tool has gets the result Tool NAME not found, the call\'s name '
               'as it was sent in NAME\'s place.',
          where='hunt round 13, design 4.1-33 (r63); Build item 2: "A name that no tool has gets '
                'the result `Tool NAME not found`"',
          names='is said whole in NAME',
          replace=_NOT_FOUND,
          by=r'''
        name = " ".join(call["name"].replace("\t", " ").split("\n"))  # one line for the model
        text, failed = f"Tool {name} not found", True
'''),
    Wrong(lab='4.1', name='str_arg writing a missing argument into the call',
          rule='str_arg reads the argument and leaves the call\'s arguments as the model sent '
               'them: nothing is added for a missing one.',
          where='hunt round 13, design 4.1-10 (r63); Build item 1: "It hands back the argument '
                'called `name` as it was sent"',
          names='nothing added to it',
          replace=r'''
    got = arguments.get(name)  # None when the model left it out
''',
          by=r'''
    got = arguments.setdefault(name, None)  # None when the model left it out
'''),
    Wrong(lab='4.1', name='the run given up after eight rounds of errors',
          rule='An error result is a result like any other: the run goes on, with no code that '
               'decides whether a run should go on after a failure.',
          where='hunt round 13, design 4.1-12 (r63); Build item 2: "the run goes on"',
          names='rounds in a row whose every call fails',
          replace=_BATCH + r'''        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=_BATCH + r'''        if not calls:  # the content decides, not the stop_reason label
            return
        flailing = all(result["is_error"] for result in messages[-len(calls):])
        bad_rounds = bad_rounds + 1 if flailing else 0
        if bad_rounds == 8:  # eight rounds of nothing but errors: stop paying for it
            return
''',
          also=(('    messages.append(user_message(prompt))\n    while True:',
                 '    messages.append(user_message(prompt))\n    bad_rounds = 0\n    while True:'),)),
    Wrong(lab='4.1', name='write decoding bytes content',
          rule='str_arg raises ValueError for an argument that holds anything but a string, and '
               'write takes content through it: bytes are refused.',
          where='hunt round 13, design 4.1-16 (r63); Build item 1: "write takes `path` and '
                '`content` through it"',
          names='content that is bytes',
          replace=_WRITE_ARGS,
          by=r'''
        path = str_arg(arguments, "path")
        raw = arguments.get("content")
        content = raw.decode() if isinstance(raw, bytes) else str_arg(arguments, "content")
'''),
    Wrong(lab='4.1', name='write taking content None as empty',
          rule='str_arg raises ValueError for an argument that holds anything but a string, and '
               'write takes content through it: None is refused.',
          where='hunt round 13, design 4.1-35 (r63); Build item 1: "write takes `path` and '
                '`content` through it"',
          names='None or missing',
          replace=_WRITE_ARGS,
          by=r'''
        path = str_arg(arguments, "path")
        content = "" if arguments.get("content", 0) is None else str_arg(arguments, "content")
'''),
    Wrong(lab='4.1', name='write taking missing content as empty',
          rule='str_arg raises ValueError for an argument that is missing, and write takes '
               'content through it: a write with no content is refused.',
          where='hunt round 13, design 4.1-37 (r63); Build item 1: "When the argument is '
                'missing, or holds anything but a string, it raises `ValueError`"',
          names='None or missing',
          replace=_WRITE_ARGS,
          by=r'''
        path = str_arg(arguments, "path")
        content = str_arg(arguments, "content") if "content" in arguments else ""  # an empty file
'''),
    Wrong(lab='4.1', name='bash taking a list of commands',
          rule='str_arg raises ValueError for an argument that holds anything but a string, and '
               'bash takes command through it: a list is refused.',
          where='hunt round 13, design 4.1-17 (r63); Build item 1: "bash takes `command`"',
          names='list of commands',
          replace=r'''
        output, code = shell.run(str_arg(arguments, "command"))
''',
          by=r'''
        raw = arguments.get("command")
        if isinstance(raw, list) and raw and all(isinstance(part, str) for part in raw):
            command = " && ".join(raw)  # the model sent its steps one by one
        else:
            command = str_arg(arguments, "command")
        output, code = shell.run(command)
'''),
    Wrong(lab='4.1', name='read checking its path on its own, path objects taken',
          rule='read takes its path through str_arg, whose rule is kept in one place: a path '
               'object is not a string and is refused.',
          where='hunt round 13, design 4.1-38 (r63); Build item 3: "read takes its path through '
                '`str_arg`"',
          names='path object',
          replace=r'''
        path = str_arg(arguments, "path")
        if not ws.exists(path):  # say what is there, so the model can ask again
''',
          by=r'''
        path = arguments.get("path")
        if not isinstance(path, (str, os.PathLike)):  # a pathlib path is a path too
            raise ValueError("path must be a string")
        if not ws.exists(path):  # say what is there, so the model can ask again
''',
          also=(('def make_read_tool(ws):', 'import os\n\n\ndef make_read_tool(ws):'),)),
    Wrong(lab='4.1', name='the listing cut after a hundred names',
          rule='NAMES are every name ws.listdir(".") gives, however many.',
          where='hunt round 13, design 4.1-04 (r63); Build item 3: "NAMES are every name '
                '`ws.listdir(".")` gives, however many"',
          names='however many there are',
          replace=_LISTING,
          by=r'''
            names = ws.listdir(".")
            listing = ", ".join(names[:100])
            if len(names) > 100:  # a big folder: say how many more, not which
                listing += f", ... and {len(names) - 100} more"
'''),
    Wrong(lab='4.1', name='the listing sorted whatever the case',
          rule='NAMES are every name ws.listdir(".") gives, as it gives them, joined by a comma '
               'and a space: no order of read\'s own.',
          where='hunt round 13, design 4.1-15 (r63), caught by the public draw only; Build '
                'item 3: "NAMES are every name `ws.listdir(".")` gives, however many"',
          names='in the order it gives them',
          replace=_LISTING,
          by=r'''
            listing = ", ".join(sorted(ws.listdir("."), key=str.casefold))  # as a person sorts
'''),
    Wrong(lab='4.1', name='__pycache__, .git and node_modules left out of the listing',
          rule='NAMES are every name ws.listdir(".") gives, folders of tools\' leavings too.',
          where='hunt round 13, design 4.1-36 (r63); Build item 3: "NAMES are every name '
                '`ws.listdir(".")` gives, however many"',
          names='however many there are',
          replace=_LISTING,
          by=r'''
            listing = ", ".join(name for name in ws.listdir(".")  # no one asks for these
                                if name not in ("__pycache__", ".git", "node_modules"))
'''),
    Wrong(lab='4.1', name='read catching a PermissionError and a UnicodeDecodeError',
          rule='read catches nothing of its own: what ws.read_text raises for a path ws.exists '
               'says is there is the call\'s result as it was raised.',
          where='hunt round 13, design 4.1-05 (r63); Build item 3: "read catches nothing of its '
                'own"',
          names='read catches nothing of its own',
          replace=r'''
        return ws.read_text(path)

    return {
        "name": "read",
''',
          by=r'''
        try:
            return ws.read_text(path)
        except (UnicodeDecodeError, PermissionError) as exc:  # say it in read's own words
            raise ValueError(f"cannot read {path}: {exc}") from exc

    return {
        "name": "read",
'''),
    Wrong(lab='4.1', name='no second status line when the output ends with the same one',
          rule='When the exit code is not 0, the result is what the command printed, then a '
               'newline, then Command exited with code N, whatever the output ends with.',
          where='hunt round 13, design 4.1-18 (r63); Build item 4: "its result is what the '
                'command printed, then a newline, then `Command exited with code N`"',
          names='even when it is the same line',
          replace=_STATUS,
          by=r'''
        if code != 0 and not output.endswith(f"Command exited with code {code}"):  # said once
'''),
]

# Round 16 (reader r82, source/hunts/round-16/r82.md): each design below passed lab 4.1's tests
# before the round's cases were added.
WRONG += [
    Wrong(lab='4.1', name='str(exc) cut to three hundred thousand characters',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), whole, however long.',
          where='hunt round 16, design 4.1-01 (r82); Build item 2: "`str(exc)`, whole, however '
                'long"',
          names='cuts nothing, however long',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text, failed = str(exc)[:300_000], True  # more than anyone reads
'''),
    Wrong(lab='4.1', name='the listing cut after three hundred and ten names',
          rule='NAMES are every name ws.listdir(".") gives, however many.',
          where='hunt round 16, design 4.1-03 (r82); Build item 3: "gives, however many"',
          names='however many there are',
          replace=_LISTING,
          by=r'''
            listed = ws.listdir(".")
            listing = ", ".join(listed[:310]) + (", ..." if len(listed) > 310 else "")
'''),
    Wrong(lab='4.1', name='a tool turned off after forty failures',
          rule='run_tool neither tries a call again nor stops calling a tool that keeps failing.',
          where='hunt round 16, design 4.1-04 (r82); Build item 2: "`run_tool` neither tries a '
                'call again nor stops calling a tool that keeps failing"',
          names='nor stops calling it',
          replace=_RUN_TOOL,
          by=r'''
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    elif _strikes.get(tool["execute"], 0) >= 40:  # a circuit breaker
        text, failed = f"Tool {call['name']} disabled after 40 failures", True
    else:
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            _strikes[tool["execute"]] = _strikes.get(tool["execute"], 0) + 1
            text, failed = str(exc), True
''',
          also=((r'''
def run_tool(tools, call):
''', r'''
_strikes = {}  # each tool's execute, held: how many times it failed


def run_tool(tools, call):
'''),)),
    Wrong(lab='4.1', name='the run given up after thirty-six rounds of errors',
          rule='An error result is a result like any other: the run goes on, with no code that '
               'decides whether a run should go on after a failure.',
          where='hunt round 16, design 4.1-05 (r82); Build item 2: "the run goes on"',
          names='rounds in a row whose every call fails',
          replace=_BATCH + r'''        if not calls:  # the content decides, not the stop_reason label
            return
''',
          by=_BATCH + r'''        if not calls:  # the content decides, not the stop_reason label
            return
        flailing = all(result["is_error"] for result in messages[-len(calls):])
        bad_rounds = bad_rounds + 1 if flailing else 0
        if bad_rounds == 36:  # thirty-six rounds of nothing but errors: stop paying for it
            return
''',
          also=(('    messages.append(user_message(prompt))\n    while True:',
                 '    messages.append(user_message(prompt))\n    bad_rounds = 0\n    while True:'),)),
    Wrong(lab='4.1', name='an unknown name cut after five thousand characters',
          rule='A name that no tool has gets the result Tool NAME not found: any name, said '
               'whole.',
          where='hunt round 16, design 4.1-06 (r82); Build item 2: "A name that no tool has gets '
                'the result `Tool NAME not found`"',
          names='said whole',
          replace=_NOT_FOUND,
          by=r'''
        text, failed = f"Tool {call['name'][:5000]} not found", True
'''),
    Wrong(lab='4.1', name='no status line for codes past 2**31',
          rule='A command that exits with a code other than 0, below 0 or past 255 too, gets the '
               'status line.',
          where='hunt round 16, design 4.1-07 (r82); Build item 4: "below 0 or past 255 too"',
          names='a code past 255',
          replace=_STATUS,
          by=r'''
        if code != 0 and -2**31 <= code <= 2**31:  # a code a C int can hold
'''),
    Wrong(lab='4.1', name='no status line for codes below -64',
          rule='A command that exits with a code other than 0, below 0 or past 255 too, gets the '
               'status line.',
          where='hunt round 16, design 4.1-08 (r82); Build item 4: "below 0 or past 255 too"',
          names='however far below',
          replace=_STATUS,
          by=r'''
        if code > 0 or -64 <= code < 0:  # below 0, only a signal's number
'''),
    Wrong(lab='4.1', name='a ConnectionAbortedError tried once more',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): run_tool neither tries it again nor stops calling it.',
          where='hunt round 16, design 4.1-09 (r82); Build item 2: "`run_tool` neither tries a '
                'call again"',
          names='neither tries it again',
          replace=_EXCEPT,
          by=r'''
        except ConnectionAbortedError:
            try:  # a dropped connection is worth one more try
                text, failed = tool["execute"](call["arguments"]), False
            except Exception as exc:
                text, failed = str(exc), True
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='a NotImplementedError told in words of its own',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): no kind is a special case.',
          where='hunt round 16, design 4.1-10 (r82); Build item 2: "A tool whose `execute` '
                'raises an `Exception` of any kind gets a result holding `str(exc)`"',
          names='no kind is a special case',
          replace=_EXCEPT,
          by=r'''
        except NotImplementedError:
            text, failed = f"Tool {call['name']} cannot do that yet", True
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='a refused argument taken out of the call',
          rule="run_tool changes nothing of the call: its arguments stay in the record as the "
               "model sent them.",
          where='hunt round 16, design 4.1-12 (r82); Build item 2: "`run_tool` changes nothing '
                'of the call"',
          names='changes nothing of the call',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            if isinstance(exc, ValueError) and str(exc).endswith(" must be a string"):
                call["arguments"].pop(str(exc)[:-len(" must be a string")], None)  # scrub it
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name="bash checking its command with str_arg's rule written out again",
          rule='write takes path and content through str_arg, and bash takes command: one rule '
               'kept in one place.',
          where='hunt round 16, design 4.1-17 (r82); Build item 1: "write takes `path` and '
                '`content` through it, and bash takes `command`"',
          names='one rule kept in one place',
          replace=r'''
        output, code = shell.run(str_arg(arguments, "command"))
''',
          by=r'''
        command = arguments.get("command")
        if not isinstance(command, str):  # str_arg's rule, word for word
            raise ValueError("command must be a string")
        output, code = shell.run(command)
'''),
    Wrong(lab='4.1', name='later calls skipped after five failures in a batch',
          rule='A failure is one call\'s result: the run goes on, later calls of the same batch '
               'included.',
          where='hunt round 16, design 4.1-18 (r82); Build item 2: "later calls of the same '
                'batch included"',
          names='however many failed before it in the batch',
          replace=_BATCH,
          by=r'''
        failures = 0
        for call in calls:  # every call, in order, before the model is asked again
            if failures >= 5:  # this batch has gone wrong: spare the rest
                messages.append({"role": "toolResult", "tool_call_id": call["id"],
                                 "tool_name": call["name"], "is_error": True,
                                 "content": "Skipped: too many failures in this batch"})
                continue
            messages.append(run_tool(tools, call))
            failures += messages[-1]["is_error"]
'''),
    Wrong(lab='4.1', name='an InterruptedError tried once more',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): run_tool neither tries it again nor stops calling it.',
          where='hunt round 16, design 4.1-41 (r82); Build item 2: "`run_tool` neither tries a '
                'call again"',
          names='neither tries it again',
          replace=_EXCEPT,
          by=r'''
        except InterruptedError:
            try:  # EINTR: the call was only interrupted
                text, failed = tool["execute"](call["arguments"]), False
            except Exception as exc:
                text, failed = str(exc), True
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='a returned text cut at five million characters',
          rule='A tool that returns is answered as in lesson 2: all it returned, however long.',
          where='hunt round 16, design 4.1-44 (r82); Build item 2',
          names='cuts nothing, however long',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
            if isinstance(text, str) and len(text) > 5_000_000:
                text = text[:5_000_000]  # no model reads more
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='a carriage return and a NUL in an unknown name escaped',
          rule='A name that no tool has gets the result Tool NAME not found: any name, said '
               'whole.',
          where='hunt round 16, design 4.1-46 (r82); Build item 2: "A name that no tool has gets '
                'the result `Tool NAME not found`"',
          names='said whole',
          replace=_NOT_FOUND,
          by=r'''
        shown = call["name"].replace("\r", "\\r").replace("\x00", "\\0")  # printable
        text, failed = f"Tool {shown} not found", True
'''),
    Wrong(lab='4.1', name="str(exc)'s CRLF line ends made LF",
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), whole and unstripped.',
          where='hunt round 16, design 4.1-47 (r82); Build item 2: "`str(exc)`, whole, however '
                'long"',
          names='whole and unstripped',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text, failed = str(exc).replace("\r\n", "\n"), True  # one kind of line end
'''),
    Wrong(lab='4.1', name='str_arg refusing a string of over a million characters',
          rule='str_arg hands back the argument called name as it was sent, when that is a '
               'string, however long.',
          where='hunt round 16, design 4.1-49 (r82); Build item 1: "as it was sent, when that '
                'is a string"',
          names='is a string: str_arg hands it back',
          replace=r'''
    if isinstance(got, str):
''',
          by=r'''
    if isinstance(got, str) and len(got) <= 1_000_000:  # no argument is that long
'''),
]


# Found by round 19's reader of lab 4.1 (r100), each passing the lab's tests before they changed.
WRONG += [
    Wrong(lab='4.1', name="a tool's name with digits after it read as the tool",
          rule='A name that no tool has gets the result Tool NAME not found: read2 is no tool '
               'read, whatever digits end it.',
          where='hunt round 19, design 4.1-12 (r100); Build item 2: "A name that no tool has gets '
                'the result `Tool NAME not found`"',
          names='digits after it',
          replace=_LOOKUP,
          by=r'''
    by_name = {t["name"]: t for t in tools}
    tool = by_name.get(call["name"]) or by_name.get(call["name"].rstrip("0123456789"))
'''),
    Wrong(lab='4.1', name='the listing cut after five hundred names',
          rule='NAMES are every name ws.listdir(".") gives, however many.',
          where='hunt round 19, design 4.1-24 (r100); Build item 3: "NAMES are every name '
                '`ws.listdir(".")` gives, however many"',
          names='however many there are',
          replace=_LISTING,
          by=r'''
            listed = ws.listdir(".")
            listing = ", ".join(listed[:500]) + (", ..." if len(listed) > 500 else "")
'''),
    Wrong(lab='4.1', name='no status line for codes of thirty digits and more',
          rule='A command that exits with a code other than 0, however far from 0, gets the '
               'status line.',
          where='hunt round 19, design 4.1-32 (r100); Build item 4: "a code other than 0, below 0 '
                'or past 255 too"',
          names='no code is too far from 0',
          replace=_STATUS,
          by=r'''
        if 0 < abs(code) < 10**30:  # past that, no real exit code
'''),
    Wrong(lab='4.1', name='str(exc) cut at a million characters',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), whole, however long.',
          where='hunt round 19, design 4.1-49 (r100); Build item 2: "`str(exc)`, whole, however '
                'long"',
          names='raises them as its message',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text, failed = str(exc)[:1_000_000], True
'''),
    Wrong(lab='4.1', name='a TimeoutError tried once more',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): run_tool neither tries it again nor stops calling it.',
          where='hunt round 19, design 4.1-50 (r100); Build item 2: "`run_tool` neither tries a '
                'call again"',
          names='a TimeoutError are no exception',
          replace=_EXCEPT,
          by=r'''
        except TimeoutError:
            try:  # it may answer the second time
                text, failed = tool["execute"](call["arguments"]), False
            except Exception as exc:
                text, failed = str(exc), True
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name="an exception's cause added to str(exc)",
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): its own message, and nothing of the exception it was raised from.',
          where='hunt round 19, design 4.1-55 (r100); Build item 2: "a result holding `str(exc)`"',
          names='nothing of its __cause__',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text = str(exc)
            if exc.__cause__ is not None:  # what it was raised from helps too
                text += f" (caused by {exc.__cause__})"
            failed = True
'''),
    Wrong(lab='4.1', name='read refusing a path of over ten thousand characters',
          rule='A path with nothing at it raises FileNotFoundError with the text File not '
               'found: PATH. Files here: NAMES, however long the path.',
          where='hunt round 19, design 4.1-65 (r100); Build item 3: "A path with nothing at it '
                'raises `FileNotFoundError`"',
          names='is a path like any other',
          replace=r'''
        path = str_arg(arguments, "path")
''',
          by=r'''
        path = str_arg(arguments, "path")
        if len(path) > 10_000:
            raise ValueError("path is too long")
'''),
]

# Designs the lesson's tests cannot rule out: each passes its lab (tests/authoring/
# test_allowed_designs.py), with the reason here.
ALLOWED = [
    Wrong(lab='4.1', name='the first of two tools with one name answering',
          rule='Lesson 2 leaves which of two tools of one name answers to the student (the '
               "reference's dict keeps the last, a lookup that stops at the first match keeps the "
               'first), and lesson 4 keeps it so: the boundary is about failures, not names.',
          where='hunt round 9, probe 4.1-91; lab 4.1, Build section: "when two tools share a '
                'name, which of them answers is yours to choose"', names='',
          replace=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"])
''',
          by=r'''
    tool = next((t for t in tools if t["name"] == call["name"]), None)  # the first of the name
'''),
    Wrong(lab='4.1', name="str(exc) guarded, the exception's class name when it fails",
          rule='An exception whose str() itself raises is beyond lesson 4: the reference lets '
               "that exception out, and a boundary that guards str(exc) and makes a result of "
               "the class's name instead is as right.",
          where='hunt round 9, probe 4.1-97; lab 4.1, Build section: "an exception whose '
                '`str()` itself raises is beyond this lesson"', names='',
          replace=r'''
        except Exception as exc:
            text, failed = str(exc), True
''',
          by=r'''
        except Exception as exc:
            try:
                text = str(exc)
            except Exception:  # a message that cannot be made: say what kind it was
                text = type(exc).__name__
            failed = True
'''),
    Wrong(lab='4.1', name='each call run on a worker thread with a 30-second timeout',
          rule='Lesson 4 leaves a tool that never returns to lesson 15 ("That is lesson 15\'s '
               'problem"), and states no rule on where execute runs; time in the fake world is '
               'turns of the event loop, so no test waits 30 seconds, and a test may not sleep. '
               'Lesson 15 rules it out (bash has no timeout of its own; run_tool awaits execute).',
          where='hunt round 4, design 4.1-17', names='',
          replace=_BOUNDARY,
          # Since Python 3.11 concurrent.futures.TimeoutError is the builtin TimeoutError, so
          # `except concurrent.futures.TimeoutError` would also catch a tool's own TimeoutError
          # and break "of any kind gets str(exc)" (round 9 draws one): the wait's own timeout
          # is told apart by the future not being done.
          by=r'''
        future = _POOL.submit(tool["execute"], call["arguments"])
        try:
            text, failed = future.result(timeout=30), False
        except Exception as exc:
            waited_out = isinstance(exc, TimeoutError) and not future.done()
            text = f"Tool {call['name']} timed out" if waited_out else str(exc)
            failed = True
''',
          also=(('def run_tool(tools, call):',
                 'import concurrent.futures\n_POOL = concurrent.futures.ThreadPoolExecutor('
                 'max_workers=1)\n\n\ndef run_tool(tools, call):'),)),
    Wrong(lab='4.1', name='str_arg taking arguments that are not a dict as missing',
          rule='str_arg reads the argument from the call\'s arguments, which in this course is '
               'always a dict: lab.call makes {} of no arguments, and a provider sends an object. '
               'What str_arg does with a list or None is never reached, so either answer is '
               'yours.',
          where='hunt round 9, probe 4.1-92; Build item 1', names='',
          replace=r'''
    got = arguments.get(name)  # None when the model left it out
''',
          by=r'''
    got = arguments.get(name) if isinstance(arguments, dict) else None
'''),
    Wrong(lab='4.1', name='no status line for a code of None',
          rule='Build item 4 rules codes other than 0; lab.Shell refuses a command whose code is '
               'not an int, so shell.run never returns None and the two answers cannot differ '
               'in this world (Tau\'s own rule is `exit_code not in (0, None)`).',
          where='hunt round 9, probe 4.1-94; Build item 4', names='',
          replace=r'''
        if code != 0:
''',
          by=r'''
        if code not in (0, None):  # None: no code known
'''),
    Wrong(lab='4.1', name='each caught failure printed to stderr as well',
          rule='Lesson 4 rules what the model is told (the result) and the record, not what the '
               'program prints for its author: the results and every request are the same. '
               'Lesson 7 opens on exactly such a print ("every program that uses your loop gets '
               'those prints too") and takes it up there.',
          where='hunt round 9, probe 4.1-96; Build item 2', names='',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)  # for whoever runs the harness
            text, failed = str(exc), True
''',
          also=(('def run_tool(tools, call):',
                 'import sys\nimport traceback\n\n\ndef run_tool(tools, call):'),)),
]

ALLOWED += [
    Wrong(lab='4.1', name='str_arg taking only a str of type str exactly',
          rule='Build item 1 says "when that is a string"; the arguments a provider sends are '
               'decoded JSON, whose strings are of type str exactly, so a subclass of str never '
               'comes from a model. Round 9 left its answer to str_arg already: the lab asks only '
               'that bash answer a subclass as str_arg does.',
          where='hunt round 10, design 4.1-11 (r47); Build item 1', names='',
          replace=r'''
    if isinstance(got, str):
''',
          by=r'''
    if type(got) is str:  # exactly str, as JSON gives it
'''),
    Wrong(lab='4.1', name='the status line when the code is truthy',
          rule='For an int, `if code:` and `code != 0` are the same test; lab.Shell gives an int '
               'code always, and a code of None (no status line) is already allowed (4.1-94).',
          where='hunt round 10, probe 4.1-22 (r47); Build item 4', names='',
          replace=_STATUS,
          by=r'''
        if code:  # any code but 0
'''),
    Wrong(lab='4.1', name='a copy of the arguments handed to execute',
          rule="Lesson 4 says what a tool's result and the record hold, not which dict execute "
               "gets: a copy holds the same values, the tools of the course only read their "
               "arguments, and the record keeps the call as the model made it either way (a "
               "tool that wrote into its arguments would change the record only without the copy).",
          where='hunt round 10, probe 4.1-31 (r47); Build item 2', names='',
          replace=_BOUNDARY,
          by=r'''
        try:
            text, failed = tool["execute"](copy.deepcopy(call["arguments"])), False
        except Exception as exc:
            text, failed = str(exc), True
''',
          also=(('def run_tool(tools, call):', 'import copy\n\n\ndef run_tool(tools, call):'),)),
    Wrong(lab='4.1', name='write taking content before path',
          rule='Build item 1 says write takes path and content through str_arg, not in which '
               'order: when both are bad, either ValueError names a real fault, and the model '
               'mends one, then hears of the other.',
          where='hunt round 10, probe 4.1-34 (r47); Build item 1', names='',
          replace=r'''
        path, content = str_arg(arguments, "path"), str_arg(arguments, "content")
''',
          by=r'''
        content = str_arg(arguments, "content")
        path = str_arg(arguments, "path")
'''),
]

ALLOWED += [
    Wrong(lab='4.1', name='str_arg handing back a str subclass as a plain str',
          rule='Build item 1 says "when that is a string"; the arguments a provider sends are '
               'decoded JSON, whose strings are of type str exactly, so a subclass of str never '
               'comes from a model, and str() of a plain str is that very str. The lab asks only '
               'that bash answer a subclass as str_arg does (4.1-11 of round 10 is allowed '
               'alike).',
          where='hunt round 16, probe 4.1-52 (r82); Build item 1', names='',
          replace=r'''
    if isinstance(got, str):
        return got
''',
          by=r'''
    if isinstance(got, str):
        return str(got)  # a plain str, whatever its class
'''),
    Wrong(lab='4.1', name="the listing sorted before it is joined",
          rule='NAMES are what ws.listdir(".") gives; lab.Workspace.listdir gives its names '
               'sorted already (by code point, capitals first), and it is the only workspace '
               'the course hands a tool, so sorted() gives the very same list: the two cannot '
               'differ in this world. A sort that changes the order (by case) is ruled out '
               '(the listing sorted whatever the case).',
          where='hunt round 16, probe 4.1-58 (r82); Build item 3', names='',
          replace=_LISTING,
          by=r'''
            listing = ", ".join(sorted(ws.listdir(".")))
'''),
    Wrong(lab='4.1', name='bash running its command with the blanks at its ends taken off',
          rule='Lesson 4 says what bash gives back (what the command printed, then the status '
               'line) and that it takes command through str_arg, not that the shell is handed '
               'the line byte for byte: a shell ignores blanks around a command line, so what '
               'runs, and what it prints, are the same; "" stays "".',
          where='hunt round 16, probe 4.1-60 (r82); Build item 1', names='',
          replace=r'''
        output, code = shell.run(str_arg(arguments, "command"))
''',
          by=r'''
        output, code = shell.run(str_arg(arguments, "command").strip())
'''),
]

ALLOWED += [
    Wrong(lab='4.1', name="str(exc) guarded, the exception's repr when it fails",
          rule='An exception whose str() itself raises is beyond lesson 4, so what the result '
               'holds then is the student\'s to choose: repr() of the exception is as right as '
               'its class name (4.1-97 of round 9); every exception whose str() works is told '
               'by str(exc) as before.',
          where='hunt round 19, probe 4.1-41 (r100); lab 4.1, Build section: "letting it out or '
                'making a result of something else is yours to choose"', names='',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            try:
                text = str(exc)
            except Exception:  # a message that cannot be made: say what it was
                text = repr(exc)
            failed = True
'''),
]

# Designs that break a rule only past what a check of lab 4.1 can afford (tools/wrong_designs.py's
# Beyond): each passes the lab's tests, and its deep test, run once by the kit with room to go
# past the reach, shows it wrong.
BEYOND = [
    Beyond(lab='4.1', name='a tool turned off after a hundred failures in a row',
           rule='run_tool neither tries a call again nor stops calling a tool that keeps '
                'failing: the hundred-and-first failure in a row is run and told as the first.',
           where='hunt round 13, design 4.1-03 (r63); Build item 2: "`run_tool` neither tries a '
                 'call again nor stops calling a tool that keeps failing"',
           names='stops calling a tool',
           replace=_RUN_TOOL,
           by=r'''
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    elif _failing.get(tool["execute"], 0) >= 100:  # it keeps failing: call it no more
        text, failed = f"Tool {call['name']} keeps failing; not called", True
    else:
        try:
            text, failed = tool["execute"](call["arguments"]), False
            _failing[tool["execute"]] = 0
        except Exception as exc:
            _failing[tool["execute"]] = _failing.get(tool["execute"], 0) + 1
            text, failed = str(exc), True
''',
           also=((r'''
def run_tool(tools, call):
''', r'''
_failing = {}  # each tool's execute, held (never its id): how many times it failed in a row


def run_tool(tools, call):
'''),),
           reach="a test of lab 4.1 fails one tool 45 to 90 times in a row: a correct file that "
                 "prints each caught traceback (allowed, 4.1-96) spends tens of milliseconds of "
                 "the checker's time on each, so a hundred failures in one test (measured: "
                 "2.2 s for the lab's whole check become 7 s under load) would take it past the "
                 "seconds per test; this count changes the result at the 101st failure in a row",
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "4.1"


@lab_test("A tool that fails on every call, called 105 times in a row from one list: it runs "
          "each time and each failure is told as str(exc).")
async def test_a_tool_that_keeps_failing_is_still_called(t):
    ran = []

    def broken(arguments):
        ran.append(1)
        raise ValueError("the disk is full")
    tools = [tool("save", broken)]
    results = []
    for n in range(105):
        results.append(harness.run_tool(tools, lab.call("save", id=f"c{n}")))
        await lab.tick()
    t.expect([[r["content"], r["is_error"]] for r in results[-3:]] + [len(ran)],
             why="run_tool neither tries a call again nor stops calling a tool that keeps "
                 "failing: [content, is_error] of the last three of 105 failed calls, then how "
                 "many times the tool ran (run_tool, lesson 4).")
'''),
    Beyond(lab='4.1', name='bash keeping the last million characters of output',
           rule='When the exit code is not 0, the result is what the command printed, all of '
                'it, then a newline, then Command exited with code N.',
           where='hunt round 13, design 4.1-31 (r63); Build item 4: "its result is what the '
                 'command printed, then a newline, then `Command exited with code N`"',
           names='what the command printed',
           reach="lab 4.1's tests are passed by every later lab's reference (the cumulative "
                 "promise), whose bash keeps at most 2,000 lines and 50,000 bytes of output "
                 "(lesson 6), so no test of lab 4.1 can hand bash more than that; this cut "
                 "changes the result past 1,000,000 characters",
           replace=r'''
        output, code = shell.run(str_arg(arguments, "command"))
''',
           by=r'''
        output, code = shell.run(str_arg(arguments, "command"))
        output = output[-1_000_000:]  # the end of a long log is what matters
''',
           deep=r'''
import harness
import lab
from lab.kit import lab_test, settle

LAB = "4.1"


@lab_test("bash gives what the command printed, all of it, then the status line: 1,200,000 "
          "characters of output and code 1.")
async def test_a_long_output_is_given_whole(t):
    flood = "".join(f"line {n:07d} of the log\n" for n in range(50_000))
    shell = lab.Shell(lab.Workspace({}), commands={"flood": lambda args, ws: (flood, 1)})
    bash = harness.make_bash_tool(shell)
    result = await settle(bash["execute"]({"command": "flood"}))
    t.expect([len(result), result == flood + "\nCommand exited with code 1"],
             why="bash's result is what the command printed, then a newline, then Command "
                 "exited with code N: [its length, whether it is the whole output and the "
                 "status line] (make_bash_tool, lesson 4, Build item 4).")
'''),
    Beyond(lab='4.1', name='a count of failures kept for the process',
           rule='A tool whose execute raises an Exception of any kind gets a result holding '
                'str(exc): the thousand-and-first failure as much as the first.',
           where='hunt round 9, design 4.1-17 (session-error-budget)', names='str(exc)',
           reach="a test of lab 4.1 fails a few tools a few times each; a thousand failures in "
                 "one test would hold a correct file that prints each caught traceback (allowed, "
                 "4.1-96) past the checker's seconds per test; this count changes the result at "
                 "the 1001st failure of the process",
           replace=r'''
        except Exception as exc:
            text, failed = str(exc), True
''',
           by=r'''
        except Exception as exc:
            _failures.append(1)  # kept for the process: past a thousand, spare the tokens
            text, failed = (str(exc) if len(_failures) <= 1000 else "error"), True
''',
           also=((r'''
def run_tool(tools, call):
''', r'''
_failures = []


def run_tool(tools, call):
'''),),
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "4.1"


@lab_test("A tool whose execute raises an Exception of any kind gets a result holding str(exc), "
          "the 1,005th failure as much as the first.")
async def test_the_thousandth_failure_is_told_too(t):
    def broken(arguments):
        raise ValueError(f"broken call {arguments['n']}")
    tools = [tool("broken", broken)]
    results = []
    for n in range(1005):
        results.append(harness.run_tool(tools, lab.call("broken", {"n": n}, id=f"c{n}")))
        await lab.tick()
    t.expect([[r["content"], r["is_error"]] for r in results[-3:]],
             why="Each failed call's result holds str(exc), however many failed before it: "
                 "[content, is_error] of the last three of 1,005 failed calls (run_tool, lesson 4).")
'''),
]

# Round 19's reader of lab 4.1 (r100): caps past what a check of the lab can afford. Two deep
# tests above go past them already (a hundred-odd failures of one tool; a million characters of
# output), and two more are written here.
_HUNDRED_FAILURES, _MILLION_OUTPUT = BEYOND[0].deep, BEYOND[1].deep
BEYOND += [
    Beyond(lab='4.1', name='the same error said in short after its hundredth time',
           rule='A tool whose execute raises an Exception of any kind gets a result holding '
                'str(exc), each time it fails: the hundred-and-first same failure as the first.',
           where='hunt round 19, design 4.1-44 (r100); Build item 2: "`str(exc)`, whole, however '
                 'long, each time it fails"',
           names='each failure is told as str(exc)',
           replace=_EXCEPT,
           by=r'''
        except Exception as exc:
            text, failed = str(exc), True
            _seen[call["name"], text] = _seen.get((call["name"], text), 0) + 1
            if _seen[call["name"], text] > 100:  # the model has heard it often enough
                text = "(same error again)"
''',
           also=((r'''
def run_tool(tools, call):
''', r'''
_seen = {}  # (tool name, error text): how many times the process has told it


def run_tool(tools, call):
'''),),
           reach="a test of lab 4.1 fails one tool 45 to 90 times with one message; a hundred "
                 "failures in one test would hold a correct file that prints each caught "
                 "traceback (allowed, 4.1-96) past the checker's seconds per test, as for 'a "
                 "tool turned off after a hundred failures in a row'; this count changes the "
                 "result at the 101st same failure of the process",
           turns=20_000, seconds=20.0, deep=_HUNDRED_FAILURES),
    Beyond(lab='4.1', name='no status line for output of fifty thousand characters and more',
           rule='When the exit code is not 0, the result is what the command printed, then a '
                'newline, then Command exited with code N, however long the output.',
           where='hunt round 19, design 4.1-62 (r100); Build item 4: "its result is what the '
                 'command printed, then a newline, then `Command exited with code N`"',
           names='then the status line',
           replace=_STATUS,
           by=r'''
        if code != 0 and len(output) < 50_000:  # a long log says enough
''',
           reach="lab 4.1's tests are passed by every later lab's reference (the cumulative "
                 "promise), whose bash keeps at most 2,000 lines and 50,000 bytes of output "
                 "(lesson 6), so no test of lab 4.1 can hand bash 50,000 characters and more, "
                 "where this design differs",
           deep=_MILLION_OUTPUT),
    Beyond(lab='4.1', name='the run given up after a hundred rounds of errors',
           rule='The run goes on after a failure: no code decides whether a run should go on '
                'after one, and the loop carries on after an error result as after any other.',
           where='hunt round 19, design 4.1-47 (r100); lab 4.1, Build section: "no code that '
                 'decides whether a run should go on after a failure"',
           names='the run goes on',
           replace=r'''
        calls = tool_calls(reply)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
''',
           by=r'''
        calls = tool_calls(reply)
        all_bad = bool(calls)
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
            all_bad = all_bad and messages[-1]["is_error"]
        bad_rounds = bad_rounds + 1 if all_bad else 0
        if bad_rounds >= 100:  # it is stuck: stop spending
            return
''',
           also=((r'''
    messages.append(user_message(prompt))
    while True:
''', r'''
    messages.append(user_message(prompt))
    bad_rounds = 0
    while True:
'''),),
           reach="a test of lab 4.1 runs 40 to 90 rounds whose every call fails; a hundred "
                 "rounds in one test would hold a correct file that prints each caught "
                 "traceback (allowed, 4.1-96) past the checker's seconds per test; this count "
                 "changes the run at the 100th such round in a row",
           turns=40_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "4.1"


@lab_test("A run whose model asks for a failing tool 105 rounds in a row, then answers: the "
          "run goes on after every round of failures and ends on the answer.")
async def test_a_long_run_of_failures_goes_on(t):
    def broken(arguments):
        raise ValueError("the disk is full")
    model = lab.ScriptedModel([lab.reply(lab.call("save", id=f"c{n}")) for n in range(105)] +
                              [lab.say("I could not save it.")])
    messages = []
    await lab.drive(harness.run_agent(model, "You help.", messages, [tool("save", broken)],
                                      "Save it."))
    t.expect([len(model.calls), len(messages), messages[-1]["content"]],
             why="The run goes on after each failure, the 105th round of them as the first, and "
                 "ends only on a reply with no calls: [requests, messages in the record, the "
                 "last message's content] (run_tool and run_agent, lesson 4).")
'''),
    Beyond(lab='4.1', name='every call refused past a hundred thousand in the process',
           rule='Every call ends in exactly one result, whatever its tool does, and a tool '
                'that returns is answered as in lesson 2: the hundred-thousand-and-first call '
                'as the first.',
           where='hunt round 19, design 4.1-63 (r100); Build item 2: "A tool that returns is '
                 'answered as in lesson 2"',
           names='as much as the first',
           replace=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"])
''',
           by=r'''
    _calls[0] += 1
    if _calls[0] > 100_000:  # a runaway process: refuse
        return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                "content": "Too many tool calls in this process", "is_error": True}
    tool = {t["name"]: t for t in tools}.get(call["name"])
''',
           also=((r'''
def run_tool(tools, call):
''', r'''
_calls = [0]  # every call run_tool has answered in this process


def run_tool(tools, call):
'''),),
           reach="a test of lab 4.1 makes some hundreds of calls; a hundred thousand cost the "
                 "reference 66 ms of processor time (measured), past the 10 ms a case may add "
                 "to the lab's run; this count changes the result at the 100,001st call of the "
                 "process",
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "4.1"


@lab_test("A tool that returns is answered as in lesson 2, the 100,005th call as much as the "
          "first.")
async def test_the_hundred_thousandth_call_is_answered(t):
    tools = [tool("save", lambda arguments: "saved")]
    results = [harness.run_tool(tools, lab.call("save", id=f"c{n}")) for n in range(100_005)]
    t.expect([[r["content"], r["is_error"]] for r in results[-3:]],
             why="A tool that returns is answered as in lesson 2, however many calls came "
                 "before: [content, is_error] of the last three of 100,005 calls (run_tool, "
                 "lesson 4).")
'''),
]

# --- hunt round 22 (r119): the passing designs the tests now catch ---------------------------
WRONG += [
    Wrong(lab='4.1', name='an OSError whose errno says busy or stale tried once more',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): run_tool neither tries it again nor stops calling it, whatever the '
               'errno.',
          where='hunt round 22, design 4.1-21 (r119); Build item 2: "`run_tool` neither tries a '
                'call again"',
          names='or any other errno',
          replace=_BOUNDARY,
          by=r'''
        try:
            try:
                text, failed = tool["execute"](call["arguments"]), False
            except OSError as first:
                import errno
                if first.errno not in (errno.EBUSY, errno.ESTALE):  # busy: it may pass
                    raise
                text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='control characters in an unknown name escaped',
          rule='A name that no tool has gets the result Tool NAME not found: the name whole, '
               'as the model sent it, whatever characters it holds.',
          where='hunt round 22, design 4.1-33 (r119); Build item 2: "A name that no tool has '
                'gets the result `Tool NAME not found`"',
          names='another control character',
          replace=_NOT_FOUND,
          by=r'''
        shown = call["name"]
        if any(ord(c) < 32 and c not in "\n\t\r\0" or ord(c) == 127 for c in shown):
            shown = repr(shown)[1:-1]  # keep the message printable
        text, failed = f"Tool {shown} not found", True
'''),
    Wrong(lab='4.1', name='read reading first and asking ws.exists after',
          rule='File not found is for a path ws.exists says has nothing at it: read asks '
               'ws.exists, and reads only a path it says something is at.',
          where='hunt round 22, design 4.1-47 (r119); Build item 3: "File not found is for a '
                'path `ws.exists` says has nothing at it"',
          names='asked before anything is read',
          replace=r'''
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
        return ws.read_text(path)
''',
          by=r'''
        try:
            return ws.read_text(path)
        except FileNotFoundError:
            if ws.exists(path):
                raise
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}") from None
'''),
    Wrong(lab='4.1', name='StopIteration let out of run_tool',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): StopAsyncIteration is an Exception like the others.',
          where='hunt round 22, design 4.1-70 (r119); Build item 2: "an `Exception` of any kind"',
          names='StopAsyncIteration',
          replace=_EXCEPT,
          by=r'''
        except (StopIteration, StopAsyncIteration):  # an iterator's end, not a failure
            raise
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='no status line for code 130',
          rule='When the exit code is not 0, the result is what the command printed, then a '
               'newline, then Command exited with code N: 130 (Ctrl-C) as any other.',
          where='hunt round 22, design 4.1-71 (r119); Build item 4: "its result is what the '
                'command printed, then a newline, then `Command exited with code N`"',
          names='Every code from 1 to 255',
          replace=_STATUS,
          by=r'''
        if code not in (0, 130):  # 130: the user pressed Ctrl-C, nothing failed
'''),
    Wrong(lab='4.1', name='str_arg refusing a string that holds a NUL',
          rule='str_arg hands back the argument called name as it was sent, when that is a '
               'string: a NUL in it is a character like any other.',
          where='hunt round 22, design 4.1-72 (r119); Build item 1: "as it was sent, when that '
                'is a string"',
          names='a NUL anywhere in it',
          replace=r'''
    if isinstance(got, str):
''',
          by=r'''
    if isinstance(got, str) and "\0" not in got:  # no program takes a NUL
'''),
]

ALLOWED += [
    Wrong(lab='4.1', name="the call's arguments replaced by an equal copy",
          rule='Build item 2 says run_tool changes nothing of the call and its arguments stay in '
               'the record as the model sent them: an equal dict in their place holds what the '
               'model sent, key for key, so the record and every request the model and a '
               'provider see are the same; what the arguments hold is the rule, not which dict '
               'object holds it (hunt round 22, probe 4.1-35, r119).',
          where='hunt round 22, probe 4.1-35 (r119); Build item 2: "its arguments stay in the '
                'record as the model sent them"', names='',
          replace=_BOUNDARY,
          by=r"""
        try:
            call["arguments"] = dict(call["arguments"])  # the same content, a dict of our own
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
"""),
]

WRONG += [
    Wrong(lab='4.1', name='the listing cut after seven hundred names',
          rule='NAMES are every name ws.listdir(".") gives, however many.',
          where='hunt round 22, design 4.1-49 (r119); Build item 3: "NAMES are every name '
                '`ws.listdir(".")` gives, however many"',
          names='however many',
          replace=_LISTING,
          by=r"""
            listing = ", ".join(ws.listdir(".")[:700])  # enough to choose from
"""),
    Wrong(lab='4.1', name='no status line for codes of three hundred and one digits and more',
          rule='When the exit code is not 0, the result is what the command printed, then a '
               'newline, then Command exited with code N: no code is too far from 0.',
          where='hunt round 22, design 4.1-59 (r119); Build item 4: "its result is what the '
                'command printed, then a newline, then `Command exited with code N`"',
          names='no code is too far from 0',
          replace=_STATUS,
          by=r"""
        if code != 0 and abs(code) < 10 ** 301:  # past that it is no exit code
"""),
]

WRONG += [
    Wrong(lab='4.1', name='an unknown name cut after a hundred thousand characters',
          rule='A name that no tool has gets the result Tool NAME not found: the name whole, '
               'however long.',
          where='hunt round 22, design 4.1-32 (r119); Build item 2: "A name that no tool has '
                'gets the result `Tool NAME not found`"',
          names='run_tool cuts nothing of it',
          replace=_NOT_FOUND,
          by=r"""
        text, failed = f"Tool {call['name'][:100_000]} not found", True
"""),
    Wrong(lab='4.1', name='bash keeping the last thousand lines of a failing command',
          rule='When the exit code is not 0, the result is what the command printed, all of '
               'it, then a newline, then Command exited with code N.',
          where='hunt round 22, design 4.1-63 (r119); Build item 4: "its result is what the '
                'command printed"',
          names='all of it, then a newline',
          replace=_STATUS,
          by=r"""
        if code != 0:
            output = "".join(output.splitlines(True)[-1000:])  # the end says what went wrong
"""),
    Wrong(lab='4.1', name='later calls skipped after forty-five failures in a batch',
          rule='Every call of a batch runs and gets its own result, later calls of the same '
               'batch included, however many failed before it.',
          where='hunt round 22, design 4.1-67 (r119); Build item 2: "later calls of the same '
                'batch included"',
          names='however many failed before it',
          replace=_BATCH,
          by=r"""
        failures = 0
        for call in calls:  # every call, in order, before the model is asked again
            if failures >= 45:  # the batch is going nowhere
                messages.append({"role": "toolResult", "tool_call_id": call["id"],
                                 "tool_name": call["name"], "content": "skipped: too many failures",
                                 "is_error": True})
                continue
            messages.append(run_tool(tools, call))
            failures += messages[-1]["is_error"]
"""),
]

# --- hunt round 22 (r119): limits just past what lab 4.1's tests can afford ------------------
BEYOND += [
    Beyond(lab='4.1', name='str(exc) cut at sixteen million characters',
           rule='A tool whose execute raises an Exception of any kind gets a result holding '
                'str(exc), whole, however long.',
           where='hunt round 22, design 4.1-16 (r119); Build item 2: "`str(exc)`, whole, however '
                 'long"',
           names='whole, however long',
           replace=_EXCEPT,
           by=r'''
        except Exception as exc:
            text, failed = str(exc)[:16_000_000], True  # past that no model reads it
''',
           reach="a test of lab 4.1 raises and returns texts of up to 13.5 million characters, "
                 "the most its run can afford; a message of seventeen million costs the reference "
                 "7 ms of processor time to build and tell (measured), on top of this round's "
                 "4.6 ms of new cases, and 17 MB more, past the 10 ms the round may add; this "
                 "cut changes the result only past sixteen million characters",
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "4.1"


@lab_test("A tool that raises a message of seventeen million characters gets a result holding "
          "it whole, however long.")
async def test_a_message_of_seventeen_million_characters_is_whole(t):
    text = "log line\n" * 1_900_000

    def fails(arguments):
        raise ValueError(text)
    result = harness.run_tool([tool("build", fails)], lab.call("build", id="c1"))
    t.expect([len(result["content"]), result["content"] == text, result["is_error"]],
             why="str(exc), whole, however long: [the content's length, whether it is the "
                 "message whole, is_error] (run_tool, lesson 4).")
'''),
    Beyond(lab='4.1', name='str_arg refusing a string of over eight million characters',
           rule='str_arg hands back the argument called name as it was sent, when that is a '
                'string, however long.',
           where='hunt round 22, design 4.1-42 (r119); Build item 1: "as it was sent, when that '
                 'is a string"',
           names='however long',
           replace=r'''
    if isinstance(got, str):
''',
           by=r'''
    if isinstance(got, str) and len(got) <= 8_000_000:  # past that it is no argument
''',
           reach="a test of lab 4.1 hands str_arg strings of up to six million characters, the "
                 "most its run can afford beside the other large cases; a string past eight "
                 "million would add more than the 10 ms of processor time a case may add; this "
                 "cap changes the result only past eight million characters",
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
from lab.kit import lab_test

LAB = "4.1"


@lab_test("str_arg hands back a string of nine million characters as it was sent, however long.")
async def test_str_arg_hands_back_nine_million_characters(t):
    text = "x = 1\n" * 1_500_000
    got = harness.str_arg({"content": text}, "content")
    t.expect([len(got), got == text],
             why="str_arg, as it was sent, however long: [the length handed back, whether it "
                 "is the string whole] (str_arg, lesson 4).")
'''),
    Beyond(lab='4.1', name='a batch of over ten thousand calls run last first',
           rule='Every call of a batch runs, in order, before the model is asked again: each '
                'tool, as it runs, finds the calls before it done.',
           where='hunt round 22, design 4.1-69 (r119); Build item 2: "later calls of the same '
                 'batch included"',
           names='every call runs in order',
           replace=_BATCH,
           by=r'''
        if len(calls) > 10_000:  # a huge batch: the last calls are the likeliest to matter
            done = [run_tool(tools, call) for call in reversed(calls)]
            messages.extend(reversed(done))
        else:
            for call in calls:  # every call, in order, before the model is asked again
                messages.append(run_tool(tools, call))
''',
           reach="lab 3.1's test runs a batch of 2,088 calls, and lab 4.1's of up to 150; a "
                 "batch of 10,005 calls costs the reference 17 ms of processor time (measured), "
                 "past the 10 ms a case may add; this order changes only past ten thousand "
                 "calls in one reply",
           turns=40_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "4.1"


@lab_test("A reply of 10,005 calls: every call runs in order, the first first.")
async def test_every_call_runs_in_order_in_a_huge_batch(t):
    ran = []

    def step(arguments):
        ran.append(arguments["n"])
        return "ok"
    model = lab.ScriptedModel([lab.reply(*[lab.call("step", {"n": n}) for n in range(10_005)]),
                               lab.say("Done.")])
    await lab.drive(harness.run_agent(model, "You help.", [], [tool("step", step)], "Go."))
    t.expect([ran[:3], ran[-3:], ran == sorted(ran)],
             why="every call runs in order: [the first three calls run, the last three, whether "
                 "they ran in call order] (run_agent and run_tool, lessons 3 and 4).")
'''),
]

# Round 24 (r133): designs that passed the lab's tests, now failing them and the bank.
WRONG += [
    Wrong(lab='4.1', name='an unknown name starting with x marked no error',
          rule='A name that no tool has gets the result Tool NAME not found, marked is_error '
               'True, whatever the name.',
          where='hunt round 24, design 4.1-24 (r133); Build item 2: "Both are marked `is_error` '
                'True"',
          names='whatever it starts with',
          replace=r'''
        text, failed = f"Tool {call['name']} not found", True
''',
          by=r'''
        text, failed = f"Tool {call['name']} not found", not call["name"].startswith("x")
'''),
    Wrong(lab='4.1', name='a KeyError with a long key told without its quotes',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), whole: a KeyError\'s str() is its key in quotes, however long the key.',
          where='hunt round 24, design 4.1-36 (r133); Build item 2: "an `Exception` of any kind '
                'gets a result holding `str(exc)`, whole"',
          names='quotes and all',
          replace=r'''
            text, failed = str(exc), True
''',
          by=r'''
            text, failed = (exc.args[0] if isinstance(exc, KeyError) and exc.args and
                            isinstance(exc.args[0], str) and len(exc.args[0]) > 12
                            else str(exc)), True
'''),
    Wrong(lab='4.1', name='a KeyError whose key holds a space told without its quotes',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), whole: a KeyError\'s str() is its key in quotes, spaces or not.',
          where='hunt round 24, design 4.1-71 (r133); Build item 2: "an `Exception` of any kind '
                'gets a result holding `str(exc)`, whole"',
          names='quotes and all',
          replace=r'''
            text, failed = str(exc), True
''',
          by=r'''
            text, failed = (exc.args[0] if type(exc) is KeyError and len(exc.args) == 1 and
                            isinstance(exc.args[0], str) and " " in exc.args[0]
                            else str(exc)), True
'''),
    Wrong(lab='4.1', name='the ending re-raised from None',
          rule='What the program raises as it ends leaves run_tool as it came, the very object '
               'with its traceback: raised again from None, its __cause__ is lost and its '
               'context suppressed.',
          where='hunt round 24, design 4.1-47 (r133); Build item 2: "it leaves `run_tool` and '
                '`run_agent` as it came, the very object with its traceback"',
          names='its __cause__ as it was',
          replace=r'''
        except Exception as exc:
            text, failed = str(exc), True
''',
          by=r'''
        except BaseException as exc:
            if not isinstance(exc, Exception):
                raise exc from None
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='a key added to the arguments of a failed call of four or more',
          rule='run_tool changes nothing of the call: its arguments stay in the record as the '
               'model sent them, however many they are and whether or not the tool failed.',
          where='hunt round 24, design 4.1-50 (r133); Build item 2: "its arguments stay in the '
                'record as the model sent them"',
          names='however many it has',
          replace=r'''
            text, failed = str(exc), True
''',
          by=r'''
            text, failed = str(exc), True
            if isinstance(call["arguments"], dict) and len(call["arguments"]) > 3:
                call["arguments"]["_failed"] = True
'''),
]

ALLOWED += [
    Wrong(lab='4.1', name="the listing's names taken once each",
          rule='NAMES are every name ws.listdir(".") gives; a folder holds no two entries of one '
               'name, so lab.Workspace.listdir, the only workspace the course hands a tool, '
               'gives each name once, and taking each once changes nothing of the text: every '
               'name is still there, in its order.',
          where='hunt round 24, probe 4.1-44 (r133); Build item 3', names='',
          replace=r'''
            listing = ", ".join(ws.listdir("."))
''',
          by=r'''
            listing = ", ".join(dict.fromkeys(ws.listdir(".")))  # each name once
'''),
]

BEYOND += [
    Beyond(lab='4.1', name='str_arg refusing a string of over five million characters',
           rule='str_arg hands back the argument called name as it was sent, when that is a '
                'string, however long.',
           where='hunt round 24, design 4.1-51 (r133); Build item 1: "as it was sent, when that '
                 'is a string"',
           names='however long',
           replace=r'''
    if isinstance(got, str):
''',
           by=r'''
    if isinstance(got, str) and len(got) <= 5_000_000:  # past that it is no argument
''',
           reach="a test of lab 4.1 hands str_arg a string of 1.25 to six million characters, "
                 "drawn, so it passes five million under some seeds only (not the public one); "
                 "drawing past five million every time would grow the case just past this cap, "
                 "and the string is already the most the run affords beside the other large "
                 "cases; this cap changes the result only past five million characters",
           turns=20_000, seconds=20.0,
           deep=r'''
import harness
from lab.kit import lab_test

LAB = "4.1"


@lab_test("str_arg hands back a string of nine million characters as it was sent, however long.")
async def test_str_arg_hands_back_nine_million_characters(t):
    text = "x = 1\n" * 1_500_000
    got = harness.str_arg({"content": text}, "content")
    t.expect([len(got), got == text],
             why="str_arg, as it was sent, however long: [the length handed back, whether it "
                 "is the string whole] (str_arg, lesson 4).")
'''),
]

# Hunt round 28 (r151): designs that passed lab 4.1 and now fail it.
WRONG += [
    Wrong(lab='4.1', name='a ChildProcessError tried once more',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): run_tool neither tries it again nor stops calling it.',
          where='hunt round 28, design 4.1-07 (r151); Build item 2: "`run_tool` neither tries a '
                'call again"',
          names='ChildProcessError',
          replace=_EXCEPT,
          by=r'''
        except ChildProcessError:
            try:  # the child went away: start it once more
                text, failed = tool["execute"](call["arguments"]), False
            except Exception as exc:
                text, failed = str(exc), True
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='an empty IndexError told by its class name',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), "" when it has no message; no kind is a case of its own.',
          where='hunt round 28, design 4.1-31 (r151); Build item 2: "an `Exception` of any kind '
                'gets a result holding `str(exc)`"',
          names='IndexError with no message',
          replace=_EXCEPT,
          by=r'''
        except LookupError as exc:
            if str(exc) or isinstance(exc, KeyError):
                text, failed = str(exc), True
            else:  # an empty IndexError says nothing: name it
                text, failed = type(exc).__name__, True
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='an ImportError told in words of its own',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc); no kind is a case of its own.',
          where='hunt round 28, design 4.1-32 (r151); Build item 2: "an `Exception` of any kind '
                'gets a result holding `str(exc)`"',
          names='ImportError',
          replace=_EXCEPT,
          by=r'''
        except ImportError:
            text, failed = "This tool is not available here.", True
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='line and paragraph separators in an unknown name escaped',
          rule='A name that no tool has gets the result Tool NAME not found: any name, said '
               'whole in its place.',
          where='hunt round 28, design 4.1-28 (r151); Build item 2: "A name that no tool has '
                'gets the result `Tool NAME not found`"',
          names='paragraph separator',
          replace=_NOT_FOUND,
          by=r'''
        shown = call["name"].replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
        text, failed = f"Tool {shown} not found", True  # no line break a reader cannot see
'''),
    Wrong(lab='4.1', name='the arguments of a call of over eight emptied',
          rule="run_tool changes nothing of the call: its arguments stay in the record as the "
               "model sent them, however many.",
          where='hunt round 28, design 4.1-53 (r151); Build item 2: "its arguments stay in the '
                'record as the model sent them"',
          names='keeps its arguments as the model sent them',
          replace=_BOUNDARY,
          by=r'''
        try:
            if isinstance(call["arguments"], dict) and len(call["arguments"]) > 8:
                call["arguments"].clear()  # a call of so many is noise
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
'''),
    Wrong(lab='4.1', name='str_arg raising a ValueError that is a KeyError too',
          rule='str_arg raises ValueError for a missing argument, and never a KeyError.',
          where='hunt round 28, design 4.1-12 (r151); Build item 1: "and never a `KeyError`"',
          names='that is no KeyError',
          replace=r'''
    raise ValueError(f"{name} must be a string")
''',
          by=r'''
    raise _Missing(f"{name} must be a string")


class _Missing(ValueError, KeyError):
    """A ValueError, and a KeyError for callers that expect one."""
    __str__ = Exception.__str__


_Missing.__name__ = _Missing.__qualname__ = "ValueError"
'''),
    Wrong(lab='4.1', name='str_arg writing "" into a dict of three keys or more',
          rule='str_arg raises ValueError for a missing argument, and leaves the arguments as '
               'they were sent.',
          where='hunt round 28, design 4.1-25 (r151); Build item 1: "When the argument is '
                'missing, or holds anything but a string, it raises `ValueError`"',
          names='however many other keys',
          replace=r'''
    got = arguments.get(name)  # None when the model left it out
''',
          by=r'''
    if len(arguments) >= 3:  # a call of many arguments: take a missing one as ""
        arguments.setdefault(name, "")
    got = arguments.get(name)  # None when the model left it out
'''),
    Wrong(lab='4.1', name='read turning a MemoryError into a ValueError of its own',
          rule="read catches nothing of its own: what ws.read_text raises is the call's result.",
          where='hunt round 28, design 4.1-15 (r151); Build item 3: "read catches nothing of its '
                'own"',
          names='MemoryError',
          replace=r'''
        return ws.read_text(path)
''',
          by=r'''
        try:
            return ws.read_text(path)
        except MemoryError:
            raise ValueError(f"{path} is too big to read") from None
'''),
]

_DEEP_HEAD = '''
import harness
import lab
from lab.kit import lab_test, tool

LAB = "4.1"
'''
# Hunt round 28 (r151): limits just past what lab 4.1's tests try. Each is a design of an
# earlier entry with its count moved; a test past each would be the next count's design.
BEYOND += [
    Beyond(lab='4.1', name='str(exc) cut at fourteen million characters',
           rule='A tool whose execute raises an Exception of any kind gets a result holding '
                'str(exc), whole, however long.',
           where='hunt round 28, design 4.1-02 (r151); Build item 2: "`str(exc)`, whole, however '
                 'long"',
           names='whole, however long',
           replace=_EXCEPT,
           by=r'''
        except Exception as exc:
            text, failed = str(exc)[:14_000_000], True  # past that no model reads it
''',
           reach="a test of lab 4.1 raises messages of up to 13.5 million characters, the most "
                 "its run affords (see 'str(exc) cut at sixteen million characters'); this cut "
                 "changes the result only past fourteen million",
           turns=20_000, seconds=20.0,
           deep=_DEEP_HEAD + r'''

@lab_test("A tool that raises a message of seventeen million characters gets a result holding "
          "it whole, however long.")
async def test_a_message_of_seventeen_million_characters_is_whole(t):
    text = "log line\n" * 1_900_000

    def fails(arguments):
        raise ValueError(text)
    result = harness.run_tool([tool("build", fails)], lab.call("build", id="c1"))
    t.expect([len(result["content"]), result["content"] == text, result["is_error"]],
             why="str(exc), whole, however long: [the content's length, whether it is the "
                 "message whole, is_error] (run_tool, lesson 4).")
'''),
    Beyond(lab='4.1', name='a returned text cut at fourteen million characters',
           rule='A tool that returns is answered as in lesson 2: all it returned, however long.',
           where='hunt round 28, design 4.1-52 (r151); Build item 2: "A tool that returns is '
                 'answered as in lesson 2"',
           names='cuts nothing, however long',
           replace=_BOUNDARY,
           by=r'''
        try:
            text, failed = tool["execute"](call["arguments"]), False
            if isinstance(text, str) and len(text) > 14_000_000:
                text = text[:14_000_000]  # no model reads more
        except Exception as exc:
            text, failed = str(exc), True
''',
           reach="a test of lab 4.1 returns texts of up to 13.5 million characters, the most its "
                 "run affords beside its other large cases; this cut changes the result only "
                 "past fourteen million",
           turns=20_000, seconds=20.0,
           deep=_DEEP_HEAD + r'''

@lab_test("A tool that returns seventeen million characters gets them all: run_tool cuts "
          "nothing, however long.")
async def test_a_return_of_seventeen_million_characters_is_whole(t):
    text = "log line\n" * 1_900_000
    result = harness.run_tool([tool("dump", lambda arguments: text)], lab.call("dump", id="c1"))
    t.expect([len(result["content"]), result["content"] == text, result["is_error"]],
             why="run_tool cuts nothing, however long: [the content's length, whether it is the "
                 "text whole, is_error] (run_tool, lesson 4).")
'''),
    Beyond(lab='4.1', name='an unknown name cut after 1,100,000 characters',
           rule='A name that no tool has gets the result Tool NAME not found: any name, said '
                'whole in its place.',
           where='hunt round 28, design 4.1-04 (r151); Build item 2: "A name that no tool has '
                 'gets the result `Tool NAME not found`"',
           names='said whole',
           replace=_NOT_FOUND,
           by=r'''
        text, failed = f"Tool {call['name'][:1_100_000]} not found", True
''',
           reach="a test of lab 4.1 sends names of up to a million characters beside its other "
                 "large cases; this cut changes the result only past 1,100,000 characters, and "
                 "a test past it would be the next count's design",
           turns=20_000, seconds=20.0,
           deep=_DEEP_HEAD + r'''

@lab_test("A name of three million characters that no tool has is said whole in NAME's place.")
async def test_a_name_of_three_million_characters_is_said_whole(t):
    name = "read_file_" + "x" * 3_000_000
    result = harness.run_tool([], lab.call(name, id="c1"))
    t.expect([len(result["content"]), result["content"] == f"Tool {name} not found"],
             why="Any name no tool has is said whole: [the content's length, whether it is "
                 "Tool NAME not found with the name whole] (run_tool, lesson 4).")
'''),
    Beyond(lab='4.1', name='the listing cut after 5,001 names',
           rule='read of a missing path lists every name ws.listdir(".") gives, however many.',
           where='hunt round 28, design 4.1-06 (r151); Build item 3: "NAMES are every name '
                 '`ws.listdir(".")` gives, however many"',
           names='however many',
           replace=_LISTING,
           by=r'''
            listing = ", ".join(ws.listdir(".")[:5_001])  # enough for any model
''',
           reach="a test of lab 4.1 lists a thousand to five thousand names, drawn; this cut "
                 "changes the message only past 5,001 names, and a test past it would be the "
                 "next count's design",
           turns=20_000, seconds=20.0,
           deep=_DEEP_HEAD + r'''

class Crowded(lab.Workspace):
    def listdir(self, path="."):
        return [f"log{n:05}.txt" for n in range(20_000)]


@lab_test("read of a missing path where ws.listdir('.') gives twenty thousand names lists every "
          "one of them, however many.")
async def test_twenty_thousand_names_are_listed(t):
    read = harness.make_read_tool(Crowded({}))
    try:
        read["execute"]({"path": "notes.md"})
        said = ""
    except FileNotFoundError as exc:
        said = str(exc)
    t.expect(said.count(", ") + 1 if said else 0,
             why="NAMES are every name ws.listdir('.') gives, however many: how many names the "
                 "message lists (make_read_tool, lesson 4).")
'''),
    Beyond(lab='4.1', name='str_arg refusing a string of over seven million characters',
           rule='str_arg hands back the argument called name as it was sent, when that is a '
                'string, however long.',
           where='hunt round 28, design 4.1-37 (r151); Build item 1: "as it was sent, when that '
                 'is a string"',
           names='however long',
           replace=r'''
    if isinstance(got, str):
''',
           by=r'''
    if isinstance(got, str) and len(got) <= 7_000_000:  # past that it is no argument
''',
           reach="a test of lab 4.1 hands str_arg strings of up to six million characters (see "
                 "'str_arg refusing a string of over eight million characters'); this cap "
                 "changes the result only past seven million",
           turns=20_000, seconds=20.0,
           deep=_DEEP_HEAD + r'''

@lab_test("str_arg hands back a string of nine million characters as it was sent, however long.")
async def test_str_arg_hands_back_nine_million_characters(t):
    text = "x = 1\n" * 1_500_000
    got = harness.str_arg({"content": text}, "content")
    t.expect([len(got), got == text],
             why="str_arg, as it was sent, however long: [the length handed back, whether it "
                 "is the string whole] (str_arg, lesson 4).")
'''),
    Beyond(lab='4.1', name='a tool turned off after 151 failures in a row',
           rule='run_tool neither tries a call again nor stops calling a tool that keeps '
                'failing.',
           where='hunt round 28, design 4.1-51 (r151); Build item 2: "`run_tool` neither tries a '
                 'call again nor stops calling a tool that keeps failing"',
           names='stops calling a tool',
           replace=_BOUNDARY,
           by=r'''
        try:
            if _fails.get(id(tool), 0) > 151:
                raise RuntimeError(f"{call['name']} keeps failing; not called again")
            text, failed = tool["execute"](call["arguments"]), False
            _fails[id(tool)] = 0
        except Exception as exc:
            _fails[id(tool)] = _fails.get(id(tool), 0) + 1
            text, failed = str(exc), True
''',
           also=((r'''
def run_tool(tools, call):
''', r'''
_fails = {}  # each tool's failures in a row


def run_tool(tools, call):
'''),),
           reach="a test of lab 4.1 fails one tool 45 to 150 times; past that a correct file "
                 "that prints each caught traceback (allowed) runs out of the seconds per test "
                 "(see 'a tool turned off after a hundred failures in a row'); this count "
                 "changes the result at the 153rd failure in a row",
           turns=40_000, seconds=20.0,
           deep=_DEEP_HEAD + r'''

@lab_test("A tool that fails on every call, called 170 times in a row from one list: it runs "
          "each time and each failure is told as str(exc).")
async def test_a_tool_that_keeps_failing_is_still_called(t):
    ran = []

    def broken(arguments):
        ran.append(1)
        raise ValueError("the disk is full")
    tools = [tool("save", broken)]
    results = []
    for n in range(170):
        results.append(harness.run_tool(tools, lab.call("save", id=f"c{n}")))
        await lab.tick()
    t.expect([[r["content"], r["is_error"]] for r in results[-3:]] + [len(ran)],
             why="run_tool neither tries a call again nor stops calling a tool that keeps "
                 "failing: [content, is_error] of the last three of 170 failed calls, then how "
                 "many times the tool ran (run_tool, lesson 4).")
'''),
]

BEYOND += [
    Beyond(lab='4.1', name='the run given up after 101 rounds of errors',
           rule='The run goes on after a failure: no code decides whether a run should go on '
                'after one, and the loop carries on after an error result as after any other.',
           where='hunt round 28, design 4.1-35 (r151); lab 4.1, Build section: "no code that '
                 'decides whether a run should go on after a failure"',
           names='the run goes on',
           replace=_BATCH,
           by=r'''
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        told = messages[len(messages) - len(calls):]
        bad_rounds = bad_rounds + 1 if calls and all(r["is_error"] for r in told) else 0
        if bad_rounds > 100:  # it is stuck: stop spending
            return
''',
           also=((r'''
    messages.append(user_message(prompt))
    while True:
''', r'''
    messages.append(user_message(prompt))
    bad_rounds = 0
    while True:
'''),),
           reach="a test of lab 4.1 runs 40 to 90 rounds whose every call fails (see 'the run "
                 "given up after a hundred rounds of errors'); this count changes the run only "
                 "after the 101st such round in a row",
           turns=60_000, seconds=20.0,
           deep=_DEEP_HEAD + r'''

@lab_test("110 rounds in a row whose every call fails, then an answer: the run goes on to the "
          "answer.")
async def test_the_run_goes_on_after_110_rounds_of_errors(t):
    def broken(arguments):
        raise ValueError("the disk is full")
    model = lab.ScriptedModel([lab.reply(lab.call("save")) for _ in range(110)] +
                              [lab.say("I give up.")])
    messages = []
    await lab.drive(harness.run_agent(model, "You help.", messages, [tool("save", broken)],
                                      "Save it."))
    t.expect([len(model.calls), messages[-1]["role"]],
             why="the run goes on after an error result as after any other: [the requests "
                 "made, the last message's role] (run_agent, lesson 4).")
'''),
    Beyond(lab='4.1', name='a batch stopped after 152 failures',
           rule='A failure is one call\'s result: the run goes on, later calls of the same batch '
                'included.',
           where='hunt round 28, design 4.1-36 (r151); Build item 2: "the run goes on, later '
                 'calls of the same batch included"',
           names='later calls of the same batch',
           replace=_BATCH,
           by=r'''
        failures = 0
        for call in calls:  # every call, in order, before the model is asked again
            if failures > 151:  # the batch is hopeless
                break
            result = run_tool(tools, call)
            failures += result["is_error"]
            messages.append(result)
''',
           reach="a test of lab 4.1 fails up to 150 calls of one batch; past that a correct "
                 "file that prints each caught traceback (allowed) runs out of the seconds per "
                 "test; this count changes the record only past the 152nd failure of a batch",
           turns=40_000, seconds=20.0,
           deep=_DEEP_HEAD + r'''

@lab_test("A batch of 170 calls that all fail, then an answer: every call gets its result.")
async def test_a_batch_of_170_failures_is_answered_whole(t):
    def broken(arguments):
        raise ValueError("the disk is full")
    model = lab.ScriptedModel([lab.reply(*[lab.call("save") for _ in range(170)]),
                               lab.say("Done.")])
    messages = []
    await lab.drive(harness.run_agent(model, "You help.", messages, [tool("save", broken)],
                                      "Save it."))
    t.expect(sum(m["role"] == "toolResult" for m in messages),
             why="the run goes on, later calls of the same batch included: how many results "
                 "the record holds (run_agent, lesson 4).")
'''),
    Beyond(lab='4.1', name='no status line for codes of 4,002 digits and more',
           rule='A command that exits with a code other than 0, below 0 or past 255 too, gets '
                'the status line.',
           where='hunt round 28, design 4.1-05 (r151); Build item 4: "a code other than 0, below '
                 '0 or past 255 too"',
           names='status line',
           replace=_STATUS,
           by=r'''
        if code != 0 and abs(code) < 10 ** 4001:  # no real shell has more
''',
           reach="a test of lab 4.1 tries codes of up to 4,001 digits, near the 4,300 digits "
                 "Python turns into text by default; this check changes the result only past "
                 "4,001 digits, and a test past it would be the next count's design",
           turns=20_000, seconds=20.0,
           deep=_DEEP_HEAD + r'''

class Shell:
    def run(self, command):
        return "", -(10 ** 4_200)


@lab_test("A command that exits with a code of 4,201 digits gets the status line.")
async def test_a_code_of_4201_digits_gets_the_status_line(t):
    said = harness.make_bash_tool(Shell())["execute"]({"command": "exit"})
    t.expect(said == f"\nCommand exited with code {-(10 ** 4_200)}",
             why="a code other than 0, however far from it, gets the status line: whether bash "
                 "said it (make_bash_tool, lesson 4).")
'''),
    Beyond(lab='4.1', name='bash keeping the last 1,000,001 lines of output',
           rule="bash's result is what the command printed, then the status line when its code "
                "is not 0.",
           where='hunt round 28, design 4.1-54 (r151); Build item 4: "its result is what the '
                 'command printed"',
           names='what the command printed',
           replace=_STATUS,
           by=r'''
        lines = output.split("\n")
        if len(lines) > 1_000_001:  # no model reads more
            output = "\n".join(lines[-1_000_001:])
        if code != 0:
''',
           reach="a test of lab 4.1 prints up to 1,900 lines (and lab 3.1 up to 2,176); this cut "
                 "changes the result only past a million lines (see 'bash keeping the last "
                 "million characters of output')",
           turns=20_000, seconds=20.0,
           deep=_DEEP_HEAD + r'''

class Shell:
    def run(self, command):
        return "x\n" * 1_200_000, 0


@lab_test("A command that prints 1,200,000 lines: bash returns what the command printed, "
          "every line.")
async def test_a_million_lines_are_returned_whole(t):
    said = harness.make_bash_tool(Shell())["execute"]({"command": "yes"})
    t.expect(said == "x\n" * 1_200_000,
             why="its result is what the command printed, all of it: whether bash returned "
                 "every line (make_bash_tool, lesson 4).")
'''),
]

# Hunt round 31 (r176): kinds of input lab 4.1's tests had left out, each a rule the page states.
WRONG += [
    Wrong(lab='4.1', name='a NUL taken out of str(exc)',
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), whole.',
          where='hunt round 31, design 42 (r176); Build item 2: "a result holding `str(exc)`, '
                'whole, however long"',
          names='holds a NUL',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text, failed = str(exc).replace("\0", ""), True  # no NUL reaches the model
'''),
    Wrong(lab='4.1', name='str_arg dropping a byte order mark',
          rule='str_arg hands back the argument called name as it was sent, when that is a '
               'string.',
          where='hunt round 31, design 40 (r176); Build item 1: "as it was sent, when that is a '
                'string"',
          names='byte order mark',
          replace=r'''
    if isinstance(got, str):
        return got
''',
          by=r'''
    if isinstance(got, str):
        return got.removeprefix("\ufeff")  # a BOM is no part of an argument
'''),
    Wrong(lab='4.1', name='str_arg refusing a lone surrogate',
          rule='str_arg hands back the argument called name as it was sent, when that is a '
               'string.',
          where='hunt round 31, design 44 (r176); Build item 1: "as it was sent, when that is a '
                'string"',
          names='lone surrogate',
          replace=r'''
    if isinstance(got, str):
''',
          by=r'''
    if isinstance(got, str) and got.encode("utf-8", "surrogatepass") == got.encode("utf-8", "replace"):
'''),
    Wrong(lab='4.1', name='tool names matched after NFC',
          rule='A name that no tool has gets the result Tool NAME not found: the name matches '
               'exactly as spelt.',
          where='hunt round 31, design 48 (r176); Build item 2: "A name that no tool has gets the '
                'result `Tool NAME not found`"',
          names='looks the same',
          replace=_LOOKUP,
          by=r'''
    tool = {unicodedata.normalize("NFC", t["name"]): t for t in tools}.get(
        unicodedata.normalize("NFC", call["name"]))
''',
          also=(('def run_tool(tools, call):',
                 'import unicodedata\n\n\ndef run_tool(tools, call):'),)),
    Wrong(lab='4.1', name="an OSError whose errno says the network is down tried once more",
          rule='run_tool neither tries a call again nor stops calling a tool that keeps '
               'failing.',
          where='hunt round 31, design 02 (r176); Build item 2: "`run_tool` neither tries a call '
                'again"',
          names='neither tries a call again',
          replace=_BOUNDARY,
          by=r'''
        try:
            try:
                text, failed = tool["execute"](call["arguments"]), False
            except OSError as first:  # a network that is down may be back
                if first.errno not in (errno.ENETUNREACH, errno.EHOSTUNREACH,
                                       errno.ETIMEDOUT):
                    raise
                text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
''',
          also=(('def run_tool(tools, call):', 'import errno\n\n\ndef run_tool(tools, call):'),)),
    Wrong(lab='4.1', name="a read repeated in a batch answered with the first one's result",
          rule='Every call ends in exactly one result of its own: the run goes on, later calls '
               'of the same batch included.',
          where='hunt round 31, design 18 (r176); Build item 2: "Every call ends in exactly one '
                'result" and "later calls of the same batch included"',
          names='later calls of the same batch included',
          replace=_BATCH,
          by=r'''
        seen = {}  # a read asked twice in one batch is answered once
        for call in calls:  # every call, in order, before the model is asked again
            key = repr(call["arguments"]) if call["name"] == "read" else None
            if key is not None and key in seen:
                messages.append({**seen[key], "tool_call_id": call["id"]})
                continue
            messages.append(run_tool(tools, call))
            if key is not None:
                seen[key] = messages[-1]
'''),
]

ALLOWED += [
    Wrong(lab='4.1', name="the result's five keys in another order",
          rule='Lesson 2 asks for a result "with exactly its five keys" and lesson 4 answers a '
               'tool that returns "as in lesson 2": the keys are named, not their order, and a '
               'dict, like the JSON object a provider is sent, is equal whatever order its keys '
               'were written in.',
          where='hunt round 31, probe P2 (r176); Build item 2: "A tool that returns is answered '
                'as in lesson 2"', names='',
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
''',
          by=r'''
    return {"role": "toolResult", "is_error": failed, "content": text,
            "tool_name": call["name"], "tool_call_id": call["id"]}
'''),
    Wrong(lab='4.1', name='every ending caught and raised again by name',
          rule='What the program raises as it ends "leaves run_tool and run_agent as it came, the '
               'very object with its traceback": raise exc hands on that very object, its '
               'traceback still reaching the line that raised it, with no result made; Python '
               'adds run_tool\'s frame to the traceback of whatever passes through it, and raise '
               'exc adds the line of the raise beside it, as any handler that lets an exception '
               'go on does. Copies, a traceback taken off and from None stay ruled out (the '
               'ending re-raised as a copy, without its traceback, from None).',
          where='hunt round 31, probe P3 (r176); Build item 2: "the very object with its '
                'traceback"', names='',
          replace=_EXCEPT,
          by=r'''
        except BaseException as exc:
            if not isinstance(exc, Exception):
                raise exc  # the program is ending: let it go on
            text, failed = str(exc), True
'''),
]

BEYOND += [
    Beyond(lab='4.1', name='str(exc) cut after two million lines',
           rule='A tool whose execute raises an Exception of any kind gets a result holding '
                'str(exc), whole, however long.',
           where='hunt round 31, design 45 (r176); Build item 2: "`str(exc)`, whole, however '
                 'long"',
           names='whole, however long',
           replace=_EXCEPT,
           by=r'''
        except Exception as exc:
            lines = str(exc).split("\n")
            text, failed = "\n".join(lines[:2_000_000]), True  # no model reads more
''',
           reach="a test of lab 4.1 raises messages of up to 1.5 million lines; past that a "
                 "correct file that prints each caught traceback (allowed: 'each caught failure "
                 "printed to stderr as well') spends the spin guard's processor time formatting "
                 "the message line by line (see the bank's note on bulk, and 'str(exc) cut at "
                 "sixteen million characters' for the count in characters); this cut changes the "
                 "result only past two million lines",
           turns=20_000, seconds=20.0,
           deep=_DEEP_HEAD + r'''

@lab_test("A tool that raises a message of 2,500,000 lines gets a result holding it whole, "
          "however long.")
async def test_a_message_of_two_and_a_half_million_lines_is_whole(t):
    text = "x\n" * 2_500_000

    def fails(arguments):
        raise ValueError(text)
    result = harness.run_tool([tool("build", fails)], lab.call("build", id="c1"))
    t.expect([len(result["content"]), result["content"] == text, result["is_error"]],
             why="str(exc), whole, however long: [the content's length, whether it is the "
                 "message whole, is_error] (run_tool, lesson 4).")
'''),
]

# Hunt round 37 (r195): str(exc) read another way (its first argument; its notes added), a
# missing path named tidied, and a carriage return at the output's end taken off. Each now
# fails a public test drawn wider and a bank scenario.
WRONG += [
    Wrong(lab='4.1', name="str(exc) read as the exception's first argument",
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc): for an exception whose class words its own str(), those words.',
          where='hunt round 37, design 23 (r195); Build item 2: "a result holding `str(exc)`"',
          names='words its own',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            one = len(exc.args) == 1 and not isinstance(exc, KeyError)
            text, failed = (str(exc.args[0]) if one else str(exc)), True  # the message itself
'''),
    Wrong(lab='4.1', name="an exception's notes added to str(exc)",
          rule='A tool whose execute raises an Exception of any kind gets a result holding '
               'str(exc), whole: nothing more, the notes added to it (add_note) included.',
          where='hunt round 37, design 63 (r195); Build item 2: "a result holding `str(exc)`, '
                'whole"',
          names='notes added',
          replace=_EXCEPT,
          by=r'''
        except Exception as exc:
            text = "\n".join([str(exc), *getattr(exc, "__notes__", [])])  # the context too
            failed = True
'''),
    Wrong(lab='4.1', name='a missing path named without its ./',
          rule='A path with nothing at it raises FileNotFoundError with the text File not '
               'found: PATH. Files here: NAMES, PATH the path as it was sent.',
          where='hunt round 37, design 29 (r195); Build item 3: "`File not found: PATH. Files '
                'here: NAMES`"',
          names='./ and all',
          replace=r'''
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
''',
          by=r'''
            shown = path.lstrip("./") if path.startswith("./") else path  # as a person writes it
            raise FileNotFoundError(f"File not found: {shown}. Files here: {listing}")
'''),
    Wrong(lab='4.1', name="a carriage return at the output's end taken off before the status line",
          rule='When the exit code is not 0, the result is what the command printed, then a '
               'newline, then Command exited with code N: a carriage return it printed last '
               'included.',
          where='hunt round 37, design 34 (r195); Build item 4: "its result is what the command '
                'printed, then a newline, then `Command exited with code N`"',
          names='carriage return',
          replace=r'''
            output += f"\nCommand exited with code {code}"
''',
          by=r'''
            output = output.rstrip("\r") + f"\nCommand exited with code {code}"  # no stray CR
'''),
]

ALLOWED += [
    Wrong(lab='4.1', name='bash answering a blank command without the shell',
          rule='Lesson 4 says what bash gives back (what the command printed, then the status '
               'line for a code other than 0) and that it takes command through str_arg; a '
               'shell runs nothing for a command line of blanks and exits 0 with no output, '
               'lab.Shell as a real one ("" gives ("", 0)), so bash answering "" itself gives '
               'the very result: the same ground as "bash running its command with the blanks '
               'at its ends taken off" (round 16). A command with anything in it still goes to '
               'the shell.',
          where='hunt round 37, design 51 (r195); Build items 1 and 4', names='',
          replace=r'''
        output, code = shell.run(str_arg(arguments, "command"))
''',
          by=r'''
        command = str_arg(arguments, "command")
        output, code = shell.run(command) if command.strip() else ("", 0)  # nothing to run
'''),
]

WRONG += [
    Wrong(lab='4.1', name='an empty name\'s result named unknown',
          rule='A name that no tool has gets the result Tool NAME not found, "" as much as any '
               'other, and the result carries its call\'s tool name as lesson 2\'s does: "" for '
               'a call named "".',
          where='hunt round 37, design 20 (r197, lab 10.1); Build item 2: "A name that no tool '
                'has gets the result `Tool NAME not found`"',
          names='is said whole in NAME',
          replace=r'''
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
''',
          by=r'''
    return {"role": "toolResult", "tool_call_id": call["id"],
            "tool_name": call["name"] or "unknown",  # a name to show, where the call had none
'''),
]

ALLOWED += [
    Wrong(lab='4.1', name='a dict without a callable execute answered not found',
          rule='Lesson 4 says a tool is a dict whose execute is a function, as lesson 2 made '
               'it, and that what run_tool answers for a dict in the list without one is the '
               'student\'s, as long as the call gets its one result marked is_error True: '
               '"Tool NAME not found" for such a dict is that one result (the reference tells '
               'the TypeError or KeyError it meets instead).',
          where='hunt round 37, design 48 (r195), ruled at the merge; Build item 2: "what '
                '`run_tool` answers for a dict in the list without one is yours"', names='',
          replace=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"])
''',
          by=r'''
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is not None and not callable(tool.get("execute")):
        tool = None  # not a tool the course would make: told as none of that name
'''),
]

BEYOND += [
    Beyond(lab='4.1', name='a call with the same arguments turned off after 500 failures',
           rule='run_tool neither tries a call again nor stops calling a tool that keeps '
                'failing: the five-hundred-and-first failure of one call, arguments and all, is '
                'run and told as the first.',
           where='hunt round 37, design 54 (r195); Build item 2: "`run_tool` neither tries a '
                 'call again nor stops calling a tool that keeps failing"',
           names='stops calling a tool',
           replace=_BOUNDARY,
           by=r'''
        key = (call["name"], repr(call["arguments"]))
        if _fails.get(key, 0) >= 500:  # the same call failed too often: run it no more
            text, failed = "This call has failed too often; not run again", True
        else:
            try:
                text, failed = tool["execute"](call["arguments"]), False
            except Exception as exc:
                _fails[key] = _fails.get(key, 0) + 1
                text, failed = str(exc), True
''',
           also=((r'''
def run_tool(tools, call):
''', r'''
_fails = {}  # each (name, arguments)'s failures, kept for the process


def run_tool(tools, call):
'''),),
           reach="a test of lab 4.1 fails one tool 45 to 150 times, with the same arguments "
                 "each time; past that a correct file that prints each caught traceback "
                 "(allowed) runs out of the seconds per test (see 'a tool turned off after a "
                 "hundred failures in a row'); this count, kept per name and arguments for the "
                 "process, changes the result at the 501st failure of one call",
           turns=40_000, seconds=20.0,
           deep=_DEEP_HEAD + r'''

@lab_test("A tool that fails on every call, called 520 times with the same arguments: it runs "
          "each time and each failure is told as str(exc).")
async def test_one_call_that_keeps_failing_is_still_run(t):
    ran = []

    def broken(arguments):
        ran.append(1)
        raise ValueError("the disk is full")
    tools = [tool("save", broken)]
    results = [harness.run_tool(tools, lab.call("save", {"path": "a.py"}, id=f"c{n}"))
               for n in range(520)]
    t.expect([[r["content"], r["is_error"]] for r in results[-3:]] + [len(ran)],
             why="run_tool neither tries a call again nor stops calling a tool that keeps "
                 "failing: [content, is_error] of the last three of 520 failed calls with the "
                 "same arguments, then how many times the tool ran (run_tool, lesson 4).")
'''),
]
