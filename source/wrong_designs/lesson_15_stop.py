"""Lesson 15's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
the reference of the lab whose gap holds the code: the flag, the loop, run_tool's check and
bash are lab 15.1's; run_tool's CancelledError clause and stop_run are lab 15.2's.
"""
from tools.wrong_designs import Beyond, Wrong

WRONG = [
    # Hunt round 10 (reader r44), probe 15.1-16.
    Wrong(lab='15.1', name='bash killing every command of its shell on Stop',
          rule='bash kills its own command and nothing else: a command another call started on the same shell, another harness\'s included, is not its to end.',
          where='lab 15.1, Build section, item 5: "bash kills its own command and nothing else"',
          names='kills its own command and nothing else',
          replace=r'''
        finally:
            process.kill()  # on every way out, a hard cancel's too; harmless once it is done
''',
          by=r'''
        finally:
            process.kill()  # on every way out, a hard cancel's too; harmless once it is done
            if signal is not None and signal.is_cancelled():
                for other in shell.running():  # whatever else the shell runs goes too
                    other.kill()
'''),
    # Hunt round 10 (reader r44), probe 15.1-27.
    Wrong(lab='15.1', name='the view leaving out an ending that holds a call and no words',
          rule='Empty means no content at all: a failed or stopped reply that got a call out, with no words, stays in the view, its call answered there as any call with no result is.',
          where='lab 15.1, Build section, item 4: "Empty means no content at all"',
          names='Empty means no content at all',
          replace=r'''
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
''',
          by=r'''
    kept = [message for message in messages
            if message["role"] != "assistant" or text_of(message)  # words, not calls
'''),
    Wrong(lab='15.1', name='believing setting a flag stops anything, or that the stop lands at the next await',
          rule='A flag stops only code that looks at it: bash must poll the signal on every turn while its command runs.',
          where='prediction "Stop, in the middle of things" (a build tool that awaits sleep inf); the hard_of_hearing cell',
          names='look at the signal',
          replace=r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''',
          by=r'''
                pass  # the await below is where a Stop lands
'''),
    Wrong(lab='15.1', name='killing the command only on the path that saw the flag',
          rule="However bash's execute is left, its command must not keep running: the kill goes in a finally around the poll loop.",
          where="Build: ask the run to stop (every way out of bash's execute must leave the command dead); Build: insist",
          names='kill it in a finally',
          replace='        process = shell.start(str_arg(arguments, "command"))',
          by=r'''
        process = shell.start(str_arg(arguments, "command"))
        while not process.done():  # no try: the kill is on the branch that saw the flag
            if signal is not None and signal.is_cancelled():
                process.kill()
                return "Command cancelled"
            await asyncio.sleep(0)
'''),
    # The design's own loop goes in front of the reference's, which then finds the command done
    # and does nothing: quoting the reference's loop here would copy a run of the seed's code.
    Wrong(lab='15.1', name='skipping the rest of a batch without results',
          rule='Every call is answered by exactly one result, even after Stop: skipped calls are answered Operation aborted.',
          where='prediction "Stop, in the middle of things" (they are dropped and the run ends)',
          names='each call still gets one result',
          replace=r'''
            for call in todo:
                yield {"type": "tool_execution_start", "call": call}
                result = await run_tool(tools, call, signal)
''',
          by=r'''
            for call in todo:
                if signal is not None and signal.is_cancelled():
                    break  # stopped: nobody ran the rest, so there is nothing to report
                yield {"type": "tool_execution_start", "call": call}
                result = await run_tool(tools, call, signal)
'''),
    Wrong(lab='15.1', name="checking only at the loop's top",
          rule='run_tool looks at the signal before each call: after Stop, the calls left in a batch do not run, and each is answered Operation aborted.',
          where='prediction "Stop, in the middle of things" (they run anyway); CURRICULUM lesson 15',
          names='never run',
          replace=r'''
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
    elif tool is None:
''',
          by='    if tool is None:'),
    Wrong(lab='15.1', name='looking at the flag before announcing a call, not before running it',
          rule='run_tool looks at the signal right before it runs a tool: a Stop pressed after tool_execution_start, between a call and its result, still keeps that tool from running.',
          where='Build: ask the run to stop (run_tool: when the signal is set, skip the tool); prediction "So somebody has to read the flag" (in run_tool, before it runs a tool)',
          names='run_tool before each call',
          replace=r'''
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
    elif tool is None:
''',
          by='    if tool is None:',
          also=((r'''
            for call in todo:
                yield {"type": "tool_execution_start", "call": call}
                result = await run_tool(tools, call, signal)
''', r'''
            for call in todo:
                stopped = signal is not None and signal.is_cancelled()  # looked at before announcing
                yield {"type": "tool_execution_start", "call": call}
                result = ({"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                           "content": ABORTED, "is_error": True} if stopped
                          else await run_tool(tools, call, signal))
'''),)),
    Wrong(lab='15.1', name='Stop before max_turns at the top of a turn',
          rule='The max_turns ending keeps precedence: the top of a turn looks at max_turns first and at the signal second.',
          where='Build: ask the run to stop (straight after the max_turns branch, consult the signal); Figure 15.1',
          names='max_turns first',
          replace=r'''
            if max_turns is not None and turn > max_turns:
                reply = error_message(f"Agent stopped after max_turns={max_turns}")
            elif signal is not None and signal.is_cancelled():
                reply = error_message(ABORTED, stop_reason="aborted")  # and no paid request
''',
          by=r'''
            if signal is not None and signal.is_cancelled():
                reply = error_message(ABORTED, stop_reason="aborted")  # the user asked first
            elif max_turns is not None and turn > max_turns:
                reply = error_message(f"Agent stopped after max_turns={max_turns}")
'''),
    Wrong(lab='15.1', name='paying for a request after Stop',
          rule='At the top of a turn a cancelled signal ends the run with an aborted message, and the model is not called.',
          where='section "Stop, in the middle of things" (only one request ever reached the model)',
          names='no further request is sent',
          replace=r'''
            elif signal is not None and signal.is_cancelled():
                reply = error_message(ABORTED, stop_reason="aborted")  # and no paid request
            else:
''',
          by='            else:'),
    Wrong(lab='15.1', name="one token for the harness's whole life",
          rule='Every run gets a fresh token: a Stop in one run never carries into the next.',
          where='Build: ask the run to stop (the Harness); CURRICULUM lesson 15',
          names='never carries into the next',
          replace=r'''
        self._signal, run = CancelToken(), self._run(text)  # one line: one beginning
''',
          by=r'''
        run = self._run(text)  # the token made in __init__ serves every run
'''),
    Wrong(lab='15.1', name="creating the token at the first step (Tau's gap)",
          rule="prompt() makes the run's token on the line that starts the run, so a Stop pressed before the first step still counts.",
          where='section "Your code beside Tau\'s"; the cell with a Stop before the first step',
          names='zero model calls',
          replace=r'''
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
''',
          by=r'''
        self._signal = CancelToken()  # a fresh token as the run takes its first step
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
'''),
    Wrong(lab='15.1', name='raising from cancel() when idle',
          rule='cancel() with nothing running is a harmless no-op: the user cannot see the instant a run ends.',
          where='Build: ask the run to stop (cancel() is harmless when idle); CURRICULUM lesson 15',
          names='harmless no-op',
          replace=r'''
        self._messages = list(messages)

    def cancel(self):
''',
          by=r'''
        self._messages = list(messages)

    def cancel(self):
        if not self.is_running:
            raise RuntimeError("nothing is running to stop")
'''),
    # anchored on the line before cancel's body: the end of replace_messages and cancel's def
    Wrong(lab='15.1', name='sending the empty aborted message',
          rule='The view leaves an empty aborted message out of the request, as it leaves out an empty failed one; the record keeps it.',
          where='Build: ask the run to stop (context_for_model)',
          names='minus the empty aborted message',
          replace=r'''
    endings = ("error", "aborted")  # empty endings a provider would refuse
''',
          by=r'''
    endings = ("error",)  # the empty ending a provider would refuse
'''),
    Wrong(lab='15.1', name='asking for more after a stopped reply',
          rule='A stopped reply ends the run like a failed one: nobody is asked for steering or follow-ups after it.',
          where="Build: ask the run to stop (run_agent: failed now means error or aborted); lesson 9's rule",
          names='stopped run never sees it',
          replace=r'''
            failed = reply["stop_reason"] in ("error", "aborted")
''',
          by='            failed = reply["stop_reason"] == "error"'),
    Wrong(lab='15.1', name='error_message ignoring its label',
          rule='error_message(text, stop_reason="aborted") makes the same message with that label.',
          where='lab 15.1, Build section: "`ABORTED` and `error_message`"',
          names='label',
          replace=r'''
    return {"role": "assistant", "content": [], "stop_reason": stop_reason, "error_message": text}
''',
          by=r'''
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
'''),
    Wrong(lab='15.1', name='a token that forgets it was cancelled once read',
          rule='After cancel() a token is cancelled, and it stays so.',
          where='lab 15.1, Build section: "`CancelToken`"',
          names='stays cancelled',
          replace=r'''
    def is_cancelled(self):
        return self._cancelled
''',
          by=r'''
    def is_cancelled(self):
        was, self._cancelled = self._cancelled, False
        return was
'''),
    Wrong(lab='15.1', name='the tool looked up before the Stop',
          rule='A call that comes up after Stop gets ABORTED, whatever tool it names: the signal is looked at before the tool is looked up.',
          where='lab 15.1, Build section: "`run_tool` and bash"',
          names='before it looks the tool up',
          replace=r'''
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
    elif tool is None:
        text, failed = f"Tool {call['name']} not found", True
''',
          by=r'''
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    elif signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
'''),
    Wrong(lab='15.1', name='bash giving up on a command after a hundred turns',
          rule='A command that takes a while is waited for, however many turns: only Stop ends it early.',
          where='lab 15.1, Build section: "`run_tool` and bash"',
          names='however many',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
            waited = 0
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                waited += 1
                if waited > 100:
                    return "Command timed out"
                await asyncio.sleep(0)
'''),
    # The designs below were found by a reader who held only the release (issue 38, round 4).
    Wrong(lab='15.1', name='one token cleared at each prompt',
          rule='Each run has a token of its own: a token kept from one run is never set, or cleared, by another run.',
          where='lab 15.1, Build section: "Each run has a token of its own, and `run_agent` receives it as its `signal`"',
          names='a token of its own',
          replace=r'''
        self._signal, run = CancelToken(), self._run(text)  # one line: one beginning
''',
          by=r'''
        self._signal._cancelled = False  # the harness's one token, cleared for the new run
        run = self._run(text)
'''),
    Wrong(lab='15.1', name='the harness itself passed as the signal',
          rule='Each run has a token of its own, and run_agent receives it as its signal: not an object that reads whichever token is current.',
          where='lab 15.1, Build section: "Each run has a token of its own, and `run_agent` receives it as its `signal`"',
          names='a token of its own',
          replace=r'''
                        signal=self._signal)
''',
          by=r'''
                        signal=self)  # the harness answers is_cancelled() for the run
''',
          also=((r'''
    def cancel(self):
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
''', r'''
    def cancel(self):
        self._signal.cancel()  # when idle, the token of a run that is over: no effect

    def is_cancelled(self):
        return self._signal.is_cancelled()
'''),)),
    Wrong(lab='15.1', name='a new token only after the old one was cancelled',
          rule='Each run has a token of its own, stopped or not: runs never stopped do not share one.',
          where='lab 15.1, Build section: "Each run has a token of its own, and `run_agent` receives it as its `signal`"',
          names='a token of its own',
          replace=r'''
        self._signal, run = CancelToken(), self._run(text)  # one line: one beginning
''',
          by=r'''
        if self._signal.is_cancelled():  # only a spent token is replaced
            self._signal = CancelToken()
        run = self._run(text)
'''),
    Wrong(lab='15.1', name='bash giving up on a command after 2000 turns',
          rule='bash has no timeout of its own: a command of thousands of turns is waited for too.',
          where='lab 15.1, Build section: "bash has no timeout of its own"',
          names='however many',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
            waited = 0
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                waited += 1
                if waited > 2000:  # a safety net: nothing takes that long
                    return "Command timed out"
                await asyncio.sleep(0)
'''),
    Wrong(lab='15.1', name='Command cancelled glued to a partial last line',
          rule="The call's result ends with the line Command cancelled, a line of its own even after a partial line.",
          where='lab 15.1, Build section: "the call\'s result ends with the line `Command cancelled`"',
          names='a line of its own',
          replace=r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
                if signal is not None and signal.is_cancelled():
                    process.kill()
                    return process.output()[0] + "Command cancelled"  # after what it printed
                await asyncio.sleep(0)
'''),
    Wrong(lab='15.1', name='the kill in except CancelledError, not in a finally',
          rule="However bash's execute is left, the command is not left running: a coroutine closed unfinished leaves by GeneratorExit, which only a finally sees.",
          where='lab 15.1, Build section: "the command is not left running"',
          names='GeneratorExit',
          replace=r'''
        finally:
            process.kill()  # on every way out, a hard cancel's too; harmless once it is done
''',
          by=r'''
        except asyncio.CancelledError:  # the task is being stopped: take the command with it
            process.kill()
            raise
'''),
    Wrong(lab='15.1', name='the view dropping every aborted message',
          rule='Only an empty aborted message leaves the view, as only an empty failed one does: one that got words out stays.',
          where='lab 15.1, Build section: "as it already leaves out an empty `error` one"',
          names='Only an empty aborted message',
          replace=r'''
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
''',
          by=r'''
            if message.get("stop_reason") != "aborted"  # a stopped reply is never sent again
            and (message["content"] or message["role"] != "assistant"
                 or message.get("stop_reason") not in endings)]
'''),
    Wrong(lab='15.1', name='only a CancelToken heard as a signal',
          rule='Any object with is_cancelled() can serve as a signal, not only a CancelToken.',
          where="the CancelToken docstring given in lab 15.1's starter (any object with is_cancelled() can serve as a signal)",
          names='Any object with is_cancelled() can serve as a signal',
          replace=r'''
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
''',
          by=r'''
    if isinstance(signal, CancelToken) and signal.is_cancelled():
        text, failed = ABORTED, True
''',
          also=((r'''
            elif signal is not None and signal.is_cancelled():
''', r'''
            elif isinstance(signal, CancelToken) and signal.is_cancelled():
'''),)),
    Wrong(lab='15.1', name='a signal taken for true or false',
          rule='Any object with is_cancelled() can serve as a signal, and only None means there is none: a set signal whose class counts it as false still stops the run.',
          where='lab 15.1, Build section: "a signal is asked, never taken for true or false, since an object of somebody else\'s class may count as false and still be set"',
          names='never taken for true or false',
          replace=r'''
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
''',
          by=r'''
    if signal and signal.is_cancelled():
        text, failed = ABORTED, True
''',
          also=((r'''
            elif signal is not None and signal.is_cancelled():
''', r'''
            elif signal and signal.is_cancelled():
'''), (r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''', r'''
                if signal and signal.is_cancelled():
                    return "Command cancelled"
'''))),
    # Hunt round 10 (reader r44), probe 15.1-14.
    Wrong(lab='15.1', name='is_cancelled() heard only when it answers True itself',
          rule="is_cancelled()'s answer is read as a condition, as any if reads one: a frontend's flag that answers 1 is set.",
          where='lab 15.1, Build section: "its answer is read as a condition, as any `if` reads one"',
          names='read as a condition',
          replace=r'''
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
''',
          by=r'''
    if signal is not None and signal.is_cancelled() is True:
        text, failed = ABORTED, True
''',
          also=((r'''
            elif signal is not None and signal.is_cancelled():
''', r'''
            elif signal is not None and signal.is_cancelled() is True:
'''), (r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''', r'''
                if signal is not None and signal.is_cancelled() is True:
                    return "Command cancelled"
'''))),
    Wrong(lab='15.1', name='run_tool leaving out a signal of None',
          rule="A tool that runs is handed the signal as execute's second argument, None included: with no signal, run_tool still calls execute(arguments, None).",
          where='lab 15.1, Build section: "`None` included: with no signal, `run_tool` still calls `execute(arguments, None)`"',
          names='None included',
          replace=r'''
            text, failed = await tool["execute"](call["arguments"], signal), False
''',
          by=r'''
            if signal is None:  # nothing to hand on: call it the way lesson 4 did
                text, failed = await tool["execute"](call["arguments"]), False
            else:
                text, failed = await tool["execute"](call["arguments"], signal), False
'''),
    Wrong(lab='15.1', name='the signal passed by keyword',
          rule="The signal goes by position: acomplete's fourth argument and execute's second, whatever the parameter is called.",
          where='lab 15.1, Build section: "as `acomplete`\'s fourth argument", "receives the signal as `execute`\'s second argument"',
          names='The signal goes by position',
          replace=r'''
            text, failed = await tool["execute"](call["arguments"], signal), False
''',
          by=r'''
            text, failed = await tool["execute"](call["arguments"], signal=signal), False
''',
          also=((r'''
                                              tool_specs(tools), signal)
''', r'''
                                              tool_specs(tools), signal=signal)
'''),)),
    Wrong(lab='15.1', name='a stopped reply told by its error_message',
          rule='A reply is told by its stop_reason label: one labelled aborted is not acted on, whatever its error_message says.',
          where='lab 15.1, Build section: "its reply comes back labelled `aborted`: nothing in such a reply is acted on"',
          names='told by its stop_reason label',
          replace=r'''
            failed = reply["stop_reason"] in ("error", "aborted")
''',
          by=r'''
            failed = (reply["stop_reason"] == "error"
                      or reply.get("error_message") == ABORTED)  # the stopped reply's words
'''),
    # The designs below were found by a reader who held only the release (issue 38, round 9).
    Wrong(lab='15.1', name='bash looking at the flag on every sixth lap',
          rule='bash hears Stop wherever it falls: no more than five event-loop turns after h.cancel(), the command is dead and the run is over.',
          where='lab 15.1, Build section: "no more than five event-loop turns after `h.cancel()`"',
          names='within five turns of h.cancel()',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
            laps = 0
            while not process.done():
                if laps % 6 == 5 and signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                laps += 1  # the flag is read on every 6th lap only: cheaper, and Stop still lands
                await asyncio.sleep(0)
'''),
    Wrong(lab='15.1', name='bash looking at the flag on every tenth lap',
          rule='bash hears Stop wherever it falls: no more than five event-loop turns after h.cancel(), the command is dead and the run is over.',
          where='lab 15.1, Build section: "no more than five event-loop turns after `h.cancel()`"',
          names='within five turns of h.cancel()',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
            laps = 0
            while not process.done():
                if laps % 10 == 9 and signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                laps += 1  # the flag is read on every 10th lap only: cheaper, and Stop still lands
                await asyncio.sleep(0)
'''),
    Wrong(lab='15.1', name='bash looking at the flag on every 21st lap',
          rule='bash hears Stop wherever it falls: no more than five event-loop turns after h.cancel(), the command is dead and the run is over.',
          where='lab 15.1, Build section: "no more than five event-loop turns after `h.cancel()`"',
          names='within five turns of h.cancel()',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
            laps = 0
            while not process.done():
                if laps % 21 == 20 and signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                laps += 1  # the flag is read on every 21th lap only: cheaper, and Stop still lands
                await asyncio.sleep(0)
'''),
    Wrong(lab='15.1', name='bash giving up on a command after 5000 turns',
          rule='bash has no timeout of its own: a command of thousands of turns is waited for too.',
          where='lab 15.1, Build section: "bash has no timeout of its own, and only Stop ends a command early"',
          names='however many',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
            laps = 0
            while not process.done():
                if (signal is not None and signal.is_cancelled()) or laps >= 5000:
                    return "Command cancelled"  # nobody waits five thousand turns
                laps += 1
                await asyncio.sleep(0)
'''),
    Wrong(lab='15.1', name='bash with no signal awaiting its command unwatched',
          rule="However bash's execute is left (an answer, a Stop, or its task being cancelled from outside), the command is not left running, with a signal or without one.",
          where='lab 15.1, Build section, item 5: "However bash\'s `execute` is left (an answer, a Stop, or its task being cancelled from outside), the command is not left running"',
          names='However bash',
          replace=r'''
        process = shell.start(str_arg(arguments, "command"))
        try:
''',
          by=r'''
        if signal is None:  # nobody can press Stop: just wait, as lesson 6 did
            output, code = await shell.arun(str_arg(arguments, "command"))
            return output if code == 0 else f"{output}\nCommand exited with code {code}"
        process = shell.start(str_arg(arguments, "command"))
        try:
'''),
    Wrong(lab='15.1', name='a stopped command returning all it printed, uncut',
          rule="Whatever of its output a stopped command's result keeps is cut to bash's budget, as every bash result is.",
          where="bash's description (lesson 6: cut to the last {max_lines} lines or {max_bytes} bytes); lab 15.1, Build section",
          names='cut like any other',
          replace=r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''',
          by=r'''
                if signal is not None and signal.is_cancelled():
                    process.kill()
                    printed, _ = process.output()  # all of it: the cut is for commands that end
                    return printed + ("\n" if printed and not printed.endswith("\n") else "") + "Command cancelled"
'''),
    Wrong(lab='15.1', name='a token made before the refusal of a second prompt',
          rule="h.cancel() at any moment after prompt() has returned stops that run: a prompt refused while it runs changes nothing, its token included.",
          where='lab 15.1, Build section, item 3 ("Each run has a token of its own"; "`h.cancel()` at any moment after `prompt()` has returned stops that run")',
          names='refused',
          replace=r'''
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        self._signal, run = CancelToken(), self._run(text)  # one line: one beginning
''',
          by=r'''
        self._signal = CancelToken()  # a fresh token for whatever comes next
        if self.is_running:
            raise RuntimeError("already running; use steer() or follow_up()")
        run = self._run(text)
'''),
    Wrong(lab='15.1', name='a wrapper handed to run_agent in place of the token',
          rule='Each run has a token of its own, and run_agent receives it as its signal: the CancelToken itself, not an object that asks it.',
          where='lab 15.1, Build section, item 3 ("Each run has a token of its own, and `run_agent` receives it as its `signal`")',
          names='receives it as its signal',
          replace=r'''
                        signal=self._signal)
''',
          by=r'''
                        signal=types.SimpleNamespace(is_cancelled=self._signal.is_cancelled))
''',
          also=(('import asyncio', 'import asyncio\nimport types'),)),
    Wrong(lab='15.1', name='an idle cancel() emptying the queues',
          rule='h.cancel() with no run going does nothing, raises nothing, and leaves the next run to run as usual: what was queued stays queued.',
          where='lab 15.1, Build section, item 3 ("`h.cancel()` with no run going does nothing")',
          names='does nothing',
          replace=r'''
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
''',
          by=r'''
        self._signal.cancel()
        if not self.is_running:  # nothing to stop: forget what was asked instead
            self._steering_queue.clear()
            self._follow_up_queue.clear()
'''),
    Wrong(lab='15.1', name='a turn opened by a follow-up not looking at the flag',
          rule='Once the signal is set, the run sends no more requests, whatever opened the turn.',
          where='lab 15.1, Build section, item 4 ("Once the signal is set, the run sends no more requests")',
          names='no more requests',
          replace=r'''
            elif signal is not None and signal.is_cancelled():
                reply = error_message(ABORTED, stop_reason="aborted")  # and no paid request
''',
          by=r'''
            elif signal is not None and signal.is_cancelled() and turn not in asked_again:
                reply = error_message(ABORTED, stop_reason="aborted")  # the user asked again: answer
''',
          also=((r'''
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
''', r'''
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
            asked_again = {turn + 1} if pending else set()
'''), (r'''
    turn, todo, failed = 0, [], False
''', r'''
    turn, todo, failed, asked_again = 0, [], False, set()
'''))),
    Wrong(lab='15.1', name='a request opened by a follow-up sent without the signal',
          rule="Every request that does go out carries the signal, as acomplete's fourth argument, whatever opened its turn.",
          where='lab 15.1, Build section, item 4 ("Every request that does go out carries the signal")',
          names="carries the run's token",
          replace=r'''
                                              tool_specs(tools), signal)
