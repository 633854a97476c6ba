"""The ratchet's table in source/copying.md: written from the measure's figures
(tools/copying_measure.py) by `python -m tools.copying --write`, and read back by the ratchet
(tests/authoring/test_starter_levels.py). Apart from the measure, which it only reads."""
from __future__ import annotations

import re
import statistics
from fractions import Fraction

from tools.copying_measure import NOTES, READERS, Figure, course_share, percent

# --- the table ------------------------------------------------------------

TABLE_START, TABLE_END = "<!-- table: python -m tools.copying --write -->", "<!-- end of table -->"
LINES_START = "<!-- readers' lines: python -m tools.copying --write -->"
LINES_END = "<!-- end of readers' lines -->"
COLUMNS = "| lab | answer lines | shown by (a) | shown by (b) | shown | % | readers' % |"
ROW = re.compile(r"^\| (\d+\.\d+|course) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|")


def table(figures: list[Figure]) -> str:
    rows = [COLUMNS, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for f in figures:
        readers = f"{READERS[f.lab]} %" if f.lab in READERS else ""
        rows.append(f"| {f.lab} | {len(f.lines)} | {len(f.near)} | {len(f.dictated)} | "
                    f"{len(f.shown)} | {percent(f.share)} | {readers} |")
    total = course_share(figures)
    rows.append(f"| course | {sum(len(f.lines) for f in figures)} | "
                f"{sum(len(f.near) for f in figures)} | {sum(len(f.dictated) for f in figures)} | "
                f"{sum(len(f.shown) for f in figures)} | {percent(total)} | "
                f"{round(statistics.mean(READERS.values()))} % ({len(READERS)} labs) |")
    return "\n".join(rows)


def recorded(text: str | None = None) -> dict[str, Fraction]:
    """The figures the table in source/copying.md records, by lab ("course" for the course):
    shown lines over answer lines."""
    text = NOTES.read_text(encoding="utf-8") if text is None else text
    found = {}
    for line in text.split(TABLE_START, 1)[-1].split(TABLE_END, 1)[0].splitlines():
        row = ROW.match(line)
        if row:
            found[row.group(1)] = Fraction(int(row.group(5)), int(row.group(2)) or 1)
    return found


def _replaced(text: str, start: str, end: str, body: str) -> str:
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


def write(figures: list[Figure]) -> None:
    """Writes the ratchet's table and the fifth look's table into source/copying.md."""
    text = _replaced(NOTES.read_text(encoding="utf-8"), TABLE_START, TABLE_END, table(figures))
    if LINES_START in text:
        from tools import copying_readers  # the readers' table, which reads the measure too
        text = _replaced(text, LINES_START, LINES_END, copying_readers.readers_agreement())
    NOTES.write_text(text, encoding="utf-8")
