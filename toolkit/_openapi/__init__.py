"""OpenAPI operations → tools: load, pin, select, name, resolve, normalise, flatten, then build.

:func:`from_openapi` reads a document or a pasted fragment (:mod:`._load`, checked against the lock file by
:mod:`._pin`), selects the opted-in operations before resolving anything (:mod:`._select`), names them
(:mod:`._naming`), flattens each one's inputs into a JSON Schema 2020-12 ``args_schema`` and a binding
(:mod:`._flatten` and :mod:`._body`, with :mod:`._definitions` and :mod:`._normalise`), takes out the parameters the
runtime fills (:mod:`._credential_rule`: secrets and an idempotency key), and hands a
:class:`~toolkit.ToolContract` to :func:`toolkit._tool.build_tool`. Failures are isolated per operation:
each becomes a :class:`~toolkit.Rejection` with a slug from :data:`._refusal.SLUGS`; only a document that
cannot be read at all (or a misuse such as a bad namespace) raises.
"""

from __future__ import annotations

import gc
import os
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from toolkit._contract import Effect, SecurityScheme, ToolContract
from toolkit._credential_record import env_name
from toolkit._exceptions import SchemaError, SpecError
from toolkit._lowering._budget import (
    DEFAULT,
    Budget,
    BudgetFit,
    budget_summary,
    check_budget,
    chosen_budget,
    over_toolset_budget,
)
from toolkit._openapi._credential_rule import document_credentials
from toolkit._openapi._definitions import Resolver
from toolkit._openapi._flatten import SpecContext, flatten
from toolkit._openapi._load import Document, load_document
from toolkit._openapi._naming import check_namespace, tool_name
from toolkit._openapi._pin import pin
from toolkit._openapi._refusal import SCHEMA_REFUSALS, SLUGS, Refusal
from toolkit._openapi._security import operation_schemes, servers_of
from toolkit._openapi._select import Candidate, Options, load_overrides, select_operations
from toolkit._tool import Rejection, Tool, Toolset, build_tool

__all__ = ["SLUGS", "from_openapi", "pin", "summarise"]

_READ_METHODS = frozenset({"GET", "HEAD"})


def from_openapi(
    source: str | os.PathLike[str] | bytes | Mapping[str, Any],
    namespace: str,
    overrides: Any = None,
    select: str = "extension",
    include_deprecated: bool = False,
    budget: Budget = DEFAULT,
    toolset_budget: int | None = None,
) -> Toolset:
    """Build the tools of an OpenAPI document (3.0, 3.1, 3.2 or Swagger 2.0) or fragment.

    ``source`` is YAML or JSON text, a path, bytes or a dict. ``overrides`` (a dict, YAML text or a path) is
    keyed by operationId or by ``"METHOD /path"``: ``true`` or ``{name, description, confirm, policy, domain,
    credentials}``; naming an operation there selects it, and operations that share an operationId are built
    only where named by method and path (see :mod:`._select`). ``select="all"`` opts in every operation
    (exploration, benchmarks).
    ``credentials: {keep: [name, ...], secret: [name, ...]}`` (also in ``x-agent-tool``) keeps a parameter the
    credential rule would take out, or takes out one it misses.

    ``budget`` is each declaration's size budget in bytes (``"default"``: 8 KiB, and a declaration no reduction
    fits is built with the error lint TK504; a number: a set budget, which refuses such an operation with
    ``declaration_over_budget``; ``None``: none; an operation's ``policy.declaration_budget`` in the overrides
    wins and is a set budget), ``toolset_budget`` the total's (none by default): see
    :mod:`toolkit._lowering._budget` for how declarations are reduced and when tools are refused.
    """
    check_namespace(namespace)
    chosen_budget(budget)
    check_budget(toolset_budget, "toolset_budget")
    options = load_overrides(overrides)
    with _gc_paused():
        toolset = _toolset(source, namespace, options, select, include_deprecated, budget)
    return _within(toolset, toolset_budget)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building: parsing and lowering allocate millions of
    acyclic dicts, and the collector's repeated full passes over them cost about a third of the time on
    GitHub's 13 MB description. Reference counting still frees everything; the previous state is restored."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _toolset(
    source: Any,
    namespace: str,
    options: Mapping[str, Options],
    select: str,
    include_deprecated: bool,
    budget: Budget = DEFAULT,
) -> Toolset:
    doc = load_document(source)
    resolver = Resolver(doc.root, ref_siblings=doc.major == "3.1")
    consumes = doc.root.get("consumes")
    ctx = SpecContext(
        resolver=resolver,
        swagger2=doc.major == "2",
        credentials=document_credentials(doc.root),
        namespace=namespace,
        consumes=tuple(consumes) if isinstance(consumes, list) else (),
    )
    selection = select_operations(
        doc.root, resolver, select=select, overrides=options, include_deprecated=include_deprecated
    )
    rejected = list(selection.rejected)
    named = _name_all(selection.candidates, namespace, rejected)
    tools: list[Tool] = []
    for candidate, name in named:
        outcome = _build(doc.root, candidate, name, ctx, budget)
        if isinstance(outcome, Rejection):
            rejected.append(outcome)
        else:
            tools.append(outcome)
    return Toolset(namespace, tuple(tools), tuple(rejected), _provenance(doc, selection.total))


