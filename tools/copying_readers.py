"""The readers' lines (issue 39's fifth look): each answer line of a lab, as its release-only
reader classed it (transcribed, a detail from the page, their own; source/copying-lines.md), set
beside whether the measure (tools/copying_measure.py) counts it as shown, on the kit that reader read.
Apart from the measure so that the measure reads in one sitting; `python -m tools.copying
--readers` prints its table and `--write` writes it into source/copying.md."""
from __future__ import annotations

import difflib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tools.copying_measure import NOTES, READERS, Figure, measure, parsed_source, spearman

# --- the labels -------------------------------------------------

LINES = NOTES.parent / "copying-lines.md"
LABELLED = re.compile(r"^(\d+\.\d+) +(\d+) ([TDO-]) (.*)$")
LABELLED_LAB = re.compile(r"^## (\d+\.\d+), reader \w+ \(kit ([0-9a-f]{7,40}), round (\d+)")


@dataclass
class Labelled:
    """One lab's answer lines as its reader classed them, and the kit (a commit) they read."""
    kit: str
    round: int
    rows: list[tuple[int, str, str]] = field(default_factory=list)  # (gap, line, class)


def readers_lines(text: str | None = None) -> dict[str, Labelled]:
    """Each lab's answer lines as its reader classed them, from source/copying-lines.md: the
    commit of the kit the reader read, the round, and (gap, line, class) in file order, class
    T (transcribed or nearly), D (took a detail), O (their own) or "-" (the reader's file has no
    counterpart). A reader's figure counts lines; only lines matched to the measure's say
    whether "shown" meant copied."""
    text = LINES.read_text(encoding="utf-8") if text is None else text
    found: dict[str, Labelled] = {}
    for line in text.splitlines():
        if heading := LABELLED_LAB.match(line):
            found[heading.group(1)] = Labelled(heading.group(2), int(heading.group(3)))
        elif row := LABELLED.match(line):
            found[row.group(1)].rows.append((int(row.group(2)), row.group(4), row.group(3)))
    return found


def agreement(figure: Figure, labelled: Labelled) -> dict:
    """Sets each answer line's "shown" beside its reader's class, matching the measure's lines to
    the labelled ones by gap and text in order. Returns the lab's figure, the count of lines by
    "shown" and class ("shown T", "not shown D", ...) and the lines either side lacks: listed,
    not guessed, since a lab rewritten after its reader is no longer the lab they classed."""
    counts: Counter = Counter()
    unmatched = []
    ours = [(line.gap, line.code) for line in figure.lines]
    theirs = [(gap, code) for gap, code, _ in labelled.rows]
    shown = set(figure.shown)
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    for tag, low, high, their_low, their_high in matcher.get_opcodes():
        if tag == "equal":
            for at, (_, _, kind) in zip(range(low, high), labelled.rows[their_low:their_high]):
                if kind != "-":
                    counts[f"{'shown' if at in shown else 'not shown'} {kind}"] += 1
        else:
            unmatched += [f"the measure's gap {gap}: {code}" for gap, code in ours[low:high]]
            unmatched += [f"{LINES.name}'s gap {gap}: {code}"
                          for gap, code in theirs[their_low:their_high]]
    return {"lab": figure.lab, "share": float(figure.share), "counts": dict(counts),
            "unmatched": unmatched}


def agreements_here(kit: str) -> list[dict]:
    """The agreement of every lab whose reader read `kit`, measured on the kit in this folder."""
    tree = parsed_source()
    return [agreement(measure(lab, tree), labelled)
            for lab, labelled in readers_lines().items() if labelled.kit == kit]


