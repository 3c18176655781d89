"""The public tool objects: :class:`Tool`, :class:`Toolset` and :class:`Rejection`.

A :class:`Tool` is a frozen bundle of a :class:`~toolkit._contract.ToolContract`, its lowered declaration,
the losses found on the way, and the boundary policy (its lints are found when first read). It holds no logic of
its own: validation, linting, calling and display are delegated to their stage modules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from toolkit._canonical import json_copy
from toolkit._context import ToolContext
from toolkit._contract import Effect, Lint, Loss, Policy, ToolContract
from toolkit._display import Displayable, displayed_by
from toolkit._lowering import DEFAULT_MAX_DEPTH, Lowered, Memo, Payload, lower, payload
from toolkit._lowering._budget import DEFAULT, Budget, BudgetFit, chosen_budget, fit
from toolkit._lowering._shared import Root
from toolkit._lowering._size import declaration_bytes, tokens
from toolkit._lowering.gemini import has_arguments
from toolkit._schema import has_silent_objects
from toolkit._validation import domain_rules, enforced_schema
from toolkit._validation import validate as validate_args
from toolkit._validation._enforce import check_enforceable

if TYPE_CHECKING:
    from toolkit._envelope import FieldError, ToolResult
    from toolkit._lints import LintMemo
    from toolkit._validation import Validator

__all__ = ["DocumentBuild", "DomainCheck", "Rejection", "Tool", "Toolset", "build_tool"]

DomainCheck = Callable[[Mapping[str, Any]], "Iterable[FieldError]"]
"""A domain rule: receives structurally valid arguments (JSON values), yields field errors (→ ``rejected``)."""


class Artefacts:
    """What a :class:`Tool` works out from its frozen fields on first use, and keeps: the schema its validator
    enforces (:func:`toolkit._validation.enforced_schema`), its validator (made by
    :func:`toolkit._validation.compiled`), its declaration's size, its lints, and its payload in each dialect
    asked for.

    A tool's own, never an argument: every copy of a tool (``dataclasses.replace``, :meth:`Tool.with_policy`)
    starts with an empty one, so nothing worked out for one policy or schema answers for another. (A plain
    class: a dataclass costs its module's import more than these few fields are worth.)
    """

    __slots__ = ("declaration_bytes", "lints", "payloads", "schema", "validator")

    schema: Mapping[str, Any] | None
    validator: Validator | None
    declaration_bytes: int | None
    lints: tuple[Lint, ...] | None
    payloads: dict[str, Payload]

    def __init__(self) -> None:
        self.schema = None
        self.validator = None
        self.declaration_bytes = None
        self.lints = None
        self.payloads = {}


@displayed_by("toolkit._display._core:TOOL_RENDERER")
@dataclass(frozen=True, slots=True, eq=False)
class Tool(Displayable):
    """One tool as the model sees it (``declaration``) and as the boundary enforces it (``args_schema``)."""

    contract: ToolContract
    parameters: Mapping[str, Any] | None
    lowering_losses: tuple[Loss, ...] = ()
    policy: Policy = field(default_factory=Policy)
    domain_checks: tuple[DomainCheck, ...] = ()
    fn: Callable[..., Any] | None = None
    converter: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    context_param: str | None = None
    budget_fit: BudgetFit | None = None
    """How the declaration met its size budget (``None`` for a tool built without one)."""
    _artefacts: Artefacts = field(default_factory=Artefacts, init=False, repr=False)

    # -- the contract, read-only -------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.contract.name

    @property
    def description(self) -> str:
        return self.contract.description

    @property
    def args_schema(self) -> dict[str, Any]:
        """The full JSON Schema 2020-12 the validator enforces (a fresh copy): the contract's, with the closure
        ``Policy.unlisted_properties="refuse"`` adds written in, so any 2020-12 validator agrees with toolkit."""
        return json_copy(dict(enforced_schema(self)))  # type: ignore[no-any-return]

    @property
    def declaration(self) -> dict[str, Any]:
        """The exact JSON the model receives in the default dialect (``gemini``), as a fresh plain dict."""
        out: dict[str, Any] = {"name": self.contract.name, "description": self.contract.description}
        if self.parameters is not None:
            out["parameters"] = json_copy(dict(self.parameters))
        return out

    @property
    def declaration_bytes(self) -> int:
        """The declaration's size as compact UTF-8 JSON, what its budget counts."""
        if self.budget_fit is not None:
            return self.budget_fit.after
        cached = self._artefacts.declaration_bytes
        if cached is None:
            cached = self._artefacts.declaration_bytes = declaration_bytes(self.declaration)
        return cached

    @property
    def declaration_tokens(self) -> int:
        """An approximate token count of the declaration (bytes / 4; see :mod:`toolkit._lowering._budget`)."""
        return tokens(self.declaration_bytes)

    def payload(self, dialect: str = "gemini") -> Payload:
        """The exact JSON one provider's SDK sends for this tool (``body``), with the dialect's losses and the
        name the provider sees, or a refusal. ``payload("gemini").body`` is :attr:`declaration`.

        Dialects: ``gemini``, ``gemini_json``, ``openai``, ``openai_responses``, ``anthropic``, ``mcp``.
        """
        cached = self._artefacts.payloads.get(dialect)
        if cached is None:
            given = None
            if dialect == "gemini":  # the declaration's own lowering: the two can never differ
                given = Lowered(json_copy(dict(self.parameters or {})), self.lowering_losses)
            cached = payload(self.contract, dialect, policy=self.policy, lowered=given)
            self._artefacts.payloads[dialect] = cached
        return replace(cached, body=json_copy(cached.body))

    @property
    def losses(self) -> tuple[Loss, ...]:
        return self.contract.source_losses + self.lowering_losses

    @property
    def lints(self) -> tuple[Lint, ...]:
        """The known traps the lint catalogue finds in this tool (see :mod:`toolkit._lints`), in catalogue order.

        A document's tools are linted as they are built (:func:`build_tool`), sharing what they have in common; a
        tool built alone, when its lints are first read, so a tool that is only built, declared and called never
        runs them.
        """
        found = self._artefacts.lints
        if found is None:
            from toolkit._lints import lint  # the lints load on first read: a first call has no use for them

            found = self._artefacts.lints = lint(self)
        return found

    @property
    def effect(self) -> Effect:
        return self.contract.effect

    @property
    def confirm(self) -> bool:
        return self.contract.confirm

    @property
    def binding(self) -> dict[str, str]:
        return dict(self.contract.binding)

    @property
    def unlisted_note(self) -> str | None:
        """How the boundary treats object keys a schema does not list, when the schema leaves it to the policy
        (``Policy.unlisted_properties``); ``None`` when every object schema says it itself."""
        if not has_silent_objects(self.contract.args_schema):
            return None
        if self.policy.unlisted_properties == "refuse":
            return "unlisted properties: refused at every depth (policy)"
        return "unlisted properties: allowed where the schema is silent (policy)"

    @property
    def operation_id(self) -> str | None:
        return self.contract.operation_id

    @property
    def method(self) -> str | None:
        return self.contract.method

    @property
    def path(self) -> str | None:
        return self.contract.path

    # -- behaviour, delegated ----------------------------------------------------------------------
    def validate(self, args: Any, *, fast: bool = True) -> ToolResult:
        """Check ``args`` (a dict or JSON text) strictly against ``args_schema``. Never raises for bad args.

        ``fast=False`` sets the validator's fast tier aside (the same answer, from the interpreted checks alone:
        see :mod:`toolkit._validation`).
        """
        return validate_args(self, args, fast)

    def call(self, args: Any, context: ToolContext | None = None) -> ToolResult:
        """Validate, convert to Python objects, call the function, wrap the outcome. Never raises for bad args.

        A parameter annotated :class:`toolkit.ToolContext` receives ``context`` (a default one if omitted); a
        parameter a framework fills (``contract.injected``) receives ``context.extras[its name]``. An
        exception's text reaches the envelope with its URL credentials hidden (``key=[KEY]``, userinfo).
        """
        # the conversion, the call and the redaction of what it raised load on the first call of a function
        from toolkit._validation._invoke import call as call_tool
        from toolkit.runtime.redaction import scrub_result

        return scrub_result(call_tool(self, args, context))

    def with_policy(self, **changes: Any) -> Tool:
        """A copy of this tool with some boundary policies changed (see :class:`toolkit.Policy`); a new
        ``declaration_budget`` lowers the declaration again (``None``: the default budget, which builds what no
        reduction fits with the error lint TK504; a set one refuses it)."""
        policy = replace(self.policy, **changes)
        if policy.declaration_budget == self.policy.declaration_budget:
            return replace(self, policy=policy)
        lowered, fitted = _fitted(self.contract, lower(self.contract.args_schema), policy, DEFAULT, None)
        parameters = lowered.schema if has_arguments(self.contract) else None
        return replace(self, policy=policy, parameters=parameters, lowering_losses=lowered.losses, budget_fit=fitted)

    def with_domain(self, *checks: DomainCheck) -> Tool:
        """A copy of this tool with extra domain checks (their failures give ``status: "rejected"``)."""
        return replace(self, domain_checks=self.domain_checks + checks)

    # -- display -----------------------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"<Tool {self.name!r} effect={self.effect} losses={len(self.losses)} lints={len(self.lints)}>"


@displayed_by("toolkit._display._core:REJECTION_RENDERER")
@dataclass(frozen=True, slots=True)
class Rejection(Displayable):
    """An opted-in operation that could not become a tool, and why (a stable slug and a message)."""

    operation_id: str | None
    method: str
    path: str
    slug: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "operation_id": self.operation_id,
            "method": self.method,
            "path": self.path,
            "slug": self.slug,
            "message": self.message,
        }


