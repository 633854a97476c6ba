"""Lesson 14's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
lab 14.1's reference; the rule is the lesson's principle or the part of it the design breaks.
"""
from tools.wrong_designs import Wrong

WRONG = [
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
]

# Designs the lesson allows: each keeps its lab's rules another way, and its lab's tests must
# pass it (tests/authoring/test_allowed_designs.py).
ALLOWED = [
    Wrong(
        lab="14.1", name="a deny-list that also refuses rm -fr and rm -r -f",
        rule="deny_destructive refuses any bash command holding rm -rf; refusing more spellings "
             "of the same command is only safer.",
        where="issue 23", names="",
        replace='''    if name == "bash" and "rm -rf" in str(arguments.get("command")):''',
        by='''    spellings = ("rm -rf", "rm -fr", "rm -r -f", "rm -f -r", "rm -Rf")
    if name == "bash" and any(s in " ".join(str(arguments.get("command")).split())
                              for s in spellings):'''),
]
