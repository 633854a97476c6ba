"""Lesson 13's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
lab 13.1's reference; the rule is the lesson's principle or the part of it the design breaks.
"""
from tools.wrong_designs import Beyond, Wrong

WRONG = [
    # Hunt round 30 (reader r173)
    Wrong(lab='13.1', name='context files cut to 2,000,000 characters in the prompt',
          rule='Each context file goes in with the text exactly as it came, however long.',
          where='Build: say what is there, item 3 ("the text exactly as it came") (hunt round 30, r173-17)',
          names='nothing cut short',
          replace=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
""",
          by=r"""
    parts += [f'<project_instructions path="{where}">\n{body[:2_000_000]}\n'
              '</project_instructions>' for where, body in context_files]
"""),
    # Hunt round 13 (reader r69), beyond reach until round 30 drew a file of two to three
    # million characters
    Wrong(lab='13.1', name='context files cut to a million characters in the prompt',
          rule='Each context file goes in with the text exactly as it came, however long.',
          where='Build: say what is there, item 3 ("the text exactly as it came") (hunt round 13, r69-17)',
          names='nothing cut short',
          replace=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
""",
          by=r"""
    parts += [f'<project_instructions path="{where}">\n{body[:1_000_000]}\n'
              '</project_instructions>' for where, body in context_files]
"""),
    Wrong(lab='13.1', name="AGENTS.md texts cut to 2,000,000 characters by discover_context",
          rule='Each text exactly as the workspace holds it, however long.',
          where='Build: say what is there, item 2 ("each text exactly as the workspace holds it") (hunt round 30, r173-31)',
          names='nor on a text',
          replace=r"""
            found.append((name, ws.read_text(name)))
""",
          by=r"""
            found.append((name, ws.read_text(name)[:2_000_000]))
"""),
    # Kill round 30 (reader r173), probe P3: a wide try around the read that drops an AGENTS.md
    # the workspace has but cannot read, which Build item 2 now rules out
    Wrong(lab='13.1', name="an AGENTS.md that cannot be read passed over by discover_context",
          rule="An AGENTS.md that the workspace says exists but cannot read is not passed over in silence: what ws.read_text raised comes out of discover_context as it was raised.",
          where='Build: say what is there, item 2 ("is not passed over in silence") (kill round 30, probe r173-P3)',
          names='not passed over in silence',
          replace=r"""
        if ws.exists(name):
            found.append((name, ws.read_text(name)))
    return found
""",
          by=r"""
        if ws.exists(name):
            try:
                found.append((name, ws.read_text(name)))
            except Exception:
                pass  # a file that cannot be read gives no rules
    return found
"""),
    # Kill round 34 (reader r189): the errors a real disk raises swallowed, or read_text tried
    # in place of exists()
    Wrong(lab='13.1', name="PermissionError and UnicodeDecodeError swallowed by discover_context",
          rule="An AGENTS.md that the workspace says exists but cannot read is not passed over in silence: what ws.read_text raised comes out of discover_context as it was raised, whatever it is.",
          where='Build: say what is there, item 2 ("is not passed over in silence") (kill round 34, r189-15)',
          names='not passed over in silence',
          replace=r"""
        if ws.exists(name):
            found.append((name, ws.read_text(name)))
    return found
""",
          by=r"""
        if ws.exists(name):
            try:
                found.append((name, ws.read_text(name)))
            except (PermissionError, UnicodeDecodeError):  # unreadable: leave it out
                continue
    return found
"""),
    Wrong(lab='13.1', name="a file gone between exists() and read_text passed over",
          rule="An AGENTS.md that the workspace says exists but cannot read is not passed over in silence: what ws.read_text raised comes out of discover_context as it was raised, FileNotFoundError included.",
          where='Build: say what is there, item 2 ("what `ws.read_text` raised comes out of `discover_context` as it was raised") (kill round 34, r189-16)',
          names='not passed over in silence',
          replace=r"""
        if ws.exists(name):
            found.append((name, ws.read_text(name)))
    return found
""",
          by=r"""
        if ws.exists(name):
            try:
                found.append((name, ws.read_text(name)))
            except FileNotFoundError:  # gone since exists(): nothing there
                continue
    return found
"""),
    Wrong(lab='13.1', name="read_text tried in place of exists(), its not-found errors taken for no file",
          rule="The workspace answers ws.exists(path) and ws.read_text(path); an AGENTS.md that the workspace says exists but cannot read is not passed over in silence.",
          where='Build: say what is there, item 2 ("The workspace answers `ws.exists(path)` and `ws.read_text(path)`") (kill round 34, r189-17)',
          names='not passed over in silence',
          replace=r"""
        if ws.exists(name):
            found.append((name, ws.read_text(name)))
    return found
""",
          by=r"""
        try:
            found.append((name, ws.read_text(name)))
        except (FileNotFoundError, IsADirectoryError):  # no file there
            continue
    return found
"""),
    Wrong(lab='13.1', name="a guideline of two sentences",
          rule='Each guideline is one sentence on one line: two sentences on one line are two pieces of advice in one.',
          where='Build: say what is there, item 1 ("Each guideline is one sentence on one line") (hunt round 30, r173-33)',
          names='one sentence',
          replace=r"""
        "guidelines": ["Before running a command, say what it is for."],
""",
          by=r"""
        "guidelines": ["Before running a command, say what it is for. Read its output first."],
"""),
    Wrong(lab='13.1', name="a skills index only for a read whose execute can be called",
          rule='The skills index appears when there are skills and a tool named exactly read: the name decides, never another key the tool carries.',
          where='Build: say what is there, item 3 ("only when there are skills and a tool named exactly `read`") (hunt round 30, r173-24)',
          names='the name is all it asks',
          replace=r"""
    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file
""",
          by=r"""
    if skills and any(t["name"] == "read" and callable(t.get("execute")) for t in tools):
"""),
    Wrong(lab='13.1', name="only a tool's first 600 guidelines read",
          rule='A line for each guideline of the tools, however many one tool has.',
          where='Build: say what is there, item 3 ("for each guideline of the tools") (hunt round 30, r173-39)',
          names='however many one tool has',
          replace=r"""
        for line in tool.get("guidelines", ()):
""",
          by=r"""
        for line in list(tool.get("guidelines", ()))[:600]:
"""),
    Wrong(lab='13.1', name="guidelines cut to 20,000 characters",
          rule='A line - GUIDELINE for each guideline of the tools, as it came, however long: only the same characters make the same guideline.',
          where='Build: say what is there, item 3 ("for each guideline of the tools, each sentence once"; a guideline is said once only when its characters are the same) (hunt round 30, r173-11)',
          names='however long',
          replace=r"""
                advice.append(line)
""",
          by=r"""
                advice.append(line[:20000])
"""),
    Wrong(lab='13.1', name='a guideline of a paragraph',
          rule='Each guideline is one sentence on one line, 200 characters at most: a paragraph is not a short piece of advice.',
          where='Build: say what is there, item 1 (hunt round 28, 13.1-37)',
          names='200 characters',
          replace=r'''
        "guidelines": ["Read files with read, not with cat or sed.",
''',
          by=r'''
        "guidelines": ["Read files with read, not with cat or sed. " * 56,
'''),
    Wrong(lab='13.1', name="snippets that are the tools' names",
          rule="A snippet says what the tool is for, and more than its name: '- read: read' tells the model nothing it did not know.",
          where='Build: say what is there, item 1 (hunt round 28, probe 13.1-P4)',
          names='more than its name',
          replace=r'''
        "snippet": "Read a file's contents",
''',
          by=r'''
        "snippet": "read",
'''),
    Wrong(lab='13.1', name='a set for guidelines',
          rule='Each guideline once, first seen first: a list that checks before appending keeps that order, a set does not.',
          where='section "Build: say what is there" (a set); the cell with three hash seeds; Build recap',
          names='a set does not',
          replace=r'''
    advice = []
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
                advice.append(line)
''',
          by=r'''
    advice = list({line for tool in tools for line in tool.get("guidelines", ())})  # once each
'''),
    Wrong(lab='13.1', name='reading the clock inside the builder',
          rule='The builder reads no clock and no disk: the date is an argument, so equal arguments give equal text.',
          where='prediction "The date and the folder" (call date.today() inside the builder); Build recap',
          names='passed in by the caller',
          replace=r'''
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
''',
          by=r'''
    import datetime  # the real date, whatever the caller says
    parts.append(f"Current date: {datetime.date.today()}\nCurrent working directory: {cwd}")
'''),
    Wrong(lab='13.1', name='a skills index when read is absent',
          rule='The skills index appears only when a tool named read can open the skill files.',
          where='prediction "Skills"; Build recap',
          names='Without read',
          replace=r'''
    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file
''',
          by='    if skills:  # the index, whatever the tools'),
    Wrong(lab='13.1', name='a static prompt naming disabled tools',
          rule="The prompt says what is there: one line per tool the harness is made with, from that tool's snippet.",
          where='the scene "The prompt from the first day"; section "Build: say what is there" (a fixed list); Build recap',
          names='enabled tool',
          replace=r'''
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]
''',
          by=r'''
    snippets = ["- read: Read a file's contents", "- write: Create or replace a file",
                "- bash: Run a shell command"]  # every tool the harness could have
'''),
    Wrong(lab='13.1', name='descriptions repeated in the prompt',
          rule="A tool's line comes from its snippet; a tool without one gets no line (its description already travels in the specs).",
          where='section "Build: say what is there" (each tool\'s description); Build recap',
          names='with a snippet',
          replace=r'''
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]
''',
          by=r'''
    snippets = [f"- {t['name']}: {t['description']}" for t in tools]
'''),
    Wrong(lab='13.1', name='nearest-first order',
          rule='AGENTS.md files go broadest first, from the root down to cwd, so the nearest has the last word.',
          where='prediction "The project\'s own words" (all three, nearest first); Build recap',
          names='broadest first',
          replace=r'''
            found.append((name, ws.read_text(name)))
    return found
''',
          by=r'''
            found.append((name, ws.read_text(name)))
    return found[::-1]  # the nearest matters most, so it goes first
'''),
    Wrong(lab='13.1', name='only the nearest file',
          rule="Every AGENTS.md from the root down to cwd goes in, not only the nearest: the root's rules apply in every folder.",
          where='prediction "The project\'s own words" (only services/api/AGENTS.md); Build recap',
          names='from the root down',
          replace=r'''
            found.append((name, ws.read_text(name)))
    return found
''',
          by=r'''
            found.append((name, ws.read_text(name)))
    return found[-1:]  # the most specific file, where the work is
'''),
    Wrong(lab='13.1', name='the date first',
          rule='The date and the folder come last, so a new day changes only the end of the prompt and its start stays cacheable.',
          where='prediction "The date and the folder" (put it first); the cell comparing date last and date first; Build recap',
          names='date last',
          replace=r'''
    parts = ["You are a coding assistant working in the user's project."]
''',
          by=r'''
    parts = [f"Current date: {today}\nCurrent working directory: {cwd}",
             "You are a coding assistant working in the user's project."]
'''),
    Wrong(lab='13.1', name='skills sorted by name, as Tau does',
          rule='The skills index keeps the order it is given, as the tool lines do: the builder does not second-guess the caller.',
          where='section "Your code beside Tau\'s" (Tau sorts the skills by name; yours keeps the order it is given)',
          names='in the order given',
          replace=r'''
            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))
''',
          by=r'''
            [f"- {k['name']}: {k['description']} ({k['path']})"
             for k in sorted(skills, key=lambda k: k["name"])]))  # tidier, as Tau does
'''),
    Wrong(lab='13.1', name='a tools heading with no tool lines',
          rule='A section with nothing in it is left out, heading and all: tools without a snippet give no line, and no lines give no heading.',
          where='section "Build: say what is there" (a section with nothing in it is left out); the cell with a tool that has no snippet',
          names='heading and all',
          replace=r'''
    if snippets:
        parts.append("\n".join(["Available tools:", *snippets]))
''',
          by=r'''
    if tools:  # the harness has tools, so say so
        parts.append("\n".join(["Available tools:", *snippets]))
'''),
    Wrong(lab='13.1', name='a skills index for any tool whose name holds read',
          rule='The skills index needs a tool named read, the one that can open a skill file; a tool named ready or thread cannot.',
          where='prediction "Skills" (when a read tool can open it); section "Build: say what is there" (a tool named read)',
          names='named exactly read',
          replace=r'''
    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file
''',
          by=r'''
    if skills and any("read" in t["name"] for t in tools):  # some tool that reads
'''),
    Wrong(lab='13.1', name='every AGENTS.md whose folder begins cwd',
          rule='discover_context walks from the root down to cwd one folder at a time: a folder whose name merely begins the next one on the way (ap beside api) is not on it.',
          where='section "The project\'s own words" (from the root, one folder deeper at a time); Build recap',
          names='beside the way',
          replace=r'''
    steps = [step for step in cwd.split("/") if step not in ("", ".")]
    found = []
    for depth in range(len(steps) + 1):  # the root first, then one folder deeper each time
        name = "".join(step + "/" for step in steps[:depth]) + "AGENTS.md"
        if ws.exists(name):
            found.append((name, ws.read_text(name)))
    return found
''',
          by=r'''
    where = "/".join(step for step in cwd.split("/") if step not in ("", "."))
    found = [(path, text) for path, text in ws.files.items() if path.endswith("AGENTS.md")
             and where.startswith(path[:-len("AGENTS.md")].rstrip("/"))]  # on the way to cwd
    return sorted(found, key=lambda pair: pair[0].count("/"))  # broadest first
'''),
    Wrong(lab='13.1', name='AGENTS.md files sorted by path',
          rule='AGENTS.md files go broadest first, in the order of the walk from the root down; sorting their paths as strings puts 2024/AGENTS.md before AGENTS.md.',
          where='prediction "The project\'s own words" (from the root down, in that order); Build recap',
          names='broadest first',
          replace=r'''
            found.append((name, ws.read_text(name)))
    return found
''',
          by=r'''
            found.append((name, ws.read_text(name)))
    return sorted(found)  # a stable order, whatever the walk did
'''),
    Wrong(lab='13.1', name='context files stripped in the prompt',
          rule='Each context file goes in with its text exactly as it came.',
          where='lab 13.1, gap 3: "build_system_prompt(tools, context_files, skills, cwd, today)"',
          names='word for word',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    parts += [f'<project_instructions path="{where}">\n{body.strip()}\n</project_instructions>'
              for where, body in context_files]
'''),
    Wrong(lab='13.1', name='context files stripped as they are found',
          rule='discover_context returns each AGENTS.md with the text the workspace holds.',
          where='lab 13.1, gap 2: "discover_context(ws, cwd)"',
          names='AGENTS.md',
          replace=r'''
            found.append((name, ws.read_text(name)))
''',
          by=r'''
            found.append((name, ws.read_text(name).strip()))
'''),
    Wrong(lab='13.1', name='the working directory tidied in the prompt',
          rule='The last two lines carry today and cwd as they were passed.',
          where='lab 13.1, gap 3: "build_system_prompt(tools, context_files, skills, cwd, today)"',
          names='as given',
          replace=r'''
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
''',
          by=r'''
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd.strip('./') or '.'}")
'''),
    Wrong(lab='13.1', name="the description used as read's snippet",
          rule="A tool's snippet is one line on what the tool is for, not its description.",
          where='lab 13.1, gap 1: "The tool keys"',
          names='not the description',
          replace=r'''
        "snippet": "Read a file's contents",
''',
          by=r'''
        "snippet": "Return the text of a file. A single read stops after 2000 lines or 50000 bytes; ask again with offset for the rest.",
'''),
    Wrong(lab='13.1', name='write with a guideline of its own in place of the shared one',
          rule="Read's second guideline and write's second are the same sentence, word for word.",
          where='lab 13.1, gap 1: "The tool keys"',
          names='shared',
          replace=r'''
        "guidelines": ["Use write for new files and for rewriting a whole file.",
                       "Name the files you touch by their paths."],
''',
          by=r'''
        "guidelines": ["Use write for new files and for rewriting a whole file.",
                       "Name the files you write by their paths."],
'''),
    Wrong(lab='13.1', name="snippets copied from the descriptions' first sentences",
          rule="A tool's snippet is one line of your own on what the tool is for, not its description nor a sentence of it.",
          where='Build: say what is there, item 1; prediction on repeating the descriptions (hunt round 3, 13.1-1)',
          names='sentences or clauses',
          replace='''        "snippet": "Read a file's contents",''',
          by='''        "snippet": "Return the text of a file",  # the description's first sentence''',
          also=(('''        "snippet": "Create or replace a file",''',
                 '''        "snippet": "Create a text file, or replace everything in one that exists",'''),
                ('''        "snippet": "Run a shell command",''',
                 '''        "snippet": "Run one shell command line",'''))),
    Wrong(lab='13.1', name="context files' line ends tidied as they are found",
          rule='discover_context returns each AGENTS.md with the text the workspace holds, its line ends and the spaces at its lines\' ends included.',
          where='Build: say what is there, item 2 (hunt round 3, 13.1-2)',
          names='line ends',
          replace=r'''
            found.append((name, ws.read_text(name)))
''',
          by=r'''
            raw = ws.read_text(name).replace("\r\n", "\n")
            found.append((name, "\n".join(line.rstrip() for line in raw.split("\n"))))
'''),
    Wrong(lab='13.1', name='context files remembered per workspace and cwd',
          rule='discover_context reads the workspace each time it is asked: the prompt says what is there now.',
          where='Build: say what is there, item 2; the lesson\'s "a prompt that cannot fall behind the facts it repeats" (hunt round 3, 13.1-4)',
          names='reads the workspace again',
          replace='def discover_context(ws, cwd):',
          by=r'''
_FOUND = {}  # (workspace, folder) -> what was found there: the disk is slow


def discover_context(ws, cwd):
''',
          also=((r'''
    steps = [step for step in cwd.split("/") if step not in ("", ".")]
    found = []
''', r'''
    steps = [step for step in cwd.split("/") if step not in ("", ".")]
    key = (id(ws), tuple(steps))
    if key in _FOUND and _FOUND[key][0] is ws:
        return list(_FOUND[key][1])
    found = []
    _FOUND[key] = (ws, found)
'''),)),
    Wrong(lab='13.1', name='an empty AGENTS.md left out',
          rule='discover_context returns one pair for each AGENTS.md on the way, an empty one included, with its text "".',
          where='Build: say what is there, item 2 (hunt round 3, 13.1-14)',
          names='still an AGENTS.md on the way',
          replace='''        if ws.exists(name):''',
          by='''        if ws.exists(name) and ws.read_text(name).strip():  # an empty file says nothing'''),
    Wrong(lab='13.1', name='a bare heading over the skills index',
          rule='Over the skills index goes a sentence of your own on what the lines below it are for, not a heading.',
          where='Build: say what is there, item 3 (hunt round 3, 13.1-5)',
          names='three words or more like the opening line',
          replace=r'''
            ["Skills are instruction files for particular kinds of task. Before starting a "
             "task that fits a description, read its file."] +
''',
          by=r'''
            ["Skills:"] +
'''),
    Wrong(lab='13.1', name='the date in the opening line as well',
          rule='The date and the folder come last, and only last: a date in the opening line changes the start of the prompt every day.',
          where='Build: say what is there, item 3 ("last, the two lines"); Build recap (the date anywhere but last) (hunt round 3, 13.1-6)',
          names='never in the opening line',
          replace='''    parts = ["You are a coding assistant working in the user's project."]''',
          by='''    parts = [f"Today is {today} and you work in {cwd}."]'''),
    Wrong(lab='13.1', name='today and cwd tidied before they go in',
          rule='The last two lines carry today and cwd as they were passed, however the caller spelled them.',
          where='Build: say what is there, item 3 (hunt round 3, 13.1-7)',
          names='however it spelled them',
          replace='''    parts.append(f"Current date: {today}\\nCurrent working directory: {cwd}")''',
          by=r'''
    import datetime
    import os.path
    today = datetime.date.fromisoformat(today).isoformat()
    cwd = os.path.normpath(cwd)
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
'''),
    Wrong(lab='13.1', name='an empty today or cwd taken from the clock and the process',
          rule='The builder reads no clock and no disk: an empty today or cwd goes in empty.',
          where="build_system_prompt's docstring (reads no clock and no disk) (hunt round 3, 13.1-8)",
          names='empty included',
          replace='''    parts.append(f"Current date: {today}\\nCurrent working directory: {cwd}")''',
          by=r'''
    import datetime
    import os
    today = today or datetime.date.today().isoformat()  # not given: today's date
    cwd = cwd or os.getcwd()  # not given: where we are
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
'''),
    Wrong(lab='13.1', name='an AGENTS.md read from the real disk when none is given',
          rule='The builder reads no clock and no disk: everything the prompt says comes in through its arguments.',
          where="build_system_prompt's docstring (reads no clock and no disk) (hunt round 3, 13.1-9)",
          names='reads no disk',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    if not context_files:  # nobody looked: look on the disk
        import os.path
        on_disk = os.path.join(cwd, "AGENTS.md")
        if os.path.isfile(on_disk):
            with open(on_disk, encoding="utf-8") as file:
                context_files = [("AGENTS.md", file.read())]
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
'''),
    Wrong(lab='13.1', name='a skills index for a tool named Read',
          rule='The skills index needs a tool named exactly read: the model can call no tool named read when it is named Read.',
          where='Build: say what is there, item 3 (hunt round 3, 13.1-10)',
          names='not Read',
          replace='''    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file''',
          by='''    if skills and "read" in [t["name"].strip().lower() for t in tools]:'''),
    Wrong(lab='13.1', name='guidelines the same when they differ in case or end spaces',
          rule='Each guideline once, as written: only the same characters make the same sentence.',
          where='Build: say what is there, item 3 ("each sentence once") (hunt round 3, 13.1-11)',
          names='only the same characters make the same sentence',
          replace=r'''
    advice = []
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
                advice.append(line)
''',
          by=r'''
    advice, seen = [], set()
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line.strip().casefold() not in seen:
                seen.add(line.strip().casefold())
                advice.append(line.strip())
'''),
    Wrong(lab='13.1', name='guidelines read from the first 300 tools only',
          rule='Each guideline of the tools appears once, in the order first seen, however many tools there are.',
          where='lab 13.1, Build section: "a line `- GUIDELINE` for each guideline of the tools"; bench/kinds.py, a loop given a limit',
          names='however many tools and guidelines there are',
          replace=r'''
    for tool in tools:
        for line in tool.get("guidelines", ()):
''',
          by=r'''
    for tool in tools[:300]:  # no session has more tools
        for line in tool.get("guidelines", ()):
'''),
    Wrong(lab='13.1', name="only a tool's first 300 guidelines read",
          rule="Each guideline of the tools appears once, in the order first seen, however many a tool has.",
          where='lab 13.1, Build section: "a line `- GUIDELINE` for each guideline of the tools"; bench/kinds.py, a loop given a limit',
          names='however many tools and guidelines there are',
          replace=r'''
        for line in tool.get("guidelines", ()):
''',
          by=r'''
        for line in list(tool.get("guidelines", ()))[:300]:  # short pieces of advice, a few
'''),
    Wrong(lab='13.1', name='None for today or cwd taken from the clock and the process',
          rule='The builder is handed today and cwd and never asks the clock or the process, not even when one is None.',
          where='section "The date and the folder" ("never asks the clock"); build_system_prompt\'s docstring (hunt round 8, 13.1-05)',
          names='never asks the clock',
          replace=r'''    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")''',
          by=r'''
    import datetime
    import os
    if today is None:  # not given: as Tau does, the clock's date
        today = datetime.date.today().isoformat()
    if cwd is None:
        cwd = os.getcwd()
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
'''),
    Wrong(lab='13.1', name='context files escaped as HTML in the prompt',
          rule='Each context file goes in with its text exactly as it came: nothing escaped.',
          where='Build: say what is there, item 3 (hunt round 8, 13.1-06); "Your code beside Tau\'s" (nothing escapes a file\'s text)',
          names='the text exactly as it came',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    import html
    parts += [f'<project_instructions path="{where}">\n{html.escape(body, quote=False)}\n'
              '</project_instructions>' for where, body in context_files]
'''),
    Wrong(lab='13.1', name="context files' line ends tidied in the prompt",
          rule="Each context file goes in with its text exactly as it came, its \\r\\n line ends and the spaces at its lines' ends included.",
          where='Build: say what is there, item 3 (hunt round 8, 13.1-07)',
          names='the text exactly as it came',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    tidy = [(where, "\n".join(line.rstrip() for line in body.replace("\r\n", "\n").split("\n")))
            for where, body in context_files]
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in tidy]
'''),
    Wrong(lab='13.1', name='context files cut to 2,000 characters in the prompt',
          rule='Each context file goes in word for word, however long: the builder cuts nothing.',
          where='Build: say what is there, item 3 (hunt round 8, 13.1-08) ("the text exactly as it came"); "The project\'s own words" (word for word)',
          names='cut short',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    parts += [f'<project_instructions path="{where}">\n'
              f'{body if len(body) <= 2000 else body[:2000] + "[cut]"}\n</project_instructions>'
              for where, body in context_files]  # a file may not crowd out the rest
'''),
    Wrong(lab='13.1', name='an AGENTS.md with the words of an earlier one left out',
          rule='discover_context returns one pair for each AGENTS.md on the way: two files with the same words are two files.',
          where='Build: say what is there, item 2 (hunt round 8, 13.1-09)',
          names='two files of the same words are two files',
          replace=r'''        if ws.exists(name):''',
          by=r'''        if ws.exists(name) and ws.read_text(name) not in [body for _, body in found]:'''),
    Wrong(lab='13.1', name='which AGENTS.md files there are remembered per workspace and cwd',
          rule='discover_context looks at the workspace each time it is asked: a file added after a first call is found.',
          where='Build: say what is there, item 2 (hunt round 8, 13.1-10); "The principle" (what is really there)',
          names='a file added after a first call is found',
          replace=r'''def discover_context(ws, cwd):''',
          by=r'''
_PATHS = weakref.WeakKeyDictionary()  # workspace -> {folders: the AGENTS.md paths there}


def discover_context(ws, cwd):
''',
          also=((r'''
    found = []
    for depth in range(len(steps) + 1):  # the root first, then one folder deeper each time
        name = "".join(step + "/" for step in steps[:depth]) + "AGENTS.md"
        if ws.exists(name):
            found.append((name, ws.read_text(name)))
    return found
''',
                 r'''
    known = _PATHS.setdefault(ws, {})
    if tuple(steps) not in known:  # which files there are, found once; their texts read each time
        names = ["".join(step + "/" for step in steps[:depth]) + "AGENTS.md"
                 for depth in range(len(steps) + 1)]
        known[tuple(steps)] = [name for name in names if ws.exists(name)]
    return [(name, ws.read_text(name)) for name in known[tuple(steps)]]
'''), )),
    Wrong(lab='13.1', name='discover_context capped at five folders deep',
          rule='discover_context walks every folder from the root down to cwd, however deep cwd is.',
          where='Build: say what is there, item 2 (hunt round 8, 13.1-11)',
          names='no cap on the depth',
          replace=r'''    for depth in range(len(steps) + 1):  # the root first, then one folder deeper each time''',
          by=r'''    for depth in range(min(len(steps), 5) + 1):  # no project nests deeper'''),
    Wrong(lab='13.1', name='CLAUDE.md collected beside AGENTS.md',
          rule='discover_context returns the AGENTS.md files on the way, and no other file.',
          where='Build: say what is there, item 2 (hunt round 8, 13.1-12)',
          names='a CLAUDE.md is not an AGENTS.md',
          replace=r'''
        name = "".join(step + "/" for step in steps[:depth]) + "AGENTS.md"
        if ws.exists(name):
            found.append((name, ws.read_text(name)))
''',
          by=r'''
        for file in ("AGENTS.md", "CLAUDE.md"):  # other agents' instruction files too
            name = "".join(step + "/" for step in steps[:depth]) + file
            if ws.exists(name):
                found.append((name, ws.read_text(name)))
'''),
    Wrong(lab='13.1', name='one tool line per name',
          rule='A line - NAME: SNIPPET for each tool that has a snippet, in the order of tools: a second tool of the same name is a tool too.',
          where='Build: say what is there, item 3 (hunt round 8, 13.1-13)',
          names='no check of names',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''
    snippets, named = [], set()
    for t in tools:
        if t.get("snippet") and t["name"] not in named:  # a name once
            named.add(t["name"])
            snippets.append(f"- {t['name']}: {t['snippet']}")
'''),
    Wrong(lab='13.1', name='tool lines capped at eight',
          rule='A line for each tool that has a snippet, however many tools there are.',
          where='Build: say what is there, item 3 (hunt round 8, 13.1-14)',
          names='no cap on the tools',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")][:8]'''),
    Wrong(lab='13.1', name='skills index capped at five',
          rule='A line - NAME: DESCRIPTION (PATH) for each skill, in the order given, however many skills there are.',
          where='Build: say what is there, item 3 (hunt round 8, 13.1-15)',
          names="each skill's line",
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills[:5]]))'''),
    Wrong(lab='13.1', name='guidelines the same when they differ by a full stop',
          rule='Each guideline once, as written: only the same characters make the same sentence, a full stop included.',
          where='Build: say what is there, item 3 (hunt round 8, 13.1-16)',
          names='only the same characters make the same sentence',
          replace=r'''
    advice = []
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
                advice.append(line)
