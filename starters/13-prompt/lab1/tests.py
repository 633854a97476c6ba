"""Lesson 13, lab 1: say what is there. The tests of build_system_prompt, discover_context and the
tools' snippet and guidelines: a system prompt made from the enabled tools, the project's
AGENTS.md files and the skills, in a fixed order, from its arguments alone.

Each rule is checked over a family of cases drawn under the check's seed: any number of tools in
any order, with and without snippets and guidelines, guidelines shared within and across tools,
any number of context files and skills, a tool named read or not, any date and folder. The
opening line and the sentence over the skills index are your own words, so the tests check where
they stand and what follows them, never how they are worded; the headings "Available tools:" and
"Guidelines:" are the lesson's, and are checked word for word.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 13 tests.py
"""
import builtins
import copy
import datetime
import os
import platform
import re
import sys
import tempfile
import time
import zlib

import harness
import lab
from lab.kit import Everywhere, Noted, NotedList, lab_test, tool

LAB = "13.1"
TODAY, CWD = "2026-03-14", "/work/shop"
DATE = "Current date: 2026-03-14\nCurrent working directory: /work/shop"

# The pools the families draw from. Tool names are not in alphabetical order, so a sorted list
# shows; folder names mix capitals, digits and names that begin other names ("ap", "api",
# "apis"), so string order, depth order and a prefix test all differ.
NAMES = ["zip", "ask", "lint", "cat", "web", "fmt", "diff", "todo", "edit", "grep", "find", "test"]
SNIPPETS = ["Pack files", "Ask the user", "Check the style", "Show a file", "Fetch a page",
            "Format code", "Compare two files", "Keep a list", "Change part of a file"]
ADVICE = ["Be brief.", "Quote paths.", "Ask before deleting.", "Run the tests.",
          "Keep diffs small.", "Name the branch.", "Prefer read.", "Log what you ran.",
          "Check the date.", "Say why before you act.", "Read before you write.",
          "Keep the user informed.", "Stop when unsure.", "Use the project's style.",
          "Never guess a path.", "Explain each change."]
FOLDERS = ["services", "api", "ap", "apis", "Api", "v2", "2024", "web", "src", "Src", "lib"]
WORDS = ["Use", "tabs", "run", "pytest", "-q", "never", "edit", "migrations/", "ask", "first",
         "keep", "commits", "small", "the", "billing", "database", "is", "slow"]
SKILLS = [{"name": n, "description": d, "path": f"skills/{n}.md"} for n, d in (
    ("release", "Cut a release."), ("migrate", "Write a database migration."),
    ("deploy", "Ship a release to production."), ("bisect", "Find the commit that broke it."),
    ("lint", "Fix style."), ("audit", "Review a dependency."))]
SKILL = SKILLS[2]


class Unreadable(Exception):
    """What a workspace of the caller's own may raise: an exception class of its own."""


# What reading an AGENTS.md may raise, in three families, so that a walk that swallows one kind
# and not another shows: a disk's OSError, a text that is not UTF-8, and anything else.
REFUSALS = [[(PermissionError, "Permission denied"), (OSError, "Input/output error"),
             (TimeoutError, "the network drive did not answer"),
             (FileNotFoundError, "removed since exists() answered"),
             (IsADirectoryError, "Is a directory")],
            [(lambda words: UnicodeDecodeError("utf-8", b"\xff", 0, 1, words),
              "invalid start byte"), (ValueError, "not a text file")],
            [(Unreadable, "locked by another program"), (RuntimeError, "the drive was unplugged"),
             (KeyError, "AGENTS.md")]]


class Locked(lab.Workspace):
    """A workspace holding one file it cannot read: exists() says it is there, and read_text
    raises `error` for it, as a disk does for a file without permission or of bytes that are
    not text. Every other file reads as in lab.Workspace."""

    def __init__(self, files, locked, error):
        super().__init__(files)
        self.locked, self.error = locked, error

    def read_text(self, path):
        if "/".join(p for p in str(path).split("/") if p not in ("", ".")) == self.locked:
            raise self.error
        return super().read_text(path)


def described(name, snippet=None, guidelines=None):
    """A test tool with the two optional keys, when given."""
    found = tool(name, lambda arguments: "", description=f"The {name} tool.")
    if snippet is not None:
        found["snippet"] = snippet
    if guidelines is not None:
        found["guidelines"] = guidelines
    return found


def pieces(description):
    """A description whole, and each of its sentences and clauses, without their full stops."""
    return [description.rstrip(".")] + [piece.strip().rstrip(".") for piece in
                                        description.replace("; ", ". ").split(". ")]


def sentences(line):
    """How many sentences a line holds: one, and one more for each end of a sentence inside it,
    a full stop, question mark or exclamation mark (a closing quote or bracket after it) followed
    by a space and a capital letter; after a single letter or an abbreviation such as "e.g.",
    "i.e.", "etc." or "vs." it ends none."""
    ends = 0
    for found in re.finditer(r"(\S*?)[.!?]+[\"')\]]*\s+(?=[A-Z])", line):
        word = found.group(1).strip("\"'`([")
        if not re.fullmatch(r"(?:[A-Za-z]\.)*[A-Za-z]|etc|vs|Mr|Mrs|Ms|Dr|St|No", word):
            ends += 1
    return ends + 1


def same_sums(t):
    """Two pairs of different sentences, each pair of the same length and the same checksum: the
    first the same CRC-32, the second the same Adler-32 (zlib's), drawn under the seed. Only the
    same characters make the same guideline, whatever a checksum of them says."""
    letters = [t.random.choice("ab") for _ in range(48)]
    base = "".join(letters)
    flips = []  # each letter a <-> b as a change to the CRC, which is linear in the bytes
    for i in range(48):
        other = base[:i] + ("b" if base[i] == "a" else "a") + base[i + 1:]
        flips.append((zlib.crc32(base.encode()) ^ zlib.crc32(other.encode()), 1 << i))
    rows = {}  # Gaussian elimination over GF(2): a set of flips whose changes cancel out
    for change, chosen in flips:
        while change:
            top = change.bit_length() - 1
            if top not in rows:
                rows[top] = (change, chosen)
                break
            change, chosen = change ^ rows[top][0], chosen ^ rows[top][1]
        if not change:
            break
    twin = "".join(("b" if c == "a" else "a") if chosen >> i & 1 else c
                   for i, c in enumerate(base))
    word = t.random.choice(WORDS)
    at = t.random.randint(1, 20)  # "baab" and "abba" add up alike, weighted and not
    pad = "".join(t.random.choice("cdefgh") for _ in range(24))
    return [(f"Keep {base} short.", f"Keep {twin} short."),
            (f"Check {word} {pad[:at]}baab{pad[at:]}.", f"Check {word} {pad[:at]}abba{pad[at:]}.")]


def held(value):
    """Every dict and list in `value`, itself included, however deep."""
    found = []
    if isinstance(value, (dict, list)):
        found.append(value)
        for part in value.values() if isinstance(value, dict) else value:
            found += held(part)
    return found


def sections(prompt):
    return prompt.split("\n\n")


def headed(prompt, heading):
    """The lines of the section that opens with the line `heading`, or None when none does."""
    return next((part.split("\n") for part in sections(prompt)
                 if part.split("\n")[0] == heading), None)


def day(t):
    """A date drawn from years no clock will show while this course runs."""
    year, month = t.random.randint(1990, 2019), t.random.randint(1, 12)
    return f"{year}-{month:02d}-{t.random.randint(1, 28):02d}"


def folder(t):
    return "/" + "/".join(t.random.sample(FOLDERS, t.random.randint(1, 4)))


def text(t):
    """An AGENTS.md text: one to three paragraphs of one to three lines, no markup."""
    return "\n\n".join("\n".join(" ".join(t.random.sample(WORDS, t.random.randint(2, 6))) + "."
                                 for _ in range(t.random.randint(1, 3)))
                       for _ in range(t.random.randint(1, 3)))


def kind(part, skills):
    """What one section of a prompt is, by its first line: the lesson's headings, a context
    file's tag, the date, a section holding a skill's path, or one line of the builder's own."""
    first = part.split("\n")[0]
    if first in ("Available tools:", "Guidelines:"):
        return first[:-1]
    if first.startswith("<project_instructions path="):
        return "file"
    if first.startswith("Current date:"):
        return "date"
    if any(f"({skill['path']})" in part for skill in skills):
        return "skills"
    return "one line" if "\n" not in part and first and not first.startswith("- ") else part


@lab_test("With no tools, no context files and no skills, the prompt is two parts: one opening "
          "line, then exactly the date and working directory lines, whatever they are.")
async def test_the_bare_prompt(t):
    year, month = t.random.randint(1990, 2019), t.random.choice(["March", "July", "October"])
    # the caller's own spellings: a date written out, a folder with "./" and a final "/", and
    # both empty; the builder puts in what it was given
    cases = [(day(t), folder(t)) for _ in range(3)] + \
        [(f"{t.random.randint(1, 28)} {month} {year}", "." + folder(t) + "/"), ("", ""),
         (f" {day(t)} ", f"{folder(t)} "),  # spaces at either end stay
         (day(t), f"/home/{t.random.choice(NAMES)}{folder(t)}")]  # an account's own folder
    found, year = [], str(datetime.date.today().year)
    for today, cwd in cases:
        parts = sections(harness.build_system_prompt([], [], [], cwd, today))
        found.append([len(parts), "\n" in parts[0], len(parts[0].split()) >= 3, parts[-1],
                      [part for part in parts[:-1] if today and today in part or
                       cwd and cwd in part], year in parts[0]])
    t.expect(found, [[2, False, True, f"Current date: {today}\nCurrent working directory: {cwd}",
                      [], False] for today, cwd in cases],
             "Nothing to list means no tool, guideline or skill section; the date and "
             "directory come last, exactly as passed in by the caller, however it spelled them, "
             "empty included: an empty one is not the clock's date or the process's folder. "
             "A folder under /home is a folder like any other: what changes goes in the "
             "sections below the opening line, never in it. "
             "They are in the last part only, never in the opening line, so the start of the "
             "prompt is the same every day (build_system_prompt, lesson 13). Each item is, for "
             "one date and folder: [how many parts, whether the opening part has more than one "
             "line, whether it has three words or more, the last part, the parts before the last "
             f"that hold the date or the folder, whether the opening line holds {year}, this "
             "year as the clock gives it: every date here is from 1990 to 2019, and the builder "
             "never asks the clock].")
    # words a caller may pass for a date and a folder: they go in as words, never looked up,
    # worked out or expanded, though HOME and USERPROFILE are set
    dates = ["today", "now", "Today", "yesterday", "tomorrow", "next Monday"]
    places = [".", "./", "~", "..", "$HOME" + folder(t), "%USERPROFILE%\\work"]
    t.random.shuffle(dates)
    t.random.shuffle(places)
    words, saved = list(zip(dates, places)), dict(os.environ)
    try:
        os.environ.update(HOME=tempfile.gettempdir(), USERPROFILE=tempfile.gettempdir())
        lasts = [sections(harness.build_system_prompt([], [], [], cwd, today))[-1]
                 for today, cwd in words]
    finally:
        os.environ.clear()
        os.environ.update(saved)
    t.expect(lasts,
             [f"Current date: {today}\nCurrent working directory: {cwd}" for today, cwd in words],
             f"Given {words!r} as (today, cwd): each goes in as the caller passed it, a word "
             "such as \"today\" or \"tomorrow\" and a folder such as \".\" or one starting "
             "with $HOME included; the builder never turns one into the clock's date, the "
             "process's folder or the environment's, and never expands a name in it "
             "(build_system_prompt, lesson "
             "13, Build item 3, \"with `today` and `cwd` as they were passed\"). Items: the "
             "last part of each prompt.")
    # None is not a date: the builder writes what it was given, or refuses it, and never asks
    # the clock or the process in its place
    try:
        last = sections(harness.build_system_prompt([], [], [], None, None))[-1]
    except Exception as error:  # refusing None is the caller's business, not a rule's
        last = f"raised {type(error).__name__}"
    t.expect([str(datetime.date.today().year) in last,
              f"Current working directory: {os.getcwd()}" in last], [False, False],
             f"Given None as today and cwd, the prompt's last part was {last!r}. Items: "
             "[whether it holds this year, as the clock gives it; whether it names the folder "
             "this process runs in]: the builder is handed both and never asks the clock or "
             "the process, so a missing date or folder is never filled in from them "
             "(build_system_prompt, lesson 13, \"The date and the folder\").")


