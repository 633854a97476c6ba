"""How strong each lab's own tests are: the code inside its gaps, mutated, and how much of it they
notice.

    .venv/bin/python -m bench.mutation [--lab 6.1 ...] [--jobs 2] [--list]

For every built lab, the reference solution is rendered from source/harness.src.py
(tools.labsource), and each line that lies inside one of that lab's gaps is a place to mutate:
only the code a student writes for this lab, never the code the starter gives. Each mutant is one
small change there, one of:

- operators: `+`/`-`, `*`/`/`, `//` to `/`, `%` to `//`, `**` to `*`, `|`/`&`, `and`/`or`, `not x`
  to `x`, `-x` to `+x`, an augmented assignment (`+=`) to a plain one (`=`);
- comparisons: `==`/`!=`, `is`/`is not`, `in`/`not in`, each ordering to its boundary twin (`<` to
  `<=`) and to its negation (`<` to `>=`);
- constants: each number plus and minus one, `True`/`False`, each string literal that is not a
  docstring changed (an `XX` put in front of its text);
- deleted statements: each statement (a simple one, or a whole `if`/`for`/`while`/`with`/`try`)
  that lies wholly inside a gap, replaced by `pass`;
- swapped branches: the condition of each `if`, `elif` and conditional expression negated (the
  two branches trade places), a `for` loop made to run zero times, `break`/`continue` swapped, an
  `except` clause made to catch nothing, a decorator removed.

Each mutant is judged by the lab's own check: the lab's own tests, run against the mutated file
through the engine (lab.check.runner.run, a child process, the usual turn budget and wall-clock
guard), with the lab's expected observations. A mutant is killed when any of those tests gets a
verdict other than pass; it survives when all pass. The unmutated solutions must pass them all
before the mutants and again after them, or nothing is measured: a kit changed by an edit during
the run would make every verdict meaningless. Each survivor is also run under the cumulative
suite (every earlier lab's tests too), to say whether a student's own check would catch it.

A survivor the authors have judged is listed in bench/mutation_equivalent.toml by lab, gap, its
key and a one-line reason, as one of two kinds: equivalent (no test could see the change, because
the program behaves the same) or left free (a test could see it, but only by demanding what the
lesson leaves to the student: wording the lesson calls theirs, or a case the lesson says never
comes). The two are counted apart, so a reader sees how much rests on each. The figure is
killed / (mutants - equivalent - left free), per lab and in all; the aim (issue 23) is at least
98 % in all and no lab under 95 %. Every other survivor is a hole in the lab's tests, listed with
its line and change. A judgement whose mutant no longer survives, or no longer exists, is
reported so that the file cannot go stale.

Why cosmic-ray, not mutmut (both on the package index; the source of each was read):
- mutmut 3 (3.8.1) runs tests only under pytest (`mutmut run` builds a PytestRunner; the source
  says "TODO: config/option for the test runner"), and picks the tests of each mutant from the
  calls its trampolines record inside the pytest process. The lab tests are not pytest tests,
  their verdicts are decided by lab.check.runner in the parent from the reference's
  observations, and the harness runs in a child process, so no mutant would ever have a test.
  It also rewrites every function of the file into a trampoline dispatching on the variable
  MUTANT_UNDER_TEST, so the file checked would not be the solution with one change, and it has
  no line-range selection (only `# pragma: no mutate` comments or coverage).
- mutmut 2 (2.5.1) could restrict lines (`--use-patch-file`) and judge with any command
  (`--runner`), but it has no operator that deletes a statement or swaps branches, two of the
  five kinds this figure needs, and no way to add one (its operators are a fixed table); it is
  also the superseded line, and runs one shell command per mutant, one at a time.
- cosmic-ray (8.7) keeps its operators as classes with a public interface (where an operator
  can mutate a node, and how), applies one occurrence with cosmic_ray.mutating.mutate_code, and
  lets a project add operators of its own on the same interface. So the library's operators are
  used where they fit, and the missing kinds are added here as cosmic-ray operators
  (DeleteStatement, SwapBranches, ReplaceString, SwapMembership, PlainAssignment,
  CatchNothing). Its own ExceptionReplacer is not used: on `except asyncio.CancelledError` it
  rewrites the dot and yields `asyncioCosmicRayTestingExceptionCancelledError`.
cosmic-ray is the `bench` extra of pyproject.toml: `pip install -e ".[bench]"`.

This is a benchmark of the tests' strength, not a test: nothing here asserts, and pytest does not
collect it. Like the others it prints a plain table and writes its section of bench/latest.json.
"""
from __future__ import annotations

