"""Lesson 16, lab 1: the grading bank. Private: never released, as solutions/ is not.

Scenarios written per rule of source/lessons/16-stream/rules.toml (lab 16.1's items of the Build
list), two a rule, each reaching decode_line, assemble or to_wire through another door than the
public tests.py does: a whole transcript of a server read line by line to its marker, a job
run by lesson 15's Harness over a model object of the scenario's own that feeds assemble its
chunks as they are decoded, one stream judged again at every length it reaches, and the bodies
a client built from to_wire and then edited as clients do.
"""
import copy
import json
import re

import harness
import lab
from lab.kit import lab_test, raised, sealed, tool

LAB = "16.1"
SYSTEM = "You tend a tiny garden of scripts."
WORDS = ("acorn", "bramble", "cinder", "dune", "elm", "flint", "grove", "heath", "islet",
         "jasper", "knoll", "lichen", "moss", "nettle")
ENDED = "The stream ended before the reply was finished"
FILTERED = "The provider's content filter stopped the reply"


def word(t):
    """A drawn word with a number, carried through a scenario (a path, a reason, an id)."""
    return f"{t.random.choice(WORDS)}{t.random.randint(10, 999)}"


def choice(delta=None, finish=None):
    """A chunk of one choice; `finish` goes in only when given."""
    picked = {"index": 0, "delta": {} if delta is None else delta}
    if finish is not None:
        picked["finish_reason"] = finish
    return {"choices": [picked]}


def piece(index, arguments=None, *, id=None, name=None):
    """One fragment of a call, as a delta's tool_calls item; keys left out when not given."""
    made = {} if index is False else {"index": index}
    if id is not None:
        made["id"] = id
    function = {}
    if name is not None:
        function["name"] = name
    if arguments is not None:
        function["arguments"] = arguments
    if function:
        made["function"] = function
    return made


def calls(*pieces):
    return choice({"tool_calls": list(pieces)})


def scraps(text, t):
    """`text` cut at one to three drawn points, never into nothing."""
    cuts = min(len(text) - 1, t.random.randint(1, 3))
    points = sorted(t.random.sample(range(1, len(text)), cuts))
    return [text[a:b] for a, b in zip([0] + points, points + [len(text)])]


# -- rule 1: decode_line -------------------------------------------------------------------


@lab_test("A recorded server's transcript, its data lines and its marker written without a "
          "space after the colon and with keep-alives, retry: and event: lines between them, "
          "is read line by line until decode_line says the marker came: the chunks gathered "
          "are the payloads, the lines between carry nothing, and nothing past the marker is "
          "read.")
async def test_bank_a_transcript_read_to_its_marker(t):
    server = t.random.choice(["openai", "vllm", "llamacpp", "ollama"])
    said = f"{word(t)} overheated"
    message = lab.fail(said, f"Pruning {word(t)}", lab.call("prune", {"bed": word(t)}, id=word(t)))
    wire, wanted, blanks = [t.random.choice([f"Error: {said}", f" error: {said}",
                                             f"ERROR:{said}"])], [], 1  # other fields
    for line in lab.stream_lines(message, real=server, piece=t.random.randint(3, 9)):
        if t.random.random() < 0.5:
            extra = t.random.choice(["", ": ping", "retry: 1500", "event: delta", ":"])
            wire.append(extra)
            blanks += 1
        if line.startswith('data: {"error"'):  # said as llama.cpp says it, on every server
            line = "error:" + json.dumps(json.loads(line[len("data: "):])["error"])
        elif line.startswith("data: "):
            line = "data:" + line[len("data: "):]
        elif line.startswith("error: "):
            line = "error:" + line[len("error: "):]  # llama.cpp's line, its space left out
        wire.append(line)
    wire.append('data: {"after": "the marker"')  # broken, so reading it would raise
    read, nothing, reached = [], 0, False
    for line in wire:
        found = harness.decode_line(line)
        if isinstance(found, dict):  # another listener writes into its own, inside it too
            other = harness.decode_line(line)
            for inner in [value for value in other.values() if isinstance(value, (dict, list))]:
                inner.append("read") if isinstance(inner, list) else inner.update(read=True)
            other["read"] = "by another listener"  # a new dict each call, all the way in
        if found == harness.STREAM_DONE:
            reached = True
            break
        if found is None:
            nothing += 1
        else:
            read.append(found)
    payloads = [json.loads(line[line.index(":") + 1:]) for line in wire[:-2]
                if line.startswith("data:")]
    errors = [{"error": json.loads(line[len("error:"):])} for line in wire
              if line.startswith("error:")]
    t.expect([server, reached, nothing, [chunk for chunk in read if chunk in payloads],
              [chunk for chunk in read if chunk not in payloads]],
             [server, True, blanks, payloads, errors],
             "Each data line gives its payload parsed, the space after `data:` or not; an "
             "`error:` line gives {\"error\": its payload}, its space left out too; `data:[DONE]` "
             "is the marker; blank, comment and other fields give None, `Error:` or ` error:` "
             "among them; each call gives a new dict, nothing inside it shared with another "
             "call's (decode_line, lesson 16). "
             "Items: [the server, the marker reached, lines that gave None, the data chunks read, "
             "the error lines read].")


@lab_test("Lines a faulty provider might send one at a time: error lines whose payload is a "
          "quoted sentence, a bare number, true or words that are no JSON, and data lines whose "
          "payload is no JSON object, with tabs or spaces trailing: decode_line gives each "
          "error line's payload parsed when it parses, and refuses each bad data line naming "
          "it exactly as it came.")
