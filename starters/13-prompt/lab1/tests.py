"""Lesson 13, lab 1: say what is there. The tests of build_system_prompt, discover_context and the
tools' snippet and guidelines: a system prompt made from the enabled tools, the project's
AGENTS.md files and the skills, in a fixed order, from its arguments alone.

The prompt's opening line and its headings are the kit's own words, so the tests check where
they stand and what follows them, never how they are worded.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 13 tests.py
"""
import harness
import lab
from lab.kit import lab_test, tool

LAB = "13.1"
TODAY, CWD = "2026-03-14", "/work/shop"
DATE = "Current date: 2026-03-14\nCurrent working directory: /work/shop"


def described(name, snippet=None, guidelines=None):
    """A test tool with the two optional keys, when given."""
    found = tool(name, lambda arguments: "", description=f"The {name} tool.")
    if snippet is not None:
        found["snippet"] = snippet
    if guidelines is not None:
        found["guidelines"] = guidelines
    return found


def sections(prompt):
    return prompt.split("\n\n")


def listed(prompt, first):
    """The "- " lines of the section holding the line `first`, and whether a heading line
    (not a "- " line) opens that section."""
    for section in sections(prompt):
        lines = section.split("\n")
        if first in lines:
            return [line for line in lines if line.startswith("- ")], \
                not lines[0].startswith("- ") and len(lines[0]) > 0
    return None, False


SKILL = {"name": "deploy", "description": "Ship a release to production.",
         "path": "skills/deploy.md"}


@lab_test("With no tools, no context files and no skills, the prompt is two parts: one opening "
          "line, then exactly the date and working directory lines.")
async def test_the_bare_prompt(t):
    prompt = harness.build_system_prompt([], [], [], CWD, TODAY)
    parts = sections(prompt)
    t.expect([len(parts), "\n" in parts[0], len(parts[0].split()) >= 3, parts[-1]],
             [2, False, True, DATE],
             "Nothing to list means no tool, guideline or skill section; the date and "
             "directory come last, exactly as passed in by the caller (build_system_prompt, "
             "lesson 13).")


@lab_test("Each tool with a snippet gets the line - name: snippet, in the order the tools were "
          "given; a tool without a snippet gets no line.")
async def test_tool_lines(t):
    tools = [described("zip", "Pack files"), described("ask"), described("cat", "Show a file")]
    lines, headed = listed(harness.build_system_prompt(tools, [], [], CWD, TODAY), "- zip: Pack files")
    t.expect([lines, headed], [["- zip: Pack files", "- cat: Show a file"], True],
             "One line per enabled tool with a snippet, under a heading, in input order "
             "(build_system_prompt, lesson 13).")


@lab_test("Guidelines shared by several tools appear once, in the order they were first seen.")
async def test_guidelines_once_each(t):
    tools = [described("a", "A", ["Be brief.", "Quote paths."]),
             described("b", "B", ["Quote paths.", "Ask before deleting.", "Be brief."]),
             described("c", "C", ["Ask before deleting."])]
    lines, headed = listed(harness.build_system_prompt(tools, [], [], CWD, TODAY), "- Be brief.")
    t.expect([lines, headed], [["- Be brief.", "- Quote paths.", "- Ask before deleting."], True],
             "Each guideline once, first seen first: a list keeps that order, a set does not "
             "(build_system_prompt, lesson 13).")
    nine = ["Quote paths.", "Be brief.", "Ask before deleting.", "Run the tests.",
            "Keep diffs small.", "Name the branch.", "Prefer read.", "Log what you ran.",
            "Check the date."]
    tools = [described("a", "A", nine[:5]), described("b", "B", nine[3:] + nine[:2])]
    lines, _ = listed(harness.build_system_prompt(tools, [], [], CWD, TODAY), "- Be brief.")
    t.expect(lines, ["- " + line for line in nine],
             "Nine guidelines over two tools, four of them shared: each once, first seen first. "
             "A list keeps that order; a set does not, and its order changes from one Python "
             "process to the next (build_system_prompt, lesson 13).")


@lab_test("With everything present the parts come in a fixed order: opening line, tools, "
          "guidelines, context files, skills, then date and directory.")
