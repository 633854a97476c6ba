"""The shell: a few commands over a Workspace, with durations counted in loop turns, so a
ten-minute build is three turns in a test and `sleep inf` waits for ever at no cost."""

import ast
import asyncio
import math
import shlex

from . import contracts
from .clock import turn_clock

NEVER = math.inf


class _Refused(Exception):
    """A command line the lab shell will not run: carries what bash would print, and the code."""

    def __init__(self, output, code):
        super().__init__(output)
        self.output, self.code = output, code


def _parse(command):
    """[(separator before it, argv)] for each segment of `command`. Segments are joined by &&,
    ; or a line break. Quotes are respected; `2>&1` is accepted and ignored, since output is
    already stdout and stderr together; any other operator is refused with a message saying
    so."""
    segments, current, separator, quote, i = [], [], None, None, 0

    def close(next_separator):
        text = "".join(current).strip()
        if not text:
            raise _Refused(f"bash: syntax error near unexpected token `{next_separator}'\n", 2)
        segments.append((separator, text))
        current.clear()

    while i < len(command):
        ch = command[i]
        if quote:
            current.append(ch)
            if ch == "\\" and quote == '"' and i + 1 < len(command):
                current.append(command[i + 1])
                i += 1
            elif ch == quote:
                quote = None
        elif ch == "\\" and i + 1 < len(command):
            current += [ch, command[i + 1]]
            i += 1
        elif ch in "'\"":
            quote = ch
            current.append(ch)
        elif command.startswith("2>&1", i) and (i == 0 or command[i - 1].isspace()):
            i += 3
        elif ch == "\n":  # a line break separates like ;, and a blank line is nothing
            if "".join(current).strip():
                close(";")
                separator = ";"
        elif command.startswith("&&", i) or ch == ";":
            close(command[i:i + 2] if ch == "&" else ";")
            separator = ";" if ch == ";" else "&&"
            i += 0 if ch == ";" else 1
        elif ch in "|&<>":
            token = command[i:i + 2] if command[i:i + 2] in ("||", ">>", "<<") else ch
            raise _Refused(f"bash: the lab shell joins commands with && and ; only; it has "
                           f"no {token!r}\n", 2)
        else:
            current.append(ch)
        i += 1
    if quote:
        raise _Refused(f"bash: unexpected EOF while looking for matching `{quote}'\n", 2)
    if "".join(current).strip():
        close(None)
    elif separator == "&&":
        raise _Refused("bash: syntax error: unexpected end of file\n", 2)
    return [(sep, shlex.split(text)) for sep, text in segments]


def _path_key(path):
    return "/".join(part for part in path.split("/") if part not in ("", "."))


# The built-in commands. Each takes (args, ws) and returns (output, code) or
# (output, code, turns), the same contract as the functions passed in `commands=`.

def _echo(args, ws):
    return " ".join(args) + "\n", 0


def _cat(args, ws):
    output, code = [], 0
    for path in args:
        if ws.isdir(path):
            output.append(f"cat: {path}: Is a directory\n")
            code = 1
        elif not ws.exists(path):
            output.append(f"cat: {path}: No such file or directory\n")
            code = 1
        else:
            output.append(ws.read_text(path))
    return "".join(output), code


def _ls(args, ws):
    paths = [arg for arg in args if not (arg.startswith("-") and len(arg) > 1)] or ["."]
    errors, files, folders = [], [], []
    for path in paths:
        if not ws.exists(path):
            errors.append(f"ls: cannot access '{path}': No such file or directory\n")
        elif ws.isdir(path):
            folders.append(path)
        else:
            files.append(path)
    sections = ["".join(name + "\n" for name in sorted(files))] if files else []
    for path in folders:
        names = "".join(name + "\n" for name in ws.listdir(path))
        sections.append(f"{path}:\n{names}" if len(paths) > 1 else names)
    return "".join(errors) + "\n".join(sections), 2 if errors else 0


