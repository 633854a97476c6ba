"""The kit's words are made from its facts and never read back: with every sentence of
lab/check/words.py and its siblings (words_lines.py: the checker's lines and advice;
words_feedback.py: the grader's feedback, summary and a grade row's own sentences) and of the
grader's (grader/words_page.py: the class page; words_gradescope.py: Gradescope's results.json;
words_terminal.py: the grader's own terminal lines; words_statement.py: the isolation
statement; words_refused.py: what the grader refuses, from grader/refusals.py's records;
words_class.py: a submissions folder's entries, the roster's matches and the pairs alike)
swapped for a pseudo-localised one (marked, its words reordered), each check decides the same
verdicts, the same facts, the same advice, the same grouping of a class's students in the
grader's summary, the same counts and wrong designs on the class page, the same scores,
statuses and visibilities in results.json, the same submissions found in a folder, the same
roster matches and the same refusals; and what the checker prints and the grader writes
(feedback, summary, class page, results.json, its terminal lines, the entries it does not
grade, the roster's and the similarity's summaries, every refusal) holds no sentence of the
kit's that was not swapped."""
import ast
import base64
import contextlib
import dataclasses
import html as markup
import inspect
import io
import json
import os
import re

import pytest

from grader import (batch, classroom, classroom_score, gradescope, pipeline, plan as plans,
                    refusals, report, roster as rosters, similarity, submissions, words_class,
                    words_gradescope, words_page, words_refused, words_release,
                    words_statement, words_terminal)
from grader.release import changes, leaks, notes as release_record
from grader.__main__ import main as grader_command
from grader.errors import GraderError, PlanError, ReleaseError, Refused, SandboxError
from grader.grades import Grades
from grader.page import facts as page_facts, html, teaching
from grader.row import build
from grader.sandbox.found import Sandbox
from grader.sandbox.statement import Statement
from lab.check import (advice, errors, lines, manifest, problems, runner, seeds, suite, words,
                       words_errors, words_feedback, words_lines, words_values)
from lab.desk import (answers, course, errors as desk_errors, hints, labs, problems as desk_problems,
                      progress, recorded)
from lab.desk import words_cells, words_chat, words_course, words_errors as desk_words, words_start

LAB = manifest.lab("5.1")
SOLUTION = LAB.solution.read_text(encoding="utf-8")
# run_agent without its cap on turns: the test's scripted model runs out of replies (RanOut)
CAPPED = ("        if max_turns is not None and turn > max_turns:  # before the call, never after\n"
          '            reply = error_message(f"Agent stopped after max_turns={max_turns}")\n'
          "        else:\n"
          "            reply = model.complete(system, context_for_model(messages), "
          "tool_specs(tools))\n")
UNCAPPED = "        reply = model.complete(system, context_for_model(messages), tool_specs(tools))\n"
FILES = {
    "solution": SOLUTION,
    "starter": LAB.starter.read_text(encoding="utf-8"),
    "empty": "",
    "not the lab's": "def greet(name):\n    return 'Hello, ' + name\n",
    "lacks text_of": SOLUTION + "\ndel text_of\n",
    "uncapped": SOLUTION.replace(CAPPED, UNCAPPED),
}
# The isolation statement the summary ends with, as the facts a probe finds (its words are
# grader/words_statement.py's): a shared user, two jobs, a path the probe could still read
SANDBOX = Sandbox("user", False, None, None, None, 2, 2, 512, 60, 8, 32, 16, None,
                  ("/kit/.git",), False)
STATEMENT = Statement(SANDBOX.level, False, sandbox=SANDBOX)
MARK = "\u27e6"  # every pseudo-localised sentence opens with it
WORD = "\u02d9"  # and each of its words


def pseudo(text: str) -> str:
    """A sentence as a translation might make it: marked, word by word, and each line's words in
    another order. Every word keeps its mark wherever the sentence is cut or quoted, so what is
    left unmarked in a text is words no words module made. (A words module that only relays a
    sentence it was handed leaves it as it was: _swapping.)"""
    return MARK + "\n".join(" ".join(WORD + word if word else word
                                     for word in reversed(line.split(" ")))
                            for line in text.split("\n")) + "\u27e7"


# every module the kit's sentences are made in
WORDS = (words, words_lines, words_feedback, words_errors, words_values, desk_words, words_start,
         words_chat, words_course, words_cells, words_page, words_gradescope, words_terminal,
         words_statement, words_refused, words_class, words_release)