async def test_bank_lines_from_a_faulty_provider(t):
    reason = f"{word(t)} unloaded"
    number = t.random.randint(400, 599)
    errors = [(f'error: "{reason}"', reason), (f"error: {number}", number),
              ("error:true", True), (f"error: {reason} (retry)", f"{reason} (retry)"),
              ("error:" + " " * t.random.randint(0, 1) + "null", "null"),  # null: still failed
              ("error:null", "null")]  # with no space too
    t.random.shuffle(errors)
    bad = [f"data: {word(t)}{t.random.choice(['  ', chr(9), ' ' + chr(9)])}",
           f'data: ["{word(t)}"]' + " " * t.random.randint(1, 3),
           f"data:{t.random.randint(1, 99)}" + chr(9),
           "data:" + t.random.choice(["", " ", chr(9), "  "]),
           "data:" + t.random.choice([" [done]", "[Done]", " [dONE]"])]  # not the marker
    t.random.shuffle(bad)
    payload = json.dumps({"choices": [{"index": 0, "delta": {"content": word(t)}}]})
    others = [t.random.choice(["DATA:", "Data: ", " data: ", "data :"]) + payload,
              t.random.choice(["DATA: [DONE]", " data:[DONE]", "Data:[DONE]"]),
              t.random.choice(["Error: ", " error: ", "ERROR:"]) + json.dumps(reason)]
    edited = []
    long = (f"{word(t)} " * 12_000)[:t.random.randint(5_000, 60_000)]  # drawn: no one length
    for line in (f"data: {payload}", 'error: {"message": "%s"}' % reason,
                 "data:" + json.dumps(choice({"content": long}))):
        first = harness.decode_line(line)
        kept = copy.deepcopy(first)
        inside, walk = [], [first]  # every dict and list in the answer, however deep
        while walk:
            held = walk.pop()
            for value in held.values() if isinstance(held, dict) else held:
                if isinstance(value, (dict, list)):
                    inside.append(value)
                    walk.append(value)
        for inner in inside:
            inner.append(None) if isinstance(inner, list) else inner.update(edited=True)
        edited.append(harness.decode_line(line) == kept)
    found = [harness.decode_line(line) for line, _ in errors]
    refused = [await raised(lambda line=line: harness.decode_line(line)) for line in bad]
    t.expect([[line for line, _ in errors], found, refused,
              [[line, harness.decode_line(line)] for line in others], edited],
             [[line for line, _ in errors], [{"error": value} for _, value in errors],
              [f"ValueError: not a stream line: {line!r}" for line in bad],
              [[line, None] for line in others], [True, True, True]],
             "An error line's payload is parsed when it is JSON of any kind (a string loses "
             "its quotes, a number is a number) and kept as text when it is not; a data line "
             "whose payload is no JSON object raises ValueError naming the line's repr as it "
             "came, what trails it included, an empty payload too, and [DONE] in other "
             "letters too; a field is named exactly, "
             "at the line's start, so `DATA:` or ` data:` (or `Error:`) is another field and "
             "gives None; a line decoded again after its caller wrote inside the first answer, "
             "at every depth, "
             "gives what the line says, a data line of tens of thousands of characters too, "
             "however long (decode_line, lesson 16). Items: [the error lines, what "
             "decode_line gave for each, what each bad data line raised, [each line of a field "
             "spelled otherwise, what it gave], [a data line and an error line each decoded "
             "again as it was, and a long data line]].")
    await lines_read_with_their_endings(t)


# -- rule 2: assemble ----------------------------------------------------------------------


class Feed:
    """A model object that answers each request with the next stream of chunks, handing
    assemble a generator over copies of them, as a reader decoding on the fly would."""

    def __init__(self, streams):
        self.streams, self.changed = list(streams), []

    async def acomplete(self, system, messages, tools=(), signal=None):
        chunks = copy.deepcopy(self.streams.pop(0))
        kept = copy.deepcopy(chunks)
        if not re.search(r'"arguments": [^"n]', json.dumps(chunks)):
            # Handed in sealed, a write at any depth raises, even one taken back at once (a
            # stream with arguments sent as an object is not: a copy of that object is
            # allowed, and a sealed dict cannot be deep-copied).
            try:
                reply = harness.assemble(chunk for chunk in sealed(chunks))
            except TypeError as exc:
                if "only to be read" not in str(exc):
                    raise
                self.changed.append(True)
                return harness.assemble(chunk for chunk in copy.deepcopy(kept))
            self.changed.append(False)
            return reply
        reply = harness.assemble(chunk for chunk in chunks)
        self.changed.append(chunks != kept)  # assemble reads its chunks, changes none
        return reply


def broken_kinds(t):
    """Four kinds of arguments that are no object, each as the pieces of one call: text that
    parses to no object, whitespace, an already-parsed value that is no object, and two
    objects one after the other."""
    return [[t.random.choice(["null", "[]", "0"])],
            [t.random.choice([" ", "\n", " \t "])],
            [t.random.choice([[1, 2], 7, True])],
            [json.dumps({"bed": word(t)}), json.dumps({"bed": word(t)})]]


@lab_test("A Harness of lesson 15 runs prompts over a model object that hands assemble each "
          "reply's chunks as a generator: calls taking turns, an id that comes late, calls "
          "Ollama-style at one index, nulls, objects sent parsed, errors after the finish, "
          "filtered and broken arguments. The tools receive exactly the arguments meant, and "
          "each run ends as its stream says.")
