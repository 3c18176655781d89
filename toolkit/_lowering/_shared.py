"""Lowering work shared by the tools of one document (:class:`Memo`), which the walker reads and fills through
:func:`walk_parameter`, :func:`finish_parameter` and :func:`walk_reference`.

A top-level parameter (a property of an OpenAPI ``args_schema``) is walked and finished once per document;
later tools reuse the finished node itself (nodes are shared, so a lowered schema must never be mutated).
Reuse replays what the first lowering recorded, in the same order: its losses (each once, the first kept)
and its work (so the budget runs out exactly where it would). It applies only where the result cannot
depend on anything else: the same schema (the same object, or the same JSON text, keys in order, for one
built afresh for each operation, such as a ``$ref`` with the operation's description) and every reference it
read pointing at the same schema. A root shares only when it says nothing but ``type``, ``properties``, ``required``,
``additionalProperties``, ``$defs``, ``description`` and ``title``: then each property is lowered on its own
(with its own node budget) and finished as it is, whatever its siblings.

Inside a parameter, each referenced schema inlined is walked once too (:func:`walk_reference`): the tools of a
document inline the same definitions again and again. Its draft is kept and given to every later walk that
meets it with room for what it inlined (a walk that cut a reference: at the same depth), with its losses,
references read, nodes and work replayed. Drafts are shared, not copied: no walk changes a draft it did not
build, and finishing (:meth:`~toolkit._lowering._walker.Walker.finish_node`) builds new nodes from a draft
without changing it. Only the walk is shared, not the finish, which depends on what the draft is merged with.

Whole roots repeat too: many operations take exactly the same arguments (Kubernetes' 1,121 operations have 472
distinct ``args_schema`` roots). :meth:`Memo.root` gives the tools of one root a :class:`Root`, which keeps
what depends on the arguments alone: the lowering (kept once the validator is found able to enforce them too)
and the declaration budget's shallower lowerings and reductions. What depends on the tool's name and
description too (its sizes, the reduction it takes) is worked out for each tool. A root is the same when its
JSON text ``$defs`` aside is the same, and its ``$defs`` hold the same schema objects under the same names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toolkit._canonical import json_text_key
from toolkit._contract import Loss
from toolkit._exceptions import SchemaError
from toolkit._lowering._merge import Draft
from toolkit._schema import Refs, defs_name

if TYPE_CHECKING:
    from toolkit._lowering._dialect import Lowered
    from toolkit._lowering._reductions import SharedFit
    from toolkit._lowering._walker import Walker

__all__ = ["Memo", "Root", "finish_parameter", "walk_parameter", "walk_reference"]

LossKey = tuple[str, str, str]
"""A loss's path, keyword and reason: one loss is kept per key (the first)."""
Located = tuple[tuple[str, str | None, Any], ...]
"""Each reference read: its text, its ``$defs`` name when it is a plain ``#/$defs/Name``, and its target."""


class _Parameter:
    """One top-level parameter lowered once: what the walk and the finish produced and cost.

    This module's three classes are plain classes with slots: dataclasses would cost the import of the lowering
    stage more than their generated methods are worth here (they are filled, never compared or printed).
    """

    __slots__ = (
        "checks", "finish_losses", "finish_work", "finished", "located", "read_only", "walk_losses", "walk_work"
    )  # fmt: skip

    located: dict[Any, Any]
    """Every ``$ref`` the walk read, with the schema it pointed at (checked again before each reuse)."""
    checks: Located | None
    """The same, ready to check (``$defs`` names read once), from the first reuse on."""
    walk_losses: tuple[tuple[LossKey, Loss], ...]
    """The walk's losses, each with its key in :attr:`Walker.losses` (replayed as they are)."""
    walk_work: int
    read_only: bool
    finished: dict[str, Any] | None
    finish_losses: tuple[tuple[LossKey, Loss], ...]
    finish_work: int

    def __init__(
        self,
        located: dict[Any, Any],
        checks: Located | None,
        walk_losses: tuple[tuple[LossKey, Loss], ...],
        walk_work: int,
        read_only: bool,
    ) -> None:
        self.located, self.checks, self.walk_losses = located, checks, walk_losses
        self.walk_work, self.read_only = walk_work, read_only
        self.finished, self.finish_losses, self.finish_work = None, (), 0