def _swapping(fn):
    """`fn`, its words swapped, but for the text it was handed and gives back whole: that stays
    as it was given. So a sentence made elsewhere and only relayed by a words module (the
    child's, or one made inline) stays unswapped, and is found; one a words module made before
    it was handed on is swapped already."""
    def said(*args, **kwargs):
        made = fn(*args, **kwargs)
        if made is None:
            return None
        relayed = sorted({value for value in (*args, *kwargs.values())
                          if isinstance(value, str) and ENGLISH.search(value) and value in made},
                         key=len, reverse=True)
        for n, value in enumerate(relayed):
            made = made.replace(value, f"\0{n}\0")
        made = pseudo(made)
        for n, value in enumerate(relayed):
            made = made.replace(f"{WORD}\0{n}\0", value).replace(f"\0{n}\0", value)
        return made
    return said


def _pseudo_localised(monkeypatch) -> None:
    """Every sentence the words modules make, swapped: each function that returns words, and
    each sentence kept as a constant."""
    for module in WORDS:
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ == module.__name__ and \
                    inspect.signature(fn).return_annotation in ("str", "str | None"):
                monkeypatch.setattr(module, name, _swapping(fn))
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, str):
                monkeypatch.setattr(module, name, pseudo(value))


# Three words of running English, none of them marked: "(" and '"' may open a word
ENGLISH = re.compile(r"(?<![^\s(\"'])[a-z]{3,}(?:[,;:]?\s+[a-z]{3,}){2,}")
TAG = re.compile(r"<style>.*?</style>|<[^>]+>", re.S)  # the page's markup and its CSS


def _unswapped(text: str, authored: set[str]) -> list[str]:
    """The runs of English left in `text` once every sentence a test's author wrote (a test's
    says, a rule, a lesson's title and headings, a wrong design of the catalogue) is taken
    out: a sentence of the kit's that no words module made."""
    for said in sorted(authored, key=len, reverse=True):
        text = text.replace(said, " ")
    return ENGLISH.findall(text)


def _strings(data: object) -> list[str]:
    """Every text a JSON document holds (results.json's), each as a reader sees it."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [text for value in data.values() for text in _strings(value)]
    if isinstance(data, list):
        return [text for value in data for text in _strings(value)]
    return []


def _terminal(folder, grades: Grades) -> str:
    """The grader's own lines in a terminal: an export's, and what `grade` refuses before it
    writes anything (grader/__main__.py, grader/pipeline.py)."""
    (folder / f"lab-{grades.lab}").mkdir(parents=True)
    (folder / f"lab-{grades.lab}" / "grades.json").write_text(grades.dumps(), encoding="utf-8")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        grader_command(["export", "--format", "csv", "--out", str(folder / "out.csv"),
                        str(folder)])
    lines = [printed.getvalue()]
    for asked in (dict(submissions=folder / "nowhere"), dict(submissions=folder, jobs=0),
                  dict(submissions=folder / f"lab-{grades.lab}", out=folder),
                  dict(submissions=folder / f"lab-{grades.lab}", out=folder / "out")):
        with pytest.raises(GraderError) as refused:
            pipeline.grade(pipeline.Asked(LAB.id, **{"out": folder / "out", **asked},
                                          settings=batch.Settings()))
        lines.append(str(refused.value))
    return "\n".join(lines)


def _class_folder(folder):
    """The submissions of a folder holding every kind of entry the grader does not grade (a
    hidden file, a folder Python makes, a text file, a link, a folder with no harness.py, one
    with two, a file too large to read), and the words it has for them: each entry not graded
    and each submission's problem."""
    folder.mkdir(parents=True)
    (folder / "ann.py").write_text("", encoding="utf-8")
    (folder / ".hidden.py").write_text("", encoding="utf-8")
    (folder / "__pycache__").mkdir()
    (folder / "notes.txt").write_text("", encoding="utf-8")
    os.symlink(folder / "ann.py", folder / "link.py")
    (folder / "empty").mkdir()
    for below in ("two/a", "two/b"):
        (folder / below).mkdir(parents=True)
        (folder / below / "harness.py").write_text("", encoding="utf-8")
    (folder / "big.py").write_bytes(b"#" * ((submissions.LARGEST_MB << 20) + 1))
    found, ignored = submissions.find(folder)
    return ([(s.student, s.unfound, s.candidates) for s in found],
            [*ignored, *(s.problem for s in found if s.problem)])