@lab_test("Each tool with a snippet gets the line - name: snippet under the heading Available "
          "tools:, in the order the tools were given, for 0 to 15 tools in drawn orders and one list "
          "of 1,001 to 8,000, two tools of one name included; a tool without a snippet gets no "
          "line, and with no line to give there is no heading either; a snippet with a line "
          "break goes in as it came, and the opening line stays the same words.")
async def test_a_line_for_each_tool_with_a_snippet(t):
    cases = [[], [(name, None) for name in t.random.sample(NAMES, t.random.randint(1, 3))]]
    for size in [1, 2, 3, 4, 5, 6] + [t.random.randint(2, 6) for _ in range(4)]:
        cases.append([(name, t.random.choice([None] + SNIPPETS)) for name in
                      t.random.sample(NAMES, size)])
    # every name, then three of them again: a tool is a tool, whatever another one is named
    cases.append([(name, t.random.choice(SNIPPETS)) for name in
                  t.random.sample(NAMES, len(NAMES)) + t.random.sample(NAMES, 3)])
    # over a thousand tools: a harness is handed what the caller has, and every one is told
    cases.append([(t.random.choice(NAMES), t.random.choice([None] + SNIPPETS))
                  for _ in range(t.random.randint(1001, 8000))])
    found, openings = [], []
    for case in cases:
        tools = [{"name": name, "description": f"The {name} tool.", "parameters": {}} |
                 ({} if snippet is None else {"snippet": snippet}) |
                 ({"guidelines": [ADVICE[i % len(ADVICE)]]} if i % 2 else {})
                 for i, (name, snippet) in enumerate(case)]
        prompt = harness.build_system_prompt(tools, [], [], CWD, TODAY)
        found.append(headed(prompt, "Available tools:"))
        openings.append(sections(prompt)[0])
    t.expect(found, [["Available tools:"] + [f"- {name}: {snippet}" for name, snippet in case
                                             if snippet is not None]
                     if any(snippet is not None for _, snippet in case) else None
                     for case in cases],
             "One line per enabled tool that has a snippet, in the order of the list given, "
             "never sorted, under the heading the lesson gives; a section with no line is left "
             "out, heading and all. A list of fifteen tools, three of them sharing a name with "
             "an earlier one, has fifteen lines, and one of 1,001 to 8,000 a line for each that has "
             "a snippet: there is no cap on the tools and no check of names. Each item is the tools section's lines for one tool list, or None when the "
             "prompt has no such section (build_system_prompt, lesson 13).")
    # a snippet of "" says nothing: among tools with snippets, and alone
    mixed = [(name, t.random.choice(SNIPPETS) if n % 2 else "")
             for n, name in enumerate(t.random.sample(NAMES, t.random.randint(3, 6)))]
    t.random.shuffle(mixed)
    lone = [(t.random.choice(NAMES), "")]
    # as the caller spelled them: spaces at a snippet's ends, a name with a capital and a space,
    # a snippet ending in a full stop, and a snippet of white space only, which is not empty
    spaced = [(name, f" {t.random.choice(SNIPPETS)} ") for name in t.random.sample(NAMES, 2)] + \
        [(f" {t.random.choice(NAMES).capitalize()} ", f"{t.random.choice(SNIPPETS)}."),
         (t.random.choice(NAMES), " " * t.random.randint(1, 3))]
    # a snippet given with a line break in it, the caller's mistake, goes in as it came
    spaced.insert(t.random.randint(0, len(spaced)), (t.random.choice(NAMES), "\n".join(
        t.random.sample(SNIPPETS, 2))))
    # the lesson's own three tools, none with a snippet: none gets a line from the builder
    own = [("write", None), ("bash", ""), ("read", None)]
    t.random.shuffle(own)
    # a snippet ending in a line break, with tools after it: as it came, not the builder's to
    # mend (the blank line it makes ends the section, so it comes in a list of its own)
    ended = [(name, t.random.choice(SNIPPETS)) for name in t.random.sample(NAMES, 3)]
    ended[t.random.randint(0, 1)] = (t.random.choice(NAMES), t.random.choice(SNIPPETS) + "\n")
    lists = (mixed, lone, spaced, own, ended)
    prompts = [harness.build_system_prompt([described(name, snippet) for name, snippet in case],
                                           [], [], CWD, TODAY) for case in lists]
    # one tool dict handed over twice in the list: two entries of tools, two lines
    twice = [described(name, t.random.choice(SNIPPETS)) for name in t.random.sample(NAMES, 3)]
    twice.insert(t.random.randint(1, 3), twice[t.random.randrange(3)])
    prompts.append(harness.build_system_prompt(twice, [], [], CWD, TODAY))
    openings += [sections(prompt)[0] for prompt in prompts]
    t.expect([headed(prompt, "Available tools:") for prompt in prompts],
             why=f"Six tool lists, {mixed!r}, {lone!r}, {spaced!r}, {own!r}, {ended!r} as "
             f"(name, snippet), and {[x['name'] for x in twice]!r}, one tool dict given twice. "
             "Items: each prompt's tools section's lines, or None when it has none. An empty "
             "snippet is no snippet: its tool gets no line, and a list whose only snippet is "
             "\"\" has no tools section; any other snippet goes in as it came, a space at either "
             "end included, as is a full stop, and one of spaces only is a snippet too, as the name "
             "goes in as it came, capitals and spaces included, since the line - NAME: SNIPPET is "
             "checked character for character "
             "(build_system_prompt, lesson 13, Build item 3, \"An empty snippet is no "
             "snippet\"). A snippet with a line break in it, or ending in one, goes in as it came, the "
             "caller's mistake, not the builder's to mend; write and bash without a snippet get no "
             "line: the builder keeps no table of lines of its own; and a tool given twice in "
             "the list, the same dict, gets a line for each time: a line for each tool in the "
             "order of tools.")
    bare = sections(harness.build_system_prompt([], [], [], CWD, TODAY))[0]
    t.expect([opening == bare for opening in openings], [True] * len(openings),
             f"The opening lines of the {len(openings)} prompts this test built, from no tool "
             f"to {max(map(len, cases))}, bash among them. Items: whether each is the opening "
             "line of the prompt with no tools: the opening line is the same words whatever "
             "the arguments, however many tools there are and whichever they are: what changes "
             "goes in the sections below it (build_system_prompt, lesson 13, Build item 3, the "
             "opening line).")


@lab_test("Guidelines appear once each under the heading Guidelines:, in the order first seen, "
          "however many tools share them, repeat them or have none: 1 to 5 tools, up to 14 "
          "guidelines, 1,002 over 502 tools and 2,001 to 8,000 in one tool, most of them one "
          "sentence said again and a thousand new ones after, one of tens of thousands of "
          "characters, a repeat listed once however far apart; only the "
          "same characters make the same guideline.")
