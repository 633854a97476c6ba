"""`course chat`: the student's harness.py as a coding agent over a real folder, with a real
shell, talking to any OpenAI-compatible Chat Completions endpoint that streams.

The harness file supplies every mechanism (StreamingModel, Harness, the tools, the door,
stop_run, SessionLog); this module only builds the real world around it, asks on the terminal,
and turns Ctrl-C into the lesson-15 Stop. A student's file must first pass lab 16.2's tests
(every lab's, as `course check 16.2` runs them), unless --force: an unfinished file would
otherwise fail against a real server and seem to blame it. Exit codes: 0 the run ended well, 1
it did not (an error, a Stop), 2 the command could not start (a bad argument, an unfinished
harness), 130 Ctrl-C at the prompt."""

from __future__ import annotations

import asyncio
import datetime
import json
import os
import signal
import sys
import time
import traceback
from pathlib import Path

from lab.check import manifest, runner, spoken, suite
from lab.check.importer import import_harness
from lab.desk.errors import CourseError
from lab.desk.problems import (DoesNotImport, FailsLastLab, LogNotResumable, NoHarnessFile,
                               NotAFolder, Unfinished)
from lab.desk import words_chat as words
from lab.desk.real import ChatCompletionsClient, DiskWorkspace, RealShell

SESSION = ".course-chat/session.jsonl"  # in the work folder, so the next start resumes it
NEEDED = ("StreamingModel", "Harness", "Harness.cancel", "stop_run", "SessionLog", "persist_to",
          "make_read_tool", "make_write_tool", "make_bash_tool", "guard", "confirm_with",
          "build_system_prompt", "discover_context", "text_of")
GRACE = 200  # loop turns stop_run gives a run to wind up; a real look can take POLL_WAIT each
SLEEP = time.sleep  # how the countdown before a second try waits; a test puts its own here


class ChatError(CourseError):
    """The command cannot start; the text says why."""


def last_lab() -> manifest.Lab:
    """The lab whose tests a harness must pass to chat: the course's last, as its lesson.toml
    files list them (lab/check/manifest.py), so a lab added after it is the one asked for."""
    return manifest.labs()[-1]


def solution_path() -> Path:
    return last_lab().solution


def load_harness(where: str):
    """The harness module at `where` ("solution" for the kit's own), refused with the names it
    lacks and the labs that add them when it is not finished through lesson 16."""
    path = solution_path() if where == "solution" else Path(where)
    if not path.is_file():
        raise ChatError(NoHarnessFile(str(path)))
    try:
        module = import_harness(path)
    except Exception as exc:  # whatever the student's file raises as it runs is theirs to fix
        raise ChatError(DoesNotImport(str(path), type(exc).__name__, str(exc))) from None
    missing = []
    for name in NEEDED:
        owner, _, attribute = name.partition(".")
        found = getattr(module, owner, None)
        if found is None or (attribute and not hasattr(found, attribute)):
            missing.append(name)
    if missing:
        lacks = []
        for name in missing:
            lab = manifest.introduced_by(name)
            lacks.append((name, lab.name if lab else None))
        raise ChatError(Unfinished(str(path), tuple(lacks), last_lab().id))
    return module


def passes_the_last_lab(path: Path) -> None:
    """Run the last lab's tests, every lab's, on `path` in a child process (the checker's
    engine, as `course check` runs it); a ChatError saying how many failed when any did."""
    last = last_lab().id
    files = suite.of_lab(last)
    report = runner.run(path, files, runner.expected_for(files))
    failed = [o for o in report.outcomes if o.verdict != "pass"]
    if report.import_error or failed:
        raise ChatError(FailsLastLab(str(path), len(failed), len(report.outcomes), last,
                                     spoken.in_terminal("check", last)))


class TerminalHuman:
    """The person at the keyboard, for confirm_with: ask() is True only for an answer that
    starts with y. With approve_all (--yes) every call is let through without asking."""

    def __init__(self, approve_all=False):
        self.approve_all, self.asking = approve_all, False

    def ask(self, question):
        if self.approve_all:
            return True
        # the question goes to stderr, so that with -p standard output holds the answer alone
        print(words.question(question), end="", file=sys.stderr, flush=True)
        self.asking = True
        try:
            said = input()
        except (EOFError, KeyboardInterrupt):  # Ctrl-C here is a no, and the run's Stop
            print(file=sys.stderr)
            return False
        finally:
            self.asking = False
        return said.strip().lower().startswith("y")