# A roster that matches one submission, misses one student, refuses one submission that two
# students fit and two that claim one student, and knows nothing of a fifth.
ROSTER = [rosters.Student("alice", "1001", "alice@school.edu"), rosters.Student("al", "7"),
          rosters.Student("alan", "8", "al@y.edu"), rosters.Student("bob", "1002"),
          rosters.Student("cy", "1003")]
SUBMITTED = ["alice", "alice@school.edu", "al", "bob", "zed"]
# Two files more alike than the starter explains, with more shared lines than are shown
PAIR = similarity.Pair("ann", "ben", (0.9, 0.75), ([(1, 20)], [(3, 22)]),
                       "\n".join(f"{n:2}  x{n} = {n}" for n in range(1, 21)))


def _every_refusal():
    """One record of each refusal (grader/refusals.py), its values made up, each sandbox's
    problem inside the one that says no sandbox could be set up."""
    made = {"int": 3, "bool": True, "tuple[str, ...]": ("a1", "b2"), "tuple[int, ...]": (1, 2),
            "Where": "/w/p", "str": "v1", "object": "o1", "fault": "several right",
            "stage": "failed", "Problem": problems.NoSuchLab("9.9", ("1.1", "2.1")),
            "CannotBlind": problems.CannotBlind("extra.py", "test_x", 4, "starred", "expect")}

    def kinds(of):
        return [k for sub in of.__subclasses__() for k in (sub, *kinds(sub))]
    def one(kind):
        return kind(*(made.get(f.name, made[str(f.type)]) for f in dataclasses.fields(kind)))
    made["tuple[Unsafe, ...]"] = tuple(one(kind) for kind in kinds(refusals.Unsafe))
    return [one(kind) for kind in kinds(refusals.Refusal) if kind is not refusals.Unsafe]


def _every_problem() -> list[problems.Problem]:
    """One record of each reason the engine refuses (lab/check/problems.py), its values made up,
    and CannotBlind once for each way a test reaches a check."""
    made = {"lab_id": "9.9", "known": ("1.1", "2.1"), "number": 99, "path": "/w/tests.py",
            "file": "tests.py", "lesson": 7, "lab": "lab 9.9", "what": "tests",
            "function": "test_x", "line": 4, "method": "expect", "start": "course start LAB"}
    made_up = [kind(**{f.name: made[f.name] for f in dataclasses.fields(kind)})
               for kind in problems.Problem.__subclasses__() if kind is not problems.CannotBlind]
    return made_up + [problems.CannotBlind("tests.py", function, 4, reach, "expect")
                      for reach in words_errors.HOW for function in ("test_x", None)]


def _release() -> release_record.Release:
    """An update of a student release through lab 2.1 to one through lab 3.1, with every part
    its words cover: a cell shown as recorded (one of each kind), a reference shipped, files
    replaced, kept and left, tests that changed, each entry of source/lab_changes.toml told, and
    a lesson whose notebook could not be built (the lesson's fault, and the disk's)."""
    tests = f"starters/{manifest.lab('2.1').folder}/tests.py"
    return release_record.Release(
        "/w/course", through="3.1", lessons=["02-tools", "03-loop"], labs=["2.1", "3.1"],
        later=["3.2"], references=["2.1"], earlier="2.1", seen=None,
        cells=[leaks.Cell("03-loop", 4, "course.reference('3.1')", ["3.1"], True),
               leaks.Cell("03-loop", 5, "h.run('x')", ["3.1"], False),
               leaks.Cell("03-loop", 9, "course.yours('3.2')", [], False, ["3.2"])],
        added=["a.py"], updated=[tests], kept={"b.py": "b.mine.py"}, left=["c.py"],
        unbuilt=[("03-loop", refusals.Unclosed("lesson.md, line 3")),
                 ("03-loop", "[Errno 28] No space left on device")])


def _every_desk_problem() -> list[desk_problems.DeskProblem]:
    """One record of each reason the desk refuses (lab/desk/problems.py), its values made up,
    and CopyLacks and CellNotStarted once for each of their forms."""
    made = {"lab": "lab 9.9", "lab_id": "9.9", "what": "starter", "file": "tests.py",
            "earlier": "9.8", "check": "course check 9.8", "start": "course start 9.9",
            "later": None, "path": "/w/x.py", "key": "99.x", "error": "ValueError",
            "said": "", "lacks": (("Harness", "lab 9.9"), ("text_of", None)), "last": "9.9",
            "failed": 3, "tests": 9, "option": "--workdir"}
    made_up = [kind(**{f.name: made[f.name] for f in dataclasses.fields(kind)})
               for kind in desk_problems.DeskProblem.__subclasses__()]
    return made_up + [desk_problems.CopyLacks("guided starter", "lab 9.9", "g.py"),
                      desk_problems.CellNotStarted("9.9", "lab 9.9", "course.start()", "9.10")]


