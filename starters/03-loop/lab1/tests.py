"""Lesson 3, lab 1: keep going. The tests of run_agent's loop and of the write and bash tools.

run_agent's return value is not part of the contract, so the tests look only at the record
(the caller's list) and at what the model was sent.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 3 tests.py
"""
import harness
import lab
from lab.kit import lab_test, settle, tool

LAB = "3.1"
SYSTEM = "You help with a small project."
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def looker(ran=None):
    """A tool `look` that answers "contents of <path>" and notes each path in `ran`."""
    def fn(arguments):
        if ran is not None:
            ran.append(arguments["path"])
        return "contents of " + arguments["path"]
    return tool("look", fn, PATH)


async def run(model, tools, prompt, messages=None):
    """One run on `messages` (a new list if None), whatever run_agent's colour; the record."""
    messages = [] if messages is None else messages
    await lab.drive(harness.run_agent(model, SYSTEM, messages, tools, prompt))
    return messages


@lab_test("A plain reply ends the run at once: the record is U A, the model is asked once, and "
          "the system prompt reaches it unchanged, beside the messages rather than among them.")
async def test_a_plain_reply(t):
    model = lab.ScriptedModel([lab.say("Hello.")])
    messages = await run(model, [looker()], "Hi.")
    t.expect(lab.shape(messages), "U A",
             "run_agent appends the prompt as a user message, then the reply, to the list it "
             "is given, which starts empty here: the caller's list is the record (run_agent, "
             "lesson 3).")
    t.expect(len(model.calls), 1, "A reply with no calls ends the run: one request (run_agent, "
                                  "lesson 3).")
    t.expect([model.calls[0].system, lab.shape(model.calls[0].messages)], [SYSTEM, "U"],
             "The system prompt is passed as it is, and is not a message in the list "
             "(run_agent, lesson 3).")
    t.expect(messages[0], {"role": "user", "content": "Hi."}, "The prompt is user_message(prompt) "
                                                              "(run_agent, lesson 3).")


@lab_test("One call, then an answer: the record is U A[c1] R(c1) A, and the second request "
          "holds the first three messages.")
async def test_one_call_then_an_answer(t):
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})), lab.say("Done.")])
    messages = await run(model, [looker()], "Look at a.py.")
    t.expect(lab.shape(messages), "U A[c1] R(c1) A",
             "After the result the model is asked again, and the run ends on its answer "
             "(run_agent, lesson 3).")
    t.expect(lab.shape(model.calls[1].messages), "U A[c1] R(c1)",
             "The model remembers nothing: the second request carries everything so far "
             "(run_agent, lessons 1 and 3).")
    t.expect(messages[2]["content"], "contents of a.py", "The result is the tool's output "
                                                         "(run_agent, lesson 3).")


@lab_test("A reply with three calls has all three results recorded, in call order, before the "
          "model is asked again.")
async def test_a_batch_is_answered_in_order(t):
    ran = []
    calls = [lab.call("look", {"path": p}) for p in ("c.py", "a.py", "b.py")]
    model = lab.ScriptedModel([lab.reply(*calls), lab.say("All read.")])
    messages = await run(model, [looker(ran)], "Read them.")
    t.expect(lab.shape(model.calls[1].messages), "U A[c1,c2,c3] R(c1) R(c2) R(c3)",
             "Every call of a reply is answered, in call order, before the next request "
             "(run_agent, lesson 3).")
    t.expect(ran, ["c.py", "a.py", "b.py"], "The tools ran in call order, not sorted (run_agent, "
                                            "lesson 3).")
    t.expect(lab.shape(messages), "U A[c1,c2,c3] R(c1) R(c2) R(c3) A", "Then the answer "
                                                                       "(run_agent, lesson 3).")


@lab_test("Two rounds of tools: U A[c1] R(c1) A[c2] R(c2) A, with three requests.")
async def test_two_rounds(t):
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})),
                               lab.reply(lab.call("look", {"path": "b.py"})),
                               lab.say("Both read.")])
    messages = await run(model, [looker()], "Read a.py, then b.py.")
    t.expect(lab.shape(messages), "U A[c1] R(c1) A[c2] R(c2) A",
             "The loop goes on while replies ask for tools, not just once (run_agent, lesson 3).")
    t.expect([lab.shape(request.messages) for request in model.calls],
             ["U", "U A[c1] R(c1)", "U A[c1] R(c1) A[c2] R(c2)"],
             "Each request carries the whole record so far (run_agent, lesson 3).")


@lab_test("Any number of rounds: jobs of 1 to 250 rounds of tools, drawn under the seed, each "
          "ask the model once per round and once more, and end on its answer; the number of "
          "rounds cannot be written into the loop.")