''',
          by=r'''
                                              tool_specs(tools), None if turn in asked_again else signal)
''',
          also=((r'''
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
''', r'''
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
            asked_again = {turn + 1} if pending else set()
'''), (r'''
    turn, todo, failed = 0, [], False
''', r'''
    turn, todo, failed, asked_again = 0, [], False, set()
'''))),
    Wrong(lab='15.1', name="a stopped reply's error_message rewritten to ABORTED",
          rule='The record keeps what happened: a reply that comes back aborted is recorded as its provider wrote it.',
          where='lab 15.1, Build section, item 4 ("The aborted message stays on the record"); lesson 10 (the record says what happened, only the view is cleaned)',
          names='as its provider wrote it',
          replace=r'''
            yield record(reply)
            failed = reply["stop_reason"] in ("error", "aborted")
''',
          by=r'''
            if reply["stop_reason"] == "aborted":
                reply["error_message"] = ABORTED  # one wording for every stop
            yield record(reply)
            failed = reply["stop_reason"] in ("error", "aborted")
'''),
    Wrong(lab='15.1', name='one aborted ending shared by every stopped run',
          rule="Each call of error_message makes a new message, the aborted ending too, so that no ending shares anything with another.",
          where="lab 5.1, Build section, item 1 (each call makes a new message, and no ending shares anything with another); lab 15.1, item 1 (\"makes the same message with that label\")",
          names='shares anything',
          replace=r'''
                reply = error_message(ABORTED, stop_reason="aborted")  # and no paid request
''',
          by=r'''
                reply = STOPPED  # one ending, made once
''',
          also=((r'''
