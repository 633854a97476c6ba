"""How much of a lab the page hands over: issue 39's measure of what a student can copy.

A lab's answer lines are its solution's lines that its standard starter lacks. One counts as
shown when (a) a line with nearly the same tokens stands somewhere the student reads before the
lab is done, or (b) its gap's comment or one sentence of the lab's Build section names every
distinctive name it uses: dictation in English is shown too. source/copying.md holds the full
definition (fixed before the measure was first run, so that no result could tune it), the
measure's table per lab, and the bar; tests/authoring/test_starter_levels.py holds the labs to
that table.

usage: python -m tools.copying [--lines LAB ...] [--readers] [--write]
  prints every lab's figure, the course's, and how the measure ranks the labs readers measured;
  --lines lists a lab's answer lines and where each was shown; --readers sets each answer line's
  "shown" beside the class its reader gave it (source/copying-lines.md), on the kit the reader
  read; --write puts the table, and the readers' lines table, into source/copying.md (for an
  author whose rewrite lowered a lab's figure)
"""
from __future__ import annotations

import ast
import builtins
import difflib
import functools
import html
import io
import keyword
import re
import statistics
import tokenize
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from lab.check import manifest
from tools import labsource, notebooks

NOTES = Path(__file__).resolve().parent.parent / "source" / "copying.md"
NEAR = 0.8  # (a): the token similarity at which a line counts as shown (copying.md says why)
LAB_MOST, COURSE_MOST = Fraction(1, 5), Fraction(1, 10)  # issue 39's bar, the target
HUNTS = NOTES.parent / "hunts" / "README.md"
HUNT_ROW = re.compile(r"^\| (\d+\.\d+) \| (\d+) \|.*\| (\d+) % \|\s*$")


def latest_readers(text: str | None = None) -> dict[str, int]:
    """Each lab's latest release-only reader: the share of their passing file they counted as
    transcribed or nearly, from the last column of the hunt's table (source/hunts/README.md),
    the round with the highest number. The labs change between rounds, so only the latest
    reader read the lab as it stands."""
    latest: dict[str, tuple[int, int]] = {}
    for line in (HUNTS.read_text(encoding="utf-8") if text is None else text).splitlines():
        if found := HUNT_ROW.match(line):
            lab, hunt, copied = found.group(1), int(found.group(2)), int(found.group(3))
            if hunt >= latest.get(lab, (0, 0))[0]:
                latest[lab] = (hunt, copied)
    return {lab: copied for lab, (_, copied) in latest.items()}


READERS = latest_readers()

EMPTY = set(keyword.kwlist) | set(keyword.softkwlist) | {"True", "False", "None"}
# What Python gives every programmer, so naming it dictates nothing: its builtins, and the
# methods of its built-in types and of deque.
PYTHON = set(dir(builtins)).union(*(dir(kind) for kind in (
    str, bytes, int, float, list, tuple, dict, set, frozenset, deque)))
LAYOUT = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
          tokenize.ENDMARKER}


# --- the answer lines --------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def code_of(line: str) -> str:
    """`line` without its comment, whitespace-normalised. A '#' inside a string is kept."""
    out, quote, i = [], None, 0
    while i < len(line):
        char = line[i]
        if quote:
            if char == "\\":
                out.append(line[i:i + 2])
                i += 2
                continue
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "#":
            break
        out.append(char)
        i += 1
    return " ".join("".join(out).split())


NAME = re.compile(r"[A-Za-z_]\w*")
STRING = re.compile(r"""[rbfRBF]*("[^"\\]*(?:\\.[^"\\]*)*"|'[^'\\]*(?:\\.[^'\\]*)*')""")


def counted(code: str) -> bool:
    """Whether a code line carries something of its own: a string, or a name that is not a
    keyword or a constant (`else:`, `return False` and `)` carry nothing)."""
    if STRING.search(code):
        return True
    return any(name not in EMPTY for name in NAME.findall(code))


@dataclass(frozen=True)
class Answer:
    code: str  # whitespace-normalised, without its comment
    gap: int  # the number of the gap it fills