def _within(toolset: Toolset, budget: int | None) -> Toolset:
    """The toolset less the tools refused to keep its declarations' total within ``budget``."""
    over = over_toolset_budget({tool.name: tool.declaration_bytes for tool in toolset.tools}, budget)
    if not over:
        return replace(toolset, toolset_budget=budget)
    refused = [
        Rejection(t.operation_id, t.method or "", t.path or "", "over_toolset_budget", over[t.name])
        for t in toolset.tools
        if t.name in over
    ]
    kept = tuple(t for t in toolset.tools if t.name not in over)
    return replace(toolset, tools=kept, rejected=(*toolset.rejected, *refused), toolset_budget=budget)


def summarise(toolset: Toolset) -> dict[str, Any]:
    """Counts for a report row: operations in the document, tools, refusals by slug, losses by keyword, the
    credentials taken out of the arguments by reason, and the declarations' sizes (each tool's, and the total;
    :func:`toolkit._lowering._budget.budget_summary`)."""
    refusals = Counter(r.slug for r in toolset.rejected)
    losses = Counter(loss.keyword for tool in toolset.tools for loss in tool.losses)
    credentials = Counter(c.reason for tool in toolset.tools for c in tool.contract.credentials)
    return {
        "operations": toolset.source.get("operations", len(toolset.tools) + len(toolset.rejected)),
        "tools": len(toolset.tools),
        "refusals": dict(sorted(refusals.items())),
        "losses": dict(sorted(losses.items())),
        "credentials": dict(sorted(credentials.items())),
        "declarations": budget_summary(_fits(toolset), toolset.toolset_budget),
    }


def _fits(toolset: Toolset) -> dict[str, BudgetFit]:
    return {t.name: t.budget_fit or BudgetFit(None, t.declaration_bytes, t.declaration_bytes) for t in toolset.tools}


# -- steps -------------------------------------------------------------------------------------------------
def _name_all(
    candidates: Sequence[Candidate], namespace: str, rejected: list[Rejection]
) -> list[tuple[Candidate, str]]:
    """Name every candidate; refuse bad names and **both** sides of every collision."""
    named: list[tuple[Candidate, str]] = []
    for candidate in candidates:
        try:
            named.append((candidate, tool_name(namespace, candidate.operation_id, candidate.options.name)))
        except Refusal as refusal:
            rejected.append(candidate.reject(refusal.slug, refusal.message))
    owners: dict[str, list[Candidate]] = {}
    for candidate, name in named:
        owners.setdefault(name, []).append(candidate)
    kept: list[tuple[Candidate, str]] = []
    for candidate, name in named:
        if len(owners[name]) == 1:
            kept.append((candidate, name))
            continue
        others = " and ".join(_label(o) for o in owners[name] if o is not candidate)
        message = f"tool name {name!r} also comes from {others}; rename one with x-agent-tool.name or overrides"
        rejected.append(candidate.reject("name_collision", message))
    return kept


