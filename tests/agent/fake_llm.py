"""Small fake model servers on 127.0.0.1 that speak the OpenAI chat-completions API and the Gemini
generateContent API, so the real client libraries (openai, google-genai) run end to end.

The scripted "brain" is the same for both: with no tool result in the conversation it calls
vector_search with the user's question (the last user message); once a tool result of this
question is there it answers through the output tool, quoting the first sentence of the top
passage it was sent. A script of HTTP statuses can make requests fail first (429, 500 …). A
request with `"stream": true` (OpenAI) is answered as server-sent events, the arguments of the
call cut in small pieces sent `chunk_delay_s` apart, as a real server streams tokens; Gemini's
streamGenerateContent gets its one reply as one event (Gemini sends a function call whole).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

OUTPUT_TOOL = "final_result"


def passages_in(value: Any) -> Iterator[dict[str, Any]]:
    """Every passage-shaped dict in a request body (tool results may be JSON inside strings)."""
    if isinstance(value, str) and value[:1] in "[{":
        try:
            value = json.loads(value)
        except ValueError:
            return
    if isinstance(value, dict):
        if "chunk_id" in value and "text" in value:
            yield value
        for item in value.values():
            yield from passages_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from passages_in(item)


def first_sentence(text: str) -> str:
    flat = " ".join(text.split())
    m = re.search(r"[。！？!?.]", flat)
    return flat[: m.end()] if m else flat[:60]


STACK = re.compile(r"most recent first: ([^,.]+)")


def decide(question: str, body: Any, instructions: str = "") -> tuple[str, dict[str, Any]]:
    """(tool name, arguments) the fake model sends for this request; `body` is what came after
    the question (earlier turns' passages do not count). Like a language model it reads 他 as
    the entity talked about last, which the instructions name, and says so."""
    found = list(passages_in(body))
    if not found:
        return "vector_search", {"query": question, "top_k": 3}
    top = found[0]
    quote = first_sentence(top["text"])
    last = STACK.search(instructions)
    resolved = question.replace("他", last.group(1), 1) if last else question
    answer = {"resolved_question": resolved, "text": f"{quote} [1]",
              "citations": [{"chunk_id": top["chunk_id"], "quote": quote}],
              "entities": top.get("entities", [])[:2], "stop_reason": "answered"}
    return OUTPUT_TOOL, answer


@dataclass
class FakeServer:
    """A scripted HTTP server; `failures` are statuses returned before the brain is asked."""

    api: str  # "openai" or "gemini"
    failures: list[int] = field(default_factory=list)
    retry_after_ms: int | None = None
    delay_s: float = 0.0
    """Wait this long before answering (to make the client time out)."""
    chunk_delay_s: float = 0.0
    """Between two pieces of a streamed answer."""
    answer_gate: threading.Semaphore | None = None
    """When set, each piece of a streamed final answer (the output tool's call) waits for a
    permit: a test lets the pieces through one at a time, whatever the machine's load."""
    pieces_sent: int = 0
    """Pieces of a gated final answer written so far."""
    echo_key: bool = False
    """Failures quote the request's API key back, as OpenAI's "Incorrect API key provided: …"
    does (to check that the key never reaches the session database)."""
    brain: Callable[[dict[str, Any], int], dict[str, Any]] | None = None
    """OpenAI only: (request body, request number from 1) → the assistant message to send
    (`content` text and/or `tool_calls`), in place of the scripted brain above."""
    requests: list[dict[str, Any]] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                size = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(size) or b"{}")
                key = (self.headers.get("authorization", "").removeprefix("Bearer ")
                       or self.headers.get("x-goog-api-key", ""))
                status, payload = server.respond(self.path, body, key)
                if server.delay_s:
                    time.sleep(server.delay_s)
                if status == 200 and (body.get("stream") or "streamGenerateContent" in self.path):
                    self.stream(payload)
                    return
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                if status >= 400 and server.retry_after_ms is not None:
                    self.send_header("retry-after-ms", str(server.retry_after_ms))
                try:
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and hung up, as the timeout test wants

            def stream(self, reply: dict[str, Any]) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                chunks = _openai_chunks(reply) if server.api == "openai" else [reply]
                gate = server.answer_gate if OUTPUT_TOOL in json.dumps(reply) else None
                try:
                    for chunk in chunks:
                        if gate is not None:
                            gate.acquire()
                        self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                        self.wfile.flush()
                        if gate is not None:
                            server.pieces_sent += 1
                        time.sleep(server.chunk_delay_s)
                    if server.api == "openai":
                        self.wfile.write(b"data: [DONE]\n\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client hung up (the user cancelled)

            def log_message(self, *args: Any) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}" + ("/v1" if self.api == "openai" else "")

    def __enter__(self) -> FakeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def respond(self, path: str, body: dict[str, Any], key: str = "") -> tuple[int, dict[str, Any]]:
        self.requests.append({"path": path, "body": body})
        if self.failures:
            status = self.failures.pop(0)
            self.statuses.append(status)
            return status, _error(self.api, status, key if self.echo_key else "")
        self.statuses.append(200)
        if self.api == "openai" and self.brain is not None:
            return 200, _openai_message(body, len(self.requests),
                                        self.brain(body, len(self.requests)))
        if self.api == "openai":
            return 200, _openai_reply(body, len(self.requests))
        return 200, _gemini_reply(body)


def _error(api: str, status: int, key: str = "") -> dict[str, Any]:
    message = "rate limited, slow down" if status == 429 else "the fake server is failing"
    if key:
        message = f"Incorrect API key provided: {key}. You can find your API key at the dashboard."
    if api == "openai":
        return {"error": {"message": message, "type": "server_error", "code": None}}
    state = "UNAVAILABLE" if status == 429 else "INTERNAL"  # not RESOURCE_EXHAUSTED: that reads as quota
    return {"error": {"code": status, "message": message, "status": state}}


def _openai_reply(body: dict[str, Any], n: int) -> dict[str, Any]:
    messages = body["messages"]
    last = max(i for i, m in enumerate(messages) if m["role"] == "user")
    system = "\n".join(str(m["content"]) for m in messages if m["role"] in ("system", "developer"))
    name, args = decide(str(messages[last]["content"]), messages[last + 1:], system)
    call = {"id": f"call_{n}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
    return {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1_700_000_000,
            "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "tool_calls",
                         "message": {"role": "assistant", "content": None, "tool_calls": [call]}}],
            "usage": {"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70}}


def _openai_message(body: dict[str, Any], n: int, message: dict[str, Any]) -> dict[str, Any]:
    """A chat completion carrying `message` (text content, tool calls or both)."""
    calls = [{"id": f"call_{n}_{i}", "type": "function",
              "function": {"name": c["name"], "arguments": json.dumps(c["arguments"],
                                                                      ensure_ascii=False)}}
             for i, c in enumerate(message.get("tool_calls", []))]
    reply: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
    if calls:
        reply["tool_calls"] = calls
    return {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1_700_000_000,
            "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "tool_calls" if calls else "stop",
                         "message": reply}],
            "usage": {"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70}}


def _openai_chunks(reply: dict[str, Any], size: int = 6) -> Iterator[dict[str, Any]]:
    """A chat completion as stream chunks: the tool call's name, then its arguments `size`
    characters at a time (or its text content, `size` characters at a time), then the finish
    reason and the usage."""
    message = reply["choices"][0]["message"]
    head = {k: reply[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return head | {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    if not message.get("tool_calls"):
        text = message.get("content") or ""
        yield chunk({"role": "assistant", "content": ""})
        for at in range(0, len(text), size):
            yield chunk({"content": text[at:at + size]})
        yield chunk({}, "stop")
        yield head | {"choices": [], "usage": reply["usage"]}
        return
    call = message["tool_calls"][0]

    yield chunk({"role": "assistant", "tool_calls": [{"index": 0, "id": call["id"],
                 "type": "function", "function": {"name": call["function"]["name"],
                                                  "arguments": ""}}]})
    args = call["function"]["arguments"]
    for at in range(0, len(args), size):
        yield chunk({"tool_calls": [{"index": 0, "function": {"arguments": args[at:at + size]}}]})
    yield chunk({}, "tool_calls")
    yield head | {"choices": [], "usage": reply["usage"]}


def _gemini_reply(body: dict[str, Any]) -> dict[str, Any]:
    contents = body["contents"]
    last = max(i for i, c in enumerate(contents) if c.get("role") == "user"
               and any("text" in p for p in c.get("parts", [])))
    question = next(p["text"] for p in contents[last]["parts"] if "text" in p)
    name, args = decide(question, contents[last + 1:])
    return {"candidates": [{"index": 0, "finishReason": "STOP", "content": {
                "role": "model", "parts": [{"functionCall": {"name": name, "args": args}}]}}],
            "usageMetadata": {"promptTokenCount": 50, "candidatesTokenCount": 20,
                              "totalTokenCount": 70},
            "modelVersion": "gemini-fake"}
