"""Flatten one operation's inputs into one object schema (``args_schema``) and a binding map.

Path parameters (always required), then query and header parameters (their own ``required``), then the body:
its properties hoisted to the top level when the body is a plain object whose properties collide with no
parameter, otherwise the whole body under ``body``. Cookie parameters are left out; credentials never reach
the model (parameters implementing an ``apiKey`` security scheme, and ``Authorization``; ``Accept`` and
``Content-Type`` headers are ignored as OpenAPI says). Bodies must be JSON: multipart, form and binary bodies
that carry fields are refused, while a body that carries none (whatever its media type) is ignored with a loss.
Argument names are sanitised (see :mod:`toolkit._openapi._naming`) and every rename is bound back to its original
name and reported as a loss with the keyword ``name``. Parameters of different locations that share a name are
told apart by a location prefix (``query_path``, decided by location, never by order); two of one location that
sanitise alike are refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolkit._contract import Loss
from toolkit._openapi._naming import MAX_ARG, argument_name
from toolkit._openapi._normalise import normalise
from toolkit._openapi._refs import Resolver
from toolkit._openapi._refusal import Refusal
from toolkit._openapi._select import Candidate
from toolkit._openapi._swagger import body_from_v2, parameter_schema_v2

__all__ = ["Flat", "SpecContext", "flatten"]

_IGNORED_HEADERS = frozenset({"authorization", "accept", "content-type", "proxy-authorization", "cookie"})
_LOCATIONS = frozenset({"path", "query", "header", "cookie", "body", "formData"})
_HOISTABLE = frozenset({"type", "properties", "required", "description", "title", "examples", "additionalProperties"})
_BINARY_PREFIXES = ("image/", "audio/", "video/", "font/")
_BINARY_TYPES = frozenset({"application/octet-stream", "application/pdf", "application/zip", "application/gzip"})


@dataclass(frozen=True, slots=True)
class SpecContext:
    """What every operation of one document shares: its resolver, flavour and credential parameters."""

    resolver: Resolver
    swagger2: bool
    credentials: frozenset[tuple[str, str]]
    consumes: tuple[str, ...] = ()
    prepared: dict[int, Any] = field(default_factory=dict)
    """Parameters made ready, by object identity (the document outlives the build, so ids are stable)."""
    enforced: set[int] = field(default_factory=set)
    """Schema nodes the validator was found able to enforce, by identity: shared definitions are checked once."""


@dataclass(frozen=True, slots=True)
class Flat:
    args_schema: dict[str, Any]
    binding: dict[str, str]
    losses: tuple[Loss, ...]


@dataclass(slots=True)
class _Builder:
    """Accumulates one operation's arguments (mutable only inside :func:`flatten`)."""

    ctx: SpecContext
    properties: dict[str, Any] = field(default_factory=dict)
    required: list[str] = field(default_factory=list)
    binding: dict[str, str] = field(default_factory=dict)
    losses: list[Loss] = field(default_factory=list)
    roots: set[str] = field(default_factory=set)

    def add(self, original: str, location: str, schema: Any, *, required: bool, name: str | None = None) -> None:
        name = name or argument_name(original)
        if name in self.properties:
            first = self.binding[name] if "." in self.binding[name] else f"{self.binding[name]}.{name}"
            raise Refusal("argument_collision", f"arguments {first} and {location}.{original} are both {name!r}")
        self.properties[name] = schema
        self.binding[name] = location if name == original and location != "body" else f"{location}.{original}"
        if name != original:
            reason = f"renamed from {original!r} ({location})"
            if name.startswith(f"{location}_") and name != argument_name(original):
                reason += ": a parameter in another location has that name"
            self.losses.append(Loss(f"/properties/{name}", "name", original, reason))
        if required:
            self.required.append(name)

    def normalise(self, schema: Any, pointer: str) -> Any:
        walk = self.ctx.resolver.walk()
        out = normalise(schema, walk, pointer)
        self.losses.extend(walk.losses)
        self.roots.update(t.removeprefix("#/$defs/") for t in walk.refs)
        return out


def flatten(candidate: Candidate, ctx: SpecContext) -> Flat:
    """The arguments schema, binding and source losses of one operation (or a :class:`Refusal`)."""
    _check_responses(candidate.operation.get("responses"), ctx)
    builder = _Builder(ctx)
    parameters = _parameters(candidate, ctx)
    body: Any = candidate.operation.get("requestBody")
    if ctx.swagger2:
        consumes = candidate.operation.get("consumes") or ctx.consumes
        body, parameters = body_from_v2(parameters, consumes if isinstance(consumes, list) else [])
    entries = [_prepared(ctx, parameter) for parameter in parameters]
    names = _parameter_names(entries)
    for entry in entries:
        _add_parameter(builder, entry, names)
    if body is not None:
        _add_body(builder, ctx.resolver.deref(body), candidate.method)
    defs, def_losses = ctx.resolver.closure(sorted(builder.roots))
    schema: dict[str, Any] = {"type": "object", "properties": builder.properties}
    if builder.required:
        schema["required"] = builder.required
    schema["additionalProperties"] = False
    if defs:
        schema["$defs"] = defs
    return Flat(schema, builder.binding, tuple(builder.losses) + def_losses)


