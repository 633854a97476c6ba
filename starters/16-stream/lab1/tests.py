"""Lesson 16, lab 1: put the pieces together. The tests of decode_line, assemble and to_wire: a
streamed reply read line by line, added up into one assistant message, and a request written in
the provider's shape.

Check your file with: python lab/lab_check.py --harness harness.py --lesson 16 tests.py
"""
import json

import harness
import lab
from lab.kit import lab_test, raised, sealed, tool

LAB = "16.1"
SYSTEM = "You help with a small project."
CAFE = {"path": "notes/caf\u00e9.md"}  # json.dumps writes the é as the escape \u00e9


def chunks(lines):
    """The chunks of `lines` as the wire sends them, read without your decode_line: each
    `data:` payload parsed, and the [DONE] line left out."""
    return [json.loads(line[len("data: "):]) for line in lines
            if line.startswith("data: ") and line != "data: [DONE]"]


def text_chunk(words):
    return {"choices": [{"index": 0, "delta": {"content": words}}]}


def call_chunk(index, arguments, *, id=None, name=None):
    """One tool-call fragment; only a call's first fragment carries its id and name."""
    fragment = {"index": index, "function": {"arguments": arguments}}
    if id is not None:
        fragment.update({"id": id, "type": "function"})
        fragment["function"]["name"] = name
    return {"choices": [{"index": 0, "delta": {"tool_calls": [fragment]}}]}


def finish(reason):
    return {"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}


@lab_test("decode_line reads the four kinds of line: a data line gives its chunk, "
          "`data: [DONE]` gives STREAM_DONE, a blank line, a keep-alive comment or another "
          "field gives None, and a data line that is not a JSON object raises ValueError.")
async def test_decode_line_reads_four_kinds_of_line(t):
    t.expect(harness.decode_line('data: {"choices": [{"index": 0, "delta": {"content": "Hi"}}]}'),
             {"choices": [{"index": 0, "delta": {"content": "Hi"}}]},
             "A `data:` line holds one chunk: its payload, parsed as JSON (decode_line, "
             "lesson 16).")
    long = "A long line, read whole. " * t.random.randint(200, 4000)  # drawn: no one length
    line, got = "data: " + json.dumps(text_chunk(long)), []
    t.expect([await raised(lambda: got.append(harness.decode_line(line))), got == [text_chunk(long)]],
             [None, True],
             f"A data line of {len(line)} characters, one delta of that many words: a data line "
             "gives its chunk however long the line, and nothing is refused for its length. "
             "Items: [what decode_line raised, None when nothing, its answer is the chunk] "
             "(decode_line, Build item 1, lesson 16).")
    t.expect(harness.decode_line('data:{"choices": []}'), {"choices": []},
             "The space after `data:` is optional on the wire (decode_line, lesson 16).")
    t.expect([harness.STREAM_DONE, harness.decode_line("data: [DONE]")], ["[DONE]", "[DONE]"],
             "`data: [DONE]` ends the reply: decode_line gives STREAM_DONE, which is \"[DONE]\" "
             "(decode_line, lesson 16).")
    t.expect([harness.decode_line(line) for line in ("", ": keep-alive", "event: ping",
                                                     "id: 7")],
             [None, None, None, None],
             "A blank line, a `:` comment (a keep-alive) and any field other than data carry "
             "nothing: decode_line gives None for each of '', ': keep-alive', 'event: ping' "
             "and 'id: 7' (decode_line, lesson 16).")
    t.expect([await raised(lambda: harness.decode_line('data: {"choices": [')),
              await raised(lambda: harness.decode_line("data: 42")),
              await raised(lambda: harness.decode_line("data: [1, 2] ")),
              await raised(lambda: harness.decode_line("data: [done]"))],
             ["ValueError: not a stream line: 'data: {\"choices\": ['",
              "ValueError: not a stream line: 'data: 42'",
              "ValueError: not a stream line: 'data: [1, 2] '",
              "ValueError: not a stream line: 'data: [done]'"],
             "A data payload that is not a JSON object is a broken provider, not a line to "
             "skip: raise ValueError(f\"not a stream line: {line!r}\"), the repr of the line "
             "exactly as it came, the space after 'data: [1, 2]' included, not of the line "
             "stripped. 'data: [done]' is such a line too: the marker is `data: [DONE]`, "
             "spelled as the wire spells it, and a payload in other letters is neither the "
             "marker nor a JSON object (decode_line, Build item 1, lesson 16).")
    for line in ['data: {"choices": [{"delta": {"content": "Hi"}}]}',
                 'error: {"message": "overloaded"}', 'data: {"usage": {"total": 3}}']:
        first = harness.decode_line(line)
        kept = json.loads(json.dumps(first))
        inside, walk = [], [first]  # every dict and list in the chunk, however deep
        while walk:
            held = walk.pop()
            for value in held.values() if isinstance(held, dict) else held:
                if isinstance(value, (dict, list)):
                    inside.append(value)
                    walk.append(value)
        for inner in inside:
            inner.append("seen") if isinstance(inner, list) else inner.update(seen=True)
        first["seen"] = True
        again = harness.decode_line(line)
        t.expect([again is first, "seen" in again, again == kept], [False, False, True],
                 "Each call gives a new dict, even for a line read before: a caller may change "
                 f"what it was given (Build item 1). {line!r} was decoded, the caller wrote into "
                 "what it got, at its top and inside it at every depth (a key in each dict it "
                 "holds, an item on each list, down to the choice's delta), and the line was "
                 "decoded again. Items: [the second answer is the first, it holds the caller's "
                 "key, it is what the line said before the caller wrote]: a copy of the top alone, "
                 "or of its first two levels, still shares what is deeper inside it "
                 "(decode_line, lesson 16).")


@lab_test("Text that arrives in many small deltas becomes one text block, exactly as written, "
          "whitespace at its ends included, and the reply's stop_reason is \"stop\".")
async def test_fragmented_text_becomes_one_block(t):
    lines = lab.stream_lines(lab.say("The build passes on Python 3.12."), piece=4)
    t.expect(harness.assemble(chunks(lines)),
             {"role": "assistant", "stop_reason": "stop",
              "content": [{"type": "text", "text": "The build passes on Python 3.12."}]},
             f"The reply came as {len(lines) - 2} text deltas of 4 characters, then "
             "finish_reason \"stop\". Its words are joined into one text block, and with no "
             "calls the label is \"stop\" (assemble, lesson 16).")
    edged = "\n\n  Fixed:\n```\nx = 1\n```\n"
    t.expect(harness.assemble(chunks(lab.stream_lines(lab.say(edged), piece=3)))["content"],
             [{"type": "text", "text": edged}],
             f"The reply's words were {edged!r}, in deltas of 3 characters. The text block holds "
             "them exactly as the model wrote them: the blank lines and spaces it began with and "
             "the newline it ended with stay (assemble, lesson 16).")
    essay = "".join(f"Line {n} of the log is read. " for n in range(1, 15))
    t.expect(harness.assemble(chunks(lab.stream_lines(lab.say(essay), piece=1)))["content"],
             [{"type": "text", "text": essay}],
             f"A longer reply, {len(essay)} characters streamed one a chunk, as a real server "
             "sends a long answer: every chunk of the reply is read, however many there are, "
             "and its words are all in the text block (assemble, lesson 16).")
    # Drawn: no one length, thousands of characters and then up to a million (a long file's
    # worth of words is a few strings joined, so size costs nothing here).
    for many in (t.random.randint(200, 4000), t.random.randint(4000, 40000)):
        long = "A long answer, read whole. " * many
        cuts = sorted(t.random.sample(range(1, len(long)), 3))
        parts = [long[a:b] for a, b in zip([0] + cuts, cuts + [len(long)])]
        reply = harness.assemble([text_chunk(part) for part in parts] + [finish("stop")])
        t.expect([reply.get("stop_reason"),
                  [len(block.get("text", "")) for block in reply["content"]],
                  harness.text_of(reply) == long], ["stop", [len(long)], True],
                 f"A reply of {len(long):,} characters in {len(parts)} deltas of thousands "
                 "each. Items: [its stop_reason, the length of each block, the text is the words "
                 "as written]: the words are one text block, exactly as written, however long, "
                 "not the first part of them, whatever the count (assemble, lesson 16).")
    blank = [[text_chunk("\n\n"), call_chunk(0, "{}", id="c1", name="status"),
              finish("tool_calls")], [text_chunk(" "), finish("stop")]]
    t.expect([[reply.get("stop_reason"), reply["content"][:1]]
              for reply in [harness.assemble(stream) for stream in blank]],
             [["toolUse", [{"type": "text", "text": "\n\n"}]],
              ["stop", [{"type": "text", "text": " "}]]],
             "Each item is [the reply's stop_reason, its first block] for a reply whose only "
             "words are whitespace: '\\n\\n' before a call, and ' ' alone, finished with "
             "\"stop\". Whitespace is words: it is kept as written, and a reply of one space is "
             "not an empty one, so it is no \"error\" saying The provider sent an empty reply "
             "(assemble, lesson 16).")
    late = [text_chunk("Done"), finish("stop"), text_chunk(" here."),
            {"choices": [{"index": 0, "delta": {"content": "!"}, "finish_reason": None}]}]
    t.expect(harness.assemble(late),
             {"role": "assistant", "stop_reason": "stop",
              "content": [{"type": "text", "text": "Done here.!"}]},
             "The chunks were the words 'Done', finish_reason \"stop\", then ' here.' and '!' "
             "(the last beside a null finish_reason). Words that come after the finish are "
             "words of the reply: every chunk is read, to the end, and what it carries counts; "
             "a null finish_reason after it takes nothing back (assemble, the lab's Build, "
             "item 2).")


@lab_test("A call whose arguments are split inside a string, and inside the escape "
          "\\u00e9, is parsed once, whole and right; its id and name come from its first "
          "fragment, and the reply is \"toolUse\".")
async def test_split_arguments_are_parsed_once(t):
    message = lab.reply("Reading it.", lab.call("read", CAFE, id="call_7"))
    lines = lab.stream_lines(message, piece=3)
    fragments = [c["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"]
                 for c in chunks(lines) if "tool_calls" in c["choices"][0]["delta"]]
    read = {"role": "assistant", "stop_reason": "toolUse",
            "content": [{"type": "text", "text": "Reading it."},
                        {"type": "toolCall", "id": "call_7", "name": "read",
                         "arguments": {"path": "notes/caf\u00e9.md"}}]}
    t.expect(harness.assemble(chunks(lines)), read,
             f"The arguments arrived as {fragments!r}; only the first fragment carried the id "
             "call_7 and the name read. No fragment is JSON on its own: join them, then parse "
             "once, at the end (assemble, lesson 16).")
    t.expect(harness.assemble(chunks(lab.stream_lines(message, piece=1)))["content"][1],
             {"type": "toolCall", "id": "call_7", "name": "read",
              "arguments": {"path": "notes/caf\u00e9.md"}},
             "The same call, one character per fragment: the backslash of \\u00e9 arrives "
             "alone, and still only the joined string is parsed (assemble, lesson 16).")
    # Past 4,096 fragments and past 10,000 chunks, with no one count to stop at; the chunks past
    # the fragments are words, since a design that parses the joined fragments at each one (a
    # wrong one, of another rule) pays for their count squared, and must not be stopped here.
    size = t.random.randint(4_200, 6_000)
    words = t.random.randint(6_000, 8_000)
    text = json.dumps({"path": "a" * (size - 12)})  # size characters, one a fragment
    many = [text_chunk("w") for _ in range(words)]
    many += [call_chunk(0, text[0], id="call_8", name="read")]
    many += [call_chunk(0, part) for part in text[1:]] + [finish("tool_calls")]
    reply = harness.assemble(many)
    t.expect([reply.get("stop_reason"),
              sum(len(block.get("text", "")) for block in reply.get("content", [])
                  if block.get("type") == "text"),
              [len(call["arguments"].get("path", "")) for call in harness.tool_calls(reply)
               if isinstance(call["arguments"], dict)]], ["toolUse", words, [size - 12]],
             f"{words} chunks of one letter of words, then one call whose arguments, {size} "
             "characters, came one character a fragment, each in a chunk of its own: "
             f"{words + size + 1} chunks. Items: [the reply's stop_reason, the length of its "
             "words, the length of each call's path]: every chunk is read, to the end, and the "
             "call's arguments are all its fragments joined, however long, however many there "
             "are (assemble, lesson 16).")
    big = {"path": "notes/" + "b" * t.random.randint(5_000, 100_000)}  # drawn: no one length
    text = json.dumps(big)
    cuts = sorted(t.random.sample(range(1, len(text)), 2))
    parts = [text[a:b] for a, b in zip([0] + cuts, cuts + [len(text)])]
    reply = harness.assemble([call_chunk(0, parts[0], id="call_9", name="read")]
                             + [call_chunk(0, part) for part in parts[1:]] + [finish("tool_calls")])
    t.expect([reply.get("stop_reason"),
              [len(call["arguments"].get("path", "")) for call in harness.tool_calls(reply)]],
             ["toolUse", [len(big["path"])]],
             f"One call whose arguments, {len(text)} characters, came in {len(parts)} fragments "
             "of thousands each. Items: [the reply's stop_reason, the length of each call's "
             "path]: the call's arguments are all its fragments joined, however long, and a "
             "JSON object of any length is an object, no broken call (assemble, lesson 16).")
    t.expect(harness.assemble(iter(chunks(lines))), read,
             "The same chunks handed over as an iterator, which can be walked only once, as "
             "chunks decoded on the fly are: the chunks are walked once, and what the judging "
             "needs is kept as they go by (assemble, lesson 16).")


@lab_test("Two calls whose fragments take turns each get their own arguments, matched by "
          "index, and the calls stand in index order; a delta of over 1,000 whole calls gives "
          "them all.")
async def test_interleaved_calls_are_matched_by_index(t):
    stream = [text_chunk("Two things."),
              call_chunk(1, '{"comm', id="c_bash", name="bash"),
              call_chunk(0, '{"path', id="c_read", name="read"),
              call_chunk(0, '": "src'),
              call_chunk(1, 'and": "py'),
              call_chunk(0, '/app.py"}'),
              call_chunk(1, 'test -q"}'),
              finish("tool_calls")]
    t.expect(harness.assemble(stream)["content"],
             [{"type": "text", "text": "Two things."},
              {"type": "toolCall", "id": "c_read", "name": "read",
               "arguments": {"path": "src/app.py"}},
              {"type": "toolCall", "id": "c_bash", "name": "bash",
               "arguments": {"command": "pytest -q"}}],
             "The fragments, in the order they came: bash's first ('{\"comm', index 1, with "
             "its id and name), read's first ('{\"path', index 0), then '\": \"src' (0), "
             "'and\": \"py' (1), '/app.py\"}' (0), 'test -q\"}' (1). A fragment belongs to the "
             "call its index names, not to the newest call, and the calls are ordered by "
             "index (assemble, lesson 16).")
    count = t.random.randint(1_030, 1_400)  # drawn past 1,024: no one count to stop at
    many = [{"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": n, "id": f"c{n}", "type": "function",
         "function": {"name": "read", "arguments": json.dumps({"path": f"f{n}.py"})}}
        for n in reversed(range(count))]}}]}, finish("tool_calls")]
    blocks = harness.assemble(many)["content"]
    t.expect([len(blocks), blocks[0], blocks[-1]],
             [count, {"type": "toolCall", "id": "c0", "name": "read",
                      "arguments": {"path": "f0.py"}},
              {"type": "toolCall", "id": f"c{count - 1}", "name": "read",
               "arguments": {"path": f"f{count - 1}.py"}}],
             f"One chunk whose delta holds {count} whole calls, at indexes {count - 1} down to "
             "0, as a server "
             "that sends every call of a reply in one chunk (Ollama) would. The items are how "
             "many calls the reply holds, its first and its last: every fragment of a delta is "
             "read and every call is in the reply, however many there are, in index order "
             "(assemble, lesson 16).")
    low = t.random.randint(1000, 10 ** 6)  # drawn: no one index to stop at
    high = low + t.random.randint(1, 1000)
    huge = t.random.randint(10 ** 9, 10 ** 18)  # drawn: an index has no ceiling
    top = huge + t.random.randint(1, 10 ** 18)  # past huge, and sent before it
    far = [call_chunk(high, '{"command": "ls"}', id="c_high", name="bash"),
           call_chunk(top, '{"path": "c.py"}', id="c_top", name="read"),
           call_chunk(huge, '{"path": "b.py"}', id="c_huge", name="read"),
           call_chunk(low, '{"path": "a.py"}', id="c_low", name="read"), finish("tool_calls")]
    t.expect([block["id"] for block in harness.assemble(far)["content"]],
             ["c_low", "c_high", "c_huge", "c_top"],
             f"Four whole calls, c_high at index {high} first, then c_top at index {top}, then "
             f"c_huge at index {huge}, then c_low at index {low}. The "
             "items are the reply's call ids. An index is the call's place however large it "
             "is: the calls stand in index order, not the order they began (assemble, "
             "lesson 16).")


