"""Renderers for tools and what they carry: declaration, losses, lints, bindings, what the runtime fills,
toolsets and refusals.

Pure functions over the data types, which are imported for type checking only: the data modules import
this one to register their renderers (``@displayed_by(TOOL_RENDERER)``), never the other way round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toolkit._display import Renderer
from toolkit._display._markup import (
    badge,
    code_block,
    esc,
    html_table,
    json_text,
    one_line_json,
    plural,
    section,
    text_table,
    wrap,
)

if TYPE_CHECKING:
    from toolkit._contract import Lint, Loss
    from toolkit._lowering import Lowered
    from toolkit._tool import Rejection, Tool, Toolset

__all__ = [
    "FILLED_HEADERS",
    "LINT_RENDERER",
    "LOSS_RENDERER",
    "LOWERED_RENDERER",
    "REJECTION_RENDERER",
    "TOOLSET_RENDERER",
    "TOOL_RENDERER",
    "binding_html",
    "bindings_html",
    "declaration_html",
    "filled_html",
    "filled_rows",
    "injected_html",
    "injected_text",
    "lints_html",
    "lints_text",
    "losses_html",
    "losses_text",
    "size_note",
    "tool_html",
    "tool_text",
    "toolset_html",
    "toolset_text",
]

_LINT_HEADERS = ("code", "severity", "path", "message", "fix")
_LOSS_HEADERS = ("path", "keyword", "original value", "reason")


# -- lints and losses ----------------------------------------------------------------------------------
def _lint_row(lint: Lint) -> tuple[str, ...]:
    return (f"{lint.code} {lint.slug}", lint.severity, lint.path or "(tool)", lint.message, lint.fix)


def _loss_row(loss: Loss) -> tuple[Any, ...]:
    return (loss.path or "(root)", loss.keyword, one_line_json(loss.value), loss.reason)


def lints_text(lints: Sequence[Lint]) -> list[str]:
    if not lints:
        return ["lints: none"]
    return [f"lints ({len(lints)}):", *text_table(_LINT_HEADERS, [_lint_row(x) for x in lints])]


def losses_text(losses: Sequence[Loss]) -> list[str]:
    if not losses:
        return ["losses: none"]
    return [f"losses ({len(losses)}):", *text_table(_LOSS_HEADERS, [_loss_row(x) for x in losses])]


def lints_html(lints: Sequence[Lint]) -> str:
    if not lints:
        return "<p class='tk-empty'>No lints: none of the known traps was found.</p>"
    rows = [(f"{x.code} {x.slug}", badge(x.severity), x.path or "(tool)", x.message, x.fix) for x in lints]
    return html_table(_LINT_HEADERS, rows, row_kinds=[x.severity for x in lints], raw_columns=[1])


def losses_html(losses: Sequence[Loss]) -> str:
    if not losses:
        return "<p class='tk-empty'>No losses: the declaration carries every constraint.</p>"
    return html_table(_LOSS_HEADERS, [_loss_row(x) for x in losses])


def _lint_text(lint: Lint) -> str:
    return "\n".join(lints_text([lint]))


def _loss_text(loss: Loss) -> str:
    return "\n".join(losses_text([loss]))


LINT_RENDERER = Renderer(_lint_text, lambda x: wrap("lints", lints_html([x])))
LOSS_RENDERER = Renderer(_loss_text, lambda x: wrap("losses", losses_html([x])))


# -- one tool ------------------------------------------------------------------------------------------
def _headline(tool: Tool) -> str:
    where = f" · {tool.method.upper()} {tool.path}" if tool.method and tool.path else ""
    confirm = " · needs confirmation" if tool.confirm else ""
    source = tool.contract.framework
    origin = f" · from a {source.framework} {source.object_type.rsplit('.', 1)[-1]}" if source is not None else ""
    return f"Tool {tool.name} · {tool.effect}{confirm}{where}{origin}"


_INJECTED_HEADERS = ("parameter", "filled by", "type", "why it is not shown to the model")


def _injected_rows(tool: Tool) -> list[tuple[str, ...]]:
    return [(i.name, i.framework, i.type, i.reason) for i in tool.contract.injected]


def injected_text(tool: Tool) -> list[str]:
    """The parameters the runtime fills, and why (nothing when there are none)."""
    rows = _injected_rows(tool)
    return [f"injected ({len(rows)}):", *text_table(_INJECTED_HEADERS, rows)] if rows else []


def injected_html(tool: Tool) -> str:
    rows = _injected_rows(tool)
    return html_table(_INJECTED_HEADERS, rows) if rows else ""


def _binding_rows(tool: Tool) -> list[tuple[str, str]]:
    return [(arg, where) for arg, where in sorted(tool.binding.items())]


def bindings_html(tool: Tool) -> str:
    rows = _binding_rows(tool)
    return html_table(("argument", "binds to"), rows) if rows else ""


FILLED_HEADERS = ("parameter", "in", "why", "filled from")


def _source(env: str) -> str:
    return f"${env}" if env else "configuration only"


def filled_rows(tool: Tool) -> list[tuple[str, str, str, str]]:
    """What the runtime fills and the model never sees: the security schemes, the credential parameters taken
    out of the arguments (what, where, why, and the environment variable read by default), the idempotency key.
    One row per credential: a parameter the spec declares for a scheme's own header is said on the scheme's row.
    """
    contract = tool.contract
    used = {scheme.key for scheme in contract.security}
    covered = {(s.name.lower(), s.location) for s in contract.security}
    rows: list[tuple[str, str, str, str]] = []
    for s in contract.security:
        why = f"{s.kind.replace('_', ' ')} scheme {s.key!r}"
        if any(
            c.scheme == s.key and (c.name.lower(), c.location) == (s.name.lower(), s.location)
            for c in contract.credentials
        ):
            why += "; the spec's parameter of that name is taken out of the arguments"
        rows.append((s.name, s.location, why, _source(s.env)))
    for c in contract.credentials:
        if c.scheme in used and (c.name.lower(), c.location) in covered:
            continue  # one row per credential: the scheme's row says it
        source = f"scheme {c.scheme!r}" if c.scheme in used else _source(c.env)
        rows.append((c.name, c.location, c.detail + (" (required)" if c.required else ""), source))
    if contract.idempotency_key is not None:
        location, _, name = contract.idempotency_key.partition(".")
        rows.append((name, location, "the operation's idempotency key", "the ledger's dedupe key"))
    return rows


def filled_html(tool: Tool) -> str:
    rows = filled_rows(tool)
    return html_table(FILLED_HEADERS, rows) if rows else ""


def size_note(tool: Tool) -> str:
    """The declaration's size, approximate tokens, and what the budget cut: ``2,315 bytes, ~579 tokens``."""
    note = f"{tool.declaration_bytes:,} bytes, ~{tool.declaration_tokens:,} tokens"
    fit = tool.budget_fit
    if fit is not None and fit.reduced:
        note += f" (cut from {fit.before:,} to fit the {fit.budget:,}-byte budget: {', '.join(fit.reductions)})"
    elif fit is not None and fit.over:
        note += f" (over the default {fit.budget:,}-byte budget with every reduction: sent whole, lint TK504)"
    return note