class Memo:
    """Work shared by the lowerings of the tools of one document (their ``$defs`` names must mean the same
    schemas). Finished parameter nodes are shared between tools: never mutate a lowered schema."""

    __slots__ = ("by_content", "first", "first_roots", "origins", "parameters", "references", "roots", "sizes")

    parameters: dict[tuple[int, str, int, bool], tuple[Any, _Parameter]]
    """By the parameter schema's identity (the schema kept beside, so its id cannot be reused)."""
    by_content: dict[tuple[Any, ...], _Parameter]
    """By the parameter schema's JSON text (keys in order), for schemas built afresh for each operation."""
    first: dict[tuple[Any, ...], tuple[Any, _Parameter] | None]
    """The first parameter lowered at each place (path, depth, probe or not), its JSON text not yet taken: most
    places hold one parameter in a document, so the text is taken only when a second one comes (``None``)."""
    references: dict[tuple[Any, ...], _Reference]
    """Referenced schemas walked inside a parameter, by the target's identity, its pointer and whether the walk
    is a budget probe; for a walk that cut a reference, also the reference depth and how many references were
    being inlined around it (:func:`walk_reference`)."""
    origins: dict[int, str]
    """The ``args_schema`` pointer each node finished by the declaration budget's lowerings came from, by id."""
    sizes: dict[int, tuple[Any, int]]
    """Each top-level argument's lowered node's size in compact JSON, by id (the node kept beside)."""
    roots: dict[tuple[bytes, tuple[Any, ...]], Root]
    """By a root's JSON text less its ``$defs`` and its ``$defs`` names (:meth:`root`)."""
    first_roots: dict[tuple[Any, ...], tuple[Any, Root] | None]
    """The first root with each set of property and ``$defs`` names, its text not yet taken (``None`` once a
    second one came)."""

    def __init__(self) -> None:
        self.parameters, self.by_content, self.first, self.origins, self.sizes = {}, {}, {}, {}, {}
        self.references = {}
        self.roots, self.first_roots = {}, {}

    def root(self, schema: Mapping[str, Any]) -> Root | None:
        """The :class:`Root` of an ``args_schema`` (``None`` for one JSON cannot spell). Most roots are alone in
        their document, so a root's JSON text is taken only once a second root has the same property and
        ``$defs`` names."""
        defs = schema.get("$defs")
        if defs is None:
            defs = {}
        elif defs.__class__ is not dict:
            return None
        properties = schema.get("properties")
        names = (tuple(properties) if properties.__class__ is dict else None, tuple(defs))
        first = self.first_roots.get(names, _NONE)
        if first is _NONE:  # the first root with these names: its own, no text needed yet
            alone = Root(tuple(defs.values()))
            self.first_roots[names] = (schema, alone)
            return alone
        if first is not None:  # a second one: the first's text is due
            self.first_roots[names] = None
            earlier = _root_text(first[0])
            if earlier is not None:
                self.roots[(earlier, names[1])] = first[1]
        text = _root_text(schema)
        if text is None:
            return None
        key = (text, names[1])
        found = self.roots.get(key)
        if found is None or any(a is not b for a, b in zip(found.defs, defs.values(), strict=True)):
            found = self.roots[key] = Root(tuple(defs.values()))
        return found


def _root_text(schema: Mapping[str, Any]) -> bytes | None:
    return json_text_key({key: value for key, value in schema.items() if key != "$defs"})


class Root:
    """What the tools of one ``args_schema`` root share (see the module's notes); filled by the stages that use it."""

    __slots__ = ("budget", "defs", "lowered")

    defs: tuple[Any, ...]
    """The root's ``$defs`` schemas, kept: another root is the same only while its ``$defs`` are these objects."""
    lowered: Lowered | None
    """The ``gemini`` lowering at full reference depth, kept only once the validator was also found able to
    enforce the root: a root that has it needs neither again (``toolkit._tool.build_tool``)."""
    budget: SharedFit | None
    """The declaration budget's work that depends on the arguments alone (:mod:`toolkit._lowering._budget`)."""

    def __init__(self, defs: tuple[Any, ...]) -> None:
        self.defs, self.lowered, self.budget = defs, None, None