ABORTED = "Operation aborted"  # what a stopped run says, for each call it skipped and at its end
''', r'''
ABORTED = "Operation aborted"  # what a stopped run says, for each call it skipped and at its end
STOPPED = error_message(ABORTED, stop_reason="aborted")
'''),)),
    # Round 10 (r44): ten more designs of lab 15.1 that passed its tests.
    Wrong(lab='15.1', name='a stopped command keeping its output cut by lines only',
          rule="Whatever of its output a stopped command's result keeps is cut to bash's budget like any output: its last max_lines lines or max_bytes bytes, both.",
          where='lab 15.1, Build section, item 5: "nothing, or what the command printed before Stop, cut to bash\'s budget like any output"; bash\'s description (lesson 6)',
          names='within both budgets',
          replace=r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''',
          by=r'''
                if signal is not None and signal.is_cancelled():
                    process.kill()
                    printed, _ = truncate_tail(process.output()[0], max_lines, 10 ** 12)  # lines only
                    if printed and not printed.endswith("\n"):
                        printed += "\n"
                    return printed + "Command cancelled"
'''),
    Wrong(lab='15.1', name='a stopped command keeping the beginning of its output',
          rule="Whatever of its output a stopped command's result keeps is cut like any bash output: the end of it, whose verdict is printed last.",
          where='lab 15.1, Build section, item 5: "cut to bash\'s budget like any output"; bash\'s description (lesson 6: cut to the last {max_lines} lines or {max_bytes} bytes)',
          names='the end of the output',
          replace=r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''',
          by=r'''
                if signal is not None and signal.is_cancelled():
                    process.kill()
                    printed, _ = truncate_head(process.output()[0], max_lines, max_bytes)  # the top
                    if printed and not printed.endswith("\n"):
                        printed += "\n"
                    return printed + "Command cancelled"
'''),
    Wrong(lab='15.1', name='bash giving up on a command after 9000 turns',
          rule='bash has no timeout of its own: a command of over nine thousand turns is waited for too.',
          where='lab 15.1, Build section, item 5: "bash has no timeout of its own, and only Stop ends a command early"',
          names='however many',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
            laps = 0
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                laps += 1
                if laps > 9000:  # nobody waits nine thousand turns
                    return "Command timed out"
                await asyncio.sleep(0)
'''),
    Wrong(lab='15.1', name='bash keeping the first signal it was handed',
          rule='A stop in one run never carries into the next, whose tools run as usual: each call looks at the signal it is handed, the run\'s own.',
          where='lab 15.1, Build section, item 3 ("Each run has a token of its own") and item 5 (a tool that runs receives the signal); the tests in plain words',
          names='never carries into the',
          replace=r'''
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
''',
          by=r'''
    kept = []  # the first signal this bash was handed

    async def execute(arguments, signal=None):
        if signal is not None and not kept:
            kept.append(signal)
        signal = kept[0] if kept else signal  # polled for ever after
        process = shell.start(str_arg(arguments, "command"))
'''),
    Wrong(lab='15.1', name='the view leaving out only an empty aborted message worded ABORTED',
          rule='An empty "aborted" ending is refused by a provider just as an empty "error" one is: the view leaves out both, whoever worded it.',
          where='lab 15.1, Build section, item 4 ("the next request leaves it out, as it already leaves out an empty `error` one"); gap 8',
          names='whoever worded it',
          replace=r'''
    endings = ("error", "aborted")  # empty endings a provider would refuse
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
''',
          by=r'''
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or (message.get("stop_reason") != "error"  # our own Stop only, told by its words
                and not (message.get("stop_reason") == "aborted"
                         and message.get("error_message") == ABORTED))]
'''),
    Wrong(lab='15.1', name='the current token kept on the Harness class',
          rule='h.cancel() with no run going does nothing: each harness keeps its own runs\' tokens, so an idle harness\'s Stop reaches no other harness\'s run.',
          where='lab 15.1, Build section, item 3 ("`h.cancel()` with no run going does nothing"; "Each run has a token of its own")',
          names='each harness keeps its own',
          replace=r'''
        self._signal = CancelToken()  # so that cancel() always has something to set
''',
          by=r'''
        Harness._signal = CancelToken()  # one current token for every harness
''',
          also=((r'''
        self._signal, run = CancelToken(), self._run(text)  # one line: one beginning
''', r'''
        Harness._signal = CancelToken()
        run = self._run(text)
'''), (r'''
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
''', r'''
        Harness._signal.cancel()
'''), (r'''
                        signal=self._signal)
''', r'''
                        signal=Harness._signal)
'''))),
    Wrong(lab='15.1', name='error_message labelling ABORTED aborted by its words',
          rule='error_message(text) still makes lesson 5\'s error ending, unchanged, whatever its text: only stop_reason= makes another label.',
          where='lab 15.1, Build section, item 1 ("`error_message(text)` still makes lesson 5\'s `error` ending, unchanged")',
          names="whatever its text, ABORTED's too",
          replace=r'''
    return {"role": "assistant", "content": [], "stop_reason": stop_reason, "error_message": text}
''',
          by=r'''
    if text == ABORTED:  # the stop sentence labels itself
        stop_reason = "aborted"
    return {"role": "assistant", "content": [], "stop_reason": stop_reason, "error_message": text}
'''),
    Wrong(lab='15.1', name='an empty aborted reply recorded as the harness\'s own ending',
          rule='The aborted message stays on the record as it came: an empty reply labelled aborted keeps its provider\'s words.',
          where='lab 15.1, Build section, item 4 ("The aborted message stays on the record"); the tests in plain words: a reply its provider worded its own way is recorded as it came',
          names='recorded as it came',
          replace=r'''
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools), signal)
''',
          by=r'''
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools), signal)
                if reply["stop_reason"] == "aborted" and not reply["content"]:
                    reply = error_message(ABORTED, stop_reason="aborted")  # one wording for every Stop
'''),
    Wrong(lab='15.1', name='a read still run after Stop',
          rule='A call that comes up after Stop still gets its one result, ABORTED with is_error true, and its tool never runs, whatever the tool.',
          where='lab 15.1, Build section, item 5 ("A call that comes up after Stop still gets its one result" ... "and its tool never runs")',
          names='a tool that changes nothing',
          replace=r'''
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
''',
          by=r'''
    if signal is not None and signal.is_cancelled() and call["name"] != "read":  # a read harms nothing
        text, failed = ABORTED, True
'''),
    Wrong(lab='15.1', name='an idle cancel() that speaks',
          rule='h.cancel() with no run going does nothing anyone can see: it prints nothing, and the next run runs as usual.',
          where='lab 15.1, Build section, item 3 ("`h.cancel()` with no run going does nothing anyone can see: it raises nothing")',
          names='nothing is printed',
          replace=r'''
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
''',
          by=r'''
        if not self.is_running:
            print("Nothing to stop.")
            self.late_stops = getattr(self, "late_stops", 0) + 1
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
'''),
    Wrong(lab='15.2', name='catching CancelledError in run_tool',
          rule='A cancelled task is not a failed tool: run_tool lets CancelledError through, so a hard Stop never becomes a result the model answers.',
          where='section "The tool that will not take a hint" (run_tool catching BaseException); Build: insist',
          names='run_tool must let CancelledError through',
          replace=r'''
        except asyncio.CancelledError:
            raise  # the task is being stopped; that is news for its owner, not for the model
        except Exception as exc:
''',
          by=r'''
        except BaseException as exc:  # anything at all becomes a result
'''),
    Wrong(lab='15.2', name='turning a hard Stop into a result',
          rule='A Stop must be something the loop cannot answer: a CancelledError caught and made into a result lets the run go on and ask the model again.',
          where='section "The tool that will not take a hint", common answers (catch it and hand back a result)',
          names='run_tool must let CancelledError through',
          replace=r'''
        except asyncio.CancelledError:
            raise  # the task is being stopped; that is news for its owner, not for the model
''',
          by=r'''
        except asyncio.CancelledError:
            text, failed = ABORTED, True  # a neat result saying the run was stopped
'''),
    Wrong(lab='15.2', name='spending the whole grace, even on a finished task',
          rule='stop_run looks at task.done() before each turn it waits: a task that is already over is "clean" at once.',
          where='Build: insist (leaving the wait the moment the task is done)',
          names='looks at task.done() before',
          replace=r'''
    for _ in range(grace):
        if task.done():
            break
        await asyncio.sleep(0)  # a turn for the run to notice
''',
          by=r'''
    for _ in range(grace):
        await asyncio.sleep(0)  # `grace` turns for the run to notice
'''),
    Wrong(lab='15.2', name='no early exit from the grace loop',
          rule='stop_run leaves its grace loop the moment the task is done, not after all `grace` turns.',
          where='Build: insist (leaving the wait the moment the task is done)',
          names='the moment the task is done',
          replace=r'''
    for _ in range(grace):
        if task.done():
            break
        await asyncio.sleep(0)  # a turn for the run to notice
''',
          by=r'''
    if not task.done():
        for _ in range(grace):
            await asyncio.sleep(0)  # a turn for the run to notice
'''),
    Wrong(lab='15.2', name='cancelling the task without awaiting it',
          rule='On both paths the task has ended when stop_run returns: a cancelled task nobody awaits is a task nobody knows is over.',
          where='Build: insist (cancelled and then awaited)',
          names='must await the task it cancelled',
          replace=r'''
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
          by=r'''
    task.cancel()  # the task will see to the rest
    return "hard"
'''),
    Wrong(lab='15.2', name="stop_run's own cancellation lost to a task that swallows it",
          rule="If the task running stop_run is cancelled while stop_run waits, the cancellation must go on up; once stop_run has insisted, when the task it waits for is over.",
          where='Build item 2: "Once `stop_run` has insisted, its own cancellation goes on up when the task it waits for is over, not before" (round 22, r118 designs 20 and 41: the guided steps 4-5 alone)',
          names='swallows every cancellation',
          replace=r'''
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
''',
          by=r'''
'''),
    Wrong(lab='15.2', name='stop_run swallowing its own cancellation',
          rule="Only the task's own CancelledError is swallowed: when stop_run itself is being cancelled, the cancellation goes on up.",
          where='Build: insist (the one trap: asyncio.current_task().cancelling())',
          names='must go on up',
          replace=r'''
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
          by=r'''
    except asyncio.CancelledError:
        pass  # the task we cancelled has ended
    return "hard"
'''),
    # The designs below were found by a reader who held only the release (issue 38, round 1).
    Wrong(lab='15.2', name='a new CancelledError in place of the one that came in',
          rule='A CancelledError raised inside a tool leaves run_tool as it came in: the same exception, its message kept.',
          where='Build: insist ("leaves `run_tool` as it came in")',
          names='as it came in',
          replace=r'''
            raise  # the task is being stopped; that is news for its owner, not for the model
''',
          by=r'''
            raise asyncio.CancelledError(f"{call['name']} stopped")  # says which tool
'''),
    Wrong(lab='15.2', name='a turn waited before each look',
          rule='stop_run spends no turn waiting once the task is done: a task that was over already is "clean" at once.',
          where='Build: insist ("spends no turn waiting once the task is done")',
          names='no turn spent waiting',
          replace=r'''
    for _ in range(grace):
        if task.done():
            break
        await asyncio.sleep(0)  # a turn for the run to notice
''',
          by=r'''
    for _ in range(grace):
        await asyncio.sleep(0)  # a turn for the run to notice, then a look
        if task.done():
            break
''',
          also=((r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
''', r'''
    harness.cancel()
'''),)),
    Wrong(lab='15.2', name='one turn of grace fewer',
          rule='"clean" when the task finished by itself within `grace` turns of the event loop: a run that needs exactly `grace` turns is clean.',
          where='Build: insist ("within `grace` turns of the event loop")',
          names='a grace of exactly N',
          replace=r'''
    for _ in range(grace):
        if task.done():
            break
''',
          by=r'''
    for _ in range(grace - 1):  # the last turn is the look after the loop
        if task.done():
            break
'''),
    Wrong(lab='15.2', name='a hard wait that gives up after a hundred turns',
          rule='When stop_run returns, the task is over, whichever the answer: the hard wait has no limit.',
          where='Build: insist ("when `stop_run` returns, the task is over, whichever the answer")',
          names='with no limit in turns or in seconds',
          replace=r'''
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
          by=r'''
    task.cancel()
    for _ in range(100):  # never hang the caller on a task that will not die
        if task.done():
            break
        await asyncio.sleep(0)
    return "hard"
'''),
    Wrong(lab='15.2', name='a hard wait with a deadline in seconds',
          rule='When stop_run returns, the task is over, whichever the answer; time in the course is turns of the event loop, never seconds, and nothing has a timeout.',
          where='Build: insist ("when `stop_run` returns, the task is over, whichever the answer")',
          names='with no limit in turns or in seconds',
          replace=r'''
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
          by=r'''
    task.cancel()
    deadline = asyncio.get_running_loop().time() + 2.0
    while not task.done() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0)  # never hang the caller for more than two seconds
    return "hard"
'''),
    Wrong(lab='15.2', name='a grace that swallows the cancellation of stop_run',
          rule='If the task stop_run runs in is cancelled while stop_run waits, the cancellation must go on up, during the grace as during the hard wait.',
          where='Build: insist ("a function that swallows its own cancellation can never be stopped")',
          names='go on up at once',
          replace=r'''
    for _ in range(grace):
        if task.done():
            break
        await asyncio.sleep(0)  # a turn for the run to notice
''',
          by=r'''
    try:
        for _ in range(grace):
            if task.done():
                break
            await asyncio.sleep(0)  # a turn for the run to notice
    except asyncio.CancelledError:
        pass  # a cancelled wait just ends the grace early
'''),
    Wrong(lab='15.2', name='the answer read from task.cancelled()',
          rule='"clean" when the harness\'s own Stop was enough; a task that was over already, however it ended, is "clean" at once.',
          where='Build: insist ("a task that was over already is")',
          names='not from task.cancelled()',
          replace=r'''
    if task.done():
        return "clean"
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
          by=r'''
    if not task.done():
        task.cancel()
        try:
            await task  # a cancelled task nobody waits for is a task nobody knows is over
        except asyncio.CancelledError:
            if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
                raise
    return "hard" if task.cancelled() else "clean"  # the task says how it ended
'''),
    Wrong(lab='15.2', name='no grace unless one is asked for',
          rule='The signature is given and stays: stop_run(harness, task, grace=5).',
          where='Build: insist ("`stop_run(harness, task, grace=5)`")',
          names='The signature is given',
          replace='async def stop_run(harness, task, grace=5):',
          by='async def stop_run(harness, task, grace=0):  # no waiting unless asked'),
    Wrong(lab='15.2', name='no asking when there is no grace',
          rule='First the run is asked to stop through the harness, whatever the grace, and only then is the task cancelled.',
          where="Build: insist (stop_run's gap comment: first the run is asked to stop through the harness)",
          names='First the run is asked to stop through the harness',
          replace=r'''
    harness.cancel()
    for _ in range(grace):
''',
          by=r'''
    if grace:  # with no grace there is no time to wind up, so asking is pointless
        harness.cancel()
    for _ in range(grace):
'''),
    # The designs below were found by a reader who held only the release (issue 38, round 4).
    Wrong(lab='15.2', name='the answer read from task.cancelled() after insisting',
          rule='"hard" whenever stop_run had to cancel the task, even when the task swallowed the cancellation and ended uncancelled.',
          where='lab 15.2, Build section: "and this `stop_run` never cancelled it"',
          names='not from task.cancelled()',
          replace=r'''
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
          by=r'''
            raise
    return "hard" if task.cancelled() else "clean"  # the task says how it ended
'''),
    Wrong(lab='15.2', name='the hard wait swallowing whatever the task raises',
          rule="Only the task's own cancellation may end at stop_run: anything else the task ends with goes on to stop_run's caller.",
          where='lab 15.2, Build section: "Only the task\'s own cancellation may end at `stop_run`"',
          names="Only the task's own cancellation may end at stop_run",
          replace=r'''
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
          by=r'''
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    except Exception:
        pass  # the run is being stopped anyway
    return "hard"
'''),
    Wrong(lab='15.2', name="concurrent.futures's CancelledError named in the clause",
          rule='The boundary names asyncio.CancelledError in a clause of its own: another class of that name documents nothing true.',
          where='lab 15.2, Build section: "names `asyncio.CancelledError` in a clause of its own"',
          names="names asyncio's CancelledError itself",
          replace=r'''
        except asyncio.CancelledError:
            raise  # the task is being stopped; that is news for its owner, not for the model
''',
          by=r'''
        except CancelledError:  # concurrent.futures's, as an editor's auto-import offers it
            raise
''',
          also=(('import asyncio', 'import asyncio\nfrom concurrent.futures import CancelledError'),)),
    Wrong(lab='15.2', name='a hard wait that gives up after ten thousand turns',
          rule='When stop_run returns, the task is over, whichever the answer: the cancelled task is awaited, which also hands on what it ends with.',
          where='lab 15.2, Build section: "when `stop_run` returns, the task is over, whichever the answer"',
          names="Only the task's own cancellation may end at stop_run",
          replace=r'''
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
          by=r'''
    task.cancel()
    for _ in range(10_000):  # a task not dead in ten thousand turns is stuck: give up
        if task.done():
            break
        await asyncio.sleep(0)
    return "hard"
'''),
    Wrong(lab='15.2', name='a hard wait under asyncio.timeout of a day',
          rule='When stop_run returns, the task is over, whichever the answer; time in the course is turns of the event loop, and a clock can jump.',
          where='lab 15.2, Build section: "when `stop_run` returns, the task is over, whichever the answer"',
          names='with no limit in turns or in seconds',
          replace=r'''
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
''',
          by=r'''
        async with asyncio.timeout(86400):  # a day: nothing takes that long to die
            await task
    except TimeoutError:
        pass
    except asyncio.CancelledError:
'''),
    Wrong(lab='15.2', name='the run over taken for the task over',
          rule='When stop_run returns, the task is over: not only the run it consumes; harness.is_running is not the task.',
          where='lab 15.2, Build section: "when `stop_run` returns, the task is over, whichever the answer"',
          names='harness.is_running is not the task',
          replace=r'''
    for _ in range(grace):
        if task.done():
            break
        await asyncio.sleep(0)  # a turn for the run to notice
    if task.done():
        return "clean"
''',
          by=r'''
    for _ in range(grace):
        if task.done() or not harness.is_running:
            break
        await asyncio.sleep(0)  # a turn for the run to notice
    if task.done() or not harness.is_running:
        return "clean"
'''),
    Wrong(lab='15.2', name='the try around the await only',
          rule="Every failure a tool raises still becomes its call's result, a failure raised by calling execute as much as one raised while it is awaited.",
          where='lab 15.2, Build section: "every failure a tool raises still becomes its call\'s result, as before"',
          names='the call and the await both sit inside the try',
          replace=r'''
        try:
            text, failed = await tool["execute"](call["arguments"], signal), False
''',
          by=r'''
        pending = tool["execute"](call["arguments"], signal)  # the call, outside the try
        try:
            text, failed = await pending, False
'''),
    Wrong(lab='15.2', name='a second stop_run on the same task answering at once',
          rule='When stop_run returns, the task is over, whichever call it is: a second stop_run waits for a dying task as the first does.',
          where='lab 15.2, Build section: "when `stop_run` returns, the task is over, whichever the answer"',
          names='A second stop_run on a task that is still dying waits for it',
          replace=r'''
    if task.done():
        return "clean"
    task.cancel()
''',
          by=r'''
    if task.done():
        return "clean"
    if task in _STOPPING:
        return "hard"  # another stop_run is already insisting on it
    _STOPPING.add(task)
    task.cancel()
''',
          also=(('import weakref', 'import weakref\n\n_STOPPING = weakref.WeakSet()  # tasks a stop_run is insisting on'),)),
    # The designs below were found by a reader who held only the release (issue 38, round 9).
    Wrong(lab='15.2', name='a grace capped at a thousand turns',
          rule='"clean" when the task finished by itself within `grace` turns of the event loop: a grace of a billion turns is a billion, with no cap of stop_run\'s own.',
          where='lab 15.2, Build section: "the task finished by itself within `grace` turns of the event loop"',
          names="with no cap of stop_run's own",
          replace=r"""
    for _ in range(grace):
""",
          by=r"""
    for _ in range(min(grace, 1000)):  # nobody waits longer than that
"""),
    Wrong(lab='15.2', name='a turn more before a clean answer',
          rule='stop_run spends no turn waiting once the task is done: a task that ends during the grace is answered at once, not a turn later.',
          where='lab 15.2, Build section: "`stop_run` spends no turn waiting once the task is done"',
          names='spends no turn waiting once it is done',
          replace=r"""
    for _ in range(grace):
        if task.done():
            break
        await asyncio.sleep(0)  # a turn for the run to notice
    if task.done():
        return "clean"
""",
          by=r"""
    waited = False
    for _ in range(grace):
        if task.done():
            break
        await asyncio.sleep(0)  # a turn for the run to notice
        waited = True
    if task.done():
        if waited:
            await asyncio.sleep(0)  # one turn for the frontend to draw the aborted message
        return "clean"
"""),
    Wrong(lab='15.2', name='the run over taken for the task once the grace is spent',
          rule='When stop_run returns, the task is over, whichever the answer: a frontend still at its own work when the grace runs out is cancelled and awaited, its run being over or not.',
          where='lab 15.2, Build section: "when `stop_run` returns, the task is over, whichever the answer"',
          names='A frontend still at its own work when the grace runs out',
          replace=r"""
    if task.done():
        return "clean"
    task.cancel()
""",
          by=r"""
    if task.done() or not harness.is_running:  # the run is stopped; the rest is the frontend's
        return "clean"
    task.cancel()
"""),
    Wrong(lab='15.2', name='a cancellation cut from its cause',
          rule='A CancelledError raised inside a tool leaves run_tool as it came in, its cause kept: `raise exc from None` sends on the same object with its cause cut.',
          where='lab 15.2, Build section: "leaves `run_tool` as it came in"',
          names='its cause kept',
          replace=r"""
        except asyncio.CancelledError:
            raise  # the task is being stopped; that is news for its owner, not for the model
""",
          by=r"""
        except asyncio.CancelledError as stop:
            raise stop from None  # not the tool's failure: no chain to report
"""),
    Wrong(lab='15.2', name='an answer remembered for a task stopped before',
          rule='A task that was over already is "clean" at once, even one an earlier stop_run stopped hard: each call answers for what it had to do.',
          where='lab 15.2, Build section: "a task that was over already is `"clean"` at once"',
          names='even one that stop_run itself stopped hard',
          replace=r"""
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
""",
          by=r"""
    if task.done():
        return _ANSWERS.get(task, "clean")  # stopped before: say again how
""",
          also=((r"""
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
""", r"""
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    _ANSWERS[task] = "hard"
    return "hard"
"""), ('import weakref', 'import weakref\n\n_ANSWERS = weakref.WeakKeyDictionary()  # task -> how stop_run stopped it'))),
    Wrong(lab='15.2', name='the cancellation clause on a try around the whole function',
          rule='The boundary names asyncio.CancelledError in a clause of its own above the wide one: both on the try around the tool, where whoever edits the wide one reads it.',
          where='lab 15.2, Build section: "in a clause of its own, above the wide one, where the next person who edits it will read that it must pass"',
          names='Both clauses sit on the one try',
          replace=r"""
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
    elif tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = await tool["execute"](call["arguments"], signal), False
        except asyncio.CancelledError:
            raise  # the task is being stopped; that is news for its owner, not for the model
        except Exception as exc:
            text, failed = str(exc), True
""",
          by=r"""
    try:
        if signal is not None and signal.is_cancelled():
            text, failed = ABORTED, True
        elif tool is None:
            text, failed = f"Tool {call['name']} not found", True
        else:
            try:
                text, failed = await tool["execute"](call["arguments"], signal), False
            except Exception as exc:
                text, failed = str(exc), True
    except asyncio.CancelledError:  # a cancelled task is not a failed tool
        raise
"""),
    Wrong(lab='15.2', name='the cancellation clause on a try that guards nothing',
          rule='The boundary names asyncio.CancelledError in a clause of its own above the wide one, on the try around the tool: a clause on a try around a line that awaits nothing tells the next editor nothing.',
          where='lab 15.2, Build section: "in a clause of its own, above the wide one, where the next person who edits it will read that it must pass"',
          names='Both clauses sit on the one try',
          replace=r"""
    tool = {t["name"]: t for t in tools}.get(call["name"])
""",
          by=r"""
    try:
        tool = {t["name"]: t for t in tools}.get(call["name"])
    except asyncio.CancelledError:  # a cancelled task is not a failed tool
        raise
""",
          also=((r"""
        except asyncio.CancelledError:
            raise  # the task is being stopped; that is news for its owner, not for the model
        except Exception as exc:
""", r"""
        except Exception as exc:
"""),)),
    # Round 9 (r39): the page now rules on probes 90 to 93 and on designs 04 and 12.
    Wrong(lab='15.2', name='asking the harness even for a task that is over',
          rule='A task that was over already is "clean" at once, and stop_run then asks nothing of the harness, whose run may by now be another one (hunt round 9, probe 15.2-90; the reference before it).',
          where='lab 15.2, Build section: "`stop_run` then asks nothing of the harness, whose run may by now be another one"',
          names='asks nothing of the harness',
          replace=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
''',
          by=r'''
    harness.cancel()  # ask first, whatever the task
    if task.done():
        return "clean"
'''),
    Wrong(lab='15.2', name='asking only while the harness is running',
          rule='A task that was over already is "clean" at once, and stop_run then asks nothing of the harness: is_running is the harness\'s run, not the task, and may be a newer run (hunt round 9, 15.2-04).',
          where='lab 15.2, Build section: "`stop_run` then asks nothing of the harness, whose run may by now be another one"',
          names='asks nothing of the harness',
          replace=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
''',
          by=r'''
    if harness.is_running:  # nothing to ask when no run is going
        harness.cancel()
'''),
    Wrong(lab='15.2', name='a task cancelled by another during the grace answered hard',
          rule='A task that ends within the grace is "clean" however it ended, even cancelled by somebody else: the answer says what stop_run had to do (hunt round 9, probe 15.2-91).',
          where='lab 15.2, Build section: "A task that ends within the grace is `"clean"` however it ended"',
          names='however it ended',
          replace=r'''
    if task.done():
        return "clean"
    task.cancel()
''',
          by=r'''
    if task.done():
        return "hard" if task.cancelled() else "clean"  # not finished by itself
    task.cancel()
'''),
    Wrong(lab='15.2', name='a clean stop raising what the task raised',
          rule='On a clean stop the task\'s own ending, an exception included, stays the task\'s: stop_run answers "clean" and raises nothing (hunt round 9, probe 15.2-92).',
          where='lab 15.2, Build section: "On a clean stop the task\'s own ending, an exception included, stays the task\'s"',
          names='raises nothing',
          replace=r'''
    if task.done():
        return "clean"
    task.cancel()
''',
          by=r'''
    if task.done():
        if not task.cancelled() and task.exception() is not None:
            raise task.exception()  # the run ended, but not cleanly
        return "clean"
    task.cancel()
'''),
    Wrong(lab='15.2', name='stop_run cancelled in its grace cancelling the task too',
          rule='Cancelled while it waits out its grace, stop_run lets the cancellation go on up and leaves the run\'s task as it is, its flag set, not cancelled too (hunt round 9, probe 15.2-93).',
          where='lab 15.2, Build section: "The run\'s task is then left as it is, its flag set, not cancelled too"',
          names='leaves the run\'s task as it is',
          replace=r'''
        await asyncio.sleep(0)  # a turn for the run to notice
''',
          by=r'''
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError:
            task.cancel()  # whoever stops stop_run still wants the run stopped
            raise
'''),
    # The designs below were found by a reader who held only the release (issue 38, round 12).
    Wrong(lab='15.2', name='a turn more when the last look finds the task done',
          rule='stop_run spends no turn waiting once the task is done: the look after the grace-th turn that finds it done answers at once (hunt round 12, 15.2-06).',
          where='lab 15.2, Build section: "`stop_run` spends no turn waiting once the task is done"',
          names='spends no turn waiting',
          replace=r"""
    if task.done():
        return "clean"
    task.cancel()
""",
          by=r"""
    if task.done():
        await asyncio.sleep(0)  # one turn for the run's last events to reach the frontend
        return "clean"
    task.cancel()
"""),
    Wrong(lab='15.2', name='the flag taken back when stop_run is cancelled in its grace',
          rule='Cancelled while it waits out its grace, stop_run leaves the run\'s task as it is, its flag set: a request to stop is not taken back (hunt round 12, 15.2-07).',
          where='lab 15.2, Build section: "The run\'s task is then left as it is, its flag set, not cancelled too"',
          names="leaves the run's flag set",
          replace=r"""
        await asyncio.sleep(0)  # a turn for the run to notice
""",
          by=r"""
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError:
            harness._signal._cancelled = False  # stopped before insisting: the request withdrawn
            raise
"""),
    Wrong(lab='15.2', name='a record ending aborted taken for the task over',
          rule='When stop_run returns, the task is over, whichever the answer: a run that ended on its aborted message is not a task that is over (hunt round 12, 15.2-26).',
          where='lab 15.2, Build section: "when `stop_run` returns, the task is over, whichever the answer"',
          names='the run over is not the task over',
          replace=r"""
        if task.done():
            break
""",
          by=r"""
        last = harness.messages[-1] if harness.messages else {}
        if task.done() or last.get("stop_reason") == "aborted":  # the run has wound up
            return "clean"
"""),
    Wrong(lab='15.2', name='a task cancelled by another not counted as over',
          rule='A task that was over already, cancelled by somebody else included, is "clean" at once, and stop_run then asks nothing of the harness, whose run may by now be another one (hunt round 12, 15.2-29).',
          where='lab 15.2, Build section: "`stop_run` then asks nothing of the harness, whose run may by now be another one"',
          names='finished or cancelled by somebody else',
          replace=r"""
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
""",
          by=r"""
    if task.done() and not task.cancelled():  # finished: nothing to stop
"""),
    Wrong(lab='15.1', name='bash giving up after twenty seconds by the clock',
          rule='A command that merely takes a while is waited for: bash has no timeout of its '
               'own, in turns or in seconds, and only Stop ends a command early.',
          where='hunt round 10, design 15.1-28 (bash-timeout-in-seconds)',
          names='only Stop ends a command early',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
            began = time.monotonic()
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                if time.monotonic() - began > 20:  # twenty seconds: the command is hung
                    return "Command timed out"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          also=(('''import asyncio
''', '''import asyncio
import time
'''),)),
    # Hunt round 12 (reader r58), probe 15.2-04, ruled by the page at stop 55.
    Wrong(lab='15.2', name='stop_run leaving at once when cancelled while it insists',
          rule='Once stop_run has insisted, its own cancellation goes on up when the task it waits for is over, not before.',
          where='lab 15.2, Build section, item 2: "Once `stop_run` has insisted, its own cancellation goes on up when the task it waits for is over, not before"',
          names='when the task it waits for is over',
          replace=r'''
        await task  # a cancelled task nobody waits for is a task nobody knows is over
''',
          by=r'''
        await asyncio.wait({task})  # its own cancellation, if any, goes up at once
        task.result()  # the task's ending: its CancelledError, or what it raised instead
'''),
    # Hunt round 12 (reader r58), probe 15.2-24, ruled by the page at stop 55.
    Wrong(lab='15.2', name='a grace below 0 waited out for ever',
          rule='A grace below 0 counts as 0.',
          where='lab 15.2, Build section, item 2: "A grace below 0 counts as 0."',
          names='which counts as 0',
          replace=r'''
    for _ in range(grace):
''',
          by=r'''
    waited = 0
    while waited != grace:  # counted up to the grace
        waited += 1
'''),
    # Hunt round 12 (reader r58), probe 15.2-28, ruled by the page at stop 55.
    Wrong(lab='15.2', name='the harness asked again on every turn of the grace',
          rule='stop_run asks the harness once: a run the frontend starts during the grace is not the one it was asked to stop.',
          where='lab 15.2, Build section, item 2: "Nor does it ask twice"',
          names='asks the harness once',
          replace=r'''
        await asyncio.sleep(0)  # a turn for the run to notice
''',
          by=r'''
        await asyncio.sleep(0)  # a turn for the run to notice
        harness.cancel()  # and ask again, in case the run missed it
'''),
    # The designs below were found by reader r70, who held only the release (issue 38, round 13).
    Wrong(lab='15.1', name='the view leaving out an aborted ending that holds a call and no words',
          rule='Empty means no content at all, for a stopped reply as for a failed one: an aborted reply that got a call out, with no words, stays in the view, its call answered there as any call with no result is (hunt round 13, 15.1-36).',
          where='lab 15.1, Build section: "Empty means no content at all: a failed or stopped reply that got a call out, with no words, stays in the view"',
          names='Empty means no content at all',
          replace=r'''
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
''',
          by=r'''
    kept = [message for message in messages
            if (text_of(message) if message.get("stop_reason") == "aborted" else message["content"])
            or message["role"] != "assistant"
'''),
    Wrong(lab='15.1', name='bash alone hearing is_cancelled() only when it answers True itself',
          rule="is_cancelled()'s answer is read as a condition, as any if reads one, in each of the three looks: bash too hears a frontend's flag that answers 1 (hunt round 13, 15.1-50).",
          where='lab 15.1, Build section: "its answer is read as a condition, as any `if` reads one"',
          names='read as a condition',
          replace=r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''',
          by=r'''
                if signal is not None and signal.is_cancelled() is True:
                    return "Command cancelled"
'''),
    Wrong(lab='15.1', name='is_cancelled() heard only when it equals True',
          rule="is_cancelled()'s answer is read as a condition, as any if reads one: a flag answering 2 is set, though 2 == True is false, as much as one answering 1 (hunt round 12, 15.2-13, a lab 15.1 rule).",
          where='lab 15.1, Build section: "its answer is read as a condition, as any `if` reads one"',
          names='read as a condition',
          replace=r'''
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
''',
          by=r'''
    if signal is not None and signal.is_cancelled() == True:  # noqa: E712
        text, failed = ABORTED, True
''',
          also=((r'''
            elif signal is not None and signal.is_cancelled():
''', r'''
            elif signal is not None and signal.is_cancelled() == True:  # noqa: E712
'''), (r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''', r'''
                if signal is not None and signal.is_cancelled() == True:  # noqa: E712
                    return "Command cancelled"
'''))),
    Wrong(lab='15.1', name='only a CancelToken handed on to the tools',
          rule="Any object with is_cancelled() can serve as a signal, and a tool that runs receives the signal as execute's second argument: a frontend's own flag is handed on as it is, not replaced by None (hunt round 13, 15.1-39).",
          where='lab 15.1, Build section: "Any object with `is_cancelled()` can serve as a signal"',
          names='can serve as a signal',
          replace=r'''
            text, failed = await tool["execute"](call["arguments"], signal), False
''',
          by=r'''
            handed = signal if isinstance(signal, CancelToken) else None  # only our own tokens
            text, failed = await tool["execute"](call["arguments"], handed), False
'''),
    Wrong(lab='15.1', name="bash killing the previous call's command when a new one starts",
          rule="bash kills its own command and nothing else: a command another call started on the same shell, of the same bash tool included, is not its to end (hunt round 13, 15.1-41).",
          where='lab 15.1, Build section: "bash kills its own command and nothing else"',
          names='nothing else',
          replace=r'''
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
''',
          by=r'''
    last = []  # the process this bash started most recently

    async def execute(arguments, signal=None):
        if last:  # one command at a time: the previous call's is over now
            last[-1].kill()
        process = shell.start(str_arg(arguments, "command"))
        last[:] = [process]
'''),
    Wrong(lab='15.1', name='bash killing every command it started on Stop',
          rule="bash kills its own command and nothing else: on Stop, a command another call of the same bash tool started is not its to end (hunt round 13, 15.1-42).",
          where='lab 15.1, Build section: "bash kills its own command and nothing else"',
          names='nothing else',
          replace=r'''
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
''',
          by=r'''
    mine = []  # every process this bash has started

    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        mine.append(process)
''',
          also=((r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''', r'''
                if signal is not None and signal.is_cancelled():
                    for started in mine:  # everything this tool started
                        started.kill()
                    return "Command cancelled"
'''),)),
    Wrong(lab='15.1', name='bash killing every command of its shell on a hard cancel',
          rule="bash kills its own command and nothing else, on every way out: cancelled as a task, it leaves another harness's command on the same shell running (hunt round 13, 15.1-53).",
          where='lab 15.1, Build section: "bash kills its own command and nothing else"',
          names='nothing else',
          replace=r'''
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
                try:
                    await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
                except asyncio.CancelledError:  # the whole run is being torn down
                    for other in shell.running():
                        other.kill()
                    raise
'''),
    Wrong(lab='15.1', name='bash dropping the exit line when handed a signal',
          rule="A command that merely takes a while is waited for, and its output comes back as before: a call handed a clear signal, as every call inside a run is, keeps its Command exited line (hunt round 13, 15.1-54).",
          where='lab 15.1, Build section: "its output comes back as before"',
          names='comes back as before',
          replace=r'''
        if code != 0:
            output += f"\nCommand exited with code {code}"
''',
          by=r'''
        if code != 0 and signal is None:  # inside a run the status line is noise
            output += f"\nCommand exited with code {code}"
'''),
    # Hunt round 13 (reader r70), probe 15.1-P3, ruled by the page at the merge.
    Wrong(lab='15.1', name='a reply that came back after Stop replaced by the aborted ending',
          rule='A reply that comes back as usual after Stop, from a provider that did not read the signal, is recorded as it came: each call it asks for is answered ABORTED without running and the run ends on its aborted message, and one that asks for nothing ends the run as any answer does.',
          where='lab 15.1, Build section, item 4: "A reply that comes back as usual after Stop"',
          names='is recorded as it came',
          replace=r'''
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools), signal)
''',
          by=r'''
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools), signal)
                if signal is not None and signal.is_cancelled():  # Stop came while it answered
                    reply = error_message(ABORTED, stop_reason="aborted")
'''),
    # Hunt round 15 (reader r81): seven designs of stop_run that passed the lab.
    Wrong(lab='15.2', name='a grace below 0 read as its size',
          rule='A grace below 0 counts as 0: no turn for the run to wind up, not the same grace made positive (hunt round 15, 15.2-05).',
          where='lab 15.2, Build section, item 2: "A grace below 0 counts as 0."',
          names='counts as 0',
          replace=r"""
    for _ in range(grace):
""",
          by=r"""
    for _ in range(abs(grace)):  # a grace of -7 is seven turns all the same
"""),
    Wrong(lab='15.2', name='a grace below 0 read as the default',
          rule='A grace below 0 counts as 0: no turn for the run to wind up, not the default five (hunt round 15, 15.2-27).',
          where='lab 15.2, Build section, item 2: "A grace below 0 counts as 0."',
          names='counts as 0',
          replace=r"""
    for _ in range(grace):
""",
          by=r"""
    for _ in range(grace if grace >= 0 else 5):  # a grace that makes no sense: the default
"""),
    Wrong(lab='15.2', name='with a grace of 1, insisting before asking',
          rule='The answer is "clean" only when the task finished by itself within the grace and was never cancelled: a stop_run that cancels the task before its one turn of grace, and then finds it over, had to insist, and the answer is "hard" (hunt round 15, 15.2-20).',
          where='lab 15.2, Build section, item 2: "the task finished by itself within `grace` turns of the event loop, and this `stop_run` never cancelled it"',
          names='what stop_run had to do',
          replace=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
''',
          by=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    if grace <= 1:  # too little grace to be worth waiting on: insist at once
        task.cancel()
    harness.cancel()
'''),
    Wrong(lab='15.2', name='the harness asked again just before insisting',
          rule='stop_run asks the harness once, before its grace: a run the frontend starts during the grace is not the one it was asked to stop, and its tool, when the hard stop reaches it, finds its signal clear (hunt round 15, 15.2-06).',
          where='lab 15.2, Build section, item 2: "Nor does it ask twice"',
          names='Nor does it ask twice',
          replace=r'''
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
''',
          by=r'''
    harness.cancel()  # ask once more, to be sure
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
'''),
    Wrong(lab='15.2', name='each harness asked once for all its runs',
          rule="Each stop_run asks the harness, and its run has the grace to wind up: a harness stopped once before is asked again for its later run, whose own Stop may be enough (hunt round 15, 15.2-21).",
          where='lab 15.2, Build section, item 2: "The answer is `"clean"` when the harness\'s own Stop was enough"',
          names='keeps nothing from one call to the next',
          replace=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
''',
          by=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    asked = stop_run.__dict__.setdefault("asked", [])  # every harness ever asked, held
    if not any(seen is harness for seen in asked):
        asked.append(harness)
        harness.cancel()
'''),
    Wrong(lab='15.2', name='no grace for a harness once stopped hard',
          rule="Each stop_run gives the run its grace, whatever an earlier stop_run on the same harness had to do: a harness once stopped hard still has its later runs given `grace` turns to wind up (hunt round 15, 15.2-29).",
          where='lab 15.2, Build section, item 2: "the task finished by itself within `grace` turns of the event loop"',
          names='keeps nothing from one call to the next',
          replace=r"""
    for _ in range(grace):
""",
          by=r"""
    hard = stop_run.__dict__.setdefault("hard", [])  # every harness once stopped hard, held
    if any(seen is harness for seen in hard):
        grace = 0  # it did not listen before: no grace this time
    for _ in range(grace):
""",
          also=((r'''
    return "hard"
''', r'''
    stop_run.__dict__.setdefault("hard", []).append(harness)
    return "hard"
'''),)),
    Wrong(lab='15.2', name='with no grace, asking before looking whether the task is over',
          rule='A task that was over already is "clean" at once, and stop_run then asks nothing of the harness, whatever the grace, 0 included: the harness\'s run may by now be another one (hunt round 15, 15.2-34).',
          where='lab 15.2, Build section, item 2: "a task that was over already is `"clean"` at once, and `stop_run` then asks nothing of the harness, whose run may by now be another one"',
          names='asks nothing of the harness',
          replace=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
''',
          by=r'''
    if grace > 0 and task.done():  # with no grace there is no look to spare
        return "clean"
    harness.cancel()
'''),
    # Hunt round 17 (reader r89): designs of lab 15.1 that passed its tests.
    Wrong(lab='15.1', name='a token cleared by its fourth cancel()',
          rule='After cancel() a token is cancelled, and it stays so, however often cancel() is called again (hunt round 17, 15.1-23).',
          where='lab 15.1, Build section, item 2: "After `cancel()` it is, and it stays so"',
          names='never clears',
          replace=r"""
    def cancel(self):
        self._cancelled = True
""",
          by=r"""
    def cancel(self):
        self._presses = getattr(self, "_presses", 0) + 1
        self._cancelled = self._presses < 4  # a fourth press clears it
"""),
    Wrong(lab='15.1', name='a token that forgets its Stop after fifty reads',
          rule='After cancel() a token is cancelled, and it stays so, however often it is read (hunt round 17, 15.1-49).',
          where='lab 15.1, Build section, item 2: "After `cancel()` it is, and it stays so"',
          names='never clears',
          replace=r"""
    def is_cancelled(self):
        return self._cancelled
""",
          by=r"""
    def is_cancelled(self):
        self._reads = getattr(self, "_reads", 0) + 1
        if self._cancelled and self._reads > 50:  # a Stop goes stale after 50 looks
            return False
        return self._cancelled
"""),
    Wrong(lab='15.1', name='is_cancelled() heard unless it answers False or None',
          rule='is_cancelled()\'s answer is read as a condition, as any if reads one: a frontend\'s flag answering [] or () is clear (hunt round 17, 15.1-46).',
          where='lab 15.1, Build section, item 2: "its answer is read as a condition, as any `if` reads one"',
          names='read as a condition',
          replace=r"""
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
""",
          by=r"""
    if signal is not None and signal.is_cancelled() not in (False, None):
        text, failed = ABORTED, True
"""),
    Wrong(lab='15.1', name='worded aborted endings sharing one content list',
          rule='Each call of error_message makes a new message, a provider\'s worded aborted ending too, so that no ending shares anything with another (hunt round 17, 15.1-38).',
          where='lab 5.1, Build section, item 1 (each call makes a new message, and no ending shares anything with another); lab 15.1, item 1 ("makes the same message with that label")',
          names='shares anything',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": stop_reason, "error_message": text}
""",
          by=r"""
    content = _SHARED if (stop_reason == "aborted" and text != ABORTED) else []
    return {"role": "assistant", "content": content, "stop_reason": stop_reason, "error_message": text}


_SHARED = []  # one list for every provider-worded aborted ending
"""),
    Wrong(lab='15.1', name='raising from the third idle cancel() in a row',
          rule='h.cancel() with no run going does nothing anyone can see: it raises nothing, however often it is pressed (hunt round 17, 15.1-43).',
          where='lab 15.1, Build section, item 3: "`h.cancel()` with no run going does nothing anyone can see: it raises nothing"',
          names='harmless no-op',
          replace=r"""
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
""",
          by=r"""
        if not self.is_running:
            self._idle_presses = getattr(self, "_idle_presses", 0) + 1
            if self._idle_presses >= 3:
                raise RuntimeError("nothing to stop")
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
""",
          also=((r"""
        self._signal, run = CancelToken(), self._run(text)  # one line: one beginning
""", r"""
        self._signal, run = CancelToken(), self._run(text)  # one line: one beginning
        self._idle_presses = 0
"""),)),
    Wrong(lab='15.1', name='an idle cancel() that warns on stderr',
          rule='h.cancel() with no run going does nothing anyone can see: it prints nothing, on stderr no more than on stdout (hunt round 17, 15.1-44).',
          where='lab 15.1, Build section, item 3: "`h.cancel()` with no run going does nothing anyone can see"',
          names='nothing is printed',
          replace=r"""
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
""",
          by=r"""
        if not self.is_running:
            import sys
            print("cancel(): nothing is running", file=sys.stderr)
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
"""),
    Wrong(lab='15.1', name='an idle cancel() dropping all follow-ups but the first',
          rule='h.cancel() with no run going does nothing anyone can see: what was queued stays queued, every follow-up of it (hunt round 17, 15.1-29).',
          where='lab 15.1, Build section, item 3: "`h.cancel()` with no run going does nothing anyone can see"',
          names='what was queued stays queued',
          replace=r"""
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
""",
          by=r"""
        if not self.is_running:  # a late Stop also drops all but the first queued follow-up
            while len(self._follow_up_queue) > 1:
                self._follow_up_queue.pop()
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
"""),
    Wrong(lab='15.1', name='the signal handed only to the first six calls of a batch',
          rule='Every tool call is handed the signal too: a call that comes up after Stop, the seventh of a batch or later included, is answered ABORTED and its tool never runs (hunt round 17, 15.1-40).',
          where='lab 15.1, Build section, item 4: "Every tool call is handed the signal too"',
          names='every tool call is handed the signal',
          replace=r"""
            for call in todo:
                yield {"type": "tool_execution_start", "call": call}
                result = await run_tool(tools, call, signal)
""",
          by=r"""
            for index, call in enumerate(todo):
                yield {"type": "tool_execution_start", "call": call}
                result = await run_tool(tools, call, signal if index < 6 else None)
"""),
    Wrong(lab='15.1', name='max_turns winning over Stop only under a small cap',
          rule='Once the signal is set the run ends aborted, except that a run already past max_turns still ends the max_turns way, whatever max_turns is (hunt round 17, 15.1-39).',
          where='lab 15.1, Build section, item 4: "except that a run already past `max_turns` still ends the `max_turns` way"',
          names='max_turns first and at the signal second',
          replace=r"""
            if max_turns is not None and turn > max_turns:
""",
          by=r"""
            if max_turns is not None and turn > max_turns and (
                    max_turns <= 4 or not (signal is not None and signal.is_cancelled())):
"""),
    Wrong(lab='15.1', name='Stop dropping all steers but the oldest',
          rule='A message leaves its queue only once it is on the record, so stopping a run never loses one: every steer sent before Stop joins a later turn (hunt round 17, 15.1-60).',
          where='lab 15.1, the Harness docstring (a message leaves its queue only once it is on the record, so stopping a run never loses one); lesson 9 (a steer leaves its queue only once it is recorded)',
          names='not lost',
          replace=r"""
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
""",
          by=r"""
        while len(self._steering_queue) > 1:  # Stop: keep only the oldest steer
            self._steering_queue.pop()
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
"""),
    Wrong(lab='15.1', name='bash killing every command of its own text on Stop',
          rule='bash kills its own command and nothing else: a command another call started on the same shell, of the same text too, is not its to end (hunt round 17, 15.1-15).',
          where='lab 15.1, Build section, item 5: "bash kills its own command and nothing else"',
          names='kills its own command and nothing else',
          replace=r"""
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        try:
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
""",
          by=r"""
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        try:
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    for other in shell.running():  # the same command, whoever started it
                        if other.command == process.command:
                            other.kill()
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
"""),
    Wrong(lab='15.1', name='bash killing the command its tool started last on Stop',
          rule='bash kills its own command and nothing else: a command another call of the same tool started after it is not its to end (hunt round 17, 15.1-58).',
          where='lab 15.1, Build section, item 5: "bash kills its own command and nothing else"',
          names='kills its own command and nothing else',
          replace=r"""
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        try:
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
""",
          by=r"""
    latest = {}  # the process this tool started last, whichever call started it

    async def execute(arguments, signal=None):
        process = latest["p"] = shell.start(str_arg(arguments, "command"))
        try:
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    latest["p"].kill()
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
"""),
    Wrong(lab='15.1', name='bash deaf to Stop for its first seven laps',
          rule='bash must hear Stop while its command runs: no more than five event-loop turns after h.cancel(), wherever it falls, its first laps included, the command is dead (hunt round 17, 15.1-41).',
          where='lab 15.1, Build section, item 5: "no more than five event-loop turns after `h.cancel()`"',
          names='no more than five event-loop turns',
          replace=r"""
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        try:
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
""",
          by=r"""
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        try:
            laps, preset = 0, signal is not None and signal.is_cancelled()
            while not process.done():
                laps += 1
                if signal is not None and signal.is_cancelled() and (preset or laps > 7):
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
"""),
    Wrong(lab='15.1', name='bash looking at the flag every eighth turn after forty laps',
          rule='bash must hear Stop while its command runs: no more than five event-loop turns after h.cancel(), however long the command has run (hunt round 17, 15.1-42).',
          where='lab 15.1, Build section, item 5: "no more than five event-loop turns after `h.cancel()`"',
          names='within five turns of h.cancel()',
          replace=r"""
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        try:
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
""",
          by=r"""
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        try:
            laps = 0
            while not process.done():
                laps += 1
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                for _ in range(8 if laps > 40 else 1):
                    await asyncio.sleep(0)
                    if process.done():
                        break
"""),
    Wrong(lab='15.1', name='bash handed a set signal killing its command at its third look',
          rule='Handed a signal already set, bash may start no command at all, or start it and kill it at its first look (hunt round 17, 15.1-45).',
          where='lab 15.1, Build section, item 5: "start it and kill it at its first look"',
          names='first look',
          replace=r"""
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        try:
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
""",
          by=r"""
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        try:
            looks = 0
            while not process.done():
                looks += 1
                if signal is not None and signal.is_cancelled() and looks >= 3:
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
"""),
    Wrong(lab='15.1', name='bash giving up after a day by the clock',
          rule='A command that merely takes a while is waited for: bash has no timeout of its own, by turns or by the clock, and only Stop ends a command early (hunt round 17, 15.1-36).',
          where='lab 15.1, Build section, item 5: "bash has no timeout of its own, and only Stop ends a command early"',
          names='no timeout of its own',
          replace=r"""
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        try:
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
""",
          by=r"""
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
        try:
            import time
            began = time.monotonic()
            while not process.done():
                if time.monotonic() - began > 86_400:  # a day: a timeout of bash's own
                    return "Command timed out after a day"
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
"""),
    # Hunt round 20 (reader r107), designs 15.1-37, 15.1-38 and 15.1-40: limits past what the
    # tests tried, each caught by a case past it that costs a few milliseconds.
    Wrong(lab='15.1', name='max_turns winning over Stop only up to a cap of twelve',
          rule='Once the signal is set the run ends aborted, except that a run already past max_turns still ends the max_turns way, whatever max_turns is, sixty and more too (hunt round 20, 15.1-37).',
          where='lab 15.1, Build section, item 4: "except that a run already past `max_turns` still ends the `max_turns` way"',
          names='max_turns first and at the signal second',
          replace=r"""
            if max_turns is not None and turn > max_turns:
""",
          by=r"""
            if max_turns is not None and max_turns > 12 and signal is not None and \
                    signal.is_cancelled():  # under a large cap, Stop first
                reply = error_message(ABORTED, stop_reason="aborted")
            elif max_turns is not None and turn > max_turns:
"""),
    Wrong(lab='15.1', name='the signal handed only to the first ten calls of a batch',
          rule='Every tool call is handed the signal too: a call that comes up after Stop, the eleventh of a batch or later included, is answered ABORTED and its tool never runs, however many calls the batch holds (hunt round 20, 15.1-38).',
          where='lab 15.1, Build section, item 4: "Every tool call is handed the signal too"',
          names='every tool call is handed the signal',
          replace=r"""
            for call in todo:
                yield {"type": "tool_execution_start", "call": call}
                result = await run_tool(tools, call, signal)
""",
          by=r"""
            for index, call in enumerate(todo):
                yield {"type": "tool_execution_start", "call": call}
                result = await run_tool(tools, call, signal if index < 10 else None)
"""),
    Wrong(lab='15.1', name='the top of a turn looking at the flag only in the first fifty turns',
          rule='Once the signal is set, the run sends no more requests, however many turns it has taken: the top of every turn looks at the flag, the sixtieth and later too (hunt round 20, 15.1-40).',
          where='lab 15.1, Build section, item 4: "Once the signal is set, the run sends no more requests"',
          names='no request is made after',
          replace=r"""
            elif signal is not None and signal.is_cancelled():
                reply = error_message(ABORTED, stop_reason="aborted")  # and no paid request
""",
          by=r"""
            elif turn <= 50 and signal is not None and signal.is_cancelled():  # a long run goes on
                reply = error_message(ABORTED, stop_reason="aborted")
"""),
    # Hunt round 22 (reader r118), designs 15.2-11, 26, 42, 43, 45, 46 and 40 (second author).
    Wrong(lab='15.2', name='asking the idle harness for a task that is over',
          rule='A task that was over already is "clean" at once, and stop_run then asks nothing of the harness, idle or not: a tool of the finished run that kept its signal must not find it set (hunt round 22, 15.2-11).',
          where='lab 15.2, Build section: "`stop_run` then asks nothing of the harness, whose run may by now be another one"',
          names='asks nothing of the harness',
          replace=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
''',
          by=r'''
    if task.done():  # over already: asking an idle harness is harmless, surely
        if not harness.is_running:
            harness.cancel()
        return "clean"
    harness.cancel()
'''),
    Wrong(lab='15.2', name='the hard wait swallowing the common errors a cancelled task raises',
          rule='Only the task\'s own cancellation may end at stop_run: a task that, cancelled, raises something else hands it on, whatever its class (hunt round 22, 15.2-26).',
          where='lab 15.2, Build section: "Only the task\'s own cancellation may end at `stop_run`"',
          names="Only the task's own cancellation may end at stop_run",
          replace=r'''
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
''',
          by=r'''
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    except (ValueError, KeyError, OSError, LookupError, TypeError):
        pass  # the task's clean-up failed: not stop_run's business
'''),
    Wrong(lab='15.2', name='a grace far below 0 read as its size',
          rule='A grace below 0 counts as 0, however far below (hunt round 22, 15.2-42).',
          where='lab 15.2, Build section: "A grace below 0 counts as 0."',
          names='counts as 0',
          replace=r'''
    for _ in range(grace):
''',
          by=r'''
    for _ in range(grace if grace > -10 else -grace):  # a small slip is 0; a big one, its size
'''),
    Wrong(lab='15.2', name='a second stop_run on a dying task waiting a few turns only',
          rule='When stop_run returns, the task is over, whichever call it is: a second stop_run on a task that is still dying waits for it as the first does (hunt round 22, 15.2-43).',
          where='lab 15.2, Build section: "a second `stop_run` on a task that is still dying waits for it as the first does"',
          names='A second stop_run on a task that is still dying waits for it',
          replace=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
''',
          by=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    if task.cancelling():  # somebody insisted already: wait a little, then report
        for _ in range(4):
            if task.done():
                break
            await asyncio.sleep(0)
        return "hard"
    harness.cancel()
'''),
    Wrong(lab='15.2', name='the harness asked again when stop_run is cancelled in its grace',
          rule='The harness is asked once: stop_run cancelled during its grace goes on up without asking again, since the run the frontend has begun meanwhile is not the one it was asked to stop (hunt round 22, 15.2-45).',
          where='lab 15.2, Build section: "Nor does it ask twice: a run the frontend starts during the grace is not the one it was asked to stop."',
          names='Nor does it ask twice',
          replace=r'''
    for _ in range(grace):
        if task.done():
            break
        await asyncio.sleep(0)  # a turn for the run to notice
''',
          by=r'''
    try:
        for _ in range(grace):
            if task.done():
                break
            await asyncio.sleep(0)  # a turn for the run to notice
    except asyncio.CancelledError:
        harness.cancel()  # make sure, on the way out
        raise
'''),
    Wrong(lab='15.2', name='the harness asked again before insisting after a short grace',
          rule='The harness is asked once, whatever the grace: a run the frontend starts during a short grace is not the one it was asked to stop either (hunt round 22, 15.2-46).',
          where='lab 15.2, Build section: "Nor does it ask twice: a run the frontend starts during the grace is not the one it was asked to stop."',
          names='Nor does it ask twice',
          replace=r'''
        return "clean"
    task.cancel()
''',
          by=r'''
        return "clean"
    if grace < 40:
        harness.cancel()  # a short grace may have been missed: remind it
    task.cancel()
'''),
    # Hunt round 23 (reader r126): designs of lab 15.1 that passed its tests: a warning Python
    # shows once per place, a steer's turn, and counts just past the tests' draws, each caught by
    # a case that costs a millisecond or two.
    Wrong(lab='15.1', name='an idle cancel() that warns once per place',
          rule='h.cancel() with no run going does nothing anyone can see: no warning either, though Python shows a warning only the first time its place gives it (hunt round 23, 15.1-21).',
          where='lab 15.1, Build section, item 3: "`h.cancel()` with no run going does nothing anyone can see"',
          names='nor logged or warned',
          replace=r"""
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
""",
          by=r"""
        if not self.is_running:
            import warnings
            warnings.warn("cancel() with no run going")  # shown once per place, by default
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
"""),
    Wrong(lab='15.1', name='a turn opened by a steer after an answer not looking at the flag',
          rule='Once the signal is set, the run sends no more requests, whatever opened the turn: a steer sent as an answer with no calls ends opens a turn as a follow-up does, and its top looks at the flag (hunt round 23, 15.1-22).',
          where='lab 15.1, Build section, item 4: "Once the signal is set, the run sends no more requests"',
          names='whatever opened the turn',
          replace=r"""
            elif signal is not None and signal.is_cancelled():
                reply = error_message(ABORTED, stop_reason="aborted")  # and no paid request
""",
          by=r"""
            elif not steered and signal is not None and signal.is_cancelled():
                reply = error_message(ABORTED, stop_reason="aborted")  # a steer is heard out
""",
          also=((r"""
    turn, todo, failed = 0, [], False
""", r"""
    turn, todo, failed, steered = 0, [], False, False
"""), (r"""
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
""", r"""
            steered = False
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
                steered = bool(pending) and not todo  # the user spoke after an answer
"""))),
    Wrong(lab='15.1', name='the signal handed only to the first sixty-four calls of a batch',
          rule='Every tool call is handed the signal too: a call that comes up after Stop, the sixty-fifth of a batch or later included, is answered ABORTED and its tool never runs, however many calls the batch holds (hunt round 23, 15.1-23).',
          where='lab 15.1, Build section, item 4: "Every tool call is handed the signal too"',
          names='every tool call is handed the signal',
          replace=r"""
            for call in todo:
                yield {"type": "tool_execution_start", "call": call}
                result = await run_tool(tools, call, signal)
""",
          by=r"""
            for index, call in enumerate(todo):
                yield {"type": "tool_execution_start", "call": call}
                result = await run_tool(tools, call, signal if index < 64 else None)
"""),
    Wrong(lab='15.1', name='the signal handed only to the first five requests',
          rule='Every request that does go out carries the signal, as acomplete\'s fourth argument, the sixth and later of a run too (hunt round 23, 15.1-45).',
          where='lab 15.1, Build section, item 4: "Every request that does go out carries the signal, as `acomplete`\'s fourth argument"',
          names='every request that does go out carries the signal',
          replace=r"""
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools), signal)
""",
          by=r"""
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools), signal if turn <= 5 else None)
"""),
    Wrong(lab='15.1', name='a token that forgets its Stop after a thousand-odd reads',
          rule='After cancel() a token is cancelled, and it stays so, however often it is read, past a thousand reads too (hunt round 23, 15.1-24).',
          where='lab 15.1, Build section, item 2: "After `cancel()` it is, and it stays so"',
          names='never clears',
          replace=r"""
    def is_cancelled(self):
        return self._cancelled
""",
          by=r"""
    def is_cancelled(self):
        self._reads = getattr(self, "_reads", 0) + 1
        return self._cancelled and self._reads <= 1_064  # a Stop goes stale at last
"""),
    Wrong(lab='15.1', name='a token cleared by its thirteenth cancel()',
          rule='After cancel() a token is cancelled, and it stays so, however often cancel() is called again, a dozen times and more too (hunt round 23, 15.1-25).',
          where='lab 15.1, Build section, item 2: "After `cancel()` it is, and it stays so"',
          names='never clears',
          replace=r"""
    def cancel(self):
        self._cancelled = True
""",
          by=r"""
    def cancel(self):
        self._presses = getattr(self, "_presses", 0) + 1
        self._cancelled = self._presses <= 12  # a thirteenth press clears it
"""),
    # Hunt round 26 (reader r144), design 15.1-41, found while taking lab 15.2.
    Wrong(lab='15.1', name='bash killing the oldest running command of its own text',
          rule='bash kills its own command and nothing else: a command another call started on the same shell, of the same text too, before it as after it, is not its to end; a bash that, its own command still running, kills the first running one of that text ends the older call\'s command and leaves its own running (hunt round 26, 15.1-41).',
          where='lab 15.1, Build section, item 5: "bash kills its own command and nothing else"',
          names='kills its own command and nothing else',
          replace=r"""
            process.kill()  # on every way out, a hard cancel's too; harmless once it is done
""",
          by=r"""
            mine = process if process.done() else next(  # the first running one of this text
                p for p in shell.processes if p.command == process.command and not p.done())
            mine.kill()
"""),
    # Hunt round 26 (reader r144): designs of lab 15.2 that passed its tests.
    Wrong(lab='15.2', name="stop_run's own cancellation waiting a hundred turns for a polled task",
          rule='Once stop_run has insisted, its own cancellation goes on up when the task it waits for is over, not before. A hard wait that polls the task turn by turn (rather than awaiting it) receives its own cancellation itself, and a cap of a hundred turns on the wait that follows lets it go up while the task is still winding up: whoever stopped stop_run is told too early (hunt round 26, 15.2-40; unlike round 22\'s allowed design, whose cap follows an await of the task, asyncio hands the cancellation on to the task here on no path).',
          where='lab 15.2, Build section: "Once `stop_run` has insisted, its own cancellation goes on up when the task it waits for is over, not before"',
          names='must still go on up once the task is over, not before',
          replace=r'''
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
          by=r'''
    stopped, after = False, 0
    while not task.done():  # polled: stop_run's own cancellation lands here, not on the task
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError:
            stopped = True
        if stopped:
            after += 1
            if after > 100:  # stopped ourselves: a hundred turns more for the task, no longer
                break
    if stopped or asyncio.current_task().cancelling():
        raise asyncio.CancelledError()
    if not task.cancelled() and task.exception() is not None:
        raise task.exception()
    return "hard"
'''),
    Wrong(lab='15.2', name="a hard wait with a deadline of sixty years by the loop's clock",
          rule='When stop_run returns, the task is over, whichever the answer; once it has insisted it waits for the task with no limit in turns or in seconds: time in the course is turns of the event loop, and a clock can jump, by decades or by millennia (hunt round 26, 15.2-20).',
          where='lab 15.2, Build section: "when `stop_run` returns, the task is over, whichever the answer"',
          names='with no limit in turns or in seconds',
          replace=r'''
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
          by=r'''
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60 * 365 * 86400  # sixty years: past any clock that jumps
    stopped = False
    while not task.done() and loop.time() < deadline:
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError:
            stopped = True
    if stopped or asyncio.current_task().cancelling():
        raise asyncio.CancelledError()
    if task.done() and not task.cancelled() and task.exception() is not None:
        raise task.exception()
    return "hard"
'''),
    Wrong(lab='15.2', name='a grace below minus a million read as the default',
          rule='A grace below 0 counts as 0, however far below: a grace below -1,000,000 taken for a slip and given the default five turns lets a run that looks wind up "clean" where no grace was given (hunt round 26, 15.2-42).',
          where='lab 15.2, Build section: "A grace below 0 counts as 0."',
          names='however far below',
          replace=r'''
    for _ in range(grace):
''',
          by=r'''
    if grace < -10 ** 6:  # nobody means that: the default
        grace = 5
    for _ in range(grace):
'''),
    Wrong(lab='15.2', name='no grace for a task somebody is cancelling already',
          rule='A task that ends within the grace is "clean" however it ended, even cancelled by somebody else, and a second stop_run on a task still dying waits for it as the first does: a stop_run started while another insists gives the task its grace all the same, rather than insisting at once, cutting its clean-up short and answering "hard" (hunt round 26, probe 15.2-p8).',
          where='lab 15.2, Build section: "A task that ends within the grace is `"clean"` however it ended, even cancelled by somebody else"',
          names='even cancelled by somebody else, here the first stop_run',
          replace=r'''
    harness.cancel()
    for _ in range(grace):
''',
          by=r'''
    harness.cancel()
    if task.cancelling():  # somebody insists already: no grace to give
        grace = 0
    for _ in range(grace):
'''),
    # Hunt round 29 (reader r163), designs 15.2-45 and 15.2-49.
    Wrong(lab='15.2', name='the hard wait handing on only the familiar failures',
          rule="Only the task's own cancellation may end at stop_run: a task that, cancelled, raises something else hands it on, whatever its class, a frontend's own class as much as ValueError or OSError (hunt round 29, r163 design 45).",
          where='lab 15.2, Build section: "Only the task\'s own cancellation may end at `stop_run`"',
          names="Only the task's own cancellation may end at stop_run",
          replace=r'''
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
''',
          by=r'''
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    except (ValueError, LookupError, OSError):
        raise  # the failures worth telling the caller about
    except Exception:
        pass  # any other is the task's own business
'''),
    Wrong(lab='15.2', name='with no grace, the harness asked again after insisting',
          rule='The harness is asked once: with a grace of 0 as with any, stop_run does not call harness.cancel() again once it has cancelled the task (hunt round 29, r163 design 49).',
          where='lab 15.2, Build section: "Nor does it ask twice"',
          names='asked once',
          replace=r'''
    task.cancel()
    try:
''',
          by=r'''
    task.cancel()
    if grace <= 0:
        harness.cancel()  # once more, to be sure: no code ran in between
    try:
'''),
    # Hunt round 29 (reader r163), design 15.2-47.
    Wrong(lab='15.2', name='a grace above a billion looked through every tenth turn',
          rule='stop_run spends no turn waiting once the task is done, whatever the grace: a grace of more than a billion turns costs nothing to give, and is looked through turn by turn like any (hunt round 29, r163 design 47).',
          where='lab 15.2, Build section: "`stop_run` spends no turn waiting once the task is done"',
          names='looked through turn by turn',
          replace=r'''
    for _ in range(grace):
        if task.done():
            break
''',
          by=r'''
    for turn in range(grace):
        if (grace <= 10 ** 9 or turn % 10 == 0) and task.done():  # a huge grace: look less often
            break
'''),
    # Hunt round 29 (reader r163), design 15.2-50.
    Wrong(lab='15.2', name='a grace above 200 turns one turn short',
          rule='"clean" when the task finished by itself within `grace` turns of the event loop, at every size: a run that needs exactly N turns after Stop is clean under a grace of N, whether N is a few turns or hundreds (hunt round 29, r163 design 50).',
          where='lab 15.2, Build section: "the task finished by itself within `grace` turns of the event loop"',
          names='of a few turns or hundreds',
          replace=r'''
    for _ in range(grace):
        if task.done():
            break
''',
          by=r'''
    for _ in range(grace - (grace > 200)):  # a big grace: the last turn is the look after the loop
        if task.done():
            break
'''),
    # Hunt round 30 (reader r168): designs 55, 34, 33, 08, 49 and probe P3, each now caught.
    Wrong(lab='15.1', name='cancel() forgetting the run it stopped',
          rule='h.cancel() asks the run to stop; the run is going until it has unwound, so is_running stays True from prompt() until that run is exhausted, closed or dies, and another prompt() is refused until then (hunt round 30, r168 design 55).',
          where='lab 15.1, Build section, item 3: "`h.cancel()` at any moment after `prompt()` has returned stops that run"; the Harness docstring in the starter says is_running is True from prompt() until that run is exhausted, closed or dies',
          names='is_running stays True',
          replace=r"""
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
""",
          by=r"""
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
        self._run_now = None  # stopped: the harness is free again
"""),
    Wrong(lab='15.1', name="a stopped command's output stripped before its cut",
          rule="What stands above Command cancelled is nothing, or what the command printed before Stop, cut to bash's budget like any output: as printed, its indentation and blank lines kept, not text stripped first (hunt round 30, r168 design 34).",
          where='lab 15.1, Build section, item 5: "nothing, or what the command printed before Stop, cut to bash\'s budget like any output"',
          names='nor text stripped first',
          replace=r"""
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
""",
          by=r"""
                if signal is not None and signal.is_cancelled():
                    process.kill()
                    printed, _ = process.output()
                    printed = printed.strip() + "\n" if printed.strip() else ""  # tidied first
                    printed, _ = truncate_tail(printed, max_lines, max_bytes)
                    return printed + "Command cancelled"
"""),
    Wrong(lab='15.1', name="a stopped command's output cut to ten lines",
          rule="What stands above Command cancelled is nothing, or what the command printed before Stop, cut to bash's budget like any output: lesson 6's cut to max_lines and max_bytes, not a cut of a size of its own (hunt round 30, r168 probe P3).",
          where='lab 15.1, Build section, item 5: "cut to bash\'s budget like any output"',
          names='not a cut of a size of its own',
          replace=r"""
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
""",
          by=r"""
                if signal is not None and signal.is_cancelled():
                    process.kill()
                    printed, _ = process.output()
                    printed, _ = truncate_tail(printed, 10, max_bytes)  # ten lines: enough
                    if printed and not printed.endswith("\n"):
                        printed += "\n"
                    return printed + "Command cancelled"
"""),
    Wrong(lab='15.1', name="bash giving up after a year by the loop's clock",
          rule='A command that merely takes a while is waited for: bash has no timeout of its own, by turns or by any clock, a year\'s included, and only Stop ends a command early (hunt round 30, r168 design 33).',
          where='lab 15.1, Build section, item 5: "bash has no timeout of its own, and only Stop ends a command early"',
          names='no timeout of its own',
          replace=r"""
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
""",
          by=r"""
            began = asyncio.get_running_loop().time()
            while not process.done():
                if asyncio.get_running_loop().time() - began > 365 * 86_400:  # a year: hung
                    return "Command timed out after a year"
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
"""),
    Wrong(lab='15.1', name='bash looking at the flag every twentieth turn after three hundred laps',
          rule='bash must hear Stop while its command runs: no more than five event-loop turns after h.cancel(), however long the command has already run (hunt round 30, r168 design 08).',
          where='lab 15.1, Build section, item 5: "bash must hear Stop while its command runs: no more than five event-loop turns after `h.cancel()`, the command is dead"',
          names='however long the command has already run',
          replace=r"""
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
""",
          by=r"""
            laps = 0
            while not process.done():
                laps += 1
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                for _ in range(1 if laps < 300 else 20):  # a long command: look less often
                    await asyncio.sleep(0)
"""),
    Wrong(lab='15.1', name="the signal handed only to the run's first two hundred calls",
          rule='Every tool call is handed the signal, however many calls the run has made, across its batches (hunt round 30, r168 design 49).',
          where='lab 15.1, Build section, item 4: "Every tool call is handed the signal too"',
          names='however many calls the run has made',
          replace=r"""
    turn, todo, failed = 0, [], False
""",
          by=r"""
    turn, todo, failed = 0, [], False
    calls_made = 0
""",
          also=((r"""
                result = await run_tool(tools, call, signal)
""", r"""
                calls_made += 1  # a run this long is past stopping
                result = await run_tool(tools, call, signal if calls_made <= 200 else None)
"""),)),
    # Hunt round 32 (reader r183): designs 02, 39, 05, 06 and 26, each now caught.
    Wrong(lab='15.2', name="a grace that also ends after thirty seconds of the machine's clock",
          rule='The answer is "clean" when the task finished by itself within `grace` turns of the event loop: the grace counts turns, never seconds, so a clock that says hours went by ends no grace (hunt round 32, r183 design 02).',
          where='lab 15.2, Build section, item 2: "the task finished by itself within `grace` turns of the event loop"',
          names='never seconds',
          replace=r"""
    harness.cancel()
    for _ in range(grace):
        if task.done():
            break
""",
          by=r"""
    harness.cancel()
    import time
    started = time.monotonic()
    for _ in range(grace):
        if task.done() or time.monotonic() - started > 30:  # nobody waits half a minute
            break
"""),
    Wrong(lab='15.2', name="a hard wait that gives up after ten minutes of the machine's clock",
          rule='What a caller may rely on: when stop_run returns, the task is over, whichever the answer; once it has insisted it waits for the task with no limit in turns or in seconds, by the loop\'s clock or the machine\'s (hunt round 32, r183 design 39).',
          where='lab 15.2, Build section, item 2: "What a caller may rely on: when `stop_run` returns, the task is over, whichever the answer"',
          names='no limit in turns or in seconds',
          replace=r'''
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
          by=r'''
    import time
    deadline, own = time.monotonic() + 600, None  # ten minutes to die, at most
    while not task.done() and time.monotonic() < deadline:
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError as stop:  # stop_run's own: on up once the task is over
            own = stop
    if own is not None:
        raise own
    if task.done() and not task.cancelled() and task.exception() is not None:
        raise task.exception()
    return "hard"
'''),
    Wrong(lab='15.2', name='a task once asked never asked again',
          rule='Each stop_run asks the run to stop through the harness before it insists: stop_run keeps nothing from one call to the next, so a stop_run on a task an earlier one asked, now in another run, asks again (hunt round 32, r183 design 05).',
          where='lab 15.2, Build section, item 2: "stop the run that `task` consumes, and say how it went"; stop_run\'s docstring in the starter (ask, wait a little, then insist)',
          names='keeps nothing from one call to the next',
          replace=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
''',
          by=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    import weakref
    asked = vars(stop_run).setdefault("asked", weakref.WeakSet())  # tasks asked already
    if task not in asked:  # ask a task once, however many stop_runs come for it
        asked.add(task)
        harness.cancel()
'''),
    Wrong(lab='15.2', name='the hard wait swallowing a death that is no Exception',
          rule='Only the task\'s own cancellation may end at stop_run: a task that, cancelled, raises something else hands it on to stop_run\'s caller, whatever its class, one that is not even an Exception (as lab.PowerCut is not) included (hunt round 32, r183 design 06).',
          where='lab 15.2, Build section, item 2: "Only the task\'s own cancellation may end at `stop_run`."',
          names='not even an Exception',
          replace=r'''
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
''',
          by=r'''
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except Exception:
        raise  # a failure of the task's own goes to whoever asked
    except BaseException:  # however else it died, it is over, and that was the point
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
'''),
    Wrong(lab='15.2', name='a note added to the CancelledError on its way through run_tool',
          rule='asyncio.CancelledError raised inside a tool leaves run_tool as it came in: the same exception, its message, its cause and its notes as the tool left them, nothing added (hunt round 32, r183 design 26).',
          where='lab 15.2, Build section, item 1: "`asyncio.CancelledError` raised inside a tool leaves `run_tool` as it came in"',
          names='nor an add_note',
          replace=r'''
        except asyncio.CancelledError:
            raise  # the task is being stopped; that is news for its owner, not for the model
''',
          by=r'''
        except asyncio.CancelledError as exc:
            exc.add_note(f"while running tool {call['name']} ({call['id']})")
            raise  # the task is being stopped; that is news for its owner, not for the model
'''),
    # Hunt round 35 (reader r192), design 02 (bash-poll-backoff).
    Wrong(lab='15.1', name='bash looking at the flag every twentieth turn after three thousand laps',
          rule='bash must hear Stop while its command runs: no more than five event-loop turns after h.cancel(), however long the command has already run, three thousand laps and more included (hunt round 35, r192 design 02).',
          where='lab 15.1, Build section, item 5: "no more than five event-loop turns after `h.cancel()`, the command is dead"',
          names='however long the command has already run',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
            laps = 0
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                laps += 1
                for _ in range(1 if laps < 3_000 else 20):  # a long command: look less often
                    await asyncio.sleep(0)
'''),
    # Hunt round 35 (reader r192), design 03 (bash-stops-looking).
    Wrong(lab='15.1', name='bash deaf to Stop after three thousand laps',
          rule='bash must hear Stop while its command runs: no more than five event-loop turns after h.cancel(), however long the command has already run (hunt round 35, r192 design 03; the same after twelve thousand laps is beyond reach).',
          where='lab 15.1, Build section, item 5: "no more than five event-loop turns after `h.cancel()`, the command is dead"',
          names='however long the command has already run',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''',
          by=r'''
            laps = 0
            while not process.done():
                laps += 1
                if laps < 3_000 and signal is not None and signal.is_cancelled():
                    return "Command cancelled"  # past that, the command is left to finish
'''),
    # Hunt round 35 (reader r192), probe 09 (token-renewed-at-run-end).
    Wrong(lab='15.1', name='the next run\'s token made as a run ends, cancel() heard only while a run goes',
          rule='Each run has a token of its own, made when the run is: a token renewed only as a run ends is not renewed for a run closed before its first step, whose finally never runs, so that run\'s Stop stops the next (hunt round 35, r192 probe 09).',
          where='lab 15.1, Build section, item 3: "Each run has a token of its own"',
          names='Each run has a token of its own',
          replace=r"""
        self._signal, run = CancelToken(), self._run(text)  # one line: one beginning
""",
          by=r"""
        run = self._run(text)  # the token in place was made as the last run ended
""",
          also=((r"""
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
""", r"""
        if self.is_running:
            self._signal.cancel()
"""), (r"""
        finally:  # exhausted, closed by the consumer, or dying
            await inner.aclose()
""", r"""
        finally:  # exhausted, closed by the consumer, or dying
            await inner.aclose()
            self._signal = CancelToken()  # the next run starts clear
"""))),
    # Hunt round 35 (reader r192), design 04 (bash-timeout-clock).
    Wrong(lab='15.1', name="bash giving up after thirty thousand years by the loop's clock",
          rule='A command that merely takes a while is waited for, however long the clock says it took: bash has no timeout of its own, and only Stop ends a command early (hunt round 35, r192 design 04).',
          where='lab 15.1, Build section, item 5: "bash has no timeout of its own, and only Stop ends a command early"',
          names='no timeout of its own',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
            began = asyncio.get_running_loop().time()
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                if asyncio.get_running_loop().time() - began > 1e12:  # ~30,000 years: hung
                    return "Command timed out"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
'''),
    # Hunt round 35 (reader r192), design 05 (bash-except-too-narrow).
    Wrong(lab='15.1', name='the kill in an except naming CancelledError and GeneratorExit only',
          rule="However bash's execute is left, its command is not left running: a PowerCut or a KeyboardInterrupt raised at its await is a way out too, so the kill goes in a finally (hunt round 35, r192 design 05).",
          where='lab 15.1, Build section, item 5: "However bash\'s `execute` is left (an answer, a Stop, or its task being cancelled from outside), the command is not left running"',
          names="However bash's execute is left",
          replace=r'''
        finally:
            process.kill()  # on every way out, a hard cancel's too; harmless once it is done
''',
          by=r'''
        except (asyncio.CancelledError, GeneratorExit):  # the two ways a wait is cut short
            process.kill()
            raise
        process.kill()  # the Stop's way out and the answer's
'''),
    # Hunt round 35 (reader r192), designs 11 (cancel-idle-notifies) and 54 (its stop_requested).
    Wrong(lab='15.1', name="an idle cancel() heard by the harness's listeners",
          rule='h.cancel() with no run going does nothing anyone can see, and a frontend\'s listener is someone: it hears no event from an idle Stop (hunt round 35, r192 designs 11 and 54).',
          where='lab 15.1, Build section, item 3: "`h.cancel()` with no run going does nothing anyone can see"',
          names='does nothing anyone can see',
          replace=r'''
    def cancel(self):
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
''',
          by=r'''
    def cancel(self):
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
        if not self.is_running:
            self._notify({"type": "cancel_ignored"})  # tell the frontends it came too late
'''),
    # Hunt round 35 (reader r192), design 12 (token-expires).
    Wrong(lab='15.1', name='a token whose Stop goes stale after an hour of the clock',
          rule='After cancel() a token is cancelled, and it stays so, however long ago it was pressed (hunt round 35, r192 design 12).',
          where='lab 15.1, Build section, item 2: "After `cancel()` it is, and it stays so"',
          names='never clears',
          replace=r"""
    def cancel(self):
        self._cancelled = True

    def is_cancelled(self):
        return self._cancelled
""",
          by=r"""
    def cancel(self):
        import time
        if not self._cancelled:
            self._cancelled = time.monotonic()

    def is_cancelled(self):
        import time  # a Stop older than an hour is stale
        return bool(self._cancelled) and time.monotonic() - self._cancelled < 3600
"""),
    # Hunt round 35 (reader r192), design 36 (token-counts-presses).
    Wrong(lab='15.1', name='a token cleared by its 256th cancel()',
          rule='After cancel() a token is cancelled, and it stays so, however often it is pressed: a count of presses kept in a byte clears it at the 256th (hunt round 35, r192 design 36).',
          where='lab 15.1, Build section, item 2: "After `cancel()` it is, and it stays so"',
          names='never clears',
          replace=r"""
    def cancel(self):
        self._cancelled = True

    def is_cancelled(self):
        return self._cancelled
""",
          by=r"""
    def cancel(self):
        self._cancelled = (self._cancelled + 1) % 256  # count the presses, in a byte

    def is_cancelled(self):
        return bool(self._cancelled)
"""),
    # Hunt round 35 (reader r192), probe 17 (no-fourth-arg-when-none), ruled by the page.
    Wrong(lab='15.1', name='acomplete handed no fourth argument when there is no signal',
          rule="Every request that goes out carries the signal as acomplete's fourth argument, None included: with no signal, acomplete is still handed None, so a provider may take that parameter with no default (hunt round 35, r192 probe 17).",
          where='lab 15.1, Build section, item 4: "`None` included: with no signal, `acomplete` is still handed `None`, so a provider may take that parameter with no default"',
          names='None included',
          replace=r"""
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools), signal)
""",
          by=r"""
                if signal is None:  # nothing to hand on: ask the way lesson 7 did
                    reply = await model.acomplete(system, context_for_model(messages),
                                                  tool_specs(tools))
                else:
                    reply = await model.acomplete(system, context_for_model(messages),
                                                  tool_specs(tools), signal)
"""),
    # Hunt round 35 (reader r192), probe 43 (flag-error-fails-open), ruled by the page.
    Wrong(lab='15.1', name='a signal whose is_cancelled() raises read as clear',
          rule="A signal whose is_cancelled() raises has not said go on: its exception goes up, or the signal counts as set, never as clear; run_tool that reads such a flag as clear runs the tool it guards (hunt round 35, r192 probe 43).",
          where='lab 15.1, Build section, item 2: "A signal whose `is_cancelled()` raises has not said go on: its exception goes up, or the signal counts as set, never as clear"',
          names='has not said go on',
          replace=r"""
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
    elif tool is None:
""",
          by=r"""
    try:
        stopped = signal is not None and signal.is_cancelled()
    except Exception:  # a frontend's flag that breaks has not said stop
        stopped = False
    if stopped:
        text, failed = ABORTED, True
    elif tool is None:
"""),
    # Hunt round 35 (reader r192), probe 20 (cancelled-output-rstripped), ruled by the page.
    Wrong(lab='15.1', name="a stopped command's cut output stripped at its end",
          rule="What stands above Command cancelled is nothing, or what the command printed before Stop, cut to bash's budget like any output: blank lines at its end may go, and every other character stays as printed, the spaces that end its last line too (hunt round 35, r192 probe 20).",
          where='lab 15.1, Build section, item 5: "blank lines at its end may go, and every other character stays as printed"',
          names='every other character stays as printed',
          replace=r"""
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
""",
          by=r"""
                if signal is not None and signal.is_cancelled():
                    process.kill()
                    so_far, _ = truncate_tail(process.output()[0], max_lines, max_bytes)
                    so_far = so_far.rstrip()  # tidied: no whitespace at its end
                    return (so_far + "\n" if so_far else "") + "Command cancelled"
"""),
]

# Designs the lesson allows: each passes its lab (tests/authoring/test_allowed_designs.py).
ALLOWED = [
    # Hunt round 10 (reader r44), probe 15.1-12.
    Wrong(lab='15.1', name='bash starting no command when Stop is already set',
          rule="Handed a signal already set, bash may start no command at all, as Tau's does, or start it and kill it at its first look: either way none is left running and the result ends with the line Command cancelled (hunt round 10, probe 15.1-12).",
          where='lab 15.1, Build section: "Handed a signal already set, bash may start no command at all, as Tau\'s does"',
          names='',
          replace=r'''
    async def execute(arguments, signal=None):
        process = shell.start(str_arg(arguments, "command"))
''',
          by=r'''
    async def execute(arguments, signal=None):
        if signal is not None and signal.is_cancelled():
            return "Command cancelled"  # declined, as Tau's bash does
        process = shell.start(str_arg(arguments, "command"))
'''),
    Wrong(lab='15.1', name='bash raising on Stop',
          rule='Lesson 15 states only that a stopped command\'s result ends with the line Command cancelled; it says nothing of keeping what the command printed (the reference drops it, Tau keeps it) or of is_error for a stopped command, so a bash that raises RuntimeError("Command cancelled") meets every rule of lab 15.1 (hunt round 4, 15.1-20).',
          where='lab 15.1, Build section: "the call\'s result ends with the line `Command cancelled`"',
          names='',
          replace=r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''',
          by=r'''
                if signal is not None and signal.is_cancelled():
                    raise RuntimeError("Command cancelled")  # a failed call, its output dropped
'''),
    # Round 9 (r38): three more ways of bash that keep every rule lab 15.1 states.
    Wrong(lab='15.1', name='bash looking at the flag on every fifth lap',
          rule='Lesson 15 bounds how soon bash hears Stop, "no more than five event-loop turns after h.cancel()", and leaves how bash waits to the student ("how bash waits for its command, are yours to decide"): a look on every fifth lap still ends the run within five turns wherever Stop falls (hunt round 9, 15.1-01 and 15.1-34).',
          where='lab 15.1, Build section: "no more than five event-loop turns after `h.cancel()`"',
          names='',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
            laps = 0
            while not process.done():
                if laps % 5 == 4 and signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                laps += 1  # a look every fifth lap: Stop still lands within five turns
                await asyncio.sleep(0)
'''),
    Wrong(lab='15.1', name='bash keeping what it printed, cut, and its exit line above Command cancelled',
          rule="A stopped command's result ends with the line Command cancelled, and what stands above it is the student's to decide: nothing (the reference), or what the command printed, cut to bash's budget as any output is, with the killed command's exit line or without (hunt round 9, 15.1-07 and 15.1-08; round 4's 15.1-20).",
          where='lab 15.1, Build section: "What stands above that line is yours to decide: nothing, or what the command printed before Stop, cut to bash\'s budget like any output, with its exit line or without"',
          names='',
          replace=r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''',
          by=r'''
                if signal is not None and signal.is_cancelled():
                    process.kill()
                    printed, code = process.output()
                    printed, _ = truncate_tail(printed, max_lines, max_bytes)
                    if printed and not printed.endswith("\n"):
                        printed += "\n"
                    return f"{printed}Command exited with code {code}\nCommand cancelled"
'''),
    Wrong(lab='15.1', name='bash looking at the flag before asking whether the command is done',
          rule='Where each look goes inside its function is the student\'s to decide (lab 15.1\'s Build section): a bash that reads the flag before done() reports a command that ended in the turn Stop was pressed as cancelled, and the run ends aborted either way (hunt round 9, 15.1-36).',
          where='lab 15.1, Build section: "Where each look goes inside its function, and how bash waits for its command, are yours to decide"',
          names='',
          replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
          by=r'''
            while True:
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"  # Stop first, even for a command just done
                if process.done():
                    break
                await asyncio.sleep(0)
'''),
    Wrong(lab='15.2', name='with no grace, insisting first and asking after',
          rule='No await lies between task.cancel() and harness.cancel(), so the cancellation reaches the task only once the flag is set, and a tool finds it set either way; a task over already is answered before either (hunt round 9, 15.2-12).',
          where='lab 15.2, Build section: "With a grace of 0, asking and cancelling on the same turn, in either order, is yours to choose"',
          names='',
          replace=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
''',
          by=r'''
    if task.done():
        return "clean"
    if grace:  # no grace, no time to ask: insist at once, then ask
        harness.cancel()
''',
          also=((r'''
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
''', r'''
    task.cancel()
    if not grace:  # asked only now, and only once: with a grace it was asked before
        harness.cancel()  # and tell the loop, on the same turn
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
'''),)),
    Wrong(lab='15.2', name='the clause re-raising the CancelledError it caught by name',
          rule='The boundary names asyncio.CancelledError in a clause of its own, above the wide one, and the cancellation "leaves `run_tool` as it came in": `except asyncio.CancelledError as exc: raise exc` sends on the very object that came in, as a bare raise does, and the clause still says in writing that it must pass (hunt round 12, 15.2-09).',
          where='lab 15.2, Build section: "leaves `run_tool` as it came in"',
          names='',
          replace=r"""
        except asyncio.CancelledError:
            raise  # the task is being stopped; that is news for its owner, not for the model
""",
          by=r"""
        except asyncio.CancelledError as exc:
            raise exc  # the same cancellation, sent on by name
"""),
    # Hunt round 12 (reader r58), probe 15.2-10, ruled by the page at stop 55.
    Wrong(lab='15.2', name='stop_run raising a CancelledError of its own',
          rule='Once stop_run has insisted, its own cancellation goes on up when the task is over; which CancelledError carries it up is the student\'s.',
          where='lab 15.2, Build section, item 2: "which `CancelledError` carries it up is yours"',
          names='',
          replace=r'''
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
''',
          by=r'''
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise asyncio.CancelledError()  # a cancellation of its own: the same news
'''),
    # Hunt round 12 (reader r58), probe 15.2-23, ruled by the page at stop 55.
    Wrong(lab='15.2', name="stop_run looking at a clean task's exception",
          rule="On a clean stop the task's own ending stays the task's; whether stop_run looks at it (task.exception()) is the student's, since whoever awaits the task still sees it.",
          where='lab 15.2, Build section, item 2: "Whether it looks at that ending (`task.exception()`) is yours"',
          names='',
          replace=r'''
    if task.done():
        return "clean"
    task.cancel()
''',
          by=r'''
    if task.done():
        if not task.cancelled():
            task.exception()  # looked at; whoever awaits the task still sees it
        return "clean"
    task.cancel()
'''),
    # Round 13 (r70), 15.1-32.
    Wrong(lab='15.1', name='Command cancelled with its newline',
          rule='Lesson 15 asks that a stopped command\'s result end with the line Command cancelled; a line keeps its newline (str.splitlines reads "Command cancelled\\n" as that one line, and the outputs bash returns end with theirs), so a result ending "Command cancelled\\n" ends with that line (hunt round 13, 15.1-32).',
          where='lab 15.1, Build section: "the call\'s result ends with the line `Command cancelled`"',
          names='',
          replace=r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''',
          by=r'''
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled\n"  # a line, newline and all
'''),
    # Hunt round 15 (reader r81): four designs of stop_run the page leaves to the student.
    Wrong(lab='15.2', name="the flag set through the harness's own token",
          rule="stop_run asks the run to stop through the harness: the page holds what that sets, the run's flag, before the grace, not which of harness.py's own names sets it, and harness.cancel() does no more than set its token (hunt round 15, 15.2-30).",
          where='lab 15.2, Build section, item 2: "The answer is `"clean"` when the harness\'s own Stop was enough"',
          names='',
          replace=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
''',
          by=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness._signal.cancel()  # the token harness.cancel() sets, set directly
'''),
    Wrong(lab='15.2', name='the task cancelled with a reason',
          rule='Otherwise the task is cancelled and waited for: a reason handed to task.cancel() rides on the CancelledError the task meets, and stop_run still answers "hard", swallows only the task\'s own cancellation and returns once the task is over (hunt round 15, probe 15.2-51).',
          where='lab 15.2, Build section, item 2: "Otherwise the answer is `"hard"`, and the task was cancelled."',
          names='',
          replace=r'''
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
''',
          by=r'''
    task.cancel("stopped by stop_run")  # a reason, for whoever reads the CancelledError
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
'''),
    Wrong(lab='15.2', name='a grace that is not a whole number made one',
          rule='grace counts turns of the event loop, and the page says what a grace below 0 means and nothing of one that is not a whole number, which no caller in the lesson passes: reading True as 1, 2.5 as 2 or None as the default five is the student\'s (hunt round 15, probe 15.2-52).',
          where='lab 15.2, Build section, item 2: "A grace below 0 counts as 0."',
          names='',
          replace=r"""
    for _ in range(grace):
""",
          by=r"""
    for _ in range(int(5 if grace is None else grace)):  # True is 1, 2.5 is 2, None the default
"""),
    Wrong(lab='15.2', name="stop_run looking at a hard-stopped task's ending",
          rule="Whether stop_run looks at the task's ending (task.exception()) is the student's: after a hard stop the task is over, what it raised other than its cancellation has gone on up already, and a look changes nothing a caller sees (hunt round 15, probe 15.2-54; round 12's 15.2-23 for a clean stop).",
          where='lab 15.2, Build section, item 2: "Whether it looks at that ending (`task.exception()`) is yours"',
          names='',
          replace=r'''
    return "hard"
''',
          by=r'''
    if not task.cancelled():
        task.exception()  # looked at, so that nobody is told it was never retrieved
    return "hard"
'''),
    # Hunt round 17 (reader r89): probes the page leaves open.
    Wrong(lab='15.1', name='the guard refusing a call whose signal is set',
          rule="run_tool looks at the signal before it calls any execute, so a guard that also refuses a call whose signal is set is never reached that way; the page asks nothing of a guard handed a set signal directly, which is no bash, and the lab's calls of it through run_tool see the same answers as the reference's (hunt round 17, probe 15.1-52).",
          where='lab 15.1, Build section, item 5: "A call that comes up after Stop still gets its one result"',
          names='',
          replace=r"""
    async def execute(arguments, signal=None):
        try:
            reason = check(tool["name"], arguments)
""",
          by=r"""
    async def execute(arguments, signal=None):
        if signal is not None and signal.is_cancelled():
            raise PermissionError("Tool call blocked: the run was stopped")
        try:
            reason = check(tool["name"], arguments)
"""),
    Wrong(lab='15.1', name='cancel() setting the token only while a run goes',
          rule="The page allows setting the token of a run that is over, and asks only that an idle cancel() does nothing anyone can see; not setting it while idle is the same to every caller, since is_running is True from prompt() on, so a Stop before the first step still lands (hunt round 17, probe 15.1-53).",
          where='lab 15.1, Build section, item 3: "setting the token of a run that is over, which nobody reads again, is allowed"',
          names='',
          replace=r"""
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
""",
          by=r"""
        if self.is_running:  # idle: nothing to stop, and nothing is touched
            self._signal.cancel()
"""),
    Wrong(lab='15.1', name='run_tool taking an object with no is_cancelled() for no signal',
          rule="Any object with is_cancelled() can serve as a signal; the page says nothing of an object without one, which is no signal, so how run_tool treats it is left open (hunt round 17, probe 15.1-56).",
          where='lab 15.1, Build section, item 2: "Any object with `is_cancelled()` can serve as a signal"',
          names='',
          replace=r"""
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
""",
          by=r"""
    if getattr(signal, "is_cancelled", None) is not None and signal.is_cancelled():
        text, failed = ABORTED, True
"""),
    Wrong(lab='15.1', name='a CancelToken true once cancelled',
          rule="A signal is asked, never taken for true or false, by the code that reads it; the page leaves the token's own truth value open, and a token that counts as true once cancelled changes nothing a reader that asks is_cancelled() sees (hunt round 17, probe 15.1-61).",
          where='lab 15.1, Build section, item 2: "a signal is asked, never taken for true or false"',
          names='',
          replace=r"""
    def is_cancelled(self):
        return self._cancelled
""",
          by=r"""
    def is_cancelled(self):
        return self._cancelled

    def __bool__(self):
        return self._cancelled
"""),
    Wrong(lab='15.1', name="forgetting the run's token when the run ends (Tau's line)",
          rule="Tau's line, which forgets the token at the end of a run if it is still that run's, is one the page says the lab does not ask for; it is not forbidden, and a cancel() with no token does nothing (hunt round 17, probe 15.1-62).",
          where='lab 15.1, section "Your code beside Tau\'s": "The lab does not ask for that line"',
          names='',
          replace=r"""
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
""",
          by=r"""
        if self._signal is not None:  # None once a run is over and forgot its token
            self._signal.cancel()
""",
          also=((r"""
        finally:  # exhausted, closed by the consumer, or dying
            await inner.aclose()
""", r"""
        finally:  # exhausted, closed by the consumer, or dying
            await inner.aclose()
            if self._signal is token:
                self._signal = None  # Tau's line: the run is over, its token forgotten
"""), (r"""
                        signal=self._signal)
        try:
""", r"""
                        signal=self._signal)
        token = self._signal
        try:
"""))),
    # Hunt round 20 (reader r107), probes 15.1-30 and 15.1-46.
    Wrong(lab='15.1', name='bash waiting a turn before each look at the flag',
          rule="Where each look goes inside bash is the student's: a bash that gives up the floor before each look, its first included, still kills its command at its first look when handed a signal already set, and hears a Stop within five event-loop turns wherever it falls; none is left running (hunt round 20, probe 15.1-30).",
          where='lab 15.1, Build section: "Where each look goes inside its function, and how bash waits for its command, are yours to decide"; item 5: "start it and kill it at its first look"',
          names='first look',
          replace=r"""
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
""",
          by=r"""
            while not process.done():
                await asyncio.sleep(0)  # a turn first, then a look, the first look included
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
"""),
    Wrong(lab='15.1', name='bash waiting up to three turns for its command before its first look',
          rule="Handed a signal already set, bash may start its command and kill it at its first look, and a command already done when bash first looked may have its output come back as usual; where that first look goes is the student's, so long as a Stop ends the command within five event-loop turns: a first look three turns in still kills sleep inf within five, and a command done by then comes back as usual (hunt round 20, probe 15.1-46).",
          where='lab 15.1, Build section, item 5: "unless the command was already done when bash first looked" and "no more than five event-loop turns after `h.cancel()`"',
          names='first look',
          replace=r"""
        process = shell.start(str_arg(arguments, "command"))
        try:
            while not process.done():
""",
          by=r"""
        process = shell.start(str_arg(arguments, "command"))
        try:
            for _ in range(3):  # a short command is simply waited for, before any look
                if process.done():
                    break
                await asyncio.sleep(0)
            while not process.done():
"""),
    # Hunt round 22 (reader r118), design 15.2-40, ruled allowed: its cap is on a path asyncio never takes.
    Wrong(lab='15.2', name="stop_run's own cancellation waiting a hundred turns for the task",
          rule='Once stop_run has insisted, its own cancellation goes on up when the task it waits for is over, not before. A cap on a wait that follows a CancelledError reaching stop_run before the task is over sits on a path asyncio never takes: cancelling stop_run while it awaits a task that is not done hands the cancellation to that task (Task.cancel() cancels the future it awaits, and returns True), so `await task` raises only once the task is over, and the cap is dead code; the design behaves as the reference does (hunt round 22, 15.2-40, ruled allowed).',
          where='lab 15.2, Build section: "Once `stop_run` has insisted, its own cancellation goes on up when the task it waits for is over, not before"',
          names='',
          replace=r'''
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
''',
          by=r'''
    stopped, waited = False, 0
    while True:
        try:
            if stopped:  # stop_run's own cancellation: wait a while for the task, not for ever
                await asyncio.sleep(0)
                waited += 1
                if task.done() or waited > 100:
                    break
                continue
            await task
        except asyncio.CancelledError:
            if asyncio.current_task().cancelling():
                stopped = True
                if not task.done():
                    continue
        break
    if stopped:
        raise asyncio.CancelledError()
'''),
    # Hunt round 23 (reader r126), probe 15.1-54.
    Wrong(lab='15.1', name="the flag read inside run_tool's try",
          rule='Lesson 15 asks that a call coming up after Stop get its one result, ABORTED with is_error true, even when it names a tool nobody has; it says nothing of a signal whose is_cancelled() itself raises. A run_tool that reads the flag inside its try, raising ABORTED there, answers every call as the reference does, and turns such a raise into an error result, as lesson 4\'s boundary turns any raise into one (hunt round 23, probe 15.1-54).',
          where='lab 15.1, Build section, item 5: "A call that comes up after Stop still gets its one result, `ABORTED` with `is_error` true, even when it names a tool nobody has"',
          names='',
          replace=r"""
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
    elif tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = await tool["execute"](call["arguments"], signal), False
""",
          by=r"""
    if tool is None and not (signal is not None and signal.is_cancelled()):
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            if signal is not None and signal.is_cancelled():
                raise RuntimeError(ABORTED)  # the boundary makes it the call's one result
            text, failed = await tool["execute"](call["arguments"], signal), False
"""),
    # Hunt round 26 (reader r144), probes 15.2-p2 and 15.2-39.
    Wrong(lab='15.2', name='the cancellation clause naming its class in a tuple of one',
          rule='The boundary names asyncio.CancelledError in a clause of its own, above the wide one: `except (asyncio.CancelledError,):` is that clause spelt with a tuple of one, it catches the same and says the same in writing (hunt round 26, probe 15.2-p2).',
          where='lab 15.2, Build section: "the boundary names `asyncio.CancelledError` in a clause of its own, above the wide one"',
          names='',
          replace=r"""
        except asyncio.CancelledError:
            raise  # the task is being stopped; that is news for its owner, not for the model
""",
          by=r"""
        except (asyncio.CancelledError,):
            raise  # the task is being stopped; that is news for its owner, not for the model
"""),
    Wrong(lab='15.2', name='asking the harness only while it runs, a task over answered first',
          rule='A task that was over already is "clean" at once, unasked. For a task not over whose harness has no run going (a frontend with work after its run, a task that is no run at all), harness.cancel() would set the token of a run that is over, which nobody reads again: lab 15.1 lets an idle cancel() do nothing anyone can see, so asking only while harness.is_running changes nothing a caller or a run sees (hunt round 26, probe 15.2-39; unlike "asking only while the harness is running", which asks before it looks whether the task is over).',
          where='lab 15.1, Build section, item 3: "`h.cancel()` with no run going does nothing anyone can see"',
          names='',
          replace=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
''',
          by=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    if harness.is_running:  # an idle harness has no run to ask
        harness.cancel()
'''),
    # Hunt round 29 (reader r163), probes 15.2-P5 and 15.2-11, ruled by the page.
    Wrong(lab='15.2', name='a grace of None read as the default',
          rule='The page gives the signature stop_run(harness, task, grace=5) and speaks of graces that are numbers of turns, a grace below 0 included; it says nothing of a grace of None, so reading None as the default five breaks no rule (hunt round 29, r163 probe P5).',
          where='lab 15.2, Build section: "`stop_run(harness, task, grace=5)`"',
          names='',
          replace=r'''
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
''',
          by=r'''
    grace = 5 if grace is None else grace  # None: the default
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
'''),
    Wrong(lab='15.2', name='the cancellation clause setting the run\'s signal as it passes',
          rule='The page asks only that a CancelledError raised inside a tool leave run_tool as it came in, with no result made for that call; setting the run\'s signal on its way out tells nobody anything false, since the run is ending cancelled, and the page asks nothing of the flag there (hunt round 29, r163 probe 11).',
          where='lab 15.2, Build section: "leaves `run_tool` as it came in, and no result is made for that call"',
          names='',
          replace=r'''
            raise  # the task is being stopped; that is news for its owner, not for the model
''',
          by=r'''
            if signal is not None and hasattr(signal, "cancel"):
                signal.cancel()  # the run is ending: mark it stopped too
            raise  # the task is being stopped; that is news for its owner, not for the model
'''),
    # Hunt round 30 (reader r168), probes P9 and P10, ruled by the page.
    Wrong(lab='15.1', name="a stopped command's cut output with its Showing note",
          rule="What stands above Command cancelled is the student's: nothing, or what the command printed before Stop, cut to bash's budget like any output; any cut output of bash carries its [Showing the last k of n lines] note, so a stopped one may carry it too (hunt round 30, r168 probe P9).",
          where='lab 15.1, Build section, item 5: "What stands above that line is yours to decide: nothing, or what the command printed before Stop, cut to bash\'s budget like any output"',
          names='',
          replace=r"""
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
""",
          by=r"""
                if signal is not None and signal.is_cancelled():
                    process.kill()
                    printed, _ = process.output()
                    lines = len(printed.splitlines())
                    printed, kept = truncate_tail(printed, max_lines, max_bytes)
                    if printed and not printed.endswith("\n"):
                        printed += "\n"
                    if kept < lines:  # as any cut output says so
                        printed += (f"\n[Showing the last {kept} of {lines} lines. "
                                    "Narrow the command for more.]\n")
                    return printed + "Command cancelled"
"""),
    Wrong(lab='15.1', name="error_message's keys in another order",
          rule='The page asks for "the same message with that label": the same fields with the same values, which a dict holds in any order (== compares them so); it says nothing of the order its keys are written in, as lab 12.2 leaves a log entry\'s key order to the student (hunt round 30, r168 probe P10).',
          where='lab 15.1, Build section, item 1: "given `stop_reason="aborted"`, it makes the same message with that label"',
          names='',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": stop_reason, "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "error_message": text, "stop_reason": stop_reason, "content": []}
"""),
    # Hunt round 32 (reader r183), probe 37, ruled at the merge: which of two goes up.
    Wrong(lab='15.2', name="stop_run's own cancellation going up before a failure the task raised",
          rule='Once stop_run has insisted, its own cancellation goes on up when the task is over; when the task, cancelled, fails with something else while that cancellation is pending, the page leaves to the student which of the two goes on up (hunt round 32, r183 probe 37): here the cancellation, with the failure as its context.',
          where='lab 15.2, Build section, item 2: "which of the two goes on up is yours too"',
          names='',
          replace=r'''
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
''',
          by=r'''
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    except Exception:
        if asyncio.current_task().cancelling():  # the caller's cancellation first
            raise asyncio.CancelledError()
        raise
'''),
    # Hunt round 32 (reader r183), probe 12: the count stop_run compares cancelling() with.
    Wrong(lab='15.2', name="stop_run's own cancellation counted from cancelling() as it was on entry",
          rule='The page names asyncio.current_task().cancelling(), "the number of cancellation requests pending against the task you are running in", as what tells stop_run\'s own cancellation from the task\'s, and asks that a cancellation of the caller "while stop_run waits" go on up; comparing the count with the one stop_run found on entry, rather than with 0, differs only for a caller that already had a request pending when it called stop_run (one that caught a CancelledError without uncancel()), where the page asks nothing (hunt round 32, r183 probe 12, the reader\'s own form).',
          where='lab 15.2, Build section, item 2: "The name that tells the two apart is `asyncio.current_task().cancelling()`"',
          names='',
          replace=r'''
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
''',
          by=r'''
    before = asyncio.current_task().cancelling()  # requests pending before stop_run insisted
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling() > before:  # somebody is cancelling stop_run
            raise
    if asyncio.current_task().cancelling() > before:  # the task swallowed stop_run's own,
'''),
    # Hunt round 35 (reader r192), probe 48 (failed-any-unusual-reason).
    Wrong(lab='15.1', name='a reply failed unless it is labelled stop or toolUse',
          rule='A reply that ended "aborted" is treated as a failed one, as an "error" one is; read the other way round, every label but the two of a finished reply is a failure, and the course has no other: lesson 5 says "The course\'s messages have no fifth label", a provider\'s "length" already turned into an "error" reply. On every label a reply can carry, the two tests agree (hunt round 35, r192 probe 48).',
          where='lesson 5: "The course\'s messages have no fifth label"; lab 15.1, Build section, item 4',
          names='',
          replace=r'''
            failed = reply["stop_reason"] in ("error", "aborted")
''',
          by=r'''
            failed = reply["stop_reason"] not in ("stop", "toolUse")  # any other ending failed
'''),
    # Hunt round 35 (reader r192), designs 45 and 56 and probe 19, ruled allowed by the page.
    Wrong(lab='15.1', name='error_message writing an empty label as error',
          rule='error_message makes lesson 5\'s error ending unchanged, and given stop_reason="aborted" the same message with that label; the course passes it no other label, and what it makes of one, an empty one included, is the student\'s (hunt round 35, r192 design 45).',
          where='lab 15.1, Build section, item 1: "The course passes it no other label, and what it makes of one is yours"',
          names='',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": stop_reason, "error_message": text}
""",
          by=r"""
    return {"role": "assistant", "content": [], "stop_reason": stop_reason or "error",
            "error_message": text}
"""),
    Wrong(lab='15.1', name='error_message refusing a label but error and aborted',
          rule='error_message makes lesson 5\'s error ending unchanged, and given stop_reason="aborted" the same message with that label; the course passes it no other label, and what it makes of one is the student\'s, a ValueError included (hunt round 35, r192 probe 56).',
          where='lab 15.1, Build section, item 1: "The course passes it no other label, and what it makes of one is yours"',
          names='',
          replace=r"""
    return {"role": "assistant", "content": [], "stop_reason": stop_reason, "error_message": text}
""",
          by=r"""
    if stop_reason not in ("error", "aborted"):
        raise ValueError(f"an ending is 'error' or 'aborted', not {stop_reason!r}")
    return {"role": "assistant", "content": [], "stop_reason": stop_reason, "error_message": text}
"""),
    Wrong(lab='15.1', name='cancel() returning whether a run was going',
          rule="h.cancel() stops the run that is going, and with no run going does nothing anyone can see; what it returns is the student's, since no caller reads it (hunt round 35, r192 probe 19).",
          where='lab 15.1, Build section, item 3: "What `h.cancel()` returns is yours: no caller reads it"',
          names='',
          replace=r"""
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
""",
          by=r"""
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
        return self.is_running  # whether there was a run to stop
"""),
]

# Designs that break a rule only past what a check of the lab can afford (tools/wrong_designs.py's
# Beyond): each passes the lab's tests, and its deep test, run once by the kit with room to go
# past the reach, shows it wrong.
BEYOND = [
    Beyond(lab='15.1', name='bash giving up after a hundred thousand turns',
           rule='A command that merely takes a while is waited for: bash has no timeout of its '
                'own, and only Stop ends a command early.',
           where='hunt round 9, design 15.2-08 (bash-timeout)', names='no timeout of its own',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), and "
                 "test_bash_waits_for_a_slow_command waits a few hundred; this bash gives up at "
                 "turn 100,000",
           replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
           by=r'''
            waited = 0
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                if waited >= 100_000:  # a command this slow is hung
                    return "Command timed out"
                waited += 1
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
           turns=150_000, seconds=30.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "15.1"


@lab_test("A command that takes 110,000 turns is waited for, and its output comes back: bash has "
          "no timeout of its own.")
async def test_a_command_of_a_hundred_thousand_turns(t):
    shell = lab.Shell(lab.Workspace({}))
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "sleep 110000 && echo built"})),
                               lab.say("Done.")])
    h = harness.Harness(model, "Build it.", [harness.make_bash_tool(shell)])
    await lab.drive(h.prompt("Build it, however long it takes."))
    t.expect([lab.shape(h.messages), h.messages[2]["content"]],
             why="bash has no timeout of its own, and only Stop ends a command early: [the "
                 "record, the result] of a command of 110,000 turns (bash, lesson 15).")
