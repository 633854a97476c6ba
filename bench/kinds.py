"""The kinds of wrong design readers wrote, as mechanical operators (issue 38, item 4).

Readers who held only a student release wrote wrong designs that passed their lab; most fall into
a few kinds (source/hunts/). Each kind here is an operator applied at every place it fits inside
a lab's gaps in its solution, so that a kind is tried everywhere, not only where a reader
thought of it. bench/mutation.py judges these mutants as it judges its one-token ones, with
`--kinds`, and reports them apart: they are whole wrong designs, and a survivor is either made to
fail by a test or judged in bench/mutation_kinds_judged.toml with the reason.

The kinds, each on Python's own syntax tree (positions from `ast`, the text edited in place):
- cap read for truth: `x is not None` becomes `x`, `x is None` becomes `not (x)` (a cap of 0,
  an empty steer or a blank reason taken for "none");
- the caller's list kept: `list(x)`, `dict(x)`, `tuple(x)`, `set(x)`, `x.copy()` and `x[:]`
  become `x` (a copy the harness should own, handed back or kept as the caller's);
- a try narrowed: the first statement of a try's body moved before it, or the last one after
  the whole try statement;
- a try widened: the statement just before a try moved into the start of its body, or the one
  just after it into the end;
- two adjacent checks swapped: two `if` statements in a row, each ending in return, raise,
  continue or break, in the other order;
- text stripped: a value put in a dict display, or returned, given `.strip()`;
- a loop given a limit: `while c:` runs at most LIMIT rounds, and a `for` over anything but a
  range takes at most LIMIT items.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

LIMIT = 300  # a loop given a limit: past the longest job a lab's tests draw (lab 3.1's, 290)
CHECK_ENDS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
COPIES = ("list", "dict", "tuple", "set")


@dataclass(frozen=True)
class Kind:
    """One mutant: the kind's name, the lines it touches (1-based, both included) and the
    whole mutated source."""
    name: str
    first: int
    last: int
    code: str


class _Source:
    """The source as lines, with edits made by (line, column) spans as ast gives them: columns
    count UTF-8 bytes, so each line is edited as bytes."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.encode("utf-8").splitlines(keepends=True)

    def segment(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.text, node) or ""

    def replace(self, node: ast.AST, new: str) -> str:
        """The source with `node`'s span replaced by `new`."""
        start = sum(len(x) for x in self.lines[:node.lineno - 1]) + node.col_offset
        end = sum(len(x) for x in self.lines[:node.end_lineno - 1]) + node.end_col_offset
        data = b"".join(self.lines)
        return (data[:start] + new.encode("utf-8") + data[end:]).decode("utf-8")

    def block(self, node: ast.stmt) -> list[bytes]:
        """The whole lines of a statement (decorators and comments above it not included)."""
        return self.lines[node.lineno - 1:node.end_lineno]

    def rebuilt(self, pieces: list[tuple[int, int, list[bytes]]]) -> str:
        """The source with each (first, last, new lines) replacing lines first..last (1-based,
        both included; last = first - 1 inserts before `first`), applied from the bottom up."""
        lines = list(self.lines)
        for first, last, new in sorted(pieces, key=lambda p: p[0], reverse=True):
            lines[first - 1:last] = new
        return b"".join(lines).decode("utf-8")


def _indented(lines: list[bytes], by: int) -> list[bytes]:
    """`lines` moved right by `by` columns (left, where negative); blank lines kept blank."""
    if by >= 0:
        return [b" " * by + line if line.strip() else line for line in lines]
    return [line[-by:] if line[:-by].strip() == b"" else line for line in lines]