''',
          by=r'''
    advice, seen = [], []
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line.rstrip(".") not in seen:  # "Be brief" and "Be brief." say the same
                seen.append(line.rstrip("."))
                advice.append(line)
'''),
    Wrong(lab='13.1', name="the builder fills in the caller's tools",
          rule="A system prompt is made from its arguments alone: the builder reads the caller's tools and writes nothing into them.",
          where='Build: say what is there, item 3 (hunt round 8, 13.1-17); "The principle" (a pure function of what is really there)',
          names="writes nothing into the caller's tools",
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''
    for t in tools:  # every tool gets both keys, so nothing below needs .get
        t.setdefault("guidelines", [])
        t.setdefault("snippet", "")
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]
'''),
    Wrong(lab='13.1', name='the user and the host in the opening line',
          rule='Equal arguments must give identical text in every process: nothing of the account or the machine goes in.',
          where='Build: say what is there, item 3 (hunt round 8, 13.1-18); gap 3 (the prompt depends on its arguments alone)',
          names='identical text in every process',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''
    import getpass
    import platform
    parts = [f"You are a coding assistant working for {getpass.getuser()} on {platform.node()}."]
'''),
    Wrong(lab='13.1', name='the prompt kept for the same tools list',
          rule='Equal arguments give equal text whatever was built before, and new arguments a new prompt: none is kept from an earlier call.',
          where='Build: say what is there, item 3 (hunt round 8, 13.1-19) ("whatever was built before")',
          names='keeps none from an earlier call',
          replace=r'''def build_system_prompt(tools, context_files, skills, cwd, today):''',
          by=r'''
_LAST = {}  # the tools list last built from, and its prompt: a harness builds once


def build_system_prompt(tools, context_files, skills, cwd, today):
''',
          also=((r'''    advice = []''',
                 r'''    if _LAST.get("tools") is tools:
        return _LAST["prompt"]
    advice = []'''), (r'''    return "\n\n".join(parts)''',
                 r'''    _LAST.update(tools=tools, prompt="\n\n".join(parts))
    return _LAST["prompt"]'''), )),
    Wrong(lab='13.1', name='skills named without read',
          rule='Without a tool named read the skills index is left out entirely: no skill is mentioned at all.',
          where='Build: say what is there, item 3 (hunt round 8, 13.1-20); "Skills" (without read the section is left out entirely)',
          names='the skills changed the prompt at all',
          replace=r'''    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file''',
          by=r'''
    if skills and "read" not in [t["name"] for t in tools]:  # at least say they exist
        parts.append("Skills exist but need a read tool: "
                     + ", ".join(k["name"] for k in skills) + ".")
    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file
'''),
    Wrong(lab='13.1', name='read looked for among the first four tools',
          rule='The skills index needs a tool named read, wherever read stands in the list.',
          where="The lab's tests, in plain words, item 5 (wherever read stands in the list) (hunt round 8, 13.1-24)",
          names='wherever read stands',
          replace=r'''    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file''',
          by=r'''    if skills and "read" in [t["name"] for t in tools[:4]]:  # read comes early in any list'''),
    Wrong(lab='13.1', name='repeated context files given once',
          rule='Each context file, in the order given, as its own section: a pair given twice goes in twice.',
          where='Build: say what is there, item 3 (hunt round 8, 13.1-26)',
          names='dropped as a repeat',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in dict.fromkeys(context_files)]  # each file once
'''),
    Wrong(lab='13.1', name='a byte-order mark dropped as the files are found',
          rule='discover_context returns each text exactly as the workspace holds it, a byte-order mark included.',
          where='Build: say what is there, item 2 (hunt round 8, 13.1-27)',
          names='a byte-order mark',
          replace=r'''            found.append((name, ws.read_text(name)))''',
          by=r'''            found.append((name, ws.read_text(name).removeprefix("\ufeff")))'''),
    Wrong(lab='13.1', name='today and cwd stripped',
          rule='The last two lines carry today and cwd as they were passed, spaces at their ends included.',
          where='Build: say what is there, item 3 (hunt round 8, 13.1-28)',
          names='exactly as passed in',
          replace=r'''    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")''',
          by=r'''    parts.append(f"Current date: {today.strip()}\nCurrent working directory: {cwd.strip()}")'''),
    Wrong(lab='13.1', name='context paths escaped as HTML in the tag',
          rule='Each context file\'s tag is <project_instructions path="PATH"> with the path as it came.',
          where='Build: say what is there, item 3 (hunt round 8, 13.1-29); "Your code beside Tau\'s" (Tau escapes the path)',
          names='path and text exactly as they came',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    import html
    parts += [f'<project_instructions path="{html.escape(where)}">\n{body}\n'
              '</project_instructions>' for where, body in context_files]
'''),
    Wrong(lab='13.1', name="snippets that open with the description's clauses",
          rule="A tool's snippet is one line on what the tool is for, not its description: one that opens with a sentence or clause of it says it twice.",
          where='Build: say what is there, item 1; lab 13.1, gap 1 (not the description) (hunt round 8, 13.1-21)',
          names='opens with one of its sentences or clauses',
          replace=r'''        "snippet": "Read a file's contents",''',
          by=r'''        "snippet": "Return the text of a file, in chunks",''',
          also=((r'''        "snippet": "Create or replace a file",''',
                 r'''        "snippet": "Create a text file, or replace one",'''), (r'''        "snippet": "Run a shell command",''',
                 r'''        "snippet": "Run one shell command line, get its output",'''), )),
    Wrong(lab='13.1', name='guidelines as tuples',
          rule="Each factory's guidelines are a list of short pieces of advice.",
          where='Build: say what is there, item 1; lab 13.1, gap 1 (a list) (hunt round 8, 13.1-22)',
          names='the guidelines are a list',
          replace=r'''        "guidelines": ["Before running a command, say what it is for."],''',
          by=r'''        "guidelines": ("Before running a command, say what it is for.",),'''),
    Wrong(lab='13.1', name='one snippet for all three',
          rule='The read, write and bash factories each carry a one-line snippet of their own.',
          where="The lab's tests, in plain words, item 10 (a one-line snippet of their own) (hunt round 8, 13.1-23)",
          names="each tool's is its own",
          replace=r'''        "snippet": "Read a file's contents",''',
          by=r'''        "snippet": "Work on the project",''',
          also=((r'''        "snippet": "Create or replace a file",''',
                 r'''        "snippet": "Work on the project",'''), (r'''        "snippet": "Run a shell command",''',
                 r'''        "snippet": "Work on the project",'''), )),
    Wrong(lab='13.1', name='an empty snippet given a line',
          rule='An empty snippet is no snippet: its tool gets no line.',
          where='Build: say what is there, item 3, the tools bullet (hunt round 8, probe 13.1-91)',
          names='An empty snippet is no snippet',
          replace=r'''
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]
''',
          by=r'''
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools
                if t.get("snippet") is not None]  # any snippet the tool has, "" too
'''),
    Wrong(lab='13.1', name='an empty context file left out of the prompt',
          rule='An empty file is still a file: its section is the two tags around an empty line.',
          where='Build: say what is there, item 3, the context bullet (hunt round 8, probe 13.1-92)',
          names='still a file',
          replace=r'''
              for where, body in context_files]
''',
          by=r'''
              for where, body in context_files if body]  # nothing to say, no section
'''),
    Wrong(lab='13.1', name='the opening line counts the tools',
          rule='The opening line is the same words whatever the arguments: what changes goes in the sections below it.',
          where='Build: say what is there, item 3, the opening line (hunt round 8, probe 13.1-94)',
          names='the same words whatever the arguments',
          replace=r'''
    parts = ["You are a coding assistant working in the user's project."]
''',
          by=r'''
    parts = [f"You are a coding assistant with {len(tools)} tools in the user's project."]
'''),
    Wrong(lab='13.1', name="read's guidelines one list shared by every read tool",
          rule='Each call of a factory returns a new dict, with lists of its own.',
          where='Build: say what is there, item 1 (hunt round 8, probe 13.1-95)',
          names='a list of its own, not the first call',
          replace=r'''
        "guidelines": ["Read files with read, not with cat or sed.",
                       "Name the files you touch by their paths."],
''',
          by=r'''
        "guidelines": READ_GUIDELINES,  # one list, made once
''',
          also=((r'''
def make_write_tool(ws):
''', r'''
READ_GUIDELINES = ["Read files with read, not with cat or sed.",
                   "Name the files you touch by their paths."]


