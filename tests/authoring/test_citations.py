"""Tau citations: one file lists every one, at one pinned commit, and the lessons cite only
what it lists. (Each first_line was checked against the source at the pin when it was added;
the source is not available to CI, so this test checks the file's shape and the lessons'
links against it.)"""
import re
import tomllib

from lab.check import manifest

FILE = manifest.SOURCE / "tau_citations.toml"
DATA = tomllib.loads(FILE.read_text(encoding="utf-8"))
PIN = DATA["pin"]["commit"]
LINK = re.compile(r"https://github\.com/huggingface/tau/blob/([0-9a-f]+)/([^#)\s]+)#L(\d+)(?:-L(\d+))?")


def test_the_pin_is_a_full_commit():
    assert re.fullmatch(r"[0-9a-f]{40}", PIN)
    assert DATA["pin"]["repo"] == "huggingface/tau"


def test_every_citation_has_a_path_lines_its_first_line_and_a_claim():
    for key, cite in DATA["cite"].items():
        assert set(cite) >= {"path", "lines", "first_line", "claim"}, key
        assert re.fullmatch(r"\d+(-\d+)?", cite["lines"]), f"{key}: lines {cite['lines']!r}"
        first, _, last = cite["lines"].partition("-")
        assert not last or int(last) >= int(first), key
        assert cite["first_line"].strip() and cite["claim"].strip(), key


def test_each_place_is_listed_once():
    places = [(c["path"], c["lines"]) for c in DATA["cite"].values()]
    repeated = {p for p in places if places.count(p) > 1}
    assert not repeated, f"cited twice under different ids: {sorted(repeated)}"


def cited_places():
    for lesson in manifest.lessons():
        if lesson.source.exists():
            for match in LINK.finditer(lesson.source.read_text(encoding="utf-8")):
                commit, path, first, last = match.groups()
                yield lesson.number, commit, path, first + (f"-{last}" if last else "")


def test_lessons_link_only_to_the_pinned_commit():
    wrong = [(n, c) for n, c, _, _ in cited_places() if c != PIN]
    assert not wrong, f"links to another commit than the pin: {wrong}"


def test_every_line_a_lesson_links_to_is_listed():
    listed = {(c["path"], c["lines"]) for c in DATA["cite"].values()}
    missing = sorted({(n, p, lines) for n, _, p, lines in cited_places() if (p, lines) not in listed})
    assert not missing, f"lessons link to Tau lines the citations file does not list: {missing}"