def _text_of_page(page: str) -> str:
    """The class page as a reader sees its words: its markup and CSS gone, each line of it
    apart, its entities read (an author's "it's" is escaped on the page)."""
    return markup.unescape(TAG.sub("\n", page))


def _checked(tmp_path, name: str, text: str, write):
    """The outcomes of checking `text` as lab_check.py does, its lines written to `write`."""
    folder = tmp_path / name.replace(" ", "_").replace("'", "")
    folder.mkdir(parents=True)
    harness = folder / "harness.py"
    harness.write_text(text, encoding="utf-8")
    return lines.check_aloud(harness, LAB.tests, LAB.lesson.number, write=write).report.outcomes


def _decided(tmp_path, monkeypatch, localised: bool):
    """What the checks decided for each file, and what the grader and the class page made
    of them as one class."""
    if localised:
        _pseudo_localised(monkeypatch)
    printed: list[str] = []
    outcomes = {name: _checked(tmp_path / str(localised), name, text, printed.append)
                for name, text in FILES.items()}
    plan = plans.make(LAB.id)
    rows = [build(plan, name, "harness.py", found, text=FILES[name])
            for name, found in outcomes.items()]
    groups = {t.id: sorted(sorted(students) for _, students in report._grouped(rows, t.id))
              for t in plan.tests}
    grades = Grades(plan.lab, LAB.name, LAB.title, False, plan.max_score, plan.sets,
                    list(plan.tests), STATEMENT, [], [r.for_students() for r in rows])
    page = page_facts.read(grades)
    results = {r.student: gradescope.results_json(plan, r, STATEMENT, "after_published", 1.0,
                                                  took="the only .py file in your submission"
                                                  if r.student == "empty" else "")
               for r in rows}
    found, problems = _class_folder(tmp_path / f"class-{localised}")
    matched = rosters.match(ROSTER, SUBMITTED)
    refused = _every_refusal()
    said = {"printed": "\n".join(printed),
            "feedback": "\n".join(report.feedback(plan, r) for r in rows),
            "summary": report.summary(plan, rows, STATEMENT),
            "class page": _text_of_page(html.page(page, tmp_path)),
            "terminal": _terminal(tmp_path / f"terminal-{localised}", grades),
            "submissions folder": "\n".join(problems),
            "roster": rosters.summary(matched),
            "similarity": "\n".join(similarity.summary([PAIR])[1:]),
            "refusals": "\n".join(str(GraderError(fact)) for fact in refused),
            "the release's summary": words_release.summary(_release()),
            "RELEASE.md": words_release.release_notes(_release()),
            "the engine's refusals": "\n".join(str(errors.Stated(fact))
                                                for fact in _every_problem()),
            "the desk's refusals": "\n".join(str(desk_errors.CourseError(fact))
                                              for fact in _every_desk_problem()),
            # extra_data is data for an instructor's tools: the verdict's and the level's values
            "results.json": "\n".join(_strings({student: {**data, "extra_data": None}
                                                for student, data in results.items()})),
            # every line of what the student reads there is made in a words module, however
            # short (a line of three short words escapes the search for running English)
            "results.json outputs": "\n".join(
                text for data in results.values()
                for text in [data["output"], *(t["output"] for t in data["tests"])])}
    return {
        "verdicts": {n: [(o.id, o.verdict) for o in found] for n, found in outcomes.items()},
        "facts": {n: [o.cause for o in found] for n, found in outcomes.items()},
        "missing": {n: advice.missing(found) for n, found in outcomes.items()},
        "advice": {n: _advised(advice.step(LAB.id, found)) for n, found in outcomes.items()},
        "overall": {r.student: r.verdict for r in rows},
        "submissions": found,
        "roster": (matched.found, matched.missing, matched.unknown, matched.refused),
        "refused": refused,
        "the engine refused": _every_problem(),
        "the desk refused": _every_desk_problem(),
        "groups": groups,
        "page": [(r.id, r.failed, r.ran) for r in page.rules],
        "students": [(s.name, s.score, s.cells) for s in page.students],
        "designs": [(r.id, [d["name"] for d in teaching.designs_like(r.lab, r.says, r.broke,
                                                                     r.functions)])
                    for r in page.most_failed()],
        "results": {student: (data["score"], data["extra_data"]["verdict"],
                              [(t["name"], t["score"], t["status"], t["visibility"])
                               for t in data["tests"]]) for student, data in results.items()},
    }, outcomes, said


