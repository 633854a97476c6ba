"""The engine's words are made from its facts and never read back: with every sentence of
lab/check/words.py swapped for a pseudo-localised one (marked, its words reordered), each
check decides the same verdicts, the same facts, the same advice on a file that lacks the
lab's names, the same grouping of a class's students in the grader's summary and the same
counts on the class page."""
import inspect

import pytest

from grader import plan as plans, report
from grader.grades import Grades
from grader.page import facts as page_facts
from grader.row import build
from lab.check import advice, local, manifest, words

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
MARK = "\u27e6"  # every pseudo-localised sentence opens with it


def pseudo(text: str) -> str:
    """A sentence as a translation might make it: marked, and its words in another order."""
    return MARK + " ".join(reversed(text.split(" "))) + "\u27e7"


def _pseudo_localised(monkeypatch) -> None:
    """Every sentence words.py makes, swapped: each function that returns words, and each
    sentence it keeps as a constant."""
    for name, fn in inspect.getmembers(words, inspect.isfunction):
        if fn.__module__ == words.__name__ and \
                inspect.signature(fn).return_annotation in ("str", "str | None"):
            monkeypatch.setattr(words, name,
                                lambda *a, _fn=fn, **k: (lambda said: said if said is None
                                                         else pseudo(said))(_fn(*a, **k)))
    for name, value in vars(words).items():
        if name.isupper() and isinstance(value, str):
            monkeypatch.setattr(words, name, pseudo(value))


def _checked(tmp_path, name: str, text: str):
    folder = tmp_path / name.replace(" ", "_").replace("'", "")
    folder.mkdir(parents=True)
    harness = folder / "harness.py"
    harness.write_text(text, encoding="utf-8")
    chosen = local.choose(harness, LAB.tests, LAB.lesson.number)
    return local.check(harness, chosen).report.outcomes


def _decided(tmp_path, monkeypatch, localised: bool):
    """What the checks decided for each file, and what the grader and the class page made
    of them as one class."""
    if localised:
        _pseudo_localised(monkeypatch)
    outcomes = {name: _checked(tmp_path / str(localised), name, text)
                for name, text in FILES.items()}
    plan = plans.make(LAB.id)
    rows = [build(plan, name, "harness.py", found, text=FILES[name])
            for name, found in outcomes.items()]
    groups = {t.id: sorted(sorted(students) for _, students in report._grouped(rows, t.id))
              for t in plan.tests}
    page = page_facts.read(Grades(plan.lab, LAB.name, LAB.title, False, plan.max_score,
                                  plan.sets, list(plan.tests), {}, [],
                                  [r.for_students() for r in rows]))
    return {
        "verdicts": {n: [(o.id, o.verdict) for o in found] for n, found in outcomes.items()},
        "facts": {n: [o.cause for o in found] for n, found in outcomes.items()},
        "missing": {n: advice.missing(found) for n, found in outcomes.items()},
        "overall": {r.student: r.verdict for r in rows},
        "groups": groups,
        "page": [(r.id, r.failed, r.ran) for r in page.rules],
        "students": [(s.name, s.score, s.cells) for s in page.students],
    }, outcomes


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    with pytest.MonkeyPatch.context() as monkeypatch:
        return _decided(tmp_path_factory.mktemp("plain"), monkeypatch, localised=False)


def test_pseudo_localised_words_change_what_is_said_and_nothing_that_is_decided(
        plain, tmp_path, monkeypatch):
    decided, outcomes = _decided(tmp_path, monkeypatch, localised=True)
    before, said_before = plain
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
