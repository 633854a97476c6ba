"""Labs that ask for design: what a student reads before a lab is done must not hand over the
lab's lines (issue 39).

The measure is tools/copying_measure.py, defined in source/copying.md. A lab's answer lines are its
solution's lines that its standard starter lacks (keyword-only lines such as `else:` aside). One
counts as shown when (a) a line with nearly the same tokens (a token similarity of 0.8, fixed
before the measure was first run) stands where the student reads before the lab is done: the
lesson's cells up to the end of the lab's section and what they print, the lines the starter
adds, the hint levels below the last, the lab's own tests.py; or (b) its gap's comment or one sentence of the Build
section names every distinctive name it uses: dictation in English is shown too. No lab is
exempted.

The target is issue 39's bar: at most 20 % of each lab's answer lines shown, and at most 10 %
over the course. Until the labs are rewritten this test holds a ratchet: no lab's figure may
exceed the figure recorded for it in source/copying.md's table (the one place it is recorded),
nor the course's the course's; a failure names the lab, its figure, and each line counted as
shown with where it was shown. And the table must say what the measure finds now, so that a
lab's gain is held once made: an author whose rewrite lowers a figure writes the new table with
`python -m tools.copying --write`.

Kept from the verbatim measure (issue 24), for what the new one does not read: past the lab,
the Tau comparison and the closing card show the reference's lines on purpose, once the lab is
done. On the whole page, every cell and what it prints, with the starter and the hints below the
last, at most a fifth of a lab's lines and a tenth of the course's may stand verbatim.

Run as a script, it prints every lab's figure: .venv/bin/python -m tools.copying
"""
import re
from collections import Counter
from fractions import Fraction

import pytest

from lab.check import manifest
from tools import copying_measure as copying, copying_readers, copying_table

from conftest import BUILT

PAGE_LAB_MOST, PAGE_COURSE_MOST = 0.20, 0.10  # issue 24: verbatim on the whole page


@pytest.fixture(scope="module")
def tree():
    return copying.parsed_source()


@pytest.fixture(scope="module")
def figures(tree):
    return {lab_id: copying.measure(lab_id, tree) for lab_id in BUILT}


@pytest.fixture(scope="module")
def recorded():
    return copying_table.recorded()


@pytest.mark.parametrize("lab_id", BUILT)
def test_no_lab_shows_more_of_its_lines_than_its_row_in_the_notes(lab_id, figures, recorded):
    found = figures[lab_id]
    assert found.lines, f"lab {lab_id} asks for no lines: the measure found nothing to measure"
    assert lab_id in recorded, (
        f"lab {lab_id} has no row in {copying.NOTES.name}'s table; measure it and write the "
        f"table with: python -m tools.copying --write")
    share, allowed = found.share, recorded[lab_id]
    assert share <= allowed, (
        f"{found.words()}, more than the {copying.percent(allowed)} that "
        f"{copying.NOTES.name} records for it (the target is at most "
        f"{copying.percent(copying.LAB_MOST)}). Rewrite what shows these lines, or say less "
        f"in their gap comments:\n{found.details()}")


def test_the_course_shows_no_more_than_its_row_in_the_notes(figures, recorded):
    share = copying.course_share(list(figures.values()))
    assert "course" in recorded, f"{copying.NOTES.name}'s table has no course row"
    assert share <= recorded["course"], (
        f"the course shows {copying.percent(share)} of its labs' answer lines, more than the "
        f"{copying.percent(recorded['course'])} {copying.NOTES.name} records (the target is at "
        f"most {copying.percent(copying.COURSE_MOST)}); by lab:\n" +
        "\n".join(f.words() for f in figures.values()))


def test_the_notes_record_every_labs_figure_as_it_stands(figures, recorded):
    """A ratchet holds only what is written down: a lab whose figure fell keeps its gain once
    its row says so, and the notes' table stays the measure's, not an old one."""
    table = copying_table.table(list(figures.values()))
    stale = [f"{f.words()}, its row says {copying.percent(recorded[lab_id])}"
             for lab_id, f in figures.items()
             if lab_id in recorded and f.share != recorded[lab_id]]
    assert not stale, (
        f"{copying.NOTES.name}'s table is not what the measure finds now; write it with "
        "python -m tools.copying --write:\n" + "\n".join(stale) + f"\nThe table now:\n{table}")


