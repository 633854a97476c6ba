"""Lesson 14's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
lab 14.1's reference; the rule is the lesson's principle or the part of it the design breaks.
"""
from tools.wrong_designs import Beyond, Wrong

# The reference's lines the designs of hunt round 12 change, named once: the whole inner
# execute of guard, its last line, its except clause, its refusal, deny_destructive's test of
# the command and confirm_with's question.
EXECUTE = r'''
    def execute(arguments):
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
            reason = f"the check failed: {exc}"
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
'''
RUN = r'''
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
'''
CRASH = r'''
        except Exception as exc:
            reason = f"the check failed: {exc}"
'''
BLOCK = r'''
            raise PermissionError(f"Tool call blocked: {reason}")
'''
DENY = r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
'''
ASK = r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
'''

WRONG = [
    # Hunt round 33 (reader r186), probe 14.1-P6, ruled at the merge: waiting is the student's,
    # but this wait takes the person's own TimeoutError for its own.
    Wrong(lab='14.1', name='a person who cannot be reached taken for one who did not answer in time',
          rule='Build item 3: a check lets a call through only on a clear yes, and a person '
               'whose ask raised is refused with the user said no or the check failed: and what '
               'ask raised. This check waits on a thread and takes any TimeoutError for its own '
               'wait running out (concurrent.futures.TimeoutError is the built-in one), so a '
               'person whose frontend raised TimeoutError is refused with the check\'s own words.',
          where='hunt round 33, probe 14.1-P6; Build section, item 3: "How long to wait for an '
                'answer, and what a check that stops waiting refuses with, are yours"',
          names='A TimeoutError from ask is the person',
          replace=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
            return None
''',
          by=r'''
        import concurrent.futures
        pool = concurrent.futures.ThreadPoolExecutor(1)
        try:
            answer = pool.submit(human.ask, f"Allow {name} {json.dumps(arguments)}?").result(
                timeout=300)
        except concurrent.futures.TimeoutError:
            return "the user did not answer in time"
        finally:
            pool.shutdown(wait=False)
        if answer is True:
            return None
'''),
    Wrong(lab='14.1', name='failing open when the check crashes',
          rule='A door fails closed: a check that raises has not said yes, so the call is refused with the check failed: <exc>.',
          where='prediction "A check that breaks" (let the call through); the cell with three guards; Build recap',
          names='fails closed',
          replace=r'''
        except Exception as exc:
            reason = f"the check failed: {exc}"
''',
          by=r'''
        except Exception:
            reason = None  # a broken check should not hold up the work
'''),
    Wrong(lab='14.1', name='no try around the check',
          rule='A door fails closed on purpose: the guard catches what the check raises and refuses the call with a reason, not by luck.',
          where='prediction "A check that breaks" (let the KeyError leave the guard); the cell with three guards',
          names='fails closed',
          replace=r'''
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
            reason = f"the check failed: {exc}"
''',
          by=r'''
        reason = check(tool["name"], arguments)  # run_tool catches whatever it raises
'''),
    Wrong(lab='14.1', name='a try that reaches around the real tool',
          rule="The door's try holds the check and nothing else: the real tool's own failures come back in its own words, not as a refusal.",
          where='prediction "Where the `try` ends" (except Exception around the tool); Build recap',
          names="outside the door's try",
          replace=r'''
        try:
            reason = check(tool["name"], arguments)
''',
          by=r'''
        try:
            reason = check(tool["name"], arguments)
            if reason is None:
                return tool["execute"](arguments)  # one try for the check and the tool
'''),
    Wrong(lab='14.1', name='a guard that catches more than Exception around the real tool',
          rule='Nothing wider than Exception is caught: a PowerCut is the program ending, and passes straight through the door.',
          where='prediction "Where the `try` ends" (except BaseException); Build recap; met again in lesson 15',
          names='nothing the tool raises',
          replace=r'''
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
''',
          by=r'''
        try:
            reason = check(tool["name"], arguments)
            if reason is None:
                return tool["execute"](arguments)
        except BaseException as exc:  # nothing at all gets past the door
'''),
    Wrong(lab='14.1', name='a refusal as a normal result',
          rule='A refusal is raised as PermissionError, so run_tool records it as an error result, not as something the tool printed.',
          where='prediction "What a refusal sounds like" (return the reason); Build recap',
          names='as an error result',
          replace=r'''
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
            return f"Tool call blocked: {reason}"  # the model reads it either way
'''),
    Wrong(lab='14.1', name='renaming the wrapped tool',
          rule='The guarded tool is the same dict but for execute: same name, same specs, so the model cannot tell a door is there.',
          where='section "Where the door goes" (safe_bash); Build recap',
          names="every other value is the tool's own",
          replace='    return {**tool, "execute": execute}',
          by=r'''
    return {**tool, "name": "safe_" + tool["name"], "execute": execute}
'''),
    Wrong(lab='14.1', name='a yes read from anything truthy',
          rule='Only True is a yes: "yes", 1 and anything else refuse the call, so a broken frontend fails closed.',
          where='prediction "Asking a person"; Build recap',
          names='clear True',
          replace=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
''',
          by=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?"):
'''),
    Wrong(lab='14.1', name='refusing rm -rf only at the start of a command',
          rule='deny_destructive refuses any bash command that contains rm -rf, wherever it stands in the command line.',
          where='Build section, deny_destructive (a command that contains rm -rf); CURRICULUM lesson 14',
          names='contains rm -rf',
          replace=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
''',
          by=r'''
    if name == "bash" and str(arguments.get("command")).startswith("rm -rf"):
'''),
    Wrong(lab='14.1', name='a reason read as true or false',
          rule='Only None lets a call through: a check that answers "", False, 0 or [] has given a reason, so the door asks `is not None`.',
          where='Build section, guard (None lets the call on); issue 23',
          names='is not None',
          replace=r'''
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
        if reason:  # an empty reason is no reason
            raise PermissionError(f"Tool call blocked: {reason}")
'''),
    Wrong(lab='14.1', name='a try around the check that catches only some errors',
          rule='A check that breaks, with any Exception, has not said yes: the call is refused.',
          where='lab 14.1, Build section: "A check that breaks has not said yes"',
          names='in any way',
          replace=r'''
        except Exception as exc:
            reason = f"the check failed: {exc}"
''',
          by=r'''
        except (KeyError, ValueError) as exc:
            reason = f"the check failed: {exc}"
'''),
    Wrong(lab='14.1', name='a try around the check that catches a PowerCut too',
          rule='A PowerCut leaves the run, as it would from an unguarded tool: the check\'s try catches Exception and nothing wider.',
          where='lab 14.1, Build section: "A check that breaks has not said yes"',
          names='power cut inside the check',
          replace=r'''
        except Exception as exc:
            reason = f"the check failed: {exc}"
''',
          by=r'''
        except BaseException as exc:
            reason = f"the check failed: {exc}"
'''),
    Wrong(lab='14.1', name='a yes remembered for the same call',
          rule='confirm_with puts one question to the person per call: a yes given once is not taken for the next call.',
          where='lab 14.1, Build section: "one question to the person per call"',
          names='not remembered',
          replace=r'''
    def check(name, arguments):
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
            return None
        return "the user said no"
''',
          by=r'''
    allowed = set()

    def check(name, arguments):
        question = f"Allow {name} {json.dumps(arguments)}?"
        if question in allowed:
            return None
        if human.ask(question) is True:
            allowed.add(question)
            return None
        return "the user said no"
'''),
    Wrong(lab='14.1', name='a refusal raised as an exception of its own kind',
          rule='A refusal is raised as PermissionError, the type a frontend or a later lab tells a refusal by; run_tool would make the same result of any Exception, so only the type shows it.',
          where='lab 14.1, Build section: "the call raises `PermissionError` with the text"; hunt round 2, 14.1-1',
          names='not an exception of its own kind',
          replace=r'''
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
            class Refused(Exception):  # a refusal of the door's own kind
                pass
            raise Refused(f"Tool call blocked: {reason}")
'''),
    Wrong(lab='14.1', name='a falsy reason replaced by a stock text',
          rule='The refusal holds the check\'s answer as text whatever its type: a check that answers False or "" is refused with False or nothing after Tool call blocked: , not with words the check never said.',
          where='lab 14.1, Build section: "as text whatever its type"; hunt round 2, 14.1-2',
          names='as text, exactly',
          replace=r'''
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
            raise PermissionError(f"Tool call blocked: {reason or 'no reason given'}")
'''),
    Wrong(lab='14.1', name='a reason tidied at its ends',
          rule='The refusal text is exact: the reason comes after Tool call blocked: as the check gave it, spaces and newlines at its ends included.',
          where='lab 14.1, Build section: "The refusal texts"; hunt round 2, 14.1-13',
          names='spaces or a newline at its ends stay',
          replace=r'''
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
            raise PermissionError(f"Tool call blocked: {str(reason).strip()}")
'''),
    Wrong(lab='14.1', name='a try around the check that catches a list of the likely errors',
          rule='A check that breaks, with any Exception, has not said yes: an AttributeError, or an error of the check\'s own kind, refuses the call as a KeyError does.',
          where='lab 14.1, Build section: "A check that breaks has not said yes"; hunt round 2, 14.1-8',
          names='not a list of the likely ones',
          replace=r'''
        except Exception as exc:
            reason = f"the check failed: {exc}"
''',
          by=r'''
        except (LookupError, ValueError, TypeError, OSError, ArithmeticError,
                RuntimeError) as exc:  # the ways a check usually breaks
            reason = f"the check failed: {exc}"
'''),
    Wrong(lab='14.1', name='a try around the check that lets only PowerCut out',
          rule='The door\'s try catches Exception and nothing wider: a BaseException that is not an Exception (KeyboardInterrupt, SystemExit, any other) leaves the run as PowerCut does, and is not made a refusal.',
          where='section "How wide is the door" ("why that wide and no wider"); lesson 4; hunt round 2, 14.1-3',
          names='nothing wider',
          replace=r'''
        except Exception as exc:
            reason = f"the check failed: {exc}"
''',
          by=r'''
        except BaseException as exc:  # nothing gets past the door ...
            if type(exc).__name__ == "PowerCut":  # ... but the program ending
                raise
            reason = f"the check failed: {exc}"
'''),
    Wrong(lab='14.1', name='a reason of rm -rf said twice',
          rule="The reason is a sentence for the model, of four words or more besides `rm -rf` itself, that names what it refuses.",
          where='Build item 2: "of four words or more besides `rm -rf` itself" (hunt round 15, 14.1-15)',
          names='four words or more besides',
          replace=r'''
        return "rm -rf cannot be undone; if the user wants it, they can run it themselves."
''',
          by=r'''
        return "rm -rf rm -rf"  # names it, four words by split()
'''),
    Wrong(lab='14.1', name='deny_destructive for every tool with a command',
          rule='deny_destructive is for bash: every other call gets None, other tools included, even one whose command argument holds rm -rf.',
          where='lab 14.1, Build section: "other tools included"; hunt round 2, 14.1-4',
          names="looks at the tool's name",
          replace=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
''',
          by=r'''
    if "rm -rf" in str(arguments.get("command")):  # any tool that runs a command
'''),
    Wrong(lab='14.1', name='refusing any command with -rf',
          rule='deny_destructive refuses commands that contain rm -rf; every other call gets None, cp -rf and grep -rf included.',
          where='lab 14.1, Build section: "Every other call gets"; hunt round 2, 14.1-9',
          names='-rf of another command',
          replace=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
''',
          by=r'''
    if name == "bash" and "-rf" in str(arguments.get("command")):  # -rf is the danger
'''),
    Wrong(lab='14.1', name='rm -rf looked for as two words',
          rule='deny_destructive refuses any bash command that contains the text rm -rf, wherever it stands: after a ; with no space, or inside sh -c \'...\', as well as after a space.',
          where='lab 14.1, Build section: "wherever it stands"; hunt round 2, 14.1-11',
          names='not only where rm stands as a word',
          replace=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
''',
          by=r'''
    words = str(arguments.get("command")).split()
    if name == "bash" and any(a == "rm" and b == "-rf" for a, b in zip(words, words[1:])):
'''),
    Wrong(lab='14.1', name='a no remembered for the same call',
          rule='confirm_with puts one question to the person per call, the same call asked again as often as it comes: a no given once is not taken for the next call either.',
          where='lab 14.1, Build section: "the same call asked again as often as it comes"; hunt round 2, 14.1-5',
          names='nor is a no',
          replace=r'''
    def check(name, arguments):
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
            return None
        return "the user said no"
''',
          by=r'''
    refused = set()  # calls the person already said no to

    def check(name, arguments):
        question = f"Allow {name} {json.dumps(arguments)}?"
        if question in refused:  # do not ask about the same thing twice
            return "the user said no"
        if human.ask(question) is True:
            return None
        refused.add(question)
        return "the user said no"
'''),
    Wrong(lab='14.1', name='the question written with sorted keys and raw letters',
          rule='The question is exact, character for character: the arguments as json.dumps(arguments) writes them, keys in the call\'s order and non-ASCII letters escaped.',
          where='lab 14.1, Build section: "character for character"; hunt round 2, 14.1-6',
          names='as json.dumps(arguments) writes them',
          replace=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
''',
          by=r'''
        said = json.dumps(arguments, sort_keys=True, ensure_ascii=False)  # tidier to read
        if human.ask(f"Allow {name} {said}?") is True:
'''),
    Wrong(lab='14.1', name='a yes read as anything equal to True',
          rule='Only True itself is a yes: 1 and 1.0, which == True, refuse the call like "yes" does.',
          where='lab 14.1, Build section: "Which answers are a clear yes"; hunt round 2, 14.1-7',
          names='even 1, which == True',
          replace=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
''',
          by=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") == True:  # noqa: E712
'''),
    Wrong(lab='14.1', name='a crashed check asked again',
          rule='For each call the check is asked once: a check that breaks has not said yes, so the call is refused at once, not asked again in the hope of a better answer.',
          where='lab 14.1, Build section: "For each call, the check is asked once"; hunt round 5, 14.1-1',
          names='not retried',
          replace=r'''
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
            reason = f"the check failed: {exc}"
''',
          by=r'''
        try:
            reason = check(tool["name"], arguments)
        except Exception:
            try:  # a flaky check gets one more try before the door fails closed
                reason = check(tool["name"], arguments)
            except Exception as exc:
                reason = f"the check failed: {exc}"
'''),
    Wrong(lab='14.1', name='a dict answer taken as new arguments',
          rule='Any answer but None is the reason for a refusal and the real tool never runs: a check that answers a dict has refused, it has not rewritten the call (Tau\'s hook may; this door only says yes or no).',
          where='lab 14.1, Build section: "Any other answer is the reason for a refusal", "the real tool never runs"; hunt round 5, 14.1-2',
          names='not new arguments for the tool',
          replace=r'''
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
        if isinstance(reason, dict) and reason:  # as in Tau: the check may rewrite the call
            return tool["execute"](reason)
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
'''),
    Wrong(lab='14.1', name='deny_destructive for every shell by name',
          rule='deny_destructive is for bash: every other call gets None, other tools included, a tool named sh or shell as well.',
          where='lab 14.1, Build section: "Every other call gets `None`, other tools included"; hunt round 5, 14.1-3',
          names='not sh or shell',
          replace=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
''',
          by=r'''
    if name in {"bash", "sh", "shell", "zsh"} and "rm -rf" in str(arguments.get("command")):
'''),
    Wrong(lab='14.1', name='rm -rf looked for in every argument',
          rule='deny_destructive refuses a bash call whose command contains rm -rf: another argument of the call that mentions rm -rf does not make a harmless command a refusal.',
          where='lab 14.1, Build section: "A bash call whose command contains `rm -rf`, wherever it stands"; hunt round 5, 14.1-4',
          names='not for another argument',
          replace=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
''',
          by=r'''
    if name == "bash" and "rm -rf" in str(arguments):  # wherever it stands in the call
'''),
    Wrong(lab='14.1', name='a person who cannot be asked read as a yes',
          rule='confirm_with lets a call through only on a clear yes: when the person cannot be asked (human.ask raises), nobody said yes, so the call is refused.',
          where='lab 14.1, Build section: "lets the call through only on a clear yes"; section "A person who is not there says no"; hunt round 5, 14.1-5',
          names='cannot be asked',
          replace=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
''',
          by=r'''
        try:
            said = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        except Exception:
            return None  # no frontend to ask: do not hold up the work
        if said is True:
'''),
    Wrong(lab='14.1', name="a check's PermissionError let out bare",
          rule='A check that breaks, with any Exception, a PermissionError included, has not said yes: the call is refused with the check failed: and its text, not with the check\'s bare words.',
          where='lab 14.1, Build section: "A check that breaks has not said yes"; hunt round 5, 14.1-6',
          names='PermissionError the check raised',
          replace=r'''
        except Exception as exc:
            reason = f"the check failed: {exc}"
''',
          by=r'''
        except PermissionError:
            raise  # a refusal the check already made
        except Exception as exc:
            reason = f"the check failed: {exc}"
'''),
    Wrong(lab='14.1', name='a reason that says Tool call blocked not prefixed again',
          rule='The refusal is Tool call blocked: and the reason after it, exactly: a reason that already begins with those words gets them again.',
          where='lab 14.1, Build section: "the text `Tool call blocked: ` and the reason after it"; hunt round 5, 14.1-7',
          names='prefix comes again',
          replace=r'''
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
            reason = str(reason)
            if not reason.startswith("Tool call blocked: "):  # never say it twice
                reason = "Tool call blocked: " + reason
            raise PermissionError(reason)
'''),
    Wrong(lab='14.1', name='a reason cut short',
          rule='The refusal holds the whole reason, as text whatever its type, however long it is.',
          where='lab 14.1, Build section: "as text whatever its type"; hunt round 5, 14.1-8',
          names='not cut',
          replace=r'''
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
            raise PermissionError(f"Tool call blocked: {str(reason)[:200]}")  # keep it short
'''),
    Wrong(lab='14.1', name="the first line of a crashed check's text",
          rule='A crashed check\'s refusal is the check failed: followed by the text of what it raised, all of it, every line.',
          where='lab 14.1, Build section: "followed by the text of what the check raised"; hunt round 5, 14.1-9',
          names='every line',
          replace=r'''
            reason = f"the check failed: {exc}"
''',
          by=r'''
            reason = f"the check failed: {str(exc).split(chr(10))[0]}"  # one line is enough
'''),
    Wrong(lab='14.1', name='a door that shuts for good after ten refusals',
          rule='For each call the check decides, and None lets the call through: the door keeps no count across calls, however many it has refused.',
          where='lab 14.1, Build section: "For each call, the check is asked once", "The answer `None` lets the call through"; hunt round 5, 14.1-10',
          names='keeps no count',
          replace=r'''
    def execute(arguments):
        try:
            reason = check(tool["name"], arguments)
''',
          by=r'''
    refusals = []

    def execute(arguments):
        if len(refusals) >= 10:  # the model keeps knocking: close the door for good
            raise PermissionError("Tool call blocked: too many refused calls; ask the user")
        try:
            reason = check(tool["name"], arguments)
''',
          also=((r'''
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
''', r'''
        if reason is not None:
            refusals.append(reason)
            raise PermissionError(f"Tool call blocked: {reason}")
'''),)),
    Wrong(lab='14.1', name='a call with no arguments let through unasked',
          rule='confirm_with puts one question to the person per call, a call with no arguments too: Allow restart {}? is a question, and only a clear yes lets the call through.',
          where='lab 14.1, Build section: "puts one question to the person per call"; hunt round 5, 14.1-11',
          names='no arguments',
          replace=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
''',
          by=r'''
        if not arguments:
            return None  # a call with nothing in it has nothing to confirm
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
'''),
    Wrong(lab='14.1', name='rm -rf looked for at word boundaries',
          rule='deny_destructive refuses any bash command that contains the text rm -rf, wherever it stands: rm -rfv build holds it as surely as rm -rf build.',
          where='lab 14.1, Build section: "A bash call whose command contains `rm -rf`, wherever it stands"; hunt round 5, 14.1-12',
          names='rm -rfv',
          replace=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
''',
          by=r'''
    import re
    if name == "bash" and re.search(r"\brm\s+-rf\b", str(arguments.get("command"))):
'''),
    Wrong(lab='14.1', name='an empty output given a stand-in',
          rule='A call the check lets through is the real tool\'s own, unchanged: a tool that printed nothing comes back as nothing.',
          where='lab 14.1, Build section: "is then the call\'s own, unchanged"; hunt round 5, 14.1-13',
          names='no stand-in',
          replace=r'''
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
''',
          by=r'''
        return tool["execute"](arguments) or "(no output)"  # outside the try
'''),
    Wrong(lab='14.1', name="the tool's failures raised as one kind",
          rule='The real tool\'s failure is the call\'s own, unchanged: its exception leaves the door as it was raised, type and all, not wrapped in another kind.',
          where='lab 14.1, Build section: "is then the call\'s own, unchanged", "What the real tool raises is never reported as a refusal"; hunt round 5, 14.1-14',
          names='type unchanged',
          replace=r'''
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
''',
          by=r'''
        try:
            return tool["execute"](arguments)
        except Exception as exc:
            raise RuntimeError(str(exc)) from exc  # one kind of tool failure, same words
'''),
    Wrong(lab='14.1', name='the check asked by keyword',
          rule='The check is asked as check(name, arguments), by position: a check may name its parameters as it likes.',
          where='lab 14.1, Build section: "with the tool\'s name and the call\'s arguments"; hunt round 5, 14.1-16',
          names='asked by position',
          replace=r'''
            reason = check(tool["name"], arguments)
''',
          by=r'''
            reason = check(name=tool["name"], arguments=arguments)
'''),
    Wrong(lab='14.1', name='a bash command that is not text refused',
          rule='deny_destructive gives a reason only to a bash command that contains rm -rf: a command that is not text, or is missing, holds none, so it gets None and the bash tool says what is wrong.',
          where='lab 14.1, Build section: "A bash call whose command contains `rm -rf`, wherever it stands"; hunt round 5, 14.1-17',
          names='not text or is missing',
          replace=r'''
        return None  # not text, so it holds no rm -rf: the bash tool says what is wrong
''',
          by=r'''
        return "this bash command is not text, so it cannot be checked; send it as a string."
'''),
    Wrong(lab='14.1', name='a command that is not text read through str()',
          rule='deny_destructive gives a reason only to a bash command that contains rm -rf: a command that is not text holds none, even a list or a dict whose text would, so it gets None and the bash tool says what is wrong.',
          where='lab 14.1, Build section: "and so does a bash call whose command is not text (bytes, a number, none at all), which bash itself refuses"; bank 14.1 (its author found the reference refusing ["rm -rf", "build"])',
          names='not text or is missing',
          replace=r'''
    if name == "bash" and not isinstance(arguments.get("command"), str):
        return None  # not text, so it holds no rm -rf: the bash tool says what is wrong
''',
          by=r'''
'''),
    Wrong(lab='14.1', name='the tool handed a copy of the arguments',
          rule='A call the check lets through runs with the very same arguments: the dict the check was asked about, not a copy, so the call on the record is the call that ran.',
          where='lab 14.1, Build section: "with the tool\'s name and the call\'s arguments", "is then the call\'s own, unchanged"; hunt round 5, 14.1-18',
          names='not a copy',
          replace=r'''
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
''',
          by=r'''
        import copy
        return tool["execute"](copy.deepcopy(arguments))  # the tool gets a copy of its own
'''),
    Wrong(lab='14.1', name='read-only tools let through unasked',
          rule='confirm_with puts one question to the person per call, whatever the tool: a read of .env asks as a write does.',
          where='lab 14.1, Build section: "puts one question to the person per call"; hunt round 5, 14.1-19',
          names='a read asks too',
          replace=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
''',
          by=r'''
        if name in {"read", "ls", "grep", "find", "glob"}:
            return None  # reads change nothing: do not pester the person
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
'''),
    Wrong(lab='14.1', name='a check answering True let through',
          rule='Only None lets a call through: a check that answers True has given a reason, True; a yes of True belongs to confirm_with\'s person, not to a check.',
          where='lab 14.1, Build section: "The answer `None` lets the call through", "Any other answer is the reason for a refusal"; hunt round 5, 14.1-20',
          names='says yes with True',
          replace=r'''
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
        if reason not in (None, True):  # None or True: go ahead
            raise PermissionError(f"Tool call blocked: {reason}")
'''),
    Wrong(lab='14.1', name='a list of reasons joined',
          rule='The refusal holds the check\'s answer as text whatever its type, as str writes it: a list reads as a list, not joined into a sentence.',
          where='lab 14.1, Build section: "as text whatever its type"; hunt round 5, 14.1-21',
          names='as str writes it',
          replace=r'''
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
            if isinstance(reason, (list, tuple)) and reason:  # several reasons
                reason = "; ".join(str(part) for part in reason)
            raise PermissionError(f"Tool call blocked: {reason}")
'''),
    Wrong(lab='14.1', name='a long question cut short',
          rule='The question is exact, character for character, however long: the person allows only what they read, so the whole JSON is shown.',
          where='lab 14.1, Build section: "The question put to the person is exact, character for character"; hunt round 5, 14.1-29',
          names='asked in full',
          replace=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
''',
          by=r'''
        shown = json.dumps(arguments)
        if len(shown) > 200:  # a person will not read a wall of JSON
            shown = shown[:200] + "..."
        if human.ask(f"Allow {name} {shown}?") is True:
'''),
    Wrong(lab='14.1', name='an audit written into the tool handed in',
          rule='guard returns the tool\'s dict with one value replaced and changes nothing of the tool handed in, not when it is built and not on any call through the door.',
          where='section "Where the door goes": "It returns the tool\'s dict with one value replaced"; hunt round 5, 14.1-30',
          names='an audit of calls',
          replace=r'''
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
        tool.setdefault("audit", []).append([arguments, reason])  # who allowed what
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
'''),
    Wrong(lab='14.1', name='a Ctrl-C from the tool made a refusal',
          rule='What the real tool raises is never reported as a refusal: a KeyboardInterrupt from the tool, wider than Exception, leaves the door as it came.',
          where='lab 14.1, Build section: "What the real tool raises is never reported as a refusal"; hunt round 5, 14.1-31',
          names='from the tool leaves the door',
          replace=r'''
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
''',
          by=r'''
        try:
            return tool["execute"](arguments)
        except KeyboardInterrupt:  # the user pressed Ctrl-C: tell the model, keep the run
            raise PermissionError("Tool call blocked: the user stopped this command")
'''),
    Wrong(lab='14.1', name='the check shown a copy of the arguments',
          rule="The check is asked about the call's own arguments, and the real tool gets the very arguments the check was shown: the same dict, not a copy for either.",
          where='lab 14.1, Build section, item 1: "the real tool gets the very arguments the check was shown"; hunt round 10, 14.1-01',
          names='the dict the check was asked about',
          replace=r'''
            reason = check(tool["name"], arguments)
''',
          by=r'''
            reason = check(tool["name"], dict(arguments))  # the check may look, not touch
'''),
    Wrong(lab='14.1', name='a door that shuts for good after twenty refusals',
          rule='For each call the check decides, and None lets the call through: the door keeps no count across calls, however many it has refused.',
          where='lab 14.1, Build section, item 1: "For each call, the check is asked once", "The answer `None` lets the call through"; hunt round 10, 14.1-02',
          names='keeps no count',
          replace=r'''
    def execute(arguments):
        try:
            reason = check(tool["name"], arguments)
''',
          by=r'''
    refused = [0]

    def execute(arguments):
        if refused[0] >= 20:  # a circuit breaker: the model keeps knocking
            raise PermissionError("Tool call blocked: too many refusals in a row")
        try:
            reason = check(tool["name"], arguments)
''',
          also=((r'''
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
''', r'''
        if reason is not None:
            refused[0] += 1
            raise PermissionError(f"Tool call blocked: {reason}")
'''),)),
    Wrong(lab='14.1', name='a tool named read let through the door unasked',
          rule='For each call, whatever the tool, the check is asked once before the real tool runs: a read behind a door asks its check as a write does.',
          where='lab 14.1, Build section, item 1: "For each call, the check is asked once" ... "before the real tool runs"; hunt round 10, 14.1-03',
          names='whatever the tool, a read too',
          replace=r'''
    def execute(arguments):
        try:
            reason = check(tool["name"], arguments)
''',
          by=r'''
    def execute(arguments):
        if tool["name"] == "read":  # a read changes nothing: no need to ask
            return tool["execute"](arguments)
        try:
            reason = check(tool["name"], arguments)
'''),
    Wrong(lab='14.1', name='a crashed call refused again unasked',
          rule='For each call the check is asked once: a call that comes again is asked again, even one whose check crashed the time before.',
          where='lab 14.1, Build section, item 1: "For each call, the check is asked once"; hunt round 10, 14.1-04',
          names='a call that comes again is asked again',
          replace=r'''
    def execute(arguments):
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
            reason = f"the check failed: {exc}"
''',
          by=r'''
    crashed = {}

    def execute(arguments):
        key = json.dumps(arguments, sort_keys=True, default=str)
        if key in crashed:  # this call broke the check before: refuse it as then
            raise PermissionError(f"Tool call blocked: {crashed[key]}")
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
            reason = crashed[key] = f"the check failed: {exc}"
'''),
    Wrong(lab='14.1', name="a check's sys.exit made a refusal",
          rule="The door's try catches Exception and nothing wider: a SystemExit from the check is the program ending, and leaves the door as it came.",
          where='figure 14.1: "Anything wider, such as `PowerCut`, passes every wall"; lab 14.1, Build section, item 1; hunt round 10, 14.1-05',
          names='any other BaseException that is not an Exception',
          replace=r'''
        except Exception as exc:
            reason = f"the check failed: {exc}"
''',
          by=r'''
        except (Exception, SystemExit) as exc:  # a check that exits has broken too
            reason = f"the check failed: {exc}"
'''),
    Wrong(lab='14.1', name="the tool's RuntimeError and LookupError made refusals",
          rule='What the real tool raises is never reported as a refusal: a RuntimeError or a KeyError of the tool comes back in its own words and its own type.',
          where='lab 14.1, Build section, item 1: "What the real tool raises is never reported as a refusal"; hunt round 10, 14.1-06',
          names='leaves the door with its own type',
          replace=r'''
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
''',
          by=r'''
        try:
            return tool["execute"](arguments)
        except (RuntimeError, LookupError) as exc:  # a tool that crashed: say the door held
            raise PermissionError(f"Tool call blocked: the check failed: {exc}")
'''),
    Wrong(lab='14.1', name='a reason cut at a thousand characters',
          rule='The refusal holds the whole reason, as text whatever its type, however long it is.',
          where='lab 14.1, Build section, item 1: "as text whatever its type (as `str` writes it"; hunt round 10, 14.1-07',
          names='however long',
          replace=r'''
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
            raise PermissionError(f"Tool call blocked: {str(reason)[:1000]}")  # keep it short
'''),
    Wrong(lab='14.1', name="a crashed check's text cut at 200 characters",
          rule="A crashed check's refusal is the check failed: followed by the text of what it raised, all of it.",
          where='lab 14.1, Build section, item 1: "followed by the text of what the check raised"; hunt round 10, 14.1-08',
          names='with all its text',
          replace=r'''
            reason = f"the check failed: {exc}"
''',
          by=r'''
            reason = f"the check failed: {str(exc)[:200]}"  # a traceback is no reason
'''),
    Wrong(lab='14.1', name='None told by equality',
          rule='Only None itself lets a call through: an answer that says it equals None is still an answer, and a reason.',
          where='lab 14.1, Build section, item 1: "The answer `None` lets the call through"; hunt round 10, 14.1-09',
          names='equals None without being None',
          replace=r'''
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
        if reason != None:  # noqa: E711
            raise PermissionError(f"Tool call blocked: {reason}")
'''),
    Wrong(lab='14.1', name="the tool's TypeError made a refusal",
          rule='What the real tool raises is never reported as a refusal: a TypeError of the tool is its own, not the door\'s.',
          where='lab 14.1, Build section, item 1: "What the real tool raises is never reported as a refusal"; hunt round 10, 14.1-22',
          names='leaves the door with its own type',
          replace=r'''
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
''',
          by=r'''
        try:
            return tool["execute"](arguments)
        except TypeError as exc:  # the tool was called wrongly: the door's fault
            raise PermissionError(f"Tool call blocked: the check failed: {exc}")
'''),
    Wrong(lab='14.1', name='deny_destructive for every tool whose name holds bash',
          rule='deny_destructive is for the tool named bash: every other call gets None, other tools included, run_bash too.',
          where='lab 14.1, Build section, item 2: "Every other call gets `None`, other tools included"; hunt round 10, 14.1-11',
          names='run_bash',
          replace=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
''',
          by=r'''
    if "bash" in name and "rm -rf" in str(arguments.get("command")):  # run_bash, safe_bash
'''),
    Wrong(lab='14.1', name='rm -rf looked for on the first line only',
          rule='A bash call whose command contains rm -rf, wherever it stands, on a later line too, gets a reason.',
          where='lab 14.1, Build section, item 2: "whose command contains `rm -rf`, wherever it stands"; hunt round 10, 14.1-12',
          names='on a later line',
          replace=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
''',
          by=r'''
    if name == "bash" and "rm -rf" in (str(arguments.get("command")).splitlines() or [""])[0]:
'''),
    Wrong(lab='14.1', name='rm -rf looked for in the head of the command',
          rule='A bash call whose command contains rm -rf, wherever it stands, after thousands of characters too, gets a reason.',
          where='lab 14.1, Build section, item 2: "whose command contains `rm -rf`, wherever it stands"; hunt round 10, 14.1-13',
          names='thousands of characters in',
          replace=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
''',
          by=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command"))[:120]:  # the head says it
'''),
    Wrong(lab='14.1', name='rm -r refused as well',
          rule='deny_destructive refuses bash commands holding rm -rf; every other call gets None, rm -r build included, which the lesson\'s own run puts to the person.',
          where='lab 14.1, Build section, item 2: "Every other call gets `None`"; section "Your harness, behind a door"; hunt round 10, 14.1-14',
          names='rm -r build among them',
          replace=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
''',
          by=r'''
    command = str(arguments.get("command"))
    if name == "bash" and ("rm -rf" in command or "rm -r" in command or "rm -R" in command):
'''),
    Wrong(lab='14.1', name='a command of bytes read as text',
          rule='A bash call whose command is not text, bytes included, gets None, and deny_destructive does not raise.',
          where='lab 14.1, Build section, item 2: "and so does a bash call whose command is not text"; hunt round 10, 14.1-16',
          names='bytes too',
          replace=r'''
    if name == "bash" and not isinstance(arguments.get("command"), str):
        return None  # not text, so it holds no rm -rf: the bash tool says what is wrong
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
''',
          by=r'''
    if name == "bash" and not isinstance(arguments.get("command"), (str, bytes)):
        return None  # bytes are text enough
    if name == "bash" and "rm -rf" in arguments.get("command"):
'''),
    Wrong(lab='14.1', name='a long question cut at a thousand characters',
          rule='The question is exact, character for character, however long: the person allows only what they read, so the whole JSON is shown.',
          where='lab 14.1, Build section, item 3 and "The question put to the person is exact, character for character"; hunt round 10, 14.1-17',
          names='a long one in full',
          replace=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
''',
          by=r'''
        shown = json.dumps(arguments)
        if len(shown) > 1000:  # a person will not read a wall of JSON
            shown = shown[:1000] + "..."
        if human.ask(f"Allow {name} {shown}?") is True:
'''),
    Wrong(lab='14.1', name='a person who cannot be asked refused with no reason',
          rule='A call the person cannot be asked about is refused with a reason: the user said no, or the check failed: and what ask raised; never an empty one.',
          where='lab 14.1, Build section, items 1 and 3: "refuses it with the reason `the user said no`", "followed by the text of what the check raised"; hunt round 10, 14.1-18',
          names='cannot be asked, with a reason',
          replace=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
''',
          by=r'''
        try:
            answer = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        except Exception:
            return ""  # nobody there: nothing to say
        if answer is True:
'''),
    Wrong(lab='14.1', name='a person who could not be asked once never asked again',
          rule='confirm_with puts one question to the person per call, the same call asked again as often as it comes: a person who could not be asked once is asked about the next call.',
          where='lab 14.1, Build section, item 3: "puts one question to the person per call"; hunt round 10, 14.1-19',
          names='asked again about the next call',
          replace=r'''
    def check(name, arguments):
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
''',
          by=r'''
    gone = []

    def check(name, arguments):
        if gone:  # the frontend went away once: it is gone for good
            return "the user said no"
        try:
            answer = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        except Exception:
            gone.append(True)
            return "the user said no"
        if answer is True:
'''),
    Wrong(lab='14.1', name='a guideline added to the tool handed in',
          rule='guard changes nothing of the tool handed in, not even inside a value: its guidelines list keeps what it held.',
          where='section "Where the door goes": "`snippet` and `guidelines` travel with `{**tool}` untouched"; hunt round 10, 14.1-20',
          names='nor any value inside it',
          replace=r'''
    return {**tool, "execute": execute}
''',
          by=r'''
    if "guidelines" in tool and "Some calls need permission." not in tool["guidelines"]:
        tool["guidelines"].append("Some calls need permission.")  # warn the model
    return {**tool, "execute": execute}
'''),
    Wrong(lab='14.1', name="a confirmed argument added to the tool handed in's parameters",
          rule='guard changes nothing of the tool handed in, not even inside a value: the model sees the same tool, its parameters as they were.',
          where='section "Where the door goes": "The model sees the same tool it saw before"; the aside on a `confirmed` argument; hunt round 10, 14.1-21',
          names='nor any value inside it',
          replace=r'''
    return {**tool, "execute": execute}
''',
          by=r'''
    properties = tool.get("parameters", {}).get("properties")
    if isinstance(properties, dict):
        properties.setdefault("confirmed", {"type": "boolean",
                                            "description": "True once the user agreed."})
    return {**tool, "execute": execute}
'''),
    # Hunt round 10 (reader r41), design 14.1-15.
    Wrong(lab='14.1', name='a reason that names nothing',
          rule="deny_destructive's reason names what it refuses, rm -rf, in a sentence of four words or more.",
          where='lab 14.1, Build section, item 2: "that names what it refuses, `rm -rf`"; hunt round 10, 14.1-15',
          names='names what it refuses',
          replace=r'''
        return "rm -rf cannot be undone; if the user wants it, they can run it themselves."
''',
          by=r'''
        return "no no no no"
'''),
    # Hunt round 10 (reader r41), probe 14.1-92.
    Wrong(lab='14.1', name='arguments json.dumps cannot write put to the person as str writes them',
          rule="Arguments json.dumps cannot write are never put to the person: the call is refused, as a check that broke or with the user said no.",
          where='lab 14.1, Build section, item 3: "are never put to the person, who could not read them exactly"; hunt round 10, probe 14.1-92',
          names='never put to the person',
          replace=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
''',
          by=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments, default=str)}?") is True:
'''),
    # Hunt round 12 (reader r59): the designs of round 12 that passed lab 14.1's tests.
    Wrong(lab='14.1', name='a door that shuts for good after a hundred refusals',
          rule='The door keeps no count of refusals: for each call the check is asked once, and its None lets the call through, however many calls it refused before.',
          where='lab 14.1, Build section, item 1: "For each call, the check is asked once"; hunt round 12, 14.1-01',
          names='more than a hundred refusals',
          replace=EXECUTE,
          by=r'''
    refusals = []

    def execute(arguments):
        if len(refusals) >= 100:
            raise PermissionError("Tool call blocked: this door has refused too often")
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
            reason = f"the check failed: {exc}"
        if reason is not None:
            refusals.append(reason)
            raise PermissionError(f"Tool call blocked: {reason}")
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
'''),
    Wrong(lab='14.1', name='a call whose check crashed twice refused unasked',
          rule='For each call the check is asked once: a call that comes again is asked again, even one whose check crashed before, however often.',
          where='lab 14.1, Build section, item 1: "For each call, the check is asked once"; hunt round 12, 14.1-02',
          names='not even a call that crashed its check twice',
          replace=EXECUTE,
          by=r'''
    crashed = {}

    def execute(arguments):
        key = json.dumps(arguments, sort_keys=True, default=repr)
        if crashed.get(key, ("", 0))[1] >= 2:
            raise PermissionError(f"Tool call blocked: {crashed[key][0]}")
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
            reason = f"the check failed: {exc}"
            crashed[key] = (reason, crashed.get(key, ("", 0))[1] + 1)
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
'''),
    Wrong(lab='14.1', name='a door that opens after twenty crashes',
          rule='A check that breaks has not said yes: the call is refused, the hundredth crash as the first; the door keeps no count.',
          where='lab 14.1, Build section, item 1: "A check that breaks has not said yes: the call is refused"; hunt round 12, 14.1-22',
          names='neither opening after many',
          replace=EXECUTE,
          by=r'''
    crashes = []

    def execute(arguments):
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
            crashes.append(exc)
            reason = f"the check failed: {exc}" if len(crashes) <= 20 else None
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
'''),
    Wrong(lab='14.1', name='an empty arguments dict handed on as a new one',
          rule='The real tool gets the very arguments the check was shown, an empty dict included, not a new one.',
          where='lab 14.1, Build section, item 1: "the real tool gets the very arguments the check was shown"; hunt round 12, 14.1-05',
          names='an empty one included',
          replace=RUN,
          by=r'''
        return tool["execute"](arguments or {})  # outside the try: the tool's failures are not the door's
'''),
    Wrong(lab='14.1', name="a tool's None result given back as empty text",
          rule="The real tool's result is the call's own, unchanged: a None stays None.",
          where='''lab 14.1, Build section, item 1: "its result, or its failure, is then the call's own, unchanged"; hunt round 12, 14.1-06''',
          names="a tool's None comes back as None",
          replace=RUN,
          by=r'''
        result = tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
        return "" if result is None else result
'''),
    Wrong(lab='14.1', name="the tool's exception rebuilt with its type and text",
          rule="The real tool's failure is the call's own, unchanged: the very exception it raised leaves the door, not a copy of the same type and text.",
          where='''lab 14.1, Build section, item 1: "its result, or its failure, is then the call's own, unchanged"; hunt round 12, 14.1-07''',
          names='not a copy of it rebuilt',
          replace=RUN,
          by=r'''
        try:
            return tool["execute"](arguments)
        except Exception as own:
            raise type(own)(*own.args) from None  # the same kind and text, a tidier traceback
'''),
    Wrong(lab='14.1', name='a command tidied after the check said yes',
          rule='The real tool gets the very arguments the check was shown, as they were: the call in the record is the call that ran.',
          where='lab 14.1, Build section, item 1: "the real tool gets the very arguments the check was shown"; hunt round 12, 14.1-17',
          names='left as it came',
          replace=RUN,
          by=r'''
        if isinstance(arguments.get("command"), str):
            arguments["command"] = arguments["command"].strip()  # tidy what the model sent
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
'''),
    Wrong(lab='14.1', name="a crashed check's empty text replaced by its kind's name",
          rule="A crashed check's reason is the check failed: followed by the text of what it raised, exactly, an empty text included.",
          where='lab 14.1, Build section, item 1: "followed by the text of what the check raised"; hunt round 12, 14.1-08',
          names="no stand-in such as its kind's name",
          replace=CRASH,
          by=r'''
        except Exception as exc:
            reason = f"the check failed: {str(exc) or type(exc).__name__}"
'''),
    Wrong(lab='14.1', name="a crashed check's text cut at 8,000 characters",
          rule="A crashed check's reason is the check failed: followed by the text of what it raised, all of it.",
          where='lab 14.1, Build section, item 1: "followed by the text of what the check raised"; hunt round 12, 14.1-10',
          names='over 16,000 characters long, not cut',
          replace=CRASH,
          by=r'''
        except Exception as exc:
            reason = f"the check failed: {str(exc)[:8000]}"
'''),
    Wrong(lab='14.1', name='a reason cut at five thousand characters',
          rule='Any answer but None is the reason, after Tool call blocked: as text, exactly, however long.',
          where='lab 14.1, Build section, item 1: "the call raises `PermissionError` with the text `Tool call blocked: ` and the reason after it"; hunt round 12, 14.1-09',
          names='one of over 20,000 characters (not cut)',
          replace=BLOCK,
          by=r'''
            raise PermissionError(f"Tool call blocked: {str(reason)[:5000]}")
'''),
    Wrong(lab='14.1', name='the text None read as None',
          rule='The answer None lets the call through, and only None: the text None is a reason like any other.',
          where='lab 14.1, Build section, item 1: "The answer `None` lets the call through"; hunt round 12, 14.1-20',
          names='the text None (a string, not None)',
          replace=r'''
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
        if reason is not None and reason != "None":
            raise PermissionError(f"Tool call blocked: {reason}")
'''),
    Wrong(lab='14.1', name='rm -rf not looked for where rm ends a longer word',
          rule='A bash call whose command contains rm -rf, wherever it stands, gets a reason: the text, not a word of its own.',
          where='lab 14.1, Build section, item 2: "A bash call whose command contains `rm -rf`, wherever it stands, gets a reason"; hunt round 12, 14.1-11',
          names='rm ending a longer word',
          replace=DENY,
          by=r'''
    if name == "bash" and re.search(r"(?<![\w.-])rm -rf", str(arguments.get("command"))):
''',
          also=(("import json", "import json\nimport re"),)),
    Wrong(lab='14.1', name='rm -rf looked for in the first 10,000 characters',
          rule='A bash call whose command contains rm -rf, wherever it stands, gets a reason, however far in.',
          where='lab 14.1, Build section, item 2: "A bash call whose command contains `rm -rf`, wherever it stands, gets a reason"; hunt round 12, 14.1-12',
          names='after 100,000 characters of it',
          replace=DENY,
          by=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command"))[:10_000]:
'''),
    Wrong(lab='14.1', name='a command over 100,000 characters let through',
          rule='A bash call whose command contains rm -rf, wherever it stands, gets a reason, however long the command.',
          where='lab 14.1, Build section, item 2: "A bash call whose command contains `rm -rf`, wherever it stands, gets a reason"; hunt round 12, 14.1-23',
          names='after 100,000 characters of it',
          replace=DENY,
          by=r'''
    command = str(arguments.get("command"))
    if name == "bash" and len(command) <= 100_000 and "rm -rf" in command:
'''),
    Wrong(lab='14.1', name='rm -rf looked for on the first three lines',
          rule='A bash call whose command contains rm -rf, wherever it stands, gets a reason, on any line.',
          where='lab 14.1, Build section, item 2: "A bash call whose command contains `rm -rf`, wherever it stands, gets a reason"; hunt round 12, 14.1-13',
          names='on the fourth line of the command',
          replace=DENY,
          by=r'''
    if name == "bash" and "rm -rf" in "\n".join(str(arguments.get("command")).splitlines()[:3]):
'''),
    Wrong(lab='14.1', name='a command of a str subclass let through',
          rule='A bash call whose command is text and contains rm -rf gets a reason: a str of a kind of its own is text.',
          where='lab 14.1, Build section, item 2: "A bash call whose command contains `rm -rf`, wherever it stands, gets a reason"; hunt round 12, 14.1-18',
          names='str subclass of its own',
          replace=r'''
    if name == "bash" and not isinstance(arguments.get("command"), str):
''',
          by=r'''
    if name == "bash" and type(arguments.get("command")) is not str:
'''),
    Wrong(lab='14.1', name="the tool's name read in any case and spacing",
          rule='deny_destructive looks at bash calls only, by the name bash exactly: every other call gets None, other tools included.',
          where='lab 14.1, Build section, item 2: "Every other call gets `None`, other tools included"; hunt round 12, 14.1-14',
          names='nor bash in other letters or with a space',
          replace=DENY,
          by=r'''
    if name.strip().lower() == "bash" and "rm -rf" in str(arguments.get("command")):
'''),
    Wrong(lab='14.1', name='a long question cut at six thousand characters',
          rule='The question puts the arguments as json.dumps writes them, all of them, however long.',
          where='lab 14.1, Build section, item 3: "the arguments as `json.dumps` writes them"; hunt round 12, 14.1-16',
          names='every character of its JSON, not cut',
          replace=ASK,
          by=r'''
        shown = json.dumps(arguments)
        if len(shown) > 6000:
            shown = shown[:6000] + "..."
        if human.ask(f"Allow {name} {shown}?") is True:
'''),
    Wrong(lab='14.1', name='two nos for the same call remembered',
          rule='confirm_with puts one question to the person per call, the same call asked again as often as it comes: no answer is remembered.',
          where='lab 14.1, Build section, item 3: "the same call asked again as often as it comes"; hunt round 12, 14.1-03',
          names='not two nos',
          replace=ASK,
          by=r'''
        question = f"Allow {name} {json.dumps(arguments)}?"
        if refused.count(question) >= 2:
            return "the user said no"  # they said no twice already
        refused.append(question)
        if human.ask(question) is True:
            refused.remove(question)
''',
          also=((r'''
    def check(name, arguments):
''', r'''
    refused = []

    def check(name, arguments):
'''),)),
    Wrong(lab='14.1', name='two yeses for the same call remembered',
          rule='confirm_with puts one question to the person per call, the same call asked again as often as it comes: a yes is for one call.',
          where='lab 14.1, Build section, item 3: "the same call asked again as often as it comes"; hunt round 12, 14.1-19',
          names='nor two or three yeses in a row',
          replace=ASK,
          by=r'''
        question = f"Allow {name} {json.dumps(arguments)}?"
        if allowed.count(question) >= 2:
            return None  # they said yes twice already
        if human.ask(question) is True:
            allowed.append(question)
''',
          also=((r'''
    def check(name, arguments):
''', r'''
    allowed = []

    def check(name, arguments):
'''),)),
    Wrong(lab='14.1', name='the text True read as a yes',
          rule='confirm_with lets a call through only on a clear yes, True itself: the text True is another answer, and a no.',
          where='lab 14.1, Build section, item 3: "lets the call through only on a clear yes"; hunt round 12, 14.1-21',
          names='and the text "True"',
          replace=ASK,
          by=r'''
        said = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        if said is True or said == "True":
'''),
    Wrong(lab='14.1', name='a power cut while the person is asked made the user said no',
          rule='A PowerCut raised by the check, as by human.ask inside confirm_with, leaves the run: it is the program ending, not the person refusing.',
          where='lab 14.1, Build section, item 1: "a `PowerCut`, raised by the real tool or by the check, leaves the run"; hunt round 12, 14.1-04',
          names='a power cut while confirm_with asks the person',
          replace=ASK,
          by=r'''
        try:
            said = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        except BaseException:  # the person could not be asked: that is a no
            return "the user said no"
        if said is True:
'''),
    # Hunt round 15 (reader r77): each a design that passed the lab's tests before this round.
    Wrong(lab='14.1', name="a check's awaitable answer awaited",
          rule='A check is a plain function: what calling it returns is its answer, so an async check, whose call hands back a coroutine, has not said None, and the call is refused.',
          where='lab 14.1, Build section, item 1: "A check is a plain function: what it returns when called is its answer, so one that hands back an awaitable has not said `None`"; hunt round 15, 14.1-02',
          names='has not said None',
          replace=r'''
            reason = check(tool["name"], arguments)
''',
          by=r'''
            reason = check(tool["name"], arguments)
            if hasattr(reason, "send") and hasattr(reason, "__await__"):  # an async check
                try:
                    reason.send(None)
                except StopIteration as done:
                    reason = done.value
'''),
    Wrong(lab='14.1', name="the check's answer replayed for the same arguments dict",
          rule='For each call, the check is asked once: the same arguments dict handed in again is a new call, and the check is asked again.',
          where='lab 14.1, Build section, item 1: "For each call, the check is asked once"; hunt round 15, 14.1-04',
          names='not even for the very same arguments object',
          replace=r'''
            reason = check(tool["name"], arguments)
''',
          by=r'''
            if id(arguments) in seen:  # this very dict was asked about already
                reason = seen[id(arguments)][1]
            else:
                reason = check(tool["name"], arguments)
                seen[id(arguments)] = (arguments, reason)  # held, so its id is not reused
''',
          also=((r'''
    def execute(arguments):
        try:
''', r'''
    seen = {}

    def execute(arguments):
        try:
'''),)),
    Wrong(lab='14.1', name="the tool's output tidied of Windows line ends and a NUL",
          rule="When the check allows a call, the real tool's result is the call's own, unchanged: its \\r\\n line ends and a NUL at its end stay.",
          where='''lab 14.1, Build section, item 1: "its result, or its failure, is then the call's own, unchanged"; hunt round 15, 14.1-06''',
          names='comes back as it was printed, not tidied',
          replace=RUN,
          by=r'''
        output = tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
        if isinstance(output, str):
            output = output.replace("\r\n", "\n").rstrip("\x00")
        return output
'''),
    Wrong(lab='14.1', name='a door that opens after two hundred refusals',
          rule='Any answer but None is a reason for a refusal, the last of a thousand as the first: the door keeps no count of refusals.',
          where='lab 14.1, Build section, item 1: "Any other answer is the reason for a refusal"; hunt round 15, 14.1-09',
          names='the door keeps no count of refusals',
          replace=r'''
            reason = check(tool["name"], arguments)
''',
          by=r'''
            reason = None if refused[0] >= 200 else check(tool["name"], arguments)
''',
          also=((BLOCK, r'''
            refused[0] += 1  # after two hundred, the check has made its point
            raise PermissionError(f"Tool call blocked: {reason}")
'''), (r'''
    def execute(arguments):
        try:
''', r'''
    refused = [0]

    def execute(arguments):
        try:
'''))),
    Wrong(lab='14.1', name='a long question cut at fifty thousand characters',
          rule='The question puts the arguments as json.dumps writes them, all of them, however long.',
          where='lab 14.1, Build section, item 3: "The question reads `Allow`, the tool\'s name and the arguments as `json.dumps` writes them, then `?`"; hunt round 15, 14.1-10',
          names='every character of its JSON, not cut',
          replace=ASK,
          by=r'''
        shown = json.dumps(arguments)
        if len(shown) > 50000:
            shown = shown[:50000] + "..."
        if human.ask(f"Allow {name} {shown}?") is True:
'''),
    Wrong(lab='14.1', name='rm -rf looked for in the first 200,000 characters',
          rule='A bash call whose command contains rm -rf, wherever it stands, however long the command, gets a reason.',
          where='lab 14.1, Build section, item 2: "A bash call whose command contains `rm -rf`, wherever it stands, gets a reason"; hunt round 15, 14.1-11',
          names='or after 1,000,000',
          replace=DENY,
          by=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command"))[:200000]:
'''),
    Wrong(lab='14.1', name='y read as a yes',
          rule='confirm_with lets a call through only on a clear yes, True itself: y is another answer, and a no.',
          where='lab 14.1, Build section, item 3: "lets the call through only on a clear yes"; hunt round 15, 14.1-13',
          names='and y: a door fails closed',
          replace=ASK,
          by=r'''
        said = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        if said is True or said in ("y", "Y"):
'''),
    Wrong(lab='14.1', name='bytes decoded for the person',
          rule='Arguments json.dumps cannot write, bytes as much as a set, are never put to the person: the call is refused.',
          where='lab 14.1, Build section, item 3: "Arguments `json.dumps` cannot write, a set among them for example, are never put to the person"; hunt round 15, 14.1-14',
          names='Bytes are no more JSON than a set is',
          replace=ASK,
          by=r'''
        shown = {key: value.decode("utf-8", "replace") if isinstance(value, bytes) else value
                 for key, value in arguments.items()}
        if human.ask(f"Allow {name} {json.dumps(shown)}?") is True:
'''),
    Wrong(lab='14.1', name='a person who said yes five times in a row not asked again',
          rule='confirm_with puts one question to the person per call, the same call asked again as often as it comes: no run of yeses lets later calls through unasked.',
          where='lab 14.1, Build section, item 3: "the same call asked again as often as it comes"; hunt round 15, 14.1-16',
          names='a person who has said yes a thousand times is still asked',
          replace=ASK,
          by=r'''
        if yeses[0] >= 5:
            return None  # they have said yes enough
        said = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        yeses[0] = yeses[0] + 1 if said is True else 0
        if said is True:
''',
          also=((r'''
    def check(name, arguments):
''', r'''
    yeses = [0]

    def check(name, arguments):
'''),)),
    Wrong(lab='14.1', name='a person who said no three times in a row not asked again',
          rule='confirm_with puts one question to the person per call, the same call asked again as often as it comes: no run of nos refuses later calls unasked.',
          where='lab 14.1, Build section, item 3: "the same call asked again as often as it comes"; hunt round 15, 14.1-17',
          names='a person who has said no a thousand times is still asked',
          replace=ASK,
          by=r'''
        if nos[0] >= 3:
            return "the user said no"  # they have said no enough
        nos[0] += 1
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
            nos[0] = 0
''',
          also=((r'''
    def check(name, arguments):
''', r'''
    nos = [0]

    def check(name, arguments):
'''),)),
    Wrong(lab='14.1', name='deny_destructive for every tool whose name starts with bash',
          rule='deny_destructive looks at bash calls only, by the name bash exactly: every other call gets None, other tools included.',
          where='lab 14.1, Build section, item 2: "Every other call gets `None`, other tools included"; hunt round 15, 14.1-22',
          names='nor a name that starts with bash',
          replace=DENY,
          by=r'''
    if name.startswith("bash") and "rm -rf" in str(arguments.get("command")):
'''),
    Wrong(lab='14.1', name="a Ctrl-C from the check made a refusal",
          rule="The door's try catches Exception only: a KeyboardInterrupt raised by the check is the program ending, and leaves the door as it came.",
          where='lesson 14, the prediction on the real tool\'s failures: "anything wider than `Exception` passes through both"; hunt round 15, 14.1-23',
          names='Nor is a KeyboardInterrupt (Ctrl-C) from the check',
          replace=CRASH,
          by=r'''
        except (Exception, KeyboardInterrupt) as exc:  # Ctrl-C in a slow check: refuse, go on
            reason = f"the check failed: {exc}"
'''),
    Wrong(lab='14.1', name='a person with no ask read as a yes',
          rule='confirm_with lets a call through only on a clear yes: a person with no ask gave none, and the call is refused with a reason.',
          where='lab 14.1, Build section, item 3: "lets the call through only on a clear yes"; hunt round 15, 14.1-24',
          names='Nor has a person with no way to be asked at all',
          replace=ASK,
          by=r'''
        ask = getattr(human, "ask", None)
        if ask is None:
            return None  # no frontend attached: nobody to hold the call up
        if ask(f"Allow {name} {json.dumps(arguments)}?") is True:
'''),
    Wrong(lab='14.1', name="confirm_with's answer replayed for the same arguments dict",
          rule='confirm_with puts one question to the person per call, the same call asked again as often as it comes, the very same arguments dict too.',
          where='lab 14.1, Build section, item 3: "the same call asked again as often as it comes"; hunt round 15, 14.1-25',
          names='though the check was handed the very same arguments dict each time',
          replace=ASK,
          by=r'''
        if id(arguments) in seen:  # this very dict was put to the person already
            return seen[id(arguments)][1]
        said = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        seen[id(arguments)] = (arguments, None if said is True else "the user said no")  # held
        if said is True:
''',
          also=((r'''
    def check(name, arguments):
''', r'''
    seen = {}

    def check(name, arguments):
'''),)),
    # Hunt round 18 (reader r98), designs 14.1-53 and 14.1-54: a crashed check that fails open
    # for one kind of Exception.
    Wrong(lab='14.1', name="a check's NotImplementedError let through",
          rule='A check that breaks, with any Exception, has not said yes: the call is refused with the check failed: and its text, whatever the kind, one that says its rule is not written yet included.',
          where='lab 14.1, Build section, item 1: "A check that breaks has not said yes: the call is refused"; hunt round 18, 14.1-53',
          names='a NotImplementedError and a TimeoutError',
          replace=CRASH,
          by=r'''
        except NotImplementedError:
            reason = None  # no rule written for this yet: nothing to stop
        except Exception as exc:
            reason = f"the check failed: {exc}"
'''),
    Wrong(lab='14.1', name="a check's TimeoutError let through",
          rule='A check that breaks, with any Exception, has not said yes: a check that timed out gave no answer, so the call is refused with the check failed: and its text.',
          where='lab 14.1, Build section, item 1: "A check that breaks has not said yes: the call is refused"; hunt round 18, 14.1-54',
          names='a NotImplementedError and a TimeoutError',
          replace=CRASH,
          by=r'''
        except TimeoutError:
            reason = None  # the policy service is slow: do not hold up the work
        except Exception as exc:
            reason = f"the check failed: {exc}"
'''),
    # Hunt round 18 (reader r98), design 14.1-17.
    Wrong(lab='14.1', name='an empty guidelines list put in the tool handed in',
          rule='guard changes nothing of the tool handed in: a tool with no guidelines keeps having none, no key added to it.',
          where='section "Where the door goes": "`snippet` and `guidelines` travel with `{**tool}` untouched"; hunt round 18, 14.1-17',
          names='a tool with no guidelines',
          replace=r'''
    return {**tool, "execute": execute}
''',
          by=r'''
    tool.setdefault("guidelines", [])  # every guarded tool has a list to show
    return {**tool, "execute": execute}
'''),
    # Hunt round 18 (reader r98), design 14.1-25.
    Wrong(lab='14.1', name='a call whose arguments are not a dict refused unasked',
          rule='For each call, the check is asked once before the real tool runs, whatever the call\'s arguments: the door does not refuse a call on its own.',
          where='lab 14.1, Build section, item 1: "For each call, the check is asked once"; hunt round 18, 14.1-25',
          names='arguments are not a dict',
          replace=r'''
    def execute(arguments):
        try:
''',
          by=r'''
    def execute(arguments):
        if not isinstance(arguments, dict):  # no check can read them
            raise PermissionError("Tool call blocked: arguments must be an object")
        try:
'''),
    # Hunt round 18 (reader r98), designs 14.1-10 and 14.1-23: cuts past what the tests tried.
    Wrong(lab='14.1', name='a reason cut at fifty thousand characters',
          rule='Any answer but None is the reason, after Tool call blocked: as text, exactly, however long.',
          where='lab 14.1, Build section, item 1: "the call raises `PermissionError` with the text `Tool call blocked: ` and the reason after it"; hunt round 18, 14.1-10',
          names='not cut at any length',
          replace=BLOCK,
          by=r'''
            raise PermissionError(f"Tool call blocked: {str(reason)[:50_000]}")
'''),
    Wrong(lab='14.1', name="a crashed check's text cut at a hundred thousand characters",
          rule="A crashed check's reason is the check failed: followed by the text of what it raised, all of it, however long.",
          where='lab 14.1, Build section, item 1: "its reason is `the check failed: ` followed by the text of what the check raised"; hunt round 18, 14.1-23',
          names='not cut at any length',
          replace=CRASH,
          by=r'''
        except Exception as exc:
            reason = f"the check failed: {str(exc)[:100_000]}"
'''),
    # Hunt round 18 (reader r98), designs 14.1-32 and 14.1-33.
    Wrong(lab='14.1', name='rm -f refused as well',
          rule='deny_destructive refuses bash commands holding rm -rf; every other call gets None, rm -f (no -r) included, which is not rm -rf in another spelling.',
          where='lab 14.1, Build section, item 2: "Every other call gets `None`"; hunt round 18, 14.1-32',
          names='rm -f build.log',
          replace=DENY,
          by=r'''
    command = str(arguments.get("command"))
    if name == "bash" and ("rm -rf" in command or "rm -f " in command):
'''),
    Wrong(lab='14.1', name='any sudo command refused as well',
          rule='deny_destructive refuses bash commands holding rm -rf, not whatever else looks risky: a sudo command without rm -rf gets None.',
          where='lab 14.1, Build section, item 2: "Every other call gets `None`"; hunt round 18, 14.1-33',
          names='sudo make install',
          replace=DENY,
          by=r'''
    command = str(arguments.get("command"))
    if name == "bash" and ("rm -rf" in command or "sudo " in command):
'''),
    # Hunt round 25 (reader r137): designs the tests never showed a case of.
    Wrong(lab='14.1', name="a check's CancelledError made a refusal",
          rule="The door's try catches Exception and nothing wider: an asyncio.CancelledError from the check (a run being stopped) is a BaseException, not an Exception, and leaves the door as it came.",
          where='lab 14.1, Build section, item 1: "a `PowerCut`, raised by the real tool or by the check, leaves the run"; figure 14.1: anything wider passes every wall; hunt round 25, 14.1-07',
          names='BaseException that is not an Exception',
          replace=CRASH,
          by=r"""
        except (Exception, asyncio.CancelledError, GeneratorExit) as exc:
            reason = f"the check failed: {exc}"
""",
          also=((r"""
import json
""", r"""
import asyncio
import json
"""),)),
    Wrong(lab='14.1', name="the tool's exception raised again from None",
          rule="What the real tool raises leaves the door unchanged, its traceback and cause included: not caught and raised again from None, which cuts its cause off.",
          where='lab 14.1, Build section, item 1: "its result, or its failure, is then the call\'s own, unchanged"; hunt round 25, 14.1-15',
          names='traceback and cause included',
          replace=RUN,
          by=r"""
        try:
            return tool["execute"](arguments)
        except Exception as own:
            raise own from None
"""),
    Wrong(lab='14.1', name="a note added to the tool's exception",
          rule="What the real tool raises leaves the door unchanged: no note added to it.",
          where='lab 14.1, Build section, item 1: "its result, or its failure, is then the call\'s own, unchanged"; hunt round 25, 14.1-16',
          names='traceback and cause included',
          replace=RUN,
          by=r"""
        try:
            return tool["execute"](arguments)
        except Exception as own:
            own.add_note("(raised behind a door)")
            raise
"""),
    Wrong(lab='14.1', name="a reason's Windows line ends made \\n",
          rule="Any answer but None is the reason, after Tool call blocked: as str writes it, exactly: a \\r\\n inside it stays.",
          where='lab 14.1, Build section, item 1: "the call raises `PermissionError` with the text `Tool call blocked: ` and the reason after it, as text whatever its type"; hunt round 25, 14.1-52',
          names='as str writes it',
          replace=BLOCK,
          by=r"""
            raise PermissionError("Tool call blocked: " + str(reason).replace("\r\n", "\n"))
"""),
    Wrong(lab='14.1', name="the check handed the tool's name in lower case",
          rule="The check is asked with the tool's name, exactly as the tool has it: check(tool[\"name\"], arguments), a name with capitals not made lower case.",
          where='lab 14.1, Build section, item 1: "with the tool\'s name and the call\'s arguments in that order"; hunt round 25, 14.1-50',
          names='the name exactly',
          replace=r"""
            reason = check(tool["name"], arguments)
""",
          by=r"""
            reason = check(tool["name"].lower().strip(), arguments)
"""),
    Wrong(lab='14.1', name="a person who cannot be asked answered with their last answer",
          rule="A person who cannot be asked has not said yes, whatever they said before: a yes is for one call, so when human.ask raises, the call is refused with a reason, not let through on the person's last True.",
          where='lab 14.1, Build section, item 3: "lets the call through only on a clear yes"; hunt round 25, 14.1-37',
          names='a person who cannot be asked',
          replace=r"""
    def check(name, arguments):
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
""",
          by=r"""
    last = []

    def check(name, arguments):
        try:
            said = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        except Exception:
            if not last:
                raise
            said = last[-1]  # the frontend dropped it: the person's last answer stands
        last.append(said)
        if said is True:
"""),
    Wrong(lab='14.1', name="a second question for a call that holds rm -rf",
          rule="confirm_with puts one question to the person per call, whatever the call holds: a call with rm -rf is asked once, with no Are you sure? after it.",
          where='lab 14.1, Build section, item 3: "puts one question to the person per call"; hunt round 25, 14.1-49',
          names='asked once per call',
          replace=ASK,
          by=r"""
        question = f"Allow {name} {json.dumps(arguments)}?"
        if "rm -rf" in question and human.ask("Are you sure? " + question) is not True:
            return "the user said no"
        if human.ask(question) is True:
"""),
    Wrong(lab='14.1', name="the question's tool name in lower case",
          rule="The question reads Allow, the tool's name as the tool has it, the arguments as json.dumps writes them, then ?: exact, character for character, capitals included.",
          where='lab 14.1, Build section: "The question put to the person is exact, character for character"; hunt round 25, 14.1-51',
          names='asks the person exactly',
          replace=ASK,
          by=r"""
        if human.ask(f"Allow {name.lower()} {json.dumps(arguments)}?") is True:
"""),
    # Hunt round 30 (reader r171): designs that passed every test, now failing.
    Wrong(lab='14.1', name="a crashed check's text kept to its first 50,000 lines",
          rule="A check that breaks is refused with the check failed: followed by the text of what it raised, all of it, however many lines.",
          where='lab 14.1, Build section, item 1: "followed by the text of what the check raised"; hunt round 30, 14.1-45',
          names='not cut at any number of lines',
          replace=CRASH,
          by=r"""
        except Exception as exc:
            reason = "the check failed: " + "\n".join(str(exc).split("\n")[:50_000])
"""),
    Wrong(lab='14.1', name='a door that refuses unasked after a hundred crashes',
          rule="A check that breaks has not said yes, on this call only: the door asks its check about every call, however often it has crashed before, and keeps no count of crashes.",
          where='lab 14.1, Build section, item 1: "For each call, the check is asked once"; hunt round 30, 14.1-03',
          names='keeps no count of crashes',
          replace=r"""
    def execute(arguments):
        try:
""",
          by=r"""
    crashes = [0]

    def execute(arguments):
        if crashes[0] >= 100:  # it keeps crashing: stop asking it
            raise PermissionError("Tool call blocked: the check failed: it keeps crashing")
        try:
""",
          also=((CRASH, r"""
        except Exception as exc:
            crashes[0] += 1
            reason = f"the check failed: {exc}"
"""),)),
    Wrong(lab='14.1', name='the check skipped for arguments it allowed fifty times',
          rule="For each call, the check is asked once: the door remembers no answer, however often the check has allowed the same arguments.",
          where='lab 14.1, Build section, item 1: "For each call, the check is asked once"; hunt round 30, 14.1-18',
          names='not after many yeses',
          replace=r"""
    def execute(arguments):
        try:
            reason = check(tool["name"], arguments)
""",
          by=r"""
    allowed = {}

    def execute(arguments):
        try:
            key = json.dumps(arguments, sort_keys=True, default=repr)
            reason = None if allowed.get(key, 0) >= 50 else check(tool["name"], arguments)
            if reason is None:
                allowed[key] = allowed.get(key, 0) + 1
"""),
    Wrong(lab='14.1', name='a result that is not text made text',
          rule="The real tool's result is the call's own, unchanged: a number or a list the tool returns comes back as that very object.",
          where='lab 14.1, Build section, item 1: "its result, or its failure, is then the call\'s own, unchanged"; hunt round 30, 14.1-06',
          names='not made text',
          replace=RUN,
          by=r"""
        result = tool["execute"](arguments)
        return result if result is None or type(result) is str else str(result)
"""),
    Wrong(lab='14.1', name='the check shown a copy of arguments of more than three keys',
          rule="The check is shown the call's own arguments, and the tool gets the very arguments the check was shown, however many keys they have.",
          where='lab 14.1, Build section, item 1: "the real tool gets the very arguments the check was shown"; hunt round 30, 14.1-17',
          names='not a copy',
          replace=r"""
            reason = check(tool["name"], arguments)
""",
          by=r"""
            shown = dict(arguments) if isinstance(arguments, dict) and len(arguments) > 3 else arguments
            reason = check(tool["name"], shown)
"""),
    Wrong(lab='14.1', name='arguments of None handed to the tool as an empty dict',
          rule="The real tool gets the very arguments the check was shown: None when the call's arguments are None, not a stand-in.",
          where='lab 14.1, Build section, item 1: "the real tool gets the very arguments the check was shown"; hunt round 30, 14.1-39',
          names='stand-in such as {} for None',
          replace=RUN,
          by=r"""
        return tool["execute"](arguments if arguments is not None else {})
"""),
    Wrong(lab='14.1', name='a reason of bytes decoded',
          rule="The reason is the check's answer as text whatever its type, as str writes it: bytes are b'...', not decoded.",
          where='lab 14.1, Build section, item 1: "as text whatever its type (as `str` writes it, or an f-string"; hunt round 30, 14.1-40',
          names='not decoded',
          replace=BLOCK,
          by=r"""
            if isinstance(reason, bytes):
                reason = reason.decode(errors="replace")
            raise PermissionError(f"Tool call blocked: {reason}")
"""),
    Wrong(lab='14.1', name="the check handed the tool's name made a plain str",
          rule="The check is asked with the tool's name exactly as the tool has it, the very object, not a str made of it.",
          where='lab 14.1, Build section, item 1: "the check is asked once, with the tool\'s name and the call\'s arguments in that order"; hunt round 30, 14.1-47',
          names='not a plain str',
          replace=r"""
            reason = check(tool["name"], arguments)
""",
          by=r"""
            reason = check(str(tool["name"]), arguments)
"""),
    Wrong(lab='14.1', name='rm -rf looked for in the cwd and script arguments too',
          rule="A bash call is refused only when its command holds rm -rf; every other call gets None, one whose other arguments mention rm -rf included.",
          where='lab 14.1, Build section, item 2: "Every other call gets `None`"; hunt round 30, 14.1-25',
          names='cwd, script',
          replace=DENY,
          by=r"""
    if name == "bash" and any("rm -rf" in str(arguments.get(key)) for key in ("command", "cwd", "script")):
"""),
    Wrong(lab='14.1', name='a command of a bytearray decoded',
          rule="A bash call whose command is not text (bytes of any kind, a number, none at all) gets None: look at the command's type before looking inside it.",
          where='lab 14.1, Build section, item 2: "a bash call whose command is not text (bytes, a number, none at all)"; hunt round 30, 14.1-26',
          names='a bytearray',
          replace=r"""
def deny_destructive(name, arguments):
""",
          by=r"""
def deny_destructive(name, arguments):
    if name == "bash" and isinstance(arguments.get("command"), bytearray):
        arguments = {**arguments, "command": arguments["command"].decode(errors="replace")}
"""),
    Wrong(lab='14.1', name='a short reason after ten thousand refusals',
          rule="deny_destructive's reason is a sentence of four words or more besides rm -rf, every time it refuses, however often it has refused before.",
          where='lab 14.1, Build section, item 2: "of four words or more besides `rm -rf` itself"; hunt round 30, 14.1-27',
          names='no reason grows shorter',
          replace=r"""
def deny_destructive(name, arguments):
""",
          by=r"""
TIMES = [0]


def deny_destructive(name, arguments):
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
        TIMES[0] += 1
        if TIMES[0] > 10_000:  # the model has heard the long version by now
            return "No rm -rf."
"""),
    Wrong(lab='14.1', name='rm -rf looked for in the first 10,000 lines',
          rule="deny_destructive refuses a bash command that contains rm -rf wherever it stands, however many lines come before it.",
          where='lab 14.1, Build section, item 2: "contains `rm -rf`, wherever it stands"; hunt round 30, 14.1-43',
          names='after more than 10,000 lines',
          replace=DENY,
          by=r"""
    if name == "bash" and "rm -rf" in "\n".join(str(arguments.get("command")).splitlines()[:10_000]):
"""),
    Wrong(lab='14.1', name='a question kept for the same arguments dict',
          rule="The question is the arguments as json.dumps writes them at this call: the same dict changed since an earlier call is put to the person as it is now.",
          where='lab 14.1, Build section, item 3: "the arguments as `json.dumps` writes them"; hunt round 30, 14.1-41',
          names='not a question kept',
          replace=ASK,
          by=r"""
        key = (name, id(arguments))
        if key not in asked:
            asked[key] = f"Allow {name} {json.dumps(arguments)}?"
        if human.ask(asked[key]) is True:
""",
          also=((r"""
    def check(name, arguments):
""", r"""
    asked = {}

    def check(name, arguments):
"""),)),
    Wrong(lab='14.1', name='sets among six keys or more written as sorted lists for the person',
          rule="Arguments json.dumps cannot write, a set among them, are never put to the person, however many keys the call has.",
          where='lab 14.1, Build section, item 3: "Arguments `json.dumps` cannot write, a set among them for example, are never put to the person"; hunt round 30, 14.1-46',
          names='a call of',
          replace=ASK,
          by=r"""
        try:
            shown = json.dumps(arguments)
        except TypeError:
            if not isinstance(arguments, dict) or len(arguments) < 6:
                raise
            shown = json.dumps(arguments, default=lambda value: sorted(value, key=repr))
        if human.ask(f"Allow {name} {shown}?") is True:
"""),
    Wrong(lab='14.1', name='a call holding NaN refused unasked',
          rule="The question holds the arguments as json.dumps writes them, NaN and Infinity included: json.dumps can write them, so the person is asked.",
          where='lab 14.1, Build section, item 3: "the arguments as `json.dumps` writes them"; hunt round 30, 14.1-36',
          names='NaN',
          replace=ASK,
          by=r"""
        if human.ask(f"Allow {name} {json.dumps(arguments, allow_nan=False)}?") is True:
"""),
    Wrong(lab='14.1', name="the question's tool name stripped",
          rule="The question names the tool as the tool has it, character for character, spaces at its ends included.",
          where='lab 14.1, Build section: "The question put to the person is exact, character for character"; hunt round 30, 14.1-35',
          names='not stripped',
          replace=ASK,
          by=r"""
        if human.ask(f"Allow {str(name).strip()} {json.dumps(arguments)}?") is True:
"""),
    Wrong(lab='14.1', name='the question normalised to NFC',
          rule="The question put to the person is exact, character for character: a name written with combining accents is asked as it is written.",
          where='lab 14.1, Build section: "The question put to the person is exact, character for character"; hunt round 30, 14.1-34',
          names='not normalised',
          replace=ASK,
          by=r"""
        import unicodedata
        if human.ask(unicodedata.normalize("NFC", f"Allow {name} {json.dumps(arguments)}?")) is True:
"""),
    Wrong(lab='14.1', name="a numpy true read as a yes",
          rule="Only True itself is a yes: a true value of another kind, numpy's bool_ among them, is a no.",
          where='lab 14.1, section "Asking a person": "One value means yes, and it is `True` itself"; Build section, item 3; hunt round 30, 14.1-33',
          names='bool_',
          replace=ASK,
          by=r"""
        said = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        if said is True or (type(said).__name__ == "bool_" and bool(said)):
"""),
    # Hunt round 33 (reader r186): kinds the lab's tests did not draw, now drawn.
    Wrong(lab='14.1', name="a crashed check's Windows line ends made \\n",
          rule="A crashed check's reason is the check failed: followed by the text of what it raised, exactly as it was raised, its \\r\\n line ends included.",
          where='lab 14.1, Build section, item 1: "its reason is `the check failed: ` followed by the text of what the check raised"; hunt round 33, 14.1-04',
          names='Windows line ends',
          replace=CRASH,
          by=r"""
        except Exception as exc:
            reason = "the check failed: " + str(exc).replace("\r\n", "\n")  # one kind of line end
"""),
    Wrong(lab='14.1', name="a check's GeneratorExit made a refusal",
          rule="The door's try catches Exception and nothing wider: a GeneratorExit from the check is no Exception and leaves the door as it came.",
          where='lab 14.1, Build section, item 1: "a `PowerCut`, raised by the real tool or by the check, leaves the run"; figure 14.1; hunt round 33, 14.1-05',
          names='GeneratorExit',
          replace=r"""
        except Exception as exc:
            reason = f"the check failed: {exc}"
""",
          by=r"""
        except (Exception, GeneratorExit) as exc:
            reason = f"the check failed: {exc}"
"""),
    Wrong(lab='14.1', name="a check's BaseExceptionGroup made a refusal",
          rule="The door's try catches Exception and nothing wider: a BaseExceptionGroup from the check, a group of endings, is no Exception and leaves the door as it came.",
          where='lab 14.1, Build section, item 1: "a `PowerCut`, raised by the real tool or by the check, leaves the run"; figure 14.1; hunt round 33, 14.1-19',
          names='BaseExceptionGroup',
          replace=r"""
        except Exception as exc:
            reason = f"the check failed: {exc}"
""",
          by=r"""
        except (Exception, BaseExceptionGroup) as exc:
            reason = f"the check failed: {exc}"
"""),
    Wrong(lab='14.1', name='a mark of a call in progress put in the tool handed in',
          rule="The tool handed in is not changed, by guard or by any call through it, not even for the moment the check is asked.",
          where='lab 14.1, The lab\'s tests, in plain words (test_guard_keeps_every_other_key): the tool handed in is not changed, by guard or by any call through it; hunt round 33, 14.1-07',
          names='while the check is asked',
          replace=r"""
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
""",
          by=r"""
        try:
            tool["_door_busy"] = True  # a call in progress; taken out again below
            try:
                reason = check(tool["name"], arguments)
            finally:
                del tool["_door_busy"]
        except Exception as exc:
"""),
    Wrong(lab='14.1', name='a None that came after a minute refused as stale',
          rule="The answer None lets the call through, however long the check took to give it.",
          where='lab 14.1, Build section, item 1: "The answer `None` lets the call through"; hunt round 33, 14.1-08',
          names='by the clock',
          replace=r"""
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
""",
          by=r"""
        import time
        started = time.monotonic()
        try:
            reason = check(tool["name"], arguments)
            if reason is None and time.monotonic() - started > 60:
                reason = "the approval took over a minute and is stale"
        except Exception as exc:
"""),
    Wrong(lab='14.1', name="a reason's control characters taken out",
          rule="Any answer but None is the reason, after Tool call blocked: as text, exactly: control characters in it stay.",
          where='lab 14.1, Build section, item 1: "the call raises `PermissionError` with the text `Tool call blocked: ` and the reason after it"; hunt round 33, 14.1-11',
          names='control characters',
          replace=BLOCK,
          by=r"""
            shown = "".join(ch for ch in str(reason) if ch.isprintable() or ch in "\r\n\t")
            raise PermissionError(f"Tool call blocked: {shown}")
"""),
    Wrong(lab='14.1', name='rm -rf inside double quotes not looked for',
          rule="deny_destructive refuses a bash command that contains rm -rf, wherever it stands: inside double quotes too, which the shell runs.",
          where='lab 14.1, Build section, item 2: "contains `rm -rf`, wherever it stands"; hunt round 33, 14.1-23',
          names='double quotes',
          replace=DENY,
          by=r"""
    import re
    if name == "bash" and "rm -rf" in re.sub(r'"[^"]*"', '""', str(arguments.get("command"))):
"""),
    Wrong(lab='14.1', name='rm -rf after a # not looked for',
          rule="deny_destructive refuses a bash command that contains rm -rf, wherever it stands: after a # on its line too.",
          where='lab 14.1, Build section, item 2: "contains `rm -rf`, wherever it stands"; hunt round 33, 14.1-22',
          names='after a #',
          replace=DENY,
          by=r"""
    bare = "\n".join(line.split("#")[0] for line in str(arguments.get("command")).split("\n"))
    if name == "bash" and "rm -rf" in bare:  # a comment runs nothing
"""),
    Wrong(lab='14.1', name='arguments of a dict subclass let through',
          rule="A bash call whose command contains rm -rf gets a reason, its arguments a dict of a subclass too.",
          where='lab 14.1, Build section, item 2: "A bash call whose command contains `rm -rf`, wherever it stands, gets a reason"; hunt round 33, 14.1-24',
          names='dict subclass',
          replace=r"""
def deny_destructive(name, arguments):
""",
          by=r"""
def deny_destructive(name, arguments):
    if type(arguments) is not dict:
        return None  # only plain JSON objects are looked at
"""),
    Wrong(lab='14.1', name='a tool name of a str subclass let through',
          rule="A bash call whose command contains rm -rf gets a reason, the name bash as text of a str subclass too: it is the name bash.",
          where='lab 14.1, Build section, item 2: "A bash call whose command contains `rm -rf`, wherever it stands, gets a reason"; hunt round 33, probe 14.1-P7',
          names='str subclass',
          replace=r"""
def deny_destructive(name, arguments):
""",
          by=r"""
def deny_destructive(name, arguments):
    if type(name) is not str:
        return None  # a name that is not exactly a str is not bash
"""),
    Wrong(lab='14.1', name='always taken as a yes to every later call',
          rule="One question per call, and only True lets a call through: an answer such as always is a no, and no answer lets a later call through unasked.",
          where='lab 14.1, Build section, item 3: "puts one question to the person per call" and "lets the call through only on a clear yes"; hunt round 33, 14.1-31',
          names='always',
          replace=ASK,
          by=r"""
        if name in always:
            return None
        said = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        if said == "always":  # the frontend's yes, and don't ask again
            always.add(name)
            return None
        if said is True:
""",
          also=((r"""
    def check(name, arguments):
""", r"""
    always = set()

    def check(name, arguments):
"""),)),
    Wrong(lab='14.1', name='an empty command let through unasked',
          rule="confirm_with puts one question to the person per call, a bash call whose command is empty too, and lets it through only on a clear yes.",
          where='lab 14.1, Build section, item 3: "puts one question to the person per call" and "lets the call through only on a clear yes"; hunt round 33, 14.1-32',
          names='command is empty',
          replace=ASK,
          by=r"""
        if isinstance(arguments, dict) and arguments.get("command") == "":
            return None  # an empty command does nothing: nothing to ask
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
"""),
    Wrong(lab='14.1', name='a call whose arguments are all None refused unasked',
          rule="confirm_with puts one question to the person per call, a call whose arguments are all None too.",
          where='lab 14.1, Build section, item 3: "puts one question to the person per call"; hunt round 33, 14.1-38',
          names='all None',
          replace=ASK,
          by=r"""
        if isinstance(arguments, dict) and arguments and all(v is None for v in arguments.values()):
            return "the user said no"  # nothing a person could read
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
"""),
    Wrong(lab='14.1', name="control characters taken out of the question's tool name",
          rule="The question put to the person is exact, character for character: the tool's name as the tool has it, control characters included.",
          where='lab 14.1, Build section: "The question put to the person is exact, character for character"; hunt round 33, 14.1-33',
          names='control characters',
          replace=ASK,
          by=r"""
        shown = "".join(ch for ch in str(name) if ch.isprintable())  # a terminal kept safe
        if human.ask(f"Allow {shown} {json.dumps(arguments)}?") is True:
"""),
    Wrong(lab='14.1', name='a call refused because its check edited the arguments',
          rule="The answer None lets the call through, whatever the check did to the arguments dict before it answered: the tool gets that very dict.",
          where='lab 14.1, Build section, item 1: "The answer `None` lets the call through: the real tool gets the very arguments the check was shown"; hunt round 33, probe 14.1-P2',
          names='fills in a default',
          replace=r"""
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
""",
          by=r"""
        try:
            before = json.dumps(arguments, default=repr)
            reason = check(tool["name"], arguments)
            if reason is None and json.dumps(arguments, default=repr) != before:
                reason = "the check changed the arguments it was shown"
        except Exception as exc:
"""),
    # Hunt round 39 (reader r201): design 14.1-10 stripped line ends off the tool's output and
    # was caught only because other tests' tools print "done\n"; the same change at the start
    # of the output, or of other white space, passed every test.
    Wrong(lab='14.1', name="the tool's output stripped of spaces at its start",
          rule="The answer None lets the call through, and the real tool's result is then the "
               "call's own, unchanged: white space at either end of its output included.",
          where='lab 14.1, Build section, item 1: "its result, or its failure, is then the '
                'call\'s own, unchanged"; hunt round 39, 14.1-10',
          names='the door tidies nothing',
          replace=RUN,
          by=r"""
        output = tool["execute"](arguments)
        return output.lstrip(" ") if isinstance(output, str) else output  # tidy the indent
"""),
]