def _rm(args, ws):
    recursive = force = False
    paths, options = [], True
    for arg in args:
        if options and arg == "--":
            options = False
        elif options and arg.startswith("-") and len(arg) > 1:
            for letter in arg[1:]:
                if letter not in "rRf":
                    return f"rm: invalid option -- '{letter}'\n", 1
                recursive |= letter in "rR"
                force |= letter == "f"
        else:
            paths.append(arg)
    if not paths:
        return ("", 0) if force else ("rm: missing operand\n", 1)
    output, code = [], 0
    for path in paths:
        key = _path_key(path)
        if not ws.exists(path):
            if not force:
                output.append(f"rm: cannot remove '{path}': No such file or directory\n")
                code = 1
        elif ws.isdir(path):
            if not recursive:
                output.append(f"rm: cannot remove '{path}': Is a directory\n")
                code = 1
            elif key == "":
                output.append(f"rm: refusing to remove '.' or '..' directory: skipping "
                              f"'{path}'\n")
                code = 1
            else:
                for name in list(ws.files):
                    if name.startswith(key + "/"):
                        ws.remove(name)
        else:
            ws.remove(path)
    return "".join(output), code


def _seq(args, ws):
    if not args:
        return "seq: missing operand\n", 1
    if len(args) > 3:
        return f"seq: extra operand '{args[3]}'\n", 1
    numbers = []
    for arg in args:
        try:
            numbers.append(int(arg))
        except ValueError:
            return f"seq: invalid floating point argument: '{arg}'\n", 1
    if len(numbers) == 1:
        first, step, last = 1, 1, numbers[0]
    elif len(numbers) == 2:
        first, step, last = numbers[0], 1, numbers[1]
    else:
        first, step, last = numbers
    if step == 0:
        return "seq: invalid Zero increment value: '0'\n", 1
    return "".join(f"{n}\n" for n in range(first, last + (1 if step > 0 else -1), step)), 0


def _sleep(args, ws):
    if not args:
        return "sleep: missing operand\n", 1
    turns = 0
    for arg in args:
        if arg in ("inf", "infinity"):
            return "", 0, NEVER
        try:
            seconds = float(arg)
        except ValueError:
            seconds = -1
        if not 0 <= seconds < NEVER:
            return f"sleep: invalid time interval '{arg}'\n", 1
        turns += math.ceil(seconds)
    return "", 0, turns


def _fails_at_once(function):
    """True when a test function's first statement, after any docstring, is `assert False`."""
    body = function.body
    if (len(body) > 1 and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)):
        body = body[1:]
    first = body[0]
    return (isinstance(first, ast.Assert) and isinstance(first.test, ast.Constant)
            and first.test.value is False)


def _pytest(args, ws):
    targets = [arg for arg in args if not arg.startswith("-")] or ["."]
    missing = [path for path in targets if not ws.exists(path)]
    if missing:
        return f"ERROR: file or directory not found: {missing[0]}\n\nno tests ran\n", 4, 3
    keys = [_path_key(path) for path in targets]
    files = sorted(name for name in ws.files
                   if name.rsplit("/", 1)[-1].startswith("test_") and name.endswith(".py")
                   and any(key == "" or name == key or name.startswith(key + "/")
                           for key in keys))
    failed, passed, errors = [], 0, []
    for name in files:
        try:
            tree = ast.parse(ws.read_text(name))
        except SyntaxError as exc:
            errors.append(f"ERROR {name} - SyntaxError: {exc.msg} (line {exc.lineno})\n")
            continue
        for node in tree.body:
            if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and node.name.startswith("test_")):
                if _fails_at_once(node):
                    failed.append(f"FAILED {name}::{node.name}\n")
                else:
                    passed += 1
    if errors:
        return "".join(errors) + f"Interrupted: {len(errors)} error(s) during collection\n", 2, 3
    if not failed and not passed:
        return "no tests ran\n", 5, 3
    counts = [f"{n} {word}" for n, word in ((len(failed), "failed"), (passed, "passed")) if n]
    return "".join(failed) + ", ".join(counts) + "\n", 1 if failed else 0, 3