async def test_bank_a_job_fed_chunk_by_chunk(t):
    got = []
    tools = [tool(name, lambda arguments, name=name: got.append([name, arguments]) or "done",
                  {"type": "object"}) for name in ("prune", "water", "plant")]
    lead = f"\n  {word(t)} first. "
    water, prune = {"bed": word(t), "litres": t.random.randint(1, 9)}, {"bed": word(t)}
    a, b = word(t), word(t)
    w_text, p_text = scraps(json.dumps(water), t), scraps(json.dumps(prune), t)
    taking_turns = [choice({"role": "assistant", "content": None}),
                    choice({"content": lead[:3]}), choice({"content": lead[3:]}),
                    calls(piece(1, w_text[0], id=b, name="water")),
                    calls(piece(0, p_text[0]))]
    for n in range(1, max(len(w_text), len(p_text))):
        taking_turns += [calls(piece(0, p_text[n])) if n < len(p_text) else choice(),
                         calls(piece(1, w_text[n])) if n < len(w_text) else choice()]
    taking_turns += [calls(piece(0, "", id=a, name="prune")), choice(finish="stop")]
    high, low, third = f"z{word(t)}", f"a{word(t)}", word(t)
    planted = {"seed": word(t)}
    half = json.dumps(planted)
    same_index = [choice({"role": "assistant", "content": None, "tool_calls": None}),
                  calls(piece(0, json.dumps(prune), id=high, name="prune")),
                  calls(piece(0, dict(water), id=low, name="water")),
                  calls(piece(None, half[:4], id=third, name="plant")),
                  calls(piece(False, half[4:], id=third)),
                  {"choices": None}, choice(None), {"choices": [{"index": 0, "delta": None}]},
                  calls({"index": 0, "function": None}),
                  choice(finish=t.random.choice(["function_call", "eos"])),
                  {"choices": [], "usage": {"total_tokens": t.random.randint(9, 99)}}]
    quiet = " " * t.random.randint(1, 3)
    runs = [["turns", taking_turns, f"U A[{a},{b}] R({a}) R({b}) A",
             [["prune", prune], ["water", water]], None],
            ["one index", same_index, f"U A[{high},{low},{third}] R({high}) R({low}) R({third}) A",
             [["prune", prune], ["water", water], ["plant", planted]], None],
            ["blank words", [choice({"content": quiet}), choice(finish="stop")], "U A", [], None]]
    told = f"{word(t)} reset"
    runs.append(["error after finish", [choice({"content": lead}), calls(piece(0, "{}", id=a,
                                                                           name="prune")),
                                         choice(finish="tool_calls"), {"error": told}],
                 "U A(error)", [], told])
    tail = {"error": {"message": ""}, "choices": [{"index": 0, "delta": {"content": " more"}}]}
    runs.append(["cut, then an empty message",
                 [choice({"content": "Half"}), choice(finish="length"), tail],
                 "U A(error)", [], ""])
    runs.append(["an empty error", [choice({"content": lead}), choice(finish="stop"),
                                    {"error": {}}], "U A(error)", [], "{}"])
    coded = {"code": t.random.randint(500, 599), "type": "overloaded"}
    runs.append(["an error with no message", [choice({"content": lead}), choice(finish="stop"),
                                              {"error": coded}], "U A(error)", [],
                 [True, str(coded["code"])]])  # as text: str() or json.dumps alike
    runs.append(["a null message", [choice({"content": lead}), choice(finish="stop"),
                                    {"error": {"message": None} | coded}], "U A(error)", [],
                 [True, str(coded["code"])]])
    number = t.random.randint(500, 599)  # what decode_line makes of `error: 503`
    runs.append(["a number for an error", [choice({"content": lead}), {"error": number}],
                 "U A(error)", [], str(number)])
    runs.append(["a number for a message", [choice({"content": lead}),
                                            {"error": {"message": number} | coded}],
                 "U A(error)", [], [True, str(number)]])  # its message, as text
    after = f" {word(t)}."
    runs.append(["words after the finish", [choice({"content": lead}), choice(finish="stop"),
                                            choice({"content": after}, finish=None)],
                 "U A", [], None])  # every chunk is read, to the end
    nan = json.dumps(prune)[:-1] + f', "depth": {t.random.choice(["NaN", "Infinity"])}}}'
    runs.append(["NaN or Infinity in the arguments",
                 [calls(piece(0, nan, id=a, name="prune")), choice(finish="tool_calls")],
                 "U A(error)", [], f"Tool call {a} (prune) arrived with arguments that are "
                 "not a JSON object"])
    runs.append(["a null error", [choice({"content": lead}), {"error": None},
                                  choice(finish="stop")], "U A", [], None])  # left out: no error
    runs.append(["a call whose id never comes",  # kept as it came, its id None
                 [calls(piece(0, p_text[0], name="prune"))] +
                 [calls(piece(0, part)) for part in p_text[1:]] + [choice(finish="tool_calls")],
                 "U A[None] R(None) A", [["prune", prune]], None])
    first_told, then_told = f"{word(t)} first", f"{word(t)} then"
    runs.append(["two errors", [choice({"content": lead}), {"error": {"message": first_told}},
                                {"error": {"message": then_told}}], "U A(error)", [], first_told])
    ending = t.random.choice(["length", "content_filter"])
    runs.append(["two finishes", [choice({"content": lead}), choice(finish="stop"),
                                  choice(finish=ending)], "U A(error)", [],
                 {"length": "The reply was cut off at the output limit",
                  "content_filter": FILTERED}[ending]])
    p_all = json.dumps(prune)
    runs.append(["no index after another call",
                 [calls(piece(0, p_all[:4], id=a, name="prune")),
                  calls(piece(1, json.dumps(water), id=b, name="water")),
                  calls(piece(False, p_all[4:])), choice(finish="tool_calls")],
                 f"U A[{a},{b}] R({a}) R({b}) A", [["prune", prune], ["water", water]], None])
    runs.append(["the finish on the last scrap",
                 [calls(piece(0, p_all[:4], id=a, name="prune")),
                  {"choices": [{"index": 0, "delta": {"tool_calls": [piece(0, p_all[4:])]},
                                "finish_reason": "tool_calls"}]}],
                 f"U A[{a}] R({a}) A", [["prune", prune]], None])
    late, early = word(t), word(t)
    runs.append(["broken, the higher index begun first",
                 [calls(piece(1, "[]", id=late, name="water")),
                  calls(piece(0, '{"bed', id=early, name="prune")), choice(finish="tool_calls")],
                 "U A(error)", [], f"Tool call {early} (prune) arrived with arguments that are "
                 "not a JSON object"])
    cut = calls(piece(0, '{"bed', id=a, name="prune"))
    runs.append(["filtered", [choice({"content": lead}), cut, choice(finish="content_filter")],
                 "U A(error)", [], FILTERED])
    runs.append(["usage after the finish",
                 [choice({"content": lead}), choice(finish="stop"),
                  {"choices": [], "usage": {"total_tokens": t.random.randint(9, 99)}}],
                 "U A", [], None])
    detail = f"{word(t)} queue full"
    runs.append(["an error whose detail says more",
                 [choice({"content": lead}), {"error": coded | {"detail": detail}}],
                 "U A(error)", [], [True, detail]])
    runs.append(["null id and name on a later fragment",
                 [calls(piece(0, p_all[:4], id=a, name="prune")),
                  calls({"index": 0, "id": None, "function": {"name": None,
                                                              "arguments": p_all[4:]}}),
                  choice(finish="tool_calls")],
                 f"U A[{a}] R({a}) A", [["prune", prune]], None])
    runs.append(["arguments of null", [calls(piece(0, "null", id=a, name="prune")),
                                       choice(finish="tool_calls")],
                 "U A(error)", [], f"Tool call {a} (prune) arrived with arguments that are "
                 "not a JSON object"])
    raw = json.dumps({"bed": word(t)})[:-2] + "\n" + '"}'  # a line break as it is, in a string
    runs.append(["a raw line break in a string", [calls(piece(0, raw, id=a, name="prune")),
                                                  choice(finish="tool_calls")],
                 "U A(error)", [], f"Tool call {a} (prune) arrived with arguments that are "
                 "not a JSON object"])
    runs.append(["a finish whose name holds the table's",
                 [choice({"content": lead}),
                  choice(finish=t.random.choice(["max_length", "content_filtered"]))],
                 "U A", [], None])
    runs.append(["an object with text beside it",
                 [calls(piece(0, dict(prune), id=a, name="prune")), calls(piece(0, '{"x": 1}')),
                  choice(finish="tool_calls")],
                 "U A(error)", [], f"Tool call {a} (prune) arrived with arguments that are not "
                 "a JSON object"])
    bare = [f"{word(t)}{n}" for n in range(t.random.randint(4, 7))]
    base = t.random.randint(1000, 10 ** 6)  # an index is a place however large
    runs.append(["calls with no arguments at far indexes, the highest begun first",
                 [calls(piece(base + 3 * n, id=call_id, name="plant"))
                  for n, call_id in reversed(list(enumerate(bare)))] + [choice(finish="tool_calls")],
                 f"U A[{','.join(bare)}] " + " ".join(f"R({call_id})" for call_id in bare) + " A",
                 [["plant", {}]] * len(bare), None])
    runs.append(["a finish in other letters",
                 [choice({"content": lead}),
                  choice(finish=t.random.choice(["LENGTH", "Length", "CONTENT_FILTER",
                                                 "Content_Filter"]))],
                 "U A", [], None])  # spelled exactly, or another name
    long_told = " ".join(word(t) for _ in range(t.random.randint(40, 300)))  # no one length
    runs.append(["a long message", [choice({"content": lead}), {"error": {"message": long_told}}],
                 "U A(error)", [], long_told])  # reported whole
    named = {"bed": f"NaN{word(t)}", "note": t.random.choice(["Infinity", "-Infinity", "NaN"])}
    runs.append(["NaN and Infinity inside strings",
                 [calls(piece(0, json.dumps(named), id=a, name="prune")),
                  choice(finish="tool_calls")],
                 f"U A[{a}] R({a}) A", [["prune", named]], None])
    runs.append(["a new id beside cut arguments",
                 [calls(piece(1, '{"bed": ', id=a, name="prune")),
                  calls(piece(1, json.dumps(word(t)) + "}", id=b, name="water")),
                  choice(finish="tool_calls")],
                 "U A(error)", [], f"Tool call {a} (prune) arrived with arguments that are "
                 "not a JSON object"])
    huge = t.random.randint(10 ** 9, 10 ** 18)  # an index has no ceiling
    runs.append(["a call at an index past a billion",
                 [calls(piece(huge, json.dumps(prune), id=a, name="prune")),
                  calls(piece(2, json.dumps(water), id=b, name="water")),
                  choice(finish="tool_calls")],
                 f"U A[{b},{a}] R({b}) R({a}) A", [["water", water], ["prune", prune]], None])
    seed = {"seed": word(t) + "-" * t.random.randint(600, 950)}  # no one count to stop at
    seed_text = json.dumps(seed)
    runs.append(["a call of hundreds of one-character fragments",
                 [calls(piece(0, seed_text[0], id=third, name="plant"))] +
                 [calls(piece(0, part)) for part in seed_text[1:]] + [choice(finish="tool_calls")],
                 f"U A[{third}] R({third}) A", [["plant", seed]], None])
    kinds = broken_kinds(t)
    for n in range(4):  # each kind of broken arguments first, another kind after it
        first, second = word(t), word(t)
        stream = [choice({"content": lead})]
        for index, (call_id, parts) in enumerate([(first, kinds[n]), (second, kinds[(n + 1) % 4])]):
            stream += [calls(piece(index, parts[0], id=call_id, name="plant"))]
            stream += [calls(piece(index, part)) for part in parts[1:]]
        runs.append([f"broken arguments {n + 1}", stream + [choice(finish="tool_calls")],
                     "U A(error)", [], f"Tool call {first} (plant) arrived with arguments that "
                     "are not a JSON object"])
    t.random.shuffle(runs)
    rows, wanted = [], []
    for name, stream, shape, ran, why in runs:
        answer = [choice({"content": "Done."}), choice(finish="stop")]
        feed = Feed([stream, answer])
        h = harness.Harness(feed, SYSTEM, tools)
        del got[:]
        await lab.drive(h.prompt(f"Tend {word(t)}."))
        last = h.messages[-1]
        said = last.get("error_message")
        if isinstance(why, list):  # what the page pins: text holding what the server said
            said = [isinstance(said, str), why[1] if why[1] in str(said) else str(said)]
        rows.append([name, lab.shape(h.messages), h.messages[1]["stop_reason"], list(got),
                     said, harness.text_of(h.messages[1]), any(feed.changed)])
        words = "".join(c["choices"][0]["delta"].get("content") or "" for c in stream
                        if c.get("choices") and c["choices"][0].get("delta"))
        wanted.append([name, shape, "error" if why is not None else "toolUse" if ran else "stop",
                       ran, why, words, False])
    t.expect(rows, wanted,
             "assemble joins each call's fragments by the call their index (or, at a used "
             "index, a new id) names, a fragment with no index at 0 whatever began last, takes "
             "id and name from whichever fragment brings them (None when none does: the call "
             "is kept), takes an object sent parsed as it "
             "is, lets nulls and choice-less chunks add nothing, reads a finish wherever it "
             "rides, the last one deciding, labels by content, reads an \"error\" that is "
             "null as left out, and fails a reply with its words "
             "and no call, the first reason of the table deciding, the first error chunk's "
             "message as text (even empty, even long) or what it says as text, words after the "
             "finish kept, NaN and Infinity read as no JSON (inside a string they are words), "
             "\"length\" and \"content_filter\" spelled exactly, every chunk and every "
             "fragment read however many, broken arguments named for the "
             "first such call in index order; the chunks come as a generator, walked once, "
             "and none is changed (assemble, lesson 16). Each row: [the case, the record, the "
             "first reply's label, the tools run as [name, arguments], the ending's "
             "error_message (for an error with no message: [it is a str, what it must hold]), "
             "the first reply's words, assemble changed a chunk].")
    # One long reply, walked once as a generator: a call of over 10,000 one-character
    # fragments, each in a chunk of its own, then a delta of over a thousand whole calls.
    size, count = t.random.randint(10_050, 12_000), t.random.randint(1_030, 1_300)
    spelled = json.dumps({"bed": "m" * (size - 11)})  # size characters
    batch = [piece(n, "{}", id=f"{third}x{n}", name="water") for n in range(1, count + 1)]

    def long_reply():
        yield calls(piece(0, spelled[0], id=a, name="plant"))
        for letter in spelled[1:]:
            yield calls(piece(0, letter))
        yield calls(*batch)
        yield choice(finish="tool_calls")
    reply = harness.assemble(long_reply())
    blocks = harness.tool_calls(reply)
    t.expect([reply.get("stop_reason"), len(blocks),
              [len(str(block["arguments"].get("bed"))) for block in blocks[:1]],
              [block["id"] for block in blocks[-1:]]],
             ["toolUse", count + 1, [size - 11], [f"{third}x{count}"]],
             f"One reply handed over as a generator: a call whose arguments, {size} characters, "
             f"come one character a chunk, then one chunk of {count} whole calls, then the "
             "finish. Every chunk is read, to the end, a call's arguments are all its fragments "
             "joined, and every call is in the reply, however many (assemble, lesson 16). "
             "Items: [the stop_reason, the calls in the reply, the length of the first call's "
             "bed, the last call's id].")
    await replies_read_past_their_trouble(t)