def agreements_at(kit: str) -> list[dict]:
    """The agreement of every lab whose reader read `kit`, measured by this version of the
    measure on the kit as that commit holds it: a reader's T is of the page they read, and the
    labs change after each round (12.1's tests.py lost find_cut after round 8). The commit is
    unpacked into a temporary folder with the measure's four files and copying-lines.md, and measured there by
    a child process, so nothing of this folder's kit leaks in."""
    root = NOTES.parent.parent
    with tempfile.TemporaryDirectory(prefix="copying-") as where:
        archive = subprocess.run(["git", "-C", str(root), "archive", kit], check=True,
                                 capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as unpacked:
            unpacked.extractall(where, filter="data")
        for module in ("copying.py", "copying_measure.py", "copying_readers.py", "copying_table.py"):
            shutil.copy(Path(__file__).with_name(module), Path(where, "tools", module))
        shutil.copy(LINES, Path(where, "source", LINES.name))
        child = subprocess.run([sys.executable, "-m", "tools.copying", "--agreement-at", kit],
                               cwd=where, env={**os.environ, "PYTHONPATH": where},
                               capture_output=True, text=True)
        if child.returncode:
            raise RuntimeError(f"measuring kit {kit} failed:\n{child.stderr[-2000:]}")
        return json.loads(child.stdout)


def _share(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)} %" if whole else "-"


def kappa(counts: Counter, copied: str) -> float:
    """Cohen's kappa of "shown" and "the reader copied it" (classes `copied`): their agreement
    beyond what two independent judges with the same rates would reach (0 is chance)."""
    n = sum(counts.values())
    both = sum(counts[f"shown {c}"] for c in copied)
    neither = sum(counts[f"not shown {c}"] for c in "TDO" if c not in copied)
    shown = sum(counts[f"shown {c}"] for c in "TDO") / n
    taken = sum(counts[f"{s} {c}"] for s in ("shown", "not shown") for c in copied) / n
    chance = shown * taken + (1 - shown) * (1 - taken)
    return ((both + neither) / n - chance) / (1 - chance) if chance < 1 else 0.0


def readers_table(found: list[dict]) -> str:
    """The fifth look's table: by lab, the measure's shown and not shown lines by the reader's
    class, how often "shown" agrees with the reader's T and with T and D together (with Cohen's
    kappa by round), and how the measure's figures rank each round's labs."""
    labelled = readers_lines()
    found = sorted(found, key=lambda a: (labelled[a["lab"]].round,
                                         [int(n) for n in a["lab"].split(".")]))
    rows = ["| lab | round | lines | shown: T / D / O | not shown: T / D / O | "
            "agrees with T | agrees with T+D |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]

    def row(name: str, group: list[dict], with_kappa: bool = False) -> str:
        counts = sum((Counter(a["counts"]) for a in group), Counter())
        n = sum(counts.values())
        on_t = counts["shown T"] + counts["not shown D"] + counts["not shown O"]
        on_td = counts["shown T"] + counts["shown D"] + counts["not shown O"]
        rounds = " ".join(sorted({str(labelled[a["lab"]].round) for a in group}))
        return (f"| {name} | {rounds} | {n} | "
                f"{' / '.join(str(counts[f'shown {c}']) for c in 'TDO')} | "
                f"{' / '.join(str(counts[f'not shown {c}']) for c in 'TDO')} | "
                f"{_share(on_t, n)}" + (f" (κ {kappa(counts, 'T'):.2f})" if with_kappa else "")
                + f" | {_share(on_td, n)}"
                + (f" (κ {kappa(counts, 'TD'):.2f})" if with_kappa else "") + " |")
    rows += [row(a["lab"], [a]) for a in found]
    rounds = sorted({labelled[a["lab"]].round for a in found})
    for hunt in rounds:
        rows.append(row(f"round {hunt}", [a for a in found if labelled[a["lab"]].round == hunt],
                        True))
    rows.append(row("all", found, True))
    rows.append("")
    for hunt in rounds:
        labs = [a for a in found if labelled[a["lab"]].round == hunt]
        rho = spearman([a["share"] for a in labs], [READERS[a["lab"]] for a in labs])
        rows.append(f"Round {hunt}'s {len(labs)} labs, measured as their readers read them: "
                    f"Spearman's rank correlation with the readers {rho:.2f}.")
    unmatched = [f"lab {a['lab']}, {line}" for a in found for line in a["unmatched"]]
    if unmatched:
        rows.append("\nLines matched to no reader's line (copying-lines.md and the kit disagree):"
                    "\n" + "\n".join(unmatched))
    return "\n".join(rows)


def readers_agreement() -> str:
    """The fifth look, each lab measured at the kit its reader read."""
    kits = dict.fromkeys(labelled.kit for labelled in readers_lines().values())
    return readers_table([found for kit in kits for found in agreements_at(kit)])