def _missing(starter: str, solution: list[str]) -> list[int]:
    """The indices of `solution`'s lines that `starter` lacks, compared line by line."""
    matcher = difflib.SequenceMatcher(None, [code_of(line) for line in starter.splitlines()],
                                      solution, autojunk=False)
    return [i for tag, _, _, low, high in matcher.get_opcodes()
            if tag in ("replace", "insert") for i in range(low, high)]


def answers(lab: manifest.Lab, tree) -> list[Answer]:
    """The lines the lab asks for, in file order, each with the gap it belongs to (found by
    opening one gap at a time)."""
    solution = [code_of(line) for line in labsource.render(tree, lab.id, "solution").splitlines()]
    gap_of: dict[int, int] = {}
    for gap in labsource.gaps(tree, lab.id):
        one = labsource.render(tree, lab.id, "starter", open_only=gap.number)
        for i in _missing(one, solution):
            gap_of.setdefault(i, gap.number)
    starter = labsource.render(tree, lab.id, "starter")
    return [Answer(solution[i], gap_of.get(i, 0)) for i in _missing(starter, solution)
            if solution[i] and counted(solution[i])]


# --- what the student reads before the lab is done ---------------------------------------------

@dataclass(frozen=True)
class Place:
    where: str  # "cell 19", "cell 19's output", "the starter, line 246", "hint 2"
    text: str  # one line of it


def added(lab: manifest.Lab, tree) -> list[tuple[int, str]]:
    """The standard starter's lines that the previous lab's reference does not hold, with their
    line numbers: its gap comments, given lines and docstrings. A line the student wrote in the
    lab before is theirs, not something this lab shows them."""
    starter = labsource.make(lab, "starter", tree=tree).splitlines()
    order = list(manifest.labs(built_only=True))
    at = order.index(lab)
    if at == 0:
        return list(enumerate(starter, 1))
    before = labsource.make(order[at - 1], "solution", tree=tree).splitlines()
    matcher = difflib.SequenceMatcher(None, before, starter, autojunk=False)
    return [(i + 1, starter[i]) for tag, _, _, low, high in matcher.get_opcodes()
            if tag in ("replace", "insert") for i in range(low, high)]


@functools.lru_cache(maxsize=None)
def _built(number: int):
    lesson = manifest.lesson(number)
    if not lesson.source.is_file():
        return [], {}
    return list(notebooks.build(lesson).cells), notebooks.pins(lesson)


def cells_read(lab: manifest.Lab, *, whole_page: bool = False) -> list[tuple[int, object, str]]:
    """The lesson's cells a student reads before the lab is done, as (number, cell, its text):
    every cell up to the end of the lab's own section (its start, hints, starter and tests in
    plain words; the cells after it, a Tau comparison or the closing card, are read once the lab
    is done), with every lab's last hint level taken out. `whole_page` takes every cell."""
    cells, _ = _built(lab.lesson.number)
    own = [at for at, cell in enumerate(cells) if f"`course check {lab.id}`" in cell.source
           or (lab.hints and lab.hints[0].strip() in cell.source)]
    if own and not whole_page:
        cells = cells[:own[-1] + 1]
    out = []
    for number, cell in enumerate(cells):
        text = cell.source
        for other in lab.lesson.labs:
            if len(other.hints) == 3:
                text = text.replace(other.hints[2].strip(), "")
        out.append((number, cell, html.unescape(text) if cell.cell_type == "markdown" else text))
    return out


def places(lab: manifest.Lab, tree) -> list[Place]:
    """Every line the student reads before the lab is done, by where it stands."""
    _, pins = _built(lab.lesson.number)
    found = []
    for number, cell, text in cells_read(lab):
        found += [Place(f"cell {number}", line) for line in text.splitlines()]
        found += [Place(f"cell {number}'s output", line)
                  for line in pins.get(cell.id, "").splitlines()]
    found += [Place(f"the starter, line {number}", line) for number, line in added(lab, tree)]
    for level, hint in enumerate(lab.hints[:-1], 1):
        found += [Place(f"hint {level}", line) for line in hint.splitlines()]
    found += [Place(f"tests.py, line {number}", line)
              for number, line in enumerate(lab.tests.read_text(encoding="utf-8").splitlines(), 1)]
    return [place for place in found if place.text.strip()]


SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
HEADING = re.compile(r"^#{1,3} ")


def build_sentences(lab: manifest.Lab) -> list[str]:
    """The sentences of the lab's Build section: from its last "## Build" heading before the
    lab's own cells to the next heading, Markdown only, one sentence or list item each."""
    lines, inside = [], False
    for _, cell, text in cells_read(lab):
        if cell.cell_type != "markdown":
            continue
        for line in text.splitlines():
            if line.startswith("## Build"):
                lines, inside = [], True
            elif HEADING.match(line):
                inside = False
            elif inside and line.strip():
                lines.append(line)
    return [sentence for line in lines for sentence in SENTENCE_END.split(line.strip())
            if sentence]


GAP = re.compile(re.escape(labsource.OPEN) + r" gap (\d+)(?: of \d+: (.*)|, continued)$")


def gap_comments(starter: str) -> dict[int, str]:
    """What the standard starter shows inside each gap, its label and every place of it."""
    texts: dict[int, list[str]] = defaultdict(list)
    current = None
    for line in starter.splitlines():
        line = line.strip()
        opened = GAP.match(line)
        if opened:
            current = int(opened.group(1))
            texts[current].append(opened.group(2) or "")
        elif line == labsource.CLOSE:
            current = None
        elif current is not None:
            texts[current].append(line.lstrip("#").strip())
    return {number: "\n".join(text) for number, text in texts.items()}


# --- (a): nearly the same tokens ---------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def token_infos(text: str) -> tuple[tokenize.TokenInfo, ...]:
    """`text`'s tokens by Python's tokenizer, layout and comments left out. Prose tokenizes
    too (an apostrophe is an error token, kept); a line cut mid-bracket gives its tokens so far."""
    out = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text.strip()).readline):
            if token.type not in LAYOUT and token.string.strip():
                out.append(token)
    except (tokenize.TokenError, SyntaxError):
        pass
    return tuple(out)


def tokens(text: str) -> tuple[str, ...]:
    """`text`'s tokens as (a) compares them. A string literal stands as the tokens of its text,
    since that text is what a cell prints and what prose quotes; an f-string's fields stand as
    their expressions' tokens."""
    out: list[str] = []
    for token in token_infos(text):
        if token.type == tokenize.STRING:
            for _, part in _pieces(token.string):
                out += tokens(part)
        else:
            out.append(token.string)
    return tuple(out)


class Reading:
    """The lines a student reads, tokenized once, with an index from each token to the lines
    that hold it, so that each answer line is compared only with lines that could reach NEAR."""

    def __init__(self, found: list[Place]):
        self.lines: list[tuple[str, ...]] = []
        self.where: list[Place] = []
        seen: set[tuple[str, ...]] = set()
        for place in found:
            # A comment, Markdown's backticks: read as text, so what they hold is compared.
            held = tokens(place.text.replace("#", " ").replace("`", " "))
            if held and held not in seen:
                seen.add(held)
                self.lines.append(held)
                self.where.append(place)
        self.holding: dict[str, set[int]] = defaultdict(set)
        for at, line in enumerate(self.lines):
            for token in line:
                self.holding[token].add(at)
        self.counts = [Counter(line) for line in self.lines]

    def nearest(self, code: str) -> tuple[float, Place | None]:
        """The best ratio of `code`'s tokens to a run of as many tokens of one line read (or
        the whole line, when shorter), and where that line stands (with the run, for a longer
        line). Lines that cannot reach NEAR are not compared, so a best under NEAR may be
        understated (0.0 and None when no line could reach it)."""
        answer = tokens(code)
        n = len(answer)
        if not n:
            return 0.0, None
        # A line reaches NEAR only if it holds one of the n // 3 + 1 rarest of the answer's
        # tokens: missing all of them leaves too few to match, whatever the line's length.
        need, chosen = n // 3 + 1, set()
        counts = Counter(answer)
        for token in sorted(counts, key=lambda token: len(self.holding.get(token, ()))):
            chosen |= self.holding.get(token, set())
            need -= counts[token]
            if need <= 0:
                break
        matcher = difflib.SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(answer)
        best, where = 0.0, None
        for at in sorted(chosen):
            line, held = self.lines[at], self.counts[at]
            if sum(min(count, held[token]) for token, count in counts.items()) < NEAR * min(
                    n, (n + len(line)) / 2):
                continue  # too few tokens in common anywhere in the line
            if len(line) <= n:
                starts = [0]
            else:  # the runs whose tokens in common with the answer could reach NEAR
                starts, window, common = [], Counter(), 0
                for i, token in enumerate(line):
                    common += window[token] < counts[token]
                    window[token] += 1
                    if i >= n:
                        gone = line[i - n]
                        window[gone] -= 1
                        common -= window[gone] < counts[gone]
                    if i >= n - 1 and common >= NEAR * n:
                        starts.append(i - n + 1)
            for start in starts:
                matcher.set_seq1(line[start:start + n])
                if matcher.ratio() > best:
                    best, where = matcher.ratio(), self.where[at]
                    if len(line) > n:  # a long line: what an author looks for is the run
                        where = Place(where.where, "... " + " ".join(line[start:start + n]))
        return best, where


