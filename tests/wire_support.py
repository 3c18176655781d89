"""A loopback stand-in for the providers' APIs, for the wire tests and the live-run tests.

:class:`Recorder` is a stdlib HTTP server on 127.0.0.1 (a free port) that records every request (path,
headers, raw body, parsed JSON) and answers from a script: one reply per request, in order. The ``*_reply``
functions build each provider's answer carrying tool calls (or text), in the shape its official SDK parses;
``SDK`` builds each official client pointed at the server, retries off.

The comparison helpers say what "equal" means on the wire: :func:`same_json` is equality of JSON text
(key order, ``1`` against ``1.0``, every value); :func:`gemini_as_given` undoes google-genai's documented
re-spelling of a ``parameters`` Schema (see ``tests/wire/test_wire.py``).
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "REPLIES",
    "Captured",
    "Recorder",
    "anthropic_reply",
    "chat_reply",
    "client",
    "gemini_as_given",
    "gemini_reply",
    "ordered_like",
    "parts",
    "responses_reply",
    "same_json",
    "sent_replies",
]


@dataclass
class Captured:
    method: str
    path: str
    headers: dict[str, str]
    raw: bytes
    json: Any = field(default=None)


class Recorder:
    """Records requests on 127.0.0.1 and answers each with the next ``(status, body)`` of ``replies``."""

    def __init__(self, replies: list[tuple[int, Any]]) -> None:
        self.replies = list(replies)
        self.requests: list[Captured] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                headers = {key.lower(): value for key, value in self.headers.items()}
                captured = Captured(self.command, self.path, headers, raw, json.loads(raw) if raw else None)
                recorder.requests.append(captured)
                status, body = recorder.answer(captured)
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def answer(self, captured: Captured) -> tuple[int, Any]:
        """The next scripted reply (a subclass may decide from the request instead)."""
        return self.replies.pop(0) if self.replies else (500, {"error": "no reply left"})

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> Recorder:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


# -- what each provider answers -------------------------------------------------------------------------
Calls = list[tuple[str, str, Any]]  # (call id, tool name, arguments)


def gemini_reply(calls: Calls, text: str = "") -> dict[str, Any]:
    parts: list[dict[str, Any]] = [{"functionCall": {"id": i, "name": n, "args": a}} for i, n, a in calls]
    if text:
        parts.append({"text": text})
    content = {"role": "model", "parts": parts}
    return {"candidates": [{"content": content, "finishReason": "STOP", "index": 0}], "modelVersion": "loopback"}


def chat_reply(calls: Calls, text: str = "") -> dict[str, Any]:
    tool_calls = [
        {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}} for i, n, a in calls
    ]
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if tool_calls:
        message["tool_calls"] = tool_calls
    choice = {"index": 0, "finish_reason": "tool_calls" if calls else "stop", "message": message}
    return {"id": "chat-1", "object": "chat.completion", "created": 0, "model": "loopback", "choices": [choice]}


def responses_reply(calls: Calls, text: str = "") -> dict[str, Any]:
    output: list[dict[str, Any]] = [
        {"type": "function_call", "id": f"fc-{i}", "call_id": i, "name": n, "arguments": json.dumps(a),
         "status": "completed"}
        for i, n, a in calls
    ]  # fmt: skip
    if text:
        content = [{"type": "output_text", "text": text, "annotations": []}]
        output.append({"type": "message", "id": "m1", "role": "assistant", "status": "completed", "content": content})
    return {
        "id": "resp-1",
        "object": "response",
        "created_at": 0,
        "status": "completed",
        "model": "loopback",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


def anthropic_reply(calls: Calls, text: str = "") -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "tool_use", "id": i, "name": n, "input": a} for i, n, a in calls]
    if text:
        content.append({"type": "text", "text": text})
    return {
        "id": "msg-1",
        "type": "message",
        "role": "assistant",
        "model": "loopback",
        "content": content,
        "stop_reason": "tool_use" if calls else "end_turn",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


REPLIES: dict[str, Callable[..., dict[str, Any]]] = {
    "gemini": gemini_reply,
    "gemini_json": gemini_reply,
    "openai": chat_reply,
    "openai_responses": responses_reply,
    "anthropic": anthropic_reply,
}


@contextlib.contextmanager
def client(dialect: str, url: str) -> Iterator[Any]:
    """The official SDK client of ``dialect``'s provider, pointed at ``url``, retries off, a test key; closed
    on exit (an open connection pool would be a ``ResourceWarning`` later)."""
    sdk = _client(dialect, url)
    try:
        yield sdk
    finally:
        sdk.close()


def _client(dialect: str, url: str) -> Any:
    if dialect in ("gemini", "gemini_json"):
        from google import genai
        from google.genai import types

        options = types.HttpOptions(base_url=url, retry_options=types.HttpRetryOptions(attempts=1))
        return genai.Client(api_key="test-key", http_options=options)
    if dialect in ("openai", "openai_responses"):
        import openai

        return openai.OpenAI(api_key="test-key", base_url=f"{url}/v1", max_retries=0, timeout=10)
    import anthropic

    return anthropic.Anthropic(api_key="test-key", base_url=url, max_retries=0, timeout=10)


# -- what "equal" means on the wire -----------------------------------------------------------------------
def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON text: the same keys in the same order, the same values, ``1`` differs from ``1.0``."""
    return json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False)


