"""Lowering: a full JSON Schema 2020-12 ``args_schema`` → one dialect's subset, plus what was lost.

``lower(schema, dialect="gemini")`` is the one entry point. A dialect is a name in :data:`DIALECTS`:

* ``gemini`` (default): the genai ``Schema`` subset for ``FunctionDeclaration.parameters``
  (:mod:`toolkit._lowering.gemini`).
* ``json_schema``: the schema as JSON for ``parametersJsonSchema``, with losses only for values JSON
  cannot carry (:mod:`toolkit._lowering.json_schema`).

Lowering never mutates its input, never fetches anything and never hangs: references are inlined up to
``max_depth`` nested ``$ref`` s, and everything it cannot carry is returned as :class:`~toolkit.Loss`
records whose ``path`` is a JSON pointer into the input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from toolkit._contract import Loss
from toolkit._exceptions import SchemaError

__all__ = ["DEFAULT_MAX_DEPTH", "DIALECTS", "Lowered", "lower"]

DEFAULT_MAX_DEPTH = 8
MAX_NESTING = 64
MAX_NODES = 10_000  # input nodes visited per top-level parameter


@dataclass(frozen=True, slots=True)
class Lowered:
    """A lowered schema (a fresh plain dict) and the losses, in walk order, deduplicated."""

    schema: dict[str, Any]
    losses: tuple[Loss, ...]


Dialect = Callable[[Mapping[str, Any], int], Lowered]


def _gemini(schema: Mapping[str, Any], max_depth: int) -> Lowered:
    from toolkit._lowering.gemini import GeminiWalker

    walker = GeminiWalker(schema, max_depth=max_depth, max_nesting=MAX_NESTING, max_nodes=MAX_NODES)
    result, losses = walker.run()
    return Lowered(result, losses)


def _json_schema(schema: Mapping[str, Any], max_depth: int) -> Lowered:
    from toolkit._lowering.json_schema import carry

    result, losses = carry(schema)
    return Lowered(result, losses)


DIALECTS: Mapping[str, Dialect] = MappingProxyType({"gemini": _gemini, "json_schema": _json_schema})


def lower(schema: Mapping[str, Any], dialect: str = "gemini", *, max_depth: int = DEFAULT_MAX_DEPTH) -> Lowered:
    """Lower a JSON Schema 2020-12 to ``dialect``; raises :class:`~toolkit.SchemaError` for unreadable input.

    ``max_depth`` bounds how many ``$ref`` s are inlined inside one another on any path; deeper references
    (recursive schemas) are cut to the target's bare type and reported as a loss.
    """
    try:
        run = DIALECTS[dialect]
    except (KeyError, TypeError):
        raise SchemaError(
            f"unknown dialect {dialect!r}; use one of {', '.join(sorted(DIALECTS))}", slug="unknown_dialect"
        ) from None
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or max_depth < 0:
        raise SchemaError(f"max_depth must be a non-negative integer, got {max_depth!r}", slug="bad_max_depth")
    return run(schema, max_depth)