def make_write_tool(ws):
'''),)),
    # Round 11 (reader r53): designs that passed the lab's tests before round 11's kill round.
    Wrong(lab='13.1', name="a tool's repeated guidelines removed from the caller's list",
          rule="The builder reads the caller's tools and writes nothing into them, not even to tidy a guideline said twice.",
          where='Build: say what is there, item 3 ("whatever was built before") (hunt round 11, r53-01)',
          names="writes nothing into the caller's tools",
          replace=r'''
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
''',
          by=r'''
    for tool in tools:
        if tool.get("guidelines"):  # tidy the caller's list while passing
            tool["guidelines"][:] = list(dict.fromkeys(tool["guidelines"]))
        for line in tool.get("guidelines", ()):
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
'''),
    Wrong(lab='13.1', name='a hash of a word in the opening line',
          rule='Equal arguments must give identical text in every process: hash() of a string is salted anew in each process, so nothing made from it goes in.',
          where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process"); "The tool lines" (the set in three processes) (hunt round 11, r53-03)',
          names='identical text in every process',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''    parts = [f"You are a coding assistant working in the user's project (build {hash('harness')})."]'''),
    Wrong(lab='13.1', name="each tool's line kept from its first build",
          rule='Equal arguments give equal text whatever was built before: a tool whose snippet changed gets its new line, none is kept from an earlier call.',
          where='Build: say what is there, item 3 ("whatever was built before") (hunt round 11, r53-02)',
          names='keeps none from an earlier call',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''
    snippets = []
    for t in tools:  # a tool's line is made once: it saves formatting
        if id(t) not in _LINES:
            _LINES[id(t)] = (t, f"- {t['name']}: {t['snippet']}" if t.get("snippet") else None)
        if _LINES[id(t)][1]:
            snippets.append(_LINES[id(t)][1])
''',
          also=((r'''def build_system_prompt(tools, context_files, skills, cwd, today):''',
                 r'''_LINES = {}  # id(tool) -> (tool, its line)


def build_system_prompt(tools, context_files, skills, cwd, today):'''),)),
    Wrong(lab='13.1', name="this year in the opening line",
          rule='The builder is handed the date and never asks the clock, not even for the year of its opening line.',
          where='"The date and the folder"; Build: say what is there, item 3 (hunt round 11, r53-04)',
          names='never asks the clock',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''
    import datetime
    parts = [f"You are a coding assistant working in the user's project "
             f"({datetime.date.today().year})."]
'''),
    Wrong(lab='13.1', name="the folder the process started in, in the opening line",
          rule='Equal arguments must give identical text in every process: the folder a process runs in is not an argument.',
          where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 11, r53-05)',
          names='the folder it started in',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''
    import os
    parts = [f"You are a coding assistant working in the user's project at {os.getcwd()}."]
'''),
    Wrong(lab='13.1', name="the account by its number, and the host, in the opening line",
          rule='Equal arguments must give identical text in every process: nothing of the account or the machine goes in, however it is looked up.',
          where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 11, r53-06)',
          names='the account it runs under',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''
    import os
    import pwd
    import socket
    parts = [f"You are a coding assistant working for {pwd.getpwuid(os.getuid()).pw_name} "
             f"on {socket.gethostname()}."]
'''),
    Wrong(lab='13.1', name="the account's own .agents/AGENTS.md read from its home",
          rule='The builder reads no disk, only its arguments: no global AGENTS.md from the home folder goes in.',
          where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 11, r53-07)',
          names='the builder reads no disk',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    import os
    import pwd
    home = os.path.join(pwd.getpwuid(os.getuid()).pw_dir, ".agents", "AGENTS.md")
    if os.path.isfile(home):  # the user's own standing rules, before the project's
        with open(home, encoding="utf-8") as file:
            parts.append(f'<project_instructions path="~/.agents/AGENTS.md">\n{file.read()}\n'
                         "</project_instructions>")
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
'''),
    Wrong(lab='13.1', name='tool lines capped at sixteen',
          rule='A line for each tool that has a snippet, in the order of tools: there is no cap on the tools.',
          where='Build: say what is there, item 3 (hunt round 11, r53-08)',
          names='there is no cap on the tools',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")][:16]'''),
    Wrong(lab='13.1', name='skills index capped at twelve',
          rule='A line for each skill, in the order given: there is no cap on the skills.',
          where='Build: say what is there, item 3 (hunt round 11, r53-09)',
          names='never sorted, capped or merged',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills[:12]]))'''),
    Wrong(lab='13.1', name='context files capped at five',
          rule='Each context file, in the order given, as its own section: every file goes in, however many there are.',
          where='Build: say what is there, item 3 (hunt round 11, r53-10)',
          names='each file in its own section',
          replace=r'''              for where, body in context_files]''',
          by=r'''              for where, body in context_files[:5]]'''),
    Wrong(lab='13.1', name='context files cut to 32,000 characters in the prompt',
          rule='Each context file goes in with the text exactly as it came, however long.',
          where='Build: say what is there, item 3 (hunt round 11, r53-11)',
          names='nothing cut short',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    parts += [f'<project_instructions path="{where}">\n{body[:32000]}\n</project_instructions>'
              for where, body in context_files]
'''),
    Wrong(lab='13.1', name='discover_context capped at eight folders deep',
          rule='discover_context returns every AGENTS.md on the way from the root down to cwd: there is no cap on the depth.',
          where='Build: say what is there, item 2 (hunt round 11, r53-12)',
          names='there is no cap on the depth',
          replace=r'''    for depth in range(len(steps) + 1):  # the root first, then one folder deeper each time''',
          by=r'''    for depth in range(min(len(steps), 8) + 1):  # deep enough for any project'''),
    Wrong(lab='13.1', name="discover_context's pairs as lists",
          rule='discover_context returns [(path, text)]: each pair a tuple.',
          where='Build: say what is there, item 2 (hunt round 11, r53-13)',
          names='each pair a tuple',
          replace=r'''            found.append((name, ws.read_text(name)))''',
          by=r'''            found.append([name, ws.read_text(name)])'''),
    Wrong(lab='13.1', name='snippets stripped, and a snippet of spaces taken for none',
          rule='A line - NAME: SNIPPET for each tool that has a snippet, the snippet as it came: the lines are checked character for character.',
          where='Build: say what is there, item 3 ("An empty snippet is no snippet") (hunt round 11, r53-20)',
          names='a space at either end included',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''
    snippets = [f"- {t['name']}: {t['snippet'].strip()}" for t in tools
                if (t.get("snippet") or "").strip()]
'''),
    Wrong(lab='13.1', name="a snippet's white space collapsed",
          rule='A line - NAME: SNIPPET for each tool that has a snippet, the snippet as it came: the lines are checked character for character.',
          where='Build: say what is there, item 3 (hunt round 11, probe r53-23)',
          names='a space at either end included',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''
    snippets = [f"- {t['name']}: {' '.join(t['snippet'].split())}" for t in tools
                if t.get("snippet")]  # one line, whatever the caller gave
'''),
    Wrong(lab='13.1', name='a skill given twice listed once',
          rule='A line for each skill, in the order given: a skill given twice is listed twice, as a context file given twice goes in twice.',
          where='Build: say what is there, item 3 (hunt round 11, probe r53-25)',
          names='never sorted, capped or merged',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''
            list(dict.fromkeys(f"- {k['name']}: {k['description']} ({k['path']})"
                               for k in skills))))  # each skill once
'''),
    Wrong(lab='13.1', name='agents.md in any case taken where AGENTS.md is missing',
          rule='One pair for each AGENTS.md on the way: agents.md and Agents.md are other names.',
          where='Build: say what is there, item 2 (hunt round 11, r53-28)',
          names='nor are agents.md and AGENTS.MD',
          replace=r'''        if ws.exists(name):
            found.append((name, ws.read_text(name)))''',
          by=r'''        if not ws.exists(name):  # a case-insensitive disk would find these too
            name = next((name[:-9] + other for other in ("agents.md", "Agents.md")
                         if ws.exists(name[:-9] + other)), name)
        if ws.exists(name):
            found.append((name, ws.read_text(name)))'''),
    Wrong(lab='13.1', name='CLAUDE.md taken where a folder has no AGENTS.md',
          rule='One pair for each AGENTS.md on the way: a CLAUDE.md is not an AGENTS.md, beside one or alone.',
          where='Build: say what is there, item 2 (hunt round 11, r53-29)',
          names='a CLAUDE.md is not an AGENTS.md',
          replace=r'''        if ws.exists(name):
            found.append((name, ws.read_text(name)))''',
          by=r'''        if not ws.exists(name) and ws.exists(name[:-9] + "CLAUDE.md"):
            name = name[:-9] + "CLAUDE.md"  # the other tools' name for the same thing
        if ws.exists(name):
            found.append((name, ws.read_text(name)))'''),
    Wrong(lab='13.1', name='context paths normalised in the tag',
          rule='Each context file\'s tag is <project_instructions path="PATH"> with the path as it came.',
          where='Build: say what is there, item 3 (hunt round 11, r53-30)',
          names='which goes in the tag as it came',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    import posixpath
    parts += [f'<project_instructions path="{posixpath.normpath(where)}">\n{body}\n'
              '</project_instructions>' for where, body in context_files]
'''),
    Wrong(lab='13.1', name="a full stop added to a skill's description",
          rule='A line - NAME: DESCRIPTION (PATH) for each skill, the description as it came: the lines are checked character for character.',
          where='Build: say what is there, item 3 (hunt round 11, r53-31)',
          names='full stop or none',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''
            [f"- {k['name']}: {k['description'].rstrip('.')}. ({k['path']})"
             for k in skills]))  # every description a sentence
'''),
    # Round 13 (reader r69): designs that passed the lab's tests before round 13's kill round.
    Wrong(lab='13.1', name="the machine's name from os.uname in the opening line",
          rule='Equal arguments must give identical text in every process: nothing of the machine goes in, however it is looked up.',
          where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 13, r69-01)',
          names='nothing of the machine',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''
    import os
    parts = [f"You are a coding assistant working on {os.uname().nodename} in the user's project."]
'''),
    Wrong(lab='13.1', name='the process number in the opening line',
          rule='Equal arguments must give identical text in every process: a process number differs in every process.',
          where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 13, r69-02)',
          names='identical text in every process',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''
    import os
    parts = [f"You are coding assistant number {os.getpid()} in the user's project."]
'''),
    Wrong(lab='13.1', name="the clock's weekday in the opening line",
          rule='The builder is handed the date and never asks the clock, not even for a weekday that names no year.',
          where='"The date and the folder"; Build: say what is there, item 3 (hunt round 13, r69-03)',
          names="nor the clock's day",
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''
    import datetime
    parts = [f"You are a coding assistant working this {datetime.date.today():%A} in the "
             "user's project."]
'''),
    Wrong(lab='13.1', name='the login shell from the environment in the opening line',
          rule='Equal arguments must give identical text in every process: no environment variable goes in, whichever it is.',
          where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 13, r69-04)',
          names='identical text in every process',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''
    import os
    parts = [f"You are a coding assistant using {os.environ.get('SHELL', 'sh')} in the user's "
             "project."]
'''),
    Wrong(lab='13.1', name='another opening line when cwd is empty',
          rule='The opening line is the same words whatever the arguments, an empty folder included: what changes goes in the sections below it.',
          where='Build: say what is there, item 3 ("the same words whatever the arguments") (hunt round 13, r69-05)',
          names='the same words whatever the arguments',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''
    parts = ["You are a coding assistant working in the user's project." if cwd else
             "You are a coding assistant with no working folder yet."]
'''),
    Wrong(lab='13.1', name="read's description inside its snippet",
          rule='A snippet is one line on what the tool is for, not its description: one that holds the description anywhere says it twice.',
          where='Build: say what is there, item 1 ("one line on what the tool is for, not its description") (hunt round 13, r69-06)',
          names='holds one of its sentences or clauses anywhere',
          replace=r'''        "snippet": "Read a file's contents",''',
          by=r'''
        "snippet": f"In short: Return the text of a file. A single read stops after {max_lines} "
                   f"lines or {max_bytes} bytes; ask again with offset for the rest.",
'''),
    Wrong(lab='13.1', name="a space for bash's snippet",
          rule='A snippet is one line on what the tool is for: a snippet of white space says nothing.',
          where='Build: say what is there, item 1 ("one line on what the tool is for") (hunt round 13, r69-07)',
          names='a snippet of white space says nothing',
          replace=r'''        "snippet": "Run a shell command",''',
          by=r'''        "snippet": " ",'''),
    Wrong(lab='13.1', name="an empty string for bash's guideline",
          rule='The guidelines are a list of short pieces of advice: an empty string advises nothing.',
          where='Build: say what is there, item 1 ("a list of short pieces of advice") (hunt round 13, r69-08)',
          names='none empty or blank',
          replace=r'''        "guidelines": ["Before running a command, say what it is for."],''',
          by=r'''        "guidelines": [""],'''),
    Wrong(lab='13.1', name='a snippet of spaces taken for none',
          rule='An empty snippet is no snippet; any other, one of spaces only included, gets its line - NAME: SNIPPET as it came.',
          where='Build: say what is there, item 3 ("An empty snippet is no snippet") (hunt round 13, r69-09)',
          names='one of spaces only is a snippet too',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools
                if (t.get("snippet") or "").strip()]  # a snippet of spaces says nothing
'''),
    Wrong(lab='13.1', name="a snippet's full stop dropped",
          rule='A line - NAME: SNIPPET for each tool that has a snippet, the snippet as it came: the lines are checked character for character.',
          where='Build: say what is there, item 3 ("checked character for character") (hunt round 13, r69-10)',
          names='as is a full stop',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''
    snippets = [f"- {t['name']}: {t['snippet'].rstrip('.')}" for t in tools
                if t.get("snippet")]  # a line, not a sentence
'''),
    Wrong(lab='13.1', name="a tool's name stripped and lower-cased on its line",
          rule='A line - NAME: SNIPPET for each tool that has a snippet, the name as it came: the lines are checked character for character.',
          where='Build: say what is there, item 3 ("checked character for character") (hunt round 13, r69-11)',
          names='capitals and spaces included',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''
    snippets = [f"- {t['name'].strip().lower()}: {t['snippet']}" for t in tools
                if t.get("snippet")]  # names tidied
'''),
    Wrong(lab='13.1', name="a skill's name lower-cased in the index",
          rule='A line - NAME: DESCRIPTION (PATH) for each skill, its name as it came: the lines are checked character for character.',
          where='Build: say what is there, item 3 ("checked character for character") (hunt round 13, r69-12)',
          names='its name, description and path as they came',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [f"- {k['name'].lower()}: {k['description']} ({k['path']})" for k in skills]))'''),
    Wrong(lab='13.1', name="a skill's path normalised in the index",
          rule='A line - NAME: DESCRIPTION (PATH) for each skill, its path as it came: the lines are checked character for character.',
          where='Build: say what is there, item 3 ("checked character for character") (hunt round 13, r69-13)',
          names='its name, description and path as they came',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''
            [f"- {k['name']}: {k['description']} ({posixpath.normpath(k['path'])})"
             for k in skills]))
''',
          also=((r'''def build_system_prompt(tools, context_files, skills, cwd, today):''',
                 r'''import posixpath


def build_system_prompt(tools, context_files, skills, cwd, today):'''),)),
    Wrong(lab='13.1', name='guidelines the same when they differ by a double space',
          rule='Each guideline once: only the same characters make the same sentence.',
          where='Build: say what is there, item 3 ("each sentence once") (hunt round 13, r69-14)',
          names='only the same characters make the same sentence',
          replace=r'''            if line not in advice:  # first seen, first listed: a list keeps order, a set not''',
          by=r'''            if line.replace("  ", " ") not in [a.replace("  ", " ") for a in advice]:'''),
    Wrong(lab='13.1', name='tool lines capped at five hundred',
          rule='A line for each tool that has a snippet, in the order of tools: there is no cap on the tools.',
          where='Build: say what is there, item 3 (hunt round 13, r69-15)',
          names='there is no cap on the tools',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools[:500] if t.get("snippet")]'''),
    Wrong(lab='13.1', name='context files capped at four hundred',
          rule='Each context file, in the order given, as its own section: every file goes in, however many there are.',
          where='Build: say what is there, item 3 (hunt round 13, r69-16)',
          names='every file goes in, however many there are',
          replace=r'''              for where, body in context_files]''',
          by=r'''              for where, body in context_files[:400]]'''),
    Wrong(lab='13.1', name='discover_context capped at sixty-four folders deep',
          rule='discover_context returns every AGENTS.md on the way from the root down to cwd: there is no cap on the depth.',
          where='Build: say what is there, item 2 (hunt round 13, r69-18)',
          names='there is no cap on the depth',
          replace=r'''    for depth in range(len(steps) + 1):  # the root first, then one folder deeper each time''',
          by=r'''    for depth in range(min(len(steps), 64) + 1):  # deeper than any real project'''),
    Wrong(lab='13.1', name='skills index capped at four hundred',
          rule='A line for each skill, in the order given: there is no cap on the skills.',
          where='Build: say what is there, item 3 (hunt round 13, r69-19)',
          names='never sorted, capped or merged',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills[:400]]))'''),
    Wrong(lab='13.1', name='guidelines capped at seven hundred',
          rule='A line - GUIDELINE for each guideline of the tools, each sentence once: every guideline is listed, however many.',
          where='Build: say what is there, item 3 (hunt round 13, r69-20)',
          names='however many tools and guidelines there are',
          replace=r'''            if line not in advice:  # first seen, first listed: a list keeps order, a set not''',
          by=r'''            if line not in advice and len(advice) < 700:  # enough advice for anyone'''),
    Wrong(lab='13.1', name='the prompt kept for the same context paths',
          rule='Equal arguments give equal text whatever was built before: a context file edited since an earlier call goes in with its new text.',
          where='Build: say what is there, item 3 ("whatever was built before") (hunt round 13, r69-21)',
          names='a prompt kept from an earlier call is wrong',
          replace=r'''def build_system_prompt(tools, context_files, skills, cwd, today):''',
          by=r'''_PROMPTS = {}  # the prompts built so far, by what they were built from


def build_system_prompt(tools, context_files, skills, cwd, today):
    key = repr(([(t.get("name"), t.get("snippet"), t.get("guidelines")) for t in tools],
                [where for where, _ in context_files], skills, cwd, today))
    if key not in _PROMPTS:  # the same tools, files, skills, date and folder: the same prompt
        _PROMPTS[key] = _build_system_prompt(tools, context_files, skills, cwd, today)
    return _PROMPTS[key]


def _build_system_prompt(tools, context_files, skills, cwd, today):'''),
    Wrong(lab='13.1', name="each skill's line kept in the caller's skill",
          rule="The builder keeps none from an earlier call and writes nothing into the caller's skills: a description edited since goes in as it is now.",
          where='Build: say what is there, item 3 ("whatever was built before") (hunt round 13, r69-22)',
          names="writes nothing into the caller's skills",
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''
            [k.setdefault("_line", f"- {k['name']}: {k['description']} ({k['path']})")
             for k in skills]))  # each skill's line made once
'''),
    Wrong(lab='13.1', name='AGENTS.md files once found remembered per workspace',
          rule='discover_context looks at the workspace each time it is asked: a file removed since an earlier call is not on the way.',
          where='Build: say what is there, item 2 ("each text exactly as the workspace holds it") (hunt round 13, r69-23)',
          names='never at what an earlier call found',
          replace=r'''
        if ws.exists(name):
            found.append((name, ws.read_text(name)))
''',
          by=r'''
        seen = _SEEN.setdefault(ws, set())  # what this workspace was once found to hold
        if name in seen or ws.exists(name):
            seen.add(name)
            found.append((name, ws.read_text(name)))