def _check_responses(responses: Any, ctx: SpecContext) -> None:
    """Responses are not part of the arguments, but a malformed one says the operation is not what it seems."""
    if responses is None:
        return
    if not isinstance(responses, dict):
        raise Refusal("bad_responses", "`responses` must map status codes to response objects")
    for status, response in responses.items():
        if not isinstance(ctx.resolver.deref(response), dict):
            raise Refusal("bad_responses", f"response {status!r} is not a response object")


# -- parameters --------------------------------------------------------------------------------------------
def _parameters(candidate: Candidate, ctx: SpecContext) -> list[Mapping[str, Any]]:
    """Path-item parameters overridden by the operation's own (same name and location), dereferenced."""
    merged: dict[tuple[str, str], Mapping[str, Any]] = {}
    for raw_list in (candidate.path_item.get("parameters"), candidate.operation.get("parameters")):
        if raw_list is None:
            continue
        if not isinstance(raw_list, list):
            raise Refusal("bad_parameter", "`parameters` must be a list")
        for raw in raw_list:
            parameter = ctx.resolver.deref(raw)
            if not isinstance(parameter, dict) or not isinstance(parameter.get("name"), str):
                raise Refusal("bad_parameter", "a parameter has no name (or is not an object)")
            if not isinstance(parameter.get("in"), str) or parameter["in"] not in _LOCATIONS:
                raise Refusal("bad_parameter", f"parameter {parameter['name']!r} has no valid `in`")
            merged[(parameter["in"], parameter["name"])] = parameter
    return list(merged.values())


@dataclass(frozen=True, slots=True)
class _Prepared:
    """One parameter made ready once per document (GitHub shares most parameters across operations)."""

    original: str
    location: str
    name: str
    """The sanitised argument name (the original for a parameter left out)."""
    schema: Any
    required: bool
    losses: tuple[Loss, ...]
    roots: frozenset[str]


def _prepared(ctx: SpecContext, parameter: Mapping[str, Any]) -> _Prepared:
    entry = ctx.prepared.get(id(parameter))
    if entry is None:
        try:
            entry = _prepare(ctx, parameter)
        except Refusal as refusal:
            entry = refusal
        ctx.prepared[id(parameter)] = entry
    if isinstance(entry, Refusal):
        raise Refusal(entry.slug, entry.message)
    assert isinstance(entry, _Prepared)
    return entry


_RANK = {"path": 0, "query": 1, "header": 2}


def _parameter_names(entries: Sequence[_Prepared]) -> dict[tuple[str, str], str]:
    """Each parameter's argument name, keyed by (location, original name).

    OpenAPI tells parameters apart by name *and* location, so a path and a query parameter may share a name
    (Kubernetes' proxy ``path``). The one in the first location of path, query, header keeps the name; each
    other is prefixed with its location (``query_path``). The outcome depends only on the set of parameters,
    never on their order. Two parameters of one location that sanitise alike get the same name here, and so
    does a prefixed name that would be too long: :meth:`_Builder.add` refuses both."""
    groups: dict[str, list[_Prepared]] = {}
    for entry in entries:
        if entry.schema is not _LEFT_OUT:
            groups.setdefault(entry.name, []).append(entry)
    names: dict[tuple[str, str], str] = {}
    for name, group in groups.items():
        locations = [entry.location for entry in group]
        keeper = min(locations, key=lambda location: _RANK.get(location, len(_RANK)))
        distinct = len(set(locations)) == len(locations)
        for entry in group:
            prefixed = f"{entry.location}_{name}"
            renamed = distinct and entry.location != keeper and len(prefixed) <= MAX_ARG
            names[(entry.location, entry.original)] = prefixed if renamed else name
    return names


def _add_parameter(builder: _Builder, entry: _Prepared, names: Mapping[tuple[str, str], str]) -> None:
    if entry.schema is _LEFT_OUT:
        builder.losses.extend(entry.losses)
        return
    name = names[(entry.location, entry.original)]
    builder.losses.extend(
        entry.losses if name == entry.name else (_renamed(loss, entry.name, name) for loss in entry.losses)
    )
    builder.roots.update(entry.roots)
    builder.add(entry.original, entry.location, entry.schema, required=entry.required, name=name)


def _renamed(loss: Loss, old: str, new: str) -> Loss:
    """Re-point a loss recorded under an argument's sanitised name to the name it was given instead."""
    prefix = f"/properties/{old}"
    if loss.path != prefix and not loss.path.startswith(prefix + "/"):
        return loss
    return Loss(f"/properties/{new}{loss.path[len(prefix) :]}", loss.keyword, loss.value, loss.reason)