class Countdown:
    """The wait before a rate-limited request is sent once more: the seconds counted down on
    the terminal, one `sleep(1)` at a time. Ctrl-C during it (the SIGINT handler raises
    KeyboardInterrupt while .waiting) gives up: __call__ returns False and nothing more is
    sent."""

    def __init__(self, sleep):
        self.sleep, self.waiting = sleep, False

    def __call__(self, seconds):
        print(words.rate_limited(seconds), file=sys.stderr)
        self.waiting = True
        try:
            for left in range(seconds, 0, -1):
                print(words.sending_in(left), end="", file=sys.stderr, flush=True)
                self.sleep(1)
        except KeyboardInterrupt:
            print(words.gave_up(), file=sys.stderr)
            return False
        finally:
            self.waiting = False
        print(words.sending_now(), file=sys.stderr)
        return True


class Chat:
    """One session: the harness built over the folder, the log resumed, and a way to Stop."""

    def __init__(self, h, *, workdir, base_url, model, approve_all, api_key, sleep=None):
        self.h = h
        self.ws, self.shell = DiskWorkspace(workdir), RealShell(workdir)
        self.countdown = Countdown(sleep or SLEEP)
        self.client = ChatCompletionsClient(base_url, model, api_key, wait=self.countdown)
        self.human = TerminalHuman(approve_all)
        door = h.confirm_with(self.human)
        tools = [h.make_read_tool(self.ws), h.guard(h.make_write_tool(self.ws), door),
                 h.guard(h.make_bash_tool(self.shell), door)]
        system = h.build_system_prompt(tools, h.discover_context(self.ws, "."), [],
                                       str(self.ws.root), datetime.date.today().isoformat())
        self.log = h.SessionLog(self.ws, SESSION)
        try:
            earlier = self.log.replay()
        except ValueError as exc:
            raise ChatError(LogNotResumable(str(exc))) from None
        self.resumed = len(earlier)
        self.harness = h.Harness(h.StreamingModel(self.client), system, tools, messages=earlier)
        self.harness.subscribe(h.persist_to(self.log))
        self._stop, self._loop = None, None  # the run in progress: its Stop event and loop
        self._stopping = False  # a Stop was asked for: the run's aborted ending is expected
        self.client_name = f"model {model} at {base_url}"

    def request_stop(self):
        """Ctrl-C during a run: safe to call from a signal handler or another thread."""
        stop, loop = self._stop, self._loop
        if stop is not None:
            loop.call_soon_threadsafe(stop.set)

    async def run(self, text):
        """One prompt, shown as it goes; True when the run ended well. A Stop is the harness's
        stop_run: cancel, GRACE turns, then hard; the commands it started are killed after."""
        self._stop, self._loop = asyncio.Event(), asyncio.get_running_loop()
        self._stopping = False
        task = asyncio.ensure_future(self._consume(self.harness.prompt(text)))
        stopped = asyncio.ensure_future(self._stop.wait())
        try:
            await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
            if not task.done():
                self._stopping = True
                how = await self.h.stop_run(self.harness, task, grace=GRACE)
                print(words.stopped(how), file=sys.stderr)
                return False
            return task.result()
        finally:
            stopped.cancel()
            self._stop = None
            self.shell.kill_all()

    async def _consume(self, run):
        last = None
        async for event in run:
            kind = event["type"]
            if kind == "tool_execution_start":
                call = event["call"]
                said = json.dumps(call["arguments"], ensure_ascii=False)  # café, not caf\u00e9
                print(words.call(call["name"], said), file=sys.stderr)
            elif kind == "message_end" and event["message"]["role"] == "assistant":
                last = event["message"]
        if last is None:
            return False
        if last["stop_reason"] == "aborted" and self._stopping:
            return False  # run() says how it was stopped
        if last["stop_reason"] in ("error", "aborted"):
            came = self.h.text_of(last)
            if came:  # what arrived before the failure: the person decides what it is worth
                print(came, flush=True)
            print(words.no_answer(self.client_name, last.get("error_message"),
                                  words_came=bool(came)), file=sys.stderr)
            return False
        print(self.h.text_of(last), flush=True)
        return True

    def fault(self, exc):
        """The harness file raised `exc` out of a run: show its traceback cut to that file's
        lines, and end the record with an error reply when the run left it ending in a user
        message or a result. The reply says so in words, so that the view keeps it and the
        next request is not two user messages in a row, which some servers refuse."""
        mine = Path(self.h.__file__).resolve()
        frames = [frame for frame in traceback.extract_tb(exc.__traceback__)
                  if Path(frame.filename).resolve() == mine]
        what = f"{type(exc).__name__}: {exc}"
        if frames:
            print(words.raised_here(mine.name, what, str(mine),
                                    "".join(traceback.format_list(frames))), file=sys.stderr)
        else:  # not the file's own line: the kit's fault, told in full
            print(words.raised_outside("".join(traceback.format_exception(exc))),
                  file=sys.stderr)
        messages = list(self.harness.messages)
        if messages and messages[-1]["role"] != "assistant":
            why = words.raised(mine.name, what)
            # with words, the view keeps it (lesson 10), so roles still take turns on the wire
            ending = {**self.h.error_message(why),
                      "content": [{"type": "text", "text": words.no_reply(why)}]}
            self.harness.replace_messages(messages + [ending])
            self.log.append_message(ending)
        print(words.goes_on(), file=sys.stderr)

    def close(self):
        self.shell.kill_all()
        self.client.close()


