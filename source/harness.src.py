#: The single source of every lab's harness.py, starter and solution alike.
#: Lines that start with "#:" are directives for tools/make.py and never reach a student:
#:   #: from LAB ... [#: before ...] #: end     text from LAB on; the "before" text for earlier labs
#:   #: gap LAB N NAME ... #: starter [+before] ... [#: guided [+before] ...] [#: before ...] #: end
#:                                             a gap: the solution from LAB on, the starter text (the
#:                                             gap's contract) in LAB's standard starter, the guided
#:                                             text (its recipe; the starter text when there is none)
#:                                             in LAB's guided starter, each followed by the before
#:                                             text with "+before"; the before text for earlier labs
#:   #: given LAB REASON                        "# given in lesson NN: REASON", in LAB's files only
#: LAB is "lesson.lab", e.g. 15.1. Blocks nest. The manifest (lessons/*/lesson.toml) orders the labs.
"""A coding-agent harness in one file: a model, the tools it may call, and the loop between them."""
#: from 15.1
#: given 15.1 asyncio, for the one kind of waiting this file does: a turn of the event loop
import asyncio
#: end
#: from 7.2
#: given 7.2 json, for the frontend that prints each event as a line of JSON
import json
#: end
#: from 8.1
#: given 8.1 weakref, so that the harness can see its run without keeping it alive
import weakref
#: end
#: from 9.1
#: given 9.1 deque, a queue that is cheap to take from at the front
from collections import deque
#: end

# == 1 messages ==
# A conversation is a list of messages, and a message is a dict tagged with the role that spoke.


#: given 2.1 you wrote this in lesson 1
def user_message(text):
    """What the user said. User content is a plain string."""
    return {"role": "user", "content": text}


def text_of(message):
    """The words of an assistant message, joined. Its content is a list of blocks, because one
    reply can mix words and calls; the words are the blocks of type "text"."""
    #: gap 2.1 1 text_of
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
    #: starter
    # The words of `message`, as one string: the "text" of every block of type "text", in the order
    # they stand, with nothing put between them. Calls carry no words, so a reply made only of
    # calls gives "".
    # Tests: test_text_of.
    #: guided
    # Join the "text" of each block whose "type" is "text", in order, and skip the calls.
    # A reply with no words gives "". One of the lab's tests:
    #     message = lab.reply("Looking. ", lab.call("read", {"path": "a.py"}), "Done.")
    #     text_of(message) == "Looking. Done."
    #: end


def tool_calls(message):
    """The calls an assistant message makes, in order. Derived from content every time it is
    asked, so there is no second copy to fall out of step."""
    #: gap 2.1 2 tool_calls
    return [block for block in message["content"] if block["type"] == "toolCall"]
    #: starter
    # The call blocks of `message` (type "toolCall"), in the order they stand, as the very blocks
    # of its content; [] for a plain answer. Nothing is kept between two asks: after the content is
    # edited, the next answer follows the content as it is now.
    # Tests: test_tool_calls, test_two_calls_two_results.
    #: guided
    # The blocks whose "type" is "toolCall", in the order they stand in the content; [] for a
    # plain answer. Return the blocks themselves, and work them out from "content" on every
    # call: a second list kept beside the content could disagree with it.
    #: end
#: from 5.1


#: from 15.1
def error_message(text, stop_reason="error"):
    """An assistant message that ends a run and says why: empty content, the reason in
    error_message, and stop_reason "error" (something gave up) or "aborted" (the user stopped
    it). Runs record their endings; they do not raise them."""
    #: gap 15.1 1 error_message
    return {"role": "assistant", "content": [], "stop_reason": stop_reason, "error_message": text}
    #: starter
    # The ending now carries its label: stop_reason is `stop_reason` ("error" unless told
    # otherwise; "aborted" for a run the user stopped). Everything else is as in lesson 5.
    # Tests: test_error_message_takes_a_label.
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
    #: guided
    # Lesson 5 wrote this body for one kind of ending. The new parameter names the second kind;
    # put it where the label goes.
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
    #: end
#: before
def error_message(text):
    """An assistant message that ends a run and says why: empty content, the reason in
    error_message, stop_reason "error". Runs record their endings; they do not raise them."""
    #: gap 5.1 1 error_message
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": text}
    #: starter
    # An ending the record can hold: an assistant message with exactly four keys, "role", "content"
    # (empty: nothing was said), "stop_reason" "error", and "error_message" holding `text`.
    # Tests: test_error_message.
    #: guided
    # An assistant message like any reply, so it can sit on the record: content [] (nothing
    # was said), stop_reason "error", and one more key, "error_message", holding `text`.
    # One of the lab's tests:
    #     error_message("boom") == {"role": "assistant", "content": [],
    #                               "stop_reason": "error", "error_message": "boom"}
    #: end
#: end
#: end
#: from 12.1


#: gap 15.1 2 ABORTED
ABORTED = "Operation aborted"  # what a stopped run says, for each call it skipped and at its end
#: starter
# ABORTED is the text "Operation aborted": the result of each call a stopped run did not run, and
# the error_message of the message the run ends on.
# Tests: test_stop_inside_a_batch, test_events_of_a_stopped_run.
#: guided
# Name the text "Operation aborted" ABORTED. A stopped run uses it twice: as the result of each
# call it never ran, and as the error_message of the message it ends on.
#: end


def render(messages):
    """The transcript as plain text, one line per message, calls written name(arguments). A
    summary is written from this, and estimate_tokens measures it."""
    #: gap 12.1 1 render
    out = []
    for message in messages:
        said = message["content"]
        if message["role"] == "assistant":  # its words, then each call as name(arguments)
            said = " ".join([text_of(message)] + [
                f"{block['name']}({json.dumps(block['arguments'])})" for block in tool_calls(message)])
        out.append(f"{message['role']}: {said}".replace("\n", " "))
    return "\n".join(out)
    #: starter
    # The transcript as plain text, one line per message, the lines joined by "\n". A line is the
    # role, a colon, a space, and the message's words. A user message's or a result's words are
    # its content. An assistant message's words are its text (text_of) and then each of its calls,
    # written as the tool's name and its arguments as JSON (json.dumps) in brackets, all separated
    # by single spaces, so a message of calls alone has two spaces after its colon. A newline
    # inside a message becomes a space in the text: a message is always one line, and the messages
    # themselves, the record, stay as they were. Only "\n" is a newline here: a "\r" stays. For
    # example, a user message
    # "Read a.py" and a reply "Reading." calling read {"path": "a.py"} render as
    # 'user: Read a.py\nassistant: Reading. read({"path": "a.py"})'.
    # Tests: test_render_is_exact.
    pass
    #: guided
    # One line per message, f"{role}: {words}", the lines joined by "\n", and every newline
    # inside a line turned into a space, so that one message is always one line.
    #   - a user message or a toolResult: words is its content
    #   - an assistant message: words is " ".join of a list that starts with
    #     text_of(message) and goes on with f"{name}({json.dumps(arguments)})" for each of
    #     its tool_calls; so a message of calls only has two spaces after its colon
    # One of the lab's tests:
    #     render([user_message("Read a.py"),
    #             lab.reply("Reading.", lab.call("read", {"path": "a.py"}, id="c1"))])
    #         == 'user: Read a.py\nassistant: Reading. read({"path": "a.py"})'
    pass
    #: end
#: end


# == 2 tools ==
# A tool is a dict. The model is told its "name", "description" and "parameters" (JSON Schema).
#: from 15.1
#: given 15.1 every execute is async and takes the run's signal
# "execute" is async: await execute(arguments, signal=None) -> str. Only this program calls it.
#: before
# "execute" is a plain function, execute(arguments) -> str, that only this program calls.
#: end
#: from 13.1
# "snippet" and "guidelines" are optional and only the system prompt reads them: what the tool
# is for, in a line, and advice on when to reach for it, which a schema cannot express.
#: end
#: from 4.1


def str_arg(arguments, name):
    """The string argument `name`. A schema asks the model for a string; nothing makes it send
    one. Raises ValueError("<name> must be a string") when it is missing or another type."""
    #: gap 4.1 1 str_arg
    got = arguments.get(name)  # None when the model left it out
    if isinstance(got, str):
        return got
    raise ValueError(f"{name} must be a string")
    #: starter
    # The argument `name` as it was sent, when it is a str, "" included. When it is missing, or
    # holds anything but a str, str_arg raises ValueError with the text "NAME must be a string",
    # the argument's name in place of NAME, and never a KeyError. read, write and bash take their
    # string arguments through it (their gaps below).
    # Tests: test_str_arg, test_bad_arguments_are_results.
    #: guided
    # Look the argument up with .get, so that a missing one is None rather than a KeyError,
    # and raise ValueError(f"{name} must be a string") unless it is a str. Else return it.
    # Then use it where write and bash take their arguments, further down.
    #: end
#: end
#: from 6.1


def int_arg(arguments, name, default):
    """The optional whole-number argument `name`, or `default` when it is absent or None. A
    bool is not a whole number here. Raises ValueError("<name> must be an integer")."""
    #: gap 6.1 1 int_arg
    got = arguments.get(name)
    if got is None:
        return default
    if type(got) is int:  # exactly int: True and False are ints to Python, not to a reader
        return got
    raise ValueError(f"{name} must be an integer")
    #: starter
    # A whole-number argument: arguments[name] when it is an int, `default` when it is absent or
    # None. Anything else raises ValueError with the text "NAME must be an integer" (the
    # argument's name for NAME), and so does a bool: Python counts True as 1, but no model that
    # sent true meant line 1.
    # Tests: test_int_arg, test_bad_arguments.
    #: guided
    # str_arg's cousin, with a default: absent, or None, gives `default`. Anything else that
    # is not an int raises ValueError(f"{name} must be an integer"), and so does a bool:
    # Python counts True as 1, but no model that sends true meant line 1.
    #: end
#: end


def tool_specs(tools):
    """What the model may know of each tool: name, description and parameters, in order. The
    function itself never leaves this program."""
    #: gap 2.1 3 tool_specs
    return [{"name": tool["name"], "description": tool["description"],
             "parameters": tool["parameters"]} for tool in tools]
    #: starter
    # What the model is told of the tools: a new list, one new dict per tool in the tools' order,
    # with exactly the keys "name", "description" and "parameters". No function, and no other key a
    # tool carries, is in it, and the tools are left exactly as they were. A tool lacking one of
    # those keys raises KeyError: nothing is made up for it.
    # Tests: test_specs_have_three_keys_in_order, test_specs_do_not_change_the_tools.
    #: guided
    # A new list of new dicts, one per tool, in the tools' order, each with exactly three
    # keys: "name", "description" and "parameters". The tools themselves must come out as
    # they went in, and "execute" must not be among what the model is sent. A tool lacking one
    # of the three keys raises KeyError, as tool["description"] does: make nothing up for it.
    #: end


#: from 15.1
async def run_tool(tools, call, signal=None):
    """Answer one call with exactly one toolResult, whatever happens. Tools report failure by
    raising; this is the one place a raise becomes a result (is_error True), so it never raises
    Exception. When `signal` is cancelled the tool is not run and the result is ABORTED; a tool
    that does run is handed the signal. A CancelledError is the task being stopped, not the
    tool failing, and passes through."""
    #: gap 15.1 3 run_tool
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if signal is not None and signal.is_cancelled():
        text, failed = ABORTED, True
    elif tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        #: gap 15.2 1 the boundary lets a cancelled task through
        try:
            text, failed = await tool["execute"](call["arguments"], signal), False
        except asyncio.CancelledError:
            raise  # the task is being stopped; that is news for its owner, not for the model
        except Exception as exc:
            text, failed = str(exc), True
        #: starter +before
        # A cancelled task is not a failed tool: asyncio.CancelledError raised inside the tool must
        # leave run_tool as it came, with no result made for it. Python already lets it past the
        # wide clause; the boundary must say so in writing, in an except clause of its own above
        # the wide one, for whoever edits it next.
        # Tests: test_the_boundary_says_so_in_writing.
        #: guided +before
        # task.cancel() raises asyncio.CancelledError inside whatever the tool is awaiting.
        # That is not the tool failing, and it must not turn into a result. Give it an except
        # clause of its own, above the wide one, that sends it on. (Since Python 3.8 it is not
        # an Exception, so the wide clause already lets it by: the new clause is there for
        # whoever edits this boundary next.)
        #: before
        try:
            text, failed = await tool["execute"](call["arguments"], signal), False
        except Exception as exc:
            text, failed = str(exc), True
        #: end
    #: starter
    # Lesson 4's body, below, with execute awaited; `signal` is None or any object with
    # is_cancelled(), a CancelToken or a frontend's own, which is asked, never taken for true or
    # false. It must now hold that a call whose signal is already cancelled gets its one result
    # all the same, ABORTED with is_error True, even when it names a tool nobody has, and its tool
    # does not run; and that a tool which does run is handed the signal as execute's second
    # argument, None included: execute(arguments, None) when there is no signal.
    # Tests: test_stop_inside_a_batch, test_tools_are_handed_the_token,
    #   test_the_token_and_the_two_checks.
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = await tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
    #: guided
    # Lesson 4's body, recoloured: `execute` is awaited now. `signal` is a CancelToken or None,
    # and nothing reads it yet. Two changes:
    #   - a cancelled signal means the tool does not run, and the call still gets its one
    #     result: ABORTED, with is_error True
    #   - a tool that does run is handed the signal: execute(arguments, signal), even when
    #     it is None (a tool may take that parameter with no default)
    # Only None means "no signal": ask any other object, even one that counts as false.
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = await tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
    #: end
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
#: before
def run_tool(tools, call):
    #: from 4.1
    """Answer one call with exactly one toolResult, whatever happens. Tools report failure by
    raising; this is the one place a raise becomes a result (is_error True), so it never raises
    Exception. Anything wider, such as lab.PowerCut, is the program ending and passes through."""
    #: before
    """Answer one call with its toolResult: the tool the call names runs on the call's
    arguments, and what it returns goes back under the call's id, so that the model can tell
    which of its calls this answers."""
    #: end
    #: gap 2.1 4 run_tool
    #: gap 4.1 2 the boundary
    tool = {t["name"]: t for t in tools}.get(call["name"])
    if tool is None:
        text, failed = f"Tool {call['name']} not found", True
    else:
        try:
            text, failed = tool["execute"](call["arguments"]), False
        except Exception as exc:
            text, failed = str(exc), True
    #: starter +before
    # run_tool raises no Exception: every call ends in exactly one result, whatever its tool does,
    # under the names `text` and `failed` that the return below reads. A name no tool has gets the
    # text "Tool NAME not found", the call's name in place of NAME, is_error True (of two tools
    # with one name, either may answer). A tool whose execute raises an Exception of any kind gets
    # str(exc), is_error True, and the later calls of its batch still run (an exception whose str()
    # itself raises is beyond this lesson). What the program raises as it ends, such as
    # lab.PowerCut, is not a tool failing: it leaves run_tool as it came. A tool that returns gets
    # what it returned, is_error False, as before.
    # Tests: test_a_raise_becomes_a_result, test_an_unknown_tool,
    #   test_every_exception_becomes_a_result, test_a_power_cut_passes_through,
    #   test_a_failure_mid_batch, test_the_next_request_carries_the_error.
    #: guided +before
    # Lesson 2's body, below, raises whenever a tool raises, and for a name no tool has. Make
    # every call end in exactly one result instead, by setting `text` and `failed`:
    #   - no tool has that name: f"Tool {call['name']} not found", is_error True
    #   - execute raises: str(exc), is_error True. Catch Exception and nothing wider:
    #     lab.PowerCut means the program is ending, not that a tool failed, so it goes on up
    #   - otherwise what execute returned, is_error False, as before
    # One of the lab's tests, a batch [c1, c2, c3] whose second tool raises OSError:
    #     lab.shape(messages) == "U A[c1,c2,c3] R(c1) R(c2) R(c3) A"
    #     messages[3]["content"] == "disk full" and messages[3]["is_error"] is True
    #: before
    tool = {t["name"]: t for t in tools}[call["name"]]
    text, failed = tool["execute"](call["arguments"]), False
    #: end
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": text, "is_error": failed}
    #: starter
    # The result of one call. The tool that runs is the one in `tools` whose "name" is the call's
    # name (a function of this file with that name is not a tool), and its "execute" gets the
    # call's arguments, once. The result is a toolResult with exactly five keys: "role", the call's
    # id as "tool_call_id", its name as "tool_name", what execute returned as "content", and
    # "is_error" False. The id is how the model pairs a result with its call.
    # Tests: test_run_tool_returns_a_result, test_execute_gets_the_arguments,
    #   test_the_tool_is_picked_by_name.
    #: guided
    # Pick the tool whose "name" is call["name"] (the model may ask for any of them, in any
    # order), run its "execute" on call["arguments"], and return the call's answer:
    #     {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
    #      "content": <what execute returned>, "is_error": False}
    # The id is how the model pairs this result with the call that asked for it.
    #: end
#: end
#: from 6.1