@lab_test("One stream, grown a chunk at a time in a single list, is judged by assemble at every "
          "length: a long answer of one-character chunks around a call in OpenAI's shape, then "
          "the noise a server adds after the finish, then an error. Until the finish each length "
          "is unfinished, then the reply is whole and stays whole, then the error decides.")
async def test_bank_one_stream_judged_as_it_grows(t):
    text = "".join(f"{word(t)} " for _ in range(60))[:t.random.randint(301, 330)]
    args = {"bed": word(t), "depth": t.random.randint(1, 40)}
    call_id = word(t)
    message = lab.reply(text, lab.call("plant", args, id=call_id))
    lines = lab.stream_lines(message, real="openai", piece=1)
    chunks = [json.loads(line[len("data: "):]) for line in lines[:-1]]
    keep = copy.deepcopy(chunks)
    grown, judged = [], []
    for chunk in chunks:
        judged.append(harness.assemble(grown))
        grown.append(chunk)
    whole = [harness.assemble(grown)]
    told = f"{word(t)} gone"
    for extra in ([{"id": "x", "choices": [], "usage": {"total_tokens": 5}}, {"choices": None},
                   {"choices": [{"index": 0, "delta": {}, "finish_reason": None}]}],
                  [{"error": {"message": told}}]):
        grown.extend(extra)
        whole.append(harness.assemble(grown))
    early = [[m.get("stop_reason"), m.get("error_message"),
              text.startswith(harness.text_of(m))] for m in judged]
    t.expect([len(chunks), early, whole[:-1], whole[-1], grown[:len(chunks)] == keep],
             [len(chunks), [["error", ENDED, True]] * len(chunks), [message] * 2,
              {"role": "assistant", "content": [{"type": "text", "text": text}],
               "stop_reason": "error", "error_message": told}, True],
             "Until its finish a stream is unfinished at every length, that reason coming "
             "before an empty reply and before arguments cut short; with its finish it is the "
             "message sent, and a usage chunk, a null choices or a later null finish_reason "
             "change nothing; an error chunk after the finish still decides; the chunks are left "
             "as they were (assemble, lesson 16). Items: [chunks before the marker, [label, "
             "reason, words so far a start of the text] at each length before the finish, the "
             "reply at the finish and after the noise, after the error, the chunks unchanged].")
    many = t.random.randint(1_030, 1_300)  # drawn past 1,024 calls (and 1,000 chunks)
    ids = [f"{word(t)}n{n}" for n in range(many)]
    ollama = [choice({"role": "assistant", "content": "",
                      "tool_calls": [piece(0, "{}", id=call, name="water")]}) for call in ids]
    spread = [" "] * t.random.randint(4_100, 4_600) + scraps(json.dumps(args), t)  # past 4,096
    one_delta = [choice({"tool_calls": [piece(0, spread[0], id=call_id, name="plant")]
                         + [piece(0, part) for part in spread[1:]]}), choice(finish="tool_calls")]
    batch = harness.assemble(ollama + [choice(finish="stop")])["content"]
    x, y = ids[:2]
    back = [choice({"role": "assistant", "content": ""}),
            calls(piece(0, '{"bed"', id=x, name="water")), calls(piece(False, ': "a"}')),
            calls(piece(0, "{}", id=y, name="water")), calls(piece(0, "{}", id=x, name="water")),
            choice(finish="tool_calls")]
    kept = copy.deepcopy(back)
    found = [[block["id"] for block in batch], harness.assemble(one_delta)["content"],
             [block["id"] for block in harness.assemble(back)["content"]], back == kept,
             await raised(lambda: harness.assemble(sealed(back)))]
    t.expect(found, [ids, [{"type": "toolCall", "id": call_id, "name": "plant",
                            "arguments": args}], [x, y, x], True, None],
             f"{many} calls at index 0, each whole with an id of its own, as Ollama sends a batch, "
             "are that many calls in the order they began; one delta holding a call's every "
             f"fragment, {len(spread)} of them, is read to its last; an id that returns to an "
             "index after another id begins a new call, and the chunks, a role and a fragment "
             "with no index among them, are left as they came (assemble, lesson 16). Items: "
             "[the ids of the calls, the content of the one-delta reply, the ids of a reply whose "
             "first id comes back at index 0, its chunks unchanged, what assemble raised on "
             "them sealed, so that any write, even one taken back at once, raises TypeError, "
             "or None].")
    bed, other = word(t), word(t)
    whole = json.dumps({"bed": bed})
    far = t.random.randint(10 ** 7, 10 ** 18)  # drawn: an index has no ceiling
    replies = [
        [choice({"content": bed}), {"error": {"code": 503, "type": "overloaded",
                                              "detail": f"{other} queue full"}}],
        [calls(piece(0, whole[:4], id=other, name="plant")),
         calls({"index": 0, "id": None, "function": {"name": None, "arguments": whole[4:]}}),
         choice(finish="tool_calls")],
        [calls(piece(0, whole[:4], id=other)), calls(piece(0, whole[4:], name="plant")),
         choice(finish="tool_calls")],
        [calls(piece(0, "null", id=other, name="plant")), choice(finish="tool_calls")],
        [calls(piece(0, whole[:-2] + "\n" + '"}', id=other, name="plant")),
         choice(finish="tool_calls")],
        [choice({"content": bed}), choice(finish=t.random.choice(["max_length",
                                                                  "content_filtered"]))],
        [choice({"content": " " * t.random.randint(1, 3)}), choice(finish="stop")],
        [calls(piece(0, {"bed": bed}, id=other, name="plant")), calls(piece(0, '{"x": 1}')),
         choice(finish="tool_calls")],
        [calls(piece(0, whole, name="plant")), choice(finish="tool_calls")],
        [choice({"content": bed}), choice(finish="stop"),
         {"choices": [], "usage": {"total_tokens": t.random.randint(9, 99)}}],
        [calls(piece(0, {"bed": bed}, id=other, name="plant")), choice(finish="tool_calls")],
        [calls(piece(0, {"bed": bed}, id=other, name="plant")), calls(piece(0, {"x": 1})),
         choice(finish="tool_calls")],
        [calls(piece(0, whole, id=f" {other}", name="plant ")),
         calls(piece(0, whole, id=other, name="plant")), choice(finish="tool_calls")],
        [choice({"content": bed}), {"error": {"message": other},
                                    **choice(finish="content_filter")}],
        [calls(piece(1, id=bed, name="water")), calls(piece(1, whole, id=other, name="plant")),
         choice(finish="tool_calls")],
        [choice({"content": bed}), calls(piece(0, whole, id=other, name="plant")),
         choice(finish=t.random.choice(["length", "content_filter"])),
         choice(finish=t.random.choice(["stop", "tool_calls"]))],
        [calls(piece(far + t.random.randint(1, 10 ** 18), whole, id=other, name="plant")),
         calls(piece(far, "{}", id=bed, name="water")), choice(finish="tool_calls")]]
    t.random.shuffle(replies)
    sizes = [t.random.randint(5_000, 60_000) for _ in range(3)]  # drawn: no one length
    told, said, path = [(f"{word(t)} " * 12_000)[:size] for size in sizes]
    spelled = json.dumps({"bed": path})
    cut = t.random.randint(1, len(spelled) - 1)
    dust = (f"{word(t)} " * 2_000)[:t.random.randint(10_050, 12_000)]  # a chunk a character
    longs = [[choice({"content": said[:cut]}), choice({"content": said[cut:]}),
              choice(finish="stop")],
             [calls(piece(0, spelled[:cut], id=other, name="plant")),
              calls(piece(0, spelled[cut:])), choice(finish="tool_calls")],
             [choice({"content": bed}), {"error": {"message": told}}],
             [choice({"content": bed}), {"error": {"code": 503, "detail": told}}],
             [choice({"content": letter}) for letter in dust] + [choice(finish="stop")]]
    measured = []
    for reply in longs:
        got = harness.assemble(reply)
        measured.append([got.get("stop_reason"), len(got.get("error_message") or ""),
                         [len(block.get("text", "")) for block in got["content"]],
                         [len(call["arguments"].get("bed", "")) for call in harness.tool_calls(got)
                          if isinstance(call["arguments"], dict)]])
    t.expect(measured,
             [["stop", 0, [len(said)], []], ["toolUse", 0, [0], [len(path)]],
              ["error", len(told), [len(bed)], []],
              ["error", len(str({"code": 503, "detail": told})), [len(bed)], []],
              ["stop", 0, [len(dust)], []]],
             f"Long replies, each in a few chunks: words of {len(said)} characters, a call whose "
             f"arguments are {len(spelled)} characters, an error whose message is {len(told)} "
             "characters, and one with no message whose detail is that text. Each is read "
             "whole, however long: the words exactly as written, the arguments all their "
             f"fragments joined, the error all it says; last, words of {len(dust)} characters, "
             f"one a chunk, {len(dust) + 1} chunks with the finish: every chunk is read, to "
             "the end (assemble, lesson 16). Items: [the "
             "stop_reason, the length of the error_message, the length of each block's text, "
             "the length of each call's bed].")
    replies.append([calls(piece(0, whole, id=other)), choice(finish="tool_calls")])  # last
    buffer, again = [], []
    for reply in replies:  # one list, emptied and filled by each reply, as a reader keeps it
        buffer.clear()
        buffer.extend(reply)
        kept = copy.deepcopy(buffer)
        again.append([harness.assemble(buffer), buffer == kept])
    stopped = [choice({"content": bed}), calls(piece(0, id=other, name="water")),
               calls(piece(1, {"bed": bed}, id=f"{other}b", name="plant"))]
    again.append([harness.assemble(stopped, aborted=True), True])  # last: Stop
    t.expect(again,
             why="Replies one after another in one list, emptied and filled again for each, "
                 "the lengths of two replies often the same: each is judged afresh by what its "
                 "chunks hold, and none is changed: an error whose detail says more, a later "
                 "fragment whose id and name are null, a name on a fragment with no id, "
                 "arguments of null or with a raw line break in a string, a finish whose name "
                 "holds the table's, words of whitespace, an object with text beside it, a call "
                 "no fragment gives an id, a usage chunk after the finish, an object sent "
                 "parsed, two objects for one call, an id and a name with spaces beside them "
                 "and then the same without, an error in the chunk whose finish_reason is "
                 "content_filter, a call at index 1 that brings only its id and name and then "
                 "another id at that index, a cut finish (length or content_filter) that a later finish follows (the last finish is the finish), two calls at indexes past ten million, the larger sent first (an index is the call's place however large), and last a call no fragment names, whose id "
                 "earlier replies named; after them, a reply stopped after its words, a call "
                 "that brought only its id and name, and one whose arguments came as an object "
                 "(assemble, lesson 16). "
                 "Items: [the message, the chunks unchanged] for each reply.")


