"""A harness.py cut into its definitions, so that `course start --mine` (lab/desk/carry.py)
merges what a student wrote definition by definition rather than line by line.

A file is a list of Parts, in order: each top-level statement (an import, an assignment, a
`def`, a `class`) and, inside a class, each method, with the comments and blank lines above it
as its `lead`. A class's own part holds its header and what comes before its first method.
Each part has a name that says which definition it is (`def truncate_head`,
`class Agent.run`, `= MAX_LINES`, `import json`), the same in every version of the file that
holds it, so three versions can be matched part for part.

The cut reads Python's tokens (tokenize), not its syntax tree: a starter whose gap leaves a
function with nothing but comments in it is not valid Python once those comments go, and the
tokens still say where each logical line begins and how deep it is.
"""
from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass

DEFINES = ("def", "class", "async", "@")


@dataclass
class Part:
    name: str  # which definition: the same in each version of the file that holds it
    lead: list[str]  # the comment and blank lines above it
    body: list[str]  # its own lines
    first: int  # the line its lead begins at, from 0

    @property
    def lines(self) -> list[str]:
        return self.lead + self.body


@dataclass
class _Logical:
    start: int  # first physical line, from 0
    end: int  # one past its last
    indent: int
    words: list[str]  # its first tokens


def _logical_lines(text: str) -> list[_Logical]:
    found: list[_Logical] = []
    current: list[tokenize.TokenInfo] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT,
                              tokenize.ENCODING) and not current:
                continue
            if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                if current:
                    first = current[0]
                    found.append(_Logical(first.start[0] - 1, token.start[0], first.start[1],
                                          [t.string for t in current[:4]]))
                current = []
                continue
            if token.type not in (tokenize.COMMENT, tokenize.NL):
                current.append(token)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    return found


def split(text: str) -> list[Part] | None:
    """The file's parts in order, or None when its tokens cannot be read. Joining every part's
    lines gives the file back exactly."""
    lines = text.splitlines(keepends=True)
    logical = _logical_lines(text)
    if text.strip() and not logical:
        return None
    starts: list[tuple[int, str]] = []  # (first line of the statement, its name)
    seen: dict[str, int] = {}
    in_class: tuple[str, int] | None = None  # the class whose methods are being cut, its indent
    for at, line in enumerate(logical):
        if line.indent == 0:
            in_class = None
        elif in_class is None or line.indent != in_class[1] or \
                line.words[0] not in ("def", "async", "@"):
            continue  # inside a definition: its lines belong to it
        name = _name(line, logical[at:], in_class[0] if in_class else None)
        if name is None:  # a decorator's line: the definition after it names the part
            continue
        if line.words[0] == "class" and line.indent == 0:
            body = next((x for x in logical[at + 1:]), None)
            in_class = (name[len("class "):], body.indent) if body and body.indent > 0 else None
        count = seen.get(name, 0)
        seen[name] = count + 1
        start = _decorated_from(logical, at)
        starts.append((start, name if not count else f"{name} ({count + 1})"))
    parts: list[Part] = []
    previous_end = 0
    for i, (start, name) in enumerate(starts):
        lead_from = previous_end
        end = starts[i + 1][0] if i + 1 < len(starts) else len(lines)
        body_end = _trimmed(lines, start, end)
        if i + 1 == len(starts):
            body_end = end
        parts.append(Part(name, lines[lead_from:start], lines[start:body_end], lead_from))
        previous_end = body_end
    if not starts:
        return [Part("", [], lines, 0)]  # no definition: the file is one part, named ""
    if previous_end < len(lines):
        parts[-1].body += lines[previous_end:]
    return parts


def _decorated_from(logical: list[_Logical], at: int) -> int:
    """The first line of the statement at `at`, its decorators included."""
    start = logical[at].start
    i = at - 1
    while i >= 0 and logical[i].words[0] == "@" and logical[i].indent == logical[at].indent:
        start = logical[i].start
        i -= 1
    return start


def _trimmed(lines: list[str], start: int, end: int) -> int:
    """Where a part from `start` ends before `end`: its trailing blank and comment lines go to
    the part after it, whose lead they are."""
    body_end = end
    while body_end > start + 1 and (not lines[body_end - 1].strip()
                                    or lines[body_end - 1].lstrip().startswith("#")):
        body_end -= 1
    return body_end


def _name(line: _Logical, rest: list[_Logical], owner: str | None) -> str | None:
    words = line.words
    if words[0] == "@":
        return None
    if words[0] == "async" and len(words) > 2:
        words = words[1:]
    if words[0] in ("def", "class") and len(words) > 1:
        name = f"{words[0]} {words[1]}"
        return f"class {owner}.{words[1]}" if owner and words[0] == "def" else name
    if words[0][-1:] in ("'", '"'):
        return "(a docstring)"
    if words[0] in ("import", "from"):
        return " ".join(words[:2])
    if len(words) > 1 and words[1] in ("=", ":", "+=", "|="):
        return f"= {words[0]}"
    return " ".join(words[:3])


def joined(parts: list[Part]) -> str:
    return "".join("".join(p.lines) for p in parts)