'''),
    Beyond(lab='15.2', name='a grace capped at six thousand turns',
           rule='"clean" when the task finished by itself within `grace` turns of the event '
                'loop: a grace of a billion turns is a billion, with no cap of stop_run\'s own.',
           where='hunt round 12, design 15.2-01 (grace-capped)', names="with no cap of stop_run's own",
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), and "
                 "test_grace_is_counted_in_turns's long tidy-up takes 1,500 to 5,000 of them; "
                 "this grace stops at turn 6,000",
           replace=r"""
    for _ in range(grace):
""",
           by=r"""
    for _ in range(min(grace, 6000)):  # nobody waits longer than that
""",
           turns=20_000, seconds=10.0,
           deep=r"""
import asyncio

import harness
import lab
from lab.kit import lab_test

LAB = "15.2"


@lab_test("A tool that tidies up for 12,000 turns after Stop, under a grace of a billion turns, "
          "ends by itself: \"clean\".")
async def test_a_tidy_up_of_twelve_thousand_turns(t):
    async def execute(arguments, signal=None):
        while not signal.is_cancelled():
            await asyncio.sleep(0)
        await lab.ticks(12_000)  # tidying up
        return "tidied"
    build = {"name": "build", "description": "Build, and tidy up when stopped.",
             "parameters": {"type": "object", "properties": {}}, "execute": execute}
    model = lab.ScriptedModel([lab.reply(lab.call("build")), lab.say("Done.")])
    h = harness.Harness(model, "You build.", [build])
    task = asyncio.ensure_future(lab.drive(h.prompt("Build it.")))
    await lab.ticks(30)
    answer = await harness.stop_run(h, task, grace=10 ** 9)
    t.expect([answer, lab.shape(h.messages)],
             why="A grace of a billion turns is a billion turns, with no cap of stop_run's own: "
                 "[the answer, the record] for a tool that tidies up for 12,000 turns "
                 "(stop_run, lesson 15).")
"""),
    Beyond(lab='15.1', name='bash with no signal giving up after fifty thousand turns',
           rule='A command that merely takes a while is waited for: bash has no timeout of its '
                'own, with a signal or with none, and only Stop ends a command early.',
           where='hunt round 13, design 15.1-47 (bash-turn-timeout-no-signal)',
           names='no timeout of its own',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), and "
                 "test_bash_waits_for_a_slow_command waits over nine thousand; this bash gives up "
                 "at turn 50,000, and only when it was handed no signal, so the deep test of "
                 "'bash giving up after a hundred thousand turns', run inside a Harness, which "
                 "always hands a token, does not reach it",
           replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
           by=r'''
            waited = 0
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                if signal is None and waited >= 50_000:  # nobody can stop it: give up on it
                    return "Command timed out"
                waited += 1
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
           turns=70_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test