def walk_parameter(walker: Walker, schema: Any, path: str) -> Draft:
    """``walker.parameter`` for a property of the root, walked once per memo; later a placeholder draft that
    :func:`finish_parameter` replaces with the finished node."""
    memo = walker.memo
    assert memo is not None
    rest = (path, walker.max_depth, walker.origins is not None)  # a budget probe's nodes are noted: its own
    key = (id(schema), *rest)
    found = memo.parameters.get(key)
    entry = found[1] if found is not None and found[0] is schema and _reusable(found[1], walker.document) else None
    content: tuple[Any, ...] | None = None
    alone = False
    if entry is None:  # not this object: perhaps the same JSON, built afresh for another operation
        first = memo.first.get(rest, _NONE)
        alone = first is _NONE
        if first is not None and first is not _NONE:  # a second one here: the first's text is due
            earlier = json_text_key(first[0])
            if earlier is not None:
                memo.by_content[(earlier, *rest)] = first[1]
        if not alone:
            memo.first[rest] = None
            text = json_text_key(schema)
            content = None if text is None else (text, *rest)
            entry = memo.by_content.get(content) if content is not None else None
            if entry is not None and _reusable(entry, walker.document):
                memo.parameters[key] = (schema, entry)
            else:
                entry = None
    if entry is not None:
        walker.work += entry.walk_work
        if walker.work > walker.max_work:
            walker.spend()
        _replay(walker.losses, entry.walk_losses)
        return {"$path": path, "$readOnly": True} if entry.read_only else {"$path": path, "$shared": entry}
    saved, work, walker.losses, walker.located = walker.losses, walker.work, {}, {}
    try:
        draft = walker.parameter(schema, path, 1)
        located = walker.located
    finally:
        walked, walker.losses, walker.located = walker.losses, saved, None
    entry = _Parameter(located, None, tuple(walked.items()), walker.work - work, bool(draft.get("$readOnly")))
    memo.parameters[key] = (schema, entry)
    if alone:
        memo.first[rest] = (schema, entry)
    elif content is not None:
        memo.by_content[content] = entry
    _replay(walker.losses, entry.walk_losses)
    if not entry.read_only:
        draft["$shared"] = entry
    return draft


def finish_parameter(walker: Walker, draft: Draft) -> dict[str, Any]:
    """Finish a shared parameter's draft once (``walker.finish_node``); later, the finished node, its losses
    and work replayed."""
    entry: _Parameter = draft.pop("$shared")
    if entry.finished is not None:
        walker.work += entry.finish_work
        if walker.work > walker.max_work:
            walker.spend()
        _replay(walker.losses, entry.finish_losses)
        return entry.finished
    saved, work, walker.losses = walker.losses, walker.work, {}
    try:
        finished = walker.finish_node(draft)
    finally:
        done, walker.losses = walker.losses, saved
    entry.finish_losses, entry.finish_work, entry.finished = tuple(done.items()), walker.work - work, finished
    _replay(walker.losses, entry.finish_losses)
    return finished


class _Reference:
    """One referenced schema walked inside a parameter: its draft (shared: no walk or finish changes a draft
    once it is built) and what the walk did besides building it."""

    __slots__ = ("checks", "draft", "height", "located", "losses", "need", "nodes", "target", "work")

    target: Any
    """The schema walked, kept so that its ``id`` in the key is not reused."""
    draft: Draft
    losses: tuple[tuple[LossKey, Loss], ...]
    """Every loss the walk reported, each key once, in order (replayed as they are: they point into the
    target's own pointer, which is in the key)."""
    located: dict[Any, Any]
    """Every ``$ref`` the walk read, with its target (added to a shared parameter's, checked before reuse)."""
    checks: Located | None
    nodes: int
    work: int
    height: int
    """How many nesting levels below the target the walk read (the nesting cut must not fall within them)."""
    need: int
    """How many references the walk met nested inside one another below the target (the reference depth it
    needs left to cut none; 0: it met no reference)."""

    def __init__(self, target: Any, draft: Draft, losses: tuple[tuple[LossKey, Loss], ...], located: dict[Any, Any]):
        self.target, self.draft, self.losses, self.located, self.checks = target, draft, losses, located, None
        self.nodes = self.work = self.height = self.need = 0