@lab_test("A call whose arguments never arrive, or arrive as empty fragments, gets the "
          "arguments {}.")
async def test_empty_arguments_mean_no_arguments(t):
    stream = [call_chunk(0, "", id="c1", name="list_files"),
              {"choices": [{"index": 0, "delta": {"tool_calls": [
                  {"index": 1, "id": "c2", "type": "function", "function": {"name": "status"}}]}}]},
              finish("tool_calls")]
    t.expect(harness.assemble(stream)["content"],
             [{"type": "toolCall", "id": "c1", "name": "list_files", "arguments": {}},
              {"type": "toolCall", "id": "c2", "name": "status", "arguments": {}}],
             "c1's arguments are the empty string, and c2's first fragment has no arguments "
             "key at all. No arguments is the empty object, {}: json.loads(\"\") is an error, "
             "so an empty text is not parsed (assemble, lesson 16).")
    count = t.random.randint(4, 7)  # drawn: no one count to stop at
    bare = [{"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": n, "id": f"c{n}", "type": "function", "function": {"name": "status"}}]}}]}
        for n in range(count)] + [finish("tool_calls")]
    t.expect(harness.assemble(bare)["content"],
             [{"type": "toolCall", "id": f"c{n}", "name": "status", "arguments": {}}
              for n in range(count)],
             f"{count} calls, c0 to c{count - 1}, none of them with an arguments key, and no "
             "words, then finish \"tool_calls\". Each call's arguments never arrive, so each "
             "gets {}, however many such calls the reply holds; a reply of calls is not an "
             "empty reply, words or none (assemble, lesson 16).")


@lab_test("An error chunk, a stream with no finish_reason, and a finish_reason of "
          "\"length\" or \"content_filter\" each give an \"error\" reply with its exact "
          "sentence, keeping the words and dropping every call; an error chunk before or after "
          "a finish is reported over it.")
async def test_replies_that_did_not_arrive_whole_fail(t):
    start = [text_chunk("Let me "), text_chunk("check."),
             call_chunk(0, '{"path": "a.py"}', id="c1", name="read")]
    cases = {"an error chunk": start + [{"error": {"message": "overloaded"}}],
             "no finish_reason": start,
             "finish_reason length": start + [finish("length")],
             "finish_reason content_filter": start + [finish("content_filter")],
             "an error chunk, then finish_reason length": start + [
                 {"error": {"message": "overloaded"}}, finish("length")],
             "finish_reason stop, then an error chunk": start + [
                 finish("stop"), {"error": {"message": "overloaded"}}],
             "an error chunk, then another saying busy": start + [
                 {"error": {"message": "overloaded"}}, {"error": {"message": "busy"}}],
             "finish_reason stop, then finish_reason length": start + [
                 finish("stop"), finish("length")],
             "one chunk holding an error and finish_reason content_filter": start + [
                 {"error": {"message": "overloaded"}, **finish("content_filter")}]}
    for label, stream in cases.items():
        t.expect([label, harness.assemble(stream)],
                 [label, {"role": "assistant", "stop_reason": "error",
                          "content": [{"type": "text", "text": "Let me check."}],
                          "error_message": {
                              "an error chunk": "overloaded",
                              "an error chunk, then finish_reason length": "overloaded",
                              "finish_reason stop, then an error chunk": "overloaded",
                              "an error chunk, then another saying busy": "overloaded",
                              "one chunk holding an error and finish_reason content_filter":
                                  "overloaded",
                              "finish_reason stop, then finish_reason length":
                                  "The reply was cut off at the output limit",
                              "no finish_reason": "The stream ended before the reply was finished",
                              "finish_reason length": "The reply was cut off at the output limit",
                              "finish_reason content_filter":
                                  "The provider's content filter stopped the reply",
                          }[label]}],
                 "The reply said 'Let me check.' and started read(c1) with whole arguments, then "
                 f"{label} ended it. A reply that did not arrive whole is an \"error\" that says "
                 "why; it keeps its words and drops every call, even one that looks complete. "
                 "An error chunk is the table's first reason after Stop: it is reported "
                 "whatever finish came before or after it, or beside it in its own chunk "
                 "(a chunk with an \"error\" key is an error chunk, choices or not, and "
                 "the error row stands above content_filter's), so every chunk is read, to the "
                 "end. Of two error chunks the first is the reason, and of two finishes the "
                 "last is the finish (assemble, lesson 16, Build item 2: \"When two chunks "
                 "carry an error, the first one's is the reason reported\").")
    t.expect([harness.assemble(start + [finish("length"), finish("stop")]).get("stop_reason"),
              harness.assemble(start + [finish("content_filter"), finish("tool_calls")]).get(
                  "stop_reason")],
             ["toolUse", "toolUse"],
             "The same words and read(c1), then finish_reason length followed by stop, then "
             "content_filter followed by tool_calls. The items are the two replies' stop_reason. "
             "Of two finishes the last is the finish, in either order: a cut that a later finish "
             "follows is no longer the finish, so the reply arrived whole (assemble, lesson 16, "
             "Build item 2).")
    shapes = {"{\"error\": {}}, then finish_reason stop": [{"error": {}}, finish("stop")],
              "{\"error\": \"\"}, then finish_reason stop": [{"error": ""}, finish("stop")],
              "one chunk holding both the words ' More' and an error": [
                  {"choices": [{"index": 0, "delta": {"content": " More"}}],
                   "error": {"message": "overloaded"}}]}
    t.expect([[label, reply.get("stop_reason"), reply.get("content")] for label, reply in
              [[label, harness.assemble(start + more)] for label, more in shapes.items()]],
             [[label, "error", [{"type": "text", "text": "Let me check." + (
                 " More" if "More" in label else "")}]] for label in shapes],
             "Each item is [what followed 'Let me check.' and read(c1), the reply's "
             "stop_reason, its content]. An error chunk is a chunk with an \"error\" key, "
             "whatever that key holds, even an empty dict or string (test the key, not the "
             "truth of its value); and the words that ride in the error's own chunk arrived, "
             "so the failed reply keeps them with the rest (assemble, lesson 16).")
    found, worded = [], []
    for said in ({"code": 503, "type": "overloaded"},
                 {"message": None, "code": 503, "type": "overloaded"}, 503,
                 {"code": 503, "type": "overloaded", "detail": "queue full"},
                 {"message": 503, "type": "overloaded"}):
        reply = harness.assemble(start + [{"error": said}])
        message = reply.get("error_message")
        worded.append([said, message])
        found.append([said, reply.get("stop_reason"), type(message).__name__,
                      [word for word in ("503", "overloaded", "queue full")
                       if word in str(message)]])
    t.expect(found,
             [[{"code": 503, "type": "overloaded"}, "error", "str", ["503", "overloaded"]],
              [{"message": None, "code": 503, "type": "overloaded"}, "error", "str",
               ["503", "overloaded"]],
              [503, "error", "str", ["503"]],
              [{"code": 503, "type": "overloaded", "detail": "queue full"}, "error", "str",
               ["503", "overloaded", "queue full"]],
              [{"message": 503, "type": "overloaded"}, "error", "str", ["503"]]],
             "Each item is [what the error chunk's \"error\" held, the reply's stop_reason, the "
             "type of its error_message, which of 503, overloaded and queue full that holds]: a "
             "dict with no \"message\", a dict whose \"message\" is null (a null counts as left "
             "out), the number 503 (what decode_line makes of `error: 503`), and a dict with no "
             "message whose \"detail\" says more: all it says is kept, not the fields you "
             "expect alone; last, a dict whose \"message\" is the number 503, reported as "
             "its message, as text. An error with no message "
             "is reported as what it says as text: a str holding what the server said, never "
             "None, a number, or a fixed sentence of your own: the table's error-chunk row in "
             "the lab's Build, item 2 (assemble, lesson 16).")
    long = "the queue is full, try later; " * t.random.randint(200, 3000)  # drawn: 6,000 and more
    t.expect([len(harness.assemble(start + [{"error": said}]).get("error_message") or "")
              for said in ({"message": long}, {"code": 503, "detail": long})],
             [len(long), len(str({"code": 503, "detail": long}))],
             f"Each item is the length of the error_message of a reply whose error chunk held a "
             f"message of {len(long)} characters, then a dict with no message whose \"detail\" "
             "is that text: a message is reported whole, however long, and an error with no "
             "message as str() of it, whole: all it says is kept, not the first part of it "
             "(the table's error-chunk row in the lab's Build, item 2; assemble, lesson 16).")
    t.expect(worded, why="Each item is [what the error chunk's \"error\" held, the reply's "
             "error_message], for the same five errors: one with no message is reported as str() "
             "of it, as Python writes it ({'code': 503, ...}, not JSON), and a message as text: "
             "the table's error-chunk row in the lab's Build, item 2 (assemble, lesson 16).")