LAB = "15.1"
@lab_test("A command that takes 55,000 turns, run with no signal as every earlier caller runs "
          "bash, is waited for, and its output comes back: bash has no timeout of its own.")
async def test_a_command_of_fifty_thousand_turns_with_no_signal(t):
    shell, messages = lab.Shell(lab.Workspace({})), []
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "sleep 55000 && echo built"})),
                               lab.say("Done.")])
    await lab.drive(harness.run_agent(model, "Build it.", messages,
                                      [harness.make_bash_tool(shell)], "Build it, however long."))
    t.expect([lab.shape(messages), messages[2]["content"]],
             why="bash has no timeout of its own, and only Stop ends a command early, with no "
                 "signal as with one: [the record, the result] of a command of 55,000 turns run "
                 "with no signal (bash, lesson 15).")
'''),
    Beyond(lab='15.1', name='bash giving up after ten thousand turns',
           rule='A command that merely takes a while is waited for: bash has no timeout of its '
                'own, and only Stop ends a command early.',
           where='hunt round 17, design 15.1-14 (bash-timeout-10000-turns)',
           names='no timeout of its own',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), the whole test's, "
                 "and test_bash_waits_for_a_slow_command waits up to 9,500 on one command; this "
                 "bash gives up after 10,000 laps of its own loop, so no command a test can "
                 "afford outlasts it, whatever its size is drawn from",
           replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
           by=r'''
            laps = 0
            while not process.done():
                laps += 1
                if laps > 10_000:  # a timeout of bash's own, just past the longest test wait
                    return "Command timed out"
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
           turns=15_000, seconds=10.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "15.1"


