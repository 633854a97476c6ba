"""Similarity (grader/similarity.py, copydetect's winnowing): a copy of a classmate's file with
its names changed is listed, with the lines the two share; two students who filled the gaps
each their own way are not, nor is the starter handed in twice, since the starter's own lines
are left out."""
import io
import json
import re
from contextlib import redirect_stdout


from grader import similarity
from grader.__main__ import main
from lab.check import manifest

LAB = manifest.lab("6.1")
GAP = re.compile(r"^[ ]*# --- your code --- gap.*?^[ ]*# --- end ---\n", re.S | re.M)
# Ben fills lab 6.1's six gap blocks in his own way (in the order the starter holds them).
BENS = [
    '''    value = arguments.get(name, None)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(name + " must be an integer")
    return value
''',
    '''    kept = []
    size = 0
    for line in text.splitlines(True):
        if len(kept) == max_lines:
            break
        size = size + len(line.encode("utf-8"))
        if size > max_bytes:
            break
        kept.append(line)
    return "".join(kept), len(kept)
''',
    '''    kept = []
    size = 0
    for line in reversed(text.splitlines(True)):
        if len(kept) == max_lines:
            break
        size = size + len(line.encode("utf-8"))
        if size > max_bytes:
            break
        kept.insert(0, line)
    return "".join(kept), len(kept)
''',
    '''        first = int_arg(arguments, "offset", 1)
        limit = int_arg(arguments, "limit", None)
        for number in (first, limit):
            if number is not None and number <= 0:
                raise ValueError("offset and limit must be 1 or more")
''',
    '''        body = ws.read_text(path).splitlines(True)
        if first > 1 and first > len(body):
            raise ValueError("offset %d is past the end of %s: %d lines" % (first, path,
                                                                          len(body)))
        wanted = body[first - 1:] if limit is None else body[first - 1:first - 1 + limit]
        shown, n = truncate_head("".join(wanted), max_lines, max_bytes)
        if n == 0 and len(wanted) > 0:
            note = "[Line %d of %s is %d bytes, over the %d-byte budget of one read, so none " \\
                   "of it is shown." % (first, path, len(wanted[0].encode()), max_bytes)
            if first < len(body):
                note += " Use offset=%d to skip it." % (first + 1)
            return note + "]"
        if first + n - 1 < len(body):
            shown += "[Showing lines %d-%d of %d. Use offset=%d to continue.]" % (
                first, first + n - 1, len(body), first + n)
        return shown
''',
    '''        total = len(output.splitlines())
        output, n = truncate_tail(output, max_lines, max_bytes)
        if n != total:
            output = output + "\\n[Showing the last %d of %d lines. Narrow the command for " \\
                              "more.]" % (n, total)
''',
]


def texts() -> dict[str, str]:
    """alice: the reference; ben: his own gaps; carl: alice's file with `lines` renamed `rows`
    and a header of his own; bob and dora: the starter as given."""
    solution = LAB.solution.read_text(encoding="utf-8")
    starter = LAB.starter.read_text(encoding="utf-8")
    fills = iter(BENS)
    ben = GAP.sub(lambda m: next(fills), starter)
    assert next(fills, None) is None and "# --- your code --- gap" not in ben
    carl = "# Carl's lab 6.1\n" + solution.replace("lines", "rows")
    return {"alice": solution, "ben": ben, "carl": carl, "bob": starter, "dora": starter}


def test_a_renamed_copy_is_listed_and_an_honest_pair_is_not():
    pairs = similarity.find(texts(), LAB.id)
    assert [(p.first, p.second) for p in pairs] == [("alice", "carl")], \
        [(p.first, p.second, p.shares) for p in pairs]
    assert min(pairs[0].shares) > 0.9


def test_the_shared_lines_are_the_students_own_not_the_starters():
    alice = texts()["alice"].splitlines()
    pair = similarity.find(texts(), LAB.id)[0]
    shared = {n for a, b in pair.lines[0] for n in range(a, b + 1)}
    truncate_head = next(n for n, line in enumerate(alice, 1)
                         if "used += len(lines[count].encode())" in line)
    assert truncate_head in shared
    given = next(n for n, line in enumerate(alice, 1) if line.startswith("def str_arg"))
    assert given not in shared, "a line the starter gives everyone counted as shared"


def test_the_terminal_and_the_page_list_the_pair_with_its_lines(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for student, text in texts().items():
        (folder / f"{student}.py").write_text(text, encoding="utf-8")
    said = io.StringIO()
    with redirect_stdout(said):
        assert main(["grade", "--lab", LAB.id, str(folder), "--out", str(tmp_path / "out"),
                     "--quiet", "--own-lab-only", "--jobs", "1"]) == 0
    printed = said.getvalue()
    assert "More alike than the starter explains (1 pair;" in printed
    assert re.search(r"  alice and carl: 100% of alice's own code and 100% of carl's is "
                     r"shared; alice's lines [\d, -]+, carl's lines [\d, -]+", printed), printed
    assert "... and " in printed and "more shared lines" in printed
    page = (tmp_path / "out" / "lab-6.1" / "report.html").read_text(encoding="utf-8")
    section = page[page.index('<section id="similar"'):]
    section = section[:section.index("</section>")]
    assert "<strong>alice</strong> and <strong>carl</strong>" in section
    assert "ben" not in section and "bob" not in section
    kept = json.loads((tmp_path / "out" / "lab-6.1" / "similar.json").read_text())
    assert [(p["first"], p["second"]) for p in kept] == [("alice", "carl")]
