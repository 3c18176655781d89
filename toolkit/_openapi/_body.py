"""One operation's request body → arguments: read as JSON or a form, credentials taken out, then hoisted.

The media type is chosen by :func:`_choose_media` (JSON when offered, else a form-urlencoded body, else a
refusal for multipart, binary or any other type that carries fields); a body that carries no fields is left
out with a loss whatever its type. The top-level fields the runtime fills (credentials, an idempotency key)
leave the schema (:func:`_take_fields`); then a plain object body's properties are hoisted to the top level
when that changes nothing (:func:`_hoist`), else the whole body is one ``body`` argument.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toolkit._contract import Loss
from toolkit._openapi._forms import FORM_MEDIA, form_fields
from toolkit._openapi._naming import argument_name
from toolkit._openapi._refusal import Refusal
from toolkit._schema import escape, unescape

if TYPE_CHECKING:
    from toolkit._openapi._flatten import Builder

__all__ = ["add_body"]

_HOISTABLE = frozenset({"type", "properties", "required", "description", "title", "examples", "additionalProperties"})
_BINARY_PREFIXES = ("image/", "audio/", "video/", "font/")
_BINARY_TYPES = frozenset({"application/octet-stream", "application/pdf", "application/zip", "application/gzip"})


def add_body(builder: Builder, request: Any, method: str) -> None:
    if not isinstance(request, dict) or not isinstance(request.get("content", {}), dict):
        raise Refusal("bad_request_body", "the requestBody is not an object with a `content` map")
    content = request.get("content") or {}
    if not content:
        return
    media, refusal = _choose_media(content)
    if _ignore_empty(builder, media, content[media], method):
        return
    if refusal is not None:
        raise refusal.again()  # not the local itself: raised, it would hold this frame, which holds it
    raw = builder.ctx.resolver.deref(content[media])
    raw_schema = raw.get("schema", {}) if isinstance(raw, dict) else {}
    form = media.split(";")[0].strip().lower() == FORM_MEDIA
    if form and not _fields_object(raw_schema, builder):
        raise Refusal(
            "form_body", "the form body's schema does not say it is an object of fields (a form has no other)"
        )
    required = request.get("required") is True
    roots_before = frozenset(builder.roots)
    schema = builder.normalise(raw_schema, "/properties/body")
    if isinstance(schema, dict) and schema.get("format") == "binary":
        raise Refusal("binary_body", f"the {media} body is a binary string")
    if form:
        builder.form = form_fields(raw if isinstance(raw, dict) else {}, builder.ctx.resolver)
    schema = _take_fields(builder, schema, required=required, keep=roots_before)
    if schema is None:
        return
    if not _hoist(builder, schema, required=required, keep=roots_before):
        description = request.get("description")
        if isinstance(description, str) and description and isinstance(schema, dict):
            schema.setdefault("description", description)
        if "body" in builder.properties:
            raise Refusal(
                "argument_collision", f"a parameter is named 'body' ({builder.binding['body']}) and so is the body"
            )
        builder.properties["body"] = schema
        builder.binding["body"] = "body"
        if required:
            builder.required.append("body")


_OBJECT_KEYS = ("properties", "additionalProperties", "patternProperties")


def _fields_object(schema: Any, builder: Builder, depth: int = 0) -> bool:
    """A form's schema must be an object of fields: ``type: object``, or object keywords (properties, ...) or
    ``allOf`` branches that say so without a type. ``$ref`` is followed (a dangling one is refused with its own
    slug where the body is read)."""
    if not isinstance(schema, dict) or depth > 16:
        return False
    if any(key in schema for key in _OBJECT_KEYS):
        return True
    if "type" in schema:
        kind = schema["type"]
        return kind == "object" or (isinstance(kind, list) and "object" in kind)
    if "$ref" in schema:
        try:
            target = builder.ctx.resolver.deref({"$ref": schema["$ref"]})
        except Refusal:
            return True
        return _fields_object(target, builder, depth + 1)
    branches = schema.get("allOf")
    return isinstance(branches, list) and any(_fields_object(b, builder, depth + 1) for b in branches)


def _choose_media(content: Mapping[str, Any]) -> tuple[str, Refusal | None]:
    """The media type the body is read from (JSON when offered, else a form, else the first) and, when that is
    neither, the refusal it earns should the body carry fields."""
    kinds = {str(k).split(";")[0].strip().lower(): k for k in content}
    for kind, key in kinds.items():
        if kind in ("application/json", "*/*", "application/*", "text/json") or kind.endswith("+json"):
            return str(key), None
    if FORM_MEDIA in kinds:
        return str(kinds[FORM_MEDIA]), None
    first, key = next(iter(kinds.items()))
    message = f"the request body is {first}; only JSON and form-urlencoded bodies can be tool arguments"
    if first.startswith("multipart/"):
        return str(key), Refusal("multipart_body", message)
    if first in _BINARY_TYPES or first.startswith(_BINARY_PREFIXES):
        return str(key), Refusal("binary_body", message)
    return str(key), Refusal("unsupported_media_type", message)


_BODYLESS_METHODS = frozenset({"GET", "HEAD", "DELETE"})
_EMPTY_BODY_KEYS = frozenset(
    {"type", "properties", "required", "additionalProperties", "description", "title", "example", "examples"}
    | {"nullable", "deprecated", "externalDocs", "xml", "default"}
)
_MEDIA_LABELS = {"application/x-www-form-urlencoded": "form", "multipart/form-data": "multipart"}


def _ignore_empty(builder: Builder, media_type: str, media_object: Any, method: str) -> bool:
    """Leave out a request body that carries no fields, recording a loss; say if it did.

    A body carries no fields when its schema is an object with no properties, no required names and
    ``additionalProperties: false`` — whatever the media type (Stripe gives every GET such a form body). On
    GET, HEAD and DELETE, where content has no defined meaning (RFC 9110 §9.3), an open object with no
    declared properties is left out too; elsewhere that is a free-form map, which does carry fields."""
    resolver = builder.ctx.resolver
    try:
        media = resolver.deref(media_object)
        schema = media.get("schema") if isinstance(media, dict) else None
        if isinstance(schema, dict) and set(schema) <= {"$ref", "description", "summary"}:
            schema = resolver.deref(schema)  # a 3.1 $ref with other siblings is not just its target
    except Refusal:
        return False  # a broken reference is reported where the body is read, or by the media refusal
    if not _no_fields(schema, open_allowed=method in _BODYLESS_METHODS):
        return False
    kind = media_type.split(";")[0].strip().lower()
    label = _MEDIA_LABELS.get(kind, "JSON" if kind.endswith("json") else "request")
    builder.losses.append(Loss("", "requestBody", kind, f"empty {label} body ignored: its schema has no fields"))
    return True


def _no_fields(schema: Any, *, open_allowed: bool) -> bool:
    """True for an object schema that declares no property, requires none and admits no other field."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return False
    if schema.get("properties") or schema.get("required"):
        return False
    if any(key not in _EMPTY_BODY_KEYS and not key.startswith("x-") for key in schema):
        return False
    extra = schema.get("additionalProperties", True)
    return extra is False or (open_allowed and extra in (True, {}))