# Where every line is a sentence the kit made, however short: a line of a few short words ("--jobs
# must be 1 or more") escapes the search for running English, so each line must be marked.
EVERY_LINE_MADE = ("results.json outputs", "terminal", "submissions folder", "roster")


def _advised(step: advice.Next) -> tuple:
    """The closing line's advice as the facts it names."""
    return (step.step, step.lab, step.later, step.test and step.test.id,
            step.stopped and step.stopped.id)


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    with pytest.MonkeyPatch.context() as monkeypatch:
        return _decided(tmp_path_factory.mktemp("plain"), monkeypatch, localised=False)


def test_pseudo_localised_words_change_what_is_said_and_nothing_that_is_decided(
        plain, tmp_path, monkeypatch):
    decided, outcomes, said = _decided(tmp_path, monkeypatch, localised=True)
    before, said_before, _ = plain
    said = [o.message for found in outcomes.values() for o in found if o.message]
    assert any(MARK in m for m in said), "no sentence was swapped: the test swaps nothing"
    assert {n: [o.message for o in found] for n, found in outcomes.items()} != \
        {n: [o.message for o in found] for n, found in said_before.items()}
    for what in before:
        assert decided[what] == before[what], \
            f"pseudo-localised words changed the {what} decided from them"
    assert before["missing"]["empty"] and before["missing"]["lacks text_of"] is None, \
        "the files chosen no longer show a file lacking every name beside one lacking one"
    assert any(o.cause is not None and type(o.cause).__name__ == "RanOut"
               for o in said_before["uncapped"]), "the uncapped file no longer runs a fake out"
    assert any(named for _, named in before["designs"]), \
        "no failure of these files matches a wrong design: the page's matching is not tested"


def test_what_the_checker_prints_and_the_grader_writes_is_every_sentence_swapped(
        plain, tmp_path, monkeypatch):
    _, outcomes, said = _decided(tmp_path, monkeypatch, localised=True)
    authored = {o.says for found in outcomes.values() for o in found}
    authored |= {o.rule.said for found in outcomes.values() for o in found if o.rule}
    authored |= {why for lab in manifest.labs(built_only=True) if lab.expected.exists()
                 for test in seeds.loads(lab.expected.read_text(encoding="utf-8")).values()
                 for why in test["why"]}
    authored |= {t.says for t in plans.make(LAB.id).tests}
    authored |= {item for lab in manifest.labs(built_only=True) if lab.expected.exists()
                 for test in seeds.loads(lab.expected.read_text(encoding="utf-8")).values()
                 for rule in seeds.Expectation.from_dict(test).rules for item in rule.items or ()}
    authored |= set(FILES)  # the students' names
    authored |= {LAB.title, *(LAB.lesson.title for LAB in manifest.labs(built_only=True))}
    authored |= {s.heading for lab in manifest.labs(built_only=True)
                 if (s := teaching.section(lab.id)) is not None}
    authored |= {d[key] for d in teaching.designs() for key in ("name", "rule", "where")}
    authored |= {c.words for c in changes.recorded()}  # the authors' words of what changed
    authored.add("No space left on device")  # the system's own words
    for where in EVERY_LINE_MADE:
        unmarked = [line for line in said[where].split("\n") if line.strip() and WORD not in line]
        assert not unmarked, (f"the {where} hold lines no words module made "
                              f"(grader/words_*.py): {unmarked[:8]}")
    for fact in _every_refusal():
        assert str(GraderError(fact)).startswith(MARK), \
            f"the refusal {fact!r} is not said by grader/words_refused.py"
    for problem in _every_problem():
        assert str(errors.Stated(problem)).startswith(MARK), \
            f"the engine's refusal {problem!r} is not said by lab/check/words_errors.py"
    for fault in _every_desk_problem():
        assert str(desk_errors.CourseError(fault)).startswith(MARK), \
            f"the desk's refusal {fault!r} is not said by lab/desk/words_errors.py"
    for where, text in said.items():
        assert MARK in text, f"nothing in the {where} was swapped: the test swaps nothing there"
        left = _unswapped(text, authored)
        assert not left, (f"the {where} holds words no words module made (lab/check/words*.py, "
                          f"grader/words_*.py): "
                          f"{left[:8]}")