_LEFT_OUT = object()


def _prepare(ctx: SpecContext, parameter: Mapping[str, Any]) -> _Prepared:
    location, original = parameter["in"], parameter["name"]
    if location == "cookie":
        loss = Loss("", "parameter", f"cookie.{original}", "cookie parameters are left out")
        return _Prepared(original, location, original, _LEFT_OUT, False, (loss,), frozenset())
    lowered = original.lower()
    if (location == "header" and lowered in _IGNORED_HEADERS) or (location, lowered) in ctx.credentials:
        # a credential (or a header HTTP itself sets): the runtime supplies it, the model never sees it
        return _Prepared(original, location, original, _LEFT_OUT, False, (), frozenset())
    walk, name = ctx.resolver.walk(), argument_name(original)
    schema = normalise(_parameter_schema(ctx, parameter), walk, f"/properties/{name}")
    description = parameter.get("description")
    if isinstance(description, str) and description and isinstance(schema, dict):
        schema.setdefault("description", description)
    required = location == "path" or parameter.get("required") is True
    roots = frozenset(t.removeprefix("#/$defs/") for t in walk.refs)
    return _Prepared(original, location, name, schema, required, tuple(walk.losses), roots)


def _parameter_schema(ctx: SpecContext, parameter: Mapping[str, Any]) -> Any:
    if ctx.swagger2:
        return parameter_schema_v2(parameter)
    if "schema" in parameter:
        return parameter["schema"]
    content = parameter.get("content")
    if isinstance(content, dict) and content:
        media = ctx.resolver.deref(next(iter(content.values())))
        if isinstance(media, dict):
            return media.get("schema", {})
    return {}


# -- body --------------------------------------------------------------------------------------------------
def _add_body(builder: _Builder, request: Any, method: str) -> None:
    if not isinstance(request, dict) or not isinstance(request.get("content", {}), dict):
        raise Refusal("bad_request_body", "the requestBody is not an object with a `content` map")
    content = request.get("content") or {}
    if not content:
        return
    media, refusal = _choose_media(content)
    if _ignore_empty(builder, media, content[media], method):
        return
    if refusal is not None:
        raise refusal
    raw = builder.ctx.resolver.deref(content[media])
    raw_schema = raw.get("schema", {}) if isinstance(raw, dict) else {}
    required = request.get("required") is True
    roots_before = frozenset(builder.roots)
    schema = builder.normalise(raw_schema, "/properties/body")
    if isinstance(schema, dict) and schema.get("format") == "binary":
        raise Refusal("binary_body", f"the {media} body is a binary string")
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


def _choose_media(content: Mapping[str, Any]) -> tuple[str, Refusal | None]:
    """The media type the body is read from (JSON when offered, else the first) and, when that is not JSON,
    the refusal it earns should the body carry fields."""
    kinds = {str(k).split(";")[0].strip().lower(): k for k in content}
    for kind, key in kinds.items():
        if kind in ("application/json", "*/*", "application/*", "text/json") or kind.endswith("+json"):
            return str(key), None
    first, key = next(iter(kinds.items()))
    message = f"the request body is {first}; only JSON bodies can be tool arguments"
    if first.startswith("multipart/"):
        return str(key), Refusal("multipart_body", message)
    if first == "application/x-www-form-urlencoded":
        return str(key), Refusal("form_body", message)
    if first in _BINARY_TYPES or first.startswith(_BINARY_PREFIXES):
        return str(key), Refusal("binary_body", message)
    return str(key), Refusal("unsupported_media_type", message)


_BODYLESS_METHODS = frozenset({"GET", "HEAD", "DELETE"})
_EMPTY_BODY_KEYS = frozenset(
    {"type", "properties", "required", "additionalProperties", "description", "title", "example", "examples"}
    | {"nullable", "deprecated", "externalDocs", "xml", "default"}
)
_MEDIA_LABELS = {"application/x-www-form-urlencoded": "form", "multipart/form-data": "multipart"}


def _ignore_empty(builder: _Builder, media_type: str, media_object: Any, method: str) -> bool:
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


def _hoist(builder: _Builder, schema: Any, *, required: bool, keep: frozenset[str]) -> bool:
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


def _moved(loss: Loss, prefix: str, names: Mapping[str, str]) -> Loss:
    """Re-point a loss recorded under the body to where a hoisted property now sits."""
    if loss.path == prefix:
        return Loss("", loss.keyword, loss.value, loss.reason)
    head = f"{prefix}/properties/"
    if not loss.path.startswith(head):
        return loss
    token, _, rest = loss.path[len(head) :].partition("/")
    prop = token.replace("~1", "/").replace("~0", "~")
    if prop not in names:
        return loss
    return Loss(f"/properties/{names[prop]}" + (f"/{rest}" if rest else ""), loss.keyword, loss.value, loss.reason)
