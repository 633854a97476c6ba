"""Lesson 7, lab 2: two frontends. The tests of JsonRenderer and FinalTextRenderer, each a fold
over one run's events: render(event) for each, then finish().

Check your file with: python lab/lab_check.py --harness harness.py --lesson 7 tests.py
"""
import json

import harness
import lab
from lab.kit import lab_test, tool

LAB = "7.2"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def looker():
    return tool("look", lambda arguments: "contents of " + arguments["path"], PATH)


async def events_of(*replies, **options):
    """The events of one run whose model answers with `replies`."""
    model = lab.ScriptedModel(list(replies))
    return await lab.drive(harness.run_agent(model, SYSTEM, [], [looker()], "Go.", **options))


def fold(t, renderer, events):
    """Render every event, then finish: (what render printed, finish's value, what it printed)."""
    printed = "".join(t.printed(renderer.render, event)[1] for event in events)
    value, said = t.printed(renderer.finish)
    return printed, value, said


@lab_test("JsonRenderer prints one line per event, each parseable JSON equal to its event, and "
          "finish() prints nothing and returns True for a run that ended well.")
async def test_json_renderer(t):
    events = await events_of(lab.reply(lab.call("look", {"path": "a.py"})), lab.say("Done."))
    printed, value, said = fold(t, harness.JsonRenderer(), events)
    lines = printed.splitlines()
    t.expect([len(lines), [json.loads(line)["type"] for line in lines][:3]],
             [12, ["agent_start", "turn_start", "message_end"]],
             "JsonRenderer.render prints json.dumps(event): one line per event (JsonRenderer, "
             "lesson 7).")
    t.expect([json.loads(line) for line in lines] == events, True,
             "Each line parses back to its event: another program can read the run (JsonRenderer, "
             "lesson 7).")
    t.expect([value, said], [True, ""], "finish() returns True after a run that ended well "
                                        "(JsonRenderer, lesson 7).")


@lab_test("FinalTextRenderer prints nothing while the run goes on, then at finish() prints the "
          "final answer's text alone and returns True.")
async def test_final_text_renderer(t):
    events = await events_of(lab.reply("Let me look.", lab.call("look", {"path": "a.py"})),
                             lab.say("a.py prints 1."))
    printed, value, said = fold(t, harness.FinalTextRenderer(), events)
    t.expect([printed, said, value], ["", "a.py prints 1.\n", True],
             "FinalTextRenderer keeps the newest assistant message and prints text_of it once, "
             "at finish(): not the words of earlier replies (FinalTextRenderer, lesson 7).")


@lab_test("After a failed reply both finish() methods return False, and FinalTextRenderer prints "
          "\"Error: overloaded\".")
async def test_a_failed_run_did_not_end_well(t):
    events = await events_of(lab.reply(lab.call("look", {"path": "a.py"})), lab.fail("overloaded"))
    _, as_json, _ = fold(t, harness.JsonRenderer(), events)
    printed, as_text, said = fold(t, harness.FinalTextRenderer(), events)
    t.expect([as_json, as_text, printed, said], [False, False, "", "Error: overloaded\n"],
             "A run whose message_end announced a reply with stop_reason \"error\" did not end "
             "well; the text frontend says why, from error_message (JsonRenderer and "
             "FinalTextRenderer, lesson 7).")


@lab_test("A run stopped by max_turns did not end well either: JsonRenderer.finish() is False, "
          "and FinalTextRenderer prints the stop's reason.")
async def test_a_max_turns_stop(t):
    events = await events_of(lab.reply(lab.call("look", {"path": "a.py"})),
                             lab.reply(lab.call("look", {"path": "b.py"})), max_turns=1)
    _, as_json, _ = fold(t, harness.JsonRenderer(), events)
    _, as_text, said = fold(t, harness.FinalTextRenderer(), events)
    t.expect([as_json, as_text, said], [False, False, "Error: Agent stopped after max_turns=1\n"],
             "The stop is an assistant message labelled \"error\", so both frontends report it "
             "without knowing about max_turns (lessons 5 and 7).")


@lab_test("A renderer that saw no assistant message has no answer: FinalTextRenderer.finish() "
          "prints nothing and returns False; a new JsonRenderer's finish() returns True.")