#: given 6.1 the budget of one result, in the course's numbers
MAX_LINES = 2000  # the budget of one tool result: every result is sent again on every later
MAX_BYTES = 50_000  # turn. Counted in UTF-8 bytes, so "é" costs two.


def truncate_head(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The beginning of `text` that fits the budget, as (kept, lines_shown): whole lines with
    their newlines, for files, which are read from the top. A first line that alone is over
    budget gives ("", 0), because half a line misleads."""
    #: gap 6.1 2 truncate_head
    lines = text.splitlines(keepends=True)
    count, used = 0, 0
    while count < min(len(lines), max_lines):
        used += len(lines[count].encode())
        if used > max_bytes:  # this line would not fit: stop before it
            break
        count += 1
    return "".join(lines[:count]), count
    #: starter
    # (kept, lines_shown): the longest run of whole lines from the top of `text`, each with its
    # newline, that holds at most max_lines lines and at most max_bytes bytes of UTF-8 (exactly
    # max_bytes still fits; "é" costs two), and how many lines that is. A first line over budget on
    # its own gives ("", 0); empty text gives ("", 0).
    # Tests: test_the_line_cap, test_bytes_not_characters, test_a_first_line_too_big.
    #: guided
    # Walk text.splitlines(keepends=True) from the top and keep whole lines, newlines and
    # all. Stop before the line that would be line max_lines + 1, or that would take the
    # size past max_bytes. Size is counted in UTF-8 bytes, len(line.encode()), and exactly
    # max_bytes still fits. Return (the kept text, how many lines it holds).
    # One of the lab's tests:
    #     truncate_head("aé\nb\n", max_bytes=4) == ("aé\n", 1)      # "aé\n" is 4 bytes
    #: end


def truncate_tail(text, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The end of `text` that fits the budget, as (kept, lines_shown), in the original order:
    for command output, whose verdict is printed last."""
    #: gap 6.1 3 truncate_tail
    lines = text.splitlines(keepends=True)
    count, used = 0, 0
    while count < min(len(lines), max_lines):
        used += len(lines[-1 - count].encode())  # counting up from the last line
        if used > max_bytes:
            break
        count += 1
    return "".join(lines[len(lines) - count:]), count
    #: starter
    # The same budget kept from the other end: the longest run of whole lines that ends the text
    # and fits both limits, in their original order, and how many lines that is.
    # Tests: test_truncate_tail, test_short_text_is_whole.
    #: guided
    # truncate_head from the other end: walk the lines from the bottom under the same two
    # limits, then hand the kept ones back in their original order.
    #: end
#: end


#: given 2.1 the factory and its tool dict; execute is yours
#: from 6.1
#: given 6.1 the budget parameters, and a description that states them
def make_read_tool(ws, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `read` tool over the workspace `ws`. A read returns at most one budget of lines, and
    when it stops early its last line says where to carry on."""
#: before
def make_read_tool(ws):
    """The `read` tool over the workspace `ws`: the whole text of one file, named by its path."""
#: end
    #: from 15.1
    async def execute(arguments, signal=None):
    #: before
    def execute(arguments):
    #: end
        #: gap 2.1 5 read's execute
        #: gap 4.1 3 read's missing file
        path = str_arg(arguments, "path")
        #: gap 6.1 4 read's paging
        start, most = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        if start < 1 or (most is not None and most < 1):
            raise ValueError("offset and limit must be 1 or more")
        #: starter
        # read takes two more whole-number arguments, checked before the file is looked for:
        # "offset", the first line wanted, counted from 1 (1 when left out), and "limit", the most
        # lines wanted (no limit when left out). A bad one is refused as int_arg refuses it; one
        # below 1 raises ValueError with the text "offset and limit must be 1 or more".
        # Tests: test_bad_arguments, test_offset_and_limit.
        #: guided
        # Two new arguments, checked here, before the file is looked for: "offset" (the
        # first line wanted, counted from 1; default 1) and "limit" (how many lines; default
        # None, no limit), both read with int_arg. Either one below 1 raises
        # ValueError("offset and limit must be 1 or more").
        #: end
        if not ws.exists(path):  # say what is there, so the model can ask again
            listing = ", ".join(ws.listdir("."))
            raise FileNotFoundError(f"File not found: {path}. Files here: {listing}")
        #: gap 6.1 4 read's paging
        lines = ws.read_text(path).splitlines(keepends=True)
        total = len(lines)
        if start > max(total, 1):
            raise ValueError(f"offset {start} is past the end of {path}: {total} lines")
        end = total if most is None else min(total, start - 1 + most)  # the last line wanted
        chunk, shown = truncate_head("".join(lines[start - 1:end]), max_lines, max_bytes)
        if shown == 0 and end >= start and max_lines == 0:  # lines were wanted; none may be
            return f"[No line of {path} is shown: this read's budget is 0 lines.]"
        if shown == 0 and end >= start:  # lines were wanted, and the first alone is too big
            size = len(lines[start - 1].encode())
            hint = f" Use offset={start + 1} to skip it." if start < total else ""
            return (f"[Line {start} of {path} is {size} bytes, over the {max_bytes}-byte "
                    f"budget of one read, so none of it is shown.{hint}]")
        last = start + shown - 1
        if last < total:
            chunk += f"[Showing lines {start}-{last} of {total}. Use offset={last + 1} to continue.]"
        return chunk
        #: starter +before
        # A read returns at most one budget (max_lines, max_bytes) of the lines from offset on, and
        # no more than limit of them. What it says, exactly, with N the file's number of lines:
        #   - an offset past the last line (an empty file still takes offset 1) raises ValueError
        #     with the text "offset A is past the end of PATH: N lines" (A the offset)
        #   - lines were wanted and the first of them, S bytes long, is over budget on its own: the
        #     result is "[Line A of PATH is S bytes, over the M-byte budget of one read, so none of
        #     it is shown. Use offset=C to skip it.]" (M is max_bytes, C the next line), without
        #     " Use offset=C to skip it." when no line follows; a tool made with max_lines=0
        #     shows no line and says so: "[No line of PATH is shown: this read's budget is 0
        #     lines.]"
        #   - a read that stops before line N: the kept text, then straight after it
        #     "[Showing lines A-B of N. Use offset=C to continue.]" (A to B the lines shown,
        #     C the one after B)
        # Tests: test_a_long_file, test_offset_and_limit, test_a_line_over_budget,
        #   test_bad_arguments, test_the_factories_take_a_budget.
        #: guided +before
        # The whole file, below, may be megabytes, and every later request carries it again.
        # Return at most one budget, starting at line `offset`. With the file split into
        # lines that keep their newlines, and n the number of lines:
        #   - offset > max(n, 1) raises
        #     ValueError(f"offset {offset} is past the end of {path}: {n} lines")
        #   - take the wanted lines (no more than `limit`, when it is given) and pass them,
        #     joined, through truncate_head with max_lines and max_bytes
        #   - nothing kept because the first wanted line, of b bytes, is over budget: return
        #     f"[Line {offset} of {path} is {b} bytes, over the {max_bytes}-byte budget"
        #     f" of one read, so none of it is shown.{skip}]"
        #     where skip is f" Use offset={offset + 1} to skip it." if more lines follow
        #     and "" otherwise; but when max_lines is 0 no line could be shown, whatever its
        #     size: return f"[No line of {path} is shown: this read's budget is 0 lines.]"
        #   - a read that ends before line n (budget or limit) gets, straight after the
        #     kept text, with `last` the number of the last line shown:
        #     f"[Showing lines {offset}-{last} of {n}. Use offset={last + 1} to continue.]"
        # One of the lab's tests, on a.txt holding the lines 1 to 10:
        #     execute({"path": "a.txt", "offset": 3, "limit": 2})
        #         == "3\n4\n[Showing lines 3-4 of 10. Use offset=5 to continue.]"
        #: before
        return ws.read_text(path)
        #: end
        #: starter +before
        # A bad call raises, and run_tool makes the raise the call's result. The path comes through
        # str_arg. A path with nothing at it raises FileNotFoundError with the text
        # "File not found: PATH. Files here: NAMES", where NAMES are what ws.listdir(".") gives,
        # joined by ", ", so that the model learns what it could have asked for. ws.exists(path)
        # says whether anything is at a path.
        # Tests: test_read_a_missing_file, test_bad_arguments_are_results.
        #: guided +before
        # A bad call is raised, and run_tool turns it into the call's result. Two kinds:
        #   - take the path with str_arg, so that {} or {"path": 7} reads "path must be a string"
        #   - a path with nothing there raises FileNotFoundError with the text
        #     f"File not found: {path}. Files here: {', '.join(ws.listdir('.'))}"
        #     so that the model learns what it could have asked for
        #: before
        return ws.read_text(arguments["path"])
        #: end
        #: starter
        # read's execute: the whole text of the file in `ws` named by the "path" argument, as the
        # workspace holds it. The path goes to ws as the call spells it: read tidies nothing.
        # Tests: test_the_read_tool, test_a_round_trip_by_hand.
        pass
        #: guided
        # Return the whole text of the file whose path is arguments["path"]: ws.read_text(path).
        # One of the lab's tests, in a workspace holding the file notes.txt:
        #     make_read_tool(ws)["execute"]({"path": "notes.txt"}) == ws.read_text("notes.txt")
        pass
        #: end

    return {
        "name": "read",
        #: from 6.1
        "description": f"Return the text of a file. A single read stops after {max_lines} lines "
                       f"or {max_bytes} bytes; ask again with offset for the rest.",
        #: before
        "description": "Return the text of a file.",
        #: end
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file, relative to the project."},
                #: from 6.1
                "offset": {"type": "integer", "description": "Line to start at; the first is 1."},
                "limit": {"type": "integer", "description": "Most lines to return."},
                #: end
            },
            "required": ["path"],
        },
        "execute": execute,
        #: gap 13.1 1 the tool keys
        "snippet": "Read a file's contents",
        "guidelines": ["Read files with read, not with cat or sed.",
                       "Name the files you touch by their paths."],
        #: starter
        # Two more keys, which only build_system_prompt reads: "snippet", one line on what the
        # tool is for, in your own words and not the description; and "guidelines", a list of two
        # short pieces of advice. The first is read's alone; the second is write's second too,
        # word for word. The wording is yours. Each call makes a new dict, with lists and dicts of
        # its own, parameters included.
        # Tests: test_the_factories_carry_snippets_and_guidelines.
        #: guided
        # Two keys that only build_system_prompt reads; tool_specs never sends them.
        # "snippet": a string, one line of your own on what read is for. Not the description:
        # that already travels in the specs.
        # "guidelines": a list of two sentences of advice, in this order:
        #   1. one for read alone, say, which tool to read files with
        #   2. one that fits write as well, say, how to name the files you touch. write's second
        #      guideline is this sentence copied word for word, so the prompt can show it once.
        #: end
    }
#: from 3.1


#: given 3.1 the two factories and their tool dicts; each execute is yours
def make_write_tool(ws):
    """The `write` tool: makes a file in `ws`, or overwrites one that is there, whole."""
    #: from 15.1
    async def execute(arguments, signal=None):
    #: before
    def execute(arguments):
    #: end
        #: gap 3.1 1 write's execute
        #: gap 4.1 1 str_arg
        path, content = str_arg(arguments, "path"), str_arg(arguments, "content")
        #: starter +before
        # write's "path" and "content" come through str_arg.
        # Tests: test_bad_arguments_are_results.
        #: guided +before
        # Take both arguments with str_arg: a model may leave one out, or send a number.
        #: before
        path, content = arguments["path"], arguments["content"]
        #: end
        ws.write_text(path, content)
        return f"Successfully wrote to {path}."
        #: starter
        # write's execute: afterwards the file named by the "path" argument holds exactly the
        # "content" argument, made if it was not there and replaced whole if it was, and nothing
        # else in the workspace has changed. The result is the sentence "Successfully wrote to
        # PATH." with the path in place of PATH, character for character: the model cannot see the
        # disk, and this sentence is all it learns of the write. The workspace `ws` has write_text,
        # which takes a path and the file's whole text.
        # Tests: test_the_write_tool, test_a_write_then_a_read.
        pass
        #: guided
        # Write arguments["content"] to the file named by arguments["path"] (ws.write_text
        # creates it, or replaces all of it), then return exactly
        # f"Successfully wrote to {path}." The model cannot see the disk: the result is the
        # only way it learns that the write happened.
        pass
        #: end

    return {
        "name": "write",
        "description": "Create a text file, or replace everything in one that exists.",
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "The file, relative to the project."},
                "content": {"type": "string", "description": "Everything the file will hold."},
            },
            "required": ["path", "content"],
        },
        "execute": execute,
        #: gap 13.1 1 the tool keys
        "snippet": "Create or replace a file",
        "guidelines": ["Use write for new files and for rewriting a whole file.",
                       "Name the files you touch by their paths."],
        #: starter
        # write's two keys: a one-line "snippet", and two "guidelines": first one of write's own,
        # then read's second, word for word.
        # Tests: test_the_factories_carry_snippets_and_guidelines.
        #: guided
        # "snippet": one line of your own on what write is for.
        # "guidelines": two sentences, in this order: one of write's own (say, when to use write
        # rather than another tool), then read's second guideline, copied word for word.
        #: end
    }


#: from 6.1
def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
#: before
def make_bash_tool(shell):
#: end
    #: from 4.1
    """The `bash` tool: run one command line in `shell` and return what it printed. A command
    that exits non-zero still ran, so its code is information for the model, not a tool
    failure: the result is ordinary and ends with a status line."""
    #: before
    """The `bash` tool: run one command line in `shell` and return what it printed, stdout and
    stderr together."""
    #: end
    #: from 15.1
    async def execute(arguments, signal=None):
    #: before
    def execute(arguments):
    #: end
        #: gap 3.1 2 bash's execute
        #: from 15.1
        #: gap 15.1 4 bash's poll loop
        process = shell.start(str_arg(arguments, "command"))
        try:
            while not process.done():
                if signal is not None and signal.is_cancelled():
                    return "Command cancelled"
                await asyncio.sleep(0)  # one turn of the loop: when a Stop can be pressed
        finally:
            process.kill()  # on every way out, a hard cancel's too; harmless once it is done
        output, code = process.output()
        #: starter
        # The line below waits for the command and for nothing else, so no Stop can end
        # `sleep inf`. Now a Stop must end bash while its command runs: within a few turns of the
        # event loop (the tests allow five) the command is dead and the result ends with the line
        # "Command cancelled" (above it, nothing or the output so far, cut: yours to choose).
        # Whichever way execute ends (an answer, a Stop, the task cancelled),
        # the command does not outlive it. A command that finishes is waited for as before, however
        # many turns it takes: bash has no timeout of its own. The
        # shell also has shell.start(command), which returns a process at once; a process has
        # done(), kill(), and output() -> (output, code), which answers once it is done.
        # Tests: test_bash_hears_stop, test_bash_kills_its_command_on_a_hard_cancel,
        #   test_bash_waits_for_a_slow_command.
        output, code = await shell.arun(str_arg(arguments, "command"))
        #: guided
        # `await shell.arun(command)` waits for the command and looks at nothing else, so no
        # flag will ever stop `sleep inf`. Replace it with a loop that polls:
        #     process = shell.start(command)    starts it and returns at once
        #     process.done() -> bool            process.kill()
        #     process.output() -> (output, code), only once it is done
        # Until it is done, look at the signal on every lap: set means return
        # "Command cancelled"; clear means `await asyncio.sleep(0)`, a single turn of the event
        # loop, then the next lap. Whichever way execute ends, the process ends with it.
        output, code = await shell.arun(str_arg(arguments, "command"))
        #: end
        #: before
        #: gap 4.1 1 str_arg
        output, code = shell.run(str_arg(arguments, "command"))
        #: starter +before
        # bash's "command" comes through str_arg.
        # Tests: test_bad_arguments_are_results.
        #: guided +before
        # The command, too, is taken with str_arg.
        #: before
        output, code = shell.run(arguments["command"])
        #: end
        #: end
        #: gap 6.1 5 bash's truncation
        printed = len(output.splitlines())  # lines the command printed, before the cut
        output, kept_lines = truncate_tail(output, max_lines, max_bytes)
        if kept_lines < printed:
            if output and not output.endswith("\n"):  # a last line printed without its newline
                output += "\n"
            output += (f"\n[Showing the last {kept_lines} of {printed} lines. "
                       "Narrow the command for more.]")
        #: starter
        # bash's result holds the end of the output (a command's verdict is printed last) that fits
        # max_lines and max_bytes. When lines were dropped, a blank line and then the note
        # "[Showing the last K of T lines. Narrow the command for more.]" follow the kept lines
        # (K lines kept, T printed): unless the kept text ends in "\n", or nothing is kept, a "\n"
        # is added to it first (after a "\r" or a rarer break too), then "\n" and the note. The
        # status line of lesson 4 comes after this note.
        # Tests: test_bash_keeps_the_tail, test_the_factories_take_a_budget.
        #: guided
        # A command's verdict is printed last, so keep the end: truncate_tail the output
        # with max_lines and max_bytes. When lines were dropped, say so on a line of its own:
        #     f"\n[Showing the last {shown} of {total} lines. Narrow the command for more.]"
        # after a newline of its own when the kept text is not empty and does not end with "\n"
        # (a command's last line may have none, or end in "\r" or a rarer break: add it then
        # too), so that the note always follows "\n\n". The status line below
        # goes after this note.
        #: end
        #: gap 4.1 4 bash's status line
        if code != 0:
            output += f"\nCommand exited with code {code}"
        #: starter
        # A command that exits non-zero still ran: it raises nothing, and its result is an ordinary
        # one. When the exit code is not 0, the result is what the command printed, then a newline,
        # then "Command exited with code N", the code in place of N. Code 0 adds nothing.
        # Tests: test_a_failing_command_is_information, test_success_adds_nothing.
        #: guided
        # A command that exits non-zero still ran, and its code is news for the model, not
        # a broken tool: raise nothing. When `code` is not 0, end the output with the line
        # f"\nCommand exited with code {code}". Exit code 0 adds nothing.
        #: end
        return output
        #: starter
        # bash's execute: the result is what the "command" argument printed when run in `shell`,
        # stdout and stderr together, as one string. shell.run takes a command line and gives back
        # a pair: that output, and the command's exit code, which the model does not get until
        # lesson 4.
        # Tests: test_the_bash_tool, test_a_write_then_a_read.
        pass
        #: guided
        # shell.run(command) runs arguments["command"] and returns (output, code): what the
        # command printed, stdout and stderr together, and its exit code. Return the output.
        pass
        #: end

    return {
        "name": "bash",
        #: from 6.1
        "description": "Run one shell command line; stdout and stderr come back together, cut "
                       f"to the last {max_lines} lines or {max_bytes} bytes.",
        #: before
        "description": "Run one shell command line; stdout and stderr come back together.",
        #: end
        "parameters": {
            "type": "object",
            "properties": {"command": {"type": "string", "description": "What to run."}},
            "required": ["command"],
        },
        "execute": execute,
        #: gap 13.1 1 the tool keys
        "snippet": "Run a shell command",
        "guidelines": ["Before running a command, say what it is for."],
        #: starter
        # bash's two keys: a one-line "snippet", and "guidelines" holding one sentence.
        # Tests: test_the_factories_carry_snippets_and_guidelines.
        #: guided
        # "snippet": one line of your own on what bash is for. "guidelines": a list of one
        # sentence of your own, say, what to do before running a command.
        #: end
    }
#: end
#: from 14.1


def guard(tool, check):
    """`tool` behind a door: the same dict, so neither the model nor the loop can tell, except
    that execute first asks check(name, arguments) for None (go ahead) or a reason to refuse.
    A refusal is raised as PermissionError, and run_tool turns it into the call's result. A
    check that raises has not said yes, so the call is refused: the door fails closed."""
    #: from 15.1
    #: given 15.1 async now: the real tool behind the door is awaited, signal and all (check stays plain)
    async def execute(arguments, signal=None):
    #: before
    def execute(arguments):
    #: end
        #: gap 14.1 1 the guarded execute
        try:
            reason = check(tool["name"], arguments)
        except Exception as exc:
            reason = f"the check failed: {exc}"
        if reason is not None:
            raise PermissionError(f"Tool call blocked: {reason}")
        #: from 15.1
        return await tool["execute"](arguments, signal)  # outside the try: not the door's business
        #: before
        return tool["execute"](arguments)  # outside the try: the tool's failures are not the door's
        #: end
        #: starter
        # The door. Once it is filled, for each call:
        #   - check(tool["name"], arguments) is asked once, before the real tool. The answer None
        #     lets the call through, and then the real tool's result, or its failure, is the
        #     call's own, unchanged.
        #   - any other answer is the reason for a refusal: the call raises PermissionError with
        #     the text "Tool call blocked: " and the reason after it, as text whatever its type,
        #     and the real tool never runs. run_tool (lesson 4) makes that the call's error
        #     result.
        #   - a check that breaks, with any Exception, has not said yes: the call is refused, and
        #     its reason is "the check failed: " followed by the text of what the check raised.
        #   - what the real tool raises is never reported as a refusal, and a lab.PowerCut, from
        #     the real tool or from the check, leaves the run, as it does from any tool.
        # Tests: test_an_allowed_call_runs, test_a_refusal_is_an_error_result,
        #   test_a_crashing_check_fails_closed, test_the_check_gets_name_and_arguments,
        #   test_only_none_lets_a_call_through, test_the_tools_own_failure_is_not_a_refusal,
        #   test_a_power_cut_passes_through_the_guard, test_nested_guards.
        pass
        #: guided
        # The door, in three steps:
        #   1. ask check(tool["name"], arguments) inside a try that catches Exception and
        #      nothing wider. If it raises, the reason is "the check failed: " followed by
        #      str() of the exception: a check that crashed has not said yes.
        #   2. if the reason is not None (compare with None itself: "" and False are reasons
        #      too), raise PermissionError with the text "Tool call blocked: " followed by
        #      str() of the reason, since a check may return something that is not a string.
        #      run_tool turns it into the call's result, and the real tool never runs.
        #   3. otherwise return what tool["execute"](arguments) returns. Call it after the try
        #      of step 1, outside it: what the real tool raises is its own failure, not a
        #      refusal, and a PowerCut must leave the run.
        # One of the lab's tests, an allow-list that raises for any command not on it:
        #     allowed = {"ls": None, "cat": None}
        #     check = lambda name, arguments: allowed[arguments["command"].split()[0]]
        #     a call of bash {"command": "rm -rf build"} behind guard(bash, check) gets the
        #     result "Tool call blocked: the check failed: 'rm'", is_error True
        pass
        #: end

    return {**tool, "execute": execute}


def deny_destructive(name, arguments):
    """A check for guard that refuses bash commands containing "rm -rf". It slows a careless
    model down and stops nothing determined: `rm -fr` walks past it."""
    #: gap 14.1 2 deny_destructive
    if name == "bash" and not isinstance(arguments.get("command"), str):
        return None  # not text, so it holds no rm -rf: the bash tool says what is wrong
    if name == "bash" and "rm -rf" in str(arguments.get("command")):
        return "rm -rf cannot be undone; if the user wants it, they can run it themselves."
    return None
    #: starter
    # A check. A bash call whose command contains "rm -rf", wherever it stands, gets a reason: a
    # sentence for the model, four words or more, in your own words, that names what it refuses,
    # rm -rf. Every other call gets None: other bash commands, a bash command that is not text
    # (bytes, a number, none at all), and every other tool, even a write whose content holds
    # "rm -rf".
    # Whether it refuses other spellings as well, such as "rm -fr", is yours to choose.
    # Tests: test_deny_destructive.
    pass
    #: guided
    #   1. a bash call whose command is not text (not a str: bytes, a number, or no command
    #      at all) gets None, since bash itself refuses it; ask this first, with isinstance,
    #      or the `in` of step 2 raises on bytes and test_deny_destructive fails.
    #   2. for a bash call (name is "bash") whose arguments["command"] contains "rm -rf",
    #      return your reason: a sentence for the model, in your own words, that names rm -rf
    #      and says why the call is refused and what it could do instead.
    #   3. anything else, other tools included: return None.
    # It reads the text and nothing more: a speed bump, not a wall.
    pass
    #: end


def confirm_with(human):
    """A check for guard that asks a person. Only an answer of True lets the call through;
    "yes", 1 or anything else is a no, because a door fails closed."""
    #: gap 14.1 3 confirm_with
    def check(name, arguments):
        if human.ask(f"Allow {name} {json.dumps(arguments)}?") is True:
            return None
        return "the user said no"
    return check
    #: starter
    # Returns a check, a function of (name, arguments), that puts one question to the person per
    # call (the same call again is asked again), through human.ask, and lets the call through
    # only on a clear yes; any other answer refuses it with the reason "the user said no". Which
    # answers are a clear yes is the lesson's question "Which calls run?". The question is
    # exactly "Allow NAME ARGUMENTS?",
    # the arguments as json.dumps writes them: Allow bash {"command": "rm -r build"}?
    # Arguments json.dumps cannot write (a set among them) are never put to the person: the call is
    # refused, the check broken ("the check failed: ...") or with "the user said no".
    # Tests: test_confirm_with_asks_the_person, test_one_question_per_call_in_order,
    #   test_only_true_is_yes.
    pass
    #: guided
    # Inside confirm_with, define the check, a function of (name, arguments), and return it.
    # The check:
    #   1. asks once, with human.ask, the text "Allow ", the name, a space, json.dumps of the
    #      arguments and "?", nothing else: Allow bash {"command": "ls"}? When json.dumps
    #      raises (a set among the arguments), let it: the check breaks, guard refuses the
    #      call, and the person is never asked about what they could not read exactly.
    #   2. returns None only when the answer is True itself: test it with `is`, since
    #      1 == True and 1.0 == True hold in Python. A door fails closed.
    #   3. otherwise returns the reason "the user said no".
    pass
    #: end
#: end


# == 3 loop ==
#: from 3.1
# The code that talks to the model. The model remembers nothing, so every request carries
# everything.
#: before
# Empty until lesson 3, whose loop is the code that talks to the model.
#: end
#: from 3.1


#: from 15.1
#: given 15.1 async now, since the model and the tools are awaited; and one new parameter, signal
async def run_agent(model, system, messages, tools, prompt, *, max_turns=None,
                    get_steering=None, get_follow_ups=None, signal=None):
    """Give `prompt` to the model and carry on until a reply asks for no tools, a reply comes
    back failed, `max_turns` model calls have been made, or `signal` (a CancelToken or None) is
    cancelled, which ends the run with an "aborted" message. An async generator of events.
#: before
#: from 9.1
#: given 9.1 two new parameters, get_steering and get_follow_ups
def run_agent(model, system, messages, tools, prompt, *, max_turns=None,
              get_steering=None, get_follow_ups=None):
#: before
#: from 5.1
#: given 5.1 a new parameter, max_turns
def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
#: before
#: given 3.1 the function's first line and its docstring; the loop is yours
def run_agent(model, system, messages, tools, prompt):
#: end
#: end
#: from 7.1
    """Give `prompt` to the model and carry on until a reply asks for no tools, a reply comes
    back failed, or `max_turns` model calls have been made. A generator of events.
#: before
#: from 5.1
    """Give `prompt` to the model and carry on until a reply asks for no tools, a reply comes
    back failed, or `max_turns` model calls have been made. Each of those ways out is recorded
    as the run's last message, never raised. `messages` is the caller's list and the record:
    the prompt, each reply, and one result per call, in call order, are appended to it as
    they happen. Each request carries the view of it that context_for_model makes."""
#: before
    """Give `prompt` to the model and carry on until a reply asks for no tools. `messages` is
    the caller's list and the record: the prompt, each reply, and one result per call, in call
    order, are appended to it as they happen, so a second run on the same list carries the
    conversation on. The system prompt travels beside the list, never inside it."""
#: end
#: end
#: end
#: from 7.1

    Events are dicts with a "type" that report what happened and draw nothing. They are
    balanced on every way out (agent_start ... agent_end, turn_start ... turn_end). Mutate, then
    announce: a message is appended to `messages`, the caller's list and the record, before
    its message_end is yielded, and nothing is yielded between a tool returning and its result
#: from 9.1
    being recorded. The final message is the last of agent_end's "messages".

    The user may speak mid-run. `get_steering` and `get_follow_ups` take no arguments and
    return a list of user messages, usually empty; the loop asks for steering once a turn's
    calls all have results, and for follow-ups only when the run would otherwise end. User
    messages enter only at the top of a turn. The loop never touches a queue."""
#: before
    being recorded. The final message is the last of agent_end's "messages"."""
#: end
#: end
    #: gap 7.1 1 the record helper
    added = []  # what this run puts on the record, for agent_end to carry

    def record(message):
        """Put `message` on the record first; only then build its message_end to yield."""
        messages.append(message)
        added.append(message)
        return {"type": "message_end", "message": message}
    #: from 9.1

    #: given 9.1 a helper that asks one of the callables, or gives [] for None
    def ask(get):
        return list(get()) if get else []
    #: end

    #: starter
    # Room for what the loop below needs to keep its promise about messages: each message the run
    # records is announced once, by {"type": "message_end", "message": message}, and only once it
    # is on the record (`messages`, the caller's list); agent_end carries this run's messages, in
    # order, and no earlier ones.
    # Tests: test_mutate_then_announce, test_every_message_announced_once.
    #: guided
    # Start `added`, an empty list of this run's messages, for agent_end to carry. Then a
    # helper defined in here, so that it sees `messages` and `added`: record(message) appends
    # `message` to both, then returns the event that announces it,
    #     {"type": "message_end", "message": message}
    # The loop uses it as `yield record(message)`, so no message can be announced before it
    # is on the record.
    #: end
    #: gap 7.1 2 the yields
    yield {"type": "agent_start"}
    #: gap 9.1 4 the loop, with the user's words at its gaps
    turn, todo, failed = 0, [], False
    pending = [user_message(prompt)] + ask(get_steering)  # steering sent while idle joins in
    while pending:  # once for the prompt, then once per follow-up
        while todo or pending:  # one lap is one turn
            turn += 1
            yield {"type": "turn_start"}
            for message in pending:
                yield record(message)
            pending = []
            #: from 15.1
            #: gap 15.1 5 run_agent, 1 of 3: the top of a turn
            if max_turns is not None and turn > max_turns:
                reply = error_message(f"Agent stopped after max_turns={max_turns}")
            elif signal is not None and signal.is_cancelled():
                reply = error_message(ABORTED, stop_reason="aborted")  # and no paid request
            else:
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools), signal)
            #: starter
            # 1 of 3, the top of a turn. Once the signal is cancelled, no further request is made:
            # the turn's reply is the "aborted" ending, whose error_message is ABORTED; a run past
            # max_turns still ends the max_turns way. A request that is made is handed the signal,
            # as acomplete's fourth argument.
            # Tests: test_stop_inside_a_batch, test_stop_before_the_first_step,
            #   test_stop_during_the_request, test_max_turns_keeps_precedence.
            if max_turns is not None and turn > max_turns:  # before the call, never after
                reply = error_message(f"Agent stopped after max_turns={max_turns}")
            else:
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools))
            #: guided
            # 1 of 3, the top of a turn. After the max_turns check and before the model call:
            # a cancelled signal makes the reply error_message(ABORTED, stop_reason="aborted"),
            # and the model is not called (after Stop, a request is money for nothing).
            # Otherwise the model is called as before, with the signal as a fourth argument.
            if max_turns is not None and turn > max_turns:  # before the call, never after
                reply = error_message(f"Agent stopped after max_turns={max_turns}")
            else:
                reply = await model.acomplete(system, context_for_model(messages),
                                              tool_specs(tools))
            #: end
            #: before
            if max_turns is not None and turn > max_turns:  # before the call, never after
                reply = error_message(f"Agent stopped after max_turns={max_turns}")
            else:
                reply = model.complete(system, context_for_model(messages), tool_specs(tools))
            #: end
            yield record(reply)
            #: gap 15.1 6 run_agent, 2 of 3: a stopped reply
            failed = reply["stop_reason"] in ("error", "aborted")
            #: starter +before
            # 2 of 3. A reply that ended "aborted" is treated as a failed one: nothing in it is
            # acted on, and nobody is asked for more.
            # Tests: test_a_follow_up_outlives_a_stop, test_a_steer_during_a_stopped_request_waits.
            #: guided +before
            # 2 of 3. A failed reply is not acted on, and nobody is asked for more. A stopped
            # one neither: the model itself answers "aborted" when Stop lands mid-request.
            #: before
            failed = reply["stop_reason"] == "error"
            #: end
            todo = [] if failed else tool_calls(reply)  # the calls this turn owes a result
            for call in todo:
                yield {"type": "tool_execution_start", "call": call}
                #: gap 15.1 7 run_agent, 3 of 3: the signal goes to run_tool
                result = await run_tool(tools, call, signal)
                #: starter
                # 3 of 3. Every call's tool hears the run's signal.
                # Tests: test_tools_are_handed_the_token.
                result = await run_tool(tools, call)
                #: guided
                # 3 of 3. run_tool needs the signal too.
                result = await run_tool(tools, call)
                #: before
                result = run_tool(tools, call)
                #: end
                yield record(result)  # straight after the tool returned: nothing in between
                yield {"type": "tool_execution_end", "call": call, "result": result}
            yield {"type": "turn_end", "message": reply}
            if not failed:
                pending = ask(get_steering)  # every call of this turn has its result
        if not failed:
            pending = ask(get_follow_ups)  # no calls and no steering: the run would end here
    #: starter +before
    # Below is lesson 8's loop, unchanged. Make it take in the user's words, at its gaps and
    # nowhere else; what it is handed is recorded at the top of a turn, as the prompt is.
    #   - get_steering, when there is one, is called as the run begins and after the turn_end
    #     of each turn whose reply did not fail, and at no other moment: never while a call of
    #     this run lacks its result. A steer sent while idle comes right after the prompt
    #     (U U A); one sent during c1 of [c1, c2] comes out U A[c1,c2] R(c1) R(c2) U A.
    #   - get_follow_ups, when there is one, is called only where the run would otherwise end:
    #     never after a turn whose reply had calls, never after a failed reply. What it gives
    #     is answered in this same run, in turns of its own, before the run's one agent_end;
    #     one queued during a run that fails waits for the next run.
    #   - Without either callable, the record and the events are lesson 8's.
    # Tests: test_a_steer_waits_for_the_batch, test_a_steer_sent_while_idle,
    #   test_a_follow_up_is_answered_in_the_same_run, test_a_follow_up_outlives_a_failed_run,
    #   test_every_request_of_a_steered_run_is_valid.
    #: guided +before
    # Below is lesson 8's loop. Four changes make it lesson 9's:
    #   1. Put it inside a second loop, `while pending:`, so that a follow-up can open more
    #      turns in the same run; the inner one goes on while calls are owed or `pending`
    #      holds messages, as now.
    #   2. Before both loops: `failed` starts False, and `pending` starts as the prompt's
    #      message followed by what ask(get_steering) gives, so that steering sent while idle
    #      joins the prompt's turn. (ask calls the function, or gives [] without one.)
    #   3. In the inner loop, after turn_end, every call of the turn has its result: unless
    #      the reply failed, set `pending` from ask(get_steering).
    #   4. After the inner loop, the run would end: unless the reply failed, set `pending`
    #      from ask(get_follow_ups). A failed run asks nobody for anything.
    # One of the lab's tests, a steer sent from inside c1 of the batch [c1, c2]:
    #     lab.shape(h.messages) == "U A[c1,c2] R(c1) R(c2) U A"
    #: before
    turn, calls, pending = 0, [], [user_message(prompt)]
    while calls or pending:  # one lap is one turn
        turn += 1
        yield {"type": "turn_start"}
        for message in pending:  # a user message enters only here, at the top of a turn
            yield record(message)
        pending = []
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        yield record(reply)
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        calls = [] if failed else tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)  # straight after the tool returned: nothing in between
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
    #: end
    yield {"type": "agent_end", "messages": added}  # the one way out, so every exit balances
    #: starter +before
    # run_agent becomes a generator of events that does lesson 6's work, in the same order, and
    # draws nothing. What must hold:
    #   - agent_start comes first and agent_end last, on every way out (an answer, max_turns, a
    #     failed reply), each once; agent_end carries "messages", the messages this run recorded
    #   - each turn is framed by turn_start and turn_end {"message": the turn's reply}
    #   - every message the run records is announced by a message_end, after it is on the record
    #   - tool_execution_start {"call": call} comes before a tool runs, and tool_execution_end
    #     {"call": call, "result": result} after its result is recorded; nothing is yielded between
    #     a tool returning and its result being recorded
    # Tests: test_the_twelve_events, test_every_exit_is_balanced, test_tool_events_carry_the_call,
    #   test_closing_after_a_tool_returned.
    #: guided +before
    # Lesson 6's loop, below, does the work and tells nobody until it returns. Make
    # run_agent a generator of events that does the same work, in the same order:
    #   - agent_start first of all, and agent_end {"messages": added} last, yielded from one
    #     place only, so that every way out (an answer, max_turns, a failed reply) passes it
    #   - turn_start opens each turn, and the prompt is recorded right after the first one
    #   - `yield record(message)` for each message: the prompt, each reply, each result
    #   - tool_execution_start {"call": call} before a tool runs; tool_execution_end
    #     {"call": call, "result": result} once its result is recorded, and no yield between
    #     run_tool returning and that record
    #   - turn_end {"message": reply} closes each turn
    # A run with one call yields twelve events: agent_start, turn_start, message_end (U),
    # message_end (A), tool_execution_start, message_end (R), tool_execution_end, turn_end,
    # turn_start, message_end (A), turn_end, agent_end.
    #: before
    #: gap 3.1 3 the loop
    messages.append(user_message(prompt))
    #: from 5.1
    turn = 0
    #: end
    while True:
        #: from 5.1
        #: given 5.1 a count of model calls, for the check at the top of each turn
        turn += 1
        #: end
        #: gap 5.1 2 the top of a turn
        if max_turns is not None and turn > max_turns:  # before the call, never after
            reply = error_message(f"Agent stopped after max_turns={max_turns}")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        #: starter +before
        # The cap, and what a request carries. Given max_turns=N, the run makes at most N requests,
        # none when N is 0. When the cap ends a run, every call of every reply it got has its
        # result, and its last message is an ending made by error_message, whose text is the
        # sentence "Agent stopped after max_turns=N" (the number in place of N). max_turns=None:
        # no cap.
        # Each request carries the view of the record that gap 4 makes, never the record itself.
        # Tests: test_max_turns_stops_an_endless_run, test_the_last_batch_is_answered,
        #   test_turns_are_model_calls.
        #: guided +before
        # The line below asks the model whatever happens. Two changes at the top of a turn:
        #   - when max_turns is not None and this turn is past it, the reply is
        #     error_message(f"Agent stopped after max_turns={max_turns}") and the model is
        #     not called. Check before the request, never after it: a reply that was paid
        #     for and then thrown away is money for nothing.
        #   - otherwise the request carries the view, context_for_model(messages), instead
        #     of the record itself
        #: before
        reply = model.complete(system, messages, tool_specs(tools))
        #: end
        messages.append(reply)
        #: gap 5.1 3 the failed branch
        failed = reply["stop_reason"] == "error"  # recorded, and not acted on
        calls = [] if failed else tool_calls(reply)
        #: starter +before
        # A reply whose stop_reason is "error" failed, whatever its error_message holds (it can be
        # empty, or None on a reply that did not fail). It stays on the record (above) and ends the
        # run: none of its calls runs, and the model is not asked again.
        # Tests: test_a_failed_reply_is_not_acted_on,
        # test_a_reply_cut_off_at_the_output_limit_runs_none_of_its_calls.
        #: guided +before
        # A reply whose stop_reason is "error" failed: the provider gave up, and says so in
        # the reply itself. It is recorded (above) and nothing in it is acted on: none of
        # its calls run, and nobody is asked again. The max_turns stop is such a reply too.
        #: before
        calls = tool_calls(reply)
        #: end
        for call in calls:  # every call, in order, before the model is asked again
            messages.append(run_tool(tools, call))
        if not calls:  # the content decides, not the stop_reason label
            return
    #: starter
    # The run. When it returns, `messages` (the caller's own list, and the record) holds what it
    # held before, then the prompt, word for word, as a user message, then every reply and every
    # result, in the order they happened. Each request to the model carries the whole record so
    # far, `system` unchanged beside it (never inside it), and tool_specs(tools) as the list is
    # when it is sent (a tool added during a run is told from the next request on). Every call of
    # a reply has its result from run_tool on the record, in call order, before the next request.
    # What a reply asks for is read off its content (tool_calls), never off its stop_reason, and
    # the run ends at the first reply that asks for nothing. How many rounds a job takes is not
    # known in advance. What run_agent returns is not part of the contract.
    # Tests: test_a_plain_reply, test_one_call_then_an_answer, test_a_batch_is_answered_in_order,
    #   test_two_rounds, test_any_number_of_rounds, test_the_callers_list_is_the_record,
    #   test_a_long_conversation_is_sent_whole, test_every_request_carries_the_specs,
    #   test_words_and_a_call, test_the_content_decides.
    #: guided
    # The loop, in four steps:
    #   1. append user_message(prompt) to `messages`: the caller's list is the record
    #   2. ask: model.complete(system, messages, tool_specs(tools)); append the reply
    #   3. run each call of the reply, in order, with run_tool, and append each result
    #   4. a reply with calls means back to step 2; a reply with none ends the run
    # Keep no list of your own, and put the system prompt in no message: it travels beside
    # the list. What run_agent returns is not part of the contract. One of the lab's tests:
    #     model = lab.ScriptedModel([lab.reply(lab.call("look", {"path": "a.py"})),
    #                                lab.say("Done.")])
    #     run_agent(model, SYSTEM, messages, [look], "Look at a.py.")
    #     lab.shape(messages) == "U A[c1] R(c1) A"
    #     lab.shape(model.calls[1].messages) == "U A[c1] R(c1)"     # it remembers nothing
    #: end
    #: end