# --- (b): dictated in English ------------------------------------------------------------------

WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def stem(word: str) -> str:
    word = word.lower()
    for suffix in ("ing", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 2 and not word.endswith("ss"):
            word = word[:-len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def words(text: str) -> str:
    """`text` as its stemmed words, space-separated and space-framed, for finding a name's
    words one after the other."""
    return " " + " ".join(stem(word) for word in WORD.findall(text)) + " "


def _pieces(string: str) -> list[tuple[bool, str]]:
    """A string literal as (is code, text) pieces: its text; for an f-string, the text outside
    its {fields} (its escapes read, so `\\n` is the newline a plain string's would be) and each
    field's expression, in order, as Python 3.12's tokenizer reads it."""
    prefix = re.match(r"[rbfuRBFU]*", string).group(0)
    if "f" not in prefix.lower():
        try:
            value = ast.literal_eval(string)
        except (ValueError, SyntaxError):
            return []
        return [(False, value.decode(errors="replace") if isinstance(value, bytes) else str(value))]
    body = string[len(prefix):]
    quote = body[:3] if body[:3] in ('"""', "'''") else body[:1]
    body = body[len(quote):len(body) - len(quote)].replace("{{", "\0").replace("}}", "\1")
    pieces, at = [], 0
    for replaced in re.finditer(r"\{([^{}]*)\}", body):
        pieces.append((False, body[at:replaced.start()]))
        pieces.append((True, re.sub(r"(![rsa])?(:[^'\"]*)?$", "", replaced.group(1))))
        at = replaced.end()
    pieces.append((False, body[at:]))
    plain = prefix.replace("f", "").replace("F", "")
    out = []
    for code, text in pieces:
        text = text.replace("\0", "{").replace("\1", "}")
        if text and not code and "\\" in text:
            try:  # the text outside the fields with its escapes read, as a plain string's
                text = ast.literal_eval(f"{plain}{quote}{text}{quote}")
            except (ValueError, SyntaxError):
                pass
        if text:
            out.append((code, text))
    return out


def _literal_parts(string: str) -> list[str]:
    """A string literal's text; for an f-string, the parts outside its {fields}."""
    return [text for code, text in _pieces(string) if not code]


def _items(infos: tuple[tokenize.TokenInfo, ...], at: int) -> list[tuple[str, str]]:
    """What the token at `at` may have to be named by, as ("name", name) or ("string", text)."""
    token = infos[at]
    if token.type == tokenize.NAME and token.string not in EMPTY | PYTHON:
        return [("name", token.string)]
    if token.type == tokenize.STRING:
        return [("string", " ".join(part.split())) for part in _literal_parts(token.string)
                if re.search(r"[A-Za-z]", part)]
    return []


def vocabulary(text: str) -> frozenset[tuple[str, str]]:
    """Every name and string literal of a file: what a student holding it already has."""
    found = set()
    for line in text.splitlines():
        infos = token_infos(line)
        for at in range(len(infos)):
            found.update(_items(infos, at))
    return frozenset(found)


def distinctive(code: str, known: frozenset = frozenset()) -> list[tuple[str, str]]:
    """What must be named for the line to count as dictated, as ("name", name) and
    ("string", text): the names it calls, the attributes it reaches and its string literals
    with a letter in them; neither Python's own names nor what the student's file already holds
    (`known`), which a student reaches for untold. A line with none is the student's design."""
    infos = token_infos(code)
    found = []
    for at, token in enumerate(infos):
        before = infos[at - 1].string if at else ""
        after = infos[at + 1].string if at + 1 < len(infos) else ""
        if token.type == tokenize.STRING or before == "." or after == "(":
            found += [item for item in _items(infos, at) if item not in known]
    return list(dict.fromkeys(found))


def named(wanted: list[tuple[str, str]], text: str) -> bool:
    """Whether `text` names every one of `wanted`."""
    if not wanted:
        return False
    said, flat = words(text), " ".join(text.split())
    return all(words(value) in said if kind == "name" else value in flat
               for kind, value in wanted)


# --- a lab's figure ----------------------------------------------------------------------------

@dataclass
class Figure:
    lab: str
    lines: list[Answer]
    near: dict[int, tuple[float, Place]] = field(default_factory=dict)  # (a): line -> where
    dictated: dict[int, str] = field(default_factory=dict)  # (b): line -> where

    @property
    def shown(self) -> list[int]:
        return sorted(set(self.near) | set(self.dictated))

    @property
    def share(self) -> Fraction:
        return Fraction(len(self.shown), len(self.lines)) if self.lines else Fraction(0)

    def words(self) -> str:
        return (f"lab {self.lab}: {len(self.shown)} of {len(self.lines)} answer lines shown "
                f"({percent(self.share)}; {len(self.near)} by a near line, {len(self.dictated)} "
                f"dictated in English)")

    def details(self) -> str:
        """Each line counted as shown, and where: what an author rewrites."""
        out = []
        for at in self.shown:
            line = self.lines[at]
            why = []
            if at in self.near:
                ratio, place = self.near[at]
                why.append(f"{place.where} ({ratio:.2f}): {' '.join(place.text.split())[:100]}")
            if at in self.dictated:
                why.append(self.dictated[at])
            out.append(f"  gap {line.gap}: {line.code}\n" +
                       "\n".join(f"      shown in {reason}" for reason in why))
        return "\n".join(out)


def percent(share: Fraction) -> str:
    return f"{round(100 * share)} %"


def parsed_source():
    return labsource.parse(labsource.SOURCE.read_text(encoding="utf-8"))


def measure(lab_id: str, tree=None) -> Figure:
    tree = tree if tree is not None else parsed_source()
    lab = manifest.lab(lab_id)
    figure = Figure(lab_id, answers(lab, tree))
    reading = Reading(places(lab, tree))
    comments = gap_comments(labsource.render(tree, lab_id, "starter"))
    sentences = build_sentences(lab)
    order = list(manifest.labs(built_only=True))
    at = order.index(lab)
    known = vocabulary(labsource.render(tree, order[at - 1].id, "solution")) if at else frozenset()
    for at, line in enumerate(figure.lines):
        ratio, place = reading.nearest(line.code)
        if ratio >= NEAR:
            figure.near[at] = (ratio, place)
        wanted = distinctive(line.code, known)
        if named(wanted, comments.get(line.gap, "")):
            figure.dictated[at] = f"gap {line.gap}'s comment, which names {_listed(wanted)}"
        else:
            sentence = next((s for s in sentences if named(wanted, s)), None)
            if sentence:
                figure.dictated[at] = (f"the Build sentence \"{sentence[:90]}\", which names "
                                       f"{_listed(wanted)}")
    return figure


def _listed(wanted: list[tuple[str, str]]) -> str:
    return ", ".join(value if kind == "name" else repr(value) for kind, value in wanted)


def course_share(figures: list[Figure]) -> Fraction:
    return Fraction(sum(len(f.shown) for f in figures), sum(len(f.lines) for f in figures))


def spearman(ours: list[float], theirs: list[float]) -> float:
    """Spearman's rank correlation: Pearson's on the ranks, ties given their mean rank."""
    def ranks(values):
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return out
    return statistics.correlation(ranks(ours), ranks(theirs))