def _true(args, ws):
    return "", 0


def _false(args, ws):
    return "", 1


BUILTINS = {"echo": _echo, "cat": _cat, "ls": _ls, "rm": _rm, "seq": _seq, "sleep": _sleep,
            "pytest": _pytest, "true": _true, "false": _false}


class Process(contracts.Process):
    """A started command line, advancing one loop turn at a time on its own.

    .command is the text it was started with. done() says whether it has finished or been
    killed. output() returns (output, code) once it is done and raises
    RuntimeError("the process is still running") before. kill() ends it at once with code -9,
    keeping what it had printed so far; it is idempotent, and after a normal finish it does
    nothing, so a `finally: process.kill()` is always safe. .killed says whether a kill landed
    on a running process.
    """

    def __init__(self, shell, command, plan):
        self.command = command
        self.killed = False
        self._shell, self._plan, self._next = shell, plan, 0
        self._printed, self._code = [], 0
        self._held = None  # (output, code) of the segment whose turns are still passing
        self._done, self._error = False, None
        self._alarm, self._clock, self._waiters = None, None, []

    def __repr__(self):
        state = "killed" if self.killed else "done" if self._done else "running"
        return f"<Process {self.command!r} {state}>"

    def done(self):
        """True once the command line has finished or been killed."""
        return self._done

    def output(self):
        """(output, code), once done: stdout and stderr together, and the exit code."""
        if not self._done:
            raise RuntimeError("the process is still running")
        if self._error is not None:
            raise self._error
        return "".join(self._printed), self._code

    def kill(self):
        """Stop it now: code -9, output as printed so far. Harmless when already done."""
        if self._done:
            return
        self.killed = True
        self._held = None
        self._code = -9
        self._finish()

    def _proceed(self):
        """Run segments until one has to wait; return its turns, or 0 when the line is over."""
        while self._next < len(self._plan):
            separator, argv = self._plan[self._next]
            self._next += 1
            if separator == "&&" and self._code != 0:
                continue
            output, code, turns, stop = self._shell._execute(argv, self._code)
            if stop:
                self._next = len(self._plan)
            if turns:
                self._held = (output, code)
                return turns
            self._printed.append(output)
            self._code = code
        return 0

    def _release(self):
        output, self._code = self._held
        self._held = None
        self._printed.append(output)

    def _run_now(self):
        """Run the whole line at once, ignoring durations; for Shell.run."""
        while True:
            turns = self._proceed()
            if turns == NEVER:
                raise RuntimeError(f"{self.command} never ends; Shell.run cannot wait for it")
            if not turns:
                break
            self._release()
        self._done = True

    def _start(self, clock):
        self._clock = clock
        self._continue()

    def _continue(self):
        try:
            turns = self._proceed()
        except (SystemExit, KeyboardInterrupt):
            raise
        except BaseException as exc:  # a command function failed: output() raises it
            self._error = exc
            turns = 0
        if not turns:
            self._finish()
        elif turns != NEVER:  # a wait that never ends sets no alarm: it costs nothing
            self._alarm = self._clock.at(self._clock.now + turns, self._wake)

    def _wake(self):
        self._alarm = None
        self._release()
        self._continue()

    def _finish(self):
        self._done = True
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def _wait(self):
        if not self._done:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            await waiter  # cancelling the waiter leaves the process running
        return self.output()