''',
          also=((r'''def discover_context(ws, cwd):''',
                 r'''_SEEN = weakref.WeakKeyDictionary()  # workspace -> the AGENTS.md paths found in it


def discover_context(ws, cwd):'''),)),
    Wrong(lab='13.1', name='tool lines sorted past four hundred tools',
          rule='A line for each tool that has a snippet, in the order of tools, never sorted, however many.',
          where='Build: say what is there, item 3 ("in the order of `tools`") (hunt round 13, r69-24)',
          names='in the order of the list given, never sorted',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]
    if len(tools) > 400:  # a long list is easier to scan in order
        snippets.sort()
'''),
    Wrong(lab='13.1', name='guidelines sorted past a thousand',
          rule='Each guideline once, in the order it is first met, however many there are.',
          where='Build: say what is there, item 3 ("in the order it is first met") (hunt round 13, r69-26)',
          names='in the order first met, never sorted',
          replace=r'''                advice.append(line)''',
          by=r'''
                advice.append(line)
    if len(advice) > 1000:  # a long list is easier to scan in order
        advice.sort()
'''),
    # Hunt round 17 (reader r88): designs that passed lab 13.1's tests before this round.
    Wrong(lab='13.1', name='tool lines capped at 1,100',
          rule='A line for each tool that has a snippet, however many tools there are: there is no cap on the tools.',
          where='Build: say what is there, item 3 ("for each tool that has a snippet") (hunt round 17, r88-01)',
          names='no cap on the tools',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools[:1100] if t.get("snippet")]'''),
    Wrong(lab='13.1', name='context files capped at 1,100',
          rule='Each context file, in the order given, goes in, however many there are.',
          where='Build: say what is there, item 3 ("each context file, in the order given") (hunt round 17, r88-03)',
          names='every file goes in, however many there are',
          replace=r'''              for where, body in context_files]''',
          by=r'''              for where, body in context_files[:1100]]'''),
    Wrong(lab='13.1', name='skills index capped at 1,100',
          rule='A line for each skill, in the order given, however many skills there are.',
          where='Build: say what is there, item 3 ("for each skill, in the order given") (hunt round 17, r88-04)',
          names='never sorted, capped or merged',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills[:1100]]))'''),
    Wrong(lab='13.1', name="a snippet's line breaks mended into spaces",
          rule="A snippet given with a line break in it goes in as it came: the caller's mistake, not the builder's to mend.",
          where='Build: say what is there, item 3 ("one given with a line break in it goes in as it came") (hunt round 17, r88-08)',
          names="not the builder's to mend",
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''    snippets = [f"- {t['name']}: {' '.join(t['snippet'].splitlines())}" for t in tools
                if t.get("snippet")]  # one line each, whatever the caller wrote'''),
    Wrong(lab='13.1', name="a skill description's line breaks mended into spaces",
          rule="Each skill's line holds its name, description and path as they came, a line break in the description included.",
          where='Build: say what is there, item 3 ("for each skill, in the order given") (hunt round 17, r88-09)',
          names='one with a line break as it came',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [f"- {k['name']}: {' '.join(k['description'].splitlines())} ({k['path']})"
             for k in skills]))  # one line each, whatever the caller wrote'''),
    Wrong(lab='13.1', name="a skill's description cut to 200 characters",
          rule="Each skill's line holds its description as it came, however long.",
          where='Build: say what is there, item 3 ("for each skill, in the order given") (hunt round 17, r88-42)',
          names='a description of hundreds of characters whole',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [f"- {k['name']}: {k['description'][:200]} ({k['path']})" for k in skills]))'''),
    Wrong(lab='13.1', name='the word today taken from the clock',
          rule='The date goes in as it was passed, a word such as "today" included; the builder never asks the clock.',
          where='Build: say what is there, item 3 ("with `today` and `cwd` as they were passed"); "The date and the folder" ("never asks the clock") (hunt round 17, r88-13)',
          names='never turns one into the clock',
          replace=r'''    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")''',
          by=r'''    if today == "today":  # the caller means the real date
        import datetime
        today = datetime.date.today().isoformat()
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")'''),
    Wrong(lab='13.1', name="cwd '.' taken from the process's folder",
          rule='The folder goes in as it was passed, "." included; the builder never puts in the folder the process runs in.',
          where='Build: say what is there, item 3 ("with `today` and `cwd` as they were passed") (hunt round 17, r88-43)',
          names='never turns one into the clock',
          replace=r'''    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")''',
          by=r'''    if cwd == ".":  # the caller means where we are
        import os
        cwd = os.getcwd()
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")'''),
    Wrong(lab='13.1', name='a guideline from an environment variable',
          rule='Equal arguments give identical text in every process: nothing of the environment goes in, whatever names it sets.',
          where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 17, r88-12)',
          names='any other name it is asked for set too',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''    import os
    if os.environ.get("HARNESS_EXTRA_GUIDELINE"):  # the operator's own advice, when set
        advice.append(os.environ["HARNESS_EXTRA_GUIDELINE"])
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]'''),
    Wrong(lab='13.1', name='the opening line counts the tools past twenty',
          rule='The opening line is the same words whatever the arguments, however many tools there are.',
          where='Build: say what is there, item 3 ("the same words whatever the arguments") (hunt round 17, r88-14)',
          names='however many tools there are',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''    parts = ["You are a coding assistant working in the user's project."]
    if len(tools) > 20:  # a long list deserves a word up front
        parts[0] += f" You have {len(tools)} tools."'''),
    Wrong(lab='13.1', name='another opening line past a hundred skills',
          rule='The opening line is the same words whatever the arguments, however many skills there are.',
          where='Build: say what is there, item 3 ("the same words whatever the arguments") (hunt round 17, r88-37)',
          names='however many skills there are',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''    parts = ["You are a coding assistant working in the user's project."]
    if len(skills) > 100:
        parts[0] += " Many skills are indexed below."'''),
    Wrong(lab='13.1', name='the opening line mentions bash when it is there',
          rule='The opening line is the same words whatever the arguments, whichever tools are there.',
          where='Build: say what is there, item 3 ("the same words whatever the arguments") (hunt round 17, r88-49)',
          names='whichever they are',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''    parts = ["You are a coding assistant working in the user's project."]
    if "bash" in [t["name"] for t in tools]:
        parts[0] += " You may run shell commands."'''),
    Wrong(lab='13.1', name='an opening tag in a context file escaped',
          rule="Each context file goes in with the text exactly as it came, a tag of the file's own included.",
          where='Build: say what is there, item 3 ("the text exactly as it came") (hunt round 17, r88-50)',
          names='a <project_instructions> tag',
          replace=r'''    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]''',
          by=r'''    parts += [f'<project_instructions path="{where}">\n'
              f'{body.replace("<project_instructions", "&lt;project_instructions")}\n'
              '</project_instructions>' for where, body in context_files]'''),
    Wrong(lab='13.1', name='write and bash given lines from a table when they have no snippet',
          rule='A line for each tool that has a snippet, from that snippet: a tool without one gets no line, whatever its name.',
          where='Build: say what is there, item 3 ("for each tool that has a snippet") (hunt round 17, r88-51)',
          names='keeps no table of lines of its own',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''    table = {"write": "Create or replace a file", "bash": "Run a shell command"}
    snippets = [f"- {t['name']}: {t.get('snippet') or table[t['name']]}" for t in tools
                if t.get("snippet") or t["name"] in table]'''),
    Wrong(lab='13.1', name='the prompt kept for the same paths past six context files',
          rule='Equal arguments give equal text whatever was built before: a context file edited since an earlier call goes in with its new text, however many files there are.',
          where='Build: say what is there, item 3 ("whatever was built before") (hunt round 17, r88-55)',
          names='edited since',
          replace=r'''def build_system_prompt(tools, context_files, skills, cwd, today):''',
          by=r'''_KEPT = {}  # prompts with many files, by what they were built from


def build_system_prompt(tools, context_files, skills, cwd, today):
    key = repr(([(t.get("name"), t.get("snippet"), t.get("guidelines")) for t in tools],
                [where for where, _ in context_files], skills, cwd, today))
    if len(context_files) > 6:  # many files: build once
        if key not in _KEPT:
            _KEPT[key] = _build_system_prompt(tools, context_files, skills, cwd, today)
        return _KEPT[key]
    return _build_system_prompt(tools, context_files, skills, cwd, today)


def _build_system_prompt(tools, context_files, skills, cwd, today):'''),
    # Hunt round 20 (reader r106)
    Wrong(lab='13.1', name="spaces and tabs cut from context files' line ends in the prompt",
          rule="Each context file goes in with its text exactly as it came, the spaces and tabs at its lines' ends included, whatever ends the line.",
          where='Build: say what is there, item 3 ("the text exactly as it came") (hunt round 20, r106-21)',
          names='a tab and a space',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    tidy = [(where, "\n".join(line.rstrip(" \t") for line in body.split("\n")))
            for where, body in context_files]  # no one means a space at a line's end
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in tidy]
'''),
    Wrong(lab='13.1', name="the prompt kept for the same context paths and lengths",
          rule='Equal arguments give equal text whatever was built before: a context file edited since an earlier call goes in with its new text, whatever its length.',
          where='Build: say what is there, item 3 ("whatever was built before") (hunt round 20, r106-31)',
          names='its length kept',
          replace=r'''def build_system_prompt(tools, context_files, skills, cwd, today):''',
          by=r'''_KEPT = {}  # prompts by what they were built from, each file by its path and length


def build_system_prompt(tools, context_files, skills, cwd, today):
    key = repr(([(t.get("name"), t.get("snippet"), t.get("guidelines")) for t in tools],
                [(where, len(body)) for where, body in context_files], skills, cwd, today))
    if key not in _KEPT:
        _KEPT[key] = _build_system_prompt(tools, context_files, skills, cwd, today)
    return _KEPT[key]


def _build_system_prompt(tools, context_files, skills, cwd, today):'''),
    Wrong(lab='13.1', name='a skill with an empty description left out of the index',
          rule='A line - NAME: DESCRIPTION (PATH) for each skill, in the order given: a skill whose description is empty is still a skill, and its line is "- NAME:  (PATH)".',
          where='Build: say what is there, item 3 ("for each skill, in the order given") (hunt round 20, probe r106-44)',
          names='an empty one still a line',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills
             if k["description"]]))  # nothing to say about it'''),
    Wrong(lab='13.1', name="the account's .agents/AGENTS.md put first by discover_context",
          rule="discover_context finds the AGENTS.md files of the workspace it is handed, with the workspace's own paths, and no file of the account's home.",
          where='Build: say what is there, item 2 ("The paths are the workspace\'s own") (hunt round 17, r88-11)',
          names="no file of the account's home",
          replace=r'''    steps = [step for step in cwd.split("/") if step not in ("", ".")]
    found = []''',
          by=r'''    steps = [step for step in cwd.split("/") if step not in ("", ".")]
    import os
    home = os.path.expanduser("~/.agents/AGENTS.md")  # the account's own standing rules
    found = []
    if os.path.isfile(home):
        with open(home, encoding="utf-8") as file:
            found.append((home, file.read()))'''),
    Wrong(lab='13.1', name='deep cwds remembered per workspace',
          rule='discover_context looks at the workspace each time it is asked, however deep cwd is: a file removed or written since an earlier call is seen.',
          where='Build: say what is there, item 2 ("each text exactly as the workspace holds it") (hunt round 17, r88-54)',
          names='never at what an earlier call found, however deep',
          replace=r'''    steps = [step for step in cwd.split("/") if step not in ("", ".")]
    found = []''',
          by=r'''    steps = [step for step in cwd.split("/") if step not in ("", ".")]
    key = (id(ws), tuple(steps))
    if len(steps) > 10 and key in _DEEP:  # a long walk is worth remembering
        return list(_DEEP[key])
    found = []''',
          also=((r'''def discover_context(ws, cwd):''',
                 r'''_DEEP = {}  # (workspace, folders) -> what a deep walk found


def discover_context(ws, cwd):'''),
                (r'''            found.append((name, ws.read_text(name)))
    return found''',
                 r'''            found.append((name, ws.read_text(name)))
    if len(steps) > 10:
        _DEEP[key] = list(found)
    return found'''))),
    # Hunt round 23 (reader r125): rules kept only on the inputs the tests used, and the
    # clock, disk, environment and machine reached through doors the tests did not watch
    Wrong(lab='13.1', name="a skill's description cut to 5,000 characters",
          rule='A line - NAME: DESCRIPTION (PATH) for each skill, its description as it came, however long.',
          where='Build: say what is there, item 3 ("for each skill, in the order given") (hunt round 23, r125-06)',
          names='description as it came, however long',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [f"- {k['name']}: {k['description'][:5000]} ({k['path']})" for k in skills]))'''),
    Wrong(lab='13.1', name='the word tomorrow taken from the clock',
          rule='Last, the date and the folder with today and cwd as they were passed: a word such as tomorrow goes in as a word, never the clock\'s date.',
          where='Build: say what is there, item 3 ("with `today` and `cwd` as they were passed") (hunt round 23, r125-08)',
          names="never turns one into the clock's date",
          replace=r'''
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
''',
          by=r'''
    if today == "tomorrow":  # the caller means a day: work it out
        import datetime
        today = (datetime.date.today() + datetime.timedelta(days=1)).isoformat()
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
'''),
    Wrong(lab='13.1', name='a cwd under $HOME expanded',
          rule='Last, the date and the folder with today and cwd as they were passed: a folder spelled with $HOME goes in as spelled, never expanded from the environment.',
          where='Build: say what is there, item 3 ("with `today` and `cwd` as they were passed") (hunt round 23, r125-17)',
          names='never expands a name in it',
          replace=r'''
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
''',
          by=r'''
    if isinstance(cwd, str) and cwd.startswith("$HOME"):  # the model cannot read $HOME
        import os
        cwd = os.path.expandvars(cwd)
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
'''),
    Wrong(lab='13.1', name="an AGENTS.local.md read from cwd on the real disk",
          rule='The builder reads no disk: the context files are its argument, found by discover_context in the workspace it is handed.',
          where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 23, r125-09)',
          names='AGENTS.local.md',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''    parts = ["You are a coding assistant working in the user's project."]
    import os
    local = os.path.join(str(cwd), "AGENTS.local.md")  # the user's own, never committed
    if os.path.isfile(local):
        with open(local, encoding="utf-8") as file:
            parts.append(file.read())'''),
    Wrong(lab='13.1', name="the host from platform in the opening line",
          rule='Equal arguments must give identical text in every process: nothing of the machine goes in, however it is asked for.',
          where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 23, r125-11)',
          names='socket and platform give it',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''    import platform
    parts = [f"You are a coding assistant working on {platform.node()}."]'''),
    Wrong(lab='13.1', name='the Python version in the opening line',
          rule='Equal arguments must give identical text in every process: nothing of the machine goes in, the Python that runs the harness included.',
          where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 23, r125-12)',
          names='nothing of the machine',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''    import sys
    parts = [f"You are a coding assistant running on Python {sys.version.split()[0]}."]'''),
    Wrong(lab='13.1', name="the caller's guideline lists replaced by equal copies",
          rule='The builder writes nothing into the caller\'s tools: each tool keeps its own guidelines list, not an equal copy put in its place.',
          where='Build: say what is there, item 3 ("whatever was built before") (hunt round 23, r125-14)',
          names='not equal copies',
          replace=r'''    for tool in tools:
        for line in tool.get("guidelines", ()):''',
          by=r'''    for tool in tools:
        if "guidelines" in tool:  # a list of its own, in case the caller shares one
            tool["guidelines"] = list(tool["guidelines"])
        for line in tool.get("guidelines", ()):'''),
    Wrong(lab='13.1', name='a tool dict given twice listed once',
          rule='A line - NAME: SNIPPET for each tool that has a snippet, in the order of tools: a tool given twice, the same dict, gets a line each time.',
          where='Build: say what is there, item 3 ("for each tool that has a snippet") (hunt round 23, r125-15)',
          names='the same dict, gets a line for each time',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''    seen, snippets = set(), []
    for t in tools:  # the same tool twice is one tool
        if t.get("snippet") and id(t) not in seen:
            snippets.append(f"- {t['name']}: {t['snippet']}")
        seen.add(id(t))'''),
    Wrong(lab='13.1', name='a skills index for a tool named open',
          rule='The skills index only when there are skills and a tool named exactly read: a tool named open, view or load is not read.',
          where='Build: say what is there, item 3 ("only when there are skills and a tool named exactly `read`") (hunt round 23, r125-16)',
          names='named exactly read',
          replace=r'''    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file''',
          by=r'''    if skills and {"read", "open"} & {t["name"] for t in tools}:  # either opens a file'''),
    Wrong(lab='13.1', name='backslashes in context paths turned to slashes',
          rule='Each context file in its tag with its path exactly as it came: a backslash in it stays.',
          where='Build: say what is there, item 3 ("the text exactly as it came") (hunt round 23, r125-18)',
          names='quotes and a backslash',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    parts += [f'<project_instructions path="{where.replace(chr(92), "/")}">\n{body}\n'
              '</project_instructions>' for where, body in context_files]
'''),
    Wrong(lab='13.1', name='a byte-order mark dropped from context files in the prompt',
          rule='Each context file with its text exactly as it came: a byte-order mark opening it stays.',
          where='Build: say what is there, item 3 ("the text exactly as it came") (hunt round 23, r125-19)',
          names='byte-order mark, which stays',
          replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
          by=r'''
    parts += [f'<project_instructions path="{where}">\n{body.removeprefix(chr(0xfeff))}\n'
              '</project_instructions>' for where, body in context_files]
'''),
    Wrong(lab='13.1', name="a .agents/AGENTS.md beside each folder found by discover_context",
          rule='One pair for each AGENTS.md on the way from the root down to cwd: a .agents folder is beside the way, not on it.',
          where='Build: say what is there, item 2 ("files beside the way or below `cwd` are not on it") (hunt round 23, r125-20)',
          names='in a folder beside the way, not on it',
          replace=r'''        if ws.exists(name):
            found.append((name, ws.read_text(name)))''',
          by=r'''        if ws.exists(name):
            found.append((name, ws.read_text(name)))
        hidden = "".join(step + "/" for step in steps[:depth]) + ".agents/AGENTS.md"
        if ws.exists(hidden):  # where some agents keep theirs
            found.append((hidden, ws.read_text(hidden)))'''),
    Wrong(lab='13.1', name="a snippet's final line break dropped",
          rule='A snippet goes in as it came: one ending in a line break, the caller\'s mistake, is not the builder\'s to mend.',
          where='Build: say what is there, item 3 ("one given with a line break in it goes in as it came") (hunt round 23, r125-21)',
          names='or ending in one, goes in as it came',
          replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
          by=r'''    snippets = [f"- {t['name']}: {t['snippet'].rstrip(chr(10))}" for t in tools
                if t.get("snippet")]'''),
    Wrong(lab='13.1', name="a guideline equal to its tool's snippet left out",
          rule='A line - GUIDELINE for each guideline of the tools, each sentence once: one that says what its tool\'s snippet says is still a guideline.',
          where='Build: say what is there, item 3 ("for each guideline of the tools") (hunt round 23, r125-24)',
          names='whatever the snippet says',
          replace=r'''            if line not in advice:  # first seen, first listed: a list keeps order, a set not''',
          by=r'''            if line not in advice and line != tool.get("snippet"):  # said once is enough'''),
    Wrong(lab='13.1', name='guidelines over 500 characters left out',
          rule='A line - GUIDELINE for each guideline of the tools, however long.',
          where='Build: say what is there, item 3 ("for each guideline of the tools") (hunt round 23, r125-25)',
          names='different guidelines, however long',
          replace=r'''            if line not in advice:  # first seen, first listed: a list keeps order, a set not''',
          by=r'''            if line not in advice and len(line) <= 500:  # advice, not an essay'''),
    # Hunt round 23 (reader r125), probe 23, ruled a break of Build item 1 by the page's new words.
    Wrong(lab='13.1', name="bash's parameters one dict shared by every bash tool",
          rule='Each call of a factory returns a new dict, with lists and dicts of its own, its parameters included.',
          where='Build: say what is there, item 1 ("with lists and dicts of its own, its `parameters` included") (hunt round 23, r125-23)',
          names='lists and dicts of its own',
          replace=r'''        "parameters": {
            "type": "object",
            "properties": {"command": {"type": "string", "description": "What to run."}},
            "required": ["command"],
        },
''',
          by=r'''        "parameters": BASH_PARAMETERS,  # one schema, made once
''',
          also=((r'''
def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
''', r'''
BASH_PARAMETERS = {"type": "object",
                   "properties": {"command": {"type": "string", "description": "What to run."}},
                   "required": ["command"]}


def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
'''),)),
    # Hunt round 24 (reader r132): a rule kept only up to, or only outside, the sizes tried
    Wrong(lab='13.1', name="a guideline's repeat looked for among the last 600 kept",
          rule='A line - GUIDELINE for each guideline of the tools, each sentence once, however far apart its two sayings stand.',
          where='Build: say what is there, item 3 ("for each guideline of the tools") (hunt round 24, r132-43)',
          names='however far apart',
          replace=r'''            if line not in advice:  # first seen, first listed: a list keeps order, a set not''',
          by=r'''            if line not in advice[-600:]:  # a repeat is said soon after, if at all'''),
    Wrong(lab='13.1', name='another opening line for 6 to 1,000 context files',
          rule='The opening line is the same words whatever the arguments: what changes goes in the sections below it.',
          where='Build: say what is there, item 3 (the opening line) (hunt round 24, r132-52)',
          names='however many context files there are',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''    parts = ["You are a coding assistant working in the user's project." +
             (" Mind the project's rules." if 5 < len(context_files) < 1001 else "")]'''),
    Wrong(lab='13.1', name='skill lines kept by name past a thousand skills',
          rule='A line - NAME: DESCRIPTION (PATH) for each skill as it is now: equal arguments give equal text whatever was built before, and none is kept from an earlier call.',
          where='Build: say what is there, item 3 ("whatever was built before") (hunt round 24, r132-37)',
          names='none kept from an earlier call',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [_SKILL_LINES.setdefault(k["name"], f"- {k['name']}: {k['description']} ({k['path']})")
             if len(skills) > 1000 else f"- {k['name']}: {k['description']} ({k['path']})"
             for k in skills]))''',
          also=((r'''def build_system_prompt(tools, context_files, skills, cwd, today):''',
                 r'''_SKILL_LINES = {}  # a long index's lines, kept by skill name


def build_system_prompt(tools, context_files, skills, cwd, today):'''),)),
    # Hunt round 28 (reader r152): rules kept only where the tests looked
    Wrong(lab='13.1', name='the account\'s folder in the opening line when cwd is under /home',
          rule='The opening line is the same words whatever the arguments: what changes goes in the sections below it.',
          where='Build: say what is there, item 3 (the opening line) (hunt round 28, r152-17)',
          names='one opening line',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''    parts = ["You are a coding assistant working in the user's project." +
             (f" Your home is {cwd}." if str(cwd).startswith("/home/") else "")]'''),
    Wrong(lab='13.1', name='read looked for among the first ten tools',
          rule='A skills index only when there are skills and a tool named exactly read, wherever read stands in the list.',
          where='Build: say what is there, item 3 ("a tool named exactly `read`") (hunt round 28, r152-19)',
          names='wherever read stands',
          replace=r'''    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file''',
          by=r'''    if skills and "read" in [t["name"] for t in tools[:10]]:  # read is what loads a skill's file'''),
    Wrong(lab='13.1', name='a skills index for a tool with read\'s description',
          rule='A skills index only when there are skills and a tool named exactly read: the name counts, not the description.',
          where='Build: say what is there, item 3 ("a tool named exactly `read`") (hunt round 28, r152-23)',
          names='a tool named read',
          replace=r'''    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file''',
          by=r'''    if skills and any(t["name"] == "read" or str(t.get("description", "")).startswith(
            "Return the text of a file") for t in tools):  # a tool that reads, by any name'''),
    Wrong(lab='13.1', name='guidelines the same when their NFKC forms are',
          rule='Each guideline once, and only the same characters make the same guideline.',
          where='Build: say what is there, item 3 ("each sentence once") (hunt round 28, r152-20)',
          names='only the same characters',
          replace=r'''
    advice = []
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
                advice.append(line)
''',
          by=r'''
    import unicodedata
    advice, seen = [], []
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if unicodedata.normalize("NFKC", line) not in seen:  # one form for each sentence
                seen.append(unicodedata.normalize("NFKC", line))
                advice.append(line)
'''),
    Wrong(lab='13.1', name='context files NFC-normalised in the prompt',
          rule='Each context file goes in with the text exactly as it came.',
          where='Build: say what is there, item 3 ("the text exactly as it came") (hunt round 28, r152-21)',
          names='word for word',
          replace=r'''              for where, body in context_files]''',
          by=r'''              for where, body in ((w, unicodedata.normalize("NFC", b))
                                  for w, b in context_files)]''',
          also=((r'''def build_system_prompt(tools, context_files, skills, cwd, today):''',
                 r'''import unicodedata


def build_system_prompt(tools, context_files, skills, cwd, today):'''),)),
    Wrong(lab='13.1', name='the platform in the opening line',
          rule='Equal arguments must give identical text in every process: nothing of the machine goes in.',
          where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 28, r152-22)',
          names='the same text every time',
          replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
          by=r'''    parts = ["You are a coding assistant working in the user's project, on "
             f"{_sys.platform}."]''',
          also=((r'''def build_system_prompt(tools, context_files, skills, cwd, today):''',
                 r'''import sys as _sys


def build_system_prompt(tools, context_files, skills, cwd, today):'''),)),
    Wrong(lab='13.1', name="a guideline's repeat looked for among the last 1,000 kept",
          rule='A line - GUIDELINE for each guideline of the tools, each sentence once, however far apart its two sayings stand.',
          where='Build: say what is there, item 3 ("for each guideline of the tools") (hunt round 28, r152-42)',
          names='however far apart',
          replace=r'''            if line not in advice:  # first seen, first listed: a list keeps order, a set not''',
          by=r'''            if line not in advice[-1000:]:  # a repeat is said soon after, if at all'''),
    # Kill round 34 (reader r189): values cut, tidied or normalised past the sizes and the
    # characters the tests had drawn; test_every_value_goes_in_as_it_came and both of rule 3's
    # bank scenarios draw each long and full of the characters a tidy-up takes
    Wrong(lab='13.1', name="guidelines cut to 500,000 characters",
          rule='A line - GUIDELINE for each guideline of the tools, as it came, however long.',
          where='Build: say what is there, item 3 ("for each guideline of the tools") (kill round 34, r189-06)',
          names='every value goes in as it came',
          replace=r"""
                advice.append(line)
""",
          by=r"""
                advice.append(line[:500_000])
"""),
    Wrong(lab='13.1', name="guidelines over a million characters left out",
          rule='A line - GUIDELINE for each guideline of the tools, as it came, however long: none is too long to list.',
          where='Build: say what is there, item 3 ("for each guideline of the tools") (kill round 34, r189-27)',
          names='every value goes in as it came',
          replace=r"""
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
""",
          by=r"""
            if line not in advice and len(line) <= 1_000_000:  # longer is no guideline
"""),
    Wrong(lab='13.1', name="a skill's description cut to a million characters",
          rule='A line - NAME: DESCRIPTION (PATH) for each skill, its description as it came, however long.',
          where='Build: say what is there, item 3 ("for each skill, in the order given") (kill round 34, r189-07)',
          names='every value goes in as it came',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [f"- {k['name']}: {k['description'][:1_000_000]} ({k['path']})" for k in skills]))'''),
    Wrong(lab='13.1', name="a skill's name and path cut to 100 characters",
          rule='A line - NAME: DESCRIPTION (PATH) for each skill, its name and path as they came, however long.',
          where='Build: say what is there, item 3 ("for each skill, in the order given") (kill round 34, r189-11)',
          names='every value goes in as it came',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [f"- {k['name'][:100]}: {k['description']} ({k['path'][:100]})" for k in skills]))'''),
    Wrong(lab='13.1', name="tabs in a skill's description turned to spaces",
          rule='A line - NAME: DESCRIPTION (PATH) for each skill, its description as it came, tabs and all.',
          where='Build: say what is there, item 3 ("for each skill, in the order given") (kill round 34, r189-31)',
          names='every value goes in as it came',
          replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
          by=r'''            [f"- {k['name']}: {k['description'].replace(chr(9), ' ')} ({k['path']})"
             for k in skills]))'''),
    Wrong(lab='13.1', name="a snippet cut to 120 characters",
          rule='A line - NAME: SNIPPET for each tool that has a snippet, which its line carries as it came, however long.',
          where='Build: say what is there, item 3 ("its line carries it as it came") (kill round 34, r189-10)',
          names='every value goes in as it came',
          replace=r"""    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]""",
          by=r"""    snippets = [f"- {t['name']}: {t['snippet'][:120]}" for t in tools if t.get("snippet")]"""),
    Wrong(lab='13.1', name="carriage returns dropped from a snippet",
          rule='A line - NAME: SNIPPET for each tool that has a snippet, which its line carries as it came: the caller\'s mistake, not the builder\'s to mend.',
          where='Build: say what is there, item 3 ("its line carries it as it came") (kill round 34, r189-28)',
          names='every value goes in as it came',
          replace=r"""    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]""",
          by=r"""    snippets = [f"- {t['name']}: {t['snippet'].replace(chr(13), '')}" for t in tools
                if t.get("snippet")]"""),
    Wrong(lab='13.1', name="context paths cut to 255 characters in the tag",
          rule='Each context file as its own section: the tag <project_instructions path="PATH"> with the path as it came, however long.',
          where='Build: say what is there, item 3 ("the text exactly as it came") (kill round 34, r189-12)',
          names='every value goes in as it came',
          replace=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
""",
          by=r"""
    parts += [f'<project_instructions path="{where[:255]}">\n{body}\n</project_instructions>'
              for where, body in context_files]
"""),
    Wrong(lab='13.1', name="NULs dropped from context files in the prompt",
          rule='Each context file goes in with the text exactly as it came, whatever characters it holds.',
          where='Build: say what is there, item 3 ("the text exactly as it came") (kill round 34, r189-29)',
          names='every value goes in as it came',
          replace=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
""",
          by=r"""
    parts += [f'<project_instructions path="{where}">\n{body.replace(chr(0), "")}\n'
              '</project_instructions>' for where, body in context_files]
"""),
    Wrong(lab='13.1', name="cwd cut to 4,096 characters",
          rule='Last, the date and the folder with today and cwd as they were passed, however long.',
          where='Build: say what is there, item 3 ("with `today` and `cwd` as they were passed") (kill round 34, r189-13)',
          names='every value goes in as it came',
          replace=r"""
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
""",
          by=r"""
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd[:4096]}")
"""),
    Wrong(lab='13.1', name="today cut to 32 characters",
          rule='Last, the date and the folder with today and cwd as they were passed, however long.',
          where='Build: say what is there, item 3 ("with `today` and `cwd` as they were passed") (kill round 34, r189-14)',
          names='every value goes in as it came',
          replace=r"""
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
""",
          by=r"""
    parts.append(f"Current date: {str(today)[:32]}\nCurrent working directory: {cwd}")
"""),
    Wrong(lab='13.1', name="no-break spaces stripped from today's ends",
          rule='Last, the date and the folder with today and cwd as they were passed, whatever spaces they hold.',
          where='Build: say what is there, item 3 ("with `today` and `cwd` as they were passed") (kill round 34, r189-33)',
          names='every value goes in as it came',
          replace=r"""
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
""",
          by=r"""
    parts.append(f"Current date: {str(today).strip(chr(0xa0))}\nCurrent working directory: {cwd}")
"""),
    Wrong(lab='13.1', name="guidelines the same when their NFC forms are",
          rule='Each guideline once, and only the same characters make the same guideline: an accent spelled as one character and as a letter and a combining mark are two.',
          where='Build: say what is there, item 3 ("each sentence once") (kill round 34, r189-22)',
          names='only the same characters make the same guideline',
          replace=r"""
    advice = []
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
                advice.append(line)
""",
          by=r"""
    import unicodedata
    advice, seen = [], set()
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if unicodedata.normalize("NFC", line) not in seen:  # one spelling per sentence
                seen.add(unicodedata.normalize("NFC", line))
                advice.append(line)
"""),
    Wrong(lab='13.1', name="tabs in guidelines expanded to spaces",
          rule='A line - GUIDELINE for each guideline of the tools, as it came, tabs and all: only the same characters make the same guideline.',
          where='Build: say what is there, item 3 ("for each guideline of the tools") (kill round 34, r189-30)',
          names='every value goes in as it came',
          replace=r"""
        for line in tool.get("guidelines", ()):
""",
          by=r"""
        for line in (line.expandtabs(4) for line in tool.get("guidelines", ())):
"""),
    # Kill round 34 (reader r189): caps past the lengths and counts the tests had drawn; the
    # long context file and AGENTS.md are now drawn at 10.5 to 12 million characters, and one
    # tool's guidelines at 2,001 to 8,000, the new ones after a sentence said again and again
    Wrong(lab='13.1', name="context files cut to 5,000,000 characters in the prompt",
          rule='Each context file goes in with the text exactly as it came, however long.',
          where='Build: say what is there, item 3 ("the text exactly as it came") (kill round 34, r189-05)',
          names='every value goes in as it came',
          replace=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
""",
          by=r"""
    parts += [f'<project_instructions path="{where}">\n{body[:5_000_000]}\n'
              '</project_instructions>' for where, body in context_files]
"""),
    Wrong(lab='13.1', name="context files over ten million characters left out of the prompt",
          rule='Each context file, in the order given, as its own section, with the text exactly as it came, however long: none is too long to go in.',
          where='Build: say what is there, item 3 ("the text exactly as it came") (kill round 34, r189-26)',
          names='every value goes in as it came',
          replace=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
""",
          by=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files if len(body) <= 10_000_000]