@lab_test("Arguments that are not a JSON object, whether cut short, a JSON list, whitespace, "
          "two objects one after the other, or a value sent already parsed that is no object, "
          "give an \"error\" reply with no call block, and a harness given that reply runs no "
          "tool.")
async def test_broken_arguments_fail_the_reply(t):
    cut = [text_chunk("Writing."), call_chunk(0, '{"path": "a.py", "content": "x = ', id="c4",
                                              name="write"),
           finish("tool_calls")]
    t.expect(harness.assemble(cut),
             {"role": "assistant", "stop_reason": "error",
              "content": [{"type": "text", "text": "Writing."}],
              "error_message": "Tool call c4 (write) arrived with arguments that are not a "
                               "JSON object"},
             "write(c4)'s arguments stop at '{\"path\": \"a.py\", \"content\": \"x = ' and yet "
             "the stream finished. They do not parse, so the reply fails, naming the call, "
             "and keeps no call block (assemble, lesson 16).")
    t.expect(harness.assemble(cut[:-1])["error_message"],
             "The stream ended before the reply was finished",
             "The same stream cut off before its finish: the arguments are broken because the "
             "stream stopped, and the earlier cause is the one to report, the table's first "
             "that applies (assemble, lesson 16).")
    t.expect([harness.assemble(cut[:-1] + [finish(reason)]).get("error_message")
              for reason in ("length", "content_filter")],
             ["The reply was cut off at the output limit",
              "The provider's content filter stopped the reply"],
             "The same stream cut inside write(c4)'s arguments, then finish_reason \"length\", "
             "then \"content_filter\": the arguments are broken because the reply was cut, "
             "and the finish that cut it comes before broken arguments in the table, so it is "
             "the one reported (assemble, lesson 16).")
    two = [call_chunk(0, '{"path": ', id="c2a", name="read"),
           call_chunk(1, '["b.py"]', id="c2b", name="write"), finish("tool_calls")]
    late = [call_chunk(1, '["b.py"]', id="c3b", name="write"),
            call_chunk(0, '{"path": ', id="c3a", name="read"), finish("tool_calls")]
    t.expect([harness.assemble(two).get("error_message"),
              harness.assemble(late).get("error_message")],
             ["Tool call c2a (read) arrived with arguments that are not a JSON object",
              "Tool call c3a (read) arrived with arguments that are not a JSON object"],
             "In each stream both calls are broken: first read(c2a) at index 0 ('{\"path\": ') "
             "and write(c2b) at index 1 ('[\"b.py\"]'); then the same, but write(c3b) at "
             "index 1 began first and read(c3a) at index 0 after it. The sentence names the "
             "first such call in the calls' order, which is the order of their index, not "
             "the order they arrived in, nor the last one looked at, as the lab's Build, item 2, "
             "says (assemble, lesson 16).")
    listed = [call_chunk(0, '["a.py"]', id="c5", name="read"), finish("tool_calls")]
    t.expect(harness.assemble(listed),
             {"role": "assistant", "stop_reason": "error", "content": [],
              "error_message": "Tool call c5 (read) arrived with arguments that are not a "
                               "JSON object"},
             "read(c5)'s arguments are '[\"a.py\"]': JSON, but not an object, and a tool "
             "takes an object (assemble, lesson 16).")
    nothing = t.random.sample(["null", "0", "[]", "\"a.py\"", "true"], 5) + [
        " ", "\n", '{"path": "a\nb.py"}', '{"limit": NaN}', '{"limit": -Infinity}', "Infinity"]
    t.expect([[text, harness.assemble([call_chunk(0, text, id="c6", name="read"),
                                       finish("tool_calls")]).get("error_message")]
              for text in nothing],
             [[text, "Tool call c6 (read) arrived with arguments that are not a JSON object"]
              for text in nothing],
             "Each item is [the arguments' text, the reply's error_message]. The first five "
             "parse, but to no object; whitespace alone does not parse at all, nor does an "
             "object whose string holds a line break as it is (JSON writes it \\n; a lenient "
             "parse that takes it reads what is not JSON): each fails the reply, however empty "
             "or whole it looks; only an empty text means {}. The last three hold NaN or "
             "Infinity, which Python's json.loads reads but JSON has not: they are not a JSON "
             "object either (assemble, the lab's Build, item 2).")
    words = [call_chunk(0, '{"path": "NaN.txt", "note": "-Infinity"}', id="c9", name="read"),
             finish("tool_calls")]
    t.expect(harness.assemble(words).get("content"),
             [lab.call("read", {"path": "NaN.txt", "note": "-Infinity"}, id="c9")],
             "read(c9)'s arguments are '{\"path\": \"NaN.txt\", \"note\": \"-Infinity\"}': "
             "NaN and Infinity inside a string are words, and the text is a JSON object, so "
             "the call is whole: only arguments that are not an object break a call, and it is "
             "the parse that tells, not a search of the text (assemble, the lab's Build, "
             "item 2).")
    twice = [call_chunk(0, '{"path": "a.py"}', id="c7", name="read"),
             call_chunk(0, '{"path": "b.py"}'), finish("tool_calls")]
    t.expect(harness.assemble(twice).get("error_message"),
             "Tool call c7 (read) arrived with arguments that are not a JSON object",
             "read(c7)'s fragments were '{\"path\": \"a.py\"}' then '{\"path\": \"b.py\"}'. The "
             "first looks whole, but a call's arguments are all its fragments joined, parsed "
             "once, at the end, and the joined text is not JSON: nothing is parsed while "
             "fragments still come (assemble, lesson 16).")
    values = [["a.py"], 0, True, []]
    t.expect([[value, harness.assemble([call_chunk(0, value, id="c8", name="read"),
                                        finish("tool_calls")]).get("error_message")]
              for value in values],
             [[value, "Tool call c8 (read) arrived with arguments that are not a JSON object"]
              for value in values],
             "Each item is [the arguments a server sent already parsed, as a JSON value rather "
             "than text, the reply's error_message]. Sent parsed, arguments are taken whole "
             "only when they are an object: a list, a number or true is not, and fails the "
             "reply as text that parses to one does; only an empty text means {} (assemble, "
             "lesson 16).")
    ran = []
    write = tool("write", lambda arguments: ran.append(arguments) or "written")
    h = harness.Harness(lab.ScriptedModel([harness.assemble(cut), lab.say("unused")]), SYSTEM,
                        [write])
    await lab.drive(h.prompt("Write a.py."))
    t.expect([lab.shape(h.messages), ran], ["U A(error)", []],
             "Given the failed reply, the harness records it and runs nothing: no call block "
             "is left for the loop to act on (assemble, lessons 5 and 16).")


@lab_test("to_wire writes a conversation and its tools in the provider's shape, exactly: the "
          "system prompt first, even an empty one; every message in order, a stopped reply "
          "too, its words as written; calls with their arguments as a JSON string; results as "
          "\"tool\" messages; and only the specs of the tools that call was given.")
