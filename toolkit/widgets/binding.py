"""Binding view (OpenAPI tools): where each argument goes in the HTTP request, under which original name, and
the credentials the runtime fills from configuration (never offered to the model)."""

from __future__ import annotations

from typing import Any

from toolkit._contract import parse_binding
from toolkit._display._core import binding_html
from toolkit._tool import Tool
from toolkit.widgets._base import View, html_widget

__all__ = ["BindingView", "binding_rows", "credential_rows"]


def binding_rows(tool: Tool) -> list[tuple[str, str, str]]:
    """``(argument, location, name on the wire)`` for every argument, in the declaration's order."""
    rows: list[tuple[str, str, str]] = []
    for argument, value in tool.binding.items():
        location, original = parse_binding(value)
        wire = original or ("(the whole body)" if location == "body" else argument)
        rows.append((argument, location, wire))
    return rows


def credential_rows(tool: Tool) -> list[tuple[str, str, str]]:
    """The spec's credential parameters taken out of the arguments (on contracts that record them)."""
    found: tuple[Any, ...] = getattr(tool.contract, "credentials", ())
    return [(str(getattr(c, "name", c)), str(getattr(c, "location", "")), _why(c)) for c in found]


def _why(credential: Any) -> str:
    return str(getattr(credential, "detail", "") or getattr(credential, "reason", ""))


class BindingView(View):
    """The binding of an OpenAPI tool's arguments, and its credentials."""

    def __init__(self, tool: Tool) -> None:
        self.tool = tool
        where = f"{tool.method.upper()} {tool.path}" if tool.method and tool.path else "the request"
        schemes = [(s.key, s.kind, s.location, s.name) for s in tool.contract.security]
        self.widget = html_widget(binding_html(where, binding_rows(tool), schemes, credential_rows(tool)))

    def summary(self) -> str:
        bound = ", ".join(f"{a}→{loc}{'' if w == a else ' ' + w}" for a, loc, w in binding_rows(self.tool))
        schemes = ", ".join(f"{s.key} ({s.kind} in {s.location})" for s in self.tool.contract.security)
        removed = ", ".join(name for name, _, _ in credential_rows(self.tool))
        text = f"Binding of {self.tool.name}: {bound or 'no arguments'}"
        text += f"; credentials: {schemes}" if schemes else "; no credentials"
        return text + (f"; removed: {removed}" if removed else "")
