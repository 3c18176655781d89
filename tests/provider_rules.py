"""The oracles a dialect's payload is checked against: each provider SDK's own types, and each provider's
documented schema rules written down here independently of toolkit's lowering.

``problems(dialect, body)`` returns every way ``body`` breaks the SDK's types or the provider's rules, as
``"<where>: <problem>"`` strings; an empty list means the payload is fit to send.

The SDK types (pydantic models or TypedDicts validated with ``strict=True``; a TypedDict silently drops keys
it does not know, so the validated copy is compared with the input):

* gemini, gemini_json: ``google.genai.types.FunctionDeclaration`` inside a ``types.Tool`` (warnings count);
* openai: ``openai.types.chat.ChatCompletionFunctionToolParam``; openai_responses:
  ``openai.types.responses.FunctionToolParam``;
* anthropic: ``anthropic.types.ToolParam``;
* mcp: ``mcp.types.Tool`` and the per-revision wire models of 2025-11-25 and 2026-07-28 (``mcp_types``),
  plus ``mcp.shared.tool_name_validation.validate_tool_name``.

The documented rules the types do not check:

* names: Gemini "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores,
  dots, colons and dashes, with a maximum length of 128" (``FunctionDeclaration.name``,
  https://ai.google.dev/api/caching#FunctionDeclaration); OpenAI "Must be a-z, A-Z, 0-9, or contain
  underscores and dashes, with a maximum length of 64" (``FunctionDefinition.name``,
  https://platform.openai.com/docs/api-reference/chat/create); Anthropic ``^[a-zA-Z0-9_-]{1,128}$``
  (https://platform.claude.com/docs/agents-and-tools/tool-use/define-tools; 64 in older copies, which is
  checked here); MCP ``[A-Za-z0-9._-]{1,128}``
  (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names);
* the arguments are one object: Gemini "The schema must describe an object"; OpenAI "Root objects must not be
  anyOf and must be an object"; Anthropic "input_schema does not support oneOf, allOf, or anyOf at the top
  level"; MCP "``type: "object"`` is required at the root";
* Gemini ``parametersJsonSchema``: "If $ref is set on a sub-schema, no other properties, except for those
  starting as a $, may be set" (https://ai.google.dev/api/generate-content#generationconfig);
* OpenAI strict mode (:func:`strict_problems`).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pydantic

__all__ = ["NAME_RULES", "STRICT_FORMATS", "STRICT_KEYWORDS", "problems", "strict_problems"]

NAME_RULES = {
    "gemini": r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}",
    "gemini_json": r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}",
    "openai": r"[A-Za-z0-9_-]{1,64}",
    "openai_responses": r"[A-Za-z0-9_-]{1,64}",
    "anthropic": r"[A-Za-z0-9_-]{1,64}",
    "mcp": r"[A-Za-z0-9._-]{1,128}",
}

STRICT_KEYWORDS = frozenset(
    {
        # "Supported types: String, Number, Boolean, Integer, Object, Array, Enum, anyOf"
        "type",
        "enum",
        "const",
        "anyOf",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "$ref",
        "$defs",
        "definitions",
        "description",
        "title",
        # "Supported properties" per type
        "pattern",
        "format",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "minItems",
        "maxItems",
    }
)
STRICT_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})


def problems(dialect: str, body: Mapping[str, Any]) -> list[str]:
    """Every way ``body`` breaks ``dialect``'s SDK types or documented rules (empty: fit to send)."""
    return CHECKS[dialect](body)


# -- the SDK types ------------------------------------------------------------------------------------------
def _errors(error: pydantic.ValidationError) -> list[str]:
    return [f"{'/'.join(map(str, e['loc']))}: {e['type']}: {e['msg']}" for e in error.errors()]


def _dropped(given: Any, kept: Any, path: str = "") -> Iterator[str]:
    if isinstance(given, Mapping) and isinstance(kept, Mapping):
        for key, value in given.items():
            if key not in kept:
                yield f"{path}/{key}: unknown to the SDK type (dropped)"
            else:
                yield from _dropped(value, kept[key], f"{path}/{key}")


def _typed_dict(kind: Any, body: Mapping[str, Any]) -> list[str]:
    try:
        kept = pydantic.TypeAdapter(kind).validate_python(body, strict=True)
    except pydantic.ValidationError as error:
        return _errors(error)
    return list(_dropped(body, kept))


def _name(dialect: str, name: Any) -> list[str]:
    if isinstance(name, str) and re.fullmatch(NAME_RULES[dialect], name):
        return []
    return [f"name: {name!r} breaks {NAME_RULES[dialect]}"]