_ARGUMENT_HEADERS = ("argument", "sent in", "as")


def binding_html(where: str, arguments: Sequence[tuple[str, str, str]], filled: Sequence[tuple[str, ...]]) -> str:
    """Where each argument goes in the request ``(argument, location, name on the wire)``, and what the runtime
    fills instead of the model (:func:`filled_rows`: schemes, credential parameters removed, idempotency key)."""
    parts = [section(f"Arguments → {where}", html_table(_ARGUMENT_HEADERS, arguments))]
    if filled:
        note = (
            "<p>Filled at run time from the configuration (<code>HttpConfig.credentials</code>, keyed by the "
            "scheme's or the parameter's name) or else the environment variable named; the model never sees "
            "them.</p>"
        )
        parts.append(section("Filled at run time, never by the model", html_table(FILLED_HEADERS, filled) + note))
    else:
        parts.append("<p class='tk-empty'>No credentials: the operation declares no security scheme.</p>")
    return wrap("binding", "".join(parts))


def declaration_html(tool: Tool) -> str:
    """The exact declaration the model receives, highlighted."""
    return code_block(json_text(tool.declaration), highlighted=True)


def tool_text(tool: Tool) -> str:
    policy = tool.unlisted_note
    declared = f"declaration ({size_note(tool)}):"
    lines = [_headline(tool), *([policy] if policy else []), declared, json_text(tool.declaration)]
    if tool.binding:
        lines += ["bindings:", *text_table(("argument", "binds to"), _binding_rows(tool))]
    if filled := filled_rows(tool):
        lines += ["filled at run time, never by the model:", *text_table(FILLED_HEADERS, filled)]
    lines += injected_text(tool) + losses_text(tool.losses) + lints_text(tool.lints)
    return "\n".join(lines)