async def test_nothing_to_show(t):
    partial = [{"type": "agent_start"}, {"type": "turn_start"},
               {"type": "message_end", "message": harness.user_message("Hello?")}]
    printed, value, said = fold(t, harness.FinalTextRenderer(), partial)
    t.expect([printed, value, said], ["", False, ""],
             "FinalTextRenderer.finish() with no assistant message returns False and prints "
             "nothing (FinalTextRenderer, lesson 7).")
    t.expect(list(fold(t, harness.JsonRenderer(), [])), ["", True, ""],
             "JsonRenderer fails a run only when it saw a failed message (JsonRenderer, lesson 7).")


@lab_test("Only the last assistant message counts: a failed reply earlier in the events does not "
          "stop FinalTextRenderer from printing a later answer.")
async def test_the_last_message_decides(t):
    events = [{"type": "message_end", "message": lab.fail("overloaded")},
              {"type": "message_end", "message": harness.user_message("Try again.")},
              {"type": "message_end", "message": lab.say("Here it is.")},
              {"type": "turn_end", "message": lab.say("Here it is.")}]
    printed, value, said = fold(t, harness.FinalTextRenderer(), events)
    t.expect([printed, value, said], ["", True, "Here it is.\n"],
             "FinalTextRenderer judges by the newest assistant message that a message_end "
             "announced (FinalTextRenderer, lesson 7).")


def _trouble(kind, number):
    """A call that goes wrong in the tool, never in the run: the boundary answers it with an
    error result (lesson 4), and the model can carry on."""
    if kind == "a missing file":
        return lab.call("read", {"path": f"missing{number}.py"})
    if kind == "an unknown tool":
        return lab.call("grep", {"pattern": "TODO"})
    return lab.call("read", {"path": number})  # bad arguments: a path that is not a string


@lab_test("Tool errors are not endings: runs with 0 to 4 tool errors (a missing file, an unknown "
          "tool, bad arguments) at places drawn under the seed end with an answer, a provider "
          "failure or a max_turns stop, and both frontends' finish() judge each run by how it "
          "ended.")
async def test_tool_errors_are_not_endings(t):
    runs, found = [], []
    for ending in ("an answer", "a provider failure", "a max_turns stop"):
        for errors in (0, 1, t.random.randint(2, 4)):
            rounds = t.random.randint(1, 5)
            calls = [lab.call("read", {"path": "app.py"}) for _ in range(rounds + errors)]
            for number, place in enumerate(t.random.sample(range(len(calls)), errors)):
                calls[place] = _trouble(t.random.choice(
                    ("a missing file", "an unknown tool", "bad arguments")), number)
            cuts = sorted(t.random.sample(range(1, len(calls)), rounds - 1))
            replies = [lab.reply(*calls[start:end])
                       for start, end in zip([0] + cuts, cuts + [len(calls)])]
            last = {"an answer": lab.say(f"Tool errors on the way: {errors}. app.py prints ok."),
                    "a provider failure": lab.fail("overloaded"),
                    "a max_turns stop": lab.reply(lab.call("read", {"path": "app.py"}))}[ending]
            model = lab.ScriptedModel(replies + [last])
            ws = lab.Workspace({"app.py": "print('ok')\n"})
            limit = {"max_turns": rounds} if ending == "a max_turns stop" else {}
            events = await lab.drive(harness.run_agent(model, SYSTEM, [], [
                harness.make_read_tool(ws)], "What does app.py print?", **limit))
            _, as_json, _ = fold(t, harness.JsonRenderer(), events)
            _, as_text, said = fold(t, harness.FinalTextRenderer(), events)
            runs.append((ending, errors, rounds))
            found.append([ending, errors, as_json, as_text, said])
    t.expect(found, [[ending, errors, ending == "an answer", ending == "an answer",
                      {"an answer": f"Tool errors on the way: {errors}. app.py prints ok.\n",
                       "a provider failure": "Error: overloaded\n",
                       "a max_turns stop": f"Error: Agent stopped after max_turns={rounds}\n"}
                      [ending]] for ending, errors, rounds in runs],
             "A tool error is not an ending: the boundary makes it a result and the run goes "
             "on, so a run that recovers and answers ended well, and only a reply with "
             "stop_reason \"error\" (a provider failure, or a max_turns stop) means it did not, "
             "whichever frontend reads it. Each item is [how the run ended, tool errors on the "
             "way, JsonRenderer.finish(), FinalTextRenderer.finish(), what FinalTextRenderer "
             "printed] for one run (JsonRenderer and FinalTextRenderer, lessons 4, 5 and 7).")