class Shell(contracts.Shell):
    """A shell over the workspace `ws`: echo, cat, ls, rm, seq, sleep, true, false, exit and
    pytest, joined by && or ; (or a line break), with stdout and stderr together. Pipes and
    redirections are refused with a message that says so, rather than run wrongly.
    `commands={name: fn}` adds or overrides commands; fn(args, ws) returns (output, code) or
    (output, code, turns). A command function runs when its segment starts; its output shows
    when its turns are over.

    Three ways to run a line, with identical results: run() at once, for plain code (it cannot
    wait for a line that never ends); start() returns a Process whose durations pass in loop
    turns; arun() starts one and awaits it, looking at nothing else. If the task awaiting arun()
    is cancelled, the process keeps running, as a real one would: cancelling ends the waiting,
    not the work. `.processes` lists every process started, running() those not yet done.
    """

    def __init__(self, ws, *, commands=None):
        if commands is not None and not isinstance(commands, dict):
            raise TypeError("Shell(ws, commands=...) takes a dict of name -> fn(args, ws); "
                            f"got {commands!r}")
        for name, fn in (commands or {}).items():
            if not isinstance(name, str) or not callable(fn):
                raise TypeError(f"Shell(commands=...): {name!r} must name a function "
                                "fn(args, ws) -> (output, code) or (output, code, turns)")
        self.ws = ws
        self.processes = []
        self._commands = {**BUILTINS, **(commands or {})}

    def run(self, command):
        """(output, code) of `command`, at once, durations ignored. For a line that never ends
        it raises RuntimeError("<command> never ends; Shell.run cannot wait for it")."""
        process = self._process(command)
        process._run_now()
        return process.output()

    def start(self, command):
        """Start `command` and return its Process at once. Needs a running event loop."""
        clock = turn_clock("Shell.start")
        process = self._process(command)
        self.processes.append(process)
        process._start(clock)
        return process

    async def arun(self, command):
        """(output, code) of `command`, once it has finished: start() and wait, looking at
        nothing else on the way."""
        return await self.start(command)._wait()

    def running(self):
        """The started processes that are not done yet, in the order they were started."""
        return [process for process in self.processes if not process.done()]

    def _process(self, command):
        if not isinstance(command, str):
            raise TypeError(f"a command line is a string such as 'ls src'; got {command!r}")
        try:
            plan = _parse(command)
        except _Refused as refusal:
            process = Process(self, command, [])
            process._printed, process._code = [refusal.output], refusal.code
            return process
        except ValueError as exc:  # shlex on a quote it could not close
            process = Process(self, command, [])
            process._printed, process._code = [f"bash: {exc}\n"], 2
            return process
        return Process(self, command, plan)

    def _execute(self, argv, code):
        """(output, code, turns, stop) for one segment; stop is True when it ends the line."""
        name, args = argv[0], argv[1:]
        if name == "exit" and "exit" not in self._commands:
            return _exit(args, code)
        fn = self._commands.get(name)
        if fn is None:
            return f"bash: {name}: command not found\n", 127, 0, False
        try:
            result = fn(args, self.ws)
        except ValueError as exc:
            if fn is not BUILTINS.get(name):
                raise
            return f"{name}: {exc}\n", 1, 0, False  # a path the workspace refuses, like ..
        if (not isinstance(result, tuple) or len(result) not in (2, 3)
                or not isinstance(result[0], str) or isinstance(result[1], bool)
                or not isinstance(result[1], int)):
            raise TypeError(f"Shell: the command {name!r} returned {result!r}; a command "
                            "function returns (output, code) or (output, code, turns)")
        turns = result[2] if len(result) == 3 else 0
        if not (turns == NEVER or (isinstance(turns, int) and not isinstance(turns, bool)
                                   and turns >= 0)):
            raise TypeError(f"Shell: the command {name!r} returned turns={turns!r}; turns is "
                            "a whole number 0 or more, or math.inf for never")
        return result[0], result[1], turns, False


def _exit(args, code):
    if len(args) > 1:
        return "bash: exit: too many arguments\n", 1, 0, False
    if not args:
        return "", code, 0, True
    try:
        return "", int(args[0]) % 256, 0, True
    except ValueError:
        return f"bash: exit: {args[0]}: numeric argument required\n", 2, 0, True