@displayed_by("toolkit._display._core:TOOLSET_RENDERER")
@dataclass(frozen=True, slots=True, eq=False)
class Toolset(Displayable):
    """The tools built from one OpenAPI document, and the operations refused on the way."""

    namespace: str
    tools: tuple[Tool, ...]
    rejected: tuple[Rejection, ...] = ()
    source: Mapping[str, Any] = field(default_factory=dict)
    """Provenance: ``{"path": ..., "sha256": ..., "openapi": ..., "title": ..., "version": ...}``."""
    toolset_budget: int | None = None
    """The bytes every declaration together may take (``from_openapi(toolset_budget=...)``; ``None``: no limit)."""

    def __iter__(self) -> Iterator[Tool]:
        return iter(self.tools)

    def __len__(self) -> int:
        return len(self.tools)

    def __getitem__(self, name: str) -> Tool:
        for tool in self.tools:
            if name in (tool.name, tool.operation_id):
                return tool
        raise KeyError(f"no tool named {name!r}; have: {', '.join(t.name for t in self.tools)}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.tools)

    @property
    def declaration_bytes(self) -> int:
        """The size of every tool's declaration together (what one request offering them all carries)."""
        return sum(tool.declaration_bytes for tool in self.tools)

    @property
    def declaration_tokens(self) -> int:
        """An approximate token count of every declaration together (see :attr:`Tool.declaration_tokens`)."""
        return tokens(self.declaration_bytes)

    def __repr__(self) -> str:
        return f"<Toolset {self.namespace!r} tools={len(self.tools)} rejected={len(self.rejected)}>"


class DocumentBuild:
    """The work the tools of one document share while they are built (an OpenAPI document's operations, whose
    ``$defs`` names mean the same schemas): pass one to :func:`build_tool` for each tool of the document.

    Each table is filled as the tools are built and only ever answers with what building the tool alone would
    give, so a tool is the same with or without one (``benchmarks/corpus_digest.py`` checks it on the corpus).
    A plain class, as :class:`Artefacts` is: three tables, filled, never compared or printed.
    """

    __slots__ = ("enforced", "lints", "lowering")

    lowering: Memo
    """Top-level parameters and whole ``args_schema`` roots already lowered (most are shared by many tools)."""
    lints: LintMemo
    """Top-level parameters already linted, and lowered nodes already measured."""
    enforced: set[int]
    """Schema nodes the validator was found able to enforce, by identity: shared definitions are checked once."""

    def __init__(self) -> None:
        from toolkit._lints import LintMemo  # the lints load on first use (a document's tools share this memo)

        self.lowering, self.lints, self.enforced = Memo(), LintMemo(), set()


def build_tool(
    contract: ToolContract,
    *,
    policy: Policy | None = None,
    domain_checks: Iterable[DomainCheck] = (),
    fn: Callable[..., Any] | None = None,
    converter: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    context_param: str | None = None,
    budget: Budget = DEFAULT,
    document: DocumentBuild | None = None,
) -> Tool:
    """Lower a contract's ``args_schema`` (``gemini``, the declaration's dialect) and bundle everything into a
    :class:`Tool`; other dialects are lowered on demand by :meth:`Tool.payload`, and the lints when first read
    (:attr:`Tool.lints`), except for a tool of a ``document``, linted here.

    The tool's domain checks are the contract's declarative ``domain_rules`` followed by ``domain_checks``.
    A schema the validator could not enforce (an unreadable pattern, a malformed or superseded keyword, a
    bad reference) raises :class:`~toolkit.SchemaError` here, when the tool is built, not on a call.
    ``document`` (one :class:`DocumentBuild` for the tools of one document) spares lowering, checking and
    linting what they share again. ``budget`` is the declaration's size budget in bytes unless the policy
    names one (``None``: no budget); a declaration no reduction fits raises ``SchemaError`` (slug
    ``declaration_over_budget``), except under the default budget (``"default"``, 8 KiB), which builds it whole
    with the error lint TK504.
    """
    policy = policy or Policy()
    memo = document.lowering if document is not None else None
    root = memo.root(contract.args_schema) if memo is not None else None  # what tools of these arguments share
    lowered = root.lowered if root is not None else None
    if lowered is None:
        lowered = lower(contract.args_schema, memo=memo)  # reads every reference, as the validator will
        done = document.enforced if document is not None else None
        check_enforceable(contract.args_schema, references=False, done=done)
        if root is not None:
            root.lowered = lowered  # lowered and enforceable: the next tool of this root needs neither again
    lowered, fitted = _fitted(contract, lowered, policy, budget, memo, root)
    parameters = lowered.schema if has_arguments(contract) else None
    tool = Tool(
        contract=contract,
        parameters=parameters,
        lowering_losses=lowered.losses,
        budget_fit=fitted,
        policy=policy,
        domain_checks=domain_rules(contract.domain_rules) + tuple(domain_checks),
        fn=fn,
        converter=converter,
        context_param=context_param,
    )
    if document is not None:  # linted now, while the memo holds what the document's other tools share
        from toolkit._lints import lint  # a tool built alone loads the lints when they are first read

        tool._artefacts.lints = lint(tool, document.lints)
    return tool


def _fitted(
    contract: ToolContract,
    lowered: Lowered,
    policy: Policy,
    budget: Budget,
    memo: Memo | None,
    root: Root | None = None,
) -> tuple[Lowered, BudgetFit]:
    """The lowering within the policy's budget, or else ``budget`` (see :mod:`toolkit._lowering._budget`)."""
    chosen, refuse = chosen_budget(budget, policy.declaration_budget)
    return fit(contract, lowered, chosen, DEFAULT_MAX_DEPTH, memo, root, refuse=refuse)