import argparse
import io
import multiprocessing
import re
import sys
import tempfile
import time
import tokenize
import tomllib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench import _table, kinds as kind_operators
from lab.check import manifest, runner, suite
from tools import labsource

try:
    import parso
    import parso.python.tree as pt
    from cosmic_ray.ast import ast_nodes, get_ast
    from cosmic_ray.mutating import mutate_code
    from cosmic_ray.operators.operator import Example, Operator
    from cosmic_ray.plugins import get_operator
except ImportError:
    sys.exit("bench.mutation needs cosmic-ray: .venv/bin/python -m pip install -e \".[bench]\"")

EQUIVALENT = _table.BENCH / "mutation_equivalent.toml"
KINDS_JUDGED = _table.BENCH / "mutation_kinds_judged.toml"  # --kinds' judgements (bench/kinds.py)
AIM = 0.98  # issue 23: at least 98 % in all, and no lab under LAB_AIM
LAB_AIM = 0.95
NEVER_RAISED = "MutantNeverRaised"  # the class a CatchNothing mutant's except clause waits for


# == the operators of the library that fit ==

LIBRARY = [f"core/{name}" for name in (
    "ReplaceBinaryOperator_Add_Sub", "ReplaceBinaryOperator_Sub_Add",
    "ReplaceBinaryOperator_Mul_Div", "ReplaceBinaryOperator_Div_Mul",
    "ReplaceBinaryOperator_FloorDiv_Div", "ReplaceBinaryOperator_Mod_FloorDiv",
    "ReplaceBinaryOperator_Pow_Mul", "ReplaceBinaryOperator_BitOr_BitAnd",
    "ReplaceBinaryOperator_BitAnd_BitOr",
    "ReplaceComparisonOperator_Eq_NotEq", "ReplaceComparisonOperator_NotEq_Eq",
    "ReplaceComparisonOperator_Is_IsNot", "ReplaceComparisonOperator_IsNot_Is",
    "ReplaceComparisonOperator_Lt_LtE", "ReplaceComparisonOperator_Lt_GtE",
    "ReplaceComparisonOperator_LtE_Lt", "ReplaceComparisonOperator_LtE_Gt",
    "ReplaceComparisonOperator_Gt_GtE", "ReplaceComparisonOperator_Gt_LtE",
    "ReplaceComparisonOperator_GtE_Gt", "ReplaceComparisonOperator_GtE_Lt",
    "ReplaceUnaryOperator_Delete_Not", "ReplaceUnaryOperator_USub_UAdd",
    "ReplaceAndWithOr", "ReplaceOrWithAnd", "ReplaceTrueWithFalse", "ReplaceFalseWithTrue",
    "NumberReplacer", "ReplaceBreakWithContinue", "ReplaceContinueWithBreak",
    "ZeroIterationForLoop", "RemoveDecorator")]
# Not used: the other pairs of binary and comparison operators (a dozen near-identical mutants
# per `+`, most killed by a TypeError, would swell the figure), AddNot (superseded by
# SwapBranches, which also negates `elif` and keeps `not a or b` from meaning `(not a) or b`),
# ExceptionReplacer (see above) and the two Variable operators (random numbers: not repeatable).


# == the operators this figure needs that the library lacks, on its Operator interface ==

def _replace(old, code: str):
    """A parsed piece of code standing where `old` stood, with `old`'s leading whitespace."""
    return parso.parse(old.get_first_leaf().prefix + code)