def test_the_classroom_scorer_says_only_its_own_table_and_scores_the_same(tmp_path, monkeypatch,
                                                                          capsys):
    """grader/classroom_score.py runs alone in a student's repository, so its sentences are a
    table of its own (WORDS): swapped, a push whose course files are gone scores the same and
    says nothing the table did not make."""
    released = classroom.released(LAB.id)
    monkeypatch.setattr(classroom_score, "hide", lambda: None)  # this process stays dumpable
    monkeypatch.setattr(classroom_score, "result_file", lambda: None)  # printed, not written

    def scored(localised: bool):
        if localised:
            monkeypatch.setattr(classroom_score, "WORDS",
                                {key: pseudo(text) for key, text in classroom_score.WORDS.items()})
        (tmp_path / str(localised)).mkdir()
        classroom_score.main(released, tmp_path / str(localised))
        printed = capsys.readouterr().out.splitlines()
        said = [line for line in printed if not line.startswith("result=")]
        encoded = next(line for line in printed if line.startswith("result="))
        data = json.loads(base64.b64decode(encoded.removeprefix("result=")))
        return said, (data["status"], data["max_score"],
                      [(t["name"], t["status"], t["score"]) for t in data["tests"]])

    said_before, scored_before = scored(False)
    said, decided = scored(True)
    assert decided == scored_before, "the scorer's swapped words changed what it scored"
    assert said != said_before and all(WORD in line for line in said), (
        f"the scorer printed lines its WORDS table did not make: "
        f"{[line for line in said if WORD not in line][:4]}")
    assert not ENGLISH.findall("\n".join(said)), ENGLISH.findall("\n".join(said))[:4]