def _label(candidate: Candidate) -> str:
    return f"{candidate.operation_id or '(no operationId)'} ({candidate.method} {candidate.path})"


def _build(
    root: Mapping[str, Any], candidate: Candidate, name: str, ctx: SpecContext, budget: Budget = DEFAULT
) -> Tool | Rejection:
    """One operation → one tool, or its refusal; nothing raised here escapes the operation, except a malformed
    domain rule or a credentials option that names no parameter: those are misuses of the overrides or the
    extension, and raise."""
    try:
        return _tool(root, candidate, name, ctx, budget)
    except Refusal as refusal:
        return candidate.reject(refusal.slug, refusal.message)
    except RecursionError:
        return candidate.reject("schema_too_deep", "a schema nests too deep to read")
    except Exception as exc:  # isolation: one operation never aborts the toolset
        if isinstance(exc, SchemaError | SpecError) and exc.slug in ("bad_domain_rule", "bad_overrides"):
            raise
        if isinstance(exc, SchemaError):
            slug = SCHEMA_REFUSALS.get(exc.slug)  # a schema the validator cannot enforce: the same slug
            if slug is not None:
                return candidate.reject(slug, exc.message)
            return candidate.reject("lowering_failed", f"{exc.slug}: {exc.message}")
        return candidate.reject("internal_error", f"{type(exc).__name__}: {exc}")


def _tool(root: Mapping[str, Any], candidate: Candidate, name: str, ctx: SpecContext, budget: Budget = DEFAULT) -> Tool:
    description = _description(candidate)
    schemes = _schemes(root, candidate.operation, ctx)
    flat = flatten(candidate, ctx, schemes)
    effect: Effect = "read" if candidate.method in _READ_METHODS else "write"
    confirm = candidate.options.confirm if candidate.options.confirm is not None else effect == "write"
    contract = ToolContract(
        name=name,
        description=description,
        args_schema=flat.args_schema,
        effect=effect,
        confirm=confirm,
        binding=flat.binding,
        source="openapi",
        operation_id=candidate.operation_id,
        method=candidate.method,
        path=candidate.path,
        source_losses=flat.losses,
        security=schemes,
        servers=servers_of(root, candidate.path_item, candidate.operation, ctx.servers),
        domain_rules=candidate.options.domain,
        credentials=flat.credentials,
        idempotency_key=flat.idempotency_key,
        form=flat.form,
    )
    policy = candidate.options.policy
    return build_tool(contract, policy=policy, budget=budget, document=ctx.build)


def _schemes(root: Mapping[str, Any], operation: Mapping[str, Any], ctx: SpecContext) -> tuple[SecurityScheme, ...]:
    """The security schemes the operation uses, each with its environment variable; once per requirement list."""
    requirements = operation.get("security")
    if requirements is None:
        requirements = root.get("security")
    found = ctx.schemes.get(id(requirements))
    if found is not None and found[0] is requirements:
        return found[1]
    used = operation_schemes(root, operation)
    schemes = tuple(replace(scheme, env=env_name(ctx.namespace, scheme.key)) for scheme in used)
    ctx.schemes[id(requirements)] = (requirements, schemes)
    return schemes


def _description(candidate: Candidate) -> str:
    """The first non-blank of: extension/overrides, the operation's description and summary, then the path
    item's (which OpenAPI says apply to all operations of the path)."""
    for text in (
        candidate.options.description,
        candidate.operation.get("description"),
        candidate.operation.get("summary"),
        candidate.path_item.get("description"),
        candidate.path_item.get("summary"),
    ):
        if isinstance(text, str) and text.strip():
            return text.strip()
    raise Refusal("missing_description", "no description: add one to x-agent-tool, the overrides or the operation")


def _provenance(doc: Document, total: int) -> dict[str, Any]:
    info = doc.root.get("info")
    info = info if isinstance(info, Mapping) else {}
    return {
        "path": doc.path,
        "sha256": doc.sha256,
        "openapi": doc.version,
        "title": info.get("title"),
        "version": None if info.get("version") is None else str(info.get("version")),
        "operations": total,
    }
