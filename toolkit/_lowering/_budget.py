"""The declaration budget: a tool's ``gemini`` declaration fits a size budget, reduced in a documented order,
or the tool is refused.

**Size** is the bytes of the declaration (``{"name", "description", "parameters"}``) as compact UTF-8 JSON
(no spaces, keys in their order), which is what google-genai puts on the wire near enough. **Tokens** are an
approximate estimate, ``ceil(bytes / 4)``: tokenizers differ by model and language, and JSON punctuation
and English words both average around four bytes a token; use it to compare tools, not to bill them.

**Budget.** Every tool has one, the default (:data:`DEFAULT`: :data:`DEFAULT_BUDGET`, 8 KiB, about 2k tokens)
unless the author sets one: ``Policy(declaration_budget=...)`` for one tool (also ``policy:
{declaration_budget: ...}`` in the OpenAPI overrides), ``from_function(budget=...)`` /
``from_openapi(budget=...)`` for everything they build (``None`` lifts it).
``from_openapi(toolset_budget=...)`` bounds the toolset's total (no default: a toolset is rarely sent whole);
over it, the largest tools are refused first, slug ``over_toolset_budget``.

**Reductions**, in this order; each is taken only when the ones before it cannot fit, and each is recorded as
:class:`~toolkit.Loss` records (the validator still enforces the full ``args_schema``):

1. ``depth``: references are inlined less deep: the deepest that fits, climbing from none inlined.
   Each reference cut is a ``$ref`` loss at the node that holds it (recursive and shared definitions go first:
   they are the ones nested deepest).
2. ``descriptions``: descriptions of nodes below the top-level arguments are dropped (a ``description`` loss
   at each node); the tool's and the arguments' own descriptions stay.
3. ``enums``: an enum of more than :data:`LARGE_ENUM` values is sent as a plain ``STRING`` whose description
   says how many values there are and names the first three (an ``enum`` loss holding the values).
4. ``first_sentences``: the top-level arguments' descriptions are cut to their first sentence (a
   ``description`` loss holding the whole text); the tool's own description is the author's and stays.
5. ``nesting``: objects written out inline (no reference to cut) are sent as a bare ``OBJECT`` below some
   level, the deepest level that fits, from 6 (an argument is level 1, its fields level 2) up to the
   arguments themselves; a loss at each such object, with the keyword ``""`` (the whole subtree, as the
   walker's own nesting cut reports it).

When step 2, 3 or 4 is needed, the reference depth is then raised back as far as still fits with it. When
nothing fits (the tool's own description and top-level arguments alone are over the budget):

* under the **default** budget the declaration is built as lowered, with no reduction (each would lose what
  the model reads and still leave it over): :attr:`BudgetFit.over` is true, and the error lint TK504
  (``declaration_over_budget``) gives its size, the reductions tried and what the author can do. Tools that
  every other toolkit builds (a long docstring, an operation with many arguments) are built here too;
* under a budget the author **set** (any of the ways above), :func:`fit` raises
  :class:`~toolkit.SchemaError` with slug ``declaration_over_budget``: ``from_openapi`` refuses the
  operation with that slug, ``from_function`` raises it.

The reductions are :mod:`toolkit._lowering._reductions`, loaded for the first declaration over its budget.

The budget is the ``gemini`` declaration's (``tool.declaration``, the default dialect); the other dialects'
payloads are lowered from ``args_schema`` on demand, as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from toolkit._exceptions import SchemaError
from toolkit._lowering._size import declaration_size, tokens

if TYPE_CHECKING:
    from toolkit._contract import ToolContract
    from toolkit._lowering._dialect import Lowered
    from toolkit._lowering._shared import Memo, Root

__all__ = [
    "DEFAULT",
    "DEFAULT_BUDGET",
    "LARGE_ENUM",
    "REDUCTIONS",
    "Budget",
    "BudgetFit",
    "Reduction",
    "budget_summary",
    "check_budget",
    "chosen_budget",
    "fit",
    "over_toolset_budget",
]

DEFAULT_BUDGET = 8 * 1024
"""Bytes of compact JSON a declaration may take unless its author says otherwise (about 2k tokens)."""
DEFAULT: Final = "default"
"""The budget a tool gets when its author sets none: :data:`DEFAULT_BUDGET` bytes, and a declaration no
reduction fits is built with an error lint rather than refused (see the module's notes)."""
Budget = int | Literal["default"] | None
"""What ``budget=`` takes: bytes (a set budget, which refuses what it cannot fit), :data:`DEFAULT`, or ``None``."""
LARGE_ENUM = 32
"""An enum with more values than this is shortened by the ``enums`` reduction."""

Reduction = Literal["depth", "descriptions", "enums", "first_sentences", "nesting"]
REDUCTIONS: Mapping[str, str] = {
    "depth": "references inlined less deep (each cut reference is a `$ref` loss)",
    "descriptions": "descriptions of nodes below the top-level arguments dropped (`description` losses)",
    "enums": f"enums of more than {LARGE_ENUM} values sent as a plain string, their size and first values "
    "described (`enum` losses)",
    "first_sentences": "the top-level arguments' descriptions cut to their first sentence (`description` losses)",
    "nesting": "objects nested deeper than some level sent as a bare OBJECT, without their properties (losses at "
    'each, keyword `""`: the whole subtree)',
}
"""The reductions in the order they are tried, with what each does (:func:`fit`)."""


@dataclass(frozen=True, slots=True)
class BudgetFit:
    """How a declaration met its budget: ``budget`` (``None``: none), its size as lowered (``before``) and as
    sent (``after``) in bytes, the reference depth it was lowered with when ``depth`` reduced it, and the
    reductions taken, in order."""

    budget: int | None
    before: int
    after: int
    depth: int | None = None
    reductions: tuple[Reduction, ...] = ()

    @property
    def reduced(self) -> bool:
        return bool(self.reductions)

    @property
    def over(self) -> bool:
        """Whether the declaration is over its budget as sent: no reduction fit it under the default budget,
        so it was built whole (a set budget refuses it instead)."""
        return self.budget is not None and self.after > self.budget

    @property
    def cut(self) -> int:
        """Bytes the reductions took out."""
        return self.before - self.after


def check_budget(value: Any, what: str = "declaration_budget") -> int | None:
    """``value`` if it is a usable budget (a positive integer of bytes, or ``None``); raises ``SchemaError``
    slug ``bad_budget`` otherwise."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0):
        return value
    raise SchemaError(f"{what} must be a positive number of bytes or None, got {value!r}", slug="bad_budget")


def chosen_budget(budget: Any, policy_budget: Any = None) -> tuple[int | None, bool]:
    """The bytes a tool's declaration may take and whether a declaration no reduction fits is refused: the
    policy's budget when it names one, else ``budget`` (``budget=`` when building); a set budget refuses,
    :data:`DEFAULT` does not. Raises ``SchemaError`` slug ``bad_budget`` for a value that is neither."""
    if policy_budget is not None:
        return check_budget(policy_budget), True
    if budget == DEFAULT and isinstance(budget, str):
        return DEFAULT_BUDGET, False
    return check_budget(budget, "budget"), True


# -- the fit ---------------------------------------------------------------------------------------------
def fit(
    contract: ToolContract,
    lowered: Lowered,
    budget: int | None,
    max_depth: int,
    memo: Memo | None = None,
    root: Root | None = None,
    *,
    refuse: bool = True,
) -> tuple[Lowered, BudgetFit]:
    """``lowered`` (the contract's ``gemini`` lowering at ``max_depth``) made to fit ``budget`` bytes, with the
    losses of every reduction, and how it fit; when no reduction fits, raises ``SchemaError`` slug
    ``declaration_over_budget`` (``refuse``: a set budget) or gives ``lowered`` whole, its fit
    :attr:`~BudgetFit.over` (the default budget; see the module's notes for the order). ``memo`` (shared by the
    tools of one document) lowers each shared parameter once per reference depth tried; ``root`` (shared by its
    tools with the same
    arguments, :meth:`~toolkit._lowering._shared.Memo.root`) keeps what depends on the arguments alone: the
    shallower lowerings, their reductions and what the full one says of them."""
    sizes = memo.sizes if memo is not None else None
    before = declaration_size(contract, lowered.schema, sizes)
    if budget is None or before <= budget:
        return lowered, BudgetFit(budget, before, before)
    from toolkit._lowering._reductions import reduced  # only a declaration over its budget is reduced

    return reduced(contract, lowered, (budget, before), max_depth, memo, root, refuse=refuse)


def over_toolset_budget(sizes: Mapping[str, int], budget: int | None) -> dict[str, str]:
    """The tools (name → message) a toolset refuses to keep its declarations' total within ``budget``:
    the largest first (ties by name), until the rest fit."""
    total = sum(sizes.values())
    if budget is None or total <= budget:
        return {}
    refused: dict[str, str] = {}
    for name, size in sorted(sizes.items(), key=lambda item: (-item[1], item[0])):
        if total <= budget:
            break
        total -= size
        refused[name] = (
            f"its declaration is {size:,} bytes and the toolset's declarations total {sum(sizes.values()):,}, "
            f"over the toolset budget of {budget:,} bytes (the largest tools are refused first): raise "
            "toolset_budget, lower the tools' budget, or select fewer operations"
        )
    return refused


def budget_summary(fits: Mapping[str, BudgetFit], toolset_budget: int | None = None) -> dict[str, Any]:
    """Each tool's declaration size (bytes, approximate tokens, size before reductions, reductions taken, over
    the default budget with every reduction) and the toolset's totals: what ``toolkit lower --summary`` and the
    corpus table report."""
    tools = {
        name: {
            "bytes": f.after,
            "tokens": tokens(f.after),
            "before": f.before,
            "reductions": list(f.reductions),
            "over": f.over,
        }
        for name, f in fits.items()
    }
    total = sum(f.after for f in fits.values())
    before = sum(f.before for f in fits.values())
    return {
        "bytes": total,
        "tokens": tokens(total),
        "before": before,
        "cut": before - total,
        "reduced": sum(1 for f in fits.values() if f.reduced),
        "over": sum(1 for f in fits.values() if f.over),
        "budgets": sorted({f.budget for f in fits.values() if f.budget is not None}),
        "toolset_budget": toolset_budget,
        "tools": tools,
    }
