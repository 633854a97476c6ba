"""Every lab's harness.py, starter and solution, made from the one source, source/harness.src.py.

A lab's starter is the previous lab's reference with this lab's gaps opened, and its solution
is the same file with the gaps filled. Writing each version by hand would let them drift, so
the source holds every version once, with "#:" directives that say which lab each piece of text
belongs to (the directive grammar is at the top of the source). This module parses it and
renders one lab's file; tools/make.py writes the files and checks the committed ones.

A starter comes at two levels, rendered from the same gaps. The standard starter (mode
"starter", the default a student gets) shows each gap's contract: what must hold, which given
names to use, which tests answer for it. The guided starter (mode "guided", `course start LAB
--guided`) shows the gap's recipe, written under `#: guided`; a gap without one shows its
contract at both levels. The code lines a gap's starter holds (a `pass`, a previous body) are
written in both sections alike, so both levels fail the same tests.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from lab.check import spoken
from lab.check import manifest
from lab.check.manifest import key

SOURCE = Path(__file__).resolve().parent.parent / "source" / "harness.src.py"
OPEN, CLOSE = manifest.GAP_OPEN, manifest.GAP_CLOSE


class SourceError(ValueError):
    """The source breaks the directive grammar; the message names the line."""


@dataclass
class Block:
    kind: str  # "from" or "gap"
    lab: str
    line: int
    indent: str
    number: int = 0
    name: str = ""
    new: list = field(default_factory=list)  # text from the block's lab on
    starter: list = field(default_factory=list)  # a gap's contract, in its own lab's starter
    before: list = field(default_factory=list)  # text for earlier labs
    plus_before: bool = False  # the starter is followed by the before text
    guided: list | None = None  # a gap's recipe, in its own lab's guided starter
    guided_plus_before: bool = False  # the guided text is followed by the before text


@dataclass
class Given:
    lab: str
    reason: str
    indent: str


DIRECTIVE = re.compile(r"^(\s*)#:\s?(.*)$")


def parse(text: str) -> list:
    """The source as a tree of text lines, Blocks and Givens."""
    root: list = []
    stack: list[tuple[Block, list]] = []  # open blocks and the section being filled
    current = root
    notes = True  # the "#:" lines that open the file are its own notes, not directives
    for number, line in enumerate(text.splitlines(), 1):
        match = DIRECTIVE.match(line)
        if not match:
            notes = False
            current.append(line)
            continue
        if notes:
            continue
        indent, words = match.group(1), match.group(2).split()
        verb = words[0] if words else ""
        if verb == "from" and len(words) == 2:
            block = Block("from", words[1], number, indent)
            current.append(block)
            stack.append((block, current))
            current = block.new
        elif verb == "gap" and len(words) >= 4:
            block = Block("gap", words[1], number, indent, int(words[2]), " ".join(words[3:]))
            current.append(block)
            stack.append((block, current))
            current = block.new
        elif verb == "given" and len(words) >= 3:
            current.append(Given(words[1], " ".join(words[2:]), indent))
        elif verb == "starter":
            if not stack or stack[-1][0].kind != "gap":
                raise SourceError(f"line {number}: 'starter' outside a gap")
            stack[-1][0].plus_before = words[1:] == ["+before"]
            current = stack[-1][0].starter
        elif verb == "guided":
            if not stack or stack[-1][0].kind != "gap":
                raise SourceError(f"line {number}: 'guided' outside a gap")
            stack[-1][0].guided_plus_before = words[1:] == ["+before"]
            stack[-1][0].guided = []
            current = stack[-1][0].guided
        elif verb == "before":
            if not stack:
                raise SourceError(f"line {number}: 'before' outside a block")
            current = stack[-1][0].before
        elif verb == "end":
            if not stack:
                raise SourceError(f"line {number}: 'end' with no block open")
            _, current = stack.pop()  # back to the parent's section the block sat in
        else:
            raise SourceError(f"line {number}: cannot read the directive {line.strip()!r}")
    if stack:
        raise SourceError(f"line {stack[-1][0].line}: block never closed with '#: end'")
    return root


def gaps(tree: list, lab_id: str) -> list[Block]:
    """The gaps that `lab_id`'s starter opens, in file order, each once (a gap may be split
    over several places in the file under one number)."""
    found: dict[int, Block] = {}

    def walk(nodes):
        for node in nodes:
            if isinstance(node, Block):
                if node.kind == "gap" and node.lab == lab_id:
                    found.setdefault(node.number, node)
                walk(_section(node, lab_id, "solution"))  # only what this lab's file shows
    walk(tree)
    return [found[n] for n in sorted(found)]


STARTERS = ("starter", "guided")  # the two levels of a starter: the contract, the recipe


def _section(block: Block, lab_id: str, mode: str) -> list:
    here, there = key(lab_id), key(block.lab)
    if here < there:
        return block.before
    if block.kind == "gap" and here == there and mode in STARTERS:
        if mode == "guided" and block.guided is not None:
            return block.guided + (block.before if block.guided_plus_before else [])
        return block.starter + (block.before if block.plus_before else [])
    return block.new


def render(tree: list, lab_id: str, mode: str, *, open_only: int | None = None) -> str:
    """`lab_id`'s harness.py. mode is "solution", "starter" (the standard level) or "guided".
    With open_only=N the file is the solution with only gap N opened: the starter of one gap,
    for checking that each gap on its own makes its lab's tests fail."""
    total = len(gaps(tree, lab_id))
    out: list[str] = []
    opened: set[int] = set()

    def emit(nodes):
        for node in nodes:
            if isinstance(node, str):
                out.append(node)
            elif isinstance(node, Given):
                if node.lab == lab_id:
                    out.append(f"{node.indent}# given in lesson {key(node.lab)[0]}: {node.reason}")
            else:
                is_open = (node.kind == "gap" and node.lab == lab_id and mode in STARTERS
                           and open_only in (None, node.number))
                if is_open:
                    first = node.number not in opened
                    opened.add(node.number)
                    label = f" gap {node.number} of {total}: {node.name}" if first else \
                        f" gap {node.number}, continued"
                    out.append(f"{node.indent}{OPEN}{label}")
                    emit(_section(node, lab_id, mode))
                    out.append(f"{node.indent}{CLOSE}")
                else:
                    emit(_section(node, lab_id, "solution"))
    emit(tree)
    return "\n".join(out) + "\n"