#: end
#: from 5.1


def context_for_model(messages):
    #: from 15.1
    """The view: what the model is sent, built fresh for every request from the record, which
    it never changes. Empty assistant messages that failed or were stopped are left out (one
    that got words or a call out stays), then every call is paired with its result."""
    #: before
    #: from 10.1
    """The view: what the model is sent, built fresh for every request from the record, which
    it never changes. Empty assistant messages that failed are left out (a failed one that got
    words out stays), then every call is paired with its result."""
    #: before
    """The view: what the model is sent, built fresh for every request from the record, which
    it never changes. An empty assistant message that failed is left out, because a provider
    refuses an empty assistant message; a failed one that got words out stays."""
    #: end
    #: end
    #: gap 5.1 4 context_for_model
    #: gap 15.1 8 context_for_model
    endings = ("error", "aborted")  # empty endings a provider would refuse
    #: starter +before
    # Lesson 10's view. An empty "aborted" ending is refused by a provider just as an empty "error"
    # one is: the view leaves out both. Empty means no content at all: one that got a call out,
    # with no words, stays, its call answered as any call with no result is.
    # Tests: test_the_next_request_after_a_stop.
    #: guided +before
    # Lesson 10's body. Stop brings a second kind of empty ending, "aborted", and a provider
    # refuses it just as it refuses an empty "error" message: leave both out. Empty means no
    # content at all: an ending that holds a call and no words stays.
    #: before
    endings = ("error",)  # the empty ending a provider would refuse
    #: end
    kept = [message for message in messages
            if message["content"] or message["role"] != "assistant"
            or message.get("stop_reason") not in endings]
    #: gap 10.1 2 context_for_model
    return repair_tool_history(kept)
    #: starter +before
    # Every request's view is repaired: whatever holes the record has, what lesson 5's filter keeps
    # reaches the model with each call answered once, by repair_tool_history. The record is never
    # touched.
    # Tests: test_context_for_model_filters_then_repairs, test_a_power_cut_mid_batch.
    #: guided +before
    # Lesson 5's filter, above, stays. What it keeps can still hold a call with no result (a
    # run closed mid-batch, a power cut, a failed reply that asked for tools), and a provider
    # refuses such a list. Return the kept list repaired: repair_tool_history(kept). The view
    # is repaired for every request; the record is never touched.
    #: before
    return kept
    #: end
    #: starter
    # The view of the record that a request carries: a new list (even when nothing is left out)
    # of the record's messages in order, less each assistant message that has no content and
    # stop_reason "error" (a provider refuses an empty assistant message; one that got words out
    # stays). The record is not changed.
    # Tests: test_context_for_model, test_the_request_after_a_failure.
    #: guided
    # Return a new list of the record's messages, in order, leaving out each assistant
    # message whose content is empty and whose stop_reason is "error". Change nothing in
    # the record: it says what happened, and the next run's requests are built from it too.
    # One of the lab's tests, on a record shaped U A[c1] R(c1) A(error) whose last message
    # is error_message("overloaded"):
    #     lab.shape(context_for_model(record)) == "U A[c1] R(c1)"
    #     lab.shape(record) == "U A[c1] R(c1) A(error)"        # still all four
    #: end
