"""The declaration budget's reductions (:mod:`toolkit._lowering._budget` gives the order and the rules): a
declaration over its budget lowered at shallower reference depths and reduced step by step, until the deepest
and least reduced that fits is found, with the losses of each reduction. Loaded for the first declaration over
its budget; one within it is only measured.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any, NamedTuple

from toolkit._contract import Loss, ToolContract
from toolkit._exceptions import SchemaError
from toolkit._lowering._budget import LARGE_ENUM, BudgetFit, Reduction
from toolkit._lowering._dialect import Lowered
from toolkit._lowering._shared import Memo, Root
from toolkit._lowering._size import declaration_size, tokens
from toolkit._lowering.gemini import MAX_NESTING, MAX_NODES, GeminiWalker, has_arguments
from toolkit._regex import lazy
from toolkit._schema import Refs

__all__ = ["SharedFit", "reduced"]

_KEPT_LEVEL = 1
"""Nodes at this level or above keep their descriptions (0: the parameters object, 1: the arguments)."""
_ORDER: tuple[Reduction, ...] = ("depth", "descriptions", "enums", "first_sentences", "nesting")
_NESTING = (6, 5, 4, 3, 2, 1)
"""The levels below which the ``nesting`` reduction cuts objects, tried in this order."""
_STAGES = 3 + len(_NESTING)
"""Reduction stages after ``depth``: 1 descriptions, 2 enums, 3 first sentences, 4… nesting at each level."""
_SENTENCE = lazy(r"(.{10,}?[.!?])\s", re.DOTALL)


class _Probe(NamedTuple):
    """One lowering at ``depth`` and what each number of reductions after ``depth`` makes of it."""

    depth: int
    schema: dict[str, Any]
    losses: tuple[Loss, ...]
    origins: Mapping[int, str]


def _probe(schema: Mapping[str, Any], depth: int, memo: Memo | None = None) -> _Probe:
    """The ``gemini`` lowering at ``depth``, noting the ``args_schema`` pointer each finished node came from (in
    the memo's table when there is one: a shared parameter's nodes were noted when first finished, and stay
    alive, the memo holding them, so their ids are not reused). A probe reads no reference it does not inline:
    the full lowering it reduces has read every one already (it walked or checked everything a shallower
    lowering cuts), and re-reading a cut definition's closure is most of the cost of a shallow lowering."""
    origins: dict[int, str] = memo.origins if memo is not None else {}
    walker = GeminiWalker(
        schema, max_depth=depth, max_nesting=MAX_NESTING, max_nodes=MAX_NODES, memo=memo, origins=origins
    )
    result, losses = walker.run()
    return _Probe(depth, result, losses, origins)


# -- the reductions on a lowered tree (a copy; the probe is never changed) -----------------------------------
def _reduce(probe: _Probe, steps: int, losses: dict[tuple[str, str], Loss]) -> dict[str, Any]:
    """The probe's schema after the first ``steps`` reduction stages past ``depth`` (1: descriptions, 2: enums,
    3: first sentences, 4 and on: objects cut at each level of :data:`_NESTING` in turn)."""
    return _node(probe.schema, 0, probe.origins, steps, losses)


def _node(
    node: dict[str, Any], level: int, origins: Mapping[int, str], steps: int, losses: dict[tuple[str, str], Loss]
) -> dict[str, Any]:
    out = dict(node)
    path = origins.get(id(node), "")
    if steps >= 1 and level > _KEPT_LEVEL and "description" in out:
        text = out.pop("description")
        losses.setdefault((path, "description"), Loss(path, "description", text, _DROPPED))
    if steps >= 2 and len(out.get("enum", ())) > LARGE_ENUM:
        values = out.pop("enum")
        shown = ", ".join(json.dumps(value, ensure_ascii=False) for value in values[:3])
        said = f"one of {len(values)} values, such as {shown}"
        out["description"] = f"{out['description']} ({said})" if "description" in out else said.capitalize()
        losses.setdefault((path, "enum"), Loss(path, "enum", values, _SHORTENED))
    if steps >= 3 and level == _KEPT_LEVEL and "description" in out:
        first = _SENTENCE.match(out["description"])
        if first is not None:
            losses.setdefault((path, "description"), Loss(path, "description", out["description"], _CUT))
            out["description"] = first.group(1)
    if steps >= 4 and level >= _NESTING[steps - 4] and "properties" in out:
        losses.setdefault((path, ""), Loss(path, "", "...", _BARE.format(level=level)))
        return {key: out[key] for key in ("type", "description", "nullable") if key in out}
    if "properties" in out:
        out["properties"] = {k: _node(v, level + 1, origins, steps, losses) for k, v in out["properties"].items()}
    if "items" in out:
        out["items"] = _node(out["items"], level + 1, origins, steps, losses)
    if "anyOf" in out:
        out["anyOf"] = [_node(branch, level, origins, steps, losses) for branch in out["anyOf"]]
    return out