def _take_fields(builder: Builder, schema: Any, *, required: bool, keep: frozenset[str]) -> Any:
    """The body schema without the top-level fields the runtime fills (recorded on the builder's secrets): the
    schema itself when there are none, ``None`` when nothing else is left. A body that is only a ``$ref`` is read
    from its definition and inlined; the definition leaves ``$defs`` unless ``keep`` (the parameters'
    references) holds it."""
    target, name = schema, None
    if isinstance(schema, dict) and set(schema) <= {"$ref", "description"} and "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        target = builder.ctx.resolver.definition(name).schema
    if not isinstance(target, dict) or not isinstance(target.get("properties"), dict):
        return schema
    wanted: list[Any] = target["required"] if isinstance(target.get("required"), list) else []
    taken = {
        prop
        for prop, sub in target["properties"].items()
        if builder.secrets.take(prop, "body", _description(sub), required=required and prop in wanted, schema=sub)
    }
    if not taken:
        return schema
    pruned = {**target, "properties": {k: v for k, v in target["properties"].items() if k not in taken}}
    pruned.pop("required", None)
    if left := [r for r in wanted if r not in taken]:
        pruned["required"] = left
    if name is not None:
        definition = builder.ctx.resolver.definition(name)
        builder.roots.update(definition.refs)
        if name not in keep:
            builder.roots.discard(name)
        builder.losses.extend(_moved(loss, f"/$defs/{name}", {}, to=_BODY) for loss in definition.losses)
    gone = {f"{_BODY}/properties/{escape(prop)}" for prop in taken}
    if _no_fields(pruned, open_allowed=False):
        gone = {_BODY}
    builder.losses[:] = [loss for loss in builder.losses if not any(_under(loss.path, g) for g in gone)]
    return None if gone == {_BODY} else pruned