def _root(schema: Any, where: str) -> list[str]:
    if not isinstance(schema, Mapping) or schema.get("type") not in ("object", "OBJECT"):
        return [f"{where}: the root is not an object schema"]
    return [f"{where}: {key} at the root" for key in ("anyOf", "oneOf", "allOf", "$ref") if key in schema]


def _gemini(body: Mapping[str, Any]) -> list[str]:
    from google.genai import types

    found = _name("gemini", body.get("name"))
    if "parameters" in body and ("parametersJsonSchema" in body or "parameters_json_schema" in body):
        found.append("parameters and parametersJsonSchema are mutually exclusive")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            types.Tool(function_declarations=[types.FunctionDeclaration.model_validate(body)])
        except pydantic.ValidationError as error:
            found += _errors(error)
        except (ValueError, TypeError, AttributeError) as error:  # genai's enum fallback raises these
            found.append(f"{type(error).__name__}: {error}")
    return found + [f"warning: {w.message}" for w in caught]


def _gemini_parameters(body: Mapping[str, Any]) -> list[str]:
    from toolkit._lowering.gemini import violations

    found = _gemini(body)
    if "parameters" in body:
        found += _root(body["parameters"], "parameters") + violations(body["parameters"])
    return found


def _gemini_json(body: Mapping[str, Any]) -> list[str]:
    schema = body.get("parametersJsonSchema")
    found = _gemini(body) + _root(schema, "parametersJsonSchema")
    for path, node in _nodes(schema):
        if "$ref" in node and any(not str(key).startswith("$") for key in node):
            found.append(f"{path}: a $ref beside {sorted(k for k in node if not str(k).startswith('$'))}")
    return found


def _openai(kind: Any, function: Callable[[Mapping[str, Any]], Mapping[str, Any]]) -> Callable[..., list[str]]:
    def check(body: Mapping[str, Any]) -> list[str]:
        found = _typed_dict(kind, body)
        inner = function(body)
        found += _name("openai", inner.get("name")) + _root(inner.get("parameters"), "parameters")
        if not isinstance(inner.get("strict"), bool):
            found.append("strict: always sent, true or false (the default differs between the two APIs)")
        elif inner["strict"]:
            found += strict_problems(inner["parameters"])
        return found

    return check


def _anthropic(body: Mapping[str, Any]) -> list[str]:
    from anthropic.types import ToolParam

    return _typed_dict(ToolParam, body) + _name("anthropic", body.get("name")) + _root(body.get("input_schema"), "")


def _mcp(body: Mapping[str, Any]) -> list[str]:
    from mcp.shared.tool_name_validation import validate_tool_name
    from mcp.types import Tool
    from mcp_types import _v2025_11_25, _v2026_07_28

    found: list[str] = []
    for model in (Tool, _v2025_11_25.Tool, _v2026_07_28.Tool):
        try:
            model.model_validate(body, strict=model is not Tool)
        except pydantic.ValidationError as error:
            found += [f"[{model.__module__}] {e}" for e in _errors(error)]
    outcome = validate_tool_name(str(body.get("name", "")))
    found += [] if outcome.is_valid else [f"name: {w}" for w in outcome.warnings]
    return found + _name("mcp", body.get("name")) + _root(body.get("inputSchema"), "inputSchema")


def _chat_function(body: Mapping[str, Any]) -> Mapping[str, Any]:
    inner = body.get("function")
    return inner if isinstance(inner, Mapping) else {}


def _chat_type() -> Any:
    from openai.types.chat import ChatCompletionFunctionToolParam

    return ChatCompletionFunctionToolParam


def _responses_type() -> Any:
    from openai.types.responses import FunctionToolParam

    return FunctionToolParam


CHECKS: dict[str, Callable[[Mapping[str, Any]], list[str]]] = {
    "gemini": _gemini_parameters,
    "gemini_json": _gemini_json,
    "openai": lambda body: _openai(_chat_type(), _chat_function)(body),
    "openai_responses": lambda body: _openai(_responses_type(), lambda b: b)(body),
    "anthropic": _anthropic,
    "mcp": _mcp,
}