async def test_any_number_of_rounds(t):
    # The longest job has over 200 rounds whatever the seed, so no loop of range(N) with N up
    # to 201 passes. Its rounds ask for one call each: a later lab's harness that goes over the
    # record once per message before each request (a fair lesson 10 repair) then stays within
    # the practice check's allowance of rounds between two turns.
    jobs = t.random.sample(range(1, 9), 3) + [t.random.randint(9, 40), t.random.randint(201, 250)]
    found, calls_per_job = [], []
    for rounds in jobs:
        widest = 3 if rounds <= 40 else 1
        widths = [t.random.randint(1, widest) for _ in range(rounds)]
        calls_per_job.append(sum(widths))
        model = lab.ScriptedModel(
            [lab.reply(*[lab.call("look", {"path": f"r{r}_{c}.py"}) for c in range(width)])
             for r, width in enumerate(widths)] + [lab.say("All read.")])
        messages = await run(model, [looker()], f"Read the files, {rounds} rounds of them.")
        found.append([len(model.calls), lab.shape(messages).split()[-1],
                      sum(m["role"] == "toolResult" for m in messages)])
    t.expect(found, [[rounds + 1, "A", calls] for rounds, calls in zip(jobs, calls_per_job)],
             "The loop goes on while replies ask for tools, however many rounds that takes: "
             "one request per round of tools, one more for the answer, every call answered. "
             "Each item is [requests, the record's last message, results] for one job "
             "(run_agent, lesson 3).")


@lab_test("The caller's list is the record: it grows in place, and a second run on the same "
          "list carries the conversation on.")
async def test_the_callers_list_is_the_record(t):
    model = lab.ScriptedModel([lab.say("Hello, Ada."), lab.say("You are Ada.")])
    messages = [harness.user_message("Earlier: my name is Ada."), lab.say("Noted.")]
    same = messages
    await run(model, [], "Hi.", messages)
    t.expect([same is messages, lab.shape(messages)], [True, "U A U A"],
             "run_agent appends to the list it is given, not to a list of its own (run_agent, "
             "lesson 3).")
    await run(model, [], "Who am I?", messages)
    t.expect(lab.shape(model.calls[1].messages), "U A U A U",
             "A second run on the same list sends the earlier conversation too (run_agent, lesson "
             "3).")
    t.expect(lab.shape(messages), "U A U A U A", "And the record holds both runs (run_agent, "
                                                 "lesson 3).")


@lab_test("A long conversation is sent whole: after 40 earlier messages, the first request "
          "carries all 41, the oldest first.")
async def test_a_long_conversation_is_sent_whole(t):
    messages = [harness.user_message("My name is Ada.")]
    for number in range(1, 40):
        messages.append(lab.say(f"Noted, {number}.") if number % 2 else
                        harness.user_message(f"Remark {number}."))
    model = lab.ScriptedModel([lab.say("You are Ada.")])
    await run(model, [], "Who am I?", messages)
    sent = model.calls[0].messages
    t.expect([len(sent), sent[0]["content"], sent[-1]["content"]],
             [41, "My name is Ada.", "Who am I?"],
             "The model remembers nothing: every request carries the whole record so far, "
             "however long, and a window of recent messages drops what the user said first "
             "(here, 40 earlier messages and the prompt) (run_agent, lessons 1 and 3).")


@lab_test("Every request carries tool_specs(tools): the three keys of each tool, in order, and "
          "no functions.")
async def test_every_request_carries_the_specs(t):
    tools = [looker(), tool("bash", lambda a: "", description="Run a command.")]
    model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})), lab.say("Done.")])
    await run(model, tools, "Look.")
    t.expect([[spec["name"] for spec in request.tools] for request in model.calls],
             [["look", "bash"], ["look", "bash"]],
             "Both requests tell the model about every tool, in order (run_agent, lesson 3).")
    t.expect([[sorted(spec) for spec in request.tools] for request in model.calls],
             [[["description", "name", "parameters"]] * 2] * 2,
             "What the model is told is tool_specs(tools): execute never leaves the program "
             "(tool_specs, lesson 2).")
    t.expect([request.tools == harness.tool_specs(tools) for request in model.calls], [True, True],
             "Each request's tools equal tool_specs(tools) (run_agent, lesson 3).")


@lab_test("A reply with words and a call still has its call run: text does not mean the job is "
          "done.")