def _aliases() -> dict[str, str]:
    from google.genai import types

    return {name: info.alias or name for name, info in types.Schema.model_fields.items()}


_BOUNDS = frozenset({"minimum", "maximum"})


def gemini_as_given(schema: Any, given: Any) -> Any:
    """A ``parameters`` Schema as google-genai sent it, with its re-spelling undone against what was given:
    snake_case keywords back to the camelCase aliases of ``types.Schema``, and float bounds back to the
    integers they were given as. Keys keep the order they were sent in."""
    if not isinstance(schema, Mapping):
        return schema
    aliases = _aliases()
    out: dict[str, Any] = {}
    for key, value in schema.items():
        name = aliases.get(key, key)
        before = given.get(name) if isinstance(given, Mapping) else None
        if name == "properties":
            out[name] = {prop: gemini_as_given(sub, (before or {}).get(prop)) for prop, sub in value.items()}
        elif name == "items":
            out[name] = gemini_as_given(value, before)
        elif name == "anyOf":
            out[name] = [gemini_as_given(sub, b) for sub, b in zip(value, before or [None] * len(value), strict=True)]
        elif name in _BOUNDS and isinstance(before, int) and isinstance(value, float) and value == before:
            out[name] = before
        else:
            out[name] = value  # default, enum, example: JSON values, never re-spelled
    return out


def ordered_like(value: Any, model: Any) -> Any:
    """``value`` with every object's keys in ``model``'s order (keys ``model`` lacks go last)."""
    if isinstance(value, Mapping) and isinstance(model, Mapping):
        keys = [k for k in model if k in value] + [k for k in value if k not in model]
        return {k: ordered_like(value[k], model.get(k)) for k in keys}
    if isinstance(value, list) and isinstance(model, list) and len(value) == len(model):
        return [ordered_like(v, m) for v, m in zip(value, model, strict=True)]
    return value


def sent_replies(dialect: str, request: Captured) -> list[dict[str, Any]]:
    """The function-response items the second request carries, as ``{id, name?, envelope, error?}``."""
    found: list[dict[str, Any]] = []
    if dialect.startswith("gemini"):
        for part in parts(request):
            response = part.get("functionResponse") or part.get("function_response")
            if response:
                (key, envelope), *_ = response["response"].items()
                found.append({"id": response["id"], "name": response["name"], "envelope": envelope, "key": key})
    elif dialect == "openai":
        for message in request.json["messages"]:
            if message["role"] == "tool":
                found.append({"id": message["tool_call_id"], "envelope": json.loads(message["content"])})
    elif dialect == "openai_responses":
        for item in request.json["input"]:
            if item.get("type") == "function_call_output":
                found.append({"id": item["call_id"], "envelope": json.loads(item["output"])})
    else:
        content = request.json["messages"][-1]["content"]
        for block in [] if isinstance(content, str) else content:  # a first request's text is a string
            if block["type"] == "tool_result":
                found.append(
                    {"id": block["tool_use_id"], "envelope": json.loads(block["content"]), "error": block["is_error"]}
                )
    return found


def parts(request: Captured) -> Iterator[dict[str, Any]]:
    """Every part of every content of a Gemini request."""
    for content in request.json["contents"]:
        yield from content["parts"]