"""),
    Wrong(lab='13.1', name="AGENTS.md texts cut to 5,000,000 characters by discover_context",
          rule='Each text exactly as the workspace holds it, however long.',
          where='Build: say what is there, item 2 ("each text exactly as the workspace holds it") (kill round 34, r189-09)',
          names='nor on a text',
          replace=r"""
            found.append((name, ws.read_text(name)))
""",
          by=r"""
            found.append((name, ws.read_text(name)[:5_000_000]))
"""),
    Wrong(lab='13.1', name="an AGENTS.md over ten million characters passed over by discover_context",
          rule='One pair for each AGENTS.md on the way, each text exactly as the workspace holds it, however long: none is too long to be found.',
          where='Build: say what is there, item 2 ("each text exactly as the workspace holds it") (kill round 34, r189-25)',
          names='nor on a text',
          replace=r"""
            found.append((name, ws.read_text(name)))
""",
          by=r"""
            text = ws.read_text(name)
            if len(text) <= 10_000_000:  # a runaway file is no instructions
                found.append((name, text))
"""),
    Wrong(lab='13.1', name="only a tool's first 1,500 guidelines read",
          rule='A line for each guideline of the tools, however many one tool has and however far down its list.',
          where='Build: say what is there, item 3 ("for each guideline of the tools") (kill round 34, r189-24)',
          names='however far down its list',
          replace=r"""
        for line in tool.get("guidelines", ()):
""",
          by=r"""
        for line in list(tool.get("guidelines", ()))[:1500]:
"""),
    # Kill round 34 (reader r189), probes P5 and P7, which lesson 13 now rules out: a part of
    # cwd names a folder exactly as spelled, and the builder changes none of its arguments
    Wrong(lab='13.1', name="spaces at the ends of cwd's parts dropped by discover_context",
          rule="An empty part of cwd or a . names no folder, and every other part names a folder exactly as it is spelled, a space at either end included.",
          where='Build: say what is there, item 2 ("every other part names a folder exactly as it is spelled, a space at either end included") (kill round 34, probe r189-P5)',
          names='exactly as it is spelled',
          replace=r"""    steps = [step for step in cwd.split("/") if step not in ("", ".")]""",
          by=r"""    steps = [step.strip() for step in cwd.split("/") if step.strip() not in ("", ".")]"""),
    Wrong(lab='13.1', name="a tool with no guidelines given a list of them while the builder runs",
          rule="The builder reads its arguments and changes none of them, not even for a moment while it runs: a key written into a caller's tool and taken back before returning is still a change.",
          where='Build: say what is there, item 3 ("It reads its arguments and changes none of them, not even for a moment while it runs.") (kill round 34, probe r189-P7)',
          names='changes none of them',
          replace=r"""
    advice = []
    for tool in tools:
        for line in tool.get("guidelines", ()):
""",
          by=r"""
    added = [tool for tool in tools if "guidelines" not in tool]
    for tool in added:  # every tool a list for the loop below, taken back after it
        tool["guidelines"] = []
    advice = []
    for tool in tools:
        for line in tool["guidelines"]:
""",
          also=((r"""    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]""",
                 r"""    for tool in added:
        tool.pop("guidelines", None)
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]"""),)),
    # Hunt round 40 (reader r204): caps, sorts and switches past every count drawn until now,
    # caught by a crowd of 12,001 to 14,000 tools, context files and skills in one prompt
    Wrong(lab='13.1', name='tool lines capped at 10,000',
          rule='A line for each tool that has a snippet, in the order of tools, however many tools there are.',
          where='Build: say what is there, item 3 ("for each tool that has a snippet") (hunt round 40, r204-62)',
          names='never capped',
          replace=r"""    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]""",
          by=r"""    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")][:10000]"""),
    Wrong(lab='13.1', name='tool lines ordered by hash() past 8,000',
          rule='A line for each tool that has a snippet, in the order of tools; equal arguments give identical text in every process.',
          where='Build: say what is there, item 3 ("in the order of `tools`", "Equal arguments must give identical text in every process") (hunt round 40, r204-63)',
          names='in the order of tools',
          replace=r"""    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]""",
          by=r"""    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]
    if len(snippets) > 8000:  # a long list in a stable order of its own
        snippets.sort(key=hash)"""),
    Wrong(lab='13.1', name='another opening line past 9,000 tools',
          rule='The opening line is the same words whatever the arguments: what changes goes in the sections below it.',
          where='Build: say what is there, item 3 ("the same words whatever the arguments") (hunt round 40, r204-74)',
          names='the same words whatever the arguments',
          replace=r"""    parts = ["You are a coding assistant working in the user's project."]""",
          by=r"""    parts = ["You are a coding assistant working in the user's project." +
             (" Many tools are at hand." if len(tools) > 9000 else "")]"""),
    Wrong(lab='13.1', name='context files sorted by path past 9,000',
          rule='Each context file, in the order given, as its own section, however many there are.',
          where='Build: say what is there, item 3 ("each context file, in the order given") (hunt round 40, r204-43)',
          names='in the order given',
          replace=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
""",
          by=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in (sorted(context_files) if len(context_files) >= 9000
                                  else context_files)]
"""),
    Wrong(lab='13.1', name='skill lines sorted by name past 8,000',
          rule='A line - NAME: DESCRIPTION (PATH) for each skill, in the order given, however many there are.',
          where='Build: say what is there, item 3 ("for each skill, in the order given") (hunt round 40, r204-51)',
          names='in the order given',
          replace=r"""            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))""",
          by=r"""            [f"- {k['name']}: {k['description']} ({k['path']})" for k in (
                sorted(skills, key=lambda k: k["name"]) if len(skills) > 8000 else skills)]))"""),
    # Hunt round 40 (reader r204): values tidied where the tests' lists of characters did not reach
    Wrong(lab='13.1', name='lone surrogates in context files replaced in the prompt',
          rule='Each context file goes in with the text exactly as it came, whatever characters it holds.',
          where='Build: say what is there, item 3 ("the text exactly as it came") (hunt round 40, r204-42)',
          names='as it came',
          replace=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
""",
          by=r"""
    parts += [f'<project_instructions path="{where}">\n'
              f'{body.encode("utf-8", "replace").decode("utf-8")}\n</project_instructions>'
              for where, body in context_files]
"""),
    Wrong(lab='13.1', name="a guideline's line breaks mended into spaces",
          rule='A line - GUIDELINE for each guideline of the tools: every value goes in as it came, a guideline given with a line break included.',
          where='Build: say what is there, item 3 ("a line `- GUIDELINE` for each guideline of the tools"), and the tests in plain words, where every value goes in as it came, a guideline among them (hunt round 40, r204-83)',
          names='as it came',
          replace=r"""        parts.append("\n".join(["Guidelines:", *(f"- {line}" for line in advice)]))""",
          by=r"""        parts.append("\n".join(["Guidelines:", *(f"- {' '.join(line.splitlines())}"
                                                 for line in advice)]))"""),
    Wrong(lab='13.1', name="cwd's parts NFC-normalised by discover_context",
          rule="An empty part of cwd or a . names no folder, and every other part names a folder exactly as it is spelled.",
          where='Build: say what is there, item 2 ("every other part names a folder exactly as it is spelled") (hunt round 40, r204-13)',
          names='exactly as it is spelled',
          replace=r"""    steps = [step for step in cwd.split("/") if step not in ("", ".")]""",
          by=r"""    import unicodedata
    steps = [unicodedata.normalize("NFC", step) for step in cwd.split("/") if step not in ("", ".")]"""),
    Wrong(lab='13.1', name="a part of cwd of dots only taken for no folder by discover_context",
          rule="An empty part of cwd or a . names no folder, and every other part names a folder exactly as it is spelled.",
          where='Build: say what is there, item 2 ("an empty part or a `.` names no folder, and every other part names a folder exactly as it is spelled") (hunt round 40, r204-26)',
          names='exactly as it is spelled',
          replace=r"""    steps = [step for step in cwd.split("/") if step not in ("", ".")]""",
          by=r"""    steps = [step for step in cwd.split("/") if step.strip(".") != ""]"""),
    Wrong(lab='13.1', name="bash's snippet its name and the word tool",
          rule="Each tool's snippet is one line on what the tool is for, not its description, and more than its name.",
          where='Build: say what is there, item 1 ("`snippet`, one line on what the tool is for, not its description, and more than its name") (hunt round 40, r204-09)',
          names='more than its name',
          replace=r"""        "snippet": "Run a shell command",""",
          by=r"""        "snippet": "bash tool","""),
    # Hunt round 40 (reader r204): weak duplicate checks, and changes the watchers did not see
    Wrong(lab='13.1', name='guidelines kept once by their CRC-32',
          rule='A line for each guideline of the tools, each sentence once: only the same characters make the same guideline.',
          where='Build: say what is there, item 3 ("each sentence once, in the order it is first met") (hunt round 40, r204-73)',
          names='only the same',
          replace=r"""
    advice = []
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
                advice.append(line)
""",
          by=r"""
    import zlib
    advice, sums = [], set()
    for tool in tools:
        for line in tool.get("guidelines", ()):
            key = zlib.crc32(line.encode("utf-8", "surrogatepass"))
            if key not in sums:  # a checksum for speed
                sums.add(key)
                advice.append(line)
"""),
    Wrong(lab='13.1', name='the context files list reversed and reversed back while the builder runs',
          rule="The builder reads its arguments and changes none of them, not even for a moment while it runs.",
          where='Build: say what is there, item 3 ("It reads its arguments and changes none of them, not even for a moment while it runs.") (hunt round 40, r204-57 and r204-98)',
          names='changes none of them',
          replace=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
""",
          by=r"""
    context_files.reverse()  # nearest first, to look at them ...
    nearest = list(context_files)
    context_files.reverse()  # ... and back as they came
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in reversed(nearest)]
"""),
    Wrong(lab='13.1', name='a snippet given to each tool without one through dict.__setitem__, taken back after',
          rule="The builder reads its arguments and changes none of them, not even for a moment while it runs.",
          where='Build: say what is there, item 3 ("It reads its arguments and changes none of them, not even for a moment while it runs.") (hunt round 40, r204-68)',
          names='writes nothing into the caller',
          replace=r"""    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]""",
          by=r"""    for tool in tools:
        if "snippet" not in tool:
            dict.__setitem__(tool, "snippet", "")
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t["snippet"]]
    for tool in tools:
        if tool.get("snippet") == "":
            dict.__delitem__(tool, "snippet")"""),
    Wrong(lab='13.1', name="a small AGENTS.md read from the process's folder when no context file is given",
          rule="The builder reads nothing by itself: everything the prompt says comes in through its arguments.",
          where='The tool lines ("The builder reads nothing by itself: everything the prompt says comes in through its arguments"), and Figure 13.1 ("The builder never reads the clock or the disk") (hunt round 40, r204-93)',
          names='reads no disk',
          replace=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
""",
          by=r"""
    import os
    if not context_files and os.path.isfile("AGENTS.md") and os.path.getsize("AGENTS.md") < 100:
        with open("AGENTS.md", encoding="utf-8") as file:
            context_files = [("AGENTS.md", file.read())]
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
"""),
]

# Designs the lesson allows: each keeps its lab's rules another way, and its lab's tests must
# pass it (tests/authoring/test_allowed_designs.py).
ALLOWED = [
    # Hunt round 40 (reader r204), probe P5, ruled at the merge
    Wrong(
        lab="13.1", name="a tool without a name taken for one not named read",
        rule="Build item 3 says \"every tool has a `name`; what the builder makes of any other "
             "value there, or of a tool without a name, is yours\": looking the name up with "
             ".get, so that a nameless tool is no read tool, is one such choice (hunt round 40, "
             "probe r204-P5).",
        where="hunt round 40, probe r204-P5", names="",
        replace='''    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file
''',
        by='''    if skills and "read" in [t.get("name") for t in tools]:  # read is what loads a skill's file
'''),
    # Hunt round 40 (reader r204), probes 58 and 59: a value written back as it was
    Wrong(
        lab="13.1", name="each skill's name written back as it was while the builder runs",
        rule="Build item 3 says the builder \"reads its arguments and changes none of them, not "
             "even for a moment while it runs\". Writing a skill's own name back into its key, "
             "the very same object, leaves the dict as it was at every moment: no key, value or "
             "order differs, before, during or after, so nothing of the caller's is changed "
             "(hunt round 40, probe r204-58).",
        where="hunt round 40, probe r204-58", names="",
        replace='''    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file
''',
        by='''    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file
        for skill in skills:
            skill["name"] = skill["name"]  # the same object, written back
'''),
    Wrong(
        lab="13.1", name="the tools list given its own items again while the builder runs",
        rule="Build item 3 says the builder \"reads its arguments and changes none of them, not "
             "even for a moment while it runs\". tools[:] = tools puts the same items back in "
             "the same order: the list holds the same objects at every moment, so nothing of "
             "the caller's is changed (hunt round 40, probe r204-59).",
        where="hunt round 40, probe r204-59", names="",
        replace='''    advice = []
''',
        by='''    tools[:] = tools  # the same items, in the same order
    advice = []
'''),
    # Kill round 34 (reader r189): design 32 and probes P2 and P8, which lesson 13 now leaves
    # to the student
    Wrong(
        lab="13.1", name="None for today or cwd written as unknown",
        rule="Build item 3: \"`today` and `cwd` are strings and `guidelines` a list; what the "
             "builder makes of any other value there is yours.\" A None written as a word of the "
             "builder's own keeps every rule the page states for strings, and reads neither the "
             "clock nor the process, which the catalogue's \"None for today or cwd taken from "
             "the clock and the process\" does (kill round 34, r189-32).",
        where="kill round 34, r189-32", names="",
        replace=r"""    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")""",
        by=r"""    today = "unknown" if today is None else today
    cwd = "unknown" if cwd is None else cwd
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")"""),
    Wrong(
        lab="13.1", name="guidelines given as one string taken as one guideline",
        rule="Build item 3: \"`today` and `cwd` are strings and `guidelines` a list; what the "
             "builder makes of any other value there is yours.\" Taking a string of guidelines "
             "as one guideline, rather than a character at a time, gives every list the "
             "reference's lines (kill round 34, probe r189-P2).",
        where="kill round 34, probe r189-P2", names="",
        replace=r"""        for line in tool.get("guidelines", ()):""",
        by=r"""        listed = tool.get("guidelines") or ()
        for line in ([listed] if isinstance(listed, str) else listed):"""),
    Wrong(
        lab="13.1", name="a folder named AGENTS.md passed over by discover_context",
        rule="Build item 2: \"A folder that happens to be named `AGENTS.md` is no file: whether "
             "the walk passes it over or lets the read's error out is yours.\" Asking the "
             "workspace isdir before reading passes such a folder over; a file the workspace "
             "has but cannot read still raises what read_text raised (kill round 34, probe "
             "r189-P8).",
        where="kill round 34, probe r189-P8", names="",
        replace=r"""        if ws.exists(name):
            found.append((name, ws.read_text(name)))""",
        by=r"""        if ws.exists(name) and not ws.isdir(name):  # a folder of that name is no file
            found.append((name, ws.read_text(name)))"""),
    # Hunt round 30 (reader r173), probe P5.
    Wrong(
        lab="13.1", name="a snippet of None taken for none, any other written with str",
        rule="Build item 1 makes a snippet \"one line on what the tool is for\", a string, and "
             "item 3's words on it (\"An empty snippet is no snippet ... Only `\"\"` is empty: a "
             "snippet of spaces is still a snippet\") are about strings; what the builder does "
             "with a snippet that is None, or no string at all, which no factory of the lesson "
             "makes, the page does not say. Reading None as no snippet, as the reference does, "
             "and writing any other with str gives every string snippet the reference's line, so "
             "it keeps every rule the page states (hunt round 30, probe r173-P5).",
        where="hunt round 30, probe r173-P5", names="",
        replace=r"""    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]""",
        by=r"""    snippets = [f"- {t['name']}: {str(t['snippet'])}" for t in tools
                if t.get("snippet") not in (None, "")]"""),
    # Hunt round 28 (reader r152), probe P6.
    Wrong(
        lab="13.1", name="a backslash in cwd taken as a folder break by discover_context",
        rule="Build item 2 gives cwd as a plain relative path such as \"services/api\", and the "
             "release notes leave a cwd that is not a plain relative folder to the student "
             "(discover_context may refuse it); a backslash is not in a plain relative path "
             "the page shows, so reading one as a folder break, as Windows does, keeps every "
             "rule it states (hunt round 28, probe r152-P6).",
        where="hunt round 28, probe r152-P6", names="",
        replace=r"""    steps = [step for step in cwd.split("/") if step not in ("", ".")]""",
        by=r"""    steps = [step for step in cwd.replace("\\", "/").split("/") if step not in ("", ".")]"""),
    # Hunt round 17 (reader r88), design 07 and probe 48.
    Wrong(
        lab="13.1", name="snippets that are the descriptions with a word changed",
        rule="Build item 1 rules out the description as a snippet, and the tests any snippet that "
             "is the description or holds one of its sentences or clauses; a line that changes "
             "or drops a word of it (\"Create a new text file, or replace one\", \"Run one shell "
             "command\") says the same thing in other words, which is the student's own wording "
             "(\"The wording is yours\"): how near a paraphrase may come is no test's to judge, "
             "as round 11 ruled for snippets that reword the descriptions (hunt round 17, r88-07).",
        where='section "Build: say what is there", item 1', names="",
        replace='''        "snippet": "Read a file's contents",''',
        by='''        "snippet": "Return the text of one file",''',
        also=(('''        "snippet": "Create or replace a file",''',
               '''        "snippet": "Create a new text file, or replace one",'''),
              ('''        "snippet": "Run a shell command",''',
               '''        "snippet": "Run one shell command",'''))),
    Wrong(
        lab="13.1", name="a guideline of spaces only given no line",
        rule="Build item 3 leaves an empty guideline to the student (\"an empty guideline says "
             "nothing\": a bare line or none); a guideline of white space only says nothing "
             "either, and the page draws no line between the two, so leaving it out keeps every "
             "rule it states. The lead is asked to say so on the page (hunt round 17, probe "
             "r88-48).",
        where="hunt round 17, probe r88-48", names="",
        replace='''            if line not in advice:  # first seen, first listed: a list keeps order, a set not
                advice.append(line)''',
        by='''            if line.strip() and line not in advice:  # a blank one says nothing: no line
                advice.append(line)'''),
    # Hunt round 11 (reader r53), probe 13.1-24.
    Wrong(
        lab="13.1", name="an empty guideline given no line",
        rule="An empty guideline says nothing, so Build item 3 leaves it to the student: a bare "
             "`- ` line for it, or no line at all; the tests take either.",
        where="hunt round 11, probe 13.1-24", names="",
        replace='''            if line not in advice:  # first seen, first listed: a list keeps order, a set not
                advice.append(line)''',
        by='''            if line and line not in advice:  # an empty one says nothing: no line
                advice.append(line)'''),
    Wrong(
        lab="13.1", name="the prompt and the tool keys in the student's own words",
        rule="Lesson 13 leaves the opening sentence, the sentence over the skills index and the "
             "tools' snippets and guidelines to the student (\"The wording is yours\"); only the "
             "headings, the forms of the lines and the order are given.",
        where='section "Build: say what is there"', names="",
        replace='''        "snippet": "Read a file's contents",
        "guidelines": ["Read files with read, not with cat or sed.",
                       "Name the files you touch by their paths."],''',
        by='''        "snippet": "Open a file and show it",
        "guidelines": ["Look at a file before you change it.",
                       "Always say which paths you changed."],''',
        also=(('''        "snippet": "Create or replace a file",
        "guidelines": ["Use write for new files and for rewriting a whole file.",
                       "Name the files you touch by their paths."],''',
               '''        "snippet": "Save a whole file",
        "guidelines": ["Write whole files only.", "Always say which paths you changed."],'''),
              ('''        "snippet": "Run a shell command",
        "guidelines": ["Before running a command, say what it is for."],''',
               '''        "snippet": "Run a command in the shell",
        "guidelines": ["Explain a command before you run it."],'''),
              ('''    parts = ["You are a coding assistant working in the user's project."]''',
               '''    parts = ["You help with the code in this repository."]'''),
              ('''            ["Skills are instruction files for particular kinds of task. Before starting a "
             "task that fits a description, read its file."] +''',
               '''            ["When a task matches one of these skills, read its file first:"] +'''))),
    Wrong(
        lab="13.1", name="guidelines kept once by dict.fromkeys",
        rule="Any way of listing each guideline once, first seen first, keeps the rule: a dict "
             "keeps its keys in the order they were first put in.",
        where='section "The tool lines" (first seen, first listed)', names="",
        replace='''    advice = []
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
                advice.append(line)''',
        by='''    advice = list(dict.fromkeys(line for tool in tools
                                for line in tool.get("guidelines", [])))'''),
    Wrong(
        lab="13.1", name="discover_context by posixpath",
        rule="Any walk from the root down to cwd that ignores the parts \"\" and \".\" keeps the "
             "rule, however it builds the paths.",
        where='section "Build: say what is there" (discover_context)', names="",
        replace='''    steps = [step for step in cwd.split("/") if step not in ("", ".")]
    found = []
    for depth in range(len(steps) + 1):  # the root first, then one folder deeper each time
        name = "".join(step + "/" for step in steps[:depth]) + "AGENTS.md"
        if ws.exists(name):
            found.append((name, ws.read_text(name)))
    return found''',
        by='''    import posixpath
    folder, found = posixpath.normpath(cwd or "."), []
    while True:
        name = posixpath.normpath(posixpath.join(folder, "AGENTS.md"))
        if ws.exists(name):
            found.insert(0, (name, ws.read_text(name)))
        if folder in (".", "/", ""):
            return found
        folder = posixpath.dirname(folder) or "."'''),
    Wrong(
        lab="13.1", name="a .. part of cwd taken back a folder",
        rule="cwd never holds \"..\" (Build item 2): it is a folder the caller has already worked "
             "out, as a real harness's working directory is, so what a \"..\" part does is the "
             "student's to decide (hunt round 8, probe 13.1-93).",
        where='section "Build: say what is there", item 2', names="",
        replace='''    steps = [step for step in cwd.split("/") if step not in ("", ".")]''',
        by='''    steps = []
    for step in cwd.split("/"):
        if step == "..":
            steps = steps[:-1]
        elif step not in ("", "."):
            steps.append(step)'''),
    Wrong(
        lab="13.1", name="snippets that reword the descriptions",
        rule="Build item 1 rules out the description as a snippet, and the tests any snippet that "
             "is the description or opens with one of its sentences or clauses; a line that says "
             "the same thing in other words is the student's own wording (\"The wording is "
             "yours\"), as the reference's \"Run a shell command\" is beside bash's \"Run one shell "
             "command line; ...\": telling a paraphrase from a summary is no test's to judge "
             "(hunt round 11, r53-14).",
        where='section "Build: say what is there", item 1', names="",
        replace='''        "snippet": "Read a file's contents",''',
        by='''        "snippet": "Return a file's text",''',
        also=(('''        "snippet": "Run a shell command",''',
               '''        "snippet": "Runs one shell command line",'''),)),
    Wrong(
        lab="13.1", name="an absolute cwd refused by discover_context",
        rule="Build item 2 says cwd is a relative path and never holds \"..\", and leaves what a "
             "\"..\" does to the student; an absolute cwd is outside the same contract, so "
             "refusing it, as refusing a \"..\", keeps every rule the page states (hunt round 11, "
             "probe r53-22).",
        where='section "Build: say what is there", item 2', names="",
        replace='''    steps = [step for step in cwd.split("/") if step not in ("", ".")]''',
        by='''    if cwd.startswith("/") or ".." in cwd.split("/"):
        raise ValueError(f"cwd must be a plain relative folder, not {cwd!r}")
    steps = [step for step in cwd.split("/") if step not in ("", ".")]'''),
    Wrong(
        lab="13.1", name="the sentence over the skills index counting the skills",
        rule="Build item 3 holds the opening line to the same words whatever the arguments, "
             "\"what changes goes in the sections below it\", and asks of the sentence over the "
             "skills index only that it be the student's own, three words or more, on what the "
             "lines below it are for; that section changes with the skills anyway, and equal "
             "arguments still give equal text (hunt round 13, probe r69-P4).",
        where='section "Build: say what is there", item 3', names="",
        replace='''            ["Skills are instruction files for particular kinds of task. Before starting a "
             "task that fits a description, read its file."] +''',
        by='''            [f"These {len(skills)} skills are instruction files for particular kinds of "
             "task. Before starting a task that fits a description, read its file."] +'''),
    # Hunt round 20 (reader r106), probe 45.
    Wrong(
        lab="13.1", name="a tool's guidelines of None taken for none",
        rule="Build item 1 makes guidelines a list, and item 3 lists each guideline of the tools; "
             "what the builder does with a tool whose guidelines are None, or a tuple, which no "
             "factory of the lesson makes, the page does not say. Reading None as no guidelines "
             "and a tuple as its items gives every list the same lines as the reference, so it "
             "keeps every rule the page states (hunt round 20, probe r106-45).",
        where="hunt round 20, probe r106-45", names="",
        replace='''        for line in tool.get("guidelines", ()):''',
        by='''        for line in list(tool.get("guidelines") or []):  # None is no guidelines'''),
    # Hunt round 23 (reader r125), probe 56
    Wrong(
        lab="13.1", name="the prompt's sections gathered in a module-level list cleared on each call",
        rule="Build item 3 asks for text that depends on the builder's arguments alone (\"Equal "
             "arguments must give identical text in every process, whatever was built "
             "before\"). A scratch list kept at module level, cleared at the start of each call "
             "and joined into a new string at its end, keeps nothing from one call to the next: "
             "every call's text is made from its own arguments. The builder awaits nothing, so "
             "no other call can run in the middle of one in an asyncio harness; that it would "
             "not survive two threads calling it at once is a rule the page does not state "
             "(hunt round 23, probe r125-56).",
        where="hunt round 23, probe r125-56", names="",
        replace='''    parts = ["You are a coding assistant working in the user's project."]''',
        by='''    parts = _SCRATCH  # one list, reused: cleared here, joined into a new string below
    parts.clear()
    parts.append("You are a coding assistant working in the user's project.")''',
        also=(('''def build_system_prompt(tools, context_files, skills, cwd, today):''',
               '''_SCRATCH = []


def build_system_prompt(tools, context_files, skills, cwd, today):'''),)),
]