async def test_to_wire_writes_the_providers_shape(t):
    messages = [
        harness.user_message("  Fix the test.\n"),
        lab.reply("Reading both.", lab.call("read", CAFE, id="c1"),
                  lab.call("bash", {"command": "pytest"}, id="c2")),
        {"role": "toolResult", "tool_call_id": "c1", "tool_name": "read", "content": "# Notes\n",
         "is_error": False},
        {"role": "toolResult", "tool_call_id": "c2", "tool_name": "bash",
         "content": "1 failed\nCommand exited with code 1", "is_error": True},
        lab.reply(lab.call("bash", {"timeout": 60, "command": "pytest -x"}, id="c3")),
        {"role": "toolResult", "tool_call_id": "c3", "tool_name": "bash", "content": "1 passed\n",
         "is_error": False},
        lab.say("\nAll green now.\n"),
        harness.user_message("And the docs?"),
        {"role": "assistant", "content": [{"type": "text", "text": "Then I"}],
         "stop_reason": "aborted", "error_message": "Operation aborted"},
    ]
    before = json.dumps(messages, sort_keys=True)
    each = [json.dumps(message, sort_keys=True) for message in messages]
    tools = [{**tool("read", lambda arguments: "", {"type": "object", "properties": {}},
                     "Read a file."), "snippet": "Read a file",
              "guidelines": ["Read a file before you change it."], "function": "files"},
             {"name": "bash", "description": "Run a command.",
              "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}]
    first = harness.to_wire("You fix tests.", messages, tools)
    t.expect(first, {
        "stream": True,
        "messages": [
            {"role": "system", "content": "You fix tests."},
            {"role": "user", "content": "  Fix the test.\n"},
            {"role": "assistant", "content": "Reading both.", "tool_calls": [
                {"id": "c1", "type": "function",
                 "function": {"name": "read", "arguments": json.dumps(CAFE)}},
                {"id": "c2", "type": "function",
                 "function": {"name": "bash", "arguments": '{"command": "pytest"}'}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "# Notes\n"},
            {"role": "tool", "tool_call_id": "c2",
             "content": "1 failed\nCommand exited with code 1"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c3", "type": "function",
                 "function": {"name": "bash",
                              "arguments": '{"timeout": 60, "command": "pytest -x"}'}}]},
            {"role": "tool", "tool_call_id": "c3", "content": "1 passed\n"},
            {"role": "assistant", "content": "\nAll green now.\n"},
            {"role": "user", "content": "And the docs?"},
            {"role": "assistant", "content": "Then I"},
        ],
        "tools": [
            {"type": "function", "function": {"name": "read", "description": "Read a file.",
                                              "parameters": {"type": "object", "properties": {}}}},
            {"type": "function", "function": {
                "name": "bash", "description": "Run a command.",
                "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}},
        ]},
        "The messages were: U('  Fix the test.\\n'), A('Reading both.', read c1, bash c2), R(c1), "
        "R(c2) with is_error, A(bash c3, its arguments {\"timeout\": 60, \"command\": \"pytest -x\"}) with no words, R(c3), A('\\nAll green now.\\n') with "
        "no calls, which has no tool_calls key at all (real servers refuse an empty list), "
        "U('And the docs?') and A(aborted) holding the words 'Then I'; the tools, read (a tool, with "
        "execute, a snippet, guidelines and a key \"function\" of its own) and bash (a spec). "
        "The system prompt goes first; each message goes out in order, a failed or stopped "
        "reply too (lesson 10's view decides what the model sees, not to_wire); a user's text "
        "and an assistant's words go out exactly as written, spaces and newlines at their "
        "ends included, and an assistant's words are None when it has none; each call's arguments travel as json.dumps text, spelled as it spells them by default, their keys in the order they came (not sorted); a result is a \"tool\" message "
        "(the wire has no is_error); tools go out as tool_specs gives them: name, "
        "description and parameters, never their execute, snippet or guidelines, nor a key "
        "of their own, even one named \"function\" (to_wire, "
        "lesson 16).")
    t.expect(json.dumps(messages, sort_keys=True) == before, True,
             "to_wire builds new dicts: the record's messages must come out unchanged.")
    bash = tools[1:]
    other = harness.to_wire("", messages[:1], bash)
    t.expect([other["messages"], other["tools"]],
             [[{"role": "system", "content": ""}, {"role": "user", "content": "  Fix the test.\n"}],
              [{"type": "function", "function": bash[0]}]],
             "A second body, after the first: the system prompt \"\", the user's message, and "
             "bash alone as the tools. The items are its messages and its tools. The system "
             "prompt is the first message even when it is empty, and the tools are the ones "
             "this call was given, worked out afresh on every call, never the ones an earlier "
             "call sent (to_wire, lesson 16).")
    t.expect([message["role"] for message in first["messages"]],
             ["system", "user", "assistant", "tool", "tool", "assistant", "tool", "assistant",
              "user", "assistant"],
             "The first body, kept by the client while the second was written: each call makes a "
             "body of its own, so the one sent first still holds its own ten messages. The item: "
             "their roles (to_wire, lesson 16, Build item 3: \"Each call makes a body of its own\").")
    other["tools"][0]["function"]["strict"] = True  # as a client may mark what it sends
    t.expect(bash,
             why="The second body's tools were bash alone, handed over as a spec dict; a "
                 "client then set \"strict\": True in that tool's \"function\" in the body. The "
                 "item is the tools list the caller handed over, after that. Each tool goes "
                 "out as tool_specs gives them, {\"type\": \"function\", \"function\": spec}, "
                 "where the spec is a new dict, so what a client does to the body never "
                 "reaches the caller's tools, even one that was a spec already (to_wire, Build "
                 "item 3, lesson 16).")
    pairs = t.random.randint(200, 600)  # drawn: no one length to stop at
    long = [message for n in range(pairs)
            for message in (harness.user_message(f"Question {n}."), lab.say(f"Answer {n}."))]
    long += [lab.reply(lab.call("read ", CAFE, id="\tcall_9 ")),
             {"role": "toolResult", "tool_call_id": "\tcall_9 ", "tool_name": "read ",
              "content": "Tool read  not found", "is_error": True}]
    third = harness.to_wire("You fix tests.\n", long, [])["messages"]
    t.expect([len(third), third[0], third[-4:]],
             [2 * pairs + 3, {"role": "system", "content": "You fix tests.\n"},
              [{"role": "user", "content": f"Question {pairs - 1}."},
               {"role": "assistant", "content": f"Answer {pairs - 1}."},
               {"role": "assistant", "content": None, "tool_calls": [
                   {"id": "\tcall_9 ", "type": "function",
                    "function": {"name": "read ", "arguments": json.dumps(CAFE)}}]},
               {"role": "tool", "tool_call_id": "\tcall_9 ", "content": "Tool read  not found"}]],
             "A third body: the system prompt 'You fix tests.\\n', a long record of "
             f"{2 * pairs + 2} messages ({pairs} questions and answers, then a call the model named 'read ' with "
             "the id '\\tcall_9 ', and its result), and no tools. The items are how many "
             "messages the body holds, its first, and its last four. The system prompt goes out "
             "exactly as passed, its last newline included; every message goes out, however "
             "long the record; a call's id and name go out exactly as recorded, in the call and "
             "in its result, spaces and all: they are what the model sent, and what it matches "
             "its results by (to_wire, lesson 16).")
    body = harness.to_wire("You fix tests.", messages, tools)
    for said in body["messages"]:
        said["cache_control"] = {"type": "ephemeral"}  # as a client may mark what it sends
        said["content"] = "(trimmed)"
    t.expect([n for n, message in enumerate(messages)
              if json.dumps(message, sort_keys=True) != each[n]], [],
             "to_wire builds its messages in new dicts: a client that marks or trims the body "
             "it sends (here every message given a cache_control key and its content "
             "replaced) must not reach the record. The items are the places in the record "
             "(0 is the user's message) of the messages that changed (to_wire, lesson 16).")
    t.expect([n for n, said in enumerate(first["messages"]) if said["content"] == "(trimmed)"],
             [],
             "The first body, after a client marked and trimmed the body of a later call from "
             "the same record (every message given a cache_control key and its content "
             "replaced). The items are the places in the first body of the messages that "
             "changed: each call makes a body of its own, new dicts all through, and no later "
             "call's body is that one, nor shares a message with it (to_wire, lesson 16, Build "
             "item 3: \"Each call makes a body of its own\").")
    record = [harness.user_message("Go on."),
              {"role": "assistant", "content": [], "stop_reason": "error",
               "error_message": "The provider sent an empty reply"},
              lab.reply("\n\n", lab.call("read", CAFE, id="c4"), lab.call("status", {}, id="c5")),
              {"role": "toolResult", "tool_call_id": "c5", "tool_name": "status",
               "content": "clean", "is_error": False},
              {"role": "toolResult", "tool_call_id": "c4", "tool_name": "read",
               "content": "# Notes\n", "is_error": False},
              harness.user_message("Stop; go on."),
              lab.reply("Going ", "on."),
              {"role": "assistant", "content": [], "stop_reason": "toolUse"}]
    kept = json.dumps(record, sort_keys=True)
    specs = [{"name": "read", "description": "Read a file.",
              "parameters": {"type": "object", "properties": {}}, "snippet": "Read a file",
              "guidelines": ["Read a file before you change it."]}]
    harness.to_wire("", record, specs)
    specs.append(tools[1])  # the same list, given a tool in place after that body
    t.expect(harness.to_wire("", record, specs),
             why=f"A fourth body, of the record {lab.shape(record)}: a user's message, a failed "
                 "reply with no words and no calls, a reply whose words are '\\n\\n' before "
                 "read(c4) and status(c5), whose arguments are {}, their results, c5's first, then c4's, the user again, and a reply whose words "
                 "came as two text blocks, 'Going ' and 'on.', and last a reply labelled "
                 "toolUse that holds nothing, no words and no call (an old log's); its tools a list "
                 "holding read as a spec dict with no execute but a snippet and guidelines, "
                 "given bash in place after a first body was made from it. Every message goes "
                 "out in order, the empty reply too, and no more than the record holds (lesson "
                 "10's view decides what the model sees, not to_wire); whitespace words are "
                 "words, not None; a call's arguments travel as a JSON string, empty ones too "
                 "('{}', never the dict); an assistant's content is all its words, every text block "
                 "of it (text_of), not the first block alone; a message with no calls has no "
                 "tool_calls key, whatever its label says (real servers refuse an empty list); "
                 "tools go out as tool_specs gives them, whatever else a dict "
                 "holds; and the tools are the list's as it is now, worked out afresh on every "
                 "call, as the lab's Build, item 3, says (to_wire, lesson 16).")
    specs[0] = {**specs[0], "description": "Read one file, whole."}  # the same names, anew
    t.expect(harness.to_wire("", record[:1], specs)["tools"],
             [{"type": "function", "function": {"name": "read",
                                                "description": "Read one file, whole.",
                                                "parameters": {"type": "object",
                                                               "properties": {}}}},
              {"type": "function", "function": tools[1]}],
             "A fifth body, from the same tools list after its read was replaced by one whose "
             "description is 'Read one file, whole.': the same names as before, read and bash, "
             "and one tool said anew. The item is the body's tools: the tools are the list's as "
             "it is now, worked out afresh on every call, not kept by their names (to_wire, "
             "Build item 3, lesson 16).")
    t.expect(json.dumps(record, sort_keys=True) == kept, True,
             "The fourth record after its two bodies: the record's messages come out of to_wire "
             "exactly as they went in, the reply with nothing in it too: no key added to a "
             "message, not even one whose value is None (to_wire, lesson 16).")
    paths = t.random.sample(["a.py", "b.py", "docs/index.md", "notes/caf\u00e9.md"], 3)
    records = [[harness.user_message(f"Read {path}."),
                lab.reply(lab.call("read", {"path": path}, id="c1"))] for path in paths]
    bodies = [harness.to_wire("", each, specs) for each in records]
    t.expect([body["messages"][-1]["tool_calls"][0]["function"]["arguments"] for body in bodies],
             [json.dumps({"path": path}) for path in paths],
             f"Three conversations, one after another, each the record {lab.shape(records[0])}, "
             f"a reply calling read(c1) on a path of its own: {', '.join(paths)}. Ids are the "
             "model's, and a new conversation uses "
             "c1 again. Each item is the arguments the body sends for c1: each call makes a body "
             "of its own, its arguments json.dumps of that record's call, not text kept from an "
             "earlier body by its id (to_wire, Build item 3).")
    twice = [tools[1], {**tools[1], "description": "Run a command in the sandbox."}]
    t.expect([entry["function"]["description"]
              for entry in harness.to_wire("", record[:1], twice)["tools"]],
             ["Run a command.", "Run a command in the sandbox."],
             "A tools list holding two tools both named bash, the second with its own "
             "description. The items are the descriptions of the body's tools: each tool goes out "
             "as {\"type\": \"function\", \"function\": spec}, one entry per tool in the list, "
             "in order, none dropped for a name already sent: which tools the model is offered "
             "is the caller's list, not to_wire's choice (to_wire, Build item 3).")


@lab_test("The content decides the label, not finish_reason: a call under finish \"stop\" is "
          "still \"toolUse\", and a reply with only words under finish \"tool_calls\" is "
          "\"stop\". A role-only first delta and content set to null change nothing.")
async def test_the_content_decides_the_label(t):
    mislabelled = [{"choices": [{"index": 0, "delta": {"role": "assistant", "content": None}}]},
                   call_chunk(0, '{"path": "a.py"}', id="c1", name="read"), finish("stop")]
    t.expect(harness.assemble(mislabelled),
             {"role": "assistant", "stop_reason": "toolUse",
              "content": [{"type": "toolCall", "id": "c1", "name": "read",
                           "arguments": {"path": "a.py"}}]},
             "The stream opened with a delta holding only a role (content null), then read(c1), "
             "then finish_reason \"stop\". The call is in the content, so the label is "
             "\"toolUse\": the content decides (assemble, lessons 3 and 16).")
    t.expect(harness.assemble([text_chunk("All done."), finish("tool_calls")])["stop_reason"],
             "stop", "Words only, under finish_reason \"tool_calls\": no call, so \"stop\".")
    older = [harness.assemble([text_chunk("All done."), finish("function_call")]),
             harness.assemble([call_chunk(0, "{}", id="c2", name="status"), finish("eos")]),
             harness.assemble([text_chunk("All done."), finish("max_length")]),
             harness.assemble([text_chunk("All done."), finish("content_filtered")]),
             harness.assemble([text_chunk("All done."), finish("LENGTH")]),
             harness.assemble([call_chunk(0, "{}", id="c3", name="status"),
                               finish("Content_Filter")])]
    t.expect([[reply.get("stop_reason"), reply.get("error_message")] for reply in older],
             [["stop", None], ["toolUse", None], ["stop", None], ["stop", None],
              ["stop", None], ["toolUse", None]],
             "Each item is [stop_reason, error_message] for a reply that finished with a "
             "finish_reason the table does not name: words under \"function_call\" (an older "
             "server's word), a call under \"eos\", words under \"max_length\" and "
             "\"content_filtered\", words under \"LENGTH\" and a call under "
             "\"Content_Filter\". Only \"length\" and \"content_filter\", spelled exactly, "
             "fail a finished reply (a name that holds one of them, or is one of them in other "
             "letters, is another name), and the "
             "content decides the label, whatever finish_reason said (assemble, lessons 3 and "
             "16).")
    trailing = {"choices": [{"index": 0, "delta": {}, "finish_reason": None}]}
    t.expect(harness.assemble([text_chunk("All done."), finish("stop"), trailing]),
             {"role": "assistant", "stop_reason": "stop",
              "content": [{"type": "text", "text": "All done."}]},
             "A chunk after the finish whose finish_reason is null takes nothing back: the "
             "stream gave its finish, and the reply arrived whole (assemble, lesson 16).")


@lab_test("assemble(chunks, aborted=True) is an \"aborted\" reply saying Operation aborted, "
          "keeping the words so far and no call; with nothing at all, a stream that finished "
          "is \"error\": The provider sent an empty reply, and one that did not finish was "
          "cut off.")
async def test_aborted_and_empty_replies(t):
    partial = [text_chunk("Deleting the "), text_chunk("old builds"),
               call_chunk(0, '{"command": "rm -r build"}', id="c9", name="bash")]
    t.expect(harness.assemble(partial, aborted=True),
             {"role": "assistant", "stop_reason": "aborted", "error_message": "Operation aborted",
              "content": [{"type": "text", "text": "Deleting the old builds"}]},
             "Stop came after 'Deleting the old builds' and a whole-looking bash(c9) call. An "
             "aborted reply is labelled \"aborted\" with ABORTED, keeps its words, and never "
             "keeps a call: nobody may act on a reply the user stopped (assemble, lesson 16).")
    named = {"index": 0, "id": "c10", "type": "function", "function": {"name": "list_files"}}
    sent = {"index": 1, "id": "c11", "type": "function",
            "function": {"name": "read", "arguments": dict(CAFE)}}
    whole = [text_chunk("Listing."), {"choices": [{"index": 0, "delta": {"tool_calls": [named]}}]},
             {"choices": [{"index": 0, "delta": {"tool_calls": [sent]}}]}]
    t.expect(harness.assemble(whole, aborted=True),
             {"role": "assistant", "stop_reason": "aborted", "error_message": "Operation aborted",
              "content": [{"type": "text", "text": "Listing."}]},
             "Stop came after 'Listing.', a fragment of list_files(c10) bringing its id and name "
             "and no arguments key (as vLLM's first fragment does), and read(c11) whose "
             "arguments came whole, as an object sent parsed. Neither is kept: a failed reply "
             "keeps its words and drops every call, one with nothing left to come or one "
             "that came whole included (assemble, lesson 16).")
    t.expect(harness.assemble([], aborted=True),
             {"role": "assistant", "stop_reason": "aborted", "error_message": "Operation aborted",
              "content": []},
             "Aborted before anything arrived: the same message lesson 15's loop records.")
    t.expect(harness.assemble([finish("stop")]),
             {"role": "assistant", "stop_reason": "error", "content": [],
              "error_message": "The provider sent an empty reply"},
             "A stream that finished with no words and no calls is not an answer: \"error\", "
             "The provider sent an empty reply (assemble, lesson 16).")
    role = {"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}
    t.expect([harness.assemble([]).get("error_message"),
              harness.assemble([role]).get("error_message")],
             ["The stream ended before the reply was finished"] * 2,
             "The items are the error_message for a stream cut before anything came, and for "
             "one cut after a delta holding only the role. Both are empty, but neither "
             "finished: the missing finish comes before the empty reply in the table, and the "
             "first reason in the table is the one reported (assemble, lesson 16).")
    t.expect(harness.assemble([text_chunk("Half"), {"error": {"message": "overloaded"}}],
                              aborted=True)["stop_reason"],
             "aborted", "A Stop outranks whatever else went wrong: the user's word decides.")
    before, after = t.random.sample(["Deleting ", "the old ", "builds ", "first, ", "then "], 2)
    late = [text_chunk(before), {"error": {"message": "overloaded"}}, text_chunk(after),
            {"choices": [{"index": 0, "delta": {"content": "now."}, "finish_reason": "stop"}]}]
    for stopped in (False, True):
        reply = harness.assemble(late, aborted=stopped)
        t.expect([reply.get("stop_reason"), harness.text_of(reply)],
                 ["aborted" if stopped else "error", before + after + "now."],
                 f"The chunks were the words {before!r}, an error chunk, then {after!r} and "
                 f"'now.' with finish \"stop\"{', and the reply was stopped' if stopped else ''}. "
                 "Items: [stop_reason, its words]: every chunk is read, to the end, and what it "
                 "carries counts; an error chunk fails the reply but does not end the walk, and a "
                 "failed reply holds its words, those after the error too (assemble, Build item "
                 "2).")

    shared = [harness.assemble([], aborted=True), harness.assemble([finish("stop")]),
              harness.assemble([{"error": "model unloaded"}])]
    for reply in shared:
        reply["content"].append({"type": "text", "text": "a note the caller added"})
    again = [harness.assemble([], aborted=True), harness.assemble([finish("stop")]),
             harness.assemble([{"error": "model unloaded"}])]
    t.expect([reply["content"] for reply in again], [[], [], []],
             "Three failed replies with no words (aborted, empty, an error chunk) were made, "
             "their caller added a text block to each one's content, and the same three were "
             "made again. Each item is the second reply's content: assemble, called again, "
             "gives the message those chunks add up to, nothing a caller wrote into an earlier "
             "one; each reply holds a content list of its own (assemble, Build item 2).")


# The families below draw their streams from t.random. A drawn reply is (words, calls): the
# words a string, maybe empty; each call [id, name, arguments], its index its place in the list.
WORDS = ["Reading", "the", "caf\u00e9", "notes", "first;", "\"quoted\"", "tab\there", "two\nlines",
         "C:\\temp", "\U0001f600", "then", "fixing", "it."]
NAMES = ["read", "write", "bash", "grep", "list_files"]
ARGUMENTS = [CAFE, {"command": "grep -n \"TODO\" src/*.py"},
             {"path": "a.py", "content": "x = 1\n\ty = \"two\"\n"},
             {"path": "C:\\temp\\out.txt", "limit": 40},
             {"pattern": "\\d+", "flags": ["i", "m"], "deep": {"n": [1, 2.5, None, True]}}, {}]


def draw_reply(random):
    """Words (maybe none) and 0 to 4 calls (at least one when there are no words)."""
    words = " ".join(random.sample(WORDS, random.randint(1, 6))) if random.random() < 0.8 else ""
    ids = random.sample(range(100, 1000), 4)
    calls = [[f"call_{ids[n]}", random.choice(NAMES), random.choice(ARGUMENTS)]
             for n in range(random.randint(0 if words else 1, 4))]
    return words, calls


def cut(random, text, most=6):
    """`text` cut at up to `most` drawn places, anywhere, inside an escape too; two cuts at one
    place leave an empty piece."""
    places = sorted(random.randint(0, len(text)) for _ in range(random.randint(0, most)))
    return [text[a:b] for a, b in zip([0] + places, places + [len(text)])]


def draw_stream(random, words, calls):
    """The chunks of (words, calls), cut and ordered as a provider may send them: each call's
    fragments in order, the fragments of calls and text taking turns in a drawn order, a call's
    id and name on one drawn fragment (not always the first), explicit nulls as OpenAI sends
    them, and no finish chunk (the caller adds the end it wants)."""
    runs = [[text_chunk(piece) for piece in cut(random, words) if piece]]
    for index, (call_id, name, arguments) in enumerate(calls):
        text = json.dumps(arguments) if arguments or random.random() < 0.5 else ""
        pieces = cut(random, text)
        named = random.randrange(len(pieces))
        run = []
        for n, piece in enumerate(pieces):
            fragment = {"index": index, "function": {"arguments": piece}}
            if n == named:
                fragment.update({"id": call_id, "type": "function"})
                fragment["function"]["name"] = name
                if not piece and random.random() < 0.5:
                    del fragment["function"]["arguments"]
            run.append(fragment)
        runs.append(run)
    stream = []
    while any(runs):
        run = random.choice([run for run in runs if run])
        item = run.pop(0)
        if "choices" in item:
            stream.append(item)
            continue
        fragments = [item]
        if run and random.random() < 0.3:  # two fragments in one chunk's list
            fragments.append(run.pop(0))
        delta = {"tool_calls": fragments}
        if random.random() < 0.5:
            delta["content"] = None
        stream.append({"choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
    if random.random() < 0.5:
        stream.insert(0, {"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""},
                                       "finish_reason": None}]})
    return stream


def usage():
    """The last chunk OpenAI sends when asked for usage: after the finish, with no choices."""
    return {"choices": [], "usage": {"prompt_tokens": 31, "completion_tokens": 9,
                                     "total_tokens": 40}}


def whole(words, calls):
    """The assistant message a drawn reply that arrived whole adds up to."""
    content = [{"type": "text", "text": words}] if words else []
    content += [{"type": "toolCall", "id": call_id, "name": name, "arguments": arguments}
                for call_id, name, arguments in calls]
    return {"role": "assistant", "content": content,
            "stop_reason": "toolUse" if calls else "stop"}


ENDINGS = ["\r", "\n", "\r\n"]  # a line read from bytes may keep its ending


def outcome(line):
    """What decode_line does with `line`: ["gives", value] or ["raises", "ValueError: ..."]."""
    try:
        return ["gives", harness.decode_line(line)]
    except Exception as exc:
        return ["raises", f"{type(exc).__name__}: {exc}"]


@lab_test("decode_line over drawn lines of every kind: data lines with and without the space "
          "after the colon ([DONE] too), blank lines, comments (even ones that mention data: "
          "or [DONE]), other fields, and data payloads cut short or not an object.")
async def test_decode_line_over_drawn_lines(t):
    chunk = {"choices": [{"index": 0, "delta": {"content": " ".join(t.random.sample(WORDS, 3))},
                          "finish_reason": None}]}
    text = json.dumps(chunk)
    kinds = {
        "chunk": [f"data: {text}", f"data:{text}"],
        "done": ["data: [DONE]", "data:[DONE]"],
        "nothing": ["", ":", ": keep-alive", ":ping", ": data: [DONE] comes last",
                    f": data: {text}", "event: message", "event:done", "id: 42",
                    "retry: 3000", f"DATA: {text}", f" data: {text}", "Data: [DONE]",
                    "Error: model unloaded", " error: model unloaded", "ERROR: 503"],
        "broken": [f"data: {text[:t.random.randint(1, len(text) - 1)]}", "data: 42",
                   'data: "[DONE]"', "data: [1, 2]", "data: null", "data: true", "data: {",
                   "data:", "data: ",
                   f"data: {text[:t.random.randint(1, len(text) - 1)]}{t.random.choice(ENDINGS)}",
                   f"data: {t.random.randint(0, 999)}{t.random.choice(ENDINGS)}"],
    }
    lines = [[kind, line] for kind, some in kinds.items() for line in some]
    t.random.shuffle(lines)
    t.expect([[kind, outcome(line)] for kind, line in lines],
             [[kind, {"chunk": ["gives", chunk], "done": ["gives", "[DONE]"],
                      "nothing": ["gives", None],
                      "broken": ["raises", f"ValueError: not a stream line: {line!r}"]}[kind]]
              for kind, line in lines],
             "Each item is [the kind of line, what decode_line did with it], the lines in a "
             "drawn order. The space after `data:` is optional on the wire (the SSE rule: one "
             "space after the colon is dropped if present), so `data:[DONE]` ends a stream as "
             "`data: [DONE]` does; a line that starts with `:` is a comment whatever it says, "
             "and a field other than data carries nothing; a data payload that is not a JSON "
             "object raises ValueError(f\"not a stream line: {line!r}\"), an empty payload "
             "too; and a field's name is spelled exactly, at the line's start: `DATA:` and "
             "` data:`, `Error:` and ` error:` are other fields, which carry nothing, as the "
             "lab's Build, item 1, says; and a refused line that came with its line ending "
             "('\\r', '\\n' or '\\r\\n') is named with that ending in its repr: the line's "
             "`repr` is of the line as it was handed over, not of the line tidied first "
             "(decode_line, lesson 16).")


@lab_test("Drawn replies of words and up to four calls, each call's arguments cut at drawn "
          "places (inside escapes too), the calls' fragments taking turns, each call's id and "
          "name on a drawn fragment, and a usage chunk after the finish: assemble gives back "
          "each reply whole.")
async def test_replies_come_back_whole_however_they_are_cut(t):
    replies = [draw_reply(t.random) for _ in range(8)]
    found = []
    for words, calls in replies:
        stream = draw_stream(t.random, words, calls)
        stream.append(finish(t.random.choice(["stop", "tool_calls"])))
        if t.random.random() < 0.6:
            stream.append(usage())
        found.append(harness.assemble(stream))
    t.expect(found, [whole(words, calls) for words, calls in replies],
             "Each item is the reply one drawn stream adds up to. A fragment belongs to the "
             "call its index names; a call's id and name come from whichever fragment carries "
             "them, not always the first; its arguments are every fragment joined, then parsed "
             "once (\"\" means {}); words come first as one block, calls follow in index order; "
             "the content decides the label, whatever finish_reason said; and a chunk after "
             "the finish, such as OpenAI's usage chunk with no choices, changes nothing "
             "(assemble, lesson 16).")


@lab_test("Drawn replies broken off at drawn points: cut before the finish, ended by an error "
          "chunk, cut off at the output limit, or stopped by the user, each fails with the "
          "table's first reason that applies, keeping the words that arrived and no call.")
async def test_replies_broken_off_at_drawn_points(t):
    cases = []
    for _ in range(8):
        words, calls = draw_reply(t.random)
        stream = draw_stream(t.random, words, calls)
        at = t.random.randint(0, len(stream))
        how = t.random.choice(["cut", "error", "length", "aborted"])
        kept = stream[:at]
        if how == "error":
            kept = kept + [{"error": {"message": f"overloaded ({at})"}}]
            if t.random.random() < 0.5:  # calls go on and finish; no words come after it
                kept += [c for c in stream[at:] if not c["choices"][0]["delta"].get("content")]
                kept.append(finish("stop"))
        elif how == "length":
            kept = kept + [finish("length")]
        said = "".join(c["choices"][0]["delta"].get("content") or "" for c in kept
                       if c.get("choices"))
        cases.append([how, at, said, kept])
    t.expect([[how, harness.assemble(kept, aborted=how == "aborted")]
              for how, at, said, kept in cases],
             [[how, {"role": "assistant", "stop_reason": "aborted" if how == "aborted" else "error",
                     "content": [{"type": "text", "text": said}] if said else [],
                     "error_message": {
                         "cut": "The stream ended before the reply was finished",
                         "error": f"overloaded ({at})",
                         "length": "The reply was cut off at the output limit",
                         "aborted": "Operation aborted"}[how]}]
              for how, at, said, kept in cases],
             "Each item is [how a drawn stream was broken off, the reply assemble made of it]. "
             "A reply that did not arrive whole is a failed one: Stop gives \"aborted\"; an "
             "error chunk gives its message, even if fragments and a finish follow; no finish "
             "means the stream ended early, even when some call's arguments are cut and broken "
             "(the cut is the cause); \"length\" means the output limit. It keeps the words "
             "that arrived, and no call, even one whose arguments look complete (assemble, "
             "lesson 16).")


@lab_test("Drawn replies as each recorded server streams them, through "
          "lab.stream_lines(real=NAME) for a drawn name of lab.SERVERS: OpenAI's role, null "
          "content and first call fragment in one chunk, vLLM's name-only first fragment and "
          "finish on the last piece, llama.cpp's null content, Ollama's whole calls all at index "
          "0 or with no index, a proxy's arguments as an object. Finished as usual each comes "
          "back whole; finished with \"length\" or \"content_filter\" each fails with its "
          "sentence, keeping its words.")
async def test_a_real_servers_shapes_add_nothing_and_its_cut_finishes_fail(t):
    cases = []
    for _ in range(8):
        words, calls = draw_reply(t.random)
        how = t.random.choice(["finished", "length", "content_filter"])
        server = t.random.choice(sorted(lab.SERVERS))
        message = whole(words, calls)
        lines = lab.stream_lines(message, piece=t.random.randint(1, 9), real=server,
                                 finish=None if how == "finished" else how)
        cases.append([server, how, message, harness.assemble(chunks(lines))])
    message = lab.reply("Reading.", lab.call("read", CAFE, id="call_v1"))  # always drawn:
    lines = lab.stream_lines(message, piece=t.random.randint(1, 9), real="vllm")  # its finish
    cases.append(["vllm", "finished", message, harness.assemble(chunks(lines))])  # rides a scrap
    t.expect([[server, how, found] for server, how, message, found in cases],
             [[server, how, message if how == "finished" else {
                 "role": "assistant", "stop_reason": "error", "content": message["content"][:1]
                 if message["content"][:1] and message["content"][0]["type"] == "text" else [],
                 "error_message": {"length": "The reply was cut off at the output limit",
                                   "content_filter": "The provider's content filter stopped "
                                                     "the reply"}[how]}]
              for server, how, message, found in cases],
             "Each item is [the server whose shapes streamed it, how the drawn stream finished, "
             "the reply assemble made of it]. What sets each server apart is in "
             "lab.SERVERS[name].shapes: none of it adds words, a call or a finish, and two "
             "calls at one index with two ids are two calls. \"length\" means the output "
             "limit cut the reply, \"content_filter\" that the provider's filter withheld the "
             "rest: either way the reply did not arrive whole, so it is an \"error\" that "
             "keeps its words and no call. The last item is always vLLM with a call, whose "
             "finish_reason rides on the chunk with the last scrap of the arguments (the "
             "lesson's table, \"What a real server sends\"): a finish is read wherever it "
             "comes (assemble, lesson 16).")


def ollama_call(call_id, name, arguments, *, index=0):
    """One of Ollama's tool-call chunks (lab.SERVERS["ollama"]): the call whole, its arguments
    one string, every call at `index` 0; index=None leaves the index out, as Ollama before
    0.4.7 did (lab.SERVERS["ollama-0.4"])."""
    part = {"id": call_id, "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)}}
    if index is not None:
        part["index"] = index
    return {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "",
                                               "tool_calls": [part]}, "finish_reason": None}]}


@lab_test("Ollama's two calls in one reply, both at index 0 (ollama#15457) or both with no "
          "index (before Ollama 0.4.7), are two calls, in the order they began: a fragment that "
          "brings a new id at an index already used begins a new call, and a fragment with no "
          "id, or the same id again, still belongs to the call its index names.")
async def test_a_new_id_at_a_used_index_is_a_new_call(t):
    two = [ollama_call("call_o2", "read", {"path": "a.py"}),
           ollama_call("call_o1", "read", {"path": "b.py"})]
    bare = [ollama_call("call_o4", "read", {"path": "a.py"}, index=None),
            ollama_call("call_o3", "bash", {"command": "ls"}, index=None)]
    mixed = [call_chunk(0, '{"path"', id="call_1", name="read"), call_chunk(0, ': "a.py"}'),
             call_chunk(0, '{"comm', id="call_2", name="bash"), call_chunk(0, 'and": "ls"}')]
    same = [call_chunk(0, '{"path"', id="call_5", name="read"),
            call_chunk(0, ': "a.py"}', id="call_5", name="read")]
    again = [call_chunk(0, '{"path": "a.py"}', id="call_8", name="read"),
             call_chunk(0, '{"comm', id="call_9", name="bash"),
             call_chunk(0, 'and": "ls"}', id="call_9", name="bash")]
    named = [call_chunk(0, '{"path"'),
             {"choices": [{"index": 0, "delta": {"tool_calls": [
                 {"index": 0, "id": "call_6", "type": "function",
                  "function": {"name": "read", "arguments": ': "a.py"}'}}]}}]}]
    back = [call_chunk(0, '{"path": "a.py"}', id="call_8", name="read"),
            call_chunk(0, '{"command": "ls"}', id="call_9", name="bash"),
            call_chunk(0, '{"path": "b.py"}', id="call_8", name="read")]
    higher = [{"choices": [{"index": 0, "delta": {"tool_calls": [
                  {"index": 1, "id": "call_a", "type": "function",
                   "function": {"name": "list_files"}}]}}]},
              call_chunk(1, '{"path": "a.py"}', id="call_b", name="read")]
    t.expect([harness.tool_calls(harness.assemble(stream + [finish("tool_calls")]))
              for stream in (two, bare, mixed, same, again, named, back, higher)],
             [[lab.call("read", {"path": "a.py"}, id="call_o2"),
               lab.call("read", {"path": "b.py"}, id="call_o1")],
              [lab.call("read", {"path": "a.py"}, id="call_o4"),
               lab.call("bash", {"command": "ls"}, id="call_o3")],
              [lab.call("read", {"path": "a.py"}, id="call_1"),
               lab.call("bash", {"command": "ls"}, id="call_2")],
              [lab.call("read", {"path": "a.py"}, id="call_5")],
              [lab.call("read", {"path": "a.py"}, id="call_8"),
               lab.call("bash", {"command": "ls"}, id="call_9")],
              [lab.call("read", {"path": "a.py"}, id="call_6")],
              [lab.call("read", {"path": "a.py"}, id="call_8"),
               lab.call("bash", {"command": "ls"}, id="call_9"),
               lab.call("read", {"path": "b.py"}, id="call_8")],
              [lab.call("list_files", {}, id="call_a"),
               lab.call("read", {"path": "a.py"}, id="call_b")]],
             "Each item is the calls assemble found in one stream: Ollama's two calls both at "
             "index 0; Ollama's two with no index (which means 0); two calls whose fragments "
             "share index 0, the second's first fragment bringing its own id; one call both of "
             "whose fragments repeat its id, call_5; read(call_8), then bash(call_9) at the "
             "same index, whose second fragment repeats call_9 (the id now at the index is "
             "call_9, the newest call's, not call_8); and one call whose id and name come on "
             "its second fragment, call_6 (a fragment that brings an id where the call has "
             "none yet goes on with that call); and read(call_8), bash(call_9), then call_8 "
             "again, whole, at the same index: the id at the index is now call_9, so call_8's "
             "return begins a third call, not the first call_8 again; and, at index 1, "
             "list_files(call_a), whose one fragment brings its id and name and no arguments, "
             "then read(call_b) at the same index: a new id begins a new call at any index, "
             "not only at 0, and whether or not the call there has arguments yet. Grouped by "
             "index alone, "
             "the second call's "
             "arguments are joined onto the first's, "
             '{"path": "a.py"}{"path": "b.py"}, which is not JSON. A fragment whose id differs '
             "from the id already at its index begins a new call there; one with no id, or "
             "with the same id again, goes on with the call its index names. Calls at one index "
             "stand in the order they began, not sorted by id (assemble, lesson 16).")
    first, other = t.random.sample(NAMES, 2)
    renamed = [call_chunk(0, '{"path"', id="call_r", name=first),
               {"choices": [{"index": 0, "delta": {"tool_calls": [
                   {"index": 0, "function": {"name": other, "arguments": ': "a.py"'}}]}}]},
               call_chunk(0, "}"), finish("tool_calls")]
    found = harness.tool_calls(harness.assemble(renamed))
    t.expect([[call.get("id"), call.get("arguments")] for call in found],
             [["call_r", {"path": "a.py"}]],
             f"The stream: {first}(call_r) at index 0, its arguments '{{\"path\"', then a "
             f"fragment at index 0 with no id naming {other!r} and bringing ': \"a.py\"', then "
             "'}'. Each item is [id, arguments] of a call assemble found. Only a new id begins a "
             "new call: a fragment with no id still belongs to the call its index names, "
             "whatever name it brings, so there is one call, call_r, its arguments all three "
             "fragments joined (which name it keeps, a stream that names a call twice leaves to "
             "you) (assemble, Build item 2).")
    cut = [call_chunk(2, '{"path": ', id="call_c", name="read"),
           call_chunk(2, '"a.py"}', id="call_d", name="read"), finish("tool_calls")]
    t.expect(harness.assemble(cut).get("error_message"),
             "Tool call call_c (read) arrived with arguments that are not a JSON object",
             "The stream: read(call_c) at index 2, its arguments '{\"path\": ', then a fragment "
             "at the same index bringing the new id call_d and the rest, '\"a.py\"}'. A fragment "
             "that brings a new id at an index already used begins a new call, whether or not "
             "the call there has arguments yet, and whether or not they parse yet: call_c's "
             "arguments stay cut short, and the reply fails naming it (assemble, lesson 16).")
    padded = [call_chunk(0, '{"path": "a.py"}', id=" call_7\t", name=" read"),
              call_chunk(0, '{"command": "ls"}', id="call_7", name="bash "), finish("tool_calls")]
    t.expect(harness.assemble(padded),
             why="The stream: a call at index 0 whose id is ' call_7\\t' and whose name is "
                 "' read', then, at the same index, one whose id is 'call_7' and whose name is "
                 "'bash '. Each call has the id and name from the fragment that carries them, "
                 "exactly as sent, spaces and tab included: they are what the model sent and "
                 "what its results are matched by, so ' call_7\\t' and 'call_7' are two ids, "
                 "and the second fragment begins a new call (Build item 2) (assemble, lesson "
                 "16).")


@lab_test("A call whose arguments arrive already parsed, as a JSON object rather than a "
          "string (a proxy in front of Ollama sends them so), keeps that object as its "
          "arguments; the reply is whole.")
async def test_arguments_sent_as_an_object_are_taken_whole(t):
    lines = lab.stream_lines(lab.reply("Looking.", lab.call("read", CAFE, id="call_p1")),
                             real="object-arguments")
    t.expect(harness.assemble(chunks(lines)),
             {"role": "assistant", "stop_reason": "toolUse",
              "content": [{"type": "text", "text": "Looking."},
                          lab.call("read", CAFE, id="call_p1")]},
             'The stream (lab.stream_lines(..., real="object-arguments")) sends the call whole, '
             'its "arguments" the object {"path": "notes/caf\u00e9.md"}, not a string. '
             "json.loads of an object raises TypeError; joining it to strings does too. An "
             "object that came whole is the arguments as they are (assemble, lesson 16).")
    mixed = [[call_chunk(0, CAFE, id="call_p2", name="read"), call_chunk(0, '{"limit": 5}')],
             [call_chunk(0, '{"limit": 5}', id="call_p3", name="read"), call_chunk(0, CAFE)],
             [call_chunk(0, dict(CAFE), id="call_p4", name="read"),
              call_chunk(0, {"limit": 5})]]
    t.expect([harness.assemble(stream + [finish("tool_calls")]) for stream in mixed],
             why="Each item is what assemble made of one call whose fragments were an object "
                 "sent parsed and a text beside it: read(call_p2)'s object, then '{\"limit\": "
                 "5}'; read(call_p3)'s text, then the object; read(call_p4)'s object, then a "
                 "second object, {\"limit\": 5}. Arguments are all a call's "
                 "fragments joined, or, when they came as an object, that object: an object "
                 "with text beside it is neither, and nor are two objects (they are no one "
                 "object the model wrote, and merging them invents one), so the call's "
                 "arguments are not a JSON object "
                 "and the reply fails naming it, whichever came first (Build item 2, the "
                 "table) (assemble, lesson 16).")


@lab_test("A key whose value is null counts as left out: \"choices\", \"delta\", "
          "\"tool_calls\", \"function\" and \"content\" that are null add nothing, and a "
          "fragment whose \"index\" is null belongs at 0, beside a fragment at index 0 or on "
          "its own.")
async def test_a_null_counts_as_a_key_left_out(t):
    beside = [{"choices": None, "usage": {"total_tokens": 9}},
              {"choices": [{"index": 0, "delta": None}]},
              {"choices": [{"index": 0, "delta": {"content": None, "tool_calls": None}}]},
              text_chunk("Reading."),
              call_chunk(0, '{"path"', id="call_n1", name="read"),
              call_chunk(None, ': "a.py"}'),
              {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": None}]}}]},
              finish("tool_calls")]
    alone = [call_chunk(None, '{"comm', id="call_n2", name="bash"),
             call_chunk(None, 'and": "ls"}'), finish("tool_calls")]
    nulls = [call_chunk(0, '{"path"', id="call_n6", name="read"),
             {"choices": [{"index": 0, "delta": {"tool_calls": [
                 {"index": 0, "id": None, "type": "function",
                  "function": {"name": None, "arguments": ': "a.py"}'}}]}}]}, finish("tool_calls")]
    after = [call_chunk(0, '{"path"', id="call_n3", name="read"),
             call_chunk(1, '{"command": "ls"}', id="call_n4", name="bash"),
             {"choices": [{"index": 0, "delta": {"tool_calls": [
                 {"function": {"arguments": ': "a.py"}'}}]}}]}, finish("tool_calls")]
    found = []
    for stream in (beside, alone, after, nulls):
        said = await raised(lambda: harness.assemble(stream))  # what it raised, if it did
        found.append(said or harness.assemble(stream))
    t.expect(found,
             [{"role": "assistant", "stop_reason": "toolUse",
               "content": [{"type": "text", "text": "Reading."},
                           lab.call("read", {"path": "a.py"}, id="call_n1")]},
              {"role": "assistant", "stop_reason": "toolUse",
               "content": [lab.call("bash", {"command": "ls"}, id="call_n2")]},
              {"role": "assistant", "stop_reason": "toolUse",
               "content": [lab.call("read", {"path": "a.py"}, id="call_n3"),
                           lab.call("bash", {"command": "ls"}, id="call_n4")]},
              {"role": "assistant", "stop_reason": "toolUse",
               "content": [lab.call("read", {"path": "a.py"}, id="call_n6")]}],
             "Each item is what assemble made of one stream (or what it raised). The first "
             "holds chunks whose \"choices\", \"delta\", \"content\", \"tool_calls\" and "
             "\"function\" are null, then words, then read(call_n1) begun at index 0 and "
             "finished by a fragment whose \"index\" is null; the second is bash(call_n2), "
             "both of whose fragments have a null \"index\"; the third is read(call_n3) begun "
             "at index 0, bash(call_n4) whole at index 1, then a fragment with no \"index\" "
             "key at all, the rest of read's arguments: it belongs at 0, not to the call begun "
             "last; the fourth is read(call_n6), whose second fragment sends \"id\" and "
             "\"name\" as null: they take back neither. A key whose value is null counts "
             "as left out: a null list of choices is no choices, a null index is no index, "
             "which means 0. Kept as a key of its own, a null index starts a call with no id, "
             "and sorting None beside 0 raises TypeError (assemble, lesson 16).")
    quiet = [{"error": None}, text_chunk("All "),
             {"error": None, "choices": [{"index": 0, "delta": {"content": "fine."}}]},
             finish("stop")]
    t.expect(harness.assemble(quiet),
             {"role": "assistant", "stop_reason": "stop",
              "content": [{"type": "text", "text": "All fine."}]},
             "A chunk whose \"error\" is null, alone or beside words, is no error chunk: a key "
             "whose value is null counts as left out, as everywhere (Build item 2, the table's "
             "second row). The stream: {\"error\": null}, 'All ', 'fine.' beside "
             "\"error\": null, finish_reason stop (assemble, lesson 16).")
    for lost in ("id", "name"):  # each, on every seed
        first = {"index": 0, "type": "function", "id": "call_n5", "function": {"name": "read"}}
        held = first if lost == "id" else first["function"]
        if t.random.random() < 0.5:
            del held[lost]  # never sent
        else:
            held[lost] = None  # sent as null, which counts as left out
        nameless = [{"choices": [{"index": 0, "delta": {"tool_calls": [first]}}]},
                    call_chunk(0, '{"path": '), call_chunk(None, '"a.py"}'),
                    finish("tool_calls")]
        harness.assemble([call_chunk(0, "{}", id="call_n5", name="write"),  # a reply before,
                          finish("tool_calls")])  # whose call had the same id and a name
        said = await raised(lambda: harness.assemble(nameless))
        t.expect(said or harness.assemble(nameless),
                 {"role": "assistant", "stop_reason": "toolUse",
                  "content": [{"type": "toolCall", "id": None if lost == "id" else "call_n5",
                               "name": None if lost == "name" else "read",
                               "arguments": {"path": "a.py"}}]},
                 f"A call no fragment gives {'an id' if lost == 'id' else 'a name'} (its first "
                 f"fragment has {first}, and the rest none) is kept as it came, its {lost} None, "
                 "in the reply, and its other key read from the fragment that carries it: only "
                 "arguments that are not an object break a call (Build item 2). Just before, "
                 "assemble read another reply whose call had the id call_n5 and the name "
                 "write: each reply is the message its own chunks add up to, and nothing "
                 "kept from an earlier one fills in what this one left out "
                 "(assemble, lesson 16).")


@lab_test("assemble changes none of the chunks it is handed: the list, its chunks and their "
          "fragments are as they were, and assemble called again on the same list, or on a "
          "longer one as the stream grows, gives the message those chunks add up to.")
async def test_assemble_changes_none_of_its_chunks(t):
    stream = [text_chunk("Reading "), text_chunk("both."),
              call_chunk(0, '{"path"', id="call_m1", name="read"), call_chunk(0, ': "a.py"}'),
              call_chunk(1, '{"path": ', id="call_m2", name="read"), call_chunk(1, '"b.py"}'),
              finish("tool_calls"), {"choices": [], "usage": {"total_tokens": 42}}]
    before = json.loads(json.dumps(stream))
    early = harness.assemble(stream[:4])
    first = harness.assemble(stream)
    second = harness.assemble(stream)
    t.expect([stream == before, early == harness.assemble(json.loads(json.dumps(before[:4]))),
              second == first],
             [True, True, True],
             "The items are [the chunks are as they were after assemble read them, assemble "
             "of the first four chunks is what it is on an untouched copy, assemble of the "
             "whole list twice gives the same message twice]; the last chunk is a usage chunk "
             "with no choices. assemble reads its chunks and "
             "changes none of them: a reader calls it on what has come so far and again as "
             "more comes (as the lesson's cells do), so a fragment grown in place adds its "
             "text twice, and the second answer is broken arguments (assemble, lesson 16).")
    grown = [{"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]},
             call_chunk(0, '{"path"', id="call_m3", name="read"),
             {"choices": [{"index": 0, "delta": {"tool_calls": [
                 {"function": {"arguments": ': "c.py"}'}}]}}]}]
    kept = json.loads(json.dumps(grown))
    so_far = harness.assemble(grown)
    grown.append(finish("tool_calls"))  # the same list, grown in place as the stream comes
    whole = harness.assemble(grown)
    grown[-1] = finish("length")  # the same list, as long, its last chunk another
    t.expect([grown[:3] == kept, so_far, whole, harness.assemble(grown)],
             why="The stream was a delta holding only the role, then read(call_m3) in two "
                 "fragments, the second with no \"index\" key; assemble read those three, then "
                 "the same list, grown in place by the finish \"tool_calls\", then the same "
                 "list again, as long, its finish now \"length\". The items are [those three "
                 "chunks are as they were, assemble of the three, assemble of the grown list, "
                 "assemble of it with the other finish]: the list's identity and length are not "
                 "its chunks. "
                 "assemble changes none of its chunks (it fills in no index and takes no role "
                 "out), and called again on a longer list it reads it afresh, to the message "
                 "those chunks add up to, as the lab's Build, item 2, says (assemble, lesson 16).")
    parsed = [call_chunk(0, {"path": "a.py", "limit": 5}, id="call_m4", name="read"),
              finish("tool_calls")]
    untouched = json.loads(json.dumps(parsed))
    harness.assemble(parsed)
    t.expect([parsed == untouched, harness.assemble(parsed)],
             why="The stream was read(call_m4), its arguments sent already parsed, as the "
                 "object {\"path\": \"a.py\", \"limit\": 5}, then the finish; assemble read "
                 "it twice. The items are [the chunks are as they were, as the object they "
                 "came with, not its JSON text; assemble's second answer]. assemble reads its "
                 "chunks and changes none of them, an object sent parsed included (Build item "
                 "2) (assemble, lesson 16).")
    # The chunks handed in sealed: a write into one, at any depth, raises, even one taken back
    # before assemble returns (a key filled in and deleted again leaves the chunk equal).
    shut = [text_chunk("Both "), call_chunk(0, '{"path": ', id="call_m5", name="read"),
            {"choices": [{"index": 0, "delta": {"tool_calls": [
                {"function": {"arguments": '"d.py"}'}}]}}]},
            {"choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": None, "id": "call_m6", "function": {"name": "read",
                                                             "arguments": '{}'}}]}}]},
            {"choices": [{"index": 0, "delta": {"role": "assistant"}}]}, finish("tool_calls")]
    got = []
    problem = await raised(lambda: got.append(harness.assemble(sealed(shut))))
    t.expect([problem, lab.shape(got)],
             why="The stream was words, read(call_m5) in two fragments, the second with no "
                 "\"index\" key, read(call_m6) at an \"index\" of null, a delta holding only "
                 "the role, then the finish, handed in sealed: a list, chunks, deltas and "
                 "fragments that raise TypeError (\"this message is only to be read\") at any "
                 "write, even one taken back before assemble returns. The items are [what "
                 "assemble raised, or None; lab.shape of the message it gave]. assemble reads "
                 "its chunks and changes none of them, not even for a moment: no index filled "
                 "in and deleted again (Build item 2) (assemble, lesson 16).")
    t.expect(first, {"role": "assistant", "stop_reason": "toolUse",
                     "content": [{"type": "text", "text": "Reading both."},
                                 lab.call("read", {"path": "a.py"}, id="call_m1"),
                                 lab.call("read", {"path": "b.py"}, id="call_m2")]},
             "The chunks were words in two deltas, then read(call_m1) at index 0 and "
             "read(call_m2) at index 1, each in two fragments (assemble, lesson 16).")