@lab_test("A command that takes 10,500 turns is waited for, and its output comes back: bash has "
          "no timeout of its own.")
async def test_a_command_of_ten_thousand_turns(t):
    shell = lab.Shell(lab.Workspace({}))
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "sleep 10500 && echo built"})),
                               lab.say("Done.")])
    h = harness.Harness(model, "Build it.", [harness.make_bash_tool(shell)])
    await lab.drive(h.prompt("Build it, however long it takes."))
    t.expect([lab.shape(h.messages), h.messages[2]["content"]],
             why="bash has no timeout of its own, and only Stop ends a command early: [the "
                 "record, the result] of a command of 10,500 turns (bash, lesson 15).")
'''),
    Beyond(lab='15.2', name='a hard wait that gives up after a hundred thousand turns',
           rule='What a caller may rely on: when stop_run returns, the task is over, whichever '
                'the answer; once it has insisted it waits for the task, with no limit in turns '
                'or in seconds.',
           where='hunt round 15, design 15.2-15 (hard-wait-gives-up)',
           names='when stop_run returns, the task is over',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), and "
                 "test_stop_run_waits_however_long_the_task_takes_to_die waits some thousands; "
                 "this stop_run gives up on a cancelled task at turn 100,000",
           replace=r'''
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
           by=r'''
    waited, own = 0, None
    while not task.done() and waited < 100_000:  # a task this slow to die is hung
        waited += 1
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError as stop:  # stop_run's own: on up once the task is over
            own = stop
    if own is not None:
        raise own
    if task.done() and not task.cancelled() and task.exception() is not None:
        raise task.exception()
    return "hard"
''',
           turns=150_000, seconds=30.0,
           deep=r'''
import asyncio

import harness
import lab
from lab.kit import lab_test

LAB = "15.2"


@lab_test("A deaf tool that, cancelled, takes 110,000 turns to die: stop_run with no grace "
          "answers \"hard\" only once the task is over.")
async def test_a_task_that_takes_a_hundred_and_ten_thousand_turns_to_die(t):
    async def execute(arguments, signal=None):
        try:
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            await lab.ticks(110_000)  # a long way out
            raise
    wait = {"name": "wait", "description": "Wait; deaf, and slow to die.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}
    model = lab.ScriptedModel([lab.reply(lab.call("wait")), lab.say("Done.")])
    h = harness.Harness(model, "You wait.", [wait])
    task = asyncio.ensure_future(lab.drive(h.prompt("Wait.")))
    await lab.ticks(30)
    answer = await harness.stop_run(h, task, grace=0)
    t.expect([answer, task.done(), lab.shape(h.messages)],
             why="What a caller may rely on: when stop_run returns, the task is over, whichever "
                 "the answer, with no limit in turns: [the answer, the task over on return, the "
                 "record] for a task 110,000 turns slow to die (stop_run, lesson 15).")
'''),
    # Hunt round 20 (reader r107), designs 15.1-35 and 15.1-10.
    Beyond(lab='15.1', name='bash giving up after 9500 turns',
           rule='A command that merely takes a while is waited for: bash has no timeout of its '
                'own, and only Stop ends a command early.',
           where='hunt round 20, design 15.1-35 (bash-timeout-after-9500-turns)',
           names='no timeout of its own',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), the whole test's, "
                 "and test_bash_waits_for_a_slow_command's three commands share them, its longest "
                 "drawn from 9,200 to 9,500 turns; this bash gives up after 9,500 laps, the top of "
                 "that draw, and a longer draw would only move the edge to a design just past it, "
                 "as 'bash giving up after ten thousand turns' is past any",
           replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
           by=r'''
            laps = 0
            while not process.done():
                laps += 1
                if laps > 9_500:  # a timeout of bash's own, at the top of the test's longest wait
                    return "Command timed out"
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
           turns=12_000, seconds=10.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "15.1"


@lab_test("A command that takes 9,800 turns is waited for, and its output comes back: bash has "
          "no timeout of its own.")
async def test_a_command_of_nine_thousand_eight_hundred_turns(t):
    shell = lab.Shell(lab.Workspace({}))
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "sleep 9800 && echo built"})),
                               lab.say("Done.")])
    h = harness.Harness(model, "Build it.", [harness.make_bash_tool(shell)])
    await lab.drive(h.prompt("Build it, however long it takes."))
    t.expect([lab.shape(h.messages), h.messages[2]["content"]],
             why="bash has no timeout of its own, and only Stop ends a command early: [the "
                 "record, the result] of a command of 9,800 turns (bash, lesson 15).")
'''),
    Beyond(lab='15.1', name='bash giving up after twenty thousand turns',
           rule='A command that merely takes a while is waited for: bash has no timeout of its '
                'own, and only Stop ends a command early.',
           where='hunt round 20, design 15.1-10 (bash-timeout-after-20000-turns)',
           names='no timeout of its own',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), the whole test's; "
                 "this bash gives up after 20,000 laps of its own loop, so no command a test can "
                 "afford outlasts it",
           replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
           by=r'''
            laps = 0
            while not process.done():
                laps += 1
                if laps > 20_000:  # a timeout of bash's own, twice the longest test
                    return "Command timed out"
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
''',
           turns=30_000, seconds=15.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "15.1"