def _is_bare_string(leaf) -> bool:
    """A string that is a statement of its own (a docstring): changing it changes nothing."""
    node = leaf.parent if leaf.parent.type == "strings" else leaf
    return node.parent.type == "simple_stmt" and node.parent.children[0] is node


class DeleteStatement(Operator):
    """A statement replaced by `pass`: a simple statement, or a whole if/for/while/with/try."""

    COMPOUND = ("if_stmt", "for_stmt", "while_stmt", "with_stmt", "try_stmt", "async_stmt")

    def mutation_positions(self, node):
        if node.type == "simple_stmt":
            first = node.children[0]
            if first.type == "keyword" and first.value == "pass":
                return
            if first.type in ("string", "strings") or (first.type == "operator" and
                                                       first.value == "..."):
                return
        elif node.type not in self.COMPOUND or (node.type == "async_stmt" and
                                                node.children[1].type == "funcdef"):
            return
        last = node.get_last_leaf()  # the newline that ends it: its line is the statement's last
        yield node.start_pos, (last.start_pos[0], last.start_pos[1])

    def mutate(self, node, index):
        return _replace(node, "pass\n")

    @classmethod
    def examples(cls):
        return (Example("x = 1\n", "pass\n"), Example("if a:\n    b()\n", "pass\n"))


class SwapBranches(Operator):
    """The condition of an if, an elif or a conditional expression negated, as a whole."""

    def _conditions(self, node):
        if isinstance(node, pt.IfStmt):
            return [i + 1 for i, child in enumerate(node.children)
                    if child.type == "keyword" and child.value in ("if", "elif")]
        if node.type == "test":  # a if condition else b
            return [2]
        return []

    def mutation_positions(self, node):
        for i in self._conditions(node):
            yield node.children[i].start_pos, node.children[i].end_pos

    def mutate(self, node, index):
        i = self._conditions(node)[index]
        test = node.children[i]
        node.children[i] = _replace(test, f"not ({test.get_code(include_prefix=False)})")
        return node

    @classmethod
    def examples(cls):
        return (Example("if a or b:\n    pass\n", "if not (a or b):\n    pass\n"),
                Example("x = a if b else c\n", "x = a if not (b) else c\n"))


class ReplaceString(Operator):
    """A string literal's text changed: XX put in front of it. Docstrings are left alone."""

    def mutation_positions(self, node):
        if isinstance(node, pt.String) and not _is_bare_string(node):
            yield node.start_pos, node.end_pos

    def mutate(self, node, index):
        value = node.value
        start = min(i for i in (value.find('"'), value.find("'")) if i >= 0)
        quote = value[start:start + 3] if value[start:start + 3] in ('"""', "'''") else \
            value[start]
        cut = start + len(quote)
        node.value = value[:cut] + "XX" + value[cut:]
        return node

    @classmethod
    def examples(cls):
        return (Example('x = "type"\n', 'x = "XXtype"\n'), Example("x = ''\n", "x = 'XX'\n"))


class SwapMembership(Operator):
    """`in` and `not in` swapped in a comparison (a for's `in` is not a comparison)."""

    def mutation_positions(self, node):
        if (node.type == "keyword" and node.value == "in" and
                node.parent.type == "comparison") or \
                (node.type == "comp_op" and [c.value for c in node.children] == ["not", "in"]):
            yield node.start_pos, node.end_pos

    def mutate(self, node, index):
        if node.type == "keyword":
            node.value = "not in"
            return node
        return pt.Keyword("in", node.start_pos, prefix=node.get_first_leaf().prefix)

    @classmethod
    def examples(cls):
        return (Example("a in b\n", "a not in b\n"), Example("a not in b\n", "a in b\n"))


class PlainAssignment(Operator):
    """An augmented assignment made plain: `n += 1` becomes `n = 1`."""

    def mutation_positions(self, node):
        if node.type == "operator" and node.parent.type == "expr_stmt" and \
                len(node.value) > 1 and node.value.endswith("=") and \
                node.value not in ("==", "!=", "<=", ">="):
            yield node.start_pos, node.end_pos

    def mutate(self, node, index):
        node.value = "="
        return node

    @classmethod
    def examples(cls):
        return (Example("n += 1\n", "n = 1\n"),)