async def test_the_order_of_the_sections(t):
    tools = [described("read", "Read a file", ["Read before you write."])]
    files = [("AGENTS.md", "Use tabs."), ("app/AGENTS.md", "Run make first.")]
    parts = sections(harness.build_system_prompt(tools, files, [SKILL], CWD, TODAY))
    marks = ["- read: Read a file", "- Read before you write.", '<project_instructions path="AGENTS.md">',
             '<project_instructions path="app/AGENTS.md">',
             "- deploy: Ship a release to production. (skills/deploy.md)",
             "Current date: 2026-03-14"]
    where = [next((i for i, part in enumerate(parts) if mark in part.split("\n")), None)
             for mark in marks]
    t.expect([len(parts), where], [7, [1, 2, 3, 4, 5, 6]],
             "The stable parts first and the date last, so the start of the prompt is the same "
             "from day to day (build_system_prompt, lesson 13).")


@lab_test("Each context file is wrapped exactly as <project_instructions path=\"...\"> its text "
          "</project_instructions>, in the order given.")
async def test_context_files_are_wrapped(t):
    files = [("services/AGENTS.md", "Deploy with make.\nNever push to main."), ("AGENTS.md", "Tabs.")]
    parts = sections(harness.build_system_prompt([], files, [], CWD, TODAY))
    t.expect(parts[1:3],
             ['<project_instructions path="services/AGENTS.md">\nDeploy with make.\nNever push '
              'to main.\n</project_instructions>',
              '<project_instructions path="AGENTS.md">\nTabs.\n</project_instructions>'],
             "The files' text goes in as written, each in its own tags, in the order given, not "
             "sorted (build_system_prompt, lesson 13).")


@lab_test("The skills index appears only when a tool named read can load the skill files, and "
          "lists each skill as - name: description (path).")
async def test_the_skills_index_needs_read(t):
    skills = [SKILL, {"name": "lint", "description": "Fix style.", "path": "skills/lint.md"}]
    with_read = harness.build_system_prompt([described("read", "Read a file")], [], skills, CWD, TODAY)
    lines, headed = listed(with_read, "- lint: Fix style. (skills/lint.md)")
    t.expect([lines, headed],
             [["- deploy: Ship a release to production. (skills/deploy.md)",
               "- lint: Fix style. (skills/lint.md)"], True],
             "With read, an index of the skills under a heading (build_system_prompt, lesson 13).")
    without = harness.build_system_prompt([described("bash", "Run a command")], [], skills, CWD,
                                          TODAY)
    t.expect([len(sections(without)), "skills/lint.md" in without], [3, False],
             "Without read the model could not open a skill file: no index at all "
             "(build_system_prompt, lesson 13).")
    t.expect(len(sections(harness.build_system_prompt([described("read", "Read a file")], [], [],
                                                       CWD, TODAY))), 3,
             "No skills, no index (build_system_prompt, lesson 13).")


@lab_test("The same arguments give the same text every time, and the tools keep the order they "
          "were given in, unsorted.")
async def test_the_prompt_is_deterministic(t):
    tools = [described("zeta", "Last letter", ["Z first."]), described("alpha", "First letter",
                                                                       ["A second."])]
    files = [("AGENTS.md", "Root rules.")]
    prompts = [harness.build_system_prompt(tools, files, [SKILL], CWD, TODAY) for _ in range(3)]
    t.expect([len(set(prompts)), listed(prompts[0], "- zeta: Last letter")[0],
              listed(prompts[0], "- Z first.")[0]],
             [1, ["- zeta: Last letter", "- alpha: First letter"], ["- Z first.", "- A second."]],
             "No clock, no disk, no set: equal arguments, equal text (build_system_prompt, "
             "lesson 13).")
    t.expect(sections(harness.build_system_prompt(tools, files, [SKILL], "/elsewhere",
                                                  "2026-03-15"))[-1],
             "Current date: 2026-03-15\nCurrent working directory: /elsewhere",
             "The date and directory are arguments, passed in by the caller (build_system_prompt, "
             "lesson 13).")


@lab_test("discover_context for services/api returns the AGENTS.md files of the root, services/ "
          "and services/api/, broadest first, skipping folders that have none.")