def header(lab, mode: str, *, page: bool = False) -> str:
    """The first lines of a generated file. A starter says what it is and how to check it,
    and nothing about how the kit is built: a student's copy has no source/ or tools/. Only a
    solution, which students never get, names the file it is made from. For the browser's
    `page` (tools/site.py), which has no terminal, a starter says to check in a cell, in as
    many lines, so that a diff's line numbers hold for either."""
    if mode == "solution":
        return (f"# harness.py for {lab.name}, \"{lab.title}\": the reference solution.\n"
                "# Made by tools/make.py from source/harness.src.py; edit the source, not this file.\n")
    level = ", guided level: each gap spells out its steps" if mode == "guided" else ""
    if page:
        how = ("in a cell of a notebook:\n"
               f"#     {spoken.in_cell('check', lab.id)}\n")
    else:
        how = ("from its lab folder:\n"
               f"#     python lab/lab_check.py --harness harness.py --lesson {lab.lesson.number} "
               "tests.py\n")
    return (f"# harness.py for lab {lab.id}, \"{lab.title}\" (lesson {lab.lesson.number}{level}).\n"
            f"# Fill the gaps marked '{OPEN}', then check the file {how}")


def make(lab, mode: str, *, open_only: int | None = None, tree=None) -> str:
    tree = parse(SOURCE.read_text(encoding="utf-8")) if tree is None else tree
    return header(lab, mode) + render(tree, lab.id, mode, open_only=open_only)
