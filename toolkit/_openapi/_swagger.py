"""Swagger 2.0 read as OpenAPI 3: parameter schemas, ``in: body`` bodies and ``formData`` forms.

2.0 keeps a non-body parameter's schema keywords on the parameter itself (``type``, ``format``, ``items``,
``enum``...); ``in: body`` carries the request body's schema; ``in: formData`` is a form, read as an
``application/x-www-form-urlencoded`` body whose fields are those parameters (each array's
``collectionFormat`` becomes its ``encoding``), or, with ``type: file`` or a multipart ``consumes``, a
multipart upload (refused). ``definitions`` need no conversion: ``$ref``\\ s to ``#/definitions/X`` are
resolved where they point, like any local reference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolkit._openapi._refusal import Refusal

__all__ = ["body_from_v2", "parameter_schema_v2"]

_SCHEMA_KEYS = frozenset(
    {
        "type",
        "format",
        "items",
        "enum",
        "default",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "pattern",
        "minItems",
        "maxItems",
        "uniqueItems",
        "multipleOf",
        "x-nullable",
    }
)


def parameter_schema_v2(parameter: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON Schema of a 2.0 path/query/header parameter (its keywords live on the parameter)."""
    schema = {k: v for k, v in parameter.items() if k in _SCHEMA_KEYS}
    if schema.get("type") == "file":
        raise Refusal("binary_body", f"parameter {parameter.get('name')!r} is a file upload")
    return schema


def body_from_v2(
    parameters: Sequence[Mapping[str, Any]], consumes: Sequence[str]
) -> tuple[dict[str, Any] | None, list[Mapping[str, Any]]]:
    """Split 2.0 parameters into a 3.x-style ``requestBody`` (or ``None``) and the remaining parameters."""
    body = [p for p in parameters if p.get("in") == "body"]
    form = [p for p in parameters if p.get("in") == "formData"]
    rest = [p for p in parameters if p.get("in") not in ("body", "formData")]
    kinds = [str(c).split(";")[0].strip().lower() for c in consumes]
    if form:
        if any(p.get("type") == "file" for p in form) or "multipart/form-data" in kinds:
            raise Refusal("multipart_body", "the operation uploads multipart/form-data (formData parameters)")
        return _form_body(form), rest
    if not body:
        return None, rest
    media = _json_media(kinds)
    request = {
        "required": bool(body[0].get("required")),
        "content": {media: {"schema": body[0].get("schema", {})}},
    }
    if isinstance(body[0].get("description"), str):
        request["description"] = body[0]["description"]
    return request, rest


def _json_media(kinds: Sequence[str]) -> str:
    """The media type the body is sent as: JSON when declared (or nothing is), else the first declared."""
    for kind in kinds:
        if kind == "application/json" or kind.endswith("+json"):
            return kind
    return kinds[0] if kinds else "application/json"


# collectionFormat → the OpenAPI 3 form encoding (``tsv`` has none, and is refused)
_COLLECTION_FORMATS = {
    "csv": {"style": "form", "explode": False},
    "ssv": {"style": "spaceDelimited", "explode": False},
    "pipes": {"style": "pipeDelimited", "explode": False},
    "multi": {"style": "form", "explode": True},
}


def _form_body(form: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``formData`` parameters as a form-urlencoded request body (fields, required list, array encodings)."""
    properties: dict[str, Any] = {}
    encoding: dict[str, Any] = {}
    required: list[str] = []
    for parameter in form:
        name = str(parameter.get("name"))
        schema = parameter_schema_v2(parameter)
        if isinstance(parameter.get("description"), str):
            schema["description"] = parameter["description"]
        properties[name] = schema
        if parameter.get("required") is True and name not in required:
            required.append(name)
        if schema.get("type") == "array":
            collection = str(parameter.get("collectionFormat", "csv"))
            if collection not in _COLLECTION_FORMATS:
                said = f"form field {name!r}: collectionFormat {collection!r} has no form encoding"
                raise Refusal("unsupported_schema", said)
            encoding[name] = _COLLECTION_FORMATS[collection]
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    media: dict[str, Any] = {"schema": schema}
    if encoding:
        media["encoding"] = encoding
    return {"required": bool(required), "content": {"application/x-www-form-urlencoded": media}}