# -- OpenAI strict mode, from the documentation ---------------------------------------------------------------
def _nodes(schema: Any, path: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every schema node (the root, properties, items, anyOf branches, definitions), with its pointer."""
    if not isinstance(schema, Mapping):
        return
    yield path, schema
    for key in ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas"):
        for name, sub in (schema.get(key) or {}).items() if isinstance(schema.get(key), Mapping) else ():
            yield from _nodes(sub, f"{path}/{key}/{name}")
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for index, sub in enumerate(schema.get(key) or ()):
            yield from _nodes(sub, f"{path}/{key}/{index}")
    for key in ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"):
        if isinstance(schema.get(key), Mapping):
            yield from _nodes(schema[key], f"{path}/{key}")


def _is_object(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node


def _nesting(schema: Mapping[str, Any], node: Any, seen: tuple[str, ...] = ()) -> int:
    if not isinstance(node, Mapping):
        return 0
    ref = node.get("$ref")
    via = 0
    if isinstance(ref, str) and ref not in seen and ref.startswith("#"):
        target: Any = schema
        for part in [p for p in ref[1:].split("/") if p]:
            target = target.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, Mapping) else {}
        via = _nesting(schema, target, (*seen, ref))
    inner = [*(node.get("properties") or {}).values(), *(node.get("anyOf") or ())]
    if isinstance(node.get("items"), Mapping):
        inner.append(node["items"])
    below = max((_nesting(schema, sub, seen) for sub in inner), default=0)
    return max(via, (1 if "properties" in node else 0) + below)


def strict_problems(schema: Any) -> list[str]:
    """Every way ``schema`` breaks OpenAI strict mode as documented.

    https://developers.openai.com/api/docs/guides/function-calling#strict-mode: "additionalProperties must be
    set to false for each object in the parameters. All fields in properties must be marked as required."
    https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas: the supported types
    and per-type properties (:data:`STRICT_KEYWORDS`), string formats (:data:`STRICT_FORMATS`); "Root objects
    must not be anyOf and must be an object"; "A schema may have up to 5000 object properties total, with up to
    10 levels of nesting"; "up to 1000 enum values across all enum properties"; "For a single enum property
    with string values, the total string length of all enum values cannot exceed 15,000 characters when there
    are more than 250 enum values"; "the total string length of all property names, definition names, enum
    values, and const values cannot exceed 120,000 characters"; "additionalProperties: false must always be set
    in objects"; not supported: "allOf, not, dependentRequired, dependentSchemas, if, then, else". A ``$ref``
    stands alone (OpenAI's own SDK inlines a ``$ref`` that has siblings), and every node says what it accepts
    (a type, an enum or const, an anyOf or a $ref) — an array its items.
    """
    found = _root(schema, "")
    properties = enum_values = characters = 0
    for path, node in _nodes(schema):
        where = path or "/"
        found += [f"{where}: keyword {key!r} is not supported" for key in node if key not in STRICT_KEYWORDS]
        if "format" in node and node["format"] not in STRICT_FORMATS:
            found.append(f"{where}: format {node['format']!r} is not supported")
        if "$ref" in node and len(node) > 1:
            found.append(f"{where}: $ref with siblings {sorted(k for k in node if k != '$ref')}")
        if not {"type", "enum", "const", "anyOf", "$ref"} & node.keys():
            found.append(f"{where}: says nothing about what it accepts")
        kind = node.get("type")
        if (kind == "array" or (isinstance(kind, list) and "array" in kind)) and "items" not in node:
            found.append(f"{where}: an array without items")
        if _is_object(node):
            if node.get("additionalProperties") is not False:
                found.append(f"{where}: additionalProperties is not false")
            names = list(node.get("properties") or {})
            if sorted(node.get("required") or []) != sorted(names):
                found.append(f"{where}: required {node.get('required')} is not every property {names}")
            properties += len(names)
            characters += sum(map(len, names))
        for key in ("$defs", "definitions"):
            characters += sum(map(len, node.get(key) or {}))
        if isinstance(node.get("enum"), list):
            values = node["enum"]
            texts = [v for v in values if isinstance(v, str)]
            enum_values += len(values)
            characters += sum(map(len, texts))
            if len(values) > 250 and sum(map(len, texts)) > 15_000:
                found.append(f"{where}: a string enum of {len(values)} values over 15,000 characters")
        if isinstance(node.get("const"), str):
            characters += len(node["const"])
    nesting = _nesting(schema, schema) if isinstance(schema, Mapping) else 0
    for value, limit, what in (
        (properties, 5000, "object properties"),
        (nesting, 10, "levels of nesting"),
        (enum_values, 1000, "enum values"),
        (characters, 120_000, "characters of names and values"),
    ):
        if value > limit:
            found.append(f"{value} {what} (limit {limit})")
    return found