#: end
#: from 10.1


#: given 10.1 the exact words the model reads in place of a result that was never recorded
INTERRUPTED = ("Tool call interrupted: no result was recorded. It may not have run, or may have "
               "run partly; check before repeating it.")


def repair_tool_history(messages):
    """A new list of the same message objects in which every call is followed at once by
    exactly one result, in call order: a recorded result is moved into place, the first of
    two wins, a result with no call is dropped (its arguments are unknown, so no call can be
    made up), and a call with no result gets INTERRUPTED, is_error True. Pure, idempotent,
    and equal to its input when that is already valid. Call ids are taken to be unique."""
    #: gap 10.1 1 repair_tool_history
    answer = {}  # call id -> the first result recorded for it
    for message in messages:
        if message["role"] == "toolResult" and message["tool_call_id"] not in answer:
            answer[message["tool_call_id"]] = message
    view = []
    for message in messages:
        if message["role"] == "toolResult":
            continue  # results come back in below, each straight after its own call
        view.append(message)
        for call in tool_calls(message) if message["role"] == "assistant" else ():
            view.append(answer.get(call["id"]) or {
                "role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                "content": INTERRUPTED, "is_error": True})
    return view
    #: starter
    # Returns a new list in which every call is followed at once by exactly one result for it, the
    # results of a reply in the order of its calls. A recorded result is the one used (the first
    # recorded, when a call has two), and whatever stood between it and its call stays, after the
    # batch; a result that answers no call is not in the list; a call with no recorded result gets
    # a new toolResult with its id and tool name, INTERRUPTED as the content, and is_error true.
    # Messages taken from `messages` are the same objects, and `messages` is not changed. A valid
    # list comes back equal, and repairing twice gives what repairing once gave.
    # Tests: test_a_missing_result_is_filled_in, test_results_are_put_in_call_order,
    #   test_the_first_of_two_results_wins, test_an_orphan_result_is_dropped,
    #   test_repair_is_idempotent_and_pure.
    pass
    #: guided
    # Build the view in two passes over `messages`, and change nothing in it:
    #   1. note the first toolResult recorded for each tool_call_id (a second one is ignored)
    #   2. copy every message that is not a toolResult, in order; straight after an assistant
    #      message, put one result per call of it, in call order: the one noted for the
    #      call's id, or, when there is none, a new one,
    #          {"role": "toolResult", "tool_call_id": id, "tool_name": name,
    #           "content": INTERRUPTED, "is_error": True}
    # Results are only ever placed after their call, so a result no call asked for is left
    # out: nobody knows what its call would have said. The list is new; the messages in it
    # are the same objects. One of the lab's tests, on a record that stops at U A[c1]:
    #     lab.shape(repair_tool_history(record)) == "U A[c1] R(c1)"
    #     lab.shape(record) == "U A[c1]"                      # the record is left alone
    pass
    #: end
#: end


# == 4 harness ==
#: from 8.1
# One transcript, one writer. The loop holds the mechanics and no state; the Harness holds the list.
#: before
# Empty until lesson 8, which gives the transcript a single owner.
#: end
#: from 15.1


#: given 15.1 the class statement and its docstring
class CancelToken:
    """One run's Stop flag. cancel() sets it and nothing more: a run stops only where slow code
    looks at it (the loop at each turn's top, run_tool before each call, the model, a tool that
    polls). Any object with is_cancelled() can serve as a signal."""
    #: gap 15.1 9 CancelToken
    def __init__(self):
        self._cancelled = False

    def cancel(self):
        self._cancelled = True

    def is_cancelled(self):
        return self._cancelled
    #: starter
    # One run's Stop flag, with cancel() and is_cancelled() -> bool. A new token is not cancelled;
    # once cancelled, it stays cancelled.
    # Tests: test_the_token_and_the_two_checks.
    #: guided
    # Three methods: __init__(self), cancel(self), is_cancelled(self) -> bool.
    # A new token is clear; once cancelled it stays cancelled.
    #: end
#: end
#: from 8.1


#: from 15.1
#: given 15.1 the docstring's entry for cancel()
#: end
#: given 8.1 the class line and its docstring; the methods are yours
class Harness:
    """The one owner of a transcript, and of what stays the same between runs (model, system
    prompt, tools, max_turns). One run at a time writes to the transcript.

    Harness(model, system, tools, messages=(), max_turns=None) copies `messages` into a list of
    its own; the dicts in it are shared, not copied.
      .messages        a tuple: a snapshot nobody outside can append to or pop from.
      .is_running      True from prompt() until that run is exhausted, closed or dies, or
                       until nobody holds it any more.
      .prompt(text)    the run: run_agent's events over the harness's own list. It refuses a
                       second run at once, on the caller's line, with RuntimeError("already
                       running; use steer() or follow_up()"), so it is a plain def.
    #: from 9.1
      .steer(text), .follow_up(text)
                       queue a user message, at any time: steering for the next gap between
                       turns, a follow-up for when the run would otherwise end. The loop is
                       handed one per ask, and a message leaves its queue only once it is on
                       the record, so stopping a run never loses one. Queues outlive runs.
    #: end
    #: from 11.1
      .subscribe(listener)
                       listener(event) hears every event of every run, after the record has
                       changed and before the consumer does. Returns the function that undoes
                       it. A listener that raises ends the run: a saver that cannot save must
                       not be quiet about it.
    #: end
    #: from 12.2
      .replace_messages(messages)
                       a whole new transcript, for whoever rebuilt it from the log. Refused
                       during a run.
    #: end
    #: from 15.1
      .cancel()        Stop: cancels the current run's token from the moment prompt() returns.
                       Each run gets a fresh token, so a late Stop, when idle, does nothing.
    #: end
    """

    def __init__(self, model, system, tools, messages=(), max_turns=None):
        #: gap 8.1 1 __init__
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
        self._run_now = None  # a weak reference to the run prompt() handed out last
        #: from 9.1
        #: given 9.1 two queues, kept by the harness so that they outlive any one run
        self._steering_queue, self._follow_up_queue = deque(), deque()
        #: end
        #: from 11.1
        #: given 11.1 the listeners, in the order they subscribed
        self._listeners = []
        #: end
        #: gap 15.1 10 Harness
        self._signal = CancelToken()  # so that cancel() always has something to set
        #: starter
        # Stop, for the harness (this gap opens here, in prompt, in cancel and in _run). Each run
        # has a CancelToken of its own, handed to run_agent as its signal. A Stop pressed any time
        # after prompt() returns stops that run, even before its first step; cancel() when nothing
        # runs (before any prompt, or after a run) does nothing that a later run could notice, and
        # raises nothing. One test, a Stop pressed by the first of three calls, checks
        #     lab.shape(h.messages) == "U A[c1,c2,c3] R(c1) R(c2) R(c3) A(aborted)"
        #     len(model.calls) == 1          # no request paid for after the Stop
        # Tests: test_stop_inside_a_batch, test_stop_before_the_first_step,
        #   test_cancel_when_idle_is_harmless.
        #: guided
        # Lesson 14's Harness, recoloured. About five new lines, in three places:
        #   - here and in prompt: a fresh CancelToken for every run, kept on self and made on
        #     the line where the run is made, before is_running can turn True, so a Stop pressed
        #     before the run's first step still counts; __init__ makes one too, so that
        #     cancel() always has a token to set
        #   - cancel: cancel the current run's token; when nothing runs it must do nothing
        #     and must not raise
        #   - _run: hand the token to run_agent as signal=
        # One of the lab's tests. One reply asks for three tools; the first, while it runs,
        # does what a user at the keyboard would:
        #     def look(arguments):                    # c1 of the batch [c1, c2, c3]
        #         if arguments["path"] == "a.py":
        #             h.cancel()
        #         return "contents of " + arguments["path"]
        #     await lab.drive(h.prompt("Look at all three files."))
        #     lab.shape(h.messages) == "U A[c1,c2,c3] R(c1) R(c2) R(c3) A(aborted)"
        #     len(model.calls) == 1                   # no paid request after Stop
        #: end
        #: starter
        # The harness keeps what stays the same between runs: all that run_agent needs besides the
        # transcript and the prompt, the tools as a list of its own, and a cap on turns that holds
        # for every run. Its transcript is a new list of what it was given, which nobody else can
        # append to; the dicts in it are shared, not copied. Until the first prompt() there is no
        # run.
        # Tests: test_the_list_passed_in_is_copied, test_max_turns_applies_to_every_run,
        #   test_every_request_carries_system_and_specs.
        pass
        #: guided
        # Keep what stays the same between runs: the model, the system prompt, a list of the
        # tools, max_turns. Copy `messages` into a new list that only this harness writes to
        # (the dicts in it are shared: a copy of the list, not of every message). And keep a
        # place for the run prompt() hands out last: None until the first prompt.
        pass
        #: end

    @property
    def messages(self):
        #: gap 8.1 2 the two properties
        return tuple(self._messages)
        #: starter
        # A snapshot of the transcript, made on every read: a tuple the caller may keep, which no
        # later run changes and which cannot be appended to.
        # Tests: test_a_snapshot_is_frozen, test_the_snapshot_at_every_event.
        pass
        #: guided
        # A tuple of the harness's messages, made on every read: a snapshot that the caller
        # can keep, and cannot append to or pop from.
        pass
        #: end

    @property
    def is_running(self):
        #: gap 8.1 2 the two properties
        run = self._run_now and self._run_now()  # None once nobody holds the run
        #: from 15.1
        #: given 15.1 ag_frame: an async generator keeps its frame there, not in gi_frame
        return run is not None and run.ag_frame is not None  # a finished run has no frame
        #: before
        return run is not None and run.gi_frame is not None  # a finished run has no frame
        #: end
        #: starter
        # False before the first prompt(). True from the moment prompt() returns until that run is
        # over: exhausted, closed (even before its first step), killed by an exception, or let go
        # of by everyone who held it. No way out of a run may leave it True.
        # Tests: test_is_running, test_breaking_out_ends_the_run,
        #   test_a_run_closed_before_it_starts.
        pass
        #: guided
        # True from prompt() until that run is exhausted, closed or dies, or until nobody
        # holds it any more. Read it off the run itself rather than keeping a flag: a
        # generator has a frame (run.gi_frame) until it is over, however it ends, even when
        # it is closed before its first step. What prompt() kept is a weak reference: call
        # it, and None means the run is gone. False before the first prompt.
        pass
        #: end

    def prompt(self, text):
        #: gap 8.1 3 prompt
        if self.is_running:  # refused now, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        #: gap 15.1 10 Harness
        self._signal, run = CancelToken(), self._run(text)  # one line: one beginning
        #: starter +before
        #: before
        run = self._run(text)
        #: end
        self._run_now = weakref.ref(run)  # weak: a run its consumer let go of is over
        return run
        #: starter
        # Hands back the run that self._run(text) makes, with nothing of it done yet; the consumer
        # who takes it is the one who keeps it alive. While a run is in progress it raises
        # RuntimeError with the text "already running; use steer() or follow_up()", at once, on
        # the caller's line, and the run in progress carries on as if nothing had happened.
        # Tests: test_a_second_prompt_is_refused, test_walking_away_ends_the_run.
        pass
        #: guided
        # A plain def, so that it acts on the caller's line: while a run is in progress,
        # raise RuntimeError("already running; use steer() or follow_up()") right here.
        # Otherwise make the run, self._run(text), keep a weak reference to it,
        # weakref.ref(run), where is_running can see it, and return the run itself. Only the
        # consumer holds the run: one that breaks out of its loop and lets go of the run has
        # ended it. Calling _run runs none of its body: the first event does.
        # One of the lab's tests:
        #     run = h.prompt("Read a.py.")
        #     h.is_running is True and len(model.calls) == 0    # nothing has happened yet
        #     h.prompt("Something else.")   # raises RuntimeError, already running, at once
        pass
        #: end
    #: from 9.1

    def steer(self, text):
        """Queue `text` for the next gap between turns."""
        #: gap 9.1 1 steer
        self._steering_queue.append(user_message(text))
        #: starter
        # Only queues. Afterwards the words wait as a user message, word for word (a blank text is
        # the user's too), behind any sent before them, for the loop to take them in at its next
        # gap. Nothing is recorded and no run is touched, so it works, and raises nothing, running
        # or idle.
        # Tests: test_a_steer_waits_for_the_batch, test_a_steer_sent_while_idle,
        #   test_the_words_go_in_as_they_were_given.
        pass
        #: guided
        # Put user_message(text) at the back of self._steering_queue, the deque __init__ made,
        # and nothing else: no run is touched, nothing is recorded, and it works whether or not
        # a run is going.
        pass
        #: end

    def follow_up(self, text):
        """Queue `text` for when the run would otherwise be over."""
        #: gap 9.1 2 follow_up
        self._follow_up_queue.append(user_message(text))
        #: starter
        # Only queues, as steer does, but these words wait for the end of the run: the moment it
        # would otherwise be over. Running or idle, nothing is recorded and nothing is raised.
        # Tests: test_a_follow_up_is_answered_in_the_same_run, test_a_follow_up_sent_while_idle,
        #   test_the_words_go_in_as_they_were_given.
        pass
        #: guided
        # As steer, on the other queue, self._follow_up_queue.
        pass
        #: end
    #: end
    #: from 11.1

    def subscribe(self, listener):
        """Have listener(event) hear every event of every run; returns the undo."""
        #: gap 11.1 5 subscribe and _notify
        def hear(event):  # this subscription's own entry: no other is equal to it, so its
            listener(event)  # undo cannot take off an equal listener's subscribed earlier

        self._listeners.append(hear)

        def unsubscribe():
            if hear in self._listeners:  # once only: a second call takes off nothing
                self._listeners.remove(hear)
        return unsubscribe
        #: starter
        # From now on `listener` hears every event of every run, until the undo this returns (a
        # function of no arguments) is called. Each undo takes off its own subscription, once: with
        # a listener subscribed twice, one undo leaves it hearing each event once, and calling that
        # undo again changes nothing and raises nothing.
        # Tests: test_unsubscribe, test_each_undo_takes_off_one_subscription.
        pass
        #: guided
        # Add to self._listeners an entry that is this subscription's own (a small function,
        # new at each call, that calls `listener`), and return a function of no arguments that
        # takes that entry out if it is still there. Calling it a second time then does
        # nothing and raises nothing. Taking out `listener` itself would not do: list.remove
        # takes off the first equal item, so with the same listener subscribed twice, undoing
        # the second would take off the first, and the listeners would no longer hear in the
        # order they subscribed.
        pass
        #: end
    #: end
    #: from 12.2

    def replace_messages(self, messages):
        #: gap 12.2 1 replace_messages
        if self.is_running:
            raise RuntimeError("cannot replace messages during a run")
        self._messages = list(messages)
        #: starter
        # Between runs, the harness's transcript becomes a new list of `messages`, the list its own
        # and the messages shared, as in __init__. During a run the list belongs to the run: nothing
        # changes, and it raises a RuntimeError whose message is "cannot replace messages during a
        # run".
        # Tests: test_nothing_replaces_the_transcript_mid_run, test_maybe_compact.
        pass
        #: guided
        # The harness's transcript becomes a new list of `messages` (the list copied, the
        # messages shared, as in __init__). During a run the list belongs to the run, so
        # refuse: raise RuntimeError("cannot replace messages during a run").
        pass
        #: end
    #: end
    #: from 15.1

    def cancel(self):
        #: gap 15.1 10 Harness
        self._signal.cancel()  # when idle, the token of a run that is over: no effect
        #: starter
        pass
        #: end
    #: end
    #: from 11.1

    def _notify(self, event):
        #: gap 11.1 5 subscribe and _notify
        for listener in list(self._listeners):  # a copy: a listener may unsubscribe itself
            listener(event)
        #: starter
        # Every listener subscribed when `event` began hears it, in the order they subscribed, even
        # when one of them unsubscribes itself or another while it hears it. A listener subscribed
        # while an event is being heard hears the events after it, not that one. A listener that
        # raises (a log that cannot be written) ends the run with its own exception.
        # Tests: test_a_listener_hears_every_event_first, test_a_raising_listener_ends_the_run.
        pass
        #: guided
        # Call each listener with `event`, in the order they subscribed. Loop over a copy of
        # the list: a listener may unsubscribe while it is being called, or subscribe another,
        # which hears the events after this one, not this one. Catch nothing: a
        # listener that raises (a log that cannot be written) must end the run.
        pass
        #: end
    #: end
    #: from 9.1

    def _drain(self, queue):
        """What the loop is handed when it asks: the oldest queued message, or nothing. It
        stays queued until it is on the record."""
        #: gap 9.1 3 the hand-over
        return [queue[0]] if queue else []
        #: starter
        # The loop is handed at most one message per ask, the oldest waiting in `queue`, or []
        # when none waits. A message leaves its queue once it is on the record, and not before:
        # one handed over and never recorded (the run was closed between the ask and the
        # recording) is handed over again by the next ask; one on the record never is. Only the
        # message handed over leaves: never another, even one with the same words.
        # Tests: test_two_steers_arrive_one_per_turn,
        #   test_a_steer_survives_a_run_closed_before_it_is_recorded,
        #   test_the_words_go_in_as_they_were_given.
        return []
        #: guided
        # A list holding the oldest message of `queue`, or [] when it is empty: one message
        # per ask, so two steers arrive in two turns, oldest first. Leave the message on the
        # queue: _delivered, below, takes it off once _run has seen it recorded, so that a
        # run which ends between the asking and the recording cannot lose it.
        return []
        #: end

    def _delivered(self, message):
        """_run calls this with every message its run has put on the record, the moment its
        message_end goes by: the prompt, replies and results as well as queued words."""
        #: gap 9.1 3 the hand-over
        for queue in (self._steering_queue, self._follow_up_queue):
            if queue and queue[0] is message:  # that very dict: equal words are another message
                queue.popleft()
        #: starter
        # Gap 3, continued.
        pass
        #: guided
        # If `message` is the very dict at the front of one of the two queues (`is`, not ==:
        # the prompt, or a steer and a follow-up, can say the same words as a queued message
        # and still be another message), take it off that queue with popleft(). Any other
        # message leaves the queues as they are.
        pass
        #: end
    #: end

    #: from 15.1
    async def _run(self, text):
        """The run prompt() hands out: run_agent over the harness's own list, each event
        passed to the listeners, then on to the consumer."""
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns,
                        get_steering=lambda: self._drain(self._steering_queue),
                        #: gap 15.1 10 Harness
                        get_follow_ups=lambda: self._drain(self._follow_up_queue),
                        signal=self._signal)
                        #: starter
                        get_follow_ups=lambda: self._drain(self._follow_up_queue))
                        #: end
        try:
            async for event in inner:
                if event["type"] == "message_end":
                    self._delivered(event["message"])
                self._notify(event)  # listeners first: a consumer that stops listening to
                yield event  # the run cannot stop them hearing what happened
        finally:  # exhausted, closed by the consumer, or dying
            await inner.aclose()
    #: before
    def _run(self, text):
        """The run prompt() hands out: run_agent over the harness's own list."""
        #: gap 8.1 4 _run
        #: from 9.1
        #: given 9.1 two callables, one message per ask; _delivered told of each message
        #: end
        inner = run_agent(self._model, self._system, self._messages, self._tools, text,
        #: from 9.1
                        max_turns=self._max_turns,
                        get_steering=lambda: self._drain(self._steering_queue),
                        get_follow_ups=lambda: self._drain(self._follow_up_queue))
        #: before
                        max_turns=self._max_turns)
        #: end
        try:
            for event in inner:
                #: from 9.1
                if event["type"] == "message_end":
                    self._delivered(event["message"])
                #: end
                #: gap 11.1 5 subscribe and _notify
                self._notify(event)  # listeners first: a consumer that stops listening to
                yield event  # the run cannot stop them hearing what happened
                #: starter +before
                # The listeners hear every event of the run, each one before the consumer gets it: a
                # consumer that walks away after an event cannot keep the log from having heard it.
                # Tests: test_a_listener_hears_every_event_first,
                #   test_the_log_is_written_before_the_consumer_hears.
                #: guided +before
                # Every event goes to self._notify first, then to the consumer: a consumer
                # that walks away after an event must not stop the log from having heard it.
                #: before
                yield event
                #: end
        finally:  # exhausted, closed by the consumer, or dying
            inner.close()
        #: starter
        # The run prompt() hands out: a generator that passes on each event of run_agent over the
        # harness's own transcript, with all that the harness keeps for every run. However the run
        # ends (exhausted, left by its consumer, or dying), run_agent's own generator ends with it.
        # Tests: test_run_two_continues_run_one, test_the_snapshot_at_every_event,
        #   test_walking_away_ends_the_run, test_the_inner_run_ends_with_the_run.
        pass
        #: guided
        # A generator: run_agent over the harness's own list, with its model, system prompt,
        # tools and max_turns, handing on each event. Whoever consumes the run may stop early
        # (a break, close()), or the run may die; on every such way out the inner run must be
        # closed too, so put the loop in a try whose finally closes it.
        pass
        #: end
    #: end