def test_the_notes_table_is_read_as_shown_over_answer_lines():
    text = (f"before\n{copying_table.TABLE_START}\n{copying_table.COLUMNS}\n| --- |\n"
            "| 9.1 | 8 | 0 | 5 | 5 | 62 % | 100 % |\n| course | 461 | 79 | 163 | 198 | 43 % | |\n"
            f"{copying_table.TABLE_END}\n| 2.1 | 9 | 9 | 9 | 9 | 100 % | |\n")
    assert copying_table.recorded(text) == {"9.1": Fraction(5, 8), "course": Fraction(198, 461)}


def test_the_readers_figure_of_a_lab_is_its_latest_rounds():
    table = ("| lab | round | designs written | passed | now failing | allowed | open | copied |\n"
             "| 3.1 | 1 | 13 | 11 | 10 | 1 | 0 | 77 % |\n"
             "| 9.1 | 2 | 10 | 7 | 7 | 0 | 0 | 100 % |\n"
             "| 3.1 | 4 | 28 | 23 | 18 | 4 | 1 | 86 % |\n"
             "| 11.1 | 7 | 24 | 18 (4 probes) | 0 | 0 | 18 | 20 % |\n")
    assert copying.latest_readers(table) == {"3.1": 86, "9.1": 100, "11.1": 20}
    assert set(copying.READERS) == {lab.id for lab in manifest.labs(built_only=True)}, (
        "every lab has had a reader, so source/hunts/README.md's table has a row for each: "
        f"it gives {sorted(copying.READERS)}")


def test_a_line_is_near_when_its_tokens_are_one_in_five_alike():
    reading = copying.Reading([
        copying.Place("cell 3", "    reply = error_message(f'Agent stopped after {n} turns')"),
        copying.Place("cell 4", "print('the view:', lab.shape(view))  # as printed"),
        copying.Place("cell 5's output", "Tool call blocked: the deploy window is closed"),
    ])
    ratio, place = reading.nearest('reply = error_message(f"Agent stopped after {n} turns")')
    assert ratio == 1.0 and place.where == "cell 3"  # quotes do not count
    assert reading.nearest("view = lab.shape(view)")[0] < copying.NEAR  # a shared call is not
    assert reading.nearest('raise PermissionError(f"Tool call blocked: {reason}")')[0] < \
        copying.NEAR
    # A literal is read as its text, so what a cell prints shows it.
    assert reading.nearest('reason = "Tool call blocked: the deploy window is closed"')[0] >= \
        copying.NEAR
    assert copying.Reading([copying.Place("hint 1", "return text")]).nearest(
        "return None")[0] < copying.NEAR  # 0.5: one token of two


def test_dictation_names_every_distinctive_name_in_english():
    known = copying.vocabulary("def user_message(text):\n    return {'role': 'user'}\n")
    wanted = copying.distinctive("self._steering.append(user_message(text))", known)
    assert wanted == [("name", "_steering")]  # append is Python's, user_message already held
    assert copying.named(wanted, "the words wait as a user message at the back of the "
                                 "steering queue")
    assert not copying.named(wanted, "the words wait in a queue")
    assert copying.distinctive("if not failed:", known) == []  # the student's own design
    assert not copying.named([], "if not failed")
    wanted = copying.distinctive('raise PermissionError(f"Tool call blocked: {reason}")')
    assert wanted == [("string", "Tool call blocked:")]
    assert copying.named(wanted, 'raises PermissionError with the text "Tool call blocked: "')
    assert copying.named([("name", "HoldsItsRun")], "a harness that holds its run")
    assert copying.named([("name", "failed")], "after a turn whose reply did not fail")


def test_an_f_strings_text_is_read_with_its_escapes():
    """`\\n` in an f-string is a newline, as in a plain string: read as a backslash and an n,
    neither (a) nor (b) could find `<conversation>` where the page says it."""
    assert copying._pieces('f"<conversation>\\n{render(m)}\\n</conversation>"') == [
        (False, "<conversation>\n"), (True, "render(m)"), (False, "\n</conversation>")]
    assert copying._pieces('rf"a\\n{x}"') == [(False, "a\\n"), (True, "x")]  # raw stays
    wanted = copying.distinctive('w = f"<conversation>\\n{render(m)}\\n</conversation>"')
    assert copying.named(wanted, "the messages between a line `<conversation>` and a line "
                                 "`</conversation>`")


