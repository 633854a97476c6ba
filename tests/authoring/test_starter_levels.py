"""Labs that ask for thought: what a student sees before the last hint must not hand over the
lab's lines.

The lines a lab asks for are the solution's lines that its standard starter does not already
hold: the solution and the starter (both without their headers) are compared line by line, and
every solution line the starter lacks is one the student writes. Blank lines, comments, and
lines made only of keywords and brackets (`else:`, `return False`, `)`) are not counted; a
line's trailing comment is dropped and its runs of whitespace are made one space.

What a student sees before the last hint: the standard starter, the lesson's notebook (as
tools/notebooks.py builds it from lesson.md, less every lab's last hint level) up to the end of
the lab's own section (its hints, its starter and its tests in plain words: the cells after it,
a Tau comparison or the closing card, are read once the lab is done), what those cells print
(outputs.json), and the lab's hint levels 1 and 2. Of the starter, what counts is what it
adds to the file the student finished in the lab before (the previous lab's reference): its
gap comments, its given lines and docstrings. A line the student already has in that file (an
`await asyncio.sleep(0)` written in 15.1 and written again in 15.2) is not handed over by
the new lab. A line counts as shown when it stands there whole, whitespace-normalised, not run
into a longer name. At most a tenth of a lab's lines may be shown.

A student may also scroll past the lab to the rest of its page (the Tau comparison and the
closing card show the reference's lines on purpose, once the lab is done). On the whole page,
every cell and what it prints, with the starter and hints 1 and 2 as above, at most a fifth of
a lab's lines and a tenth of the course's may stand.

Run as a script, it prints every lab's figure: .venv/bin/python tests/authoring/test_starter_levels.py
"""
import difflib
import html
import keyword
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # conftest's BUILT, run as a script
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from lab.check import manifest  # noqa: E402
from tools import labsource, notebooks  # noqa: E402

from conftest import BUILT  # noqa: E402

MOST = 0.10  # the share of a lab's lines that may be shown before its last hint
PAGE_LAB_MOST, PAGE_COURSE_MOST = 0.20, 0.10  # on the whole page: one lab, all labs together

# Labs over the limit because of what their lesson.md prints before the lab is done (cells of the
# rungs, a Build section), with the passages; the starters and hints alone stay under it (the
# second test). Each is an xfail(strict): once the lesson is fixed the test passes, and strict
# makes that a failure until the entry goes.
KNOWN: dict[str, str] = {}

NAME = re.compile(r"[A-Za-z_]\w*")
STRING = re.compile(r"""[rbfRBF]*("[^"\\]*(?:\\.[^"\\]*)*"|'[^'\\]*(?:\\.[^'\\]*)*')""")
EMPTY = set(keyword.kwlist) | set(keyword.softkwlist) | {"True", "False", "None"}


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


def counted(code: str) -> bool:
    """Whether a code line carries something of its own: a string, or a name that is not a
    keyword or a constant."""
    if STRING.search(code):
        return True
    return any(name not in EMPTY for name in NAME.findall(code))


def written(lab: manifest.Lab, tree) -> list[str]:
    """The lines the lab asks for: the solution's lines its standard starter does not hold,
    normalised, in file order."""
    solution = [code_of(line) for line in labsource.render(tree, lab.id, "solution").splitlines()]
    starter = [code_of(line) for line in labsource.render(tree, lab.id, "starter").splitlines()]
    lines = []
    matcher = difflib.SequenceMatcher(None, starter, solution, autojunk=False)
    for tag, _, _, low, high in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            lines += [code for code in solution[low:high] if code and counted(code)]
    return lines


def flat(text: str) -> str:
    return " ".join(text.split())


def added(lab: manifest.Lab, tree) -> str:
    """The standard starter's lines that the previous lab's reference does not hold."""
    starter = labsource.make(lab, "starter", tree=tree).splitlines()
    order = list(manifest.labs(built_only=True))
    at = order.index(lab)
    if at == 0:
        return "\n".join(starter)
    before = labsource.make(order[at - 1], "solution", tree=tree).splitlines()
    matcher = difflib.SequenceMatcher(None, before, starter, autojunk=False)
    return "\n".join(line for tag, _, _, low, high in matcher.get_opcodes()
                     if tag in ("replace", "insert") for line in starter[low:high])


def seen(lab: manifest.Lab, tree, *, whole_page: bool = False) -> dict[str, str]:
    """What a student sees before the last hint, by where it comes from, each whitespace-
    normalised into one line; with `whole_page`, every cell of the lesson, past the lab too."""
    lesson = lab.lesson
    cells = list(notebooks.build(lesson).cells) if lesson.source.is_file() else []
    own = [at for at, cell in enumerate(cells) if f"`course check {lab.id}`" in cell.source
           or (lab.hints and lab.hints[0].strip() in cell.source)]
    cells = cells[:own[-1] + 1] if own and not whole_page else cells
    notebook = []
    for cell in cells:
        text = cell.source
        for other in lesson.labs:
            if len(other.hints) == 3:
                text = text.replace(other.hints[2].strip(), "")
        notebook.append(html.unescape(text) if cell.cell_type == "markdown" else text)
    pins = notebooks.pins(lesson)
    return {"the starter": flat(added(lab, tree)),
            "the notebook": flat("\n".join(notebook)),
            "what its cells print": flat("\n".join(pins.get(cell.id, "") for cell in cells)),
            "hints 1 and 2": flat("\n".join(lab.hints[:2]))}