#: end


# == 5 frontends ==
#: from 7.2
# A frontend folds over one run's events: render(event) for each, then finish(), which says
# whether the run ended well. The loop never learns what its events look like on screen.
#: before
# Empty until lesson 7, whose frontends draw a run from its events.
#: end
#: from 15.1
#: given 15.1 a run the user stopped ("aborted") did not end well either
#: end
#: from 7.2


#: given 7.2 the class lines, docstrings and def lines; the method bodies are yours
class JsonRenderer:
    """Every event as a line of JSON on standard output, for a program at the other end."""

    def __init__(self):
        #: gap 7.2 1 JsonRenderer
        self.failed = False
        #: starter
        # A new renderer has seen no events, and finish() on it says the run ended well. What
        # it keeps between two events, and in what form, is yours.
        # Tests: test_nothing_to_show.
        pass
        #: guided
        # One thing to remember between events: whether a message announced so far failed.
        # Nothing has failed yet.
        pass
        #: end

    def render(self, event):
        #: gap 7.2 1 JsonRenderer
        print(json.dumps(event), flush=True)
        ended = event["message"].get("stop_reason") if event["type"] == "message_end" else None
        #: from 15.1
        if ended in ("error", "aborted"):
        #: before
        if ended == "error":
        #: end
            self.failed = True
        #: starter
        # Handed each event of a run as it comes (Build item 1): the event is on standard output
        # before render returns, and the run's verdict takes it into account now, so that what a
        # consumer writes into the event afterwards changes neither.
        # Tests: test_json_renderer, test_a_failed_run_did_not_end_well.
        pass
        #: guided
        # Print json.dumps(event) with flush=True: one line, on its way before render returns.
        # Then, if the event is a message_end whose message has stop_reason "error", note that
        # the run did not end well.
        pass
        #: end

    def finish(self):
        #: gap 7.2 1 JsonRenderer
        return not self.failed
        #: starter
        # Called once the run is over. Prints nothing; returns whether the run ended well, by
        # Build item 1's rule.
        # Tests: test_a_failed_run_did_not_end_well, test_nothing_to_show.
        pass
        #: guided
        # False if a failed message came by, True otherwise. No print.
        pass
        #: end


