"""How each known Chat Completions server streams one reply, written down as data from what the
server's own source, tests, documentation or issue threads show, each with where it was read
and for which version. lab.FakeProvider(real=NAME) and lab.stream_lines(message, real=NAME)
answer in these shapes, so a harness meets in the lab what `course chat` meets on the wire.

None of these servers' code is copied: each recording says what a line holds, field by field,
and the functions below write a reply's lines in that shape."""

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Server:
    """One server's streaming shapes: `source` is where they were read (a repository, a path
    and a commit, or a page), `version` the releases they hold for, `shapes` what sets them
    apart, in a sentence."""
    name: str
    source: str
    version: str
    shapes: str


SERVERS = {server.name: server for server in (
    Server("openai",
           "OpenAI API reference, 'The chat completion chunk object' and the function-calling "
           "guide's streaming section (platform.openai.com/docs/api-reference/chat-streaming, "
           "platform.openai.com/docs/guides/function-calling#streaming)",
           "the Chat Completions API as documented in 2025",
           "the first chunk holds the role, \"content\" (\"\" before words, null before a call) "
           "and, for a reply that opens with a call, that call's first fragment (its id, name and "
           "empty arguments); later fragments hold only tool_calls with the index and a scrap of "
           "arguments; every choice spells out \"finish_reason\": null until the finish chunk"),
    Server("vllm",
           "vllm-project/vllm, vllm/entrypoints/openai/protocol.py (DeltaToolCall, "
           "DeltaFunctionCall: id, type and name only on a call's first delta) and "
           "serving_chat.py, chat_completion_stream_generator (a first chunk with the role and "
           "content \"\", chunks dumped without unset fields, the last delta sent in the chunk "
           "that carries the finish_reason)",
           "vLLM 0.6 to 0.11",
           "a call's first fragment carries its id, type and name and no arguments at all; the "
           "finish_reason rides on the chunk with the last piece"),
    Server("llamacpp",
           "ggml-org/llama.cpp, tools/server/server.cpp (server_sent_event(sink, \"error\", "
           "error_data) in the completions handler, then data: [DONE]); the error object is "
           "format_error_response's {code, message, type}",
           "llama.cpp server builds before September 2025",
           "a failure in the middle of a reply is an `error: {...}` line, not a data line; the "
           "first chunk holds the role and \"content\": null"),
    Server("ollama",
           "ollama/ollama, openai/openai.go at 00988753ff743bf26117964f6e43f9ebf10bce30 (ToChunk, "
           "ToToolCalls: a call whole in one chunk, its index taken from the model's output) and "
           "issue #15457 (every call of a reply at index 0, Ollama 0.20.2 and 0.20.4, "
           "qwen2.5-coder:7b)",
           "Ollama 0.4.7 to 0.20",
           "every delta repeats the role; each call comes whole in one chunk with its arguments "
           "as one string, and every call of a reply says \"index\": 0"),
    Server("ollama-0.4",
           "ollama/ollama issue #7881 (a recorded chunk: tool_calls with id, type and function, "
           "no index; fixed in 0.4.7)",
           "Ollama 0.4.6 and earlier (and, per issue 41, qwen2.5-coder today, ollama#15497)",
           "as \"ollama\", but a call carries no \"index\" at all"),
    Server("object-arguments",
           "a proxy in front of Ollama passing its native shape on (litellm#37792, cited by "
           "issue 41; Ollama's native /api/chat sends arguments as an object, as litellm PR "
           "#24095 shows)",
           "seen in 2026",
           "as \"openai\", but a call arrives whole with its \"arguments\" already a JSON "
           "object, not a string"),
)}
"""Every recorded server by name; FakeProvider(real=True) means "openai"."""

ENVELOPE = {
    "openai": {"id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT", "object": "chat.completion.chunk",
               "created": 1741570283, "model": "gpt-4o-mini-2024-07-18",
               "system_fingerprint": "fp_06737a9306"},
    "vllm": {"id": "chatcmpl-4b1c6a0f5e2d4c19", "object": "chat.completion.chunk",
             "created": 1741570283, "model": "Qwen/Qwen2.5-Coder-7B-Instruct"},
    "llamacpp": {"id": "chatcmpl-q0Y1hM3T", "object": "chat.completion.chunk",
                 "created": 1741570283, "model": "gpt-3.5-turbo",
                 "system_fingerprint": "b5350-c6a2c9e7"},
    "ollama": {"id": "chatcmpl-763", "object": "chat.completion.chunk", "created": 1741570283,
               "model": "qwen2.5-coder:7b", "system_fingerprint": "fp_ollama"},
}
ENVELOPE["ollama-0.4"] = ENVELOPE["ollama"]
ENVELOPE["object-arguments"] = ENVELOPE["openai"]

