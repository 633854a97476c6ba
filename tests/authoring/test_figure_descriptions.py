"""Each figure says what it shows on its own: the SVG carries its lesson's alt text as its
<desc>, beside its <title>, so a reader who opens the file alone (a file browser, GitHub, a
screen reader handed the SVG) gets the same sentence the lesson's image gives."""
import xml.etree.ElementTree as ET

from lab.check import manifest
from tools.figures import registry

SVG = "{http://www.w3.org/2000/svg}"


def committed(number: str) -> ET.Element:
    text = registry.path(number).read_text(encoding="utf-8")
    return ET.fromstring(text.split("?>", 1)[1])


def test_every_figure_has_an_image_line_with_alt_text_in_its_lesson():
    alts = registry.alt_texts()
    missing = sorted(set(registry.FIGURES) - {n for n, alt in alts.items() if alt.strip()},
                     key=manifest.key)
    assert missing == [], f"these figures have no alt text in their lesson: {missing}"


def test_every_committed_figure_carries_its_alt_text_as_its_description():
    alts = registry.alt_texts()
    for number in registry.FIGURES:
        root = committed(number)
        desc = root.find(f"{SVG}desc")
        assert desc is not None and desc.text == alts[number], (
            f"{registry.path(number).relative_to(manifest.KIT)}: its <desc> is not its "
            "lesson's alt text; run python -m tools.figures")
        assert desc.text != root.find(f"{SVG}title").text


def test_a_description_is_escaped_and_placed_after_the_title():
    svg = '<svg><title>Figure 0.0: x.</title>\n<rect/></svg>'
    made = registry.described(svg, 'A box & an "arrow" <drawn>.')
    assert made == ('<svg><title>Figure 0.0: x.</title>\n'
                    '<desc>A box &amp; an "arrow" &lt;drawn&gt;.</desc>\n<rect/></svg>')
    assert registry.described(svg, None) == svg