class CatchNothing(Operator):
    """One exception class of an except clause replaced by one that nothing raises, so the
    handler no longer runs for it."""

    def _classes(self, node):
        if node.type != "except_clause":
            return []
        caught = node.children[1]
        if caught.type == "atom" and caught.children[0].value == "(":
            inner = caught.children[1]
            return inner.children[::2] if inner.type == "testlist_comp" else [inner]
        return [caught]

    def mutation_positions(self, node):
        for caught in self._classes(node):
            yield caught.start_pos, caught.end_pos

    def mutate(self, node, index):
        caught = self._classes(node)[index]
        parent = caught.parent
        parent.children[parent.children.index(caught)] = pt.Name(
            NEVER_RAISED, caught.start_pos, prefix=caught.get_first_leaf().prefix)
        return node

    @classmethod
    def examples(cls):
        return (Example("try:\n    f()\nexcept asyncio.CancelledError:\n    pass\n",
                        f"try:\n    f()\nexcept {NEVER_RAISED}:\n    pass\n"),)


OWN = [DeleteStatement, SwapBranches, ReplaceString, SwapMembership, PlainAssignment,
       CatchNothing]


def operators() -> list[tuple[str, Operator]]:
    """(name, operator) in the order mutants are made: the library's, then this module's."""
    chosen = [(name.split("/", 1)[1], get_operator(name)()) for name in LIBRARY]
    return chosen + [(cls.__name__, cls()) for cls in OWN]


# == where the gaps are ==

@dataclass(frozen=True)
class Gap:
    number: int
    name: str
    first: int  # line numbers in the rendered solution, both included
    last: int


GAP_LABEL = re.compile(r"gap (\d+)")


def solution_and_gaps(lab: manifest.Lab) -> tuple[str, list[Gap]]:
    """The lab's solution as tools.labsource renders it, and the line range of each stretch of
    its own gaps (a gap split over several places has a range for each). It is rendered as the
    starter would be, with each of the lab's gaps opened but holding its solution text, so that
    labsource's own markers bound each gap; the markers are then taken out again."""
    tree = labsource.parse(labsource.SOURCE.read_text(encoding="utf-8"))
    names = {block.number: block.name for block in labsource.gaps(tree, lab.id)}

    def fill(nodes):
        for node in nodes:
            if isinstance(node, labsource.Block):
                if node.kind == "gap" and node.lab == lab.id:
                    node.starter, node.plus_before = node.new, False
                fill(node.new)
                fill(node.before)
                fill(node.starter)
    fill(tree)
    marked = labsource.header(lab, "solution") + labsource.render(tree, lab.id, "starter")
    lines, gaps, open_ = [], [], []
    for line in marked.splitlines():
        text = line.strip()
        if text.startswith(labsource.OPEN):
            open_.append((int(GAP_LABEL.search(text).group(1)), len(lines) + 1))
        elif text == labsource.CLOSE:
            number, first = open_.pop()
            if len(lines) >= first:
                gaps.append(Gap(number, names[number], first, len(lines)))
        else:
            lines.append(line)
    solution = "\n".join(lines) + "\n"
    if solution != labsource.make(lab, "solution"):
        raise RuntimeError(f"lab {lab.id}: the solution with its gaps marked is not the "
                           "solution tools.labsource renders; the marking is wrong")
    return solution, sorted(gaps, key=lambda g: (g.number, g.first))


# == the mutants ==

@dataclass
class Mutant:
    lab: str
    gap: int
    line: int
    operator: str
    description: str  # "before -> after", the changed line(s)
    key: str = ""  # operator and the words changed, numbered if repeated in its gap
    code: str = field(default="", repr=False)