async def test_each_guideline_once_first_seen_first(t):
    # Every draw holds one tool list with at least ten different guidelines: a set lists ten
    # lines in their first-seen order about once in 3.6 million hash seeds, so a design that
    # keeps them in a set fails this test whatever seed its process was started with.
    cases = []
    for distinct in [0, 1, 2, 3, 5, 8, t.random.randint(10, 14), t.random.randint(4, 12)]:
        pool = t.random.sample(ADVICE, distinct)
        lists = [[] for _ in range(t.random.randint(1, 5) if distinct else 2)]
        for line in pool + [t.random.choice(pool) for _ in range(distinct // 2)]:
            where = t.random.choice(lists)
            where.insert(t.random.randint(0, len(where)), line)
        cases.append([(name, t.random.choice([None, "Does a thing"]),
                       lines or t.random.choice([None, []])) for name, lines in zip(NAMES, lists)])
    # one sentence, once with a small letter, once with a space at its end, once without its
    # full stop and once with two spaces between its first words: five sentences
    line = t.random.choice(ADVICE)
    small, spaced, bare = line[0].lower() + line[1:], line + " ", line[:-1]
    doubled = line.replace(" ", "  ", 1)
    wide = chr(ord(line[0]) + 0xFEE0) + line[1:]  # its first letter full-width: NFKC folds it
    cases.append([("read", None, [line, spaced, doubled]),
                  ("write", "Does a thing", [small, bare, line, wide, doubled])])
    # two pairs of sentences whose checksums agree, CRC-32 and Adler-32: four sentences
    sums = same_sums(t)
    cases.append([("read", None, [sums[0][0], sums[1][0]]),
                  ("write", None, [sums[1][1], sums[0][0], sums[0][1]])])
    found = []
    for case in cases:
        tools = [described(name, snippet, lines) for name, snippet, lines in case]
        found.append(headed(harness.build_system_prompt(tools, [], [], CWD, TODAY), "Guidelines:"))
    t.expect(found, [["Guidelines:"] + ["- " + line for line in dict.fromkeys(
                         x for _, _, lines in case for x in lines or ())]
                     if any(lines for _, _, lines in case) else None
                     for case in cases],
             "Each guideline once, in the order first seen over the tools in their order, "
             "whether or not its tool has a snippet, and each exactly as written: "
             f"{line!r}, {small!r}, {spaced!r}, {bare!r}, {wide!r} (its first letter a full-width "
             f"one, which Unicode's NFKC form folds back) and {doubled!r} are six sentences, "
             f"and {sums!r}, two pairs of the same CRC-32 and the same Adler-32, four, "
             "since only the same "
             "characters make the same sentence. A list that checks before appending keeps "
             "that order, a set does not, and its order changes from one Python process to the "
             "next. Each item is the guidelines section's lines for one tool list, or None when "
             "no tool has a guideline (build_system_prompt, lesson 13).")
    many = [described(f"tool{n}", None, [f"Step {n} first."]) for n in range(501)]
    rules = [f"Rule {n}." for n in range(501)]
    # one of read's rules as long as a file (about 30,000 to 400,000 characters), and read's
    # snippet one of its rules word for word: each is a guideline like the others
    long, same = t.random.sample(range(501), 2)
    rules[long] = f"Rule {long}: " + " ".join(ADVICE) * t.random.randint(100, 1300)
    # and one of the first steps said again after read's rules, 700 or more guidelines on:
    # each sentence once, however far apart its two sayings stand
    again = t.random.randrange(2)  # one of the first two: over a thousand guidelines apart
    many.append(described("read", rules[same], rules + [f"Step {again} first."]))
    lines = headed(harness.build_system_prompt(many, [], [], CWD, TODAY), "Guidelines:")
    t.expect([len(lines), lines[1:502] == [f"- Step {n} first." for n in range(501)],
              lines[502:] == [f"- {rule}" for rule in rules]], [1003, True, True],
             "502 tools: tool0 to tool500 with one guideline each, 'Step N first.', then read "
             f"with 501, 'Rule 0.' to 'Rule 500.', rule {long} of {len(rules[long])} characters, "
             f"and read's snippet its rule {same} word for word, then 'Step {again} first.' "
             "again: 1,002 different guidelines, "
             "however long, whatever the snippet says, and a repeat listed once however far "
             "apart its two sayings stand. The items are "
             "[the guidelines section's lines, heading included; whether its lines after the "
             "heading are the tools' steps in the tools' order, then read's rules in read's "
             "order]: every tool's every guideline is listed, however many tools and "
             "guidelines there are, in the order first met, never sorted (build_system_prompt, "
             "lesson 13, Build item 3, \"in the order it is first met\").")
    # one tool with 2,001 to 8,000 guidelines of its own, among two others: one sentence said
    # again and again, then 1,000 different ones (1,002 at most in all, as above): every one is
    # listed, however many one tool has and however far down its list, the long one whole
    own = [f"Point {n}." for n in range(1000)]
    own[t.random.randrange(1000)] = rules[long]
    said = t.random.randint(1001, 7000)
    own = [own[0]] * said + own
    crowd = [described(name, None, [t.random.choice(ADVICE)]) for name in t.random.sample(NAMES, 2)]
    crowd.insert(t.random.randint(0, 2), described("read", None, own))
    lines = headed(harness.build_system_prompt(crowd, [], [], CWD, TODAY), "Guidelines:")
    t.expect([len(lines or []) - 1, (lines or [])[1:] == ["- " + line for line in dict.fromkeys(
        line for x in crowd for line in x["guidelines"])]], [len(set(own) | {
            x["guidelines"][0] for x in crowd if x["name"] != "read"}), True],
             f"Three tools, {[x['name'] for x in crowd]!r}, read with {len(own):,} guidelines of "
             f"its own, the first said {said + 1:,} times, then 999 different ones, one of them "
             f"{len(rules[long])} characters long. Items: [how many guideline lines, "
             "whether they are every guideline of the tools once, in the order first met, each "
             "whole]: a line for each guideline of the tools, however many one tool has, "
             "however far down its list and however long one is, none read past a count or cut "
             "short (build_system_prompt, "
             "lesson 13, Build item 3, \"for each guideline of the tools\").")


@lab_test("Context files go in word for word, each as <project_instructions path=\"...\"> its "
          "text </project_instructions>, in the order given, never sorted: 0 to 5 files of one "
          "to three paragraphs, one of 300 lines, a path as the caller spelled it, 1,001 to "
          "8,000 files, built again after one was edited, and a file of two to three million "
          "characters; however many files, the opening line stays the same words.")
async def test_context_files_go_in_word_for_word_in_the_order_given(t):
    cases = []
    for count in [0, 1, 2, 3, 5]:
        paths = ["/".join(t.random.sample(FOLDERS, t.random.randint(0, 3)) + ["AGENTS.md"])
                 for _ in range(count)]
        # a file as an editor saves it ends in a line break, which goes in with the rest
        cases.append(([(path, text(t) + "\n") for path in dict.fromkeys(paths)], day(t),
                      folder(t)))
    # then each list again, the same paths with the same date and folder, each file edited
    # since: the prompt holds what the files hold now, whatever was built before
    cases += [([(path, f"Edited: {text(t)}\n") for path, _ in files], today, cwd)
              for files, today, cwd in cases]
    prompts = [harness.build_system_prompt([], files, [], cwd, today)
               for files, today, cwd in cases]
    found = [prompt.split("\n\n", 1)[1] for prompt in prompts]
    openings = [prompt.split("\n\n", 1)[0] for prompt in prompts]
    t.expect(found, ["\n\n".join([f'<project_instructions path="{path}">\n{body}\n'
                                  "</project_instructions>" for path, body in files] +
                                 [f"Current date: {today}\nCurrent working directory: {cwd}"])
                     for files, today, cwd in cases],
             "Each file's text as written, blank lines and its final line break included, in "
             "its own tags, in the order given, then the date and directory; the five lists "
             "are then given again, the same paths, date and folder, each file's text edited "
             "since, and the new texts go in: equal arguments give equal text, and a prompt "
             "kept from an earlier call is wrong for new ones. Each item is what follows the "
             "opening line for one list of files (build_system_prompt, lesson 13, Build item 3, "
             "\"whatever was built before\").")
    # What real files hold: markup, quotes and ampersands (a closing tag of their own too),
    # Windows line ends, spaces at a line's end, a long file, a path with & and quotes in it,
    # and one file given twice. Nothing is escaped, tidied, cut or merged.
    long = "\n".join(f"{n}. {' '.join(t.random.sample(WORDS, 8))}." for n in range(1, 301))
    marked = (f"Run <code>{t.random.choice(WORDS)}</code> & \"quote\" it, don't 'guess'.  \r\n"
              f"Keep {t.random.choice(WORDS)} tidy. \t \n"  # a space, a tab, a space, then \n
              "See the cafe\u0301 menu, re\u0301sume\u0301 and nai\u0308ve notes.\n"  # accents as marks
              f"\r\n<project_instructions path=\"{t.random.choice(FOLDERS)}/AGENTS.md\">\n"
              f"{text(t)}\n</project_instructions>\n")
    first = (f"{t.random.choice(FOLDERS)}/AGENTS.md", text(t) + "\n")
    empty = (f"{t.random.choice(FOLDERS)}/{t.random.choice(FOLDERS)}/AGENTS.md", "")
    # as its caller spelled it, its text opening with a byte-order mark as a file may
    spelled = (f"./{t.random.choice(FOLDERS)}//AGENTS.md", "\ufeff" + text(t))
    files = [first, ("R&D/\"new\" <v2>\\AGENTS.md", marked), empty, ("AGENTS.md", long), spelled,
             first]
    sizes = [len(body) for _, body in files]
    six = harness.build_system_prompt([], files, [], CWD, TODAY).split("\n\n", 1)
    openings.append(six[0])
    t.expect(six[1].split("\n"),
             why=f"Six context files, of {sizes} characters: one whose path holds &, "
             "quotes and a backslash, and whose text holds markup, a <project_instructions> tag and its own "
             "</project_instructions>, \\r\\n line "
             "ends, spaces at a line's end before its \\r\\n and a space, a tab and a space "
             f"before a \\n, accents written as separate marks (e and U+0301), which Unicode's NFC "
             f"form would join and which stay as they came; an empty one, {empty[0]!r}, which is still a "
             f"file (its section is the two tags around an empty line); one of 300 lines; one "
             f"whose path is spelled {spelled[0]!r}, which goes in the tag as it came, and "
             "whose text opens with a byte-order mark, which stays; and "
             "the first given again. "
             "The items are the lines after the opening line, held against the reference's: each "
             "file in its own section, path and text exactly as they came, none escaped, "
             "tidied, cut short or dropped as a repeat (build_system_prompt, lesson 13, Build "
             "item 3, \"the text exactly as it came\").")
    many = [(f"{'/'.join(t.random.sample(FOLDERS, 2))}/{n}/AGENTS.md", f"Rule {n}.")
            for n in range(t.random.randint(1001, 8000))]
    # the same files again, one of them edited since: a prompt kept for these paths is stale
    edited = t.random.randrange(len(many))
    # (its length kept: "Rule 12." becomes "rULE 12.")
    again = many[:edited] + [(many[edited][0], many[edited][1].swapcase())] + many[edited + 1:]
    # and one file of two to three million characters, in lines of a thousand
    line = ((" ".join(t.random.sample(WORDS, 8)) + " ") * 100)[:994] + "."
    huge = "\n".join(f"{n:04d}. {line}" for n in range(t.random.randint(2001, 3000)))
    found = [sections(harness.build_system_prompt([], files, [], CWD, TODAY))
             for files in (many, again, [("AGENTS.md", huge)])]
    openings += [parts[0] for parts in found]
    found = [parts[1:-1] for parts in found]
    t.expect([[len(parts), parts == [f'<project_instructions path="{path}">\n{body}\n'
                                     "</project_instructions>" for path, body in files]]
              for parts, files in zip(found, (many, again, [("AGENTS.md", huge)]))],
             [[len(many), True], [len(many), True], [1, True]],
             f"{len(many)} context files of one line each, then the same files again with "
             f"file {edited} edited since, its length kept (equal arguments give equal text, "
             "and a prompt kept from an earlier call is wrong for new ones, whatever it was "
             "kept by: the paths, "
             f"or the paths and the texts' lengths), then one file of {len(huge)} "
             "characters. Items: for each prompt, [how many parts stand between the opening "
             "line and the date, whether they are the files in their tags, in the order given, "
             "each text whole]: every file goes in, however many there are, and the text "
             "exactly as it came, however long, with no cap and nothing cut short "
             "(build_system_prompt, lesson 13, Build item 3, \"each context file, in the order "
             "given\").")
    # and some files between the few and the many: 6 to 1,000 of one line each
    middling = [(f"{n}/AGENTS.md", f"Rule {n}.") for n in range(t.random.randint(6, 1000))]
    openings.append(sections(harness.build_system_prompt([], middling, [], CWD, TODAY))[0])
    bare = sections(harness.build_system_prompt([], [], [], CWD, TODAY))[0]
    t.expect([opening == bare for opening in openings], [True] * len(openings),
             f"The opening lines of the {len(openings)} prompts this test built, of 0 to 5 "
             f"files, six, {len(middling)}, {len(many)} and one. Items: whether each is the "
             "opening line of the prompt with no context files: the opening line is the same "
             "words whatever the arguments, however many context files there are: what "
             "changes goes in the sections below it (build_system_prompt, lesson 13, Build "
             "item 3, the opening line).")


@lab_test("The skills index appears only when there are skills and a tool named read, wherever "
          "read stands in the list, whether or not it has a snippet and whatever else it carries; "
          "it lists each skill as "
          "- name: description (path) after a sentence, in the order given, 12 skills and 1,001 to "
          "8,000, names, descriptions and paths as they came (a long one, one with a line "
          "break and an empty one included), a skill given twice listed twice, "
          "none kept from an earlier call; without read, the "
          "skills change nothing in the prompt.")
async def test_a_skills_index_only_with_a_tool_named_read(t):
    # "ready" and "thread" hold the letters of read without being named read.
    cases = [(t.random.sample(SKILLS, t.random.randint(1, 4)), ["read"]),
             (t.random.sample(SKILLS, t.random.randint(1, 4)), ["thread", "write", "read"]),
             ([], ["read", "write"]), (SKILLS[:2], ["ready", "thread", "write", "open", "view", "load"]),
             (t.random.sample(SKILLS, t.random.randint(1, 4)),
              ["Read", "READ", " read", "read "])]
    for _ in range(8):
        names = t.random.sample(["read", "read", "write", "bash", "ready", "thread"],
                                t.random.randint(0, 4))
        cases.append((t.random.sample(SKILLS, t.random.randint(0, 5)), list(dict.fromkeys(names))))
    # twelve skills, half of them with no full stop to their description, with read after six
    # other tools, and the same without read; over a thousand skills; a skill given twice
    twelve = t.random.sample(SKILLS + [dict(k, name=k["name"] + "2", path=f"more/{k['name']}.md",
                                            description=k["description"].rstrip("."))
                                       for k in SKILLS], 12)
    others = t.random.sample(NAMES, 6)
    many = [{"name": f"task{n}", "description": f"Do task {n}.", "path": f"skills/task{n}.md"}
            for n in range(t.random.randint(1001, 8000))]
    twice = t.random.sample(SKILLS, 3)
    twice.insert(t.random.randint(1, 3), twice[0])
    # names and paths as the caller spelled them: capitals, a "./" and a "//"
    spelled = [dict(k, name=k["name"].capitalize(), path=f"./skills//{k['name'].capitalize()}.md")
               for k in t.random.sample(SKILLS, 3)]
    # descriptions as the caller wrote them: one of hundreds of characters, one with a line break
    spelled[0]["description"] = " ".join(["Read this first."] + [
        t.random.choice(WORDS) for _ in range(t.random.randint(60, 300))]) + "."
    spelled[1]["description"] = spelled[1]["description"] + "\n" + t.random.choice(SNIPPETS) + "."
    spelled[2]["description"] = ""  # still a skill: its line is "- NAME:  (PATH)"
    # read after ten to twelve other tools: wherever it stands, however far down the list
    cases.append((t.random.sample(SKILLS, 2), t.random.sample(NAMES, t.random.randint(10, 12)) +
                  ["read"]))
    cases += [(twelve, others + ["read"]), (twelve, others + ["ready"]), (many, ["read"]),
              (twice, ["bash", "read"]), (spelled, ["read"])]
    found, openings = [], []
    for skills, names in cases:
        tools = [described(name, t.random.choice([None, "Does a thing"])) for name in names]
        prompt = harness.build_system_prompt(tools, [], skills, CWD, TODAY)
        openings.append(sections(prompt)[0])
        index = [part.split("\n") for part in sections(prompt)
                 if skills and f"({skills[0]['path']})" in part]
        opening = next((n for n, line in enumerate(index[0]) if line.startswith("- ")), 0) \
            if index else 0
        found.append([[len(" ".join(index[0][:opening]).split()) >= 3, index[0][opening:]]
                      if index else None,
                      prompt != harness.build_system_prompt(tools, [], [], CWD, TODAY)])
    t.expect(found, [[[True, "\n".join(f"- {k['name']}: {k['description']} ({k['path']})"
                                        for k in skills).split("\n")], True]
                     if skills and "read" in names else [None, False]
                     for skills, names in cases],
             "Without read the model could not open a skill's file, so the index needs a tool "
             "named exactly read, not Read or \" read\"; with no such tool, or no skills, no "
             "skill is mentioned at all. With one, a sentence of your own on what the lines are "
             "for, three words or more like the opening line (a bare heading such as \"Skills:\" "
             "tells the model nothing), then each skill's line in the order given, never "
             "sorted, capped or merged, however many (here up to 1,100), wherever read stands (here "
             "after ten to twelve other tools too), its name, description "
             "and path as they came, full stop or none, capitals, \"./\" and \"//\" included, a "
             "description of hundreds of characters whole, one with a line break as it came and "
             "an empty one still a line, \"- NAME:  (PATH)\", since the line "
             "- NAME: DESCRIPTION (PATH) is checked character for character. Each "
             "item is, for one draw, [the index section as [whether it opens with "
             "your sentence, its lines from the first skill's on], or None; whether the skills "
             "changed the prompt at all, against the same call with no skills] "
             "(build_system_prompt, lesson 13, Build item 3).")
    bare = sections(harness.build_system_prompt([], [], [], CWD, TODAY))[0]
    t.expect([opening == bare for opening in openings], [True] * len(openings),
             f"The opening lines of the {len(openings)} prompts this test built, with up to "
             f"{max(len(skills) for skills, _ in cases)} skills. Items: whether each is the "
             "opening line of the prompt with no tools and no skills: the opening line is the "
             "same words whatever the arguments, however many skills there are: what changes "
             "goes in the sections below it (build_system_prompt, lesson 13, Build item 3, the "
             "opening line).")
    # read's own tool under other names: the name is what counts, never the description
    aliases = t.random.sample(["open", "view", "cat", "show"], 2)
    renamed = [dict(harness.make_read_tool(lab.Workspace()), name=alias) for alias in aliases]
    skills = t.random.sample(SKILLS, 2)
    t.expect([harness.build_system_prompt(renamed, [], skills, CWD, TODAY) ==
              harness.build_system_prompt(renamed, [], [], CWD, TODAY)], [True],
             f"make_read_tool's dicts renamed {aliases!r}, read's description and all, with two "
             "skills. The item: whether the prompt is the one with no skills: the index needs "
             "a tool named exactly read, and a tool's description is not its name "
             "(build_system_prompt, lesson 13, Build item 3, \"a tool named exactly `read`\").")
    # a tool named read in other shapes, as a caller may hand one over: its name alone, an
    # execute of None, make_read_tool's dict without its execute, no description and no
    # parameters; the name decides, never another key the tool carries
    made = harness.make_read_tool(lab.Workspace())
    shapes = {"its name alone": {"name": "read"},
              "execute None": dict(described("read"), execute=None),
              "make_read_tool's without execute": {k: v for k, v in made.items()
                                                   if k != "execute"},
              "no description nor parameters": {"name": "read", "execute": made["execute"]}}
    order = t.random.sample(list(shapes), len(shapes))
    skills = t.random.sample(SKILLS, 2)
    t.expect([[shape, f"({skills[0]['path']})" in harness.build_system_prompt(
                 [described(t.random.choice(NAMES)), shapes[shape]], [], skills, CWD, TODAY)]
              for shape in order], [[shape, True] for shape in order],
             f"Two skills and a tool named read, in turn {order!r}. Items: [the shape, whether "
             "the prompt has the skills index]: the index needs a tool named exactly read, and "
             "the name is all it asks of the tool: not whether it has an execute that can be "
             "called, a description or parameters (build_system_prompt, lesson 13, Build item "
             "3, \"only when there are skills and a tool named exactly `read`\").")
    # one skills list handed over twice, a description edited in between
    skills, tools = [dict(k) for k in t.random.sample(SKILLS, 3)], [described("read")]
    before, found = copy.deepcopy(skills), []
    for n in range(2):
        prompt = harness.build_system_prompt(tools, [], skills, CWD, TODAY)
        found.append([[line for part in sections(prompt) if f"({skills[0]['path']})" in part
                       for line in part.split("\n") if line.startswith("- ")], skills == before])
        skills[1]["description"] = before[1]["description"] = f"Edited: {SKILLS[n]['description']}"
    t.expect(found, why=f"The skills {[k['name'] for k in skills]} and a tool named read, built "
             "from twice, the second skill's description edited in the caller's dict between "
             "the two builds. Items: for each build, [the index's skill lines, whether every "
             "skill dict kept exactly its keys and values]: each build lists the descriptions "
             "as they are then, keeps no line from an earlier call and writes nothing into the "
             "caller's skills (build_system_prompt, lesson 13, Build item 3, \"whatever was "
             "built before\").")
    # the many skills handed over again, new dicts of the same names and paths, one
    # description edited since: its line is the new one, however many skills there are
    edited = t.random.randrange(len(many))
    fresh = [dict(k) for k in many]
    fresh[edited]["description"] = f"Edited: {fresh[edited]['description']}"
    lines = [line for line in harness.build_system_prompt(
        [described("read")], [], fresh, CWD, TODAY).split("\n") if line.startswith("- ")]
    t.expect([len(lines), lines == [f"- {k['name']}: {k['description']} ({k['path']})"
                                    for k in fresh]], [len(fresh), True],
             f"The {len(many)} skills built from again, new dicts of the same names and paths, "
             f"skill {edited}'s description edited since. Items: [how many skill lines the "
             "index has, whether they are every skill's line as it is now]: none kept from an "
             "earlier call, by name or otherwise, however many skills there are "
             "(build_system_prompt, lesson 13, Build item 3, \"whatever was built before\").")
    # one description as long as a file: thousands to hundreds of thousands of characters
    whole = dict(t.random.choice(SKILLS))
    whole["description"] = (" ".join(t.random.sample(WORDS, 8)) + ". ") * \
        t.random.randint(200, 6000)
    line = f"- {whole['name']}: {whole['description']} ({whole['path']})"
    t.expect([len(whole["description"]), line in harness.build_system_prompt(
        [described("read")], [], [whole], CWD, TODAY).split("\n")], why=(
        "One skill whose description is that many characters, and a tool named read. Items: "
        "[the description's length, whether the index holds the skill's line with the "
        "description whole]: a line - NAME: DESCRIPTION (PATH) for each skill, its "
        "description as it came, however long, nothing cut short (build_system_prompt, lesson "
        "13, Build item 3)."))


@lab_test("Whichever parts are present, they come in a fixed order: opening line, tools, "
          "guidelines, context files, skills, then the date and directory as given, last; "
          "with over twelve thousand tools, context files and skills, every one is there, "
          "in the order given.")
async def test_the_parts_come_in_a_fixed_order(t):
    cases = []
    for present in range(16):
        snippet, advice, files, skills = (present >> bit & 1 for bit in range(4))
        cases.append((bool(snippet), bool(advice), t.random.randint(1, 3) * files,
                      t.random.sample(SKILLS, t.random.randint(1, 3)) if skills else [],
                      day(t), folder(t)))
    found = []
    for snippet, advice, files, skills, today, cwd in cases:
        tools = [described("read", "Read a file" if snippet else None,
                           t.random.sample(ADVICE, 1) if advice else None)]
        context = [(f"{name}/AGENTS.md", "Rules.") for name in FOLDERS[:files]]
        parts = sections(harness.build_system_prompt(tools, context, skills, cwd, today))
        found.append([[kind(part, skills) for part in parts[:-1]], parts[-1]])
    t.expect(found, [[["one line"] + ["Available tools"] * snippet + ["Guidelines"] * advice +
                      ["file"] * files + ["skills"] * bool(skills),
                      f"Current date: {today}\nCurrent working directory: {cwd}"]
                     for snippet, advice, files, skills, today, cwd in cases],
             "The parts that change least come first and the date last, so the start of the "
             "prompt stays the same from day to day; the date and directory are the caller's "
             "arguments, not the clock's. Each item is, for one draw, [what each part before "
             "the last is, the last part] (build_system_prompt, lesson 13).")
    # a crowd: over twelve thousand tools, each with a snippet and read among them, as many
    # context files and as many skills, each list in a prompt of its own, past the round caps
    # and switches a builder might keep (8,000, 8,192, 10,000 or 12,000); numbered names, whose
    # string order, hash order and the order given all differ. A cap past that is beyond what a
    # test can afford: a crowd costs about 4 ms of processor time a thousand items, and it runs
    # in every check of the lab. (A prompt each, and a turn between them.)
    count = t.random.randint(12_001, 14_000)
    crowd = [{"name": f"tool{n}", "description": "A tool.", "snippet": f"Do thing {n}"}
             for n in range(count)]
    crowd.insert(t.random.randrange(count), {"name": "read", "description": "Read a file."})
    today, cwd = day(t), folder(t)
    bare = sections(harness.build_system_prompt([], [], [], cwd, today))[0]
    date = f"Current date: {today}\nCurrent working directory: {cwd}"
    await lab.tick()  # a turn between each list, each prompt and each look at one
    parts = sections(harness.build_system_prompt(crowd, [], [], cwd, today))
    await lab.tick()
    lines = parts[1].split("\n") if len(parts) > 1 else []
    seen = [len(parts), parts[0] == bare, len(lines) - 1,
            lines[1:] == [f"- tool{n}: Do thing {n}" for n in range(count)], parts[-1] == date]
    await lab.tick()
    files = [(f"{n}/AGENTS.md", f"Rule {n}.") for n in range(count)]
    await lab.tick()
    parts = sections(harness.build_system_prompt([], files, [], cwd, today))
    await lab.tick()
    seen += [len(parts), parts[0] == bare,
             parts[1:-1] == [f'<project_instructions path="{n}/AGENTS.md">\nRule {n}.\n'
                             "</project_instructions>" for n in range(count)],
             parts[-1] == date]
    await lab.tick()
    skills = [{"name": f"task{n}", "description": f"Do task {n}.", "path": f"skills/{n}.md"}
              for n in range(count)]
    await lab.tick()
    parts = sections(harness.build_system_prompt([crowd[0] | {"name": "read"}], [], skills,
                                                 cwd, today))
    await lab.tick()
    index = parts[-2].split("\n") if len(parts) > 3 else []
    seen += [len(parts), parts[0] == bare, len(index) - 1,
             index[1:] == [f"- task{n}: Do task {n}. (skills/{n}.md)" for n in range(count)],
             parts[-1] == date]
    t.expect(seen, [3, True, count, True, True, count + 2, True, True, True,
                    4, True, count, True, True],
             "A line for each tool however many tools there are, a section for each file "
             "however many context files there are and a line for each skill however many "
             "skills there are, in the order given, never capped, sorted or reordered past a "
             "count, the date and directory last, and the opening line the same words whatever "
             "the arguments (build_system_prompt, lesson 13, Build item 3, \"for each tool that "
             "has a snippet, in the order of `tools`\", \"each context file, in the order "
             f"given\", \"for each skill, in the order given\"). Three prompts: {count:,} tools "
             f"with a snippet each and read among them; {count:,} context files; read and "
             f"{count:,} skills. Items: for the tools, [how many parts, whether the opening line "
             "is the bare prompt's, how many tool lines, whether they are every tool's line in "
             "the order of tools, whether the date and directory come last]; for the files, "
             "[how many parts, whether the opening line is the bare one, whether the parts "
             "between it and the date are the files in the order given, whether the date comes "
             "last]; for the skills, [how many parts, whether the opening line is the bare one, "
             "how many skill lines, whether they are every skill's line in the order given, "
             "whether the date comes last].")


# Characters a tidy-up takes or changes, none of them a line break: a tab, a carriage return, a
# NUL, a no-break space, a zero-width space, a line tab, an escape, a full-width letter, and
# one accented letter in both its Unicode spellings (one character, or a letter and a
# combining mark), which are different characters.
ODD = ["\t", "\r", "\x00", "\u00a0", "\u200b", "\x0b", "\x1b", "\uff21", "\u00e9", "e\u0301"]


def odd(t, least, kinds=ODD):
    """A value of at least `least` characters: words of WORDS, every one of `kinds` among them,
    repeated, and a no-break space at one of its ends and a tab at the other."""
    bits = t.random.sample(kinds, len(kinds))
    words = [t.random.choice(WORDS) + bit for bit in bits]
    while len(words) < 12:
        words.append(t.random.choice(WORDS))
    said = " ".join(words)
    ends = t.random.sample(["\u00a0", "\t"], 2)  # one of each, in either order
    # repeated until it is long enough, and joined once: one copy, however long
    repeated = [said] * -(-least // len(said))
    repeated[0] = ends[0] + repeated[0]
    repeated[-1] += ends[1]
    value = " ".join(repeated)
    return value


def stands(prompt, pieces, alone=True):
    """Whether the texts `pieces`, one straight after another, stand in `prompt` as one of its
    parts, between blank lines (alone=False: at the end of one), looked for in place, without
    copying a text of millions of characters."""
    first = pieces[0][:100]
    at = prompt.find(first)
    while at >= 0:
        end = at
        for piece in pieces:
            if not prompt.startswith(piece, end):
                break
            end += len(piece)
        else:
            if (not alone or at == 0 or prompt.startswith("\n\n", at - 2)) and \
                    (end == len(prompt) or prompt.startswith("\n\n", end)):
                return True
        at = prompt.find(first, at + 1)
    return False


@lab_test("Every value goes in as it came, however long and whatever characters it holds: a "
          "snippet, a guideline, a context file's path and text (of over ten million "
          "characters), a skill's name, description and path, today and cwd, with their tabs, carriage returns, NULs, no-break spaces "
          "and combining marks, a guideline's line break and a context file's lone surrogate; two guidelines that differ only in how an accent is spelled "
          "are two guidelines.")
async def test_every_value_goes_in_as_it_came(t):
    snippet = odd(t, t.random.randint(200, 2000))
    # two guidelines of the same look, an accent spelled each way, and one of over a million
    # characters
    same = odd(t, t.random.randint(40, 400))
    one = same.replace("e\u0301", "\u00e9") + " caf\u00e9."
    two = same.replace("\u00e9", "e\u0301") + " cafe\u0301."
    # and one given with a line break in it, the caller's mistake, not the builder's to mend
    broken = odd(t, t.random.randint(40, 400)) + t.random.choice(["\n", "\r\n"]) + \
        t.random.choice(ADVICE)
    advice = [one, two, broken, odd(t, t.random.randint(1_100_000, 1_500_000))]
    t.random.shuffle(advice)
    # the text with a lone surrogate too, as a str may hold one though no UTF-8 file does
    where, body = odd(t, t.random.randint(300, 3000)), odd(t, t.random.randint(2000, 20000),
                                                           ODD + ["\ud800", "\udfff"])
    skill = {"name": odd(t, t.random.randint(120, 1200)),
             "description": odd(t, t.random.randint(1_100_000, 1_500_000)),
             "path": odd(t, t.random.randint(120, 1200))}
    today, cwd = odd(t, t.random.randint(40, 400)), odd(t, t.random.randint(5000, 9000))
    prompt = harness.build_system_prompt([described("read", snippet, list(advice))],
                                         [(where, body)], [skill], cwd, today)
    # each part in pieces, looked for in place: a text of millions is never copied to compare
    wanted = {"the tool line": ("Available tools:\n- read: ", snippet),
              "the guidelines": ("Guidelines:\n", "\n".join(f"- {g}" for g in advice)),
              "the context file": (f'<project_instructions path="{where}">\n', body,
                                   "\n</project_instructions>"),
              "the skill's line": (f"\n- {skill['name']}: ", skill["description"],
                                   f" ({skill['path']})"),
              "the date and folder": (f"Current date: {today}\nCurrent working directory: {cwd}",)}
    found = [[what, stands(prompt, line, alone=what != "the skill's line")]
             for what, line in wanted.items()]
    # and a context file as long as a file can be, ten and a half to twelve million characters
    # of the odd ones a file of Latin-1 text holds, in a prompt of its own: whole
    path, whole = odd(t, t.random.randint(300, 3000), ODD[:4]), odd(
        t, t.random.randint(10_500_000, 12_000_000), [bit for bit in ODD if max(bit) < "\u0100"])
    alone = harness.build_system_prompt([], [(path, whole)], [], CWD, TODAY)
    found.append(["the long file", stands(alone, (f'<project_instructions path="{path}">\n',
                                                  whole, "\n</project_instructions>"))])
    wanted["the long file"] = ()
    t.expect(found, [[what, True] for what in wanted],
             f"One read tool whose snippet is {len(snippet):,} characters long, guidelines of "
             f"{', '.join(f'{len(g):,}' for g in advice)} characters (two of them differing "
             "only in how an accent is spelled, as one character or a letter and a combining "
             "mark, and one with a line break in it), a context file whose path is "
             f"{len(where):,} characters and its text {len(body):,}, lone surrogates U+D800 and "
             "U+DFFF among them (and, in a prompt of its own, one of {len(whole):,}), a skill whose name, description and path are {len(skill['name']):,}, "
             f"{len(skill['description']):,} and {len(skill['path']):,} characters, today of "
             f"{len(today):,} and cwd of {len(cwd):,}; every one holds tabs, carriage returns, "
             "NULs, no-break spaces (at its ends too), a zero-width space, a line tab, an "
             "escape, a full-width letter and accents. Each item: [a part of the prompt, "
             "whether it is there exactly as the lesson spells it, each value in it as it "
             "came]: every value goes in as it came, however long, never cut, tidied, "
             "normalised or left out, and only the same characters make the same guideline "
             "(build_system_prompt, lesson 13, Build item 3, \"as it came\", \"as they were "
             "passed\").")


@lab_test("The same arguments give the same text every time: no clock, no disk, no set; and "
          "the builder changes none of them, not even for a moment while it runs.")
async def test_the_prompt_is_deterministic(t):
    def arguments():
        tools = [described(name, t.random.choice(SNIPPETS), t.random.sample(ADVICE, 3))
                 for name in t.random.sample(NAMES, t.random.randint(2, 5))]
        # two to four context files, in an order no sort gives, so that a list reversed or
        # sorted for a moment while the builder runs is a list changed
        paths = ["AGENTS.md"] + [f"{name}/AGENTS.md" for name in
                                 t.random.sample(FOLDERS, t.random.randint(1, 3))]
        paths[0], paths[-1] = paths[-1], paths[0]
        return tools, [(path, text(t)) for path in paths], t.random.sample(SKILLS, 3), \
            folder(t), day(t)

    first, other = arguments(), arguments()
    # Equal copies of the first arguments, with other arguments built in between.
    copies = [([dict(x) for x in first[0]], list(first[1]), [dict(k) for k in first[2]],
               first[3], first[4]) for _ in range(2)]
    prompts = [harness.build_system_prompt(*args) for args in (first, other, *copies)]
    rules = f"{text(t)}\n"
    short = f"{' '.join(t.random.sample(WORDS, 3))}.\n"  # a few words, as a small file holds
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as real:  # a folder on this machine's disk
        # and the names other agents read beside it, a folder's own local rules among them
        for name in ("AGENTS.md", "AGENTS.local.md", "AGENTS.override.md", "CLAUDE.md",
                     ".agents/AGENTS.md"):
            os.makedirs(os.path.dirname(os.path.join(real, name)), exist_ok=True)
            with open(os.path.join(real, name), "w", encoding="utf-8") as file:
                file.write(rules)
        on_disk = harness.build_system_prompt([], [], [], real, first[4])
        # and the process started in a folder holding a small AGENTS.md of its own
        os.makedirs(os.path.join(real, "started"))
        with open(os.path.join(real, "started", "AGENTS.md"), "w", encoding="utf-8") as file:
            file.write(short)
        try:
            os.chdir(os.path.join(real, "started"))
            started = harness.build_system_prompt([], [], [], CWD, first[4])
        finally:
            os.chdir(here)
    t.expect([len(sections(started)), short.strip() in started], [2, False],
             f"Given no context files, the process started in a folder of this machine's disk "
             f"holding a small AGENTS.md ({short.strip()!r}): the prompt is the bare one, since "
             "the builder reads no disk, not even when it is given no context files. Items: [how "
             "many parts, whether the file's text is in the prompt] (build_system_prompt, "
             "lesson 13, \"The builder reads nothing by itself: everything the prompt says comes "
             "in through its arguments\").")
    t.expect([len(sections(on_disk)), rules.strip() in on_disk], [2, False],
             f"Given no context files and, as cwd, a real folder holding an AGENTS.md, an "
             f"AGENTS.local.md, an AGENTS.override.md, a CLAUDE.md and a .agents/AGENTS.md "
             f"({rules.strip()!r}), the prompt is the bare one: the builder reads no disk, "
             "only its arguments, and finding the files is discover_context's job, in the "
             "workspace it is handed. Items: [how many parts, whether the file's text is in the "
             "prompt] (build_system_prompt, lesson 13).")
    t.expect([[prompt == prompts[0] for prompt in prompts],
              [[headed(prompt, "Available tools:"), sections(prompt)[-1]] for prompt in prompts]],
             [[True, False, True, True],
              [[["Available tools:"] + [f"- {x['name']}: {x['snippet']}" for x in tools],
                f"Current date: {today}\nCurrent working directory: {cwd}"]
               for tools, _, _, cwd, today in (first, other, first, first)]],
             "Equal arguments, equal text, whatever was built in between: a prompt that changes "
             "between calls also changes what a provider caches, and one kept from an earlier "
             "call is wrong for new arguments (build_system_prompt, lesson 13). Items: [whether "
             "each prompt equals the first, for the first, other, and two copies of the first "
             "arguments], then each prompt's [tools section, last part].")
    # The first arguments again, as another user's process on another machine would build
    # them: another account (its name, number and home, whose AGENTS.md files are on disk),
    # another host, started in another folder, and another salt for hash(), as every Python
    # process draws its own.
    other_user, saved = f"user{t.random.randint(100, 999)}", dict(os.environ)
    try:
        import socket
    except ImportError:  # a Python with no sockets has no host name to give
        socket = None
    uid, salt, hashed = t.random.randint(70000, 90000), t.random.random(), builtins.hash
    # another process number, and a clock some hundreds of weeks and a few days on, so that
    # the weekday, the date and the year all differ
    pid, shift = t.random.randint(100000, 400000), \
        (7 * t.random.randint(100, 900) + t.random.randint(1, 6)) * 86400
    clock, now, uname = datetime.datetime, time.time, getattr(os, "uname", None)
    node = platform.uname()  # and another Python, some versions on, as that machine may run
    spoken = (f"{sys.version_info[0]}.{sys.version_info[1] + 9}.{t.random.randint(1, 9)} "
              "(main, Jan  1 2031, 00:00:00) [GCC 19.1.0]")

    class Later(datetime.datetime):  # the wall clock as that other day gives it
        @classmethod
        def now(cls, tz=None):
            return clock.now(tz) + datetime.timedelta(seconds=shift)

        @classmethod
        def utcnow(cls):
            return clock.now(datetime.timezone.utc).replace(tzinfo=None) + \
                datetime.timedelta(seconds=shift)
    swaps = [(where, name, value) for where, name, value in (
        (os, "environ", Everywhere(other_user)),  # every name set
        (builtins, "hash", lambda value: hashed((salt, value))),
        (os, "getuid", lambda: uid), (os, "geteuid", lambda: uid),
        (os, "getpid", lambda: pid), (os, "getppid", lambda: pid - 1),
        (os, "uname", lambda: type(uname())((uname()[0], f"host-{other_user}", *uname()[2:]))),
        (time, "time", lambda: now() + shift), (datetime, "datetime", Later),
        (socket, "gethostname", lambda: f"host-{other_user}"),
        (platform, "node", lambda: f"host-{other_user}"),
        (platform, "uname", lambda: type(node)(node.system, f"host-{other_user}", node.release,
                                               node.version, node.machine)),
        (sys, "version", spoken),
        (sys, "platform", "darwin" if sys.platform != "darwin" else "linux"))
        if hasattr(where, name)]
    kept = [getattr(where, name) for where, name, _ in swaps]
    mine = f"Rules of {other_user}'s own: {text(t)}"
    with tempfile.TemporaryDirectory(prefix=other_user) as home:
        for name in ("AGENTS.md", ".agents/AGENTS.md"):
            os.makedirs(os.path.dirname(os.path.join(home, name)), exist_ok=True)
            with open(os.path.join(home, name), "w", encoding="utf-8") as file:
                file.write(mine)
        try:
            os.environ.update({name: f"{other_user}-{name.lower()}" for name in saved},
                              USER=other_user, LOGNAME=other_user, USERNAME=other_user,
                              LNAME=other_user, HOME=home, SHELL=f"/bin/{other_user}-sh")
            swaps[0][2].update(os.environ)
            for where, name, value in swaps:
                setattr(where, name, value)
            os.chdir(home)
            theirs = harness.build_system_prompt(*copies[0])
        except Exception as error:  # a builder that looks the account up may find none
            theirs = f"raised {type(error).__name__}: {error}"
        finally:
            os.chdir(here)
            for (where, name, _), value in zip(swaps, kept):
                setattr(where, name, value)
            os.environ.clear()
            os.environ.update(saved)
    t.expect([theirs == prompts[0], other_user in theirs, mine.strip() in theirs],
             [True, False, False],
             f"The first arguments built again as another user's process on another machine "
             f"would: USER, LOGNAME and HOME naming {other_user!r} and every other environment "
             f"variable another value, any other name it is asked for set too, user number {uid}, process number {pid}, host "
             f"'host-{other_user}' (as os.uname, socket and platform give it), Python "
             f"{spoken.split()[0]} on another platform (sys.platform), started in its home folder, which holds an AGENTS.md and a "
             ".agents/AGENTS.md, hash() salted as another process's is, and the wall clock "
             f"{shift // 86400} days on, another weekday. Items: [whether the prompt is the "
             "same text as before, whether it names that user, its host or its folder, whether "
             "it holds the home folder's AGENTS.md]: equal arguments give identical text in "
             "every process, so nothing of the machine, the account it runs under or the folder "
             "it started in goes in, nor the clock's day, and the builder reads no disk "
             "(build_system_prompt, lesson 13, Build item 3, \"Equal arguments must give "
             "identical text in every process\").")
    # One tools list, built from twice with other dates and once more after its first tool's
    # snippet changed and a tool joined it; among them a tool without snippet or guidelines
    # and one whose guidelines say a sentence twice, every key and value looked at after.
    tools, bare = first[0], described(t.random.choice(NAMES))
    advice = t.random.sample(ADVICE, 2)
    line = f"- {tools[-1]['name']}: {tools[-1]['snippet']}"
    tools += [bare, described(t.random.choice(NAMES), None, advice + advice[:1])]
    # and one whose snippet is "", which is no snippet, though the key is there
    tools.insert(t.random.randint(1, len(tools)), described(t.random.choice(NAMES), ""))
    before, again = copy.deepcopy(tools), []
    owned = [(x, x.get("guidelines"), x.get("snippet")) for x in tools]
    for today, cwd in ((first[4], first[3]), (other[4], other[3])):
        again.append(harness.build_system_prompt(tools, [], [], cwd, today))
    kept = [tools == before and all(x.get("guidelines") is lines and x.get("snippet") is said
                                    for x, lines, said in owned)]
    heads = [f"- {tools[0]['name']}: {tools[0]['snippet']}"] * 2
    tools[0]["snippet"] = before[0]["snippet"] = f"{t.random.choice(SNIPPETS)}, changed"
    heads.append(f"- {tools[0]['name']}: {tools[0]['snippet']}")
    tools.append(described("joined", "Joined late"))
    again.append(harness.build_system_prompt(tools, [], [], other[3], other[4]))
    kept.append(tools[:-1] == before)
    t.expect([[sections(prompt)[-1], (headed(prompt, "Available tools:") or ["", ""])[1],
               (headed(prompt, "Available tools:") or [""])[-1]] for prompt in again] + kept,
             [[f"Current date: {today}\nCurrent working directory: {cwd}", head, last]
              for today, cwd, head, last in ((first[4], first[3], heads[0], line),
                                             (other[4], other[3], heads[1], line),
                                             (other[4], other[3], heads[2],
                                              "- joined: Joined late"))] + [True, True],
             "The same tools list handed over three times: with the first date and folder, with "
             "the other's, and after its first tool's snippet was changed and a tool named "
             "joined was appended to it. Items: each prompt's [last part, first tool line, last "
             "tool line], then whether every tool kept exactly its keys and values (one with "
             "none of the two keys, one whose guidelines say a sentence twice, one whose snippet is \"\"), after the first "
             "two builds, its guidelines and snippet still the very objects the caller put "
             "there, not equal copies, and after the third: the builder makes a new prompt from each call's "
             "arguments, keeps none from an earlier call and writes nothing into the caller's "
             "tools (build_system_prompt, lesson 13, Build item 3, \"whatever was built "
             "before\").")
    # The first arguments again, every list and dict of them one that notes each change made
    # to it, and a tool with neither snippet nor guidelines among the tools: the builder reads
    # its arguments and changes none of them, not even for a moment while it runs
    noted = [NotedList([Noted(x, guidelines=NotedList(x["guidelines"])) for x in copies[1][0]]),
             NotedList(copies[1][1]), NotedList(Noted(k) for k in copies[1][2])]
    noted[0].insert(t.random.randint(0, len(noted[0])), Noted(described(t.random.choice(NAMES))))
    noted[0].forget()  # the insert above is the test's own
    watched = harness.build_system_prompt(*noted, first[3], first[4])
    seen = [("the tools list", noted[0])] + \
        [(f"tool {x['name']!r}", x) for x in noted[0]] + \
        [(f"tool {x['name']!r}'s guidelines", x["guidelines"]) for x in noted[0]
         if "guidelines" in x] + \
        [("the context files", noted[1]), ("the skills", noted[2])] + \
        [(f"skill {k['name']!r}", k) for k in noted[2]]
    t.expect([[what, value.changes] for what, value in seen if value.changes] +
             [watched == prompts[0]], [True],
             f"The first arguments again, with a tool of neither snippet nor guidelines among the "
             f"{len(noted[0])} tools, each list and dict of them one that notes every change made "
             "to it, even one taken back before the builder returned. Items: [each argument "
             "changed, the methods that changed it], then whether the prompt is the first "
             "one's: the builder reads its arguments and changes none of them, not even for a "
             "moment while it runs, so a caller's tools are never written into, not even "
             "to give a missing key a value that is taken back after (build_system_prompt, "
             "lesson 13, Build item 3, \"changes none of them\").")
    built = prompts + again + [on_disk, harness.build_system_prompt([], [], [], "", "")]
    t.expect([sections(prompt)[0] == sections(built[0])[0] for prompt in built],
             [True] * len(built),
             f"The opening lines of the {len(built)} prompts this test built, from 0 to "
             f"{len(tools)} tools, two dates and folders and, last, an empty date and folder, "
             "with and without context files and skills. Items: whether each is the first "
             "prompt's opening line. The opening line "
             "is the same words whatever the arguments: what changes goes in the sections below "
             "it, so the start of the prompt stays the same as tools come and go "
             "(build_system_prompt, lesson 13, Build item 3, the opening line).")


@lab_test("discover_context returns every AGENTS.md from the root down to cwd, broadest first, "
          "skipping folders that have none: cwd 0 to 8 folders deep and 100 to 200, however it is "
          "spelled, a folder named with a space at an end, one named with dots only, one "
          "with an accent spelled as a letter and a combining mark, one text of over ten million "
          "characters whole, with files beside and below it and other names than AGENTS.md left out "
          "(agents.md and CLAUDE.md among them), two files of the same words each kept, each "
          "pair a tuple; an AGENTS.md the workspace has but cannot read raises what read_text "
          "raised.")
async def test_discover_context_walks_from_the_root_down_to_cwd(t):
    cases = []
    for depth in [0, 0, 1, 2, 3, 4, 5, t.random.randint(1, 5), t.random.randint(1, 4)]:
        path = t.random.sample(FOLDERS, depth)
        present = [i for i in range(depth + 1) if t.random.random() < 0.6]
        if len(cases) == 8:  # "2024/AGENTS.md" sorts before its parent's "AGENTS.md"
            j = t.random.randint(0, depth - 1)
            path = [f for f in path if f != "2024"][:j] + ["2024"] + \
                [f for f in path if f != "2024"][j:depth - 1]
            present = sorted(set(present) | {j, j + 1})
        # a first line saved with Windows line ends and spaces at its end, kept as they are
        files = {"".join(f + "/" for f in path[:i]) + "AGENTS.md":
                 f"Rules {i}.  \r\n\r\n{text(t)}\n" for i in present}
        for i in range(depth):  # beside the way: a folder whose name begins the next one's
            files["/".join(path[:i] + [path[i][:-1], "AGENTS.md"])] = "Not on the way."
        files["/".join(path + [t.random.choice(FOLDERS), "AGENTS.md"])] = "Below cwd."
        files["/".join(path + ["main.py"])] = "print('ok')\n"
        spelled = t.random.choice(["/".join(path), "./" + "/".join(path), "/./".join(path) or ".",
                                   ("/".join(path) + "/") if path else "",
                                   "//".join(path) or "./"])
        cases.append((path, present, files, spelled))
    # eight folders deep with a file at every level: two with the same words, one opening with
    # a byte-order mark, and a CLAUDE.md beside each, which is not an AGENTS.md, and a
    # .agents/AGENTS.md, which is not on the way
    path, same = t.random.sample(FOLDERS, 8), text(t)
    twins = t.random.sample(range(9), 2)
    marked = t.random.choice([i for i in range(9) if i not in twins])
    files = {}
    for i in range(9):
        files["".join(f + "/" for f in path[:i]) + "AGENTS.md"] = \
            ("\ufeff" if i == marked else "") + (same if i in twins else text(t))
        files["".join(f + "/" for f in path[:i]) + "CLAUDE.md"] = f"Claude's rules {i}."
        # and a .agents folder holding an AGENTS.md: a folder beside the way, not on it
        files["".join(f + "/" for f in path[:i]) + ".agents/AGENTS.md"] = f"Hidden rules {i}."
    cases.append((path, list(range(9)), files, "/".join(path)))
    # a folder whose name has a space at its start or end, an AGENTS.md in every folder, and
    # beside it the folder of the name without that space, holding one too: each part of cwd
    # names a folder exactly as it is spelled
    path = t.random.sample(FOLDERS, t.random.randint(2, 4))
    spaced = t.random.randrange(len(path))
    trimmed = path[spaced]
    path[spaced] = named = t.random.choice([f" {trimmed}", f"{trimmed} "])
    files = {"".join(f + "/" for f in path[:i]) + "AGENTS.md": f"Rules {i}. {text(t)}"
             for i in range(len(path) + 1)}
    files["".join(f + "/" for f in path[:spaced]) + f"{trimmed}/AGENTS.md"] = "Not on the way."
    cases.append((path, list(range(len(path) + 1)), files, "/".join(path)))
    # a folder named with dots only, three or more, which is neither "." nor "..", and one
    # whose accent is spelled as a letter and a combining mark, beside the folder of the same
    # look spelled as one character: each is a folder, named exactly as it is spelled
    path = t.random.sample(FOLDERS, t.random.randint(3, 5))
    dots, marked = t.random.sample(range(len(path)), 2)
    path[dots] = "." * t.random.randint(3, 5)
    path[marked] = t.random.choice(["cafe", "resume", "Cafe"]) + "\u0301"
    files = {"".join(f + "/" for f in path[:i]) + "AGENTS.md": f"Rules {i}. {text(t)}"
             for i in range(len(path) + 1)}
    files["".join(f + "/" for f in path[:marked]) + path[marked][:-2] + "\u00e9/AGENTS.md"] = \
        "Not on the way."
    cases.append((path, list(range(len(path) + 1)), files, "/".join(path)))
    found = [harness.discover_context(lab.Workspace(files), spelled)
             for path, present, files, spelled in cases]
    t.expect(found, [[("".join(f + "/" for f in path[:i]) + "AGENTS.md",
                       files["".join(f + "/" for f in path[:i]) + "AGENTS.md"]) for i in present]
                     for path, present, files, spelled in cases],
             "Every AGENTS.md from the root down to cwd, one folder deeper at a time, broadest "
             "first so that the nearest has the last word; a folder with none is skipped, "
             "folders beside the way or below cwd are not on it, and \"\" and \".\" parts of cwd "
             "name no folder, and every other part names a folder exactly as it is spelled, "
             f"{named!r} with its space, a name of dots only such as '...' and an accent "
             "spelled as a letter and U+0301, never normalised to the one character; each text is the file's as the workspace holds "
             "it, its \\r\\n "
             "line ends, the spaces at a line's end, a byte-order mark and its final line "
             "break included, and two files of the same words are two files; a CLAUDE.md is "
             "not an AGENTS.md, nor are agents.md and AGENTS.MD; a .agents/AGENTS.md in a "
             "folder on the way is in a folder beside the way, not on it; and there is no cap on the "
             "depth. Each item is [(path, text), ...] for one workspace and cwd "
             "(discover_context, lesson 13).")
    # a hundred to two hundred folders deep, names repeating, every other folder holding an
    # AGENTS.md and the rest a file of another name only: a folder with no AGENTS.md adds nothing
    path, others = t.random.choices(FOLDERS, k=t.random.randint(100, 200)), \
        ["agents.md", "CLAUDE.md", "Agents.md", "AGENTS.MD"]
    files = {"".join(f + "/" for f in path[:i]) + ("AGENTS.md" if i % 2 == 0 else
                                                   others[i // 2 % len(others)]): f"Rules {i}."
             for i in range(len(path) + 1)}
    # one of them as long as a file can be: ten and a half to twelve million characters, in
    # long lines
    big = t.random.randrange(0, len(path) + 1, 2)
    line = ((" ".join(t.random.sample(WORDS, 6)) + " ") * 100)[:999] + "\n"
    files["".join(f + "/" for f in path[:big]) + "AGENTS.md"] = \
        "".join([f"Rules {big}.\n"] + [line] * t.random.randint(10_500, 12_000))
    walked = lab.Workspace(files)
    deep = harness.discover_context(walked, "/".join(path))
    wanted = [("".join(f + "/" for f in path[:i]) + "AGENTS.md",
               files["".join(f + "/" for f in path[:i]) + "AGENTS.md"])
              for i in range(0, len(path) + 1, 2)]
    t.expect([len(deep), deep == wanted], [len(wanted), True],
             f"cwd {len(path)} folders deep, an AGENTS.md in every other folder from the root "
             f"down, the one {big} folders down {len(wanted[big // 2][1])} characters long, "
             "and a file of another name in the rest. Items: [how many pairs "
             "discover_context returned, whether they are every AGENTS.md on the way, broadest "
             "first, each with its text whole]: one pair for each AGENTS.md on the way, however "
             "deep cwd is, each text exactly as the workspace holds it, however long: there is "
             "no cap on the depth nor on a text, and a CLAUDE.md is not an AGENTS.md, nor are "
             "agents.md and AGENTS.MD (discover_context, lesson 13, Build item 2).")
    # the same deep cwd asked again after one of its files was removed and a folder that had
    # none was given one: what is there now, not what the first call found
    gone, added = t.random.randrange(0, len(path) + 1, 2), t.random.randrange(1, len(path) + 1, 2)
    ws = walked
    ws.remove("".join(f + "/" for f in path[:gone]) + "AGENTS.md")
    ws.write_text("".join(f + "/" for f in path[:added]) + "AGENTS.md", "Added later.")
    now = [pair for pair in wanted if pair[0] != "".join(f + "/" for f in path[:gone]) +
           "AGENTS.md"] + [("".join(f + "/" for f in path[:added]) + "AGENTS.md", "Added later.")]
    now.sort(key=lambda pair: pair[0].count("/"))
    t.expect(harness.discover_context(ws, "/".join(path)) == now, True,
             f"The same {len(path)}-deep cwd asked again after the AGENTS.md {gone} folders "
             f"down was removed and one was written {added} folders down. The item: whether the "
             "answer is what the workspace holds now: discover_context looks at "
             "the workspace each time it is asked, never at what an earlier call found, however "
             "deep cwd is (discover_context, lesson 13, Build item 2, \"each text exactly as "
             "the workspace holds it\").")
    found.append(deep)
    # an AGENTS.md on the way that the workspace has but cannot read, in a workspace of its own
    # for every kind of error of every family (the ones a real disk raises included), each at
    # the root, partway down or in cwd itself, the three levels all drawn
    refused = []
    kinds = [pair for family in REFUSALS for pair in family]
    levels = ["root", "partway", "cwd"] + [t.random.choice(["root", "partway", "cwd"])
                                          for _ in range(len(kinds) - 3)]
    t.random.shuffle(levels)
    for (kind, words), level in zip(t.random.sample(kinds, len(kinds)), levels):
        names = t.random.sample(FOLDERS, t.random.randint(2, 6))
        at = {"root": 0, "partway": t.random.randint(1, len(names) - 1),
              "cwd": len(names)}[level]
        error = kind(words)
        files = {"".join(f + "/" for f in names[:n]) + "AGENTS.md": f"Rules {n}. {text(t)}"
                 for n in range(len(names) + 1)}
        locked = "".join(f + "/" for f in names[:at]) + "AGENTS.md"
        try:
            got = harness.discover_context(Locked(files, locked, error), "/".join(names))
            came = ["returned", [path for path, _ in got]]
        except Exception as raised:
            came = ["raised", f"{type(raised).__name__}: {raised}", raised is error]
        refused.append([locked, came, [type(error).__name__, str(error)]])
    t.expect([[locked, came] for locked, came, _ in refused],
             [[locked, ["raised", f"{kind}: {words}", True]]
              for locked, _, (kind, words) in refused],
             f"{len(refused)} workspaces with an AGENTS.md on every folder of the way, each holding one "
             "the workspace says exists but cannot read: "
             + "; ".join(f"{locked}, whose read_text raises {kind}: {words}"
                         for locked, _, (kind, words) in refused)
             + ". An AGENTS.md the workspace has but cannot read is not passed over in "
             "silence: what ws.read_text raised comes out of discover_context as it was "
             "raised, the very exception, never swallowed, wrapped or taken for a missing "
             "file, since a prompt that quietly lacks the project's rules says what is not "
             "there. Each item: [the file that cannot be read, what discover_context did: "
             "[\"raised\", the exception, whether it is the very one read_text raised] or "
             "[\"returned\", the paths it returned]] (discover_context, lesson 13, Build "
             "item 2, \"not passed over in silence\").")
    t.expect(sorted({type(pair).__name__ for pairs in found for pair in pairs}), ["tuple"],
             f"The kinds of the {sum(map(len, found))} pairs discover_context returned over "
             "these workspaces: it returns [(path, text)], each pair a tuple, as Build item 2 "
             "says (discover_context, lesson 13).")


@lab_test("discover_context with cwd \"\" or \".\" finds only the root's AGENTS.md, once.")
async def test_discover_context_at_the_root(t):
    root, below = text(t), text(t)
    sub = t.random.choice(FOLDERS)
    ws = lab.Workspace({"AGENTS.md": root, f"{sub}/AGENTS.md": below, f"{sub}/main.py": ""})
    spellings = ["", ".", t.random.choice(["./", ".//", "./."])]
    t.expect([harness.discover_context(ws, cwd) for cwd in spellings + [f"./{sub}"]],
             [[("AGENTS.md", root)]] * len(spellings) +
             [[("AGENTS.md", root), (f"{sub}/AGENTS.md", below)]],
             "\"\" and \".\" both name the root, however the root is spelled; a folder below "
             "it adds its own file after the root's (discover_context, lesson 13). Each item is "
             f"[(path, text), ...] for the cwd {spellings + [f'./{sub}']!r} in turn.")
    edited = f"Edited: {text(t)}"
    ws.write_text("AGENTS.md", edited)
    t.expect(harness.discover_context(ws, f"./{sub}"),
             [("AGENTS.md", edited), (f"{sub}/AGENTS.md", below)],
             "Asked again after the root's AGENTS.md changed, discover_context reads the "
             "workspace again and returns the new text: the prompt is made from what is there "
             "now, never from what was found earlier (discover_context, lesson 13).")
    ws.write_text(f"{sub}/AGENTS.md", "")
    t.expect(harness.discover_context(ws, f"./{sub}"),
             [("AGENTS.md", edited), (f"{sub}/AGENTS.md", "")],
             f"An empty {sub}/AGENTS.md is still an AGENTS.md on the way: one pair for each file, "
             "with its text as the workspace holds it, here \"\" (discover_context, lesson 13).")
    deeper, late = f"{sub}/{t.random.choice(NAMES)}", f"Added later: {text(t)}"
    before = harness.discover_context(ws, deeper)
    ws.write_text(f"{deeper}/AGENTS.md", late)
    t.expect([before, harness.discover_context(ws, deeper)],
             [[("AGENTS.md", edited), (f"{sub}/AGENTS.md", "")],
              [("AGENTS.md", edited), (f"{sub}/AGENTS.md", ""), (f"{deeper}/AGENTS.md", late)]],
             f"Asked for {deeper!r} before it held an AGENTS.md, then again once one was written "
             "there: the second answer has it. discover_context looks at the workspace each "
             "time it is asked, so a file added after a first call is found, as an edited one "
             "is (discover_context, lesson 13). Items: what was found before the file was "
             "written, and after.")
    ws.remove(f"{sub}/AGENTS.md")
    try:
        gone = harness.discover_context(ws, deeper)
    except Exception as error:
        gone = f"raised {type(error).__name__}: {error}"
    t.expect(gone, [("AGENTS.md", edited), (f"{deeper}/AGENTS.md", late)],
             f"Asked for {deeper!r} again after {sub}/AGENTS.md, found by the calls before, was "
             "removed from the workspace: one pair for each AGENTS.md the workspace holds now, "
             "and none for a file that is gone, since discover_context looks at the workspace "
             "each time it is asked, never at what an earlier call found (discover_context, "
             "lesson 13, Build item 2, \"each text exactly as the workspace holds it\"). The "
             "item is what was found.")
    # an account whose home and starting folder hold AGENTS.md files of their own, on this
    # machine's disk: discover_context looks in the workspace it is handed, and nowhere else
    saved, here, mine = dict(os.environ), os.getcwd(), f"Home rules: {text(t)}"
    with tempfile.TemporaryDirectory() as home:
        for name in ("AGENTS.md", ".agents/AGENTS.md", ".config/AGENTS.md", f"{sub}/AGENTS.md"):
            os.makedirs(os.path.dirname(os.path.join(home, name)), exist_ok=True)
            with open(os.path.join(home, name), "w", encoding="utf-8") as file:
                file.write(mine)
        try:
            os.environ.update(HOME=home, USERPROFILE=home, XDG_CONFIG_HOME=f"{home}/.config")
            os.chdir(home)
            homed = harness.discover_context(ws, deeper)
        except Exception as error:
            homed = f"raised {type(error).__name__}: {error}"
        finally:
            os.chdir(here)
            os.environ.clear()
            os.environ.update(saved)
    t.expect(homed, [("AGENTS.md", edited), (f"{deeper}/AGENTS.md", late)],
             f"Asked for {deeper!r} again, HOME naming a folder on this machine's disk that "
             "holds an AGENTS.md, a .agents/AGENTS.md and a .config/AGENTS.md, and the process "
             "started there: the same pairs as before, from the workspace alone. The paths are "
             "the workspace's own and the texts as the workspace holds them; no file of the "
             "account's home or of the process's folder is on the way (discover_context, "
             "lesson 13, Build item 2, \"The paths are the workspace's own\"). The item is "
             "what was found.")
    away = folder(t).strip("/")
    t.expect([away, harness.discover_context(lab.Workspace({f"{away}/{word}.py": ""
                                                           for word in t.random.sample(NAMES, 3)}),
                                             away)], [away, []],
             "No AGENTS.md anywhere: nothing (discover_context, lesson 13). Items: [cwd, what "
             "was found].")


@lab_test("The read, write and bash factories each carry a one-line snippet of their own, not "
          "the description, and a list of guidelines: two for read, two for write (the second "
          "shared with read), one for bash, each one sentence.")
async def test_the_factories_carry_snippets_and_guidelines(t):
    ws = lab.Workspace()
    made = {"read": harness.make_read_tool(ws), "write": harness.make_write_tool(ws),
            "bash": harness.make_bash_tool(lab.Shell(ws))}
    read, write = made["read"], made["write"]
    order = t.random.sample(list(made), 3)
    tools = [made[name] for name in order]
    t.expect([[x["name"], type(x.get("snippet")).__name__, "\n" in x.get("snippet", "\n"),
               bool(str(x.get("snippet", "")).strip()),
               any(piece.casefold() in str(x.get("snippet")).casefold()
                   for piece in pieces(x["description"].replace(", ", ". "))
                   if len(piece.split()) >= 3),
               bool(set(str(x.get("snippet", "")).casefold().replace(".", " ").split())
                    - {x["name"], "tool", "tools", "the", "a", "an", "this", "its"}),
               type(x.get("guidelines")).__name__,
               all(isinstance(line, str) and bool(line.strip())
                   for line in x.get("guidelines") or [""]),
               all(isinstance(line, str) and "\n" not in line and len(line) <= 200
                   for line in x.get("guidelines") or [""]),
               [line for line in x.get("guidelines") or [] if sentences(str(line)) != 1]]
              for x in tools] + [len({str(x.get("snippet")) for x in tools})],
             [[name, "str", False, True, False, True, "list", True, True, []] for name in order]
             + [3],
             "Each snippet is a string of one line, a few words of your own on what the tool is "
             "for, and each tool's is its own: the description already travels in the specs, so "
             "a snippet that is the description, or opens with one of its sentences or clauses, "
             "or holds one of its sentences or clauses anywhere, says it twice, a snippet of white space says nothing, and one snippet "
             "for all three tells them apart by nothing, and one that is the tool's name alone "
             "tells the model nothing it did not know, nor one that is its name and the word "
             "\"tool\" (\"bash tool\" says what bash is called, not what it is for); the "
             "guidelines are a list of short "
             "pieces of advice, each one sentence, none empty or blank, each on one line of 200 "
             "characters at most: a full stop, ? or ! followed by a space and a capital letter "
             "ends a sentence, so \"Prefer short commands. Read their output.\" is two, while "
             "an abbreviation such as e.g. ends none (lesson 13, Build item 1, \"one line on what the tool is for, "
             "not its description, and more than its name\", \"Each guideline is one sentence "
             "on one line, 200 characters at most\"). Each item: [tool, the snippet's type, "
             "whether it has a newline, whether it has a word, whether it holds a sentence or "
             "clause of the description, whether it has a word besides the tool's name, \"tool\" and an article, the "
             "guidelines' type, whether each guideline has a word, whether each is one line of "
             "200 characters at most, the guidelines that hold more than one sentence], then how many different snippets the three have.")
    t.expect([len(x.get("guidelines", [])) for x in tools] +
             [read["guidelines"][1] == write["guidelines"][1],
              read["guidelines"][0] != write["guidelines"][0]],
             [{"read": 2, "write": 2, "bash": 1}[name] for name in order] + [True, True],
             "read has two guidelines, write two, bash one; read's second is write's second, "
             "word for word (make_read_tool, make_write_tool, make_bash_tool, lesson 13). Items: "
             "how many guidelines each tool has, in the drawn order, then the two comparisons.")
    # Ten or more guidelines of its own, so that their order is never a set's by chance: a set
    # of them keeps first-seen order under about one hash seed in forty million.
    extra = described(t.random.choice(NAMES), t.random.choice(SNIPPETS),
                      [f"Keep {t.random.choice(FOLDERS)}/ tidy, rule {n}."
                       for n in t.random.sample(range(1, 1000), t.random.randint(10, 12))])
    tools.insert(t.random.randint(0, 3), extra)
    prompt = harness.build_system_prompt(tools, [], [], CWD, TODAY)
    listed = [line.split(":")[0][2:] for line in (headed(prompt, "Available tools:") or [])[1:]]
    owners = [[x["name"] for x in tools if line[2:] in x.get("guidelines", [])]
              for line in (headed(prompt, "Guidelines:") or [])[1:]]
    both = [n for n in (x["name"] for x in tools) if n in ("read", "write")]
    owned = [owner for x in tools for owner in {
        "read": [["read"], both], "write": [["write"], both], "bash": [["bash"]]}.get(
            x["name"], [[x["name"]]] * len(extra["guidelines"]))]
    t.expect([listed, owners],
             [[x["name"] for x in tools],
              [owner for n, owner in enumerate(owned)  # the shared line once, where first met
               if owner is not both or both not in owned[:n]]],
             "With all three and one more tool, the prompt lists each tool once, in the order "
             "given, and each guideline once, in the order first seen: the shared one once "
             "(build_system_prompt, lesson 13). Items: [the names on the tools section's lines, "
             "for each guidelines line the tools whose guidelines hold it].")
    again = {"read": harness.make_read_tool(ws), "write": harness.make_write_tool(ws),
             "bash": harness.make_bash_tool(lab.Shell(ws))}
    t.expect([[name, again[name] is not made[name],
               again[name].get("guidelines") is not made[name].get("guidelines"),
               not {id(x) for x in held(again[name].get("parameters"))} &
               {id(x) for x in held(made[name].get("parameters"))}]
              for name in order], [[name, True, True, True] for name in order],
             "Each factory called a second time. Items: [tool, whether the second call's dict is "
             "a new one, whether its guidelines are a list of its own, not the first call's, "
             "whether its parameters and every dict and list inside them are its own, none of "
             "them the first call's]: \"Each call of a factory returns a new dict, with lists "
             "and dicts of its own, its `parameters` included, so that a caller who changes one "
             "tool's keys changes no other tool\" (make_read_tool, make_write_tool, "
             "make_bash_tool, lesson 13, Build item 1): a parameters dict shared by every bash "
             "tool takes a property one caller adds to one tool into every other.")


@lab_test("tool_specs still sends only name, description and parameters, and every request of "
          "every run carries the built prompt unchanged.")
async def test_specs_and_requests(t):
    rules, note, name = text(t), " ".join(t.random.sample(WORDS, 4)), t.random.choice(NAMES)
    ws = lab.Workspace({"AGENTS.md": rules, f"{name}.txt": note + "\n"})
    made = [harness.make_read_tool(ws), harness.make_write_tool(ws),
            harness.make_bash_tool(lab.Shell(ws))]
    tools = t.random.sample(made, 3)
    t.expect([[spec["name"], sorted(spec)] for spec in harness.tool_specs(tools)],
             [[x["name"], ["description", "name", "parameters"]] for x in tools],
             "snippet and guidelines are for the system prompt, not the specs (tool_specs, "
             "lessons 2 and 13). Each item: [tool, the spec's keys].")
    skills = t.random.sample(SKILLS, t.random.randint(1, 3))
    today, cwd = day(t), folder(t)
    prompt = harness.build_system_prompt(tools, harness.discover_context(ws, "."), skills, cwd,
                                         today)
    later = [f"Thanks for {word}." for word in t.random.sample(WORDS, t.random.randint(1, 3))]
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": f"{name}.txt"})),
                               lab.say(f"It says {note}.")] +
                              [lab.say(f"Answer {n}.") for n in range(len(later))])
    h = harness.Harness(model, prompt, tools)
    await lab.drive(h.prompt(f"What is in {name}.txt?"))
    for text_ in later:
        await lab.drive(h.prompt(text_))
    t.expect([[request.system == prompt for request in model.calls], rules in prompt,
              prompt.endswith(f"Current date: {today}\nCurrent working directory: {cwd}")],
             [[True] * (2 + len(later)), True, True],
             "The prompt is built once, with the project's AGENTS.md in it and the caller's date "
             "last, and sent with every request, unchanged (Harness, lessons 8 and 13). Items: "
             "[for each request, whether it carried the prompt], whether the AGENTS.md text is "
             "in it, whether it ends with the date and directory.")
    t.expect([lab.shape(h.messages), h.messages[2]["content"].strip(),
              [harness.text_of(m) for m in h.messages if m["role"] == "assistant"][1:]],
             ["U A[c1] R(c1) A" + " U A" * len(later), note,
              [f"It says {note}."] + [f"Answer {n}." for n in range(len(later))]],
             "Every run finished, read's result holding the file (lesson 13). Items: [the "
             "record, read's result, the answers].")