# -- rule 3: to_wire -----------------------------------------------------------------------


class Client:
    """A model object that writes each request with to_wire, keeps the body, then edits it as
    a client may (a cache mark on each message, user text trimmed), and answers from a script."""

    def __init__(self, script):
        self.script, self.bodies, self.sent = list(script), [], []

    async def acomplete(self, system, messages, tools=(), signal=None):
        body = harness.to_wire(system, messages, tools)
        self.bodies.append(copy.deepcopy(body))  # as it was written
        self.sent.append(body)  # the body itself, kept and then edited
        for sent in body["messages"]:
            sent["cache_control"] = {"type": "ephemeral"}
            if isinstance(sent.get("content"), str):
                sent["content"] = sent["content"].strip()
        return self.script.pop(0)


@lab_test("Two Harnesses, one with an empty system prompt, each with tools of its own carrying "
          "an extra key, run a call and an answer over a client that builds each body "
          "with to_wire and then marks and trims it: each body names its own harness's tools by "
          "their specs alone, opens with the system message, sends no call list on an answer, "
          "and the records keep the text as typed; every body the client kept is still its own.")
async def test_bank_bodies_a_client_edits(t):
    rows, wanted = [], []
    for system in t.random.sample(["", f"  {SYSTEM}\n"], 2):
        name = word(t).replace("-", "_")
        spec = {"name": name, "description": f"Look at {word(t)}.",
                "parameters": {"type": "object", "properties": {"bed": {"type": "string"}}}}
        tools = [spec | {"execute": tool(name, lambda arguments: "seen")["execute"],
                         "colour": word(t)}]
        call_id, bed, typed = word(t), word(t), f"  look at {word(t)}\n"
        client = Client([lab.reply(lab.call(name, {"bed": bed}, id=call_id)),
                         lab.say(f" {word(t)} is dry. "), lab.say("Still dry.")])
        h = harness.Harness(client, system, tools)
        await lab.drive(h.prompt(typed))
        await lab.drive(h.prompt(word(t)))
        rows.append([[body["messages"][0] for body in client.bodies],
                     [body["tools"] for body in client.bodies],
                     [[sorted(sent) for sent in body["messages"] if sent["role"] == "assistant"]
                      for body in client.bodies],
                     h.messages[0]["content"], lab.shape(h.messages),
                     [body["messages"][-1] for body in client.bodies],
                     [body["messages"][1] for body in client.bodies],
                     [len(body["messages"]) for body in client.sent]])
        wanted.append([[{"role": "system", "content": system}] * 3,
                       [[{"type": "function", "function": spec}]] * 3,
                       [[], [["content", "role", "tool_calls"]],
                        [["content", "role", "tool_calls"], ["content", "role"]]],
                       typed, f"U A[{call_id}] R({call_id}) A U A",
                       [{"role": "user", "content": typed},
                        {"role": "tool", "tool_call_id": call_id, "content": "seen"},
                        {"role": "user", "content": h.messages[-2]["content"]}],
                       [{"role": "user", "content": typed}] * 3,
                       [len(body["messages"]) for body in client.bodies]])
    t.expect(rows, wanted,
             "to_wire writes every body afresh from what it is handed: the system message first, "
             "empty or not, each tool as the spec tool_specs gives and no other key of it, for "
             "the tools of this call, the calls only on a message that has some, and the record "
             "untouched by what a client then does to the body, and each body its own, which a "
             "later call's body never is (to_wire, lesson 16, Build item 3). Each row, per "
             "harness: [each body's first message, each body's tools, the keys of each body's "
             "assistant messages, the user's text in the record, the record, each body's last "
             "message, each body's first user message as written (no body shares a message "
             "with a body before it, which the client has trimmed), the messages each body the "
             "client kept holds once all are sent].")
    await bodies_of_conversations_that_reuse_ids(t)


