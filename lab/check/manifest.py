"""The course manifest: every lesson's lessons/NN-slug/lesson.toml, read in one place.

Each fact about a lesson or a lab (its title, the names it adds, where its files live) is
written once, in that lesson's lesson.toml, and every tool reads it from here: the checker, the
student's desk, the grader and the authoring tools. A lab's hints are the one exception: they sit
in the authors' wing, out of the folder a student opens, and are read here too (Lab.hints).

Where things live, decided here and nowhere else:
    lessons/NN-slug/            what a student opens: lesson.ipynb, and lesson.toml
    starters/NN-slug/labK/      one lab's content: harness.py (the standard starter),
                                harness.guided.py (the guided one), tests.py, expected.json
                                (what the reference found), changes.diff
    solutions/NN-slug/labK/     the reference harness.py (made, never edited; never released)
    source/                     the authors' wing: harness.src.py, lessons/NN-slug/lesson.md,
                                outputs.json (the pins) and hints.toml, tau_citations.toml;
                                never released
    lab/desk/hints.packed       a release's hints, packed (see pack_hints); a kit has none
    .course-release.json        a release's record of itself (RELEASE_STATE); a kit has none
"""
from __future__ import annotations

import base64
import json
import sys
import tomllib
import zlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from lab.check.errors import UnknownLab
from lab.check.problems import NoSuchLab, NoSuchLesson

KIT = Path(__file__).resolve().parents[2]
# The course in a browser tab (tools/site.py): Python there is Pyodide, which starts no process,
# so the desk checks with the practice check and the checker's loop does without sockets.
IN_BROWSER = sys.platform == "emscripten"
LESSONS = KIT / "lessons"
STARTERS = KIT / "starters"
SOLUTIONS = KIT / "solutions"
SOURCE = KIT / "source"  # the authors' wing

# A lab's three hints, in the order they are given: (key in hints.toml, how a student reads it).
HINT_LEVELS = (("questions", "questions"), ("approach", "the approach"),
               ("outline", "the outline"))
HINTS = "hints.toml"  # beside lesson.md in the authors' wing: ["LAB"] tables of HINT_LEVELS keys
PACKED = ("lab", "desk", "hints.packed")  # under the kit: a release's hints, where source/ is not
# How every starter marks a gap, as tools/labsource.py writes them and `--mine` reads them back
GAP_OPEN, GAP_CLOSE = "# --- your code ---", "# --- end ---"
# At the top of a student release: what the release wrote there, and whether labs come after its
# last (grader/release/carry.py writes it, as the next release's starting point).
RELEASE_STATE = ".course-release.json"


def relocate(kit: Path) -> Path:
    """Point every path above at another kit folder and forget the lessons read so far; returns
    the folder it pointed at before. The kit's own tests build small kits of their own."""
    global KIT, LESSONS, STARTERS, SOLUTIONS, SOURCE
    before = KIT
    KIT = Path(kit)
    LESSONS, STARTERS = KIT / "lessons", KIT / "starters"
    SOLUTIONS, SOURCE = KIT / "solutions", KIT / "source"
    lessons.cache_clear()
    return before