_DROPPED = "a description below the top-level arguments, dropped to fit the declaration budget"
_BARE = "an object at level {level} of the arguments, sent without its properties to fit the declaration budget"
_CUT = "an argument's description cut to its first sentence to fit the declaration budget"
_SHORTENED = (
    f"an enum of more than {LARGE_ENUM} values, sent as a plain string (the description gives the count and the "
    "first values) to fit the declaration budget"
)


# -- the search ------------------------------------------------------------------------------------------
def reduced(
    contract: ToolContract,
    lowered: Lowered,
    over: tuple[int, int],
    max_depth: int,
    memo: Memo | None = None,
    root: Root | None = None,
    *,
    refuse: bool = True,
) -> tuple[Lowered, BudgetFit]:
    """:func:`~toolkit._lowering._budget.fit` for a declaration over its budget: ``over`` is the budget and the
    declaration's size as lowered."""
    budget, before = over
    sizes = memo.sizes if memo is not None else None
    done = root.budget if root is not None else None
    if done is None:
        done = SharedFit()
        if root is not None:
            root.budget = done
    shared = _Fitting(contract.args_schema, lowered, memo, done)
    measured: dict[tuple[int, int], int] = {}

    def size(depth: int, steps: int) -> int:
        if (depth, steps) not in measured:
            schema = shared.reduced(depth, steps)[0]
            # a reduction's nodes are measured by id only while the root keeps them (a lone tool's die with it)
            measured[depth, steps] = declaration_size(
                contract, schema, sizes if root is not None or not steps else None
            )
        return measured[depth, steps]

    if has_arguments(contract):
        for steps in range(_STAGES + 1):
            if size(0, steps) <= budget:
                fits = partial(_within, size, steps, budget)
                depth = _deepest(fits, shared.whole, max_depth - 1 if steps == 0 else max_depth)
                cut = depth < max_depth and not shared.whole(depth)
                return _result(shared, depth, steps, budget, (before, size(depth, steps)), cut)
    if not refuse:
        return lowered, BudgetFit(budget, before, before)
    smallest = size(0, _STAGES) if has_arguments(contract) else before
    raise SchemaError(
        f"the declaration of {contract.name!r} is {before:,} bytes (~{tokens(before):,} tokens) and still "
        f"{smallest:,} bytes with every reduction ({', '.join(_ORDER)}), over its budget of {budget:,} bytes: raise "
        "the budget (Policy(declaration_budget=...), or budget= when building), shorten the description, or "
        "split the tool",
        slug="declaration_over_budget",
    )


class SharedFit:
    """The budget's work on one ``args_schema`` that does not depend on the tool's name or description: the
    lowering at each depth, each reduction of it and its losses, whether a depth cuts nothing, and the losses
    of a depth cut to fit a budget. A :class:`~toolkit._lowering._shared.Root` keeps one for the tools of one
    document with these arguments; a tool built alone gets its own. (It holds no memo, which holds the root:
    the build would be a cycle.)"""

    __slots__ = ("blames", "probes", "reductions", "wholes")

    probes: dict[int, _Probe]
    reductions: dict[tuple[int, int], tuple[dict[str, Any], dict[tuple[str, str], Loss]]]
    wholes: dict[int, bool]
    blames: dict[tuple[int, int], tuple[Loss, ...]]

    def __init__(self) -> None:
        self.probes, self.reductions, self.wholes, self.blames = {}, {}, {}, {}