def tool_html(tool: Tool) -> str:
    counts = f"{plural(len(tool.losses), 'loss')} · {plural(len(tool.lints), 'lint')}"
    policy = tool.unlisted_note
    parts = [
        f"<div class='tk-headline'><b>{esc(_headline(tool))}</b> · {esc(counts)}</div>",
        *([f"<div class='tk-policy'>{esc(policy)}</div>"] if policy else []),
        section(f"Declaration ({size_note(tool)})", declaration_html(tool)),
    ]
    if tool.binding:
        parts.append(section("Bindings", bindings_html(tool)))
    if tool.contract.injected:
        parts.append(section("Injected", injected_html(tool)))
    if filled_rows(tool):
        parts.append(section("Filled at run time", filled_html(tool)))
    parts += [section("Losses", losses_html(tool.losses)), section("Lints", lints_html(tool.lints))]
    return wrap("tool", "".join(parts))


TOOL_RENDERER = Renderer(tool_text, tool_html)


# -- toolsets and refusals ------------------------------------------------------------------------------
def _tool_row(tool: Tool) -> tuple[str, ...]:
    where = f"{tool.method.upper()} {tool.path}" if tool.method and tool.path else ""
    confirm = "yes" if tool.confirm else "no"
    size = f"{tool.declaration_bytes:,}{'*' if tool.budget_fit is not None and tool.budget_fit.reduced else ''}"
    return (tool.name, where, tool.effect, confirm, str(len(tool.losses)), str(len(tool.lints)), size)


_TOOL_HEADERS = ("tool", "operation", "effect", "confirm", "losses", "lints", "bytes")
_REFUSAL_HEADERS = ("operation", "operationId", "slug", "reason")


def _refusal_row(rejection: Rejection) -> tuple[str, ...]:
    return (
        f"{rejection.method.upper()} {rejection.path}",
        rejection.operation_id or "-",
        rejection.slug,
        rejection.message,
    )


def _toolset_headline(toolset: Toolset) -> str:
    source = toolset.source or {}
    title = f" from {source['title']} {source.get('version', '')}".rstrip() if source.get("title") else ""
    size = f"{toolset.declaration_bytes:,} bytes of declarations, ~{toolset.declaration_tokens:,} tokens"
    if toolset.toolset_budget is not None:
        size += f" (budget {toolset.toolset_budget:,})"
    tools = plural(len(toolset.tools), "tool")
    return f"Toolset {toolset.namespace}{title}: {tools}, {len(toolset.rejected)} refused; {size}"


_REDUCED_NOTE = "bytes: the declaration's size as compact JSON; * reduced to fit its budget (see each tool's losses)"


def toolset_text(toolset: Toolset) -> str:
    lines = [_toolset_headline(toolset)]
    if toolset.tools:
        lines += ["tools:", *text_table(_TOOL_HEADERS, [_tool_row(t) for t in toolset.tools])]
        if any(t.budget_fit is not None and t.budget_fit.reduced for t in toolset.tools):
            lines.append(_REDUCED_NOTE)
    if toolset.rejected:
        lines += ["refused:", *text_table(_REFUSAL_HEADERS, [_refusal_row(r) for r in toolset.rejected])]
    return "\n".join(lines)


def toolset_html(toolset: Toolset) -> str:
    parts = [f"<div class='tk-headline'><b>{esc(_toolset_headline(toolset))}</b></div>"]
    if toolset.tools:
        parts.append(section("Tools", html_table(_TOOL_HEADERS, [_tool_row(t) for t in toolset.tools])))
        if any(t.budget_fit is not None and t.budget_fit.reduced for t in toolset.tools):
            parts.append(f"<p class='tk-note'>{esc(_REDUCED_NOTE)}</p>")
    parts.append(refusals_html(toolset.rejected))
    return wrap("toolset", "".join(parts))


def refusals_html(rejected: Sequence[Rejection]) -> str:
    """The operations that could not become tools, each with its slug and reason (empty when none)."""
    if not rejected:
        return ""
    rows = [_refusal_row(r) for r in rejected]
    return section("Refused operations", html_table(_REFUSAL_HEADERS, rows, row_kinds=["fail"] * len(rows)))


def _rejection_text(rejection: Rejection) -> str:
    return "refused: " + "  ".join(_refusal_row(rejection))


TOOLSET_RENDERER = Renderer(toolset_text, toolset_html)
REJECTION_RENDERER = Renderer(
    _rejection_text, lambda r: wrap("refusal", html_table(_REFUSAL_HEADERS, [_refusal_row(r)]))
)


# -- lowering results ------------------------------------------------------------------------------------
def _lowered_text(lowered: Lowered) -> str:
    return "\n".join(["lowered schema:", json_text(lowered.schema), *losses_text(lowered.losses)])


def _lowered_html(lowered: Lowered) -> str:
    schema = section("Lowered schema", code_block(json_text(lowered.schema), highlighted=True))
    return wrap("lowered", schema + section("Losses", losses_html(lowered.losses)))


LOWERED_RENDERER = Renderer(_lowered_text, _lowered_html)
