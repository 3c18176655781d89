"""Binding view (OpenAPI tools): where each argument goes in the HTTP request, under which original name, and
what the runtime fills instead of the model: the security schemes, the credential parameters the spec declares
(taken out of the arguments, each with the environment variable that fills it) and the idempotency key."""

from __future__ import annotations

from toolkit._contract import parse_binding
from toolkit._display._core import binding_html, filled_rows
from toolkit._tool import Tool
from toolkit.widgets._base import View, html_widget

__all__ = ["BindingView", "binding_rows"]


def binding_rows(tool: Tool) -> list[tuple[str, str, str]]:
    """``(argument, location, name on the wire)`` for every argument, in the declaration's order."""
    rows: list[tuple[str, str, str]] = []
    for argument, value in tool.binding.items():
        location, original = parse_binding(value)
        wire = original or ("(the whole body)" if location == "body" else argument)
        rows.append((argument, location, wire))
    return rows


class BindingView(View):
    """The binding of an OpenAPI tool's arguments, and what the runtime fills (see the module docstring)."""

    def __init__(self, tool: Tool) -> None:
        self.tool = tool
        where = f"{tool.method.upper()} {tool.path}" if tool.method and tool.path else "the request"
        self.widget = html_widget(binding_html(where, binding_rows(tool), filled_rows(tool)))

    def summary(self) -> str:
        contract = self.tool.contract
        bound = ", ".join(f"{a}→{loc}{'' if w == a else ' ' + w}" for a, loc, w in binding_rows(self.tool))
        schemes = ", ".join(
            f"{s.key} ({s.kind} in {s.location}{', $' + s.env if s.env else ''})" for s in contract.security
        )
        used = {s.key for s in contract.security}
        removed = ", ".join(
            f"{c.name} ({c.location}, "
            + (f"by scheme {c.scheme}" if c.scheme in used else f"${c.env}" if c.env else "configuration only")
            + ")"
            for c in contract.credentials
        )
        text = f"Binding of {self.tool.name}: {bound or 'no arguments'}"
        text += f"; credentials: {schemes}" if schemes else "; no credentials"
        return text + (f"; removed: {removed}" if removed else "")