class _Fitting:
    """One tool's reading of a :class:`SharedFit`, computing what it lacks with the tool's memo."""

    __slots__ = ("done", "lowered", "memo", "schema")

    def __init__(self, schema: Mapping[str, Any], lowered: Lowered, memo: Memo | None, done: SharedFit) -> None:
        self.schema, self.lowered, self.memo, self.done = schema, lowered, memo, done

    def probe(self, depth: int) -> _Probe:
        probes = self.done.probes
        if depth not in probes:
            probes[depth] = _probe(self.schema, depth, self.memo)
        return probes[depth]

    def reduced(self, depth: int, steps: int) -> tuple[dict[str, Any], dict[tuple[str, str], Loss]]:
        """The probe's schema after ``steps`` reductions, with the losses they make (kept: never change either)."""
        if not steps:
            return self.probe(depth).schema, {}
        reductions = self.done.reductions
        if (depth, steps) not in reductions:
            losses: dict[tuple[str, str], Loss] = {}
            reductions[depth, steps] = (_reduce(self.probe(depth), steps, losses), losses)
        return reductions[depth, steps]

    def whole(self, depth: int) -> bool:
        """Whether the lowering at ``depth`` cuts no reference: every deeper lowering is this one."""
        wholes = self.done.wholes
        if depth not in wholes:
            wholes[depth] = self.probe(depth).schema == self.lowered.schema
        return wholes[depth]

    def blamed(self, depth: int, budget: int) -> tuple[Loss, ...]:
        """The losses of the lowering at ``depth``, its own cuts blamed on ``budget`` (:func:`_blame_depth`)."""
        blames = self.done.blames
        if (depth, budget) not in blames:
            blames[depth, budget] = tuple(
                _blame_depth(self.probe(depth).losses, self.lowered.losses, budget, self.schema)
            )
        return blames[depth, budget]


def _within(size: Callable[[int, int], int], steps: int, budget: int, depth: int) -> bool:
    return size(depth, steps) <= budget


def _deepest(fits: Callable[[int], bool], whole: Callable[[int], bool], high: int) -> int:
    """The largest depth in ``0..high`` up to which every depth ``fits`` (0 is known to fit), or the first that
    is ``whole`` (cuts no reference, so deeper ones are the same). The search climbs from 0: a declaration over
    budget is usually far over, so the depth that fits is small, and lowerings at small depths are the cheap
    ones (bisection would start with a lowering half as deep as the full one)."""
    depth = 0
    while depth < high and not whole(depth) and fits(depth + 1):
        depth += 1
    return depth


def _result(
    shared: _Fitting, depth: int, steps: int, budget: int, measured: tuple[int, int], cut: bool
) -> tuple[Lowered, BudgetFit]:
    """The reduced lowering at ``depth`` after ``steps`` reductions (``measured``: the sizes before and after);
    ``cut``: it inlines less than the full one."""
    before, after = measured
    probe = shared.probe(depth)
    reduced, extra = shared.reduced(depth, steps)
    schema = dict(reduced)
    reasons = {loss.reason for loss in extra.values()}
    taken = [step for step, reason in zip(_ORDER[1:4], (_DROPPED, _SHORTENED, _CUT), strict=True) if reason in reasons]
    if any(loss.keyword == "" for loss in extra.values()):
        taken.append("nesting")
    losses: Iterable[Loss] = probe.losses
    if cut:
        taken.insert(0, "depth")
        losses = shared.blamed(depth, budget)
    reduced_lowering = Lowered(schema, (*losses, *extra.values()), shared.lowered.strict)
    return reduced_lowering, BudgetFit(budget, before, after, probe.depth if cut else None, tuple(taken))


def _blame_depth(
    losses: Iterable[Loss], original: Iterable[Loss], budget: int, schema: Mapping[str, Any]
) -> Iterable[Loss]:
    """The shallower lowering's losses. A ``$ref`` cut the full lowering did not make says it was the budget;
    what the cut itself makes of the node (no ``type`` or ``items`` to send: the reference's target is not
    read) is left out, as the node has no such keyword: the ``$ref`` loss stands for everything behind it."""
    known = {(loss.path, loss.keyword, loss.reason) for loss in original}
    losses = tuple(losses)
    cuts = {loss.path for loss in losses if loss.keyword == "$ref" and (loss.path, "$ref", loss.reason) not in known}
    refs = Refs(schema)
    why = f", to fit the declaration budget of {budget:,} bytes"
    for loss in losses:
        if (loss.path, loss.keyword, loss.reason) in known:
            yield loss
        elif loss.keyword == "$ref":
            yield Loss(loss.path, loss.keyword, loss.value, loss.reason + why)
        elif loss.path not in cuts or loss.keyword in _node_at(refs, loss.path):
            yield loss


def _node_at(refs: Refs, path: str) -> Mapping[str, Any]:
    node = refs.lookup("#" + path)
    return node if isinstance(node, Mapping) else {}
