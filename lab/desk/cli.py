"""The `course` command: its arguments, and the one place a student's mistake becomes one line
on stderr and exit code 2. Only a UserError is turned so; anything else keeps its traceback,
since it is the kit's own fault and must be reported, not mistaken for a typo."""
from __future__ import annotations

import argparse
import os
import sys

from lab.check.errors import UserError
from lab.desk import checking, hints, labs, launcher, progress


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="course", description="Your desk for the harness "
                                     "course: start labs, check them, get hints.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, what in (("start", "set up a lab in your work folder"),
                       ("check", "run a lab's tests on your harness.py"),
                       ("hint", "show the lab's next hint")):
        commands.add_parser(name, help=what).add_argument("lab", help='a lab id, like "15.1"')
    commands.choices["start"].add_argument(
        "--force", action="store_true", help="start it even though you have started a later "
                                             "lab")
    commands.choices["start"].add_argument(
        "--guided", action="store_true", help="a starter whose gaps spell out their steps (it "
                                             "replaces your file while that is untouched)")
    commands.choices["start"].add_argument(
        "--mine", action="store_true", help="make the starter from your own passing file of the "
                                            "lab before, with this lab's changes merged in (it "
                                            "replaces your file while that is untouched)")
    again = commands.add_parser("reset", help="put the starter back (keeps harness.py.bak)")
    again.add_argument("lab")
    again.add_argument("--yes", action="store_true", help="do not ask first")
    commands.add_parser("progress", help="where you are in the course")
    jl = commands.add_parser("lab", help="start JupyterLab on the course")
    jl.add_argument("extra", nargs=argparse.REMAINDER, help="flags for jupyter lab, after --")
    chat().add_parser(commands)
    return parser


def chat():
    """lab/desk/chat.py, imported here rather than at the top: only `course chat` needs httpx."""
    from lab.desk import chat
    return chat


def main(argv: list[str] | None = None) -> int:
    """The `course` command: start, check, progress, hint, reset, lab, chat. A reader that
    goes away (`course hint 14.1 | head`) ends it quietly, with Python's own recipe: nothing
    more can be said to it, and a traceback about a closed pipe would be noise."""
    try:
        return _command(argv)
    except BrokenPipeError:
        # What is still buffered for the closed pipe would raise again at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _command(argv: list[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "chat":
        return chat().run_chat(args)
    try:
        if args.command == "start":
            if not labs.try_start(args.lab, force=args.force, guided=args.guided,
                                  mine=args.mine):
                return 1
        elif args.command == "check":
            return checking.run(args.lab)
        elif args.command == "hint":
            hints.hint(args.lab)
        elif args.command == "reset":
            labs.reset(args.lab, confirm=not args.yes)
        elif args.command == "progress":
            progress.progress()
        elif args.command == "lab":
            extra = args.extra[1:] if args.extra[:1] == ["--"] else args.extra
            return launcher.jupyter(extra)
    except UserError as problem:
        print(problem, file=sys.stderr)
        return 2
    return 0
