"""The class page as HTML: one self-contained file, plain HTML and CSS, no script, no network.

Every picture is a table or a bar of CSS with its numbers written beside it, so the page reads
without colour, in a screen reader and printed; each picture says beside it how to read it.
"""
from __future__ import annotations

import os
from html import escape
from pathlib import Path

from grader import review, words_page as said
from grader.row import Overall
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
    head = [f'<tr><th scope="col">{escape(said.STUDENT)}</th>'
            f'<th scope="col">{escape(said.SCORE)}</th>'] + [
        f'<th scope="colgroup" colspan="{len(rules)}" class="lab">{escape(name)}</th>'
        for name, rules in groups] + ["</tr>"]
    head += ['<tr><th></th><th></th>'] + [
        f'<th scope="col" title="{escape(r.says)} [{escape(r.id)}]"'
        f'{" class=lab" if i == 0 else ""}>{numbers[r.id]}</th>'
        for _, rules in groups for i, r in enumerate(rules)] + ["</tr>"]
    head += [f'<tr class="counts"><th scope="row">{escape(said.FAILED_BY)}</th><th></th>'] + [
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
    legend = (f'<p class="legend"><span class="p" style="background:#cfe8cf">'
              f'{escape(said.PASSED)}</span>'
              f'<span style="background:#f3c6c2">{escape(said.FAILED)}</span>'
              f'<span style="background:#e4e4e4">{escape(said.NOT_RUN)}</span></p>')
    return _section("picture", said.PICTURE, [
        f'<p id="picture-how">{escape(said.PICTURE_HOW)}</p>', legend,
        '<div class="scroll"><table class="picture" aria-describedby="picture-how">',
        f"<caption>{escape(said.PICTURE_CAPTION)}</caption>", "<thead>",
        *head, "</thead><tbody>", *body,
        "</tbody></table></div>", _index(facts, numbers)])


def _index(facts: Facts, numbers: dict) -> str:
    items = "".join(f"<li value=\"{numbers[r.id]}\">{escape(r.says)} "
                    f"<small>{escape(said.test_counts(r.set, r.failed, r.ran))}</small></li>"
                    for r in facts.rules)
    return (f"<details><summary>{escape(said.EVERY_TEST)}</summary><ol>{items}</ol>"
            "</details>")


def rules(facts: Facts, here: Path) -> list[str]:
    """The most-failed rules, each with the section that teaches it and the wrong designs
    that fail the same way."""
    failed = facts.most_failed()
    if not failed:
        return _section("rules", said.RULES, [f"<p>{escape(said.NONE_FAILED)}</p>"])
    items = []
    for rule in failed:
        share = round(100 * rule.failed / rule.ran) if rule.ran else 0
        parts = [f'<li><p><span class="says">{escape(rule.says)}</span> '
                 f"<small>[{escape(rule.id)}, {escape(rule.set)}]</small><br>"
                 f"{escape(said.failed_share(rule.failed, rule.ran, share))} "
                 f'<span class="bar" style="width:{share * 2}px"></span></p>']
        where = teaching.section(rule.lab)
        if where:
            link = f'<a href="{escape(where.href())}">{escape(where.heading)}</a>'
            parts.append(f"<p>{said.taught_in(escape(where.lesson), link)}</p>")
        for design in teaching.designs_like(rule.lab, rule.says, rule.broke, rule.functions):
            parts.append('<p class="design">' + escape(said.wrong_design(
                design["name"], design["rule"], design["where"])) + "</p>")
        if rule.messages and not rule.hidden:
            reason = rule.messages[0]
            parts.append(f"<details><summary>"
                         f"{escape(said.what_tests_said(SAID_CHARACTERS, len(reason)))}"
                         f"</summary><pre>{escape(reason[:SAID_CHARACTERS])}</pre></details>")
        items.append("".join(parts) + "</li>")
    intro = f"<p>{escape(said.RULES_HOW)}</p>"
    every = facts.failed_rules()
    if len(every) > len(failed):
        intro += f"<p>{escape(said.rules_shown(len(failed), len(every)))}</p>"
    return _section("rules", said.RULES,
                    [intro, '<ol class="rules">', *items, "</ol>"])


def bars(anchor: str, title: str, caption: str, counts: list[tuple[str, int]]) -> list[str]:
    """A table of counts with a bar of CSS for each, the count written beside it."""
    top = max([n for _, n in counts] + [1])
    rows = [f'<tr><th scope="row">{escape(label)}</th><td>{n}</td>'
            f'<td><span class="bar" style="width:{round(240 * n / top)}px"></span></td></tr>'
            for label, n in counts]
    return _section(anchor, title, [f'<table class="bars"><caption>{escape(caption)}</caption>',
                                    f'<tr><th scope="col">{escape(said.BAND)}</th>'
                                    f'<th scope="col">{escape(said.STUDENTS)}</th><th></th></tr>',
                                    *rows, "</table>"])


def times(facts: Facts) -> list[str]:
    """How long each submission took to grade, the slowest first (grades.csv's seconds)."""
    found = sorted(facts.students, key=lambda s: (-s.seconds, s.name))
    top = max([s.seconds for s in found] + [0.001])
    rows = [f'<tr><th scope="row">{escape(s.name)}</th><td>{escape(said.seconds(s.seconds))}</td>'
            f'<td><span class="bar" style="width:{round(240 * s.seconds / top)}px"></span>'
            "</td></tr>" for s in found]
    return _section("times", said.TIMES, [
        f'<table class="bars"><caption>{escape(said.TIMES_CAPTION)}</caption><tr>'
        f'<th scope="col">{escape(said.STUDENT)}</th>'
        f'<th scope="col">{escape(said.SECONDS)}</th><th></th></tr>', *rows, "</table>"])


def not_graded(facts: Facts) -> list[str]:
    found = facts.not_graded()
    if not found:
        return _section("not-graded", said.BROKEN, [f"<p>{escape(said.NONE_BROKEN)}</p>"])
    rows = [f'<tr><th scope="row">{escape(s.name)}</th><td>{escape(said.overall(s.verdict))}</td>'
            f"<td>{escape(s.why or said.overall(s.verdict))}</td></tr>" for s in found]
    return _section("not-graded", said.BROKEN, [
        f'<table class="bars"><caption>{escape(said.BROKEN_CAPTION)}</caption><tr>'
        f'<th scope="col">{escape(said.STUDENT)}</th><th scope="col">{escape(said.VERDICT)}</th>'
        f'<th scope="col">{escape(said.WHY)}</th></tr>', *rows, "</table>"])


def overridden(facts: Facts) -> list[str]:
    """The instructor's overrides, each student's in the words their feedback shows."""
    found = [s for s in facts.students if s.overrides]
    if not found:
        return []
    items = "".join(f"<li><strong>{escape(s.name)}</strong> "
                    f"{escape(said.with_overrides(_number(s.score), _number(s.max)))} "
                    + "; ".join(escape(said) for said in s.overrides) + "</li>"
                    for s in sorted(found, key=lambda s: s.name))
    return _section("overrides", said.OVERRIDES, [
        f"<p>{escape(said.OVERRIDES_HOW)}</p><ul>{items}</ul>"])


def alike(pairs) -> list[str]:
    """The pairs of submissions more alike than the starter explains (grader/similarity.py),
    each with its shares and the lines they share."""
    if not pairs:
        return []
    items = []
    for p in pairs:
        shown = p.shown()
        items.append(
            "<li><p>" + said.pair(f"<strong>{escape(p.first)}</strong>",
                                  f"<strong>{escape(p.second)}</strong>") + ": "
            + escape(said.alike(p.first, p.second, p.shares, (p.ranges(0), p.ranges(1))))
            + f"</p><details><summary>{escape(said.shared_lines(p.first))}"
            f"</summary><pre>{escape(chr(10).join(shown))}</pre></details></li>")
    return _section("similar", said.ALIKE, [f"<p>{escape(said.ALIKE_HOW)}</p>",
                                            f"<ol>{''.join(items)}</ol>"])


def roster(match) -> list[str]:
    """Who on the roster has not submitted, and which submissions no one on it matches."""
    if match is None:
        return []
    missing = "".join(f"<li>{escape(s.who)}{escape(f' ({s.id})') if s.id else ''}"
                      f"{escape(f', {s.email}') if s.email else ''}</li>"
                      for s in match.missing) or f"<li>{escape(said.EVERYONE_SUBMITTED)}</li>"
    body = [f"<p>{escape(said.roster_counts(len(match.found), len(match.missing)))}</p>",
            f'<ul class="missing">{missing}</ul>']
    if match.unknown:
        body.append(f"<p>{escape(said.unknown(match.unknown))}</p>")
    return _section("not-submitted", said.NOT_SUBMITTED, body)


def path(weeks: dict) -> list[str]:
    """Each student's score in every lab graded into this folder, as a share of its maximum.
    Each column is its own lab's: no score is set against another lab's."""
    students = sorted({name for week in weeks.values() for name in week["scores"]})
    head = "".join(f'<th scope="col">{escape(said.lab_column(lab))}</th>' for lab in weeks)
    rows = []
    for name in students:
        cells = []
        for week in weeks.values():
            got = week["scores"].get(name)
            if got is None:
                cells.append(f'<td class="n">{escape(said.NOT_GRADED)}</td>')
            else:
                share = round(100 * got[0] / week["max"]) if week["max"] else 0
                cells.append(f'<td>{_number(got[0])}/{_number(week["max"])} ({share}%)</td>')
        rows.append(f'<tr><th scope="row">{escape(name)}</th>{"".join(cells)}</tr>')
    return _section("path", said.PATH, [
        f'<table class="bars"><caption>{escape(said.PATH_CAPTION)}</caption>',
        f'<tr><th scope="col">{escape(said.STUDENT)}</th>{head}</tr>', *rows, "</table>"])


def index(weeks: dict) -> str:
    """The class folder's own page: each lab graded into it, linked to its page, then each
    student's path across them."""
    title = said.CLASS
    items = []
    for lab, week in weeks.items():
        scores = week["scores"].values()
        full = sum(1 for score, verdict in scores if verdict == Overall.FULL_MARKS)
        href = f"lab-{lab}/report.html"
        items.append(f'<li><a href="{escape(href)}">{escape(said.lab_link(lab, week["title"]))}'
                     f'</a>{escape(said.lab_counts(len(week["scores"]), _number(week["max"]), full))}'
                     "</li>")
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{escape(title)}</h1>",
             f"<p>{escape(said.CLASS_HOW)}</p>",
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
    title = said.title(facts.lab, facts.title)
    nav = ["picture", "rules", "scores", "not-graded", "times"]
    if match is not None:
        nav.insert(0, "not-submitted")
    if pairs:
        nav.append("similar")
    if any(s.overrides for s in facts.students):
        nav.insert(0, "overrides")
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{escape(title)}</h1>",
             f"<p>{escape(said.opening(graded, _number(facts.max), full, len(facts.not_graded())))}"
             "</p>",
             "<nav>" + "".join(f'<a href="#{a}">{escape(said.nav(a))}</a>' for a in nav)
             + (f'<a href="{escape(_relative(back, here))}">{escape(said.EVERY_LAB_LINK)}</a>'
                if back else "") + "</nav>"]
    parts += roster(match)
    parts += overridden(facts)
    parts += picture(facts)
    parts += rules(facts, here)
    parts += bars("scores", said.SCORES, said.SCORES_CAPTION, facts.distribution())
    parts += not_graded(facts)
    parts += review.section(facts.students)
    parts += alike(pairs)
    parts += times(facts)
    parts += ["</body></html>", ""]
    return "\n".join(parts)