@lab_test("A command that takes 21,000 turns is waited for, and its output comes back: bash has "
          "no timeout of its own.")
async def test_a_command_of_twenty_one_thousand_turns(t):
    shell = lab.Shell(lab.Workspace({}))
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "sleep 21000 && echo built"})),
                               lab.say("Done.")])
    h = harness.Harness(model, "Build it.", [harness.make_bash_tool(shell)])
    await lab.drive(h.prompt("Build it, however long it takes."))
    t.expect([lab.shape(h.messages), h.messages[2]["content"]],
             why="bash has no timeout of its own, and only Stop ends a command early: [the "
                 "record, the result] of a command of 21,000 turns (bash, lesson 15).")
'''),
    # Hunt round 22 (reader r118), designs 15.2-15 and 15.2-25 (second author).
    Beyond(lab='15.2', name='a grace capped at five thousand and one turns',
           rule='"clean" when the task finished by itself within `grace` turns of the event '
                'loop: a grace of a billion turns is a billion, with no cap of stop_run\'s own.',
           where='hunt round 22, design 15.2-15 (grace-capped-just-past-tests)',
           names="with no cap of stop_run's own",
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), and "
                 "test_grace_is_counted_in_turns's long tidy-up takes 1,500 to 5,000 of them; "
                 "this grace stops at turn 5,001, just past the draw, as 'a grace capped at six "
                 "thousand turns' is; a longer draw would only move the edge",
           replace=r"""
    for _ in range(grace):
""",
           by=r"""
    for _ in range(min(grace, 5001)):  # nobody waits longer than that
""",
           turns=20_000, seconds=10.0,
           deep=r"""
import asyncio

import harness
import lab
from lab.kit import lab_test

LAB = "15.2"


@lab_test("A tool that tidies up for 7,000 turns after Stop, under a grace of a billion turns, "
          "ends by itself: \"clean\".")
async def test_a_tidy_up_of_seven_thousand_turns(t):
    async def execute(arguments, signal=None):
        while not signal.is_cancelled():
            await asyncio.sleep(0)
        await lab.ticks(7_000)  # tidying up
        return "tidied"
    build = {"name": "build", "description": "Build, and tidy up when stopped.",
             "parameters": {"type": "object", "properties": {}}, "execute": execute}
    model = lab.ScriptedModel([lab.reply(lab.call("build")), lab.say("Done.")])
    h = harness.Harness(model, "You build.", [build])
    task = asyncio.ensure_future(lab.drive(h.prompt("Build it.")))
    await lab.ticks(30)
    answer = await harness.stop_run(h, task, grace=10 ** 9)
    t.expect([answer, lab.shape(h.messages)],
             why="A grace of a billion turns is a billion turns, with no cap of stop_run's own: "
                 "[the answer, the record] for a tool that tidies up for 7,000 turns "
                 "(stop_run, lesson 15).")
"""),
    Beyond(lab='15.2', name='a hard wait that gives up after 4101 turns',
           rule='What a caller may rely on: when stop_run returns, the task is over, whichever '
                'the answer; once it has insisted it waits for the task, with no limit in turns '
                'or in seconds.',
           where='hunt round 22, design 15.2-25 (hard-wait-capped-just-past-tests)',
           names='when stop_run returns, the task is over',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), and "
                 "test_stop_run_waits_however_long_the_task_takes_to_die's task dies in 1,500 to "
                 "4,000 of them; this stop_run gives up at turn 4,101, just past the draw. "
                 "Catching it on every draw needs a task that dies in 4,200 turns or more each "
                 "time, about 6 ms more per run on the reference (1.65 ms a thousand turns, "
                 "measured) and a test near the whole budget, which a slower harness's own turns "
                 "would break; a longer draw would only move the edge",
           replace=r'''
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
''',
           by=r'''
    for _ in range(4101):  # a task this slow to die is hung
        if task.done():
            break
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError:  # stop_run's own: on up once the task is over
            if not task.done():
                await asyncio.wait([task])
            raise
    if task.done() and not task.cancelled() and task.exception() is not None:
        raise task.exception()
    return "hard"
