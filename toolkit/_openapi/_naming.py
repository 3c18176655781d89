"""Tool and argument names: deterministic, sanitised, never silently truncated or suffixed.

Tool names: ``<namespace>_<snake_case(operationId)>``, or the extension's / overrides' ``name`` verbatim;
characters outside ``[A-Za-z0-9_.:-]`` become ``_``; the first character must be a letter or ``_``; at most
128 characters (a longer name is refused, ``name_too_long``). Two operations that end with the same name are
**both refused** with ``name_collision``, each message naming the other operation: refusing (rather than
raising :class:`~toolkit.NamingError`) keeps failures per operation, so one clash in a 1,000-operation spec
does not hide the other 998 tools. A bad *namespace* is a programming error and raises ``NamingError``.

Argument names must match ``[A-Za-z_][A-Za-z0-9_]{0,63}``: a name that does not is lowercased with each run of
other characters turned into one ``_`` (``X-Request-ID`` → ``x_request_id``, ``page[size]`` → ``page_size``);
the binding keeps the original name. Two arguments that end up alike are refused (``argument_collision``).
"""

from __future__ import annotations

import re

from toolkit._contract import PARAMETER_NAME
from toolkit._exceptions import NamingError
from toolkit._openapi._refusal import Refusal

__all__ = ["MAX_ARG", "MAX_NAME", "argument_name", "check_namespace", "snake_case", "tool_name"]

MAX_NAME = 128
MAX_ARG = 64
_NAME_OK = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]*")
_ACRONYM = re.compile(r"([A-Z]+)([A-Z][a-z])")
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_SEPARATORS = re.compile(r"[\s/\-]+")
_UNDERSCORES = re.compile(r"_+")
_NOT_NAME = re.compile(r"[^A-Za-z0-9_.:-]")
_NOT_ARG = re.compile(r"[^A-Za-z0-9_]+")


def snake_case(text: str) -> str:
    """``listOrders`` → ``list_orders``, ``getHTTPStatus`` → ``get_http_status``, ``repos/get-content`` →
    ``repos_get_content``."""
    lowered = text.lower()
    if lowered == text:  # no capital to split at (GitHub's ids): the camelCase steps would change nothing
        return _UNDERSCORES.sub("_", _SEPARATORS.sub("_", text))
    text = _CAMEL.sub(r"\1_\2", _ACRONYM.sub(r"\1_\2", text))
    return _UNDERSCORES.sub("_", _SEPARATORS.sub("_", text)).lower()


def check_namespace(namespace: str) -> str:
    """Validate the namespace (a programming error when wrong, so it raises)."""
    if not isinstance(namespace, str) or (namespace and not _NAME_OK.fullmatch(namespace)):
        shown = repr(namespace)[:80] if isinstance(namespace, str) else f"of type {type(namespace).__name__}"
        raise NamingError(
            f"namespace {shown} must start with a letter or '_' and use only letters, digits, '_', '.', "
            "':' or '-' (for example 'orders')",
            slug="bad_namespace",
        )
    return namespace


def tool_name(namespace: str, operation_id: str | None, explicit: str | None) -> str:
    """The tool name for one operation (explicit names are used as written, only sanitised)."""
    if explicit is not None:
        raw = explicit
    elif operation_id is not None:
        snake = snake_case(operation_id).strip("_") or "_"
        raw = f"{namespace}_{snake}" if namespace else snake
    else:
        raise Refusal("missing_operation_id", "the operation has no operationId; add one or name it in x-agent-tool")
    name = _NOT_NAME.sub("_", raw)
    if not name or not (name[0].isascii() and (name[0].isalpha() or name[0] == "_")):
        name = f"_{name}"
    if len(name) > MAX_NAME:
        raise Refusal(
            "name_too_long",
            f"tool name {name[:40]}… is {len(name)} characters (at most {MAX_NAME}); give the operation a shorter "
            "name with x-agent-tool.name or an overrides entry",
        )
    return name


def argument_name(original: str) -> str:
    """The argument name for a parameter or body property (its binding keeps ``original``)."""
    if PARAMETER_NAME.fullmatch(original):
        return original
    name = _NOT_ARG.sub("_", original).strip("_").lower()
    if name and name[0].isdigit():
        name = f"_{name}"
    if not PARAMETER_NAME.fullmatch(name):
        raise Refusal(
            "bad_argument_name",
            f"argument {original[:80]!r} cannot be named within [A-Za-z_][A-Za-z0-9_]{{0,{MAX_ARG - 1}}}",
        )
    return name