def _handle_sigint(chat):
    """Ctrl-C stops a run in progress (and answers no to a question it is waiting on); at the
    prompt, it raises KeyboardInterrupt as usual."""
    def handler(signum, frame):
        if chat._stop is None:
            raise KeyboardInterrupt
        if chat.countdown.waiting:
            raise KeyboardInterrupt  # out of the countdown's sleep: it gives up the second try
        chat.request_stop()
        if chat.human.asking:
            raise KeyboardInterrupt  # out of input(): ask() takes it as a no
    return handler


def _run(chat, text) -> bool:
    """One prompt to its end; a Ctrl-C in the instants before or after a run has a Stop to
    land on counts as a run that did not end well."""
    try:
        return asyncio.run(chat.run(text))
    except KeyboardInterrupt:
        print(words.stopped(), file=sys.stderr)
        return False
    except Exception as exc:  # the harness file's own fault: shown, and the session goes on
        chat.fault(exc)
        return False


def run_chat(args) -> int:
    """`course chat`, from its parsed arguments: 0 the run ended well, 1 not, 2 no start."""
    try:
        h = load_harness(args.harness)
        if args.harness != "solution" and not args.force:
            passes_the_last_lab(Path(args.harness))
        workdir = Path(args.workdir)
        if not workdir.is_dir():
            raise ChatError(NotAFolder("--workdir", str(workdir)))
        chat = Chat(h, workdir=workdir, base_url=args.base_url, model=args.model,
                    approve_all=args.yes, api_key=os.environ.get("OPENAI_API_KEY"))
    except ChatError as problem:
        print(words.refused(str(problem)), file=sys.stderr)
        return 2
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, _handle_sigint(chat))
    try:
        if chat.resumed:
            print(words.resumed(SESSION, chat.resumed), file=sys.stderr)
        if args.p is not None:
            return 0 if _run(chat, args.p) else 1
        while True:
            try:
                text = input("> ")
            except EOFError:  # Ctrl-D, or the end of piped input: the session is over
                print(file=sys.stderr)
                return 0
            except KeyboardInterrupt:
                print(words.stopped_at_the_prompt(SESSION), file=sys.stderr)
                return 130
            if text.strip():
                _run(chat, text)
    finally:
        signal.signal(signal.SIGINT, before)
        chat.close()


def add_parser(commands) -> None:
    """The `chat` subcommand's arguments, on course's subparsers."""
    chat = commands.add_parser("chat", help="run your harness.py on a real model, in a folder")
    chat.add_argument("--harness", required=True,
                      help='your harness.py (finished through lab 16.2), or "solution"')
    chat.add_argument("--base-url", required=True,
                      help="an OpenAI-compatible endpoint, e.g. http://localhost:11434/v1")
    chat.add_argument("--model", required=True, help="the model's name at that endpoint")
    chat.add_argument("--workdir", required=True, help="the folder the agent works in")
    chat.add_argument("-p", metavar="PROMPT", help="run one prompt, print the answer, exit")
    chat.add_argument("--yes", action="store_true",
                      help="allow every write and bash call without asking")
    chat.add_argument("--force", action="store_true",
                      help="chat with a harness.py that does not pass lab 16.2's tests")
