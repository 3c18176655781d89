"""Lowering: a full JSON Schema 2020-12 ``args_schema`` → one dialect's subset, plus what was lost.

``lower(schema, dialect="gemini")`` is the one entry point. A dialect is a name in :data:`DIALECTS`:

* ``gemini`` (default): the genai ``Schema`` subset for ``FunctionDeclaration.parameters``
  (:mod:`toolkit._lowering.gemini`).
* ``json_schema``: the schema as JSON for ``parametersJsonSchema``, with losses only for values JSON
  cannot carry (:mod:`toolkit._lowering.json_schema`).

Lowering never mutates its input, never fetches anything and never hangs: references are inlined up to
``max_depth`` nested ``$ref`` s, each top-level parameter gets its own node budget (a parameter that
would inline past it is lowered with a smaller depth, and a loss says so), and everything that cannot be
carried is returned as :class:`~toolkit.Loss` records whose ``path`` is a JSON pointer into the input
(the ``$defs`` location for what a reference brought in; each loss once).

Decisions, in one place (details in :mod:`._walker` and :mod:`.gemini`):

* references are read by :mod:`toolkit._refs`, with its slugs: remote ``$ref`` → ``SchemaError`` slug
  ``remote_ref``; local pointer to nowhere (or an anchor) → ``unresolved_ref``; a malformed one → ``bad_ref``;
  a cycle that never reads into the value → ``left_recursive_ref`` (in every dialect: the validator refuses
  the same schemas); a malformed keyword value → ``bad_keyword``; a non-object node → ``bad_schema``;
* untyped node → ``anyOf`` STRING / NUMBER / BOOLEAN / OBJECT, with a loss; null-only node → nullable STRING;
* ``title``, ``$schema``, ``$id``, anchors, ``$defs`` and ``x-*`` are consumed without a loss (they never
  constrain a value); ``example``/``examples`` are dropped *with* a loss (put them in the description);
* non-string ``enum``/``const`` values are sent as strings on a ``STRING`` node, with a loss.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from toolkit._contract import Loss
from toolkit._display import Displayable, displayed_by
from toolkit._display._core import LOWERED_RENDERER
from toolkit._exceptions import SchemaError
from toolkit._lowering.gemini import GeminiWalker
from toolkit._lowering.json_schema import carry

__all__ = ["DEFAULT_MAX_DEPTH", "DIALECTS", "Lowered", "lower"]

DEFAULT_MAX_DEPTH = 8
MAX_NESTING = 64
MAX_NODES = 10_000  # input nodes visited per top-level parameter


@displayed_by(LOWERED_RENDERER)
@dataclass(frozen=True, slots=True)
class Lowered(Displayable):
    """A lowered schema (a fresh plain dict) and the losses, in walk order, deduplicated."""

    schema: dict[str, Any]
    losses: tuple[Loss, ...]


Dialect = Callable[[Mapping[str, Any], int], Lowered]


def _gemini(schema: Mapping[str, Any], max_depth: int) -> Lowered:
    walker = GeminiWalker(schema, max_depth=max_depth, max_nesting=MAX_NESTING, max_nodes=MAX_NODES)
    result, losses = walker.run()
    return Lowered(result, losses)


def _json_schema(schema: Mapping[str, Any], max_depth: int) -> Lowered:
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
    try:
        return run(schema, max_depth)
    except RecursionError:  # only a value nested thousands deep (or a Python-level cycle) gets here
        raise SchemaError(
            "a value in the schema (a default, enum or const) nests too deeply or refers to itself; "
            "pass plain JSON data",
            slug="schema_too_deep",
        ) from None