def _bodies(tree: ast.AST) -> Iterator[list[ast.stmt]]:
    """Every list of statements in the tree: a module's, a function's, each branch's."""
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            body = getattr(node, name, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                yield body
        for handler in getattr(node, "handlers", []):
            yield handler.body


def mutants(text: str) -> Iterator[Kind]:
    """Every mutant of every kind in `text`, in a fixed order (kind, then place)."""
    tree = ast.parse(text)
    source = _Source(text)
    for make in (_cap_for_truth, _callers_list_kept, _try_narrowed, _try_widened,
                 _checks_swapped, _text_stripped, _loop_limited):
        yield from make(tree, source)


def _cap_for_truth(tree, source):
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
                isinstance(node.comparators[0], ast.Constant) and \
                node.comparators[0].value is None and isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            left = source.segment(node.left)
            new = left if isinstance(node.ops[0], ast.IsNot) else f"not ({left})"
            yield Kind("cap read for truth", node.lineno, node.end_lineno,
                       source.replace(node, new))


def _callers_list_kept(tree, source):
    for node in ast.walk(tree):
        kept = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in COPIES and len(node.args) == 1 and not node.keywords and \
                not isinstance(node.args[0], (ast.Starred, ast.GeneratorExp)):
            kept = node.args[0]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "copy" and not node.args and not node.keywords:
            kept = node.func.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and \
                node.slice.lower is node.slice.upper is node.slice.step is None:
            kept = node.value
        if kept is not None:
            yield Kind("the caller's list kept", node.lineno, node.end_lineno,
                       source.replace(node, source.segment(kept)))


def _try_narrowed(tree, source):
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try) or len(node.body) < 2:
            continue
        out = node.body[0].col_offset - node.col_offset
        first = node.body[0]
        yield Kind("a try narrowed", node.lineno, first.end_lineno, source.rebuilt([
            (first.lineno, first.end_lineno, []),
            (node.lineno, node.lineno - 1, _indented(source.block(first), -out))]))
        last = node.body[-1]
        yield Kind("a try narrowed", last.lineno, node.end_lineno, source.rebuilt([
            (last.lineno, last.end_lineno, []),
            (node.end_lineno + 1, node.end_lineno, _indented(source.block(last), -out))]))


def _try_widened(tree, source):
    for body in _bodies(tree):
        for i, node in enumerate(body):
            if not isinstance(node, ast.Try):
                continue
            into = node.body[0].col_offset - node.col_offset
            if i > 0 and not isinstance(body[i - 1], (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.ClassDef)):
                before = body[i - 1]
                yield Kind("a try widened", before.lineno, node.lineno, source.rebuilt([
                    (before.lineno, before.end_lineno, []),
                    (node.body[0].lineno, node.body[0].lineno - 1,
                     _indented(source.block(before), into))]))
            if i + 1 < len(body) and not isinstance(body[i + 1], (
                    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                after = body[i + 1]
                end = node.body[-1].end_lineno
                yield Kind("a try widened", node.lineno, after.end_lineno, source.rebuilt([
                    (after.lineno, after.end_lineno, []),
                    (end + 1, end, _indented(source.block(after), into))]))


def _is_check(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and not node.orelse and isinstance(node.body[-1], CHECK_ENDS)


def _checks_swapped(tree, source):
    for body in _bodies(tree):
        for a, b in zip(body, body[1:]):
            if _is_check(a) and _is_check(b) and a.end_lineno < b.lineno:
                yield Kind("two checks swapped", a.lineno, b.end_lineno, source.rebuilt([
                    (a.lineno, a.end_lineno, source.block(b)),
                    (b.lineno, b.end_lineno, source.block(a))]))


def _text_stripped(tree, source):
    values = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            values += [v for v in node.values if v is not None]
        elif isinstance(node, ast.Return) and node.value is not None:
            values.append(node.value)
    for value in values:
        if isinstance(value, (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.JoinedStr,
                              ast.BinOp)):
            yield Kind("text stripped", value.lineno, value.end_lineno,
                       source.replace(value, f"({source.segment(value)}).strip()"))


def _loop_limited(tree, source):
    for node in ast.walk(tree):
        if isinstance(node, ast.While) and node.test.lineno == node.test.end_lineno == \
                node.lineno:
            test = source.segment(node.test)
            header = source.lines[node.lineno - 1]
            indent = header[:len(header) - len(header.lstrip())]
            inner = b" " * node.body[0].col_offset
            new = [indent + f"for _round in range({LIMIT}):\n".encode()]
            if not (isinstance(node.test, ast.Constant) and node.test.value is True):
                new.append(inner + f"if not ({test}):\n".encode() + inner + b"    break\n")
            if node.orelse:  # a while's else runs when its test fails; a cut loop's does not
                continue
            yield Kind("a loop given a limit", node.lineno, node.end_lineno,
                       source.rebuilt([(node.lineno, node.lineno, new)]))
        elif isinstance(node, (ast.For, ast.AsyncFor)) and not (
                isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name) and
                node.iter.func.id == "range"):
            if isinstance(node, ast.AsyncFor):
                continue  # no islice for an async iterator
            iterable = source.segment(node.iter)
            yield Kind("a loop given a limit", node.lineno, node.end_lineno, source.replace(
                node.iter, f"__import__('itertools').islice({iterable}, {LIMIT})"))