def shown_in(code: str, text: str) -> bool:
    return re.search(r"(?<![\w.])" + re.escape(code) + r"(?!\w)", text) is not None


@dataclass
class Share:
    lab: str
    lines: list[str]
    shown: dict[str, list[str]]  # where -> the lines shown there

    @property
    def count(self) -> int:
        return len({i for i, line in enumerate(self.lines)
                    if any(line in found for found in self.shown.values())})

    @property
    def share(self) -> float:
        return self.count / len(self.lines) if self.lines else 0.0

    def words(self) -> str:
        where = ", ".join(f"{place} {len(lines)}" for place, lines in self.shown.items() if lines)
        return (f"lab {self.lab}: {self.count} of {len(self.lines)} lines shown before the last "
                f"hint ({self.share:.0%})" + (f"; in {where}" if where else ""))


def measure(lab_id: str, tree=None, *, whole_page: bool = False) -> Share:
    tree = tree or labsource.parse(labsource.SOURCE.read_text(encoding="utf-8"))
    lab = manifest.lab(lab_id)
    lines = written(lab, tree)
    places = seen(lab, tree, whole_page=whole_page)
    return Share(lab_id, lines, {place: [line for line in lines if shown_in(line, text)]
                                 for place, text in places.items()})


@pytest.fixture(scope="module")
def tree():
    return labsource.parse(labsource.SOURCE.read_text(encoding="utf-8"))


def marked(lab_id):
    if lab_id in KNOWN:
        return pytest.param(lab_id, marks=pytest.mark.xfail(reason=KNOWN[lab_id], strict=True))
    return lab_id


@pytest.mark.parametrize("lab_id", [marked(lab_id) for lab_id in BUILT])
def test_at_most_a_tenth_of_a_labs_lines_are_shown_before_its_last_hint(lab_id, tree):
    found = measure(lab_id, tree)
    print(found.words())
    assert found.lines, f"lab {lab_id} asks for no lines: the measure found nothing to measure"
    details = "\n".join(f"  {place}: {lines}" for place, lines in found.shown.items() if lines)
    assert found.share <= MOST, f"{found.words()}\n{details}"


@pytest.mark.parametrize("lab_id", BUILT)
def test_the_starter_and_the_first_two_hints_alone_show_at_most_a_tenth(lab_id, tree):
    """The part this kit's starters and hints answer for, whatever the lesson's prose does."""
    found = measure(lab_id, tree)
    ours = {i for i, line in enumerate(found.lines)
            if line in found.shown["the starter"] or line in found.shown["hints 1 and 2"]}
    assert len(ours) <= MOST * len(found.lines), \
        f"lab {lab_id}: the starter and hints 1-2 show {sorted(found.lines[i] for i in ours)}"


def test_on_the_whole_page_at_most_a_fifth_of_a_labs_lines_stand_and_a_tenth_of_all():
    """Issue 24's measure: the whole page, the starter and hints 1 and 2."""
    tree = labsource.parse(labsource.SOURCE.read_text(encoding="utf-8"))
    found = [measure(lab_id, tree, whole_page=True) for lab_id in BUILT]
    over = [f"{f.words()}: {sorted({line for ls in f.shown.values() for line in ls})}"
            for f in found if f.share > PAGE_LAB_MOST]
    assert not over, "labs whose page gives more than a fifth of their lines:\n" + \
        "\n".join(over)
    share = sum(f.count for f in found) / sum(len(f.lines) for f in found)
    assert share <= PAGE_COURSE_MOST, f"the course's pages give {share:.1%} of its labs' lines"


def test_a_line_counts_as_shown_only_whole_and_only_when_it_carries_something():
    assert code_of('    x = f("#1")  # why') == 'x = f("#1")'
    assert not counted("else:") and not counted("return False") and not counted(")")
    assert counted("return text") and counted('raise ValueError("no")')
    assert shown_in("return text", "then `return text` here")
    assert not shown_in("return text", "return text_of(message)")


if __name__ == "__main__":
    parsed = labsource.parse(labsource.SOURCE.read_text(encoding="utf-8"))
    for lab_id in BUILT:
        figure = measure(lab_id, parsed)
        page = measure(lab_id, parsed, whole_page=True)
        print(figure.words() + ("  (known: " + KNOWN[lab_id] + ")" if lab_id in KNOWN else "") +
              f"; on the whole page {page.count} of {len(page.lines)} ({page.share:.0%})")