LLAMACPP_ERROR = {"code": 500, "message": "the request exceeds the available context size, "
                                          "try increasing it", "type": "exceed_context_size_error"}
"""What llama.cpp says on its `error:` line when a reply outgrows the context."""

RATE_LIMIT = {"error": {"message": "Rate limit reached for gpt-4o-mini in organization "
                                   "org-abc on requests per min (RPM): Limit 3, Used 3, "
                                   "Requested 1. Please try again in 20s.",
                        "type": "requests", "param": None, "code": "rate_limit_exceeded"}}
QUOTA = {"error": {"message": "You exceeded your current quota, please check your plan and "
                              "billing details.",
                   "type": "insufficient_quota", "param": None, "code": "insufficient_quota"}}
"""The two bodies of a 429 on OpenAI's API (its error-codes guide): too many requests now,
which waiting cures, and no quota left, which it does not."""


def server_named(real):
    """The Server that `real` (True, or a name in SERVERS) means; ValueError for any other."""
    name = "openai" if real is True else real
    if name not in SERVERS:
        raise ValueError(f"real=... is True or a recorded server, one of "
                         f"{', '.join(SERVERS)}; got {real!r}")
    return SERVERS[name]


def _line(server, choices, **more):
    return "data: " + json.dumps({**ENVELOPE[server], "choices": choices, **more})


def _choice(server, delta, finish=None):
    choice = {"index": 0, "delta": delta}
    if server != "ollama" and server != "ollama-0.4":
        choice["logprobs"] = None
    choice["finish_reason"] = finish
    return choice


def _first_part(server, index, call_id, name, first):
    part = {"index": index, "id": call_id, "type": "function",
            "function": {"name": name, "arguments": first}}
    if server == "vllm":
        del part["function"]["arguments"]  # vLLM names the call and sends no arguments yet
    if server == "ollama":
        part["index"] = 0  # ollama#15457: every call of a reply at index 0
    if server == "ollama-0.4":
        del part["index"]
    return part


def recorded_lines(message, server, *, pieces, finish):
    """The lines `server` streams for `message`, whose text and arguments are already cut into
    `pieces(text)`; `finish` is the finish_reason, or None for a reply built with fail(), which
    ends the server's own way. Called by provider.stream_lines, which checks the message."""
    name = server.name
    ollama = name in ("ollama", "ollama-0.4")
    deltas = []
    for block in message["content"]:
        if block["type"] == "text":
            for piece in pieces(block["text"]):
                delta = {"content": piece}
                if ollama:
                    delta = {"role": "assistant", "content": piece}
                deltas.append(delta)
            continue
        number = sum(1 for b in message["content"][:message["content"].index(block)]
                     if b["type"] == "toolCall")
        call_id = block["id"]
        arguments = json.dumps(block["arguments"])
        if ollama or name == "object-arguments":  # a call whole, in one chunk
            whole = block["arguments"] if name == "object-arguments" else arguments
            part = _first_part(name if ollama else "openai", number, call_id, block["name"],
                               whole)
            deltas.append({"role": "assistant", "content": "", "tool_calls": [part]} if ollama
                          else {"tool_calls": [part]})
            continue
        first = _first_part(name, number, call_id, block["name"], "")
        deltas.append({"tool_calls": [first]})
        for piece in pieces(arguments):
            deltas.append({"tool_calls": [{"index": number, "function": {"arguments": piece}}]})
    lines = []
    # the opening chunk: the role, alone, or (OpenAI) with a reply's first call fragment
    if not ollama:
        content = None if name == "llamacpp" else ""
        opening = {"role": "assistant", "content": content}
        if name in ("openai", "object-arguments"):
            opening["refusal"] = None
            if deltas and "tool_calls" in deltas[0]:
                opening = {"role": "assistant", "content": None,
                           "tool_calls": deltas.pop(0)["tool_calls"], "refusal": None}
        lines.append(_line(name, [_choice(name, opening)]))
    for number, delta in enumerate(deltas):
        last = number == len(deltas) - 1
        if name == "vllm" and last and finish is not None:
            lines.append(_line(name, [_choice(name, delta, finish)]))
            return lines + ["data: [DONE]"]
        lines.append(_line(name, [_choice(name, delta)]))
    if finish is None:  # the reply failed in the middle: each server says so its own way
        said = message.get("error_message", "")
        if name == "llamacpp":
            lines.append("error: " + json.dumps({"code": 500, "message": said,
                                                  "type": "server_error"}))
        else:
            lines.append("data: " + json.dumps({"error": {"message": said}}))
        return lines + ["data: [DONE]"]
    end = {"role": "assistant", "content": ""} if ollama else {}
    lines.append(_line(name, [_choice(name, end, finish)]))
    return lines + ["data: [DONE]"]