def _change(before: str, after: str) -> tuple[int, str, str]:
    """Where `after` differs from `before`: the first changed line (1-based), the change as
    "old line -> new line", and the same without comments (what a mutant's key is made of, so
    that rewording a comment does not orphan a judgement)."""
    old, new = before.splitlines(), after.splitlines()
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    gone, came = old[head:len(old) - tail], new[head:len(new) - tail]
    left = gone[0].strip() if gone else ""
    right = came[0].strip() if came else ""
    more = [f" (+{len(gone) - 1} lines)" if len(gone) > 1 else "",
            f" (+{len(came) - 1} lines)" if len(came) > 1 else ""]
    return (head + 1, f"{left}{more[0]} -> {right}{more[1]}",
            f"{_without_comment(left)}{more[0]} -> {_without_comment(right)}{more[1]}")


def _without_comment(line: str) -> str:
    try:
        for token in tokenize.generate_tokens(io.StringIO(line).readline):
            if token.type == tokenize.COMMENT:
                return line[:token.start[1]].rstrip()
    except (tokenize.TokenError, SyntaxError):  # a line that opens a bracket it does not close
        pass
    return line.rstrip()


def mutants(lab: manifest.Lab, kinds: bool = False) -> tuple[list[Mutant], list[Gap], int]:
    """Every mutant of `lab`'s gaps (with `kinds`, bench/kinds.py's whole wrong designs), in a
    fixed order (operator, then place in the file), and the number of mutations left out
    because the result would not compile."""
    solution, gaps = solution_and_gaps(lab)
    found, invalid, seen = [], 0, {}
    for name, first, last, make in (_kinds if kinds else _one_token)(solution):
        gap = next((g for g in gaps if g.first <= first and last <= g.last), None)
        code = make() if gap is not None else None
        if code is None or code == solution:
            continue
        try:
            compile(code, "harness.py", "exec")
        except SyntaxError:
            invalid += 1
            continue
        line, change, short = _change(solution, code)
        if name == "CatchNothing":
            code += f"\n\nclass {NEVER_RAISED}(Exception):\n    pass\n"
        key = f"{name}: {short}"
        seen[(gap.number, key)] = seen.get((gap.number, key), 0) + 1
        if seen[(gap.number, key)] > 1:
            key += f" #{seen[(gap.number, key)]}"
        found.append(Mutant(lab.id, gap.number, line, name, change, key, code))
    found.sort(key=lambda m: (m.gap, m.line, m.operator, m.key))
    return found, gaps, invalid


def _one_token(solution: str):
    """(operator, first line, last line, a maker of the mutated code) for every place each
    operator fits; the code is made only for places inside a gap."""
    nodes = list(ast_nodes(get_ast(solution)))
    for name, operator in operators():
        occurrence = -1
        for node in nodes:
            for (start, _), (end, _) in operator.mutation_positions(node):
                occurrence += 1
                yield name, start, end, (lambda o=operator, n=occurrence:
                                         mutate_code(solution, o, n))


def _kinds(solution: str):
    for kind in kind_operators.mutants(solution):
        yield kind.name, kind.first, kind.last, lambda code=kind.code: code


# == judging, in worker processes ==

def _mutants_of(lab_id: str, kinds: bool = False) -> tuple[list[Mutant], list[Gap], int]:
    return mutants(manifest.lab(lab_id), kinds)


def judge(lab_id: str, code: str, cumulative: bool = False) -> dict:
    """The lab's own check on `code` as harness.py (with `cumulative`, every earlier lab's tests
    too): which tests did not pass, and how."""
    files = suite.of_lab(lab_id, cumulative_=cumulative)
    with tempfile.TemporaryDirectory(prefix="bench-mutant-") as folder:
        path = Path(folder) / "harness.py"
        path.write_text(code, encoding="utf-8")
        report = runner.run(path, files, runner.expected_for(files))
    bad = [o for o in report.outcomes if o.verdict != "pass"]
    return {"tests": len(report.outcomes), "not_passed": len(bad),
            "verdicts": sorted({str(o.verdict) for o in bad}),
            "first": bad[0].id.split("::")[-1] if bad else None}


