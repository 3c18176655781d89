"""The wire: a request's tool list in one dialect, and the provider's tool calls mapped back to their tools.

    wire = tk.payloads([search, transfer], "openai")   # PayloadSet: names mapped, collisions refused
    wire.bodies                                        # the request's tools=[...], exactly
    call = wire.read(tool_call)                        # an SDK tool-call object or its dict -> Call
    result = call.run()                                # the envelope (validated; execute=True calls it)
    history += wire.turn([wire.reply(call, result)])   # the function-response message(s) for the next request

:func:`payloads` keeps the name mapping of one request (the contract's name ↔ the name the provider sees):
names that collide under the dialect's rule are refused (all of them, with slug ``name_collision``), so a
call in any dialect finds exactly one tool. A call to a name that is not in the request is not an exception:
its envelope says so (``invalid_arguments``, code ``unknown_tool``), and goes back to the model like any other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from toolkit._canonical import json_copy
from toolkit._context import ToolContext
from toolkit._display import Displayable, displayed_by
from toolkit._display._wire import PAYLOAD_SET_RENDERER
from toolkit._envelope import FieldError, ToolResult
from toolkit._exceptions import ToolCallShapeError, UsageError
from toolkit._lowering import Dialect, Payload, dialect_named
from toolkit._lowering._dialect import RawCall, refuse
from toolkit._tool import Tool

__all__ = ["Call", "PayloadSet", "payloads", "plain"]


@dataclass(frozen=True, slots=True, eq=False)
class Call:
    """A provider's tool call, read back: the name and arguments the model sent, its id, and the tool it names.

    ``tool`` is ``None`` when the name is not one the request offered; :meth:`run` then answers with an
    ``unknown_tool`` envelope instead of raising.
    """

    dialect: str
    name: str
    arguments: Any
    id: str | None
    tool: Tool | None
    offered: tuple[str, ...] = ()

    def run(self, *, execute: bool = False, context: ToolContext | None = None) -> ToolResult:
        """The envelope for this call: validation only, or (``execute=True``) the tool's own ``call``."""
        if self.tool is None:
            shown = ", ".join(self.offered[:20]) + (", ..." if len(self.offered) > 20 else "")
            error = FieldError("", "unknown_tool", f"no tool named {self.name!r} in this request", f"one of: {shown}")
            return ToolResult("invalid_arguments", errors=(error,))
        arguments = {} if self.arguments is None else self.arguments
        return self.tool.call(arguments, context) if execute else self.tool.validate(arguments)

    def to_dict(self) -> dict[str, Any]:
        tool = None if self.tool is None else self.tool.name
        return {"dialect": self.dialect, "name": self.name, "arguments": self.arguments, "id": self.id, "tool": tool}

    def __repr__(self) -> str:
        return f"<Call {self.dialect} {self.name!r} -> {self.tool.name if self.tool else None!r}>"


@displayed_by(PAYLOAD_SET_RENDERER)
@dataclass(frozen=True, slots=True, eq=False)
class PayloadSet(Displayable):
    """The tools of one request in one dialect: each tool's :class:`~toolkit.Payload`, in order."""

    dialect: str
    tools: tuple[Tool, ...]
    payloads: tuple[Payload, ...]

    @property
    def rules(self) -> Dialect:
        return dialect_named(self.dialect)

    @property
    def accepted(self) -> tuple[Payload, ...]:
        return tuple(p for p in self.payloads if p.accepted)

    @property
    def refused(self) -> tuple[Payload, ...]:
        return tuple(p for p in self.payloads if not p.accepted)

    @property
    def bodies(self) -> list[dict[str, Any]]:
        """The request's tool list, exactly as the provider's SDK sends it (a fresh copy)."""
        return [json_copy(p.body) for p in self.accepted]

    @property
    def size(self) -> int:
        """Bytes of every accepted body as compact JSON: what the tool list costs in each request."""
        return sum(p.size for p in self.accepted)

    @property
    def names(self) -> dict[str, str]:
        """``{contract name: name the provider sees}`` for every accepted tool."""
        return {p.tool: p.name for p in self.accepted}

    def tool_named(self, name: str) -> Tool | None:
        """The tool a provider name stands for (``None`` when the request did not offer it)."""
        for tool, item in zip(self.tools, self.payloads, strict=True):
            if item.accepted and item.name == name:
                return tool
        return None

    def read(self, raw: Any) -> Call:
        """A provider's tool call (an SDK object or its JSON dict) as a :class:`Call` naming its tool."""
        found = self.rules.read_call(plain(raw))
        offered = tuple(p.name for p in self.accepted)
        return Call(self.dialect, found.name, found.arguments, found.id, self.tool_named(found.name), offered)

    def reply(self, call: Call, result: ToolResult | Mapping[str, Any]) -> dict[str, Any]:
        """The provider's function-response item for ``call``, carrying the envelope."""
        envelope = result.to_dict() if isinstance(result, ToolResult) else dict(result)
        return self.rules.reply(RawCall(call.name, call.arguments, call.id), envelope)

    def turn(self, replies: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The message(s) that carry ``replies`` in the next request, after the model's own turn."""
        return self.rules.turn(replies)

    def to_dict(self) -> dict[str, Any]:
        return {"dialect": self.dialect, "payloads": [p.to_dict() for p in self.payloads], "size": self.size}

    def __repr__(self) -> str:
        return f"<PayloadSet {self.dialect} accepted={len(self.accepted)} refused={len(self.refused)}>"


def payloads(tools: Tool | Iterable[Tool], dialect: str = "gemini") -> PayloadSet:
    """Every tool's payload in ``dialect`` for one request; names that collide under the dialect's rule are
    refused (each of them, slug ``name_collision``), so every provider name maps back to one tool."""
    items = (tools,) if isinstance(tools, Tool) else tuple(tools)
    for tool in items:
        if not isinstance(tool, Tool):
            raise UsageError(f"payloads() takes tools (a Tool, a Toolset or a list of Tools), not {tool!r}")
    found = [tool.payload(dialect) for tool in items]
    owners: dict[str, list[str]] = {}
    for item in found:
        if item.accepted:
            owners.setdefault(item.name, []).append(item.tool)
    checked = []
    for item in found:
        names = owners.get(item.name, [])
        if item.accepted and len(names) > 1:
            others = " and ".join(repr(other) for other in names if other != item.tool) or "another tool of that name"
            message = (
                f"{item.tool!r} is sent as {item.name!r} in {item.dialect}, and so is {others}; "
                "rename one so that every name the model sees stands for one tool"
            )
            item = replace(item, body=None, losses=(), strict=None, refusal=refuse("name_collision", message))
        checked.append(item)
    return PayloadSet(found[0].dialect if found else dialect_named(dialect).name, items, tuple(checked))


def plain(raw: Any) -> Mapping[str, Any]:
    """An SDK object (pydantic) as its JSON dict; a mapping as it is."""
    if isinstance(raw, Mapping):
        return raw
    dump = getattr(raw, "model_dump", None)
    if callable(dump):
        value = dump(mode="json", exclude_none=True)
        if isinstance(value, Mapping):
            return value
    raise ToolCallShapeError(f"a tool call is an SDK tool-call object or its JSON dict, not a {type(raw).__name__}")