class FinalTextRenderer:
    """The answer alone, printed once at the end, for `> answer.txt`. finish() prints the last
    assistant message's text and returns True; when that message failed
    #: from 15.1
    (or the user stopped its run), it prints "Error: <its error_message>" and returns False."""
    #: before
    it prints "Error: <its error_message>" instead, and returns False."""
    #: end

    def __init__(self):
        #: gap 7.2 2 FinalTextRenderer
        self.last = None  # the newest assistant message so far
        #: starter
        # A new renderer has seen no events. What it keeps between two events is yours.
        # Tests: test_nothing_to_show.
        pass
        #: guided
        # Keep a place for the newest assistant message announced: none yet.
        pass
        #: end

    def render(self, event):
        #: gap 7.2 2 FinalTextRenderer
        message = event.get("message")
        if event["type"] == "message_end" and message["role"] == "assistant":
            self.last = message
        #: starter
        # Handed each event of a run as it comes. Prints nothing: this frontend speaks once, at
        # the end (Build item 2).
        # Tests: test_final_text_renderer, test_the_last_message_decides.
        pass
        #: guided
        # Print nothing. When the event is a message_end announcing an assistant message, keep
        # that message: the newest one is the one that decides.
        pass
        #: end

    def finish(self):
        #: gap 7.2 2 FinalTextRenderer
        reply = self.last
        if reply is None:
            return False
        #: from 15.1
        if reply["stop_reason"] in ("error", "aborted"):
        #: before
        if reply["stop_reason"] == "error":
        #: end
            print(f"Error: {reply.get('error_message')}")
            return False
        print(text_of(reply))
        return True
        #: starter
        # Called once the run is over: prints once and returns whether the run ended well. Which
        # line, and which answer, Build item 2 says, for each way a run can end.
        # Tests: test_final_text_renderer, test_a_failed_run_did_not_end_well,
        #   test_the_last_message_decides, test_nothing_to_show.
        pass
        #: guided
        # Three cases, from the message render kept:
        #   - none came by: print nothing, return False
        #   - its stop_reason is "error": print f"Error: {its error_message}", return False
        #   - otherwise print text_of(it) and return True
        pass
        #: end
#: end
#: from 15.2


async def stop_run(harness, task, grace=5):
    """Stop the run that `task` consumes: ask, wait a little, then insist. harness.cancel()
    sets the flag, and code that looks at it has `grace` turns of the event loop to wind up
    ("clean"). Otherwise the task is cancelled, which raises CancelledError inside whatever it
    awaits, and is waited for ("hard"). Either way the task is over on return. Only the task's
    own CancelledError is swallowed: if stop_run is itself being cancelled, that goes on up."""
    #: gap 15.2 2 stop_run
    if task.done():  # over already: nothing to stop, and the harness's run may be another one
        return "clean"
    harness.cancel()
    for _ in range(grace):
        if task.done():
            break
        await asyncio.sleep(0)  # a turn for the run to notice
    if task.done():
        return "clean"
    task.cancel()
    try:
        await task  # a cancelled task nobody waits for is a task nobody knows is over
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():  # somebody is cancelling stop_run itself
            raise
    if asyncio.current_task().cancelling():  # the task swallowed stop_run's own cancellation,
        raise asyncio.CancelledError()  # which awaiting it handed on: it still goes on up
    return "hard"
    #: starter
    # On return the task is over, and the answer says how. A task over already is "clean" at once,
    # and nothing is asked of the harness, whose run may by now be another one. Otherwise the run
    # is first asked to stop through the harness; if, within `grace` turns of the event loop, the
    # task is done (however it ended), the answer is "clean" (and no turn is spent waiting once it
    # is done). Otherwise the task is cancelled and waited for until it is over, and the answer is
    # "hard". The harness is asked once, and a grace below 0 counts as 0. The task's own
    # CancelledError is swallowed; a cancellation aimed at stop_run itself goes on up, once the
    # task it insisted on is over.
    # Tests: test_stop_run_is_clean_when_the_tool_looks,
    #   test_stop_run_insists_when_the_tool_is_deaf, test_grace_is_counted_in_turns,
    #   test_stop_run_can_itself_be_stopped.
    #: guided
    # About eighteen lines, in this order:
    #   1. if task.done(), return "clean" at once; otherwise harness.cancel()
    #   2. up to `grace` times: stop waiting if task.done(), else `await asyncio.sleep(0)`
    #   3. if the task is done now, return "clean"
    #   4. task.cancel(), then `await task` inside try / except asyncio.CancelledError, and
    #      return "hard" (a cancelled task that nobody waits for is not known to be over)
    #   5. in that except: when asyncio.current_task().cancelling() is not 0, the
    #      CancelledError is aimed at stop_run itself, so raise it again
    #   6. after the try, before "hard": if cancelling() is still not 0, the task swallowed
    #      stop_run's own cancellation (awaiting it hands it on), so raise CancelledError()
    # From the lab's tests: a build tool deaf to its signal, so only insisting can stop it:
    #     async def execute(arguments, signal=None):
    #         return (await shell.arun("sleep inf"))[0]
    #     task = asyncio.ensure_future(lab.drive(h.prompt("Build it.")))
    #     await stop_run(h, task, grace=5) == "hard"
    #     task.cancelled() and not h.is_running
    #     lab.shape(h.messages) == "U A[c1]"       # a killed call has no result, and two
    #                                              # more prompts are still answered
    #: end
#: end


# == 6 environment ==
#: from 11.1
# What a session needs around the harness, beginning with a disk. Regions 3 and 4 know none of it.
#: before
# Empty until lesson 11, which keeps a session on disk.
#: end
#: from 11.1


class SessionLog:
    """A session kept as the file `path` in the workspace `ws`: JSON Lines, appended and never
    edited, one entry per line, {"id": "e1", "type": "message", "message": {...}}. The log is
    the truth and the transcript is derived from it by replay(), so resuming a session is
    Harness(..., messages=log.replay()). It keeps no state but `ws` and `path`."""

    #: given 11.1 the log keeps where it is, and nothing else
    def __init__(self, ws, path):
        self.ws, self.path = ws, path

    def entries(self):
        """Every entry, oldest first; [] while there is no file, or an empty one. A line that
        is not JSON, the half a crash left of a write, raises ValueError naming its line.
        Skipping it would only hide it: the next append would land on the end of that
        half-line, and the log would lose two entries instead of one."""
        #: gap 11.1 1 entries
        if not self.ws.exists(self.path):
            return []
        found = []
        for index, raw in enumerate(self.ws.read_text(self.path).splitlines()):
            try:
                found.append(json.loads(raw))
            except ValueError:
                raise ValueError(f"{self.path}, line {index + 1}: not a complete log entry") from None
        if found and not self.ws.read_text(self.path).endswith("\n"):  # its newline never came:
            raise ValueError(f"{self.path}, line {len(found)}: not a complete log entry")  # torn
        return found
        #: starter
        # Every entry of the log, oldest first, each line parsed; [] while there is no file at
        # self.path, and reading creates none; [] too for a file with nothing in it, a log with
        # no entries yet. A line that is not JSON (what a crash leaves of a
        # write) is never skipped: reading raises a ValueError whose message is the sentence
        # "PATH, line N: not a complete log entry", PATH being self.path and N the line's number
        # counted from 1. A last line with no newline is a write that did not finish, even when it
        # parses: reading raises the same ValueError for it.
        # Tests: test_a_missing_file_is_an_empty_log, test_a_torn_line_is_never_skipped.
        pass
        #: guided
        # No file at self.path yet (self.ws.exists) means no entries: [] (an empty file has no
        # lines, so it gives [] as well, a log with no entries yet). Otherwise read it
        # (self.ws.read_text), split it into lines, and json.loads each one, in order. A line
        # that is not JSON is what a power cut leaves of a write: do not skip it, raise
        #     ValueError(f"{self.path}, line {n}: not a complete log entry")
        # with n counted from 1 (`from None` keeps the message to that one line). Then, if the
        # file does not end with "\n", its last line is a write that never finished, even when it
        # parsed: raise the same ValueError for that line.
        pass
        #: end

    def _append(self, entry):
        """Append `entry` as one line, with the id "e" + its line number, and return the id.
        The number comes from reading the file again, so two logs on one file agree."""
        #: gap 11.1 2 append_message
        entry = {"id": f"e{len(self.entries()) + 1}", **entry}
        self.ws.append_text(self.path, json.dumps(entry) + "\n")
        return entry["id"]
        #: starter
        # Adds `entry`, with an "id" key besides its own, as one line of JSON ending in "\n" at the
        # end of self.path, and changes no byte already written. Returns the id: "e" and the number
        # of the line the entry lands on, whichever SessionLog over the file is appending. On a log
        # with a torn line it raises the reader's ValueError and writes nothing.
        # Tests: test_the_first_append_writes_one_line, test_two_logs_on_one_file_agree.
        pass
        #: guided
        # Every kind of entry is written here. The id is "e" + the number of the line the
        # entry will be on: read the entries again to count them, never keep a count in
        # memory (another SessionLog may have appended since). Put "id" first, then the keys
        # of `entry`, write it with json.dumps as one line ending in "\n", appending to
        # self.path with self.ws.append_text, and return the id. Reading first has a second
        # use: a log with a torn line raises before anything is written.
        pass
        #: end

    def append_message(self, message):
        """Append one message; returns its entry id."""
        #: gap 11.1 2 append_message
        return self._append({"type": "message", "message": message})
        #: starter
        # Saves `message` as an entry of type "message" and returns the entry's id. On a new log,
        # appending user_message("Hi.") returns "e1", and the file is then one line: the JSON of
        # {"id": "e1", "type": "message", "message": {"role": "user", "content": "Hi."}}.
        # Tests: test_the_first_append_writes_one_line, test_earlier_bytes_never_change.
        pass
        #: guided
        # The entry {"type": "message", "message": message}, handed to _append; return the id
        # it gives. One of the lab's tests, on a new log:
        #     log.append_message(user_message("Hi.")) == "e1"
        #     ws.read_text("session.jsonl") ==
        #         '{"id": "e1", "type": "message", "message": {"role": "user", "content": "Hi."}}\n'
        pass
        #: end
    #: from 12.2

    def append_compaction(self, summary, first_kept_id):
        """Append a compaction entry and return its id: from here on, the rows before
        `first_kept_id` read as `summary`. Nothing is deleted."""
        #: gap 12.2 2 append_compaction
        return self._append({"type": "compaction", "summary": summary,
                             "first_kept_id": first_kept_id})
        #: starter
        # A second kind of entry, of type "compaction", holding `summary` and `first_kept_id` under
        # those names; it is numbered like a message entry, and its id is returned. It adds one line
        # and changes no line already there.
        # Tests: test_append_compaction_writes_one_entry.
        pass
        #: guided
        # One more kind of entry, written like a message entry by _append:
        #     {"type": "compaction", "summary": summary, "first_kept_id": first_kept_id}
        # and its id returned. It adds a line; it changes no line already there.
        pass
        #: end
    #: end

    def rows(self):
        #: from 12.2
        """The transcript as (entry id, message) pairs, oldest first. Entries are replayed
        in order; a compaction entry rewrites everything before its first_kept_id as a single
        pair, its own id with the summary as a user message, and keeps the pairs from there."""
        #: before
        """The transcript as (entry id, message) pairs, oldest first, one per message entry."""
        #: end
        #: gap 11.1 3 rows and replay
        #: gap 12.2 3 compaction in rows
        table = []
        for entry in self.entries():
            if entry["type"] == "compaction":
                start = next((i for i, (key, _) in enumerate(table)
                              if key == entry["first_kept_id"]), len(table))
                summary = user_message("Previous conversation summary:\n" + entry["summary"])
                table = [(entry["id"], summary), *table[start:]]
            elif entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        return table
        #: starter +before
        # rows() reads a compaction entry as a rule over the pairs read so far: the pairs before
        # the one whose id is the entry's "first_kept_id" give way to one pair, the entry's own id
        # with a user message whose content is "Previous conversation summary:", a newline and the
        # summary; the pairs from there on stay. An id that is not there keeps no pair. A later
        # compaction sees an earlier summary as an ordinary pair.
        # Tests: test_rows_read_a_compaction_as_a_rule.
        #: guided +before
        # Lesson 11's loop, below, knows one kind of entry. Teach it the compaction entry,
        # read as a rule over the pairs built so far: find the pair whose id is the entry's
        # "first_kept_id"; every pair before it goes, and in their place stands one pair,
        #     (the compaction entry's own id,
        #      user_message("Previous conversation summary:\n" + the entry's "summary"))
        # followed by the kept pairs. An id that is not there keeps no pairs at all. A later
        # compaction sees the first one's summary as an ordinary pair, and may summarise it.
        #: before
        table = []
        for entry in self.entries():
            if entry["type"] == "message":
                table.append((entry["id"], entry["message"]))
        return table
        #: end
        #: starter
        # (entry id, message) for every message entry, oldest first.
        # Tests: test_replay_equals_the_record.
        pass
        #: guided
        # (id, message) for every entry of type "message", oldest first, from self.entries().
        pass
        #: end

    def replay(self):
        """The transcript, worked out from what happened rather than saved as a state."""
        #: gap 11.1 3 rows and replay
        return [message for _, message in self.rows()]
        #: starter
        # The transcript the log holds, worked out from rows(): its messages, in order. Resuming a
        # session is Harness(model, system, tools, messages=log.replay()).
        # Tests: test_replay_equals_the_record, test_resuming_after_a_power_cut_in_a_tool.
        pass
        #: guided
        # The messages of rows(), in order. Resuming a session is then
        #     Harness(model, system, tools, messages=log.replay())
        pass
        #: end


def persist_to(log):
    """A listener for Harness.subscribe that appends each message to `log` as it completes:
    saving is this listener's job alone, whoever consumes the run."""
    #: gap 11.1 4 persist_to
    def listener(event):
        if event["type"] == "message_end":
            log.append_message(event["message"])
    return listener
    #: starter
    # A listener for Harness.subscribe: it appends the message of every message_end to `log`, and
    # ignores every other event.
    # Tests: test_the_log_is_written_before_the_consumer_hears,
    #   test_resuming_after_a_power_cut_in_the_log.
    pass
    #: guided
    # Return a listener: a function of one event that appends the message of every
    # message_end to `log`, and ignores every other event. It is handed to h.subscribe, so
    # it hears each message after the record has it and before the consumer does.
    pass
    #: end
#: end
#: from 12.1


def estimate_tokens(messages):
    """Roughly how many tokens `messages` cost: four characters of render() to a token. No
    tokenizer, the same answer every time, and on the low side, so leave a margin."""
    #: gap 12.1 2 estimate_tokens
    return len(render(messages)) // 4
    #: starter
    # Four characters of render(messages) to a token, rounded down: no tokenizer, and the same
    # answer every time.
    # Tests: test_estimate_tokens.
    pass
    #: guided
    # The length of render(messages), in characters, divided by 4 and rounded down (//).
    pass
    #: end
#: from 12.2


#: given 12.2 the summariser's own system prompt, in the kit's words
SUMMARY_SYSTEM = ("You write summaries of a conversation between a user and a coding agent. Do "
                  "not continue it and do not answer anything asked in it. Answer with the "
                  "summary and nothing else: what the user wants, what has been done so far, "
                  "what remains to do, and every file path and error message exactly as written.")


#: from 15.1
#: given 15.1 async now: the model call is awaited
async def summarize(model, messages):
#: before
def summarize(model, messages):
#: end
    """A summary of `messages` from one model call that belongs to no transcript: its own
    system prompt, the rendered conversation in <conversation> tags as the only message, and
    no tools, so summarising is all it can do. RuntimeError when the reply failed or was empty."""
    #: gap 12.2 4 summarize
    wrapped = user_message(f"<conversation>\n{render(messages)}\n</conversation>")
    #: from 15.1
    reply = await model.acomplete(SUMMARY_SYSTEM, [wrapped], [])
    #: before
    reply = model.complete(SUMMARY_SYSTEM, [wrapped], [])
    #: end
    text = text_of(reply).strip()
    if not text or reply["stop_reason"] in ("error", "aborted"):
        reason = reply.get("error_message") or "the reply was empty"  # none, None or ""
        raise RuntimeError(f"no summary: {reason}")
    return text
    #: starter
    # One request that belongs to no transcript: system prompt SUMMARY_SYSTEM, one user message
    # holding render(messages) between a line "<conversation>" and a line "</conversation>", and no
    # tools (a summariser that may call tools will); it asks even for no messages. Returns the
    # reply's words, stripped, a "toolUse" reply's too. A reply that failed, was stopped or has
    # no words raises a RuntimeError whose message is "no summary: REASON", REASON being its
    # error_message, or "the reply was empty" without one (no key, None or "").
    # Tests: test_summarize_sends_one_request, test_summarize_refuses_a_bad_reply.
    pass
    #: guided
    # One request, outside any transcript: the system prompt is SUMMARY_SYSTEM, the only
    # message is user_message(f"<conversation>\n{render(messages)}\n</conversation>"), and
    # the tools are [] (a summariser that may call tools will call them). Return the reply's
    # text, stripped. When the reply failed or was stopped (stop_reason "error" or "aborted")
    # or has no text, raise
    #     RuntimeError(f"no summary: {reason}")
    # where reason is the reply's error_message, or "the reply was empty" when it has none
    # or an empty one ("" or None). Any other reply with text is the summary.
    pass
    #: end