def walk_reference(walker: Walker, target: Any, where: str, nesting: int) -> Draft:
    """``walker.node(target, where, nesting)`` for a reference's target inlined inside a parameter (the target
    already on ``walker.inlining``), walked once per memo; later the same draft, with the walk's losses,
    references read, nodes and work replayed.

    Inside a parameter, the walk of a target reads nothing of the path that led to it but the nesting level
    (a nesting cut), the reference depth (a reference cut) and the references being inlined around it. The last
    only decides whether a reference met again without reading into the value is checked for left recursion;
    such a cycle through the target would have been met by its first walk too, which refused it (by that check
    or by the check of a cut reference), so a recorded walk never needs it. A walk that cut no reference is the
    same at any depth that leaves room for the references it inlined (:attr:`_Reference.need`); one that cut
    is kept for its depth and the references being inlined around it (how many: its cut losses name the depth).
    A replay that would fall within the nesting cut, run out of nodes or work, or read a reference that points
    elsewhere in this document walks again, so the cut and the error fall exactly where they would.
    """
    memo = walker.references
    assert memo is not None
    around, probe = len(walker.inlining), walker.origins is not None
    whole = (id(target), where, probe)
    entry = memo.references.get(whole)
    if entry is None or entry.need > walker.max_depth - around:
        entry = memo.references.get((*whole, walker.max_depth, around))
    if (
        entry is not None
        and entry.target is target
        and nesting + entry.height <= walker.max_nesting
        and walker.nodes + entry.nodes <= walker.max_nodes
        and walker.work + entry.work <= walker.max_work
        and _resolves(entry, walker.document)
    ):
        walker.nodes += entry.nodes
        walker.work += entry.work
        if nesting + entry.height > walker.deepest:
            walker.deepest = nesting + entry.height
        if entry.need and around + entry.need - 1 > walker.reach:
            walker.reach = around + entry.need - 1
        _replay(walker.losses, entry.losses)
        if walker.located is not None:
            walker.located.update(entry.located)
        return entry.draft
    losses, located, deepest, reach = walker.losses, walker.located, walker.deepest, walker.reach
    nodes, work = walker.nodes, walker.work
    walker.losses, walker.located, walker.deepest, walker.reach = {}, {}, nesting, 0
    try:
        draft = walker.node(target, where, nesting)
    finally:
        walked, read = walker.losses, walker.located
        height, inner = walker.deepest - nesting, walker.reach
        walker.losses, walker.located = losses, located
        walker.deepest, walker.reach = max(deepest, walker.deepest), max(reach, inner)
        _replay(losses, tuple(walked.items()))
        if located is not None:
            located.update(read)
    if nesting + height <= walker.max_nesting:  # nothing was cut for nesting: the draft holds at any level
        entry = _Reference(target, draft, tuple(walked.items()), read)
        entry.nodes, entry.work, entry.height = walker.nodes - nodes, walker.work - work, height
        entry.need = inner - around + 1 if inner else 0
        cut = inner >= walker.max_depth
        memo.references[(*whole, walker.max_depth, around) if cut else whole] = entry
    return draft


def _resolves(entry: _Reference, document: Refs) -> bool:
    """Whether every reference the walk of ``entry`` read points at the same schema in ``document``."""
    if entry.checks is None:
        entry.checks = tuple((ref, defs_name(ref), target) for ref, target in entry.located.items())
    return _same_targets(entry.checks, document)


def _reusable(entry: _Parameter, document: Refs) -> bool:
    """Whether ``entry`` is fully lowered and every reference it read still points at the same schema."""
    if not entry.read_only and entry.finished is None:
        return False
    if entry.checks is None:
        entry.checks = tuple((ref, defs_name(ref), target) for ref, target in entry.located.items())
    return _same_targets(entry.checks, document)


def _same_targets(checks: Located, document: Refs) -> bool:
    defs = document.root.get("$defs")
    defs = defs if defs.__class__ is dict else {}
    try:
        for ref, name, target in checks:
            found = defs.get(name) if name is not None else document.locate(ref)[1]
            if found is not target:
                return False
    except SchemaError:
        return False
    return True


def _replay(kept: dict[LossKey, Loss], losses: tuple[tuple[LossKey, Loss], ...]) -> None:
    for key, loss in losses:
        if key not in kept:
            kept[key] = loss


_NONE: Any = object()
"""No parameter yet at a place (:attr:`Memo.first`)."""