_BODY = "/properties/body"


def _description(schema: Any) -> Any:
    return schema.get("description") if isinstance(schema, dict) else None


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix + "/")


def _hoist(builder: Builder, schema: Any, *, required: bool, keep: frozenset[str]) -> bool:
    """Put a plain object body's properties at the top level, when that changes nothing; say if it did.

    A body that is only a ``$ref`` is hoisted from its definition, which then leaves ``$defs`` unless
    something else (``keep``: the parameters' references, or the definition itself) still points at it."""
    target, prefix = schema, "/properties/body"
    if isinstance(schema, dict) and set(schema) <= {"$ref", "description"} and "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        target, prefix = builder.ctx.resolver.definition(name).schema, f"/$defs/{name}"
        refs = builder.ctx.resolver.definition(name).refs
    else:
        refs = None
    if not _plain_object(target) or (not required and target.get("required")):
        return False
    try:
        names = {prop: argument_name(prop) for prop in target["properties"]}
    except Refusal:
        return False
    if len(set(names.values())) < len(names) or set(names.values()) & set(builder.properties):
        return False
    if refs is not None:
        if name not in keep:
            builder.roots.discard(name)
        builder.roots.update(refs)
    builder.losses[:] = [_moved(loss, prefix, names) for loss in builder.losses]
    if refs is not None:
        builder.losses.extend(_moved(loss, prefix, names) for loss in builder.ctx.resolver.definition(name).losses)
    wanted = set(target.get("required", ()))
    for prop, sub in target["properties"].items():
        builder.add(prop, "body", sub, required=prop in wanted)
    return True


def _plain_object(schema: Any) -> bool:
    if not isinstance(schema, dict) or schema.get("type") != "object" or not schema.get("properties"):
        return False
    if not set(schema) <= _HOISTABLE or schema.get("additionalProperties", False) is not False:
        return False
    return set(schema.get("required", ())) <= set(schema["properties"])


def _moved(loss: Loss, prefix: str, names: Mapping[str, str], *, to: str = "") -> Loss:
    """Re-point a loss recorded under the body to where a hoisted property now sits (or, with ``to``, a loss
    recorded under ``prefix`` to the same place under ``to``)."""
    if to and _under(loss.path, prefix):
        return Loss(to + loss.path[len(prefix) :], loss.keyword, loss.value, loss.reason)
    if loss.path == prefix:
        return Loss("", loss.keyword, loss.value, loss.reason)
    head = f"{prefix}/properties/"
    if not loss.path.startswith(head):
        return loss
    token, _, rest = loss.path[len(head) :].partition("/")
    prop = unescape(token)
    if prop not in names:
        return loss
    return Loss(f"/properties/{names[prop]}" + (f"/{rest}" if rest else ""), loss.keyword, loss.value, loss.reason)