def measure(labs: list[manifest.Lab], jobs: int, kinds: bool = False) -> tuple[dict, dict, dict]:
    """Make every lab's mutants (with `kinds`, bench/kinds.py's) and judge each; returns what
    was made, the verdicts, and for each survivor (lab, index) whether the cumulative suite
    kills it."""
    ids = [lab.id for lab in labs]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=context) as pool:
        def control(when):
            """The unmutated solutions must pass their own tests before and after the mutants:
            a kit that changed during the run would make every verdict meaningless."""
            solutions = [labsource.make(lab, "solution") for lab in labs]
            for lab_id, result in zip(ids, pool.map(judge, ids, solutions)):
                if result["not_passed"]:
                    sys.exit(f"{when}, the solution of lab {lab_id} fails "
                             f"{result['not_passed']} of its own tests ({result['first']}); "
                             "fix the kit, or let it settle, before measuring it.")
        control("Before the mutants")
        made = dict(zip(ids, pool.map(_mutants_of, ids, [kinds] * len(ids))))
        futures = {i: [pool.submit(judge, i, m.code) for m in made[i][0]] for i in ids}
        verdicts = {i: [f.result() for f in fs] for i, fs in futures.items()}
        control("After the mutants")
        # Each survivor once more, under every earlier lab's tests as well: whether the
        # cumulative suite a student runs would catch what the lab's own tests let through.
        alive = [(i, n) for i in ids for n, r in enumerate(verdicts[i]) if not r["not_passed"]]
        later = [pool.submit(judge, i, made[i][0][n].code, True) for i, n in alive]
        cumulative = {key: f.result()["not_passed"] > 0 for key, f in zip(alive, later)}
    return made, verdicts, cumulative


KINDS = ("equivalent", "free")  # the two judgements a survivor may get, as the file names them


def load_equivalent(path: Path = EQUIVALENT) -> dict[tuple[str, int, str], tuple[str, str]]:
    """{(lab, gap, key): (kind, reason)} from the committed judgements: "equivalent" (the
    program behaves the same) or "free" (the lesson leaves the difference to the student)."""
    if not path.is_file():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {(e["lab"], int(e["gap"]), e["key"]): (kind, e["reason"])
            for kind in KINDS for e in data.get(kind, [])}