async def test_words_and_a_call(t):
    ran = []
    model = lab.ScriptedModel([lab.reply("Let me check the file first.",
                                         lab.call("look", {"path": "setup.py"})),
                               lab.say("It installs the package.")])
    messages = await run(model, [looker(ran)], "What does setup.py do?")
    t.expect([lab.shape(messages), ran], ["U A[c1] R(c1) A", ["setup.py"]],
             "Whether a reply asks for tools is decided by its calls, not by whether it has "
             "words (run_agent, lesson 3).")


@lab_test("The content decides, not the label: a reply labelled stop that carries a call has it "
          "run, and a reply labelled toolUse with no calls ends the run.")
async def test_the_content_decides(t):
    ran = []
    mislabelled = {"role": "assistant", "content": [lab.call("look", {"path": "a.py"})],
                   "stop_reason": "stop"}
    empty_promise = {"role": "assistant", "content": [{"type": "text", "text": "Done."}],
                     "stop_reason": "toolUse"}
    model = lab.ScriptedModel([mislabelled, empty_promise, lab.say("never asked")])
    messages = await run(model, [looker(ran)], "Look at a.py.")
    t.expect([lab.shape(messages), ran, len(model.calls)], ["U A[c1] R(c1) A", ["a.py"], 2],
             "run_agent reads the calls off the content with tool_calls; the stop_reason label "
             "can be wrong (run_agent, lesson 3).")


@lab_test("make_write_tool(ws) makes a tool named write that needs path and content, creates the "
          "file and returns exactly \"Successfully wrote to notes.txt.\"; writing again "
          "replaces the whole file.")
async def test_the_write_tool(t):
    ws = lab.Workspace({"a.py": "print(1)\n"})
    write = harness.make_write_tool(ws)
    t.expect([write["name"], sorted(write["parameters"]["required"])],
             ["write", ["content", "path"]],
             "The write tool is called write and requires path and content (make_write_tool, "
             "lesson 3).")
    said = await settle(write["execute"]({"path": "notes.txt", "content": "buy milk\n"}))
    t.expect(said, "Successfully wrote to notes.txt.",
             "write says what it did, in exactly these words (make_write_tool, lesson 3).")
    t.expect(ws.files, {"a.py": "print(1)\n", "notes.txt": "buy milk\n"},
             "The file exists with the given content, and nothing else changed (make_write_tool, "
             "lesson 3).")
    await settle(write["execute"]({"path": "notes.txt", "content": "buy bread\n"}))
    t.expect(ws.read_text("notes.txt"), "buy bread\n", "A second write replaces the whole file "
                                                       "(make_write_tool, lesson 3).")


@lab_test("make_bash_tool(shell) makes a tool named bash that needs a command; `echo hi` "
          "returns \"hi\\n\".")
async def test_the_bash_tool(t):
    ws = lab.Workspace({"src/app.py": "print(1)\n"})
    bash = harness.make_bash_tool(lab.Shell(ws))
    t.expect([bash["name"], bash["parameters"]["required"]], ["bash", ["command"]],
             "The bash tool is called bash and requires a command (make_bash_tool, lesson 3).")
    t.expect(await settle(bash["execute"]({"command": "echo hi"})), "hi\n",
             "bash returns what the command printed (make_bash_tool, lesson 3).")
    t.expect(await settle(bash["execute"]({"command": "ls src"})), "app.py\n",
             "It runs in the shell over the workspace (make_bash_tool, lesson 3).")


@lab_test("A file written in turn 1 is there for a read in turn 2: the tools share one "
          "workspace, and the loop runs them in order.")
async def test_a_write_then_a_read(t):
    ws = lab.Workspace({})
    tools = [harness.make_read_tool(ws), harness.make_write_tool(ws),
             harness.make_bash_tool(lab.Shell(ws))]
    model = lab.ScriptedModel([
        lab.reply(lab.call("write", {"path": "plan.md", "content": "1. test\n2. ship\n"})),
        lab.reply(lab.call("read", {"path": "plan.md"}),
                  lab.call("bash", {"command": "cat plan.md"})),
        lab.say("The plan has two steps.")])
    messages = await run(model, tools, "Write a plan, then check it.")
    t.expect(lab.shape(messages), "U A[c1] R(c1) A[c2,c3] R(c2) R(c3) A",
             "Three calls over two turns, each answered (run_agent, lesson 3).")
    t.expect([m["content"] for m in messages if m["role"] == "toolResult"],
             ["Successfully wrote to plan.md.", "1. test\n2. ship\n", "1. test\n2. ship\n"],
             "The read and the command in turn 2 see the file the write made in turn 1 (run_agent, "
             "lesson 3).")
    t.expect(lab.validate(messages), [], "The record is a transcript a provider accepts "
                                         "(run_agent, lesson 3).")