@lab_test("A long record built by hand, over three hundred messages, with untidy text at every "
          "edge (system prompt, user text, words, call ids and names, result ids), failed and "
          "stopped replies among them, is sent through to_wire with tools that carry their "
          "execute and a key of their own, and read back as a provider would: every message is "
          "there in order, every string comes back as recorded, and only the tools' specs go.")
async def test_bank_a_long_record_read_back(t):
    edge = lambda text: (t.random.choice([" ", "\n", "  ", "\t"]) + text
                         + t.random.choice([" ", "\n"]))
    system = edge(SYSTEM)
    record, rounds = [], t.random.randint(101, 200)  # 400 to 800 messages: no one length
    for n in range(rounds):
        call_id, name = edge(f"{word(t)}{n}"), edge(word(t))
        record += [harness.user_message(edge(f"step {n} of {word(t)}")),
                   {"role": "assistant", "content": [{"type": "text", "text": edge(word(t))},
                                                     {"type": "toolCall", "id": call_id,
                                                      "name": name,
                                                      "arguments": {"n": n, "bed": word(t)}}],
                    "stop_reason": "toolUse"},
                   {"role": "toolResult", "tool_call_id": call_id, "content": edge("ok"),
                    "is_error": False},
                   t.random.choice([harness.error_message(edge("gave up")) |
                                    {"content": [{"type": "text", "text": edge("half")}]},
                                    harness.error_message(harness.ABORTED, stop_reason="aborted"),
                                    {"role": "assistant", "content": [{"type": "text",
                                                                       "text": edge(word(t))}],
                                     "stop_reason": "stop"}])]
    late, early = f"z{word(t)}", f"a{word(t)}"  # two calls; their results come late first
    record.append(lab.reply(lab.call("prune", {}, id=late), lab.call("water", {}, id=early)))
    record += [{"role": "toolResult", "tool_call_id": call_id, "content": edge("ok"),
                "is_error": False} for call_id in (late, early)]
    record.append({"role": "assistant", "stop_reason": "stop", "content": [  # two blocks
        {"type": "text", "text": edge(word(t))}, {"type": "text", "text": edge(word(t))}]})
    record.append({"role": "assistant", "stop_reason": "toolUse", "content": [
        {"type": "text", "text": edge("")}, {"type": "toolCall", "id": edge(word(t)),
                                             "name": edge(word(t)), "arguments": {}}]})
    record.append({"role": "assistant", "stop_reason": "toolUse", "content": []})  # an old log's
    specs = [{"name": f"{word(t)}_{n}".replace("-", "_"), "description": edge("Tend a bed."),
              "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}
             for n in range(t.random.randint(2, 4))]
    tools = [spec | {"execute": tool(spec["name"], lambda arguments: "ok")["execute"],
                     t.random.choice(["colour", "cost", "owner"]): word(t),
                     "function": word(t)} for spec in specs]  # a key the wire's shape uses too
    tools[-1] = specs[-1] | {"snippet": edge(word(t))}  # a spec with no execute, a key beside
    kept = copy.deepcopy(record)
    given = tools[:1]
    harness.to_wire(system, record[:4], given)  # a body before the list grows in place
    given += tools[1:]
    body = json.loads(json.dumps(harness.to_wire(system, record, given)))
    held = copy.deepcopy(specs)
    for sent in harness.to_wire(system, record[:1], specs)["tools"]:  # specs handed over bare
        sent["function"]["strict"] = True  # as a client may mark what it sends
    anew = [spec | {"description": edge("Tend it anew.")} for spec in specs]  # the same names
    again = harness.to_wire(system, record[:1], anew)["tools"]
    back = []
    for sent in body["messages"]:
        if sent["role"] == "assistant":
            back.append(["assistant", sent["content"],
                         [[c["id"], c["function"]["name"], c["function"]["arguments"]]
                          for c in sent.get("tool_calls", [])], "tool_calls" in sent])
        elif sent["role"] == "tool":
            back.append(["tool", sent["tool_call_id"], sent["content"]])
        else:
            back.append([sent["role"], sent["content"]])
    wanted = [["system", system]]
    for message in record:
        if message["role"] == "assistant":
            found = harness.tool_calls(message)
            wanted.append(["assistant", harness.text_of(message) or None,
                           [[c["id"], c["name"], json.dumps(c["arguments"])] for c in found],
                           bool(found)])
        elif message["role"] == "toolResult":
            wanted.append(["tool", message["tool_call_id"], message["content"]])
        else:
            wanted.append(["user", message["content"]])
    t.expect([len(record), back, record == kept, body["tools"], specs == held, again],
             [4 * rounds + 6, wanted, True, [{"type": "function", "function": spec} for spec in specs],
              True, [{"type": "function", "function": spec} for spec in anew]],
             "to_wire sends every message handed to it, in order, however many, results in the "
             "order they came, a failed or "
             "stopped reply too, a call no result answers too, and each string as it was "
             "recorded, whitespace at its ends included, words of whitespace alone too, and "
             "arguments as json.dumps spells them by default, keys in their order; the call "
             "list only where there are calls; each tool as tool_specs gives it, a spec dict "
             "with a key beside too, from the list as it is at this call (to_wire, lesson 16). "
             "Items: [messages in the record, each wire message read back, the record unchanged, "
             "the tools sent, each the spec of a tool handed over with its execute and a key of "
             "its own, the last a spec with a snippet, added to the list in place after a first "
             "body, the specs handed over bare unchanged after a client marked the tools of a "
             "body made from them, the tools of a body from specs of the same names said anew]. The reply before the last holds its words as two text "
             "blocks: all its words go out, not the first block alone; the last, labelled toolUse, "
             "holds nothing: it goes out with no call list, and comes out of to_wire as it went "
             "in, no key added.")


# -- round 31 (reader r178): a part more for one scenario of each rule, drawn after the rest
# of it (a scenario draws by its own name, so its earlier draws stay as they were) ------------


async def lines_read_with_their_endings(t):
    """Part of test_bank_lines_from_a_faulty_provider: lines read from bytes, each keeping its
    ending, through decode_line and then assemble: an error line whose JSON payload holds an
    "error" key of its own is wrapped like any other, and a refused data line is named with
    its ending."""
    reason, code = f"{word(t)} overloaded", t.random.randint(500, 599)
    held = t.random.choice([{"error": {"message": reason, "code": code}},
                            {"error": {"message": reason}, "message": f"{word(t)} busy"}])
    ending = t.random.choice(["\r", "\n", "\r\n"])
    said = harness.decode_line("error:" + t.random.choice(["", " "]) + json.dumps(held))
    reply = harness.assemble([choice({"content": word(t)}), said, choice(finish="stop")])
    refused = [f"data: {word(t)}{ending}",
               "data: " + json.dumps(choice({"content": word(t)}))[:-t.random.randint(2, 9)]
               + ending]
    found = [await raised(lambda line=line: harness.decode_line(line)) for line in refused]
    t.expect([said, reply.get("error_message"), found],
             [{"error": held}, str(held.get("message", held)),
              [f"ValueError: not a stream line: {line!r}" for line in refused]],
             "An error line gives {\"error\": its payload}, whatever the payload holds, an "
             "\"error\" key of its own too, and the reply then reports what that payload says "
             "(its message, or the payload as Python writes it); a data line that is no JSON "
             "object is refused naming the line as it was handed over, its line ending "
             "included (decode_line, Build item 1). Items: [what decode_line gave for the "
             "error line, the reply's error_message, what each refused line raised].")


async def replies_read_past_their_trouble(t):
    """Part of test_bank_a_job_fed_chunk_by_chunk: a Harness of lesson 15 over a model object
    that hands assemble each reply's chunks: a reply whose error chunk comes between its words,
    its message several lines long; a long answer; a call renamed by a fragment with no id; and
    failed replies with no words, each written into by the loop's caller."""
    ran = []
    tools = [tool(name, lambda arguments, name=name: ran.append([name, arguments]) or "done",
                  {"type": "object"}) for name in ("prune", "water")]
    before, after = f"{word(t)} ", f"{word(t)}."
    message = "\n".join(word(t) for _ in range(t.random.randint(2, 4)))
    trouble = [choice({"content": before}), {"error": {"message": message}},
               choice({"content": after}, finish="stop")]
    long = (f"{word(t)} " * 90_000)[:t.random.randint(100_001, 900_000)]
    cuts = sorted(t.random.sample(range(1, len(long)), 4))
    answer = [choice({"content": long[a:b]}) for a, b in zip([0] + cuts, cuts + [len(long)])]
    answer.append(choice(finish="stop"))
    bed, call_id = word(t), word(t)
    text = json.dumps({"bed": bed})
    renamed = [calls(piece(0, text[:3], id=call_id, name="water")),
               calls(piece(0, text[3:], name="prune")), choice(finish="tool_calls")]
    h = harness.Harness(Feed([trouble, answer, renamed, [choice({"content": "Done."},
                                                                finish="stop")]]),
                        SYSTEM, tools)
    for prompt in ("first", "second", "third"):
        await lab.drive(h.prompt(prompt))
    replies = [m for m in h.messages if m["role"] == "assistant"]
    failed = [harness.assemble([], aborted=True), harness.assemble([choice(finish="stop")]),
              harness.assemble([{"error": word(t)}])]
    for reply in failed:
        reply["content"].append({"type": "text", "text": "noted"})
    again = [harness.assemble([], aborted=True)["content"],
             harness.assemble([choice(finish="stop")])["content"],
             harness.assemble([{"error": word(t)}])["content"]]
    t.expect([[replies[0].get("error_message"), harness.text_of(replies[0])],
              [len(harness.text_of(replies[1])), harness.text_of(replies[1]) == long],
              [[call["id"], call["arguments"]] for call in harness.tool_calls(replies[2])],
              len(ran), again],
             [[message, before + after], [len(long), True], [[call_id, {"bed": bed}]], 1,
              [[], [], []]],
             "Every chunk is read, to the end: an error chunk fails the reply with its message, "
             "as text, every line of it, and the words after it are still its words; a long "
             "answer is one text block of every character, however many; only a new id begins "
             "a new call, so a fragment with no id that names the call otherwise still belongs "
             "to it, and its one call runs; and each failed reply holds a content list of its "
             "own, so what a caller wrote into one is in no later reply (assemble, Build item "
             "2). Items: [[the first reply's error_message, its words], [the second's length, "
             "it is the answer whole], [id, arguments] of the third's calls, how many tool "
             "runs, the content of three failed replies made after their twins were written "
             "into].")


async def bodies_of_conversations_that_reuse_ids(t):
    """Part of test_bank_bodies_a_client_edits: a client that keeps each body, over
    conversations that each begin again with the id c1 and over a tools list naming one tool
    twice: each body's arguments are its own record's, and every tool in the list goes out."""
    names = t.random.sample(["prune", "water", "plant", "weed"], 2)
    tools = [{"name": names[0], "description": f"Look at {word(t)}.",
              "parameters": {"type": "object"}},
             {"name": names[1], "description": f"Tend {word(t)}.",
              "parameters": {"type": "object"}}]
    tools.append({**tools[0], "description": f"Look closer at {word(t)}."})
    tools = [spec | {"execute": tool(spec["name"], lambda arguments: "seen")["execute"]}
             for spec in tools]
    beds = [word(t) for _ in range(3)]
    client = Client([said for bed in beds  # each conversation: a call of c1, then an answer
                     for said in (lab.reply(lab.call(names[0], {"bed": bed}, id="c1")),
                                  lab.say("Fine."))])
    for bed in beds:
        h = harness.Harness(client, SYSTEM, tools)
        await lab.drive(h.prompt(f"look at {bed}"))
    sent = [[m["tool_calls"][0]["function"]["arguments"] for m in body["messages"]
             if m.get("tool_calls")] for body in client.bodies]
    t.expect([sent, [[entry["function"]["description"] for entry in body["tools"]]
                     for body in client.bodies]],
             [[sends for bed in beds for sends in ([], [json.dumps({"bed": bed})])],
              [[spec["description"] for spec in tools]] * 6],
             "Each call of to_wire makes a body of its own: a call's arguments are json.dumps of "
             "that record's call, never text kept from an earlier body for the same id (a new "
             "conversation begins at c1 again), and each tool in the list goes out, two of one "
             "name too (to_wire, Build item 3). Items: [for each body, the arguments of each "
             "call it sends; for each body, its tools' descriptions].")