DEEP_IMPORTED_AGAIN = r'''
import importlib.util
import os

import harness
from lab.kit import lab_test

LAB = "13.1"


@lab_test("Equal arguments give identical text in every process, even one whose environment "
          "harness.py reads as it is imported: the file imported afresh under another "
          "environment builds the same prompt.")
async def test_the_prompt_from_harness_imported_under_another_environment(t):
    arguments = ([], [], [], "/work/shop", "2026-03-14")
    here = harness.build_system_prompt(*arguments)
    saved = dict(os.environ)
    try:
        os.environ.update({name: f"other-{name.lower()}" for name in saved},
                          HARNESS_PROMPT_EXTRA=" And one more thing.")
        spec = importlib.util.spec_from_file_location("harness_elsewhere", harness.__file__)
        elsewhere = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(elsewhere)
        there = elsewhere.build_system_prompt(*arguments)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    t.expect(there == here, True,
             why="The same arguments built by harness.py imported afresh under another "
                 "environment, every variable another value: equal arguments give identical "
                 "text in every process, and nothing of the environment goes in, read when the "
                 "builder runs or when harness.py is imported (build_system_prompt, lesson 13, "
                 "Build item 3).")
'''

DEEP_GUIDELINES = r'''
import harness
from lab.kit import lab_test

LAB = "13.1"


@lab_test("Every guideline of the tools goes in once, however many: 1,500 tools with one "
          "guideline each, past a cap at 1,002.")
async def test_guidelines_past_a_thousand_and_two(t):
    tools = [{"name": f"tool{n}", "description": "A tool.", "guidelines": [f"Rule {n}."]}
             for n in range(1500)]
    prompt = harness.build_system_prompt(tools, [], [], "/work", "2026-03-14")
    lines = next(part.split("\n") for part in prompt.split("\n\n")
                 if part.startswith("Guidelines:"))
    t.expect(lines[1:] == [f"- Rule {n}." for n in range(1500)], True,
             "1,500 tools with one guideline each. The item: whether the guidelines section "
             "lists every one, in the order first met: each guideline of the tools, however "
             "many guidelines there are (build_system_prompt, lesson 13, Build item 3).")
'''

DEEP_REPEAT = r'''
import harness
from lab.kit import lab_test

LAB = "13.1"


@lab_test("A guideline said by the first of 2,502 tools and again by the last is listed once, "
          "however far apart its two sayings stand.")
async def test_a_repeat_past_two_thousand(t):
    tools = [{"name": f"tool{n}", "description": "A tool.", "guidelines": [f"Rule {n}."]}
             for n in range(2501)] + [{"name": "last", "description": "A tool.",
                                       "guidelines": ["Rule 0."]}]
    prompt = harness.build_system_prompt(tools, [], [], "/work", "2026-03-14")
    lines = next(part.split("\n") for part in prompt.split("\n\n")
                 if part.startswith("Guidelines:"))
    t.expect(lines[1:] == [f"- Rule {n}." for n in range(2501)], True,
             "2,502 tools, the last saying the first one's guideline again. The item: whether "
             "the guidelines section lists each sentence once, however far apart its two "
             "sayings stand (build_system_prompt, lesson 13, Build item 3).")
'''

DEEP_FOLDERS = r'''
import harness
import lab
from lab.kit import lab_test

LAB = "13.1"


@lab_test("discover_context finds every AGENTS.md on the way, however deep cwd is: 300 "
          "folders, past a cap at 200.")
async def test_discover_context_three_hundred_folders_deep(t):
    path = [f"f{n % 7}" for n in range(300)]
    files = {"".join(f + "/" for f in path[:i]) + "AGENTS.md": f"Rules {i}." for i in range(301)}
    found = harness.discover_context(lab.Workspace(files), "/".join(path))
    t.expect([len(found), found[-1:]], [301, [("/".join(path) + "/AGENTS.md", "Rules 300.")]],
             "cwd 300 folders deep, an AGENTS.md in every folder. Items: [how many pairs were "
             "found, the last]: one pair for each AGENTS.md on the way, however deep cwd is: "
             "there is no cap on the depth (discover_context, lesson 13, Build item 2).")
'''

DEEP_MANY = r'''
import harness
from lab.kit import lab_test

LAB = "13.1"
READ = {"name": "read", "description": "Read a file."}


@lab_test("A line for each tool that has a snippet, however many tools: 10,000, past a cap at "
          "8,192.")
async def test_ten_thousand_tool_lines(t):
    tools = [{"name": f"tool{n}", "description": "A tool.", "snippet": f"Do thing {n}"}
             for n in range(10000)]
    prompt = harness.build_system_prompt(tools, [], [], "/work", "2026-03-14")
    lines = next((part.split("\n") for part in prompt.split("\n\n")
                  if part.startswith("Available tools:")), [])
    t.expect([len(lines), lines[1:] == [f"- tool{n}: Do thing {n}" for n in range(10000)]],
             [10001, True],
             "10,000 tools, each with a snippet. Items: [the tools section's lines, heading "
             "included, whether they are every tool's line in order]: a line for each tool that "
             "has a snippet, however many tools there are (build_system_prompt, lesson 13, "
             "Build item 3).")


@lab_test("Each context file in its own section, however many: 10,000, past a cap at 8,192.")
async def test_ten_thousand_context_files(t):
    files = [(f"f{n % 9}/{n}/AGENTS.md", f"Rule {n}.") for n in range(10000)]
    parts = harness.build_system_prompt([], files, [], "/work", "2026-03-14").split("\n\n")
    t.expect([len(parts) - 2, parts[1:-1] == [f'<project_instructions path="{path}">\n{body}\n'
                                             "</project_instructions>" for path, body in files]],
             [10000, True],
             "10,000 context files of one line each. Items: [how many parts stand between the "
             "opening line and the date, whether they are the files in their tags, in order]: "
             "each context file goes in, however many context files there are "
             "(build_system_prompt, lesson 13, Build item 3).")


@lab_test("A line for each skill and the date and directory last, however many skills: 10,000, "
          "past a cap at 8,192 and past 8,000.")
async def test_ten_thousand_skills(t):
    skills = [{"name": f"task{n}", "description": f"Do task {n}.", "path": f"skills/t{n}.md"}
              for n in range(10000)]
    parts = harness.build_system_prompt([READ], [], skills, "/work", "2026-03-14").split("\n\n")
    index = next((part.split("\n") for part in parts if "(skills/t0.md)" in part), [])
    t.expect([index[1:] == [f"- task{n}: Do task {n}. (skills/t{n}.md)" for n in range(10000)],
              parts[-1]],
             [True, "Current date: 2026-03-14\nCurrent working directory: /work"],
             "10,000 skills and a tool named read. Items: [whether the index lists every skill "
             "in order, the last part]: a line for each skill, however many skills there are, "
             "and the date and directory last, whatever comes before them (build_system_prompt, "
             "lesson 13, Build item 3).")
'''

DEEP_OPENING = r'''
import harness
from lab.kit import lab_test

LAB = "13.1"


@lab_test("The opening line is the same words whatever the arguments: 10,000 tools and 10,000 "
          "context files, past 8,000 of each.")
async def test_the_opening_line_past_eight_thousand(t):
    bare = harness.build_system_prompt([], [], [], "/work", "2026-03-14").split("\n\n")[0]
    tools = [{"name": f"tool{n}", "description": "A tool.", "snippet": f"Do thing {n}"}
             for n in range(10000)]
    files = [(f"f{n % 9}/{n}/AGENTS.md", f"Rule {n}.") for n in range(10000)]
    t.expect([harness.build_system_prompt(*arguments, [], "/work", "2026-03-14")
              .split("\n\n")[0] == bare for arguments in ((tools, []), ([], files))],
             [True, True],
             "10,000 tools, then 10,000 context files. Items: whether each prompt's opening "
             "line is the one of the prompt with neither: the opening line is the same words "
             "whatever the arguments, however many there are (build_system_prompt, lesson 13, "
             "Build item 3).")


@lab_test("Equal arguments give identical text, whatever was built before: the same prompt "
          "built 10,000 times.")
async def test_the_same_prompt_ten_thousand_times(t):
    first = harness.build_system_prompt([], [], [], "/work", "2026-03-14")
    changed = next((n for n in range(1, 10000)
                    if harness.build_system_prompt([], [], [], "/work", "2026-03-14") != first),
                   None)
    t.expect(changed, None,
             "The same arguments built 10,000 times over. The item: the first call whose "
             "prompt differed from the first, or None: equal arguments give identical text "
             "whatever was built before, however many calls there were (build_system_prompt, "
             "lesson 13, Build item 3).")
'''

DEEP_TEN_THOUSAND_GUIDELINES = r'''
import harness
from lab.kit import lab_test

LAB = "13.1"


@lab_test("A line for each guideline of the tools, however many guidelines one tool has: one "
          "tool with 10,000 different ones, past a cap at 9,000 and past a set's switch there.")
async def test_ten_thousand_guidelines_in_one_tool(t):
    advice = [f"Rule {n}." for n in range(10000)]
    tools = [{"name": "big", "description": "A tool.", "guidelines": advice}]
    prompt = harness.build_system_prompt(tools, [], [], "/work", "2026-03-14")
    lines = next((part.split("\n") for part in prompt.split("\n\n")
                  if part.startswith("Guidelines:")), [])
    t.expect([len(lines), lines[1:] == [f"- {line}" for line in advice]], [10001, True],
             "One tool with 10,000 different guidelines. Items: [the guidelines section's "
             "lines, heading included, whether they are every guideline in the order first "
             "met]: a line for each guideline of the tools, however many guidelines one tool "
             "has, in the order it is first met (build_system_prompt, lesson 13, Build item 3).")
'''

DEEP_LONG_TEXT = r'''
import harness
import lab
from lab.kit import lab_test

LAB = "13.1"


@lab_test("An AGENTS.md of over 34 million characters is found whole and goes into the prompt "
          "whole, however long: past cuts at 16 and 32 million.")
async def test_an_agents_md_of_thirty_four_million_characters(t):
    body = "Keep the ledger small.\n" * 1_500_000
    found = harness.discover_context(lab.Workspace({"AGENTS.md": body}), ".")
    prompt = harness.build_system_prompt([], found, [], "/work", "2026-03-14")
    wanted = f'<project_instructions path="AGENTS.md">\n{body}\n</project_instructions>'
    t.expect([[path for path, _ in found], [len(text) for _, text in found],
              prompt.count(wanted)], [["AGENTS.md"], [len(body)], 1],
             f"One AGENTS.md of {len(body):,} characters. Items: [the paths found, the lengths "
             "of the texts found, how many times the whole file stands in the prompt in its "
             "tags]: each text exactly as the workspace holds it and as it came, however long, "
             "nothing cut short (discover_context and build_system_prompt, lesson 13, Build "
             "items 2 and 3).")
'''

DEEP_THREADS = r'''
import threading

import harness
from lab.kit import lab_test

LAB = "13.1"


@lab_test("Equal arguments give identical text on a machine too busy to run another thread "
          "while the builder waits: the same prompt as on an idle one.")
async def test_the_prompt_on_a_busy_machine(t):
    arguments = ([{"name": "read", "description": "Read.", "snippet": "Show a file"}],
                 [("AGENTS.md", "Run the tests.\n")], [], "/work", "2026-03-14")
    idle = harness.build_system_prompt(*arguments)
    start = threading.Thread.start
    threading.Thread.start = lambda self: None  # no other thread gets to run in time
    try:
        busy = harness.build_system_prompt(*arguments)
    except Exception as error:
        busy = f"raised {type(error).__name__}"
    finally:
        threading.Thread.start = start
    t.expect(busy == idle, True,
             "The same arguments built twice, the second time with no other thread able to "
             "run before a wait for it ends, as on a loaded machine. The item: whether the two "
             "prompts are the same text: equal arguments must give identical text in every "
             "process, however fast the machine (build_system_prompt, lesson 13, Build item 3).")
'''

# Designs no check of the lab can afford to tell apart (tools/wrong_designs.py's Beyond).
BEYOND = [
    Beyond(lab='13.1', name="a guideline's repeat looked for among the last 2,000 kept",
           rule='A line - GUIDELINE for each guideline of the tools, each sentence once, however far apart its two sayings stand.',
           where='Build: say what is there, item 3 ("for each guideline of the tools") (hunt round 28, r152-16)',
           names='however far apart',
           reach='test_each_guideline_once_first_seen_first lists 1,002 different guidelines, a '
                 'repeat of one of the first two said after them all, and the reference\'s '
                 'first-seen check grows with the square of the count (a limit past what a test '
                 'can afford, as for the caps at 1,002, 1,024 and 1,100); this one looks for a '
                 'repeat among the last 2,000 kept only',
           replace=r"""            if line not in advice:  # first seen, first listed: a list keeps order, a set not""",
           by=r"""            if line not in advice[-2000:]:  # a repeat is said soon after, if at all""",
           deep=DEEP_REPEAT),
    Beyond(lab='13.1', name='an environment variable read at import in the opening line',
           rule='Equal arguments must give identical text in every process: nothing of the environment goes in, read when the builder runs or when harness.py is imported.',
           where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 23, r125-10)',
           names='imported afresh',
           reach='a check can only see a value read when harness.py is imported by importing the '
                 'file a second time, and a test that did so would run a submission\'s import-time '
                 'code twice in the run that grades it (a file that patches, prints or reports as '
                 'it is imported would do it again, and its other tests\' verdicts with it); '
                 'every test builds the prompt within one import, so this design reads its '
                 'variable before any test changes the environment',
           replace=r'''def build_system_prompt(tools, context_files, skills, cwd, today):''',
           by=r'''import os as _os

_EXTRA = _os.environ.get("HARNESS_PROMPT_EXTRA", "")  # read once, when the file is imported


def build_system_prompt(tools, context_files, skills, cwd, today):''',
           also=((r'''    parts = ["You are a coding assistant working in the user's project."]''',
                 r'''    parts = ["You are a coding assistant working in the user's project." + _EXTRA]'''),),
           deep=DEEP_IMPORTED_AGAIN),
    # Hunt round 17 (reader r88)
    Beyond(lab='13.1', name='guidelines capped at 1,002',
           rule='A line for each guideline of the tools, each sentence once, however many there are.',
           where='Build: say what is there, item 3 ("for each guideline of the tools") (hunt round 17, r88-02)',
           names='however many guidelines there are',
           reach='test_each_guideline_once_first_seen_first lists 1,002 different guidelines, '
                 "and the reference's first-seen check is a scan of the list so far, so its cost "
                 'grows with the square of the count (about 4 ms at 1,002, 30 ms at 3,000): any '
                 'cap past the largest count a test can afford is the same cap (round 13\'s 700 '
                 'fails); this one drops guidelines from the 1,003rd on. The bank reaches past it '
                 '(up to 1,200 different guidelines)',
           replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
           by=r'''    advice = advice[:1002]  # enough advice for anyone
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
           deep=DEEP_GUIDELINES),
    Beyond(lab='13.1', name='discover_context capped at two hundred folders deep',
           rule='One pair for each AGENTS.md on the way from the root down to cwd, however deep cwd is.',
           where='Build: say what is there, item 2 ("one pair for each `AGENTS.md` on the way") (hunt round 17, r88-05)',
           names='there is no cap on the depth',
           reach='test_discover_context_walks_from_the_root_down_to_cwd walks cwd 100 to 200 '
                 'folders deep, and each step of a walk names a path as long as the depth, so a '
                 'walk costs the square of it (about 3 ms at 200, 90 ms at 1,000): any cap past '
                 "the deepest walk a test can afford is the same cap (round 13's sixty-four "
                 'fails); this one stops at the 200th folder',
           replace=r'''    steps = [step for step in cwd.split("/") if step not in ("", ".")]''',
           by=r'''    steps = [step for step in cwd.split("/") if step not in ("", ".")][:200]  # deep enough''',
           deep=DEEP_FOLDERS),
    # Hunt round 20 (reader r106): caps and a switch past the counts the tests draw
    Beyond(lab='13.1', name='discover_context capped at 256 folders deep',
           rule='One pair for each AGENTS.md on the way from the root down to cwd, however deep cwd is.',
           where='Build: say what is there, item 2 ("one pair for each `AGENTS.md` on the way") (hunt round 20, r106-13)',
           names='there is no cap on the depth',
           reach='the same reach as the cap at two hundred: '
                 'test_discover_context_walks_from_the_root_down_to_cwd walks cwd 100 to 200 '
                 'folders deep at a cost that grows with the square of the depth, and a cap at '
                 '256 is the same cap a little further out (a limit past what a test can '
                 'afford); this one stops at the 256th folder',
           replace=r'''    steps = [step for step in cwd.split("/") if step not in ("", ".")]''',
           by=r'''    steps = [step for step in cwd.split("/") if step not in ("", ".")][:256]''',
           deep=DEEP_FOLDERS),
    Beyond(lab='13.1', name='guidelines capped at 1,024',
           rule='A line for each guideline of the tools, each sentence once, however many there are.',
           where='Build: say what is there, item 3 ("for each guideline of the tools") (hunt round 20, r106-15)',
           names='however many guidelines there are',
           reach='test_each_guideline_once_first_seen_first lists 1,002 different guidelines and '
                 "the reference's first-seen check grows with the square of the count, as for "
                 'the cap at 1,002: a limit past what a test can afford; this one drops '
                 'guidelines from the 1,025th on. The bank reaches past it (up to 1,200)',
           replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
           by=r'''    advice = advice[:1024]
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
           deep=DEEP_GUIDELINES),
    Beyond(lab='13.1', name='tool lines capped at 8,192',
           rule='A line for each tool that has a snippet, in the order of tools, however many tools there are.',
           where='Build: say what is there, item 3 ("for each tool that has a snippet") (hunt round 20, r106-14)',
           names='however many tools there are',
           reach='test_a_line_for_each_tool_with_a_snippet draws 1,001 to 8,000 tools, and any '
                 'cap past the largest count drawn is the same cap a little further out (a limit '
                 'past what a test can afford, the tests being over their time budget); this one '
                 'drops the lines of tools from the 8,193rd on',
           replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
           by=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools[:8192] if t.get("snippet")]''',
           deep=DEEP_MANY),
    Beyond(lab='13.1', name='context files capped at 8,192',
           rule='Each context file, in the order given, as its own section, however many there are.',
           where='Build: say what is there, item 3 ("each context file, in the order given") (hunt round 20, r106-16)',
           names='however many context files there are',
           reach='test_context_files_go_in_word_for_word_in_the_order_given draws 1,001 to 8,000 '
                 'files, and any cap past the largest count drawn is the same cap a little '
                 'further out (a limit past what a test can afford); this one drops files from '
                 'the 8,193rd on',
           replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
           by=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files[:8192]]