def test_shown_is_set_beside_each_readers_class_line_by_line():
    text = ("# notes\n\n## 9.1, reader r99 (kit 0123abc, round 9, where)\n\n```\n"
            "9.1  1 T x = f(y)\n9.1  1 D z = g(x)\n9.1  2 - h(z)\n9.1  2 O return z\n```\n")
    labelled = copying_readers.readers_lines(text)["9.1"]
    assert (labelled.kit, labelled.round) == ("0123abc", 9)
    assert labelled.rows[2] == (2, "h(z)", "-")
    figure = copying.Figure("9.1", [copying.Answer("x = f(y)", 1), copying.Answer("z = g(x)", 1),
                                    copying.Answer("h(z)", 2), copying.Answer("k = 1", 2),
                                    copying.Answer("return z", 2)])
    figure.dictated = {1: "gap 1", 2: "gap 2", 4: "gap 2"}
    found = copying_readers.agreement(figure, labelled)
    # "-" counts for neither side; the line the labels lack is listed, not guessed.
    assert found["counts"] == {"not shown T": 1, "shown D": 1, "shown O": 1}
    assert found["unmatched"] == ["the measure's gap 2: k = 1"]
    counts = Counter({"shown T": 5, "not shown D": 5})
    assert copying_readers.kappa(counts, "T") == 1.0
    assert copying_readers.kappa(Counter({"shown T": 1, "shown D": 1, "not shown T": 1,
                                  "not shown O": 1}), "T") == 0.0


def test_every_labelled_lab_names_its_readers_report():
    for lab_id, labelled in copying_readers.readers_lines().items():
        assert manifest.lab(lab_id) and labelled.rows, lab_id
        assert all(kind in "TDO-" for _, _, kind in labelled.rows)
        report = copying_readers.LINES.parent / "hunts" / f"round-{labelled.round}"
        assert any(f"lab {lab_id}" in path.read_text(encoding="utf-8").splitlines()[0]
                   for path in report.glob("r*.md")), (
            f"{copying_readers.LINES.name} labels lab {lab_id} from round {labelled.round}, whose "
            f"reports ({report}) hold no reader of it")


def test_an_answer_line_belongs_to_the_gap_that_opens_it(tree):
    lines = copying.answers(manifest.lab("9.1"), tree)
    gap_of = {line.code: line.gap for line in lines}
    assert gap_of["self._steering_queue.append(user_message(text))"] == 1
    assert gap_of["return [queue[0]] if queue else []"] == 3
    assert "else:" not in gap_of and all(copying.counted(line.code) for line in lines)


# --- issue 24's verbatim measure, on the whole page ----------------------------------------------

def flat(text: str) -> str:
    return " ".join(text.split())


def shown_in(code: str, text: str) -> bool:
    """Whether `code` stands in `text` whole, not run into a longer name."""
    return code in text and re.search(r"(?<![\w.])" + re.escape(code) + r"(?!\w)", text) \
        is not None


def verbatim_on_the_page(lab_id: str, lines: list[str], tree) -> set[int]:
    lab = manifest.lab(lab_id)
    _, pins = copying._built(lab.lesson.number)
    cells = copying.cells_read(lab, whole_page=True)
    page = flat("\n".join([text for _, _, text in cells] +
                          [pins.get(cell.id, "") for _, cell, _ in cells] +
                          [line for _, line in copying.added(lab, tree)] + list(lab.hints[:-1])))
    return {at for at, line in enumerate(lines) if shown_in(line, page)}


def test_on_the_whole_page_at_most_a_fifth_of_a_labs_lines_stand_and_a_tenth_of_all(
        figures, tree):
    counts = {}
    for lab_id, figure in figures.items():
        lines = [line.code for line in figure.lines]
        counts[lab_id] = (verbatim_on_the_page(lab_id, lines, tree), lines)
    over = [f"lab {lab_id}: {len(found)} of {len(lines)}: {sorted(lines[i] for i in found)}"
            for lab_id, (found, lines) in counts.items() if len(found) > PAGE_LAB_MOST * len(lines)]
    assert not over, "labs whose page gives more than a fifth of their lines verbatim:\n" + \
        "\n".join(over)
    share = sum(len(f) for f, _ in counts.values()) / sum(len(ls) for _, ls in counts.values())
    assert share <= PAGE_COURSE_MOST, f"the course's pages give {share:.1%} of its labs' lines"


def test_a_line_stands_verbatim_only_whole():
    assert copying.code_of('    x = f("#1")  # why') == 'x = f("#1")'
    assert not copying.counted("else:") and not copying.counted("return False")
    assert copying.counted("return text") and copying.counted('raise ValueError("no")')
    assert shown_in("return text", "then `return text` here")
    assert not shown_in("return text", "return text_of(message)")