#: end


def find_cut(rows, keep_recent_tokens):
    """Where to cut `rows` (SessionLog.rows()) for a compaction: the index of the first row to
    keep; the rows before it get summarised, and it is 0 when the total of every row stays under
    keep_recent_tokens. The cut lands on a user message, a turn's beginning, or failing that at
    least not on a toolResult: a result whose call was summarised away would be in neither half,
    since the view drops it."""
    #: gap 12.1 3 find_cut
    left, start = keep_recent_tokens, len(rows)
    while start > 0 and left > 0:  # spend the budget from the newest row backwards
        start -= 1
        left -= estimate_tokens([rows[start][1]])
    if left > 0:
        return 0  # everything fits
    roles = [message["role"] for _, message in rows]
    if "user" in roles[start:]:
        return roles.index("user", start)  # the next turn's beginning
    while start < len(roles) and roles[start] == "toolResult":
        start += 1  # no turn begins after it: at least step past the results
    return start
    #: starter
    # The index of the first row to keep. Counting back from the newest row, each row costs
    # estimate_tokens([message]); when the total never reaches keep_recent_tokens, even with the
    # oldest row counted, the answer is 0.
    # Otherwise the count stops at the row where the kept total reaches keep_recent_tokens (equal
    # counts), and the cut lands where a turn begins: the first user message at or after that row.
    # With none there, it is the first row from there on that is not a toolResult. A tail that opens
    # with a result whose call was summarised away loses it: the view drops it, the summary lacks it.
    # Tests: test_find_cut_when_everything_fits, test_find_cut_lands_on_a_user_message,
    #   test_find_cut_never_lands_on_a_result,
    #   test_find_cut_stops_where_the_total_reaches_the_budget.
    pass
    #: guided
    # `rows` are (id, message) pairs, oldest first. Four steps:
    #   1. walk back from the newest row, adding up estimate_tokens([message]) of each, and
    #      stop at the row where the total reaches keep_recent_tokens
    #   2. if the walk used every row before the total got there, everything fits: return 0
    #   3. otherwise the first user message at or after that row is where a turn begins:
    #      return its index
    #   4. with no user message there, move on past any toolResults, and return that index
    # A tail that opens with a result whose call was summarised away loses that result: the
    # view drops it, and the summary never saw it. One of the lab's tests:
    #     find_cut(rows, keep_recent_tokens=10**6) == 0          # it all fits
    pass
    #: end
#: from 12.2


#: from 15.1
#: given 15.1 async now: summarize is awaited
async def compact(log, model, *, keep_recent_tokens):
#: before
def compact(log, model, *, keep_recent_tokens):
#: end
    """Summarise the old part of the session in `log` and append one compaction entry, so that
    replay() gives [summary] + [the kept tail]. The log only grows. False, with nothing
    appended, when there is nothing to summarise, nothing would be kept, or the summary
    failed: tidying up is never worth a user's lost turn."""
    #: gap 12.2 5 compact
    rows = log.rows()
    cut = find_cut(rows, keep_recent_tokens)
    if not 0 < cut < len(rows):
        return False  # nothing before the cut to summarise, or nothing after it to keep
    older = [message for _, message in rows[:cut]]
    try:
        #: from 15.1
        summary = await summarize(model, older)
        #: before
        summary = summarize(model, older)
        #: end
    except RuntimeError:
        return False
    log.append_compaction(summary, rows[cut][0])
    return True
    #: starter
    # Appends one compaction entry that summarises the rows before find_cut's cut and keeps the row
    # at the cut and after it, and returns True. Returns False, and appends nothing, when there is
    # nothing before the cut to summarise, nothing after it to keep, or summarize raised
    # RuntimeError: a failed tidy-up must not cost the user a turn. The first kept id is the id
    # of the row at the cut in the reading that was summarised.
    # Tests: test_compact_gives_up_quietly, test_compact_summarises_or_keeps_each_row.
    pass
    #: guided
    # rows = log.rows() and cut = find_cut(rows, keep_recent_tokens). Return False, and
    # append nothing, when the cut leaves nothing to summarise (cut <= 0) or nothing to
    # keep (cut >= len(rows)), or when summarize raises RuntimeError: a failed tidy-up must
    # not cost the user a turn. Otherwise summarise the messages before the cut, append a
    # compaction entry whose first_kept_id is the id of row `cut`, and return True.
    pass
    #: end


#: from 15.1
#: given 15.1 async now: compact is awaited
async def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):
#: before
def maybe_compact(harness, log, model, *, window, reserve, keep_recent_tokens):
#: end
    """Compact when the transcript has come within `reserve` tokens of the context `window`,
    then hand the harness what the log now replays. For the code around the harness to call
    between runs, never during one. True if it compacted."""
    #: gap 12.2 6 maybe_compact
    if harness.is_running:
        raise RuntimeError("cannot compact during a run")
    if estimate_tokens(harness.messages) + reserve <= window:
        return False  # there is still room
    #: from 15.1
    compacted = await compact(log, model, keep_recent_tokens=keep_recent_tokens)
    #: before
    compacted = compact(log, model, keep_recent_tokens=keep_recent_tokens)
    #: end
    if compacted:
        harness.replace_messages(log.replay())  # the one door in, shut during a run
    return compacted
    #: starter
    # During a run it refuses, with a RuntimeError whose message is "cannot compact during a run",
    # and asks no model. While the transcript's estimate plus `reserve` still fits in `window` there
    # is room: it returns False, and asks no model. Otherwise it compacts; when that worked, the
    # harness holds what the log now replays (its replace_messages is there for that); it never
    # compares the record with the log (keeping them in step is the caller's). Returns whether it
    # compacted.
    # Tests: test_maybe_compact, test_nothing_replaces_the_transcript_mid_run,
    #   test_maybe_compact_at_the_threshold.
    pass
    #: guided
    # In this order:
    #   - during a run, raise RuntimeError("cannot compact during a run")
    #   - while estimate_tokens(harness.messages) is still at most window - reserve, there
    #     is room: return False, and ask no model
    #   - otherwise compact(log, model, keep_recent_tokens=keep_recent_tokens); if it did,
    #     hand the harness what the log now replays, harness.replace_messages(log.replay())
    #   - return what compact returned
    pass
    #: end
#: end
#: end
#: from 13.1


def discover_context(ws, cwd):
    """The project's standing instructions: each AGENTS.md from the workspace root down to the
    folder `cwd` (a plain relative path such as "services/api"), as [(path, text)], broadest
    first, so the file nearest the work is read last and has the last word. Whoever wrote
    these files is writing part of your system prompt."""
    #: gap 13.1 2 discover_context
    steps = [step for step in cwd.split("/") if step not in ("", ".")]
    found = []
    for depth in range(len(steps) + 1):  # the root first, then one folder deeper each time
        name = "".join(step + "/" for step in steps[:depth]) + "AGENTS.md"
        if ws.exists(name):
            found.append((name, ws.read_text(name)))
    return found
    #: starter
    # [(path, text)], one pair for each AGENTS.md on the way from the workspace root down to the
    # folder `cwd`, broadest first, with the workspace's own paths and texts: for "services/api",
    # what there is of "AGENTS.md", "services/AGENTS.md" and "services/api/AGENTS.md", in that
    # order. A folder with no file adds nothing; files beside the way or below cwd are not on
    # it. An empty part of cwd or a "." names no folder: "", "." and "./" are all the root, and
    # "./services//api/" is "services/api"; cwd never holds "..". The workspace answers
    # ws.exists(path) and ws.read_text(path).
    # Tests: test_discover_context_walks_from_the_root_down_to_cwd,
    #   test_discover_context_at_the_root.
    pass
    #: guided
    # 1. Split cwd on "/" and keep only the parts that name a folder: drop "" and ".".
    # 2. For each depth from 0 (the root) up to the number of parts, the file to look for is
    #    the first `depth` parts, each followed by "/", then "AGENTS.md": for "services/api",
    #    "AGENTS.md", then "services/AGENTS.md", then "services/api/AGENTS.md".
    # 3. When ws.exists(that path), add (that path, ws.read_text(that path)) to the list.
    # Return the list. It is broadest first because you walked from the root down.
    pass
    #: end


def build_system_prompt(tools, context_files, skills, cwd, today):
    """The system prompt, made from what is really there: a line per enabled tool that has a
    snippet, each guideline once (first seen first), the `context_files` [(path, text)] in
    the order given, an index of `skills` [{"name", "description", "path"}] when a tool named
    read can load them, and last the date and folder. It reads no clock and no disk, so equal
    arguments give equal bytes, which tests and prompt caches depend on."""
    #: gap 13.1 3 build_system_prompt
    advice = []
    for tool in tools:
        for line in tool.get("guidelines", ()):
            if line not in advice:  # first seen, first listed: a list keeps order, a set not
                advice.append(line)
    snippets = [f"- {t['name']}: {t['snippet']}" for t in tools if t.get("snippet")]
    parts = ["You are a coding assistant working in the user's project."]
    if snippets:
        parts.append("\n".join(["Available tools:", *snippets]))
    if advice:
        parts.append("\n".join(["Guidelines:", *(f"- {line}" for line in advice)]))
    parts += [f'<project_instructions path="{where}">\n{body}\n</project_instructions>'
              for where, body in context_files]
    if skills and "read" in [t["name"] for t in tools]:  # read is what loads a skill's file
        parts.append("\n".join(
            ["Skills are instruction files for particular kinds of task. Before starting a "
             "task that fits a description, read its file."] +
            [f"- {k['name']}: {k['description']} ({k['path']})" for k in skills]))
    parts.append(f"Current date: {today}\nCurrent working directory: {cwd}")
    return "\n\n".join(parts)
    #: starter
    # The prompt: sections separated by one blank line, in this order, each left out whole when it
    # has nothing to say:
    #   - an opening line of your own, three words or more, the same whatever the arguments
    #   - the heading "Available tools:", then a line "- NAME: SNIPPET" for each tool that has a
    #     snippet, in the order of `tools`; an empty snippet is no snippet
    #   - the heading "Guidelines:", then a line "- GUIDELINE" for each guideline of the tools,
    #     each sentence once, in the order it is first met
    #   - each context file (path, text), in the order given, as a section of its own: the tag
    #     <project_instructions path="PATH">, a newline, the text exactly as it came, a newline,
    #     and </project_instructions>; an empty file's section is the tags around an empty line
    #   - only with skills and a tool named exactly "read": a sentence of your own, of three
    #     words or more, on what the lines below it are for, then a line
    #     "- NAME: DESCRIPTION (PATH)" for each skill, in the order given
    #   - last, the two lines "Current date: TODAY" and "Current working directory: CWD"
    # The headings, tags and line shapes are exact; your two sentences are yours. Equal
    # arguments give equal text in every process: the prompt depends on its arguments alone.
    # Tests: test_the_bare_prompt, test_a_line_for_each_tool_with_a_snippet,
    #   test_each_guideline_once_first_seen_first,
    #   test_context_files_go_in_word_for_word_in_the_order_given,
    #   test_a_skills_index_only_with_a_tool_named_read, test_the_parts_come_in_a_fixed_order,
    #   test_the_prompt_is_deterministic, test_specs_and_requests.
    pass
    #: guided
    # Make a list of sections, then join them with "\n\n" (one blank line between two).
    #   1. your opening line: one line, three words or more, in your own words.
    #   2. the tool lines: "- NAME: SNIPPET" for each tool in `tools` that has a "snippet"
    #      (not every tool has one: use .get), in the order of `tools`, never sorted. Only if
    #      there is a line, add the section "Available tools:" and the lines, joined by "\n".
    #   3. the guidelines: walk the tools in order, and each tool's "guidelines" (maybe none)
    #      in order; keep a sentence only if it is not kept already. Keep them in a list that
    #      you check before appending: a set would forget the order. Only if there is one, add
    #      the section "Guidelines:" and a line "- GUIDELINE" per sentence, joined by "\n".
    #   4. for each (path, text) in context_files, in order, the section made of
    #      '<project_instructions path="PATH">', "\n", the text, "\n", '</project_instructions>'.
    #   5. only when skills is not empty and a tool's name is exactly "read" (read is what
    #      opens a skill's file): your own sentence on what the lines are for, then a line
    #      "- NAME: DESCRIPTION (PATH)" per skill, in order, all joined by "\n".
    #   6. last, "Current date: TODAY", "\n", "Current working directory: CWD", so that the
    #      text before it stays the same from one day to the next.
    # Read no clock and no file here: equal arguments must give equal text.
    pass
    #: end
#: end
#: from 16.1


# == 7 provider ==
# A real model sits at the far end of a wire. A request goes out in the provider's own JSON, and
# the reply comes back as lines of a stream, a few characters at a time: even a tool call's
# arguments arrive as fragments of one JSON string. This region translates, both ways.


#: given 16.1 the payload of a stream's last line, spelled as the wire spells it
STREAM_DONE = "[DONE]"


def decode_line(line):
    """One line of a streamed reply, read: the chunk (a dict) for a `data:` line, STREAM_DONE
    for `data: [DONE]`, {"error": what it says} for an `error:` line (llama.cpp's way to say a
    reply failed), and None for a line that carries nothing: a blank line, a `:` comment (a
    keep-alive) or any other field. A data payload that is not a JSON object raises
    ValueError(f"not a stream line: {line!r}"): the provider is broken, and a guess would
    only hide it."""
    #: gap 16.1 1 decode_line
    if line.startswith("error:"):  # a failure, said as its own field: its reason is news
        said = line[len("error:"):].strip()
        try:
            parsed = json.loads(said)
        except ValueError:
            parsed = None
        return {"error": said if parsed is None else parsed}  # `null` too says it failed
    if not line.startswith("data:"):
        return None  # blank, a keep-alive, or a field this reader has no use for
    payload = line[len("data:"):].strip()
    if payload == STREAM_DONE:
        return STREAM_DONE
    try:
        chunk = json.loads(payload)
    except ValueError:
        chunk = None
    if not isinstance(chunk, dict):
        raise ValueError(f"not a stream line: {line!r}")
    return chunk
    #: starter
    # What one line carries: a data line (with or without a space after "data:") gives its
    # payload parsed, a dict; `data: [DONE]` gives STREAM_DONE; an `error:` line gives
    # {"error": its payload}, parsed when it is JSON and the text as it is when not (a payload of
    # null, too, is the server saying the reply failed: it gives the text "null"); a blank line,
    # a `:` comment or any other field gives None. A data line whose payload is not a JSON object
    # raises the ValueError the docstring names, whose text ends with the line's repr. Each call
    # gives a new dict, even for a line read before: a caller may change what it was given.
    # Tests: test_decode_line_reads_four_kinds_of_line, test_decode_line_over_drawn_lines.
    pass
    #: guided
    # Five kinds of line, five answers:
    #   "data: {...}"     the payload parsed as JSON: a dict, the chunk
    #   "data: [DONE]"    STREAM_DONE, the end of the reply
    #   "error: {...}"    {"error": the payload parsed}, or {"error": the text} if it is not
    #                     JSON or is null: llama.cpp's way to say the reply failed, and why
    #   "", ": ping", "event: x"
    #                     None: nothing to keep (SSE allows "data:" with or without a space)
    #   a "data:" line whose payload is not a JSON object
    #                     raise ValueError(f"not a stream line: {line!r}")
    # One of the lab's tests:
    #     decode_line(': keep-alive') is None
    #     decode_line('data: {"choices": []}') == {"choices": []}
    pass
    #: end


