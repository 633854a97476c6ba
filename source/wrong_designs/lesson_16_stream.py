"""Lesson 16's wrong designs (tools/wrong_designs.py describes the format). Each is a change to
the reference of the lab whose gap holds the code: reading lines and adding up a reply
(decode_line, assemble, to_wire) are lab 16.1's; reading the stream as it comes
(StreamingModel.acomplete) is lab 16.2's.

One design the lesson names is not here: a blocking SDK on a worker thread, treated as
cancellable. lab.FakeProvider has no blocking call to put on a thread, so lab code cannot
express it; the lesson's rung runs it against lab.BlockingClient instead.
"""
from tools.wrong_designs import Beyond, Wrong

WRONG = [
    # Hunt round 10 (reader r40), design 16.1-06: the reader's own first passing file, and the
    # reference's until the page ruled.
    Wrong(lab='16.1', name='an error key holding null read as an error chunk',
          rule='A key whose value is null counts as left out, wherever it stands: a chunk whose "error" is null is no error chunk.',
          where='lab 16.1, Build section, the table: "(a `null` one counts as left out, as everywhere: no error)"',
          names='is no error chunk',
          replace=r'''
        if chunk.get("error") is not None:  # the key, whatever it holds; but null is left out
''',
          by=r'''
        if "error" in chunk:
'''),
    # Hunt round 10 (reader r40), probe 16.1-83.
    Wrong(lab='16.1', name='a call with no id or no name failing the reply',
          rule='A call no fragment gives an id, or a name, is kept as it came, its id, or name, None: only arguments that are not an object break a call.',
          where='lab 16.1, Build section, item 2: "A call no fragment gives an id, or a name, is kept as it came"',
          names='is kept as it came',
          replace=r'''
        if not isinstance(arguments, dict):
''',
          by=r'''
        if not isinstance(arguments, dict) or call["id"] is None or call["name"] is None:
'''),
    # Hunt round 10 (reader r40), probe 16.1-84.
    Wrong(lab='16.1', name='decode_line handing out the same dict for the same line',
          rule='Each call of decode_line gives a new dict, even for a line read before: a caller may change what it was given.',
          where='lab 16.1, Build section, item 1: "Each call gives a new dict, even for a line it has read before"',
          names='Each call gives a new dict',
          replace=r'''
def decode_line(line):
''',
          by=r'''
_DECODED = {}


def decode_line(line):
    if line not in _DECODED:
        _DECODED[line] = _decode_line(line)
    return _DECODED[line]


def _decode_line(line):
'''),
    Wrong(lab='16.1', name='json.loads on each fragment',
          rule='A fragment of the arguments is not JSON: join every fragment of a call, then parse once, at the end.',
          where='warm-up "a JSON string in pieces"; the scene (the ten-minute adapter)',
          names='parsed once',
          replace=r'''
                call["parts"].append("" if said is None else said)
''',
          by=r'''
                fragment = said or "{}"
                call["parts"].append(json.dumps(json.loads(fragment)))  # each piece, checked
'''),
    Wrong(lab='16.1', name='matching fragments by arrival order instead of index',
          rule='A fragment belongs to the call its index names: fragments of two calls may take turns.',
          where='rung "Whose fragment is it?"',
          names='index',
          replace=r'''
                call = latest.get(index)
                if call is None or (call_id and call["id"] and call_id != call["id"]):
''',
          by=r'''
                call = calls[-1] if calls and not call_id else None  # the newest call's
                if call is None:
'''),
    Wrong(lab='16.1', name='expecting the id on every fragment',
          rule="A call's id and name arrive once, with its first fragment; later fragments carry only the index.",
          where='rung "Whose fragment is it?"',
          names='first fragment',
          replace=r'''
                call["id"] = call_id or call["id"]  # only the first fragment has it
''',
          by=r'''
                call["id"] = call_id  # every fragment says whose it is
'''),
    Wrong(lab='16.1', name='half-built calls left in failed or aborted messages',
          rule='A reply that did not arrive whole keeps its words and drops every call: nothing in it may be acted on, and a half-built call has no arguments to record.',
          where='rung "The reply that breaks off"',
          names='drops every call',
          replace=r'''
    return {**failed, "content": content}  # the words stay; no call does
''',
          by=r'''
    whole = [block for block in blocks if block["arguments"] is not None]
    return {**failed, "content": content + whole}  # keep the calls that did arrive whole
'''),
    Wrong(lab='16.1', name='raising on provider errors',
          rule='Provider trouble is a reply labelled "error", never an exception (lesson 5): an error chunk becomes the reply\'s error_message.',
          where='opening prediction (lesson 5: trouble is recorded, not raised)',
          names='an "error" reply',
          replace=r'''
            failure = failure or str(error if said is None else said)
''',
          by=r'''
            raise RuntimeError(str(error if said is None else said))  # say so loudly
'''),
    Wrong(lab='16.1', name='letting finish_reason decide the label',
          rule='The content decides the label: a reply with calls is "toolUse" whatever finish_reason said (lesson 3).',
          where='opening prediction (lesson 3: the label is someone else\'s word)',
          names='content decides',
          replace=r'''
                "stop_reason": "toolUse" if blocks else "stop"}
''',
          by=r'''
                "stop_reason": "toolUse" if finish == "tool_calls" else "stop"}
'''),
    Wrong(lab='16.1', name='reporting broken arguments before a missing finish',
          rule='The first reason in the table decides: a stream cut inside a call has broken arguments because it was cut, and the cut is what the reply reports.',
          where='Build: put the pieces together (the table\'s order is tested)',
          names='earlier cause',
          replace=r'''
    elif finish is None:
        why = "The stream ended before the reply was finished"
    elif finish == "length":
        why = "The reply was cut off at the output limit"
    elif finish == "content_filter":
        why = "The provider's content filter stopped the reply"
    elif broken is not None:
        why = broken
''',
          by=r'''
    elif broken is not None:  # the arguments are what is visibly wrong
        why = broken
    elif finish is None:
        why = "The stream ended before the reply was finished"
    elif finish == "length":
        why = "The reply was cut off at the output limit"
    elif finish == "content_filter":
        why = "The provider's content filter stopped the reply"
'''),
    Wrong(lab='16.1', name='[DONE] only with the space after the colon',
          rule='The space after `data:` is optional on the wire (SSE drops one space if present): `data:[DONE]` ends a stream as `data: [DONE]` does.',
          where='Minute one of a real provider; Build: put the pieces together (decode_line)',
          names='optional',
          replace=r'''
    if payload == STREAM_DONE:
''',
          by=r'''
    if line == "data: [DONE]":  # the marker, exactly as the provider writes it
'''),
    Wrong(lab='16.1', name='id and name taken only from the first fragment',
          rule="A call's id and name come from whichever fragment carries them, not from the fragment that opened the call.",
          where='Build: put the pieces together (gap 2)',
          names='whichever fragment',
          replace=r'''
                    call = {"index": index, "id": None, "name": None, "parts": []}  # a new id
                    latest[index] = call
                    calls.append(call)
                function = piece.get("function") or {}
                call["id"] = call_id or call["id"]  # only the first fragment has it
                call["name"] = function.get("name") or call["name"]
''',
          by=r'''
                    function = piece.get("function") or {}  # the first fragment names it
                    call = {"index": index, "id": call_id, "name": function.get("name"),
                            "parts": []}
                    latest[index] = call
                    calls.append(call)
                function = piece.get("function") or {}
'''),
    Wrong(lab='16.1', name='every chunk read as choices[0]',
          rule='A chunk may carry no choice at all, as OpenAI\'s usage chunk after the finish does; it changes nothing in the reply.',
          where='Build: put the pieces together (gap 2)',
          names='usage chunk',
          replace=r'''
        for choice in chunk.get("choices") or ():
''',
          by=r'''
        for choice in [chunk["choices"][0]] if "choices" in chunk else []:  # one per chunk
'''),
    Wrong(lab='16.1', name='content_filter read as a finished reply',
          rule='A finish_reason of "content_filter" means the provider withheld the rest: the reply did not arrive whole, so it fails with its own sentence.',
          where='section "What a real server sends"; Build: put the pieces together (the table)',
          names='content_filter',
          replace=r'''
    elif finish == "content_filter":
        why = "The provider's content filter stopped the reply"
''',
          by=''),
    Wrong(lab='16.1', name='every delta taken to hold a string of content',
          rule='A delta may hold only the role, or "content": null beside its calls: None adds no words.',
          where='section "What a real server sends"; Build: put the pieces together (gap 2)',
          names='null',
          replace=r'''
            words.append(delta.get("content") or "")  # a delta may hold only a role, or None
''',
          by=r'''
            words.append(delta.get("content", ""))  # no content key, no words
'''),
    Wrong(lab='16.1', name='a later null finish_reason erasing the finish before it',
          rule='A reply that arrived whole is judged by the finish_reason the stream gave; a later chunk whose finish_reason is null does not take it back.',
          where='lab 16.1, gap 2: "`assemble(chunks, *, aborted=False)`"',
          names='takes nothing back',
          replace=r'''
            finish = choice.get("finish_reason") or finish
''',
          by=r'''
            finish = choice.get("finish_reason")
'''),
    Wrong(lab='16.1', name='arguments that parse to null, [] or 0 read as {}',
          rule='Arguments parsed from the joined fragments must be a JSON object; only an empty text means {}.',
          where='lab 16.1, gap 2: "`assemble(chunks, *, aborted=False)`"',
          names='not a JSON object',
          replace=r'''
                arguments = json.loads(joined) if joined else {}
''',
          by=r'''
                arguments = (json.loads(joined) if joined else {}) or {}
'''),
    Wrong(lab='16.1', name='"tool_calls": [] on every assistant message',
          rule="An assistant message's calls travel under tool_calls; a message with no calls has no tool_calls key, since real servers refuse an empty array.",
          where='lab 16.1, gap 4: "`to_wire(system, messages, tools)`"',
          names='no tool_calls key',
          replace=r'''
            calls = tool_calls(message)
            if calls:
                said["tool_calls"] = [
''',
          by=r'''
            calls = tool_calls(message)
            if True:
                said["tool_calls"] = [
'''),
    Wrong(lab='16.2', name='acting on arguments that look complete',
          rule='A call is not ready when its arguments parse: read to the end of the stream and let assemble decide; an error or a cut after them fails the whole reply.',
          where='rung "When is a call ready?"',
          names='never run',
          replace=r'''
                if chunk is not None:
                    chunks.append(chunk)
''',
          by=r'''
                if chunk is not None:
                    chunks.append(chunk)
                    ended = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
                    looks = assemble(chunks + [ended])
                    if looks["stop_reason"] == "toolUse":
                        return looks  # the arguments parse: no need to wait for the rest
'''),
    Wrong(lab='16.2', name='reading until the connection ends, past [DONE]',
          rule='`data: [DONE]` ends the stream: stop reading there and close the response, whatever the server does with the connection next.',
          where='Minute one of a real provider ("`data: [DONE]` closes the stream")',
          names='[DONE]',
          replace=r'''
                line = response.read_line()
                try:
                    chunk = STREAM_DONE if line is None else decode_line(line)
                except ValueError as exc:  # a line that is not a stream line; only decode_line's
                    return error_message(str(exc))
                if chunk == STREAM_DONE:
                    break
                if chunk is not None:
                    chunks.append(chunk)
''',
          by=r'''
                line = response.read_line()
                if line is None:
                    break  # the connection is over, so the reply is all in
                try:
                    chunk = decode_line(line)
                except ValueError as exc:
                    return error_message(str(exc))
                if chunk is not None and chunk != STREAM_DONE:
                    chunks.append(chunk)
'''),
    Wrong(lab='16.2', name='async for line in response, with a flag check between lines',
          rule='A reader must look at the signal while the provider is silent, not only when a line arrives: poll with ready() and a zero sleep.',
          where='rung "The provider that goes quiet"; Tau comparison (the check between lines)',
          names='async for',
          replace=r'''
            while True:
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                line = response.read_line()
                try:
                    chunk = STREAM_DONE if line is None else decode_line(line)
''',
          by=r'''
            async for line in response:  # each line as it comes
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # looked at between two lines
                try:
                    chunk = decode_line(line)
'''),
    Wrong(lab='16.2', name='looking at the signal only while no line is ready',
          rule='The signal is looked at on every lap of the poll, line or no line: a fast provider always has a line ready.',
          where='Build: read as it comes (a response whose lines are all ready at once)',
          names='every lap',
          replace=r'''
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
''',
          by=r'''
                if not response.ready():
                    if signal is not None and signal.is_cancelled():  # while waiting, look
                        return assemble(chunks, aborted=True)
                    await asyncio.sleep(0)
'''),
    Wrong(lab='16.2', name='catching only ConnectionError when sending',
          rule='Any Exception from open is the provider\'s trouble and becomes an error reply, not only a refused connection.',
          where='Build: read as it comes (if open raises any Exception)',
          names='any Exception',
          replace='        except Exception as exc:  # refused, unreachable, turned away: news, not a crash',
          by='        except ConnectionError as exc:  # the one way a request fails'),
    Wrong(lab='16.2', name='raising when the connection is refused',
          rule='Provider trouble is a reply labelled "error", never an exception: open raising becomes error_message(f"Provider request failed: {exc}").',
          where='opening prediction (lesson 5: trouble is recorded, not raised)',
          names='without raising',
          replace=r'''
        try:
            response = self.client.open(to_wire(system, messages, tools))
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
            if getattr(exc, "status", None) != 429:
                return error_message(f"Provider request failed: {exc}")
            if getattr(exc, "code", None) == "insufficient_quota":
                return error_message(f"Provider quota spent, so waiting will not help: {exc}")
            wait = getattr(exc, "retry_after", None)
            later = "later" if wait is None else f"in {wait} s"
            return error_message(f"Provider rate limit, so send again {later}: {exc}")
''',
          by=r'''
        response = self.client.open(to_wire(system, messages, tools))  # a failure is loud
'''),
    Wrong(lab='16.2', name='sending again when the request is turned away',
          rule='acomplete sends one request per call: a status before the stream is a reply, and whether to send again is not decided inside it.',
          where='section "What a real server sends" (a 4xx or 429 before the stream)',
          names='one request',
          replace=r'''
        try:
            response = self.client.open(to_wire(system, messages, tools))
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
            if getattr(exc, "status", None) != 429:
                return error_message(f"Provider request failed: {exc}")
            if getattr(exc, "code", None) == "insufficient_quota":
                return error_message(f"Provider quota spent, so waiting will not help: {exc}")
            wait = getattr(exc, "retry_after", None)
            later = "later" if wait is None else f"in {wait} s"
            return error_message(f"Provider rate limit, so send again {later}: {exc}")
''',
          by=r'''
        try:
            response = self.client.open(to_wire(system, messages, tools))
        except Exception:  # a blip: nothing arrived, so simply ask again
            try:
                response = self.client.open(to_wire(system, messages, tools))
            except Exception as exc:
                return error_message(f"Provider request failed: {exc}")
'''),
    Wrong(lab='16.2', name='responses left open',
          rule='The response is closed on every way out of acomplete: a reply nobody reads must not keep its connection.',
          where='Build: read as it comes (close on every way out)',
          names='closed',
          replace=r'''
        finally:
            response.close()  # on every way out, a hard cancel's too
''',
          by=''),
    Wrong(lab='16.2', name='closing the response only where the reading ends well',
          rule='The close goes in a finally: a hard cancel comes out of the zero sleep, a way out that sees no flag.',
          where='Build: read as it comes (close on every way out)',
          names='finally',
          replace=r'''
        finally:
            response.close()  # on every way out, a hard cancel's too
        return assemble(chunks)
''',
          by=r'''
        finally:
            pass  # the response is closed below, once the stream is over
        response.close()  # the stream is over
        return assemble(chunks)
'''),
    Wrong(lab='16.2', name='recording partial messages',
          rule='A reply stopped mid-stream is recorded as aborted, words kept and calls dropped, never as if it had finished.',
          where='rung "The reply that breaks off"; Build: read as it comes',
          names='aborted',
          replace=r'''
                    return assemble(chunks, aborted=True)  # the words so far, and no call
''',
          by=r'''
                    ended = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
                    return assemble(chunks + [ended])  # what arrived is the reply
'''),
    Wrong(lab='16.1', name='grouping by index alone, on a server that reuses it',
          rule='A fragment with a new id at an index already used starts a new call: Ollama sends every call of a reply at index 0, or with no index.',
          where='rung "Whose fragment is it?"; section "What a real server sends" (Ollama)',
          names='new id',
          replace=r'''
                if call is None or (call_id and call["id"] and call_id != call["id"]):
''',
          by=r'''
                if call is None:  # the index names the call, always
'''),
    Wrong(lab='16.1', name='arguments taken always to be a string',
          rule='Arguments may arrive as a string to parse or already as an object: an object that came whole is the arguments.',
          where='section "What a real server sends" (a proxy in front of Ollama)',
          names='object',
          replace=r'''
        objects = [part for part in call["parts"] if not isinstance(part, str)]
        joined = "".join(part for part in call["parts"] if isinstance(part, str))
''',
          by=r'''
        objects, joined = [], "".join(call["parts"])  # the wire's arguments are text
'''),
    Wrong(lab='16.1', name='an error line skipped as a field nobody reads',
          rule='An `error:` line is a failure with its reason (llama.cpp sends one): decode_line gives {"error": ...}, and the reply fails saying what the server said.',
          where='section "What a real server sends" (llama.cpp)',
          names='error:',
          replace=r'''
    if line.startswith("error:"):  # a failure, said as its own field: its reason is news
''',
          by=r'''
    if line.startswith("error:") and False:  # only data lines carry the reply
'''),
    Wrong(lab='16.2', name='every 429 told to wait',
          rule='A rate limit and spent quota are different failures: a 429 whose code is insufficient_quota says waiting will not help; only a rate limit says when to send again.',
          where='section "What a real server sends" (the two 429s)',
          names='quota',
          replace=r'''
            if getattr(exc, "code", None) == "insufficient_quota":
                return error_message(f"Provider quota spent, so waiting will not help: {exc}")
''',
          by=''),
    Wrong(lab='16.2', name='a Retry-After of 0 read as none given',
          rule='A rate limit says to send again in N s, N being its retry_after, 0 included; only None says later.',
          where='lab 16.2, gap 1: "Sending"',
          names='0 included',
          replace=r'''
            later = "later" if wait is None else f"in {wait} s"
''',
          by=r'''
            later = f"in {wait} s" if wait else "later"
'''),
    Wrong(lab='16.2', name='the signal looked at only once the request is sent',
          rule='When the signal is already set, nothing is sent, and the reply is the aborted one with no words.',
          where='lab 16.2, gap 1: "Sending"',
          names='nothing',
          replace=r'''
        if signal is not None and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
        try:
            response = self.client.open(to_wire(system, messages, tools))
''',
          by=r'''
        try:
            response = self.client.open(to_wire(system, messages, tools))
'''),
    Wrong(lab='16.2', name='a 429 told by its words',
          rule="A 429 is the exception's status, read with getattr, never the words of its text.",
          where='Build: read as it comes, item 1 (hunt round 1, 16.2-2)',
          names='status',
          replace=r'''
            if getattr(exc, "status", None) != 429:
''',
          by=r'''
            if "429" not in str(exc):
'''),
    Wrong(lab='16.2', name='spent quota told before the status',
          rule='Code insufficient_quota means spent quota only on a 429: the status is looked at first.',
          where='Build: read as it comes, item 1 (hunt round 1, 16.2-3)',
          names='only on a 429',
          replace=r'''
            if getattr(exc, "status", None) != 429:
                return error_message(f"Provider request failed: {exc}")
            if getattr(exc, "code", None) == "insufficient_quota":
                return error_message(f"Provider quota spent, so waiting will not help: {exc}")
''',
          by=r'''
            if getattr(exc, "code", None) == "insufficient_quota":
                return error_message(f"Provider quota spent, so waiting will not help: {exc}")
            if getattr(exc, "status", None) != 429:
                return error_message(f"Provider request failed: {exc}")
'''),
    Wrong(lab='16.2', name='sending once more after a glitch in the client',
          rule='Exactly one request goes out: if sending raises any Exception, the reply is an error ending and no second request goes out.',
          where='Build: read as it comes, item 1 (hunt round 1, 16.2-6)',
          names='exactly one request',
          replace=r'''
        try:
            response = self.client.open(to_wire(system, messages, tools))
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
''',
          by=r'''
        try:
            try:
                response = self.client.open(to_wire(system, messages, tools))
            except Exception as first:
                if isinstance(first, ConnectionError) or getattr(first, "status", None):
                    raise
                response = self.client.open(to_wire(system, messages, tools))  # once more
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
'''),
    Wrong(lab='16.2', name='lines not starting data: skipped before decode_line',
          rule="Only lines that carry nothing are skipped: an error: line carries the failure's reason, and goes to decode_line like every line.",
          where='Build: read as it comes, item 2 (hunt round 1, 16.2-4)',
          names='carries something',
          replace=r'''
                line = response.read_line()
                try:
''',
          by=r'''
                line = response.read_line()
                if line is not None and not line.startswith("data:"):
                    continue  # a comment, a blank or a field we have no use for
                try:
'''),
    Wrong(lab='16.2', name='giving up on a provider that goes quiet',
          rule='The response is read to its end or a Stop, however long the provider is quiet: no count of quiet looks ends it.',
          where='Build: read as it comes, item 2; "Reading while it arrives" (hunt round 1, 16.2-5)',
          names='never a count of quiet looks',
          replace=r'''
        chunks = []
        try:
            while True:
''',
          by=r'''
        chunks, quiet = [], 0
        try:
            while True:
''',
          also=((r'''
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                line = response.read_line()
''', r'''
                if not response.ready():
                    quiet += 1
                    if quiet > 1000:  # it has gone quiet for good
                        return {**error_message("The provider went quiet"),
                                "content": assemble(chunks, aborted=True)["content"]}
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                quiet = 0
                line = response.read_line()
'''),)),
    Wrong(lab='16.2', name='read_line before ready, a RuntimeError taken for not yet',
          rule='read_line() is called only once ready() says a line can be had.',
          where="Build: read as it comes (the response's interface); lab 16.2, gap 2 (hunt round 1, 16.2-7)",
          names='only once ready()',
          replace=r'''
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                line = response.read_line()
''',
          by=r'''
                try:
                    line = response.read_line()
                except RuntimeError:  # no line yet
                    await asyncio.sleep(0)
                    continue
'''),
    Wrong(lab='16.1', name='the same id again taken for a new call',
          rule='A fragment begins a new call at its index only when it brings an id other than the id already there: one that repeats the call\'s own id goes on with that call.',
          where='lab 16.1, Build section: "an id other than the id already at its index"; hunt round 2, 16.1-1',
          names='or with the same id again',
          replace=r'''
                if call is None or (call_id and call["id"] and call_id != call["id"]):
''',
          by=r'''
                if call is None or (call_id and call["id"]):  # a second id: a call begins
'''),
    Wrong(lab='16.1', name="an error's reason read only from its message",
          rule='An error chunk\'s reason is its message, or, for an error that has none (a plain string), what it says as text; assemble raises nothing for it.',
          where='lab 16.1, Build section: "for an error that has none"; hunt round 2, 16.1-2',
          names='a plain string',
          replace=r'''
            said = error.get("message") if isinstance(error, dict) else None
            failure = failure or str(error if said is None else said)
''',
          by=r'''
            failure = failure or error["message"]  # every error has a message
'''),
    Wrong(lab='16.1', name='the walk ended at the first finish',
          rule='The first reason in the table that applies is the one reported, and an error chunk comes before every finish_reason: one that arrives after the finish is still read and reported.',
          where='lab 16.1, Build section: "the first in the table is the one reported"; hunt round 2, 16.1-3',
          names='whatever finish came before or after it',
          replace=r'''
    for chunk in chunks:
        if chunk.get("error") is not None:  # the key, whatever it holds; but null is left out
''',
          by=r'''
    for chunk in chunks:
        if finish is not None:  # the reply is finished: nothing after it matters
            break
        if chunk.get("error") is not None:  # the key, whatever it holds; but null is left out
'''),
    Wrong(lab='16.1', name='length and content_filter judged before an error chunk',
          rule='The table\'s order is tested: an error chunk comes before "length" and "content_filter", so a stream with both reports the error\'s message.',
          where='lab 16.1, Build section: "The table\'s order is tested"; hunt round 2, 16.1-4',
          names='whatever finish came before or after it',
          replace=r'''
    elif failure is not None:
        why = failure
''',
          by=r'''
    elif finish == "length":
        why = "The reply was cut off at the output limit"
    elif finish == "content_filter":
        why = "The provider's content filter stopped the reply"
    elif failure is not None:
        why = failure
'''),
    Wrong(lab='16.1', name='the words stripped',
          rule='A reply that arrived whole holds its words as one text block, exactly as they came: whitespace at the ends is the model\'s too.',
          where='lab 16.1, Build section: "holds its words as one text block"; hunt round 2, 16.1-5',
          names='exactly as the model wrote them',
          replace=r'''
    text = "".join(words)
''',
          by=r'''
    text = "".join(words).strip()  # tidy the edges
'''),
    Wrong(lab='16.1', name='arguments sent parsed taken whatever they are',
          rule='Arguments that are not a JSON object fail the reply, whether they came as text or already parsed: a list, a number or true sent as a value is no object.',
          where='lab 16.1, Build section: "arguments that are not a JSON object"; hunt round 2, 16.1-6',
          names='taken whole only when they are an object',
          replace=r'''
        if objects and not joined and len(objects) == 1:
            arguments = objects[0]  # sent already parsed: whole, and judged below like any
''',
          by=r'''
        trusted = bool(objects) and not joined and len(objects) == 1
        if trusted:
            arguments = objects[0]  # parsed by the server already: trust it
''',
          also=((r'''
        if not isinstance(arguments, dict):
''', r'''
        if not trusted and not isinstance(arguments, dict):
'''),)),
    Wrong(lab='16.1', name='arguments parsed as the fragments arrive',
          rule="A call's arguments are all its fragments joined, parsed once, at the end: a first fragment that happens to parse does not end the call.",
          where='lab 16.1, Build section: "arguments parsed from all its fragments joined"; hunt round 2, 16.1-9',
          names='nothing is parsed while fragments still come',
          replace=r'''
                call["parts"].append("" if said is None else said)
''',
          by=r'''
                if call.get("whole"):
                    continue  # complete already: later scraps dropped
                call["parts"].append("" if said is None else said)
                try:  # ready as soon as it parses
                    call["whole"] = isinstance(json.loads("".join(call["parts"])), dict)
                except (TypeError, ValueError):
                    pass
'''),
    Wrong(lab='16.1', name='calls at one index ordered by id',
          rule='Calls stand in the order of their index, and calls at one index in the order they began, not sorted by id.',
          where='lab 16.1, Build section: "calls at one index in the order they began"; hunt round 2, 16.1-10',
          names='not sorted by id',
          replace=r'''
    for call in sorted(calls, key=lambda call: call["index"]):  # stable: in order at one index
''',
          by=r'''
    for call in sorted(calls, key=lambda call: (call["index"], call["id"] or "")):  # tidy order
'''),
    Wrong(lab='16.1', name='whitespace read as no arguments',
          rule='Only an empty text means {}: arguments of spaces or a newline do not parse, and fail the reply.',
          where='lab 16.1, Build section: "only an empty text means"; hunt round 2, 16.1-11',
          names='whitespace alone does not parse',
          replace=r'''
                arguments = json.loads(joined) if joined else {}
''',
          by=r'''
                arguments = json.loads(joined) if joined.strip() else {}  # blank is empty
'''),
    Wrong(lab='16.1', name="the record's user messages put in the body",
          rule="to_wire builds the body in new dicts, so the record's messages come out exactly as they went in, even when a client marks or trims what it sends.",
          where='lab 16.1, Build section: "The record\'s messages come out of this exactly as they went in"; hunt round 2, 16.1-7',
          names='a client that marks or trims',
          replace=r'''
            wire.append({"role": "user", "content": message["content"]})
''',
          by=r'''
            wire.append(message)  # already in the wire's shape
'''),
    Wrong(lab='16.1', name='every key of a tool but execute sent',
          rule='Each tool goes out as {"type": "function", "function": spec}, the spec the one tool_specs gives: name, description and parameters, nothing else of the tool.',
          where='lab 16.1, Build section: "where the spec is the one `tool_specs` gives"; hunt round 2, 16.1-8',
          names='never their execute, snippet or guidelines',
          replace=r'''
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
''',
          by=r'''
            "tools": [{"type": "function",
                       "function": {k: v for k, v in tool.items() if k != "execute"}}
                      for tool in tools],
'''),
    # Round 5 (reader r19, source/hunts/round-5.md): lab 16.1's designs that passed.
    Wrong(lab='16.1', name='the empty reply judged before a missing finish',
          rule='The first reason in the table that applies is the one reported: a stream cut before anything came did not finish, and the missing finish comes before the empty reply.',
          where='lab 16.1, Build section: "the first in the table is the one reported"; hunt round 5, 16.1-1',
          names='first reason in the table',
          replace=r'''
    elif finish is None:
        why = "The stream ended before the reply was finished"
''',
          by=r'''
    elif not content and not blocks:  # nothing came: say so first
        why = "The provider sent an empty reply"
    elif finish is None:
        why = "The stream ended before the reply was finished"
'''),
    Wrong(lab='16.1', name='broken arguments judged before content_filter',
          rule='The table puts "length" and "content_filter" before broken arguments: a reply cut inside a call reports the finish that cut it.',
          where='lab 16.1, Build section: "the first in the table is the one reported"; hunt round 5, 16.1-2',
          names='comes before broken arguments',
          replace=r'''
    elif finish == "content_filter":
        why = "The provider's content filter stopped the reply"
    elif broken is not None:
        why = broken
''',
          by=r'''
    elif broken is not None:  # what is visibly wrong, before the filter
        why = broken
    elif finish == "content_filter":
        why = "The provider's content filter stopped the reply"
'''),
    Wrong(lab='16.1', name='an error chunk told by the truth of its value',
          rule='An error chunk is a chunk with an "error" key, whatever the key holds but null (a null key counts as left out): {"error": {}} and {"error": ""} fail the reply too.',
          where='lab 16.1, Build section (the table\'s second row); hunt round 5, 16.1-3',
          names='whatever that key holds',
          replace=r'''
        if chunk.get("error") is not None:  # the key, whatever it holds; but null is left out
''',
          by=r'''
        if chunk.get("error"):  # an error worth the name
'''),
    Wrong(lab='16.1', name='an error with no message reported as a fixed sentence',
          rule='An error chunk with no message is reported as what it says as text: a dict such as {"code": 503, "type": "overloaded"} keeps its words in the error_message.',
          where='lab 16.1, Build section: "`str()` of the error"; hunt round 5, 16.1-4',
          names='what it says as text',
          replace=r'''
            failure = failure or str(error if said is None else said)
        for choice in chunk.get("choices") or ():
''',
          by=r'''
            if said is None and not isinstance(error, str):
                said = "The provider reported an error"  # no message: say so plainly
            failure = failure or str(error if said is None else said)
        for choice in chunk.get("choices") or ():
'''),
    Wrong(lab='16.1', name='the last broken call reported',
          rule='Arguments that are not a JSON object fail the reply naming the first such call, in the calls\' order.',
          where='lab 16.1, Build section: "for the first such call"; hunt round 5, 16.1-5',
          names='first such call',
          replace=r'''
            broken = broken or (f"Tool call {call['id']} ({call['name']}) arrived with "
                                "arguments that are not a JSON object")
''',
          by=r'''
            broken = (f"Tool call {call['id']} ({call['name']}) arrived with "
                      "arguments that are not a JSON object")  # the latest found
'''),
    Wrong(lab='16.1', name='whitespace read as no words',
          rule='A reply holds its words as one text block when there are any, exactly as written: words that are only whitespace are words, and a reply of one space is not empty.',
          where='lab 16.1, Build section: "holds its words as one text block"; hunt round 5, 16.1-6',
          names='Whitespace is words',
          replace=r'''
    content = [{"type": "text", "text": text}] if text else []
''',
          by=r'''
    content = [{"type": "text", "text": text}] if text.strip() else []  # blank is nothing
'''),
    Wrong(lab='16.1', name="the words in an error's own chunk dropped",
          rule='A reply that did not arrive whole holds the words that arrived, those in the chunk that carries the error too.',
          where='lab 16.1, Build section: "holding its words and no call"; hunt round 5, 16.1-7',
          names="error's own chunk",
          replace=r'''
            failure = failure or str(error if said is None else said)
        for choice in chunk.get("choices") or ():
''',
          by=r'''
            failure = failure or str(error if said is None else said)
            continue  # an error chunk holds nothing else worth reading
        for choice in chunk.get("choices") or ():
'''),
    Wrong(lab='16.1', name='a new id compared with the first call at its index',
          rule='A fragment begins a new call when it brings an id other than the id already at its index: the newest call\'s there, so a second call\'s fragment that repeats its own id goes on with it.',
          where='lab 16.1, Build section: "one that brings an id other than the id already at its index begins a new call there"; hunt round 5, 16.1-9',
          names='newest call',
          replace=r'''
                call = latest.get(index)
                if call is None or (call_id and call["id"] and call_id != call["id"]):
''',
          by=r'''
                call = latest.get(index)
                first = next((begun for begun in calls if begun["index"] == index), None)
                if call is None or (call_id and first["id"] and call_id != first["id"]):
'''),
    Wrong(lab='16.1', name='the chunks walked once for errors and again for the rest',
          rule='The chunks are walked once (gap 2): handed over as an iterator, as chunks decoded on the fly are, they add up to the same reply as a list does.',
          where='lab 16.1, gap 2 (The chunks are walked once); hunt round 5, 16.1-10',
          names='walked once',
          replace=r'''
            failure = failure or str(error if said is None else said)
        for choice in chunk.get("choices") or ():
''',
          by=r'''
            failure = failure or str(error if said is None else said)
    for chunk in chunks:  # a second walk, for the words and the calls
        for choice in chunk.get("choices") or ():
'''),
    Wrong(lab='16.1', name='finishes the table does not name read as no finish',
          rule='Only "length" and "content_filter" fail a finished reply; any other finish_reason ("function_call", "eos") is a finish, and the content decides the label.',
          where='lab 16.1, Build section: "whatever `finish_reason` said"; hunt round 5, 16.1-11',
          names='does not name',
          replace=r'''
    elif finish is None:
        why = "The stream ended before the reply was finished"
''',
          by=r'''
    elif finish not in ("stop", "tool_calls", "length", "content_filter"):  # known ones only
        why = "The stream ended before the reply was finished"
'''),
    Wrong(lab='16.1', name='decode_line strips the line first',
          rule="A data line whose payload is not a JSON object raises ValueError naming the line's repr: the line as it came, its trailing spaces included.",
          where="lab 16.1, Build section: \"followed by the line's `repr`\"; hunt round 5, 16.1-12",
          names='exactly as it came',
          replace=r'''
    if line.startswith("error:"):  # a failure, said as its own field: its reason is news
''',
          by=r'''
    line = line.strip()  # tidy the line first
    if line.startswith("error:"):  # a failure, said as its own field: its reason is news
'''),
    Wrong(lab='16.1', name='an error payload parsed only when it looks like an object',
          rule='An error line\'s payload is parsed when it is JSON, whatever JSON value it is: error: "model unloaded" gives the string without its quotes, error: 503 the number.',
          where='lab 16.1, Build section: "parsed when it is JSON and as text when not"; hunt round 5, 16.1-13',
          names='whatever JSON value',
          replace=r'''
        try:
            parsed = json.loads(said)
''',
          by=r'''
        if not said.startswith("{"):
            return {"error": said}  # only an object is JSON worth reading
        try:
            parsed = json.loads(said)
'''),
    Wrong(lab='16.1', name='an error line only with a space after the colon',
          rule='An `error:` line needs no space after its colon, as a `data:` line does not: error:{"message": "oom"} is an error line.',
          where='lab 16.1, Build section: "(with or without a space after the colon)"; hunt round 5, 16.1-15',
          names='needs no space',
          replace=r'''
    if line.startswith("error:"):  # a failure, said as its own field: its reason is news
''',
          by=r'''
    if line.startswith("error: "):  # a failure, written as the servers write it
'''),
    Wrong(lab='16.1', name='a call whose id comes on a later fragment split in two',
          rule='A fragment that brings an id begins a new call only when the call at its index has another id: the id and name may come on any one fragment, so a call with no id yet takes it.',
          where='lab 16.1, Build section: "the tests put them on any one fragment, so do not count on which"; hunt round 5, 16.1-24',
          names='has none yet',
          replace=r'''
                if call is None or (call_id and call["id"] and call_id != call["id"]):
''',
          by=r'''
                if call is None or (call_id and call_id != call["id"]):  # an id not seen: a call
'''),
    Wrong(lab='16.1', name='no system message for an empty system prompt',
          rule='The system prompt is the first message, with the role system, even when it is empty.',
          where='lab 16.1, Build section: "The system prompt is the first message"; hunt round 5, 16.1-17',
          names='even when it is empty',
          replace=r'''
    wire = [{"role": "system", "content": system}]
''',
          by=r'''
    wire = [{"role": "system", "content": system}] if system else []  # none to send
'''),
    Wrong(lab='16.1', name="an assistant's words stripped on the way out",
          rule="An assistant message's content is its words exactly as they went in, spaces and newlines at their ends included.",
          where='lab 16.1, Build section: "The record\'s messages come out of this exactly as they went in"; hunt round 5, 16.1-18',
          names='exactly as written',
          replace=r'''
            said = {"role": "assistant", "content": text_of(message) or None}
''',
          by=r'''
            said = {"role": "assistant", "content": text_of(message).strip() or None}
'''),
    Wrong(lab='16.1', name='failed and stopped replies left out of the body',
          rule="to_wire sends each message in order, a failed or stopped reply too: what the model sees is lesson 10's view's choice, and a stopped reply's words stay.",
          where='lab 16.1, Build section: "The record\'s messages come out of this exactly as they went in"; hunt round 5, 16.1-19',
          names='a failed or stopped reply too',
          replace=r'''
            said = {"role": "assistant", "content": text_of(message) or None}
''',
          by=r'''
            if message.get("stop_reason") in ("error", "aborted"):
                continue  # the provider need not see what failed
            said = {"role": "assistant", "content": text_of(message) or None}
'''),
    Wrong(lab='16.1', name="the user's text stripped on the way out",
          rule='A user message keeps its text, exactly as written: the indentation of a pasted traceback and its last newline too.',
          where='lab 16.1, Build section: "A user message keeps its text"; hunt round 5, 16.1-20',
          names='exactly as written',
          replace=r'''
            wire.append({"role": "user", "content": message["content"]})
''',
          by=r'''
            wire.append({"role": "user", "content": message["content"].strip()})
'''),
    Wrong(lab='16.1', name='the tools worked out once, on the first call',
          rule='Each tool goes out as {"type": "function", "function": spec}, the specs tool_specs gives of the tools this call was given, worked out on every call.',
          where='lab 16.1, Build section: "where the spec is the one `tool_specs` gives"; hunt round 5, 16.1-26',
          names='afresh on every call',
          replace=r'''
    return {"messages": wire,
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
            "stream": True}
''',
          by=r'''
    if not _WIRE_TOOLS:  # the tools do not change in a session
        _WIRE_TOOLS.extend({"type": "function", "function": spec} for spec in tool_specs(tools))
    return {"messages": wire, "tools": [dict(tool) for tool in _WIRE_TOOLS], "stream": True}
''',
          also=((r'''
def to_wire(system, messages, tools):
''', r'''
_WIRE_TOOLS = []  # worked out once, on the first call


def to_wire(system, messages, tools):
'''),)),
    Wrong(lab='16.1', name="one list for every body's messages",
          rule="Each call makes a body of its own: a client may keep a body it has sent, or change it, and no later call's body is that one.",
          where='lab 16.1, Build item 3: "Each call makes a body of its own"; hunt round 25, 16.1-48',
          names='each call makes a body of its own',
          replace=r'''
    wire = [{"role": "system", "content": system}]
''',
          by=r'''
    wire = _BODY  # one list, cleared for each body
    wire.clear()
    wire.append({"role": "system", "content": system})
''',
          also=((r'''
def to_wire(system, messages, tools):
''', r'''
_BODY = []


def to_wire(system, messages, tools):
'''),)),
    Wrong(lab='16.1', name='a long reply read only to its 300th chunk',
          rule='A reply that arrived whole holds its words as one text block: every chunk of it is read, however many a long answer takes.',
          where='lab 16.1, Build section: "the assistant message that one reply\'s decoded chunks add up to"; bench/kinds.py, a loop given a limit',
          names='however many there are',
          replace=r'''
    for chunk in chunks:
        if chunk.get("error") is not None:  # the key, whatever it holds; but null is left out
''',
          by=r'''
    for count, chunk in enumerate(chunks):
        if count == 300:
            break  # no reply streams longer than this
        if chunk.get("error") is not None:  # the key, whatever it holds; but null is left out
'''),
    Wrong(lab='16.1', name='only the first 300 fragments of a delta read',
          rule='A reply that arrived whole holds one toolCall per call: every fragment of a delta is read, however many it carries.',
          where='lab 16.1, Build section: "then one `toolCall` per call"; bench/kinds.py, a loop given a limit',
          names='every fragment of a delta',
          replace=r'''
            for piece in delta.get("tool_calls") or ():
''',
          by=r'''
            for piece in (delta.get("tool_calls") or ())[:300]:  # more is not a real reply
'''),
    Wrong(lab='16.1', name='only the first 300 calls put in the reply',
          rule='A reply that arrived whole holds one toolCall per call, in index order, however many calls it has.',
          where='lab 16.1, Build section: "then one `toolCall` per call, in the order of the calls\' `index`"; bench/kinds.py, a loop given a limit',
          names='every call is in the reply',
          replace=r'''
    for call in sorted(calls, key=lambda call: call["index"]):  # stable: in order at one index
''',
          by=r'''
    for call in sorted(calls, key=lambda call: call["index"])[:300]:  # a sane batch at most
'''),
    Wrong(lab='16.1', name='the system prompt stripped on the way out',
          rule='The system prompt is the first message, exactly as passed, its last newline included.',
          where='lab 16.1, Build section: "The system prompt is the first message"; bench/kinds.py, text stripped',
          names='exactly as passed',
          replace=r'''
    wire = [{"role": "system", "content": system}]
''',
          by=r'''
    wire = [{"role": "system", "content": system.strip()}]
'''),
    Wrong(lab='16.1', name='only the first 300 messages put in the body',
          rule='to_wire sends every message of the record, in order, however long the record is: what the model sees is the view\'s choice, not to_wire\'s.',
          where='lab 16.1, Build section: "The record\'s messages come out of this exactly as they went in"; bench/kinds.py, a loop given a limit',
          names='however long the record',
          replace=r'''
    for message in messages:
        if message["role"] == "user":
            wire.append({"role": "user", "content": message["content"]})
''',
          by=r'''
    for message in messages[:300]:  # far more than any window holds
        if message["role"] == "user":
            wire.append({"role": "user", "content": message["content"]})
'''),
    Wrong(lab='16.1', name="a call's id stripped on the way out",
          rule="Each call goes out with its id exactly as recorded: it is what the model sent, and what it matches the call's result by.",
          where='lab 16.1, Build section: "each `{"id", "type": "function", "function": {"name", "arguments"}}`"; bench/kinds.py, text stripped',
          names='exactly as recorded',
          replace=r'''
                    {"id": call["id"], "type": "function",
''',
          by=r'''
                    {"id": call["id"].strip(), "type": "function",
'''),
    Wrong(lab='16.1', name="a call's name stripped on the way out",
          rule="Each call goes out with its name exactly as recorded: it is what the model sent.",
          where='lab 16.1, Build section: "each `{"id", "type": "function", "function": {"name", "arguments"}}`"; bench/kinds.py, text stripped',
          names='exactly as recorded',
          replace=r'''
                     "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}
''',
          by=r'''
                     "function": {"name": call["name"].strip(),
                                  "arguments": json.dumps(call["arguments"])}}
'''),
    Wrong(lab='16.1', name="a result's call id stripped on the way out",
          rule="A toolResult goes out with its tool_call_id exactly as recorded, so that it matches its call's id.",
          where='lab 16.1, Build section: "A `toolResult` becomes a message with the role `"tool"`, its `tool_call_id` and its content"; bench/kinds.py, text stripped',
          names='exactly as recorded',
          replace=r'''
            wire.append({"role": "tool", "tool_call_id": message["tool_call_id"],
''',
          by=r'''
            wire.append({"role": "tool", "tool_call_id": message["tool_call_id"].strip(),
'''),
    Wrong(lab='16.1', name='an empty message taken for none',
          rule='An error chunk reports its message, even an empty one; what it says as text is only for an error that has no message (a string, or a dict without one).',
          where='lab 16.1, Build section: the table\'s second row, "its `message`, as text (which text, for a message that is not a string, is yours), or, for an error that has none (a string, or a dict without `message`), `str()` of the error"; bench/kinds.py, a cap read for truth',
          names='even an empty one',
          replace=r'''
            failure = failure or str(error if said is None else said)
        for choice in chunk.get("choices") or ():
''',
          by=r'''
            failure = failure or str(said or error)  # no words: say the whole error
        for choice in chunk.get("choices") or ():
'''),
    Wrong(lab='16.1', name='an index of null kept as a key of its own',
          rule='A key whose value is null counts as left out: a fragment whose "index" is null belongs at 0, as one with no "index" does.',
          where='lab 16.1, Build section: "counts as left out"; hunt round 5, 16.1-8',
          names='null',
          replace=r'''
                index, call_id = piece.get("index") or 0, piece.get("id")
''',
          by=r'''
                index, call_id = piece.get("index", 0), piece.get("id")  # null is a key too
'''),
    Wrong(lab='16.1', name='a null list of choices walked as a list',
          rule='A key whose value is null counts as left out: "choices": null adds nothing, as a chunk with no choices does.',
          where='lab 16.1, Build section: "counts as left out"; hunt round 5, 16.1-22',
          names='null',
          replace=r'''
        for choice in chunk.get("choices") or ():
''',
          by=r'''
        for choice in chunk.get("choices", ()):  # a chunk with no choices has none
'''),
    Wrong(lab='16.1', name="the first fragment's arguments grown in place",
          rule="assemble reads its chunks and changes none of them: called again on the same list, it gives the same message.",
          where='lab 16.1, Build section: "changes none of them"; hunt round 5, 16.1-23',
          names='changes none',
          replace=r'''
                said = function.get("arguments")  # a scrap of text, or a value sent parsed
                call["parts"].append("" if said is None else said)
''',
          by=r'''
                said = function.get("arguments")  # a scrap of text, or a value sent parsed
                first = call.setdefault("first", function)  # the call's text lives in its first fragment
                if first is not function and isinstance(said, str):
                    first["arguments"] = (first.get("arguments") or "") + said  # grown in place
                whole = first.get("arguments")
                call["parts"] = ["" if whole is None else whole]
'''),
    Wrong(lab='16.2', name='a fault in the reading recorded as an error reply',
          rule="What ready() or read_line() raise is not the provider's trouble (a dropped connection ends the stream): it goes up as it was raised.",
          where='lab 16.2, Build section: "a fault in the reading or in the response"; hunt round 1, spec gaps of 16.2',
          names='goes up',
          replace=r'''
        finally:
            response.close()  # on every way out, a hard cancel's too
''',
          by=r'''
        except Exception as exc:  # whatever breaks while reading is the provider's trouble
            return error_message(str(exc))
        finally:
            response.close()  # on every way out, a hard cancel's too
'''),
    Wrong(lab='16.2', name='a quiet provider looked at every third turn',
          rule='A set signal is seen within a turn of the event loop, whether lines are ready or not: while the provider is silent, one turn between two looks, not several.',
          where="lab 16.2, acomplete's docstring: a Stop lands within a turn of the event loop even while the provider says nothing; hunt round 8, 16.2-1",
          names='every turn',
          replace=r'''
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
''',
          by=r'''
                if not response.ready():
                    for _ in range(3):  # no need to spin every turn while the provider thinks
                        await asyncio.sleep(0)
                    continue
'''),
    Wrong(lab='16.2', name='giving up after 6,000 quiet turns',
          rule='The response is read to its end or a Stop, however long the provider is quiet: no count of quiet looks ends it, however large.',
          where='lab 16.2, Build section, item 2 ("The response is read to its end"); hunt round 8, 16.2-2',
          names='never a count of quiet looks',
          replace=r'''
        chunks = []
        try:
            while True:
''',
          by=r'''
        chunks, quiet = [], 0  # a provider silent this long is gone
        try:
            while True:
''',
          also=((r'''
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                line = response.read_line()
''', r'''
                if not response.ready():
                    quiet += 1
                    if quiet > 6000:
                        break
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                quiet = 0
                line = response.read_line()
'''),)),
    Wrong(lab='16.2', name='a RuntimeError from read_line taken for the end',
          rule="What ready() or read_line() raise goes up as it was raised, whatever its class: a dropped connection ends the stream with None, never with an exception.",
          where='lab 16.2, Build section, item 2 ("a fault in the reading or in the response"); hunt round 8, 16.2-3',
          names='goes up',
          replace=r'''
                line = response.read_line()
                try:
''',
          by=r'''
                try:
                    line = response.read_line()
                except RuntimeError:  # the response gave up: treat it as the end
                    line = None
                try:
'''),
    Wrong(lab='16.2', name="a ConnectionError in the reading recorded as the provider's trouble",
          rule="What ready() or read_line() raise is not the provider's trouble, a ConnectionError included, since a connection that drops ends the stream with None: it goes up as it was raised.",
          where='lab 16.2, Build section, item 2 ("a fault in the reading or in the response"); hunt round 8, 16.2-4',
          names='goes up',
          replace=r'''
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                line = response.read_line()
''',
          by=r'''
                try:
                    if not response.ready():
                        await asyncio.sleep(0)
                        continue
                    line = response.read_line()
                except ConnectionError as trouble:  # the provider's trouble: a reply, never raised
                    return error_message(f"Provider request failed: {trouble}")
'''),
    Wrong(lab='16.2', name='[DONE] found anywhere in a line',
          rule='The stream ends where read_line() gives None or a line decodes to STREAM_DONE: a comment or a text that holds the words [DONE] is not the end.',
          where='lab 16.2, Build section, item 2 ("a line decodes to `STREAM_DONE`"); hunt round 8, 16.2-5',
          names='decodes to STREAM_DONE',
          replace=r'''
                line = response.read_line()
                try:
''',
          by=r'''
                line = response.read_line()
                if line is not None and STREAM_DONE in line:  # data: [DONE], data:[DONE]
                    break
                try:
'''),
    Wrong(lab='16.2', name='the lines already ready read after [DONE]',
          rule='Nothing after the end of the stream is read, even lines the response has ready at once.',
          where='lab 16.2, Build section, item 2 ("nothing after that end is read"); hunt round 8, 16.2-6',
          names='nothing after it is read',
          replace=r'''
                if chunk == STREAM_DONE:
                    break
''',
          by=r'''
                if chunk == STREAM_DONE:
                    while response.ready() and response.read_line() is not None:
                        pass  # drain what is already here, so the connection ends tidy
                    break
'''),
    Wrong(lab='16.2', name='the reading ended at an error chunk',
          rule='The response is read to its end, and the reply is then what assemble makes of the chunks: an error chunk fails the reply but does not end the reading.',
          where='lab 16.2, Build section, item 2 ("The response is read to its end"); hunt round 8, 16.2-7',
          names='read to its end',
          replace=r'''
                if chunk is not None:
                    chunks.append(chunk)
''',
          by=r'''
                if chunk is not None:
                    chunks.append(chunk)
                    if "error" in chunk:  # the reply has failed: no need to read the rest
                        break
'''),
    Wrong(lab='16.2', name='a gateway error sent once more',
          rule='If sending raises any Exception, a 502 or a 504 included, the reply is an error ending and no second request goes out.',
          where='lab 16.2, Build section, item 1 ("no second request goes out"); hunt round 8, 16.2-8',
          names='exactly one request',
          replace=r'''
            response = self.client.open(to_wire(system, messages, tools))
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
''',
          by=r'''
            body = to_wire(system, messages, tools)
            try:
                response = self.client.open(body)
            except Exception as first:
                if getattr(first, "status", None) not in (502, 504):
                    raise
                response = self.client.open(body)  # nothing streamed yet: one quiet retry
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
'''),
    Wrong(lab='16.2', name='spent quota told by its words',
          rule='A 429 is spent quota when its code is "insufficient_quota", read from the exception, never from the words of its text.',
          where='lab 16.2, Build section, item 1 ("which is one of two failures"); hunt round 8, 16.2-9',
          names='never from its words',
          replace=r'''
            if getattr(exc, "code", None) == "insufficient_quota":
''',
          by=r'''
            if "insufficient_quota" in str(exc):  # the body names it
'''),
    Wrong(lab='16.2', name="a 429's code and retry_after read as attributes",
          rule='acomplete never raises for the provider\'s trouble: a 429\'s code and retry_after are read with getattr, since not every exception has them.',
          where="lab 16.2, Build section, item 1 (\"read with `getattr`, since not every exception has one\"); hunt round 8, 16.2-10",
          names='getattr',
          replace=r'''
            if getattr(exc, "code", None) == "insufficient_quota":
                return error_message(f"Provider quota spent, so waiting will not help: {exc}")
            wait = getattr(exc, "retry_after", None)
''',
          by=r'''
            if exc.code == "insufficient_quota":
                return error_message(f"Provider quota spent, so waiting will not help: {exc}")
            wait = exc.retry_after
'''),
    Wrong(lab='16.2', name='a Retry-After taken for a rate limit before the code',
          rule='A 429 whose code is "insufficient_quota" is spent quota whatever its retry_after; only otherwise is it a rate limit.',
          where='lab 16.2, Build section, item 1 ("otherwise it is a rate limit"); hunt round 8, 16.2-30',
          names='whatever its retry_after',
          replace=r'''
            if getattr(exc, "code", None) == "insufficient_quota":
                return error_message(f"Provider quota spent, so waiting will not help: {exc}")
            wait = getattr(exc, "retry_after", None)
''',
          by=r'''
            wait = getattr(exc, "retry_after", None)
            if wait is None and getattr(exc, "code", None) == "insufficient_quota":
                return error_message(f"Provider quota spent, so waiting will not help: {exc}")
'''),
    Wrong(lab='16.2', name="a CancelToken's private flag read for the signal",
          rule='Any object with is_cancelled() can serve as a signal: acomplete asks it, never reads a CancelToken\'s insides.',
          where="lesson 15's CancelToken docstring, given in the lab 16.2 starter (any object with is_cancelled() can serve as a signal); hunt round 8, 16.2-11",
          names='is_cancelled()',
          replace=r'''
        if signal is not None and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
''',
          by=r'''
        if signal is not None and signal._cancelled:
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
''',
          also=((r'''
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
''', r'''
                if signal is not None and signal._cancelled:
                    return assemble(chunks, aborted=True)  # the words so far, and no call
'''),)),
    Wrong(lab='16.2', name="a stopped reply's words carried into the next",
          rule="acomplete returns one reply, as every model's acomplete does, made of its own response's lines: nothing of a stopped reply is stitched onto the next.",
          where='lab 16.2, Build section ("It returns one reply, as every model\'s `acomplete` does"); hunt round 8, 16.2-13',
          names='one reply',
          replace=r'''
        chunks = []
        try:
            while True:
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
''',
          by=r'''
        chunks = list(getattr(self, "_held", []))  # the half a Stop cut off, to carry on
        self._held = []
        try:
            while True:
                if signal is not None and signal.is_cancelled():
                    self._held = list(chunks)
                    return assemble(chunks, aborted=True)  # the words so far, and no call
'''),
    Wrong(lab='16.2', name='Stop not heard once the finish has come',
          rule='A Stop ends the reply as the aborted one and no later line is read, the finish having come or not: until [DONE], the reading is not over.',
          where='lab 16.2, Build section, item 2 ("A Stop ends the reply as the aborted one"); hunt round 8, 16.2-14',
          names='whatever that line is',
          replace=r'''
        chunks = []
        try:
            while True:
                if signal is not None and signal.is_cancelled():
''',
          by=r'''
        chunks, finished = [], False
        try:
            while True:
                if signal is not None and signal.is_cancelled() and not finished:
''',
          also=((r'''
                if chunk is not None:
                    chunks.append(chunk)
''', r'''
                if chunk is not None:
                    chunks.append(chunk)
                    finished = finished or any(choice.get("finish_reason")
                                               for choice in chunk.get("choices") or ())
'''),)),
    Wrong(lab='16.2', name='no look after a line that carries nothing',
          rule='The signal is looked at first on every lap, whatever the line before was: a Stop that comes with a keep-alive lands before the next line is read.',
          where='lab 16.2, Build section, item 2 ("no later line is read"); hunt round 8, 16.2-15',
          names='whatever that line is',
          replace=r'''
        chunks = []
        try:
            while True:
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
''',
          by=r'''
        chunks, look = [], True
        try:
            while True:
                if look and signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
                look = True
''',
          also=((r'''
                if chunk is not None:
                    chunks.append(chunk)
''', r'''
                if chunk is not None:
                    chunks.append(chunk)
                else:
                    look = False  # a keep-alive: nothing changed, so no need to look
'''),)),
    Wrong(lab='16.2', name="the tools of a model's last call sent on the next",
          rule="Each call sends exactly one request, its body the one to_wire makes of that call's own arguments: the model keeps no call's tools for the next.",
          where='lab 16.2, Build section, item 1 ("its body the one `to_wire` makes of the arguments"); hunt round 8, 16.2-16',
          names="that call's own arguments",
          replace=r'''
            response = self.client.open(to_wire(system, messages, tools))
''',
          by=r'''
            body = to_wire(system, messages, getattr(self, "_tools", tools))
            self._tools = tools  # the tools do not change between turns
            response = self.client.open(body)
'''),
    Wrong(lab='16.2', name='the response kept on the model',
          rule='The response is closed on every way out: each call closes the response it opened, even while another call of the same model reads its own.',
          where='lab 16.2, Build section, item 2 ("The response is closed on every way out"); hunt round 8, 16.2-26',
          names='the response it opened',
          replace=r'''
            response = self.client.open(to_wire(system, messages, tools))
''',
          by=r'''
            self._response = self.client.open(to_wire(system, messages, tools))
            response = self._response
''',
          also=((r'''
            response.close()  # on every way out, a hard cancel's too
''', r'''
            self._response.close()  # the response this model is reading
'''),)),
    Wrong(lab='16.2', name='a refused line read on to [DONE]',
          rule="A line that decode_line refuses ends the reply as an error ending: no line after it is read.",
          where='lab 16.2, Build section, item 2 ("A line that `decode_line` refuses ends the reply"); hunt round 8, 16.2-29',
          names='no line after it is read',
          replace=r'''
        chunks = []
        try:
            while True:
''',
          by=r'''
        chunks, refused = [], None
        try:
            while True:
''',
          also=((r'''
                except ValueError as exc:  # a line that is not a stream line; only decode_line's
                    return error_message(str(exc))
''', r'''
                except ValueError as exc:
                    refused = refused or str(exc)  # reported at the end; read on to [DONE]
                    continue
'''), (r'''
            response.close()  # on every way out, a hard cancel's too
        return assemble(chunks)
''', r'''
            response.close()  # on every way out, a hard cancel's too
        if refused is not None:
            return error_message(refused)
        return assemble(chunks)
'''))),
    Wrong(lab='16.2', name='the body made outside the try',
          rule='The body is made inside the same try as the sending: a record to_wire cannot write is reported as a failed request, and nothing goes out.',
          where='Build: read as it comes, stop when told, item 1 (hunt round 8, probe 16.2-25)',
          names='inside the same try',
          replace=r'''
        try:
            response = self.client.open(to_wire(system, messages, tools))
''',
          by=r'''
        body = to_wire(system, messages, tools)  # the harness's own work, not the provider's
        try:
            response = self.client.open(body)
'''),
    Wrong(lab='16.2', name='every BaseException from sending taken for the provider',
          rule="Only an Exception is the provider's trouble: a KeyboardInterrupt or SystemExit raised while sending goes up, as lesson 15's Ctrl-C must.",
          where='Build: read as it comes, stop when told, item 1 (hunt round 8, probe 16.2-28)',
          names="Only an Exception is the provider's trouble",
          replace=r'''
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
''',
          by=r'''
        except BaseException as exc:  # whatever stops the sending, Ctrl-C too
'''),
    # Hunt round 10 (reader r40): lab 16.1's designs that passed, each now failing its rule.
    Wrong(lab='16.1', name='a field name read loosely',
          rule='A field is named exactly, at the start of the line: `DATA:` and ` data:` are other fields, which carry nothing.',
          where='Build: put the pieces together, item 1 (hunt round 10, 16.1-02)',
          names='spelled exactly',
          replace=r'''
    if not line.startswith("data:"):
        return None  # blank, a keep-alive, or a field this reader has no use for
    payload = line[len("data:"):].strip()
''',
          by=r'''
    field, colon, rest = line.partition(":")
    if not colon or field.strip().lower() != "data":  # DATA: and " data:" read as data
        return None
    payload = rest.strip()
'''),
    Wrong(lab='16.1', name='an empty data payload read as nothing',
          rule='A `data:` line whose payload is not a JSON object raises ValueError: an empty payload is not one.',
          where='Build: put the pieces together, item 1 (hunt round 10, 16.1-03)',
          names='an empty payload',
          replace=r'''
    payload = line[len("data:"):].strip()
''',
          by=r'''
    payload = line[len("data:"):].strip()
    if not payload:
        return None  # nothing said, nothing to read
'''),
    Wrong(lab='16.1', name='the last error chunk reported',
          rule="Of two error chunks, the first is the reply's reason.",
          where='Build item 2: "When two chunks carry an error, the first one\'s is the reason reported" (hunt round 10, 16.1-04)',
          names='first is the reason',
          replace=r'''
            failure = failure or str(error if said is None else said)
''',
          by=r'''
            failure = str(error if said is None else said)  # the latest word on it
'''),
    Wrong(lab='16.1', name='a null message reported as None',
          rule='A key whose value is null counts as left out: an error whose message is null has no message, and is reported as what it says as text.',
          where='Build: put the pieces together, item 2 and its table (hunt round 10, 16.1-05)',
          names='a null counts as left out',
          replace=r'''
            said = error.get("message") if isinstance(error, dict) else None
''',
          by=r'''
            said = str(error["message"]) if isinstance(error, dict) and "message" in error else None
'''),
    Wrong(lab='16.1', name='the first finish kept',
          rule='Of two finishes, the last is the finish: a later finish_reason that is not null replaces the one before.',
          where='Build item 2: "when two carry a `finish_reason` that is not null, the last one is the finish" (hunt round 10, 16.1-07)',
          names='last is the finish',
          replace=r'''
            finish = choice.get("finish_reason") or finish
''',
          by=r'''
            finish = finish or choice.get("finish_reason")  # the first finish stands
'''),
    Wrong(lab='16.1', name='an id seen before going back to its call',
          rule='A fragment that brings an id other than the id now at its index begins a new call there, even an id an earlier call at that index had.',
          where='Build: put the pieces together, item 2 (hunt round 10, 16.1-08)',
          names='begins a third call',
          replace=r'''
                call = latest.get(index)
                if call is None or (call_id and call["id"] and call_id != call["id"]):
''',
          by=r'''
                call = latest.get(index)
                if call is not None and call_id and call["id"] and call_id != call["id"]:
                    call = next((c for c in calls if c["index"] == index  # a known id: its call
                                 and c["id"] == call_id), None)
                if call is None or (call_id and call["id"] and call_id != call["id"]):
'''),
    Wrong(lab='16.1', name='a fragment with no index joined to the call begun last',
          rule='A fragment with no index belongs at index 0, whatever call began last.',
          where='Build: put the pieces together, item 2 (hunt round 10, 16.1-09)',
          names='not to the call begun last',
          replace=r'''
                index, call_id = piece.get("index") or 0, piece.get("id")
''',
          by=r'''
                index, call_id = piece.get("index"), piece.get("id")
                if index is None:  # no index: the call begun last goes on
                    index = calls[-1]["index"] if calls else 0
'''),
    Wrong(lab='16.1', name='a missing index written into the fragment',
          rule='assemble reads its chunks and changes none of them: it fills in no index.',
          where='Build: put the pieces together, item 2 (hunt round 10, 16.1-10)',
          names='fills in no index',
          replace=r'''
                index, call_id = piece.get("index") or 0, piece.get("id")
''',
          by=r'''
                piece.setdefault("index", 0)  # the index a server left out, filled in
                index, call_id = piece.get("index") or 0, piece.get("id")
'''),
    Wrong(lab='16.1', name='the role taken out of the delta',
          rule='assemble reads its chunks and changes none of them: it takes no role out of a delta.',
          where='Build: put the pieces together, item 2 (hunt round 10, 16.1-11)',
          names='takes no role',
          replace=r'''
            delta = choice.get("delta") or {}
''',
          by=r'''
            delta = choice.get("delta") or {}
            delta.pop("role", None)  # the role is noise: out with it
'''),
    Wrong(lab='16.1', name='the message kept for each list handed over',
          rule='Called again on a longer list as the stream grows, the same list grown in place too, assemble gives the message those chunks add up to.',
          where='Build: put the pieces together, item 2 (hunt round 10, 16.1-12)',
          names='reads it afresh',
          replace=r'''
def assemble(chunks, *, aborted=False):
''',
          by=r'''
_ASSEMBLED = {}  # (id of a list, aborted) -> (the list, its message): each list read once


def assemble(chunks, *, aborted=False):
    key = (id(chunks), aborted)
    if key not in _ASSEMBLED:
        _ASSEMBLED[key] = (chunks, _assemble(chunks, aborted=aborted))
    return _ASSEMBLED[key][1]


def _assemble(chunks, *, aborted=False):
'''),
    Wrong(lab='16.1', name='a reply with nothing in it left out of the body',
          rule='Every message goes out in order, a failed reply with no words and no calls too: lesson 10\'s view decides what the model sees, not to_wire.',
          where='Build: put the pieces together, item 3 (hunt round 10, 16.1-13)',
          names='the empty reply too',
          replace=r'''
        elif message["role"] == "assistant":
            said = {"role": "assistant", "content": text_of(message) or None}
''',
          by=r'''
        elif message["role"] == "assistant":
            if not message["content"]:
                continue  # a reply that said nothing has nothing to send
            said = {"role": "assistant", "content": text_of(message) or None}
'''),
    Wrong(lab='16.1', name="the body written from lesson 10's view",
          rule="to_wire writes the record's messages, no more: lesson 10's view decides what the model sees, not to_wire.",
          where='Build: put the pieces together, item 3 (hunt round 10, 16.1-14)',
          names='no more than the record holds',
          replace=r'''
    wire = [{"role": "system", "content": system}]
    for message in messages:
''',
          by=r'''
    wire = [{"role": "system", "content": system}]
    for message in context_for_model(messages):  # what the model should see
'''),
    Wrong(lab='16.1', name='the specs kept for each tools list handed over',
          rule='The tools are the ones this call was given, worked out afresh on every call: a list given a tool in place sends it.',
          where='Build: put the pieces together, item 3 (hunt round 10, 16.1-16)',
          names='worked out afresh on every call',
          replace=r'''
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
''',
          by=r'''
            "tools": _SENT.setdefault(id(tools), (tools, [  # each list's specs, made once
                {"type": "function", "function": spec} for spec in tool_specs(tools)]))[1],
''',
          also=((r'''
def to_wire(system, messages, tools):
''', r'''
_SENT = {}  # id of a tools list -> (the list, its specs)


def to_wire(system, messages, tools):
'''),)),
    Wrong(lab='16.1', name='whitespace words sent as None',
          rule="An assistant message's content is its words, or None when it has none: words of whitespace are words.",
          where='Build: put the pieces together, item 3 (hunt round 10, 16.1-17)',
          names='whitespace words are words',
          replace=r'''
            said = {"role": "assistant", "content": text_of(message) or None}
''',
          by=r'''
            said = {"role": "assistant", "content": text_of(message).strip() and text_of(message) or None}
'''),
    Wrong(lab='16.1', name='a finish read only from a chunk with no call fragment',
          rule="A finish_reason counts wherever it comes: vLLM's rides on the chunk with the last scrap of a call's arguments.",
          where='section "What a real server sends" (the table, vLLM) (hunt round 10, 16.1-18)',
          names='a finish is read wherever it comes',
          replace=r'''
            finish = choice.get("finish_reason") or finish
''',
          by=r'''
            if not delta.get("tool_calls"):  # a finish comes on a chunk of its own
                finish = choice.get("finish_reason") or finish
'''),
    Wrong(lab='16.1', name='the broken call that arrived first reported',
          rule="Broken arguments name the first such call in the calls' order, the order of their index, not the order they arrived in.",
          where='Build: put the pieces together, item 2 and its table (hunt round 10, 16.1-19)',
          names='not the order they arrived in',
          replace=r'''
            broken = broken or (f"Tool call {call['id']} ({call['name']}) arrived with "
                                "arguments that are not a JSON object")
''',
          by=r'''
            why = f"Tool call {call['id']} ({call['name']}) arrived with arguments that are not a JSON object"
            if broken is None or calls.index(call) < arrived:  # the first to arrive
                broken, arrived = why, calls.index(call)
'''),
    Wrong(lab='16.1', name="an error's value reported as it came",
          rule='An error with no message is reported as what it says as text: error_message is a str, never a number or a dict.',
          where='Build: put the pieces together, item 2 and its table (hunt round 10, 16.1-20)',
          names='a str holding what the server said',
          replace=r'''
            failure = failure or str(error if said is None else said)
''',
          by=r'''
            failure = failure or (error if said is None else said)  # as the server said it
'''),
    Wrong(lab='16.1', name='a tool dict without execute sent whole',
          rule='Tools go out as tool_specs gives them, name, description and parameters, whatever else a dict holds.',
          where='Build: put the pieces together, item 3 (hunt round 10, 16.1-21)',
          names='as tool_specs gives them',
          replace=r'''
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
''',
          by=r'''
            "tools": [{"type": "function", "function": tool_specs([spec])[0] if "execute" in spec
                       else spec} for spec in tools],  # a dict with no execute is a spec already
'''),
    Wrong(lab='16.2', name='a timeout sent once more',
          rule='If sending raises any Exception, a TimeoutError included, the reply is an error ending and no second request goes out.',
          where='lab 16.2, Build section, item 1 ("no second request goes out"); hunt round 12, 16.2-02',
          names='no second request goes out',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
""",
          by=r"""
            body = to_wire(system, messages, tools)
            try:
                response = self.client.open(body)
            except TimeoutError:
                response = self.client.open(body)  # one quiet retry: a timeout is usually a blip
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
"""),
    Wrong(lab='16.2', name='a status 500 sent once more',
          rule='If sending raises any Exception, whatever its status, a 500 included, the reply is an error ending and no second request goes out.',
          where='lab 16.2, Build section, item 1 ("no second request goes out"); hunt round 12, 16.2-46',
          names='no second request goes out',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
""",
          by=r"""
            body = to_wire(system, messages, tools)
            try:
                response = self.client.open(body)
            except Exception as first:
                if getattr(first, "status", None) != 500:
                    raise
                response = self.client.open(body)  # a 500 before any line: one quiet retry
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
"""),
    Wrong(lab='16.2', name='an exception with no text reported by its class name',
          rule="A failed request's error_message is `Provider request failed: ` followed by the exception's text, as it is, even when that text is empty.",
          where='lab 16.2, Build section, item 1 ("followed by the exception\'s text"); hunt round 12, probe 16.2-24',
          names='even when that is empty',
          replace=r"""
                return error_message(f"Provider request failed: {exc}")
""",
          by=r"""
                return error_message(f"Provider request failed: {str(exc) or type(exc).__name__}")
"""),
    Wrong(lab='16.2', name='a KeyboardInterrupt or SystemExit from sending taken for the provider',
          rule='Only an Exception is the provider\'s trouble: a KeyboardInterrupt or a SystemExit raised while sending goes up as it was raised.',
          where='lab 16.2, Build section, item 1 ("Only an `Exception` is the provider\'s trouble"); hunt round 12, 16.2-03',
          names="Only an Exception is the provider's trouble",
          replace=r"""
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
""",
          by=r"""
        except (Exception, KeyboardInterrupt, SystemExit) as exc:  # Ctrl-C while sending too
"""),
    Wrong(lab='16.2', name='a fractional Retry-After cut to whole seconds',
          rule='A rate limit says to send again in N s, N being its retry_after as it came, a fraction included.',
          where='lab 16.2, Build section, item 1 ("`N` being its `retry_after`"); hunt round 12, 16.2-04',
          names='a fraction included',
          replace=r"""
            later = "later" if wait is None else f"in {wait} s"
""",
          by=r"""
            later = "later" if wait is None else f"in {int(wait)} s"
"""),
    Wrong(lab='16.2', name='any code that mentions quota read as spent quota',
          rule='A 429 is spent quota when its code is "insufficient_quota" itself; any other code, one naming a per-minute quota too, is a rate limit.',
          where='lab 16.2, Build section, item 1 ("which is one of two failures"); hunt round 12, 16.2-05',
          names='Spent quota is the code',
          replace=r"""
            if getattr(exc, "code", None) == "insufficient_quota":
""",
          by=r"""
            if "quota" in str(getattr(exc, "code", "")).lower():
"""),
    Wrong(lab='16.2', name='a 529 read as a rate limit',
          rule="Only a 429 is one of the two troubles: any other status, Anthropic's 529 Overloaded included, is `Provider request failed: ` and the text.",
          where='lab 16.2, Build section, item 1 ("except for a 429"); hunt round 12, 16.2-34',
          names='Only a 429 is one of the two troubles',
          replace=r"""
            if getattr(exc, "status", None) != 429:
""",
          by=r"""
            if getattr(exc, "status", None) not in (429, 529):  # 529 overloaded: a wait cures it too
"""),
    Wrong(lab='16.2', name='a reply given again for a request answered before',
          rule='With no signal set, exactly one request goes out on each call, even when the same request was answered before.',
          where='lab 16.2, Build section, item 1 ("Otherwise exactly one request goes out"); hunt round 12, 16.2-15',
          names='a request sent again',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            body = to_wire(system, messages, tools)
            key = json.dumps(body, sort_keys=True)
            cache = self.__dict__.setdefault("_cache", {})
            if key in cache:
                return cache[key]  # answered before: no need to pay again
            response = self.client.open(body)
""",
          also=((r"""
            response.close()  # on every way out, a hard cancel's too
        return assemble(chunks)
""", r"""
            response.close()  # on every way out, a hard cancel's too
        reply = assemble(chunks)
        if reply["stop_reason"] in ("stop", "toolUse"):
            cache[key] = reply
        return reply
"""),)),
    Wrong(lab='16.2', name="only the record's last 40 messages sent",
          rule='The request\'s body is the one to_wire makes of the arguments: the whole record, never its tail.',
          where='lab 16.2, Build section, item 1 ("its body the one `to_wire` makes of the arguments"); hunt round 12, 16.2-16',
          names='never its tail',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            response = self.client.open(to_wire(system, list(messages)[-40:], tools))
"""),
    Wrong(lab='16.2', name="the first call's system prompt kept for every later one",
          rule="The request's body is the one to_wire makes of this call's arguments: its own system prompt, not one kept from an earlier call.",
          where='lab 16.2, Build section, item 1 ("its body the one `to_wire` makes of the arguments"); hunt round 12, 16.2-35',
          names='the system prompt of this call',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            self.system = getattr(self, "system", None) or system  # one harness, one prompt
            response = self.client.open(to_wire(self.system, messages, tools))
"""),
    Wrong(lab='16.2', name='the last signal kept for a call given none',
          rule='A call given no signal has none set: exactly one request goes out, whatever signal an earlier call was given.',
          where='lab 16.2, Build section, item 1 ("When the signal is already set, nothing is sent", "Otherwise exactly one request goes out"); hunt round 12, probe 16.2-22',
          names="keeps nothing of one call's signal",
          replace=r"""
        if signal is not None and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
""",
          by=r"""
        if signal is None:
            signal = getattr(self, "_signal", None)  # the last Stop still holds
        self._signal = signal
        if signal is not None and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
"""),
    Wrong(lab='16.2', name='read_line asked once more after it gave None',
          rule='The response is read to its end, where read_line() gives None, and nothing after that end is read, not even read_line() once more.',
          where='lab 16.2, Build section, item 2 ("nothing after that end is read"); hunt round 12, 16.2-17',
          names='not even read_line() once more',
          replace=r"""
                    chunk = STREAM_DONE if line is None else decode_line(line)
""",
          by=r"""
                    if line is None and response.ready() and response.read_line() is not None:
                        continue  # not over after all? ask once more to be sure
                    chunk = STREAM_DONE if line is None else decode_line(line)
"""),
    # Hunt round 12 (reader r55), design 16.2-13: the reference's own reading until stop 55.
    Wrong(lab='16.2', name='a ValueError from the response taken for a refused line',
          rule="What ready() or read_line() raise goes up as it was raised, whatever its class, a ValueError too: only a line decode_line refuses is an error reply.",
          where='lab 16.2, Build section, item 2 ("it goes up as it was raised"); hunt round 12, 16.2-13',
          names="only decode_line's",
          replace=r"""
                try:
                    chunk = STREAM_DONE if line is None else decode_line(line)
                except ValueError as exc:  # a line that is not a stream line; only decode_line's
                    return error_message(str(exc))
""",
          by=r"""
                chunk = STREAM_DONE if line is None else decode_line(line)
""",
          also=((r"""
        finally:
            response.close()  # on every way out, a hard cancel's too
""", r"""
        except ValueError as exc:  # a line that is not a stream line
            return error_message(str(exc))
        finally:
            response.close()  # on every way out, a hard cancel's too
"""),)),
    Wrong(lab='16.2', name='a KeyboardInterrupt in the reading taken for a Stop',
          rule='What ready() or read_line() raise goes up as it was raised, whatever its class, a KeyboardInterrupt too: a Stop is the signal.',
          where='lab 16.2, Build section, item 2 ("it goes up as it was raised"); hunt round 12, 16.2-29',
          names='which is not a Stop',
          replace=r"""
                line = response.read_line()
""",
          by=r"""
                try:
                    line = response.read_line()
                except KeyboardInterrupt:
                    return assemble(chunks, aborted=True)  # Ctrl-C is a Stop
"""),
    Wrong(lab='16.2', name='the first look at the stream made outside the finally',
          rule='The response is closed on every way out, a fault\'s included, a fault on the very first ready() too.',
          where='lab 16.2, Build section, item 2 ("The response is closed on every way out"); hunt round 12, 16.2-38',
          names="the first look's too",
          replace=r"""
        chunks = []
        try:
            while True:
""",
          by=r"""
        chunks = []
        response.ready()  # a first look, before the reading proper
        try:
            while True:
"""),
    Wrong(lab='16.2', name='one call of a model at a time',
          rule="Stop lands within five turns while the provider is silent on each call of a model, whatever another call of the same model is doing: no call waits for another to finish.",
          where='lab 16.2, Build section ("within five while it is silent"); hunt round 12, 16.2-43',
          names='whatever another call of the same model is doing',
          replace=r"""
    async def acomplete(self, system, messages, tools=(), signal=None):
        """ + '"""' + r"""One request, read as it arrives.""",
          by=r"""
    async def acomplete(self, system, messages, tools=(), signal=None):
        lock = self.__dict__.setdefault("_lock", asyncio.Lock())
        async with lock:  # one request at a time through one client
            return await self._one(system, messages, tools, signal)

    async def _one(self, system, messages, tools=(), signal=None):
        """ + '"""' + r"""One request, read as it arrives."""),
    # Hunt round 12 (reader r60), design 16.1-04.
    Wrong(lab='16.1', name='decode_line handing out a shallow copy of a line read before',
          rule='Each call of decode_line gives a new dict, even for a line read before: a caller may change what it was given, inside it too.',
          where='lab 16.1, Build section, item 1: "Each call gives a new dict, even for a line it has read before: a caller may change what it was given."',
          names='a copy of the top alone',
          replace=r'''
def decode_line(line):
''',
          by=r'''
_DECODED = {}


def decode_line(line):
    if line not in _DECODED:
        _DECODED[line] = _decode_line(line)
    said = _DECODED[line]
    return dict(said) if isinstance(said, dict) else said  # a new dict, its insides shared


def _decode_line(line):
'''),
    # Hunt round 12 (reader r60), design 16.1-07.
    Wrong(lab='16.1', name="a usage chunk's usage taken out",
          rule='assemble reads its chunks and changes none of them, a usage chunk with no choices too.',
          where='lab 16.1, Build section, item 2: "`assemble` reads its chunks and changes none of them"',
          names='changes none of them',
          replace=r'''
        for choice in chunk.get("choices") or ():
''',
          by=r'''
        chunk.pop("usage", None)  # counted, and done with
        for choice in chunk.get("choices") or ():
'''),
    # Hunt round 12 (reader r60), design 16.1-08.
    Wrong(lab='16.1', name='an error with no message written as JSON',
          rule="An error chunk with no message is reported as str() of the error, as Python writes it, not as JSON.",
          where='lab 16.1, Build section, the table: "`str()` of the error, as Python writes it"',
          names="as Python writes it",
          replace=r'''
            failure = failure or str(error if said is None else said)
''',
          by=r'''
            failure = failure or (json.dumps(error) if said is None else str(said))
'''),
    Wrong(lab='16.1', name='an error with no message reported by its code and type',
          rule='An error chunk with no message is reported as what it says as text: all of it, not the fields one expects alone.',
          where='lab 16.1, Build section, the table: "for an error that has none (a string, or a dict without `message`), `str()` of the error"',
          names='all it says is kept',
          replace=r'''
            said = error.get("message") if isinstance(error, dict) else None
''',
          by=r'''
            said = error.get("message") if isinstance(error, dict) else None
            if said is None and isinstance(error, dict):
                said = f'{error.get("code")} {error.get("type")}'  # the fields that matter
'''),
    # Hunt round 12 (reader r60), design 16.1-09.
    Wrong(lab='16.1', name='a later null name taking the name back',
          rule='A key whose value is null counts as left out, wherever it stands: a later fragment whose "name" is null takes no name back.',
          where='lab 16.1, Build section, item 2: "A key whose value is `null` counts as left out, wherever it stands"',
          names='they take back neither',
          replace=r'''
                call["name"] = function.get("name") or call["name"]
''',
          by=r'''
                if "name" in function:
                    call["name"] = function["name"]
'''),
    # Hunt round 12 (reader r60), design 16.1-10.
    Wrong(lab='16.1', name='a later null id taking the id back',
          rule='A key whose value is null counts as left out, wherever it stands: a later fragment whose "id" is null takes no id back.',
          where='lab 16.1, Build section, item 2: "A key whose value is `null` counts as left out, wherever it stands"',
          names='they take back neither',
          replace=r'''
                call["id"] = call_id or call["id"]  # only the first fragment has it
''',
          by=r'''
                if "id" in piece:
                    call["id"] = call_id
'''),
    # Hunt round 12 (reader r60), design 16.1-11.
    Wrong(lab='16.1', name='a name read only from the fragment that brings the id',
          rule='Each call has the id and name from the one fragment that carries them, and the tests put them on any one fragment: a name is read where it comes, with an id or without.',
          where='lab 16.1, Build section, item 2: "the tests put them on any one fragment, so do not count on which"',
          names='its other key read from the fragment that carries it',
          replace=r'''
                call["name"] = function.get("name") or call["name"]
''',
          by=r'''
                if call_id:  # the name comes with the id
                    call["name"] = function.get("name") or call["name"]
'''),
    # Hunt round 12 (reader r60), design 16.1-12.
    Wrong(lab='16.1', name='arguments that parse to null read as {}',
          rule='Arguments that parse to null are not an object, however empty they look: only an empty text means {}.',
          where='lab 16.1, Build section, item 2: "Arguments that parse to `null`, `0`, `[]` or a string are not an object, however empty they look: only an empty text means `{}`."',
          names='only an empty text means {}',
          replace=r'''
                arguments = json.loads(joined) if joined else {}
''',
          by=r'''
                arguments = json.loads(joined) if joined else {}
                arguments = {} if arguments is None else arguments  # null: nothing was sent
'''),
    # Hunt round 12 (reader r60), design 16.1-13.
    Wrong(lab='16.1', name='the message kept for a list of the same length',
          rule='Called again on the same list, assemble gives the message its chunks add up to: a list as long as before is not the same chunks.',
          where='lab 16.1, Build section, item 2: "called again on the same list, or on a longer one as the stream grows, it gives the message those chunks add up to"',
          names='identity and length are not its chunks',
          replace=r'''
def assemble(chunks, *, aborted=False):
''',
          by=r'''
_ASSEMBLED = {}  # (id of a list, its length, aborted) -> (the list, its message)


def assemble(chunks, *, aborted=False):
    key = (id(chunks), len(chunks), aborted)
    if key not in _ASSEMBLED:
        _ASSEMBLED[key] = (chunks, _assemble(chunks, aborted=aborted))
    return _ASSEMBLED[key][1]


def _assemble(chunks, *, aborted=False):
'''),
    # Hunt round 12 (reader r60), design 16.1-15.
    Wrong(lab='16.1', name='arguments parsed leniently',
          rule='Arguments that are not a JSON object break the call: text JSON does not allow, such as a line break written raw inside a string, is not JSON, however a lenient parse reads it.',
          where='lab 16.1, Build section, the table: "arguments that are not a JSON object"',
          names='a lenient parse',
          replace=r'''
                arguments = json.loads(joined) if joined else {}
''',
          by=r'''
                arguments = json.loads(joined, strict=False) if joined else {}
'''),
    # Hunt round 12 (reader r60), design 16.1-19.
    Wrong(lab='16.1', name='finish names that hold length or content read as those',
          rule='Only a finish_reason of "length" or "content_filter", spelled so, fails a finished reply; a name that holds one of them is another name.',
          where="lab 16.1, Build section, the table's rows for a `finish_reason` of `length` and of `content_filter`",
          names='spelled exactly',
          replace=r'''
    elif finish == "length":
        why = "The reply was cut off at the output limit"
    elif finish == "content_filter":
''',
          by=r'''
    elif "length" in finish:
        why = "The reply was cut off at the output limit"
    elif finish.startswith("content"):
'''),
    # Hunt round 12 (reader r60), design 16.1-21.
    Wrong(lab='16.1', name='a reply of whitespace judged empty',
          rule='Whitespace is words: a reply whose only words are a space is not an empty reply, and is no error.',
          where='lab 16.1, Build section, item 2: "holds its words as one text block"',
          names='not an empty one',
          replace=r'''
    elif not content and not blocks:
''',
          by=r'''
    elif not text.strip() and not blocks:
'''),
    # Hunt round 12 (reader r60), design 16.1-29.
    Wrong(lab='16.1', name='an object taken over text beside it',
          rule="A call's arguments are all its fragments joined, or, when they came as an object, that object: an object with text beside it is neither, and breaks the call.",
          where='lab 16.1, Build section, item 2: "arguments parsed from all its fragments joined, or, when they came as an object, that object"',
          names='an object with text beside it is neither',
          replace=r'''
        if objects and not joined and len(objects) == 1:
''',
          by=r'''
        if len(objects) == 1:  # an object sent parsed wins over any text beside it
'''),
    # Hunt round 12 (reader r60), design 16.1-30.
    Wrong(lab='16.1', name='a call no fragment gives an id left out',
          rule='A call no fragment gives an id is kept as it came, its id None.',
          where='lab 16.1, Build section, item 2: "A call no fragment gives an id, or a name, is kept as it came"',
          names='is kept as it came',
          replace=r'''
    for call in sorted(calls, key=lambda call: call["index"]):  # stable: in order at one index
''',
          by=r'''
    for call in sorted([call for call in calls if call["id"] is not None],
                       key=lambda call: call["index"]):  # a call with no id cannot be answered
'''),
    # Hunt round 12 (reader r60), design 16.1-31.
    Wrong(lab='16.1', name='an error: field matched loosely',
          rule="A field's name is spelled exactly, at the line's start: `Error:` and ` error:` are other fields, which carry nothing.",
          where='lab 16.1, Build section, item 1: "a blank line, a `:` comment or any other field gives `None`"',
          names='` error:` are other fields',
          replace=r'''
    if line.startswith("error:"):  # a failure, said as its own field: its reason is news
        said = line[len("error:"):].strip()
''',
          by=r'''
    if line.lstrip().lower().startswith("error:"):  # however it is spelled
        said = line.lstrip()[len("error:"):].strip()
'''),
    # Hunt round 12 (reader r60), design 16.1-14, ruled by the page at stop 55.
    Wrong(lab='16.1', name='words after the finish dropped',
          rule='Words that do come after the finish are words of the reply: every chunk is read, to the end, and what it carries counts.',
          where='lab 16.1, Build section, item 2: "Words that do come after the finish are words of the reply"',
          names='Words that come after the finish',
          replace=r'''
            words.append(delta.get("content") or "")  # a delta may hold only a role, or None
''',
          by=r'''
            if finish is None:  # once finished, the reply says nothing more
                words.append(delta.get("content") or "")
'''),
    # Hunt round 12 (reader r60), probe 16.1-16, ruled by the page at stop 55.
    Wrong(lab='16.1', name='NaN and Infinity in arguments read as JSON',
          rule="NaN and Infinity are not JSON, though Python's json.loads reads them: arguments whose text holds them are not a JSON object.",
          where='lab 16.1, Build section, item 2: "`NaN` and `Infinity` are not JSON"',
          names='Infinity, which Python',
          replace=r'''
                arguments = json.loads(joined) if joined else {}
                json.dumps(arguments, allow_nan=False)  # NaN, Infinity: Python's, not JSON's
''',
          by=r'''
                arguments = json.loads(joined) if joined else {}
'''),
    # Hunt round 12 (reader r60), probe 16.1-26, ruled by the page at stop 55.
    Wrong(lab='16.1', name='an error line of null read as no error',
          rule='An `error:` line always says the reply failed: a payload of `null` gives its text, {"error": "null"}.',
          where='lab 16.1, Build section, item 1: "a payload of `null` gives its text"',
          names='still says the reply failed',
          replace=r'''
        return {"error": said if parsed is None else parsed}  # `null` too says it failed
''',
          by=r'''
        return {"error": said if parsed is None and said != "null" else parsed}
'''),
    # Hunt round 12 (reader r60), probe 16.1-28, ruled by the page at stop 55.
    Wrong(lab='16.1', name="an error's message handed on as it came",
          rule="An error chunk's reason is its `message`, as text: a message the server sent as a number is reported as its text.",
          where="lab 16.1, Build section, the table's error row: \"its `message`, as text\"",
          names='as its message, as text',
          replace=r'''
            failure = failure or str(error if said is None else said)
''',
          by=r'''
            failure = failure or (str(error) if said is None else said)  # the message as sent
'''),
    # Hunt round 15 (reader r78), design 16.1-02.
    Wrong(lab='16.1', name='decode_line handing out a copy two levels deep of a line read before',
          rule='Each call of decode_line gives a new dict, even for a line read before: a caller may change what it was given, at any depth.',
          where='lab 16.1, Build section, item 1: "Each call gives a new dict, even for a line it has read before: a caller may change what it was given."',
          names='or of its first two levels',
          replace=r'''
def decode_line(line):
''',
          by=r'''
_DECODED = {}


def decode_line(line):
    if line not in _DECODED:
        _DECODED[line] = _decode_line(line)
    said = _DECODED[line]
    if not isinstance(said, dict):
        return said
    return {key: value.copy() if isinstance(value, (dict, list)) else value
            for key, value in said.items()}  # two levels new, the third shared


def _decode_line(line):
'''),
    # Hunt round 15 (reader r78), design 16.1-41.
    Wrong(lab='16.1', name='the marker matched in any letters',
          rule='`data: [DONE]` gives STREAM_DONE; a data payload that is not a JSON object, [done] among them, raises ValueError.',
          where='lab 16.1, Build section, item 1: "`data: [DONE]` gives `STREAM_DONE`"',
          names='spelled as the wire spells it',
          replace=r'''
    if payload == STREAM_DONE:
        return STREAM_DONE
    try:
        chunk = json.loads(payload)
''',
          by=r'''
    if payload.upper() == STREAM_DONE:
        return STREAM_DONE
    try:
        chunk = json.loads(payload)
'''),
    # Hunt round 15 (reader r78), design 16.1-07.
    Wrong(lab='16.1', name='arguments sent as an object written back into the chunk as text',
          rule='assemble reads its chunks and changes none of them, a fragment whose arguments came as an object too.',
          where='lab 16.1, Build section, item 2: "`assemble` reads its chunks and changes none of them"',
          names='an object sent parsed included',
          replace=r'''
                said = function.get("arguments")  # a scrap of text, or a value sent parsed
''',
          by=r'''
                said = function.get("arguments")  # a scrap of text, or a value sent parsed
                if said is not None and not isinstance(said, str):
                    said = function["arguments"] = json.dumps(said)  # text, like the rest
'''),
    # Hunt round 15 (reader r78), design 16.1-11.
    Wrong(lab='16.1', name='two objects for one call merged',
          rule='A call\'s arguments are its fragments joined, or, when they came as an object, that object: two objects are neither, and the reply fails naming the call.',
          where='lab 16.1, Build section, item 2: "arguments parsed from all its fragments joined, or, when they came as an object, that object"',
          names='nor are two objects',
          replace=r'''
        if objects and not joined and len(objects) == 1:
            arguments = objects[0]  # sent already parsed: whole, and judged below like any
''',
          by=r'''
        if objects and not joined and all(isinstance(part, dict) for part in objects):
            arguments = {}
            for part in objects:
                arguments.update(part)  # several objects: one, merged
'''),
    # Hunt round 15 (reader r78), design 16.1-36.
    Wrong(lab='16.1', name="a call's id stripped as it arrives",
          rule='Each call has the id and name from the one fragment that carries them, exactly as sent: an id with spaces around it is another id.',
          where='lab 16.1, Build section, item 2: "Each call has the id and name from the one fragment that carries them"',
          names='spaces and tab included',
          replace=r'''
                index, call_id = piece.get("index") or 0, piece.get("id")
''',
          by=r'''
                index, call_id = piece.get("index") or 0, piece.get("id")
                call_id = call_id.strip() if isinstance(call_id, str) else call_id
'''),
    # Hunt round 15 (reader r78), design 16.1-37.
    Wrong(lab='16.1', name="a call's name stripped as it arrives",
          rule='Each call has the id and name from the one fragment that carries them, exactly as sent: a name is not tidied.',
          where='lab 16.1, Build section, item 2: "Each call has the id and name from the one fragment that carries them"',
          names='spaces and tab included',
          replace=r'''
                call["name"] = function.get("name") or call["name"]
''',
          by=r'''
                call["name"] = (function.get("name") or "").strip() or call["name"]
'''),
    # Hunt round 15 (reader r78), design 16.1-48.
    Wrong(lab='16.1', name='a name remembered for its id from an earlier reply',
          rule='A call no fragment gives a name is kept as it came, its name None: a reply is what its own chunks add up to.',
          where='lab 16.1, Build section, item 2: "A call no fragment gives an id, or a name, is kept as it came, its id, or name, `None`"',
          names='nothing kept from an earlier one',
          replace=r'''
        blocks.append({"type": "toolCall", "id": call["id"], "name": call["name"],
                       "arguments": arguments})
''',
          by=r'''
        if call["name"] is None:
            call["name"] = _NAMES.get(call["id"])  # the name this id had before
        elif call["id"] is not None:
            _NAMES[call["id"]] = call["name"]
        blocks.append({"type": "toolCall", "id": call["id"], "name": call["name"],
                       "arguments": arguments})
''',
          also=((r'''
def assemble(chunks, *, aborted=False):
''', r'''
_NAMES = {}  # id -> the name it came with, across replies


def assemble(chunks, *, aborted=False):
'''),)),
    # Hunt round 15 (reader r78), design 16.1-22.
    Wrong(lab='16.1', name="an assistant's first text block sent alone",
          rule="An assistant message's content on the wire is its words, all of them: every text block, joined.",
          where='lab 16.1, Build section, item 3: "An assistant message\'s content is its words, or `None` when it has none"',
          names='not the first block alone',
          replace=r'''
            said = {"role": "assistant", "content": text_of(message) or None}
''',
          by=r'''
            texts = [block["text"] for block in message["content"] if block["type"] == "text"]
            said = {"role": "assistant", "content": (texts[0] if texts else "") or None}
'''),
    # Hunt round 15 (reader r78), design 16.1-33.
    Wrong(lab='16.1', name="a tool that is a spec already put in the body itself",
          rule='Each tool goes out as {"type": "function", "function": spec}, where the spec is the one tool_specs gives: a new dict, so a client that changes the body never reaches the caller\'s tools.',
          where='lab 16.1, Build section, item 3: "where the spec is the one `tool_specs` gives"',
          names='even one that was a spec already',
          replace=r'''
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
''',
          by=r'''
            "tools": [{"type": "function",
                       "function": tool if set(tool) == {"name", "description", "parameters"}
                       else spec} for tool, spec in zip(tools, tool_specs(tools))],
'''),
    Wrong(lab='16.2', name='a 529 sent once more',
          rule='If sending raises any Exception, an Overloaded 529 included, the reply is an error ending and no second request goes out.',
          where='lab 16.2, Build section, item 1 ("no second request goes out"); hunt round 15, 16.2-01',
          names='no second request goes out',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
""",
          by=r"""
            body = to_wire(system, messages, tools)
            try:
                response = self.client.open(body)
            except Exception as first:
                if getattr(first, "status", None) != 529:
                    raise
                response = self.client.open(body)  # overloaded: once more
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
"""),
    Wrong(lab='16.2', name='a Retry-After rounded to hundredths',
          rule='`N` is the exception\'s retry_after as it came, every digit of a fraction included.',
          where='lab 16.2, Build section, item 1 ("`N` being its `retry_after`, 0 included"); hunt round 15, 16.2-07',
          names='as it came',
          replace=r"""
            later = "later" if wait is None else f"in {wait} s"
""",
          by=r"""
            later = "later" if wait is None else f"in {round(wait, 2)} s"
"""),
    Wrong(lab='16.2', name='a whole Retry-After written without its .0',
          rule='`N` is the exception\'s retry_after as it came: a float 30.0 is written 30.0.',
          where='lab 16.2, Build section, item 1 ("`N` being its `retry_after`, 0 included"); hunt round 15, 16.2-29',
          names='a .0 included',
          replace=r"""
            later = "later" if wait is None else f"in {wait} s"
""",
          by=r"""
            later = "later" if wait is None else f"in {int(wait) if wait == int(wait) else wait} s"
"""),
    Wrong(lab='16.2', name='a short rate limit waited for and sent once more',
          rule='If sending raises any Exception, a 429 whose Retry-After is under a second included, the reply is an error ending and no second request goes out.',
          where='lab 16.2, Build section, item 1 ("no second request goes out"); hunt round 15, 16.2-43',
          names='however short the wait',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
""",
          by=r"""
            body = to_wire(system, messages, tools)
            try:
                response = self.client.open(body)
            except Exception as first:
                wait = getattr(first, "retry_after", None)
                if getattr(first, "status", None) != 429 or not wait or wait >= 1:
                    raise
                await asyncio.sleep(wait)  # under a second: worth the wait
                response = self.client.open(body)
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
"""),
    Wrong(lab='16.2', name='spent quota told by its code in any case',
          rule='Spent quota is the code "insufficient_quota" itself; any other code, the same letters in capitals included, is a rate limit.',
          where='lab 16.2, Build section, item 1 ("which is one of two failures"); hunt round 15, 16.2-08',
          names='itself, exactly',
          replace=r"""
            if getattr(exc, "code", None) == "insufficient_quota":
""",
          by=r"""
            if str(getattr(exc, "code", None)).strip().lower() == "insufficient_quota":
"""),
    Wrong(lab='16.2', name='spent quota told by its words as well as its code',
          rule='A 429 is spent quota by its code alone, never by its words.',
          where='lab 16.2, Build section, item 1 ("which is one of two failures"); hunt round 15, 16.2-32',
          names='never the words',
          replace=r"""
            if getattr(exc, "code", None) == "insufficient_quota":
""",
          by=r"""
            if getattr(exc, "code", None) == "insufficient_quota" or "insufficient_quota" in str(exc):
"""),
    Wrong(lab='16.2', name='a 429 told by its words when there is no status',
          rule='A 429 is told by the exception\'s status alone: an exception with no status is a failed request, whatever its words.',
          where='lab 16.2, Build section, item 1 ("the exception\'s `status`, read with `getattr`"); hunt round 15, 16.2-33',
          names='whatever its words',
          replace=r"""
            if getattr(exc, "status", None) != 429:
""",
          by=r"""
            status = getattr(exc, "status", None)
            if status != 429 and not (status is None and ("429" in str(exc) or "too many requests" in str(exc).lower())):
"""),
    Wrong(lab='16.2', name='a 429 read from status_code too',
          rule='A 429 is the exception\'s `status`, read with getattr; another attribute is not the status the page reads.',
          where='lab 16.2, Build section, item 1 ("the exception\'s `status`, read with `getattr`"); hunt round 15, probe 16.2-27',
          names='.status_code',
          replace=r"""
            if getattr(exc, "status", None) != 429:
""",
          by=r"""
            if 429 not in (getattr(exc, "status", None), getattr(exc, "status_code", None)):
"""),
    Wrong(lab='16.2', name='the exception\'s text taken from its last argument',
          rule='The error_message is `Provider request failed: ` followed by the exception\'s text, str(exc), never an argument picked from it.',
          where='lab 16.2, Build section, item 1 ("followed by the exception\'s text"); hunt round 15, 16.2-28',
          names='picked from its args',
          replace=r"""
            if getattr(exc, "status", None) != 429:
                return error_message(f"Provider request failed: {exc}")
""",
          by=r"""
            if getattr(exc, "status", None) != 429:
                said = exc.args[-1] if exc.args and isinstance(exc.args[-1], str) else str(exc)
                return error_message(f"Provider request failed: {said}")
"""),
    Wrong(lab='16.2', name='the exception\'s text stripped',
          rule='The error_message is `Provider request failed: ` followed by the exception\'s text as it is, never trimmed.',
          where='lab 16.2, Build section, item 1 ("followed by the exception\'s text"); hunt round 15, 16.2-39',
          names='never trimmed',
          replace=r"""
            if getattr(exc, "status", None) != 429:
                return error_message(f"Provider request failed: {exc}")
""",
          by=r"""
            if getattr(exc, "status", None) != 429:
                return error_message(f"Provider request failed: {str(exc).strip()}")
"""),
    Wrong(lab='16.2', name='a falsy signal never asked',
          rule='Any object with is_cancelled() serves as a signal, and a signal already set means nothing is sent, whatever the object\'s truth.',
          where='lab 16.2, Build section, item 1 ("When the signal is already set, nothing is sent"); hunt round 15, 16.2-10',
          names='falsy',
          replace=r"""
        if signal is not None and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
""",
          by=r"""
        if signal and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
"""),
    Wrong(lab='16.2', name='the body made before the signal is asked',
          rule='When the signal is already set, nothing is sent and the reply is the aborted one, even for a record to_wire cannot write.',
          where='lab 16.2, Build section, item 1 ("When the signal is already set, nothing is sent"); hunt round 15, 16.2-30',
          names='before any body is made',
          replace=r"""
        if signal is not None and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
        try:
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
        try:
            body = to_wire(system, messages, tools)
            if signal is not None and signal.is_cancelled():
                return assemble([], aborted=True)  # nothing sent, so nothing to pay for
            response = self.client.open(body)
"""),
    Wrong(lab='16.2', name='bodies kept by the ids of the arguments',
          rule='Each request\'s body is the one to_wire makes of that call\'s own arguments, a message list edited in place since included.',
          where='lab 16.2, Build section, item 1 ("its body the one `to_wire` makes of the arguments"); hunt round 15, 16.2-31',
          names='edited in place',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            key = (system, id(messages), len(messages), id(tools))
            kept = self.__dict__.setdefault("bodies", {})
            if key not in kept:  # the objects are kept beside their ids, so no id is reused
                kept[key] = (messages, tools, to_wire(system, messages, tools))
            response = self.client.open(kept[key][2])
"""),
    Wrong(lab='16.2', name='sent once more when the stream ends before its first line',
          rule='Exactly one request goes out: a stream that ends before any line is read to its end, and no second request goes out.',
          where='lab 16.2, Build section, item 1 ("Otherwise exactly one request goes out"); hunt round 15, 16.2-42',
          names='even when nothing came',
          replace=r"""
        chunks = []
        try:
""",
          by=r"""
        chunks, again = [], True
        try:
""",
          also=((r"""
                line = response.read_line()
""", r"""
                line = response.read_line()
                if line is None and again and not chunks:
                    again = False  # nothing came: safe to send once more
                    response.close()
                    response = self.client.open(to_wire(system, messages, tools))
                    continue
                again = False
"""),)),
    Wrong(lab='16.2', name='a chunk the same as the one before dropped',
          rule='The reply is what assemble makes of the chunks read, every one of them, a chunk the same as the one before included.',
          where='lab 16.2, Build section, item 2 ("the reply is then what `assemble` makes of the chunks"); hunt round 15, 16.2-37',
          names='a chunk the same as the one before',
          replace=r"""
                if chunk is not None:
                    chunks.append(chunk)
""",
          by=r"""
                if chunk is not None and (not chunks or chunk != chunks[-1]):
                    chunks.append(chunk)  # the same chunk twice is a resend
"""),
    # Hunt round 17 (reader r93), design 16.2-07.
    Wrong(lab='16.2', name='a code that only holds insufficient_quota read as spent quota',
          rule='Spent quota is a 429 whose code is "insufficient_quota" itself, exactly: a code that holds those words among others is a rate limit.',
          where='lab 16.2, Build section, item 1 ("it is `Provider quota spent, so waiting will not help: ` and the text"); hunt round 17, 16.2-07',
          names='itself, exactly',
          replace=r"""
            if getattr(exc, "code", None) == "insufficient_quota":
""",
          by=r"""
            if "insufficient_quota" in str(getattr(exc, "code", None) or ""):
"""),
    # Hunt round 17 (reader r93), design 16.2-10.
    Wrong(lab='16.2', name='a Retry-After rounded to thousandths',
          rule='N is the retry_after as it came, every digit of it, written as Python writes it.',
          where='lab 16.2, Build section, item 1 ("being its `retry_after`, 0 included"); hunt round 17, 16.2-10',
          names='as it came, a fraction included',
          replace=r"""
            later = "later" if wait is None else f"in {wait} s"
""",
          by=r"""
            later = "later" if wait is None else f"in {round(wait, 3)} s"
"""),
    # Hunt round 17 (reader r93), design 16.2-13.
    Wrong(lab='16.2', name='a broken pipe sent once more',
          rule='If sending raises any Exception, no second request goes out, whatever its class.',
          where='lab 16.2, Build section, item 1 ("no second request goes out"); hunt round 17, 16.2-13',
          names="a quiet second try is not acomplete's to make",
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            try:
                response = self.client.open(to_wire(system, messages, tools))
            except BrokenPipeError:  # a stale connection: one quiet retry
                response = self.client.open(to_wire(system, messages, tools))
"""),
    # Hunt round 17 (reader r93), design 16.2-14.
    Wrong(lab='16.2', name='a 503 that asks for no wait sent once more',
          rule='If sending raises any Exception, no second request goes out, whatever its status and however short a wait it asks for.',
          where='lab 16.2, Build section, item 1 ("no second request goes out"); hunt round 17, 16.2-14',
          names="a quiet second try is not acomplete's to make",
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            try:
                response = self.client.open(to_wire(system, messages, tools))
            except Exception as first:
                wait = getattr(first, "retry_after", None)
                if getattr(first, "status", None) != 503 or wait is None or wait > 1:
                    raise
                response = self.client.open(to_wire(system, messages, tools))  # a blip
"""),
    # Hunt round 17 (reader r93), design 16.2-15.
    Wrong(lab='16.2', name='a rate limit under a tenth of a second sent once more',
          rule='A 429 is a reply saying when to send again, and no second request goes out, however short the wait.',
          where='lab 16.2, Build section, item 1 ("no second request goes out"); hunt round 17, 16.2-15',
          names='however short the wait',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            try:
                response = self.client.open(to_wire(system, messages, tools))
            except Exception as first:
                wait = getattr(first, "retry_after", None)
                if getattr(first, "status", None) != 429 or not wait or wait >= 0.1:
                    raise
                response = self.client.open(to_wire(system, messages, tools))  # too short to report
"""),
    # Hunt round 17 (reader r93), design 16.2-34.
    Wrong(lab='16.2', name="only the record's last 200 messages sent",
          rule='The body is the one to_wire makes of the arguments: the whole record, never its tail.',
          where='lab 16.2, Build section, item 1 ("its body the one `to_wire` makes of the arguments"); hunt round 17, 16.2-34',
          names='never its tail',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            response = self.client.open(to_wire(system, messages[-200:], tools))
"""),
    # Hunt round 17 (reader r93), design 16.2-36.
    Wrong(lab='16.2', name='only a TypeError from to_wire reported as a failed request',
          rule='The body is made inside the same try as the sending: whatever Exception to_wire raises is a failed request, and nothing goes out.',
          where='lab 16.2, Build section, item 1 ("The body is made inside the same `try` as the sending"); hunt round 17, 16.2-36',
          names='is reported as a failed request',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            body = to_wire(system, messages, tools)
        except TypeError as exc:  # bytes and such: a record JSON cannot hold
            return error_message(f"Provider request failed: {exc}")
        try:
            response = self.client.open(body)
"""),
    # Hunt round 17 (reader r93), design 16.2-19.
    Wrong(lab='16.2', name='fewer looks at the signal after a hundred quiet turns',
          rule='The signal is looked at on every turn while the provider is silent, however long the silence has lasted.',
          where='lab 16.2, Build section, item 2 ("A Stop ends the reply as the aborted one"); hunt round 17, 16.2-19',
          names='one turn, not several, between two looks',
          replace=r"""
        chunks = []
        try:
""",
          by=r"""
        chunks, quiet = [], 0
        try:
""",
          also=((r"""
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                line = response.read_line()
""", r"""
                    quiet += 1
                    for _ in range(1 if quiet <= 100 else 4):  # back off on a long silence
                        await asyncio.sleep(0)
                    continue
                quiet = 0
                line = response.read_line()
"""),)),
    # Hunt round 17 (reader r93), design 16.2-22.
    Wrong(lab='16.2', name="one call's signal kept on the model for every call",
          rule="A model object keeps nothing of one call's signal: a Stop pressed on one call stops that call alone, whatever another call of the same model is doing.",
          where='lab 16.2, Build section, item 2 ("A Stop ends the reply as the aborted one"); hunt round 17, 16.2-22',
          names='stops that call alone',
          replace=r"""
        chunks = []
        try:
""",
          by=r"""
        self.signal = signal  # kept for the reading
        chunks = []
        try:
""",
          also=((r"""
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
""", r"""
                if self.signal is not None and self.signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
"""),)),
    # Hunt round 17 (reader r93), design 16.2-24.
    Wrong(lab='16.2', name='an EOFError from read_line taken for the end',
          rule='What read_line() raises goes up as it was raised, whatever its class: a dropped connection ends the stream with None, never with an exception.',
          where='lab 16.2, Build section, item 2 ("it goes up as it was raised, whatever its class"); hunt round 17, 16.2-24',
          names='whatever its class',
          replace=r"""
                line = response.read_line()
""",
          by=r"""
                try:
                    line = response.read_line()
                except EOFError:  # the connection went away: the end
                    line = None
"""),
    # Hunt round 17 (reader r93), design 16.2-45.
    Wrong(lab='16.2', name='a BrokenPipeError from read_line taken for the end',
          rule='What read_line() raises goes up as it was raised, whatever its class: a dropped connection ends the stream with None, never with an exception.',
          where='lab 16.2, Build section, item 2 ("it goes up as it was raised, whatever its class"); hunt round 17, 16.2-45',
          names='whatever its class',
          replace=r"""
                line = response.read_line()
""",
          by=r"""
                try:
                    line = response.read_line()
                except BrokenPipeError:  # the connection dropped: the stream ended
                    line = None
"""),
    # Hunt round 17 (reader r93), design 16.2-25.
    Wrong(lab='16.2', name='a TimeoutError from ready taken for not yet',
          rule='What ready() raises goes up as it was raised, whatever its class: it is a fault in the reading, never "not ready yet".',
          where='lab 16.2, Build section, item 2 ("it goes up as it was raised, whatever its class"); hunt round 17, 16.2-25',
          names='whatever its class',
          replace=r"""
                if not response.ready():
""",
          by=r"""
                try:
                    ready = response.ready()
                except TimeoutError:  # slow to answer: not ready yet
                    ready = False
                if not ready:
"""),
    # Hunt round 18 (reader r99), designs 16.1-10 and 16.1-51: the new-id rule kept only where
    # the tests showed it (index 0; a call that already had arguments).
    Wrong(lab='16.1', name='a new id split off only at index 0',
          rule='A fragment that brings an id other than the id already at its index begins a new call there, at any index.',
          where='lab 16.1, Build section, item 2: "one that brings an id other than the id already at its index begins a new call there"',
          names='begins a new call',
          replace=r"""
                if call is None or (call_id and call["id"] and call_id != call["id"]):
""",
          by=r"""
                if call is None or (index == 0 and call_id and call["id"] and call_id != call["id"]):
"""),
    Wrong(lab='16.1', name='a new id split off only from a call that has arguments',
          rule='A fragment that brings an id other than the id already at its index begins a new call there, whether or not the call there has arguments yet.',
          where='lab 16.1, Build section, item 2: "one that brings an id other than the id already at its index begins a new call there"',
          names='begins a new call',
          replace=r"""
                if call is None or (call_id and call["id"] and call_id != call["id"]):
""",
          by=r"""
                if call is None or (call_id and call["id"] and call_id != call["id"]
                                    and any(part != "" for part in call["parts"])):
"""),
    # Hunt round 21 (reader r117), design 16.1-21: an index clamped below what the tests used.
    Wrong(lab='16.1', name='an index past 511 read as 511',
          rule='Calls stand in the order of their index, however large the index is.',
          where='lab 16.1, Build section, item 2: "then one `toolCall` per call, in the order of the calls\' `index`"',
          names='calls stand in index order',
          replace=r"""
                index, call_id = piece.get("index") or 0, piece.get("id")
""",
          by=r"""
                index, call_id = min(piece.get("index") or 0, 511), piece.get("id")
"""),
    # Hunt round 21 (reader r117), design 16.1-34: no-argument calls judged empty past a count.
    Wrong(lab='16.1', name='more than three calls with no arguments and no words judged empty',
          rule='A call whose arguments never arrive gets {}, however many such calls the reply holds; a reply of calls is never an empty reply.',
          where='lab 16.1, Build section, item 2: "an empty text means `{}`"',
          names='arguments never arrive',
          replace=r"""
    if aborted:
        why = ABORTED
""",
          by=r"""
    if not content and len(blocks) > 3 and all(not call["parts"] or call["parts"] == [""] for call in calls):
        why = "The provider sent an empty reply"
    elif aborted:
        why = ABORTED
"""),
    # Hunt round 21 (reader r117), probe 16.1-40: a tool holding a "function" key taken for the wire's.
    Wrong(lab='16.1', name='no tools sent when a tool holds a key named function',
          rule='Each tool goes out as {"type": "function", "function": spec}, the spec tool_specs gives, whatever other key a tool holds.',
          where='lab 16.1, Build section, item 3: "Each tool goes out as"',
          names='only the specs of the tools',
          replace=r"""
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
""",
          by=r"""
            "tools": [] if any("function" in tool for tool in tools) else [{"type": "function", "function": spec} for spec in tool_specs(tools)],
"""),
    # Hunt round 21 (reader r117), design 16.1-31: empty arguments sent as the dict itself.
    Wrong(lab='16.1', name='empty arguments sent as a dict',
          rule='Every call\'s arguments travel as JSON text, the empty object too: "{}", never the dict.',
          where='lab 16.1, Build section, item 3: "with the arguments as JSON text"',
          names='arguments as a JSON string',
          replace=r"""
                     "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}
""",
          by=r"""
                     "function": {"name": call["name"],
                                  "arguments": json.dumps(call["arguments"]) if call["arguments"] else call["arguments"]}}
"""),
    # Hunt round 18 (reader r99), design 16.1-22: a cap at the count the test tried.
    Wrong(lab='16.1', name='only the first 301 calls put in the reply',
          rule='A reply that arrived whole holds one toolCall per call, in index order, however many calls it has.',
          where='lab 16.1, Build section: "then one `toolCall` per call, in the order of the calls\' `index`"',
          names='every call is in the reply',
          replace=r"""
    for call in sorted(calls, key=lambda call: call["index"]):  # stable: in order at one index
""",
          by=r"""
    for call in sorted(calls, key=lambda call: call["index"])[:301]:  # as many as the test tried
"""),
    # Hunt round 18 (reader r99), designs 16.1-27 and 16.1-50: an error beside a finish.
    Wrong(lab='16.1', name='content_filter judged before an error chunk',
          rule='When more than one reason applies, the first in the table is the one reported: an error chunk over content_filter.',
          where='lab 16.1, Build section, the table: "When more than one of these applies, the first in the table is the one reported"',
          names='stands above content_filter',
          replace=r"""
    elif failure is not None:
        why = failure
""",
          by=r"""
    elif failure is not None and finish != "content_filter":
        why = failure
"""),
    Wrong(lab='16.1', name='an error key read only on a chunk with no choices',
          rule='An error chunk is a chunk with an "error" key, whatever else the chunk holds.',
          where='lab 16.1, Build section, the table: "an error chunk: a chunk with an" `error` key',
          names='choices or not',
          replace=r"""
        if chunk.get("error") is not None:  # the key, whatever it holds; but null is left out
""",
          by=r"""
        if chunk.get("error") is not None and not chunk.get("choices"):
"""),
    # Hunt round 18 (reader r99), designs 16.1-31 and 16.1-53: "drops every call" kept only for
    # calls that had argument text.
    Wrong(lab='16.1', name='a failed reply keeping the calls that brought no arguments',
          rule='A reply that did not arrive whole holds its words and no call.',
          where='lab 16.1, Build section, item 2: "A reply that did not arrive whole is an ending made by `error_message`, holding its words and no call."',
          names='drops every call',
          replace=r"""
    return {**failed, "content": content}  # the words stay; no call does
""",
          by=r"""
    return {**failed, "content": content + [block for block in blocks  # nothing left to come
                                            if block["id"] and block["arguments"] == {}]}
"""),
    Wrong(lab='16.1', name='an aborted reply keeping the calls sent as objects',
          rule='A reply that did not arrive whole holds its words and no call, aborted or not.',
          where='lab 16.1, Build section, item 2: "A reply that did not arrive whole is an ending made by `error_message`, holding its words and no call."',
          names='drops every call',
          replace=r"""
    return {**failed, "content": content}  # the words stay; no call does
""",
          by=r"""
    whole = [block for block, call in zip(blocks, sorted(calls, key=lambda call: call["index"]))
             if isinstance(block["arguments"], dict)
             and any(not isinstance(part, str) for part in call["parts"])]  # came whole
    return {**failed, "content": content + (whole if aborted else [])}
"""),
    # Hunt round 18 (reader r99), designs 16.1-48 and 16.1-41: a record with a reply that holds
    # nothing.
    Wrong(lab='16.1', name='a key added to an assistant message with no content',
          rule="The record's messages come out of to_wire exactly as they went in.",
          where='lab 16.1, Build section, item 3: "The record\'s messages come out of this exactly as they went in."',
          names='no key added',
          replace=r"""
            said = {"role": "assistant", "content": text_of(message) or None}
""",
          by=r"""
            if not message["content"]:
                message.setdefault("error_message", None)
            said = {"role": "assistant", "content": text_of(message) or None}
"""),
    Wrong(lab='16.1', name='"tool_calls": [] on a reply labelled toolUse with no call',
          rule='An assistant message with no calls has no "tool_calls" key, whatever its label.',
          where='lab 16.1, Build section, item 3: "a message with no calls has no such key: real servers refuse an empty list"',
          names='whatever its label says',
          replace=r"""
            if calls:
""",
          by=r"""
            if calls or message.get("stop_reason") == "toolUse":
"""),
    # Hunt round 20 (reader r111), design 16.2-28.
    Wrong(lab='16.2', name='a turn given to the loop between the look at the signal and the read',
          rule="A Stop ends the reply as the aborted one and no later line is read: the signal is looked at right before each read, with no turn between, so a Stop pressed from outside in any turn lets no line in.",
          where='lab 16.2, Build section, item 2 ("A Stop ends the reply as the aborted one, keeping the words read so far, and no later line is read"); hunt round 20, 16.2-28',
          names='no later line is read',
          replace=r'''
                    continue
                line = response.read_line()
''',
          by=r'''
                    continue
                await asyncio.sleep(0)  # a turn on every lap, line or no line
                line = response.read_line()
'''),
    # Hunt round 20 (reader r111), design 16.2-44.
    Wrong(lab='16.2', name='one more line read after a refused one when it is ready',
          rule="A line that decode_line refuses ends the reply as an error ending and is the last line read, even when the next is ready at once.",
          where='lab 16.2, Build section, item 2 ("A line that `decode_line` refuses ends the reply"); hunt round 20, 16.2-44',
          names='is the last line read',
          replace=r'''
                except ValueError as exc:  # a line that is not a stream line; only decode_line's
                    return error_message(str(exc))
''',
          by=r'''
                except ValueError as exc:  # a line that is not a stream line; only decode_line's
                    if response.ready():
                        response.read_line()  # a look at what came next, dropped
                    return error_message(str(exc))
'''),
    # Hunt round 23 (reader r130), design 16.2-35.
    Wrong(lab='16.2', name='an aborted connection sent once more',
          rule="If sending raises any Exception the reply is an error ending and no second request goes out, whatever its class: a ConnectionAbortedError too.",
          where='lab 16.2, Build section, item 1 ("no second request goes out"); hunt round 23, 16.2-35',
          names='whatever its class',
          replace=r'''
            response = self.client.open(to_wire(system, messages, tools))
''',
          by=r'''
            try:
                response = self.client.open(to_wire(system, messages, tools))
            except ConnectionAbortedError:  # dropped on its way out: surely safe to send again
                response = self.client.open(to_wire(system, messages, tools))
'''),
    # Hunt round 23 (reader r130), design 16.2-36.
    Wrong(lab='16.2', name='a CancelledError from sending taken for the provider',
          rule="Only an Exception is the provider's trouble: anything else raised while sending, a CancelledError too, goes up as it was raised.",
          where='lab 16.2, Build section, item 1 ("Only an `Exception` is the provider\'s trouble"); hunt round 23, 16.2-36',
          names='a CancelledError too',
          replace=r'''
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
''',
          by=r'''
        except (Exception, asyncio.CancelledError) as exc:  # refused, or called off on the way
'''),
    # Hunt round 23 (reader r130), design 16.2-34.
    Wrong(lab='16.2', name='a Retry-After capped at an hour',
          rule="A rate limit's N is its retry_after as it came, however long a wait it asks for.",
          where='lab 16.2, Build section, item 1 ("`N` being its `retry_after`"); hunt round 23, 16.2-34',
          names='however long a wait',
          replace=r'''
            later = "later" if wait is None else f"in {wait} s"
''',
          by=r'''
            later = "later" if wait is None else f"in {min(wait, 3600)} s"  # an hour at most
'''),
    # Hunt round 23 (reader r130), design 16.2-40.
    Wrong(lab='16.2', name="a rate limit's text stripped",
          rule="Each sentence is followed by the exception's text as it is, never trimmed: a rate limit's too.",
          where='lab 16.2, Build section, item 1 ("`Provider rate limit, so send again in N s: ` and the text"); hunt round 23, 16.2-40',
          names='never trimmed',
          replace=r'''
            return error_message(f"Provider rate limit, so send again {later}: {exc}")
''',
          by=r'''
            return error_message(f"Provider rate limit, so send again {later}: {str(exc).strip()}")
'''),
    # Hunt round 23 (reader r130), design 16.2-41.
    Wrong(lab='16.2', name='a rate limit with no text reported by its class name',
          rule="Each sentence is followed by the exception's text as it is, even when that is empty: a rate limit's too.",
          where='lab 16.2, Build section, item 1 ("`Provider rate limit, so send again in N s: ` and the text"); hunt round 23, 16.2-41',
          names='even when that is empty',
          replace=r'''
            return error_message(f"Provider rate limit, so send again {later}: {exc}")
''',
          by=r'''
            said = str(exc) or type(exc).__name__  # something to read after the colon
            return error_message(f"Provider rate limit, so send again {later}: {said}")
'''),
    # Hunt round 23 (reader r130), design 16.2-33.
    Wrong(lab='16.2', name="only the record's last 1,100 messages sent",
          rule="Exactly one request goes out, its body the one to_wire makes of the arguments: the whole record, never its tail, however long.",
          where='lab 16.2, Build section, item 1 ("its body the one `to_wire` makes of the arguments"); hunt round 23, 16.2-33',
          names='never its tail',
          replace=r'''
            response = self.client.open(to_wire(system, messages, tools))
''',
          by=r'''
            response = self.client.open(to_wire(system, list(messages)[-1_100:], tools))
'''),
    # Hunt round 23 (reader r130), design 16.2-39.
    Wrong(lab='16.2', name='a minute of silence by the clock taken for the end',
          rule="The response is read to its end or a Stop, however long the provider is quiet: no timeout by the clock ends it.",
          where='lab 16.2, Build section, item 2 ("The response is read to its end"); "No retries at all, and no timeout"; hunt round 23, 16.2-39',
          names='no timeout by the clock',
          replace=r'''
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
''',
          by=r'''
                if not response.ready():
                    if clock.monotonic() - heard > 60:  # a minute of silence: the provider is gone
                        break
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                heard = clock.monotonic()
''',
          also=((r'''
        chunks = []
        try:
            while True:
''', r'''
        import time as clock
        chunks, heard = [], clock.monotonic()
        try:
            while True:
'''),)),
    # Hunt round 23 (reader r130), design 16.2-37.
    Wrong(lab='16.2', name="a CancelToken's own flag read in the reading",
          rule="Any object with is_cancelled() can serve as a signal, and it is asked on every lap of the reading, never read from a CancelToken's insides: a CancelToken of the caller's own class may answer otherwise.",
          where="lesson 15's CancelToken docstring, given in the lab 16.2 starter (any object with is_cancelled() can serve as a signal); hunt round 23, 16.2-37",
          names="CancelToken's insides",
          replace=r'''
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
''',
          by=r'''
                if signal is not None and (signal._cancelled if isinstance(signal, CancelToken)
                                           else signal.is_cancelled()):  # a token's flag is quicker
                    return assemble(chunks, aborted=True)  # the words so far, and no call
'''),
    # Hunt round 23 (reader r130), design 16.2-38.
    Wrong(lab='16.2', name='the response left open on a SystemExit',
          rule="The response is closed on every way out, whatever was raised: a SystemExit from read_line too.",
          where='lab 16.2, Build section, item 2 ("The response is closed on every way out"); hunt round 23, 16.2-38',
          names='whatever was raised',
          replace=r'''
        finally:
            response.close()  # on every way out, a hard cancel's too
''',
          by=r'''
        except SystemExit:
            exiting = True  # the process is ending: nothing left to close for
            raise
        finally:
            if not exiting:
                response.close()  # on every way out, a hard cancel's too
''',
          also=((r'''
        chunks = []
        try:
            while True:
''', r'''
        chunks, exiting = [], False
        try:
            while True:
'''),)),
    # Hunt round 23 (reader r130), design 16.2-49.
    Wrong(lab='16.2', name='a stopped reply keeping its whole calls',
          rule="A Stop ends the reply as the aborted one, assemble(chunks, aborted=True): the words read so far and no call, even one whose arguments came whole.",
          where='lab 16.2, Build section, item 2 ("A Stop ends the reply as the aborted one, keeping the words read so far"); hunt round 23, 16.2-49',
          names='no call',
          replace=r'''
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
''',
          by=r'''
                if signal is not None and signal.is_cancelled():  # the words, and the whole calls
                    whole = assemble(chunks + [{"choices": [{"index": 0, "delta": {},
                                                             "finish_reason": "stop"}]}])
                    return {**assemble(chunks, aborted=True), "content": whole["content"]}
'''),
    # Hunt round 25 (reader r138), design 16.1-05: the null rule kept for the one line shown.
    Wrong(lab='16.1', name='an error line of null read as failed only as the test spells it',
          rule='An error: line always says the reply failed: a payload of null gives its text, with or without a space after the colon.',
          where='lab 16.1, Build section, item 1: "a payload of `null` gives its text"; hunt round 25, 16.1-05',
          names='`error:null` too',
          replace=r'''
        return {"error": said if parsed is None else parsed}  # `null` too says it failed
''',
          by=r'''
        if said == "null" and line != "error: null":
            return {"error": None}  # the null rule, for the line the page shows
        return {"error": said if parsed is None else parsed}
'''),
    # Hunt round 25 (reader r138), design 16.1-13: a cap on the chunks read.
    Wrong(lab='16.1', name='a long reply read only to its 500th chunk',
          rule='Every chunk is read, to the end, and what it carries counts, however many chunks a reply comes in.',
          where='lab 16.1, Build section, item 2: "every chunk is read, to the end, and what it carries counts"; hunt round 25, 16.1-13',
          names='every chunk is read',
          replace=r'''
    for chunk in chunks:
''',
          by=r'''
    for number, chunk in enumerate(chunks):
        if number >= 500:  # enough chunks for any one reply
            break
'''),
    # Hunt round 25 (reader r138), design 16.1-15: an index past a million dropped.
    Wrong(lab='16.1', name='a fragment at an index past a million dropped',
          rule='An index is the call\'s place however large it is: calls stand in the order of their index.',
          where='lab 16.1, Build section, item 2: "in the order of the calls\' `index`"; hunt round 25, 16.1-15',
          names='however large it is',
          replace=r'''
                index, call_id = piece.get("index") or 0, piece.get("id")
''',
          by=r'''
                index, call_id = piece.get("index") or 0, piece.get("id")
                if index > 1_001_000:  # past any index a reply uses
                    continue
'''),
    # Hunt round 25 (reader r138), design 16.1-16: a cap on a call's fragments.
    Wrong(lab='16.1', name="only a call's first 100 fragments joined",
          rule="A call's arguments are all its fragments joined, however many there are.",
          where='lab 16.1, Build section, item 2: "arguments parsed from all its fragments joined"; hunt round 25, 16.1-16',
          names='all its fragments joined',
          replace=r'''
                call["parts"].append("" if said is None else said)
''',
          by=r'''
                if len(call["parts"]) < 100:  # enough scraps for any one call
                    call["parts"].append("" if said is None else said)
'''),
    # Hunt round 25 (reader r138), design 16.1-22: the table's finishes in any letters.
    Wrong(lab='16.1', name='length and content_filter read in any letters',
          rule='Only "length" and "content_filter", spelled exactly, fail a finished reply; a finish in other letters is another name.',
          where='lab 16.1, Build section, the table: "`finish_reason` is"; hunt round 25, 16.1-22',
          names='spelled exactly',
          replace=r'''
    elif finish == "length":
        why = "The reply was cut off at the output limit"
    elif finish == "content_filter":
''',
          by=r'''
    elif str(finish).lower() == "length":
        why = "The reply was cut off at the output limit"
    elif str(finish).lower() == "content_filter":
'''),
    # Hunt round 25 (reader r138), design 16.1-23: the error's reason cut short.
    Wrong(lab='16.1', name="an error's reason cut at 100 characters",
          rule='An error chunk is reported as its message, as text, or as str() of the error: all it says, however long.',
          where='lab 16.1, Build section, the table: "its `message`, as text"; hunt round 25, 16.1-23',
          names='all it says is kept',
          replace=r'''
            failure = failure or str(error if said is None else said)
''',
          by=r'''
            failure = failure or str(error if said is None else said)[:100]  # a line's worth
'''),
    # Hunt round 25 (reader r138), design 16.1-25: NaN looked for as a word.
    Wrong(lab='16.1', name="NaN and Infinity looked for in the arguments' text",
          rule='Only arguments that are not a JSON object break a call: NaN and Infinity as values are not JSON, but inside a string they are words.',
          where='lab 16.1, Build section, item 2: "only arguments that are not an object break a call"; hunt round 25, 16.1-25',
          names='not a search of the text',
          replace=r'''
                arguments = json.loads(joined) if joined else {}
                json.dumps(arguments, allow_nan=False)  # NaN, Infinity: Python's, not JSON's
''',
          by=r'''
                if "NaN" in joined or "Infinity" in joined:  # Python's, not JSON's
                    raise ValueError(joined)
                arguments = json.loads(joined) if joined else {}
'''),
    # Hunt round 25 (reader r138), design 16.1-47: a new id split off only from a call that parses.
    Wrong(lab='16.1', name='a new id split off only from a call whose arguments parse',
          rule='A fragment that brings an id other than the id already at its index begins a new call there, whether or not the call there has arguments yet, and whether or not they parse yet.',
          where='lab 16.1, Build section, item 2: "one that brings an id other than the id already at its index begins a new call there"; hunt round 25, 16.1-47',
          names='begins a new call',
          replace=r'''
                if call is None or (call_id and call["id"] and call_id != call["id"]):
''',
          by=r'''
                text = "".join(part for part in call["parts"] if isinstance(part, str)) if call else ""
                try:
                    whole = not text or isinstance(json.loads(text), dict)
                except ValueError:
                    whole = False  # still coming: the fragment goes on with it
                if call is None or (call_id and call["id"] and call_id != call["id"] and whole):
'''),
    # Hunt round 25 (reader r138), design 16.1-38 (allowed since hunt round 5, until Build item 3
    # said "spelled as `json.dumps(arguments)` spells it by default").
    Wrong(lab='16.1', name="a call's arguments written with their keys sorted",
          rule="A call's arguments go out as JSON text spelled as json.dumps(arguments) spells it by default: keys in the order they came, not sorted.",
          where='lab 16.1, Build section, item 3: "spelled as `json.dumps(arguments)` spells it by default"; hunt round 25, 16.1-38',
          names='not sorted',
          replace=r'''
                     "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}
''',
          by=r'''
                     "function": {"name": call["name"], "arguments": json.dumps(call["arguments"], sort_keys=True)}}
'''),
    # Hunt round 25 (reader r138), design 16.1-41: results put in the order of their ids.
    Wrong(lab='16.1', name='a run of results sorted by call id',
          rule='Every message goes out in order, results in the order they came, not sorted by their call ids.',
          where='lab 16.1, Build section, item 3: "The record\'s messages come out of this exactly as they went in"; hunt round 25, 16.1-41',
          names='goes out in order',
          replace=r'''
            wire.append({"role": "tool", "tool_call_id": message["tool_call_id"],
                         "content": message["content"]})
''',
          by=r'''
            wire.append({"role": "tool", "tool_call_id": message["tool_call_id"],
                         "content": message["content"]})
            run = len(wire) - 1
            while run > 0 and wire[run - 1]["role"] == "tool":
                run -= 1
            wire[run:] = sorted(wire[run:], key=lambda sent: sent["tool_call_id"])  # tidy
'''),
    # Hunt round 25 (reader r138), design 16.1-43: the specs kept by the tools' names.
    Wrong(lab='16.1', name="the specs kept by the tools' names",
          rule='The tools are the list\'s as it is now, worked out afresh on every call: a tool said anew under the same name goes out as it is now.',
          where='lab 16.1, Build section, item 3: "Each tool goes out as"; hunt round 25, 16.1-43',
          names='not kept by their names',
          replace=r'''
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
''',
          by=r'''
            "tools": [{"type": "function", "function": dict(spec)} for spec in
                      to_wire.__dict__.setdefault("kept", {}).setdefault(
                          tuple(tool["name"] for tool in tools), tool_specs(tools))],
'''),
    # Hunt round 25 (reader r138), design 16.1-49: a cap on the messages sent.
    Wrong(lab='16.1', name="only the record's last 400 messages put in the body",
          rule='Every message goes out, however long the record.',
          where='lab 16.1, Build section, item 3: "The record\'s messages come out of this exactly as they went in"; hunt round 25, 16.1-49',
          names='every message goes out, however long the record',
          replace=r'''
    wire = [{"role": "system", "content": system}]
    for message in messages:
''',
          by=r'''
    wire = [{"role": "system", "content": system}]
    for message in messages[-400:]:  # the newest, enough for any context
'''),
    # Hunt round 27 (reader r150), design 16.2-37.
    Wrong(lab='16.2', name='a [DONE] before any finish read past',
          rule='The response is read to its end, where read_line() gives None or a line decodes to STREAM_DONE, even when no finish or error chunk came before it, and nothing after that end is read.',
          where='lab 16.2, Build section, item 2 ("nothing after that end is read"); hunt round 27, 16.2-37',
          names='even when no finish came before it',
          replace=r"""
                if chunk == STREAM_DONE:
                    break
""",
          by=r"""
                if chunk == STREAM_DONE:
                    if line is None or any(
                            part.get("error") is not None
                            or any(isinstance(choice, dict) and choice.get("finish_reason")
                                   for choice in part.get("choices") or [])
                            for part in chunks):
                        break
                    continue  # a [DONE] before any finish: the stream was cut, read on
"""),
    # Hunt round 27 (reader r150), design 16.2-47.
    Wrong(lab='16.2', name='a GeneratorExit from sending taken for the provider',
          rule="Only an Exception is the provider's trouble: anything else that is not an Exception, a GeneratorExit too, raised while sending goes up as it was raised.",
          where='lab 16.2, Build section, item 1 ("or anything else that is not an `Exception`, raised while sending, goes up as it was raised"); hunt round 27, 16.2-47',
          names="Only an Exception is the provider's trouble",
          replace=r"""
        except Exception as exc:  # refused, unreachable, turned away: news, not a crash
""",
          by=r"""
        except (Exception, GeneratorExit) as exc:  # a client closed under us: news too
"""),
    # Hunt round 27 (reader r150), design 16.2-48.
    Wrong(lab='16.2', name='a ConnectionResetError from read_line taken for the end',
          rule='What read_line() raises goes up as it was raised, whatever its class: a dropped connection ends the stream with None, never with an exception.',
          where='lab 16.2, Build section, item 2 ("it goes up as it was raised, whatever its class"); hunt round 27, 16.2-48',
          names='whatever its class',
          replace=r"""
                line = response.read_line()
""",
          by=r"""
                try:
                    line = response.read_line()
                except ConnectionResetError:  # the peer reset the connection: the stream ended
                    line = None
"""),
    # Hunt round 28 (reader r157), design 16.1-34.
    Wrong(lab='16.1', name='a cut finish kept over a later finish',
          rule='When two chunks carry a finish_reason that is not null, the last one is the finish, a later one after length or content_filter too.',
          where='lab 16.1, Build section, item 2: "when two carry a `finish_reason` that is not null, the last one is the finish"; hunt round 28, 16.1-34',
          names='the last is the finish',
          replace=r"""
            finish = choice.get("finish_reason") or finish
""",
          by=r"""
            if finish not in ("length", "content_filter"):  # a cut stays a cut
                finish = choice.get("finish_reason") or finish
"""),
    # Hunt round 28 (reader r157), design 16.1-38.
    Wrong(lab='16.1', name='an index past 1,001,000 read as 1,001,000',
          rule='The calls stand in the order of their index, however large the index.',
          where='lab 16.1, Build section, item 2: "then one `toolCall` per call, in the order of the calls\' `index`"; hunt round 28, 16.1-38',
          names='however large',
          replace=r"""
                index, call_id = piece.get("index") or 0, piece.get("id")
""",
          by=r"""
                index, call_id = min(piece.get("index") or 0, 10 ** 6 + 1000), piece.get("id")
"""),
    # Hunt round 28 (reader r157), design 16.1-48.
    Wrong(lab='16.1', name="each message's wire dict kept and handed to every later body",
          rule="Each call of to_wire makes a body of its own, new dicts all through: no later call's body is an earlier one or shares a message with it.",
          where='lab 16.1, Build section, item 3: "Each call makes a body of its own"; hunt round 28, 16.1-48',
          names='nor shares a message with it',
          replace=r"""
    return {"messages": wire,
""",
          by=r"""
    held = to_wire.__dict__.setdefault("held", {})  # id(message) -> (message, its wire dict)
    for n, message in enumerate(messages):
        kept = held.get(id(message))
        if kept is not None and kept[0] is message:
            wire[n + 1] = kept[1]  # written before: the same dict again
        else:
            held[id(message)] = (message, wire[n + 1])
    return {"messages": wire,
"""),
    # Hunt round 28 (reader r157), design 16.1-43: a cap on the length of a call's arguments.
    Wrong(lab='16.1', name="arguments past 1,000 characters read as broken",
          rule="A call's arguments are all its fragments joined, however long: a JSON object of any length is an object.",
          where='lab 16.1, Build section, item 2: "arguments parsed from all its fragments joined"; hunt round 28, 16.1-43',
          names='all its fragments joined, however long',
          replace=r"""
                arguments = json.loads(joined) if joined else {}
""",
          by=r"""
                if len(joined) > 1000:  # longer than any call's arguments
                    raise ValueError(joined)
                arguments = json.loads(joined) if joined else {}
"""),
    # Hunt round 28 (reader r157), design 16.1-44: the words cut at 4,096 characters.
    Wrong(lab='16.1', name="the words cut at 4,096 characters",
          rule="A reply that arrived whole holds its words as one text block, exactly as written, however long.",
          where='lab 16.1, Build section, item 2: "holds its words as one text block"; hunt round 28, 16.1-44',
          names='exactly as written, however long',
          replace=r"""
    text = "".join(words)
""",
          by=r"""
    text = "".join(words)[:4096]  # a page of words is enough
"""),
    # Hunt round 28 (reader r157), design 16.1-45: an error's reason cut at 3,000 characters.
    Wrong(lab='16.1', name="an error's reason cut at 3,000 characters",
          rule='An error chunk is reported as its message, as text, or as str() of the error: all it says, however long.',
          where='lab 16.1, Build section, the table: "its `message`, as text"; hunt round 28, 16.1-45',
          names='all it says is kept',
          replace=r"""
            failure = failure or str(error if said is None else said)
""",
          by=r"""
            failure = failure or str(error if said is None else said)[:3000]  # enough to read
"""),
    # Hunt round 28 (reader r157), design 16.1-47: a long line refused for its length.
    Wrong(lab='16.1', name="a line past 4,096 characters refused",
          rule="A data line gives its payload, parsed, however long the line: only a payload that is not a JSON object raises.",
          where='lab 16.1, Build section, item 1: "A `data:` line gives its payload, parsed, a dict"; hunt round 28, 16.1-47',
          names='gives its chunk however long',
          replace=r"""
    if line.startswith("error:"):  # a failure, said as its own field: its reason is news
""",
          by=r"""
    if len(line) > 4096:  # longer than any line a server sends
        raise ValueError(f"not a stream line: {line!r}")
    if line.startswith("error:"):  # a failure, said as its own field: its reason is news
"""),
    # Hunt round 30 (reader r169), design 16.2-09.
    Wrong(lab='16.2', name="other providers' codes of spent credit read as spent quota",
          rule='A 429 with code "insufficient_quota" is spent quota; any other code is a rate limit.',
          where='lab 16.2, Build section, item 1 (a 429 "is one of two failures", spent quota only with its `code` `insufficient_quota`, otherwise a rate limit); hunt round 30, 16.2-09',
          names='any other code is a rate limit',
          replace=r"""
            if getattr(exc, "code", None) == "insufficient_quota":
""",
          by=r"""
            if getattr(exc, "code", None) in ("insufficient_quota", "quota_exceeded",
                                               "billing_hard_limit_reached"):
"""),
    # Hunt round 30 (reader r169), design 16.2-13.
    Wrong(lab='16.2', name="the exception's text taken from its one argument",
          rule="The error_message is `Provider request failed: ` followed by the exception's text, str(exc), never its argument.",
          where="lab 16.2, Build section, item 1 (\"`Provider request failed: ` followed by the exception's text\"); hunt round 30, 16.2-13",
          names='picked from its args',
          replace=r"""
            if getattr(exc, "status", None) != 429:
                return error_message(f"Provider request failed: {exc}")
""",
          by=r"""
            if getattr(exc, "status", None) != 429:
                said = exc.args[0] if len(exc.args) == 1 else exc  # KeyError('x') says x
                return error_message(f"Provider request failed: {said}")
"""),
    # Hunt round 30 (reader r169), design 16.2-18.
    Wrong(lab='16.2', name='a data line with an empty payload skipped as empty',
          rule='A line that decode_line refuses, a data line with no payload among them, ends the reply as an error ending with no words.',
          where='lab 16.2, Build section, item 2 ("A line that `decode_line` refuses ends the reply as an `error` ending"); hunt round 30, 16.2-18',
          names='an empty payload is no JSON object',
          replace=r"""
                line = response.read_line()
""",
          by=r"""
                line = response.read_line()
                if line is not None and line.startswith("data:") and not line[5:].strip():
                    continue  # a data line with nothing in it looks empty: skipped
"""),
    # Hunt round 30 (reader r169), probe 16.2-30.
    Wrong(lab='16.2', name='each line stripped before decode_line',
          rule="Each line goes to decode_line as it was read: a line whose field is not data: as read carries nothing and is skipped.",
          where='lab 16.2, Build section, item 2 ("Each line goes to `decode_line` as it was read, never tidied first, and lines that carry nothing are skipped", carrying nothing as decode_line of lab 16.1 says); hunt round 30, 16.2-30',
          names='as it was read, never tidied',
          replace=r"""
                    chunk = STREAM_DONE if line is None else decode_line(line)
""",
          by=r"""
                    chunk = STREAM_DONE if line is None else decode_line(line.strip())
"""),
    # Hunt round 30 (reader r169), design 16.2-32.
    Wrong(lab='16.2', name="a rate limit's reply carrying its wait as a field",
          rule="An ending is lesson 5's error_message(text): the rate limit's reply is the error ending, its wait told in its words, no field added.",
          where='lab 16.2, Build section, item 1 ("the reply is an `error` ending"), and item 2 ("lesson 5\'s `error_message(text)` makes it"); hunt round 30, 16.2-32',
          names='with no field of its own added',
          replace=r"""
            return error_message(f"Provider rate limit, so send again {later}: {exc}")
""",
          by=r"""
            reply = error_message(f"Provider rate limit, so send again {later}: {exc}")
            reply["retry_after"] = wait  # for a caller that wants the number
            return reply
"""),
    # Hunt round 30 (reader r169), design 16.2-44.
    Wrong(lab='16.2', name='the stream flag taken back from a body once sent',
          rule="The body sent is the one to_wire makes of the arguments, and once handed to the client it is the client's: nothing is taken from it or added to it afterwards.",
          where='lab 16.2, Build section, item 1 ("its body the one `to_wire` makes of the arguments"), and lab 16.1, Build item 3 ("a client may keep a body it has sent"); hunt round 30, 16.2-44',
          names='nothing is taken from it or added to it',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            body = to_wire(system, messages, tools)
            response = self.client.open(body)
            body.pop("stream", None)  # sent: the flag is no use any more
"""),
    # Hunt round 30 (reader r169), design 16.2-47.
    Wrong(lab='16.2', name='tools of one name sent once',
          rule="Exactly one request goes out, its body the one to_wire makes of the arguments: every tool it was given, two of one name too.",
          where='lab 16.2, Build section, item 1 ("its body the one `to_wire` makes of the arguments"); hunt round 30, 16.2-47',
          names='every tool it was given',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            named = {}
            for spec in tools or ():
                named.setdefault(spec["name"], spec)  # a name offered twice is offered once
            response = self.client.open(to_wire(system, messages, list(named.values())))
"""),
    # Hunt round 31 (reader r178), probe 16.1-07: CRLF tolerated by tidying the line first.
    Wrong(lab='16.1', name="decode_line dropping the line's ending first",
          rule="A data line whose payload is not a JSON object raises ValueError, whose text is `not a stream line: ` followed by the line's repr: the line as it was handed over, its line ending included.",
          where='lab 16.1, Build section, item 1 ("followed by the line\'s `repr`"); hunt round 31, 16.1-07',
          names="not of the line tidied first",
          replace=r"""
    if line.startswith("error:"):  # a failure, said as its own field: its reason is news
""",
          by=r"""
    line = line.rstrip("\r\n")  # a line read from bytes may keep its ending
    if line.startswith("error:"):  # a failure, said as its own field: its reason is news
"""),
    # Hunt round 31 (reader r178), design 16.1-10.
    Wrong(lab='16.1', name='an error payload holding an error key taken for the chunk',
          rule='An error: line gives {"error": ...} holding its payload, whatever JSON the payload is, an object with an "error" key of its own too.',
          where='lab 16.1, Build section, item 1 ("an `error:` line gives", a payload under the key `error`, "and it always says the reply failed"); hunt round 31, 16.1-10',
          names='nor unwrapped',
          replace=r"""
        return {"error": said if parsed is None else parsed}  # `null` too says it failed
""",
          by=r"""
        if isinstance(parsed, dict) and "error" in parsed:
            return dict(parsed)  # shaped as an error chunk already
        return {"error": said if parsed is None else parsed}  # `null` too says it failed
"""),
    # Hunt round 31 (reader r178), design 16.1-21: a cap past the words a test drew.
    Wrong(lab='16.1', name="the words cut at 100,000 characters",
          rule="A reply that arrived whole holds its words as one text block, exactly as written, however long.",
          where='lab 16.1, Build section, item 2: "holds its words as one text block"; hunt round 31, 16.1-21',
          names='whatever the count',
          replace=r"""
    text = "".join(words)
""",
          by=r"""
    text = "".join(words)[:100_000]  # more than any one reply needs
"""),
    # Hunt round 31 (reader r178), design 16.1-36.
    Wrong(lab='16.1', name='one content list shared by every failed reply with no words',
          rule="assemble, called again, gives the message its chunks add up to: each reply holds a content list of its own, and nothing a caller wrote into an earlier one.",
          where='lab 16.1, Build section, item 2 ("called again on the same list, or on a longer one as the stream grows, it gives the message those chunks add up to"); hunt round 31, 16.1-36',
          names='a content list of its own',
          replace=r"""
def assemble(chunks, *, aborted=False):
""",
          by=r"""
_NO_WORDS = []  # one empty list is as good as another


def assemble(chunks, *, aborted=False):
""",
          also=((r"""
    content = [{"type": "text", "text": text}] if text else []
""", r"""
    content = [{"type": "text", "text": text}] if text else _NO_WORDS
"""),)),
    # Hunt round 31 (reader r178), design 16.1-38.
    Wrong(lab='16.1', name='a fragment naming another tool taken for a new call',
          rule="Only a fragment that brings an id other than the id at its index begins a new call there; one with no id still belongs to the call its index names, whatever name it brings.",
          where='lab 16.1, Build section, item 2 ("one that brings an id other than the id already at its index begins a new call there"); hunt round 31, 16.1-38',
          names='only a new id begins a new call',
          replace=r"""
                if call is None or (call_id and call["id"] and call_id != call["id"]):
""",
          by=r"""
                named = (piece.get("function") or {}).get("name")
                if call is None or (call_id and call["id"] and call_id != call["id"]) or (
                        named is not None and call["name"] is not None and named != call["name"]):
"""),
    # Hunt round 31 (reader r178), design 16.1-41.
    Wrong(lab='16.1', name="an error's message cut to its first line",
          rule="An error chunk is reported as its message, as text: every line of it, as the server wrote it.",
          where='lab 16.1, Build section, the table: "its `message`, as text"; hunt round 31, 16.1-41',
          names='every line of it',
          replace=r"""
            failure = failure or str(error if said is None else said)
""",
          by=r"""
            failure = failure or (str(error if said is None else said).splitlines() or [""])[0]
"""),
    # Hunt round 31 (reader r178), design 16.1-67: allowed since round 5, until Build item 2
    # said every chunk is read, to the end.
    Wrong(lab='16.1', name='assemble that stops walking at the first error chunk',
          rule="Every chunk is read, to the end, and what it carries counts: an error chunk fails the reply, which holds its words, those after the error too.",
          where='lab 16.1, Build section, item 2 ("every chunk is read, to the end, and what it carries counts"; "holding its words and no call"); hunt round 31, 16.1-67 (hunt round 5, 16.1-7, had allowed it)',
          names='does not end the walk',
          replace=r"""
            finish = choice.get("finish_reason") or finish
    text = "".join(words)
""",
          by=r"""
            finish = choice.get("finish_reason") or finish
        if failure is not None:
            break  # nothing after an error chunk counts
    text = "".join(words)
"""),
    # Hunt round 31 (reader r178), design 16.1-61.
    Wrong(lab='16.1', name="a call's arguments text kept by its id for later bodies",
          rule="Each call of to_wire makes a body of its own: a call's arguments are json.dumps of that record's call, never text kept from an earlier body.",
          where='lab 16.1, Build section, item 3 ("Each call makes a body of its own"; "spelled as `json.dumps(arguments)` spells it"); hunt round 31, 16.1-61',
          names='not text kept from an earlier body',
          replace=r"""
def to_wire(system, messages, tools):
""",
          by=r"""
_SENT = {}  # call id -> its arguments as JSON text, written once


def to_wire(system, messages, tools):
""",
          also=((r"""
                     "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}
""", r"""
                     "function": {"name": call["name"],
                                  "arguments": _SENT.setdefault(call["id"], json.dumps(call["arguments"]))}}
"""),)),
    # Hunt round 31 (reader r178), design 16.1-72.
    Wrong(lab='16.1', name='tools of one name put in the body once',
          rule="Each tool goes out as {\"type\": \"function\", \"function\": spec}: one entry per tool of the list, two of one name too.",
          where='lab 16.1, Build section, item 3 ("Each tool goes out as", one entry for each tool of the list); hunt round 31, 16.1-72',
          names='none dropped for a name already sent',
          replace=r"""
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
""",
          by=r"""
            "tools": list({spec["name"]: {"type": "function", "function": spec}
                           for spec in tool_specs(tools)}.values()),
"""),
    # Hunt round 34 (reader r190), design 16.2-34.
    Wrong(lab='16.2', name='the same body object sent again for an equal request',
          rule="Each call makes a body of its own: once handed to the client it is the client's, and no later call's body is that one.",
          where='lab 16.1, Build section, item 3 ("no later call\'s body is that one"); lab 16.2, Build section, item 1 ("Once handed to the client, the body is the client\'s"); hunt round 34, 16.2-34',
          names='each call makes a body of its own',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            body = to_wire(system, messages, tools)
            last = getattr(self, "_last_body", None)
            body = last if last == body else body  # the same request again: reuse it
            self._last_body = body
            response = self.client.open(body)
"""),
    # Hunt round 34 (reader r190), design 16.2-59.
    Wrong(lab='16.2', name='one body dict cleared and refilled for each request',
          rule="Once handed to the client, the body is the client's: nothing is taken from it or added to it afterwards, by a later call either.",
          where='lab 16.2, Build section, item 1 ("nothing is taken from it or added to it afterwards"); hunt round 34, 16.2-59',
          names='nothing is taken from it or added to it afterwards',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            body = getattr(self, "_body", None)
            if body is None:
                body = self._body = {}
            body.clear()
            body.update(to_wire(system, messages, tools))  # one dict, refilled per request
            response = self.client.open(body)
"""),
    # Hunt round 34 (reader r190), design 16.2-45.
    Wrong(lab='16.2', name="the client's model added to the body",
          rule="The body is the one to_wire makes of the arguments, with neither model nor key: the client adds them.",
          where='lab 16.2, Build section, item 1 ("its body the one `to_wire` makes of the arguments"); "What a real server sends" ("the client adds them"); hunt round 34, 16.2-45',
          names="nothing of the client's",
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            body = to_wire(system, messages, tools)
            if getattr(self.client, "model", None):
                body["model"] = self.client.model
            response = self.client.open(body)
"""),
    # Hunt round 34 (reader r190), design 16.2-55.
    Wrong(lab='16.2', name='an empty finished reply asked for once more',
          rule='Otherwise exactly one request goes out: an empty reply is a reply, and no second request goes out.',
          where='lab 16.2, Build section, item 1 ("Otherwise exactly one request goes out"); hunt round 34, 16.2-55',
          names='no second request goes out',
          replace=r"""
            response.close()  # on every way out, a hard cancel's too
        return assemble(chunks)
""",
          by=r"""
            response.close()  # on every way out, a hard cancel's too
        reply = assemble(chunks)
        if (reply.get("error_message") == "The provider sent an empty reply"
                and not getattr(self, "_again", False)):
            self._again = True
            try:
                return await self.acomplete(system, messages, tools, signal)
            finally:
                self._again = False
        return reply
"""),
    # Hunt round 34 (reader r190), design 16.2-71.
    Wrong(lab='16.2', name="a failed request's text cut to a thousand characters",
          rule="`Provider request failed: ` is followed by the exception's text as it is, however long.",
          where='lab 16.2, Build section, item 1 ("`Provider request failed: ` followed by the exception\'s text"); hunt round 34, 16.2-71',
          names='a whole HTML page',
          replace=r"""
                return error_message(f"Provider request failed: {exc}")
""",
          by=r"""
                return error_message(f"Provider request failed: {str(exc)[:1000]}")
"""),
    # Hunt round 34 (reader r190), design 16.2-69.
    Wrong(lab='16.2', name="a line's line break taken off before decode_line",
          rule='Each line goes to decode_line as it was read, never tidied first, a line break at its end included.',
          where='lab 16.2, Build section, item 2 ("Each line goes to `decode_line` as it was read, never tidied first"); hunt round 34, 16.2-69',
          names='never tidied',
          replace=r"""
                    chunk = STREAM_DONE if line is None else decode_line(line)
""",
          by=r"""
                    chunk = STREAM_DONE if line is None else decode_line(line.rstrip("\r\n"))
"""),
    # Hunt round 34 (reader r190), design 16.2-70.
    Wrong(lab='16.2', name="a refused line's text cut to 300 characters",
          rule="A refused line's reply has that ValueError's text as its error_message, whole.",
          where='lab 16.2, Build section, item 2 ("whose `error_message` is that `ValueError`\'s text"); hunt round 34, 16.2-70',
          names='whole',
          replace=r"""
                    return error_message(str(exc))
""",
          by=r"""
                    return error_message(str(exc)[:300])
"""),
    # Hunt round 34 (reader r190), design 16.2-66.
    Wrong(lab='16.2', name='a line over 20,000 characters refused by the reader',
          rule="Each line goes to decode_line as it was read, however long: only decode_line's refusal is a refused line.",
          where='lab 16.2, Build section, item 2 ("Each line goes to `decode_line` as it was read", "only `decode_line`\'s refusal"); hunt round 34, 16.2-66',
          names='however long',
          replace=r"""
                line = response.read_line()
""",
          by=r"""
                line = response.read_line()
                if line is not None and len(line) > 20_000:  # no chunk is this long: broken
                    return error_message(f"not a stream line: {line[:80]!r}")
"""),
    # Hunt round 34 (reader r190), design 16.2-63.
    Wrong(lab='16.2', name='a thousand keep-alives in a row taken for the end',
          rule='Lines that carry nothing are skipped, however many come in a row, and the response is read to its end.',
          where='lab 16.2, Build section, item 2 ("lines that carry nothing are skipped", "The response is read to its end"); hunt round 34, 16.2-63',
          names='however many',
          replace=r"""
        chunks = []
        try:
""",
          by=r"""
        chunks, idle = [], 0
        try:
""",
          also=((r"""
                if chunk is not None:
                    chunks.append(chunk)
""", r"""
                if chunk is None:
                    idle += 1
                    if idle > 1000:  # a connection kept alive with nothing in it
                        return assemble(chunks)
                    continue
                idle = 0
                chunks.append(chunk)
"""),)),
    # Hunt round 34 (reader r190), design 16.2-64.
    Wrong(lab='16.2', name='the reading cut off after a million characters',
          rule='The response is read to its end, where read_line() gives None or a line decodes to STREAM_DONE: no count of characters ends it.',
          where='lab 16.2, Build section, item 2 ("The response is read to its end"); hunt round 34, 16.2-64',
          names='however long the reply',
          replace=r"""
        chunks = []
        try:
""",
          by=r"""
        chunks, size = [], 0
        try:
""",
          also=((r"""
                line = response.read_line()
""", r"""
                line = response.read_line()
                size += len(line or "")
                if size > 1_000_000:  # a reply this long is a runaway: stop reading
                    return assemble(chunks)
"""),)),
    # Hunt round 38 (reader r199), design 16.1-20: a write taken back before anyone reads it.
    Wrong(lab='16.1', name='a missing index filled in and deleted again',
          rule='assemble reads its chunks and changes none of them, not even for a moment: no index filled in and deleted again.',
          where='lab 16.1, Build section, item 2 ("`assemble` reads its chunks and changes none of them"); hunt round 38, 16.1-20',
          names='only to be read',
          replace=r'''
                index, call_id = piece.get("index") or 0, piece.get("id")
''',
          by=r'''
                had = "index" in piece
                piece.setdefault("index", None)  # for a moment, every fragment has one
                index, call_id = piece.get("index") or 0, piece.get("id")
                if not had:
                    del piece["index"]  # and put back as it came
'''),
    # Hunt round 38 (reader r199), designs 16.1-17, 16.1-49, 16.1-50: caps just past the sizes the
    # tests drew (calls, a call's fragments, chunks). The draws now go past 1,024 calls and
    # 10,000 chunks of one fragment each, so these four caps of BEYOND moved here with them.
    Wrong(lab='16.1', name='only the first 512 calls put in the reply',
          rule='A reply that arrived whole holds one toolCall per call, however many calls it has.',
          where='lab 16.1, Build section, item 2 ("then one `toolCall` per call"); hunt round 38, 16.1-17',
          names='every call is in the reply',
          replace=r'''
                    calls.append(call)
''',
          by=r'''
                    if len(calls) < 512:  # enough calls for any one reply
                        calls.append(call)
'''),
    Wrong(lab='16.1', name="only a call's first 4,096 fragments joined",
          rule="A call's arguments are all its fragments joined, however many there are.",
          where='lab 16.1, Build section, item 2 ("arguments parsed from all its fragments joined"); hunt round 38, 16.1-49',
          names='all its fragments',
          replace=r'''
                call["parts"].append("" if said is None else said)
''',
          by=r'''
                if len(call["parts"]) < 4_096:  # enough scraps for any one call
                    call["parts"].append("" if said is None else said)
'''),
    Wrong(lab='16.1', name='a long reply read only to its 10,000th chunk, finish and error included',
          rule='Every chunk is read, to the end, and what it carries counts, however many chunks a reply comes in.',
          where='lab 16.1, Build section, item 2: "every chunk is read, to the end, and what it carries counts"; hunt round 38, 16.1-50',
          names='every chunk is read',
          replace=r"""
    for chunk in chunks:
""",
          by=r"""
    for _, chunk in zip(range(10_000), chunks):  # enough chunks for any one reply
"""),
    # Hunt round 25 (reader r138), design 16.1-14: a cap one past the count the test draws.
    Wrong(lab='16.1', name='only the first 341 calls put in the reply',
          rule='A reply that arrived whole holds one toolCall per call, however many calls it has.',
          where='lab 16.1, Build section, item 2 ("then one `toolCall` per call"); hunt round 25, 16.1-14',
          names='every call is in the reply',
          replace=r'''
                    calls.append(call)
''',
          by=r'''
                    if len(calls) < 341:  # enough calls for any one reply
                        calls.append(call)
'''),
    # Hunt round 21 (reader r117), design 16.1-38: a cap past the count the test draws.
    Wrong(lab='16.1', name='only the first 400 calls put in the reply',
          rule='A reply that arrived whole holds one toolCall per call, however many calls it has.',
          where='lab 16.1, Build section, item 2 ("then one `toolCall` per call"); hunt round 21, 16.1-38',
          names='every call is in the reply',
          replace=r'''
                    calls.append(call)
''',
          by=r'''
                    if len(calls) < 400:  # enough calls for any one reply
                        calls.append(call)
'''),
    # Hunt round 21 (reader r117), design 16.1-39: a cap on the fragments of one call.
    Wrong(lab='16.1', name="only a call's first 1,000 fragments joined",
          rule="A call's arguments are all its fragments joined, however many there are.",
          where='lab 16.1, Build section, item 2 ("arguments parsed from all its fragments joined"); hunt round 21, 16.1-39',
          names='all its fragments',
          replace=r'''
                call["parts"].append("" if said is None else said)
''',
          by=r'''
                if len(call["parts"]) < 1_000:  # enough scraps for any one call
                    call["parts"].append("" if said is None else said)
'''),
    # Hunt round 28 (reader r157), design 16.1-42: a cap just past the chunks a test draws.
    Wrong(lab='16.1', name='a long reply read only to its 1,000th chunk',
          rule='Every chunk is read, to the end, and what it carries counts, however many chunks a reply comes in.',
          where='lab 16.1, Build section, item 2: "every chunk is read, to the end, and what it carries counts"; hunt round 28, 16.1-42',
          names='every chunk is read',
          replace=r"""
    for chunk in chunks:
""",
          by=r"""
    for number, chunk in enumerate(chunks):
        if number >= 1000:  # enough chunks for any one reply
            break
"""),
    # Hunt round 40 (reader r205), design 16.2-37: the body changed once sent, put back before
    # the reply returns; a client that looks at the body while the lines come sees it.
    Wrong(lab='16.2', name='the body changed while its stream is read and put back',
          rule="Once handed to the client, the body is the client's: nothing is taken from it or added to it afterwards, not even for a while.",
          where='lab 16.2, Build section, item 1: "Once handed to the client, the body is the client\'s: nothing is taken from it or added to it afterwards"; hunt round 40, 16.2-37',
          names='not even for a while',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            body = to_wire(system, messages, tools)
            response = self.client.open(body)
            body["stream"] = "sent"  # a note while it is read, put back at the end
""",
          also=((r"""
            response.close()  # on every way out, a hard cancel's too
""", r"""
            response.close()  # on every way out, a hard cancel's too
            body["stream"] = True
"""),)),
    # Hunt round 40 (reader r205), probe 16.2-50: a message appended to the caller's list and
    # popped again before the body is made; the list comes out as it went in, and only a list
    # that notes every change sees it. Lesson 16 now rules it wrong, as lessons 10 and 16.1 do.
    Wrong(lab='16.2', name='the messages handed over changed and put back',
          rule="The messages and tools handed to acomplete are the caller's: it reads them and changes none of them, not even for a moment.",
          where='lab 16.2, Build section, item 1: "The messages and tools handed to `acomplete` are the caller\'s: it reads them and changes none of them, not even for a moment"; hunt round 40, 16.2-50',
          names='not even for a moment',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            messages.append(user_message("(sending)"))  # a marker for a moment, taken off again
            messages.pop()
            response = self.client.open(to_wire(system, messages, tools))
"""),
    # After hunt round 40's probe 16.2-50: a mark written into each tool the caller handed over
    # while the body is made, and taken out again before it is sent.
    Wrong(lab='16.2', name='a mark written into the tools handed over and taken out again',
          rule="The messages and tools handed to acomplete are the caller's: it reads them and changes none of them, not even for a moment.",
          where='lab 16.2, Build section, item 1: "The messages and tools handed to `acomplete` are the caller\'s: it reads them and changes none of them, not even for a moment"; after hunt round 40, 16.2-50',
          names='not even for a moment',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            for one in tools:
                one["sending"] = True  # marked while its body is made, unmarked before it goes
            body = to_wire(system, messages, tools)
            for one in tools:
                del one["sending"]
            response = self.client.open(body)
"""),
    # Hunt round 40 (reader r205), design 16.2-68: a cap on the tools sent.
    Wrong(lab='16.2', name='only the first 16 tools sent',
          rule="Exactly one request goes out, its body the one to_wire makes of the arguments: every tool it was given, however many.",
          where='lab 16.2, Build section, item 1 ("its body the one `to_wire` makes of the arguments"); hunt round 40, 16.2-68',
          names='every tool, however many',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            response = self.client.open(to_wire(system, messages, list(tools)[:16]))  # enough
"""),
    # Hunt round 40 (reader r205), design 16.2-69: the system prompt tidied on the way out.
    Wrong(lab='16.2', name='the system prompt stripped before it is sent',
          rule="Exactly one request goes out, its body the one to_wire makes of the arguments: the system prompt as it was given, white space at its ends included.",
          where='lab 16.2, Build section, item 1 ("its body the one `to_wire` makes of the arguments"); hunt round 40, 16.2-69',
          names='the system prompt as it was given',
          replace=r"""
            response = self.client.open(to_wire(system, messages, tools))
""",
          by=r"""
            response = self.client.open(to_wire(system.strip(), messages, tools))
"""),
    # Hunt round 40 (reader r205), design 16.2-71: a signal's answer read as `is True`.
    Wrong(lab='16.2', name='a signal set only when is_cancelled() is True',
          rule="A signal's is_cancelled() is read as a condition, as any if reads one: an answer of 1 is set.",
          where='lab 16.2, Build section, item 1 ("When the signal is already set, nothing is sent"), and lesson 15, Build section, item 2 (an answer of 1 is set); hunt round 40, 16.2-71',
          names='read as a condition',
          replace=r"""
        if signal is not None and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
""",
          by=r"""
        if signal is not None and signal.is_cancelled() is True:
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
""",
          also=((r"""
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
""", r"""
                if signal is not None and signal.is_cancelled() is True:
                    return assemble(chunks, aborted=True)  # the words so far, and no call
"""),)),
    # Hunt round 40 (reader r205), design 16.2-60: every line put in one Unicode form.
    Wrong(lab='16.2', name='each line put in NFC before decode_line',
          rule="Each line goes to decode_line as it was read, never tidied first: not normalised either.",
          where='lab 16.2, Build section, item 2: "Each line goes to `decode_line` as it was read, never tidied first"; hunt round 40, 16.2-60',
          names='never tidied first',
          replace=r"""
                    chunk = STREAM_DONE if line is None else decode_line(line)
""",
          by=r"""
                    import unicodedata  # one spelling of every accent
                    chunk = STREAM_DONE if line is None else decode_line(
                        unicodedata.normalize("NFC", line))
"""),
    # Hunt round 40 (reader r205), design 16.2-61: every line made valid UTF-8.
    Wrong(lab='16.2', name='each line sent through UTF-8 with errors replaced',
          rule="Each line goes to decode_line as it was read, never tidied first: not re-encoded either.",
          where='lab 16.2, Build section, item 2: "Each line goes to `decode_line` as it was read, never tidied first"; hunt round 40, 16.2-61',
          names='never tidied first',
          replace=r"""
                    chunk = STREAM_DONE if line is None else decode_line(line)
""",
          by=r"""
                    chunk = STREAM_DONE if line is None else decode_line(
                        line.encode("utf-8", "replace").decode("utf-8"))  # valid text only
"""),
    # Hunt round 40 (reader r205), design 16.2-65: the finished reply's words tidied.
    Wrong(lab='16.2', name="the reply's words stripped of trailing spaces",
          rule="The reply is what assemble makes of the chunks: its words exactly as they came, white space at their ends included.",
          where='lab 16.2, Build section, item 2: "the reply is then what `assemble` makes of the chunks"; lab 16.1, Build section, item 2 ("one text block"); hunt round 40, 16.2-65',
          names='nothing normalised, re-encoded or stripped',
          replace=r"""
        return assemble(chunks)
""",
          by=r"""
        reply = assemble(chunks)
        for block in reply["content"]:
            if block["type"] == "text":
                block["text"] = block["text"].rstrip(" ")  # a trailing space shows nothing
        return reply
"""),
    # Hunt round 40 (reader r205), design 16.2-43 and probe 16.2-79 (a cap of 100): caps on
    # the chunks read, past the tens of lines the tests drew. The draw now goes past 1,024.
    Wrong(lab='16.2', name='the reading cut off after 400 chunks',
          rule='The response is read to its end, where read_line() gives None or a line decodes to STREAM_DONE: no count of chunks ends it.',
          where='lab 16.2, Build section, item 2 ("The response is read to its end"); hunt round 40, 16.2-43',
          names='no count of chunks ends it',
          replace=r"""
                if chunk is not None:
                    chunks.append(chunk)
""",
          by=r"""
                if chunk is not None:
                    chunks.append(chunk)
                    if len(chunks) >= 400:  # enough of any one reply
                        break
"""),
    # Hunt round 27 (reader r150), design 16.2-40, beyond reach until hunt round 40 drew past
    # 1,024 chunks.
    Wrong(lab='16.2', name='the reading cut off after 1,000 chunks',
          rule='The response is read to its end, where read_line() gives None or a line decodes to STREAM_DONE: no count of chunks ends it.',
          where='lab 16.2, Build section, item 2 ("The response is read to its end"); hunt round 27, 16.2-40; hunt round 40',
          names='no count of chunks ends it',
          replace=r"""
                if chunk is not None:
                    chunks.append(chunk)
""",
          by=r"""
                if chunk is not None:
                    chunks.append(chunk)
                    if len(chunks) >= 1_000:  # enough of any one reply
                        break
"""),
    # Hunt round 40 (reader r205), design 16.2-70: long lines skipped unread.
    Wrong(lab='16.2', name='a line over 200,000 characters skipped',
          rule="Each line goes to decode_line as it was read, however long: none is skipped for its length.",
          where='lab 16.2, Build section, item 2 ("Each line goes to `decode_line` as it was read"); hunt round 40, 16.2-70',
          names='however long',
          replace=r"""
                line = response.read_line()
""",
          by=r"""
                line = response.read_line()
                if line is not None and len(line) > 200_000:  # no chunk is this long
                    continue
"""),
]

# Designs the lesson allows: each keeps its lab's rules another way, and its lab's tests must
# pass it (tests/authoring/test_allowed_designs.py).
ALLOWED = [
    # Hunt round 40 (reader r205), probe 16.2-75.
    Wrong(lab='16.2', name='the response closed at its end and again on the way out',
          rule="Build item 2 says the response is closed on every way out, and nothing of how "
               "often: closing it where read_line() gives None and again in the finally still "
               "closes it on every way out, and a second close() lets go of nothing more (as "
               "\"the response closed for a cancel and again unless it says it is closed\"; "
               "hunt round 40, probe 16.2-75).",
          where="hunt round 40", names="",
          replace=r"""
                    chunk = STREAM_DONE if line is None else decode_line(line)
""",
          by=r"""
                    if line is None:
                        response.close()  # the end: let the connection go at once
                    chunk = STREAM_DONE if line is None else decode_line(line)
"""),
    # Hunt round 38 (reader r199), probe 16.1-33, ruled at the merge.
    Wrong(lab='16.1', name='a content that is not text made text with str()',
          rule='Build item 2 says a delta\'s content that is neither text nor null is a shape no '
               'server in the table sends, and what the student makes of it is theirs. The '
               'reference meets a TypeError joining it; this file writes it as str() gives it. '
               'Text and null are read as the reference reads them.',
          where='hunt round 38, probe 16.1-33 (r199), ruled at the merge; Build section, item 2: '
                '"a delta\'s `content` that is neither text nor `null` (a list of parts, say) is a '
                'shape no server in the table sends"',
          names='',
          replace=r'''
            words.append(delta.get("content") or "")  # a delta may hold only a role, or None
''',
          by=r'''
            spoken = delta.get("content") or ""  # a delta may hold only a role, or None
            words.append(spoken if isinstance(spoken, str) else str(spoken))  # parts, as text
'''),
    # Hunt round 31 (reader r178), design 16.1-50, ruled two stops later: the reader's design was
    # the reference's own sharing; the reader's passing file copied, which this entry holds.
    Wrong(lab='16.1', name='each spec deep-copied into the body, its parameters included',
          rule='Build item 3 says whether a spec in a body shares its parameters with '
               'the tool, or is a copy, is the student\'s. The reference shares them; a body '
               'whose specs are deep copies holds the same keys and values.',
          where='hunt round 31, design 16.1-50; Build section, item 3: "Whether a spec in a body '
                'shares its parameters with the tool, or is a copy, is yours"',
          names='',
          replace=r'''
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
''',
          by=r'''
            "tools": [{"type": "function", "function": __import__("copy").deepcopy(spec)}
                      for spec in tool_specs(tools)],
'''),
    # Hunt round 31 (reader r178), probe 16.1-65, ruled two stops later.
    Wrong(lab='16.1', name="an error's message that is not a string written as JSON",
          rule='Build item 2\'s table says an error chunk\'s ending holds its message as text, and '
               'which text, for a message that is not a string, is the student\'s. A message '
               'that is a string, and an error with no message, are written as the reference '
               'writes them.',
          where='hunt round 31, probe 16.1-65; Build section, item 2: "which text, for a message '
                'that is not a string, is yours"', names='',
          replace=r'''
            failure = failure or str(error if said is None else said)
''',
          by=r'''
            if said is not None and not isinstance(said, str):
                said = json.dumps(said)  # a message that is not text, written as JSON
            failure = failure or str(error if said is None else said)
'''),
    Wrong(
        lab="16.2", name="a line of only whitespace skipped before decode_line",
        rule="The page has every line go to decode_line \"as it was read, never tidied first\", "
             "so that what decode_line judges is the line itself; and decode_line's own rule "
             "(lab 16.1, Build item 1) gives None for a line that carries nothing, a blank line "
             "among them. A line that is only spaces, tabs or line breaks starts with no field, "
             "so skipping it first gives exactly what decode_line would have given, and no line "
             "that carries something is tidied or judged by the reader (hunt round 34, probe "
             "16.2-11).",
        where="hunt round 34", names="",
        replace='''                    chunk = STREAM_DONE if line is None else decode_line(line)''',
        by='''                    chunk = (STREAM_DONE if line is None else
                             None if not line.strip() else decode_line(line))'''),
    Wrong(
        lab="16.2", name="ready() asked once more after [DONE]",
        rule="The page says \"Nothing after that end is read\"; ready() only says whether a line "
             "can be had and reads none (round 17 ruled so for \"ready() asked before the signal "
             "on each lap\"), so one more ready() after the end reads nothing after it, and the "
             "response is still closed on the way out (hunt round 34, probe 16.2-52).",
        where="hunt round 34", names="",
        replace='''                if chunk == STREAM_DONE:
                    break''',
        by='''                if chunk == STREAM_DONE:
                    response.ready()  # let the connection notice we are done; reads no line
                    break'''),
    # Hunt round 34 (reader r190), probe 16.2-65, ruled at the merge of round 35.
    Wrong(
        lab="16.2", name="an exception from close() swallowed",
        rule="Build item 2 says the response is closed on every way out and that what to do "
             "when close() itself raises, let it go up or keep the reply already had, is the "
             "student's; a close wrapped in try/except Exception still closes on every way "
             "out, and what ready() and read_line() raise still goes up (hunt round 34, probe "
             "16.2-65).",
        where='hunt round 34, probe 16.2-65; Build section, item 2: "what you do when `close()` '
              'itself raises, let it go up or keep the reply you had, is yours"', names="",
        replace='''            response.close()  # on every way out, a hard cancel's too''',
        by='''            try:
                response.close()  # on every way out, a hard cancel's too
            except Exception:
                pass  # a close that fails loses nothing the reply holds'''),
    Wrong(
        lab="16.2", name="the last reply's chunks kept on the model as well",
        rule="Build item 2 leaves how the reply is read to the reader (\"how it reads is yours "
             "to design\"); a model that also keeps the last reply's chunks on itself, while "
             "each call reads into a list of its own, gives every call its own words, two "
             "calls at once included, and nothing a caller sees differs (hunt round 30, probe "
             "16.2-26). Keeping the response or the words between calls is another design, "
             "caught: \"the response kept on the model\", \"a stopped reply's words carried "
             "into the next\".",
        where="hunt round 30", names="",
        replace='''        chunks = []''',
        by='''        self.chunks = chunks = []  # the last reply's chunks, for a look afterwards'''),
    Wrong(
        lab="16.2", name="a turn yielded before the signal is first asked",
        rule="Build item 1 says what happens when the signal is already set, and the page "
             "counts Stop's budget in turns (\"Stop must land within two turns while the "
             "provider is talking and within five while it is silent\"); it does not say "
             "acomplete may not yield before it looks. A turn given to the loop first only "
             "moves the look one turn later: a Stop pressed before acomplete is called, or "
             "during that turn, is still heard before anything is sent (hunt round 30, probe 16.2-39).",
        where="hunt round 30", names="",
        replace='''        if signal is not None and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for''',
        by='''        await asyncio.sleep(0)  # a turn for the loop before the request goes out
        if signal is not None and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for'''),
    Wrong(
        lab="16.1", name="an empty id taken for an id",
        rule="Build item 2: an id that is empty text is a shape no server in the lesson's table "
             "sends, and what a reader makes of one is theirs. The reference reads it as no id; "
             "this design reads it as an id, so a later fragment that brings one begins a new "
             "call (hunt round 28, probe 16.1-49).",
        where="hunt round 28", names="",
        replace='''                if call is None or (call_id and call["id"] and call_id != call["id"]):''',
        by='''                if call is None or (call_id is not None and call["id"] is not None
                                    and call_id != call["id"]):''',
        also=(('''                call["id"] = call_id or call["id"]  # only the first fragment has it''',
               '''                call["id"] = call["id"] if call_id is None else call_id'''),)),
    Wrong(
        lab="16.1", name="an index sent as text read as a number",
        rule="Build item 2: an index sent as text is a shape no server in the lesson's table "
             "sends, and what a reader makes of one is theirs; this design reads it as the "
             "number it spells (hunt round 28, probe 16.1-50).",
        where="hunt round 28", names="",
        replace='''                index, call_id = piece.get("index") or 0, piece.get("id")''',
        by='''                index, call_id = int(piece.get("index") or 0), piece.get("id")'''),
    Wrong(
        lab="16.1", name="a data payload holding NaN or Infinity refused",
        rule="A data line whose payload is not a JSON object raises ValueError; the page says "
             "NaN and Infinity are not JSON, though Python's json.loads reads them, and says "
             "so of arguments; a reader who holds a data payload to the same JSON refuses the "
             "line, the reference reads it as Python does, and no server the lesson names "
             "sends one (hunt round 25, probe 16.1-07).",
        where="hunt round 25", names="",
        replace='''        chunk = json.loads(payload)''',
        by='''        chunk = json.loads(payload)
        json.dumps(chunk, allow_nan=False)  # NaN, Infinity: Python's, not JSON's'''),
    Wrong(
        lab="16.1", name="an empty text beside an object failing the call",
        rule="Arguments are all a call's fragments joined, or, when they came as an object, "
             "that object; whether an empty text beside the object is text beside it (the "
             "call broken) or no text at all (the reference's: the object taken) the page "
             "leaves open, and no server the lesson names sends one (hunt round 18, probe "
             "16.1-40).",
        where="hunt round 18", names="",
        replace='''                call["parts"].append("" if said is None else said)''',
        by='''                if said is not None:  # an empty text is text: beside an object it breaks the call
                    kinds = call.setdefault("kinds", set())  # text, an object, or both so far
                    kinds.add(isinstance(said, str))
                    call["parts"] += [said, {}] if len(kinds) > 1 else [said]'''),
    Wrong(
        lab="16.1", name="a message of a role the record never holds left out of the body",
        rule="The course's record holds three roles, user, assistant and toolResult (lab.validate "
             "calls any other unknown); what to_wire does with a message the format refuses is "
             "outside what the page asks of it, and every message of a record it accepts still "
             "goes out (hunt round 15, probe 16.1-25).",
        where="hunt round 15", names="",
        replace='''        else:
            wire.append({"role": "tool", "tool_call_id": message["tool_call_id"],''',
        by='''        elif message["role"] == "toolResult":
            wire.append({"role": "tool", "tool_call_id": message["tool_call_id"],'''),
    Wrong(
        lab="16.1", name="a call's first name kept when a later fragment names it again",
        rule="Each call has the id and name from the one fragment that carries them; a stream "
             "in which two fragments of one call name it differently is not one the page "
             "describes, and on the real wire the first fragment carries the name, so keeping "
             "the first is as good a reading as the reference's last (hunt round 15, probe "
             "16.1-30).",
        where="hunt round 15", names="",
        replace='''                call["name"] = function.get("name") or call["name"]''',
        by='''                call["name"] = call["name"] or function.get("name")'''),
    Wrong(
        lab="16.1", name="decode_line dropping every space after data:",
        rule="The page asks for a data line read with or without a space after the colon and "
             "says no more about how many; the reference strips every space around the "
             "payload, and a JSON payload parses with or without them (hunt round 10, 16.1-01).",
        where="issue 38", names="",
        replace='''    payload = line[len("data:"):].strip()''',
        by='''    payload = line[len("data:"):].lstrip(" ")'''),
    Wrong(
        lab="16.1", name="a call's arguments sent as an object copied into the reply",
        rule="assemble reads its chunks and changes none of them; whether the reply's arguments "
             "are the object a server sent or a copy of it the page leaves open, and a copy "
             "keeps the chunks as they came whatever a caller later does with the reply (hunt "
             "round 12, probe 16.1-32).",
        where="hunt round 12", names="",
        replace='''            arguments = objects[0]  # sent already parsed: whole, and judged below like any''',
        by='''            arguments = json.loads(json.dumps(objects[0]))  # a copy: the chunk stays as it came'''),
    Wrong(
        lab="16.1", name="assemble skipping a marker or None handed to it",
        rule="assemble is handed one reply's decoded chunks; what it does with a STREAM_DONE or "
             "a None that a caller failed to leave out is outside what the page asks of it, and "
             "skipping them loses nothing a chunk said (hunt round 10, probe 16.1-85).",
        where="issue 38", names="",
        replace='''    for chunk in chunks:
        if chunk.get("error") is not None:  # the key, whatever it holds; but null is left out''',
        by='''    for chunk in chunks:
        if not isinstance(chunk, dict):
            continue  # a marker or a line that carried nothing, handed over by mistake
        if chunk.get("error") is not None:  # the key, whatever it holds; but null is left out'''),
    Wrong(
        lab="16.1", name="decode_line dropping exactly one space after data:, as SSE says",
        rule="The space after `data:` is optional; the SSE rule drops one if present, and a "
             "JSON payload parses with or without more.",
        where="issue 23", names="",
        replace='''    payload = line[len("data:"):].strip()''',
        by='''    payload = line[len("data:"):]
    payload = payload[1:] if payload.startswith(" ") else payload'''),
    Wrong(
        lab="16.2", name="a reader that yields a turn on every lap, line or no line",
        rule="Polling may give the loop a turn on each lap; lines still arrive one a turn, so "
             "[DONE] and Stop are heard as soon.",
        where="issue 23", names="",
        replace='''                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue''',
        by='''                await asyncio.sleep(0)  # a turn on every lap
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)
                if not response.ready():
                    continue'''),
    Wrong(
        lab="16.1", name="an error line's text kept as it is, past one space",
        rule="An `error:` line's payload is parsed when it is JSON and is the text when not; "
             "the gap says the text as it is, the reference strips its ends. Either keeps what "
             "the server said (hunt round 5, 16.1-14), so the tests hold neither.",
        where="hunt round 5", names="",
        replace='''        said = line[len("error:"):].strip()''',
        by='''        said = line[len("error:"):]
        said = said[1:] if said.startswith(" ") else said  # the text as it is'''),
    Wrong(
        lab="16.1", name="only the first choice of a chunk read, none when it has none",
        rule="The lesson's \"never choices[0]\" is about a chunk with no choices, which this "
             "guards. The request asks for one completion, so a chunk carries at most one "
             "choice; a second would be another completion, not more of this one (hunt round "
             "5, 16.1-21).",
        where="hunt round 5", names="",
        replace='''        for choice in chunk.get("choices") or ():''',
        by='''        for choice in (chunk.get("choices") or [])[:1]:  # one completion was asked for'''),
    Wrong(
        lab="16.1", name="the tools key left out when there are no tools",
        rule="The lesson names a tools list sent even when it is empty as a weakness, since "
             "some providers refuse it; Tau leaves the key out then (src/tau_ai/"
             "openai_compatible.py, `if tools:`), and the model is offered no tool either way "
             "(hunt round 5, 16.1-16).",
        where="hunt round 5", names="",
        replace='''    return {"messages": wire,
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
            "stream": True}''',
        by='''    body = {"messages": wire, "stream": True}
    if tools:  # an empty list is refused by some providers
        body["tools"] = [{"type": "function", "function": spec} for spec in tool_specs(tools)]
    return body'''),
    # Hunt round 38 (reader r199), design 16.1-37.
    Wrong(
        lab="16.1", name="the body's keys written in another order, stream first",
        rule="Build item 3 gives the body as `{\"messages\": [...], \"tools\": [...], "
             "\"stream\": True}`: what it holds, named key by key, and no sentence of the page "
             "makes the keys' order a rule. A JSON object's members have no order (RFC 8259, "
             "section 4), a server reads them by name, and the allowed \"the tools key left "
             "out when there are no tools\" writes messages, stream, tools already "
             "(hunt round 38, 16.1-37).",
        where="hunt round 38", names="",
        replace='''    return {"messages": wire,
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
            "stream": True}''',
        by='''    return {"stream": True, "messages": wire,
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)]}'''),
    Wrong(
        lab="16.2", name="the tools key left out of the request when there are no tools",
        rule="As lab 16.1 allows of to_wire (the tools key left out when there are no tools): "
             "some providers refuse an empty list, and the model is offered no tool either way "
             "(hunt round 8, 16.2-12).",
        where="hunt round 8", names="",
        replace='''            response = self.client.open(to_wire(system, messages, tools))''',
        by='''            body = to_wire(system, messages, tools)
            if not body["tools"]:
                del body["tools"]  # some providers refuse an empty list
            response = self.client.open(body)'''),
    Wrong(
        lab="16.2", name="a Stop that comes with the last line aborting the reply",
        rule="A Stop set while [DONE] is read races the end of the stream: the rule is that no "
             "later line is read, and both answers read none. The reply had arrived whole, and "
             "the user asked to stop, so giving it as aborted (its calls not run) or as "
             "finished is the user's race to lose either way (hunt round 8, 16.2-24).",
        where="hunt round 8", names="",
        replace='''            response.close()  # on every way out, a hard cancel's too
        return assemble(chunks)''',
        by='''            response.close()  # on every way out, a hard cancel's too
        if signal is not None and signal.is_cancelled():
            return assemble(chunks, aborted=True)  # Stop came with the last line
        return assemble(chunks)'''),
    Wrong(
        lab="16.2", name="a 429 told by its status read as text",
        rule="The page tells a 429 by the exception's status alone, read with getattr, and never "
             "by its words; it does not say the status is a number. A status written as the "
             "text \"429\" is the same HTTP status, still read from the status alone (hunt round "
             "12, 16.2-06).",
        where="hunt round 12", names="",
        replace='''            if getattr(exc, "status", None) != 429:''',
        by='''            if str(getattr(exc, "status", None)) != "429":  # 429 or "429": the same status'''),
    Wrong(
        lab="16.2", name="a Retry-After that is no count of seconds read as later",
        rule="The page says .retry_after is the seconds a Retry-After header asked for, N "
             "being that number, 0 included, and later when it is None; what a value that is "
             "no count of seconds means (a text, an HTTP date, a negative number, a bool) it "
             "leaves open, and \"later\" for one claims no wait the server did not ask for, "
             "while every number of seconds is still written as it came (hunt round 17, probe "
             "16.2-82).",
        where="hunt round 17", names="",
        replace='''            later = "later" if wait is None else f"in {wait} s"''',
        by='''            seconds = isinstance(wait, (int, float)) and not isinstance(wait, bool)
            later = f"in {wait} s" if seconds and wait >= 0 else "later"'''),
    Wrong(
        lab="16.2", name="ready() asked before the signal on each lap",
        rule="The signal is looked at on every lap before the next line is read; ready() only "
             "says whether a line can be had and reads none, so asking it first in the lap "
             "still reads no line after a Stop, and the Stop lands in the same turn (hunt "
             "round 17, probe 16.2-83).",
        where="hunt round 17", names="",
        replace='''                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
                if not response.ready():''',
        by='''                ready = response.ready()  # a look at the stream reads no line
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
                if not ready:'''),
    Wrong(
        lab="16.2", name="a turn yielded after each line read",
        rule="As the reader that yields a turn on every lap: a turn given to the loop after "
             "each line delays no Stop, since the signal is still looked at before the next "
             "line, and a stream read a turn a line ends as soon as one whose lines arrive a "
             "turn apart (hunt round 17, probe 16.2-84).",
        where="hunt round 17", names="",
        replace='''                if chunk is not None:
                    chunks.append(chunk)''',
        by='''                if chunk is not None:
                    chunks.append(chunk)
                await asyncio.sleep(0)  # a turn for the loop after each line'''),
    Wrong(
        lab="16.2", name="the aborted reply before sending written with error_message",
        rule="When the signal is already set the reply is the aborted one with no words; "
             "error_message(ABORTED, stop_reason=\"aborted\") is that same message, key for "
             "key, as assemble([], aborted=True) makes it (hunt round 20, probe 16.2-43).",
        where="hunt round 20", names="",
        replace='''            return assemble([], aborted=True)  # nothing sent, so nothing to pay for''',
        by='''            return error_message(ABORTED, stop_reason="aborted")  # nothing sent: no words'''),
    Wrong(
        lab="16.2", name="a hard cancel caught and raised again before the close",
        rule="The response is closed on every way out, a hard cancel's too; an except that "
             "raises the CancelledError again changes no way out, and the finally still "
             "closes the response (hunt round 20, probe 16.2-10).",
        where="hunt round 20", names="",
        replace='''        finally:
            response.close()  # on every way out, a hard cancel's too''',
        by='''        except asyncio.CancelledError:
            raise  # a hard cancel goes up as it came
        finally:
            response.close()  # on every way out, a hard cancel's too'''),
    Wrong(
        lab="16.2", name="the response closed for a cancel and again unless it says it is closed",
        rule="The response is closed on every way out, a hard cancel's too; closing it in an "
             "except for the cancel and again in the finally unless it says it is closed "
             "still closes it on every way out, and a second close() lets go of nothing more "
             "(hunt round 20, probe 16.2-45).",
        where="hunt round 20", names="",
        replace='''        finally:
            response.close()  # on every way out, a hard cancel's too''',
        by='''        except asyncio.CancelledError:
            response.close()  # a hard cancel: let the connection go at once
            raise
        finally:
            if not getattr(response, "closed", False):
                response.close()  # on every other way out'''),
    Wrong(
        lab="16.2", name="[DONE] told by identity with STREAM_DONE",
        rule="The page ends the reading where a line decodes to STREAM_DONE; decode_line, the "
             "student's own from lab 16.1, hands back that constant itself, so `is` and `==` "
             "find the same end (hunt round 23, probe 16.2-46).",
        where="hunt round 23", names="",
        replace='''                if chunk == STREAM_DONE:''',
        by='''                if chunk is STREAM_DONE:  # decode_line hands back the marker itself'''),
]

# Designs no check of the lab can afford to tell apart (tools/wrong_designs.py's Beyond).
BEYOND = [
    # Hunt round 30 (reader r169), design 16.2-45: a cap just past the record a test draws.
    Beyond(lab='16.2', name="only the record's last 5,000 messages sent",
           rule='Exactly one request goes out, its body the one to_wire makes of the arguments: the whole record, never its tail, however long.',
           where='lab 16.2, Build section, item 1 ("its body the one `to_wire` makes of the arguments"); hunt round 30, 16.2-45',
           names='the whole record, never its tail',
           reach="test_a_set_signal_sends_nothing draws a record of 1,201 to 1,601 messages, "
                 "past the catalogue's caught cap of 1,100 (\"only the record's last 1,100 "
                 "messages sent\"); a record of 5,201 messages sent through StreamingModel on "
                 "lab.FakeProvider measured 5.2 ms of processor time on the reference, and a cap "
                 "of 50,000 would need ten times that again: any count of messages past the "
                 "drawn record gets through, as 16.1's \"only the first 1,300 messages put in "
                 "the body\" does for to_wire",
           replace=r'''
            response = self.client.open(to_wire(system, messages, tools))
''',
           by=r'''
            response = self.client.open(to_wire(system, list(messages)[-5_000:], tools))
''',
           turns=10_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "16.2"


@lab_test("A record of 6,001 messages goes out whole: never its tail.")
async def test_a_record_of_six_thousand_messages(t):
    record = [harness.user_message(f"Question {n // 2 + 1}?") if n % 2 == 0 else
              lab.reply(f"Answer {n // 2 + 1}.") for n in range(6_001)]
    provider = lab.FakeProvider([lab.say("Done.")])
    reply = await harness.StreamingModel(provider).acomplete("You help.", record)
    t.expect([harness.text_of(reply), len(provider.requests),
              provider.requests == [harness.to_wire("You help.", record, ())]],
             why="A record of 6,001 messages. Items: the reply's words, the requests sent, "
                 "whether the request is to_wire of the arguments. Exactly one request goes "
                 "out, its body the one to_wire makes of the arguments: the whole record, never "
                 "its tail, however long (StreamingModel, lesson 16).")
'''),
    # Hunt round 17 (reader r93), designs 16.2-20 and 16.2-44 (the same count, an error reply).
    Beyond(lab='16.2', name='the stream taken for ended after 9,500 quiet turns',
           rule='The response is read to its end or a Stop, however long the provider is quiet: '
                'no count of quiet looks ends it, however large.',
           where='lab 16.2, Build section, item 2 ("The response is read to its end"); hunt '
                 'round 17, 16.2-20 and 16.2-44',
           names='never a count of quiet looks',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), and "
                 "test_a_quiet_provider_is_waited_for waits 9,000; this reader takes the stream "
                 "for ended after 9,500 quiet turns in a row, and a wait just past that is the "
                 "count grown just past the design's threshold, with no room left in the budget",
           replace=r'''
        chunks = []
        try:
            while True:
''',
           by=r'''
        chunks, quiet = [], 0  # a provider silent this long is gone
        try:
            while True:
''',
           also=((r'''
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                line = response.read_line()
''', r'''
                if not response.ready():
                    quiet += 1
                    if quiet > 9_500:
                        break
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                quiet = 0
                line = response.read_line()
'''),),
           turns=20_000, seconds=20.0,
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "16.2"


def text(words):
    return 'data: ' + json.dumps({"choices": [{"index": 0, "delta": {"content": words}}]})


@lab_test("A provider that says nothing for 12,000 loop turns in the middle of a reply is waited "
          "for: the reply is its whole answer.")
async def test_a_provider_quiet_for_twelve_thousand_turns(t):
    provider = lab.FakeProvider([[text("Let me think"), lab.pause(12_000), text(" it over."),
                                  'data: {"choices": [{"index": 0, "delta": {}, '
                                  '"finish_reason": "stop"}]}', "data: [DONE]"]])
    reply = await harness.StreamingModel(provider).acomplete(
        "You help.", [harness.user_message("Plan?")])
    t.expect([reply["stop_reason"], harness.text_of(reply), provider.open_responses()],
             why="The provider sent a line, said nothing for 12,000 loop turns, then finished: "
                 "only a Stop or the end of the stream ends the reading, never a count of "
                 "quiet looks, however large. Items: the reply's stop_reason, its words, the "
                 "responses left open (StreamingModel, lesson 16).")
'''),
    # Hunt round 27 (reader r150), design 16.2-43: ten turns past the test's silence.
    Beyond(lab='16.2', name='the stream taken for ended after 9,010 quiet turns',
           rule='The response is read to its end or a Stop, however long the provider is quiet: '
                'no count of quiet looks ends it, however large.',
           where='lab 16.2, Build section, item 2 ("The response is read to its end"); hunt '
                 'round 27, 16.2-43',
           names='never a count of quiet looks',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), and "
                 "test_a_quiet_provider_is_waited_for waits 9,000; this reader takes the stream "
                 "for ended after 9,010 quiet turns in a row, ten past the test's silence, and a "
                 "wait past that is the count grown just past the design's threshold: any "
                 "silence a test tries has such a reader ten turns past it",
           replace=r'''
        chunks = []
        try:
            while True:
''',
           by=r'''
        chunks, quiet = [], 0  # a provider silent this long is gone
        try:
            while True:
''',
           also=((r'''
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                line = response.read_line()
''', r'''
                if not response.ready():
                    quiet += 1
                    if quiet > 9_010:
                        break
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                quiet = 0
                line = response.read_line()
'''),),
           turns=20_000, seconds=20.0,
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "16.2"


def text(words):
    return 'data: ' + json.dumps({"choices": [{"index": 0, "delta": {"content": words}}]})


@lab_test("A provider that says nothing for 12,000 loop turns in the middle of a reply is waited "
          "for: the reply is its whole answer.")
async def test_a_provider_quiet_for_twelve_thousand_turns(t):
    provider = lab.FakeProvider([[text("Let me think"), lab.pause(12_000), text(" it over."),
                                  'data: {"choices": [{"index": 0, "delta": {}, '
                                  '"finish_reason": "stop"}]}', "data: [DONE]"]])
    reply = await harness.StreamingModel(provider).acomplete(
        "You help.", [harness.user_message("Plan?")])
    t.expect([reply["stop_reason"], harness.text_of(reply), provider.open_responses()],
             why="The provider sent a line, said nothing for 12,000 loop turns, then finished: "
                 "only a Stop or the end of the stream ends the reading, never a count of "
                 "quiet looks, however large. Items: the reply's stop_reason, its words, the "
                 "responses left open (StreamingModel, lesson 16).")
'''),
    # Hunt round 17 (reader r93), design 16.2-21.
    Beyond(lab='16.2', name='the reading cut off after 2,000 lines',
           rule='The response is read to its end, where read_line() gives None or a line '
                'decodes to STREAM_DONE: no count of lines ends it, however large.',
           where='lab 16.2, Build section, item 2 ("The response is read to its end"); hunt '
                 'round 17, 16.2-21',
           names='never a count of lines',
           reach="the tests' streams are tens of lines; a stream past 2,000 lines costs about "
                 "5 ms of processor time on the reference (2,200 lines all ready at once "
                 "measured 5.3 ms), half of what a new case may add, and a cap of 5,000 lines "
                 "would need twice that again",
           replace=r'''
        chunks = []
        try:
''',
           by=r'''
        chunks, lines = [], 0
        try:
''',
           also=((r'''
                line = response.read_line()
''', r'''
                line = response.read_line()
                lines += 1
                if lines > 2_000:  # enough of any one reply
                    break
'''),),
           turns=10_000, seconds=20.0,
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "16.2"


def text(words):
    return 'data: ' + json.dumps({"choices": [{"index": 0, "delta": {"content": words}}]})


@lab_test("A reply of 3,000 short lines is read to its [DONE]: the reply is its whole answer.")
async def test_a_reply_of_three_thousand_lines(t):
    provider = lab.FakeProvider([[text("ab")] * 3_000 + [
        'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}',
        "data: [DONE]"]])
    reply = await harness.StreamingModel(provider).acomplete(
        "You help.", [harness.user_message("Go on.")])
    t.expect([reply["stop_reason"], len(harness.text_of(reply)), provider.open_responses()],
             why="A reply of 3,000 lines of two characters, then the finish and [DONE]. Items: "
                 "the reply's stop_reason, the length of its words, the responses left open. "
                 "The response is read to its end, never a count of lines, however large "
                 "(StreamingModel, lesson 16).")
'''),
    # Hunt round 23 (reader r130), design 16.2-32.
    Beyond(lab='16.2', name='a reply past 5,000 lines refused as too long',
           rule='The response is read to its end, where read_line() gives None or a line '
                'decodes to STREAM_DONE: no count of lines ends it, however large.',
           where='lab 16.2, Build section, item 2 ("The response is read to its end"); hunt '
                 'round 23, 16.2-32',
           names='never a count of lines',
           reach="the tests' streams are tens of lines; a line costs the reference about 2.5 µs "
                 "of processor time (2,200 lines all ready at once measured 5.3 ms), so a stream "
                 "past 5,000 lines adds some 13 ms to a run of the lab's tests, more than the "
                 "10 ms a new case may add; this reader gives an error reply at line 5,001",
           replace=r'''
        chunks = []
        try:
''',
           by=r'''
        chunks, lines = [], 0
        try:
''',
           also=((r'''
                line = response.read_line()
''', r'''
                line = response.read_line()
                lines += 1
                if lines > 5_000:  # no honest reply is this long
                    return error_message("The reply was too long to read")
'''),),
           turns=10_000, seconds=20.0,
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "16.2"


def text(words):
    return 'data: ' + json.dumps({"choices": [{"index": 0, "delta": {"content": words}}]})


@lab_test("A reply of 6,000 short lines is read to its [DONE]: the reply is its whole "
          "answer.")
async def test_a_reply_of_six_thousand_lines(t):
    provider = lab.FakeProvider([[text("ab")] * 6_000 + [
        'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}',
        "data: [DONE]"]])
    reply = await harness.StreamingModel(provider).acomplete(
        "You help.", [harness.user_message("Go on.")])
    t.expect([reply["stop_reason"], len(harness.text_of(reply)), provider.open_responses()],
             why="A reply of 6,000 lines of two characters, then the finish and [DONE]. Items: "
                 "the reply's stop_reason, the length of its words, the responses left open. "
                 "The response is read to its end, never a count of lines, however large "
                 "(StreamingModel, lesson 16).")
'''),
    # Hunt round 17 (reader r93), design 16.2-37.
    Beyond(lab='16.2', name='the signal looked at only in the first 1,000 lines',
           rule='The signal is looked at first on every lap of the reading, however many lines '
                'have been read: a Stop ends the reply and no later line is read.',
           where='lab 16.2, Build section, item 2 ("A Stop ends the reply as the aborted one"); '
                 'hunt round 17, 16.2-37',
           names='however many lines',
           reach="the tests' streams are tens of lines; a Stop past line 1,000 needs a stream "
                 "of more than 1,000 lines, about 2.5 ms of processor time on the reference per "
                 "thousand lines, and a reader that stops looking after 5,000 would need five "
                 "times that",
           replace=r'''
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
''',
           by=r'''
                if len(chunks) < 1_000 and signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
''',
           turns=10_000, seconds=20.0,
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "16.2"


def text(words):
    return 'data: ' + json.dumps({"choices": [{"index": 0, "delta": {"content": words}}]})


class AllAtOnce:
    """A client whose one response has every line ready at once, and presses Stop as line `n`
    is read."""

    def __init__(self, lines, n, press):
        self.lines, self.n, self.press = list(lines), n, press
        self.lines_read, self.closed = 0, False

    def open(self, body):
        return self

    def ready(self):
        return not self.closed

    def read_line(self):
        if self.lines_read == len(self.lines):
            return None
        self.lines_read += 1
        if self.lines_read == self.n:
            self.press()
        return self.lines[self.lines_read - 1]

    def close(self):
        self.closed = True


@lab_test("Stop pressed as line 1,500 of a reply of 2,000 lines is read: the reply is aborted "
          "and no later line is read.")
async def test_stop_after_fifteen_hundred_lines(t):
    token = harness.CancelToken()
    fast = AllAtOnce([text("ab")] * 2_000 + [
        'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}',
        "data: [DONE]"], 1_500, token.cancel)
    reply = await harness.StreamingModel(fast).acomplete(
        "You help.", [harness.user_message("Go on.")], [], token)
    t.expect([reply["stop_reason"], len(harness.text_of(reply)), fast.lines_read, fast.closed],
             why="Stop came with line 1,500 of 2,000 lines all ready at once. Items: the "
                 "reply's stop_reason, the length of its words, the lines read, closed. The "
                 "signal is looked at first on every lap, however many lines have been read "
                 "(StreamingModel, lesson 16).")
'''),
    Beyond(lab='16.2', name='giving up after ten thousand quiet turns',
           rule='The response is read to its end or a Stop, however long the provider is quiet: '
                'no count of quiet looks ends it, however large.',
           where='lab 16.2, Build section, item 2 ("The response is read to its end"); hunt '
                 'round 12, probe 16.2-19',
           names='never a count of quiet looks',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), and "
                 "test_a_quiet_provider_is_waited_for waits 9,000; this reader gives up after "
                 "10,000 quiet turns in a row",
           replace=r'''
        chunks = []
        try:
            while True:
''',
           by=r'''
        chunks, quiet = [], 0  # a provider silent this long is gone
        try:
            while True:
''',
           also=((r'''
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                line = response.read_line()
''', r'''
                if not response.ready():
                    quiet += 1
                    if quiet > 10_000:
                        return error_message("The provider went quiet")
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                quiet = 0
                line = response.read_line()
'''),),
           turns=20_000, seconds=20.0,
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "16.2"


def text(words):
    return 'data: ' + json.dumps({"choices": [{"index": 0, "delta": {"content": words}}]})


@lab_test("A provider that says nothing for 12,000 loop turns in the middle of a reply is waited "
          "for: the reply is its whole answer.")
async def test_a_provider_quiet_for_twelve_thousand_turns(t):
    provider = lab.FakeProvider([[text("Let me think"), lab.pause(12_000), text(" it over."),
                                  'data: {"choices": [{"index": 0, "delta": {}, '
                                  '"finish_reason": "stop"}]}', "data: [DONE]"]])
    reply = await harness.StreamingModel(provider).acomplete(
        "You help.", [harness.user_message("Plan?")])
    t.expect([reply["stop_reason"], harness.text_of(reply), provider.open_responses()],
             why="The provider sent a line, said nothing for 12,000 loop turns, then finished: "
                 "only a Stop or the end of the stream ends the reading, never a count of "
                 "quiet looks, however large. Items: the reply's stop_reason, its words, the "
                 "responses left open (StreamingModel, lesson 16).")
'''),
    Beyond(lab='16.2', name='read_line asked without ready after ten thousand quiet turns',
           rule='read_line() is called only once ready() says a line can be had, however long '
                'the provider is quiet: no count of quiet looks changes how the stream is read.',
           where='lab 16.2, Build section ("which takes it once it is ready"); hunt round 15, '
                 '16.2-44',
           names='never a count of quiet looks',
           reach="a test may take 10,000 turns (lab/check/turns.py's BUDGET), and "
                 "test_a_quiet_provider_is_waited_for waits 9,000; this reader calls read_line() "
                 "without ready() once 10,000 quiet turns have passed in a row",
           replace=r'''
        chunks = []
        try:
            while True:
''',
           by=r'''
        chunks, quiet = [], 0  # a provider silent this long may have gone: look anyway
        try:
            while True:
''',
           also=((r'''
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                line = response.read_line()
''', r'''
                if not response.ready() and quiet < 10_000:
                    quiet += 1
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                quiet = 0
                line = response.read_line()
'''),),
           turns=20_000, seconds=20.0,
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "16.2"


def text(words):
    return 'data: ' + json.dumps({"choices": [{"index": 0, "delta": {"content": words}}]})


@lab_test("A provider that says nothing for 12,000 loop turns in the middle of a reply is read "
          "only when it has a line: the reply is its whole answer.")
async def test_a_provider_quiet_for_twelve_thousand_turns_is_read_when_ready(t):
    provider = lab.FakeProvider([[text("Let me think"), lab.pause(12_000), text(" it over."),
                                  'data: {"choices": [{"index": 0, "delta": {}, '
                                  '"finish_reason": "stop"}]}', "data: [DONE]"]])
    try:
        reply = await harness.StreamingModel(provider).acomplete(
            "You help.", [harness.user_message("Plan?")])
        found = [reply["stop_reason"], harness.text_of(reply)]
    except Exception as error:
        found = f"raised {type(error).__name__}: {error}"
    t.expect([found, provider.open_responses()],
             why="The provider sent a line, said nothing for 12,000 loop turns, then finished. "
                 "Items: [the reply's stop_reason and words, or what acomplete raised], the "
                 "responses left open. read_line() is called only once ready() says a line can "
                 "be had, never a count of quiet looks that reads anyway, however large "
                 "(StreamingModel, lesson 16).")
'''),
    # Hunt round 20 (reader r111), design 16.2-36.
    Beyond(lab='16.2', name='the signal looked at only in the first 10,000 laps',
           rule='The signal is looked at first on every lap of the reading, however many laps '
                'have passed, quiet or not: a Stop ends the reply and no later line is read.',
           where='lab 16.2, Build section, item 2 ("A Stop ends the reply as the aborted one"); '
                 'hunt round 20, 16.2-36',
           names='however many laps',
           reach="a lap is a quiet turn or a line read: a Stop past lap 10,000 needs more than "
                 "10,000 quiet turns (lab/check/turns.py's BUDGET is 10,000 a test, and "
                 "test_a_quiet_provider_is_waited_for waits 9,000) or more than 10,000 lines, "
                 "about 25 ms of processor time on the reference (2.5 ms a thousand lines), "
                 "more than twice what a new case may add",
           replace=r'''
        chunks = []
        try:
            while True:
                if signal is not None and signal.is_cancelled():
''',
           by=r'''
        chunks, laps = [], 0
        try:
            while True:
                laps += 1  # enough looks for any one reply
                if laps <= 10_000 and signal is not None and signal.is_cancelled():
''',
           turns=20_000, seconds=20.0,
           deep=r'''
import json

import harness
import lab
from lab.kit import lab_test

LAB = "16.2"


def text(words):
    return 'data: ' + json.dumps({"choices": [{"index": 0, "delta": {"content": words}}]})


class Late:
    """A signal of the test's own that goes up on its 11,000th look."""

    def __init__(self):
        self.looks = 0

    def is_cancelled(self):
        self.looks += 1
        return self.looks >= 11_000


@lab_test("Stop pressed after 11,000 turns of a provider that says nothing: the reply is "
          "aborted with the words so far, however many laps have passed.")
async def test_stop_after_eleven_thousand_quiet_turns(t):
    provider = lab.FakeProvider([[text("Let me think"), lab.pause(12_000), text(" it over."),
                                  'data: {"choices": [{"index": 0, "delta": {}, '
                                  '"finish_reason": "stop"}]}', "data: [DONE]"]])
    reply = await harness.StreamingModel(provider).acomplete(
        "You help.", [harness.user_message("Plan?")], [], Late())
    t.expect([reply["stop_reason"], harness.text_of(reply), provider.open_responses()],
             why="The provider sent a line and said nothing for 12,000 loop turns; the signal "
                 "went up on its 11,000th look. Items: the reply's stop_reason, its words, the "
                 "responses left open. The signal is looked at first on every lap, however many "
                 "laps have passed (StreamingModel, lesson 16).")
'''),
    Beyond(lab='16.2', name='a budget of two hundred requests a model',
           rule='Each call with no signal set sends exactly one request: a model object keeps '
                'no count of its calls and no budget of its own, however many calls it serves.',
           where='lab 16.2, Build section, item 1 ("Otherwise exactly one request goes out"); '
                 'hunt round 15, 16.2-41',
           names='no budget of its own',
           reach="a case of 250 calls of one model spun past the checker's 0.5 s of processor "
                 "time without a turn (the tests' calls of one model number a handful); this "
                 "model answers its 201st call with an error reply and sends nothing",
           replace=r'''
        if signal is not None and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
''',
           by=r'''
        self.sent = getattr(self, "sent", 0) + 1
        if self.sent > 200:  # a budget guard kept across runs
            return error_message("Provider request failed: request budget spent")
        if signal is not None and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
''',
           turns=10_000, seconds=20.0,
           deep=r'''
import harness
import lab
from lab.kit import lab_test

LAB = "16.2"


@lab_test("One model answers 250 calls one after another, each with one request.")
async def test_a_model_serves_two_hundred_and_fifty_calls(t):
    provider = lab.FakeProvider([lab.say(f"Reply {n + 1}.") for n in range(250)])
    model = harness.StreamingModel(provider)
    ends = []
    for _ in range(250):
        ends.append(await model.acomplete("You help.", [harness.user_message("Hi.")]))
        await lab.tick()
    t.expect([len(provider.requests), [m["stop_reason"] for m in ends].count("stop"),
              harness.text_of(ends[-1])],
             why="250 calls of one model, one after another. Items: the requests sent, the "
                 "replies that finished, the last reply's words. Each call with no signal set "
                 "sends exactly one request: a model object keeps no count of its calls, and no "
                 "budget of its own ends them (StreamingModel, lesson 16).")
'''),
    # Hunt round 27 (reader r150), design 16.2-40, a cap of a thousand chunks, is in WRONG
    # since hunt round 40 (reader r205) drew past 1,024 chunks; the next cap is past it.
    Beyond(lab='16.2', name='the reading cut off after 2,048 chunks',
           rule='The response is read to its end, where read_line() gives None or a line '
                'decodes to STREAM_DONE: no count of chunks ends it, however large.',
           where='lab 16.2, Build section, item 2 ("The response is read to its end"); hunt '
                 'round 27, 16.2-40; hunt round 40',
           names='never a count of chunks',
           reach="test_what_a_stream_carries_between_chunks draws a reply of 1,030 to 1,200 "
                 "chunks all ready at once (about 5 ms of processor time on the reference at "
                 "1,200); a reply past 2,048 chunks costs about 9 ms (2,500 measured 9.3 ms), "
                 "nearly the 10 ms a new case may add, on top of that draw",
           replace=r'''
                if chunk is not None:
                    chunks.append(chunk)
''',
           by=r'''
                if chunk is not None:
                    chunks.append(chunk)
                    if len(chunks) >= 2_048:  # enough of any one reply
                        break
''',
           turns=10_000, seconds=20.0,
           deep=r'''
import json

import harness
from lab.kit import lab_test

LAB = "16.2"


def text(words):
    return 'data: ' + json.dumps({"choices": [{"index": 0, "delta": {"content": words}}]})


class AllAtOnce:
    """A response whose lines are all ready at once."""

    def __init__(self, lines):
        self.lines, self.lines_read, self.closed = list(lines), 0, False

    def open(self, body):
        return self

    def ready(self):
        return not self.closed

    def read_line(self):
        if self.lines_read == len(self.lines):
            return None
        self.lines_read += 1
        return self.lines[self.lines_read - 1]

    def close(self):
        self.closed = True


@lab_test("A reply of 2,500 lines of words all ready at once is read to its [DONE]: never a "
          "count of chunks.")
async def test_a_reply_of_twenty_five_hundred_lines(t):
    fast = AllAtOnce([text("ab")] * 2_500 + [
        'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}',
        "data: [DONE]"])
    reply = await harness.StreamingModel(fast).acomplete(
        "You help.", [harness.user_message("Go on.")])
    t.expect([reply["stop_reason"], len(harness.text_of(reply)), fast.lines_read, fast.closed],
             why="A reply of 2,500 lines of words, its finish and [DONE], all ready at once. "
                 "Items: the reply's stop_reason, the length of its words, the lines read, "
                 "closed. The response is read to its end, never a count of chunks, however "
                 "many (StreamingModel, lesson 16).")
'''),
    # Hunt round 28 (reader r157), design 16.1-46: a cap just past the messages a test draws.
    Beyond(lab='16.1', name="only the first 1,300 messages put in the body",
           rule='Every message goes out, however long the record.',
           where='lab 16.1, Build section, item 3: "The record\'s messages come out of this exactly as they went in"; hunt round 28, 16.1-46',
           names='however long the record',
           reach="test_to_wire_writes_the_providers_shape draws a record of 402 to 1,202 "
                 "messages (and the bank 400 to 800); this reader sends the first 1,300, and "
                 "a draw past it is the count grown just past the design's threshold: 2,000 "
                 "messages cost about 0.8 ms, and the next cap (10,000) five times that again",
           replace=r"""
    wire = [{"role": "system", "content": system}]
    for message in messages:
""",
           by=r"""
    wire = [{"role": "system", "content": system}]
    for message in messages[:1300]:  # more than any window holds
""",
           deep=r"""
import harness
from lab.kit import lab_test

LAB = "16.1"


@lab_test("A record of 2,000 messages goes out whole: every message, however long the record.")
async def test_a_record_of_two_thousand_messages(t):
    record = [harness.user_message(f"Step {n}.") for n in range(2_000)]
    body = harness.to_wire("You help.", record, [])
    t.expect([len(body["messages"]), body["messages"][-1]["content"]], [2_001, "Step 1999."],
             "A record of 2,000 user messages. Items: the messages in the body (the system "
             "prompt first), the last one's words: every message goes out, however long the "
             "record (to_wire, lesson 16).")
"""),
    # Hunt round 40 (reader r205), design 16.1-73 (met on lab 16.2's check): a cap just past
    # the calls lab 16.1's test draws.
    Beyond(lab='16.1', name='only the first 2,000 calls put in the reply',
           rule='A reply that arrived whole holds one toolCall per call, however many calls it has.',
           where='lab 16.1, Build section, item 2 ("then one `toolCall` per call"); hunt round 40, 16.1-73',
           names='every call is in the reply',
           reach="test_interleaved_calls_are_matched_by_index draws 1,030 to 1,400 whole calls "
                 "in one chunk, which already cost about 13 ms of processor time in assemble on "
                 "the reference at 1,400; a draw past 2,000 calls costs about 20 ms, twice what a "
                 "new case may add, and the next cap (4,096) twice that again",
           replace=r"""
                    calls.append(call)
""",
           by=r"""
                    if len(calls) < 2_000:  # enough calls for any one reply
                        calls.append(call)
""",
           seconds=20.0,
           deep=r"""
import json

import harness
from lab.kit import lab_test

LAB = "16.1"


@lab_test("A chunk of 2,100 whole calls gives a reply of 2,100 calls: every call is in the "
          "reply, however many.")
async def test_a_reply_of_twenty_one_hundred_calls(t):
    many = [{"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": n, "id": f"c{n}", "type": "function",
         "function": {"name": "read", "arguments": json.dumps({"path": f"f{n}.py"})}}
        for n in range(2_100)]}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}]
    blocks = harness.assemble(many)["content"]
    t.expect([len(blocks), blocks[-1]["id"]], [2_100, "c2099"],
             "One chunk whose delta holds 2,100 whole calls. Items: the calls in the reply, "
             "the last one's id: every call is in the reply, however many (assemble, lesson "
             "16).")
"""),
]