''',
           deep=DEEP_MANY),
    Beyond(lab='13.1', name='skills index capped at 8,192',
           rule='A line - NAME: DESCRIPTION (PATH) for each skill, in the order given, however many there are.',
           where='Build: say what is there, item 3 ("for each skill, in the order given") (hunt round 20, r106-17)',
           names='however many skills there are',
           reach='test_a_skills_index_only_with_a_tool_named_read draws 1,001 to 8,000 skills, '
                 'and any cap past the largest count drawn is the same cap a little further out '
                 '(a limit past what a test can afford); this one drops skills from the 8,193rd on',
           replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
           by=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills[:8192]]))''',
           deep=DEEP_MANY),
    Beyond(lab='13.1', name='the date put before the skills index past 8,000 skills',
           rule='Last, the two lines Current date: TODAY and Current working directory: CWD, whatever comes before them.',
           where='Build: say what is there, item 3 ("last, the two lines") (hunt round 20, r106-40)',
           names='the date and directory last',
           reach='the order of the parts, the date last, is checked with up to three skills '
                 '(test_the_parts_come_in_a_fixed_order), and the largest index drawn holds '
                 '8,000 (test_a_skills_index_only_with_a_tool_named_read): a switch past the '
                 'largest count drawn is a limit past what a test can afford; this one puts the '
                 'date before the index from the 8,001st skill on',
           replace=r'''
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
''',
           by=r'''
    date = f"Current date: {today}\nCurrent working directory: {cwd}"
    if len(skills) > 8000 and "read" in [t["name"] for t in tools]:  # a long index goes last
        parts.insert(len(parts) - 1, date)
    else:
        parts.append(date)
''',
           deep=DEEP_MANY),
    # Hunt round 23 (reader r125): caps at or just past the largest counts the tests draw
    Beyond(lab='13.1', name='tool lines capped at 8,000',
           rule='A line for each tool that has a snippet, in the order of tools, however many tools there are.',
           where='Build: say what is there, item 3 ("for each tool that has a snippet") (hunt round 23, r125-01)',
           names='however many tools there are',
           reach='test_a_line_for_each_tool_with_a_snippet draws 1,001 to 8,000 tools, so a cap at '
                 'the largest count drawn cuts nothing any draw holds: the cap at 8,192 a little '
                 'nearer (a limit past what a test can afford); this one drops the lines of '
                 'tools from the 8,001st on',
           replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
           by=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools[:8000] if t.get("snippet")]''',
           deep=DEEP_MANY),
    Beyond(lab='13.1', name='context files capped at 8,000',
           rule='Each context file, in the order given, as its own section, however many there are.',
           where='Build: say what is there, item 3 ("each context file, in the order given") (hunt round 23, r125-03)',
           names='however many context files there are',
           reach='test_context_files_go_in_word_for_word_in_the_order_given draws 1,001 to 8,000 '
                 'files, so a cap at the largest count drawn cuts nothing any draw holds (a limit '
                 'past what a test can afford); this one drops files from the 8,001st on',
           replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
           by=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files[:8000]]
''',
           deep=DEEP_MANY),
    Beyond(lab='13.1', name='skills index capped at 8,000',
           rule='A line - NAME: DESCRIPTION (PATH) for each skill, in the order given, however many there are.',
           where='Build: say what is there, item 3 ("for each skill, in the order given") (hunt round 23, r125-05)',
           names='however many skills there are',
           reach='test_a_skills_index_only_with_a_tool_named_read draws 1,001 to 8,000 skills, so '
                 'a cap at the largest count drawn cuts nothing any draw holds (a limit past what '
                 'a test can afford); this one drops skills from the 8,001st on',
           replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
           by=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills[:8000]]))''',
           deep=DEEP_MANY),
    Beyond(lab='13.1', name='discover_context capped at 201 folders deep',
           rule='One pair for each AGENTS.md on the way from the root down to cwd, however deep cwd is.',
           where='Build: say what is there, item 2 ("one pair for each `AGENTS.md` on the way") (hunt round 23, r125-07)',
           names='there is no cap on the depth',
           reach='the same reach as the cap at two hundred: '
                 'test_discover_context_walks_from_the_root_down_to_cwd walks cwd 100 to 200 '
                 'folders deep at a cost that grows with the square of the depth, and a cap at '
                 '201 is the same cap one folder further out (a limit past what a test can '
                 'afford); this one stops at the 201st folder',
           replace=r'''    steps = [step for step in cwd.split("/") if step not in ("", ".")]''',
           by=r'''    steps = [step for step in cwd.split("/") if step not in ("", ".")][:201]''',
           deep=DEEP_FOLDERS),
    # Hunt round 24 (reader r132): caps and switches just past the counts the tests draw
    Beyond(lab='13.1', name='tool lines capped at 8,001',
           rule='A line for each tool that has a snippet, in the order of tools, however many tools there are.',
           where='Build: say what is there, item 3 ("for each tool that has a snippet") (hunt round 24, r132-20)',
           names='however many tools there are',
           reach='the same reach as the caps at 8,000 and 8,192: '
                 'test_a_line_for_each_tool_with_a_snippet draws 1,001 to 8,000 tools, and a cap '
                 'one past the largest count drawn cuts nothing any draw holds (a limit past what '
                 'a test can afford); this one drops the lines of tools from the 8,002nd on',
           replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
           by=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools[:8001] if t.get("snippet")]''',
           deep=DEEP_MANY),
    Beyond(lab='13.1', name='context files capped at 8,001',
           rule='Each context file, in the order given, as its own section, however many there are.',
           where='Build: say what is there, item 3 ("each context file, in the order given") (hunt round 24, r132-22)',
           names='however many context files there are',
           reach='the same reach as the caps at 8,000 and 8,192: '
                 'test_context_files_go_in_word_for_word_in_the_order_given draws 1,001 to 8,000 '
                 'files (a limit past what a test can afford); this one drops files from the '
                 '8,002nd on',
           replace=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
''',
           by=r'''
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files[:8001]]
''',
           deep=DEEP_MANY),
    Beyond(lab='13.1', name='skills index capped at 8,001',
           rule='A line - NAME: DESCRIPTION (PATH) for each skill, in the order given, however many there are.',
           where='Build: say what is there, item 3 ("for each skill, in the order given") (hunt round 24, r132-21)',
           names='however many skills there are',
           reach='the same reach as the caps at 8,000 and 8,192: '
                 'test_a_skills_index_only_with_a_tool_named_read draws 1,001 to 8,000 skills (a '
                 'limit past what a test can afford); this one drops skills from the 8,002nd on',
           replace=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))''',
           by=r'''            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills[:8001]]))''',
           deep=DEEP_MANY),
    Beyond(lab='13.1', name='discover_context capped at 250 folders deep',
           rule='One pair for each AGENTS.md on the way from the root down to cwd, however deep cwd is.',
           where='Build: say what is there, item 2 ("one pair for each `AGENTS.md` on the way") (hunt round 24, r132-38)',
           names='there is no cap on the depth',
           reach='the same reach as the caps at 200, 201 and 256: '
                 'test_discover_context_walks_from_the_root_down_to_cwd walks cwd 100 to 200 '
                 'folders deep at a cost that grows with the square of the depth (a limit past '
                 'what a test can afford); this one stops at the 250th folder',
           replace=r'''    steps = [step for step in cwd.split("/") if step not in ("", ".")]''',
           by=r'''    steps = [step for step in cwd.split("/") if step not in ("", ".")][:250]''',
           deep=DEEP_FOLDERS),
    Beyond(lab='13.1', name='guidelines capped at 1,100',
           rule='A line for each guideline of the tools, each sentence once, however many there are.',
           where='Build: say what is there, item 3 ("for each guideline of the tools") (hunt round 24, r132-39)',
           names='however many guidelines there are',
           reach='the same reach as the caps at 1,002 and 1,024: '
                 'test_each_guideline_once_first_seen_first lists 1,002 different guidelines and '
                 "the reference's first-seen check grows with the square of the count (a limit "
                 'past what a test can afford); this one drops guidelines from the 1,101st on. '
                 'The bank reaches past it (up to 1,200)',
           replace=r'''    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
           by=r'''    advice = advice[:1100]
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]''',
           deep=DEEP_GUIDELINES),
    Beyond(lab='13.1', name='another opening line past 8,000 tools or context files',
           rule='The opening line is the same words whatever the arguments: what changes goes in the sections below it.',
           where='Build: say what is there, item 3 (the opening line) (hunt round 24, r132-24)',
           names='the same words whatever the arguments',
           reach='the opening line is checked over every prompt of the tools, context files and '
                 'skills tests, whose largest lists hold 1,001 to 8,000 items: a switch past the '
                 'largest count drawn is a limit past what a test can afford; this one adds a '
                 'sentence from the 8,001st tool or context file on',
           replace=r'''    parts = ["You are a coding assistant working in the user's project."]''',
           by=r'''    parts = ["You are a coding assistant working in the user's project." +
             (" There is a lot here." if max(len(tools), len(context_files)) > 8000 else "")]''',
           deep=DEEP_OPENING),
    Beyond(lab='13.1', name='another opening line after 3,000 calls',
           rule='Equal arguments must give identical text in every process, whatever was built before.',
           where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process") (hunt round 24, r132-62)',
           names='whatever was built before',
           reach="a counter of the builder's calls is seen only by a run that makes more calls "
                 "than its threshold, and the lab's tests build a few hundred prompts: any "
                 'threshold past what a test can afford is the same design (a limit past what a '
                 'test can afford); this one adds a sentence from the 3,001st call on',
           replace=r'''def build_system_prompt(tools, context_files, skills, cwd, today):''',
           by=r'''_CALLS = [0]  # how many prompts this process has built


def build_system_prompt(tools, context_files, skills, cwd, today):''',
           also=((r'''    parts = ["You are a coding assistant working in the user's project."]''',
                  r'''    _CALLS[0] += 1
    parts = ["You are a coding assistant working in the user's project." +
             (" Still here." if _CALLS[0] > 3000 else "")]'''),),
           deep=DEEP_OPENING),
    # Hunt round 40 (reader r204): caps and switches past what a public test can afford
    Beyond(lab='13.1', name='AGENTS.md texts cut to 16,000,000 characters by discover_context',
           rule='One pair for each AGENTS.md on the way, each text exactly as the workspace holds it, however long.',
           where='Build: say what is there, item 2 ("each text exactly as the workspace holds it") (hunt round 40, r204-18)',
           names='however long',
           reach='test_discover_context_walks_from_the_root_down_to_cwd and '
                 'test_every_value_goes_in_as_it_came hold texts of ten and a half to twelve '
                 'million characters; a cut past that is the same cut further out, and a text of '
                 'tens of millions costs a test its memory and time (a limit past what a test '
                 'can afford); this one cuts each text at 16,000,000 characters',
           replace=r"""            found.append((name, ws.read_text(name)))""",
           by=r"""            found.append((name, ws.read_text(name)[:16_000_000]))""",
           deep=DEEP_LONG_TEXT),
    Beyond(lab='13.1', name='context files cut to 32,000,000 characters in the prompt',
           rule='Each context file goes in with the text exactly as it came, however long.',
           where='Build: say what is there, item 3 ("the text exactly as it came") (hunt round 40, r204-44)',
           names='however long',
           reach='test_every_value_goes_in_as_it_came builds a prompt of a context file of ten '
                 'and a half to twelve million characters; a cut past that is the same cut '
                 'further out (a limit past what a test can afford); this one cuts each file at '
                 '32,000,000 characters',
           replace=r"""
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
""",
           by=r"""
    parts += [f'<project_instructions path="{where}">\n{body[:32_000_000]}\n'
              '</project_instructions>' for where, body in context_files]
""",
           deep=DEEP_LONG_TEXT),
    Beyond(lab='13.1', name='AGENTS.md files nearest first once 300 are found',
           rule='One pair for each AGENTS.md on the way from the root down to cwd, broadest first, however deep cwd is.',
           where='Build: say what is there, item 2 ("broadest first") (hunt round 40, r204-27)',
           names='however deep cwd is',
           reach='test_discover_context_walks_from_the_root_down_to_cwd walks cwd 100 to 200 '
                 'folders deep at a cost that grows with the square of the depth, so it finds '
                 'at most 201 files: a switch past that is a limit past what a test can afford, '
                 'as for the caps at 200, 201, 250 and 256; this one turns the list round from '
                 'the 300th file found',
           replace=r"""    return found
""",
           by=r"""    return found[::-1] if len(found) >= 300 else found  # a deep walk, nearest first
""",
           deep=DEEP_FOLDERS),
    Beyond(lab='13.1', name="a guideline's repeat looked for among the last 1,500 kept",
           rule='A line - GUIDELINE for each guideline of the tools, each sentence once, however far apart its two sayings stand.',
           where='Build: say what is there, item 3 ("each sentence once, in the order it is first met") (hunt round 40, r204-36)',
           names='however far apart',
           reach='the same reach as the window of 2,000: test_each_guideline_once_first_seen_first '
                 'lists 1,002 different guidelines and a repeat after them all, and the '
                 "reference's first-seen check grows with the square of the count (a limit past "
                 'what a test can afford); this one looks for a repeat among the last 1,500 kept '
                 'only',
           replace=r"""            if line not in advice:  # first seen, first listed: a list keeps order, a set not""",
           by=r"""            if line not in advice[-1500:]:  # a repeat is said soon after, if at all""",
           deep=DEEP_REPEAT),
    Beyond(lab='13.1', name='guidelines put in a set past 9,000',
           rule='A line - GUIDELINE for each guideline of the tools, each sentence once, in the order it is first met; equal arguments give identical text in every process.',
           where='Build: say what is there, item 3 ("in the order it is first met", "Equal arguments must give identical text in every process") (hunt round 40, r204-37)',
           names='in the order it is first met',
           reach='test_each_guideline_once_first_seen_first lists at most 1,002 different '
                 "guidelines, and the reference's first-seen check grows with the square of the "
                 'count: 9,000 different ones cost it half a second, past what a test can '
                 'afford; this one takes their order from a set past 9,000',
           replace=r"""                advice.append(line)
""",
           by=r"""                advice.append(line)
    if len(advice) > 9000:  # a long list: a set is quicker
        advice = list(set(advice))
""",
           deep=DEEP_TEN_THOUSAND_GUIDELINES),
    Beyond(lab='13.1', name="only a tool's first 9,000 guidelines read",
           rule='A line - GUIDELINE for each guideline of the tools, however many guidelines one tool has.',
           where='Build: say what is there, item 3 ("for each guideline of the tools") (hunt round 40, r204-75)',
           names='however many guidelines one tool has',
           reach='test_each_guideline_once_first_seen_first gives one tool 2,001 to 8,000 '
                 "guidelines, most of them one sentence said again, and the reference's "
                 'first-seen check grows with the square of the different ones (a limit past '
                 'what a test can afford); this one reads a tool\'s first 9,000 only',
           replace=r"""        for line in tool.get("guidelines", ()):""",
           by=r"""        for line in list(tool.get("guidelines", ()))[:9000]:""",
           deep=DEEP_TEN_THOUSAND_GUIDELINES),
    Beyond(lab='13.1', name='the sections joined in a thread the builder waits five seconds for',
           rule='Equal arguments must give identical text in every process.',
           where='Build: say what is there, item 3 ("Equal arguments must give identical text in every process"), and Figure 13.1 ("The builder never reads the clock") (hunt round 40, r204-65)',
           names='identical text',
           reach='the builder gives up on its thread only on a machine too slow to join the '
                 'sections in five seconds, and a test may not wait for a clock or make a '
                 'machine slow (a limit past what a test can afford); the deep test stands in '
                 'for a busy machine by letting no other thread start',
           replace=r"""    return "\n\n".join(parts)
""",
           by=r"""    import threading
    result = []
    worker = threading.Thread(target=lambda: result.append("\n\n".join(parts)))
    worker.start()
    worker.join(timeout=5)  # a slow machine gets the short prompt
    return result[0] if result else "\n\n".join(parts[:1] + parts[-1:])
""",
           deep=DEEP_THREADS),
]

# Hunt round 40 (reader r204): the public test's crowd of 12,001 to 14,000 tools, context files
# and skills in one prompt now catches these caps and switches, so they are wrong designs the
# lab's tests fail, no longer beyond their reach
_CAUGHT = {"tool lines capped at 8,192", "context files capped at 8,192",
           "skills index capped at 8,192", "the date put before the skills index past 8,000 skills",
           "tool lines capped at 8,000", "context files capped at 8,000",
           "skills index capped at 8,000", "tool lines capped at 8,001",
           "context files capped at 8,001", "skills index capped at 8,001",
           "another opening line past 8,000 tools or context files"}
WRONG += [design for design in BEYOND if design.name in _CAUGHT]
BEYOND = [design for design in BEYOND if design.name not in _CAUGHT]