def assemble(chunks, *, aborted=False):
    """The assistant message that the decoded `chunks` of one reply add up to.

    Text deltas are joined into one text block, first, if there are any words. Tool-call
    fragments are grouped by their `index` (none, or null, means 0), except that a fragment whose id
    differs from the id already at its index starts a new call there: Ollama puts every call
    of a reply at index 0, or sends no index. A call's id and name come from the fragment that
    carries them (on the real wire the first), or are None when none does, and its arguments
    are the joined fragments, parsed once, at the end ("" means {}), or an object a server
    sent already parsed. Calls follow the text in
    index order, and calls at one index in the order they began. The content decides the
    label: "toolUse" when there are calls, "stop" otherwise, whatever finish_reason said.

    A reply that did not arrive whole fails: aborted=True (the user stopped it) gives
    "aborted" and ABORTED; an error chunk (its "message", or what it says when it has none), a
    stream with no finish_reason, a finish_reason of "length" or "content_filter", arguments
    that are not a JSON object, or nothing at all give "error" with a sentence saying which.
    Chunks a real server adds (a delta holding only the role, "content": null beside calls, a
    usage chunk with no choices) add nothing, and so does a key whose value is null, "error"
    too. The chunks are read, never changed. A failed reply keeps its words and drops every
    call: a call the stream never finished has no arguments to write down, and none of them
    was acted on."""
    #: gap 16.1 2 assemble, gathering
    words, calls, finish, failure = [], [], None, None
    latest = {}  # index -> the call most recently begun there
    for chunk in chunks:
        if chunk.get("error") is not None:  # the key, whatever it holds; but null is left out
            error = chunk["error"]
            said = error.get("message") if isinstance(error, dict) else None
            failure = failure or str(error if said is None else said)
        for choice in chunk.get("choices") or ():
            delta = choice.get("delta") or {}
            words.append(delta.get("content") or "")  # a delta may hold only a role, or None
            for piece in delta.get("tool_calls") or ():
                index, call_id = piece.get("index") or 0, piece.get("id")
                call = latest.get(index)
                if call is None or (call_id and call["id"] and call_id != call["id"]):
                    call = {"index": index, "id": None, "name": None, "parts": []}  # a new id
                    latest[index] = call
                    calls.append(call)
                function = piece.get("function") or {}
                call["id"] = call_id or call["id"]  # only the first fragment has it
                call["name"] = function.get("name") or call["name"]
                said = function.get("arguments")  # a scrap of text, or a value sent parsed
                call["parts"].append("" if said is None else said)
            finish = choice.get("finish_reason") or finish
    #: starter
    # The chunks are walked once, and what the judging below needs is kept: the words, each
    # call's id, name and argument fragments, how the stream finished, and any error it reported.
    # What to keep, and in what shape, is yours (this gap and the next are both yours). Nothing is
    # parsed here: a fragment is not JSON. A fragment belongs to the call its index names (no
    # index, or a null one, means 0), unless it brings an id other than the one already at that
    # index: then it begins a new call. A call's id and name arrive once, or never: then it is
    # kept, its id or name None. A key whose value is null counts as left out ("error": null is
    # no error), and the chunks are left as they came.
    # Tests: test_fragmented_text_becomes_one_block, test_split_arguments_are_parsed_once,
    #   test_interleaved_calls_are_matched_by_index, test_empty_arguments_mean_no_arguments,
    #   test_a_new_id_at_a_used_index_is_a_new_call.
    #: guided
    # Walk the chunks once and keep four things for the judging below:
    #   words    every delta's "content", in order (a delta may have none, or None)
    #   calls    [{"index": ..., "id": ..., "name": ..., "parts": [argument fragments]}], in
    #            the order they began, and beside it {index: the call last begun there}:
    #            a fragment belongs to the call its "index" names (no "index", or null,
    #            means 0), not to
    #            the newest call; a fragment whose "id" differs from that call's id begins a
    #            new call at that index (Ollama sends every call at index 0); an id and a
    #            "function"/"name" arrive once, on whichever fragment carries them (on the
    #            real wire the first; the tests use any one): take each when it comes;
    #            one that never comes stays None, and the call is kept all the same
    #   finish   the last finish_reason that is not None, or None if none came
    #   failure  the first error chunk's reason: {"error": {"message": ...}} gives the
    #            message as text (str), any other {"error": x} gives str(x); None if none came
    #            ({"error": None} is no error chunk: a null key counts as left out)
    # Do not parse any arguments here: a fragment is not JSON. One of the lab's tests
    # splits '{"path": "notes/caf\u00e9.md"}' in the middle of that escape.
    # A key whose value is null counts as left out ("choices": null is no choices), and the
    # chunks stay as they came: keep records of your own, never grow a fragment in place.
    words, calls, finish, failure = [], [], None, None
    #: end
    #: gap 16.1 3 assemble, judging
    text = "".join(words)
    content = [{"type": "text", "text": text}] if text else []
    blocks, broken = [], None
    for call in sorted(calls, key=lambda call: call["index"]):  # stable: in order at one index
        objects = [part for part in call["parts"] if not isinstance(part, str)]
        joined = "".join(part for part in call["parts"] if isinstance(part, str))
        if objects and not joined and len(objects) == 1:
            arguments = objects[0]  # sent already parsed: whole, and judged below like any
        elif objects:
            arguments = None  # an object and scraps beside it: no one JSON text
        else:
            try:
                arguments = json.loads(joined) if joined else {}
                json.dumps(arguments, allow_nan=False)  # NaN, Infinity: Python's, not JSON's
            except ValueError:
                arguments = None
        if not isinstance(arguments, dict):
            broken = broken or (f"Tool call {call['id']} ({call['name']}) arrived with "
                                "arguments that are not a JSON object")
        blocks.append({"type": "toolCall", "id": call["id"], "name": call["name"],
                       "arguments": arguments})
    if aborted:
        why = ABORTED
    elif failure is not None:
        why = failure
    elif finish is None:
        why = "The stream ended before the reply was finished"
    elif finish == "length":
        why = "The reply was cut off at the output limit"
    elif finish == "content_filter":
        why = "The provider's content filter stopped the reply"
    elif broken is not None:
        why = broken
    elif not content and not blocks:
        why = "The provider sent an empty reply"
    else:
        return {"role": "assistant", "content": content + blocks,
                "stop_reason": "toolUse" if blocks else "stop"}
    failed = error_message(why, stop_reason="aborted" if aborted else "error")
    return {**failed, "content": content}  # the words stay; no call does
    #: starter
    # The message the gathered pieces add up to: the words as one text block (none without
    # words), then a toolCall per call in index order (calls at one index in the order they
    # began), its arguments parsed here,
    # once, from all its fragments joined ("" is {}; NaN and Infinity, which Python's json reads,
    # are not JSON), or, when a server sent them as an object
    # already, that object; labelled "toolUse" if there are calls and "stop" if not,
    # whatever finish_reason said. A reply that did not arrive whole is an ending error_message
    # makes, whose only content is the text block, and the first reason that applies decides:
    #   aborted=True                    "aborted", ABORTED
    #   an error chunk                  "error", its message
    #   no finish_reason                "error", "The stream ended before the reply was finished"
    #   finish_reason "length"          "error", "The reply was cut off at the output limit"
    #   finish_reason "content_filter"  "error", "The provider's content filter stopped the reply"
    #   arguments not a JSON object     "error", "Tool call ID (NAME) arrived with arguments that
    #                                   are not a JSON object", for the first such call
    #   no words and no calls           "error", "The provider sent an empty reply"
    # Tests: test_replies_that_did_not_arrive_whole_fail, test_broken_arguments_fail_the_reply,
    #   test_the_content_decides_the_label, test_aborted_and_empty_replies,
    #   test_a_real_servers_shapes_add_nothing_and_its_cut_finishes_fail.
    return {"role": "assistant", "content": [], "stop_reason": "stop"}
    #: guided
    # Build the message from what the gathering kept:
    #   - one text block {"type": "text", "text": ...} holding all the words, or none at all
    #   - one toolCall block per call, in index order (at one index, in the order they
    #     began: sorted() keeps that order for equal keys), its arguments the joined
    #     parts parsed now, once: json.loads("") is an error, and "" means {}; json.loads
    #     also reads NaN and Infinity, which JSON has not (json.dumps(..., allow_nan=False)
    #     refuses them): arguments that hold them are not a JSON object; a call whose
    #     one part is a dict got its arguments already parsed (a proxy in front of Ollama
    #     sends them so): that dict is the arguments
    #   - stop_reason "toolUse" if there are calls, else "stop": the content decides, never
    #     the finish_reason (lesson 3)
    # Unless the reply failed; then it is error_message(why, stop_reason) with the text
    # block as its content and no call block. The first that applies decides:
    #   aborted=True                    "aborted", ABORTED
    #   an error chunk                  "error", its message
    #   no finish_reason                "error", "The stream ended before the reply was finished"
    #   finish_reason "length"          "error", "The reply was cut off at the output limit"
    #   finish_reason "content_filter"  "error", "The provider's content filter stopped the reply"
    #   arguments not a JSON object     "error", f"Tool call {id} ({name}) arrived with arguments
    #                                   that are not a JSON object" (the first such call)
    #   no words and no calls           "error", "The provider sent an empty reply"
    return {"role": "assistant", "content": [], "stop_reason": "stop"}
    #: end


def to_wire(system, messages, tools):
    """The body of a Chat Completions request, {"messages": [...], "tools": [...], "stream":
    True}, all but "model", which the client adds as it adds the Authorization header: both
    belong to the connection, not to the conversation. The system prompt is the first message; a toolResult
    becomes a "tool" message; an assistant's calls travel as "tool_calls" whose arguments are
    a JSON string. The wire has no field for is_error, so a result's own words must say that it
    failed, as ours do. `tools` may be the tools or their specs: only the specs go out."""
    #: gap 16.1 4 to_wire
    wire = [{"role": "system", "content": system}]
    for message in messages:
        if message["role"] == "user":
            wire.append({"role": "user", "content": message["content"]})
        elif message["role"] == "assistant":
            said = {"role": "assistant", "content": text_of(message) or None}
            calls = tool_calls(message)
            if calls:
                said["tool_calls"] = [
                    {"id": call["id"], "type": "function",
                     "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}
                    for call in calls]
            wire.append(said)
        else:
            wire.append({"role": "tool", "tool_call_id": message["tool_call_id"],
                         "content": message["content"]})
    return {"messages": wire,
            "tools": [{"type": "function", "function": spec} for spec in tool_specs(tools)],
            "stream": True}
    #: starter
    # The body, {"messages": [...], "tools": [...], "stream": True}, in new dicts: the record's
    # messages come out unchanged. The system prompt first, {"role": "system", "content": ...};
    # then each message in order: user {"role": "user", "content": text}; assistant
    # {"role": "assistant", "content": its words or None} plus, when it has calls,
    # "tool_calls": [{"id", "type": "function", "function": {"name", "arguments": JSON text}}];
    # toolResult {"role": "tool", "tool_call_id": ..., "content": ...}. Tools go out as
    # {"type": "function", "function": spec}, the specs tool_specs gives.
    # Tests: test_to_wire_writes_the_providers_shape.
    return {"messages": [], "tools": [], "stream": True}
    #: guided
    # The body, {"messages": [...], "tools": [...], "stream": True}. Messages, in order:
    #   first                {"role": "system", "content": system}
    #   a user message       {"role": "user", "content": its text}
    #   an assistant message {"role": "assistant", "content": text_of(m) or None}, and when it
    #                        has calls, "tool_calls": [{"id": ..., "type": "function",
    #                        "function": {"name": ..., "arguments": json.dumps(arguments)}}]
    #   a toolResult         {"role": "tool", "tool_call_id": ..., "content": its text}
    # Tools: [{"type": "function", "function": spec} for spec in tool_specs(tools)].
    # Build new dicts: the record's messages must come out of this unchanged.
    return {"messages": [], "tools": [], "stream": True}
    #: end
#: end
#: from 16.2


#: given 16.2 the class line, its docstring and __init__; acomplete is yours
class StreamingModel:
    """A model at the far end of a wire, for Harness(model, ...) like any other model.
    `client.open(body)` sends one request and hands back its response at once; the response is
    read a line at a time: ready() says whether a line, or the end, can be had now;
    read_line() takes it (None at the end); close() lets the connection go.

    acomplete never raises for the provider's trouble. A refused connection, a broken line or
    an error in the stream comes back as a reply labelled "error", and a Stop as one labelled
    "aborted", so the loop records it like any other ending (lesson 5). A 429 says which of
    two troubles it is: a rate limit, which a wait cures, or spent quota, which it does not.
    A connection that drops ends the stream (read_line gives None), so what ready() or
    read_line() raise is a fault in the reading, not the provider's trouble, and goes up."""

    def __init__(self, client):
        self.client = client

    async def acomplete(self, system, messages, tools=(), signal=None):
        """One request, read as it arrives. A set `signal` is looked at before anything is
        sent and on every look at the stream, so a Stop lands within a turn of the event loop
        even while the provider says nothing. The response is closed on every way out."""
        #: gap 16.2 1 sending
        if signal is not None and signal.is_cancelled():
            return assemble([], aborted=True)  # nothing sent, so nothing to pay for
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
        #: starter
        # Nothing is sent when the signal is already set; the reply is then the aborted one, with
        # no words. Otherwise exactly one request goes out through self.client.open, its body what
        # to_wire makes of the arguments, and the response it hands back is what the reading below
        # reads. Any Exception that sending raises comes back as an "error" reply: provider
        # trouble is never raised. Its error_message is "Provider request failed: " and the
        # exception's text, but for a 429 (the exception's `status`, when it has one), which is
        # one of two troubles: with `code` "insufficient_quota", "Provider quota spent, so
        # waiting will not help: " and the text; any other, "Provider rate limit, so send again
        # in N s: " and the text, N its `retry_after`, or "... send again later: " without one.
        # The body is made inside the same try: what to_wire raises is a failed request too. Only
        # an Exception is the provider's: a KeyboardInterrupt or SystemExit goes up as raised.
        # Tests: test_a_set_signal_sends_nothing,
        #   test_trouble_is_a_reply_and_every_response_is_closed,
        #   test_a_real_servers_shapes_and_refusals, test_a_rate_limit_is_not_spent_quota.
        #: guided
        # Before anything goes out: a signal that is already set means the aborted reply,
        # assemble([], aborted=True), and no request at all.
        # Then send: response = self.client.open(to_wire(system, messages, tools)). open
        # raising any Exception (a refused connection is a ConnectionError) means an "error"
        # reply; nothing is raised from here. Which one, by getattr(exc, "status", None):
        #   not 429                   error_message(f"Provider request failed: {exc}")
        #   429, getattr(exc, "code", None) == "insufficient_quota"
        #                             f"Provider quota spent, so waiting will not help: {exc}"
        #   any other 429             f"Provider rate limit, so send again in {n} s: {exc}",
        #                             n = exc.retry_after; "... send again later: ..." if None
        response = self.client.open(to_wire(system, messages, tools))
        #: end
        #: gap 16.2 2 reading
        chunks = []
        try:
            while True:
                if signal is not None and signal.is_cancelled():
                    return assemble(chunks, aborted=True)  # the words so far, and no call
                if not response.ready():
                    await asyncio.sleep(0)  # the provider is quiet: a turn for Stop to land in
                    continue
                line = response.read_line()
                try:
                    chunk = STREAM_DONE if line is None else decode_line(line)
                except ValueError as exc:  # a line that is not a stream line; only decode_line's
                    return error_message(str(exc))
                if chunk == STREAM_DONE:
                    break
                if chunk is not None:
                    chunks.append(chunk)
        finally:
            response.close()  # on every way out, a hard cancel's too
        return assemble(chunks)
        #: starter
        # Read the response to its end (read_line() gives None, or a line decodes to
        # STREAM_DONE), and nothing after it; the reply is then what assemble makes of the chunks.
        # A set signal is seen within a turn of the event loop, whether lines are ready or not,
        # and ends the reply as the aborted one, keeping the words read so far. Lines that carry
        # nothing are skipped; a line decode_line refuses ends the reply as an "error" one whose
        # error_message is that ValueError's text, and what ready() or read_line() raise goes up
        # as it was raised. The response is closed on every way out, a hard cancel's too. It
        # offers ready(), read_line() (only once ready) and close().
        # Tests: test_a_streamed_job_runs_in_a_harness, test_stop_while_the_provider_talks,
        #   test_stop_while_the_provider_is_silent,
        #   test_trouble_is_a_reply_and_every_response_is_closed,
        #   test_what_a_stream_carries_between_chunks,
        #   test_a_call_that_looks_complete_is_not_acted_on, test_life_goes_on_after_a_stop,
        #   test_a_fault_in_the_reading_goes_up.
        return assemble([])  # until the reading is written: a reply that never arrived
        #: guided
        # Read the stream the way bash polls its command (lesson 15), one look per lap:
        #   - a set signal: return assemble(chunks, aborted=True), the words so far
        #   - nothing ready (response.ready() is False): await asyncio.sleep(0), look again
        #   - a line ready: response.read_line(); None, or decode_line giving STREAM_DONE,
        #     ends the stream; a chunk is kept; a line that carries nothing is skipped
        # decode_line raising ValueError means the reply error_message(str(exc)); anything
        # ready() or read_line() raise is not the provider's (a dropped connection is the end,
        # None) and goes up as it was raised.
        # Whichever way this is left, a hard cancel included, response.close() must run.
        # At the end of the stream, the reply is assemble(chunks). One of the lab's tests:
        #     a stream that goes quiet for ever after two lines still ends aborted within
        #     five turns of h.cancel(), and provider.open_responses() == [] afterwards
        return assemble([])  # until the reading is written: a reply that never arrived
        #: end
#: end