def more_to_come() -> bool:
    """Whether this copy is a student release that stops before the course does, so that the
    labs after its last come with a later release. The kit, and a release of every lab, hold
    the whole course: False."""
    try:
        state = json.loads((KIT / RELEASE_STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(isinstance(state, dict) and state.get("more"))


def key(lab_id: str) -> tuple[int, int]:
    """"15.1" -> (15, 1), so that labs sort in course order."""
    lesson, _, lab = lab_id.partition(".")
    return int(lesson), int(lab or 1)


@dataclass(frozen=True)
class Lab:
    id: str  # "15.1": lesson 15, lab 1
    lesson: "Lesson" = field(repr=False, compare=False)
    title: str
    adds: tuple[str, ...]  # public names this lab introduces, for "harness.py has no X yet"
    hints: tuple[str, ...]  # three levels: questions, approach, outline
    lines: int | None  # about how many lines a student writes
    points: float  # per test, unless a test says otherwise
    reference_only: bool  # a reference file exists, the lab itself is not built yet

    @property
    def number(self) -> int:
        return key(self.id)[1]

    @property
    def name(self) -> str:
        """How a student reads it: "lesson 15, lab 1"."""
        return f"lesson {self.lesson.number}, lab {self.number}"

    @property
    def folder(self) -> str:
        """The lab's place under starters/, solutions/ and a student's work folder."""
        return f"{self.lesson.folder.name}/lab{self.number}"

    @property
    def content(self) -> Path:
        """The lab's own folder of content, starters/NN-slug/labK/."""
        return STARTERS / self.folder

    @property
    def starter(self) -> Path:
        return self.content / "harness.py"

    @property
    def solution(self) -> Path:
        return SOLUTIONS / self.folder / "harness.py"

    @property
    def guided(self) -> Path:
        """The guided starter, whose gaps spell out their steps (`course start LAB --guided`)."""
        return self.content / "harness.guided.py"

    @property
    def tests(self) -> Path:
        return self.content / "tests.py"

    @property
    def expected(self) -> Path:
        """What each check of this lab's tests observed on the reference (tools/make.py)."""
        return self.content / "expected.json"

    @property
    def test_stem(self) -> str:
        """What this lab's test ids start with, "lesson_15_lab1::test_...", whatever the file
        a student runs is called."""
        return f"lesson_{self.lesson.number:02d}_lab{self.number}"


@dataclass(frozen=True)
class Lesson:
    number: int
    folder: Path
    title: str
    subtitle: str
    part: str
    minutes: int
    labs: tuple[Lab, ...]
    # The share of a class's grade the public tests are worth in a lab with a grading bank, as
    # lesson.toml gives it (grader/bank.py checks and uses it); None where it gives none.
    public_share: object = None

    @property
    def notebook(self) -> Path:
        return self.folder / "lesson.ipynb"

    @property
    def authors(self) -> Path:
        """The lesson's folder in the authors' wing, source/lessons/NN-slug/."""
        return SOURCE / "lessons" / self.folder.name

    @property
    def source(self) -> Path:
        return self.authors / "lesson.md"

    @property
    def hints(self) -> Path:
        """Its labs' hints, out of the folder a student opens (read by _hints_of)."""
        return self.authors / HINTS

    @property
    def outputs(self) -> Path:
        """What each code cell prints, pinned by running it (tools/notebooks.py pin)."""
        return self.authors / "outputs.json"


# --- hints ------------------------------------------------------------------------------------

PACKED_NOTE = """\
# The course's hints, for `course hint` and nothing else: one line per hint, "LAB LEVEL TEXT",
# where TEXT is the hint zlib-compressed and base64-encoded. They are packed only to keep them out
# of plain sight while you browse the course's files, so that no hint catches your eye before you
# ask for it. They are not secret: `course hint LAB` shows them, one level at a time.
"""


def pack_hints(labs) -> str:
    """The hints of `labs` as the text of lab/desk/hints.packed, for a copy of the course without
    source/. Encoded against a glance, not against a determined reader (PACKED_NOTE)."""
    lines = [PACKED_NOTE.rstrip("\n")]
    for lab in labs:
        for level, text in enumerate(lab.hints, 1):
            packed = base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
            lines.append(f"{lab.id} {level} {packed}")
    return "\n".join(lines) + "\n"


def _hints_of(lesson: "Lesson") -> dict[str, tuple[str, ...]]:
    """Lab id -> its hint texts in level order, for `lesson`: from the authors' wing when the
    kit has one, else from the packed file a release carries, else none."""
    authored = lesson.hints
    if authored.is_file():
        data = tomllib.loads(authored.read_text(encoding="utf-8"))
        return {lab_id: tuple(levels[k] for k, _ in HINT_LEVELS if k in levels)
                for lab_id, levels in data.items()}
    packed = KIT.joinpath(*PACKED)
    if SOURCE.is_dir() or not packed.is_file():
        return {}
    found: dict[str, list[tuple[int, str]]] = {}
    for line in packed.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            lab_id, level, text = line.split(" ", 2)
            found.setdefault(lab_id, []).append(
                (int(level), zlib.decompress(base64.b64decode(text)).decode("utf-8")))
    return {lab_id: tuple(text for _, text in sorted(levels)) for lab_id, levels in found.items()}


def _lesson(folder: Path) -> Lesson:
    data = tomllib.loads((folder / "lesson.toml").read_text(encoding="utf-8"))
    labs: list[Lab] = []
    lesson = Lesson(number=data["number"], folder=folder, title=data["title"],
                    subtitle=data.get("subtitle", ""), part=data.get("part", ""),
                    minutes=data.get("minutes", 0), labs=(),
                    public_share=data.get("public_share"))
    hints = _hints_of(lesson)
    for entry in data.get("lab", []):
        labs.append(Lab(id=entry["id"], lesson=lesson, title=entry["title"],
                        adds=tuple(entry.get("adds", ())),
                        hints=hints.get(entry["id"], ()),
                        lines=entry.get("lines"), points=float(entry.get("points", 1)),
                        reference_only=entry.get("reference_only", False)))
    object.__setattr__(lesson, "labs", tuple(labs))
    return lesson


@cache
def lessons() -> tuple[Lesson, ...]:
    """Every lesson with a lesson.toml, in course order."""
    found = [_lesson(p.parent) for p in LESSONS.glob("*/lesson.toml")]
    return tuple(sorted(found, key=lambda lesson: lesson.number))


def labs(*, built_only: bool = False) -> tuple[Lab, ...]:
    """Every lab in course order; with built_only, only those with tests and a starter."""
    every, built = _in_order(lessons())
    return built if built_only else every


def _in_order(read: tuple[Lesson, ...]) -> tuple[tuple[Lab, ...], tuple[Lab, ...]]:
    """The labs of `read` (lessons()'s answer) in course order, and the built ones among them,
    sorted once for each answer:
    the engine asks for a lab by name thousands of times in a grading run (each failed check's
    rule credits the lab that adds a name), and sorting forty labs each time cost a grader's
    worker more than judging did. Kept for the very answer it was sorted from, so a relocated
    kit, or a test's own lessons(), is sorted anew."""
    if _sorted[0] is not read:
        every = tuple(sorted((lab for lesson in read for lab in lesson.labs),
                             key=lambda lab: key(lab.id)))
        _sorted[:] = [read, (every, tuple(lab for lab in every if not lab.reference_only))]
    return _sorted[1]


_sorted: list = [None, ((), ())]  # [the lessons() answer last sorted, what _in_order made of it]


def lab(lab_id: str) -> Lab:
    for candidate in labs():
        if candidate.id == lab_id:
            return candidate
    raise UnknownLab(NoSuchLab(lab_id, tuple(x.id for x in labs(built_only=True))))


def lesson(number: int) -> Lesson:
    for candidate in lessons():
        if candidate.number == number:
            return candidate
    raise UnknownLab(NoSuchLesson(number))


def before(lab_id: str) -> tuple[Lab, ...]:
    """The built labs whose tests run before `lab_id`'s own: the cumulative suite."""
    return tuple(x for x in labs(built_only=True) if key(x.id) < key(lab_id))


def introduced_by(name: str) -> Lab | None:
    """The lab that adds the public name `name` ("CancelToken", "Harness.cancel")."""
    for candidate in labs():
        if name in candidate.adds:
            return candidate
    return None
