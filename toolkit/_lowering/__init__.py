"""Lowering: a full JSON Schema 2020-12 ``args_schema`` → one dialect's payload, plus what was lost.

Two entry points:

* ``lower(schema, dialect="gemini")`` → :class:`Lowered`: the schema a dialect's payload carries, and losses;
* ``payload(contract, dialect)`` → :class:`Payload`: the exact JSON one provider's SDK sends for the tool
  (``Tool.payload(dialect)`` calls it), its losses and the name the provider sees, or a refusal with a slug.

A dialect is a name in :data:`DIALECTS`, one module each:

* ``gemini`` (default): the genai ``Schema`` subset under ``FunctionDeclaration.parameters`` (:mod:`.gemini`);
* ``gemini_json``: JSON Schema under ``FunctionDeclaration.parametersJsonSchema`` (:mod:`.gemini_json`);
* ``openai``, ``openai_responses``: a Chat Completions or Responses function tool, strict when the schema
  can be made strict (:mod:`.openai`, :mod:`._strict`);
* ``anthropic``: a Messages API tool with ``input_schema`` (:mod:`.anthropic`);
* ``mcp``: a Model Context Protocol ``Tool`` with ``inputSchema`` and annotations (:mod:`.mcp`).

Lowering never mutates its input, never fetches anything and never hangs. In the ``gemini`` dialect references
are inlined up to ``max_depth`` nested ``$ref`` s, each top-level parameter gets its own node budget (a
parameter that would inline past it is lowered with a smaller depth, and a loss says so); the JSON Schema
dialects keep references as they are. Everything that cannot be carried is returned as :class:`~toolkit.Loss`
records whose ``path`` is a JSON pointer into the input (the ``$defs`` location for what a reference brought
in; each loss once).

Decisions, in one place (details in :mod:`._walker`, :mod:`.gemini` and each dialect's module):

* references are read by :mod:`toolkit._schema`, with its slugs: remote ``$ref`` → ``SchemaError`` slug
  ``remote_ref``; local pointer to nowhere (or an anchor) → ``unresolved_ref``; a malformed one → ``bad_ref``;
  a cycle that never reads into the value → ``left_recursive_ref`` (in every dialect: the validator refuses
  the same schemas); a malformed keyword value → ``bad_keyword``; a non-object node → ``bad_schema``;
* gemini: untyped node → ``anyOf`` STRING / NUMBER / BOOLEAN / OBJECT, with a loss; null-only node → nullable
  STRING; ``title``, ``$schema``, ``$id``, anchors, ``$defs`` and ``x-*`` are consumed without a loss (they never
  constrain a value); ``example``/``examples`` are dropped *with* a loss (put them in the description);
  non-string ``enum``/``const`` values are sent as strings on a ``STRING`` node, with a loss; an integer
  node's exclusive bound is sent as the exact inclusive bound (``exclusiveMinimum: 0`` → ``minimum: 1``),
  without a loss, a number node's as the inclusive bound, with a loss;
* names: each dialect maps the contract's name onto its provider's rule (``.``/``:`` → ``_``, long names
  shortened with a hash); :func:`toolkit.payloads` refuses names that collide within one request and maps a
  call back to its tool.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from toolkit._contract import Policy, ToolContract
from toolkit._exceptions import SchemaError
from toolkit._lowering._dialect import DIALECT_SLUGS, Dialect, DialectRefusal, Lowered, Payload, refuse, root_refusal
from toolkit._lowering._shared import Memo
from toolkit._lowering.gemini import GEMINI

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "DIALECTS",
    "DIALECT_SLUGS",
    "Dialect",
    "DialectRefusal",
    "Lowered",
    "Memo",
    "Payload",
    "dialect_named",
    "lower",
    "payload",
]

DEFAULT_MAX_DEPTH = 8


class _Dialects(Mapping[str, Dialect]):
    """Dialect name → its rules, each module imported the first time its dialect is asked for (the default,
    ``gemini``, is always loaded): a tool that is only ever declared to Gemini never loads the other five."""

    _WHERE: Mapping[str, tuple[str, str]] = MappingProxyType(
        {
            "gemini": ("toolkit._lowering.gemini", "GEMINI"),
            "gemini_json": ("toolkit._lowering.gemini_json", "GEMINI_JSON"),
            "openai": ("toolkit._lowering.openai", "OPENAI"),
            "openai_responses": ("toolkit._lowering.openai", "OPENAI_RESPONSES"),
            "anthropic": ("toolkit._lowering.anthropic", "ANTHROPIC"),
            "mcp": ("toolkit._lowering.mcp", "MCP"),
        }
    )

    def __getitem__(self, name: str) -> Dialect:
        module, attribute = self._WHERE[name]
        rules: Dialect = getattr(importlib.import_module(module), attribute)
        return rules

    def __iter__(self) -> Iterator[str]:
        return iter(self._WHERE)

    def __len__(self) -> int:
        return len(self._WHERE)


DIALECTS: Mapping[str, Dialect] = _Dialects()


def dialect_named(dialect: str) -> Dialect:
    """The dialect registered as ``dialect``; raises ``SchemaError(slug="unknown_dialect")`` naming the known ones."""
    try:
        return DIALECTS[dialect]
    except (KeyError, TypeError):
        raise SchemaError(
            f"unknown dialect {dialect!r}; use one of {', '.join(DIALECTS)}", slug="unknown_dialect"
        ) from None


def lower(
    schema: Mapping[str, Any], dialect: str = "gemini", *, max_depth: int = DEFAULT_MAX_DEPTH, memo: Memo | None = None
) -> Lowered:
    """Lower a JSON Schema 2020-12 to ``dialect``; raises :class:`~toolkit.SchemaError` for unreadable input.

    ``max_depth`` bounds how many ``$ref`` s are inlined inside one another on any path (``gemini``); deeper
    references (recursive schemas) are cut to the target's bare type and reported as a loss. ``memo`` (one
    :class:`Memo` for the tools of one document, whose ``$defs`` names mean the same schemas) lets ``gemini``
    lower each shared top-level parameter once; the results are identical, and share their nodes.
    """
    rules = dialect_named(dialect)
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or max_depth < 0:
        raise SchemaError(f"max_depth must be a non-negative integer, got {max_depth!r}", slug="bad_max_depth")
    return _run(rules, schema, max_depth, Policy(), memo)


def _run(
    rules: Dialect, schema: Mapping[str, Any], max_depth: int, policy: Policy, memo: Memo | None = None
) -> Lowered:
    try:
        if memo is not None and rules is GEMINI:
            return GEMINI.lower(schema, max_depth, policy, memo)
        return rules.lower(schema, max_depth, policy)
    except RecursionError:  # only a value nested thousands deep (or a Python-level cycle) gets here
        raise SchemaError(
            "a value in the schema (a default, enum or const) nests too deeply or refers to itself; "
            "pass plain JSON data",
            slug="schema_too_deep",
        ) from None


def payload(
    contract: ToolContract, dialect: str = "gemini", *, policy: Policy | None = None, lowered: Lowered | None = None
) -> Payload:
    """One tool's payload in ``dialect``: the exact body, its losses and name, or a refusal (never raised).

    ``lowered`` passes a schema already lowered for this dialect (a tool's ``gemini`` parameters); ``policy``
    is the tool's boundary policy (OpenAI strict mode needs ``null`` read as "omitted").
    """
    rules = dialect_named(dialect)
    name = rules.names.apply(contract.name)
    refusal = root_refusal(contract.args_schema)
    if refusal is None and lowered is None:
        try:
            lowered = _run(rules, contract.args_schema, DEFAULT_MAX_DEPTH, policy or Policy())
        except SchemaError as error:
            refusal = refuse("unreadable_schema", f"[{error.slug}] {error.message}")
    if refusal is not None or lowered is None:
        return Payload(rules.name, contract.name, name, None, refusal=refusal)
    body = rules.body(name, contract, lowered)
    return Payload(rules.name, contract.name, name, body, lowered.losses, strict=lowered.strict)
