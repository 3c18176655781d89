"""What a dialect is: schema rules, a name rule, the payload's shape, and how a provider's calls come back.

A :class:`Dialect` is one provider's way of receiving a tool. Each dialect module
(:mod:`~toolkit._lowering.gemini`, :mod:`~toolkit._lowering.gemini_json`, :mod:`~toolkit._lowering.openai`,
:mod:`~toolkit._lowering.anthropic`, :mod:`~toolkit._lowering.mcp`) defines one subclass with:

* ``lower``: its walker rules, turning ``args_schema`` into the schema the payload carries, with its losses;
* ``names``: its :class:`NameRule` (the provider's documented rule, and how a contract name is mapped onto it);
* ``body``: the exact JSON of one entry of the request's tool list;
* ``read_call`` / ``reply`` / ``turn``: a provider tool call read back to (name, arguments, id), and the
  function-response message built from an envelope.

:func:`payload` (in :mod:`toolkit._lowering`) puts them together into a :class:`Payload`. A tool the dialect
cannot express gets a :class:`DialectRefusal` with a slug from :data:`DIALECT_SLUGS` instead of a body.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, NamedTuple

from toolkit._contract import Loss, Policy, ToolContract
from toolkit._display import Displayable, displayed_by
from toolkit._lowering._carry import carry

__all__ = [
    "DIALECT_SLUGS",
    "Dialect",
    "DialectRefusal",
    "DialectSlug",
    "Lowered",
    "NameRule",
    "Payload",
    "RawCall",
    "envelope_text",
    "refuse",
    "root_refusal",
    "unique",
]

DialectSlug = Literal["name_collision", "root_not_object", "unreadable_schema"]

DIALECT_SLUGS: Mapping[str, str] = {
    "name_collision": "two tools of one request give the same name under the dialect's name rule",
    "root_not_object": "the arguments schema is not a plain object at the root (another type, a $ref or a combinator)",
    "unreadable_schema": "the dialect's rules cannot read the arguments schema (the message names the error)",
}
"""Every reason a dialect refuses a tool (``Payload.refusal.slug``), with a one-line meaning."""


@displayed_by("toolkit._display._core:LOWERED_RENDERER")
@dataclass(frozen=True, slots=True)
class Lowered(Displayable):
    """A lowered schema (a fresh plain dict) and the losses, in walk order, deduplicated.

    ``strict`` is the provider's strict flag where the dialect has one (``openai``): ``True`` when the schema
    meets the strict rules, ``False`` when a node prevents it (a loss names the node); ``None`` elsewhere.
    """

    schema: dict[str, Any]
    losses: tuple[Loss, ...]
    strict: bool | None = None


class DialectRefusal(NamedTuple):
    """Why a tool cannot be expressed in a dialect: a stable slug and a message that says what to change."""

    slug: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"slug": self.slug, "message": self.message}


def refuse(slug: DialectSlug, message: str) -> DialectRefusal:
    """A refusal with a slug from :data:`DIALECT_SLUGS`."""
    return DialectRefusal(slug, message)


class NameRule(NamedTuple):
    """A provider's rule for tool names (``pattern``, quoted from ``source``) and how names are mapped onto it.

    :meth:`apply` replaces every character outside ``allowed`` with ``_``; a name still longer than ``limit``
    keeps its first ``limit - 9`` characters plus ``_`` and 8 hex digits of the SHA-256 of the contract name,
    so distinct long names stay distinct and the same name always maps the same way.
    """

    pattern: str
    allowed: str
    limit: int
    source: str

    def apply(self, name: str) -> str:
        mapped = re.sub(f"[^{self.allowed}]", "_", name)
        if len(mapped) > self.limit:
            digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]
            mapped = f"{mapped[: self.limit - 9]}_{digest}"
        return mapped

    def allows(self, name: str) -> bool:
        return re.fullmatch(self.pattern, name) is not None


class RawCall(NamedTuple):
    """A provider's tool call, read: the name the model used, its arguments as sent, and the call's id."""

    name: str
    arguments: Any
    id: str | None


@displayed_by("toolkit._display._wire:PAYLOAD_RENDERER")
@dataclass(frozen=True, slots=True)
class Payload(Displayable):
    """One tool in one dialect: the exact JSON the provider's SDK sends, or why the tool cannot be sent.

    ``tool`` is the contract's name, ``name`` the name the provider sees (the dialect's name rule applied);
    ``body`` is one entry of the request's tool list (``None`` when refused); ``losses`` are this dialect's
    lowering losses (the source's own losses are on ``Tool.losses``); ``strict`` is the provider's strict flag
    where the dialect has one.
    """

    dialect: str
    tool: str
    name: str
    body: dict[str, Any] | None
    losses: tuple[Loss, ...] = ()
    refusal: DialectRefusal | None = None
    strict: bool | None = None

    @property
    def accepted(self) -> bool:
        return self.refusal is None

    @property
    def size(self) -> int:
        """Bytes of the body as compact UTF-8 JSON (0 when refused): what the tool costs in every request."""
        if self.body is None:
            return 0
        return len(json.dumps(self.body, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "dialect": self.dialect,
            "tool": self.tool,
            "name": self.name,
            "body": self.body,
            "losses": [loss.to_dict() for loss in self.losses],
            "refusal": None if self.refusal is None else self.refusal.to_dict(),
            "strict": self.strict,
            "size": self.size,
        }

    def __repr__(self) -> str:
        state = f"refused={self.refusal.slug}" if self.refusal else f"losses={len(self.losses)} bytes={self.size}"
        return f"<Payload {self.dialect} {self.name!r} {state}>"


class Dialect:
    """One provider's rules; a subclass per dialect module (single instances live in the registry)."""

    name: ClassVar[str]
    provider: ClassVar[str]
    names: ClassVar[NameRule]

    def lower(self, schema: Mapping[str, Any], max_depth: int, policy: Policy) -> Lowered:
        """``args_schema`` as JSON Schema, copied as is (the providers that take it whole: Anthropic, MCP); the
        only losses are what JSON cannot carry. A dialect with its own rules overrides this."""
        copied, losses = carry(schema)
        return Lowered(copied, losses)

    def body(self, name: str, contract: ToolContract, lowered: Lowered) -> dict[str, Any]:
        raise NotImplementedError

    def read_call(self, raw: Mapping[str, Any]) -> RawCall:
        raise NotImplementedError

    def reply(self, call: RawCall, envelope: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def turn(self, replies: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The messages (or input items) that carry ``replies`` back to the model, in order."""
        return [dict(reply) for reply in replies]

    schema_key: ClassVar[str] = "parameters"
    """Where the body holds the arguments schema."""

    def view(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The body as ``{"name", "description", "parameters", ...}`` plus the dialect's other fields (what
        the declaration diff reads, whatever the provider calls them)."""
        return {("parameters" if key == self.schema_key else key): value for key, value in body.items()}


def root_refusal(schema: Mapping[str, Any]) -> DialectRefusal | None:
    """Every provider takes an object of named arguments: a root that is not a plain object is refused."""
    combinators = [key for key in ("anyOf", "oneOf", "allOf", "$ref", "not", "if") if key in schema]
    if schema.get("type") != "object" or combinators:
        what = f"{', '.join(combinators)} at the root" if combinators else f"type {schema.get('type')!r}"
        return refuse(
            "root_not_object",
            f"the arguments schema has {what}; providers take one object of named arguments: "
            "give the tool a plain object schema with properties",
        )
    return None


def envelope_text(envelope: Mapping[str, Any]) -> str:
    """An envelope as the JSON text a provider's string-only reply field carries (sorted keys, like ``to_json``)."""
    return json.dumps(envelope, sort_keys=True, ensure_ascii=False, default=str)


def unique(losses: Iterable[Loss]) -> tuple[Loss, ...]:
    """Each loss once (by where, keyword and reason), in the order first seen."""
    seen: dict[tuple[str, str, str], Loss] = {}
    for loss in losses:
        seen.setdefault((loss.path, loss.keyword, loss.reason), loss)
    return tuple(seen.values())