def tally(lab_id: str, made, results: list[dict], cumulative: dict, equivalent: dict,
          earlier_count: bool = False):
    """One lab's figures, its survivors (each with its judgement, if any) and the judgements
    of `equivalent` that no longer hold for it. With `earlier_count` (kinds of wrong design),
    a survivor an earlier lab's tests kill counts as killed: the lab's check runs them too."""
    found, gaps, invalid = made
    survivors, stale = [], []
    for n, (m, r) in enumerate(zip(found, results)):
        kind, reason = equivalent.get((m.lab, m.gap, m.key), (None, None))
        if r["not_passed"]:
            if reason:
                stale.append(f"lab {m.lab} gap {m.gap}: judged {kind} but killed "
                             f"({r['first']}): {m.key}")
            continue
        survivors.append({"lab": m.lab, "gap": m.gap, "line": m.line, "operator": m.operator,
                          "change": m.description, "key": m.key, "judged": kind,
                          "equivalent": reason,
                          "killed_by_cumulative_suite": cumulative[(lab_id, n)]})
    keys = {(m.lab, m.gap, m.key) for m in found}
    stale += [f"lab {k[0]} gap {k[1]}: judged {v[0]} but no such mutant: {k[2]}"
              for k, v in equivalent.items() if k[0] == lab_id and k not in keys]
    earlier = sum(earlier_count and not s["judged"] and s["killed_by_cumulative_suite"]
                  for s in survivors)
    killed = sum(r["not_passed"] > 0 for r in results) + earlier
    eq = sum(s["judged"] == "equivalent" for s in survivors)
    free = sum(s["judged"] == "free" for s in survivors)
    counted = len(found) - eq - free
    figures = {"lab": lab_id, "gaps": len({g.number for g in gaps}),
               "gap_lines": sum(g.last - g.first + 1 for g in gaps), "mutants": len(found),
               "not_compiling": invalid, "killed": killed, "equivalent": eq, "free": free,
               "survived": len(survivors) - eq - free - earlier,
               "killed_by_earlier_labs": earlier,
               "score": round(killed / counted, 4) if counted else 1.0,
               "killed_by": {v: sum(v in r["verdicts"] for r in results)
                             for v in ("fail", "timeout", "crash")}}
    return figures, survivors, stale


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mutation",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--lab", action="append", help="only this lab (repeatable; not saved)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants checked at once (default 2)")
    parser.add_argument("--list", action="store_true", help="list the mutants, check none")
    parser.add_argument("--kinds", action="store_true",
                        help="the kinds of wrong design (bench/kinds.py), not one-token changes")
    args = parser.parse_args(argv)
    judged_file = KINDS_JUDGED if args.kinds else EQUIVALENT
    section = "mutation_kinds" if args.kinds else "mutation"
    labs = [manifest.lab(x) for x in args.lab] if args.lab else \
        list(manifest.labs(built_only=True))
    if args.list:
        for lab in labs:
            for m in mutants(lab, args.kinds)[0]:
                print(f"{m.lab} gap {m.gap} line {m.line} {m.operator}: {m.description}")
        return 0

    started = time.perf_counter()
    made, verdicts, cumulative = measure(labs, args.jobs, args.kinds)
    seconds = time.perf_counter() - started
    equivalent = load_equivalent(judged_file)
    per_lab, survivors, stale = [], [], []
    for lab in labs:
        figures, lost, old = tally(lab.id, made[lab.id], verdicts[lab.id], cumulative,
                                   equivalent, args.kinds)
        per_lab.append(figures)
        survivors += lost
        stale += old
    total = {k: sum(lab[k] for lab in per_lab)
             for k in ("mutants", "killed", "equivalent", "free", "survived")}
    counted = total["mutants"] - total["equivalent"] - total["free"]
    score = total["killed"] / counted if counted else 1.0
    met = score >= AIM and all(x["score"] >= LAB_AIM for x in per_lab)
    rows = [[x["lab"], x["mutants"], x["killed"], x["equivalent"], x["free"], x["survived"],
             f"{x['score']:.1%}", "yes" if x["score"] >= LAB_AIM else "NO"] for x in per_lab]
    rows.append(["all", total["mutants"], total["killed"], total["equivalent"], total["free"],
                 total["survived"], f"{score:.1%}", "yes" if score >= AIM else "NO"])

    what, judge = ("Wrong designs of each kind", "the lab's check (its own tests, then the "
                   "earlier labs')") if args.kinds else ("Mutants", "the lab's own tests")
    print(f"{what} in each lab's gaps, judged by {judge} ({len(labs)} labs, "
          f"{_table.seconds(seconds)})\n")
    print(_table.table(["lab", "mutants", "killed", "equivalent", "left free", "survived",
                        "killed / (mutants - equivalent - left free)",
                        f"{LAB_AIM:.0%} a lab, {AIM:.0%} in all"], rows))
    print("\nSurvivors:" if survivors else "", end="\n" if survivors else "")
    for s in survivors:
        earlier = s["killed_by_cumulative_suite"]
        verdict = f"{s['judged']}: {s['equivalent']}" if s["judged"] else "killed by an " \
            "earlier lab's tests, which the lab's check runs" if args.kinds and earlier else \
            "REAL" + (", though the cumulative suite kills it" if earlier else "")
        print(f"  lab {s['lab']} gap {s['gap']} line {s['line']} {s['operator']}: "
              f"{s['change']}\n      {verdict}")
    print("".join(f"STALE {line}\n" for line in stale), end="")
    if args.lab:
        print("\nNot saved: only some labs were measured.")
        return 0
    names = sorted({m.operator for lab in labs for m in made[lab.id][0]}) if args.kinds else \
        [n for n, _ in operators()]
    figures = {"aim": AIM, "lab_aim": LAB_AIM, "labs": per_lab, "operators": names, **total,
               "score": round(score, 4), "met": met, "seconds": round(seconds, 1),
               "jobs": args.jobs, "limits": asdict(runner.Limits()), "survivors": survivors,
               "stale_judgements": stale}
    print("\n" + _table.save(section, figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