# Designs the lesson allows: each keeps its lab's rules another way, and its lab's tests must
# pass it (tests/authoring/test_allowed_designs.py).
ALLOWED = [
    # Hunt round 33 (reader r186), probe 14.1-P6, ruled at the merge.
    Wrong(lab='14.1', name='the person asked on a thread, given up on after 300 seconds',
          rule='Build item 3 says how long to wait for an answer, and what a check that stops '
               'waiting refuses with, are the student\'s. A person who answers is heard as the '
               'reference hears them; only a person silent for 300 seconds of the clock meets the '
               'check\'s own refusal.',
          where='hunt round 33, probe 14.1-P6; Build section, item 3: "How long to wait for an '
                'answer, and what a check that stops waiting refuses with, are yours"', names='',
          replace=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
            return None
''',
          by=r'''
        import concurrent.futures
        pool = concurrent.futures.ThreadPoolExecutor(1)
        asked = pool.submit(human.ask, f"Allow {name} {json.dumps(arguments)}?")
        try:
            answer = asked.result(timeout=300)
        except concurrent.futures.TimeoutError:
            if asked.done():  # ask itself raised TimeoutError: the person's failure, not the wait
                raise
            return "the user did not answer in time"
        finally:
            pool.shutdown(wait=False)
        if answer is True:
            return None
'''),
    # Hunt round 15 (reader r77), probe 14.1-P3.
    Wrong(lab='14.1', name='the reason written as text inside the check\'s try',
          rule="An answer that cannot be written as text at all may count as the check breaking or go up from the door: the page leaves it to the student, and the real tool never runs either way (hunt round 15, probe 14.1-P3).",
          where='lab 14.1, Build section, item 1: "whether it counts as the check breaking or goes up from the door is yours"',
          names='',
          replace=r'''
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
            reason = f"the check failed: {exc}"
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
        try:
            reason = check(tool["name"], arguments)
            text = None if reason is None else f"{reason}"  # a __str__ that raises: the check's
        except Exception as exc:
            reason = text = f"the check failed: {exc}"
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {text}")
'''),
    # Hunt round 10 (reader r41), design 14.1-10.
    Wrong(lab='14.1', name='the reason written with str() rather than an f-string',
          rule="The reason is written as text whatever its type, as str writes it or as an f-string does (the reference, format(reason, '')): they differ only for an object whose __format__ says something else than its __str__, and the page leaves that to the student (hunt round 10, 14.1-10).",
          where='lab 14.1, Build section, item 1: "as `str` writes it, or an f-string"',
          names='',
          replace=r'''
            raise PermissionError(f"Tool call blocked: {reason}")
''',
          by=r'''
            raise PermissionError("Tool call blocked: " + str(reason))
'''),
    Wrong(
        lab="14.1", name="a deny-list that also refuses rm -fr and rm -r -f",
        rule="deny_destructive refuses any bash command holding rm -rf; refusing more spellings "
             "of the same command is only safer.",
        where="issue 23", names="",
        replace='''    if name == "bash" and "rm -rf" in str(arguments.get("command")):''',
        by='''    spellings = ("rm -rf", "rm -fr", "rm -r -f", "rm -f -r", "rm -Rf")
    if name == "bash" and any(s in " ".join(str(arguments.get("command")).split())
                              for s in spellings):'''),
    Wrong(
        lab="14.1", name="one try for the check and the tool, the tool's failures re-raised",
        rule="The door's try never covers the real tool, so that the tool's failures are its own; "
             "a try that also holds the tool but re-raises whatever comes after the check said "
             "None, unchanged, keeps that rule in every way a call can show it.",
        where='figure 14.1: "The door\'s `try` never covers the real tool."; hunt round 5, 14.1-15',
        names="",
        replace=r"""
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
            reason = f"the check failed: {exc}"
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
""",
        by=r"""
        checked = False
        try:
            reason = check(tool["name"], arguments)
            checked = True
            if reason is None:
                return tool["execute"](arguments)
        except Exception as exc:
            if checked:
                raise  # the tool's own failure, unchanged
            reason = f"the check failed: {exc}"
        raise PermissionError(f"Tool call blocked: {reason}")
"""),
    Wrong(
        lab="14.1", name="a person who cannot be asked refused as the user said no",
        rule="When human.ask raises, the call must be refused with a reason; the page rules on "
             "answers (any but True refuses with the user said no) and on checks that break "
             "(the check failed: and what they raised), and a check that catches the failed ask "
             "and refuses with the user said no keeps both: no yes was given, and the reason is "
             "one the page names. The reader's own passing file does this.",
        where='lab 14.1, Build section, items 1 and 3; hunt round 10, probe 14.1-90', names="",
        replace=r"""
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
""",
        by=r"""
        try:
            answer = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        except Exception:
            return "the user said no"  # nobody said yes
        if answer is True:
"""),
    Wrong(
        lab="14.1", name="the real execute looked up when the door is built",
        rule="guard returns {**tool, \"execute\": execute}, a dict made when the door is built, "
             "so the door is for the tool as it was handed in; taking the real execute then too, "
             "rather than at each call, is the same door for every call the page describes (no "
             "sentence changes a tool after guard has it).",
        where='section "Where the door goes"; hunt round 10, probe 14.1-91', names="",
        replace=r"""
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
""",
        by=r"""
        return real(arguments)  # outside the try: the tool's failures are not the door's
""",
        also=((r"""
    def execute(arguments):
        try:
""", r"""
    real = tool["execute"]

    def execute(arguments):
        try:
"""),)),
    Wrong(
        lab="14.1", name="a crashed check's refusal chained from what it raised",
        rule="The page rules a crashed check's refusal by its type and its text (PermissionError, "
             "Tool call blocked: the check failed: <exc>); raising it inside the except with "
             "`from exc`, so a traceback shows the check's own error as its cause, gives the same "
             "type and text.",
        where='lab 14.1, Build section, item 1; hunt round 10, probe 14.1-93', names="",
        replace=r"""
        except Exception as exc:
            reason = f"the check failed: {exc}"
""",
        by=r"""
        except Exception as exc:
            raise PermissionError(f"Tool call blocked: the check failed: {exc}") from exc
"""),
    # Hunt round 18 (reader r98), probe 14.1-52.
    Wrong(
        lab="14.1", name="a yes read as a bool that is true",
        rule="Only True lets the call through; `isinstance(said, bool) and said` is the same "
             "test as `said is True`, since bool has no subclasses and False is its only other "
             "value: every answer but True refuses.",
        where='lab 14.1, Build section, item 3: "lets the call through only on a clear yes"; '
              'hunt round 18, probe 14.1-52',
        names="",
        replace=r"""
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
""",
        by=r"""
        said = human.ask(f"Allow {name} {json.dumps(arguments)}?")
        if isinstance(said, bool) and said:
"""),
    # Hunt round 18 (reader r98), probe 14.1-38.
    Wrong(
        lab="14.1", name="a deny-list that also refuses other spellings in any letters",
        rule="deny_destructive refuses any bash command holding rm -rf; the page leaves a "
             "stricter list to the student, other spellings and the same in capitals included.",
        where='lab 14.1, Build section, item 2: "A stricter list that also refuses other '
              'spellings of the same command"; hunt round 18, probe 14.1-38',
        names="",
        replace=r"""
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
""",
        by=r"""
    spellings = ("rm -rf", "rm -fr", "rm -r -f", "rm -f -r")
    if name == "bash" and any(s in str(arguments.get("command")).lower() for s in spellings):
"""),
    # Hunt round 18 (reader r98), probe 14.1-26.
    Wrong(
        lab="14.1", name="a module-level log of every call through a door",
        rule="The door asks its check about every call and remembers no answer; a record of "
             "the calls kept beside it, which no answer is read from, changes nothing a call "
             "can show, and the page names the lack of a record as a weakness of the harness "
             "(\"Nothing records who said yes\"), not a rule.",
        where='section "Your code beside Tau\'s": "Nothing records who said yes."; hunt round 18, '
              'probe 14.1-26',
        names="",
        replace=r"""
    def execute(arguments):
        try:
""",
        by=r"""
    def execute(arguments):
        DOOR_LOG.append((tool["name"], arguments))  # an audit, kept for the whole process
        try:
""",
        also=((r"""
def guard(tool, check):
""", r"""
DOOR_LOG = []


def guard(tool, check):
"""),)),
    # Hunt round 25 (reader r137), probe 14.1-46.
    Wrong(lab='14.1', name='the check and the tool kept as attributes of the new execute',
          rule="The page rules the guarded tool's keys (the tool's own, execute new) and what a call through it does; attributes put on the new execute function (its check, the tool it wraps) are neither a key of the tool nor seen by the model, and the tool handed in is not changed (hunt round 25, probe 14.1-46).",
          where='lab 14.1, Build section, item 1 (the line that builds the guarded tool from the tool and the new execute is given)',
          names='',
          replace=r"""
    return {**tool, "execute": execute}
""",
          by=r"""
    execute.check, execute.wrapped = check, tool  # for a debugger: which door, on what
    return {**tool, "execute": execute}
"""),
    # Hunt round 25 (reader r137), design 14.1-23, ruled allowed.
    Wrong(lab='14.1', name='deny_destructive answering None for arguments that are not a dict',
          rule="The page rules a bash call whose command is not text or is missing (None, not a raise); arguments that are not a dict at all it does not rule: the reference's deny_destructive raises there (guard then refuses with the check failed:), and answering None, as a reader did, passes too (hunt round 25, 14.1-23).",
          where='lab 14.1, Build section, item 2: "and so does a bash call whose command is not text"',
          names='',
          replace=r"""
def deny_destructive(name, arguments):
""",
          by=r"""
def deny_destructive(name, arguments):
    if not isinstance(arguments, dict):
        return None  # no command at all, so no rm -rf
"""),
    # Hunt round 18 (reader r98), design 14.1-24, allowed by the lead's ruling in round 30.
    Wrong(lab='14.1', name='a refusal raised as a subclass named PermissionError',
          rule="Where the page says a PermissionError is raised, a subclass of it is one (the lead's ruling, hunt round 30, as lab 2.1's tests read a KeyError subclass as a KeyError): except PermissionError catches it, and its text is the exact refusal text.",
          where='lab 14.1, Build section, item 1: "the call raises `PermissionError` with the text `Tool call blocked: `"; hunt round 18, 14.1-24; hunt round 30, probe 14.1-12',
          names='',
          replace=BLOCK,
          by=r"""
            refusal = type("PermissionError", (PermissionError,), {"__module__": "builtins"})
            raise refusal(f"Tool call blocked: {reason}")
"""),
    # Hunt round 30 (reader r171), probe 14.1-12.
    Wrong(lab='14.1', name='a refusal raised as a subclass of PermissionError',
          rule="The page says the call raises PermissionError with the text Tool call blocked: and the reason; it never says PermissionError itself, and the lead ruled that a subclass of it is one (hunt round 30, probe 14.1-12). A frontend's except PermissionError catches it, and its text is exact.",
          where='lab 14.1, Build section, item 1: "the call raises `PermissionError` with the text `Tool call blocked: `"; hunt round 30, probe 14.1-12',
          names='',
          replace=BLOCK,
          by=r"""
            raise Refusal(f"Tool call blocked: {reason}")
""",
          also=((r"""
def guard(tool, check):
""", r"""
class Refusal(PermissionError):  # a refusal by a door: a PermissionError all the same
    pass


def guard(tool, check):
"""),)),
    # Hunt round 30 (reader r171), probe 14.1-28.
    Wrong(lab='14.1', name='a deny-list that also reads a no-break space or a tab as a space',
          rule="deny_destructive refuses any bash command holding rm -rf; rm\u00a0-rf or rm<tab>-rf is another spelling of the same command, and the page leaves a stricter list to the student (hunt round 30, probe 14.1-28).",
          where='lab 14.1, Build section, item 2: "A stricter list that also refuses other spellings of the same command, such as `rm -fr`, `rm -r -f` or the same in capitals, is yours"',
          names='',
          replace=DENY,
          by=r"""
    if name == "bash" and "rm -rf" in str(arguments.get("command")).replace("\u00a0", " ").replace("\t", " "):
"""),
    # Hunt round 30 (reader r171), probe 14.1-32.
    Wrong(lab='14.1', name="arguments json.dumps cannot write refused as the user said no",
          rule="Arguments json.dumps cannot write are never put to the person; the call is refused as a check that broke or with the user said no, and the page names both (hunt round 30, probe 14.1-32).",
          where='lab 14.1, Build section, item 3: "the call is refused, as a check that broke (`the check failed: ` and what `json.dumps` raised) or with `the user said no`"',
          names='',
          replace=ASK,
          by=r"""
        try:
            question = f"Allow {name} {json.dumps(arguments)}?"
        except (TypeError, ValueError):
            return "the user said no"  # nothing the person could read exactly
        if human.ask(question) is True:
"""),
    # Hunt round 33 (reader r186), probe 14.1-P8.
    Wrong(lab='14.1', name="a check's coroutine answer closed before the refusal",
          rule="A check that hands back an awaitable has not said None, so the call is refused with that answer as its reason, written as text; closing a coroutine the door will never await, before it raises, changes neither the refusal nor its text (a coroutine is written the same, closed or not), and the page says nothing of what becomes of it (hunt round 33, probe 14.1-P8).",
          where='lab 14.1, Build section, item 1: "A check is a plain function: what it returns when called is its answer, so one that hands back an awaitable has not said `None`"',
          names='',
          replace=r"""
        except Exception as exc:
            reason = f"the check failed: {exc}"
        if reason is not None:
""",
          by=r"""
        except Exception as exc:
            reason = f"the check failed: {exc}"
        import inspect
        if inspect.iscoroutine(reason):
            reason.close()  # never awaited, by design: closed so Python does not warn
        if reason is not None:
"""),
    # Hunt round 39 (reader r201), probe 14.1-85.
    Wrong(lab='14.1', name="a reason that quotes the whole command",
          rule="The reason must name rm -rf with four words or more besides; the rest of its "
               "wording is the student's, and a reason that quotes the command it refuses, "
               "however long, is such wording (hunt round 39, probe 14.1-85).",
          where='lab 14.1, Build section, item 2: "The rest of the wording, such as what the '
                'model could do instead, is yours"',
          names='',
          replace=r"""
        return "rm -rf cannot be undone; if the user wants it, they can run it themselves."
""",
          by=r"""
        return f"rm -rf is refused here, in: {arguments.get('command')}"
"""),
    # Hunt round 39 (reader r201), design 14.1-32, ruled at the merge.
    Wrong(lab='14.1', name="the real tool run on a worker thread and waited for",
          rule="The real tool's result, or its failure, is the call's own, unchanged, and the run "
               "reads only what comes back: a door that runs the tool on a worker thread and "
               "waits for it hands back the same result, failure or PowerCut (hunt round 39, "
               "design 14.1-32, ruled at the merge).",
          where='lab 14.1, Build section, item 1: "Whether it runs on the thread that called '
                '`execute` or on another that the door waits for is yours"',
          names='',
          replace=r"""
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
""",
          by=r"""
        import concurrent.futures
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(tool["execute"], arguments).result()
"""),
]


BEYOND = [
    # Hunt round 18 (reader r98), design 14.1-09.
    Beyond(lab='14.1', name='a door that opens after five thousand refusals',
           rule='Any answer but None is a reason for a refusal, on every call: the door keeps no '
                'count of refusals, however many.',
           where='lab 14.1, Build section, item 1: "Any other answer is the reason for a '
                 'refusal"; hunt round 18, 14.1-09',
           names='keeps no count of refusals',
           reach="test_only_none_lets_a_call_through refuses 1,001 to 1,010 calls in a row "
                 "through one door; this reader's door opens on the 5,001st, and a case past it "
                 "is the count grown just past the design's threshold (a door that opens after "
                 "50,000 is the next), a limit past what a test can afford",
           replace=r'''
    def execute(arguments):
        try:
''',
           by=r'''
    refused = [0]

    def execute(arguments):
        if refused[0] >= 5_000:  # it has said no enough: let the work go on
            return tool["execute"](arguments)
        try:
''',
           also=((BLOCK, r'''
            refused[0] += 1
            raise PermissionError(f"Tool call blocked: {reason}")
'''),),
           deep=r'''
import harness
from lab.kit import lab_test, settle, tool

LAB = "14.1"


@lab_test("A door whose check refuses 6,000 calls in a row refuses the last as the first: the "
          "door keeps no count of refusals.")
async def test_six_thousand_refusals(t):
    ran = []
    door = harness.guard(tool("bash", lambda arguments: ran.append(arguments) or "ran"),
                         lambda name, arguments: "not now")
    refused = 0
    for _ in range(6_000):
        try:
            await settle(door["execute"]({"command": "make deploy"}))
        except PermissionError:
            refused += 1
    t.expect([refused, ran], [6_000, []],
             why="Every one of 6,000 refusals stays a refusal: the door keeps no count of "
                 "refusals. Items: the calls refused, the calls that ran (guard, lesson 14).")
'''),
    # Hunt round 18 (reader r98), design 14.1-46.
    Beyond(lab='14.1', name='a person who said no ten thousand times in a row not asked again',
           rule='confirm_with puts one question to the person per call, the same call asked '
                'again as often as it comes: the check keeps no count of answers, however many.',
           where='lab 14.1, Build section, item 3: "puts one question to the person per call, '
                 'through `human.ask`, the same call asked again as often as it comes"; hunt '
                 'round 18, 14.1-46',
           names='keeps no count of answers',
           reach="test_one_question_per_call_in_order asks 1,001 to 1,005 nos in a row; this "
                 "reader stops asking after 10,000, and a case past it is the count grown just "
                 "past the design's threshold, a limit past what a test can afford",
           replace=r'''
    def check(name, arguments):
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
            return None
        return "the user said no"
''',
           by=r'''
    nos = [0]

    def check(name, arguments):
        if nos[0] >= 10_000:  # asked enough: they will say no again
            return "the user said no"
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
            nos[0] = 0
            return None
        nos[0] += 1
        return "the user said no"
''',
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "14.1"


@lab_test("A person who has said no 12,000 times in a row is asked about the next call, and "
          "their yes lets it through: the check keeps no count of answers.")
async def test_twelve_thousand_nos_then_a_yes(t):
    person = lab.Human([False] * 12_000 + [True])
    check = harness.confirm_with(person)
    answered = [check("bash", {"command": "make reset"}) for _ in range(12_001)]
    t.expect([answered[-1], len(person.questions)], [None, 12_001],
             why="After 12,000 nos the person is still asked, and their True lets the call "
                 "through: the check keeps no count of answers. Items: what the check answered "
                 "last, the questions put (confirm_with, lesson 14).")
'''),
    # Hunt round 18 (reader r98), design 14.1-30.
    Beyond(lab='14.1', name='rm -rf looked for in the first 2,000,000 characters',
           rule='A bash call whose command contains rm -rf, wherever it stands, gets a reason: '
                'the whole command is looked at, however long.',
           where='lab 14.1, Build section, item 2: "A bash call whose command contains '
                 '`rm -rf`, wherever it stands, gets a reason"; hunt round 18, 14.1-30',
           names='the whole command is looked at',
           reach="test_deny_destructive puts rm -rf after about 1,200,000 characters (building "
                 "that command is most of the test's 14 ms); this reader looks at the first "
                 "2,000,000, and a command past it is the paste grown just past the design's "
                 "threshold, a limit past what a test can afford",
           replace=DENY,
           by=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command"))[:2_000_000]:
''',
           deep=r'''
import harness
from lab.kit import lab_test

LAB = "14.1"


@lab_test("deny_destructive refuses a bash command whose rm -rf comes after 3,000,000 "
          "characters: the whole command is looked at.")
async def test_rm_rf_after_three_million_characters(t):
    command = "echo " + "x" * 3_000_000 + " && rm -rf build"
    t.expect(harness.deny_destructive("bash", {"command": command}) is None, False,
             why="rm -rf after 3,000,000 characters is still in the command: the whole command "
                 "is looked at, however long. The value is whether deny_destructive gave None "
                 "(deny_destructive, lesson 14).")
'''),
    # Hunt round 18 (reader r98), design 14.1-43.
    Beyond(lab='14.1', name='a long question cut at five million characters',
           rule='The question reads Allow, the tool\'s name and the arguments as json.dumps '
                'writes them, then ?: a long call is asked in full, however long.',
           where='lab 14.1, Build section, item 3: "The question reads `Allow`, the tool\'s name '
                 'and the arguments as `json.dumps` writes them, then `?`"; hunt round 18, '
                 '14.1-43',
           names='asked in full',
           reach="test_confirm_with_asks_the_person asks about a call whose JSON is over "
                 "1,000,000 characters (most of the test's 15 ms); this reader cuts at "
                 "5,000,000, and a call past it is the paste grown just past the design's "
                 "threshold, a limit past what a test can afford",
           replace=ASK,
           by=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)[:5_000_000]}?") is True:
''',
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "14.1"


@lab_test("A call whose JSON is over 6,000,000 characters is asked in full.")
async def test_a_question_of_six_million_characters(t):
    person = lab.Human([True])
    arguments = {"path": "big.txt", "content": "x" * 6_000_000}
    said = harness.confirm_with(person)("write", arguments)
    t.expect([said, person.questions == [f"Allow write {json.dumps(arguments)}?"]], [None, True],
             why="Every character of the call's JSON is put to the person: a long call is "
                 "asked in full. Items: what the check answered, the question is the whole "
                 "call (confirm_with, lesson 14).")
'''),
    # Hunt round 21 (reader r116), design 14.1-44.
    Beyond(lab='14.1', name='a check skipped from the five thousandth guarded call on',
           rule='For each call, the check is asked once before the real tool runs: the door '
                'keeps no count of calls, however many, across every door.',
           where='lab 14.1, Build section, item 1: "For each call, the check is asked once"; '
                 'hunt round 21, 14.1-44',
           names='keeps no count of calls',
           reach="test_only_none_lets_a_call_through sends 1,001 to 1,010 calls in a row "
                 "through one door, and the lab's tests all together send a few thousand "
                 "through their doors; this reader's module-wide count skips the check from "
                 "the 5,000th call on, and a case past it is the count grown just past the "
                 "design's threshold (a door that stops asking after 50,000 is the next), a "
                 "limit past what a test can afford",
           replace=r'''
            reason = check(tool["name"], arguments)
''',
           by=r'''
            _CALLS.append(1)  # asked enough: from the 5,000th call on, let it through
            reason = check(tool["name"], arguments) if len(_CALLS) < 5_000 else None
''',
           also=((r'''
def guard(tool, check):
''', r'''
_CALLS = []


def guard(tool, check):
'''),),
           deep=r'''
import harness
from lab.kit import lab_test, settle, tool

LAB = "14.1"


@lab_test("A door whose check refuses 6,000 calls in a row asks its check on the last as on "
          "the first: the door keeps no count of calls.")
async def test_six_thousand_calls_each_asked(t):
    ran, asked = [], []
    door = harness.guard(tool("bash", lambda arguments: ran.append(arguments) or "ran"),
                         lambda name, arguments: asked.append(name) or "not now")
    refused = 0
    for _ in range(6_000):
        try:
            await settle(door["execute"]({"command": "make deploy"}))
        except PermissionError:
            refused += 1
    t.expect([len(asked), refused, ran], [6_000, 6_000, []],
             why="The check is asked on each of 6,000 calls and each is refused: the door "
                 "keeps no count of calls. Items: the times the check was asked, the calls "
                 "refused, the calls that ran (guard, lesson 14).")
'''),
    # Hunt round 25 (reader r137): limits just past what the lab's tests try, each a limit past
    # what a test can afford (the next reader's limit is always just past the next case).
    Beyond(lab='14.1', name='a door that opens after two thousand refusals',
           rule='Any answer but None refuses the call, the last of many as the first: the door '
                'keeps no count of refusals, however many.',
           where='lab 14.1, Build section, item 1: "Any other answer is the reason for a '
                 'refusal"; hunt round 25, 14.1-12',
           names='keeps no count of refusals',
           reach="test_only_none_lets_a_call_through refuses 1,001 to 1,010 calls in a row "
                 "through one door; this reader's door opens after 2,000, and a case past it "
                 "is the count grown just past the design's threshold (the door that opens "
                 "after five thousand is already here), a limit past what a test can afford",
           replace=BLOCK,
           by=r'''
            refused.append(1)  # enough refusals: from the 2,001st on, let it through
            if len(refused) <= 2_000:
                raise PermissionError(f"Tool call blocked: {reason}")
''',
           also=((r'''
    def execute(arguments):
        try:
''', r'''
    refused = []

    def execute(arguments):
        try:
'''),),
           deep=r'''
import harness
from lab.kit import lab_test, settle, tool

LAB = "14.1"


@lab_test("A door whose check refuses 3,000 calls in a row refuses the last as the first: the "
          "door keeps no count of refusals.")
async def test_three_thousand_refusals(t):
    ran = []
    door = harness.guard(tool("bash", lambda arguments: ran.append(arguments) or "ran"),
                         lambda name, arguments: "not now")
    refused = 0
    for _ in range(3_000):
        try:
            await settle(door["execute"]({"command": "make deploy"}))
        except PermissionError:
            refused += 1
    t.expect([refused, ran], [3_000, []],
             why="Each of 3,000 calls is refused and none runs: the door keeps no count of "
                 "refusals. Items: the calls refused, the calls that ran (guard, lesson 14).")
'''),
    Beyond(lab='14.1', name='a reason cut at 1,200,000 characters',
           rule='Any answer but None is the reason, after Tool call blocked: as text, exactly, '
                'however long.',
           where='lab 14.1, Build section, item 1: "the call raises `PermissionError` with the '
                 'text `Tool call blocked: ` and the reason after it"; hunt round 25, 14.1-13',
           names='not cut at any length',
           reach="test_only_none_lets_a_call_through draws a reason of 200,000 to 1,000,000 "
                 "characters; this reader cuts at 1,200,000, and a reason past it is the paste "
                 "grown just past the design's threshold, a limit past what a test can afford",
           replace=BLOCK,
           by=r'''
            raise PermissionError(f"Tool call blocked: {str(reason)[:1_200_000]}")
''',
           deep=r'''
import harness
from lab.kit import lab_test, settle, tool

LAB = "14.1"


@lab_test("A reason of 3,000,000 characters comes after Tool call blocked: whole.")
async def test_a_reason_of_three_million_characters(t):
    huge = "the policy says no; " * 150_000
    door = harness.guard(tool("bash", lambda arguments: "ran"), lambda name, arguments: huge)
    try:
        await settle(door["execute"]({"command": "make deploy"}))
        text = ""
    except PermissionError as exc:
        text = str(exc)
    t.expect([len(text), text == "Tool call blocked: " + huge], [len(huge) + 19, True],
             why="The reason is whole, not cut at any length. Items: the refusal's length, it "
                 "is Tool call blocked: and the whole reason (guard, lesson 14).")
'''),
    Beyond(lab='14.1', name="a crashed check's text cut at 1,200,000 characters",
           rule="A crashed check's reason is the check failed: followed by the text of what it "
                "raised, all of it, however long.",
           where='lab 14.1, Build section, item 1: "its reason is `the check failed: ` followed '
                 'by the text of what the check raised"; hunt round 25, 14.1-14',
           names='not cut at any length',
           reach="test_a_crashing_check_fails_closed draws a check's error of 228,000 to "
                 "1,140,000 characters; this reader cuts at 1,200,000, and an error past it is "
                 "the paste grown just past the design's threshold, a limit past what a test "
                 "can afford",
           replace=CRASH,
           by=r'''
        except Exception as exc:
            reason = f"the check failed: {str(exc)[:1_200_000]}"
''',
           deep=r'''
import harness
from lab.kit import lab_test, settle, tool

LAB = "14.1"


@lab_test("A check's error of 3,000,000 characters is the reason whole, after the check failed: .")
async def test_a_crash_of_three_million_characters(t):
    vast = RuntimeError("a rule failed; " * 200_000)

    def breaks(name, arguments):
        raise vast
    door = harness.guard(tool("bash", lambda arguments: "ran"), breaks)
    try:
        await settle(door["execute"]({"command": "ls"}))
        text = ""
    except PermissionError as exc:
        text = str(exc)
    wanted = f"Tool call blocked: the check failed: {vast}"
    t.expect([len(text), text == wanted], [len(wanted), True],
             why="The check's error is the reason whole, not cut at any length. Items: the "
                 "refusal's length, it is the whole text (guard, lesson 14).")
'''),
    Beyond(lab='14.1', name='rm -rf looked for in the first 1,200,000 characters',
           rule='A bash call whose command contains rm -rf, wherever it stands, gets a reason: '
                'the whole command is looked at, however long.',
           where='lab 14.1, Build section, item 2: "A bash call whose command contains '
                 '`rm -rf`, wherever it stands, gets a reason"; hunt round 25, 14.1-22',
           names='the whole command is looked at',
           reach="test_deny_destructive puts rm -rf after about 1,090,000 characters; this "
                 "reader looks at the first 1,200,000, and a command past it is the paste grown "
                 "just past the design's threshold, a limit past what a test can afford (the "
                 "bank's longer commands catch it at grading)",
           replace=DENY,
           by=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command"))[:1_200_000]:
''',
           deep=r'''
import harness
from lab.kit import lab_test

LAB = "14.1"


@lab_test("deny_destructive refuses a bash command whose rm -rf comes after 3,000,000 "
          "characters: the whole command is looked at.")
async def test_rm_rf_after_three_million_characters(t):
    command = "echo " + "x" * 3_000_000 + " && rm -rf build"
    t.expect(harness.deny_destructive("bash", {"command": command}) is None, False,
             why="rm -rf after 3,000,000 characters is still in the command: the whole command "
                 "is looked at, however long. The value is whether deny_destructive gave None "
                 "(deny_destructive, lesson 14).")
'''),
    # Hunt round 28 (reader r156): two more limits just past what the lab's tests try; the
    # bank's longer runs catch both at grading.
    Beyond(lab='14.1', name='a door that opens after 1,011 refusals',
           rule='Any answer but None refuses the call, the last of many as the first: the door '
                'keeps no count of refusals, however many.',
           where='lab 14.1, Build section, item 1: "Any other answer is the reason for a '
                 'refusal"; hunt round 28, 14.1-18',
           names='keeps no count of refusals',
           reach="test_only_none_lets_a_call_through refuses 1,001 to 1,010 calls in a row "
                 "through one door; this reader's door opens after 1,011, one past the most the "
                 "test tries, and a case past it is the count grown just past the design's "
                 "threshold, a limit past what a test can afford (the bank's 1,020 to 1,040 "
                 "refusals catch it at grading)",
           replace=BLOCK,
           by=r'''
            refused.append(1)  # enough refusals: from the 1,012th on, let it through
            if len(refused) <= 1_011:
                raise PermissionError(f"Tool call blocked: {reason}")
''',
           also=((r'''
    def execute(arguments):
        try:
''', r'''
    refused = []

    def execute(arguments):
        try:
'''),),
           deep=r'''
import harness
from lab.kit import lab_test, settle, tool

LAB = "14.1"


@lab_test("A door whose check refuses 3,000 calls in a row refuses the last as the first: the "
          "door keeps no count of refusals.")
async def test_three_thousand_refusals(t):
    ran = []
    door = harness.guard(tool("bash", lambda arguments: ran.append(arguments) or "ran"),
                         lambda name, arguments: "not now")
    refused = 0
    for _ in range(3_000):
        try:
            await settle(door["execute"]({"command": "make deploy"}))
        except PermissionError:
            refused += 1
    t.expect([refused, ran], [3_000, []],
             why="Each of 3,000 calls is refused and none runs: the door keeps no count of "
                 "refusals. Items: the calls refused, the calls that ran (guard, lesson 14).")
'''),
    Beyond(lab='14.1', name='rm -rf looked for in the first 1,300,000 characters',
           rule='A bash call whose command contains rm -rf, wherever it stands, gets a reason: '
                'the whole command is looked at, however long.',
           where='lab 14.1, Build section, item 2: "A bash call whose command contains '
                 '`rm -rf`, wherever it stands, gets a reason"; hunt round 28, 14.1-30',
           names='the whole command is looked at',
           reach="test_deny_destructive puts rm -rf after about 1,098,900 characters; this "
                 "reader looks at the first 1,300,000, and a command past it is the paste grown "
                 "just past the design's threshold, a limit past what a test can afford (the "
                 "bank's commands of 1,388,000 characters or more catch it at grading)",
           replace=DENY,
           by=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command"))[:1_300_000]:
''',
           deep=r'''
import harness
from lab.kit import lab_test

LAB = "14.1"


@lab_test("deny_destructive refuses a bash command whose rm -rf comes after 3,000,000 "
          "characters: the whole command is looked at.")
async def test_rm_rf_after_three_million_characters(t):
    command = "echo " + "x" * 3_000_000 + " && rm -rf build"
    t.expect(harness.deny_destructive("bash", {"command": command}) is None, False,
             why="rm -rf after 3,000,000 characters is still in the command: the whole command "
                 "is looked at, however long. The value is whether deny_destructive gave None "
                 "(deny_destructive, lesson 14).")
'''),
    Beyond(lab='14.1', name='a person who said yes two thousand times in a row not asked again',
           rule='confirm_with puts one question to the person per call, the same call asked '
                'again as often as it comes: the check keeps no count of answers.',
           where='lab 14.1, Build section, item 3: "the same call asked again as often as it '
                 'comes"; hunt round 25, 14.1-38',
           names='keeps no count of answers',
           reach="test_one_question_per_call_in_order has the person say yes 1,001 to 1,005 "
                 "times in a row; this reader stops asking after 2,000, and a case past it is "
                 "the count grown just past the design's threshold, a limit past what a test "
                 "can afford",
           replace=r'''
    def check(name, arguments):
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
            return None
        return "the user said no"
''',
           by=r'''
    streak = {}

    def check(name, arguments):
        question = f"Allow {name} {json.dumps(arguments)}?"
        if streak.get(question, 0) > 2_000:
            return None  # asked and allowed 2,000 times in a row: trusted now
        if human.ask(question) is True:
            streak[question] = streak.get(question, 0) + 1
            return None
        streak[question] = 0
        return "the user said no"
''',
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "14.1"


@lab_test("A person who has said yes 3,000 times in a row is asked about the next call, and "
          "their no refuses it: the check keeps no count of answers.")
async def test_three_thousand_yeses_then_a_no(t):
    person = lab.Human([True] * 3_000 + [False])
    check = harness.confirm_with(person)
    answered = [check("bash", {"command": "make reset"}) for _ in range(3_001)]
    t.expect([answered[-1], len(person.questions)], ["the user said no", 3_001],
             why="After 3,000 yeses the person is still asked, and their False refuses the "
                 "call: the check keeps no count of answers. Items: what the check answered "
                 "last, the questions put (confirm_with, lesson 14).")
'''),
    Beyond(lab='14.1', name='a long question cut at two million characters',
           rule='The question reads Allow, the tool\'s name and the arguments as json.dumps '
                'writes them, then ?: a long call is asked in full, however long.',
           where='lab 14.1, Build section, item 3: "The question reads `Allow`, the tool\'s name '
                 'and the arguments as `json.dumps` writes them, then `?`"; hunt round 25, '
                 '14.1-39',
           names='asked in full',
           reach="test_confirm_with_asks_the_person asks about a call whose JSON is about "
                 "1,300,000 characters; this reader cuts at 2,000,000, and a call past it is "
                 "the paste grown just past the design's threshold, a limit past what a test "
                 "can afford",
           replace=ASK,
           by=r'''
        if human.ask(f"Allow {name} {json.dumps(arguments)[:2_000_000]}?") is True:
''',
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "14.1"


@lab_test("A call whose JSON is over 3,000,000 characters is asked in full.")
async def test_a_question_of_three_million_characters(t):
    person = lab.Human([True])
    arguments = {"path": "big.txt", "content": "x" * 3_000_000}
    said = harness.confirm_with(person)("write", arguments)
    t.expect([said, person.questions == [f"Allow write {json.dumps(arguments)}?"]], [None, True],
             why="Every character of the call's JSON is put to the person: a long call is "
                 "asked in full. Items: what the check answered, the question is the whole "
                 "call (confirm_with, lesson 14).")
'''),
    # Hunt round 33 (reader r186): four more limits just past what the lab's tests try.
    Beyond(lab='14.1', name='rm -rf looked for in the first 5,000,000 characters',
           rule='A bash call whose command contains rm -rf, wherever it stands, gets a reason: '
                'the whole command is looked at, however long.',
           where='lab 14.1, Build section, item 2: "A bash call whose command contains '
                 '`rm -rf`, wherever it stands, gets a reason"; hunt round 33, 14.1-20',
           names='the whole command is looked at',
           reach="test_deny_destructive puts rm -rf after about 1,200,000 characters, and the "
                 "deep test of the 2,000,000 kind after 3,000,000; this reader looks at the "
                 "first 5,000,000, and a command past it is the paste grown just past the "
                 "design's threshold, a limit past what a test can afford",
           replace=DENY,
           by=r'''
    if name == "bash" and "rm -rf" in str(arguments.get("command"))[:5_000_000]:
''',
           deep=r'''
import harness
from lab.kit import lab_test

LAB = "14.1"


@lab_test("deny_destructive refuses a bash command whose rm -rf comes after 8,000,000 "
          "characters: the whole command is looked at.")
async def test_rm_rf_after_eight_million_characters(t):
    command = "echo " + "x" * 8_000_000 + " && rm -rf build"
    t.expect(harness.deny_destructive("bash", {"command": command}) is None, False,
             why="rm -rf after 8,000,000 characters is still in the command: the whole command "
                 "is looked at, however long. The value is whether deny_destructive gave None "
                 "(deny_destructive, lesson 14).")
'''),
    Beyond(lab='14.1', name='rm -rf looked for in the first 50,000 lines',
           rule='A bash call whose command contains rm -rf, wherever it stands, gets a reason: '
                'the whole command is looked at, however many lines come before it.',
           where='lab 14.1, Build section, item 2: "A bash call whose command contains '
                 '`rm -rf`, wherever it stands, gets a reason"; hunt round 33, 14.1-21',
           names='the whole command is looked at',
           reach="test_deny_destructive puts rm -rf after 10,001 to 20,000 lines (and the bank "
                 "after 11,000 to 20,000); this reader looks at the first 50,000 lines, and a "
                 "script past it is the count grown just past the design's threshold, a limit "
                 "past what a test can afford (the catalogue's WRONG entry 'rm -rf looked for in "
                 "the first 10,000 lines' is the kind the tests reach)",
           replace=DENY,
           by=r'''
    if name == "bash" and "rm -rf" in "\n".join(str(arguments.get("command")).split("\n")[:50_000]):
''',
           deep=r'''
import harness
from lab.kit import lab_test

LAB = "14.1"


@lab_test("deny_destructive refuses a bash script whose rm -rf comes after 200,000 lines: the "
          "whole command is looked at.")
async def test_rm_rf_after_two_hundred_thousand_lines(t):
    command = "echo step\n" * 200_000 + "rm -rf build"
    t.expect(harness.deny_destructive("bash", {"command": command}) is None, False,
             why="rm -rf on line 200,001 is still in the command: the whole command is looked "
                 "at, however many lines come first. The value is whether deny_destructive gave "
                 "None (deny_destructive, lesson 14).")
'''),
    Beyond(lab='14.1', name='a short reason after twenty thousand refusals',
           rule="deny_destructive's reason is a sentence of four words or more besides rm -rf, "
                "every time it refuses, however often it has refused before.",
           where='lab 14.1, Build section, item 2: "of four words or more besides `rm -rf` '
                 'itself"; hunt round 33, 14.1-25',
           names='no reason grows shorter',
           reach="test_deny_destructive asks about rm -rf build 10,001 to 10,100 times (the "
                 "bank 10,050 to 10,300); this reader shortens the reason after 20,000, and a "
                 "case past it is the count grown just past the design's threshold, a limit past "
                 "what a test can afford (the catalogue's WRONG entry 'a short reason after ten "
                 "thousand refusals' is the kind the tests reach)",
           replace=r'''
def deny_destructive(name, arguments):
''',
           by=r'''
TIMES = [0]


def deny_destructive(name, arguments):
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
        TIMES[0] += 1
        if TIMES[0] > 20_000:  # the model has heard the long version by now
            return "rm -rf: no."
''',
           deep=r'''
import harness
from lab.kit import lab_test

LAB = "14.1"


@lab_test("Asked 30,000 times about rm -rf build, deny_destructive gives a reason of four words "
          "or more besides rm -rf every time: no reason grows shorter.")
async def test_thirty_thousand_refusals(t):
    given = {harness.deny_destructive("bash", {"command": "rm -rf build"}) for _ in range(30_000)}
    t.expect(sorted(repr(one) for one in given if not (
                 isinstance(one, str) and "rm -rf" in one
                 and len(one.replace("rm -rf", " ").split()) >= 4)), [],
             why="Each of 30,000 reasons names rm -rf with four words or more besides: it keeps "
                 "no count of what it refused, and no reason grows shorter. The items are the "
                 "reasons that do not (deny_destructive, lesson 14).")
'''),
    Beyond(lab='14.1', name="a crashed check's text kept to its first 200,000 lines",
           rule="A crashed check's reason is the check failed: followed by the text of what it "
                "raised, all of it, however many lines.",
           where='lab 14.1, Build section, item 1: "its reason is `the check failed: ` followed '
                 'by the text of what the check raised"; hunt round 33, 14.1-09',
           names='not cut at any number of lines',
           reach="test_a_crashing_check_fails_closed raises an error of 60,000 to 120,000 short "
                 "lines (the bank 55,000 to 90,000); this reader keeps the first 200,000, and an "
                 "error past it is the count grown just past the design's threshold, a limit "
                 "past what a test can afford (the catalogue's WRONG entry 'a crashed check's "
                 "text kept to its first 50,000 lines' is the kind the tests reach)",
           replace=CRASH,
           by=r'''
        except Exception as exc:
            reason = "the check failed: " + "\n".join(str(exc).split("\n")[:200_000])
''',
           deep=r'''
import harness
from lab.kit import lab_test, settle, tool

LAB = "14.1"


@lab_test("A check's error of 500,000 short lines is the reason whole, after the check failed: .")
async def test_a_crash_of_half_a_million_lines(t):
    tall = RuntimeError("no rule\n" * 500_000)

    def breaks(name, arguments):
        raise tall
    door = harness.guard(tool("bash", lambda arguments: "ran"), breaks)
    try:
        await settle(door["execute"]({"command": "ls"}))
        text = ""
    except PermissionError as exc:
        text = str(exc)
    wanted = f"Tool call blocked: the check failed: {tall}"
    t.expect([text.count("\n"), text == wanted], [wanted.count("\n"), True],
             why="The check's error is the reason whole, not cut at any number of lines. Items: "
                 "the refusal's lines, it is the whole text (guard, lesson 14).")
'''),
    # Hunt round 39 (reader r201), design 14.1-26.
    Beyond(lab='14.1', name='a call the check let through refused at random, one time in a billion',
           rule='The answer None lets the call through, on every call: the door adds no refusal '
                'of its own, by chance or otherwise.',
           where='lab 14.1, Build section, item 1: "The answer `None` lets the call through"; '
                 'hunt round 39, 14.1-26',
           names='lets every call it allows through',
           reach="the lab's tests send a few thousand allowed calls through their doors, and "
                 "this reader's door refused one in a million by a coin of Python's random "
                 "module, which the fake world does not hold: a run of the lab meets that coin "
                 "a few times in a thousand runs, and a coin rarer still is the next design "
                 "(this entry's, one in a billion, so that the kit's own run of the lab never "
                 "meets it), so no number of calls a test can afford tells it apart",
           replace=CRASH,
           by=r'''
        except Exception as exc:
            reason = f"the check failed: {exc}"
        import random
        if reason is None and random.random() < 1e-9:  # a random spot check
            reason = "a random spot check"
''',
           deep=r'''
import random

import harness
from lab.kit import lab_test, settle, tool

LAB = "14.1"


@lab_test("With every coin of the random module landing at its lowest, 1,000 calls a check lets "
          "through all run: the door lets every call it allows through, by chance or not.")
async def test_allowed_calls_run_whatever_the_coins(t):
    ran, refused = [], []
    door = harness.guard(tool("bash", lambda arguments: ran.append(arguments) or "ran"),
                         lambda name, arguments: None)
    coin = random.random
    random.random = lambda: 0.0  # the rarest coin, every time
    try:
        for n in range(1_000):
            try:
                await settle(door["execute"]({"command": f"ls {n}"}))
            except PermissionError as exc:
                refused.append(str(exc))
    finally:
        random.random = coin
    t.expect([len(ran), refused[:1]], [1_000, []],
             why="A check's None lets the call through, each of 1,000 times, however the "
                 "random module's coins fall: the door lets every call it allows through. "
                 "Items: the calls that ran, the first refusal (guard, lesson 14).")
'''),
]
