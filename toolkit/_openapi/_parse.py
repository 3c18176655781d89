"""OpenAPI text to a value: JSON (``orjson``, then the standard parser for what it refuses) or safe YAML.

Documents over :data:`MAX_BYTES`, nesting deeper than the parser can follow and integers longer than 4,000 digits
are refused with a :class:`~toolkit.SpecError`. The loader, the lock file and the overrides side file all read text
through :func:`parse_text`.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from toolkit._exceptions import SpecError
from toolkit._openapi._plain import check_int_literal

__all__ = ["MAX_BYTES", "parse_text", "strip_bom"]

MAX_BYTES = 64 * 1024 * 1024
"""The largest document read (GitHub's full description is about 13 MB)."""


def parse_text(text: str | bytes) -> Any:
    """Parse JSON (``orjson`` first, the standard parser for what it refuses) or safe YAML; refuse what cannot be
    read."""
    if len(text) > MAX_BYTES:
        raise SpecError(f"the document is larger than {MAX_BYTES // 2**20} MiB", slug="too_large")
    looks_like_json = text.lstrip()[:1] in ("{", "[", b"{", b"[")
    try:
        if looks_like_json:
            parsed = _parse_json(text)
            if parsed is not _NOT_JSON:
                return parsed
        # PyYAML loads only when YAML text is read.
        from toolkit._openapi._yaml import parse_yaml

        return parse_yaml(_decode(text) if isinstance(text, bytes) else text)
    except SpecError as error:
        if not (looks_like_json and error.slug == "parse_error"):
            raise
        raise SpecError(f"not valid JSON: {_json_problem(text)}", slug="parse_error") from None
    except RecursionError:
        raise SpecError("the document nests deeper than the parser can follow", slug="too_deep") from None


_NOT_JSON = object()


def _json_problem(text: str | bytes) -> str:
    """Where and why the standard parser stops on JSON-looking text that YAML cannot read either."""
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return f"line {error.lineno}, column {error.colno}: {error.msg}"
    except (UnicodeDecodeError, RecursionError, ValueError) as error:
        return str(error)
    return "the JSON parser and the YAML parser both refuse it"


def _parse_json(text: str | bytes) -> Any:
    """JSON, or ``_NOT_JSON`` (YAML flow style also starts with "{": the YAML parser decides then)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        pass  # also NaN or integers beyond 64 bits, which the standard parser accepts
    try:
        return json.loads(text, parse_int=_int)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return _NOT_JSON


def _int(literal: str) -> int:
    """An integer literal on the standard parser's path (orjson reads those up to 64 bits)."""
    check_int_literal(literal)
    return int(literal)


def strip_bom(data: bytes) -> bytes:
    return data[3:] if data.startswith(b"\xef\xbb\xbf") else data


def _decode(data: bytes) -> str:
    if len(data) > MAX_BYTES:
        raise SpecError(f"the document is larger than {MAX_BYTES // 2**20} MiB", slug="too_large")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SpecError("the document is not UTF-8 text", slug="parse_error") from None
