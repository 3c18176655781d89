"""Binding: a tool's cleaned arguments → the HTTP request its binding map describes, before credentials.

:func:`bind_request` puts each argument where the tool's binding says: the URL path (percent-encoded, never
``.`` or ``..``), the query (arrays as repeated keys), a header (printable ASCII only) or the body (one hoisted
field, or the whole body). A value with a lone surrogate (JSON can spell ``"\\ud800"``; UTF-8 cannot carry it, so
no request can) is ``invalid_json``. What the runtime adds itself (credentials, the idempotency key) and how the body is
encoded (JSON or a form) happen later, in :class:`toolkit.runtime.http.HttpTool`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from toolkit._contract import FormEncoding, parse_binding
from toolkit._envelope import FieldError, ToolResult
from toolkit._envelope_codes import FieldCode
from toolkit._tool import Tool
from toolkit.runtime.forms import FORM_CONTENT_TYPE

__all__ = ["HEADER_NAME", "LONE_SURROGATE", "HttpRequest", "bind_request"]

_TEMPLATE = re.compile(r"\{([^{}]+)\}")
HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
"""An HTTP header name (RFC 9110 token)."""
_HEADER_VALUE = re.compile(r"[\x20-\x7e\t]*")
_NO_BODY = object()
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""Half of a UTF-16 pair on its own: JSON can spell it, UTF-8 cannot encode it."""


@dataclass(frozen=True, slots=True)
class HttpRequest:
    """A bound request, before credentials: what a confirmation shows and what is sent."""

    method: str
    path: str
    query: tuple[tuple[str, str], ...] = ()
    headers: Mapping[str, str] = field(default_factory=dict)
    body: Any = _NO_BODY
    form: Mapping[str, FormEncoding] | None = None
    """``None``: the body is sent as JSON; else it is a form, each field encoded as this maps it."""

    @property
    def has_body(self) -> bool:
        return self.body is not _NO_BODY

    def summary(self) -> dict[str, Any]:
        """A JSON view of the request (no credentials, no idempotency key: they are added only when sending)."""
        out: dict[str, Any] = {"method": self.method, "path": self.path}
        if self.query:
            out["query"] = [list(pair) for pair in self.query]
        if self.headers:
            out["headers"] = dict(self.headers)
        if self.has_body:
            out["body"] = self.body
            if self.form is not None:
                out["content_type"] = FORM_CONTENT_TYPE
        return out


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return str(value)


_PRINTABLE = "printable ASCII text (a header value)"


def _bad_binding(field_name: str, code: FieldCode, problem: str, expected: str) -> ToolResult:
    return ToolResult(status="invalid_arguments", errors=(FieldError(field_name, code, problem, expected),))


def _has_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return LONE_SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_has_surrogate(key) or _has_surrogate(item) for key, item in value.items())
    return isinstance(value, list) and any(_has_surrogate(item) for item in value)


def bind_request(tool: Tool, args: Mapping[str, Any]) -> HttpRequest | ToolResult:
    """Rebuild the HTTP request from cleaned arguments with the tool's binding map."""
    path_values: dict[str, str] = {}
    query: list[tuple[str, str]] = []
    headers: dict[str, str] = {}
    body: Any = _NO_BODY
    for arg, value in args.items():
        if _has_surrogate(value):
            problem = "holds a lone surrogate (half of a UTF-16 pair), which no request can carry"
            return _bad_binding(arg, "invalid_json", problem, "text without lone surrogates")
        where = tool.contract.binding.get(arg)
        if where is None:
            return ToolResult(status="error", message=f"argument {arg!r} has no binding; regenerate the tool")
        location, original = parse_binding(where)
        target = original or arg
        if value is None and location != "body":
            continue
        if location == "path":
            if _text(value) in (".", ".."):
                return _bad_binding(arg, "path_traversal", f"{value!r} is not an id", "an id, not '.' or '..'")
            path_values[target] = quote(_text(value), safe="")
        elif location == "query":
            items = value if isinstance(value, list) else [value]
            query.extend((target, _text(item)) for item in items)
        elif location == "header":
            if not HEADER_NAME.fullmatch(target):
                return ToolResult(status="error", message=f"header name {target!r} is not valid HTTP; fix the spec")
            if not _HEADER_VALUE.fullmatch(text := _text(value)):
                return _bad_binding(arg, "bad_header_value", "contains control or non-ASCII characters", _PRINTABLE)
            headers[target] = text
        elif original is None:
            body = value
        else:
            body = {} if body is _NO_BODY else body
            body[original] = value
    missing = [name for name in _TEMPLATE.findall(tool.path or "") if name not in path_values]
    if missing:
        return _bad_binding(missing[0], "missing", "path parameter has no value", "a value for the URL path")
    path = _TEMPLATE.sub(lambda m: path_values[m.group(1)], tool.path or "")
    method = (tool.method or "GET").upper()
    form = tool.contract.form
    return HttpRequest(method=method, path=path, query=tuple(query), headers=headers, body=body, form=form)