@lab_test("llama.cpp's `error: {...}` line (builds before September 2025) is a failure with "
          "its reason: decode_line gives {\"error\": the payload}, parsed whatever JSON it is, "
          "with or without a space after the colon, and the reply fails with the server's "
          "message, keeping the words before it.")
async def test_an_error_line_is_a_failure_with_its_reason(t):
    line = ('error: {"code": 400, "message": "the request exceeds the available context size, '
            'try increasing it", "type": "exceed_context_size_error"}')
    others = ["error: model unloaded", 'error: "model unloaded"', "error: 503",
              'error:{"message": "oom"}', "error: null", "error:null"]
    t.expect([outcome(line)] + [[other, outcome(other)] for other in others],
             [["gives", {"error": {"code": 400, "message": "the request exceeds the available "
                                   "context size, try increasing it",
                                   "type": "exceed_context_size_error"}}],
              ["error: model unloaded", ["gives", {"error": "model unloaded"}]],
              ['error: "model unloaded"', ["gives", {"error": "model unloaded"}]],
              ["error: 503", ["gives", {"error": 503}]],
              ['error:{"message": "oom"}', ["gives", {"error": {"message": "oom"}}]],
              ["error: null", ["gives", {"error": "null"}]],
              ["error:null", ["gives", {"error": "null"}]]],
             "Each item is what decode_line did with an `error:` line: first llama.cpp's, whose "
             "payload is a JSON object, then [the line, what it gave] for a payload of plain "
             "text, a JSON string, a JSON number, and an object with no space after the colon. "
             "An `error:` line is not a comment to skip: it is the server saying the reply "
             "failed, and why. Its payload is parsed when it is JSON, whatever JSON value it is "
             "(a string loses its quotes, 503 is a number), and is the text when not; "
             "`error:` needs no space after its colon, as `data:` does not; and `error: null` "
             "still says the reply failed, so it gives its text, \"null\", not a null that "
             "counts as no error, with or without the space: `error:null` too (decode_line, the lab's Build, item 1).")
    inner = {"error": {"message": t.random.choice(["oom", "model unloaded", "overloaded"]),
                       "code": t.random.randint(500, 599)}}
    nested = [f"error: {json.dumps(inner)}", f"error:{json.dumps(inner['error'] | inner)}"]
    t.expect([[line, outcome(line)] for line in nested],
             [[line, ["gives", {"error": json.loads(line[len("error:"):])}]] for line in nested],
             "Each item is [an `error:` line, what decode_line did with it], for a payload that is "
             "a JSON object holding an \"error\" key of its own, as OpenAI-style servers shape "
             "their errors. An `error:` line gives {\"error\": ...} holding its payload, whatever "
             "the payload holds: the payload is not taken for the chunk because it has an "
             "\"error\" key, nor unwrapped (decode_line, the lab's Build, item 1).")
    lines = lab.stream_lines(lab.fail("out of memory"), real="llamacpp")
    lines = lines[:1] + lab.stream_lines(lab.say("Half an"), real="llamacpp")[1:4] + lines[1:]
    decoded = [harness.decode_line(line) for line in lines]
    t.expect(harness.assemble([c for c in decoded if c not in (None, harness.STREAM_DONE)]),
             {"role": "assistant", "stop_reason": "error", "error_message": "out of memory",
              "content": [{"type": "text", "text": "Half an"}]},
             "The stream (llama.cpp's shapes: lab.stream_lines(..., real=\"llamacpp\")) sends "
             "words, then `error: {\"code\": 500, \"message\": \"out of memory\", ...}`, "
             "then `data: [DONE]`. Dropped, the error leaves a stream with no finish, and the "
             "reason the server gave is lost. An error chunk's reason is its \"message\"; one "
             "that is a plain string is that string (assemble, lesson 16).")
    said = [text_chunk("Half an"), {"error": "model unloaded"}]
    found = await raised(lambda: harness.assemble(said))  # what it raised, if it did
    t.expect(found or harness.assemble(said),
             {"role": "assistant", "stop_reason": "error", "error_message": "model unloaded",
              "content": [{"type": "text", "text": "Half an"}]},
             "The chunks were words, then {\"error\": \"model unloaded\"}, what decode_line "
             "makes of the line `error: model unloaded`: an error that is a plain string, with "
             "no \"message\" to read. Its reason is that string, and the reply is an "
             "\"error\" that keeps its words; nothing is raised, since trouble with the provider "
             "is a reply (assemble, lesson 16).")
    blank = harness.assemble([text_chunk("Half an"), {"error": {"message": "", "code": 500}},
                              finish("stop")])
    t.expect([blank["stop_reason"], blank["error_message"]], ["error", ""],
             "The chunks were words, then {\"error\": {\"message\": \"\", \"code\": 500}}, "
             "then finish \"stop\". The items are [stop_reason, error_message]: an error that "
             "has a message reports its message, even an empty one; only an error with no "
             "message at all (a string, or a dict without one) is reported as what it says as "
             "text (assemble, lesson 16).")
    lines = [t.random.choice(["upstream overloaded", "model unloaded", "request id 7f3a",
                              "retry in 30 s", "see https://status.example.com"])
             for _ in range(t.random.randint(2, 4))]
    said = t.random.choice(["\n", "\r\n"]).join(lines) + t.random.choice(["", "\n"])
    reason = harness.assemble([text_chunk("Half an"), {"error": {"message": said}}])
    t.expect([reason.get("stop_reason"), reason.get("error_message")], ["error", said],
             f"The chunks were words, then an error whose message is {said!r}, "
             f"{len(lines)} lines of the server's. Items: [stop_reason, error_message]: an error "
             "chunk's reason is its message, as text, whole: every line of it, as the server "
             "wrote it, not its first line or a tidied copy (assemble, Build item 2, the table).")
