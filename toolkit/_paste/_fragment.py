"""An OpenAPI fragment, pasted: its toolset (or the author's mistake), and fragments cut from a document.

:func:`openapi_toolset` builds the tools of pasted text with :func:`toolkit.from_openapi` (as the value read
block by block, or as bytes, so a short line ending in ``.yaml`` is never read as a path). :func:`cut` makes the
fragment an author would paste for some operations of a whole document: those operations under ``paths``, the
components they reference (followed transitively), the security schemes, and the document's ``openapi`` and
``info``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, MutableMapping
from typing import Any

from toolkit._exceptions import SchemaError, SpecError, ToolkitError
from toolkit._openapi import from_openapi
from toolkit._paste._chunks import parse_blocks
from toolkit._paste._problem import Problem, problem_of
from toolkit._schema import tokens
from toolkit._tool import Toolset

__all__ = ["cut", "openapi_toolset"]

_KEEP = ("openapi", "swagger", "info", "security", "consumes", "produces", "servers", "host", "basePath", "schemes")


def openapi_toolset(
    text: str, namespace: str, select: str = "extension", blocks: MutableMapping[str, Any] | None = None
) -> Toolset | Problem:
    """The toolset of a pasted fragment; a document that cannot be read is the author's mistake, with its line.

    With ``blocks`` (a cache the caller keeps across edits), YAML is read a block at a time and only the blocks
    an edit changed are parsed again (:mod:`._chunks`); text the blocks cannot vouch for is read whole.
    """
    parsed = parse_blocks(text, blocks) if blocks is not None else None
    try:
        source = parsed if parsed is not None else text.encode("utf-8", "surrogatepass")
        toolset = from_openapi(source, namespace, select=select)
    except ToolkitError as error:
        return _within(problem_of(error), text)
    if not toolset.tools and not toolset.rejected:
        hint = (
            "add `x-agent-tool: true` under an operation to opt it in, or choose all operations"
            if select == "extension"
            else "add an operation (get, post, ...) under a path"
        )
        return Problem("no_tools", f"the fragment has no operation that can become a tool: {hint}")
    return toolset


def _within(problem: Problem, text: str) -> Problem:
    """A problem the parser found past the last line (an unclosed bracket: the text ended first) is put on the
    last line that holds text, where the author can see and fix it."""
    lines = text.splitlines()
    last = max((i + 1 for i, line in enumerate(lines) if line.strip()), default=0)
    if problem.line is None or problem.line <= len(lines) or not last:
        return problem
    message = re.sub(rf"\bline {problem.line}(, column \d+)?", f"line {last}", problem.message)
    return Problem(problem.slug, f"{message} (the text ends before it is closed)", last)


def _references(node: Any) -> Iterable[str]:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/"):
                yield ref
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _component_key(ref: str) -> tuple[str, ...] | None:
    """The location of the component a local reference reads from (``components/<kind>/<name>`` in 3.x,
    ``definitions/<name>`` and the like in Swagger 2.0); ``None`` for a reference into ``paths``."""
    try:
        parts = tokens(ref)
    except (SchemaError, SpecError):
        return None
    if not parts or parts[0] == "paths":
        return None
    return parts[:3] if parts[0] == "components" else parts[:2]


def _get(root: Mapping[str, Any], key: tuple[str, ...]) -> Any:
    node: Any = root
    for part in key:
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def _put(out: dict[str, Any], key: tuple[str, ...], value: Any) -> None:
    node = out
    for part in key[:-1]:
        node = node.setdefault(part, {})
    node[key[-1]] = value


def cut(document: Mapping[str, Any], operations: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The fragment of ``document`` holding ``operations`` (``(path, method)`` pairs) and what they reference."""
    out: dict[str, Any] = {key: document[key] for key in _KEEP if key in document}
    paths: dict[str, Any] = {}
    for path, method in operations:
        item = document.get("paths", {}).get(path, {})
        kept = paths.setdefault(path, {k: v for k, v in item.items() if k in ("parameters", "servers", "summary")})
        kept[method] = item[method]
    out["paths"] = paths
    seen: set[tuple[str, ...]] = set()
    pending = list(_references(paths))
    while pending:
        key = _component_key(pending.pop())
        if key is None or key in seen:
            continue
        seen.add(key)
        value = _get(document, key)
        if value is not None:
            _put(out, key, value)
            pending.extend(_references(value))
    for schemes in ("securityDefinitions",):
        if schemes in document:
            out[schemes] = document[schemes]
    security = _get(document, ("components", "securitySchemes"))
    if security is not None:
        _put(out, ("components", "securitySchemes"), security)
    return out
