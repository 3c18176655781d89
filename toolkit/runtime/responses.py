"""HTTP responses and transport failures as envelopes: what the model reads back from an HTTP tool.

* 2xx → ``ok`` with the JSON body (or text), trimmed by the tool's :class:`~toolkit.runtime.trim.Trim`;
* 400 / 422 → ``invalid_arguments`` (the API says the arguments are malformed), the server's message trimmed;
* 403 / 404 / 409 / other 4xx → ``rejected`` (a domain answer), with a stable code (``not_found``, ...);
* 401 / 407 → ``error``, not retryable (the tool's credentials, not the model, are wrong);
* 408 → ``timeout``; 429 and 5xx (but 501 / 505) → ``error``, retryable;
* timeouts → ``timeout``, connection failures → ``error``, both retryable.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toolkit._envelope import FieldError, ToolResult
from toolkit._envelope_codes import FieldCode
from toolkit.runtime.trim import Trim, trim

if TYPE_CHECKING:
    import httpx

__all__ = ["to_result", "transport_error"]


_REJECTED_CODES: dict[int, FieldCode] = {
    403: "forbidden",
    404: "not_found",
    409: "conflict",
    410: "gone",
    412: "precondition_failed",
}
_EXPECTED = {
    "forbidden": "an action the caller is allowed to take",
    "not_found": "an id that exists (look it up first)",
    "conflict": "a request the resource's current state allows",
}


def _decode(response: httpx.Response) -> Any:
    if not response.content:
        return None
    if "json" in response.headers.get("content-type", ""):
        try:
            return response.json()
        except ValueError:
            pass
    return response.text


def _server_message(body: Any, status: int, limit: int) -> str:
    text = ""
    if isinstance(body, Mapping):
        parts = [str(body[k]) for k in ("title", "detail", "message", "error") if isinstance(body.get(k), str | int)]
        text = ": ".join(dict.fromkeys(parts)) or json.dumps(body, ensure_ascii=False, default=str)
    elif body is not None:
        text = str(body)
    text = " ".join(text.split()) or f"HTTP {status}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def to_result(response: httpx.Response, settings: Trim, message_limit: int = 300) -> ToolResult:
    """Map an HTTP response to an envelope: 2xx ok (trimmed), 4xx rejected/invalid_arguments, else error."""
    status = response.status_code
    body = _decode(response)
    if 200 <= status < 300:
        data, notices = trim(body, settings)
        return ToolResult(status="ok", data=data, notices=notices)
    message = _server_message(body, status, message_limit)
    if status in (400, 422):
        error = FieldError("", "server_rejected", message, "arguments the API accepts")
        return ToolResult(status="invalid_arguments", errors=(error,), message=f"HTTP {status}: {message}")
    if status in (401, 407):
        return ToolResult(
            status="error", retryable=False, message=f"HTTP {status}: the API refused the tool's credentials"
        )
    if status == 408:
        return ToolResult(status="timeout", retryable=True, message=f"HTTP 408: {message}")
    if status == 429:
        return ToolResult(status="error", retryable=True, message=f"HTTP 429 (rate limited): {message}")
    if 400 <= status < 500:
        code = _REJECTED_CODES.get(status, f"http_{status}")
        error = FieldError("", code, message, _EXPECTED.get(code, "a request the API accepts"))
        return ToolResult(status="rejected", errors=(error,), message=f"HTTP {status}: {message}")
    return ToolResult(status="error", retryable=status not in (501, 505), message=f"HTTP {status}: {message}")


def transport_error(exc: httpx.HTTPError, base_url: str) -> ToolResult:
    # httpx loads on the first request: validating arguments never needs it.
    import httpx

    kind = type(exc).__name__
    if isinstance(exc, httpx.TimeoutException):
        return ToolResult(status="timeout", retryable=True, message=f"the API at {base_url} did not answer in time")
    if isinstance(exc, httpx.TransportError):
        return ToolResult(status="error", retryable=True, message=f"could not reach the API at {base_url} ({kind})")
    return ToolResult(status="error", retryable=False, message=f"the request failed ({kind})")