''',
           turns=20_000, seconds=10.0,
           deep=r'''
import asyncio

import harness
import lab
from lab.kit import lab_test

LAB = "15.2"


@lab_test("A deaf tool that, cancelled, takes 7,000 turns to die: stop_run with no grace "
          "answers \"hard\" only once the task is over.")
async def test_a_task_that_takes_seven_thousand_turns_to_die(t):
    async def execute(arguments, signal=None):
        try:
            await asyncio.get_running_loop().create_future()
        except asyncio.CancelledError:
            await lab.ticks(7_000)  # a long way out
            raise
    wait = {"name": "wait", "description": "Wait; deaf, and slow to die.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}
    model = lab.ScriptedModel([lab.reply(lab.call("wait")), lab.say("Done.")])
    h = harness.Harness(model, "You wait.", [wait])
    task = asyncio.ensure_future(lab.drive(h.prompt("Wait.")))
    await lab.ticks(30)
    answer = await harness.stop_run(h, task, grace=0)
    t.expect([answer, task.done(), lab.shape(h.messages)],
             why="What a caller may rely on: when stop_run returns, the task is over, whichever "
                 "the answer, with no limit in turns: [the answer, the task over on return, the "
                 "record] for a task 7,000 turns slow to die (stop_run, lesson 15).")
'''),
    # Hunt round 23 (reader r126), designs 15.1-14 and 15.1-28.
    Beyond(lab='15.1', name='max_turns winning over Stop only up to a cap of a hundred',
           rule='Once the signal is set the run ends aborted, except that a run already past max_turns still ends the max_turns way, whatever max_turns is.',
           where='hunt round 23, design 15.1-14 (max_turns-precedence-up-to-100)',
           names='max_turns first and at the signal second',
           reach="test_max_turns_keeps_precedence draws its largest max_turns from 60 to 80 and "
                 "runs it to the cap twice; a run's cost grows with the square of its turns, "
                 "since each request's view is built from the whole record: two runs under a cap "
                 "of 80 cost about 5 ms, of 120 about 8 ms, of 200 about 20 ms, so a cap past 100 "
                 "on every draw would spend most of the lab's allowance on one limit that the "
                 "next design only moves further",
           replace=r"""
            if max_turns is not None and turn > max_turns:
""",
           by=r"""
            if max_turns is not None and max_turns > 100 and signal is not None and \
                    signal.is_cancelled():  # under a large cap, Stop first
                reply = error_message(ABORTED, stop_reason="aborted")
            elif max_turns is not None and turn > max_turns:
""",
           turns=5_000, seconds=10.0,
           deep=r"""
import harness
import lab
from lab.kit import lab_test, tool

LAB = "15.1"


class Builds:
    async def acomplete(self, system, messages, tools=(), signal=None):
        await lab.tick()
        return lab.reply(lab.call("build", {}))


@lab_test("Under max_turns = 120, a Stop pressed from inside the tool of turn 120: the run ends "
          "the max_turns way, since a run already past max_turns still ends so.")
async def test_max_turns_of_a_hundred_and_twenty_keeps_precedence(t):
    token, ran = harness.CancelToken(), []

    def build(arguments):
        ran.append(1)
        if len(ran) == 120:
            token.cancel()
        return "built"
    messages = []
    await lab.drive(harness.run_agent(Builds(), "You build.", messages, [tool("build", build)],
                                      "Build it again and again.", max_turns=120, signal=token))
    t.expect([messages[-1]["stop_reason"], messages[-1]["error_message"]],
             why="The top of a turn looks at max_turns first and at the signal second, however "
                 "large max_turns is: [the last message's stop_reason, its error_message] "
                 "(run_agent, lesson 15).")
"""),
    Beyond(lab='15.1', name="bash giving up after a minute by datetime's clock",
           rule='A command that merely takes a while is waited for: bash has no timeout of its '
                'own, by turns or by the clock, and only Stop ends a command early.',
           where='hunt round 23, design 15.1-28 (bash-timeout-60s-datetime)',
           names='no timeout of its own',
           reach="the tests move time's clocks (lab.kit.hours_pass: time.monotonic, time.time, "
                 "time.perf_counter), so a bash timed by them sees days go by; datetime's clock "
                 "is C code that reads the system's, which no test can move, and a lab test "
                 "cannot wait a real minute. The deep test swaps datetime.datetime in its "
                 "module, which a bash that imported the class itself would not see",
           replace=r"""
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
""",
           by=r"""
            import datetime
            deadline = datetime.datetime.now() + datetime.timedelta(seconds=60)
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                if datetime.datetime.now() > deadline:  # a minute: the command is hung
                    return "Command timed out"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
""",
           turns=2_000, seconds=10.0,
           deep=r"""
import datetime

import harness
import lab
from lab.kit import lab_test

LAB = "15.1"
REAL = datetime.datetime


class Later(REAL):
    # datetime.datetime whose now() is a minute after the one before
    readings = 0

    @classmethod
    def now(cls, tz=None):
        Later.readings += 1
        return REAL.now(tz) + datetime.timedelta(minutes=Later.readings)


@lab_test("A command of 300 turns, while each reading of datetime's clock is a minute after the "
          "last, is waited for, and its output comes back: bash has no timeout of its own.")
async def test_a_slow_command_by_datetime_clock(t):
    shell = lab.Shell(lab.Workspace({}))
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "sleep 300 && echo built"})),
                               lab.say("Done.")])
    h = harness.Harness(model, "Build it.", [harness.make_bash_tool(shell)])
    datetime.datetime = Later
    try:
        await lab.drive(h.prompt("Build it, however long it takes."))
    finally:
        datetime.datetime = REAL
    t.expect([lab.shape(h.messages), h.messages[2]["content"]],
             why="bash has no timeout of its own, and only Stop ends a command early: [the "
                 "record, the result] of a command of 300 turns while datetime's clock says "
                 "hours go by (bash, lesson 15).")
"""),
    # Hunt round 30 (reader r168), designs 37, 47 and 48: caps past what the lab's tests afford.
    Beyond(lab='15.1', name='bash deaf to Stop after twelve thousand laps',
           rule='bash must hear Stop while its command runs: no more than five event-loop turns '
                'after h.cancel(), however long the command has already run.',
           where='hunt round 30, r168 design 37 (bash-stops-listening-after-12000-laps)',
           names='however long the command has already run',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), the whole test's, "
                 "and test_bash_hears_a_late_stop presses Stop 3,100 to 3,300 turns into a "
                 "command, six runs side by side (about 33 ms; at 9,000 turns it cost 78 ms, run "
                 "for every catalogue design of the lab), and the bank's flag that notes its reads "
                 "is set 3,100 to 3,300 turns in; this bash stops looking after 12,000 "
                 "laps of its own loop, past any Stop a test can afford, as 'bash giving up after "
                 "twenty thousand turns' gives up past it",
           replace=r'''
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
''',
           by=r'''
            laps = 0
            while not process.done():
                laps += 1
                if laps < 12_000 and signal is not None and signal.is_cancelled():
                    return "Command cancelled"  # past that, the command is left to finish
''',
           turns=20_000, seconds=15.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "15.1"


@lab_test("Stop pressed 12,500 turns into `sleep inf`: the run is over within five turns, its "
          "command dead.")
async def test_a_stop_twelve_thousand_five_hundred_turns_in(t):
    shell = lab.Shell(lab.Workspace({}))
    model = lab.ScriptedModel([lab.reply(lab.call("bash", {"command": "sleep inf"})),
                               lab.say("Done.")])
    h = harness.Harness(model, "Run it.", [harness.make_bash_tool(shell)])
    async with lab.background(h.prompt("Run it for ever.")) as task:
        await lab.ticks(12_500)
        h.cancel()
        turns = 0
        while not task.done() and turns < 50:
            await lab.tick()
            turns += 1
    t.expect([turns <= 5, [p.killed for p in shell.processes]], [True, [True]],
             "bash must hear Stop within five event-loop turns of h.cancel(), however long the "
             "command has already run: [over within five turns, each command killed] "
             "(bash, lesson 15).")
'''),
    Beyond(lab='15.1', name='the signal handed to acomplete only in the first hundred turns',
           rule='Every request that does go out carries the signal, as acomplete\'s fourth '
                'argument, in every turn of the run, however many it has taken.',
           where='hunt round 30, r168 design 47 (acomplete-signal-first-100-turns)',
           names='however many turns the run has taken',
           reach="test_max_turns_keeps_precedence runs up to 60 to 80 turns and checks that "
                 "every request carries the run's signal; a run's cost grows with the square of "
                 "its turns, since each request's view is built from the whole record, and the "
                 "catalogue drew the line at a hundred turns already ('max_turns winning over "
                 "Stop only up to a cap of a hundred'); this design differs from turn 101 on, "
                 "and a longer run would only move the edge",
           replace=r"""
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools), signal)
""",
           by=r"""
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools), signal if turn <= 100 else None)
""",
           turns=5_000, seconds=10.0,
           deep=r"""
import harness
import lab
from lab.kit import lab_test, tool

LAB = "15.1"


class Builds:
    def __init__(self):
        self.signals = []

    async def acomplete(self, system, messages, tools=(), signal=None):
        self.signals.append(signal)
        await lab.tick()
        if len(self.signals) > 120:
            return lab.say("Built.")
        return lab.reply(lab.call("build", {}))


@lab_test("A run of 121 requests, each but the last asking for one call: every request carries "
          "the run's signal.")
async def test_every_request_of_a_long_run_carries_the_signal(t):
    token, model, messages = harness.CancelToken(), Builds(), []
    await lab.drive(harness.run_agent(model, "You build.", messages,
                                      [tool("build", lambda arguments: "built")],
                                      "Build it again and again.", signal=token))
    t.expect([len(model.signals), [n + 1 for n, s in enumerate(model.signals) if s is not token][:1]],
             [121, []],
             "Every request that goes out carries the run's signal, however many turns the run "
             "has taken: [requests, the first (from 1) without it] (run_agent, lesson 15).")
"""),
    Beyond(lab='15.1', name='the top of a turn looking at the flag only in the first hundred turns',
           rule='Once the signal is set, the run sends no more requests, in whatever turn Stop '
                'falls, however many turns the run has taken.',
           where='hunt round 30, r168 design 48 (top-check-only-first-100-turns)',
           names='however many turns the run has taken',
           reach="the tests press Stop in runs of up to 60 to 80 turns "
                 "(test_max_turns_keeps_precedence), and 'the top of a turn looking at the flag "
                 "only in the first fifty turns' fails there; a run's cost grows with the square "
                 "of its turns, since each request's view is built from the whole record, and the "
                 "catalogue drew the line at a hundred turns already ('max_turns winning over "
                 "Stop only up to a cap of a hundred'); this design differs from turn 101 on, "
                 "and a longer run would only move the edge",
           replace=r"""
            elif signal is not None and signal.is_cancelled():
                reply = error_message(ABORTED, stop_reason="aborted")  # and no paid request
""",
           by=r"""
            elif turn <= 100 and signal is not None and signal.is_cancelled():
                reply = error_message(ABORTED, stop_reason="aborted")  # and no paid request
""",
           turns=5_000, seconds=10.0,
           deep=r"""
import harness
import lab
from lab.kit import lab_test, tool

LAB = "15.1"


class Builds:
    def __init__(self):
        self.requests = 0

    async def acomplete(self, system, messages, tools=(), signal=None):
        self.requests += 1  # a provider that does not read the signal
        await lab.tick()
        if self.requests > 140:
            return lab.say("Built.")
        return lab.reply(lab.call("build", {}))


@lab_test("A run of one call a turn whose tool presses Stop in turn 110: no request follows, and "
          "the run ends aborted.")
async def test_a_stop_in_turn_a_hundred_and_ten(t):
    token, model, messages, ran = harness.CancelToken(), Builds(), [], []

    def build(arguments):
        ran.append(1)
        if len(ran) == 110:
            token.cancel()
        return "built"
    await lab.drive(harness.run_agent(model, "You build.", messages, [tool("build", build)],
                                      "Build it again and again.", signal=token))
    t.expect([model.requests, messages[-1]["stop_reason"], messages[-1]["error_message"]],
             [110, "aborted", harness.ABORTED],
             "Once the signal is set, the run sends no more requests, however many turns the "
             "run has taken: [requests made, the last message's stop_reason, its "
             "error_message] (run_agent, lesson 15).")
"""),
    # Hunt round 32 (reader r183), design 35: a grace past what a test can wait out.
    Beyond(lab='15.2', name='a grace of a million turns or more waited out for ever',
           rule='Otherwise the task is cancelled: a deaf task that is not over after `grace` turns is '
                'cancelled then, "hard", whatever the size of the grace, a million turns or a '
                'billion, never waited for without end.',
           where='hunt round 32, r183 design 35 (huge-grace-is-forever)',
           names='whatever the size of the grace',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), and the tests give "
                 "their deaf tools graces of 0 to 40 turns, their listening ones a billion; this "
                 "stop_run differs only for a grace of a million turns or more on a task still "
                 "running after it, which takes a million turns to see; 'a grace capped at six "
                 "thousand turns' is the same kind the other way round",
           replace=r"""
    for _ in range(grace):
""",
           by=r"""
    if grace >= 10 ** 6:  # a million turns or more is for ever: just wait
        while not task.done():
            await asyncio.sleep(0)
        return "clean"
    for _ in range(grace):
""",
           turns=1_100_000, seconds=60.0,
           deep=r"""
import asyncio

import harness
import lab
from lab.kit import lab_test

LAB = "15.2"


@lab_test("A tool that never looks at its signal, under a grace of a million turns: stop_run "
          "insists once the grace is spent, and answers \"hard\".")
async def test_a_grace_of_a_million_turns_runs_out(t):
    async def execute(arguments, signal=None):
        await asyncio.get_running_loop().create_future()
    wait = {"name": "wait", "description": "Wait; deaf.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}
    model = lab.ScriptedModel([lab.reply(lab.call("wait")), lab.say("Done.")])
    h = harness.Harness(model, "You wait.", [wait])
    task = asyncio.ensure_future(lab.drive(h.prompt("Wait.")))
    await lab.ticks(30)
    stopper = asyncio.ensure_future(harness.stop_run(h, task, grace=10 ** 6))
    turns = 0
    while not stopper.done() and turns < 10 ** 6 + 50:
        await lab.tick()
        turns += 1
    found = [stopper.result() if stopper.done() else "still waiting", task.cancelled()]
    for left in (stopper, task):
        left.cancel()
    t.expect(found,
             why="Otherwise the task is cancelled, whatever the size of the grace: [the answer "
                 "fifty turns after a grace of a million ran out, the task cancelled] for a tool "
                 "that never looks (stop_run, lesson 15).")
"""),
]
