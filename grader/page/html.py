"""The class page as HTML: one self-contained file, plain HTML and CSS, no script, no network.

Every picture is a table or a bar of CSS with its numbers written beside it, so the page reads
without colour, in a screen reader and printed; each picture says beside it how to read it.
"""
from __future__ import annotations

import os
from html import escape
from pathlib import Path

from grader import review
from grader.page import teaching
from grader.page.facts import Facts

SAID_CHARACTERS = 1500  # of a failure's message, on the page
MARK = {"pass": "✓", "fail": "✗", "not run": "·"}
CLASS = {"pass": "p", "fail": "f", "not run": "n"}

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{margin-top:2em;border-bottom:1px solid #ccc}
nav a{margin-right:1em}
.scroll{overflow:auto;max-height:36em;border:1px solid #ccc}
table{border-collapse:collapse}
caption{text-align:left;padding:.3em 0;font-size:.9em;color:#444}
.picture th,.picture td{font-size:11px;padding:0 2px;text-align:center;min-width:1.1em}
.picture th[scope=row]{text-align:left;white-space:nowrap;position:sticky;left:0;background:#fff}
.picture thead th{position:sticky;top:0;background:#fff}
.picture .lab{border-left:2px solid #555}
.counts td{color:#8c1d13;font-weight:600}
td.p{background:#cfe8cf;color:#185c18}td.f{background:#f3c6c2;color:#8c1d13}
td.n{background:#e4e4e4;color:#666}
.legend span{display:inline-block;padding:0 .5em;margin-right:.5em}
.bars td,.bars th{padding:.15em .5em;text-align:left}
.bar{display:inline-block;height:.9em;background:#5a7db5;vertical-align:middle}
.rules li{margin-bottom:1em}.says{font-weight:600}
.design{margin:.2em 0 .2em 1em}
"""


def _relative(target: Path, here: Path) -> str:
    return os.path.relpath(target, here).replace(os.sep, "/")


def _section(anchor: str, title: str, body: list[str]) -> list[str]:
    return [f'<section id="{anchor}" aria-labelledby="{anchor}-h">',
            f'<h2 id="{anchor}-h">{escape(title)}</h2>', *body, "</section>"]


def _number(value: float) -> str:
    return f"{value:g}"


def picture(facts: Facts) -> list[str]:
    """Students by tests, each lab's tests together, hardest first; lowest scores on top."""
    groups = [(name, rules) for name, rules in facts.by_set() if rules]
    numbers = {r.id: n for n, r in enumerate(facts.rules, 1)}
    head = ['<tr><th scope="col">student</th><th scope="col">score</th>'] + [
        f'<th scope="colgroup" colspan="{len(rules)}" class="lab">{escape(name)}</th>'
        for name, rules in groups] + ["</tr>"]
    head += ['<tr><th></th><th></th>'] + [
        f'<th scope="col" title="{escape(r.says)} [{escape(r.id)}]"'
        f'{" class=lab" if i == 0 else ""}>{numbers[r.id]}</th>'
        for _, rules in groups for i, r in enumerate(rules)] + ["</tr>"]
    head += ['<tr class="counts"><th scope="row">failed by</th><th></th>'] + [
        f'<td{" class=lab" if i == 0 else ""}>{r.failed or ""}</td>'
        for _, rules in groups for i, r in enumerate(rules)] + ["</tr>"]
    body = []
    for s in facts.students:
        cells = "".join(
            f'<td class="{CLASS[s.cells.get(r.id, "not run")]}{" lab" if i == 0 else ""}">'
            f'{MARK[s.cells.get(r.id, "not run")]}</td>'
            for _, rules in groups for i, r in enumerate(rules))
        body.append(f'<tr><th scope="row">{escape(s.name)}</th>'
                    f'<td>{_number(s.score)}/{_number(s.max)}</td>{cells}</tr>')
    how = ("Each row is a student, the lowest score first; each column a test, grouped by "
           "the lab it belongs to: the lab whose tests the class failed most comes first, and "
           "in each lab the tests most students failed. ✓ passed, ✗ failed (a timeout or crash "
           "counts as failed), · not run (a broken file: it did not import, was empty, lacked "
           "the lab's names or was not graded). Under "
           "each column's number, how many students failed it. A column's number is its place in the list below the picture; hover over it for the "
           "rule it checks.")
    legend = ('<p class="legend"><span class="p" style="background:#cfe8cf">✓ passed</span>'
              '<span style="background:#f3c6c2">✗ failed</span>'
              '<span style="background:#e4e4e4">· not run</span></p>')
    return _section("picture", "The class picture", [
        f'<p id="picture-how">{escape(how)}</p>', legend,
        '<div class="scroll"><table class="picture" aria-describedby="picture-how">',
        "<caption>Students by tests, coloured pass, fail or not run</caption>", "<thead>",
        *head, "</thead><tbody>", *body,
        "</tbody></table></div>", _index(facts, numbers)])


def _index(facts: Facts, numbers: dict) -> str:
    items = "".join(f"<li value=\"{numbers[r.id]}\">{escape(r.says)} "
                    f"<small>({escape(r.set)}; {r.failed} of {r.ran} failed)</small></li>"
                    for r in facts.rules)
    return f"<details><summary>Every test by its number</summary><ol>{items}</ol></details>"


def rules(facts: Facts, here: Path) -> list[str]:
    """The most-failed rules, each with the section that teaches it and the wrong designs
    that fail the same way."""
    failed = facts.most_failed()
    if not failed:
        return _section("rules", "The rules the class broke most",
                        ["<p>Every submission that ran passed every test.</p>"])
    items = []
    for rule in failed:
        share = round(100 * rule.failed / rule.ran) if rule.ran else 0
        parts = [f'<li><p><span class="says">{escape(rule.says)}</span> '
                 f"<small>[{escape(rule.id)}, {escape(rule.set)}]</small><br>"
                 f"Failed by {rule.failed} of the {rule.ran} students whose file ran "
                 f'({share}%) <span class="bar" style="width:{share * 2}px"></span></p>']
        where = teaching.section(rule.lab)
        if where:
            parts.append(f'<p>Taught in {escape(where.lesson)}, section '
                         f'<a href="{escape(where.href())}">{escape(where.heading)}</a>.</p>')
        for design in teaching.designs_like(rule.lab, rule.says, rule.messages):
            parts.append(f'<p class="design">Fails as the wrong design '
                         f'“{escape(design["name"])}” does: {escape(design["rule"])} '
                         f'<small>(the lesson shows it in: {escape(design["where"])})</small></p>')
        if rule.messages and not rule.hidden:
            said = rule.messages[0]
            cut = (f" (the first {SAID_CHARACTERS:,} of its {len(said):,} characters)"
                   if len(said) > SAID_CHARACTERS else "")
            parts.append(f"<details><summary>What the tests said{cut}</summary><pre>"
                         f"{escape(said[:SAID_CHARACTERS])}</pre></details>")
        items.append("".join(parts) + "</li>")
    intro = ("<p>Counted over the students whose file ran (every file but the broken ones). A "
             "section link opens the lesson, rendered beside this page, at the lab that "
             "teaches the rule; a wrong design is one the lesson warns about that the same "
             "test catches, in the same function.</p>")
    every = facts.failed_rules()
    if len(every) > len(failed):
        left = len(every) - len(failed)
        intro += (f"<p>The {len(failed)} most failed of the {len(every)} rules someone failed"
                  f"; the other {left} (ties with the last one shown among them) are in the "
                  "list of every test under the class picture.</p>")
    return _section("rules", "The rules the class broke most",
                    [intro, '<ol class="rules">', *items, "</ol>"])


def bars(anchor: str, title: str, caption: str, counts: list[tuple[str, int]]) -> list[str]:
    """A table of counts with a bar of CSS for each, the count written beside it."""
    top = max([n for _, n in counts] + [1])
    rows = [f'<tr><th scope="row">{escape(label)}</th><td>{n}</td>'
            f'<td><span class="bar" style="width:{round(240 * n / top)}px"></span></td></tr>'
            for label, n in counts]
    return _section(anchor, title, [f'<table class="bars"><caption>{escape(caption)}</caption>',
                                    '<tr><th scope="col">band</th><th scope="col">students'
                                    '</th><th></th></tr>', *rows, "</table>"])


def times(facts: Facts) -> list[str]:
    """How long each submission took to grade, the slowest first (grades.csv's seconds)."""
    found = sorted(facts.students, key=lambda s: (-s.seconds, s.name))
    top = max([s.seconds for s in found] + [0.001])
    rows = [f'<tr><th scope="row">{escape(s.name)}</th><td>{s.seconds:.1f} s</td>'
            f'<td><span class="bar" style="width:{round(240 * s.seconds / top)}px"></span>'
            "</td></tr>" for s in found]
    return _section("times", "Time per submission", [
        '<table class="bars"><caption>How long grading each submission took, its tests and '
        "its sandbox together, the slowest first.</caption><tr><th scope=\"col\">student</th>"
        '<th scope="col">seconds</th><th></th></tr>', *rows, "</table>"])


def not_graded(facts: Facts) -> list[str]:
    found = facts.not_graded()
    if not found:
        return _section("not-graded", "Broken files",
                        ["<p>No file was broken: every one ran the lab's tests.</p>"])
    rows = [f'<tr><th scope="row">{escape(s.name)}</th><td>{escape(s.verdict)}</td>'
            f"<td>{escape(s.why)}</td></tr>" for s in found]
    return _section("not-graded", "Broken files", [
        "<table class=\"bars\"><caption>Why no test could tell anything about these (did not "
        "import, empty, without the lab's names, or not graded), counted apart as the summary "
        "counts them: the submission's own "
        "feedback file says it in full.</caption><tr><th scope=\"col\">student</th>"
        "<th scope=\"col\">verdict</th><th scope=\"col\">why</th></tr>", *rows, "</table>"])


def overridden(facts: Facts) -> list[str]:
    """The instructor's overrides, each student's in the words their feedback shows."""
    found = [s for s in facts.students if s.overrides]
    if not found:
        return []
    items = "".join(f"<li><strong>{escape(s.name)}</strong> "
                    f"({_number(s.score)}/{_number(s.max)} with them): "
                    + "; ".join(escape(said) for said in s.overrides) + "</li>"
                    for s in sorted(found, key=lambda s: s.name))
    return _section("overrides", "Your overrides", [
        "<p>Applied from overrides.csv on every run, in the scores above and in each "
        f"student's feedback.</p><ul>{items}</ul>"])


def alike(pairs) -> list[str]:
    """The pairs of submissions more alike than the starter explains (grader/similarity.py),
    each with its shares and the lines they share."""
    if not pairs:
        return []
    items = []
    for p in pairs:
        shown = p.shown()
        items.append(
            f"<li><p><strong>{escape(p.first)}</strong> and <strong>{escape(p.second)}"
            f"</strong>: {p.shares[0]:.0%} of {escape(p.first)}'s own code and "
            f"{p.shares[1]:.0%} of {escape(p.second)}'s is shared; {escape(p.first)}'s lines "
            f"{escape(p.ranges(0))}, {escape(p.second)}'s lines {escape(p.ranges(1))}.</p>"
            f"<details><summary>The shared lines, as {escape(p.first)} wrote them"
            f"</summary><pre>{escape(chr(10).join(shown))}</pre></details></li>")
    return _section("similar", "Submissions more alike than the starter explains", [
        "<p>Compared by copydetect (MOSS's winnowing) with the lab's starter left out, so "
        "only what both wrote themselves counts; a renamed name or a reworded message does "
        "not hide a copy. A reason to read the two files, not a verdict.</p>",
        f"<ol>{''.join(items)}</ol>"])


def roster(match) -> list[str]:
    """Who on the roster has not submitted, and which submissions no one on it matches."""
    if match is None:
        return []
    missing = "".join(f"<li>{escape(s.who)}{escape(f' ({s.id})') if s.id else ''}"
                      f"{escape(f', {s.email}') if s.email else ''}</li>"
                      for s in match.missing) or "<li>No one: everyone submitted.</li>"
    body = [f"<p>{len(match.found)} submissions matched the roster; "
            f"{len(match.missing)} students on it have none.</p>",
            f'<ul class="missing">{missing}</ul>']
    if match.unknown:
        body.append("<p>Submissions no one on the roster matches: "
                    + escape(", ".join(match.unknown)) + "</p>")
    return _section("not-submitted", "Not submitted", body)


def path(weeks: dict) -> list[str]:
    """Each student's score in every lab graded into this folder, as a share of its maximum.
    Each column is its own lab's: no score is set against another lab's."""
    students = sorted({name for week in weeks.values() for name in week["scores"]})
    head = "".join(f'<th scope="col">lab {escape(lab)}</th>' for lab in weeks)
    rows = []
    for name in students:
        cells = []
        for week in weeks.values():
            got = week["scores"].get(name)
            if got is None:
                cells.append('<td class="n">not graded</td>')
            else:
                share = round(100 * got[0] / week["max"]) if week["max"] else 0
                cells.append(f'<td>{_number(got[0])}/{_number(week["max"])} ({share}%)</td>')
        rows.append(f'<tr><th scope="row">{escape(name)}</th>{"".join(cells)}</tr>')
    return _section("path", "Each student's path across the labs", [
        '<table class="bars"><caption>Every lab graded into this class folder, in course '
        "order: each student's score and its share of the lab's points.</caption>",
        f'<tr><th scope="col">student</th>{head}</tr>', *rows, "</table>"])


def index(weeks: dict) -> str:
    """The class folder's own page: each lab graded into it, linked to its page, then each
    student's path across them."""
    title = "The class: every lab graded into this folder"
    items = []
    for lab, week in weeks.items():
        scores = week["scores"].values()
        full = sum(1 for score, verdict in scores if verdict == "full marks")
        href = f"lab-{lab}/report.html"
        items.append(f'<li><a href="{escape(href)}">Lab {escape(lab)}: '
                     f'{escape(week["title"])}</a>: {len(week["scores"])} submissions, '
                     f'{_number(week["max"])} points each, {full} with full marks.</li>')
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{escape(title)}</h1>",
             "<p>Each lab's page holds its own class picture, rules and feedback; a lab's "
             "counts are never set against another lab's.</p>",
             '<ul class="labs">', *items, "</ul>"]
    parts += path(weeks)
    parts += ["</body></html>", ""]
    return "\n".join(parts)


def page(facts: Facts, here: Path, match=None, back: Path | None = None,
         pairs=()) -> str:
    """The whole page of one lab, for a report written into the folder `here`; `back` is
    the class folder's page, which lists every lab, when there is one."""
    graded = len(facts.students)
    full = sum(1 for s in facts.students if s.score == s.max)
    title = f"Lab {facts.lab}: {facts.title}: the class"
    nav = [("picture", "class picture"), ("rules", "most-failed rules"),
           ("scores", "scores"), ("not-graded", "broken files"), ("times", "time")]
    if match is not None:
        nav.insert(0, ("not-submitted", "not submitted"))
    if pairs:
        nav.append(("similar", "alike"))
    if any(s.overrides for s in facts.students):
        nav.insert(0, ("overrides", "overrides"))
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{escape(title)}</h1>",
             f"<p>{graded} submissions graded, {_number(facts.max)} points each; {full} with "
             f"full marks, {len(facts.not_graded())} broken (did not import, empty, without "
             "the lab's names, or not graded).</p>",
             "<nav>" + "".join(f'<a href="#{a}">{escape(t)}</a>' for a, t in nav)
             + (f'<a href="{escape(_relative(back, here))}">every lab of the class</a>'
                if back else "") + "</nav>"]
    parts += roster(match)
    parts += overridden(facts)
    parts += picture(facts)
    parts += rules(facts, here)
    parts += bars("scores", "The score distribution", "How many students scored in each tenth "
                  "of the points; the last band holds full marks.", facts.distribution())
    parts += not_graded(facts)
    parts += review.section(facts.students)
    parts += alike(pairs)
    parts += times(facts)
    parts += ["</body></html>", ""]
    return "\n".join(parts)