def test_no_module_raises_a_refusal_as_a_sentence():
    """Every GraderError, LessonError and LedgerError is raised with a record of
    grader/refusals.py, every UnknownLab, NothingToCheck and Unblindable of the engine with a
    Problem of lab/check/problems.py, and every CourseError of the desk with a record of
    lab/desk/problems.py, never with words made where it is raised: mypy sees only the typed
    functions' bodies, and the surfaces above only the refusals they meet."""
    from grader.ledger import LedgerError
    from grader.lesson_notebooks import LessonError
    errors_ = (GraderError, PlanError, SandboxError, ReleaseError, LessonError, LedgerError)
    assert all(issubclass(error, Refused) for error in errors_)
    from lab.desk.chat import ChatError
    engines = (errors.UnknownLab, errors.NothingToCheck, errors.Unblindable,
               desk_errors.CourseError, desk_errors.NotStarted, desk_errors.NoReference, ChatError)
    assert all(issubclass(error, errors.Worded) for error in engines)
    names = {error.__name__ for error in (*errors_, *engines)}  # as the modules raise them
    raised, raised_with_words = [], []
    for path in sorted([*(manifest.KIT / "grader").rglob("*.py"),
                        *(manifest.KIT / "lab").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and \
                    isinstance(node.exc.func, ast.Name) and \
                    node.exc.func.id in names:
                raised.append(node.exc.func.id)
                given = node.exc.args[0] if node.exc.args else None
                if not isinstance(given, ast.Call):  # a record is made by calling its class
                    raised_with_words.append(f"{path.name}:{node.lineno}")
    assert {error.__name__ for error in engines} <= set(raised), \
        "the search found no raise of the engine's refusals: it looks in the wrong place"
    assert not raised_with_words, (f"refusals raised with words, not a record of "
                                   f"grader/refusals.py, lab/check/problems.py or "
                                   f"lab/desk/problems.py: "
                                   f"{raised_with_words}")


# Desk modules that hold English on purpose, outside the desk's words modules, and why.
DESK_ENGLISH = {
    "cli.py": "argparse's help, which argparse wraps in English of its own",
    "chat.py": "argparse's help of `course chat`, for the same reason",
    "labfolder.py": "the docstrings of the two small Python files it writes: code, not said",
    "real.py": "what the real workspace's tools tell the model, as the fake world's do",
    "answers.py": "the placeholder a lesson's answer cell holds, compared, never said",
}


def _sentences(path) -> list[str]:
    """The string constants and f-strings of a module that hold three words of running English
    (a value an f-string puts in joins a run, but is not one of its three), its docstrings
    aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    inside = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
              for part in node.values}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(part.value if isinstance(part, ast.Constant) else "value"
                           for part in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                id(node) not in docs and id(node) not in inside:
            text = node.value
        else:
            continue
        if any(len([w for w in re.findall(r"[a-z]{3,}", run) if w != "value"]) >= 3
               for run in ENGLISH.findall(text)):
            found.append(f"{path.name}:{node.lineno}: {text[:60]!r}")
    return found


def test_the_desk_says_nothing_but_through_its_words_modules():
    """What the desk prints or shows is made in lab/desk/words_*.py: no other module of the
    desk holds a sentence, but those DESK_ENGLISH names, each for its reason (and each still
    holding one, so the list says what is true)."""
    found = {path.name: _sentences(path) for path in sorted((manifest.KIT / "lab" / "desk").glob("*.py"))
             if not path.name.startswith("words_")}
    stray = [line for name, lines in found.items() if name not in DESK_ENGLISH for line in lines]
    assert not stray, ("sentences made outside the desk's words modules (lab/desk/words_*.py): "
                       f"{stray[:8]}")
    stale = [name for name in DESK_ENGLISH if not found.get(name)]
    assert not stale, f"DESK_ENGLISH names modules that hold no English any more: {stale}"

# Engine modules that hold English on purpose, outside its words modules, and why.
ENGINE_ENGLISH = {
    "kit.py": "the helpers' words for a test's author: a fake tool's description, a file the "
              "harness opened for writing (everything_said), misuse",
    "seeds.py": "an expected.json whose record does not add up: for a course author",
    "record.py": "a reference that fails the kit's own tests: for a course author",
    "manifest.py": "a comment in the hints file it writes: code, not said",
    "process.py": "the child's command line, and a misuse of runner.run on Windows",
    "runner.py": "expected.json files recorded under two seeds: for a course author",
    "suite.py": "an instructor's file asked for its lab: a misuse",
    "in_page.py": "a job that does not open with a Run: a misuse",
    "importer.py": "a harness.py that cannot be given a module: the import's own error",
    "zygote.py": "why no child could be forked, after which a new interpreter is started",
}


def test_the_engine_says_nothing_to_a_student_but_through_its_words_modules():
    """What the checker says to a student is made in lab/check/words*.py: no other module of
    the engine holds a sentence, but those ENGINE_ENGLISH names, each for its reason (and each
    still holding one). The child's reports carry facts, which the runner says."""
    found = {path.name: _sentences(path)
             for path in sorted((manifest.KIT / "lab" / "check").glob("*.py"))
             if not path.name.startswith("words")}
    stray = [line for name, lines in found.items() if name not in ENGINE_ENGLISH
             for line in lines]
    assert not stray, ("sentences made outside the engine's words modules (lab/check/words*.py): "
                       f"{stray[:8]}")
    stale = [name for name in ENGINE_ENGLISH if not found.get(name)]
    assert not stale, f"ENGINE_ENGLISH names modules that hold no English any more: {stale}"


def test_nothing_reads_a_message_back_for_what_it_says():
    """A verdict's message is shown, copied and cut, never searched: whoever needs to know why a
    test ended reads its fact (Outcome.cause). No module of the engine or the grader looks for
    words in a message, or in a test's error."""
    read_back = []
    for path in sorted([*(manifest.KIT / "grader").rglob("*.py"),
                        *(manifest.KIT / "lab").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            searched = []
            if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn))
                                                     for op in node.ops):
                searched = node.comparators
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("startswith", "endswith", "find", "index", "count",
                                       "partition", "split"):
                searched = [node.func.value]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("search", "match", "fullmatch", "findall"):
                searched = node.args[1:2] if isinstance(node.func.value, ast.Name) and \
                    node.func.value.id == "re" else node.args[:1]
            if any(isinstance(text, ast.Attribute) and text.attr in ("message", "error")
                   for text in searched):
                read_back.append(f"{path.relative_to(manifest.KIT)}:{node.lineno}: "
                                 f"{ast.unparse(node)[:80]}")
    assert not read_back, f"a message read back for what it says: {read_back}"


def test_the_grader_names_an_unknown_lab_from_the_engines_record_not_its_sentence(
        monkeypatch):
    """The grader's refusal of a lab the kit lacks carries the engine's record, so its words
    follow the engine's words and nothing reads a sentence back."""
    with pytest.raises(PlanError) as refused:
        plans.make("99.9")
    assert refused.value.fact == refusals.UnknownLabAsked(
        problems.NoSuchLab("99.9", tuple(lab.id for lab in manifest.labs(built_only=True))))
    _pseudo_localised(monkeypatch)
    assert str(refused.value).startswith(MARK) and "99.9" in str(refused.value)


def test_what_the_desk_prints_is_every_sentence_swapped(work, monkeypatch, capsys):
    """Starting a lab (fresh, again, refused for a later lab, guided), resetting it (declined
    and done), an open answer saved and recalled, hints at every level, the course's progress
    and a replayed cell in each of its forms: each line printed comes from a words module
    (lab/desk/words_start.py, words_course.py, words_cells.py)."""
    _pseudo_localised(monkeypatch)
    monkeypatch.setattr(manifest, "IN_BROWSER", False)
    first, later = "12.1", "12.2"
    course.start(later)
    course.start(later)
    course.start(first)  # refused: lab 12.2, started, holds its code
    labs.start("2.1", guided=True)
    monkeypatch.setattr("builtins.input", lambda question: "n")
    labs.reset(later)
    labs.reset(later, confirm=False)
    answers.respond("04.boundary", "")
    answers.respond("04.boundary", "At the tool's edge.")
    answers.recall("04.boundary")
    answers.recall("05.exits")
    for level in (0, None, 1, 0, None, None, None):
        hints.hint(later, level)
    course.record_check(later, 3, 2)
    progress.progress()
    for entry in ({"later": ["16.1", "16.2"]}, {"needs": ["4.1"], "printed": None},
                  {"needs": ["4.1", "5.1"], "printed": "42\n"}):
        print(recorded.text(entry), end="")
    recorded.replay("05-exits", "cell-no-such")
    said = capsys.readouterr().out
    hinted = {hint.strip() for hint in manifest.lab(later).hints}
    authored = hinted | {"At the tool's edge."} | {
        lab.title for lab in manifest.labs(built_only=True)} | {
        lesson.title for lesson in manifest.lessons()}
    unmarked = [line for line in said.split("\n")
                if line.strip(" \u27e7") and WORD not in line and not any(line in h for h in hinted)
                and line.strip() not in ("At the tool's edge.", "42")]
    assert not unmarked, f"the desk printed lines no words module made: {unmarked[:8]}"
    left = _unswapped(said, authored)
    assert not left, f"the desk printed words no words module made: {left[:8]}"


# What each file adds at the end of its lab's solution: lab 15.1's run_tool waits on what no
# one will ever set, so the child's own guard stops each test that reaches it (facts.Stalled);
# lab 5.1's does not import, spins as it is imported, or ends its process in a test.
@pytest.mark.parametrize("name, lab_id, added, practice", [
    ("waits", "15.1", "async def run_tool(tools, call, signal=None):\n    import asyncio\n"
                      "    await asyncio.get_running_loop().create_future()\n", False),
    ("does not import", "5.1", "raise ValueError('no')\n", False),
    ("spins as it is imported", "5.1", "while True:\n    pass\n", True),
    ("ends its process", "5.1", "def text_of(*args, **kwargs):\n    import os\n    os._exit(3)\n",
     False)])
def test_what_the_child_reports_as_a_fact_the_student_reads_in_swapped_words(
        tmp_path, monkeypatch, name, lab_id, added, practice):
    """The child reports why a test or the import stopped as a fact (lab/check/facts.py), and
    the runner says it (lab/check/words.py), so a pseudo-localised checker says it swapped: no
    sentence made in the child, or outside a words module, reaches the student."""
    lab = manifest.lab(lab_id)
    path = tmp_path / "harness.py"
    path.write_text(lab.solution.read_text(encoding="utf-8") + "\n\n" + added, encoding="utf-8")
    _pseudo_localised(monkeypatch)
    files = suite.of_lab(lab_id, cumulative_=False)
    report = runner.run(path, files, runner.expected_for(files), in_process=practice)
    said = ([report.import_error] if report.import_error else
            [o.message for o in report.outcomes if o.verdict != "pass"])
    assert said, f"{name}: no test of lab {lab_id} failed, so nothing here was said"
    authored = {t.says for t in plans.make(lab_id).tests}
    for message in said:
        assert message.startswith(MARK), \
            f"{name}: the student reads {message[:200]!r}, which no words module made"
        assert not _unswapped(message, authored), \
            f"{name}: {message[:200]!r} holds English no words module made: " \
            f"{_unswapped(message, authored)[:4]}"
