"""Draw every figure of the lessons as SVG, or check the committed ones.

    python -m tools.figures             write lessons/NN-slug/figures/figure-N-M.svg
    python -m tools.figures --check     list the figures that differ from what the code draws
    python -m tools.figures --png DIR   write, and render each to DIR/*.png to look at
                                        (needs rsvg-convert, from Debian's librsvg2-bin)

A lesson's source defines a figure with a caption line, `**Figure N.M** caption`, and shows
it with the image line `![alt text](figures/figure-N-M.svg)` just above, whose alt text says in
a sentence what the picture shows, for a reader who cannot see it. The SVG is committed in the
folder students open, beside lesson.ipynb, and the notebook links it there (no attachment:
JupyterLab refuses SVG ones), so the relative path resolves wherever the notebook is opened
from its own folder; the SVG's width and height give the image its size. Each figure is one
function in the module of its lesson (lesson_NN_slug.py; registry.py finds them by number),
drawn with the helpers of `canvas.Canvas` (boxes, arrows, diamonds, message chips in shape
notation), so all sixteen share one palette, one sans-serif family for words and one monospace
family for code and shapes, on a white card that stays legible on a dark theme. The SVG carries
the alt text too, as its <desc>. Each element is marked with its role (a shape, a lane, an arrow,
a line struck through on purpose), and tests/browser/test_figures_laid_out.py renders every
figure in Chromium and reads from the page that no text overlaps another or runs over an edge,
no line runs through a text and no arrow ends away from every shape.

The library is drawsvg: pure Python, and it writes SVG as plain text with the words kept as
<text>, so the same code gives the same bytes on every machine and CI can compare them byte
for byte (pinned to one minor release in pyproject.toml). matplotlib was the other candidate;
its SVG depends on its version and on the installed fonts, which it measures and by default
turns into outlines, so two machines draw different bytes. Graphviz would need a system package
that .ci/run does not install.

What a figure says about the code is taken from the code. The timelines come from runs of the
lesson's reference through the fake world, watched by a `Log` (observers.py) that stands only
where a student's code could: 7.1 from a run with one call, 15.2 from a Stop during a batch and
from stop_run on a tool that never looks (the reference's CancelToken is swapped for a subclass
that notes each look at the flag, and who looked: the model or a tool through the flag handed
to it, run_agent or run_tool as the run's events place it). 3.1's list, 6.1's notes, 10.1's
record and views, 11.1's log lines, 12.1's estimates and cuts and 13.1's sections are likewise
the reference's own. So a change to a reference that changes what it does changes its figure,
and `--check` (and the kit's test) says so. The other figures are drawn by hand from the
lesson's text.
"""