async def test_discover_context_walks_down(t):
    ws = lab.Workspace({"AGENTS.md": "Root.", "services/api/AGENTS.md": "API.",
                        "services/web/AGENTS.md": "Web.", "services/api/main.py": ""})
    t.expect(harness.discover_context(ws, "services/api"),
             [("AGENTS.md", "Root."), ("services/api/AGENTS.md", "API.")],
             "Every AGENTS.md from the root down to cwd, broadest first, so the nearest has "
             "the last word: services/ has none and is skipped, and services/web/ is not on "
             "the way (discover_context, lesson 13).")
    ws.write_text("services/AGENTS.md", "Services.")
    t.expect(harness.discover_context(ws, "services/api"),
             [("AGENTS.md", "Root."), ("services/AGENTS.md", "Services."),
              ("services/api/AGENTS.md", "API.")],
             "The nearest file comes last, so it has the last word (discover_context, lesson 13).")


@lab_test("discover_context with cwd \"\" or \".\" finds only the root's AGENTS.md, once.")
async def test_discover_context_at_the_root(t):
    ws = lab.Workspace({"AGENTS.md": "Root.", "docs/AGENTS.md": "Docs."})
    t.expect([harness.discover_context(ws, ""), harness.discover_context(ws, "."),
              harness.discover_context(ws, "./docs")],
             [[("AGENTS.md", "Root.")], [("AGENTS.md", "Root.")],
              [("AGENTS.md", "Root."), ("docs/AGENTS.md", "Docs.")]],
             "\"\" and \".\" both name the root (discover_context, lesson 13).")
    t.expect(harness.discover_context(lab.Workspace({"a.py": ""}), "src"), [],
             "No AGENTS.md anywhere: nothing (discover_context, lesson 13).")


@lab_test("The read, write and bash factories each carry a one-line snippet and a list of "
          "guidelines: two for read, two for write (the second shared with read), one for bash.")
async def test_the_factories_carry_snippets_and_guidelines(t):
    ws = lab.Workspace()
    read, write = harness.make_read_tool(ws), harness.make_write_tool(ws)
    bash = harness.make_bash_tool(lab.Shell(ws))
    tools = [read, write, bash]
    t.expect([[type(x.get("snippet")).__name__, "\n" in x.get("snippet", "\n")] for x in tools],
             [["str", False]] * 3, "Each snippet is a string of one line (lesson 13).")
    t.expect([len(x.get("guidelines", [])) for x in tools] +
             [read["guidelines"][1] == write["guidelines"][1],
              read["guidelines"][0] != write["guidelines"][0]],
             [2, 2, 1, True, True],
             "read has two guidelines, write two, bash one; read's second is write's second, "
             "word for word (make_read_tool, make_write_tool, make_bash_tool, lesson 13).")
    lines, _ = listed(harness.build_system_prompt(tools, [], [], CWD, TODAY),
                      "- " + read["guidelines"][0])
    t.expect([len(lines), len(listed(harness.build_system_prompt(tools, [], [], CWD, TODAY),
                                     "- read: " + read["snippet"])[0])], [4, 3],
             "With all three, the prompt lists three tools and four guidelines: the shared one "
             "once (build_system_prompt, lesson 13).")


@lab_test("tool_specs still sends only name, description and parameters, and every request of "
          "every run carries the built prompt unchanged.")
async def test_specs_and_requests(t):
    ws = lab.Workspace({"AGENTS.md": "Be careful with tabs.", "notes.txt": "hi\n"})
    tools = [harness.make_read_tool(ws), harness.make_write_tool(ws),
             harness.make_bash_tool(lab.Shell(ws))]
    t.expect([sorted(spec) for spec in harness.tool_specs(tools)],
             [["description", "name", "parameters"]] * 3,
             "snippet and guidelines are for the system prompt, not the specs (tool_specs, "
             "lessons 2 and 13).")
    prompt = harness.build_system_prompt(tools, harness.discover_context(ws, "."), [SKILL], CWD,
                                         TODAY)
    model = lab.ScriptedModel([lab.reply(lab.call("read", {"path": "notes.txt"})),
                               lab.say("It says hi."), lab.say("Bye.")])
    h = harness.Harness(model, prompt, tools)
    await lab.drive(h.prompt("What is in notes.txt?"))
    await lab.drive(h.prompt("Thanks."))
    t.expect([request.system == prompt for request in model.calls] + [len(model.calls)],
             [True, True, True, 3],
             "The prompt is built once and sent with every request, unchanged (Harness, "
             "lessons 8 and 13).")
    t.expect(lab.shape(h.messages), "U A[c1] R(c1) A U A", "Both runs finished (lesson 13).")
