"""Flatten one operation's inputs into one object schema (``args_schema``) and a binding map.

Path parameters (always required), then query and header parameters (their own ``required``), then the body:
its properties hoisted to the top level when the body is a plain object whose properties collide with no
parameter, otherwise the whole body under ``body``. Credentials never reach the model: parameters and top-level
body fields that carry a secret (:mod:`toolkit._openapi._credential_rule` decides) are recorded on the contract for
the runtime to fill, and so is an idempotency key; other cookie parameters are left out with a loss, and
``Accept`` and ``Content-Type`` headers are ignored as OpenAPI says. Bodies are JSON or
``application/x-www-form-urlencoded`` forms (their ``encoding`` read by :mod:`toolkit._openapi._forms`):
multipart and binary bodies that carry fields are refused, while a body that carries none (whatever its media
type) is ignored with a loss.
Argument names are sanitised (see :mod:`toolkit._openapi._naming`) and every rename is bound back to its original
name and reported as a loss with the keyword ``name``. Parameters of different locations that share a name are
told apart by a location prefix (``query_path``, decided by location, never by order); two of one location that
sanitise alike are refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolkit._canonical import json_text_key
from toolkit._contract import FormEncoding, Loss, SecurityScheme
from toolkit._credential_record import Credential
from toolkit._openapi._body import add_body
from toolkit._openapi._credential_rule import DocumentCredentials, OperationCredentials
from toolkit._openapi._definitions import Resolver
from toolkit._openapi._naming import MAX_ARG, argument_name
from toolkit._openapi._normalise import normalise
from toolkit._openapi._refusal import Refusal
from toolkit._openapi._select import Candidate
from toolkit._openapi._swagger import body_from_v2, parameter_schema_v2
from toolkit._tool import DocumentBuild

__all__ = ["Builder", "Flat", "SpecContext", "flatten"]

_IGNORED_HEADERS = frozenset({"accept", "content-type"})
_LOCATIONS = frozenset({"path", "query", "header", "cookie", "body", "formData"})


@dataclass(frozen=True, slots=True)
class SpecContext:
    """What every operation of one document shares: its resolver, flavour, security schemes and namespace."""

    resolver: Resolver
    swagger2: bool
    credentials: DocumentCredentials
    namespace: str = "toolkit"
    consumes: tuple[str, ...] = ()
    prepared: dict[int, Any] = field(default_factory=dict)
    """Parameters made ready, by object identity (the document outlives the build, so ids are stable)."""
    prepared_text: dict[bytes, Any] = field(default_factory=dict)
    """The same, by the parameter object's JSON text (specs repeat one parameter inline on many paths)."""
    build: DocumentBuild = field(default_factory=DocumentBuild)
    """What building the document's tools shares (lowered, checked and linted parameters)."""
    servers: dict[int, tuple[Any, tuple[str, ...]]] = field(default_factory=dict)
    """The base URLs of each ``servers`` list the operations use, by its identity (:func:`._security.servers_of`)."""
    schemes: dict[int, tuple[Any, tuple[SecurityScheme, ...]]] = field(default_factory=dict)
    """The security schemes of each ``security`` requirement list the operations use, by its identity (the list
    kept beside): most operations share the document's."""


@dataclass(frozen=True, slots=True)
class Flat:
    args_schema: dict[str, Any]
    binding: dict[str, str]
    losses: tuple[Loss, ...]
    credentials: tuple[Credential, ...] = ()
    idempotency_key: str | None = None
    form: dict[str, FormEncoding] | None = None


@dataclass(slots=True)
class Builder:
    """Accumulates one operation's arguments (mutable only inside :func:`flatten`)."""

    ctx: SpecContext
    secrets: OperationCredentials
    properties: dict[str, Any] = field(default_factory=dict)
    required: list[str] = field(default_factory=list)
    binding: dict[str, str] = field(default_factory=dict)
    losses: list[Loss] = field(default_factory=list)
    roots: set[str] = field(default_factory=set)
    form: dict[str, FormEncoding] | None = None

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


def flatten(candidate: Candidate, ctx: SpecContext, schemes: tuple[SecurityScheme, ...] = ()) -> Flat:
    """The arguments schema, binding, source losses, credentials and body encoding of one operation (or a
    :class:`Refusal`). ``schemes`` are the security schemes the operation uses."""
    _check_responses(candidate.operation.get("responses"), ctx)
    secrets = OperationCredentials(ctx.credentials, ctx.namespace, schemes, candidate.options.credentials)
    builder = Builder(ctx, secrets)
    parameters = _parameters(candidate, ctx)
    body: Any = candidate.operation.get("requestBody")
    if ctx.swagger2:
        consumes = candidate.operation.get("consumes") or ctx.consumes
        body, parameters = body_from_v2(parameters, consumes if isinstance(consumes, list) else [])
    entries = [_prepared(ctx, parameter) for parameter in parameters if not _taken(secrets, parameter)]
    names = _parameter_names(entries)
    for entry in entries:
        _add_parameter(builder, entry, names)
    if body is not None:
        add_body(builder, ctx.resolver.deref(body), candidate.method)
    defs, def_losses = ctx.resolver.closure(sorted(builder.roots))
    schema: dict[str, Any] = {"type": "object", "properties": builder.properties}
    if builder.required:
        schema["required"] = builder.required
    schema["additionalProperties"] = False
    if defs:
        schema["$defs"] = defs
    secrets.check(f"the credentials option of {candidate.operation_id or f'{candidate.method} {candidate.path}'}")
    losses = tuple(builder.losses) + def_losses
    return Flat(schema, builder.binding, losses, tuple(secrets.found), secrets.idempotency_key, builder.form)


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


def _taken(secrets: OperationCredentials, parameter: Mapping[str, Any]) -> bool:
    """A parameter the runtime fills (a credential or the idempotency key), recorded on ``secrets``."""
    location = parameter["in"]
    if location not in ("header", "query", "cookie"):
        return False
    required = parameter.get("required") is True
    schema = parameter.get("schema", parameter)  # a Swagger 2.0 parameter holds its own `type`
    return secrets.take(parameter["name"], location, parameter.get("description"), required=required, schema=schema)


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
    if entry is None:  # not this object: perhaps the same JSON, written out again for another path
        text = json_text_key(parameter)
        entry = ctx.prepared_text.get(text) if text is not None else None
        if entry is None:
            try:
                entry = _prepare(ctx, parameter)
            except Refusal as refusal:
                entry = refusal.again()
            if text is not None:
                ctx.prepared_text[text] = entry
        ctx.prepared[id(parameter)] = entry
    if isinstance(entry, Refusal):
        raise entry.again()
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
        if len(group) == 1:  # the common case: a name of its own is kept
            names[(group[0].location, group[0].original)] = name
            continue
        locations = [entry.location for entry in group]
        keeper = min(locations, key=lambda location: _RANK.get(location, len(_RANK)))
        distinct = len(set(locations)) == len(locations)
        for entry in group:
            prefixed = f"{entry.location}_{name}"
            renamed = distinct and entry.location != keeper and len(prefixed) <= MAX_ARG
            names[(entry.location, entry.original)] = prefixed if renamed else name
    return names


def _add_parameter(builder: Builder, entry: _Prepared, names: Mapping[tuple[str, str], str]) -> None:
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
    if location == "header" and original.lower() in _IGNORED_HEADERS:  # a header HTTP itself sets
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
